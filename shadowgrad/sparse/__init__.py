"""Sparse COO tensors and `torch.sparse`. Mirrors `torch.sparse` (see docs/sparse.md).

A sparse tensor is an ordinary Tensor whose array is a `SparseArray` (the payload of indices
and values, with the shape and dtype of the tensor and no memory): dense tensors pay nothing.
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import _coo
from ._coo import INVARIANTS, sparse_coo_tensor, sparse_csr_tensor

__all__ = [
    "addmm",
    "check_sparse_tensor_invariants",
    "log_softmax",
    "mm",
    "softmax",
    "sum",
]


def mm(mat1: Tensor, mat2: Tensor, reduce: Any = None) -> Tensor:
    """Mirrors `torch.sparse.mm`."""
    return _coo.sparse_mm(mat1, mat2, reduce)


def addmm(mat: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1.0, alpha: Any = 1.0) -> Tensor:
    """Mirrors `torch.sparse.addmm`."""
    return _coo.sparse_addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def sum(input: Tensor, dim: Any = None, dtype: Any = None) -> Tensor:
    """Mirrors `torch.sparse.sum`."""
    return _coo.sparse_sum(input, dim, dtype)


def softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Mirrors `torch.sparse.softmax`."""
    return _coo.sparse_softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Mirrors `torch.sparse.log_softmax`."""
    return _coo.sparse_log_softmax(input, dim, dtype)


class check_sparse_tensor_invariants:
    """Mirrors `torch.sparse.check_sparse_tensor_invariants`: as a context manager, and its
    static enable/disable/is_enabled."""

    @staticmethod
    def is_enabled() -> bool:
        return bool(INVARIANTS.enabled)

    @staticmethod
    def enable() -> None:
        INVARIANTS.enabled = True

    @staticmethod
    def disable() -> None:
        INVARIANTS.enabled = False

    def __init__(self, enable: bool = True) -> None:
        self.state = enable
        self.saved: bool | None = None

    def __enter__(self) -> None:
        self.saved = INVARIANTS.enabled
        INVARIANTS.enabled = self.state

    def __exit__(self, *exc: Any) -> None:
        INVARIANTS.enabled = self.saved


def _install() -> dict[str, Any]:
    """The sparse methods on Tensor; the top-level functions for the torch namespace."""
    for name, fn in _coo.METHODS.items():
        if name not in vars(Tensor):
            setattr(Tensor, name, fn)
    return {
        "sparse_coo_tensor": sparse_coo_tensor,
        "sparse_csr_tensor": sparse_csr_tensor,
        "hspmm": _coo.hspmm,
        "smm": _coo.smm,
    }
