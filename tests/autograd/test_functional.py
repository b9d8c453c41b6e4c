"""autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp against closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd import functional as F

vecs = st.lists(st.floats(-2, 2), min_size=1, max_size=4)


def t(vals):
    return sg.tensor(vals, dtype=sg.float64)


@given(vecs)
def test_jacobian_and_hessian_of_cubes(vals):
    x = t(vals)
    jac = F.jacobian(lambda a: a**3, x)
    np.testing.assert_allclose(jac.numpy(), np.diag(3 * np.array(vals) ** 2))
    hes = F.hessian(lambda a: (a**3).sum(), x)
    np.testing.assert_allclose(hes.numpy(), np.diag(6 * np.array(vals)))
    assert not x.requires_grad and not jac.requires_grad


@given(vecs, st.integers(0, 2**31))
def test_vjp_jvp_hvp_vhp_agree_with_jacobian(vals, seed):
    x = t(vals)
    v = t(np.random.default_rng(seed).standard_normal(len(vals)).tolist())

    def f(a):
        return (a * a).sin()

    jac = F.jacobian(f, x).numpy()
    np.testing.assert_allclose(F.vjp(f, x, v)[1].numpy(), v.numpy() @ jac, atol=1e-12)
    np.testing.assert_allclose(F.jvp(f, x, v)[1].numpy(), jac @ v.numpy(), atol=1e-12)

    def s(a):
        return (a**4).sum()

    h = F.hessian(s, x).numpy()
    np.testing.assert_allclose(F.hvp(s, x, v)[1].numpy(), h @ v.numpy(), atol=1e-10)
    np.testing.assert_allclose(F.vhp(s, x, v)[1].numpy(), v.numpy() @ h, atol=1e-10)


def test_tuple_structure_and_create_graph():
    a, b = t([1.0, 2.0]), t([3.0])
    jac = F.jacobian(lambda a, b: (a * b, b.sum()), (a, b))
    assert isinstance(jac, tuple) and len(jac) == 2 and len(jac[0]) == 2
    assert jac[0][0].shape == (2, 2) and jac[0][1].shape == (2, 1) and jac[1][1].shape == (1,)
    x = t([1.0, 2.0]).requires_grad_()
    j = F.jacobian(lambda a: a**2, x, create_graph=True)
    assert j.requires_grad
    (g,) = sg.autograd.grad(j.sum(), x)
    np.testing.assert_allclose(g.numpy(), [2.0, 2.0])


def test_errors():
    x = t([1.0, 2.0])
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        F.jacobian(lambda a: a, [x])
    with pytest.raises(RuntimeError, match="does not require gradients"):
        F.jacobian(lambda a: sg.ones(2), x, strict=True)
    np.testing.assert_array_equal(F.jacobian(lambda a: sg.ones(2), x).numpy(), np.zeros((2, 2)))
    with pytest.raises(RuntimeError, match="should contain a single element"):
        F.hessian(lambda a: a, x)
    with pytest.raises(RuntimeError, match="v has invalid size"):
        F.vjp(lambda a: a, x, t([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match="The vector v can only be None"):
        F.jvp(lambda a: a, x)
    with pytest.raises(NotImplementedError, match="isonly implemented"):
        F.jacobian(lambda a: a, x, strategy="forward-mode")
