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
        while isinstance(root.base, np.ndarray):
            root = root.base
        return cls(root)

    def nbytes(self) -> int:
        return int(self._arr.nbytes)

    def size(self) -> int:
        return int(self._arr.nbytes)

    def __len__(self) -> int:
        return int(self._arr.nbytes)

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
        return np.ascontiguousarray(self._arr).reshape(-1).view(np.uint8).tolist()

    def __repr__(self) -> str:
        body = " " + "\n ".join(str(b) for b in self.tolist())
        return f"{body}\n[torch.storage.UntypedStorage(device=cpu) of size {self.size()}]"
