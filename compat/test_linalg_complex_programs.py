"""Realistic programs: gradients of linear algebra on complex inputs. Determinants, inverses and
solvers, the factorizations (cholesky, qr, eigh, eig, svd, lu), householder products, matrix
functions, norms and the matrix products, each differentiated through a real loss of a complex
result under torch's conjugate Wirtinger convention; gauge-invariant losses for eig and svd (and
the errors torch raises for the others); gradcheck and gradgradcheck on complex128; autograd
state (grad_fn names, hooks, version counters) around them; and real-input corner cases found
on the way. The programs register into test_realistic_programs_3's set and run through its
harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns, raises or
warns is compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _gc

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _c(T: Any, *shape: int, seed: int = 0, rg: bool = True, dt: str = "complex128") -> Any:
    """A complex tensor of fixed values (the same for both libraries)."""
    r = np.random.default_rng(seed)
    v = r.standard_normal(shape) + 1j * r.standard_normal(shape)
    return T.tensor(v, dtype=getattr(T, dt), requires_grad=rg)


def _well(T: Any, *shape: int, seed: int = 0, rg: bool = True, dt: str = "complex128") -> Any:
    """A well-conditioned (diagonally dominant) complex square matrix (batch)."""
    r = np.random.default_rng(seed)
    n = shape[-1]
    v = 0.4 * (r.standard_normal(shape) + 1j * r.standard_normal(shape)) + n * np.eye(n)
    return T.tensor(v, dtype=getattr(T, dt), requires_grad=rg)


def _pd(T: Any, n: int, seed: int = 0, rg: bool = True, batch: tuple[int, ...] = ()) -> Any:
    """A Hermitian positive-definite complex128 matrix (batch)."""
    r = np.random.default_rng(seed)
    a = r.standard_normal((*batch, n, n)) + 1j * r.standard_normal((*batch, n, n))
    v = a @ np.swapaxes(a, -1, -2).conj() + n * np.eye(n)
    return T.tensor(v, dtype=T.complex128, requires_grad=rg)


def _herm(T: Any, n: int, seed: int = 0, rg: bool = True) -> Any:
    """A Hermitian complex128 matrix with well-separated eigenvalues."""
    r = np.random.default_rng(seed)
    a = 0.3 * (r.standard_normal((n, n)) + 1j * r.standard_normal((n, n)))
    v = a + a.conj().T + np.diag(np.arange(n, dtype=float) * 2.0)
    return T.tensor(v, dtype=T.complex128, requires_grad=rg)


def _r(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    v = np.random.default_rng(seed).standard_normal(shape)
    return T.tensor(v, dtype=T.float64, requires_grad=rg)


def _loss(y: Any) -> Any:
    """A real loss of a (complex or real) result that reads real and imaginary parts apart."""
    if y.is_complex():
        return (y * y.conj()).real.sum() + 0.3 * y.real.sum() - 0.7 * y.imag.sum()
    return (y * y).sum() + 0.3 * y.sum()


def _gn(t: Any) -> Any:
    return None if t.grad_fn is None else t.grad_fn.name()


def _back(loss: Any, *xs: Any) -> list[Any]:
    """Backward through loss; the leaves' grads."""
    loss.backward()
    return [x.grad for x in xs]


# --- products ---------------------------------------------------------------------------------


@program()
def prog_lcx_mm_mv_dot_vdot(T: Any) -> Any:
    A, B, v, w = _c(T, 3, 4), _c(T, 4, 2, seed=1), _c(T, 4, seed=2), _c(T, 4, seed=3)
    y1, y2, y3, y4 = A @ B, A.mv(v), v.dot(w), T.vdot(v, w)
    g = _back(_loss(y1) + _loss(y2) + _loss(y3) + _loss(y4), A, B, v, w)
    return {"ys": (y1, y2, y3, y4), "names": [_gn(y) for y in (y1, y2, y3, y4)], "g": g}


@program()
def prog_lcx_inner_outer_ger(T: Any) -> Any:
    a, b, M = _c(T, 3), _c(T, 4, seed=1), _c(T, 2, 4, seed=2)
    y1, y2, y3 = T.inner(M, b), T.outer(a, b), T.ger(a, b)
    g = _back(_loss(y1) + _loss(y2) + 0.5 * _loss(y3), a, b, M)
    return {"ys": (y1, y2, y3), "names": [_gn(y) for y in (y1, y2, y3)], "g": g}


@program()
def prog_lcx_matmul_broadcast_batches(T: Any) -> Any:
    A, B = _c(T, 2, 1, 3, 4), _c(T, 3, 4, 2, seed=1)
    v = _c(T, 4, seed=2)
    y = A @ B
    z = B.mT @ v.conj()
    g = _back(_loss(y) + _loss(z), A, B, v)
    return {"y": y, "z": z, "names": (_gn(y), _gn(z)), "g": g}


@program()
def prog_lcx_addmm_complex_scalars(T: Any) -> Any:
    C, A, B = _c(T, 3, 2), _c(T, 3, 4, seed=1), _c(T, 4, 2, seed=2)
    y = T.addmm(C, A, B, beta=0.5 - 1j, alpha=2 + 0.5j)
    y2 = T.addmm(C[0], A, B)  # a broadcast bias
    g = _back(_loss(y) + _loss(y2), C, A, B)
    return {"y": y, "y2": y2, "name": _gn(y), "g": g}


@program()
def prog_lcx_addmv_complex_scalars(T: Any) -> Any:
    c, A, v = _c(T, 3), _c(T, 3, 4, seed=1), _c(T, 4, seed=2)
    y = T.addmv(c, A, v, beta=1j, alpha=-0.5 + 2j)
    y2 = T.addmv(c[:1], A, v, beta=2)
    y3 = T.addmv(c, A, v, beta=0)
    g = _back(_loss(y) + _loss(y2) + _loss(y3), c, A, v)
    return {"ys": (y, y2, y3), "name": _gn(y), "g": g}


@program()
def prog_lcx_baddbmm_addbmm_scalars(T: Any) -> Any:
    C, b1, b2 = _c(T, 2, 3, 2), _c(T, 2, 3, 4, seed=1), _c(T, 2, 4, 2, seed=2)
    C2 = _c(T, 3, 2, seed=3)
    y = T.baddbmm(C, b1, b2, beta=0.25j, alpha=1 - 1j)
    z = T.addbmm(C2, b1, b2, beta=2 - 1j, alpha=0.5j)
    w = C.baddbmm(b1, b2)
    g = _back(_loss(y) + _loss(z) + _loss(w), C, b1, b2, C2)
    return {"y": y, "z": z, "w": w, "names": (_gn(y), _gn(z)), "g": g}


@program()
def prog_lcx_addr_complex_scalars(T: Any) -> Any:
    M, a, b = _c(T, 3, 4), _c(T, 3, seed=1), _c(T, 4, seed=2)
    y = T.addr(M, a, b, beta=-1j, alpha=0.5 + 0.5j)
    y2 = M.addr(a, b)
    g = _back(_loss(y) + _loss(y2), M, a, b)
    return {"y": y, "y2": y2, "name": _gn(y), "g": g}


@program()
def prog_lcx_trace_diagonal_diag_embed(T: Any) -> Any:
    A = _c(T, 3, 4)
    t = A.trace()
    d = T.linalg.diagonal(A, offset=1)
    e = T.diag_embed(_c(T, 2, 3, seed=2, rg=False) * A[0, :3])
    g = _back(_loss(t) + _loss(d) + _loss(e), A)
    return {"t": t, "d": d, "e": e, "names": (_gn(t), _gn(d), _gn(e)), "g": g}


@program()
def prog_lcx_kron_tensordot(T: Any) -> Any:
    a, b = _c(T, 2, 2), _c(T, 2, 3, seed=1)
    c, d = _c(T, 2, 3, 4, seed=2), _c(T, 3, 4, 2, seed=3)
    k = T.kron(a, b)
    t1 = T.tensordot(c, d, dims=2)
    t2 = T.tensordot(c, d, dims=([1], [0]))
    g = _back(_loss(k) + _loss(t1) + _loss(t2), a, b, c, d)
    return {"k": k, "t1": t1, "t2": t2, "names": (_gn(k), _gn(t1), _gn(t2)), "g": g}


@program()
def prog_lcx_einsum_patterns(T: Any) -> Any:
    A, B, v = _c(T, 2, 3, 4), _c(T, 2, 4, 3, seed=1), _c(T, 4, seed=2)
    y1 = T.einsum("bij,bjk->bik", A, B)
    y2 = T.einsum("bii->b", y1)
    y3 = T.einsum("bij,j->bi", A, v.conj())
    y4 = T.einsum("i,i->", v, v.conj())
    g = _back(_loss(y2) + _loss(y3) + _loss(y4), A, B, v)
    return {"ys": (y1, y2, y3, y4), "g": g}


