"""scatter_reduce (gradients against finite differences, forward mode against reverse mode,
values against a loop) and scatter's deprecated `reduce=` forms (no derivative)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import forward_ad as fwAD
from shadowgrad.autograd import gradcheck, gradgradcheck
from shadowgrad.autograd.functional import jacobian

REDUCES = ("sum", "prod", "mean", "amax", "amin")
INDEX = [[0, 1, 2, 0], [1, 0, 2, 2], [2, 2, 2, 1]]


def _index() -> sg.Tensor:
    return sg.tensor(INDEX)


def _reference(
    x: np.ndarray, index: list[list[int]], src: np.ndarray, reduce: str, inc: bool
) -> Any:
    """Each target's reduction over its own value (if included) and the sources sent to it."""
    out = x.copy()
    for col in range(x.shape[1]):
        for row in range(x.shape[0]):
            vals = [src[k, col] for k in range(len(index)) if index[k][col] == row]
            if not vals:
                continue
            if inc:
                vals.append(x[row, col])
            if reduce == "sum":
                out[row, col] = sum(vals)
            elif reduce == "prod":
                out[row, col] = np.prod(vals)
            elif reduce == "mean":
                out[row, col] = sum(vals) / len(vals)
            elif reduce == "amax":
                out[row, col] = max(vals)
            else:
                out[row, col] = min(vals)
    return out


def _smooth(seed: int) -> tuple[np.ndarray, np.ndarray]:
    # distinct values away from 0: no ties, so every reduce is differentiable here
    r = np.random.default_rng(seed)
    return r.uniform(0.5, 2.0, (3, 4)), r.uniform(-2.0, -0.5, (3, 4)) * r.choice([-1, 1], (3, 4))


