"""Functional neural network ops. Mirrors `torch.nn.functional`.

The ops with their own backward nodes are declared in `shadowgrad/ops/nn_ops.py`; this module
holds torch's signatures, argument checks and the compositions that torch also composes
(cross_entropy, l1_loss, kl_div, cosine_similarity, scaled_dot_product_attention, ...).
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _formats
from .._signatures import _is_index
from .._signatures import check_int_list as _check_int_list
from .._signatures import check_tensors as _check_tensors
from .._signatures import invalid_combination as _invalid_combination
from .._signatures import no_attribute as _no_attribute
from .._signatures import not_tensor as _not_tensor
from .._signatures import parser_error as _parser_error
from .._signatures import reraise_as_called as _reraise_as_called
from .._tensor import Tensor, _make, warn_once
from ..autograd.forward_ad import _STATE as _FW
from ..autograd.forward_ad import ELEMENTWISE, _get_tangent
from ..backends import SDP_ENABLED as _SDP_ENABLED
from ..ops import nn_fused as _fused
from ..ops import nn_ops as K
from ..ops import pointwise as P
from ..ops._util import wrap_dim
from ..ops.aten_legacy import _check_conv_shapes, _check_output_padding
from ..ops.inplace import apply_inplace
from ..ops.linalg import _addmm as _ADDMM
from ..ops.registry import check_inference_saved, defop, show_saved

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool2d",
    "avg_pool1d",
    "avg_pool2d",
    "batch_norm",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "conv1d",
    "conv2d",
    "conv_transpose1d",
    "conv_transpose2d",
    "cosine_similarity",
    "cross_entropy",
    "dropout",
    "dropout1d",
    "dropout2d",
    "elu",
    "embedding",
    "fold",
    "gelu",
    "glu",
    "group_norm",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "huber_loss",
    "instance_norm",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "log_softmax",
    "logsigmoid",
    "max_pool1d",
    "max_pool2d",
    "mish",
    "mse_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "prelu",
    "relu",
    "relu6",
    "rrelu",
    "rrelu_",
    "scaled_dot_product_attention",
    "selu",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "softmax",
    "softmin",
    "softplus",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "unfold",
]


def _inplace(fn: Any, input: Tensor, *args: Any) -> Tensor:
    return apply_inplace(fn, input, *args)


# --- activations --------------------------------------------------------------------------


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.relu`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("relu_" if inplace else "relu", "input", 1, input)
    return _inplace(P.relu, input) if inplace else P.relu(input)


def relu_(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.relu_`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("relu_", "input", 1, input)
    return _inplace(P.relu, input)


def sigmoid(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.sigmoid`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "sigmoid")
    return P.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.tanh`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "tanh")
    return P.tanh(input)


def _check_float(input: Tensor, kernel: str, complex_ok: bool = False) -> None:
    """torch's not-implemented error of an activation kernel that has no integer (and, unless
    complex_ok, no complex) version."""
    dt = input.dtype
    if not (dt.is_floating_point or (complex_ok and dt.is_complex)):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")


def _no_complex(input: Tensor, kernel: str) -> None:
    if input.dtype.is_complex:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")


_CLAMP_COMPLEX = "clamp is not supported for complex types"


# --- the in-place kernels' own nodes --------------------------------------------------------
# torch records elu_/celu_/leaky_relu_/threshold_ as the *Backward1 overloads. elu_, celu_ and
# leaky_relu_ save the result (so a negative slope cannot be inverted: their backward raises);
# threshold_ keeps the input from before the write.

_NEG_SLOPE = (
    "In-place {} backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead."
)


def _elu_result_grad(
    grad: Tensor, result: Tensor, alpha: float, scale: float, input_scale: float
) -> Tensor:
    if alpha < 0:
        raise RuntimeError(_NEG_SLOPE.format("elu"))
    return K._elu_bw(grad, result, alpha, scale, input_scale, True)


def _leaky_result_grad(grad: Tensor, result: Tensor, negative_slope: float) -> Tensor:
    if negative_slope < 0:
        raise RuntimeError(
            _NEG_SLOPE.format("leakyReLu") + " File an issue at https://github.com/pytorch/"
            "pytorch if you do require supporting in-place leakRelu backward calculation with "
            "negative slope"
        )
    # torch's leaky_relu_backward(grad, result, negative_slope, is_result=True)
    return K._leaky_bw(grad, result, negative_slope)


def _inplace_op(op: Any, grad_fn: str, formula: Any) -> Any:
    return defop(
        op.op.name + "_", grad_fn, op.op.forward, dtype="keep", self=formula, jvp=ELEMENTWISE
    )


_elu_ = _inplace_op(K.elu_op, "EluBackward1", _elu_result_grad)
_celu_ = _inplace_op(
    K.celu_op,
    "CeluBackward1",
    lambda grad, result, alpha: _elu_result_grad(
        grad, result, alpha, 1.0, 1.0 / float(np.float32(alpha))
    ),
)
_leaky_relu_ = _inplace_op(K.leaky_relu_op, "LeakyReluBackward1", _leaky_result_grad)
_threshold_ = _inplace_op(
    K.threshold_op,
    "ThresholdBackward1",
    lambda grad, self, threshold: P._threshold_bw(grad, self, threshold),
)


# --- rrelu: a random slope per negative element in training, (lower + upper) / 2 otherwise ---


def _np_rrelu_backward(grad_output, self, noise, lower, upper, training):
    if training and upper - lower > 1e-6:
        return grad_output * noise
    slope = (lower + upper) / 2
    return np.where(self > 0, grad_output, grad_output * slope).astype(grad_output.dtype)


_rrelu_backward = defop(
    "rrelu_with_noise_backward",
    "RreluWithNoiseBackwardBackward0",
    _np_rrelu_backward,
    nondiff=("noise",),
    grad_output=lambda grad, self, noise, lower, upper, training: _rrelu_backward(
        grad, self, noise, lower, upper, training
    ),
    self=lambda grad: K.zeros_like(grad),  # torch's zeros_like(grad): no graph of its own
    jvp=ELEMENTWISE,
)


def _np_rrelu(self: np.ndarray, noise: np.ndarray, lower: float, upper: float, training: bool):
    if training:
        return (self * noise).astype(self.dtype, copy=False)
    slope = (lower + upper) / 2
    out = np.where(self > 0, self, self * slope).astype(self.dtype, copy=False)
    # torch writes into empty_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT)
    return out if out.flags.c_contiguous else np.ascontiguousarray(out)


def _rrelu_op(name: str, grad_fn: str, formula: Any) -> Any:
    return defop(
        name, grad_fn, _np_rrelu, dtype="keep", nondiff=("noise",), self=formula, jvp=ELEMENTWISE
    )


_rrelu = _rrelu_op(
    "rrelu_with_noise",
    "RreluWithNoiseBackward0",
    lambda grad, self, noise, lower, upper, training: _rrelu_backward(
        grad, self, noise, lower, upper, training
    ),
)
# torch's in-place kernel reads the result, whose sign is the input's
_rrelu_ = _rrelu_op(
    "rrelu_with_noise_",
    "RreluWithNoiseBackward1",
    lambda grad, result, noise, lower, upper, training: _rrelu_backward(
        grad, result, noise, lower, upper, training
    ),
)


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
    generator: Any = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.rrelu`: in training each element <= 0 is scaled by a slope
    drawn from U(lower, upper). (`generator` is torch.rrelu's, passed through.)"""
    if not isinstance(input, Tensor):
        raise _not_tensor("rrelu_" if inplace else "rrelu", "input", 1, input)
    if (lower.__class__ is not float and lower.__class__ is not int) or (
        upper.__class__ is not float and upper.__class__ is not int
    ):
        _positional_error("rrelu_" if inplace else "rrelu", (input, lower, upper, training))
    if not input.dtype.is_floating_point:
        # out of training torch runs leaky_relu with the mean slope
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    x = input._data
    noise = np.ones(x.shape, x.dtype)
    if training:
        from .. import _random
        from .. import _rng_kernels as RK

        # torch draws a slope for each element <= 0 only, walking the input in order
        neg = x <= 0
        g = _random._gen(generator)
        noise[neg] = RK.rrelu_slopes(g, int(neg.sum()), lower, upper, x.dtype)
    nt = _make(noise)
    if inplace:
        return _inplace(_rrelu_, input, nt, lower, upper, training)
    return _rrelu(input, nt, lower, upper, training)


def rrelu_(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.rrelu_`."""
    return rrelu(input, lower, upper, training, True)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.threshold`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("threshold_" if inplace else "threshold", "input", 1, input)
    if (threshold.__class__ is not float and threshold.__class__ is not int) or (
        value.__class__ is not float and value.__class__ is not int
    ):
        _positional_error("threshold_" if inplace else "threshold", (input, threshold, value))
    _no_complex(input, "threshold_cpu")
    if input.dtype is D.bool_:
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")

    if inplace:
        return _inplace(_threshold_, input, threshold, value)
    return K.threshold_op(input, threshold, value)


threshold.__name__ = threshold.__qualname__ = "_threshold"


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.leaky_relu`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("leaky_relu_" if inplace else "leaky_relu", "input", 1, input)
    _check_float(input, "leaky_relu_cpu")
    if type(negative_slope) is not float:  # a str, a list: torch's parser refuses them
        _scalar_refused("leaky_relu_" if inplace else "leaky_relu", (input, negative_slope))
        if isinstance(negative_slope, Tensor):  # a 0-d one: the parser reads its value
            negative_slope = negative_slope.item()
    if inplace:
        return _inplace(_leaky_relu_, input, negative_slope)
    return K.leaky_relu_op(input, negative_slope)


def _scalar_refused(name: str, args: tuple[Any, ...]) -> None:
    """A Number parameter of a function torch's F calls natively, given what its parser
    refuses (a str, a list): its error (positions as F passes them, positionally)."""
    from .._signatures import reraise

    reraise(name, args[1:], {}, False, args[:1])  # (first given: no call-site reading)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.elu`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("elu_" if inplace else "elu", "input", 1, input)
    _check_float(input, "elu_cpu")
    if type(alpha) is not float:  # a str, a list: torch's parser refuses them
        _scalar_refused("elu_" if inplace else "elu", (input, alpha))
        if isinstance(alpha, Tensor):  # a 0-d one: the parser reads its value
            alpha = alpha.item()
    if inplace:
        return _inplace(_elu_, input, alpha, 1, 1)  # torch's Scalar defaults: the int 1
    return K.elu_op(input, alpha, 1, 1)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.selu` (recorded as EluBackward0, as torch)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("selu_" if inplace else "selu", "input", 1, input)
    _check_float(input, "elu_cpu")
    if inplace:
        return _inplace(_elu_, input, _SELU_ALPHA, _SELU_SCALE, 1)
    return K.elu_op(input, _SELU_ALPHA, _SELU_SCALE, 1)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.celu`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("celu_" if inplace else "celu", "input", 1, input)
    if alpha.__class__ is not float and alpha.__class__ is not int:
        _positional_error("celu_" if inplace else "celu", (input, alpha))
        alpha = alpha.item() if isinstance(alpha, Tensor) else alpha  # a 0-d Tensor's value
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _check_float(input, "elu_cpu")
    return _inplace(_celu_, input, alpha) if inplace else K.celu_op(input, alpha)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """Mirrors `torch.nn.functional.gelu` (approximate is keyword-only, as torch's parser
    has it)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("gelu", "input", 1, input)
    if approximate not in ("none", "tanh"):
        if not isinstance(approximate, str):
            raise TypeError(
                f"gelu(): argument 'approximate' must be str, not {type(approximate).__name__}"
            )
        raise RuntimeError("approximate argument must be either none or tanh.")
    _check_float(input, "GeluKernelImpl")
    return K.gelu_op(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.silu`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("silu_" if inplace else "silu", "input", 1, input)
    _check_float(input, "silu_cpu", complex_ok=True)
    if inplace:
        return _inplace(K.silu_op, input)
    if input.dtype.is_complex:  # torch's out-of-place silu has no complex autograd
        from ..ops.shape_extra import _no_complex_autograd

        _no_complex_autograd("silu", input)
    return K.silu_op(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.mish`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("mish_" if inplace else "mish", "input", 1, input)
    _check_float(input, "mish_cpu")
    return _inplace(K.mish_op, input) if inplace else K.mish_op(input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """Mirrors `torch.nn.functional.softplus`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("softplus", "input", 1, input)
    if (beta.__class__ is not float and beta.__class__ is not int) or (
        threshold.__class__ is not float and threshold.__class__ is not int
    ):  # torch's parser takes a Number (or a 0-d Tensor)
        _reraise_as_called(
            "F.softplus", ("input", "beta", "threshold"), (input, beta, threshold), False
        )
        beta = beta.item() if isinstance(beta, Tensor) else beta  # a 0-d Tensor: its value
        threshold = threshold.item() if isinstance(threshold, Tensor) else threshold
    _check_float(input, "softplus_cpu")
    return K.softplus_op(input, beta, threshold)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.hardtanh`."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _hardtanh(input, min_val, max_val, inplace)


def _hardtanh(input: Tensor, min_val: Any, max_val: Any, inplace: bool) -> Tensor:
    """hardtanh past torch's Python check of its limits (hardtanh_ is native: it has none)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("hardtanh_" if inplace else "hardtanh", "input", 1, input)
    if input.dtype.is_complex:
        raise NotImplementedError(_CLAMP_COMPLEX)
    if input.dtype is D.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if input.dtype is D.uint8 and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if inplace:
        return _inplace(K.hardtanh_op, input, min_val, max_val)
    return K.hardtanh_op(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.relu6` (recorded as HardtanhBackward0, as torch)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("relu6_" if inplace else "relu6", "input", 1, input)
    return hardtanh(input, 0, 6, inplace)  # torch's ints (HardtanhBackward0's min/max_val)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.hardsigmoid`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("hardsigmoid_" if inplace else "hardsigmoid", "input", 1, input)
    _check_float(input, "hardsigmoid_cpu")
    return _inplace(K.hardsigmoid_op, input) if inplace else K.hardsigmoid_op(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.hardswish`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("hardswish_" if inplace else "hardswish", "input", 1, input)
    _check_float(input, "hardswish_cpu")
    return _inplace(K.hardswish_op, input) if inplace else K.hardswish_op(input)


def logsigmoid(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.logsigmoid`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("log_sigmoid", "input", 1, input)
    _check_float(input, "log_sigmoid_cpu")
    return K.logsigmoid_op(input)


# torch's own names (native log_sigmoid, Python _threshold), which Python's errors binding
# their arguments show
logsigmoid.__name__ = logsigmoid.__qualname__ = "log_sigmoid"


def softsign(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.softsign`: input / (1 + |input|) (DivBackward0)."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "abs")
    return input / (K._abs(input) + 1)


def _shrink_dtype(input: Tensor, kernel: str) -> None:
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """Mirrors `torch.nn.functional.hardshrink`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("hardshrink", "input", 1, input)
    _shrink_dtype(input, "hardshrink_cpu")
    return K.hardshrink_op(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """Mirrors `torch.nn.functional.softshrink`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("softshrink", "input", 1, input)
    _shrink_dtype(input, "softshrink_check")
    top = float(D.np_finfo(input._data.dtype).max)
    if lambd.__class__ is not float and lambd.__class__ is not int:
        # torch's parser takes a Number (or a 0-d Tensor: its value)
        _reraise_as_called("F.softshrink", ("input", "lambd"), (input, lambd), False)
        lambd = lambd.item() if isinstance(lambd, Tensor) else lambd
    if not 0 <= lambd <= top:
        raise RuntimeError(
            f"lambda must be in range [0, {top:g}] for input dtype {input.dtype._short}, but "
            f"found {lambd:g}"
        )
    return K.softshrink_op(input, lambd)


def tanhshrink(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.tanhshrink`: input - tanh(input) (SubBackward0)."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "tanh")
    return input - P.tanh(input)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Mirrors `torch.nn.functional.glu`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "dim")
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if dim.__class__ is not int:
        _positional_error("glu", (input, dim))  # torch's Python passes it by position
    d = wrap_dim(dim, input.ndim)
    n = input.shape[d]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    _check_float(input, "glu_cpu")
    return K.glu_op(input, dim if type(dim) is int else d)  # saved as given


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.prelu` (prelu_op makes torch's checks)."""
    return K.prelu_op(input, weight)


# --- softmax family -----------------------------------------------------------------------


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_input(
    input: Tensor, dim: int, dtype: Any, kernel: str = "softmax"
) -> tuple[Tensor, int]:
    if type(dim) is not int or (dtype is not None and type(dtype) is not D.dtype):
        # torch's F.softmax calls input.softmax(dim, dtype=dtype): its parser's error
        from .._signatures import reraise

        reraise(kernel, (dim,), {} if dtype is None else {"dtype": dtype})
    if dtype is not None:
        input = input.to(dtype)
    d = wrap_dim(dim, input.ndim)
    if not input.dtype.is_floating_point and input._data.size:  # (empty: no kernel runs)
        # torch's kernel name says whether the softmax runs over the last dimension
        kernel += "_lastdim_kernel_impl" if d >= input.ndim - 1 else "_kernel_impl"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")
    return input, d


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.nn.functional.softmax`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "dim" if dim is None else "softmax")
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    x, d = _softmax_input(input, dim, dtype)
    return K.softmax_op(x, dim if type(dim) is int else d)  # saved as given


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.nn.functional.softmin`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "dim") if dim is None else _no_attribute(-input, "softmax")
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim, _stacklevel)
    x, d = _softmax_input(-input, dim, dtype)  # torch's (-input).softmax(dim, dtype=dtype)
    return K.softmax_op(x, dim if type(dim) is int else d)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.nn.functional.log_softmax`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "dim" if dim is None else "log_softmax")
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    x, d = _softmax_input(input, dim, dtype, "log_softmax")
    return K.log_softmax_op(x, dim if type(dim) is int else d)