@program()
def prog_lcx_cross_both_forms(T: Any) -> Any:
    a, b = _c(T, 2, 3), _c(T, 1, 3, seed=1)
    y1 = T.linalg.cross(a, b)
    y2 = T.cross(a.mT.contiguous(), b.expand(2, 3).mT, dim=0)
    g = _back(_loss(y1) + _loss(y2), a, b)
    return {"y1": y1, "y2": y2, "names": (_gn(y1), _gn(y2)), "g": g}


@program()
def prog_lcx_multi_dot_chain(T: Any) -> Any:
    a, B, C, d = _c(T, 3), _c(T, 3, 4, seed=1), _c(T, 4, 2, seed=2), _c(T, 2, seed=3)
    y = T.linalg.multi_dot([a, B, C, d])
    Y = T.linalg.multi_dot([B.mH, B, C])
    g = _back(_loss(y) + _loss(Y), a, B, C, d)
    return {"y": y, "Y": Y, "g": g}


@program()
def prog_lcx_vecdot_conjugates_first(T: Any) -> Any:
    x, y = _c(T, 2, 3), _c(T, 3, seed=1)
    v = T.linalg.vecdot(x, y)
    w = T.linalg.vecdot(y, x, dim=-1)
    g = _back(_loss(v) + _loss(w), x, y)
    return {"v": v, "w": w, "g": g}


@program()
def prog_lcx_matrix_power_orders(T: Any) -> Any:
    A = _well(T, 3, 3)
    ys = {n: T.linalg.matrix_power(A * 0.3, n) for n in (0, 1, 2, 3, 5, -1, -2)}
    g = _back(sum(_loss(y) for y in ys.values()), A)
    return {"ys": ys, "names": {n: _gn(y) for n, y in ys.items()}, "g": g}


@program()
def prog_lcx_matrix_power_zero_is_a_copy(T: Any) -> Any:
    # torch: a contiguous clone of A overwritten by eye (CopyBackwards), real and complex alike
    A, B = _r(T, 2, 3, 3), _c(T, 3, 3, seed=1)
    y, z = T.linalg.matrix_power(A, 0), T.linalg.matrix_power(B.mT, 0)
    u = T.linalg.matrix_power(A.detach(), 0)
    (y.sum() + z.real.sum()).backward()
    return {
        "y": y,
        "z": z,
        "names": (_gn(y), _gn(z), _gn(u)),
        "contig": (y.is_contiguous(), z.is_contiguous(), z.stride()),
        "g": (A.grad, B.grad),
    }


# --- determinants -----------------------------------------------------------------------------


@program()
def prog_lcx_det_batched(T: Any) -> Any:
    A = _c(T, 2, 3, 3)
    d = T.linalg.det(A)
    d2 = T.det(A[0])
    g = _back(_loss(d) + _loss(d2), A)
    return {"d": d, "d2": d2, "names": (_gn(d), _gn(d2)), "g": g}


@program()
def prog_lcx_det_singular_uses_svd(T: Any) -> Any:
    # a rank-one complex matrix: det is 0, its gradient the cofactor matrix (the SVD path)
    u, v = _c(T, 3, rg=False), _c(T, 3, seed=1, rg=False)
    base = T.outer(u, v.conj())
    A = base.clone().requires_grad_()
    d = T.linalg.det(A)
    (d.real + d.imag).backward()
    B = T.stack([base, _well(T, 3, 3, seed=2, rg=False)]).requires_grad_()
    db = T.linalg.det(B)
    _loss(db).backward()
    return {"d": d.abs() < 1e-12, "g": A.grad, "db": db[1], "gb": B.grad}


@program()
def prog_lcx_slogdet_sign_and_logabsdet(T: Any) -> Any:
    A = _c(T, 3, 3)
    s, la = T.linalg.slogdet(A)
    gs = T.autograd.grad(s.real + 2 * s.imag, A, retain_graph=True)[0]
    gl = T.autograd.grad(la, A, retain_graph=True)[0]
    gb = T.autograd.grad(_loss(s) + la, A)[0]
    return {"s": s, "la": la, "names": (_gn(s), _gn(la)), "gs": gs, "gl": gl, "gb": gb}


@program()
def prog_lcx_logdet_is_log_sign_plus_logabsdet(T: Any) -> Any:
    A = _pd(T, 3)
    B = _c(T, 3, 3, seed=1)
    y, z = T.logdet(A), B.logdet()
    g = _back(_loss(y) + _loss(z), A, B)
    r = _r(T, 3, 3, seed=2)
    return {"y": y, "z": z, "names": (_gn(y), _gn(z)), "g": g, "real": T.logdet(r)}


@program()
def prog_lcx_slogdet_outputs_saved_for_backward(T: Any) -> Any:
    # the node saves sign and logabsdet: changing either in place breaks backward (real too)
    out = {}
    for name, A in (("real", _r(T, 3, 3)), ("complex", _c(T, 3, 3))):
        s, la = T.linalg.slogdet(A)
        s.mul_(2)
        out[name] = raises(lambda la=la: la.backward())
    return out


@program()
def prog_lcx_det_double_backward(T: Any) -> Any:
    A = _c(T, 3, 3)
    d = T.linalg.det(A)
    (g,) = T.autograd.grad(_loss(d), A, create_graph=True)
    (gg,) = T.autograd.grad(_loss(g), A)
    return {"g": g, "gname": _gn(g), "gg": gg}


# --- inverse and solvers ----------------------------------------------------------------------


@program()
def prog_lcx_inv_and_inverse(T: Any) -> Any:
    A = _well(T, 2, 3, 3)
    Y, Z = T.linalg.inv(A), A[0].inverse()
    X, info = T.linalg.inv_ex(A)
    g = _back(_loss(Y) + _loss(Z) + _loss(X), A)
    return {"Y": Y, "Z": Z, "info": info, "names": (_gn(Y), _gn(Z), _gn(X)), "g": g}


@program()
def prog_lcx_solve_matrix_and_vector(T: Any) -> Any:
    A, B, b = _well(T, 3, 3), _c(T, 3, 2, seed=1), _c(T, 3, seed=2)
    X, x = T.linalg.solve(A, B), T.linalg.solve(A, b)
    g = _back(_loss(X) + _loss(x), A, B, b)
    return {"X": X, "x": x, "name": _gn(X), "g": g}


@program()
def prog_lcx_solve_left_false(T: Any) -> Any:
    A, B = _well(T, 3, 3), _c(T, 2, 3, seed=1)
    X = T.linalg.solve(A, B, left=False)
    g = _back(_loss(X), A, B)
    return {"X": X, "res": (X @ A - B).abs().max() < 1e-12, "g": g}


@program()
def prog_lcx_solve_left_false_square_real(T: Any) -> Any:
    # a square X A = B: the gradient of B is a row-major solve, not its transpose
    A = T.tensor(np.arange(9.0).reshape(3, 3) + 4 * np.eye(3))
    B = _r(T, 3, 3)
    W = T.tensor(np.arange(9.0).reshape(3, 3))
    X = T.linalg.solve(A, B, left=False)
    (X * W).sum().backward()
    return {"X": X, "stride": X.stride(), "g": B.grad}


@program()
def prog_lcx_solve_broadcast_and_ex(T: Any) -> Any:
    A, B = _well(T, 3, 3), _c(T, 2, 3, 2, seed=1)
    X = T.linalg.solve(A, B)
    Y, info = T.linalg.solve_ex(A.expand(2, 3, 3), B)
    g = _back(_loss(X) + _loss(Y), A, B)
    return {"X": X, "Y": Y, "info": info, "names": (_gn(X), _gn(Y)), "g": g}


@program()
def prog_lcx_solve_triangular_variants(T: Any) -> Any:
    A, B, C = _well(T, 3, 3), _c(T, 3, 2, seed=1), _c(T, 2, 3, seed=2)
    out = {}
    for upper in (True, False):
        for unit in (False, True):
            M = A.triu() if upper else A.tril()
            X = T.linalg.solve_triangular(M, B, upper=upper, unitriangular=unit)
            Y = T.linalg.solve_triangular(M, C, upper=upper, left=False, unitriangular=unit)
            gA, gB, gC = T.autograd.grad(_loss(X) + _loss(Y), (A, B, C))
            out[(upper, unit)] = (X, Y, gA, gB, gC, _gn(X))
    return out


@program()
def prog_lcx_triangular_solve_legacy(T: Any) -> Any:
    A, b = _well(T, 3, 3), _c(T, 3, 2, seed=1)
    out = {}
    for upper in (True, False):
        for tr in (False, True):
            X, M = T.triangular_solve(b, A, upper=upper, transpose=tr)
            gA, gb = T.autograd.grad(_loss(X) + _loss(M), (A, b))
            out[(upper, tr)] = (X, gA, gb, _gn(X))
    return out


@program()
def prog_lcx_lstsq_tall_and_wide(T: Any) -> Any:
    A, B = _c(T, 4, 3), _c(T, 4, 2, seed=1)
    W, C = _c(T, 2, 3, seed=2), _c(T, 2, 2, seed=3)
    X = T.linalg.lstsq(A, B).solution
    Y = T.linalg.lstsq(W, C).solution
    g = _back(_loss(X) + _loss(Y), A, B, W, C)
    return {"X": X, "Y": Y, "name": _gn(X), "g": g}