@pytest.mark.parametrize("inc", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_values_match_a_loop(reduce: str, inc: bool) -> None:
    x, src = _smooth(1)
    x[1, 1] = src[0, 1]  # a tie for amax/amin
    src[2, 3] = 0.0
    got = sg.tensor(x).scatter_reduce(0, _index(), sg.tensor(src), reduce, include_self=inc)
    np.testing.assert_allclose(got.numpy(), _reference(x, INDEX, src, reduce, inc), rtol=1e-12)


def test_integer_mean_rounds_down_and_bool_mean_is_not_implemented() -> None:
    r = sg.tensor([-1, 2, 3]).scatter_reduce(0, sg.tensor([0, 0]), sg.tensor([-2, -2]), "mean")
    assert r.dtype is sg.int64 and r.tolist() == [(-1 - 2 - 2) // 3, 2, 3]
    with pytest.raises(NotImplementedError, match="reduce_mean\" not implemented for 'Bool'"):
        sg.tensor([True]).scatter_reduce(0, sg.tensor([0]), sg.tensor([True]), "mean")


@pytest.mark.parametrize("inc", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_gradcheck_and_gradgradcheck(reduce: str, inc: bool) -> None:
    x, src = _smooth(2)
    xs = (sg.tensor(x, requires_grad=True), sg.tensor(src, requires_grad=True))

    def f(a: sg.Tensor, b: sg.Tensor) -> sg.Tensor:
        return a.scatter_reduce(0, _index(), b, reduce, include_self=inc)

    r = f(*xs)
    assert type(r.grad_fn).__name__ == "ScatterReduceBackward0"
    assert gradcheck(f, xs)
    assert gradgradcheck(f, xs)


def test_prod_gradients_at_zeros() -> None:
    # one zero among a slot's factors: the gradient of the zero is the product of the others
    x = sg.tensor([2.0, 0.0], dtype=sg.float64, requires_grad=True)
    s = sg.tensor([0.0, 3.0, 5.0], dtype=sg.float64, requires_grad=True)
    r = x.scatter_reduce(0, sg.tensor([0, 0, 1]), s, "prod")
    gx, gs = sg.autograd.grad(r.sum(), (x, s))
    assert gx.tolist() == [0.0 * 3.0, 5.0] and gs.tolist() == [2.0 * 3.0, 2.0 * 0.0, 0.0]
    assert gradcheck(lambda a, b: a.scatter_reduce(0, sg.tensor([0, 0, 1]), b, "prod"), (x, s))


def test_prod_double_backward_with_two_zeros_in_a_slot_raises() -> None:
    x = sg.tensor([2.0, 3.0], requires_grad=True)
    s = sg.tensor([0.0, 0.0, 1.0], requires_grad=True)
    r = x.scatter_reduce(0, sg.tensor([0, 0, 1]), s, "prod")
    _, gs = sg.autograd.grad(r.sum(), (x, s), create_graph=True)
    assert gs.tolist() == [0.0, 0.0, 3.0]  # first order is fine
    with pytest.raises(RuntimeError, match="Double backward is unsupported for src when >1 zeros"):
        sg.autograd.grad(gs.sum(), s)


def test_amax_shares_the_gradient_among_ties() -> None:
    x = sg.tensor([2.0, 1.0], dtype=sg.float64, requires_grad=True)
    s = sg.tensor([2.0, 2.0, 0.5], dtype=sg.float64, requires_grad=True)
    r = x.scatter_reduce(0, sg.tensor([0, 0, 1]), s, "amax")
    gx, gs = sg.autograd.grad(r.sum(), (x, s))
    assert gx.tolist() == [1 / 3, 1.0] and gs.tolist() == [1 / 3, 1 / 3, 0.0]


@pytest.mark.parametrize("inc", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin"])
def test_forward_mode_equals_the_jacobian(reduce: str, inc: bool) -> None:
    x, src = _smooth(3)
    tx, ts = _smooth(4)

    def f(a: sg.Tensor, b: sg.Tensor) -> sg.Tensor:
        return a.scatter_reduce(0, _index(), b, reduce, include_self=inc)

    jx, js = jacobian(f, (sg.tensor(x), sg.tensor(src)))
    expected = jx.numpy().reshape(12, 12) @ tx.reshape(-1) + js.numpy().reshape(
        12, 12
    ) @ ts.reshape(-1)
    with fwAD.dual_level():
        out = f(
            fwAD.make_dual(sg.tensor(x), sg.tensor(tx)),
            fwAD.make_dual(sg.tensor(src), sg.tensor(ts)),
        )
        tangent = fwAD.unpack_dual(out).tangent
    np.testing.assert_allclose(tangent.numpy().reshape(-1), expected, rtol=1e-10, atol=1e-12)


def test_prod_has_no_forward_tangent() -> None:
    # torch's scatter_reduce_jvp gives prod no tangent
    with fwAD.dual_level():
        d = fwAD.make_dual(sg.ones(3, dtype=sg.float64), sg.ones(3, dtype=sg.float64))
        r = d.scatter_reduce(0, sg.tensor([0]), sg.tensor([2.0], dtype=sg.float64), "prod")
        assert fwAD.unpack_dual(r).tangent is None


def test_errors() -> None:
    x, s = sg.ones(3), sg.ones(2)
    with pytest.raises(RuntimeError, match="must be either sum, prod, mean, amax or amin, got add"):
        x.scatter_reduce(0, sg.tensor([5]), s, "add")  # before the bounds check
    with pytest.raises(RuntimeError, match="index -1 is out of bounds for dimension 0 with size 3"):
        x.scatter_reduce(0, sg.tensor([-1]), s, "sum")
    with pytest.raises(TypeError, match=r"argument 'src' \(position 4\) must be Tensor"):
        sg.scatter_reduce(x, 0, sg.tensor([0]), 2.0, "sum")
    with pytest.raises(RuntimeError, match="same number of dimensions as self tensor"):
        sg.ones(2, 3).scatter_reduce(0, sg.tensor([0, 1]), sg.ones(2, 3), "sum")


def test_in_place_scatter_reduce_records_its_node() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y.scatter_reduce_(0, sg.tensor([0, 0]), sg.tensor([2.0, 5.0]), "prod")
    assert y.tolist() == [10.0, 2.0, 3.0] and type(y.grad_fn).__name__ == "ScatterReduceBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [10.0, 1.0, 1.0]


def test_gather_and_scatter_reject_negative_indices() -> None:
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        sg.zeros(3).gather(0, sg.tensor([-1]))
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        sg.zeros(3).scatter(0, sg.tensor([-1]), 1.0)


# --- scatter(..., reduce=) ------------------------------------------------------------------


def test_legacy_reduce_values() -> None:
    x, src = _smooth(5)
    for legacy, reduce in (("add", "sum"), ("multiply", "prod")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sg.tensor(x).scatter(0, _index(), sg.tensor(src), reduce=legacy)
        np.testing.assert_allclose(got.numpy(), _reference(x, INDEX, src, reduce, True))
    v = sg.tensor([1, 2, 3]).scatter(0, sg.tensor([0, 0]), 2.5, reduce="multiply")
    assert v.tolist() == [1 * 2 * 2, 2, 3]  # the value is cast to int64 first


def test_legacy_reduce_has_no_derivative() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    r = x.scatter(0, sg.tensor([0, 0]), 2.0, reduce="add")
    assert r.tolist() == [5.0, 2.0, 3.0] and type(r.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::scatter is not implemented"):
        r.sum().backward()
    y = x * 1
    y.scatter_(0, sg.tensor([1]), 3.0, reduce="multiply")
    with pytest.raises(RuntimeError, match="derivative for aten::scatter_ is not implemented"):
        y.sum().backward()
    with fwAD.dual_level():
        d = fwAD.make_dual(sg.ones(3), sg.ones(3))
        with pytest.raises(NotImplementedError, match="aten::scatter that does not support"):
            d.scatter(0, sg.tensor([0]), 2.0, reduce="add")


def test_legacy_reduce_errors() -> None:
    with pytest.raises(RuntimeError, match=r"reduce argument must be either add or multiply\."):
        sg.ones(3).scatter(0, sg.tensor([7]), 2.0, reduce="sum")
    with pytest.raises(TypeError, match="invalid combination of arguments"):
        sg.ones(3).scatter(0, sg.tensor([0]), sg.ones(1), reduce=None)
