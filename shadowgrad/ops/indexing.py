"""Indexing: `__getitem__`/`__setitem__`, gather/scatter, index_* and masked ops, take, nonzero.

Basic indices decompose into select/slice/unsqueeze views as torch's do; tensor and mask indices
become one `index` (IndexBackward0) or `index_put` (IndexPutBackward0) call on the sliced result.
Index tensors are passed to the ops as plain ndarrays: they are never differentiable.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .._grad_mode import is_grad_enabled
from .._tensor import Tensor, _make, warn_once
from ..autograd.forward_ad import LINEAR
from ..autograd.graph import _SAVED_HOOKS, SavedTensor
from . import shape as S
from ._accumulate import add_at
from ._util import autograd_checks_first, shape_str, wrap_dim
from .inplace import EXPANDED, apply_inplace, fill_, warn_expanded
from .registry import HOOKED_EXTRA, defop

_INT_KINDS = "iu"


def _zeros(sizes: Any, like: Tensor) -> Tensor:
    return _make(np.zeros(sizes, like._data.dtype))


# --- index / index_put: the advanced-indexing kernels ----------------------------------------


def _index_put_fwd(
    self: np.ndarray, indices: tuple[Any, ...], values: np.ndarray, accumulate: bool
) -> np.ndarray:
    out = self.copy()
    if accumulate:
        add_at(out, indices, values)
    else:
        out[indices] = values
    return out


def _or_zeros(t_t: Tensor | None, t: Tensor) -> Tensor:
    """A tangent, or zeros shaped like its primal where it has none (for rules that are linear
    in several inputs jointly)."""
    return _zeros(t._data.shape, t) if t_t is None else t_t


# Forward AD: the scatter-like ops below are linear in (self, source) jointly, so their tangent
# is the op itself applied to the tangents (a missing one is zero), the filled value's included.
def _index_put_jvp(
    self: Tensor, indices: Any, accumulate: bool, self_t: Any, values_t: Any
) -> Tensor:
    if values_t is None:
        return self_t if accumulate else _index_put(self_t, indices, _zero_like0(self_t), False)
    return _index_put(_or_zeros(self_t, self), indices, values_t, accumulate)


# Duplicate indices: the values grad is grad[indices], so each source element gets its own grad.
# Both formulas are linear: they hold for complex tensors as written.
_INDEX_PUT_RULES: dict[str, Any] = {
    "dtype": "keep",
    "jvp": _index_put_jvp,
    "self": lambda grad, indices, accumulate: (
        grad if accumulate else _index_put(grad, indices, _zero_like0(grad), False)
    ),
    "values": lambda grad, indices: _index(grad, indices, tuple(grad._data.shape)),
    "complex": True,
}
_index_put = defop("index_put", "IndexPutBackward0", _index_put_fwd, **_INDEX_PUT_RULES)
# torch's index_backward writes the gradient with _index_put_impl_ (accumulate=True): the same
# op under its own node name, IndexPutImplBackward0, in double-backward graphs
_index_put_impl = defop(
    "_index_put_impl", "IndexPutImplBackward0", _index_put_fwd, **_INDEX_PUT_RULES
)


def _zero_like0(t: Tensor) -> Tensor:
    return _make(np.zeros((), t._data.dtype))


# Repeated indices accumulate in backward (index_put with accumulate=True), as in torch.
def _index_fwd(self: np.ndarray, indices: tuple[Any, ...]) -> np.ndarray:
    # numpy lays out a result indexed after a leading slice in its own order; torch's is
    # contiguous over a contiguous input and row-major indices, else laid out by its kernel's
    # TensorIterator (_formats.index_result)
    r = self[indices]
    if self.flags.c_contiguous:
        for i in indices:
            if type(i) is not slice and i.ndim > 1 and not i.flags.c_contiguous:
                break
        else:
            return r if r.flags.c_contiguous else np.ascontiguousarray(r)
    from .._formats import index_result

    return index_result(r, self, indices)


_index = defop(
    "index.Tensor",
    "IndexBackward0",
    lambda self, indices, self_sym_sizes: _index_fwd(self, indices),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, indices, self_sym_sizes: _written_in_place(
        _index_put_impl(_zeros(self_sym_sizes, grad), indices, grad, True)
    ),
    complex=True,  # linear: the same scatter of the gradient (Note [Complex gradients])
)


def _written_in_place(t: Tensor) -> Tensor:
    """A gradient torch computes by writing into zeros in place (index_put_, scatter_add_):
    it has version 1, which shows on a .grad or autograd.grad result."""
    t._bump()
    return t


# --- parsing an index ---------------------------------------------------------------------

_BAD_INDEX = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
    "indices (got {})"
)


def _as_index_array(v: Any) -> np.ndarray:
    """A tensor/list index as an ndarray (bool or integer), with torch's dtype errors."""
    if isinstance(v, Tensor):
        a = v._data
        if a.dtype.kind in _INT_KINDS and a.dtype.itemsize < 4 and a.dtype != np.uint8:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    else:
        try:
            a = np.asarray(
                [x._data if isinstance(x, Tensor) else x for x in v]
                if isinstance(v, (list, tuple))
                else v
            )
        except ValueError:
            raise IndexError(_BAD_INDEX.format(type(v).__name__)) from None
        if a.dtype.kind == "f":  # torch reads a list of numbers as a Long index
            a = a.astype(np.int64)
    if a.dtype == np.uint8 and isinstance(v, Tensor):
        warnings.warn(
            "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
            "instead.",
            UserWarning,
            stacklevel=4,
        )
        a = a.astype(np.bool_)
    if a.dtype.kind not in "biu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return a


def _is_seq_tuple(index: list[Any]) -> bool:
    # numpy's legacy rule, kept by torch (with a deprecation warning): a list holding a slice,
    # None, Ellipsis or a sequence is a tuple of indices
    # (a Tensor element counts, 0-dim too, as any sequence does; 32 or more elements never do)
    return len(index) < 32 and any(
        isinstance(i, (slice, list, tuple, Tensor, np.ndarray, range)) or i is None or i is Ellipsis
        for i in index
    )


def _normalize(index: Any) -> tuple[Any, ...]:
    if isinstance(index, tuple):
        return index
    if isinstance(index, str) or (isinstance(index, list) and _is_seq_tuple(index)):
        warnings.warn(
            "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
            "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this "
            "will be interpreted as tensor index, x[torch.tensor(seq)], which will result either "
            "in an error or a different result",
            UserWarning,
            stacklevel=3,
        )
        return (index,) if isinstance(index, str) else tuple(index)
    return (index,)


def _is_int(i: Any) -> bool:
    if isinstance(i, bool):
        return False
    if isinstance(i, (int, np.integer)):
        return True
    return isinstance(i, Tensor) and i.ndim == 0 and i._data.dtype.kind in _INT_KINDS


def _is_bool(i: Any) -> bool:
    return isinstance(i, (bool, np.bool_)) or (
        isinstance(i, Tensor) and i.ndim == 0 and i._data.dtype == np.bool_
    )


def _consumed(i: Any) -> int:
    if i is None or i is Ellipsis or _is_bool(i):
        return 0
    if isinstance(i, Tensor) and i._data.dtype in (np.bool_, np.uint8):
        return i.ndim
    return 1


def _slice_bounds(s: slice, n: int) -> tuple[int, int, int]:
    step = 1 if s.step is None else int(s.step)
    if step == 0:  # Python's slice rule, raised before torch's own check
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    start, stop, _ = slice(s.start, s.stop, step).indices(n)
    return start, max(stop, start), step


def _given_bounds(s: slice, step: int) -> tuple[int, int, int]:
    """A slice's bounds as torch's SliceBackward0 saves them: as given (a negative one reads
    back as 2**64 + it), a missing start 0 and a missing end INT64_MAX. Slicing by them selects
    what _slice_bounds's do."""
    return (
        0 if s.start is None else s.start.__index__(),
        9223372036854775807 if s.stop is None else s.stop.__index__(),
        step,
    )


