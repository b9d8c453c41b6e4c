"""torch's CPU random kernels (ATen's DistributionTemplates, DistributionsHelper and
TransformationHelper) over a Generator's mt19937 words, vectorized in numpy.

Each kernel takes the generator and an element count and returns the values in the order torch
writes them: the memory order of the tensor being filled (`place` puts them into a layout).
Their draws and roundings are torch's; see Note [Matching torch's rounding] in _rng_math.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import _dtype as D
from ._rng_math import F32, F64, box_muller16_f32, box_muller16_f64, fma32, fma64, libm

if TYPE_CHECKING:
    from ._random import Generator

_U64 = np.uint64
_MASK24 = _U64((1 << 24) - 1)
_MASK53 = _U64((1 << 53) - 1)
# uniform_int_from_to_distribution: one 32-bit word per value below this range, two above
_WIDE_RANGE = 1 << 28


# --- words and unit uniforms ------------------------------------------------------------------


def words(g: Generator, n: int) -> np.ndarray:
    """n draws of CPUGeneratorImpl::random(): 32-bit words, as uint64."""
    return g._draw(n)


def words64(g: Generator, n: int) -> np.ndarray:
    """n draws of random64(): two words, the first one high."""
    w = g._draw(2 * n)
    return (w[0::2] << _U64(32)) | w[1::2]


def unit_f32(g: Generator, n: int) -> np.ndarray:
    """uniform_real_distribution<float>(0, 1): 24 bits of one word."""
    return (words(g, n) & _MASK24).astype(F32) * F32(2.0**-24)


def unit_f64(g: Generator, n: int) -> np.ndarray:
    """uniform_real_distribution<double>(0, 1): 53 bits of a 64-bit draw."""
    return (words64(g, n) & _MASK53).astype(F64) * 2.0**-53


def cast(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """C++'s static_cast<scalar_t>: c10::Half is built from a float, so a double or an integer
    narrows to float32 first."""
    if dtype == np.float16:
        return x.astype(F32).astype(np.float16)
    if dtype == D.LD:  # bfloat16 (Note [bfloat16 storage]): from a float too
        return D.round_bf16(x)
    if dtype == np.bool_:
        return x != 0
    return x.astype(dtype)


def memory_order(a: np.ndarray) -> list[int]:
    """The axes of `a` from outermost to innermost in memory: TensorIterator's order for a
    tensor written in place."""
    return sorted(range(a.ndim), key=lambda d: -abs(a.strides[d]))


def place(flat: np.ndarray, like: np.ndarray) -> np.ndarray:
    """An array shaped like `like` whose elements, walked in like's memory order, are `flat`."""
    if like.flags.c_contiguous:
        return flat.reshape(like.shape)
    perm = memory_order(like)
    out = np.empty(like.shape, flat.dtype)
    out.transpose(perm)[...] = flat.reshape([like.shape[d] for d in perm])
    return out


def in_order_of(a: np.ndarray, like: np.ndarray) -> np.ndarray:
    """`a` (shaped like `like`) flattened in like's memory order: the inverse of `place`."""
    if like.flags.c_contiguous:
        return a.ravel()
    return a.transpose(memory_order(like)).ravel()


def _real(dtype: np.dtype) -> np.dtype:
    return np.dtype(F32) if dtype == np.complex64 else np.dtype(F64)


# --- uniform_ and normal_ ---------------------------------------------------------------------


def uniform(g: Generator, n: int, dtype: np.dtype, low: float, high: float) -> np.ndarray:
    """uniform_kernel: x * (to - from) + from in the dtype's opmath (fused), a value rounded up
    to `to` replaced by `from`."""
    if dtype.kind == "c":
        return uniform(g, 2 * n, _real(dtype), low, high).view(dtype)
    if dtype == np.float64:
        x = unit_f64(g, n)
        v = x if (low, high) == (0, 1) else fma64(x, high - low, low)
        to_s, from_s = F64(high), F64(low)
    else:  # float32, and float16 through its float opmath
        lo32, hi32 = F32(low), F32(high)
        x = unit_f32(g, n)
        v = cast(x if (low, high) == (0, 1) else fma32(x, hi32 - lo32, lo32), dtype)
        to_s, from_s = cast(np.array(high), dtype), cast(np.array(low), dtype)
    return np.where(v == to_s, from_s, v)


