"""Shape and view ops: view/reshape, expand, (un)squeeze, transposes, select/slice, indexing.

View ops return numpy views that share storage and the version counter with their input.
"""

from __future__ import annotations

import itertools
import math
import operator
import os
import sys
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .._numpy_compat import skipped_by_warnings
from .._tensor import Tensor, _make, warn_once
from ..autograd import forward_ad as _fwad
from ..autograd.forward_ad import LINEAR
from ..autograd.graph import VersionCounter
from ._util import autograd_checks_first, expand_array, shape_str, wrap_dim
from .registry import _SAVED_HIDDEN, deflistop, defop, show_saved

_FW = _fwad._STATE

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
    if 1 in size and v.strides == self.strides and v.ndim > 1:
        v = _size1_strides(v)
    return v


def _size1_strides(v: np.ndarray) -> np.ndarray:
    """A view to its own shape keeps numpy's strides, where torch's computeStride gives each
    size-1 dim the stride of the dims after it in its contiguous chunk (a (2, 1, 3) view with
    strides (6, 2, 2) is (6, 6, 2) in torch)."""
    shape, strides = v.shape, list(v.strides)
    chunk, numel, new = strides[-1], 1, list(strides)
    d = len(shape) - 1
    for i in range(len(shape) - 1, -1, -1):
        numel *= shape[i]
        if i == 0 or (shape[i - 1] != 1 and strides[i - 1] != numel * chunk):
            view_numel = 1
            while d >= 0 and (view_numel < numel or shape[d] == 1):
                new[d] = view_numel * chunk
                view_numel *= shape[d]
                d -= 1
            if i > 0:
                chunk, numel = strides[i - 1], 1
    if new == strides:
        return v
    return np.lib.stride_tricks.as_strided(v, shape, new, writeable=v.flags.writeable)


