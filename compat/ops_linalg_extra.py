"""Op database entries for the torch.linalg functions of shadowgrad/ops/linalg_extra.py.

Matrices are well conditioned unless a sample is about singularity or rank; triangular solves
get matrices whose diagonal is far from zero, so both triangles' values matter.
"""

from __future__ import annotations

import math

import numpy as np

from .opdb import OpEntry, Sample, register
from .ops_linalg import DECOMP_REASON, DECOMP_TOL, _rng, _spd, _well, t

# --- multi_dot ------------------------------------------------------------------------------


def multi_dot_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal

    def chain(*shapes, name):
        return Sample(([t(n(s)) for s in shapes],), name=name)

    return [
        chain((3, 3), (3, 2), name="two"),
        chain((3, 3), (3, 2), (2, 4), name="three, (AB)C"),
        chain((4, 2), (2, 3), (3, 3), name="three, A(BC)"),
        chain((3, 3), (3, 3), (3, 3), name="three, tie"),
        chain((3, 3), (3, 3), (3, 3), (3, 3), name="four, tie"),
        chain((2, 5), (5, 1), (1, 4), (4, 3), (3, 2), name="five"),
        chain((3,), (3, 3), (3, 2), name="first 1-d"),
        chain((3,), (3, 3), (3,), name="both 1-d"),
        chain((2, 3), (3,), name="last 1-d"),
        chain((3, 3), name="one (error)"),
        chain((3, 3), (2, 3), name="mismatch (error)"),
        chain((3, 3), (3, 3, 3), name="3-d last (error)"),
        chain((3, 3), (3, 3, 3), (3, 3), name="3-d middle (error)"),
    ]


# --- pinv, matrix_rank ----------------------------------------------------------------------


def pinv_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(_well(r, 3, 3)),), name="square"),
        Sample((t(n((4, 3))),), name="tall"),
        Sample((t(n((2, 4))),), name="wide"),
        Sample((t(n((2, 3, 2))),), name="batched"),
        Sample((t(_spd(r, 3, 3)),), {"hermitian": True}, name="hermitian"),
        Sample((t(n((3, 3)), layout="transposed"),), name="non-contiguous"),
        Sample((t(n((3,))),), name="1-d (error)"),
        Sample((t(n((2, 3))),), {"hermitian": True}, name="hermitian not square (error)"),
    ]


def _low_rank(r: np.random.Generator) -> np.ndarray:
    u, v = r.standard_normal((4, 2)), r.standard_normal((2, 3))
    return u @ v


def rank_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((3, 3)), False),), name="full rank"),
        Sample((t(_low_rank(r), False),), name="rank 2"),
        Sample((t(np.stack([_low_rank(r), n((4, 3))]), False),), name="batched"),
        Sample((t(_low_rank(r), False),), {"atol": 1.0}, name="atol"),
        Sample((t(_low_rank(r), False),), {"rtol": 0.5}, name="rtol"),
        Sample((t(_spd(r, 3, 3), False),), {"hermitian": True}, name="hermitian"),
        Sample((t(np.zeros((2, 2)), False),), name="zero"),
        Sample((t(n(3), False),), name="1-d (error)"),
    ]


def pinv_tol_samples(dtype: str) -> list[Sample]:
    r = _rng()
    a = np.diag([4.0, 1.0, 1e-3]) @ r.standard_normal((3, 3))
    return [
        Sample((t(a),), {"atol": 0.01}, name="atol drops a value"),
        Sample((t(a),), {"rtol": 0.01}, name="rtol drops a value"),
        Sample((t(a),), {"atol": 0.0, "rtol": 0.0}, name="no cut"),
    ]


# --- matrix_exp -----------------------------------------------------------------------------


