"""save and load. Mirrors `torch.save` / `torch.load` with a format that never runs code on load.

A file is a zip archive holding `manifest.json` (the object tree as JSON) and one `.npy` file per
distinct tensor or array (read with `allow_pickle=False`). It stores tensors and Parameters (with
requires_grad), numpy arrays, dicts (any hashable plain keys; OrderedDict and a state dict's
`_metadata` kept), lists, tuples, sets, torch.Size, dtypes, devices, bytes and plain Python
values. A tensor stored twice in one object comes back as one tensor, and tensors that shared
memory (a tensor and its views) share it again, with their shapes and strides, as torch's
storages do.

A weights_only load (the default) refuses numpy arrays and scalars, as torch's does, until
numpy's globals are allowed (`safe_globals([np._core.multiarray._reconstruct, np.ndarray,
np.dtype, <the dtype's class>])`, or `np._core.multiarray.scalar` for a scalar).

Other Python objects (an argparse Namespace or a config object in a checkpoint) are pickled,
their tensors and arrays still stored as above. As torch's `weights_only` load (the default),
loading refuses them with torch's UnpicklingError unless their classes were allowed with
`add_safe_globals` / `safe_globals`; `weights_only=False` unpickles them (running their code).

Whole modules and optimizers are pickled this way too, as torch pickles them: `load` needs
`weights_only=False` for them, as torch's does. Objects pickle can't store (local classes,
lambdas, a module holding a lambda hook) raise pickle's error, as in torch.

`load` also reads files written by torch.save (torch's zip format; `_torch_format.py`), with the
same weights_only rules. `save` writes torch's format itself when the object holds only dense
tensors, Parameters, plain containers and values, sizes, dtypes and devices (what torch's
weights_only load reads), so torch reads those files; anything else goes to the format above.
"""

from __future__ import annotations

import _compat_pickle
import base64
import contextlib
import io
import json
import os
import pickle
import warnings
import zipfile
from collections import Counter, OrderedDict
from typing import Any

import numpy as np

from . import _dtype
from ._creation import from_numpy
from ._size import Size
from ._tensor import Tensor, _make, device

__all__ = [
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "load",
    "safe_globals",
    "save",
]

_FORMAT = "shadowgrad-zip-1"

# globals a weights_only load may unpickle: torch's defaults that can occur in a pickled object
# here (tensors, arrays, sizes, dtypes and devices are stored outside the pickle), and the
# user's additions (Mirrors `torch.serialization.add_safe_globals`)
_DEFAULT_SAFE = {
    "collections.OrderedDict": OrderedDict,
    "collections.Counter": Counter,
    "builtins.set": set,
    "builtins.complex": complex,
    "builtins.bytearray": bytearray,
}
_marked_safe_globals: list[Any] = []

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source."
)
DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)


def add_safe_globals(safe_globals: list[Any]) -> None:
    """Mirrors `torch.serialization.add_safe_globals`."""
    _marked_safe_globals.extend(safe_globals)


def get_safe_globals() -> list[Any]:
    """Mirrors `torch.serialization.get_safe_globals`."""
    return list(_marked_safe_globals)


def clear_safe_globals() -> None:
    """Mirrors `torch.serialization.clear_safe_globals`."""
    _marked_safe_globals.clear()


@contextlib.contextmanager
def safe_globals(safe_globals: list[Any]) -> Any:
    """Mirrors `torch.serialization.safe_globals`."""
    _marked_safe_globals.extend(safe_globals)
    try:
        yield
    finally:
        for g in safe_globals:
            if g in _marked_safe_globals:
                _marked_safe_globals.remove(g)


def _user_safe() -> dict[str, Any]:
    rc: dict[str, Any] = {}
    for f in _marked_safe_globals:
        if isinstance(f, tuple):
            rc[f[1]] = f[0]
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


