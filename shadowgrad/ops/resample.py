"""Resampling ops behind torch.nn.functional.interpolate and the upsampling layers, and the
pixel and channel shuffles and rms_norm that torch exports at top level.

Each upsampling kernel is separable: along each spatial dim, an output position reads a few
input positions (`taps`) with weights, computed as torch's CPU kernels compute them (nearest
indices in float32, linear and cubic weights in the input's compute type). A kernel's backward
is its own op (`Upsample...BackwardBackward0`), the transposed map, whose derivative is the
forward kernel again, as torch's formulas are. torch's backward kernels take shortcuts the
forward ones do not (an unchanged size is copied, nearest's doubling is `i >> 1`), so a
kernel carries two plans: one for the forward, one for the backward.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make, warn_once
from ..autograd.forward_ad import LINEAR
from . import pointwise as P
from . import reduction as R
from ._util import shape_str
from .nn_ops import _gather_pair
from .registry import _SAVED_HIDDEN, defop, show_saved
from .shape_extra import _no_derivative

# --- index and weight plans ---------------------------------------------------------------
# A plan has one entry per spatial dim: (idx, w, n_in), idx an int64 (n_out, taps) array of
# input positions, w the matching weights (None for nearest: one tap, weight 1), n_in the
# input size along that dim.


def _scale_value(scale: float | None, n_in: int, n_out: int, t: type) -> Any:
    """torch's compute_scales_value: 1/scale when a scale is given, else n_in/n_out."""
    if scale is not None and scale > 0:
        return t(1.0 / scale)
    return t(n_in) / t(n_out)


def _nearest_taps(
    n_in: int, n_out: int, scale: float | None, exact: bool, short: bool
) -> np.ndarray:
    i = np.arange(n_out)
    if short and not exact and n_out == n_in:
        return i
    if short and not exact and n_out == 2 * n_in:
        return i >> 1
    s = _scale_value(scale, n_in, n_out, np.float32)
    # exact: (i + 0.5) in double, times the float scale, rounded to float before floorf
    src = ((i + 0.5) * np.float64(s)).astype(np.float32) if exact else i.astype(np.float32) * s
    return np.minimum(np.floor(src).astype(np.int64), n_in - 1)


def _linear_scale(n_in: int, n_out: int, align: bool, scale: float | None, t: type) -> Any:
    """torch's area_pixel_compute_scale."""
    if align:
        return t(n_in - 1) / t(n_out - 1) if n_out > 1 else t(0)
    return _scale_value(scale, n_in, n_out, t)


def _source_index(s: Any, n_out: int, align: bool, cubic: bool, t: type) -> np.ndarray:
    """torch's area_pixel_compute_source_index, for every output position."""
    i = np.arange(n_out).astype(t)
    if align:
        return s * i
    src = s * (i + t(0.5)) - t(0.5)
    return src if cubic else np.maximum(src, t(0))


def _linear_taps(
    n_in: int, n_out: int, scale: float | None, align: bool, t: type
) -> tuple[np.ndarray, np.ndarray]:
    if n_in == n_out:  # torch copies an unchanged size
        i = np.arange(n_out)
        return np.stack([i, i], 1), np.stack([np.ones(n_out, t), np.zeros(n_out, t)], 1)
    src = _source_index(_linear_scale(n_in, n_out, align, scale, t), n_out, align, False, t)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    lam1 = np.clip(src - i0.astype(t), t(0), t(1)).astype(t)
    i1 = i0 + (i0 < n_in - 1)
    return np.stack([i0, i1], 1), np.stack([t(1) - lam1, lam1], 1)


def _cubic_taps(
    n_in: int, n_out: int, scale: float | None, align: bool, t: type
) -> tuple[np.ndarray, np.ndarray]:
    src = _source_index(_linear_scale(n_in, n_out, align, scale, t), n_out, align, True, t)
    i0 = np.floor(src).astype(np.int64)
    x = (src - i0.astype(t)).astype(t)
    a = t(-0.75)

    def near(v: Any) -> Any:  # |v| <= 1
        return ((a + t(2)) * v - (a + t(3))) * v * v + t(1)

    def far(v: Any) -> Any:  # 1 < |v| < 2
        return ((a * v - t(5) * a) * v + t(8) * a) * v - t(4) * a

    w = np.stack([far(x + t(1)), near(x), near(t(1) - x), far(t(2) - x)], 1).astype(t)
    idx = np.clip(i0[:, None] + np.arange(-1, 3), 0, n_in - 1)
    return idx, w


def _aa_taps(
    n_in: int, n_out: int, scale: float | None, align: bool, cubic: bool
) -> tuple[np.ndarray, np.ndarray]:
    """torch's antialiased weights: the filter widened by the downscale factor, normalized."""
    s = _linear_scale(n_in, n_out, align, scale, float)
    support = (2.0 if cubic else 1.0) * (s if s >= 1.0 else 1.0)
    inv = 1.0 / s if s >= 1.0 else 1.0
    center = s * (np.arange(n_out) + 0.5)
    lo = np.maximum((center - support + 0.5).astype(np.int64), 0)
    size = np.minimum((center + support + 0.5).astype(np.int64), n_in) - lo
    j = np.arange(max(int(size.max()), 1))
    ax = np.abs((j + lo[:, None] - center[:, None] + 0.5) * inv)
    if cubic:  # torch's antialiased cubic filter uses a = -0.5
        a = -0.5
        w = np.where(
            ax < 1,
            ((a + 2) * ax - (a + 3)) * ax * ax + 1,
            np.where(ax < 2, ((a * ax - 5 * a) * ax + 8 * a) * ax - 4 * a, 0.0),
        )
    else:
        w = np.where(ax < 1, 1 - ax, 0.0)
    w = np.where(j < size[:, None], w, 0.0)
    total = w.sum(1, keepdims=True)
    w = np.where(total != 0, w / np.where(total != 0, total, 1), w)
    return np.minimum(lo[:, None] + j, n_in - 1), w


def _compute_type(x: np.ndarray) -> type:
    return np.float64 if x.dtype == np.float64 else np.float32


def _plans(kind: str, x: np.ndarray, out: tuple[int, ...], scales: Any, align: bool) -> Any:
    """(forward plan, backward plan) of kernel `kind` from x's spatial sizes to `out`."""
    t = _compute_type(x)
    n_sp = len(out)
    ins = x.shape[x.ndim - n_sp :]
    fwd, bwd = [], []
    for n_in, n_out, s in zip(ins, out, scales, strict=True):
        if kind in ("nearest", "nearest-exact"):
            exact = kind == "nearest-exact"
            # torch's 2-d nearest forward takes the backward's shortcuts; 1-d and 3-d do not
            short = n_sp == 2
            fwd.append((_nearest_taps(n_in, n_out, s, exact, short), None, n_in))
            bwd.append((_nearest_taps(n_in, n_out, s, exact, True), None, n_in))
        elif kind.startswith("aa-"):  # the forward copies an unchanged size, the backward not
            idx, w = _aa_taps(n_in, n_out, s, align, kind == "aa-cubic")
            w = w.astype(t)
            same = (np.arange(n_in), None, n_in)
            fwd.append(same if n_in == n_out else (idx, w, n_in))
            bwd.append((idx, w, n_in))
        elif kind == "cubic":
            idx, w = _cubic_taps(n_in, n_out, s, align, t)
            fwd.append((idx, w, n_in))
        else:
            idx, w = _linear_taps(n_in, n_out, s, align, t)
            fwd.append((idx, w, n_in))
            bwd.append((idx, w, n_in))
    if kind == "cubic":  # torch's cubic backward copies when no size changes
        same = all(a == b for a, b in zip(ins, out, strict=True))
        bwd = [(np.arange(n), None, n) for n in ins] if same else fwd
    return tuple(fwd), tuple(bwd)


