"""More linear algebra: the solvers, factorizations and products torch.linalg has beyond the
core family in linalg.py (multi_dot, pinv, matrix_exp, solve_triangular, lstsq, vecdot,
matrix_rank, cond, vander, ...), with torch's backward formulas written in shadowgrad ops.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._tensor import Tensor, _make
from .linalg import (
    _check_matrix,
    _eye,
    _inv,
    _LinAlgError,
    _mT,
    _return_type,
    _svd,
    _tril,
    _triu,
    matmul,
    mm,
)
from .pointwise import _out
from .registry import defop
from .shape import cat

# --- multi_dot ------------------------------------------------------------------------------


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The split points of the cheapest product of a chain of matrices (dims[i] x dims[i+1]),
    first minimum on ties as torch's dynamic programme picks it."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(tensors: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.multi_dot`: mm nodes in the cheapest order, then a view."""
    ts = list(tensors)
    n = len(ts)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    if ts[0].ndim not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {ts[0].ndim}D")
    if ts[-1].ndim not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {ts[-1].ndim}D")
    for i in range(1, n - 1):
        if ts[i].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {ts[i].ndim}D")
    shape: list[int] = []
    if ts[0].ndim == 2:
        shape.append(ts[0]._data.shape[0])
    if ts[-1].ndim == 2:
        shape.append(ts[-1]._data.shape[1])
    for i in range(1, n):
        if ts[i].dtype is not ts[0].dtype:
            raise RuntimeError(
                "multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{_cname(ts[0])} and tensor {i} {_cname(ts[i])}"
            )
    mats = [ts[0].unsqueeze(0) if ts[0].ndim == 1 else ts[0], *ts[1:-1]]
    mats.append(ts[-1].unsqueeze(-1) if ts[-1].ndim == 1 else ts[-1])
    for i in range(n - 1):
        a, b = mats[i]._data.shape, mats[i + 1]._data.shape
        if a[1] != b[0]:
            sa, sb = list(ts[i]._data.shape), list(ts[i + 1]._data.shape)
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {sa} and {sb} cannot be "
                "multiplied"
            )
    if n == 2:
        r = mm(mats[0], mats[1])
    elif n == 3:
        a, b = mats[0]._data.shape
        c, d = mats[2]._data.shape
        if a * b * c + a * c * d <= b * c * d + a * b * d:  # (AB)C on a tie, as torch
            r = mm(mm(mats[0], mats[1]), mats[2])
        else:
            r = mm(mats[0], mm(mats[1], mats[2]))
    else:
        dims = [m._data.shape[0] for m in mats] + [mats[-1]._data.shape[1]]
        split = _chain_order(dims)

        def prod(i: int, j: int) -> Tensor:
            if i == j:
                return mats[i]
            k = split[i][j]
            return mm(prod(i, k), prod(k + 1, j))

        r = prod(0, n - 1)
    return _out(r.view(*shape), out, "linalg_multi_dot")


def _cname(t: Tensor) -> str:
    from .._dtype import CPP_NAMES

    return str(CPP_NAMES[t.dtype])


# --- pinv, matrix_rank ----------------------------------------------------------------------


def _tolerances(A: np.ndarray, atol: Any, rtol: Any, top: np.ndarray) -> np.ndarray:
    """max(atol, rtol * largest singular value), with torch's defaults: rtol = eps * max(m, n)
    when neither is given, 0 when only atol is."""
    real = np.finfo(A.dtype)
    if rtol is None:
        rtol = real.eps * max(A.shape[-2:]) if atol is None or _is_zero(atol) else 0.0
    atol = 0.0 if atol is None else atol
    atol = atol._data if isinstance(atol, Tensor) else atol
    rtol = rtol._data if isinstance(rtol, Tensor) else rtol
    return np.maximum(np.asarray(atol, real.dtype), np.asarray(rtol, real.dtype) * top)


def _is_zero(x: Any) -> bool:
    return isinstance(x, (int, float)) and x == 0


