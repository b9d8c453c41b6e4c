"""Tensor creation: tensor, as_tensor, from_numpy, zeros, ones, full, arange, random, ...

Mirrors torch's factory functions and dtype inference: Python floats give the default dtype,
ints int64, bools bool, complex the default complex dtype; numpy arrays keep their dtype.
"""

from __future__ import annotations

import builtins
import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _dtype as D
from ._formats import like_layout
from ._signatures import factory_keywords
from ._tensor import Tensor, _make, check_device, warn_once

__all__ = [
    "arange",
    "as_tensor",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "from_numpy",
    "full",
    "full_like",
    "linspace",
    "ones",
    "ones_like",
    "tensor",
    "zeros",
    "zeros_like",
]

FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"


def _bool_refused(name: str, param: str, value: Any) -> None:
    """A factory's bool keyword given something else: torch's parser error."""
    raise TypeError(f"{name}(): argument '{param}' must be bool, not {_tp_name(value)}")


def pin_memory_arg(name: str, value: Any) -> None:
    """A factory's pin_memory= other than False: None is taken (the schemas' `bool?`), True
    fails as on torch's CPU build (no pinned memory here), anything else is refused as by
    torch's parser (for a factory of one overload)."""
    if value is None or value is False:
        return
    if value is True:
        raise RuntimeError(
            "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
            "allocator is available on this system."
        )
    _bool_refused(name, "pin_memory", value)


def _finish(data: np.ndarray, requires_grad: bool) -> Tensor:
    if data.dtype is D.LD:
        data = D.round_bf16(data)  # Note [bfloat16 storage]
    t = _make(data)
    if requires_grad:
        d = D._FROM_NP[data.dtype]
        if not (d.is_floating_point or d.is_complex):
            raise RuntimeError(FLOAT_ONLY)
        t._rg = True
    return t


# the Python sequences torch.tensor reads element by element (a range too)
_SEQUENCES = (list, tuple, builtins.range)


def _infer_dtype(data: Any) -> D.dtype:
    """torch's dtype inference for nested Python data."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, np.ndarray):
        return D.from_numpy_dtype(data.dtype)
    if isinstance(data, np.generic):
        return D.from_numpy_dtype(data.dtype)
    if isinstance(data, bool):
        return D.bool_
    if isinstance(data, int):
        return D.int64
    if isinstance(data, float):
        return D.get_default_dtype()
    if isinstance(data, complex):
        return D.default_complex()
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, _SEQUENCES):
        r: D.dtype | None = None
        for x in data:
            d = _infer_dtype(x)
            r = d if r is None else _seq_promote(r, d)
        return r if r is not None else D.get_default_dtype()
    raise RuntimeError(f"Could not infer dtype of {_tp_name(data)}")


def _seq_promote(a: D.dtype, b: D.dtype) -> D.dtype:
    # Within a Python sequence, numpy scalars and tensors promote with the Python scalars.
    return D.promote_types(a, b)


def _tensor_rows(a: Any, depth: int) -> Any:
    if depth > 0 and a.ndim:
        return [_tensor_rows(x, depth - 1) for x in a]
    if a.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    return np.asarray(a).reshape(())


def _to_nested(data: Any, top: bool = True, depth: int = 0) -> Any:
    """data as nested lists for numpy; depth is how many more sequence levels the shape (read
    from the first elements) has below this one."""
    if isinstance(data, Tensor):
        if not top and depth > 0 and data.ndim:  # where the shape wants a sequence, torch
            return _tensor_rows(data._data, depth)  # iterates the tensor
        if not top:  # a tensor inside a sequence is read as a Python scalar
            if data._data.size != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            if data._rg:
                warn_once(
                    "float",
                    "Converting a tensor with requires_grad=True to a scalar may lead to "
                    "unexpected behavior.\nConsider using tensor.detach() first.",
                )
            return data._data.reshape(())
        if data.numel() == 1 and data._rg:
            warn_once(
                "float",
                "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                "behavior.\nConsider using tensor.detach() first.",
            )
        return data._data
    if isinstance(data, _SEQUENCES):
        return [_to_nested(x, False, depth - 1) for x in data]
    if isinstance(data, np.ndarray) and data.size and not top:
        warn_once(  # torch reads such an array element by element
            "ndarray list",
            "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
            "converting the list to a single numpy.ndarray with numpy.array() before converting "
            "to a tensor.",
        )
    return data


def tensor(
    data: Any,
    *,
    dtype: D.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Copy data into a new leaf tensor. Mirrors `torch.tensor`."""
    if requires_grad is not False and requires_grad is not True:
        _bool_refused("tensor", "requires_grad", requires_grad)
    if pin_memory is not False:
        pin_memory_arg("tensor", pin_memory)
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("tensor", dtype)
    check_device(device)
    if dtype is not None and type(dtype) is not D.dtype:
        check_dtype_arg("tensor", dtype)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
        arr = D.quietly(data._data.astype, dtype._np if dtype else data._data.dtype, copy=True)
        return _finish(arr, requires_grad)
    if (type(data) is list or type(data) is tuple) and data and not isinstance(data[0], float):
        _check_first_unsized(data)
    try:
        inferred = _infer_dtype(data)
    except TypeError:
        if isinstance(data, np.ndarray):
            _check_np_strides(data)  # (a foreign byte order: torch's ValueError first)
        if isinstance(data, np.generic) and isinstance(data, (str, bytes)):  # np.str_ itself
            raise TypeError(f"new(): invalid data type 'numpy.{type(data).__name__}'") from None
        _check_first_str(data)
        raise
    except RuntimeError:
        if isinstance(data, memoryview):
            data = data.tolist()  # a sequence of its items
        elif _other_sequences(data):  # a deque, array.array, ...: read as torch reads a list
            return tensor(_as_lists(data), dtype=dtype, device=device, requires_grad=requires_grad)
        else:
            raise
        inferred = _infer_dtype(data)
    d = dtype or inferred
    if isinstance(data, np.ndarray):
        _check_np_strides(data)
        arr = D.quiet(np.array, data, dtype=d._np, copy=True)
    else:
        if d._cat < inferred._cat and d._cat < 3:
            _check_narrowing(data, d)
        try:
            nested = _to_nested(data, True, len(_first_shape(data)))
        except ValueError:
            _check_nested(data, inferred, d)  # the first bad element's error
            if d._cat < 2:
                raise TypeError(_NOT_INDEX) from None
            raise
        try:
            if d._cat == 1 and (inferred._cat == 2 or dtype is not None):
                arr = _checked_ints(nested, d, inferred._cat == 2)
            else:
                arr = D.quiet(np.array, nested, dtype=d._np)  # no warning shown: torch gives none
        except OverflowError:  # a Python int beyond int64
            if d is D.uint64:  # (_checked_ints: torch's unsigned conversion errors)
                raise
            raise ValueError("Overflow when unpacking long long") from None
        except (ValueError, TypeError) as e:
            shape = _first_shape(data)
            if 0 in shape:  # torch reads no element of an empty block: any ragged rest passes
                return _finish(np.zeros(shape, d._np), requires_grad)
            _check_nested(data, inferred, d)  # torch's error for ragged or mixed data
            if "Overflow when unpacking" in str(e):
                raise
            raise ValueError(str(e)) from e
    if arr.dtype == object:
        raise RuntimeError(f"Could not infer dtype of {_tp_name(data)}")
    return _finish(arr, requires_grad)


