"""Realistic programs: the saved attributes of grad_fn nodes. torch's node shows what it saved
for backward as `grad_fn._saved_<name>` (and, for a tensor, `_raw_saved_<name>`, its
SavedTensor); users, graph visualizers and debugging tools read them and list them with
`dir(grad_fn)`. Each program builds a node of a common op (pointwise with number and tensor
operands, reductions with dim/keepdim, shape and view ops, indexing, the matmul family,
cat/stack/split) and returns the names it lists and the values they read: ints and int lists
as torch shows them (a negative int64 dim reads back as 2**64 + dim), numbers with their Python
type, tensors with their dtype, sizes, and what reading them after backward does. The programs
register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _saved(fn: Any) -> Any:
    """The node's name, its listed `_saved_` names with the values they read, and its listed
    `_raw_saved_` names with the type of what they read."""
    names = [n for n in dir(fn) if n.startswith("_saved_")]
    raw = [n for n in dir(fn) if n.startswith("_raw_saved_")]
    vals = {}
    for n in names:
        v = raises(lambda n=n: getattr(fn, n))
        vals[n] = (type(v).__name__, v)
    return type(fn).__name__, vals, {n: type(getattr(fn, n)).__name__ for n in raw}


def _read(fn: Any, *names: str) -> Any:
    return {n: raises(lambda n=n: getattr(fn, "_saved_" + n)) for n in names}


# --- negative dims read back as 2**64 + dim ----------------------------------------------------


@program()
def prog_sva_transpose_negative_dims(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    out = [_saved(x.transpose(-1, 0).grad_fn), _saved(x.transpose(0, 2).grad_fn)]
    out.append(_saved(x.swapaxes(-1, -2).grad_fn))
    out.append(_saved(T.swapdims(x, 1, -3).grad_fn))
    y = x.transpose(-1, -3)
    y.sum().backward()
    return out, y, x.grad, _read(y.grad_fn, "dim0", "dim1")


@program()
def prog_sva_mT_mH_adjoint_dims(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    c = T.tensor(_data(3, 2), dtype=T.complex64, requires_grad=True)
    y = x.mT
    out = [_saved(y.grad_fn), _saved(x[0].T.grad_fn)]
    h = c.mH
    out.append((type(h.grad_fn).__name__, _saved(h.grad_fn.next_functions[0][0])))
    a = c.adjoint()
    out.append(_saved(a.grad_fn.next_functions[0][0]))
    y.pow(2).sum().backward()
    return out, x.grad


@program()
def prog_sva_transpose_zero_dim_and_error(T: Any) -> Any:
    x = T.tensor(2.0, requires_grad=True)
    y = x.transpose(0, -1)
    return _saved(y.grad_fn), raises(lambda: x.transpose(0, 1)), y


@program()
def prog_sva_unsqueeze_negative(T: Any) -> Any:
    x = _x(T, 2, 3)
    ys = [x.unsqueeze(-1), x.unsqueeze(-3), x.unsqueeze(0), x.unsqueeze(2)]
    out = [(_saved(y.grad_fn), tuple(y.shape)) for y in ys]
    (ys[0].sum() + ys[1].mul(2).sum()).backward()
    s = T.tensor(1.5, requires_grad=True).unsqueeze(-1)
    return out, x.grad, _saved(s.grad_fn), s


@program()
def prog_sva_cumsum_cumprod_dims(T: Any) -> Any:
    x = _x(T, 2, 3)
    ys = [x.cumsum(-1), x.cumsum(0), T.cumsum(x, -2, dtype=T.float64), x.cumprod(-1)]
    out = [_saved(y.grad_fn) for y in ys[:3]]
    out.append(_read(ys[3].grad_fn, "dim"))
    sum(y.sum() for y in ys).backward()
    z = T.tensor(2.0, requires_grad=True)
    return out, x.grad, _saved(z.cumsum(-1).grad_fn), _read(z.cumprod(0).grad_fn, "dim")


@program()
def prog_sva_cumsum_empty_and_backward(T: Any) -> Any:
    x = T.zeros(0, 3, requires_grad=True)
    y = x.cumsum(-1)
    y.sum().backward()
    w = _x(T, 4)
    v = w.cumprod(-1)
    v.backward(T.ones(4))
    return _saved(y.grad_fn), x.grad, w.grad, _read(v.grad_fn, "dim")


@program()
def prog_sva_split_saved(T: Any) -> Any:
    x = _x(T, 4, 5)
    parts = x.split(2, dim=-1)
    out = [_saved(p.grad_fn) for p in parts[:1]]
    out.append(_saved(x.split(3)[0].grad_fn))
    out.append(_saved(x.split(7, 1)[0].grad_fn))  # one part, bigger than the dim
    out.append(_saved(T.split(x, [1, 3], dim=0)[0].grad_fn))
    out.append(_saved(x.split([2, 0, 3], -1)[1].grad_fn))
    (parts[0].sum() + parts[2].mul(3).sum()).backward()
    return out, x.grad


@program()
def prog_sva_split_with_sizes_saved(T: Any) -> Any:
    x = _x(T, 3, 4, seed=1)
    a, _ = T.split_with_sizes(x, [1, 3], -1)
    out = _saved(a.grad_fn), _saved(x.split_with_sizes((2, 1)).__getitem__(1).grad_fn)
    (a * 2).sum().backward()
    return out, x.grad


@program()
def prog_sva_chunk_saved(T: Any) -> Any:
    x = _x(T, 3, 7)
    out = [_saved(x.chunk(2, -1)[0].grad_fn), _saved(x.chunk(3, 0)[0].grad_fn)]
    out.append(_saved(x.chunk(10, 1)[0].grad_fn))
    out.append(_saved(T.chunk(x, 1, -2)[0].grad_fn))
    cs = x.chunk(3, dim=-1)
    cs[-1].sum().backward()
    return out, [tuple(c.shape) for c in cs], x.grad


@program()
def prog_sva_unfold_saved(T: Any) -> Any:
    x = _x(T, 2, 6)
    ys = [x.unfold(-1, 3, 2), x.unfold(1, 2, 1), x.unfold(0, 1, 1)]
    out = [_saved(y.grad_fn) for y in ys]
    ys[0].sum().backward()
    s = T.tensor(3.0, requires_grad=True).unfold(0, 1, 1)
    return out, x.grad, _saved(s.grad_fn), s


# --- the matmul family -------------------------------------------------------------------------


@program()
def prog_sva_mm_saved_sizes(T: Any) -> Any:
    a, b = _x(T, 2, 3), _x(T, 3, 4, seed=1)
    out = [_saved(a.mm(b).grad_fn)]
    out.append(_saved(a.mm(b.detach()).grad_fn))
    out.append(_saved(a.detach().mm(b).grad_fn))
    out.append(_saved((a @ b).grad_fn))
    y = a.mm(b.t().t())
    y.sum().backward()
    return out, a.grad, b.grad


@program()
def prog_sva_mm_sizes_after_backward(T: Any) -> Any:
    a, b = _x(T, 2, 3), _x(T, 3, 2, seed=1)
    y = a.mm(b)
    y.sum().backward()
    fn = y.grad_fn
    return (
        fn._saved_self_sym_sizes,
        fn._saved_mat2_sym_sizes,
        raises(lambda: fn._saved_self),
        raises(lambda: fn._saved_mat2),
    )


@program()
def prog_sva_addmm_saved(T: Any) -> Any:
    m, a, b = _x(T, 2, 4, seed=2), _x(T, 2, 3), _x(T, 3, 4, seed=1)
    out = [_saved(T.addmm(m, a, b).grad_fn)]
    out.append(_saved(T.addmm(m, a, b, beta=0.5, alpha=2).grad_fn))
    out.append(_saved(T.addmm(m, a, b.detach(), beta=2, alpha=-1).grad_fn))
    out.append(_saved(m.addmm(a.detach(), b, alpha=3).grad_fn))
    y = T.addmm(m[0], a, b, beta=3)
    y.sum().backward()
    return out, m.grad, a.grad, b.grad


@program()
def prog_sva_addmv_saved(T: Any) -> Any:
    v, m, w = _x(T, 2, seed=2), _x(T, 2, 3), _x(T, 3, seed=1)
    y = T.addmv(v, m, w, beta=2, alpha=0.5)
    out = [_saved(y.grad_fn), _saved(T.addmv(v, m.detach(), w).grad_fn)]
    out.append(raises(lambda: y.grad_fn._saved_mat1))
    out.append(raises(lambda: y.grad_fn._raw_saved_vec.__class__.__name__))
    y.sum().backward()
    return out, v.grad, m.grad, w.grad


@program()
def prog_sva_baddbmm_saved(T: Any) -> Any:
    s, a, b = _x(T, 2, 2, 4, seed=2), _x(T, 2, 2, 3), _x(T, 2, 3, 4, seed=1)
    y = T.baddbmm(s, a, b, beta=0.5, alpha=2)
    out = [_saved(y.grad_fn), _saved(s.baddbmm(a, b.detach()).grad_fn)]
    out.append(raises(lambda: y.grad_fn._saved_mat2))
    y.sum().backward()
    return out, s.grad, a.grad, b.grad


@program()
def prog_sva_bmm_mv_dot_saved(T: Any) -> Any:
    a, b = _x(T, 2, 2, 3), _x(T, 2, 3, 4, seed=1)
    m, v = _x(T, 2, 3, seed=2), _x(T, 3, seed=3)
    out = [_saved(a.bmm(b).grad_fn), _saved(m.mv(v).grad_fn), _saved(v.dot(v).grad_fn)]
    out.append(_saved(T.outer(v, v).grad_fn))
    out.append(_saved(T.matmul(v, m.t()).grad_fn))
    return out


# --- pointwise ---------------------------------------------------------------------------------


@program()
def prog_sva_add_sub_alpha(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    out = [_saved(T.add(x, y, alpha=2).grad_fn), _saved(T.sub(x, y, alpha=-3).grad_fn)]
    out.append(_saved(T.add(x, y).grad_fn))
    out.append(_saved(x.sub(y, alpha=0.5).grad_fn))
    out.append(_saved(T.sub(x.detach(), y, alpha=2).grad_fn))
    return out


@program()
def prog_sva_add_alpha_other_not_requiring_grad(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    return _saved(T.add(x, y.detach(), alpha=2).grad_fn), _saved((x + 2).grad_fn)


@program()
def prog_sva_mul_div_tensor(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    out = [_saved((x * y).grad_fn), _saved((x / y).grad_fn), _saved((x * y.detach()).grad_fn)]
    out.append(_saved((x.detach() / y).grad_fn))
    z = x * y
    z.sum().backward()
    return out, _read(z.grad_fn, "self", "other")


@program()
def prog_sva_pow_saved(T: Any) -> Any:
    x = _x(T, 2, 3)
    out = [_saved((x**2).grad_fn), _saved(x.pow(-1.5).grad_fn), _saved(x.pow(x).grad_fn)]
    out.append(_saved(x.abs().pow(T.tensor(2.0)).grad_fn))
    return out


@program()
def prog_sva_clamp_saved(T: Any) -> Any:
    x = _x(T, 2, 3)
    out = [_saved(x.clamp(-1, 1).grad_fn), _saved(x.clamp(min=0.5).grad_fn)]
    out.append(_saved(x.clamp(max=-1).grad_fn))
    out.append(_saved(x.clamp(T.tensor(-0.5), T.tensor(0.5)).grad_fn))
    out.append(_saved(x.clamp_min(2).grad_fn))
    return out


@program()
def prog_sva_unary_result_and_self(T: Any) -> Any:
    x = _x(T, 3)
    fns = [x.exp(), x.tanh(), x.sigmoid(), x.sin(), x.abs(), x.sqrt(), x.log1p(), x.neg()]
    return [_saved(y.grad_fn) for y in fns]


@program()
def prog_sva_where_lerp_addcmul(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    out = [_saved(T.where(x > 0, x, y).grad_fn), _saved(T.lerp(x, y, 0.25).grad_fn)]
    out.append(_saved(T.addcmul(x, x, y, value=-2).grad_fn))
    out.append(_saved(T.addcdiv(x, x, y.abs() + 1, value=0.5).grad_fn))
    return out


# --- reductions --------------------------------------------------------------------------------


@program()
def prog_sva_sum_mean_dims(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    out = [_saved(x.sum().grad_fn), _saved(x.sum(1).grad_fn), _saved(x.sum((0, 2), True).grad_fn)]
    out.append(_saved(x.mean().grad_fn))
    out.append(_saved(x.mean(1, keepdim=True).grad_fn))
    return out


@program()
def prog_sva_max_min_dim_saved(T: Any) -> Any:
    x = _x(T, 2, 3)
    v, _ = x.max(1)
    out = [_saved(v.grad_fn), _saved(x.min(0, keepdim=True)[0].grad_fn)]
    out.append(_saved(x.max().grad_fn))
    v.sum().backward()
    return out, x.grad, _read(v.grad_fn, "dim", "keepdim", "indices")


@program()
def prog_sva_sort_topk_saved(T: Any) -> Any:
    x = _x(T, 2, 4)
    return (
        _saved(x.sort(1)[0].grad_fn),
        _saved(x.topk(2, 1)[0].grad_fn),
        _saved(x.kthvalue(2, 1)[0].grad_fn),
    )


@program()
def prog_sva_prod_var_norm_dims(T: Any) -> Any:
    x = _x(T, 2, 3)
    out = [_saved(x.prod(1).grad_fn), _saved(x.var(1).grad_fn), _saved(x.std(0).grad_fn)]
    out.append(_saved(x.norm(dim=1).grad_fn))
    out.append(_saved(x.logsumexp(1).grad_fn))
    out.append(_saved(x.amax(1).grad_fn))
    return out


@program(xfail="reductions and most dim ops save the wrapped dim: torch saves the given one")
def prog_sva_reductions_negative_dims(T: Any) -> Any:
    x = _x(T, 2, 3)
    ys = [x.sum(-1), x.mean(-1), x.prod(-1), x.max(-1)[0], x.amax(-1), x.var(-1)]
    ys += [x.logsumexp(-1), x.norm(dim=-1), x.sort(-1)[0], x.softmax(-1), x.flip(-1)]
    return [_read(y.grad_fn, "dim", "dims") for y in ys]


# --- shape and view ops ------------------------------------------------------------------------


@program()
def prog_sva_view_reshape_expand(T: Any) -> Any:
    x = _x(T, 2, 3)
    v = _x(T, 3, seed=1)
    out = [_saved(x.view(-1).grad_fn), _saved(x.reshape(3, -1).grad_fn)]
    out.append(_saved(v.expand(2, -1).grad_fn))
    out.append(_saved(x.flatten().grad_fn))
    out.append(_saved(x.t().grad_fn))
    out.append(_saved(x.permute(1, 0).grad_fn))
    return out


@program()
def prog_sva_squeeze_select_slice(T: Any) -> Any:
    x = _x(T, 2, 1, 3)
    out = [_saved(x.squeeze(1).grad_fn), _saved(x.squeeze().grad_fn)]
    out.append(_saved(x.select(0, 1).grad_fn))
    out.append(_saved(x[:, :, 1:].grad_fn))
    out.append(_saved(x[1].grad_fn))
    out.append(_saved(x.narrow(2, 1, 2).grad_fn))
    return out


@program()
def prog_sva_cat_stack_unbind(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    c, s = T.cat([x, y], 1), T.stack([x, y])
    out = [_saved(c.grad_fn), _saved(s.grad_fn), _saved(x.unbind(1)[0].grad_fn)]
    (c.sum() + s.sum()).backward()
    return out, _read(c.grad_fn, "dim"), x.grad


# --- indexing ----------------------------------------------------------------------------------


@program()
def prog_sva_index_select_gather_values(T: Any) -> Any:
    x = _x(T, 3, 4)
    i = T.tensor([2, 0])
    y = x.index_select(0, i)
    out = [_read(y.grad_fn, "dim", "index", "self_sym_sizes")]
    g = x.gather(1, T.tensor([[0], [1], [3]]))
    out.append(_read(g.grad_fn, "dim", "index"))
    k = x[T.tensor([1, 2])]
    out.append(_read(k.grad_fn, "indices", "self_sym_sizes"))
    return out


# --- reading after backward, dir() -------------------------------------------------------------


@program()
def prog_sva_read_after_backward(T: Any) -> Any:
    x = _x(T, 2, 3)
    y = (x * 2).exp().sum(1)
    y.sum().backward()
    fn = y.grad_fn
    e = fn.next_functions[0][0]
    return _read(fn, "dim", "keepdim", "self_sym_sizes"), raises(lambda: e._saved_result)


@program()
def prog_sva_dir_after_backward(T: Any) -> Any:
    x = _x(T, 2, 3)
    y = x.transpose(-1, 0).cumsum(-1).unsqueeze(-1)
    before = [n for n in dir(y.grad_fn) if n.startswith(("_saved_", "_raw_saved_"))]
    y.sum().backward()
    after = [n for n in dir(y.grad_fn) if n.startswith(("_saved_", "_raw_saved_"))]
    return before, after, _read(y.grad_fn, "dim"), x.grad


# --- select, slicing, cat/stack/unbind with negative dims and indices --------------------------


@program()
def prog_sva_select_negative_dim_and_index(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.select(-1, -2), x.select(1, 2), T.select(x, -3, -1), x.select(0, 0)]
    out = [_saved(y.grad_fn) for y in ys]
    (ys[0] * ys[0]).sum().backward()
    return out, x.grad


@program()
def prog_sva_int_indexing_saved_index(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x[-1], x[:, -1], x[..., -3], x[-1, :, -1], x[1, 2]]
    out = [_saved(y.grad_fn) for y in ys]
    sum((y * y).sum() for y in ys).backward()
    return out, x.grad


@program()
def prog_sva_slice_bounds_as_given(T: Any) -> Any:
    x = _x(T, 4, 5)
    ys = [x[1:], x[:3], x[1:10], x[-3:-1], x[::2], x[-10:2], x[3:1], x[:, -1::3], x[:, 10:20]]
    out = [(_read(y.grad_fn, "dim", "start", "end", "step"), tuple(y.shape)) for y in ys]
    sum(y.sum() * (k + 1) for k, y in enumerate(ys)).backward()
    return out, x.grad


@program()
def prog_sva_slice_double_backward(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = x[-2:, 1:-1]
    (g,) = T.autograd.grad((y * y * y).sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return _saved(y.grad_fn), g, gg, _saved(g.grad_fn)


@program()
def prog_sva_narrow_saved(T: Any) -> Any:
    x = _x(T, 3, 5)
    ys = [x.narrow(1, -2, 2), x.narrow(-1, 1, 3), x.narrow(0, 0, 1)]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sva_cat_stack_unbind_negative(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    ys = [T.cat([x, y], -1), T.cat((x, y), -2), T.stack([x, y], -1), T.stack([x, y], -3)]
    ys.append(x.unbind(-1)[1])
    ys.append(T.cat([x, T.zeros(0)], -1))  # the legacy 1-D empty input, skipped
    out = [_saved(z.grad_fn) for z in ys]
    sum((z * z).sum() for z in ys).backward()
    return out, x.grad, y.grad


@program()
def prog_sva_concat_hstack_dims(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    ys = [T.concat([x, y], -1), T.concatenate([x, y], dim=-2), T.hstack([x, y])]
    ys += [T.vstack([x, y]), T.dstack([x, y])]
    return [(_saved(z.grad_fn), tuple(z.shape)) for z in ys]


@program()
def prog_sva_negative_dims_double_backward(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    y = x.transpose(-1, -3).unsqueeze(-2).cumsum(-1).split(2, -1)[0]
    z = x.unfold(-1, 2, 1).cumprod(-2)
    (g,) = T.autograd.grad((y * y).sum() + (z * z).sum(), x, create_graph=True)
    (gg,) = T.autograd.grad((g * g).sum(), x)
    return g, gg, _saved(y.grad_fn), _saved(z.grad_fn)


# --- numbers saved as Scalars --------------------------------------------------------------


@program()
def prog_sva_number_pow_base(T: Any) -> Any:
    x = _x(T, 2, 3)
    ys = [2**x, 2.5**x, T.pow(3, x), (-1.5) ** x]
    out = [_saved(y.grad_fn) for y in ys]
    ys[0].sum().backward()
    return out, x.grad


@program()
def prog_sva_renorm_dist_int_p(T: Any) -> Any:
    x, y = _x(T, 3, 4), _x(T, 3, 4, seed=1)
    ys = [x.renorm(2, 0, 1), x.renorm(1.5, 1, 0.5), T.renorm(x, 3, -1, 2.0)]
    ys += [T.dist(x, y), T.dist(x, y, 3), x.dist(y, 0.5), x.dist(y, float("inf"))]
    out = [_read(z.grad_fn, "p", "maxnorm") for z in ys]
    sum(z.sum() for z in ys).backward()
    return out, x.grad, y.grad


@program()
def prog_sva_mul_div_by_number_raw_saved(T: Any) -> Any:
    x = _x(T, 2, 3)
    ys = [x * 2, x / 4, x * 2.5, 3 * x, x.mul(True)]
    out = [_saved(y.grad_fn) for y in ys]
    raw = [type(y.grad_fn._raw_saved_other).__name__ for y in ys]
    return out, raw


@program()
def prog_sva_raw_saved_unsaved_input(T: Any) -> Any:
    a, b = _x(T, 2, 3), _x(T, 3, 4, seed=1)
    fn = a.mm(b.detach()).grad_fn
    raw = fn._raw_saved_self
    return type(raw).__name__, fn._saved_self, _saved(fn)


@program()
def prog_sva_index_raw_saved(T: Any) -> Any:
    x = _x(T, 3, 4)
    i = T.tensor([2, 0])
    ys = [x.index_select(1, i), x.sort(1)[0]]
    ys += [x.max(0)[0], x.topk(2)[0], x.kthvalue(1, 0)[0], x.median(1)[0]]
    names = [[n for n in dir(y.grad_fn) if n.startswith("_raw_saved_")] for y in ys]
    types = [
        [type(getattr(y.grad_fn, n)).__name__ for n in ns] for y, ns in zip(ys, names, strict=True)
    ]
    return names, types


@program()
def prog_sva_advanced_index_raw_saved(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = x[T.tensor([0, 2]), T.tensor([1, 3])]
    fn = y.grad_fn
    raw = fn._raw_saved_indices
    return type(raw).__name__, len(raw), [type(r).__name__ for r in raw], fn._saved_indices


@program()
def prog_sva_mean_dim_numel(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.mean(1), x.mean((0, 2), keepdim=True), T.mean(x, dim=[1])]
    out = [_saved(y.grad_fn) for y in ys]
    out.append(raises(lambda: ys[0].grad_fn._saved_count))
    sum(y.sum() for y in ys).backward()
    return out, x.grad, _read(ys[0].grad_fn, "self_sym_numel", "self_sym_sizes")


@program()
def prog_sva_split_after_backward(T: Any) -> Any:
    x = _x(T, 4, 3)
    a, b = x.split(3)
    (a.sum() + b.sum() * 2).backward()
    return _saved(a.grad_fn), _saved(T.split(x, [1, 3])[1].grad_fn), x.grad


@program(xfail="gather saves self_sym_sizes; torch's GatherBackward0 saves self and sparse_grad")
def prog_sva_gather_saved(T: Any) -> Any:
    x = _x(T, 3, 4)
    return _saved(x.gather(1, T.tensor([[0], [1], [3]])).grad_fn)


@program(xfail="addmm saves alpha only for mat1's/mat2's formulas: torch's node saves it always")
def prog_sva_addmm_sizes_only_bias_requires_grad(T: Any) -> Any:
    m = _x(T, 2, 4, seed=2)
    a, b = _x(T, 2, 3, rg=False), _x(T, 3, 4, seed=1, rg=False)
    y = T.addmm(m, a, b, beta=2)
    fn = y.grad_fn
    return _read(fn, "beta", "alpha", "mat1", "mat2"), type(fn).__name__


# --- permute, flip, roll ---------------------------------------------------------------------


@program()
def prog_sva_permute_negative_dims(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.permute(-1, 0, -2), x.permute(2, 0, 1), T.permute(x, (-3, -2, -1)), x.movedim(-1, 0)]
    out = [_saved(y.grad_fn) for y in ys]
    (g,) = T.autograd.grad(
        sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)), x, create_graph=True
    )
    (gg,) = T.autograd.grad((g * g).sum(), x)
    z = T.tensor(2.0, requires_grad=True)
    return out, g, gg, _saved(z.permute(()).grad_fn)


@program()
def prog_sva_flip_negative_dims(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.flip(-1, 0), x.flip(-2), T.flip(x, (0, 1, 2)), x.fliplr(), x.flipud()]
    out = [_saved(y.grad_fn) for y in ys]
    sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)).backward()
    z = T.tensor(2.0, requires_grad=True)
    return out, x.grad, _saved(z.flip(-1).grad_fn), _saved(z.flip(0).grad_fn)


@program()
def prog_sva_roll_saved(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.roll(1, -1), x.roll((1, -2), (-1, 0)), x.roll(5), x.roll(-3, []), T.roll(x, [2], [1])]
    out = [_saved(y.grad_fn) for y in ys]
    (g,) = T.autograd.grad(
        sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)), x, create_graph=True
    )
    (gg,) = T.autograd.grad((g * g).sum(), x)
    return out, g, gg


@program()
def prog_sva_roll_zero_dim(T: Any) -> Any:
    z = T.tensor(2.0, requires_grad=True)
    y = z.roll(3)
    y.backward()
    errs = [raises(lambda d=d: z.roll(1, d)) for d in (-1, 0, 1)]
    return _saved(y.grad_fn), y, z.grad, errs


@program()
def prog_sva_squeeze_negative_dims(T: Any) -> Any:
    x = T.tensor(_data(2, 1, 3, 1), requires_grad=True)
    ys = [x.squeeze(-1), x.squeeze(-2), x.squeeze((0, -1)), x.squeeze([-3, -1]), T.squeeze(x, -3)]
    out = [(_saved(y.grad_fn), tuple(y.shape)) for y in ys]
    (g,) = T.autograd.grad(
        sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)), x, create_graph=True
    )
    z = T.tensor(2.0, requires_grad=True)
    zs = [_saved(f().grad_fn) for f in (lambda: z.squeeze(-1), lambda: z.squeeze((-1,)))]
    return out, g, zs, raises(lambda: x.squeeze((1, -3)))


@program()
def prog_sva_index_select_negative_dim(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    i = T.tensor([0, 3, 3])
    ys = [x.index_select(-1, i), x.index_select(-3, T.tensor([1])), T.index_select(x, 1, i[:1])]
    ys.append(x.index_select(-2, T.tensor([], dtype=T.long)))
    out = [_read(y.grad_fn, "dim", "index", "self_sym_sizes") for y in ys]
    (g,) = T.autograd.grad(
        sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)), x, create_graph=True
    )
    (gg,) = T.autograd.grad((g * g).sum(), x)
    return out, g, gg, type(g.grad_fn).__name__


@program()
def prog_sva_cummax_logcumsumexp_dims(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.cummax(-1)[0], x.cummin(-3)[0], T.cummax(x, 1)[0], x.logcumsumexp(-1)]
    ys.append(T.logcumsumexp(x.to(T.complex128), -2).abs())
    out = [_saved(y.grad_fn) for y in ys[:4]]
    (g,) = T.autograd.grad(
        sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)), x, create_graph=True
    )
    (gg,) = T.autograd.grad((g * g).sum(), x)
    z = T.tensor(2.0, requires_grad=True)
    zs = [_read(z.cummax(-1)[0].grad_fn, "dim"), _read(z.logcumsumexp(-1).grad_fn, "dim")]
    return out, g, gg, zs


@program()
def prog_sva_std_mean_var_mean_saved(T: Any) -> Any:
    x = _x(T, 2, 3)
    s, m = T.std_mean(x, 1)
    v, _ = T.var_mean(x, 0, correction=0, keepdim=True)
    out = [_saved(s.grad_fn), _saved(v.grad_fn), s.grad_fn._saved_result0]
    (s + m).sum().backward()
    after = raises(lambda: s.grad_fn._saved_result0), raises(lambda: s.grad_fn._saved_result)
    return out, after, x.grad


@program()
def prog_sva_xlogy_number_operand(T: Any) -> Any:
    x = _x(T, 2, 3).abs()
    ys = [T.xlogy(2, x), T.xlogy(x, 3), T.xlogy(x, 2.5), T.special.xlogy(0.5, x), T.xlogy(x, x)]
    out = [_saved(y.grad_fn) for y in ys]
    sum(y.sum() for y in ys).backward()
    return out, x.grad


@program()
def prog_sva_nansum_unsafe_split_saved(T: Any) -> Any:
    x = _x(T, 2, 3)
    ys = [x.nansum(1), x.nansum(), x.unsafe_split(2, 1)[0], x.unsafe_split_with_sizes([1, 2], 1)[1]]
    out = [_saved(y.grad_fn) for y in ys]
    sum(y.sum() for y in ys).backward()
    return out, x.grad


@program(
    xfail="div with rounding_mode given (None included) records div.Tensor_mode: torch's "
    "DivBackward2 saves self, other and rounding_mode, and an explicit None divides truly"
)
def prog_sva_div_rounding_mode_node(T: Any) -> Any:
    x, y = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    z = x.div(y, rounding_mode=None)
    z.sum().backward()
    return _saved(z.grad_fn), _saved(x.div(2, rounding_mode="floor").grad_fn), x.grad, y.grad


@program()
def prog_sva_linalg_norm_default_ord(T: Any) -> Any:
    x, v = _x(T, 2, 3), _x(T, 3, seed=1)
    ys = [
        T.linalg.norm(x, dim=-1),
        T.linalg.norm(v),
        T.linalg.norm(x),
        T.linalg.norm(x, dim=(0, 1)),
    ]
    ys += [T.linalg.vector_norm(x), x.norm(), x.norm(dim=1), T.linalg.norm(v, 3)]
    out = [_read(y.grad_fn, "ord", "keepdim") for y in ys]
    sum(y.sum() for y in ys).backward()
    return out, x.grad, v.grad


@program()
def prog_sva_narrow_copy_negative_dim(T: Any) -> Any:
    x = _x(T, 2, 3, 4)
    ys = [x.narrow_copy(-1, 1, 2), x.narrow_copy(-3, 1, 1), T.narrow_copy(x, 1, 0, 3)]
    ys.append(x.narrow_copy(-2, 0, 2))
    out = [_saved(y.grad_fn) for y in ys]
    (g,) = T.autograd.grad(
        sum((y * y).sum() * (k + 1) for k, y in enumerate(ys)), x, create_graph=True
    )
    (gg,) = T.autograd.grad((g * g).sum(), x)
    return out, g, gg


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
