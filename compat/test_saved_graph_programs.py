"""Realistic programs: autograd graph introspection of the ops users use most. torch's backward
node shows what it saved as `grad_fn._saved_<name>` (and, for a tensor, `_raw_saved_<name>`)
under the names of derivatives.yaml; debugging tools, graph visualizers and tests read them.
The graph `torch.autograd.grad(..., create_graph=True)` builds (its nodes' names and
next_functions) is what a gradient penalty or a Hessian-vector product differentiates again.
Each program builds a node of a common op (norms, normalization layers, prelu, convolution,
std/var, reductions that save indices, softmax, the losses, embedding, indexing, cat/stack,
views, the matmul family, pow/clamp/where, dropout, pooling, interpolation) and returns the names
its node lists with the values they read, the error for a name it does not have and for a read
after backward, and the double-backward graph with the second-order gradients. The programs
register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _d(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    """A float64 tensor of fixed values in (-1, 1)."""
    v = np.random.default_rng(seed).uniform(-1.0, 1.0, shape)
    return T.tensor(v, dtype=T.float64, requires_grad=rg)


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


def _second(T: Any, y: Any, *xs: Any) -> Any:
    """The double-backward graph of y (weighted by fixed values) w.r.t. xs: each first-order
    gradient with its grad_fn graph, and the second-order gradients of their squared sum."""
    w = T.tensor(_data(*y.shape, seed=7), dtype=y.dtype)
    gs = T.autograd.grad((y * w).sum(), xs, create_graph=True, allow_unused=True)
    live = [g for g in gs if g is not None and g.requires_grad]
    second = None
    if live:
        tot = sum((g * g).sum() for g in live)
        second = T.autograd.grad(tot, xs, allow_unused=True)
    return list(gs), [None if g is None else g.grad_fn for g in gs], second


def _second_values(T: Any, y: Any, *xs: Any) -> Any:
    """_second's gradients without their graphs: the values and second-order gradients."""
    gs, _, second = _second(T, y, *xs)
    return [None if g is None else g.detach() for g in gs], second


def _after(fn: Any, *names: str) -> Any:
    """What reading saved names does after the graph was freed."""
    return {n: raises(lambda n=n: getattr(fn, "_saved_" + n)) for n in names}


# --- norms ---------------------------------------------------------------------------------------


@program()
def prog_sg2_norm_saved(T: Any) -> Any:
    x = _d(T, 3, 4)
    ys = [x.norm(), x.norm(dim=1), x.norm(p=1, dim=0, keepdim=True), x.norm(p=3, dim=1)]
    ys.append(x.norm(p=float("inf"), dim=1))
    ys.append(T.norm(x, p="fro", dim=(0, 1)))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_norm_double_backward(T: Any) -> Any:
    x = _d(T, 3, 4)
    return _second(T, x.norm(dim=1), x), _second(T, x.norm(p=3), x)


@program()
def prog_sg2_vector_norm_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    la = T.linalg
    ys = [la.vector_norm(x), la.vector_norm(x, ord=1, dim=1), la.vector_norm(x, 3, (0, 1), True)]
    ys.append(la.vector_norm(x, ord=float("inf")))
    ys.append(la.vector_norm(x, ord=0.5, dim=0, dtype=T.float64))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_vector_norm_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    return _second(T, T.linalg.vector_norm(x, dim=-1), x)


@program()
def prog_sg2_linalg_norm_saved(T: Any) -> Any:
    x = _d(T, 3, 3)
    la = T.linalg
    ys = [la.norm(x), la.norm(x, "fro"), la.norm(x, 2, dim=1), la.norm(x, float("inf"))]
    ys.append(la.matrix_norm(x, 1))
    out = []
    for y in ys:
        fn = y.grad_fn
        out.append((_saved(fn), [type(n).__name__ for n, _ in fn.next_functions if n]))
    return out


@program()
def prog_sg2_normalize_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    y = T.nn.functional.normalize(x, dim=1)
    fn = y.grad_fn
    out = [_saved(fn)]
    for n, _ in fn.next_functions:
        if n is not None:
            out.append(_saved(n))
            for m, _ in n.next_functions:
                if m is not None:
                    out.append(_saved(m))
    return out, _second(T, y, x)


@program()
def prog_sg2_layer_norm_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 4)
    w, b = _d(T, 4, seed=1), _d(T, 4, seed=2)
    y = T.nn.functional.layer_norm(x, (4,), w, b)
    y2 = T.nn.functional.layer_norm(x, (3, 4))
    return _saved(y.grad_fn), _saved(y2.grad_fn)


@program()
def prog_sg2_layer_norm_double_backward(T: Any) -> Any:
    x = _d(T, 2, 4)
    w, b = _d(T, 4, seed=1), _d(T, 4, seed=2)
    return _second_values(T, T.nn.functional.layer_norm(x, (4,), w, b), x, w, b)


@program()
def prog_sg2_group_norm_saved(T: Any) -> Any:
    x = _d(T, 2, 4, 3)
    w, b = _d(T, 4, seed=1), _d(T, 4, seed=2)
    y = T.nn.functional.group_norm(x, 2, w, b)
    return _saved(y.grad_fn), _saved(T.nn.functional.group_norm(x, 4).grad_fn)


@program()
def prog_sg2_batch_norm_train_saved(T: Any) -> Any:
    x = _d(T, 4, 3)
    w, b = _d(T, 3, seed=1), _d(T, 3, seed=2)
    rm, rv = T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64)
    y = T.nn.functional.batch_norm(x, rm, rv, w, b, training=True)
    y2 = T.nn.functional.batch_norm(x, None, None, training=True)
    return _saved(y.grad_fn), _saved(y2.grad_fn), rm, rv


@program()
def prog_sg2_batch_norm_eval_saved(T: Any) -> Any:
    x = _d(T, 4, 3, 2)
    w, b = _d(T, 3, seed=1), _d(T, 3, seed=2)
    rm, rv = T.zeros(3, dtype=T.float64) + 0.1, T.ones(3, dtype=T.float64) * 2
    y = T.nn.functional.batch_norm(x, rm, rv, w, b, training=False, eps=1e-3)
    return _saved(y.grad_fn), _second_values(T, y, x, w, b)


@program()
def prog_sg2_batch_norm_train_double_backward(T: Any) -> Any:
    x = _d(T, 4, 3)
    w, b = _d(T, 3, seed=1), _d(T, 3, seed=2)
    y = T.nn.functional.batch_norm(x, None, None, w, b, training=True)
    return _second_values(T, y, x, w, b)


# --- prelu, convolution -------------------------------------------------------------------------


@program()
def prog_sg2_prelu_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 4)
    a = T.tensor([0.25, 0.1, -0.2], dtype=T.float64, requires_grad=True)
    y = T.nn.functional.prelu(x, a)
    y1 = T.nn.functional.prelu(x, a[:1])
    return _saved(y.grad_fn), _saved(y1.grad_fn), _second_values(T, y, x, a)


@program()
def prog_sg2_conv2d_saved(T: Any) -> Any:
    x = _d(T, 1, 2, 5, 5)
    w, b = _d(T, 4, 2, 3, 3, seed=1), _d(T, 4, seed=2)
    y = T.nn.functional.conv2d(x, w, b, stride=2, padding=1, dilation=1)
    y2 = T.nn.functional.conv2d(x, w[:, :1], None, padding=(2, 1), dilation=2, groups=2)
    return _saved(y.grad_fn), _saved(y2.grad_fn)


@program()
def prog_sg2_conv1d_transpose_saved(T: Any) -> Any:
    x = _d(T, 1, 2, 5)
    w, b = _d(T, 2, 3, 3, seed=1), _d(T, 3, seed=2)
    y = T.nn.functional.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1)
    w1 = _d(T, 3, 2, 2, seed=3)
    y1 = T.nn.functional.conv1d(x, w1, padding="same")
    return _saved(y.grad_fn), _saved(y1.grad_fn)


