"""Sparse COO tensors: construction, the Tensor methods of the sparse layout, autograd nodes.
Mirrors torch's SparseCPU kernels (see docs/sparse.md for the design)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _grad_mode
from .._tensor import Tensor, _make, once_messages, warn_once
from ..autograd.graph import Node
from ._array import (
    SparseArray,
    coalesced,
    dense,
    from_dense,
    make,
    mask_values,
    permuted,
    sparse_dim,
)
from ._ops import not_on_sparse, spmm

_I64 = np.dtype(np.int64)

INVARIANTS_WARNING = (
    "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur "
    "when operating on a sparse tensor which violates the invariants, but checks incur "
    "performance overhead. To silence this warning, explicitly opt in or out. See "
    "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance."
)


class _Invariants:
    enabled: bool | None = None  # torch.sparse.check_sparse_tensor_invariants' state


INVARIANTS = _Invariants()


# --- autograd ------------------------------------------------------------------------------


class SparseNode(Node):
    """The node of a sparse op: its backward is a closure from the output's gradient (a
    Tensor, dense or sparse) to the inputs' gradients."""

    __slots__ = ("_fn",)
    _raw_ok = False

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        g = grads[0]
        if g is None:
            return (None,) * self._nin
        return tuple(self._fn(g))


_NODES: dict[str, type] = {}


def record(name: str, out: Tensor, inputs: tuple[Any, ...], fn: Any) -> Tensor:
    """Give out a node named `name` (torch's) with edges to the inputs requiring grad."""
    if not _grad_mode.mode().grad:
        return out
    edges = tuple(t._edge() if isinstance(t, Tensor) and t._rg else None for t in inputs)
    if not any(e is not None for e in edges):
        return out
    cls = _NODES.get(name)
    if cls is None:
        cls = _NODES[name] = type(name, (SparseNode,), {"__slots__": ()})
    node = cls(edges)
    node._fn = fn
    out._rg = True
    out._grad_fn = node
    return out


def sp(a: SparseArray) -> Tensor:
    return _make(a)


def _arr(t: Any) -> Any:
    return t._data if isinstance(t, Tensor) else t


# --- construction ----------------------------------------------------------------------------


def _as_array(x: Any, dtype: Any = None) -> np.ndarray:
    if isinstance(x, Tensor):
        a = x._data
        if type(a) is SparseArray:
            a = dense(a)
        return a if dtype is None else a.astype(dtype._np)
    from .. import tensor

    return tensor(x, dtype=dtype)._data  # type: ignore[no-any-return]


def sparse_coo_tensor(
    indices: Any,
    values: Any,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
    check_invariants: bool | None = None,
    is_coalesced: bool | None = None,
) -> Tensor:
    """Mirrors `torch.sparse_coo_tensor`."""
    if check_invariants is None and INVARIANTS.enabled is None:
        warn_once("sparse_invariants", INVARIANTS_WARNING, UserWarning, stacklevel=2)
    check = INVARIANTS.enabled if check_invariants is None else check_invariants
    i = _as_array(indices)
    v = _as_array(values, dtype)
    if i.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(i.shape)}")
    if i.dtype.kind not in "iub":
        i = i.astype(_I64)
    i = i.astype(_I64)
    if v.ndim == 0:
        v = v.reshape(1) if i.shape[1] == 1 else v.reshape(0)
    sd, nnz = i.shape
    if v.shape[0] != nnz:
        raise RuntimeError(
            "indices and values must have same nnz, but got nnz from indices: "
            f"{nnz}, nnz from values: {v.shape[0]}"
        )
    dense_shape = v.shape[1:]
    if size is None:
        sizes = tuple(int(m) + 1 for m in i.max(1)) if nnz else (0,) * sd
        shape = sizes + tuple(dense_shape)
    else:
        shape = tuple(int(s) for s in size)
        if any(s < 0 for s in shape):
            raise RuntimeError("numel: integer multiplication overflow")
        if len(shape) != sd + len(dense_shape):
            raise RuntimeError(
                "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = "
                f"{len(shape)}, sparse_dim = {sd}, dense_dim = {len(dense_shape)}"
            )
    if check and nnz:
        for d in range(sd):
            lo, hi = int(i[d].min()), int(i[d].max())
            if lo < 0:
                raise RuntimeError(f"found negative index {lo} for dim {d}")
            if hi >= shape[d]:
                raise RuntimeError(
                    f"size is inconsistent with indices: for dim {d}, size is {shape[d]} but "
                    f"found index {hi}"
                )
    c = bool(is_coalesced) if is_coalesced is not None else nnz <= 1
    out = sp(make(i.copy() if isinstance(indices, Tensor) else i, v, shape, c))
    if requires_grad:
        if v.dtype.kind not in "fc":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        out._rg = True
        return out
    if isinstance(values, Tensor) and values._rg:
        idx = out._data._i
        record(
            "SparseCooTensorWithDimsAndTensorsBackward0",
            out,
            (values,),
            lambda g: (_make(mask_values(_arr(g), idx, shape)),),
        )
    return out


