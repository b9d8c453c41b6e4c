"""Matrix products: mm, mv, dot, bmm, matmul (decomposed as torch decomposes it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from .registry import defop

mm_op = defop(
    "mm",
    "MmBackward0",
    lambda self, mat2: np.matmul(self, mat2),
    self=lambda grad, mat2: grad.mm(mat2.t()),
    mat2=lambda grad, self: self.t().mm(grad),
)
mv_op = defop(
    "mv",
    "MvBackward0",
    lambda self, vec: np.matmul(self, vec),
    self=lambda grad, vec: grad.unsqueeze(1).mm(vec.unsqueeze(0)),
    vec=lambda grad, self: self.t().mv(grad),
)
dot_op = defop(
    "dot",
    "DotBackward0",
    lambda self, tensor: np.asarray(np.dot(self, tensor)),
    self=lambda grad, tensor: grad * tensor,
    tensor=lambda grad, self: grad * self,
)
bmm_op = defop(
    "bmm",
    "BmmBackward0",
    lambda self, mat2: np.matmul(self, mat2),
    self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2)),
    mat2=lambda grad, self: self.transpose(1, 2).bmm(grad),
)


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    """Mirrors `torch.mm`."""
    if input.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    a, b = input._data.shape, mat2._data.shape
    if a[1] != b[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})"
        )
    _same_dtype(input, mat2)
    return mm_op(input, mat2)


def _same_dtype(a: Tensor, b: Tensor) -> None:
    if a.dtype is not b.dtype:
        from .._dtype import CPP_NAMES

        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES[a.dtype]} != "
            f"{CPP_NAMES[b.dtype]}"
        )


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Mirrors `torch.mv`."""
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    if input._data.shape[1] != vec._data.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({input._data.shape[0]}), mat "
            f"({input._data.shape[0]}x{input._data.shape[1]}), vec ({vec._data.shape[0]})"
        )
    _same_dtype(input, vec)
    return mv_op(input, vec)


def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """Mirrors `torch.dot`."""
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    n1, n2 = input._data.shape[0], tensor._data.shape[0]
    if n1 != n2:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n1}] and src [{n2}] to have the same "
            f"number of elements, but got {n1} and {n2} elements respectively"
        )
    if input.dtype is not tensor.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {input.dtype._short} and "
            f"{tensor.dtype._short}"
        )
    return dot_op(input, tensor)


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Mirrors `torch.bmm`."""
    if input.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    a, b = input._data.shape, mat2._data.shape
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] but "
            f"got: [{b[0]}, {b[1]}]."
        )
    _same_dtype(input, mat2)
    return bmm_op(input, mat2)


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.matmul`, decomposed into mm/mv/dot/bmm nodes as torch does."""
    if not isinstance(other, Tensor) or not isinstance(input, Tensor):
        raise TypeError(
            f"matmul(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )
    da, db = input.ndim, other.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        return mm(input.unsqueeze(0), other).squeeze(0)
    if da == 2 and db == 2:
        return mm(input, other)
    if da >= 3 and db <= 2:
        # fold the batch into the rows: (b..., n, k) @ (k, m) -> one mm, then an unsafe view
        _same_dtype(input, other)
        shape = input._data.shape
        folded = input.reshape(-1, shape[-1])
        if db == 1:
            out = mv(folded, other)
            return _unsafe(out, shape[:-1])
        out = mm(folded, other)
        return _unsafe(out, (*shape[:-1], other._data.shape[1]))
    return _batched(input, other)


def _unsafe(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    from .shape import _unsafe_view

    return _unsafe_view(t, tuple(shape), tuple(t._data.shape))


def _batched(a: Tensor, b: Tensor) -> Tensor:
    _same_dtype(a, b)
    a2 = a.unsqueeze(0) if a.ndim == 1 else a
    b2 = b.unsqueeze(-1) if b.ndim == 1 else b
    n, k = a2._data.shape[-2:]
    k2, m = b2._data.shape[-2:]
    if k != k2:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{int(np.prod(b2._data.shape[:-2]))}, {k}] but got: "
            f"[{int(np.prod(b2._data.shape[:-2]))}, {k2}]."
        )
    batch = np.broadcast_shapes(a2._data.shape[:-2], b2._data.shape[:-2])
    nb = int(np.prod(batch)) if batch else 1
    ae = a2.expand(*batch, n, k).reshape(nb, n, k)
    be = b2.expand(*batch, k, m).reshape(nb, k, m)
    out = bmm(ae, be)
    shape: tuple[int, ...] = (*batch, n, m)
    if a.ndim == 1:
        shape = (*batch, m)
    elif b.ndim == 1:
        shape = (*batch, n)
    return _unsafe(out, shape)


def _rmatmul(self: Tensor, other: Any) -> Tensor:
    return matmul(other, self)


METHODS = {
    "mm": mm,
    "mv": mv,
    "dot": dot,
    "bmm": bmm,
    "matmul": matmul,
    "__matmul__": matmul,
    "__rmatmul__": _rmatmul,
}
FUNCTIONS = {"mm": mm, "mv": mv, "dot": dot, "bmm": bmm, "matmul": matmul}
