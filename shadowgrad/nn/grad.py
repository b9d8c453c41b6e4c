"""Gradients of the convolutions with respect to their input and weight. Mirrors `torch.nn.grad`
(`conv{1,2,3}d_input`, `conv{1,2,3}d_weight`), which the custom-Function tutorials use to write
a convolution's backward by hand.

torch calls `aten.convolution_backward` with a placeholder for the tensor whose gradient it
computes; here the same gradient is the backward of the convolution at a zero placeholder (the
convolution is linear in each argument, so the placeholder's values do not matter). The result
is differentiable with respect to the other two tensors, as torch's is (its node is a composite
here, torch's ConvolutionBackwardBackward0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _creation
from .._grad_mode import enable_grad, is_grad_enabled
from .._tensor import Tensor
from ..autograd import grad as _autograd_grad
from . import functional as F

__all__ = [
    "conv1d_input",
    "conv1d_weight",
    "conv2d_input",
    "conv2d_weight",
    "conv3d_input",
    "conv3d_weight",
]


def _grad(
    conv: Callable[..., Tensor],
    wrt_input: bool,
    given: Tensor,
    size: Any,
    grad_output: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> Tensor:
    """The gradient of conv(input, weight) with respect to the argument whose shape is `size`,
    the other argument being `given`."""
    create = is_grad_enabled() and (given.requires_grad or grad_output.requires_grad)
    with enable_grad():
        hole = _creation.zeros(tuple(size), dtype=grad_output.dtype, requires_grad=True)
        args = (hole, given) if wrt_input else (given, hole)
        out = conv(*args, None, stride, padding, dilation, groups)
        (g,) = _autograd_grad(out, hole, grad_output, create_graph=create)
    return g


def conv1d_input(
    input_size: Any,
    weight: Tensor,
    grad_output: Tensor,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.grad.conv1d_input`."""
    return _grad(F.conv1d, True, weight, input_size, grad_output, stride, padding, dilation, groups)


def conv1d_weight(
    input: Tensor,
    weight_size: Any,
    grad_output: Tensor,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.grad.conv1d_weight`."""
    return _grad(
        F.conv1d, False, input, weight_size, grad_output, stride, padding, dilation, groups
    )


def conv2d_input(
    input_size: Any,
    weight: Tensor,
    grad_output: Tensor,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.grad.conv2d_input`."""
    return _grad(F.conv2d, True, weight, input_size, grad_output, stride, padding, dilation, groups)


def conv2d_weight(
    input: Tensor,
    weight_size: Any,
    grad_output: Tensor,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.grad.conv2d_weight`."""
    return _grad(
        F.conv2d, False, input, weight_size, grad_output, stride, padding, dilation, groups
    )


def conv3d_input(
    input_size: Any,
    weight: Tensor,
    grad_output: Tensor,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.grad.conv3d_input`."""
    return _grad(F.conv3d, True, weight, input_size, grad_output, stride, padding, dilation, groups)


def conv3d_weight(
    input: Tensor,
    weight_size: Any,
    grad_output: Tensor,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.grad.conv3d_weight`."""
    return _grad(
        F.conv3d, False, input, weight_size, grad_output, stride, padding, dilation, groups
    )
