"""The 3-d (and remaining 1-d) convolutions, pooling and dropout of torch.nn.functional.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`. The
kernels are the N-d ones of `shadowgrad/ops/nn_ops.py`; the 1-d variants go through the 2-d ones
over a height or width of 1, as torch's do (so their grad_fn is SqueezeBackward1, as in torch).
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np

from .. import _formats, int64, rand
from .._signatures import not_tensor as _not_tensor
from .._tensor import Tensor, _make
from ..ops import nn_ops as K
from ..ops import resample as RS
from . import functional as F

__all__ = [
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices",
    "avg_pool3d",
    "conv3d",
    "conv_transpose3d",
    "dropout3d",
    "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices",
    "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices",
    "lp_pool1d",
    "lp_pool2d",
    "lp_pool3d",
    "max_pool1d_with_indices",
    "max_pool2d_with_indices",
    "max_pool3d",
    "max_pool3d_with_indices",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
]


def _short(t: Tensor) -> str:
    return t.dtype._short


# --- convolution --------------------------------------------------------------------------


def conv3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: int = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.conv3d`."""
    return F._conv(input, weight, bias, stride, padding, dilation, groups, 3)


def conv_transpose3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: int = 1,
    dilation: Any = 1,
) -> Tensor:
    """Mirrors `torch.nn.functional.conv_transpose3d`."""
    return F._conv(input, weight, bias, stride, padding, dilation, groups, 3, True, output_padding)


# --- max pooling --------------------------------------------------------------------------

_WORDS = {1: "one", 2: "two", 3: "three"}


def _arg(v: Any, n: int, msg: str) -> tuple[int, ...]:
    if isinstance(v, (tuple, list)) and len(v) not in (1, n):
        raise RuntimeError(msg)
    return F._tuple(v, n)


def _pool_args(name: str, kernel_size: Any, stride: Any, padding: Any, dilation: Any, n: int):
    """kernel, stride, padding, dilation as n-tuples, with torch's messages for bad lengths."""
    w, mp = _WORDS[n], name.startswith("max")
    be = "either be" if mp else "be"
    k = _arg(kernel_size, n, f"{name}: kernel_size must {be} a single int, or a tuple of {w} ints")
    no_stride = stride is None or (isinstance(stride, (tuple, list)) and not stride)
    omitted = f"{name}: stride must {be} omitted, a single int, or a tuple of {w} ints"
    s = k if no_stride else _arg(stride, n, omitted)
    p = _arg(padding, n, f"{name}: padding must {be} a single int, or a tuple of {w} ints")
    d = _arg(dilation, n, f"{name}: dilation must be either a single int, or a tuple of {w} ints")
    if any(v == 0 for v in s):
        raise RuntimeError("stride should not be zero")
    if any(v < 0 for v in p):
        raise RuntimeError(f"pad must be non-negative, but got pad: {p[0]}")
    return k, s, p, d


def _check_pool_input(input: Tensor, name: str, n: int) -> None:
    if input.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    if any(v == 0 for v in input.shape[-n - 1 :]):
        # torch's pool3d_shape_check names the empty dimension by its size (always 0)
        raise RuntimeError(
            f"{name}(): Expected input's non-batch dimensions to have positive length, but input "
            f"has a shape of {list(input.shape)} and non-batch dimension 0 has length zero!"
        )


