"""Op database entries for the statistics family (shadowgrad/ops/statistics.py): quantiles
across interpolation modes, dims and NaNs, covariance with frequency and importance weights,
numerical gradients, angle of real inputs, window functions, random samplers' errors."""

from __future__ import annotations

from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg

_R = np.random.default_rng(7)
_X = _R.standard_normal((3, 5))
_XN = _X.copy()
_XN[0, 1] = np.nan
_XN[2, :] = np.nan


def _t(a: Any, rg: bool = True) -> Any:
    return tensor_arg(np.asarray(a, dtype=np.float64), requires_grad=rg)


def _i(a: Any) -> Any:
    return tensor_arg(np.asarray(a, dtype=np.int64), requires_grad=False)


def _fixed(*samples: Sample) -> Any:
    return lambda dtype: list(samples)


_Q = _t([0.0, 0.25, 0.5, 1.0], rg=False)


def _quantile_samples(x: np.ndarray) -> Any:
    out = []
    for interp in ("linear", "lower", "higher", "midpoint", "nearest"):
        out += [
            Sample((_t(x), 0.3), {"interpolation": interp}, name=f"{interp} all"),
            Sample((_t(x), _Q, 1, True), {"interpolation": interp}, name=f"{interp} q tensor"),
            Sample((_t(x), 0.7, 0), {"interpolation": interp}, name=f"{interp} dim 0"),
        ]
    out += [
        Sample((_t(x), 1.5), name="q out of range (error)"),
        Sample((_t(x), 0.5), {"interpolation": "cubic"}, name="bad interpolation (error)"),
        Sample((_t(np.zeros((0,))), 0.5), name="empty (error)"),
        Sample((_i([1, 2]), 0.5), name="integer input (error)"),
        Sample((_t(x), 0.5, 2), name="bad dim (error)"),
    ]
    return _fixed(*out)


for _name in ("quantile", "nanquantile"):
    register(
        OpEntry(
            _name,
            lambda T, *a, _n=_name, **k: getattr(T, _n)(*a, **k),
            _quantile_samples(_X if _name == "quantile" else _XN),
            covers=(_name, f"Tensor.{_name}"),
        )
    )

register(
    OpEntry(
        "cov",
        lambda T, x, **k: T.cov(x, **k),
        _fixed(
            Sample((_t(_X),), name="2-d"),
            Sample((_t(_X[0]),), name="1-d"),
            Sample((_t(_X),), {"correction": 0}, name="correction 0"),
            Sample((_t(_X),), {"fweights": _i([1, 2, 0, 1, 3])}, name="fweights"),
            Sample(
                (_t(_X),),
                {"fweights": _i([1, 2, 0, 1, 3]), "aweights": _t(_R.random(5), rg=False)},
                name="both weights",
            ),
            Sample((_t(_X),), {"fweights": _i([1, -2, 0, 1, 3])}, name="negative (error)"),
            Sample((_t(np.zeros((2, 2, 2))),), name="3-d (error)"),
        ),
        covers=("cov", "Tensor.cov"),
    ),
    OpEntry(
        "corrcoef",
        lambda T, x: T.corrcoef(x),
        _fixed(
            Sample((_t(_X),), name="2-d"),
            Sample((_t(_X[:1]),), name="one variable"),
            Sample((_t(np.zeros((2, 2, 2))),), name="3-d (error)"),
        ),
        covers=("corrcoef", "Tensor.corrcoef"),
    ),
    OpEntry(
        "angle",
        lambda T, x: T.angle(x),
        _fixed(
            Sample((_t([[-1.0, 0.5, 2.0], [-3.0, 0.25, 4.0]]),), name="signs"),
            Sample((_i([-1, 0, 2]),), name="int"),
        ),
        covers=("angle", "Tensor.angle"),
    ),
    OpEntry(
        "gradient",
        lambda T, x, **k: T.gradient(x, **k),
        _fixed(
            Sample((_t(_X),), name="default"),
            Sample((_t(_X),), {"edge_order": 2}, name="edge order 2"),
            Sample((_t(_X),), {"spacing": 2.0, "dim": 1}, name="scalar spacing, dim"),
            Sample((_t(_X),), {"spacing": [2.0, 0.5]}, name="spacing list"),
            Sample(
                (_t(_X),),
                {"spacing": (_t([0.0, 1, 3], rg=False), _t([0.0, 1, 2, 5, 5.5], rg=False))},
                name="coordinates",
            ),
            Sample(
                (_t(_X),),
                {
                    "spacing": (_t([0.0, 1, 3], rg=False), _t([0.0, 1, 2, 5, 5.5], rg=False)),
                    "edge_order": 2,
                },
                name="coordinates, edge order 2",
            ),
            Sample((_t(_X),), {"edge_order": 3}, name="edge order 3 (error)"),
            Sample((_t(_X),), {"spacing": [1.0, 2.0, 3.0]}, name="spacing length (error)"),
        ),
    ),
)

