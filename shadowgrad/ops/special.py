"""The gamma family and torch.special's scalar functions: lgamma, digamma, polygamma, mvlgamma,
the Hurwitz zeta, the regularized incomplete gamma functions, xlog1py, erfcx, log_ndtr, ndtri,
entr. The Bessel and Airy functions are in special_bessel.py; the orthogonal polynomials and the
number-theoretic and pointwise extras (gcd, lcm, ldexp, frexp, float_power, ...) are in
special_poly.py.

numpy has no gamma functions: lgamma is libm's (math.lgamma, per element, as erf in
pointwise.py); digamma, trigamma and the Hurwitz zeta behind polygamma are vectorized series
(recurrence to x >= 10, then asymptotic series), with torch's values at poles and infinities.
Everything is computed in float64 and rounded once to the input's dtype.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make
from ..autograd.forward_ad import ELEMENTWISE
from . import _specfun
from .nn_ops import _div_scalar
from .pointwise import (
    _invalid_combination,
    _mul_scalar,
    _need_tensor,
    _not_for,
    _out,
    _unary_out,
    _where,
    add_scalar,
    defop,
    masked_fill,
    select,
    sub_scalar,
    tensor_binary,
)

# --- float64 kernels ------------------------------------------------------------------------


def _bernoulli_even(m: int) -> list[Fraction]:
    """B_2, B_4, ..., B_2m, exactly (the Akiyama-Tanigawa algorithm)."""
    a = [Fraction(0)] * (2 * m + 1)
    out = []
    for k in range(2 * m + 1):
        a[k] = Fraction(1, k + 1)
        for j in range(k, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        if k >= 2 and k % 2 == 0:
            out.append(a[0])
    return out


_B = _bernoulli_even(12)
# digamma's asymptotic series: psi(x) ~ log x - 1/(2x) - sum_k B_2k / (2k x^2k)
_PSI_C = [float(b / (2 * k)) for k, b in enumerate(_B[:7], 1)]
# the Euler-Maclaurin tail of the Hurwitz zeta: B_2j / (2j)!
_ZETA_C = [float(b / math.factorial(2 * j)) for j, b in enumerate(_B, 1)]


def _f64(x: np.ndarray) -> np.ndarray:
    if type(x) is not np.ndarray and getattr(x, "_sg_sparse", False):
        _sparse_refused(x)
    return np.asarray(x, np.float64)


def _sparse_refused(x: Any) -> None:
    """A sparse tensor given to a special function: torch has no sparse kernel (np.asarray
    would read the sparse array's stub, sparse/_array.py)."""
    import sys

    from ..sparse._ops import not_on_sparse

    caller = sys._getframe(2).f_code.co_name.strip("_").removesuffix("64")
    raise not_on_sparse({"erfc": "special_erfcx", "erfcx": "special_erfcx"}.get(caller, caller))


def _lgamma64(x: np.ndarray) -> np.ndarray:
    return _specfun.lgamma(_f64(x))


def _digamma64(x: np.ndarray) -> np.ndarray:
    return _specfun._blocked(_digamma_block, _f64(x))


def _digamma_block(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        neg = x < 0
        # reflection: psi(x) = psi(1 - x) - pi / tan(pi * frac(x)), evaluated on the negative
        # elements only (0 elsewhere)
        refl = np.zeros_like(x)
        y = np.array(x)  # a fresh array, never a numpy scalar
        if neg.any():
            xn = x[neg]
            refl[neg] = -math.pi / np.tan(math.pi * np.fmod(xn, 1.0))
            y[neg] = 1.0 - xn
        acc = np.zeros_like(y)
        small = np.array(y < 10)
        if small.any():
            # psi(y) = psi(y + 1) - 1 / y while y < 10, on every element at once: finished
            # ones subtract 1 / y * 0 = 0 and add 0, leaving them as they are (no where over a
            # random mask; Note [Selecting by bit masks])
            step = np.empty_like(y)
            t = np.empty_like(y)
            while True:
                np.copyto(step, small)
                np.divide(1.0, y, out=t)
                t *= step
                acc -= t
                y += step
                np.less(y, 10, out=small)
                if not small.any():
                    break
        z = y * y
        np.divide(1.0, z, out=z)
        poly = np.zeros_like(y)
        for c in reversed(_PSI_C):
            poly *= z
            poly += c
        # acc + log(y) - 0.5 / y - z * poly + refl, in place
        r = np.log(y)
        np.add(acc, r, out=r)
        np.divide(0.5, y, out=y)
        r -= y
        z *= poly
        r -= z
        r += refl
        bad = neg & (x == np.trunc(x))  # negative integers (and -inf)
        if bad.any():
            r = select(bad, np.nan, r)
        zero = x == 0
        if zero.any():
            r = select(zero, np.copysign(np.inf, -x), r)  # -inf at 0, inf at -0
        return r


def _trigamma64(x: np.ndarray) -> np.ndarray:
    # torch's trigamma: reflection below 1/2, six recurrence steps, then five asymptotic terms
    # (so its values, ~1e-8 relative off far from the poles, and finite at negative integers,
    # where sin(pi x) is computed in the input's dtype)
    x = np.asarray(x)
    dt = x.dtype
    return _specfun._blocked(lambda b: _trigamma_block(b, dt), _f64(x))


def _trigamma_block(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """_trigamma64 on float64 values of an array of dtype `dt` (exactly representable)."""
    with np.errstate(all="ignore"):
        low = x < 0.5
        r = np.zeros_like(x)
        y = np.array(x)  # a fresh array, never a numpy scalar
        if low.any():  # the reflection's terms, on the elements below 1/2 only
            xl = x[low]
            if dt.kind == "f":
                xl_in = xl.astype(dt)
                s = np.sin(xl_in * dt.type(math.pi)).astype(np.float64)
            else:
                s = np.sin(math.pi * xl)
            r[low] = -(math.pi * math.pi) / (s * s)
            y[low] = 1.0 - xl
        t = np.empty_like(y)
        for _ in range(6):
            np.multiply(y, y, out=t)
            np.divide(1.0, t, out=t)
            r += t
            y += 1.0
        z = y * y
        np.divide(1.0, z, out=z)
        # r + (1 + 0.5 / y + z * (1/6 - z * (1/30 - z * (1/42)))) / y
        p = z * (1.0 / 42)
        np.subtract(1.0 / 30, p, out=p)
        p *= z
        np.subtract(1.0 / 6, p, out=p)
        p *= z
        np.divide(0.5, y, out=t)
        np.add(1.0, t, out=t)
        t += p
        t /= y
        r += t
        if low.any():
            r[low] = -r[low]
        return r


def _zeta64(s: Any, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta(s, q) for s > 1 (a number or an array): direct terms until q + N > 9,
    then the Euler-Maclaurin tail. inf at q = 0, -1, -2, ... (and -inf), nan at q = inf, as
    torch."""
    q = _f64(q)
    with np.errstate(all="ignore"):
        a = q.copy()
        total = np.zeros_like(q)
        steps = 0
        todo = np.ones(q.shape, bool)
        while todo.any():
            total = np.where(todo, total + np.power(a, -s), total)
            a = np.where(todo, a + 1.0, a)
            steps += 1
            todo = ((a <= 9.0) | (steps < 9)) & np.isfinite(a)
        w = np.power(a, -s)
        tail = a * w / (s - 1) + 0.5 * w
        rising = s  # s (s + 1) ... (s + 2j - 2)
        p = w / a
        for j, c in enumerate(_ZETA_C, 1):
            tail = tail + c * rising * p
            rising = rising * ((s + 2 * j - 1) * (s + 2 * j))
            p = p / (a * a)
        r = total + tail
        r = np.where((q <= 0) & (q == np.floor(q)), np.inf, r)
        return np.where(q == np.inf, np.nan, r)


def _polygamma64(n: int, x: np.ndarray) -> np.ndarray:
    if n == 0:
        return _digamma64(x)
    if n == 1:
        return _trigamma64(x)
    sign = 1.0 if n % 2 else -1.0
    return sign * float(math.factorial(n)) * _zeta64(float(n + 1), x)


def _float_kernel(fn64: Any, kernel: str) -> Any:
    """A forward computing in float64 and rounding once to the input's (float) dtype."""

    def forward(self: np.ndarray) -> np.ndarray:
        _not_for(kernel, self, "c")
        return fn64(self).astype(self.dtype, copy=False)

    return forward


# --- gamma family ---------------------------------------------------------------------------


def _digamma_kernel(n: int) -> str:
    return ("digamma", "trigamma")[n] if n < 2 else "polygamma"


def _np_polygamma(n: int, self: np.ndarray) -> np.ndarray:
    _not_for(_digamma_kernel(n), self, "c")
    return _polygamma64(n, self).astype(self.dtype, copy=False)


lgamma = defop(
    "lgamma",
    "LgammaBackward0",
    _float_kernel(_lgamma64, "lgamma_vml_cpu"),
    dtype="float",
    self=lambda grad, self: grad * digamma(self),
    jvp=ELEMENTWISE,
)
digamma = defop(
    "digamma",
    "DigammaBackward0",
    _float_kernel(_digamma64, "digamma"),
    dtype="float",
    self=lambda grad, self: grad * _polygamma(1, self),
    jvp=ELEMENTWISE,
)
_polygamma = defop(
    "polygamma",
    "PolygammaBackward0",
    _np_polygamma,
    dtype="float",
    self=lambda grad, n, self: grad * _polygamma(n + 1, self),
    jvp=ELEMENTWISE,
)
# Tensor.polygamma_ records its own node (torch's polygamma_ schema puts self first)
_polygamma_inplace = defop(
    "polygamma_",
    "PolygammaBackward1",
    lambda self, n: _np_polygamma(n, self),
    dtype="float",
    self=lambda grad, self, n: grad * _polygamma(n + 1, self),
    jvp=ELEMENTWISE,
)


def _mvlgamma_offsets(p: int, dt: Any) -> np.ndarray:
    # torch's arange(-p/2 + 1/2, 1/2, 1/2): -(p-1)/2, ..., -1/2, 0
    return (np.arange(p, dtype=np.float64)[::-1] * -0.5).astype(dt)


def _np_mvlgamma(self: np.ndarray, p: int) -> np.ndarray:
    _not_for("arange_cpu", self, "c")
    x = self.astype(np.float64)[..., None] + _mvlgamma_offsets(p, np.float64)
    r = _lgamma64(x).sum(-1) + p * (p - 1) / 4 * math.log(math.pi)
    return r.astype(self.dtype, copy=False)


def _mvlgamma_backward(grad: Tensor, self: Tensor, p: int) -> Tensor:
    args = _make(_mvlgamma_offsets(p, self._data.dtype)) + self.unsqueeze(-1)
    return grad * digamma(args).sum(-1)


_mvlgamma = defop(
    "mvlgamma",
    "MvlgammaBackward0",
    _np_mvlgamma,
    dtype="float",
    contiguous=True,
    self=_mvlgamma_backward,
    jvp=ELEMENTWISE,
)


def _check_int(fn: str, name: str, pos: int, v: Any) -> None:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {pos}) must be int, not {type(v).__name__}"
        )


def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.polygamma` (the n-th derivative of digamma)."""
    _check_int("polygamma", "n", 1, n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _out(_polygamma(int(n), input), out, "polygamma")


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


def _polygamma_fn_(self: Tensor, n: int) -> Tensor:
    return _polygamma_inplace(self, n)


def _polygamma_(self: Tensor, n: int) -> Tensor:
    _check_int("polygamma_", "n", 1, n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _apply_inplace(_polygamma_fn_, self, int(n))


def mvlgamma(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.mvlgamma` (the multivariate log-gamma of dimension p)."""
    _check_int("mvlgamma", "p", 2, p)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if input.dtype is D.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    return _out(_mvlgamma(input, int(p)), out, "mvlgamma")


def _apply_inplace(fn: Any, self: Tensor, *args: Any) -> Tensor:
    from .inplace import apply_inplace

    return apply_inplace(fn, self, *args)


# --- entr -----------------------------------------------------------------------------------


def _np_entr(self: np.ndarray) -> np.ndarray:
    _not_for("entr_cpu", self, "c")
    with np.errstate(all="ignore"):
        r = -self * np.log(self)
        r = np.where(self == 0, self.dtype.type(0), r)
        return np.where(self < 0, self.dtype.type(-np.inf), r).astype(self.dtype, copy=False)


# torch.special.entr: -x log x (0 at 0, -inf below 0); grad -(1 + log x)
entr = defop(
    "special_entr",
    "SpecialEntrBackward0",
    _np_entr,
    dtype="float",
    self=lambda grad, self: grad * -add_scalar(self.log(), 1),
    jvp=ELEMENTWISE,
)

# --- torch.special: erfcx, log_ndtr, ndtri, xlog1py, zeta, incomplete gamma -----------------

_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)
_SQRT_HALF = math.sqrt(0.5)


def _erfc64(x: np.ndarray) -> np.ndarray:
    return _specfun.erfc(_f64(x))


def _square_hi_lo(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x * x as an unevaluated sum hi + lo, exactly (Dekker's splitting)."""
    c = 134217729.0 * x
    xh = c - (c - x)
    xl = x - xh
    hi = x * x
    return hi, ((xh * xh - hi) + 2 * xh * xl) + xl * xl


def _erfcx64(x: np.ndarray) -> np.ndarray:
    """exp(x^2) erfc(x): the exact square's exponential times libm's erfc, and the asymptotic
    series 1 / (x sqrt(pi)) sum_k (-1)^k (2k - 1)!! / (2 x^2)^k where erfc underflows."""
    x = _f64(x)
    with np.errstate(all="ignore"):
        big = x >= 26.0
        xs = np.where(big, 0.0, x)
        hi, lo = _square_hi_lo(xs)
        direct = np.exp(hi) * (1.0 + lo) * _erfc64(xs)
        xb = np.where(big, x, 30.0)
        z = 0.5 / (xb * xb)
        term = np.ones_like(xb)
        total = term
        for k in range(1, 12):
            term = -term * (2 * k - 1) * z
            total = total + term
        asym = np.where(np.isinf(xb), 0.0, total / (xb * _SQRT_PI))
        r = np.where(big, asym, direct)
        return np.where(x < -27.0, np.inf, r)  # exp(x^2) overflows


def _log_ndtr64(x: np.ndarray) -> np.ndarray:
    # log(Phi(x)): through erfcx in the left tail, log1p of the upper tail elsewhere
    x = _f64(x)
    with np.errstate(all="ignore"):
        left = x < -1.0
        t = np.where(left, -x, 1.0) * _SQRT_HALF
        tail = np.log(_erfcx64(t) * 0.5) - x * x * 0.5
        rest = np.log1p(-0.5 * _erfc64(np.where(left, 0.0, x) * _SQRT_HALF))
        return np.where(left, tail, rest)


def _ndtr_lower64(x: np.ndarray) -> np.ndarray:
    return 0.5 * _erfc64(-x * _SQRT_HALF)


def _ndtri64(p: np.ndarray) -> np.ndarray:
    """The standard normal quantile: a rational first guess (Abramowitz and Stegun 26.2.23, on
    the lower tail), then Newton steps on log Phi(x) = log q, whose slope phi / Phi comes from
    erfcx without underflow."""
    p = _f64(p)
    with np.errstate(all="ignore"):
        upper = p > 0.5
        q = np.where(upper, 1.0 - p, p)  # exact for p in [1/2, 1]
        qs = np.where(q > 0, q, 0.5)
        t = np.sqrt(-2.0 * np.log(qs))
        num = 2.515517 + t * (0.802853 + t * 0.010328)
        den = 1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))
        x = -(t - num / den)
        log_q = np.log(qs)
        for _ in range(6):
            ratio = 0.5 * _SQRT_2PI * _erfcx64(-x * _SQRT_HALF)  # Phi(x) / phi(x)
            x = x - (_log_ndtr64(x) - log_q) * ratio
        x = np.where(q == 0.5, 0.0, x)
        x = np.where(q == 0, -np.inf, x)
        x = np.where(upper, -x, x)
        return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x)


