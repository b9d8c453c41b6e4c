"""Linear algebra: first and second derivatives by finite differences (float64 gradcheck and
gradgradcheck), values against numpy's definitions, shapes, errors and grad_fn names.

svd and eigh are checked through gauge-invariant functions of their outputs (the singular and
eigen vectors are defined up to sign), as torch's own tests do.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck

F64 = sg.float64


def leaf(a: np.ndarray) -> sg.Tensor:
    return sg.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def well(*shape: int, seed: int = 0) -> np.ndarray:
    r = np.random.default_rng(seed)
    return r.standard_normal(shape) + shape[-1] * np.eye(shape[-1])


def spd(*shape: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(shape)
    return x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])


def randn(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def check(fn, *arrays: np.ndarray, second: bool = True) -> None:
    inputs = tuple(leaf(a) for a in arrays)
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
    if second:
        assert gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


# --- products -------------------------------------------------------------------------------

MATMUL_SHAPES = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((3,), (3, 2)),
    ((2, 3), (3, 2)),
    ((2, 2, 3), (3,)),
    ((2, 2, 3), (3, 2)),
    ((3,), (2, 3, 2)),
    ((2, 3), (2, 3, 2)),
    ((2, 2, 3), (2, 3, 2)),
    ((2, 1, 2, 3), (3, 3, 2)),
    ((1, 2, 3), (3, 3, 2)),
    ((3, 2, 3), (1, 3, 2)),
]


@pytest.mark.parametrize(("sa", "sb"), MATMUL_SHAPES)
def test_matmul_values_and_derivatives_for_every_rank_pair(sa, sb) -> None:
    a, b = randn(*sa), randn(*sb, seed=1)
    np.testing.assert_allclose(sg.matmul(leaf(a), leaf(b)).detach().numpy(), np.matmul(a, b))
    check(sg.matmul, a, b)


def test_matmul_grad_fn_follows_torchs_decomposition() -> None:
    a2, a3, b3 = leaf(randn(2, 3)), leaf(randn(2, 2, 3)), leaf(randn(2, 3, 4))
    assert type((a3 @ b3).grad_fn).__name__ == "UnsafeViewBackward0"
    assert type((a3 @ b3).grad_fn._next[0][0]).__name__ == "BmmBackward0"
    m = leaf(randn(3, 4))
    assert type((a3 @ m).grad_fn._next[0][0]).__name__ == "MmBackward0"
    # a 2-d operand that requires grad against a batch: mm on the transposed batch, then a copy
    assert type((a2 @ b3).grad_fn).__name__ == "CloneBackward0"


def test_matmul_rejects_0d_and_mismatched_sizes() -> None:
    with pytest.raises(RuntimeError, match="at least 1D"):
        sg.matmul(sg.tensor(1.0), sg.ones(2))
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        sg.matmul(sg.ones(2, 3), sg.ones(2, 3))


@pytest.mark.parametrize(
    ("fn", "shapes"),
    [
        (lambda x, a, b: sg.addmm(x, a, b, beta=0.5, alpha=2.0), [(4,), (2, 3), (3, 4)]),
        (lambda x, a, v: sg.addmv(x, a, v, beta=2, alpha=-1), [(2,), (2, 3), (3,)]),
        (lambda x, a, b: sg.baddbmm(x, a, b, alpha=0.5), [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
        (lambda x, a, b: sg.addbmm(x, a, b, beta=3), [(2, 4), (3, 2, 3), (3, 3, 4)]),
        (sg.outer, [(3,), (4,)]),
        (sg.trace, [(3, 4)]),
        (sg.kron, [(2, 3), (2, 2)]),
        (lambda a, b: sg.tensordot(a, b, dims=([0, 2], [2, 0])), [(3, 2, 4), (4, 5, 3)]),
        (lambda a, b: sg.linalg.cross(a, b), [(2, 3), (1, 3)]),
    ],
)
def test_product_derivatives(fn, shapes) -> None:
    check(fn, *[randn(*s, seed=k) for k, s in enumerate(shapes)])


def test_addmm_values_and_beta_zero_ignores_input() -> None:
    x, a, b = randn(2, 4), randn(2, 3, seed=1), randn(3, 4, seed=2)
    r = sg.addmm(sg.tensor(x), sg.tensor(a), sg.tensor(b), beta=0.5, alpha=2.0)
    np.testing.assert_allclose(r.numpy(), 0.5 * x + 2 * a @ b)
    nan = sg.full((2, 4), float("nan"), dtype=F64)
    r = sg.addmm(nan, sg.tensor(a), sg.tensor(b), beta=0)
    np.testing.assert_allclose(r.numpy(), a @ b)
    assert type(sg.addmm(leaf(x), leaf(a), leaf(b)).grad_fn).__name__ == "AddmmBackward0"


def test_addmm_in_place_records_addmm() -> None:
    x = leaf(randn(2, 4)).clone()
    x.addmm_(leaf(randn(2, 3)), leaf(randn(3, 4)))
    assert type(x.grad_fn).__name__ == "AddmmBackward0"


def test_trace_of_integers_is_int64_and_rejects_vectors() -> None:
    assert sg.trace(sg.tensor([[1, 2], [3, 4]], dtype=sg.int32)).dtype is sg.int64
    with pytest.raises(RuntimeError, match="expected a matrix"):
        sg.trace(sg.ones(3))


EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ij->", [(2, 3)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("i,i->", [(3,), (3,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij,kj", [(2, 3), (4, 3)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (5, 3, 4)]),
    ("i...->...", [(3, 2, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("iij->j", [(3, 3, 2)]),
    ("ij,i->j", [(3, 1), (3,)]),
]


@pytest.mark.parametrize(("eq", "shapes"), EINSUM_CASES)
def test_einsum_matches_numpy_and_has_derivatives(eq, shapes) -> None:
    arrays = [randn(*s, seed=k) for k, s in enumerate(shapes)]
    got = sg.einsum(eq, *[sg.tensor(a) for a in arrays]).numpy()
    np.testing.assert_allclose(got, np.einsum(eq, *arrays), atol=1e-12)
    check(lambda *ts: sg.einsum(eq, *ts), *arrays)


def test_einsum_accepts_a_list_and_reports_bad_equations() -> None:
    a = sg.tensor(randn(2, 3))
    np.testing.assert_allclose(sg.einsum("ij->j", [a]).numpy(), randn(2, 3).sum(0))
    with pytest.raises(RuntimeError, match="fewer operands"):
        sg.einsum("ij,jk", a)
    with pytest.raises(RuntimeError, match="does not match the number of dimensions"):
        sg.einsum("ijk", a)
    with pytest.raises(RuntimeError, match="subscript j has size 2 for operand 1"):
        sg.einsum("ij,jk->ik", a, sg.ones(2, 2, dtype=F64))


@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=3),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(1, 3),
)
def test_batched_matmul_matches_numpy(batch, n, k, m) -> None:
    r = np.random.default_rng(len(batch) * 100 + n * 10 + k)
    a, b = r.standard_normal((*batch, n, k)), r.standard_normal((k, m))
    np.testing.assert_allclose(
        sg.matmul(sg.tensor(a), sg.tensor(b)).numpy(), np.matmul(a, b), atol=1e-12
    )
    np.testing.assert_allclose(
        sg.einsum("...ij,jk->...ik", sg.tensor(a), sg.tensor(b)).numpy(), a @ b, atol=1e-12
    )


# --- torch.linalg ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (1, 1)])
def test_inv_det_slogdet_derivatives(shape) -> None:
    A = well(*shape)
    check(sg.linalg.inv, A)
    check(sg.linalg.det, A)
    check(lambda a: sg.linalg.slogdet(a).logabsdet, A)
    np.testing.assert_allclose(sg.linalg.inv(sg.tensor(A)).numpy(), np.linalg.inv(A))
    np.testing.assert_allclose(sg.linalg.det(sg.tensor(A)).numpy(), np.linalg.det(A))


def test_det_gradient_at_a_singular_matrix_is_the_cofactor_matrix() -> None:
    # under create_graph, as torch's double-backward path (the SVD's product rule); a plain
    # backward takes torch's first-order lu_solve path: det is exactly 0, so is its gradient
    A = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, -1.0, 2.0]])
    x = leaf(A)
    (g,) = sg.autograd.grad(sg.linalg.det(x), x, create_graph=True)
    cof = np.array(
        [
            [np.linalg.det(np.delete(np.delete(A, i, 0), j, 1)) * (-1) ** (i + j) for j in range(3)]
            for i in range(3)
        ]
    )
    np.testing.assert_allclose(g.detach().numpy(), cof, atol=1e-12)
    sg.linalg.det(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 3)))
    # a batch holding both kinds takes both paths
    x = leaf(np.stack([A, well(3, 3)]))
    (g,) = sg.autograd.grad(sg.linalg.det(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy()[0], cof, atol=1e-12)


def test_singular_inverse_raises_linalg_error_naming_the_pivot() -> None:
    assert issubclass(sg.linalg.LinAlgError, RuntimeError)
    with pytest.raises(sg.linalg.LinAlgError, match="The diagonal element 2 is zero"):
        sg.linalg.inv(sg.tensor([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(sg.linalg.LinAlgError, match=r"\(Batch element 1\)"):
        sg.linalg.inv(sg.tensor(np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]])))
    with pytest.raises(RuntimeError, match="square matrices, but they are 2 by 3"):
        sg.linalg.det(sg.ones(2, 3))
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor"):
        sg.linalg.inv(sg.eye(2, dtype=sg.int64))


@pytest.mark.parametrize(
    ("sa", "sb", "left"),
    [
        ((3, 3), (3,), True),
        ((3, 3), (3, 2), True),
        ((2, 3, 3), (3, 2), True),
        ((2, 3, 3), (2, 3), True),
        ((3, 3), (2, 3), False),
    ],
)
def test_solve_values_and_derivatives(sa, sb, left) -> None:
    A, B = well(*sa), randn(*sb, seed=1)
    X = sg.linalg.solve(sg.tensor(A), sg.tensor(B), left=left).numpy()
    if left:
        vec = len(sb) == 1 or sb == sa[:-1]
        AX = (A @ X[..., None])[..., 0] if vec else A @ X
        np.testing.assert_allclose(AX, np.broadcast_to(B, AX.shape), atol=1e-12)
    else:
        np.testing.assert_allclose(X @ A, B, atol=1e-12)
    check(lambda a, b: sg.linalg.solve(a, b, left=left), A, B)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_values_and_derivatives(upper) -> None:
    A = spd(2, 3, 3)
    L = sg.linalg.cholesky(sg.tensor(A), upper=upper).numpy()
    np.testing.assert_allclose(
        np.swapaxes(L, -1, -2) @ L if upper else L @ np.swapaxes(L, -1, -2), A, atol=1e-12
    )
    # differentiate through a symmetric input, as torch's tests do
    check(lambda a: sg.linalg.cholesky(a @ a.mT + sg.eye(3, dtype=F64), upper=upper), randn(3, 3))


def test_cholesky_of_an_indefinite_matrix_names_the_failing_minor() -> None:
    with pytest.raises(sg.linalg.LinAlgError, match="leading minor of order 2"):
        sg.linalg.cholesky(sg.tensor([[1.0, 2.0], [2.0, 1.0]]))


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4), (2, 4, 3)])
def test_qr_values_and_derivatives(shape) -> None:
    A = randn(*shape)
    Q, R = sg.linalg.qr(sg.tensor(A))
    np.testing.assert_allclose(Q.numpy() @ R.numpy(), A, atol=1e-12)
    check(lambda a: tuple(sg.linalg.qr(a)), A)


def test_qr_mode_r_is_not_differentiable() -> None:
    x = leaf(randn(3, 3))
    Q, R = sg.linalg.qr(x, mode="r")
    assert Q.numel() == 0
    with pytest.raises(RuntimeError, match="depends on Q, which is not computed"):
        R.sum().backward()


def _svd_invariants(a: sg.Tensor, full: bool = False):
    U, S, Vh = sg.linalg.svd(a, full_matrices=full)
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    return S, U * U, Vh * Vh, U @ Vh


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4), (2, 3, 2)])
@pytest.mark.parametrize("full", [False, True])
def test_svd_values_and_gauge_invariant_derivatives(shape, full) -> None:
    A = randn(*shape)
    U, S, Vh = sg.linalg.svd(sg.tensor(A), full_matrices=full)
    k = S.shape[-1]
    rebuilt = (U.numpy()[..., :k] * S.numpy()[..., None, :]) @ Vh.numpy()[..., :k, :]
    np.testing.assert_allclose(rebuilt, A, atol=1e-12)
    check(lambda a: _svd_invariants(a, full), A)
    check(sg.linalg.svdvals, A)


def test_svdvals_gradient_at_repeated_singular_values_is_finite() -> None:
    # the svdvals path never divides by differences of singular values
    x = leaf(np.eye(3))
    sg.linalg.svdvals(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.eye(3))


def _eigh_invariants(a: sg.Tensor):
    L, V = sg.linalg.eigh(a)
    return L, V * V


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
def test_eigh_values_and_gauge_invariant_derivatives(shape) -> None:
    A = spd(*shape)
    L, V = sg.linalg.eigh(sg.tensor(A))
    rebuilt = (V.numpy() * L.numpy()[..., None, :]) @ np.swapaxes(V.numpy(), -1, -2)
    np.testing.assert_allclose(rebuilt, A, atol=1e-10)
    sym = lambda f: lambda x: f(x + x.mT)  # noqa: E731 - gradcheck a symmetric input
    check(sym(_eigh_invariants), A)
    check(sym(sg.linalg.eigvalsh), A)


def test_eigh_upper_reads_the_upper_triangle() -> None:
    A = np.triu(spd(3, 3)) + np.tril(np.ones((3, 3)), -1) * 100
    np.testing.assert_allclose(
        sg.linalg.eigvalsh(sg.tensor(A), UPLO="U").numpy(), np.linalg.eigvalsh(A, UPLO="U")
    )
    with pytest.raises(RuntimeError, match="Expected UPLO argument"):
        sg.linalg.eigh(sg.tensor(A), UPLO="X")


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2])
def test_matrix_norm_values_and_derivatives(ord) -> None:
    A = randn(2, 3, 4)
    got = sg.linalg.matrix_norm(sg.tensor(A), ord=ord).numpy()
    np.testing.assert_allclose(got, np.linalg.norm(A, ord=ord, axis=(-2, -1)))
    check(lambda a: sg.linalg.matrix_norm(a, ord=ord), A, second=ord != "fro")


@pytest.mark.parametrize("ord", [1, -1, np.inf, -np.inf])
def test_matrix_norm_max_abs_sum_orders(ord) -> None:
    A = randn(3, 4)
    got = sg.linalg.matrix_norm(sg.tensor(A), ord=ord, keepdim=True).numpy()
    np.testing.assert_allclose(got, np.linalg.norm(A, ord=ord, axis=(-2, -1), keepdims=True))
    check(lambda a: sg.linalg.matrix_norm(a, ord=ord), A, second=False)


def test_matrix_norm_rejects_unknown_orders() -> None:
    with pytest.raises(RuntimeError, match="Order 3 not supported"):
        sg.linalg.matrix_norm(sg.ones(2, 2), ord=3)
    with pytest.raises(RuntimeError, match="dims must be different"):
        sg.linalg.matrix_norm(sg.ones(2, 2), dim=(0, 0))


def test_linalg_norm_picks_vector_or_matrix_norm() -> None:
    A = randn(3, 4)
    np.testing.assert_allclose(sg.linalg.norm(sg.tensor(A)).numpy(), np.linalg.norm(A))
    np.testing.assert_allclose(
        sg.linalg.norm(sg.tensor(A), ord="nuc").numpy(), np.linalg.norm(A, "nuc")
    )
    np.testing.assert_allclose(sg.linalg.norm(sg.tensor(A), ord=1).numpy(), np.linalg.norm(A, 1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -2])
def test_matrix_power(n) -> None:
    A = well(3, 3) / 3
    got = sg.linalg.matrix_power(sg.tensor(A), n).numpy()
    np.testing.assert_allclose(got, np.linalg.matrix_power(A, n), atol=1e-12)
    if n:
        check(lambda a: sg.linalg.matrix_power(a, n), A)


def test_named_tuples_have_torchs_fields() -> None:
    A = sg.tensor(well(3, 3))
    assert sg.linalg.slogdet(A)._fields == ("sign", "logabsdet")
    assert sg.linalg.qr(A)._fields == ("Q", "R")
    assert sg.linalg.svd(A)._fields == ("U", "S", "Vh")
    assert sg.svd(A)._fields == ("U", "S", "V")
    assert sg.linalg.eigh(A + A.mT)._fields == ("eigenvalues", "eigenvectors")


def test_grad_fn_names_match_torch() -> None:
    A = leaf(well(3, 3))
    assert type(sg.linalg.inv(A).grad_fn).__name__ == "LinalgInvExBackward0"
    assert type(sg.inverse(A).grad_fn).__name__ == "LinalgInvExBackward0"
    assert type(sg.linalg.det(A).grad_fn).__name__ == "LinalgDetBackward0"
    assert type(sg.linalg.svdvals(A).grad_fn).__name__ == "LinalgSvdBackward0"
    assert type(sg.trace(A).grad_fn).__name__ == "TraceBackward0"
    assert type(sg.linalg.solve(A, A).grad_fn).__name__ == "LinalgSolveExBackward0"
    assert type(sg.outer(A[0], A[1]).grad_fn).__name__ == "MulBackward0"


@pytest.mark.parametrize(
    ("fn", "make"),
    [
        (lambda A: sg.linalg.inv_ex(A).inverse, well),
        (lambda A: sg.linalg.solve_ex(A, A[..., :1] * 2 + 1).result, well),
        (lambda A: sg.linalg.cholesky_ex((A + A.mT) / 2, upper=True).L, spd),
    ],
)
def test_ex_variants_gradcheck(fn, make):
    A = leaf(make(2, 3, 3))
    assert gradcheck(fn, (A,))
    assert gradgradcheck(fn, (A,))


def test_ex_variants_report_info_without_raising():
    sing = np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]])
    assert sg.linalg.inv_ex(sg.tensor(sing)).info.tolist() == [0, 2]
    assert sg.linalg.solve_ex(sg.tensor(sing), sg.ones(2, 2, dtype=F64)).info.tolist() == [0, 2]
    r = sg.linalg.cholesky_ex(sg.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=F64))
    assert r.info.dtype is sg.int32 and r.info.item() == 2
    np.testing.assert_allclose(r.L.numpy(), [[1.0, 0.0], [2.0, -3.0]])  # LAPACK's partial L
    with pytest.raises(sg.linalg.LinAlgError, match=r"linalg.inv_ex: \(Batch element 1\)"):
        sg.linalg.inv_ex(sg.tensor(sing), check_errors=True)