def matrix_exp_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(0.01 * n((3, 3))),), name="tiny norm (degree 3)"),
        Sample((t(0.2 * n((3, 3))),), name="small norm (degree 5)"),
        Sample((t(n((3, 3))),), name="unit norm"),
        Sample((t(4 * n((3, 3))),), name="large norm (squaring)"),
        Sample((t(n((2, 2, 2))),), name="batched"),
        Sample((t(n((1, 1))),), name="1x1"),
        Sample((t(np.zeros((3, 3))),), name="zero"),
        Sample((t(n((3, 3)), layout="transposed"),), name="non-contiguous"),
        Sample((t(n((2, 3))),), name="not square (error)"),
    ]


# --- triangular solves ----------------------------------------------------------------------


def _tri_matrix(r: np.random.Generator, *shape: int) -> np.ndarray:
    return r.standard_normal(shape) + 3 * np.eye(shape[-1]) * np.sign(r.standard_normal(1))


def solve_triangular_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    A = _tri_matrix(r, 3, 3)
    out = []
    for upper in (True, False):
        for left in (True, False):
            for unit in (False, True):
                B = n((3, 2)) if left else n((2, 3))
                kw = {"upper": upper, "left": left, "unitriangular": unit}
                out.append(Sample((t(A), t(B)), kw, name=f"upper={upper} left={left} unit={unit}"))
    out += [
        Sample((t(_tri_matrix(r, 2, 3, 3)), t(n((3, 4)))), {"upper": True}, name="batched A"),
        Sample((t(A), t(n((2, 3, 1)))), {"upper": False}, name="batched B"),
        Sample((t(A, rg=False), t(n((3, 2)))), {"upper": True}, name="B only"),
        Sample((t(A), t(n((3, 2)), rg=False)), {"upper": True}, name="A only"),
        Sample((t(A, layout="transposed"), t(n((3, 2)))), {"upper": True}, name="non-contig"),
        Sample((t(A), t(n((3,)))), {"upper": True}, name="1-d B (error)"),
        Sample((t(A), t(n((2, 3)))), {"upper": True}, name="mismatch (error)"),
        Sample((t(n((3, 2))), t(n((3, 2)))), {"upper": True}, name="not square (error)"),
    ]
    return out


def triangular_solve_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    A = _tri_matrix(r, 3, 3)
    out = []
    for upper in (True, False):
        for transpose in (False, True):
            for unit in (False, True):
                out.append(
                    Sample(
                        (t(n((3, 2))), t(A), upper, transpose, unit),
                        name=f"upper={upper} transpose={transpose} unit={unit}",
                    )
                )
    out += [
        Sample((t(n((2, 3, 2))), t(A)), name="batched b"),
        Sample((t(n((3,))), t(A)), name="1-d b (error)"),
        Sample((t(n((2, 3))), t(A)), name="mismatch (error)"),
    ]
    return out


# --- lstsq ----------------------------------------------------------------------------------


def lstsq_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    out = [
        Sample((t(_well(r, 3, 3)), t(n((3, 2)))), name="square"),
        Sample((t(n((5, 3))), t(n((5, 2)))), name="tall"),
        Sample((t(n((2, 4))), t(n((2, 2)))), name="wide"),
        Sample((t(n((2, 4, 3))), t(n((2, 4, 2)))), name="batched"),
        Sample((t(n((4, 3))), t(n((4,)))), name="vector"),
        Sample((t(n((4, 3)), rg=False), t(n((4, 2)))), name="B only"),
        Sample((t(n((3,))), t(n((3,)))), name="1-d (error)"),
        Sample((t(n((3, 3))), t(n((4, 2)))), name="mismatch (error)"),
        Sample((t(n((3, 3))), t(n((3, 2)))), {"driver": "bad"}, name="bad driver (error)"),
    ]
    for driver in ("gels", "gelsd", "gelss"):
        out.append(Sample((t(n((5, 3))), t(n((5, 2)))), {"driver": driver}, name=driver))
    return out


def _lstsq(T, a, b, **k):
    r = T.linalg.lstsq(a, b, **k)
    return r.solution, r.residuals, r.rank, r.singular_values