@program()
def prog_lcx_lstsq_gelsd_residuals(T: Any) -> Any:
    A, B, b = _c(T, 4, 2), _c(T, 4, 2, seed=1), _c(T, 4, seed=2)
    r = T.linalg.lstsq(A, B, driver="gelsd")
    rv = T.linalg.lstsq(A, b.unsqueeze(-1), driver="gelss")
    dflt = T.linalg.lstsq(A, B)
    g = _back(r.residuals.sum() + _loss(r.solution) + rv.residuals.sum(), A, B, b)
    return {
        "res": (r.residuals, rv.residuals, dflt.residuals),
        "dtypes": [t.dtype for t in (*r, *dflt)],
        "rank": (r.rank, dflt.rank),
        "sv": r.singular_values,
        "g": g,
    }


@program()
def prog_lcx_tensorsolve_tensorinv(T: Any) -> Any:
    A = _well(T, 6, 6)
    B = _c(T, 2, 3, seed=1)
    X = T.linalg.tensorsolve(A.reshape(2, 3, 6).reshape(2, 3, 2, 3), B)
    Y = T.linalg.tensorinv(A.reshape(6, 2, 3), ind=1)
    g = _back(_loss(X) + _loss(Y), A, B)
    return {"X": X, "Y": Y, "names": (_gn(X), _gn(Y)), "g": g}


@program()
def prog_lcx_pinv_shapes_and_hermitian(T: Any) -> Any:
    A, W, H = _c(T, 4, 3), _c(T, 2, 4, seed=1), _herm(T, 3, seed=2)
    P, Q, R = T.linalg.pinv(A), T.linalg.pinv(W), T.linalg.pinv(H, hermitian=True)
    S = A.pinverse()
    g = _back(_loss(P) + _loss(Q) + _loss(R) + _loss(S), A, W, H)
    return {"P": P, "Q": Q, "R": R, "names": (_gn(P), _gn(R), _gn(S)), "g": g}


# --- factorizations ---------------------------------------------------------------------------


@program()
def prog_lcx_cholesky_lower_upper_batched(T: Any) -> Any:
    A = _pd(T, 3, batch=(2,))
    L, U = T.linalg.cholesky(A), T.linalg.cholesky(A, upper=True)
    g = _back(_loss(L) + _loss(U), A)
    return {"L": L, "U": U, "names": (_gn(L), _gn(U)), "g": g}


@program()
def prog_lcx_cholesky_ex_and_legacy(T: Any) -> Any:
    A = _pd(T, 3)
    L, info = T.linalg.cholesky_ex(A)
    M = T.cholesky(A)
    bad = T.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=T.complex128)
    g = _back(_loss(L) + _loss(M), A)
    return {
        "L": L,
        "info": info,
        "names": (_gn(L), _gn(M)),
        "g": g,
        "bad": T.linalg.cholesky_ex(bad).info,
        "err": raises(lambda: T.linalg.cholesky(bad)),
    }


@program()
def prog_lcx_cholesky_solve_and_inverse(T: Any) -> Any:
    A = _pd(T, 3, rg=False)
    L = T.linalg.cholesky(A).requires_grad_()
    U = L.mH.detach().requires_grad_()
    B = _c(T, 3, 3, seed=1)
    X, Y = T.cholesky_solve(B, L), T.cholesky_solve(B, U, upper=True)
    Z, W = T.cholesky_inverse(L), T.cholesky_inverse(U, upper=True)
    g = _back(_loss(X) + _loss(Y) + _loss(Z) + _loss(W), L, U, B)
    return {"X": X, "Z": Z, "names": (_gn(X), _gn(Z)), "g": g}


@program()
def prog_lcx_cholesky_solve_square_real(T: Any) -> Any:
    # a square right-hand side: its gradient is the solve itself, not a transpose of it
    A = T.tensor(np.arange(9.0).reshape(3, 3) / 9 + 3 * np.eye(3))
    L = T.linalg.cholesky(A @ A.mT)
    B = _r(T, 3, 3)
    W = T.tensor(np.arange(9.0).reshape(3, 3))
    X = T.cholesky_solve(B, L)
    (X * W).sum().backward()
    return {"X": X, "stride": X.stride(), "g": B.grad}


@program()
def prog_lcx_qr_reduced_tall_and_square(T: Any) -> Any:
    A, S = _c(T, 4, 3), _c(T, 3, 3, seed=1)
    Q, R = T.linalg.qr(A)
    Q2, R2 = T.linalg.qr(S, mode="complete")
    g = _back(_loss(Q) + _loss(R) + _loss(Q2 @ R2) + _loss(R2.diagonal().abs()), A, S)
    return {"Q": Q, "R": R, "names": (_gn(Q), _gn(R)), "g": g}


@program()
def prog_lcx_qr_wide(T: Any) -> Any:
    A = _c(T, 2, 4)
    Q, R = T.linalg.qr(A)
    gq = T.autograd.grad(_loss(Q), A, retain_graph=True)[0]
    gr = T.autograd.grad(_loss(R), A, retain_graph=True)[0]
    gb = T.autograd.grad(_loss(Q) + _loss(R), A)[0]
    return {"Q": Q, "R": R, "gq": gq, "gr": gr, "gb": gb}


@program()
def prog_lcx_qr_errors(T: Any) -> Any:
    A = _c(T, 4, 2)
    Q = T.linalg.qr(A, mode="complete").Q
    (r,) = T.linalg.qr(A, mode="r")[1:]
    return {
        "complete": raises(lambda: _loss(Q).backward()),
        "r": raises(lambda: _loss(r).backward()),
        "rg": (r.requires_grad, _gn(r)),
    }


@program()
def prog_lcx_eigh_invariant_losses(T: Any) -> Any:
    A = _herm(T, 3)
    L, V = T.linalg.eigh(A)
    P = V[:, :1] @ V[:, :1].mH  # the first eigenprojector: phase-free
    R = (V * L.to(V.dtype)) @ V.mH
    g = _back(_loss(L) + _loss(V.abs()) + _loss(P) + _loss(R), A)
    return {"L": L, "P": P, "R": R, "names": (_gn(L), _gn(V)), "g": g}


@program()
def prog_lcx_eigvalsh_upper_and_batches(T: Any) -> Any:
    A = _herm(T, 3)
    B = T.stack([A, A * 2 + 1])
    lo, up = T.linalg.eigvalsh(A), T.linalg.eigvalsh(A, UPLO="U")
    lb = T.linalg.eigvalsh(B)
    g = _back(_loss(lo * T.arange(3.0, dtype=T.float64)) + _loss(up) + _loss(lb), A)
    return {"lo": lo, "up": up, "lb": lb, "name": _gn(lo), "g": g}


@program()
def prog_lcx_eigh_gauge_dependent_loss(T: Any) -> Any:
    A = _herm(T, 3)
    V = T.linalg.eigh(A).eigenvectors
    err = raises(lambda: V.real.sum().backward())
    return {"err": err, "grad": A.grad}


@program()
def prog_lcx_eig_values_complex_and_real_inputs(T: Any) -> Any:
    A, B = _c(T, 3, 3), _r(T, 3, 3, seed=1)
    w, v = T.linalg.eigvals(A), T.linalg.eigvals(B)
    W = T.tensor(np.arange(3.0) + 1j, dtype=T.complex128)
    g = _back((w * W).real.sum() + (v * W).abs().sum(), A, B)
    return {"w": w, "v": v, "name": _gn(w), "dtypes": (w.dtype, g[1].dtype), "g": g}


@program()
def prog_lcx_eig_vectors_invariant_losses(T: Any) -> Any:
    A = _c(T, 3, 3)
    L, V = T.linalg.eig(A)
    R = (V * L.unsqueeze(-2)) @ T.linalg.inv(V)  # A itself
    g = _back(_loss(V.abs()) + _loss(R) + _loss(L), A)
    return {"absV": V.abs(), "R": R, "names": (_gn(L), _gn(V)), "g": g}


@program()
def prog_lcx_eig_gauge_dependent_loss(T: Any) -> Any:
    A, B = _c(T, 3, 3), _r(T, 3, 3, seed=1)
    errs = []
    for M in (A, B):
        _, V = T.linalg.eig(M)
        errs.append(raises(lambda V=V: V.imag.sum().backward()))
    return {"errs": errs, "grads": (A.grad, B.grad)}


@program()
def prog_lcx_svd_values_and_svdvals(T: Any) -> Any:
    A, B = _c(T, 4, 3), _c(T, 2, 2, 3, seed=1)
    s, t = T.linalg.svdvals(A), T.linalg.svd(B, full_matrices=False).S
    g = _back(_loss(s * T.arange(1.0, 4.0, dtype=T.float64)) + _loss(t), A, B)
    return {"s": s, "t": t, "names": (_gn(s), _gn(t)), "g": g}