def _axis_shape(ndim: int, ax: int) -> tuple[int, ...]:
    return (-1,) + (1,) * (ndim - ax - 1)


def _resample(x: np.ndarray, plan: Any) -> np.ndarray:
    """Apply a plan: each spatial dim in turn, output position = sum of weighted taps."""
    dt = x.dtype
    y = x if dt != np.float16 else x.astype(np.float32)
    for k, (idx, w, _n) in enumerate(plan):
        ax = y.ndim - len(plan) + k
        if w is None:
            y = np.take(y, idx, axis=ax)
            continue
        acc = None
        for j in range(idx.shape[1]):
            term = np.take(y, idx[:, j], axis=ax) * w[:, j].astype(y.dtype).reshape(
                _axis_shape(y.ndim, ax)
            )
            acc = term if acc is None else acc + term
        y = acc
    return np.asanyarray(y.astype(dt, copy=False), order="C")  # (a meta input stays meta)


def _resample_t(g: np.ndarray, plan: Any) -> np.ndarray:
    """The transpose of `_resample`: each output gradient added back to the taps it read."""
    dt = g.dtype
    y = g if dt != np.float16 else g.astype(np.float32)
    for k, (idx, w, n_in) in enumerate(plan):
        ax = y.ndim - len(plan) + k
        m = np.zeros((idx.shape[0], n_in), y.dtype)
        rows = np.arange(idx.shape[0])
        if w is None:
            np.add.at(m, (rows, idx), 1)
        else:
            for j in range(idx.shape[1]):
                np.add.at(m, (rows, idx[:, j]), w[:, j])
        y = np.moveaxis(np.moveaxis(y, ax, -1) @ m, -1, ax)
    return np.asanyarray(y.astype(dt, copy=False), order="C")


def _kernel(name: str, node: str) -> Any:
    """The forward and backward ops of one upsampling kernel (torch's `name`)."""

    def fwd_formula(grad: Tensor, plan: Any, bplan: Any) -> Tensor:
        return backward(grad, plan, bplan)

    _SAVED_HIDDEN[f"{node}Backward0"] = frozenset(("plan", "bplan"))  # torch's: show_saved
    forward = defop(
        name,
        f"{node}Backward0",
        lambda self, plan, bplan: _resample(self, plan),
        dtype="keep",
        self=fwd_formula,
        jvp=LINEAR,
    )
    backward = defop(
        f"{name}_backward",
        f"{node}BackwardBackward0",
        lambda grad_output, plan, bplan: _resample_t(grad_output, bplan),
        dtype="keep",
        grad_output=lambda grad, plan, bplan: forward(grad, plan, bplan),
        jvp=LINEAR,
    )
    return forward


_KERNELS = {
    ("nearest", 1): _kernel("upsample_nearest1d", "UpsampleNearest1D"),
    ("nearest", 2): _kernel("upsample_nearest2d", "UpsampleNearest2D"),
    ("nearest", 3): _kernel("upsample_nearest3d", "UpsampleNearest3D"),
    ("nearest-exact", 1): _kernel("_upsample_nearest_exact1d", "UpsampleNearestExact1D"),
    ("nearest-exact", 2): _kernel("_upsample_nearest_exact2d", "UpsampleNearestExact2D"),
    ("nearest-exact", 3): _kernel("_upsample_nearest_exact3d", "UpsampleNearestExact3D"),
    ("linear", 1): _kernel("upsample_linear1d", "UpsampleLinear1D"),
    ("linear", 2): _kernel("upsample_bilinear2d", "UpsampleBilinear2D"),
    ("linear", 3): _kernel("upsample_trilinear3d", "UpsampleTrilinear3D"),
    ("cubic", 2): _kernel("upsample_bicubic2d", "UpsampleBicubic2D"),
    ("aa-linear", 2): _kernel("_upsample_bilinear2d_aa", "UpsampleBilinear2DAa"),
    ("aa-cubic", 2): _kernel("_upsample_bicubic2d_aa", "UpsampleBicubic2DAa"),
}

# the dtype-dispatch names in torch's "not implemented for" errors, per kernel
_DISPATCH = {
    ("nearest", 2): "upsample_nearest2d_channels_last",
    ("nearest-exact", 2): "upsample_nearest2d_channels_last",
    ("linear", 2): "upsample_bilinear2d_channels_last",
    ("cubic", 2): "compute_indices_weights_cubic",
    ("aa-linear", 2): "compute_index_ranges_weights",
    ("aa-cubic", 2): "compute_index_ranges_weights",
}


def _size_error(ins: tuple[int, ...], out: tuple[int, ...]) -> RuntimeError:
    names = ("D", "H", "W")[3 - len(ins) :]
    a = ", ".join(f"{n}: {v}" for n, v in zip(names, ins, strict=True))
    b = ", ".join(f"{n}: {v}" for n, v in zip(names, out, strict=True))
    sep = " and" if len(ins) == 1 else ""
    return RuntimeError(
        f"Input and output sizes should be greater than 0, but got input ({a}){sep} output ({b})"
    )


# --- uint8 bilinear and bicubic (torch's PIL-SIMD-style kernels) ---------------------------------
# torch resizes a uint8 image separably, the width first, then the height, each pass with int16
# fixed-point weights scaled by 2**precision (the largest precision whose doubled maximum weight
# stays below 2**15), each output the rounded-down (sum + 2**(precision - 1)) >> precision,
# clamped to [0, 255]. Antialiased weights are the filter's over its scaled support, renormalized
# at the borders; without antialias, the float kernels' taps (index and lambda) with the weights
# of out-of-range taps added to the border tap (bicubic's a = -0.75 there, -0.5 antialiased).


def _cubic_filter(a: float) -> Any:
    def f(x: float) -> float:
        x = abs(x)
        if x < 1.0:
            return ((a + 2) * x - (a + 3)) * x * x + 1
        if x < 2.0:
            return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        return 0.0

    return f


def _linear_filter(x: float) -> float:
    x = abs(x)
    return 1.0 - x if x < 1.0 else 0.0


def _taps_aa(
    i: int, n_in: int, sc: float, support: float, width: int, filt: Any, w: Any
) -> tuple[int, int, float]:
    """torch's _compute_indices_min_size_weights_aa: first tap, tap count, largest weight."""
    center = sc * (i + 0.5)
    invscale = 1.0 / sc if sc >= 1.0 else 1.0
    lo = max(int(center - support + 0.5), 0)
    size = min(max(min(int(center + support + 0.5), n_in) - lo, 0), width)
    total = 0.0
    for j in range(size):
        w[j] = filt((j + lo - center + 0.5) * invscale)
        total += w[j]
    top = 0.0
    if total != 0.0:
        for j in range(size):
            w[j] /= total
            top = max(top, w[j])
    return lo, size, top


def _taps(
    i: int, n_in: int, sc: float, width: int, filt: Any, align: bool, w: Any
) -> tuple[int, int, float]:
    """torch's _compute_indices_min_size_weights (antialias=False): out-of-range taps' weights
    added to the border tap; the largest running weight."""
    cubic = width > 2
    if align:
        real = sc * i
    else:
        real = sc * (i + 0.5) - 0.5
        if not cubic and real < 0:
            real = 0.0
    index = min(math.floor(np.float32(real)), n_in - 1)
    lam = min(max(real - index, 0.0), 1.0)
    support = int(width * 0.5)
    ulo, uhi = index - support + 1, index + support + 1
    lo = max(ulo, 0)
    size = min(max(min(uhi, n_in) - lo, 0), width)
    k, top = 0, 0.0
    for j in range(width):
        v = filt(float(j + 1 - support) - lam)
        if ulo + j <= 0:
            k = 0
        elif ulo + j >= n_in - 1:
            k = size - 1
        w[k] += v
        top = max(top, w[k])
        k += 1
    return lo, size, top