def _pinv_fwd(self: np.ndarray, atol: Any, rtol: Any, hermitian: bool) -> np.ndarray:
    A = self
    m, n = A.shape[-2:]
    if A.size == 0:
        return np.zeros((*A.shape[:-2], n, m), A.dtype)
    if hermitian:
        L, V = np.linalg.eigh(A)
        absL = np.abs(L)
        tol = _tolerances(A, atol, rtol, absL.max(-1))
        keep = absL > tol[..., None]
        inv_l = np.where(keep, 1 / np.where(keep, L, 1), 0).astype(A.dtype)
        return np.matmul(V * inv_l[..., None, :], np.swapaxes(V, -1, -2).conj())
    U, S, Vh = np.linalg.svd(A, full_matrices=False)
    tol = _tolerances(A, atol, rtol, S[..., 0])
    keep = tol[..., None] < S
    inv_s = np.where(keep, 1 / np.where(keep, S, 1), 0).astype(A.dtype)
    return np.matmul(np.swapaxes(Vh, -1, -2).conj() * inv_s[..., None, :], _mHa(U))


def _mHa(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2).conj()


def _pinv_grad(grad: Tensor, A: Tensor, result: Tensor) -> Tensor:
    """The pseudo-inverse's derivative (Golub and Pereyra), P = pinv(A):
    dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P, transposed into a gradient."""
    P = result
    gT = _mT(grad)
    g = -matmul(_mT(P), matmul(grad, _mT(P)))
    g = g + matmul(gT - matmul(matmul(A, P), gT), matmul(P, _mT(P)))
    return g + matmul(matmul(_mT(P), P), gT - matmul(gT, matmul(P, A)))


def _pinv_jvp(A: Tensor, A_t: Tensor, result: Tensor) -> Tensor:
    P = result
    AtT = _mT(A_t)
    d = -matmul(P, matmul(A_t, P))
    d = d + matmul(matmul(P, _mT(P)), AtT - matmul(AtT, matmul(A, P)))
    return d + matmul(AtT - matmul(matmul(P, A), AtT), matmul(_mT(P), P))


_pinv = defop(
    "linalg_pinv.atol_rtol_tensor",
    "LinalgPinvBackward0",
    _pinv_fwd,
    jvp=lambda self, self_t, result: _pinv_jvp(self, self_t, result),
    self=lambda grad, self, result: _pinv_grad(grad, self, result),
)


def _check_pinv_input(A: Tensor, name: str) -> None:
    if (
        A.ndim < 2
        or not (A.dtype.is_floating_point or A.dtype.is_complex)
        or (np.dtype(A.dtype._np).itemsize < 4)
    ):
        short = {"float32": "Float", "float64": "Double"}.get(str(A._data.dtype), A.dtype._short)
        raise RuntimeError(
            f"{name}({short}{{{list(A._data.shape)}}}): expected a tensor with 2 or more "
            "dimensions of float, double, cfloat or cdouble types"
        )


