"""Sorting and selection: sort, argsort, msort, topk, kthvalue, median, nanmedian, mode, and the
`torch.return_types` named tuples they return.

Each op picks its indices with numpy and hands them to an index-selecting op whose backward
scatters the gradient to those indices (see reduction.py), so the gradient goes to one index
per output element, as torch's does.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np

from .. import _dtype as D
from .._numpy_compat import skipped_by_warnings
from .._tensor import Tensor
from ._util import wrap_dim
from .reduction import _defselect, _dim_as_given, _evenly_distribute, _select
from .registry import defop
from .shape import int_arg, int_checked

# --- return_types -----------------------------------------------------------------------------


class _StructSeq(tuple):  # type: ignore[type-arg]
    """A named tuple with torch's structseq repr: `torch.return_types.max(values=..., ...)`."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    n_fields = 2
    n_sequence_fields = 2
    n_unnamed_fields = 0

    def __new__(cls, seq: Any) -> Any:
        seq = tuple(seq)
        if len(seq) != len(cls._fields):
            raise TypeError(
                f"torch.return_types.{cls.__name__}() takes a {len(cls._fields)}-sequence "
                f"({len(seq)}-sequence given)"
            )
        return tuple.__new__(cls, seq)

    def __repr__(self) -> str:
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self, strict=True))
        return f"torch.return_types.{type(self).__name__}(\n{body})"

    def __reduce__(self) -> Any:
        return (type(self), (tuple(self),))


def _structseq(name: str, fields: tuple[str, ...]) -> type:
    ns: dict[str, Any] = {
        "__slots__": (),
        "_fields": fields,
        "n_fields": len(fields),
        "n_sequence_fields": len(fields),
        "__module__": "shadowgrad.return_types",
    }
    for i, f in enumerate(fields):
        ns[f] = property(lambda self, i=i: tuple.__getitem__(self, i))
    return type(name, (_StructSeq,), ns)


return_types = types.ModuleType(
    "shadowgrad.return_types", "The named tuples returned by ops. Mirrors `torch.return_types`."
)
_VI = ("values", "indices")
for _name in (
    "max",
    "min",
    "sort",
    "topk",
    "kthvalue",
    "median",
    "nanmedian",
    "mode",
    "cummax",
    "cummin",
):
    setattr(return_types, _name, _structseq(_name, _VI))
    setattr(return_types, _name + "_out", _structseq(_name + "_out", _VI))  # given out=
return_types.aminmax = _structseq("aminmax", ("min", "max"))  # type: ignore[attr-defined]
return_types.aminmax_out = _structseq("aminmax_out", ("min", "max"))  # type: ignore[attr-defined]
return_types.__all__ = [n for n in vars(return_types) if not n.startswith("_")]  # type: ignore[attr-defined]
sys.modules.setdefault("shadowgrad.return_types", return_types)


def _rt(name: str, pair: Any) -> Any:
    return getattr(return_types, name)(pair)


# --- sort, argsort, msort ---------------------------------------------------------------------

_sort = _defselect("sort", "SortBackward0")
_sort_stable = _defselect("sort.stable", "SortBackward1")
_topk = _defselect("topk", "TopkBackward0")
_kthvalue = _defselect("kthvalue", "KthvalueBackward0")
_median_dim = _defselect("median.dim", "MedianBackward1")
_nanmedian_dim = _defselect("nanmedian.dim", "NanmedianBackward1")
_mode = _defselect("mode", "ModeBackward0")


