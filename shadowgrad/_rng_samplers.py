"""torch's per-element rejection samplers (ATen's Distributions.h and Distributions.cpp): gamma
(Marsaglia and Tsang), Dirichlet, Poisson (Hoermann's transformed rejection) and binomial
(inversion and BTRS), drawing from a Generator exactly as torch's serial CPU kernels do.

Each element takes a data-dependent number of draws, so these loop in Python, one element and
one draw at a time. They are compiled without fma in torch (Distributions.cpp is not one of
the per-CPU kernels), so plain double arithmetic is torch's; where torch computes in float
(a float32 tensor's `scalar_t`), `_Float` rounds to float32 at the same steps.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ._rng_kernels import cast, words64

if TYPE_CHECKING:
    from ._random import Generator

_MASK53 = (1 << 53) - 1
_THIRD_F = float(np.float32(1.0) / np.float32(3.0))  # the C++ literal 1.0f / 3.0f
_C0331_F = float(np.float32(0.0331))


class _Draws:
    """One uniform or normal at a time: uniform_real_distribution<double>(0, 1) and
    normal_distribution<double>(0, 1) with the generator's cached second normal."""

    def __init__(self, g: Generator) -> None:
        self.g = g

    def uniform(self) -> float:
        return (int(words64(self.g, 1)[0]) & _MASK53) * 2.0**-53

    def normal(self) -> float:
        g = self.g
        if g._normal is not None:
            v, g._normal = g._normal, None
            return v * 1.0 + 0.0  # transformation::normal(ret, 0, 1): -0.0 comes out as 0.0
        u1 = self.uniform()
        u2 = self.uniform()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        g._normal = r * math.sin(theta)
        return r * math.cos(theta) * 1.0 + 0.0


def _to_float(v: float) -> float:
    return float(np.float32(v))


def _identity(v: float) -> float:
    return v


# --- gamma ------------------------------------------------------------------------------------


def _gamma_one(alpha: float, rnd: Callable[[float], float], d: _Draws) -> float:
    """sample_gamma<scalar_t, double>: `rnd` rounds to scalar_t (float32 or not at all)."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= math.pow(1 - d.uniform(), rnd(1.0 / alpha))
        alpha = rnd(alpha + 1.0)
    dd = rnd(alpha - _THIRD_F)
    c = 1.0 / math.sqrt(9.0 * dd)
    while True:
        while True:
            x = d.normal()
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1 - d.uniform()
        xx = x * x
        if u < 1.0 - _C0331_F * xx * xx:
            return scale * dd * v
        if math.log(u) < 0.5 * xx + dd * (1.0 - v + math.log(v)):
            return scale * dd * v


def standard_gamma(g: Generator, alpha: np.ndarray) -> np.ndarray:
    """torch._standard_gamma: a Gamma(alpha, 1) draw per element (in C order), at least the
    dtype's smallest normal."""
    rnd = _to_float if alpha.dtype != np.float64 else _identity
    d = _Draws(g)
    out = [_gamma_one(a, rnd, d) for a in np.ascontiguousarray(alpha).ravel().tolist()]
    res = cast(np.array(out, np.float64), alpha.dtype).reshape(alpha.shape)
    return np.maximum(res, np.finfo(alpha.dtype).tiny)


