"""Reading files written by torch.save (torch's zip format, used since torch 1.6).

A torch checkpoint is a zip archive `<name>/data.pkl` (a protocol-2 pickle) plus one raw
little-endian file `<name>/data/<key>` per storage. The pickle rebuilds each tensor from a
storage it names by a persistent id `('storage', storage class, key, location, numel)` through
`torch._utils._rebuild_tensor_v2` (or `_v3`, with the dtype, for an untyped storage) and
`_rebuild_parameter`. This module unpickles such a file with an allowlist: torch's globals map
to shadowgrad's (the rebuild functions, the storage classes, `torch.Size`, `torch.device`, the
dtypes), and anything else is refused as torch's own weights_only load refuses it, unless the
user allowed it (`add_safe_globals`) or passed `weights_only=False`. Nothing torch is imported.

Tensors that shared a storage in torch share memory again (views of one array); each gets a
version counter of its own, as torch's loaded tensors do.
"""

from __future__ import annotations

import _compat_pickle
import codecs
import importlib
import pickle
import zipfile
from collections import OrderedDict
from typing import Any

import numpy as np

from . import _dtype as D
from ._size import Size
from ._tensor import Tensor, _make, device

# torch's legacy typed storage classes, by the dtype of their elements
_TYPED_STORAGES = {
    "FloatStorage": D.float32,
    "DoubleStorage": D.float64,
    "HalfStorage": D.float16,
    "BFloat16Storage": D.bfloat16,
    "LongStorage": D.int64,
    "IntStorage": D.int32,
    "ShortStorage": D.int16,
    "CharStorage": D.int8,
    "ByteStorage": D.uint8,
    "BoolStorage": D.bool_,
    "ComplexFloatStorage": D.complex64,
    "ComplexDoubleStorage": D.complex128,
}