def _check_sparse(t: Tensor, what: str, csr_too: bool = False) -> SparseArray:
    a = t._data
    if type(a) is not SparseArray or (a._csr and not csr_too):
        layout = "sparse tensor" if csr_too else "sparse coordinate tensor"
        got = "SparseCsr" if type(a) is SparseArray else "Strided"
        raise RuntimeError(f"{what} expected {layout} layout but got {got}")
    return a


CSR_WARNING = (
    "Sparse CSR tensor support is in beta state. If you miss a functionality in the sparse "
    "tensor support, please submit a feature request to https://github.com/pytorch/pytorch/"
    "issues."
)
# Both are torch's TORCH_WARN_ONCE: which program of a process sees them first depends on the
# order programs run in, and torch also warns when it builds a sparse tensor internally (a
# sparse gradient), where shadowgrad does not. Registered as once-per-process messages from the
# start, so a comparison of warnings leaves them out whichever engine warned first.
once_messages.update((INVARIANTS_WARNING, CSR_WARNING))


def _csr(a: SparseArray) -> Tensor:
    warn_once("sparse_csr_beta", CSR_WARNING, UserWarning, stacklevel=4)
    return sp(a)


def _check_csr(t: Tensor, what: str) -> SparseArray:
    a = t._data
    if type(a) is not SparseArray or not a._csr:
        got = "Sparse" if type(a) is SparseArray else "Strided"
        raise RuntimeError(f"{what} expected sparse row compressed tensor layout but got {got}")
    return a