def _uint8_pass(
    y: np.ndarray, axis: int, n_out: int, scale: Any, align: bool, cubic: bool, aa: bool
) -> np.ndarray:
    """One separable pass of torch's uint8 kernel along `axis` (int64 values in, out)."""
    n_in = y.shape[axis]
    if align:
        sc = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
    else:
        sc = 1.0 / scale if scale is not None and scale > 0 else n_in / n_out
    interp = 4 if cubic else 2
    filt = _cubic_filter(-0.5 if aa else -0.75) if cubic else _linear_filter
    if aa:
        support = interp * 0.5 * sc if sc >= 1.0 else interp * 0.5
        width = math.ceil(support) * 2 + 1
    else:
        width = interp
    weights = np.zeros((n_out, width))
    m = np.zeros((n_in, n_out), np.int64)
    spans, w_max = [], 0.0
    for i in range(n_out):
        if aa:
            lo, size, top = _taps_aa(i, n_in, sc, support, width, filt, weights[i])
        else:
            lo, size, top = _taps(i, n_in, sc, width, filt, align, weights[i])
        spans.append((lo, size))
        w_max = max(w_max, top)
    prec = 0
    while prec < 22 and int(0.5 + w_max * (1 << (prec + 1))) < (1 << 15):
        prec += 1
    v = weights * (1 << prec)
    iw = np.where(v < 0, np.trunc(v - 0.5), np.trunc(v + 0.5)).astype(np.int64)
    for i, (lo, size) in enumerate(spans):
        m[lo : lo + size, i] = iw[i, :size]
    acc = np.moveaxis(np.moveaxis(y, axis, -1) @ m, -1, axis)
    return np.clip((acc + (1 << (prec - 1))) >> prec, 0, 255)


def _uint8_resample2d(
    x: np.ndarray, out: tuple[int, ...], scales: Any, align: bool, kind: str
) -> np.ndarray:
    """torch's uint8 bilinear/bicubic resize (antialiased or not) of (..., H, W) to `out`."""
    if tuple(x.shape[-2:]) == tuple(out):
        return x.copy()
    cubic, aa = kind.endswith("cubic"), kind.startswith("aa-")
    y = x.astype(np.int64)
    if out[1] != x.shape[-1]:
        y = _uint8_pass(y, y.ndim - 1, out[1], scales[1], align, cubic, aa)
    if out[0] != x.shape[-2]:
        y = _uint8_pass(y, y.ndim - 2, out[0], scales[0], align, cubic, aa)
        if out[1] == 1 and x.shape[-3] > 4:
            # torch's generic kernel (more than 4 channels) with an output width of 1 writes its
            # first row's values into every row
            y = np.broadcast_to(y[..., :1, :], y.shape)
    return y.astype(np.uint8)


def upsample(
    input: Tensor, kind: str, out: tuple[int, ...], scales: Any, align: bool = False
) -> Tensor:
    """Run torch's upsampling kernel `kind` ("nearest", "nearest-exact", "linear", "cubic",
    "aa-linear", "aa-cubic")
    to spatial size `out`; `scales` are the user's scale factors per dim (None where unset)."""
    x = input._data
    n_sp = len(out)
    key = (kind, n_sp)
    ins = tuple(x.shape[2:])
    if any(v <= 0 for v in ins) or any(v <= 0 for v in out):
        raise _size_error(ins, out)
    if x.size == 0 and math.prod(x.shape[1:]) == 0:
        raise RuntimeError(
            f"Non-empty {x.ndim}D data tensor expected but got a tensor with sizes "
            f"{shape_str(x.shape)}"
        )
    if kind.startswith("aa-") and x.dtype == np.float16:
        raise NotImplementedError("\"compute_index_ranges_weights\" not implemented for 'Half'")
    if x.dtype == np.uint8 and n_sp == 2 and not kind.startswith("nearest"):
        return _make(_uint8_resample2d(x, out, scales, align, kind))
    if x.dtype.kind != "f" and not (x.dtype == np.uint8 and kind.startswith("nearest")):
        what = _DISPATCH.get(key, f"compute_indices_weights_{kind.split('-')[0]}")
        raise NotImplementedError(f"\"{what}\" not implemented for '{D._FROM_NP[x.dtype]._short}'")
    fwd, bwd = _plans(kind, x, out, scales, align)
    r = _KERNELS[key](input, fwd, bwd)
    if r._grad_fn is not None:  # what torch's node saves (its `_saved_` names)
        names = ("scales",) if n_sp == 1 else ("scales_d", "scales_h", "scales_w")[-n_sp:]
        named = dict(zip(names, scales or (None,) * n_sp, strict=True))
        if not kind.startswith("nearest"):
            named["align_corners"] = align
        show_saved(r, output_size=tuple(out), self_sym_sizes=tuple(x.shape), **named)
    return r


# --- pixel and channel shuffles -----------------------------------------------------------


def _shuffle_fwd(x: np.ndarray, r: int) -> np.ndarray:
    *b, c, h, w = x.shape
    oc = c // (r * r)
    y = x.reshape(*b, oc, r, r, h, w)
    nb = len(b)
    perm = (*range(nb), nb, nb + 3, nb + 1, nb + 4, nb + 2)
    return np.ascontiguousarray(y.transpose(perm)).reshape(*b, oc, h * r, w * r)


def _unshuffle_fwd(x: np.ndarray, r: int) -> np.ndarray:
    if x.size == 0:  # torch returns an empty input's copy, in its own shape
        return x.copy()
    *b, c, h, w = x.shape
    y = x.reshape(*b, c, h // r, r, w // r, r)
    nb = len(b)
    perm = (*range(nb), nb, nb + 2, nb + 4, nb + 1, nb + 3)
    return np.ascontiguousarray(y.transpose(perm)).reshape(*b, c * r * r, h // r, w // r)


_pixel_shuffle = defop(
    "pixel_shuffle",
    "PixelShuffleBackward0",
    lambda self, upscale_factor: _shuffle_fwd(self, upscale_factor),
    dtype="keep",
    self=lambda grad, upscale_factor: _pixel_unshuffle(grad, upscale_factor),
    jvp=LINEAR,
)
_pixel_unshuffle = defop(
    "pixel_unshuffle",
    "PixelUnshuffleBackward0",
    lambda self, downscale_factor: _unshuffle_fwd(self, downscale_factor),
    dtype="keep",
    self=lambda grad, downscale_factor: (
        grad.clone() if grad.numel() == 0 else _pixel_shuffle(grad, downscale_factor)
    ),
    jvp=LINEAR,
)


def _suggested_layout(out: Tensor, input: Tensor) -> Tensor:
    """The shuffles' fresh result in input.suggest_memory_format(), as torch's CPU kernels give
    it (channels-last for a channels-last 4-d input)."""
    from .. import _formats

    a = input._data
    if a.ndim == 4 and out._data.ndim == 4 and not a.flags.c_contiguous:
        fmt = _formats.suggested(a)
        if fmt is _formats.channels_last:
            _formats.formatted(out, fmt)
    return out


def _check_shuffle(name: str, input: Tensor, factor: int, what: str) -> None:
    if not isinstance(factor, (int, np.integer)):  # torch's argument parser
        raise TypeError(
            f"{name}(): argument '{what}' (position 2) must be int, not {type(factor).__name__}"
        )
    if input.ndim < 3:
        raise RuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input with "
            f"{input.ndim} dimension(s)"
        )
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """Mirrors `torch.pixel_shuffle` (a new contiguous tensor, PixelShuffleBackward0)."""
    _check_shuffle("pixel_shuffle", input, upscale_factor, "upscale_factor")
    c = input.shape[-3]
    if c % (upscale_factor * upscale_factor):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={c} is not divisible by "
            f"{upscale_factor * upscale_factor}"
        )
    return _suggested_layout(_pixel_shuffle(input, upscale_factor), input)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """Mirrors `torch.pixel_unshuffle` (a new contiguous tensor, PixelUnshuffleBackward0)."""
    _check_shuffle("pixel_unshuffle", input, downscale_factor, "downscale_factor")
    for dim, what in ((-2, "height"), (-1, "width")):
        if input.shape[dim] % downscale_factor:
            raise RuntimeError(
                f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                f"input.size({dim})={input.shape[dim]} is not divisible by {downscale_factor}"
            )
    return _suggested_layout(_pixel_unshuffle(input, downscale_factor), input)


