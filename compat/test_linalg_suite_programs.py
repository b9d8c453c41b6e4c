"""Realistic programs: torch.linalg as torch's own test-suite exercises it (test/test_linalg.py
and the linalg OpInfos). Batched and empty (0xN, Nx0, batch 0) inputs of the factorizations and
solvers, their gradients and grad_fn names, singular-matrix errors and the `_ex` info values,
shape and dtype errors, out= forms, float32 / float64 / complex inputs, and the legacy torch.*
aliases (torch.det, torch.inverse, torch.svd, torch.lu, torch.qr, torch.cholesky,
torch.triangular_solve, torch.lu_unpack). The programs register into test_realistic_programs_3's
set and run through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything
it returns, raises or warns is compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _m(
    T: Any, *shape: int, seed: int = 0, rg: bool = False, dt: str = "float64", shift: float = 0.0
) -> Any:
    """A tensor of fixed values (the same for both libraries); `shift` adds shift*I to the
    trailing square matrices (well conditioned)."""
    r = np.random.default_rng(seed)
    v = r.standard_normal(shape)
    if dt.startswith("complex"):
        v = v + 1j * r.standard_normal(shape)
    if shift and len(shape) >= 2 and shape[-1] == shape[-2]:
        v = v + shift * np.eye(shape[-1])
    return T.tensor(v, dtype=getattr(T, dt), requires_grad=rg)


def _spd(T: Any, *shape: int, seed: int = 0, rg: bool = False, dt: str = "float64") -> Any:
    """A symmetric (Hermitian) positive-definite batch of fixed values."""
    r = np.random.default_rng(seed)
    v = r.standard_normal(shape)
    if dt.startswith("complex"):
        v = v + 1j * r.standard_normal(shape)
    n = shape[-1]
    a = v @ np.conj(np.swapaxes(v, -1, -2)) + n * np.eye(n)
    return T.tensor(a, dtype=getattr(T, dt), requires_grad=rg)


def _names(*ts: Any) -> list[Any]:
    return [None if t.grad_fn is None else t.grad_fn.name() for t in ts]


# --- 1. empty and batched inputs -------------------------------------------------------------


@program()
def prog_lns_det_family_empty(T: Any) -> Any:
    out = {}
    for shape in ((0, 0), (2, 0, 0), (0, 3, 3), (0, 0, 0)):
        A = T.zeros(shape, dtype=T.float64, requires_grad=True)
        d = T.linalg.det(A)
        s, ld = T.linalg.slogdet(A)
        lg = T.logdet(A)
        (d.sum() + ld.sum() + lg.sum()).backward()
        out[shape] = (d, s, ld, lg, _names(d, s, ld, lg), A.grad)
    return out


@program()
def prog_lns_inv_family_empty(T: Any) -> Any:
    out = {}
    for shape in ((0, 0), (3, 0, 0), (0, 2, 2)):
        A = T.zeros(shape, requires_grad=True)
        i = T.linalg.inv(A)
        ie = T.linalg.inv_ex(A)
        (i.sum() + ie.inverse.sum()).backward()
        out[shape] = (i, ie.inverse, ie.info, _names(i, ie.inverse), A.grad)
    out["nonsquare"] = raises(lambda: T.linalg.inv(T.zeros(0, 3)))
    out["nonsquare2"] = raises(lambda: T.linalg.inv(T.zeros(3, 0)))
    return out


@program()
def prog_lns_solve_empty_rhs_and_batch(T: Any) -> Any:
    A = _m(T, 3, 3, shift=3.0, rg=True)
    B = T.zeros(3, 0, dtype=T.float64, requires_grad=True)
    x = T.linalg.solve(A, B)
    x.sum().backward()
    A0 = T.zeros(0, 2, 2, dtype=T.float64)
    B0 = T.zeros(0, 2, dtype=T.float64)
    return {
        "x": x,
        "gA": A.grad,
        "gB": B.grad,
        "fn": x.grad_fn,
        "batch0": T.linalg.solve(A0, B0),
        "batch0_ex": T.linalg.solve_ex(A0, B0),
        "nn0": T.linalg.solve(T.zeros(0, 0), T.zeros(0, 4)),
        "left_false": T.linalg.solve(T.eye(0), T.zeros(5, 0), left=False),
    }


@program()
def prog_lns_cholesky_empty_and_batch0(T: Any) -> Any:
    out = {}
    for shape in ((0, 0), (2, 0, 0), (0, 3, 3)):
        A = T.zeros(shape, dtype=T.float64, requires_grad=True)
        L = T.linalg.cholesky(A)
        ex = T.linalg.cholesky_ex(A, upper=True)
        L.sum().backward()
        out[shape] = (L, ex.L, ex.info, L.grad_fn.name(), A.grad)
    return out


@program()
def prog_lns_qr_empty_modes(T: Any) -> Any:
    out = {}
    for shape in ((0, 3), (3, 0), (2, 0, 4), (0, 0)):
        for mode in ("reduced", "complete", "r"):
            A = T.zeros(shape, dtype=T.float64)
            q, r = T.linalg.qr(A, mode=mode)
            out[(shape, mode)] = (q, r)
    return out


@program()
def prog_lns_svd_empty_full_matrices(T: Any) -> Any:
    out = {}
    for shape in ((0, 3), (3, 0), (2, 0, 0), (0, 2, 3)):
        for fm in (True, False):
            A = T.zeros(shape, dtype=T.float64)
            U, S, Vh = T.linalg.svd(A, full_matrices=fm)
            out[(shape, fm)] = (U, S, Vh, T.linalg.svdvals(A))
    return out


@program()
def prog_lns_svd_empty_grad(T: Any) -> Any:
    A = T.zeros(0, 3, dtype=T.float64, requires_grad=True)
    U, S, Vh = T.linalg.svd(A, full_matrices=False)
    (U.sum() + S.sum() + Vh.sum()).backward()
    return U, S, Vh, A.grad, _names(U, S, Vh)


@program()
def prog_lns_eigh_eig_empty(T: Any) -> Any:
    A = T.zeros(2, 0, 0, dtype=T.float64)
    return {
        "eigh": T.linalg.eigh(A),
        "eigvalsh": T.linalg.eigvalsh(A, UPLO="U"),
        "eig": T.linalg.eig(A),
        "eigvals": T.linalg.eigvals(A),
        "eig0": T.linalg.eig(T.zeros(0, 2, 2)),
    }


@program()
def prog_lns_lu_empty(T: Any) -> Any:
    out = {}
    for shape in ((0, 3), (3, 0), (2, 0, 0), (0, 2, 2)):
        A = T.zeros(shape, dtype=T.float64)
        out[shape] = (T.linalg.lu(A), T.linalg.lu_factor(A), T.linalg.lu_factor_ex(A))
    return out


@program()
def prog_lns_pinv_rank_empty(T: Any) -> Any:
    out = {}
    for shape in ((0, 3), (3, 0), (2, 0, 0)):
        A = T.zeros(shape, dtype=T.float64)
        out[shape] = (T.linalg.pinv(A), T.linalg.matrix_rank(A))
    return out


@program()
def prog_lns_lstsq_empty(T: Any) -> Any:
    out = {}
    for a, b in (((0, 3), (0, 2)), ((3, 0), (3, 2)), ((3, 2), (3, 0)), ((0, 0), (0, 0))):
        A = T.zeros(a, dtype=T.float64)
        B = T.zeros(b, dtype=T.float64)
        out[(a, b)] = raises(lambda A=A, B=B: tuple(T.linalg.lstsq(A, B)))
    return out


@program()
def prog_lns_matrix_exp_power_empty(T: Any) -> Any:
    A = T.zeros(2, 0, 0, dtype=T.float64)
    return {
        "exp": T.linalg.matrix_exp(A),
        "p0": T.linalg.matrix_power(A, 0),
        "p3": T.linalg.matrix_power(A, 3),
        "pneg": T.linalg.matrix_power(A, -2),
        "exp_batch0": T.linalg.matrix_exp(T.zeros(0, 3, 3)),
        "p_batch0": T.linalg.matrix_power(T.zeros(0, 3, 3), -1),
    }


# --- 2. singular matrices: errors and info ----------------------------------------------------


def _sing(T: Any, dt: str = "float64") -> Any:
    # the third pivot vanishes in LU with partial pivoting
    return T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], dtype=getattr(T, dt))


@program()
def prog_lns_inv_singular_messages(T: Any) -> Any:
    A = _sing(T)
    Z = T.zeros(2, 2)
    batch = T.stack([T.eye(3, dtype=T.float64), A, T.eye(3, dtype=T.float64)])
    return {
        "inv": raises(lambda: T.linalg.inv(Z)),
        "inverse": raises(lambda: T.inverse(Z)),
        "batch": raises(lambda: T.linalg.inv(T.stack([T.eye(2), Z, Z]))),
        "ex": T.linalg.inv_ex(batch).info,
        "ex_check": raises(lambda: T.linalg.inv_ex(batch, check_errors=True)),
        "ex0": T.linalg.inv_ex(Z).info,
    }


@program()
def prog_lns_solve_singular_messages(T: Any) -> Any:
    Z = T.zeros(2, 2, dtype=T.float64)
    b = T.ones(2, dtype=T.float64)
    batch = T.stack([T.eye(2, dtype=T.float64), Z])
    return {
        "solve": raises(lambda: T.linalg.solve(Z, b)),
        "batch": raises(lambda: T.linalg.solve(batch, T.ones(2, 2, 1, dtype=T.float64))),
        "ex": T.linalg.solve_ex(batch, T.ones(2, 2, dtype=T.float64)).info,
        "ex_check": raises(lambda: T.linalg.solve_ex(Z, b, check_errors=True)),
    }


@program()
def prog_lns_cholesky_not_pd_messages(T: Any) -> Any:
    A = T.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=T.float64)
    batch = T.stack([T.eye(2, dtype=T.float64), A, -T.eye(2, dtype=T.float64)])
    return {
        "chol": raises(lambda: T.linalg.cholesky(A)),
        "batch": raises(lambda: T.linalg.cholesky(batch)),
        "ex": T.linalg.cholesky_ex(batch),
        "ex_upper": T.linalg.cholesky_ex(batch, upper=True).info,
        "legacy": raises(lambda: T.cholesky(A)),
        "ex_check": raises(lambda: T.linalg.cholesky_ex(batch, check_errors=True)),
    }


@program()
def prog_lns_lu_factor_singular_info(T: Any) -> Any:
    A = _sing(T)
    Z = T.zeros(3, 3, dtype=T.float64)
    ex = T.linalg.lu_factor_ex(T.stack([A, Z, T.eye(3, dtype=T.float64)]))
    return {
        "ex": ex,
        "factor": raises(lambda: T.linalg.lu_factor(Z)),
        "factor_ok": T.linalg.lu_factor(A).pivots,
        "legacy": T.lu(Z, get_infos=True)[2],
    }


@program()
def prog_lns_det_singular_grad(T: Any) -> Any:
    A = _sing(T).requires_grad_()
    d = T.linalg.det(A)
    (g,) = T.autograd.grad(d, A, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), A)
    B = T.zeros(2, 2, dtype=T.float64, requires_grad=True)
    T.linalg.det(B).backward()
    return d, g, gg, B.grad, d.grad_fn


@program()
def prog_lns_slogdet_singular_and_negative(T: Any) -> Any:
    A = T.tensor([[0.0, 1.0], [1.0, 0.0]], dtype=T.float64, requires_grad=True)
    s, ld = T.linalg.slogdet(A)
    ld.backward()
    Z = T.zeros(2, 2, dtype=T.float64)
    return {
        "s": s,
        "ld": ld,
        "g": A.grad,
        "fn": _names(s, ld),
        "zero": tuple(T.linalg.slogdet(Z)),
        "logdet_neg": T.logdet(A.detach()),
        "logdet_zero": T.logdet(Z),
        "legacy": tuple(T.slogdet(A.detach())),
    }


# --- 3. shape and dtype errors ----------------------------------------------------------------


@program()
def prog_lns_shape_errors_square(T: Any) -> Any:
    A = T.ones(2, 3)
    v = T.ones(3)
    return {
        "det": raises(lambda: T.linalg.det(A)),
        "det1d": raises(lambda: T.linalg.det(v)),
        "slogdet": raises(lambda: T.linalg.slogdet(A)),
        "inv": raises(lambda: T.linalg.inv(A)),
        "chol": raises(lambda: T.linalg.cholesky(A)),
        "eigh": raises(lambda: T.linalg.eigh(A)),
        "eig": raises(lambda: T.linalg.eig(A)),
        "eigvals": raises(lambda: T.linalg.eigvals(v)),
        "mexp": raises(lambda: T.linalg.matrix_exp(A)),
        "mpow": raises(lambda: T.linalg.matrix_power(A, 2)),
        "lu_factor1d": raises(lambda: T.linalg.lu_factor(v)),
        "qr1d": raises(lambda: T.linalg.qr(v)),
        "svd1d": raises(lambda: T.linalg.svd(v)),
        "pinv1d": raises(lambda: T.linalg.pinv(v)),
    }


@program()
def prog_lns_dtype_errors_integer(T: Any) -> Any:
    A = T.eye(3, dtype=T.int64)
    return {
        "det": raises(lambda: T.linalg.det(A)),
        "inv": raises(lambda: T.linalg.inv(A)),
        "chol": raises(lambda: T.linalg.cholesky(A)),
        "qr": raises(lambda: T.linalg.qr(A)),
        "svd": raises(lambda: T.linalg.svd(A)),
        "eigh": raises(lambda: T.linalg.eigh(A)),
        "eig": raises(lambda: T.linalg.eig(A)),
        "solve": raises(lambda: T.linalg.solve(A, A)),
        "lu": raises(lambda: T.linalg.lu(A)),
        "mexp": raises(lambda: T.linalg.matrix_exp(A)),
        "pinv": raises(lambda: T.linalg.pinv(A)),
        "rank": raises(lambda: T.linalg.matrix_rank(A)),
        "lstsq": raises(lambda: T.linalg.lstsq(A, A)),
        "mpow_int": T.linalg.matrix_power(A * 2, 3),
        "mpow_int_neg": raises(lambda: T.linalg.matrix_power(A, -1)),
    }


@program()
def prog_lns_dtype_errors_half(T: Any) -> Any:
    A = T.eye(3, dtype=T.float16)
    p = T.ones(3, dtype=T.int32)
    return {
        "det": raises(lambda: T.linalg.det(A)),
        "inv": raises(lambda: T.linalg.inv(A)),
        "chol": raises(lambda: T.linalg.cholesky(A)),
        "svd": raises(lambda: T.linalg.svd(A)),
        "eigh": raises(lambda: T.linalg.eigvalsh(A)),
        "solve": raises(lambda: T.linalg.solve(A, A)),
        "lstsq": raises(lambda: T.linalg.lstsq(A, A)),
        "lu_solve": raises(lambda: T.linalg.lu_solve(A, p, A)),
        "lu_solve_b1d": raises(lambda: T.linalg.lu_solve(A, p, A[0])),
        "cond_fro": raises(lambda: T.linalg.cond(A, "fro")),
        "cond_nuc": raises(lambda: T.linalg.cond(A, "nuc")),
        "cond": raises(lambda: T.linalg.cond(A)),
    }


@program(warnings=False)  # torch.cholesky warns once a process
def prog_lns_dtype_errors_reach_the_kernel(T: Any) -> Any:
    # the ops torch checks for a floating dtype only in the kernel's dispatch
    out = {}
    for dt in ("int64", "int32", "bool", "uint8"):
        A = T.eye(3, dtype=getattr(T, dt))
        out[dt] = (
            raises(lambda A=A: T.linalg.eigh(A)),
            raises(lambda A=A: T.linalg.eigvalsh(A, UPLO="U")),
            raises(lambda A=A: T.cholesky(A)),
            raises(lambda A=A: T.linalg.lstsq(A, A)),
            raises(lambda A=A: T.linalg.cond(A, "fro")),
            raises(lambda A=A: T.linalg.cond(A, 1)),
            raises(lambda A=A: T.linalg.cond(A, "nuc")),
        )
    R = T.ones(2, 3, dtype=T.int64)
    out["order"] = (
        raises(lambda: T.linalg.eigh(R)),
        raises(lambda: T.cholesky(R)),
        raises(lambda: T.linalg.cond(R, "fro")),
        raises(lambda: T.linalg.cond(R[0], "fro")),
        raises(lambda: T.linalg.cond(R[0])),
        raises(lambda: T.linalg.lstsq(R, R.T)),
    )
    return out


@program()
def prog_lns_solve_mixed_dtype_and_shapes(T: Any) -> Any:
    A = _m(T, 3, 3, shift=3.0)
    return {
        "mixed": raises(lambda: T.linalg.solve(A, T.ones(3, dtype=T.float32))),
        "complex_b": raises(lambda: T.linalg.solve(A, T.ones(3, dtype=T.complex128))),
        "bad_rows": raises(lambda: T.linalg.solve(A, T.ones(4, 2, dtype=T.float64))),
        "bad_vec": raises(lambda: T.linalg.solve(A, T.ones(4, dtype=T.float64))),
        "left_false_vec": raises(lambda: T.linalg.solve(A, T.ones(3, dtype=T.float64), left=False)),
        "bcast": T.linalg.solve(A.expand(2, 3, 3), T.ones(1, 3, 2, dtype=T.float64)).shape,
        "bcast_vec": T.linalg.solve(A.expand(2, 3, 3), T.ones(2, 3, dtype=T.float64)).shape,
        "bad_batch": raises(
            lambda: T.linalg.solve(A.expand(2, 3, 3), T.ones(3, 3, 1, dtype=T.float64))
        ),
    }


# --- 4. gradients, grad_fn names and double backward -----------------------------------------


def _gg(T: Any, f: Any, *xs: Any) -> Any:
    """f(*xs), its grad_fn name, first and (summed) second derivatives."""
    y = f(*xs)
    ys = y if isinstance(y, tuple) else (y,)
    loss = sum((t * t).sum() if not t.is_complex() else (t * t.conj()).real.sum() for t in ys)
    g = T.autograd.grad(loss, xs, create_graph=True)
    gg = T.autograd.grad(
        sum((x.real if x.is_complex() else x).sum() for x in g), xs, allow_unused=True
    )
    return ys, [t.grad_fn.name() if t.grad_fn else None for t in ys], g, gg


def _gg_values(T: Any, f: Any, *xs: Any) -> Any:
    """_gg without the first derivatives' graph: the values only."""
    ys, names, g, gg = _gg(T, f, *xs)
    return ys, names, [t.detach() for t in g], gg