@program()
def prog_lcx_svd_reconstruction_and_projectors(T: Any) -> Any:
    A, W = _c(T, 4, 3), _c(T, 2, 4, seed=1)
    out = {}
    for name, M in (("tall", A), ("wide", W)):
        U, S, Vh = T.linalg.svd(M, full_matrices=False)
        R = (U * S.to(U.dtype)) @ Vh
        P = U[..., :1] @ U[..., :1].mH  # phase-free: projectors, moduli
        Q = Vh[..., :1, :].mH @ Vh[..., :1, :]
        (g,) = T.autograd.grad(_loss(R) + _loss(P) + _loss(Q) + _loss(U.abs()), M)
        out[name] = (R, P, Q, g)
    return out


@program()
def prog_lcx_svd_full_matrices(T: Any) -> Any:
    A = _c(T, 4, 2)
    U, S, Vh = T.linalg.svd(A)  # full_matrices=True: U is 4x4
    R = (U[:, :2] * S.to(U.dtype)) @ Vh
    g = _back(_loss(R) + _loss(S), A)
    err = raises(lambda: T.linalg.svd(A)[0].abs().sum().backward())
    return {"shapes": (U.shape, Vh.shape), "R": R, "g": g, "err": err}


@program()
def prog_lcx_svd_gauge_dependent_loss(T: Any) -> Any:
    A = _c(T, 3, 3)
    U, _, Vh = T.linalg.svd(A)
    e1 = raises(lambda: U.real.sum().backward(retain_graph=True))
    e2 = raises(lambda: (U.sum() * Vh.sum()).real.backward())
    return {"e1": e1, "e2": e2}


@program()
def prog_lcx_svd_legacy_v_and_compute_uv(T: Any) -> Any:
    A = _c(T, 4, 3)
    U, S, V = T.svd(A)
    R = (U * S.to(U.dtype)) @ V.mH
    U2, S2, V2 = T.svd(A, compute_uv=False)
    g = _back(_loss(R) + _loss(S2), A)
    return {"R": R, "V": V, "zeros": (U2, V2), "names": (_gn(V), _gn(S2)), "g": g}


@program()
def prog_lcx_lu_factor_and_solve_variants(T: Any) -> Any:
    A, B = _well(T, 3, 3), _c(T, 3, 2, seed=1)
    C = _c(T, 2, 3, seed=2)
    LU, piv = T.linalg.lu_factor(A)
    out = {"LU": LU, "piv": piv, "name": _gn(LU)}
    for adj in (False, True):
        X = T.linalg.lu_solve(LU, piv, B, adjoint=adj)
        Y = T.linalg.lu_solve(LU, piv, C, left=False, adjoint=adj)
        gA, gB, gC = T.autograd.grad(_loss(X) + _loss(Y), (A, B, C), retain_graph=True)
        out[adj] = (X, Y, gA, gB, gC)
    return out


@program()
def prog_lcx_lu_plu_shapes(T: Any) -> Any:
    out = {}
    for shape in ((3, 3), (4, 2), (2, 4)):
        A = _c(T, *shape)
        P, L, U = T.linalg.lu(A)
        (g,) = T.autograd.grad(_loss(L) + _loss(U) + _loss(P @ L @ U), A)
        out[shape] = (P, L, U, g, _gn(L))
    return out


@program()
def prog_lcx_lu_unpack_and_legacy(T: Any) -> Any:
    A = _well(T, 3, 3)
    LU, piv = T.linalg.lu_factor(A)
    P, L, U = T.lu_unpack(LU, piv)
    LU2, piv2 = T.lu(A)
    b = _c(T, 3, 1, seed=1)
    x = T.lu_solve(b, LU2, piv2)
    g = _back(_loss(L) + _loss(U) + _loss(x), A, b)
    return {"P": P, "L": L, "U": U, "x": x, "names": (_gn(L), _gn(x)), "g": g}


@program()
def prog_lcx_householder_and_ormqr(T: Any) -> Any:
    H, tau = _c(T, 4, 3), _c(T, 2, seed=1)
    Q = T.linalg.householder_product(H, tau)
    tau = _c(T, 3, seed=4)
    C = _c(T, 4, 2, seed=2)
    D = _c(T, 3, 4, seed=3)
    Y1 = T.ormqr(H, tau, C)
    Y2 = T.ormqr(H, tau, C, transpose=True)
    Y3 = T.ormqr(H, tau, D, left=False)
    g = _back(_loss(Q) + _loss(Y1) + _loss(Y2) + _loss(Y3), H, tau, C, D)
    return {"Q": Q, "Ys": (Y1, Y2, Y3), "names": (_gn(Q), _gn(Y1)), "g": g}


@program()
def prog_lcx_geqrf_then_orgqr_is_qr(T: Any) -> Any:
    A = _c(T, 4, 3, rg=False)
    a, tau = T.geqrf(A)
    a.requires_grad_()
    Q = T.linalg.householder_product(a, tau)
    Q2 = T.orgqr(a, tau)
    _loss(Q).backward()
    err = raises(lambda: T.geqrf(_c(T, 3, 3)))
    with T.no_grad():
        ok = T.geqrf(_c(T, 3, 3))[0].requires_grad
    real = T.geqrf(_r(T, 3, 3))
    return {"Q": Q, "Q2": Q2, "g": a.grad, "err": err, "ok": ok, "real": _gn(real[0])}


@program()
def prog_lcx_matrix_exp_and_unitary(T: Any) -> Any:
    A = _c(T, 2, 3, 3)
    E = T.linalg.matrix_exp(A * 0.5)
    S = A[0] - A[0].mH  # skew-Hermitian: its exponential is unitary
    Uu = T.matrix_exp(S * 0.5)
    g = _back(_loss(E) + _loss(Uu @ _c(T, 3, seed=1, rg=False)), A)
    return {"E": E, "unitary": (Uu @ Uu.mH), "names": (_gn(E), _gn(Uu)), "g": g}


# --- norms ------------------------------------------------------------------------------------


@program()
def prog_lcx_vector_norm_orders(T: Any) -> Any:
    x = _c(T, 2, 4)
    out = {}
    for o in (2, 1, 3, 0.5, float("inf"), -float("inf"), 0):
        y = T.linalg.vector_norm(x, o, dim=-1)
        (g,) = T.autograd.grad(y.sum(), x, allow_unused=True)  # ord 0 has no gradient
        out[str(o)] = (y, g, _gn(y))
    full = T.linalg.vector_norm(x, dtype=T.complex128)
    return {"orders": out, "full": (full.dtype, full)}


@program()
def prog_lcx_matrix_norm_orders(T: Any) -> Any:
    A = _c(T, 2, 3, 3)
    out = {}
    for o in ("fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")):
        y = T.linalg.matrix_norm(A, o)
        (g,) = T.autograd.grad(y.sum(), A)
        out[str(o)] = (y, g, _gn(y))
    return out


@program()
def prog_lcx_linalg_norm_and_legacy_norm(T: Any) -> Any:
    A, v = _c(T, 3, 4), _c(T, 4, seed=1)
    ys = (
        T.linalg.norm(A),
        T.linalg.norm(v, 3),
        T.linalg.norm(A, "nuc"),
        T.linalg.norm(A, dim=0),
        T.norm(A),
        T.norm(A, p=1, dim=1),
        T.norm(v, p=float("inf")),
        A.norm(dim=(0, 1), keepdim=True),
    )
    g = _back(sum(y.sum() for y in ys), A, v)
    return {"ys": ys, "names": [_gn(y) for y in ys], "g": g}


@program()
def prog_lcx_norm_at_zero_subgradient(T: Any) -> Any:
    z = T.zeros(3, dtype=T.complex128, requires_grad=True)
    Z = T.zeros(2, 2, dtype=T.complex128, requires_grad=True)
    y = T.linalg.vector_norm(z) + T.linalg.vector_norm(z, 1) + T.linalg.vector_norm(z, 3)
    w = T.linalg.matrix_norm(Z)
    g = _back(y + w, z, Z)
    return {"y": y, "w": w, "g": g}


@program()
def prog_lcx_cond_and_matrix_rank(T: Any) -> Any:
    A = _well(T, 3, 3)
    c1, c2, c3 = T.linalg.cond(A), T.linalg.cond(A, "nuc"), T.linalg.cond(A, 1)
    g = _back(c1 + c2, A)
    # torch fills the inverse of a singular input with inf in place: backward through the
    # norm-based orders is a version-counter error (real inputs too)
    err = raises(lambda: (c3 + T.linalg.cond(_r(T, 3, 3), "fro")).backward())
    r = T.linalg.matrix_rank(_c(T, 3, 2, seed=1) @ _c(T, 2, 3, seed=2))
    rh = T.linalg.matrix_rank(_herm(T, 3, rg=False), hermitian=True)
    return {"c": (c1, c2, c3), "names": (_gn(c1), _gn(c3)), "g": g, "err": err, "rank": (r, rh)}


# --- gradcheck on complex128 ------------------------------------------------------------------