# --- dropout ------------------------------------------------------------------------------


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(input: Tensor, p: float, noise_shape: tuple[int, ...]) -> np.ndarray:
    """torch's dropout noise before scaling: `noise.bernoulli_(1 - p)` on empty_like(input) (its
    layout, so its memory order) or, for feature dropout, a new contiguous (N, C, 1, ...)."""
    from .. import _random
    from .. import _rng_kernels as RK

    real = input.dtype.to_real()
    if type(input._data) is not np.ndarray and input.is_meta:  # no values: no draw (torch's)
        return np.empty_like(input._data, real._np, shape=noise_shape)
    if noise_shape == tuple(input.shape):
        like = _random._like(input, real, None)
    else:
        like = np.empty(noise_shape, real._np)
    keep = RK.bernoulli_scalar(_random._gen(None), like.size, 1.0 - p)
    return RK.place(RK.cast(keep, like.dtype), like)


def _opmath(x: np.ndarray, dt: np.dtype) -> Any:
    """An op's operand in its computation type: float16 computes in float32, as torch's
    scalar ops on Half do."""
    return x.astype(np.float32) if dt == np.float16 else x


def _dropout(input: Tensor, p: float, training: bool, inplace: bool, noise_shape: Any) -> Tensor:
    _check_p(p)
    if not training or p == 0.0 or input._data.size == 0:
        return input
    if p == 1.0:
        noise = _make(np.zeros((), input._data.dtype))
    else:
        keep = _keep_mask(input, p, tuple(noise_shape))
        if not (input.dtype.is_floating_point or input.dtype.is_complex):
            # torch's noise.div_(1 - p), after its bernoulli_ has drawn
            raise RuntimeError(
                f"result type Float can't be cast to the desired output type {input.dtype._short}"
            )
        dt = keep.dtype
        # noise.div_(1 - p): the divisor rounded to the noise's (op)math type
        ct = np.float32 if dt == np.float16 else dt.type
        noise = _make((_opmath(keep, dt) / ct(1.0 - p)).astype(dt, copy=False))
    if inplace:
        return apply_inplace(P.mul, input, noise)
    return P.mul(input, noise)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Mirrors `torch.nn.functional.dropout`."""
    if not isinstance(input, Tensor):
        _check_p(p)
        raise _not_tensor("dropout_" if inplace else "dropout", "input", 1, input)
    if type(p) is not float and isinstance(p, Tensor):  # torch's parser reads a 0-d tensor
        _check_p(p)
        if p.ndim:
            name = "dropout_" if inplace else "dropout"
            raise TypeError(f"{name}(): argument 'p' (position 2) must be float, not Tensor")
        p = p.item()
    if training is not True and training is not False:  # torch's parser takes a bool only
        from .._signatures import reraise

        _check_p(p)  # (F.dropout checks p first, in Python)
        reraise("dropout_" if inplace else "dropout", (input, p, training), {}, False)
    return _dropout(input, p, training, inplace, tuple(input.shape))


# torch's _dropout_impl for alpha dropout (SELU networks): kept units are scaled by a and the
# dropped ones set to alpha' * a * p - alpha' * a (alpha' = SELU's alpha * scale), so the
# mean and variance are kept; recorded as a multiply then an in-place add, as in torch
_ALPHA = 1.7580993408473766


def _alpha_dropout(
    input: Tensor, p: float, training: bool, inplace: bool, noise_shape: Any
) -> Tensor:
    _check_p(p)
    if not training or p == 0.0 or input._data.size == 0:
        return input
    dt = input._data.dtype
    if p == 1.0:
        zero = _make(np.zeros((), dt))
        return apply_inplace(P.mul, input, zero) if inplace else P.mul(input, zero)
    keep = _keep_mask(input, p, tuple(noise_shape))
    if dt.kind in "biu":  # torch's noise (in the input's dtype) .mul_(a float): refused
        short = "Long" if dt.kind == "b" else input.dtype._short
        raise RuntimeError(f"result type Float can't be cast to the desired output type {short}")
    dt = keep.dtype
    ct = np.float32 if dt == np.float16 else dt.type
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    # b = noise.add(-1).mul_(alpha * a).add_(alpha * a * p); noise.mul_(a): one rounding each
    b = (_opmath(keep, dt) - ct(1)).astype(dt)
    b = (_opmath(b, dt) * ct(_ALPHA * a)).astype(dt)
    b = (_opmath(b, dt) + ct(_ALPHA * a * p)).astype(dt)
    noise = _make((_opmath(keep, dt) * ct(a)).astype(dt))
    out = apply_inplace(P.mul, input, noise) if inplace else P.mul(input, noise)
    return apply_inplace(P.add, out, _make(b))


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.alpha_dropout`."""
    if not isinstance(input, Tensor):
        _check_p(p)
        raise _not_tensor("alpha_dropout_" if inplace else "alpha_dropout", "input", 1, input)
    return _alpha_dropout(input, p, training, inplace, tuple(input.shape))


def feature_alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.feature_alpha_dropout`: one mask value per (sample,
    channel)."""
    if not isinstance(input, Tensor):
        _check_p(p)
        name = "feature_alpha_dropout"
        raise _not_tensor(name + "_" if inplace else name, "input", 1, input)
    shape = tuple(input.shape)
    noise = shape[:2] + (1,) * (len(shape) - 2) if len(shape) >= 2 else shape
    return _alpha_dropout(input, p, training, inplace, noise)


def _feature_dropout(
    input: Tensor, p: float, training: bool, inplace: bool, batched_ndim: int, name: str
) -> Tensor:
    _check_p(p)
    nd = input.ndim
    if nd not in (batched_ndim - 1, batched_ndim):
        raise RuntimeError(
            f"{name}: Expected {batched_ndim - 1}D or {batched_ndim}D input, but received a "
            f"{nd}D input. "
        )
    shape = tuple(input.shape)
    noise = (shape[0],) + (1,) * (nd - 1) if nd == batched_ndim - 1 else shape[:2] + (1,) * (nd - 2)
    return _dropout(input, p, training, inplace, noise)


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.dropout1d`."""
    if not isinstance(input, Tensor):
        _check_p(p)
        raise _no_attribute(input, "dim")
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs)."
        )
    if input.ndim == 3:
        return _feature_dropout(input, p, training, inplace, 3, "dropout1d")
    # torch's unbatched input: unsqueezed, dropped out and squeezed (the graph holds both, even
    # where the dropout is the identity)
    x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _feature_dropout(x, p, training, inplace, 3, "dropout1d")
    return out.squeeze_(0) if inplace else out.squeeze(0)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.dropout2d` (for 3-D and 4-D inputs; a 3-D input is taken as
    (N, C, L), torch's channel-wise 1-D behavior)."""
    _check_p(p)
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "dim")
    nd = input.ndim
    if nd not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {nd}-D input to dropout2d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 3D or 4D inputs).",
            stacklevel=2,
        )
    if nd == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2,
        )
    if nd < 2 and training and 0.0 < p < 1.0 and input._data.size:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return _dropout(input, p, training, inplace, tuple(input.shape[:2]) + (1,) * (nd - 2))


# --- linear -------------------------------------------------------------------------------


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """Mirrors `torch.nn.functional.linear`."""
    if bias is not None:
        # the common case, checked here at once: a batch of rows, a matrix and its bias, one
        # dtype (torch's addmm checks pass, so the op runs directly)
        try:
            d = input._data
            w = weight._data
            b = bias._data
        except AttributeError:
            _check_tensors("linear", ("input", "weight", "bias"), input, weight, bias)
            raise
        if (
            d.ndim == 2
            and w.ndim == 2
            and d.shape[1] == w.shape[1]
            and b.shape == w.shape[:1]
            and d.dtype == w.dtype == b.dtype
            and d.dtype.kind != "b"
        ):
            return _ADDMM(bias, input, weight.t(), 1, 1)
    elif not (isinstance(input, Tensor) and isinstance(weight, Tensor)):
        _check_tensors("linear", ("input", "weight"), input, weight)
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(
            "both arguments to linear need to be at least 1D, but they are "
            f"{input.ndim}D and {weight.ndim}D"
        )
    if input.ndim == 2 and bias is not None:
        return K._addmm(bias, input, weight.t())
    # torch flattens a contiguous input into one addmm when the bias looks fusable (one dim,
    # after squeezing, and contiguous); otherwise matmul, then the bias added in place
    if (
        bias is not None
        and (bias.ndim == 1 or bias.squeeze().ndim == 1)
        and bias.is_contiguous()
        and input.is_contiguous()
    ):
        shape = tuple(input.shape)
        x2 = input.reshape(math.prod(shape[:-1]), shape[-1])  # (no -1: a dim may be 0)
        out = K._addmm(bias, x2, weight.t())
        return out.view(*shape[:-1], out.shape[1])
    out = input.matmul(weight.t())
    if bias is not None:
        out = out.add_(bias)
    return out


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """Mirrors `torch.nn.functional.bilinear` (torch's _trilinear: TrilinearBackward0)."""
    if not (
        isinstance(input1, Tensor) and isinstance(input2, Tensor) and isinstance(weight, Tensor)
    ) or not (bias is None or isinstance(bias, Tensor)):
        _check_tensors(
            "bilinear", ("input1", "input2", "weight", "bias"), input1, input2, weight, bias
        )
    return _fused.bilinear(input1, input2, weight, bias)


# --- convolution --------------------------------------------------------------------------


def _tuple(v: Any, n: int, name: str = "") -> tuple[int, ...]:
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return tuple(int(v[0]) for _ in range(n))
        return tuple(int(x) for x in v)
    return (int(v),) * n


def _conv_param(v: Any, n: int, dim: int, name: str) -> tuple[int, ...]:
    """An n-tuple from F's int or list argument, with torch's check against the weight's
    spatial rank `dim` (a one-element list is expanded, as torch's expand_param_if_needed)."""
    vals = v if isinstance(v, (tuple, list)) else (v,)
    for x in vals:
        if x.__class__ is not int and not _is_index(x):
            raise TypeError(f"{name} must be int or a list of ints")  # (the parser's, above)
    t = tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),) * n
    if len(t) == 1:
        t = t * n
    elif len(t) != dim:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {dim} values to match "
            f"the convolution dimensions, but got {name}={list(t)}"
        )
    return t


def _dims_words(name: str, v: tuple[int, ...]) -> str:
    words = ("depth", "height", "width")[3 - len(v) :]
    return " ".join(f"{name}_{w}: {x}" for w, x in zip(words, v, strict=True))


