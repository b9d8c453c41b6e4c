"""householder_product and ormqr: first and second derivatives and forward-mode tangents by
finite differences (float64 gradcheck, gradgradcheck, forward-mode gradcheck), and the
reconstruction of A from geqrf's compact form."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck


def compact(*shape: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    A = np.random.default_rng(seed).standard_normal(shape)
    a, tau = sg.geqrf(sg.tensor(A))
    return a.numpy(), tau.numpy()


def leaf(a: np.ndarray) -> sg.Tensor:
    return sg.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def check(fn, *arrays: np.ndarray) -> None:
    inputs = tuple(leaf(a) for a in arrays)
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
    assert gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
    assert gradcheck(
        fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, check_forward_ad=True, check_backward_ad=False
    )


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (2, 4, 2)])
def test_geqrf_reconstructs(shape):
    A = np.random.default_rng(1).standard_normal(shape)
    a, tau = sg.geqrf(sg.tensor(A))
    Q = sg.linalg.householder_product(a, tau)
    R = a.triu()[..., : shape[-1], :]
    np.testing.assert_allclose((Q @ R).numpy(), A, atol=1e-12)


@pytest.mark.parametrize("shape,k", [((4, 3), 3), ((4, 3), 2), ((3, 3), 3), ((2, 4, 2), 2)])
def test_householder_product_derivatives(shape, k):
    a, tau = compact(*shape)
    check(sg.linalg.householder_product, a, tau[..., :k])


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_derivatives(left, transpose):
    a, tau = compact(4, 3, seed=2)
    c = np.random.default_rng(3).standard_normal((4, 2) if left else (2, 4))
    check(lambda x, y, z: sg.ormqr(x, y, z, left, transpose), a, tau, c)


def test_geqrf_not_differentiable():
    a, _ = sg.geqrf(leaf(np.eye(3) + 1))
    assert a.grad_fn.name() == "GeqrfBackward0"
    with pytest.raises(NotImplementedError, match="the derivative for 'geqrf' is not"):
        a.sum().backward()


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
def test_eig_satisfies_definition(shape):
    A = np.random.default_rng(4).standard_normal(shape)
    L, V = sg.linalg.eig(sg.tensor(A))
    assert L.dtype == sg.complex128 and V.dtype == sg.complex128
    np.testing.assert_allclose(A @ V.numpy(), V.numpy() * L.numpy()[..., None, :], atol=1e-10)
    np.testing.assert_allclose(np.linalg.norm(V.numpy(), axis=-2), 1.0, atol=1e-12)
    np.testing.assert_allclose(sg.linalg.eigvals(sg.tensor(A)).numpy(), L.numpy())


def test_eig_backward_sum_of_eigenvalues_is_the_trace():
    A = leaf(np.random.default_rng(5).standard_normal((3, 3)))
    L, _ = sg.linalg.eig(A)
    assert L.grad_fn.name() == "LinalgEigBackward0"
    L.real.sum().backward()  # d tr(A) / dA = I; a real A keeps the gradient's real part
    assert A.grad.dtype == sg.float64
    np.testing.assert_allclose(A.grad.numpy(), np.eye(3), atol=1e-12)


def test_tensorinv_derivatives():
    A = np.random.default_rng(6).standard_normal((6, 6)) + 6 * np.eye(6)
    check(lambda x: sg.linalg.tensorinv(x, ind=2), A.reshape(2, 3, 6))
