"""Programs on the memory layout of results, second round: the strides torch gives the results
of advanced indexing (its index kernel's TensorIterator over a restrided input and the index
tensors), of convolutions (contiguous transposed convolutions, channels-last 1-d and 3-d
ones), of pooling (max_pool1d's no-grad kernel, 3-d channels-last pools), of the losses and
activations whose kernels write a fresh contiguous tensor (nll_loss and cross_entropy with
reduction='none', rrelu in eval, tril/triu, pairwise_distance, nanmedian), of pow with a
number base, ldexp, unravel_index, complex/polar, native_dropout, and of copies of broadcast
(expanded) tensors (exp, to(), flip, pow), which numpy's 'K' order would lay out with the
broadcast dim innermost. Each program returns strides and contiguity with the values and
gradients, and what a view() afterwards does.
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


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _lay(t: Any) -> Any:
    return tuple(t.shape), t.stride(), t.is_contiguous()


def _layouts(T: Any) -> dict[str, Any]:
    base = T.arange(2 * 3 * 4 * 5, dtype=T.float32).reshape(2, 3, 4, 5) / 60 - 0.9
    return {
        "contiguous": base,
        "transposed": base.transpose(1, 3),
        "permuted": base.permute(3, 1, 0, 2),
        "channels_last": base.contiguous(memory_format=T.channels_last),
        "sliced": base[:, :, ::2],
        "sliced_t": base.transpose(0, 2)[::2],
    }


def _leaf(T: Any, t: Any) -> Any:
    """A leaf that requires grad with t's strides (a detached view of t's copy)."""
    return t.detach().clone(memory_format=T.preserve_format).requires_grad_(True)


# --- advanced indexing ---------------------------------------------------------------------


@program()
def prog_lr2_index_list_on_transposed_3d(T: Any) -> Any:
    x = T.arange(24.0).reshape(2, 3, 4).transpose(1, 2)
    y = x[[0, 1, 0]]
    return _lay(y), y, raises(lambda: y.view(-1)), y.reshape(-1)


@program()
def prog_lr2_index_kinds_over_layouts(T: Any) -> Any:
    kinds = {
        "first": lambda: (T.tensor([0, 1, 0]),),
        "second": lambda: (slice(None), T.tensor([1, 0])),
        "third_2d": lambda: (slice(None), slice(None), T.tensor([[0, 1], [1, 0]]).t()),
        "apart": lambda: (T.tensor([0, 1]), slice(None), T.tensor([1, 0])),
        "last_2d": lambda: (Ellipsis, T.tensor([[0, 1, 0], [1, 0, 1]])),
        "broadcast": lambda: (slice(None), T.tensor([[0], [1]]), T.tensor([0, 1, 0])),
        "row_2d": lambda: (T.tensor([[1, 0]]),),
        "t_2d": lambda: (slice(None), T.tensor([[0, 1, 2], [1, 0, 2]]).t()),
        "pair": lambda: (T.tensor([0, 1]), T.tensor([1, 2])),
        "mask": lambda: (slice(None), T.tensor([True, False, True])),
        "int_then": lambda: (0, slice(None), T.tensor([1, 0])),
    }
    out = {}
    for ln, x in _layouts(T).items():
        for kn, idx in kinds.items():
            r = raises(lambda x=x, idx=idx: x[idx()])
            out[ln, kn] = (_lay(r), r) if isinstance(r, T.Tensor) else r
    return out


@program()
def prog_lr2_index_channels_last_batch_pick(T: Any) -> Any:
    x = _x(T, 4, 3, 5, 6).contiguous(memory_format=T.channels_last)
    y = x[[2, 0]]
    z = x[T.tensor([True, False, True, False])]
    return (
        _lay(y),
        y.is_contiguous(memory_format=T.channels_last),
        _lay(z),
        z.is_contiguous(memory_format=T.channels_last),
        y,
        raises(lambda: y.view(2, -1)),
    )


@program()
def prog_lr2_index_noncontiguous_index_tensor(T: Any) -> Any:
    x = _x(T, 6, 5)
    i = T.tensor([[0, 4, 2], [1, 1, 3]]).t()  # (3, 2), strides (1, 3)
    y = x[i]
    z = x[:, i[:, :1].t()]
    return _lay(y), y, _lay(z), z, raises(lambda: y.view(-1))


@program()
def prog_lr2_index_backward_through_layouts(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        leaf = _leaf(T, x)
        y = leaf[:, [2, 0]] * T.arange(1.0, 3.0).reshape(1, 2, 1, 1)
        y.sum().backward()
        out[ln] = (_lay(y), y, y.grad_fn, leaf.grad, _lay(leaf.grad))
    return out


@program()
def prog_lr2_index_select_and_gather_contiguous(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        a = x.index_select(1, T.tensor([2, 0]))
        b = x.gather(1, T.zeros(x.shape[0], 2, *x.shape[2:], dtype=T.long))
        c = T.take_along_dim(x, T.zeros(1, 1, 1, 1, dtype=T.long), 2)
        out[ln] = (_lay(a), _lay(b), _lay(c), a.sum(), b.sum(), c.sum())
    return out


@program()
def prog_lr2_index_put_and_mask_keep_layout(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        a = x.index_put((T.tensor([0]),), T.tensor(5.0))
        b = x.masked_fill(x > 0, 1.0)
        c = x.masked_select(x > 0)
        out[ln] = (_lay(a), _lay(b), _lay(c), a.sum(), b.sum(), c.sum())
    return out


# --- convolutions --------------------------------------------------------------------------


@program()
def prog_lr2_conv_transpose_padding_contiguous(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 4, 3, 3, rg=True)
    w = _x(T, 4, 3, 3, 3, seed=1)
    y = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)
    y.pow(2).sum().backward()
    return _lay(y), y.view(2, -1).sum(1), y, x.grad, _lay(x.grad)


@program()
def prog_lr2_conv_transpose_1d_3d_padding_contiguous(T: Any) -> Any:
    F = T.nn.functional
    x1 = _x(T, 2, 4, 5)
    w1 = _x(T, 4, 3, 3, seed=1)
    x3 = _x(T, 1, 2, 3, 3, 3, seed=2)
    w3 = _x(T, 2, 3, 3, 3, 3, seed=3)
    y1 = F.conv_transpose1d(x1, w1, stride=2, padding=2, output_padding=1)
    y3 = F.conv_transpose3d(x3, w3, stride=2, padding=1)
    return _lay(y1), y1, _lay(y3), y3.sum(), raises(lambda: y3.view(-1).shape)


@program()
def prog_lr2_conv_transpose_output_padding_past_stride(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 4, 4, rg=True)
    w = _x(T, 3, 2, 3, 3, seed=1)
    y = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=2, dilation=3)
    y.sum().backward()
    return _lay(y), y.sum(), _lay(x.grad), x.grad


@program()
def prog_lr2_fold_padding_contiguous(T: Any) -> Any:
    F = T.nn.functional
    cols = _x(T, 2, 12, 36, rg=True)
    y = F.fold(cols, (5, 5), 2, padding=1)
    y.sum().backward()
    return _lay(y), y, y.grad_fn, cols.grad


@program()
def prog_lr2_conv_input_grad_padding_layouts(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 4, 3, 3, 3, seed=1)
    out = {}
    for name, x in {
        "contiguous": _x(T, 2, 3, 5, 5),
        "channels_last": _x(T, 2, 5, 5, 3).permute(0, 3, 1, 2),
        "transposed": _x(T, 2, 3, 5, 5).transpose(2, 3),
    }.items():
        leaf = _leaf(T, x)
        y = F.conv2d(leaf, w, padding=1)
        y.sum().backward()
        out[name] = (_lay(y), _lay(leaf.grad), leaf.grad)
    return out


@program()
def prog_lr2_conv1d_weight_decides_layout(T: Any) -> Any:
    F = T.nn.functional
    xc = _x(T, 2, 3, 5)
    wc = _x(T, 4, 3, 3, seed=1)
    xl = xc.transpose(1, 2).contiguous().transpose(1, 2)  # (N, C, L) with strides (15, 1, 3)
    wl = wc.transpose(1, 2).contiguous().transpose(1, 2)
    out = {}
    for name, (x, w) in {
        "both": (xl, wl),
        "weight": (xc, wl),
        "input": (xl, wc),
        "neither": (xc, wc),
        "double": (xl.double(), wl.double()),
        "unbatched": (xl[0], wl),
    }.items():
        y = F.conv1d(x, w, padding=1)
        out[name] = (_lay(y), y)
    return out


@program()
def prog_lr2_conv1d_channels_last_like_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _leaf(T, _x(T, 2, 5, 3).transpose(1, 2))
    w = _leaf(T, _x(T, 4, 3, 3, seed=1).transpose(1, 2).contiguous().transpose(1, 2))
    y = F.conv1d(x, w)
    (y * y).sum().backward()
    return _lay(y), y, _lay(x.grad), x.grad, _lay(w.grad), w.grad


@program()
def prog_lr2_conv3d_channels_last_3d(T: Any) -> Any:
    F = T.nn.functional
    cl3 = T.channels_last_3d
    x = _x(T, 2, 4, 3, 3, 3).contiguous(memory_format=cl3)
    w = _x(T, 5, 4, 2, 2, 2, seed=1)
    out = {
        "input": F.conv3d(x, w),
        "weight": F.conv3d(x.contiguous(), w.contiguous(memory_format=cl3)),
        "double": F.conv3d(x.double(), w.double()),
        "batch1_1x1": F.conv3d(x[:1], _x(T, 3, 4, 1, 1, 1, seed=2)),
        # (a batch of one with groups is left out: torch's choice of its mkldnn path there
        # differs between machines and thread settings, channels-last-3d on one, contiguous on
        # another, as the main job and CI found)
        "batch1_big_kernel": F.conv3d(x[:1], _x(T, 3, 4, 1, 4, 4, seed=4), padding=(0, 1, 1)),
        "transposed": F.conv_transpose3d(x, w.transpose(0, 1).contiguous()),
    }
    return {k: (_lay(v), v.is_contiguous(memory_format=cl3), v.sum()) for k, v in out.items()}


@program()
def prog_lr2_conv3d_channels_last_3d_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _leaf(T, _x(T, 2, 3, 3, 3, 2).contiguous(memory_format=T.channels_last_3d))
    w = _leaf(T, _x(T, 4, 3, 2, 2, 2, seed=1))
    y = F.conv3d(x, w, padding=1)
    y.sum().backward()
    return _lay(y), _lay(x.grad), _lay(w.grad), x.grad, w.grad


# --- pooling -------------------------------------------------------------------------------


@program()
def prog_lr2_max_pool1d_no_grad_kernel_contiguous(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 6, 3).transpose(1, 2)
    y = F.max_pool1d(x, 2)
    v, i = F.max_pool1d(x, 2, return_indices=True)
    u = F.max_pool1d(x[0], 2)
    return (
        _lay(y),
        y._base is None,
        y.grad_fn,
        _lay(v),
        _lay(i),
        v._base is None,
        _lay(u),
        y,
        i,
        y.view(-1),
    )


@program()
def prog_lr2_max_pool1d_grad_follows_input(T: Any) -> Any:
    F = T.nn.functional
    x = _leaf(T, _x(T, 2, 6, 3).transpose(1, 2))
    y = F.max_pool1d(x, 2)
    y.sum().backward()
    with T.no_grad():
        z = F.max_pool1d(x, 2)
    return _lay(y), y._base is None, y.grad_fn, _lay(z), z._base is None, x.grad


@program()
def prog_lr2_lp_and_avg_pool1d_layouts(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 6, 3).transpose(1, 2).abs()
    return (
        _lay(F.lp_pool1d(x, float("inf"), 2)),
        _lay(F.lp_pool1d(x, 2.0, 2)),
        _lay(F.avg_pool1d(x, 2)),
        _lay(F.adaptive_max_pool1d(x, 2)),
        _lay(F.adaptive_avg_pool1d(x, 2)),
        F.lp_pool1d(x, float("inf"), 2),
        F.lp_pool1d(x, 2.0, 2),
    )


@program()
def prog_lr2_max_pool3d_channels_last_3d(T: Any) -> Any:
    F = T.nn.functional
    x = _leaf(T, _x(T, 2, 3, 4, 4, 4).contiguous(memory_format=T.channels_last_3d))
    y, i = F.max_pool3d(x, 2, return_indices=True)
    y.sum().backward()
    return (
        _lay(y),
        _lay(i),
        y.is_contiguous(memory_format=T.channels_last_3d),
        _lay(x.grad),
        y,
        i,
        x.grad.sum(),
    )


@program()
def prog_lr2_avg_and_adaptive_pool3d_layouts(T: Any) -> Any:
    F = T.nn.functional
    cl = _x(T, 2, 4, 4, 4, 4).contiguous(memory_format=T.channels_last_3d)
    perm = _x(T, 2, 4, 4, 4, 4, seed=1).permute(0, 2, 1, 3, 4)
    out = {}
    for name, x in (("cl3d", cl), ("permuted", perm), ("unbatched", perm[0])):
        r = {
            "avg": F.avg_pool3d(x, 2),
            "adaptive_avg_1": F.adaptive_avg_pool3d(x, 1),
            "adaptive_avg_2": F.adaptive_avg_pool3d(x, 2),
            "adaptive_avg_211": F.adaptive_avg_pool3d(x, (2, 1, 1)),
            "adaptive_max": F.adaptive_max_pool3d(x, 2),
            "max": F.max_pool3d(x, 2),
        }
        out[name] = {k: (_lay(v), v.sum()) for k, v in r.items()}
    return out


@program()
def prog_lr2_pool2d_layouts_with_grads(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    for name, x in {
        "transposed": _x(T, 2, 3, 6, 6).transpose(2, 3),
        "channels_last": _x(T, 2, 3, 6, 6).contiguous(memory_format=T.channels_last),
    }.items():
        r = {}
        for pn, fn in {
            "max": lambda t: F.max_pool2d(t, 2),
            "avg": lambda t: F.avg_pool2d(t, 2),
            "amax": lambda t: F.adaptive_max_pool2d(t, 2),
            "aavg": lambda t: F.adaptive_avg_pool2d(t, 2),
            "lp": lambda t: F.lp_pool2d(t, 2, 2),
        }.items():
            leaf = _leaf(T, x)
            y = fn(leaf)
            y.sum().backward()
            r[pn] = (_lay(y), _lay(leaf.grad), y.sum())
        out[name] = r
    return out


# --- kernels writing fresh contiguous results ----------------------------------------------


@program()
def prog_lr2_nll_and_cross_entropy_none_contiguous(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 4, rg=True)
    t = T.tensor([[0, 2, 1, 1], [2, 0, 0, 1]]).t().contiguous().t()  # strides (1, 2)
    a = F.nll_loss(x, t, reduction="none")
    b = F.cross_entropy(x, t, reduction="none")
    x2 = _x(T, 2, 3, 4, 5, seed=1)
    t2 = T.zeros(2, 5, 4, dtype=T.long).transpose(1, 2)
    c = F.nll_loss(x2, t2, reduction="none")
    (a.sum() + b.sum()).backward()
    return _lay(a), _lay(b), _lay(c), a, b, x.grad, a.view(-1)


@program()
def prog_lr2_rrelu_eval_contiguous(T: Any) -> Any:
    F = T.nn.functional
    x = _leaf(T, _x(T, 4, 3).t())
    y = F.rrelu(x)
    y.sum().backward()
    z = F.rrelu(_x(T, 2, 3, 4, seed=1).permute(2, 0, 1))
    w = F.rrelu(_x(T, 3, 2, seed=2).t(), 0.1, 0.3)
    return _lay(y), y, y.grad_fn, x.grad, _lay(z), z, _lay(w), w, y.view(-1)


@program()
def prog_lr2_tril_triu_contiguous(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        a = x.tril()
        b = x.triu(1)
        c = T.tril(x, -1)
        out[ln] = (_lay(a), _lay(b), _lay(c), a.sum(), b.sum(), c.sum())
    leaf = _leaf(T, _x(T, 4, 3).t())
    y = leaf.triu()
    y.sum().backward()
    out["grad"] = (_lay(y), y.grad_fn, leaf.grad)
    return out


@program()
def prog_lr2_pairwise_distance_and_norm_dim(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    for ln, x in _layouts(T).items():
        y = x * 0.5 + 0.1
        a = F.pairwise_distance(x, y)
        b = F.pairwise_distance(x, y, p=1.0, keepdim=True)
        c = T.norm(x, 2, 2)
        d = x.norm(dim=-1)
        out[ln] = (_lay(a), _lay(b), _lay(c), _lay(d), a.sum(), b.sum(), c.sum())
    return out


@program()
def prog_lr2_nanmedian_dim_contiguous(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        v, i = x.nanmedian(1)
        m, j = x.median(2, keepdim=True)
        out[ln] = (_lay(v), _lay(i), _lay(m), _lay(j), v, i)
    x = _layouts(T)["transposed"].clone()
    x[0, 1, 0, 0] = float("nan")
    out["nan"] = x.nanmedian(1), x.median(1)
    return out


# --- pow with a number base, ldexp, unravel_index, complex ---------------------------------


@program()
def prog_lr2_pow_number_base_contiguous(T: Any) -> Any:
    x = _leaf(T, _x(T, 3, 2).t())
    a = T.pow(2, x)
    b = 2**x
    c = T.pow(2.0, x.detach().long())
    d = T.float_power(2, x.detach())
    e = T.pow(1, x.detach())
    (a + b).sum().backward()
    return _lay(a), _lay(b), _lay(c), _lay(d), _lay(e), a, b.grad_fn, x.grad, a.view(-1)


@program()
def prog_lr2_ldexp_layouts(T: Any) -> Any:
    x = _x(T, 3, 2).t()
    i = T.tensor([[1, -2], [0, 3], [2, 1]]).t()
    out = {
        "zero_d_self": T.ldexp(T.tensor(2.0), x),
        "zero_d_int_exp": T.ldexp(T.tensor(2.0), i),
        "row_int_exp": T.ldexp(T.ones(3), i),
        "row": T.ldexp(T.ones(3), x),
        "both_t": T.ldexp(x, x),
        "self_c": T.ldexp(T.ones(2, 3), x),
        "exp_c": T.ldexp(x, T.ones(2, 3)),
    }
    return {k: (_lay(v), v) for k, v in out.items()}


@program()
def prog_lr2_unravel_index_layouts(T: Any) -> Any:
    i = T.arange(24).reshape(2, 3, 4).permute(2, 0, 1)
    out = {
        "one_dim": T.unravel_index(T.tensor([[1, 2], [3, 4]]).t(), 5),
        "two_dims": T.unravel_index(T.tensor([[1, 2], [3, 4]]).t(), (5, 6)),
        "permuted": T.unravel_index(i, (2, 3, 4)),
        "sliced": T.unravel_index(i[:, :, ::2], (4, 6)),
        "contiguous": T.unravel_index(T.arange(6).reshape(2, 3), (3, 2)),
    }
    return {k: [(_lay(t), t) for t in v] for k, v in out.items()}


@program()
def prog_lr2_complex_and_polar_follow_inputs(T: Any) -> Any:
    a = _leaf(T, _x(T, 3, 2).t())
    b = _x(T, 2, 3, seed=1)
    z = T.complex(a, b)
    p = T.polar(b.abs(), a)
    (T.view_as_real(z).sum() + p.abs().sum()).backward()
    r = T.complex(_x(T, 2, 3, 4, seed=2).permute(2, 0, 1), T.ones(3))
    return (
        _lay(z),
        _lay(T.view_as_real(z)),
        _lay(p),
        _lay(T.complex(b, a.detach())),
        _lay(r),
        z,
        p,
        a.grad,
    )


# --- dropout -------------------------------------------------------------------------------


@program()
def prog_lr2_native_dropout_mask_follows_input(T: Any) -> Any:
    x = T.arange(24.0).reshape(2, 3, 4).transpose(1, 2)
    out = {}
    for train in (True, False, None):
        T.manual_seed(0)
        o, m = T.native_dropout(x, 0.5, train)
        out[train] = (_lay(o), _lay(m), o, m)
    leaf = _leaf(T, x)
    T.manual_seed(1)
    o, m = T.native_dropout(leaf, 0.25, True)
    o.sum().backward()
    xi = T.arange(24).reshape(2, 3, 4).transpose(1, 2)
    oi, mi = T.native_dropout(xi, 0.5, False)
    return out, o, o.grad_fn, leaf.grad, _lay(leaf.grad), _lay(oi), _lay(mi), mi


@program()
def prog_lr2_native_dropout_empty_input(T: Any) -> Any:
    out = []
    for x in (T.empty(0, 3), T.empty(0, 3, dtype=T.long), T.empty(3, 0).t()):
        for train in (True, False):
            o, m = T.native_dropout(x, 0.5, train)
            out.append((o is x, o.shape, m.shape, m.dtype, m.requires_grad))
    return out


@program()
def prog_lr2_dropout_variants_layouts(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    for ln, x in _layouts(T).items():
        T.manual_seed(0)
        a = F.dropout(x, 0.5)
        b = F.dropout2d(x, 0.5)
        c = F.alpha_dropout(x, 0.5, True)
        out[ln] = (_lay(a), _lay(b), _lay(c), a, b.sum(), c.sum())
    return out


# --- copies of broadcast (expanded) tensors ------------------------------------------------


def _expanded(T: Any) -> dict[str, Any]:
    b = T.arange(120.0).reshape(2, 3, 4, 5) / 50
    return {
        "dim1": b[:, :1].expand(2, 3, 4, 5),
        "dim2": b[:, :, :1].expand(2, 3, 4, 5),
        "row": T.arange(5.0).expand(4, 3, 5) / 5,
        "col_t": T.arange(4.0).reshape(4, 1).expand(4, 3).t(),
        "middle": T.ones(4, 1, 5).expand(4, 3, 5),
    }


@program()
def prog_lr2_expanded_unary_results_contiguous(T: Any) -> Any:
    out = {}
    for name, e in _expanded(T).items():
        r = {
            "exp": e.exp(),
            "log": (e + 1).log(),
            "sin": e.sin(),
            "tanh": e.tanh(),
            "neg": e.neg(),
            "sigmoid": e.sigmoid(),
            "pow2": e.pow(2),
            "pow_half": e**0.5,
            "pow_tensor": T.pow(e, e),
        }
        out[name] = {k: (_lay(v), v.sum()) for k, v in r.items()}
    return out


@program()
def prog_lr2_expanded_casts_and_flip_contiguous(T: Any) -> Any:
    out = {}
    for name, e in _expanded(T).items():
        r = {
            "double": e.double(),
            "half": e.to(T.float16),
            "int": e.int(),
            "float_same": e.float(),
            "flip0": e.flip(0),
            "flip_last": e.flip(-1),
            "clone": e.clone(),
            "tril": e.tril(),
        }
        out[name] = {k: (_lay(v), v.double().sum()) for k, v in r.items()}
    return out


@program()
def prog_lr2_expanded_results_view_and_grads(T: Any) -> Any:
    x = T.arange(5.0, requires_grad=True)
    e = x.expand(4, 3, 5)
    y = e.exp()
    z = e.double() * 2
    w = e.flip(1)
    (y.view(-1).sum() + z.view(-1).sum() + w.view(12, 5).sum()).backward()
    return _lay(y), _lay(z), _lay(w), y.grad_fn, z.grad_fn, w.grad_fn, x.grad


# --- isin's flat view of the test elements -------------------------------------------------


@program()
def prog_lr2_isin_test_elements_flat_view(T: Any) -> Any:
    x = T.arange(12.0).reshape(3, 4)
    calls = {
        "t_vs_1d": lambda: T.isin(x.t(), T.tensor([1.0])),
        "t_vs_row": lambda: T.isin(x.t(), x[0]),
        "vs_t": lambda: T.isin(x, x.t()),
        "vs_small_t": lambda: T.isin(x.t(), T.ones(2, 2).t()),
        "vs_number": lambda: T.isin(x.t(), 1.0),
        "many_1d": lambda: T.isin(x.t(), T.arange(20.0)),
        "big_elements": lambda: T.isin(T.arange(1000.0), T.arange(16.0).reshape(4, 4).t()),
        "bigger_test": lambda: T.isin(T.arange(1000.0), T.arange(36.0).reshape(6, 6).t()),
        "sliced": lambda: T.isin(x, x[:, ::2]),
        "sliced_t": lambda: T.isin(x, x[:, :2].t()),
        "empty_elements": lambda: T.isin(T.ones(0), x.t()),
        "invert": lambda: T.isin(x, x[:, :2].t(), invert=True),
    }
    out = {}
    for k, f in calls.items():
        r = raises(f)
        out[k] = (_lay(r), r) if isinstance(r, T.Tensor) else r
    return out


@program()
def prog_lr2_casts_keep_dense_layouts(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        r = {
            "double": x.double(),
            "half": x.half(),
            "long": (x * 10).long(),
            "bool": x > 0,
            "to_f64": x.to(T.float64),
            "type": x.type(T.float64),
            "flip": x.flip(1),
            "exp": x.exp(),
            "pow": x.pow(3),
        }
        out[ln] = {k: _lay(v) for k, v in r.items()}
    return out


@program()
def prog_lr2_expanded_large_float32_kernels(T: Any) -> Any:
    # past 2**14 elements the float32 kernels run in float32 (numpy's own ufunc layout)
    small = T.linspace(-1, 1, 7).reshape(7, 1, 1).expand(7, 5, 3)
    big = T.linspace(-1, 1, 40).reshape(40, 1, 1).expand(40, 30, 20)
    out = {}
    for name, e in (("small", small), ("big", big)):
        r = {"exp": e.exp(), "sin": e.sin(), "pow": e.pow(2.5), "log1p": (e + 2).log1p()}
        out[name] = {k: (_lay(v), v.abs().sum()) for k, v in r.items()}
    return out


@program()
def prog_lr2_expanded_in_place_refused(T: Any) -> Any:
    x = T.ones(3, 1).expand(3, 4)
    return (
        raises(lambda: x.exp_()),
        raises(lambda: x.mul_(2)),
        raises(lambda: x.flip(0).view(-1)),
        _lay(x.clone()),
        _lay(x.contiguous()),
        _lay(x.double()),
    )


@program()
def prog_lr2_mask_index_layouts_with_grads(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        leaf = _leaf(T, x)
        m = leaf.detach() > 0
        y = leaf[m] * 2 + leaf[:, T.arange(x.shape[1]) % 2 == 0].sum()
        y.sum().backward()
        out[ln] = (_lay(y), y.sum(), _lay(leaf.grad), leaf.grad.sum())
    return out


@program()
def prog_lr2_conv_transpose_channels_last_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _leaf(T, _x(T, 2, 4, 3, 3).contiguous(memory_format=T.channels_last))
    w = _leaf(T, _x(T, 4, 3, 3, 3, seed=1))
    y = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)
    y.pow(2).sum().backward()
    return (
        _lay(y),
        y.is_contiguous(memory_format=T.channels_last),
        _lay(x.grad),
        _lay(w.grad),
        y.sum(),
        x.grad,
    )


@program()
def prog_lr2_index_views_after_results(T: Any) -> Any:
    x = T.arange(60.0).reshape(3, 4, 5).permute(2, 0, 1)  # (5, 3, 4)
    a = x[[0, 2]]
    b = x[:, [1, 0]]
    c = x[..., T.tensor([[0, 3], [1, 2]])]
    return (
        _lay(a),
        _lay(b),
        _lay(c),
        raises(lambda: a.view(-1)),
        raises(lambda: b.view(5, -1)),
        raises(lambda: c.view(-1)),
        a.reshape(-1),
        c.transpose(-1, -2).is_contiguous(),
    )


@program()
def prog_lr2_bilinear_and_convolution_entry_layouts(T: Any) -> Any:
    F = T.nn.functional
    a = _leaf(T, _x(T, 5, 4).t())
    b = _x(T, 6, 4, seed=1).t()
    w = _x(T, 3, 5, 6, seed=2)
    y = T.bilinear(a, b, w) + F.bilinear(a, b, w, T.ones(3))
    y.sum().backward()
    xc = _x(T, 2, 3, 4, seed=3).transpose(1, 2).contiguous().transpose(1, 2)
    wc = _x(T, 2, 3, 2, seed=4).transpose(1, 2).contiguous().transpose(1, 2)
    cl = _x(T, 2, 3, 4, 4, seed=5).contiguous(memory_format=T.channels_last)
    c1 = T.convolution(xc, wc, None, [1], [0], [1], False, [0], 1)
    c2 = T.convolution(cl, _x(T, 2, 3, 1, 1, seed=6), None, [1], [0], [1], False, [0], 1)
    c3 = T.conv1d(xc, wc)
    return _lay(y), y, a.grad, _lay(a.grad), _lay(c1), _lay(c2), _lay(c3), c1, c2.sum()


@program()
def prog_lr2_index_result_in_place_and_clone(T: Any) -> Any:
    x = _leaf(T, _x(T, 2, 3, 4).permute(2, 0, 1))  # (4, 2, 3), strides (1, 12, 4)
    y = x[[0, 2, 3]]
    y.mul_(2).add_(1)
    z = y.clone()
    w = T.empty_like(y)
    (y * z).sum().backward()
    return (
        _lay(y),
        _lay(z),
        _lay(w),
        _lay(y.contiguous()),
        y.grad_fn,
        x.grad,
        _lay(x.grad),
        raises(lambda: y.view(-1)),
    )


@program()
def prog_lr2_pool1d_indices_and_unbatched(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 6, 3).transpose(1, 2)
    u = x[0]  # unbatched (C, L)
    v, i = F.max_pool1d(u, 2, return_indices=True)
    a = F.adaptive_max_pool1d(x, 2, return_indices=True)
    return (
        _lay(F.max_pool1d(u, 2)),
        F.max_pool1d(u, 2)._base is None,
        _lay(v),
        _lay(i),
        _lay(a[0]),
        _lay(a[1]),
        _lay(F.max_pool1d(x, 3, stride=1, padding=1)),
        _lay(F.max_pool1d(x, 2, ceil_mode=True)),
        v,
        i,
    )


@program()
def prog_lr2_native_dropout_channels_last_and_sliced(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        T.manual_seed(3)
        o, m = T.native_dropout(x, 0.3, True)
        out[ln] = (_lay(o), _lay(m), o.sum(), m.sum())
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
