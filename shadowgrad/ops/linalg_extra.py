"""More linear algebra: the solvers, factorizations and products torch.linalg has beyond the
core family in linalg.py (multi_dot, pinv, matrix_exp, solve_triangular, lstsq, vecdot,
matrix_rank, cond, vander, ...), with torch's backward formulas written in shadowgrad ops.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor, _make, warn_once
from ._util import shape_str
from .linalg import (
    _check_matrix,
    _eye,
    _inv_ex,
    _LinAlgError,
    _lout,
    _louts,
    _mH,
    _mT,
    _np_svd,
    _return_type,
    _save_outputs,
    _svd,
    _tril,
    _triu,
    _zero_pad,
    matmul,
    mm,
)
from .pointwise import _out
from .registry import column_major, defop, infer_size
from .shape import cat
from .shape_extra import _no_derivative

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
    if out is not None and out.dtype is not r.dtype:
        from .._dtype import CPP_NAMES

        raise RuntimeError(
            f"multi_dot(): expected out tensor to have dtype {CPP_NAMES[r.dtype]} but got "
            f"{CPP_NAMES[out.dtype]}"
        )
    return _out(r.view(tuple(shape)), out, "mm")


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
    U, S, Vh = _np_svd(A, full_matrices=False)
    tol = _tolerances(A, atol, rtol, S[..., 0])
    keep = tol[..., None] < S
    inv_s = np.where(keep, 1 / np.where(keep, S, 1), 0).astype(A.dtype)
    return np.matmul(np.swapaxes(Vh, -1, -2).conj() * inv_s[..., None, :], _mHa(U))


def _mHa(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2).conj()


def _pinv_grad(grad: Tensor, A: Tensor, result: Tensor) -> Tensor:
    """torch's pinv_backward (Golub and Pereyra's derivative of P = pinv(A)), its terms
    ordered as torch's so that a double-backward graph has torch's nodes; the products are
    arranged to keep the smallest matrices."""
    P = result
    Ph = _mH(P)
    gh = _mH(grad)
    m, n = A._data.shape[-2:]
    if m <= n:
        K = matmul(gh, P)
        KPh = matmul(K, Ph)
        return (
            -_mH(matmul(P, K))
            + KPh
            - matmul(matmul(A, P), KPh)
            + matmul(matmul(Ph, P), gh - matmul(K, A))
        )
    K = matmul(P, gh)
    PhK = matmul(Ph, K)
    return (
        -_mH(matmul(K, P))
        + matmul(matmul(gh - matmul(A, K), P), Ph)
        + PhK
        - matmul(matmul(PhK, P), A)
    )


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
    complex=True,  # written with mH, as torch's
)


def _check_pinv_input(A: Tensor, name: str) -> None:
    if (
        A.ndim < 2
        or not (A.dtype.is_floating_point or A.dtype.is_complex)
        or (A.dtype.itemsize < 4)
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
    _check_pinv_input(A, "linalg.pinv")
    if rcond is not None:
        _check_tolerance(rcond, "torch.linalg.pinv", "rcond")
        atol, rtol = 0.0, rcond
    else:
        _check_tolerance(atol, "torch.linalg.pinv", "atol")
        _check_tolerance(rtol, "torch.linalg.pinv", "rtol")
    if hermitian:
        _check_matrix(A, "linalg.eigh")
    return _lout(_pinv(A, atol, rtol, hermitian), out, "linalg_pinv", "cast", "linalg.pinv")


def _check_tolerance(tol: Any, fname: str, name: str) -> None:
    if isinstance(tol, Tensor) and tol.dtype.is_complex:
        raise RuntimeError(
            f"{fname}: {name} tensor of complex type is not supported. Got {tol.dtype._short}"
        )


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """Mirrors `torch.pinverse`."""
    try:
        return pinv(input, rcond)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("pinverse", (rcond,), {})
        raise


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
    _check_tolerance(atol, "torch.linalg.matrix_rank", "atol")
    _check_tolerance(rtol, "torch.linalg.matrix_rank", "rtol")
    if not (A.dtype.is_floating_point or A.dtype.is_complex) or A.dtype.itemsize < 4:
        raise RuntimeError("This function doesn't handle types other than float and double")
    a = A._data
    if a.size == 0:
        r = np.zeros(a.shape[:-2], np.int64)
    else:
        s = np.abs(np.linalg.eigvalsh(a)) if hermitian else _np_svd(a, compute_uv=False)
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
    flat = self.reshape(math.prod(shape[:-2]), *shape[-2:])  # -1 fails for 0 x 0 matrices
    flat = flat.astype(np.result_type(self.dtype, np.float64))
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
    complex={"self": lambda grad, self: _exp_block(_mH(self), grad)},  # the adjoint differential
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
    cplx = X.dtype.kind == "c"
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in rows:
            done = slice(i + 1, n) if upper else slice(0, i)
            if done.start != done.stop:
                X[..., i, :] -= np.matmul(A[..., i : i + 1, done], X[..., done, :])[..., 0, :]
            if not unit:
                X[..., i, :] /= A[..., i, i, None]
                zero = A[..., i, i] == 0
                if cplx and zero.any():  # LAPACK's complex division by zero: nan + nan j
                    row = X[..., i, :]
                    row[np.broadcast_to(zero[..., None], row.shape)] = complex(np.nan, np.nan)
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
    gB = _trsm(_mH(A), grad, not upper, left, unit)
    gA = -matmul(gB, _mH(result)) if left else -matmul(_mH(result), gB)
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
    B=lambda grad, A, upper, left, unit: _trsm(_mH(A), grad, not upper, left, unit),
    complex=True,  # written with mH, as torch's
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
    if not (dt.is_floating_point or dt.is_complex) or dt.itemsize < 4:
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{dt._short}'")


_REQUIRED: Any = object()


def solve_triangular(
    A: Tensor,
    B: Tensor,
    *,
    upper: bool = _REQUIRED,  # type: ignore[assignment]
    left: bool = True,
    unitriangular: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.solve_triangular`."""
    if upper is _REQUIRED:  # torch's argument parser's wording
        raise TypeError(
            'linalg_solve_triangular() missing 1 required positional arguments: "upper"'
        )
    _check_triangular(A, B, left, "linalg.solve_triangular")
    _check_trsm_dtype(A, B)
    X = _trsm(A, B, upper, left, unitriangular)
    return _lout(X, out, "linalg_solve_triangular", "scalar")


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
    gb = _trsm(_mH(M), gX, not up, True, unit)
    gA = _tri(-matmul(gb, _mH(result)), up, unit)
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
    complex=True,  # written with mH, as torch's
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
    if (
        (upper is not True and upper is not False)
        or (transpose is not False and transpose is not True)
        or (unitriangular is not False and unitriangular is not True)
    ):  # torch's parser takes bools only
        _flag_refused("triangular_solve", (A, upper, transpose, unitriangular))
    try:
        # torch warns once a process (TORCH_WARN_ONCE)
        warn_once(
            "triangular_solve_deprecated",
            "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"
            "and will be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has "
            "its arguments reversed and does not return a copy of one of the inputs.\n"
            "X = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
            "X = torch.linalg.solve_triangular(A, B).",
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
                "Expected b and A to have the same dtype, but found "
                f"b of type {input.dtype._short} "
                f"and A of type {A.dtype._short} instead."
            )
        _check_trsm_dtype(A, input)
        outs = _triangular_solve(input, A, upper, transpose, unitriangular)
        outs = _louts(outs, out, "triangular_solve")
        return _return_type("triangular_solve", ("solution", "cloned_coefficient"), outs)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("triangular_solve", (A, upper, transpose, unitriangular), {})
        raise


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
    nb = math.prod(A.shape[:-2])  # -1 fails for empty matrices
    flat_a = A.reshape(nb, m, n)
    flat_b = B.reshape(nb, m, B.shape[-1])
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
        # squared moduli: real, as torch's (a complex A has real residuals)
        residuals = (np.abs(np.matmul(A, X) - B) ** 2).sum(-2).astype(real)
    else:
        residuals = np.zeros((0,), real)
    if vector:  # the residuals keep the column's dim, as torch's
        X = X[..., 0]
    # rank and singular values are A's: its batch shape, not the broadcast one
    lead = (0,) * (len(batch) - self.ndim + 2)
    own = (*lead, *(slice(0, 1) if d == 1 else slice(None) for d in self.shape[:-2]))
    rank = ranks.reshape(batch)[own] if driver != "gels" else np.zeros((0,), np.int64)
    if driver in ("gelsd", "gelss"):
        sv_out = svals.reshape(*batch, -1)[own]
    else:
        sv_out = np.zeros((0,), real)
    return X, residuals, rank, sv_out


