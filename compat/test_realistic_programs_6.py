"""Realistic programs, sixth set: the tensor API the way data-processing and modelling scripts
use it (advanced indexing and setitem, the scatter/gather family, sorting and counting,
cumulative ops and integer arithmetic, dtype promotion and conversions, creation functions and
numpy interop, seeded random sampling with generators, views, strides and reshaping, printing
with print options). The programs register into test_realistic_programs_3's set and run through
its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns, raises
or warns is compared.
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


def _leaf(T: Any, *shape: int, seed: int = 0, dtype: Any = None) -> Any:
    """A float leaf that requires grad, from numpy data (the same for both libraries)."""
    t = T.tensor(_data(*shape, seed=seed))
    if dtype is not None:
        t = t.to(dtype)
    return t.requires_grad_()


def _layout(t: Any) -> Any:
    """What a view's layout shows: shape, strides, offset, contiguity."""
    return [tuple(t.shape), t.stride(), t.storage_offset(), t.is_contiguous()]


# --- indexing ----------------------------------------------------------------------------------


@program()
def prog_batch_gather_rows_by_label(T: Any) -> Any:
    # pick the logit of the true class per row, then mask out padding rows
    logits = _leaf(T, 5, 4)
    labels = T.tensor([3, 0, 2, 2, 1])
    keep = T.tensor([True, True, False, True, False])
    picked = logits[T.arange(5), labels]
    kept = picked[keep]
    loss = -(kept.log_softmax(0)).sum() + logits[keep][:, 1:].pow(2).sum()
    loss.backward()
    return {
        "picked": picked,
        "kept": kept,
        "loss": loss,
        "g": logits.grad,
        "gf": [picked.grad_fn, kept.grad_fn.name()],
        "neg_label": logits[T.arange(5), labels - 4],
        "oob": raises(lambda: logits[T.arange(5), labels + 2]),
    }


@program()
def prog_mixed_slices_none_ellipsis(T: Any) -> Any:
    x = _leaf(T, 3, 4, 5)
    idx = T.tensor([[0, 2], [1, 1]])
    outs = {
        "a": x[..., idx],
        "b": x[:, None, idx, 1:3],
        "c": x[idx, :, idx],
        "d": x[1:, ..., None, T.tensor([4, 0])],
        "e": x[None, ..., 2],
        "f": x[T.tensor([2, 0]), ::2, -1],
        "g": x[:, [0, 3]][..., [1, 2]],
        "h": x[0, T.tensor([[True, False, True, False]]).squeeze(0)],
    }
    total = sum((v * (i + 1)).sum() for i, v in enumerate(outs.values()))
    total.backward()
    return {
        **outs,
        "shapes": [tuple(v.shape) for v in outs.values()],
        "g": x.grad,
        "two_ell": raises(lambda: x[..., 0, ...]),
        "too_many": raises(lambda: x[0, 0, 0, 0]),
        "neg_step": raises(lambda: x[::-1]),
        "zero_step": raises(lambda: x[::0]),
    }


@program()
def prog_boolean_mask_shapes_and_errors(T: Any) -> Any:
    x = _leaf(T, 4, 3)
    m2 = x.detach() > 0
    m1 = T.tensor([True, False, True, True])
    r = {
        "m2": x[m2],
        "m1": x[m1],
        "m1_col": x[m1, 1],
        "m1_cols": x[m1, 1:],
        "mcol": x[:, T.tensor([False, True, True])],
        "zero_d_true": x[T.tensor(True)],
        "zero_d_false": x[T.tensor(False)],
        "py_true": x[True].shape,
        "py_false": x[False].shape,
        "empty_mask": x[T.zeros(4, dtype=T.bool)],
    }
    (r["m2"].sum() + r["m1_col"].sum() * 2 + r["mcol"].square().sum()).backward()
    r["g"] = x.grad
    r["bad_len"] = raises(lambda: x[T.tensor([True, False])])
    r["bad_2d"] = raises(lambda: x[T.ones(3, 4, dtype=T.bool)])
    r["uint8"] = raises(lambda: x[T.tensor([1, 0, 1, 1], dtype=T.uint8)])
    r["float_idx"] = raises(lambda: x[T.tensor([0.0, 1.0])])
    return r


@program()
def prog_setitem_broadcast_and_casts(T: Any) -> Any:
    x = T.zeros(3, 4)
    x[1] = 7
    x[:, 0] = T.tensor([1.5, 2.5, 3.5], dtype=T.float64)
    x[2, 1:] = T.tensor([9, 8, 7])
    x[x > 8] = -1
    x[[0, 2], [3, 3]] = T.tensor(5.0)
    i = T.zeros(2, 3, dtype=T.int32)
    i[0] = 2.9
    i[1, :] = T.tensor([True, False, True])
    i[:, -1] = -3.7
    b = T.zeros(3, dtype=T.bool)
    b[1] = 5
    c = T.zeros(2, dtype=T.complex64)
    c[0] = 1 + 2j
    c[1] = 3
    return {
        "x": x,
        "i": i,
        "b": b,
        "c": c,
        "bad_shape": raises(lambda: x.__setitem__(0, T.ones(3))),
        "bad_complex": raises(lambda: x.__setitem__(0, 1j)),
        # (a complex tensor into a real one warns once per process: see the fresh-process test)
        "ok_1d_to_row": (x.__setitem__(slice(0, 2), T.arange(4.0)), x)[1],
    }


@program()
def prog_setitem_gradients(T: Any) -> Any:
    w = _leaf(T, 3, 4)
    v = _leaf(T, 2, seed=1)
    s = _leaf(T, 1, seed=2)
    y = w * 1
    y[0, :2] = v
    y[1:, [0, 3]] = s
    y[y.detach() < -0.5] = 0.0
    z = y.clone()
    z[..., 2] += v.sum()
    (z * T.arange(12.0).reshape(3, 4)).sum().backward()
    return {
        "y": y,
        "z": z,
        "gw": w.grad,
        "gv": v.grad,
        "gs": s.grad,
        "gf": [y.grad_fn, z.grad_fn],
        "leaf_err": raises(lambda: w.__setitem__(0, 1.0)),
    }


@program()
def prog_index_put_accumulate_histogram(T: Any) -> Any:
    # accumulate counts and values into bins, as a data script builds a 2-D histogram
    xs = T.tensor([0, 1, 1, 2, 0, 1, 2, 2])
    ys = T.tensor([1, 1, 1, 0, 1, 2, 2, 2])
    counts = T.zeros(3, 3, dtype=T.long)
    counts.index_put_((xs, ys), T.ones(8, dtype=T.long), accumulate=True)
    vals = _leaf(T, 8)
    sums = T.zeros(3, 3).index_put((xs, ys), vals, accumulate=True)
    last = T.zeros(3, 3).index_put((xs[:2], ys[:2]), vals[:2])
    (sums * T.arange(9.0).view(3, 3)).sum().backward()
    h = T.zeros(4)
    h.index_put_((T.tensor([1, 1, 3]),), T.tensor(2.0), accumulate=True)
    return {
        "counts": counts,
        "sums": sums,
        "last": last,
        "g": vals.grad,
        "gf": sums.grad_fn,
        "h": h,
        "bad_dtype": raises(
            lambda: T.zeros(3).index_put_((T.tensor([0]),), T.tensor([1]), accumulate=True)
        ),
        "bad_shape": raises(lambda: T.zeros(3).index_put_((T.tensor([0, 1]),), T.ones(3))),
        "bad_tuple": raises(lambda: T.zeros(3).index_put_(T.tensor([0]), T.ones(1))),
    }


@program()
def prog_index_with_lists_tuples_and_numpy(T: Any) -> Any:
    x = T.arange(24).reshape(4, 6)
    return {
        "list": x[[0, 2]],
        "list2": x[[0, 2], [1, 5]],
        "nested": x[[[0, 1], [2, 3]]],
        "tuple": x[(1, 2)],
        "np": x[np.array([3, 0])],
        "np_bool": x[np.array([True, False, False, True])],
        "np_int": x[np.int64(2)],
        "range": x[range(1, 3)],
        "tensor0d": x[T.tensor(1)],
        "slice_t": x[T.tensor(1) : T.tensor(3)],
        "neg": x[-1, -2],
        "bool_list": x[[True, False, True, False]],
        "mixed_list": raises(lambda: x[[0, 1.5]]),
        "str": raises(lambda: x["a"]),
        "oob": raises(lambda: x[4]),
        "oob_neg": raises(lambda: x[:, -7]),
    }


@program()
def prog_embedding_lookup_by_index_select(T: Any) -> Any:
    table = _leaf(T, 6, 3)
    tokens = T.tensor([[1, 4, 4], [0, 5, 1]])
    a = table.index_select(0, tokens.flatten()).view(2, 3, 3)
    b = table[tokens]
    c = T.index_select(table, 1, T.tensor([2, 0]))
    (a.sum() + (b * b).sum() + c.sum()).backward()
    return {
        "a": a,
        "same": T.equal(a, b),
        "c": c,
        "g": table.grad,
        "gf": [a.grad_fn, b.grad_fn, c.grad_fn],
        "bad_2d": raises(lambda: table.index_select(0, tokens)),
        "bad_float": raises(lambda: table.index_select(0, T.tensor([1.0]))),
        "bad_oob": raises(lambda: table.index_select(0, T.tensor([6]))),
        "int32_ok": table.index_select(0, T.tensor([1, 2], dtype=T.int32)),
    }