def _float_only_kernel(fn64: Any, kernel: str) -> Any:
    """A float64 kernel that torch compiles for float32 and float64 only."""

    def forward(self: np.ndarray) -> np.ndarray:
        _not_for(kernel, self, "c")
        _not_half(kernel, self)
        return fn64(self).astype(self.dtype, copy=False)

    return forward


def _not_half(kernel: str, a: np.ndarray) -> None:
    if a.dtype == np.float16:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Half'")


erfcx = defop(
    "special_erfcx",
    "SpecialErfcxBackward0",
    _float_only_kernel(_erfcx64, "erfcx_cpu"),
    dtype="float",
    self=lambda grad, self, result: (
        sub_scalar(_mul_scalar(self, 2.0) * result, 2.0 / _SQRT_PI) * grad
    ),
    jvp=ELEMENTWISE,
)
log_ndtr = defop(
    "special_log_ndtr",
    "SpecialLogNdtrBackward0",
    _float_only_kernel(_log_ndtr64, "log_ndtr_cpu"),
    dtype="float",
    self=lambda grad, self, result: (
        grad / _SQRT_2PI * (-(result + _div_scalar(self.pow(2), 2))).exp()
    ),
    jvp=ELEMENTWISE,
)
ndtri = defop(
    "special_ndtri",
    "SpecialNdtriBackward0",
    _float_only_kernel(_ndtri64, "ndtri_cpu"),
    dtype="float",
    self=lambda grad, result: grad * _SQRT_2PI * _div_scalar(result.pow(2), 2).exp(),
    jvp=ELEMENTWISE,
)


