"""Parameter initialisation, run under no_grad. Mirrors `torch.nn.init`.

Every function draws what torch's draws, in the same order and with the same in-place calls
(uniform_, normal_, randperm), so after the same seed the values are torch's bit for bit.

Differences: orthogonal_ draws torch's normals but factors them with numpy's LAPACK QR, so its
values differ from torch's in the last bits; trunc_normal_ with a narrow interval (acceptance
under 0.3) compares float32 logs, where numpy's log can differ from torch's by an ulp, so a
borderline candidate is (rarely) accepted by one library and redrawn by the other.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _creation, _random
from .._grad_mode import no_grad
from .._random import Generator
from .._tensor import Tensor
from ..overrides import handle_torch_function, has_torch_function_variadic

__all__ = [
    "calculate_gain",
    "constant_",
    "dirac_",
    "eye_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "orthogonal_",
    "sparse_",
    "trunc_normal_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]


def _uniform(tensor: Tensor, a: float, b: float, generator: Generator | None) -> Tensor:
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def _normal(tensor: Tensor, mean: float, std: float, generator: Generator | None) -> Tensor:
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """Mirrors `torch.nn.init.calculate_gain`."""
    linear_fns = [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    ]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(
    tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Mirrors `torch.nn.init.uniform_` (a Tensor-like argument dispatches, as in torch)."""
    if has_torch_function_variadic(tensor):
        return handle_torch_function(  # type: ignore[no-any-return]
            uniform_, (tensor,), tensor=tensor, a=a, b=b, generator=generator
        )
    return _uniform(tensor, a, b, generator)


def normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Mirrors `torch.nn.init.normal_` (a Tensor-like argument dispatches, as in torch)."""
    if has_torch_function_variadic(tensor):
        return handle_torch_function(  # type: ignore[no-any-return]
            normal_, (tensor,), tensor=tensor, mean=mean, std=std, generator=generator
        )
    return _normal(tensor, mean, std, generator)


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: Generator | None = None,
) -> Tensor:
    """Mirrors `torch.nn.init.trunc_normal_`: normal draws redrawn outside [a, b] when the
    interval holds most of the mass (over 0.3), else uniform candidates on [a, b] accepted
    against the normal density, as torch's rejection samplers."""

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect.",
            stacklevel=2,
        )
    from .. import empty_like, where

    if tensor.is_meta:
        return tensor  # no values to sample: torch's meta kernels draw nothing
    with no_grad():
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if p > 0.3:
            # bounds in the tensor's dtype, so the rejection sees its representable values
            lo = tensor.new_tensor(a).item()
            hi = tensor.new_tensor(b).item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                redraw = empty_like(result).normal_(mean, std, generator=generator)
                result = where(mask, redraw, result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates = empty_like(tensor)
        accept_buf = empty_like(tensor)

        def log_density(c: Tensor) -> Tensor:
            return c.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        log_density(candidates)
        pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = where(pending, candidates, result)
                log_density(candidates)
                accept = accept_buf.uniform_(generator=generator).log_().gt(candidates)
                pending = where(pending, accept, pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Mirrors `torch.nn.init.constant_` (a Tensor-like argument dispatches, as in torch)."""
    if has_torch_function_variadic(tensor):
        return handle_torch_function(constant_, (tensor,), tensor=tensor, val=val)  # type: ignore[no-any-return]
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    """Mirrors `torch.nn.init.ones_`."""
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Mirrors `torch.nn.init.zeros_`."""
    with no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    """Mirrors `torch.nn.init.eye_`."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.copy_(_creation.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Mirrors `torch.nn.init.dirac_`."""
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_grp = sizes[0] // groups
    arr = np.zeros(tuple(sizes), dtype=np.float64)
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min(out_per_grp, sizes[1])):
            arr[(g * out_per_grp + d, d, *centre)] = 1
    with no_grad():
        tensor.copy_(_creation.tensor(arr, dtype=tensor.dtype))
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    # torch's order of calls, which a Tensor subclass's __torch_function__ sees
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(
    tensor: Tensor, gain: float = 1.0, generator: Generator | None = None
) -> Tensor:
    """Mirrors `torch.nn.init.xavier_uniform_`."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _uniform(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Generator | None = None) -> Tensor:
    """Mirrors `torch.nn.init.xavier_normal_`."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _normal(tensor, 0.0, std, generator)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Generator | None = None,
) -> Tensor:
    """Mirrors `torch.nn.init.kaiming_uniform_` (a Tensor-like argument dispatches, as in
    torch)."""
    if has_torch_function_variadic(tensor):
        return handle_torch_function(  # type: ignore[no-any-return]
            kaiming_uniform_,
            (tensor,),
            tensor=tensor,
            a=a,
            mode=mode,
            nonlinearity=nonlinearity,
            generator=generator,
        )
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return _uniform(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Generator | None = None,
) -> Tensor:
    """Mirrors `torch.nn.init.kaiming_normal_`."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    return _normal(tensor, 0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Generator | None = None) -> Tensor:
    """Mirrors `torch.nn.init.orthogonal_`."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    if tensor.is_meta:
        return tensor  # no values: torch's meta QR and copy leave nothing to see, draw nothing
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    from ..linalg import qr  # torch's QR, and its errors (no float16 kernel)

    with no_grad():
        flat = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
        if rows < cols:
            flat = flat.t()
        q, r = qr(flat)
        q = q * r.diagonal().sign()
        if rows < cols:
            q = q.t()
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(
    tensor: Tensor, sparsity: float, std: float = 0.01, generator: Generator | None = None
) -> Tensor:
    """Mirrors `torch.nn.init.sparse_`."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        if tensor.is_meta:
            return tensor  # (torch's row permutations are drawn on the meta device: nothing)
        for col_idx in range(cols):
            # torch's quirk: the rows to zero come from the default generator
            row_indices = _random.randperm(rows)
            tensor[row_indices[:num_zeros], col_idx] = 0
    return tensor


def _make_deprecate(meth: Callable[..., Tensor]) -> Callable[..., Tensor]:
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
            FutureWarning,
            stacklevel=2,
        )
        return meth(*args, **kwargs)

    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