@program()
def prog_lns_det_batched_double_backward(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=1, rg=True)
    return _gg(T, T.linalg.det, A)


@program()
def prog_lns_slogdet_logdet_double_backward(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=2, shift=4.0, rg=True)
    return _gg(T, lambda a: T.linalg.slogdet(a)[1], A), _gg(T, T.logdet, A)


@program()
def prog_lns_inv_double_backward_and_ex(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=3, shift=3.0, rg=True)
    return _gg(T, T.linalg.inv, A), _gg(T, lambda a: T.linalg.inv_ex(a).inverse, A)


@program()
def prog_lns_solve_left_right_double_backward(T: Any) -> Any:
    A = _m(T, 3, 3, seed=4, shift=3.0, rg=True)
    B = _m(T, 2, 3, 2, seed=5, rg=True)
    C = _m(T, 2, 2, 3, seed=6, rg=True)
    v = _m(T, 3, seed=7, rg=True)
    return (
        _gg(T, T.linalg.solve, A, B),
        _gg(T, lambda a, c: T.linalg.solve(a, c, left=False), A, C),
        _gg(T, T.linalg.solve, A, v),
        _gg(T, lambda a, b: T.linalg.solve_ex(a, b).result, A, B),
    )


@program()
def prog_lns_cholesky_upper_double_backward(T: Any) -> Any:
    A = _spd(T, 2, 3, 3, seed=8, rg=True)

    def sym(f: Any) -> Any:
        return lambda a: f((a + a.mT) / 2)

    return (
        _gg(T, sym(T.linalg.cholesky), A),
        _gg(T, sym(lambda a: T.linalg.cholesky(a, upper=True)), A),
        _gg(T, sym(lambda a: T.linalg.cholesky_ex(a).L), A),
    )


@program()
def prog_lns_cholesky_solve_inverse_grads(T: Any) -> Any:
    A = _spd(T, 3, 3, seed=9)
    L = T.linalg.cholesky(A).requires_grad_()
    U = T.linalg.cholesky(A, upper=True).requires_grad_()
    B = _m(T, 3, 2, seed=10, rg=True)
    return (
        _gg(T, T.cholesky_solve, B, L),
        _gg(T, lambda b, u: T.cholesky_solve(b, u, upper=True), B, U),
        _gg(T, T.cholesky_inverse, L),
        _gg(T, lambda u: T.cholesky_inverse(u, upper=True), U),
    )


@program()
def prog_lns_qr_modes_grads(T: Any) -> Any:
    A = _m(T, 4, 3, seed=11, rg=True)
    W = _m(T, 3, 4, seed=12, rg=True)
    S = _m(T, 2, 3, 3, seed=13, rg=True)
    return {
        "tall_reduced": _gg(T, lambda a: T.linalg.qr(a), A),
        "tall_r": raises(lambda: _gg(T, lambda a: T.linalg.qr(a, mode="r")[1], A)),
        "wide_reduced": _gg(T, lambda a: T.linalg.qr(a), W),
        "square_complete": _gg(T, lambda a: T.linalg.qr(a, mode="complete"), S),
        "tall_complete": raises(lambda: _gg(T, lambda a: T.linalg.qr(a, mode="complete"), A)),
        "r_Q_empty": T.linalg.qr(A, mode="r")[0],
    }


@program()
def prog_lns_qr_r_mode_backward_error(T: Any) -> Any:
    A = _m(T, 3, 3, seed=14, rg=True)
    Q, R = T.linalg.qr(A, mode="r")
    return R.grad_fn, raises(lambda: R.sum().backward()), Q


@program()
def prog_lns_svd_gauge_invariant_grads(T: Any) -> Any:
    A = _m(T, 2, 4, 3, seed=15, rg=True)

    def f(a: Any) -> Any:
        U, S, Vh = T.linalg.svd(a, full_matrices=False)
        return (U * U).sum(-2), S, (Vh.abs() ** 2).sum(-1), U @ T.diag_embed(S) @ Vh

    return _gg(T, f, A), _gg(T, T.linalg.svdvals, A)


@program()
def prog_lns_svd_full_matrices_backward(T: Any) -> Any:
    # torch differentiates the reduced factors: the extra columns of U (rows of Vh) get no
    # gradient (the signs of the singular vectors follow the LAPACK: only gauge-invariant
    # functions of them are compared)
    out = {}
    for shape in ((4, 3), (3, 4), (2, 3, 3)):
        A = _m(T, *shape, seed=16, rg=True)
        U, S, Vh = T.linalg.svd(A)
        k = min(shape[-2:])
        rec = U[..., :k] @ T.diag_embed(S) @ Vh[..., :k, :]
        loss = (rec * rec).sum() + U[..., k:].sum() + Vh[..., k:, :].sum() + (U * U).sum()
        (g,) = T.autograd.grad(loss, A)
        out[shape] = (g, _names(U, S, Vh), T.linalg.svd(A, full_matrices=False).U.shape)
    return out


