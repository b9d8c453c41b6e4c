"""Shape and view ops: view/reshape, expand, (un)squeeze, transposes, select/slice, indexing.

View ops return numpy views that share storage and the version counter with their input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make, warn_once
from ._util import shape_str, wrap_dim
from .registry import deflistop, defop

# --- views --------------------------------------------------------------------------------


def _view_fwd(self: np.ndarray, size: tuple[int, ...], self_sym_sizes: Any) -> np.ndarray:
    v = self.view()
    try:
        v.shape = size
    except AttributeError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    return v


_view = defop(
    "view",
    "ViewBackward0",
    _view_fwd,
    dtype="keep",
    view=True,
    self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes),
)
_unsafe_view = defop(
    "_unsafe_view",
    "UnsafeViewBackward0",
    lambda self, size, self_sym_sizes: self.reshape(size),
    dtype="keep",
    self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes),
)
_alias = defop(
    "alias",
    "AliasBackward0",
    lambda self: self.view(),
    dtype="keep",
    view=True,
    self=lambda grad: grad,
)


def _infer_size(size: tuple[Any, ...], numel: int) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    neg = [i for i, s in enumerate(size) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in size:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{shape_str(size)}' is invalid for input of size {numel}")
        size = (*size[: neg[0]], numel // known, *size[neg[0] + 1 :])
    elif known != numel:
        raise RuntimeError(f"shape '{shape_str(size)}' is invalid for input of size {numel}")
    return size


def view(self: Tensor, *size: Any) -> Tensor:
    """Mirrors `torch.Tensor.view` (shape form; a dtype argument reinterprets the bytes)."""
    if len(size) == 1 and isinstance(size[0], D.dtype):
        return _make(self._data.view(size[0]._np))
    shape = _infer_size(size, self._data.size)
    return _view(self, shape, tuple(self._data.shape))


def view_as(self: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.view_as`."""
    return view(self, tuple(other._data.shape))