def crow_indices(self: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.crow_indices`."""
    a = _check_csr(self, "crow_indices")
    counts = (
        np.bincount(a._i[0], minlength=a.shape[0])
        if a._i.shape[1]
        else np.zeros(a.shape[0], np.int64)
    )
    return _make(np.concatenate(([0], np.cumsum(counts))).astype(_I64))


def col_indices(self: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.col_indices`."""
    return _make(_check_csr(self, "col_indices")._i[1].copy())


def to_sparse_csr(self: Tensor, dense_dim: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.to_sparse_csr` (2-d tensors)."""
    from ._array import as_csr

    a = self._data
    if type(a) is SparseArray:
        if a._csr:
            return self
        if a.ndim != 2:
            raise NotImplementedError("to_sparse_csr: only 2-d sparse tensors here")
        return _csr(as_csr(a))
    if a.ndim != 2:
        raise NotImplementedError("to_sparse_csr: only 2-d tensors here (torch: batched too)")
    return _csr(as_csr(from_dense(a, 2)))


def sparse_csr_tensor(
    crow_indices: Any,
    col_indices: Any,
    values: Any,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
    check_invariants: bool | None = None,
) -> Tensor:
    """Mirrors `torch.sparse_csr_tensor` (2-d)."""
    if check_invariants is None and INVARIANTS.enabled is None:
        warn_once("sparse_invariants", INVARIANTS_WARNING, UserWarning, stacklevel=2)
    check = INVARIANTS.enabled if check_invariants is None else check_invariants
    crow = _as_array(crow_indices).astype(_I64)
    col = _as_array(col_indices).astype(_I64)
    v = _as_array(values, dtype)
    nrows = len(crow) - 1
    if size is None:
        shape = (nrows, int(col.max()) + 1 if col.size else 0)
    else:
        shape = tuple(int(x) for x in size)
    if check and crow.size and int(crow[-1]) != len(col):
        raise RuntimeError("`crow_indices[..., -1] == nnz` is not satisfied.")
    rows = np.repeat(np.arange(nrows, dtype=_I64), np.diff(crow))
    out = _csr(make(np.stack([rows, col]), v, shape, True, csr=True))
    if requires_grad:
        if v.dtype.kind not in "fc":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        out._rg = True
    return out


# --- Tensor methods --------------------------------------------------------------------------


def to_dense(self: Tensor, dtype: Any = None, *, masked_grad: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.to_dense`."""
    a = self._data
    if type(a) is not SparseArray:
        return self if dtype is None or dtype is self.dtype else self.to(dtype)
    out = _make(dense(a) if dtype is None else dense(a).astype(dtype._np))
    shape = a.shape

    def fn(g: Tensor) -> tuple[Any, ...]:
        # torch's to_dense_backward: grad.sparse_mask(self), at self's coalesced indices
        idx = coalesced(a)._i
        return (sp(make(idx, mask_values(_arr(g), idx, shape), shape, True)),)

    return record("ToDenseBackward0", out, (self,), fn)


def coalesce(self: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.coalesce`."""
    a = _check_sparse(self, "coalesce")
    if a._c:
        return self
    out = sp(coalesced(a))
    return record("CoalesceBackward0", out, (self,), lambda g: (g,))


def is_coalesced(self: Tensor) -> bool:
    return _check_sparse(self, "is_coalesced")._c


def _indices(self: Tensor) -> Tensor:
    a = self._data
    if type(a) is not SparseArray:
        raise NotImplementedError(_cpu_error("_indices"))
    if a._csr:
        raise NotImplementedError(_cpu_error("_indices").replace("'CPU'", "'SparseCsrCPU'"))
    return _make(a._i)


def _values(self: Tensor) -> Tensor:
    a = self._data
    if type(a) is not SparseArray:
        raise NotImplementedError(_cpu_error("_values"))
    return _make(a._v)


def _cpu_error(name: str) -> str:
    return str(not_on_sparse(name)).replace("'SparseCPU' backend", "'CPU' backend")


def indices(self: Tensor) -> Tensor:
    a = _check_sparse(self, "indices")
    if not a._c:
        raise RuntimeError(
            "Cannot get indices on an uncoalesced tensor, please call .coalesce() first"
        )
    return _make(a._i)


def values(self: Tensor) -> Tensor:
    a = _check_sparse(self, "values", csr_too=True)
    if not a._c:
        raise RuntimeError(
            "Cannot get values on an uncoalesced tensor, please call .coalesce() first"
        )
    out = _make(a._v)
    idx, shape = a._i, a.shape

    def fn(g: Tensor) -> tuple[Any, ...]:
        r = make(idx, _arr(g), shape, True)
        r._shared = True  # (its indices are self's: torch's AccumulateGrad clones it)
        return (sp(r),)

    return record("ValuesBackward0", out, (self,), fn)


def sparse_dim_(self: Tensor) -> int:
    a = self._data
    return sparse_dim(a) if type(a) is SparseArray else 0


def dense_dim(self: Tensor) -> int:
    a = self._data
    return a.ndim - sparse_dim(a) if type(a) is SparseArray else a.ndim


def _nnz(self: Tensor) -> int:
    a = self._data
    if type(a) is not SparseArray:
        raise NotImplementedError(_cpu_error("_nnz"))
    return int(a._i.shape[1])


def to_sparse(
    self: Tensor,
    sparse_dim: Any = None,
    *,
    layout: Any = None,
    blocksize: Any = None,
    dense_dim: Any = None,
) -> Tensor:
    """Mirrors `torch.Tensor.to_sparse` (COO layout)."""
    from .._formats import sparse_coo

    if layout is not None and layout is not sparse_coo:
        raise NotImplementedError(f"to_sparse: conversion to {layout} is not supported here")
    a = self._data
    if type(a) is SparseArray and a._csr:
        return sp(make(a._i, a._v, a.shape, True))  # the sparse_csr layout's entries as COO
    if type(a) is SparseArray:
        if sparse_dim is not None and sparse_dim != sparse_dim_(self):
            raise RuntimeError(
                "to_sparse: conversion from Sparse to Sparse with sparse_dim argument "
                "!=self.sparse_dim() is not supported"
            )
        return self
    sd = a.ndim if sparse_dim is None else int(sparse_dim)
    if sd < 0 or sd > a.ndim:
        raise RuntimeError(
            f"dense_to_sparse: sparse_dim argument must be in [0,{a.ndim}] range, but {sd} is given"
        )
    if sd == 0 and a.ndim:
        raise RuntimeError("dense_to_sparse: sparse_dim argument must be in >0 when self.dim()>0")
    out = sp(from_dense(a, sd))
    return record("ToSparseBackward1", out, (self,), lambda g: (_to_dense_array(g),))


def _to_dense_array(g: Tensor) -> Tensor:
    a = g._data
    return _make(dense(a)) if type(a) is SparseArray else g


def sparse_mask(self: Tensor, mask: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.sparse_mask`: self's values at mask's indices."""
    m = mask._data
    if type(m) is not SparseArray:
        raise NotImplementedError(_cpu_error("sparse_mask"))
    mc = coalesced(m)
    out = sp(make(mc._i, mask_values(self._data, mc._i, m.shape), m.shape, True))
    return record("SparseMaskBackward0", out, (self,), lambda g: (_to_dense_array(g),))


def t(self: Tensor) -> Tensor:
    a = self._data
    if a.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    if a.ndim < 2:
        return self
    out = sp(permuted(a, (1, 0)))
    return record("TBackward0", out, (self,), lambda g: (_tr(g),))


def _tr(g: Tensor) -> Tensor:
    a = g._data
    return sp(permuted(a, (1, 0))) if type(a) is SparseArray else g.t()


# --- products ------------------------------------------------------------------------------


def _mm_checks(a: Tensor, b: Tensor, name: str = "addmm") -> None:
    if b.ndim != 2:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [-{max(b.ndim, 1)}, "
            f"{max(b.ndim, 1) - 1}], but got 1)"
        )
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype._short} but found {b.dtype._short}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"{name}: Argument #3 (dense): Expected dim 0 size {a.shape[1]}, got {b.shape[0]}"
        )