def _apply_slicing(
    self: Tensor, index: tuple[Any, ...], setting: bool, check: bool = True
) -> tuple[Tensor, list[Any], bool]:
    """Apply the basic part of an index; returns the view, the advanced part and whether any."""
    nd = self.ndim
    specified = sum(_consumed(i) for i in index)
    if specified > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    result = self
    dim = 0
    adv: list[Any] = []  # per result dim: slice(None) or an index array
    has_adv = out_of_bounds = False
    for pos, i in enumerate(index):
        if i is None:
            result = S._unsqueeze(result, dim)
            adv.append(slice(None))
            dim += 1
        elif i is Ellipsis:
            k = nd - specified
            adv.extend([slice(None)] * k)
            dim += k
            specified = nd  # a second ellipsis expands to nothing, as in torch
        elif isinstance(i, slice):
            n = result._data.shape[dim]
            start, stop, step = _slice_bounds(i, n)
            if not (start == 0 and stop == n and step == 1):
                start, stop, step = _given_bounds(i, step)
                result = S._slice(result, dim, start, stop, step, tuple(result._data.shape))
            adv.append(slice(None))
            dim += 1
        elif _is_int(i):
            n = result._data.shape[dim]
            k = int(i)
            if not -n <= k < n:  # (torch names the index's position in the tuple)
                raise IndexError(f"index {k} is out of bounds for dimension {pos} with size {n}")
            result = S._select(result, dim, k, tuple(result._data.shape))  # saved as given
        elif _is_bool(i):
            result = S._unsqueeze(result, dim)
            adv.append(np.arange(1 if bool(i) else 0, dtype=np.intp))
            has_adv = True
            dim += 1
        elif isinstance(i, (Tensor, list, tuple, np.ndarray, range)):
            arr = _as_index_array(i)
            shape = result._data.shape
            if arr.dtype == np.bool_:
                for j in range(arr.ndim):
                    if arr.shape[j] != shape[dim + j]:
                        raise IndexError(
                            f"The shape of the mask {shape_str(arr.shape)} at index {j} does not "
                            f"match the shape of the indexed tensor {shape_str(shape)} at index "
                            f"{dim + j}"
                        )
                adv.extend(np.nonzero(arr) if arr.ndim else [np.arange(int(arr), dtype=np.intp)])
                dim += arr.ndim
            else:
                n = shape[dim]
                if arr.size and (arr.max() >= n or arr.min() < -n):
                    out_of_bounds = True
                adv.append(arr.astype(np.intp, copy=False))
                dim += 1
            has_adv = True
        elif isinstance(i, str) and not setting:
            raise TypeError("new(): invalid data type 'str'")
        else:
            raise IndexError(_BAD_INDEX.format(type(i).__name__))
    if has_adv:
        while adv and isinstance(adv[-1], slice):
            adv.pop()
        arrays = [a.shape for a in adv if not isinstance(a, slice)]
        if len(arrays) > 1:
            try:
                np.broadcast_shapes(*arrays)
            except ValueError:
                raise IndexError(
                    "shape mismatch: indexing tensors could not be broadcast together with shapes "
                    + ", ".join(shape_str(a) for a in arrays)
                ) from None
        if 0 in result._data.shape:
            sizes = [
                n for n, a in zip(result._data.shape, adv, strict=False) if not isinstance(a, slice)
            ]
            if 0 in sizes and 0 not in np.broadcast_shapes(*arrays):
                raise IndexError("index is out of bounds for dimension with size 0")
        if out_of_bounds:
            if check:
                _raise_out_of_bounds(result._data.shape, adv)
            # the result has no elements: torch reads no index, numpy would check them all
            shape = result._data.shape
            adv = [
                a if isinstance(a, slice) else np.clip(a, -n, n - 1)
                for a, n in zip(adv, shape, strict=False)
            ]
    return result, adv, has_adv


def _raise_out_of_bounds(shape: tuple[int, ...], adv: list[Any]) -> None:
    """torch's index kernel's error: it walks the result's elements in order and, in each, the
    index tensors in order, naming the first bad one by its place among the index tensors. A
    result with no elements reads no index. The error carries how many leading elements of the
    broadcast index were good (index_put_ writes those before it fails)."""
    arrays = [(a, n) for a, n in zip(adv, shape, strict=False) if not isinstance(a, slice)]
    kept = [n for a, n in zip(adv, shape, strict=False) if isinstance(a, slice)] + list(
        shape[len(adv) :]
    )
    b = np.broadcast_arrays(*(a for a, _ in arrays))
    if b[0].size == 0 or 0 in kept:
        return
    bad = np.zeros(b[0].shape, np.bool_)
    for a, (_, n) in zip(b, arrays, strict=True):
        bad |= (a >= n) | (a < -n)
    first = int(np.argmax(bad.reshape(-1)))
    for i, (a, (_, n)) in enumerate(zip(b, arrays, strict=True)):
        v = int(a.reshape(-1)[first])
        if not -n <= v < n:
            err = IndexError(f"index {v} is out of bounds for dimension {i} with size {n}")
            err.good = first  # type: ignore[attr-defined]
            raise err


def _put_until_bad(
    self: Tensor, index: tuple[Any, ...], values: Tensor, err: Exception, acc: bool = False
) -> None:
    """index_put_'s kernel writes the elements before the first bad index, then fails: do the
    same (values checked to fit first, as torch does before its kernel)."""
    good = getattr(err, "good", None)
    if good is None:
        return
    shape = self._data.shape
    adv = list(index)
    where = [k for k, a in enumerate(adv) if not isinstance(a, slice)]
    safe = tuple(
        a if isinstance(a, slice) else np.clip(a, -n, n - 1)
        for a, n in zip(adv, shape, strict=False)
    )
    _check_values_fit(self, safe, values)
    lin = np.arange(self._data.size).reshape(shape)[safe]
    block = np.broadcast_shapes(*(adv[k].shape for k in where))
    pre = math.prod(shape[: where[0]]) if where[-1] - where[0] == len(where) - 1 else 1
    count = good * (lin.size // max(pre * math.prod(block), 1))
    vals = np.broadcast_to(values._data.astype(self._data.dtype), lin.shape)
    at = np.unravel_index(lin.reshape(-1)[:count], shape)
    if acc:
        add_at(self._data, at, vals.reshape(-1)[:count])
    else:
        self._data[at] = vals.reshape(-1)[:count]


def getitem(self: Tensor, index: Any) -> Tensor:
    """Mirrors `torch.Tensor.__getitem__`: basic indices become select/slice/unsqueeze views."""
    if self.ndim == 0 and (
        isinstance(index, slice) or (_is_int(index) and not isinstance(index, Tensor))
    ):
        if isinstance(index, slice):
            if index.step is not None:
                _slice_bounds(index, 1)  # torch checks the step first
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if index != 0:  # torch's select on a dimension of size 0
            raise IndexError(f"index {int(index)} is out of bounds for dimension 0 with size 0")
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    if isinstance(index, slice):  # a lone slice is always a slice node, even when trivial
        start, stop, step = _given_bounds(index, _slice_bounds(index, self._data.shape[0])[2])
        return S._slice(self, 0, start, stop, step, tuple(self._data.shape))
    if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        n = self._data.shape[0]
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {n}")
        return S._select(self, 0, int(index), tuple(self._data.shape))  # saved as given
    index = _normalize(index)
    result, adv, has_adv = _apply_slicing(self, index, False)
    if has_adv:
        out = _index(result, tuple(adv), tuple(result._data.shape))
        if out._grad_fn is not None:
            _saves_indices(out, *(i for i in index if isinstance(i, Tensor) and i.ndim))
        return out
    if result is self:
        return S._alias(self)
    return result


def _saves_indices(out: Tensor, *indices: Any) -> None:
    """torch's node saves the index (and mask) tensors it was given: one modified in place
    before backward raises the in-place error there. The node's formulas read its own copies;
    these are saved to be checked only (not under saved-tensor hooks, where the copies are
    packed in their place)."""
    saved = getattr(out._grad_fn, "_saved", None)
    if type(saved) is not dict or _SAVED_HOOKS.stack:
        return
    names: tuple[str, ...] = ()
    for k, t in enumerate(indices):
        if isinstance(t, Tensor):
            # "_": not a `_saved_` attribute (__dir__)
            name = _INDEX_NAMES[k] if k < len(_INDEX_NAMES) else f"_index_tensor_{k}"
            saved[name] = SavedTensor(t)
            names += (name,)
    if names:
        unread = saved.get("_unread")
        saved["_unread"] = names if unread is None else (*unread, *names)


_INDEX_NAMES = tuple(f"_index_tensor_{k}" for k in range(8))


# --- setitem and index_put ------------------------------------------------------------------


def _value_tensor(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex, np.generic)):
        if type(value) is int and not -(1 << 63) <= value < (1 << 63):
            raise ValueError("Overflow when unpacking long long")  # torch's setitem parser
        if self.dtype is not D.float16:  # torch converts a half's value through float
            D.check_scalar_fits(value, self.dtype)
        if isinstance(value, (complex, np.complexfloating)) and not self.dtype.is_complex:
            value = value.real  # checked above: no imaginary part to lose
        if self.dtype is D.float16:  # beyond half's range: inf, silently
            return _make(D.quiet(np.asarray(value).astype, np.float16))
        return _make(D.quietly(np.asarray(value).astype, self._data.dtype))
    from .._signatures import _type_name

    raise TypeError(f"can't assign a {_type_name(value)} to a {self.dtype._legacy}")


def _strip_leading_ones(v: Tensor) -> Tensor:
    shape = v._data.shape
    k = 0
    while k < len(shape) and shape[k] == 1:
        k += 1
    return v if k == 0 else v.reshape(shape[k:])


def _copy_to(dst: Tensor, src: Tensor) -> None:
    if src._data.shape == dst._data.shape:  # torch's shortcut: no view of src (`x[i] += 1`
        dst.copy_(src)  # on a strided slice copies the slice into itself, a full overlap);
        return  # first, so a 0-d value into a 0-d slice is a copy_ (CopyBackwards)
    if src.ndim == 0:
        if src._data.dtype.kind == "c" and dst._data.dtype.kind != "c":
            S.warn_complex_to_real()  # torch's copy_ warns (once) before it fills
        fill_(dst, src)
        return
    src = _strip_leading_ones(src)
    e = S.expand(src, tuple(dst._data.shape))  # torch's expand error for a bad shape
    if 0 in dst._data.strides and not (dst._rg or src._rg) and _same_data(dst._data, e._data):
        # an expanded slice set from the memory it expands: torch's copy_ of a view of the
        # same data is a no-op (its early exit) that still counts as a write
        dst._check_inplace()
        dst._bump()
        return
    dst.copy_(src)


def _same_data(a: np.ndarray, b: np.ndarray) -> bool:
    """torch's copy_ early exit: the same memory, offset, strides, sizes and dtype."""
    return (
        a.shape == b.shape
        and a.strides == b.strides
        and a.dtype == b.dtype
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    )