# --- vecdot, cond, diagonal, vander ---------------------------------------------------------


def vecdot_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    return [
        Sample((t(n((3, 4))), t(n((3, 4)))), name="rows"),
        Sample((t(n((3, 4))), t(n((4,)))), name="broadcast"),
        Sample((t(n((3, 4))), t(n((3, 4)))), {"dim": 0}, name="dim 0"),
        Sample((t(n((3, 4))), t(n((3, 2)))), name="mismatch (error)"),
        Sample((t(np.ones((2, 2), np.int64), False), t(np.ones((2, 2), np.int64), False)),
               name="integer (error)"),
    ]  # fmt: skip


def cond_samples(dtype: str) -> list[Sample]:
    r = _rng()
    A = _well(r, 3, 3)
    out = [
        Sample((t(A),), name="default"),
        Sample((t(r.standard_normal((3, 4))),), name="wide, 2-norm"),
        Sample((t(_well(r, 2, 3, 3)),), {"p": -2}, name="batched, -2"),
    ]
    for p in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        out.append(Sample((t(A),), {"p": p}, name=f"p={p}"))
    out += [
        Sample((t(np.zeros((2, 2)), False),), {"p": 1}, name="singular p=1"),
        Sample((t(np.zeros((2, 2)), False),), {"p": "fro"}, name="singular fro"),
        Sample((t(r.standard_normal((2, 3))),), {"p": 1}, name="not square (error)"),
        Sample((t(A),), {"p": 3}, name="bad p (error)"),
        Sample((t(r.standard_normal(3)),), name="1-d (error)"),
    ]
    return out


def diagonal_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    return [
        Sample((t(n((3, 4))),), name="default"),
        Sample((t(n((2, 3, 4))),), {"offset": 1}, name="offset 1"),
        Sample((t(n((2, 3, 4))),), {"offset": -1, "dim1": 0, "dim2": 2}, name="dims 0, 2"),
    ]


def vander_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    return [
        Sample((t(n((3,))),), name="default"),
        Sample((t(n((3,))),), {"N": 5}, name="N 5"),
        Sample((t(n((2, 3))),), {"N": 2}, name="batched N 2"),
        Sample((t(np.array([1, 2, 3]), False),), name="integer"),
        Sample((t(n((3,))),), {"N": 1}, name="N 1 (error)"),
        Sample((t(np.array([True]), False),), name="bool (error)"),
    ]


# --- LU -------------------------------------------------------------------------------------


def lu_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((3, 3))),), name="square"),
        Sample((t(n((4, 3))),), name="tall"),
        Sample((t(n((3, 5))),), name="wide"),
        Sample((t(n((2, 3, 3))),), name="batched"),
        Sample((t(n((3, 3)), layout="transposed"),), name="non-contiguous"),
        Sample((t(n(3)),), name="1-d (error)"),
        Sample((t(np.ones((2, 2), np.int64), False),), name="integer (error)"),
    ]


def _lu_factor(T, a, **k):
    LU, piv = T.linalg.lu_factor(a, **k)
    return LU, piv


def _lu_factor_ex(T, a, **k):
    r = T.linalg.lu_factor_ex(a, **k)
    return r.LU, r.pivots, r.info


def _lu(T, a):
    r = T.linalg.lu(a)
    return r.P, r.L, r.U


def _lu_unpack(T, a, *flags):
    LU, piv = T.linalg.lu_factor(a.detach())
    LU = LU.requires_grad_(a.requires_grad)
    return tuple(T.lu_unpack(LU * 1, piv, *flags))


def _lu_legacy(T, a, **k):
    return tuple(T.lu(a, **k)), tuple(a.lu(**k))


def lu_unpack_samples(dtype: str) -> list[Sample]:
    out = lu_samples(dtype)[:4]
    r = _rng()
    out.append(Sample((t(r.standard_normal((3, 3))), True, False), name="data only"))
    out.append(Sample((t(r.standard_normal((3, 3))), False, True), name="pivots only"))
    return out


