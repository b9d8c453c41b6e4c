"""The LDL factorization of symmetric and Hermitian matrices: torch.linalg.ldl_factor,
ldl_factor_ex and ldl_solve.

torch calls LAPACK's sytrf/hetrf (lower triangle) and sytrs/hetrs. Both are reproduced here as
LAPACK's unblocked algorithms (xSYTF2/xHETF2 and xSYTRS/xHETRS): Bunch-Kaufman diagonal
pivoting with alpha = (1 + sqrt(17)) / 8, LAPACK's |re| + |im| magnitudes for complex entries,
its row/column interchanges and its pivot encoding (1-based; a 2x2 block stores -p in both of
its entries). The pivots therefore come out as torch's, and LD agrees to rounding (LAPACK
switches to a blocked variant above 64 columns; it makes the same pivot choices).

Neither op has a derivative in torch: their results carry a NotImplemented node (see
Note [NotImplemented nodes]) and backward through them raises torch's error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor, _make
from .linalg import _return_type
from .pointwise import _out
from .registry import column_major
from .rounding import _not_implemented

__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

_ALPHA = (1.0 + 17.0**0.5) / 8.0


def _cabs1(z: Any) -> Any:
    """LAPACK's magnitude for pivoting: |z| for real entries, |re| + |im| for complex ones."""
    if np.iscomplexobj(z):
        return np.abs(z.real) + np.abs(z.imag)
    return np.abs(z)


def _pivot(A: np.ndarray, k: int, herm: bool) -> tuple[int, int, bool]:
    """Bunch-Kaufman's choice at column k: (kp, kstep, singular)."""
    n = A.shape[0]
    absakk = abs(A[k, k].real) if herm else _cabs1(A[k, k])
    if k < n - 1:
        col = _cabs1(A[k + 1 :, k])
        imax = k + 1 + int(np.argmax(col))
        colmax = col[imax - k - 1]
    else:
        imax, colmax = k, 0.0
    if max(absakk, colmax) == 0 or np.isnan(absakk):
        return k, 1, True
    if absakk >= _ALPHA * colmax:
        return k, 1, False
    rowmax = _cabs1(A[imax, k:imax]).max()
    if imax < n - 1:
        rowmax = max(rowmax, _cabs1(A[imax + 1 :, imax]).max())
    if absakk >= _ALPHA * colmax * (colmax / rowmax):
        return k, 1, False
    aii = abs(A[imax, imax].real) if herm else _cabs1(A[imax, imax])
    if aii >= _ALPHA * rowmax:
        return imax, 1, False
    return imax, 2, False


def _interchange(A: np.ndarray, k: int, kk: int, kp: int, kstep: int, herm: bool) -> None:
    """Swap rows and columns kk and kp of the trailing lower triangle."""
    cj = np.conj if herm else (lambda z: z)
    if kp < A.shape[0] - 1:
        t = A[kp + 1 :, kk].copy()
        A[kp + 1 :, kk] = A[kp + 1 :, kp]
        A[kp + 1 :, kp] = t
    t = cj(A[kk + 1 : kp, kk].copy())
    A[kk + 1 : kp, kk] = cj(A[kp, kk + 1 : kp])
    A[kp, kk + 1 : kp] = t
    if herm:
        A[kp, kk] = np.conj(A[kp, kk])
    A[kk, kk], A[kp, kp] = A[kp, kp], A[kk, kk]
    if kstep == 2:
        A[k + 1, k], A[kp, k] = A[kp, k], A[k + 1, k]


def _update1(A: np.ndarray, k: int, herm: bool) -> None:
    """A 1x1 pivot: the rank-1 update of the trailing triangle (xSYR/xHER), then L's column."""
    n = A.shape[0]
    r1 = 1.0 / (A[k, k].real if herm else A[k, k])
    x = A[k + 1 :, k].copy()
    t = -r1 * (np.conj(x) if herm else x)
    for j in range(n - k - 1):
        A[k + 1 + j :, k + 1 + j] += x[j:] * t[j]
        if herm:
            A[k + 1 + j, k + 1 + j] = A[k + 1 + j, k + 1 + j].real
    A[k + 1 :, k] = x * r1


