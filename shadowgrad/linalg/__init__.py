"""torch.linalg: linear algebra functions. Mirrors `torch.linalg`.

The factorizations and solvers live in `shadowgrad/ops/linalg.py` and
`shadowgrad/ops/linalg_extra.py`; this module re-exports them
and builds the norms from them as torch does (matrix_norm from vector_norm, svdvals, amax/amin).
"""

from __future__ import annotations

import math
import types
from typing import Any

import numpy as np

import shadowgrad as _sg

from .. import _dtype as D
from .._tensor import Tensor, _make
from ..ops._util import wrap_dim, wrap_dims
from ..ops.linalg import _LinAlgError as LinAlgError
from ..ops.linalg import (
    cholesky,
    cholesky_ex,
    cross,
    det,
    eigh,
    eigvalsh,
    inv,
    inv_ex,
    matmul,
    matrix_power,
    qr,
    slogdet,
    solve,
    solve_ex,
    svd,
    svdvals,
)
from ..ops.linalg_extra import (
    cond,
    diagonal,
    eig,
    eigvals,
    householder_product,
    lstsq,
    lu,
    lu_factor,
    lu_factor_ex,
    lu_solve,
    matrix_exp,
    matrix_rank,
    multi_dot,
    pinv,
    solve_triangular,
    tensorinv,
    tensorsolve,
    vander,
    vecdot,
)
from ..ops.linalg_ldl import ldl_factor, ldl_factor_ex, ldl_solve
from ..ops.pointwise import _out
from ..ops.reduction import check_norm_dtype, check_out_dtype

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "ldl_factor",
    "ldl_factor_ex",
    "ldl_solve",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]


def _builtin_named(fn: Any, name: str) -> Any:
    """A copy of fn under the name of torch's builtin (`linalg_matrix_exp`): Python's
    TypeError for an unexpected keyword (out=) names the function as torch's parser does."""
    g = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    g.__kwdefaults__ = fn.__kwdefaults__
    g.__qualname__ = name
    g.__doc__ = fn.__doc__
    g.__module__ = fn.__module__
    g.__annotations__ = fn.__annotations__
    return g


matrix_exp = _builtin_named(matrix_exp, "linalg_matrix_exp")
vander = _builtin_named(vander, "linalg_vander")


