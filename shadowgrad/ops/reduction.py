"""Reductions: sum, mean, and the sum_to_size used to reduce broadcast gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from ._util import wrap_dims
from .registry import defop


def _restore_dims(
    grad: Tensor, shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool
) -> Tensor:
    """Bring a reduced gradient back to the input's rank, then broadcast it."""
    if not keepdim:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return grad.expand(shape)


def _sum_all_fwd(self: np.ndarray, self_sym_sizes: tuple[int, ...], dtype: Any) -> np.ndarray:
    return np.asarray(np.sum(self, dtype=dtype))


_sum_all = defop(
    "sum",
    "SumBackward0",
    _sum_all_fwd,
    dtype="keep",
    self=lambda grad, self_sym_sizes: grad.expand(self_sym_sizes),
)


def _sum_dim_fwd(
    self: np.ndarray, dim: tuple[int, ...], keepdim: bool, self_sym_sizes: Any, dtype: Any
) -> np.ndarray:
    return np.asarray(np.sum(self, axis=dim, keepdims=keepdim, dtype=dtype))


_sum_dim = defop(
    "sum.dim_IntList",
    "SumBackward1",
    _sum_dim_fwd,
    dtype="keep",
    self=lambda grad, dim, keepdim, self_sym_sizes: _restore_dims(
        grad, self_sym_sizes, dim, keepdim
    ),
)


def _mean_all_fwd(self: np.ndarray, self_sym_sizes: Any, self_sym_numel: int) -> np.ndarray:
    return np.asarray(np.mean(self) if self.size else np.array(np.nan, self.dtype), self.dtype)


_mean_all = defop(
    "mean",
    "MeanBackward0",
    _mean_all_fwd,
    dtype="keep",
    self=lambda grad, self_sym_sizes, self_sym_numel: grad.expand(self_sym_sizes) / self_sym_numel,
)


def _mean_dim_fwd(
    self: np.ndarray, dim: tuple[int, ...], keepdim: bool, self_sym_sizes: Any, count: int
) -> np.ndarray:
    if self.size == 0 or count == 0:
        shape = [1 if i in dim else s for i, s in enumerate(self.shape)]
        r = np.full(shape, np.nan, self.dtype)
        return r if keepdim else r.reshape([s for i, s in enumerate(shape) if i not in dim])
    return np.asarray(np.mean(self, axis=dim, keepdims=keepdim), self.dtype)


_mean_dim = defop(
    "mean.dim",
    "MeanBackward1",
    _mean_dim_fwd,
    dtype="keep",
    self=lambda grad, dim, keepdim, self_sym_sizes, count: (
        _restore_dims(grad, self_sym_sizes, dim, keepdim) / count
    ),
)


def _sum_dtype(input: Tensor, dtype: D.dtype | None) -> Any:
    if dtype is not None:
        return dtype._np
    if input.dtype._cat < 2:
        return np.int64
    return None


def sum(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.sum`."""
    npd = _sum_dtype(input, dtype)
    shape = tuple(input._data.shape)
    if dim is None:
        return _sum_all(input, shape, npd)
    dims = wrap_dims(dim, input.ndim)
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        dims = tuple(range(input.ndim))
    return _sum_dim(input, dims, keepdim, shape, npd)


def mean(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.mean`."""
    if dtype is not None:
        input = input.to(dtype)
    elif not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {input.dtype._short}"
        )
    shape = tuple(input._data.shape)
    if dim is None:
        return _mean_all(input, shape, int(input._data.size))
    dims = wrap_dims(dim, input.ndim)
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        dims = tuple(range(input.ndim))
    count = 1
    for d in dims:
        count *= shape[d] if shape else 1
    return _mean_dim(input, dims, keepdim, shape, count)


def sum_to_size(input: Tensor, *size: Any) -> Tensor:
    """Sum broadcast dimensions away. Mirrors `torch.Tensor.sum_to_size`."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = input._data.shape
    if tuple(size) == tuple(shape):
        return input
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != g for s, g in zip(size, shape[lead:], strict=True)):
        raise RuntimeError(
            f"size {{{', '.join(map(str, size))}}} is not expandable to size "
            f"{{{', '.join(map(str, shape))}}}."
        )
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1
    )
    r = input
    if dims:
        r = _sum_dim(input, dims, True, tuple(shape), None)
    if lead:
        r = r.reshape(size)
    return r


METHODS = {"sum": sum, "mean": mean, "sum_to_size": sum_to_size}
FUNCTIONS = {"sum": sum, "mean": mean}