@program()
def prog_lns_eigh_uplo_grads(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=17, rg=True)

    def f(uplo: str) -> Any:
        def g(a: Any) -> Any:
            L, V = T.linalg.eigh(a, UPLO=uplo)
            return L, (V * V).sum(-2), V @ T.diag_embed(L) @ V.mT

        return g

    return (
        _gg(T, f("L"), A),
        _gg(T, f("U"), A),
        _gg(T, lambda a: T.linalg.eigvalsh(a, UPLO="U"), A),
        raises(lambda: T.linalg.eigh(A, UPLO="X")),
        raises(lambda: T.linalg.eigvalsh(A, UPLO="l")),
    )


@program()
def prog_lns_eigh_gauge_error(T: Any) -> Any:
    A = _spd(T, 3, 3, seed=18, dt="complex128", rg=True)
    L, V = T.linalg.eigh(A)
    return raises(lambda: T.autograd.grad(V.sum().abs(), A)), _names(L, V)


@program()
def prog_lns_eig_eigvals_grads(T: Any) -> Any:
    A = _m(T, 3, 3, seed=19, rg=True)

    def f(a: Any) -> Any:
        L, V = T.linalg.eig(a)
        return L, (V * V.conj()).real.sum(-2), V @ T.diag_embed(L) @ T.linalg.inv(V)

    L, V = T.linalg.eig(A)
    return (
        _gg(T, f, A),
        _gg(T, T.linalg.eigvals, A),
        L.dtype,
        V.dtype,
        raises(lambda: T.autograd.grad(V.sum().abs(), A)),
    )


@program()
def prog_lns_lu_factor_lu_grads(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=20, rg=True)
    W = _m(T, 3, 5, seed=21, rg=True)
    H = _m(T, 5, 3, seed=22, rg=True)
    return (
        _gg(T, lambda a: T.linalg.lu_factor(a).LU, A),
        _gg(T, lambda a: T.linalg.lu(a)[1:], A),
        _gg(T, lambda a: T.linalg.lu(a)[1:], W),
        _gg(T, lambda a: T.linalg.lu(a)[1:], H),
        _gg(T, lambda a: T.linalg.lu_factor_ex(a).LU, H),
        [t.requires_grad for t in T.linalg.lu(A)],
        [t.requires_grad for t in T.linalg.lu_factor(A)],
    )


@program()
def prog_lns_lu_solve_grads_left_adjoint(T: Any) -> Any:
    A = _m(T, 3, 3, seed=23, shift=2.0, rg=True)
    B = _m(T, 2, 3, 3, seed=24, rg=True)
    out = {}
    for left in (True, False):
        for adjoint in (True, False):

            def f(a: Any, b: Any, left: bool = left, adjoint: bool = adjoint) -> Any:
                LU, piv = T.linalg.lu_factor(a)
                return T.linalg.lu_solve(LU, piv, b, left=left, adjoint=adjoint)

            out[(left, adjoint)] = _gg(T, f, A, B)
    return out


@program()
def prog_lns_lu_unpack_and_legacy_lu(T: Any) -> Any:
    A = _m(T, 2, 3, 4, seed=25, rg=True)
    LU, piv = T.linalg.lu_factor(A)
    P, L, U = T.lu_unpack(LU, piv)
    (L.sum() + U.sum()).backward()
    LU2, piv2, info = T.lu(A.detach(), get_infos=True)
    return {
        "plu": (P, L, U),
        "fn": _names(P, L, U),
        "g": A.grad,
        "no_data": T.lu_unpack(LU, piv, unpack_data=False),
        "no_piv": T.lu_unpack(LU, piv, unpack_pivots=False),
        "legacy": (LU2, piv2, info),
        "legacy2": T.lu(A.detach()),
        "method": A.detach().lu(),
        "bad_piv": raises(lambda: T.lu_unpack(LU, piv.long())),
        "piv_zero": raises(lambda: T.lu_unpack(LU, T.zeros_like(piv))),
        "piv_big": raises(lambda: T.lu_unpack(LU, T.full_like(piv, 4))),
        "piv_big_unused": T.lu_unpack(LU, T.full_like(piv, 4), unpack_pivots=False).P,
        "lu1d": raises(lambda: T.lu_unpack(LU.detach()[0, 0], piv[0])),
    }


@program()
def prog_lns_lu_pivot_false_cpu(T: Any) -> Any:
    A = _m(T, 3, 3, seed=26)
    return (
        raises(lambda: T.linalg.lu(A, pivot=False)),
        raises(lambda: T.linalg.lu_factor(A, pivot=False)),
        raises(lambda: T.linalg.lu_factor_ex(A, pivot=False)),
    )


@program()
def prog_lns_lu_solve_errors(T: Any) -> Any:
    A = _m(T, 3, 3, seed=27, shift=2.0)
    LU, piv = T.linalg.lu_factor(A)
    B = _m(T, 3, 2, seed=28)
    return {
        "dtype": raises(lambda: T.linalg.lu_solve(LU, piv, B.float())),
        "piv_dtype": raises(lambda: T.linalg.lu_solve(LU, piv.long(), B)),
        "b1d": raises(lambda: T.linalg.lu_solve(LU, piv, B[:, 0])),
        "shape": raises(lambda: T.linalg.lu_solve(LU, piv, B.mT)),
        "shape_right": raises(lambda: T.linalg.lu_solve(LU, piv, B, left=False)),
        "piv_short": raises(lambda: T.linalg.lu_solve(LU, piv[:2], B)),
        "piv_batch": raises(lambda: T.linalg.lu_solve(LU, piv.expand(2, 3), B)),
        "piv_batch_lu": raises(lambda: T.linalg.lu_solve(LU.expand(2, 3, 3), piv, B)),
        "piv_batch_ok": T.linalg.lu_solve(LU.expand(2, 3, 3), piv.expand(2, 3), B),
        "legacy": T.lu_solve(B, LU, piv),
        "bcast": T.linalg.lu_solve(LU, piv, B.expand(2, 3, 2)),
    }


@program()
def prog_lns_solve_triangular_variants(T: Any) -> Any:
    A = _m(T, 3, 3, seed=29, shift=3.0, rg=True)
    B = _m(T, 3, 2, seed=30, rg=True)
    C = _m(T, 2, 3, seed=31, rg=True)
    out = {}
    for upper in (True, False):
        for unit in (True, False):
            out[(upper, unit, "l")] = _gg(
                T,
                lambda a, b, u=upper, n=unit: T.linalg.solve_triangular(
                    a, b, upper=u, unitriangular=n
                ),
                A,
                B,
            )
            out[(upper, unit, "r")] = _gg(
                T,
                lambda a, c, u=upper, n=unit: T.linalg.solve_triangular(
                    a, c, upper=u, left=False, unitriangular=n
                ),
                A,
                C,
            )
    return out


@program()
def prog_lns_solve_triangular_errors(T: Any) -> Any:
    A = _m(T, 3, 3, seed=32, shift=3.0)
    B = _m(T, 3, 2, seed=33)
    return {
        "no_upper": raises(lambda: T.linalg.solve_triangular(A, B)),
        "b1d": raises(lambda: T.linalg.solve_triangular(A, B[:, 0], upper=True)),
        "shape": raises(lambda: T.linalg.solve_triangular(A, B.mT, upper=True)),
        "dtype": raises(lambda: T.linalg.solve_triangular(A, B.float(), upper=True)),
        "int": raises(lambda: T.linalg.solve_triangular(A.long(), B.long(), upper=True)),
        "nonsq": raises(lambda: T.linalg.solve_triangular(A[:2], B, upper=True)),
        "bcast": T.linalg.solve_triangular(A, B.expand(2, 3, 2), upper=False).shape,
        "empty": T.linalg.solve_triangular(A, T.zeros(3, 0, dtype=T.float64), upper=True),
        "singular": T.linalg.solve_triangular(T.zeros(2, 2, dtype=T.float64), B[:2], upper=True),
    }


@program(warnings=False)  # torch.triangular_solve warns once a process
def prog_lns_triangular_solve_legacy(T: Any) -> Any:
    A = _m(T, 3, 3, seed=34, shift=3.0, rg=True)
    b = _m(T, 3, 2, seed=35, rg=True)
    out = {}
    for upper in (True, False):
        for tr in (True, False):
            for unit in (True, False):
                X, M = T.triangular_solve(b, A, upper=upper, transpose=tr, unitriangular=unit)
                out[(upper, tr, unit)] = (X, M, _names(X, M))
    X, M = T.triangular_solve(b, A)
    (X.sum() + M.sum()).backward()
    out["grads"] = (A.grad, b.grad)
    out["method"] = b.detach().triangular_solve(A.detach(), upper=False)
    out["b1d"] = raises(lambda: T.triangular_solve(b[:, 0], A))
    return out


# --- 5. legacy torch.* aliases ---------------------------------------------------------------


@program(warnings=False)  # the deprecations warn once a process
def prog_lns_legacy_svd_some_compute_uv(T: Any) -> Any:
    A = _m(T, 4, 3, seed=36, rg=True)
    U, S, V = T.svd(A)
    U2, S2, V2 = T.svd(A, some=False)
    U3, S3, V3 = T.svd(A, compute_uv=False)
    rec = U @ T.diag_embed(S) @ V.mT
    rec.sum().backward()
    return {
        "shapes": [t.shape for t in (U, S, V, U2, S2, V2, U3, S3, V3)],
        "zeros": (U3, V3),
        "S": (S, S2, S3),
        "fn": _names(U, S, V, U3, S3, V3),
        "rec": rec,
        "g": A.grad,
        "method": A.detach().svd(compute_uv=False).S,
        "uv_none_backward": raises(lambda: T.autograd.grad(S3.sum(), A)),
        "nt": type(T.svd(A.detach())).__name__,
    }


@program(warnings=False)
def prog_lns_legacy_qr_some_and_symeig(T: Any) -> Any:
    A = _m(T, 4, 3, seed=37)
    return {
        "qr": T.qr(A),
        "qr_full": T.qr(A, some=False),
        "method": A.qr(some=True),
        "symeig": hasattr(T, "symeig"),
        "tsymeig": hasattr(A, "symeig"),
        "eig": hasattr(T, "eig"),
        "matrix_rank": hasattr(T, "matrix_rank"),
        "lstsq": hasattr(T, "lstsq"),
        "solve": hasattr(T, "solve"),
        "chol_solve": hasattr(T, "cholesky_solve"),
    }


@program(warnings=False)
def prog_lns_legacy_cholesky_upper(T: Any) -> Any:
    A = _spd(T, 2, 3, 3, seed=38, rg=True)
    L = T.cholesky(A)
    U = T.cholesky(A, upper=True)
    (L.sum() + U.sum()).backward()
    return {
        "L": L,
        "U": U,
        "fn": _names(L, U),
        "g": A.grad,
        "method": A.detach().cholesky(upper=True),
        "nonsq": raises(lambda: T.cholesky(T.ones(2, 3))),
        "notpd": raises(lambda: T.cholesky(-T.eye(2))),
        "notpd_batch": raises(lambda: T.cholesky(T.stack([T.eye(2), -T.eye(2)]))),
    }


@program()
def prog_lns_legacy_det_inverse_logdet(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=39, shift=2.0, rg=True)
    d = T.det(A)
    i = T.inverse(A)
    s = T.slogdet(A)
    ld = A.logdet()
    (d.sum() + i.sum() + s.logabsdet.sum() + ld.nansum()).backward()
    return {
        "d": (d, A.det(), A.detach().det()),
        "i": (i, A.inverse()),
        "s": s,
        "ld": ld,
        "fn": _names(d, i, s[0], s[1], ld),
        "g": A.grad,
        "nt": type(s).__name__,
        "matrix_power": A.detach().matrix_power(-2),
        "matrix_exp": A.detach().matrix_exp(),
        "pinverse": T.pinverse(A.detach()),
        "pinverse_rcond": A.detach().pinverse(rcond=0.5),
    }