def _conv_ok(
    x: np.ndarray,
    w: np.ndarray,
    bias: Tensor | None,
    s: tuple[int, ...],
    p: tuple[int, ...],
    d: tuple[int, ...],
    groups: int,
    transposed: bool,
    op: tuple[int, ...],
) -> bool:
    """Whether a convolution passes every check of `_check_conv` (the common case, in a few
    comparisons); otherwise `_check_conv` finds torch's error in torch's order."""
    ws, xs = w.shape, x.shape
    if transposed or len(xs) != len(ws) or x.dtype != w.dtype or x.dtype.kind == "b":
        return False  # (transposed convolutions always take the full check)
    if max(d) > 1 and x.dtype.kind in "iu" and x.dtype != np.int64:
        return False  # (no dilated kernel for this integer dtype: see _int_conv_kernel)
    if min(s) <= 0 or min(p) < 0 or min(d) <= 0 or ws[0] % groups or ws[0] < groups:
        return False
    if xs[1] != ws[1] * groups or (bias is not None and bias._data.shape != ws[:1]):
        return False
    return all(xs[i] + 2 * p[i - 2] >= d[i - 2] * (ws[i] - 1) + 1 for i in range(2, len(xs)))


def _check_conv(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    s: tuple[int, ...],
    p: tuple[int, ...],
    d: tuple[int, ...],
    groups: int,
    transposed: bool,
    op: tuple[int, ...],
) -> None:
    """torch's check_shape_forward and its CPU kernels' checks, in their order (input batched;
    tuples already expanded)."""
    if any(x < 0 for x in p):
        raise RuntimeError("negative padding is not supported")
    if any(x < 0 for x in op):
        raise RuntimeError("negative output_padding is not supported")
    if any(x <= 0 for x in s):
        raise RuntimeError("non-positive stride is not supported")
    if any(x < 0 for x in d):
        raise RuntimeError("dilation should be greater than zero")
    _check_conv_shapes(input, weight, bias, p, d, transposed, groups)  # check_shape_forward
    ws = list(weight.shape)
    n = input.ndim - 2
    # the CPU kernels' own checks: a 1-d convolution runs as a 2-d one over a height of 1
    d2 = d if n > 1 else (1, *d)
    if any(x == 0 for x in d):
        if transposed:
            got = _dims_words("dilation", d2).replace(" dilation_", ", dilation_")
            raise RuntimeError(f"dilation should be greater than zero, but got {got}")
        raise RuntimeError(f"dilation should be greater than zero, but got {list(d2)}")
    if transposed:
        _check_output_padding(op, s, d)
        sizes = [input.shape[2 + i] for i in range(n)]
        out = [
            (sizes[i] - 1) * s[i] - 2 * p[i] + d[i] * (ws[2 + i] - 1) + op[i] + 1 for i in range(n)
        ]
        if any(x < 1 for x in out):
            ins = [1, *sizes] if n == 1 else sizes
            outs = [1, *out] if n == 1 else out
            raise RuntimeError(
                f"Given input size per channel: ({' x '.join(map(str, ins))}). Calculated output "
                f"size per channel: ({' x '.join(map(str, outs))}). Output size is too small"
            )
    if transposed and input.numel() == 0 and input.shape[0] and input.shape[1]:
        # torch's Empty backend takes only an empty batch or empty channels
        shape = list(input.shape)
        raise RuntimeError(
            "Only zero batch or zero channel inputs are supported, but got input shape: "
            f"{[*shape[:2], 1, *shape[2:]] if n == 1 else shape}"
        )
    dt = input.dtype
    if dt is D.bool_ and input.numel():
        kernel = ("slow_conv2d_cpu", "compute_columns3d")[n == 3]
        if transposed:
            kernel = f"slow_conv_transpose{max(n, 2)}d_out_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    if dt._cat == 1 and dt is not D.int64 and input.numel():
        _int_conv_kernel(dt, n, transposed, d)
    if weight.dtype is not dt:
        if (dt is D.float16 and _onednn_fp16()) or (dt is D.bfloat16 and _onednn_bf16()):
            # the oneDNN path's check
            raise RuntimeError(
                f"Input type ({_type_name(dt)}) and weight type ({_type_name(weight.dtype)}) "
                "should be the same or input should be a MKLDNN tensor and weight is a dense "
                "tensor"
            )
        raise RuntimeError(f"expected scalar type {dt._short} but found {weight.dtype._short}")
    if transposed and n == 3 and bias is not None and bias.dtype is not dt:
        raise RuntimeError(f"expected scalar type {dt._short} but found {bias.dtype._short}")


@functools.cache
def _onednn_bf16() -> bool:
    """Whether torch's CPU convolution takes its oneDNN path for bfloat16 (ideep's
    mkldnn_bf16_device_check on x86: AVX512 BW, VL and DQ)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(f.read().split())
    except OSError:
        return False
    return {"avx512bw", "avx512vl", "avx512dq"} <= flags


@functools.cache
def _onednn_fp16() -> bool:
    """Whether torch's CPU convolution takes its oneDNN path for float16 (ideep's
    has_fp16_type_support: AVX512-FP16 or AVX-NE-CONVERT); elsewhere its native kernel checks
    the dtypes with its own wording."""
    try:
        features = np._core._multiarray_umath.__cpu_features__  # type: ignore[attr-defined]
    except AttributeError:
        features = {}
    if features.get("AVX512FP16"):
        return True
    try:
        with open("/proc/cpuinfo") as f:
            return "avx_ne_convert" in f.read().split()
    except OSError:
        return False


_CONV_SIGNATURES = (
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of "
        "ints padding = 0, tuple of ints dilation = 1, int groups = 1",
        (0, 1, 2),
    ),
    (
        "Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding "
        '= "valid", tuple of ints dilation = 1, int groups = 1',
        (0, 1, 2),
    ),
)


def _kernel_layout(out: Tensor, input: Tensor) -> Tensor:
    """Lay a fresh result of ours out as torch's kernels lay theirs, in
    input.suggest_memory_format(): channels-last(-3d) for such a 4-d (5-d) input, contiguous
    otherwise (numpy keeps an operand's odd strides, which torch's kernels do not)."""
    a = out._data
    if out._base is not None:
        return out
    if a.ndim in (4, 5) and input._data.ndim == a.ndim:
        fmt = _formats.suggested(input._data)
        if fmt is not _formats.contiguous_format:
            if not _formats.has_format(a, fmt):
                out._data = _formats.relayout(a, fmt)
            return out
    if not a.flags.c_contiguous:
        out._data = np.ascontiguousarray(a)
    return out


def _channels_last(*ts: Tensor) -> bool:
    """Whether torch's 2-d convolution and pooling kernels (CPU) give a channels-last result:
    one of the 4-d operands suggests that format (a plain contiguous array never does)."""
    for t in ts:
        a = t._data
        # (not flags.c_contiguous: numpy's ignores size-1 dims, torch's strides do not)
        if a.ndim == 4 and _formats.suggested(a) is _formats.channels_last:
            return True
    return False


def _positional_error(key: str, values: tuple[Any, ...]) -> None:
    """torch's parser error for a torch.nn.functional function written in Python, which
    passes its arguments to the native one by position (none when the parser takes them)."""
    err = _parser_error(key, values, {}, False)
    if err is not None:
        raise err


def _int_args(*vals: Any) -> bool:
    """Whether each value is an int or a tuple/list of ints, as torch's parser takes them
    (not a bool, a float or a str)."""
    for v in vals:
        if type(v) is int:
            continue
        for x in v if isinstance(v, (tuple, list)) else (v,):
            if isinstance(x, (bool, float, str)) or not hasattr(x, "__index__"):
                return False
    return True


def _conv_parser_error(n: int, transposed: bool, *values: Any) -> None:
    """conv{n}d's parser error for its int and int-list arguments, as the call gave them."""
    if not transposed:
        names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
        _reraise_as_called(f"conv{n}d", names, values, False)


def _conv_type_error(n: int, *args: Any) -> TypeError:
    """torch's conv{n}d error for arguments of the wrong types (its two overloads)."""
    return _invalid_combination(f"conv{n}d", _CONV_SIGNATURES, 7, *args)


def _int_conv_kernel(dt: Any, n: int, transposed: bool, dilation: Any) -> None:
    """torch's dilated and transposed convolution kernels take int64 alone of the integer
    dtypes (the plain one takes every integer dtype)."""
    if transposed or any(x != 1 for x in dilation):
        kernel = f"slow_conv_transpose{max(n, 2)}d_out_cpu" if transposed else "slow_conv_dilated<>"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")


