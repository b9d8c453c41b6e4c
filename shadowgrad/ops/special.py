"""Special functions and number-theoretic ops: lgamma, digamma, polygamma, mvlgamma, the modified
Bessel functions i0/i0e/i1/i1e, sinc, deg2rad/rad2deg, float_power, ldexp, frexp, gcd, lcm,
nextafter, in-place comparisons, dist, inner, vdot, addr.

numpy has no gamma or Bessel functions: lgamma is libm's (math.lgamma, per element, as erf in
pointwise.py); digamma, trigamma and the Hurwitz zeta behind polygamma are vectorized series
(recurrence to x >= 10, then asymptotic series), with torch's values at poles and infinities.
Everything is computed in float64 and rounded once to the input's dtype.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make
from ..autograd.forward_ad import ELEMENTWISE
from .pointwise import (
    _invalid_combination,
    _need_tensor,
    _not_for,
    _out,
    _sign,
    _unary_out,
    _where,
    defop,
    exp2,
)
from .pointwise import pow as _pow
from .reduction import _norm_backward, _vector_norm_fwd, _vector_norm_t
from .registry import result_type_of
from .sorting import _structseq, return_types

# --- float64 kernels ------------------------------------------------------------------------


def _lgamma1(v: float) -> float:
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):  # a pole (0, -0, a negative integer) or overflow
        return math.inf


_LGAMMA = np.frompyfunc(_lgamma1, 1, 1)


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
    return np.asarray(x, np.float64)


def _lgamma64(x: np.ndarray) -> np.ndarray:
    return np.asarray(_LGAMMA(_f64(x)), np.float64)


def _digamma64(x: np.ndarray) -> np.ndarray:
    x = _f64(x)
    with np.errstate(all="ignore"):
        neg = x < 0
        # reflection: psi(x) = psi(1 - x) - pi / tan(pi * frac(x))
        refl = np.where(neg, -math.pi / np.tan(math.pi * np.fmod(x, 1.0)), 0.0)
        y = np.where(neg, 1.0 - x, x)
        acc = np.zeros_like(y)
        small = y < 10
        while small.any():  # psi(y) = psi(y + 1) - 1 / y
            acc = np.where(small, acc - 1.0 / y, acc)
            y = np.where(small, y + 1.0, y)
            small = y < 10
        z = 1.0 / (y * y)
        poly = np.zeros_like(y)
        for c in reversed(_PSI_C):
            poly = poly * z + c
        r = acc + np.log(y) - 0.5 / y - z * poly + refl
        r = np.where(neg & (x == np.trunc(x)), np.nan, r)  # negative integers (and -inf)
        return np.where(x == 0, np.copysign(np.inf, -x), r)  # -inf at 0, inf at -0


def _trigamma64(x: np.ndarray) -> np.ndarray:
    # torch's trigamma: reflection below 1/2, six recurrence steps, then five asymptotic terms
    # (so its values, ~1e-8 relative off far from the poles, and finite at negative integers,
    # where sin(pi x) is computed in the input's dtype)
    with np.errstate(all="ignore"):
        s = np.sin(x * x.dtype.type(math.pi)).astype(np.float64) if x.dtype.kind == "f" else None
        x = _f64(x)
        if s is None:
            s = np.sin(math.pi * x)
        low = x < 0.5
        r = np.where(low, -(math.pi * math.pi) / (s * s), 0.0)
        y = np.where(low, 1.0 - x, x)
        for _ in range(6):
            r = r + 1.0 / (y * y)
            y = y + 1.0
        z = 1.0 / (y * y)
        r = r + (1.0 + 0.5 / y + z * (1.0 / 6 - z * (1.0 / 30 - z * (1.0 / 42)))) / y
        return np.where(low, -r, r)


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


def _bessel_series(x: np.ndarray, nu: int) -> np.ndarray:
    """(x/2)^nu sum_k (x^2/4)^k / (k! (k + nu)!): positive terms, no cancellation (x >= 0)."""
    q = x * x * 0.25
    term = np.ones_like(x) if nu == 0 else x * 0.5
    total = term
    for k in range(1, 90):
        term = term * q / (k * (k + nu))
        total = total + term
    return total


def _bessel_asymptotic(x: np.ndarray, nu: int) -> np.ndarray:
    """I_nu(x) e^-x for large x: sum_k (-1)^k a_k(nu) / x^k / sqrt(2 pi x)."""
    mu = 4.0 * nu * nu
    term = np.ones_like(x)
    total = term
    for k in range(1, 32):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total = total + term
    return total / math.sqrt(2 * math.pi) / np.sqrt(x)


def _bessel64(x: np.ndarray, nu: int, scaled: bool) -> np.ndarray:
    """I_nu(x) (times e^-|x| when scaled) for nu = 0, 1; nan at +-inf unscaled, as torch's."""
    x = _f64(x)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        small = ax <= 30
        xs = np.where(small, ax, 0.0)
        s = _bessel_series(xs, nu)
        if scaled:
            s = s * np.exp(-xs)
        xl = np.where(small, 1.0, ax)
        a = _bessel_asymptotic(xl, nu)
        if not scaled:
            a = np.exp(xl) * a  # inf * 0 = nan at inf, as torch's exp(x) * series / sqrt(x)
        r = np.where(small, s, a)
        if nu == 1:  # odd: I1(-x) = -I1(x), and +0 at -0
            r = np.where(x < 0, -r, r)
        return r


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
    args = self.unsqueeze(-1) + _make(_mvlgamma_offsets(p, self._data.dtype))
    return grad * digamma(args).sum(-1)