def singular_lu_samples(dtype: str) -> list[Sample]:
    return [
        Sample((t(np.zeros((2, 2)), False),), name="zero"),
        Sample((t(np.array([[1.0, 2.0], [2.0, 4.0]]), False),), name="rank 1"),
        Sample((t(np.stack([np.eye(2), np.zeros((2, 2))]), False),), name="batch element 1"),
    ]


def _lu_solve(T, a, b, **k):
    LU, piv = T.linalg.lu_factor(a)
    return T.linalg.lu_solve(LU, piv, b, **k)


def lu_solve_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    A = _well(r, 3, 3)
    out = []
    for left in (True, False):
        for adjoint in (False, True):
            B = n((3, 2)) if left else n((2, 3))
            out.append(
                Sample((t(A), t(B)), {"left": left, "adjoint": adjoint}, name=f"{left} {adjoint}")
            )
    out += [
        Sample((t(_well(r, 2, 3, 3)), t(n((2, 3, 1)))), name="batched"),
        Sample((t(A, rg=False), t(n((3, 2)))), name="B only"),
        Sample((t(A), t(n((3, 2)), rg=False)), name="A only"),
        Sample((t(A), t(n((2, 2)))), name="mismatch (error)"),
        Sample((t(A), t(n(3))), name="1-d B (error)"),
    ]
    return out


def _lu_solve_legacy(T, a, b):
    LU, piv = T.linalg.lu_factor(a)
    return T.lu_solve(b, LU, piv), b.lu_solve(LU, piv)


def tensorsolve_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(_well(r, 6, 6).reshape(2, 3, 6)), t(n((2, 3)))), name="2-d b"),
        Sample((t(_well(r, 6, 6).reshape(6, 2, 3)), t(n(6))), name="3-d x"),
        Sample((t(_well(r, 6, 6).reshape(2, 3, 3, 2)), t(n((3, 2)))), {"dims": (0,)},
               name="dims"),
        Sample((t(n((2, 3, 5))), t(n((2, 3)))), name="not square (error)"),
    ]  # fmt: skip


# --- cholesky_solve, cholesky_inverse ------------------------------------------------------


def _chol(r, *shape, upper=False):
    L = np.linalg.cholesky(_spd(r, *shape))
    return np.swapaxes(L, -1, -2) if upper else L


def cholesky_solve_samples(dtype: str) -> list[Sample]:
    r = _rng(3)
    n = r.standard_normal
    return [
        Sample((t(n((3, 2))), t(_chol(r, 3, 3))), name="lower"),
        Sample((t(n((3, 2))), t(_chol(r, 3, 3, upper=True)), True), name="upper"),
        Sample((t(n((2, 1, 3, 2))), t(_chol(r, 4, 3, 3))), name="broadcast batches"),
        Sample((t(n((3, 2)), False), t(_chol(r, 3, 3))), name="L only"),
        Sample((t(n((3, 2))), t(_chol(r, 3, 3), False)), name="B only"),
        Sample((t(n((3, 2)), layout="transposed"), t(_chol(r, 3, 3))), name="non-contiguous"),
        Sample((t(n(3)), t(_chol(r, 3, 3))), name="1-d b (error)"),
        Sample((t(n((2, 2))), t(_chol(r, 3, 3))), name="bad sizes (error)"),
        Sample((t(n((3, 2))), t(n((3, 2)))), name="not square (error)"),
    ]


def cholesky_inverse_samples(dtype: str) -> list[Sample]:
    r = _rng(4)
    return [
        Sample((t(_chol(r, 3, 3)),), name="lower"),
        Sample((t(_chol(r, 3, 3, upper=True)), True), name="upper"),
        Sample((t(_chol(r, 2, 3, 3)),), name="batched"),
        Sample((t(_chol(r, 3, 3), layout="transposed"),), name="non-contiguous"),
        Sample((t(np.ones((2, 3))),), name="not square (error)"),
        Sample((t(np.ones(3)),), name="1-d (error)"),
        Sample((t(np.eye(2, dtype=np.int64)),), name="integer (error)"),
    ]