@program()
def prog_sg2_conv2d_double_backward(T: Any) -> Any:
    x = _d(T, 1, 2, 4, 4)
    w, b = _d(T, 3, 2, 2, 2, seed=1), _d(T, 3, seed=2)
    y = T.nn.functional.conv2d(x, w, b, stride=1, padding=1)
    return _second_values(T, y, x, w, b)


@program()
def prog_sg2_fused_nn_double_backward_graphs(T: Any) -> Any:
    x, x4 = _d(T, 2, 4), _d(T, 1, 2, 3, 3)
    w, b = _d(T, 4, seed=1), _d(T, 4, seed=2)
    wc, bc = _d(T, 2, 2, 2, 2, seed=3), _d(T, 2, seed=4)
    f = T.nn.functional
    ys = [
        (f.layer_norm(x, (4,), w, b), (x, w, b)),
        (f.batch_norm(x.t(), None, None, w[:2], b[:2], training=True), (x, w, b)),
        (f.conv2d(x4, wc, bc), (x4, wc, bc)),
        (f.prelu(x4, bc), (x4, bc)),
    ]
    out = []
    for y, xs in ys:
        gs, graphs, _ = _second(T, y, *xs)
        out.append(([None if g is None else g.requires_grad for g in gs], graphs))
    return out


# --- std / var --------------------------------------------------------------------------------


@program()
def prog_sg2_std_var_saved(T: Any) -> Any:
    x = _d(T, 3, 4)
    ys = [x.std(), x.var(), x.std(dim=1), x.var(dim=0, keepdim=True, correction=0)]
    ys.append(T.std(x, dim=(0, 1), unbiased=False))
    ys.append(x.var(1, correction=2))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_std_var_double_backward(T: Any) -> Any:
    x = _d(T, 3, 4)
    return _second(T, x.std(dim=1), x), _second(T, x.var(), x)


# --- reductions that save indices -------------------------------------------------------------


@program()
def prog_sg2_max_min_saved(T: Any) -> Any:
    x = _d(T, 3, 4)
    ys = [x.max(), x.min(), x.max(dim=1)[0], x.min(0, keepdim=True)[0], x.amax(1), x.amin((0, 1))]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_median_kthvalue_mode_saved(T: Any) -> Any:
    x = _d(T, 3, 5)
    ys = [x.median(), x.median(dim=1)[0], x.kthvalue(2, dim=0)[0], x.nanmedian(1, True)[0]]
    ys.append(x.mode(1)[0])
    ys.append(x.nanmedian())
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_topk_sort_saved(T: Any) -> Any:
    x = _d(T, 3, 5)
    ys = [x.topk(2, 1)[0], x.topk(2, dim=0, largest=False)[0], x.sort(dim=1)[0]]
    ys.append(x.sort(0, descending=True)[0])
    ys.append(x.msort())
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_index_reductions_double_backward(T: Any) -> Any:
    x = _d(T, 3, 5)
    return (
        _second(T, x.max(dim=1)[0], x),
        _second(T, x.topk(2)[0], x),
        _second(T, x.sort(0)[0], x),
        _second(T, x.median(), x),
    )


@program()
def prog_sg2_index_reductions_negative_dims(T: Any) -> Any:
    x = _d(T, 2, 3, 4)
    ys = [x.max(-1)[0], x.min(-2, True)[0], x.sort(-1)[0], x.sort()[0], x.topk(2)[0]]
    ys += [x.topk(1, -3)[0], x.kthvalue(2, -1)[0], x.median(-2)[0], x.nanmedian(-1)[0]]
    ys += [x.mode(-1)[0], x.argsort(-2), x.msort()]
    out = [_read(y.grad_fn, "dim", "keepdim") for y in ys if y.grad_fn is not None]
    s = T.tensor(1.5, requires_grad=True)
    zs = [s.max(-1)[0], s.sort(-1)[0], s.topk(1, -1)[0], s.kthvalue(1, 0)[0], s.median(-1)[0]]
    out.append([_read(z.grad_fn, "dim") for z in zs])
    return out, _second(T, x.sort(-2)[0] * x.max(-1, keepdim=True)[0], x)


@program()
def prog_sg2_negative_dims_of_reductions(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    ys = [x.softmax(-1), x.log_softmax(-2), x.norm(dim=-1), T.linalg.vector_norm(x, 1, -1)]
    ys += [x.var(-1), x.std((-1, -2)), f.softmin(x, -1), f.softmax(x, -2, dtype=T.float32)]
    ys += [T.std_mean(x, -1)[0], T.var_mean(x, (-2, 1))[0], x.norm(3, (-1, 0), True)]
    out = [_read(y.grad_fn, "dim") for y in ys]
    grads = [_second(T, y, x) for y in ys[:8]]
    sm = T.std_mean(x, (-1, -2), keepdim=False)
    grads.append(_second(T, sm[0] + sm[1], x))
    return out, grads


# --- softmax family -----------------------------------------------------------------------------


@program()
def prog_sg2_softmax_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    ys = [x.softmax(1), f.log_softmax(x, 0), f.softmax(x.float(), 1, dtype=T.float64)]
    ys.append(T.log_softmax(x, 1, dtype=T.float32))
    ys.append(x.half().softmax(1))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_softmax_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    return _second(T, x.softmax(-1), x), _second(T, x.log_softmax(0), x)


# --- losses -------------------------------------------------------------------------------------


@program()
def prog_sg2_cross_entropy_graph(T: Any) -> Any:
    x = _d(T, 4, 3)
    t = T.tensor([0, 2, 1, 2])
    wt = T.tensor([1.0, 2.0, 0.5], dtype=T.float64)
    y = T.nn.functional.cross_entropy(x, t, weight=wt, ignore_index=1)
    fn = y.grad_fn
    return _saved(fn), _saved(fn.next_functions[0][0]), y


@program()
def prog_sg2_nll_loss_saved(T: Any) -> Any:
    x = _d(T, 4, 3)
    t = T.tensor([0, 2, 1, -100])
    f = T.nn.functional
    ys = [f.nll_loss(x, t), f.nll_loss(x, t, reduction="sum"), f.nll_loss(x, t, reduction="none")]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_nll_loss2d_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 2, 2)
    t = T.tensor([[[0, 1], [2, 0]], [[1, 1], [2, 2]]])
    y = T.nn.functional.nll_loss(x, t, weight=T.tensor([0.5, 1, 2], dtype=T.float64))
    return _saved(y.grad_fn), y


@program()
def prog_sg2_cross_entropy_double_backward(T: Any) -> Any:
    x = _d(T, 4, 3)
    t = T.tensor([0, 2, 1, 2])
    y = T.nn.functional.cross_entropy(x, t)
    return _second(T, y, x)


@program()
def prog_sg2_regression_losses_saved(T: Any) -> Any:
    x, t = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    f = T.nn.functional
    ys = [f.mse_loss(x, t), f.l1_loss(x, t, reduction="sum"), f.smooth_l1_loss(x, t, beta=0.5)]
    ys.append(f.huber_loss(x, t, delta=2.0, reduction="none"))
    ys.append(f.mse_loss(x, t.detach(), reduction="none"))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_bce_saved(T: Any) -> Any:
    p = T.tensor([[0.2, 0.7], [0.9, 0.4]], dtype=T.float64, requires_grad=True)
    t = T.tensor([[0.0, 1.0], [1.0, 0.0]], dtype=T.float64)
    f = T.nn.functional
    w = T.tensor([1.0, 2.0], dtype=T.float64)
    ys = [f.binary_cross_entropy(p, t), f.binary_cross_entropy(p, t, w, reduction="sum")]
    ys.append(f.binary_cross_entropy_with_logits(p, t))
    ys.append(f.binary_cross_entropy_with_logits(p, t, pos_weight=w, reduction="none"))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_losses_double_backward(T: Any) -> Any:
    x, t = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    f = T.nn.functional
    p = T.sigmoid(x)
    return (
        _second(T, f.mse_loss(x, t), x, t),
        _second(T, f.smooth_l1_loss(x, t), x),
        _second(T, f.binary_cross_entropy(p, t.sigmoid()), x),
        _second(T, f.binary_cross_entropy_with_logits(x, t.sigmoid()), x),
    )