def dirichlet(g: Generator, alpha: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """torch._sample_dirichlet: double gamma draws normalized along the last dim, clamped to
    [smallest normal, the float below 1] of the dtype. Returns (gamma draws, sample).

    The sum along the last dim is numpy's; torch's vectorized sum can round differently for
    long rows, so the sample can differ by an ulp there (the draws never do)."""
    d = _Draws(g)
    draws = [_gamma_one(a, _identity, d) for a in np.ascontiguousarray(alpha).ravel().tolist()]
    gam = np.maximum(np.array(draws, np.float64), np.finfo(np.float64).tiny).reshape(alpha.shape)
    x = cast(gam / gam.sum(-1, keepdims=True), alpha.dtype)
    hi = np.nextafter(alpha.dtype.type(1), alpha.dtype.type(0))
    return gam, np.minimum(hi, np.maximum(np.finfo(alpha.dtype).tiny, x))


# --- Poisson ----------------------------------------------------------------------------------


def _poisson_one(lam: float, d: _Draws) -> int:
    """sample_poisson: transformed rejection for lambda >= 10, else multiplied uniforms."""
    if lam >= 10:
        slam = math.sqrt(lam)
        loglam = math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = d.uniform() - 0.5
            v = d.uniform()
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            lhs = math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
            if lhs <= -lam + k * loglam - math.lgamma(k + 1):
                return k
    if lam == 0:
        return 0
    enlam = math.exp(-lam)
    x, prod = 0, 1.0
    while True:
        prod *= d.uniform()
        if prod > enlam:
            x += 1
        else:
            return x


def poisson(g: Generator, lam: np.ndarray) -> np.ndarray:
    """torch.poisson: a draw per element, in C order."""
    d = _Draws(g)
    out = [_poisson_one(v, d) for v in np.ascontiguousarray(lam, np.float64).ravel().tolist()]
    return cast(np.array(out, np.int64), lam.dtype).reshape(lam.shape)


# --- binomial ---------------------------------------------------------------------------------

_TAIL = (
    0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
    0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
    0.00925546218271273, 0.00833056343336287,
)  # fmt: skip


def _stirling_tail(k: float) -> float:
    if k < len(_TAIL):
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


_LOG1PF: list[Callable[[float], float]] = []


def _log1pf(x: float) -> float:
    """The C library's float log1p (std::log1p of a float), or log1p rounded to float."""
    if not _LOG1PF:
        name = ctypes.util.find_library("m")
        try:
            fn = ctypes.CDLL(name).log1pf
            fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
            _LOG1PF.append(fn)
        except (OSError, AttributeError, TypeError):
            _LOG1PF.append(lambda v: _to_float(math.log1p(v)))
    return float(_LOG1PF[0](x))


def _inversion(count: float, prob: float, f32: bool, d: _Draws) -> float:
    logprob = _log1pf(-prob) if f32 else math.log1p(-prob)
    geom_sum, num = 0.0, 0.0
    while True:
        geom_sum += math.ceil(math.log(d.uniform()) / logprob)
        if geom_sum > count:
            return num
        num += 1


def _btrs(count: float, prob: float, f32: bool, d: _Draws) -> float:
    rnd = _to_float if f32 else _identity
    stddev = rnd(math.sqrt(rnd(rnd(count * prob) * rnd(1 - prob))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = rnd(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = rnd(prob / rnd(1 - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(rnd(rnd(count + 1) * prob))
    while True:
        u = d.uniform() - 0.5
        v = d.uniform()
        us = 0.5 - abs(u)
        k = rnd(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        count_k1 = rnd(rnd(count - k) + 1)  # scalar_t arithmetic in torch
        upper = (
            (m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
            + rnd(count + 1) * math.log((count - m + 1) / count_k1)
            + (k + 0.5) * math.log(r * count_k1 / rnd(k + 1))
            + _stirling_tail(m)
            + _stirling_tail(count - m)
            - _stirling_tail(k)
            - _stirling_tail(rnd(count - k))
        )
        if v <= upper:
            return k


def _binomial_one(count: float, prob: float, f32: bool, d: _Draws) -> float:
    rnd = _to_float if f32 else _identity
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if rnd(count * prob) >= 10.0:
            return _btrs(count, prob, f32, d)
        return _inversion(count, prob, f32, d)
    if prob > 0.5:
        q = rnd(1.0 - prob)
        if rnd(count * q) >= 10.0:
            return rnd(count - _btrs(count, q, f32, d))
        return rnd(count - _inversion(count, q, f32, d))
    return math.nan


def binomial(g: Generator, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """torch.binomial: a draw per element of the broadcast (count, prob), in C order."""
    count, prob = np.broadcast_arrays(count, prob)
    f32 = count.dtype != np.float64
    d = _Draws(g)
    pairs = zip(count.ravel().tolist(), prob.ravel().tolist(), strict=True)
    out = [_binomial_one(n, p, f32, d) for n, p in pairs]
    return cast(np.array(out, np.float64), count.dtype).reshape(count.shape)