_NOT_INDEX = "only integer tensors of a single element can be converted to an index"


def _tp_name(x: Any) -> str:
    from ._to_args import parser_type_name

    return parser_type_name(x)


def _py_sequence(x: Any) -> bool:
    """PySequence_Check, as torch.tensor asks it: a deque, an array.array, a bytearray, any
    class with __getitem__ (not a dict, a str or bytes, nor what torch reads as a whole)."""
    return hasattr(type(x), "__getitem__") and not isinstance(
        x, (dict, str, bytes, Tensor, np.ndarray, np.generic, memoryview)
    )


def _other_sequences(data: Any) -> bool:
    """Whether data holds a sequence torch.tensor reads beyond a list, tuple or range."""
    if isinstance(data, _SEQUENCES):
        return any(_other_sequences(x) for x in data)
    return _py_sequence(data)


def _as_lists(data: Any) -> Any:
    """data with its sequences as lists: their length first (torch's error for an object
    without one), then their items as iteration gives them (PySequence_Fast)."""
    if isinstance(data, _SEQUENCES):
        return [_as_lists(x) for x in data]
    if _py_sequence(data):
        len(data)
        return [_as_lists(x) for x in list(data)]
    return data


def _leaves(data: Any) -> Any:
    if isinstance(data, _SEQUENCES):
        for x in data:
            yield from _leaves(x)
    else:
        yield data


def _check_narrowing(data: Any, d: D.dtype) -> None:
    """torch.tensor unpacks each element of a sequence as d's C type: into an integer (or
    bool) type through __index__, which refuses a non-integer tensor, into a real type refusing
    a Python complex (a complex tensor's item, or any complex into an integer type)."""
    for x in _leaves(data):
        if isinstance(x, Tensor):
            if d._cat < 2 and (x._data.dtype.kind not in "biu" or x._data.size != 1):
                raise TypeError(_NOT_INDEX)
            if x.dtype.is_complex and x._data.size == 1 and complex(x._data).imag != 0:
                raise RuntimeError("value cannot be converted to type double without overflow")
        elif isinstance(x, (complex, np.complexfloating)) and d._cat:
            if d._cat == 1:
                name = "complex" if type(x) is complex else f"numpy.{type(x).__name__}"
                raise TypeError(f"'{name}' object cannot be interpreted as an integer")
            if type(x) is complex:
                raise TypeError("must be real number, not complex")


def _check_first_unsized(data: Any) -> None:
    """torch reads the sizes from the first element at each depth, as sequences: a 0-d array
    there is one without a length (`torch.tensor([np.array(1.0)])`)."""
    x = data[0] if data else None
    while type(x) is list or type(x) is tuple:
        x = x[0] if x else None
    if isinstance(x, np.ndarray) and x.ndim == 0:
        raise TypeError("len() of unsized object")


def _check_first_str(data: Any) -> None:
    """torch reads the sizes from the first element at each depth before the dtype; a str is a
    sequence to it, so a non-empty one there nests until its dimension limit."""
    x = data
    while isinstance(x, (list, tuple)) and x:
        x = x[0]
    if x is not data and isinstance(x, str) and x:
        raise ValueError("too many dimensions 'str'")


def _first_shape(data: Any) -> list[int]:
    """The shape torch gives nested data: the lengths of the first elements at each depth."""
    shape = []
    x = data
    while isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim):
        shape.append(len(x))
        if not len(x):
            break
        x = x[0]
    return shape


def _check_nested(data: Any, inferred: D.dtype, d: D.dtype | None = None) -> None:
    """Raise torch's error for nested data that is not a rectangular block of numbers: the
    shape comes from the first element at each depth, as torch reads it."""
    shape = _first_shape(data)

    def walk(x: Any, dim: int) -> None:
        if dim == len(shape):
            if isinstance(x, Tensor) and x._data.size != 1:  # read as a number, in order
                if (d or inferred)._cat < 2:
                    raise TypeError(_NOT_INDEX)
                raise ValueError("only one element tensors can be converted to Python scalars")
            if isinstance(x, (list, tuple)):  # read as the target dtype's C type
                if (d or inferred)._cat >= 2:
                    raise TypeError(f"must be real number, not {type(x).__name__}")
                raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
            if isinstance(x, str):
                raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
            return
        if isinstance(x, (Tensor, np.ndarray)) and x.ndim:  # torch iterates these
            x = list(x._data if isinstance(x, Tensor) else x)
        if not isinstance(x, (list, tuple)):
            raise TypeError("not a sequence")
        if len(x) != shape[dim]:
            raise ValueError(
                f"expected sequence of length {shape[dim]} at dim {dim} (got {len(x)})"
            )
        for y in x:
            walk(y, dim + 1)

    walk(data, 0)


def _checked_ints(nested: Any, d: D.dtype, from_floats: bool) -> np.ndarray:
    """Python numbers into an integer dtype as torch converts them: a value out of a signed
    type's range, or above an unsigned type's maximum, raises; a negative value wraps into an
    unsigned type; floats truncate."""
    if d is D.bool_:
        return D.quietly(np.array, nested, dtype=np.bool_)
    try:
        arr = np.array(nested, dtype=d._np) if not from_floats else None
    except OverflowError:
        arr = None
    if arr is not None:
        return arr
    obj = np.array(nested, dtype=object)
    if obj.dtype != object:  # numpy scalars inside: convert element by element below
        obj = obj.astype(object)
    info = np.iinfo(d._np)
    name = d._name
    out = []
    for v in obj.ravel():
        if isinstance(v, (float, np.floating)):
            if not np.isfinite(v):
                raise RuntimeError(f"value cannot be converted to type {name} without overflow")
            v = int(v)
        v = int(v)
        if d is D.uint64:  # torch reads each element as an unsigned 64-bit integer
            if not 0 <= v < 1 << 64:
                raise OverflowError(
                    "can't convert negative int to unsigned" if v < 0 else "int too big to convert"
                )
            out.append(v)
            continue
        if v > 2**63 - 1 or v < -(2**63):
            raise ValueError("Overflow when unpacking long long")
        if v > info.max or (info.min < 0 and v < info.min):
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        out.append(v % (info.max + 1) if v < 0 and info.min == 0 else v)
    return np.array(out, dtype=d._np).reshape(obj.shape)