def _gels_rank_info(a: np.ndarray) -> int:
    r = np.abs(np.diagonal(np.linalg.qr(a, mode="r")))
    zero = np.flatnonzero(r <= np.finfo(a.dtype).eps * max(a.shape) * max(r.max(), 1))
    return int(zero[0]) + 1 if zero.size else a.shape[-1]


def _lstsq_grads(
    grads: list[Tensor], self: Tensor, b: Tensor, result: Tensor, vector: bool
) -> tuple[Tensor, Tensor]:
    """(gA, gB) as for X = pinv(A) B, plus the residuals' own gradient: at the optimum, the
    derivative of |A X - B|^2 is 2 (A X - B) X^H in A and -2 (A X - B) in B (written with mH:
    complex inputs too)."""
    gX, gR = grads[0], grads[1]
    X = result.unsqueeze(-1) if vector else result
    B = b.unsqueeze(-1) if vector else b
    gX = gX.unsqueeze(-1) if vector else gX
    P = _pinv(self, None, None, False)
    gA = _pinv_grad(matmul(gX, _mH(B)), self, P)
    gB = matmul(_mH(P), gX)
    if gR._data.size and (gR._rg or gR._data.any()):
        R = matmul(self, X) - B
        w = 2 * R * gR.unsqueeze(-2)
        gA = gA + matmul(w, _mH(X))
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
    complex=True,
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
    sa, sb = A._data.shape, B._data.shape
    dim_diff = A.ndim - B.ndim
    if not 0 <= dim_diff <= 1:
        raise RuntimeError(
            "torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
            "(input.dim() - other.dim()) <= 1"
        )
    vector = B.ndim == 1 or (dim_diff == 1 and sb == sa[:-1])  # torch's is_vector_rhs
    if sa[-2] != sb[-1 if vector else -2]:
        where = "other.size(-1)" if vector else "other.size(-2)"
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match {where}")
    # torch broadcasts the batch dims of other, taken as a column when one dim shorter
    infer_size(sa[:-2], ((*sb, 1) if dim_diff else sb)[:-2])
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
    if out is not None and out.dtype is not x.dtype:  # checked first, as torch's vecdot_out
        raise RuntimeError(
            f"linalg.vecdot: Expected out of dtype{x.dtype._short} but found {out.dtype._short}"
        )
    xc = x.conj() if x.dtype.is_complex else x
    return _out((xc * y).sum(dim), out, "sum")


_COND_NORMS = ("fro", "nuc", math.inf, -math.inf, 1, -1)


