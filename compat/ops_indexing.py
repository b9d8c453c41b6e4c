"""Op database entries for indexing ops (shadowgrad/ops/indexing.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg


def _x(shape: tuple[int, ...] = (3, 4), layout: str = "contiguous") -> Any:
    return tensor_arg(np.random.default_rng(3).standard_normal(shape), layout=layout)


def _idx(v: Any) -> Any:
    return tensor_arg(np.asarray(v, dtype=np.int64), requires_grad=False)


def _mask(v: Any) -> Any:
    return tensor_arg(np.asarray(v, dtype=bool), requires_grad=False)


# Index descriptions, turned into library objects inside the op (lists and slices stay as is).
GETITEM = [
    ("int", (1,)),
    ("negative int", (-1,)),
    ("slice", (slice(1, None),)),
    ("trivial slice", (slice(None),)),
    ("step slice", (slice(None, None, 2),)),
    ("ellipsis", (Ellipsis, 1)),
    ("none", (None, 0)),
    ("list", ([0, 2, 2],)),  # duplicates accumulate in backward (semantics 14.13)
    ("negative list", ([-1, 0],)),
    ("advanced pair", ([0, 2], [1, 3])),
    ("advanced separated by slice", ([0, 1], slice(None), [1, 2])),
    ("int and list", (1, [0, 2])),
    ("slice and list", (slice(None), [3, 0])),
    ("bool scalar", (True,)),
    ("false scalar", (False,)),
    ("0-d int tensor", ("t0",)),
    ("mask", ("mask",)),
    ("mask row", ("maskrow",)),
    ("out of bounds", (5,)),
    ("list out of bounds", ([0, 9],)),
    ("too many", (0, 0, 0, 0)),
    ("float", (1.5,)),
    ("empty list", ([],)),
]


def _resolve(T: Any, x: Any, index: tuple[Any, ...]) -> tuple[Any, ...]:
    out = []
    for i in index:
        if i == "t0":
            out.append(T.tensor(1))
        elif i == "mask":
            out.append(x.detach() > 0)
        elif i == "maskrow":
            out.append(T.tensor([True, False, True]))
        elif isinstance(i, list) and all(isinstance(k, int) for k in i) and i:
            out.append(T.tensor(i))
        else:
            out.append(i)
    return tuple(out)


def _getitem(T: Any, x: Any, index: tuple[Any, ...]) -> Any:
    return x[_resolve(T, x, index)]


def _setitem(T: Any, x: Any, v: Any, index: tuple[Any, ...]) -> Any:
    y = x * 1
    y[_resolve(T, x, index)] = v
    return y


def _getitem_samples(dtype: str) -> list[Sample]:
    out = [Sample((_x((3, 4, 2)), ix), name=n) for n, ix in GETITEM]
    out.append(Sample((_x((4, 3), "transposed"), ([0, 1], 1)), name="non-contiguous"))
    out.append(Sample((_x((0, 3)), (slice(None), [0, 2])), name="empty"))
    out.append(Sample((tensor_arg(np.array(2.0)), (Ellipsis,)), name="0-d ellipsis"))
    out.append(Sample((tensor_arg(np.array(2.0)), (None,)), name="0-d none"))
    return out


def _setitem_samples(dtype: str) -> list[Sample]:
    r = np.random.default_rng(5)
    v = tensor_arg
    return [
        Sample((_x(), 2.5, (1,)), name="int, scalar"),
        Sample((_x(), v(r.standard_normal(4)), (1,)), name="int, row"),
        Sample((_x(), v(r.standard_normal((1, 4))), (slice(1, 2),)), name="slice, broadcast"),
        Sample((_x(), v(r.standard_normal((1, 2))), (slice(None), slice(1, 3))), name="block"),
        Sample((_x(), v(np.array(3.0)), (Ellipsis,)), name="ellipsis, 0-d"),
        Sample((_x(), v(r.standard_normal(4)), (slice(None),)), name="trivial slice"),
        Sample((_x(), v(r.standard_normal((2, 4))), ([0, 0],)), name="duplicate rows"),
        Sample((_x(), v(r.standard_normal(2)), ([0, 2], [1, 3])), name="advanced pair"),
        Sample((_x(), 0.0, ("mask",)), name="mask, scalar"),
        Sample((_x(), v(r.standard_normal(2)), (slice(1, None), [0, 3])), name="slice + list"),
        Sample((_x(), v(r.standard_normal(3)), (slice(None), 1)), name="column"),
        Sample((_x(), v(r.standard_normal(5)), (1,)), name="bad shape"),
        Sample((_x(), v(r.standard_normal(3)), ([0, 1],)), name="bad advanced shape"),
    ]


def _gather_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_x(), 0, _idx([[0, 1, 2, 0], [1, 1, 0, 2]])), name="dim 0, repeats"),
        Sample((_x(), 1, _idx([[3], [0], [1]])), name="dim 1, smaller"),
        Sample((_x(), -1, _idx([[0, 0]])), name="index smaller in both"),
        Sample((_x((4, 3), "transposed"), 1, _idx([[2, 0]])), name="non-contiguous"),
        Sample((_x(), 0, _idx([[3]])), name="out of bounds"),
        Sample((_x(), 0, _idx([0])), name="wrong ndim"),
        Sample((tensor_arg(np.array(2.0)), 0, _idx(0)), name="0-d"),
    ]


def _scatter_samples(dtype: str) -> list[Sample]:
    src = tensor_arg(np.random.default_rng(8).standard_normal((2, 4)))
    return [
        Sample((_x(), 0, _idx([[0, 1, 2, 0], [1, 0, 2, 2]]), src), name="src"),
        Sample((_x(), 1, _idx([[0, 3], [1, 1]]), src), name="src bigger than index"),
        Sample((_x(), 0, _idx([[0, 1]]), 1.5), name="value"),
        Sample((_x(), 0, _idx([[4]]), 1.5), name="out of bounds"),
    ]


def _scatter(T: Any, x: Any, d: int, i: Any, s: Any) -> Any:
    if isinstance(s, float):
        return T.scatter(x, d, i, value=s)
    return T.scatter(x, d, i, s)


def _scatter_add_samples(dtype: str) -> list[Sample]:
    return [s for s in _scatter_samples(dtype) if not isinstance(s.args[3], float)]


def _index_add_samples(dtype: str) -> list[Sample]:
    src = tensor_arg(np.random.default_rng(9).standard_normal((3, 4)))
    return [
        Sample((_x(), 0, _idx([0, 2, 0]), src), name="repeats"),
        Sample((_x(), 0, _idx([0, 2, 0]), src), {"alpha": 2.0}, name="alpha"),
        Sample((_x(), 1, _idx([3, 1, 0]), tensor_arg(np.ones((3, 3)))), name="dim 1"),
        Sample((_x(), 0, _idx([5, 0, 0]), src), name="out of range"),
        Sample((_x(), 0, _idx([0]), src), name="count mismatch"),
    ]


def _index_select_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_x(), 0, _idx([2, 0, 2])), name="repeats"),
        Sample((_x(), -1, _idx([1])), name="dim -1"),
        Sample((_x(), 1, _idx(3)), name="0-d index"),
        Sample((_x(), 0, _idx([])), name="empty index"),
        Sample((_x(), 0, _idx([3])), name="out of range"),
        Sample((_x(), 0, _idx([[0]])), name="2-d index"),
    ]


def _index_copy_samples(dtype: str) -> list[Sample]:
    src = tensor_arg(np.random.default_rng(2).standard_normal((2, 4)))
    return [
        Sample((_x(), 0, _idx([2, 0]), src), name="rows"),
        Sample((_x(), 0, _idx([2, 5]), src), name="out of bounds"),
    ]


def _index_fill_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_x(), 1, _idx([0, 2]), 3.0), name="scalar"),
        Sample((_x(), 0, _idx([1]), tensor_arg(np.array(2.0))), name="0-d tensor value"),
        Sample((_x(), 0, _idx([7]), 1.0), name="out of bounds"),
    ]


def _masked_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_x(), _mask([[True, False, True, False]] * 3)), name="same shape"),
        Sample((_x(), _mask([True, False, False, True])), name="broadcast mask"),
        Sample((_x((3, 1)), _mask([[True, False], [False, True], [True, True]])), name="bcast in"),
        Sample((_x(), _mask(np.zeros((3, 4), bool))), name="all false"),
        Sample((_x(), _idx([1, 0, 0, 1])), name="not bool"),
        Sample((_x(), _mask([True, False])), name="bad shape"),
    ]


def _masked_scatter_samples(dtype: str) -> list[Sample]:
    src = tensor_arg(np.random.default_rng(4).standard_normal(13))
    return [
        Sample((_x(), _mask([[True, False, True, False]] * 3), src), name="more source"),
        Sample((_x(), _mask([True, False, False, True]), src), name="broadcast mask"),
        Sample((_x(), _mask(np.ones((3, 4), bool)), tensor_arg(np.ones(3))), name="too few"),
    ]


def _take_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_x(), _idx([[0, 11], [5, 5]])), name="repeats"),
        Sample((_x(), _idx([-1, 0])), name="negative"),
        Sample((_x((4, 3), "transposed"), _idx([1, 2])), name="non-contiguous"),
        Sample((_x(), _idx([12])), name="out of range"),
    ]


def _take_along_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_x(), _idx([[0, 1, 2, 0]]), 0), name="broadcast index"),
        Sample((_x(), _idx([[3], [0], [3]]), 1), name="dim 1"),
        Sample((_x(), _idx([0, 11, 11])), name="flat"),
    ]


def _index_put_samples(dtype: str) -> list[Sample]:
    v = tensor_arg(np.random.default_rng(6).standard_normal(3))
    return [
        Sample((_x(), (_idx([0, 0, 2]), _idx([1, 1, 3])), v), name="duplicates"),
        Sample((_x(), (_idx([0, 0, 2]), _idx([1, 1, 3])), v, True), name="accumulate"),
        Sample((_x(), (_idx([2, 0]),), tensor_arg(np.ones(4))), name="rows, broadcast"),
    ]


def _nonzero_samples(dtype: str) -> list[Sample]:
    return [
        Sample((tensor_arg(np.array([[0.0, 1.0], [2.0, 0.0]]), requires_grad=False),)),
        Sample((tensor_arg(np.array(3.0), requires_grad=False),), name="0-d"),
        Sample((tensor_arg(np.array(0.0), requires_grad=False),), name="0-d zero"),
        Sample((tensor_arg(np.zeros((0, 2)), requires_grad=False),), name="empty"),
    ]


_SR_SELF = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 0.0, 7.0, 8.0], [-1.0, 2.0, 0.0, 3.0]])
_SR_INDEX = [[0, 1, 2, 0], [1, 0, 2, 2]]
# ties with self and between sources (amax/amin), zeros in self and src (prod)
_SR_SRC = np.array([[2.0, 0.0, 0.0, 4.0], [-3.0, 6.0, 2.0, 1.0]])


def _scatter_reduce_samples(dtype: str) -> list[Sample]:
    r = np.random.default_rng(11)
    x, i, src = tensor_arg(_SR_SELF), _idx(_SR_INDEX), tensor_arg(_SR_SRC)
    smooth_x = tensor_arg(r.uniform(0.5, 2.0, (3, 4)))
    smooth_src = tensor_arg(r.uniform(0.5, 2.0, (2, 4)))
    out = []
    for red in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            out.append(Sample((x, 0, i, src, red), {"include_self": inc}, name=f"{red}, {inc}"))
            out.append(
                Sample(
                    (smooth_x, 0, i, smooth_src, red),
                    {"include_self": inc},
                    name=f"{red}, {inc}, no ties",
                )
            )
    two_zeros = tensor_arg(np.array([[0.0, 0.0, 0.0, 4.0], [0.0, 6.0, 2.0, 1.0]]))
    excluded_tie = (tensor_arg(_arr(3.0, 5.0)), 0, _idx([0, 0]), tensor_arg(_arr(3.0, 1.0)))
    out += [
        Sample((x, 0, i, two_zeros, "prod"), name="prod, two zeros in one slot"),
        Sample((*excluded_tie, "amax"), {"include_self": False}, name="excluded self ties"),
        Sample(
            (x, 1, _idx([[3, 3], [0, 1], [2, 2]]), tensor_arg(np.ones((3, 2))), "mean"),
            name="dim 1",
        ),
        Sample((x, -1, _idx([[0], [3], [3]]), tensor_arg(np.ones((3, 1))), "amin"), name="dim -1"),
        Sample(
            (tensor_arg(_arr(1.0, NAN_)), 0, _idx([0, 1]), tensor_arg(_arr(NAN_, 2.0)), "amax"),
            name="nan",
        ),
        Sample(
            (tensor_arg(np.array(2.0)), 0, _idx(0), tensor_arg(np.array(3.0)), "prod"), name="0-d"
        ),
        Sample(
            (
                tensor_arg(_arr(1.0, 2.0)),
                0,
                _idx(np.zeros(0, np.int64)),
                tensor_arg(_arr(3.0)),
                "mean",
            ),
            {"include_self": False},
            name="empty index",
        ),
        Sample(
            (_ints([1, 2, 3]), 0, _idx([0, 0, 1]), _ints([2, 2, -7]), "mean"),
            name="int mean rounds down",
        ),
        Sample(
            (_ints([1, 2, 3]), 0, _idx([0, 0]), _ints([2, 5]), "mean"),
            {"include_self": False},
            name="int mean, no self",
        ),
        Sample((_ints([1, 2, 3]), 0, _idx([0, 0]), _ints([-5, 7]), "amin"), name="int amin"),
        Sample((_bools([True, False]), 0, _idx([1]), _bools([True]), "amax"), name="bool amax"),
        Sample((_bools([True, False]), 0, _idx([1]), _bools([True]), "mean"), name="bool mean"),
        Sample((x, 0, i, src, "add"), name="bad reduce"),
        Sample((x, 0, _idx([[5]]), src, "sum"), name="out of bounds"),
        Sample((x, 0, _idx([[-1]]), src, "sum"), name="negative index"),
        Sample((x, 0, _idx([0, 1]), src, "sum"), name="index ndim"),
        Sample((x, 0, _idx([[0, 1, 2]] * 3), src, "sum"), name="index larger than src"),
        Sample((x, 0, i, _ints([[1, 2, 3, 4]] * 2), "sum"), name="dtype mismatch"),
        Sample((x, 0, i, 2.0, "sum"), name="number src"),
    ]
    return out


NAN_ = float("nan")


def _arr(*v: float) -> np.ndarray:
    return np.array(v, dtype=np.float64)


def _ints(v: Any) -> Any:
    return tensor_arg(np.asarray(v, dtype=np.int64))


def _bools(v: Any) -> Any:
    return tensor_arg(np.asarray(v, dtype=bool))


def _scatter_reduce_(T: Any, x: Any, *a: Any, **k: Any) -> Any:
    return x.clone().scatter_reduce_(*a, **k)


def _legacy_samples(dtype: str) -> list[Sample]:
    x, i, src = tensor_arg(_SR_SELF), _idx(_SR_INDEX), tensor_arg(_SR_SRC)
    return [
        Sample((x, 0, i, src), {"reduce": "add"}, name="add"),
        Sample((x, 0, i, src), {"reduce": "multiply"}, name="multiply"),
        Sample((x, 0, i), {"value": 2.5, "reduce": "add"}, name="value add"),
        Sample((x, 0, i), {"value": 2.5, "reduce": "multiply"}, name="value multiply"),
        Sample(
            (x, 0, i, tensor_arg(_SR_SRC, requires_grad=False)),
            {"reduce": "add"},
            name="only self requires grad",
        ),
        Sample(
            (_ints([1, 2, 3]), 0, _idx([0, 0])),
            {"value": 2.5, "reduce": "multiply"},
            name="int, float value",
        ),
        Sample(
            (_bools([True, False]), 0, _idx([1]), _bools([True])),
            {"reduce": "add"},
            name="bool add",
        ),
        Sample(
            (tensor_arg(np.array(2.0)), 0, _idx(0), tensor_arg(np.array(3.0))),
            {"reduce": "multiply"},
            name="0-d",
        ),
        Sample((x, 0, i, src), {"reduce": "sum"}, name="bad reduce"),
        Sample((x, 0, _idx([[5]]), src), {"reduce": "foo"}, name="bad reduce before bounds"),
        Sample((x, 0, i, src), {"reduce": None}, name="reduce None"),
    ]


register(
    OpEntry("Tensor.__getitem__", _getitem, _getitem_samples),
    OpEntry("Tensor.__setitem__", _setitem, _setitem_samples),
    OpEntry("gather", lambda T, x, d, i: T.gather(x, d, i), _gather_samples),
    OpEntry("scatter", _scatter, _scatter_samples),
    # the deprecated reduce forms: no derivative in torch (a NotImplemented node)
    OpEntry("scatter (reduce=)", lambda T, *a, **k: T.scatter(*a, **k), _legacy_samples),
    OpEntry(
        "Tensor.scatter_ (reduce=)",
        lambda T, x, *a, **k: x.clone().scatter_(*a, **k),
        _legacy_samples,
    ),
    OpEntry(
        "scatter_reduce",
        lambda T, *a, **k: T.scatter_reduce(*a, **k),
        _scatter_reduce_samples,
    ),
    OpEntry(
        "Tensor.scatter_reduce",
        lambda T, x, *a, **k: x.scatter_reduce(*a, **k),
        _scatter_reduce_samples,
    ),
    OpEntry("Tensor.scatter_reduce_", _scatter_reduce_, _scatter_reduce_samples),
    OpEntry("scatter_add", lambda T, x, d, i, s: T.scatter_add(x, d, i, s), _scatter_add_samples),
    OpEntry(
        "Tensor.scatter_",
        lambda T, x, d, i, s: _scatter(T, x, d, i, s) * 0 + (x * 1).scatter_(d, i, s),
        lambda dt: _scatter_samples(dt)[:2],
    ),
    OpEntry("index_select", lambda T, *a: T.index_select(*a), _index_select_samples),
    OpEntry("index_add", lambda T, *a, **k: T.index_add(*a, **k), _index_add_samples),
    OpEntry(
        "Tensor.index_add_",
        lambda T, x, *a, **k: (x * 1).index_add_(*a, **k),
        lambda dt: _index_add_samples(dt)[:2],
    ),
    OpEntry("index_copy", lambda T, *a: T.index_copy(*a), _index_copy_samples),
    OpEntry("index_fill", lambda T, *a: T.index_fill(*a), _index_fill_samples),
    OpEntry("masked_select", lambda T, *a: T.masked_select(*a), _masked_samples),
    OpEntry("masked_scatter", lambda T, *a: T.masked_scatter(*a), _masked_scatter_samples),
    OpEntry("take", lambda T, *a: T.take(*a), _take_samples),
    OpEntry("take_along_dim", lambda T, *a: T.take_along_dim(*a), _take_along_samples),
    OpEntry("index_put", lambda T, *a: T.index_put(*a), _index_put_samples),
    OpEntry(
        "Tensor.index_put_",
        lambda T, x, *a: (x * 1).index_put_(*a),
        _index_put_samples,
        covers=("index_put_",),
    ),
    OpEntry(
        "Tensor.scatter_add_",
        lambda T, x, *a: (x * 1).scatter_add_(*a),
        _scatter_add_samples,
    ),
    OpEntry(
        "Tensor.index_copy_",
        lambda T, x, *a: (x * 1).index_copy_(*a),
        _index_copy_samples,
    ),
    OpEntry(
        "Tensor.index_fill_",
        lambda T, x, *a: (x * 1).index_fill_(*a),
        _index_fill_samples,
    ),
    OpEntry(
        "Tensor.masked_scatter_",
        lambda T, x, *a: (x * 1).masked_scatter_(*a),
        lambda dt: [s for s in _masked_scatter_samples(dt) if s.name != "broadcast mask"],
    ),
    OpEntry(
        "nonzero",
        lambda T, x: (T.nonzero(x), *T.nonzero(x, as_tuple=True), T.argwhere(x)),
        _nonzero_samples,
        supports_grad=False,
        covers=("argwhere",),
    ),
)