def _pool_out(input: Tensor, k: Any, s: Any, p: Any, d: Any, ceil_mode: bool) -> list[int]:
    n = len(k)
    for i in range(n):
        if p[i] > (d[i] * (k[i] - 1) + 1) // 2 and p[i] > k[i] // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation={d[i]}"
            )
    sp = tuple(input.shape[-n:])
    out = [K.pool_out_size(sp[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(n)]
    if any(o < 1 for o in out):
        c = input.shape[-n - 1]
        raise RuntimeError(
            f"Given input size: ({'x'.join(str(v) for v in (c, *sp))}). Calculated output size: "
            f"({'x'.join(str(v) for v in (c, *out))}). Output size is too small"
        )
    return out


def max_pool3d_with_indices(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.functional.max_pool3d_with_indices`: (values, flat indices)."""
    k, s, p, d = _pool_args("max_pool3d", kernel_size, stride, padding, dilation, 3)
    if input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if any(v <= 0 for v in d):
        raise RuntimeError(
            "dilation should be greater than zero, but got dilationT: {} dilationH: {} "
            "dilationW: {}".format(*d)
        )
    _check_pool_input(input, "max_pool3d_with_indices_out_cpu_template", 3)
    _pool_out(input, k, s, p, d, ceil_mode)
    if input._data.dtype.kind in "bc":
        raise NotImplementedError(f"\"max_pool3d\" not implemented for '{input.dtype._short}'")
    idx = K.max_pool_indices(input._data, k, s, p, d, ceil_mode)
    cl = input.ndim == 5 and _formats.suggested(input._data) is _formats.channels_last_3d
    if cl:  # the result and its indices laid out as the input, as torch
        idx = _formats.relayout(idx, _formats.channels_last_3d)
    out = K.max_pool3d_op(input, _make(idx), tuple(input.shape))
    if cl:
        _formats.formatted(out, _formats.channels_last_3d)
    return out, _make(idx)


def max_pool3d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """Mirrors `torch.nn.functional.max_pool3d`: ties go to the window's first element."""
    r = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return r if return_indices else r[0]


def max_pool2d_with_indices(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.functional.max_pool2d_with_indices`."""
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool1d_with_indices(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.functional.max_pool1d_with_indices`."""
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
            "#1 'self' (while checking arguments for max_pool1d)"
        )
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


# --- average pooling ----------------------------------------------------------------------


def avg_pool3d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.avg_pool3d`."""
    if not isinstance(input, Tensor):
        raise _not_tensor("avg_pool3d", "input", 1, input)
    k, s, p, _ = _pool_args("avg_pool3d", kernel_size, stride, padding, 1, 3)
    if divisor_override is not None and type(divisor_override) is not int:
        F._check_divisor_override("avg_pool3d", divisor_override)
    if input.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    _check_pool_input(input, "avg_pool3d", 3)
    if (not input.dtype.is_floating_point and input.dtype is not int64) or input.dtype.itemsize < 4:
        raise NotImplementedError(f"\"avg_pool3d_out_frame\" not implemented for '{_short(input)}'")
    sp = tuple(input.shape[-3:])
    if any(sp[i] + 2 * p[i] < k[i] for i in range(3)):
        raise RuntimeError(
            "input image (T: {} H: {} W: {}) smaller than kernel size "
            "(kT: {} kH: {} kW: {})".format(*sp, *k)
        )
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    out = _pool_out(input, k, s, p, (1, 1, 1), ceil_mode)
    div = K.avg_pool_divisor_nd(sp, k, s, p, out, count_include_pad, divisor_override)
    return K.avg_pool3d_op(input, div, k, s, p, tuple(out))


# --- adaptive pooling ---------------------------------------------------------------------


def _adaptive_out(input: Tensor, output_size: Any, n: int, msg: str) -> tuple[int, ...]:
    o = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,) * n
    if len(o) != n:
        raise RuntimeError(msg)
    sp = tuple(input.shape[-n:])
    return tuple(sp[i] if o[i] is None else int(o[i]) for i in range(n))


def _check_adaptive(input: Tensor, name: str, n: int, colon: str = "") -> None:
    if input.ndim not in (n + 1, n + 2):
        raise RuntimeError(
            f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got{colon} {list(input.shape)}"
        )
    for i in range(1, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but "
                f"input has sizes {list(input.shape)} with dimension {i} being empty"
            )


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """Mirrors `torch.nn.functional.adaptive_avg_pool3d` (an output of 1 is a mean, as torch)."""
    F._list_with_default(output_size, input)
    sz = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * 3
    if len(sz) == 3 and all(type(v) is int and v == 1 for v in sz):
        # torch's shortcut comes before its input checks: any input of 3 or more dims
        return _cl3d_mean(input)
    _check_adaptive(input, "adaptive_avg_pool3d", 3)
    o = _adaptive_out(input, output_size, 3, "adaptive_avg_pool3d: output_size must be 3")
    if any(v < 0 for v in o):
        raise RuntimeError(
            "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 "
            "but received {{{}, {},{}}}".format(*o)
        )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"adaptive_avg_pool3d_cpu\" not implemented for '{_short(input)}'"
        )
    if o == (1, 1, 1):
        return _cl3d_mean(input)
    sp = tuple(input.shape[-3:])
    mats = [K.adaptive_matrix(sp[i], o[i]) for i in range(3)]
    r = K.adaptive_avg_pool3d_op(input, *mats)
    if not r._data.flags.c_contiguous:  # torch's kernel: contiguous, whatever the input's
        r._data = np.ascontiguousarray(r._data)
    return r


def _cl3d_mean(input: Tensor) -> Tensor:
    """adaptive_avg_pool3d's shortcut for an output of 1: the mean over the spatial dims,
    restrided to (c, 1, c, c, c) for a channels-last-3d input, as torch's (the same memory)."""
    out = input.mean((-1, -2, -3), keepdim=True)
    if input.ndim == 5 and _formats.suggested(input._data) is _formats.channels_last_3d:
        c = out._data.shape[1]
        item = out._data.itemsize
        out._data = np.lib.stride_tricks.as_strided(
            out._data, out._data.shape, (c * item, item, *(c * item,) * 3)
        )
    return out


def _adaptive_max_indices(x: np.ndarray, out: Any) -> np.ndarray:
    """Flat index of each adaptive window's maximum (the last NaN, as torch's kernel takes)."""
    n = len(out)
    sp = x.shape[-n:]
    lead = x.shape[:-n]
    idx = np.zeros((*lead, *out), np.int64)
    bounds = [
        [((i * sp[a]) // out[a], -(-((i + 1) * sp[a]) // out[a])) for i in range(out[a])]
        for a in range(n)
    ]
    for cell in itertools.product(*(range(o) for o in out)):
        lo = [bounds[a][cell[a]][0] for a in range(n)]
        hi = [bounds[a][cell[a]][1] for a in range(n)]
        win = x[(..., *(slice(a, b) for a, b in zip(lo, hi, strict=True)))]
        win = win.reshape(*lead, win[(0,) * len(lead)].size if x.size else 1)
        arg = np.argmax(win, axis=-1)
        if x.dtype.kind == "f":
            nan = np.isnan(win)
            arg = np.where(nan.any(-1), win.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1), arg)
        flat = np.zeros_like(arg)
        for a, r in enumerate(np.unravel_index(arg, [hi[a] - lo[a] for a in range(n)])):
            flat = flat * sp[a] + lo[a] + r
        idx[(..., *cell)] = flat
    return idx


def adaptive_max_pool3d_with_indices(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.functional.adaptive_max_pool3d_with_indices`."""
    F._list_with_default(output_size, input)
    o = _adaptive_out(
        input, output_size, 3, "adaptive_max_pool3d(): internal error: output_size.size() must be 3"
    )
    _check_adaptive(input, "adaptive_max_pool3d", 3, ":")
    F.check_new_shape((*input.shape[:-3], *o))
    if input._data.dtype.kind in "biuc":
        raise NotImplementedError(
            f"\"adaptive_max_pool3d_cpu\" not implemented for '{input.dtype._short}'"
        )
    idx = _make(_adaptive_max_indices(input._data, o))
    return K.adaptive_max_pool3d_op(input, idx, tuple(input.shape)), idx


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Mirrors `torch.nn.functional.adaptive_max_pool3d`."""
    r = adaptive_max_pool3d_with_indices(input, output_size)
    return r if return_indices else r[0]


def adaptive_max_pool2d_with_indices(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.functional.adaptive_max_pool2d_with_indices`."""
    return F.adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool1d_with_indices(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.functional.adaptive_max_pool1d_with_indices` (a 2-d pool over a height
    of 1, as torch)."""
    if not isinstance(input, Tensor):
        raise _not_tensor("adaptive_max_pool1d", "input", 1, input)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
            "#1 'self' (while checking arguments for adaptive_max_pool1d)"
        )
    F._one_int(output_size, "adaptive_max_pool1d", "output_size")
    o = F._tuple(output_size, 1)[0]
    for i in range(1, input.ndim):
        if input.shape[i] == 0:
            raise RuntimeError(
                "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(input.shape)} with dimension {i} being "
                "empty"
            )
    out, idx = F.adaptive_max_pool2d(input.unsqueeze(-2), (1, o), True)
    return out.squeeze(-2), idx.squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Mirrors `torch.nn.functional.adaptive_max_pool1d`."""
    r = adaptive_max_pool1d_with_indices(input, output_size)
    return r if return_indices else r[0]


# --- max unpooling ------------------------------------------------------------------------


def _unpool_size(input: Tensor, k: Any, s: Any, p: Any, output_size: Any) -> list[int]:
    n = len(k)
    default = [(input.shape[-n + i] - 1) * s[i] + k[i] - 2 * p[i] for i in range(n)]
    if output_size is None:
        ret = default
    else:
        o = list(output_size)
        if len(o) == n + 2:
            o = o[2:]
        if len(o) != n:
            raise ValueError(
                f"output_size should be a sequence containing {n} or {n + 2} elements, but it "
                f"has a length of '{len(o)}'"
            )
        for i in range(n):
            lo, hi = default[i] - s[i], default[i] + s[i]
            if not lo < o[i] < hi:
                raise ValueError(
                    f'invalid output_size "{output_size}" (dim {i} must be between {lo} and {hi})'
                )
        ret = o
    for i in range(n):
        if ret[i] < 0:
            raise ValueError(
                "max_unpooling: output_size must contain non-negative spatial dimensions, but "
                f"got output_size[{i}]={ret[i]}"
            )
    return [int(v) for v in ret]


def _max_unpool(input: Tensor, indices: Tensor, size: list[int], nd: int) -> Tensor:
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"Input to max_unpooling{nd}d should be a {nd + 1}d or {nd + 2}d Tensor, but got a "
            f"tensor with {input.ndim} dimensions."
        )
    if indices.dtype != int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {_short(indices)}")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(
            f"Expected shape of indices to be same as that of the input tensor "
            f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}"
        )
    for i in range(1, input.ndim):
        if not input.shape[i]:
            raise RuntimeError(
                f"max_unpooling{nd}d_forward_out_cpu(): Expected input to have non-zero size for "
                f"non-batch dimensions, but got {list(input.shape)} with dimension {i} being "
                "empty."
            )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"max_unpool{nd}d\" not implemented for '{_short(input)}'")
    K.unpool_check(input._data, indices._data, size)
    op = K.max_unpool2d_op if nd == 2 else K.max_unpool3d_op
    return op(input, indices, tuple(size))