def _channel_shuffle_fwd(x: np.ndarray, groups: int) -> np.ndarray:
    n, c = x.shape[:2]
    y = x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(y).reshape(x.shape)


_channel_shuffle = defop(
    "channel_shuffle",
    "ChannelShuffleBackward0",
    lambda self, groups: _channel_shuffle_fwd(self, groups),
    dtype="keep",
    self=lambda grad, groups: _channel_shuffle(grad, grad.shape[1] // groups),
    jvp=LINEAR,
)


def _check_channel_shuffle(input: Tensor, groups: int) -> None:
    if not isinstance(groups, (int, np.integer)):  # torch's argument parser
        raise TypeError(
            f"channel_shuffle(): argument 'groups' (position 2) must be int, not "
            f"{type(groups).__name__}"
        )
    if input.ndim <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes "
            f"{shape_str(tuple(input.shape))}"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Mirrors `torch.channel_shuffle` (a new contiguous tensor, ChannelShuffleBackward0)."""
    _check_channel_shuffle(input, groups)
    return _suggested_layout(_channel_shuffle(input, groups), input)


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Mirrors `torch.native_channel_shuffle`: no derivative (backward through it raises)."""
    _check_channel_shuffle(input, groups)
    out = _make(_channel_shuffle_fwd(input._data, groups))
    return P.no_derivative(out, (input,), "native_channel_shuffle")


# --- rms_norm -----------------------------------------------------------------------------


def rms_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    """Mirrors `torch.rms_norm`, composed as torch's CPU kernel composes it: the input in its
    compute type, times rsqrt(mean(x**2) + eps), times the weight, back in the input's dtype."""
    if not isinstance(normalized_shape, (tuple, list)) and not hasattr(normalized_shape, "__len__"):
        raise TypeError(
            "rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
            f"{type(normalized_shape).__name__}"
        )
    ns = tuple(int(v) for v in normalized_shape)
    shape = tuple(input.shape)
    if not ns:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    if weight is not None and tuple(weight.shape) != ns:
        raise RuntimeError(
            f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{shape_str(tuple(weight.shape))} and normalized_shape = {shape_str(ns)}"
        )
    if len(ns) > len(shape) or shape[len(shape) - len(ns) :] != ns:
        raise RuntimeError(
            f"Given normalized_shape={shape_str(ns)}, expected input with shape "
            f"[*{', '.join(map(str, ns))}], but got input of size{shape_str(shape)}"
        )
    dt = input.dtype
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"\"rms_norm\" not implemented for '{dt._short}'")
    if weight is not None and weight.dtype != dt:
        warn_once(  # torch warns once per process
            "rms_norm dtype mismatch",
            f"Mismatch dtype between input and weight: input dtype = {D.CPP_NAMES[dt]}, weight "
            f"dtype = {D.CPP_NAMES[weight.dtype]}, Cannot dispatch to fused implementation.",
        )
    x = input.to(D.float32) if dt is D.float16 or dt is D.bfloat16 else input  # (opmath)
    if eps is None:
        eps = float(D.np_finfo(x._data.dtype).eps)
    dims = tuple(range(-len(ns), 0))
    r = P.rsqrt(P.add_scalar(R.mean(x.pow(2), dims, keepdim=True), eps))
    out = x * r
    if weight is not None:
        out = out * weight
    out = out.to(dt)
    if out._data.flags.c_contiguous and input._data.ndim not in (4, 5):
        return out
    # torch's composite ends with .contiguous(input.suggest_memory_format()) (CloneBackward0
    # where the result is not yet laid out so)
    from .. import _formats

    fmt = _formats.suggested(input._data)
    if fmt is not _formats.contiguous_format and not _formats.has_format(out._data, fmt):
        # torch's x * rsqrt(...) is laid out like the channels-last x already (numpy lays a
        # product with the contiguous mean out in C order): no clone there
        return _formats.formatted(out, fmt)
    return out.contiguous(memory_format=fmt)


# --- grid sampling ------------------------------------------------------------------------
# torch's grid_sampler kernels, on any number of spatial dims: each output point reads the
# input at the coordinates its grid entry gives (x first: the last spatial dim), through the
# padding mode. A kernel's "taps" are (flat input index, in-bounds mask, weight, weight's
# derivative per coordinate) over the output points, so the forward is a weighted gather and
# the backward its transpose plus the chain rule through the coordinates.

_GRID_MODES = ("bilinear", "nearest", "bicubic")
_GRID_PADS = ("zeros", "border", "reflection")


def _reflect(x: np.ndarray, twice_low: int, twice_high: int) -> tuple[np.ndarray, np.ndarray]:
    """torch's reflect_coordinates_set_grad: the reflected coordinate and its derivative."""
    t = x.dtype.type
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    lo = t(twice_low / 2)
    span = t((twice_high - twice_low) / 2)
    d = x - lo
    sign = np.where(d < 0, t(-1), t(1))
    d = np.abs(d)
    extra = np.fmod(d, span)
    even = np.floor(d / span) % 2 == 0
    return np.where(even, extra + lo, span - extra + lo), np.where(even, sign, -sign)