def reshape(input: Tensor, *shape: Any) -> Tensor:
    """Mirrors `torch.reshape`: a view when the layout allows, else a copy."""
    size = _infer_size(shape, input._data.size)
    v = input._data.view()
    try:
        v.shape = size
    except AttributeError:
        return _unsafe_view(clone(input), size, tuple(input._data.shape))
    return _view(input, size, tuple(input._data.shape))


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Mirrors `torch.flatten`."""
    nd = input.ndim
    if nd == 0:
        return reshape(input, (1,))
    s = wrap_dim(start_dim, nd)
    e = wrap_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = input._data.shape
    n = 1
    for d in shape[s : e + 1]:
        n *= d
    return reshape(input, (*shape[:s], n, *shape[e + 1 :]))


def _expand_fwd(self: np.ndarray, size: tuple[int, ...], self_sym_sizes: Any) -> np.ndarray:
    return np.broadcast_to(self, size)


_expand = defop(
    "expand",
    "ExpandBackward0",
    _expand_fwd,
    dtype="keep",
    view=True,
    self=lambda grad, self_sym_sizes: grad.sum_to_size(self_sym_sizes),
)


def expand(self: Tensor, *sizes: Any) -> Tensor:
    """Mirrors `torch.Tensor.expand`."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    shape = self._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(
            f"expand(torch.FloatTensor{{{shape_str(shape)}}}, size={shape_str(sizes)}): the "
            "number of sizes provided (%d) must be greater or equal to the number of dimensions "
            "in the tensor (%d)" % (len(sizes), len(shape))
        )
    lead = len(sizes) - len(shape)
    out = []
    for i, s in enumerate(sizes):
        s = int(s)
        if i < lead:
            if s < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                    "non-existing dimension " + str(i)
                )
            out.append(s)
            continue
        cur = shape[i - lead]
        if s == -1:
            out.append(cur)
        elif cur == 1 or cur == s:
            out.append(s)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at "
                f"non-singleton dimension {i}.  Target sizes: {shape_str(sizes)}.  Tensor sizes: "
                f"{shape_str(shape)}"
            )
    return _expand(self, tuple(out), tuple(shape))


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.expand_as`."""
    return expand(self, tuple(other._data.shape))


_unsqueeze = defop(
    "unsqueeze",
    "UnsqueezeBackward0",
    lambda self, dim: np.expand_dims(self, dim),
    dtype="keep",
    view=True,
    self=lambda grad, dim: grad.squeeze(dim),
)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """Mirrors `torch.unsqueeze`."""
    return _unsqueeze(input, wrap_dim(dim, input.ndim + 1))


_squeeze_all = defop(
    "squeeze",
    "SqueezeBackward0",
    lambda self, self_sym_sizes: self.reshape([s for s in self.shape if s != 1]),
    dtype="keep",
    view=True,
    self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes),
)
_squeeze_dim = defop(
    "squeeze.dim",
    "SqueezeBackward1",
    lambda self, dim, self_sym_sizes: (
        np.squeeze(self, dim) if self.ndim and self.shape[dim] == 1 else self.view()
    ),
    dtype="keep",
    view=True,
    self=lambda grad, dim, self_sym_sizes: grad.reshape(self_sym_sizes),
)
_squeeze_dims = defop(
    "squeeze.dims",
    "SqueezeBackward2",
    lambda self, dim, self_sym_sizes: np.squeeze(self, tuple(d for d in dim if self.shape[d] == 1)),
    dtype="keep",
    view=True,
    self=lambda grad, dim, self_sym_sizes: grad.reshape(self_sym_sizes),
)


def squeeze(input: Tensor, dim: Any = None) -> Tensor:
    """Mirrors `torch.squeeze`."""
    shape = tuple(input._data.shape)
    if dim is None:
        return _squeeze_all(input, shape)
    if isinstance(dim, (tuple, list)):
        return _squeeze_dims(input, tuple(wrap_dim(d, input.ndim) for d in dim), shape)
    if input.ndim == 0:
        wrap_dim(dim, 0)
    return _squeeze_dim(input, wrap_dim(dim, input.ndim), shape)


_t = defop(
    "t", "TBackward0", lambda self: self.T, dtype="keep", view=True, self=lambda grad: grad.t()
)


def t(input: Tensor) -> Tensor:
    """Mirrors `torch.t`."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return _t(input)


_transpose = defop(
    "transpose.int",
    "TransposeBackward0",
    lambda self, dim0, dim1: np.swapaxes(self, dim0, dim1),
    dtype="keep",
    view=True,
    self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """Mirrors `torch.transpose`."""
    nd = input.ndim
    return _transpose(input, wrap_dim(dim0, nd), wrap_dim(dim1, nd))


_permute = defop(
    "permute",
    "PermuteBackward0",
    lambda self, dims: np.transpose(self, dims),
    dtype="keep",
    view=True,
    self=lambda grad, dims: grad.permute(tuple(np.argsort(dims).tolist())),
)


def permute(input: Tensor, *dims: Any) -> Tensor:
    """Mirrors `torch.permute`."""
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    nd = input.ndim
    if len(dims) != nd:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
            f"to len(dims) = {len(dims)}"
        )
    wrapped = tuple(wrap_dim(d, nd) for d in dims)
    if len(set(wrapped)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _permute(input, wrapped)


def _T(self: Tensor) -> Tensor:
    nd = self.ndim
    if nd == 0:
        warn_once(
            "T0d",
            "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
        )
    elif nd != 2:
        warn_once(
            "Tnd",
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.",
        )
    return _permute(self, tuple(range(nd - 1, -1, -1)))


def _mT(self: Tensor) -> Tensor:
    if self.ndim < 2:
        raise RuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
        )
    return _transpose(self, self.ndim - 2, self.ndim - 1)


# --- select, slice, advanced indexing -------------------------------------------------------


def _select_bw_fwd(grad: np.ndarray, input_sizes: Any, dim: int, index: int) -> np.ndarray:
    out = np.zeros(input_sizes, grad.dtype)
    idx = [slice(None)] * len(input_sizes)
    idx[dim] = index
    out[tuple(idx)] = grad
    return out


_select_backward = defop(
    "select_backward",
    "SelectBackwardBackward0",
    _select_bw_fwd,
    dtype="keep",
    grad=lambda grad, dim, index: grad.select(dim, index),
)


def _select_fwd(self: np.ndarray, dim: int, index: int, self_sym_sizes: Any) -> np.ndarray:
    idx = [slice(None)] * self.ndim
    idx[dim] = index
    return self[tuple(idx)]


_select = defop(
    "select.int",
    "SelectBackward0",
    _select_fwd,
    dtype="keep",
    view=True,
    self=lambda grad, dim, index, self_sym_sizes: _select_backward(
        grad, self_sym_sizes, dim, index
    ),
)


def select(input: Tensor, dim: int, index: int) -> Tensor:
    """Mirrors `torch.select`."""
    nd = input.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, nd)
    n = input._data.shape[d]
    index = int(index)
    if not -n <= index < n:
        raise IndexError(f"index {index} is out of bounds for dimension {d} with size {n}")
    return _select(input, d, index % n, tuple(input._data.shape))


def _slice_bw_fwd(
    grad: np.ndarray, input_sizes: Any, dim: int, start: int, end: int, step: int
) -> np.ndarray:
    out = np.zeros(input_sizes, grad.dtype)
    idx = [slice(None)] * len(input_sizes)
    idx[dim] = slice(start, end, step)
    out[tuple(idx)] = grad
    return out


_slice_backward = defop(
    "slice_backward",
    "SliceBackwardBackward0",
    _slice_bw_fwd,
    dtype="keep",
    grad=lambda grad, dim, start, end, step: grad.__getitem__(
        (slice(None),) * dim + (slice(start, end, step),)
    ),
)


def _slice_fwd(
    self: np.ndarray, dim: int, start: int, end: int, step: int, self_sym_sizes: Any
) -> np.ndarray:
    idx = [slice(None)] * self.ndim
    idx[dim] = slice(start, end, step)
    return self[tuple(idx)]


_slice = defop(
    "slice.Tensor",
    "SliceBackward0",
    _slice_fwd,
    dtype="keep",
    view=True,
    self=lambda grad, dim, start, end, step, self_sym_sizes: _slice_backward(
        grad, self_sym_sizes, dim, start, end, step
    ),
)


def _slice_dim(input: Tensor, dim: int, s: slice) -> Tensor:
    n = input._data.shape[dim]
    if s.step is not None and s.step <= 0:
        raise ValueError("step must be greater than zero")
    start, end, step = s.indices(n)
    end = max(end, start)
    return _slice(input, dim, start, end, step, tuple(input._data.shape))


def narrow(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """Mirrors `torch.narrow`."""
    d = wrap_dim(dim, input.ndim)
    return _slice_dim(input, d, slice(start, start + length, 1))


def _index_bw_fwd(grad: np.ndarray, input_sizes: Any, indices: Any) -> np.ndarray:
    out = np.zeros(input_sizes, grad.dtype)
    np.add.at(out, indices, grad)
    return out


_index_backward = defop(
    "index_put_backward",
    "IndexPutBackward0",
    _index_bw_fwd,
    dtype="keep",
    grad=lambda grad, indices: _index(grad, indices, tuple(grad._data.shape)),
)


# Advanced indexing: repeated indices accumulate in backward (np.add.at), as torch's index_put_.
_index = defop(
    "index.Tensor",
    "IndexBackward0",
    lambda self, indices, self_sym_sizes: self[indices],
    dtype="keep",
    self=lambda grad, indices, self_sym_sizes: _index_backward(grad, self_sym_sizes, indices),
)


def _to_index_array(v: Any) -> Any:
    if isinstance(v, Tensor):
        a = v._data
        if a.dtype.kind not in "biu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return a
    if isinstance(v, (list, tuple)):
        arr = np.asarray([x._data if isinstance(x, Tensor) else x for x in v])
        if arr.dtype.kind not in "biu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return arr
    return v


def getitem(self: Tensor, index: Any) -> Tensor:
    """Mirrors `torch.Tensor.__getitem__`: basic indices become select/slice/unsqueeze nodes."""
    if not isinstance(index, tuple):
        if index is Ellipsis:
            return _alias(self)
        if isinstance(index, slice):
            if self.ndim == 0:
                raise IndexError(
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
                )
            return _slice_dim(self, 0, index)
        index = (index,)
    # expand Ellipsis
    n_ell = sum(1 for i in index if i is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = 0
    for i in index:
        if i is None or i is Ellipsis:
            continue
        if isinstance(i, Tensor) and i.dtype is D.bool_:
            consumed += max(i.ndim, 1) if i.ndim else 1
        elif isinstance(i, bool):
            continue
        else:
            consumed += 1
    if consumed > self.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self.ndim}")
    if n_ell:
        k = index.index(Ellipsis)
        index = index[:k] + (slice(None),) * (self.ndim - consumed) + index[k + 1 :]
    result = self
    dim = 0
    advanced: list[Any] = []
    has_adv = False
    for i in index:
        if i is None:
            result = _unsqueeze(result, dim)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(i, slice):
            if i != slice(None):
                result = _slice_dim(result, dim, i)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(i, bool):
            result = _unsqueeze(result, dim)
            advanced.append(np.array([0] if i else [], dtype=np.int64))
            has_adv = True
            dim += 1
        elif isinstance(i, (int, np.integer)):
            n = result._data.shape[dim]
            if not -n <= int(i) < n:
                raise IndexError(
                    f"index {int(i)} is out of bounds for dimension {dim} with size {n}"
                )
            result = _select(result, dim, int(i) % n, tuple(result._data.shape))
        else:
            arr = _to_index_array(i)
            if isinstance(arr, np.ndarray) and arr.dtype == np.bool_:
                if arr.shape != result._data.shape[dim : dim + arr.ndim]:
                    raise IndexError(
                        f"The shape of the mask {shape_str(arr.shape)} at index {dim} does not "
                        f"match the shape of the indexed tensor {shape_str(result._data.shape)}"
                    )
                advanced.extend(arr.nonzero())
                dim += arr.ndim
            else:
                if not isinstance(arr, np.ndarray):
                    raise IndexError(
                        "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                        "Variables are valid indices (got " + type(i).__name__ + ")"
                    )
                n = result._data.shape[dim]
                if arr.size and (arr.max() >= n or arr.min() < -n):
                    bad = arr[(arr >= n) | (arr < -n)].flat[0]
                    raise IndexError(
                        f"index {bad} is out of bounds for dimension {dim} with size {n}"
                    )
                advanced.append(arr.astype(np.intp, copy=False))
                dim += 1
            has_adv = True
    if self is result and not has_adv:
        return _alias(self)
    if has_adv:
        while advanced and isinstance(advanced[-1], slice):
            advanced.pop()
        result = _index(result, tuple(advanced), tuple(result._data.shape))
    return result


# --- copies and casts ---------------------------------------------------------------------

clone_op = defop(
    "clone", "CloneBackward0", lambda self: self.copy(), dtype="keep", self=lambda grad: grad
)


def clone(input: Tensor, *, memory_format: Any = None) -> Tensor:
    """Mirrors `torch.clone`."""
    return clone_op(input)


def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.contiguous`: self when already contiguous."""
    if self._data.flags.c_contiguous:
        return self
    return clone_op(self)


_to_copy = defop(
    "_to_copy",
    "ToCopyBackward0",
    lambda self, dtype: self.astype(dtype._np),
    dtype="keep",
    self=lambda grad: grad,
)


def _parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[D.dtype | None, bool]:
    from .._tensor import check_device, device

    dtype = kwargs.pop("dtype", None)
    dev = kwargs.pop("device", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    for a in args:
        if isinstance(a, D.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, device)):
            dev = a
        elif isinstance(a, bool):
            pass
        elif a is not None:
            raise TypeError(
                f"to() received an invalid combination of arguments - got ({type(a).__name__})"
            )
    check_device(dev)
    return dtype, copy


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.Tensor.to` (dtype, device, or another tensor); self when nothing changes."""
    dtype, copy = _parse_to(args, dict(kwargs))
    if dtype is None or dtype is self.dtype:
        return clone_op(self) if copy else self
    return _to_copy(self, dtype)


