"""The Bessel and Airy functions: i0, i0e, i1, i1e (differentiable), torch.special's J0, J1, Y0,
Y1, I0, I1, K0, K1 (scaled too), spherical j0 and airy_ai (never recorded, as in torch), and sinc
(the spherical j0 of pi x, normalized as numpy's).

numpy has no Bessel functions: each is a vectorized series for small arguments and an asymptotic
expansion for large ones (with Miller's recurrence or a trapezoidal integral between), computed
in float64 and rounded once to the input's dtype, with torch's values at 0 and infinities.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from ..autograd.forward_ad import ELEMENTWISE
from .pointwise import _mul_scalar, _sign, _unary_out, _where, defop
from .special import _f64, _float_kernel, _float_only_kernel, _not_recorded

# --- float64 kernels ------------------------------------------------------------------------


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


# --- modified Bessel functions --------------------------------------------------------------


def _tiny_safe(self: Tensor) -> tuple[Tensor, Tensor]:
    """(|self| <= eps, self with those replaced by eps): torch's guard for the 0/0 at 0."""
    eps = float(D.np_finfo(self._data.dtype).eps)
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


# cephes' asymptotic coefficients for J0/Y0 and J1/Y1 above 5, as torch's kernels evaluate them
# (Horner's rule from 0: cephes' implicit leading 1 of QQ is dropped, which puts torch's values
# up to ~1e-6 off J and Y just above 5; matched here, up to 25, where they agree again)
_JY_PP = (
    (
        +7.96936729297347051624e-04, +8.28352392107440799803e-02, +1.23953371646414299388e00,
        +5.44725003058768775090e00, +8.74716500199817011941e00, +5.30324038235394892183e00,
        +9.99999999999999997821e-01,
    ),
    (
        +7.62125616208173112003e-04, +7.31397056940917570436e-02, +1.12719608129684925192e00,
        +5.11207951146807644818e00, +8.42404590141772420927e00, +5.21451598682361504063e00,
        +1.00000000000000000254e00,
    ),
)  # fmt: skip
_JY_PQ = (
    (
        +9.24408810558863637013e-04, +8.56288474354474431428e-02, +1.25352743901058953537e00,
        +5.47097740330417105182e00, +8.76190883237069594232e00, +5.30605288235394617618e00,
        +1.00000000000000000218e00,
    ),
    (
        +5.71323128072548699714e-04, +6.88455908754495404082e-02, +1.10514232634061696926e00,
        +5.07386386128601488557e00, +8.39985554327604159757e00, +5.20982848682361821619e00,
        +9.99999999999999997461e-01,
    ),
)  # fmt: skip
_JY_QP = (
    (
        -1.13663838898469149931e-02, -1.28252718670509318512e00, -1.95539544257735972385e01,
        -9.32060152123768231369e01, -1.77681167980488050595e02, -1.47077505154951170175e02,
        -5.14105326766599330220e01, -6.05014350600728481186e00,
    ),
    (
        +5.10862594750176621635e-02, +4.98213872951233449420e00, +7.58238284132545283818e01,
        +3.66779609360150777800e02, +7.10856304998926107277e02, +5.97489612400613639965e02,
        +2.11688757100572135698e02, +2.52070205858023719784e01,
    ),
)  # fmt: skip
_JY_QQ = (
    (
        +6.43178256118178023184e01, +8.56430025976980587198e02, +3.88240183605401609683e03,
        +7.24046774195652478189e03, +5.93072701187316984827e03, +2.06209331660327847417e03,
        +2.42005740240291393179e02,
    ),
    (
        +7.42373277035675149943e01, +1.05644886038262816351e03, +4.98641058337653607651e03,
        +9.56231892404756170795e03, +7.99704160447350683650e03, +2.82619278517639096600e03,
        +3.36093607810698293419e02,
    ),
)  # fmt: skip