# --- 6. pinv, matrix_rank, lstsq -------------------------------------------------------------


@program()
def prog_lns_pinv_tolerances(T: Any) -> Any:
    A = _m(T, 2, 4, 3, seed=40)
    S = _spd(T, 3, 3, seed=41) - 4 * T.eye(3, dtype=T.float64)
    out = {
        "plain": T.linalg.pinv(A),
        "rtol": T.linalg.pinv(A, rtol=0.5),
        "atol": T.linalg.pinv(A, atol=1.0),
        "both": T.linalg.pinv(A, atol=0.1, rtol=0.4),
        "t_rtol": T.linalg.pinv(A, rtol=T.tensor([0.1, 0.9], dtype=T.float64).unsqueeze(-1)),
        "t_atol": T.linalg.pinv(A, atol=T.tensor(0.5, dtype=T.float64)),
        "herm": T.linalg.pinv(S, hermitian=True),
        "herm_rtol": T.linalg.pinv(S, hermitian=True, rtol=0.3),
        "rcond": T.linalg.pinv(A, rcond=0.5),
        "neg": T.linalg.pinv(A, atol=-1.0),
        "f32_atol": raises(lambda: T.linalg.pinv(A.float(), atol=T.tensor(0.5, dtype=T.float64))),
        "complex_atol": raises(lambda: T.linalg.pinv(A, atol=T.tensor(0.5j))),
    }
    return out


@program(
    xfail="torch's argument parser rejects the legacy rcond/tol mixed with atol/rtol, its "
    "TypeError listing the keywords in reverse order of the call; pinv and matrix_rank take "
    "named parameters here, so the call's keyword order is lost and they take the mix"
)
def prog_lns_pinv_matrix_rank_mixed_tolerance_forms(T: Any) -> Any:
    A = _m(T, 2, 4, 3, seed=40)
    return (
        raises(lambda: T.linalg.pinv(A, rcond=0.5, rtol=0.1)),
        raises(lambda: T.linalg.pinv(A, 0.5, atol=0.1)),
        raises(lambda: T.linalg.matrix_rank(A, tol=1.0, atol=1.0)),
    )


@program()
def prog_lns_pinv_grads(T: Any) -> Any:
    A = _m(T, 4, 3, seed=42, rg=True)
    W = _m(T, 2, 3, 5, seed=43, rg=True)
    S = _spd(T, 3, 3, seed=44, rg=True)
    return (
        _gg(T, T.linalg.pinv, A),
        _gg(T, T.linalg.pinv, W),
        _gg(T, lambda s: T.linalg.pinv((s + s.mT) / 2, hermitian=True), S),
        _gg(T, T.pinverse, A),
    )


@program()
def prog_lns_matrix_rank_tolerances(T: Any) -> Any:
    r = np.random.default_rng(45)
    low = r.standard_normal((3, 5, 2)) @ r.standard_normal((3, 2, 4))
    A = T.tensor(low)
    S = A @ A.mT
    return {
        "plain": T.linalg.matrix_rank(A),
        "tol": T.linalg.matrix_rank(A, tol=1.0),
        "rtol": T.linalg.matrix_rank(A, rtol=0.2),
        "atol": T.linalg.matrix_rank(A, atol=2.0),
        "atol_rtol": T.linalg.matrix_rank(A, atol=0.5, rtol=0.1),
        "herm": T.linalg.matrix_rank(S, hermitian=True),
        "herm_atol": T.linalg.matrix_rank(S, hermitian=True, atol=10.0),
        "t_atol": T.linalg.matrix_rank(A, atol=T.tensor([1.0, 5.0, 50.0], dtype=T.float64)),
        "f32": T.linalg.matrix_rank(A.float()),
        "zeros": T.linalg.matrix_rank(T.zeros(3, 3)),
        "dtype": T.linalg.matrix_rank(A).dtype,
        "complex": T.linalg.matrix_rank(A.to(T.complex128) * 1j),
    }


@program()
def prog_lns_lstsq_drivers_and_shapes(T: Any) -> Any:
    A = _m(T, 2, 5, 3, seed=46)
    B = _m(T, 2, 5, 2, seed=47)
    out = {}
    for driver in (None, "gels", "gelsy", "gelsd", "gelss"):
        r = T.linalg.lstsq(A, B, driver=driver)
        out[driver] = (r.solution, r.residuals, r.rank, r.singular_values)
    out["vec"] = raises(lambda: T.linalg.lstsq(A, B[..., 0]))
    out["bad_driver"] = raises(lambda: T.linalg.lstsq(A, B, driver="gelsx"))
    out["rcond"] = tuple(T.linalg.lstsq(A, B, rcond=0.5, driver="gelsd"))
    out["wide"] = tuple(T.linalg.lstsq(A.mT, B[:, :3], driver="gelsd"))
    out["wide_gels"] = tuple(T.linalg.lstsq(A.mT, B[:, :3]))
    out["nt"] = type(T.linalg.lstsq(A, B)).__name__
    return out


@program()
def prog_lns_lstsq_grads_and_errors(T: Any) -> Any:
    A = _m(T, 5, 3, seed=48, rg=True)
    B = _m(T, 5, 2, seed=49, rg=True)
    sol = T.linalg.lstsq(A, B).solution
    return {
        "gg": _gg(T, lambda a, b: T.linalg.lstsq(a, b).solution, A, B),
        "fn": sol.grad_fn,
        "rows": raises(lambda: T.linalg.lstsq(A, B[:4])),
        "dtype": raises(lambda: T.linalg.lstsq(A, B.float())),
        "b0d": raises(lambda: T.linalg.lstsq(A, B[0, 0])),
        "a1d": raises(lambda: T.linalg.lstsq(A[0], B)),
        "bcast": raises(lambda: T.linalg.lstsq(A.detach().expand(2, 5, 3), B.detach())),
        "bcast_vec": T.linalg.lstsq(A.detach().expand(2, 5, 3), B.detach().mT).solution,
        "bcast_ok": T.linalg.lstsq(A.detach().expand(2, 5, 3), B.detach()[None]).solution,
        "bcast_b": raises(lambda: T.linalg.lstsq(A.detach(), B.detach().expand(2, 5, 2))),
    }


# --- 7. matrix functions ----------------------------------------------------------------------


@program()
def prog_lns_matrix_power_negative_and_grads(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=50, shift=2.0, rg=True)
    out = {}
    for n in (-3, -1, 1, 2, 5):
        out[n] = _gg(T, lambda a, n=n: T.linalg.matrix_power(a, n), A)
    p0 = T.linalg.matrix_power(A, 0)
    out[0] = (p0, p0.requires_grad, raises(lambda: T.autograd.grad(p0.sum(), A)))
    out["singular"] = raises(lambda: T.linalg.matrix_power(T.zeros(2, 2), -1))
    out["int_pos"] = T.linalg.matrix_power(T.tensor([[1, 2], [3, 4]]), 3)
    out["bool"] = raises(lambda: T.linalg.matrix_power(T.eye(2, dtype=T.bool), 2))
    out["float_n"] = raises(lambda: T.linalg.matrix_power(A, 2.0))
    out["out"] = T.linalg.matrix_power(A.detach(), -2, out=T.empty(0, dtype=T.float64))
    return out


@program()
def prog_lns_matrix_exp_grads_and_values(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=51, rg=True)
    C = _m(T, 2, 2, seed=52, dt="complex128", rg=True)
    big = T.tensor([[0.0, 30.0], [-30.0, 0.0]], dtype=T.float64)
    return {
        "gg": _gg(T, T.linalg.matrix_exp, A),
        "c": _gg(T, T.linalg.matrix_exp, C),
        "big": T.linalg.matrix_exp(big),
        "nil": T.linalg.matrix_exp(T.triu(T.ones(4, 4, dtype=T.float64), 1)),
        "one": T.linalg.matrix_exp(T.full((1, 1), 2.0)),
        "f32": T.matrix_exp(A.detach().float()),
        "inf": T.linalg.matrix_exp(T.tensor([[float("inf"), 0.0], [0.0, 1.0]])),
    }


@program()
def prog_lns_multi_dot_shapes_and_grads(T: Any) -> Any:
    a = _m(T, 3, seed=53, rg=True)
    B = _m(T, 3, 4, seed=54, rg=True)
    C = _m(T, 4, 2, seed=55, rg=True)
    d = _m(T, 2, seed=56, rg=True)
    return {
        "vmv": _gg(T, lambda *x: T.linalg.multi_dot(list(x)), a, B, C, d),
        "mm": _gg(T, lambda *x: T.linalg.multi_dot(x), B, C),
        "vm": _gg(T, lambda *x: T.linalg.multi_dot(x), a, B, C),
        "one": raises(lambda: T.linalg.multi_dot([B])),
        "empty": raises(lambda: T.linalg.multi_dot([])),
        "3d": raises(lambda: T.linalg.multi_dot([B, C.unsqueeze(0)])),
        "mid1d": raises(lambda: T.linalg.multi_dot([B, d, C])),
        "shape": raises(lambda: T.linalg.multi_dot([B, B])),
        "dtype": raises(lambda: T.linalg.multi_dot([B, C.float()])),
        "int": T.linalg.multi_dot([T.ones(2, 3, dtype=T.int64), T.ones(3, 2, dtype=T.int64)]),
        "zero": T.linalg.multi_dot([T.zeros(2, 0), T.zeros(0, 3), T.ones(3, 1)]),
        "out": T.linalg.multi_dot([B.detach(), C.detach()], out=T.empty(0, dtype=T.float64)),
    }


@program()
def prog_lns_householder_product_and_grads(T: Any) -> Any:
    A = _m(T, 5, 3, seed=57)
    geq, tau = T.geqrf(A)
    V = geq.clone().requires_grad_()
    tt = tau.clone().requires_grad_()
    return {
        "Q": T.linalg.householder_product(geq, tau),
        "orgqr": T.orgqr(geq, tau),
        "gg": _gg_values(T, T.linalg.householder_product, V, tt),
        "tau_short": T.linalg.householder_product(geq, tau[:2]),
        "tau_long": raises(lambda: T.linalg.householder_product(geq, T.ones(4, dtype=T.float64))),
        "wide": raises(lambda: T.linalg.householder_product(geq.mT, tau)),
        "dtype": raises(lambda: T.linalg.householder_product(geq, tau.float())),
        "1d": raises(lambda: T.linalg.householder_product(geq[0], tau)),
        "batch": raises(lambda: T.linalg.householder_product(geq.expand(2, 5, 3), tau)),
    }


@program(
    xfail="householder_product's backward is a closed formula here; torch's "
    "householder_product_backward writes each reflector's gradient into slices of its "
    "result in place, so a double-backward graph reads TrilBackward0/CopySlices where "
    "shadowgrad's reads CatBackward0"
)
def prog_lns_householder_product_double_backward_graph(T: Any) -> Any:
    geq, tau = T.geqrf(_m(T, 5, 3, seed=57))
    V = geq.clone().requires_grad_()
    tt = tau.clone().requires_grad_()
    y = T.linalg.householder_product(V, tt)
    g = T.autograd.grad((y * y).sum(), (V, tt), create_graph=True)
    return [t.grad_fn.name() for t in g]


@program()
def prog_lns_tensorinv_tensorsolve(T: Any) -> Any:
    A = _m(T, 4, 6, 8, 3, seed=58).reshape(24, 24) + 5 * T.eye(24, dtype=T.float64)
    A = A.reshape(4, 6, 8, 3).requires_grad_()
    B = _m(T, 4, 6, seed=59, rg=True)
    return {
        "inv": _gg(T, lambda a: T.linalg.tensorinv(a, ind=2), A),
        "inv_shape": T.linalg.tensorinv(A.detach(), ind=2).shape,
        "solve": _gg(T, T.linalg.tensorsolve, A, B),
        "solve_dims": T.linalg.tensorsolve(A.detach().permute(2, 3, 0, 1), B.detach(), dims=(0, 1)),
        "bad_ind": raises(lambda: T.linalg.tensorinv(A, ind=0)),
        "not_square": raises(lambda: T.linalg.tensorinv(A, ind=1)),
        "solve_bad": raises(lambda: T.linalg.tensorsolve(A, B[:3])),
        "singular": raises(lambda: T.linalg.tensorinv(T.zeros(2, 2, 4), ind=2)),
    }