@program()
def prog_take_put_take_along_dim(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    flat = T.tensor([0, 5, 11, -1, 5])
    t = x.take(flat)
    order = x.detach().argsort(dim=1)
    tad = T.take_along_dim(x, order, dim=1)
    tad_none = T.take_along_dim(x, T.tensor([3, 0]))
    top = x.detach().argmax(dim=0, keepdim=True)
    tad_b = T.take_along_dim(x, top, dim=0)
    (t.sum() + (tad * T.arange(4.0)).sum() + tad_none.sum() + tad_b.sum()).backward()
    p = T.zeros(2, 3)
    p.put_(T.tensor([0, 4, 4]), T.tensor([1.0, 2.0, 3.0]), accumulate=True)
    q = T.zeros(2, 3).put(T.tensor([5, -6]), T.tensor([7.0, 8.0]))
    return {
        "t": t,
        "tad": tad,
        "tad_none": tad_none,
        "tad_b": tad_b,
        "g": x.grad,
        "gf": [t.grad_fn, tad.grad_fn],
        "p": p,
        "q": q,
        "take_oob": raises(lambda: x.take(T.tensor([12]))),
        "tad_bad": raises(lambda: T.take_along_dim(x, T.tensor([[0]]), dim=2)),
        "put_bad": raises(lambda: T.zeros(2).put_(T.tensor([0, 1]), T.tensor([1.0]))),
    }


# --- scatter / gather family -------------------------------------------------------------------


@program()
def prog_scatter_reduce_all_modes(T: Any) -> Any:
    src = _leaf(T, 6)
    idx = T.tensor([0, 1, 0, 2, 1, 0])
    base = T.tensor([10.0, -1.0, 0.5, 3.0])
    out = {}
    for red in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            out[f"{red}_{inc}"] = base.scatter_reduce(0, idx, src, reduce=red, include_self=inc)
    total = sum((v * (i + 1)).sum() for i, v in enumerate(out.values()))
    total.backward()
    ib = T.tensor([5, 0, 7, 1]).scatter_reduce(0, T.tensor([0, 0, 3]), T.tensor([2, 4, 9]), "mean")
    return {
        **out,
        "g": src.grad,
        "gfs": sorted({type(v.grad_fn).__name__ for v in out.values()}),
        "int_mean": ib,
        "bad_reduce": raises(lambda: base.scatter_reduce(0, idx, src.detach(), reduce="max")),
        "bad_dtype": raises(lambda: base.scatter_reduce(0, idx, src.double(), reduce="sum")),
    }


@program()
def prog_scatter_add_grouped_sums(T: Any) -> Any:
    # per-segment sums and means of a batch of features (graph-style pooling)
    feats = _leaf(T, 7, 3)
    seg = T.tensor([0, 0, 1, 2, 2, 2, 1])
    idx = seg.unsqueeze(1).expand(-1, 3)
    sums = T.zeros(3, 3).scatter_add(0, idx, feats)
    cnt = T.zeros(3).scatter_add_(0, seg, T.ones(7))
    means = sums / cnt.unsqueeze(1)
    s2 = T.zeros(3, 3).scatter(0, idx, feats, reduce="add")
    means.pow(2).sum().backward()
    return {
        "sums": sums,
        "cnt": cnt,
        "means": means,
        "s2": s2,
        "g": feats.grad,
        "gf": [sums.grad_fn, s2.grad_fn],
        "bad_idx_dim": raises(lambda: T.zeros(3, 3).scatter_add(0, seg, feats)),
        "bad_idx_big": raises(lambda: T.zeros(2, 3).scatter_add(0, idx, feats.detach())),
    }


@program()
def prog_scatter_value_and_one_hot(T: Any) -> Any:
    labels = T.tensor([2, 0, 1, 2])
    oh = T.zeros(4, 3).scatter_(1, labels.unsqueeze(1), 1.0)
    smooth = T.full((4, 3), 0.05).scatter(1, labels[:, None], 0.9)
    x = _leaf(T, 4, 3)
    y = x.scatter(1, labels[:, None], 0.0)
    z = x.scatter(1, T.tensor([[0, 1], [1, 2], [2, 0], [0, 0]]), x[:, :2] * 3)
    (y.sum() + z.square().sum()).backward()
    mul = T.ones(2, 3).scatter_(1, T.tensor([[0, 0], [2, 1]]), 2.5, reduce="multiply")
    return {
        "oh": oh,
        "smooth": smooth,
        "y": y,
        "z": z,
        "g": x.grad,
        "mul": mul,
        "gf": [y.grad_fn, z.grad_fn],
        "int_val": T.zeros(2, 2, dtype=T.long).scatter(1, T.tensor([[1], [0]]), 7),
        "bad_reduce": raises(lambda: T.ones(3).scatter(0, T.tensor([0]), 1.0, reduce="mean")),
        "bad_idx_dtype": raises(lambda: T.ones(3).scatter(0, T.tensor([0.0]), 1.0)),
    }


@program()
def prog_gather_beam_search_step(T: Any) -> Any:
    scores = _leaf(T, 2, 5)
    top_v, top_i = scores.topk(3, dim=1)
    back = T.gather(scores, 1, top_i)
    g2 = scores.gather(1, T.tensor([[4, 4], [0, 1]]))
    neg = raises(lambda: scores.gather(1, T.tensor([[-1]])))
    (top_v.sum() + back.prod(1).sum() + g2.sum()).backward()
    return {
        "top_v": top_v,
        "top_i": top_i,
        "back": back,
        "g2": g2,
        "g": scores.grad,
        "gf": [top_v.grad_fn, back.grad_fn],
        "neg": neg,
        "bad_ndim": raises(lambda: scores.gather(1, T.tensor([0, 1]))),
        "bad_size": raises(lambda: scores.gather(1, T.zeros(3, 1, dtype=T.long))),
        "sparse_grad": T.gather(scores, 1, top_i, sparse_grad=False).shape,
    }


@program()
def prog_index_add_copy_fill(T: Any) -> Any:
    base = _leaf(T, 5, 2)
    src = _leaf(T, 3, 2, seed=1)
    idx = T.tensor([4, 0, 4])
    a = base.index_add(0, idx, src, alpha=2.0)
    c = base.index_copy(0, T.tensor([1, 3, 2]), src)
    f = base.index_fill(1, T.tensor([1]), -1.0)
    f2 = base.index_fill(0, T.tensor([0, 2]), T.tensor(9.0))
    (a.sum() + (c * 2).sum() + f.sum() + f2.sum()).backward()
    ia = T.zeros(3, dtype=T.long).index_add_(0, T.tensor([0, 0, 2]), T.tensor([1, 2, 3]))
    return {
        "a": a,
        "c": c,
        "f": f,
        "f2": f2,
        "gb": base.grad,
        "gs": src.grad,
        "gf": [a.grad_fn, c.grad_fn, f.grad_fn, f2.grad_fn],
        "ia": ia,
        "bad_copy": raises(lambda: base.detach().index_copy(0, T.tensor([0]), src.detach())),
        "bad_add_dtype": raises(
            lambda: T.zeros(3).index_add(0, T.tensor([0]), T.ones(1, dtype=T.float64))
        ),
        "bad_fill_t": raises(lambda: T.zeros(3).index_fill(0, T.tensor([0]), T.ones(2))),
    }


@program()
def prog_masked_scatter_select_fill(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    src = _leaf(T, 12, seed=1)
    mask = T.tensor([[True, False, True, False], [False, False, False, True], [True] * 4])
    ms = x.masked_scatter(mask, src.view(3, 4))
    sel = x.masked_select(mask)
    rowmask = T.tensor([True, False, True, True])
    sel_b = x.masked_select(rowmask)
    fl = x.masked_fill(~mask, float("-inf")).softmax(1)
    (ms.sum() * 2 + sel.square().sum() + sel_b.sum() + (fl * T.arange(4.0)).sum()).backward()
    return {
        "ms": ms,
        "sel": sel,
        "sel_b": sel_b,
        "fl": fl,
        "gx": x.grad,
        "gs": src.grad,
        "gf": [ms.grad_fn, sel.grad_fn, fl.grad_fn],
        "too_few": raises(lambda: T.zeros(4).masked_scatter(T.ones(4, dtype=T.bool), T.ones(2))),
        "byte_mask": raises(lambda: T.zeros(2).masked_fill(T.tensor([1, 0]), 1.0)),
        "fill_t_bad": raises(lambda: T.zeros(2).masked_fill(T.tensor([True, False]), T.ones(2))),
    }


# --- sorting, selection, counting ------------------------------------------------------------


@program()
def prog_sort_stable_ties_and_grads(T: Any) -> Any:
    x = T.tensor([3.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0], requires_grad=True)
    s, i = x.sort(stable=True)
    sd, idd = x.sort(descending=True, stable=True)
    a = T.argsort(x.detach(), stable=True, descending=True)
    w = T.arange(7.0)
    (s * w).sum().backward()
    g1 = x.grad.clone()
    ints = T.tensor([5, -2, 5, 0, -2])
    nan = T.tensor([1.0, float("nan"), -1.0, float("nan"), 0.0])
    return {
        "s": s,
        "i": i,
        "sd": sd,
        "idd": idd,
        "a": a,
        "g": g1,
        "gf": s.grad_fn,
        "ints": ints.sort(stable=True),
        "ints_desc": ints.sort(descending=True, stable=True),
        "nan": nan.sort(),
        "nan_desc": nan.sort(descending=True),
        "bools": T.tensor([True, False, True]).sort(stable=True),
        "dim0": T.tensor([[2, 1], [1, 2], [0, 3]]).sort(dim=0, stable=True),
        "msort": T.msort(T.tensor([[3.0, 1.0], [2.0, 4.0]])),
    }


@program()
def prog_topk_kthvalue_median_mode(T: Any) -> Any:
    x = _leaf(T, 3, 5)
    tv, ti = x.topk(2, dim=1, largest=False, sorted=True)
    kv, ki = x.kthvalue(2, dim=1, keepdim=True)
    mv, mi = x.median(dim=0)
    med = x.median()
    nmed = T.tensor([1.0, float("nan"), 3.0]).nanmedian()
    (tv.sum() + kv.sum() + mv.sum() + med).backward()
    ints = T.tensor([[1, 2, 2, 3, 3], [4, 4, 1, 1, 0]])
    return {
        "tv": tv,
        "ti": ti,
        "kv": kv,
        "ki": ki,
        "mv": mv,
        "mi": mi,
        "med": med,
        "nmed": nmed,
        "g": x.grad,
        "gf": [tv.grad_fn, kv.grad_fn, mv.grad_fn, med.grad_fn],
        "mode": ints.mode(dim=1),
        "mode0": T.tensor([2.0, 2.0, 1.0, 1.0, 5.0]).mode(),
        "median_even": T.tensor([1, 4, 2, 3]).median(),
        "median_nan": T.tensor([1.0, float("nan"), 0.0]).median(),
        "topk_big": raises(lambda: x.topk(6, dim=1)),
        "kth_bad": raises(lambda: x.kthvalue(0, dim=1)),
        "kth_big": raises(lambda: x.kthvalue(6, dim=1)),
        "nt": type(x.topk(1)).__name__,
        "fields": [x.detach().kthvalue(1).values, x.detach().kthvalue(1).indices],
    }


@program()
def prog_unique_variants(T: Any) -> Any:
    x = T.tensor([3, 1, 2, 3, 1, 7, 2, 2])
    u, inv, cnt = T.unique(x, return_inverse=True, return_counts=True)
    rows = T.tensor([[1, 2], [3, 4], [1, 2], [0, 9], [3, 4]])
    ur, ir, cr = T.unique(rows, dim=0, return_inverse=True, return_counts=True)
    uc = T.unique(rows, dim=1)
    f = T.tensor([0.5, -0.0, 0.0, 0.5, float("nan"), float("nan")])
    return {
        "u": u,
        "inv": inv,
        "cnt": cnt,
        "ur": ur,
        "ir": ir,
        "cr": cr,
        "uc": uc,
        "method": x.unique(sorted=True),
        "float": T.unique(f),
        "bool": T.unique(T.tensor([True, False, True]), return_counts=True),
        "empty": T.unique(T.tensor([], dtype=T.long), return_inverse=True),
        "2d_flat": T.unique(rows, return_inverse=True),
        "consec": T.unique_consecutive(x, return_inverse=True, return_counts=True),
        "consec_dim": T.unique_consecutive(rows, dim=0),
        "consec_f": T.tensor([1.0, 1.0, 2.0, 1.0]).unique_consecutive(),
        "bad_dim": raises(lambda: T.unique(rows, dim=2)),
    }


@program()
def prog_searchsorted_bucketize_binning(T: Any) -> Any:
    edges = T.tensor([0.0, 1.0, 2.5, 4.0])
    vals = T.tensor([-1.0, 0.0, 1.0, 1.5, 2.5, 4.0, 9.0])
    seq2 = T.tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
    return {
        "left": T.searchsorted(edges, vals),
        "right": T.searchsorted(edges, vals, right=True),
        "side": T.searchsorted(edges, vals, side="right"),
        "i32": T.searchsorted(edges, vals, out_int32=True),
        "2d": T.searchsorted(seq2, T.tensor([[3, 6], [1, 9]])),
        "scalar": T.searchsorted(edges, 2.0),
        "sorter": T.searchsorted(
            T.tensor([4.0, 0.0, 2.5, 1.0]), vals, sorter=T.tensor([1, 3, 2, 0])
        ),
        "bucket": T.bucketize(vals, edges),
        "bucket_r": T.bucketize(vals, edges, right=True, out_int32=True),
        "bucket_int": T.bucketize(T.tensor([1, 5, 8]), T.tensor([2, 4, 6])),
        "bucket_scalar": T.bucketize(3, edges),
        "mixed_dtype": T.searchsorted(edges, T.tensor([1, 3])),
        "bad_side": raises(lambda: T.searchsorted(edges, vals, side="middle")),
        "bad_conflict": raises(lambda: T.searchsorted(edges, vals, right=False, side="right")),
        "bad_shape": raises(lambda: T.searchsorted(seq2, T.tensor([1, 2]))),
        "bad_bound_2d": raises(lambda: T.bucketize(vals, seq2.float())),
    }


@program()
def prog_histc_bincount_counting(T: Any) -> Any:
    x = T.tensor([0.1, 0.4, 0.4, 0.9, 1.0, -0.2, 2.0, 0.5])
    lab = T.tensor([0, 2, 2, 5, 1, 0])
    w = T.tensor([0.5, 1.0, 1.0, 2.0, 0.25, 0.5])
    return {
        "histc": T.histc(x, bins=4, min=0, max=1),
        "histc_auto": x.histc(bins=3),
        "histc_const": T.histc(T.tensor([2.0, 2.0]), bins=4),
        "bincount": T.bincount(lab),
        "bincount_w": lab.bincount(w),
        "bincount_min": T.bincount(lab, minlength=8),
        "bincount_empty": T.bincount(T.tensor([], dtype=T.long), minlength=3),
        "bincount_wi": T.bincount(lab, weights=T.tensor([1, 2, 3, 4, 5, 6])),
        "bincount_w32": T.bincount(lab, weights=w.float().half()),
        "count_nonzero": T.count_nonzero(T.tensor([[0, 1, 2], [0, 0, 3]]), dim=0),
        "count_nonzero_all": T.tensor([0.0, -0.0, 1e-30]).count_nonzero(),
        "count_nz_dims": T.ones(2, 3, 4).count_nonzero(dim=(0, 2)),
        "bad_neg": raises(lambda: T.bincount(T.tensor([1, -1]))),
        "bad_2d": raises(lambda: T.bincount(T.tensor([[1]]))),
        "bad_float": raises(lambda: T.bincount(T.tensor([1.0]))),
        "bad_bins": raises(lambda: T.histc(x, bins=0)),
        "bad_range": raises(lambda: T.histc(x, bins=3, min=2, max=1)),
        "histc_int": raises(lambda: T.histc(T.tensor([1, 2]), bins=2)),
    }


# --- cumulative ops, integer arithmetic, promotion and conversions ---------------------------


@program()
def prog_running_stats_with_cumulative_ops(T: Any) -> Any:
    x = _leaf(T, 2, 5)
    cs = x.cumsum(1)
    cp = x.cumprod(dim=1)
    cmv, cmi = x.cummax(1)
    cnv, cni = T.cummin(x, dim=0)
    lse = x.logcumsumexp(1)
    running_mean = cs / T.arange(1, 6)
    (cs.sum() + cp.sum() + cmv.sum() + cnv.sum() * 2 + lse.sum() + running_mean.sum()).backward()
    ints = T.tensor([[1, 2, 3], [4, 5, 6]])
    return {
        "cs": cs,
        "cp": cp,
        "cmv": cmv,
        "cmi": cmi,
        "cnv": cnv,
        "cni": cni,
        "lse": lse,
        "rm": running_mean,
        "g": x.grad,
        "gf": [cs.grad_fn, cp.grad_fn, cmv.grad_fn, lse.grad_fn],
        "int_cumsum": ints.cumsum(0),
        "int_cumsum_f": ints.cumsum(1, dtype=T.float32),
        "bool_cumsum": T.tensor([True, False, True]).cumsum(0),
        "i8_cumprod": T.tensor([2, 3, 4], dtype=T.int8).cumprod(0),
        "cummax_ties": T.tensor([1, 3, 3, 2, 3]).cummax(0),
        "cummax_nan": T.tensor([1.0, float("nan"), 2.0]).cummax(0),
        "lcse_inf": T.tensor([float("-inf"), 0.0, float("-inf")]).logcumsumexp(0),
        "bad_dim": raises(lambda: x.cumsum(2)),
        "lcse_int": raises(lambda: ints.logcumsumexp(0)),
    }


@program()
def prog_diff_and_finite_differences(T: Any) -> Any:
    t = T.linspace(0, 1, 6, requires_grad=True)
    y = t.pow(3)
    d1 = T.diff(y)
    d2 = y.diff(n=2)
    dp = T.diff(y, prepend=T.tensor([0.0]), append=T.tensor([2.0, 3.0]))
    (d1.sum() + d2.square().sum() + dp.sum()).backward()
    m = T.tensor([[1, 4, 9], [16, 25, 36]])
    return {
        "d1": d1,
        "d2": d2,
        "dp": dp,
        "g": t.grad,
        "gf": [d1.grad_fn, d2.grad_fn, dp.grad_fn],
        "m0": m.diff(dim=0),
        "m1": m.diff(dim=-1, n=2),
        "bool": T.tensor([True, True, False]).diff(),
        "n0": m.diff(n=0),
        "n_big": m.diff(n=5),
        "grad_fn_gradient": T.gradient(T.tensor([1.0, 4.0, 9.0, 16.0])),
        "gradient_spacing": T.gradient(T.tensor([[1.0, 2.0, 4.0], [2.0, 5.0, 9.0]]), spacing=2.0),
        "gradient_dim": T.gradient(
            T.tensor([[1.0, 2.0, 4.0], [2.0, 5.0, 9.0]]), dim=1, edge_order=2
        ),
        "bad_prepend": raises(lambda: m.diff(prepend=T.tensor([1]))),
        "neg_n": raises(lambda: m.diff(n=-1)),
        "zero_d": raises(lambda: T.tensor(1.0).diff()),
    }


@program()
def prog_integer_division_rounding(T: Any) -> Any:
    a = T.tensor([7, -7, 7, -7, 0, 5])
    b = T.tensor([2, 2, -2, -2, 3, 5])
    af = a.float()
    bf = b.float()
    return {
        "true": a / b,
        "floor_div": a // b,
        "floor_divide": T.floor_divide(a, b),
        "trunc": T.div(a, b, rounding_mode="trunc"),
        "floor": T.div(a, b, rounding_mode="floor"),
        "f_trunc": af.div(bf, rounding_mode="trunc"),
        "f_floor": af.div(3.5, rounding_mode="floor"),
        "rem": a % b,
        "remainder": T.remainder(a, -3),
        "fmod": T.fmod(a, 3),
        "fmod_f": T.fmod(af, -2.5),
        "rem_f": T.remainder(af, -2.5),
        "rem_scalar_first": T.remainder(7, b),
        "int_scalar_div": a / 2,
        "int_floor_scalar": a // 2.5,
        "rpow": 2**b,
        "neg_pow": raises(lambda: a ** T.tensor(-1)),
        "zero_div_int": raises(lambda: a // T.zeros(6, dtype=T.long)),
        "zero_rem_int": raises(lambda: a % 0),
        "zero_div_float": af // 0,
        "f_rem_zero": af % 0.0,
        "bad_mode": raises(lambda: T.div(a, b, rounding_mode="round")),
        "u8_wrap": T.tensor([250], dtype=T.uint8) + 10,
        "i8_div": T.tensor([-128], dtype=T.int8) // -1,
    }


@program()
def prog_division_gradients(T: Any) -> Any:
    x = T.tensor([3.5, -2.25, 7.0, -0.5], requires_grad=True)
    y = T.tensor([2.0, 1.5, -3.0, 0.25], requires_grad=True)
    outs = {
        "div": x / y,
        "trunc": T.div(x, y, rounding_mode="trunc"),
        "floor": x.div(y, rounding_mode="floor"),
        "rem": x % y,
        "fmod": T.fmod(x, y),
        "rem_s": T.remainder(x, 1.5),
        "rdiv": 3 / x,
    }
    grads = {}
    for k, v in outs.items():
        gx, gy = T.autograd.grad(v.sum(), (x, y), allow_unused=True)
        grads[k] = [gx, gy]
    return {**outs, "grads": grads, "gf": {k: v.grad_fn for k, v in outs.items()}}


@program()
def prog_scalar_promotion_matrix(T: Any) -> Any:
    i32 = T.tensor([1, 2], dtype=T.int32)
    u8 = T.tensor([200, 100], dtype=T.uint8)
    f16 = T.tensor([1.5, 2.0], dtype=T.float16)
    b = T.tensor([True, False])
    z0 = T.tensor(2.5, dtype=T.float64)
    zi = T.tensor(3)
    c = T.tensor([1 + 1j])
    res = {
        "i32+1": i32 + 1,
        "i32+1.5": i32 + 1.5,
        "i32*True": i32 * True,
        "u8+1": u8 + 1,
        "u8+i8": u8 + T.tensor([1], dtype=T.int8),
        "u8-300": raises(lambda: u8 + 300),
        "f16+1.0": f16 + 1.0,
        "f16+f64_0d": f16 + z0,
        "i32+f64_0d": i32 + z0,
        "i32+long0d": i32 + zi,
        "b+b": b + b,
        "b*2.5": b * 2.5,
        "b-b": raises(lambda: b - b),
        "neg_b": raises(lambda: -b),
        "i32+c": i32 + 1j,
        "f16*c": f16 * c,
        "c+f64": c + T.tensor([1.0], dtype=T.float64),
        "result_type": [
            T.result_type(i32, 1.0),
            T.result_type(u8, -1),
            T.result_type(f16, z0),
            T.result_type(b, True),
            T.result_type(2, 3.0),
            T.result_type(zi, i32),
        ],
        "promote": [T.promote_types(T.uint8, T.int8), T.promote_types(T.float16, T.int64)],
        "can_cast": [T.can_cast(T.float32, T.int32), T.can_cast(T.int32, T.float16)],
        "iadd_float": raises(lambda: i32.clone().add_(1.5)),
        "iadd_0d": raises(lambda: i32.clone().add_(T.tensor(2.0, dtype=T.float64))),
        "iadd_0d_int": i32.clone().add_(T.tensor(2, dtype=T.int64)),
    }
    return res


@program()
def prog_bitwise_ops_and_shifts(T: Any) -> Any:
    a = T.tensor([12, 10, -3, 0], dtype=T.int32)
    b = T.tensor([10, 6, 1, 7], dtype=T.int32)
    u = T.tensor([0b1010, 255], dtype=T.uint8)
    flags = T.tensor([True, False, True])
    return {
        "and": a & b,
        "or": a | b,
        "xor": a ^ b,
        "not": ~a,
        "and_fn": T.bitwise_and(a, 5),
        "or_scalar_left": 3 | a,
        "lshift": a << 2,
        "rshift": a >> 1,
        "lshift_t": T.bitwise_left_shift(a, b),
        "rshift_neg": T.tensor([-16]) >> 2,
        "u8_not": ~u,
        "u8_shift": u << 1,
        "bool_ops": [flags & T.tensor([True, True, False]), ~flags, flags ^ True],
        "logical": [
            T.logical_and(a, b),
            T.logical_xor(a, T.tensor(0)),
            T.logical_not(T.tensor([0.0, 1.5])),
        ],
        "float_bad": raises(lambda: T.tensor([1.0]) & T.tensor([1.0])),
        "float_shift": raises(lambda: T.tensor([1.5]) << 2),
        "invert_float": raises(lambda: ~T.tensor([1.0])),
        "iand": (a.clone().__iand__(b)),
        "count_bits_via_loop": sum(((a & (1 << k)) != 0).long() for k in range(4)),
    }


@program()
def prog_type_conversions(T: Any) -> Any:
    x = T.tensor([-1.7, -0.5, 0.5, 2.5, 300.9])
    x_rg = T.tensor([1.25, -2.5], requires_grad=True)
    h = x_rg.half()
    d = x_rg.to(T.float64)
    lg = x_rg.long()
    (h.float().sum() + d.sum()).backward()
    return {
        "long": x.long(),
        "int": x.int(),
        "u8": x[:4].to(T.uint8),
        "bool": x.bool(),
        "half": x.half(),
        "double": x.double(),
        "type_str": x.type(),
        "type_to": x.type(T.int16),
        "type_name": x.type("torch.DoubleTensor"),
        "to_like": x.to(T.tensor([1], dtype=T.int8)),
        "to_same": x.to(T.float32) is x,
        "to_copy": x.to(T.float32, copy=True) is x,
        "to_kw": x.to(dtype=T.float16, device="cpu"),
        "h": h,
        "d": d,
        "l": lg,
        "g": x_rg.grad,
        "gf": [h.grad_fn, d.grad_fn],
        "l_rg": lg.requires_grad,
        "bad_type": raises(lambda: x.type("torch.Foo")),
        "bad_to": raises(lambda: x.to("float32")),
        "complex_from_float": x.to(T.complex64),
        "nan_to_int": T.tensor([float("inf")]).to(T.float16),
        "big_half": T.tensor([70000.0]).half(),
        "item_types": [type(x[0].item()).__name__, type(x.long()[0].item()).__name__],
        "tolist": x.half().tolist(),
    }


@program()
def prog_where_nonzero_argwhere(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    cond = x.detach() > 0
    w = T.where(cond, x, x * 0.1)
    w2 = T.where(cond, x, 0.0)
    w3 = T.where(~cond, 1, x)
    (w.sum() + w2.sum() * 2 + w3.sum()).backward()
    return {
        "w": w,
        "w2": w2,
        "w3": w3,
        "g": x.grad,
        "gf": [w.grad_fn, w2.grad_fn, w3.grad_fn],
        "where1": T.where(cond),
        "nz": T.nonzero(cond),
        "nz_tuple": cond.nonzero(as_tuple=True),
        "argwhere": T.argwhere(x.detach() < -1),
        "nz_0d": T.nonzero(T.tensor(3)),
        "nz_0d_tuple": T.tensor(0).nonzero(as_tuple=True),
        "int_scalars": T.where(cond, 1, 0),
        "float_scalars": T.where(cond, 1.0, 0),
        "mixed": T.where(cond, T.tensor(1, dtype=T.int8), 2.5),
        "dtypes": T.where(cond, T.ones(4, dtype=T.float64), T.zeros(4, dtype=T.int32)).dtype,
        "bad_cond": raises(lambda: T.where(x.detach(), x, x)),
        "bad_shape": raises(lambda: T.where(cond, T.ones(2), 0.0)),
        "count": T.count_nonzero(cond, dim=1),
    }


# --- creation and numpy interop ---------------------------------------------------------------


@program()
def prog_arange_float_steps_and_lengths(T: Any) -> Any:
    return {
        "f": T.arange(0, 1, 0.1),
        "f_len": len(T.arange(0, 1, 0.1)),
        "neg": T.arange(1, 0, -0.25),
        "int": T.arange(5),
        "int_f_step": T.arange(0, 5, 1.5),
        "f_end": T.arange(2.5),
        "tensor_args": T.arange(T.tensor(1), T.tensor(4)),
        "tensor_f": T.arange(T.tensor(0.5), 3),
        "dtype": T.arange(3, dtype=T.float64),
        "int_dtype_f_step": T.arange(0, 2, 0.5, dtype=T.int32),
        "range_fn": T.range(0, 2, 0.5),
        "empty": T.arange(3, 3),
        "bad_sign": raises(lambda: T.arange(0, 5, -1)),
        "bad_zero": raises(lambda: T.arange(0, 5, 0)),
        "bad_inf": raises(lambda: T.arange(0, float("inf"))),
        "requires_grad": T.arange(3.0, requires_grad=True),
        "big_step": T.arange(-3, 3, 4),
    }


@program()
def prog_linspace_logspace_grids(T: Any) -> Any:
    xs = T.linspace(-1, 1, 5)
    ys = T.linspace(0, 2, 3)
    gx, gy = T.meshgrid(xs, ys, indexing="ij")
    gx2, gy2 = T.meshgrid(xs, ys, indexing="xy")
    return {
        "lin": xs,
        "lin1": T.linspace(3, 10, steps=1),
        "lin0": T.linspace(0, 1, 0),
        "lin_int": T.linspace(0, 10, 4, dtype=T.int64),
        "lin_rev": T.linspace(1, 0, 4),
        "lin_t": T.linspace(T.tensor(0.0), T.tensor(1.0), 3),
        "log": T.logspace(0, 2, 3),
        "log2": T.logspace(0, 3, 4, base=2),
        "log_f64": T.logspace(-1, 1, 3, dtype=T.float64),
        "gx": gx,
        "gy": gy,
        "gx2": gx2,
        "gy2": gy2,
        "cart": T.cartesian_prod(T.tensor([1, 2]), T.tensor([3, 4, 5])),
        "comb": T.combinations(T.tensor([1, 2, 3]), r=2),
        "comb_rep": T.combinations(T.tensor([1, 2]), with_replacement=True),
        "bad_steps": raises(lambda: T.linspace(0, 1, -1)),
        "no_steps": raises(lambda: T.linspace(0, 1)),
    }


@program()
def prog_full_eye_tri_indices(T: Any) -> Any:
    return {
        "full_int": T.full((2, 2), 7),
        "full_float": T.full((2,), 7.0),
        "full_bool": T.full((2,), True),
        "full_complex": T.full((1,), 1 + 2j),
        "full_dtype": T.full((2,), 3, dtype=T.float16),
        "full_like": T.full_like(T.ones(2, dtype=T.int32), 2.7),
        "eye": T.eye(3),
        "eye_rect": T.eye(2, 4, dtype=T.long),
        "eye_0": T.eye(0),
        "tril_idx": T.tril_indices(3, 3),
        "tril_off": T.tril_indices(3, 4, offset=-1),
        "triu_idx": T.triu_indices(4, 3, offset=1),
        "triu_empty": T.triu_indices(2, 2, offset=5),
        "tri_dtype": T.tril_indices(2, 2, dtype=T.int32),
        "bad_eye": raises(lambda: T.eye(-1)),
        "bad_full": raises(lambda: T.full((2,), 1.5, dtype=T.long)),
        "bad_full_bool": raises(lambda: T.full((2,), 2, dtype=T.bool)),
        "tril_float": raises(lambda: T.tril_indices(3, 3, dtype=T.float32)),
        "diag_embed": T.diag_embed(T.tensor([1.0, 2.0]), offset=1),
        "diag": [T.diag(T.tensor([1, 2])), T.diag(T.arange(9).view(3, 3), -1)],
    }


@program()
def prog_like_constructors_and_empty_strided(T: Any) -> Any:
    base = T.arange(6.0).view(2, 3).t()
    h = T.ones(2, 3, dtype=T.float16, requires_grad=True)
    e = T.empty_strided((2, 3), (1, 2))
    z = T.zeros_like(base)
    return {
        "zeros_like": z,
        "zeros_like_stride": [z.stride(), base.stride()],
        "ones_like_dtype": T.ones_like(base, dtype=T.int8),
        "rand_like_shape": T.rand_like(base).shape,
        "randint_like": T.randint_like(base, 5).dtype,
        "empty_like_stride": T.empty_like(base).stride(),
        "full_like_h": T.full_like(h, 3),
        "like_rg": [
            T.zeros_like(h).requires_grad,
            T.zeros_like(h, requires_grad=True).requires_grad,
        ],
        "es": [tuple(e.shape), e.stride(), e.is_contiguous()],
        "es_filled": e.fill_(1.0),
        "new_ops": [
            base.new_zeros(2),
            base.new_ones((1, 2)),
            base.new_full((2,), 4),
            base.new_tensor([1, 2]),
            base.new_empty(3).shape,
        ],
        "new_dtype": base.new_zeros(2, dtype=T.long),
        "zeros_int_list": T.zeros([2, 1]),
        "zeros_size": T.zeros(T.Size([1, 2])),
        "bad_neg": raises(lambda: T.zeros(2, -1)),
        "bad_like": raises(lambda: T.ones_like([1, 2])),
    }


@program()
def prog_tensor_from_nested_mixed_lists(T: Any) -> Any:
    return {
        "ints": T.tensor([[1, 2], [3, 4]]),
        "mixed_num": T.tensor([1, 2.5, True]),
        "bools": T.tensor([True, False]),
        "bool_int": T.tensor([True, 2]),
        "complex": T.tensor([1, 2j]),
        "empty": T.tensor([]),
        "empty_nested": T.tensor([[], []]),
        "scalar": T.tensor(3),
        "scalar_f": T.tensor(3.0),
        "big_int": T.tensor([2**40]),
        "of_tensors": T.tensor([T.tensor(1.5), T.tensor(2)]),
        "np_scalars": T.tensor([np.float32(1.5), np.int64(2)]),
        "np_f64": T.tensor(np.float64(0.1)),
        "dtype_arg": T.tensor([1.7, -1.7], dtype=T.int32),
        "ragged": raises(lambda: T.tensor([[1, 2], [3]])),
        "str": raises(lambda: T.tensor(["a"])),
        "none": raises(lambda: T.tensor([1, None])),
        "overflow": raises(lambda: T.tensor([2**64])),
        "uint8_neg": raises(lambda: T.tensor([-1], dtype=T.uint8)),
        "of_multi_el_tensors": raises(lambda: T.tensor([T.ones(2), T.ones(2)])),
        "tuple": T.tensor(((1, 2), (3, 4)), dtype=T.float64),
        "as_tensor_list": T.as_tensor([1, 2], dtype=T.float32),
        "float_int_list_dtype": T.tensor([1, 2]).dtype,
    }


@program()
def prog_numpy_memory_sharing(T: Any) -> Any:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    shared = T.from_numpy(a)
    copied = T.tensor(a)
    as_t = T.as_tensor(a)
    as_t_cast = T.as_tensor(a, dtype=T.float64)
    a[0, 0] = 100.0
    shared[1, 1] = -5.0
    back = shared.numpy()
    back[0, 2] = 42.0
    t = T.ones(3)
    n = t.numpy()
    t.add_(1)
    ints = T.from_numpy(np.array([1, 2], dtype=np.int16))
    t_rg = T.ones(2, requires_grad=True)
    return {
        "a": a.copy(),
        "shared": shared,
        "copied": copied,
        "as_t": as_t,
        "as_t_cast": as_t_cast,
        "n": n.copy(),
        "n_dtype": str(n.dtype),
        "ints": ints,
        "bool_np": T.from_numpy(np.array([True, False])),
        "noncontig": T.from_numpy(a[:, ::2]),
        "noncontig_stride": T.from_numpy(a[:, ::2]).stride(),
        "f_order": T.from_numpy(np.asfortranarray(a)).stride(),
        "neg_stride": raises(lambda: T.from_numpy(a[:, ::-1])),
        "rg_numpy": raises(lambda: t_rg.numpy()),
        "rg_numpy_force": t_rg.numpy(force=True),
        "bad_type": raises(lambda: T.from_numpy([1, 2])),
        "obj": raises(lambda: T.from_numpy(np.array([object()]))),
        "np_array_of_tensor": np.asarray(T.tensor([1.5, 2.5])),
    }


@program()
def prog_numpy_interop_in_data_pipeline(T: Any) -> Any:
    # a typical preprocessing step: numpy arrays in, normalised float tensors out
    rng = np.random.default_rng(5)
    raw = rng.integers(0, 255, size=(4, 3), dtype=np.uint8)
    x = T.from_numpy(raw).float() / 255
    mean = T.tensor(raw.mean(axis=0))
    std = T.as_tensor(raw.std(axis=0))
    z = (T.from_numpy(raw) - mean) / std
    labels = T.as_tensor(np.array([0, 1, 1, 0]))
    onehot = T.nn.functional.one_hot(labels, 2)
    w = T.tensor(rng.standard_normal((3, 2)), dtype=T.float32, requires_grad=True)
    loss = T.nn.functional.cross_entropy(x @ w, labels)
    loss.backward()
    return {
        "x": x,
        "mean": mean,
        "z": z,
        "onehot": onehot,
        "loss": loss,
        "g": w.grad,
        "np_roundtrip": T.from_numpy(x.numpy() * 2),
        "np_ops": np.add(T.ones(2).numpy(), 1),
        "np_f64_mix": (T.ones(2) + T.from_numpy(np.ones(2))).dtype,
        "np_scalar_mul": T.ones(2) * np.float64(2.5),
        "np_scalar_left": (np.float32(2.0) * T.ones(2)),
        "item_np": np.float32(T.tensor(1.5).item()),
    }


# --- random sampling with seeds and generators -------------------------------------------------


@program()
def prog_manual_seed_basic_samplers(T: Any) -> Any:
    T.manual_seed(123)
    a = {
        "rand": T.rand(2, 3),
        "randn": T.randn(4),
        "randint": T.randint(0, 10, (5,)),
        "randint_hi": T.randint(7, (3,)),
        "randperm": T.randperm(8),
        "rand_f64": T.rand(2, dtype=T.float64),
        "randn_f16": T.randn(3, dtype=T.float16),
        "randint_dtype": T.randint(-3, 3, (4,), dtype=T.int8),
    }
    T.manual_seed(123)
    again = T.rand(2, 3)
    return {
        **a,
        "again_same": T.equal(again, a["rand"]),
        "initial_seed": T.initial_seed(),
        "bad_randint": raises(lambda: T.randint(5, 2, (3,))),
        "bad_perm": raises(lambda: T.randperm(-1)),
        "randn_int": raises(lambda: T.randn(2, dtype=T.long)),
    }


@program()
def prog_generator_objects_independent_streams(T: Any) -> Any:
    g1 = T.Generator().manual_seed(7)
    g2 = T.Generator()
    g2.manual_seed(7)
    T.manual_seed(0)
    x1 = T.rand(3, generator=g1)
    glob = T.rand(2)
    x2 = T.rand(3, generator=g2)
    state = g1.get_state()
    y1 = T.randn(4, generator=g1)
    g1.set_state(state)
    y2 = T.randn(4, generator=g1)
    perm = T.randperm(6, generator=g2)
    ri = T.randint(0, 100, (3,), generator=g2)
    return {
        "x1": x1,
        "x2": x2,
        "glob": glob,
        "same": T.equal(x1, x2),
        "y1": y1,
        "y2": y2,
        "perm": perm,
        "ri": ri,
        "seed": g1.initial_seed(),
        "state_dtype": state.dtype,
        "state_shape": tuple(state.shape),
        "bad_state": raises(lambda: g1.set_state(T.zeros(3))),
        "default_gen_seed": T.default_generator.initial_seed(),
    }


@program()
def prog_inplace_distributions_seeded(T: Any) -> Any:
    T.manual_seed(42)
    out = {
        "uniform": T.empty(4).uniform_(-2, 3),
        "normal": T.empty(4).normal_(1.0, 0.5),
        "exponential": T.empty(4).exponential_(2.0),
        "geometric": T.empty(4).geometric_(0.3),
        "cauchy": T.empty(3).cauchy_(0.0, 2.0),
        "log_normal": T.empty(3).log_normal_(0.0, 0.25),
        "random_": T.empty(3).random_(0, 5),
        "random_to": T.empty(3, dtype=T.long).random_(10),
        "bernoulli_": T.empty(5).bernoulli_(0.3),
        "bernoulli_t": T.empty(3).bernoulli_(T.tensor([0.0, 1.0, 0.5])),
        "f64": T.empty(2, dtype=T.float64).normal_(),
    }
    out["bad_p"] = raises(lambda: T.empty(2).bernoulli_(1.5))
    out["bad_exp"] = raises(lambda: T.empty(2).exponential_(-1.0))
    out["bad_geo"] = raises(lambda: T.empty(2).geometric_(0.0))
    out["bad_uniform"] = raises(lambda: T.empty(2).uniform_(3, 1))
    out["bad_normal_std"] = raises(lambda: T.empty(2).normal_(0, -1))
    return out


@program()
def prog_normal_and_bernoulli_functional_forms(T: Any) -> Any:
    T.manual_seed(5)
    means = T.arange(1.0, 5.0)
    stds = T.tensor([0.1, 0.2, 0.3, 0.4])
    return {
        "nt": T.normal(means, stds),
        "ns": T.normal(means, 0.5),
        "sn": T.normal(0.0, stds),
        "size": T.normal(2.0, 3.0, size=(2, 2)),
        "bern": T.bernoulli(T.tensor([0.2, 0.8, 0.5, 0.5])),
        "bern_p": T.bernoulli(T.ones(3), p=0.5),
        "poisson": T.poisson(T.tensor([1.0, 4.0, 0.0])),
        "binomial": T.binomial(T.tensor([5.0, 10.0]), T.tensor([0.5, 0.2])),
        "after": T.rand(2),
        "bad_std": raises(lambda: T.normal(means, -stds)),
        "bad_bern": raises(lambda: T.bernoulli(T.tensor([1.5]))),
        "bad_shape": raises(lambda: T.normal(T.ones(2), T.ones(3))),
    }


@program()
def prog_multinomial_sampling_tokens(T: Any) -> Any:
    T.manual_seed(11)
    probs = T.tensor([[0.1, 0.6, 0.3], [0.5, 0.0, 0.5]])
    logits = T.tensor([2.0, 1.0, 0.1, -1.0])
    g = T.Generator().manual_seed(3)
    return {
        "one": T.multinomial(probs, 1),
        "repl": T.multinomial(probs, 5, replacement=True),
        "norepl": T.multinomial(probs[0], 3),
        "from_logits": T.multinomial(logits.softmax(0), 6, replacement=True, generator=g),
        "unnorm": probs.mul(10).multinomial(2),
        "after": T.randint(0, 5, (3,)),
        "too_many": raises(lambda: T.multinomial(probs, 4)),
        "neg": raises(lambda: T.multinomial(T.tensor([0.5, -0.1]), 1)),
        "zero_sum": raises(lambda: T.multinomial(T.tensor([0.0, 0.0]), 1)),
        "int": raises(lambda: T.multinomial(T.tensor([1, 2]), 1)),
        "3d": raises(lambda: T.multinomial(T.ones(1, 1, 2), 1)),
    }


@program()
def prog_rng_state_roundtrip_and_fork(T: Any) -> Any:
    T.manual_seed(2024)
    s = T.get_rng_state()
    a = T.randn(3)
    b = T.randint(0, 9, (2,))
    T.set_rng_state(s)
    a2 = T.randn(3)
    b2 = T.randint(0, 9, (2,))
    with T.random.fork_rng():
        T.manual_seed(1)
        inner = T.rand(2)
    after = T.rand(2)
    T.random.manual_seed(2024)
    again = T.randn(3)
    return {
        "a": a,
        "same": [T.equal(a, a2), T.equal(b, b2), T.equal(a, again)],
        "inner": inner,
        "after": after,
        "state": [s.dtype, tuple(s.shape)],
        "seed_fn": T.random.initial_seed(),
        "bad": raises(lambda: T.set_rng_state(T.zeros(5, dtype=T.uint8))),
        "bad_type": raises(lambda: T.set_rng_state([1, 2])),
    }


@program()
def prog_seeded_data_augmentation_pipeline(T: Any) -> Any:
    # shuffle, random crops and noise, as a small augmentation loop does
    g = T.Generator().manual_seed(99)
    data = T.arange(40.0).view(4, 10)
    order = T.randperm(4, generator=g)
    crops = []
    for i in order.tolist():
        start = int(T.randint(0, 6, (1,), generator=g))
        crop = data[i, start : start + 4]
        noise = T.randn(4, generator=g) * 0.1
        flip = T.rand(1, generator=g).item() < 0.5
        crops.append((crop.flip(0) if flip else crop) + noise)
    batch = T.stack(crops)
    mask = T.rand(batch.shape, generator=g) > 0.2
    return {
        "order": order,
        "batch": batch,
        "masked": batch * mask,
        "state_next": T.rand(2, generator=g),
    }


@program()
def prog_dropout_mask_reproducible_with_seed(T: Any) -> Any:
    x = _leaf(T, 3, 5)
    T.manual_seed(17)
    y1 = T.nn.functional.dropout(x, 0.4)
    T.manual_seed(17)
    y2 = T.nn.functional.dropout(x, 0.4)
    (y1.sum() + 2 * y2.sum()).backward()
    T.manual_seed(17)
    keep = T.empty(3, 5).bernoulli_(0.6)
    return {
        "y1": y1,
        "same": T.equal(y1, y2),
        "g": x.grad,
        "keep": keep,
        "matches_mask": T.equal((y1 != 0).float(), keep),
    }


# --- views, strides and reshaping ----------------------------------------------------------


@program()
def prog_view_vs_reshape_after_transpose(T: Any) -> Any:
    x = _leaf(T, 2, 3, 4)
    t = x.transpose(0, 2)
    r = t.reshape(4, 6)
    c = t.contiguous()
    v = c.view(4, 6)
    (r.sum() + (v * 2).sum()).backward()
    return {
        "t": _layout(t),
        "c": _layout(c),
        "r": _layout(r),
        "r_is_view": r._base is not None,
        "same_vals": T.equal(r, v),
        "g": x.grad,
        "gf": [t.grad_fn, r.grad_fn, c.grad_fn, v.grad_fn],
        "view_err": raises(lambda: t.view(24)),
        "view_ok": t.view(4, 3, 2).shape,
        "flatten_noncontig": _layout(t.flatten()),
        "contig_same": x.contiguous() is x,
        "reshape_view": x.reshape(6, 4)._base is x,
        "T_layout": _layout(x.detach()[0].T),
        "mT": _layout(x.mT),
    }


@program()
def prog_permute_movedim_unflatten(T: Any) -> Any:
    x = _leaf(T, 2, 3, 4, 5)
    p = x.permute(3, 1, 0, 2)
    m = x.movedim((0, 1), (-1, -2))
    md = T.moveaxis(x, 3, 0)
    u = x.flatten(1, 2).unflatten(1, (4, 3))
    u2 = x.flatten(2).unflatten(-1, (-1, 5))
    sw = x.swapaxes(0, 3)
    (p.sum() + (m * 2).sum() + md.mean() + u.square().sum() + u2.sum() + sw.sum()).backward()
    return {
        "p": _layout(p),
        "m": _layout(m),
        "md": _layout(md),
        "u": _layout(u),
        "u2": _layout(u2),
        "sw": _layout(sw),
        "g": x.grad,
        "gf": [p.grad_fn, m.grad_fn, u.grad_fn, sw.grad_fn],
        "vals": [p[1, 2, 0], u[1, 3]],
        "unflatten_named": raises(lambda: x.unflatten(1, (2, 2))),
        "flatten_all": x.flatten().shape,
        "ravel": _layout(p.ravel()),
        "squeeze_multi": T.ones(1, 3, 1, 2).squeeze((0, 2)).shape,
        "unsqueeze_neg": _layout(x.unsqueeze(-1)),
    }


@program()
def prog_expand_repeat_tile_broadcast(T: Any) -> Any:
    b = _leaf(T, 3, 1)
    e = b.expand(3, 4)
    e2 = b.expand(2, -1, 5)
    r = b.repeat(2, 3)
    r3 = b.repeat(2, 1, 1)
    t = b.tile((2,))
    ri = b.repeat_interleave(2, dim=0)
    ri_t = T.repeat_interleave(T.tensor([1, 2, 3]), T.tensor([2, 0, 1]))
    bt = T.broadcast_to(b, (2, 3, 3))
    (e.sum() + e2.sum() + r.sum() * 2 + r3.sum() + t.sum() + ri.sum() + bt.sum()).backward()
    return {
        "e": _layout(e),
        "e2": _layout(e2),
        "r": _layout(r),
        "r3": r3.shape,
        "t": _layout(t),
        "ri": ri,
        "ri_t": ri_t,
        "bt": _layout(bt),
        "g": b.grad,
        "gf": [e.grad_fn, r.grad_fn, t.grad_fn, ri.grad_fn, bt.grad_fn],
        "inplace_on_expanded": raises(lambda: b.detach().expand(3, 4).add_(1)),
        "repeat_fewer": raises(lambda: b.repeat(2)),
        "ri_scalar": T.repeat_interleave(T.tensor(3), 2),
        "ri_self": T.repeat_interleave(T.tensor([2, 1])),
        "bshapes": T.broadcast_shapes((3, 1), (1, 4), (4,)),
        "btensors": [t.shape for t in T.broadcast_tensors(T.ones(3, 1), T.ones(2))],
        "bad_bs": raises(lambda: T.broadcast_shapes((3,), (4,))),
    }


@program()
def prog_chunk_split_tensor_split_unbind(T: Any) -> Any:
    x = _leaf(T, 7, 2)
    ch = x.chunk(3)
    sp = x.split(3)
    sps = x.split([2, 4, 1])
    ts = x.tensor_split(3)
    tsi = T.tensor_split(x, [1, 5])
    tst = x.tensor_split(T.tensor([2, 3]))
    ub = x.unbind(1)
    parts = [*ch, *sp, *sps, *ts, *tsi, *tst, *ub]
    sum((p * (i + 1)).sum() for i, p in enumerate(parts)).backward()
    return {
        "ch": [p.shape for p in ch],
        "sp": [p.shape for p in sp],
        "ts": [p.shape for p in ts],
        "tsi": [p.shape for p in tsi],
        "tst": [p.shape for p in tst],
        "ub": ub,
        "g": x.grad,
        "gf": [ch[0].grad_fn, sps[1].grad_fn, ts[0].grad_fn, ub[0].grad_fn],
        "chunk_small": [p.shape for p in T.arange(5).chunk(4)],
        "chunk_more_than_size": len(T.arange(2).chunk(5)),
        "hsplit": [p.shape for p in T.hsplit(T.ones(2, 6), 3)],
        "vsplit_bad": raises(lambda: T.vsplit(T.ones(3, 2), 2)),
        "dsplit": [p.shape for p in T.dsplit(T.ones(1, 1, 4), [1, 3])],
        "ts_bad": raises(lambda: x.tensor_split(0)),
        "ts_float": raises(lambda: x.tensor_split(T.tensor([1.0]))),
    }


@program()
def prog_stack_cat_hstack_vstack_dstack(T: Any) -> Any:
    a = _leaf(T, 3)
    b = _leaf(T, 3, seed=1)
    m = _leaf(T, 2, 3, seed=2)
    outs = {
        "stack0": T.stack([a, b]),
        "stack1": T.stack((a, b), dim=1),
        "cat": T.cat([a, b]),
        "cat_rows": T.cat([m, a.unsqueeze(0)], 0),
        "hstack": T.hstack([a, b]),
        "hstack2d": T.hstack([m, m]),
        "vstack": T.vstack([a, b, m]),
        "dstack": T.dstack([a, b]),
        "col": T.column_stack([a, b, T.ones(3, 2)]),
        "row": T.row_stack([a, b]),
        "atleast": T.atleast_2d(a),
    }
    sum((v * (i + 1)).sum() for i, v in enumerate(outs.values())).backward()
    return {
        **{k: _layout(v) for k, v in outs.items()},
        "vals": outs["dstack"],
        "ga": a.grad,
        "gb": b.grad,
        "gm": m.grad,
        "gf": {k: v.grad_fn for k, v in outs.items()},
        "cat_mixed": T.cat([T.ones(2, dtype=T.int32), T.ones(2, dtype=T.float16)]).dtype,
        "cat_empty_legacy": T.cat([T.ones(2, 3), T.tensor([])]).shape,
        "stack_int_float": T.stack([T.tensor([1]), T.tensor([1.5])]).dtype,
        "atleast_3d": [t.shape for t in T.atleast_3d(T.tensor(1.0), a)],
    }


@program()
def prog_roll_flip_rot90_for_images(T: Any) -> Any:
    img = _leaf(T, 1, 2, 3, 4)
    r = img.roll(1, dims=3)
    r2 = T.roll(img, shifts=(-1, 2), dims=(2, 3))
    r_flat = img.roll(5)
    f = img.flip(-1)
    f2 = T.flip(img, (2, 3))
    lr = T.fliplr(img[0, 0])
    ud = T.flipud(img[0, 0])
    rot = T.rot90(img, 1, (2, 3))
    rot_neg = img.rot90(-1, [2, 3])
    rot2 = img.rot90(2, (2, 3))
    outs = [r, r2, r_flat, f, f2, lr, ud, rot, rot_neg, rot2]
    sum((o * T.arange(float(o.numel())).view(o.shape)).sum() for o in outs).backward()
    return {
        "r": r,
        "r2": r2,
        "r_flat": r_flat,
        "rot": _layout(rot),
        "rot_neg": rot_neg,
        "rot2": _layout(rot2),
        "f": _layout(f),
        "g": img.grad,
        "gf": [o.grad_fn for o in outs],
        "rot_bad": raises(lambda: img.rot90(1, (2, 2))),
        "rot_one_dim": raises(lambda: img.rot90(1, (2,))),
        "roll_bad": raises(lambda: img.roll((1, 2), 0)),
        "lr_1d": raises(lambda: T.fliplr(T.ones(3))),
    }


@program()
def prog_narrow_unfold_sliding_windows(T: Any) -> Any:
    sig = _leaf(T, 10)
    win = sig.unfold(0, 4, 2)
    nar = sig.narrow(0, 2, 5)
    nt = T.narrow(sig, 0, T.tensor(1), 3)
    m = _leaf(T, 4, 6, seed=3)
    patches = m.unfold(0, 2, 2).unfold(1, 3, 3)
    (win.mean(1).sum() + nar.sum() * 3 + nt.sum() + patches.square().sum()).backward()
    return {
        "win": _layout(win),
        "win_vals": win,
        "nar": _layout(nar),
        "patches": _layout(patches),
        "gs": sig.grad,
        "gm": m.grad,
        "gf": [win.grad_fn, nar.grad_fn, patches.grad_fn],
        "narrow_bad": raises(lambda: sig.narrow(0, 8, 5)),
        "narrow_neg": sig.narrow(0, -3, 2),
        "unfold_big": raises(lambda: sig.unfold(0, 11, 1)),
        "unfold_step0": raises(lambda: sig.unfold(0, 2, 0)),
        "narrow_copy": T.narrow_copy(sig.detach(), 0, 1, 2),
    }


@program()
def prog_as_strided_and_storage_views(T: Any) -> Any:
    base = T.arange(12.0)
    a = base.as_strided((3, 3), (3, 1))
    band = base.as_strided((3, 4), (2, 1), 1)
    diag = base.view(3, 4).diagonal()
    x = _leaf(T, 6)
    s = x.as_strided((2, 2), (1, 2))
    o = T.as_strided(x, (3,), (2,), 1)
    (s.sum() + o.square().sum()).backward()
    w = base.clone()
    w.as_strided((2,), (5,))[:] = -1
    return {
        "a": a,
        "band": _layout(band),
        "band_vals": band,
        "diag": _layout(diag),
        "s": s,
        "o": o,
        "g": x.grad,
        "gf": [s.grad_fn, o.grad_fn],
        "w": w,
        "offset": [band.storage_offset(), base[5:].storage_offset()],
        "data_ptr_delta": base[3:].data_ptr() - base.data_ptr(),
        "element_size": [base.element_size(), T.ones(1, dtype=T.int16).element_size()],
        "nbytes": base.nbytes,
        "itemsize": base.itemsize,
        "bad": raises(lambda: base.as_strided((5, 5), (5, 1))),
        "bad_neg": raises(lambda: base.as_strided((2,), (-1,))),
    }


@program()
def prog_inplace_on_views_share_memory(T: Any) -> Any:
    x = T.zeros(3, 4)
    row = x[1]
    col = x[:, 2]
    row += 1
    col.mul_(5).add_(2)
    t = x.t()
    t[0, 0] = 9
    flat = x.view(-1)
    flat[::5] = -1
    d = x.diagonal()
    d.fill_(7)
    sub = x[1:, 1:3]
    sub.zero_()
    return {
        "x": x,
        "row": row,
        "col": col,
        "versions": [x._version, row._version, t._version],
        "is_view": [row._base is x, t._base is x, flat._base is x],
        "shares": [row.data_ptr() - x.data_ptr(), col.stride(), sub.is_contiguous()],
        "detach_shares": (lambda dd: (dd.add_(1), x[0, 0])[1])(x.detach()),
        "clone_not": (lambda c: (c.add_(100), x[0, 1])[1])(x.clone()),
        "is_set_to": x[0].is_set_to(x[0]),
        "overlap_err": raises(lambda: T.zeros(3).expand(2, 3).mul_(2)),
    }


# --- printing ----------------------------------------------------------------------------------


def _reprs(T: Any, ts: dict[str, Any]) -> dict[str, str]:
    return {k: repr(v) for k, v in ts.items()} | {k + "_str": str(v) for k, v in ts.items()}


@program()
def prog_repr_float_magnitudes(T: Any) -> Any:
    return _reprs(
        T,
        {
            "small": T.tensor([1e-5, 2e-6, 3.5e-7]),
            "large": T.tensor([1e6, 2.5e8, 1.0]),
            "mixed": T.tensor([1e-3, 1e3, 12.5]),
            "ints_as_float": T.tensor([1.0, 2.0, 300.0]),
            "neg": T.tensor([-0.0, -1.5, 2.25]),
            "specials": T.tensor([float("nan"), float("inf"), -float("inf"), 1.0]),
            "all_nan": T.tensor([float("nan")]),
            "wide": T.tensor([123456.789, 0.001]),
            "f64": T.tensor([1 / 3, 2 / 3], dtype=T.float64),
            "f16": T.tensor([0.1, 65504.0], dtype=T.float16),
            "scalar": T.tensor(3.14159),
            "scalar_big": T.tensor(1e20),
            "empty": T.tensor([]),
            "empty2d": T.zeros(0, 3),
            "matrix": T.tensor([[1.5, -2.0], [1e-4, 100.0]]),
            "3d": T.arange(8.0).view(2, 2, 2) / 3,
        },
    )


@program()
def prog_repr_int_bool_complex(T: Any) -> Any:
    return _reprs(
        T,
        {
            "long": T.tensor([1, -20, 300]),
            "int32": T.tensor([1, 2], dtype=T.int32),
            "u8": T.tensor([255, 0], dtype=T.uint8),
            "int8_2d": T.tensor([[-1, 2], [3, -128]], dtype=T.int8),
            "bool": T.tensor([True, False]),
            "bool_2d": T.tensor([[True], [False]]),
            "complex": T.tensor([1 + 2j, -0.5j]),
            "complex128": T.tensor([1e-5 + 1j], dtype=T.complex128),
            "complex_nan": T.tensor([complex(float("nan"), 1)]),
            "complex_big": T.tensor([1e6 + 1e-3j, 2j]),
            "long_scalar": T.tensor(-7),
            "bool_scalar": T.tensor(True),
            "empty_long": T.tensor([], dtype=T.long),
            "big_long": T.tensor([2**40, 1]),
        },
    )


@program()
def prog_repr_autograd_annotations(T: Any) -> Any:
    w = T.tensor([1.5, -2.0], requires_grad=True)
    y = w * 2
    s = y.sum()
    h = T.tensor([1.0], dtype=T.float16, requires_grad=True)
    d = T.tensor([1.0], dtype=T.float64, requires_grad=True)
    p = T.nn.Parameter(T.tensor([[0.25, 0.5]]))
    with T.no_grad():
        ng = w * 3
    return {
        "w": repr(w),
        "y": repr(y),
        "s": repr(s),
        "h": repr(h * 2),
        "d": repr(d.exp()),
        "p": repr(p),
        "p_str": str(p),
        "p_op": repr(p @ p.t()),
        "ng": repr(ng),
        "view": repr(w[0]),
        "unbind": repr(w.unbind()[1]),
        "int_res": repr(w.argmax()),
        "detached": repr(y.detach()),
        "empty_rg": repr(T.zeros(0, requires_grad=True)),
        "fmt": f"{s.item():.3f}",
        "format_0d": format(s, ".2f"),
        "format_bad": raises(lambda: format(w, ".2f")),
    }


@program()
def prog_printoptions_precision_sci(T: Any) -> Any:
    x = T.tensor([1.123456789, 22.5, 0.000123])
    out = {}
    try:
        T.set_printoptions(precision=2)
        out["p2"] = repr(x)
        T.set_printoptions(precision=6)
        out["p6"] = repr(x)
        T.set_printoptions(sci_mode=True)
        out["sci"] = repr(x)
        out["sci_int"] = repr(T.tensor([1, 2]))
        T.set_printoptions(sci_mode=False)
        out["nosci"] = repr(T.tensor([1e-8, 1e8]))
        T.set_printoptions(profile="short")
        out["short"] = repr(x)
        T.set_printoptions(profile="full")
        out["full"] = repr(T.arange(1500.0))[-60:]
    finally:
        T.set_printoptions(profile="default")
        T.set_printoptions(sci_mode=None)
    out["reset"] = repr(x)
    return out


@program()
def prog_printoptions_threshold_edgeitems_linewidth(T: Any) -> Any:
    big = T.arange(30.0).view(5, 6)
    out = {}
    try:
        T.set_printoptions(threshold=10)
        out["thr"] = repr(big)
        T.set_printoptions(threshold=10, edgeitems=1)
        out["edge1"] = repr(big)
        out["edge1_1d"] = repr(T.arange(20))
        T.set_printoptions(threshold=1000, edgeitems=3, linewidth=30)
        out["narrow"] = repr(T.arange(12.0) / 7)
        out["narrow_int"] = repr(T.arange(40))
        T.set_printoptions(linewidth=200)
        out["wide"] = repr(T.arange(40.0))
    finally:
        T.set_printoptions(profile="default")
        T.set_printoptions(linewidth=80)
    out["default_summarized"] = repr(T.arange(2000))
    out["default_3d_summary"] = repr(T.zeros(20, 20, 20))[:200]
    return out


@program()
def prog_print_in_training_log(T: Any) -> Any:
    # the lines a training script prints: losses, accuracies, parameters, f-strings
    w = T.tensor([[0.5, -0.25], [1.0, 0.125]], requires_grad=True)
    x = T.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    y = T.tensor([1, 0, 1])
    logits = x @ w
    loss = T.nn.functional.cross_entropy(logits, y)
    loss.backward()
    acc = (logits.argmax(1) == y).float().mean()
    lines = [
        f"loss={loss.item():.4f} acc={acc.item():.2%}",
        f"loss tensor: {loss}",
        f"grad: {w.grad}",
        "logits:\n" + str(logits),
        f"{acc}",
        "{}".format(y),  # noqa: UP032
        str([T.tensor(1.5), T.tensor([1, 2])]),
        str({"w": w.detach()}),
        repr(logits.softmax(-1)),
        repr(T.tensor([0.1, 0.2]) + T.tensor([0.2, 0.1])),
    ]
    return lines


@program()
def prog_repr_views_and_noncontiguous(T: Any) -> Any:
    base = T.arange(12.0).view(3, 4)
    return {
        "t": repr(base.t()),
        "stepped": repr(base[:, ::2]),
        "expanded": repr(T.tensor([1.0, 2.0]).expand(3, 2)),
        "neg_zero": repr(T.tensor([-0.0, 0.0])),
        "diag": repr(base.diagonal()),
        "half_3d": repr(T.ones(2, 1, 2, dtype=T.float16)),
        "size_repr": repr(base.shape),
        "size_str": str(T.Size([2, 3])),
        "dtype_repr": [repr(T.float32), str(T.int64), repr(T.bool)],
        "device": [repr(base.device), str(base.device)],
        "sorted_repr": repr(T.tensor([3, 1, 2]).sort()),
        "topk_repr": repr(T.tensor([3.0, 1.0, 2.0]).topk(2)),
        "max_repr": repr(base.max(dim=1)),
    }


# --- more programs across the areas --------------------------------------------------------------


@program()
def prog_cumprod_with_zeros_gradients(T: Any) -> Any:
    x = T.tensor(
        [[2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 1.5, 2.0], [1.0, 2.0, 3.0, 0.0]], requires_grad=True
    )
    cp = x.cumprod(1)
    (cp * T.arange(1.0, 5.0)).sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    x.prod(1).sum().backward()
    return {
        "cp": cp,
        "g_cumprod": g1,
        "g_prod": x.grad,
        "rev": x.detach().flip(1).cumprod(1).flip(1),
    }


@program()
def prog_cummax_logcumsumexp_grads_with_ties(T: Any) -> Any:
    x = T.tensor([1.0, 3.0, 3.0, 2.0, 5.0, 5.0], requires_grad=True)
    v, i = x.cummax(0)
    w, j = x.cummin(0)
    lc = T.tensor([float("-inf"), 0.0, float("-inf"), 1.0], requires_grad=True)
    lcs = lc.logcumsumexp(0)
    (v * T.arange(6.0)).sum().backward(retain_graph=True)
    gv = x.grad.clone()
    x.grad = None
    w.sum().backward()
    lcs.sum().backward()
    return {"v": v, "i": i, "w": w, "j": j, "gv": gv, "gw": x.grad, "l": lcs, "gl": lc.grad}


@program()
def prog_sort_gradients_2d_and_descending(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    s0, i0 = x.sort(dim=0, descending=True)
    s1, i1 = T.sort(x, dim=-1)
    a = x.argsort(dim=1, descending=True)
    top, ti = x.flatten().topk(5)
    (s0[0].sum() + (s1 * T.arange(4.0)).sum() + top.sum()).backward()
    h = x.detach().half()
    return {
        "s0": s0,
        "i0": i0,
        "i1": i1,
        "a": a,
        "ti": ti,
        "g": x.grad,
        "h_sort": h.sort(1),
        "int_topk": T.tensor([5, 1, 5, 3]).topk(2),
        "bool_sort": T.tensor([[True, False, True]]).sort(dim=1, descending=True),
        "topk_k0": x.detach().topk(0, dim=1),
        "topk_unsorted_shape": x.detach().topk(2, sorted=False).values.shape,
    }


@program()
def prog_max_min_ties_gradients(T: Any) -> Any:
    x = T.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True)
    outs = {
        "max": x.max(),
        "amax": x.amax(dim=1),
        "max_dim": x.max(dim=1).values,
        "amin0": x.amin(0),
        "min_all": x.min(),
        "aminmax": T.aminmax(x, dim=1).max,
        "argmax": x.argmax(dim=1),
        "median_all": x.median(),
    }
    grads = {}
    for k, v in outs.items():
        if v.requires_grad:
            (g,) = T.autograd.grad(v.sum(), x)
            grads[k] = g
    return {**outs, "grads": grads}


@program()
def prog_unique_float_dims_and_counts(T: Any) -> Any:
    pts = T.tensor([[0.5, 1.0], [0.5, 1.0], [-1.0, 2.0], [0.5, -1.0]])
    u, inv, cnt = pts.unique(dim=0, return_inverse=True, return_counts=True)
    consec = T.tensor([[1, 1], [1, 1], [2, 2], [1, 1]])
    return {
        "u": u,
        "inv": inv,
        "cnt": cnt,
        "uc_dim": T.unique_consecutive(consec, return_counts=True, dim=0),
        "uc_inv": consec.unique_consecutive(return_inverse=True),
        "sorted_false": T.unique(T.tensor([3, 1, 3]), sorted=False).sort().values,
        "3d": T.unique(T.tensor([[[1, 2]], [[1, 2]], [[0, 1]]]), dim=0),
        "dim1": T.unique(T.tensor([[1, 1, 2], [3, 3, 4]]), dim=1, return_counts=True),
        "empty_dim": T.unique(T.zeros(0, 2), dim=0, return_counts=True),
        "half": T.unique(T.tensor([1.5, 1.5, 0.5], dtype=T.float16)),
    }


@program()
def prog_label_encoding_with_unique_and_bincount(T: Any) -> Any:
    # a categorical column encoded to ids, class frequencies and inverse weights
    col = T.tensor([30, 10, 20, 10, 30, 30, 50])
    classes, ids = T.unique(col, return_inverse=True)
    freq = T.bincount(ids)
    weights = freq.sum() / (len(classes) * freq.float())
    per_sample = weights[ids]
    order = T.argsort(ids, stable=True)
    grouped = col[order]
    starts = T.cumsum(freq, 0) - freq
    return {
        "classes": classes,
        "ids": ids,
        "freq": freq,
        "weights": weights,
        "per_sample": per_sample,
        "order": order,
        "grouped": grouped,
        "starts": starts,
        "lookup": T.searchsorted(classes, T.tensor([20, 50, 10])),
        "mode": T.mode(col),
    }


@program()
def prog_histogram_and_quantile_binning(T: Any) -> Any:
    x = T.tensor([0.1, 0.25, 0.4, 0.55, 0.7, 0.8, 0.95, 1.0, 0.0, 0.33])
    edges = T.quantile(x, T.tensor([0.0, 0.25, 0.5, 0.75, 1.0]))
    bins = T.bucketize(x, edges[1:-1])
    hist, be = T.histogram(x, bins=4)
    hist_r, _ = T.histogram(x, bins=3, range=(0.0, 0.9))
    hist_e, _ = T.histogram(x, T.tensor([0.0, 0.5, 1.0]))
    hist_w, _ = T.histogram(x, bins=2, weight=T.ones(10) * 0.5, density=True)
    return {
        "edges": edges,
        "bins": bins,
        "hist": hist,
        "be": be,
        "hist_r": hist_r,
        "hist_e": hist_e,
        "hist_w": hist_w,
        "nanquantile": T.nanquantile(T.tensor([1.0, float("nan"), 3.0]), 0.5),
        "q_interp": [
            T.quantile(x, 0.4, interpolation=m)
            for m in ("linear", "lower", "higher", "midpoint", "nearest")
        ],
        "bad_q": raises(lambda: T.quantile(x, 1.5)),
        "hist_int": raises(lambda: T.histogram(T.tensor([1, 2]), bins=2)),
    }


@program()
def prog_masked_mean_over_padded_sequences(T: Any) -> Any:
    h = _leaf(T, 2, 4, 3)
    lengths = T.tensor([4, 2])
    mask = T.arange(4)[None, :] < lengths[:, None]
    masked = h.masked_fill(~mask[..., None], 0.0)
    mean = masked.sum(1) / lengths[:, None]
    mx = h.masked_fill(~mask.unsqueeze(-1), float("-inf")).amax(1)
    last = h[T.arange(2), lengths - 1]
    (mean.sum() + mx.sum() + last.square().sum()).backward()
    return {
        "mask": mask,
        "mean": mean,
        "mx": mx,
        "last": last,
        "g": h.grad,
        "gf": [mean.grad_fn, mx.grad_fn, last.grad_fn],
        "mask_dtype": (mask * 1).dtype,
        "mask_sum": mask.sum(1),
    }


@program()
def prog_index_put_bool_and_accumulate_grads(T: Any) -> Any:
    x = _leaf(T, 4, 3)
    v = _leaf(T, 3, seed=1)
    m = T.tensor([True, False, True, False])
    y = x.index_put((m,), v)
    z = x.index_put((T.tensor([0, 0, 3]),), v.unsqueeze(0).expand(3, 3), accumulate=True)
    w = T.index_put(x, (T.tensor([1, 2]), T.tensor([0, 2])), T.tensor(5.0))
    (y.sum() + (z * 2).sum() + w.square().sum()).backward()
    return {
        "y": y,
        "z": z,
        "w": w,
        "gx": x.grad,
        "gv": v.grad,
        "gf": [y.grad_fn, z.grad_fn],
        "bad_many": raises(lambda: x.index_put((m, m, m), v)),
        "bad_bool_len": raises(lambda: x.index_put((T.tensor([True]),), v)),
    }


@program()
def prog_setitem_with_ellipsis_none_and_masks(T: Any) -> Any:
    x = T.zeros(2, 3, 4)
    x[..., 0] = 1
    x[:, None, 1] = T.tensor([2.0, 3.0, 4.0, 5.0])
    x[0, ..., -1] = T.arange(3.0)
    x[x == 0] = T.tensor(-1.0)
    x[1][x[1] > 3] *= 10
    y = T.arange(6).view(2, 3)
    y[y % 2 == 0] = T.tensor([100, 200, 300])
    z = T.zeros(3, 2)
    z[[0, 0, 2]] = T.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    return {
        "x": x,
        "y": y,
        "z": z,
        "bad_count": raises(lambda: y.__setitem__(y > 2, T.tensor([1, 2]))),
        "empty_mask": (y.__setitem__(y > 1000, 5), y)[1],
        "bool_scalar_idx": (lambda t: (t.__setitem__(True, 7.0), t)[1])(T.zeros(2)),
        "none_idx": (lambda t: (t.__setitem__(None, 3.0), t)[1])(T.zeros(2)),
    }


@program()
def prog_scatter_and_gather_3d_with_grads(T: Any) -> Any:
    src = _leaf(T, 2, 3, 4)
    idx = T.tensor([[[0, 1, 2, 0]], [[2, 2, 1, 0]]])
    g = src.gather(1, idx)
    s = T.zeros(2, 3, 4).scatter(1, idx, g * 2)
    sa = T.zeros(2, 3, 4).scatter_add(2, T.tensor([[[3, 3, 0, 1]]]).expand(2, 3, 4), src)
    sr = src.scatter_reduce(2, T.zeros(2, 3, 4, dtype=T.long), src * 0.5, "amax")
    (g.sum() + s.sum() + sa.square().sum() + sr.sum()).backward()
    return {"g": g, "s": s, "sa": sa, "sr": sr, "grad": src.grad}


@program()
def prog_complex_tensor_ops_and_views(T: Any) -> Any:
    z = T.tensor([1 + 2j, -3 + 0.5j, 2j], requires_grad=True)
    r = T.view_as_real(z)
    a = z.abs()
    ang = z.angle()
    conj = z.conj()
    loss = a.sum() + ang.sum() + (z * conj).real.sum() + r[:, 1].sum()
    loss.backward()
    c = T.complex(T.tensor([1.0, 2.0]), T.tensor([0.5, -1.0]))
    p = T.polar(T.tensor([2.0]), T.tensor([0.5]))
    return {
        "r": r,
        "a": a,
        "ang": ang,
        "conj": conj.detach(),
        "g": z.grad,
        "c": c,
        "p": p,
        "real_view": _layout(c.real),
        "imag": c.imag,
        "var": raises(lambda: T.view_as_complex(T.ones(3))),
        "vac": T.view_as_complex(T.ones(2, 2)),
        "promote": (c * 2.5).dtype,
        "lt": raises(lambda: c < c),
        "isreal": T.isreal(T.tensor([1 + 0j, 1j])),
        "no_order": [
            raises(lambda: c.max()),
            raises(lambda: c.sort()),
            raises(lambda: c.argmax()),
            raises(lambda: T.maximum(c, c)),
            raises(lambda: c.clamp(0, 1)),
            raises(lambda: c.floor()),
            raises(lambda: c.round()),
            raises(lambda: c.topk(1)),
            raises(lambda: c.median()),
            raises(lambda: c.amax()),
        ],
    }


@program()
def prog_lazy_conj_flags(T: Any) -> Any:
    z = T.tensor([1 + 2j, -1j], requires_grad=True)
    c = z.conj()
    r = c.resolve_conj()
    return {"is_conj": c.is_conj(), "r": r, "r_is_conj": r.is_conj(), "gf": [c.grad_fn, r.grad_fn]}


@program()
def prog_python_number_conversions(T: Any) -> Any:
    one = T.tensor([2.5])
    many = T.tensor([1.0, 2.0])
    return {
        "float": float(one),
        "int": int(T.tensor(-2.7)),
        "bool": bool(T.tensor([0.0])),
        "complex": complex(T.tensor(1 + 1j)),
        "index": [10, 20, 30][T.tensor(1)],
        "range": list(range(T.tensor(3))),
        "item_many": raises(lambda: many.item()),
        "bool_many": raises(lambda: bool(many)),
        "float_many": raises(lambda: float(many)),
        "index_float": raises(lambda: [1, 2][T.tensor(1.0)]),
        "len0d": raises(lambda: len(T.tensor(1.0))),
        "iter0d": raises(lambda: iter(T.tensor(1.0))),
        "iter": [t for t in T.tensor([[1, 2], [3, 4]])],
        "contains": [2.0 in many, 5 in many],
        "tolist_0d": T.tensor(3).tolist(),
        "tolist_c": T.tensor([1 + 2j]).tolist(),
        "math": [abs(T.tensor(-2)), round(float(T.tensor(2.567)), 2), divmod(7, 2)],
        "hash_eq": T.tensor(1) == 1,
        "int_of_bool": int(T.tensor(True)),
    }


@program()
def prog_inplace_dtype_rules_and_out(T: Any) -> Any:
    i = T.tensor([1, 2, 3])
    f = T.tensor([0.5, 1.5, 2.5])
    out = T.empty(3)
    T.add(i, f, out=out)
    out_i = T.empty(3, dtype=T.long)
    return {
        "i_add_int": i.clone().add_(2),
        "f_add_i": f.clone().add_(i),
        "i_add_f": raises(lambda: i.clone().add_(f)),
        "i_mul_f_scalar": raises(lambda: i.clone().mul_(1.5)),
        "i_div": raises(lambda: i.clone().div_(2)),
        "i_floordiv": i.clone().floor_divide_(2),
        "b_add": raises(lambda: T.tensor([True]).add_(1)),
        "f16_add_f64": T.ones(2, dtype=T.float16).add_(T.ones(2, dtype=T.float64)),
        "out": out,
        "out_int_bad": raises(lambda: T.add(i, f, out=out_i)),
        "out_int_ok": T.add(i, i, out=out_i),
        "mul_out_resize": raises(lambda: T.mul(f, f, out=T.empty(2, 2))),
        "clamp_int_float": T.clamp(i, min=1.5),
        "clamp_": raises(lambda: i.clone().clamp_(min=1.5)),
        "pow_int_neg": raises(lambda: i.pow(-1)),
        "pow_int_float": i.pow(0.5),
        "sqrt_int": T.sqrt(i),
        "mean_int": raises(lambda: i.mean()),
        "sum_bool": T.tensor([True, True]).sum(),
        "prod_int8": T.tensor([100, 100], dtype=T.int8).prod(),
    }


@program()
def prog_random_on_noncontiguous_views(T: Any) -> Any:
    T.manual_seed(8)
    a = T.zeros(4, 20)
    a[:, ::2].normal_()
    b = T.zeros(20, 4).t()
    b.uniform_(-1, 1)
    c = T.zeros(6, 6)
    c.diagonal().exponential_()
    d = T.zeros(3, 18)[:, 1:].bernoulli_(0.5)
    e = T.zeros(32)
    e.normal_(2.0, 3.0)
    f = T.zeros(17, dtype=T.float64).normal_()
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "after": T.randn(3)}


@program()
def prog_randn_like_and_shuffled_batches(T: Any) -> Any:
    T.manual_seed(31)
    x = T.arange(12.0).view(6, 2)
    noise = T.randn_like(x)
    perm = T.randperm(6)
    shuffled = x[perm]
    idx = T.rand(6).argsort()
    ri = T.randint_like(x, 3, 9)
    ri_low = T.randint_like(x.long(), 4)
    batches = [b for b in shuffled.split(4)]
    g = T.Generator().manual_seed(31)
    return {
        "noise": noise,
        "perm": perm,
        "shuffled": shuffled,
        "idx": idx,
        "ri": ri,
        "ri_low": ri_low,
        "batches": batches,
        "gen_perm": T.randperm(6, generator=g),
        "big_perm": T.randperm(100)[:10],
        "perm_dtype": T.randperm(4, dtype=T.int32),
        "rand_like_int": raises(lambda: T.rand_like(x.long())),
    }


@program()
def prog_view_dtype_reinterpret_and_memory_format(T: Any) -> Any:
    f = T.tensor([1.0, -2.0, 0.5, 3.0])
    img = T.arange(24.0).view(1, 2, 3, 4)
    cl = img.to(memory_format=T.channels_last)
    return {
        "as_int": f.view(T.int32),
        "as_u8": f.view(T.uint8).shape,
        "as_f16": f.view(T.float16),
        "as_i64": f.view(T.int64),
        "back": f.view(T.int32).view(T.float32),
        "bad": raises(lambda: f[:3].view(T.float64)),
        "cl": _layout(cl),
        "cl_is": [
            cl.is_contiguous(memory_format=T.channels_last),
            img.is_contiguous(memory_format=T.channels_last),
        ],
        "cl_contig": _layout(cl.contiguous()),
        "cl_vals_same": T.equal(cl, img),
        "cl_op": _layout(cl * 2),
        "cl_clone": _layout(cl.clone()),
        "cl_clone_contig": _layout(cl.clone(memory_format=T.contiguous_format)),
        "expanded_contig": _layout(T.ones(3, 1).expand(3, 4).contiguous()),
        "expanded_reshape": _layout(T.ones(3, 1).expand(3, 4).reshape(12)),
        "squeeze_strides": _layout(T.ones(1, 3, 1, 2).squeeze()),
    }


@program()
def prog_where_clamp_mixed_dtypes_grads(T: Any) -> Any:
    x = _leaf(T, 6)
    c = x.clamp(-0.5, 0.5)
    c2 = T.clamp(x, min=T.zeros(6), max=T.full((6,), 0.3))
    w = T.where(x > 0, x.sqrt(), -x)
    nn = T.nan_to_num(T.where(x > 0, x.log(), T.tensor(float("nan"))), nan=0.0)
    (c.sum() + c2.sum() + w.sum() + nn.sum()).backward()
    return {
        "c": c,
        "c2": c2,
        "w": w,
        "nn": nn,
        "g": x.grad,
        "gf": [c.grad_fn, c2.grad_fn, w.grad_fn, nn.grad_fn],
        "clamp_none": raises(lambda: x.clamp()),
        "clamp_min_gt_max": T.clamp(T.tensor([1.0, 5.0]), min=3, max=2),
        "clip": T.clip(T.tensor([1, 5, 9]), 2, 6),
    }


# --- data-processing scripts ---------------------------------------------------------------


@program()
def prog_train_test_split_with_randperm(T: Any) -> Any:
    g = T.Generator().manual_seed(4)
    X = T.arange(20.0).view(10, 2)
    y = T.tensor([0, 1, 0, 1, 1, 0, 0, 1, 1, 0])
    perm = T.randperm(10, generator=g)
    n_train = int(0.7 * len(perm))
    tr, te = perm[:n_train], perm[n_train:]
    is_train = T.zeros(10, dtype=T.bool)
    is_train[tr] = True
    return {
        "perm": perm,
        "X_tr": X[tr],
        "y_te": y.index_select(0, te),
        "is_train": is_train,
        "X_masked": X[~is_train],
        "balance": [y[tr].float().mean(), y[te].sum()],
        "stratified": [T.nonzero(y == c).flatten()[T.randperm(5, generator=g)[:2]] for c in (0, 1)],
    }


@program()
def prog_knn_vote_with_cdist_topk(T: Any) -> Any:
    train = T.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [5.0, 5.0], [6.0, 5.0], [5.0, 6.5]])
    labels = T.tensor([0, 0, 0, 1, 1, 1])
    q = T.tensor([[0.2, 0.1], [5.5, 5.5], [3.0, 3.0]], requires_grad=True)
    d = T.cdist(q, train)
    dv, di = d.topk(3, largest=False)
    votes = labels[di]
    pred = votes.mode(dim=1).values
    w = 1.0 / (dv + 1e-3)
    score = T.zeros(3, 2).scatter_add(1, votes, w)
    score.sum().backward()
    return {"d": d, "dv": dv, "di": di, "votes": votes, "pred": pred, "score": score, "g": q.grad}


@program()
def prog_confusion_matrix_and_metrics(T: Any) -> Any:
    y_true = T.tensor([0, 1, 2, 2, 1, 0, 2, 1, 1])
    y_pred = T.tensor([0, 2, 2, 2, 1, 0, 1, 1, 0])
    C = 3
    cm = T.bincount(y_true * C + y_pred, minlength=C * C).view(C, C)
    tp = cm.diag()
    precision = tp / cm.sum(0)
    recall = tp.float() / cm.sum(1)
    f1 = 2 * precision * recall / (precision + recall)
    empty_cls = T.tensor([0, 0]) / T.tensor([0, 0])
    return {
        "cm": cm,
        "tp": tp,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "macro": f1.nanmean(),
        "acc": (y_true == y_pred).float().mean(),
        "nan_div": empty_cls,
        "nan_to_num": T.nan_to_num(empty_cls),
        "cm_norm": cm / cm.sum(1, keepdim=True),
    }


@program()
def prog_manual_padding_sorting_unsorting(T: Any) -> Any:
    seqs = [
        T.tensor([1.0, 2.0]),
        T.tensor([3.0, 4.0, 5.0, 6.0]),
        T.tensor([7.0]),
        T.tensor([8.0, 9.0]),
    ]
    lengths = T.tensor([len(s) for s in seqs])
    padded = T.zeros(len(seqs), int(lengths.max()))
    for i, s in enumerate(seqs):
        padded[i, : len(s)] = s
    lens_sorted, order = lengths.sort(descending=True, stable=True)
    inv = T.empty_like(order)
    inv[order] = T.arange(len(order))
    inv2 = T.argsort(order)
    restored = padded[order][inv]
    mask = T.arange(padded.shape[1]).expand(len(seqs), -1) < lengths.unsqueeze(1)
    return {
        "padded": padded,
        "order": order,
        "lens_sorted": lens_sorted,
        "inv": inv,
        "same_inv": T.equal(inv, inv2),
        "restored_ok": T.equal(restored, padded),
        "mask": mask,
        "means": (padded * mask).sum(1) / lengths,
        "last": padded.gather(1, (lengths - 1).unsqueeze(1)).squeeze(1),
        "pad_fn": T.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0),
    }