def cond(A: Tensor, p: Any = None, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.cond`: the ratio of extreme singular values for p in (None, 2, -2),
    norm(A) * norm(inv(A)) otherwise (inf where A is singular)."""
    if p is not None and p not in (2, -2) and p not in _COND_NORMS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if p is None or p in (2, -2):
        if A.ndim < 2:
            raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
        _check_matrix(A, "linalg.svd", square=False)
        s = _svd(A, False)[1]
        big, small = s[..., :1], s[..., -1:]
        r = big / small if p != -2 else small / big
        return _out(r.squeeze(-1), out, "linalg_cond")
    name = f"linalg.cond(ord={p})"
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    m, n = A._data.shape[-2:]
    if m != n:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are {m} by {n} matrices"
        )
    # torch checks the dtype where it computes: in svd for 'nuc', in inv_ex otherwise
    _check_matrix(A, "linalg.svd" if p == "nuc" else "linalg.inv")
    if p == "nuc":
        s = _svd(A, False)[1]
        return _out(s.sum(-1) * s.reciprocal().sum(-1), out, "linalg_cond")
    from ..linalg import matrix_norm

    # torch fills the inverses of singular matrices (inv_ex's info > 0) with inf, in place: the
    # inverse saved by its node changes version, so backward through cond raises (as torch's)
    Ainv, info = _inv_ex(A, None)
    Ainv.masked_fill_(_make(info._data[..., None, None] > 0), math.inf)
    r = matrix_norm(A, p) * matrix_norm(Ainv, p)
    return _out(r.nan_to_num(math.inf, math.inf), out, "linalg_cond")


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """Mirrors `torch.linalg.diagonal`."""
    return A.diagonal(offset, dim1, dim2)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """Mirrors `torch.linalg.vander`: ones, then the cumulative products of x."""
    if x._data.dtype in (np.bool_, np.float16):
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer tensors, but got "
            f"{x.dtype._short}"
        )
    n = x._data.shape[-1] if x.ndim else 1
    if N is None:
        N = n
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    from .._creation import ones

    powers = x.unsqueeze(-1).expand(*x._data.shape, N - 1).cumprod(-1)
    return cat([ones(*x._data.shape, 1, dtype=powers.dtype), powers], -1)


# --- LU: lu_factor, lu, lu_unpack, lu_solve -------------------------------------------------


def _getrf(A: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LU with partial pivoting as LAPACK's getrf: LU packed, 1-based int32 pivots, and info
    (the first zero pivot, 1-based; a zero column is left as it is)."""
    m, n = A.shape[-2:]
    k = min(m, n)
    batch = A.shape[:-2]
    a = np.array(A.reshape(math.prod(batch), m, n))  # -1 fails for empty matrices
    nb = a.shape[0]
    piv = np.zeros((nb, k), np.int32)
    info = np.zeros(nb, np.int32)
    idx = np.arange(nb)
    # LAPACK's izamax picks a complex pivot by |re| + |im| (cabs1), not by modulus
    size = (lambda x: np.abs(x.real) + np.abs(x.imag)) if a.dtype.kind == "c" else np.abs
    for j in range(k):
        p = j + np.argmax(size(a[:, j:, j]), axis=-1) if m > j else np.full(nb, j)
        piv[:, j] = p + 1
        row = a[idx, j].copy()
        a[idx, j] = a[idx, p]
        a[idx, p] = row
        pivot = a[:, j, j]
        nz = pivot != 0
        info[(~nz) & (info == 0)] = j + 1
        scale = np.where(nz, pivot, 1)
        a[:, j + 1 :, j] /= scale[:, None]
        a[:, j + 1 :, j + 1 :] -= a[:, j + 1 :, j, None] * a[:, j, None, j + 1 :]
    return a.reshape(A.shape), piv.reshape(*batch, k), info.reshape(batch)


def _perm_matrix(piv: np.ndarray, m: int, dtype: Any) -> np.ndarray:
    """P with A = P L U, from LAPACK's row swaps."""
    batch = piv.shape[:-1]
    flat = piv.reshape(math.prod(batch), piv.shape[-1]) - 1
    perm = np.tile(np.arange(m), (flat.shape[0], 1))
    for j in range(flat.shape[1]):
        for b in range(flat.shape[0]):
            p = flat[b, j]
            perm[b, j], perm[b, p] = perm[b, p], perm[b, j]
    P = np.zeros((flat.shape[0], m, m), dtype)
    rows = np.arange(m)
    for b in range(flat.shape[0]):
        P[b, perm[b], rows] = 1  # row perm[i] of A is row i of L U
    return P.reshape(*batch, m, m)


def _unpack(LU: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, n = LU.shape[-2:]
    k = min(m, n)
    L = np.tril(LU[..., :, :k], -1) + np.eye(m, k, dtype=LU.dtype)
    return L, np.triu(LU[..., :k, :])


def _lu_parts(LU: Tensor) -> tuple[Tensor, Tensor]:
    """L and U of a packed LU, as differentiable tensors."""
    m, n = LU._data.shape[-2:]
    k = min(m, n)
    return _tril(LU[..., :, :k], -1) + _eye(m, LU, k), _triu(LU[..., :k, :])


def _lu_grad(gL: Tensor, gU: Tensor, P: Tensor, L: Tensor, U: Tensor) -> Tensor:
    """The gradient of A = P L U from those of L and U. With X1 = L1^{-1} P^T dA1 U1^{-1} on
    the leading k x k block, dL1 = L1 tril(X1, -1) and dU1 = triu(X1) U1; the extra rows of a
    tall L (columns of a wide U) follow from the rest of P^T dA. Written with mH (complex
    inputs too), as torch's linalg_lu_backward."""
    m, n = L._data.shape[-2], U._data.shape[-1]
    k = min(m, n)
    L1, U1 = L[..., :k, :], U[..., :, :k]
    gL1, gU1 = gL[..., :k, :], gU[..., :, :k]
    phi = _tril(matmul(_mH(L1), gL1), -1) + _triu(matmul(gU1, _mH(U1)))
    if m > k:
        phi = phi - _triu(matmul(_mH(L[..., k:, :]), gL[..., k:, :]))
    if n > k:
        phi = phi - _tril(matmul(gU[..., k:], _mH(U[..., k:])), -1)
    g = _trsm(_mH(L1), phi, True, True, True)  # L1^{-H} phi
    g = _trsm(_mH(U1), g, False, False, False)  # ... U1^{-H}
    if m > k:
        g = cat([g, _trsm(_mH(U1), gL[..., k:, :], False, False, False)], -2)
    if n > k:
        g = cat([g, _trsm(_mH(L1), gU[..., k:], True, True, True)], -1)
    return matmul(P, g)


def _lu_factor_fwd(
    A: np.ndarray, pivot: bool, P_: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _getrf(A)


def _lu_factor_grad(grads: list[Tensor], result: Tensor, P_: Tensor) -> Tensor:
    L, U = _lu_parts(result)
    gLU = grads[0]
    gL, gU = _lu_parts(gLU)  # gL's unit diagonal is dropped by the tril below
    return _lu_grad(_tril(gL, -1), gU, P_, L, U)


def _lu_factor_jvp(A_t: Tensor, result: tuple[Tensor, ...]) -> tuple[Any, ...]:
    LU, piv = result[0], result[1]
    m, n = LU._data.shape[-2:]
    P = _make(_perm_matrix(piv._data, m, LU._data.dtype))
    _, dL, dU = _lu_jvp(A_t, (P, *_lu_parts(LU)))
    if n > dL._data.shape[-1]:
        dL = _zero_pad(dL, -1, n)
    if m > dU._data.shape[-2]:
        dU = _zero_pad(dU, -2, m)
    return _tril(dL, -1) + dU, None, None


_lu_factor_ex = defop(
    "linalg_lu_factor_ex",
    "LinalgLuFactorExBackward0",
    _lu_factor_fwd,
    n_outputs=3,
    diff_outputs=(0,),
    jvp=lambda A_t, result: _lu_factor_jvp(A_t, result),
    A=_lu_factor_grad,
    complex=True,
)


def _check_lu_input(A: Tensor, fname: str) -> None:
    if A.ndim < 2:
        raise RuntimeError(
            f"{fname}: Expected tensor with 2 or more dimensions. Got size: "
            f"{list(A._data.shape)} instead"
        )
    dt = A.dtype
    if not (dt.is_floating_point or dt.is_complex) or dt.itemsize < 4:
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{dt._short}'")


def _lu_factor(A: Tensor, pivot: bool, fname: str) -> tuple[Tensor, Tensor, Tensor]:
    _check_lu_input(A, fname)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    P = _make(np.zeros(0, A._data.dtype))
    outs = _lu_factor_ex(A, pivot, P)
    if A._rg:
        P = _make(_perm_matrix(outs[1]._data, A._data.shape[-2], A._data.dtype))
        node = outs[0]._grad_fn
        if node is not None:
            from ..autograd.graph import resave

            resave(node, "P_", P, is_output=False)
    return outs


def lu_factor_ex(
    A: Tensor, *, pivot: bool = True, check_errors: bool = False, out: Any = None
) -> Any:
    """Mirrors `torch.linalg.lu_factor_ex`: (LU, pivots, info)."""
    if (pivot is not True and pivot is not False) or (
        check_errors is not False and check_errors is not True
    ):
        _flags_refused("linalg_lu_factor_ex", pivot=pivot, check_errors=check_errors)
    outs = _lu_factor(A, pivot, "torch.lu_factor")
    if check_errors:
        _raise_lu_info(outs[2]._data, A._data.shape, "torch.linalg.lu_factor_ex")
    outs = _louts(outs, out, "linalg_lu_factor_ex")
    return _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"), outs)


def _flag_refused(key: str, args: tuple[Any, ...]) -> None:
    """A flag that is neither True nor False: torch's parser error for the method form's
    arguments (worded as the call gave them)."""
    from .._signatures import reraise

    reraise(key, args, {})


def _flags_refused(key: str, **flags: Any) -> None:
    """Keyword-only flags of which one is neither True nor False: torch's parser error."""
    from .._signatures import reraise

    reraise(key, (), flags)


def _raise_lu_info(info: np.ndarray, shape: tuple[int, ...], fname: str) -> None:
    flat = info.reshape(-1)
    for b, i in enumerate(flat):
        if i > 0:
            prefix = f"(Batch element {b}): " if len(shape) > 2 else ""
            raise RuntimeError(
                f"{fname}: {prefix}U[{i},{i}] is zero and using it on lu_solve would result in "
                "a division by zero. If you still want to perform the factorization, consider "
                "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
            )


def lu_factor(A: Tensor, *, pivot: bool = True, out: Any = None) -> Any:
    """Mirrors `torch.linalg.lu_factor`: (LU, pivots); a zero pivot is an error."""
    if pivot is not True and pivot is not False:
        _flags_refused("linalg_lu_factor", pivot=pivot)
    outs = _lu_factor(A, pivot, "torch.lu_factor")
    _raise_lu_info(outs[2]._data, A._data.shape, "torch.linalg.lu_factor")
    outs = _louts(outs[:2], out, "linalg_lu_factor_ex")
    return _return_type("linalg_lu_factor", ("LU", "pivots"), outs)


def _lu_fwd(A: np.ndarray, pivot: bool, L_: Any, U_: Any) -> tuple[np.ndarray, ...]:
    LU, piv, _ = _getrf(A)
    L, U = _unpack(LU)
    return _perm_matrix(piv, A.shape[-2], A.dtype), L, U


def _lu_backward(grads: list[Tensor], result: Tensor, L_: Tensor, U_: Tensor) -> Tensor:
    return _lu_grad(grads[1], grads[2], result, L_, U_)


def _lu_jvp(A_t: Tensor, result: tuple[Tensor, Tensor, Tensor]) -> tuple[Any, ...]:
    """With X1 = L1^{-1} (P^T A_t)_1 U1^{-1} on the leading block: dL1 = L1 tril(X1, -1),
    dU1 = triu(X1) U1; a tall L's extra rows and a wide U's extra columns follow."""
    P, L, U = result
    m, n = L._data.shape[-2], U._data.shape[-1]
    k = min(m, n)
    dA = matmul(_mT(P), A_t)
    L1, U1 = L[..., :k, :], U[..., :, :k]
    X = _trsm(L1, dA[..., :k, :k], False, True, True)
    X = _trsm(U1, X, True, False, False)
    dL, dU = matmul(L1, _tril(X, -1)), matmul(_triu(X), U1)
    if m > k:
        rest = dA[..., k:, :k] - matmul(L[..., k:, :], dU)
        dL = cat([dL, _trsm(U1, rest, True, False, False)], -2)
    if n > k:
        rest = dA[..., :k, k:] - matmul(dL[..., :k, :], U[..., k:])
        dU = cat([dU, _trsm(L1, rest, False, True, True)], -1)
    return _make(np.zeros(P._data.shape, P._data.dtype)), dL, dU


_lu = defop(
    "linalg_lu",
    "LinalgLuBackward0",
    _lu_fwd,
    n_outputs=3,
    diff_outputs=(1, 2),
    jvp=lambda A_t, result: _lu_jvp(A_t, result),
    A=_lu_backward,
    complex=True,
)


def lu(A: Tensor, *, pivot: bool = True, out: Any = None) -> Any:
    """Mirrors `torch.linalg.lu`: (P, L, U) with A = P L U."""
    _check_lu_input(A, "linalg.lu")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    outs = _lu(A, pivot, None, None)
    _save_outputs((outs[1], *outs), {"L_": 2, "U_": 3})  # P has no node: L's node
    return _return_type("linalg_lu", ("P", "L", "U"), _louts(outs, out, "linalg_lu"))


def _lu_unpack_fwd(
    LU_data: np.ndarray,
    LU_pivots: np.ndarray,
    unpack_data: bool,
    unpack_pivots: bool,
    LU_data_sym_sizes: Any,
) -> tuple[np.ndarray, ...]:
    empty = np.zeros(0, LU_data.dtype)
    L, U = _unpack(LU_data) if unpack_data else (empty, empty)
    m = LU_data.shape[-2]
    P = _perm_matrix(LU_pivots, m, LU_data.dtype) if unpack_pivots else empty
    return P, L, U


def _lu_unpack_grad(grads: list[Tensor], shape: Any) -> Tensor:
    m, n = shape[-2:]
    k = min(m, n)
    gL, gU = grads[1], grads[2]
    if n > k:
        gL = _zero_pad(gL, -1, n)
    if m > k:
        gU = _zero_pad(gU, -2, m)
    return _tril(gL, -1) + _triu(gU)


_lu_unpack = defop(
    "lu_unpack",
    "LuUnpackBackward0",
    _lu_unpack_fwd,
    dtype="keep",
    n_outputs=3,
    diff_outputs=(1, 2),
    nondiff=("LU_pivots",),
    LU_data=lambda grads, LU_data_sym_sizes: _lu_unpack_grad(grads, LU_data_sym_sizes),
    complex=True,  # linear
)


def lu_unpack(
    LU_data: Tensor,
    LU_pivots: Tensor,
    unpack_data: bool = True,
    unpack_pivots: bool = True,
    *,
    out: Any = None,
) -> Any:
    """Mirrors `torch.lu_unpack`: (P, L, U) from lu_factor's output."""
    if LU_data.ndim < 2:
        raise RuntimeError(
            "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
            f"{shape_str(LU_data._data.shape)} instead"
        )
    if LU_pivots._data.dtype != np.int32:
        raise RuntimeError(
            "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
            "dtype.\nNote: this function is intended to be used with the output produced by "
            "torch.linalg.lu_factor"
        )
    piv = LU_pivots._data
    if unpack_pivots and piv.size and (piv.min() < 1 or piv.max() > LU_data._data.shape[-2]):
        raise RuntimeError(
            "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive."
            "Did you properly pass the result of lu_factor?"
        )
    outs = _lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots, tuple(LU_data._data.shape))
    return _return_type("lu_unpack", ("P", "L", "U"), _louts(outs, out, "lu_unpack"))


def _lu_solve_np(LU: np.ndarray, piv: np.ndarray, B: np.ndarray, adjoint: bool) -> np.ndarray:
    """X with A X = B (A^T X = B when adjoint), A = P L U packed in LU."""
    P = _perm_matrix(piv, LU.shape[-1], LU.dtype)
    if adjoint:
        Y = _substitute(np.swapaxes(LU, -1, -2), B, False, False)  # U^T Y = B
        Y = _substitute(np.swapaxes(LU, -1, -2), Y, True, True)  # L^T Z = Y
        return np.matmul(P, Y)
    Y = _substitute(LU, np.matmul(np.swapaxes(P, -1, -2), B), False, True)
    return _substitute(LU, Y, True, False)


def _lu_solve_fwd(
    LU: np.ndarray, pivots: np.ndarray, B: np.ndarray, left: bool, adjoint: bool
) -> np.ndarray:
    # adjoint is A^H: for complex A, A^H X = B is A^T conj(X) = conj(B) (X A^H = B alike)
    cj = adjoint and LU.dtype.kind == "c"
    if cj:
        B = B.conj()
    if left:
        X = _lu_solve_np(LU, pivots, B, adjoint)
    else:
        Bt = np.swapaxes(B, -1, -2)
        X = np.swapaxes(_lu_solve_np(LU, pivots, Bt, not adjoint), -1, -2)
    return X.conj() if cj else X


def _lu_solve_grad_B(grad: Tensor, LU: Tensor, pivots: Tensor, left: bool, adjoint: bool) -> Any:
    return _lu_solve(LU, pivots, grad, left, not adjoint)


def _lu_solve_grad_LU(
    grad: Tensor, LU: Tensor, pivots: Tensor, result: Tensor, left: bool, adjoint: bool
) -> Tensor:
    """The gradient of A = P L U (from X = A^{-1} B and its transposed and right forms), taken
    back to the packed LU: tril(P^T gA U^H, -1) + triu(L^H P^T gA)."""
    gB = _lu_solve(LU, pivots, grad, left, not adjoint)
    X = result
    if left:
        gA = -matmul(X, _mH(gB)) if adjoint else -matmul(gB, _mH(X))
    else:
        gA = -matmul(_mH(gB), X) if adjoint else -matmul(_mH(X), gB)
    L, U = _lu_parts(LU)
    P = _perm_matrix(pivots._data, LU._data.shape[-1], LU._data.dtype)
    PtgA = matmul(_make(np.swapaxes(P, -1, -2)), gA)
    return _tril(matmul(PtgA, _mH(U)), -1) + _triu(matmul(_mH(L), PtgA))


def _lu_solve_jvp(
    LU: Tensor, pivots: Tensor, left: bool, adjoint: bool, LU_t: Any, B_t: Any, result: Tensor
) -> Tensor:
    """X_t solves the same system with right-hand side B_t - A_t X (X A_t, transposed forms
    alike), A_t = P (dL U + L dU) from the packed tangent."""
    rhs = B_t
    if LU_t is not None:
        L, U = _lu_parts(LU)
        P = _make(_perm_matrix(pivots._data, LU._data.shape[-1], LU._data.dtype))
        A_t = matmul(P, matmul(_tril(LU_t, -1), U) + matmul(L, _triu(LU_t)))
        M = _mT(A_t) if adjoint else A_t
        d = matmul(M, result) if left else matmul(result, M)
        rhs = -d if rhs is None else rhs - d
    return _lu_solve(LU, pivots, rhs, left, adjoint)


_lu_solve = defop(
    "linalg_lu_solve",
    "LinalgLuSolveBackward0",
    _lu_solve_fwd,
    jvp=_lu_solve_jvp,
    dtype="keep",
    nondiff=("pivots",),
    LU=_lu_solve_grad_LU,
    B=_lu_solve_grad_B,
    complex=True,  # written with mH, as torch's
)


def lu_solve(
    LU: Tensor,
    pivots: Tensor,
    B: Tensor,
    *,
    left: bool = True,
    adjoint: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.lu_solve`."""
    if LU.dtype is not B.dtype:
        raise RuntimeError(
            "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
            f"{LU.dtype._short} and B of type {B.dtype._short} instead"
        )
    if pivots._data.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    late = _check_matrix(LU, "torch.linalg.lu_solve", late=True)
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = LU._data.shape[-1]
    sb = B._data.shape
    if (sb[-2] if left else sb[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.lu_solve: Incompatible shapes of A and B for the equation {eq} "
            f"({n}x{n} and {sb[-2]}x{sb[-1]})"
        )
    sp = pivots._data.shape
    if sp[-1:] != (n,):
        raise RuntimeError(
            "linalg.lu_solve: Number of pivots per batch should be same as the dimension of the "
            "matrix"
        )
    if sp != LU._data.shape[:-1]:
        raise RuntimeError(
            "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got "
            f"pivots with shape {shape_str(sp)} instead"
        )
    if late is not None:
        raise late
    return _lout(_lu_solve(LU, pivots, B, left, adjoint), out, "linalg_lu_solve")


def lu_solve_legacy(
    input: Tensor, LU_data: Tensor, LU_pivots: Tensor, *, out: Tensor | None = None
) -> Tensor:
    """Mirrors the deprecated `torch.lu_solve(b, LU_data, LU_pivots)`."""
    # torch warns once a process (TORCH_WARN_ONCE)
    warn_once(
        "lu_solve_deprecated",
        "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
        "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
        "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
        "X = torch.linalg.lu_solve(LU, pivots, B)",
    )
    return lu_solve(LU_data, LU_pivots, input, out=out)


def lu_legacy(A: Tensor, pivot: bool = True, get_infos: bool = False, out: Any = None) -> Any:
    """Mirrors the deprecated `torch.lu` / `Tensor.lu`: (LU, pivots) or (LU, pivots, infos)."""
    # torch warns once a process (TORCH_WARN_ONCE)
    warn_once(
        "lu_deprecated",
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex "
        "and will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, "
        "compute_pivots)\nshould be replaced with\nLU, pivots = torch.linalg.lu_factor(A, "
        "compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)"
        "\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, "
        "compute_pivots)",
    )
    outs = _lu_factor(A, pivot, "torch.lu_factor")
    res = outs if get_infos else (outs[0], outs[1])
    if out is not None:  # torch.functional's _lu_impl: each out resized to its result, copied
        if len(out) != len(res):
            raise TypeError(f"expected tuple of {len(res)} elements but got {len(out)}")
        for o, r in zip(out, res, strict=True):
            o.resize_as_(r).copy_(r)
        return out
    if get_infos:
        return _return_type("_lu_with_info", ("LU", "pivots", "info"), outs)
    return res


def tensorsolve(A: Tensor, B: Tensor, dims: Any = None, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.tensorsolve`: dims moved last, then one solve of the flattened
    system."""
    from .linalg import solve

    if dims is not None:
        dims = [dims] if isinstance(dims, int) else list(dims)
        A = A.movedim(dims, list(range(A.ndim - len(dims), A.ndim)))
    nb = B.ndim
    shape = A._data.shape
    # torch compares the solution's size with B's (not with A's leading dims)
    rows, cols = math.prod(B._data.shape), math.prod(shape[nb:])
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {cols} != {rows}"
        )
    x = solve(A.reshape(rows, cols), B.reshape(-1))
    return _lout(x.reshape(tuple(shape[nb:])), out, None, "cast", "tensorsolve")


