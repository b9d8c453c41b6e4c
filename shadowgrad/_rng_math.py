"""Floating-point arithmetic of torch's CPU random kernels, reproduced bit for bit in numpy.

torch's kernels are compiled C++: its double math comes from the C library (glibc's `log`,
`log1p`, `exp`, `tan`, ...), its fused multiply-adds are single roundings, and its float32
normal sampler is a vectorized cephes log/sincos (ATen's avx_mathfun.h) whose multiply-adds the
compiler fuses. numpy differs on all three (its own SIMD log/exp, no fma), so each is rebuilt
here. See Note [Matching torch's rounding].
"""

# Note [Matching torch's rounding]
# A random kernel's output is a function of the raw mt19937 words, so equal words give equal
# values only if every rounding step is torch's:
# * fma: torch's CPU kernels are built with -mfma and contraction on, so `x * (to - from) + from`
#   (uniform_), `val * std + mean` (normal_) and `median + sigma * tan(..)` (cauchy_) round once.
#   numpy has no fma: fma64 is Boldo and Melquiond's emulation (an exact product and sum, the
#   low part rounded to odd), fma32 rounds the exact double sum to odd before narrowing.
# * libm: math.log & co. are the C library's functions, the ones torch calls; numpy's ufuncs
#   agree only on some machines (numpy ships SIMD versions), so each is probed once and replaced
#   by a loop over math's function where it disagrees.
# * float32 Box-Muller: log256_ps and sincos256_ps with every multiply-add that GCC contracts
#   (a product with one use, feeding an add) fused; checked against torch on 1.6e7 values.

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

