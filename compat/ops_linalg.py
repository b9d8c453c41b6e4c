"""Op database entries for linear algebra: matrix products, einsum, torch.linalg.

Matrices are well conditioned (random plus a multiple of the identity) unless a sample is about
singularity; SPD matrices feed cholesky and eigh, and svd gets distinct singular values. The
factorizations whose outputs are defined only up to signs (svd's U and Vh, eigh's V) are checked
through sign-invariant functions of their outputs, as torch's own tests do.
"""

from __future__ import annotations

import math

import numpy as np

import shadowgrad

from .opdb import OpEntry, Sample, register, tensor_arg

DECOMP_TOL = {"float32": (1e-4, 1e-4)}
DECOMP_REASON = "float32 factorizations round differently in LAPACK builds (numpy vs torch MKL)"


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _well(r: np.random.Generator, *shape: int) -> np.ndarray:
    """Random square matrices far from singular."""
    n = shape[-1]
    return r.standard_normal(shape) + n * np.eye(n)


def _spd(r: np.random.Generator, *shape: int) -> np.ndarray:
    x = r.standard_normal(shape)
    return x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])


def t(v: np.ndarray, rg: bool = True, layout: str = "contiguous"):
    return tensor_arg(v, requires_grad=rg, layout=layout)


# --- products -------------------------------------------------------------------------------


def matmul_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    shapes = [
        ((3,), (3,), "1-d @ 1-d"),
        ((2, 3), (3,), "2-d @ 1-d"),
        ((2, 3), (3, 4), "2-d @ 2-d"),
        ((2, 2, 3), (3,), "3-d @ 1-d"),
        ((2, 2, 3), (3, 4), "3-d @ 2-d"),
        ((3,), (2, 3, 4), "1-d @ 3-d"),
        ((2, 3), (2, 3, 4), "2-d @ 3-d"),
        ((2, 2, 3), (2, 3, 4), "3-d @ 3-d"),
        ((2, 1, 2, 3), (5, 3, 4), "batch broadcast"),
        ((1, 2, 3), (3, 3, 2), "batch of one broadcast"),
        ((0, 3), (3, 2), "empty rows"),
        ((2, 0), (0, 3), "empty contraction"),
    ]
    out = [Sample((t(n(a)), t(n(b))), name=nm) for a, b, nm in shapes]
    out.append(Sample((t(n((3, 4)), layout="transposed"), t(n((3, 2)))), name="non-contiguous"))
    out.append(Sample((t(n((2, 3))), t(n((3, 4)), rg=False)), name="other without grad"))
    return out


def _pair(a, b, name):
    r = _rng()
    return Sample((t(r.standard_normal(a)), t(r.standard_normal(b))), name=name)


def addmm_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    m1, m2 = n((2, 3)), n((3, 4))
    return [
        Sample((t(n((2, 4))), t(m1), t(m2)), name="plain"),
        Sample((t(n((2, 4))), t(m1), t(m2)), {"beta": 0.5, "alpha": 2.0}, name="beta alpha"),
        Sample((t(n((4,))), t(m1), t(m2)), name="broadcast input row"),
        Sample((t(n((1, 1))), t(m1), t(m2)), {"beta": 2}, name="broadcast input 1x1"),
        Sample((t(np.array(1.5)), t(m1), t(m2)), name="0-d input"),
        Sample((t(np.full((2, 4), np.nan)), t(m1), t(m2)), {"beta": 0}, name="beta 0 nan input"),
        Sample((t(n((2, 4))), t(m1, layout="transposed"), t(m2)), name="non-contiguous"),
        Sample((t(n((2, 4)), rg=False), t(m1), t(m2, rg=False)), name="mat1 only"),
    ]


def addmv_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((2,))), t(n((2, 3))), t(n((3,)))), name="plain"),
        Sample(
            (t(n((2,))), t(n((2, 3))), t(n((3,)))), {"beta": -1, "alpha": 0.5}, name="beta alpha"
        ),
        Sample((t(n((1,))), t(n((2, 3))), t(n((3,)))), name="broadcast input"),
        Sample((t(np.array(2.0)), t(n((2, 3))), t(n((3,)))), name="0-d input"),
    ]