@program()
def prog_lns_vander_variants(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, -3.0, 0.5], dtype=T.float64, requires_grad=True)
    out = {
        "plain": T.linalg.vander(x),
        "N": T.linalg.vander(x, N=6),
        "N1": raises(lambda: T.linalg.vander(x, N=1)),
        "N0": raises(lambda: T.linalg.vander(x, N=0)),
        "int": T.linalg.vander(T.tensor([2, 3, -1])),
        "bool": raises(lambda: T.linalg.vander(T.tensor([True, False]))),
        "batch": T.linalg.vander(T.arange(6.0).reshape(2, 3), N=4),
        "0d": raises(lambda: T.linalg.vander(T.tensor(2.0))),
        "empty": raises(lambda: T.linalg.vander(T.zeros(0))),
        "empty_N": T.linalg.vander(T.zeros(0), N=3),
        "empty_batch": raises(lambda: T.linalg.vander(T.zeros(2, 0))),
        "empty_batch_N": T.linalg.vander(T.zeros(2, 0), N=2),
        "torch_vander": T.vander(T.tensor([1, 2, 3]), N=4, increasing=True),
    }
    out["gg"] = _gg(T, lambda v: T.linalg.vander(v, N=5), x)
    return out


@program(warnings=False)  # torch.cross without dim warns once a process
def prog_lns_cross_vecdot_diagonal(T: Any) -> Any:
    a = _m(T, 2, 3, seed=60, rg=True)
    b = _m(T, 1, 3, seed=61, rg=True)
    c = _m(T, 2, 3, seed=62, dt="complex128", rg=True)
    M = _m(T, 2, 3, 4, seed=63, rg=True)
    return {
        "cross": _gg(T, T.linalg.cross, a, b),
        "cross_dim0": _gg(T, lambda x, y: T.linalg.cross(x.mT, y.mT.expand(3, 2), dim=0), a, b),
        "cross_bad": raises(lambda: T.linalg.cross(a, b, dim=0)),
        "cross_dtype": raises(lambda: T.linalg.cross(a, b.float())),
        "cross_int": T.linalg.cross(T.tensor([1, 2, 3]), T.tensor([4, 5, 6])),
        "vecdot": _gg(T, T.linalg.vecdot, a, b),
        "vecdot_c": _gg(T, T.linalg.vecdot, c, c),
        "vecdot_dim": T.linalg.vecdot(a.detach(), a.detach(), dim=0),
        "vecdot_dtype": raises(lambda: T.linalg.vecdot(a, b.float())),
        "vecdot_int": raises(lambda: T.linalg.vecdot(T.tensor([1, 2]), T.tensor([3, 4]))),
        "diag": _gg(T, lambda m: T.linalg.diagonal(m, offset=1, dim1=-1, dim2=0), M),
        "diag_default": T.linalg.diagonal(M),
        "diag_same": raises(lambda: T.linalg.diagonal(M, dim1=1, dim2=-2)),
        "diag_1d": raises(lambda: T.linalg.diagonal(a[0])),
    }


# --- 8. out= forms ------------------------------------------------------------------------


def _e(T: Any, dt: str = "float64") -> Any:
    return T.empty(0, dtype=getattr(T, dt))


@program(warnings=False)  # resizing a non-empty out warns; which program first is order-bound
def prog_lns_out_factorizations(T: Any) -> Any:
    A = _spd(T, 2, 3, 3, seed=64)
    out = {}
    out["chol"] = T.linalg.cholesky(A, out=_e(T))
    out["chol_ex"] = tuple(T.linalg.cholesky_ex(A, out=(_e(T), _e(T, "int32"))))
    out["qr"] = tuple(T.linalg.qr(A, out=(_e(T), _e(T))))
    out["qr_r"] = tuple(T.linalg.qr(A, mode="r", out=(_e(T), _e(T))))
    w, V = T.linalg.eigh(A, out=(_e(T), _e(T)))
    out["eigh"] = (w, V @ T.diag_embed(w) @ V.mT)  # the eigenvectors' signs are LAPACK's
    out["eigvalsh"] = T.linalg.eigvalsh(A, out=_e(T))
    out["svdvals"] = T.linalg.svdvals(A, out=_e(T))
    out["lu"] = tuple(T.linalg.lu(A, out=(_e(T), _e(T), _e(T))))
    out["lu_factor"] = tuple(T.linalg.lu_factor(A, out=(_e(T), _e(T, "int32"))))
    out["lu_factor_ex"] = tuple(
        T.linalg.lu_factor_ex(A, out=(_e(T), _e(T, "int32"), _e(T, "int32")))
    )
    out["inv_ex"] = tuple(T.linalg.inv_ex(A, out=(_e(T), _e(T, "int32"))))
    out["slogdet"] = tuple(T.linalg.slogdet(A, out=(_e(T), _e(T))))
    out["det"] = T.linalg.det(A, out=_e(T))
    out["eigvals"] = T.linalg.eigvals(A, out=_e(T, "complex128"))
    out["eig"] = tuple(T.linalg.eig(A, out=(_e(T, "complex128"), _e(T, "complex128"))))
    return out


@program(warnings=False)
def prog_lns_out_dtype_errors(T: Any) -> Any:
    A = _spd(T, 3, 3, seed=65)
    return {
        "chol_int": raises(lambda: T.linalg.cholesky(A, out=_e(T, "int64"))),
        "chol_f32": raises(lambda: T.linalg.cholesky(A, out=_e(T, "float32"))),
        "chol_ex_info": raises(lambda: T.linalg.cholesky_ex(A, out=(_e(T), _e(T, "int64")))),
        "inv_f32": raises(lambda: T.linalg.inv(A, out=_e(T, "float32"))),
        "det_c": raises(lambda: T.linalg.det(A, out=_e(T, "complex128"))),
        "eigvals_real": raises(lambda: T.linalg.eigvals(A, out=_e(T))),
        "eig_real": raises(lambda: T.linalg.eig(A, out=(_e(T), _e(T)))),
        "eigh_c": raises(lambda: T.linalg.eigh(A, out=(_e(T, "complex128"), _e(T)))),
        "lu_piv": raises(lambda: T.linalg.lu_factor(A, out=(_e(T), _e(T, "int64")))),
        "solve_f32": raises(lambda: T.linalg.solve(A, A, out=_e(T, "float32"))),
        "svd_f32": raises(lambda: T.linalg.svd(A, out=(_e(T), _e(T, "float32"), _e(T)))),
        "qr_int": raises(lambda: T.linalg.qr(A, out=(_e(T, "int64"), _e(T)))),
        "pinv_f32": raises(lambda: T.linalg.pinv(A, out=_e(T, "float32"))),
        "rank_f": raises(lambda: T.linalg.matrix_rank(A, out=_e(T))),
        "mexp_out": raises(lambda: T.linalg.matrix_exp(A, out=_e(T))),
    }


@program(warnings=False)
def prog_lns_out_solvers_and_resize_warning(T: Any) -> Any:
    A = _m(T, 3, 3, seed=66, shift=3.0)
    B = _m(T, 3, 2, seed=67)
    LU, piv = T.linalg.lu_factor(A)
    return {
        "solve": T.linalg.solve(A, B, out=_e(T)),
        "solve_ex": tuple(T.linalg.solve_ex(A, B, out=(_e(T), _e(T, "int32")))),
        "lu_solve": T.linalg.lu_solve(LU, piv, B, out=_e(T)),
        "tri": T.linalg.solve_triangular(A, B, upper=True, out=_e(T)),
        "pinv": T.linalg.pinv(A, out=_e(T)),
        "rank": T.linalg.matrix_rank(A, out=_e(T, "int64")),
        "inv": T.linalg.inv(A, out=_e(T)),
        "cond": T.linalg.cond(A, out=_e(T)),
        "multi_dot": T.linalg.multi_dot([A, B], out=_e(T)),
        "cholesky_solve": T.cholesky_solve(B, T.linalg.cholesky(A @ A.mT), out=_e(T)),
        "cholesky_inverse": T.cholesky_inverse(T.linalg.cholesky(A @ A.mT), out=_e(T)),
        "tensorinv": T.linalg.tensorinv(A, ind=1, out=_e(T)),
        "vecdot": T.linalg.vecdot(A, A, out=_e(T)),
        "cross": T.linalg.cross(A, A, out=_e(T)),
    }


@program()
def prog_lns_out_requires_grad_error(T: Any) -> Any:
    A = _m(T, 3, 3, seed=68, shift=3.0, rg=True)
    return {
        "inv": raises(lambda: T.linalg.inv(A, out=_e(T))),
        "det": raises(lambda: T.linalg.det(A, out=_e(T))),
        "qr": raises(lambda: T.linalg.qr(A, out=(_e(T), _e(T)))),
        "eigh": raises(lambda: T.linalg.eigh(A, out=(_e(T), _e(T)))),
        "solve": raises(lambda: T.linalg.solve(A, A, out=_e(T))),
        "no_grad": T.no_grad()(lambda: T.linalg.inv(A, out=_e(T)))(),
    }


# --- 9. complex and float32 inputs -------------------------------------------------------------


@program()
def prog_lns_complex_factorizations(T: Any) -> Any:
    H = _spd(T, 3, 3, seed=69, dt="complex128")
    A = _m(T, 3, 3, seed=70, dt="complex128", shift=2.0)
    L = T.linalg.cholesky(H)
    Q, R = T.linalg.qr(A)
    w, V = T.linalg.eigh(H)
    return {
        "L": L,
        "LLh": T.allclose(L @ L.mH, H),
        "U": T.linalg.cholesky(H, upper=True),
        "QR": (T.allclose(Q @ R, A), R.diagonal().imag.abs().max() < 1e-12, Q.dtype),
        "eigh": (w, w.dtype, T.allclose(V @ T.diag_embed(w.to(V.dtype)) @ V.mH, H)),
        "inv": T.linalg.inv(A),
        "det": T.linalg.det(A),
        "slogdet": tuple(T.linalg.slogdet(A)),
        "logdet": T.logdet(A),
        "solve": T.linalg.solve(A, T.ones(3, dtype=T.complex128)),
        "svdvals": T.linalg.svdvals(A),
        "pinv": T.linalg.pinv(A),
        "rank": T.linalg.matrix_rank(A),
        "mexp": T.linalg.matrix_exp(A),
        "eigvals": T.linalg.eigvals(A).abs().sort().values,
        "lu": T.linalg.lu(A),
        "cond": T.linalg.cond(A),
    }


@program()
def prog_lns_complex_grads(T: Any) -> Any:
    A = _m(T, 3, 3, seed=71, dt="complex128", shift=2.0, rg=True)
    H = _spd(T, 3, 3, seed=72, dt="complex128", rg=True)
    return {
        "det": _gg(T, lambda a: T.linalg.det(a), A),
        "inv": _gg(T, T.linalg.inv, A),
        "logabsdet": _gg(T, lambda a: T.linalg.slogdet(a)[1], A),
        "sign": _gg(T, lambda a: T.linalg.slogdet(a)[0], A),
        "chol": _gg(T, lambda h: T.linalg.cholesky((h + h.mH) / 2), H),
        "eigvalsh": _gg(T, lambda h: T.linalg.eigvalsh(h), H),
        "svdvals": _gg(T, T.linalg.svdvals, A),
        "solve": _gg(T, lambda a: T.linalg.solve(a, T.ones(3, 2, dtype=T.complex128)), A),
    }