@program()
def prog_lcx_gradcheck_det_inv_solve(T: Any) -> Any:
    ag = T.autograd
    A, B = _well(T, 3, 3), _c(T, 3, 2, seed=1)
    return {
        "det": ag.gradcheck(T.linalg.det, (A,)),
        "slogdet": ag.gradcheck(lambda a: T.linalg.slogdet(a), (A,)),
        "inv": ag.gradcheck(T.linalg.inv, (A,)),
        "solve": ag.gradcheck(T.linalg.solve, (A, B)),
        "right": ag.gradcheck(lambda a, b: T.linalg.solve(a, b.mT, left=False), (A, B)),
        "tri": ag.gradcheck(lambda a, b: T.linalg.solve_triangular(a, b, upper=False), (A, B)),
    }


@program()
def prog_lcx_gradcheck_factorizations(T: Any) -> Any:
    ag = T.autograd
    P, A, W = _pd(T, 2), _c(T, 3, 2), _c(T, 2, 3, seed=1)

    def chol(a: Any) -> Any:
        return T.linalg.cholesky(a + a.mH)  # gradcheck perturbs off the Hermitian matrices

    return {
        "cholesky": ag.gradcheck(chol, (P,)),
        "qr": ag.gradcheck(T.linalg.qr, (A,)),
        "qr_wide": ag.gradcheck(T.linalg.qr, (W,)),
        "eigvalsh": ag.gradcheck(lambda a: T.linalg.eigvalsh(a + a.mH), (_herm(T, 2),)),
        "svdvals": ag.gradcheck(T.linalg.svdvals, (A,)),
        "lu": ag.gradcheck(lambda a: T.linalg.lu(a)[1:], (A,)),
        "lu_factor": ag.gradcheck(lambda a: T.linalg.lu_factor(a).LU, (W,)),
    }


@program()
def prog_lcx_gradcheck_gauge_invariant_spectra(T: Any) -> Any:
    ag = T.autograd
    A, H = _c(T, 3, 3), _herm(T, 3)

    def eig_proj(a: Any) -> Any:
        L, V = T.linalg.eig(a)
        return L, V.abs(), (V * L.unsqueeze(-2)) @ T.linalg.inv(V)

    def svd_proj(a: Any) -> Any:
        U, S, Vh = T.linalg.svd(a, full_matrices=False)
        return S, U @ Vh, U.abs()

    def eigh_proj(a: Any) -> Any:
        L, V = T.linalg.eigh(a + a.mH)
        return L, V[:, :1] @ V[:, :1].mH

    return {
        "eig": ag.gradcheck(eig_proj, (A,)),
        "svd": ag.gradcheck(svd_proj, (_c(T, 4, 3, seed=1),)),
        "svd_wide": ag.gradcheck(svd_proj, (_c(T, 2, 3, seed=2),)),
        "eigh": ag.gradcheck(eigh_proj, (H,)),
    }


@program()
def prog_lcx_gradcheck_solvers_and_functions(T: Any) -> Any:
    ag = T.autograd
    A, B, C = _well(T, 2, 2), _c(T, 2, 2, seed=1), _c(T, 3, 2, seed=2)

    def lu_solve(a: Any, b: Any) -> Any:
        LU, piv = T.linalg.lu_factor(a)
        return T.linalg.lu_solve(LU, piv, b), T.linalg.lu_solve(LU, piv, b, adjoint=True)

    def chol_solve(a: Any, b: Any) -> Any:
        L = T.linalg.cholesky(a @ a.mH)
        return T.cholesky_solve(b, L), T.cholesky_inverse(L)

    return {
        "lu_solve": ag.gradcheck(lu_solve, (A, B)),
        "chol": ag.gradcheck(chol_solve, (A, B)),
        "pinv": ag.gradcheck(T.linalg.pinv, (C,)),
        "lstsq": ag.gradcheck(lambda a, b: T.linalg.lstsq(a, b).solution, (C, _c(T, 3, 1))),
        "exp": ag.gradcheck(lambda a: T.linalg.matrix_exp(a * 0.3), (A,)),
        "hh": ag.gradcheck(T.linalg.householder_product, (C, _c(T, 2, seed=3))),
    }


@program()
def prog_lcx_gradcheck_products(T: Any) -> Any:
    ag = T.autograd
    c, M, v = _c(T, 3), _c(T, 3, 4, seed=1), _c(T, 4, seed=2)
    b1, b2 = _c(T, 2, 3, 4, seed=3), _c(T, 2, 4, 2, seed=4)
    return {
        "addmv": ag.gradcheck(lambda c, m, v: T.addmv(c, m, v, beta=1j, alpha=2 - 1j), (c, M, v)),
        "baddbmm": ag.gradcheck(
            lambda b1, b2: T.baddbmm(_c(T, 2, 3, 2, rg=False), b1, b2, alpha=0.5j), (b1, b2)
        ),
        "addr": ag.gradcheck(lambda c, v: T.addr(M.detach(), c, v, beta=2j), (c, v)),
        "cross": ag.gradcheck(lambda a, b: T.linalg.cross(a, b), (c, _c(T, 3, seed=5))),
        "kron": ag.gradcheck(T.kron, (c, v)),
        "trace": ag.gradcheck(T.trace, (M,)),
    }


@program()
def prog_lcx_gradgradcheck_inv_det_cholesky(T: Any) -> Any:
    ag = T.autograd
    A = _well(T, 2, 2)
    return {
        "inv": ag.gradgradcheck(T.linalg.inv, (A,)),
        "det": ag.gradgradcheck(T.linalg.det, (A,)),
        "solve": ag.gradgradcheck(T.linalg.solve, (A, _c(T, 2, 1, seed=1))),
        "chol": ag.gradgradcheck(lambda a: T.linalg.cholesky(a @ a.mH), (A,)),
    }


@program()
def prog_lcx_gradcheck_wrong_backward_reports(T: Any) -> Any:
    # a custom Function with the real formula (no conjugate): gradcheck on complex finds it
    class BadMatVec(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, x):
            ctx.save_for_backward(a, x)
            return a @ x

        @staticmethod
        def backward(ctx, g):
            a, x = ctx.saved_tensors
            return g.unsqueeze(-1) * x.unsqueeze(0), a.mT @ g

    A, x = _c(T, 2, 2), _c(T, 2, seed=1)
    real = T.autograd.gradcheck(BadMatVec.apply, (A.real.detach().requires_grad_(), x.real))
    return {"real": real, "complex": _gc(lambda: T.autograd.gradcheck(BadMatVec.apply, (A, x)))}


# --- autograd state around complex linear algebra ---------------------------------------------


@program()
def prog_lcx_nonleaf_grad_warning_and_retain_grad(T: Any) -> Any:
    A = _well(T, 3, 3)
    X = T.linalg.inv(A)
    D = T.linalg.det(X)
    X.retain_grad()
    _loss(D).backward()
    return {
        "X.grad": X.grad,
        "D.grad": D.grad,  # not retained: None, with torch's warning
        "leaf": (A.is_leaf, X.is_leaf, D.is_leaf),
        "rg": (X.requires_grad, D.requires_grad),
        "A.grad": A.grad,
    }


@program()
def prog_lcx_hooks_see_conjugate_gradients(T: Any) -> Any:
    A, b = _well(T, 3, 3), _c(T, 3, seed=1)
    log = []
    x = T.linalg.solve(A, b)
    x.register_hook(lambda g: log.append(("x", g.clone())))
    y = x * (1 + 2j)
    y.register_hook(lambda g: log.append(("y", g.clone())) or g * 1j)
    A.register_hook(lambda g: log.append(("A", g.clone())))
    y.abs().sum().backward()
    return {"log": log, "A": A.grad, "b": b.grad}


@program()
def prog_lcx_inplace_on_saved_inverse_is_an_error(T: Any) -> Any:
    A = _well(T, 3, 3)
    X = T.linalg.inv(A)
    X.mul_(2)  # the inverse is saved for LinalgInvExBackward0
    e1 = raises(lambda: _loss(X).backward())
    B = _well(T, 3, 3, seed=1)
    Y = T.linalg.solve(B * 1, _c(T, 3, 2, seed=2))
    Z = Y @ Y.mT
    Y.add_(1)  # saved by mm of Z (itself and its transpose, a view)
    e2 = raises(lambda: _loss(Z).backward())
    return {"e1": e1, "e2": e2, "versions": (X._version, Y._version)}


@program()
def prog_lcx_inplace_on_solve_input_is_an_error(T: Any) -> Any:
    A0 = _well(T, 3, 3)
    A = A0 * 1
    X = T.linalg.solve(A, _c(T, 3, seed=1))
    A.sub_(1)  # A is saved by solve's node
    err = raises(lambda: _loss(X).backward())
    with T.no_grad():
        A0.mul_(1)  # the leaf itself in no_grad: allowed
    return {"err": err, "v": A._version, "leaf_v": A0._version}


@program()
def prog_lcx_no_grad_detach_and_requires_grad(T: Any) -> Any:
    A = _well(T, 3, 3)
    with T.no_grad():
        Y = T.linalg.inv(A)
        Q = T.linalg.qr(A).Q
    Z = T.linalg.inv(A.detach())
    L, V = T.linalg.eig(A)
    S = T.linalg.svdvals(A)
    return {
        "no_grad": (Y.requires_grad, Q.requires_grad, _gn(Y)),
        "detached": (Z.requires_grad, _gn(Z)),
        "eig": (L.requires_grad, V.requires_grad, _gn(L), _gn(V), L.dtype, V.dtype),
        "svdvals": (S.dtype, _gn(S)),
    }