def _update2(A: np.ndarray, k: int, herm: bool) -> None:
    """A 2x2 pivot: the rank-2 update of the trailing triangle and L's two columns."""
    n = A.shape[0]
    if herm:
        d = abs(A[k + 1, k])
        d11 = A[k + 1, k + 1].real / d
        d22 = A[k, k].real / d
        tt = 1.0 / (d11 * d22 - 1.0)
        d21 = A[k + 1, k] / d
        d = tt / d
        for j in range(k + 2, n):
            wk = d * (d11 * A[j, k] - d21 * A[j, k + 1])
            wkp1 = d * (d22 * A[j, k + 1] - np.conj(d21) * A[j, k])
            A[j:, j] -= A[j:, k] * np.conj(wk) + A[j:, k + 1] * np.conj(wkp1)
            A[j, k], A[j, k + 1] = wk, wkp1
            A[j, j] = A[j, j].real
        return
    d21 = A[k + 1, k]
    d11 = A[k + 1, k + 1] / d21
    d22 = A[k, k] / d21
    t = 1.0 / (d11 * d22 - 1.0)
    d21 = t / d21
    for j in range(k + 2, n):
        wk = d21 * (d11 * A[j, k] - A[j, k + 1])
        wkp1 = d21 * (d22 * A[j, k + 1] - A[j, k])
        A[j:, j] -= A[j:, k] * wk + A[j:, k + 1] * wkp1
        A[j, k], A[j, k + 1] = wk, wkp1


def _sytf2(a: np.ndarray, herm: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK's xSYTF2/xHETF2 on the lower triangle of one matrix: (LD, pivots, info)."""
    A = np.array(a, copy=True)
    n = A.shape[0]
    piv = np.zeros(n, np.int32)
    info = 0
    if herm:
        A[np.diag_indices(n)] = A.diagonal().real
    k = 0
    while k < n:
        kp, kstep, singular = _pivot(A, k, herm)
        if singular:
            info = info or k + 1
        else:
            kk = k + kstep - 1
            if kp != kk:
                _interchange(A, k, kk, kp, kstep, herm)
            if kstep == 1 and k < n - 1:
                _update1(A, k, herm)
            elif kstep == 2 and k < n - 2:
                _update2(A, k, herm)
        piv[k : k + kstep] = kp + 1 if kstep == 1 else -(kp + 1)
        k += kstep
    return np.tril(A), piv, info


def _factor(A: Tensor, hermitian: bool, name: str) -> tuple[Tensor, Tensor, Tensor]:
    if not isinstance(hermitian, bool):
        raise TypeError(
            f"{name}(): argument 'hermitian' must be bool, not {type(hermitian).__name__}"
        )
    fname = "torch.linalg.ldl_factor_ex"
    if A.ndim < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{fname}: A must be batches of square matrices, but they are {A.shape[-2]} by "
            f"{A.shape[-1]} matrices"
        )
    if A.dtype.is_floating_point and A._data.dtype == np.float16:
        raise NotImplementedError("\"ldl_factor_kernel_cpu\" not implemented for 'Half'")
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(
            f"{fname}: Expected a floating point or complex tensor as input. Got {A.dtype._short}"
        )
    a = A._data
    herm = hermitian and a.dtype.kind == "c"
    batch = a.shape[:-2]
    n = a.shape[-1]
    LD = np.zeros(a.shape, a.dtype)
    piv = np.zeros((*batch, n), np.int32)
    info = np.zeros(batch, np.int32)
    for b in np.ndindex(*batch):
        LD[b], piv[b], info[b] = _sytf2(a[b], herm)
    ld = _not_implemented(_make(column_major(LD)), (A,), "linalg_ldl_factor_ex")
    return ld, _make(piv), _make(info)


def _raise_info(info: Tensor, fname: str) -> None:
    code = int(info._data.max(initial=0))
    if code > 0:  # torch has no message for a zero pivot; it reports an internal error
        raise RuntimeError(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
            'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
            f"{fname}: Unknown error code: {code}."
        )


def ldl_factor_ex(
    A: Tensor, *, hermitian: bool = False, check_errors: bool = False, out: Any = None
) -> Any:
    """Mirrors `torch.linalg.ldl_factor_ex`: (LD, pivots, info)."""
    LD, piv, info = _factor(A, hermitian, "linalg_ldl_factor_ex")
    if check_errors:
        _raise_info(info, "torch.linalg.ldl_factor_ex")
    if out is not None:
        LD, piv, info = (
            _out(r, o, "linalg_ldl_factor_ex") for r, o in zip((LD, piv, info), out, strict=True)
        )
    return _return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"), (LD, piv, info))


def ldl_factor(A: Tensor, *, hermitian: bool = False, out: Any = None) -> Any:
    """Mirrors `torch.linalg.ldl_factor`: (LD, pivots). A zero pivot (info > 0) raises the
    internal-assert error torch raises."""
    LD, piv, info = _factor(A, hermitian, "linalg_ldl_factor")
    _raise_info(info, "torch.linalg.ldl_factor")
    if out is not None:
        LD, piv = (_out(r, o, "linalg_ldl_factor") for r, o in zip((LD, piv), out, strict=True))
    return _return_type("linalg_ldl_factor", ("LD", "pivots"), (LD, piv))