def pinv(
    A: Tensor,
    rcond: Any = None,
    hermitian: bool = False,
    *,
    atol: Any = None,
    rtol: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.pinv` (also its legacy rcond form, where rcond is rtol)."""
    if rcond is not None:
        atol, rtol = 0.0, rcond
    _check_pinv_input(A, "linalg.pinv")
    if hermitian:
        _check_matrix(A, "linalg.eigh")
    return _out(_pinv(A, atol, rtol, hermitian), out, "linalg_pinv")


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """Mirrors `torch.pinverse`."""
    return pinv(input, rcond)


def matrix_rank(
    A: Tensor,
    tol: Any = None,
    hermitian: bool = False,
    *,
    atol: Any = None,
    rtol: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.matrix_rank` (also its legacy tol form, where tol is atol)."""
    if tol is not None:
        atol, rtol = tol, 0.0
    if A.ndim < 2:
        raise RuntimeError(
            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."
        )
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError("This function doesn't handle types other than float and double")
    a = A._data
    if a.size == 0:
        r = np.zeros(a.shape[:-2], np.int64)
    else:
        s = np.abs(np.linalg.eigvalsh(a)) if hermitian else np.linalg.svd(a, compute_uv=False)
        top = s.max(-1)
        r = (s > _tolerances(a, atol, rtol, top)[..., None]).sum(-1).astype(np.int64)
    return _out(_make(np.asarray(r)), out, "linalg_matrix_rank")


# --- matrix_exp -----------------------------------------------------------------------------
# Scaling and squaring with a diagonal Padé approximant (Higham 2005): the lowest degree whose
# bound theta covers the matrix's 1-norm, else degree 13 on A / 2^s, squared s times.

_PADE_THETA = ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
               (7, 9.504178996162932e-1), (9, 2.097847961257068e0))  # fmt: skip
_THETA_13 = 5.371920351148152


def _pade_coefficients(m: int) -> list[float]:
    f = math.factorial
    return [f(2 * m - j) * f(m) / (f(2 * m) * f(j) * f(m - j)) for j in range(m + 1)]


def _pade(a: np.ndarray, m: int) -> np.ndarray:
    b = _pade_coefficients(m)
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    a2 = a @ a
    even, odd = b[0] * eye, b[1] * eye
    p = eye
    for j in range(2, m + 1, 2):
        p = p @ a2
        even = even + b[j] * p
        if j + 1 <= m:
            odd = odd + b[j + 1] * p
    u = a @ odd
    return np.linalg.solve(even - u, even + u)


def _expm(a: np.ndarray) -> np.ndarray:
    if not np.isfinite(a).all():
        return np.full_like(a, np.nan)
    norm = np.abs(a).sum(0).max() if a.size else 0.0
    for m, theta in _PADE_THETA:
        if norm <= theta:
            return _pade(a, m)
    s = max(0, math.ceil(math.log2(norm / _THETA_13))) if norm > 0 else 0
    r = _pade(a / 2.0**s, 13)
    for _ in range(s):
        r = r @ r
    return r


def _matrix_exp_fwd(self: np.ndarray) -> np.ndarray:
    shape = self.shape
    flat = self.reshape(-1, *shape[-2:]).astype(np.result_type(self.dtype, np.float64))
    out = np.stack([_expm(a) for a in flat]) if flat.shape[0] else flat
    return out.reshape(shape).astype(self.dtype)


def _exp_block(A: Tensor, E: Tensor) -> Tensor:
    """The upper-right block of exp([[A, E], [0, A]]): the derivative of exp at A along E."""
    n = A._data.shape[-1]
    zeros = _make(np.zeros(A._data.shape, A._data.dtype))
    top = cat([A, E], -1)
    block = cat([top, cat([zeros, A], -1)], -2)
    return _matrix_exp(block)[..., :n, n:]


_matrix_exp = defop(
    "linalg_matrix_exp",
    "LinalgMatrixExpBackward0",
    _matrix_exp_fwd,
    jvp=lambda self, self_t: _exp_block(self, self_t),
    self=lambda grad, self: _exp_block(_mT(self), grad),
)


def matrix_exp(A: Tensor) -> Tensor:
    """Mirrors `torch.linalg.matrix_exp` (and `torch.matrix_exp`)."""
    _check_matrix(A, "linalg.matrix_exp")
    return _matrix_exp(A)


# --- solve_triangular, triangular_solve -----------------------------------------------------


def _substitute(A: np.ndarray, B: np.ndarray, upper: bool, unit: bool) -> np.ndarray:
    """X with A X = B for triangular A, by substitution (a zero pivot gives inf/nan as LAPACK's
    trsm does, no error)."""
    shape = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    n = A.shape[-1]
    A = np.broadcast_to(A, (*shape, n, n))
    X = np.array(np.broadcast_to(B, (*shape, *B.shape[-2:])), dtype=np.result_type(A, B))
    rows = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in rows:
            done = slice(i + 1, n) if upper else slice(0, i)
            if done.start != done.stop:
                X[..., i, :] -= np.matmul(A[..., i : i + 1, done], X[..., done, :])[..., 0, :]
            if not unit:
                X[..., i, :] /= A[..., i, i, None]
    return X


def _trsm_fwd(A: np.ndarray, B: np.ndarray, upper: bool, left: bool, unit: bool) -> np.ndarray:
    if left:
        return _substitute(A, B, upper, unit)
    At, Bt = np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2)
    return np.swapaxes(_substitute(At, Bt, not upper, unit), -1, -2)


def _tri(t: Tensor, upper: bool, unit: bool) -> Tensor:
    """The triangle the solve reads (strictly, with a unit diagonal)."""
    return _triu(t, int(unit)) if upper else _tril(t, -int(unit))


def _trsm_grad_A(
    grad: Tensor, A: Tensor, result: Tensor, upper: bool, left: bool, unit: bool
) -> Tensor:
    gB = _trsm(_mT(A), grad, not upper, left, unit)
    gA = -matmul(gB, _mT(result)) if left else -matmul(_mT(result), gB)
    return _tri(gA, upper, unit)


def _trsm_jvp(
    A: Tensor, upper: bool, left: bool, unit: bool, A_t: Any, B_t: Any, result: Tensor
) -> Tensor:
    rhs = B_t
    if A_t is not None:
        At = _tri(A_t, upper, unit)
        d = matmul(At, result) if left else matmul(result, At)
        rhs = -d if rhs is None else rhs - d
    return _trsm(A, rhs, upper, left, unit)


_trsm = defop(
    "linalg_solve_triangular",
    "LinalgSolveTriangularBackward0",
    _trsm_fwd,
    jvp=_trsm_jvp,
    A=_trsm_grad_A,
    B=lambda grad, A, upper, left, unit: _trsm(_mT(A), grad, not upper, left, unit),
)


def _check_triangular(A: Tensor, B: Tensor, left: bool, fname: str) -> None:
    for name, t in (("A", A), ("B", B)):
        if t.ndim < 2:
            raise RuntimeError(f"{fname}: The input tensor {name} must have at least 2 dimensions.")
    sa, sb = A._data.shape, B._data.shape
    if sa[-1] != sa[-2]:
        raise RuntimeError(
            f"{fname}: A must be batches of square matrices, but they are {sa[-2]} by {sa[-1]} "
            "matrices"
        )
    if (sb[-2] if left else sb[-1]) != sa[-1]:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation {eq} "
            f"({sa[-2]}x{sa[-1]} and {sb[-2]}x{sb[-1]})"
        )


def _check_trsm_dtype(A: Tensor, B: Tensor) -> None:
    from .._dtype import promote_types

    dt = promote_types(A.dtype, B.dtype)
    if not (dt.is_floating_point or dt.is_complex) or np.dtype(dt._np).itemsize < 4:
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{dt._short}'")


def solve_triangular(
    A: Tensor,
    B: Tensor,
    *,
    upper: bool,
    left: bool = True,
    unitriangular: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.solve_triangular`."""
    _check_triangular(A, B, left, "linalg.solve_triangular")
    _check_trsm_dtype(A, B)
    return _out(_trsm(A, B, upper, left, unitriangular), out, "linalg_solve_triangular")


def _trsv_fwd(
    self: np.ndarray, A: np.ndarray, upper: bool, transpose: bool, unitriangular: bool
) -> tuple[np.ndarray, np.ndarray]:
    b, unit = self, unitriangular
    if transpose:
        A_ = np.swapaxes(A, -1, -2)
        X = _substitute(A_, b, not upper, unit)
    else:
        X = _substitute(A, b, upper, unit)
    shape = np.broadcast_shapes(A.shape[:-2], b.shape[:-2])
    return X, np.array(np.broadcast_to(A, (*shape, *A.shape[-2:])))


def _trsv_grads(
    grads: list[Tensor], A: Tensor, result: Tensor, upper: bool, transpose: bool, unit: bool
) -> tuple[Tensor, Tensor]:
    """(gb, gA) of the legacy triangular_solve: the solve's gradients (the one for A read on
    the triangle only) plus the cloned coefficient's gradient, unmasked."""
    gX, gM = grads
    M = _mT(A) if transpose else A
    up = upper != transpose
    gb = _trsm(_mT(M), gX, not up, True, unit)
    gA = _tri(-matmul(gb, _mT(result)), up, unit)
    return gb, (_mT(gA) if transpose else gA) + gM


def _trsv_jvp(
    A: Tensor,
    upper: bool,
    transpose: bool,
    unitriangular: bool,
    self_t: Any,
    A_t: Any,
    result: Any,
) -> tuple[Tensor, Tensor]:
    unit = unitriangular
    X = result[0]
    M = _mT(A) if transpose else A
    up = upper != transpose
    Mt = None if A_t is None else (_mT(A_t) if transpose else A_t)
    dX = _trsm_jvp(M, up, True, unit, Mt, self_t, X)
    dM = A_t if A_t is not None else _make(np.zeros(result[1]._data.shape, X._data.dtype))
    return dX, dM


_triangular_solve = defop(
    "triangular_solve",
    "TriangularSolveBackward0",
    _trsv_fwd,
    n_outputs=2,
    jvp=_trsv_jvp,
    self=lambda grads, A, result, upper, transpose, unitriangular: _trsv_grads(
        grads, A, result, upper, transpose, unitriangular
    )[0],
    A=lambda grads, A, result, upper, transpose, unitriangular: _trsv_grads(
        grads, A, result, upper, transpose, unitriangular
    )[1],
)


def triangular_solve(
    input: Tensor,
    A: Tensor,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
    *,
    out: Any = None,
) -> Any:
    """Mirrors the deprecated `torch.triangular_solve`: (solution, cloned_coefficient)."""
    warnings.warn(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"
        "and will be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has "
        "its arguments reversed and does not return a copy of one of the inputs.\n"
        "X = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
        "X = torch.linalg.solve_triangular(A, B).",
        UserWarning,
        stacklevel=2,
    )
    if input.ndim < 2:
        raise RuntimeError(
            "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has "
            f"{input.ndim} dimensions instead"
        )
    if A.ndim < 2:
        raise RuntimeError(
            "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has "
            f"{A.ndim} dimensions instead"
        )
    sa, sb = A._data.shape, input._data.shape
    if sa[-1] != sa[-2]:
        raise RuntimeError(
            f"A must be batches of square matrices, but they are {sa[-2]} by {sa[-1]} matrices"
        )
    if sa[-1] != sb[-2]:
        raise RuntimeError(
            f"Incompatible matrix sizes for triangular_solve: each A matrix is {sa[-2]} by "
            f"{sa[-1]} but each b matrix is {sb[-2]} by {sb[-1]}"
        )
    if input.dtype is not A.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {input.dtype._short} "
            f"and A of type {A.dtype._short} instead."
        )
    _check_trsm_dtype(A, input)
    outs = _triangular_solve(input, A, upper, transpose, unitriangular)
    return _return_type("triangular_solve", ("solution", "cloned_coefficient"), outs)


