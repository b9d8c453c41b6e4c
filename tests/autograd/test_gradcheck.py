"""gradcheck / gradgradcheck: pass on correct grads, fail (with torch's layout) on wrong ones."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd.function import Function
from shadowgrad.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck


class HalfGrad(Function):
    """x*x with a backward that is off by a factor 2."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x


def x64(vals):
    return sg.tensor(vals, dtype=sg.float64, requires_grad=True)


@given(st.lists(st.floats(-3, 3), min_size=1, max_size=4), st.booleans())
def test_correct_functions_pass(vals, fast):
    x = x64(vals)
    assert gradcheck(lambda a: (a * a).tanh(), (x,), fast_mode=fast)
    assert gradgradcheck(lambda a: a * a * a, (x,), fast_mode=fast)


def test_slow_failure_message_layout():
    c = sg.tensor([1.0, 2.0], dtype=sg.float64)
    with pytest.raises(GradcheckError) as e:
        gradcheck(lambda c, x: HalfGrad.apply(x) * c, (c, x64([1.0, 2.0])))
    msg = str(e.value)
    # the index counts inputs that require grad (torch's convention)
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert "\nanalytical:tensor(" in msg
    assert msg.endswith(
        "The worst element: input 0 element 1, output 0 element 1: numerical 8, analytical 4 "
        "(off by 4)."
    )
    assert isinstance(e.value, RuntimeError)


def test_fast_failure_message_layout():
    with pytest.raises(GradcheckError) as e:
        gradcheck(HalfGrad.apply, (x64([1.0, 2.0]),), fast_mode=True)
    msg = str(e.value)
    assert "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876" in msg
    assert "The max per-element difference (slow mode) is: 2.0" in msg


def test_raise_exception_false_returns_false():
    assert gradcheck(HalfGrad.apply, (x64([1.0]),), raise_exception=False) is False


def test_gradgradcheck_detects_detached_backward():
    class Detached(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x.detach() * g

    assert gradcheck(Detached.apply, (x64([1.0, 2.0]),))
    for nc in (False, True):
        with pytest.raises(GradcheckError, match="Jacobian mismatch"):
            gradgradcheck(Detached.apply, (x64([1.0, 2.0]),), gen_non_contig_grad_outputs=nc)


def test_float32_warns_and_no_grad_input_raises():
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double"):
        gradcheck(lambda a: a * 2, (sg.tensor([1.0], requires_grad=True),), eps=1e-2, atol=1e-2)
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor"):
        gradcheck(lambda a: a * 2, (sg.tensor([1.0]),))