def _jy_band(ax: np.ndarray, nu: int, second: bool) -> np.ndarray:
    """J_nu or Y_nu at ax > 5 by torch's rational asymptotic form (see _JY_PP)."""
    z = 25.0 / (ax * ax) if nu == 0 else 5.0 / ax * (5.0 / ax)
    p = _horner(_JY_PP[nu], z) / _horner(_JY_PQ[nu], z)
    q = 5.0 / ax * (_horner(_JY_QP[nu], z) / _horner(_JY_QQ[nu], z))
    chi = ax - (
        2.356194490192344928846982537459627163 if nu else 0.785398163397448309615660845819875721
    )
    c, s = np.cos(chi), np.sin(chi)
    return (
        ((p * s + q * c) if second else (p * c - q * s))
        * 0.797884560802865355879892119868763737
        / np.sqrt(ax)
    )


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
        band = (ax > 5.0) & (ax < 25.0)
        r = np.where(band, _jy_band(np.where(band, ax, 6.0), nu, second), r)
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
    # torch's K1 and scaled K0 kernels compute log(x / 2) in the input's dtype: where x / 2
    # underflows to 0 (the least float32 subnormal) K1 is nan (-inf * I1(x) = -inf * 0) and
    # scaled K0 inf; float64's least subnormal does so by itself
    vanish = (x > 0) & (x * x.dtype.type(0.5) == 0) if nu == 1 or scaled else None
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
        if vanish is not None:
            r = np.where(vanish, np.nan if nu == 1 else np.inf, r)
        return np.where(x < 0, np.nan, r)


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


# --- Airy function Ai -----------------------------------------------------------------------
# Ai'' = x Ai. Between -10 and 1, a Taylor series about the nearest point of a grid (spacing
# 1/4) whose values and slopes were stepped out from Ai(0) and Ai'(0) with the same ODE: on this
# side both solutions stay bounded, so the stepping neither loses nor amplifies digits. Above 1,
# Ai(x) = sqrt(x / 3) K_1/3(zeta) / pi (zeta = 2/3 x^3/2) by K's integral, then the asymptotic
# series past 10; below -10, the oscillatory asymptotic series.

_AIRY_STEP, _AIRY_LO, _AIRY_HI = 0.25, -10.0, 1.0
_AIRY_TERMS = 24


def _airy_taylor(x0: float, y: float, dy: float) -> list[float]:
    """Taylor coefficients y^(n)(x0) / n! of the solution of y'' = x y with y, y' at x0."""
    t = [y, dy, x0 * y / 2.0]
    for n in range(1, _AIRY_TERMS - 2):
        t.append((x0 * t[n] + t[n - 1]) / ((n + 1) * (n + 2)))
    return t


def _airy_grid() -> tuple[np.ndarray, np.ndarray]:
    """(grid points, their Taylor coefficients), stepped from Ai(0) and Ai'(0) both ways."""
    y0 = 3.0 ** (-2.0 / 3.0) / math.gamma(2.0 / 3.0)
    dy0 = -(3.0 ** (-1.0 / 3.0)) / math.gamma(1.0 / 3.0)
    rows = {0: _airy_taylor(0.0, y0, dy0)}
    for sign, end in ((-1, round(-_AIRY_LO / _AIRY_STEP)), (1, round(_AIRY_HI / _AIRY_STEP))):
        t = rows[0]
        for k in range(1, end + 1):
            h = sign * _AIRY_STEP
            y = math.fsum(c * h**n for n, c in enumerate(t))
            dy = math.fsum(n * c * h ** (n - 1) for n, c in enumerate(t) if n)
            t = rows[sign * k] = _airy_taylor(sign * k * _AIRY_STEP, y, dy)
    keys = sorted(rows)
    return np.array(keys) * _AIRY_STEP, np.array([rows[k] for k in keys])


_AIRY_X0, _AIRY_T = _airy_grid()


def _airy_u(terms: int) -> list[float]:
    """u_k of the asymptotic series: Gamma(3k + 1/2) / (54^k k! Gamma(k + 1/2))."""
    u = [1.0]
    for k in range(1, terms):
        u.append(u[-1] * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216.0 * k))
    return u


_AIRY_U = _airy_u(24)


def _airy_mid(x: np.ndarray) -> np.ndarray:
    i = np.rint((x - _AIRY_LO) / _AIRY_STEP).astype(np.int64)
    h = x - _AIRY_X0[i]
    t = _AIRY_T[i]
    r = t[..., -1]
    for n in range(_AIRY_TERMS - 2, -1, -1):
        r = r * h + t[..., n]
    return r