@program()
def prog_lcx_backward_of_complex_scalar_needs_grad(T: Any) -> Any:
    A = _c(T, 3, 3)
    d = T.linalg.det(A)
    e = raises(lambda: d.backward())
    d.backward(T.tensor(1 - 1j, dtype=T.complex128))
    return {"e": e, "g": A.grad}


@program()
def prog_lcx_autograd_grad_with_complex_grad_outputs(T: Any) -> Any:
    A, B = _well(T, 3, 3), _c(T, 3, 2, seed=1)
    X = T.linalg.solve(A, B)
    go = _c(T, 3, 2, seed=2, rg=False)
    gA, gB = T.autograd.grad(X, (A, B), grad_outputs=go, retain_graph=True)
    (gA2,) = T.autograd.grad((X * go.conj()).real.sum(), A)
    return {"gA": gA, "gB": gB, "same": (gA - gA2).abs().max() < 1e-12}


@program()
def prog_lcx_real_parameters_through_complex_matrices(T: Any) -> Any:
    # real leaves assembled into a complex matrix: their gradients are real (handle_r_to_c)
    re, im = _r(T, 3, 3), _r(T, 3, 3, seed=1)
    A = T.complex(re, im) + 3 * T.eye(3, dtype=T.complex128)
    d = T.linalg.det(A)
    L = T.linalg.eigvals(A)
    x = T.linalg.solve(A, T.ones(3, dtype=T.complex128))
    g = _back(d.abs() + L.real.sum() + _loss(x), re, im)
    return {"A": _gn(A), "g": g, "dtypes": [t.dtype for t in g]}


@program()
def prog_lcx_view_as_real_of_linalg_results(T: Any) -> Any:
    A = _well(T, 3, 3)
    X = T.linalg.inv(A)
    R = T.view_as_real(X)
    Q = T.view_as_complex(R * T.tensor([1.0, -1.0], dtype=T.float64))  # the conjugate
    g = _back((R[..., 0] * 2 - R[..., 1]).sum() + _loss(Q @ A), A)
    return {"R": R, "Q": Q, "names": (_gn(R), _gn(Q)), "g": g}


@program()
def prog_lcx_complex64_matches(T: Any) -> Any:
    A = _well(T, 3, 3, dt="complex64")
    B = _c(T, 3, 2, seed=1, dt="complex64")
    X = T.linalg.solve(A, B)
    d = T.linalg.det(A)
    Q, R = T.linalg.qr(A)
    s = T.linalg.svdvals(A)
    g = _back(_loss(X) + _loss(d) + _loss(Q @ R) + s.sum(), A, B)
    return {"X": X, "d": d, "s": s, "dtypes": (X.dtype, d.dtype, s.dtype, g[0].dtype), "g": g}


@program()
def prog_lcx_mixed_dtype_errors(T: Any) -> Any:
    A, Af = _c(T, 3, 3), _r(T, 3, 3)
    b = _c(T, 3, dt="complex64")
    return {
        "solve": raises(lambda: T.linalg.solve(A, b)),
        "mm": raises(lambda: A @ Af),
        "addmv": raises(lambda: T.addmv(b, A, b)),
        "tri": raises(lambda: T.linalg.solve_triangular(A, Af, upper=True)),
        "cholesky": raises(lambda: T.linalg.cholesky(A[:, :2])),
        "det": raises(lambda: T.linalg.det(A[0])),
        "eigh_uplo": raises(lambda: T.linalg.eigh(A, UPLO="X")),
    }


# --- programs a user would write --------------------------------------------------------------


@program()
def prog_lcx_fit_complex_linear_system(T: Any) -> Any:
    # least squares on a complex parameter by gradient descent, then the closed form
    r = np.random.default_rng(7)
    X = T.tensor(r.standard_normal((8, 3)) + 1j * r.standard_normal((8, 3)))
    w_true = T.tensor(np.array([1 - 1j, 0.5j, -2.0]))
    y = X @ w_true
    w = T.zeros(3, dtype=T.complex128, requires_grad=True)
    opt = T.optim.SGD([w], lr=0.02)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = (X @ w - y).abs().pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    closed = T.linalg.lstsq(X, y.unsqueeze(-1)).solution.squeeze(-1)
    return {"losses": losses, "w": w, "closed": closed, "grad": w.grad}


@program()
def prog_lcx_unitary_layer_by_matrix_exp(T: Any) -> Any:
    # a unitary weight from a skew-Hermitian parameter; the loss of a rotated signal
    r = np.random.default_rng(8)
    P = T.tensor(0.3 * (r.standard_normal((3, 3)) + 1j * r.standard_normal((3, 3))))
    P.requires_grad_()
    x = T.tensor(r.standard_normal((4, 3)) + 1j * r.standard_normal((4, 3)))
    target = T.tensor(r.standard_normal((4, 3)) + 0j)
    opt = T.optim.Adam([P], lr=0.05)
    out = []
    for _ in range(3):
        opt.zero_grad()
        U = T.linalg.matrix_exp(P - P.mH)
        loss = (x @ U.mT - target).abs().square().sum()
        loss.backward()
        opt.step()
        out.append((loss.item(), (U @ U.mH - T.eye(3)).abs().max().item() < 1e-12))
    return {"out": out, "P": P, "grad": P.grad}


@program()
def prog_lcx_gaussian_loglik_with_cholesky(T: Any) -> Any:
    # the complex normal log-density through cholesky, solve_triangular and the diagonal
    L0 = _pd(T, 3, rg=False)
    S = L0.clone().requires_grad_()
    z = _c(T, 5, 3, seed=3, rg=False)
    L = T.linalg.cholesky(S)
    w = T.linalg.solve_triangular(L, z.mT, upper=False)
    logdet = 2 * L.diagonal().real.log().sum()
    nll = (w.abs() ** 2).sum() + 5 * logdet
    nll.backward()
    ref = T.logdet(S).real * 5 + (z.conj() @ T.linalg.inv(S) @ z.mT).diagonal().real.sum()
    return {"nll": nll, "ref": ref, "g": S.grad, "names": (_gn(w), _gn(logdet))}


@program()
def prog_lcx_spectral_radius_penalty(T: Any) -> Any:
    # penalize the largest eigenvalue modulus of a complex recurrent matrix, and its 2-norm
    W = _c(T, 3, 3)
    lam = T.linalg.eigvals(W)
    rho = lam.abs().max()
    two = T.linalg.matrix_norm(W, 2)
    loss = rho + 0.1 * two + 0.01 * T.linalg.matrix_norm(W, "nuc")
    loss.backward()
    return {"rho": rho, "two": two, "loss": loss, "g": W.grad, "names": (_gn(rho), _gn(two))}


@program()
def prog_lcx_procrustes_by_svd(T: Any) -> Any:
    # the nearest unitary matrix U Vh and its gradient; the trace objective
    A, B = _c(T, 3, 3), _c(T, 3, 3, seed=1)
    U, _, Vh = T.linalg.svd(A.mH @ B)
    R = U @ Vh
    loss = (A @ R - B).abs().square().sum() - T.trace(R @ B.mH @ A).real
    g = _back(loss, A, B)
    return {"R": R, "loss": loss, "g": g}


@program()
def prog_lcx_power_iteration_vs_eigh(T: Any) -> Any:
    H = _herm(T, 3)
    v = T.ones(3, dtype=T.complex128) / 3**0.5
    for _ in range(30):
        v = H @ v
        v = v / T.linalg.vector_norm(v)
    ray = T.vdot(v, H @ v).real
    top = T.linalg.eigvalsh(H)[-1]
    (g1,) = T.autograd.grad(ray, H, retain_graph=True)
    (g2,) = T.autograd.grad(top, H)
    return {"ray": ray, "top": top, "g1": g1, "g2": g2}


@program()
def prog_lcx_batched_matrix_pipeline(T: Any) -> Any:
    # a batch through several ops; the gradient of a weighted sum of real parts
    A = _well(T, 2, 3, 3)
    B = _c(T, 2, 3, 2, seed=1)
    X = T.linalg.solve(A, B)
    G = X.mH @ X
    L = T.linalg.cholesky(G + T.eye(2, dtype=T.complex128))
    s, la = T.linalg.slogdet(G + T.eye(2))
    out = L.diagonal(dim1=-2, dim2=-1).real.sum() + la.sum() + (s.angle()).sum()
    g = _back(out, A, B)
    return {"X": X, "L": L, "la": la, "out": out, "g": g}