class _ObjPickler(pickle.Pickler):
    """Pickles an object save() has no entry for; its tensors, arrays, sizes, dtypes and devices
    become manifest entries (persistent ids), so they are stored and shared as elsewhere."""

    def __init__(self, fh: Any, writer: _Writer, protocol: int) -> None:
        super().__init__(fh, protocol=protocol)
        self.writer = writer

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, (Tensor, np.ndarray, np.generic, Size, _dtype.dtype, device)):
            return self.writer.enc(obj)
        return None


class _ObjUnpickler(pickle.Unpickler):
    def __init__(self, fh: Any, reader: _Reader, weights_only: bool) -> None:
        super().__init__(fh)
        self.reader = reader
        self.weights_only = weights_only

    def persistent_load(self, pid: Any) -> Any:
        return self.reader.dec(pid)

    def find_class(self, module: str, name: str) -> Any:
        if not self.weights_only:
            return super().find_class(module, name)
        # protocol 2 (torch's default) names builtins as Python 2 did (__builtin__.xrange)
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        full_path = f"{module}.{name}"
        if full_path in _DEFAULT_SAFE:
            return _DEFAULT_SAFE[full_path]
        user = _user_safe()
        if full_path in user:
            return user[full_path]
        if module == "builtins":
            full_path = name
        elif full_path.startswith("shadowgrad."):
            # torch names its own classes (a saved nn.Module) under torch's module paths
            full_path = "torch." + full_path[len("shadowgrad.") :]
        raise _unsupported_global(full_path)


def _unsupported_global(full_path: str) -> pickle.UnpicklingError:
    """torch's weights_only error for a global its unpickler does not allow."""
    message = (
        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
        f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist "
        "this global if you trust this class/function."
    )
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \033[1mdo those steps only if you trust the source of the checkpoint"
        f"\033[0m. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error "
        "message.\n\tWeightsUnpickler error: " + message + DOCS_MESSAGE
    )


def _check_numpy_allowed(a: np.ndarray, scalar: bool) -> None:
    """A weights_only load refuses numpy arrays and scalars as torch's does (it unpickles them
    from numpy's globals): the first of those globals the user has not allowed, in torch's
    order, then the dtype's class."""
    user = _user_safe()
    first = "numpy._core.multiarray.scalar" if scalar else "numpy._core.multiarray._reconstruct"
    needed = [first] if scalar else [first, "numpy.ndarray"]
    for path in [*needed, "numpy.dtype"]:
        if path not in user:
            raise _unsupported_global(path)
    cls = type(a.dtype)
    if f"{cls.__module__}.{cls.__qualname__}" not in user:
        raise pickle.UnpicklingError(
            f"Weights only load failed. {UNSAFE_MESSAGE}\nPlease file an issue with the "
            "following so that we can make `weights_only=True` compatible with your use case: "
            "WeightsUnpickler error: \n\nCan only build Tensor, Parameter, OrderedDict or types "
            f"allowlisted via `add_safe_globals`, but got {cls}" + DOCS_MESSAGE
        )