def _conv(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
    n: int,
    transposed: bool = False,
    output_padding: Any = 0,
) -> Tensor:
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)) or not (
        bias is None or isinstance(bias, Tensor)
    ):
        if transposed:
            _check_tensors(f"conv_transpose{n}d", ("input", "weight", "bias"), input, weight, bias)
        args = [input, weight, bias, stride, padding, dilation, groups]
        while len(args) > 2 and args[-1] is (None, 1, 0, 1, 1)[len(args) - 3]:
            args.pop()  # the arguments left at their defaults: torch's list omits them
        raise _conv_type_error(n, *args)
    same = False
    if transposed and not _int_args(stride, padding, output_padding, groups, dilation):
        # (torch's parser names the argument: the wrapper's re-read of the call gives its error)
        raise TypeError(f"conv_transpose{n}d(): an argument must be int or tuple of ints")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        same = padding == "same"
        if same and any(x != 1 for x in _tuple(stride, n)):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
    if not transposed and bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(
            f"Input type ({D.CPP_NAMES[input.dtype]}) and bias type ({D.CPP_NAMES[bias.dtype]}) "
            "should be the same"
        )
    batched = input.ndim == n + 2
    if input.ndim not in (n + 1, n + 2):
        kind = "conv_transpose" if transposed else "conv"
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {kind}{n}d, but got "
            f"input of size: {list(input.shape)}"
        )
    if not batched:
        input = input.unsqueeze(0)
    if input.dtype.is_complex:  # torch's complex_convolution checks the parameters' types first
        for what, t in (("weight", weight), ("bias", bias)):
            if t is not None and t.dtype is not input.dtype:
                raise RuntimeError(
                    f"Input type ({_type_name(input.dtype)}) and {what} type "
                    f"({_type_name(t.dtype)}) should be the same"
                )
    if weight.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups.__class__ is not int:
        _conv_parser_error(n, transposed, input, weight, bias, stride, padding, dilation, groups)
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = weight.ndim - 2
    try:
        s = _conv_param(stride, n, dim, "stride")
        d = _conv_param(dilation, n, dim, "dilation")
        if not isinstance(padding, str):
            _conv_param(padding, n, dim, "padding")
    except (TypeError, ValueError):  # no int list: torch's parser refuses it first
        _conv_parser_error(n, transposed, input, weight, bias, stride, padding, dilation, groups)
        raise
    if isinstance(padding, str):
        p = (0,) * n
        if same:
            total = [d[i] * (weight.shape[2 + i] - 1) for i in range(min(n, dim))]
            p = tuple(t // 2 for t in total) + p[len(total) :]
            extra = [t - 2 * (t // 2) for t in total]
            if any(extra):
                warn_once(
                    "conv.same_odd_padding",
                    "Using padding='same' with even kernel lengths and odd dilation may require a "
                    "zero-padded copy of the input be created",
                )
                # torch pads the input's far side first when the total padding is odd
                pads: list[int] = []
                for i in reversed(range(len(extra))):
                    pads += [0, extra[i]]
                input = K.constant_pad_op(input, tuple(pads), 0)
    else:
        p = _conv_param(padding, n, dim, "padding")
    op = _conv_param(output_padding, n, dim, "output_padding") if transposed else (0,) * n
    if not _conv_ok(input._data, weight._data, bias, s, p, d, groups, transposed, op):
        if input.dtype is weight.dtype:  # torch's autograd saves before the kernel checks
            check_inference_saved(K.convolution_op, (input, weight, bias))
        _check_conv(input, weight, bias, s, p, d, groups, transposed, op)
    if bias is not None and bias.dtype is not input.dtype:
        # conv_transpose1d/2d add the bias into the input-typed output
        if not input.dtype.is_floating_point and bias.dtype.is_floating_point:
            raise RuntimeError(
                f"result type {bias.dtype._short} can't be cast to the desired output type "
                f"{input.dtype._short}"
            )
        bias = bias.to(input.dtype)
    if n == 1:
        s, p, d, op = (1, *s), (0, *p), (1, *d), (0, *op)
    out = K.convolution_op(input, weight, bias, s, p, d, transposed, op, groups)
    _conv_result_layout(out, input, weight, n, groups)
    return out if batched else out.squeeze(0)


def _conv_result_layout(out: Tensor, input: Tensor, weight: Tensor, n: int, groups: int) -> None:
    """A convolution's fresh result laid out as torch's CPU kernels lay it out."""
    if n == 2:
        if _channels_last(input, weight):
            _formats.formatted(out, _formats.channels_last)  # the same values, NHWC in memory
    elif out._data.ndim > 2 and type(out._data) is np.ndarray:
        _conv_layout_1d_3d(out, input, weight, n, groups)


def _conv_layout_1d_3d(out: Tensor, input: Tensor, weight: Tensor, n: int, groups: int) -> None:
    """torch's CPU convolution layouts beyond 2-d: a 3-d one is channels-last-3d when an
    operand suggests it and mkldnn runs it (not float64; a batch of one only with groups, a
    kernel over 3x3 or a large input; its slow kernel's result is contiguous); a 1-d one runs
    as a 2-d one over a contiguous input (torch's view4d), channels-last, so (N, C, L) with
    strides (C*L, 1, C), when the weight's 4-d view suggests it."""
    if n == 3:
        x = input._data
        if x.ndim != 5 or input.dtype is D.float64:
            return
        k = weight._data.shape
        if not (
            groups > 1
            or (k[-1] > 3 and k[-2] > 3)
            or x.shape[0] > 1
            or x.shape[0] * x.shape[1] * x.shape[2] * x.shape[3] > 20480
        ):
            return
        if any(_formats.suggested(t._data) is _formats.channels_last_3d for t in (input, weight)):
            _formats.formatted(out, _formats.channels_last_3d)
        return
    w = weight._data
    if w.ndim != 3 or type(w) is not np.ndarray or w.flags.c_contiguous:
        return
    s0, s1, s2 = w.strides
    w4 = np.lib.stride_tricks.as_strided(w, (w.shape[0], w.shape[1], 1, w.shape[2]),
                                         (s0, s1, s2 * w.shape[2], s2))  # fmt: skip
    if _formats.suggested(w4) is _formats.channels_last:
        a = out._data
        out._data = _formats.relayout(a[:, :, None], _formats.channels_last)[:, :, 0]


def conv1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.conv1d`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.conv2d`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv_transpose1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.conv_transpose1d`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, True, output_padding)


def conv_transpose2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.conv_transpose2d`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, True, output_padding)


def _pairs_error(key: str, input: Tensor, *values: Any) -> None:
    """torch's F.unfold/fold: each argument through _pair (an iterable's tuple, else the
    value twice), then im2col/col2im by position: its parser's error."""
    pairs = (tuple(v) if hasattr(v, "__iter__") else (v, v) for v in values)
    _positional_error(key, (input, *pairs))


def _im2col_args(names: tuple[str, ...], values: tuple[Any, ...]) -> list[tuple[int, int]]:
    out = []
    for name, v in zip(names, values, strict=True):
        if isinstance(v, (tuple, list)) and len(v) not in (1, 2):
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(v)}")
        out.append(_tuple(v, 2))
    return out  # type: ignore[return-value]


def _im2col_param_checks(k: Any, d: Any, p: Any, s: Any, order: str) -> None:
    """torch's im2col/col2im parameter checks; `order` is the sequence of their letters."""
    checks = {
        "k": (k[0] <= 0 or k[1] <= 0, "kernel size should be greater than zero", "kernel", k),
        "d": (d[0] <= 0 or d[1] <= 0, "dilation should be greater than zero", "dilation", d),
        "p": (p[0] < 0 or p[1] < 0, "padding should be non-negative", "pad", p),
        "s": (s[0] <= 0 or s[1] <= 0, "stride should be greater than zero", "stride", s),
    }
    for c in order:
        bad, msg, name, v = checks[c]
        if bad:
            raise RuntimeError(f"{msg}, but got {name}_height: {v[0]} {name}_width: {v[1]}")


def unfold(
    input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Tensor:
    """Mirrors `torch.nn.functional.unfold` (3-D or 4-D input)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("im2col", "input", 1, input)
    if not _int_args(kernel_size, dilation, padding, stride):
        _pairs_error("im2col", input, kernel_size, dilation, padding, stride)
    k, d, p, s = _im2col_args(
        ("kernel_size", "dilation", "padding", "stride"), (kernel_size, dilation, padding, stride)
    )
    _im2col_param_checks(k, d, p, s, "kdps")
    sh = tuple(input.shape)
    nd = len(sh)
    for i in (1, 2):
        if i >= nd:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, "
                f"{max(nd, 1) - 1}], but got {i})"
            )
    if not ((nd == 3 and sh[0] and sh[1] and sh[2]) or (nd == 4 and sh[1] and sh[2] and sh[3])):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
            f"dimensions for input, but got: {list(sh)}"
        )
    H, W = sh[-2:]
    oh = (H + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1
    ow = (W + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1
    if oh < 1 or ow < 1:
        raise RuntimeError(
            f"Given input with spatial size ({H}, {W}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of the array "
            f"of sliding blocks as ({oh}, {ow}), but its components must be at least one."
        )
    if not (input.dtype.is_floating_point or input.dtype.is_complex or input.dtype is D.bool_):
        raise NotImplementedError(f"\"im2col_out_cpu\" not implemented for '{input.dtype._short}'")
    return K.im2col_op(input, (H, W), k, d, p, s)  # 3-D input unbatched, as torch's im2col


def fold(
    input: Tensor,
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.fold` (2-D or 3-D input)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("col2im", "input", 1, input)
    if not _int_args(output_size, kernel_size, dilation, padding, stride):
        _pairs_error("col2im", input, output_size, kernel_size, dilation, padding, stride)
    o, k, d, p, s = _im2col_args(
        ("output_size", "kernel_size", "dilation", "padding", "stride"),
        (output_size, kernel_size, dilation, padding, stride),
    )
    _im2col_param_checks(k, d, p, s, "ksdp")
    sh = tuple(input.shape)
    nd = len(sh)
    if not ((nd == 2 and sh[0] and sh[1]) or (nd == 3 and sh[1] and sh[2])):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions for input, but got: {list(sh)}"
        )
    planes, length = sh[-2:]
    if planes % (k[0] * k[1]):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
            f"but got input.size(1)={planes} and kernel_size=({k[0]}, {k[1]})."
        )
    bh = (o[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    bw = (o[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    given = (
        f"Given output_size=({o[0]}, {o[1]}), kernel_size=({k[0]}, {k[1]}), dilation=({d[0]}, "
        f"{d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), "
    )
    if length != bh * bw:
        raise RuntimeError(
            f"{given}expected size of input's dimension 2 to match the calculated number of "
            f"sliding blocks {bh} * {bw} = {bh * bw}, but got input.size(2)={length}."
        )
    if bh < 1 or bw < 1:
        raise RuntimeError(
            f"{given}calculated shape of the array of sliding blocks as ({bh}, {bw}), which is "
            "invalid."
        )
    if not (input.dtype.is_floating_point or input.dtype.is_complex or input.dtype is D.bool_):
        raise NotImplementedError(f"\"col2im_out_cpu\" not implemented for '{input.dtype._short}'")
    return K.col2im_op(input, o, k, d, p, s)  # 2-D input unbatched, as torch's col2im


# --- pooling ------------------------------------------------------------------------------


def _pool_arg(v: Any, name: str, what: str, msg: str) -> tuple[int, int]:
    if not isinstance(v, (int, np.integer, tuple, list, Tensor)):  # (the callers' parser error)
        raise TypeError(
            f"{name}(): argument '{what}' must be tuple of ints, not {type(v).__name__}"
        )
    if isinstance(v, (tuple, list)) and len(v) not in (1, 2):
        raise RuntimeError(f"{name}: {what} must {msg}, or a tuple of two ints")
    return _tuple(v, 2)  # type: ignore[return-value]


def _pool_args(
    kernel_size: Any, stride: Any, padding: Any, dilation: Any, name: str = "max_pool2d"
) -> Any:
    """kernel, stride, padding, dilation as pairs, with torch's messages for bad lengths."""
    be = "either be"
    k = _pool_arg(kernel_size, name, "kernel_size", f"{be} a single int")
    no_stride = stride is None or (isinstance(stride, (list, tuple)) and not stride)
    s = k if no_stride else _pool_arg(stride, name, "stride", f"{be} omitted, a single int")
    p = _pool_arg(padding, name, "padding", f"{be} a single int")
    d = _pool_arg(dilation, name, "dilation", "be either a single int")
    return k, s, p, d


def _pool2d_check(input: Tensor, k: Any, s: Any, p: Any, d: Any, ceil_mode: bool) -> Any:
    """torch's pooling_output_shape and pool2d_shape_check, in their order; the output size."""
    H, W = input.shape[-2:]
    out = []
    for n, kk, ss, pp, dd in ((H, k[0], s[0], p[0], d[0]), (W, k[1], s[1], p[1], d[1])):
        if ss == 0:
            raise RuntimeError("stride should not be zero")
        if pp < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {pp}")
        if pp > int(((kk - 1) * dd + 1) / 2):  # C++'s division, toward zero
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={pp}, "
                f"kernel_size={kk} and dilation={dd}"
            )
        out.append(K.pool_out_size(n, kk, ss, pp, dd, ceil_mode))
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError(
            f"kernel size should be greater than zero, but got kH: {k[0]} kW: {k[1]}"
        )
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {s[0]} dW: {s[1]}")
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError(
            f"dilation should be greater than zero, but got dilationH: {d[0]} dilationW: {d[1]}"
        )
    sh = input.shape
    k_nd = input.ndim
    if not ((k_nd == 3 and sh[0] and sh[1] and sh[2]) or (k_nd == 4 and sh[1] and sh[2] and sh[3])):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
            f"got:{list(sh)}"
        )
    if k[1] // 2 < p[1] or k[0] // 2 < p[0]:
        raise RuntimeError(
            f"pad should be smaller than or equal to half of kernel size, but got padW = {p[1]}, "
            f"padH = {p[0]}, kW = {k[1]}, kH = {k[0]}"
        )
    if out[0] < 1 or out[1] < 1:
        c = sh[-3]
        raise RuntimeError(
            f"Given input size: ({c}x{H}x{W}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
            "Output size is too small"
        )
    return out


def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """Mirrors `torch.nn.functional.max_pool2d`: ties go to the window's first element."""
    try:
        if ceil_mode.__class__ is not bool:
            raise TypeError("ceil_mode")  # (torch's parser takes a bool only)
        k, s, p, d = _pool_args(kernel_size, stride, padding, dilation)
    except (TypeError, ValueError):  # torch's Python passes them to max_pool2d by position
        given = (input, kernel_size, [] if stride is None else stride, padding, dilation)
        err = _parser_error("F.max_pool2d", (*given, ceil_mode), {}, False)
        if err is not None:
            raise err from None
        raise
    if input.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    _pool2d_check(input, k, s, p, d, ceil_mode)
    if input.dtype is D.bool_ or input.dtype.is_complex:
        raise NotImplementedError(f"\"max_pool2d\" not implemented for '{input.dtype._short}'")
    idx = K.max_pool2d_indices(input._data, k, s, p, d, ceil_mode)
    cl = _channels_last(input)
    if cl:  # the result and its indices laid out as the input, as torch
        idx = _formats.relayout(idx, _formats.channels_last)
    out = K.max_pool2d_op(input, _make(idx), tuple(input.shape))
    show_saved(
        out,
        kernel_size=_pool_given(kernel_size),
        stride=_pool_given(stride),
        padding=_pool_given(padding),
        dilation=_pool_given(dilation),
        ceil_mode=ceil_mode,
    )
    if cl:
        _formats.formatted(out, _formats.channels_last)
    return (out, _make(idx)) if return_indices else out


def _pool_given(v: Any) -> tuple[int, ...]:
    """A 2-d pooling's int list argument as torch's node saves it: an int for both dims, a
    list as given, none (a stride not given) empty."""
    if v is None:
        return ()
    return (int(v), int(v)) if isinstance(v, int) else tuple(int(e) for e in v)


def _one_int(v: Any, fn: str, name: str) -> None:
    """torch's check of a one-element int list argument of a 1-d pool."""
    if isinstance(v, (tuple, list)) and len(v) != 1:
        raise RuntimeError(f"{fn}() argument '{name}' should contain one int (got {len(v)})")


_POOL1D_ARGS = ("kernel_size", "stride", "padding", "dilation")


def _check_1d_input(input: Tensor, name: str) -> None:
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
            f"#1 'self' (while checking arguments for {name})"
        )


def _check_max_pool1d(
    input: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool
) -> None:
    """torch's max_pool1d checks (its own kernel, without indices)."""
    sh = input.shape
    if input.ndim not in (2, 3) or not all(sh[-2:]) or (input.ndim == 2 and not sh[0]):
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
            f"input, but got:{list(sh)}"
        )
    if isinstance(kernel_size, (tuple, list)) and len(kernel_size) != 1:
        raise RuntimeError(
            "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 "
            f"but got size {len(kernel_size)}"
        )
    for name, v, allowed in (
        ("stride", stride, "None, an int, list of ints, or"),
        ("padding", padding, "an int, list of ints, or"),
        ("dilation", dilation, "an int, list of ints or"),
    ):
        if isinstance(v, (tuple, list)) and len(v) > 1:
            raise RuntimeError(
                f"max_pool1d() {name} must be {allowed} tuple of ints of size 1 but got size "
                f"{len(v)}"
            )
    k = _tuple(kernel_size, 1)[0]
    s = k if stride is None or (isinstance(stride, (tuple, list)) and not stride) else None
    s = _tuple(stride, 1)[0] if s is None else s
    p, d = _tuple(padding, 1)[0], _tuple(dilation, 1)[0]
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(
            f"max_pool1d() padding should be at most half of kernel size, but got padding={p} "
            f"and kernel_size={k}"
        )
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    ow = K.pool_out_size(sh[-1], k, s, p, d, ceil_mode)
    if ow <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {ow}")
    if not input.dtype.is_floating_point:
        # torch's own kernel (no indices asked, no grad) dispatches over floating types only; an
        # input that requires grad (in grad mode) goes through max_pool2d, whose error it is
        from .._grad_mode import is_grad_enabled

        kernel = "max_pool2d" if input.requires_grad and is_grad_enabled() else "max_pool1d_impl"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")


def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """Mirrors `torch.nn.functional.max_pool1d` (a 2-d pool over a height of 1, as torch)."""
    if return_indices:
        _check_1d_input(input, "max_pool1d")
        # torch's check1d on each (an empty stride means the kernel size)
        for name, v in zip(_POOL1D_ARGS, (kernel_size, stride, padding, dilation), strict=True):
            if isinstance(v, (tuple, list)) and len(v) != 1 and (v or name != "stride"):
                raise RuntimeError(
                    f"max_pool1d() argument '{name}' should contain one int (got {len(v)})"
                )
    else:
        _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    s = None if stride is None or (stride == () or stride == []) else (1, _tuple(stride, 1)[0])
    r = max_pool2d(
        input.unsqueeze(-2),
        (1, _tuple(kernel_size, 1)[0]),
        s,
        (0, _tuple(padding, 1)[0]),
        (1, _tuple(dilation, 1)[0]),
        ceil_mode,
        return_indices,
    )
    if return_indices:
        return r[0].squeeze(-2), r[1].squeeze(-2)
    if r._grad_fn is None and not (_FW.active and _get_tangent(input) is not None):
        # torch's max_pool1d without grad: its own kernel, a fresh contiguous result (the
        # 2-d pool over a unit height, a view laid out as the input, is for autograd)
        return _make(np.ascontiguousarray(r._data.squeeze(-2)))
    return r.squeeze(-2)