def baddbmm_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    b1, b2 = n((2, 2, 3)), n((2, 3, 4))
    return [
        Sample((t(n((2, 2, 4))), t(b1), t(b2)), name="plain"),
        Sample((t(n((2, 2, 4))), t(b1), t(b2)), {"beta": 2.0, "alpha": -1.0}, name="beta alpha"),
        Sample((t(n((2, 4))), t(b1), t(b2)), name="broadcast input"),
        Sample((t(n((2, 2, 4))), t(b1, layout="transposed"), t(b2)), name="non-contiguous"),
    ]


def addbmm_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    b1, b2 = n((3, 2, 3)), n((3, 3, 4))
    return [
        Sample((t(n((2, 4))), t(b1), t(b2)), name="plain"),
        Sample((t(n((2, 4))), t(b1), t(b2)), {"beta": 0.5, "alpha": 3.0}, name="beta alpha"),
        Sample((t(n((4,))), t(b1), t(b2)), name="broadcast input"),
    ]


def trace_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((3, 3))),), name="square"),
        Sample((t(n((2, 4))),), name="wide"),
        Sample((t(n((4, 2))),), name="tall"),
        Sample((t(n((3, 3)), layout="transposed"),), name="non-contiguous"),
        Sample((t(n((0, 3))),), name="empty"),
        Sample((t(np.arange(9).reshape(3, 3)),), name="integer"),
        Sample((t(np.array([[1, 2], [3, 4]], dtype=np.int32)),), name="int32"),
    ]


def kron_samples(dtype: str) -> list[Sample]:
    return [
        _pair((2, 3), (2, 2), "2-d x 2-d"),
        _pair((3,), (2,), "1-d x 1-d"),
        _pair((2,), (2, 3), "1-d x 2-d"),
        _pair((2, 1, 2), (2, 3), "3-d x 2-d"),
    ]


def tensordot_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((2, 3))), t(n((3, 4)))), {"dims": 1}, name="dims 1"),
        Sample((t(n((2, 3, 4))), t(n((3, 4, 5)))), name="dims 2 (default)"),
        Sample((t(n((2, 3))), t(n((4,)))), {"dims": 0}, name="dims 0 (outer)"),
        Sample((t(n((3, 2, 4))), t(n((4, 5, 3)))), {"dims": ([0, 2], [2, 0])}, name="lists"),
        Sample((t(n((3, 2))), t(n((2, 3)))), {"dims": ([0], [1])}, name="permuted"),
        Sample((t(n((2, 3)), layout="transposed"), t(n((2, 4)))), {"dims": 1}, name="non-contig"),
    ]


def einsum_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    cases = [
        ("ij,jk->ik", [(2, 3), (3, 4)]),
        ("ij->ji", [(2, 3)]),
        ("ii->i", [(3, 3)]),
        ("ii", [(3, 3)]),
        ("ij->", [(2, 3)]),
        ("ij->j", [(2, 3)]),
        ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
        ("i,i->", [(3,), (3,)]),
        ("i,j->ij", [(3,), (4,)]),
        ("ij,ij->ij", [(2, 3), (2, 3)]),
        ("ij,kj->ik", [(2, 3), (4, 3)]),
        ("ij,jk", [(2, 3), (3, 4)]),
        ("ba,ab", [(2, 3), (3, 2)]),
        ("i...->...", [(3, 2, 2)]),
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
        ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
        ("iij->j", [(3, 3, 2)]),
        ("ij,i->j", [(3, 1), (3,)]),
    ]
    return [Sample((eq, *[t(n(s)) for s in shapes]), name=eq) for eq, shapes in cases] + [
        Sample(("ij,jk->ik", t(n((3, 2)), layout="transposed"), t(n((3, 2)))), name="non-contig")
    ]


def outer_samples(dtype: str) -> list[Sample]:
    return [
        _pair((3,), (4,), "plain"),
        _pair((0,), (2,), "empty"),
    ]


# --- torch.linalg ---------------------------------------------------------------------------


def square_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((t(_well(r, 3, 3)),), name="3x3"),
        Sample((t(_well(r, 2, 3, 3)),), name="batched"),
        Sample((t(_well(r, 1, 1)),), name="1x1"),
        Sample((t(_well(r, 3, 3), layout="transposed"),), name="non-contiguous"),
        Sample((t(np.array([[0.0, 1.0], [1.0, 0.0]])),), name="negative det"),
    ]


