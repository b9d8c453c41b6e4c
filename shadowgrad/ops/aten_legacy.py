"""aten entry points of the torch namespace that old and JIT-era code calls directly: the
deprecated norms (nuclear_norm, frobenius_norm, norm_except_dim, native_norm), the generic
`torch.convolution`, and the grid samplers by dimension (`grid_sampler_2d`/`_3d`).

Each is written as torch's C++ writes it, from the ops it dispatches to, so the recorded nodes
are torch's: frobenius_norm and norm_except_dim reach `at::norm` (NormBackward0 over every
dim, NormBackward1 over some), nuclear_norm is linalg.matrix_norm's 'nuc', convolution is the
one convolution op (ConvolutionBackward0) and the grid samplers are torch.grid_sampler's kernels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import shadowgrad as _sg

from .._tensor import Tensor, warn_once
from .nn_ops import convolution_op
from .pointwise import masked_fill
from .reduction import _axes, _norm_backward, _vector_norm_fwd, _vector_norm_t
from .registry import defop
from .resample import grid_sampler as _grid_sampler_checked

__all__ = [
    "convolution",
    "frobenius_norm",
    "grid_sampler_2d",
    "grid_sampler_3d",
    "native_norm",
    "norm_except_dim",
    "nuclear_norm",
]

# --- at::norm: the norm over every dim (NormBackward0) and over some (NormBackward1) ---------


def _all(x: Any) -> tuple[int, ...]:
    return tuple(range(x.ndim))


def _dims(dim: Any) -> tuple[int, ...]:
    # nn_ops._norm reaches this op with a single int dim (see _lazy there)
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _norm_t(self: Tensor, p: float, dim: Any, keepdim: bool, self_t: Tensor, result: Any) -> Any:
    """torch's norm_jvp. A complex input's tangent is the real one of |self| with |self|'s own
    tangent, real(conj(self) * self_t) / |self| (reduction's rule covers real inputs only)."""
    if self.is_complex():
        a = self.abs()
        a_t = masked_fill((self.conj() * self_t).real / a, a == 0, 0)
        self, self_t = a, a_t
    return _vector_norm_t(self, p, dim, keepdim, self_t, result)


_norm_all = defop(
    "norm.Scalar",
    "NormBackward0",
    lambda self, p: _vector_norm_fwd(self, p, _all(self), False),
    dtype="keep",
    self=lambda grad, self, p, result: _norm_backward(grad, self, p, result, _all(self), False),
    jvp=lambda self, p, self_t, result: _norm_t(self, p, _all(self), False, self_t, result),
    complex={
        "self": lambda grad, self, p, result: _norm_backward(
            grad, self, p, result, _all(self), False, True
        )
    },
)
_norm_dim = defop(
    "norm.ScalarOpt_dim_list",
    "NormBackward1",
    lambda self, p, dim, keepdim: _vector_norm_fwd(self, p, _dims(dim), keepdim),
    dtype="keep",
    contiguous=True,  # torch's reduction result (Note [Result layout])
    self=lambda grad, self, p, dim, keepdim, result: _norm_backward(
        grad, self, p, result, _dims(dim), keepdim
    ),
    jvp=lambda self, p, dim, keepdim, self_t, result: _norm_t(
        self, p, _dims(dim), keepdim, self_t, result
    ),
    complex={
        "self": lambda grad, self, p, dim, keepdim, result: _norm_backward(
            grad, self, p, result, _dims(dim), keepdim, True
        )
    },
)


def _check_norm_dtype(input: Tensor) -> None:
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{input.dtype._short} instead."
        )


def _at_norm(input: Tensor, p: float, dim: Any = None, keepdim: bool = False) -> Tensor:
    """at::norm: over every dim without `dim`, else over `dim` (empty: every dim)."""
    _check_norm_dtype(input)
    if dim is None:
        return _norm_all(input, float(p))
    return _norm_dim(input, float(p), _axes(list(dim), input.ndim), bool(keepdim))


def frobenius_norm(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.frobenius_norm` (deprecated in torch: at::norm(input, 2, dim, keepdim))."""
    warn_once(
        "frobenius_norm",
        "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be "
        "removed in a future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, "
        "keepdim)` instead",
    )
    dims = [dim] if isinstance(dim, int) else list(dim)
    if len(dims) > 2:
        raise RuntimeError(
            f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead."
        )
    return _at_norm(input, 2.0, dims, keepdim)