@np.errstate(all="ignore")
def _np_xlog1py(self: np.ndarray, other: Any) -> np.ndarray:
    # torch: nan if other is nan, else 0 where self == 0, else self * log1p(other)
    _not_for("xlog1py_cpu", self, "c")
    if self.dtype == np.float16 and type(other) is float:  # through float, as c10 converts it
        other = float(np.float16(np.float32(other)))
    other = np.asarray(other, self.dtype)  # a Python scalar from the fast path
    r = np.where(self == 0, 0, self * np.log1p(other))
    return np.where(np.isnan(other), np.nan, r).astype(self.dtype, copy=False)


def _xlog1py_self_grad(grad: Tensor, self: Tensor, other: Any) -> Tensor:
    # xlog1py(grad, other), zeroed where self == 0 and other <= -1
    if isinstance(other, Tensor):
        return masked_fill(_xlog1py(grad, other), (self == 0) & (other <= -1), 0)
    r = _xlog1py_scalar_other(grad, other)
    return _where(self == 0, 0.0, r) if other <= -1 else r


def _xlog1py_other_grad(grad: Tensor, self: Any, other: Tensor) -> Tensor:
    return grad * self / add_scalar(other, 1)


_xlog1py = defop(
    "special_xlog1py",
    "SpecialXlog1PyBackward0",
    _np_xlog1py,
    dtype="float",
    self=_xlog1py_self_grad,
    other=_xlog1py_other_grad,
    jvp=ELEMENTWISE,
)
_xlog1py_scalar_self = defop(
    "special_xlog1py.self_scalar",
    "SpecialXlog1PyBackward1",
    _np_xlog1py,
    dtype="float",
    nondiff=("self",),
    other=_xlog1py_other_grad,
    jvp=ELEMENTWISE,
)
_xlog1py_scalar_other = defop(
    "special_xlog1py.other_scalar",
    "SpecialXlog1PyBackward2",
    _np_xlog1py,
    dtype="float",
    nondiff=("other",),
    self=_xlog1py_self_grad,
    jvp=ELEMENTWISE,
)