class _Writer:
    def __init__(self, zf: zipfile.ZipFile, protocol: int = 2) -> None:
        self.zf = zf
        self.protocol = protocol
        self.memo: dict[int, int] = {}  # id(array) -> its file index
        self.tensors: dict[int, Any] = {}  # id(tensor) -> its tensor_data entry
        self.keep: list[Any] = []  # keeps ids stable while encoding

    def array(self, a: np.ndarray) -> int:
        key = id(a)
        if key in self.memo:
            return self.memo[key]
        idx = len(self.memo)
        self.memo[key] = idx
        self.keep.append(a)
        buf = io.BytesIO()
        # np.save writes any layout (C or Fortran order kept); np.ascontiguousarray would make a
        # 0-d array 1-d
        np.save(buf, a, allow_pickle=False)
        self.zf.writestr(f"data/{idx}.npy", buf.getvalue())
        return idx

    def tensor_data(self, a: np.ndarray) -> Any:
        """A tensor's array as an entry: its storage (the numpy array it is a view of, stored
        once per save) and where in it the tensor lies, so tensors that share memory (a tensor
        and its views, detach(), .data) share it again after load, as torch's storages do. An
        array whose storage cannot be addressed that way is stored on its own."""
        root = a
        while isinstance(root.base, np.ndarray):
            root = root.base
        if root is a:
            return self.array(a)
        off = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        contiguous = root.flags.c_contiguous or root.flags.f_contiguous
        if root.dtype != a.dtype or not contiguous or root.base is not None:
            return self.array(a)
        return [self.array(root), off, list(a.shape), list(a.strides)]

    def uninitialized(self, obj: Any) -> Any:
        """A lazy module's parameter or buffer before its first forward: no data, only its
        class, dtype and requires_grad (torch pickles the object itself)."""
        self.keep.append(obj)
        return {
            "__uninit__": type(obj).__name__,
            "id": id(obj),
            "requires_grad": obj.requires_grad,
            "dtype": obj.dtype._name,
        }

    def enc(self, obj: Any) -> Any:
        if obj is None or type(obj) in (bool, int, float, str):  # (np.float64: below)
            return obj
        if isinstance(obj, Tensor):
            from ._tensor import warn_if_has_hooks
            from .nn.parameter import Parameter, UninitializedTensorMixin

            if isinstance(obj, UninitializedTensorMixin):
                return self.uninitialized(obj)
            warn_if_has_hooks(obj)
            self.keep.append(obj)
            if type(obj._data) is not np.ndarray and getattr(obj._data, "_sg_sparse", False):
                a = obj._data  # a sparse tensor: its indices and values (sparse/_array.py)
                return {
                    "__sparse__": [self.enc(_make(a._i)), self.enc(_make(a._v))],
                    "size": list(a.shape),
                    "coalesced": bool(a._c),
                    "csr": bool(a._csr),
                    "requires_grad": obj.requires_grad,
                }
            from .autograd.graph import VersionCounter

            lazy = None
            if type(obj._vc) is not VersionCounter and obj._vc is not None:
                from .ops.views import is_conj, is_neg, shadow_of

                lazy = "conj" if is_conj(obj) else "neg" if is_neg(obj) else None
            if id(obj) not in self.tensors:
                # a conj/negative view: its base's memory, with the bit (torch's storage and
                # conj/neg flags)
                data = shadow_of(obj) if lazy else obj.detach()._data
                self.tensors[id(obj)] = self.tensor_data(data)  # (bfloat16 too)
            entry = {
                "__tensor__": self.tensors[id(obj)],
                "requires_grad": obj.requires_grad,
                "parameter": isinstance(obj, Parameter),
            }
            if lazy:
                entry["lazy"] = lazy
            if type(obj._data) is not np.ndarray and obj.is_meta:
                entry["meta"] = True  # (torch's storage location "meta": loaded on the meta device)
            cls = type(obj)
            if cls is not Tensor and cls is not Parameter and not isinstance(obj, Parameter):
                # a user subclass: its class and __dict__, pickled (torch's
                # _rebuild_from_type_v2), loaded with weights_only=False only
                buf = io.BytesIO()
                _ObjPickler(buf, self, self.protocol).dump((cls, dict(obj.__dict__)))
                entry["subclass"] = base64.b64encode(buf.getvalue()).decode("ascii")
            return entry
        if isinstance(obj, np.ndarray):
            if obj.dtype.kind == "O":
                raise TypeError("shadowgrad.save cannot store numpy arrays of Python objects")
            return {"__ndarray__": self.array(obj)}
        if isinstance(obj, np.generic):
            return {"__npscalar__": self.array(np.asarray(obj))}
        if isinstance(obj, (bool, int, float, str)):  # a subclass (an IntEnum) keeps its type
            buf = io.BytesIO()
            _ObjPickler(buf, self, self.protocol).dump(obj)
            return {"__pickle__": base64.b64encode(buf.getvalue()).decode("ascii")}
        if isinstance(obj, Size):
            return {"__size__": list(obj)}
        if isinstance(obj, _dtype.dtype):
            return {"__dtype__": obj._name}
        if isinstance(obj, complex):
            return {"__complex__": [obj.real, obj.imag]}
        if isinstance(obj, bytes):
            return {"__bytes__": base64.b64encode(obj).decode("ascii")}
        if isinstance(obj, set):
            return {"__set__": [self.enc(v) for v in obj]}
        if isinstance(obj, device):
            return {"__device__": str(obj)}
        if isinstance(obj, dict) and type(obj) in (dict, OrderedDict):
            # other dict types (Counter, defaultdict, a module's own) are pickled below, so they
            # load back as themselves, or are refused by weights_only as in torch
            out: dict[str, Any] = {
                "__dict__": [[self.enc(k), self.enc(v)] for k, v in obj.items()],
                "ordered": isinstance(obj, OrderedDict),
            }
            meta = getattr(obj, "_metadata", None)
            if meta is not None:
                out["metadata"] = self.enc(meta)
            return out
        if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
            return {"__tuple__": [self.enc(v) for v in obj]}
        if isinstance(obj, list):
            return {"__list__": [self.enc(v) for v in obj]}
        buf = io.BytesIO()
        _ObjPickler(buf, self, self.protocol).dump(obj)
        return {"__pickle__": base64.b64encode(buf.getvalue()).decode("ascii")}


