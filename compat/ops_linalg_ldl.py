"""Op database entries for torch.linalg.ldl_factor, ldl_factor_ex and ldl_solve
(shadowgrad/ops/linalg_ldl.py).

Matrices are symmetric indefinite with small diagonals, so Bunch-Kaufman takes 2x2 pivots and
interchanges (the pivots are compared exactly); the lower triangle alone is read, so a
non-symmetric sample checks that too. Complex matrices run as symmetric and as Hermitian.
Neither op is differentiable in torch: the outputs' NotImplemented node is compared, and
backward is not run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg

t = tensor_arg


def _rng() -> np.random.Generator:
    return np.random.default_rng(4321)


def _indefinite(r: np.random.Generator, *shape: int, cx: Any = None) -> np.ndarray:
    m = r.standard_normal(shape)
    if cx is not None:
        m = (m + 1j * r.standard_normal(shape)).astype(cx)
    m = m + np.swapaxes(m, -1, -2)
    i = np.arange(shape[-1])
    m[..., i, i] *= 0.05  # small diagonal entries: Bunch-Kaufman picks 2x2 pivots
    return m


def factor_samples(dtype: str) -> list[Sample]:
    r = _rng()
    cx = np.complex64 if dtype == "float32" else np.complex128
    sing = _indefinite(r, 4, 4)
    sing[:, 2] = sing[2, :] = 0
    return [
        Sample((t(_indefinite(r, 4, 4)),), name="indefinite"),
        Sample((t(_indefinite(r, 6, 6)),), name="6x6"),
        Sample((t(_indefinite(r, 2, 3, 3)),), name="batched"),
        Sample((t(r.standard_normal((4, 4))),), name="lower triangle read"),
        Sample((t(_indefinite(r, 4, 4, cx=cx)),), name="complex symmetric"),
        Sample((t(_indefinite(r, 4, 4, cx=cx)),), {"hermitian": True}, name="complex hermitian"),
        Sample((t(_indefinite(r, 4, 4)),), {"hermitian": True}, name="real, hermitian"),
        Sample((t(sing),), name="zero column"),
        Sample((t(np.zeros((0, 0))),), name="empty"),
        Sample((t(r.standard_normal((3, 4))),), name="not square (error)"),
        Sample((t(r.standard_normal(3)),), name="1-d (error)"),
        Sample((t(np.eye(3, dtype=np.int64)),), name="integer (error)"),
        Sample((t(_indefinite(r, 3, 3)),), {"hermitian": 1}, name="int hermitian (error)"),
    ]


def _factor(T: Any, a: Any, **k: Any) -> Any:
    return tuple(T.linalg.ldl_factor(a, **k))


def _factor_ex(T: Any, a: Any, **k: Any) -> Any:
    return tuple(T.linalg.ldl_factor_ex(a, **k))


def _solve(T: Any, a: Any, b: Any, **k: Any) -> Any:
    h = k.get("hermitian", False)
    LD, piv = T.linalg.ldl_factor(a.detach(), hermitian=h)
    return T.linalg.ldl_solve(LD.requires_grad_(a.requires_grad), piv, b, **k)


def solve_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    cx = np.complex64 if dtype == "float32" else np.complex128
    bc = (n((4, 2)) + 1j * n((4, 2))).astype(cx)
    return [
        Sample((t(_indefinite(r, 4, 4)), t(n((4, 2)))), name="indefinite"),
        Sample((t(_indefinite(r, 6, 6)), t(n((6, 3)))), name="6x6"),
        Sample((t(_indefinite(r, 2, 3, 3)), t(n((2, 3, 1)))), name="batched"),
        Sample((t(_indefinite(r, 3, 3)), t(n((2, 3, 2)))), name="B batch broadcast"),
        Sample((t(_indefinite(r, 4, 4, cx=cx)), t(bc)), name="complex symmetric"),
        Sample((t(_indefinite(r, 4, 4, cx=cx)), t(bc)), {"hermitian": True},
               name="complex hermitian"),
        Sample((t(_indefinite(r, 3, 3)), t(n((3, 0)))), name="no right-hand side"),
        Sample((t(_indefinite(r, 3, 3)), t(n(3))), name="1-d B (error)"),
        Sample((t(_indefinite(r, 3, 3)), t(n((4, 2)))), name="sizes (error)"),
    ]  # fmt: skip


def solve_checks_samples(dtype: str) -> list[Sample]:
    r = _rng()
    ld = np.tril(_indefinite(r, 3, 3))
    piv = np.array([1, 2, 3], np.int32)
    b = r.standard_normal((3, 2))
    return [
        Sample((t(ld), t(piv), t(b)), name="given pivots"),
        Sample((t(ld), t(piv.astype(np.int64)), t(b)), name="int64 pivots"),
        Sample((t(ld), t(piv.astype(np.float64)), t(b)), name="float pivots (error)"),
        Sample((t(ld), t(piv[:2]), t(b)), name="pivots shape (error)"),
        Sample((t(ld), t(piv), t(b.astype(np.float32))), name="B dtype (error)"),
        Sample((t(ld[0]), t(piv), t(b)), name="1-d LD (error)"),
        Sample((t(ld[:2]), t(piv), t(b)), name="LD not square (error)"),
    ]


_NOTE = dict(supports_grad=False, supports_gradgrad=False)  # torch: NotImplemented nodes
_TOL = {"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-10)}
_REASON = "LAPACK and numpy order the float32 sums of the rank-1/rank-2 updates differently"

register(
    OpEntry("linalg.ldl_factor", _factor, factor_samples, tolerances=_TOL,
            tolerance_reason=_REASON, **_NOTE),
    OpEntry("linalg.ldl_factor_ex", _factor_ex, factor_samples, tolerances=_TOL,
            tolerance_reason=_REASON, **_NOTE),
    OpEntry("linalg.ldl_factor_ex check_errors",
            lambda T, a: tuple(T.linalg.ldl_factor_ex(a, check_errors=True)),
            lambda dtype: factor_samples(dtype)[6:8], **_NOTE),
    OpEntry("linalg.ldl_solve", _solve, solve_samples, tolerances=_TOL,
            tolerance_reason=_REASON, **_NOTE),
    OpEntry("linalg.ldl_solve checks", lambda T, *a: T.linalg.ldl_solve(*a),
            solve_checks_samples, tolerances=_TOL, tolerance_reason=_REASON, **_NOTE),
)  # fmt: skip