def _clip(x: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """torch's clip_coordinates_set_grad: clamped to [0, size - 1], derivative 0 at and past
    the bounds."""
    t = x.dtype.type
    inside = (x > 0) & (x < size - 1)
    return np.clip(x, t(0), t(size - 1)), inside.astype(x.dtype)


def _pad_coord(x: np.ndarray, size: int, pad: int, align: bool) -> tuple[np.ndarray, Any]:
    """torch's compute_coordinates_set_grad after unnormalizing: (coordinate, derivative)."""
    if pad == 0:
        return x, 1
    g: Any = 1
    if pad == 2:
        x, g = _reflect(x, 0, 2 * (size - 1)) if align else _reflect(x, -1, 2 * size - 1)
    x, gc = _clip(x, size)
    return x, g * gc


def _unnormalize(g: np.ndarray, size: int, align: bool, fused: bool) -> tuple[np.ndarray, Any]:
    """Grid value in [-1, 1] to pixel coordinate, and its derivative. `fused` is the 2-d CPU
    kernel's form (one multiply-add), which rounds differently from the generic one."""
    t = g.dtype.type
    if fused:
        mult = t((size - 1) / 2) if align else t(size / 2)
        return g * mult + t((size - 1) / 2), mult
    if align:
        return (g + t(1)) / t(2) * t(size - 1), t((size - 1) / 2)
    return ((g + t(1)) * t(size) - t(1)) / t(2), t(size / 2)


def _cubic_w(x: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """torch's cubic convolution weights (A = -0.75) of the 4 taps at fraction x, and their
    derivatives in x."""
    t = x.dtype.type
    a = t(-0.75)

    def near(v: Any) -> Any:
        return ((a + t(2)) * v - (a + t(3))) * v * v + t(1)

    def far(v: Any) -> Any:
        return ((a * v - t(5) * a) * v + t(8) * a) * v - t(4) * a

    def dnear(v: Any) -> Any:
        return (t(3) * (a + t(2)) * v - t(2) * (a + t(3))) * v

    def dfar(v: Any) -> Any:
        return (t(3) * a * v - t(10) * a) * v + t(8) * a

    w = [far(x + t(1)), near(x), near(t(1) - x), far(t(2) - x)]
    dw = [dfar(x + t(1)), dnear(x), -dnear(t(1) - x), -dfar(t(2) - x)]
    return w, dw


def _grid_axes(grid: np.ndarray, sizes: tuple[int, ...], mode: int, pad: int, align: bool):
    """Per spatial dim: a list of (coordinate, weight, d weight / d grid value) taps."""
    d = len(sizes)
    out = []
    for k, size in enumerate(sizes):
        x, mult = _unnormalize(grid[..., d - 1 - k], size, align, d == 2)
        t = x.dtype.type
        if mode == 2:  # bicubic: padding applies to each tap, not to the coordinate
            lo = np.floor(x)
            w, dw = _cubic_w(x - lo)
            taps = []
            for j in range(4):
                c, _ = _pad_coord(lo + t(j - 1), size, pad, align)
                taps.append((c, w[j], dw[j] * mult))
            out.append(taps)
            continue
        x, gx = _pad_coord(x, size, pad, align)
        if mode == 1:
            out.append([(np.rint(x), np.ones_like(x), np.zeros_like(x))])
            continue
        lo = np.floor(x)
        f = x - lo
        dm = gx * mult
        out.append([(lo, t(1) - f, -dm * np.ones_like(x)), (lo + t(1), f, dm * np.ones_like(x))])
    return out


def _grid_taps(grid: np.ndarray, sizes: tuple[int, ...], mode: int, pad: int, align: bool):
    """(flat index, mask, weight, [d weight / d grid value per spatial dim]) for every
    combination of per-dim taps."""
    axes = _grid_axes(grid, sizes, mode, pad, align)
    strides = [math.prod(sizes[k + 1 :]) for k in range(len(sizes))]
    combos: list[list[Any]] = [[]]
    for taps in axes:
        combos = [[*c, tap] for c in combos for tap in taps]
    out = []
    for combo in combos:
        flat = 0
        mask = True
        for (c, _, _), size, st in zip(combo, sizes, strides, strict=True):
            ci = np.where(np.isfinite(c), c, -1).astype(np.int64)
            inb = (ci >= 0) & (ci < size)
            mask = mask & inb
            flat = flat + np.where(inb, ci, 0) * st
        w = math.prod(w for _, w, _ in combo)
        dws = [
            math.prod(dw if j == k else w2 for j, (_, w2, dw) in enumerate(combo))
            for k in range(len(combo))
        ]
        out.append((np.where(mask, flat, 0), mask, w, dws))
    return out


def _flat_in(x: np.ndarray) -> np.ndarray:
    return x.reshape(x.shape[0], x.shape[1], math.prod(x.shape[2:]))


def _gather(xf: np.ndarray, flat: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The input values at `flat` per batch, (N, C, points); 0 where out of bounds."""
    n = flat.shape[0]
    q = math.prod(flat.shape[1:])
    v = np.take_along_axis(xf, flat.reshape(n, 1, q), axis=2)
    return np.where(mask.reshape(n, 1, q), v, 0)


def _grid_sampler_fwd(input, grid, mode, pad, align):
    x = input
    sizes = x.shape[2:]
    out_sp = grid.shape[1:-1]
    xf = _flat_in(x)
    n, c = x.shape[:2]
    acc = np.zeros((n, c, math.prod(out_sp)), x.dtype)
    for flat, mask, w, _ in _grid_taps(grid, sizes, mode, pad, align):
        acc += _gather(xf, flat, mask) * w.reshape(n, 1, acc.shape[2]).astype(x.dtype)
    return acc.reshape(n, c, *out_sp)


def _grid_sampler_bwd(grad_output, input, grid, mode, pad, align):
    x = input
    sizes = x.shape[2:]
    n, c = x.shape[:2]
    d = len(sizes)
    xf = _flat_in(x)
    go = grad_output.reshape(n, c, math.prod(grid.shape[1:-1]))
    gi = np.zeros_like(xf)
    gg = np.zeros(grid.shape, x.dtype)
    rows = np.arange(n)[:, None]
    for flat, mask, w, dws in _grid_taps(grid, sizes, mode, pad, align):
        m = mask.reshape(n, go.shape[2])
        contrib = np.where(m[:, None], go * w.reshape(n, 1, go.shape[2]), 0)
        np.add.at(gi, (rows, slice(None), flat.reshape(n, go.shape[2])), contrib.transpose(0, 2, 1))
        if mode != 1:
            vg = (_gather(xf, flat, mask) * go).sum(1).reshape(grid.shape[:-1])
            for k in range(d):
                gg[..., d - 1 - k] += vg * dws[k]
    return gi.reshape(x.shape), gg


# The backward's own derivative (torch's GridSampler2DBackwardBackward0 differentiates again):
# with the incoming grads ggi (of the input gradient) and ggg (of the grid gradient),
#   grad_output: grid_sampler(ggi, grid) + sum over taps of x_tap * dW/dgrid . ggg
#   input:       the taps' scatter of grad_output * dW/dgrid . ggg
#   grid:        grid_sampler_backward(grad_output, ggi, grid)'s grid gradient, plus the taps'
#                sum over channels of x_tap * grad_output times d2W/dgrid2 . ggg
# where W is a tap's weight, the product of its per-dim weights. The weights are composed
# from Tensor ops of the grid (the fraction f of each coordinate carries the coordinate's
# derivative, the padding's piecewise-linear map folded in), so these formulas differentiate
# again.


# the cubic convolution weights (A = -0.75) as Tensor polynomials, with their first and
# second derivatives
_A = -0.75


def _c_near(v: Any) -> Any:
    return ((v * (_A + 2)) - (_A + 3)) * v * v + 1


def _c_far(v: Any) -> Any:
    return ((v * _A - 5 * _A) * v + 8 * _A) * v - 4 * _A


def _c_dnear(v: Any) -> Any:
    return (v * (3 * (_A + 2)) - 2 * (_A + 3)) * v


def _c_dfar(v: Any) -> Any:
    return (v * (3 * _A) - 10 * _A) * v + 8 * _A


def _c_ddnear(v: Any) -> Any:
    return v * (6 * (_A + 2)) - 2 * (_A + 3)


def _c_ddfar(v: Any) -> Any:
    return v * (6 * _A) - 10 * _A


def _gs_weight_terms(grid: Tensor, sizes: tuple[int, ...], mode: int, pad: int, align: bool):
    """Per spatial dim: a list of (integer coordinate, w, dw/dg, d2w/dg2) taps, the weights
    Tensors of the grid value g of that dim (numpy coordinates)."""
    from .._creation import tensor as _tensor

    d = len(sizes)
    gd = grid._data
    out = []
    for k, size in enumerate(sizes):
        g = gd[..., d - 1 - k]
        x, mult = _unnormalize(g, size, align, d == 2)
        t = x.dtype.type
        gt = grid.select(-1, d - 1 - k)
        if mode == 2:
            lo = np.floor(x)
            m = t(mult)
            f = _tensor(x - lo) + (gt - _tensor(g)) * m  # the value of x - lo, slope mult
            f1, omf, tmf = f + 1, 1 - f, 2 - f
            ws = [_c_far(f1), _c_near(f), _c_near(omf), _c_far(tmf)]
            dws = [_c_dfar(f1), _c_dnear(f), -_c_dnear(omf), -_c_dfar(tmf)]
            ddws = [_c_ddfar(f1), _c_ddnear(f), _c_ddnear(omf), _c_ddfar(tmf)]
            taps = []
            for j in range(4):
                c, _ = _pad_coord(lo + t(j - 1), size, pad, align)
                taps.append((c, ws[j], dws[j] * m, ddws[j] * (m * m)))
            out.append(taps)
            continue
        x, gx = _pad_coord(x, size, pad, align)
        if mode == 1:
            one = _tensor(np.ones_like(x))
            zero = _tensor(np.zeros_like(x))
            out.append([(np.rint(x), one, zero, zero)])
            continue
        lo = np.floor(x)
        m = gx * mult * np.ones_like(x)
        mt = _tensor(m)
        f = _tensor(x - lo) + (gt - _tensor(g)) * mt
        zero = _tensor(np.zeros_like(x))
        out.append([(lo, 1 - f, -mt, zero), (lo + t(1), f, mt, zero)])
    return out


def _gs_double_backward(grads: Any, grad_output: Tensor, input: Tensor, grid: Tensor,
                        mode: int, pad: int, align: bool, which: int) -> Any:  # fmt: skip
    """One of grid_sampler_{2,3}d_backward's three input gradients (see above)."""
    from .. import _creation as C

    ggi, ggg = grads
    sizes = tuple(input.shape[2:])
    d = len(sizes)
    n, c = input.shape[:2]
    q = math.prod(grid.shape[1:-1])
    node = _GRID_SAMPLERS[d]
    if mode == 1:  # nearest: the weights do not move with the grid
        if which == 0:
            return node(ggi, grid, mode, pad, align)
        if which == 1:
            return None
        return _GRID_BACKWARDS[d](grad_output, ggi, grid, mode, pad, align)[1]
    axes = _gs_weight_terms(grid, sizes, mode, pad, align)
    strides = [math.prod(sizes[k + 1 :]) for k in range(d)]
    combos: list[list[Any]] = [[]]
    for taps in axes:
        combos = [[*cb, tap] for cb in combos for tap in taps]
    # ggg per spatial dim k (grid's last axis is x first: dim d - 1 - k)
    gk = [ggg.select(-1, d - 1 - k).reshape(n, q) for k in range(d)]
    xf = input.reshape(n, c, math.prod(sizes))
    gof = grad_output.reshape(n, c, q)
    acc: Any = None
    accs: list[Any] = [None] * d
    for combo in combos:
        flat = 0
        mask = True
        for (cc, _, _, _), size, st in zip(combo, sizes, strides, strict=True):
            ci = np.where(np.isfinite(cc), cc, -1).astype(np.int64)
            inb = (ci >= 0) & (ci < size)
            mask = mask & inb
            flat = flat + np.where(inb, ci, 0) * st
        flat = np.broadcast_to(np.where(mask, flat, 0).reshape(n, 1, q), (n, c, q))
        maskt = C.tensor(np.asarray(mask).reshape(n, 1, q).astype(input._data.dtype))
        idx = C.tensor(np.ascontiguousarray(flat))
        ws = [w.reshape(n, q) for _, w, _, _ in combo]

        def prod_except(skip: tuple[int, ...], ws: list[Any] = ws) -> Any:
            r: Any = None
            for j, w in enumerate(ws):
                if j not in skip:
                    r = w if r is None else r * w
            return r

        # dW/dg . ggg
        dw_dot: Any = None
        for k in range(d):
            rest = prod_except((k,))
            term = combo[k][2].reshape(n, q) * gk[k]
            if rest is not None:
                term = term * rest
            dw_dot = term if dw_dot is None else dw_dot + term
        if which == 0:
            xg = xf.gather(2, idx) * maskt
            t = xg * dw_dot.reshape(n, 1, q)
            acc = t if acc is None else acc + t
        elif which == 1:
            t = C.zeros_like(xf).scatter_add(2, idx, gof * dw_dot.reshape(n, 1, q) * maskt)
            acc = t if acc is None else acc + t
        else:
            xgo = (xf.gather(2, idx) * maskt * gof).sum(1)
            for l_ in range(d):
                h: Any = None
                for k in range(d):
                    if k == l_:
                        sec = combo[k][3].reshape(n, q)
                        rest = prod_except((k,))
                    else:
                        sec = combo[k][2].reshape(n, q) * combo[l_][2].reshape(n, q)
                        rest = prod_except((k, l_))
                    term = sec * gk[k]
                    if rest is not None:
                        term = term * rest
                    h = term if h is None else h + term
                t = xgo * h
                accs[l_] = t if accs[l_] is None else accs[l_] + t
    out_sp = tuple(grid.shape[1:-1])
    if which == 0:
        return node(ggi, grid, mode, pad, align) + acc.reshape(n, c, *out_sp)
    if which == 1:
        return acc.reshape(input.shape)
    from .shape import stack

    extra = stack([accs[d - 1 - j].reshape(n, *out_sp) for j in range(d)], -1)
    return _GRID_BACKWARDS[d](grad_output, ggi, grid, mode, pad, align)[1] + extra


_GRID_BACKWARDS: dict[int, Any] = {}


def _grid_sampler(n_sp: int) -> Any:
    aten = f"grid_sampler_{n_sp}d"
    node = f"GridSampler{n_sp}D"
    rule = _no_derivative(f"{aten}_backward")[1]

    def dd(which: int) -> Any:
        def f(grads: Any, grad_output: Tensor, input: Tensor, grid: Tensor, mode: int,
              pad: int, align: bool) -> Any:  # fmt: skip
            return _gs_double_backward(grads, grad_output, input, grid, mode, pad, align, which)

        return f

    backward = defop(
        f"{aten}_backward",
        f"{node}BackwardBackward0",
        _grid_sampler_bwd,
        dtype="keep",
        n_outputs=2,
        jvp=rule,
        grad_output=dd(0),
        input=dd(1),
        grid=dd(2),
    )
    _GRID_BACKWARDS[n_sp] = backward

    def fwd_formula(which: int) -> Any:
        def f(grad: Tensor, input: Tensor, grid: Tensor, mode: int, pad: int, align: bool):
            from .nn_fused import _key, _shared_by, _versions

            # the input's and grid's gradients are the two outputs of one backward node
            return _shared_by(
                (grad, *_key(grad, input, grid)),
                (mode, pad, align, _versions(grad, input, grid)),
                which,
                lambda: backward(grad, input, grid, mode, pad, align),
            )

        return f

    return defop(
        aten,
        f"{node}Backward0",
        _grid_sampler_fwd,
        dtype="keep",
        jvp=_no_derivative(aten)[1],
        input=fwd_formula(0),
        grid=fwd_formula(1),
    )


_GRID_SAMPLERS = {2: _grid_sampler(2), 3: _grid_sampler(3)}


def grid_sampler(
    input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Tensor:
    """Mirrors `torch.grid_sampler` (modes 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros,
    1 border, 2 reflection). Differences: the double backward's graph (its values are
    torch's) is composed otherwise."""
    xs, gs = shape_str(tuple(input.shape)), shape_str(tuple(grid.shape))
    nd = input.ndim
    if grid.shape[-1] != nd - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {nd - 2} in last dimension, but got "
            f"grid with sizes {gs}"
        )
    if nd not in (4, 5) or grid.ndim != nd:
        what = f"{nd}D" if nd in (4, 5) else "4D or 5D"
        raise RuntimeError(
            f"grid_sampler(): expected {what} input and grid with same number of dimensions, "
            f"but got input with sizes {xs} and grid with sizes {gs}"
        )
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input "
            f"with sizes {xs} and grid with sizes {gs}"
        )
    for i in range(2, nd):
        if input.shape[i] == 0:
            raise RuntimeError(
                "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                f"has sizes {xs} with dimension {i} being empty"
            )
    if interpolation_mode == 2 and nd != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype != grid.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype._short} but found {grid.dtype._short}"
        )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"grid_sampler_{nd - 2}d_cpu_kernel_impl\" not implemented for '{input.dtype._short}'"
        )
    return _GRID_SAMPLERS[nd - 2](
        input, grid, int(interpolation_mode), int(padding_mode), bool(align_corners)
    )