_mvlgamma = defop(
    "mvlgamma",
    "MvlgammaBackward0",
    _np_mvlgamma,
    dtype="float",
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
    return _out(_mvlgamma(input, int(p)), out, "mvlgamma")


def _apply_inplace(fn: Any, self: Tensor, *args: Any) -> Tensor:
    from .inplace import apply_inplace

    return apply_inplace(fn, self, *args)


# --- modified Bessel functions --------------------------------------------------------------


def _tiny_safe(self: Tensor) -> tuple[Tensor, Tensor]:
    """(|self| <= eps, self with those replaced by eps): torch's guard for the 0/0 at 0."""
    eps = float(np.finfo(self._data.dtype).eps)
    tiny = (self.abs() > eps).logical_not()  # nan counts as tiny, as in torch
    return tiny, _where(tiny, eps, self)


def _i1_backward(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    # I1'(x) = I0(x) - I1(x) / x, and 1/2 at 0
    tiny, safe = _tiny_safe(self)
    return grad * _where(tiny, 0.5, i0(safe) - result * safe.reciprocal())


def _i1e_backward(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    tiny, safe = _tiny_safe(self)
    return grad * _where(tiny, 0.5, i0e(safe) - result * (_sign(safe) + safe.reciprocal()))


i0 = defop(
    "i0",
    "I0Backward0",
    _float_kernel(lambda x: _bessel64(x, 0, False), "i0_vml_cpu"),
    dtype="float",
    self=lambda grad, self: grad * i1(self),
    jvp=ELEMENTWISE,
)
i0e = defop(
    "special_i0e",
    "SpecialI0EBackward0",
    _float_kernel(lambda x: _bessel64(x, 0, True), "i0e_cpu"),
    dtype="float",
    self=lambda grad, self, result: grad * (i1e(self) - _sign(self) * result),
    jvp=ELEMENTWISE,
)
i1 = defop(
    "special_i1",
    "SpecialI1Backward0",
    _float_kernel(lambda x: _bessel64(x, 1, False), "i1_cpu"),
    dtype="float",
    self=_i1_backward,
    jvp=ELEMENTWISE,
)
i1e = defop(
    "special_i1e",
    "SpecialI1EBackward0",
    _float_kernel(lambda x: _bessel64(x, 1, True), "i1e_cpu"),
    dtype="float",
    self=_i1e_backward,
    jvp=ELEMENTWISE,
)


# --- sinc, deg2rad, rad2deg -----------------------------------------------------------------


def _np_sinc(self: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        px = self * self.dtype.type(math.pi)
        return np.where(self == 0, self.dtype.type(1), np.sin(px) / px)


def _sinc_backward(grad: Tensor, self: Tensor) -> Tensor:
    # (pi x cos(pi x) - sin(pi x)) / (pi x^2), and 0 at x = 0
    px = self * math.pi
    pxx = self * self * math.pi
    out = grad * (px * px.cos() - px.sin()) / pxx.conj()
    return _where(pxx == 0, 0.0, out)


sinc = defop(
    "sinc",
    "SincBackward0",
    _np_sinc,
    dtype="float",
    self=_sinc_backward,
    jvp=ELEMENTWISE,
)


def _angle_kernel(name: str, factor: float) -> Any:
    def forward(self: np.ndarray) -> np.ndarray:
        if self.dtype.kind == "c":
            raise RuntimeError(f"{name} is not supported for complex tensors.")
        return self * self.dtype.type(factor)

    return forward


_DEG2RAD = math.pi / 180.0
_RAD2DEG = 180.0 / math.pi
deg2rad = defop(
    "deg2rad",
    "Deg2RadBackward0",
    _angle_kernel("deg2rad", _DEG2RAD),
    dtype="float",
    self=lambda grad: grad * _DEG2RAD,
    jvp=ELEMENTWISE,
)
rad2deg = defop(
    "rad2deg",
    "Rad2DegBackward0",
    _angle_kernel("rad2deg", _RAD2DEG),
    dtype="float",
    self=lambda grad: grad * _RAD2DEG,
    jvp=ELEMENTWISE,
)


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
    self=lambda grad, self: grad * -(1 + self.log()),
    jvp=ELEMENTWISE,
)

# --- float_power, ldexp, frexp --------------------------------------------------------------

_FLOAT_POWER_SIGS = (
    "Tensor input, Tensor exponent, *, Tensor out = None",
    "Number self, Tensor exponent, *, Tensor out = None",
    "Tensor input, Number exponent, *, Tensor out = None",
)


def _float_power_dtype(input: Any, exponent: Any) -> D.dtype:
    complex_ = any(
        (isinstance(v, Tensor) and v.dtype.is_complex) or isinstance(v, complex)
        for v in (input, exponent)
    )
    return D.complex128 if complex_ else D.float64


def _as(v: Any, dt: D.dtype) -> Any:
    if isinstance(v, Tensor):
        return v if v.dtype is dt else v.to(dt)
    return complex(v) if dt.is_complex else float(v)


def float_power(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.float_power`: pow computed in float64 (complex128 for complex operands)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise _invalid_combination("float_power", (input, exponent), _FLOAT_POWER_SIGS)
    dt = _float_power_dtype(input, exponent)
    return _out(_pow(_as(input, dt), _as(exponent, dt)), out, "float_power")


def _float_power_fn_(self: Tensor, exponent: Any) -> Tensor:
    return _pow(self, _as(exponent, self.dtype))


def float_power_(self: Tensor, exponent: Any) -> Tensor:
    """Mirrors `Tensor.float_power_`: self must already have the result's dtype."""
    dt = _float_power_dtype(self, exponent)
    if self.dtype is not dt:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {self.dtype._short} but the operation's "
            f"result requires dtype {dt._short}"
        )
    return _apply_inplace(_float_power_fn_, self, exponent)


def _np_ldexp(self: np.ndarray, other: np.ndarray, dtype: Any) -> np.ndarray:
    self = self.astype(dtype, copy=False)
    with np.errstate(all="ignore"):
        if other.dtype.kind in "iub":  # exact scaling: ldexp(0, 2000) is 0
            e = np.clip(other.astype(np.int64), -(2**31), 2**31 - 1).astype(np.int32)
            return np.ldexp(self, e)
        return np.multiply(self, np.power(self.dtype.type(2), other))


_LN2 = math.log(2.0)
# torch's grads are pow(2, other): an integer power for an integer exponent (2 ** -3 is 0)
_ldexp = defop(
    "ldexp.Tensor",
    "LdexpBackward0",
    _np_ldexp,
    dtype="keep",
    self=lambda grad, other: grad * _pow(2, other),
    other=lambda grad, self, other: grad * self * _LN2 * _pow(2.0, other),
    jvp=ELEMENTWISE,
)


def ldexp(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.ldexp` (input * 2 ** other)."""
    _need_tensor("ldexp", input, "input", 1)
    _need_tensor("ldexp", other)
    dt = result_type_of([input, other])
    if dt._cat < 2:
        dt = D.get_default_dtype()
    return _out(_ldexp(input, other, dt._np), out, "ldexp")


def _np_frexp(self: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if self.dtype.kind not in "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(self)
    return m, e.astype(np.int32, copy=False)


_frexp = defop(
    "frexp.Tensor",
    "FrexpBackward0",
    _np_frexp,
    dtype="keep",
    n_outputs=2,
    diff_outputs=(0,),
    self=lambda grads, result1: grads[0] / exp2(result1),
    jvp=lambda self_t, result: (self_t / exp2(result[1]), None),
)
return_types.frexp = _structseq("frexp", ("mantissa", "exponent"))  # type: ignore[attr-defined]


def frexp(input: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.frexp`: (mantissa, exponent) with input = mantissa * 2 ** exponent."""
    r = return_types.frexp(_frexp(input))  # type: ignore[attr-defined]
    if out is None:
        return r
    return return_types.frexp(  # type: ignore[attr-defined]
        (_out(r[0], out[0], "frexp"), _out(r[1], out[1], "frexp"))
    )


# --- in-place comparisons -------------------------------------------------------------------
# `x.eq_(y)` writes 0/1 in x's dtype; torch records it (EqBackward0 for a number, EqBackward1
# for a tensor) with zero grads for both operands.


def _zero_grad(grad: Tensor) -> Tensor:
    from .._creation import zeros_like

    return zeros_like(grad)


def _compare_ops(name: str, ufunc: Any) -> tuple[Any, Any]:
    def forward(self: np.ndarray, other: Any) -> np.ndarray:
        return ufunc(self, other).astype(self.dtype)

    title = name.capitalize()
    scalar = defop(
        f"{name}_.Scalar",
        f"{title}Backward0",
        forward,
        dtype="keep",
        nondiff=("other",),
        self=_zero_grad,
        jvp=ELEMENTWISE,
    )
    tensor = defop(
        f"{name}_.Tensor",
        f"{title}Backward1",
        forward,
        dtype="keep",
        self=_zero_grad,
        other=_zero_grad,
        jvp=ELEMENTWISE,
    )
    return scalar, tensor


def _compare_inplace(name: str, ufunc: Any) -> Any:
    scalar, tensor = _compare_ops(name, ufunc)

    def method(self: Tensor, other: Any) -> Tensor:
        return _apply_inplace(tensor if isinstance(other, Tensor) else scalar, self, other)

    method.__name__ = f"{name}_"
    method.__doc__ = f"Mirrors `Tensor.{name}_`."
    return method


_COMPARE_INPLACE = {
    name: _compare_inplace(name, ufunc)
    for name, ufunc in (
        ("eq", np.equal),
        ("ne", np.not_equal),
        ("lt", np.less),
        ("le", np.less_equal),
        ("gt", np.greater),
        ("ge", np.greater_equal),
    )
}
_COMPARE_ALIASES = {
    "greater_": "gt",
    "greater_equal_": "ge",
    "less_": "lt",
    "less_equal_": "le",
    "not_equal_": "ne",
}

# --- gcd, lcm, nextafter --------------------------------------------------------------------


def _int_kernel(name: str, ufunc: Any) -> Any:
    def forward(self: np.ndarray, other: np.ndarray) -> np.ndarray:
        dt = np.result_type(self, other)
        if dt.kind not in "iu":
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{D.from_numpy_dtype(dt)._short}'"
            )
        return ufunc(self, other)

    # integer-only and never differentiable: torch records no node
    op = defop(name, f"{name.capitalize()}NotRecorded", forward, nondiff=("self", "other"))

    def fn(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        _need_tensor(name, other)
        return _out(op(input, other), out, name)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`."
    return fn


gcd = _int_kernel("gcd", np.gcd)
lcm = _int_kernel("lcm", np.lcm)


def _np_nextafter(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    if self.dtype.kind != "f":
        raise NotImplementedError(
            f"\"nextafter_cpu\" not implemented for '{D.from_numpy_dtype(self.dtype)._short}'"
        )
    return np.nextafter(self, other)


# torch passes the gradient to self where self != other (0 where they are equal) and gives
# other a zero gradient
_nextafter = defop(
    "nextafter",
    "NextafterBackward0",
    _np_nextafter,
    self=lambda grad, self, other: grad * (self != other),
    other=_zero_grad,
    jvp=lambda self, other, self_t: None if self_t is None else self_t * (self != other),
)


def nextafter(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.nextafter`."""
    _need_tensor("nextafter", other)
    return _out(_nextafter(input, other), out, "nextafter")


# --- dist, inner, vdot, addr ----------------------------------------------------------------


def _np_dist(self: np.ndarray, other: np.ndarray, p: float) -> np.ndarray:
    d = np.subtract(self, other)
    return np.asarray(_vector_norm_fwd(d, p, tuple(range(d.ndim)), False), self.dtype)


def _dist_grad(grad: Tensor, self: Tensor, other: Tensor, p: float, result: Tensor) -> Any:
    d = self - other
    return _norm_backward(grad, d, p, result, tuple(range(d.ndim)), False)


def _dist_other_grad(grad: Tensor, self: Tensor, other: Tensor, p: float, result: Tensor):
    g = _dist_grad(grad, self, other, p, result)
    return None if g is None else -g


_dist = defop(
    "dist",
    "DistBackward0",
    _np_dist,
    self=_dist_grad,
    other=_dist_other_grad,
    jvp=lambda self, other, p, self_t, other_t, result: _vector_norm_t(
        self - other,
        p,
        tuple(range(max(self.ndim, other.ndim))),
        False,
        _tangent_diff(self, other, self_t, other_t),
        result,
    ),
)


def _tangent_diff(self: Tensor, other: Tensor, self_t: Any, other_t: Any) -> Tensor:
    from .._creation import zeros_like

    zero = zeros_like(self - other)
    return zero + (0 if self_t is None else self_t) - (0 if other_t is None else other_t)


def dist(input: Tensor, other: Tensor, p: Any = 2) -> Tensor:
    """Mirrors `torch.dist`: the p-norm of input - other."""
    _need_tensor("dist", other)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{input.dtype._short} instead."
        )
    return _dist(input, other, float(p))


def inner(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.inner`: a product for a 0-d operand, else a contraction of the last dims
    (for two vectors torch's tensordot takes a dot: ViewBackward0 of DotBackward0)."""
    from .linalg import dot, tensordot

    if input.ndim == 0 or other.ndim == 0:
        return _out(input * other, out, "inner")
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input.shape)} and {list(other.shape)}"
        )
    if input.ndim == 1 and other.ndim == 1:
        return _out(dot(input.permute(0), other.permute(0)).view(()), out, "inner")
    return _out(tensordot(input, other, ([-1], [-1])), out, "inner")


_vdot = defop(
    "vdot",
    "VdotBackward0",
    lambda self, other: np.asarray(np.vdot(self, other) + 0),
    dtype="keep",
    self=lambda grad, other: grad.conj() * other,
    other=lambda grad, self: grad * self,
    jvp=lambda self, other, self_t, other_t: _sum_terms(
        None if self_t is None else (self_t.conj() * other).sum(),
        None if other_t is None else (self.conj() * other_t).sum(),
    ),
)


def _sum_terms(a: Any, b: Any) -> Any:
    return b if a is None else a if b is None else a + b


def vdot(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.vdot`: sum(conj(input) * other) of two vectors."""
    from .linalg import dot

    dot(input.detach(), other.detach())  # torch's checks: 1-d, same dtype, same length
    return _out(_vdot(input, other), out, "vdot")


def _np_addr(self: np.ndarray, vec1: np.ndarray, vec2: np.ndarray, beta: Any, alpha: Any):
    prod = np.multiply.outer(vec1, vec2)
    if self.dtype == np.bool_:
        r = (prod & bool(alpha)) | (self & bool(beta))
    else:
        prod = prod if alpha == 1 else prod * alpha
        r = prod if beta == 0 else prod + (self if beta == 1 else self * beta)
    return np.broadcast_to(r, prod.shape).astype(self.dtype, copy=True)


def _addr_t(
    self: Tensor,
    vec1: Tensor,
    vec2: Tensor,
    beta: Any,
    alpha: Any,
    self_t: Any,
    vec1_t: Any,
    vec2_t: Any,
) -> Any:
    from .linalg import outer

    r = None if self_t is None or beta == 0 else self_t * beta
    if vec1_t is not None:
        r = _sum_terms(r, outer(vec1_t, vec2) * alpha)
    if vec2_t is not None:
        r = _sum_terms(r, outer(vec1, vec2_t) * alpha)
    return r


_addr = defop(
    "addr",
    "AddrBackward0",
    _np_addr,
    self=lambda grad, beta: grad if beta == 1 else grad * beta,
    vec1=lambda grad, vec2, alpha: grad.mv(vec2) if alpha == 1 else grad.mv(vec2) * alpha,
    vec2=lambda grad, vec1, alpha: grad.t().mv(vec1) if alpha == 1 else grad.t().mv(vec1) * alpha,
    jvp=_addr_t,
)


def _check_addr(input: Tensor, vec1: Tensor, vec2: Tensor, beta: Any, alpha: Any) -> None:
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    dt = result_type_of([input, vec1, vec2])
    if dt._cat < 2:
        for name, v in (("beta", beta), ("alpha", alpha)):
            if isinstance(v, float):
                raise RuntimeError(
                    f"For integral input tensors, argument {name} must not be a floating point "
                    "number."
                )
    shape = (vec1.shape[0], vec2.shape[0])
    try:
        if np.broadcast_shapes(tuple(input.shape), shape) != shape:
            raise ValueError
    except ValueError:
        raise RuntimeError(
            f"The expanded size of the tensor ({shape[1]}) must match the existing size "
            f"({input.shape[-1]}) at non-singleton dimension {input.ndim - 1}.  Target sizes: "
            f"{list(shape)}.  Tensor sizes: {list(input.shape)}"
        ) from None


def addr(
    input: Tensor,
    vec1: Tensor,
    vec2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.addr`: beta * input + alpha * outer(vec1, vec2)."""
    _check_addr(input, vec1, vec2, beta, alpha)
    return _out(_addr(input, vec1, vec2, beta, alpha), out, "addr")


def _addr_fn_(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Any, alpha: Any) -> Tensor:
    return _addr(self, vec1, vec2, beta, alpha)


def addr_(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """Mirrors `Tensor.addr_`."""
    if self.ndim == 2 and tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
        raise RuntimeError(
            f"size mismatch, input: {list(self.shape)}, v1: {list(vec1.shape)}, v2: "
            f"{list(vec2.shape)}"
        )
    _check_addr(self, vec1, vec2, beta, alpha)
    return _apply_inplace(_addr_fn_, self, vec1, vec2, beta, alpha)


# --- torch.special: erfcx, log_ndtr, ndtri, xlog1py, zeta, incomplete gamma -----------------

_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)
_SQRT_HALF = math.sqrt(0.5)


def _erfc64(x: np.ndarray) -> np.ndarray:
    from .pointwise import _ERFC

    return np.asarray(_ERFC(_f64(x)), np.float64)


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
    self=lambda grad, self, result: (2.0 * self * result - 2.0 / _SQRT_PI) * grad,
    jvp=ELEMENTWISE,
)
log_ndtr = defop(
    "special_log_ndtr",
    "SpecialLogNdtrBackward0",
    _float_only_kernel(_log_ndtr64, "log_ndtr_cpu"),
    dtype="float",
    self=lambda grad, self, result: grad / _SQRT_2PI * (-(result + self * self * 0.5)).exp(),
    jvp=ELEMENTWISE,
)
ndtri = defop(
    "special_ndtri",
    "SpecialNdtriBackward0",
    _float_only_kernel(_ndtri64, "ndtri_cpu"),
    dtype="float",
    self=lambda grad, result: grad * _SQRT_2PI * (result * result * 0.5).exp(),
    jvp=ELEMENTWISE,
)


@np.errstate(all="ignore")
def _np_xlog1py(self: np.ndarray, other: Any) -> np.ndarray:
    # torch: nan if other is nan, else 0 where self == 0, else self * log1p(other)
    _not_for("xlog1py_cpu", self, "c")
    other = np.asarray(other, self.dtype)  # a Python scalar from the fast path
    r = np.where(self == 0, 0, self * np.log1p(other))
    return np.where(np.isnan(other), np.nan, r).astype(self.dtype, copy=False)


def _xlog1py_self_grad(grad: Tensor, self: Tensor, other: Any) -> Tensor:
    # xlog1py(grad, other), zeroed where self == 0 and other <= -1
    if isinstance(other, Tensor):
        return _where((self == 0) & (other <= -1), 0.0, _xlog1py(grad, other))
    r = _xlog1py_scalar_other(grad, other)
    return _where(self == 0, 0.0, r) if other <= -1 else r


def _xlog1py_other_grad(grad: Tensor, self: Any, other: Tensor) -> Tensor:
    return grad * self / (other + 1)


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
        _need_tensor(name, other)
        return _out(op(input, other), out, name)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `torch.{name}` (the regularized incomplete gamma function)."
    return fn


igamma = _igamma_fn(igamma_op, "igamma")
igammac = _igamma_fn(igammac_op, "igammac")
gammainc = _igamma_fn(igamma_op, "special_gammainc")
gammaincc = _igamma_fn(igammac_op, "special_gammaincc")


# --- Bessel functions of the first and second kind, K, Airy ---------------------------------

_EULER = 0.57721566490153286061


def _hankel_pq(x: np.ndarray, nu: int, terms: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """The P and Q sums of Hankel's large-x expansion of J_nu and Y_nu (x >= 25: the smallest
    term is below e^-2x)."""
    mu = 4.0 * nu * nu
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 2 * terms):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        if k % 2:
            q = q + (term if k % 4 == 1 else -term)
        else:
            p = p + (term if k % 4 == 0 else -term)
    return p, q


def _miller_jy(x: np.ndarray) -> tuple[np.ndarray, ...]:
    """J0, J1, Y0, Y1 for 1e-100 < x < 25 by Miller's backward recurrence, normalized by
    J0 + 2 (J2 + J4 + ...) = 1; Y0 and Y1 from Neumann's series in the same J_k."""
    top = 80  # J_80(25) is ~1e-30 of the normalization
    hi, cur = np.zeros_like(x), np.full_like(x, 1e-300)
    norm = np.zeros_like(x)  # 2 sum J_2k, k >= 1
    y0s = np.zeros_like(x)  # sum_k (-1)^k J_2k / k
    y1s = np.zeros_like(x)  # sum_k (-1)^k (J_2k-1 - J_2k+1) / k
    for k in range(top, 0, -1):
        lo = (2.0 * k / x) * cur - hi  # J_{k-1}
        if k % 2 == 0:
            m = k // 2
            sgn = 1.0 if m % 2 == 0 else -1.0
            norm = norm + 2.0 * cur
            y0s = y0s + sgn * cur / m
            y1s = y1s + sgn * (lo - hi) / m
        big = np.abs(lo) > 1e150
        if big.any():
            s = np.where(big, 1e-150, 1.0)
            lo, cur, norm, y0s, y1s = lo * s, cur * s, norm * s, y0s * s, y1s * s
        hi, cur = cur, lo
    # after the loop: cur = J0 (unnormalized), hi = J1
    norm = norm + cur
    j0, j1 = cur / norm, hi / norm
    log_term = np.log(x * 0.5) + _EULER
    y0 = (2.0 / math.pi) * (log_term * j0 - 2.0 * y0s / norm)
    y1 = (2.0 / math.pi) * (log_term * j1 - j0 / x + y1s / norm)
    return j0, j1, y0, y1


def _jy64(x: np.ndarray, nu: int, second: bool) -> np.ndarray:
    """J_nu (Y_nu when second) for nu = 0, 1, with torch's values off the domain: nan at
    +-inf, and for Y, -inf at 0 and -0 and nan below 0."""
    dt = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    x = _f64(x)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        tiny = ax < 1e-100
        mid = ~tiny & (ax < 25.0)
        xm = np.where(mid, ax, 1.0)
        r = _miller_jy(xm)[2 * second + nu]
        xl = np.where(ax >= 25.0, ax, 25.0)
        p, q = _hankel_pq(xl, nu)
        # the phase rounded in the input's dtype, as torch's, so that huge x agree
        chi = _f64(xl.astype(dt) - dt.type((0.75 if nu else 0.25) * math.pi))
        c, s = np.cos(chi), np.sin(chi)
        big = (p * s + q * c) if second else (p * c - q * s)
        r = np.where(mid, r, big * math.sqrt(2.0 / math.pi) / np.sqrt(xl))
        r = np.where(np.isnan(x), np.nan, r)
        xt = np.where(tiny, ax, 1.0)
        if second:
            small = (
                (2.0 / math.pi) * (np.log(xt * 0.5) + _EULER) if nu == 0 else -2.0 / (math.pi * xt)
            )
            r = np.where(tiny, small, r)
            r = np.where(ax == 0, -np.inf, r)
            return np.where((x < 0) | np.isinf(x), np.nan, r)
        r = np.where(tiny, xt * 0.5 if nu else 1.0, r)
        if nu == 1:  # odd: J1(-x) = -J1(x)
            r = np.where(np.signbit(x), -r, r)
        return np.where(np.isinf(x), np.nan, r)


def _k_integral(x: np.ndarray, nu: float, h: float, top: float) -> np.ndarray:
    """e^x K_nu(x) = int_0^inf e^(-x (cosh t - 1)) cosh(nu t) dt by the trapezoidal rule, which
    converges geometrically here (the integrand is entire and decays doubly exponentially)."""
    t = np.arange(0.0, top, h)
    w = np.full(t.shape, h)
    w[0] = h / 2
    e = np.exp(-x[..., None] * (np.cosh(t) - 1.0)) * np.cosh(nu * t)
    return e @ w


def _k_asymptotic(x: np.ndarray, nu: int) -> np.ndarray:
    """e^x K_nu(x) for x >= 25: sqrt(pi / 2x) sum_k a_k(nu) / x^k."""
    mu = 4.0 * nu * nu
    term, total = np.ones_like(x), np.ones_like(x)
    for k in range(1, 60):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total = total + term
    return total * np.sqrt(math.pi / (2.0 * x))


def _k_series(x: np.ndarray, nu: int) -> np.ndarray:
    """K_nu(x) for 0 < x <= 2 from the power series of I_nu and its log term."""
    q = x * x * 0.25
    log_term = np.log(x * 0.5)
    if nu == 0:  # K0 = -(log(x/2) + gamma) I0 + sum q^k / k!^2 H_k
        term, total, harmonic = np.ones_like(x), np.zeros_like(x), 0.0
        for k in range(1, 40):
            term = term * q / (k * k)
            harmonic += 1.0 / k
            total = total + term * harmonic
        return total - (log_term + _EULER) * _bessel_series(x, 0)
    # K1 = 1/x + log(x/2) I1 - x/4 sum (psi(k+1) + psi(k+2)) q^k / (k! (k+1)!)
    term, total, psi1, psi2 = np.ones_like(x), np.zeros_like(x), -_EULER, 1.0 - _EULER
    for k in range(40):
        if k:
            term = term * q / (k * (k + 1))
            psi1, psi2 = psi2, psi2 + 1.0 / (k + 1)
        total = total + term * (psi1 + psi2)
    return 1.0 / x + log_term * _bessel_series(x, 1) - 0.25 * x * total


def _k64(x: np.ndarray, nu: int, scaled: bool) -> np.ndarray:
    """K_nu (e^x K_nu when scaled) for nu = 0, 1: inf at 0 and -0, nan below 0, 0 at inf."""
    x = _f64(x)
    with np.errstate(all="ignore"):
        small = x <= 2.0
        xs = np.where(small & (x > 0), x, 1.0)
        s = _k_series(xs, nu)
        if scaled:
            s = s * np.exp(xs)
        mid = ~small & (x < 25.0)
        xm = np.where(mid, x, 3.0)
        big = np.where(mid, _k_integral(xm, nu, 0.1, 7.0), _k_asymptotic(np.maximum(x, 25.0), nu))
        if not scaled:
            big = big * np.exp(-np.where(mid, xm, np.maximum(x, 25.0)))
        r = np.where(small, s, big)
        r = np.where(x == 0, np.inf, r)
        r = np.where(x == np.inf, 0.0, r)
        return np.where(x < 0, np.nan, r)


# --- orthogonal polynomials -----------------------------------------------------------------
# Each follows torch's kernel: n is truncated to an integer (nan and inf count as negative),
# n < 0 gives 0, the values at the interval's ends are exact, and for Chebyshev polynomials
# of large n inside the interval torch switches from the three-term recurrence to the
# trigonometric form. Everything is computed in the result's dtype, as torch does.


def _recurrence(n: np.ndarray, p: Any, q: Any, step: Any) -> Any:
    """q_n of q_{k+1} = step(k, q_k, q_{k-1}) from q_0 = p, q_1 = q, per element's n >= 1."""
    top = int(n.max()) if n.size else 0
    for k in range(1, top):
        r = step(k, q, p)
        live = n > k
        p, q = np.where(live, q, p), np.where(live, r, q)
    return q


def _poly_eval(n: np.ndarray, x: Any, first: Any, step: Any) -> Any:
    one = np.ones_like(x)
    r = _recurrence(np.maximum(n, 1), one, first, step)
    return np.where(n == 0, one, r)


def _cheb_step(t: Any) -> Any:
    return lambda k, q, p: (t + t) * q - p


def _np_cheb(kind: str, shifted: bool, x: Any, n: Any) -> Any:
    t = x + x - 1 if shifted else x
    one = np.ones_like(x)
    first = {"t": t, "u": t + t, "v": t + t - 1, "w": t + t + 1}[kind]
    r = _poly_eval(n, x, first, _cheb_step(t))
    big = n > (4 if shifted and kind == "w" else 6 if shifted or kind == "t" else 8)
    with np.errstate(all="ignore"):
        a = np.arccos(t)
        nf = n.astype(x.dtype)
        odd = n % 2 == 1
        alt = np.where(odd, -one, one)
        if kind == "t":
            trig = np.cos(nf * a)
        elif kind == "u":
            sa = np.sin(a)
            trig = np.where(sa != 0, np.sin((nf + 1) * a) / sa, (nf + 1) * np.cos((nf + 1) * a) / t)
        elif kind == "v":
            trig = np.where(
                np.sin(a / 2) != 1, np.cos((nf + 0.5) * a) / np.cos(a / 2), alt * (nf + nf + 1)
            )
        else:
            end = alt if shifted else np.where(t > 0, nf + nf + 1, alt)
            trig = np.where(np.cos(a / 2) != 1, np.sin((nf + 0.5) * a) / np.sin(a / 2), end)
    r = np.where(big & (np.abs(t) < 1), trig, r)
    # the exact ends: t = 1 and t = -1 (x = 1 and x = 0 when shifted)
    hi = {"t": one, "u": nf + 1, "v": one, "w": nf + nf + 1}[kind]
    lo = {"t": alt, "u": alt * (nf + 1), "v": alt * (nf + nf + 1), "w": alt}[kind]
    if shifted:
        r = np.where(x == 0, lo, np.where(x == 1, hi, r))
    else:
        r = np.where(x == -1, lo, np.where(x == 1, hi, r))
    return r


def _np_hermite_h(x: Any, n: Any) -> Any:
    return _poly_eval(n, x, x + x, lambda k, q, p: (x + x) * q - (k + k) * p)


def _np_hermite_he(x: Any, n: Any) -> Any:
    return _poly_eval(n, x, x, lambda k, q, p: x * q - k * p)


def _np_laguerre(x: Any, n: Any) -> Any:
    r = _poly_eval(n, x, 1 - x, lambda k, q, p: (((k + k) + (1 - x)) * q - k * p) / (k + 1))
    return np.where(x == 0, np.ones_like(x), r)


def _np_legendre(x: Any, n: Any) -> Any:
    r = _poly_eval(n, x, x, lambda k, q, p: ((k + k + 1) * x * q - k * p) / (k + 1))
    one = np.ones_like(x)
    return np.where(x == 1, one, np.where(x == -1, np.where(n % 2 == 1, -one, one), r))


def _spherical_j0_64(x: np.ndarray) -> np.ndarray:
    x = _f64(x)
    with np.errstate(all="ignore"):
        r = np.where(x == 0, 1.0, np.sin(x) / x)
        return np.where(np.isinf(x), 0.0, r)


def _modified_i64(x: np.ndarray, nu: int) -> np.ndarray:
    r = _bessel64(x, nu, False)
    if x.dtype == np.float32:  # torch's float kernel overflows in exp(|x|) first
        over = np.isfinite(x) & (np.abs(x) > np.log(np.finfo(np.float32).max))
        r = np.where(over, np.copysign(np.inf, r) if nu else np.inf, r)
    return r


# torch records no graph for these: the result never requires grad
_BESSEL_KERNELS: dict[str, Any] = {
    "bessel_j0": lambda x: _jy64(x, 0, False),
    "bessel_j1": lambda x: _jy64(x, 1, False),
    "bessel_y0": lambda x: _jy64(x, 0, True),
    "bessel_y1": lambda x: _jy64(x, 1, True),
    "modified_bessel_i0": lambda x: _modified_i64(x, 0),
    "modified_bessel_i1": lambda x: _modified_i64(x, 1),
    "modified_bessel_k0": lambda x: _k64(x, 0, False),
    "modified_bessel_k1": lambda x: _k64(x, 1, False),
    "scaled_modified_bessel_k0": lambda x: _k64(x, 0, True),
    "scaled_modified_bessel_k1": lambda x: _k64(x, 1, True),
    "spherical_bessel_j0": _spherical_j0_64,
}


def _not_recorded(name: str) -> str:
    return "".join(w.capitalize() for w in name.split("_")) + "NotRecorded"


BESSEL: dict[str, Any] = {
    name: _unary_out(
        defop(
            f"special_{name}",
            _not_recorded(name),
            _float_only_kernel(fn, f"{name}_cpu"),
            dtype="float",
            nondiff=("self",),
        ),
        f"special_{name}",
    )
    for name, fn in _BESSEL_KERNELS.items()
}


def _poly_kernel(name: str, fn: Any) -> Any:
    def forward(x: Any, n: Any) -> np.ndarray:
        dt = np.result_type(x, n)
        x, n = np.asarray(x, dt), np.asarray(n, dt)
        for a in (x, n):
            _not_for(f"{name}_cpu", a, "c")
            _not_half(f"{name}_cpu", a)
        x, n = np.broadcast_arrays(x, n)
        with np.errstate(all="ignore"):
            # torch casts n to int64: truncation, and nan, inf and overflow become negative
            ok = np.abs(n) < 2.0**62
            ni = np.where(ok, np.trunc(np.where(ok, n, -1)), -1).astype(np.int64)
            r = fn(x, np.maximum(ni, 0))
            return np.where(ni < 0, np.zeros_like(x), r).astype(dt, copy=False)

    return forward


_POLY_KERNELS: dict[str, Any] = {
    **{f"chebyshev_polynomial_{k}": partial(_np_cheb, k, False) for k in "tuvw"},
    **{f"shifted_chebyshev_polynomial_{k}": partial(_np_cheb, k, True) for k in "tuvw"},
    "hermite_polynomial_h": _np_hermite_h,
    "hermite_polynomial_he": _np_hermite_he,
    "laguerre_polynomial_l": _np_laguerre,
    "legendre_polynomial_p": _np_legendre,
}
_POLY_SIGS = (
    "Tensor x, Tensor n, *, Tensor out = None",
    "Number x, Tensor n, *, Tensor out = None",
    "Tensor x, Number n, *, Tensor out = None",
)


def _poly_fn(name: str, fn: Any) -> Any:
    op = defop(
        f"special_{name}",
        _not_recorded(name),
        _poly_kernel(name, fn),
        dtype="float",
        nondiff=("x", "n"),
    )

    def poly(x: Any, n: Any, *, out: Tensor | None = None) -> Tensor:
        if not isinstance(x, Tensor) and not isinstance(n, Tensor):
            raise _invalid_combination(f"special_{name}", (x, n), _POLY_SIGS)
        return _out(op(x, n), out, f"special_{name}")

    poly.__name__ = name
    poly.__doc__ = f"Mirrors `torch.special.{name}`."
    return poly


POLYNOMIALS: dict[str, Any] = {name: _poly_fn(name, fn) for name, fn in _POLY_KERNELS.items()}


# --- exports --------------------------------------------------------------------------------

_UNARY = {
    "lgamma": lgamma,
    "digamma": digamma,
    "i0": i0,
    "sinc": sinc,
    "deg2rad": deg2rad,
    "rad2deg": rad2deg,
}
FUNCTIONS: dict[str, Any] = {
    **{name: _unary_out(op, name) for name, op in _UNARY.items()},
    "polygamma": polygamma,
    "mvlgamma": mvlgamma,
    "float_power": float_power,
    "ldexp": ldexp,
    "frexp": frexp,
    "gcd": gcd,
    "lcm": lcm,
    "nextafter": nextafter,
    "dist": dist,
    "inner": inner,
    "vdot": vdot,
    "addr": addr,
    "igamma": igamma,
    "igammac": igammac,
}
METHODS: dict[str, Any] = {
    **_UNARY,
    "polygamma": _polygamma_method,
    "mvlgamma": mvlgamma,
    "polygamma_": _polygamma_,
    "float_power": float_power,
    "float_power_": float_power_,
    "ldexp": ldexp,
    "frexp": frexp,
    "gcd": gcd,
    "lcm": lcm,
    "nextafter": nextafter,
    "dist": dist,
    "inner": inner,
    "vdot": vdot,
    "addr": addr,
    "addr_": addr_,
    "igamma": igamma,
    "igammac": igammac,
}


def _inplace_methods() -> dict[str, Any]:
    from .inplace import make_inplace

    m = {name + "_": make_inplace(op) for name, op in _UNARY.items()}
    m["mvlgamma_"] = make_inplace(mvlgamma)
    m["ldexp_"] = make_inplace(ldexp)
    m["igamma_"] = make_inplace(igamma)
    m["igammac_"] = make_inplace(igammac)
    for name in ("gcd", "lcm", "nextafter"):
        m[name + "_"] = make_inplace(FUNCTIONS[name])
    m.update({name + "_": fn for name, fn in _COMPARE_INPLACE.items()})
    m.update({alias: _COMPARE_INPLACE[name] for alias, name in _COMPARE_ALIASES.items()})
    return m


METHODS.update(_inplace_methods())
FUNCTIONS["gcd_"], FUNCTIONS["lcm_"] = METHODS["gcd_"], METHODS["lcm_"]
