"""Op database entries for the special-function families (shadowgrad/ops/special.py,
special_bessel.py and special_poly.py) and the `torch.special` namespace.

The gamma family is sampled across its poles (0, -0, negative integers), the reflection region,
the recurrence/asymptotic switch and infinities; the Bessel functions across the series/asymptotic
switch; float_power, ldexp and frexp across their dtype rules; and bad input for torch's errors.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg
from .ops_inplace import inplace
from .ops_pointwise import _arr, binary, fixed, ints, unary, with_samples

NAN, INF = math.nan, math.inf
_POLES = (0.0, -0.0, -1.0, -2.0, INF, -INF, NAN)


def _i(v: Any, dt: Any = np.int64) -> Any:
    return tensor_arg(np.array(v, dtype=dt))


def _rng_u(low: float, high: float, n: int, seed: int) -> Any:
    return np.random.default_rng(seed).uniform(low, high, n)


def _wide(*extra: float) -> Sample:
    """Values across the reflection, recurrence and asymptotic regions of the gamma family."""
    v = (-7.3, -2.5, -0.5, 1e-8, 0.5, 1.0, 2.0, 9.5, 10.0, 10.5, 55.5, 1e6, *extra)
    return Sample((tensor_arg(_arr(*v)),), name="wide range")


# --- gamma family ---------------------------------------------------------------------------

for _name in ("lgamma", "digamma"):
    register(
        OpEntry(
            _name,
            lambda T, a, _n=_name: getattr(T, _n)(a),
            with_samples(
                unary(0.2, 4.0, _POLES),
                unary(-3.9, -0.1),
                fixed(_wide(1e300)),
            ),
            covers=(_name, f"Tensor.{_name}"),
        ),
        OpEntry(
            f"{_name} int",
            lambda T, a, _n=_name: getattr(T, _n)(a),
            fixed(ints([1, 2, 3])),
            dtypes=("float32",),
        ),
        OpEntry(
            f"Tensor.{_name}_",
            inplace(f"{_name}_"),
            with_samples(unary(0.2, 4.0), fixed(_wide())),
        ),
    )

for _n in (0, 1, 2, 3, 6):
    register(
        OpEntry(
            f"polygamma n={_n}",
            lambda T, a, _n=_n: T.polygamma(_n, a),
            with_samples(unary(0.2, 4.0, _POLES), unary(-3.9, -0.1), fixed(_wide())),
            covers=("polygamma",),
            # n >= 1 near the poles: huge values; compare relative to them
            tolerances={"float32": (1e-4, 1e-5)},
            tolerance_reason="float32 polygamma is computed in float64, torch's in float",
        )
    )

register(
    OpEntry(
        "Tensor.polygamma",
        lambda T, a, n: a.polygamma(n),
        fixed(
            Sample((tensor_arg(_arr(0.5, 2.0, -1.5)), 1), name="n=1"),
            Sample((tensor_arg(_arr(0.5, 2.0, -1.5)), 4), name="n=4"),
        ),
    ),
    OpEntry(
        "Tensor.polygamma_",
        inplace("polygamma_"),
        fixed(
            Sample((tensor_arg(_arr(0.5, 2.0, -1.5)), 1), name="n=1"),
            Sample((tensor_arg(_arr(0.5, 2.0, 3.5)), 2), name="n=2"),
            Sample((tensor_arg(_arr(0.5, 2.0, 3.5)), -1), name="negative n (error)"),
        ),
    ),
    OpEntry(
        "polygamma errors",
        lambda T, n, a: T.polygamma(n, a),
        fixed(
            Sample((-1, tensor_arg(_arr(1.0))), name="negative n (error)"),
            Sample((1.5, tensor_arg(_arr(1.0))), name="float n (error)"),
            Sample((1, tensor_arg(np.array([1 + 1j]))), name="complex (error)"),
            Sample((3, _i([1, 2])), name="int"),
        ),
        dtypes=("float32",),
        covers=("polygamma",),
    ),
    OpEntry(
        "mvlgamma",
        lambda T, a, p: T.mvlgamma(a, p),
        fixed(
            Sample((tensor_arg(np.random.default_rng(0).uniform(2, 5, (3, 4))), 1), name="p=1"),
            Sample((tensor_arg(np.random.default_rng(1).uniform(2, 5, (3, 4))), 3), name="p=3"),
            Sample((tensor_arg(_arr(3.0)), 2), name="0-d"),
            Sample((tensor_arg(np.zeros((0, 2))), 2), name="empty"),
            Sample(
                (
                    tensor_arg(np.random.default_rng(2).uniform(2, 5, (4, 3)), layout="transposed"),
                    2,
                ),
                name="transposed",
            ),
            Sample((tensor_arg(_arr(0.4, 1.0, 7.5)), 2), name="below (p-1)/2"),
            Sample((tensor_arg(_arr(3.0)), 0), name="p=0 (error)"),
            Sample((tensor_arg(_arr(3.0)), 1.5), name="float p (error)"),
        ),
        covers=("mvlgamma", "Tensor.mvlgamma"),
    ),
    OpEntry(
        "Tensor.mvlgamma_",
        inplace("mvlgamma_"),
        fixed(Sample((tensor_arg(_arr(2.5, 3.0, 7.5)), 2), name="p=2")),
    ),
    OpEntry(
        "gamma family errors",
        lambda T, a, which: {
            "lgamma": lambda: T.lgamma(a),
            "digamma": lambda: T.digamma(a),
            "lgamma_": lambda: a.lgamma_(),
            "i0": lambda: T.i0(a),
        }[which](),
        fixed(
            *[
                Sample((tensor_arg(np.array([1 + 1j])), w), name=f"{w} complex (error)")
                for w in ("lgamma", "digamma", "i0")
            ],
            Sample((_i([1, 2]), "lgamma_"), name="lgamma_ int (error)"),
        ),
        dtypes=("float32",),
    ),
)

# --- Bessel, sinc, angles -------------------------------------------------------------------

_UNARY_MORE = [
    ("i0", (-4.0, 4.0), (0.0, -0.0, 29.0, 31.0, -40.0, 700.0, INF, -INF, NAN)),
    ("sinc", (-3.0, 3.0), (0.0, -0.0, 1.0, -2.0, 0.25, 0.5, INF, NAN)),
    ("deg2rad", (-400.0, 400.0), (0.0, 180.0, -90.0, INF, NAN)),
    ("rad2deg", (-4.0, 4.0), (0.0, math.pi, -1.0, INF, NAN)),
]
for _name, (_lo, _hi), _edges in _UNARY_MORE:
    register(
        OpEntry(
            _name,
            lambda T, a, _n=_name: getattr(T, _n)(a),
            unary(_lo, _hi, _edges),
            covers=(_name, f"Tensor.{_name}"),
        ),
        OpEntry(f"Tensor.{_name}_", inplace(f"{_name}_"), unary(_lo, _hi)),
        OpEntry(
            f"{_name} int and bool",
            lambda T, a, _n=_name: getattr(T, _n)(a),
            fixed(ints([0, 1, -2, 3]), Sample((_i([True, False], np.bool_),), name="bool")),
            dtypes=("float32",),
        ),
    )
register(
    OpEntry(
        "angle errors",
        lambda T, a, which: getattr(T, which)(a),
        fixed(
            Sample((tensor_arg(np.array([1 + 1j])), "deg2rad"), name="deg2rad complex (error)"),
            Sample((tensor_arg(np.array([1 + 1j])), "rad2deg"), name="rad2deg complex (error)"),
        ),
        dtypes=("float32",),
    )
)

# --- float_power, ldexp, frexp --------------------------------------------------------------

register(
    OpEntry(
        "float_power",
        lambda T, a, b: T.float_power(a, b),
        with_samples(
            binary(0.2, 2.0, -2.0, 2.0, edges=((0.0, 0.0, 2.0, -1.0), (0.0, -1.0, 0.5, 2.0))),
            fixed(
                Sample((2.0, tensor_arg(_arr(0.5, -1.0, 3.0))), name="number base"),
                Sample((tensor_arg(_arr(0.5, 2.0)), 2), name="int exponent"),
                Sample((_i([1, 2, 3]), 2), name="int base"),
                Sample((tensor_arg(np.float32([0.5, 2.0])), tensor_arg(_arr(1.5))), name="mixed"),
                Sample((2, 3), name="two numbers (error)"),
            ),
        ),
        covers=("float_power", "Tensor.float_power"),
    ),
    OpEntry(
        "Tensor.float_power_",
        lambda T, a, b: (
            (a.double() * 1).float_power_(b) if a.dtype != T.float32 else a.float_power_(b)
        ),
        fixed(
            Sample((tensor_arg(_arr(0.5, 2.0, 3.0)), 2), name="number"),
            Sample((tensor_arg(_arr(0.5, 2.0)), tensor_arg(_arr(1.5, -1.0))), name="tensor"),
            Sample((tensor_arg(np.float32([0.5]), requires_grad=False), 2), name="float32 (error)"),
        ),
    ),
    OpEntry(
        "ldexp",
        lambda T, a, b: T.ldexp(a, b),
        with_samples(
            binary(-2.0, 2.0, -3.0, 3.0, scalar=None),
            fixed(
                Sample((tensor_arg(_arr(1.5, -2.0, 0.0)), _i([1, -3, 2000])), name="int exponent"),
                Sample((_i([1, 2]), _i([3, -1])), name="int"),
                Sample((tensor_arg(_arr(1.5)), 2), name="number exponent (error)"),
            ),
        ),
        covers=("ldexp", "Tensor.ldexp"),
    ),
    OpEntry(
        "Tensor.ldexp_",
        inplace("ldexp_"),
        fixed(Sample((tensor_arg(_arr(1.5, -2.0)), _i([1, -3])), name="int exponent")),
    ),
    OpEntry(
        "frexp",
        lambda T, a: tuple(T.frexp(a)),
        with_samples(
            unary(-40.0, 40.0, (0.0, -0.0, INF, -INF, NAN, 1e-310, 0.5, -3.5)),
            fixed(Sample((_i([1, 2]),), name="int (error)")),
        ),
        dtypes=("float16", "float32", "float64"),
        covers=("frexp", "Tensor.frexp"),
    ),
)

# --- torch.special ----------------------------------------------------------------------------

_SPECIAL = [
    ("i0e", (-4.0, 4.0), (0.0, -0.0, 29.0, 31.0, -40.0, 1e308, INF, -INF, NAN)),
    ("i1", (-4.0, 4.0), (0.0, -0.0, 29.0, 31.0, -40.0, 700.0, INF, -INF, NAN)),
    ("i1e", (-4.0, 4.0), (0.0, -0.0, 29.0, 31.0, -40.0, 1e308, INF, -INF, NAN)),
    ("entr", (0.1, 3.0), (0.0, -0.0, -1.0, 1.0, INF, NAN)),
    ("ndtr", (-3.0, 3.0), (0.0, -40.0, 40.0, INF, -INF, NAN)),
    ("expit", (-3.0, 3.0), (0.0, 40.0, -800.0, INF, NAN)),
    ("gammaln", (0.2, 4.0), _POLES),
    ("psi", (0.2, 4.0), _POLES),
    ("erf", (-3.0, 3.0), (0.0, INF)),
    ("erfc", (-3.0, 3.0), (0.0, INF)),
    ("erfinv", (-0.9, 0.9), (0.0, 1.0)),
    ("exp2", (-3.0, 3.0), (0.0, INF)),
    ("expm1", (-3.0, 3.0), (0.0, INF)),
    ("log1p", (-0.5, 3.0), (0.0, -1.0)),
    ("logit", (0.1, 0.9), (0.0, 1.0)),
    ("sinc", (-3.0, 3.0), (0.0, 1.0)),
    ("i0", (-3.0, 3.0), (0.0, 31.0)),
    ("digamma", (0.2, 3.0), (0.0, -1.0)),
    ("round", (-3.0, 3.0), (0.5, 1.5, -2.5)),
]
for _name, (_lo, _hi), _edges in _SPECIAL:
    register(
        OpEntry(
            f"special.{_name}",
            lambda T, a, _n=_name: getattr(T.special, _n)(a),
            with_samples(
                unary(_lo, _hi, _edges),
                # digamma of ints: float32 results, where torch's float kernel is 2 ulp off
                fixed(ints([0, 1, -2, 3])) if _name not in ("round", "digamma", "psi") else fixed(),
            ),
        )
    )
register(
    OpEntry(
        "special.binary",
        lambda T, a, b: (T.special.xlogy(a, b), T.special.polygamma(2, a + 1)),
        binary(0.1, 2.0, 0.1, 3.0),
    ),
    OpEntry(
        "special.multigammaln",
        lambda T, a: T.special.multigammaln(a, 3),
        unary(1.5, 4.0),
    ),
    OpEntry(
        "special.softmax family",
        lambda T, a, d: (
            T.special.softmax(a, d),
            T.special.log_softmax(a, d),
            T.special.logsumexp(a, d),
            T.special.softmax(a, d, dtype=T.float64),
        ),
        fixed(
            Sample((tensor_arg(np.random.default_rng(0).normal(size=(3, 4))), 1), name="dim 1"),
            Sample((tensor_arg(np.random.default_rng(1).normal(size=(3, 4))), 0), name="dim 0"),
        ),
    ),
    OpEntry(
        "special errors",
        lambda T, a, which: getattr(T.special, which)(a),
        fixed(
            *[
                Sample((tensor_arg(np.array([1 + 1j])), w), name=f"{w} complex (error)")
                for w in ("i0e", "i1", "i1e", "entr")
            ]
        ),
        dtypes=("float32",),
    ),
)

# --- in-place comparisons -------------------------------------------------------------------

_CMP = {
    "eq": "eq",
    "ne": "ne",
    "lt": "lt",
    "le": "le",
    "gt": "gt",
    "ge": "ge",
    "greater": "gt",
    "greater_equal": "ge",
    "less": "lt",
    "less_equal": "le",
    "not_equal": "ne",
}
for _alias, _base in _CMP.items():
    register(
        OpEntry(
            f"Tensor.{_alias}_",
            inplace(f"{_alias}_", ref=lambda T, a, b, _b=_base: getattr(T, _b)(a, b)),
            fixed(
                Sample((tensor_arg(_arr(1.0, 2.0, 3.0, NAN)), 2.0), name="number"),
                Sample(
                    (tensor_arg(_arr(1.0, 2.0, 3.0)), tensor_arg(_arr(3.0, 2.0, 1.0))),
                    name="tensor",
                ),
                Sample(
                    (tensor_arg(np.ones((2, 3))), tensor_arg(_arr(1.0, 0.0, 2.0))),
                    name="broadcast other",
                ),
                Sample((tensor_arg(_arr(1.0, 2.0)), tensor_arg(_arr(2.0))), name="0-d other"),
                Sample((_i([1, 2, 3]), 2.5), name="int self"),
                Sample(
                    (tensor_arg(_arr(1.0)), tensor_arg(_arr(1.0, 2.0))),
                    name="broadcast into self (error)",
                ),
            ),
        )
    )
register(
    OpEntry(
        "in-place comparison on a leaf",
        lambda T, a: a.eq_(1.0),
        fixed(Sample((tensor_arg(_arr(1.0, 2.0)),), name="leaf requiring grad (error)")),
    )
)

# --- gcd, lcm, nextafter, dist, inner, vdot, addr ---------------------------------------------


def _f(*v: float) -> Any:
    return tensor_arg(_arr(*v))


def _m(shape: tuple[int, ...], seed: int = 0) -> Any:
    return tensor_arg(np.random.default_rng(seed).standard_normal(shape))


for _name in ("gcd", "lcm"):
    register(
        OpEntry(
            _name,
            lambda T, a, b, _n=_name: getattr(T, _n)(a, b),
            fixed(
                ints((12, -18, 0, 7), (8, 0, 0, -21)),
                Sample((_i([4, 6], np.int32), _i([6])), name="int32 with int64"),
                Sample((_f(4.0), _i([6])), name="float (error)"),
            ),
            covers=(_name, f"Tensor.{_name}"),
        ),
        OpEntry(
            f"Tensor.{_name}_",
            inplace(f"{_name}_"),
            fixed(ints((12, -18, 9), (8, 4, 0))),
            covers=(f"{_name}_", f"Tensor.{_name}_"),
        ),
    )

register(
    OpEntry(
        "nextafter",
        lambda T, a, b: T.nextafter(a, b),
        with_samples(
            binary(-2.0, 2.0, scalar=None),
            fixed(
                Sample((_f(3.0, -2.0, 0.5, 0.0, INF, NAN), _f(1.0, 4.0, 0.5, -0.0, 0.0, 1.0))),
                Sample((_i([1, 2]), _i([3, 4])), name="int (error)"),
            ),
        ),
        covers=("nextafter", "Tensor.nextafter"),
    ),
    OpEntry(
        "Tensor.nextafter_",
        inplace("nextafter_"),
        fixed(Sample((_f(3.0, -2.0, 0.5), _f(1.0, 4.0, 0.5)), name="ties")),
    ),
    OpEntry(
        "dist",
        lambda T, a, b, *p: T.dist(a, b, *p),
        fixed(
            *[
                Sample((_m((2, 3)), _m((3,), 1), p), name=f"p={p}")
                for p in (2, 1, 3, 0.5, INF, -INF)
            ],
            Sample((_m((3,)), _m((3,), 1))),
            Sample((_f(1.0, -2.0), _f(1.0, -2.0)), name="zero distance"),
            Sample((_f(1.0, 5.0, -5.0), _f(0.0, 0.0, 0.0), INF), name="inf-norm ties"),
            Sample((_i([1, 2]), _i([1, 3])), name="int (error)"),
        ),
        covers=("dist", "Tensor.dist"),
    ),
    OpEntry(
        "inner",
        lambda T, a, b: T.inner(a, b),
        fixed(
            Sample((_m((3,)), _m((3,), 1)), name="vectors"),
            Sample((_m((2, 3)), _m((3,), 1)), name="matrix, vector"),
            Sample((_m((3,)), _m((4, 3), 1)), name="vector, matrix"),
            Sample((_m((2, 2, 3)), _m((4, 3), 1)), name="3-d"),
            Sample((_m((2, 3)), tensor_arg(np.array(2.0))), name="0-d"),
            Sample((_m((2, 3)), _m((2,), 1)), name="last dims differ (error)"),
        ),
        covers=("inner", "Tensor.inner"),
    ),
    OpEntry(
        "vdot",
        lambda T, a, b: T.vdot(a, b),
        fixed(
            Sample((_m((3,)), _m((3,), 1))),
            Sample((_f(-0.0), _f(1.0)), name="-0 product"),
            Sample((_m((2, 3)), _m((2, 3), 1)), name="2-d (error)"),
            Sample((_m((3,)), _m((2,), 1)), name="lengths differ (error)"),
        ),
        covers=("vdot", "Tensor.vdot"),
    ),
    OpEntry(
        "addr",
        lambda T, m, a, b, **k: T.addr(m, a, b, **k),
        fixed(
            Sample((_m((2, 3)), _m((2,), 1), _m((3,), 2))),
            Sample((_m((3,)), _m((2,), 1), _m((3,), 2)), {"beta": 0.5, "alpha": 2.0}, name="bc"),
            Sample((_f(NAN, 1.0, 2.0), _m((2,), 1), _m((3,), 2)), {"beta": 0}, name="beta 0"),
            Sample((_i([[1, 2]]), _i([1, 2]), _i([3, 4])), {"alpha": 2}, name="int"),
            Sample((_i([[1, 2]]), _i([1, 2]), _i([3, 4])), {"alpha": 1.5}, name="float alpha"),
            Sample((_m((2, 3)), _m((2, 3), 1), _m((3,), 2)), name="2-d vec1 (error)"),
            Sample((_m((3, 3)), _m((2,), 1), _m((3,), 2)), name="bad input shape (error)"),
        ),
        covers=("addr", "Tensor.addr"),
    ),
    OpEntry(
        "Tensor.addr_",
        inplace("addr_"),
        fixed(
            Sample((_m((2, 3)), _m((2,), 1), _m((3,), 2)), {"alpha": 2.0}),
            Sample((_m((3, 1)), _m((3,), 1), _m((3,), 2)), name="shape (error)"),
        ),
    ),
)

# --- torch.special: erfcx, log_ndtr, ndtri, xlog1py, zeta, incomplete gamma -------------------

_TAILS = (0.0, -0.0, -1.0, -5.0, -26.5, -27.5, 5.0, 25.9, 26.1, 40.0, 1e10, INF, -INF, NAN)
register(
    OpEntry(
        "special.erfcx",
        lambda T, a: T.special.erfcx(a),
        with_samples(unary(-3.0, 3.0, _TAILS), fixed(ints([0, 1, -2, 3]))),
    ),
    OpEntry(
        "special.log_ndtr",
        lambda T, a: T.special.log_ndtr(a),
        # no tails below -5 or infinities: torch computes float32 in float, and the double
        # backward amplifies its rounding of result there
        with_samples(
            unary(-3.0, 3.0, (0.0, -0.0, -1.0, -5.0, 5.0, 25.9, 40.0)),
            fixed(ints([0, 1, -2, 3])),
        ),
        tolerances={"float32": (1e-4, 1e-5)},
        tolerance_reason="the grad exp(-(result + x^2 / 2)) amplifies float32 rounding of result "
        "by |result| (355 at x = -26.5); ours is computed in float64, torch's in float",
    ),
    OpEntry(
        "special.ndtri",
        lambda T, a: T.special.ndtri(a),
        with_samples(
            unary(0.02, 0.98, (0.0, 1.0, 0.5, 1e-300, 1e-20, 1 - 1e-16, -0.1, 1.1, NAN)),
            fixed(ints([0, 1, 2])),
        ),
    ),
    OpEntry(
        "special.xlog1py",
        lambda T, a, b: T.special.xlog1py(a, b),
        with_samples(
            binary(
                -2.0, 2.0, -0.9, 3.0, edges=((0.0, 0.0, 0.0, 2.0, 1.0), (0.0, -1.0, NAN, -1.0, INF))
            ),
            fixed(
                Sample((2.0, tensor_arg(_arr(0.5, 3.0, -0.5))), name="number self"),
                Sample((_i([0, 1, 2]), _i([1, 2, 3])), name="int"),
                Sample((2.0, 3.0), name="two numbers (error)"),
            ),
        ),
    ),
    OpEntry(
        "special.zeta",
        lambda T, a, b: T.special.zeta(a, b),
        with_samples(
            binary(1.5, 6.0, 0.2, 5.0),
            fixed(
                Sample(
                    (
                        tensor_arg(_arr(2.0, 3.5, 1.0, 0.5, 4.0, 2.0, 2.5, 2.0, 2.0, INF)),
                        tensor_arg(_arr(0.5, 2.0, 1.0, 1.0, -2.0, -2.5, -2.5, 0.0, INF, 1.0)),
                    ),
                    name="domain edges",
                ),
                Sample(
                    (
                        tensor_arg(_arr(2.0, 3.0, 7.5), requires_grad=False),
                        tensor_arg(_arr(0.5, 3.0, 12.0)),
                    ),
                    name="grad in q",
                ),
                Sample((3.0, tensor_arg(_arr(0.5, 3.0, 12.0))), name="number s"),
                Sample((_i([2, 3]), _i([1, 4])), name="int"),
            ),
        ),
    ),
)
for _name, _alias in (("igamma", "gammainc"), ("igammac", "gammaincc")):
    _gamma_samples = with_samples(
        binary(0.1, 8.0, 0.0, 12.0, scalar=None),
        fixed(
            Sample(
                (
                    tensor_arg(_rng_u(0.1, 30.0, 40, 0), requires_grad=False),
                    tensor_arg(_rng_u(0.01, 40.0, 40, 1)),
                ),
                name="grad in x",
            ),
            Sample(
                (
                    tensor_arg(_arr(0.0, 0.0, 1.0, INF, INF, -1.0, 2.0, 0.5, NAN, 3.0, 20.0)),
                    tensor_arg(_arr(0.0, 1.0, 0.0, 1.0, INF, 1.0, -1.0, INF, 1.0, 1e-12, 60.0)),
                ),
                name="domain edges",
            ),
            Sample((_i([1, 2]), _i([1, 2])), name="int (error)"),
            Sample((_i([1, 2]), tensor_arg(_arr(0.5, 3.0))), name="int with float"),
            Sample((1.0, tensor_arg(_arr(0.5))), name="number (error)"),
        ),
    )
    register(
        OpEntry(
            _name,
            lambda T, a, b, _n=_name: getattr(T, _n)(a, b),
            _gamma_samples,
            covers=(_name, f"Tensor.{_name}"),
        ),
        OpEntry(
            f"special.{_alias}",
            lambda T, a, b, _n=_alias: getattr(T.special, _n)(a, b),
            _gamma_samples,
        ),
        OpEntry(
            f"Tensor.{_name}_",
            inplace(f"{_name}_"),
            fixed(Sample((tensor_arg(_arr(0.5, 2.0, 4.0)), tensor_arg(_arr(1.0, 2.5, 3.0))))),
        ),
    )

# --- torch.special: Bessel functions and orthogonal polynomials -----------------------------
# torch records no graph for any of these (the result never requires grad).

_BESSEL_EDGES = (0.0, -0.0, 1e-300, -1e-300, 1e-101, 1e-99, 1.0, -1.0, 25.0, -25.0, 30.0,
                 713.9, 714.0, 1e10, -1e10, 1e300, -1e300, INF, -INF, NAN)  # fmt: skip
# torch is accurate only off 2 <= |x| < 25 for J and Y: that range has its own entries below
_LOG_RANGE = np.concatenate([np.geomspace(1e-8, 2.0, 100), np.geomspace(25.0, 1e4, 100)])
_JY = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1")
for _name in (
    *_JY,
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "spherical_bessel_j0",
):
    _far = (-60.0, -30.0) if _name in _JY else (-40.0, 40.0)
    register(
        OpEntry(
            f"special.{_name}",
            lambda T, a, _n=_name: getattr(T.special, _n)(a),
            with_samples(
                unary(-2.0, 2.0, _BESSEL_EDGES),
                unary(*_far),
                fixed(
                    ints([0, 1, -2, 3]),
                    Sample((tensor_arg(_LOG_RANGE),), name="log range"),
                ),
            ),
            supports_grad=False,
            # torch's float32 kernels run in float; ours round the float64 value once
            tolerances={"float32": (1e-5, 1e-6)} if _name in _JY else {},
            tolerance_reason="float32 values near the zeros of J and Y differ by torch's rounding",
        )
    )
for _name in _JY:
    register(
        OpEntry(
            f"special.{_name} 2 <= |x| < 25",
            lambda T, a, _n=_name: getattr(T.special, _n)(a),
            with_samples(unary(2.0, 25.0), unary(-25.0, -2.0)),
            supports_grad=False,
            tolerances={"float64": (0.0, 2e-6), "float32": (0.0, 2e-6)},
            tolerance_reason="torch's kernel is only ~1e-7 accurate for 2 <= |x| < 25 (checked "
            "against Bessel's integral in tests/ops/test_special.py); ours is accurate to ~1e-15",
        )
    )

# Ai across the Taylor grid, the K integral and both asymptotic series; 103.892 is where torch's
# kernel flushes to 0, and +-inf give nan
_AIRY_EDGES = (0.0, -0.0, 1e-300, -1e-300, 1.0, -1.0, 2.09, 8.32, 10.0, -10.0, 103.8, 103.892,
               103.9, 1e10, -1e10, 1e300, -1e300, INF, -INF, NAN)  # fmt: skip
_AIRY_FAR = np.concatenate([np.geomspace(6.0, 1e4, 100) * -1, np.geomspace(1e-8, 103.0, 100)])
register(
    OpEntry(
        "special.airy_ai",
        lambda T, a: T.special.airy_ai(a),
        with_samples(
            unary(-2.0, 2.0, _AIRY_EDGES),
            unary(2.0, 30.0),
            unary(-12.0, -6.0),
            fixed(
                ints([0, 1, -2, 3]),
                Sample((tensor_arg(_AIRY_FAR),), name="log range"),
                Sample((1.5,), name="number (error)"),
            ),
        ),
        supports_grad=False,
        tolerances={"float32": (1e-5, 1e-6)},
        tolerance_reason="torch's float32 kernel runs in float; ours rounds the float64 value once",
    ),
    OpEntry(
        "special.airy_ai -6 < x < -2",
        lambda T, a: T.special.airy_ai(a),
        unary(-6.0, -2.0),
        supports_grad=False,
        tolerances={"float64": (0.0, 5e-6), "float32": (0.0, 5e-6)},
        tolerance_reason="torch's kernel is only ~3e-6 accurate just below -2.09, where it "
        "switches to its asymptotic form (checked against Ai'' = x Ai in tests/ops/test_special)",
    ),
)

_POLY_X = (-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, -2.0, 0.25, 0.75, INF, -INF)  # nan is left out:
# torch returns values from other lanes at x = nan for some of these
_POLY_N = (-2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 5.0, 7.0, 9.0, 12.0, 2.7, -0.5, NAN, INF, -INF)
for _name in (
    *(f"{s}chebyshev_polynomial_{k}" for s in ("", "shifted_") for k in "tuvw"),
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
):
    _xs, _ns = np.meshgrid(np.array(_POLY_X), np.array(_POLY_N))
    register(
        OpEntry(
            f"special.{_name}",
            lambda T, a, b, _n=_name: getattr(T.special, _n)(a, b),
            fixed(
                Sample((tensor_arg(_xs), tensor_arg(_ns)), name="grid of x and n"),
                Sample((tensor_arg(_rng_u(-1.0, 1.0, 30, 3)), 25), name="large n inside"),
                Sample((tensor_arg(_rng_u(-1.0, 1.0, 30, 4)), 3.5), name="number n"),
                Sample((0.3, tensor_arg(_arr(0.0, 1.0, 4.0, 11.0))), name="number x"),
                Sample((_i([0, 1, 2]), _i([3, 2, 2])), name="int"),
                Sample((0.3, 3), name="two numbers (error)"),
            ),
            supports_grad=False,
            tolerances={"float32": (1e-4, 1e-4)},
            tolerance_reason="float32 trigonometric forms for large n: acos rounding times n",
        )
    )