def inv_samples(dtype: str) -> list[Sample]:
    return [
        *square_samples(dtype),
        Sample((t(np.zeros((0, 0))),), name="empty"),
        Sample((t(np.array([[1.0, 2.0], [2.0, 4.0]])),), name="singular"),
        Sample((t(np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]])),), name="singular in batch"),
        Sample((t(np.ones((2, 3))),), name="not square"),
        Sample((t(np.ones(3)),), name="1-d"),
        Sample((t(np.eye(2, dtype=np.int64)),), name="integer"),
    ]


def det_samples(dtype: str) -> list[Sample]:
    r = _rng()
    sing = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, -1.0, 2.0]])
    return [
        *square_samples(dtype),
        Sample((t(sing),), name="singular (rank 2)"),
        Sample((t(np.stack([sing, _well(r, 3, 3)])),), name="singular and not in one batch"),
        Sample((t(np.zeros((0, 0))),), name="empty"),
        Sample((t(np.ones((2, 3))),), name="not square"),
    ]


def solve_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    A = _well(r, 3, 3)
    return [
        Sample((t(A), t(n((3,)))), name="vector"),
        Sample((t(A), t(n((3, 2)))), name="matrix"),
        Sample((t(_well(r, 2, 3, 3)), t(n((3, 2)))), name="batched A, broadcast B"),
        Sample((t(A), t(n((2, 3, 2)))), name="broadcast A"),
        Sample((t(_well(r, 2, 3, 3)), t(n((2, 3)))), name="batched vector"),
        Sample((t(A), t(n((2, 3)))), {"left": False}, name="left=False"),
        Sample((t(A, rg=False), t(n((3, 2)))), name="B only"),
        Sample((t(A), t(n((3, 2)), rg=False)), name="A only"),
        Sample((t(np.array([[1.0, 2.0], [2.0, 4.0]])), t(n((2,)))), name="singular"),
        Sample((t(A), t(n((4,)))), name="bad shapes"),
    ]


def spd_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((t(_spd(r, 3, 3)),), name="3x3"),
        Sample((t(_spd(r, 2, 4, 4)),), name="batched"),
        Sample((t(_spd(r, 1, 1)),), name="1x1"),
        Sample((t(_spd(r, 3, 3), layout="transposed"),), name="non-contiguous"),
    ]


def cholesky_samples(dtype: str) -> list[Sample]:
    r = _rng()
    out = spd_samples(dtype)
    out.append(Sample((t(_spd(r, 3, 3)),), {"upper": True}, name="upper"))
    out.append(Sample((t(np.array([[1.0, 2.0], [2.0, 1.0]])),), name="not positive-definite"))
    out.append(
        Sample(
            (t(np.stack([np.eye(3), [[1.0, 0, 0], [0, 1, 2], [0, 2, 1]]])),),
            name="not positive-definite in batch",
        )
    )
    return out


def rect_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((3, 3))),), name="square"),
        Sample((t(n((4, 3))),), name="tall"),
        Sample((t(n((3, 4))),), name="wide"),
        Sample((t(n((2, 4, 3))),), name="batched"),
        Sample((t(n((3, 3)), layout="transposed"),), name="non-contiguous"),
    ]


def qr_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    out = rect_samples(dtype)
    out += [
        Sample((t(n((3, 4))), "complete"), name="complete wide"),
        Sample((t(n((3, 3))), "complete"), name="complete square"),
        Sample((t(n((4, 3))), "complete"), name="complete tall (backward raises)"),
        Sample((t(n((4, 3))), "r"), name="mode r (backward raises)"),
        Sample((t(n((3, 3))), "bad"), name="bad mode"),
    ]
    return out


def svd_samples(dtype: str) -> list[Sample]:
    out = rect_samples(dtype)
    r = _rng()
    n = r.standard_normal
    out += [
        Sample((t(n((4, 3))), True), name="full_matrices tall"),
        Sample((t(n((3, 4))), True), name="full_matrices wide"),
    ]
    return out


def _svd_invariant(T, a, full_matrices=False):
    U, S, Vh = T.linalg.svd(a, full_matrices=full_matrices)
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    return S, U * U, Vh * Vh, U @ Vh