class _StorageType:
    """What a storage class in the pickle stands for: its element dtype (None: untyped)."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype


class _Storage:
    """One storage's bytes, and its array of each dtype tensors read it as (made once, so that
    tensors sharing the storage share memory)."""

    def __init__(self, raw: np.ndarray, dtype: Any) -> None:
        self.raw = raw
        self.dtype = dtype
        self.arrays: dict[Any, np.ndarray] = {}

    def as_array(self, dt: Any) -> np.ndarray:
        a = self.arrays.get(dt)
        if a is None:
            if dt is D.bfloat16:  # the bits widened to float32, stored as bfloat16's longdouble
                bits = self.raw.view("<u2").astype(np.uint32) << 16
                a = bits.view(np.float32).astype(D.LD)
            else:
                a = self.raw.view(np.dtype(dt._np).newbyteorder("<"))
                if not a.dtype.isnative:
                    a = a.byteswap().view(a.dtype.newbyteorder("="))
            self.arrays[dt] = a
        return a


def _rebuild(storage: _Storage, offset: int, size: Any, stride: Any, dt: Any) -> np.ndarray:
    flat = storage.as_array(dt)
    if 0 in tuple(size):
        return np.zeros(tuple(size), flat.dtype)
    itemsize = flat.dtype.itemsize
    return np.ndarray(
        tuple(size),
        flat.dtype,
        buffer=flat,
        offset=offset * itemsize,
        strides=tuple(s * itemsize for s in stride),
    )


def _rebuild_tensor_v2(
    storage: _Storage,
    storage_offset: int,
    size: Any,
    stride: Any,
    requires_grad: bool,
    backward_hooks: Any,
    metadata: Any = None,
) -> Tensor:
    return _rebuild_tensor_v3(
        storage, storage_offset, size, stride, requires_grad, backward_hooks, storage.dtype
    )


def _rebuild_tensor_v3(
    storage: _Storage,
    storage_offset: int,
    size: Any,
    stride: Any,
    requires_grad: bool,
    backward_hooks: Any,
    dtype: Any,
    metadata: Any = None,
) -> Tensor:
    t = _make(_rebuild(storage, storage_offset, size, stride, dtype))
    t._bump()  # torch restores a tensor by set_ to its storage: version 1
    if requires_grad:
        t.requires_grad_(True)
    return t


def _rebuild_parameter(data: Tensor, requires_grad: bool, backward_hooks: Any) -> Any:
    from .nn import Parameter

    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(
    data: Tensor, requires_grad: bool, backward_hooks: Any, state: Any
) -> Any:
    return _with_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func: Any, new_type: Any, args: Any, state: Any) -> Any:
    return _with_state(func(*args), state)


def _with_state(obj: Any, state: Any) -> Any:
    """obj with a pickled instance state set: a dict, or (dict, slots) as pickle writes it."""
    if isinstance(state, tuple):
        state = {**(state[0] or {}), **(state[1] or {})}
    for k, v in (state or {}).items():
        setattr(obj, k, v)
    return obj


_TORCH_GLOBALS: dict[str, Any] = {
    "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
    "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
    "torch._utils._rebuild_parameter": _rebuild_parameter,
    "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
    "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
    "torch.Size": Size,
    "torch.device": device,
    "torch.storage.UntypedStorage": _StorageType(None),
    "torch.Tensor": Tensor,
    "torch._tensor.Tensor": Tensor,
    "collections.OrderedDict": OrderedDict,
    "_codecs.encode": codecs.encode,  # how protocol 2 pickles bytes
}


class _TorchUnpickler(pickle.Unpickler):
    def __init__(
        self, fh: Any, zf: zipfile.ZipFile, prefix: str, weights_only: bool, cuda: bool
    ) -> None:
        super().__init__(fh)
        self.zf = zf
        self.prefix = prefix
        self.weights_only = weights_only
        self.cuda = cuda
        self.storages: dict[str, _Storage] = {}

    def find_class(self, module: str, name: str) -> Any:
        from .serialization import _DEFAULT_SAFE, _unsupported_global, _user_safe

        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        full_path = f"{module}.{name}"
        found = _TORCH_GLOBALS.get(full_path)
        if found is not None:
            return found
        if module == "torch" and name in _TYPED_STORAGES:
            return _StorageType(_TYPED_STORAGES[name])
        if module == "torch" and isinstance(getattr(D, name, None), D.dtype):
            return getattr(D, name)
        if full_path in _DEFAULT_SAFE:
            return _DEFAULT_SAFE[full_path]
        user = _user_safe()
        if full_path in user:
            return user[full_path]
        if self.weights_only:
            raise _unsupported_global(name if module == "builtins" else full_path)
        if module == "torch" or module.startswith("torch."):  # torch's classes: shadowgrad's
            module = "shadowgrad" + module[len("torch") :]
            return getattr(importlib.import_module(module), name)
        return super().find_class(module, name)

    def persistent_load(self, pid: Any) -> Any:
        from .serialization import _NO_CUDA

        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        _, storage_type, key, location, _numel = pid
        if self.cuda or (
            isinstance(location, str) and location.startswith("cuda") and not self.cuda_ok
        ):
            raise RuntimeError(_NO_CUDA)
        st = self.storages.get(key)
        if st is None:
            raw = np.frombuffer(bytearray(self.zf.read(f"{self.prefix}data/{key}")), np.uint8)
            st = self.storages[key] = _Storage(raw, storage_type.dtype)
        return st

    cuda_ok = False


def is_torch_archive(zf: zipfile.ZipFile) -> str | None:
    """The record prefix ('<name>/') of a torch.save archive, or None."""
    for n in zf.namelist():
        if n.endswith("data.pkl") and n.count("/") == 1:
            return n[: -len("data.pkl")]
    return None


def load_torch_archive(
    zf: zipfile.ZipFile, prefix: str, weights_only: bool, map_location: Any
) -> Any:
    """Unpickle a torch.save archive (see the module docstring)."""
    import io

    order = zf.read(prefix + "byteorder").decode() if prefix + "byteorder" in zf.namelist() else ""
    data = io.BytesIO(zf.read(prefix + "data.pkl"))
    from .serialization import _maps_to_cuda

    cuda = _maps_to_cuda(map_location)
    u = _TorchUnpickler(data, zf, prefix, weights_only, cuda)
    u.cuda_ok = map_location is not None and not cuda
    if order == "big":
        raise RuntimeError("shadowgrad.load: big-endian torch checkpoints are not supported")
    return u.load()


# --- writing torch's format ------------------------------------------------------------------

_STORAGE_NAMES = {v: k for k, v in _TYPED_STORAGES.items()}
_PLAIN = (str, int, float, bool, complex, bytes, type(None))


class _Global:
    """A torch global the pickle names (GLOBAL module\\nname), written without importing it."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __call__(self, *args: Any) -> Any:  # (pickle's save_reduce wants a callable)
        raise TypeError(f"{self.module}.{self.name} is torch's, not callable here")


def _writable_plainly(obj: Any, seen: set[int]) -> bool:
    """Whether obj holds only what torch's weights_only load reads back as torch wrote it:
    dense CPU tensors and Parameters (no subclass, no conjugate/negative view, no bfloat16
    trickery beyond its bits), containers of them, plain values, sizes, dtypes and devices."""
    if isinstance(obj, (*_PLAIN, D.dtype, device, Size)):
        return True
    if id(obj) in seen:
        return True
    seen.add(id(obj))
    if isinstance(obj, Tensor):
        from .autograd.graph import VersionCounter
        from .nn import Parameter

        if type(obj) not in (Tensor, Parameter) or type(obj._data) is not np.ndarray:
            return False
        if obj._vc is not None and type(obj._vc) is not VersionCounter:
            return False  # a lazy conjugate/negative view
        if obj.__dict__ or (obj._grad_fn is not None):
            return False  # python attributes, or a non-leaf (torch refuses, as shadowgrad's)
        from ._tensor import _storage_root

        a = obj._data
        root = _storage_root(a)
        return (
            isinstance(root, np.ndarray)
            and root.dtype == a.dtype
            and root.flags.c_contiguous
            and (a.dtype.kind in "biufc" or a.dtype == D.LD)
        )
    if type(obj) in (list, tuple, set):
        return all(_writable_plainly(v, seen) for v in obj)
    if type(obj) in (dict, OrderedDict):
        extra = getattr(obj, "__dict__", {})
        if any(k != "_metadata" for k in extra):
            return False
        return all(
            isinstance(k, _PLAIN) and _writable_plainly(v, seen) for k, v in obj.items()
        ) and _writable_plainly(extra.get("_metadata", None), seen)
    return False