# --- embedding, indexing ------------------------------------------------------------------------


@program()
def prog_sg2_embedding_saved(T: Any) -> Any:
    w = _d(T, 5, 3)
    i = T.tensor([[0, 2], [4, 2]])
    f = T.nn.functional
    ys = [f.embedding(i, w), f.embedding(i, w, padding_idx=2), f.embedding(i, w, padding_idx=-1)]
    ys.append(f.embedding(i, w, scale_grad_by_freq=True))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_embedding_double_backward(T: Any) -> Any:
    w = _d(T, 5, 3)
    i = T.tensor([0, 2, 2])
    return _second(T, T.nn.functional.embedding(i, w) ** 2, w)


@program()
def prog_sg2_index_ops_saved(T: Any) -> Any:
    x = _d(T, 3, 4)
    i = T.tensor([2, 0])
    ys = [x.index_select(1, i), x.index_select(-1, i), x[i], x[:, i], x[i, 1:], x[..., i]]
    ys.append(x[i, T.tensor([1, 3])])
    ys.append(x[:, None, i])
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_scatter_index_put_saved(T: Any) -> Any:
    x, s = _d(T, 3, 4), _d(T, 2, 4, seed=1)
    i = T.tensor([[0, 1, 2, 0], [2, 2, 1, 0]])
    ys = [x.scatter(0, i, s), x.scatter_add(0, i, s), x.scatter(1, i[:, :2], 2.0)]
    ys.append(x.index_put((T.tensor([0, 2]),), s))
    ys.append(x.index_put((T.tensor([0, 0]),), s, accumulate=True))
    ys.append(x.masked_fill(x > 0, 1.0))
    ys.append(x.scatter_reduce(0, i, s, "amax"))
    ys.append(x.index_fill(1, T.tensor([0, 2]), -1.0))
    return [_saved(y.grad_fn) for y in ys]


@program(
    xfail="GatherBackward0, TakeBackward0, MaskedSelectBackward0 hold self's sizes, "
    "IndexAddBackward0 and IndexCopyBackward0 none of source (saved only under saved-tensor "
    "hooks): torch's save self (and sparse_grad), source and source_dim; a boolean mask index "
    "is held as its nonzero indices where torch's _saved_indices holds the mask"
)
def prog_sg2_gather_take_index_add_saved(T: Any) -> Any:
    x, s = _d(T, 3, 4), _d(T, 2, 4, seed=1)
    ys = [x.gather(0, T.tensor([[0, 1, 2, 0]])), x.take(T.tensor([0, 5])), x[x > 0]]
    ys.append(x.masked_select(x < 0))
    ys.append(x.index_add(0, T.tensor([2, 1]), s, alpha=2))
    ys.append(x.index_copy(0, T.tensor([2, 1]), s))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_indexing_double_backward(T: Any) -> Any:
    x, s = _d(T, 3, 4), _d(T, 2, 4, seed=1)
    i = T.tensor([[0, 1, 2, 0], [2, 2, 1, 0]])
    return (
        _second(T, x.gather(1, i[:, :3]) ** 2, x),
        _second(T, x.scatter(0, i, s) ** 2, x, s),
        _second(T, x[T.tensor([0, 0, 2])] ** 3, x),
    )


# --- cat, stack, split, views -------------------------------------------------------------------


@program()
def prog_sg2_cat_stack_saved(T: Any) -> Any:
    a, b = _d(T, 2, 3), _d(T, 1, 3, seed=1)
    ys = [T.cat([a, b]), T.cat([a, b.detach()], -2), T.stack([a, a * 2], 1), T.hstack([a, a])]
    ys.append(T.vstack([a, b]))
    ys.append(T.dstack([a, a]))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_views_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 4)
    ys = [x.view(6, 4), x.reshape(-1), x.expand(2, 2, 3, 4), x.permute(2, 0, 1), x.flatten(1)]
    ys.append(x[:, :1].expand(-1, 3, -1))
    ys.append(x.unflatten(2, (2, 2)))
    ys.append(x.movedim(0, -1))
    ys.append(x.t() if x.dim() == 2 else x.mT)
    ys.append(x.expand_as(T.zeros(5, 2, 3, 4)))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_views_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    return (
        _second(T, x.expand(4, 2, 3) ** 2, x),
        _second(T, x.permute(1, 0).reshape(6) ** 2, x),
        _second(T, T.cat([x, x * x]), x),
        _second(T, T.stack([x, x.exp()], -1), x),
    )


# --- matmul family ------------------------------------------------------------------------------


@program()
def prog_sg2_matmul_family_saved(T: Any) -> Any:
    a, b = _d(T, 2, 3), _d(T, 3, 4, seed=1)
    v = _d(T, 3, seed=2)
    ys = [a @ b, a @ v, v @ b, T.matmul(a.expand(2, 2, 3), b), a.mT.mT @ b.t().t()]
    ys.append(T.bmm(a.unsqueeze(0), b.unsqueeze(0)))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_linear_saved(T: Any) -> Any:
    x, w, b = _d(T, 2, 3), _d(T, 4, 3, seed=1), _d(T, 4, seed=2)
    f = T.nn.functional
    ys = [
        f.linear(x, w, b),
        f.linear(x, w),
        f.linear(x[0], w, b),
        f.linear(x.expand(2, 2, 3), w, b),
    ]
    return [(_saved(y.grad_fn), y.grad_fn) for y in ys]


@program()
def prog_sg2_matmul_double_backward(T: Any) -> Any:
    a, b, c = _d(T, 2, 3), _d(T, 3, 4, seed=1), _d(T, 2, 4, seed=2)
    f = T.nn.functional
    return (
        _second(T, a @ b, a, b),
        _second(T, T.addmm(c, a, b, beta=0.5, alpha=2), c, a, b),
        _second(T, f.linear(a, b.t(), c[0]), a, b, c),
    )


# --- pointwise with saved numbers ---------------------------------------------------------------