def _svd_legacy_invariant(T, a, some=True):
    U, S, V = T.svd(a, some=some)
    k = S.shape[-1]
    U, V = U[..., :k], V[..., :k]
    return S, U * U, V * V


def _eigh_invariant(T, a, UPLO="L"):
    L, V = T.linalg.eigh(a, UPLO=UPLO)
    return L, V * V


def eigh_samples(dtype: str) -> list[Sample]:
    r = _rng()
    out = spd_samples(dtype)
    out.append(Sample((t(_spd(r, 3, 3)),), {"UPLO": "U"}, name="UPLO U"))
    # eigh reads one triangle: the gradient lands on that triangle only
    out.append(Sample((t(r.standard_normal((3, 3)) + 3 * np.eye(3)),), name="non-symmetric"))
    out.append(Sample((t(_spd(r, 3, 3)),), {"UPLO": "X"}, name="bad UPLO"))
    return out


def matrix_norm_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    A, B = n((3, 4)), n((2, 3, 3))
    out = []
    for o in ("fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf):
        out.append(Sample((t(A),), {"ord": o}, name=f"ord {o}"))
        out.append(Sample((t(B),), {"ord": o, "keepdim": True}, name=f"ord {o} batched keepdim"))
        out.append(Sample((t(B),), {"ord": o, "dim": (2, 0)}, name=f"ord {o} dim (2, 0)"))
    out.append(Sample((t(n(3)),), name="1-d"))
    out.append(Sample((t(A),), {"ord": 3}, name="bad ord"))
    out.append(Sample((t(A),), {"dim": (1, 1)}, name="same dims"))
    return out


def norm_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    A = n((3, 4))
    return [
        Sample((t(A),), name="default (flattened 2-norm)"),
        Sample((t(n((2, 3, 4))),), name="3-d default"),
        Sample((t(n(4)),), {"ord": 1}, name="vector ord 1"),
        Sample((t(A),), {"ord": "nuc"}, name="nuc"),
        Sample((t(A),), {"ord": 1}, name="2-d ord 1 is a matrix norm"),
        Sample((t(n((2, 3, 4))),), {"ord": 2, "dim": (0, 2)}, name="two dims, ord 2"),
        Sample((t(n((2, 3, 4))),), {"dim": 1, "keepdim": True}, name="one dim"),
        Sample((t(n((2, 3, 4))),), {"ord": 2}, name="3-d with ord"),
    ]


def matrix_power_samples(dtype: str) -> list[Sample]:
    r = _rng()
    A = _well(r, 3, 3) / 3
    return [
        Sample((t(A), 2), name="2"),
        Sample((t(A), 3), name="3"),
        Sample((t(A), 5), name="5"),
        Sample((t(_well(r, 2, 3, 3) / 3), 6), name="batched 6"),
        Sample((t(A), 1), name="1"),
        Sample((t(A), -1), name="-1"),
        Sample((t(A), -3), name="-3"),
        Sample((t(np.ones((2, 3))), 2), name="not square"),
    ]


def cross_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((4, 3))), t(n((4, 3)))), name="rows"),
        Sample((t(n((1, 3))), t(n((4, 3)))), name="broadcast"),
        Sample((t(n((3, 2))), t(n((3, 2)))), {"dim": 0}, name="dim 0"),
        Sample((t(n((2, 2))), t(n((2, 2)))), name="length 2"),
    ]


def _cross_dim_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    return [
        Sample((t(n((4, 3))), t(n((4, 3)))), {"dim": 1}, name="rows"),
        Sample((t(n((1, 3))), t(n((4, 3)))), {"dim": -1}, name="broadcast"),
        Sample((t(n((2, 3, 3))), t(n((2, 3, 3)), rg=False)), {"dim": 1}, name="3-d, other no grad"),
        Sample((t(n((2, 2))), t(n((2, 2)))), {"dim": 0}, name="length 2 (error)"),
    ]


# the norms are built on the reductions family's ops; until they land, a composite stand-in
_HAVE_REDUCTIONS = all(hasattr(shadowgrad, n) for n in ("_linalg_vector_norm", "amax", "amin"))
NORM_XFAILS = (
    {}
    if _HAVE_REDUCTIONS
    else {
        "grad_fn": "needs _linalg_vector_norm, amax and amin from ops/reduction.py",
        "gradgrad": "the stand-in for abs has no second-order graph",
    }
)


