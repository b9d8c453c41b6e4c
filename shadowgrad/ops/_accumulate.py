"""`np.add.at` with the same results, several times faster for the shapes backward formulas use.

Note [Accumulation in rounds]: index_add, scatter_add, index_put(accumulate=True) and the
backward of every gather-like op (index_select, embedding, advanced indexing, gather) add rows
of values into an array at indices that may repeat. torch's CPU kernels add them one after
another, in index order; `np.add.at` does the same, element by element, but slowly (4096 rows of
128 floats into 10,000: 4.7 ms; torch 0.5 ms). Here the additions are grouped in rounds: round r
adds the r-th occurrence of every index at once with a fancy `+=`, which has no repeated index
within a round, so each target still receives its values in index order and rounds once per
addition: the same bits as `np.add.at`. Indices that repeat more than `MAX_ROUNDS` times (a
histogram-like workload) keep `np.add.at`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _dtype as D

MAX_ROUNDS = 16
_MIN_ROWS = 64  # below this np.add.at's own cost is small


def add_at(out: np.ndarray, index: Any, values: Any) -> None:
    """np.add.at(out, index, values) for `index` an integer array (along the first axis), a
    tuple of integer arrays (the leading axes), or `(slice(None),) * d + (array,)` (along axis
    d); anything else (and out-of-range indices, for numpy's error) goes to np.add.at."""
    if out.dtype is _LD:
        _add_at_bf16(out, index, values)
        return
    if type(index) is not tuple:
        index = (index,)
    lead = 0
    while lead < len(index) and type(index[lead]) is slice and index[lead] == slice(None):
        lead += 1
    arrays = index[lead:]
    if (
        not arrays
        or out.dtype.kind not in "fciu"
        or not all(type(a) is np.ndarray and a.dtype.kind in "iu" for a in arrays)
        or (lead and len(arrays) != 1)
    ):
        np.add.at(out, index, values)
        return
    if lead:  # along axis `lead`: on a copy with that axis first, written back after
        if arrays[0].ndim != 1:
            np.add.at(out, index, values)
            return
        shape = (*out.shape[:lead], arrays[0].shape[0], *out.shape[lead + 1 :])
        try:
            vals = np.moveaxis(np.broadcast_to(values, shape), lead, 0)
        except ValueError:
            np.add.at(out, index, values)
            return
        target = np.ascontiguousarray(np.moveaxis(out, lead, 0))
        if _rounds(target, arrays, vals):
            out[...] = np.moveaxis(target, 0, lead)
        else:
            np.add.at(out, index, values)
        return
    if out.ndim == len(arrays):
        # one element per index: numpy 2's np.add.at has its own fast loop for that
        np.add.at(out, index, values)
        return
    if not _rounds(out, arrays, values):
        np.add.at(out, index, values)


_LD = D.LD  # a bfloat16 tensor's array (Note [bfloat16 storage])


def _add_at_bf16(out: np.ndarray, index: Any, values: Any) -> None:
    """add_at into a bfloat16 (longdouble) array as torch's CPU kernels accumulate bfloat16
    (index_add_, index_put_ with accumulate): one element at a time in index order, each sum
    rounded to bfloat16. In rounds: the k-th addition to every element at once."""
    lin = np.arange(out.size).reshape(out.shape)[index]
    if lin.size == 0:
        return
    vals = np.broadcast_to(values, lin.shape).reshape(-1)
    lin = lin.reshape(-1)
    order = np.argsort(lin, kind="stable")
    sk = lin[order]
    first = np.empty(sk.size, bool)
    first[0] = True
    np.not_equal(sk[1:], sk[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    rank = np.arange(sk.size) - np.repeat(starts, np.diff(np.append(starts, sk.size)))
    flat = out.reshape(-1).copy()
    for k in range(int(rank.max()) + 1):
        sel = order[rank == k]
        t = lin[sel]
        flat[t] = D.round_bf16(flat[t] + vals[sel])
    out[...] = flat.reshape(out.shape)


def _rounds(target: np.ndarray, arrays: tuple[np.ndarray, ...], values: Any) -> bool:
    k = len(arrays)
    if k > target.ndim:
        return False
    idx = np.broadcast_arrays(*arrays) if k > 1 else arrays
    key_shape = idx[0].shape
    m = math.prod(key_shape)
    if m < _MIN_ROWS:
        return False
    lead_shape = target.shape[:k]
    rest = target.shape[k:]
    try:
        flat = np.ravel_multi_index(
            tuple(
                np.where(a < 0, a + n, a).reshape(-1) for a, n in zip(idx, lead_shape, strict=True)
            ),
            lead_shape,
        )
    except ValueError:  # out of range: np.add.at raises numpy's IndexError
        return False
    try:
        vals = np.broadcast_to(values, key_shape + rest).reshape(m, -1)
    except ValueError:
        return False
    if not target.flags.c_contiguous:
        return False
    rows = target.reshape(math.prod(lead_shape), -1)
    order = np.argsort(flat, kind="stable")
    sk = flat[order]
    first = np.empty(m, bool)
    first[0] = True
    np.not_equal(sk[1:], sk[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    rank = np.arange(m) - np.repeat(starts, np.diff(np.append(starts, m)))
    n_rounds = int(rank.max()) + 1
    if n_rounds > MAX_ROUNDS:
        return _columns(rows, flat, vals, order, sk, starts, rank, n_rounds)
    if n_rounds == 1:
        rows[flat] += vals
        return True
    for r in range(n_rounds):
        sel = order[rank == r]
        rows[flat[sel]] += vals[sel]
    return True


def _columns(
    rows: np.ndarray,
    flat: np.ndarray,
    vals: np.ndarray,
    order: np.ndarray,
    sk: np.ndarray,
    starts: np.ndarray,
    rank: np.ndarray,
    n_rounds: int,
) -> bool:
    """Many repeats (a running maximum's indices, a histogram): each target's current value and
    then its values in index order go down one column of a (rounds + 1, targets) array, padded
    with -0.0 (x + -0.0 is x, signed zeros included), and a reduction along the first axis adds
    them in that order, as the one-by-one additions would. Used while the padded array stays
    within a few times the values' size; False (np.add.at) otherwise."""
    g = len(starts)
    m = len(flat)
    if vals.dtype != rows.dtype or g * (n_rounds + 1) > 8 * m + 4096:
        return False
    pad = -0.0 if rows.dtype.kind in "fc" else 0
    cols = np.full((n_rounds + 1, g, rows.shape[1]), pad, rows.dtype)
    targets = sk[starts]
    cols[0] = rows[targets]
    group = np.repeat(np.arange(g), np.diff(np.append(starts, m)))
    cols[rank + 1, group] = vals[order]
    rows[targets] = np.add.reduce(cols, axis=0)
    return True