def _check_divisor_override(name: str, v: Any) -> None:
    """torch's parser on avg_pool's `int? divisor_override` (by keyword), then its kernel's."""
    if isinstance(v, (bool, float, np.bool_, np.floating)) or not hasattr(v, "__index__"):
        raise TypeError(
            f"{name}(): argument 'divisor_override' must be int, not {type(v).__name__}"
        )
    if v == 0:
        raise RuntimeError("divisor must be not zero")


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.avg_pool2d`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("avg_pool2d", "input", 1, input)
    try:
        if ceil_mode.__class__ is not bool or count_include_pad.__class__ is not bool:
            raise TypeError("ceil_mode")  # (torch's parser takes a bool only)
        if divisor_override is not None and divisor_override.__class__ is not int:
            d = divisor_override
            if not isinstance(d, np.integer) and not (  # torch's parser reads a 0-d int Tensor
                isinstance(d, Tensor) and d.ndim == 0 and d.dtype._cat == 1
            ):
                if isinstance(d, Tensor):  # (a bool one too, which the parser's int check takes)
                    raise TypeError(
                        "avg_pool2d(): argument 'divisor_override' must be int, not Tensor"
                    ) from None
                raise TypeError("divisor_override")
            divisor_override = int(d)
        k, s, p, _ = _pool_args(kernel_size, stride, padding, 1, "avg_pool2d")
    except (TypeError, ValueError):  # the native avg_pool2d's parser error, as called
        names = ("input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad")
        values = (input, kernel_size, stride, padding, ceil_mode, count_include_pad)
        _reraise_as_called(
            "F.avg_pool2d", (*names, "divisor_override"), (*values, divisor_override), False
        )
        raise
    if divisor_override is not None:
        _check_divisor_override("avg_pool2d", divisor_override)
    if input.ndim < 3:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(input.ndim, 1)}, "
            f"{max(input.ndim, 1) - 1}], but got -3)"
        )
    H, W = input.shape[-2:]
    out = tuple(_pool2d_check(input, k, s, p, (1, 1), ceil_mode))
    if not input.dtype.is_floating_point and input.dtype is not D.int64:
        raise NotImplementedError(f"\"avg_pool2d\" not implemented for '{input.dtype._short}'")
    div = K.avg_pool_divisor(H, W, k, s, p, out, count_include_pad, divisor_override)
    r = K.avg_pool2d_op(input, div, k, s, p, out)
    show_saved(
        r,
        kernel_size=_pool_given(kernel_size),
        stride=_pool_given(stride),
        padding=_pool_given(padding),
        ceil_mode=ceil_mode,
        count_include_pad=count_include_pad,
        divisor_override=divisor_override,
    )
    return _formats.formatted(r, _formats.channels_last) if _channels_last(input) else r


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """Mirrors `torch.nn.functional.avg_pool1d` (a 2-d pool over a height of 1, as torch)."""
    _check_1d_input(input, "avg_pool1d")
    _one_int(kernel_size, "avg_pool1d", "kernel_size")
    if stride is not None:
        _one_int(stride, "avg_pool1d", "stride")
    _one_int(padding, "avg_pool1d", "padding")
    s = None if stride is None else (1, _tuple(stride, 1)[0])
    return avg_pool2d(
        input.unsqueeze(-2),
        (1, _tuple(kernel_size, 1)[0]),
        s,
        (0, _tuple(padding, 1)[0]),
        ceil_mode,
        count_include_pad,
    ).squeeze(-2)


def _adaptive_size(input: Tensor, output_size: Any) -> tuple[int, int]:
    o = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,) * 2
    H, W = input.shape[-2:]
    return (H if o[0] is None else int(o[0]), W if o[1] is None else int(o[1]))


def _check_adaptive_2d(input: Tensor, name: str, colon: str, first: int = 1) -> None:
    """torch's checks: 3-d or 4-d, no empty dimension from `first` on (the average's kernel
    checks only the spatial ones: empty channels pass)."""
    k = input.ndim
    if k not in (3, 4):
        raise RuntimeError(
            f"{name}(): Expected 3D or 4D tensor, but got{colon} {list(input.shape)}"
        )
    for i in range(k - 2 if first < 0 else first, k):
        if input.shape[i] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"input has sizes {list(input.shape)} with dimension {i} being empty"
            )


def _list_with_default(output_size: Any, input: Any) -> None:
    """torch's Python prelude of the 2-d and 3-d adaptive pools: `input.size()` first, then an
    output size with as many entries as the input has dimensions is refused."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "size")
    if not isinstance(output_size, int) and input.ndim <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Mirrors `torch.nn.functional.adaptive_avg_pool2d` (output 1x1 is a mean, as torch)."""
    _list_with_default(output_size, input)
    if isinstance(output_size, (tuple, list)) and len(output_size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if input.ndim < 2:
        o = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * 2
        if None in o:
            raise RuntimeError(
                f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}"
            )
        oh, ow = int(o[0]), int(o[1])
    else:
        oh, ow = _adaptive_size(input, output_size)
    if oh < 0 or ow < 0:
        raise RuntimeError(
            "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
            f"received {{{oh}, {ow}}}"
        )
    if (oh, ow) == (1, 1):
        out = input.mean((-1, -2), keepdim=True)
        if input.ndim == 4 and _formats.suggested(input._data) is _formats.channels_last:
            # torch restrides a channels-last input's mean to (c, 1, c, c): the same memory
            c = out._data.shape[1]
            item = out._data.itemsize
            out._data = np.lib.stride_tricks.as_strided(
                out._data, out._data.shape, (c * item, item, c * item, c * item)
            )
        return out
    _check_adaptive_2d(input, "adaptive_avg_pool2d", "", -2)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"adaptive_avg_pool2d\" not implemented for '{input.dtype._short}'"
        )
    H, W = input.shape[-2:]
    r = K.adaptive_avg_pool2d_op(input, K.adaptive_matrix(H, oh), K.adaptive_matrix(W, ow))
    return _kernel_layout(r, input)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """Mirrors `torch.nn.functional.adaptive_avg_pool1d`."""
    _check_1d_input(input, "adaptive_avg_pool1d")
    _one_int(output_size, "adaptive_avg_pool1d", "output_size")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _tuple(output_size, 1)[0])).squeeze(-2)


def check_new_shape(shape: tuple[int, ...]) -> None:
    """torch's error allocating a result of a negative size."""
    for n in shape:
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(shape)}"
            )


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Mirrors `torch.nn.functional.adaptive_max_pool2d`."""
    _list_with_default(output_size, input)
    if not isinstance(output_size, int) and len(output_size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    _check_adaptive_2d(input, "adaptive_max_pool2d", ":")
    oh, ow = _adaptive_size(input, output_size)
    check_new_shape((*input.shape[:-2], oh, ow))  # its meta allocates the result first
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"adaptive_max_pool2d\" not implemented for '{input.dtype._short}'"
        )
    x = input._data
    H, W = x.shape[-2:]
    idx = np.zeros((*x.shape[:-2], oh, ow), np.int64)
    for i in range(oh):
        a, b = (i * H) // oh, -(-((i + 1) * H) // oh)
        for j in range(ow):
            c, e = (j * W) // ow, -(-((j + 1) * W) // ow)
            win = x[..., a:b, c:e].reshape(*x.shape[:-2], (b - a) * (e - c))
            arg = np.argmax(win, axis=-1)
            idx[..., i, j] = (a + arg // (e - c)) * W + c + arg % (e - c)
    cl = _channels_last(input)
    if cl:  # the result and its indices laid out as the input, as torch
        idx = _formats.relayout(idx, _formats.channels_last)
    out = K.adaptive_max_pool2d_op(input, _make(idx), tuple(input.shape))
    if cl:
        _formats.formatted(out, _formats.channels_last)
    return (out, _make(idx)) if return_indices else out


# --- normalization ------------------------------------------------------------------------


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Mirrors `torch.nn.functional.layer_norm`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("layer_norm", "input", 1, input)
    if eps.__class__ is not float:  # torch's F.layer_norm passes its arguments by position
        err = _parser_error(
            "layer_norm", (input, normalized_shape, weight, bias, eps, True), {}, False
        )
        if err is not None:
            raise err
    if type(normalized_shape) is not tuple or not all(type(e) is int for e in normalized_shape):
        _check_int_list("layer_norm", "normalized_shape", 2, normalized_shape)
    for i, t in ((3, weight), (4, bias)):
        if t is not None and not isinstance(t, Tensor):
            raise _not_tensor("layer_norm", ("weight", "bias")[i - 3], i, t)
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    shape = tuple(input.shape)
    if not ns:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != ns:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {list(t.shape)} and normalized_shape = {list(ns)}"
            )
    if len(ns) > len(shape) or shape[len(shape) - len(ns) :] != ns:
        raise RuntimeError(
            f"Given normalized_shape={list(ns)}, expected input with shape [*, "
            f"{', '.join(map(str, ns))}], but got input of size{list(shape)}"
        )
    _check_norm_dtypes(input, "LayerNormKernelImpl", weight, bias)
    out = K.layer_norm_op(input, ns, weight, bias, eps)
    if not out._data.flags.c_contiguous:  # torch's kernel runs on input.contiguous()
        out._data = np.ascontiguousarray(out._data)
    return out


def _check_norm_dtypes(input: Tensor, kernel: str, weight: Any, bias: Any) -> None:
    """torch's mixed-dtype rule for layer_norm and group_norm, then the kernel's dtype check."""
    dt = input.dtype
    first = weight if weight is not None else bias
    if first is not None and first.dtype is not dt:  # torch's is_mixed_type
        if any(t is not None and t.dtype is not D.float32 for t in (weight, bias)):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if dt is not D.float16:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")
    if bias is not None and bias.dtype is not dt:
        raise RuntimeError(f"expected scalar type {dt._short} but found {bias.dtype._short}")


def _bn_param_ok(t: Tensor | None, c: int, dt: np.dtype, optional: bool) -> bool:
    if t is None:
        return optional
    a = t._data
    return a.shape == (c,) and a.dtype == dt


def _check_bn_params(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None,
    bias: Tensor | None,
    training: bool,
) -> None:
    """torch's batch_norm checks, in its order: each given parameter's length against the
    channel count, the running stats in evaluation mode, then the dtypes."""
    c = input.shape[1] if input.ndim > 1 else 0
    dt = input.dtype
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is not None:
            if t.numel() != c:
                raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
        elif not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{dt._short}'")
    params = (weight, bias, running_mean, running_var)
    # torch's is_mixed_type: the first given parameter's dtype differs from the input's
    first = next((t for t in params if t is not None), None)
    if first is not None and first.dtype is not dt:
        # torch's mixed-dtype path (a reduced-precision input with float32 parameters)
        if any(t is not None and t.dtype is not D.float32 for t in params):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if dt is not D.float16:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    for t in params:
        if t is not None and t.dtype is not dt:
            raise RuntimeError(f"expected scalar type {dt._short} but found {t.dtype._short}")


def _norm_types(name: str, input: Any, weight: Any, bias: Any, mean: Any, var: Any) -> None:
    """torch.batch_norm/instance_norm's argument parser: (input, weight, bias, running_mean,
    running_var), each a Tensor (the last four or None)."""
    names = ("input", "weight", "bias", "running_mean", "running_var")
    for i, (n, v) in enumerate(zip(names, (input, weight, bias, mean, var), strict=True)):
        if not isinstance(v, Tensor) and (i == 0 or v is not None):
            raise _not_tensor(name, n, i + 1, v)


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Mirrors `torch.nn.functional.batch_norm`; training updates the running stats in place."""
    try:
        x = input._data
    except AttributeError:
        if training:  # torch's Python prelude: _verify_batch_size(input.size())
            raise _no_attribute(input, "size") from None
        _norm_types("batch_norm", input, weight, bias, running_mean, running_var)
        raise
    axes = (0, *range(2, x.ndim))
    if training and x.shape[0] * math.prod(x.shape[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {input.shape}"
        )
    if momentum is None or isinstance(momentum, (str, bytes)):  # torch.batch_norm's parser
        raise TypeError(
            "batch_norm(): argument 'momentum' (position 7) must be float, not "
            f"{type(momentum).__name__}"
        )
    if x.size == 0:
        _norm_types("batch_norm", input, weight, bias, running_mean, running_var)
        # torch's empty-input path: a clone, scaled and shifted by the first weight and bias
        out = input.clone()
        for t in (weight, bias):
            if t is not None and t.numel() == 0:
                raise IndexError(
                    "select(): index 0 out of range for tensor of size [0] at dimension 0"
                )
        out = out * weight[0] if weight is not None else out
        return out + bias[0] if bias is not None else out
    dt = x.dtype
    try:
        ok = (
            x.ndim > 1
            and dt.kind == "f"
            and _bn_param_ok(running_mean, x.shape[1], dt, training)
            and _bn_param_ok(running_var, x.shape[1], dt, training)
            and (running_mean is None) == (running_var is None)
            and _bn_param_ok(weight, x.shape[1], dt, True)
            and _bn_param_ok(bias, x.shape[1], dt, True)
        )
    except AttributeError:
        _norm_types("batch_norm", input, weight, bias, running_mean, running_var)
        raise
    if not ok:
        _norm_types("batch_norm", input, weight, bias, running_mean, running_var)
        _check_bn_params(input, running_mean, running_var, weight, bias, training)
        first = next((t for t in (weight, bias, running_mean, running_var) if t is not None), None)
        if dt == np.float16 and first is not None and first.dtype is not D.float16:
            x = x.astype(np.float32)  # torch's mixed-dtype kernel: float32 statistics
    if training:
        if x.ndim == 1:  # the kernel reads input.size(1)
            from ..ops._util import size_at

            size_at(x.shape, 1)
        n = x.size // x.shape[1]
        if n <= 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size "
                f"{input.shape}"
            )
        mean = x.mean(axis=axes)
        var = x.var(axis=axes)
        # torch's kernel updates the running stats in place without a version bump
        if running_mean is not None:
            running_mean._data *= 1 - momentum
            running_mean._data += momentum * mean
        if running_var is not None:
            running_var._data *= 1 - momentum
            running_var._data += momentum * var * (n / (n - 1))
        for r in (running_mean, running_var):
            if r is not None and r._data.dtype is D.LD:
                r._data[...] = D.round_bf16(r._data)  # Note [bfloat16 storage]
    else:
        mean, var = running_mean._data, running_var._data  # type: ignore[union-attr]
    invstd = 1.0 / np.sqrt(var + eps)
    if training and x.dtype is D.LD:  # torch's bfloat16 kernel saves, and uses, bfloat16 stats
        mean, invstd = D.round_bf16(mean), D.round_bf16(invstd.astype(np.float32))
    out = K.batch_norm_op(input, weight, bias, mean, invstd, training, eps)
    if training and running_mean is not None and out._grad_fn is not None:
        # what NativeBatchNormBackward0._saved_running_mean/_var read (see nn_ops._bn_running)
        out._grad_fn._saved["_running"] = (running_mean, running_var)
    if not out._data.flags.c_contiguous:
        _kernel_layout(out, input)
    return out


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Mirrors `torch.nn.functional.instance_norm`: batch_norm over (1, N*C, ...), as torch."""
    if not isinstance(input, Tensor) and use_input_stats:
        raise _no_attribute(input, "size")  # torch's _verify_spatial_size(input.size())
    shape = tuple(input.shape) if isinstance(input, Tensor) else ()
    if use_input_stats and math.prod(shape[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size {input.size()}"
        )
    _norm_types("instance_norm", input, weight, bias, running_mean, running_var)
    if (momentum.__class__ is not float and momentum.__class__ is not int) or (
        eps.__class__ is not float and eps.__class__ is not int
    ):  # torch.instance_norm's parser, every argument given by position
        values = (input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps)
        _positional_error("instance_norm", (*values, False))
    if momentum is None or isinstance(momentum, (str, bytes)):  # torch.instance_norm's parser
        raise TypeError(
            "instance_norm(): argument 'momentum' (position 7) must be float, not "
            f"{type(momentum).__name__}"
        )
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    n, c = shape[0], shape[1]
    x = input.reshape(1, n * c, *shape[2:])
    w = weight.repeat(n) if weight is not None else None  # RepeatBackward0, as ATen's
    b = bias.repeat(n) if bias is not None else None
    rm = _make(np.tile(running_mean._data, n)) if running_mean is not None else None
    rv = _make(np.tile(running_var._data, n)) if running_var is not None else None
    out = batch_norm(x, rm, rv, w, b, use_input_stats, momentum, eps)
    if use_input_stats and running_mean is not None and rm is not None:
        running_mean._data[...] = rm._data.reshape(n, c).mean(0)
        running_mean._bump()
    if use_input_stats and running_var is not None and rv is not None:
        running_var._data[...] = rv._data.reshape(n, c).mean(0)
        running_var._bump()
    return out.view(tuple(shape))


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Mirrors `torch.nn.functional.group_norm`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "dim")
    if input.ndim < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.ndim}"
        )
    n, c = input.shape[:2]
    size = [n * c // num_groups, num_groups, *input.shape[2:]]
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )
    if not isinstance(num_groups, (int, np.integer)):  # torch.group_norm's parser
        raise TypeError(
            "group_norm(): argument 'num_groups' (position 2) must be int, not "
            f"{type(num_groups).__name__}"
        )
    if c % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {list(input.shape)} and num_groups={num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {list(t.shape)} and input of shape "
                f"{list(input.shape)}"
            )
    _check_norm_dtypes(input, "GroupNormKernelImpl", weight, bias)
    if not input._data.flags.c_contiguous:
        # torch's group_norm hands native_group_norm input.contiguous(suggested format): a
        # CloneBackward0 in front of its node, whose gradients read that copy
        input = input.contiguous(memory_format=_formats.suggested(input._data))
    return _kernel_layout(K.group_norm_op(input, weight, bias, num_groups, eps), input)


# --- embedding, one_hot, pad --------------------------------------------------------------


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Mirrors `torch.nn.functional.embedding`."""
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)):
        # torch's Python prelude reads weight.size(0) for a padding_idx and makes a max_norm
        # input contiguous before torch.embedding(weight, indices) parses its arguments
        if padding_idx and not isinstance(weight, Tensor):
            raise _no_attribute(weight, "size")
        if max_norm is not None and not isinstance(input, Tensor):
            raise _no_attribute(input, "contiguous")
        _check_tensors("embedding", ("weight", "indices"), weight, input)
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    num = weight.shape[0]
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < num, "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -num, "Padding_idx must be within num_embeddings"
            padding_idx = num + padding_idx
    else:
        padding_idx = -1
    if max_norm is None:
        _check_padding_idx_int(padding_idx)
    elif max_norm.__class__ is not float or norm_type.__class__ is not float:
        # (torch's Python renorms first: embedding_renorm_'s parser, by position)
        err = _parser_error("embedding_renorm_", (weight, input, max_norm, norm_type), {}, False)
        if err is not None:
            raise err
    if scale_grad_by_freq.__class__ is not bool or sparse.__class__ is not bool:
        # torch.embedding's parser (F.embedding passes the flags by position)
        args = (weight, input, padding_idx, scale_grad_by_freq, sparse)
        err = _parser_error("embedding", args, {}, False)
        if err is not None:
            raise err
    idx = input._data
    if input.dtype is not D.int64 and input.dtype is not D.int32:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {_type_name(input.dtype)} instead (while checking "
            "arguments for embedding)"
        )
    if max_norm is not None:
        rows = np.unique(idx)
        bad = rows[(rows >= num) | (rows < -num)]
        if bad.size:  # torch's embedding_renorm_ selects each row first
            raise IndexError(
                f"select(): index {bad[0]} out of range for tensor of size {list(weight.shape)} "
                "at dimension 0"
            )
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        w = weight._data
        if w.dtype.kind in "biu":  # embedding_renorm_ takes each row's norm first
            raise RuntimeError(
                "norm(): input dtype should be either floating point or complex. Got "
                f"{weight.dtype._short} instead."
            )
        norms = K._np_norm(w[rows], norm_type, 1, True)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        w[rows] = w[rows] * scale.astype(w.dtype)
        weight._bump()
        _check_padding_idx_int(padding_idx)  # torch.embedding's parser, after the renorm
    if sparse:
        from ..sparse._coo import sparse_embedding

        return sparse_embedding(weight, input, num, padding_idx, scale_grad_by_freq)
    return K.embedding_op(weight, input, num, padding_idx, scale_grad_by_freq)


def _check_padding_idx_int(padding_idx: Any) -> None:
    if not isinstance(padding_idx, (int, np.integer)):
        raise TypeError(
            "embedding(): argument 'padding_idx' (position 3) must be int, not "
            f"{type(padding_idx).__name__}"
        )


def _type_name(dt: D.dtype) -> str:
    """torch's tensor type name in argument checks: 'torch.FloatTensor', 'CPUBoolType' (bool,
    bfloat16 and complex types have no legacy name)."""
    if dt is D.bool_ or dt is D.bfloat16 or dt.is_complex:
        return f"CPU{dt._short}Type"
    return dt._legacy


def one_hot(input: Tensor, num_classes: int = -1) -> Tensor:
    """Mirrors `torch.nn.functional.one_hot` (its parser names the tensor input)."""
    tensor = input
    if not isinstance(tensor, Tensor):
        raise _not_tensor("one_hot", "input", 1, tensor)
    if num_classes.__class__ is not int or not -(2**63) <= num_classes < 2**63:
        # torch's parser: an int (a numpy integer or a 0-d integer Tensor too)
        _reraise_as_called("F.one_hot", ("input", "num_classes"), (input, num_classes), False)
        num_classes = int(num_classes)
    if tensor.dtype is not D.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    x = tensor._data
    if num_classes == -1:
        if x.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(x.max()) + 1
    if x.size:
        if x.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if x.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros_like(x, np.int64, shape=(*x.shape, num_classes))  # (meta stays meta)
    np.put_along_axis(out, x[..., None], 1, axis=-1)
    r = _make(out)
    if x.size:  # torch's zeros, then two in-place writes (an empty input returns first)
        r._bump()
        r._bump()
    return r


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    """Mirrors `torch.nn.functional.pad`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("pad", "input", 1, input)
    if (
        (pad.__class__ is not tuple and pad.__class__ is not list)
        or mode.__class__ is not str
        or (value is not None and value.__class__ is not float and value.__class__ is not int)
        or any(v.__class__ is not int for v in pad)
    ):  # torch's parser: a tuple of ints, a str, a float
        # (torch's F.pad passes its arguments to the native pad by position)
        err = _parser_error("F.pad", (input, pad, mode, value), {}, False)
        if err is not None:
            raise err
        value = value.item() if isinstance(value, Tensor) else value  # a 0-d Tensor's value
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    k = len(pad) // 2
    if k > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pad)} and input of dimension {input.ndim}"
        )
    if mode == "constant":
        for i in range(k):
            lo, hi = pad[2 * i], pad[2 * i + 1]
            if input.shape[input.ndim - 1 - i] + min(lo, 0) + min(hi, 0) < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
        out = K.constant_pad_op(input, pad, 0 if value is None else value)
        if any(v > 0 for v in pad):
            return _kernel_layout(out, input)
        # torch narrows the input and clones that (preserve_format: the narrowed view's order)
        cut = [slice(None)] * input.ndim
        for i in range(k):
            n = input.shape[input.ndim - 1 - i]
            cut[input.ndim - 1 - i] = slice(-pad[2 * i], n + pad[2 * i + 1])
        view = input._data[tuple(cut)]
        if out._base is None and not view.flags.c_contiguous:
            new = np.empty_like(view, order="K")
            new[...] = out._data
            out._data = new
        return out
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if mode in ("reflect", "replicate", "circular") and (k > 3 or input.ndim not in (k + 1, k + 2)):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    if mode in ("reflect", "replicate"):
        sizes = tuple(input.shape)
        if not all(sizes[input.ndim - k - 1 if input.ndim == k + 2 else 0 :]):
            raise RuntimeError(
                f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size "
                f"and other non-zero dimensions for input, but got: {list(sizes)}"
            )
        if mode == "reflect":
            for i in range(k):  # the last dimension first, as torch's kernels check
                ax = input.ndim - 1 - i
                lo, hi = pad[2 * i], pad[2 * i + 1]
                if lo >= sizes[ax] or hi >= sizes[ax]:
                    raise RuntimeError(
                        f"Argument #{4 + 2 * i}: Padding size should be less than the "
                        f"corresponding input dimension, but got: padding ({lo}, {hi}) at "
                        f"dimension {ax} of input {list(sizes)}"
                    )
        if input.dtype is D.bool_:
            name = "reflection" if mode == "reflect" else "replication"
            raise NotImplementedError(f"\"{name}_pad{k}d\" not implemented for 'Bool'")
        idx = []
        for i in reversed(range(k)):
            ax = input.ndim - k + (k - 1 - i)
            idx.append(K._pad_index(sizes[ax], pad[2 * i], pad[2 * i + 1], mode))
        out = K.index_pad_ops[(mode, k)](input, tuple(idx), sizes)
        show_saved(out, padding=tuple(pad))
        return _kernel_layout(out, input)
    if mode == "circular":
        return _pad_circular(input, pad)
    raise NotImplementedError(f"Unrecognised padding mode {mode}")


def _pad_circular(input: Tensor, pad: tuple[int, ...]) -> Tensor:
    """torch's _pad_circular: the input's slice copied into a new tensor, then each padded
    dim's borders copied from the wrapped-around slices of that tensor (CopySlices nodes over
    SliceBackward0 ones, as torch records)."""
    k = len(pad) // 2
    if k > 3 or input.ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    in_shape = tuple(input.shape)
    lead = input.ndim - k
    out_shape = list(in_shape)
    for i in range(k):
        lo, hi = pad[2 * (k - i - 1)], pad[2 * (k - i - 1) + 1]
        size = in_shape[lead + i]
        out_shape[lead + i] = size + lo + hi
        if lo > size or hi > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[lead + i] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)

    def sl(t: Tensor, dim: int, start: int, end: int) -> Tensor:
        return t.narrow(dim, start, end - start)

    dims = [(input.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(k)]
    out_slice, in_slice = out, input
    for dim, lo, hi in dims:
        out_slice = sl(out_slice, dim, max(lo, 0), out_shape[dim] - max(hi, 0))
        in_slice = sl(in_slice, dim, max(-lo, 0), in_shape[dim] - max(-hi, 0))
    out_slice.copy_(in_slice)
    for dim, lo, hi in dims:
        n = out_shape[dim]
        if lo > 0:
            sl(out, dim, 0, lo).copy_(sl(out, dim, n - lo - max(hi, 0), n - max(hi, 0)))
        if hi > 0:
            sl(out, dim, n - hi, n).copy_(sl(out, dim, max(lo, 0), max(lo, 0) + hi))
    return out


# --- losses -------------------------------------------------------------------------------

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
_MAX = np.maximum.reduce


def _reduction(size_average: Any, reduce: Any, reduction: str) -> int:
    reduction = _legacy(size_average, reduce, reduction, stacklevel=4)
    r = _REDUCTIONS.get(reduction)
    if r is None:
        if reduction == "elementwise_mean":  # torch's _Reduction.get_enum: mean's old name
            _warn_elementwise_mean()
            return 1
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return r


def _warn_elementwise_mean() -> None:
    warnings.warn(
        "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
        stacklevel=4,
    )


def _sizes(input: Any, target: Any) -> tuple[Any, Any]:
    """torch's `target.size() != input.size()` at the top of its Python losses: a non-Tensor
    fails there, on `target` first."""
    try:
        return tuple(target.shape), tuple(input.shape)
    except AttributeError:
        for v in (target, input):
            if not isinstance(v, Tensor):
                raise _no_attribute(v, "size") from None
        raise


def _legacy(size_average: Any, reduce: Any, reduction: str, stacklevel: int = 3) -> str:
    """torch's _Reduction.legacy_get_string, warning as it does (at the loss's caller, the
    stacklevel-th frame up); the string is not checked."""
    if size_average is not None or reduce is not None:
        sa = True if size_average is None else size_average
        rd = True if reduce is None else reduce
        reduction = ("mean" if sa else "sum") if rd else "none"
        warnings.warn(
            f"size_average and reduce args will be deprecated, please use "
            f"reduction='{reduction}' instead.",
            stacklevel=stacklevel,
        )
    return reduction


def _weighted(loss: Tensor, weight: Tensor, input: Tensor, reduction: str, by_weight: bool):
    """torch's weighted mse/l1/huber: the elementwise loss times the weight, then the reduction
    (a weighted mean of mse and l1 divides by the weights' sum)."""
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum() if by_weight else loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    try:
        same = tuple(target.shape) == tuple(input.shape)
    except AttributeError:
        _sizes(input, target)
        raise
    if not same:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )
        try:
            shape = np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
        except ValueError:
            raise RuntimeError(
                f"The size of tensor a ({input.shape[-1]}) must match the size of tensor b "
                f"({target.shape[-1]}) at non-singleton dimension {input.ndim - 1}"
            ) from None
        # torch.broadcast_tensors: an operand already of the broadcast shape is not expanded
        if tuple(input.shape) != shape:
            input = input.expand(tuple(shape))
        if tuple(target.shape) != shape:
            target = target.expand(tuple(shape))
    return input, target


def _check_float_loss(input: Tensor, target: Tensor, kernel: str) -> None:
    """A pointwise loss kernel on integer operands: torch's not-implemented error (cheap: two
    attribute reads on the common float path)."""
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        dt = D.promote_types(input.dtype, target.dtype)
        if kernel == "huber_cpu" and dt._cat > input.dtype._cat:  # its result takes input's type
            raise RuntimeError(
                f"result type {dt._short} can't be cast to the desired output type "
                f"{input.dtype._short}"
            )
        if not dt.is_floating_point:  # integer or complex: no kernel
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")


def _broadcast_ref(*shapes: tuple[int, ...], ab: bool = False) -> tuple[int, ...]:
    """The broadcast shape, or torch's error: its reference implementation's wording (expand of
    an inferred size), or with `ab` the kernels' 'size of tensor a ... tensor b' wording."""
    common = [1] * max(len(sh) for sh in shapes)
    for i, sh in enumerate(shapes):
        for idx in range(-1, -1 - len(sh), -1):
            if common[idx] == 1:
                common[idx] = sh[idx]
            elif sh[idx] != 1 and common[idx] != sh[idx]:
                if ab:
                    raise RuntimeError(
                        f"The size of tensor a ({common[idx]}) must match the size of tensor b "
                        f"({sh[idx]}) at non-singleton dimension {len(common) + idx}"
                    )
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {sh[idx]} at {idx}! "
                    f"Mismatching argument at index {i} had torch.Size({list(sh)}); but expected "
                    f"shape should be broadcastable to {common}"
                )
    return tuple(common)


def _apply_reduction(loss: Tensor, reduction: int) -> Tensor:
    if reduction == 1:
        return loss.mean()
    if reduction == 2:
        return loss.sum()
    return loss


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.mse_loss`."""
    input, target = _broadcast_pair(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce, reduction)
    if weight is not None:
        return _weighted((input - target) ** 2, weight, input, reduction, True)
    r = _reduction(None, None, reduction)
    _check_float_loss(input, target, "mse_cpu")
    return K.mse_loss_op(input, target, r)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.l1_loss`: |input - target| then the reduction, as torch."""
    input, target = _broadcast_pair(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce, reduction)
    if weight is not None:
        return _weighted(K._abs(input - target), weight, input, reduction, True)
    r = _reduction(None, None, reduction)
    loss = K._abs(input - target)
    if r == 1 and not loss.dtype.is_floating_point and not loss.dtype.is_complex:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {loss.dtype._short}"
        )
    return _apply_reduction(loss, r)


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """Mirrors `torch.nn.functional.smooth_l1_loss`."""
    input, target = _broadcast_pair(input, target)
    r = _reduction(size_average, reduce, reduction)
    if beta.__class__ is not float and beta.__class__ is not int and beta != 0.0:
        # torch's Python passes beta to the native smooth_l1_loss by position
        err = _parser_error("F.smooth_l1_loss", (input, target, r, beta), {}, False)
        if err is not None:
            raise err
        beta = beta.item() if isinstance(beta, Tensor) else float(beta)  # (a 0-d Tensor's)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:  # torch's: l1_loss, which integer inputs reach (their mean refuses them)
        return _apply_reduction(K._abs(input - target), r)
    _check_float_loss(input, target, "smooth_l1_cpu")
    return K.smooth_l1_loss_op(input, target, r, beta)