def as_tensor(data: Any, dtype: D.dtype | None = None, device: Any = None) -> Tensor:
    """Share data where possible. Mirrors `torch.as_tensor`."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("as_tensor", dtype)
    check_device(device)
    if isinstance(data, Tensor):
        if type(data) is not Tensor:
            return _subclass_as_tensor(data, dtype)
        return data if dtype is None or dtype is data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray):
        _check_np_strides(data)
        d = dtype or D.from_numpy_dtype(data.dtype)
        if data.dtype == d._np:
            t = _make(_own_extent(data))
        else:
            t = _make(D.quietly(data.astype, d._np))
        _warn_not_writable(data)
        return t
    return tensor(data, dtype=dtype)


def _subclass_as_tensor(data: Tensor, dtype: D.dtype | None) -> Tensor:
    """as_tensor of a subclass instance, as torch's C++: itself, or a plain Tensor of the
    dtype, without its __torch_function__."""
    from .overrides import DisableTorchFunctionSubclass

    with DisableTorchFunctionSubclass():
        return data if dtype is None or dtype is data.dtype else data.to(dtype)


_RG_UNSET: Any = object()


def asarray(
    obj: Any,
    *,
    dtype: D.dtype | None = None,
    device: Any = None,
    copy: bool | None = None,
    requires_grad: bool = _RG_UNSET,
) -> Tensor:
    """Mirrors `torch.asarray`: a tensor or array shared unless `copy` or a dtype asks for a
    copy (copy=False refuses one); requires_grad, left out, is the tensor's own (with torch's
    once-per-process warning where that is True), and is set on the result, which may be obj
    itself, as torch sets it."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("asarray", dtype)
    check_device(device)
    if requires_grad is _RG_UNSET:
        requires_grad = isinstance(obj, Tensor) and obj.requires_grad
        if requires_grad:
            warn_once(
                "asarray requires_grad",
                "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad "
                "instead of False. Pass requires_grad=False explicitly to get the old behavior "
                "and silence this warning.",
            )
    if isinstance(obj, np.ndarray) and obj.dtype != object:
        arr = obj
        obj = public_from_numpy(arr)
    elif isinstance(obj, (bytes, bytearray, memoryview)):  # the buffer protocol: shared
        obj = frombuffer(obj, dtype=dtype or D.get_default_dtype())
    if not isinstance(obj, Tensor):
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        return tensor(obj, dtype=dtype, requires_grad=requires_grad)
    wrong_dtype = dtype is not None and dtype is not obj.dtype
    if copy or (copy is None and wrong_dtype):
        r = obj.to(dtype, copy=True) if wrong_dtype else obj.clone()
    elif wrong_dtype:
        raise ValueError(
            f"can't alias tensor with dtype '{obj.dtype._short}' into dtype '{dtype._short}'."
        )
    else:
        r = obj
    if requires_grad != r.requires_grad and r.is_leaf:
        if requires_grad and r.dtype._cat < 2:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        r.requires_grad_(requires_grad)
    elif not requires_grad and r.requires_grad:
        r = r.detach()  # a non-leaf: an alias without its history (obj keeps it)
    return r


_NOT_WRITABLE = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
    "This means writing to this tensor will result in undefined behavior. You may want to copy "
    "the array to protect its data or make it writable before converting it to a tensor. This "
    "type of warning will be suppressed for the rest of this program."
)


def _warn_not_writable(a: np.ndarray) -> None:
    """torch's once-per-process warning for a tensor sharing a read-only array."""
    if not a.flags.writeable:
        warn_once("numpy not writable", _NOT_WRITABLE, stacklevel=4)


def _own_extent(a: np.ndarray) -> np.ndarray:
    """a, over a buffer of its own bytes alone: a tensor made from a numpy view has those for
    its storage (torch's from_numpy: the storage starts at the view's first element and ends
    after its last), not the whole array the view was cut from. The same memory, a view that
    numpy's base chain no longer leads past (UntypedStorage walks that chain)."""
    root = a.base
    if not isinstance(root, np.ndarray) or not a.size:
        return a
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        return a
    start = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    extent = sum((n - 1) * st for n, st in zip(a.shape, a.strides, strict=True)) + a.itemsize
    if start == 0 and extent == root.nbytes:
        return a
    flat = root.reshape(-1, order="A").view(np.uint8)[start : start + extent]
    own = np.frombuffer(memoryview(flat), np.uint8)  # its base: the memoryview
    return np.ndarray(a.shape, a.dtype, own, 0, a.strides)


def public_from_numpy(ndarray: np.ndarray) -> Tensor:
    """Share the array's memory. Mirrors `torch.from_numpy` (shadowgrad's own code calls
    from_numpy, which does not warn of its read-only arrays)."""
    if isinstance(ndarray, np.ndarray) and ndarray.dtype is D.LD:
        D.from_numpy_dtype(ndarray.dtype)  # numpy's longdouble: torch's TypeError
    t = from_numpy(ndarray)
    _warn_not_writable(ndarray)
    if t._data.base is not None:
        t._data = _own_extent(t._data)
    return t


public_from_numpy.__name__ = public_from_numpy.__qualname__ = "from_numpy"


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """Share the array's memory. Mirrors `torch.from_numpy`."""
    if not isinstance(ndarray, np.ndarray):
        t = type(ndarray)  # its C name: numpy's types name their module
        name = f"numpy.{t.__name__}" if t.__module__ == "numpy" else t.__name__
        raise TypeError(f"expected np.ndarray (got {name})")
    _check_np_strides(ndarray)
    if ndarray.dtype is not D.LD:  # (shadowgrad's own bfloat16 arrays; the public one refuses)
        D.from_numpy_dtype(ndarray.dtype)
    return _make(ndarray)


def _check_np_strides(a: np.ndarray) -> None:
    """torch's tensor_from_numpy refuses negative strides and a non-native byte order
    (tensor() and as_tensor() too)."""
    if not a.dtype.isnative:
        raise ValueError(
            "given numpy array has byte order different from the native byte order. Conversion "
            "between byte orders is currently not supported."
        )
    if min(a.strides, default=0) < 0:
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) "
        )


class _Capsule:
    """A DLPack capsule (torch.utils.dlpack.to_dlpack's result) handed to numpy's consumer."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


_BAD_CAPSULE = (
    "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only "
    "once, so you might have already constructed a tensor from it once."
)


def from_dlpack(ext_tensor: Any, *, device: Any = None, copy: bool | None = None) -> Tensor:
    """A tensor over the memory of an object exporting DLPack (a shadowgrad or torch tensor, a
    numpy array, a capsule). Mirrors `torch.from_dlpack`: the result shares the memory (unless
    copy=True) but has a version counter of its own, and its storage starts at its first
    element."""
    if device is not None:
        check_device(device)
        d = device.type if hasattr(device, "type") else str(device).split(":")[0]
        if d != "cpu":
            raise BufferError(f"Cannot pack tensors on {d}")
    if isinstance(ext_tensor, Tensor):
        ext_tensor._check_dlpack()  # requires grad, a conjugate bit
        arr = ext_tensor._data
    elif hasattr(ext_tensor, "__dlpack__"):
        arr = np.from_dlpack(ext_tensor)
    elif type(ext_tensor).__name__ == "PyCapsule":
        try:
            arr = np.from_dlpack(_Capsule(ext_tensor))
        except (RuntimeError, ValueError, BufferError, TypeError):
            raise RuntimeError(_BAD_CAPSULE) from None
    else:
        raise RuntimeError(_BAD_CAPSULE)
    if copy:
        return _make(arr.copy())
    return _make(_own_extent(arr))


def _size(size: Sequence[Any]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = int(s.item())
        if not isinstance(s, (int, np.integer)):
            raise TypeError(
                f"empty(): argument 'size' (position 1) must be tuple of ints, but found element "
                f"of type {type(s).__name__} at pos {len(out)}"
            )
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        out.append(int(s))
    return tuple(out)


def _int_like(v: Any) -> bool:
    if isinstance(v, Tensor):
        return not (v.dtype.is_floating_point or v.dtype.is_complex)
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def check_int_list(fn: str, param: str, args: tuple[Any, ...], pos: int) -> None:
    """torch's argument-parser errors for a tuple-of-ints parameter that may also be given as
    varargs (`zeros(2.0)`, `x.reshape(n / 2, -1)`): a TypeError, never a truncated size."""
    if len(args) > 1:
        if not _int_like(args[0]):
            raise TypeError(f"{fn}() takes {pos} positional argument but {len(args)} were given")
        seq: Any = args
    elif not args:
        return
    elif isinstance(args[0], (tuple, list)):
        seq = args[0]
    elif _int_like(args[0]):
        return
    else:
        from ._to_args import parser_type_name

        raise TypeError(
            f"{fn}(): argument '{param}' (position {pos}) must be tuple of ints, not "
            f"{parser_type_name(args[0])}"
        )
    if seq and not _int_like(seq[0]):
        raise TypeError(
            f"{fn}(): argument '{param}' (position {pos}) must be tuple of ints, but found "
            f"element of type {type(seq[0]).__name__} at pos 0"
        )
    for i, v in enumerate(seq[1:], 2):  # (past the first, torch's unpacking takes a bool)
        if not _int_like(v) and v.__class__ is not bool:
            raise TypeError(
                f"{fn}(): argument '{param}' failed to unpack the object at pos {i} with error "
                f'"type must be tuple of ints,but got {type(v).__name__}"'
            )


def _size_keyword_check(name: str, size: Any) -> None:
    """size= as torch's parser reads a keyword int list: a tuple or list of ints (a bare int,
    or a list with an element that is no int: torch names the value's type)."""
    if not isinstance(size, (tuple, list)) or not all(_int_like(v) for v in size):
        raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {_tp_name(size)}")