@program()
def prog_moving_average_three_ways(T: Any) -> Any:
    x = _leaf(T, 12)
    k = 3
    a = x.unfold(0, k, 1).mean(-1)
    cs = T.cat([T.zeros(1), x.cumsum(0)])
    b = (cs[k:] - cs[:-k]) / k
    c = T.nn.functional.conv1d(x.view(1, 1, -1), T.full((1, 1, k), 1.0 / k)).flatten()
    e = T.nn.functional.avg_pool1d(x.view(1, 1, -1), k, stride=1).flatten()
    (a.sum() + b.square().sum() + c.sum() + e.sum()).backward()
    return {"a": a, "b": b, "c": c, "e": e, "g": x.grad, "gf": [a.grad_fn, b.grad_fn]}


@program()
def prog_box_iou_and_greedy_nms(T: Any) -> Any:
    boxes = T.tensor(
        [
            [0.0, 0.0, 10.0, 10.0],
            [1.0, 1.0, 11.0, 11.0],
            [20.0, 20.0, 30.0, 30.0],
            [0.0, 0.0, 9.0, 9.0],
            [21.0, 19.0, 29.0, 31.0],
        ]
    )
    scores = T.tensor([0.9, 0.8, 0.75, 0.95, 0.6])
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    lt = T.max(boxes[:, None, :2], boxes[None, :, :2])
    rb = T.min(boxes[:, None, 2:], boxes[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    iou = inter / (area[:, None] + area[None, :] - inter)
    order = scores.argsort(descending=True)
    keep = []
    suppressed = T.zeros(5, dtype=T.bool)
    for i in order.tolist():
        if suppressed[i]:
            continue
        keep.append(i)
        suppressed |= iou[i] > 0.5
    return {"iou": iou, "order": order, "keep": T.tensor(keep), "suppressed": suppressed}


@program()
def prog_ranks_percentiles_and_ties(T: Any) -> Any:
    x = T.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0])
    order = x.argsort(stable=True)
    ranks = T.empty_like(order).scatter_(0, order, T.arange(len(x)))
    ranks2 = order.argsort(stable=True)
    pct = ranks.float() / (len(x) - 1)
    dense = T.unique(x, return_inverse=True)[1]
    return {
        "ranks": ranks,
        "same": T.equal(ranks, ranks2),
        "pct": pct,
        "dense": dense,
        "kth": x.kthvalue(3),
        "median": x.median(),
        "q": x.quantile(T.tensor([0.1, 0.9])),
        "top3": x.topk(3),
        "desc_stable": x.sort(descending=True, stable=True).indices,
    }


