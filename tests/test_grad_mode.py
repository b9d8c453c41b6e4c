"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode; thread-locality."""

from __future__ import annotations

import threading

import pytest

import shadowgrad as sg


def test_no_grad_context_and_restore_after_exception() -> None:
    x = sg.ones(2, requires_grad=True)
    with sg.no_grad():
        y = x * 2
        assert not sg.is_grad_enabled()
    assert sg.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    with pytest.raises(ValueError), sg.no_grad():
        raise ValueError
    assert sg.is_grad_enabled()


def test_no_grad_decorator_forms() -> None:
    @sg.no_grad()
    def f() -> bool:
        return sg.is_grad_enabled()

    @sg.no_grad
    def g() -> bool:
        return sg.is_grad_enabled()

    @sg.no_grad()
    def gen():  # type: ignore[no-untyped-def]
        yield sg.is_grad_enabled()
        yield sg.is_grad_enabled()

    assert f() is False
    assert g() is False
    assert list(gen()) == [False, False]
    assert sg.is_grad_enabled()
    assert sg.autograd.no_grad is sg.no_grad


def test_enable_grad_inside_no_grad() -> None:
    x = sg.ones(1, requires_grad=True)
    with sg.no_grad(), sg.enable_grad():
        assert (x * 2).requires_grad

    @sg.enable_grad()
    def f() -> bool:
        return sg.is_grad_enabled()

    with sg.no_grad():
        assert f() is True


def test_set_grad_enabled_call_context_and_errors() -> None:
    sg.set_grad_enabled(False)
    assert not sg.is_grad_enabled()
    sg.set_grad_enabled(True)
    with sg.set_grad_enabled(False):
        assert not sg.is_grad_enabled()
    assert sg.is_grad_enabled()
    with sg.no_grad():
        with sg.set_grad_enabled(True):
            assert sg.is_grad_enabled()
        assert not sg.is_grad_enabled()
    assert repr(sg.set_grad_enabled(True)) == (
        "torch.autograd.grad_mode.set_grad_enabled(mode=True)"
    )
    with pytest.raises(TypeError) as e:
        sg.set_grad_enabled(1)  # type: ignore[arg-type]
    assert str(e.value) == (
        "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not int"
    )


def test_grad_mode_is_thread_local_and_new_threads_start_enabled() -> None:
    seen: dict[str, bool] = {}

    def worker() -> None:
        seen["start"] = sg.is_grad_enabled()
        sg.set_grad_enabled(False)
        seen["after"] = sg.is_grad_enabled()

    with sg.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen == {"start": True, "after": False}
    assert sg.is_grad_enabled()


def test_inference_mode_tensors() -> None:
    with sg.inference_mode():
        assert not sg.is_grad_enabled()
        assert sg.is_inference_mode_enabled()
        t = sg.ones(2)
        r = sg.ones(2, requires_grad=True)
    assert t.is_inference() and not t.requires_grad
    assert r.is_inference() and r.requires_grad
    with sg.no_grad():
        n = sg.ones(2)
    assert not n.is_inference()
    assert sg.is_grad_enabled() and not sg.is_inference_mode_enabled()


def test_inference_tensor_errors_outside_the_mode() -> None:
    with sg.inference_mode():
        i = sg.ones(2)
    x = sg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        x * i
    with pytest.raises(RuntimeError) as e:
        i.add_(1)
    assert str(e.value).startswith(
        "Inplace update to inference tensor outside InferenceMode is not allowed.You can make"
    )
    with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor"):
        i.requires_grad_()
    with pytest.raises(RuntimeError, match=r"Inference tensors do not track version counter\."):
        i._version  # noqa: B018
    assert not i.clone().is_inference()


def test_inference_mode_false_and_decorator() -> None:
    with sg.inference_mode(), sg.inference_mode(False):
        assert sg.is_grad_enabled()
        assert not sg.is_inference_mode_enabled()

    @sg.inference_mode()
    def f() -> bool:
        return sg.is_inference_mode_enabled()

    assert f() is True


def test_backward_inside_no_grad_runs_an_earlier_graph() -> None:
    x = sg.ones(2, requires_grad=True)
    y = (x * x).sum()
    with sg.no_grad():
        y.backward()
        with pytest.raises(RuntimeError, match="does not require grad"):
            (x * x).sum().backward()
    assert x.grad is not None


def test_in_place_update_of_leaf_under_no_grad_is_allowed() -> None:
    w = sg.ones(2, requires_grad=True)
    with sg.no_grad():
        w.sub_(0.5)
    assert w.is_leaf and w.grad_fn is None and w._version == 1