def setitem(self: Tensor, index: Any, value: Any) -> None:
    """Mirrors `torch.Tensor.__setitem__`: views get copied into (CopySlices on the base), tensor
    and mask indices go through `index_put_` (IndexPutBackward0)."""
    parts = index if isinstance(index, tuple) else (index,)
    if (
        value is self
        and self.ndim  # (a 0-d self: the index count's error first)
        and any(isinstance(i, (Tensor, list)) for i in parts)
        and not (  # a one-element value under a mask: torch's masked_fill_, no overlap check
            value._data.size == 1
            and any(isinstance(i, Tensor) and i._data.dtype == np.bool_ for i in parts)
        )
    ):
        _refuse_own_values(self)  # an advanced index: torch's index_put_
    value = _value_tensor(self, value)
    if (
        value._data.dtype.kind == "c"
        and value._data.ndim == 0
        and self._data.dtype.kind != "c"
        and isinstance(index, Tensor)
        and index._data.dtype == np.bool_
    ):  # torch's masked_fill_ of the value as a number
        D.check_scalar_fits(complex(value._data), self.dtype)
    if self.ndim == 0 and (
        isinstance(index, slice) or (_is_int(index) and not isinstance(index, Tensor))
    ):
        if isinstance(index, slice):
            if index.step is not None:
                _slice_bounds(index, 1)  # torch checks the step first
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if index != 0:  # torch's select on a dimension of size 0
            raise IndexError(f"index {int(index)} is out of bounds for dimension 0 with size 0")
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    index = _normalize(index)
    if value._data.size == 1:
        _check_byte_mask_fill(index)
    try:
        sliced, adv, has_adv = _apply_slicing(self, index, True)
    except IndexError as e:
        if hasattr(e, "good"):
            sliced, adv, _ = _apply_slicing(self, index, True, check=False)
            _check_put_dtype(self, index, value, sliced, adv)
            _put_until_bad(sliced, tuple(adv), _strip_leading_ones(value), e)
        if str(e).startswith("The shape of the mask"):
            self._check_inplace()  # index_put_'s mask check runs after torch's autograd layer
        raise
    if not has_adv:
        _copy_to(sliced, value)
        return
    if value._data.dtype != sliced._data.dtype:
        _check_put_dtype(self, index, value, sliced, adv)
        with warnings.catch_warnings():  # masked_fill_ reads the value as a number, silently
            warnings.simplefilter("ignore")
            value = value.to(sliced.dtype)
    if _is_expanded(sliced):
        _warn_index_put_expanded(index, value, False)
    _index_put_checked(sliced, tuple(adv), _strip_leading_ones(value), False)


def _check_put_dtype(
    self: Tensor, index: tuple[Any, ...], value: Tensor, sliced: Tensor, adv: list[Any]
) -> None:
    """index_put_ takes a value of self's dtype only (checked after the value's shape), unless
    it dispatches to masked_fill_ (one mask, the rest slices, a one-element value), which reads
    the value as a number."""
    if value._data.dtype == self._data.dtype:
        return
    _check_values_fit(sliced, tuple(adv), _strip_leading_ones(value))
    rest = [i for i in index if not (i is None or i is Ellipsis or isinstance(i, slice))]
    rest = [i for i in rest if not _is_int(i)]
    masked_fill = (
        value._data.size == 1
        and len(rest) == 1
        and isinstance(rest[0], Tensor)
        and rest[0].ndim > 0
        and rest[0]._data.dtype == np.bool_
    )
    if not masked_fill:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{self.dtype._short} for the destination and {value.dtype._short} for the source."
        )


def _check_byte_mask_fill(index: tuple[Any, ...]) -> None:
    """index_put_ of one value by a lone mask is torch's masked_fill_, which refuses a uint8
    mask (before the deprecated uint8 index would be read as a bool one)."""
    for i in index:
        if isinstance(i, Tensor):
            break
    else:  # basic indexing (the common case): no mask to check
        return
    tensors = [i for i in index if not (i is None or i is Ellipsis or isinstance(i, slice))]
    tensors = [i for i in tensors if not (_is_int(i) or isinstance(i, (bool, np.bool_)))]
    if len(tensors) == 1 and isinstance(tensors[0], Tensor) and tensors[0].dtype is D.uint8:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
        )


def _check_values_fit(self: Tensor, indices: tuple[Any, ...], values: Tensor) -> None:
    target = np.empty(self._data.shape, np.bool_)[indices].shape
    try:  # the values must expand to the result's shape
        if np.broadcast_shapes(values._data.shape, target) != target:
            raise ValueError
    except ValueError:
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {shape_str(values._data.shape)} cannot be "
            f"broadcast to indexing result of shape {shape_str(target)}"
        ) from None


def _index_put_checked(self: Tensor, indices: tuple[Any, ...], values: Tensor, acc: bool) -> Any:
    try:
        _check_values_fit(self, indices, values)
    except RuntimeError:
        self._check_inplace()  # torch's autograd layer checks self first
        raise
    return apply_inplace(_index_put, self, indices, values, acc)


def _check_index_elements(indices: Any, pos: int) -> None:
    """index_put's indices are a list of Tensors in torch's argument parser (None refused)."""
    for k, i in enumerate(indices):
        if not isinstance(i, Tensor):
            raise TypeError(
                f"expected Tensor as element {k} in argument {pos - 1}, but got {type(i).__name__}"
            )


def _check_index_put(
    self: Tensor,
    indices: Any,
    values: Tensor,
    name: str = "index_put_",
    pos: int = 1,
    check: bool = True,
) -> tuple[Any, ...]:
    if not isinstance(indices, (tuple, list)):
        raise TypeError(
            f"{name}(): argument 'indices' (position {pos}) must be tuple of Tensors, not "
            f"{type(indices).__name__}"
        )
    _check_index_elements(indices, pos)
    if not isinstance(values, Tensor):
        raise _not_tensor(name, "values", pos + 1, values)
    if len(indices) > self.ndim:  # (torch checks the count before the dtypes)
        raise IndexError(
            f"too many indices for tensor of dimension {self.ndim} (got {len(indices)})"
        )
    if values._data.dtype != self._data.dtype:
        # torch checks the indices' shapes first (not their bounds)
        _apply_slicing(_make(self._data), tuple(indices), True, False)
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{self.dtype._short} for the destination and {values.dtype._short} for the source."
        )
    _, adv, _ = _apply_slicing(_make(self._data), tuple(indices), True, check)
    _check_values_fit(self, tuple(adv), values)
    return tuple(adv)


def _one_element(values: Any) -> bool:
    return isinstance(values, Tensor) and values._data.size == 1


