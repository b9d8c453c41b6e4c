"""numpy's protocols on a SparseArray: the sparse results torch gives, or torch's refusal."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._array import SparseArray, as_csr, coalesced, dense, make, mask_values

_ATEN = {
    "multiply": "mul.Tensor",
    "true_divide": "div.Tensor",
    "divide": "div.Tensor",
    "add": "add.Tensor",
    "subtract": "sub.Tensor",
    "equal": "eq.Tensor",
    "not_equal": "ne.Tensor",
    "greater": "gt.Tensor",
    "less": "lt.Tensor",
    "greater_equal": "ge.Tensor",
    "less_equal": "le.Tensor",
    "absolute": "abs",
    "remainder": "remainder.Tensor",
    "fmod": "fmod.Tensor",
    "power": "pow.Tensor_Scalar",
    "maximum": "maximum",
    "minimum": "minimum",
    "where": "where.self",
    "array_equal": "equal",
    "mean": "mean.dim",
}
_COMPARISONS = ("equal", "not_equal", "greater", "less", "greater_equal", "less_equal")


def not_on_sparse(name: str) -> NotImplementedError:
    """torch's dispatcher error for an op with no SparseCPU kernel."""
    name = _ATEN.get(name, name)
    return NotImplementedError(
        f"Could not run 'aten::{name}' with arguments from the 'SparseCPU' backend. This could "
        "be because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). If you are a Facebook employee "
        "using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible "
        "resolutions."
    )


# unary ops that keep zeros: torch's sparse kernels (the first three keep the indices as they
# are, the others coalesce first)
_KEEP = frozenset((np.negative, np.positive, np.conjugate))
_ZERO_PRESERVING = frozenset(
    (
        np.absolute, np.sqrt, np.sin, np.tan, np.tanh, np.sinh, np.arcsin, np.arctan,
        np.arcsinh, np.arctanh, np.expm1, np.log1p, np.floor, np.ceil, np.trunc, np.rint,
        np.sign, np.deg2rad, np.rad2deg, np.square, np.signbit, np.isnan, np.isinf,
        np.isposinf, np.isneginf,
    )
)  # fmt: skip


def _size(a: Any) -> list[int]:
    return [int(s) for s in a.shape]


def _csr_result(r: Any, args: Any) -> Any:
    """An op's sparse result with a CSR operand: CSR again (torch keeps the layout)."""
    if type(r) is SparseArray and not r._csr and r.ndim == 2:
        for x in args:
            if getattr(x, "_csr", False):
                return as_csr(r)
    return r