def _cast_method(d: D.dtype) -> Any:
    def method(self: Tensor, memory_format: Any = None) -> Tensor:
        return to(self, d)

    return method


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.type_as`."""
    return to(self, other.dtype)


METHODS = {
    "view": view,
    "view_as": view_as,
    "reshape": reshape,
    "reshape_as": lambda self, other: reshape(self, tuple(other._data.shape)),
    "flatten": flatten,
    "expand": expand,
    "expand_as": expand_as,
    "unsqueeze": unsqueeze,
    "squeeze": squeeze,
    "t": t,
    "transpose": transpose,
    "swapaxes": transpose,
    "swapdims": transpose,
    "permute": permute,
    "select": select,
    "narrow": narrow,
    "__getitem__": getitem,
    "clone": clone,
    "contiguous": contiguous,
    "to": to,
    "type_as": type_as,
    "float": _cast_method(D.float32),
    "double": _cast_method(D.float64),
    "half": _cast_method(D.float16),
    "long": _cast_method(D.int64),
    "int": _cast_method(D.int32),
    "short": _cast_method(D.int16),
    "char": _cast_method(D.int8),
    "byte": _cast_method(D.uint8),
    "bool": _cast_method(D.bool_),
    "T": property(_T),
    "mT": property(_mT),
}
FUNCTIONS = {
    "reshape": reshape,
    "flatten": flatten,
    "unsqueeze": unsqueeze,
    "squeeze": squeeze,
    "t": t,
    "transpose": transpose,
    "swapaxes": transpose,
    "swapdims": transpose,
    "permute": permute,
    "select": select,
    "narrow": narrow,
    "clone": clone,
}


# --- joining ------------------------------------------------------------------------------


def _split_grad(grad: Tensor, dim: int, sizes: tuple[int, ...]) -> list[Tensor]:
    out = []
    start = 0
    for s in sizes:
        out.append(narrow(grad, dim, start, s))
        start += s
    return out


_cat = deflistop(
    "cat",
    "CatBackward0",
    lambda tensors, dim, sizes: np.concatenate(tensors, axis=dim),
    tensors=lambda grad, dim, sizes: _split_grad(grad, dim, sizes),
)
_stack = deflistop(
    "stack",
    "StackBackward0",
    lambda tensors, dim: np.stack(tensors, axis=dim),
    tensors=lambda grad, dim: [select(grad, dim, i) for i in range(grad._data.shape[dim])],
)


def cat(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.cat`."""
    ts = list(tensors)
    if not ts:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    # legacy behaviour: 1-D empty tensors are skipped
    keep = [t for t in ts if not (t.ndim == 1 and t._data.shape[0] == 0)] or ts[:1]
    nd = keep[0].ndim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = wrap_dim(dim, nd)
    ref = keep[0]._data.shape
    for i, t in enumerate(keep):
        if t.ndim != nd:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {nd} and {t.ndim}"
            )
        for k in range(nd):
            if k != d and t._data.shape[k] != ref[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {ref[k]} "
                    f"but got size {t._data.shape[k]} for tensor number {i} in the list."
                )
    return _cat(keep, d, tuple(t._data.shape[d] for t in keep))


concat = cat
concatenate = cat


def stack(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.stack`."""
    ts = list(tensors)
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = ts[0]._data.shape
    for i, t in enumerate(ts):
        if t._data.shape != ref:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {shape_str(ref)} at entry 0 "
                f"and {shape_str(t._data.shape)} at entry {i}"
            )
    return _stack(ts, wrap_dim(dim, len(ref) + 1))


FUNCTIONS.update({"cat": cat, "concat": concat, "concatenate": concatenate, "stack": stack})


_unbind = defop(
    "unbind.int",
    "UnbindBackward0",
    lambda self, dim: tuple(np.moveaxis(self, dim, 0)),
    dtype="keep",
    view=True,
    n_outputs=0,
    multi_view="Unbind",
    self=lambda grads, dim: stack(grads, dim),
)


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.unbind`."""
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return _unbind(input, wrap_dim(dim, input.ndim))


METHODS["unbind"] = unbind
FUNCTIONS["unbind"] = unbind
