"""torch's layout and memory-format objects, and the constants of the torch namespace
(`torch.strided`, `torch.channels_last`, `torch.pi`, `torch.inf`, ...).

A channels-last tensor is an ordinary array whose strides put the channel dimension innermost
(NHWC in memory for an NCHW shape), as in torch: `contiguous(memory_format=channels_last)`,
`to(memory_format=...)` and `clone(memory_format=...)` give those strides, and
`is_contiguous(memory_format=...)` tells them apart. Every op computes the same values on any
strides.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


class _Named:
    """A torch constant known by name: printed as `torch.<name>`, pickled as that name."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    def __reduce__(self) -> str:
        return self._name


class layout(_Named):
    """Mirrors `torch.layout`; shadowgrad's tensors are all `torch.strided`."""

    __slots__ = ()


class memory_format(_Named):
    """Mirrors `torch.memory_format`."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
jagged = layout("jagged")

contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

pi = math.pi
e = math.e
inf = math.inf
nan = math.nan
newaxis = None

__all__ = [
    "channels_last",
    "channels_last_3d",
    "contiguous_format",
    "e",
    "inf",
    "jagged",
    "layout",
    "memory_format",
    "nan",
    "newaxis",
    "pi",
    "preserve_format",
    "sparse_bsc",
    "sparse_bsr",
    "sparse_coo",
    "sparse_csc",
    "sparse_csr",
    "strided",
]


def _order(fmt: Any, ndim: int) -> tuple[int, ...] | None:
    """The memory order (outermost first) a format gives an ndim-d tensor; None for the
    row-major default."""
    if fmt is channels_last:
        if ndim != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        return (0, 2, 3, 1)
    if fmt is channels_last_3d:
        if ndim != 5:
            raise RuntimeError("required rank 5 tensor to use channels_last_3d format")
        return (0, 2, 3, 4, 1)
    return None


def relayout(a: np.ndarray, fmt: Any) -> np.ndarray:
    """a's values with the strides of fmt (a copy when they differ)."""
    order = _order(fmt, a.ndim)
    if order is None:
        return np.ascontiguousarray(a)
    inverse = np.argsort(order)
    # a fresh array, so that size-1 dims get torch's strides too (numpy's contiguity ignores
    # them: ascontiguousarray would keep a (1, 1, 4, 4) array's (16, 16, 4, 1) as they are)
    t = a.transpose(order)
    out = np.empty(t.shape, dtype=a.dtype)
    out[...] = t
    return out.transpose(inverse)


def has_format(a: np.ndarray, fmt: Any) -> bool:
    """Whether a is laid out in fmt (torch's is_contiguous(memory_format=fmt))."""
    order = _order(fmt, a.ndim)
    if order is None:
        return bool(a.flags.c_contiguous)
    expected = 1
    for d in reversed(order):
        if a.shape[d] != 1 and a.strides[d] != expected * a.itemsize:
            return False
        expected *= a.shape[d]
    return True