def save(
    obj: Any,
    f: Any,
    pickle_module: Any = None,
    pickle_protocol: int = 2,
    _use_new_zipfile_serialization: bool = True,
    _disable_byteorder_record: bool = False,
) -> None:
    """Save obj to a path or a writable binary file. Mirrors `torch.save`."""
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.fspath(f))
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        with open(f, "wb") as fh:
            _save(obj, fh, pickle_protocol)
    else:
        if not hasattr(f, "write"):
            raise AttributeError(
                "expected 'f' to be string, path, or a file-like object with a 'write' attribute"
            )
        _save(obj, f, pickle_protocol)


def _save(obj: Any, fh: Any, protocol: int = 2) -> None:
    from ._torch_format import _writable_plainly, write_torch_archive

    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as zf:
        if protocol == 2 and _writable_plainly(obj, set()):  # torch can read it too
            write_torch_archive(obj, zf)
            return
        w = _Writer(zf, protocol)
        tree = w.enc(obj)
        manifest = {"format": _FORMAT, "root": tree, "protocol": protocol}
        zf.writestr("manifest.json", json.dumps(manifest))


class _Reader:
    def __init__(self, zf: zipfile.ZipFile, weights_only: bool = True) -> None:
        self.zf = zf
        self.weights_only = weights_only
        self.arrays: dict[int, np.ndarray] = {}
        self.tensors: dict[tuple[int, bool, bool], Tensor] = {}
        self.no_cuda = False  # map_location sends tensors to CUDA, which there is none of

    def array(self, idx: int) -> np.ndarray:
        if idx not in self.arrays:
            with self.zf.open(f"data/{idx}.npy") as fh:
                self.arrays[idx] = np.load(io.BytesIO(fh.read()), allow_pickle=False)
        return self.arrays[idx]

    def tensor_data(self, entry: Any) -> np.ndarray:
        """The array `_Writer.tensor_data` described: a whole stored array, or a view into one."""
        if isinstance(entry, int):
            return self.array(entry)
        idx, off, shape, strides = entry
        root = self.array(idx)
        return np.ndarray(
            tuple(shape),
            dtype=root.dtype,
            buffer=root.ravel(order="K").view(np.uint8),
            offset=off,
            strides=tuple(strides),
        )

    def subclass(self, obj: dict[str, Any], key: Any) -> Any:
        """A tensor of a user subclass: as torch's _rebuild_from_type_v2, the plain tensor
        as_subclass the class, with the instance's __dict__."""
        data = io.BytesIO(base64.b64decode(obj["subclass"]))
        cls, state = _ObjUnpickler(data, self, self.weights_only).load()
        skey = (*key, obj["subclass"])
        if skey not in self.tensors:
            t = from_numpy(self.tensor_data(obj["__tensor__"]))
            if obj["requires_grad"]:
                t.requires_grad_(True)
            t._bump()
            t = Tensor.as_subclass(t, cls)
            t.__dict__.update(state)
            self.tensors[skey] = t
        return self.tensors[skey]

    def uninitialized(self, obj: dict[str, Any]) -> Any:
        from .nn import parameter

        cls = getattr(parameter, obj["__uninit__"])
        if self.weights_only:
            path = f"torch.nn.parameter.{cls.__name__}"
            if path not in _user_safe() and f"{cls.__module__}.{cls.__qualname__}" not in (
                _user_safe()
            ):
                raise _unsupported_global(path)
        key = ("uninit", obj["id"])
        if key not in self.tensors:
            dt = next(d for d in _dtype.ALL_DTYPES if d._name == obj["dtype"])
            self.tensors[key] = cls(requires_grad=obj["requires_grad"], dtype=dt)
        return self.tensors[key]

    def dec(self, obj: Any) -> Any:
        if not isinstance(obj, dict):
            return obj
        if "__uninit__" in obj:
            return self.uninitialized(obj)
        if "__sparse__" in obj:
            from .sparse._array import make

            i, v = (self.dec(e) for e in obj["__sparse__"])
            a = make(i._data, v._data.copy(), obj["size"], obj["coalesced"], obj.get("csr", False))
            t = _make(a)
            t._rg = bool(obj["requires_grad"])
            return t
        if "__tensor__" in obj:
            if self.no_cuda:
                raise RuntimeError(_NO_CUDA)
            key = (json.dumps(obj["__tensor__"]), obj["requires_grad"], obj["parameter"])
            if "subclass" in obj:
                return self.subclass(obj, key)
            lazy = obj.get("lazy")
            if lazy:
                key = (*key, lazy)
            if obj.get("meta"):
                key = (*key, "meta")
            if key not in self.tensors:
                t = from_numpy(self.tensor_data(obj["__tensor__"]))
                if obj.get("meta"):
                    from ._device import to_meta

                    to_meta(t)
                if lazy:  # a conj/negative view of the loaded memory, not a view of a tensor
                    from .ops.views import lazy_alias

                    t = lazy_alias(t, lazy == "neg")
                if obj["parameter"]:
                    from .nn.parameter import Parameter

                    t = Parameter(t, requires_grad=obj["requires_grad"])
                elif obj["requires_grad"]:
                    t.requires_grad_(True)
                t._bump()  # torch restores a tensor by set_ to its storage: version 1
                self.tensors[key] = t
            return self.tensors[key]
        if "__ndarray__" in obj:
            a = self.array(obj["__ndarray__"])
            if self.weights_only:
                _check_numpy_allowed(a, False)
            return a
        if "__npscalar__" in obj:
            a = self.array(obj["__npscalar__"])
            if self.weights_only:
                _check_numpy_allowed(a, True)
            return a[()]
        if "__size__" in obj:
            return Size(obj["__size__"])
        if "__dtype__" in obj:
            return next(d for d in _dtype.ALL_DTYPES if d._name == obj["__dtype__"])
        if "__complex__" in obj:
            return complex(*obj["__complex__"])
        if "__bytes__" in obj:
            return base64.b64decode(obj["__bytes__"])
        if "__set__" in obj:
            return {_hashable(self.dec(v)) for v in obj["__set__"]}
        if "__device__" in obj:
            return device(obj["__device__"])
        if "__tuple__" in obj:
            return tuple(self.dec(v) for v in obj["__tuple__"])
        if "__list__" in obj:
            return [self.dec(v) for v in obj["__list__"]]
        if "__dict__" in obj:
            items = [(_hashable(self.dec(k)), self.dec(v)) for k, v in obj["__dict__"]]
            d: Any = OrderedDict(items) if obj.get("ordered") else dict(items)
            if "metadata" in obj:
                d._metadata = self.dec(obj["metadata"])
            return d
        if "__pickle__" in obj:
            data = io.BytesIO(base64.b64decode(obj["__pickle__"]))
            return _ObjUnpickler(data, self, self.weights_only).load()
        raise RuntimeError(f"shadowgrad.load: unknown entry in manifest: {sorted(obj)}")