_view = defop(
    "view",
    "ViewBackward0",
    _view_fwd,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes),
    raw=True,
    complex=True,
)
_unsafe_view = defop(
    "_unsafe_view",
    "UnsafeViewBackward0",
    lambda self, size, self_sym_sizes: self.reshape(size),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes),
    complex=True,
)
_reshape_alias = defop(
    "_reshape_alias",
    "ReshapeAliasBackward0",
    _view_fwd,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes),
    complex=True,
)
_alias = defop(
    "alias",
    "AliasBackward0",
    lambda self: self.view(),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad: grad,
    complex=True,
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
                raise RuntimeError(
                    f"invalid shape dimension {s} at index {size.index(s)} of shape "
                    f"{shape_str(size)}"
                )
            known *= s
    if neg:
        if known == 0 and numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {shape_str(size)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous"
            )
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{shape_str(size)}' is invalid for input of size {numel}")
        size = (*size[: neg[0]], numel // known, *size[neg[0] + 1 :])
    elif known != numel:
        raise RuntimeError(f"shape '{shape_str(size)}' is invalid for input of size {numel}")
    return size


def parser_got(args: tuple[Any, ...], kwargs: dict[str, Any], method: bool) -> str:
    """The `got (...)` of torch's invalid-combination error: the arguments' types, then the
    keywords in reverse call order (a method called with keywords only ends in ", ")."""
    parts = ["Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args]
    kws = [
        f"{k}={'Tensor' if isinstance(v, Tensor) else type(v).__name__}"
        for k, v in reversed(kwargs.items())
    ]
    if method and not args:
        return "".join(f"{k}, " for k in kws)
    return ", ".join(parts + kws)


def int_arg(fn: str, param: str, pos: int, v: Any) -> int:
    """An int parameter's value, or torch's argument-parser TypeError for anything else (a
    float, a floating Tensor: `x.chunk(n / 2)`). Called off the plain-int path only."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v)
    integral = isinstance(v, Tensor) and v._data.dtype.kind in "iu"  # not bool, float, complex
    if integral and v._data.size == 1:
        return int(v._data.reshape(()))
    raise TypeError(
        f"{fn}(): argument '{param}' (position {pos}) must be int, not {type(v).__name__}"
    )


def int_checked(name: str, fn: Any, param: str, none_ok: bool = False) -> Any:
    """fn's Tensor-method form, whose first argument after self is the int `param` (or None,
    where `none_ok`): torch's parser error for anything else counts it as position 1 (the
    function's position 2)."""

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if args and type(args[0]) is not int and not (none_ok and args[0] is None):
            args = (int_arg(name, param, 1, args[0]), *args[1:])
        return fn(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    method.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    return method


def _int_like(v: Any) -> bool:
    return isinstance(v, (int, np.integer, Tensor)) and not isinstance(v, bool)


_VIEW_OVERLOADS = ("torch.dtype dtype", "tuple of ints size")


def _check_int_sizes(fn: str, param: str, args: tuple[Any, ...], pos: int, overloads: Any) -> None:
    """torch's argument-parser errors for a tuple-of-ints parameter also given as varargs
    (`x.view(n / 2, -1)` is a TypeError, not a truncated size). `overloads`: the signatures of
    a function with several (view), whose errors list them."""

    def combination(got: str, bad: str | None) -> str:
        lines = [f"{fn}() received an invalid combination of arguments - got ({got}), but "
                 "expected one of:"]  # fmt: skip
        for sig in overloads:
            lines.append(f" * ({sig})")
            if bad is not None:
                lines.append(
                    "      didn't match because some of the arguments have invalid types: "
                    f"(!{bad}!)"
                )
        return "\n".join(lines) + "\n"

    from .._creation import check_int_list

    if not args and overloads:  # x.view(): neither overload's argument
        raise TypeError(combination("", None))
    if not overloads or not args or (len(args) > 1 and _int_like(args[0])):
        check_int_list(fn, param, args, pos)  # incl. varargs of ints: torch's unpack errors
        return
    if len(args) > 1:
        raise TypeError(combination(", ".join(type(v).__name__ for v in args), None))
    a = args[0]
    if _int_like(a):
        return
    if isinstance(a, (tuple, list)):
        if not a or _int_like(a[0]):  # read as a size: torch's unpack errors
            check_int_list(fn, param, args, pos)
            return
        kinds = ", ".join(type(v).__name__ for v in a)
        kinds = f"[{kinds}]" if isinstance(a, list) else f"({kinds})"  # torch's brackets
        raise TypeError(combination(type(a).__name__, f"{type(a).__name__} of {kinds}"))
    raise TypeError(combination(type(a).__name__, type(a).__name__))


_NO_KW: Any = object()  # a keyword size/shape/dims not given


def _method_keywords(
    key: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, ...]:
    """The sizes of a method call giving them by keyword (`x.reshape(shape=(3, 2))`: torch's
    parser takes the list parameter by name), or torch's parser error for the call."""
    from .._signatures import parser_error

    err = parser_error(key, args, kwargs, True)
    if err is not None:
        raise err
    if name not in kwargs:  # an unknown keyword the parser let through: Python's error
        raise TypeError(f"{key}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return (kwargs[name],)


def _view_keywords(
    args: tuple[Any, ...], size: Any, dtype: Any, other: dict[str, Any]
) -> tuple[Any, ...]:
    """view's arguments given by keyword (size=, dtype=): the one overload they fit, or
    torch's overload error."""
    given = {k: v for k, v in (("dtype", dtype), ("size", size)) if v is not _NO_KW}
    if other:
        from .._signatures import _got

        got = "".join(f"{k}={_got(v)}, " for k, v in {**given, **other}.items())
        if args:
            got = ", ".join(_got(a) for a in args) + ", " + got[:-2]
        why = f"      didn't match because some of the keywords were incorrect: {', '.join(other)}"
        raise TypeError(
            f"view() received an invalid combination of arguments - got ({got}), but expected "
            f"one of:\n * (torch.dtype dtype)\n{why}\n * (tuple of ints size)\n{why}\n"
        )
    if not args and len(given) == 1:
        if "dtype" in given and isinstance(dtype, D.dtype):
            return (dtype,)
        if "size" in given and isinstance(size, (tuple, list)):
            return (size,)
    from .._signatures import _got

    got = ", ".join(_got(a) for a in args)
    kws = "".join(f"{k}={_got(v)}, " for k, v in given.items())
    got = f"{got}, {kws[:-2]}" if args else kws
    lines = [" * (torch.dtype dtype)", " * (tuple of ints size)"]
    if not args and list(given) == ["size"]:
        lines.insert(1, "      didn't match because some of the keywords were incorrect: size")
        lines.append(
            "      didn't match because some of the arguments have invalid types: "
            f"(!size={_got(size)}!, )"
        )
    raise TypeError(
        f"view() received an invalid combination of arguments - got ({got}), but expected one "
        "of:\n" + "\n".join(lines) + "\n"
    )


def view(
    self: Tensor, *size_: Any, size: Any = _NO_KW, dtype: Any = _NO_KW, **other: Any
) -> Tensor:
    """Mirrors `torch.Tensor.view` (shape form; a dtype argument reinterprets the bytes; either
    may be given by keyword)."""
    if size is not _NO_KW or dtype is not _NO_KW or other:
        size_ = _view_keywords(size_, size, dtype, other)
    size = size_
    if len(size) == 1 and isinstance(size[0], D.dtype):
        from .views import check_lazy_view_dtype

        check_lazy_view_dtype(self)
        if size[0] is D.bfloat16 or self._data.dtype is D.LD:
            return _bf16_view(self, size[0])
        if size[0].itemsize != self._data.itemsize:
            _check_view_dtype(self, size[0])
        # no autograd view (no _base, no grad), but the memory's version counter is shared
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        return _make(self._data.view(size[0]._np), vc=vc)
    if not size or not all(type(v) is int for v in size):  # the all-int call skips the checks
        _check_int_sizes("view", "size", size, 1, _VIEW_OVERLOADS)  # (x.view(): refused)
    shape = _infer_size(size, self._data.size)
    return _view(self, shape, tuple(self._data.shape))


def _bf16_view(self: Tensor, d: D.dtype) -> Tensor:
    """view(dtype) to or from bfloat16: its bytes reinterpreted, as torch's, but in a copy (a
    bfloat16 array is longdouble, Note [bfloat16 storage]: no memory is shared)."""
    if d.itemsize != self.dtype.itemsize:
        _check_view_dtype(self, d)
    a = self._data
    if a.dtype is D.LD:  # its 2 bytes: the high half of its float32 bits
        a = (a.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    a = np.ascontiguousarray(a)
    if d is not D.bfloat16:
        return _make(a.view(d._np).copy())
    bits = a.view(np.uint16).astype(np.uint32) << np.uint32(16)
    return _make(bits.view(np.float32).astype(D.LD))


def _check_view_dtype(self: Tensor, b: D.dtype) -> None:
    """torch's checks for viewing self as a dtype of another element size, in its order."""
    a = self.dtype
    what = f"to view {a._short} as {b._short} (different element sizes)"
    if self.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    strides = self.stride()
    if strides[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
    if a.itemsize < b.itemsize:
        ratio = b.itemsize // a.itemsize
        if self._data.shape[-1] % ratio:
            raise RuntimeError(
                f"self.size(-1) must be divisible by {ratio} {what}, but got {self._data.shape[-1]}"
            )
        offset = self.storage_offset()
        if offset % ratio:
            raise RuntimeError(
                f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset}"
            )
        for i, st in enumerate(strides[:-1]):
            if st % ratio:
                raise RuntimeError(
                    f"self.stride({i}) must be divisible by {ratio} {what}, but got {st}"
                )


def view_as(self: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.view_as`."""
    try:
        return view(self, tuple(other._data.shape))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("view_as", (other,), {})
        raise


def _reshape_method(self: Tensor, *shape: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.Tensor.reshape` (the shape may be given by keyword)."""
    if kwargs:
        shape = _method_keywords("reshape", "shape", shape, kwargs)
    elif not shape:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    if not all(type(v) is int for v in shape):
        _check_int_sizes("reshape", "shape", shape, 1, None)
    return reshape(self, *shape)


_NO_SHAPE: Any = object()


def _reshape_function(input: Tensor, shape: Any = _NO_SHAPE) -> Tensor:
    """Mirrors `torch.reshape(input, shape)`."""
    if shape is _NO_SHAPE:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    _check_int_sizes("reshape", "shape", (shape,), 2, None)
    return reshape(input, shape)


def reshape(input: Tensor, *shape: Any) -> Tensor:
    """A view when the layout allows, else a copy (torch's reshape, without its argument
    checks: `_reshape_method` and `_reshape_function` are the public forms)."""
    size = _infer_size(shape, input._data.size)
    try:
        v = input._data.view()
    except NotImplementedError:
        if input.is_sparse:
            raise RuntimeError("reshape is not implemented for sparse tensors") from None
        raise
    try:
        v.shape = size
    except AttributeError:
        return _unsafe_view(clone(input), size, tuple(input._data.shape))
    if not input._data.flags.c_contiguous:  # viewable but strided: torch's _reshape_alias
        return _reshape_alias(input, size, tuple(input._data.shape))
    return _view(input, size, tuple(input._data.shape))


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Mirrors `torch.flatten`."""
    try:
        if type(start_dim) is not int or type(end_dim) is not int:  # a bool: refused too
            _parser_check("flatten", (start_dim, end_dim))
        nd = input.ndim
        if nd == 0:
            wrap_dim(start_dim, 0), wrap_dim(end_dim, 0)
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
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("flatten", (start_dim, end_dim), {})
        raise


def _expand_fwd(self: np.ndarray, size: tuple[int, ...], self_sym_sizes: Any) -> np.ndarray:
    return expand_array(self, size)


_expand = defop(
    "expand",
    "ExpandBackward0",
    _expand_fwd,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, self_sym_sizes: grad.sum_to_size(self_sym_sizes),
    complex=True,
)


def expand_rank_error(dt: Any, shape: Any, sizes: Any) -> RuntimeError:
    """torch's expand error for fewer sizes than dims, naming the tensor's type as c10 prints
    it (a legacy type name, or CPU<Scalar>Type for the types without one: bool, complex,
    bfloat16, uint16/32/64)."""
    legacy = dt._short in ("Float", "Double", "Half", "Long", "Int", "Short", "Char", "Byte")
    name = dt._legacy if legacy else f"CPU{dt._short}Type"
    return RuntimeError(
        f"expand({name}{{{shape_str(shape)}}}, size={shape_str(sizes)}): the number of sizes "
        f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in the "
        f"tensor ({len(shape)})"
    )


def expand(self: Tensor, *sizes: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.Tensor.expand` (the sizes may be given by keyword)."""
    if kwargs:
        if "implicit" in kwargs and type(kwargs["implicit"]) is bool:
            kwargs = {k: v for k, v in kwargs.items() if k != "implicit"}  # (no effect)
        if kwargs:
            sizes = _method_keywords("expand", "size", sizes, kwargs)
    elif not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    try:
        given = sizes
        if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
            sizes = tuple(sizes[0])
        shape = self._data.shape
        if len(sizes) < len(shape):
            raise expand_rank_error(self.dtype, shape, sizes)
        lead = len(sizes) - len(shape)
        out = [0] * len(sizes)
        for i in reversed(range(len(sizes))):  # torch checks from the last dimension
            s = sizes[i]
            if type(s) is not int:  # torch's parser refuses a float size (`x.expand(n / 2, 3)`)
                from .._creation import check_int_list

                check_int_list("expand", "size", given, 1)
                s = int(s)
            if i < lead:
                if s < 0:
                    raise RuntimeError(
                        f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                        "non-existing dimension " + str(i)
                    )
                out[i] = s
                continue
            cur = shape[i - lead]
            if s == -1:
                out[i] = cur
            elif cur == s or (cur == 1 and s >= 0):
                out[i] = s
            elif cur == 1:
                raise RuntimeError("numel: integer multiplication overflow")
            else:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) must match "
                    f"the existing size ({cur}) at "
                    f"non-singleton dimension {i}.  Target sizes: "
                    f"{shape_str(sizes)}.  Tensor sizes: "
                    f"{shape_str(shape)}"
                )
        return _expand(self, tuple(out), tuple(shape))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("expand", given, {})
        raise


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.expand_as`."""
    try:
        return expand(self, tuple(other._data.shape))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("expand_as", (other,), {})
        raise


_unsqueeze = defop(
    "unsqueeze",
    "UnsqueezeBackward0",
    lambda self, dim: np.expand_dims(self, dim),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim: grad.squeeze(dim),
    complex=True,
)


_NO_DIM: Any = object()  # torch's parser's words for a dim left out (Python's differ)


def _need_dim(name: str, dim: Any) -> None:
    if dim is _NO_DIM:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')


def unsqueeze(input: Tensor, dim: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.unsqueeze`."""
    if type(dim) is not int:
        if dim is _NO_DIM:
            _need_dim("unsqueeze", dim)
        dim = int_arg("unsqueeze", "dim", 2, dim)
    wrap_dim(dim, input.ndim + 1)  # checked; torch's node saves the dim as given
    return _unsqueeze(input, dim)


def _unsqueeze_to(grad: Tensor, dims: Any, sizes: tuple[int, ...]) -> Tensor:
    """torch's unsqueeze_to (squeeze's backward): grad unsqueezed at each of `dims` (None:
    every dim) where the input had size 1 (UnsqueezeBackward0 nodes in a double-backward
    graph, where a reshape would record a view)."""
    n = len(sizes)
    if n == 0:  # a 0-d input: nothing was squeezed
        return grad
    if dims is None:
        wanted = range(n)
    else:
        wanted = sorted({d + n if d < 0 else d for d in ((dims,) if type(dims) is int else dims)})
    for d in wanted:
        if sizes[d] == 1:
            grad = grad.unsqueeze(d)
    return grad


_squeeze_all = defop(
    "squeeze",
    "SqueezeBackward0",
    lambda self, self_sym_sizes: self.reshape([s for s in self.shape if s != 1]),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, self_sym_sizes: _unsqueeze_to(grad, None, self_sym_sizes),
    complex=True,
)
_squeeze_dim = defop(
    "squeeze.dim",
    "SqueezeBackward1",
    lambda self, dim, self_sym_sizes: (
        np.squeeze(self, dim) if self.ndim and self.shape[dim] == 1 else self.view()
    ),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim, self_sym_sizes: _unsqueeze_to(grad, dim, self_sym_sizes),
    complex=True,
)
_squeeze_dims = defop(
    "squeeze.dims",
    "SqueezeBackward2",
    lambda self, dim, self_sym_sizes: (
        np.squeeze(self, tuple(d for d in dim if self.shape[d] == 1)) if self.ndim else self.view()
    ),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim, self_sym_sizes: _unsqueeze_to(grad, dim, self_sym_sizes),
    complex=True,
)


def squeeze(input: Tensor, dim: Any = None) -> Tensor:
    """Mirrors `torch.squeeze`."""
    shape = tuple(input._data.shape)
    if dim is None:
        return _squeeze_all(input, shape)
    if isinstance(dim, (tuple, list)):
        dims = tuple(wrap_dim(d, input.ndim) for d in dim)
        if len(set(dims)) != len(dims):
            d = next(d for i, d in enumerate(dims) if d in dims[:i])
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        # torch's node saves the dims as given (a negative one reads as 2**64 + it)
        given = tuple(dim) if all(type(d) is int for d in dim) else dims
        return _squeeze_dims(input, given, shape)
    if input.ndim == 0:
        wrap_dim(dim, 0)
    d = wrap_dim(dim, input.ndim)
    return _squeeze_dim(input, dim if type(dim) is int else d, shape)  # the dim as given


def _squeeze_checked(method: bool) -> Any:
    """squeeze as torch's parser takes it: a dim that is no int nor sequence (None, a float)
    matches none of its three overloads."""

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if (
            len(args) == 1
            and not kwargs
            and (args[0].__class__ is bool or not isinstance(args[0], (int, tuple, list)))
        ) or (
            len(args) == 1
            and args[0].__class__ is tuple
            and args[0]
            and args[0][0].__class__ is bool
        ):  # (a bool is no dim either, nor a sequence that starts with one)
            a = args[0]
            if not (isinstance(a, (np.integer, Tensor)) and not isinstance(a, bool)):
                from .._signatures import _arg_desc

                n = type(a).__name__
                m = _arg_desc(a) if isinstance(a, tuple) else n  # (a tuple: its elements')
                head, lead = ("", "") if method else ("Tensor input", "Tensor, ")
                sep = ", " if head else ""
                bad = (
                    "      didn't match because some of the arguments have invalid types: "
                    f"({lead}!{m}!)\n"
                )
                first = f" * ()\n{bad}" if method else f" * ({head})\n"
                raise TypeError(
                    f"squeeze() received an invalid combination of arguments - got ({lead}{n}), "
                    f"but expected one of:\n{first} * ({head}{sep}int dim)\n{bad} * ({head}{sep}"
                    f"tuple of ints dim)\n{bad}"
                )
        seq = len(args) == 1 and isinstance(args[0], (tuple, list))
        if seq and not all(type(d) is int for d in args[0]):
            from .._creation import check_int_list

            check_int_list("squeeze", "dim", args, 1 + (not method))
        return squeeze(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = "squeeze"
    call.__doc__ = squeeze.__doc__
    call.__wrapped__ = squeeze  # type: ignore[attr-defined] # its parameters
    return call


_t = defop(
    "t",
    "TBackward0",
    lambda self: self.T,
    dtype="keep",
    view=True,
    jvp=LINEAR,
    self=lambda grad: grad.t(),
    raw={"self": lambda grad: grad.T},
    complex=True,
)


def t(input: Tensor) -> Tensor:
    """Mirrors `torch.t`."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return _t(input)


_transpose = defop(
    "transpose.int",
    "TransposeBackward0",
    lambda self, dim0, dim1: np.swapaxes(self, dim0, dim1) if self.ndim else self.view(),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
    complex=True,
)


def _missing(name: str, params: tuple[str, ...]) -> TypeError:
    """torch's parser's missing_args: every required parameter from the first one missing on,
    given or not, with its "argument(s)" as torch prints it (the plural for one)."""
    names = ", ".join(f'"{p}"' for p in params)
    n = len(params)
    return TypeError(f"{name}() missing {n} required positional argument{'s' * (n == 1)}: {names}")


def transpose(input: Tensor, dim0: int = _NO_DIM, dim1: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.transpose`."""
    if dim0 is _NO_DIM or dim1 is _NO_DIM:
        raise _missing("transpose", ("dim0", "dim1")[dim0 is not _NO_DIM :])
    nd = input.ndim
    if type(dim0) is not int or type(dim1) is not int:  # a bool, a float, a str: refused
        _parser_check("transpose", (dim0, dim1))
    d0, d1 = wrap_dim(dim0, nd), wrap_dim(dim1, nd)
    if type(dim0) is int and type(dim1) is int:
        return _transpose(input, dim0, dim1)  # saved as given, as torch's node saves them
    return _transpose(input, d0, d1)  # 0-d: dims 0 and -1 wrap to 0, a view of itself


def _parser_check(key: str, args: tuple[Any, ...]) -> None:
    """Off an op's plain-int path: torch's argument-parser error for the method form of `key`
    given these arguments, when its parser refuses them (a bool or a float for an int); the
    function form's wrapper words it for the function."""
    from .._signatures import reraise

    reraise(key, args, {})


# --- in-place view ops: self takes the view's shape and strides --------------------------
# torch numbers their nodes after the out-of-place ones (squeeze_() is SqueezeBackward3)
_squeeze_all_ = defop(
    "squeeze_",
    "SqueezeBackward3",
    _squeeze_all.op.forward,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, self_sym_sizes: _unsqueeze_to(grad, None, self_sym_sizes),
    complex=True,
)
_squeeze_dim_ = defop(
    "squeeze_.dim",
    "SqueezeBackward4",
    _squeeze_dim.op.forward,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim, self_sym_sizes: _unsqueeze_to(grad, dim, self_sym_sizes),
    complex=True,
)
_squeeze_dims_ = defop(
    "squeeze_.dims",
    "SqueezeBackward5",
    _squeeze_dims.op.forward,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim, self_sym_sizes: _unsqueeze_to(grad, dim, self_sym_sizes),
    complex=True,
)
_unsqueeze_ = defop(
    "unsqueeze_",
    "UnsqueezeBackward1",
    _unsqueeze.op.forward,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim: grad.squeeze(dim),
    complex=True,
)
_t_ = defop(
    "t_",
    "TBackward1",
    _t.op.forward,
    dtype="keep",
    view=True,
    jvp=LINEAR,
    self=lambda grad: grad.t(),
    complex=True,
)
_transpose_ = defop(
    "transpose_",
    "TransposeBackward1",
    _transpose.op.forward,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
    complex=True,
)


def _inplace_view(op: Any, self: Tensor, *args: Any) -> Tensor:
    """Give self the view's shape and strides and, when autograd records, the view's node."""
    self._check_inplace()
    r = op(self, *args)
    self._data = r._data
    self._bump()
    if r._grad_fn is not None:
        self._grad_fn = r._grad_fn
        self._rg = True
        self._nr = 0
    if self._base is not None:  # its new node is current: not a stale view (views.py)
        self._vv = self._vc.v
    if _FW.active:
        # forward AD: self's tangent takes the view's shape too (the view of its old tangent)
        tg = _fwad._get_tangent(r)
        if tg is not None:
            old = _fwad._get_tangent(self)
            if old is not None:
                # torch applies the in-place view op to the tangent itself (self_t.t_()): a
                # tangent unpacked before is that tensor, and follows
                old._data = tg._data
            else:
                _fwad._set_tangent(self, tg)
    return self


@autograd_checks_first
def squeeze_(self: Tensor, dim: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.squeeze_`."""
    shape = tuple(self._data.shape)
    if dim is None:
        return _inplace_view(_squeeze_all_, self, shape)
    # the dims as given, as torch's node saves them (squeeze's own)
    if isinstance(dim, (tuple, list)):
        dims = tuple(wrap_dim(d, self.ndim) for d in dim)
        given = tuple(dim) if all(type(d) is int for d in dim) else dims
        return _inplace_view(_squeeze_dims_, self, given, shape)
    d = wrap_dim(dim, self.ndim)
    return _inplace_view(_squeeze_dim_, self, dim if type(dim) is int else d, shape)


@autograd_checks_first
def unsqueeze_(self: Tensor, dim: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.Tensor.unsqueeze_`."""
    _need_dim("unsqueeze_", dim)
    d = wrap_dim(dim, self.ndim + 1)
    return _inplace_view(_unsqueeze_, self, dim if type(dim) is int else d)  # as given


@autograd_checks_first
def t_(self: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.t_`."""
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _inplace_view(_t_, self)


def swapaxes(input: Tensor, axis0: int = _NO_DIM, axis1: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.swapaxes` (transpose, under numpy's parameter names)."""
    if axis0 is _NO_DIM or axis1 is _NO_DIM:
        raise _missing("swapaxes", ("axis0", "axis1")[axis0 is not _NO_DIM :])
    if type(axis0) is not int or type(axis1) is not int:
        _parser_check("swapaxes", (axis0, axis1))
    return transpose(input, axis0, axis1)


def swapdims(input: Tensor, dim0: int = _NO_DIM, dim1: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.swapdims`."""
    if dim0 is _NO_DIM or dim1 is _NO_DIM:
        raise _missing("swapdims", ("dim0", "dim1")[dim0 is not _NO_DIM :])
    if type(dim0) is not int or type(dim1) is not int:
        _parser_check("swapdims", (dim0, dim1))
    return transpose(input, dim0, dim1)


@autograd_checks_first
def transpose_(self: Tensor, dim0: int = _NO_DIM, dim1: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.Tensor.transpose_`."""
    if dim0 is _NO_DIM or dim1 is _NO_DIM:
        raise _missing("transpose_", ("dim0", "dim1")[dim0 is not _NO_DIM :])
    if type(dim0) is not int or type(dim1) is not int:
        _parser_check("transpose_", (dim0, dim1))
    nd = self.ndim
    d0, d1 = wrap_dim(dim0, nd), wrap_dim(dim1, nd)
    if type(dim0) is int and type(dim1) is int:  # saved as given, as transpose's
        return _inplace_view(_transpose_, self, dim0, dim1)
    return _inplace_view(_transpose_, self, d0, d1)


_permute = defop(
    "permute",
    "PermuteBackward0",
    lambda self, dims: np.transpose(self, dims),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dims: grad.permute(tuple(np.argsort([d % grad.ndim for d in dims]).tolist())),
    complex=True,
)


def permute(input: Tensor, *dims: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.permute` (the dims may be given by keyword)."""
    if kwargs:
        dims = _method_keywords("permute", "dims", dims, kwargs)
    elif not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    try:
        given = dims  # as called, for torch's argument errors
        if not all(type(d) is int for d in dims):
            from .._creation import check_int_list

            check_int_list("permute", "dims", dims, 1)
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        nd = input.ndim
        if len(dims) != nd:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                "length of the desired ordering of dimensions i.e. "
                f"input.dim() = {nd} is not equal "
                f"to len(dims) = {len(dims)}"
            )
        wrapped = tuple(wrap_dim(d, nd) for d in dims)
        if len(set(wrapped)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        # torch's node saves the dims as given (a negative one reads as 2**64 + it)
        return _permute(input, dims if all(type(d) is int for d in dims) else wrapped)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("permute", given, {})
        raise


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
        if self.ndim == 0:  # torch: the identity, with a deprecation warning
            warn_once(
                "mT0d",
                "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these "
                "cases.",
            )
            return self
        raise RuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
        )
    return _transpose(self, -2, -1)


def _conj_transpose(self: Tensor, what: str) -> Tensor:
    if self.ndim == 0 and what in ("mH", "adjoint()"):  # torch: conj(), with a warning
        name = "Tensor.mH" if what == "mH" else what
        warn_once(what + "0d", f"{name} is deprecated on 0-D tensors. Consider using x.conj().")
        return self.conj()
    if self.ndim < 2:
        raise RuntimeError(
            f"tensor.{what} is only supported on matrices or batches of matrices. Got "
            f"{self.ndim}-D tensor."
        )
    out = _transpose(self, -2, -1)
    return out.conj() if self.is_complex() else out


def _mH(self: Tensor) -> Tensor:
    return _conj_transpose(self, "mH")


def adjoint(self: Tensor) -> Tensor:
    """Mirrors `torch.adjoint`: the conjugate transpose of the last two dims."""
    return _conj_transpose(self, "adjoint()")


def _H(self: Tensor) -> Tensor:
    if self.ndim == 0:
        warn_once(
            "Tensor.H 0-d",
            "Tensor.H is deprecated on 0-D tensors. Consider using x.conj().",
        )
        return self.conj()
    if self.ndim != 2:
        hint = " For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor."
            + hint
        )
    return _conj_transpose(self, "H")


def fliplr(input: Tensor) -> Tensor:
    """Mirrors `torch.fliplr` (FlipBackward0)."""
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, 1)


def flipud(input: Tensor) -> Tensor:
    """Mirrors `torch.flipud` (FlipBackward0)."""
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, 0)


# --- select, slice, advanced indexing -------------------------------------------------------


def _select_bw_fwd(grad: np.ndarray, input_sizes: Any, dim: int, index: int) -> np.ndarray:
    if type(grad) is not np.ndarray and getattr(grad, "_sg_sparse", False):
        from ..sparse._ops import select_backward

        return select_backward(grad, input_sizes, dim, index)  # a sparse gradient stays so
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
    jvp=LINEAR,
    grad=lambda grad, dim, index: grad.select(dim, index),
    complex=True,
)


def _select_fwd(self: np.ndarray, dim: int, index: int, self_sym_sizes: Any) -> np.ndarray:
    idx = [slice(None)] * self.ndim
    idx[dim] = index
    return self[(*idx, Ellipsis)]  # the Ellipsis keeps a 0-d result a view


_select = defop(
    "select.int",
    "SelectBackward0",
    _select_fwd,
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim, index, self_sym_sizes: _select_backward(
        grad, self_sym_sizes, dim, index
    ),
    complex=True,
)


def select(input: Tensor, dim: int, index: int) -> Tensor:
    """Mirrors `torch.select`."""
    if type(dim) is not int or type(index) is not int:  # a float index: torch's parser error
        _parser_check("select", (dim, index))
    nd = input.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, nd)
    n = input._data.shape[d]
    index = int(index)
    if not -n <= index < n:
        if not -(2**63) <= index < 2**63:
            _parser_check("select", (dim, index))  # past int64: torch's parser's ValueError
        # torch's select() wording (indexing, x[:, i], checks and words its own error)
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"[{', '.join(str(s) for s in input._data.shape)}] at dimension {d}"
        )
    # torch's node saves the dim and index as given (_saved_dim, _saved_index)
    return _select(input, dim if type(dim) is int else d, index, tuple(input._data.shape))


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
    jvp=LINEAR,
    grad=lambda grad, dim, start, end, step: grad.__getitem__(
        (slice(None),) * (dim % grad.ndim) + (slice(start, end, step),)  # narrow's dim as given
    ),
    complex=True,
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
    jvp=LINEAR,
    view=True,
    self=lambda grad, dim, start, end, step, self_sym_sizes: _slice_backward(
        grad, self_sym_sizes, dim, start, end, step
    ),
    complex=True,
)


def _slice_dim(input: Tensor, dim: int, s: slice) -> Tensor:
    n = input._data.shape[dim]
    if s.step is not None and s.step <= 0:
        if s.step == 0:  # Python's slice rule, raised before torch's own check
            raise ValueError("slice step cannot be zero")
        raise ValueError("step must be greater than zero")
    start, end, step = s.indices(n)
    end = max(end, start)
    return _slice(input, dim, start, end, step, tuple(input._data.shape))


def _narrow_args(method: bool, dim: Any, start: Any, length: Any) -> tuple[int, int, int]:
    """narrow's arguments as ints, or torch's errors: a start Tensor must be a 0-dim integer
    one; a float anywhere matches neither overload (start an int or a Tensor)."""

    def is_int(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    if is_int(dim) and is_int(length):
        if is_int(start):
            return int(dim), int(start), int(length)
        if isinstance(start, Tensor):
            if start.ndim or start.dtype.is_floating_point or start.dtype.is_complex:
                raise RuntimeError("start must be an 0-dim integral Tensor.")
            if start._data.dtype == np.bool_:
                raise RuntimeError("start must be an 0-dim integral Tensor.")
            return int(dim), int(start._data), int(length)
    args = (dim, start, length)
    names = ["Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args]

    def marked(start_ok: Any) -> str:
        from .._signatures import _arg_desc  # (a list: "list of [int]", as torch marks it)

        oks = (is_int(dim), start_ok(start), is_int(length))
        descs = [_arg_desc(a) for a in args]
        return ", ".join(n if ok else f"!{n}!" for n, ok in zip(descs, oks, strict=True))

    head, lead = ("", "") if method else ("Tensor input, ", "Tensor, ")
    lines = ""
    for sig, ok in (("Tensor", lambda v: isinstance(v, Tensor)), ("int", is_int)):
        lines += (
            f" * ({head}int dim, {sig} start, int length)\n      didn't match because some of "
            f"the arguments have invalid types: ({lead}{marked(ok)})\n"
        )
    raise TypeError(
        f"narrow() received an invalid combination of arguments - got ({lead}"
        f"{', '.join(names)}), but expected one of:\n{lines}"
    )


def _narrow_method(self: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """Tensor.narrow: torch's parser errors in the method's wording."""
    if type(start) is not int or type(length) is not int or type(dim) is not int:
        dim, start, length = _narrow_args(True, dim, start, length)
    return narrow(self, dim, start, length)


def narrow(input: Tensor, dim: int, start: Any, length: int) -> Tensor:
    """Mirrors `torch.narrow`: its checks, and a negative start counted from the end."""
    if type(start) is not int or type(length) is not int or type(dim) is not int:
        dim, start, length = _narrow_args(False, dim, start, length)
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, input.ndim)
    n = input._data.shape[d]
    if not -n <= start <= n:
        raise IndexError(
            f"start out of range (expected to be in range of [{-n}, {n}], but got {start})"
        )
    if start < 0:
        start += n
    if start > n - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    dim = dim if type(dim) is int else d  # torch's node saves the dim as given, the start wrapped
    return _slice(input, dim, start, start + length, 1, tuple(input._data.shape))


# --- copies and casts ---------------------------------------------------------------------

clone_op = defop(
    "clone",
    "CloneBackward0",
    lambda self: self.copy(),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad: grad,
    complex=True,
)


def clone(input: Tensor, *, memory_format: Any = None) -> Tensor:
    """Mirrors `torch.clone` (preserve_format by default: a dense input's strides)."""
    if memory_format is not None and not isinstance(memory_format, _formats().memory_format):
        raise TypeError(
            "clone(): argument 'memory_format' must be torch.memory_format, not "
            f"{type(memory_format).__name__}"
        )
    out = _formats().like_layout(clone_op(input), input, memory_format)
    if input._inf and not out._inf:
        # torch clones an inference tensor outside the mode by copy_ into a new tensor, so
        # the (normal) clone starts at version 1
        out._bump()
    return out


def contiguous(self: Tensor, *, memory_format: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.contiguous`: self when already contiguous (in memory_format)."""
    if memory_format is None or memory_format is _formats().contiguous_format:
        if self._data.flags.c_contiguous:
            return self
        if type(self._data) is not np.ndarray and self.is_sparse:
            raise RuntimeError("unsupported memory format option Contiguous")
        return clone_op(self)
    if not isinstance(memory_format, _formats().memory_format):  # torch's parser refuses it
        from .._signatures import _type_name

        raise TypeError(
            "contiguous(): argument 'memory_format' must be torch.memory_format, not "
            f"{_type_name(memory_format)}"
        )
    if _formats().has_format(self._data, memory_format):
        return self
    return _formats().formatted(clone_op(self), memory_format)


def _formats() -> Any:
    from .. import _formats as F

    return F


def _cast(self: np.ndarray, dt: np.dtype) -> np.ndarray:
    out = self.astype(dt)
    if out.ndim > 1 and not out.flags.c_contiguous and type(out) is np.ndarray:
        return _formats().unbroadcast_order(out, self)  # (astype's 'K' order; not a sparse
        # array, whose own astype keeps its indices)
    return out


_to_copy = defop(
    "_to_copy",
    "ToCopyBackward0",
    lambda self, dtype: D.round_bf16(self) if dtype is D.bfloat16 else _cast(self, dtype._np),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad: grad,
    complex=True,
)


def _parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[D.dtype | None, bool, Any]:
    """(dtype, copy, device) from Tensor.to's arguments, parsed as torch's argument parser does (its
    three signatures and its error; the device checked)."""
    from .._to_args import parse_to

    dev, dtype, _, copy, _ = parse_to(args, kwargs)
    return dtype, bool(copy), dev


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.Tensor.to` (dtype, device, or another tensor); self when nothing changes."""
    fmt = kwargs.get("memory_format")
    dtype, copy, dev = _parse_to(args, dict(kwargs))
    if dev is not None and (type(self._data) is not np.ndarray or dev != "cpu"):
        from .._device import move

        moved = move(self, dev, dtype, copy)  # to or from the meta device
        if moved is not None:
            return moved
    F = _formats()
    if fmt is F.channels_last or fmt is F.channels_last_3d or fmt is F.contiguous_format:
        # torch's to_will_alias: self when the layout torch suggests for it is the one asked
        if (dtype is None or dtype is self.dtype) and not copy and F.suggested(self._data) is fmt:
            return self
        out = _to_copy(self, dtype or self.dtype)  # torch's to() copies with _to_copy
        if fmt is F.contiguous_format:
            out._data = np.ascontiguousarray(out._data)
            return out
        return _formats().formatted(out, fmt)
    if dtype is None or dtype is self.dtype:
        return _to_copy(self, self.dtype) if copy else self
    if self.dtype.is_complex and not dtype.is_complex:
        warn_complex_to_real()
    return _to_copy(self, dtype)


def warn_complex_to_real() -> None:
    """torch's copy_ (and so .to) from a complex to a real dtype: TORCH_WARN_ONCE, naming the
    first frame outside shadowgrad (the user's line, however deep the call came from)."""
    f = sys._getframe(1)
    level = 3  # warnings.warn's count from inside warn_once: this function's caller is 3
    while f.f_back is not None and f.f_code.co_filename.startswith(_PKG_DIR):
        f = f.f_back
        level += 1
    warn_once(
        "complex_to_real",
        "Casting complex values to real discards the imaginary part",
        stacklevel=level,
    )


_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _cast_method(d: D.dtype, name: str) -> Any:
    """`Tensor.float()` and its siblings: memory_format is their only (keyword) argument."""

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        memory_format = kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if args:
            n = len(args)
            raise TypeError(
                f"{name}() takes 0 positional arguments but {n} {'was' if n == 1 else 'were'} given"
            )
        if memory_format is None:
            return to(self, d)
        return to(self, d, memory_format=memory_format)

    method.__name__ = method.__qualname__ = name
    return method


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.type_as`."""
    if not isinstance(other, Tensor):
        from .._signatures import _type_name

        raise TypeError(
            f"type_as(): argument 'other' (position 1) must be Tensor, not {_type_name(other)}"
        )
    return to(self, other.dtype)


METHODS = {
    "view": view,
    "view_as": view_as,
    "reshape": _reshape_method,
    "reshape_as": lambda self, other: reshape(self, tuple(other._data.shape)),
    "flatten": flatten,
    "expand": expand,
    "expand_as": expand_as,
    "unsqueeze": int_checked("unsqueeze", unsqueeze, "dim"),
    "squeeze": _squeeze_checked(True),
    "t": t,
    "transpose": transpose,
    "swapaxes": swapaxes,
    "swapdims": swapdims,
    "permute": permute,
    "select": select,
    "narrow": _narrow_method,
    "clone": clone,
    "contiguous": contiguous,
    "to": to,
    "type_as": type_as,
    "float": _cast_method(D.float32, "float"),
    "double": _cast_method(D.float64, "double"),
    "half": _cast_method(D.float16, "half"),
    "bfloat16": _cast_method(D.bfloat16, "bfloat16"),
    "long": _cast_method(D.int64, "long"),
    "int": _cast_method(D.int32, "int"),
    "short": _cast_method(D.int16, "short"),
    "char": _cast_method(D.int8, "char"),
    "byte": _cast_method(D.uint8, "byte"),
    "bool": _cast_method(D.bool_, "bool"),
    "T": property(_T),
    "mT": property(_mT),
}
FUNCTIONS = {
    "reshape": _reshape_function,
    "flatten": flatten,
    "unsqueeze": unsqueeze,
    "squeeze": _squeeze_checked(False),
    "t": t,
    "transpose": transpose,
    "swapaxes": swapaxes,
    "swapdims": swapdims,
    "permute": permute,
    "select": select,
    "narrow": narrow,
    "clone": clone,
}


# --- joining ------------------------------------------------------------------------------


def _split_grad(grad: Tensor, dim: int, sizes: tuple[int | None, ...]) -> list[Tensor]:
    dim %= grad._data.ndim  # torch's cat_tensors_backward wraps the dim cat saved as given
    out = []
    start = 0
    for s in sizes:
        if s is None or (s == 0 and grad._data.ndim == 1):
            # a 1-D empty input (skipped by cat, torch's legacy rule, or all inputs empty):
            # torch's cat_tensors_backward gives it a fresh at::zeros({0}), whose zero_()
            # leaves it at version 1
            z = _make(np.zeros(0, grad._data.dtype))
            z._vc = VersionCounter()
            z._vc.v = 1
            out.append(z)
            continue
        out.append(narrow(grad, dim, start, s))
        start += s
    return out


def _cat_fwd(tensors: list[np.ndarray], dim: int, sizes: tuple[int | None, ...]) -> np.ndarray:
    kept = [t for t, s in zip(tensors, sizes, strict=True) if s is not None]
    return _cat_layout(np.concatenate(kept, dim), kept)


def _stack_fwd(tensors: list[np.ndarray], dim: int) -> np.ndarray:
    return _cat_layout(np.stack(tensors, axis=dim), tensors)


def _cat_layout(r: np.ndarray, inputs: list[np.ndarray]) -> np.ndarray:
    """torch's cat (and stack) result is contiguous unless every input is channels-last, which
    numpy's concatenate keeps as torch does; numpy would keep any other input order too (a
    transposed or permuted input's)."""
    if r.flags.c_contiguous:
        return r
    f = _formats()
    if inputs and all(f.suggested(t) is not f.contiguous_format for t in inputs):
        return r
    return r.copy()


_cat = deflistop(
    "cat",
    "CatBackward0",
    _cat_fwd,
    tensors=lambda grad, dim, sizes: _split_grad(grad, dim, sizes),
    complex=True,
    listed=("dim",),
)
_stack = deflistop(
    "stack",
    "StackBackward0",
    lambda tensors, dim: _stack_fwd(tensors, dim),
    tensors=lambda grad, dim: [select(grad, dim, i) for i in range(grad._data.shape[dim])],
    complex=True,
    listed=("dim",),
)


def check_out_overlap(out: Tensor) -> None:
    """torch's assert_no_internal_overlap on an `out=` tensor: an expanded out (a dimension of
    size > 1 with stride 0) can't be written."""
    d = out._data
    if any(st == 0 and sz > 1 for sz, st in zip(d.shape, d.strides, strict=True)):
        from .inplace import OVERLAP

        raise RuntimeError(OVERLAP)


def resize_out(result: Tensor, out: Tensor, name: str | None = None) -> Tensor:
    """Copy `result` into a user-given `out=` tensor of a castable dtype, resizing it as torch
    does: with torch's deprecation warning when `out` had elements. `name`: the out= kernel's
    op, which refuses dual operands under forward AD (see pointwise._no_forward_ad_out)."""
    if name is not None and _fwad._STATE.active:
        from .pointwise import _no_forward_ad_out

        _no_forward_ad_out(result, out, name)
    if out._data.shape != result._data.shape:
        if out._data.size:
            warnings.warn(
                "An output with one or more elements was resized since it had shape "
                f"{shape_str(out._data.shape)}, which does not match the required output shape "
                f"{shape_str(result._data.shape)}. This behavior is deprecated, and in a future "
                "PyTorch release outputs will not be resized unless they have zero elements. You "
                "can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).",
                UserWarning,
                stacklevel=4,
            )
        out._data = np.empty(result._data.shape, out._data.dtype)
    target = out._data
    if not target.flags.writeable and target.size:
        # numpy makes an expanded view read-only; torch writes through it
        from .inplace import _writable_alias

        alias = _writable_alias(target)
        target = target if alias is None else alias
    if target.size:
        np.copyto(target, result._data, casting="unsafe")
    if out._inf:
        # outside inference mode torch raises when it bumps the version, after the kernel
        # has written the values
        out._check_inplace()
    out._bump()
    return out


def _cat_out(ts: list[Any], dim: int, out: Tensor, name: str = "cat") -> Tensor:
    """cat (or stack, whose out= runs torch's cat out kernel) written into `out`."""
    from .. import _grad_mode

    if _grad_mode.STATE.grad and (out._rg or any(t._rg for t in ts)):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    check_out_overlap(out)
    if out._vc is not None:
        from .inplace import check_out_overlap_inputs

        check_out_overlap_inputs(out, ts, True)  # cat refuses even the input itself
    result = cat(ts, dim) if name == "cat" else stack(ts, dim)
    if result.dtype._cat > out.dtype._cat:  # torch's canCast
        raise TypeError(
            f"torch.cat(): input types can't be cast to the desired output type {out.dtype._short}"
        )
    return resize_out(result, out, name)


def tensor_list(tensors: Any, name: str, argno: int = 0, pname: str = "tensors") -> list[Tensor]:
    """torch's TensorList argument (parameter `pname`, at index `argno`): a list or a tuple of
    Tensors (no other iterable: a generator, a map or a set is a TypeError, as in torch's
    argument parser)."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{name}(): argument '{pname}' (position {argno + 1}) must be tuple of Tensors, not "
            f"{_parser_type_name(tensors)}"
        )
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument {argno}, but got "
                f"{_parser_type_name(t)}"
            )
    return list(tensors)


def _parser_type_name(x: Any) -> str:
    """The type name torch's argument parser prints (numpy.ndarray, Parameter, float)."""
    from .._to_args import parser_type_name

    return parser_type_name(x)


def cat(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.cat`."""
    if type(dim) is not int:  # a float, a str: torch's parser refuses it first
        _function_check("cat", (tensors, dim))
    return _cat_checked(tensor_list(tensors, "cat"), dim, out)


def _function_check(key: str, args: tuple[Any, ...]) -> None:
    """_parser_check for a function without a method form (cat, stack)."""
    from .._signatures import reraise

    reraise(key, args, {}, False)


def concat(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.concat` (an alias of cat)."""
    return _cat_checked(tensor_list(tensors, "concat"), dim, out)


def concatenate(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.concatenate` (an alias of cat)."""
    return _cat_checked(tensor_list(tensors, "concatenate"), dim, out)


def _cat_checked(ts: list[Tensor], dim: int, out: Tensor | None) -> Tensor:
    if out is not None:
        return _cat_out(ts, dim, out)
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    # legacy behaviour: 1-D empty tensors are skipped
    keep = [t for t in ts if not (t.ndim == 1 and t._data.shape[0] == 0)] or ts[:1]
    nd = keep[0].ndim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = wrap_dim(dim, nd)
    ref = keep[0]._data.shape
    for i, t in enumerate(keep):
        if t.ndim == 0:
            at = next(k for k, u in enumerate(ts) if u is t)
            raise RuntimeError(f"zero-dimensional tensor (at position {at}) cannot be concatenated")
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
    given = dim if type(dim) is int else d  # torch's node saves the dim as given (_saved_dim)
    if len(keep) == len(ts):
        return _cat(ts, given, tuple(t._data.shape[d] for t in ts))
    skipped = [t.ndim == 1 and t._data.shape[0] == 0 and t is not keep[0] for t in ts]
    return _cat(
        ts, given, tuple(None if k else t._data.shape[d] for t, k in zip(ts, skipped, strict=True))
    )


def stack(tensors: Any, dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.stack`."""
    if type(dim) is not int:  # a float, a str: torch's parser refuses it first
        _function_check("stack", (tensors, dim))
    ts = tensor_list(tensors, "stack")
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = ts[0]._data.shape
    for i, t in enumerate(ts):
        if t._data.shape != ref:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {shape_str(ref)} at entry 0 "
                f"and {shape_str(t._data.shape)} at entry {i}"
            )
    if out is not None:
        return _cat_out(ts, dim, out, "stack")
    d = wrap_dim(dim, len(ref) + 1)
    return _stack(ts, dim if type(dim) is int else d)  # the dim saved as given, as torch's


FUNCTIONS.update({"cat": cat, "concat": concat, "concatenate": concatenate, "stack": stack})


_unbind = defop(
    "unbind.int",
    "UnbindBackward0",
    lambda self, dim: tuple(m[i, ...] for m in (np.moveaxis(self, dim, 0),) for i in range(len(m))),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    n_outputs=0,
    multi_view="Unbind",
    self=lambda grads, dim: stack(grads, dim),
    complex=True,
)


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.unbind`."""
    if type(dim) is not int:
        _parser_check("unbind", (dim,))
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, input.ndim)
    return _unbind(input, dim if type(dim) is int else d)  # the dim saved as given, as torch's


METHODS["unbind"] = unbind
FUNCTIONS["unbind"] = unbind
METHODS.update({"squeeze_": squeeze_, "unsqueeze_": unsqueeze_, "t_": t_, "transpose_": transpose_})


# --- as_strided -----------------------------------------------------------------------------


def _storage(t: Tensor) -> np.ndarray:
    """The array that plays torch's storage for t: its root base's array."""
    return t._base._data if t._base is not None else t._data


def offset_of(arr: np.ndarray, root: np.ndarray) -> int:
    """arr's first element's offset, in items, from root's first element."""
    d = arr.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return d // arr.itemsize


def positions(arr: np.ndarray, root: np.ndarray) -> np.ndarray:
    """For each element of arr (a numpy view into root's memory), its offset in items from
    root's first element."""
    isz = arr.itemsize
    pos = np.asarray(offset_of(arr, root), dtype=np.int64)
    for n, s in zip(arr.shape, arr.strides, strict=True):
        pos = np.add.outer(pos, np.arange(n, dtype=np.int64) * (s // isz))
    return pos


def flat_map(pos: np.ndarray, root: np.ndarray, like: np.ndarray | None = None) -> np.ndarray:
    """Turn storage offsets (relative to root) into C-order flat indices of `like` (default:
    root), -1 where an offset holds no element of it."""
    target = root if like is None else like
    if target is root and root.flags.c_contiguous:
        return pos
    tpos = positions(target, root).reshape(-1)
    if tpos.size == 0:
        return np.full(pos.shape, -1, np.int64)
    lo = min(int(tpos.min()), int(pos.min()) if pos.size else 0)
    hi = max(int(tpos.max()), int(pos.max()) if pos.size else 0)
    inv = np.full(hi - lo + 1, -1, np.int64)
    inv[tpos - lo] = np.arange(tpos.size, dtype=np.int64)
    return inv[pos - lo]


def _as_strided_view(
    root: np.ndarray, size: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> np.ndarray:
    isz = root.itemsize
    strided = np.lib.stride_tricks.as_strided  # (subok: a meta tensor's array stays one)
    start = strided(root, shape=(offset + 1,), strides=(isz,), subok=True)[offset:]
    return strided(start, shape=size, strides=tuple(s * isz for s in stride), subok=True)


def _as_strided_backward(grad: Tensor, idx: np.ndarray, self_sym_sizes: Any) -> Tensor:
    from .indexing import _index, _index_put

    n = math.prod(self_sym_sizes)
    flat = reshape(grad, (-1,))
    where = idx.reshape(-1)
    valid = where >= 0
    if not valid.all():
        keep = np.nonzero(valid)[0]
        flat = _index(flat, (keep,), tuple(flat._data.shape))
        where = where[keep]
    z = _make(np.zeros(n, grad._data.dtype))
    r = reshape(_index_put(z, (where,), flat, True), tuple(self_sym_sizes))
    r._bump()  # torch writes into zeros in place: the gradient has version 1
    return r


def _as_strided_jvp(
    self: Tensor,
    self_t: Tensor,
    root: np.ndarray,
    offset: int,
    idx: np.ndarray,
    size: Any,
    stride: Any,
) -> Tensor:
    """The tangent's elements at the view's positions (zero where the view reaches storage
    outside the input), as torch's self_t.as_strided(...) on a tangent laid out like self.

    Where the view stays inside the input and the input's tangent is laid out like the input,
    the tangent is the same strided view of the input's tangent, as in torch: an in-place op on
    the view (fill_diagonal_) then writes the base's tangent too."""
    t = self_t._data
    d = self._data
    if (
        not self_t._rg
        and idx.size
        and t.shape == d.shape
        and t.strides == d.strides
        and t.dtype == d.dtype
        and min(d.strides, default=0) >= 0
        and bool((idx >= 0).all())
    ):
        # the view's start, in elements from the input's first one (lowest in memory), is
        # the same from the tangent's
        rel = offset - offset_of(d, root)
        if rel >= 0:
            return _make(_as_strided_view(t, tuple(size), tuple(stride), rel))
    return as_strided_pick(self_t, idx)


def as_strided_pick(self_t: Tensor, idx: np.ndarray) -> Tensor:
    """The elements of a tensor laid out like an as_strided view's input at the view's
    positions (zero where the view reaches storage outside the input), as a new tensor."""
    from .indexing import _index

    flat = reshape(self_t, (-1,))
    where = idx.reshape(-1)
    valid = where >= 0
    picked = _index(flat, (np.where(valid, where, 0),), tuple(flat._data.shape))
    if not valid.all():
        picked = picked * _make(valid.astype(flat._data.dtype))
    return reshape(picked, idx.shape)


_as_strided = defop(
    "as_strided",
    "AsStridedBackward0",
    lambda self, root, size, stride, offset, idx, self_sym_sizes: _as_strided_view(
        root, size, stride, offset
    ),
    dtype="keep",
    view=True,
    jvp=_as_strided_jvp,
    self=lambda grad, idx, self_sym_sizes: _as_strided_backward(grad, idx, self_sym_sizes),
    complex=True,
)


def as_strided(input: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    """Mirrors `torch.as_strided`: a view of input's storage with the given geometry."""
    return _as_strided_call(_as_strided, input, size, stride, storage_offset)


def _as_strided_call(
    op: Any, input: Tensor, size: Any, stride: Any, storage_offset: int | None
) -> Tensor:
    from .views import ConjVersionCounter, shadow_storage

    root = _storage(input)
    if type(input._vc) is ConjVersionCounter:  # a conj view: its storage's shadow
        root = shadow_storage(input, root)
    size = tuple(int(s) for s in size)
    stride = tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if storage_offset is None:
        storage_offset = offset_of(input._data, root)
    if any(s < 0 for s in stride):
        raise RuntimeError(
            "as_strided: Negative strides are not supported at the moment, got strides: "
            + shape_str(stride)
        )
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    need = (
        0
        if 0 in size
        else storage_offset + sum((n - 1) * s for n, s in zip(size, stride, strict=True)) + 1
    )
    if need > root.size:
        isz = root.itemsize
        raise RuntimeError(
            f"setStorage: sizes {shape_str(size)}, strides {shape_str(stride)}, storage offset "
            f"{storage_offset}, and itemsize {isz} requiring a storage size of {need * isz} are "
            f"out of bounds for storage of size {root.size * isz}"
        )
    pos = np.asarray(storage_offset, np.int64)
    for n, s in zip(size, stride, strict=True):
        pos = np.add.outer(pos, np.arange(n, dtype=np.int64) * s)
    idx = flat_map(pos, root, None if input._data is root else input._data)
    r = op(input, root, size, stride, storage_offset, idx, tuple(input._data.shape))
    show_saved(r, size=size, stride=stride, storage_offset=storage_offset)
    return r


# as_strided_ recorded by autograd: the same formulas, torch's AsStridedBackward1 node, and a
# result that is no view of its own (it becomes the tensor restrided in place)
_as_strided_inplace = defop(
    "as_strided_",
    "AsStridedBackward1",
    lambda self, root, size, stride, offset, idx, self_sym_sizes: _as_strided_view(
        root, size, stride, offset
    ),
    dtype="keep",
    jvp=_as_strided_jvp,
    self=lambda grad, idx, self_sym_sizes: _as_strided_backward(grad, idx, self_sym_sizes),
    complex=True,
)


def as_strided_recorded(self: Tensor, size: Any, stride: Any, storage_offset: Any) -> Tensor:
    """Tensor.as_strided_ on a tensor with a grad_fn while grad mode records: self restrided
    over its storage (from its own storage offset unless given), its grad_fn AsStridedBackward1
    on its previous one, its version bumped."""
    off = self.storage_offset() if storage_offset is None else storage_offset
    r = _as_strided_call(_as_strided_inplace, self, size, stride, off)
    self._check_inplace()
    self._data = r._data
    if r._grad_fn is not None:
        self._grad_fn = r._grad_fn
        self._rg = True
        self._nr = 0
    if _fwad._STATE.active:  # a dual tensor: its tangent restrided the same way
        t = _fwad._get_tangent(r)
        if t is not None:
            _fwad._set_tangent(self, t)
    self._bump()
    return self


# torch's AsStridedBackward0 lists the view's size, stride and storage_offset (shown by
# as_strided and by a modified view's regenerated node), not shadowgrad's index plan
_SAVED_HIDDEN["AsStridedBackward0"] = frozenset(("idx", "self_sym_sizes"))
_SAVED_HIDDEN["AsStridedBackward1"] = frozenset(("idx", "self_sym_sizes"))

METHODS["as_strided"] = as_strided
FUNCTIONS["as_strided"] = as_strided


# --- more shape ops -------------------------------------------------------------------------


def _sizes_arg(sizes: tuple[Any, ...]) -> tuple[int, ...]:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    return tuple(int(s) for s in sizes)


def _unflatten_sizes(sizes: Any, pos: int) -> tuple[int, ...]:
    """unflatten's sizes as ints, or torch's parser error (a float size, one int)."""
    if not isinstance(sizes, (tuple, list)) or not all(type(s) is int for s in sizes):
        from .._creation import check_int_list

        if not isinstance(sizes, (tuple, list)):
            raise TypeError(
                f"unflatten(): argument 'sizes' (position {pos}) must be tuple of ints, not "
                f"{type(sizes).__name__}"
            )
        check_int_list("unflatten", "sizes", (sizes,), pos)
    return tuple(int(s) for s in sizes)


def _unflatten_method(self: Tensor, dim: int, sizes: Any) -> Tensor:
    """Tensor.unflatten: torch's parser errors counting sizes as position 2."""
    return unflatten(self, dim, _unflatten_sizes(sizes, 2))


def unflatten(input: Tensor, dim: int, sizes: Any) -> Tensor:
    """Mirrors `torch.unflatten`."""
    if type(dim) is not int:  # a bool, a float: torch's parser refuses them
        _parser_check("unflatten", (dim, sizes))
    sizes = _unflatten_sizes(sizes, 3)
    d = wrap_dim(dim, input.ndim)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if not input.ndim:  # torch's size(dim) fails inside, and unflatten wraps its error
        raise RuntimeError(
            f"unflatten got an unexpected error:\nDimension specified as {d} but tensor has no "
            "dimensions"
        )
    if sizes.count(-1) > 1:  # torch's infer_size error, which unflatten wraps
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    n = input._data.shape[d]
    known = 1
    for s in sizes:
        if s != -1:
            known *= s
    if sizes.count(-1) == 1 and known and n % known == 0:
        sizes = tuple(n // known if s == -1 else s for s in sizes)
    elif known != n or -1 in sizes:
        raise RuntimeError(
            f"unflatten: Provided sizes {shape_str(sizes)} don't multiply up to the size of dim "
            f"{d} ({n}) in the input tensor"
        )
    shape = input._data.shape
    return view(input, (*shape[:d], *sizes, *shape[d + 1 :]))


def movedim(input: Tensor, source: Any, destination: Any) -> Tensor:
    """Mirrors `torch.movedim`."""
    nd = input.ndim
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            "movedim: Invalid source or destination dims: source ("
            f"{shape_str(src)} dims) should contain the same number of dims as destination "
            f"({shape_str(dst)} dims)"
        )
    src = tuple(wrap_dim(d, nd) for d in src)
    dst = tuple(wrap_dim(d, nd) for d in dst)
    if len(set(src)) != len(src):
        raise RuntimeError(f"movedim: repeated dim in `source` ({shape_str(src)})")
    if len(set(dst)) != len(dst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({shape_str(dst)})")
    if nd == 0:  # a 0-d tensor's only dim (0 or -1) moves onto itself: torch's alias
        return _alias(input)
    order = [-1] * nd
    for s, d in zip(src, dst, strict=True):
        order[d] = s
    rest = iter(d for d in range(nd) if d not in src)
    order = [o if o != -1 else next(rest) for o in order]
    return _permute(input, tuple(order))


def _movedim_checked(name: str, method: bool) -> Any:
    """movedim/moveaxis as torch's parser takes them: source and destination both ints or
    both sequences of ints (its two overloads), with its errors for anything else."""

    def is_int(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 2 and not kwargs and not (type(args[0]) is int and type(args[1]) is int):
            src, dst = args
            seqs = isinstance(src, (tuple, list)) and isinstance(dst, (tuple, list))
            if seqs and all(not v or is_int(v[0]) for v in args):  # a later float: unpack error
                from .._creation import check_int_list

                check_int_list(name, "source", (src,), 1 + (not method))
                check_int_list(name, "destination", (dst,), 2 + (not method))
            elif not (is_int(src) and is_int(dst)):
                from .._signatures import _arg_desc

                lead, head = ("", "") if method else ("Tensor, ", "Tensor input, ")
                descs = [_arg_desc(a) for a in args]
                ints = ", ".join(
                    d if is_int(a) else f"!{d}!" for a, d in zip(args, descs, strict=True)
                )
                alls = ", ".join(f"!{d}!" for d in descs)
                why = "      didn't match because some of the arguments have invalid types: "
                got = ", ".join(type(a).__name__ for a in args)
                raise TypeError(
                    f"{name}() received an invalid combination of arguments - got ({lead}{got}), "
                    f"but expected one of:\n * ({head}int source, int destination)\n{why}"
                    f"({lead}{ints})\n * ({head}tuple of ints source, tuple of ints "
                    f"destination)\n{why}({lead}{alls})\n"
                )
        return movedim(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = movedim.__doc__
    call.__wrapped__ = movedim  # type: ignore[attr-defined] # its parameters
    return call


def _repeat_bw(grad: Tensor, repeats: tuple[int, ...], self_sym_sizes: Any) -> Tensor:
    shape = (1,) * (len(repeats) - len(self_sym_sizes)) + tuple(self_sym_sizes)
    pairs: list[int] = []
    for r, s in zip(repeats, shape, strict=True):
        pairs.extend((r, s))
    if 0 in pairs:
        return _make(np.zeros(shape, grad._data.dtype))
    g = reshape(grad, tuple(pairs))
    return g.sum(tuple(range(0, len(pairs), 2)))


_repeat = defop(
    "repeat",
    "RepeatBackward0",
    lambda self, repeats, self_sym_sizes: np.tile(self, repeats),
    contiguous=True,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, repeats, self_sym_sizes: _repeat_bw(grad, repeats, self_sym_sizes),
    complex=True,
)


def repeat(self: Tensor, *sizes: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.Tensor.repeat` (the repeats may be given by keyword)."""
    if kwargs:
        sizes = _method_keywords("repeat", "repeats", sizes, kwargs)
    elif not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    try:
        if not all(type(s) is int for s in sizes):  # torch's parser refuses a float repeat
            from .._creation import check_int_list

            check_int_list("repeat", "repeats", sizes, 1)
        reps = _sizes_arg(sizes)
        if len(reps) < self.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number of dimensions "
                "of tensor"
            )
        if any(r < 0 for r in reps):
            # torch checks the result's sizes: the input's padded on the left, times the repeats
            shape = (1,) * (len(reps) - self.ndim) + tuple(self._data.shape)
            target = [int(s) * int(r) for s, r in zip(shape, reps, strict=True)]
            bad = next(t for t in target if t < 0)
            raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {target}")
        return _repeat(self, reps, tuple(self._data.shape))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("repeat", sizes, {})
        raise


_NO_ARG: Any = object()


def _tile_dims_check(dims: Any, pos: int) -> None:
    """torch's parser errors for tile's dims: an int or a float alone, a float among them."""
    if not isinstance(dims, (tuple, list)):
        raise TypeError(
            f"tile(): argument 'dims' (position {pos}) must be tuple of ints, not "
            f"{type(dims).__name__}"
        )
    from .._creation import check_int_list

    check_int_list("tile", "dims", (dims,), pos)


def tile(input: Tensor, dims: Any = _NO_ARG) -> Tensor:
    """Mirrors `torch.tile`."""
    if dims is _NO_ARG:
        raise TypeError('tile() missing 1 required positional arguments: "dims"')
    if not isinstance(dims, (tuple, list)) or not all(type(d) is int for d in dims):
        _tile_dims_check(dims, 2)
    reps = tuple(int(d) for d in dims)
    if len(reps) < input.ndim:
        reps = (1,) * (input.ndim - len(reps)) + reps
    return repeat(input, reps)


_flip = defop(
    "flip",
    "FlipBackward0",
    # torch's result keeps the input's stride order (empty_like), as numpy's order "K" does
    lambda self, dims: _formats().unbroadcast_order(
        np.flip(self, dims).copy("K") if dims and self.ndim else self.copy("K"), self
    ),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, dims: _flip(grad, dims),
    complex=True,
)


_NO_DIMS: Any = object()


def _int_list_arg(fn: str, param: str, args: tuple[Any, ...], pos: int) -> None:
    """torch's parser errors for a tuple-of-ints parameter given as varargs or one sequence
    (a float among them); the all-int call returns at once."""
    if not all(type(a) is int for a in args):
        from .._creation import check_int_list

        check_int_list(fn, param, args, pos)


def _flip_method(self: Tensor, *dims: Any, **kwargs: Any) -> Tensor:
    """Tensor.flip: torch's parser errors counting dims as position 1."""
    if dims:
        _int_list_arg("flip", "dims", dims, 1)
    return flip(self, *dims, **kwargs)


def _roll_checked(method: bool) -> Any:
    """roll, with torch's parser errors for shifts or dims that are no ints."""

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def call(input: Any, shifts: Any = _NO_DIMS, dims: Any = None) -> Any:
        if shifts is _NO_DIMS:
            raise TypeError('roll() missing 1 required positional arguments: "shifts"')
        if type(shifts) is not int:
            _int_list_arg("roll", "shifts", (shifts,), 1 + (not method))
        if dims is not None and type(dims) is not int:
            _int_list_arg("roll", "dims", (dims,), 2 + (not method))
        return roll(input, shifts, dims)

    call.__name__ = call.__qualname__ = "roll"
    call.__doc__ = roll.__doc__
    call.__wrapped__ = roll  # type: ignore[attr-defined] # its parameters
    return call


def flip(input: Tensor, *dims: Any, **kwargs: Any) -> Tensor:
    """Mirrors `torch.flip` (`dims` given by position, or by name as `dims=`)."""
    if kwargs:
        given = kwargs.pop("dims", _NO_DIMS)
        if given is not _NO_DIMS:
            if dims:
                raise TypeError("flip() got multiple values for argument 'dims'")
            dims = (given,)
        if kwargs and dims:  # torch's parser reports a missing dims before an unknown keyword
            raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    _int_list_arg("flip", "dims", dims, 2)
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    from ._util import wrap_dims

    dims = tuple(int(d) for d in dims)
    wrap_dims(dims, input.ndim)  # checked; torch's node saves the dims as given
    return _flip(input, dims)


def _roll_fwd(self: np.ndarray, shifts: Any, dims: Any) -> np.ndarray:
    # no dims (saved as torch's node saves them, `()` with one shift): the flattened roll
    r = np.roll(self, shifts, dims) if dims else np.roll(self, shifts[0])
    if dims and self.ndim >= 4 and not self.flags.c_contiguous:
        from .._formats import contiguous_format, relayout, suggested

        fmt = suggested(self)  # torch's result along dims: channels-last for such an input
        if fmt is not contiguous_format:
            return relayout(r, fmt)
    return r if r.flags.c_contiguous else r.copy()  # torch's result is contiguous


_roll = defop(
    "roll",
    "RollBackward0",
    _roll_fwd,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, shifts, dims: _roll(grad, tuple(-s for s in shifts), dims),
    complex=True,
)


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """Mirrors `torch.roll`."""
    if isinstance(shifts, Tensor) and not shifts.ndim:  # an int-like 0-d tensor: one shift
        shifts = shifts.__index__()
    sh = (shifts,) if isinstance(shifts, int) else tuple(int(s) for s in shifts)
    if not sh:
        raise RuntimeError("`shifts` required")
    if dims is None or (isinstance(dims, (tuple, list)) and len(dims) == 0):
        if len(sh) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:0")
        return _roll(input, sh, ())
    dm = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(sh) != len(dm):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(dm)}")
    for d in dm:
        if input.ndim == 0:  # torch's roll wraps its dims without a scalar's dim
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        wrap_dim(d, input.ndim)  # checked; torch's node saves the dims as given
    return _roll(input, sh, tuple(int(d) for d in dm))


def _split_fwd(self: np.ndarray, sizes: tuple[int, ...], dim: int) -> tuple[np.ndarray, ...]:
    out = []
    start = 0
    idx: list[Any] = [slice(None)] * self.ndim
    for s in sizes:
        idx[dim] = slice(start, start + s)
        out.append(self[tuple(idx)])
        start += s
    return tuple(out)


_split = defop(
    "split.Tensor",
    "SplitBackward0",
    lambda self, split_size, sizes, dim: _split_fwd(self, sizes, dim),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    n_outputs=0,
    multi_view="Split",
    self=lambda grads, dim, split_size: cat(grads, dim),
    complex=True,
)
_split_with_sizes = defop(
    "split_with_sizes",
    "SplitWithSizesBackward0",
    lambda self, split_sizes, dim: _split_fwd(self, split_sizes, dim),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    n_outputs=0,
    multi_view="SplitWithSizes",
    self=lambda grads, dim, split_sizes: cat(grads, dim),
    complex=True,
)


def _split_method(self: Tensor, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.Tensor.split` (its parameter is split_size, the function's is
    split_size_or_sections)."""
    return split(self, split_size, dim)


def split(tensor: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.split` (an int size: SplitBackward0; a list of sizes: SplitWithSizes)."""
    try:
        if type(dim) is not int or split_size_or_sections.__class__ is bool:
            from .._signatures import reraise  # a bool: torch's parser refuses it

            key = "split" if isinstance(split_size_or_sections, int) else "split_with_sizes"
            reraise(key, (split_size_or_sections, dim), {}, False, (tensor,))
        if tensor.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        d = wrap_dim(dim, tensor.ndim)
        n = tensor._data.shape[d]
        if isinstance(split_size_or_sections, (list, tuple)):
            if not all(type(s) is int for s in split_size_or_sections):
                from .._creation import check_int_list

                check_int_list("split_with_sizes", "split_sizes", (split_size_or_sections,), 2)
            sizes = tuple(int(s) for s in split_size_or_sections)
            if sum(sizes) != n or any(s < 0 for s in sizes):
                if any(s < 0 for s in sizes):
                    raise RuntimeError(
                        "split_with_sizes expects split_sizes have only non-negative entries, but "
                        f"got split_sizes={shape_str(sizes)}"
                    )
                raise RuntimeError(
                    "split_with_sizes expects split_sizes to sum "
                    f"exactly to {n} (input tensor's size "
                    f"at dimension {d}), but got split_sizes={shape_str(sizes)}"
                )
            return _split_with_sizes(tensor, sizes, dim if type(dim) is int else d)
        if isinstance(split_size_or_sections, float):  # Tensor.split passes it to split_with_sizes
            raise TypeError(
                "split_with_sizes(): argument 'split_sizes' "
                "(position 2) must be tuple of ints, not "
                "float"
            )
        s = int(split_size_or_sections)
        if s < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={s}")
        if s == 0 and n != 0:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
            )
        k = max(1, -(-n // s)) if s else 1
        sizes = tuple(min(s, n - i * s) for i in range(k)) if s else (0,)
        return _split(tensor, s, sizes, dim if type(dim) is int else d)  # saved as given
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise(
            "split" if isinstance(split_size_or_sections, int) else "split_with_sizes",
            (split_size_or_sections, dim),
            {},
            False,
            (tensor,),
        )
        raise


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.chunk`."""
    if type(chunks) is not int:
        chunks = int_arg("chunk", "chunks", 2, chunks)
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if type(dim) is not int:  # a bool, a float: torch's parser refuses them
        _parser_check("chunk", (chunks, dim))
    d = wrap_dim(dim, input.ndim)
    n = input._data.shape[d]
    size = -(-n // chunks)
    if size == 0 and n == 0:  # torch's split_with_sizes: split would lose the count
        return _split_with_sizes(input, (0,) * chunks, dim if type(dim) is int else d)
    return split(input, size, dim if type(dim) is int else d)


def tensor_split(input: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.tensor_split`."""
    if input.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    d = wrap_dim(dim, input.ndim)
    n = input._data.shape[d]
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        if ios.dtype is not D.int64:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                f"{ios.dtype._short}"
            )
        if ios.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                f"one-dimensional tensor, but got a tensor with {ios.ndim} dims"
            )
        ios = ios.tolist()
    if isinstance(ios, int):
        if ios <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {ios}")
        q, r = divmod(n, ios)
        bounds = [0]
        for i in range(ios):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    else:
        bounds = [0, *(int(i) for i in ios), n]
    out = []
    shape = tuple(input._data.shape)
    for a, b in itertools.pairwise(bounds):
        a2 = min(max(a if a >= 0 else a + n, 0), n)
        b2 = min(max(b if b >= 0 else b + n, 0), n)
        out.append(_slice(input, d, a2, max(a2, b2), 1, shape))
    return tuple(out)


_TENSOR_SPLIT_KW = ("indices", "tensor_indices_or_sections", "sections")
_TENSOR_SPLIT_SIGS = (
    "tuple of ints indices, int dim = 0",
    "Tensor tensor_indices_or_sections, int dim = 0",
    "int sections, int dim = 0",
)


def _tensor_split_checked(method: bool) -> Any:
    """tensor_split as torch's parser takes it: its three overloads' keywords (`indices=`,
    `sections=`, `tensor_indices_or_sections=`), and its error for an argument none takes (a
    float: `x.tensor_split(n / 2)`)."""

    def is_int(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    def fits(name: str, v: Any) -> bool:
        if name == "sections":
            return is_int(v)
        if name == "indices":
            return isinstance(v, (tuple, list)) and all(is_int(i) for i in v)
        return isinstance(v, Tensor)

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if not kwargs and len(args) == 1 and type(args[0]) is int:
            return tensor_split(input, args[0])
        kw = dict(kwargs)
        dim = kw.pop("dim", args[1] if len(args) > 1 else 0)
        given = [(k, kw.pop(k)) for k in _TENSOR_SPLIT_KW if k in kw]
        ok = not kw and len(args) <= 2 and is_int(dim) and len(args[:1]) + len(given) == 1
        if ok and given:
            ok = fits(*given[0])
            ios = given[0][1]
        elif ok:
            ios = args[0]
            ok = any(fits(n, ios) for n in _TENSOR_SPLIT_KW)
        if ok:
            return tensor_split(input, ios, dim)
        head = "" if method else "Tensor input, "
        got = parser_got(args if method else (input, *args), kwargs, method)
        lines = "".join(f" * ({head}{sig})\n" for sig in _TENSOR_SPLIT_SIGS)
        raise TypeError(
            f"tensor_split() received an invalid combination of arguments - got ({got}), but "
            f"expected one of:\n{lines}"
        )

    call.__name__ = call.__qualname__ = "tensor_split"
    call.__doc__ = tensor_split.__doc__
    call.__wrapped__ = tensor_split  # type: ignore[attr-defined] # its parameters
    return call


def _diag_view(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """A writable numpy view of a diagonal, on the last axis (np.diagonal's is read-only)."""
    shape, strides = a.shape, a.strides
    n1, n2 = shape[dim1], shape[dim2]
    idx: list[Any] = [slice(None)] * a.ndim
    if offset >= 0:
        n = max(0, min(n1, n2 - offset))
        idx[dim2] = slice(min(offset, n2), None)
    else:
        n = max(0, min(n1 + offset, n2))
        idx[dim1] = slice(min(-offset, n1), None)
    rest = [k for k in range(a.ndim) if k not in (dim1, dim2)]
    return np.lib.stride_tricks.as_strided(
        a[tuple(idx)],
        shape=(*(shape[k] for k in rest), n),
        strides=(*(strides[k] for k in rest), strides[dim1] + strides[dim2]),
    )


def _diagonal_bw_fwd(
    grad: np.ndarray, input_sizes: Any, offset: int, dim1: int, dim2: int
) -> np.ndarray:
    out = np.zeros(input_sizes, grad.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = grad
    return out


_diagonal_backward = defop(
    "diagonal_backward",
    "DiagonalBackwardBackward0",
    _diagonal_bw_fwd,
    dtype="keep",
    jvp=LINEAR,
    grad=lambda grad, offset, dim1, dim2: _diagonal(
        grad, offset, dim1, dim2, tuple(grad._data.shape)
    ),
    complex=True,
)
_diagonal = defop(
    "diagonal",
    "DiagonalBackward0",
    lambda self, offset, dim1, dim2, self_sym_sizes: _diag_view(self, offset, dim1, dim2),
    dtype="keep",
    jvp=LINEAR,
    view=True,
    self=lambda grad, offset, dim1, dim2, self_sym_sizes: _diagonal_backward(
        grad, self_sym_sizes, offset, dim1, dim2
    ),
    complex=True,
)
_diagonal_copy = defop(
    "diagonal_copy",
    "DiagonalBackward0_copy",
    lambda self, offset, dim1, dim2, self_sym_sizes: _diag_view(self, offset, dim1, dim2).copy(),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, offset, dim1, dim2, self_sym_sizes: _diagonal_backward(
        grad, self_sym_sizes, offset, dim1, dim2
    ),
    complex=True,
)


def _diag_dims(nd: int, dim1: int, dim2: int) -> tuple[int, int]:
    d1, d2 = wrap_dim(dim1, nd), wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """Mirrors `torch.diagonal`: a view."""
    try:
        if (
            type(offset) is not int
            or type(dim1) is not int
            or type(dim2) is not int
            or not -(2**63) <= offset < 2**63
        ):  # a bool, a float offset, one past int64: torch's parser refuses them
            _parser_check("diagonal", (offset, dim1, dim2))
        d1, d2 = _diag_dims(input.ndim, dim1, dim2)
        return _diagonal(input, int(offset), d1, d2, tuple(input._data.shape))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("diagonal", (offset, dim1, dim2), {})
        raise


def _diag_embed_fwd(self: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    n = self.shape[-1] + abs(offset) if self.ndim else abs(offset) + 1
    out_nd = self.ndim + 1
    dim1, dim2 = dim1 % out_nd, dim2 % out_nd  # saved as given (DiagEmbedBackward0)
    rest = list(self.shape[:-1])
    shape = []
    for k in range(out_nd):
        shape.append(n if k in (dim1, dim2) else rest.pop(0))
    out = np.zeros(shape, self.dtype)
    _diag_view(out, offset, dim1, dim2)[...] = self
    return out


_diag_embed = defop(
    "diag_embed",
    "DiagEmbedBackward0",
    _diag_embed_fwd,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, offset, dim1, dim2: _diagonal(
        grad, offset, *_diag_dims(grad.ndim, dim1, dim2), tuple(grad._data.shape)
    ),
    complex=True,
)


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Mirrors `torch.diag_embed`."""
    try:
        _diag_dims(input.ndim + 1, dim1, dim2)  # checked; saved as given
        return _diag_embed(input, int(offset), int(dim1), int(dim2))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("diag_embed", (offset, dim1, dim2), {})
        raise


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """Mirrors `torch.diag`: a vector to a matrix, or a matrix's diagonal (a copy)."""
    try:
        if type(diagonal) is not int:  # a bool: torch's parser refuses it too
            _parser_check("diag", (diagonal,))
        if input.ndim == 1:  # torch's diag_embed(input, diagonal, -2, -1)
            return _diag_embed(input, operator.index(diagonal), -2, -1)
        if input.ndim == 2:
            return _diagonal_copy(input, operator.index(diagonal), 0, 1, tuple(input._data.shape))
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("diag", (diagonal,), {})
        raise


_tril = defop(
    "tril",
    "TrilBackward0",
    lambda self, diagonal: np.tril(self, diagonal),
    contiguous=True,  # torch's result is contiguous, whatever the input's layout
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, diagonal: _tril(grad, diagonal),
    complex=True,
)
_triu = defop(
    "triu",
    "TriuBackward0",
    lambda self, diagonal: np.triu(self, diagonal),
    contiguous=True,  # torch's result is contiguous, whatever the input's layout
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, diagonal: _triu(grad, diagonal),
    complex=True,
)


def tril(input: Tensor, diagonal: int = 0, *, out: Any = None) -> Tensor:
    """Mirrors `torch.tril`."""
    try:
        if type(diagonal) is not int:  # a bool: torch's parser refuses it too
            _parser_check("tril", (diagonal,))
        if input.ndim < 2:
            raise RuntimeError("tril: input tensor must have at least 2 dimensions")
        return _tril(input, operator.index(diagonal))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("tril", (diagonal,), {})
        raise


def triu(input: Tensor, diagonal: int = 0, *, out: Any = None) -> Tensor:
    """Mirrors `torch.triu`."""
    try:
        if type(diagonal) is not int:  # a bool: torch's parser refuses it too
            _parser_check("triu", (diagonal,))
        if input.ndim < 2:
            raise RuntimeError("triu: input tensor must have at least 2 dimensions")
        return _triu(input, operator.index(diagonal))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("triu", (diagonal,), {})
        raise


def broadcast_to(input: Tensor, size: Any) -> Tensor:
    """Mirrors `torch.broadcast_to`."""
    try:
        return expand(input, tuple(size))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("broadcast_to", (size,), {})
        raise


def _broadcast_to_method(self: Tensor, *size: Any) -> Tensor:
    """Tensor.broadcast_to: the size as one sequence or as varargs (x.broadcast_to(2, 3))."""
    try:
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            return expand(self, tuple(size[0]))
        return expand(self, size)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("broadcast_to", size, {})
        raise


def broadcast_tensors(*tensors: Any) -> tuple[Tensor, ...]:
    """Mirrors `torch.broadcast_tensors`: inputs already of the broadcast shape come back as is."""
    try:
        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            tensors = tuple(tensors[0])
        shapes = [t._data.shape for t in tensors]
        try:
            shape = np.broadcast_shapes(*shapes)
        except ValueError:
            from .indexing import _broadcast_pair

            acc = tensors[0]
            for t in tensors[1:]:
                _broadcast_pair(acc, t)
                acc = _make(np.empty(np.broadcast_shapes(acc._data.shape, t._data.shape)))
            raise
        return tuple(t if t._data.shape == shape else expand(t, shape) for t in tensors)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise_tensor_list

        reraise_tensor_list(tensors)
        raise


def _atleast(n: int, tensors: tuple[Any, ...]) -> Any:
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    ts = tensors[0] if len(tensors) == 1 and not single else tensors
    out = []
    for t in ts:
        nd = t.ndim
        if nd >= n:
            out.append(t)
        elif nd == 0:
            out.append(reshape(t, (1,) * n))
        elif n == 2 or (n == 3 and nd == 1):
            r = _unsqueeze(t, 0)
            out.append(_unsqueeze(r, -1) if n == 3 else r)  # torch's unsqueeze(-1)
        else:  # a matrix to 3-d
            out.append(_unsqueeze(t, -1))
    return out[0] if single else tuple(out)


def atleast_1d(*tensors: Any) -> Any:
    """Mirrors `torch.atleast_1d`."""
    return _atleast(1, tensors)


def atleast_2d(*tensors: Any) -> Any:
    """Mirrors `torch.atleast_2d`."""
    return _atleast(2, tensors)


def atleast_3d(*tensors: Any) -> Any:
    """Mirrors `torch.atleast_3d`."""
    return _atleast(3, tensors)


def ravel(input: Tensor) -> Tensor:
    """Mirrors `torch.ravel`: contiguous().view(-1)."""
    return view(contiguous(input), -1)


def _nonempty(tensors: Any, name: str) -> tuple[Tensor, ...]:
    ts = tuple(tensor_list(tensors, name))
    if not ts:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return ts


def hstack(tensors: Any, *, out: Any = None) -> Tensor:
    """Mirrors `torch.hstack`."""
    ts = atleast_1d(_nonempty(tensors, "hstack"))
    return cat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(tensors: Any, *, out: Any = None) -> Tensor:
    """Mirrors `torch.vstack`."""
    return _vstack(tensors, "vstack")


def _vstack(tensors: Any, name: str) -> Tensor:
    return cat(atleast_2d(_nonempty(tensors, name)), 0)


def dstack(tensors: Any, *, out: Any = None) -> Tensor:
    """Mirrors `torch.dstack`."""
    return cat(atleast_3d(_nonempty(tensors, "dstack")), 2)


def column_stack(tensors: Any, *, out: Any = None) -> Tensor:
    """Mirrors `torch.column_stack`."""
    ts = _nonempty(tensors, "column_stack")
    return cat([reshape(t, (t._data.size, 1)) if t.ndim <= 1 else t for t in ts], 1)


_NEW = {
    "unflatten": _unflatten_method,
    "movedim": movedim,
    "moveaxis": movedim,
    "flip": flip,
    "roll": roll,
    "split": split,
    "chunk": chunk,
    "tensor_split": tensor_split,
    "diagonal": diagonal,
    "diag": diag,
    "diag_embed": diag_embed,
    "tril": tril,
    "triu": triu,
    "broadcast_to": broadcast_to,
    "ravel": ravel,
}
METHODS.update(_NEW)
METHODS["broadcast_to"] = _broadcast_to_method
METHODS["split"] = _split_method  # (the function's parameter is split_size_or_sections)
METHODS["chunk"] = int_checked("chunk", chunk, "chunks")
METHODS["flip"] = _flip_method
METHODS["roll"] = _roll_checked(True)
METHODS["movedim"] = _movedim_checked("movedim", True)
METHODS["moveaxis"] = _movedim_checked("moveaxis", True)
METHODS["tensor_split"] = _tensor_split_checked(True)


def _tile_method(self: Tensor, *dims: Any, **kwargs: Any) -> Tensor:
    """Tensor.tile: the reps as varargs (x.tile(2, 1)) or one sequence (x.tile((2, 1)))."""
    if kwargs or not dims:
        return tile(self, *dims, **kwargs)
    if len(dims) == 1 and not isinstance(dims[0], (int, np.integer)):
        dims = dims[0]
    if not isinstance(dims, (tuple, list)) or not all(type(d) is int for d in dims):
        _tile_dims_check(dims, 1)
    return tile(self, dims)


METHODS.update({"repeat": repeat, "tile": _tile_method, "unbind": unbind})
FUNCTIONS.update(
    {
        **_NEW,
        "unflatten": unflatten,
        "tensor_split": _tensor_split_checked(False),
        "roll": _roll_checked(False),
        "movedim": _movedim_checked("movedim", False),
        "moveaxis": _movedim_checked("moveaxis", False),
    }
)
FUNCTIONS.update(
    {
        "tile": tile,
        "broadcast_tensors": broadcast_tensors,
        "atleast_1d": atleast_1d,
        "atleast_2d": atleast_2d,
        "atleast_3d": atleast_3d,
        "hstack": hstack,
        "vstack": vstack,
        "dstack": dstack,
        "column_stack": column_stack,
    }
)


def _in_place_triangles() -> dict[str, Any]:
    from .inplace import make_inplace

    return {"tril_": make_inplace(tril), "triu_": make_inplace(triu)}


METHODS.update(_in_place_triangles())


def swapaxes_(self: Tensor, axis0: int = _NO_DIM, axis1: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.Tensor.swapaxes_`."""
    if axis0 is _NO_DIM or axis1 is _NO_DIM:
        raise _missing("swapaxes_", ("axis0", "axis1")[axis0 is not _NO_DIM :])
    return transpose_(self, axis0, axis1)


def swapdims_(self: Tensor, dim0: int = _NO_DIM, dim1: int = _NO_DIM) -> Tensor:
    """Mirrors `torch.Tensor.swapdims_`."""
    if dim0 is _NO_DIM or dim1 is _NO_DIM:
        raise _missing("swapdims_", ("dim0", "dim1")[dim0 is not _NO_DIM :])
    return transpose_(self, dim0, dim1)


METHODS.update({"swapaxes_": swapaxes_, "swapdims_": swapdims_})

METHODS.update(
    {
        "mH": property(_mH),
        "H": property(_H),
        "adjoint": adjoint,
        "fliplr": fliplr,
        "flipud": flipud,
    }
)
FUNCTIONS.update({"adjoint": adjoint, "fliplr": fliplr, "flipud": flipud})


def diff(
    input: Tensor,
    n: int = 1,
    dim: int = -1,
    prepend: Tensor | None = None,
    append: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.diff`: out[i] = input[i + 1] - input[i] along dim, n times, as torch's
    diff_helper records it (two slices and a SubBackward0; bools use !=)."""
    if dim.__class__ is bool:  # torch's parser takes no bool for an int dim
        from .._signatures import reraise_op_frame

        reraise_op_frame(1)
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = wrap_dim(dim, input.ndim)
    x = input
    if prepend is not None or append is not None:
        for t in (prepend, append):
            if t is None:
                continue
            if t.ndim != input.ndim:
                raise RuntimeError(
                    "diff expects prepend or append to be the same dimension as input"
                )
            for i in range(input.ndim):
                if i != d and t._data.shape[i] != input._data.shape[i]:
                    raise RuntimeError(
                        "diff expects the shape of tensor to prepend or append to match that of "
                        f"input except along the differencing dimension; input.size({i}) = "
                        f"{input._data.shape[i]}, but got tensor.size({i}) = {t._data.shape[i]}"
                    )
        x = cat([t for t in (prepend, input, append) if t is not None], d)
    if n == 0:
        from .._creation import empty_like

        return empty_like(x).copy_(x)
    for _ in range(min(n, x._data.shape[d])):  # torch stops once the dim is empty
        length = x._data.shape[d] - 1
        hi = narrow(x, d, 1, length)
        lo = narrow(x, d, 0, length)
        x = hi != lo if x.dtype is D.bool_ else hi - lo
    return x


METHODS["diff"] = diff
FUNCTIONS["diff"] = diff


def _np_rot90(self: np.ndarray, k: int, d0: int, d1: int) -> np.ndarray:
    """torch's rot90: flips (which keep the input's stride order) then a transpose, so a
    quarter turn of a contiguous input is a non-contiguous result; no turn is a contiguous
    clone."""
    k %= 4
    if k == 1:
        return np.flip(self, d1).copy("K").swapaxes(d0, d1)
    if k == 2:
        return np.flip(self, (d0, d1)).copy("K")
    if k == 3:
        return np.flip(self, d0).copy("K").swapaxes(d0, d1)
    return self.copy()


_rot90 = defop(
    "rot90",
    "Rot90Backward0",
    _np_rot90,
    dtype="keep",
    self=lambda grad, k, d0, d1: _rot90(grad, -k, d0, d1),
    jvp=LINEAR,
    complex=True,
)


def rot90(input: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    """Mirrors `torch.rot90`: k quarter turns from dims[0] toward dims[1] (Rot90Backward0)."""
    dims = list(dims)
    nd = input.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if nd < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
    d0, d1 = wrap_dim(dims[0], nd), wrap_dim(dims[1], nd)  # torch checks the range first
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == nd:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}"
        )
    out = _rot90(input, int(k), d0, d1)
    show_saved(out, dims=tuple(dims))  # torch's node saves them as given
    return out


_SAVED_HIDDEN["Rot90Backward0"] = frozenset(("d0", "d1"))


def _rot90_function(input: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    """torch.rot90, whose parser refuses a k that is no int (position 2)."""
    if type(k) is not int:
        k = int_arg("rot90", "k", 2, k)
    return rot90(input, k, dims)


METHODS["rot90"] = int_checked("rot90", rot90, "k")
FUNCTIONS["rot90"] = _rot90_function