def suggested(a: np.ndarray) -> Any:
    """torch's suggest_memory_format(): channels_last(_3d) for a 4-d (5-d) array whose strides
    are like that format's (is_channels_last_strides_2d/3d: ambiguous layouts, such as a
    contiguous (1, 1, 4, 4) array, count as contiguous), contiguous_format otherwise."""
    if a.ndim == 4:
        order, fmt = (1, 3, 2, 0), channels_last
    elif a.ndim == 5:
        order, fmt = (1, 4, 3, 2, 0), channels_last_3d
    else:
        return contiguous_format
    sizes, strides = a.shape, [s // a.itemsize for s in a.strides]
    if strides[1] == 0:
        return contiguous_format
    low = 0
    for d in order:
        if sizes[d] == 0 or strides[d] < low or (d == 0 and low == strides[1]):
            return contiguous_format
        low = strides[d] * (sizes[d] if sizes[d] > 1 else 1)
    return fmt


def formatted(out: Any, fmt: Any) -> Any:
    """A fresh result laid out in a channels-last format (others leave it as it is)."""
    if fmt is channels_last or fmt is channels_last_3d:
        out._data = relayout(out._data, fmt)
    return out


def like_layout(out: Any, like: Any, fmt: Any) -> Any:
    """A fresh result `out` (shaped like `like`) given the strides torch's memory_format gives
    it: channels-last formats as asked, and for preserve_format (the default of clone and the
    *_like factories) preserve_result's: the strides of a dense, non-overlapping `like`, dense
    strides in its order for another; contiguous for an overlapping one."""
    if fmt is channels_last or fmt is channels_last_3d:
        return formatted(out, fmt)
    if fmt is contiguous_format:
        return out
    a = like._data
    if type(a) is not np.ndarray and getattr(a, "_sg_sparse", False):
        from .sparse._ops import sparse_like

        return sparse_like(out, a)  # zeros_like of a sparse tensor: sparse, as torch's
    if a.flags.c_contiguous or a.ndim < 2 or a.size < 2:
        return out
    if any(s == 0 and n > 1 for s, n in zip(a.strides, a.shape, strict=True)):
        return out  # overlapping (expanded): torch makes those contiguous
    if type(a) is np.ndarray:
        # torch keeps a dense input's strides exactly, a size-1 dimension's too (numpy's 'K'
        # order picks its own for those), and gives another dense strides in its order
        out._data = preserve_result(out._data, a)
        return out
    new = np.empty_like(a, dtype=out._data.dtype, order="K")  # a meta array stays meta
    new[...] = out._data
    out._data = new
    return out


def _dense(a: np.ndarray) -> bool:
    """torch's is_non_overlapping_and_dense, with non-negative strides."""
    expected = a.itemsize
    for st, n in sorted((st, n) for st, n in zip(a.strides, a.shape, strict=True) if n != 1):
        if st != expected:
            return False
        expected *= n
    return True


def iterator_strides(shape: tuple[int, ...], operands: Any) -> list[int] | None:
    """The strides (in elements) torch's TensorIterator gives a new output of `shape` over
    these operand arrays (broadcast to it), or None for the row-major ones. As its
    reorder_dimensions: dimensions are sorted innermost first by the operands' strides, the
    first operand whose strides tell two dimensions apart deciding (a broadcast dimension, of
    stride 0, tells nothing; equal strides put the smaller dimension inside); the output is
    dense in that order. Operands all of one dense layout give that layout (its fast set-up).
    """
    nd = len(shape)
    table = []
    for a in operands:
        if not isinstance(a, np.ndarray) or a.ndim == 0:
            continue
        off = nd - a.ndim
        st = [0] * off
        for i, (n, s) in enumerate(zip(a.shape, a.strides, strict=True)):
            st.append(0 if n == 1 and shape[off + i] != 1 else s // a.itemsize)
        table.append(st)
    perm = list(range(nd - 1, -1, -1))  # innermost first

    def should_swap(d0: int, d1: int) -> int:
        for st in table:
            s0 = st[d0]
            s1 = st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    # torch's insertion sort, which stops at the first dimension that must stay inside
    for i in range(1, nd):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    if perm == list(range(nd - 1, -1, -1)):
        return None
    out = [0] * nd
    acc = 1
    for d in perm:
        out[d] = acc
        acc *= shape[d]
    return out


def iterator_result(out: np.ndarray, operands: Any) -> np.ndarray:
    """A fresh elementwise result laid out as TensorIterator would lay it out over these
    operands (a copy when numpy's layout differs). Note [Result layout] in ops/registry.py."""
    if out.ndim < 2 or out.size < 2:
        return out
    st = iterator_strides(out.shape, operands)
    if st is None:
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)
    return _restrided(out, st)


def preserve_result(out: np.ndarray, like: np.ndarray) -> np.ndarray:
    """A fresh result shaped like `like`, laid out as torch's clone(preserve_format) of it:
    like's strides when it is dense and non-overlapping, else dense strides in like's order
    of strides (c10's infer_dense_strides, TensorIterator's order for one operand)."""
    if out.shape != like.shape or out.ndim < 2 or out.size < 2:
        return out
    if type(like) is np.ndarray and _dense(like):
        st = [s // like.itemsize for s in like.strides]
    else:
        st = iterator_strides(out.shape, [like]) or [s // out.itemsize for s in _row_major(out)]
    return _restrided(out, st)


def preserve_strides_result(out: np.ndarray, like: np.ndarray) -> np.ndarray:
    """A fresh result shaped like `like`, laid out as torch's clone_preserve_strides of it (the
    out-of-place scatters): like's whole storage copied and viewed with like's strides and
    offset, so a sliced input's result is sliced alike; an input whose elements overlap is
    cloned contiguous."""
    from ._tensor import _storage_root

    if out.shape != like.shape or out.ndim < 1 or out.size < 2:
        return out
    if type(like) is not np.ndarray or any(s < 0 for s in like.strides):
        return preserve_result(out, like)
    if any(s == 0 and n > 1 for s, n in zip(like.strides, like.shape, strict=True)):
        return np.ascontiguousarray(out)  # overlapping (expanded)
    root = _storage_root(like)
    if not root.flags.c_contiguous or root.dtype != like.dtype or like.ndim == 0:
        return preserve_result(out, like)
    if out.dtype != like.dtype:
        return preserve_result(out, like)
    flat = root.reshape(-1).copy()
    offset = like.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    view = np.lib.stride_tricks.as_strided(
        flat[offset // like.itemsize :], like.shape, like.strides
    )
    view[...] = out
    return view


def _row_major(a: np.ndarray) -> tuple[int, ...]:
    st = []
    acc = a.itemsize
    for n in reversed(a.shape):
        st.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(st))


def _restrided(out: np.ndarray, st: list[int]) -> np.ndarray:
    """out's values in a fresh dense array with these strides (in elements); out itself when
    it has them already (size-1 dims too: TensorIterator's output has the computed strides)."""
    item = out.itemsize
    if all(s == t * item for s, t in zip(out.strides, st, strict=True)):
        return out
    buf = np.empty(out.size, out.dtype)
    new = np.lib.stride_tricks.as_strided(buf, out.shape, tuple(t * item for t in st))
    new[...] = out
    return new


def index_result(out: np.ndarray, src: np.ndarray, indices: Any) -> np.ndarray:
    """src[indices] (advanced indexing: a tuple of slice(None) and index arrays) laid out as
    torch's index kernel lays it out: a TensorIterator over src restrided to the result's
    shape (stride 0 where the index arrays' dims replace the indexed ones; those moved to the
    front when they are not adjacent) and the index arrays broadcast to it, so the kept dims
    keep src's order and the index dims follow the indices' layout."""
    nd = src.ndim
    idx = list(indices) + [slice(None)] * (nd - len(indices))
    pos = [i for i, a in enumerate(idx) if type(a) is not slice]
    shape = list(src.shape)
    sst = [s // src.itemsize for s in src.strides]
    if pos[-1] - pos[0] + 1 != len(pos):  # torch's transposeToFront
        order = pos + [i for i in range(nd) if i not in pos]
        idx, shape, sst = ([v[i] for i in order] for v in (idx, shape, sst))
        pos = list(range(len(pos)))
    before, last = pos[0], pos[-1] + 1
    arrays = np.broadcast_arrays(*(idx[i] for i in pos))
    k = arrays[0].ndim
    if out.ndim != before + k + nd - last or out.ndim < 2 or out.size < 2:
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)
    buf = np.empty(1, np.int8)  # operands described by their strides alone (never read)
    fake = np.lib.stride_tricks.as_strided
    ops = [fake(buf, out.shape, (*sst[:before], *(0,) * k, *sst[last:]))]
    for a in arrays:
        st = (*(0,) * before, *(s // a.itemsize for s in a.strides), *(0,) * (nd - last))
        ops.append(fake(buf, out.shape, st))
    st = iterator_strides(out.shape, ops)
    if st is None:
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)
    return _restrided(out, st)


def unbroadcast_order(out: np.ndarray, src: np.ndarray) -> np.ndarray:
    """A fresh copy `out` of src made in numpy's 'K' order (astype, copy('K')), laid out as
    torch's preserve_format copy: numpy orders a broadcast (stride-0) dimension innermost,
    where torch makes an overlapping input's copy contiguous. A C-contiguous result costs one
    flag read."""
    if out.ndim < 2 or out.flags.c_contiguous or 0 not in src.strides:
        return out
    if any(s == 0 and n > 1 for s, n in zip(src.strides, src.shape, strict=True)):
        return np.ascontiguousarray(out)
    return out