# --- lstsq ----------------------------------------------------------------------------------

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_fwd(
    self: np.ndarray, b: np.ndarray, rcond: Any, driver: str, vector: bool
) -> tuple[np.ndarray, ...]:
    A = self
    B = b[..., None] if vector else b
    m, n = A.shape[-2:]
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    A = np.broadcast_to(A, (*batch, m, n))
    B = np.broadcast_to(B, (*batch, m, B.shape[-1]))
    real = np.finfo(A.dtype).dtype
    if rcond is None:
        rcond = np.finfo(A.dtype).eps * max(m, n)
    flat_a = A.reshape(-1, m, n)
    flat_b = B.reshape(-1, m, B.shape[-1])
    X = np.zeros((flat_a.shape[0], n, B.shape[-1]), A.dtype)
    ranks = np.zeros(flat_a.shape[0], np.int64)
    svals = np.zeros((flat_a.shape[0], min(m, n)), real)
    for k, (a, bb) in enumerate(zip(flat_a, flat_b, strict=True)):
        if a.size == 0:
            continue
        if driver == "gels":
            ranks[k] = min(m, n)
            if m >= n and np.linalg.matrix_rank(a) < n:
                raise _LinAlgError(
                    "torch.linalg.lstsq: The least squares solution could not be computed "
                    "because the input matrix does not have full rank (error code: "
                    f"{_gels_rank_info(a)})."
                )
        x, _, rk, sv = np.linalg.lstsq(a, bb, rcond=rcond)
        X[k], svals[k] = x, sv
        if driver != "gels":
            ranks[k] = rk
    X = X.reshape(*batch, n, B.shape[-1])
    full = bool((ranks == n).all())
    if driver != "gelsy" and m > n and full:
        residuals = ((np.matmul(A, X) - B) ** 2).sum(-2).astype(A.dtype)
    else:
        residuals = np.zeros((0,), A.dtype)
    if vector:
        X = X[..., 0]
        if residuals.size:
            residuals = residuals[..., 0]
    rank = ranks.reshape(batch) if driver != "gels" else np.zeros((0,), np.int64)
    sv_out = svals.reshape(*batch, -1) if driver in ("gelsd", "gelss") else np.zeros((0,), real)
    return X, residuals, rank, sv_out