@program()
def prog_group_by_with_index_add(T: Any) -> Any:
    vals = _leaf(T, 8, 2)
    groups = T.tensor([2, 0, 1, 2, 2, 0, 1, 1])
    n = int(groups.max()) + 1
    sums = T.zeros(n, 2).index_add(0, groups, vals)
    counts = T.zeros(n).index_add_(0, groups, T.ones(8))
    means = sums / counts[:, None]
    centered = vals - means[groups]
    var = T.zeros(n, 2).index_add(0, groups, centered**2) / counts[:, None]
    (var.sum() + means.sum()).backward()
    return {"sums": sums, "counts": counts, "means": means, "var": var, "g": vals.grad}


@program()
def prog_integer_overflow_and_accumulate_dtypes(T: Any) -> Any:
    i8 = T.tensor([100, 100, -100], dtype=T.int8)
    u8 = T.tensor([10, 250], dtype=T.uint8)
    i32 = T.tensor([2**30, 2**30], dtype=T.int32)
    return {
        "i8_add": i8 + i8,
        "i8_mul": i8 * 3,
        "u8_sub": u8 - 20,
        "u8_neg": -u8,
        "i32_add": i32 + i32,
        "i32_sum": i32.sum(),
        "i8_sum_dtype": i8.sum().dtype,
        "i8_sum_keep": i8.sum(dtype=T.int8),
        "i8_cumsum": i8.cumsum(0),
        "i32_prod": i32.prod(),
        "u8_mean": raises(lambda: u8.mean()),
        "i8_abs_min": T.tensor([-128], dtype=T.int8).abs(),
        "bool_sum": T.tensor([True, True, True]).sum(),
        "bool_prod": T.tensor([True, False]).prod(),
        "i64_big": T.tensor([2**62]) * 4,
        "pow_overflow": T.tensor([10], dtype=T.int16) ** 5,
        "shift_overflow": T.tensor([1], dtype=T.int8) << 7,
    }


