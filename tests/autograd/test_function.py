"""Custom autograd.Function: ctx API, node, grad validation, once_differentiable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd.function import Function, once_differentiable
from shadowgrad.autograd.gradcheck import gradcheck, gradgradcheck


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * x * g


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y


@given(st.lists(st.floats(-2, 2), min_size=1, max_size=5))
def test_custom_function_passes_gradcheck_and_gradgradcheck(vals):
    x = sg.tensor(vals, dtype=sg.float64, requires_grad=True)
    assert gradcheck(Cube.apply, (x,))
    assert gradgradcheck(Cube.apply, (x,))


def test_ctx_is_the_node_and_class_is_generated():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = Exp.apply(x)
    assert type(y.grad_fn) is Exp._backward_cls
    assert y.grad_fn.name() == "ExpBackward"
    assert isinstance(y.grad_fn, sg.autograd.graph.Node)
    assert y.grad_fn.next_functions[0][0] is x._edge()[0]


def test_saved_output_holds_no_reference_cycle():
    import gc
    import weakref

    gc.disable()
    try:
        x = sg.tensor([1.0], requires_grad=True)
        y = Exp.apply(x)
        ref = weakref.ref(y.grad_fn)
        del y
        assert ref() is None
    finally:
        gc.enable()


def test_saved_tensors_after_free_raise():
    x = sg.tensor([1.0], requires_grad=True)
    y = Exp.apply(x)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = y.grad_fn.saved_tensors


def test_saved_input_modified_in_place_raises():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = Cube.apply(h)
    h.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_wrong_grad_count_shape_and_type():
    def make(ret):
        class Bad(Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return ret(g)

        return Bad

    x = sg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"incorrect number of gradients \(expected 1, got 2"):
        make(lambda g: (g, g)).apply(x).sum().backward()
    with pytest.raises(RuntimeError, match=r"got \[3\] but expected shape compatible with \[2\]"):
        make(lambda g: sg.ones(3)).apply(x).sum().backward()
    with pytest.raises(RuntimeError, match=r"expected Variable or None \(got float\)"):
        make(lambda g: 1.0).apply(x).sum().backward()
    make(lambda g: (sg.ones(1, 2, dtype=sg.float64), None)).apply(x).sum().backward()
    assert x.grad.dtype is sg.float32
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])


def test_materialize_and_non_differentiable():
    seen = []

    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            idx = sg.tensor([0, 1])
            ctx.mark_non_differentiable(idx)
            return x * 2, idx

        @staticmethod
        def backward(ctx, g, gi):
            seen.append(gi)
            return g * 2

    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y, idx = Two.apply(x)
    assert not idx.requires_grad and idx.grad_fn is None
    y.sum().backward()
    np.testing.assert_array_equal(seen[0].numpy(), [0, 0])
    assert seen[0].dtype is sg.int64


def test_once_differentiable_blocks_double_backward():
    class Od(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            return g * 2

    x = sg.tensor([1.0], requires_grad=True)
    gout = sg.ones(1, requires_grad=True)
    (g,) = sg.autograd.grad(Od.apply(x), x, gout, create_graph=True)
    assert g.grad_fn.name() == "torch::autograd::Error"
    with pytest.raises(RuntimeError, match="once_differentiable"):
        g.sum().backward()


def test_mark_dirty_bumps_version_and_rebases():
    class AddOne(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = sg.tensor([1.0], requires_grad=True)
    h = x * 3
    out = AddOne.apply(h)
    # forward bumped it once (add_), mark_dirty once more, as in torch
    assert out is h and h._version == 2 and h.grad_fn.name() == "AddOneBackward"
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0])
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad has been used"):
        AddOne.apply(x)


def test_returned_input_is_a_new_view():
    class Id(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return 2 * g

    x = sg.tensor([1.0], requires_grad=True)
    y = Id.apply(x)
    assert y is not x and y._is_view() and y._base is x and x.grad_fn is None
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0])


def test_legacy_instantiation_warns_then_raises():
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        f = Exp()
    with pytest.raises(RuntimeError, match="Legacy autograd function"):
        f(sg.ones(1))


def test_grad_mode_off_in_forward_and_restored():
    seen = []

    class G(Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(sg.is_grad_enabled())
            raise ValueError("boom")

    with pytest.raises(ValueError):
        G.apply(sg.ones(1, requires_grad=True))
    assert seen == [False] and sg.is_grad_enabled()


def test_function_returning_a_non_leaf_input_keeps_its_backward() -> None:
    # the returned input is a view of it; reading its grad_fn must not replace the custom node
    class Triple(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):  # type: ignore[no-untyped-def]
            return x

        @staticmethod
        def backward(ctx, g):  # type: ignore[no-untyped-def]
            return g * 3

    x = sg.ones(2, requires_grad=True)
    y = Triple.apply(x * 2)
    assert type(y.grad_fn).__name__ == "TripleBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 6.0])