def _at_end(fh: Any) -> bool:
    """Whether a seekable file has nothing left to read (its position is left unchanged)."""
    try:
        pos = fh.tell()
        empty = not fh.read(1)
        fh.seek(pos)
    except (AttributeError, OSError, ValueError):
        return False
    return empty


def _hashable(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else k


def load(
    f: Any,
    map_location: Any = None,
    pickle_module: Any = None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = None,
    **pickle_load_args: Any,
) -> Any:
    """Load an object written by `save`. Mirrors `torch.load`: only a pickled object (see the
    module docstring) can run code, and only with weights_only=False."""
    wo = weights_only is not False
    cuda = _maps_to_cuda(map_location)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh, wo, cuda=cuda, map_location=map_location)
    if not hasattr(f, "seek"):
        raise AttributeError(
            f"'{type(f).__name__}' object has no attribute 'seek'. You can only torch.load from a "
            "file that is seekable. Please pre-load the data into a buffer like io.BytesIO and "
            "try to load from it instead."
        )
    return _load(f, wo, mmap_needs_path=bool(mmap), cuda=cuda, map_location=map_location)


_NO_CUDA = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
    "If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU."
)


def _maps_to_cuda(map_location: Any) -> bool:
    """Whether map_location sends the (cpu-saved) storages to a CUDA device, which torch
    refuses without CUDA as soon as a tensor is restored."""
    if isinstance(map_location, dict):
        map_location = map_location.get("cpu")
    if isinstance(map_location, device):
        return map_location.type == "cuda"
    return isinstance(map_location, str) and (
        map_location == "cuda" or map_location.startswith("cuda:")
    )