def _spmm_backward(a: SparseArray, b: Tensor, alpha: Any, mat1: Tensor) -> Any:
    shape = a.shape

    def fn(g: Tensor) -> tuple[Any, ...]:
        if _grad_mode.mode().grad:
            # create_graph: the dense operand's gradient mat1.t().mm(grad), recorded as torch's
            # (MmBackward0, alpha by mul.Scalar); the sparse operand's stays the numpy one
            from .. import mm
            from ..ops.pointwise import _mul_scalar

            ga = fn_arrays(g)[0]
            gb = mm(t(mat1), g)
            return ga, gb if alpha == 1 else _mul_scalar(gb, alpha)
        return fn_arrays(g)

    def fn_arrays(g: Tensor) -> tuple[Any, ...]:
        gd = np.asarray(_arr(g))
        bd = b._data
        # the sparse operand's gradient: (g @ b.T) at its coalesced indices; the dense one's:
        # a.T @ g
        idx = coalesced(a)._i
        rows = gd[idx[0]] if idx.shape[1] else np.zeros((0, gd.shape[1]), gd.dtype)
        cols = bd[idx[1]] if idx.shape[1] else np.zeros((0, bd.shape[1]), bd.dtype)
        vals = (rows * cols).sum(1).astype(gd.dtype, copy=False)
        if alpha != 1:
            vals = vals * np.asarray(alpha, gd.dtype)
        ga = sp(make(idx, vals, shape, False))  # (torch's flag: not coalesced)
        gb_arr = spmm(permuted(a, (1, 0)), gd)
        if alpha != 1:
            gb_arr = gb_arr * np.asarray(alpha, gb_arr.dtype)
        gb = _make(gb_arr.astype(bd.dtype, copy=False))
        return ga, gb

    return fn