def nuclear_norm(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.nuclear_norm` (both overloads: `(input, keepdim=False)` over the last two
    dims and `(input, dim, keepdim=False)`; deprecated in torch: linalg.matrix_norm's 'nuc')."""
    from .. import linalg

    if isinstance(dim, bool):  # nuclear_norm(x, True): the keepdim overload
        dim, keepdim = None, dim
    warn_once(
        "nuclear_norm",
        "at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be "
        "removed in a future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, "
        "keepdim)` instead",
    )
    dims = (-2, -1) if dim is None else tuple(dim)
    if input.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
            f"{input.dtype._short}"
        )
    if len(dims) != 2:
        got = " ".join(str(d) for d in dims)
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {got}")
    return linalg.matrix_norm(input, "nuc", dims, bool(keepdim))


def norm_except_dim(v: Tensor, pow: int = 2, dim: int = 0) -> Tensor:
    """Mirrors `torch.norm_except_dim`: the `pow`-norm over every dim but `dim` (-1: over
    all), shaped to broadcast against v, as weight normalization uses it."""
    if isinstance(pow, bool) or not isinstance(pow, (int, np.integer)):
        raise TypeError(
            f"norm_except_dim(): argument 'pow' (position 2) must be int, not {type(pow).__name__}"
        )
    if dim == -1:
        return _at_norm(v, pow)
    if dim == 0:
        if v.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        out = [1] * v.ndim
        out[0] = v.shape[0]
        return _at_norm(v.contiguous().view(v.shape[0], -1), pow, [1]).view(out)
    if dim == v.ndim - 1:
        out = [1] * v.ndim
        out[-1] = v.shape[-1]
        return _at_norm(v.contiguous().view(-1, v.shape[-1]), pow, [0]).view(out)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def native_norm(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.native_norm`: torch has it for sparse tensors only, and raises for a
    dense (strided) one, the only kind shadowgrad has."""
    op = "native_norm" if len(args) + len(kwargs) <= 1 else "native_norm.ScalarOpt_dim_dtype"
    raise NotImplementedError(
        f"Could not run 'aten::{op}' with arguments from the 'CPU' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). If you are a Facebook "
        "employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible "
        f"resolutions. 'aten::{op}' is only available for these backends: [Meta, "
        "SparseCPU, ...]."
    )


# --- convolution -------------------------------------------------------------------------------


def _int_list(v: Any, name: str, pos: int) -> list[int]:
    if not isinstance(v, (list, tuple)):
        raise TypeError(
            f"convolution(): argument '{name}' (position {pos}) must be tuple of ints, not "
            f"{type(v).__name__}"
        )
    for i, e in enumerate(v):
        if isinstance(e, bool) or not isinstance(e, (int, np.integer)):
            raise TypeError(
                f"convolution(): argument '{name}' (position {pos}) must be tuple of ints, but "
                f"found element of type {type(e).__name__} at pos {i}"
            )
    return [int(e) for e in v]


def _expand(v: list[int], name: str, n: int) -> tuple[int, ...]:
    if len(v) == 1:
        return (v[0],) * n
    if len(v) != n:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match "
            f"the convolution dimensions, but got {name}={_list(v)}"
        )
    return tuple(v)


def _list(v: Any) -> str:
    return "[" + ", ".join(str(int(e)) for e in v) + "]"


def _check_conv_shapes(
    input: Tensor, weight: Tensor, bias: Tensor | None, p: tuple[int, ...], d: Any, tr: bool, g: int
) -> None:
    """torch's check_shape_forward."""
    ws, k = list(weight.shape), input.ndim
    if weight.ndim != k:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
            f"{_list(ws)}, but got {k}-dimensional input of size {_list(input.shape)} instead"
        )
    if ws[0] < g:
        raise RuntimeError(
            f"Given groups={g}, expected weight to be at least {g} at dimension 0, but got "
            f"weight of size {_list(ws)} instead"
        )
    if ws[0] % g:
        raise RuntimeError(
            f"Given groups={g}, expected weight to be divisible by {g} at dimension 0, but got "
            f"weight of size [{_list(ws)}] instead"
        )
    xs = _list(input.shape)
    if not tr:
        if input.shape[1] != ws[1] * g:
            raise RuntimeError(
                f"Given groups={g}, weight of size {_list(ws)}, expected input{xs} to have "
                f"{ws[1] * g} channels, but got {input.shape[1]} channels instead"
            )
        if bias is not None and (bias.ndim != 1 or bias.shape[0] != ws[0]):
            raise RuntimeError(
                f"Given weight of size {_list(ws)}, expected bias to be 1-dimensional with "
                f"{ws[0]} elements, but got bias of size {_list(bias.shape)} instead"
            )
        padded = [input.shape[i] + 2 * p[i - 2] for i in range(2, k)]
        kernel = [d[i - 2] * (ws[i] - 1) + 1 for i in range(2, k)]
        if any(a < b for a, b in zip(padded, kernel, strict=True)):
            raise RuntimeError(
                f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater "
                "than actual input size"
            )
        return
    if input.shape[1] != ws[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {_list(ws)}, expected input{xs} to have "
            f"{ws[0]} channels, but got {input.shape[1]} channels instead"
        )
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != ws[1] * g):
        raise RuntimeError(
            f"Given transposed=1, weight of size {_list(ws)}, expected bias to be 1-dimensional "
            f"with {ws[1] * g} elements, but got bias of size {_list(bias.shape)} instead"
        )


_AXES = {1: ("width",), 2: ("height", "width"), 3: ("depth", "height", "width")}


def _check_output_padding(op: tuple[int, ...], s: tuple[int, ...], d: tuple[int, ...]) -> None:
    # torch's slow_conv_transpose{2,3}d shape check (a 1-d convolution runs as a 2-d one)
    n = len(op)
    if n == 1:
        op, s, d = (0, *op), (1, *s), (1, *d)
    if all(o < st or o < dl for o, st, dl in zip(op, s, d, strict=True)):
        return
    names = _AXES[len(op)]
    parts = [f"output_padding_{a}: {v}" for a, v in zip(names, op, strict=True)]
    parts += [f"stride_{a}: {v}" for a, v in zip(names, s, strict=True)]
    parts += [f"dilation_{a}: {v}" for a, v in zip(names, d, strict=True)]
    raise RuntimeError(
        "output padding must be smaller than either stride or dilation, but got " + " ".join(parts)
    )


def convolution(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> Tensor:
    """Mirrors `torch.convolution`, the convolution every conv layer reaches: batched input,
    one value or one per spatial dim for each list argument, `transposed` with
    `output_padding`, `groups`."""
    lists = [
        _int_list(v, name, pos)
        for v, name, pos in (
            (stride, "stride", 4),
            (padding, "padding", 5),
            (dilation, "dilation", 6),
            (output_padding, "output_padding", 8),
        )
    ]
    if not isinstance(transposed, bool):
        raise TypeError(
            "convolution(): argument 'transposed' (position 7) must be bool, not "
            f"{type(transposed).__name__}"
        )
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)):
        raise TypeError(
            f"convolution(): argument 'groups' (position 9) must be int, not "
            f"{type(groups).__name__}"
        )
    n = weight.ndim - 2
    if n <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    names = ("stride", "padding", "dilation", "output_padding")
    s, p, d, op = (_expand(v, name, n) for v, name in zip(lists, names, strict=True))
    if any(v < 0 for v in p):
        raise RuntimeError("negative padding is not supported")
    if any(v < 0 for v in op):
        raise RuntimeError("negative output_padding is not supported")
    if any(v <= 0 for v in s):
        raise RuntimeError("non-positive stride is not supported")
    if any(v < 0 for v in d):
        raise RuntimeError("dilation should be greater than zero")
    if any(v == 0 for v in d):  # the message of torch's float32 kernel (others word it apart)
        raise RuntimeError("non-positive dilation is not supported")
    _check_conv_shapes(input, weight, bias, p, d, transposed, int(groups))
    if input.dtype != weight.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype._short} but found {weight.dtype._short}"
        )
    if bias is not None and bias.dtype != input.dtype:
        # torch's kernels disagree: grouped float32 ones (oneDNN) and the 3-d transposed one
        # refuse another bias dtype, the others convert the bias to the input's
        if input.dtype == _sg.float32 and groups > 1:
            raise RuntimeError(
                f"Input type ({_legacy(input)}) and bias type ({_legacy(bias)}) should be the "
                "same or input should be a MKLDNN tensor and bias is a dense tensor"
            )
        if transposed and n == 3:
            raise RuntimeError(
                f"expected scalar type {input.dtype._short} but found {bias.dtype._short}"
            )
        bias = bias.to(input.dtype)
    if input.dtype is _sg.bool and input.numel():
        kernel = ("slow_conv2d_cpu", "compute_columns3d")[n == 3]
        raise NotImplementedError(
            f'"{f"slow_conv_transpose{max(n, 2)}d_out_cpu" if transposed else kernel}" not '
            "implemented for 'Bool'"
        )
    if input.dtype._cat == 1 and input.dtype is not _sg.int64 and input.numel():
        from ..nn.functional import _int_conv_kernel

        _int_conv_kernel(input.dtype, n, transposed, d)
    if transposed:
        _check_output_padding(op, s, d)
    if n == 1:  # the kernel runs a 1-d convolution as a 2-d one over a height of 1
        s, p, d, op = (1, *s), (0, *p), (1, *d), (0, *op)
    out = convolution_op(input, weight, bias, s, p, d, transposed, op, int(groups))
    from ..nn.functional import _conv_result_layout

    _conv_result_layout(out, input, weight, n, int(groups))  # as F.conv*d's
    return out


def _legacy(t: Tensor) -> str:
    return f"torch.{t.dtype._short}Tensor"


# --- grid samplers by dimension ----------------------------------------------------------------


def _check_grid_args(name: str, mode: Any, pad: Any, align: Any) -> None:
    for v, arg, pos in ((mode, "interpolation_mode", 3), (pad, "padding_mode", 4)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {pos}) must be int, not {type(v).__name__}"
            )
    if not isinstance(align, bool):
        raise TypeError(
            f"{name}(): argument 'align_corners' (position 5) must be bool, not "
            f"{type(align).__name__}"
        )
    # torch reads uninitialized memory for other codes; shadowgrad refuses them
    if mode not in (0, 1, 2):
        raise RuntimeError(f"{name}(): unknown interpolation mode {mode}")
    if pad not in (0, 1, 2):
        raise RuntimeError(f"{name}(): unknown padding mode {pad}")


def _grid_sampler_nd(
    n: int, input: Tensor, grid: Tensor, mode: int, pad: int, align: bool
) -> Tensor:
    name = f"grid_sampler_{n}d"
    _check_grid_args(name, mode, pad, align)
    xs, gs = _list(input.shape), _list(grid.shape)
    # torch's check_grid_sampler_common, then the check for this dimension
    if input.ndim and grid.ndim and input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input "
            f"with sizes {xs} and grid with sizes {gs}"
        )
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, but "
            f"got grid with sizes {gs}"
        )
    for i in range(2, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                f"has sizes {xs} with dimension {i} being empty"
            )
    if input.ndim != n + 2 or grid.ndim != input.ndim:
        raise RuntimeError(
            f"grid_sampler(): expected {n + 2}D input and grid with same number of dimensions, "
            f"but got input with sizes {xs} and grid with sizes {gs}"
        )
    return _grid_sampler_checked(input, grid, int(mode), int(pad), align)


def grid_sampler_2d(
    input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Tensor:
    """Mirrors `torch.grid_sampler_2d` (modes 0 bilinear, 1 nearest, 2 bicubic; padding 0
    zeros, 1 border, 2 reflection). Differences: other codes raise (torch's output is then
    uninitialized memory)."""
    return _grid_sampler_nd(2, input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_3d(
    input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Tensor:
    """Mirrors `torch.grid_sampler_3d` (modes 0 bilinear, 1 nearest; padding 0 zeros, 1
    border, 2 reflection). Differences: other codes raise (torch's output is then
    uninitialized memory)."""
    return _grid_sampler_nd(3, input, grid, interpolation_mode, padding_mode, align_corners)


def _is_distributed(self: Tensor) -> bool:
    """Mirrors `torch.Tensor.is_distributed`: False (no distributed tensors)."""
    return False


_is_distributed.__name__ = _is_distributed.__qualname__ = "is_distributed"

METHODS: dict[str, Any] = {"is_distributed": _is_distributed}
FUNCTIONS: dict[str, Any] = {n: globals()[n] for n in __all__}