register(
    OpEntry(
        "cholesky_solve",
        lambda T, *a: T.cholesky_solve(*a),
        cholesky_solve_samples,
        covers=("Tensor.cholesky_solve",),
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "cholesky_inverse",
        lambda T, *a: T.cholesky_inverse(*a),
        cholesky_inverse_samples,
        covers=("Tensor.cholesky_inverse",),
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry("linalg.multi_dot", lambda T, ts: T.linalg.multi_dot(ts), multi_dot_samples),
    OpEntry(
        "linalg.pinv",
        lambda T, a, **k: T.linalg.pinv(a, **k),
        pinv_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.pinv (tolerances)",
        lambda T, a, **k: T.linalg.pinv(a, **k),
        pinv_tol_samples,
        dtypes=("float64",),
    ),
    OpEntry(
        "pinverse",
        lambda T, a, *r: (T.pinverse(a, *r), a.pinverse(*r)),
        lambda d: pinv_samples(d)[:4],
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        covers=("pinverse", "Tensor.pinverse"),
    ),
    OpEntry(
        "linalg.matrix_rank",
        lambda T, a, **k: T.linalg.matrix_rank(a, **k),
        rank_samples,
        supports_grad=False,
    ),
    OpEntry(
        "linalg.matrix_exp",
        lambda T, a: T.linalg.matrix_exp(a),
        matrix_exp_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason="float32 Padé approximants of different degrees round differently",
    ),
    OpEntry(
        "matrix_exp",
        lambda T, a: (T.matrix_exp(a), a.matrix_exp()),
        lambda d: matrix_exp_samples(d)[2:5],
        tolerances=DECOMP_TOL,
        tolerance_reason="float32 Padé approximants of different degrees round differently",
        covers=("matrix_exp", "Tensor.matrix_exp"),
    ),
    OpEntry(
        "linalg.solve_triangular",
        lambda T, a, b, **k: T.linalg.solve_triangular(a, b, **k),
        solve_triangular_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "triangular_solve",
        lambda T, b, a, *r: (tuple(T.triangular_solve(b, a, *r)), tuple(b.triangular_solve(a, *r))),
        triangular_solve_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        covers=("triangular_solve", "Tensor.triangular_solve"),
    ),
    OpEntry(
        "linalg.lstsq",
        _lstsq,
        lstsq_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry("linalg.vecdot", lambda T, a, b, **k: T.linalg.vecdot(a, b, **k), vecdot_samples),
    OpEntry(
        "linalg.cond",
        lambda T, a, **k: T.linalg.cond(a, **k),
        cond_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry("linalg.diagonal", lambda T, a, **k: T.linalg.diagonal(a, **k), diagonal_samples),
    OpEntry("linalg.vander", lambda T, a, **k: T.linalg.vander(a, **k), vander_samples),
    OpEntry("linalg.lu_factor", _lu_factor, lu_samples, tolerances=DECOMP_TOL,
            tolerance_reason=DECOMP_REASON),
    OpEntry("linalg.lu_factor_ex", _lu_factor_ex, lu_samples, tolerances=DECOMP_TOL,
            tolerance_reason=DECOMP_REASON),
    OpEntry("linalg.lu_factor (singular)", _lu_factor, singular_lu_samples, supports_grad=False),
    OpEntry("linalg.lu_factor_ex (singular)", _lu_factor_ex, singular_lu_samples,
            supports_grad=False),
    OpEntry("linalg.lu", _lu, lu_samples, tolerances=DECOMP_TOL, tolerance_reason=DECOMP_REASON),
    OpEntry("lu_unpack", _lu_unpack, lu_unpack_samples, tolerances=DECOMP_TOL,
            tolerance_reason=DECOMP_REASON),
    OpEntry("lu", _lu_legacy, lu_samples, tolerances=DECOMP_TOL, tolerance_reason=DECOMP_REASON,
            covers=("lu", "Tensor.lu")),
    OpEntry("linalg.lu_solve", _lu_solve, lu_solve_samples, tolerances=DECOMP_TOL,
            tolerance_reason=DECOMP_REASON),
    OpEntry("lu_solve", _lu_solve_legacy, lambda d: lu_solve_samples(d)[:1],
            tolerances=DECOMP_TOL, tolerance_reason=DECOMP_REASON,
            covers=("lu_solve", "Tensor.lu_solve")),
    OpEntry("linalg.tensorsolve", lambda T, a, b, **k: T.linalg.tensorsolve(a, b, **k),
            tensorsolve_samples),
)  # fmt: skip


# --- geqrf, householder_product, ormqr ------------------------------------------------------


def _compact_qr(r, *shape):
    """geqrf's (a, tau) of a random matrix, from LAPACK through numpy."""
    A = r.standard_normal(shape)
    flat = [np.linalg.qr(x, mode="raw") for x in A.reshape(-1, *shape[-2:])]
    a = np.stack([np.swapaxes(h, -1, -2) for h, _ in flat]).reshape(shape)
    return a, np.stack([tau for _, tau in flat]).reshape(*shape[:-2], -1)


def geqrf_samples(dtype: str) -> list[Sample]:
    n = _rng(5).standard_normal
    return [
        Sample((t(n((4, 3)), False),), name="tall"),
        Sample((t(n((3, 4)), False),), name="wide"),
        Sample((t(n((2, 3, 3)), False),), name="batched"),
        Sample((t(n((3, 3)), False, layout="transposed"),), name="non-contiguous"),
        Sample((t(n((0, 3)), False),), name="empty"),
        Sample((t(n(3), False),), name="1-d (error)"),
        Sample((t(np.ones((2, 2), np.int64), False),), name="integer (error)"),
    ]


def householder_samples(dtype: str) -> list[Sample]:
    r = _rng(6)
    a, tau = _compact_qr(r, 4, 3)
    b, btau = _compact_qr(r, 2, 3, 2)
    return [
        Sample((t(a), t(tau)), name="tall"),
        Sample((t(a), t(tau[:2])), name="fewer reflectors"),
        Sample((t(a[:3]), t(tau)), name="square"),
        Sample((t(b), t(btau)), name="batched"),
        Sample((t(a), t(tau, False)), name="input only"),
        Sample((t(a, False), t(tau)), name="tau only"),
        Sample((t(a, layout="transposed"), t(tau)), name="non-contiguous"),
        Sample((t(a.T), t(tau)), name="wide (error)"),
        Sample((t(a), t(np.ones(4))), name="too many reflectors (error)"),
        Sample((t(a), t(np.ones((1, 3)))), name="tau ndim (error)"),
        Sample((t(b), t(np.ones((3, 2)))), name="tau batch (error)"),
        Sample((t(np.ones(3)), t(np.ones(1))), name="1-d (error)"),
    ]


def ormqr_samples(dtype: str) -> list[Sample]:
    r = _rng(7)
    n = r.standard_normal
    a, tau = _compact_qr(r, 4, 3)
    w, wtau = _compact_qr(r, 3, 4)
    b, btau = _compact_qr(r, 2, 3, 2)
    return [
        Sample((t(a), t(tau), t(n((4, 2)))), name="left"),
        Sample((t(a), t(tau), t(n((4, 2))), True, True), name="left transpose"),
        Sample((t(a), t(tau), t(n((2, 4))), False), name="right"),
        Sample((t(a), t(tau), t(n((2, 4))), False, True), name="right transpose"),
        Sample((t(w), t(wtau), t(n((3, 2)))), name="wide input"),
        Sample((t(b), t(btau), t(n((2, 3, 3))), True, True), name="batched"),
        Sample((t(a), t(tau, False), t(n((4, 2)), False)), name="input only"),
        Sample((t(a, False), t(tau), t(n((4, 2)), False)), name="tau only"),
        Sample((t(a, False), t(tau, False), t(n((4, 2)))), name="other only"),
        Sample((t(a, layout="transposed"), t(tau), t(n((4, 2)), layout="transposed")),
               name="non-contiguous"),
        Sample((t(a), t(tau), t(n((3, 2)))), name="other rows (error)"),
        Sample((t(a), t(tau[:2]), t(n((4, 2)))), name="tau size (error)"),
        Sample((t(a), t(tau), t(n(4))), name="1-d other (error)"),
        Sample((t(a), t(tau), t(n((2, 4, 2)))), name="other ndim (error)"),
        Sample((t(b), t(np.ones((3, 2))), t(n((2, 3, 3)))), name="tau batch (error)"),
        Sample((t(b), t(btau), t(n((3, 3, 3)))), name="other batch (error)"),
    ]  # fmt: skip


register(
    OpEntry(
        "geqrf",
        lambda T, a: (tuple(T.geqrf(a)), tuple(a.geqrf())),
        geqrf_samples,
        supports_grad=False,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        covers=("geqrf", "Tensor.geqrf"),
    ),
    OpEntry(
        "linalg.householder_product",
        lambda T, a, tau: T.linalg.householder_product(a, tau),
        householder_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "orgqr",
        lambda T, a, tau: (T.orgqr(a, tau), a.orgqr(tau)),
        lambda d: householder_samples(d)[:4],
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        covers=("orgqr", "Tensor.orgqr"),
    ),
    OpEntry(
        "ormqr",
        lambda T, a, tau, c, *r: (T.ormqr(a, tau, c, *r), a.ormqr(tau, c, *r)),
        ormqr_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        covers=("ormqr", "Tensor.ormqr"),
    ),
)


# --- eig, eigvals, tensorinv ----------------------------------------------------------------


def eig_samples(dtype: str) -> list[Sample]:
    n = _rng(8).standard_normal
    return [
        Sample((t(n((3, 3))),), name="square"),
        Sample((t(n((2, 4, 4))),), name="batched"),
        Sample((t(np.diag([1.0, 2.0, 3.0])),), name="diagonal"),
        Sample((t(n((3, 3)), layout="transposed"),), name="non-contiguous"),
        Sample((t(n((2, 0, 0))),), name="empty"),
        Sample((t(n((3, 2)), False),), name="not square (error)"),
        Sample((t(n(3), False),), name="1-d (error)"),
        Sample((t(np.eye(2, dtype=np.int64), False),), name="integer (error)"),
    ]


def _eig(T, a):
    """Eigenvalues (LAPACK's order) and the residual |A V - V diag(L)|: eigenvectors are unit
    vectors defined up to a phase, which LAPACK builds choose differently."""
    L, V = T.linalg.eig(a)
    res = (a.to(V.dtype) @ V - V * L.unsqueeze(-2)).abs()
    return L, V.abs().pow(2).sum(-2), (res < 1e-4).all()


def tensorinv_samples(dtype: str) -> list[Sample]:
    r = _rng(9)
    return [
        Sample((t(_well(r, 6, 6).reshape(2, 3, 6)),), {"ind": 2}, name="ind 2"),
        Sample((t(_well(r, 4, 4).reshape(4, 2, 2)),), {"ind": 1}, name="ind 1"),
        Sample((t(r.standard_normal((2, 3))),), {"ind": 1}, name="not square (error)"),
        Sample((t(r.standard_normal((2, 2))),), {"ind": 0}, name="ind 0 (error)"),
    ]


register(
    OpEntry(
        "linalg.eig",
        _eig,
        eig_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.eigvals",
        lambda T, a: T.linalg.eigvals(a),
        eig_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.tensorinv",
        lambda T, a, **k: T.linalg.tensorinv(a, **k),
        tensorinv_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
)  # fmt: skip