def sparse_mm(mat1: Tensor, mat2: Tensor, reduce: Any = None) -> Tensor:
    """Mirrors `torch.sparse.mm` (sparse @ dense, dense @ sparse, sparse @ sparse)."""
    a, b = mat1._data, mat2._data
    if type(a) is SparseArray and type(b) is not SparseArray:
        _mm_checks(mat1, mat2)
        out = _make(spmm(a, b))
        return record(
            "SparseAddmmBackward0", out, (None, mat1, mat2), _addmm_bw(a, mat1, mat2, 1, 1, None)
        )
    if type(a) is not SparseArray and type(b) is SparseArray:
        # torch: (mat2.t() @ mat1.t()).t()
        return _dense_sparse(mat1, mat2)
    if type(a) is SparseArray and type(b) is SparseArray:
        out = sp(sparse_product(a, b))

        def fn(g: Tensor) -> tuple[Any, ...]:
            # torch's sparse_sparse_matmul_backward: the structural products, their values
            # outside the operand's own entries zeroed (the entries kept), not coalesced
            ga = _arr(g)
            gs = ga if type(ga) is SparseArray else from_dense(np.asarray(ga), 2)
            return (
                sp(_on_pattern(sparse_product(gs, permuted(b, (1, 0))), a)),
                sp(_on_pattern(sparse_product(permuted(a, (1, 0)), gs), b)),
            )

        return record("SparseSparseMatmulBackward0", out, (mat1, mat2), fn)
    from .. import mm

    return mm(mat1, mat2)  # type: ignore[no-any-return]