def huber_loss(
    input: Tensor,
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.huber_loss`."""
    input, target = _broadcast_pair(input, target)
    r = 0 if weight is not None else _reduction(None, None, reduction)
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    if delta.__class__ is not float and delta.__class__ is not int:
        # torch's Python passes delta to the native huber_loss by position
        err = _parser_error("F.huber_loss", (input, target, r, delta), {}, False)
        if err is not None:
            raise err
        delta = delta.item() if isinstance(delta, Tensor) else float(delta)  # (a 0-d Tensor's)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _check_float_loss(input, target, "huber_cpu")
    if weight is not None:
        return _weighted(K.huber_loss_op(input, target, 0, delta), weight, input, reduction, False)
    return K.huber_loss_op(input, target, r, delta)


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.binary_cross_entropy` (log clamped at -100, as torch)."""
    r = _reduction(size_average, reduce, reduction)
    if _sizes(input, target)[0] != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    if weight is not None:
        weight = weight.expand(tuple(_broadcast_ref(tuple(target.shape), tuple(weight.shape))))
    dt = input.dtype
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"binary_cross_entropy\" not implemented for '{dt._short}'")
    if target.dtype is not dt:
        raise RuntimeError(f"Found dtype {target.dtype._short} but expected {dt._short}")
    x, t = input._data, target._data
    # min/max are NaN when an element is: torch's `0 <= v <= 1` check rejects NaN too
    if x.size and not (x.min() >= 0 and x.max() <= 1):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if t.size and not (t.min() >= 0 and t.max() <= 1):
        raise RuntimeError("all elements of target should be between 0 and 1")
    return K.bce_op(input, target, weight, r)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.binary_cross_entropy_with_logits`."""
    r = _reduction(size_average, reduce, reduction)
    if _sizes(input, target)[0] != tuple(input.shape):
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"log_sigmoid_cpu\" not implemented for '{input.dtype._short}'")
    if target.dtype is D.bool_:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if not target.dtype.is_floating_point:
        raise RuntimeError(
            f"result type {input.dtype._short} can't be cast to the desired output type "
            f"{target.dtype._short}"
        )
    if pos_weight is not None:
        # torch's (pos_weight - 1) * target: its broadcast error names pos_weight first
        _broadcast_ref(tuple(pos_weight.shape), tuple(target.shape), ab=True)
    return K.bce_logits_op(input, target, weight, pos_weight, r)