@program()
def prog_half_precision_accumulation_and_rounding(T: Any) -> Any:
    h = T.full((1000,), 0.1, dtype=T.float16)
    x = T.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1.005])
    return {
        "h_sum": h.sum(),
        "h_cumsum_last": h.cumsum(0)[-1],
        "h_mean": h.mean(),
        "h_sum_f32": h.sum(dtype=T.float32),
        "h_prod": T.full((4,), 3.0, dtype=T.float16).prod(),
        "round": x.round(),
        "round2": x.round(decimals=2),
        "round_neg_dec": T.tensor([1234.5, 55.0]).round(decimals=-1),
        "floor_ceil": [x.floor(), x.ceil(), x.trunc(), x.frac()],
        "h_div": T.tensor([1.0], dtype=T.float16) / 3,
        "h_exp": T.tensor([11.0, 12.0], dtype=T.float16).exp(),
        "h_tiny": T.tensor([1e-8], dtype=T.float16),
        "h_matmul": T.ones(3, 4, dtype=T.float16) @ T.full((4, 2), 0.3, dtype=T.float16),
        "f32_eps": T.finfo(T.float32).eps,
        "f16_info": [T.finfo(T.float16).max, T.finfo(T.float16).tiny, T.iinfo(T.int8).min],
    }