def vector_norm(
    x: Tensor,
    ord: float = 2,
    dim: int | tuple[int, ...] | None = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.vector_norm` (the op itself is the reductions family's)."""
    fn = getattr(_sg, "_linalg_vector_norm", None)
    if fn is not None:
        r = fn(x, ord, dim, keepdim, dtype=dtype)
        check_out_dtype(r, out)
        return _out(r, out, "linalg_vector_norm")
    return _out(_vector_norm_fallback(x, ord, dim, keepdim, dtype), out, "linalg_vector_norm")


def _vector_norm_fallback(x: Tensor, ord: Any, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    """A composite stand-in until `_linalg_vector_norm` lands in ops/reduction.py.

    Differences: grad_fn names (no LinalgVectorNormBackward0), and the 2-norm of an all-zero
    input has a nan gradient (torch: 0).
    """
    if dtype is not None:
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(
                f"linalg.vector_norm: dtype should be floating point or complex, but got "
                f"{dtype._short}"
            )
        x = x.to(dtype)
    elif not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{x.dtype._short}"
        )
    dims = wrap_dims(dim, x.ndim) if dim is not None else tuple(range(x.ndim))
    a = _abs(x)
    if ord == math.inf:
        return _extreme(a, dims, keepdim, True)
    if ord == -math.inf:
        return _extreme(a, dims, keepdim, False)
    if ord == 0:
        return (x != 0).to(x.dtype).sum(dims, keepdim)
    if ord == 1:
        return a.sum(dims, keepdim)
    return (a**ord).sum(dims, keepdim) ** (1.0 / ord)


def _abs(x: Tensor) -> Tensor:
    fn = getattr(_sg, "abs", None)
    if fn is not None:
        return fn(x)
    sign = _make(np.sign(x._data))
    return x * sign


def _extreme(t: Tensor, dims: Any, keepdim: bool, largest: bool) -> Tensor:
    """amax/amin over dims: the reductions family's ops, or a stand-in that splits the gradient
    evenly among ties as they do."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    fn = getattr(_sg, "amax" if largest else "amin", None)
    if fn is not None:
        return fn(t, dims, keepdim)
    arr = t._data
    m = arr.max(axis=dims, keepdims=True) if largest else arr.min(axis=dims, keepdims=True)
    mask = (arr == m).astype(arr.dtype)
    count = mask.sum(axis=dims, keepdims=keepdim)
    return (t * _make(mask)).sum(dims, keepdim) / _make(count)


def matrix_norm(
    A: Tensor,
    ord: Any = "fro",
    dim: tuple[int, int] = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.matrix_norm`: torch's checks in its order (the order itself, the
    input's rank and type, dim, then dtype=; out= must have the result's dtype)."""
    r = _matrix_norm(A, ord, dim, keepdim, dtype)
    if out is not None and out.dtype is not r.dtype:
        raise RuntimeError(
            f"linalg.matrix_norm expected out tensor dtype {r.dtype._short} but got: "
            f"{out.dtype._short}"
        )
    return _out(r, out, "linalg_matrix_norm")


def _matrix_norm(A: Tensor, ord: Any, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    else:
        D.check_int_scalar(ord)
        if abs(float(ord)) not in (1.0, 2.0, math.inf):
            raise RuntimeError(f"linalg.matrix_norm: Order {float(ord):g} not supported.")
    if A.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(
            "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
            f"{A.dtype._short}"
        )
    if (
        A.dtype.is_floating_point
        and A.dtype.itemsize == 2
        and (ord == "nuc" or (not isinstance(ord, str) and abs(ord) == 2))
    ):
        # the singular-value orders: no half-precision SVD
        raise RuntimeError(
            f"linalg.matrix_norm: Low precision dtypes not supported. Got {A.dtype._short}"
        )
    if len(dim) != 2:
        raise RuntimeError(
            f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}"
        )
    d0, d1 = (wrap_dim(d, A.ndim) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    check_norm_dtype(dtype, A.dtype, "linalg.matrix_norm")
    if dtype is not None:
        A = A.to(dtype)
    out = None
    if isinstance(ord, str):
        if ord == "fro":
            return vector_norm(A, 2, (d0, d1), keepdim)
        r = svdvals(_to_end(A, d0, d1)).sum(-1, keepdim)
        return _out(_keep(r, d0, d1, keepdim), out, "linalg_matrix_norm")
    if ord in (2, 1, math.inf):
        # torch's max over nothing (no singular values; the ord-1/inf column sums of a matrix
        # without columns): zeros, outside autograd. The min-type orders raise amin's error.
        sh = A._data.shape
        empty = min(sh[d0], sh[d1]) == 0 if ord == 2 else sh[d1 if ord == 1 else d0] == 0
        if empty:
            shape = [1 if i in (d0, d1) else n for i, n in enumerate(sh)]
            if not keepdim:
                shape = [n for i, n in enumerate(sh) if i not in (d0, d1)]
            z = np.zeros(shape, np.finfo(A._data.dtype).dtype)
            return _out(_make(z), out, "linalg_matrix_norm")
    if abs(ord) == 2:
        r = _extreme(svdvals(_to_end(A, d0, d1)), -1, keepdim, ord > 0)
        return _out(_keep(r, d0, d1, keepdim), out, "linalg_matrix_norm")
    if abs(ord) in (1, math.inf):
        if abs(ord) == math.inf:
            d0, d1 = d1, d0
        if not keepdim and d0 < d1:
            d1 -= 1
        s = vector_norm(A, 1, d0, keepdim)
        return _out(_extreme(s, d1, keepdim, ord > 0), out, "linalg_matrix_norm")
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def _to_end(A: Tensor, d0: int, d1: int) -> Tensor:
    rest = [i for i in range(A.ndim) if i not in (d0, d1)]
    return A.permute(*rest, d0, d1)


def _keep(r: Tensor, d0: int, d1: int, keepdim: bool) -> Tensor:
    """With keepdim, torch adds the second dim back and permutes both to their places."""
    if not keepdim:
        return r
    nd = r.ndim + 1
    rest = [i for i in range(nd) if i not in (d0, d1)]
    perm = [*rest, d0, d1]
    return r.unsqueeze(-1).permute(*np.argsort(perm).tolist())


def norm(
    A: Tensor,
    ord: Any = None,
    dim: int | tuple[int, ...] | None = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.norm`: a matrix norm for a string ord or two dims, else a vector
    norm; out= must have the result's dtype."""
    r = _norm(A, ord, dim, keepdim, dtype)
    if out is not None and out.dtype is not r.dtype:
        raise RuntimeError(
            f"linalg.norm expected out tensor dtype {r.dtype._short} but got: {out.dtype._short}"
        )
    return _out(r, out, "linalg_norm")


def _norm(A: Tensor, ord: Any, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(
                f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}"
            )
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or "
            f"2D. Got {A.ndim}D."
        )
    if ord is not None:
        if isinstance(ord, str) or (dim is not None and len(dim) == 2):
            return _matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype)
        if dim is None and A.ndim == 2:
            return _matrix_norm(A, ord, (-2, -1), keepdim, dtype)
    # no ord: torch's linalg_norm passes the Scalar 2.0 (the node's _saved_ord)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)