# torch's first dual tensor of a process imports modules that warn (torch.jit.script deprecated)
@program(warnings=False)
def prog_lcx_forward_ad_complex_tangents(T: Any) -> Any:
    fa = T.autograd.forward_ad
    A = _well(T, 3, 3, rg=False)
    dA = _c(T, 3, 3, seed=1, rg=False)
    B, dB = _c(T, 3, 2, seed=2, rg=False), _c(T, 3, 2, seed=3, rg=False)
    H, dH = _herm(T, 3, rg=False), _herm(T, 3, seed=4, rg=False)
    out = {}
    with fa.dual_level():
        a, b, h = fa.make_dual(A, dA), fa.make_dual(B, dB), fa.make_dual(H, dH)
        for name, y in (
            ("det", T.linalg.det(a)),
            ("inv", T.linalg.inv(a)),
            ("solve", T.linalg.solve(a, b)),
            ("eigvalsh", T.linalg.eigvalsh(h)),
            ("eigvals", T.linalg.eigvals(a)),
            ("svdvals", T.linalg.svdvals(a)),
            ("exp", T.linalg.matrix_exp(a * 0.2)),
            ("mm", a @ b),
        ):
            p, t = fa.unpack_dual(y)
            out[name] = (p, t)
    return out


@program()
def prog_lcx_functional_jacobian_and_vjp(T: Any) -> Any:
    F = T.autograd.functional
    A = _well(T, 2, 2, rg=False)
    x = _c(T, 2, seed=1, rg=False)

    def f(x: Any) -> Any:
        return T.linalg.solve(A, x).abs()

    def g(a: Any) -> Any:
        return T.linalg.det(a).abs()

    _, vjp = F.vjp(f, x, T.ones(2, dtype=T.float64))
    return {"jac": F.jacobian(g, A), "vjp": vjp, "jac_f": F.jacobian(f, x)}


@program()
def prog_lcx_conj_view_shares_version(T: Any) -> Any:
    Y = _c(T, 2, 3) * 1
    Z = Y.mH
    Y.add_(1)
    return {"conj": Z.is_conj(), "v": Z._version, "same": (Z.mH == Y).all()}


# --- corner cases -----------------------------------------------------------------------------


@program()
def prog_lcx_empty_matrices_through_decompositions(T: Any) -> Any:
    out = {}
    for shape in ((0, 0), (2, 0, 0)):
        A = T.zeros(*shape, dtype=T.complex128, requires_grad=True)
        ys = {
            "inv": T.linalg.inv(A),
            "solve": T.linalg.solve(A, A),
            "qr": T.linalg.qr(A).R,
            "eigvals": T.linalg.eigvals(A),
            "exp": T.linalg.matrix_exp(A),
            "lu": T.linalg.lu(A).U,
            "lu_factor": T.linalg.lu_factor(A).LU,
            "lstsq": T.linalg.lstsq(A, A).solution,
            "pinv": T.linalg.pinv(A),
            "det": T.linalg.det(A),
        }
        g = _back(sum(_loss(y) for y in ys.values()), A)
        out[shape] = ({k: (y.shape, _gn(y)) for k, y in ys.items()}, g)
    return out


@program()
def prog_lcx_empty_matrix_norms(T: Any) -> Any:
    out = []
    for o in (2, -2, 1, -1, float("inf"), "nuc", "fro"):
        for shape in ((0, 0), (2, 0, 3), (3, 0)):
            A = T.zeros(*shape, dtype=T.complex64, requires_grad=True)
            r = raises(lambda A=A, o=o: T.linalg.matrix_norm(A, o, keepdim=True))
            out.append((str(o), shape, r if not hasattr(r, "requires_grad") else (r, _gn(r))))
    return out


@program()
def prog_lcx_qr_batched_real_gradient_layout(T: Any) -> Any:
    # a batch of square R's: the gradient is the solve's adjoint, not its transpose
    A = _r(T, 2, 3, 3)
    Q, R = T.linalg.qr(A)
    W = T.tensor(np.arange(18.0).reshape(2, 3, 3))
    ((R * W).sum() + (Q * W).sum()).backward()
    return {"R": R, "g": A.grad}


@program()
def prog_lcx_lu_pivots_complex(T: Any) -> Any:
    # LAPACK picks a complex pivot by |re| + |im|: 3+0j beats 2+2j (modulus 2.83 < 3 < 4)
    A = T.tensor([[2 + 2j, 1.0], [3 + 0j, 1j]], requires_grad=True)
    LU, piv = T.linalg.lu_factor(A)
    P, L, U = T.linalg.lu(A)
    B = T.tensor([[0.5 + 0.5j, 1.0, 0.0], [0.0, 2.0, 1.0], [3.0, -2.9 - 0.2j, 1j]])
    g = _back(_loss(LU) + _loss(L) + _loss(U), A)
    return {"piv": (piv, T.linalg.lu_factor(B).pivots), "P": P, "LU": LU, "g": g}


@program()
def prog_lcx_view_as_complex_checks(T: Any) -> Any:
    x = T.zeros(3, 4, dtype=T.float64)
    e = T.zeros(0, 0, 2, dtype=T.float64, requires_grad=True)
    z = T.view_as_complex(e)
    (z.real.sum() + z.abs().sum()).backward()
    return {
        "odd_offset": raises(lambda: T.view_as_complex(x[:, 1:3])),
        "even_offset": T.view_as_complex(x[1:, :2]).shape,
        "stride": raises(lambda: T.view_as_complex(x.t()[:, :2])),
        "empty": (z.shape, z.stride(), e.grad),
    }


@program()
def prog_lcx_reduction_errors_name_the_given_dim(T: Any) -> Any:
    x = T.zeros(2, 0)
    return [
        raises(lambda d=d, fn=fn: fn(x, d))
        for fn in (T.amax, T.amin)
        for d in (-1, 1, (0, -1), (-2, -1), [1, 0])
    ]


@program()
def prog_lcx_product_dtype_and_shape_errors(T: Any) -> Any:
    a, b = _c(T, 2, 3, rg=False), _c(T, 3, seed=1, rg=False)
    f64, f32 = T.ones(2, 3, dtype=T.float64), T.ones(2, 3)
    return {
        "cross_len": raises(lambda: T.linalg.cross(a, _c(T, 2, 2, rg=False))),
        "cross_bcast": raises(lambda: T.linalg.cross(a, _c(T, 3, 3, rg=False))),
        "cross_dtype": raises(lambda: T.linalg.cross(a, f64)),
        "cross_legacy_dtype": raises(lambda: T.cross(f32, f64, dim=1)),
        "cross_dim0": raises(lambda: T.linalg.cross(a, a, dim=0)),
        "cross_bcast_ok": T.linalg.cross(a[:1], _c(T, 4, 3, seed=2, rg=False)).shape,
        "inner": raises(lambda: T.inner(b, T.ones(3, dtype=T.float64))),
        "inner_2d": raises(lambda: T.inner(a, T.ones(3, dtype=T.float64))),
        "tensordot": raises(lambda: T.tensordot(a, b.real, dims=([1], [0]))),
        "tensordot0": raises(lambda: T.tensordot(a, f64, dims=0)),
        "dot": raises(lambda: T.dot(b, b.real)),
        "vdot": raises(lambda: T.vdot(b, b.to(T.complex64))),
        "mm": raises(lambda: a @ f64.mT),
    }


@program()
def prog_lcx_cholesky_ex_reads_the_real_diagonal(T: Any) -> Any:
    # potrf takes A as Hermitian: the diagonal's imaginary part is ignored, also when it fails
    good = T.tensor([[2 + 1j, 0], [1j, 3 - 3j]], requires_grad=True)
    bad = T.tensor([[1 + 1j, 2 + 2j], [-1 + 1j, -2 + 2j]])
    L = T.linalg.cholesky(good)
    _loss(L).backward()
    return {
        "L": L,
        "g": good.grad,
        "bad": T.linalg.cholesky_ex(bad),
        "err": raises(lambda: T.linalg.cholesky(bad)),
    }