# --- cholesky_solve, cholesky_inverse ------------------------------------------------------


def _lower(L: np.ndarray, upper: bool) -> np.ndarray:
    L = np.triu(L) if upper else np.tril(L)
    return np.swapaxes(L, -1, -2).conj() if upper else L


def _cholesky_solve_fwd(self: np.ndarray, input2: np.ndarray, upper: bool) -> np.ndarray:
    L = _lower(input2, upper)  # A = L L^H
    Y = _substitute(L, self, False, False)
    return column_major(_substitute(np.swapaxes(L, -1, -2).conj(), Y, True, False))


def _cholesky_solve_grad_L(grad: Tensor, input2: Tensor, result: Tensor, upper: bool) -> Tensor:
    """torch's cholesky_solve_backward: -(G + G^H) L (U (G + G^H) when upper), G = gB X^H."""
    gB = _cholesky_solve(grad, input2, upper)
    common = matmul(gB, _mH(result))
    common = common + _mH(common)
    return -matmul(input2, common) if upper else -matmul(common, input2)


_cholesky_solve = defop(
    "cholesky_solve",
    "CholeskySolveBackward0",
    _cholesky_solve_fwd,
    jvp=lambda input2, upper, self_t, input2_t, result: _cholesky_solve_jvp(
        input2, upper, self_t, input2_t, result
    ),
    self=lambda grad, input2, upper: _cholesky_solve(grad, input2, upper),
    input2=_cholesky_solve_grad_L,
    complex=True,  # written with mH, as torch's
)


