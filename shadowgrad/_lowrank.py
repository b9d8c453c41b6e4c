"""Randomized low-rank SVD and PCA: `torch.svd_lowrank` and `torch.pca_lowrank`.

Both follow Halko, Martinsson and Tropp, "Finding structure with randomness" (2009):
Algorithm 4.4 (randomized subspace iteration) finds an orthonormal basis Q of A's range, and
Algorithm 5.1 takes the SVD of the small matrix Q^H A. They are written against the public API,
so autograd, dtypes and errors come from the ops they call. The random test matrix is drawn with
`randn` from the global generator, in torch's order and shape, so a seeded program gets torch's
numbers.
"""

from __future__ import annotations

from typing import Any

from . import _dtype as D

__all__ = ["pca_lowrank", "svd_lowrank"]


def _basis(A: Any, q: int, niter: int | None, M: Any) -> Any:
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M, without forming
    A - M (Halko et al., Algorithm 4.4)."""
    import shadowgrad as torch

    niter = 2 if niter is None else niter
    if A.is_complex():
        dtype = A.dtype
    else:
        dtype = A.dtype if A.dtype in (D.float16, D.float32, D.float64) else D.float32

    def project(mat: Any, mean_mat: Any, basis: Any) -> Any:
        X = torch.matmul(mat, basis)
        return X if mean_mat is None else X - torch.matmul(mean_mat, basis)

    MH = None if M is None else M.mH
    Q = torch.linalg.qr(project(A, M, torch.randn(A.shape[-1], q, dtype=dtype))).Q
    for _ in range(niter):
        Q = torch.linalg.qr(project(A.mH, MH, Q)).Q
        Q = torch.linalg.qr(project(A, M, Q)).Q
    return Q


def _svd_lowrank(A: Any, q: int | None, niter: int | None, M: Any) -> Any:
    import shadowgrad as torch

    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    wide = m < n
    if wide:  # work on the tall side
        A = A.mH
        M = None if M is None else M.mH
    Q = _basis(A, q, niter, M)
    B = torch.matmul(Q.mH, A)
    if M is not None:
        B = B - torch.matmul(Q.mH, M)
    U, S, Vh = torch.linalg.svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    return (V, S, U) if wide else (U, S, V)


def svd_lowrank(A: Any, q: int | None = 6, niter: int | None = 2, M: Any = None) -> Any:
    """Mirrors `torch.svd_lowrank`: (U, S, V) with A - M ~ U diag(S) V^H, of rank q."""
    return _svd_lowrank(A, q, niter, M)


def pca_lowrank(A: Any, q: int | None = None, center: bool = True, niter: int = 2) -> Any:
    """Mirrors `torch.pca_lowrank`: the low-rank SVD of A with its column means removed."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(
            f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}"
        )
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter, None)
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter, None)