def _slogdet(T, a):
    s = T.linalg.slogdet(a)
    return s.sign, s.logabsdet


def _ex(name: str):
    """An entry's callable for torch.linalg.<name>_ex: both outputs as a plain tuple."""

    def call(T, *a, **k):
        return tuple(getattr(T.linalg, name)(*a, **k))

    return call


def inv_ex_samples(dtype: str) -> list[Sample]:
    sing = np.array([[2.0, 1.0, 3.0], [4.0, 2.0, 6.0], [1.0, 5.0, 2.0]])
    return [
        *inv_samples(dtype),
        Sample((t(sing),), name="singular (rank 2)"),
        Sample((t(np.zeros((2, 2))),), name="zero"),
        Sample(
            (t(np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]])),),
            {"check_errors": True},
            name="singular in batch, check_errors",
        ),
        Sample((t(np.eye(2)),), {"check_errors": True}, name="check_errors, regular"),
    ]


def solve_ex_samples(dtype: str) -> list[Sample]:
    n = _rng(1).standard_normal
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    return [
        *solve_samples(dtype),
        Sample((t(np.stack([np.eye(2), sing])), t(n((2, 2)))), name="singular in batch"),
        Sample((t(sing), t(n((2, 2)))), {"check_errors": True}, name="check_errors"),
        Sample((t(sing), t(n((2,)))), {"left": False}, name="vector with left=False"),
    ]


def cholesky_ex_samples(dtype: str) -> list[Sample]:
    x = _rng(2).standard_normal((5, 5))
    P = x @ x.T
    out = cholesky_samples(dtype)
    for i, v in ((2, -1.0), (3, 0.1), (0, -2.0)):
        Q = P.copy()
        Q[i, i] = v
        out.append(Sample((t(Q),), name=f"partial factorization, minor {i + 1}"))
        out.append(Sample((t(np.stack([P, Q])),), {"upper": True}, name=f"upper, batch {i + 1}"))
    out.append(Sample((t(P.copy()),), {"check_errors": True}, name="check_errors, regular"))
    out.append(
        Sample((t(np.array([[1.0, 2.0], [2.0, 1.0]])),), {"check_errors": True}, name="check")
    )
    return out


def _dot_samples(dtype: str) -> list[Sample]:
    # a lone -0 product: torch's dot sums from +0 (found by the fuzzer); bool is torch's error
    return [
        _pair((3,), (3,), "plain"),
        Sample((tensor_arg(np.array([0.0])), tensor_arg(np.array([-1.0]))), name="signed zero"),
        Sample(
            (tensor_arg(np.array([True]), False), tensor_arg(np.array([True]), False)),
            name="bool (error)",
        ),
    ]