def _cholesky_solve_jvp(L: Tensor, upper: bool, B_t: Any, L_t: Any, result: Tensor) -> Tensor:
    """X = A^{-1} B with A = L L^H: X_t = A^{-1} (B_t - A_t X), A_t = L_t L^H + L L_t^H."""
    rhs = B_t
    if L_t is not None:
        LLt = matmul(L_t, _mT(L)) if not upper else matmul(_mT(L), L_t)
        AX = matmul(LLt + _mT(LLt), result)
        rhs = -AX if rhs is None else rhs - AX
    return _cholesky_solve(rhs, L, upper)


def cholesky_solve(
    input: Tensor, input2: Tensor, upper: bool = False, *, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.cholesky_solve`: X with A X = B, A = L L^H given L (U^H U given U)."""
    if upper is not False and upper is not True:  # torch's parser takes a bool only
        _flag_refused("cholesky_solve", (input2, upper))
    try:
        if input.ndim < 2:
            raise RuntimeError(
                f"b should have at least 2 dimensions, but has {input.ndim} dimensions instead"
            )
        if input2.ndim < 2:
            raise RuntimeError(
                f"u should have at least 2 dimensions, but has {input2.ndim} dimensions instead"
            )
        m, n = input2._data.shape[-2:]
        if m != n:
            raise RuntimeError(
                f"A must be batches of square matrices, but they are {m} by {n} matrices"
            )
        if input.dtype is not input2.dtype:
            raise RuntimeError(
                "Expected b and A to have the same dtype, but found "
                f"b of type {input.dtype._short} "
                f"and A of type {input2.dtype._short} instead."
            )
        b = input._data.shape
        if b[-2] != n:
            raise RuntimeError(
                "Incompatible matrix sizes for cholesky_solve: each "
                f"A matrix is {n} by {n} but each "
                f"b matrix is {b[-2]} by {b[-1]}"
            )
        if not (
            input.dtype.is_complex or (input.dtype.is_floating_point and input.dtype.itemsize >= 4)
        ):
            raise NotImplementedError(
                f"\"cholesky_solve_cpu\" not implemented for '{input.dtype._short}'"
            )
        X = _cholesky_solve(input, input2, upper)
        return _lout(X, out, "cholesky_solve", "cast", "cholesky_solve")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("cholesky_solve", (input2, upper), {})
        raise


def _cholesky_inverse_fwd(self: np.ndarray, upper: bool) -> np.ndarray:
    n = self.shape[-1]
    eye = np.broadcast_to(np.eye(n, dtype=self.dtype), self.shape)
    return _cholesky_solve_fwd(eye, self, upper)


def _cholesky_inverse_grad(grad: Tensor, self: Tensor, result: Tensor, upper: bool) -> Tensor:
    """torch's cholesky_inverse_backward: -A^{-1} (G + G^H) A^{-1} times L (U before it)."""
    common = matmul(matmul(result, grad + _mH(grad)), result)
    return -matmul(self, common) if upper else -matmul(common, self)


def _cholesky_inverse_jvp(self: Tensor, self_t: Tensor, result: Tensor, upper: bool) -> Tensor:
    LLt = matmul(self_t, _mT(self)) if not upper else matmul(_mT(self), self_t)
    return -matmul(matmul(result, LLt + _mT(LLt)), result)


_cholesky_inverse = defop(
    "cholesky_inverse",
    "CholeskyInverseBackward0",
    _cholesky_inverse_fwd,
    jvp=_cholesky_inverse_jvp,
    self=_cholesky_inverse_grad,
    complex=True,  # written with mH, as torch's
)


def cholesky_inverse(input: Tensor, upper: bool = False, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.cholesky_inverse`: (L L^H)^{-1} given L (U^H U given U)."""
    if upper is not False and upper is not True:  # torch's parser takes a bool only
        _flag_refused("cholesky_inverse", (upper,))
    try:
        dt = input.dtype
        if not (dt.is_floating_point or dt.is_complex) or input._data.dtype.itemsize < 4:
            raise NotImplementedError(
                f"\"cholesky_inverse_out_cpu\" not implemented for '{dt._short}'"
            )
        _check_matrix(input, "cholesky_inverse")
        zero = np.diagonal(input._data, axis1=-2, axis2=-1) == 0
        if zero.any():  # LAPACK's potri (its trtri) refuses a zero on the diagonal
            flat = zero.reshape(-1, zero.shape[-1])
            k = int(np.flatnonzero(flat.any(-1))[0])
            i = int(np.flatnonzero(flat[k])[0]) + 1
            prefix = f"(Batch element {k}): " if input.ndim > 2 else ""
            raise _LinAlgError(
                f"cholesky_inverse: {prefix}The diagonal element {i} is zero, the inversion could "
                "not be completed because the input matrix is singular."
            )
        X = _cholesky_inverse(input, upper)
        return _lout(X, out, "cholesky_inverse", "cast", "cholesky_inverse")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("cholesky_inverse", (upper,), {})
        raise


# --- geqrf, householder_product, ormqr ------------------------------------------------------


def _reflectors_np(A: np.ndarray, k: int) -> np.ndarray:
    """The Householder vectors v_i (..., m, k) stored below the diagonal of A's first k
    columns, with their implicit unit leading entry."""
    m = A.shape[-2]
    low = np.tril(np.ones((m, k), bool), -1)
    return np.where(low, A[..., :, :k], 0) + np.eye(m, k, dtype=A.dtype)


def _reflect_np(A: np.ndarray, tau: np.ndarray, X: np.ndarray, adjoint: bool) -> np.ndarray:
    """Q X (Q^H X with adjoint) for Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^H."""
    k = tau.shape[-1]
    V = _reflectors_np(A, k)
    X = X.astype(np.result_type(A, X), copy=True)
    for i in range(k - 1, -1, -1) if not adjoint else range(k):
        v = V[..., :, i : i + 1]
        t = tau[..., i, None, None]
        X -= (t.conj() if adjoint else t) * (v @ (_mHa(v) @ X))
    return X


def _geqrf_fwd(self: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, n = self.shape[-2:]
    batch = self.shape[:-2]
    if self.size == 0:
        return column_major(self.copy()), np.zeros((*batch, min(m, n)), self.dtype)
    flat = self.reshape(-1, m, n)
    hs, taus = zip(*(np.linalg.qr(a, mode="raw") for a in flat), strict=True)
    a = np.swapaxes(np.stack(hs), -1, -2).reshape(self.shape)
    return column_major(a.astype(self.dtype)), np.stack(taus).reshape(*batch, -1).astype(self.dtype)


_geqrf_grad, _geqrf_jvp = _no_derivative("geqrf")
_geqrf = defop(
    "geqrf",
    "GeqrfBackward0",
    _geqrf_fwd,
    n_outputs=2,
    jvp=_geqrf_jvp,
    self=_geqrf_grad,
)


def _check_lapack_dtype(t: Tensor, kernel: str) -> None:
    dt = t.dtype
    if not (dt.is_floating_point or dt.is_complex) or dt.itemsize < 4:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")


def geqrf(input: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.geqrf`: LAPACK's compact QR, (a, tau); not differentiable."""
    if input.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _check_lapack_dtype(input, "geqrf_cpu")
    from .. import _grad_mode

    if input.requires_grad and input.dtype.is_complex and _grad_mode.STATE.grad:
        # torch's check for ops without complex autograd support, made in the forward
        raise RuntimeError(
            "geqrf does not support automatic differentiation for outputs with complex dtype."
        )
    outs = _geqrf(input)
    if out is not None:
        outs = tuple(_out(o, d, "geqrf") for o, d in zip(outs, out, strict=True))
    return _return_type("geqrf", ("a", "tau"), outs)


def _col(t: Tensor, i: int) -> Tensor:
    return t[..., :, i : i + 1]


def _vectors(A: Tensor, k: int) -> list[Tensor]:
    """The Householder vectors of A's first k columns as (..., m, 1) Tensors."""
    m = A._data.shape[-2]
    dt = A._data.dtype
    below = [_make((np.arange(m) > i).astype(dt)[:, None]) for i in range(k)]
    ones = [_make(np.eye(m, 1, -i, dtype=dt)) for i in range(k)]
    return [_col(A, i) * below[i] + ones[i] for i in range(k)]


def _tau(tau: Tensor, i: int) -> Tensor:
    return tau[..., i : i + 1].unsqueeze(-1)


def _reflector_grads(A: Tensor, tau: Tensor, gQ: Tensor, ncols: int) -> tuple[Any, Any]:
    """(gA, gtau) of Q = H_1 ... H_k E (E: the first ncols columns of the identity), walking the
    product left to right with the partial products on the right kept from a forward sweep."""
    k = tau._data.shape[-1]
    m, n = A._data.shape[-2:]
    if k == 0 or A._data.size == 0:
        return None, None  # torch leaves both gradients undefined
    vs = _vectors(A, k)
    Y = [_eye(m, A, ncols)]  # Y[j] = H_{k-j+1} ... H_k E
    for i in range(k - 1, 0, -1):
        Y.append(Y[-1] - _tau(tau, i) * matmul(vs[i], matmul(_mH(vs[i]), Y[-1])))
    G = gQ
    g_v, g_tau = [], []
    cplx = A._data.dtype.kind == "c"
    for i in range(k):
        v, t, R = vs[i], _tau(tau, i), Y[k - 1 - i]
        vG, vR = matmul(_mH(v), G), matmul(_mH(v), R)
        if cplx:  # H_i = I - tau v v^H: the adjoint of each term (Note [Complex gradients])
            tc = t.conj()
            g_tau.append(-(vG * vR.conj()).sum(-1))
            g_v.append(-(tc * matmul(G, _mH(vR)) + t * matmul(R, _mH(vG))))
            G = G - tc * matmul(v, vG)  # H_i^H G
            continue
        g_tau.append(-(vG * vR).sum(-1))
        g_v.append(-t * (matmul(G, _mT(vR)) + matmul(R, _mT(vG))))
        G = G - t * matmul(v, vG)
    below = [_make((np.arange(m) > i).astype(A._data.dtype)[:, None]) for i in range(k)]
    gA = cat([g * b for g, b in zip(g_v, below, strict=True)], -1)
    if n > k:
        gA = _zero_pad(gA, -1, n)
    return gA, cat(g_tau, -1)


def _reflector_jvp(
    A: Tensor, tau: Tensor, A_t: Any, tau_t: Any, ncols: int
) -> tuple[Tensor, Tensor]:
    """(Q, Q_t) of Q = H_1 ... H_k E, with dH_i = -dtau_i v v^H - tau_i (dv v^H + v dv^H)."""
    k = tau._data.shape[-1]
    m = A._data.shape[-2]
    vs = _vectors(A, k)
    dvs = _vectors(A_t, k) if A_t is not None else None
    Q = _eye(m, A, ncols)
    dQ: Any = None
    for i in range(k - 1, -1, -1):
        v, t = vs[i], _tau(tau, i)
        vQ = matmul(_mT(v), Q)
        d = None
        if dQ is not None:
            d = dQ - t * matmul(v, matmul(_mT(v), dQ))
        if tau_t is not None:
            term = -_tau(tau_t, i) * matmul(v, vQ)
            d = term if d is None else d + term
        if dvs is not None:
            dv = dvs[i] - _make(np.eye(m, 1, -i, dtype=A._data.dtype))
            term = -t * (matmul(dv, vQ) + matmul(v, matmul(_mT(dv), Q)))
            d = term if d is None else d + term
        Q = Q - t * matmul(v, vQ)
        dQ = d
    if dQ is None:
        dQ = Q * 0
    return Q, dQ


def _householder_fwd(input: np.ndarray, tau: np.ndarray) -> np.ndarray:
    m, n = input.shape[-2:]
    E = np.broadcast_to(np.eye(m, n, dtype=input.dtype), input.shape)
    return column_major(_reflect_np(input, tau, E, False))


_householder_product = defop(
    "linalg_householder_product",
    "LinalgHouseholderProductBackward0",
    _householder_fwd,
    jvp=lambda input, tau, input_t, tau_t: _reflector_jvp(
        input, tau, input_t, tau_t, input._data.shape[-1]
    )[1],
    input=lambda grad, input, tau: _reflector_grads(input, tau, grad, input._data.shape[-1])[0],
    tau=lambda grad, input, tau: _reflector_grads(input, tau, grad, input._data.shape[-1])[1],
    complex=True,
)


def _check_batch(t: Tensor, input: Tensor, name: str, fname: str) -> None:
    batch = list(input._data.shape[:-2])
    got = list(t._data.shape[: len(batch)])
    if got != batch:
        raise RuntimeError(
            f"{fname}: Expected batch dimensions of {name} to be equal to input.shape[:-2], but "
            f"got {got}"
        )


def _check_tau_ndim(input: Tensor, tau: Tensor, fname: str) -> None:
    if input.ndim - tau.ndim != 1:
        raise RuntimeError(
            f"{fname}: Expected tau to have one dimension less than input, but got tau.ndim "
            f"equal to {tau.ndim} and input.ndim is equal to {input.ndim}"
        )


def householder_product(input: Tensor, tau: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.householder_product`: the first n columns of H_1 ... H_k."""
    fname = "torch.linalg.householder_product"
    if input.ndim < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    m, n = input._data.shape[-2:]
    if m < n:
        raise RuntimeError(
            f"{fname}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if tau.ndim and n < tau._data.shape[-1]:
        raise RuntimeError(
            f"{fname}: input.shape[-1] must be greater than or equal to tau.shape[-1]"
        )
    _check_tau_ndim(input, tau, fname)
    _check_batch(tau, input, "tau", fname)
    if tau.dtype is not input.dtype:
        raise RuntimeError(
            f"{fname}: tau dtype {tau.dtype._short} does not match input dtype {input.dtype._short}"
        )
    _check_lapack_dtype(input, "orgqr_cpu")
    Q = _householder_product(input, tau)
    return _lout(Q, out, "linalg_householder_product", "cast", fname)


def orgqr(input: Tensor, input2: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.orgqr`, an alias of linalg.householder_product."""
    return householder_product(input, input2, out=out)


def _orgqr_method(self: Tensor, input2: Tensor) -> Tensor:
    """Mirrors `Tensor.orgqr` (no out=)."""
    try:
        return householder_product(self, input2)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("orgqr", (input2,), {})
        raise


_orgqr_method.__name__ = _orgqr_method.__qualname__ = "orgqr"


def _ormqr_fwd(
    self: np.ndarray, input2: np.ndarray, input3: np.ndarray, left: bool, transpose: bool
) -> np.ndarray:
    if left:
        return column_major(_reflect_np(self, input2, input3, transpose))
    return column_major(_mHa(_reflect_np(self, input2, _mHa(input3), not transpose)))


def _ormqr_gQ(grad: Tensor, C: Tensor, left: bool, transpose: bool) -> Tensor:
    """The gradient in Q (m x m) of op(Q) C (C op(Q) when not left)."""
    if left:
        return matmul(C, _mH(grad)) if transpose else matmul(grad, _mH(C))
    return matmul(_mH(grad), C) if transpose else matmul(_mH(C), grad)


def _ormqr_grads(
    grad: Tensor, self: Tensor, input2: Tensor, input3: Tensor, left: bool, transpose: bool
) -> tuple[Tensor, Tensor]:
    gQ = _ormqr_gQ(grad, input3, left, transpose)
    return _reflector_grads(self, input2, gQ, self._data.shape[-2])


def _ormqr_jvp(
    self: Tensor,
    input2: Tensor,
    input3: Tensor,
    left: bool,
    transpose: bool,
    self_t: Any,
    input2_t: Any,
    input3_t: Any,
) -> Tensor:
    r: Any = None
    if self_t is not None or input2_t is not None:
        _, dQ = _reflector_jvp(self, input2, self_t, input2_t, self._data.shape[-2])
        dQ = _mT(dQ) if transpose else dQ
        r = matmul(dQ, input3) if left else matmul(input3, dQ)
    if input3_t is not None:
        term = _ormqr(self, input2, input3_t, left, transpose)
        r = term if r is None else r + term
    return r


_ormqr = defop(
    "ormqr",
    "OrmqrBackward0",
    _ormqr_fwd,
    jvp=_ormqr_jvp,
    self=lambda grad, self, input2, input3, left, transpose: _ormqr_grads(
        grad, self, input2, input3, left, transpose
    )[0],
    input2=lambda grad, self, input2, input3, left, transpose: _ormqr_grads(
        grad, self, input2, input3, left, transpose
    )[1],
    input3=lambda grad, self, input2, left, transpose: _ormqr(
        self, input2, grad, left, not transpose
    ),
    complex=True,
)


def ormqr(
    input: Tensor,
    input2: Tensor,
    input3: Tensor,
    left: bool = True,
    transpose: bool = False,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.ormqr`: op(Q) C (C op(Q) when not left), Q = H_1 ... H_k from geqrf's
    compact form, op(Q) = Q^H when transpose."""
    fname = "torch.ormqr"
    tau, other = input2, input3
    if input.ndim < 2:
        raise RuntimeError(f"{fname}: input must have at least 2 dimensions.")
    if other.ndim < 2:
        raise RuntimeError(f"{fname}: other must have at least 2 dimensions.")
    if other.ndim != input.ndim:
        raise RuntimeError(
            f"{fname}: Expected other to have the same number of dimensions as input, but got "
            f"other.ndim equal to {other.ndim} and input.ndim is equal to {input.ndim}"
        )
    _check_tau_ndim(input, tau, fname)
    side = -2 if left else -1
    m, n = input._data.shape[-2:]
    if other._data.shape[side] != m:
        raise RuntimeError(f"{fname}: other.shape[{side}] must be equal to input.shape[-2]")
    if tau._data.shape[-1] != min(other._data.shape[side], n):
        raise RuntimeError(
            f"{fname}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])"
        )
    _check_batch(tau, input, "tau", fname)
    _check_batch(other, input, "other", fname)
    for name, t in (("other", other), ("tau", tau)):
        if t.dtype is not input.dtype:
            raise RuntimeError(
                f"{fname}: Expected input and {name} to have the same dtype, but input has dtype"
                f"{input.dtype._short} and {name} has dtype {t.dtype._short}"
            )
    _check_lapack_dtype(input, "ormqr_cpu")
    return _out(_ormqr(input, tau, other, left, transpose), out, "ormqr")


# --- eig, eigvals, tensorinv ----------------------------------------------------------------


def _eig_fwd(self: np.ndarray, V_: Any) -> tuple[np.ndarray, np.ndarray]:
    ctype = np.result_type(self.dtype, np.complex64)
    if self.size == 0:
        return np.zeros(self.shape[:-1], ctype), np.zeros(self.shape, ctype)
    bad = ~np.isfinite(self).all(axis=(-2, -1))
    if bad.any():  # eigvals without grad: LAPACK's nan for a non-finite matrix
        ok = np.where(bad[..., None, None], 0, self)
        L, V = np.linalg.eig(ok)
        L = np.where(bad[..., None], complex(np.nan, np.nan), L)
        V = np.where(bad[..., None, None], complex(np.nan, np.nan), V)
    else:
        L, V = np.linalg.eig(self)
    return L.astype(ctype), column_major(V.astype(ctype))


def _eig_grad(grads: list[Tensor], result: Tensor, V_: Tensor) -> Tensor:
    """torch's linalg_eig_backward (not Hermitian): with E_jk = conj(L_k - L_j),
    gA = V^{-H} (diag(gL) + (V^H gV - V^H V Re(diag(V^H gV))) / E) V^H; the loss must not
    depend on the eigenvectors' phases. A real A keeps the real part (the engine's)."""
    from .linalg import _check_eigvec_phase, _defined, _diag, _diag_embed, _solve

    gL, gV = grads
    L, V = result, V_
    Vh = _mH(V)
    if not _defined(gV):
        return _solve(Vh, gL.unsqueeze(-1) * Vh, True, False)
    VhgV = matmul(Vh, gV)
    _check_eigvec_phase(VhgV, "linalg_eig_backward")
    VhgV = VhgV - matmul(Vh, V * _diag(VhgV).real.unsqueeze(-2))
    Lc = L.conj()
    E = Lc.unsqueeze(-2) - Lc.unsqueeze(-1) + _eye(L._data.shape[-1], L)
    gA = VhgV / E
    if _defined(gL):
        gA = gA - _diag_embed(_diag(gA)) + _diag_embed(gL)
    return _solve(Vh, matmul(gA, Vh), True, False)


def _eig_jvp(A_t: Tensor, result: tuple[Tensor, Tensor]) -> tuple[Tensor, Tensor]:
    """torch's linalg_eig_jvp: with dP = V^{-1} A_t V and E_jk = L_k - L_j, L_t = diag(dP) and
    V_t = V (dP / E) (the quotient's diagonal zero), less V Re(diag(V^H V_t)) (unit columns)."""
    from .linalg import _diag, _solve

    L, V = result
    dP = _solve(V, matmul(A_t.to(V.dtype), V), True, False)
    eye = _eye(L._data.shape[-1], L)
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye
    dV = matmul(V, dP / E * (1 - eye))
    dV = dV - V * _diag(matmul(_mH(V), dV)).real.unsqueeze(-2)
    return _diag(dP), dV


_eig = defop(
    "linalg_eig",
    "LinalgEigBackward0",
    _eig_fwd,
    dtype="keep",
    n_outputs=2,
    jvp=lambda self_t, result: _eig_jvp(self_t, result),
    self=_eig_grad,
    complex=True,
)


def _check_eig_input(A: Tensor, fname: str) -> None:
    if A.ndim < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    m, n = A._data.shape[-2:]
    if m != n:
        raise RuntimeError(
            f"{fname}: A must be batches of square matrices, but they are {m} by {n} matrices"
        )
    dt = A.dtype
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"Unknown Complex ScalarType for {dt._short}")
    _check_lapack_dtype(A, "linalg_eig_out_cpu")


def _check_eig_finite(A: Tensor) -> None:
    if not np.isfinite(A._data).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")


def eig(A: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.linalg.eig`: complex eigenvalues and unit-norm eigenvectors (LAPACK's
    geev through numpy, so in LAPACK's order)."""
    _check_eig_input(A, "linalg.eig")
    _check_eig_finite(A)
    outs = _eig(A, None)
    _save_outputs(outs, {"V_": 1})
    if out is not None:
        outs = tuple(
            _lout(o, d, "linalg_eig", "cast", "torch.linalg.eig", what)
            for o, d, what in zip(outs, out, ("eigenvalues", "eigenvectors"), strict=True)
        )
    return _return_type("linalg_eig", ("eigenvalues", "eigenvectors"), outs)


def eigvals(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.eigvals`: eig's eigenvalues (the same LinalgEigBackward0 node)."""
    _check_eig_input(A, "linalg.eigvals")
    from .. import _grad_mode

    if A._rg and _grad_mode.STATE.grad:  # torch's eigvals runs linalg_eig then
        _check_eig_finite(A)
    outs = _eig(A, None)
    _save_outputs(outs, {"V_": 1})
    return _lout(outs[0], out, "linalg_eigvals", "cast", "torch.linalg.eigvals", "eigenvalues")


def tensorinv(A: Tensor, ind: int = 2, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.tensorinv`: the inverse of A seen as a prod(shape[:ind]) square
    matrix, reshaped to shape[ind:] + shape[:ind]."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = list(A._data.shape)
    rows, cols = shape[:ind], shape[ind:]
    r, c = math.prod(rows), math.prod(cols)
    if r != c:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {c} != {r}"
        )
    A2 = A.reshape(r, c)
    _check_matrix(A2, "linalg.inv")
    X = _inv_ex(A2, "inv")[0]  # torch checks inv_ex's info naming "inv"
    if r > 1:  # torch's inverse is column-major: its reshape is an _reshape_alias
        from .shape import _reshape_alias

        Y = _reshape_alias(X, (*cols, *rows), tuple(X._data.shape))
    else:
        Y = X.reshape((*cols, *rows))
    return _lout(Y, out, None, "cast", "tensorinv")


METHODS: dict[str, Any] = {
    "geqrf": geqrf,
    "orgqr": _orgqr_method,
    "ormqr": ormqr,
    "cholesky_solve": cholesky_solve,
    "cholesky_inverse": cholesky_inverse,
    "lu": lu_legacy,
    "lu_solve": lu_solve_legacy,
    "pinverse": pinverse,
    "matrix_exp": matrix_exp,
    "triangular_solve": triangular_solve,
}
FUNCTIONS: dict[str, Any] = {
    "geqrf": geqrf,
    "orgqr": orgqr,
    "ormqr": ormqr,
    "cholesky_solve": cholesky_solve,
    "cholesky_inverse": cholesky_inverse,
    "lu": lu_legacy,
    "lu_solve": lu_solve_legacy,
    "lu_unpack": lu_unpack,
    "pinverse": pinverse,
    "matrix_exp": matrix_exp,
    "triangular_solve": triangular_solve,
}
