"""Realistic programs: sparse COO tensors (torch.sparse). Construction and its errors, the
layout's properties, coalescing, printing, conversions, arithmetic (sparse with sparse, with
dense, with scalars), torch.sparse.sum / softmax / mm / addmm, products through torch.mm and
`@`, autograd through the values and into sparse leaves (gradients that are sparse, their
accumulation), nn.Embedding(sparse=True) and the optimizers that take (or refuse) sparse
gradients. A sparse tensor is returned as the plain data torch shows of it (its repr, indices,
values, flags), since the harness reads a dense tensor's values through numpy(), which torch
refuses for the sparse layout. The programs register into test_realistic_programs_3's set and
run through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it
returns, raises or warns is compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def sp(t: Any, text: bool = True) -> Any:
    """What a program returns of a tensor: a sparse one as its printed form and parts."""
    if not getattr(t, "is_sparse", False):
        return t
    out = {
        "indices": t._indices(),
        "values": t._values().detach(),
        "shape": tuple(t.shape),
        "nnz": t._nnz(),
        "coalesced": t.is_coalesced(),
        "dtype": t.dtype,
        "layout": str(t.layout),
        "requires_grad": t.requires_grad,
        "grad_fn": t.grad_fn,
    }
    if text:
        out["repr"] = repr(t)
    return out


def first(fn: Any) -> Any:
    """fn()'s result, or its error's type and first sentence (torch's dispatcher errors go on
    to list the backends of its build)."""
    try:
        return fn()
    except Exception as e:
        return (type(e).__name__, str(e).split(". ")[0])


def _s(T: Any, rg: bool = False, dtype: Any = None) -> Any:
    """A 2x3 uncoalesced sparse tensor (a duplicate at (1, 2))."""
    i = T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]])
    v = T.tensor([3.0, 4.0, 5.0, -1.5], dtype=dtype)
    return T.sparse_coo_tensor(i, v, (2, 3), requires_grad=rg)


def _c(T: Any, seed: int = 0) -> Any:
    """A 4x5 coalesced sparse tensor of random values."""
    d = T.tensor(_data(4, 5, seed=seed))
    d = d * (T.tensor(np.random.default_rng(seed + 1).random((4, 5)) > 0.6))
    return d.to_sparse()


# --- construction --------------------------------------------------------------------------


@program()
def prog_sp_construct_basic(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    v = T.tensor([3.0, 4.0, 5.0])
    s = T.sparse_coo_tensor(i, v, (2, 3))
    return sp(s), s.to_dense(), s.is_sparse, str(s.layout), s.layout is T.sparse_coo


@program()
def prog_sp_construct_size_inferred(T: Any) -> Any:
    i = T.tensor([[0, 4, 1], [2, 0, 7]])
    s = T.sparse_coo_tensor(i, T.tensor([1.0, 2.0, 3.0]))
    h = T.sparse_coo_tensor(T.tensor([[3, 0]]), T.ones(2, 4))
    return sp(s), tuple(s.shape), sp(h), h.dense_dim(), h.sparse_dim()


@program()
def prog_sp_construct_hybrid(T: Any) -> Any:
    i = T.tensor([[0, 2, 0]])
    v = T.arange(6.0).view(3, 2)
    s = T.sparse_coo_tensor(i, v, (4, 2))
    return sp(s), s.to_dense(), s.sparse_dim(), s.dense_dim(), sp(s.coalesce())


@program()
def prog_sp_construct_empty(T: Any) -> Any:
    e = T.sparse_coo_tensor(T.zeros(2, 0, dtype=T.long), T.zeros(0), (2, 3))
    e2 = T.sparse_coo_tensor(T.zeros(2, 0, dtype=T.long), T.zeros(0))
    e3 = T.sparse_coo_tensor(T.zeros(1, 0, dtype=T.long), T.zeros(0, 3), (5, 3))
    return sp(e), e.to_dense(), sp(e2), sp(e3), e3.to_dense(), e.is_coalesced()


@program()
def prog_sp_construct_from_lists_and_dtypes(T: Any) -> Any:
    s = T.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
    si = T.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2], (2, 2))
    sd = T.sparse_coo_tensor([[0, 1], [1, 0]], [1, 2], (2, 2), dtype=T.float64)
    sb = T.sparse_coo_tensor([[0, 1], [1, 0]], [True, False], (2, 2))
    return sp(s), sp(si), sp(sd), sp(sb), sb.to_dense(), si.to_dense()


@program()
def prog_sp_construct_float_indices(T: Any) -> Any:
    i = T.tensor([[0.0, 1.0], [2.0, 0.0]])
    s = T.sparse_coo_tensor(i, T.tensor([1.0, 2.0]), (2, 3))
    return sp(s), s._indices().dtype


@program()
def prog_sp_construct_requires_grad(T: Any) -> Any:
    s = _s(T, rg=True)
    return (
        sp(s),
        s.is_leaf,
        s.grad_fn,
        raises(lambda: T.sparse_coo_tensor([[0]], [1], (2,), requires_grad=True)),
    )


@program()
def prog_sp_construct_index_shape_errors(T: Any) -> Any:
    v = T.tensor([1.0, 2.0])
    return (
        raises(lambda: T.sparse_coo_tensor(T.tensor([0, 1]), v)),
        raises(lambda: T.sparse_coo_tensor(T.zeros(1, 2, 2, dtype=T.long), v)),
        raises(lambda: T.sparse_coo_tensor(T.tensor([[0, 1, 1]]), v)),
        raises(lambda: T.sparse_coo_tensor(T.tensor([[0, 1], [1, 0]]), v, (2,))),
        raises(lambda: T.sparse_coo_tensor(T.tensor([[0, 1], [1, 0]]), v, (2, 2, 2))),
    )


@program()
def prog_sp_construct_check_invariants(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    v = T.tensor([3.0, 4.0, 5.0])
    return (
        raises(lambda: T.sparse_coo_tensor(i, v, (1, 3), check_invariants=True)),
        raises(lambda: T.sparse_coo_tensor(-i, v, (2, 3), check_invariants=True)),
        raises(lambda: T.sparse_coo_tensor(i, v, (2, 2), check_invariants=True)),
        sp(T.sparse_coo_tensor(i, v, (2, 3), check_invariants=True)),
        sp(T.sparse_coo_tensor(i, v, (1, 3), check_invariants=False), text=False)["shape"],
    )


@program()
def prog_sp_construct_invariants_context(T: Any) -> Any:
    i = T.tensor([[0, 5]])
    v = T.tensor([1.0, 2.0])
    with T.sparse.check_sparse_tensor_invariants():
        inside = raises(lambda: T.sparse_coo_tensor(i, v, (3,)))
        enabled = T.sparse.check_sparse_tensor_invariants.is_enabled()
    after = T.sparse.check_sparse_tensor_invariants.is_enabled()
    return inside, enabled, after, sp(T.sparse_coo_tensor(i, v, (6,)))


@program()
def prog_sp_construct_is_coalesced_flag(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    v = T.tensor([3.0, 4.0, 5.0])
    a = T.sparse_coo_tensor(i, v, (2, 3), is_coalesced=True)
    b = T.sparse_coo_tensor(i[:, :1], v[:1], (2, 3))
    c = T.sparse_coo_tensor(i, v, (2, 3), is_coalesced=False)
    return a.is_coalesced(), b.is_coalesced(), c.is_coalesced(), sp(a.indices())


@program()
def prog_sp_properties(T: Any) -> Any:
    s = _s(T)
    return (
        s.shape,
        s.size(),
        s.size(1),
        s.size(-2),
        s.dim(),
        s.ndim,
        s.numel(),
        s.dtype,
        s.device,
        s.is_cuda,
        s.is_sparse,
        s.is_sparse_csr,
        s.sparse_dim(),
        s.dense_dim(),
        s._nnz(),
        s.is_coalesced(),
        len(s),
        s.stride(),
        s.is_contiguous(),
        s.is_floating_point(),
        s.requires_grad,
        s.is_leaf,
        raises(lambda: s.size(2)),
    )


@program()
def prog_sp_dense_tensor_sparse_queries(T: Any) -> Any:
    x = T.ones(2, 3)
    return (
        x.is_sparse,
        str(x.layout),
        x.sparse_dim(),
        x.dense_dim(),
        x.to_dense() is x,
        raises(lambda: x.coalesce()),
        raises(lambda: x.indices()),
        raises(lambda: x.values()),
        raises(lambda: x.is_coalesced()),
        first(lambda: x._nnz()),
        first(lambda: x._indices()),
        first(lambda: x._values()),
    )


# --- printing ------------------------------------------------------------------------------


@program()
def prog_sp_repr_dtypes(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    v = T.tensor([3.0, 4.25, -5.0])
    out = {}
    for dt in (T.float32, T.float64, T.float16, T.int32, T.int64, T.bool, T.complex64):
        out[str(dt)] = repr(T.sparse_coo_tensor(i, v.to(dt), (2, 3)))
    return out


@program()
def prog_sp_repr_grad_and_str(T: Any) -> Any:
    v = T.tensor([3.0, 4.0], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 2]]), v, (4,))
    leaf = T.sparse_coo_tensor(T.tensor([[0, 2]]), T.tensor([1.0, 2.0]), (4,), requires_grad=True)
    return repr(s), str(s), repr(leaf), repr(s * 2), f"{leaf}"


@program()
def prog_sp_repr_hybrid_and_empty(T: Any) -> Any:
    h = T.sparse_coo_tensor(T.tensor([[0, 3]]), T.tensor([[1.5, 2.0], [3.0, -4.0]]), (5, 2))
    e = T.sparse_coo_tensor(T.zeros(2, 0, dtype=T.long), T.zeros(0), (2, 3))
    eh = T.sparse_coo_tensor(T.zeros(1, 0, dtype=T.long), T.zeros(0, 3), (4, 3))
    z = T.ones(()).to_sparse()
    return repr(h), repr(e), repr(eh), repr(z)


@program()
def prog_sp_repr_wide_values(T: Any) -> Any:
    n = 40
    i = T.stack([T.arange(n), T.arange(n).flip(0)])
    s = T.sparse_coo_tensor(i, T.linspace(-3, 1000, n), (n, n))
    big = T.sparse_coo_tensor(T.arange(2000).view(1, -1), T.ones(2000), (2000,))
    return repr(s), repr(big)


@program()
def prog_sp_repr_default_dtype_float64(T: Any) -> Any:
    old = T.get_default_dtype()
    T.set_default_dtype(T.float64)
    try:
        a = repr(T.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,)))
        b = repr(T.sparse_coo_tensor([[0, 1]], T.tensor([1.0, 2.0], dtype=T.float32), (3,)))
    finally:
        T.set_default_dtype(old)
    return a, b


# --- coalesce, indices, values -------------------------------------------------------------


@program()
def prog_sp_coalesce_sums_and_sorts(T: Any) -> Any:
    i = T.tensor([[1, 0, 1, 0, 1], [2, 1, 0, 1, 2]])
    v = T.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    s = T.sparse_coo_tensor(i, v, (2, 3))
    c = s.coalesce()
    return sp(s), sp(c), c.indices(), c.values(), c.to_dense(), s.to_dense()


@program()
def prog_sp_coalesce_is_identity_when_coalesced(T: Any) -> Any:
    c = _s(T).coalesce()
    d = T.ones(3, 3).to_sparse()
    return c.coalesce() is c, d.coalesce() is d, d.is_coalesced(), c._nnz()


@program()
def prog_sp_coalesce_hybrid_and_ints(T: Any) -> Any:
    i = T.tensor([[2, 0, 2]])
    h = T.sparse_coo_tensor(i, T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), (3, 2))
    n = T.sparse_coo_tensor(i, T.tensor([7, 8, 9]), (3,))
    b = T.sparse_coo_tensor(i, T.tensor([True, False, False]), (3,))
    return sp(h.coalesce()), sp(n.coalesce()), sp(b.coalesce()), b.to_dense()


@program()
def prog_sp_uncoalesced_indices_values_errors(T: Any) -> Any:
    s = _s(T)
    return (
        raises(lambda: s.indices()),
        raises(lambda: s.values()),
        s._indices(),
        s._values(),
        s.coalesce().indices(),
        s.coalesce().values(),
    )


@program()
def prog_sp_values_is_differentiable(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 3]]), v, (4,)).coalesce()
    vals = s.values()
    (vals * T.tensor([1.0, 2.0, 3.0])).sum().backward()
    return vals.grad_fn, s._values().grad_fn, s._values().requires_grad, v.grad


# --- conversions ---------------------------------------------------------------------------


@program()
def prog_sp_to_sparse_from_dense(T: Any) -> Any:
    d = T.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, -3.0]])
    return (
        sp(d.to_sparse()),
        sp(d.to_sparse(1)),
        raises(lambda: d.to_sparse(0)),
        raises(lambda: d.to_sparse(3)),
        raises(lambda: d.to_sparse(-1)),
        sp(T.tensor(1.5).to_sparse(0)),
        sp(d.to_sparse(layout=T.sparse_coo)),
        sp(T.zeros(0, 3).to_sparse()),
        sp(T.tensor([[True, False]]).to_sparse()),
        sp(T.tensor(2.5).to_sparse()),
    )


@program()
def prog_sp_to_sparse_of_sparse(T: Any) -> Any:
    s = _s(T)
    return s.to_sparse() is s, raises(lambda: s.to_sparse(1)), sp(s.to_sparse(2))


@program()
def prog_sp_dtype_conversions(T: Any) -> Any:
    s = _s(T)
    return (
        sp(s.double()),
        sp(s.half()),
        sp(s.int()),
        sp(s.to(T.float64)),
        sp(s.to(dtype=T.int64)),
        sp(s.float()),
        s.double().is_coalesced(),
    )


@program()
def prog_sp_clone_detach_requires_grad(T: Any) -> Any:
    s = _s(T)
    c = s.clone()
    d = s.detach()
    r = s.clone().requires_grad_()
    return (
        sp(c),
        sp(d),
        sp(r),
        r.is_leaf,
        raises(lambda: s.int().requires_grad_()),
        c.is_coalesced(),
    )


@program()
def prog_sp_transpose(T: Any) -> Any:
    s = _s(T)
    v = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    g = T.sparse_coo_tensor(T.tensor([[0, 1, 2], [1, 0, 1]]), v, (3, 2))
    tt = g.t()
    tt.to_dense().pow(2).sum().backward()
    return sp(s.t()), s.t().to_dense(), sp(tt), tt.grad_fn, v.grad, sp(s.t().t())


@program()
def prog_sp_dense_only_ops_refuse(T: Any) -> Any:
    s = _s(T)
    return (
        raises(lambda: s.numpy()),
        raises(lambda: s.tolist()),
        raises(lambda: s.reshape(6)),
        first(lambda: s.view(6)),
        first(lambda: s.exp()),
        first(lambda: s == s),
        raises(lambda: s.data_ptr()),
        raises(lambda: s + 1),
    )


@program()
def prog_sp_numpy_refused_with_grad(T: Any) -> Any:
    s = _s(T, rg=True)
    return raises(lambda: s.numpy()), raises(lambda: s.detach().numpy())


@program()
def prog_sp_item_of_one_element(T: Any) -> Any:
    s = T.sparse_coo_tensor(T.zeros(1, 2, dtype=T.long), T.tensor([2.0, 0.5]), (1,))
    return s.item(), raises(lambda: _s(T).item()), raises(lambda: bool(_s(T)))


# --- arithmetic ----------------------------------------------------------------------------


@program()
def prog_sp_scalar_arithmetic(T: Any) -> Any:
    s = _s(T)
    return (
        sp(s * 2),
        sp(2 * s),
        sp(s / 2),
        sp(-s),
        sp(s * 0.5),
        sp(s.mul(3)),
        sp(s.div(4)),
        sp(T.mul(s, -1.5)),
    )


@program()
def prog_sp_zero_preserving_unary(T: Any) -> Any:
    s = _s(T)
    return (
        sp(s.pow(2)),
        sp(s**2),
        sp((-s).abs()),
        sp(s.abs().sqrt(), text=False),
        sp(s.neg()),
        sp(T.tanh(s), text=False),
        sp(T.sin(s), text=False),
    )


@program()
def prog_sp_sign_and_abs_backward(T: Any) -> Any:
    i = T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]])
    s = T.sparse_coo_tensor(i, T.tensor([3.0, -4.0, 5.0, -1.5]), (2, 3), requires_grad=True)
    T.sparse.sum(s.abs() * 2).backward()
    v = T.tensor([3.0, -4.0, 5.0, -1.5], requires_grad=True)
    (T.sparse_coo_tensor(i, v, (2, 3)).abs().to_dense() * T.arange(6.0).view(2, 3)).sum().backward()
    return sp(s.detach().sign()), sp(T.sgn(s.detach())), sp(s.grad), v.grad


@program()
def prog_sp_mul_dense(T: Any) -> Any:
    s = _s(T)
    d = T.arange(6.0).view(2, 3)
    return (
        sp(s * d),
        sp(d * s),
        sp(s * T.tensor([1.0, -1.0, 2.0])),
        sp(s * T.tensor(3.0)),
        sp(s.mul(d)),
    )


@program()
def prog_sp_add_sparse_uncoalesced_merges(T: Any) -> Any:
    s = _s(T)
    s2 = T.sparse_coo_tensor(T.tensor([[1, 0, 1], [2, 0, 2]]), T.tensor([1.0, 2.0, 7.0]), (2, 3))
    return (
        sp(s + s2),
        sp(s2 + s),
        sp(s + s),
        sp(s - s2),
        sp(s.add(s2, alpha=2)),
        (s + s2).to_dense(),
    )


@program()
def prog_sp_add_coalesced(T: Any) -> Any:
    a, b = _c(T, 0), _c(T, 3)
    r = a + b
    return sp(r, text=False), r.to_dense(), sp(a - b, text=False), (a.to_dense() + b.to_dense())


@program()
def prog_sp_add_with_empty(T: Any) -> Any:
    s = _s(T)
    e = T.sparse_coo_tensor(T.zeros(2, 0, dtype=T.long), T.zeros(0), (2, 3))
    return sp(s + e), sp(e + s), sp(e + e), sp(e - s)


@program()
def prog_sp_add_mixed_dtypes(T: Any) -> Any:
    s = _s(T)
    n = T.sparse_coo_tensor(T.tensor([[0], [1]]), T.tensor([4]), (2, 3))
    return sp(s + n), sp(n + n), sp(s.double() + s), sp(s + s.half())


@program()
def prog_sp_dense_plus_sparse(T: Any) -> Any:
    s = _s(T)
    d = T.ones(2, 3)
    return (
        d + s,
        d - s,
        T.add(d, s, alpha=2),
        d.double() + s,
        T.zeros(2, 3, dtype=T.int64) + s.int(),
        raises(lambda: s + d),
        raises(lambda: s - d),
        raises(lambda: T.ones(3, 3) + s),
        raises(lambda: T.ones(3) + s),
    )


@program()
def prog_sp_add_size_mismatch(T: Any) -> Any:
    a = _s(T)
    b = T.sparse_coo_tensor(T.tensor([[0], [0]]), T.tensor([1.0]), (3, 3))
    return raises(lambda: a + b), raises(lambda: a - b), raises(lambda: a * b)


@program()
def prog_sp_mul_sparse_coalesced(T: Any) -> Any:
    a, b = _c(T, 0), _c(T, 3)
    r = a * b
    return sp(r, text=False), r.to_dense(), a.to_dense() * b.to_dense(), sp(a * a, text=False)


@program()
def prog_sp_inplace_ops(T: Any) -> Any:
    s = _s(T)
    c = s.clone()
    c.mul_(2)
    c.add_(s)
    d = s.coalesce()
    d.div_(4)
    x = T.zeros(2, 3)
    x.add_(s)
    x.sub_(s, alpha=0.5)
    return sp(c), sp(d), x, sp(s), raises(lambda: s.clone().add_(T.ones(2, 3)))


@program()
def prog_sp_inplace_unary_need_coalesced(T: Any) -> Any:
    out = {}
    for name in ("abs_", "sqrt_", "sin_", "tanh_", "neg_", "floor_", "expm1_", "log1p_",
                 "trunc_", "relu_", "asin_", "erf_"):  # fmt: skip
        s = _s(T).clone()
        c = (_s(T) / 10).coalesce()
        out[name] = (
            raises(lambda s=s, n=name: sp(getattr(s, n)(), text=False)),
            sp(getattr(c, name)(), text=False),
        )
    return out


@program()
def prog_sp_int_and_half_arithmetic(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    n = T.sparse_coo_tensor(i, T.tensor([3, 4, 5]), (2, 3))
    h = T.sparse_coo_tensor(i, T.tensor([0.1, 0.2, 0.3], dtype=T.float16), (2, 3))
    return (
        sp(n * 2),
        sp(n / 2),
        sp(n * 2.5),
        sp(n + n),
        sp(h * 3),
        raises(lambda: h + h),
        sp(-n),
        sp(n // 2),
        sp(h * h),
        first(lambda: n % 2),
    )


# --- reductions and softmax ----------------------------------------------------------------


@program()
def prog_sp_sparse_sum(T: Any) -> Any:
    s = _s(T)
    return (
        T.sparse.sum(s),
        sp(T.sparse.sum(s, 0)),
        sp(T.sparse.sum(s, 1)),
        sp(T.sparse.sum(s, -1)),
        T.sparse.sum(s, (0, 1)),
        T.sparse.sum(s, dtype=T.float64),
        s.sum(),
    )


@program()
def prog_sp_sparse_sum_ints_and_errors(T: Any) -> Any:
    n = _s(T).int()
    return (
        T.sparse.sum(n),
        sp(T.sparse.sum(n, 0)),
        raises(lambda: T.sparse.sum(_s(T), 5)),
        raises(lambda: T.sparse.sum(_s(T), -3)),
        raises(lambda: T.sparse.sum(T.ones(2, 2))),
    )


@program()
def prog_sp_sparse_sum_hybrid(T: Any) -> Any:
    h = T.sparse_coo_tensor(T.tensor([[0, 2, 0]]), T.arange(6.0).view(3, 2), (4, 2))
    return (
        T.sparse.sum(h),
        sp(T.sparse.sum(h, 1)),
        T.sparse.sum(h, 0),
    )


@program()
def prog_sp_sparse_sum_backward(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    r = T.sparse.sum(s, 1)
    (r.to_dense() * T.tensor([2.0, 3.0])).sum().backward()
    leaf = _s(T, rg=True)
    T.sparse.sum(leaf).backward()
    return sp(r), r.grad_fn, v.grad, sp(leaf.grad), T.sparse.sum(s).grad_fn


@program()
def prog_sp_softmax(T: Any) -> Any:
    s = _s(T)
    return (
        sp(T.sparse.softmax(s, 1), text=False),
        sp(T.sparse.softmax(s, 0), text=False),
        sp(T.sparse.log_softmax(s, 1), text=False),
        sp(T.sparse.log_softmax(s, -2), text=False),
        sp(T.sparse.softmax(s, 1, dtype=T.float64), text=False),
        T.sparse.softmax(s, 1).to_dense(),
    )


@program()
def prog_sp_softmax_errors(T: Any) -> Any:
    return (
        raises(lambda: T.sparse.softmax(_s(T).int(), 0)),
        raises(lambda: T.sparse.softmax(_s(T), 2)),
        raises(lambda: T.sparse.log_softmax(_s(T).int(), 0)),
    )


@program()
def prog_sp_softmax_backward(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5, 0.5], requires_grad=True)
    i = T.tensor([[0, 1, 1, 1, 0], [2, 0, 2, 2, 0]])
    s = T.sparse_coo_tensor(i, v, (2, 3))
    w = T.tensor([[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]])
    y = T.sparse.softmax(s, 1)
    z = T.sparse.log_softmax(s, 0)
    ((y.to_dense() * w).sum() + (z.to_dense() * w).sum()).backward()
    return y.grad_fn, z.grad_fn, v.grad


@program()
def prog_sp_softmax_hybrid(T: Any) -> Any:
    h = T.sparse_coo_tensor(
        T.tensor([[0, 2, 0]]), T.tensor([[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]]), (3, 2)
    )
    return (
        sp(T.sparse.softmax(h, 0), text=False),
        sp(T.sparse.softmax(h, 1), text=False),
        sp(T.sparse.log_softmax(h, 1), text=False),
    )


# --- products ------------------------------------------------------------------------------


@program()
def prog_sp_mm_forms(T: Any) -> Any:
    s = _s(T)
    x = T.tensor(_data(3, 2, seed=1))
    return (
        T.mm(s, x),
        s @ x,
        T.matmul(s, x),
        s.mm(x),
        T.sparse.mm(s, x),
        T.spmm(s, x),
        (T.mm(s, x)).grad_fn,
    )


@program()
def prog_sp_mm_dense_sparse(T: Any) -> Any:
    s = _s(T)
    d = T.tensor(_data(4, 2, seed=2))
    return T.sparse.mm(d, s), d @ s, T.mm(d, s)


@program()
def prog_sp_mm_errors(T: Any) -> Any:
    s = _s(T)
    return (
        raises(lambda: T.sparse.mm(s, T.ones(2, 2))),
        raises(lambda: T.mm(s, T.ones(2, 2))),
        raises(lambda: T.sparse.mm(s, T.ones(3, 2, dtype=T.float64))),
        raises(lambda: T.mm(s, T.ones(3, 2, dtype=T.float64))),
        raises(lambda: T.sparse.mm(s, T.ones(3))),
    )


@program()
def prog_sp_mm_ints(T: Any) -> Any:
    s = _s(T).int()
    return T.sparse.mm(s, T.ones(3, 2, dtype=T.int32)), T.mm(s, T.ones(3, 2, dtype=T.int32))


@program()
def prog_sp_sparse_times_sparse(T: Any) -> Any:
    a = T.sparse_coo_tensor([[0, 1, 1], [1, 0, 1]], [1.0, 2.0, 3.0], (2, 2), requires_grad=True)
    b = T.sparse_coo_tensor([[0, 1], [0, 1]], [4.0, 5.0], (2, 2), requires_grad=True)
    y = T.sparse.mm(a, b)
    T.sparse.sum(y * T.tensor([[1.0, 2.0], [3.0, 4.0]])).backward()
    v = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a2 = T.sparse_coo_tensor([[0, 1, 1], [1, 0, 1]], v, (2, 2))
    (T.sparse.mm(a2, b.detach()).to_dense() ** 2).sum().backward()
    z = T.sparse_coo_tensor([[0], [0]], [0.0], (2, 2))
    u = _s(T)
    return (
        sp(y),
        sp(a.grad),
        sp(b.grad),
        v.grad,
        sp(T.sparse.mm(a.detach(), z)),
        sp(T.sparse.mm(u, u.t())),
        raises(lambda: T.sparse.mm(u, u)),
    )


@program()
def prog_sp_collate_and_negative_size(T: Any) -> Any:
    s = _s(T)
    return (
        raises(lambda: T.utils.data.default_collate([s, s * 2])),
        raises(lambda: T.sparse_coo_tensor([[0]], [1.0], (-1,))),
        T.utils.data.default_collate([s.to_dense(), s.to_dense()]),
    )


@program()
def prog_sp_hspmm_and_smm(T: Any) -> Any:
    i = T.tensor([[0, 2, 2], [2, 0, 2]])
    v = T.tensor([3.0, 4.0, 5.0], requires_grad=True)
    s = T.sparse_coo_tensor(i, v, (3, 3))
    d = T.arange(6.0).view(3, 2).requires_grad_()
    h = T.hspmm(s, d)
    m = T.smm(s, d)
    return (
        sp(h),
        sp(m),
        sp(s.smm(d)),
        raises(lambda: T.sparse.sum(h).backward()),
        raises(lambda: T.sparse.sum(m).backward()),
        raises(lambda: T.hspmm(s.detach(), T.ones(2, 2))),
        raises(lambda: T.smm(s.detach(), T.ones(2, 2))),
        first(lambda: T.hspmm(T.ones(3, 3), d.detach())),
    )


@program()
def prog_sp_sparse_mm_grads(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    x = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    y = T.sparse.mm(s, x)
    (y * T.tensor([[1.0, 2.0], [-1.0, 0.5]])).sum().backward()
    return y, y.grad_fn, v.grad, x.grad, y.grad_fn.next_functions


@program()
def prog_sp_sparse_mm_leaf_grad_is_sparse(T: Any) -> Any:
    s = _s(T, rg=True)
    x = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    T.sparse.mm(s, x).pow(2).sum().backward()
    return sp(s.grad, text=False), x.grad


@program()
def prog_sp_torch_mm_leaf_grad_is_dense(T: Any) -> Any:
    s = _s(T, rg=True)
    x = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    y = T.mm(s, x)
    y.pow(2).sum().backward()
    g1 = s.grad.clone()
    (s @ x).sum().backward()
    return y.grad_fn, g1, s.grad, s.grad.is_sparse, x.grad


@program()
def prog_sp_addmm(T: Any) -> Any:
    s = _s(T)
    x = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    b = T.tensor(_data(2, 2, seed=2), requires_grad=True)
    y = T.sparse.addmm(b, s, x, beta=0.5, alpha=2.0)
    y.sum().backward()
    y2 = T.sparse.addmm(b, s, x)
    return y, y.grad_fn, x.grad, b.grad, y2, T.sparse.addmm(T.ones(2), s, x.detach())


@program()
def prog_sp_gcn_layer_training(T: Any) -> Any:
    n, f, h, c = 6, 4, 5, 3
    edges = T.tensor([[0, 1, 1, 2, 3, 4, 5, 0, 2, 3], [1, 0, 2, 1, 4, 3, 0, 5, 3, 2]])
    loops = T.arange(n).repeat(2, 1)
    idx = T.cat([edges, loops], 1)
    deg = T.bincount(idx[0], minlength=n).float()
    norm = deg[idx[0]].rsqrt() * deg[idx[1]].rsqrt()
    adj = T.sparse_coo_tensor(idx, norm, (n, n)).coalesce()
    x = T.tensor(_data(n, f, seed=3))
    w1 = T.tensor(_data(f, h, seed=4) * 0.5, requires_grad=True)
    w2 = T.tensor(_data(h, c, seed=5) * 0.5, requires_grad=True)
    y = T.tensor([0, 1, 2, 0, 1, 2])
    opt = T.optim.SGD([w1, w2], lr=0.5)
    losses = []
    for _ in range(4):
        opt.zero_grad()
        hid = T.relu(T.sparse.mm(adj, x @ w1))
        out = adj @ (hid @ w2)
        loss = T.nn.functional.cross_entropy(out, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, w1, w2, sp(adj, text=False)


# --- autograd --------------------------------------------------------------------------------


@program()
def prog_sp_values_grad_through_to_dense(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    d = s.to_dense()
    (d * T.arange(6.0).view(2, 3)).sum().backward()
    return d, d.grad_fn, s.grad_fn, s.grad_fn.next_functions, v.grad


@program()
def prog_sp_values_grad_hybrid(T: Any) -> Any:
    v = T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 2, 0]]), v, (3, 2))
    (s.to_dense() ** 2).sum().backward()
    return v.grad, s.to_dense()


@program()
def prog_sp_grad_fn_names(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    d = T.ones(2, 3, requires_grad=True)
    return {
        "ctor": s.grad_fn,
        "to_dense": s.to_dense().grad_fn,
        "coalesce": s.coalesce().grad_fn,
        "mul": (s * 2).grad_fn,
        "div": (s / 2).grad_fn,
        "neg": (-s).grad_fn,
        "pow": s.pow(2).grad_fn,
        "add": (s + s).grad_fn,
        "t": s.t().grad_fn,
        "double": s.double().grad_fn,
        "clone": s.clone().grad_fn,
        "sum": T.sparse.sum(s).grad_fn,
        "sum_dim": T.sparse.sum(s, 0).grad_fn,
        "to_sparse": d.to_sparse().grad_fn,
        "sparse_mask": d.sparse_mask(s.detach().coalesce()).grad_fn,
        "dense_add": (d + s).grad_fn,
    }


@program()
def prog_sp_sparse_leaf_grad_accumulates(T: Any) -> Any:
    s = _s(T, rg=True)
    T.sparse.sum(s).backward()
    g1 = sp(s.grad)
    T.sparse.sum(s * 2).backward()
    g2 = sp(s.grad)
    s.to_dense().sum().backward()
    return g1, g2, sp(s.grad)


@program()
def prog_sp_sparse_leaf_dense_then_sparse_grad(T: Any) -> Any:
    s = _s(T, rg=True)
    x = T.ones(3, 2)
    T.mm(s, x).sum().backward()
    first_grad = s.grad.clone()
    T.sparse.sum(s).backward()
    return first_grad, s.grad.is_sparse, s.grad


@program()
def prog_sp_sparse_leaf_sparse_then_dense_grad(T: Any) -> Any:
    s = _s(T, rg=True)
    T.sparse.sum(s).backward()
    T.mm(s, T.ones(3, 2)).sum().backward()
    return s.grad.is_sparse, s.grad


@program()
def prog_sp_chain_of_ops_grad(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    y = ((s * 2 - s) / 3).coalesce().pow(2)
    d = y.to_dense()
    (d * T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    return sp(y), v.grad


@program()
def prog_sp_to_sparse_backward(T: Any) -> Any:
    x = T.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]], requires_grad=True)
    s = x.to_sparse()
    y = T.sparse.sum(s * 3)
    y.backward()
    x2 = T.tensor([[0.0, 1.5], [2.0, 0.0]], requires_grad=True)
    T.sparse.mm(x2.to_sparse(), T.ones(2, 2)).sum().backward()
    return s.grad_fn, x.grad, x2.grad


@program()
def prog_sp_sparse_mask(T: Any) -> Any:
    x = T.tensor(_data(2, 3, seed=4), requires_grad=True)
    m = _s(T).coalesce()
    r = x.sparse_mask(m)
    T.sparse.sum(r * 2).backward()
    return sp(r), x.grad, first(lambda: x.sparse_mask(x))


@program()
def prog_sp_dense_plus_sparse_grad(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    d = T.ones(2, 3, requires_grad=True)
    y = d + s * 2
    (y * T.arange(6.0).view(2, 3)).sum().backward()
    return y, y.grad_fn, d.grad, v.grad


@program()
def prog_sp_mul_dense_grad(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    w = T.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    y = s * w
    T.sparse.sum(y).backward()
    return sp(y), v.grad


@program()
def prog_sp_autograd_grad_of_values(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 3]]), v, (4,))
    x = T.tensor([1.0, 2.0, 3.0, 4.0])
    (g,) = T.autograd.grad((s.to_dense() * x).sum(), v)
    return g, v.grad


@program()
def prog_sp_no_grad_construction(T: Any) -> Any:
    v = T.tensor([3.0, 4.0], requires_grad=True)
    with T.no_grad():
        s = T.sparse_coo_tensor(T.tensor([[0, 1]]), v, (2,))
        t = s * 2
    return s.requires_grad, s.grad_fn, t.requires_grad, sp(t)


@program()
def prog_sp_backward_twice_error(T: Any) -> Any:
    v = T.tensor([3.0, 4.0], requires_grad=True)
    x = T.ones(2, 2, requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1], [1, 0]]), v, (2, 2))
    y = (s * 3).to_dense() * x
    y.sum().backward()
    return raises(lambda: y.sum().backward()), v.grad


@program()
def prog_sp_retain_grad_and_hooks(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    v = T.tensor([3.0, 4.0, 5.0], requires_grad=True)
    s = T.sparse_coo_tensor(i, v, (2, 3))
    s.retain_grad()
    (s.to_dense() * 2).sum().backward()
    v2 = T.tensor([3.0, 4.0, 5.0], requires_grad=True)
    s2 = T.sparse_coo_tensor(i, v2, (2, 3))
    seen = []
    s2.register_hook(lambda g: seen.append(sp(g)) or g * 3)
    T.sparse.sum(s2).backward()
    return sp(s.grad), v.grad, seen, v2.grad


@program()
def prog_sp_sparse_parameter_and_grad_assignment(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    p = T.nn.Parameter(T.sparse_coo_tensor(i, T.tensor([3.0, 4.0, 5.0]), (2, 3)))
    T.sparse.mm(p, T.ones(3, 2)).sum().backward()
    T.optim.SGD([p], lr=0.1).step()
    w = T.ones(2, 3, requires_grad=True)
    w.grad = T.sparse_coo_tensor(i, T.tensor([3.0, 4.0, 5.0]), (2, 3))
    T.optim.SGD([w], lr=0.5).step()
    s = T.sparse_coo_tensor(i, T.tensor([3.0, 4.0, 5.0]), (2, 3), requires_grad=True)
    (g,) = T.autograd.grad(T.sparse.sum(s * 2), s)
    return repr(p), sp(p.grad), w, sp(g), isinstance(p, T.nn.Parameter)


@program()
def prog_sp_module_buffer_state_dict(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    m = T.nn.Module()
    m.register_buffer("adj", T.sparse_coo_tensor(i, T.tensor([3.0, 4.0, 5.0]), (2, 3)))
    sd = m.state_dict()
    m2 = T.nn.Module()
    m2.register_buffer("adj", T.sparse_coo_tensor(i[:, :1], T.tensor([1.0]), (2, 3)))
    r = m2.load_state_dict(sd)
    return sp(sd["adj"]), sp(m2.adj), str(r)


@program()
def prog_sp_mixed_sparse_and_dense_optimizers(T: Any) -> Any:
    e = _emb(T)
    lin = T.nn.Linear(3, 1)
    with T.no_grad():
        lin.weight.copy_(T.tensor([[0.2, -0.1, 0.3]]))
        lin.bias.zero_()
    opts = [T.optim.SparseAdam(e.parameters(), lr=0.1), T.optim.Adam(lin.parameters(), lr=0.1)]
    for k in range(3):
        for o in opts:
            o.zero_grad()
        lin(e(T.tensor([[1, 2], [4, 1], [0, 5]])[k])).sum().backward()
        for o in opts:
            o.step()
    return e.weight.detach(), lin.weight.detach(), e.weight.grad.is_sparse


# --- nn.Embedding(sparse=True) ---------------------------------------------------------------


def _emb(T: Any, **kw: Any) -> Any:
    e = T.nn.Embedding(6, 3, sparse=True, **kw)
    with T.no_grad():
        e.weight.copy_(T.arange(18.0).view(6, 3) / 10)
    return e


@program()
def prog_sp_embedding_sparse_grad(T: Any) -> Any:
    e = _emb(T)
    out = e(T.tensor([[1, 2], [1, 4]]))
    (out * T.arange(12.0).view(2, 2, 3)).sum().backward()
    g = e.weight.grad
    return out.grad_fn, sp(g), g.to_dense(), repr(e)


@program()
def prog_sp_embedding_grad_accumulates(T: Any) -> Any:
    e = _emb(T)
    e(T.tensor([1, 2])).sum().backward()
    g1 = sp(e.weight.grad)
    e(T.tensor([2, 5])).pow(2).sum().backward()
    return g1, sp(e.weight.grad), e.weight.grad.coalesce().to_dense()


@program()
def prog_sp_embedding_padding_idx(T: Any) -> Any:
    e = _emb(T, padding_idx=1)
    e(T.tensor([[1, 2], [2, 4]])).sum().backward()
    g1 = sp(e.weight.grad)
    e.weight.grad = None
    e(T.tensor([1, 1])).sum().backward()
    g2 = sp(e.weight.grad)
    e(T.tensor([3])).sum().backward()
    return g1, g2, sp(e.weight.grad)


@program()
def prog_sp_embedding_scale_grad_by_freq_refused(T: Any) -> Any:
    e = _emb(T, scale_grad_by_freq=True)
    out = e(T.tensor([1, 1, 2]))
    return out, raises(lambda: out.sum().backward())


@program()
def prog_sp_functional_embedding_sparse(T: Any) -> Any:
    w = T.tensor(_data(5, 2, seed=7), requires_grad=True)
    idx = T.tensor([[0, 3, 3], [4, 0, 1]])
    out = T.nn.functional.embedding(idx, w, sparse=True)
    (out**2).sum().backward()
    w2 = T.tensor(_data(5, 2, seed=7), requires_grad=True)
    T.nn.functional.embedding(idx, w2, padding_idx=0, sparse=True).sum().backward()
    return out, sp(w.grad, text=False), sp(w2.grad)


@program()
def prog_sp_embedding_dense_vs_sparse_same_values(T: Any) -> Any:
    idx = T.tensor([3, 0, 3, 5])
    a, b = _emb(T), T.nn.Embedding(6, 3)
    with T.no_grad():
        b.weight.copy_(a.weight)
    (a(idx) ** 3).sum().backward()
    (b(idx) ** 3).sum().backward()
    return a.weight.grad.to_dense(), b.weight.grad, a.weight.grad.is_sparse, b.weight.grad.is_sparse


# --- optimizers with sparse gradients ------------------------------------------------------


def _train(T: Any, make: Any, steps: int = 3, **kw: Any) -> Any:
    e = _emb(T, **kw)
    opt = make(e.parameters())
    for k in range(steps):
        opt.zero_grad()
        idx = T.tensor([[1, 2, 1], [4, 1, 0]])[k % 2]
        (e(idx) ** 2).sum().backward()
        opt.step()
    return e.weight.detach()


@program()
def prog_sp_sgd_plain(T: Any) -> Any:
    return _train(T, lambda p: T.optim.SGD(p, lr=0.1))


@program()
def prog_sp_sgd_momentum(T: Any) -> Any:
    e = _emb(T)
    opt = T.optim.SGD(e.parameters(), lr=0.1, momentum=0.9, dampening=0.1)
    for k in range(3):
        opt.zero_grad()
        (e(T.tensor([[1, 2, 1], [4, 1, 0]])[k % 2]) ** 2).sum().backward()
        opt.step()
    buf = opt.state[e.weight]["momentum_buffer"]
    return e.weight.detach(), sp(buf, text=False)


@program()
def prog_sp_sgd_nesterov_and_maximize(T: Any) -> Any:
    return (
        _train(T, lambda p: T.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True)),
        _train(T, lambda p: T.optim.SGD(p, lr=0.1, maximize=True)),
        _train(T, lambda p: T.optim.SGD(p, lr=0.1, momentum=0.5, maximize=True)),
    )


@program()
def prog_sp_sgd_weight_decay_refused(T: Any) -> Any:
    return raises(lambda: _train(T, lambda p: T.optim.SGD(p, lr=0.1, weight_decay=0.1)))


@program()
def prog_sp_sparse_adam(T: Any) -> Any:
    e = _emb(T)
    opt = T.optim.SparseAdam(e.parameters(), lr=0.1)
    for k in range(3):
        opt.zero_grad()
        (e(T.tensor([[1, 2, 1], [4, 1, 0]])[k % 2]) ** 2).sum().backward()
        opt.step()
    st = opt.state[e.weight]
    return e.weight.detach(), st["step"], st["exp_avg"], st["exp_avg_sq"]


@program()
def prog_sp_sparse_adam_options(T: Any) -> Any:
    return (
        _train(T, lambda p: T.optim.SparseAdam(p, lr=0.05, betas=(0.5, 0.9), eps=1e-3)),
        _train(T, lambda p: T.optim.SparseAdam(p, lr=0.05, maximize=True)),
    )


@program()
def prog_sp_sparse_adam_empty_grad_counts_step(T: Any) -> Any:
    e = _emb(T, padding_idx=2)
    opt = T.optim.SparseAdam(e.parameters(), lr=0.1)
    e(T.tensor([2, 2])).sum().backward()
    opt.step()
    st = dict(opt.state[e.weight])
    opt.zero_grad()
    e(T.tensor([0, 2])).sum().backward()
    opt.step()
    return st["step"], opt.state[e.weight]["step"], e.weight.detach()


@program()
def prog_sp_sparse_adam_refuses_dense(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    opt = T.optim.SparseAdam([w])
    (w * 2).sum().backward()
    return (
        raises(opt.step),
        raises(lambda: T.optim.SparseAdam([T.ones(2, requires_grad=True)], lr=-1)),
        raises(lambda: T.optim.SparseAdam([T.ones(2, requires_grad=True)], betas=(1.0, 0.9))),
        raises(lambda: T.optim.SparseAdam([T.ones(2, dtype=T.complex64, requires_grad=True)])),
    )


@program()
def prog_sp_adagrad_sparse(T: Any) -> Any:
    return (
        _train(T, lambda p: T.optim.Adagrad(p, lr=0.1)),
        _train(T, lambda p: T.optim.Adagrad(p, lr=0.1, lr_decay=0.1, maximize=True)),
        raises(lambda: _train(T, lambda p: T.optim.Adagrad(p, lr=0.1, weight_decay=0.1))),
    )


@program()
def prog_sp_dense_optimizers_refuse_sparse_grads(T: Any) -> Any:
    out = {}
    for name in (
        "Adam",
        "AdamW",
        "RMSprop",
        "Adamax",
        "Adadelta",
        "NAdam",
        "RAdam",
        "ASGD",
        "Rprop",
    ):
        out[name] = raises(lambda n=name: _train(T, lambda p: getattr(T.optim, n)(p, lr=0.1), 1))
    return out


@program()
def prog_sp_embedding_from_pretrained_and_max_norm(T: Any) -> Any:
    w = T.arange(12.0).view(4, 3) / 5
    e = T.nn.Embedding.from_pretrained(w.clone(), freeze=False, sparse=True)
    e(T.tensor([1, 3])).sum().backward()
    m = T.nn.Embedding(4, 3, sparse=True, max_norm=1.0)
    with T.no_grad():
        m.weight.copy_(w)
    m(T.tensor([1, 3, 3])).sum().backward()
    eb = T.nn.EmbeddingBag.from_pretrained(w.clone(), freeze=False, sparse=True, mode="sum")
    eb(T.tensor([[1, 2], [0, 3]])).sum().backward()
    return sp(e.weight.grad), repr(e), m.weight.detach(), sp(m.weight.grad), sp(eb.weight.grad)


@program()
def prog_sp_sparse_adam_state_dict_and_scheduler(T: Any) -> Any:
    import io

    e = _emb(T)
    o = T.optim.SparseAdam(e.parameters(), lr=0.1)
    sched = T.optim.lr_scheduler.StepLR(o, 1, 0.5)
    for k in range(2):
        o.zero_grad(set_to_none=bool(k))
        e(T.tensor([k, 3])).sum().backward()
        o.step()
        sched.step()
    buf = io.BytesIO()
    T.save(o.state_dict(), buf)
    buf.seek(0)
    o2 = T.optim.SparseAdam(e.parameters(), lr=0.1)
    o2.load_state_dict(T.load(buf))
    o2.zero_grad()
    e(T.tensor([1, 2])).sum().backward()
    o2.step()
    st = o2.state_dict()["state"][0]
    return e.weight.detach(), st["step"], st["exp_avg"], sched.get_last_lr()


@program()
def prog_sp_optimizer_states_with_sparse_grads(T: Any) -> Any:
    e = _emb(T)
    o = T.optim.Adagrad(e.parameters(), lr=0.1)
    e(T.tensor([1, 1])).sum().backward()
    o.step()
    e2 = _emb(T)
    o2 = T.optim.SGD(e2.parameters(), lr=0.1, momentum=0.9)
    e2(T.tensor([1])).sum().backward()
    o2.step()
    o2.zero_grad(set_to_none=False)
    return (
        o.state[e.weight]["sum"],
        o.state[e.weight]["step"],
        sp(e2.weight.grad),
        sp(o2.state[e2.weight]["momentum_buffer"]),
    )


@program()
def prog_sp_clip_grad_on_sparse(T: Any) -> Any:
    e = _emb(T)
    (e(T.tensor([1, 2, 1])) ** 2).sum().backward()
    return (
        first(lambda: T.nn.utils.clip_grad_norm_(e.parameters(), 0.5)),
        first(lambda: T.nn.utils.clip_grad_value_(e.parameters(), 0.5)),
        sp(e.weight.grad),
    )


@program()
def prog_sp_zero_grad_with_sparse_grads(T: Any) -> Any:
    e = _emb(T)
    opt = T.optim.SGD(e.parameters(), lr=0.1)
    e(T.tensor([1, 2])).sum().backward()
    opt.zero_grad()
    none_after = e.weight.grad
    e(T.tensor([1, 2])).sum().backward()
    e.zero_grad(set_to_none=True)
    return none_after, e.weight.grad


@program()
def prog_sp_embedding_bag_like_sum(T: Any) -> Any:
    # a bag of lookups per row, summed through a sparse matrix (a common recommender trick)
    e = _emb(T)
    rows = T.sparse_coo_tensor(T.tensor([[0, 0, 1, 1, 1], [1, 3, 0, 4, 4]]), T.ones(5), (2, 6))
    out = T.sparse.mm(rows, e.weight)
    (out**2).sum().backward()
    return out, e.weight.grad, e.weight.grad.is_sparse


# --- shape ops, copies, serialization -------------------------------------------------------


@program()
def prog_sp_transpose_permute_unsqueeze(T: Any) -> Any:
    s = _s(T)
    h = T.sparse_coo_tensor(T.tensor([[0, 2]]), T.tensor([[1.0, 2.0], [3.0, 4.0]]), (3, 2))
    return (
        sp(s.transpose(0, 1)),
        sp(s.permute(1, 0)),
        sp(s.unsqueeze(0)),
        sp(s.unsqueeze(1)),
        sp(s.unsqueeze(-1)),
        sp(h.unsqueeze(2)),
        sp(T.transpose(s, 1, 0)),
    )


@program()
def prog_sp_cat_and_stack(T: Any) -> Any:
    a = _s(T)
    b = T.sparse_coo_tensor(T.tensor([[0], [1]]), T.tensor([9.0]), (1, 3))
    c = T.sparse_coo_tensor(T.tensor([[1], [0]]), T.tensor([7.0]), (2, 1))
    return sp(T.cat([a, b])), sp(T.cat([a, c], 1)), sp(T.stack([a, a])), sp(T.stack([a, a], 1))


@program()
def prog_sp_matrix_vector(T: Any) -> Any:
    s = _s(T)
    x = T.tensor([1.0, -2.0, 0.5])
    # a power iteration through a sparse matrix (PageRank-like)
    a = T.sparse_coo_tensor(
        T.tensor([[0, 1, 2, 2, 0], [1, 2, 0, 1, 2]]), T.tensor([0.5, 1.0, 0.5, 0.5, 0.5]), (3, 3)
    )
    r = T.full((3,), 1 / 3)
    for _ in range(5):
        r = a @ r
        r = r / r.sum()
    return s @ x, T.mv(s, x), T.matmul(s, x), r


@program()
def prog_sp_tensor_sum_over_dims(T: Any) -> Any:
    s = _s(T)
    return sp(s.sum(0)), sp(s.sum(1)), s.sum(), sp(T.sum(s, -1)), sp(s.double().sum(0))


@program()
def prog_sp_zero_and_zero_grad(T: Any) -> Any:
    s = _s(T).clone()
    s.zero_()
    e = _emb(T)
    opt = T.optim.SGD(e.parameters(), lr=0.1)
    e(T.tensor([1, 2])).sum().backward()
    opt.zero_grad(set_to_none=False)
    g = e.weight.grad
    e(T.tensor([4])).sum().backward()
    return sp(s), sp(g), sp(e.weight.grad), e.weight.grad is g


@program()
def prog_sp_select_index_select_getitem(T: Any) -> Any:
    s = _s(T)
    h = T.sparse_coo_tensor(T.tensor([[0, 2]]), T.tensor([[1.0, 2.0], [3.0, 4.0]]), (3, 2))
    return (
        sp(s[1]),
        sp(s[-2]),
        sp(s.select(1, 2)),
        sp(s.select(0, 0)),
        sp(s.index_select(1, T.tensor([2, 0]))),
        sp(s.index_select(0, T.tensor([1, 1]))),
        sp(s.index_select(1, T.tensor([], dtype=T.long))),
        sp(h.select(1, 0)),
        h.select(0, 2),
        raises(lambda: s.select(0, 5)),
    )


@program()
def prog_sp_select_backward(T: Any) -> Any:
    v = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v, (2, 3))
    r = s[1]
    refused = first(lambda: T.sparse.sum(r * 3).backward())
    v2 = T.tensor([3.0, 4.0, 5.0, -1.5], requires_grad=True)
    s2 = T.sparse_coo_tensor(T.tensor([[0, 1, 1, 1], [2, 0, 2, 2]]), v2, (2, 3))
    refused2 = first(lambda: (s2.select(1, 2).to_dense() * T.tensor([2.0, -1.0])).sum().backward())
    return r.grad_fn, refused, refused2, v.grad, v2.grad


@program()
def prog_sp_like_factories(T: Any) -> Any:
    s = _s(T)
    return (
        sp(T.zeros_like(s)),
        sp(T.zeros_like(s, dtype=T.float64)),
        T.empty_like(s).layout,
        T.empty_like(s)._nnz(),
        first(lambda: T.ones_like(s)),
        first(lambda: T.full_like(s, 2.0)),
    )


@program()
def prog_sp_new_factories(T: Any) -> Any:
    s = _s(T)
    return (
        sp(s.new_zeros(3)),
        sp(s.new_zeros((2, 3), dtype=T.float64)),
        s.new_empty(2, 2).layout,
        first(lambda: s.new_ones(2)),
        first(lambda: s.new_full((2,), 3.0)),
        s.new_tensor([1.0, 2.0]),
    )


@program()
def prog_sp_double_backward_through_sparse_mm(T: Any) -> Any:
    s = _s(T)
    x = T.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 1.0]], requires_grad=True)
    out = {}
    for name, mm in (("sparse.mm", T.sparse.mm), ("mm", T.mm)):
        y = (mm(s, x**2) ** 2).sum()
        (g,) = T.autograd.grad(y, x, create_graph=True)
        (gg,) = T.autograd.grad(g.sum(), x)
        out[name] = (g, g.grad_fn, gg)
    b = T.ones(2, 2, requires_grad=True)
    y2 = T.sparse.addmm(b, s, x, beta=0.5, alpha=2.0).pow(2).sum()
    gb, gx = T.autograd.grad(y2, (b, x), create_graph=True)
    out["addmm"] = (gb, gx, T.autograd.grad((gb.sum() + gx.sum()), (b, x)))
    return out


@program()
def prog_sp_gradcheck_through_values(T: Any) -> Any:
    i = T.tensor([[0, 1, 1], [2, 0, 2]])
    x = T.tensor(_data(3, 2, seed=9), dtype=T.float64)

    def f(vals: Any) -> Any:
        s = T.sparse_coo_tensor(i, vals, (2, 3))
        return (T.sparse.mm(s, x) ** 2).sum() + T.sparse.sum(s * s)

    v = T.tensor([3.0, 4.0, 5.0], dtype=T.float64, requires_grad=True)
    return T.autograd.gradcheck(f, (v,)), T.autograd.gradcheck(f, (v,), fast_mode=True)


@program()
def prog_sp_type_strings(T: Any) -> Any:
    s = _s(T)
    return s.type(), s.double().type(), s.int().type(), s.long().type(), s.bool().type()


@program()
def prog_sp_deepcopy_and_pickle(T: Any) -> Any:
    import copy
    import pickle

    s = _s(T)
    c = copy.deepcopy(s)
    p = pickle.loads(pickle.dumps(s))
    leaf = _s(T, rg=True)
    T.sparse.sum(leaf).backward()
    lc = copy.deepcopy(leaf)
    return sp(c), sp(p), sp(lc), lc.requires_grad, sp(lc.grad), c._values() is s._values()


@program()
def prog_sp_first_sparse_grad_stolen_flag(T: Any) -> Any:
    # torch steals a gradient nothing else holds (dropping its coalesced flag) and clones one
    # whose indices another tensor holds (values()' backward)
    cases = {
        "sum": lambda s: T.sparse.sum(s),
        "sum*2": lambda s: T.sparse.sum(s * 2),
        "sum(coalesce*2)": lambda s: T.sparse.sum(s.coalesce() * 2),
        "to_dense": lambda s: s.to_dense().sum(),
        "sum dim": lambda s: T.sparse.sum(s, 0).to_dense().sum(),
        "mm": lambda s: T.sparse.mm(s, T.ones(3, 2)).sum(),
        "values": lambda s: s.coalesce().values().sum(),
        "softmax": lambda s: T.sparse.softmax(s, 1).to_dense().sum(),
        "neg": lambda s: T.sparse.sum(-s),
        "t": lambda s: T.sparse.sum(s.t()),
        "add": lambda s: T.sparse.sum(s + s),
        "double": lambda s: T.sparse.sum(s.double()),
    }
    out = {}
    for k, f in cases.items():
        leaf = _s(T, rg=True)
        f(leaf).backward()
        out[k] = (leaf.grad.is_coalesced(), leaf.grad._nnz(), leaf.grad.coalesce().to_dense())
    return out


@program()
def prog_sp_save_load(T: Any) -> Any:
    import io

    s = _s(T)
    h = T.sparse_coo_tensor(T.tensor([[0, 2]]), T.tensor([[1.0, 2.0], [3.0, 4.0]]), (3, 2))
    buf = io.BytesIO()
    T.save({"adj": s, "h": h.coalesce(), "d": T.ones(2)}, buf)
    buf.seek(0)
    back = T.load(buf)
    return sp(back["adj"]), sp(back["h"]), back["d"], back["adj"].is_coalesced()


@program()
def prog_sp_relu_isnan_nan_to_num(T: Any) -> Any:
    i = T.tensor([[0, 1, 1, 0], [2, 0, 2, 1]])
    s = T.sparse_coo_tensor(i, T.tensor([-3.0, 4.0, float("nan"), float("inf")]), (2, 3))
    return (
        sp(T.relu(s)),
        sp(T.nn.functional.relu(_s(T))),
        sp(s.isnan()),
        sp(s.isinf()),
        sp(s.nan_to_num()),
        sp(s.nan_to_num(nan=0.5, posinf=9.0)),
    )


@program()
def prog_sp_special_functions(T: Any) -> Any:
    s = _s(T) / 10
    return (
        sp(T.erf(s), text=False),
        sp(T.special.erf(s), text=False),
        sp(T.erfinv(s), text=False),
        first(lambda: T.erfc(s)),
        first(lambda: T.lgamma(s)),
        first(lambda: T.digamma(s)),
        first(lambda: T.nn.functional.gelu(s)),
        first(lambda: T.special.erfcx(s)),
    )


@program()
def prog_sp_pow_div_expand_errors(T: Any) -> Any:
    s = _s(T)
    return (
        raises(lambda: s.pow(0)),
        raises(lambda: s / T.ones(2, 3)),
        raises(lambda: T.ones(2, 3) / s),
        raises(lambda: s // T.ones(3)),
        raises(lambda: s.expand(2, 2, 3)),
        raises(lambda: s.repeat(2, 1)),
        raises(lambda: s.contiguous()),
        raises(lambda: s.nbytes),
        raises(lambda: s.untyped_storage()),
        sp(s / T.tensor(4.0)),
        sp(s.pow(3)),
        sp(s.pow(0.5), text=False),
    )


@program()
def prog_sp_copy_between_layouts(T: Any) -> Any:
    s = _s(T)
    t = T.sparse_coo_tensor(T.tensor([[0], [0]]), T.tensor([1.0]), (2, 3))
    t.copy_(s)
    return (
        sp(t),
        raises(lambda: T.zeros(2, 3).copy_(s)),
        raises(lambda: T.zeros(2, 3).copy_(s.double())),
    )


@program()
def prog_sp_sum_keepdim_and_dispatcher_names(T: Any) -> Any:
    s = _s(T)
    return (
        sp(s.sum(0, keepdim=True)),
        sp(s.sum(1, keepdim=True)),
        first(lambda: s.eq(0)),
        first(lambda: s.eq(s)),
        first(lambda: s > 1),
        first(lambda: T.equal(s, s)),
        first(lambda: T.where(T.ones(2, 3, dtype=T.bool), s, 0.0)),
        first(lambda: s.mean()),
    )


# --- nn.EmbeddingBag(sparse=True) ------------------------------------------------------------


def _bag(T: Any, mode: str, **kw: Any) -> Any:
    eb = T.nn.EmbeddingBag(6, 2, mode=mode, sparse=True, **kw)
    with T.no_grad():
        eb.weight.copy_(T.arange(12.0).view(6, 2) / 4)
    return eb


@program()
def prog_sp_embedding_bag_sum_and_mean(T: Any) -> Any:
    out = {}
    for mode in ("sum", "mean"):
        eb = _bag(T, mode)
        o = eb(T.tensor([1, 2, 4, 1, 5]), T.tensor([0, 2, 2]))
        (o**2).sum().backward()
        out[mode] = (o, o.grad_fn, sp(eb.weight.grad))
    return out


@program()
def prog_sp_embedding_bag_2d_padding_and_weights(T: Any) -> Any:
    eb = _bag(T, "mean", padding_idx=0)
    o = eb(T.tensor([[1, 0, 2], [0, 0, 3]]))
    o.sum().backward()
    eb2 = _bag(T, "sum")
    w = T.tensor([0.5, 2.0, -1.0, 1.0], requires_grad=True)
    o2 = eb2(T.tensor([1, 2, 2, 5]), T.tensor([0, 3]), per_sample_weights=w)
    (o2**2).sum().backward()
    return o, sp(eb.weight.grad), o2, sp(eb2.weight.grad), w.grad


@program()
def prog_sp_embedding_bag_refusals(T: Any) -> Any:
    eb = _bag(T, "sum", scale_grad_by_freq=True)
    o = eb(T.tensor([1, 1, 2]), T.tensor([0]))
    return (
        raises(lambda: o.sum().backward()),
        raises(lambda: T.nn.EmbeddingBag(4, 2, mode="max", sparse=True)(T.tensor([[1, 2]]))),
    )


@program()
def prog_sp_embedding_bag_sparse_adam_training(T: Any) -> Any:
    eb = _bag(T, "mean")
    head = T.nn.Linear(2, 1)
    with T.no_grad():
        head.weight.copy_(T.tensor([[0.5, -0.25]]))
        head.bias.fill_(0.1)
    opt = T.optim.SparseAdam(list(eb.parameters()), lr=0.05)
    opt2 = T.optim.Adam(head.parameters(), lr=0.05)
    idx = T.tensor([[1, 2], [3, 1], [4, 5]])
    y = T.tensor([[1.0], [0.0], [1.0]])
    losses = []
    for _ in range(4):
        opt.zero_grad()
        opt2.zero_grad()
        loss = T.nn.functional.mse_loss(head(eb(idx)), y)
        loss.backward()
        opt.step()
        opt2.step()
        losses.append(loss.item())
    return losses, eb.weight.detach(), head.weight.detach()


# --- the sparse CSR layout ----------------------------------------------------------------


def csr(t: Any) -> Any:
    """What a program returns of a CSR tensor: its printed form and parts."""
    return {
        "repr": repr(t),
        "crow": t.crow_indices(),
        "col": t.col_indices(),
        "values": t.values().detach(),
        "layout": str(t.layout),
        "flags": (t.is_sparse, t.is_sparse_csr, t._nnz(), t.sparse_dim(), t.dense_dim()),
        "shape": tuple(t.shape),
        "dtype": t.dtype,
    }


@program()
def prog_sp_csr_from_dense_and_coo(T: Any) -> Any:
    d = T.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0], [0.0, 0.0, 0.0]])
    s = _s(T)
    c = d.to_sparse_csr()
    return (
        csr(c),
        csr(s.to_sparse_csr()),
        csr(T.zeros(2, 3).to_sparse_csr()),
        csr(d.int().to_sparse_csr()),
        c.to_sparse_csr() is c,
        c.to_dense(),
        sp(c.to_sparse()),
    )


@program()
def prog_sp_csr_constructor(T: Any) -> Any:
    crow, col, v = T.tensor([0, 1, 3]), T.tensor([1, 0, 2]), T.tensor([1.0, 2.0, 3.0])
    return (
        csr(T.sparse_csr_tensor(crow, col, v, (2, 3))),
        csr(T.sparse_csr_tensor(crow, col, v)),
        csr(T.sparse_csr_tensor([0, 1, 2], [0, 1], [1.0, 2.0], (2, 2), dtype=T.float64)),
        csr(T.sparse_csr_tensor(crow, col, v, (2, 3), requires_grad=True)),
        raises(
            lambda: T.sparse_csr_tensor(
                T.tensor([0, 2, 1]), T.tensor([0, 1]), T.tensor([1.0, 2.0]), (2, 2),
                check_invariants=True,
            )
        ),
    )  # fmt: skip


@program()
def prog_sp_csr_layout_queries_and_refusals(T: Any) -> Any:
    c = T.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_csr()
    s = _s(T)
    return (
        c.layout,
        c.is_sparse,
        c.is_sparse_csr,
        s.is_sparse_csr,
        raises(lambda: c.indices()),
        raises(lambda: c.coalesce()),
        raises(lambda: c.is_coalesced()),
        raises(lambda: c.numpy()),
        raises(lambda: c.stride()),
        raises(lambda: c.type()),
        raises(lambda: T.sparse.sum(c)),
        raises(lambda: s.crow_indices()),
        raises(lambda: T.ones(2, 2).crow_indices()),
        raises(lambda: s.col_indices()),
        first(lambda: c._indices()),
        c.sum(),
    )


@program()
def prog_sp_csr_arithmetic_and_products(T: Any) -> Any:
    c = T.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]).to_sparse_csr()
    x = T.tensor(_data(3, 2, seed=5))
    return (
        csr(c * 2),
        csr(c + c),
        csr(-c),
        csr(c.double()),
        csr(c.clone()),
        c @ x,
        T.mm(c, x),
        T.sparse.mm(c, x),
        c @ T.tensor([1.0, 2.0, 3.0]),
    )


@program()
def prog_sp_csr_grads(T: Any) -> Any:
    crow, col = T.tensor([0, 1, 3]), T.tensor([1, 0, 2])
    c = T.sparse_csr_tensor(crow, col, T.tensor([1.0, 2.0, 3.0]), (2, 3), requires_grad=True)
    x = T.tensor(_data(3, 2, seed=6), requires_grad=True)
    y = c @ x
    (y * T.tensor([[1.0, -1.0], [0.5, 2.0]])).sum().backward()
    return y, y.grad_fn, c.grad, c.grad.layout, x.grad, T.sparse.mm(c, x).grad_fn


@program()
def prog_sp_csr_copies_and_save(T: Any) -> Any:
    import copy
    import io

    c = T.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_csr()
    buf = io.BytesIO()
    T.save(c, buf)
    buf.seek(0)
    return csr(T.load(buf)), raises(lambda: copy.deepcopy(c)), csr(c.detach())


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