def _hurwitz64(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    """zeta(s, q) for real s, with torch's domain: inf at s = 1, nan below; inf at q = 0, -1, ...;
    nan for q < 0 with a non-integer s."""
    s, q = np.broadcast_arrays(_f64(s), _f64(q))
    with np.errstate(all="ignore"):
        r = _zeta64(np.where(s > 1, s, 2.0), q)
        bad_q = (q < 0) & (q != np.floor(q)) & (s != np.floor(s))
        r = np.where(bad_q | (s < 1), np.nan, r)
        r = np.where(s == 1, np.inf, r)
        at_inf = np.where(q == 1, 1.0, np.where(q < 1, np.inf, np.nan))
        r = np.where((s == np.inf) & (q > 0), at_inf, r)
        return np.where(np.isnan(s) | np.isnan(q), np.nan, r)


def _np_zeta(self: np.ndarray, other: Any) -> np.ndarray:
    other = np.asarray(other, self.dtype)
    for a in (self, other):
        _not_for("zeta_cpu", a, "c")
        _not_half("zeta_cpu", a)
    return _hurwitz64(self, other).astype(np.result_type(self, other), copy=False)


def _zeta_not_implemented(grad: Tensor) -> Tensor:
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


def _zeta_other_grad(grad: Tensor, self: Any, other: Tensor) -> Tensor:
    return grad * -self * zeta(self + 1.0, other)


def _zeta_jvp(self: Any, other: Any, self_t: Any = None, other_t: Any = None) -> Any:
    if self_t is not None:
        raise NotImplementedError("the derivative for 'zeta' is not implemented.")
    return None if other_t is None else other_t * -self * zeta(self + 1.0, other)


_zeta = defop(
    "special_zeta",
    "SpecialZetaBackward0",
    _np_zeta,
    dtype="float",
    self=_zeta_not_implemented,
    other=_zeta_other_grad,
    jvp=lambda self, other, self_t, other_t: _zeta_jvp(self, other, self_t, other_t),
)
_zeta_scalar_self = defop(
    "special_zeta.self_scalar",
    "SpecialZetaBackward1",
    _np_zeta,
    dtype="float",
    nondiff=("self",),
    other=_zeta_other_grad,
    jvp=lambda self, other, other_t: _zeta_jvp(self, other, None, other_t),
)
_zeta_scalar_other = defop(
    "special_zeta.other_scalar",
    "SpecialZetaBackward2",
    _np_zeta,
    dtype="float",
    nondiff=("other",),
    self=_zeta_not_implemented,
    jvp=lambda self, other, self_t: _zeta_jvp(self, other, self_t),
)

_BINARY_SIGS = (
    "Tensor input, Tensor other, *, Tensor out = None",
    "Number self, Tensor other, *, Tensor out = None",
    "Tensor input, Number other, *, Tensor out = None",
)


def _binary_overloads(name: str, ops: tuple[Any, Any, Any], sigs: tuple[str, ...]) -> Any:
    both, scalar_self, scalar_other = ops

    def fn(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
        if isinstance(input, Tensor):
            r = both(input, other) if isinstance(other, Tensor) else scalar_other(input, other)
        elif isinstance(other, Tensor):
            r = scalar_self(input, other)
        else:
            raise _invalid_combination(name, (input, other), sigs)
        return _out(r, out, name)

    fn.__name__ = name.removeprefix("special_")
    fn.__doc__ = f"Mirrors `torch.special.{fn.__name__}`."
    return fn


xlog1py = _binary_overloads(
    "special_xlog1py", (_xlog1py, _xlog1py_scalar_self, _xlog1py_scalar_other), _BINARY_SIGS
)
_ZETA_SIGS = (
    "Tensor input, Tensor other, *, Tensor out = None",
    "Number self, Tensor other, *, Tensor out = None",
    "Tensor self, Number other, *, Tensor out = None",
)
zeta = _binary_overloads("special_zeta", (_zeta, _zeta_scalar_self, _zeta_scalar_other), _ZETA_SIGS)


def _igamma64(a: np.ndarray, x: np.ndarray, upper: bool) -> np.ndarray:
    """P(a, x) (Q(a, x) when upper), each from the side computed with relative accuracy, with
    torch's values off the domain: nan for a < 0 or x < 0, and at a = x = 0 and a = x = inf."""
    from ..distributions._gamma_grad import _cf_q, _series_p

    a, x = np.broadcast_arrays(_f64(a), _f64(x))
    p = np.zeros(a.shape)
    q = np.ones(a.shape)
    ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    lo = ok & (x < a + 1)
    hi = ok & ~lo
    with np.errstate(all="ignore"):
        if lo.any():
            p[lo] = _series_p(a[lo], x[lo])
            q[lo] = 1 - p[lo]
        if hi.any():
            q[hi] = _cf_q(a[hi], x[hi])
            p[hi] = 1 - q[hi]
    done = (x == np.inf) | ((a == 0) & (x > 0))  # P = 1
    p[done], q[done] = 1.0, 0.0
    nan = (a < 0) | (x < 0) | ((a == 0) & (x == 0)) | (np.isinf(a) & np.isinf(x))
    nan |= np.isnan(a) | np.isnan(x)
    r = q if upper else p
    r[nan] = np.nan
    return r


def _igamma_kernel(upper: bool) -> Any:
    kernel = "igammac_cpu" if upper else "igamma_cpu"

    def forward(self: np.ndarray, other: np.ndarray) -> np.ndarray:
        dt = np.result_type(self, other)
        if dt.kind != "f":
            raise NotImplementedError(
                f"\"{kernel}\" not implemented for '{D.from_numpy_dtype(dt)._short}'"
            )
        return _igamma64(self, other, upper).astype(dt, copy=False)

    return forward


def _igamma_input_grad(name: str) -> Any:
    def formula(grad: Tensor) -> Tensor:
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")

    return formula


def _igamma_density(self: Tensor, other: Tensor) -> Tensor:
    # x^(a - 1) e^-x / Gamma(a), in logs
    return ((self - 1) * other.log() - other - lgamma(self)).exp()


def _igamma_jvp(name: str, sign: float) -> Any:
    def rule(self: Tensor, other: Tensor, self_t: Any, other_t: Any) -> Any:
        if self_t is not None:
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        return None if other_t is None else other_t * (sign * _igamma_density(self, other))

    return rule


igamma_op = defop(
    "igamma",
    "IgammaBackward0",
    _igamma_kernel(False),
    dtype="promote",
    self=_igamma_input_grad("igamma"),
    other=lambda grad, self, other: grad * _igamma_density(self, other),
    jvp=_igamma_jvp("igamma", 1.0),
)
igammac_op = defop(
    "igammac",
    "IgammacBackward0",
    _igamma_kernel(True),
    dtype="promote",
    self=_igamma_input_grad("igammac"),
    other=lambda grad, self, other: -grad * _igamma_density(self, other),
    jvp=_igamma_jvp("igammac", -1.0),
)


def _igamma_fn(op: Any, name: str) -> Any:
    def fn(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        _need_tensor(name, input, "input", 1)
        return _out(tensor_binary(name, op, input, other, out), out, name)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `torch.{name}` (the regularized incomplete gamma function)."
    return fn


igamma = _igamma_fn(igamma_op, "igamma")
igammac = _igamma_fn(igammac_op, "igammac")
gammainc = _igamma_fn(igamma_op, "special_gammainc")
gammaincc = _igamma_fn(igammac_op, "special_gammaincc")


def _not_recorded(name: str) -> str:
    return "".join(w.capitalize() for w in name.split("_")) + "NotRecorded"


# --- exports --------------------------------------------------------------------------------

_UNARY = {"lgamma": lgamma, "digamma": digamma}
FUNCTIONS: dict[str, Any] = {
    **{name: _unary_out(op, name) for name, op in _UNARY.items()},
    "polygamma": polygamma,
    "mvlgamma": mvlgamma,
    "igamma": igamma,
    "igammac": igammac,
}
METHODS: dict[str, Any] = {
    **_UNARY,
    "polygamma": _polygamma_method,
    "mvlgamma": mvlgamma,
    "polygamma_": _polygamma_,
    "igamma": igamma,
    "igammac": igammac,
}


def _inplace_methods() -> dict[str, Any]:
    from .inplace import make_inplace

    m = {name + "_": make_inplace(op) for name, op in _UNARY.items()}
    for name in ("mvlgamma", "igamma", "igammac"):
        m[name + "_"] = make_inplace(FUNCTIONS[name])
    return m


METHODS.update(_inplace_methods())
