"""Realistic programs, sixth set: the tensor API the way data-processing and modelling scripts
use it (advanced indexing and setitem, the scatter/gather family, sorting and counting,
cumulative ops and integer arithmetic, dtype promotion and conversions, creation functions and
numpy interop, seeded random sampling with generators, views, strides and reshaping, printing
with print options). The programs register into test_realistic_programs_3's set and run through
its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns, raises
or warns is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .compare import Tolerance
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_MINE: list[str] = []


def program(
    *, xfail: str | None = None, warnings: bool = True, tol: Tolerance | None = None
) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register `prog(T)` through test_realistic_programs_3's `program` (same options)."""

    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        name = fn.__name__.removeprefix("prog_")
        assert name not in _h.PROGRAMS, f"program {name} is already registered"
        _MINE.append(name)
        return _h.program(xfail=xfail, warnings=warnings, tol=tol)(fn)

    return deco


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


def _params() -> list[Any]:
    out = []
    for name in _MINE:
        xfail = _h.PROGRAMS[name].xfail
        marks = [pytest.mark.xfail(reason=xfail, strict=True)] if xfail else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