def _gels_rank_info(a: np.ndarray) -> int:
    r = np.abs(np.diagonal(np.linalg.qr(a, mode="r")))
    zero = np.flatnonzero(r <= np.finfo(a.dtype).eps * max(a.shape) * max(r.max(), 1))
    return int(zero[0]) + 1 if zero.size else a.shape[-1]


def _lstsq_grads(
    grads: list[Tensor], self: Tensor, b: Tensor, result: Tensor, vector: bool
) -> tuple[Tensor, Tensor]:
    """(gA, gB) as for X = pinv(A) B, plus the residuals' own gradient: at the optimum, the
    derivative of |A X - B|^2 is 2 (A X - B) X^T in A and -2 (A X - B) in B."""
    gX, gR = grads[0], grads[1]
    X = result.unsqueeze(-1) if vector else result
    B = b.unsqueeze(-1) if vector else b
    gX = gX.unsqueeze(-1) if vector else gX
    P = _pinv(self, None, None, False)
    gA = _pinv_grad(matmul(gX, _mT(B)), self, P)
    gB = matmul(_mT(P), gX)
    if gR._data.size and (gR._rg or gR._data.any()):
        R = matmul(self, X) - B
        w = 2 * R * (gR.unsqueeze(-1) if vector else gR).unsqueeze(-2)
        gA = gA + matmul(w, _mT(X))
        gB = gB - w
    return gA, (gB.squeeze(-1) if vector else gB)