# --- solve -------------------------------------------------------------------------------------


def _sytrs(LD: np.ndarray, piv: np.ndarray, B: np.ndarray, herm: bool) -> np.ndarray:
    """LAPACK's xSYTRS/xHETRS (lower): solve A X = B with A = P L D L^T P^T (L^H, hermitian)."""
    n = LD.shape[0]
    X = np.array(B, copy=True)
    cj = np.conj if herm else (lambda z: z)
    k = 0
    while k < n:  # L D X = B, forwards
        if piv[k] > 0:
            kp = piv[k] - 1
            if kp != k:
                X[[k, kp]] = X[[kp, k]]
            X[k + 1 :] -= np.outer(LD[k + 1 :, k], X[k])
            X[k] *= 1.0 / (LD[k, k].real if herm else LD[k, k])
            k += 1
            continue
        kp = -piv[k] - 1
        if kp != k + 1:
            X[[k + 1, kp]] = X[[kp, k + 1]]
        X[k + 2 :] -= np.outer(LD[k + 2 :, k], X[k])
        X[k + 2 :] -= np.outer(LD[k + 2 :, k + 1], X[k + 1])
        akm1k = LD[k + 1, k]
        akm1 = LD[k, k] / cj(akm1k)
        ak = LD[k + 1, k + 1] / akm1k
        denom = akm1 * ak - 1.0
        bkm1 = X[k] / cj(akm1k)
        bk = X[k + 1] / akm1k
        X[k] = (ak * bkm1 - bk) / denom
        X[k + 1] = (akm1 * bk - bkm1) / denom
        k += 2
    k = n - 1
    while k >= 0:  # L^T X = B (L^H), backwards
        if piv[k] > 0:
            X[k] -= cj(LD[k + 1 :, k]) @ X[k + 1 :]
            kp = piv[k] - 1
            if kp != k:
                X[[k, kp]] = X[[kp, k]]
            k -= 1
            continue
        X[k] -= cj(LD[k + 1 :, k]) @ X[k + 1 :]
        X[k - 1] -= cj(LD[k + 1 :, k - 1]) @ X[k + 1 :]
        kp = -piv[k] - 1
        if kp != k:
            X[[k, kp]] = X[[kp, k]]
        k -= 2
    return X


def ldl_solve(
    LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False, out: Any = None
) -> Tensor:
    """Mirrors `torch.linalg.ldl_solve`: solves A X = B from ldl_factor's (LD, pivots), batch
    dims broadcast."""
    if not isinstance(hermitian, bool):
        raise TypeError(
            f"linalg_ldl_solve(): argument 'hermitian' must be bool, not {type(hermitian).__name__}"
        )
    fname = "torch.linalg.ldl_solve"
    if LD.ndim < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    if LD.shape[-1] != LD.shape[-2]:
        raise RuntimeError(
            f"{fname}: A must be batches of square matrices, but they are {LD.shape[-2]} by "
            f"{LD.shape[-1]} matrices"
        )
    if not (LD.dtype.is_floating_point or LD.dtype.is_complex):
        raise RuntimeError(
            f"{fname}: Expected a floating point or complex tensor as input. Got {LD.dtype._short}"
        )
    if B.ndim < 2:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(B.ndim, 1)}, "
            f"{max(B.ndim, 1) - 1}], but got -2)"
        )
    n = LD.shape[-1]
    if B.shape[-2] != n:
        raise RuntimeError(
            f"Incompatible matrix sizes for {fname}: each A matrix is {n} by {n} but each b "
            f"matrix is {B.shape[-2]} by {B.shape[-1]}"
        )
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(
            f"{fname}: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots "
            f"with shape [{', '.join(map(str, pivots.shape))}] instead"
        )
    if pivots._data.dtype.kind not in "iu":
        raise RuntimeError(f"{fname}: Expected pivots to be integers. Got {pivots.dtype._short}")
    if B.dtype != LD.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {B.dtype._short} and "
            f"A of type {LD.dtype._short} instead."
        )
    ld, p, b = LD._data, pivots._data, B._data
    herm = hermitian and ld.dtype.kind == "c"
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    ld = np.broadcast_to(ld, (*batch, n, n))
    p = np.broadcast_to(p, (*batch, n))
    b = np.broadcast_to(b, (*batch, *b.shape[-2:]))
    X = np.empty(b.shape, b.dtype)
    for i in np.ndindex(*batch):
        X[i] = _sytrs(ld[i], p[i], b[i], herm)
    r = _not_implemented(_make(column_major(X)), (LD, pivots, B), "linalg_ldl_solve")
    return _out(r, out, "linalg_ldl_solve")


METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