def _airy_right(x: np.ndarray) -> np.ndarray:
    """Ai(x) for x > 1: e^zeta K_1/3(zeta) by K's integral up to 10, the series beyond."""
    zeta = x * np.sqrt(x) * (2.0 / 3.0)
    near = x <= 10.0
    kz = _k_integral(np.where(near, zeta, 1.0), 1.0 / 3.0, 0.1, 7.0) * np.sqrt(x / 3.0) / math.pi
    zf = np.where(near, 25.0, zeta)
    s, term = np.ones_like(x), np.ones_like(x)
    for u in _AIRY_U[1:]:
        term = -term / zf
        s = s + u * term
    far = s / (2.0 * math.sqrt(math.pi) * np.sqrt(np.sqrt(x)))
    return np.where(near, kz, far) * np.exp(-zeta)


def _airy_left(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Ai(x) for x < -10: (sin(theta) P - cos(theta) Q) / (sqrt(pi) |x|^1/4), theta = zeta +
    pi/4, with zeta and theta rounded in the input's dtype, as torch's kernel computes them, so
    that huge |x| agree."""
    a = -x
    zeta = a * np.sqrt(a) * (2.0 / 3.0)
    p, q, term = np.ones_like(x), np.zeros_like(x), np.ones_like(x)
    for k, u in enumerate(_AIRY_U[1:], 1):
        term = term / zeta
        sgn = -1.0 if k // 2 % 2 else 1.0  # P and Q alternate in sign, term by term
        if k % 2:
            q = q + sgn * u * term
        else:
            p = p + sgn * u * term
    ad = a.astype(dt)
    td = np.sqrt(ad)
    theta = _f64((dt.type(2.0) * ad * td / dt.type(3.0)) + dt.type(math.pi / 4))
    return (np.sin(theta) * p - np.cos(theta) * q) / (math.sqrt(math.pi) * np.sqrt(np.sqrt(a)))


# cephes' rational asymptotic coefficients for Ai(x), x < -2.09, as torch's airy_ai kernel
# evaluates them: each polynomial by Horner's rule from 0 (without cephes' implicit leading 1 in
# the denominators, which puts torch's values up to ~2e-6 off Ai near -2.5; matched here)
_AFN = (
    -1.31696323418331795333e-01, -6.26456544431912369773e-01, -6.93158036036933542233e-01,
    -2.79779981545119124951e-01, -4.91900132609500318020e-02, -4.06265923594885404393e-03,
    -1.59276496239262096340e-04, -2.77649108155232920844e-06, -1.67787698489114633780e-08,
)  # fmt: skip
_AFD = (
    +1.33560420706553243746e01, +3.26825032795224613948e01, +2.67367040941499554804e01,
    +9.18707402907259625840e00, +1.47529146771666414581e00, +1.15687173795188044134e-01,
    +4.40291641615211203805e-03, +7.54720348287414296618e-05, +4.51850092970580378464e-07,
)  # fmt: skip
_AGN = (
    +1.97339932091685679179e-02, +3.91103029615688277255e-01, +1.06579897599595591108e00,
    +9.39169229816650230044e-01, +3.51465656105547619242e-01, +6.33888919628925490927e-02,
    +5.85804113048388458567e-03, +2.82851600836737019778e-04, +6.98793669997260967291e-06,
    +8.11789239554389293311e-08, +3.41551784765923618484e-10,
)  # fmt: skip
_AGD = (
    +9.30892908077441974853e00, +1.98352928718312140417e01, +1.55646628932864612953e01,
    +5.47686069422975497931e00, +9.54293611618961883998e-01, +8.64580826352392193095e-02,
    +4.12656523824222607191e-03, +1.01259085116509135510e-04, +1.17166733214413521882e-06,
    +4.91834570062930015649e-09,
)  # fmt: skip


def _horner(coeffs: tuple[float, ...], v: np.ndarray) -> np.ndarray:
    r = np.zeros_like(v)
    for c in coeffs:
        r = r * v + c
    return r


def _airy_neg(x: np.ndarray) -> np.ndarray:
    """Ai(x) for x < -2.09 as torch's kernel computes it (see _AFN)."""
    zeta = -2.0 * x * np.sqrt(-x) / 3.0
    z = 1.0 / zeta
    zz = z * z
    f = 1.0 + zz * _horner(_AFN, zz) / _horner(_AFD, zz)
    g = z * _horner(_AGN, zz) / _horner(_AGD, zz)
    t = zeta + 0.25 * math.pi
    return 5.64189583547756286948e-01 / np.sqrt(np.sqrt(-x)) * (np.sin(t) * f - np.cos(t) * g)


def _airy_ai64(x: np.ndarray) -> np.ndarray:
    """Ai(x): nan at +-inf and nan, 0 above 103.892 (where torch's kernel stops)."""
    dt = x.dtype
    x = _f64(x)
    with np.errstate(all="ignore"):
        mid = (x >= _AIRY_LO) & (x <= _AIRY_HI)
        r = _airy_mid(np.where(mid, x, 0.0))
        neg = mid & (x < -2.09)  # torch's asymptotic branch (x < -10: _airy_left agrees)
        r = np.where(neg, _airy_neg(np.where(neg, x, -3.0)), r)
        right = x > _AIRY_HI
        r = np.where(right, _airy_right(np.where(right, x, 2.0)), r)
        left = x < _AIRY_LO
        r = np.where(left, _airy_left(np.where(left, x, -20.0), dt), r)
        r = np.where(x > 103.892, 0.0, r)
        return np.where(np.isinf(x) | np.isnan(x), np.nan, r)


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
    "airy_ai": _airy_ai64,
}


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
# --- sinc, deg2rad, rad2deg -----------------------------------------------------------------