class _TorchPickler(pickle._Pickler):  # the Python pickler: its globals are written by hand
    def __init__(self, fh: Any, storages: dict[int, Any]) -> None:
        super().__init__(fh, protocol=2)
        self.storages = storages  # id(root) -> (key, root, dtype)

    def save_global(self, obj: Any, name: Any = None) -> None:
        if isinstance(obj, _Global):
            self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
            self.memoize(obj)
            return
        super().save_global(obj, name)

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, _StorageRef):
            cls = _g("torch", obj.cls) if obj.cls else _g("torch.storage", "UntypedStorage")
            return ("storage", cls, obj.key, "cpu", obj.numel)
        return None

    def save(self, obj: Any, save_persistent_id: bool = True) -> None:
        if isinstance(obj, D.dtype):  # torch pickles a dtype as the global torch.<name>
            obj = _g("torch", str(obj).split(".", 1)[1])
        x = self.memo.get(id(obj))
        if x is not None:  # (a tensor, a global saved before)
            self.write(self.get(x[0]))
            return
        if isinstance(obj, _Global):
            self.save_global(obj)
            return
        r = _torch_reduce(obj, self.storages)
        if r is not None:
            self.save_reduce(*r, obj=obj)
            return
        super().save(obj, save_persistent_id)


class _StorageRef:
    def __init__(self, cls: str | None, key: str, numel: int) -> None:
        self.cls = cls
        self.key = key
        self.numel = numel


_GLOBAL_CACHE: dict[tuple[str, str], _Global] = {}


def _g(module: str, name: str) -> _Global:
    g = _GLOBAL_CACHE.get((module, name))
    if g is None:
        g = _GLOBAL_CACHE[(module, name)] = _Global(module, name)
    return g


def _torch_reduce(obj: Any, storages: dict[int, Any]) -> Any:
    from ._tensor import _storage_root
    from .nn import Parameter

    t = type(obj)
    if t is Size:
        return (_g("torch", "Size"), (tuple(obj),))
    if t is device:
        return (_g("torch", "device"), (str(obj),))
    if t is Parameter or t is Tensor:
        from ._tensor import warn_if_has_hooks

        warn_if_has_hooks(obj)
    if t is Parameter:
        data = _make(obj._data)
        return (_g("torch._utils", "_rebuild_parameter"), (data, obj.requires_grad, OrderedDict()))
    if t is Tensor:
        a = obj._data
        root = _storage_root(a)
        entry = storages.get(id(root))
        dt = obj.dtype
        if entry is None:
            entry = storages[id(root)] = (str(len(storages)), root, dt)
        key = entry[0]
        isz = a.itemsize
        offset = (a.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // isz
        stride = tuple(s // isz for s in a.strides)
        if a.size == 0:  # (numpy's empty arrays keep arbitrary strides; torch's contiguous)
            stride = tuple(int(np.prod(a.shape[i + 1 :])) for i in range(a.ndim))
        cls = _STORAGE_NAMES.get(dt)  # None: untyped, counted in bytes
        ref = _StorageRef(cls, key, root.size if cls else root.nbytes)
        args: tuple[Any, ...] = (ref, offset, Size(a.shape), stride, obj.requires_grad)
        if dt in _STORAGE_NAMES:
            return (_g("torch._utils", "_rebuild_tensor_v2"), (*args, OrderedDict()))
        return (_g("torch._utils", "_rebuild_tensor_v3"), (*args, OrderedDict(), dt))
    return None


def write_torch_archive(obj: Any, zf: zipfile.ZipFile) -> None:
    """Write obj in torch's zip format (the caller checked `_writable_plainly`)."""
    import io
    import random

    storages: dict[int, Any] = {}
    buf = io.BytesIO()
    _TorchPickler(buf, storages).dump(obj)
    prefix = "archive/"
    zf.writestr(prefix + "data.pkl", buf.getvalue())
    zf.writestr(prefix + ".format_version", "1")
    zf.writestr(prefix + ".storage_alignment", "64")
    zf.writestr(prefix + "byteorder", "little")
    for key, root, dt in storages.values():
        if dt is D.bfloat16:  # its longdouble values (bfloat16 already) as bfloat16 bits
            data = (np.ascontiguousarray(root, np.float32).view(np.uint32) >> 16).astype("<u2")
        else:
            data = np.ascontiguousarray(root).astype(root.dtype.newbyteorder("<"), copy=False)
        zf.writestr(prefix + f"data/{key}", data.tobytes())
    zf.writestr(prefix + "version", "3\n")
    zf.writestr(prefix + ".data/serialization_id", str(random.getrandbits(128)))