# --- affine_grid --------------------------------------------------------------------------


def _linspace_unit(n: int, align: bool, dt: Any) -> np.ndarray:
    """torch's linspace_from_neg_one: n points over [-1, 1], pulled in by (n - 1) / n
    unless corners align; a single point is 0."""
    if n <= 1:
        return np.zeros(1, dt)
    r = np.linspace(-1, 1, n).astype(dt)
    return r if align else (r * dt((n - 1) / n)).astype(dt)


def _base_grid(size: tuple[int, ...], align: bool, dt: Any) -> np.ndarray:
    """(*spatial, d + 1): the x, y(, z) coordinates of each output point, then 1."""
    sp = size[2:]
    d = len(sp)
    base = np.ones((*sp, d + 1), dt)
    for k in range(d):  # coordinate k varies along spatial dim d - 1 - k
        shape = [1] * d
        shape[d - 1 - k] = sp[d - 1 - k]
        base[..., k] = _linspace_unit(sp[d - 1 - k], align, dt).reshape(shape)
    return base


def _affine_grid_fwd(theta: np.ndarray, size: tuple[int, ...], align: bool) -> np.ndarray:
    base = _base_grid(size, align, theta.dtype.type)
    n = size[0]
    flat = base.reshape(-1, base.shape[-1])
    out = np.matmul(flat[None], theta.transpose(0, 2, 1))
    return np.ascontiguousarray(out.reshape(n, *size[2:], theta.shape[1]).astype(theta.dtype))