def size_arg(name: str, args: tuple[Any, ...], size: Any) -> tuple[Any, ...]:
    """A factory's size, given as varargs, one sequence, or the `size=` keyword; torch
    requires one."""
    if size is not None:
        if args:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        if not isinstance(size, (tuple, list)) or not all(type(v) is int for v in size):
            _size_keyword_check(name, size)
        return (size,)
    if not args:
        if name in ("rand", "randn"):
            sig = (
                "torch.dtype dtype = None, torch.layout layout = None, torch.device device = "
                "None, bool pin_memory = False, bool requires_grad = False)"
            )
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got (), but expected "
                "one of:\n * (tuple of ints size, *, torch.Generator generator, Tensor out = "
                f"None, {sig}\n * (tuple of ints size, *, Tensor out = None, {sig}\n"
            )
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    if not all(type(v) is int for v in args):
        if len(args) == 1 and isinstance(args[0], Tensor) and args[0].ndim:
            raise TypeError(
                f"{name}(): argument 'size' (position 1) must be tuple of ints, not Tensor"
            )
        check_int_list(name, "size", args, 1)
    return args


# the Python types torch's parser reads as dtypes
_PY_DTYPES: dict[Any, D.dtype] = {
    float: D.float64,
    int: D.int64,
    bool: D.bool_,
    complex: D.complex128,
}


def dtype_arg(name: str, dtype: Any) -> D.dtype:
    """A `dtype=` that is not a torch.dtype: a Python type torch's parser reads as one, or its
    TypeError."""
    r = _PY_DTYPES.get(dtype) if isinstance(dtype, type) else None
    if r is None:
        check_dtype_arg(name, dtype)
    return r  # type: ignore[return-value]


def check_dtype_arg(name: str, dtype: Any) -> None:
    """torch's argument-parser error for a `dtype=` that is not a torch.dtype."""
    if dtype is not None and type(dtype) is not D.dtype:
        raise TypeError(
            f"{name}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}"
        )


def _factory(
    fill: Any, size: Sequence[Any], dtype: D.dtype | None, requires_grad: bool, name: str = ""
) -> Tensor:
    if dtype is not None and type(dtype) is not D.dtype:
        check_dtype_arg(name, dtype)
    if (
        requires_grad is not False
        and requires_grad is not True
        and requires_grad is not None  # (bool? requires_grad: None too)
        and name
    ):
        _bool_refused(name, "requires_grad", requires_grad)
    d = dtype or D.get_default_dtype()
    shape = _size(size)
    if type(fill) is int and d._cat == 1:
        fill = D.wrapped_int(fill, d._np)  # -1 into uint8 wraps, as in torch
    try:
        if fill is None:
            arr = np.empty(shape, d._np)
        elif d is D.float16:  # beyond half's range: inf, silently
            arr = D.quiet(np.full, shape, fill, d._np)
        else:
            arr = np.full(shape, fill, d._np)
    except (ValueError, MemoryError):
        if math.prod(shape) * d.itemsize >= 1 << 63:
            raise RuntimeError(
                f"Storage size calculation overflowed with sizes={list(shape)}"
            ) from None
        raise
    return _finish(arr, requires_grad)


def _into_out(
    name: str, out: Tensor, dtype: D.dtype | None, requires_grad: bool, make: Any
) -> Tensor:
    """A factory's out= form: the result is made in out's dtype (a different dtype= is refused)
    and written into out, resized to it."""
    from ._grad_mode import is_grad_enabled

    if out.requires_grad and is_grad_enabled():
        raise RuntimeError(
            f"aten::{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(
            f"dtype {dtype._short} does not match dtype of out parameter ({out.dtype._short})"
        )
    r = make(out.dtype)._data
    if out._data.shape == r.shape:
        np.copyto(out._data, r)
    else:
        out._data = r
    out._bump()
    if requires_grad:
        out.requires_grad_(True)
    return out