_lstsq = defop(
    "linalg_lstsq",
    "LinalgLstsqBackward0",
    _lstsq_fwd,
    n_outputs=4,
    diff_outputs=(0, 1),
    self=lambda grads, self, b, result, vector: _lstsq_grads(grads, self, b, result, vector)[0],
    b=lambda grads, self, b, result, vector: _lstsq_grads(grads, self, b, result, vector)[1],
)


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None) -> Any:
    """Mirrors `torch.linalg.lstsq`: (solution, residuals, rank, singular_values).

    Differences: every driver solves with numpy's SVD-based lstsq (torch's gelsy uses a
    pivoted QR), so rank-deficient solutions agree only up to rounding.
    """
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype is not B.dtype:
        raise RuntimeError(
            "torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
            f"input's dtype {A.dtype._short} and other's dtype {B.dtype._short}"
        )
    vector = B.ndim == A.ndim - 1
    if A._data.shape[-2] != B._data.shape[-1 if vector else -2]:
        where = "other.size(-1)" if vector else "other.size(-2)"
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match {where}")
    if driver is None:
        driver = "gelsy"
    if driver not in _DRIVERS:
        raise RuntimeError(
            "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
        )
    _check_matrix(A, "torch.linalg.lstsq", square=False)
    outs = _lstsq(A, B, rcond, driver, vector)
    return _return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"), outs)