F32 = np.float32
F64 = np.float64
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for a double


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _round_to_odd(s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """s (= RN(x)) moved to the neighbour of x whose last bit is odd, where s is inexact."""
    fix = (err != 0) & ((s.view(np.int64) & 1) == 0)
    if fix.any():
        s = s.copy()
        s[fix] = np.nextafter(s[fix], np.where(err[fix] > 0, np.inf, -np.inf))
    return s


def fma64(a: np.ndarray, b: float | np.ndarray, c: float | np.ndarray) -> np.ndarray:
    """The correctly rounded a * b + c of float64 arrays (C's fma)."""
    a = np.asarray(a, F64)
    b = np.broadcast_to(np.asarray(b, F64), a.shape)
    c = np.broadcast_to(np.asarray(c, F64), a.shape)
    naive = a * b + c
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    t = _SPLIT * b
    bh = t - (t - b)
    al, bl = a - ah, b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    th, tl = _two_sum(c, p)
    low, err = _two_sum(tl, e)
    r = th + _round_to_odd(low, err)
    # the emulation needs moderate operands: huge ones (the splitter overflows) and results
    # near the ends of the range are rounded exactly, one by one; an exact zero keeps the
    # naive sign of zero, and non-finite operands give the naive (IEEE) result
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        big = 2.0**995
        moderate = (np.abs(a) < big) & (np.abs(b) < big) & (np.abs(c) < big) & (np.abs(p) < big)
        tiny = np.abs(r) < 2.0**-960
    out = np.where(moderate & (r != 0) & ~tiny, r, naive)
    slow = finite & ~(moderate & ~tiny) & (naive != 0)
    if slow.any():
        out = out.copy()
        out[slow] = [_exact_fma(*v) for v in zip(a[slow], b[slow], c[slow], strict=True)]
    return out


def _exact_fma(a: float, b: float, c: float) -> float:
    """fma by exact rational arithmetic (Fraction's float() rounds to nearest even)."""
    try:
        return float(Fraction(a) * Fraction(b) + Fraction(c))
    except OverflowError:
        return math.copysign(math.inf, float(a) * float(b) + float(c))


def fma32(
    a: np.ndarray,
    b: float | np.ndarray,
    c: float | np.ndarray,
    tiny: bool = True,
    exact: bool = False,
) -> np.ndarray:
    """The correctly rounded a * b + c of float32 operands: the product is exact in double and
    the double sum is rounded to odd where narrowing it could round twice (a float32 midpoint,
    or with `tiny`, below float32's normal range). `exact` says the double sum never rounds."""
    s = np.asarray(a, F32).astype(F64)
    s *= np.asarray(b, F32).astype(F64) if isinstance(b, np.ndarray) else F64(F32(b))
    s += c
    if not exact:
        hard = (s.view(np.int64) & 0x1FFFFFFF) == 0x10000000
        if tiny:
            hard |= np.abs(s) < 2.0**-125
        if hard.any():
            idx = np.flatnonzero(hard)
            ph = _pick(a, idx).astype(F64) * _pick(b, idx)
            sh, err = _two_sum(ph, _pick(c, idx).astype(F64))
            s.ravel()[idx] = _round_to_odd(sh, err)
    return s.astype(F32)


def _pick(v: float | np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Elements idx of a flattened operand (a scalar repeated)."""
    if isinstance(v, np.ndarray) and v.ndim:
        return v.ravel()[idx]
    return np.full(idx.size, v, F32)


# --- the C library's double functions -------------------------------------------------------

# valid inputs for each function, so that math's version (which raises) sees no others
_DOMAIN: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "log": lambda x: (x > 0) & (x < np.inf),
    "log1p": lambda x: (x > -1) & (x < np.inf),
    "exp": lambda x: (x > -740) & (x < 709),
    "tan": np.isfinite,
    "cos": np.isfinite,
    "sin": np.isfinite,
}
_PROBE = 16384  # numpy's SIMD log1p disagrees with glibc's on ~7% of inputs, its log on 0.3%
_PROBES: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "log": lambda r: np.concatenate([1 - r.random(_PROBE), r.random(512) * 1e6]),
    "log1p": lambda r: -r.random(_PROBE),
    "exp": lambda r: r.standard_normal(_PROBE) * 8,
    "tan": lambda r: math.pi * (r.random(_PROBE) - 0.5),
    "cos": lambda r: 2 * math.pi * r.random(_PROBE),
    "sin": lambda r: 2 * math.pi * r.random(_PROBE),
}
_LIBM: dict[str, Callable[[np.ndarray], np.ndarray]] = {}


def libm(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """The C library's `name` over a float64 array: numpy's ufunc where it gives the same bits
    on a probe (checked once per process), else math's function element by element."""
    fn = _LIBM.get(name)
    if fn is None:
        ufunc, scalar, domain = getattr(np, name), getattr(math, name), _DOMAIN[name]
        probe = _PROBES[name](np.random.default_rng(0))
        same = np.array_equal(ufunc(probe), [scalar(v) for v in probe.tolist()])

        def by_element(x: np.ndarray) -> np.ndarray:
            x = np.asarray(x, F64)
            ok = domain(x)
            vals = memoryview(np.where(ok, x, 0.5).ravel())
            out = np.fromiter(map(scalar, vals), F64, x.size).reshape(x.shape)
            if not ok.all():
                with np.errstate(all="ignore"):
                    out = np.where(ok, out, ufunc(x))
            return out

        fn = ufunc if same else by_element
        _LIBM[name] = fn
    return fn


# --- ATen's avx_mathfun.h (cephes logf and sincosf, 8 lanes) ---------------------------------

_LOG_P = (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1,
)  # fmt: skip
_LOG_Q1, _LOG_Q2 = F32(-2.12194440e-4), F32(0.693359375)
_DP = (F32(-0.78515625), F32(-2.4187564849853515625e-4), F32(-3.77489497744594108e-8))
_COS_P = (F32(2.443315711809948e-005), F32(-1.388731625493765e-003), F32(4.166664568298827e-002))
_SIN_P = (F32(-1.9515295891e-4), F32(8.3321608736e-3), F32(-1.6666654611e-1))


def log256(x: np.ndarray) -> np.ndarray:
    """avx_mathfun's log256_ps on float32 inputs in (0, 1] (Box-Muller's radius)."""
    bits = x.view(np.int32)  # no input is denormal here: the original's clamp is a no-op
    e = ((bits >> 23) - 126).astype(F32)  # exponent + 1, as the original's e = e + 1
    m = ((bits & ~0x7F800000) | 0x3F000000).view(F32)  # mantissa in [0.5, 1)
    small = m < F32(0.707106781186547524)
    e -= small
    m = (m - F32(1)) + np.where(small, m, F32(0))
    z = m * m
    y = fma32(m, F32(_LOG_P[0]), F32(_LOG_P[1]), tiny=False)
    for c in _LOG_P[2:]:
        y = fma32(y, m, F32(c), tiny=False)
    y = fma32(y * m, z, e * _LOG_Q1, tiny=False)  # (y * x) * z + e * q1: the first product fused
    y -= z * F32(0.5)
    # e * q2 is exact (a small integer times a 9-bit constant), so its fma is a plain add
    return (m + y) + e * _LOG_Q2


def sincos256(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avx_mathfun's sincos256_ps on float32 inputs in [0, 2 pi)."""
    j = (x * F32(1.27323954473516)).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(F32)
    # y is at most 8: its products with DP1 (8 bits) and DP2 (11 bits) are exact
    x = (x + y * _DP[0]) + y * _DP[1]
    # ... and x + y * DP3 is exact in double (x is below 1, both lowest bits above 2**-49)
    x = fma32(y, _DP[2], x, exact=True)
    z = x * x
    c = fma32(z, _COS_P[0], _COS_P[1], tiny=False)
    c = fma32(c, z, _COS_P[2], tiny=False)
    c = fma32(c * z, z, -(z * F32(0.5)), tiny=False) + F32(1)
    s = fma32(z, _SIN_P[0], _SIN_P[1], tiny=False)
    s = fma32(s, z, _SIN_P[2], tiny=False)
    s = fma32(s * z, x, x, tiny=False)
    # the original's bit masks: the polynomial choice and the two sign flips
    pick = ((j & 2) >> 1) - 1  # all ones where j & 2 == 0: sin from s, cos from c
    sb, cb = s.view(np.int32), c.view(np.int32)
    sin = ((sb & pick) | (cb & ~pick)) ^ ((j & 4) << 29)
    cos = ((cb & pick) | (sb & ~pick)) ^ ((~(j - 2) & 4) << 29)
    return sin.view(F32), cos.view(F32)


def _scale(v: np.ndarray, std: float, mean: float, fma: Callable[..., np.ndarray]) -> np.ndarray:
    """fma(v, std, mean), with the cases that round once anyway done directly (adding the
    mean even when it is zero: fma(-0.0, 1, 0.0) is +0.0)."""
    if std == 1:
        return v + v.dtype.type(mean)
    if mean == 0:
        return v * v.dtype.type(std) + v.dtype.type(mean)
    return fma(v, std, mean)


# rows of 16 per block: numpy's temporaries then stay in cache (twice as fast on 1e6 values)
_BLOCK = 4096


def box_muller16_f32(u: np.ndarray, mean: np.float32, std: np.float32) -> np.ndarray:
    """ATen's NormalFill16<float> (AVX2) on rows of 16 float32 uniforms: lanes j and j + 8 are
    one Box-Muller pair."""
    out = np.empty_like(u)
    for i in range(0, u.shape[0], _BLOCK):
        blk = u[i : i + _BLOCK]
        radius = np.sqrt(F32(-2) * log256(F32(1) - blk[:, :8].ravel()))
        sin, cos = sincos256(F32(2.0 * math.pi) * blk[:, 8:].ravel())
        out[i : i + _BLOCK, :8] = _scale(radius * cos, std, mean, fma32).reshape(-1, 8)
        out[i : i + _BLOCK, 8:] = _scale(radius * sin, std, mean, fma32).reshape(-1, 8)
    return out


def box_muller16_f64(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """ATen's scalar NormalFill16<double> on rows of 16 float64 uniforms."""
    radius = np.sqrt(-2 * libm("log")(1 - u[:, :8]))
    theta = (2.0 * math.pi) * u[:, 8:]
    out = np.empty_like(u)
    out[:, :8] = _scale(radius * libm("cos")(theta), std, mean, fma64)
    out[:, 8:] = _scale(radius * libm("sin")(theta), std, mean, fma64)
    return out