def _affine_grid_grad(grad: Tensor, theta: Tensor, size: tuple[int, ...], align: bool):
    # torch's affine_grid_generator_backward: base^T @ grad per batch, as a bmm
    base = _make(_base_grid(size, align, theta._data.dtype.type))
    n, d1 = size[0], len(size) - 1
    b = base.view(1, -1, d1).expand(n, -1, d1)
    return b.transpose(1, 2).bmm(grad.reshape(n, -1, d1 - 1)).transpose(1, 2)


_affine_grid = defop(
    "affine_grid_generator",
    "AffineGridGeneratorBackward0",
    _affine_grid_fwd,
    dtype="keep",
    jvp=LINEAR,
    theta=_affine_grid_grad,
)


def affine_grid_generator(theta: Tensor, size: Any, align_corners: bool) -> Tensor:
    """Mirrors `torch.affine_grid_generator`."""
    return _affine_grid(theta, tuple(int(v) for v in size), bool(align_corners))


# --- embedding_bag ------------------------------------------------------------------------
# torch's _embedding_bag: its outputs are (output, offset2bag, bag_size, max_indices); only
# the first is differentiable, the others are what its backward reads.


def _bags(indices: np.ndarray, offsets: np.ndarray, last: bool, n_idx: int):
    """(number of bags, the bag of each index position)."""
    off = offsets.astype(np.int64)
    n_bags = len(off) - 1 if last else len(off)
    starts = off[:n_bags]
    bag = np.searchsorted(starts, np.arange(n_idx), side="right") - 1
    if last and n_bags >= 0 and len(off):
        bag = np.where(np.arange(n_idx) < off[-1], bag, n_bags - 1)
    return n_bags, np.clip(bag, 0, max(n_bags - 1, 0))


def _embedding_bag_fwd(weight, indices, offsets, sgf, mode, psw, last, padding_idx):
    idx = indices.astype(np.int64)
    n_bags, bag = _bags(idx, offsets, last, len(idx))
    keep = idx != padding_idx
    if not n_bags:  # no bags (offsets empty, or only the last one): every index left out
        keep[:] = False
    d = weight.shape[1]
    rows = weight[idx]
    if psw is not None:
        rows = rows * psw[:, None].astype(weight.dtype)
    size = np.bincount(bag[keep], minlength=n_bags).astype(np.int64)[:n_bags]
    out = np.zeros((n_bags, d), weight.dtype)
    max_idx = np.zeros((n_bags, d) if mode == 2 else (0,), np.int64)
    if mode == 2:
        max_idx[:] = -1
        for i in np.flatnonzero(keep):  # the first of tied maxima wins, as in torch
            b = bag[i]
            better = (max_idx[b] < 0) | (rows[i] > out[b])
            out[b] = np.where(better, rows[i], out[b])
            max_idx[b] = np.where(better, idx[i], max_idx[b])
    else:
        np.add.at(out, bag[keep], rows[keep])
        if mode == 1:
            out = out / np.maximum(size, 1)[:, None].astype(weight.dtype)
    return out.astype(weight.dtype), bag, size, max_idx


def _embedding_bag_bw(
    grad, indices, offset2bag, bag_size, max_indices, num_weights, sgf, mode, psw, padding_idx
):
    idx = indices.astype(np.int64)
    gw = np.zeros((num_weights, grad.shape[1]), grad.dtype)
    if mode == 2:
        cols = np.arange(grad.shape[1])
        hit = max_indices >= 0
        np.add.at(gw, (max_indices[hit], np.broadcast_to(cols, max_indices.shape)[hit]), grad[hit])
        return gw
    keep = idx != padding_idx
    if not grad.shape[0]:  # no bags: nothing flows back
        return gw
    g = grad[offset2bag]
    if mode == 1:
        g = g / np.maximum(bag_size[offset2bag], 1)[:, None].astype(grad.dtype)
    if psw is not None:
        g = g * psw[:, None].astype(grad.dtype)
    if sgf:
        # torch's CPU kernel scales the j-th smallest distinct index by the count of the j-th
        # smallest index position (not its own count): reproduced as it is
        counts = np.bincount(idx, minlength=num_weights)
        rank = np.searchsorted(np.unique(idx), idx)
        g = g / counts[np.sort(idx)[rank]][:, None].astype(grad.dtype)
    np.add.at(gw, idx[keep], g[keep])
    return gw


_bag_bw_rule = _no_derivative("_embedding_bag_backward")[1]


def _bag_bw_formula(grad: Tensor) -> Tensor:
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


_embedding_bag_backward = defop(
    "_embedding_bag_backward",
    "EmbeddingBagBackwardBackward0",
    _embedding_bag_bw,
    nondiff=("indices", "offset2bag", "bag_size", "max_indices"),
    dtype="keep",
    jvp=_bag_bw_rule,
    grad=_bag_bw_formula,
    psw=_bag_bw_formula,
)


def _bag_weight_grad(
    grads, indices, num_weights, sgf, mode, psw, padding_idx, result1, result2, result3
):
    return _embedding_bag_backward(
        grads[0], indices, result1, result2, result3, num_weights, sgf, mode, psw, padding_idx
    )


def _bag_psw_grad(grads, weight, indices, padding_idx, result1):
    """torch's _embedding_bag_per_sample_weights_backward: each index's row dotted with its
    bag's gradient; recorded without a derivative."""
    g, w = grads[0]._data, weight._data
    idx = indices._data.astype(np.int64)
    out = np.where(idx != padding_idx, (g[result1._data] * w[idx]).sum(1), 0).astype(g.dtype)
    return P.no_derivative(
        _make(out), (grads[0], weight), "_embedding_bag_per_sample_weights_backward"
    )