def normal(
    g: Generator, n: int, dtype: np.dtype, mean: float, std: float, contiguous: bool
) -> np.ndarray:
    """normal_kernel: Box-Muller on blocks of 16 (normal_fill) for a contiguous tensor of 16 or
    more elements, else one normal_distribution<double> draw per element (serial_normal)."""
    if dtype.kind == "c":  # view_as_real, each part with half the variance
        return normal(g, 2 * n, _real(dtype), mean, std / math.sqrt(2), contiguous).view(dtype)
    if n < 16 or not contiguous:
        return cast(fma64(serial_normal(g, n), std, mean), dtype)
    tail = n % 16
    full = n - tail
    if dtype == np.float16 or dtype == D.LD:
        # opmath float, generated 16 at a time into a buffer: the tail's uniforms follow the
        # last full block's (float and double draw all n first, then the tail's 16)
        u = unit_f32(g, full + (16 if tail else 0)).reshape(-1, 16)
        rows = box_muller16_f32(u, F32(mean), F32(std))
        out = np.empty(n, F32)
        out[:full] = rows[: full // 16].ravel()
        if tail:
            out[n - 16 :] = rows[-1]
        return cast(out, dtype)
    if dtype == np.float32:
        u = unit_f32(g, n + (16 if tail else 0))
        fill16, m, s = box_muller16_f32, F32(mean), F32(std)
    else:
        u = unit_f64(g, n + (16 if tail else 0))
        fill16, m, s = box_muller16_f64, mean, std
    out = u[:n].copy()
    out[:full] = fill16(u[:full].reshape(-1, 16), m, s).ravel()
    if tail:  # torch recomputes the last 16 values from 16 fresh uniforms
        out[n - 16 :] = fill16(u[n:].reshape(1, 16), m, s).ravel()
    return out


def serial_normal(g: Generator, n: int) -> np.ndarray:
    """n draws of normal_distribution<double>(0, 1): Box-Muller pairs, the second value of a
    pair cached in the generator for the next draw (torch's next_double_normal_sample)."""
    out = np.empty(n, F64)
    start = 0
    if n and g._normal is not None:
        out[0], g._normal, start = g._normal, None, 1
    k = n - start
    if k > 0:
        u = unit_f64(g, 2 * ((k + 1) // 2))
        u1, u2 = u[0::2], u[1::2]
        r = np.sqrt(-2.0 * libm("log1p")(-u2))
        theta = (2.0 * math.pi) * u1
        pairs = np.empty(u.size, F64)
        pairs[0::2] = r * libm("cos")(theta)
        pairs[1::2] = r * libm("sin")(theta)
        out[start:] = pairs[:k]
        if k % 2:
            g._normal = float(pairs[-1])
    return out


# --- integers ---------------------------------------------------------------------------------


def random_from_to(g: Generator, n: int, dtype: np.dtype, low: int, high: int) -> np.ndarray:
    """random_from_to_kernel over [low, high): word % range + low, with a 64-bit draw for wide
    ranges."""
    span = high - low
    w = words64(g, n) if span >= _WIDE_RANGE else words(g, n)
    v = (w % _U64(span) + _U64(low % (1 << 64))).view(np.int64)
    return cast(v, dtype)


def random_full(g: Generator, n: int, dtype: np.dtype) -> np.ndarray:
    """random_full_64_bits_range_kernel: a 64-bit draw as int64 (from=int64 min, to=None)."""
    return cast(words64(g, n).view(np.int64), dtype)


def random_default(g: Generator, n: int, dtype: np.dtype) -> np.ndarray:
    """random_kernel (random_() without bounds): uniform_int_distribution's [0, max] for an
    integer dtype, [0, 2**digits] for a floating one."""
    if dtype == np.bool_:
        return (words(g, n) & _U64(1)) != 0
    if dtype.kind == "f":
        digits = D.np_finfo(dtype).nmant + 1
        mod = (1 << digits) + 1
    else:
        mod = int(np.iinfo(dtype).max) + 1
    wide = dtype in (np.float64, np.int64)
    w = words64(g, n) if wide else words(g, n)
    return cast((w % _U64(mod)).astype(np.int64), dtype)


def float_bounds(dtype: np.dtype, low: int, high: int | None) -> tuple[int, int]:
    """random_from_to_impl's update_from/update_to: bounds moved inward to values that stay
    inside [low, high) once cast to a floating dtype; high=None gives 2**digits + 1."""
    digits = D.np_finfo(dtype).nmant + 1

    def through(v: int) -> int:
        return int(cast(np.array(v, np.int64), dtype).astype(np.int64))

    nxt = through(low + 1)
    if nxt < low:
        low = nxt + (1 << (abs(low + 1).bit_length() - 1 - digits + 1))
    if high is None:
        return low, (1 << digits) + 1
    prev = through(high - 1)
    if prev >= high:
        high = prev - (1 << (abs(high - 1).bit_length() - 1 - digits + 1))
    return low, high


def randperm(g: Generator, n: int) -> np.ndarray:
    """randperm_cpu: for i in 0..n-2 swap positions i and i + random() % (n - i) (Fisher-Yates);
    for huge n (never reached in practice) torch's inside-out shuffle with 64-bit draws."""
    if n >= (1 << 32) // 20:
        z = (words64(g, n) % np.arange(1, n + 1, dtype=_U64)).tolist()
        out = np.empty(n, np.int64)
        for i, j in enumerate(z):
            out[i] = out[j]
            out[j] = i
        return out
    perm = np.arange(n, dtype=np.int64)
    if n > 1:
        span = np.arange(n, 1, -1, dtype=_U64)
        targets = (words(g, n - 1) % span).astype(np.int64) + np.arange(n - 1)
        _swap_in_order(perm, targets)
    return perm


def _swap_in_order(perm: np.ndarray, targets: np.ndarray) -> None:
    """perm[i], perm[targets[i]] = perm[targets[i]], perm[i] for i = 0, 1, ... in turn.

    Two swaps commute unless they touch a common position, so each block of steps applies the
    swaps that touch no position another swap of the block touches at once, and the others one
    by one in their order. Blocks are a 64th of what is left: about one step in 20 clashes."""
    n, a = targets.size, 0
    stamp = np.empty(perm.size, np.int64)
    while a < n:
        b = min(n, a + max(256, (n - a) // 64))
        i = np.arange(a, b)
        j = targets[a:b]
        # step i meets a later step k of the block when j_i == k, or when j_i == j_k
        clash = (j < b) & (j != i)
        clash[j[clash] - a] = True
        stamp[j] = i  # the last step to target a position wins ...
        clash |= stamp[j] != i
        stamp[j[::-1]] = i[::-1]  # ... and then the first
        clash |= stamp[j] != i
        free = ~clash
        fi, fj = i[free], j[free]
        perm[fi], perm[fj] = perm[fj], perm[fi]
        for x, y in zip(i[clash].tolist(), j[clash].tolist(), strict=True):
            perm[x], perm[y] = perm[y], perm[x]
        a = b


# --- per-element distributions (all drawn in double) ------------------------------------------


def bernoulli_scalar(g: Generator, n: int, p: float) -> np.ndarray:
    """bernoulli_(float p): a double uniform below p."""
    return unit_f64(g, n) < p


def bernoulli_tensor(g: Generator, p: np.ndarray) -> np.ndarray:
    """bernoulli_(Tensor p), p flat in the output's order: a double uniform against a float64 p,
    a float one (24 bits) against any other floating p."""
    if p.dtype == np.float64:
        return unit_f64(g, p.size) < p
    return unit_f32(g, p.size) < p.astype(F32)


def exponential(g: Generator, n: int, lambd: float) -> np.ndarray:
    """exponential_distribution<double>: -1 / lambda * log1p(-u)."""
    return (-1.0 / lambd) * libm("log1p")(-unit_f64(g, n))


def geometric(g: Generator, n: int, p: float) -> np.ndarray:
    """geometric_distribution<double>: ceil(log(u) / log1p(-p))."""
    with np.errstate(divide="ignore"):
        return np.ceil(libm("log")(unit_f64(g, n)) / math.log1p(-p))


def cauchy(g: Generator, n: int, median: float, sigma: float) -> np.ndarray:
    """cauchy_distribution<double>: median + sigma * tan(pi * (u - 0.5)), fused."""
    return fma64(np.full(n, sigma), libm("tan")(math.pi * (unit_f64(g, n) - 0.5)), median)


def log_normal(g: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """lognormal_distribution<double>: exp of a serial normal draw."""
    return libm("exp")(fma64(serial_normal(g, n), std, mean))


def rrelu_slopes(g: Generator, n: int, lower: float, upper: float, dtype: np.dtype) -> np.ndarray:
    """rrelu_with_noise's slopes for n non-positive inputs: uniform_real_distribution<double> on
    the bounds in the dtype's opmath (not fused: Activation.cpp is built without fma)."""
    if dtype != np.float64:
        lower, upper = float(F32(lower)), float(F32(upper))
    r = unit_f64(g, n) * (upper - lower) + lower
    return r if dtype == np.float64 else r.astype(F32)


def multinomial_with_replacement(g: Generator, probs: np.ndarray, n_sample: int) -> np.ndarray:
    """multinomial_with_replacement_apply on rows of probabilities: a double uniform per sample,
    searched in the row's cumulative distribution (summed and normalized in the row's dtype;
    float for half)."""
    rows = probs.astype(F32) if probs.dtype == np.float16 else probs
    out = np.empty((rows.shape[0], n_sample), np.int64)
    for i, row in enumerate(rows):
        cum = np.cumsum(row, dtype=row.dtype)
        cum = cum / cum[-1]
        cum[-1] = 1
        out[i] = np.searchsorted(cum, unit_f64(g, n_sample), side="left")
    return out