@program()
def prog_bool_tensor_logic_and_reductions(T: Any) -> Any:
    a = T.tensor([[True, False, True], [False, False, True]])
    b = T.tensor([True, True, False])
    return {
        "any": [a.any(), a.any(0), a.any(dim=1, keepdim=True)],
        "all": [a.all(), a.all(1), T.all(T.tensor([]))],
        "and": a & b,
        "or": a | b,
        "xor": a ^ b,
        "not": ~a,
        "sum_dtype": a.sum(1),
        "mean_err": raises(lambda: a.mean()),
        "float_mean": a.float().mean(0),
        "mul_float": a * 1.5,
        "add_int": a + 1,
        "cumsum": a.cumsum(1),
        "argmax": a.int().argmax(1),
        "max": a.max(),
        "eq": a == b,
        "where_int": T.where(a, 1, -1),
        "any_int": T.tensor([0, 2]).any(),
        "all_float": T.tensor([1.0, float("nan")]).all(),
        "nonzero": a.nonzero(),
        "count": a.count_nonzero(0),
    }


@program()
def prog_causal_mask_attention_scores(T: Any) -> Any:
    q = _leaf(T, 2, 4, 3)
    k = _leaf(T, 2, 4, 3, seed=1)
    scores = q @ k.transpose(-1, -2) / 3**0.5
    causal = T.triu(T.ones(4, 4, dtype=T.bool), diagonal=1)
    pad = T.tensor([[False, False, False, True], [False, False, True, True]])
    masked = scores.masked_fill(causal, float("-inf")).masked_fill(pad[:, None, :], float("-inf"))
    attn = masked.softmax(-1)
    attn = T.nan_to_num(attn)
    (attn * T.arange(4.0)).sum().backward()
    return {
        "causal": causal,
        "tril": T.tril(T.ones(3, 3), -1),
        "triu_int": T.triu(T.arange(9).view(3, 3), 1),
        "attn": attn,
        "gq": q.grad,
        "gk": k.grad,
        "gf": [masked.grad_fn, attn.grad_fn],
        "tril_1d": raises(lambda: T.tril(T.ones(3))),
    }