@program()
def prog_sg2_pow_clamp_where_saved(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    ys = [x**2, x**2.5, x**y, 2**x, x.pow(0), x.clamp(-0.5, 0.5), x.clamp(min=0)]
    ys.append(x.clamp(max=y))
    ys.append(x.clamp(y, y + 1))
    ys.append(T.where(x > 0, x, y))
    ys.append(T.where(x > 0, x, 0.0))
    return [_saved(z.grad_fn) for z in ys]


@program()
def prog_sg2_pointwise_double_backward(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    return (
        _second(T, x**3, x),
        _second(T, x.abs() ** y.abs(), x, y),
        _second(T, x.clamp(-0.5, 0.5) ** 2, x),
        _second(T, T.where(x > 0, x * x, y.exp()), x, y),
        _second(T, x.tanh().sigmoid(), x),
    )


# --- dropout, pooling, interpolation ------------------------------------------------------------


@program()
def prog_sg2_dropout_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    y = T.nn.functional.dropout(x, 0.0)
    y1 = T.nn.functional.dropout(x, 0.0, training=False)
    y2 = T.nn.functional.dropout(x, 1.0)
    return _saved(y.grad_fn), y1.grad_fn, _saved(y2.grad_fn), y2


@program()
def prog_sg2_pooling_saved(T: Any) -> Any:
    x = _d(T, 1, 2, 5, 5)
    f = T.nn.functional
    ys = [f.max_pool2d(x, 2), f.max_pool2d(x, 3, 2, 1, ceil_mode=True), f.avg_pool2d(x, 2, 1)]
    ys.append(f.avg_pool2d(x, 3, 2, 1, count_include_pad=False, divisor_override=2))
    ys.append(f.adaptive_avg_pool2d(x, (2, 3)))
    ys.append(f.adaptive_max_pool2d(x, 2))
    ys.append(f.max_pool1d(x[0], 2))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_pooling_double_backward(T: Any) -> Any:
    x = _d(T, 1, 1, 4, 4)
    f = T.nn.functional
    return (
        _second(T, f.max_pool2d(x, 2) ** 2, x),
        _second(T, f.avg_pool2d(x, 2) ** 2, x),
        _second(T, f.adaptive_avg_pool2d(x, 1) ** 2, x),
    )


@program()
def prog_sg2_interpolate_saved(T: Any) -> Any:
    x = _d(T, 1, 1, 3, 4)
    f = T.nn.functional
    ys = [f.interpolate(x, scale_factor=2), f.interpolate(x, size=(5, 5), mode="bilinear")]
    ys.append(f.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=True))
    ys.append(f.interpolate(x, size=(6, 8), mode="nearest-exact"))
    ys.append(f.interpolate(x, scale_factor=2, mode="bicubic"))
    ys.append(f.interpolate(x[0], scale_factor=2, mode="linear"))
    return [_saved(y.grad_fn) for y in ys]


# --- errors: a name the node does not have, reads after backward --------------------------------


@program()
def prog_sg2_missing_names(T: Any) -> Any:
    x = _d(T, 2, 3)
    nodes = [x.exp().grad_fn, x.sum().grad_fn, (x @ x.t()).grad_fn, x.std().grad_fn]
    return [
        (raises(lambda n=n: n._saved_nope), raises(lambda n=n: n._raw_saved_nope)) for n in nodes
    ]


@program()
def prog_sg2_read_after_backward(T: Any) -> Any:
    x = _d(T, 3, 4)
    w = _d(T, 4, 2, seed=1)
    y1 = x.std(dim=1)
    y2 = x.norm(dim=0)
    y3 = T.nn.functional.layer_norm(x, (4,))
    y4 = x @ w
    y5 = x.softmax(1)
    (y1.sum() + y2.sum() + y3.sum() + y4.sum() + y5.sum()).backward()
    return (
        _after(y1.grad_fn, "self", "result", "dim", "correction", "keepdim"),
        _after(y2.grad_fn, "self", "result", "p", "dim", "keepdim"),
        _after(y3.grad_fn, "input", "weight", "mean", "rstd", "normalized_shape"),
        _after(y4.grad_fn, "self", "mat2", "self_sym_sizes"),
        _after(y5.grad_fn, "result", "dim"),
    )


# --- activations -------------------------------------------------------------------------------


@program()
def prog_sg2_activation_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    ys = [f.relu(x), f.leaky_relu(x, 0.2), f.elu(x, 0.5), f.selu(x), f.celu(x, 2.0)]
    ys += [f.gelu(x), f.gelu(x, approximate="tanh"), f.silu(x), f.mish(x), f.softplus(x, 2, 5)]
    ys += [f.hardtanh(x, -0.5, 0.5), f.relu6(x), f.hardswish(x), f.hardsigmoid(x)]
    ys += [f.logsigmoid(x), f.threshold(x, 0.1, -1.0), f.softshrink(x, 0.3), f.hardshrink(x)]
    ys += [f.tanhshrink(x), f.softsign(x), T.sigmoid(x), T.tanh(x), f.glu(x.repeat(1, 2), -1)]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_activation_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    fns = [
        lambda v: f.elu(v, 0.5),
        f.selu,
        lambda v: f.softplus(v, 2),
        f.silu,
        f.gelu,
        lambda v: f.leaky_relu(v, 0.2),
        T.sigmoid,
        T.tanh,
        f.logsigmoid,
        lambda v: f.hardtanh(v, -0.5, 0.5),
    ]
    return [_second(T, fn(x), x) for fn in fns]


@program()
def prog_sg2_activation_inplace_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    ys = [f.relu(x * 1, inplace=True), f.leaky_relu(x * 1, 0.1, True), f.elu(x * 1, inplace=True)]
    ys.append((x * 1).sigmoid_())
    ys.append((x * 1).tanh_())
    return [(_saved(y.grad_fn), y.grad_fn) for y in ys]


# --- pointwise saved values ---------------------------------------------------------------------


@program()
def prog_sg2_unary_pointwise_saved(T: Any) -> Any:
    x = T.tensor([[0.5, 1.5, 2.0], [0.25, 3.0, 0.75]], dtype=T.float64, requires_grad=True)
    ys = [x.exp(), x.log(), x.sqrt(), x.rsqrt(), x.reciprocal(), x.sin(), x.cos(), x.tan()]
    ys += [x.asin().nan_to_num(), x.atan(), x.sinh(), x.cosh(), x.log1p(), x.expm1(), x.exp2()]
    ys += [x.log2(), x.log10(), x.erf(), x.erfc(), x.erfinv().nan_to_num(), x.lgamma()]
    ys += [x.digamma(), x.abs(), x.sign(), x.neg(), x.square(), x.logit(0.1), x.sinc()]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_binary_pointwise_saved(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    ys = [x * y, x / y, x / 2, 2 / x, x.atan2(y), x.hypot(y), x.maximum(y), x.minimum(y)]
    ys += [x.fmod(0.3), x.remainder(y), x.copysign(y), x.xlogy(y.abs()), x.lerp(y, 0.3)]
    ys += [x.lerp(y, y.abs()), x.addcdiv(x, y, value=0.5), x.addcmul(x, y, value=2)]
    ys += [x.fmax(y), x.fmin(y), x.logaddexp(y), x.logaddexp2(y), x.sub(y, alpha=3)]
    ys += [x.mul(2), x.true_divide(y), T.polar(x.abs(), y)]
    return [_saved(z.grad_fn) for z in ys]


@program()
def prog_sg2_binary_pointwise_double_backward(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    return (
        _second(T, x * y, x, y),
        _second(T, x / y, x, y),
        _second(T, x.atan2(y), x, y),
        _second(T, x.hypot(y), x, y),
        _second(T, x.lerp(y, 0.3), x, y),
        _second(T, x.addcmul(x, y, value=2), x, y),
    )


@program()
def prog_sg2_pow_family_double_backward(T: Any) -> Any:
    x = T.tensor([[0.5, 1.5, 2.0], [1.25, 3.0, 0.75]], dtype=T.float64, requires_grad=True)
    e = _d(T, 2, 3, seed=3)
    return (
        _second(T, x**2, x),
        _second(T, x**0.5, x),
        _second(T, x**-1, x),
        _second(T, x**e, x, e),
        _second(T, 2.0**x, x),
        _second(T, x.pow(0), x),
    )


@program()
def prog_sg2_pow_saved_values(T: Any) -> Any:
    x = _d(T, 2, 3)
    e = _d(T, 2, 3, seed=3)
    ys = [x**2, x**2.5, x**True, x**-1, x.pow(T.tensor(2.0)), x ** e.detach(), 3**x]
    ys.append(T.pow(2.5, x))
    ys.append(x.float_power(2))
    ys.append(x.square())
    return [_read(y.grad_fn, "self", "exponent", "result", "other") for y in ys]


# --- reductions ------------------------------------------------------------------------------


@program()
def prog_sg2_sum_mean_prod_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    ys = [x.sum(), x.sum(1), x.sum((0, 1), keepdim=True), x.mean(), x.mean(0), x.prod()]
    ys += [x.prod(1), x.prod(1, keepdim=True), x.nansum(0), x.logsumexp(1), x.cumsum(0)]
    ys += [x.sum(dtype=T.float32), x.mean(1, dtype=T.float32), x.cumprod(1), x.cummax(1)[0]]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_reductions_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    return (
        _second(T, x.prod(1), x),
        _second(T, x.prod(), x),
        _second(T, x.logsumexp(1), x),
        _second(T, x.cumprod(1), x),
        _second(T, x.cumsum(0) ** 2, x),
        _second(T, x.mean(0) ** 2, x),
        _second(T, x.amax(1), x),
    )


# --- more norms and normalization layers ---------------------------------------------------------


@program()
def prog_sg2_instance_norm_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 4)
    w, b = _d(T, 3, seed=1), _d(T, 3, seed=2)
    y = T.nn.functional.instance_norm(x, weight=w, bias=b)
    fn = y.grad_fn
    chain = []
    while fn is not None and len(chain) < 4:
        chain.append(_saved(fn))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return chain, _second_values(T, y, x, w, b)


@program()
def prog_sg2_batch_norm_module_saved(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(3)
    x = _x(T, 4, 3)
    y = bn(x)
    fn = y.grad_fn
    out = [_saved(fn), bn.running_mean, bn.running_var, bn.num_batches_tracked]
    bn.eval()
    y2 = bn(x)
    out.append(_saved(y2.grad_fn))
    y.sum().backward()
    out.append(_after(fn, "input", "weight", "result1", "result2", "running_mean", "eps"))
    return out


@program()
def prog_sg2_layer_norm_module_after_backward(T: Any) -> Any:
    ln = T.nn.LayerNorm(4)
    x = _x(T, 3, 4)
    y = ln(x)
    fn = y.grad_fn
    before = _saved(fn)
    y.pow(2).sum().backward()
    after = _after(fn, "input", "weight", "bias", "result1", "result2", "normalized_shape")
    return before, after, x.grad, ln.weight.grad, ln.bias.grad


@program()
def prog_sg2_group_norm_module_saved(T: Any) -> Any:
    gn = T.nn.GroupNorm(2, 4)
    x = _x(T, 2, 4, 3)
    y = gn(x)
    fn = y.grad_fn
    r1 = fn._saved_result1
    out = [_saved(fn), r1.grad_fn, r1.requires_grad]
    y.sum().backward()
    out.append(_after(fn, "input", "result1", "N", "C", "HxW", "group", "eps"))
    return out, _second_values(T, gn(x), x, gn.weight, gn.bias)


@program()
def prog_sg2_norm_p_values_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    ys = [x.norm(0), x.norm(1), x.norm(2.5), x.norm(float("-inf")), x.norm(dim=(0, 1))]
    ys += [T.linalg.vector_norm(x, 0), T.linalg.vector_norm(x, -2, 1)]
    ys.append(T.renorm(x, 2, 0, 0.5))
    ys.append(T.dist(x, x.detach() + 1, 3))
    return [_saved(y.grad_fn) for y in ys], _second(T, x.norm(2.5, 1), x)


# --- convolutions ------------------------------------------------------------------------------


@program()
def prog_sg2_conv_variants_saved(T: Any) -> Any:
    f = T.nn.functional
    x2, w2 = _d(T, 1, 4, 4, 4), _d(T, 4, 2, 2, 2, seed=1)
    ys = [f.conv2d(x2, w2, None, 1, 0, 1, 2), f.conv_transpose2d(x2, w2, stride=2, groups=2)]
    x3, w3 = _d(T, 1, 1, 3, 3, 3), _d(T, 2, 1, 2, 2, 2, seed=2)
    ys.append(f.conv3d(x3, w3, stride=(1, 2, 1), padding=1))
    ys.append(f.conv2d(x2[0], w2[:, :1].repeat(1, 4, 1, 1)))  # unbatched
    ys.append(f.conv1d(x2[0, :, :2], w2[:, :, 0], padding=1, stride=2))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_conv_module_saved_after_backward(T: Any) -> Any:
    conv = _seeded(T, T.nn.Conv2d(2, 3, 3, stride=2, padding=1, bias=True), 3)
    x = _d(T, 1, 2, 5, 5).float()
    y = conv(x)
    fn = y.grad_fn
    before = _saved(fn)
    y.sum().backward()
    return before, _after(
        fn, "input", "weight", "stride", "padding", "bias_sym_sizes_opt", "groups"
    )


# --- shape ops ---------------------------------------------------------------------------------


@program()
def prog_sg2_shape_ops_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    ys = [x.repeat(2, 1), x.tile((2,)), x.flip(0), x.roll(1, 1), x.roll((1, -1), (0, 1))]
    ys += [T.nn.functional.pad(x, (1, 2)), T.nn.functional.pad(x[None], (1, 1, 1, 0), "reflect")]
    ys += [x.narrow(1, 0, 2), x.diagonal(), x.triu(1), x.tril(-1), x.rot90()]
    ys += [x.unsqueeze(0).squeeze(), x.chunk(2, 1)[0], x.unbind(1)[0], x.movedim(1, 0)]
    ys += [x.repeat_interleave(2, 0), x.masked_fill(x > 0, 0.0), x.clone(), x.contiguous()]
    return [_saved(y.grad_fn) for y in ys if y.grad_fn is not None]


@program()
def prog_sg2_shape_ops_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    return (
        _second(T, x.repeat(2, 1) ** 2, x),
        _second(T, f.pad(x, (1, 2)) ** 2, x),
        _second(T, f.pad(x[None], (1, 1, 1, 0), "reflect") ** 2, x),
        _second(T, x.roll(1, 1) ** 2, x),
        _second(T, x.flip(0) * x, x),
        _second(T, x.tril() ** 2, x),
    )


@program()
def prog_sg2_split_cat_sizes_saved(T: Any) -> Any:
    x = _d(T, 4, 6)
    ys = [T.cat(x.split(2)), T.cat(x.split([1, 3]), -2), T.cat(x.tensor_split(3, 1), 1)]
    out = [_saved(y.grad_fn) for y in ys]
    out += [_saved(p.grad_fn) for p in x.split([1, 3])]
    out += [_saved(p.grad_fn) for p in x.tensor_split(3, 1)]
    out += [_saved(p.grad_fn) for p in x.unbind(-1)[:2]]
    return out


# --- losses ------------------------------------------------------------------------------------


@program()
def prog_sg2_more_losses_saved(T: Any) -> Any:
    x, t = _d(T, 3, 4), _d(T, 3, 4, seed=1, rg=False)
    f = T.nn.functional
    ys = [f.kl_div(x.log_softmax(1), t.softmax(1), reduction="batchmean")]
    ys.append(f.kl_div(x, t, log_target=True, reduction="sum"))
    ys.append(f.soft_margin_loss(x, t.sign()))
    ys.append(f.margin_ranking_loss(x[0], x[1], t[0].sign(), margin=0.1))
    ys.append(f.hinge_embedding_loss(x, t.sign()))
    ys.append(f.poisson_nll_loss(x, t.abs()))
    ys.append(f.gaussian_nll_loss(x, t, T.ones(3, 4, dtype=T.float64)))
    ys.append(f.cosine_embedding_loss(x, t, T.tensor([1, -1, 1])))
    ys.append(f.multi_margin_loss(x, T.tensor([0, 3, 1])))
    ys.append(f.multilabel_margin_loss(x, T.tensor([[0, 1, -1, 0], [2, -1, 0, 0], [3, 0, -1, 0]])))
    ys.append(f.multilabel_soft_margin_loss(x, (t > 0).double()))
    ys.append(f.triplet_margin_loss(x, t, x.flip(0)))
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_cross_entropy_variants_graph(T: Any) -> Any:
    x = _d(T, 4, 3)
    f = T.nn.functional
    t = T.tensor([0, 2, 1, 2])
    p = T.tensor([[0.2, 0.3, 0.5]] * 4, dtype=T.float64)
    ys = [f.cross_entropy(x, t, label_smoothing=0.1), f.cross_entropy(x, p)]
    ys.append(f.cross_entropy(x, t, reduction="none"))
    ys.append(f.cross_entropy(x.t().unsqueeze(0), t.unsqueeze(0)))
    return [(_saved(y.grad_fn), y.grad_fn) for y in ys], _second(T, ys[0], x)


@program()
def prog_sg2_nll_loss_after_backward(T: Any) -> Any:
    x = _d(T, 4, 3)
    t = T.tensor([0, 2, 1, 0])
    y = T.nn.functional.nll_loss(x, t, weight=T.tensor([1.0, 2.0, 3.0], dtype=T.float64))
    fn = y.grad_fn
    y.backward()
    names = ("self", "target", "weight", "total_weight", "ignore_index", "reduction")
    return _after(fn, *names), x.grad


# --- embedding, dropout --------------------------------------------------------------------------


@program()
def prog_sg2_embedding_module_saved(T: Any) -> Any:
    emb = _seeded(T, T.nn.Embedding(6, 3, padding_idx=0), 4)
    bag = T.nn.EmbeddingBag(6, 3, mode="sum")
    i = T.tensor([[0, 2, 5], [1, 0, 4]])
    y = emb(i)
    fn = y.grad_fn
    before = _saved(fn)
    (y**2).sum().backward()
    after = _after(fn, "indices", "padding_idx", "weight_sym_argsize_0", "sparse")
    z = bag(i)
    return before, after, emb.weight.grad, type(z.grad_fn).__name__


@program()
def prog_sg2_dropout_variants_saved(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    ys = [f.dropout(x, 0.0), f.dropout(x, 1.0), f.alpha_dropout(x, 0.0), f.dropout1d(x, 0.0)]
    ys.append(f.feature_alpha_dropout(x.unsqueeze(0), 0.0))
    ys.append(f.dropout2d(x.unsqueeze(0), 1.0))
    ys.append(T.nn.Dropout(0.0)(x))
    ys.append(f.dropout(x, 0.0, training=False) * 1)
    return [_saved(y.grad_fn) for y in ys]


# --- saved tensors: identity, hooks, versions ---------------------------------------------------


@program()
def prog_sg2_saved_tensor_identity(T: Any) -> Any:
    x = _d(T, 2, 3)
    y = x.exp()
    z = x.sin()
    out = [y.grad_fn._saved_result is y, z.grad_fn._saved_self is x]
    out.append(y.grad_fn._saved_result.grad_fn is y.grad_fn)
    out.append(y.grad_fn._saved_result.requires_grad)
    out.append(z.grad_fn._saved_self.equal(x))
    raw = z.grad_fn._raw_saved_self
    out.append(type(raw).__name__)
    return out


@program()
def prog_sg2_saved_after_inplace_modification(T: Any) -> Any:
    x = _d(T, 2, 3)
    a = x * 1
    y = a.sin()
    a.add_(1)
    e = raises(lambda: y.grad_fn._saved_self)
    b = x * 1
    r = b.exp()
    r.mul_(2)
    return e, raises(lambda: r.grad_fn), raises(lambda: y.sum().backward())


@program()
def prog_sg2_saved_with_hooks(T: Any) -> Any:
    x = _d(T, 2, 3)
    w = _d(T, 3, seed=1)
    log = []

    def pack(t: Any) -> Any:
        log.append(tuple(t.shape))
        return t * 1

    def unpack(t: Any) -> Any:
        return t

    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y1 = T.nn.functional.layer_norm(x, (3,), w, w)
        y2 = x.norm(dim=1)
        y3 = x.std(0)
    out = [sorted(log), _read(y1.grad_fn, "result1", "result2"), _read(y2.grad_fn, "result")]
    out.append(_read(y3.grad_fn, "result", "correction"))
    (y1.sum() + y2.sum() + y3.sum()).backward()
    return out, x.grad


# --- dims and sizes saved as given ---------------------------------------------------------------


@program()
def prog_sg2_glu_dims_saved(T: Any) -> Any:
    x = _d(T, 2, 4)
    f = T.nn.functional
    ys = [f.glu(x), f.glu(x, -1), f.glu(x, 0), f.glu(x, -2), T.nn.GLU()(x)]
    return [_read(y.grad_fn, "dim") for y in ys], _second(T, f.glu(x, -2), x)


@program()
def prog_sg2_pad_modes_saved(T: Any) -> Any:
    f = T.nn.functional
    x1, x2, x3 = _d(T, 1, 2, 4), _d(T, 1, 1, 3, 4), _d(T, 1, 1, 2, 3, 3)
    ys = [f.pad(x1, (2, 1), "reflect"), f.pad(x1, (0, 3), "replicate"), f.pad(x1, [1, 1])]
    ys += [f.pad(x2, (1, 2, 0, 1), "reflect"), f.pad(x2, (1, 0, 2, 2), "replicate")]
    ys += [f.pad(x3, (1,) * 6, "replicate"), f.pad(x2, (1, 1), value=2.0), f.pad(x2, (-1, 1))]
    return [_saved(y.grad_fn) for y in ys]


@program()
def prog_sg2_pad_double_backward_and_after(T: Any) -> Any:
    f = T.nn.functional
    x = _d(T, 1, 2, 4)
    out = _second(T, f.pad(x, (2, 1), "reflect") ** 2, x)
    y = f.pad(x, (2, 1), "reflect")
    fn = y.grad_fn
    (y * y).sum().backward()
    return out, _after(fn, "padding", "self")


@program()
def prog_sg2_rot90_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 4)
    ys = [x.rot90(), x.rot90(2), x.rot90(-1, (2, 0)), x.rot90(1, (-1, -2)), x.rot90(3, [1, 0])]
    return [_saved(y.grad_fn) for y in ys], _second(T, x.rot90(1, (-1, 0)) ** 2, x)


@program()
def prog_sg2_elu_family_scalars(T: Any) -> Any:
    x = _d(T, 2, 3)
    f = T.nn.functional
    ys = [f.elu(x), f.elu(x, 2), f.selu(x), f.celu(x), T.nn.ELU(0.5)(x), T.nn.SELU()(x)]
    ys += [f.relu6(x), T.nn.ReLU6()(x), f.hardtanh(x), f.hardtanh(x, -2, 2), T.nn.Hardtanh()(x)]
    names = ("alpha", "scale", "input_scale", "min_val", "max_val", "self", "result")
    return [(type(y.grad_fn).__name__, _read(y.grad_fn, *names)) for y in ys]


@program()
def prog_sg2_logsigmoid_buffer(T: Any) -> Any:
    x = T.tensor([[-30.0, -1.5, 0.0], [0.3, 2.0, 40.0]], requires_grad=True)
    y = T.nn.functional.logsigmoid(x)
    fn = y.grad_fn
    before = (fn._saved_buffer, fn._saved_self, type(fn._raw_saved_buffer).__name__)
    g = _second(T, T.nn.functional.logsigmoid(x.double()), x)
    y.sum().backward()
    return before, g, _after(fn, "buffer", "self"), x.grad


@program()
def prog_sg2_multilabel_margin_is_target(T: Any) -> Any:
    x = _d(T, 3, 4)
    f = T.nn.functional
    t = T.tensor([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 2, 0]])
    ys = [f.multilabel_margin_loss(x, t), f.multilabel_margin_loss(x[0], t[0], reduction="none")]
    ys.append(f.multilabel_margin_loss(x, t, reduction="sum"))
    out = [_read(y.grad_fn, "is_target", "reduction") for y in ys]
    ys[0].backward()
    return out, _after(ys[0].grad_fn, "is_target", "target"), x.grad


# --- pooling and upsampling: after backward, double backward -------------------------------------


@program()
def prog_sg2_pooling_after_backward(T: Any) -> Any:
    f = T.nn.functional
    x = _d(T, 1, 2, 4, 4)
    y1 = f.max_pool2d(x, 2, 1, dilation=1)
    y2 = f.avg_pool2d(x, (2, 3), stride=[1, 2], padding=(1, 0), ceil_mode=True)
    y3 = f.adaptive_max_pool2d(x, (2, 1))
    y4, idx = f.max_pool2d(x, 2, return_indices=True)
    (y1.sum() + y2.sum() + y3.sum() + y4.sum()).backward()
    names = ("kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1", "self")
    return (
        _after(y1.grad_fn, *names),
        _after(y2.grad_fn, "kernel_size", "stride", "count_include_pad", "divisor_override"),
        _after(y3.grad_fn, "result1", "self"),
        idx,
        x.grad,
    )


@program()
def prog_sg2_pooling_module_saved(T: Any) -> Any:
    x = _d(T, 2, 3, 5, 5)
    nn = T.nn
    mods = [nn.MaxPool2d(3, 2, 1), nn.MaxPool2d((2, 3), ceil_mode=True), nn.AvgPool2d(3, 1, 1)]
    mods += [nn.AvgPool2d(2, divisor_override=3), nn.AdaptiveAvgPool2d(3), nn.AdaptiveMaxPool2d(2)]
    mods.append(nn.MaxPool2d(2, dilation=2))
    return [_saved(m(x).grad_fn) for m in mods], [_saved(m(x[0]).grad_fn) for m in mods[:3]]


@program()
def prog_sg2_upsample_double_backward_and_after(T: Any) -> Any:
    f = T.nn.functional
    x = _d(T, 1, 1, 2, 3)
    y = f.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
    fn = y.grad_fn
    out = _second(T, y**2, x), _second(T, f.interpolate(x, size=(3, 5)) ** 2, x)
    (y * y).sum().backward()
    names = ("output_size", "scales_h", "scales_w", "align_corners", "self_sym_sizes")
    return out, _after(fn, *names), raises(lambda: fn._saved_plan)


@program()
def prog_sg2_upsample_module_saved(T: Any) -> Any:
    nn = T.nn
    x = _d(T, 1, 2, 3, 3)
    mods = [nn.Upsample(scale_factor=2), nn.Upsample(size=(4, 5), mode="bilinear")]
    mods += [nn.UpsamplingNearest2d(scale_factor=3), nn.UpsamplingBilinear2d(size=4)]
    mods.append(nn.Upsample(scale_factor=(1.5, 2), mode="bicubic", align_corners=True))
    return [_saved(m(x).grad_fn) for m in mods]


# --- double-backward graphs of formulas torch writes with scalars, outer products, fills ---------


@program()
def prog_sg2_mv_double_backward(T: Any) -> Any:
    m, v = _d(T, 2, 3), _d(T, 3, seed=1)
    u = _d(T, 2, seed=2)
    return (
        _second(T, m.mv(v), m, v),
        _second(T, m @ v[:3], m, v),
        _second(T, u @ m, m, u),
        _second(T, T.addmv(u, m, v, beta=0.5, alpha=2.0), u, m, v),
        _saved(m.mv(v).grad_fn),
    )


@program()
def prog_sg2_trace_double_backward(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 3, 3, seed=1)
    (g,) = T.autograd.grad(x.trace(), x)
    out = [g, g._version, g.stride()]
    out.append(_second(T, x.trace() * x.sum(), x))
    out.append(_second(T, (y @ y).trace(), y))
    out.append(_saved(y.trace().grad_fn))
    return out


@program()
def prog_sg2_lerp_scalar_weight_double_backward(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 2, 3, seed=1)
    w = _d(T, 2, 3, seed=2).abs()
    return (
        _second(T, T.lerp(x, y, 0.3) ** 2, x, y),
        _second(T, T.lerp(x, y, 1) ** 2, x, y),
        _second(T, T.lerp(x, y, w) ** 2, x, y, w),
        _read(T.lerp(x, y, 0.75).grad_fn, "weight"),
        _read(T.lerp(x, y, w).grad_fn, "weight", "self", "end"),
    )


@program()
def prog_sg2_scalar_factors_half_gradients(T: Any) -> Any:
    v = _data(60, seed=5)
    h = T.float16
    a = T.tensor(v[:6].reshape(2, 3), dtype=h, requires_grad=True)
    b = T.tensor(v[6:12].reshape(3, 2), dtype=h, requires_grad=True)
    c = T.tensor(v[12:16].reshape(2, 2), dtype=h, requires_grad=True)
    T.addmm(c, a, b, beta=0.3, alpha=0.7).backward(T.full((2, 2), 1.7, dtype=h))
    w, u = T.tensor(v[16:19], dtype=h, requires_grad=True), T.tensor(v[19:21], dtype=h)
    u.requires_grad_()
    T.addmv(u, a, w, beta=0.3, alpha=0.7).backward(T.full((2,), 1.3, dtype=h))
    x = T.tensor(v[21:41], dtype=h, requires_grad=True)
    y = T.tensor(v[40:60], dtype=h, requires_grad=True)
    T.lerp(x, y, 0.3).backward(T.linspace(-3, 3, 20).to(h))
    z = T.tensor(v[:20], dtype=h, requires_grad=True)
    z.std().backward()
    return a.grad, b.grad, c.grad, w.grad, u.grad, x.grad, y.grad, z.grad


# --- add/sub alpha, decompositions ---------------------------------------------------------------


@program()
def prog_sg2_add_sub_alpha_other_constant(T: Any) -> Any:
    x, y = _d(T, 2, 3), _d(T, 2, 3, seed=1, rg=False)
    ys = [x - 1, x + 1, x - y, x + y, x.sub(y, alpha=2), x.add(y, alpha=3), x.sub(1, alpha=2)]
    ys += [T.rsub(y, x, alpha=3), T.rsub(x, y, alpha=3), 1 - x, x.add(x, alpha=0.5)]
    ys += [T.add(x, 2, alpha=-1), T.sub(x, y, alpha=-2), x.add(y, alpha=1)]
    out = [_saved(z.grad_fn) for z in ys]
    z = x.sub(y, alpha=2)
    z.sum().backward()
    return out, _after(z.grad_fn, "alpha"), x.grad


@program()
def prog_sg2_decomposition_saved_names(T: Any) -> Any:
    a = _d(T, 3, 3)
    la = T.linalg
    spd = a @ a.mT + T.eye(3, dtype=T.float64)
    ys = [la.inv(a), la.cholesky(spd), la.eigh(spd)[0], la.qr(a)[1], la.svd(a)[1]]
    ys += [
        la.svdvals(a[:2]),
        la.solve_triangular(a.triu() + 2 * T.eye(3, dtype=T.float64), a, upper=True),
    ]
    ys += [la.lstsq(a, a[:, :1]).solution, T.aminmax(a, dim=1)[0], la.inv_ex(a)[0]]
    ys += [la.cholesky_ex(spd, upper=True)[0], la.eigh(spd, UPLO="U")[1]]
    ys += [la.svd(a[:2], full_matrices=False)[0], la.qr(a[:, :2], mode="complete")[0]]
    out = []
    for y in ys:  # singular and eigen vectors up to sign (LAPACK builds may differ)
        name, vals, raw = _saved(y.grad_fn)
        vals = {k: (t, v.abs() if t == "Tensor" else v) for k, (t, v) in vals.items()}
        out.append((name, vals, raw))
    return out


@program()
def prog_sg2_decomposition_saved_after_backward(T: Any) -> Any:
    a = _d(T, 3, 2)
    u, s, vh = T.linalg.svd(a, full_matrices=False)
    (u.sum() + s.sum() + vh.sum()).backward()
    fn = s.grad_fn
    q, r = T.linalg.qr(a)
    (q.sum() + r.sum()).backward()
    return (
        _after(fn, "S", "U", "Vh", "full_matrices", "S_sym_argsize_minus_1"),
        _after(q.grad_fn, "Q", "R", "mode"),
        a.grad,
    )


@program()
def prog_sg2_solve_family_saved_reads(T: Any) -> Any:
    a, b = _d(T, 3, 3), _d(T, 3, 2, seed=1)
    la = T.linalg
    y1 = la.solve(a, b)
    y2 = la.solve(a, b[:, 0], left=True)
    y3 = la.solve_triangular(a.tril() + 2 * T.eye(3, dtype=T.float64), b, upper=False, left=True)
    y4 = la.lstsq(a, b).solution
    return (
        _read(y1.grad_fn, "A", "left", "result", "vector"),
        _read(y2.grad_fn, "left", "vector"),
        _read(y3.grad_fn, "self", "upper", "left", "unitriangular", "A", "unit"),
        _read(y4.grad_fn, "self", "b", "solution", "vector"),
        _second_values(T, y1, a, b),
    )


@program()
def prog_sg2_prod_diag_embed_atleast_dims(T: Any) -> Any:
    x = _d(T, 2, 3)
    ys = [x.prod(-1), x.prod(0, keepdim=True), x.prod(-2, True), T.diag_embed(x), T.diag(x[0])]
    ys += [T.diag_embed(x, 1, 0, -1), T.diag_embed(x, -1, -1, 0), T.diag(x[1], -2)]
    ys += [T.atleast_3d(x), T.atleast_3d(x[0]), T.atleast_2d(x[0])]
    out = [_saved(y.grad_fn) for y in ys]
    grads = [_second(T, y**2, x) for y in (ys[0], ys[2], ys[5], ys[6])]
    s = T.tensor(2.0, dtype=T.float64, requires_grad=True)
    return out, grads, _saved(s.prod(-1).grad_fn), _second(T, s.prod(0) ** 2, s)


@program()
def prog_sg2_unfold_and_pairwise_saved(T: Any) -> Any:
    f = T.nn.functional
    x = _d(T, 1, 2, 3, 4)
    a, b = _d(T, 3, 4, seed=1), _d(T, 3, 4, seed=2)
    ys = [f.unfold(x, (2, 2)), f.unfold(x, 2, dilation=1, padding=1, stride=2)]
    ys += [f.fold(f.unfold(x, 2), (3, 4), 2)]
    ys += [f.pairwise_distance(a, b), f.pairwise_distance(a, b, p=1, keepdim=True)]
    ys += [T.norm(a, 3, 1), T.norm(a, dim=-1, p=1.5)]
    out = [_saved(y.grad_fn) for y in ys]
    y = f.unfold(x, (2, 2))
    y.sum().backward()
    return out, _after(y.grad_fn, "self_sym_argsize_minus_1", "kernel_size"), x.grad


@program()
def prog_sg2_det_slogdet_solve_lu_saved(T: Any) -> Any:
    a = T.tensor([[1.0, 2.0, 0.0], [3.0, 1.0, 1.0], [0.0, 2.0, 5.0]], requires_grad=True)
    b = _d(T, 2, 3, 3, seed=3)
    la = T.linalg
    ys = [la.det(a), la.slogdet(a)[1], la.slogdet(-a)[0], la.det(b), a.det(), T.logdet(a @ a.mT)]
    ys += [la.solve(a, a[:, :1]), la.solve(b, b[..., 0]), la.slogdet(b)[1]]
    out = [_saved(y.grad_fn) for y in ys]
    y = la.slogdet(a)[1]
    s = y.grad_fn._saved_sign
    out.append((s.requires_grad, type(s.grad_fn).__name__))
    y.backward()
    out.append(_after(y.grad_fn, "A", "LU", "pivots", "sign"))
    v = _data(3, 3, seed=4)
    c = T.tensor(v + 1j * v[::-1], requires_grad=True)
    out += [_saved(T.linalg.det(c).grad_fn), _saved(T.linalg.slogdet(c)[1].grad_fn)]
    return out, a.grad


@program()
def prog_sg2_scalar_formulas_double_backward(T: Any) -> Any:
    x = _d(T, 2, 3)
    y = T.tensor([[0.3, -0.2, 1.0], [0.9, 0.4, -1.5]], dtype=T.float64, requires_grad=True)
    return (
        _second(T, x.rad2deg() ** 2, x),
        _second(T, x.deg2rad() ** 2, x),
        _second(T, T.maximum(x, y) ** 2, x, y),
        _second(T, T.minimum(x, x.detach().clamp(max=0.0)) ** 2, x),
        _second(T, T.maximum(y, y.flip(0).detach()) ** 2, y),
    )


@program()
def prog_sg2_scalar_formulas_half_gradients(T: Any) -> Any:
    v = _data(40, seed=6)
    h = T.float16
    x = T.tensor(v[:20], dtype=h, requires_grad=True)
    y = T.tensor(v[20:], dtype=h, requires_grad=True)
    g = T.linspace(-3, 3, 20).to(h)
    (x.rad2deg() + x.deg2rad() + T.maximum(x, y) + T.minimum(x, x.detach())).backward(g)
    return x.grad, y.grad


@program()
def prog_sg2_cholesky_masked_scatter_double_backward(T: Any) -> Any:
    a = _d(T, 3, 3)
    m = _d(T, 2, 3, seed=1)
    spd = a @ a.mT + T.eye(3, dtype=T.float64)
    gs, graphs, second = _second(T, T.linalg.cholesky(spd), a)
    ms = m.masked_scatter(m.detach() > 0, m * 3)
    g2 = T.autograd.grad((ms**2).sum(), m, create_graph=True)[0]
    return gs, graphs, second, g2.grad_fn.next_functions[0][0], g2


# --- _raw_saved_ SavedTensor objects ----------------------------------------------------------


@program()
def prog_sg2_raw_saved_register_hooks(T: Any) -> Any:
    x = _d(T, 2, 3)
    y = x.exp()
    raw = y.grad_fn._raw_saved_result
    out = [raw.register_hooks(lambda t: t * 2, lambda t: t)]
    out.append(raises(lambda: raw.register_hooks(lambda t: t, lambda t: t)))
    z = x.sin()
    out.append(raises(lambda: z.grad_fn._raw_saved_self.register_hooks(lambda t: t)))
    w = x * 2.0
    out.append(type(w.grad_fn._raw_saved_other).__name__)
    out.append(raises(lambda: w.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda t: t)))
    q = x.pow(2)
    q.sum().backward()
    out.append(raises(lambda: q.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)))
    (g,) = T.autograd.grad(y.sum(), x)
    return out, g, raises(lambda: x.sum().grad_fn._raw_saved_self_sym_sizes)