def ufunc_call(ufunc: Any, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return _csr_result(_ufunc_call(ufunc, method, inputs, kwargs), inputs)


def _ufunc_call(ufunc: Any, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    out = kwargs.pop("out", None)
    if method == "reduce" and ufunc is np.add and len(inputs) == 1:
        return _sum(inputs[0], kwargs.get("axis"), kwargs.get("dtype"), kwargs.get("keepdims"))
    if method != "__call__":
        raise not_on_sparse(ufunc.__name__)
    kwargs.pop("casting", None)
    name = ufunc.__name__
    if name in _COMPARISONS and len(inputs) == 2:
        scalar = any(type(x) is not SparseArray and np.ndim(x) == 0 for x in inputs)
        raise not_on_sparse(_ATEN[name].replace(".Tensor", ".Scalar" if scalar else ".Tensor"))
    r = _call(ufunc, inputs, kwargs)
    if out is None or out is Ellipsis:
        return r
    o = out[0] if isinstance(out, tuple) else out
    if type(o) is SparseArray:
        if type(r) is not SparseArray:
            raise not_on_sparse(ufunc.__name__)
        o._i, o._v, o._c = r._i, r._v.astype(o.dtype, copy=False), r._c
        return o
    np.copyto(o, dense(r) if type(r) is SparseArray else r, casting="unsafe")
    return o


def _sum(a: Any, axis: Any, dtype: Any, keepdims: Any) -> Any:
    if type(a) is not SparseArray:
        raise not_on_sparse("sum")
    if axis is None or (isinstance(axis, tuple) and len(axis) == a.ndim):
        r = a._v.sum(dtype=dtype)
        return np.asarray(r).reshape((1,) * a.ndim if keepdims else ())
    # torch's sum over some dims of a sparse tensor: sparse (torch.sparse.sum's entries)
    from ._coo import sum_entries

    r = sum_entries(a if dtype is None else a.astype(dtype), axis)
    if keepdims:
        for ax in sorted(int(d) % a.ndim for d in ((axis,) if np.ndim(axis) == 0 else axis)):
            r = expand_dims(r, ax) if type(r) is SparseArray else np.expand_dims(r, ax)
        if type(r) is SparseArray:
            r = make(r._i, r._v, r.shape, False)  # (torch's flag after keepdim)
    return r


_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _with_number(v: np.ndarray, b: np.ndarray, ufunc: Any) -> tuple[np.ndarray, np.ndarray]:
    """The values and a number operand (a Python number or a 0-d tensor) in torch's result
    dtype: the number takes the values' dtype unless its kind is higher (then the default
    dtype of its kind); true division of integers is in the default float dtype."""
    from .. import _dtype as D

    rv, rb = _RANK[v.dtype.kind], _RANK[b.dtype.kind]
    if rb <= rv:
        b = b.astype(v.dtype)
    else:
        if rb == 1:
            dt = np.dtype(np.int64)
        elif rb == 2:
            dt = D.get_default_dtype()._np
        else:
            dt = np.dtype(np.complex128 if D.get_default_dtype() is D.float64 else np.complex64)
        v, b = v.astype(dt), b.astype(dt)
    if ufunc is np.true_divide and v.dtype.kind not in "fc":
        dt = D.get_default_dtype()._np
        v, b = v.astype(dt), b.astype(dt)
    return v, b


_ZERO_KEEPING_SPECIAL = frozenset(("erf", "erfinv", "sign"))


def map_values(fn: Any, a: SparseArray, name: str) -> SparseArray:
    """fn (an elementwise function computed on an array) of a sparse array's coalesced
    values, for the functions torch has sparse kernels of (they keep zeros)."""
    if name not in _ZERO_KEEPING_SPECIAL:
        raise not_on_sparse(name)
    c = coalesced(a)
    return make(c._i, fn(c._v), a.shape, True)


def _binary_shapes(a: Any, b: Any) -> None:
    if tuple(a.shape) != tuple(b.shape):
        raise RuntimeError(
            f"add: expected sizes of 'self' and 'other' to match, but {_size(a)} != {_size(b)}"
        )


def _call(ufunc: Any, inputs: tuple[Any, ...], kw: dict[str, Any]) -> Any:
    if len(inputs) == 1:
        a = inputs[0]
        if ufunc in _KEEP:
            return make(a._i, ufunc(a._v, **kw), a.shape, a._c)
        if ufunc in _ZERO_PRESERVING:
            c = coalesced(a)
            return make(c._i, ufunc(c._v, **kw), a.shape, True)
        raise not_on_sparse(ufunc.__name__)
    if len(inputs) != 2:
        raise not_on_sparse(ufunc.__name__)
    a, b = inputs
    sa, sb = type(a) is SparseArray, type(b) is SparseArray
    if ufunc is np.matmul:
        if sa and not sb and a.ndim == 2 and np.ndim(b) == 2:
            return spmm(a, np.asarray(b))
        if sa and not sb and a.ndim == 2 and np.ndim(b) == 1:
            return spmm(a, np.asarray(b)[:, None])[:, 0]  # torch's mv of a sparse matrix
        if sb and not sa and b.ndim == 2 and np.ndim(a) == 2:
            return spmm(b.transpose(), np.asarray(a).T).T
        raise not_on_sparse("mm")
    if ufunc is np.add or ufunc is np.subtract:
        if sa and sb:
            _binary_shapes(a, b)
            return add_sparse(a, b, -1 if ufunc is np.subtract else 1)
        if sa:
            raise RuntimeError(
                "add(sparse, dense) is not supported. Use add(dense, sparse) instead."
            )
        a = np.asarray(a)
        if a.shape != b.shape:
            raise RuntimeError(
                f"add: expected 'self' and 'other' to have same size, but self has size "
                f"{_size(a)} while other has size {_size(b)} (FYI: dense-sparse addition does "
                "not currently support broadcasting)"
            )
        return add_dense_sparse(a, b, -1 if ufunc is np.subtract else 1)
    if ufunc is np.maximum and sa != sb:
        sv, other = (a, b) if sa else (b, a)
        if np.ndim(other) == 0 and other == 0:  # relu: zeros stay zeros (torch's sparse kernel)
            c = coalesced(sv)
            kw.pop("dtype", None)
            return make(c._i, np.maximum(np.asarray(0, c._v.dtype), c._v), sv.shape, True)
    if ufunc in (np.true_divide, np.divide, np.floor_divide) and (
        (sa and not sb and np.ndim(b)) or sb
    ):
        divisor = b
        what = "floor division" if ufunc is np.floor_divide else "division"
        raise RuntimeError(
            f"Sparse {what} requires a scalar or zero-dim dense tensor divisor (got shape "
            f"{[int(d) for d in np.shape(divisor)]} for divisor)"
        )
    if ufunc in (np.multiply, np.true_divide, np.divide, np.floor_divide, np.power):
        if sa and sb:
            if ufunc is not np.multiply:
                raise not_on_sparse(ufunc.__name__)
            if tuple(a.shape) != tuple(b.shape) or a._i.shape[0] != b._i.shape[0]:
                raise RuntimeError(
                    "sparse_binary_op_intersection_cpu(): expects sparse inputs with equal "
                    "dimensionality, number of sparse dimensions, and shape of sparse dimensions"
                )
            if a._i is b._i:
                return make(a._i, a._v * b._v, a.shape, a._c)
            return _intersect(coalesced(a), coalesced(b))
        if sa:
            b = np.asarray(b)
            if b.ndim == 0:
                if ufunc is np.power and b == 0:
                    raise RuntimeError(
                        "pow: cannot raise to zeroth power on sparse tensor; it would make the "
                        "result tensor dense"
                    )
                if ufunc is np.power or ufunc is np.floor_divide:
                    c = coalesced(a)
                    v, b = _with_number(c._v, b, ufunc)
                    return make(c._i, ufunc(v, b, **kw), a.shape, True)
                v, b = _with_number(a._v, b, ufunc)
                return make(a._i, ufunc(v, b, **kw), a.shape, a._c)
            if ufunc is np.multiply:
                m = mask_values(np.broadcast_to(b, a.shape), a._i, a.shape)
                return make(a._i, a._v * m, a.shape, a._c)
            raise not_on_sparse(ufunc.__name__)
        a = np.asarray(a)
        if ufunc is np.multiply:
            if a.ndim == 0:
                v, a = _with_number(b._v, a, ufunc)
                return make(b._i, a * v, b.shape, b._c)
            m = mask_values(np.broadcast_to(a, b.shape), b._i, b.shape)
            return make(b._i, m * b._v, b.shape, b._c)
        raise not_on_sparse(ufunc.__name__)
    raise not_on_sparse(ufunc.__name__)


def add_sparse(a: SparseArray, b: SparseArray, sign: int) -> SparseArray:
    """a + sign * b, both sparse: torch's add_out_sparse_contiguous, which walks the two
    entry lists in order and joins the entries whose indices match (the result is coalesced
    when both are)."""
    dt = np.result_type(a._v, b._v)
    if dt == np.float16 and a._i.shape[1] and b._i.shape[1]:
        raise NotImplementedError("\"cadd_sparse\" not implemented for 'Half'")
    av = a._v.astype(dt, copy=False)
    bv = b._v.astype(dt, copy=False)
    if sign < 0:
        bv = -bv
    na, nb = a._i.shape[1], b._i.shape[1]
    if nb == 0:
        return make(a._i.copy(), av.copy(), a.shape, a._c)
    if na == 0:
        return make(b._i.copy(), bv.copy(), a.shape, b._c)
    if not (a._v.flags.c_contiguous and b._v.flags.c_contiguous):
        # torch's add_out_sparse_non_contiguous (an expanded gradient's values): the two entry
        # lists joined, coalesced once they hold more entries than the tensor has elements
        r = make(np.concatenate((a._i, b._i), 1), np.concatenate((av, bv)), a.shape, False)
        return coalesced(r) if na + nb > a.size else r
    sd = a._i.shape[0]
    if sd:
        dims = a.shape[:sd]
        ka = np.ravel_multi_index(tuple(a._i), dims).tolist()
        kb = np.ravel_multi_index(tuple(b._i), dims).tolist()
    else:
        ka, kb = [0] * na, [0] * nb
    ti = si = 0
    rows: list[tuple[int, int]] = []
    while ti < na or si < nb:
        if ti >= na:
            cmp = -1
        elif si >= nb:
            cmp = 1
        else:
            x, y = ka[ti], kb[si]
            cmp = 1 if x < y else (-1 if x > y else 0)
        t = s = -1
        if cmp >= 0:
            t = ti
            ti += 1
        if cmp <= 0:
            s = si
            si += 1
        rows.append((t, s))
    r = np.array(rows, np.int64).reshape(-1, 2)
    ht, hs = r[:, 0] >= 0, r[:, 1] >= 0
    vals = np.zeros((len(r), *av.shape[1:]), dt)
    vals[ht] += av[r[ht, 0]]
    vals[hs] += bv[r[hs, 1]]
    idx = np.where(ht, r[:, 0], 0)
    ind = np.where(ht[None], a._i[:, idx], b._i[:, np.where(hs, r[:, 1], 0)])
    return make(ind, vals, a.shape, a._c and b._c)


def add_dense_sparse(d: np.ndarray, b: SparseArray, sign: int) -> np.ndarray:
    """dense + sign * sparse: a copy of the dense array with each entry added in turn."""
    dt = np.result_type(d, b._v)
    out = np.array(d, dt)
    v = b._v.astype(dt, copy=False)
    if sign < 0:
        v = -v
    if b._i.shape[1]:
        if b._i.shape[0]:
            np.add.at(out, tuple(b._i), v)
        else:
            for row in v:
                out += row
    return out


def _intersect(a: SparseArray, b: SparseArray) -> SparseArray:
    sd = a._i.shape[0]
    dims = a.shape[:sd]
    la = np.ravel_multi_index(tuple(a._i), dims) if a._i.shape[1] else np.zeros(0, np.int64)
    lb = np.ravel_multi_index(tuple(b._i), dims) if b._i.shape[1] else np.zeros(0, np.int64)
    _common, ia, ib = np.intersect1d(la, lb, assume_unique=True, return_indices=True)
    return make(a._i[:, ia], a._v[ia] * b._v[ib], a.shape, True)


def spmm(a: SparseArray, b: np.ndarray) -> np.ndarray:
    """sparse (2-d, no dense dims) @ dense 2-d: a dense array."""
    dt = np.result_type(a._v, b)
    out = np.zeros((a.shape[0], b.shape[1]), dt)
    i, v = a._i, a._v
    if i.shape[1]:
        np.add.at(out, i[0], v[:, None].astype(dt) * b[i[1]].astype(dt))
    return out


def _empty_like(a: SparseArray, dtype: Any = None) -> SparseArray:
    dt = a.dtype if dtype is None else np.dtype(dtype)
    sd = a._i.shape[0]
    return make(np.zeros((sd, 0), np.int64), np.zeros((0, *a.shape[sd:]), dt), a.shape, True)


def sparse_like(out: Any, a: SparseArray) -> Any:
    """A *_like factory's result for a sparse tensor: torch's sparse zeros (no entries) for
    zeros_like/empty_like; its fill_ refusal for a nonzero fill."""
    d = out._data
    if type(d) is SparseArray:
        return out  # (clone's result: sparse already)
    if d.size and d.any():
        raise not_on_sparse("fill_.Scalar")
    out._data = _empty_like(a, d.dtype)
    return out


def expand_dims(a: SparseArray, axis: int) -> SparseArray:
    """torch's unsqueeze of a sparse tensor: a new sparse dim (index 0) when it falls among
    the sparse dims, else a new dense dim of the values."""
    sd = a._i.shape[0]
    shape = (*a.shape[:axis], 1, *a.shape[axis:])
    if axis <= sd:
        i = np.insert(a._i, axis, 0, axis=0)
        return make(i, a._v, shape, a._c)
    return make(a._i, np.expand_dims(a._v, axis - sd + 1), shape, a._c)


def concatenate(arrays: Any, axis: int) -> SparseArray:
    """torch's cat of sparse tensors along a sparse dim: the entries joined, each tensor's
    indices along `axis` shifted past the ones before it."""
    arrays = list(arrays)
    first = arrays[0]
    sd = first._i.shape[0]
    if axis >= sd or any(type(x) is not SparseArray for x in arrays):
        raise not_on_sparse("cat")
    idx, vals, off = [], [], 0
    dt = np.result_type(*(x._v for x in arrays))
    for x in arrays:
        i = x._i.copy()
        i[axis] += off
        off += x.shape[axis]
        idx.append(i)
        vals.append(x._v.astype(dt))
    shape = list(first.shape)
    shape[axis] = off
    return make(np.concatenate(idx, 1), np.concatenate(vals), shape, False)


def function_call(func: Any, args: Any, kwargs: Any) -> Any:
    return _csr_result(_function_call(func, args, kwargs), args)


def select(a: SparseArray, dim: int, index: int) -> Any:
    """torch's select of a sparse tensor: the entries at `index` along dim, that dim dropped
    (a sparse dim: from the indices; a dense one: from the values)."""
    sd = a._i.shape[0]
    n = a.shape[dim]
    if index < -n or index >= n:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {list(a.shape)} at "
            f"dimension {dim}"
        )
    index %= n
    shape = a.shape[:dim] + a.shape[dim + 1 :]
    if dim >= sd:
        return make(a._i, np.take(a._v, index, axis=dim - sd + 1), shape, a._c)
    hit = a._i[dim] == index
    i = np.delete(a._i[:, hit], dim, axis=0)
    if sd == 1:  # no sparse dim left: the sum of the hits, dense
        return np.asarray(a._v[hit].sum(0))
    return make(i, a._v[hit], shape, a._c)


def select_backward(g: SparseArray, sizes: Any, dim: int, index: int) -> SparseArray:
    """select's gradient for a sparse gradient: torch has no kernel (a dense array would be
    filled with the stub's zeros: refused loudly, as torch)."""
    raise not_on_sparse("select_backward")


def index_select(a: SparseArray, idx: np.ndarray, axis: int) -> SparseArray:
    """torch's index_select of a sparse tensor along a sparse dim: for each position j of the
    index, the entries at idx[j], renumbered j (in that order)."""
    sd = a._i.shape[0]
    if axis >= sd:
        v = np.take(a._v, idx, axis=axis - sd + 1)
        shape = list(a.shape)
        shape[axis] = len(idx)
        return make(a._i, v, shape, a._c)
    cols, vals = [], []
    for j, k in enumerate(np.asarray(idx).reshape(-1).tolist()):
        hit = np.flatnonzero(a._i[axis] == k)
        i = a._i[:, hit].copy()
        i[axis] = j
        cols.append(i)
        vals.append(a._v[hit])
    shape = list(a.shape)
    shape[axis] = len(cols)
    if not cols:
        return make(np.zeros((sd, 0), np.int64), a._v[:0], shape, True)
    return make(np.concatenate(cols, 1), np.concatenate(vals), shape, False)


def _function_call(func: Any, args: Any, kwargs: Any) -> Any:
    if func is np.take and len(args) >= 2 and type(args[0]) is SparseArray:
        axis = kwargs.get("axis", args[2] if len(args) > 2 else None)
        if axis is not None:
            return index_select(args[0], np.asarray(args[1]), int(axis) % args[0].ndim)
    if func is np.zeros_like or func is np.empty_like:
        return _empty_like(args[0], kwargs.get("dtype", args[1] if len(args) > 1 else None))
    if func in (np.ones_like, np.full_like):
        raise not_on_sparse("fill_.Scalar")
    if func is np.swapaxes:
        return args[0].swapaxes(*args[1:], **kwargs)
    if func is np.transpose:
        return args[0].transpose(*args[1:], **kwargs)
    if func is np.expand_dims:
        axis = kwargs.get("axis", args[1] if len(args) > 1 else None)
        if isinstance(axis, int):
            return expand_dims(args[0], axis % (args[0].ndim + 1))
    if func is np.concatenate:
        return concatenate(args[0], kwargs.get("axis", args[1] if len(args) > 1 else 0))
    if func is np.stack:
        axis = kwargs.get("axis", args[1] if len(args) > 1 else 0)
        arrays = list(args[0])
        if arrays and all(type(x) is SparseArray for x in arrays):
            axis %= arrays[0].ndim + 1
            return concatenate([expand_dims(x, axis) for x in arrays], axis)
    if func is np.broadcast_to and type(args[0]) is SparseArray:
        shape = tuple(kwargs.get("shape", args[1] if len(args) > 1 else ()))
        if shape == args[0].shape:
            return args[0]  # (copy_'s source of its own shape)
    if func in (np.broadcast_to, np.tile):
        raise RuntimeError("expand is unsupported for Sparse tensors")
    if func is np.may_share_memory or func is np.shares_memory:
        return False  # a sparse tensor's array has no memory
    if func is np.copyto:
        dst, src = args[0], args[1]
        if type(dst) is not SparseArray:
            from .. import _dtype as D

            src_type = D._FROM_NP[getattr(src, "_cast_from", src.dtype)]._legacy
            raise RuntimeError(
                "copy_() between dense and sparse Tensors is not implemented! Found self type = "
                f"{D._FROM_NP[dst.dtype]._legacy} and src type = "
                f"{src_type.replace('torch.', 'torch.sparse.')}"
            )
    if func is np.nan_to_num:
        a = coalesced(args[0])
        return make(a._i, np.nan_to_num(a._v, *args[1:], **kwargs), a.shape, True)
    if func is np.sum:
        return _sum(args[0], kwargs.get("axis"), kwargs.get("dtype"), kwargs.get("keepdims"))
    if func is np.copy:
        return args[0].copy()
    if func in (np.shape, np.ndim, np.size):
        return func(np.broadcast_to(np.zeros((), args[0].dtype), args[0].shape))
    if func is np.result_type:
        return np.result_type(*(a.dtype if type(a) is SparseArray else a for a in args))
    if func is np.matmul:
        return _call(np.matmul, tuple(args), {})
    raise not_on_sparse(getattr(func, "__name__", "op"))