@program()
def prog_lcx_out_arguments_of_linalg(T: Any) -> Any:
    A, B = _pd(T, 3), _c(T, 3, 2, seed=1, rg=False)
    L = T.linalg
    c64 = lambda *s: T.empty(*s, dtype=T.complex64)  # noqa: E731
    f64 = lambda *s: T.empty(*s, dtype=T.float64)  # noqa: E731
    c128 = lambda *s: T.empty(*s, dtype=T.complex128)  # noqa: E731
    needs_grad = {
        "inv": raises(lambda: L.inv(A, out=c128(3, 3))),
        "solve": raises(lambda: L.solve(A, B, out=c128(3, 2))),
        "cholesky": raises(lambda: L.cholesky(A, out=c128(3, 3))),
        "svdvals": raises(lambda: L.svdvals(A, out=f64(3))),
        "eigvalsh": raises(lambda: L.eigvalsh(A, out=f64(3))),
        "eigh": raises(lambda: L.eigh(A, out=(f64(3), c128(3, 3)))),
        "qr": raises(lambda: L.qr(A, out=(c128(3, 3), c128(3, 3)))),
        "power": raises(lambda: L.matrix_power(A, 2, out=c128(3, 3))),
        "multi_dot": raises(lambda: L.multi_dot([A, A], out=c128(3, 3))),
        "vecdot": raises(lambda: L.vecdot(A, A, out=c128(3))),
    }
    Ad = A.detach()
    dtypes = {
        "inv": raises(lambda: L.inv(Ad, out=c64(3, 3))),
        "inv_real": raises(lambda: L.inv(Ad, out=f64(3, 3))),
        "solve": raises(lambda: L.solve(Ad, B, out=c64(3, 2))),
        "svdvals": raises(lambda: L.svdvals(Ad, out=T.empty(3))),
        "eigh": raises(lambda: L.eigh(Ad, out=(T.empty(3), c64(3, 3)))),
        "qr": raises(lambda: L.qr(Ad, out=(c64(3, 3), c128(3, 3)))),
        "pinv": raises(lambda: L.pinv(Ad, out=f64(3, 3))),
        "pinv_c64": L.pinv(Ad, out=c64(3, 3)).dtype,
        "eigvals": raises(lambda: L.eigvals(Ad, out=f64(3))),
        "tri": raises(lambda: L.solve_triangular(Ad, B, upper=True, out=c64(3, 2))),
        "power": raises(lambda: L.matrix_power(Ad, 2, out=f64(3, 3))),
        "power_c64": raises(lambda: L.matrix_power(Ad, 2, out=c64(3, 3))),
        "multi_dot": raises(lambda: L.multi_dot([Ad, Ad], out=c64(3, 3))),
        "vecdot": raises(lambda: L.vecdot(Ad, Ad, out=c64(3))),
        "tensordot": raises(lambda: T.tensordot(Ad, Ad, dims=1, out=c64(3, 3))),
        "chol_inv": raises(lambda: T.cholesky_inverse(Ad, out=f64(3, 3))),
    }
    V = c128(3, 3)
    w = L.eigh(Ad, out=(f64(3), V))
    P, Lf, U = c128(0), c128(0), c128(0)
    L.lu(Ad, out=(P, Lf, U))
    o = c128(0)
    tinv = L.tensorinv(A, ind=1, out=o)  # a composite: the out tensor joins the graph
    _loss(o).backward()
    return {
        "needs_grad": needs_grad,
        "dtypes": dtypes,
        "written": (w[1] is V, V, P, Lf, U),
        "tensorinv": (tinv is o, _gn(o), o._version, A.grad),
    }


@program()
def prog_lcx_block_matrices_and_scatters(T: Any) -> Any:
    A, B = _c(T, 2, 2), _c(T, 1, 3, seed=1)
    M = T.block_diag(A, B, _c(T, 2, seed=2, rg=False))
    D = T.diagonal_scatter(_c(T, 3, 3, seed=3, rg=False), A.diagonal().repeat(2)[:3] * 1j)
    g = _back(_loss(M) + _loss(D), A, B)
    return {
        "M": M,
        "D": D,
        "names": (_gn(M), _gn(D)),
        "g": g,
        "select": raises(lambda: T.select_scatter(_c(T, 2, 2), A[0], 0, 0)),
        "slice": raises(lambda: T.slice_scatter(_c(T, 2, 2, rg=False), A[:1], 0, 0, 1)),
        "nansum": raises(lambda: A.nansum()),
    }


# --- the complex-numbers note, as a user runs it ----------------------------------------------


@program()
def prog_lcx_complex_numbers_note_walkthrough(T: Any) -> Any:
    T.manual_seed(0)
    x = T.randn(2, 2, dtype=T.cfloat)
    r = T.randn(3, 2)
    y = T.view_as_complex(r)
    back = T.view_as_real(y)
    re, im = y.real, y.imag
    y.real.mul_(2)  # writes through to y and r
    x1 = T.tensor([3j, 4 + 4j])
    old = T.get_default_dtype()
    T.set_default_dtype(T.float64)
    try:
        dflt = (T.tensor([1j]).dtype, T.randn(1, dtype=T.cfloat).dtype, T.full((1,), 1j).dtype)
    finally:
        T.set_default_dtype(old)
    return {
        "x": x,
        "y": y,
        "r": r,
        "back_is_view": back.data_ptr() == r.data_ptr(),
        "strides": (y.real.stride(), re.stride(), im.is_contiguous()),
        "abs_angle": (x1.abs(), x1.angle()),
        "default": dflt,
        "dtypes": (T.cfloat, T.cdouble, T.complex(r[:, 0], r[:, 1]).dtype),
    }


@program()
def prog_lcx_save_load_complex_tensors(T: Any) -> Any:
    import io

    y = _c(T, 3, rg=False)
    A = _well(T, 2, 2, rg=False).to(T.complex64)
    buf = io.BytesIO()
    T.save({"y": y, "A": A, "inv": T.linalg.inv(A)}, buf)
    buf.seek(0)
    d = T.load(buf)
    return {"d": d, "dtypes": [v.dtype for v in d.values()]}


@program()
def prog_lcx_optimizers_on_complex_parameters(T: Any) -> Any:
    # "all the existing optimizers work out of the box with complex parameters"
    out = {}
    for name, kw in (
        ("SGD", {"lr": 0.1, "momentum": 0.9}),
        ("Adam", {"lr": 0.05}),
        ("AdamW", {"lr": 0.05, "weight_decay": 0.1}),
        ("RMSprop", {"lr": 0.01}),
        ("Adagrad", {"lr": 0.1}),
    ):
        w = _c(T, 3)
        A = _well(T, 3, 3, seed=5, rg=False)
        b = _c(T, 3, seed=6, rg=False)
        opt = getattr(T.optim, name)([w], **kw)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = (A @ w - b).abs().square().sum() + T.linalg.vector_norm(w, 1)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        out[name] = (losses, w.detach().clone())
    return out


@program()
def prog_lcx_singular_complex_solves_give_nan(T: Any) -> Any:
    # LAPACK's complex division by a zero pivot is nan + nan j (real: inf with its sign)
    out = []
    for S in (
        T.tensor([[1 + 1j, 2 + 2j], [1j - 1, 2j - 2]]),
        T.tensor([[0j, 0.0], [0.0, 1.0]]),
        T.tensor([[1.0, 2.0], [2.0, 4.0]]),
    ):
        b = T.ones(2, 1, dtype=S.dtype)
        LU, piv, info = T.linalg.lu_factor_ex(S)
        out.append(
            (
                T.linalg.inv_ex(S),
                T.linalg.solve_ex(S, b),
                T.linalg.lu_solve(LU, piv, b),
                T.linalg.solve_triangular(S.triu(), b, upper=True),
                info,
                raises(lambda S=S: T.linalg.inv(S)),
            )
        )
    return out


@program()
def prog_lcx_transposed_square_gradient_reaches_a_leaf(T: Any) -> Any:
    class Twist(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            W = T.tensor(np.arange(9.0).reshape(3, 3))
            return (g @ W).mT  # a transposed view of a fresh square array

    x = T.ones(3, 3, dtype=T.float64, requires_grad=True)
    y = Twist.apply(x)
    (y * T.tensor(np.arange(9.0).reshape(3, 3))).sum().backward()
    return x.grad


def _graph(t: Any) -> Any:
    """A tensor's whole backward graph as nested (name, inputs) pairs."""

    def node(fn: Any) -> Any:
        return (fn.name(), [node(f) for f, _ in fn.next_functions if f is not None])

    return None if t.grad_fn is None else node(t.grad_fn)


@program()
def prog_lcx_einsum_graphs_are_torchs(T: Any) -> Any:
    # torch aligns the operands (diagonals, unsqueezes, one permute) and contracts each pair
    # as permute -> reshape -> bmm -> view -> permute: the whole graph, not just its last node
    a, b = _r(T, 3, 4), _r(T, 3, 4, seed=1)
    c, v = _r(T, 4, 5, seed=2), _r(T, 4, seed=3)
    bb, bc = _r(T, 2, 3, 4, seed=4), _r(T, 2, 4, 5, seed=5)
    sq, z = _r(T, 3, 3, seed=6), _c(T, 3, 4, seed=7)
    cases = [
        ("ij,ij->i", a, b),
        ("ij,jk", a, c),
        ("ii->i", sq),
        ("ii", sq),
        ("ij->", a),
        ("i,j->ij", v, v),
        ("...ij,...jk->...ik", bb, bc),
        ("bij->bj", bb),
        ("ij,jk,kl->il", a, c, _r(T, 5, 2, seed=8)),
        ("ij,jj->i", a, _r(T, 4, 4, seed=9)),
        ("ij,ij,ij->i", a, b, a),
        ("ij,kj->ik", z, z.conj()),
    ]
    out = []
    for eq, *ops in cases:
        r = T.einsum(eq, *ops)
        out.append((eq, _graph(r), r, _back(_loss(r), *ops)))
        for x in ops:
            x.grad = None
    sub = T.einsum(a, [0, 1], c, [1, 2], [0, 2])
    errs = [
        raises(lambda: T.einsum("i,i", v, 3)),
        raises(lambda: T.einsum("ii->i", a)),
        raises(lambda: T.einsum("...i,...i->i", bb, _r(T, 5, 4))),
        raises(lambda: T.einsum(a, [60])),
        raises(lambda: T.einsum("ij")),
    ]
    return out, _graph(sub), sub, errs


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