@program()
def prog_sg2_lazy_saved_names_listed(T: Any) -> Any:
    x = _d(T, 2, 4, 3)
    w = _d(T, 4, seed=1)
    f = T.nn.functional
    ys = [f.layer_norm(x, (3,)), f.group_norm(x, 2, w, w), f.batch_norm(x, None, None, w, w, True)]
    ys += [f.nll_loss(x[:, :, 0].log_softmax(1), T.tensor([0, 3])), f.logsigmoid(x)]
    ys += [T.linalg.det(x[0, :3]), f.max_pool1d(x, 2), f.interpolate(x, scale_factor=2)]
    out = []
    for y in ys:
        fn = y.grad_fn
        names = sorted(n for n in dir(fn) if n.startswith(("_saved_", "_raw_saved_")))
        raws = {n: type(getattr(fn, n)).__name__ for n in names if n.startswith("_raw_saved_")}
        out.append((type(fn).__name__, names, raws))
    sum(y.sum() for y in ys).backward()
    after = [sorted(n for n in dir(y.grad_fn) if n.startswith("_saved_")) for y in ys]
    return out, after


@program()
def prog_sg2_inplace_view_ops_dims_as_given(T: Any) -> Any:
    x = _d(T, 2, 1, 3)
    fs = [
        lambda: (x * 1).squeeze_(-2),
        lambda: (x * 1).unsqueeze_(-1),
        lambda: (x * 1).squeeze_((-2,)),
        lambda: (x * 1).squeeze_([1, -1]),
        lambda: (x * 1).transpose_(-1, 0),
        lambda: (x * 1).swapdims_(-1, -3),
        lambda: (x * 1).squeeze_(-2).unsqueeze_(-3),
        lambda: x.quantile(0.3, dim=1),
        lambda: x.nanquantile(0.5),
    ]
    out = []
    for f in fs:
        y = f()
        out.append((_saved(y.grad_fn), tuple(y.shape), _second(T, y * y, x)))
    return out


@program()
def prog_sg2_squeeze_backward_unsqueezes(T: Any) -> Any:
    x = _d(T, 2, 1, 3, 1)
    s = T.tensor(2.0, dtype=T.float64, requires_grad=True)
    fs = [
        lambda: x.squeeze(),
        lambda: x.squeeze(1),
        lambda: x.squeeze(0),
        lambda: x.squeeze((1, 3)),
        lambda: x.squeeze(-1),
        lambda: (x * 1).squeeze_(),
        lambda: (x * 1).squeeze_((-1, 0)),
    ]
    out = [_second(T, f() ** 2, x) for f in fs]
    out.append(_second(T, s.squeeze() ** 2, s))
    out.append(_second(T, s.squeeze(0) ** 2, s))
    (g,) = T.autograd.grad(x.squeeze().sum(), x)
    return out, g


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