def _np_sinc(self: np.ndarray) -> np.ndarray:
    if self.dtype == np.float16:  # torch computes a Half's sin(pi x) / (pi x) in float
        return _np_sinc(self.astype(np.float32)).astype(np.float16)
    if self.dtype == D.LD:  # bfloat16: in float, as torch's kernel (sin(pi x) of an integer)
        return D.round_bf16(_np_sinc(self.astype(np.float32)))
    with np.errstate(all="ignore"):
        px = self * self.dtype.type(math.pi)
        return np.where(self == 0, self.dtype.type(1), np.sin(px) / px)


def _sinc_backward(grad: Tensor, self: Tensor) -> Tensor:
    # (pi x cos(pi x) - sin(pi x)) / (pi x^2), and 0 at x = 0
    # (torch's C++ `self * M_PI`: mul.Scalar)
    px = _mul_scalar(self, math.pi)
    pxx = _mul_scalar(self * self, math.pi)
    out = grad * ((px * px.cos() - px.sin()) / pxx)
    return _where(pxx == 0, 0.0, out)


def _sinc_backward_complex(grad: Tensor, self: Tensor) -> Tensor:
    # torch's sinc_backward for complex: grad times the conjugate derivative, 0 at x = 0
    px = self * math.pi
    pxx = self * self * math.pi
    return _where(pxx == 0, 0.0, grad * ((px * px.cos() - px.sin()) / pxx).conj())


sinc = defop(
    "sinc",
    "SincBackward0",
    _np_sinc,
    dtype="float",
    self=_sinc_backward,
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: _sinc_backward_complex(grad, self)},
)


def _airy_ai(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.special.airy_ai` (no graph is recorded, as in torch)."""
    if not isinstance(input, Tensor):  # torch's schema names the argument x
        raise TypeError(
            "special_airy_ai(): argument 'x' (position 1) must be Tensor, "
            f"not {type(input).__name__}"
        )
    return _airy_ai_unchecked(input, out=out)


_airy_ai_unchecked = BESSEL["airy_ai"]
_airy_ai.__name__ = "airy_ai"
BESSEL["airy_ai"] = _airy_ai

# --- exports --------------------------------------------------------------------------------

_UNARY = {"i0": i0, "sinc": sinc}
FUNCTIONS: dict[str, Any] = {name: _unary_out(op, name) for name, op in _UNARY.items()}
METHODS: dict[str, Any] = dict(_UNARY)


def _inplace_methods() -> dict[str, Any]:
    from .inplace import make_inplace

    return {name + "_": make_inplace(op) for name, op in _UNARY.items()}


METHODS.update(_inplace_methods())
