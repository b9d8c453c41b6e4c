"""shadowgrad.autograd.explain: NaN provenance and explained in-place errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as torch
from shadowgrad.autograd.explain import ANOMALY_ONLY, explain_inplace, explain_nan, nan_hint

THIS = __file__


# --- explain_nan ----------------------------------------------------------------------------
def test_where_trap_names_sqrt_the_where_and_the_safe_rewrite() -> None:
    x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
    y = torch.where(x > 0, x.sqrt(), 0)
    r = explain_nan(y.sum())
    assert r and r.kind == "nan" and r.output_nr == 0
    assert r.node is y.grad_fn.next_functions[0][0]
    text = str(r)
    assert text.startswith("Function 'SqrtBackward0' returned nan values in its 0th output.\n")
    assert "0 * inf" in text and "is 0 at index (0,)," in text
    assert "the untaken branch of `torch.where`, WhereBackward0" in text
    assert "the derivative of sqrt there is inf (output value 0.0)" in text
    assert "torch.where(mask, torch.where(mask, x, 1).sqrt(), 0)" in text
    assert ANOMALY_ONLY in text


def test_the_suggested_rewrite_has_finite_gradients() -> None:
    x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
    mask = x > 0
    y = torch.where(mask, torch.where(mask, x, 1).sqrt(), 0)
    assert not explain_nan(y.sum())
    y.sum().backward()
    assert np.isfinite(x.grad.numpy()).all()
    assert x.grad.tolist() == [0.0, 0.5, 0.25]


def test_where_trap_with_log_in_float64() -> None:
    x = torch.tensor([[0.0, 2.0]], dtype=torch.float64, requires_grad=True)
    r = explain_nan(torch.where(x > 0, torch.log(x), x).sum())
    assert r.node.name() == "LogBackward0" and r.kind == "nan"
    assert "index (0, 0)," in str(r) and "WhereBackward0" in str(r)
    assert "torch.where(mask, torch.where(mask, x, 1).log(), 0)" in str(r)


def test_multiplication_by_zero_is_named_as_the_mask() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    r = explain_nan((x.sqrt() * 0).sum())
    assert "a multiplication by 0, MulBackward0" in str(r)


def test_infinite_derivative_without_masking_is_reported_as_inf() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    r = explain_nan(x.sqrt().sum())
    assert r.kind == "inf" and r.node.name() == "SqrtBackward0"
    assert "returned inf values in its 0th output." in str(r)
    assert "The derivative of sqrt is not finite at index (0,) (output value 0.0)" in str(r)


def test_nan_from_the_forward_pass_is_reported_as_such() -> None:
    x = torch.tensor([-1.0, 1.0], requires_grad=True)
    r = explain_nan((x * 2).sqrt().sum())  # sqrt(-2) is nan in the forward
    assert r.node.name() == "SqrtBackward0"
    assert "The forward output of Sqrt is already nan at index (0,)" in str(r)


def test_incoming_infinite_gradient_points_back_to_explain_nan() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    g = x.sqrt().grad_fn(torch.ones(2))  # [inf, 0.5]; a node of one input returns one tensor
    node = (x * 0.0).grad_fn
    outs = node(g)  # inf * 0 = nan at index 0 (and None for the scalar operand)
    assert np.isnan(outs[0].detach().numpy()[0])
    text = nan_hint(node, [g], outs, 0)
    assert (
        "The gradient flowing into MulBackward0 is already inf at index (0,); inf * 0 = nan" in text
    )
    assert "explain_nan(output)" in text


def test_finite_graph_and_leaf_output_report_nothing() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    r = explain_nan((x * x).sum())
    assert not r and str(r) == "All gradients are finite." and r.node is None
    assert repr(r) == "<NanReport: all gradients are finite>"
    assert not explain_nan(x)


def test_explain_nan_accumulates_nothing_and_keeps_the_graph() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = torch.where(x > 0, x.sqrt(), 0).sum()
    explain_nan(y)
    assert x.grad is None
    y.backward()  # the graph is still there
    assert np.isnan(x.grad.numpy()[0])


def test_explicit_gradient_for_a_non_scalar_output() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.sqrt()
    assert explain_nan(y, torch.ones(2)).kind == "inf"
    r = explain_nan(y, torch.tensor([0.0, 1.0]))  # 0 * inf at index 0
    assert r.kind == "nan" and "is 0 at index (0,)" in str(r)


@given(st.lists(st.sampled_from([0.0, 0.25, 1.0, 9.0]), min_size=1, max_size=6))
def test_where_trap_found_exactly_at_the_first_zero(values: list[float]) -> None:
    x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    r = explain_nan(torch.where(x > 0, x.sqrt(), 0).sum())
    if 0.0 not in values:
        assert not r
        return
    assert r.node.name() == "SqrtBackward0"
    zeros = values.count(0.0)
    more = f" and {zeros - 1} more" if zeros > 1 else ""
    assert f"is 0 at index ({values.index(0.0)},){more}," in str(r)


def test_anomaly_mode_adds_the_forward_source_line() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        y = torch.where(x > 0, torch.sqrt(x), 0)  # the line named below
    text = str(explain_nan(y.sum()))
    assert f'Sqrt was called at File "{THIS}"' in text
    assert "y = torch.where(x > 0, torch.sqrt(x), 0)  # the line named below" in text
    assert ANOMALY_ONLY not in text


def test_anomaly_trace_of_a_tensor_method_keeps_the_user_frame() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        y = x.sqrt()
    assert "y = x.sqrt()" in str(explain_nan(y.sum()))


# --- explain_inplace ------------------------------------------------------------------------
def _saved(node, name):
    return getattr(node, f"_raw_saved_{name}")


def test_inplace_relu_after_sigmoid() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    node = y.grad_fn
    saved = _saved(node, "result")
    y.relu_()
    text = explain_inplace(saved, node, y._version)
    assert text.startswith(
        "The saved tensor (float32, shape [2]) is the output of Sigmoid (SigmoidBackward0), "
        "saved for its backward at version 0; after 1 in-place change it is at version 1.\n"
    )
    assert ANOMALY_ONLY in text
    assert "Fix: use the out-of-place op" in text


def test_inplace_add_on_a_saved_leaf_input() -> None:
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    x = torch.ones(2, 3, dtype=torch.float64)
    y = w[:, None] * x
    node = y.grad_fn
    saved = _saved(node, "other")
    x += 1
    x += 1
    text = explain_inplace(saved, node, x._version)
    assert text.startswith(
        "The saved tensor (float64, shape [2, 3]) is the input `other` of Mul (MulBackward0), "
        "saved for its backward at version 0; after 2 in-place changes it is at version 2.\n"
    )
    assert "modified in place by" not in text  # x is a leaf: no node records the change


def test_inplace_op_recorded_by_autograd_is_named() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    y = b * b
    saved = _saved(y.grad_fn, "self")
    b.add_(1)
    text = explain_inplace(saved, y.grad_fn, b._version)
    assert "is the input `self` of Mul (MulBackward0)" in text
    assert "\n  It was modified in place by add_ (AddBackward0)\n" in text


def test_inplace_under_anomaly_mode_shows_both_source_lines() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        b = a * 1
        y = b * b  # saved here
        b.add_(1)  # modified here
    text = explain_inplace(_saved(y.grad_fn, "self"), y.grad_fn, b._version)
    assert f'Mul was called at File "{THIS}"' in text and "y = b * b  # saved here" in text
    assert "It was modified in place by add_ (AddBackward0) at File" in text
    assert "b.add_(1)  # modified here" in text
    assert ANOMALY_ONLY not in text


def test_inplace_without_a_node_and_with_a_recorded_site() -> None:
    x = torch.ones(3)
    y = torch.ones(3, requires_grad=True) * x
    saved = _saved(y.grad_fn, "other")
    x.mul_(2)
    text = explain_inplace(saved, None, x._version)
    assert text.startswith("The saved tensor (float32, shape [3]) was saved for its backward at")


def test_the_backward_error_keeps_torchs_message() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.relu_()
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value).startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2]], which is output 0 of Sigmoid, is at version 1; "
        "expected version 0 instead. Hint:"
    )


def test_the_backward_error_is_explained() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.relu_()
    with pytest.raises(RuntimeError, match="is the output of Sigmoid"):
        y.sum().backward()


def test_the_anomaly_nan_error_is_explained() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(True), pytest.warns(UserWarning):
        y = torch.where(x > 0, x.sqrt(), 0)
        with pytest.raises(RuntimeError, match=r"0th output\.\nThe NaN is 0 \* inf"):
            y.sum().backward()