def _load(
    fh: Any,
    weights_only: bool = True,
    mmap_needs_path: bool = False,
    cuda: bool = False,
    map_location: Any = None,
) -> Any:
    if _at_end(fh):  # e.g. a BytesIO read back without seek(0): torch's unpickler runs dry
        raise EOFError("" if weights_only else "Ran out of input")
    try:
        zf = zipfile.ZipFile(fh, "r")
    except zipfile.BadZipFile as e:
        raise RuntimeError(
            "shadowgrad.load: not a file written by shadowgrad.save (expected a zip archive)"
        ) from e
    with zf:
        if mmap_needs_path:  # torch checks this once it knows the file is an archive
            raise ValueError("f must be a file path in order to use the mmap argument")
        if "manifest.json" not in zf.namelist():
            from ._torch_format import is_torch_archive, load_torch_archive

            prefix = is_torch_archive(zf)
            if prefix is not None:  # written by torch.save
                return load_torch_archive(zf, prefix, weights_only, map_location)
        manifest = json.loads(zf.read("manifest.json"))
        if manifest.get("format") != _FORMAT:
            raise RuntimeError(f"shadowgrad.load: unsupported format {manifest.get('format')!r}")
        if weights_only:
            _check_protocol(manifest.get("protocol", 2))
        reader = _Reader(zf, weights_only)
        reader.no_cuda = cuda
        return reader.dec(manifest["root"])


def _check_protocol(protocol: int) -> None:
    """torch's weights_only unpickler warns for a pickle protocol other than 2, and cannot read
    protocol 4's frames (opcode 149)."""
    if protocol == 2:
        return
    warnings.warn(
        f"Detected pickle protocol {protocol} in the checkpoint, which was not the default pickle "
        "protocol used by `torch.load` (2). The weights_only Unpickler might not support all "
        "instructions implemented by this protocol, please file an issue for adding support if "
        "you encounter this.",
        UserWarning,
        stacklevel=4,
    )
    if protocol >= 4:
        raise pickle.UnpicklingError(
            f"Weights only load failed. {UNSAFE_MESSAGE}\nPlease file an issue with the "
            "following so that we can make `weights_only=True` compatible with your use case: "
            "WeightsUnpickler error: \n\nUnsupported operand 149" + DOCS_MESSAGE
        )