def _check_nll(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """torch's nll_loss_nd, nll_loss and nll_loss2d checks, in their order."""
    k = input.ndim
    if k < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {k})")
    if k >= 2 and input.shape[0] != (target.shape[0] if target.ndim else -1):
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 0})."
        )
    if k <= 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dtype is not D.int64 and target.dtype is not D.uint8:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {target.dtype._short}"
        )
    if k == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError(
            f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}"
        )
    if k == 4 and target.ndim != 3:
        raise RuntimeError(
            "only batches of spatial targets supported (3D tensors) but got targets of "
            f"dimension: {target.ndim}"
        )
    c = input.shape[1] if k >= 2 else input.shape[0]
    if weight is not None and (weight.numel() != c or (k <= 2 and weight.ndim != 1)):
        raise RuntimeError(
            f"weight tensor should be defined either for all {c} classes or no classes but got "
            f"weight tensor of shape: {list(weight.shape)}"
        )
    if k == 4 and tuple(target.shape) != (input.shape[0], *input.shape[2:]):
        raise RuntimeError(
            f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}"
        )
    if k == 3 or k > 4:
        expected = [input.shape[0], *input.shape[2:]]
        if list(target.shape) != expected:
            raise RuntimeError(f"Expected target size {expected}, got {list(target.shape)}")
    dt = input.dtype
    if not dt.is_floating_point:
        kernel = "nll_loss_out_frame" if k <= 2 else "nll_loss2d_forward_out_frame"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")
    if weight is not None and weight.dtype is not dt:
        raise RuntimeError(f"expected scalar type {dt._short} but found {weight.dtype._short}")


def _nll(input: Tensor, target: Tensor, weight: Any, ignore_index: int, r: int) -> Tensor:
    _check_nll(input, target, weight)
    t = target._data
    c = input.shape[1] if input.ndim >= 2 else input.shape[0]
    bad = (t != ignore_index) & ((t < 0) | (t >= c))
    if bad.any():
        raise IndexError(f"Target {int(t[bad].ravel()[0])} is out of bounds.")
    if input.ndim <= 2:
        return K.nll_loss_op(input, target, weight, r, ignore_index)
    if input.ndim == 4:
        return K.nll_loss2d_op(input, target, weight, r, ignore_index)
    # 3-d or >4-d: torch views the input as (N, C, 1, -1) and runs nll_loss2d
    n, c = input.shape[:2]
    out = K.nll_loss2d_op(
        input.reshape(n, c, 1, -1), target.reshape(n, 1, -1), weight, r, ignore_index
    )
    return out.view(n, *input.shape[2:]) if r == 0 else out


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.nll_loss`."""
    r = _reduction(size_average, reduce, reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)) or not (
        weight is None or isinstance(weight, Tensor)
    ):
        _check_tensors("nll_loss_nd", ("input", "target", "weight"), input, target, weight)
    return _nll(input, target, weight, ignore_index, r)


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Mirrors `torch.nn.functional.cross_entropy` (composed as torch composes it)."""
    if weight is None and size_average is None and reduce is None and label_smoothing == 0.0:
        # the training-loop case, (N, C) float logits and in-range int64 class indices: the
        # same two ops as below without the general path's checks (each one holds here)
        try:
            x = input._data
            t = target._data
        except AttributeError:
            _reduction(None, None, reduction)
            _check_tensors("cross_entropy_loss", ("input", "target"), input, target)
            raise
        if (
            x.ndim == 2
            and t.ndim == 1
            and x.dtype.char in "fd"
            and t.dtype.char in "lq"
            and x.shape[0] == t.shape[0] > 0
            and reduction in _REDUCTIONS
            and _MAX(t.view(np.uint64)) < x.shape[1]  # one pass: a negative index wraps high
        ):
            return K.nll_loss_op(
                K.log_softmax_op(input, 1), target, None, _REDUCTIONS[reduction], ignore_index
            )
    r = _reduction(size_average, reduce, reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)) or not (
        weight is None or isinstance(weight, Tensor)
    ):
        _check_tensors("cross_entropy_loss", ("input", "target", "weight"), input, target, weight)
    if ignore_index.__class__ is not int or (
        label_smoothing.__class__ is not float and label_smoothing.__class__ is not int
    ):  # torch's native cross_entropy_loss, given them by position (the fast path above
        # takes the common case, an int ignore_index and no label smoothing)
        values = (input, target, weight, r, ignore_index, label_smoothing)
        _positional_error("cross_entropy_loss", values)
    # torch takes the class-probability path exactly when the shapes are equal
    probs = tuple(target.shape) == tuple(input.shape)
    if probs:
        if not target.dtype.is_floating_point:
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                f"{target.dtype._short}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
    if (probs or label_smoothing > 0.0) and not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    cdim = 1 if input.ndim >= 2 else 0
    if not input.ndim:  # torch's class dim of a 0-d input is 1: size(1) or log_softmax fails
        from ..ops._util import size_at

        size_at((), 1) if probs else wrap_dim(1, 0)
    c = input.shape[cdim]
    logp = log_softmax(input, cdim)
    wshape = [1] * input.ndim
    if input.ndim:
        wshape[cdim] = c
    if probs:
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / c
        prod = logp * target
        if weight is not None:
            prod = prod * weight.view(*wshape)
        if r == 0:
            return -prod.sum(cdim)
        total = -prod.sum()
        if r == 2:
            return total
        n = input.numel() // c if c else 0
        return K._div_scalar(total, n if n else math.nan)  # torch's int (DivBackward1's other)
    nll = _nll(logp, target, weight, ignore_index, r)
    if label_smoothing <= 0.0:
        return nll
    ignore = target == ignore_index
    smooth = -(logp * weight.view(*wshape)).sum(cdim) if weight is not None else -logp.sum(cdim)
    smooth = smooth.masked_fill_(ignore, 0.0)  # in place, as torch's (MaskedFillBackward0)
    if r == 1:
        if weight is not None:
            t = target._data[~ignore._data]
            ret = smooth.sum() / weight[_make(t.ravel())].sum()
        else:
            ret = smooth.sum() / (~ignore).sum()
    elif r == 2:
        ret = smooth.sum()
    else:
        ret = smooth
    # torch's `(1 - label_smoothing) * nll + ret * (label_smoothing / c)`: double scalars, so
    # mul.Scalar nodes (MulBackward1), the right one formed first as torch's C++ does (the
    # order the gradients are summed in under create_graph)
    smooth_term = P._mul_scalar(ret, label_smoothing / c)
    return P._mul_scalar(nll, 1 - label_smoothing) + smooth_term


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Mirrors `torch.nn.functional.kl_div`."""
    if size_average is not None or reduce is not None:
        r = _reduction(size_average, reduce, reduction)
        reduction = {0: "none", 1: "mean", 2: "sum"}[r]
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.",
            stacklevel=2,
        )
    if reduction not in ("none", "mean", "sum", "batchmean"):
        if reduction != "elementwise_mean":
            raise ValueError(f"{reduction} is not a valid value for reduction")
        _warn_elementwise_mean()
        reduction = "mean"
    if log_target.__class__ is not bool:  # torch.kl_div's parser (log_target by keyword)
        err = _parser_error("kl_div", (input, target, 1), {"log_target": log_target}, False)
        if err is not None:
            raise err
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        _check_tensors("kl_div", ("input", "target"), input, target)
    if input.dtype.is_complex or target.dtype.is_complex:
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if input.dtype._cat < 2 or target.dtype._cat < 2:
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # torch's C++ forms the right operand first: its nodes come first, so the gradients of
    # target arrive (and are summed) in torch's order under create_graph
    if log_target:
        d = target - input
        loss = P.exp(target) * d
    else:
        t_in = target * input
        if target._rg or _FW.active:  # a recorded or forward-AD target: xlogy, as torch
            tlogt = P.xlogy(target, target)
        else:
            t = target._data
            with np.errstate(divide="ignore", invalid="ignore"):
                v = np.where(t == 0, 0, t * np.log(t)).astype(t.dtype)
            tlogt = _make(v)
        loss = tlogt - t_in
    if reduction == "batchmean":
        s = loss.sum()
        return s / input.shape[0] if input.ndim else s
    return _apply_reduction(loss, _REDUCTIONS[reduction])


# --- distances ----------------------------------------------------------------------------


def _clamp_min_(t: Tensor, eps: float) -> Tensor:
    # torch clamps the norms in place under no_grad: the value changes, the graph does not
    np.maximum(t._data, eps, out=t._data)
    t._bump()
    return t


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """Mirrors `torch.nn.functional.cosine_similarity`."""
    dt = D.promote_types(x1.dtype, x2.dtype)
    if not dt.is_floating_point:
        raise RuntimeError(
            f"expected common dtype to be floating point, yet common dtype is {dt._short}"
        )
    shape = _broadcast_ref(tuple(x1.shape), tuple(x2.shape), ab=True)
    if tuple(x1.shape) != shape:
        x1 = x1.expand(tuple(shape))
    if tuple(x2.shape) != shape:
        x2 = x2.expand(tuple(shape))
    d = wrap_dim(dim, len(shape))
    n1 = _clamp_min_(K._vector_norm(x1, d).clone(), eps)
    n2 = _clamp_min_(K._vector_norm(x2, d).clone(), eps)
    out = ((x1 / n1) * (x2 / n2)).sum(d)
    if not out._data.flags.c_contiguous:  # torch's result is contiguous whatever x1's layout
        out._data = np.ascontiguousarray(out._data)
    return out


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.pairwise_distance`."""
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor)):
        _check_tensors("pairwise_distance", ("x1", "x2"), x1, x2)
    nd = max(x1.ndim, x2.ndim)  # (0-d: its innermost dim is -1)
    # torch's C++ composite adds eps with add.Scalar (AddBackward1); a double scalar makes an
    # integer difference floating
    diff = x1 - x2
    shifted = P.add_scalar(diff, eps) if diff.dtype.is_floating_point else diff + float(eps)
    return K._norm(shifted, p, nd - 1 if nd else (), keepdim)  # (0-d: its one element)


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.nn.functional.normalize`."""
    if not isinstance(input, Tensor):
        raise _no_attribute(input, "norm")
    # torch's own composition: LinalgVectorNormBackward0, ClampMinBackward0, ExpandBackward0
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return P.div(input, denom, out=out)


