"""shadowgrad/ops/_specfun.py: vectorized float64 erf, erfc, erfinv, lgamma, digamma.

References: math.erf / math.erfc (glibc's fdlibm-based erf), torch in float64 (torch.lgamma is
glibc's lgamma; torch.digamma and torch.erfinv are torch's own kernels), mpmath at 100 bits
where installed (the truth). Errors are measured in ulps of the reference (np.spacing).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from shadowgrad.ops import _specfun as S
from shadowgrad.ops.pointwise import _np_erfinv

torch = pytest.importorskip("torch")

N = 100_000
EPS = np.finfo(np.float64).eps
_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _ulps(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    got = np.asarray(got, np.float64)
    ref = np.asarray(ref, np.float64)
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    with np.errstate(all="ignore"):
        d = np.abs(got - ref) / np.spacing(np.abs(ref))
    d[same] = 0.0
    d[np.isnan(d)] = np.inf
    return d


def _same(got: np.ndarray, ref: np.ndarray) -> bool:
    """Equal, nan where nan, and the same sign of zero."""
    got, ref = np.asarray(got, np.float64), np.asarray(ref, np.float64)
    nan = np.isnan(ref)
    return bool(
        np.array_equal(np.isnan(got), nan)
        and np.array_equal(got[~nan], ref[~nan])
        and np.array_equal(np.signbit(got[~nan]), np.signbit(ref[~nan]))
    )


def _torch(fn: str, x: np.ndarray) -> np.ndarray:
    return getattr(torch, fn)(torch.from_numpy(np.ascontiguousarray(x))).numpy()


def _samples(seed: int, lo: float, hi: float, n: int = N) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, n)


def _log_uniform(seed: int, lo_exp: float, hi_exp: float, n: int = N) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mag = 10.0 ** rng.uniform(lo_exp, hi_exp, n)
    return np.where(rng.random(n) < 0.5, -mag, mag)


# --- erf / erfc -----------------------------------------------------------------------------

ERF_RANGES = [
    (-1.0, 1.0),
    (0.8, 1.3),  # the 0.84375 and 1.25 seams
    (1.2, 3.0),  # 1 / 0.35
    (-6.0, 6.0),
    (5.0, 27.5),  # erfc's tail down to the underflow
    (-30.0, 30.0),
]


@pytest.mark.parametrize("lo, hi", ERF_RANGES)
def test_erf_within_1_ulp_of_math_erf(lo, hi):
    x = _samples(1, lo, hi)
    u = _ulps(S.erf(x), _ERF(x).astype(np.float64))
    assert u.max() <= 1.0
    assert (u == 0).mean() > 0.94


@pytest.mark.parametrize("lo, hi", ERF_RANGES)
def test_erfc_close_to_math_erfc(lo, hi):
    # both are fdlibm's algorithm; glibc's erfc is itself up to ~3 ulp off (the exp products),
    # ours up to 2 (test_erf_erfc_vs_mpmath), so they differ by at most 4 and rarely at all
    x = _samples(2, lo, hi)
    u = _ulps(S.erfc(x), _ERFC(x).astype(np.float64))
    assert u.max() <= 4.0
    assert (u == 0).mean() > 0.7


def test_erf_erfc_log_uniform_magnitudes():
    x = _log_uniform(3, -320, 1.5)  # subnormals to 30, both signs
    assert _ulps(S.erf(x), _ERF(x).astype(np.float64)).max() <= 1.0
    assert _ulps(S.erfc(x), _ERFC(x).astype(np.float64)).max() <= 4.0


def test_erf_erfc_special_values():
    exact = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, -1e-300, 5e-324, -5e-324, 1e-310]
    exact += [2.0**-29, -(2.0**-60), 6.0, -6.0, 28.0, -28.0, 1e300, -1e300]
    x = np.array(exact)
    assert _same(S.erf(x), [math.erf(v) for v in exact])
    assert _same(S.erfc(x), [math.erfc(v) for v in exact])
    assert S.erf(-0.0) == 0 and np.signbit(S.erf(-0.0))
    seams = np.array([2.0**-28, 0.25, 0.84375, -0.84375, 1.25, -1.25, 1 / 0.35, -1 / 0.35])
    seams = np.concatenate([seams, np.nextafter(seams, 0), [26.5, 27.0, 27.2, 27.3]])
    assert _ulps(S.erf(seams), _ERF(seams).astype(np.float64)).max() <= 1.0
    assert _ulps(S.erfc(seams), _ERFC(seams).astype(np.float64)).max() <= 4.0
    assert S.erfc(27.0) > 0  # subnormal, not flushed


def test_erf_erfc_vs_mpmath():
    mp = pytest.importorskip("mpmath")
    mp.mp.prec = 100
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.uniform(-6, 6, 1500), rng.uniform(6, 26.5, 500)])
    t_erf = np.array([float(mp.erf(mp.mpf(v))) for v in x])
    t_erfc = np.array([float(mp.erfc(mp.mpf(v))) for v in x])
    assert _ulps(S.erf(x), t_erf).max() <= 1.0
    assert _ulps(S.erfc(x), t_erfc).max() <= 2.0


@pytest.mark.parametrize("fn, ref", [(S.erf, math.erf), (S.erfc, math.erfc)])
def test_float32_rounding_matches_math(fn, ref):
    # the float32 policy: compute in float64, round once
    rng = np.random.default_rng(5)
    x32 = np.concatenate([rng.uniform(-4, 4, 60_000), _log_uniform(6, -40, 1.4, 40_000)]).astype(
        np.float32
    )
    x64 = x32.astype(np.float64)
    ours = fn(x64).astype(np.float32)
    theirs = np.array([ref(v) for v in x64.tolist()]).astype(np.float32)
    assert (ours == theirs).mean() >= 0.9999


def test_shapes_and_blocks():
    x = np.linspace(-5, 5, 3 * S._BLOCK + 17).reshape(-1, 1)  # several blocks, 2-d
    for fn in (S.erf, S.erfc, S.lgamma, S.digamma):
        got = fn(x)
        assert got.shape == x.shape and got.dtype == np.float64
        flat = x.ravel()
        parts = [fn(flat[i : i + 1000]) for i in range(0, flat.size, 1000)]
        assert _same(got.ravel(), np.concatenate(parts))
    y = np.linspace(-1, 1, 2 * S._BLOCK + 5)
    assert S.erfinv(y).shape == y.shape
    assert S.erf(np.float64(0.5)).shape == ()
    assert S.erf(np.zeros((0, 3))).shape == (0, 3)
    nc = np.linspace(-3, 3, 200).reshape(10, 20)[:, ::3]  # non-contiguous
    assert _same(S.erf(nc), S.erf(np.ascontiguousarray(nc)))
    assert S.lgamma([0.5, 1.5]).shape == (2,)  # array-likes


# --- erfinv ---------------------------------------------------------------------------------


def _erfinv_tol(y: np.ndarray, x: np.ndarray, k: float) -> np.ndarray:
    # an erf that is off by an ulp moves erfinv by about spacing(y) / erf'(x): erfinv is
    # ill-conditioned toward +-1, so the tolerance is k of those plus 2 ulps of x
    d = np.spacing(np.abs(y)) * (math.sqrt(math.pi) / 2) * np.exp(x * x)
    return k * d + 2 * np.spacing(np.abs(x))


def test_torch_erfinv_kernel_is_the_accurate_one():
    # shadowgrad's erfinv op computes erfinv_accurate (MKL's vdErfInv is what torch runs)
    y = np.concatenate([_samples(7, -1.0, 1.0), [-1.0, 1.0, 0.0, -0.0, 1.5, np.nan]])
    assert _same(_np_erfinv(y), S.erfinv_accurate(y))
    y32 = y.astype(np.float32)
    assert _same(_np_erfinv(y32), S.erfinv_accurate(y32.astype(np.float64)).astype(np.float32))


@pytest.mark.parametrize("lo, hi", [(-0.7, 0.7), (-0.99, 0.99)])
def test_erfinv_matches_torch(lo, hi):
    # torch's CPU build computes erfinv with MKL's vdErfInv, not calc_erfinv: they agree to the
    # conditioning of erf up to |y| ~ 0.99; beyond, calc_erfinv's two Newton steps on erf lose
    # digits (1e5 ulps at 0.999999), for the old kernel as for this one
    y = _samples(7, lo, hi)
    got, ref = S.erfinv(y), _torch("erfinv", y)
    assert np.all(np.abs(got - ref) <= _erfinv_tol(y, ref, 3.0))
    if hi <= 0.7:  # well-conditioned: a few ulps
        assert _ulps(got, ref).max() <= 3.0


def test_erfinv_special_values():
    y = np.array([-1.0, 1.0, 0.0, -0.0, 1.5, -2.0, np.inf, np.nan, 1e-300, 1 - 2.0**-53, 0.7])
    assert _same(S.erfinv(y[:-2]), _torch("erfinv", y[:-2]))


@pytest.mark.parametrize("lo, hi", [(-0.5, 0.5), (-1.0, 1.0), (0.999999, 1.0), (-1.0, -1 + 1e-10)])
def test_erfinv_accurate_matches_torch(lo, hi):
    y = _samples(14, lo, hi)
    u = _ulps(S.erfinv_accurate(y), _torch("erfinv", y))
    assert u.max() <= 1.0
    assert (u == 0).mean() > 0.8


def test_erfinv_accurate_vs_mpmath_and_special_values():
    mp = pytest.importorskip("mpmath")
    mp.mp.prec = 100
    rng = np.random.default_rng(15)
    y = np.concatenate([rng.uniform(-1, 1, 150), 1 - rng.uniform(0, 1e-10, 50)])
    y = np.concatenate([y, [1 - 2.0**-53, -1 + 2.0**-53, 5e-324, 1e-300, 0.5, -0.7]])
    t = np.array([float(mp.erfinv(mp.mpf(v))) for v in y])
    assert _ulps(S.erfinv_accurate(y), t).max() <= 1.0
    sp = np.array([-1.0, 1.0, 0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan])
    assert _same(S.erfinv_accurate(sp), _torch("erfinv", sp))


# --- lgamma ---------------------------------------------------------------------------------

# math.lgamma is CPython's own Lanczos approximation, not libm's: up to ~1e9 ulps off next to
# 1 and ~1e4 next to 2 (where lgamma vanishes), ~10 ulps on [3, 10). torch.lgamma is glibc's
# (<= 1 ulp away from the zeros of lgamma), so it and mpmath are the references for accuracy.
LGAMMA_POS = [(1e-3, 0.5), (0.5, 3.0), (0.999, 1.001), (1.999, 2.001), (3.0, 10.0), (10.0, 1e3)]


@pytest.mark.parametrize("lo, hi", [*LGAMMA_POS, (1e3, 1e300)])
def test_lgamma_positive_vs_torch(lo, hi):
    x = _samples(8, lo, hi) if hi < 1e4 else 10.0 ** _samples(8, 3, 300)
    assert _ulps(S.lgamma(x), _torch("lgamma", x)).max() <= 3.0


def test_lgamma_vs_math_lgamma_where_it_is_accurate():
    x = np.concatenate([_samples(9, 1e-3, 0.5), _samples(9, 10.0, 1e3), -_samples(9, 10, 100)])
    x = x[x != np.round(x)]
    ref = np.array([math.lgamma(v) for v in x.tolist()])
    assert _ulps(S.lgamma(x), ref).max() <= 8.0  # math.lgamma's own error is up to ~7 here


def test_lgamma_tiny_and_log_uniform():
    x = _log_uniform(10, -320, 305)
    x = x[x != np.round(x)]
    ref = _torch("lgamma", x)
    got = S.lgamma(x)
    neg_mid = (x < -2) & (x > -1e15)  # next to a zero of lgamma: see the negative test
    assert _ulps(got[~neg_mid], ref[~neg_mid]).max() <= 3.0


def _reflection_scale(x: np.ndarray) -> np.ndarray:
    # below -0.5 lgamma(x) = log(pi / |x sin(pi x)|) - lgamma(-x): next to a zero of lgamma the
    # two terms cancel, so the error is a few ulps of the terms, not of the result
    with np.errstate(all="ignore"):
        lg = np.array([math.lgamma(v) for v in (-x).tolist()])
        return np.abs(lg) + np.abs(np.log(np.pi / np.abs(x * np.sin(np.pi * x)))) + 1.0


@pytest.mark.parametrize("lo, hi", [(-0.5, 0.0), (-3.0, -0.5), (-10.0, -3.0), (-300.0, -10.0)])
def test_lgamma_negative_vs_torch(lo, hi):
    x = _samples(11, lo, hi)
    x = x[x != np.round(x)]
    got, ref = S.lgamma(x), _torch("lgamma", x)
    u = _ulps(got, ref)
    assert np.all((u <= 3.0) | (np.abs(got - ref) <= 4 * EPS * _reflection_scale(x)))
    assert np.median(u) <= 1.0


def test_lgamma_vs_mpmath():
    mp = pytest.importorskip("mpmath")
    mp.mp.prec = 100
    rng = np.random.default_rng(12)
    x = np.concatenate(
        [
            rng.uniform(1e-3, 10, 1500),
            rng.uniform(1 - 1e-5, 1 + 1e-5, 200),
            rng.uniform(2 - 1e-5, 2 + 1e-5, 200),
            rng.uniform(10, 1e4, 300),
        ]
    )
    t = np.array([float(mp.loggamma(mp.mpf(v)).real) for v in x])
    assert _ulps(S.lgamma(x), t).max() <= 2.0


def test_lgamma_special_values():
    x = [0.0, -0.0, 1.0, 2.0, -1.0, -2.0, -1e300, np.inf, -np.inf, np.nan, 5e-324, -5e-324]
    x += [1e-320, 2.5e305, 2.6e305, 1e308, -0.5, 0.5, -3.5, 3.0, 10.0, 2.0**52, -(2.0**52)]
    x = np.array([*x, 4503599627370495.5, -4503599627370495.5])
    got = S.lgamma(x)
    ref = _torch("lgamma", x)
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    assert np.array_equal(np.isinf(got), np.isinf(ref))
    fin = np.isfinite(ref)
    assert _ulps(got[fin], ref[fin]).max() <= 2.0
    assert S.lgamma(1.0) == 0 and S.lgamma(2.0) == 0


# --- digamma --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lo, hi", [(0.0, 1.0), (1.0, 10.0), (10.0, 1e3), (1e3, 1e20), (-10.0, 0.0), (-1e3, -10.0)]
)
def test_digamma_matches_torch(lo, hi):
    # the same algorithm as torch's calc_digamma; numpy's log/tan may differ from libm's by an
    # ulp, which the reflection term amplifies next to the poles and zeros
    x = _samples(13, lo, hi)
    got, ref = S.digamma(x), _torch("digamma", x)
    assert (got == ref).mean() >= 0.99
    with np.errstate(all="ignore"):
        refl = np.where(x < 0, np.abs(np.pi / np.tan(np.pi * np.fmod(x, 1.0))), 0.0)
    assert np.all(np.abs(got - ref) <= 8 * EPS * (np.abs(ref) + refl + 2.0))


def test_digamma_special_values():
    x = [0.0, -0.0, 1.0, 2.0, -1.0, -2.0, 10.0, 9.0, 3.0, -1e300, np.inf, -np.inf, np.nan]
    x = np.array([*x, 1e-320, -1e-320, 5e-324, 1e17, 1e308, -0.5, 0.5, -2.5, -1e-300])
    assert _same(S.digamma(x), _torch("digamma", x))