@program()
def prog_lns_eig_real_input_complex_output(T: Any) -> Any:
    R = T.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=T.float64, requires_grad=True)
    w, V = T.linalg.eig(R)
    loss = (w * w.conj()).real.sum()
    (g,) = T.autograd.grad(loss, R)
    D = T.tensor([[2.0, 0.0], [0.0, 3.0]], dtype=T.float32)
    return {
        "w": w,
        "dtypes": (w.dtype, V.dtype, T.linalg.eigvals(D).dtype, T.linalg.eig(D)[1].dtype),
        "g": g,
        "diag": T.linalg.eigvals(D),
        "real_grad_complex_part": raises(
            lambda: T.autograd.grad(T.linalg.eigvals(R).imag.sum(), R)
        ),
        "nan": raises(lambda: T.linalg.eig(T.tensor([[float("nan"), 0.0], [0.0, 1.0]]))),
    }


@program()
def prog_lns_float32_results_and_dtypes(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=73, shift=3.0, dt="float32")
    S = _spd(T, 3, 3, seed=74, dt="float32")
    return {
        "det": T.linalg.det(A),
        "inv": T.linalg.inv(A),
        "slogdet": tuple(T.linalg.slogdet(A)),
        "svdvals": T.linalg.svdvals(A),
        "eigvalsh": T.linalg.eigvalsh(S),
        "chol": T.linalg.cholesky(S),
        "cond": T.linalg.cond(A),
        "cond_fro": T.linalg.cond(A, "fro"),
        "rank": T.linalg.matrix_rank(A),
        "pinv": T.linalg.pinv(A),
        "mexp": T.linalg.matrix_exp(A * 0.1),
        "solve": T.linalg.solve(A, T.ones(2, 3)),
        "lstsq": T.linalg.lstsq(A, T.ones(2, 3, 1)).solution,
        "dtypes": [
            T.linalg.eig(A)[0].dtype,
            T.linalg.lu_factor(A)[1].dtype,
            T.linalg.cholesky_ex(S).info.dtype,
            T.linalg.lstsq(A, T.ones(2, 3, 1), driver="gelsd").rank.dtype,
            T.linalg.lstsq(A, T.ones(2, 3, 1), driver="gelsd").singular_values.dtype,
        ],
    }


# --- 10. layouts: transposed, expanded, non-contiguous inputs ------------------------------------


@program()
def prog_lns_noncontiguous_inputs(T: Any) -> Any:
    base = _m(T, 3, 6, 6, seed=75, shift=4.0)
    A = base[:, ::2, ::2]  # strided
    At = base[0].mT  # transposed
    E = base[0, :3, :3].expand(4, 3, 3)  # expanded
    S = _spd(T, 3, 3, seed=76)
    return {
        "inv": (T.linalg.inv(A), T.linalg.inv(At), T.linalg.inv(E)),
        "det": (T.linalg.det(A), T.linalg.det(At), T.linalg.det(E)),
        "solve": T.linalg.solve(E, T.ones(4, 3, 1, dtype=T.float64)),
        "solve_T": T.linalg.solve(At, T.ones(6, dtype=T.float64)),
        "chol_T": T.linalg.cholesky(S.mT),
        "qr_T": T.allclose(T.linalg.qr(At)[0] @ T.linalg.qr(At)[1], At),
        "lu_E": T.linalg.lu_factor(E),
        "svdvals_T": T.linalg.svdvals(At),
        "eigvalsh_E": T.linalg.eigvalsh(S.expand(2, 3, 3)),
        "mexp": T.linalg.matrix_exp(At * 0.1),
        "pinv": T.linalg.pinv(A[:, :2]),
    }


@program()
def prog_lns_expanded_grads_accumulate(T: Any) -> Any:
    A = _m(T, 3, 3, seed=77, shift=3.0, rg=True)
    B = _m(T, 3, 1, seed=78, rg=True)
    E = A.expand(4, 3, 3)
    X = T.linalg.solve(E, B.expand(4, 3, 1))
    d = T.linalg.det(E)
    i = T.linalg.inv(A.mT)
    (X.sum() + d.sum() + i.sum()).backward()
    return X, d, A.grad, B.grad, _names(X, d, i)


# --- 11. in-place and version counter ---------------------------------------------------------


@program()
def prog_lns_inplace_on_saved_outputs(T: Any) -> Any:
    A = _m(T, 3, 3, seed=79, shift=3.0, rg=True)
    out = {}
    i = T.linalg.inv(A)
    i.mul_(2)
    out["inv"] = raises(lambda: T.autograd.grad(i.sum(), A))
    L = T.linalg.cholesky(A @ A.mT)
    L.add_(1)
    out["chol"] = raises(lambda: T.autograd.grad(L.sum(), A))
    d = T.linalg.det(A)
    d.add_(1)
    out["det"] = raises(lambda: T.autograd.grad(d, A))
    Q, R = T.linalg.qr(A)
    R.mul_(1)
    out["qr"] = raises(lambda: T.autograd.grad(Q.sum(), A))
    out["versions"] = (i._version, L._version, d._version, R._version, Q._version)
    x = T.linalg.solve(A, T.ones(3, dtype=T.float64))
    A.data.add_(0)
    out["solve_after_data"] = T.autograd.grad(x.sum(), A)[0].shape
    return out


@program()
def prog_lns_inplace_on_saved_inputs(T: Any) -> Any:
    A = _m(T, 3, 3, seed=80, shift=3.0, rg=True)
    out = {}
    for name, f in (
        ("det", T.linalg.det),
        ("slogdet", lambda a: T.linalg.slogdet(a)[1]),
        ("solve", lambda a: T.linalg.solve(a, T.ones(3, dtype=T.float64))),
        ("pinv", T.linalg.pinv),
        ("mexp", T.linalg.matrix_exp),
        ("svdvals", T.linalg.svdvals),
    ):
        B = A.clone()
        y = f(B)
        B.add_(1)
        out[name] = raises(lambda y=y: T.autograd.grad(y.sum(), A))
    return out


# --- 12. cholesky_inverse, ldl, geqrf / ormqr ----------------------------------------------------


@program()
def prog_lns_cholesky_inverse_and_solve_errors(T: Any) -> Any:
    L = T.linalg.cholesky(_spd(T, 2, 3, 3, seed=81))
    B = _m(T, 2, 3, 2, seed=82)
    return {
        "inv": T.cholesky_inverse(L),
        "inv_upper": T.cholesky_inverse(L.mT, upper=True),
        "inv_1d": raises(lambda: T.cholesky_inverse(L[0, 0])),
        "inv_nonsq": raises(lambda: T.cholesky_inverse(L[..., :2])),
        "inv_int": raises(lambda: T.cholesky_inverse(L.long())),
        "inv_empty": T.cholesky_inverse(T.zeros(2, 0, 0)),
        "solve_bcast": T.cholesky_solve(B[0], L),
        "solve_dtype": raises(lambda: T.cholesky_solve(B.float(), L)),
        "solve_1d": raises(lambda: T.cholesky_solve(B[0, 0], L)),
        "solve_shape": raises(lambda: T.cholesky_solve(B.mT, L)),
        "solve_nonsq": raises(lambda: T.cholesky_solve(B, L[..., :2])),
        "singular_inv": raises(lambda: T.cholesky_inverse(T.zeros(2, 2, dtype=T.float64))),
        "singular_batch": raises(
            lambda: T.cholesky_inverse(T.stack([T.eye(3), T.diag(T.tensor([1.0, 2.0, 0.0]))]))
        ),
    }


@program()
def prog_lns_ldl_factor_solve(T: Any) -> Any:
    S = _spd(T, 2, 3, 3, seed=83) - 3 * T.eye(3, dtype=T.float64)
    B = _m(T, 2, 3, 2, seed=84)
    LD, piv = T.linalg.ldl_factor(S)
    ex = T.linalg.ldl_factor_ex(S, hermitian=True)
    return {
        "LD": LD,
        "piv": piv,
        "ex": tuple(ex),
        "solve": T.linalg.ldl_solve(LD, piv, B),
        "check": T.allclose(S @ T.linalg.ldl_solve(LD, piv, B), B),
        "nonsq": raises(lambda: T.linalg.ldl_factor(S[..., :2])),
        "int": raises(lambda: T.linalg.ldl_factor(S.long())),
        "piv_dtype": raises(lambda: T.linalg.ldl_solve(LD, piv.long(), B)),
        "grad": raises(lambda: T.linalg.ldl_factor(S.requires_grad_())[0].sum().backward()),
    }


@program()
def prog_lns_geqrf_ormqr(T: Any) -> Any:
    A = _m(T, 4, 3, seed=85)
    C = _m(T, 4, 2, seed=86)
    a, tau = T.geqrf(A)
    Q = T.linalg.householder_product(a, tau)
    out = {
        "geqrf_R": a.triu()[:3],
        "tau_shape": tau.shape,
        "left": T.ormqr(a, tau, C),
        "left_T": T.ormqr(a, tau, C, transpose=True),
        "right": T.ormqr(a, tau, C.mT, left=False),
        "right_T": T.ormqr(a, tau, C.mT, left=False, transpose=True),
        "check": T.allclose(T.ormqr(a, tau, C, transpose=True)[:3], Q.mT @ C),
        "bad": raises(lambda: T.ormqr(a, tau, C.mT)),
        "geqrf_1d": raises(lambda: T.geqrf(A[0])),
        "geqrf_int": raises(lambda: T.geqrf(A.long())),
        "geqrf_nt": type(T.geqrf(A)).__name__,
    }
    A2 = A.clone().requires_grad_()
    a2, _t2 = T.geqrf(A2)
    out["geqrf_grad"] = raises(lambda: a2.sum().backward())
    return out


# --- 13. gradcheck, gradgradcheck and forward AD ---------------------------------------------


@program()
def prog_lns_gradcheck_gradgradcheck(T: Any) -> Any:
    ag = T.autograd
    A = _m(T, 3, 3, seed=87, shift=3.0, rg=True)
    S = _spd(T, 3, 3, seed=88, rg=True)
    W = _m(T, 4, 3, seed=89, rg=True)
    B = _m(T, 3, 2, seed=90, rg=True)

    def sym(f: Any) -> Any:
        return lambda s: f((s + s.mT) / 2)

    fns = {
        "det": (T.linalg.det, (A,)),
        "slogdet": (lambda a: T.linalg.slogdet(a).logabsdet, (A,)),
        "inv": (T.linalg.inv, (A,)),
        "solve": (T.linalg.solve, (A, B)),
        "chol": (sym(T.linalg.cholesky), (S,)),
        "eigvalsh": (sym(T.linalg.eigvalsh), (S,)),
        "svdvals": (T.linalg.svdvals, (W,)),
        "pinv": (T.linalg.pinv, (W,)),
        "qr_R": (lambda w: T.linalg.qr(w).R, (W,)),
        "mexp": (T.linalg.matrix_exp, (A,)),
        "mpow": (lambda a: T.linalg.matrix_power(a, -2), (A,)),
        "lu_solve": (lambda a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b), (A, B)),
        "tri": (lambda a, b: T.linalg.solve_triangular(a, b, upper=True), (A, B)),
        "lstsq": (lambda w, b: T.linalg.lstsq(w, b).solution, (W, _m(T, 4, 2, seed=91, rg=True))),
    }
    return {k: (ag.gradcheck(f, xs), ag.gradgradcheck(f, xs)) for k, (f, xs) in fns.items()}