# --- attention ----------------------------------------------------------------------------


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """Mirrors `torch.nn.functional.scaled_dot_product_attention`: torch's CPU flash kernel
    (one ScaledDotProductFlashAttentionForCpuBackward0 node) where torch picks it, else its
    math backend.

    Differences: forward-mode AD through the flash kernel works (torch's raises); a mask
    carrying a forward-AD tangent takes the math backend, so that its tangent counts.
    """
    if not (
        isinstance(query, Tensor) and isinstance(key, Tensor) and isinstance(value, Tensor)
    ) or not (attn_mask is None or isinstance(attn_mask, Tensor)):
        names = ("query", "key", "value", "attn_mask")
        _check_tensors("scaled_dot_product_attention", names, query, key, value, attn_mask)
    if scale is not None and not isinstance(scale, numbers.Real):
        raise TypeError(  # torch's parser (scale is keyword-only: no position)
            f"scaled_dot_product_attention(): argument 'scale' must be float, not "
            f"{type(scale).__name__}"
        )
    _validate_sdpa(query, key, value, attn_mask)
    if not query.dtype.is_floating_point:  # the math path's float scale factor
        raise RuntimeError(f"expected scalar type Float but found {query.dtype._short}")
    if key.shape[-2] == 0 or value.shape[-1] == 0 or 0 in query.shape[:-1]:
        return _sdpa_empty(query, key, value)
    if not (_SDP_ENABLED["flash"] and _SDP_ENABLED["math"]):
        flash = _sdp_backend_choice(query, key, value, attn_mask, dropout_p, enable_gqa)
    else:
        flash = _use_flash(query, key, value, attn_mask, dropout_p, enable_gqa)
    if flash:
        if dropout_p != 0.0:  # a negative p: torch's flash kernel takes none
            raise RuntimeError(
                "scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0"
            )
        if attn_mask is not None and attn_mask.dtype is D.bool_:
            m = np.where(attn_mask._data, 0.0, -np.inf).astype(query._data.dtype)
            attn_mask = _make(m)
        out = _fused.flash_attention(query, key, value, dropout_p, is_causal, attn_mask, scale)[0]
        if not query._data.flags.c_contiguous:
            _query_layout(out, query._data)
        return out
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    if enable_gqa:  # torch's pre_process_group_query_attention_input
        hq, hk, hv = query.shape[-3], key.shape[-3], value.shape[-3]
        if not hq == hk == hv:
            if hq % hk or hq % hv:
                # (torch's message ends there)
                raise RuntimeError(
                    "Number of heads in key and value must divide the number of heads in "
                )
            key = key.repeat_interleave(hq // hk, -3)
            value = value.repeat_interleave(hq // hv, -3)
    # torch's _scaled_dot_product_attention_math: float16 operands computed in float32 (then
    # the result cast back), both operands scaled by sqrt(scale) (mul.Scalar), the mask added,
    # then _safe_softmax (rows of -inf give 0)
    origin = query.dtype
    if origin is D.float16:
        query, key, value = query.to(D.float32), key.to(D.float32), value.to(D.float32)
    L, S, E = query.shape[-2], key.shape[-2], query.shape[-1]
    sc = 1.0 / math.sqrt(E) if scale is None else scale
    f = math.sqrt(abs(sc))
    q = P._mul_scalar(query, -f if sc < 0 else f)
    if is_causal:
        attn_mask = _make(np.tril(np.ones((L, S), bool)))
    attn = q @ P._mul_scalar(key.transpose(-2, -1), f)
    if attn_mask is not None:
        if attn_mask.dim() > attn.dim() or any(
            m not in (a, 1) for m, a in zip(attn_mask.shape[::-1], attn.shape[::-1], strict=False)
        ):  # torch adds the mask in place (attn.add_), so it may not grow attn
            big = _broadcast_ref(tuple(attn.shape), tuple(attn_mask.shape), ab=True)
            raise RuntimeError(
                f"output with shape {list(attn.shape)} doesn't match the broadcast shape "
                f"{list(big)}"
            )
        if attn_mask.dtype is D.bool_:
            m = np.where(attn_mask._data, 0.0, -np.inf).astype(attn._data.dtype)
            attn = attn + _make(m)
        else:
            attn = attn + attn_mask
    attn = _fused.safe_softmax(attn, -1)
    if dropout_p > 0.0:
        if dropout_p > 1.0:  # at::dropout's check, a RuntimeError (F.dropout's is a ValueError)
            raise RuntimeError(
                f"dropout probability has to be between 0 and 1, but got {dropout_p:g}"
            )
        attn = dropout(attn, dropout_p, True)
    out = attn @ value
    return out.to(origin) if origin is D.float16 else out


def _sdp_backend_choice(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None,
    dropout_p: float,
    enable_gqa: bool,
) -> bool:
    """Whether the flash kernel runs when torch.backends.cuda's flags (or sdpa_kernel) turn
    off flash or math (torch's select_sdp_backend_cpp): neither is torch's error; flash alone,
    when its checks refuse the inputs, warns the first refusal and fails."""
    if not _SDP_ENABLED["flash"]:
        if not _SDP_ENABLED["math"]:
            raise RuntimeError(
                "No viable backend for scaled_dot_product_attention was found. This is likely "
                "due to turning off both the math kernel and the fused kernels."
            )
        return False
    if _use_flash(query, key, value, attn_mask, dropout_p, enable_gqa):
        return True
    warnings.warn("Flash attention kernel not used because:", stacklevel=3)
    reason = _flash_refusal(query, key, value, attn_mask, dropout_p, enable_gqa)
    if reason:
        warnings.warn(reason, stacklevel=3)
    raise RuntimeError("No available kernel.  Aborting execution.")


def _flash_refusal(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None,
    dropout_p: float,
    enable_gqa: bool,
) -> str:
    """The warning of the first check of torch's use_flash_attention_cpp that refuses the
    inputs (empty where that check says nothing)."""
    if dropout_p > 0.0:
        return "Both fused kernels do not support non-zero dropout."
    dims = (query.dim(), key.dim(), value.dim())
    if dims != (4, 4, 4):
        return (
            "All fused kernels requires query, key and value to be 4 dimensional, but got "
            f"Query dim: {dims[0]}, Key dim: {dims[1]}, Value dim: {dims[2]} instead."
        )
    q, k, v = list(query.shape), list(key.shape), list(value.shape)
    if not q[0] == k[0] == v[0]:
        return (
            "For dense inputs, both fused kernels require query, key and value to have the "
            f"same batch_size. Query.sizes(): {q}, Key.sizes(): {k}, Value.sizes(): {v} "
            "instead. To broadcast dense inputs, try using unsqueeze and expand_to before "
            "passing them into the kernel."
        )
    if not enable_gqa and not q[1] == k[1] == v[1]:
        return (
            "For dense input, both fused kernels require query, key and value to have the "
            f"same num_heads. Query.sizes(): {q}, Key sizes(): {k}, Value sizes(): {v} "
            "instead. To broadcast dense inputs, try using unsqueeze and expand_to before "
            "passing them into the kernel."
        )
    if attn_mask is not None:
        m = attn_mask.shape
        if attn_mask.requires_grad:
            return ""
        if (attn_mask.dim() not in (2, 4)) or m[-2] not in (q[2], 1) or m[-1] not in (k[2], 1):
            return (
                "Please use the following attn mask shapes: 2d - ({Q_seq_len, 1}  x "
                "{KV_seq_len, 1}); 4d - ({Batch, 1} x {Num_heads, 1} x {Q_seq_len, 1}  x "
                "{KV_seq_len, 1})"
            )
    if not q[3] == k[3] == v[3]:
        return (
            "Flash attention requires q,k,v to have the same last dimension. Got "
            f"Query.size(-1): {q[3]}, Key.size(-1): {k[3]}, Value.size(-1): {v[3]} instead."
        )
    strides = [t.stride(-1) for t in (query, key, value)]
    if strides != [1, 1, 1]:
        return (
            "All fused kernels require the last dimension of the input to have stride 1. Got "
            f"Query.stride(-1): {strides[0]}, Key.stride(-1): {strides[1]}, "
            f"Value.stride(-1): {strides[2]}"
        )
    return ""


def _sdpa_empty(query: Tensor, key: Tensor, value: Tensor) -> Tensor:
    """torch's result where a sequence (or the output) is empty, before its other checks:
    zeros, plus the inputs' sums times 0 so that each gets a (zero) gradient."""
    tied = P._mul_scalar(query.sum() + key.sum() + value.sum(), 0)
    shape = (*query.shape[:-1], value.shape[-1])
    return _make(np.zeros(shape, query._data.dtype)) + tied


def _query_layout(out: Tensor, q: np.ndarray) -> None:
    """Give the flash kernel's fresh result the strides torch's gives it: those of
    empty_like(query), which keeps a dense, non-overlapping query's strides (the kernel's result
    is then a transpose away from (B, L, H, E) when the query is) and is contiguous otherwise."""
    dims = sorted((st, n) for st, n in zip(q.strides, q.shape, strict=True) if n != 1)
    step = q.itemsize
    for st, n in dims:
        if st != step:
            return
        step *= n
    new = np.empty_like(q, dtype=out._data.dtype, order="K")
    new[...] = out._data
    out._data = new


def _validate_sdpa(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None) -> None:
    """torch's validate_sdpa_input."""
    n = D.CPP_NAMES.get
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{n(query.dtype)} key.dtype: {n(key.dtype)} and value.dtype: {n(value.dtype)} "
            "instead."
        )
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
            "instead."
        )
    if attn_mask is not None and attn_mask.dtype not in (D.bool_, D.float32, query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {n(attn_mask.dtype)} and  query.dtype: {n(query.dtype)} instead."
        )


def _use_flash(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None,
    dropout_p: float,
    enable_gqa: bool,
) -> bool:
    """Whether torch's CPU backend choice (sdp_utils_cpp's use_flash_attention_cpp) is the
    flash kernel: no dropout, 4-d inputs of one batch size, equal heads (or grouped-query heads
    with enable_gqa), a mask without grad that broadcasts as (B|1, H|1, L|1, S|1) or
    (L|1, S|1), one head dim, non-empty sequences, unit last-dim strides, a float dtype."""
    if dropout_p > 0.0 or query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        return False
    (B, H, L, E), (Bk, Hk, S, Ek), (Bv, Hv, _, Ev) = query.shape, key.shape, value.shape
    if not B == Bk == Bv:
        return False
    if enable_gqa:
        if Hk != Hv or H % Hk:
            return False
    elif not H == Hk == Hv:
        return False
    if attn_mask is not None:
        if attn_mask.dim() < 2:
            if attn_mask.dim() == 0:
                raise IndexError("Dimension specified as -2 but tensor has no dimensions")
            raise IndexError(
                "Dimension out of range (expected to be in range of [-1, 0], but got -2)"
            )
        m = attn_mask.shape
        if attn_mask.requires_grad or m[-2] not in (L, 1) or m[-1] not in (S, 1):
            return False
        if _FW.active and _get_tangent(attn_mask) is not None:
            return False
        if attn_mask.dim() == 4:
            if m[0] not in (B, 1) or m[1] not in (H, 1):
                return False
        elif attn_mask.dim() != 2:
            return False
    if not E == Ek == Ev or L == 0 or S == 0:
        return False
    if query.stride(-1) != 1 or key.stride(-1) != 1 or value.stride(-1) != 1:
        return False
    return query.dtype in _FLASH_DTYPES


_FLASH_DTYPES = (D.float32, D.float64, D.float16) + ((D.bfloat16,) if D.HAS_BF16 else ())


# More of torch.nn.functional, one file per group. Each lists its functions in `__all__` and
# imports what it needs from this module, which is complete by the time they load.
from ._functional_layers import *  # noqa: E402, F403
from ._functional_layers import __all__ as _layers_all  # noqa: E402
from ._functional_linear_ce import *  # noqa: E402, F403
from ._functional_linear_ce import __all__ as _linear_ce_all  # noqa: E402
from ._functional_losses import *  # noqa: E402, F403
from ._functional_losses import __all__ as _losses_all  # noqa: E402
from ._functional_volumetric import *  # noqa: E402, F403
from ._functional_volumetric import __all__ as _volumetric_all  # noqa: E402

__all__ += [*_layers_all, *_linear_ce_all, *_losses_all, *_volumetric_all]

# torch.nn.functional re-exports torch.overrides' checks
from ..overrides import (  # noqa: E402, F401
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)


def assert_int_or_pair(arg: Any, arg_name: str, message: str) -> None:
    """Mirrors `torch.nn.functional.assert_int_or_pair`."""
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))
