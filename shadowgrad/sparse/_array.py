"""The array of a sparse COO tensor (see docs/sparse.md).

A sparse tensor is an ordinary Tensor whose `_data` is a `SparseArray`: an ndarray subclass
with the tensor's shape and dtype but no memory of its own (every stride is 0, over one zero
element), carrying the COO payload: `_i` (int64 indices, sparse_dim x nnz), `_v` (values,
nnz x dense dims) and `_c` (whether it is coalesced). Everything that reads only the shape and
dtype (size(), dim(), dtype, numel, the engine's gradient metadata) works unchanged; every
numpy computation on it goes through `__array_ufunc__` / `__array_function__`, which compute
the sparse result torch gives or refuse as torch refuses. Dense arrays never see this class:
the registry's existing rare branch for results that are not a plain ndarray hands a sparse
result on (`_device.result`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

_I64 = np.dtype(np.int64)


class SparseArray(np.ndarray):
    """A sparse COO tensor's array: shape and dtype, and the payload (module docstring)."""

    __array_priority__ = 3000.0
    _sg_sparse = True
    _csr = False  # the sparse_csr layout: the same (coalesced) entries, compressed rows shown
    _shared = False  # a gradient whose indices another tensor holds (values()' backward)
    _i: np.ndarray
    _v: np.ndarray
    _c: bool

    def __array_finalize__(self, obj: Any) -> None:
        if obj is not None:
            self._i = getattr(obj, "_i", None)  # type: ignore[assignment]
            self._v = getattr(obj, "_v", None)  # type: ignore[assignment]
            self._c = getattr(obj, "_c", False)
            self._csr = getattr(obj, "_csr", False)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        from ._ops import ufunc_call

        return ufunc_call(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        from ._ops import function_call

        return function_call(func, args, kwargs)

    # ndarray methods that do not go through the protocols
    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        dt = np.dtype(dtype)
        if dt == self.dtype and kwargs.get("copy", True) is False:
            return self
        r = make(self._i, self._v.astype(dt), self.shape, self._c, self._csr)
        r._cast_from = self.dtype  # (copy_'s error names the source's dtype)
        return r

    def copy(self, order: Any = "C") -> Any:  # type: ignore[override]
        return make(self._i.copy(), self._v.copy(), self.shape, self._c, self._csr)

    def as_first_grad(self) -> Any:
        """The copy a leaf keeps as its first .grad. torch steals a gradient whose indices and
        values nothing else holds, through _sparse_coo_tensor_unsafe, which drops the coalesced
        flag; it clones (keeping the flag) one sharing its indices (values()' backward)."""
        c = self._c if self._shared else False
        return make(self._i.copy(), self._v.copy(), self.shape, c, self._csr)

    def __copy__(self) -> Any:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Any:
        return self.copy()

    def transpose(self, *axes: Any) -> Any:  # type: ignore[override]
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        return permuted(self, tuple(int(a) % max(self.ndim, 1) for a in axes))

    @property
    def T(self) -> Any:  # type: ignore[override]
        return self.transpose()

    def swapaxes(self, a: int, b: int) -> Any:  # type: ignore[override]
        axes = list(range(self.ndim))
        axes[a], axes[b] = axes[b], axes[a]
        return permuted(self, tuple(axes))

    def reshape(self, *shape: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if shape in ((), ((),)) and self.size == 1:
            return dense(self).reshape(())  # Tensor.item's read of the one value
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def view(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if not args and not kwargs:  # a view op's new view of the array
            from ._ops import not_on_sparse

            raise not_on_sparse("view")
        return super().view(*args, **kwargs)

    def __getitem__(self, key: Any) -> Any:
        from ._ops import not_on_sparse, select

        # select's key: full slices, then one int (and an Ellipsis)
        if type(key) is not tuple:
            key = (key,)
        if key and key[-1] is Ellipsis:
            key = key[:-1]
        while key and key[-1] == slice(None):  # (trailing full slices select nothing)
            key = key[:-1]
        if (
            key
            and isinstance(key[-1], (int, np.integer))
            and not isinstance(key[-1], bool)
            and all(k == slice(None) for k in key[:-1])
        ):
            return select(self, len(key) - 1, int(key[-1]))
        raise not_on_sparse("index")

    def __setitem__(self, key: Any, value: Any) -> None:
        from ._ops import not_on_sparse

        raise not_on_sparse("copy_")

    def tolist(self) -> Any:
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def item(self, *args: Any) -> Any:
        return dense(self).item(*args)

    def __reduce__(self) -> Any:
        return (make, (self._i, self._v, tuple(self.shape), self._c, self._csr))


def _stub(dt: np.dtype) -> np.ndarray:
    """The one element every entry of a sparse array's shape reads. Nothing should read it (the
    protocols compute from the payload); code that does anyway (np.asarray of the array) gets
    NaN rather than plausible zeros, for floating dtypes."""
    return np.full(1, np.nan, dt) if dt.kind in "fc" else np.zeros(1, dt)


def make(
    i: np.ndarray, v: np.ndarray, shape: Any, coalesced: bool, csr: bool = False
) -> SparseArray:
    """A SparseArray of these indices (sparse_dim x nnz) and values (nnz x dense dims)."""
    v = np.asarray(v)
    shape = tuple(int(s) for s in shape)
    a = np.ndarray.__new__(SparseArray, shape, v.dtype, _stub(v.dtype), 0, (0,) * len(shape))
    a.flags.writeable = False
    i = np.asarray(i, dtype=_I64)
    want = (len(shape) - (v.ndim - 1), v.shape[0])
    a._i = i if i.shape == want else i.reshape(want)
    a._v = v
    a._c = bool(coalesced) or v.shape[0] < 2  # torch: fewer than two entries are coalesced
    if csr:
        a._csr = True
    return a


def as_csr(a: SparseArray) -> SparseArray:
    """a in the sparse_csr layout: its coalesced (row-major) entries."""
    c = coalesced(a)
    return make(c._i, c._v, c.shape, True, csr=True)


# the in-place unary ops whose sparse kernels refuse an uncoalesced tensor (the out-of-place
# ones coalesce first)
_NEEDS_COALESCED = frozenset(
    (
        "abs", "sqrt", "sin", "tan", "tanh", "sinh", "asin", "atan", "asinh", "atanh", "expm1",
        "log1p", "floor", "ceil", "trunc", "round", "sign", "sgn", "deg2rad", "rad2deg", "relu",
        "erf", "erfinv", "frac", "nan_to_num",
    )
)  # fmt: skip


def write_sparse(target: SparseArray, value: Any, op: Any = None) -> None:
    """An in-place op's result stored into a sparse tensor: its entries replace the old."""
    name = getattr(op, "__name__", "").strip("_")
    if name in _NEEDS_COALESCED and not target._c:
        raise RuntimeError(f"{name}_ requires coalesced input")
    if type(value) is not SparseArray:
        from ._ops import not_on_sparse

        raise not_on_sparse("copy_")
    if target._csr:
        value = coalesced(value)
    target._i, target._v, target._c = value._i, value._v.astype(target.dtype), value._c


def is_sparse(a: Any) -> bool:
    return type(a) is SparseArray


def sparse_dim(a: SparseArray) -> int:
    return int(a._i.shape[0])


def coalesced(a: SparseArray) -> SparseArray:
    """a coalesced: duplicates summed, indices sorted (a itself when it is)."""
    if a._c:
        return a
    i, v = a._i, a._v
    sd, nnz = i.shape
    if nnz == 0:
        return make(i, v, a.shape, True)
    if sd == 0:
        return make(np.zeros((0, 1), _I64), v.sum(0, keepdims=True), a.shape, True)
    lin = np.ravel_multi_index(tuple(i), a.shape[:sd])
    order = np.argsort(lin, kind="stable")
    lin = lin[order]
    uniq, start = np.unique(lin, return_index=True)
    vals = v[order]
    if len(uniq) != nnz:
        vals = np.add.reduceat(vals, start, axis=0).astype(v.dtype, copy=False)
    idx = np.stack(np.unravel_index(uniq, a.shape[:sd])).astype(_I64)
    return make(idx, vals, a.shape, True)


def dense(a: SparseArray) -> np.ndarray:
    """a's dense array (duplicates summed)."""
    out = np.zeros(a.shape, a.dtype)
    i, v = a._i, a._v
    if not i.shape[1]:
        return out
    if i.shape[0] == 0:
        out[...] = v.sum(0)
        return out
    if v.dtype == np.bool_:
        np.logical_or.at(out, tuple(i), v)
        return out
    np.add.at(out, tuple(i), v)
    return out


def permuted(a: SparseArray, axes: tuple[int, ...]) -> SparseArray:
    """a with its dims permuted (sparse dims among themselves: torch's transpose/permute)."""
    sd = sparse_dim(a)
    if any(ax >= sd for ax in axes[:sd]):
        raise RuntimeError(
            "transpose: transposing a sparse dimension with a dense dimension is not supported"
        )
    shape = tuple(a.shape[ax] for ax in axes)
    v = a._v
    if len(axes) > sd:
        v = v.transpose((0, *(ax - sd + 1 for ax in axes[sd:])))
    same = tuple(axes[:sd]) == tuple(range(sd))
    return make(a._i[list(axes[:sd])], v, shape, a._c and same)


def from_dense(d: np.ndarray, sd: int) -> SparseArray:
    """The coalesced sparse array of d's nonzero entries (rows, for a hybrid sparse_dim)."""
    nz = d != 0 if sd == d.ndim else (d != 0).reshape((*d.shape[:sd], -1)).any(-1)
    if sd == 0:
        return make(np.zeros((0, 1), _I64), d[None], d.shape, True)
    idx = np.stack(np.nonzero(nz)).astype(_I64) if nz.ndim else np.zeros((0, 1), _I64)
    vals = d[tuple(idx)] if idx.shape[1] else np.zeros((0, *d.shape[sd:]), d.dtype)
    return make(idx, np.ascontiguousarray(vals), d.shape, True)


def mask_values(g: Any, i: np.ndarray, shape: Any) -> np.ndarray:
    """The values of g (dense or sparse) at indices i, one row per index (torch's
    sparse_mask / sparse constructor backward: each duplicate gets the whole value)."""
    sd = i.shape[0]
    if type(g) is not SparseArray:
        g = np.asarray(g)
        if not i.shape[1]:
            return np.zeros((0, *g.shape[sd:]), g.dtype)
        if sd == 0:
            return np.broadcast_to(g, (i.shape[1], *g.shape)).copy()
        return np.ascontiguousarray(g[tuple(i)])
    gc = coalesced(g)
    out = np.zeros((i.shape[1], *tuple(shape[sd:])), gc.dtype)
    if not i.shape[1] or not gc._i.shape[1]:
        return out
    if sd == 0:
        out[...] = gc._v[0]
        return out
    dims = tuple(shape[:sd])
    glin = np.ravel_multi_index(tuple(gc._i), dims)
    lin = np.ravel_multi_index(tuple(i), dims)
    pos = np.searchsorted(glin, lin)
    pos_c = np.minimum(pos, len(glin) - 1)
    hit = glin[pos_c] == lin
    out[hit] = gc._v[pos_c[hit]]
    return out
