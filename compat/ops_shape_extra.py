"""Op database entries for the extra shape, indexing, scan and counting ops
(shadowgrad/ops/shape_extra.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg
from .ops_shape import samples_with


def _r() -> np.random.Generator:
    return np.random.default_rng(11)


def _t(value: Any, requires_grad: bool = True, layout: str = "contiguous") -> Any:
    return tensor_arg(np.asarray(value, dtype=np.float64), requires_grad, layout)


def _idx(value: Any) -> Any:
    return tensor_arg(np.asarray(value, dtype=np.int64), False)


def _s(*args: Any, name: str = "", **kwargs: Any) -> Sample:
    return Sample(args, kwargs, name=name)


def _ties() -> np.ndarray:
    """A matrix with repeated values and rows (ties for scans, duplicates for unique)."""
    return np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 2.0, 2.0], [1.0, 3.0, 3.0, 0.5]])


def _repeat_interleave_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4))
    return [
        _s(_t(x), 2, name="int, flattened"),
        _s(_t(x, layout="transposed"), 3, dim=1, name="int, dim 1, transposed"),
        _s(_t(x, layout="sliced"), 2, dim=-2, output_size=6, name="int, output_size"),
        _s(_t(x), 0, dim=0, name="zero repeats"),
        _s(_t(x), _idx([1, 0, 2]), dim=0, name="tensor repeats"),
        _s(_t(x), _idx([2]), name="one repeat, flattened"),
        _s(_t(x), _idx(3), dim=1, name="0-d repeats"),
        _s(_t(1.5), 3, name="0-d input"),
        _s(_t(np.zeros((0, 2))), 2, dim=0, name="empty"),
        _s(_t(x), -1, name="negative int (error)"),
        _s(_t(x), _idx([1, 2]), dim=0, name="wrong repeats size (error)"),
        _s(_t(x), _idx([1, -1, 1]), dim=0, name="negative repeats (error)"),
        _s(_t(x), 2, dim=2, name="bad dim (error)"),
        _s(_t(x), 2, output_size=5, name="bad output_size (error)"),
    ]


def _unique_samples(dtype: str) -> list[Sample]:
    t = _ties()
    nan = np.array([3.0, np.nan, 1.0, 3.0, np.nan, 2.0])
    return [
        _s(_t(t), name="2-d"),
        _s(_t(t), return_inverse=True, return_counts=True, name="inverse and counts"),
        _s(_t(t, layout="transposed"), return_inverse=True, name="transposed"),
        _s(_t(t), dim=0, return_inverse=True, return_counts=True, name="rows"),
        _s(_t(t, layout="sliced"), dim=1, return_counts=True, name="columns"),
        _s(_t(nan), return_inverse=True, return_counts=True, name="NaNs are distinct"),
        _s(_t(2.5), return_inverse=True, name="0-d"),
        _s(_t(np.zeros(0)), return_counts=True, name="empty"),
        _s(_t(np.zeros((0, 3))), dim=0, return_inverse=True, name="empty rows"),
        _s(_t(t), dim=2, name="bad dim (error)"),
        _s(_t(np.zeros((0, 3))), dim=1, name="empty unselected dim (error)"),
        _s(_t(2.5), dim=0, name="0-d with dim (error)"),
    ]


def _unique_consecutive_samples(dtype: str) -> list[Sample]:
    t = _ties()
    return [
        _s(_t(t), name="2-d"),
        _s(_t(t), return_inverse=True, return_counts=True, name="inverse and counts"),
        _s(_t(t), dim=0, return_inverse=True, return_counts=True, name="rows"),
        _s(_t(t, layout="transposed"), dim=1, return_counts=True, name="columns"),
        _s(_t([1.0, np.nan, np.nan, 1.0]), return_counts=True, name="NaN runs"),
        _s(_t(2.5), return_inverse=True, name="0-d"),
        _s(_t(2.5), dim=0, name="0-d with dim (error)"),
    ]


def _unfold_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 5))
    return [
        _s(_t(x), 1, 2, 1, name="overlapping windows"),
        _s(_t(x, layout="transposed"), 0, 2, 1, name="transposed"),
        _s(_t(x, layout="sliced"), -1, 2, 2, name="sliced, step 2"),
        _s(_t(x), 1, 3, 5, name="one window"),
        _s(_t(x), 1, 0, 2, name="empty windows"),
        _s(_t(1.5), 0, 1, 1, name="0-d"),
        _s(_t(np.zeros((0, 4))), 1, 2, 1, name="empty"),
        _s(_t(x), 1, 6, 1, name="size too large (error)"),
        _s(_t(x), 1, 2, 0, name="zero step (error)"),
        _s(_t(x), 1, -1, 1, name="negative size (error)"),
        _s(_t(x), 2, 1, 1, name="bad dim (error)"),
    ]


def _dsplit_samples(dtype: str) -> list[Sample]:
    x = _r().standard_normal((2, 2, 4))
    return [
        _s(_t(x), 2, name="sections"),
        _s(_t(x, layout="sliced"), [1, 3], name="indices"),
        _s(_t(x), 3, name="indivisible (error)"),
        _s(_t(x[0]), 2, name="2-d (error)"),
    ]


def _cum_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4))
    return [
        _s(_t(x), 1, name="2-d"),
        _s(_t(x, layout="transposed"), 0, name="transposed"),
        _s(_t(x, layout="sliced"), -1, name="sliced"),
        _s(_t(_ties()), 1, name="ties"),
        _s(_t(_ties()), 0, name="ties along rows"),
        _s(_t(1.5), 0, name="0-d"),
        _s(_t(np.zeros((0, 3))), 0, name="empty"),
        _s(_t(x), 2, name="bad dim (error)"),
    ]


def _logcumsumexp_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4))
    return [
        *_cum_samples(dtype)[:3],
        _s(_t(x * 50), 1, name="large values"),
        _s(_t(_ties()), 0, name="ties"),
        _s(_t(1.5), 0, name="0-d"),
        _s(_t(np.zeros((0, 3))), 1, name="empty"),
        _s(_t([-np.inf, -np.inf, 1.0]), 0, name="-inf"),
        _s(_t(x), 2, name="bad dim (error)"),
        _s(_idx([1, 2]), 0, name="integer (error)"),
    ]


def _aminmax_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4))
    return [
        _s(_t(x), name="all"),
        _s(_t(x, layout="transposed"), dim=1, name="dim 1, transposed"),
        _s(_t(x, layout="sliced"), dim=0, keepdim=True, name="keepdim, sliced"),
        _s(_t(_ties()), dim=1, name="ties"),
        _s(_t(_ties()), name="ties, all"),
        _s(_t(x), keepdim=True, name="all, keepdim"),
        _s(_t(1.5), name="0-d"),
        _s(_t(1.5), dim=0, keepdim=True, name="0-d, dim"),
        _s(_t(np.zeros((2, 0))), dim=0, name="empty, kept dim"),
        _s(_t(np.zeros(0)), name="empty (error)"),
        _s(_t(np.zeros((2, 0))), dim=1, name="empty dim (error)"),
    ]


register(
    OpEntry(
        "repeat_interleave",
        lambda T, x, *a, **k: T.repeat_interleave(x, *a, **k),
        _repeat_interleave_samples,
        covers=("Tensor.repeat_interleave",),
    ),
    OpEntry(
        "unique",
        lambda T, x, **k: T.unique(x, **k),
        _unique_samples,
        supports_grad=False,  # torch records Unique2Backward0, whose backward is not implemented
        covers=("Tensor.unique",),
    ),
    OpEntry(
        "unique_consecutive",
        lambda T, x, **k: x.unique_consecutive(**k),
        _unique_consecutive_samples,
        supports_grad=False,  # UniqueConsecutiveBackward0 is not implemented in torch either
        covers=("Tensor.unique_consecutive",),
    ),
    OpEntry("Tensor.unfold", lambda T, x, *a: x.unfold(*a), _unfold_samples),
    OpEntry(
        "split_with_sizes",
        lambda T, x, *a: T.split_with_sizes(x, *a),
        samples_with(
            (([1, 1], 0), {}),
            (([1, 0, 3], 1), {}),
            (([4, 0], -1), {}),
            (([1, 2], 0), {}),  # wrong sum (error)
            (([3, -1], 0), {}),  # negative size (error)
        ),
        covers=("Tensor.split_with_sizes",),
    ),
    OpEntry(
        "hsplit",
        lambda T, x, s: T.hsplit(x, s),
        samples_with(
            ((2,), {}),
            (([1, 2],), {}),
            ((3,), {}),  # indivisible (error)
            extra=lambda: [_s(_t([1.0, 2.0, 3.0, 4.0]), 2, name="vector"), _s(_t(1.5), 1)],
        ),
        covers=("Tensor.hsplit",),
    ),
    OpEntry(
        "vsplit",
        lambda T, x, s: T.vsplit(x, s),
        samples_with(
            ((2,), {}),
            (([1, 5],), {}),
            ((0,), {}),  # zero sections (error)
            extra=lambda: [_s(_t([1.0, 2.0]), 2, name="vector (error)")],
        ),
        covers=("Tensor.vsplit",),
    ),
    OpEntry("dsplit", lambda T, x, s: T.dsplit(x, s), _dsplit_samples, covers=("Tensor.dsplit",)),
    OpEntry("cummax", lambda T, x, d: T.cummax(x, d), _cum_samples, covers=("Tensor.cummax",)),
    OpEntry("cummin", lambda T, x, d: x.cummin(d), _cum_samples, covers=("Tensor.cummin",)),
    OpEntry(
        "logcumsumexp",
        lambda T, x, d: T.logcumsumexp(x, d),
        _logcumsumexp_samples,
        covers=("Tensor.logcumsumexp",),
    ),
    OpEntry(
        "aminmax", lambda T, x, **k: T.aminmax(x, **k), _aminmax_samples, covers=("Tensor.aminmax",)
    ),
)


# --- scatter-style copies, narrow_copy, diagflat, block_diag, products, row_stack -------------


def _mat() -> np.ndarray:
    return _r().standard_normal((3, 4))


def _select_scatter_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(x), _t(x[0] * 2), 0, 1, name="row"),
        _s(_t(x, layout="transposed"), _t(x[:, 0], layout="sliced"), 1, -1, name="column"),
        _s(_t(x[0]), _t(3.0), 0, 2, name="1-d into 0-d src"),
        _s(_t(x), _t(x[0]), 0, 5, name="index out of range (error)"),
        _s(_t(x), _t(x[:, 0]), 0, 1, name="wrong src size (error)"),
        _s(_t(1.5), _t(1.5), 0, 0, name="0-d (error)"),
    ]


def _as_strided_scatter_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(x), _t(x[:2, :2] * 2), (2, 2), (1, 3), 1, name="overlapping region"),
        _s(_t(x, layout="transposed"), _t(x[0] * 3), (x.shape[1],), (2,), name="transposed"),
        _s(_t(x, layout="sliced"), _t(x[:2, 0]), (2,), (1,), name="sliced, default offset"),
        _s(_t(x), _t(x[:1]), (2, 2), (1, 3), name="wrong src size (error)"),
        _s(_t(x), _t(x[:2, 0]), (2,), (100,), name="out of bounds (error)"),
    ]


def _slice_scatter_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(x), _t(x[:1] * 2), 0, 0, 1, name="rows"),
        _s(_t(x, layout="transposed"), _t(x[:, ::2] * 3), 1, None, None, 2, name="step 2"),
        _s(_t(x), _t(x[:, :2], layout="sliced"), 1, -2, name="negative start"),
        _s(_t(x), _t(np.zeros((3, 0))), 1, 5, 9, name="empty slice"),
        _s(_t(x), _t(x[:, :2]), 1, 0, 2, 0, name="zero step (error)"),
        _s(_t(x), _t(x[:1]), 0, 0, 2, name="wrong src size (error)"),
    ]


def _diagonal_scatter_samples(dtype: str) -> list[Sample]:
    x = _mat()
    y = _r().standard_normal((2, 3, 4))
    return [
        _s(_t(x), _t(x[0, :3] * 2), name="main"),
        _s(_t(x, layout="transposed"), _t(x[0, :2]), 2, name="above"),
        _s(_t(x), _t(x[:2, 0]), -1, name="below"),
        _s(_t(y), _t(y[:, 0, :3]), 0, 2, 1, name="3-d"),
        _s(_t(x), _t(x[0, :2]), name="wrong src size (error)"),
        _s(_t(x), _t(x[0, :3]), 0, 0, 0, name="same dims (error)"),
    ]


def _narrow_copy_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(x), 1, 1, 2, name="2-d"),
        _s(_t(x, layout="transposed"), 0, 1, 2, name="transposed"),
        _s(_t(x, layout="sliced"), 1, -3, 2, name="negative start"),
        _s(_t(x), 0, 0, 0, name="empty"),
        _s(_t(x), 1, 3, 2, name="past the end (error)"),
        _s(_t(x), 1, -5, 2, name="start out of range (error)"),
        _s(_t(1.5), 0, 0, 1, name="0-d (error)"),
    ]


def _diagflat_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(x), name="2-d"),
        _s(_t(x, layout="transposed"), 1, name="transposed, above"),
        _s(_t(x[0], layout="sliced"), -2, name="vector, below"),
        _s(_t(1.5), name="0-d"),
        _s(_t(np.zeros(0)), name="empty"),
    ]


def _block_diag_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(1.5), _t(x[0]), _t(x, layout="transposed"), name="0-d, 1-d, 2-d"),
        _s(_t(x[:2, :2]), _idx([[1, 2]]), name="mixed dtypes"),
        _s(_t(np.zeros((0, 2))), _t(x[1], layout="sliced"), name="empty block"),
        _s(_t(x), name="one"),
        _s(_t(x[None]), name="3-d (error)"),
    ]


def _cartesian_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s(_t(x[0]), _t(x[1, :2]), name="two"),
        _s(_t(x[0], layout="sliced"), _t(x[1, :2]), _t(x[2, :3]), name="three"),
        _s(_t(x[0]), name="one"),
        _s(_t(x[0]), _t(np.zeros(0)), name="empty"),
        _s(_t(x), name="2-d (error)"),
        _s(_t(x[0]), _idx([1, 2]), name="mixed dtypes (error)"),
    ]


def _combinations_samples(dtype: str) -> list[Sample]:
    v = _mat()[0]
    return [
        _s(_t(v), name="pairs"),
        _s(_t(v, layout="sliced"), 3, name="triples"),
        _s(_t(v), 2, True, name="with replacement"),
        _s(_t(v), 1, name="r=1"),
        _s(_t(v), 5, name="r > n"),
        _s(_t(v), -1, name="negative r (error)"),
        _s(_t(_mat()), name="2-d (error)"),
    ]


def _row_stack_samples(dtype: str) -> list[Sample]:
    x = _mat()
    return [
        _s([_t(x[0]), _t(x[1], layout="sliced")], name="vectors"),
        _s((_t(x, layout="transposed"), _t(x[0])), name="matrix and vector"),
        _s([_t(1.5), _t(2.5)], name="0-d"),
        _s([_t(x), _t(x[:, :2])], name="mismatched (error)"),
    ]


def _tri_samples(dtype: str) -> list[Sample]:
    return [
        _s(3, 4, name="3x4"),
        _s(3, 4, 1, name="above"),
        _s(4, 2, -1, name="below"),
        _s(3, 3, -5, name="everything"),
        _s(2, 5, 9, name="nothing"),
        _s(0, 3, name="no rows"),
        _s(3, 3, dtype="int32", name="int32"),
        _s(3, 3, dtype="float32", name="float (error)"),
        _s(-1, 3, name="negative row (error)"),
        _s(3, -1, name="negative col (error)"),
    ]


def _tri(name: str) -> Any:
    def op(T: Any, *a: Any, dtype: str | None = None) -> Any:
        kw = {} if dtype is None else {"dtype": getattr(T, dtype)}
        return getattr(T, name)(*a, **kw)

    return op


register(
    OpEntry(
        "select_scatter",
        lambda T, *a: T.select_scatter(*a),
        _select_scatter_samples,
        covers=("Tensor.select_scatter",),
    ),
    OpEntry(
        "slice_scatter",
        lambda T, x, *a: x.slice_scatter(*a),
        _slice_scatter_samples,
        covers=("Tensor.slice_scatter",),
    ),
    OpEntry(
        "as_strided_scatter",
        lambda T, x, *a: x.as_strided_scatter(*a),
        _as_strided_scatter_samples,
        covers=("Tensor.as_strided_scatter",),
    ),
    OpEntry(
        "diagonal_scatter",
        lambda T, *a: T.diagonal_scatter(*a),
        _diagonal_scatter_samples,
        covers=("Tensor.diagonal_scatter",),
    ),
    OpEntry(
        "narrow_copy",
        lambda T, *a: T.narrow_copy(*a),
        _narrow_copy_samples,
        covers=("Tensor.narrow_copy",),
    ),
    OpEntry(
        "diagflat", lambda T, x, *a: x.diagflat(*a), _diagflat_samples, covers=("Tensor.diagflat",)
    ),
    OpEntry("block_diag", lambda T, *a: T.block_diag(*a), _block_diag_samples),
    OpEntry("cartesian_prod", lambda T, *a: T.cartesian_prod(*a), _cartesian_samples),
    OpEntry("combinations", lambda T, *a: T.combinations(*a), _combinations_samples),
    OpEntry("row_stack", lambda T, ts: T.row_stack(ts), _row_stack_samples),
    OpEntry("tril_indices", _tri("tril_indices"), _tri_samples, supports_grad=False),
    OpEntry("triu_indices", _tri("triu_indices"), _tri_samples, supports_grad=False),
)


# --- trapezoid, trapz, cumulative_trapezoid -----------------------------------------------------


def _trapz_samples(dtype: str) -> list[Sample]:
    y = _mat()
    xs = np.array([0.0, 1.0, 3.0, 4.5])
    return [
        _s(_t(y), name="unit spacing"),
        _s(_t(y, layout="transposed"), dx=2.5, name="dx, transposed"),
        _s(_t(y), dim=0, name="dim 0"),
        _s(_t(y, layout="sliced"), _t(xs), name="sample points"),
        _s(_t(y), _t(y * 2), dim=0, name="x like y"),
        _s(_t(y), _t(xs[None]), name="broadcast x"),
        _s(_t(y[:, :1]), name="one sample"),
        _s(_t(np.zeros((3, 0))), name="empty dim"),
        _s(_idx([1, 2, 3]), name="integers"),
        _s(_t(y), _t(np.zeros(3)), name="wrong x size (error)"),
        _s(_t(1.5), name="0-d (error)"),
        _s(tensor_arg(np.array([True, False])), name="bool (error)"),
    ]


def _cumtrapz_samples(dtype: str) -> list[Sample]:
    return [s for s in _trapz_samples(dtype) if s.name not in ("empty dim", "x like y")] + [
        _s(_t(np.zeros((3, 0))), name="empty dim"),
    ]


register(
    OpEntry("trapezoid", lambda T, *a, **k: T.trapezoid(*a, **k), _trapz_samples),
    OpEntry("trapz", lambda T, *a, **k: T.trapz(*a, **k), _trapz_samples),
    OpEntry(
        "cumulative_trapezoid",
        lambda T, *a, **k: T.cumulative_trapezoid(*a, **k),
        _cumtrapz_samples,
    ),
)


# --- searchsorted, bucketize (integer results) -----------------------------------------------


def _search_samples(dtype: str) -> list[Sample]:
    s = np.array([1.0, 2.0, 2.0, 3.0, np.nan])
    v = np.array([[0.0, 2.0, 2.5], [3.0, 4.0, np.nan]])
    return [
        _s(_t(s), _t(v), name="ties and NaN"),
        _s(_t(s), _t(v), right=True, name="right"),
        _s(_t(s), _t(v), side="right", out_int32=True, name="side, int32"),
        _s(_t(s), 2.0, name="number"),
        _s(_t([[1.0, 3.0], [2.0, 4.0]]), _t([[2.0], [3.0]]), name="rows"),
        _s(_t([3.0, 1.0, 2.0]), _t([2.0]), sorter=_idx([1, 2, 0]), name="sorter"),
        _s(_t(np.zeros(0)), _t(v), name="empty sequence"),
        _s(_t(s), _t(v), side="middle", name="bad side (error)"),
        _s(_t(s), _t(v), side="left", right=True, name="opposite sides (error)"),
        _s(_t([[1.0, 3.0], [2.0, 4.0]]), _t([2.0, 3.0]), name="mismatched rows (error)"),
        _s(_t(1.0), _t(v), name="0-d sequence (error)"),
    ]


def _bucketize_samples(dtype: str) -> list[Sample]:
    s = np.array([1.0, 2.0, 2.0, 3.0, np.nan])
    v = np.array([[0.0, 2.0, 2.5], [3.0, 4.0, np.nan]])
    return [
        _s(_t(v), _t(s), name="ties and NaN"),
        _s(_t(v), _t(s), right=True, name="right"),
        _s(_t(2.5), _t(s), out_int32=True, name="0-d, int32"),
        _s(_idx([1, 5, 7]), _idx([1, 3, 5, 7, 9]), right=True, name="integers"),
        _s(_t(v), _t([[1.0]]), name="2-d boundaries (error)"),
    ]


register(
    OpEntry(
        "searchsorted",
        lambda T, *a, **k: T.searchsorted(*a, **k),
        _search_samples,
        supports_grad=False,
    ),
    OpEntry(
        "bucketize",
        lambda T, *a, **k: T.bucketize(*a, **k),
        _bucketize_samples,
        supports_grad=False,
    ),
)


# --- meshgrid, cdist, isin, bincount, histc -----------------------------------------------------


def _meshgrid_samples(dtype: str) -> list[Sample]:
    a, b, c = _t([1.0, 2.0, 3.0]), _t([4.0, 5.0, 6.0, 7.0]), _t([0.5, -1.0])
    return [
        _s(a, b, indexing="ij", name="ij"),
        _s([a, b, c], indexing="xy", name="xy, list of three"),
        _s(_t([1.0, 2.0], layout="sliced"), b, indexing="xy", name="xy, sliced"),
        _s(a, indexing="xy", name="one tensor"),
        _s(a, b, indexing="foo", name="bad indexing (error)"),
        _s(a, _idx([1]), indexing="ij", name="mixed dtypes (error)"),
    ]


def _cdist_samples(dtype: str) -> list[Sample]:
    r = _r()
    a, b = r.standard_normal((2, 3, 4)), r.standard_normal((2, 5, 4))
    big = r.standard_normal((30, 4))
    ties = np.array([[1.0, 2.0], [3.0, 2.0]])
    return [
        _s(_t(a), _t(b), name="p=2, batched"),
        _s(_t(a[0]), _t(b[0], layout="transposed"), 1.0, name="p=1"),
        _s(_t(a), _t(b[:1]), 0.5, name="p=0.5, broadcast batch"),
        _s(_t(a[0]), _t(b[0]), 3.0, name="p=3"),
        _s(_t(a[0]), _t(b[0]), float("inf"), name="p=inf"),
        _s(_t(a[0]), _t(b[0]), 0.0, name="p=0"),
        _s(_t(a[0]), _t(big), name="p=2, large: matrix-product path"),
        _s(_t(a), _t(big[None].repeat(2, 0)), name="p=2, large, batched"),
        _s(_t(a), _t(b), 2.0, "use_mm_for_euclid_dist", name="mm forced"),
        _s(_t(a[0]), _t(big), 2.0, "donot_use_mm_for_euclid_dist", name="mm off"),
        _s(_t(ties), _t(ties[::-1].copy()), 1.0, name="ties and zero distances"),
        _s(_t(a), _t(b[..., :2]), name="column mismatch (error)"),
        _s(_t(a[0, 0]), _t(b), name="1-d (error)"),
        _s(_t(a), _t(b), -1.0, name="negative p (error)"),
        _s(_t(a), _t(b), 2.0, "sometimes", name="bad compute_mode (error)"),
        _s(_idx([[1]]), _idx([[2]]), name="integers (error)"),
    ]


def _isin_samples(dtype: str) -> list[Sample]:
    x = _t([[1.0, 2.0, np.nan], [4.0, 2.0, 3.0]], requires_grad=False)
    return [
        _s(x, _t([2.0, 4.0, np.nan], requires_grad=False), name="tensors, NaN never found"),
        _s(x, _t([2.0, 3.0], requires_grad=False), invert=True, name="invert"),
        _s(x, _t([4.0, 2.0], requires_grad=False), assume_unique=True, name="assume_unique"),
        _s(_idx([1, 2, 3]), 2, name="number test_element"),
        _s(3, _idx([1, 2, 3]), name="number element"),
        _s(_idx([1, 2, 3]), _t([2.0, 2.5], requires_grad=False), name="mixed dtypes"),
        _s(_idx([1, 2, 3]), True, name="bool (error)"),
        _s(2, 3, name="two numbers (error)"),
    ]


def _bincount_samples(dtype: str) -> list[Sample]:
    w = _t([0.5, 1.0, 2.0], requires_grad=False)
    return [
        _s(_idx([1, 3, 3]), name="counts"),
        _s(_idx([1, 3]), minlength=6, name="minlength"),
        _s(_idx([1, 3, 3]), w, name="weights"),
        _s(_idx(np.zeros(0)), name="empty"),
        _s(_idx([-1, 2]), name="negative (error)"),
        _s(_idx([[1, 2]]), name="2-d (error)"),
        _s(_idx([1, 2]), minlength=-1, name="negative minlength (error)"),
        _s(_idx([1, 2]), w, name="weights length (error)"),
        _s(w, name="floats (error)"),
    ]


def _histc_samples(dtype: str) -> list[Sample]:
    x = _r().standard_normal(50)
    return [
        _s(_t(x, requires_grad=False), name="default bins"),
        _s(_t(x, requires_grad=False), 7, name="7 bins over the data"),
        _s(_t(x, requires_grad=False), 4, -1, 1, name="range, values outside"),
        _s(_t([2.0, 2.0], requires_grad=False), 3, name="constant"),
        _s(_t([1.0, 2.0, 1.0, 4.0, 5.0], requires_grad=False), 4, name="on edges"),
        _s(_t(x, requires_grad=False), 0, name="no bins (error)"),
        _s(_t(x, requires_grad=False), 3, 2, 1, name="max below min (error)"),
        _s(_t([1.0, np.inf], requires_grad=False), 3, name="infinite range (error)"),
        _s(_idx([1, 2]), 3, name="integers (error)"),
    ]


def _broadcast_shapes_samples(dtype: str) -> list[Sample]:
    return [
        _s((2, 1), (3, 1, 4), 4, (), name="tuples, an int, an empty shape"),
        _s([0], (1,), name="zero size"),
        _s(name="no shapes"),
        _s((2,), (3,), name="mismatch (error)"),
        _s((2,), (-1,), name="negative against a size (error)"),
        _s((-1,), name="negative (error)"),
        _s(1.5, name="not a shape (error)"),
    ]


register(
    OpEntry(
        "broadcast_shapes",
        lambda T, *a: T.tensor(list(T.broadcast_shapes(*a)), dtype=T.int64),
        _broadcast_shapes_samples,
        supports_grad=False,
    ),
    OpEntry("meshgrid", lambda T, *a, **k: T.meshgrid(*a, **k), _meshgrid_samples),
    OpEntry("cdist", lambda T, *a: T.cdist(*a), _cdist_samples),
    OpEntry("isin", lambda T, *a, **k: T.isin(*a, **k), _isin_samples, supports_grad=False),
    OpEntry(
        "bincount",
        lambda T, *a, **k: T.bincount(*a, **k),
        _bincount_samples,
        supports_grad=False,
        covers=("Tensor.bincount",),
    ),
    OpEntry(
        "histc",
        lambda T, *a: T.histc(*a),
        _histc_samples,
        supports_grad=False,
        covers=("Tensor.histc",),
    ),
)


# --- put, fill_diagonal_, index_reduce, unravel_index, vander ------------------------------------


def _put_samples(dtype: str) -> list[Sample]:
    x = _r().standard_normal((2, 3))
    src = _t([1.0, 2.0, 3.0])
    return [
        _s(_t(x), _idx([0, -1, 4]), src, name="distinct"),
        _s(_t(x, layout="transposed"), _idx([[1], [2], [5]]), src, True, name="accumulate"),
        _s(_t(x), _idx([0, 5, 0]), src, True, name="accumulate, repeated"),
        _s(_t(x), _idx([6, 0, 1]), src, name="out of range (error)"),
        _s(_t(x), _idx([0, 1]), src, name="count mismatch (error)"),
    ]


def _index_reduce_samples(dtype: str) -> list[Sample]:
    x = np.array([[1.0, 2.0], [3.0, 0.0], [5.0, 6.0]])
    src = np.array([[2.0, 2.0], [7.0, 1.0], [3.0, 3.0]])
    i = _idx([0, 2, 0])
    out = []
    for reduce in ("prod", "mean", "amax", "amin"):
        out.append(_s(_t(x), 0, i, _t(src), reduce, name=reduce))
        out.append(
            _s(_t(x), 0, i, _t(src), reduce, include_self=False, name=f"{reduce}, without self")
        )
    return [
        *out,
        _s(_t(x.T), -1, i, _t(src.T, layout="transposed"), "amax", name="dim -1"),
        _s(_t(x), 0, i, _t(src), "sum", name="sum (error)"),
        _s(_t(x), 0, _idx([0, 3, 0]), _t(src), "prod", name="index out of range (error)"),
        _s(_t(x), 0, _idx([0, 1]), _t(src), "prod", name="index count (error)"),
        _s(_t(x), 0, i, _t(src[:, :1]), "prod", name="shape mismatch (error)"),
    ]


def _fill_diagonal(T: Any, x: Any, *a: Any, **k: Any) -> Any:
    y = x * 1
    y.fill_diagonal_(*a, **k)
    return y


def _fill_diagonal_samples(dtype: str) -> list[Sample]:
    r = _r()
    return [
        _s(_t(r.standard_normal((3, 3))), -1.0, name="square"),
        _s(_t(r.standard_normal((7, 3))), 2.0, wrap=True, name="tall, wrap"),
        _s(_t(r.standard_normal((7, 3))), 2.0, name="tall"),
        _s(_t(r.standard_normal((3, 5)), layout="transposed"), 0.5, wrap=True, name="transposed"),
        _s(_t(r.standard_normal((3, 3, 3))), 1.0, name="3-d"),
        _s(_t(r.standard_normal(3)), 1.0, name="1-d (error)"),
        _s(_t(r.standard_normal((2, 3, 3))), 1.0, name="unequal 3-d (error)"),
    ]


def _unravel_samples(dtype: str) -> list[Sample]:
    return [
        _s(_idx([4, 1, -1, 7]), (2, 3), name="wrapping"),
        _s(_idx(5), (2, 3), name="0-d"),
        _s(_idx([[0, 5], [3, 2]]), 4, name="int shape"),
        _s(_t([1.0], requires_grad=False), (2, 3), name="float indices (error)"),
        _s(_idx([1]), (2, -3), name="negative shape (error)"),
    ]


def _vander_samples(dtype: str) -> list[Sample]:
    x = _t([1.0, 2.0, 3.0], requires_grad=False)
    return [
        _s(x, name="square"),
        _s(x, 2, True, name="increasing"),
        _s(x, 4, name="wide"),
        _s(x, 1, name="one column"),
        _s(x, 0, name="no columns"),
        _s(_idx([1, 2, 3]), 4, name="integers"),
        _s(_t([[1.0]]), name="2-d (error)"),
        _s(x, -1, name="negative N (error)"),
    ]


register(
    OpEntry("put", lambda T, *a: T.put(*a), _put_samples, covers=("Tensor.put", "Tensor.put_")),
    OpEntry(
        "index_reduce",
        lambda T, *a, **k: T.index_reduce(*a, **k),
        _index_reduce_samples,
        covers=("Tensor.index_reduce", "Tensor.index_reduce_"),
    ),
    OpEntry(
        "Tensor.fill_diagonal_",
        _fill_diagonal,
        _fill_diagonal_samples,
    ),
    OpEntry(
        "unravel_index",
        lambda T, *a: T.unravel_index(*a),
        _unravel_samples,
        supports_grad=False,
    ),
    # torch's own backward fails (its cumprod input is overwritten in place), so only values
    OpEntry("vander", lambda T, *a: T.vander(*a), _vander_samples, supports_grad=False),
)


# --- logspace, scalar_tensor, range (creation) ---------------------------------------------------


def _logspace_samples(dtype: str) -> list[Sample]:
    return [
        _s(0, 2, 3, name="base 10"),
        _s(-1.0, 1.0, 5, 2.0, name="base 2"),
        _s(0, 3, 4, -2.0, name="negative base"),
        _s(0, 1, 1, name="one step"),
        _s(0, 1, -1, name="negative steps (error)"),
    ]


def _scalar_tensor_samples(dtype: str) -> list[Sample]:
    return [
        _s(3, name="int"),
        _s(2.5, name="float"),
        _s(True, name="bool"),
        _s(_t(4.0, requires_grad=False), name="0-d tensor"),
        _s(_t([1.0, 2.0], requires_grad=False), name="1-d tensor (error)"),
    ]


def _range_samples(dtype: str) -> list[Sample]:
    return [
        _s(1, 4, name="ints, both ends"),
        _s(0, 1, 0.25, name="float step"),
        _s(0, 0.9, 0.3, name="inexact end"),
        _s(4, 1, -1, name="descending"),
        _s(1, 4, 0, name="zero step (error)"),
        _s(4, 1, name="wrong direction (error)"),
    ]


register(
    OpEntry("logspace", lambda T, *a: T.logspace(*a), _logspace_samples, supports_grad=False),
    OpEntry(
        "scalar_tensor",
        lambda T, *a: T.scalar_tensor(*a),
        _scalar_tensor_samples,
        supports_grad=False,
    ),
    OpEntry("range", lambda T, *a: T.range(*a), _range_samples, supports_grad=False),
)


def _renorm_samples(dtype: str) -> list[Sample]:
    x = _r().standard_normal((3, 4)) * 2
    return [
        _s(_t(x), 2, 0, 1.5, name="p 2, rows"),
        _s(_t(x, layout="transposed"), 1, 1, 2.0, name="p 1, non-contiguous"),
        _s(_t(x), 3, -1, 0.5, name="p 3"),
        _s(_t(x), 2, 0, 100.0, name="under the limit"),
        _s(_t(x[:2]), 0, 0, 1.0, name="p 0 (error)"),
        _s(_t(x), 2, 0, -1.0, name="negative maxnorm (error)"),
        _s(_t(x[0]), 2, 0, 1.0, name="1-d (error)"),
    ]


register(
    OpEntry(
        "renorm",
        lambda T, x, *a: T.renorm(x, *a),
        _renorm_samples,
        covers=("Tensor.renorm",),
    ),
    OpEntry(
        "Tensor.renorm_",
        lambda T, x, *a: (x * 1).renorm_(*a),
        _renorm_samples,
    ),
)


# --- segment_reduce, nonzero_static, empty_permuted -----------------------------------------


def _segment_samples(dtype: str) -> list[Sample]:
    x = _r().standard_normal((7, 2))
    out = []
    for red in ("sum", "mean", "max", "min", "prod"):
        out.append(_s(_t(x), red, lengths=_idx([2, 0, 3, 2]), name=f"{red} lengths"))
        out.append(_s(_t(x.T), red, offsets=_idx([[0, 3, 7], [0, 0, 7]]), axis=1, initial=1.5,
                      name=f"{red} offsets axis 1 initial"))  # fmt: skip
    out.append(_s(_t(x), "sum", lengths=_idx([2, 2]), name="bad lengths (error)"))
    return out


register(
    OpEntry(
        "segment_reduce",
        lambda T, x, red, **k: T.segment_reduce(x, red, **k),
        _segment_samples,
        supports_gradgrad=False,  # torch's _segment_reduce_backward has no derivative
        xfails={"jvp": "torch has no forward-AD rule for segment_reduce either"},
    ),
    OpEntry(
        "nonzero_static",
        lambda T, x, **k: (T.nonzero_static(x, **k), x.nonzero_static(**k)),
        lambda dtype: [
            _s(_t([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]], False), size=s, fill_value=f)
            for s, f in ((5, -1), (2, 7), (0, -1), (-1, -1))
        ],
        supports_grad=False,
        covers=("Tensor.nonzero_static",),
    ),
    OpEntry(
        "empty_permuted",
        lambda T, size, layout: T.tensor(T.empty_permuted(size, layout).stride()),
        lambda dtype: [
            _s(size, layout)
            for size, layout in (((2, 3, 4), (2, 0, 1)), ((5, 2), (1, 0)), ((2, 3), (0, 0)))
        ],
        supports_grad=False,
    ),
)
