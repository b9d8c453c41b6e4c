"""Op database entries for the pointwise and rounding families.

Every entry samples the op's domain, its kinks and ties (abs at 0, clamp at its bounds, maximum
ties and NaN), broadcasting, 0-d, empty and non-contiguous inputs; forward-only predicates and
logical ops are checked for values and dtypes, and bad input for torch's exception type.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg

NAN, INF = math.nan, math.inf


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _arr(*v: float) -> np.ndarray:
    return np.array(v, dtype=np.float64)


def unary(low: float = -2.0, high: float = 2.0, edges: tuple[float, ...] = ()) -> Callable:
    """2-d, 0-d, empty, transposed and sliced inputs in (low, high), plus the edge values."""

    def samples(dtype: str) -> list[Sample]:
        r = _rng()
        out = [
            Sample((tensor_arg(r.uniform(low, high, (3, 4))),), name="2-d"),
            Sample((tensor_arg(np.array(r.uniform(low, high))),), name="0-d"),
            Sample((tensor_arg(r.uniform(low, high, (0, 3))),), name="empty"),
            Sample(
                (tensor_arg(r.uniform(low, high, (4, 3)), layout="transposed"),),
                name="transposed",
            ),
            Sample((tensor_arg(r.uniform(low, high, (2, 3)), layout="sliced"),), name="sliced"),
        ]
        if edges:
            out.append(Sample((tensor_arg(_arr(*edges)),), name="edges"))
        return out

    return samples


def binary(
    low: float = -2.0,
    high: float = 2.0,
    olow: float | None = None,
    ohigh: float | None = None,
    edges: tuple[tuple[float, ...], tuple[float, ...]] | None = None,
    scalar: float | None = 1.5,
) -> Callable:
    """Same shape, broadcast, 0-d other, other without grad, a Python scalar, edge pairs."""
    olow = low if olow is None else olow
    ohigh = high if ohigh is None else ohigh

    def samples(dtype: str) -> list[Sample]:
        r = _rng()

        def a(*shape: int) -> Any:
            return r.uniform(low, high, shape)

        def b(*shape: int) -> Any:
            return r.uniform(olow, ohigh, shape)

        out = [
            Sample((tensor_arg(a(3, 4)), tensor_arg(b(3, 4))), name="same shape"),
            Sample((tensor_arg(a(3, 1)), tensor_arg(b(1, 4))), name="broadcast"),
            Sample((tensor_arg(a(2, 3)), tensor_arg(np.array(b()))), name="0-d other"),
            Sample((tensor_arg(np.array(a())), tensor_arg(b(2, 3))), name="0-d self"),
            Sample((tensor_arg(a(0, 3)), tensor_arg(b(1, 3))), name="empty"),
            Sample(
                (tensor_arg(a(2, 3), layout="transposed"), tensor_arg(b(2, 3))),
                name="transposed self",
            ),
            Sample(
                (tensor_arg(a(2, 3)), tensor_arg(b(2, 3), requires_grad=False)),
                name="other without grad",
            ),
        ]
        if scalar is not None:
            out.append(Sample((tensor_arg(a(2, 3)), scalar), name="python scalar"))
        if edges is not None:
            out.append(
                Sample((tensor_arg(_arr(*edges[0])), tensor_arg(_arr(*edges[1]))), name="edges")
            )
        return out

    return samples


def with_samples(base: Callable, *extra: Callable[[str], list[Sample]]) -> Callable:
    def samples(dtype: str) -> list[Sample]:
        out = list(base(dtype))
        for e in extra:
            out.extend(e(dtype))
        return out

    return samples


def fixed(*samples: Sample) -> Callable:
    return lambda dtype: list(samples)


def ints(*pairs: tuple[Any, ...], name: str = "int") -> Sample:
    return Sample(tuple(tensor_arg(np.array(p, dtype=np.int64)) for p in pairs), name=name)


def bools(*vals: Any) -> Sample:
    return Sample(tuple(tensor_arg(np.array(v, dtype=np.bool_)) for v in vals), name="bool")


ALL_FLOATS = ("float16", "float32", "float64")
FP16_TOL = {"float16": (2e-3, 2e-3)}

# --- unary math ---------------------------------------------------------------------------

_UNARY: list[tuple[str, tuple[float, float], tuple[float, ...]]] = [
    ("abs", (-2, 2), (0.0, -0.0, -1.0, 1.0)),
    ("exp2", (-2, 2), (0.0, -INF, INF, 100.0)),
    ("expm1", (-2, 2), (0.0, 1e-10, -INF)),
    ("log2", (0.1, 3), (0.0, -1.0, 1.0, INF)),
    ("log10", (0.1, 3), (0.0, -1.0, 1.0, INF)),
    ("log1p", (-0.9, 3), (-1.0, 0.0, -2.0, 1e-10)),
    ("sqrt", (0.1, 3), (0.0, 4.0, -1.0, INF)),
    ("rsqrt", (0.1, 3), (0.0, 4.0, -1.0, INF)),
    ("sin", (-3, 3), (0.0, math.pi, INF)),
    ("cos", (-3, 3), (0.0, math.pi, INF)),
    ("tan", (-1.2, 1.2), (0.0, math.pi / 2)),
    ("asin", (-0.9, 0.9), (0.0, 1.0, -1.0, 1.5)),
    ("acos", (-0.9, 0.9), (0.0, 1.0, -1.0, 1.5)),
    ("atan", (-3, 3), (0.0, INF, -INF)),
    ("sinh", (-2, 2), (0.0, 1000.0)),
    ("cosh", (-2, 2), (0.0, 1000.0)),
    ("asinh", (-3, 3), (0.0, 1e10)),
    ("acosh", (1.1, 3), (1.0, 0.5, INF)),
    ("atanh", (-0.9, 0.9), (0.0, 1.0, -1.0, 1.5)),
    ("erf", (-3, 3), (0.0, 6.0, -6.0, INF, NAN)),
    ("erfc", (-3, 3), (0.0, 6.0, -6.0, 27.0, INF)),
    ("erfinv", (-0.95, 0.95), (0.0, 1.0, -1.0, 1.5, 0.7, -0.71, 0.999999)),
]
# the rounding family: zero grads everywhere (frac: one), ties rounded half to even
_ROUNDING_EDGES = (0.5, 1.5, 2.5, -0.5, -2.5, 0.0, -0.0, 1.0, -3.0, 1e20, INF, NAN)
_UNARY += [
    (name, (-4, 4), _ROUNDING_EDGES) for name in ("floor", "ceil", "round", "trunc", "frac", "sign")
]
_UNARY.append(("sgn", (-4, 4), (0.0, -0.0, 1.0, -2.0)))

for _name, (_lo, _hi), _edges in _UNARY:
    register(
        OpEntry(
            _name,
            lambda T, a, _n=_name: getattr(T, _n)(a),
            unary(_lo, _hi, _edges),
            covers=(_name, f"Tensor.{_name}"),
        )
    )

register(
    OpEntry(
        "fp16 unary",
        lambda T, a: (a.sqrt(), a.exp2(), a.erf(), a.log1p(), a.atan(), a.floor(), a.frac()),
        unary(0.1, 3.0, (0.0, 1.5, 2.5)),
        dtypes=("float16",),
        tolerances=FP16_TOL,
        tolerance_reason="float16 results round to 11 bits",
    ),
    OpEntry(
        "unary ints and bools",
        lambda T, a: (a.abs(), a.sign(), a.floor(), a.round(), a.sqrt(), a.erf(), a.exp2()),
        fixed(ints([3, -2, 0, 7])),
        dtypes=("float32",),
    ),
    OpEntry(
        "unary on bool",
        lambda T, a: (a.sign(), a.sgn(), a.sqrt(), a.erfinv(), a.nan_to_num(), a.signbit()),
        fixed(bools([True, False])),
        dtypes=("float32",),
    ),
    OpEntry(
        "unary dtype errors",
        lambda T, a, which: {
            "abs": lambda: a.abs(),
            "floor": lambda: a.floor(),
            "frac": lambda: a.frac(),
            "round": lambda: a.round(decimals=1),
        }[which](),
        fixed(
            *[
                Sample((tensor_arg(np.array(v)), w), name=f"{w} {np.array(v).dtype}")
                for v in ([True, False], [1, 2])
                for w in ("abs", "floor", "frac", "round")
            ]
        ),
        dtypes=("float32",),
    ),
    OpEntry(
        "round.decimals",
        lambda T, a, d: T.round(a, decimals=d),
        fixed(
            *[
                Sample((tensor_arg(_arr(1.25, 0.125, -2.675, 1234.5678, 0.0, 15.0, 25.0)), d))
                for d in (0, 1, 2, -1)
            ]
        ),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
        covers=("round",),
    ),
    OpEntry(
        "Tensor.__abs__",
        lambda T, a: abs(a),
        unary(edges=(0.0, -1.0)),
        covers=("Tensor.__abs__",),
    ),
    OpEntry(
        "logit",
        lambda T, a, *eps: T.logit(a, *eps),
        with_samples(
            unary(0.05, 0.95, (0.0, 1.0, 0.5, -0.5, 1.5)),
            fixed(
                Sample((tensor_arg(_arr(0.0, 0.2, 0.5, 0.8, 0.9, 1.5, -0.1)), 0.2), name="eps"),
                Sample((tensor_arg(_arr(0.1, 0.5, 0.9)), -1.0), name="negative eps"),
            ),
        ),
    ),
    OpEntry(
        "nan_to_num",
        lambda T, a, *args, **kw: T.nan_to_num(a, *args, **kw),
        with_samples(
            unary(edges=(NAN, INF, -INF, 1.0)),
            fixed(
                Sample(
                    (tensor_arg(_arr(NAN, INF, -INF, 2.0)),),
                    {"nan": 1.0, "posinf": 5.0, "neginf": -5.0},
                    name="values",
                ),
                Sample((tensor_arg(_arr(NAN, INF, -INF)), 3.0), name="positional nan"),
                ints([1, -2]),
            ),
        ),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
    ),
)

# --- binary math --------------------------------------------------------------------------


def _binop(name: str, fn: Callable, samples: Callable, **kw: Any) -> OpEntry:
    return OpEntry(name, fn, samples, **kw)


register(
    _binop(
        "atan2",
        lambda T, a, b: T.atan2(a, b),
        binary(edges=((0.0, 0.0, -0.0, 1.0, 0.0), (0.0, -0.0, 0.0, 0.0, 1.0))),
        covers=("atan2", "arctan2", "Tensor.atan2"),
    ),
    _binop(
        "hypot",
        lambda T, a, b: T.hypot(a, b),
        binary(edges=((0.0, 3.0, INF), (0.0, 4.0, 1.0))),
    ),
    _binop(
        "logaddexp",
        lambda T, a, b: T.logaddexp(a, b),
        binary(edges=((INF, -INF, 1.0, 1000.0, -INF), (INF, -INF, 2.0, 0.0, 1.0))),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
    ),
    _binop(
        "logaddexp2",
        lambda T, a, b: T.logaddexp2(a, b),
        binary(edges=((INF, -INF, 1.0, 1000.0, 3.0), (INF, -INF, 2.0, 0.0, 3.0))),
    ),
    _binop(
        "maximum",
        lambda T, a, b: T.maximum(a, b),
        binary(edges=((1.0, 2.0, NAN, 1.0, 3.0, -0.0), (1.0, 1.0, 1.0, NAN, 3.0, 0.0))),
    ),
    _binop(
        "minimum",
        lambda T, a, b: T.minimum(a, b),
        binary(edges=((1.0, 2.0, NAN, 1.0, 3.0, -0.0), (1.0, 1.0, 1.0, NAN, 3.0, 0.0))),
    ),
    _binop(
        "fmax",
        lambda T, a, b: T.fmax(a, b),
        binary(edges=((1.0, 2.0, NAN, 1.0, NAN), (1.0, 1.0, 1.0, NAN, NAN))),
    ),
    _binop(
        "fmin",
        lambda T, a, b: T.fmin(a, b),
        binary(edges=((1.0, 2.0, NAN, 1.0, NAN), (1.0, 1.0, 1.0, NAN, NAN))),
    ),
    _binop(
        "xlogy",
        lambda T, a, b: T.xlogy(a, b),
        with_samples(
            binary(
                0.0,
                2.0,
                0.1,
                3.0,
                edges=((0.0, 0.0, 1.0, 2.0, NAN, 0.0), (0.0, NAN, 0.0, 3.0, 1.0, -1.0)),
            ),
            fixed(
                Sample((2.0, tensor_arg(_arr(0.5, 0.0, 3.0))), name="scalar self"),
                Sample((tensor_arg(_arr(0.0, 1.0, 2.0)), 0.0), name="scalar other 0"),
                ints([0, 1, 2], [3, 0, 2]),
            ),
        ),
    ),
    _binop(
        "copysign",
        lambda T, a, b: T.copysign(a, b),
        with_samples(
            binary(edges=((1.0, -2.0, 0.0, -0.0, 3.0), (-1.0, 2.0, -1.0, 1.0, -0.0))),
            fixed(Sample((tensor_arg(_arr(1.0, -2.0, 0.0)), -0.0), name="scalar -0.")),
        ),
    ),
    _binop(
        "Tensor.__mod__",
        lambda T, a, b: a % b,
        binary(
            0.5,
            6.0,
            -3.0,
            3.0,
            edges=((5.0, -5.0, 3.0, -3.0, -0.0, 5.0), (3.0, 3.0, -3.0, -3.0, 3.0, 0.0)),
        ),
        covers=("remainder", "Tensor.remainder", "Tensor.__mod__"),
    ),
    _binop(
        "fmod",
        lambda T, a, b: T.fmod(a, b),
        binary(
            0.5,
            6.0,
            -3.0,
            3.0,
            edges=((5.0, -5.0, 3.0, -3.0, -0.0, 5.0), (3.0, 3.0, -3.0, -3.0, 3.0, 0.0)),
        ),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
    ),
    _binop(
        "remainder",
        lambda T, a, b: T.remainder(a, b),
        binary(
            -6.0, 6.0, 0.5, 3.0, edges=((5.0, -5.0, 3.0, -3.0, 1e-30), (3.0, 3.0, -3.0, -3.0, -2.0))
        ),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
    ),
    _binop(
        "div.rounding_mode",
        lambda T, a, b, mode: T.div(a, b, rounding_mode=mode),
        fixed(
            *[
                Sample(
                    (
                        tensor_arg(_arr(7.0, -7.0, 7.5, -7.5, 0.0, 5.0, -5.0, 1e-3)),
                        tensor_arg(_arr(2.0, 2.0, -2.0, -2.0, 3.0, 0.0, 0.0, -3.0)),
                        mode,
                    ),
                    name=mode,
                )
                for mode in ("trunc", "floor")
            ],
            Sample((tensor_arg(_arr(7.0, -7.0)), 2, "trunc"), name="python scalar"),
            Sample((tensor_arg(_arr(7.0, -7.0)), tensor_arg(_arr(2.0)), "bad"), name="bad mode"),
            Sample(
                (tensor_arg(np.array([7, -7, 8])), tensor_arg(np.array([2, 2, -3])), "trunc"),
                name="int trunc",
            ),
            Sample(
                (tensor_arg(np.array([7, -7, 8])), tensor_arg(np.array([2, 2, -3])), "floor"),
                name="int floor",
            ),
            Sample(
                (tensor_arg(np.array([7, -7])), tensor_arg(np.array([0, 2])), "floor"),
                name="int / 0",
            ),
        ),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
        covers=("div", "Tensor.div"),
    ),
    _binop(
        "floor_divide",
        lambda T, a, b: T.floor_divide(a, b),
        with_samples(
            binary(
                -6.0,
                6.0,
                -3.0,
                3.0,
                edges=((5.0, -5.0, 0.0, -0.0, 7.0), (0.0, 0.0, 0.0, 3.0, -2.0)),
            ),
            fixed(
                ints([7, -7, 0, 9], [2, 2, 3, -4]),
                ints([7, -7], [0, 2], name="int / 0"),
                bools([True, False], [True, True]),
            ),
        ),
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
        covers=("floor_divide", "Tensor.floor_divide", "Tensor.__floordiv__"),
    ),
    _binop(
        "reverse operators",
        lambda T, a: (2 // a, 2 % a, 2.5 / a, a.__rdiv__(3.0), a.__div__(2.0)),
        unary(0.5, 3.0, (1.0, -1.0, 2.0)),
        covers=("Tensor.__rfloordiv__", "Tensor.__rmod__", "Tensor.__rdiv__", "Tensor.__div__"),
    ),
    _binop(
        "int remainder, fmod, zero divisors",
        lambda T, a, b: (a % b, T.fmod(a, b), a // b),
        fixed(ints([7, -7, 7, -7, 0], [3, 3, -3, -3, 5]), ints([1, 2], [0, 1], name="int % 0")),
        dtypes=("float32",),
    ),
)

# --- lerp, addcmul, addcdiv, masked_fill ---------------------------------------------------


def _lerp_samples(dtype: str) -> list[Sample]:
    r = _rng()
    out = [
        Sample(
            (tensor_arg(r.uniform(-2, 2, (3, 4))), tensor_arg(r.uniform(-2, 2, (3, 4))), w),
            name=f"w={w}",
        )
        for w in (0.3, 0.7, 0.0, 1.0, 0.5)
    ]
    out += [
        Sample(
            (
                tensor_arg(r.uniform(-2, 2, (3, 1))),
                tensor_arg(r.uniform(-2, 2, (1, 4))),
                tensor_arg(r.uniform(-0.5, 1.5, (3, 4))),
            ),
            name="tensor weight, broadcast",
        ),
        Sample(
            (
                tensor_arg(r.uniform(-2, 2, (2, 3))),
                tensor_arg(r.uniform(-2, 2, (2, 3))),
                tensor_arg(np.array(0.25)),
            ),
            name="0-d weight",
        ),
        Sample(
            (tensor_arg(r.uniform(-2, 2, (2, 3))), tensor_arg(np.array(1.0)), 0.25), name="0-d end"
        ),
        Sample((tensor_arg(np.array([1, 2])), tensor_arg(np.array([3, 4])), 0.5), name="int"),
        Sample((tensor_arg(r.uniform(-2, 2, (2,))), 2.0, 0.5), name="scalar end"),
    ]
    return out


register(
    OpEntry(
        "lerp",
        lambda T, a, b, w: T.lerp(a, b, w),
        _lerp_samples,
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
    ),
    OpEntry(
        "lerp dtype mismatch",
        lambda T, a, b, w: T.lerp(a, b.double(), w),
        fixed(Sample((tensor_arg(_arr(1.0)), tensor_arg(_arr(2.0)), 0.5))),
        dtypes=("float32",),
    ),
)


def _addc_samples(dtype: str) -> list[Sample]:
    r = _rng()

    def t(*shape: int, lo: float = -2.0, hi: float = 2.0) -> Any:
        return tensor_arg(r.uniform(lo, hi, shape))

    return [
        Sample((t(3, 4), t(3, 4), t(3, 4, lo=0.5)), name="same shape"),
        Sample((t(3, 4), t(3, 1), t(1, 4, lo=0.5)), {"value": 2.5}, name="broadcast, value"),
        Sample((t(4), t(3, 4), t(3, 4, lo=0.5)), {"value": -1}, name="self broadcast"),
        Sample((t(2, 3), t(2, 3), tensor_arg(np.array(0.75))), name="0-d tensor2"),
        Sample((t(0, 3), t(0, 3), t(1, 3, lo=0.5)), name="empty"),
        Sample(
            (t(2, 2), t(2, 2), tensor_arg(r.uniform(0.5, 2, (2, 2)), requires_grad=False)),
            name="no grad tensor2",
        ),
        Sample(
            (t(2, 2), t(2, 2), tensor_arg(_arr(0.0, 1.0, -0.0, 2.0).reshape(2, 2))),
            name="zero divisor",
        ),
        Sample(
            (
                tensor_arg(np.array([1, 2])),
                tensor_arg(np.array([3, 4])),
                tensor_arg(np.array([2, 2])),
            ),
            {"value": 2},
            name="int",
        ),
        Sample((t(2), t(2), 2.0), name="scalar tensor2"),
    ]


register(
    OpEntry(
        "addcmul",
        lambda T, a, b, c, **kw: T.addcmul(a, b, c, **kw),
        _addc_samples,
        dtypes=ALL_FLOATS,
        tolerances=FP16_TOL,
    ),
    OpEntry(
        "addcdiv",
        lambda T, a, b, c, **kw: T.addcdiv(a, b, c, **kw),
        _addc_samples,
        dtypes=ALL_FLOATS,
        tolerances={"float16": (5e-3, 5e-3)},
        tolerance_reason="float16 quotients of inputs near 0.5",
    ),
)


def _masked_fill_samples(dtype: str) -> list[Sample]:
    r = _rng()
    mask = tensor_arg(np.array([[True, False, True], [False, False, True]]))
    return [
        Sample((tensor_arg(r.uniform(-2, 2, (2, 3))), mask, 1.5), name="scalar value"),
        Sample(
            (tensor_arg(r.uniform(-2, 2, (2, 3))), mask, tensor_arg(np.array(-3.0))),
            name="0-d tensor value",
        ),
        Sample(
            (
                tensor_arg(r.uniform(-2, 2, (2, 3))),
                mask,
                tensor_arg(np.array(-3.0), requires_grad=False),
            ),
            name="0-d value without grad",
        ),
        Sample((tensor_arg(r.uniform(-2, 2, (1, 3))), mask, 0.0), name="self broadcast to mask"),
        Sample(
            (tensor_arg(r.uniform(-2, 2, (2, 3))), tensor_arg(np.array([True, False, False])), INF),
            name="mask broadcast",
        ),
        Sample(
            (tensor_arg(r.uniform(-2, 2, (2, 3)), layout="transposed"), mask, 2.0),
            name="transposed",
        ),
        Sample(
            (tensor_arg(np.array([1, 2, 3])), tensor_arg(np.array([True, False, True])), 7.9),
            name="int self",
        ),
        Sample(
            (tensor_arg(r.uniform(-2, 2, (3,))), tensor_arg(np.array([1, 0, 1])), 1.0),
            name="int mask",
        ),
        Sample(
            (
                tensor_arg(r.uniform(-2, 2, (3,))),
                tensor_arg(np.array([True, False, True])),
                tensor_arg(_arr(1.0, 2.0, 3.0)),
            ),
            name="1-d value",
        ),
    ]


register(
    OpEntry(
        "masked_fill",
        lambda T, a, m, v: T.masked_fill(a, m, v),
        _masked_fill_samples,
        covers=("masked_fill", "Tensor.masked_fill"),
    ),
    OpEntry(
        "Tensor.masked_fill_",
        lambda T, a, m, v: (a * 1).masked_fill_(m, v),
        _masked_fill_samples,
        covers=("Tensor.masked_fill_",),
    ),
)

# --- clamp ---------------------------------------------------------------------------------

_CLAMP_EDGES = _arr(-1.0, 0.0, 0.5, 1.0, 2.0, NAN)


def _clamp_samples(dtype: str) -> list[Sample]:
    r = _rng()
    x = r.uniform(-2, 2, (3, 4))
    return [
        Sample((tensor_arg(_CLAMP_EDGES), 0.0, 1.0), name="bounds included"),
        Sample((tensor_arg(_CLAMP_EDGES), 1.0, 1.0), name="min == max"),
        Sample((tensor_arg(_CLAMP_EDGES), 1.0, 0.0), name="min > max"),
        Sample((tensor_arg(_CLAMP_EDGES), 0.0), name="min only"),
        Sample((tensor_arg(_CLAMP_EDGES), None, 0.5), name="max only"),
        Sample((tensor_arg(x), -0.5, 0.5), name="2-d"),
        Sample((tensor_arg(x, layout="transposed"), -0.5, 0.5), name="transposed"),
        Sample((tensor_arg(np.array(0.3)), 0.0, 0.2), name="0-d"),
        Sample((tensor_arg(np.array([-3, 0, 5])), -1, 2), name="int"),
        Sample((tensor_arg(np.array([-3, 0, 5])), 0.5, 1.5), name="int with float bounds"),
        Sample(
            (
                tensor_arg(x),
                tensor_arg(r.uniform(-1, 0, (3, 1))),
                tensor_arg(r.uniform(0, 1, (1, 4))),
            ),
            name="tensor bounds",
        ),
        Sample(
            (
                tensor_arg(_CLAMP_EDGES),
                tensor_arg(_arr(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
                tensor_arg(_arr(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)),
            ),
            name="tensor bounds included",
        ),
        Sample(
            (
                tensor_arg(_arr(-1.0, 0.5, 2.0, 0.7)),
                tensor_arg(_arr(1.0, 1.0, 1.0, 0.5)),
                tensor_arg(_arr(0.0, 0.0, 0.0, 0.5)),
            ),
            name="tensor min > max, min == max",
        ),
        Sample((tensor_arg(x), tensor_arg(np.array(0.0))), name="tensor min only"),
        Sample((tensor_arg(x), None, tensor_arg(r.uniform(-1, 1, (4,)))), name="tensor max only"),
        Sample((tensor_arg(x), tensor_arg(np.array(-0.5)), 0.5), name="tensor min, scalar max"),
        Sample((tensor_arg(x),), name="no bounds"),
    ]


register(
    OpEntry(
        "clamp",
        lambda T, a, *b: T.clamp(a, *b),
        _clamp_samples,
        covers=("clamp", "Tensor.clamp", "clip", "Tensor.clip"),
    ),
    OpEntry("clip", lambda T, a, *b: a.clip(*b), _clamp_samples),
    OpEntry("Tensor.clamp_", lambda T, a, *b: (a * 1).clamp_(*b), _clamp_samples),
    OpEntry(
        "clamp_min",
        lambda T, a, b: T.clamp_min(a, b),
        with_samples(
            binary(edges=((0.0, 1.0, -1.0, NAN), (0.0, 0.0, 0.0, 0.0))),
            fixed(Sample((tensor_arg(_CLAMP_EDGES), 0.0), name="at the bound")),
        ),
    ),
    OpEntry(
        "clamp_max",
        lambda T, a, b: T.clamp_max(a, b),
        with_samples(
            binary(edges=((0.0, 1.0, -1.0, NAN), (0.0, 0.0, 0.0, 0.0))),
            fixed(Sample((tensor_arg(_CLAMP_EDGES), 1.0), name="at the bound")),
        ),
    ),
)

# --- in-place variants ---------------------------------------------------------------------

register(
    OpEntry(
        "in-place unary",
        lambda T, a: (
            (a * 1).sin_(),
            (a * 1).abs_(),
            (a * 1).exp2_(),
            (a * 1).erf_(),
            (a * 1).floor_(),
            (a * 1).frac_(),
            (a * 1).round_(decimals=1),
            (a * 1).atan2_(a * 2),
            (a * 1).lerp_(a * 3, 0.25),
            (a * 1).nan_to_num_(),
        ),
        unary(edges=(0.0, 1.5, -2.5)),
        covers=tuple(
            f"Tensor.{n}_"
            for n in (
                "sin",
                "abs",
                "exp2",
                "erf",
                "floor",
                "frac",
                "round",
                "atan2",
                "lerp",
                "nan_to_num",
            )
        ),
    ),
    OpEntry(
        "in-place division",
        lambda T, a, b: (
            (a * 1).floor_divide_(b),
            (a * 1).remainder_(b),
            (a * 1).fmod_(b),
            (a * 1).div_(b, rounding_mode="floor"),
        ),
        binary(0.5, 6.0, 0.5, 3.0, scalar=2.0),
        covers=("Tensor.floor_divide_", "Tensor.remainder_", "Tensor.fmod_"),
    ),
    OpEntry(
        "augmented operators",
        lambda T, a, b: _augmented(a, b),
        fixed(ints([6, -7, 3], [4, 2, 5])),
        dtypes=("float32",),
        covers=tuple(f"Tensor.__i{n}__" for n in ("floordiv", "mod", "and", "or", "xor")),
    ),
)


def _augmented(a: Any, b: Any) -> tuple[Any, ...]:
    outs = []
    for op in ("__ifloordiv__", "__imod__", "__iand__", "__ior__", "__ixor__"):
        c = a.clone()
        r = getattr(c, op)(b)
        outs.append(r)
        outs.append(c)
    return tuple(outs)


# --- predicates, logical and bitwise ops (bool or integer results, no grad) ---------------

_PRED_VALUES = _arr(1.0, -0.0, 0.0, NAN, INF, -INF, -2.5)

register(
    OpEntry(
        "predicates",
        lambda T, a: (
            a.isfinite(),
            T.isposinf(a),
            T.isneginf(a),
            T.signbit(a),
            a.isreal(),
            a.logical_not(),
        ),
        with_samples(unary(), fixed(Sample((tensor_arg(_PRED_VALUES),), name="specials"))),
        covers=("isfinite", "isposinf", "isneginf", "signbit", "isreal", "logical_not"),
    ),
    OpEntry(
        "predicates on ints",
        lambda T, a: (a.isfinite(), T.isposinf(a), T.isneginf(a), T.signbit(a), a.logical_not()),
        fixed(ints([1, -2, 0]), bools([True, False])),
        dtypes=("float32",),
    ),
    OpEntry(
        "isclose",
        lambda T, a, b, *args, **kw: T.isclose(a, b, *args, **kw),
        fixed(
            Sample(
                (
                    tensor_arg(_arr(1.0, 1.0, NAN, INF, INF, 1e-9, 1.0)),
                    tensor_arg(_arr(1.0 + 1e-6, 1.1, NAN, INF, -INF, 0.0, 1.0 + 2e-5)),
                ),
                name="default",
            ),
            Sample(
                (tensor_arg(_arr(1.0, NAN)), tensor_arg(_arr(1.05, NAN))),
                {"rtol": 0.1, "equal_nan": True},
                name="equal_nan",
            ),
            Sample(
                (tensor_arg(_arr(1.0, 2.0)), tensor_arg(_arr(1.0, 2.0 + 1e-12))),
                {"rtol": 0.0, "atol": 0.0},
                name="exact",
            ),
            Sample(
                (tensor_arg(_arr(1.0)), tensor_arg(_arr(1.0))), {"rtol": -1.0}, name="negative rtol"
            ),
            Sample(
                (tensor_arg(_arr(1.0)), tensor_arg(_arr(1.0))), {"atol": -1.0}, name="negative atol"
            ),
            Sample(
                (tensor_arg(np.array([1, 2])), tensor_arg(_arr(1.0, 2.0))), name="dtype mismatch"
            ),
            Sample(
                (tensor_arg(np.array([100, 2])), tensor_arg(np.array([101, 2]))),
                {"rtol": 0.01},
                name="int",
            ),
            Sample(
                (tensor_arg(np.array([True, False])), tensor_arg(np.array([True, True]))),
                name="bool",
            ),
            Sample((tensor_arg(_arr(1.0)), 1.0), name="scalar other"),
        ),
        dtypes=("float32", "float64"),
    ),
)


def _logical_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample(
            (tensor_arg(_arr(0.0, 1.0, -0.0, NAN, 2.0)), tensor_arg(_arr(1.0, 0.0, 0.0, 0.0, 3.0))),
            name="float",
        ),
        Sample(
            (
                tensor_arg(r.uniform(-1, 1, (3, 1))),
                tensor_arg(np.array([True, False, True, False])),
            ),
            name="broadcast mixed",
        ),
        ints([0, 3, -1], [2, 0, 5]),
        bools([True, False, True], [True, True, False]),
        Sample((tensor_arg(_arr(1.0)), 1), name="scalar other"),
    ]


def _bitwise_samples(dtype: str) -> list[Sample]:
    return [
        ints([12, -7, 0, 5], [10, 3, 9, -1]),
        bools([True, False, True], [True, True, False]),
        Sample((tensor_arg(np.array([12, 5])), 6), name="int and python int"),
        Sample((tensor_arg(np.array([True, False])), True), name="bool and python bool"),
        Sample(
            (tensor_arg(np.array([12, 5], dtype=np.int32)), tensor_arg(np.array([6, 3]))),
            name="int32 and int64",
        ),
        Sample((tensor_arg(_arr(1.0, 2.0)), tensor_arg(_arr(1.0, 2.0))), name="float (error)"),
        Sample((tensor_arg(np.array([12, 5])), 2.5), name="int and python float (error)"),
    ]


for _n in ("logical_and", "logical_or", "logical_xor"):
    register(
        OpEntry(
            _n,
            lambda T, a, b, _n=_n: getattr(T, _n)(a, b),
            _logical_samples,
            dtypes=("float32",),
            covers=(_n, f"Tensor.{_n}", f"Tensor.{_n}_"),
        )
    )
for _n, _op in (("bitwise_and", "__and__"), ("bitwise_or", "__or__"), ("bitwise_xor", "__xor__")):
    register(
        OpEntry(
            _n, lambda T, a, b, _n=_n: getattr(T, _n)(a, b), _bitwise_samples, dtypes=("float32",)
        ),
        OpEntry(
            f"Tensor.{_op}",
            lambda T, a, b, _op=_op: getattr(a, _op)(b),
            _bitwise_samples,
            dtypes=("float32",),
        ),
    )
register(
    OpEntry(
        "bitwise_not",
        lambda T, a: T.bitwise_not(a),
        fixed(
            ints([12, -7, 0]),
            bools([True, False]),
            Sample((tensor_arg(_arr(1.0)),), name="float (error)"),
        ),
        dtypes=("float32",),
    ),
    OpEntry(
        "Tensor.__invert__",
        lambda T, a: ~a,
        fixed(
            ints([12, -7, 0]),
            bools([True, False]),
            Sample((tensor_arg(_arr(1.0)),), name="float (error)"),
        ),
        dtypes=("float32",),
    ),
)


# --- bit shifts (integer only) and heaviside (no derivative) --------------------------------


def _i(v: Any, dt: Any = np.int64) -> Any:
    return tensor_arg(np.array(v, dtype=dt))


# counts past the width and negative counts: 0 for a left shift, the sign fill for a right one
_COUNTS = [0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 100, -1, -64, 3]
_VALUES = [1, -8, 5, 127, -128, 3, -1, 255, 2**40, -(2**62), 7, 9, -3, 6]


def _shift_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_i(_VALUES), _i(_COUNTS)), name="int64, counts out of range"),
        Sample((_i([1, -8, 5, 127, -128], np.int8), _i([0, 7, 8, -1, 3], np.int8)), name="int8"),
        Sample((_i([1, 3, 200, 255], np.uint8), _i([0, 7, 8, 200], np.uint8)), name="uint8"),
        Sample((_i([1, -3, 2**30], np.int32), _i([31, 32, 2], np.int32)), name="int32 wraparound"),
        Sample((_i([3, -3], np.int16), _i([15, 16], np.int16)), name="int16"),
        Sample((_i([3, 100], np.int8), _i([2, 3])), name="int8 and int64 (promotes)"),
        Sample((_i([3, 200], np.uint8), _i([2, 3], np.int8)), name="uint8 and int8 (int16)"),
        Sample((_i([200], np.uint8), _i([-1])), name="uint8 and negative int64"),
        Sample((_i([3, -100], np.int8), 2), name="int8 and python int"),
        Sample((_i([3, -100], np.int8), 300), name="python int wraps into int8"),
        Sample((_i([3], np.uint8), 2**40), name="python int wraps to 0 in uint8"),
        Sample((_i([3, -3]), -1), name="negative python int"),
        Sample((_i([3, -3]), 1000), name="huge python int"),
        Sample((_i([3], np.int8), _i(2)), name="0-d int64 keeps int8"),
        Sample((_i([[1], [2]]), _i([1, 2, 3])), name="broadcast"),
        Sample((_i([1, 2]), _i([1, 2, 3])), name="bad broadcast"),
        Sample((_i([True, False], np.bool_), 1), name="bool and python int"),
        Sample((_i([True], np.bool_), _i([True], np.bool_)), name="bool (error)"),
        Sample((tensor_arg(_arr(1.5, 2.0)), 1), name="float (error)"),
        Sample((_i([1, 2]), 1.5), name="python float (error)"),
        Sample((_i([1, 2]), tensor_arg(_arr(1.0, 2.0))), name="float tensor (error)"),
        Sample((tensor_arg(np.array([1 + 1j])), 1), name="complex (error)"),
    ]


def _rshift_scalar_samples(dtype: str) -> list[Sample]:
    # `number << tensor`: the number takes the tensor's dtype, wrapping (200 in int8 is -56)
    return [
        Sample((_i([3, 1, 9], np.int8), 2), name="int8"),
        Sample((_i([3, 1, -1, 64]), 200), name="int64"),
        Sample((_i([3], np.int8), 200), name="200 wraps into int8"),
        Sample((_i([1, 2]), True), name="bool number"),
        Sample((_i([1, 2]), 1.5), name="float number (error)"),
        Sample((tensor_arg(_arr(1.0)), 2), name="float tensor (error)"),
    ]


def _ishift(op: str) -> Any:
    def f(T: Any, a: Any, b: Any) -> Any:
        y = a.clone()
        r = getattr(y, op)(b)
        return y if r is NotImplemented else r

    return f


def _shift_inplace_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_i([1, 2, 3], np.int8), 2), name="int8, python int"),
        Sample((_i([1, 2, -3], np.int8), _i([1, 9, 1])), name="int64 counts into int8"),
        Sample((_i([1, 2, 3]), _i([1], np.int8)), name="int8 counts into int64"),
        Sample((_i([1, 2, 3]), 1.5), name="float result into int64 (error)"),
        Sample((tensor_arg(_arr(1.0, 2.0)), 1), name="float self (error)"),
        Sample((_i([1, 2, 3], np.int8), _i([[1], [2]])), name="broadcast into self (error)"),
    ]


for _n, _dunder in (("bitwise_left_shift", "lshift"), ("bitwise_right_shift", "rshift")):
    register(
        OpEntry(
            _n,
            lambda T, a, b, _n=_n: getattr(T, _n)(a, b),
            with_samples(
                _shift_samples,
                fixed(
                    Sample((7, _i([1, 2, 70], np.int8)), name="number first"),
                    Sample((2, 3), name="two numbers (error)"),
                ),
            ),
            dtypes=("float32",),
        ),
        OpEntry(
            f"Tensor.__{_dunder}__",
            lambda T, a, b, _d=_dunder: getattr(operator, _d)(a, b),
            _shift_samples,
            dtypes=("float32",),
        ),
        OpEntry(
            f"Tensor.__r{_dunder}__",
            lambda T, a, n, _d=_dunder: getattr(operator, _d)(n, a),
            _rshift_scalar_samples,
            dtypes=("float32",),
        ),
        OpEntry(
            f"Tensor.{_n}_",
            _ishift(f"{_n}_"),
            _shift_inplace_samples,
            dtypes=("float32",),
        ),
        OpEntry(
            f"Tensor.__i{_dunder}__",
            _ishift(f"__i{_dunder}__"),
            _shift_inplace_samples,
            dtypes=("float32",),
        ),
    )


def _heaviside_samples(dtype: str) -> list[Sample]:
    x = tensor_arg(_arr(-1.5, 0.0, 2.0, NAN, -0.0, INF, -INF))
    return [
        Sample((x, tensor_arg(_arr(0.5))), name="zero, nan and inf inputs"),
        Sample((x, tensor_arg(_arr(0.5), requires_grad=False)), name="values without grad"),
        Sample(
            (tensor_arg(_arr(0.0, 1.0), requires_grad=False), tensor_arg(_arr(3.0, 4.0))),
            name="only values requires grad",
        ),
        Sample((tensor_arg(np.zeros((2, 1))), tensor_arg(_arr(1.0, 2.0, 3.0))), name="broadcast"),
        Sample((tensor_arg(np.array(0.0)), tensor_arg(np.array(3.0))), name="0-d"),
        Sample((_i([-1, 0, 3]), _i([7])), name="int64"),
        Sample((_i([0, 3], np.uint8), _i([7], np.uint8)), name="uint8"),
        Sample((_i([True, False], np.bool_), _i([True], np.bool_)), name="bool"),
        Sample((x, _i([1])), name="different dtypes (error)"),
        Sample((_i([0]), tensor_arg(_arr(0.5))), name="int and float (error)"),
        Sample(
            (tensor_arg(np.array([1 + 1j])), tensor_arg(np.array([1 + 1j]))),
            name="complex (error)",
        ),
        Sample((tensor_arg(np.ones(2)), tensor_arg(np.ones(3))), name="bad broadcast"),
        Sample((x, 0.5), name="number values (error)"),
    ]


def _heaviside_(T: Any, a: Any, v: Any) -> Any:
    return a.clone().heaviside_(v)


register(
    # torch has no derivative for heaviside: a grad-requiring input gives a NotImplemented
    # node (compared by the grad_fn check) and backward through it raises
    OpEntry(
        "heaviside",
        lambda T, a, v: T.heaviside(a, v),
        _heaviside_samples,
    ),
    OpEntry("Tensor.heaviside", lambda T, a, v: a.heaviside(v), _heaviside_samples),
    OpEntry(
        "Tensor.heaviside_",
        _heaviside_,
        lambda dt: [
            *_heaviside_samples(dt)[:2],
            *_heaviside_samples(dt)[5:],
            Sample((tensor_arg(_arr(0.0)), tensor_arg(_arr(1.0, 2.0))), name="broadcast into self"),
        ],
    ),
)

# --- aliases and the remaining arithmetic --------------------------------------------------

_DOMAIN = {name: (lo, hi, edges) for name, (lo, hi), edges in _UNARY}
_DOMAIN["neg"] = (-2, 2, (0.0, -0.0))
for _alias, _name in (
    ("absolute", "abs"),
    ("arccos", "acos"),
    ("arccosh", "acosh"),
    ("arcsin", "asin"),
    ("arcsinh", "asinh"),
    ("arctan", "atan"),
    ("arctanh", "atanh"),
    ("negative", "neg"),
):
    _lo, _hi, _edges = _DOMAIN[_name]
    register(
        OpEntry(
            _alias,
            lambda T, a, _n=_alias: (getattr(T, _n)(a), getattr(a, _n)()),
            unary(_lo, _hi, _edges),
            covers=(_alias, f"Tensor.{_alias}"),
        )
    )

register(
    OpEntry(
        "square",
        lambda T, a: (T.square(a), a.square()),
        with_samples(
            unary(edges=(0.0, -0.0, INF, NAN)),
            fixed(ints([3, -2, 0]), bools([True, False])),
        ),
        covers=("square", "Tensor.square"),
    ),
    OpEntry(
        "positive",
        lambda T, a: (T.positive(a * 1), +(a * 1), +a),
        with_samples(unary(), fixed(ints([3, -2]), bools([True, False]))),
        covers=("positive", "Tensor.positive", "Tensor.__pos__"),
    ),
    OpEntry(
        "rsub",
        lambda T, a, b, **kw: T.rsub(a, b, **kw),
        with_samples(
            binary(),
            fixed(
                Sample((tensor_arg(_arr(1.0, 2.0)), tensor_arg(_arr(3.0, -1.0))), {"alpha": 2.5}),
                Sample((tensor_arg(_arr(1.0, 2.0)), 4.0), {"alpha": -2}, name="scalar, alpha"),
                ints([1, 2], [5, 7]),
                Sample((tensor_arg(np.array([1, 2])), 1.5), name="int and float scalar"),
                bools([True, False], [True, True]),
            ),
        ),
    ),
)


def _where_samples(dtype: str) -> list[Sample]:
    r = _rng()
    cond = tensor_arg(np.array([[True, False, True, False]] * 3))
    x = r.uniform(-2, 2, (3, 4))
    return [
        Sample((cond, tensor_arg(x), tensor_arg(r.uniform(-2, 2, (3, 4)))), name="same shape"),
        Sample(
            (
                tensor_arg(np.array([True, False, True, True])),
                tensor_arg(x[:, :1]),
                tensor_arg(x[0]),
            ),
            name="all broadcast",
        ),
        Sample(
            (tensor_arg(np.array([True, False, True])), tensor_arg(x[:, :1]), tensor_arg(x[0])),
            name="not broadcastable (error)",
        ),
        Sample((cond, tensor_arg(x), 0.0), name="python scalar other"),
        Sample((cond, 1.5, tensor_arg(x)), name="python scalar input"),
        Sample((cond, tensor_arg(x), tensor_arg(np.array(2.0))), name="0-d other"),
        Sample(
            (cond, tensor_arg(x, layout="transposed"), tensor_arg(x, requires_grad=False)),
            name="transposed, other without grad",
        ),
        Sample(
            (tensor_arg(np.zeros((0, 4), bool)), tensor_arg(x[:0]), tensor_arg(x[0])), name="empty"
        ),
        Sample(
            (tensor_arg(np.array(True)), tensor_arg(np.array(1.0)), tensor_arg(np.array(2.0))),
            name="0-d",
        ),
        Sample((tensor_arg(np.array([1, 0])), tensor_arg(_arr(1.0, 2.0)), 0.0), name="int cond"),
        Sample(
            (tensor_arg(np.array([True, False])), tensor_arg(np.array([1, 2])), 2.5),
            name="int input, float scalar",
        ),
    ]


def _where_nan_trap(T: Any, x: Any) -> Any:
    # the untaken branch still gets a zero grad through its own formula: 0 * inf = nan (14.10)
    return T.where(x > 0, x.sqrt(), 0.0), T.where(x > 0, T.log(x), x)


register(
    OpEntry("where", lambda T, c, a, b: T.where(c, a, b), _where_samples),
    OpEntry(
        "where NaN trap",
        _where_nan_trap,
        fixed(Sample((tensor_arg(_arr(0.0, 1.0, -1.0, 4.0)),), name="kinks")),
    ),
)


# conjugation and the parts of a complex number: identities on real tensors (the same object,
# so gradients flow straight through), torch's error for imag of a real tensor; the complex
# values themselves (no gradient) are checked by tests/ops/test_conj.py
def _parts_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((tensor_arg(r.standard_normal((2, 3))),), name="2-d"),
        Sample((tensor_arg(np.array(1.5)),), name="0-d"),
    ]


for _name in ("conj", "conj_physical", "resolve_conj", "real"):
    register(
        OpEntry(
            _name,
            lambda T, a, _n=_name: (getattr(T, _n)(a) * 2, getattr(T, _n)(a) is a),
            _parts_samples,
            covers=(_name, f"Tensor.{_name}"),
        )
    )
register(
    OpEntry(
        "imag",
        lambda T, a: (T.imag(a), a.imag),
        _parts_samples,
        covers=("imag", "Tensor.imag", "Tensor.is_conj"),
    ),
    OpEntry(
        "Tensor.is_conj", lambda T, a: (a * 2, a.is_conj(), a.conj().is_conj()), _parts_samples
    ),
    OpEntry(  # (torch's _conj asserts on a real tensor: a complex one made from it)
        "Tensor._conj",
        lambda T, a: ((a * (1 + 2j))._conj().imag * 2, (a * (1 + 2j))._conj().is_conj()),
        _parts_samples,
    ),
    OpEntry(
        "Tensor._neg_view",
        lambda T, a: (a._neg_view() * 2, a._neg_view().is_neg(), a._neg_view().resolve_neg()),
        _parts_samples,
    ),
    OpEntry(
        "conj_physical_",
        lambda T, a: T.conj_physical_(a.clone()) * 2 + a.clone().conj_physical_(),
        _parts_samples,
        covers=("conj_physical_", "Tensor.conj_physical_"),
    ),
)


# complex numbers from real tensors and back: the entries take and return real tensors (the
# harness's inputs and gradients are real), so the complex gradients in between are checked
# against torch through view_as_real
def _complex_pair_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample(
            (tensor_arg(r.standard_normal((2, 3))), tensor_arg(r.standard_normal((2, 3)))),
            name="2-d",
        ),
        Sample(
            (tensor_arg(r.standard_normal(3)), tensor_arg(r.standard_normal((2, 1)))),
            name="broadcast",
        ),
        Sample((tensor_arg(np.array(0.7)), tensor_arg(np.array(-1.2))), name="0-d"),
        Sample(
            (tensor_arg(r.standard_normal((2, 3))), tensor_arg(r.standard_normal((2, 4)))),
            name="shapes differ: error",
        ),
        Sample(
            (
                tensor_arg(r.standard_normal((2, 3)), layout="transposed"),
                tensor_arg(r.standard_normal((2, 3)), requires_grad=False),
            ),
            name="transposed, one without grad",
        ),
    ]


def _pairs_last_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((tensor_arg(r.standard_normal((3, 2))),), name="2-d"),
        Sample((tensor_arg(r.standard_normal((2, 4, 2))),), name="3-d"),
        Sample((tensor_arg(r.standard_normal(2)),), name="1-d: one number"),
        Sample((tensor_arg(r.standard_normal((2, 3))),), name="last dim 3: error"),
        Sample(
            (tensor_arg(r.standard_normal((2, 3)), layout="transposed"),), name="strided: error"
        ),
    ]


register(
    OpEntry(
        "complex",
        lambda T, a, b: T.view_as_real(T.complex(a, b) * T.complex(b, a)),
        _complex_pair_samples,
        covers=("complex", "view_as_real"),
    ),
    OpEntry(
        "polar",
        lambda T, a, b: T.view_as_real(T.polar(a.abs() + 0.1, b)),
        _complex_pair_samples,
        covers=("polar",),
    ),
    OpEntry(
        "view_as_complex",
        lambda T, a: T.view_as_real(T.view_as_complex(a).exp()),
        _pairs_last_samples,
        covers=("view_as_complex",),
    ),
)
