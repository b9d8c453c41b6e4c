"""shadowgrad.func transforms on functions with known derivatives (float64)."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad import func as F
from shadowgrad.autograd.functional import hessian as ref_hessian
from shadowgrad.autograd.functional import jacobian as ref_jacobian

A = np.array([0.5, -1.0, 2.0])


def x64() -> sg.Tensor:
    return sg.tensor(A)


def cubic(x: sg.Tensor) -> sg.Tensor:
    return (x**3).sum()


def vec_fn(x: sg.Tensor) -> sg.Tensor:
    return sg.stack([x.exp().sum(), (x * x[0]).sum(), x.sin().prod()])


def test_grad_and_value_of_known_function() -> None:
    x = x64()
    g, v = F.grad_and_value(cubic)(x)
    np.testing.assert_allclose(g.numpy(), 3 * A**2)
    assert v.item() == pytest.approx((A**3).sum())
    np.testing.assert_allclose(F.grad(cubic)(x).numpy(), 3 * A**2)
    assert not x.requires_grad and not g.requires_grad and x.tolist() == A.tolist()


def test_grad_argnums_and_has_aux() -> None:
    x, y = x64(), sg.tensor([1.0, 2.0, 3.0], dtype=sg.float64)
    gx, gy = F.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(gy.numpy(), A)
    gy2 = F.grad(lambda a, b: (a * b).sum(), argnums=-1)(x, y)
    np.testing.assert_allclose(gy2.numpy(), A)
    g, aux = F.grad(lambda a: ((a * 2).sum(), a * 3), has_aux=True)(x)
    np.testing.assert_allclose(g.numpy(), [2.0] * 3)
    np.testing.assert_allclose(aux.numpy(), 3 * A)
    assert not aux.requires_grad
    assert F.grad(lambda a: (a * 0).sum().detach())(x).tolist() == [0.0] * 3


def test_grad_errors() -> None:
    x = x64()
    with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a scalar Tensor"):
        F.grad(lambda a: a * 2)(x)
    with pytest.raises(RuntimeError, match="argnums must be non-empty"):
        F.grad(cubic, argnums=())(x)
    with pytest.raises(RuntimeError, match="Got argnum=1, but only 1 positional inputs"):
        F.grad(cubic, argnums=1)(x)


def test_vjp_and_jvp_match_the_jacobian() -> None:
    x = x64()
    J = ref_jacobian(vec_fn, x).numpy()
    u = sg.tensor([1.0, -2.0, 0.5], dtype=sg.float64)
    out, vjp_fn = F.vjp(vec_fn, x)
    np.testing.assert_allclose(out.numpy(), vec_fn(x).numpy())
    (g,) = vjp_fn(u)
    np.testing.assert_allclose(g.numpy(), u.numpy() @ J)
    (g2,) = vjp_fn(u * 2)  # vjp_fn can be called again
    np.testing.assert_allclose(g2.numpy(), 2 * u.numpy() @ J)
    out2, jv = F.jvp(vec_fn, (x,), (u,))
    np.testing.assert_allclose(out2.numpy(), out.numpy())
    np.testing.assert_allclose(jv.numpy(), J @ u.numpy())
    assert not jv.requires_grad
    _, lin = F.linearize(vec_fn, x)
    np.testing.assert_allclose(lin(u).numpy(), J @ u.numpy())


def test_jacrev_jacfwd_hessian() -> None:
    x = x64()
    J = ref_jacobian(vec_fn, x).numpy()
    np.testing.assert_allclose(F.jacrev(vec_fn)(x).numpy(), J, rtol=1e-12)
    np.testing.assert_allclose(F.jacfwd(vec_fn)(x).numpy(), J, rtol=1e-12)
    f = lambda a: (a.exp() * a.sin()).sum() + (a[0] * a[1] * a[2])  # noqa: E731
    H = ref_hessian(f, x).numpy()
    np.testing.assert_allclose(F.hessian(f)(x).numpy(), H, rtol=1e-12)
    np.testing.assert_allclose(F.jacrev(F.jacrev(f))(x).numpy(), H, rtol=1e-12)
    np.testing.assert_allclose(F.jacrev(F.jacfwd(f))(x).numpy(), H, rtol=1e-12)
    assert not x.requires_grad


def test_jacobians_with_several_inputs_and_outputs() -> None:
    x, y = x64(), sg.tensor([1.0, 2.0], dtype=sg.float64)

    def f(a: sg.Tensor, b: sg.Tensor) -> tuple[sg.Tensor, sg.Tensor]:
        return a.unsqueeze(1) * b, a.sum() * b

    for jac in (F.jacrev, F.jacfwd):
        (jxa, jxb), (jya, jyb) = jac(f, argnums=(0, 1))(x, y)
        assert tuple(jxa.shape) == (3, 2, 3) and tuple(jxb.shape) == (3, 2, 2)
        np.testing.assert_allclose(jya.numpy(), np.outer([1.0, 2.0], np.ones(3)))
        np.testing.assert_allclose(jyb.numpy(), np.eye(2) * A.sum())


def test_nested_grad_gives_second_derivative() -> None:
    x = sg.tensor(1.5, dtype=sg.float64)
    d2 = F.grad(F.grad(lambda a: a**4))(x)
    assert d2.item() == pytest.approx(12 * 1.5**2)


def test_vmap_maps_over_the_chosen_dimension() -> None:
    x = sg.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    w = sg.tensor(np.linspace(-1, 1, 4))
    out = F.vmap(lambda row, v: (row * v).sin().sum(), in_dims=(0, None))(x, w)
    expected = np.sin(x.detach().numpy() * w.numpy()).sum(1)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    out.sum().backward()
    np.testing.assert_allclose(
        x.grad.numpy(), np.cos(x.detach().numpy() * w.numpy()) * w.numpy(), rtol=1e-12
    )
    cols = F.vmap(lambda c: c * 2, in_dims=1, out_dims=1)(x)
    np.testing.assert_array_equal(cols.detach().numpy(), x.detach().numpy() * 2)


def test_functional_call_swaps_and_restores() -> None:
    class Lin(sg.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weight = sg.nn.Parameter(sg.ones(2, dtype=sg.float64))

        def forward(self, x: sg.Tensor) -> sg.Tensor:
            return (self.weight * x).sum()

    m = Lin()
    w = sg.tensor([2.0, 3.0], dtype=sg.float64)
    x = sg.tensor([1.0, 1.0], dtype=sg.float64)
    assert F.functional_call(m, {"weight": w}, (x,)).item() == 5.0
    assert m.weight.tolist() == [1.0, 1.0] and isinstance(m.weight, sg.nn.Parameter)
    g = F.grad(lambda p: F.functional_call(m, {"weight": p}, (x * 2,)))(w)
    assert g.tolist() == [2.0, 2.0]