def zeros(
    *args: Any,
    size: Any = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.zeros`."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("zeros", dtype)
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("zeros", pin_memory)
    sz = size_arg("zeros", args, size)
    dims = sz[0] if len(sz) == 1 and isinstance(sz[0], (tuple, list)) else sz
    if any(isinstance(s, (int, np.integer)) and s < 0 for s in dims):
        # torch's zeros checks its sizes itself, with its own wording
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    if out is not None:
        return _into_out("zeros", out, dtype, requires_grad, lambda d: _factory(0, sz, d, False))
    return _factory(0, sz, dtype, requires_grad, "zeros")


def ones(
    *args: Any,
    size: Any = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.ones`."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("ones", dtype)
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("ones", pin_memory)
    sz = size_arg("ones", args, size)
    if out is not None:
        return _into_out("ones", out, dtype, requires_grad, lambda d: _factory(1, sz, d, False))
    return _factory(1, sz, dtype, requires_grad, "ones")


def empty(
    *args: Any,
    size: Any = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.empty` (the values are zeros here, never garbage)."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("empty", dtype)
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("empty", pin_memory)
    sz = size_arg("empty", args, size)
    if out is not None:
        return _into_out("empty", out, dtype, requires_grad, lambda d: _factory(0, sz, d, False))
    if memory_format is not None:
        return _empty_formatted(sz, dtype, requires_grad, memory_format)
    return _factory(0, sz, dtype, requires_grad, "empty")


def _empty_formatted(sz: Any, dtype: Any, requires_grad: bool, fmt: Any) -> Tensor:
    """torch.empty(..., memory_format=fmt): channels-last strides where the rank allows."""
    from ._formats import channels_last, channels_last_3d, formatted, preserve_format

    t = _factory(0, sz, dtype, False, "empty")
    if fmt is preserve_format:
        raise RuntimeError("unsupported memory format Preserve")
    for f, rank, name in ((channels_last, 4, "channels_last"), (channels_last_3d, 5, "")):
        if fmt is f and t.ndim != rank:
            raise RuntimeError(
                f"required rank {rank} tensor to use {name or 'channels_last_3d'} format"
            )
    return _finish(formatted(t, fmt)._data, requires_grad)


_NO_VALUE: Any = object()


def full(
    size: Sequence[int],
    fill_value: Any = _NO_VALUE,
    *,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.full`: the dtype follows fill_value when not given."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("full", dtype)
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("full", pin_memory)
    if not isinstance(size, (tuple, list)):  # full's size is a sequence, never varargs
        raise TypeError(
            f"full(): argument 'size' (position 1) must be tuple of ints, not {_tp_name(size)}"
        )
    check_int_list("full", "size", (size,), 1)
    if fill_value is _NO_VALUE:
        raise TypeError('full() missing 1 required positional arguments: "fill_value"')
    check_dtype_arg("full", dtype)
    if isinstance(fill_value, Tensor):
        if fill_value.ndim or fill_value.requires_grad:
            raise TypeError("full(): argument 'fill_value' (position 2) must be Number, not Tensor")
        fill_value = fill_value.item()
    elif not isinstance(fill_value, (bool, int, float, complex, np.generic)):
        raise TypeError(
            "full(): argument 'fill_value' (position 2) must be Number, not "
            f"{type(fill_value).__name__}"
        )
    if out is not None:
        return _into_out(
            "full", out, dtype, requires_grad, lambda d: full(size, fill_value, dtype=d)
        )
    d = dtype or D.scalar_dtype(fill_value)
    if d is not D.float16 or math.prod(size) != 1:  # (as full_like's)
        D.check_scalar_fits(fill_value, d)
    return _factory(fill_value, (tuple(size),), d, requires_grad)


def eye(
    n: int,
    m: int | None = None,
    *,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.eye`."""
    if dtype is not None and type(dtype) is not D.dtype:
        factory_keywords("eye", (n, m), {"dtype": dtype})
        dtype = dtype_arg("eye", dtype)
    if (
        (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        factory_keywords(
            "eye",
            (n, m),
            {"device": device, "pin_memory": pin_memory, "requires_grad": requires_grad},
        )
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("eye", pin_memory)
    if type(n) is not int or (m is not None and type(m) is not int):
        _eye_arg_error(n, m)
        n, m = int(n), None if m is None else int(m)
    for name, v in (("n", n), ("m", m)):
        if v is not None and v < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {v}")
    if out is not None:
        return _into_out("eye", out, dtype, requires_grad, lambda d: eye(n, m, dtype=d))
    d = dtype or D.get_default_dtype()
    return _finish(np.eye(n, n if m is None else m, dtype=d._np), requires_grad)


def _eye_arg_error(n: Any, m: Any) -> None:
    def is_int(v: Any) -> bool:
        if isinstance(v, Tensor):  # torch's parser reads a one-element integer tensor as an int
            return v._data.size == 1 and v.dtype._cat == 1
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    if is_int(n) and (m is None or is_int(m)):
        return
    if m is None:
        raise TypeError(f"eye(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    rest = (
        "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool "
        "pin_memory = False, bool requires_grad = False)"
    )
    raise TypeError(
        f"eye() received an invalid combination of arguments - got ({type(n).__name__}, "
        f"{type(m).__name__}), but expected one of:\n * (int n, *, Tensor out = None, {rest}\n"
        f" * (int n, int m, *, Tensor out = None, {rest}\n"
    )


def arange(
    start: Any = _NO_VALUE,
    end: Any = None,
    step: Any = 1,
    *,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.arange`: int64 for integer arguments, the default dtype otherwise."""
    if dtype is not None and type(dtype) is not D.dtype:
        if not (isinstance(dtype, type) and dtype in _PY_DTYPES):
            given = [start] if end is None else [start, end] if step == 1 else [start, end, step]
            raise _arange_arg_error([*given, dtype])
        dtype = _PY_DTYPES[dtype]
    if (
        (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        factory_keywords(
            "arange",
            (start, end, step),
            {"device": device, "pin_memory": pin_memory, "requires_grad": requires_grad},
        )
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("arange", pin_memory)
    if start is _NO_VALUE:  # arange(end=5); torch's errors for no bound
        if end is None:
            if step == 1:
                raise _arange_arg_error([])
            raise TypeError('arange() missing 1 required positional arguments: "end"')
        if step != 1:  # no overload takes end and step without start (keywords reversed)
            got = f"step={type(step).__name__}, end={type(end).__name__}, "
            raise TypeError(str(_arange_arg_error([])).replace("got ()", f"got ({got})"))
        start, end = end, None
    if end is None:
        if not isinstance(start, (int, float, complex, np.number, Tensor)) or _grad_number(start):
            raise TypeError(
                f"arange(): argument 'end' (position 1) must be Number, not {type(start).__name__}"
            )
        start, end = 0, start
    elif _grad_number(start) or _grad_number(end) or _grad_number(step):
        given = [start, end] if step == 1 else [start, end, step]
        raise _arange_arg_error(given if dtype is None else [*given, dtype])
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    start, end, step = vals
    if out is not None and dtype is None:
        dtype = out.dtype
    if dtype is not None or any(isinstance(v, (complex, np.complexfloating)) for v in vals):
        _check_range_args("arange", dtype, vals)
    if not step > 0 and not step < 0:  # a nan step too
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0 and end != start:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_float = any(isinstance(v, (float, np.floating)) for v in vals)
        dtype = D.get_default_dtype() if is_float else D.int64
    if dtype is D.int64 and not all(isinstance(v, (int, np.integer)) for v in vals):
        # torch sizes an int64 arange from the bounds and step truncated to integers
        xs, xe, xst = int(start), int(end), int(step)
        if xst == 0:
            raise ValueError("step must be nonzero")
        num = xe - xs + xst - (1 if xst > 0 else -1)
        n = max(abs(num) // abs(xst) * (1 if (num >= 0) == (xst > 0) else -1), 0)
    else:
        n = max(math.ceil((end - start) / step), 0)
    if n > _INT64_MAX:
        raise RuntimeError("invalid size, possible overflow?")
    if dtype.is_floating_point:
        arr = (start + step * np.arange(n, dtype=np.float64)).astype(dtype._np)
    else:
        # torch's kernel works in the dtype's accumulate type (int64): start and step are
        # truncated to integers first, so arange(0, 2, 0.5, dtype=int) is all zeros
        arr = (int(start) + int(step) * np.arange(n, dtype=np.int64)).astype(dtype._np)
    if out is not None:
        return _arange_out(arr, out)
    return _finish(arr, requires_grad)


_INT64_MAX = (1 << 63) - 1


def _kw_type(v: Any) -> str:
    return "torch.dtype" if isinstance(v, D.dtype) else type(v).__name__


def _grad_number(v: Any) -> bool:
    """A tensor requiring grad, which torch's parser does not read as a Number."""
    return isinstance(v, Tensor) and v.requires_grad


def _arange_arg_error(args: list[Any]) -> TypeError:
    """torch's overload error for arange (a last dtype-like value is the dtype= keyword)."""
    if args and (isinstance(args[-1], (D.dtype, type, str)) or args[-1] is None):
        got = ", ".join(type(a).__name__ for a in args[:-1]) + f", dtype={_kw_type(args[-1])}"
    else:
        got = ", ".join(type(a).__name__ for a in args)
    rest = (
        "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool "
        "pin_memory = False, bool requires_grad = False)"
    )
    return TypeError(
        f"arange() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n * (Number end, *, Tensor out = None, {rest}\n * (Number start, Number end, *, "
        f"{rest}\n * (Number start, Number end, Number step = 1, *, Tensor out = None, {rest}\n"
    )


def _check_range_args(name: str, dtype: D.dtype | None, vals: Any) -> None:
    """arange's and range's kernels, dispatched on the dtype before they read the numbers:
    none for bool or complex, and a complex bound or step does not convert to the double the
    kernel reads it as first."""
    d = dtype or D.get_default_dtype()
    if d is D.bool_ or d.is_complex:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{d._short}'")
    if any(isinstance(v, (complex, np.complexfloating)) for v in vals):
        raise RuntimeError("value cannot be converted to type double without overflow")


def _arange_out(arr: np.ndarray, out: Tensor) -> Tensor:
    n = arr.shape[0]
    if out._data.size != n:
        if out._data.size:
            warnings.warn(
                f"The number of elements in the out tensor of shape {list(out._data.shape)} is "
                f"{out._data.size} which does not match the computed number of elements {n}. "
                "Note that this may occur as a result of rounding error. The out tensor will be "
                f"resized to a tensor of shape ({n},).",
                UserWarning,
                stacklevel=3,
            )
        out._data = np.empty((n,), out._data.dtype)
    np.copyto(out._data, arr.reshape(out._data.shape), casting="unsafe")  # a 2-d out keeps it
    out._bump()
    return out


def linspace_in(t: Any, start: float, end: float, steps: int) -> np.ndarray:
    """torch's linspace kernel in dtype t (the first half from start, the second from end),
    for linspace and histogram's edges: its vectorized multiply-adds round once, emulated here
    in a wider type."""
    lo, hi = t(start), t(end)
    step = (hi - lo) / t(steps - 1)
    w = np.float64 if t is np.float32 else np.longdouble
    i = np.arange(steps)
    head = w(lo) + w(step) * i
    tail = w(hi) - w(step) * (steps - 1 - i)
    return np.where(i < steps // 2, head, tail).astype(t)


def _space_arg_error(name: str, base: str, *args: Any) -> None:
    got = ", ".join(type(a).__name__ for a in args if a is not _NO_STEPS)
    rest = (
        f"int steps, {base}*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
        "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)"
    )
    lines = "".join(
        f" * ({a} start, {b} end, {rest}\n"
        for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"))
    )
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n{lines} * (Number start, Number end, {rest}\n"
    )


_NO_STEPS: Any = object()


class _SpaceKernel:
    """The kernel name linspace's errors give (logspace checks its arguments through it)."""

    name = "linspace"


_space_kernel = _SpaceKernel()


def linspace(
    start: Any,
    end: Any,
    steps: int = _NO_STEPS,
    *,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.linspace`."""
    if dtype is not None and type(dtype) is not D.dtype:
        factory_keywords("linspace", (start, end, steps), {"dtype": dtype})
        dtype = dtype_arg("linspace", dtype)
    if (
        (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        factory_keywords(
            "linspace",
            (start, end, steps),
            {"device": device, "pin_memory": pin_memory, "requires_grad": requires_grad},
        )
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("linspace", pin_memory)
    int_steps = isinstance(steps, (int, np.integer)) and not isinstance(steps, bool)
    if not int_steps and not (
        isinstance(steps, Tensor) and steps.ndim == 0 and steps.dtype._cat == 1
    ):
        _space_arg_error("linspace", "", start, end, steps)
    for what, v in (("start", start), ("end", end)):
        if isinstance(v, Tensor) and v.ndim:
            raise RuntimeError(
                "linspace only supports 0-dimensional start and end tensors, but got "
                f"{what} with {v.ndim} dimension(s)."
            )
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    steps = int(steps)
    if out is not None:
        return _into_out(
            _space_kernel.name, out, dtype, requires_grad,
            lambda d: linspace(start, end, steps, dtype=d),
        )  # fmt: skip
    d = dtype or D.get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if d is D.bool_ and steps:
        raise NotImplementedError(f"\"{_space_kernel.name}_cpu\" not implemented for 'Bool'")
    if dtype is None and any(
        isinstance(v, complex) or (isinstance(v, Tensor) and v.dtype.is_complex)
        for v in (start, end)
    ):
        d = D.default_complex()  # complex bounds give a complex result, as in torch
    if d.is_complex:
        lo, hi = complex(start), complex(end)
        idx = np.arange(steps, dtype=np.float64)
        step = (hi - lo) / (steps - 1) if steps > 1 else 0
        arr = np.where(idx < steps // 2, lo + step * idx, hi - step * (steps - 1 - idx))
        return _finish(arr.astype(d._np), requires_grad)
    if steps > 1 and d is D.bfloat16:  # the kernel in bfloat16: each operation rounded
        r = D.round_bf16
        lo, hi = r(float(start)), r(float(end))
        step = r((hi - lo) / (steps - 1))
        i = np.arange(steps)
        head = r(lo + r(step * i))
        tail = r(hi - r(step * (steps - 1 - i)))
        return _finish(np.where(i < steps // 2, head, tail), requires_grad)
    if steps > 1 and d._np.char in "fd":
        # torch's kernel in the dtype itself, bit for bit
        return _finish(linspace_in(d._np.type, float(start), float(end), steps), requires_grad)
    arr = np.linspace(float(start), float(end), steps, dtype=np.float64)
    # torch computes the second half from the end so the last value is exact
    if steps > 1:
        step = (float(end) - float(start)) / (steps - 1)
        half = steps // 2
        idx = np.arange(steps, dtype=np.float64)
        arr = np.where(idx < half, float(start) + step * idx, float(end) - step * (steps - 1 - idx))
    return _finish(arr.astype(d._np), requires_grad)


def _like(t: Tensor, dtype: D.dtype | None) -> tuple[tuple[int, ...], D.dtype]:
    return tuple(t._data.shape), dtype or t.dtype


def zeros_like(
    input: Tensor,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.zeros_like`."""
    if pin_memory is not False:
        pin_memory_arg("zeros_like", pin_memory)
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("zeros_like", dtype)
    shape, d = _like(input, dtype)
    return like_layout(_factory(0, (shape,), d, requires_grad), input, memory_format)


def ones_like(
    input: Tensor,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.ones_like`."""
    if pin_memory is not False:
        pin_memory_arg("ones_like", pin_memory)
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("ones_like", dtype)
    shape, d = _like(input, dtype)
    return like_layout(_factory(1, (shape,), d, requires_grad), input, memory_format)


def empty_like(
    input: Tensor,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.empty_like`."""
    if pin_memory is not False:
        pin_memory_arg("empty_like", pin_memory)
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("empty_like", dtype)
    shape, d = _like(input, dtype)
    return like_layout(_factory(0, (shape,), d, requires_grad), input, memory_format)


def full_like(
    input: Tensor,
    fill_value: Any,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.full_like`."""
    if pin_memory is not False:
        pin_memory_arg("full_like", pin_memory)
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("full_like", dtype)
    if isinstance(fill_value, Tensor):
        if fill_value.ndim or fill_value.requires_grad:
            raise TypeError(
                "full_like(): argument 'fill_value' (position 2) must be Number, not Tensor"
            )
        fill_value = fill_value.item()
    elif not isinstance(fill_value, (bool, int, float, complex, np.generic)):
        raise TypeError(
            "full_like(): argument 'fill_value' (position 2) must be Number, not "
            f"{type(fill_value).__name__}"
        )
    shape, d = _like(input, dtype)
    if d is not D.float16 or math.prod(shape) != 1:  # torch's fill_ of one half element
        D.check_scalar_fits(fill_value, d)  # converts the value through float, unchecked
    return like_layout(_factory(fill_value, (shape,), d, requires_grad), input, memory_format)


def _legacy_new(cls: type, *args: Any, **kwargs: Any) -> Tensor:
    """torch.Tensor(...): default-dtype data from a sequence, an uninitialised shape, or an
    alias of a tensor (of any dtype), with torch.FloatTensor's rules and messages."""
    from ._legacy import _bad_keyword, _construct

    device = kwargs.pop("device", None)
    if kwargs:
        _bad_keyword(args, kwargs)
    t = _construct(D.get_default_dtype(), args, device=device, any_tensor=True)
    if cls is not Tensor:
        t = _retype(t, cls)
    return t


def _retype(t: Tensor, cls: type) -> Tensor:
    new = object.__new__(cls)
    for s in Tensor.__slots__:
        if s not in ("__dict__", "__weakref__") and hasattr(t, s):
            setattr(new, s, getattr(t, s))
    return new  # type: ignore[return-value]


def _size_keyword(name: str, size: tuple[Any, ...], kw: dict[str, Any]) -> tuple[Any, ...]:
    """A new_* method's size given by keyword (`x.new_zeros(size=(2,))`), or torch's error."""
    if "size" not in kw:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw))}'")
    if size:
        raise TypeError(f"{name}() got multiple values for argument 'size'")
    value = kw["size"]
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {_tp_name(value)}")
    return (value,)


def new_methods() -> dict[str, Any]:
    """Tensor.new_* methods: same dtype as self unless given."""

    def new_tensor(
        self: Tensor,
        data: Any,
        *,
        dtype: Any = None,
        device: Any = None,
        requires_grad: bool = False,
    ) -> Tensor:
        if dtype is not None and type(dtype) is not D.dtype:
            dtype = dtype_arg("new_tensor", dtype)  # a Python type (float), or torch's error
        if isinstance(data, Tensor):
            warnings.warn(
                "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
                "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
                "tensor.new_tensor(sourceTensor).",
                UserWarning,
                stacklevel=2,
            )
            data = data.detach()._data
        return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_zeros(
        self: Tensor,
        *size: Any,
        dtype: Any = None,
        device: Any = None,
        requires_grad: bool = False,
        **kw: Any,
    ) -> Tensor:
        if kw:
            size = _size_keyword("new_zeros", size, kw)
        elif not size:
            raise TypeError('new_zeros() missing 1 required positional arguments: "size"')
        if dtype is not None and type(dtype) is not D.dtype:
            dtype = dtype_arg("new_zeros", dtype)  # a Python type (float), or torch's error
        if not all(type(v) is int for v in size):
            check_int_list("new_zeros", "size", size, 1)
        r = _factory(0, size, dtype or self.dtype, requires_grad)
        if type(self._data) is not np.ndarray and getattr(self._data, "_sg_sparse", False):
            return _sparse_new(r)  # a sparse tensor's new_*: sparse, as torch's
        return r

    def new_ones(
        self: Tensor,
        *size: Any,
        dtype: Any = None,
        device: Any = None,
        requires_grad: bool = False,
        **kw: Any,
    ) -> Tensor:
        if kw:
            size = _size_keyword("new_ones", size, kw)
        elif not size:
            raise TypeError('new_ones() missing 1 required positional arguments: "size"')
        if dtype is not None and type(dtype) is not D.dtype:
            dtype = dtype_arg("new_ones", dtype)  # a Python type (float), or torch's error
        if not all(type(v) is int for v in size):
            check_int_list("new_ones", "size", size, 1)
        r = _factory(1, size, dtype or self.dtype, requires_grad)
        if type(self._data) is not np.ndarray and getattr(self._data, "_sg_sparse", False):
            return _sparse_new(r)  # a sparse tensor's new_*: sparse, as torch's
        return r

    def new_empty(
        self: Tensor,
        *size: Any,
        dtype: Any = None,
        device: Any = None,
        requires_grad: bool = False,
        **kw: Any,
    ) -> Tensor:
        if kw:
            size = _size_keyword("new_empty", size, kw)
        elif not size:
            raise TypeError('new_empty() missing 1 required positional arguments: "size"')
        if dtype is not None and type(dtype) is not D.dtype:
            dtype = dtype_arg("new_empty", dtype)  # a Python type (float), or torch's error
        if not all(type(v) is int for v in size):
            check_int_list("new_empty", "size", size, 1)
        r = _factory(0, size, dtype or self.dtype, requires_grad)
        if type(self._data) is not np.ndarray and getattr(self._data, "_sg_sparse", False):
            return _sparse_new(r)  # a sparse tensor's new_*: sparse, as torch's
        return r

    def new_empty_strided(
        self: Tensor,
        size: Any,
        stride: Any,
        *,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        requires_grad: bool = False,
        pin_memory: bool = False,
    ) -> Tensor:
        if dtype is not None and type(dtype) is not D.dtype:
            dtype = dtype_arg("new_empty_strided", dtype)  # a Python type (float), or torch's error
        return empty_strided(size, stride, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_full(
        self: Tensor,
        size: Any,
        fill_value: Any,
        *,
        dtype: Any = None,
        device: Any = None,
        requires_grad: bool = False,
    ) -> Tensor:
        if dtype is not None and type(dtype) is not D.dtype:
            dtype = dtype_arg("new_full", dtype)  # a Python type (float), or torch's error
        if not isinstance(size, (tuple, list)):
            raise TypeError(
                "new_full(): argument 'size' (position 1) must be tuple of ints, not "
                f"{_tp_name(size)}"
            )
        check_int_list("new_full", "size", (size,), 1)
        if isinstance(fill_value, Tensor) and not fill_value.ndim and not fill_value.requires_grad:
            fill_value = fill_value.item()
        elif not isinstance(fill_value, (bool, int, float, complex, np.generic)):
            raise TypeError(
                "new_full(): argument 'fill_value' (position 2) must be Number, not "
                f"{type(fill_value).__name__}"
            )
        D.check_scalar_fits(fill_value, dtype or self.dtype)
        if type(self._data) is not np.ndarray and getattr(self._data, "_sg_sparse", False):
            from .sparse._ops import not_on_sparse

            raise not_on_sparse("fill_.Scalar")  # torch fills a new sparse tensor: refused
        return _factory(fill_value, (tuple(size),), dtype or self.dtype, requires_grad)

    from ._device import like

    return {  # on self's device unless device= is given (_device.like)
        "new_tensor": like(new_tensor),
        "new_zeros": like(new_zeros),
        "new_ones": like(new_ones),
        "new_empty": like(new_empty),
        "new_full": like(new_full),
        "new_empty_strided": like(new_empty_strided),
    }


def logspace(
    start: Any,
    end: Any,
    steps: int,
    base: float = 10.0,
    *,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.logspace`: base raised to evenly spaced exponents."""
    if dtype is not None and type(dtype) is not D.dtype:
        factory_keywords("logspace", (start, end, steps, base), {"dtype": dtype})
        dtype = dtype_arg("logspace", dtype)
    if (
        (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        factory_keywords(
            "logspace",
            (start, end, steps, base),
            {"device": device, "pin_memory": pin_memory, "requires_grad": requires_grad},
        )
    check_device(device)
    if pin_memory is not False:
        pin_memory_arg("logspace", pin_memory)
    if out is not None:
        return _into_out(
            "logspace", out, dtype, requires_grad,
            lambda d: logspace(start, end, steps, base, dtype=d),
        )  # fmt: skip
    d = dtype or D.get_default_dtype()
    _space_kernel.name = "logspace"
    try:
        if d is D.bool_:
            linspace(start, end, steps, dtype=d)
    finally:
        _space_kernel.name = "linspace"
    exps = linspace(start, end, steps, dtype=D.float64)._data
    with np.errstate(all="ignore"):
        arr = np.power(float(base), exps)
    return _finish(arr.astype(d._np), requires_grad)


def scalar_tensor(
    s: Any,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.scalar_tensor`: a 0-d tensor of the default dtype unless given."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("scalar_tensor", dtype)
    check_device(device)
    if isinstance(s, Tensor):
        if s._data.ndim or s.requires_grad:
            raise TypeError("scalar_tensor(): argument 's' (position 1) must be Number, not Tensor")
        s = s.item()
    d = dtype or D.get_default_dtype()
    D.check_scalar_fits(s, d)
    if isinstance(s, (complex, np.complexfloating)) and not d.is_complex:
        s = s.real  # checked: no imaginary part to lose
    return _finish(np.asarray(s).astype(d._np).reshape(()), requires_grad)


def range(
    start: Any,
    end: Any,
    step: Any = 1,
    *,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors the deprecated `torch.range`: both ends included, the default dtype."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("range", dtype)
    warnings.warn(
        "torch.range is deprecated and will be removed in a future release because its "
        "behavior is inconsistent with Python's range builtin. Instead, use torch.arange, "
        "which produces values in [start, end).",
        UserWarning,
        stacklevel=2,
    )
    check_device(device)
    _check_range_args("range", dtype, (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    d = dtype or D.get_default_dtype()
    n = math.floor((float(end) - float(start)) / float(step)) + 1
    arr = float(start) + float(step) * np.arange(n, dtype=np.float64)
    return _finish(arr.astype(d._np), requires_grad)


def empty_strided(
    size: Sequence[int],
    stride: Sequence[int],
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Mirrors `torch.empty_strided`: the given strides over a new storage just large enough
    (zeros here, never garbage)."""
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = dtype_arg("empty_strided", dtype)
    check_device(device)
    size = tuple(int(s) for s in size)
    stride = tuple(int(s) for s in stride)
    if any(s < 0 for s in size):
        bad = next(s for s in size if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {list(size)}")
    if len(size) != len(stride):
        raise RuntimeError(
            f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
            f"({len(stride)})"
        )
    d = dtype or D.get_default_dtype()
    need = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride, strict=True))
    storage = np.zeros(need, d._np)
    isz = storage.itemsize
    arr = np.lib.stride_tricks.as_strided(storage, size, tuple(s * isz for s in stride))
    return _finish(arr, requires_grad)


def frombuffer(
    buffer: Any,
    *,
    dtype: D.dtype,
    count: int = -1,
    offset: int = 0,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.frombuffer`: a 1-d tensor sharing the memory of a Python buffer.

    Differences: a read-only buffer (bytes) gives a read-only tensor, which numpy refuses to
    write into (torch writes into the buffer)."""
    view = memoryview(buffer)
    length = view.nbytes
    isz = np.dtype(dtype._np).itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if offset < 0 or offset >= length:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
            f"({length} bytes) minus 1"
        )
    if count < 0:
        if (length - offset) % isz:
            raise ValueError(
                f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be "
                f"a multiple of element size ({isz})"
            )
        count = (length - offset) // isz
    elif offset + count * isz > length:
        raise ValueError(
            f"requested buffer length ({count} * {isz} bytes) after offset ({offset} bytes) "
            f"must not be greater than actual buffer length ({length} bytes)"
        )
    if view.readonly:
        warn_once(
            "frombuffer",
            "The given buffer is not writable, and PyTorch does not support non-writable "
            "tensors. This means you can write to the underlying (supposedly non-writable) "
            "buffer using the tensor. You may want to copy the buffer to protect its data or "
            "make it writable before converting it to a tensor. This type of warning will be "
            "suppressed for the rest of this program.",
        )
    arr = np.frombuffer(buffer, dtype=dtype._np, count=count, offset=offset)
    return _finish(arr, requires_grad)


def from_file(
    filename: Any,
    shared: bool | None = None,
    size: int = 0,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
) -> Tensor:
    """Mirrors `torch.from_file`: a 1-d tensor of `size` elements mapped from a file. shared:
    writes go to the file (created or extended as needed); otherwise a private copy-on-write
    mapping (MAP_PRIVATE: the tensor's writes stay in it)."""
    import mmap
    import os

    if device is not None:
        check_device(device)
    dt = dtype or D.get_default_dtype()
    bf16 = dt is D.bfloat16
    npd = np.dtype(np.uint16) if bf16 else np.dtype(dt._np)
    nbytes = size * npd.itemsize
    name = os.fspath(filename)
    if shared:
        fd = os.open(name, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if os.fstat(fd).st_size < nbytes:
                os.ftruncate(fd, nbytes)
            if nbytes == 0:
                arr = np.empty(0, npd)
            else:
                arr = np.frombuffer(mmap.mmap(fd, nbytes), npd, count=size)
        finally:
            os.close(fd)
    else:
        try:
            have = os.path.getsize(name)
        except OSError as e:
            raise RuntimeError(
                f"unable to open file <{name}> in read-only mode: {e.strerror} ({e.errno})"
            ) from None
        if have < nbytes:
            raise RuntimeError(
                f"file <{name}> size <{have}> is smaller than the required mapping size <{nbytes}>"
            )
        if size:  # a private (copy-on-write) mapping, as torch's MAP_PRIVATE
            with open(name, "rb") as f:
                arr = np.frombuffer(mmap.mmap(f.fileno(), nbytes, access=mmap.ACCESS_COPY), npd)
        else:
            arr = np.empty(0, npd)
    if bf16:  # the file holds bfloat16's bits: Note [bfloat16 storage]
        arr = (arr.astype(np.uint32) << 16).view(np.float32).astype(D.LD)
    return _finish(arr, False)


def _on_devices() -> None:
    """The factories make their tensor on the device asked or the default device, the *_like
    functions on their tensor's (see _device.py: the wrapper is a no-op on the cpu)."""
    from . import _device

    g = globals()
    for name in (
        "tensor", "as_tensor", "asarray", "zeros", "ones", "empty", "full", "eye", "arange",
        "linspace", "logspace", "scalar_tensor", "range", "empty_strided",
    ):  # fmt: skip
        g[name] = _device.factory(g[name])
    for name in ("zeros_like", "ones_like", "empty_like", "full_like"):
        g[name] = _device.like(g[name])


_on_devices()


def _sparse_new(r: Tensor) -> Tensor:
    """new_zeros/new_empty of a sparse tensor: a sparse tensor of r's size without entries;
    new_ones: torch's fill_ refusal (sparse/_ops.py)."""
    from .sparse._ops import sparse_like

    like = _make(_empty_sparse(r))
    return sparse_like(r, like._data)


def _empty_sparse(r: Tensor) -> Any:
    from .sparse._array import make

    shape = r._data.shape
    return make(np.zeros((len(shape), 0), np.int64), np.zeros(0, r._data.dtype), shape, True)