@program()
def prog_sequence_nll_with_gather_and_ignore(T: Any) -> Any:
    logits = _leaf(T, 2, 5, 4)
    targets = T.tensor([[1, 3, 0, -100, -100], [2, 2, 1, 3, -100]])
    lp = logits.log_softmax(-1)
    valid = targets != -100
    safe = targets.clamp(min=0)
    tok = -lp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    loss = (tok * valid).sum() / valid.sum()
    ref = T.nn.functional.cross_entropy(logits.transpose(1, 2), targets)
    loss.backward()
    return {"tok": tok, "loss": loss, "ref": ref, "g": logits.grad, "valid": valid}


@program()
def prog_randint_ranges_and_dtypes(T: Any) -> Any:
    T.manual_seed(77)
    return {
        "big": T.randint(0, 2**40, (4,)),
        "neg": T.randint(-(2**33), 2**33, (3,)),
        "i16": T.randint(-5, 5, (6,), dtype=T.int16),
        "u8": T.randint(0, 256, (5,), dtype=T.uint8),
        "f32": T.randint(0, 10, (4,), dtype=T.float32),
        "f64": T.randint(3, (2, 2), dtype=T.float64),
        "bool": T.randint(0, 2, (5,), dtype=T.bool),
        "size_tuple": T.randint(5, size=(3,)),
        "one": T.randint(4, 5, (3,)),
        "after": T.rand(2),
        "u8_bad": raises(lambda: T.randint(0, 300, (2,), dtype=T.uint8)),
        "empty_range": raises(lambda: T.randint(3, 3, (2,))),
    }


@program()
def prog_gumbel_max_sampling(T: Any) -> Any:
    T.manual_seed(13)
    logits = T.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]])
    u = T.rand(4, 2, 3)
    gumbel = -T.log(-T.log(u))
    samples = (logits + gumbel).argmax(-1)
    e = T.empty(2, 3).exponential_()
    race = (e / logits.softmax(-1)).argmin(-1)
    soft = T.nn.functional.gumbel_softmax(logits, tau=0.5)
    hard = T.nn.functional.gumbel_softmax(logits, tau=0.5, hard=True)
    return {"samples": samples, "race": race, "soft": soft, "hard": hard, "after": T.rand(1)}


@program()
def prog_interleaved_generators_and_global(T: Any) -> Any:
    T.manual_seed(3)
    ga = T.Generator().manual_seed(100)
    gb = T.Generator().manual_seed(100)
    out = []
    for step in range(3):
        out.append(T.rand(2, generator=ga))
        out.append(T.randn(2))
        out.append(T.randint(0, 50, (2,), generator=gb))
        out.append(T.empty(2).normal_(generator=ga if step % 2 else gb))
    state = ga.get_state()
    x = T.rand(3, generator=ga)
    gc = T.Generator()
    gc.set_state(state)
    y = T.rand(3, generator=gc)
    return {"out": out, "x": x, "y": y, "same": T.equal(x, y), "gen_seed": gc.initial_seed()}


@program()
def prog_manual_dropout_with_generator(T: Any) -> Any:
    g = T.Generator().manual_seed(21)
    x = _leaf(T, 4, 6)
    keep = T.empty(4, 6).bernoulli_(0.75, generator=g)
    y = x * keep / 0.75
    mask_t = T.bernoulli(T.full((4, 1), 0.5), generator=g)
    z = x * mask_t
    (y.sum() + z.square().sum()).backward()
    return {"keep": keep, "y": y, "mask_t": mask_t, "g": x.grad, "next": T.rand(2, generator=g)}


@program()
def prog_elementwise_result_layouts(T: Any) -> Any:
    a = T.arange(6.0).view(2, 3)
    t = a.t()
    c = T.ones(3, 2)
    return {
        "t_plus_t": _layout(t + t),
        "c_plus_t": _layout(c + t),
        "t_exp": _layout(t.exp()),
        "t_mul_scalar": _layout(t * 2),
        "t_clone": _layout(t.clone()),
        "t_relu": _layout(T.relu(t)),
        "t_where": _layout(T.where(t > 1, t, 0.0)),
        "sliced_add": _layout(a[:, ::2] + 1),
        "expanded_add": _layout(T.ones(3, 1).expand(3, 4) + 1),
        "t_sum0": _layout(t.sum(0)),
        "t_cumsum": _layout(t.cumsum(0)),
        "empty_like_t": _layout(T.empty_like(t)),
    }


@program()
def prog_result_layout_follows_first_operand(T: Any) -> Any:
    t = T.arange(6.0).view(2, 3).t()
    cl = T.ones(1, 2, 3, 3).to(memory_format=T.channels_last)
    return {
        "t_plus_c": _layout(t + T.ones(3, 2)),
        "cl_plus_contig": _layout(cl + T.ones(1, 2, 3, 3)),
        "t_softmax": _layout(t.softmax(0)),
    }


@program()
def prog_empty_tensor_edge_cases(T: Any) -> Any:
    e = T.zeros(0, 3)
    return {
        "sum": e.sum(),
        "sum0": e.sum(0),
        "prod": e.prod(),
        "mean": e.mean(),
        "max_err": raises(lambda: e.max()),
        "max_dim1": e.max(1),
        "max_dim0_err": raises(lambda: e.max(0)),
        "argmax_err": raises(lambda: e.argmax()),
        "amax_dim1": e.amax(1),
        "std": e.std(),
        "cat": T.cat([e, T.ones(1, 3)]),
        "idx": e[T.tensor([], dtype=T.long)],
        "mask": T.ones(3)[T.zeros(3, dtype=T.bool)],
        "sort": e.sort(0),
        "topk0": e.topk(0, dim=0),
        "cumsum": e.cumsum(0),
        "unique": T.unique(e),
        "mm": e.t() @ e,
        "repr": repr(e),
        "any_all": [e.any(), e.all()],
        "median_err": raises(lambda: e.median()),
        "min_dim0_err": raises(lambda: e.min(0)),
    }


@program()
def prog_nan_aware_reductions_and_sorting(T: Any) -> Any:
    x = T.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), -1.0]])
    return {
        "sum": x.sum(1),
        "nansum": x.nansum(1),
        "nanmean": x.nanmean(1),
        "max": x.max(1),
        "amax": x.amax(1),
        "argmax": x.argmax(1),
        "argmin": x.argmin(1),
        "min_all": x.min(),
        "sort": x.sort(1),
        "sort_desc": x.sort(1, descending=True),
        "topk": x.topk(2, 1),
        "topk_small": x.topk(2, 1, largest=False),
        "unique": T.unique(x),
        "nanmedian": x.nanmedian(1),
        "median": x.median(1),
        "cummax": x.cummax(1),
        "eq_self": x == x,
        "isnan_any": x.isnan().any(1),
        "maximum": T.maximum(x, T.zeros(2, 3)),
        "fmax": T.fmax(x, T.zeros(2, 3)),
        "clamp": x.clamp(0, 2),
        "nan_to_num": x.nan_to_num(nan=-9.0),
        "quantile_nan": T.quantile(x[0], 0.5),
        "nanquantile": T.nanquantile(x, 0.5, dim=1),
        "mode": x.mode(1),
        "kth": x.kthvalue(2, 1),
        "logsumexp": x.logsumexp(1),
        "softmax": x.softmax(1),
    }


@program()
def prog_missing_value_imputation(T: Any) -> Any:
    # fill NaNs with the column mean, clip outliers to quantiles, standardise
    data = T.tensor(
        [
            [1.0, 200.0, float("nan")],
            [2.0, float("nan"), 0.5],
            [float("nan"), 180.0, 0.7],
            [4.0, 5000.0, 0.6],
        ]
    )
    col_mean = data.nanmean(0)
    missing = data.isnan()
    filled = T.where(missing, col_mean.expand_as(data), data)
    lo = filled.quantile(0.1, dim=0, keepdim=True)
    hi = filled.quantile(0.9, dim=0, keepdim=True)
    clipped = filled.clamp(min=lo, max=hi)
    z = (clipped - clipped.mean(0)) / clipped.std(0, unbiased=False)
    return {
        "col_mean": col_mean,
        "missing_per_col": missing.sum(0),
        "filled": filled,
        "lo": lo,
        "hi": hi,
        "clipped": clipped,
        "z": z,
        "rows_complete": (~missing).all(1).nonzero().flatten(),
    }


@program()
def prog_pixel_coordinates_and_bilinear_gather(T: Any) -> Any:
    img = _leaf(T, 4, 5)
    ys, xs = T.meshgrid(T.arange(4), T.arange(5), indexing="ij")
    coords = T.stack([ys, xs], -1)
    pts = T.tensor([[0.5, 1.25], [2.75, 3.5], [3.0, 0.0]])
    y0 = pts[:, 0].floor().long().clamp(0, 2)
    x0 = pts[:, 1].floor().long().clamp(0, 3)
    wy = pts[:, 0] - y0
    wx = pts[:, 1] - x0
    v = (
        img[y0, x0] * (1 - wy) * (1 - wx)
        + img[y0 + 1, x0] * wy * (1 - wx)
        + img[y0, x0 + 1] * (1 - wy) * wx
        + img[y0 + 1, x0 + 1] * wy * wx
    )
    v.sum().backward()
    flat_idx = y0 * 5 + x0
    return {
        "coords_shape": coords.shape,
        "corner": coords[3, 4],
        "v": v,
        "g": img.grad,
        "flat": img.detach().flatten()[flat_idx],
        "unravel": T.unravel_index(flat_idx, (4, 5)),
    }


