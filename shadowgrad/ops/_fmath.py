"""float32 transcendentals rounded as torch's CPU kernels round them.

Each function takes one numpy array and returns the ufunc's result. For a float32 array of at
most `LIMIT` elements it is computed in float64 and rounded once to float32 (nearly correctly
rounded, as torch's MKL and SLEEF kernels are); any other array goes to numpy's own loop
unchanged. `sleef_expf` stands for the SLEEF float32 exp that torch's vectorized composite
kernels (sigmoid, silu, softmax) call. See Note [float32 transcendentals].
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Note [float32 transcendentals]
# numpy's float32 SIMD loops for exp, log, tanh, sin, ... are up to a few ulp from the correctly
# rounded result; torch's (MKL VML for the plain ops, SLEEF u10 inside composite kernels) are
# within about one ulp and nearly always correctly rounded. On 1e6 uniform inputs numpy's
# float32 exp equals torch's on 61% of elements, computing in float64 and rounding once on 99%.
# So a float32 input of at most LIMIT elements is computed in float64 and rounded once; larger
# ones keep numpy's float32 loop (speed; still within a few ulp). The float64 route costs, per
# call: 8 elements 1.1 us (native 0.4 us), 2**14 elements exp 36 us (13 us), sin 186 us
# (20 us), 2**16 elements sin 740 us (74 us): LIMIT = 2**14 bounds the extra cost of one op at
# ~0.2 ms while covering the tensors of tests, fuzzing and small models. float64, float16 and
# complex inputs are unchanged. asinh and acosh keep numpy's loop: torch's equal neither it
# nor the float64 route on 13% of elements. Composite kernels (sigmoid, silu, softplus,
# softmax, ...) evaluate torch's float32 formula over these primitives; most call SLEEF's expf,
# approximated by `sleef_expf` below (float64 rounded once: bit for bit would cost ~25
# numpy calls per op). Each op's choice was measured against torch on
# 1e6 inputs (numpy as before, the whole op in float64, torch's formula in float32); the rates
# are in docs/design.md and compat/test_float32_parity.py.
LIMIT = 1 << 14

_F32 = np.dtype(np.float32)
_F64 = np.float64


def _via64(uf: np.ufunc) -> Any:
    def f(x: np.ndarray) -> np.ndarray:
        if x.dtype is _F32 and x.size <= LIMIT:
            # the ufunc casts (its result laid out as TensorIterator would, where astype's
            # 'K' order puts a broadcast dim innermost)
            y = uf(x, dtype=_F64)
            if type(y) is np.float64 and type(x) is np.ndarray:
                return np.asarray(y).astype(_F32)  # (a 0-d array's result)
            return y.astype(_F32)  # (a numpy scalar's: a reduction's result)
        return uf(x)

    f.__name__ = f.__qualname__ = uf.__name__
    return f


exp = _via64(np.exp)
exp2 = _via64(np.exp2)
expm1 = _via64(np.expm1)
log = _via64(np.log)
log2 = _via64(np.log2)
log10 = _via64(np.log10)
log1p = _via64(np.log1p)
sin = _via64(np.sin)
cos = _via64(np.cos)
tan = _via64(np.tan)
arcsin = _via64(np.arcsin)
arccos = _via64(np.arccos)
arctan = _via64(np.arctan)
sinh = _via64(np.sinh)
cosh = _via64(np.cosh)
tanh = _via64(np.tanh)
arctanh = _via64(np.arctanh)


def power(a: Any, b: Any) -> Any:
    """np.power; a float32 result of at most LIMIT elements is computed in float64 (a Python
    number operand cast to float32 first, as torch casts it) and rounded once."""
    x = a if getattr(a, "dtype", None) is _F32 else b
    if getattr(x, "dtype", None) is _F32 and x.size <= LIMIT and np.result_type(a, b) is _F32:
        # (the ufunc casts: astype's 'K' order would put a broadcast dim innermost)
        r = np.power(np.asanyarray(a, _F32), np.asanyarray(b, _F32), dtype=_F64)
        return r.astype(_F32)
    return np.power(a, b)


def small32(x: np.ndarray) -> bool:
    """Whether x takes the float64 route: float32 with at most LIMIT elements."""
    return x.dtype is _F32 and x.size <= LIMIT


# The exp torch's vectorized composite kernels call (SLEEF's float32 expf, u10), taken as the
# float64 exp rounded once, which equals SLEEF's on 99% of inputs (sigmoid, silu, softmax then
# match torch bit for bit on 76-99% of elements, the rest within an ulp). Emulating SLEEF's
# reduction and polynomial bit for bit takes ~25 numpy calls: sigmoid on 8 elements went from
# 3 us to 20-45 us, 15x torch's, too slow for the small tensors of LSTM gates and attention; see
# Note [float32 transcendentals]. An alias, so that the call sites say which exp torch uses.
sleef_expf = exp