for _w in ("hann_window", "hamming_window", "blackman_window", "bartlett_window"):
    register(
        OpEntry(
            _w,
            lambda T, *a, _w=_w, **k: getattr(T, _w)(*a, **k),
            _fixed(
                *(
                    Sample((n, p), name=f"n={n} periodic={p}")
                    for n in (0, 1, 5, 8)
                    for p in (True, False)
                ),
                Sample((-1,), name="negative length (error)"),
            ),
            supports_grad=False,
        )
    )
register(
    OpEntry(
        "kaiser_window",
        lambda T, *a, **k: T.kaiser_window(*a, **k),
        _fixed(
            *(
                Sample((n, p, 5.0), name=f"n={n} periodic={p}")
                for n in (0, 1, 5, 8)
                for p in (True, False)
            ),
            Sample((-1,), name="negative length (error)"),
        ),
        supports_grad=False,
        tolerances={"float32": (1e-6, 1e-6), "float64": (1e-6, 1e-6)},
        tolerance_reason="float32 windows: i0 is evaluated in float64 here, in float by torch",
    ),
    OpEntry(
        "poisson",
        lambda T, x: T.poisson(x),
        _fixed(Sample((_t([-1.0, 2.0]),), name="negative rate (error)")),
        supports_grad=False,
    ),
    OpEntry(
        "binomial",
        lambda T, c, p: T.binomial(c, p),
        _fixed(Sample((_i([5, 3]), _t([0.2, 0.4])), name="integer count (error)")),
        supports_grad=False,
    ),
)
for _m, _a in (("cauchy_", (0.0, -1.0)), ("log_normal_", (1.0, -1.0)), ("geometric_", (1.5,))):
    register(
        OpEntry(
            f"Tensor.{_m}",
            lambda T, x, *a, _m=_m: getattr(x.detach().clone(), _m)(*a),
            _fixed(Sample((_t([1.0, 2.0]), *_a), name="bad parameter (error)")),
            supports_grad=False,
        )
    )

_PRED = _fixed(
    Sample((_t([1.0, 2.0]),), name="float"),
    Sample((_t([3.0]),), name="one value"),
    Sample((_i([0]),), name="int zero"),
    Sample((_i([1, 2]).value.astype(np.uint8),), name="not a tensor (error)"),
)
for _p in ("is_complex", "is_conj", "is_inference", "is_nonzero", "is_signed"):
    register(OpEntry(_p, lambda T, x, _p=_p: getattr(T, _p)(x), _PRED, supports_grad=False))