def _unpool_args(kernel_size: Any, stride: Any, padding: Any, n: int) -> Any:
    k = F._tuple(kernel_size, n)
    s = k if stride is None else F._tuple(stride, n)
    return k, s, F._tuple(padding, n)


def max_unpool1d(
    input: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.max_unpool1d` (a 2-d unpool over a width of 1, as torch)."""
    k, s, p = _unpool_args(kernel_size, stride, padding, 1)
    size = [*_unpool_size(input, k, s, p, output_size), 1]
    return _max_unpool(input.unsqueeze(-1), indices.unsqueeze(-1), size, 2).squeeze(-1)


def max_unpool2d(
    input: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.max_unpool2d`."""
    k, s, p = _unpool_args(kernel_size, stride, padding, 2)
    return _max_unpool(input, indices, _unpool_size(input, k, s, p, output_size), 2)


def max_unpool3d(
    input: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.max_unpool3d`."""
    k, s, p = _unpool_args(kernel_size, stride, padding, 3)
    return _max_unpool(input, indices, _unpool_size(input, k, s, p, output_size), 3)


# --- power-average pooling ----------------------------------------------------------------


def _lp_pool(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any, ceil_mode: bool, n: int
) -> Tensor:
    """torch's composition: avg_pool of x**p, times the window size, to the power 1/p (sign *
    relu(abs) keeps the gradient 0 where a window's sum is 0); +-inf norms are max pools."""
    mp = (F.max_pool1d, F.max_pool2d, max_pool3d)[n - 1]
    if norm_type == float("inf"):
        return mp(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -mp(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    ap = (F.avg_pool1d, F.avg_pool2d, avg_pool3d)[n - 1]
    out = ap(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    size = 1
    for v in F._tuple(kernel_size, n):
        size *= v
    from .. import abs as _abs
    from .. import sign

    return (sign(out) * F.relu(_abs(out))).mul(size).pow(1.0 / norm_type)


def lp_pool1d(
    input: Tensor, norm_type: float, kernel_size: int, stride: Any = None, ceil_mode: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.lp_pool1d`."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.lp_pool2d`."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.lp_pool3d`."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


# --- dropout ------------------------------------------------------------------------------


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Mirrors `torch.nn.functional.dropout3d`: one mask value per (sample, channel)."""
    F._check_p(p)
    if not isinstance(input, Tensor):
        raise F._no_attribute(input, "dim")
    nd = input.ndim
    if nd not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {nd}-D input to dropout3d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).",
            stacklevel=2,
        )
    batched = nd == 5
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    shape = tuple(input.shape)
    noise = shape[:2] + (1,) * (len(shape) - 2)
    out = F._dropout(input, p, training, inplace, noise)
    if not batched:
        out = out.squeeze_(0) if inplace else out.squeeze(0)
    return out


# --- fractional max pooling -----------------------------------------------------------------

_DIM_WORDS = {"T": "time", "H": "height", "W": "width"}


def _as_n(v: Any, n: int) -> tuple[Any, ...]:
    """A single value repeated n times; a sequence as it is (torch's _pair/_triple)."""
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _fractional(
    input: Tensor, kernel_size: Any, output_size: Any, output_ratio: Any, samples: Any, n: int
) -> tuple[Tensor, Tensor]:
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if n == 2 and len(output_ratio) > 2:
            raise ValueError(
                f"{name} requires output_ratio to either be a single Int or tuple of Ints."
            )
        ratio = _as_n(output_ratio, n)
        output_size = [int(input.size(d - n) * ratio[d]) for d in range(n)]
    if samples is None:
        lead = 1 if input.dim() == n + 1 else input.size(0)
        samples = rand(lead, input.size(-n - 1), n, dtype=input.dtype)
    ints = "Ints" if n == 2 else "three Ints"
    pool, out = _as_n(kernel_size, n), _as_n(output_size, n)
    for what, v in (("kernel_size", pool), ("output_size", out)):
        if len(v) != n:
            raise RuntimeError(f"{name}: {what} must either be a single Int or tuple of {ints}")
    where = name if n == 2 else f"{name}_out"
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(
            f"{where}(): Expected {n + 1}D or {n + 2}D tensor, but got: {list(input.shape)}"
        )
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError(
                f"{where}(): Expected input to have non-zero size for non-batch dimensions, "
                f"but got{list(input.shape)} with dimension {d} being empty."
            )
    ins = tuple(input.shape[-n:])
    for d, axis in enumerate("THW"[3 - n :]):
        # torch's 3-d check is strict: a window may not end on the input's last element
        if out[d] + pool[d] - 1 > ins[d] - (n == 3):
            w = _DIM_WORDS[axis]
            raise RuntimeError(
                f"{where}(): pool {w} {pool[d]} too large relative to input {w} {ins[d]}"
            )
    if any(v < 0 for v in out):
        shape = [*input.shape[:-n], *out]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: {shape}")
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    batch = input.size(0) if input.dim() == n + 2 else 1
    if samples.size(0) < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.size(1) != input.size(-n - 1):
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.size(2) != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got {samples.size(2)}.")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}_out_frame\" not implemented for '{_short(input)}'")
    x = input._data
    idx = _make(RS.fractional_max_indices(x, pool, out, samples._data))
    op = RS.fractional_max_pool2d_op if n == 2 else RS.fractional_max_pool3d_op
    return op(input, idx, tuple(input.shape)), idx


def _fractional_public(n: int, with_indices: bool) -> Any:
    """torch's fractional_max_pool{n}d (values, or (values, indices) when return_indices) or
    its _with_indices variant (always both)."""

    def fn(
        input: Tensor,
        kernel_size: Any,
        output_size: Any = None,
        output_ratio: Any = None,
        return_indices: bool = False,
        _random_samples: Tensor | None = None,
    ) -> Any:
        r = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, n)
        return r if with_indices or return_indices else r[0]

    fn.__name__ = fn.__qualname__ = f"fractional_max_pool{n}d" + "_with_indices" * with_indices
    fn.__doc__ = f"Mirrors `torch.nn.functional.{fn.__name__}` (FractionalMaxPool{n}DBackward0)."
    return fn


fractional_max_pool2d = _fractional_public(2, False)
fractional_max_pool2d_with_indices = _fractional_public(2, True)
fractional_max_pool3d = _fractional_public(3, False)
fractional_max_pool3d_with_indices = _fractional_public(3, True)