# --- vecdot, cond, diagonal, vander ---------------------------------------------------------


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.vecdot`: sum(conj(x) * y, dim)."""
    if x.dtype is not y.dtype:
        raise RuntimeError(
            "linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
            f"{x.dtype._short} and y of type {y.dtype._short} instead"
        )
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(
            "linalg.vecdot: Expected a floating point or complex tensor as input. Got "
            f"{x.dtype._short}"
        )
    xc = x.conj() if x.dtype.is_complex else x
    return _out((xc * y).sum(dim), out, "linalg_vecdot")


_COND_NORMS = ("fro", "nuc", math.inf, -math.inf, 1, -1)


def cond(A: Tensor, p: Any = None, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.cond`: the ratio of extreme singular values for p in (None, 2, -2),
    norm(A) * norm(inv(A)) otherwise (inf where A is singular)."""
    if p is not None and p not in (2, -2) and p not in _COND_NORMS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if A.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p is None or p in (2, -2):
        _check_matrix(A, "linalg.svd", square=False)
        s = _svd(A, False)[1]
        big, small = s[..., :1], s[..., -1:]
        r = big / small if p != -2 else small / big
        return _out(r.squeeze(-1), out, "linalg_cond")
    _check_matrix(A, f"linalg.cond(ord={p})")
    if p == "nuc":
        s = _svd(A, False)[1]
        return _out(s.sum(-1) * s.reciprocal().sum(-1), out, "linalg_cond")
    from ..linalg import matrix_norm

    singular = _singular_mask(A._data)
    mask = _make(singular[..., None, None])
    if singular.any():
        # torch fills the inverses of singular matrices with inf; ours are taken of the
        # identity in their place (the inverse op raises where torch's inv_ex reports)
        from .pointwise import where

        Ainv = _inv(where(mask, _eye(A._data.shape[-1], A), A))
    else:
        Ainv = _inv(A)
    Ainv = Ainv.masked_fill(mask, math.inf)
    r = matrix_norm(A, p) * matrix_norm(Ainv, p)
    return _out(r.nan_to_num(math.inf), out, "linalg_cond")


def _singular_mask(a: np.ndarray) -> np.ndarray:
    """Which matrices of a batch LU finds singular (an exact zero pivot)."""
    from .linalg import _zero_pivot

    flat = a.reshape(-1, *a.shape[-2:])
    return np.array([_zero_pivot(m) > 0 for m in flat], bool).reshape(a.shape[:-2])


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Mirrors `torch.linalg.diagonal`."""
    return A.diagonal(offset, dim1, dim2)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """Mirrors `torch.linalg.vander`: ones, then the cumulative products of x."""
    if x._data.dtype == np.bool_:
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer tensors, but got Bool"
        )
    n = x._data.shape[-1] if x.ndim else 1
    if N is None:
        N = n
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    from .._creation import ones

    powers = x.unsqueeze(-1).expand(*x._data.shape, N - 1).cumprod(-1)
    return cat([ones(*x._data.shape, 1, dtype=powers.dtype), powers], -1)


METHODS: dict[str, Any] = {
    "pinverse": pinverse,
    "matrix_exp": matrix_exp,
    "triangular_solve": triangular_solve,
}
FUNCTIONS: dict[str, Any] = {
    "pinverse": pinverse,
    "matrix_exp": matrix_exp,
    "triangular_solve": triangular_solve,
}