register(
    OpEntry(
        "matmul", lambda T, a, b: T.matmul(a, b), matmul_samples, covers=("Tensor.__matmul__",)
    ),
    OpEntry(
        "matmul (1-d @ 2-d)",
        lambda T, a, b: T.matmul(a, b),
        lambda d: [_pair((3,), (3, 4), "1-d @ 2-d")],
    ),
    OpEntry("mm", lambda T, a, b: T.mm(a, b), lambda d: [_pair((2, 3), (3, 4), "2-d")]),
    OpEntry("mv", lambda T, a, b: T.mv(a, b), lambda d: [_pair((2, 3), (3,), "plain")]),
    OpEntry("dot", lambda T, a, b: T.dot(a, b), _dot_samples),
    OpEntry(  # the sign of a zero result shows through 1/x (inf against -inf)
        "dot (sign of zero)",
        lambda T, a, b: T.dot(a, b).detach().reciprocal(),
        lambda d: [_dot_samples(d)[1]],
    ),
    OpEntry("bmm", lambda T, a, b: T.bmm(a, b), lambda d: [_pair((2, 2, 3), (2, 3, 4), "3-d")]),
    OpEntry("outer", lambda T, a, b: T.outer(a, b), outer_samples, covers=("ger",)),
    OpEntry("addmm", lambda T, *a, **k: T.addmm(*a, **k), addmm_samples),
    OpEntry("addmv", lambda T, *a, **k: T.addmv(*a, **k), addmv_samples),
    OpEntry("baddbmm", lambda T, *a, **k: T.baddbmm(*a, **k), baddbmm_samples),
    OpEntry("addbmm", lambda T, *a, **k: T.addbmm(*a, **k), addbmm_samples),
    OpEntry(
        "Tensor.addmm_",
        lambda T, a, b, c, **k: a.clone().addmm_(b, c, **k),
        addmm_samples,
    ),
    OpEntry("trace", lambda T, a: T.trace(a), trace_samples),
    OpEntry("kron", lambda T, a, b: T.kron(a, b), kron_samples),
    OpEntry("tensordot", lambda T, a, b, **k: T.tensordot(a, b, **k), tensordot_samples),
    OpEntry("einsum", lambda T, eq, *ops: T.einsum(eq, *ops), einsum_samples),
    OpEntry(
        "einsum (ellipsis broadcast)",
        lambda T, eq, *ops: T.einsum(eq, *ops),
        lambda d: [
            Sample(
                (
                    "...ij,...jk->...ik",
                    t(_rng().standard_normal((2, 1, 2, 3))),
                    t(_rng().standard_normal((5, 3, 4))),
                ),
                name="broadcast batch",
            )
        ],
    ),
    OpEntry("linalg.inv", lambda T, a: T.linalg.inv(a), inv_samples, covers=("inverse",)),
    OpEntry("linalg.det", lambda T, a: T.linalg.det(a), det_samples, covers=("det",)),
    OpEntry("linalg.slogdet", _slogdet, square_samples, covers=("slogdet",)),
    OpEntry("logdet", lambda T, a: T.logdet(a), square_samples),
    OpEntry("linalg.solve", lambda T, a, b, **k: T.linalg.solve(a, b, **k), solve_samples),
    OpEntry("linalg.inv_ex", _ex("inv_ex"), inv_ex_samples),
    OpEntry("linalg.solve_ex", _ex("solve_ex"), solve_ex_samples),
    OpEntry(
        "linalg.cholesky_ex",
        _ex("cholesky_ex"),
        cholesky_ex_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.cholesky",
        lambda T, a, **k: T.linalg.cholesky(a, **k),
        cholesky_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "cholesky",
        lambda T, a, **k: T.cholesky(a, **k),
        spd_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.qr",
        lambda T, a, *m: tuple(T.linalg.qr(a, *m)),
        qr_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.svd",
        _svd_invariant,
        svd_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.svdvals",
        lambda T, a: T.linalg.svdvals(a),
        rect_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "svd",
        _svd_legacy_invariant,
        rect_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.eigh",
        _eigh_invariant,
        eigh_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.eigvalsh",
        lambda T, a, **k: T.linalg.eigvalsh(a, **k),
        eigh_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
    ),
    OpEntry(
        "linalg.matrix_norm",
        lambda T, a, **k: T.linalg.matrix_norm(a, **k),
        matrix_norm_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        xfails=NORM_XFAILS,
    ),
    OpEntry(
        "linalg.norm",
        lambda T, a, **k: T.linalg.norm(a, **k),
        norm_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason=DECOMP_REASON,
        xfails=NORM_XFAILS,
    ),
    OpEntry(
        "linalg.matrix_power",
        lambda T, a, k: T.linalg.matrix_power(a, k),
        matrix_power_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason="float32 products of up to six matrices accumulate rounding",
    ),
    OpEntry("linalg.cross", lambda T, a, b, **k: T.linalg.cross(a, b, **k), cross_samples),
    OpEntry(
        "matrix_power",
        lambda T, a, k: (T.matrix_power(a, k), a.matrix_power(k)),
        matrix_power_samples,
        tolerances=DECOMP_TOL,
        tolerance_reason="float32 products of up to six matrices accumulate rounding",
        covers=("matrix_power", "Tensor.matrix_power"),
    ),
    OpEntry(
        "cross",
        lambda T, a, b, **k: (T.cross(a, b, **k), a.cross(b, **k)),
        lambda dt: [s for s in cross_samples(dt) if s.kwargs] + _cross_dim_samples(dt),
        covers=("cross", "Tensor.cross"),
    ),
)