register(
    OpEntry(
        "is_same_size",
        lambda T, x, y: T.is_same_size(x, y),
        _fixed(
            Sample((_t([1.0, 2.0]), _t([3.0, 4.0])), name="same"),
            Sample((_t([1.0, 2.0]), _t([[3.0, 4.0]])), name="different"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "can_cast",
        lambda T, a, b: T.can_cast(*(getattr(T, n) if isinstance(n, str) else n for n in (a, b))),
        _fixed(
            *(
                Sample((a, b), name=f"{a} to {b}")
                for a in ("bool", "uint8", "int64", "float32", "float64")
                for b in ("bool", "int32", "float16", "float64")
            ),
            Sample((1, "float32"), name="not a dtype (error)"),
        ),
        supports_grad=False,
    ),
)

# --- histogram, histogramdd -------------------------------------------------------------------

_H = _R.standard_normal(40)
_H[:4] = [0.0, 0.0, 1.0, -1.0]  # ties on edges of the range below
_HD = _R.standard_normal((4, 5, 2))


def _histogram_samples(dtype: str) -> list[Sample]:
    x = _t(_H, rg=False)
    edges = _t([-1.0, -0.2, 0.0, 0.5, 1.0], rg=False)
    return [
        Sample((x,), name="default 100 bins"),
        Sample((_t(_H.reshape(5, 8)), 7), name="7 bins over the data, 2-d"),
        Sample((x, 4), {"range": (-1.0, 1.0)}, name="range, values on and outside edges"),
        Sample((x, 4), {"range": (0, 0)}, name="empty range widened"),
        Sample((x, edges), name="edges tensor"),
        Sample((x, edges), {"density": True}, name="edges tensor, density"),
        Sample((x, 5), {"weight": _t(np.abs(_H)), "density": True}, name="weight, density"),
        Sample((_t([2.0, 2.0]), 3), name="constant"),
        Sample((_t(np.zeros(0)), 3), name="empty input"),
        Sample((x, 0), name="no bins (error)"),
        Sample((x, 3), {"range": (1.0, -1.0)}, name="max below min (error)"),
        Sample((_t([1.0, np.inf]), 3), name="infinite range (error)"),
        Sample((_t([1.0, np.nan]), 3), name="nan range (error)"),
        Sample((_i([1, 2]), 3), name="integers (error)"),
        Sample((x, _t([[0.0, 1.0]])), name="2-d edges (error)"),
        Sample((x, _t([0.0])), name="one edge (error)"),
        Sample((x, 3), {"weight": _t(np.ones(5))}, name="weight shape (error)"),
    ]


def _histogramdd_samples(dtype: str) -> list[Sample]:
    x = _t(_HD)
    e0, e1 = _t([-1.0, 0.0, 2.0], rg=False), _t([-2.0, -0.5, 0.5, 2.0], rg=False)
    w = _t(np.abs(_HD[..., 0]))
    return [
        Sample((x, 3), name="int bins"),
        Sample((x, [2, 4]), {"range": [-1.0, 1.0, -2.0, 2.0]}, name="bin counts, range"),
        Sample((x, [2, 3]), {"weight": w, "density": True}, name="weight, density"),
        Sample((x, [e0, e1]), name="edge tensors"),
        Sample((x, [e0, e1]), {"weight": w, "density": True}, name="edge tensors, density"),
        Sample((_t(np.zeros((0, 3))), 2), name="empty input"),
        Sample((_t(_H), 3), name="1-d input (error)"),
        Sample((x, [2]), name="too few bin counts (error)"),
        Sample((x, [e0]), name="too few edge tensors (error)"),
        Sample((x, 2), {"range": [0.0, 1.0]}, name="short range (error)"),
        Sample((x, 2), {"weight": _t(np.ones(3))}, name="weight shape (error)"),
    ]


register(
    OpEntry(
        "histogram",
        lambda T, *a, **k: T.histogram(*a, **k),
        _histogram_samples,
        supports_grad=False,
        covers=("Tensor.histogram",),
    ),
    OpEntry(
        "histogramdd",
        lambda T, *a, **k: T.histogramdd(*a, **k),
        _histogramdd_samples,
        supports_grad=False,
    ),
)