@program()
def prog_lns_forward_ad_jvps(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    A = _m(T, 3, 3, seed=92, shift=3.0)
    dA = _m(T, 3, 3, seed=93)
    S = _spd(T, 3, 3, seed=94)
    dS = dA + dA.mT
    W = _m(T, 4, 3, seed=95)
    dW = _m(T, 4, 3, seed=96)
    out = {}
    with fwAD.dual_level():
        a = fwAD.make_dual(A, dA)
        s = fwAD.make_dual(S, dS)
        w = fwAD.make_dual(W, dW)
        for name, y in (
            ("det", T.linalg.det(a)),
            ("logabsdet", T.linalg.slogdet(a)[1]),
            ("inv", T.linalg.inv(a)),
            ("solve", T.linalg.solve(a, T.ones(3, dtype=T.float64))),
            ("chol", T.linalg.cholesky(s)),
            ("eigvalsh", T.linalg.eigvalsh(s)),
            ("svdvals", T.linalg.svdvals(w)),
            ("pinv", T.linalg.pinv(w)),
            ("R", T.linalg.qr(w).R.abs()),
            ("mexp", T.linalg.matrix_exp(a)),
            ("lu_U", T.linalg.lu(a).U),
            ("lstsq", T.linalg.lstsq(w, T.ones(4, 1, dtype=T.float64)).solution),
            ("mpow", T.linalg.matrix_power(a, 3)),
            ("cond", T.linalg.cond(a)),
        ):
            p, t = fwAD.unpack_dual(y)
            out[name] = (p, t)
    return out


# --- 14. more errors, edge values and legacy behaviours ----------------------------------------


@program()
def prog_lns_svd_driver_and_gauge_errors(T: Any) -> Any:
    A = _m(T, 3, 3, seed=97)
    C = _m(T, 3, 3, seed=98, dt="complex128", rg=True)
    U, S, Vh = T.linalg.svd(C)
    return {
        "driver": raises(lambda: T.linalg.svd(A, driver="gesvd")),
        "driver_vals": raises(lambda: T.linalg.svdvals(A, driver="gesvdj")),
        "driver_none": T.linalg.svdvals(A, driver=None),
        "gauge": raises(lambda: T.autograd.grad(U.sum().abs(), C, retain_graph=True)),
        "gauge_ok": T.autograd.grad((U.abs() ** 2).sum() + S.sum(), C)[0].shape,
        "fn": _names(U, S, Vh),
    }


@program()
def prog_lns_eigh_cholesky_read_one_triangle(T: Any) -> Any:
    # torch reads only the triangle UPLO / lower names: the other one is ignored
    S = _spd(T, 3, 3, seed=99)
    junk = S + T.triu(T.full((3, 3), 7.0, dtype=T.float64), 1)
    return {
        "eigvalsh_L": T.linalg.eigvalsh(junk),
        "eigvalsh_U": T.linalg.eigvalsh(junk, UPLO="U"),
        "chol": T.linalg.cholesky(junk),
        "chol_upper": raises(lambda: T.linalg.cholesky(junk, upper=True)),
        "chol_ex_upper": T.linalg.cholesky_ex(junk.mT, upper=True).info,
        "ldl": T.linalg.ldl_factor(junk)[0],
    }


@program()
def prog_lns_det_edge_values(T: Any) -> Any:
    big = T.full((3,), 1e200, dtype=T.float64).diag()
    tiny = T.full((3,), 1e-200, dtype=T.float64).diag()
    out = {
        "1x1": T.linalg.det(T.tensor([[-2.5]])),
        "big": T.linalg.det(big),
        "big_slog": tuple(T.linalg.slogdet(big)),
        "tiny": T.linalg.det(tiny),
        "tiny_slog": tuple(T.linalg.slogdet(tiny)),
        "f32_overflow": T.linalg.det(T.full((3,), 1e20).diag()),
        "inf": T.linalg.det(T.tensor([[float("inf"), 0.0], [0.0, 1.0]])),
        "nan": T.linalg.det(T.tensor([[float("nan"), 0.0], [0.0, 1.0]])),
        "perm": T.linalg.det(T.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])),
        "int_logdet": raises(lambda: T.logdet(T.eye(2, dtype=T.int64))),
    }
    x = T.tensor([[2.0, 1.0], [4.0, 2.0]], requires_grad=True)  # singular, rank 1
    d = T.linalg.det(x)
    (g,) = T.autograd.grad(d, x, create_graph=True)
    out["rank1_grad"] = (d, g, T.autograd.grad(g.sum(), x)[0])
    return out


@program()
def prog_lns_cond_orders_and_singular(T: Any) -> Any:
    A = _m(T, 2, 3, 3, seed=100, shift=1.0)
    Z = T.stack([T.eye(3, dtype=T.float64), T.zeros(3, 3, dtype=T.float64)])
    out = {}
    for p in (None, 2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc"):
        out[str(p)] = (T.linalg.cond(A, p), T.linalg.cond(Z, p))
    out["bad"] = raises(lambda: T.linalg.cond(A, 3))
    out["bad_str"] = raises(lambda: T.linalg.cond(A, "abc"))
    out["rect_2"] = T.linalg.cond(A[:, :2])
    out["rect_fro"] = raises(lambda: T.linalg.cond(A[:, :2], "fro"))
    Ar = A.clone().requires_grad_()
    c = T.linalg.cond(Ar, "fro")
    out["grad_fro"] = (c.grad_fn.name(), raises(lambda: T.autograd.grad(c.sum(), Ar)[0]))
    out["grad_2"] = T.autograd.grad(T.linalg.cond(Ar).sum(), Ar)[0]
    return out


@program()
def prog_lns_multi_dot_vectors_to_scalar(T: Any) -> Any:
    a = _m(T, 3, seed=101, rg=True)
    B = _m(T, 3, 3, seed=102, rg=True)
    y = T.linalg.multi_dot([a, B, B, a])
    y.backward()
    return {
        "y": y,
        "shape": y.shape,
        "fn": y.grad_fn,
        "ga": a.grad,
        "gB": B.grad,
        "two_vecs": T.linalg.multi_dot([a.detach(), a.detach()]),
        "chain": T.chain_matmul(B.detach(), B.detach(), B.detach()),
        "chain_one": T.chain_matmul(B.detach()),
        "chain_empty": raises(lambda: T.chain_matmul()),
    }


@program()
def prog_lns_householder_complex_and_errors(T: Any) -> Any:
    A = _m(T, 4, 3, seed=103, dt="complex128")
    a, tau = T.geqrf(A)
    Q = T.linalg.householder_product(a, tau)
    return {
        "Q": Q,
        "unitary": T.allclose(Q.mH @ Q, T.eye(3, dtype=T.complex128)),
        "QR": T.allclose(Q @ a.triu()[:3], A),
        "tau_dtype": raises(lambda: T.linalg.householder_product(a, tau.real)),
        "tau_batch": raises(lambda: T.linalg.householder_product(a, tau.expand(2, 3))),
        "int": raises(lambda: T.linalg.householder_product(a.real.long(), tau.real.long())),
        "empty": T.linalg.householder_product(T.zeros(3, 0), T.zeros(0)),
        "tau0": T.linalg.householder_product(a, tau[:0]),
    }


@program()
def prog_lns_inv_solve_complex_singular_and_batch_errors(T: Any) -> Any:
    Z = T.zeros(2, 2, dtype=T.complex128)
    Id = T.eye(2, dtype=T.complex128)
    batch = T.stack([Id, Z, Z]).reshape(3, 1, 2, 2)
    return {
        "inv": raises(lambda: T.linalg.inv(Z)),
        "inv_batch": raises(lambda: T.linalg.inv(batch)),
        "inv_ex": T.linalg.inv_ex(batch).info,
        "solve": raises(lambda: T.linalg.solve(batch, T.ones(3, 1, 2, dtype=T.complex128))),
        "solve_ex_info": T.linalg.solve_ex(batch, T.ones(2, dtype=T.complex128)).info,
        "inv_ex_nonsq": raises(lambda: T.linalg.inv_ex(T.ones(2, 2, 3))),
        "chol_c": raises(lambda: T.linalg.cholesky(-Id)),
        "chol_ex_c": T.linalg.cholesky_ex(T.stack([Id, -Id])).info,
    }


@program()
def prog_lns_lu_grads_wide_tall_batched(T: Any) -> Any:
    out = {}
    for shape in ((2, 3, 5), (2, 5, 3), (1, 4, 4)):
        A = _m(T, *shape, seed=104, rg=True)
        P, L, U = T.linalg.lu(A)
        loss = (L * L).sum() + (U * U).sum()
        (g,) = T.autograd.grad(loss, A)
        out[shape] = (P, L, U, g, _names(P, L, U))
    return out


@program(warnings=False)  # torch.lu warns once a process
def prog_lns_legacy_lu_pivot_and_methods(T: Any) -> Any:
    A = _m(T, 3, 3, seed=105)
    return {
        "nopivot": raises(lambda: T.lu(A, pivot=False)),
        "method": A.lu(get_infos=True),
        "lu_solve_method": T.ones(3, 1, dtype=T.float64).lu_solve(*T.linalg.lu_factor(A)),
        "unpack": T.lu_unpack(*T.lu(A)),
        "nt": [type(r).__name__ for r in (T.lu(A), T.lu(A, get_infos=True), A.lu())],
    }


@program()
def prog_lns_matrix_exp_batch_empty_and_grad_dtype(T: Any) -> Any:
    A = _m(T, 0, 2, 2, seed=106, rg=True)
    y = T.linalg.matrix_exp(A)
    y.sum().backward()
    C = _m(T, 2, 2, seed=107, dt="complex64", rg=True)
    z = T.linalg.matrix_exp(C)
    (gc,) = T.autograd.grad(z.abs().sum(), C)
    return {
        "y": y,
        "g": A.grad,
        "fn": y.grad_fn,
        "z": z,
        "gc": gc,
        "scalar": raises(lambda: T.linalg.matrix_exp(T.tensor(1.0))),
        "1d": raises(lambda: T.linalg.matrix_exp(T.ones(3))),
        "method_f16": raises(lambda: T.ones(2, 3).matrix_exp()),
    }


# --- 15. singular and degenerate gradients ----------------------------------------------------


@program()
def prog_lns_det_grad_batch_with_singular_members(T: Any) -> Any:
    M = T.stack(
        [
            T.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]),  # regular
            T.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]),  # rank 2
            T.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]]),  # rank 1
            T.zeros(3, 3),
        ]
    ).double()
    A = M.clone().requires_grad_()
    d = T.linalg.det(A)
    (g,) = T.autograd.grad(d.sum(), A, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), A)
    (g1,) = T.autograd.grad(T.linalg.det(A).sum(), A)  # first order: torch's lu_solve path
    return d, g.detach(), gg, g1


@program(
    xfail="a batch mixing singular and invertible matrices: torch's det double backward "
    "(masked_fmap) writes each path's rows with index_put (IndexPutBackward0), shadowgrad "
    "selects them with where (WhereBackward0)"
)
def prog_lns_det_double_backward_mixed_batch_graph(T: Any) -> Any:
    A = T.stack([T.eye(3), T.zeros(3, 3)]).double().requires_grad_()
    (g,) = T.autograd.grad(T.linalg.det(A).sum(), A, create_graph=True)
    return g.grad_fn.name()


@program()
def prog_lns_slogdet_logdet_grads_at_singular(T: Any) -> Any:
    A = T.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=T.float64, requires_grad=True)
    s, ld = T.linalg.slogdet(A)
    N = T.tensor([[0.0, 1.0], [1.0, 0.0]], dtype=T.float64, requires_grad=True)
    lg = T.logdet(N)
    return {
        "slogdet": (s, ld),
        "g": raises(lambda: T.autograd.grad(ld, A, retain_graph=True)[0]),
        "logdet_neg": lg,
        "logdet_neg_grad": T.autograd.grad(lg, N)[0],
        "logdet_fn": lg.grad_fn,
    }


@program()
def prog_lns_eigh_degenerate_eigenvalues_grads(T: Any) -> Any:
    A = T.eye(3, dtype=T.float64).requires_grad_()
    L, V = T.linalg.eigh(A)
    gl = T.autograd.grad(L.sum() + (L**2).sum(), A, retain_graph=True)[0]
    gv = T.autograd.grad((V @ T.diag_embed(L) @ V.mT).sum(), A)[0]
    return L, gl, gv


