"""Forward-mode AD: tangents equal J·v from reverse mode and the numerical directional
derivative (float64); dual-tensor bookkeeping (levels, views, repr, errors)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd import forward_ad as fwAD
from shadowgrad.autograd.functional import jacobian

FUNCS: dict[str, Callable[[Any], Any]] = {
    "poly": lambda x: x * x * 3 - x / 2 + 1,
    "exp_log": lambda x: (x.exp() + 1).log(),
    "tanh_sigmoid": lambda x: x.tanh() * sg.sigmoid(x),
    "relu": lambda x: sg.relu(x) * 2,
    "pow": lambda x: (x * x + 1) ** 1.5,
    "div": lambda x: x / (x * x + 1),
    "reductions": lambda x: x.sum(0) + x.mean(1).sum() * x[0],
    "views": lambda x: x.t().reshape(-1)[1:].unsqueeze(0).expand(2, 5) * 1.5,
    "permute_select": lambda x: x.unsqueeze(2).permute(2, 1, 0)[0].transpose(0, 1),
    "matmul": lambda x: x @ x.t() + sg.mv(x.t(), x[:, 0]).sum(),
    "bmm_dot": lambda x: sg.bmm(x.unsqueeze(0), x.t().unsqueeze(0))[0] * sg.dot(x[0], x[1]),
    "cat_stack": lambda x: sg.cat([x, sg.stack([x[0], x[1].exp()])], 1),
    "generic_rule": lambda x: sg.softmax(x.sin(), 1) * x.cumsum(1),  # no table rule: VJP of VJP
    "max_where": lambda x: sg.where(x > 0, x, x.abs() * 2).max(1)[0],
    "to_copy": lambda x: x.to(sg.float32).to(sg.float64) * 2,
}

X = np.array([[0.3, -1.2, 0.7], [1.1, 0.4, -0.5]])
V = np.array([[1.0, -0.5, 2.0], [0.25, 1.5, -1.0]])


def _jvp(f: Callable[[Any], Any], x: Any, v: Any) -> Any:
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x, v))
        p, t = fwAD.unpack_dual(out)
    return p, t


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_tangent_equals_reverse_mode_jacobian_times_v(name: str) -> None:
    f = FUNCS[name]
    x = sg.tensor(X)
    v = sg.tensor(V)
    p, t = _jvp(f, x, v)
    J = jacobian(f, x).numpy()
    expected = J.reshape(p.numel(), -1) @ V.reshape(-1)
    assert t is not None
    np.testing.assert_allclose(t.numpy().reshape(-1), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(p.numpy(), f(x).numpy())


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_tangent_equals_numerical_directional_derivative(name: str) -> None:
    f = FUNCS[name]
    if name in ("relu", "max_where"):
        pytest.skip("kinks: central differences straddle them")
    if name == "to_copy":
        pytest.skip("a float32 round trip: differences of 1e-6 are below float32 resolution")
    eps = 1e-6
    num = (f(sg.tensor(X + eps * V)).numpy() - f(sg.tensor(X - eps * V)).numpy()) / (2 * eps)
    _, t = _jvp(f, sg.tensor(X), sg.tensor(V))
    np.testing.assert_allclose(t.numpy(), num, rtol=1e-6, atol=1e-7)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(-3, 3), min_size=1, max_size=6),
    st.lists(st.floats(-3, 3), min_size=6, max_size=6),
)
def test_broadcast_binary_ops_match_jacobian(a: list[float], b: list[float]) -> None:
    x = sg.tensor(np.array(a))
    y = sg.tensor(np.array(b[: len(a)]) + 5.0)  # away from 0 for div
    tx = sg.ones(len(a), dtype=sg.float64) * 0.5
    for f in (
        lambda u: u.unsqueeze(1) * y.unsqueeze(0),
        lambda u: u.unsqueeze(1) + y,
        lambda u: y / (u.unsqueeze(1) ** 2 + 1),
        lambda u: sg.add(u, y, alpha=2) - sg.sub(y, u, alpha=3),
    ):
        _, t = _jvp(f, x, tx)
        J = jacobian(f, x).numpy()
        np.testing.assert_allclose(t.numpy(), J @ tx.numpy(), rtol=1e-10, atol=1e-12)


def test_kinks_follow_the_backward_subgradient() -> None:
    x = sg.tensor([0.0, -1.0, 1.0])
    _, t = _jvp(sg.relu, x, sg.ones(3))
    assert t.tolist() == [0.0, 0.0, 1.0]
    _, t = _jvp(lambda u: u.abs(), x, sg.ones(3))
    assert t.tolist() == [0.0, -1.0, 1.0]


def test_flag_is_off_outside_a_level_and_tangents_vanish() -> None:
    assert not fwAD._STATE.active
    x = sg.tensor([1.0, 2.0])
    with fwAD.dual_level() as level:
        assert level == 0 and fwAD._STATE.active
        d = fwAD.make_dual(x, sg.tensor([1.0, 0.0]))
        y = d * 2
        assert fwAD.unpack_dual(y).tangent.tolist() == [2.0, 0.0]
        assert repr(y) == "tensor([2., 4.], tangent=tensor([2., 0.]))"
    assert not fwAD._STATE.active
    assert fwAD.unpack_dual(y).tangent is None
    assert repr(y) == "tensor([2., 4.])"
    x2 = sg.tensor([1.0])
    assert x2.tolist() == [1.0] and fwAD.unpack_dual(x2 * 3).tangent is None


def test_dual_is_a_view_and_user_tensors_are_untouched() -> None:
    x = sg.tensor([1.0, 2.0])
    t = sg.tensor([3.0, 4.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert d._base is x and not d.requires_grad and d.is_leaf
        u = fwAD.unpack_dual(d)
        assert u.tangent is t and u.primal is not d and u.primal._is_view()
        assert fwAD.unpack_dual(x).tangent is None
        (d.exp() * d).sum()
    assert x.tolist() == [1.0, 2.0] and t.tolist() == [3.0, 4.0]


def test_errors() -> None:
    x = sg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(x, x)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match=r"Tensor is of size \[2\] while the given"):
            fwAD.make_dual(x, sg.ones(3))
        with pytest.raises(ValueError, match="primal to be floating point"):
            fwAD.make_dual(sg.tensor([1, 2]), x)
        with pytest.raises(RuntimeError, match="Nested forward mode AD"):
            fwAD.enter_dual_level()
    with pytest.raises(RuntimeError, match="Dual level must be a positive number"):
        fwAD.exit_dual_level()


def test_backward_of_dual_outputs_carries_tangents() -> None:
    x = sg.tensor([0.5, 2.0], dtype=sg.float64, requires_grad=True)
    v = sg.tensor([1.0, -0.5], dtype=sg.float64)
    for f, hess in (
        (lambda u: (u**3).sum(), lambda a: np.diag(6 * a)),
        (lambda u: u.exp().sum(), lambda a: np.diag(np.exp(a))),  # backward reads `result`
        (lambda u: u.tanh().sum(), lambda a: np.diag(-2 * np.tanh(a) / np.cosh(a) ** 2)),
    ):
        with fwAD.dual_level():
            (g,) = sg.autograd.grad(f(fwAD.make_dual(x, v)), x)
            t = fwAD.unpack_dual(g).tangent
        np.testing.assert_allclose(t.numpy(), hess(x.detach().numpy()) @ v.numpy(), rtol=1e-12)


def test_tangents_are_differentiable_by_backward_ad() -> None:
    x = sg.tensor([0.5, 2.0], dtype=sg.float64, requires_grad=True)
    v = sg.tensor([1.0, -0.5], dtype=sg.float64)
    with fwAD.dual_level():
        jv = fwAD.unpack_dual((fwAD.make_dual(x, v).sin() * 2).sum()).tangent
    (g,) = sg.autograd.grad(jv, x)  # d/dx (2 cos(x) . v) = -2 sin(x) v
    np.testing.assert_allclose(g.numpy(), -2 * np.sin([0.5, 2.0]) * v.numpy(), rtol=1e-12)
