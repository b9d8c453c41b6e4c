"""In-place ops on views: CopySlices, AsStridedBackward0 and the view rebase (semantics 5.x)."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck
from shadowgrad.ops.views import refresh_view


def _x(*shape: int) -> sg.Tensor:
    return sg.tensor(np.random.default_rng(3).standard_normal(shape)).requires_grad_()


def test_inplace_on_view_rebases_onto_the_base() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[1:]
    v.mul_(10)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    assert y._version == v._version == 1
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 20.0, 20.0]


def _view_inplace_program(x: sg.Tensor, w: sg.Tensor) -> sg.Tensor:
    y = x * 1
    y.t()[1:, ::2].mul_(w)  # a strided view of a view
    y[0].exp_()  # an op whose backward reads its result
    return y


def test_copyslices_first_and_second_derivatives() -> None:
    assert gradcheck(_view_inplace_program, (_x(3, 2), _x(1, 2)))
    assert gradgradcheck(_view_inplace_program, (_x(3, 2), _x(1, 2)))


def test_setitem_first_and_second_derivatives() -> None:
    def f(x: sg.Tensor, v: sg.Tensor) -> sg.Tensor:
        y = x * 1
        y[1, 1:] = v * v
        y[[0, 1], [0, 2]] = v.flip(0)  # distinct indices: a duplicate's grad is ambiguous
        return y

    assert gradcheck(f, (_x(2, 3), _x(2)))
    assert gradgradcheck(f, (_x(2, 3), _x(2)))


def test_plain_base_gets_requires_grad_through_its_view() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = sg.zeros(3)
    view = base[0:2]
    view.copy_(x[0:2] * 3)
    assert base.requires_grad and not base.is_leaf
    assert base.grad_fn.name() == "torch::autograd::CopySlices"
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"
    base.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 0.0]


def test_multi_view_outputs_refuse_inplace() -> None:
    y = _x(3) * 2
    a, _, _ = y.unbind()
    with pytest.raises(RuntimeError, match="Output 0 of Unbind is a view"):
        a.mul_(2)
    with pytest.raises(RuntimeError, match="Output 1 of Split is a view"):
        y.chunk(3)[1].add_(1)


def test_view_of_leaf_refuses_inplace() -> None:
    x = _x(3)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0:2].mul_(2)


def test_refresh_view_regenerates_stale_views() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    old = y[:2]
    fresh = y[2:]
    refresh_view(fresh)
    assert type(fresh.grad_fn).__name__ == "SliceBackward0"  # nothing changed yet
    y[1:].mul_(10)
    refresh_view(old)
    assert type(old.grad_fn).__name__ == "AsStridedBackward0"
    old.sum().backward()
    assert x.grad.tolist() == [2.0, 20.0, 0.0]


def test_no_grad_inplace_on_view_is_not_recorded() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with sg.no_grad():
        y[1:].mul_(10)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert y.tolist() == [2.0, 40.0, 60.0]