def _products_by_row(mat1: Tensor, mat2: Tensor, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The rows of mat1 (sparse) that hold entries, and those rows of mat1 @ mat2: what
    hspmm and smm return."""
    a = mat1._data
    if type(a) is not SparseArray:
        raise NotImplementedError(_cpu_error(name))
    b = mat2._data
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"{name}: Argument #3: Expected dim 0 size {a.shape[1]}, got {b.shape[0]}"
        )
    rows = np.unique(a._i[0])
    return rows, spmm(a, b)[rows]


def hspmm(mat1: Tensor, mat2: Tensor) -> Tensor:
    """Mirrors `torch.hspmm`: a hybrid sparse result, one dense row per row of mat1 with
    entries (no derivative, as torch)."""
    from ..ops.pointwise import no_derivative

    rows, prod = _products_by_row(mat1, mat2, "hspmm")
    shape = (mat1.shape[0], mat2.shape[1])
    out = sp(make(rows[None], prod, shape, False))
    return no_derivative(out, (mat1, mat2), "hspmm")  # type: ignore[no-any-return]


def smm(mat1: Tensor, mat2: Tensor) -> Tensor:
    """Mirrors `torch.smm` (torch's sspaddmm into zeros): every column of the rows of mat1 with
    entries (no derivative, as torch)."""
    from ..ops.pointwise import no_derivative

    rows, prod = _products_by_row(mat1, mat2, "sspaddmm")
    ncol = mat2.shape[1]
    idx = np.stack([np.repeat(rows, ncol), np.tile(np.arange(ncol), len(rows))])
    out = sp(make(idx, prod.reshape(-1), (mat1.shape[0], ncol), False))
    return no_derivative(out, (mat1, mat2), "sspaddmm")  # type: ignore[no-any-return]


def _on_pattern(p: SparseArray, x: SparseArray) -> SparseArray:
    """p's entries, zero where x has none; flagged uncoalesced (torch's)."""
    xc = coalesced(x)
    dims = p.shape
    keys = np.ravel_multi_index(tuple(p._i), dims) if p._i.shape[1] else np.zeros(0, np.int64)
    xk = np.ravel_multi_index(tuple(xc._i), dims) if xc._i.shape[1] else np.zeros(0, np.int64)
    inside = np.isin(keys, xk)
    v = np.where(inside.reshape((-1,) + (1,) * (p._v.ndim - 1)), p._v, 0).astype(p.dtype)
    return make(p._i, v, p.shape, False)


def sparse_product(a: SparseArray, b: SparseArray) -> SparseArray:
    """a @ b, both sparse 2-d: an entry wherever a(i, k) and b(k, j) both have one (torch's
    structural product, explicit zeros included), coalesced."""
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    warn_once("sparse_csr_beta", CSR_WARNING, UserWarning, stacklevel=5)  # (torch: via CSR)
    ac, bc = coalesced(a), coalesced(b)
    dt = np.result_type(ac._v, bc._v)
    shape = (a.shape[0], b.shape[1])
    brow = bc._i[0]
    ak = ac._i[1]
    starts = np.searchsorted(brow, ak, "left")
    counts = np.searchsorted(brow, ak, "right") - starts
    ia = np.repeat(np.arange(len(ak)), counts)
    ib = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
    i = np.stack([ac._i[0][ia], bc._i[1][ib]])
    v = ac._v[ia].astype(dt) * bc._v[ib].astype(dt)
    return coalesced(make(i, v, shape, False))


def _dense_sparse(mat1: Tensor, mat2: Tensor) -> Tensor:
    out = sparse_mm(t(mat2), mat1.t())
    return out.t()


def _addmm_bw(a: SparseArray, mat1: Tensor, mat2: Tensor, beta: Any, alpha: Any, inp: Any) -> Any:
    inner = _spmm_backward(a, mat2, alpha, mat1)

    def fn(g: Tensor) -> tuple[Any, ...]:
        ga, gb = inner(g)
        gi = None
        if inp is not None:
            from ..ops.pointwise import _mul_scalar

            gi = g if beta == 1 else _mul_scalar(g, beta)  # torch's maybe_multiply: mul.Scalar
        return gi, ga, gb

    return fn


def sparse_addmm(
    input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1
) -> Tensor:
    """Mirrors `torch.sparse.addmm`: beta * input + alpha * (mat1 @ mat2), mat1 sparse."""
    a = _check_sparse(mat1, "addmm")
    _mm_checks(mat1, mat2)
    prod = spmm(a, mat2._data)
    dt = prod.dtype.type
    base = np.broadcast_to(input._data, prod.shape)
    res = dt(beta) * base + dt(alpha) * prod if beta != 0 else dt(alpha) * prod
    out = _make(np.asarray(res, prod.dtype))
    return record(
        "SparseAddmmBackward0",
        out,
        (input, mat1, mat2),
        _addmm_bw(a, mat1, mat2, beta, alpha, input),
    )


# --- reductions ----------------------------------------------------------------------------


def _wrap_dim(d: int, n: int) -> int:
    lo, hi = -max(n, 1), max(n, 1) - 1
    if d < lo or d > hi:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {d})"
        )
    return d % max(n, 1)


def sparse_sum(input: Tensor, dim: Any = None, dtype: Any = None) -> Tensor:
    """Mirrors `torch.sparse.sum`: over all dims, `input.coalesce().values().sum()`; over
    some, the coalesced input's entries summed (sparse while sparse dims remain)."""
    _check_sparse(input, "coalesce")
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return values(coalesce(input)).sum()  # type: ignore[no-any-return]
    a = coalesced(input._data)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(sorted({_wrap_dim(int(d), a.ndim) for d in dims}))
    if len(dims) == a.ndim:
        return values(coalesce(input)).sum()  # type: ignore[no-any-return]
    idx, shape = a._i, a.shape
    r = sum_entries(a, dims)
    out = sp(r) if type(r) is SparseArray else _make(r)

    def fn(g: Tensor) -> tuple[Any, ...]:
        ga = _arr(g)
        gd = dense(ga) if type(ga) is SparseArray else np.asarray(ga)
        full = np.broadcast_to(np.expand_dims(gd, dims), shape)
        return (sp(make(idx, mask_values(full, idx, shape), shape, True)),)

    return record("SparseSumBackward0", out, (input,), fn)


def sum_entries(a: SparseArray, dims: Any) -> Any:
    """The sum of a sparse array over some of its dims (not all): sparse while sparse dims
    remain, the entries coalesced."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    dims = tuple(sorted({int(d) % a.ndim for d in dims}))
    a = coalesced(a)
    sd = sparse_dim(a)
    keep_s = [d for d in range(sd) if d not in dims]
    sum_dense = tuple(d - sd + 1 for d in dims if d >= sd)
    v = a._v.sum(sum_dense, dtype=np.int64 if a._v.dtype.kind in "bui" else None)
    if a._v.dtype.kind in "ui" and a._v.dtype != np.int64:
        v = v.astype(a._v.dtype)
    new_shape = tuple(s for k, s in enumerate(a.shape) if k not in dims)
    if len(keep_s) == sd:
        return make(a._i, v, new_shape, True)
    if not keep_s:
        return np.asarray(v.sum(0))
    return coalesced(make(a._i[keep_s], v, new_shape, False))


def _softmax(input: Tensor, dim: int, dtype: Any, log: bool) -> Tensor:
    name = "log_softmax" if log else "softmax"
    a = _check_sparse(input, name)
    if dtype is not None:
        a = a.astype(dtype._np)
    if a.dtype.kind not in "fc":
        raise NotImplementedError(f"\"{name}\" not implemented for '{D._FROM_NP[a.dtype]._short}'")
    d = _wrap_dim(int(dim), a.ndim)
    c = coalesced(a)
    sd = sparse_dim(c)
    v = c._v.astype(c.dtype)
    if d >= sd:
        x = v - v.max(axis=d - sd + 1, keepdims=True)
        e = np.exp(x)
        s = e.sum(axis=d - sd + 1, keepdims=True)
        y = (x - np.log(s)) if log else e / s
    else:
        # group the entries that differ only in dim d
        other = [k for k in range(sd) if k != d]
        if other:
            key = np.ravel_multi_index(tuple(c._i[other]), tuple(c.shape[k] for k in other))
        else:
            key = np.zeros(c._i.shape[1], np.int64)
        _, grp = np.unique(key, return_inverse=True)
        ng = int(grp.max()) + 1 if grp.size else 0
        mx = np.full((ng, *v.shape[1:]), -np.inf, v.dtype)
        np.maximum.at(mx, grp, v)
        x = v - mx[grp]
        e = np.exp(x)
        s = np.zeros((ng, *v.shape[1:]), v.dtype)
        np.add.at(s, grp, e)
        y = (x - np.log(s[grp])) if log else e / s[grp]
    y = y.astype(c.dtype, copy=False)
    out = sp(make(c._i, y, c.shape, True))
    yi = c._i

    def fn(g: Tensor) -> tuple[Any, ...]:
        gv = mask_values(_arr(g), yi, c.shape)
        if d >= sd:
            ax = d - sd + 1
            if log:
                gi = gv - np.exp(y) * gv.sum(axis=ax, keepdims=True)
            else:
                gi = y * (gv - (gv * y).sum(axis=ax, keepdims=True))
        else:
            ss = np.zeros((ng, *y.shape[1:]), y.dtype)
            if log:
                np.add.at(ss, grp, gv)
                gi = gv - np.exp(y) * ss[grp]
            else:
                np.add.at(ss, grp, gv * y)
                gi = y * (gv - ss[grp])
        return (sp(make(yi, gi.astype(y.dtype, copy=False), c.shape, True)),)

    return record("SparseLogSoftmaxBackward0" if log else "SparseSoftmaxBackward0", out,
                  (input,), fn)  # fmt: skip


def sparse_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """Mirrors `torch.sparse.softmax`."""
    return _softmax(input, dim, dtype, False)


def sparse_log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """Mirrors `torch.sparse.log_softmax`."""
    return _softmax(input, dim, dtype, True)


# --- embedding with a sparse gradient --------------------------------------------------------


def sparse_embedding(
    weight: Tensor, input: Tensor, num: int, padding_idx: int, scale_grad_by_freq: bool
) -> Tensor:
    """F.embedding(..., sparse=True): EmbeddingBackward0 gives a sparse gradient (torch's
    embedding_sparse_backward: one row per lookup, padding_idx's left out, uncoalesced)."""
    from ..ops.nn_ops import embedding_op

    with _grad_mode.no_grad():
        out = embedding_op(weight, input, num, padding_idx, scale_grad_by_freq)
    ind = input._data.reshape(-1).astype(_I64)
    dim = weight.shape[1]

    def fn(g: Tensor) -> tuple[Any, ...]:
        if scale_grad_by_freq:
            raise RuntimeError(
                "embedding_backward: scale_grad_by_freq not supported with sparse gradients"
            )
        gv = np.asarray(_arr(g)).reshape(-1, dim)
        i = ind
        if padding_idx >= 0:
            keep = i != padding_idx
            i, gv = i[keep], gv[keep]
        return (sp(make(i.reshape(1, -1), np.ascontiguousarray(gv), (num, dim), False)),)

    return record("EmbeddingBackward0", out, (weight,), fn)


def sparse_embedding_bag(
    weight: Tensor, input: Tensor, offsets: Tensor, sgf: bool, mode: int, psw: Any,
    last: bool, padding_idx: Any,
) -> Tensor:  # fmt: skip
    """F.embedding_bag(..., sparse=True), mode sum or mean: EmbeddingBagBackward0 gives the
    weight a sparse gradient (torch's _embedding_bag_sparse_backward: each index's bag
    gradient, divided by its bag's size for mean, times its per-sample weight, padding_idx's
    left out)."""
    from ..ops.resample import embedding_bag

    with _grad_mode.no_grad():
        out, offset2bag, bag_size, _ = embedding_bag(
            weight, input, offsets, sgf, mode, False, psw, last, padding_idx
        )
    out = _make(out._data)
    ind = input._data.reshape(-1).astype(_I64)
    o2b = offset2bag._data
    size = bag_size._data
    num, dim = weight.shape
    pad = -1 if padding_idx is None else int(padding_idx) % num

    def fn(g: Tensor, *rest: Any) -> tuple[Any, ...]:
        gd = np.asarray(_arr(g))
        rows = gd[o2b] if gd.shape[0] else np.zeros((0, dim), gd.dtype)
        if mode == 1:
            rows = rows / np.maximum(size, 1)[o2b][:, None].astype(gd.dtype)
        if psw is not None:
            rows = rows * psw._data.reshape(-1)[:, None].astype(gd.dtype)
        if sgf:
            raise RuntimeError(
                "embedding_backward: scale_grad_by_freq not supported with sparse gradients"
            )
        i = ind
        if pad >= 0:
            keep = i != pad
            i, rows = i[keep], rows[keep]
        gw = sp(make(i.reshape(1, -1), np.ascontiguousarray(rows), (num, dim), False))
        gp = None
        if psw is not None and psw._rg:  # each index's row dotted with its bag's gradient
            w = weight._data
            dots = (gd[o2b] * w[ind]).sum(1) if gd.shape[0] else np.zeros(len(ind), gd.dtype)
            gp = _make(np.where(ind != pad, dots, 0).astype(gd.dtype))
        return gw, gp

    return record("EmbeddingBagBackward0", out, (weight, psw), fn)


# --- repr ------------------------------------------------------------------------------------


def sparse_repr(self: Tensor) -> str:
    """torch's repr of a sparse COO tensor."""
    from . import _repr

    return _repr.sparse_repr(self)


METHODS = {
    "to_dense": to_dense,
    "coalesce": coalesce,
    "is_coalesced": is_coalesced,
    "_indices": _indices,
    "_values": _values,
    "indices": indices,
    "values": values,
    "sparse_dim": sparse_dim_,
    "dense_dim": dense_dim,
    "_nnz": _nnz,
    "to_sparse": to_sparse,
    "to_sparse_coo": to_sparse,
    "sparse_mask": sparse_mask,
    "crow_indices": crow_indices,
    "col_indices": col_indices,
    "to_sparse_csr": to_sparse_csr,
    "smm": smm,
}