@program()
def prog_creation_under_float64_default(T: Any) -> Any:
    old = T.get_default_dtype()
    try:
        T.set_default_dtype(T.float64)
        out = {
            "tensor": T.tensor([1.5, 2.0]),
            "int_tensor": T.tensor([1, 2]),
            "full": T.full((2,), 1.5),
            "arange_f": T.arange(0, 1, 0.25),
            "linspace": T.linspace(0, 1, 3),
            "zeros": T.zeros(2),
            "rand_dtype": T.rand(1).dtype,
            "complex": T.tensor([1j]).dtype,
            "promote": (T.tensor([1, 2]) * 0.5).dtype,
            "np_f32_kept": T.from_numpy(np.ones(2, np.float32)).dtype,
            "as_tensor_list": T.as_tensor([0.5]).dtype,
            "int_div": (T.tensor([3]) / 2).dtype,
        }
    finally:
        T.set_default_dtype(old)
    out["bad_default"] = raises(lambda: T.set_default_dtype(T.int32))
    return out


@program()
def prog_type_method_variants_and_to_signatures(T: Any) -> Any:
    x = T.tensor([[1.7, -2.2], [0.0, 3.5]])
    return {
        "type_cls": x.type(T.IntTensor if hasattr(T, "IntTensor") else "torch.IntTensor"),
        "type_str_long": x.type("torch.LongTensor"),
        "type_dtype": x.type(T.bool),
        "to_other": x.to(T.ones(1, dtype=T.float64)),
        "to_nonblocking": x.to(T.int16, non_blocking=True),
        "to_device_dtype": x.to("cpu", T.float16),
        "to_copy_same": x.to(x.dtype, copy=True).data_ptr() != x.data_ptr(),
        "short": x.short(),
        "char": x.char(),
        "byte_neg": x.abs().byte(),
        "cfloat": x.cfloat(),
        "cdouble_dtype": x.cdouble().dtype,
        "float_from_complex_real": T.tensor([1 + 2j]).real.float(),
        "is_floating": [x.is_floating_point(), x.long().is_floating_point(), x.is_complex()],
        "type_as": T.tensor([1, 2]).type_as(x),
    }


@program()
def prog_full_inferred_dtypes_and_fill(T: Any) -> Any:
    return {
        "full_int": T.full((2,), 3).dtype,
        "full_bool": T.full((1,), False).dtype,
        "full_float": T.full((1,), 3.0).dtype,
        "full_np_int": T.full((1,), np.int32(3)).dtype,
        "full_tensor_val": raises(lambda: T.full((2,), T.tensor(1.5))),
        "full_0d": T.full((), 7),
        "fill_int_float": T.zeros(2, dtype=T.long).fill_(2.9),
        "fill_bool": T.zeros(2, dtype=T.bool).fill_(3),
        "fill_tensor": T.zeros(2).fill_(T.tensor(4)),
        "fill_nonscalar": raises(lambda: T.zeros(2).fill_(T.ones(2))),
        "fill_overflow": raises(lambda: T.zeros(2, dtype=T.int8).fill_(300)),
        "zero_": T.ones(2, dtype=T.int32).zero_(),
        "full_like_bool": T.full_like(T.ones(2), True),
        "ones_size_kw": T.ones(size=(2, 1)),
        "zeros_dtype_names": [
            T.zeros(1, dtype=d).dtype for d in (T.half, T.float, T.double, T.long, T.int, T.short)
        ],
    }


@program()
def prog_searchsorted_batched_sorter_and_grads(T: Any) -> Any:
    rows = T.tensor([[3.0, 1.0, 2.0], [9.0, 7.0, 8.0]])
    sorter = rows.argsort(dim=1)
    q = T.tensor([[1.5, 2.5], [7.0, 10.0]])
    cdf = T.tensor([0.1, 0.4, 0.7, 1.0])
    T.manual_seed(2)
    u = T.rand(6)
    samples = T.searchsorted(cdf, u)
    x = T.tensor([0.3, 1.7, 2.2], requires_grad=True)
    b = T.bucketize(x, T.tensor([1.0, 2.0]))
    return {
        "left": T.searchsorted(rows, q, sorter=sorter),
        "right": T.searchsorted(rows, q, sorter=sorter, right=True),
        "u": u,
        "samples": samples,
        "b": b,
        "b_rg": b.requires_grad,
        "int_seq_float_vals": T.searchsorted(T.tensor([1, 3, 5]), T.tensor([2.5, 5.0])),
        "bad_sorter": raises(lambda: T.searchsorted(rows, q, sorter=sorter.int())),
        "bad_sorter_shape": raises(lambda: T.searchsorted(rows, q, sorter=sorter[:, :2])),
        "empty_seq": T.searchsorted(T.tensor([]), T.tensor([1.0])),
    }


@program()
def prog_strides_after_slicing_and_transposes(T: Any) -> Any:
    x = T.arange(60.0).view(3, 4, 5)
    return {
        "slice": _layout(x[1:, ::2, 1:4]),
        "select_last": _layout(x[..., 2]),
        "none": _layout(x[:, None, 1]),
        "adv_then_slice": _layout(x[[0, 2], 1:3]),
        "slice_then_adv": _layout(x[:, [0, 2]]),
        "adv_middle": _layout(x[:, [1, 3], :2]),
        "split_adv": _layout(x[[0, 1], :, [2, 3]]),
        "perm_adv": _layout(x.permute(2, 0, 1)[[1, 1]]),
        "bool_mask": _layout(x[x[:, 0, 0] > 10]),
        "t_contig": _layout(x.transpose(0, 1).contiguous()),
        "squeeze_view": _layout(x[:1].squeeze(0)),
        "unsqueeze_strides": _layout(x[:, 1].unsqueeze(1)),
        "expand_strides": _layout(x[:, :1].expand(3, 4, 5)),
        "view_after_slice": raises(lambda: x[:, ::2].view(-1)),
        "view_after_slice_ok": _layout(x[:, :2].view(3, 10)),
        "is_contig_size1": T.ones(1, 3)[:, ::1].t().is_contiguous(),
    }


@program()
def prog_unique_consecutive_run_length_encoding(T: Any) -> Any:
    signal = T.tensor([0, 0, 1, 1, 1, 0, 2, 2, 0, 0, 0])
    vals, counts = T.unique_consecutive(signal, return_counts=True)
    ends = counts.cumsum(0)
    starts = ends - counts
    decoded = vals.repeat_interleave(counts)
    longest = counts.argmax()
    _, inv = signal.unique_consecutive(return_inverse=True)
    return {
        "vals": vals,
        "counts": counts,
        "starts": starts,
        "decoded_ok": T.equal(decoded, signal),
        "longest": [vals[longest], counts[longest], starts[longest]],
        "inv": inv,
        "f": T.tensor([1.0, 1.0, float("nan"), float("nan")]).unique_consecutive(
            return_counts=True
        ),
        "bool": T.tensor([True, True, False]).unique_consecutive(return_counts=True),
        "2d_dim1": T.tensor([[1, 1, 2], [3, 3, 4]]).unique_consecutive(dim=1, return_counts=True),
    }


@program()
def prog_repr_printoptions_complex_and_int(T: Any) -> Any:
    out = {}
    try:
        T.set_printoptions(precision=2)
        out["complex"] = repr(T.tensor([1.23456 + 2.5j, -0.001j]))
        out["int"] = repr(T.tensor([123456789, 1]))
        out["f64"] = repr(T.tensor([1 / 3], dtype=T.float64))
        T.set_printoptions(sci_mode=True, precision=3)
        out["complex_sci"] = repr(T.tensor([1.5 + 2j]))
        out["rg"] = repr(T.tensor([0.5], requires_grad=True) * 3)
        T.set_printoptions(precision=4, threshold=5, edgeitems=2)
        out["summ_complex"] = repr(T.arange(10).to(T.complex64))
        out["summ_bool"] = repr(T.ones(10, dtype=T.bool))
        out["summ_2d"] = repr(T.arange(49.0).view(7, 7))
    finally:
        T.set_printoptions(profile="default")
        T.set_printoptions(sci_mode=None)
    out["after"] = repr(T.tensor([1.23456789]))
    return out


@program()
def prog_index_put_on_views_and_version_counters(T: Any) -> Any:
    base = _leaf(T, 4, 3)
    y = base * 1
    v = y[1:]
    v[T.tensor([0, 2]), T.tensor([1, 1])] = T.tensor([9.0, 8.0])
    v.index_put_((T.tensor([1]),), T.tensor([-1.0, -2.0, -3.0]))
    w = y.t()
    w[0].masked_fill_(T.tensor([True, False, False, True]), 0.5)
    y.sum().backward()
    return {
        "y": y,
        "g": base.grad,
        "versions": [y._version, v._version, w._version],
        "gf": [y.grad_fn, v.grad_fn, w.grad_fn],
    }


@program()
def prog_scatter_reduce_for_segment_softmax(T: Any) -> Any:
    # softmax within groups, as graph attention layers compute it
    scores = _leaf(T, 7)
    seg = T.tensor([0, 0, 1, 1, 1, 2, 2])
    mx = T.full((3,), float("-inf")).scatter_reduce(0, seg, scores, "amax", include_self=False)
    ex = (scores - mx[seg]).exp()
    den = T.zeros(3).scatter_add(0, seg, ex)
    att = ex / den[seg]
    (att * T.arange(7.0)).sum().backward()
    mean = T.zeros(3).scatter_reduce(0, seg, scores.detach(), "mean", include_self=False)
    return {"mx": mx, "den": den, "att": att, "g": scores.grad, "mean": mean}


@program()
def prog_linspace_logspace_dtypes_and_grads(T: Any) -> Any:
    return {
        "lin_f16": T.linspace(0, 1, 5, dtype=T.float16),
        "lin_int_neg": T.linspace(-5, 5, 4, dtype=T.int32),
        "lin_complex": T.linspace(0, 1 + 1j, 3),
        "log_int": T.logspace(0, 3, 4, dtype=T.long),
        "log_base_e": T.logspace(0, 1, 3, base=2.718281828),
        "lin_rg": T.linspace(0, 1, 3, requires_grad=True),
        "lin_big_steps": T.linspace(0, 1, 1001)[[0, 333, 500, 999, 1000]],
        "lin_t_rg": raises(lambda: T.linspace(T.tensor([0.0]), 1, 3)),
        "arange_f16": T.arange(0, 1, 0.3, dtype=T.float16),
        "arange_out": (lambda o: (T.arange(4, out=o), o)[1])(T.empty(4, dtype=T.long)),
    }


@program()
def prog_take_put_gradients_and_negative_indices(T: Any) -> Any:
    x = _leaf(T, 2, 3)
    v = _leaf(T, 3, seed=1)
    t = x.take(T.tensor([[0, -1], [4, 4]]))
    p = x.put(T.tensor([1, -2, 1]), v, accumulate=True)
    p2 = x.put(T.tensor([0, 5]), v[:2])
    (t.sum() + (p * T.arange(6.0).view(2, 3)).sum() + p2.square().sum()).backward()
    return {
        "t": t,
        "p": p,
        "p2": p2,
        "gx": x.grad,
        "gv": v.grad,
        "gf": [t.grad_fn, p.grad_fn, p2.grad_fn],
        "neg_oob": raises(lambda: x.take(T.tensor([-7]))),
        "put_float_idx": raises(lambda: T.zeros(3).put_(T.tensor([0.0]), T.ones(1))),
    }


@program()
def prog_index_ops_negative_dims_and_indices(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    a = x.index_select(-1, T.tensor([3, 0]))
    b = x.gather(-1, T.tensor([[0], [3], [1]]))
    c = x.index_fill(-1, T.tensor([-1]), 0.0)
    d = x.index_add(-2, T.tensor([2, 0]), T.ones(2, 4))
    e = x.scatter(-1, T.tensor([[1], [2], [0]]), -5.0)
    f = x.masked_select(T.tensor([True, False, True, False]))
    (a.sum() + b.sum() * 2 + c.sum() + d.sum() + e.sum() + f.sum()).backward()
    return {
        "a": a,
        "b": b,
        "c": c,
        "d": d,
        "e": e,
        "f": f,
        "g": x.grad,
        "index_select_neg_idx": raises(lambda: x.index_select(0, T.tensor([-1]))),
        "index_add_neg_idx": raises(lambda: x.index_add(0, T.tensor([-1]), T.ones(1, 4))),
        "bad_dim": raises(lambda: x.gather(2, T.tensor([[0]]))),
    }


@program()
def prog_masked_scatter_broadcast_and_grads(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    src = _leaf(T, 3, 4, seed=1)
    col_mask = T.tensor([True, False, False, True])
    y = x.masked_scatter(col_mask, src)
    z = T.zeros(3, 4).masked_scatter(T.tensor([[True], [False], [True]]), src * 2)
    (y * T.arange(12.0).view(3, 4)).sum().backward(retain_graph=True)
    gsrc1 = src.grad.clone()
    z.sum().backward()
    return {
        "y": y,
        "z": z,
        "gx": x.grad,
        "gsrc1": gsrc1,
        "gsrc": src.grad,
        "gf": [y.grad_fn, z.grad_fn],
        "inplace": T.zeros(4).masked_scatter_(
            T.tensor([False, True, True, False]), T.tensor([7.0, 8.0, 9.0])
        ),
        "dtype_err": raises(
            lambda: T.zeros(2).masked_scatter(T.tensor([True, True]), T.ones(2, dtype=T.long))
        ),
    }


@program()
def prog_index_grad_fn_graphs(T: Any) -> Any:
    x = _leaf(T, 4, 3)
    outs = {
        "int": x[1],
        "slice": x[1:3],
        "none": x[None],
        "adv": x[[0, 2]],
        "mask": x[x.detach() > 0],
        "mixed": x[1:, [0, 2]],
        "ellipsis_int": x[..., 1],
        "step": x[::2],
        "select_then_adv": x[2][[0, 0]],
    }
    return {k: v.grad_fn for k, v in outs.items()} | {
        "shapes": [tuple(v.shape) for v in outs.values()]
    }


@program()
def prog_rand_out_and_size_forms(T: Any) -> Any:
    T.manual_seed(6)
    out = T.empty(2, 2)
    T.rand(2, 2, out=out)
    g = T.Generator().manual_seed(1)
    return {
        "out": out,
        "list_size": T.randn([2, 3], generator=g),
        "tuple_size": T.rand((3,)),
        "size_obj": T.zeros(2, 3).new_empty(T.Size([2])).shape,
        "randn_0d": T.randn(()),
        "rand_empty": T.rand(0, 3),
        "after_empty": T.rand(1),
        "randint_out": (lambda o: (T.randint(0, 3, (3,), out=o), o)[1])(T.empty(3, dtype=T.long)),
        "bad_size": raises(lambda: T.rand(2, -3)),
        "float_size": raises(lambda: T.rand(2.5)),
        "rand_rg": T.rand(2, requires_grad=True).requires_grad,
    }


_ONCE_SCRIPT = """
import json, sys, warnings
T = __import__(sys.argv[1])
calls = {
    "to_float": lambda: T.tensor([1 + 2j]).float(),
    "copy": lambda: T.zeros(2).copy_(T.tensor([1j, 2.0])),
    "setitem": lambda: T.zeros(3).__setitem__(slice(0, 2), T.tensor([1j, 3 + 0j])),
}
out = {}
for name, fn in calls.items():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    out[name] = [str(m.message).split(" (Triggered internally")[0] for m in w]
print(json.dumps(out))
"""


def test_complex_to_real_warns_once_fresh_process() -> None:
    """Casting complex to real warns once per process (torch's TORCH_WARN_ONCE), whichever of
    .to/copy_/setitem does it first."""
    import json
    import subprocess
    import sys

    def run_in(module: str, order: list[str]) -> Any:
        script = _ONCE_SCRIPT.replace("calls.items()", f"((k, calls[k]) for k in {order!r})")
        r = subprocess.run(
            [sys.executable, "-c", script, module], capture_output=True, text=True, check=True
        )
        return json.loads(r.stdout.strip().splitlines()[-1])

    for order in (["to_float", "copy", "setitem"], ["setitem", "copy", "to_float"]):
        a, b = run_in("torch", order), run_in("shadowgrad", order)
        assert a == b
        assert a[order[0]] and not a[order[1]], a


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