def index_put(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """Mirrors `torch.index_put`."""
    if not accumulate and isinstance(indices, (tuple, list)) and _one_element(values):
        _check_byte_mask_fill(tuple(indices))
    idx = _check_index_put(input, indices, values, "index_put")
    return _index_put(input, idx, values, bool(accumulate))


def _index_put_function(fn: Any) -> Any:
    """torch.index_put / torch.index_put_: `indices` is argument 2 in their errors."""

    def function(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Any:
        if not isinstance(indices, (tuple, list)):
            _check_index_put(input, indices, values, fn.__name__, 2)
        _check_index_elements(indices, 2)
        if not isinstance(values, Tensor):
            raise _not_tensor(fn.__name__, "values", 3, values)
        return fn(input, indices, values, accumulate)

    function.__name__ = function.__qualname__ = fn.__name__
    function.__doc__ = fn.__doc__
    return function


def _refuse_own_values(self: Tensor) -> None:
    """index_put_ of a tensor into itself: torch's assert_no_overlap (a tensor is the same as
    itself, empty or not) before any check of the indices; its autograd layer checks first."""
    from .inplace import PARTIAL_OVERLAP

    self._check_inplace()
    raise RuntimeError(PARTIAL_OVERLAP)


@autograd_checks_first
def index_put_(self: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """Mirrors `torch.Tensor.index_put_`."""
    if values is self:
        _refuse_own_values(self)
    if not accumulate and isinstance(indices, (tuple, list)) and _one_element(values):
        _check_byte_mask_fill(tuple(indices))
    try:
        idx = _check_index_put(self, indices, values)
    except IndexError as e:
        if hasattr(e, "good"):
            idx = _check_index_put(self, indices, values, check=False)
            _put_until_bad(self, idx, values, e, bool(accumulate))
        raise
    if _is_expanded(self):
        _warn_index_put_expanded(indices, values, accumulate)
        if accumulate and not (is_grad_enabled() and (self._rg or values._rg)):
            return _accumulate_expanded(self, idx, values)
    return apply_inplace(_index_put, self, idx, values, bool(accumulate))


def _accumulate_expanded(self: Tensor, idx: tuple[Any, ...], values: Tensor) -> Tensor:
    """index_put_(accumulate=True) on an expanded tensor: torch's kernel adds each value into
    the memory its position shares, one after another (two positions of one location add
    both)."""
    from .inplace import _writable_alias

    self._check_inplace()
    alias = _writable_alias(self._data)
    if alias is None or values._data.dtype != self._data.dtype or alias.dtype is D.LD:
        return apply_inplace(_index_put, self, idx, values, True)
    target = alias[idx]
    np.add.at(alias, idx, np.broadcast_to(values._data, target.shape))
    self._bump()
    return self


def _is_expanded(t: Tensor) -> bool:
    """torch's has_internal_overlap: a dimension of size > 1 with stride 0."""
    d = t._data
    if 0 not in d.strides:
        return False
    return any(st == 0 and n > 1 for n, st in zip(d.shape, d.strides, strict=True))


def _warn_index_put_expanded(indices: Any, values: Any, accumulate: bool) -> None:
    """index_put_ on an expanded tensor: torch's deprecation warning, and masked_fill_'s too
    where index_put_ dispatches to it (a lone mask, one value)."""
    warn_expanded("index_put_")
    tensors = [i for i in indices if isinstance(i, Tensor)]
    if (
        not accumulate
        and _one_element(values)
        and len(tensors) == 1
        and tensors[0].dtype in (D.bool_, D.uint8)
    ):
        warn_expanded("masked_fill_")


# --- gather / scatter ---------------------------------------------------------------------


def _coords(index: np.ndarray, dim: int) -> tuple[Any, ...]:
    """The fancy index that addresses, for each element of index, its target element."""
    if index.ndim == 0:
        return ()  # a 0-d self: the one element
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _src_part(src: np.ndarray, index: np.ndarray) -> np.ndarray:
    if src.ndim == 0:
        return src
    return src[tuple(slice(0, n) for n in index.shape)]


def _scatter_add_fwd(self: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> Any:
    out = self.copy()
    if out.ndim == 0:  # a 0-d self: every index names its one element
        out += _src_part(src, index).sum() if index.ndim else src
    else:
        # (torch's kernel sums bfloat16 in float: rounded once, as np.add.at then _run round)
        (np.add.at if out.dtype is D.LD else add_at)(
            out, _coords(index, dim), _src_part(src, index)
        )
    return out


def _scatter_fwd(self: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> Any:
    out = self.copy()
    if out.ndim == 0 and index.ndim:  # a 0-d self: the last write wins
        out[...] = _src_part(src, index).reshape(-1)[-1] if index.size else out
        return out
    out[_coords(index, dim)] = _src_part(src, index)
    return out


_gather = defop(
    "gather",
    "GatherBackward0",
    lambda self, dim, index, self_sym_sizes: (
        np.broadcast_to(self, index.shape).copy()  # a 0-d self read at each index (all 0)
        if self.ndim == 0 and index.ndim
        else self[_coords(index, dim)]
    ),
    contiguous=True,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, dim, index, self_sym_sizes: _written_in_place(
        _scatter_add(_zeros(self_sym_sizes, grad), dim, index, grad)
    ),
    complex=True,
)
# torch's GatherBackward0 saves self too (shadowgrad's formula reads its sizes only)
HOOKED_EXTRA["gather"] = lambda args, saved: [args[0]]
# ... and MaskedSelectBackward0's and TakeBackward0's (masked_select_backward, take_backward)
HOOKED_EXTRA["masked_select"] = HOOKED_EXTRA["take"] = lambda args, saved: [args[0]]
# ... and IndexAddBackward0's and IndexCopyBackward0's source (its sizes only, here)
HOOKED_EXTRA["index_add"] = HOOKED_EXTRA["index_copy"] = lambda args, saved: [args[3]]
_scatter_add = defop(
    "scatter_add",
    "ScatterAddBackward0",
    _scatter_add_fwd,
    dtype="keep",
    jvp=lambda self, dim, index, self_t, src_t: (
        self_t if src_t is None else _scatter_add(_or_zeros(self_t, self), dim, index, src_t)
    ),
    self=lambda grad: grad,
    src=lambda grad, dim, index: _gather(grad, dim, index, tuple(grad._data.shape)),
    complex=True,
)
_scatter_src = defop(
    "scatter.src",
    "ScatterBackward0",
    _scatter_fwd,
    dtype="keep",
    jvp=lambda self, dim, index, self_t, src_t: (
        _scatter_value(self_t, dim, index, 0)
        if src_t is None
        else _scatter_src(_or_zeros(self_t, self), dim, index, src_t)
    ),
    self=lambda grad, dim, index: _scatter_value(grad, dim, index, 0),
    src=lambda grad, dim, index: _gather(grad, dim, index, tuple(grad._data.shape)),
    complex=True,
)
_scatter_value = defop(
    "scatter.value",
    "ScatterBackward1",
    lambda self, dim, index, value: _scatter_fwd(self, dim, index, np.asarray(value, self.dtype)),
    dtype="keep",
    jvp=lambda dim, index, self_t: _scatter_value(self_t, dim, index, 0),
    self=lambda grad, dim, index: _scatter_value(grad, dim, index, 0),
    complex=True,  # linear: the same scatter of zeros into the gradient
)


def _check_index_dtype(index: Tensor, what: str) -> np.ndarray:
    a = index._data
    if a.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{what}(): Expected dtype int32/int64 for index")
    return a


def _check_bounds(a: np.ndarray, dim: int, n: int) -> None:
    if a.size and (a.max() >= n or a.min() < -n):
        bad = a[(a >= n) | (a < -n)].flat[0]
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {n}")


def _check_bounds_nonneg(a: np.ndarray, dim: int, n: int) -> None:
    """gather/scatter's bounds: a negative index is out of bounds too."""
    if a.size and (a.max() >= n or a.min() < 0):
        bad = a[(a >= n) | (a < 0)].flat[0]
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {n}")


def _gather_checks(self: Tensor, dim: int, index: Tensor, what: str) -> tuple[int, np.ndarray]:
    d = wrap_dim(dim, self.ndim)
    a = _check_index_dtype(index, what)
    if max(a.ndim, 1) != max(self.ndim, 1):
        who = "input" if what == "gather" else "self"
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {who} tensor")
    # a 0-d side reads as one element (a 0-d self keeps an index of several, all 0)
    if (self.ndim == 0 or a.ndim == 0) and (self.ndim or a.size == 1):
        a = a.reshape(a.shape or (1,)) if self.ndim else a.reshape(())
    return d, a


def _not_tensor(fn: str, arg: str, pos: int, v: Any) -> TypeError:
    """torch's parser error for a non-Tensor `index`, at its position in the function form;
    the method form (`_method`) reports one less."""
    from .._signatures import _type_name

    e = TypeError(f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not {_type_name(v)}")
    e.arg_pos = (fn, arg, pos, _type_name(v))  # type: ignore[attr-defined]
    return e


def _method(fn: Any, name: str | None = None) -> Any:
    """fn as a Tensor method (named name): a parser error names the argument's position
    without self."""

    def method(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            if not hasattr(e, "arg_pos"):
                raise
            fn_name, arg, pos, got = e.arg_pos
            raise TypeError(
                f"{name or fn_name}(): argument '{arg}' (position {pos - 1}) must be Tensor, "
                f"not {got}"
            ) from None

    method.__name__ = method.__qualname__ = name or fn.__name__
    method.__doc__ = fn.__doc__
    method.__wrapped__ = fn  # type: ignore[attr-defined]
    method._forwards = True  # type: ignore[attr-defined] # its arguments, unchanged, to fn
    return method


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """Mirrors `torch.gather`."""
    if not isinstance(index, Tensor):
        raise _not_tensor("gather", "index", 3, index)
    if type(dim) is not int or (sparse_grad is not False and sparse_grad is not True):
        from .._signatures import reraise

        reraise("gather", (dim, index), {"sparse_grad": sparse_grad})
    d, a = _gather_checks(input, dim, index, "gather")
    shape = input._data.shape
    for k in range(a.ndim):
        if k != d and a.shape[k] > shape[k]:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {shape_str(a.shape)} to be "
                f"no larger than self {shape_str(shape)} apart from dimension {d}"
            )
    _check_bounds_nonneg(a, d, shape[d] if input.ndim else 1)
    out = _gather(input, d, a, tuple(shape))
    if out._grad_fn is not None:
        _saves_indices(out, index)
    return out


def _scatter_checks(
    self: Tensor, dim: int, index: Tensor, src: Any, check_reduce: Any = None
) -> tuple[int, np.ndarray]:
    # torch's scatter_meta_impl: the dim, scatter_gather_dtype_check (the index's dtype, then
    # src's against self's), then scatter_shape_check
    wrap_dim(dim, self.ndim)
    _check_index_dtype(index, "scatter")
    if isinstance(src, Tensor) and src._data.dtype != self._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    d, a = _gather_checks(self, dim, index, "scatter")
    shape = self._data.shape
    src_shape = src._data.shape if isinstance(src, Tensor) else None
    # torch's scatter_shape_check: sizes against self, then against src (src.size(k) wraps k),
    # then the src rank, then the size error
    wrong = any(k != d and a.shape[k] > shape[k] for k in range(a.ndim))
    if not wrong and src_shape is not None:
        for k in range(a.ndim):
            if src_shape and k >= len(src_shape):
                n = len(src_shape)
                raise IndexError(
                    f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got "
                    f"{k})"
                )
            if a.shape[k] > (src_shape[k] if src_shape else 1):
                wrong = True
                break
    if src_shape is not None and max(len(src_shape), 1) != max(a.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if wrong:
        msg = (
            f"Expected index {shape_str(a.shape)} to be no larger than self "
            f"{shape_str(shape)} apart from dimension {d}"
        )
        if src_shape is not None:
            msg += f" and to be no larger size than src {shape_str(src_shape)}"
        raise RuntimeError(msg)
    if check_reduce is not None:  # torch validates the reduce argument before the indices
        check_reduce()
    _check_bounds_nonneg(a, d, shape[d] if self.ndim else 1)
    return d, a


_UNSET: Any = object()  # `reduce=` not given (torch rejects an explicit None)

_SCATTER_SIGS = (
    "int dim, Tensor index, Tensor src",
    "int dim, Tensor index, Tensor src, *, str reduce",
    "int dim, Tensor index, Number value",
    "int dim, Tensor index, Number value, *, str reduce",
)


def _scatter_impl(
    input: Tensor, dim: int, index: Tensor, src: Any, value: Any, reduce: Any, aten: str
) -> Tensor:
    if src is None:
        src = value
    if reduce is None:
        kinds = [type(dim).__name__, "Tensor", "Tensor" if isinstance(src, Tensor) else None]
        got = ", ".join(k for k in kinds if k) + ", reduce=NoneType"
        if value is not None:
            got += f", value={type(value).__name__}"
        sigs = "".join(f" * ({sig})\n" for sig in _SCATTER_SIGS)
        raise TypeError(
            f"{aten}() received an invalid combination of arguments - got ({got}), but expected "
            f"one of:\n{sigs}"
        )
    if reduce is not _UNSET:
        return _scatter_reduce_legacy(input, dim, index, src, reduce, aten)
    d, a = _scatter_checks(input, dim, index, src)
    if isinstance(src, Tensor):
        out = _scatter_src(input, d, a, src)
    else:
        D.check_scalar_fits(src, input.dtype)  # the value is converted to self's type, checked
        out = _scatter_value(input, d, a, src)
    if out._grad_fn is not None:
        _saves_indices(out, index)
    return out


def scatter(
    input: Tensor,
    dim: int,
    index: Tensor,
    src: Any = None,
    *,
    value: Any = None,
    reduce: Any = _UNSET,
) -> Tensor:
    """Mirrors `torch.scatter` (src and value forms, and the deprecated `reduce=`)."""
    try:
        if dim.__class__ is bool or (src is None and value is None):
            raise TypeError("scatter")  # (torch's parser: a bool dim, no src nor value)
        return _scatter_impl(input, dim, index, src, value, reduce, "scatter")
    except Exception:  # torch's parser refuses first: its error, where it has one
        from .._signatures import reraise_as_called

        given = (dim, index, src, value, None if reduce is _UNSET else reduce)
        reraise_as_called("scatter", ("dim", "index", "src", "value", "reduce"), given, self=input)
        raise


def _scatter_inplace_fn(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Any = None,
    *,
    value: Any = None,
    reduce: Any = _UNSET,
) -> Tensor:
    return _scatter_impl(self, dim, index, src, value, reduce, "scatter_")


def scatter_(
    self: Tensor,
    dim: int,
    index: Tensor,
    src: Any = None,
    *,
    value: Any = None,
    reduce: Any = _UNSET,
) -> Tensor:
    """Mirrors `torch.Tensor.scatter_`."""
    if src is self:
        _refuse_self_operand(
            _scatter_inplace_fn, self, (dim, index, src), {"value": value, "reduce": reduce}
        )
    return apply_inplace(_scatter_inplace_fn, self, dim, index, src, value=value, reduce=reduce)


_SCATTER_REDUCE_DEPRECATED = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
    "future PyTorch release. Use torch.scatter_reduce instead for more reduction options."
)


def _scatter_reduce_legacy(
    input: Tensor, dim: int, index: Tensor, src: Any, reduce: str, aten: str
) -> Tensor:
    """`scatter(..., reduce="add"|"multiply")`: torch records no derivative for it (a
    NotImplemented node whose backward raises) and warns once for a Tensor src."""
    from .pointwise import no_derivative

    if isinstance(src, Tensor):  # once per process, as torch's TORCH_WARN_ONCE
        warn_once("scatter_reduce_src", _SCATTER_REDUCE_DEPRECATED, stacklevel=4)

    def check_reduce() -> None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")

    d, a = _scatter_checks(input, dim, index, src, check_reduce)
    out = input._data.copy()
    # torch casts a number value to self's dtype (2.5 into int64 is 2)
    s = src._data if isinstance(src, Tensor) else np.asarray(src).astype(out.dtype)
    ufunc = np.add if reduce == "add" else np.multiply
    if out.ndim == 0:
        out = np.asarray(ufunc(out, s.reshape(-1)[0] if s.ndim else s))
    else:
        ufunc.at(out, _coords(a, d), _src_part(s, a))
    return no_derivative(_make(out), (input, src), aten)


# --- scatter_reduce (torch's scatter_reduce.two) --------------------------------------------

# torch's forward also takes "max" and "min" (as amax and amin), though its message and its
# backward (which raises) name only the five
_REDUCES = ("sum", "prod", "mean", "amax", "amin", "max", "min")
_REDUCE_UFUNCS = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "amax": np.maximum,
    "amin": np.minimum,
    "max": np.maximum,
    "min": np.minimum,
}

_AMAX = {"max": "amax", "min": "amin"}


def _reduce_identity(reduce: str, dtype: np.dtype) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    low = reduce in ("amax", "max")
    if dtype.kind == "b":
        return not low
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if low else info.max
    return -np.inf if low else np.inf


def _scatter_reduce_fwd(
    self: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, reduce: str, include_self: bool
) -> np.ndarray:
    zero_d = self.ndim == 0
    out = self.reshape(1).copy() if zero_d else self.copy()
    if zero_d:  # the one element: every index is 0
        coords: Any = (index.reshape(-1),)
        s = src.reshape(-1)[: index.size]
    else:
        coords = _coords(index, dim)
        s = _src_part(src, index)
    if not include_self:
        out[coords] = _reduce_identity(reduce, out.dtype)
    with np.errstate(all="ignore"):
        _REDUCE_UFUNCS[reduce].at(out, coords, s)
        if reduce == "mean":
            count = np.full(out.shape, 1 if include_self else 0, np.int64)
            np.add.at(count, coords, 1)
            count[count == 0] = 1
            if out.dtype.kind in "iu":
                out = np.floor_divide(out, count).astype(out.dtype)
            else:
                out = (out / count).astype(out.dtype)
    return out.reshape(()) if zero_d else out


def _sr_gather(t: Tensor, dim: int, index: np.ndarray) -> Tensor:
    return _gather(t, dim, index, tuple(t._data.shape))


def _ones_like(t: Tensor) -> Tensor:
    return _make(np.ones(t._data.shape, t._data.dtype))


def _scatter_reduce_grads(
    grad: Tensor,
    self: Tensor,
    dim: int,
    index: np.ndarray,
    src: Tensor,
    reduce: str,
    include_self: bool,
    result: Tensor,
    want_src: bool,
) -> Tensor:
    """torch's scatter_reduce_backward: the gradient of self, or of src (want_src)."""
    from .pointwise import where

    if reduce in ("max", "min"):
        raise RuntimeError(
            "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got "
            f"{reduce}."
        )
    if reduce == "sum":
        gs = grad
        gsrc = _sr_gather(grad, dim, index) if want_src else None
    elif reduce == "prod":
        if not want_src:
            # an exclusive product where self is 0: self's own factor replaced by 1
            masked_self = self.masked_fill(self == 0, 1)
            masked_self_result = _scatter_reduce(masked_self, dim, index, src, reduce, include_self)
            gs = grad * masked_self_result / masked_self
        else:
            src_zero = src == 0
            src_num_zeros = _sr_gather(
                _scatter_add(_zeros(self._data.shape, self), dim, index, src_zero.to(self.dtype)),
                dim,
                index,
            )
            src_single_zero = src_zero & (src_num_zeros == 1)
            masked_src = src.masked_fill(src_single_zero, 1)
            masked_src_result = _scatter_reduce(self, dim, index, masked_src, reduce, include_self)
            gsrc = where(
                src_single_zero,
                _sr_gather(grad * masked_src_result, dim, index),
                _sr_gather(grad * result, dim, index) / src.masked_fill(src_zero, 1),
            )
            if bool((src_num_zeros > 1).any()):
                gsrc = _delayed_error(gsrc, _PROD_DOUBLE_BACKWARD)
    elif reduce == "mean":
        n = _ones_like(grad) if include_self else _zeros(grad._data.shape, grad)
        n = _scatter_add(n, dim, index, _ones_like(src))
        n = n.masked_fill(n == 0, 1)
        gs = grad / n
        gsrc = _sr_gather(grad, dim, index) / _sr_gather(n, dim, index) if want_src else None
    else:  # amax, amin: the gradient is shared evenly among the elements equal to the result
        value = _sr_gather(result, dim, index)
        self_is_result = (self == result).to(self.dtype)
        src_is_result = (src == value).to(self.dtype)
        distributed = grad / _scatter_add(self_is_result, dim, index, src_is_result)
        gs = (self == result) * distributed
        gsrc = (src == value) * _sr_gather(distributed, dim, index) if want_src else None
    if want_src:
        return gsrc  # type: ignore[return-value]
    if not include_self:
        gs = _scatter_value(gs, dim, index, 0)
    return gs


_PROD_DOUBLE_BACKWARD = (
    "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are "
    "scattered to the same position in self"
)


def _delayed_error(t: Tensor, msg: str) -> Tensor:
    """torch's DelayedError: t itself, whose own backward (double backward) raises msg."""
    if not t._rg:
        return t
    from ..autograd.function import Error

    node = Error(msg, (t._edge(),))
    node._in_meta = ((t._data.shape, t.dtype),)
    return _make(t._data, True, node, 0)


def _scatter_reduce_jvp(
    self: Tensor,
    dim: int,
    index: np.ndarray,
    src: Tensor,
    reduce: str,
    include_self: bool,
    result: Tensor,
    self_t: Any,
    src_t: Any,
) -> Any:
    """torch's scatter_reduce_jvp (no tangent for prod, as torch)."""
    from .pointwise import where

    self_t = _or_zeros(self_t, self)
    src_t = _or_zeros(src_t, src)
    if reduce in ("sum", "mean"):
        return _scatter_reduce(self_t, dim, index, src_t, reduce, include_self)
    if reduce in ("prod", "max", "min"):
        return None
    mask_self = self == result
    mask_src = src == _sr_gather(result, dim, index)
    masked_src_t = where(mask_src, src_t, 0.0)
    dt = self_t.dtype
    div = _scatter_reduce(mask_self.to(dt), dim, index, mask_src.to(dt), "sum", include_self)
    num = _scatter_reduce(
        where(mask_self, self_t, 0.0), dim, index, masked_src_t, "sum", include_self
    )
    return num / div


_scatter_reduce = defop(
    "scatter_reduce.two",
    "ScatterReduceBackward0",
    _scatter_reduce_fwd,
    dtype="keep",
    jvp=_scatter_reduce_jvp,
    self=lambda grad, self, dim, index, src, reduce, include_self, result: _scatter_reduce_grads(
        grad, self, dim, index, src, reduce, include_self, result, False
    ),
    src=lambda grad, self, dim, index, src, reduce, include_self, result: _scatter_reduce_grads(
        grad, self, dim, index, src, reduce, include_self, result, True
    ),
)


def _scatter_reduce_checked(
    input: Tensor,
    dim: int,
    index: Tensor,
    src: Any,
    reduce: str,
    include_self: bool,
    src_pos: int,
    inplace: bool = False,
) -> Tensor:
    if not isinstance(src, Tensor):
        raise TypeError(
            f"scatter_reduce(): argument 'src' (position {src_pos}) must be Tensor, not "
            f"{type(src).__name__}"
        )

    def check_reduce() -> None:
        if reduce not in _REDUCES:
            raise RuntimeError(
                f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
            )

    d, a = _scatter_checks(input, dim, index, src, check_reduce)
    dt = input.dtype
    if (reduce == "mean" and dt._np.kind == "b") or (
        reduce in ("amax", "amin", "max", "min") and dt.is_complex
    ):
        raise NotImplementedError(
            f'"scatter_gather_tensor_cpu_reduce_{_AMAX.get(reduce, reduce)}" not implemented '
            f"for '{dt._short}'"
        )
    # (torch's check is in the out-of-place op's autograd kernel only)
    grad = input.requires_grad or src.requires_grad
    if dt.is_complex and not inplace and grad and is_grad_enabled():
        raise RuntimeError(
            "scatter_reduce does not support automatic differentiation for outputs with complex "
            "dtype."
        )
    return _scatter_reduce(input, d, a, src, reduce, bool(include_self))


def scatter_reduce(
    input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """Mirrors `torch.scatter_reduce`."""
    return _scatter_reduce_checked(input, dim, index, src, reduce, include_self, 4)


def _scatter_reduce_method(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    return _scatter_reduce_checked(self, dim, index, src, reduce, include_self, 3)


def scatter_reduce_(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """Mirrors `torch.Tensor.scatter_reduce_`."""
    return apply_inplace(
        _scatter_reduce_inplace, self, dim, index, src, reduce, include_self=include_self
    )


def _scatter_reduce_inplace(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    return _scatter_reduce_checked(self, dim, index, src, reduce, include_self, 3, True)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """Mirrors `torch.scatter_add`."""
    if dim.__class__ is bool:  # torch's parser takes no bool for an int dim
        from .._signatures import reraise_op_frame

        reraise_op_frame(1)
    if not isinstance(index, Tensor):
        raise _not_tensor("scatter_add", "index", 3, index)
    if not isinstance(src, Tensor):
        raise _not_tensor("scatter_add", "src", 4, src)
    d, a = _scatter_checks(input, dim, index, src)
    return _scatter_add(input, d, a, src)


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """Mirrors `torch.index_select`."""
    if not isinstance(index, Tensor):
        raise _not_tensor("index_select", "index", 3, index)
    if type(dim) is not int:  # a bool, a float, a str: torch's parser refuses them
        from .._signatures import reraise

        reraise("index_select", (dim, index), {})
    d = wrap_dim(dim, input.ndim)
    a = index._data
    if a.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if a.dtype not in (np.int64, np.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    n = input._data.shape[d] if input.ndim else 1
    if n == 0 and a.size and input.ndim > 1:  # torch's kernel for an empty self
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if a.size and (a.max() >= n or a.min() < 0):
        if d == 1 and input.ndim > 1:  # torch's index_select_out_cpu_dim1_ kernel
            bad = a.reshape(-1)[(a.reshape(-1) >= n) | (a.reshape(-1) < 0)][0]
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={n}")
        raise IndexError("index out of range in self")
    a = a.reshape(-1)
    if input.ndim == 0:
        if a.size != 1:
            raise RuntimeError(
                f"index_select(): Index to scalar can have only 1 value, got {a.size} value(s)"
            )
        return _index_select(input, dim, a, ())
    # torch's node saves the dim as given (a negative one reads as 2**64 + dim)
    out = _index_select(input, dim if type(dim) is int else d, a, tuple(input._data.shape))
    if out._grad_fn is not None:
        _saves_indices(out, index)
    return out


def _along(dim: int, index: np.ndarray) -> tuple[Any, ...]:
    return (slice(None),) * dim + (index,)


_index_select = defop(
    "index_select",
    "IndexSelectBackward0",
    # a 0-d self: its one element (the index was checked to be one 0)
    lambda self, dim, index, self_sym_sizes: np.take(self, index, axis=dim) if self.ndim else +self,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, dim, index, self_sym_sizes: _index_add(
        _zeros(self_sym_sizes, grad), dim % max(len(self_sym_sizes), 1), index, grad, 1
    ),
    complex=True,
)


def _index_add_fwd(self: np.ndarray, dim: int, index: np.ndarray, source: Any, alpha: Any) -> Any:
    out = self.copy()
    if out.ndim == 0:  # a 0-d self and source: the one element
        out[...] += source if alpha == 1 else source * alpha
        return out
    add_at(out, _along(dim, index), source if alpha == 1 else source * alpha)
    return out


def _index_add_source_grad(grad: Tensor, dim: int, index: np.ndarray, alpha: Any) -> Tensor:
    g = grad if grad.ndim == 0 else _index_source_grad(grad, dim, index)
    if alpha == 1:
        return g
    from .pointwise import _mul_scalar  # torch's maybe_multiply: mul.Scalar (MulBackward1)

    return _mul_scalar(g, alpha)


def _index_source_grad(grad: Tensor, dim: int, index: np.ndarray) -> Tensor:
    """torch's grad.index_select(dim, index).expand_as(source) (index_add's and index_copy's
    source): a create_graph gradient ends in ExpandBackward0."""
    g = _index_select(grad, dim, index, tuple(grad._data.shape))
    return S.expand(g, *g._data.shape)


_index_add = defop(
    "index_add",
    "IndexAddBackward0",
    _index_add_fwd,
    dtype="keep",
    jvp=lambda self, dim, index, alpha, self_t, source_t: (
        self_t
        if source_t is None
        else _index_add(_or_zeros(self_t, self), dim, index, source_t, alpha)
    ),
    self=lambda grad: grad,
    source=lambda grad, dim, index, alpha: _index_add_source_grad(grad, dim, index, alpha),
    complex=True,  # as torch's: the source grad multiplies by alpha itself
)


def _index_checks(self: Tensor, dim: int, index: Tensor, what: str) -> tuple[int, np.ndarray]:
    d = wrap_dim(dim, self.ndim)
    a = index._data
    if a.ndim > 1:
        if what == "index_fill_":
            raise RuntimeError("Index has to be a vector/scalar")
        raise IndexError(f"{what}(): Index is supposed to be a vector")
    if a.dtype != np.int64 and (a.dtype != np.int32 or what != "index_add_"):
        if what == "index_fill_":
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if what == "index_copy_":
            raise RuntimeError(
                f"index_copy_(): Expected a long tensor for index, but got {index.dtype._short}"
            )
        raise RuntimeError(
            f"{what}(): Expected dtype int32/int64 for index but got: {index.dtype._short}"
        )
    return d, a.reshape(-1)


def _source_checks(self: Tensor, d: int, a: np.ndarray, source: Tensor, what: str) -> None:
    ns = source._data.shape[d] if source.ndim else 1
    if a.size != ns:
        raise RuntimeError(
            f"{what}(): Number of indices ({a.size}) should be equal to source.size(dim): "
            f"({ns}), for dim: {d}"
        )
    if source._data.dtype != self._data.dtype:
        raise RuntimeError(
            f"{what}(): self ({self.dtype._short}) and source "
            f"({source.dtype._short}) must have the same scalar type"
        )


def _index_add_checks(input: Tensor, d: int, index: Tensor, source: Tensor) -> np.ndarray:
    """torch's index_add meta checks, in its order."""
    a = index._data
    if a.ndim > 1:
        raise IndexError(
            f"index_add_(): Index is supposed to be a vector, but got dim: {a.ndim} with type: "
            f"{index.dtype._short} and size: {shape_str(a.shape)}"
        )
    if a.dtype != np.int64 and a.dtype != np.int32:
        raise RuntimeError(
            f"index_add_(): Expected dtype int32/int64 for index but got: {index.dtype._short}"
        )
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(
            f"index_add_(): self ({input.dtype._short}) and source "
            f"({source.dtype._short}) must have the same scalar type"
        )
    if d != 0 and d >= source.ndim:
        raise RuntimeError(
            f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim "
            f"{source.ndim}"
        )
    ns = source._data.shape[d] if source.ndim else 1
    if a.size != ns:
        raise RuntimeError(
            f"index_add_(): Number of indices ({a.size}) should be equal to source.size(dim): "
            f"({ns}), for dim: {d}"
        )
    ss, cs = input._data.shape, source._data.shape
    if len(ss) != len(cs) or ss[:d] + ss[d + 1 :] != cs[:d] + cs[d + 1 :]:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {shape_str(ss)} source.shape = {shape_str(cs)}"
        )
    return a.reshape(-1)


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    """Mirrors `torch.index_add`."""
    d = wrap_dim(dim, input.ndim)
    a = _index_add_checks(input, d, index, source)
    n = input._data.shape[d] if input.ndim else 1
    if a.size and (a.max() >= n or a.min() < 0):  # torch has no negative indices here
        if input.ndim <= 1 or index._data.dtype == np.int32:
            raise IndexError("index out of range in self")
        _check_bounds_nonneg(a, d, n)
    return _index_add(input, d, a, source, alpha)


def _index_copy_fwd(self: np.ndarray, dim: int, index: np.ndarray, source: Any) -> Any:
    out = self.copy()
    if out.ndim == 0:  # a 0-d self: its one element
        out[...] = np.reshape(source, -1)[-1]
        return out
    out[_along(dim, index)] = source
    return out


def _index_fill_fwd(self: np.ndarray, dim: int, index: np.ndarray, value: Any) -> Any:
    out = self.copy()
    if out.ndim == 0:
        out[...] = value
        return out
    out[_along(dim, index)] = value
    return out


_index_fill = defop(
    "index_fill.int_Scalar",
    "IndexFillBackward0",
    _index_fill_fwd,
    dtype="keep",
    jvp=lambda dim, index, self_t: _index_fill(self_t, dim, index, 0),
    self=lambda grad, dim, index: _index_fill(grad, dim, index, 0),
    complex=True,  # linear: the same fill of the gradient (Note [Complex gradients])
)
_index_fill_t = defop(
    "index_fill.int_Tensor",
    "IndexFillBackward1",
    _index_fill_fwd,
    dtype="keep",
    jvp=lambda self, dim, index, self_t, value_t: (
        _index_fill(self_t, dim, index, 0)
        if value_t is None
        else _index_fill_t(_or_zeros(self_t, self), dim, index, value_t)
    ),
    self=lambda grad, dim, index: _index_fill(grad, dim, index, 0),
    value=lambda grad, dim, index: _index_select(grad, dim, index, tuple(grad._data.shape)).sum(),
    complex=True,  # linear in (self, value) jointly
)
_index_copy = defop(
    "index_copy",
    "IndexCopyBackward0",
    _index_copy_fwd,
    dtype="keep",
    jvp=lambda self, dim, index, self_t, source_t: (
        _index_fill(self_t, dim, index, 0)
        if source_t is None
        else _index_copy(_or_zeros(self_t, self), dim, index, source_t)
    ),
    self=lambda grad, dim, index: _index_fill(grad, dim, index, 0),
    source=lambda grad, dim, index: _index_source_grad(grad, dim, index),
    complex=True,  # linear in (self, source) jointly
)


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """Mirrors `torch.index_copy` (the checks in the order of torch's meta function)."""
    d = index_copy_meta(input, dim, index, source)
    k = index._data.size
    if source.ndim and k != source._data.shape[d]:
        raise IndexError(
            f"index_copy_(): Number of indices ({k}) should be equal to source.size(dim) "
            f"({source._data.shape[d]})"
        )
    a = index._data.reshape(-1)
    n = input._data.shape[d] if input.ndim else 1
    if a.size and (a.max() >= n or a.min() < 0):  # negative indices are out of bounds too
        bad = a[(a >= n) | (a < 0)].flat[0]
        raise IndexError(
            f"index_copy_(): index {bad} is out of bounds for dimension {d} with size {n}"
        )
    return _index_copy(input, d, a, source)


def index_copy_meta(input: Tensor, dim: int, index: Tensor, source: Tensor) -> int:
    """torch's meta function of index_copy: its argument checks, in its order (the overlap
    check, then the number of indices and their bounds come after); the wrapped dim."""
    d = wrap_dim(dim, input.ndim)
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    k = index._data.size
    if source.ndim == 0 and k != 1:
        raise IndexError(
            f"index_copy_(): When source is scalar, index should have one element (got {k})"
        )
    if source.ndim != input.ndim and source.ndim != 0 and input.ndim != 0:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({source.ndim}), destination dimensionality "
            f"({input.ndim})"
        )
    if index._data.dtype != np.int64:
        raise RuntimeError(
            f"index_copy_(): Expected a long tensor for index, but got {index.dtype._short}"
        )
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{input.dtype._short} and (source) {source.dtype._short}"
        )
    ds, ss = list(input._data.shape), list(source._data.shape)
    del ds[d : d + 1], ss[d : d + 1]
    if ds != ss:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {' '.join(map(str, ds))} at dimension {d} and source slice shape: "
            f"{' '.join(map(str, ss))} at dimension 0."
        )
    return d


def index_fill(input: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """Mirrors `torch.index_fill` (scalar or 0-d tensor value)."""
    d, a = _index_checks(input, dim, index, "index_fill_")
    n = input._data.shape[d] if input.ndim else 1
    if a.size and (a.max() >= n or a.min() < -n):
        bad = a[(a >= n) | (a < -n)].flat[0]
        raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {n}")
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        return _index_fill_t(input, d, a, value.to(input.dtype))
    D.check_int_scalar(value)
    return _index_fill(input, d, a, value)


# --- masks and take -----------------------------------------------------------------------


def _broadcast_pair(a: Tensor, b: Tensor) -> tuple[int, ...]:
    sa, sb = a._data.shape, b._data.shape
    try:
        return np.broadcast_shapes(sa, sb)
    except ValueError:
        n = max(len(sa), len(sb))
        pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
        for k in range(n - 1, -1, -1):
            if pa[k] != pb[k] and pa[k] != 1 and pb[k] != 1:
                raise RuntimeError(
                    f"The size of tensor a ({pa[k]}) must match the size of tensor b ({pb[k]}) "
                    f"at non-singleton dimension {k}"
                ) from None
        raise


def _masked_scatter_fwd(
    self: np.ndarray, mask: np.ndarray, source: np.ndarray, source_sym_sizes: Any
) -> np.ndarray:
    shape = np.broadcast_shapes(self.shape, mask.shape)
    out = np.array(np.broadcast_to(self, shape))
    m = np.broadcast_to(mask, shape)
    out[m] = source.reshape(-1)[: int(m.sum())]
    return out


def _masked_scatter_source_grad(grad: Tensor, mask: np.ndarray, sizes: Any) -> Tensor:
    sel = _masked_select(grad, mask, tuple(grad._data.shape))
    n = sel._data.shape[0]
    numel = math.prod(sizes)
    if n != numel:
        sel = S.cat([sel, _make(np.zeros(numel - n, grad._data.dtype))])
    return S.reshape(sel, tuple(sizes))


def _mask_positions(mask: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    return np.nonzero(np.broadcast_to(mask, shape))


def _masked_scatter_self_grad(grad: Tensor, mask: np.ndarray) -> Tensor:
    """torch's grad.masked_fill(mask, 0) (MaskedFillBackward0 in a double-backward graph)."""
    from .pointwise import masked_fill

    return masked_fill(grad, _make(np.asarray(mask)), 0)


_masked_scatter = defop(
    "masked_scatter",
    "MaskedScatterBackward0",
    _masked_scatter_fwd,
    contiguous=True,  # torch clones the expanded self contiguous
    dtype="keep",
    jvp=lambda self, mask, source, source_sym_sizes, self_t, source_t: _masked_scatter(
        _or_zeros(self_t, self), mask, _or_zeros(source_t, source), source_sym_sizes
    ),
    self=lambda grad, mask: _masked_scatter_self_grad(grad, mask),
    source=lambda grad, mask, source_sym_sizes: _masked_scatter_source_grad(
        grad, mask, source_sym_sizes
    ),
    complex=True,  # linear: its formulas move the gradient, for complex tensors too
)


def _masked_select_fwd(self: np.ndarray, mask: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(self.shape, mask.shape)
    return np.broadcast_to(self, shape)[np.broadcast_to(mask, shape)]


def _masked_select_bw(grad: Tensor, mask: np.ndarray, self_sym_sizes: Any) -> Tensor:
    shape = np.broadcast_shapes(tuple(self_sym_sizes), mask.shape)
    z = _zeros(shape, grad)
    return _masked_scatter(z, mask, grad, tuple(grad._data.shape))


_masked_select = defop(
    "masked_select",
    "MaskedSelectBackward0",
    lambda self, mask, self_sym_sizes: _masked_select_fwd(self, mask),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, mask, self_sym_sizes: _masked_select_bw(grad, mask, self_sym_sizes),
    complex=True,
)


def _check_mask(mask: Tensor, what: str) -> np.ndarray:
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"{what}: expected BoolTensor for mask")
    return mask._data


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """Mirrors `torch.masked_select`."""
    try:
        m = _check_mask(mask, "masked_select")
        _broadcast_pair(mask, input)
        out = _masked_select(input, m, tuple(input._data.shape))
        if out._grad_fn is not None:
            _saves_indices(out, mask)
        return out
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("masked_select", (mask,), {})
        raise


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """Mirrors `torch.masked_scatter`: torch broadcasts mask and self, then runs the in-place
    form on the copy (source's dtype, the mask's, then the count)."""
    shape = _broadcast_pair(mask, input)
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(  # sic: torch's message lacks the space after "got"
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{input.dtype._short} and {source.dtype._short}"
        )
    if mask._data.dtype != np.bool_:
        if mask.dtype is D.uint8:
            warnings.warn(  # sic: no space after the comma, as torch's
                "masked_scatter_ received a mask with dtype torch.uint8, this behavior is now "
                "deprecated,please use a mask with dtype torch.bool instead.",
                UserWarning,
                stacklevel=3,
            )
        raise RuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            f"{mask.dtype._short}"
        )
    m = mask._data
    if int(np.broadcast_to(m, shape).sum()) > source._data.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return _masked_scatter(input, m, source, tuple(source._data.shape))


def masked_scatter_(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """Mirrors `Tensor.masked_scatter_`: its kernel checks source's dtype, then the mask's, then
    expands the mask to self (the out-of-place form broadcasts the two first)."""
    try:
        if isinstance(source, Tensor) and source.dtype is not self.dtype:
            raise RuntimeError(  # sic: torch's message lacks the space after "got"
                "masked_scatter: expected self and source to have same dtypes but got"
                f"{self.dtype._short} and {source.dtype._short}"
            )
        m = mask._data if isinstance(mask, Tensor) else None
        if m is not None and m.dtype == np.bool_ and m.shape != self._data.shape:
            from .linalg import _expand_check

            _expand_check(tuple(m.shape), tuple(self._data.shape), D.bool_)
    except RuntimeError:
        self._check_inplace()  # torch's autograd layer checks self first
        raise
    return _masked_scatter_inplace(self, mask, source)


def _take_bw(grad: Tensor, index: np.ndarray, self_sym_sizes: Any) -> Tensor:
    # torch's take_backward: zeros_like(self).put_(index, grad, accumulate=True), so a
    # create_graph gradient's grad_fn is PutBackward0 and its version 1
    from .shape_extra import _put

    r = _put(_zeros(tuple(self_sym_sizes), grad), index, grad, True)
    r._bump()
    return r


_take = defop(
    "take",
    "TakeBackward0",
    lambda self, index, self_sym_sizes: self.reshape(-1)[index],
    contiguous=True,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, index, self_sym_sizes: _take_bw(grad, index, self_sym_sizes),
    complex=True,
)


def take(input: Tensor, index: Tensor) -> Tensor:
    """Mirrors `torch.take`."""
    if not isinstance(index, Tensor):
        raise _not_tensor("take", "index", 2, index)
    a = index._data
    if a.dtype != np.int64:
        raise RuntimeError(
            "take(): Expected a long tensor for index, but got " + index.dtype._short.capitalize()
        )
    n = input._data.size
    if a.size and (a.max() >= n or a.min() < -n):
        if n == 0:
            raise IndexError("take(): tried to take from an empty tensor")
        bad = a[(a >= n) | (a < -n)].flat[0]
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    out = _take(input, a.astype(np.intp, copy=False), tuple(input._data.shape))
    if out._grad_fn is not None:
        _saves_indices(out, index)
    return out


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """Mirrors `torch.take_along_dim`."""
    if dim.__class__ is bool:  # torch's parser takes no bool for an int dim
        from .._signatures import reraise_op_frame

        reraise_op_frame(1)
    try:
        if indices._data.dtype != np.int64 and dim is not None:
            raise RuntimeError(
                "torch.take_along_dim(): dtype of indices should be Long but got "
                f"{indices.dtype._short}"
            )
        if dim is None:
            return gather(S.reshape(input, (-1,)), 0, S.reshape(indices, (-1,)))
        if input.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        d = wrap_dim(dim, input.ndim)
        if indices.ndim != input.ndim:
            raise RuntimeError(
                "torch.take_along_dim(): input and indices should have the same number of "
                f"dimensions, but got {input.ndim} dimensions for input, and {indices.ndim} "
                "dimensions for indices"
            )
        # torch's _take_along_dim_helper: each side is broadcast to the other's sizes (with its
        # own size at `dim`) through expand, which records ExpandBackward0 even when no size changes
        from .registry import infer_size

        sx, si = input._data.shape, indices._data.shape
        bx = infer_size(sx[:d] + si[d : d + 1] + sx[d + 1 :], si)
        ix = S.expand(indices, bx)
        bi = infer_size(si[:d] + sx[d : d + 1] + si[d + 1 :], sx)
        a = ix._data
        if a.size and (a.min() < 0 or a.max() >= sx[d]):
            # torch's CPU kernel reads each index modulo the size (floor remainder: -1 is the
            # last, size + 1 the second); along an empty dim, integer division by zero
            if not sx[d]:
                raise RuntimeError("ZeroDivisionError")
            ix = _make(np.mod(a, sx[d]))
        return gather(S.expand(input, bi), d, ix)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("take_along_dim", (indices, dim), {})
        raise


def nonzero(input: Tensor, *, out: Any = None, as_tuple: bool = False) -> Any:
    """Mirrors `torch.nonzero`."""
    a = input._data
    if as_tuple:
        if a.ndim == 0:
            return (_make(np.zeros(1 if a.item() else 0, np.int64)),)
        return tuple(_make(i.astype(np.int64)) for i in np.nonzero(a))
    if a.ndim == 0:
        return _make(np.zeros((1 if a.item() else 0, 0), np.int64))
    return _make(np.argwhere(a).astype(np.int64))


def argwhere(input: Tensor) -> Tensor:
    """Mirrors `torch.argwhere`."""
    return nonzero(input)


# --- in-place variants ----------------------------------------------------------------------

# the in-place ops that refuse an operand overlapping self at all, self itself included
# (torch's assert_no_overlap; TensorIterator's ops allow a full overlap: x.add_(x))
_NO_OVERLAP = frozenset(("index_add_", "index_copy_", "scatter_add_"))


def _refuse_self_operand(fn: Any, self: Tensor, args: Any, kwargs: dict[str, Any]) -> None:
    """self given as its own operand (a full overlap, even when empty): torch checks the
    arguments, then the autograd layer's in-place rules (leaf, inference tensor), and then
    refuses the overlap."""
    from .._grad_mode import no_grad
    from .inplace import PARTIAL_OVERLAP

    self._check_inplace()  # torch's autograd layer first, then the kernel's checks
    if fn is index_copy:  # index_copy's kernel checks the overlap after the dim only
        wrap_dim(args[0], self.ndim)
    else:
        with no_grad():
            apply_inplace(fn, self.detach().clone(), *args, **kwargs)
    raise RuntimeError(PARTIAL_OVERLAP)


def _inplace(fn: Any, name: str) -> Any:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if any(a is self for a in args) and name in _NO_OVERLAP:
            _refuse_self_operand(fn, self, args, kwargs)
        return apply_inplace(fn, self, *args, **kwargs)

    method.__name__ = name
    method.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    method._forwards = True  # type: ignore[attr-defined] # its arguments, unchanged, to fn
    return method


_masked_scatter_inplace = _inplace(masked_scatter, "masked_scatter_")

# torch warns and writes expanded memory (index_put_'s callers warn)
EXPANDED[_index_put] = None
EXPANDED[index_fill] = "index_fill_"

METHODS: dict[str, Any] = {
    "__getitem__": getitem,
    "__setitem__": setitem,
    "index_put": index_put,
    "index_put_": index_put_,
    "gather": _method(gather),
    "scatter": scatter,
    "scatter_": scatter_,
    "scatter_reduce": _scatter_reduce_method,
    "scatter_reduce_": scatter_reduce_,
    "scatter_add": _method(scatter_add),
    "scatter_add_": _method(_inplace(scatter_add, "scatter_add_"), "scatter_add_"),
    "index_select": _method(index_select),
    "index_add": index_add,
    "index_add_": _inplace(index_add, "index_add_"),
    "index_copy": index_copy,
    "index_copy_": _inplace(index_copy, "index_copy_"),
    "index_fill": index_fill,
    "index_fill_": _inplace(index_fill, "index_fill_"),
    "masked_select": masked_select,
    "masked_scatter": masked_scatter,
    "masked_scatter_": masked_scatter_,
    "take": _method(take),
    "take_along_dim": take_along_dim,
    "nonzero": nonzero,
    "argwhere": argwhere,
}
FUNCTIONS: dict[str, Any] = {
    "index_put": _index_put_function(index_put),
    "index_put_": _index_put_function(index_put_),
    "gather": gather,
    "scatter": scatter,
    "scatter_reduce": scatter_reduce,
    "scatter_add": scatter_add,
    "index_select": index_select,
    "index_add": index_add,
    "index_copy": index_copy,
    "index_fill": index_fill,
    "masked_select": masked_select,
    "masked_scatter": masked_scatter,
    "take": take,
    "take_along_dim": take_along_dim,
    "nonzero": nonzero,
    "argwhere": argwhere,
}
