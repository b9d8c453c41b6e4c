"""`UntypedStorage`: the memory a tensor and its views share, as `Tensor.untyped_storage()`
returns it. shadowgrad keeps tensor data in numpy arrays; a tensor's storage is the array its
data is a view of (the root of the `.base` chain), read as bytes."""

from __future__ import annotations

from typing import Any

import numpy as np


class UntypedStorage:
    """Mirrors `torch.UntypedStorage` for reading: size in bytes, data_ptr, tolist."""

    __slots__ = ("_arr",)

    def __init__(self, arr: np.ndarray) -> None:
        self._arr = arr

    @classmethod
    def _of(cls, data: np.ndarray) -> UntypedStorage:
        root = data
        while True:
            b = root.base
            if isinstance(b, np.ndarray):
                root = b
            elif type(b).__name__ == "DummyArray" and isinstance(b.base, np.ndarray):
                root = b.base  # an as_strided view (numpy's stride tricks): its array's storage
            else:
                return cls(root)

    def nbytes(self) -> int:
        a = self._arr  # a bfloat16 array's longdouble holds 2 of torch's bytes in 16
        return int(a.size * 2 if a.dtype == np.longdouble else a.nbytes)

    def size(self) -> int:
        return self.nbytes()

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    def data_ptr(self) -> int:
        return int(self._arr.__array_interface__["data"][0])

    @property
    def device(self) -> Any:
        from ._tensor import CPU

        return CPU

    is_cuda = False
    is_sparse = False

    def tolist(self) -> list[int]:
        a = np.ascontiguousarray(self._arr).reshape(-1)
        if a.dtype == np.longdouble:  # bfloat16: its 2 bytes, the float32's high half
            a = (a.astype(np.float32).view(np.uint32) >> 16).astype("<u2")
        return a.view(np.uint8).tolist()

    def __repr__(self) -> str:
        body = " " + "\n ".join(str(b) for b in self.tolist())
        return f"{body}\n[torch.storage.UntypedStorage(device=cpu) of size {self.size()}]"


_TYPED_NAME = "<class 'torch.storage.TypedStorage'>"
_TYPED_STORAGE_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  To "
    "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()"
)


def warn_typed_storage_removal() -> None:
    """torch's deprecation warning for TypedStorage, once per process as torch's."""
    from ._tensor import warn_once

    warn_once("TypedStorage", _TYPED_STORAGE_WARNING, stacklevel=4)


class TypedStorage:
    """Mirrors `torch.TypedStorage` (what the deprecated `Tensor.storage()` returns): a
    tensor's storage read in its dtype; indexing reads and writes the shared memory."""

    __slots__ = ("_untyped", "dtype")

    def __init__(self, untyped: UntypedStorage, dtype: Any) -> None:
        self._untyped = untyped
        self.dtype = dtype

    def _elements(self) -> np.ndarray:
        raw = np.ascontiguousarray(self._untyped._arr).reshape(-1).view(np.uint8)
        n = raw.size - raw.size % self.dtype.itemsize
        return raw[:n].view(self.dtype._np)

    def size(self) -> int:
        return int(self._untyped.nbytes() // self.dtype.itemsize)

    def __len__(self) -> int:
        return self.size()

    def nbytes(self) -> int:
        return self._untyped.nbytes()

    def element_size(self) -> int:
        return int(self.dtype.itemsize)

    def data_ptr(self) -> int:
        return self._untyped.data_ptr()

    def untyped(self) -> UntypedStorage:
        return self._untyped

    @property
    def device(self) -> Any:
        return self._untyped.device

    is_cuda = False
    is_sparse = False

    def tolist(self) -> list[Any]:
        return self._elements().tolist()  # type: ignore[no-any-return]

    def __getitem__(self, idx: Any) -> Any:
        if not isinstance(idx, int):
            raise RuntimeError(f"can't index a {_TYPED_NAME} with {type(idx)}")
        n = self.size()
        if not -n <= idx < n:
            raise IndexError(f"index {idx} out of range for storage of size {n}")
        return self._elements()[idx].item()

    def __setitem__(self, idx: Any, value: Any) -> None:
        if not isinstance(idx, int):
            raise RuntimeError(f"can't index a {_TYPED_NAME} with {type(idx)}")
        n = self.size()
        if not -n <= idx < n:
            raise IndexError(f"index {idx} out of range for storage of size {n}")
        self._elements()[idx] = value

    def __iter__(self) -> Any:
        return iter(self.tolist())

    def __repr__(self) -> str:
        body = " " + "\n ".join(str(v) for v in self.tolist())
        return (
            f"{body}\n[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size "
            f"{self.size()}]"
        )


def is_storage(obj: Any) -> bool:
    """Mirrors `torch.is_storage`."""
    return isinstance(obj, (UntypedStorage, TypedStorage))
