"""save and load. Mirrors `torch.save` / `torch.load` with a format that never runs code on load.

A file is a zip archive holding `manifest.json` (the object tree as JSON) and one `.npy` file per
distinct tensor or array (read with `allow_pickle=False`). It stores tensors and Parameters (with
requires_grad), numpy arrays, dicts (any hashable plain keys; OrderedDict and a state dict's
`_metadata` kept), lists, tuples, sets, torch.Size, dtypes, devices, bytes and plain Python
values. A tensor stored twice in one object comes back as one tensor, and tensors that shared
memory (a tensor and its views) share it again, with their shapes and strides, as torch's
storages do.

Differences: the file format is not torch's, and arbitrary Python objects (whole modules,
optimizers) cannot be saved; save their state_dict() instead. `weights_only` is accepted and has
no effect, since loading never executes code.
"""

from __future__ import annotations

import base64
import io
import json
import os
import zipfile
from collections import OrderedDict
from typing import Any

import numpy as np

from . import _dtype
from ._creation import from_numpy
from ._size import Size
from ._tensor import Tensor, device

__all__ = ["load", "save"]

_FORMAT = "shadowgrad-zip-1"


class _Writer:
    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
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

    def enc(self, obj: Any) -> Any:
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, Tensor):
            from .nn.parameter import Parameter

            self.keep.append(obj)
            if id(obj) not in self.tensors:
                self.tensors[id(obj)] = self.tensor_data(obj.detach().numpy())
            return {
                "__tensor__": self.tensors[id(obj)],
                "requires_grad": obj.requires_grad,
                "parameter": isinstance(obj, Parameter),
            }
        if isinstance(obj, np.ndarray):
            if obj.dtype.kind == "O":
                raise TypeError("shadowgrad.save cannot store numpy arrays of Python objects")
            return {"__ndarray__": self.array(obj)}
        if isinstance(obj, np.generic):
            return {"__npscalar__": self.array(np.asarray(obj))}
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
        if isinstance(obj, dict):
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
        raise TypeError(
            f"shadowgrad.save cannot store an object of type {type(obj).__name__}: only tensors, "
            "arrays, dicts, lists, tuples and plain values are supported (save a module's or "
            "optimizer's state_dict() instead)"
        )


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
        with open(f, "wb") as fh:
            _save(obj, fh)
    else:
        _save(obj, f)


def _save(obj: Any, fh: Any) -> None:
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as zf:
        w = _Writer(zf)
        tree = w.enc(obj)
        zf.writestr("manifest.json", json.dumps({"format": _FORMAT, "root": tree}))


class _Reader:
    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
        self.arrays: dict[int, np.ndarray] = {}
        self.tensors: dict[tuple[int, bool, bool], Tensor] = {}

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

    def dec(self, obj: Any) -> Any:
        if not isinstance(obj, dict):
            return obj
        if "__tensor__" in obj:
            key = (json.dumps(obj["__tensor__"]), obj["requires_grad"], obj["parameter"])
            if key not in self.tensors:
                t = from_numpy(self.tensor_data(obj["__tensor__"]))
                if obj["parameter"]:
                    from .nn.parameter import Parameter

                    t = Parameter(t, requires_grad=obj["requires_grad"])
                elif obj["requires_grad"]:
                    t.requires_grad_(True)
                self.tensors[key] = t
            return self.tensors[key]
        if "__ndarray__" in obj:
            return self.array(obj["__ndarray__"])
        if "__npscalar__" in obj:
            return self.array(obj["__npscalar__"])[()]
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
        raise RuntimeError(f"shadowgrad.load: unknown entry in manifest: {sorted(obj)}")


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
    """Load an object written by `save`. Mirrors `torch.load`; never executes code."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh)
    return _load(f)


def _load(fh: Any) -> Any:
    try:
        zf = zipfile.ZipFile(fh, "r")
    except zipfile.BadZipFile as e:
        raise RuntimeError(
            "shadowgrad.load: not a file written by shadowgrad.save (expected a zip archive)"
        ) from e
    with zf:
        manifest = json.loads(zf.read("manifest.json"))
        if manifest.get("format") != _FORMAT:
            raise RuntimeError(f"shadowgrad.load: unsupported format {manifest.get('format')!r}")
        return _Reader(zf).dec(manifest["root"])