_embedding_bag = defop(
    "_embedding_bag",
    "EmbeddingBagBackward0",
    lambda weight, indices, offsets, sgf, mode, psw, last, padding_idx, num_weights: (
        _embedding_bag_fwd(weight, indices, offsets, sgf, mode, psw, last, padding_idx)
    ),
    nondiff=("indices", "offsets"),
    dtype="keep",
    n_outputs=4,
    diff_outputs=(0,),
    jvp=_no_derivative("_embedding_bag")[1],
    weight=_bag_weight_grad,
    psw=_bag_psw_grad,
)


def embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Mirrors `torch.embedding_bag` (EmbeddingBagBackward0; dense gradients only)."""
    n = weight.shape[0]
    idx = indices._data
    bad = np.flatnonzero((idx < 0) | (idx >= n))
    if bad.size:
        i = int(bad[0])
        raise RuntimeError(
            f"Index {i} of input takes value {int(idx[i])} which is not in the valid range [0, {n})"
        )
    pad = -1 if padding_idx is None else int(padding_idx)
    return _embedding_bag(
        weight,
        indices,
        offsets,
        bool(scale_grad_by_freq),
        int(mode),
        per_sample_weights,
        bool(include_last_offset),
        pad,
        n,
    )


# --- fractional max pooling ---------------------------------------------------------------
# torch's fractional max pooling: per plane, a random sample u in [0, 1) per spatial dim
# places the output windows at int((i + u) * alpha) - int(u * alpha), alpha = (n_in - pool) /
# (n_out - 1), in the input's dtype, the last window ending at the input's end. The op then
# gathers at the window maxima, as max pooling's does (FractionalMaxPool<N>DBackward0).

fractional_max_pool2d_op = _gather_pair("fractional_max_pool2d", "FractionalMaxPool2DBackward0")
fractional_max_pool3d_op = _gather_pair("fractional_max_pool3d", "FractionalMaxPool3DBackward0", 3)


def _window_starts(u: np.ndarray, n_in: int, n_out: int, pool: int) -> np.ndarray:
    """torch's generate_intervals for every plane: u (planes,) samples -> (planes, n_out)."""
    t = u.dtype.type
    starts = np.full((u.shape[0], n_out), n_in - pool, np.int64)
    if n_out > 1:
        alpha = t(n_in - pool) / t(n_out - 1)
        i = np.arange(n_out - 1).astype(u.dtype)
        pos = ((i[None, :] + u[:, None]) * alpha).astype(np.int64)
        starts[:, :-1] = pos - (u * alpha).astype(np.int64)[:, None]
    return starts


def fractional_max_indices(
    x: np.ndarray, pool: tuple[int, ...], out: tuple[int, ...], samples: np.ndarray
) -> np.ndarray:
    """Each window's maximum as a flat index into its plane: the first largest, or the last
    NaN (torch's `val > maxVal || isnan(val)`). x is (..., C, *spatial); samples (B, C, nd),
    whose columns are (W, H) in 2-d and (T, H, W) in 3-d, as torch reads them."""
    nd = len(pool)
    ins = x.shape[-nd:]
    lead = x.shape[:-nd]
    planes = x.reshape(-1, *ins)
    u = samples[: math.prod(lead[:-1])].reshape(-1, nd) if lead else samples.reshape(-1, nd)
    cols = (1, 0) if nd == 2 else (0, 1, 2)
    starts = [_window_starts(u[:, c], ins[d], out[d], pool[d]) for d, c in enumerate(cols)]
    strides = [math.prod(ins[d + 1 :]) for d in range(nd)]
    # base[p, o_0, ..., o_{nd-1}]: flat index of each window's first element
    base = np.zeros((planes.shape[0], *out), np.int64)
    for d in range(nd):
        shape = [planes.shape[0]] + [1] * nd
        shape[d + 1] = out[d]
        base = base + starts[d].reshape(shape) * strides[d]
    flat = planes.reshape(planes.shape[0], math.prod(ins))  # (an empty batch: no planes)
    rows = np.arange(planes.shape[0]).reshape(-1, *([1] * nd))
    best_i = base.copy()
    best_v = np.full(base.shape, -np.inf, x.dtype)
    for offs in np.ndindex(*pool):
        idx = base + sum(o * s for o, s in zip(offs, strides, strict=True))
        v = flat[rows, idx]
        take = (v > best_v) | np.isnan(v)
        best_v = np.where(take, v, best_v)
        best_i = np.where(take, idx, best_i)
    return best_i.reshape(*lead, *out)


# --- conv_tbc -----------------------------------------------------------------------------
# A 1-d convolution over (time, batch, channel) input with a (kernel, in, out) weight: output
# time t reads input times t - pad .. t - pad + kernel - 1 (zeros outside; a negative pad
# crops). Both of its gradients are conv_tbc's again (the weight's with time and batch
# swapped), so every order of derivative stays a ConvTbcBackward0.


def _conv_tbc_fwd(self: np.ndarray, weight: np.ndarray, bias: np.ndarray, pad: int):
    k = weight.shape[0]
    t_out = self.shape[0] + 2 * pad - k + 1
    if t_out < 0:
        raise RuntimeError(
            "Trying to create tensor with negative dimension "
            f"{t_out}: [{t_out}, {self.shape[1]}, {weight.shape[2]}]"
        )
    x = self[max(-pad, 0) : self.shape[0] - max(-pad, 0)]
    p = max(pad, 0)
    x = np.pad(x, ((p, p), (0, 0), (0, 0)))
    out = np.broadcast_to(bias.astype(self.dtype), (t_out, self.shape[1], weight.shape[2]))
    out = out.copy()
    for j in range(k):
        out += x[j : j + t_out] @ weight[j]
    return out


def _conv_tbc_input_grad(grad: Tensor, weight: Tensor, pad: int) -> Tensor:
    k = weight.shape[0]
    w = weight.flip(0).transpose(1, 2)
    return conv_tbc_op(grad, w, grad.new_zeros(weight.shape[1]), k - 1 - pad)


def _conv_tbc_weight_grad(grad: Tensor, self: Tensor, pad: int) -> Tensor:
    return conv_tbc_op(self.permute(0, 2, 1), grad, grad.new_zeros(grad.shape[2]), pad)


# torch has no forward-mode rule for conv_tbc: it raises
_, _conv_tbc_no_jvp = _no_derivative("conv_tbc")


conv_tbc_op = defop(
    "conv_tbc",
    "ConvTbcBackward0",
    _conv_tbc_fwd,
    dtype="keep",
    self=_conv_tbc_input_grad,
    weight=_conv_tbc_weight_grad,
    bias=lambda grad: grad.sum((0, 1)),
    jvp=_conv_tbc_no_jvp,
)


def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """Mirrors `torch.conv_tbc` (ConvTbcBackward0)."""
    if isinstance(pad, bool) or not isinstance(pad, int):
        raise TypeError(
            f"conv_tbc(): argument 'pad' (position 4) must be int, not {type(pad).__name__}"
        )
    if input.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError(
            "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels."
        )
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if bias.shape[0] != weight.shape[2]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    if input.dtype != weight.dtype:
        raise RuntimeError(
            "self and mat2 must have the same dtype, but got "
            f"{input.dtype._short} and {weight.dtype._short}"
        )
    if weight.shape[0] > 0:  # torch views each time window as (time * batch, channels)
        input.view(input.shape[0] * input.shape[1], input.shape[2])
    if input.dtype is D.bool_:
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    return conv_tbc_op(input, weight, bias, pad)


METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {
    "pixel_shuffle": pixel_shuffle,
    "pixel_unshuffle": pixel_unshuffle,
    "channel_shuffle": channel_shuffle,
    "native_channel_shuffle": native_channel_shuffle,
    "rms_norm": rms_norm,
    "grid_sampler": grid_sampler,
    "affine_grid_generator": affine_grid_generator,
    "embedding_bag": embedding_bag,
    "conv_tbc": conv_tbc,
}