def _argsort_np(x: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Stable argsort along `dim` (NaN sorts as the largest value, ties keep index order)."""
    if not descending:
        return np.argsort(x, axis=dim, kind="stable")
    # descending and stable: sort the reversed array ascending, reverse back, map the indices
    n = x.shape[dim]
    r = np.argsort(np.flip(x, dim), axis=dim, kind="stable")
    return (n - 1) - np.flip(r, dim)


def sort(
    input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool | None = None
) -> Any:
    """Mirrors `torch.sort` (always stable, as torch's CPU sort is)."""
    if (
        (descending is not False and descending is not True)
        or (stable is not None and stable is not False and stable is not True)
        or dim.__class__ is bool
    ):  # torch's parser takes a bool only (and no bool for the int dim)
        from .._signatures import reraise

        reraise("sort", (dim, descending), {} if stable is None else {"stable": stable})
    op = _sort if stable is None else _sort_stable
    x = input._data
    if x.dtype.kind == "c":
        raise RuntimeError(" Sort does not support complex dtypes on CPU")
    d = wrap_dim(dim, input.ndim)
    idx = np.zeros((), np.int64) if x.ndim == 0 else _argsort_np(x, d, descending)
    return _rt("sort", op(input, _dim_as_given(dim, d), idx, True, tuple(x.shape)))


def argsort(
    input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False
) -> Tensor:
    """Mirrors `torch.argsort`."""
    if (
        descending.__class__ is not bool or stable.__class__ is not bool or dim.__class__ is bool
    ):  # torch's parser
        from .._signatures import reraise_as_called

        reraise_as_called(
            "argsort", ("dim", "descending", "stable"), (dim, descending, stable), self=input
        )
    return sort(input, dim, descending, stable=stable)[1]


_SORT_SIGS = {
    # (method form, function form): torch's two overloads, as its argument parser lists them
    "sort": (
        (
            "*, bool stable, int dim = -1, bool descending = False",
            "int dim = -1, bool descending = False",
        ),
        (
            "Tensor input, *, bool stable, int dim = -1, bool descending = False, tuple of Tensors "
            "out = None",
            "Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None",
        ),
    ),
    "argsort": (
        (
            "*, bool stable, int dim = -1, bool descending = False",
            "int dim = -1, bool descending = False",
        ),
        (
            "Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = "
            "None",
            "Tensor input, int dim = -1, bool descending = False",
        ),
    ),
}


def _stable_error(
    name: str, method: bool, input: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> TypeError:
    """torch's parser error for `stable=` with a positional dim (`x.sort(1, stable=True)`): the
    stable overload takes its dim by keyword only, the other no `stable`."""
    from .shape import parser_got

    npos = len(args) + (not method)
    n = npos + len(kwargs)
    sigs = _SORT_SIGS[name][not method]
    counts = [len(s.replace("*, ", "").split(", ")) for s in sigs]
    if n > counts[1]:  # only the stable overload takes that many: its positional-count error
        lo = 1 + (not method)
        return TypeError(
            f"{name}() takes from {lo} to {lo - 1} positional arguments but {npos} were given"
        )
    lines = ""
    for sig, c in zip(sigs, counts, strict=True):
        lines += f" * ({sig})\n"
        if c == n and "stable" not in sig and "out" not in sig:  # as torch lists them
            lines += "      didn't match because some of the keywords were incorrect: stable\n"
    got = parser_got(args if method else (input, *args), kwargs, method)
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n{lines}"
    )


def _stable_checked(name: str, fn: Any, method: bool) -> Any:
    """fn, refusing `stable=` with a positional dim or descending as torch's parser does."""

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if args and ("stable" in kwargs or len(args) > 2):
            raise _stable_error(name, method, input, args, kwargs)
        return fn(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = fn.__doc__
    call.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    return call


def msort(input: Tensor) -> Tensor:
    """Mirrors `torch.msort`: sort along the first dim."""
    return sort(input, 0)[0]


# --- topk, kthvalue ---------------------------------------------------------------------------


# --- libstdc++'s selection algorithms, replayed to pick the same tied indices as torch ------------
# torch's CPU topk runs std::nth_element (then std::sort of the first k) or std::partial_sort
# over (value, index) pairs with a comparator on values only, so which of several equal values
# it keeps, and the order of an unsorted result, are decided by those algorithms' swaps.


def _lg(n: int) -> int:
    return n.bit_length() - 1


class _Stl:
    def __init__(self, a: list[Any], less: Any) -> None:
        self.a = a
        self.less = less

    def lt(self, i: int, j: int) -> bool:
        return bool(self.less(self.a[i], self.a[j]))

    def swap(self, i: int, j: int) -> None:
        a = self.a
        a[i], a[j] = a[j], a[i]

    def move_median_to_first(self, result: int, a: int, b: int, c: int) -> None:
        lt = self.lt
        if lt(a, b):
            if lt(b, c):
                self.swap(result, b)
            elif lt(a, c):
                self.swap(result, c)
            else:
                self.swap(result, a)
        elif lt(a, c):
            self.swap(result, a)
        elif lt(b, c):
            self.swap(result, c)
        else:
            self.swap(result, b)

    def unguarded_partition(self, first: int, last: int, pivot: int) -> int:
        lt = self.lt
        while True:
            while lt(first, pivot):
                first += 1
            last -= 1
            while lt(pivot, last):
                last -= 1
            if not first < last:
                return first
            self.swap(first, last)
            first += 1

    def partition_pivot(self, first: int, last: int) -> int:
        mid = first + (last - first) // 2
        self.move_median_to_first(first, first + 1, mid, last - 1)
        return self.unguarded_partition(first + 1, last, first)

    def linear_insert(self, i: int) -> None:
        a, less = self.a, self.less
        val = a[i]
        nxt = i - 1
        while less(val, a[nxt]):
            a[i] = a[nxt]
            i = nxt
            nxt -= 1
        a[i] = val

    def insertion_sort(self, first: int, last: int) -> None:
        a, less = self.a, self.less
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                val = a[i]
                a[first + 1 : i + 1] = a[first:i]
                a[first] = val
            else:
                self.linear_insert(i)

    def push_heap(self, first: int, hole: int, top: int, val: Any) -> None:
        a, less = self.a, self.less
        parent = (hole - 1) // 2
        while hole > top and less(a[first + parent], val):
            a[first + hole] = a[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole] = val

    def adjust_heap(self, first: int, hole: int, n: int, val: Any) -> None:
        a = self.a
        top = hole
        child = hole
        while child < (n - 1) // 2:
            child = 2 * (child + 1)
            if self.lt(first + child, first + child - 1):
                child -= 1
            a[first + hole] = a[first + child]
            hole = child
        if n & 1 == 0 and child == (n - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole] = a[first + child - 1]
            hole = child - 1
        self.push_heap(first, hole, top, val)

    def make_heap(self, first: int, last: int) -> None:
        n = last - first
        if n < 2:
            return
        parent = (n - 2) // 2
        while True:
            self.adjust_heap(first, parent, n, self.a[first + parent])
            if parent == 0:
                return
            parent -= 1

    def pop_heap(self, first: int, last: int, result: int) -> None:
        a = self.a
        val = a[result]
        a[result] = a[first]
        self.adjust_heap(first, 0, last - first, val)

    def heap_select(self, first: int, middle: int, last: int) -> None:
        self.make_heap(first, middle)
        for i in range(middle, last):
            if self.lt(i, first):
                self.pop_heap(first, middle, i)

    def sort_heap(self, first: int, last: int) -> None:
        while last - first > 1:
            last -= 1
            self.pop_heap(first, last, last)

    def partial_sort(self, first: int, middle: int, last: int) -> None:
        self.heap_select(first, middle, last)
        self.sort_heap(first, middle)

    def nth_element(self, first: int, nth: int, last: int) -> None:
        if first == last or nth == last:
            return
        depth = _lg(last - first) * 2
        while last - first > 3:
            if depth == 0:
                self.heap_select(first, nth + 1, last)
                self.swap(first, nth)
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self.insertion_sort(first, last)

    def introsort_loop(self, first: int, last: int, depth: int) -> None:
        while last - first > 16:
            if depth == 0:
                self.partial_sort(first, last, last)
                return
            depth -= 1
            cut = self.partition_pivot(first, last)
            self.introsort_loop(cut, last, depth)
            last = cut

    def sort(self, first: int, last: int) -> None:
        if first == last:
            return
        self.introsort_loop(first, last, _lg(last - first) * 2)
        if last - first > 16:
            self.insertion_sort(first, first + 16)
            for i in range(first + 16, last):
                self.linear_insert(i)
        else:
            self.insertion_sort(first, last)


def _topk_less(largest: bool) -> Any:
    def less(x: Any, y: Any) -> bool:
        xn, yn = x[0] != x[0], y[0] != y[0]
        if xn or yn:
            return (xn if largest else not xn) if xn != yn else False
        if x[0] == y[0]:
            return False
        return x[0] > y[0] if largest else x[0] < y[0]

    return less


def _stl_topk(row: list[Any], k: int, largest: bool, sorted: bool) -> list[int]:
    """The indices torch's topk_impl_loop returns for one row."""
    s = _Stl([(v, i) for i, v in enumerate(row)], _topk_less(largest))
    n = len(row)
    if k * 64 <= n:
        s.partial_sort(0, k, n)
    else:
        s.nth_element(0, k - 1, n)
        if sorted:
            s.sort(0, k - 1)  # k - 1: the k-th is in place after nth_element (TopKImpl.h)
    return [p[1] for p in s.a[:k]]


def _topk_order_key(xm: np.ndarray, largest: bool) -> np.ndarray | None:
    """Rows' values as keys whose ascending order is topk's (largest first when `largest`)."""
    kind = xm.dtype.kind
    if kind == "f":
        return -xm if largest else xm
    if kind in "iu":
        return ~xm if largest else xm  # ~x reverses the order without overflow
    return None  # bool: topk raises before


def _topk_indices(x: np.ndarray, k: int, dim: int, largest: bool, sorted: bool) -> np.ndarray:
    n = x.shape[dim]
    if x.size == 0:
        return np.zeros((*x.shape[:dim], k, *x.shape[dim + 1 :]), np.int64)
    xm = np.moveaxis(x, dim, -1).reshape(-1, n)
    key = _topk_order_key(xm, largest) if sorted and k and x.size else None
    if key is not None:
        # Note [Fast topk]: the k + 1 first keys of each row (argpartition, O(n)), sorted. A row
        # whose first k + 1 keys are distinct has one sorted top k, whatever algorithm chose it;
        # a row with a tie among them (or a NaN) replays torch's selection below.
        m = min(k + 1, n)
        part = np.argpartition(key, m - 1, axis=-1)[:, :m] if m < n else None
        pk = key if part is None else np.take_along_axis(key, part, -1)
        order = np.argsort(pk, axis=-1, kind="stable")
        sk = np.take_along_axis(pk, order, -1)
        im = order if part is None else np.take_along_axis(part, order, -1)
        im = np.ascontiguousarray(im[:, :k])
        tie = (sk[:, 1:] == sk[:, :-1]).any(-1)
        if xm.dtype.kind == "f":
            tie |= np.isnan(sk).any(-1)
            if m < n:  # a NaN outside the first k + 1 keys would have been among them
                tie |= np.isnan(xm).any(-1)
        for r in np.nonzero(tie)[0]:
            im[r] = _stl_topk(xm[r].tolist(), k, largest, sorted)
        shape = (*x.shape[:dim], *x.shape[dim + 1 :], k)
        return np.moveaxis(im.astype(np.int64, copy=False).reshape(shape), -1, dim)
    idx = np.take(_argsort_np(x, dim, largest), np.arange(k), axis=dim)
    if k == 0 or x.size == 0:
        return idx
    # Without ties a sorted top-k is unique; with ties (or unsorted) replay torch's algorithm.
    xm = np.moveaxis(x, dim, -1).reshape(-1, x.shape[dim])
    im = np.moveaxis(idx, dim, -1).reshape(-1, k).copy()
    srt = np.sort(xm, axis=-1)
    dup = (srt[:, 1:] == srt[:, :-1]) | (np.isnan(srt[:, 1:]) & np.isnan(srt[:, :-1]))
    rows = range(xm.shape[0]) if not sorted else np.nonzero(dup.any(-1))[0]
    for r in rows:
        im[r] = _stl_topk(xm[r].tolist(), k, largest, sorted)
    shape = list(np.moveaxis(idx, dim, -1).shape)
    return np.moveaxis(im.reshape(shape), -1, dim)


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """Mirrors `torch.topk` (tied values: torch's selection is replayed)."""
    if (
        type(dim) is not int
        or (largest is not True and largest is not False)
        or (sorted is not True and sorted is not False)
    ):  # a bool dim, a flag not a bool: torch's parser refuses them
        from .._signatures import reraise

        reraise("topk", (k, dim, largest, sorted), {})
    if type(k) is not int:
        k = int_arg("topk", "k", 2, k)
    x = input._data
    d = wrap_dim(dim, input.ndim)
    n = x.shape[d] if x.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    if x.dtype == np.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if x.dtype.kind == "c":
        raise RuntimeError(" topk does not support complex dtypes on CPU")
    if type(x) is not np.ndarray and input.is_meta:  # no values: indices of the right shape
        idx = np.zeros((*x.shape[:d], k, *x.shape[d + 1 :]), np.int64).view(type(x))
    else:
        idx = np.zeros((), np.int64) if x.ndim == 0 else _topk_indices(x, k, d, largest, sorted)
    if not idx.flags.c_contiguous:  # torch's results are contiguous (Note [Result layout])
        idx = np.array(idx, order="C")
    return _rt("topk", _topk(input, _dim_as_given(dim, d), idx, True, tuple(x.shape)))


def _gt_or_nan(a: Any, b: Any) -> bool:
    return bool((a != a and b == b) or a > b)


def _quick_select(vals: list[Any], k: int) -> int:
    """torch's quick_select_template (kthvalue on CPU): returns the index it selects."""
    arr = list(vals)
    ind = list(range(len(arr)))

    def swap(i: int, j: int) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        ind[i], ind[j] = ind[j], ind[i]

    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return ind[k]
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            return ind[k]
        p = (lo + hi) >> 1
        swap(p, lo + 1)
        if _gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if _gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if _gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = arr[lo]
        while True:
            i += 1
            while _gt_or_nan(piv, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def _kth_indices(x: np.ndarray, k: int, dim: int) -> np.ndarray:
    """The index torch's kthvalue picks in each slice along `dim` (shape keepdim=True)."""
    moved = np.moveaxis(x, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    order = np.argsort(flat, axis=-1, kind="stable")
    kth = np.take_along_axis(flat, order[:, k - 1 : k], -1)
    idx = order[:, k - 1].copy()
    # A unique k-th value has one possible index; ties need torch's own selection order.
    same = (flat == kth) | (np.isnan(flat) & np.isnan(kth))
    for r in np.nonzero(same.sum(-1) > 1)[0]:
        idx[r] = _quick_select(flat[r].tolist(), k - 1)
    out = idx.reshape((*moved.shape[:-1], 1))
    return np.moveaxis(out, -1, dim)


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """Mirrors `torch.kthvalue` (its tie choice included: torch's quickselect is replayed)."""
    if type(dim) is not int or (keepdim is not False and keepdim is not True):
        from .._signatures import reraise

        reraise("kthvalue", (k, dim, keepdim), {})  # a bool dim, a keepdim not a bool
    if type(k) is not int:
        k = int_arg("kthvalue", "k", 2, k)
    x = input._data
    d = wrap_dim(dim, input.ndim)
    n = x.shape[d] if x.ndim else 1
    if n == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 0 < k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    _no_bool(x, "kthvalue_cpu")
    idx = np.zeros((), np.int64) if x.ndim == 0 else _kth_indices(x, k, d)
    return _rt(
        "kthvalue", _select(_kthvalue, input, _dim_as_given(dim, d), idx, keepdim, tuple(x.shape))
    )


# --- median, nanmedian, mode ------------------------------------------------------------------


def _median_all_fwd(self: np.ndarray) -> np.ndarray:
    if self.size == 0 or np.isnan(self).any():
        return np.asarray(np.nan, self.dtype)
    flat = self.reshape(-1)
    return np.asarray(np.partition(flat, (flat.size - 1) // 2)[(flat.size - 1) // 2])


def _nanmedian_all_fwd(self: np.ndarray) -> np.ndarray:
    flat = self.reshape(-1)
    flat = flat[~np.isnan(flat)] if flat.dtype.kind in "fc" else flat
    if flat.size == 0:
        return np.asarray(np.nan, self.dtype)
    return np.asarray(np.partition(flat, (flat.size - 1) // 2)[(flat.size - 1) // 2])


def _evenly_read_jvp(self: Tensor, self_t: Tensor, result: Tensor) -> Tensor:
    """torch's evenly_read_jvp: the mean of the tangent over the elements equal to the result
    (NaN when none is: a NaN median)."""
    mask = self == result
    return (self_t * mask).sum() / mask.sum()


# ties share the gradient evenly (torch's evenly_distribute_backward)
_median_all = defop(
    "median",
    "MedianBackward0",
    _median_all_fwd,
    dtype="keep",
    jvp=_evenly_read_jvp,
    self=lambda grad, self, result: _evenly_distribute(grad, self, result),
)
_nanmedian_all = defop(
    "nanmedian",
    "NanmedianBackward0",
    _nanmedian_all_fwd,
    dtype="keep",
    jvp=_evenly_read_jvp,
    self=lambda grad, self, result: _evenly_distribute(grad, self, result),
)


def _median_indices(x: np.ndarray, dim: int, ignore_nan: bool) -> np.ndarray:
    """torch's median index: the lower middle of the (value, index) order; NaN: the first."""
    n = x.shape[dim]
    order = np.argsort(x, axis=dim, kind="stable")  # NaN last, ties by index
    if ignore_nan:
        valid = np.sum(~np.isnan(x), axis=dim, keepdims=True) if x.dtype.kind in "fc" else n
        pos = np.maximum((np.asarray(valid) - 1) // 2, 0)
        pos = np.broadcast_to(pos, _keep_shape(x.shape, dim))
        return np.take_along_axis(order, pos.astype(np.int64), dim)
    idx = np.take(order, [(n - 1) // 2], axis=dim)
    if x.dtype.kind in "fc":
        nan = np.isnan(x)
        has_nan = nan.any(axis=dim, keepdims=True)
        idx = np.where(has_nan, np.argmax(nan, axis=dim, keepdims=True), idx)
    return idx


def _keep_shape(shape: tuple[int, ...], dim: int) -> tuple[int, ...]:
    return tuple(1 if i == dim else s for i, s in enumerate(shape))


def _no_bool(x: np.ndarray, kernel: str) -> None:
    """torch's selection kernels are compiled for neither bool nor complex."""
    if x.dtype == np.bool_ or x.dtype.kind == "c":
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{D._FROM_NP[x.dtype]._short}'"
        )


def _median(name: str, input: Tensor, dim: Any, keepdim: bool) -> Any:
    x = input._data
    ignore_nan = name == "nanmedian"
    # torch checks the reduced dim before its kernel's dtype
    if type(dim) is int and x.ndim and -x.ndim <= dim < x.ndim and x.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim % x.ndim} to have non-zero size.")
    _no_bool(x, "median_cpu" if dim is None else "median_out")
    if dim is None:
        return (_nanmedian_all if ignore_nan else _median_all)(input)
    if type(dim) is not int:  # a bool, a float: torch's parser refuses them
        from .._signatures import reraise

        reraise(name, (dim,), {})
    d = wrap_dim(dim, input.ndim)
    if x.ndim == 0:
        idx = np.zeros((), np.int64)
    else:
        if x.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        idx = _median_indices(x, d, ignore_nan)
        if not idx.flags.c_contiguous:  # torch's results are contiguous (Note [Result layout])
            idx = np.ascontiguousarray(idx)
    op = _nanmedian_dim if ignore_nan else _median_dim
    return _rt(name, _select(op, input, _dim_as_given(dim, d), idx, keepdim, tuple(x.shape)))


# keepdim not given: torch's full-reduction overload takes none (`x.median(keepdim=True)` is its
# parser's missing dim)
_NO_KEEPDIM: Any = object()


def _median_keepdim(name: str, dim: Any, keepdim: Any) -> bool:
    if keepdim is _NO_KEEPDIM:
        return False
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if type(dim) is not int or (keepdim is not False and keepdim is not True):
        from .._signatures import reraise

        reraise(name, (dim, keepdim), {})  # a bool dim, a keepdim not a bool: refused
    return keepdim


# median's dim not given (torch's parser takes no dim=None: its full median has no dim)
_NO_MEDIAN_DIM: Any = object()


def median(input: Tensor, dim: Any = _NO_MEDIAN_DIM, keepdim: bool = _NO_KEEPDIM) -> Any:
    """Mirrors `torch.median`: the lower of the two middle values for even counts."""
    if dim is _NO_MEDIAN_DIM:
        dim = None
    elif dim is None:
        _median_dim_none("median", keepdim)
    return _median("median", input, dim, _median_keepdim("median", dim, keepdim))


def nanmedian(input: Tensor, dim: Any = _NO_MEDIAN_DIM, keepdim: bool = _NO_KEEPDIM) -> Any:
    """Mirrors `torch.nanmedian`: the median of the non-NaN values."""
    if dim is _NO_MEDIAN_DIM:
        dim = None
    elif dim is None:
        _median_dim_none("nanmedian", keepdim)
    return _median("nanmedian", input, dim, _median_keepdim("nanmedian", dim, keepdim))


def _median_dim_none(name: str, keepdim: Any) -> None:
    from .._signatures import reraise

    reraise(name, (None,) if keepdim is _NO_KEEPDIM else (None, keepdim), {})
    raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")


def _mode_row(row: list[Any]) -> int:
    """torch's CPU mode: std::sort of (value, index) pairs on the value, then the longest run
    (the first one on equal counts); its index is the run's last element after the sort."""
    s = _Stl([(v, i) for i, v in enumerate(row)], lambda a, b: a[0] < b[0])
    s.sort(0, len(row))
    a = s.a
    best_i, best, run = 0, 0, 0
    for i in range(len(a)):
        run += 1
        if i == len(a) - 1 or a[i][0] != a[i + 1][0]:
            if run > best:
                best_i, best = a[i][1], run
            run = 0
    return best_i


def _mode_indices(x: np.ndarray, dim: int) -> np.ndarray:
    moved = np.moveaxis(x, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.array([_mode_row(row.tolist()) for row in flat], np.int64)
    return np.moveaxis(out.reshape((*moved.shape[:-1], 1)), -1, dim)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    """Mirrors `torch.mode` (its std::sort is replayed to pick the same index)."""
    if type(dim) is not int or (keepdim is not False and keepdim is not True):
        from .._signatures import reraise

        reraise("mode", (dim, keepdim), {})  # a bool dim, a keepdim not a bool
    x = input._data
    if x.dtype.kind == "c":
        raise NotImplementedError(f"\"mode_cpu\" not implemented for '{input.dtype._short}'")
    d = wrap_dim(dim, input.ndim)
    if x.ndim == 0:
        idx = np.zeros((), np.int64)
    else:
        if x.shape[d] == 0:
            raise IndexError("mode(): Expected reduction dim " + str(d) + " to have non-zero size.")
        idx = _mode_indices(x, d)
    return _rt("mode", _select(_mode, input, _dim_as_given(dim, d), idx, keepdim, tuple(x.shape)))


METHODS: dict[str, Any] = {
    "sort": _stable_checked("sort", sort, True),
    "argsort": _stable_checked("argsort", argsort, True),
    "msort": msort,
    "topk": int_checked("topk", topk, "k"),
    "kthvalue": int_checked("kthvalue", kthvalue, "k"),
    "median": median,
    "nanmedian": nanmedian,
    "mode": mode,
}
FUNCTIONS: dict[str, Any] = {
    **METHODS,
    "sort": _stable_checked("sort", sort, False),
    "topk": topk,
    "kthvalue": kthvalue,
    "argsort": _stable_checked("argsort", argsort, False),
    "return_types": return_types,
}