@program()
def prog_lns_svd_repeated_singular_values_grads(T: Any) -> Any:
    A = T.diag(T.tensor([2.0, 2.0, 1.0], dtype=T.float64)).requires_grad_()
    S = T.linalg.svdvals(A)
    gs = T.autograd.grad(S.sum(), A)[0]
    B = A.detach().clone().requires_grad_()
    U, S2, Vh = T.linalg.svd(B)
    gu = T.autograd.grad((U @ T.diag_embed(S2) @ Vh).sum(), B)[0]
    return S, gs, gu


@program()
def prog_lns_inv_grad_requires_only_one_input(T: Any) -> Any:
    A = _m(T, 3, 3, seed=108, shift=3.0, rg=True)
    B = _m(T, 3, 2, seed=109)
    X = T.linalg.solve(A, B)
    Y = T.linalg.solve(A.detach(), B.clone().requires_grad_())
    Z = T.linalg.lstsq(A.detach(), B.clone().requires_grad_()).solution
    return {
        "X": (X, X.grad_fn, T.autograd.grad(X.sum(), A)[0]),
        "Y": (Y, Y.grad_fn, Y.requires_grad),
        "Z": (Z.grad_fn, Z.requires_grad),
        "no_grad": T.no_grad()(lambda: T.linalg.inv(A))().requires_grad,
        "inference": T.inference_mode()(lambda: T.linalg.det(A))().is_inference(),
    }


# --- 16. Tensor methods and aliases ------------------------------------------------------------


@program(warnings=False)  # the legacy aliases warn once a process
def prog_lns_tensor_methods(T: Any) -> Any:
    A = _m(T, 3, 3, seed=110, shift=3.0)
    S = _spd(T, 3, 3, seed=111)
    L = T.linalg.cholesky(S)
    B = _m(T, 3, 2, seed=112)
    return {
        "inverse": A.inverse(),
        "pinverse": A.pinverse(),
        "det": A.det(),
        "logdet": S.logdet(),
        "slogdet": tuple(A.slogdet()),
        "cholesky": S.cholesky(),
        "cholesky_inverse": L.cholesky_inverse(),
        "cholesky_solve": B.cholesky_solve(L),
        "triangular_solve": tuple(B.triangular_solve(A.triu())),
        "qr_R": A.qr().R.abs(),
        "svd_S": A.svd().S,
        "matrix_exp": (A * 0.1).matrix_exp(),
        "matrix_power": A.matrix_power(3),
        "geqrf_tau": A.geqrf().tau.abs(),
        "linalg_matmul": T.linalg.matmul(A, B),
        "inner": T.inner(A, A),
        "outer": T.outer(A[0], A[1]),
    }


@program()
def prog_lns_ldl_complex_hermitian_and_solve(T: Any) -> Any:
    H = _spd(T, 3, 3, seed=113, dt="complex128") - 5 * T.eye(3, dtype=T.complex128)
    B = _m(T, 3, 2, seed=114, dt="complex128")
    LDh, ph = T.linalg.ldl_factor(H, hermitian=True)
    LDs, ps = T.linalg.ldl_factor(H, hermitian=False)
    return {
        "herm": (LDh, ph),
        "sym": (LDs, ps),
        "solve_h": T.linalg.ldl_solve(LDh, ph, B, hermitian=True),
        "check_h": T.allclose(H @ T.linalg.ldl_solve(LDh, ph, B, hermitian=True), B),
        "ex_info": T.linalg.ldl_factor_ex(H, hermitian=True).info,
        "solve_dtype": raises(lambda: T.linalg.ldl_solve(LDh, ph, B.real)),
        "solve_1d": raises(lambda: T.linalg.ldl_solve(LDh, ph, B[:, 0])),
    }


@program()
def prog_lns_eigh_complex_diagonal_imag_ignored(T: Any) -> Any:
    H = _spd(T, 3, 3, seed=115, dt="complex128")
    Hj = H + T.diag(T.tensor([1j, -2j, 0.5j], dtype=T.complex128))
    return {
        "eigvalsh": (T.linalg.eigvalsh(H), T.linalg.eigvalsh(Hj)),
        "chol_same": T.allclose(T.linalg.cholesky(Hj), T.linalg.cholesky(H)),
        "dtype": T.linalg.eigvalsh(Hj.to(T.complex64)).dtype,
    }


@program()
def prog_lns_tensorsolve_dims_grads(T: Any) -> Any:
    A = (_m(T, 6, 6, seed=116) + 4 * T.eye(6, dtype=T.float64)).reshape(2, 3, 6)
    A = A.permute(2, 0, 1).clone().requires_grad_()  # (6, 2, 3): dims=(0,) moves 6 last
    B = _m(T, 2, 3, seed=117, rg=True)
    x = T.linalg.tensorsolve(A, B, dims=(0,))
    x.sum().backward()
    return {
        "x": x,
        "fn": x.grad_fn,
        "gA": A.grad,
        "gB": B.grad,
        "dims_neg": T.linalg.tensorsolve(A.detach(), B.detach(), dims=(-3,)).shape,
        "tinv_grad": T.autograd.grad(
            T.linalg.tensorinv(A.detach().reshape(6, 2, 3).requires_grad_(), ind=1).sum(),
            A,
            allow_unused=True,
        ),
    }


@program()
def prog_lns_cross_complex_and_grads(T: Any) -> Any:
    a = _m(T, 2, 3, seed=118, dt="complex128", rg=True)
    b = _m(T, 2, 3, seed=119, dt="complex128", rg=True)
    c = T.linalg.cross(a, b)
    g = T.autograd.grad((c * c.conj()).real.sum(), (a, b))
    return {
        "c": c,
        "fn": c.grad_fn,
        "g": g,
        "dim_oob": raises(lambda: T.linalg.cross(a, b, dim=2)),
        "size_mismatch": raises(lambda: T.linalg.cross(a, b[:, :2])),
        "ndim": raises(lambda: T.linalg.cross(a[0], b)),
        "bcast": T.linalg.cross(a[:1].detach(), b.detach()).shape,
    }


@program()
def prog_lns_linalg_diagonal_complex_and_views(T: Any) -> Any:
    M = _m(T, 2, 3, 3, seed=120, dt="complex128", rg=True)
    d = T.linalg.diagonal(M, offset=-1)
    (g,) = T.autograd.grad(d.abs().sum(), M)
    return {
        "d": d,
        "fn": d.grad_fn,
        "is_view": d._base is M,
        "g": g,
        "offset_big": T.linalg.diagonal(M, offset=5).shape,
        "same_dims": raises(lambda: T.linalg.diagonal(M, dim1=0, dim2=0)),
        "oob": raises(lambda: T.linalg.diagonal(M, dim1=3)),
    }


# --- 17. complex solvers, broadcasting gradients -----------------------------------------------


@program()
def prog_lns_lstsq_complex_and_residual_grads(T: Any) -> Any:
    A = _m(T, 5, 3, seed=121, dt="complex128", rg=True)
    B = _m(T, 5, 2, seed=122, dt="complex128", rg=True)
    r = T.linalg.lstsq(A, B, driver="gelsd")
    loss = (r.solution.abs() ** 2).sum() + r.residuals.sum()
    gA, gB = T.autograd.grad(loss, (A, B))
    return {
        "sol": r.solution,
        "res": (r.residuals, r.residuals.dtype),
        "rank": r.rank,
        "sv": (r.singular_values, r.singular_values.dtype),
        "g": (gA, gB),
        "gelsy_res": T.linalg.lstsq(A.detach(), B.detach()).residuals.shape,
    }


@program()
def prog_lns_solve_left_false_broadcast_grads(T: Any) -> Any:
    A = _m(T, 1, 3, 3, seed=123, shift=3.0, rg=True)
    B = _m(T, 2, 4, 3, seed=124, rg=True)
    X = T.linalg.solve(A, B, left=False)
    (X * X).sum().backward()
    return {
        "X": X,
        "check": T.allclose(X @ A, B),
        "gA": A.grad,
        "gB": B.grad,
        "fn": X.grad_fn,
    }


@program()
def prog_lns_cholesky_solve_upper_batch_grads(T: Any) -> Any:
    S = _spd(T, 2, 3, 3, seed=125)
    U = T.linalg.cholesky(S, upper=True).requires_grad_()
    B = _m(T, 3, 2, seed=126, rg=True)
    X = T.cholesky_solve(B, U, upper=True)
    gU, gB = T.autograd.grad((X * X).sum(), (U, B))
    return X, gU, gB, X.grad_fn


@program()
def prog_lns_qr_complex_grads(T: Any) -> Any:
    A = _m(T, 4, 3, seed=127, dt="complex128", rg=True)

    def f(a: Any) -> Any:
        Q, R = T.linalg.qr(a)
        return (Q @ R), (R.abs() ** 2).sum(-1), (Q.abs() ** 2).sum(-2)

    return _gg_values(T, f, A)


@program()
def prog_lns_eig_small_and_structured(T: Any) -> Any:
    one = T.tensor([[3.0]], dtype=T.float64, requires_grad=True)
    w, V = T.linalg.eig(one)
    (g,) = T.autograd.grad(w.real.sum(), one)
    D = T.diag(T.tensor([3.0, 1.0, 2.0], dtype=T.float64))
    U = T.triu(_m(T, 3, 3, seed=128)) + T.diag(T.tensor([5.0, -1.0, 2.0], dtype=T.float64))
    return {
        "one": (w, V, g),
        "diag": T.linalg.eigvals(D),
        "triu": T.linalg.eigvals(U),
        "rot": T.linalg.eigvals(T.tensor([[0.0, -2.0], [2.0, 0.0]])),
        "c64": T.linalg.eigvals(T.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=T.complex64)).dtype,
    }


@program()
def prog_lns_matrix_rank_hermitian_complex(T: Any) -> Any:
    r = np.random.default_rng(129)
    v = r.standard_normal((2, 4, 2)) + 1j * r.standard_normal((2, 4, 2))
    H = T.tensor(v @ np.conj(np.swapaxes(v, -1, -2)))  # rank 2, Hermitian PSD
    N = H - 3 * T.eye(4, dtype=T.complex128)
    return {
        "H": T.linalg.matrix_rank(H, hermitian=True),
        "N": T.linalg.matrix_rank(N, hermitian=True),
        "N_svd": T.linalg.matrix_rank(N),
        "atol": T.linalg.matrix_rank(H, hermitian=True, atol=5.0),
        "pinv_h": T.allclose(
            T.linalg.pinv(N, hermitian=True), T.linalg.pinv(N), atol=1e-10, rtol=1e-8
        ),
    }


@program()
def prog_lns_vander_complex_and_grad_fn(T: Any) -> Any:
    x = _m(T, 3, seed=130, dt="complex128", rg=True)
    V = T.linalg.vander(x, N=4)
    (g,) = T.autograd.grad((V.abs() ** 2).sum(), x)
    return V, V.grad_fn, g, T.linalg.vander(T.tensor([1, 2], dtype=T.int32), N=3).dtype


@program()
def prog_lns_svd_full_matrices_out_shapes(T: Any) -> Any:
    A = _m(T, 2, 4, 3, seed=131)
    out = {}
    for fm in (True, False):
        U, S, Vh = T.linalg.svd(A, full_matrices=fm, out=(_e(T), _e(T), _e(T)))
        out[fm] = (
            U.shape,
            S,
            Vh.shape,
            T.allclose(U[..., :3] * S.unsqueeze(-2) @ Vh[..., :3, :], A),
        )
    out["wrong_S_dtype"] = raises(lambda: T.linalg.svd(A, out=(_e(T), _e(T, "complex128"), _e(T))))
    return out


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
