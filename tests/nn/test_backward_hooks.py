"""Module full backward hooks and pre-hooks, checked without torch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import shadowgrad as sg
import shadowgrad.nn as nn


def _lin():
    m = nn.Linear(3, 2)
    with sg.no_grad():
        m.weight.copy_(sg.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]))
        m.bias.zero_()
    return m


def test_hooks_see_module_grads_and_may_replace_them():
    m = _lin()
    seen = []
    m.register_full_backward_pre_hook(lambda mod, go: seen.append("pre") or (go[0] * 2,))

    def hook(mod, gi, go):
        seen.append(("hook", gi[0].tolist(), go[0].tolist()))
        return (gi[0] + 1,)

    m.register_full_backward_hook(hook)
    x = sg.ones(1, 3, requires_grad=True)
    y = m(x)
    assert type(y.grad_fn).__name__ == "BackwardHookFunctionBackward"
    y.sum().backward()
    # grad_output doubled by the pre-hook: grad_input = 2 * (1, 1) @ W
    assert seen == ["pre", ("hook", [[0.0, 5.0, 10.0]], [[2.0, 2.0]])]
    np.testing.assert_allclose(x.grad.numpy(), [[1.0, 6.0, 11.0]])
    np.testing.assert_allclose(m.weight.grad.numpy(), np.full((2, 3), 2.0))


def test_without_input_grad_hook_gets_none_and_warns():
    m = _lin()
    got = []
    m.register_full_backward_hook(lambda mod, gi, go: got.append(gi))
    with pytest.warns(UserWarning, match="Full backward hook is firing"):
        m(sg.ones(1, 3)).sum().backward()
    assert got == [(None,)]
    assert m.weight.grad is not None


def test_no_hooks_fire_under_no_grad_and_handles_remove():
    m = _lin()
    calls = []
    h = m.register_full_backward_hook(lambda *a: calls.append(1))
    with sg.no_grad():
        assert m(sg.ones(1, 3, requires_grad=True)).grad_fn is None
    h.remove()
    m(sg.ones(1, 3, requires_grad=True)).sum().backward()
    assert calls == []


def test_mixing_legacy_and_full_hooks_raises():
    m = _lin()
    m.register_full_backward_hook(lambda *a: None)
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        m.register_backward_hook(lambda *a: None)


def test_legacy_hook_warns_for_composite_forward():
    seq = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    calls = []
    seq.register_backward_hook(lambda m, gi, go: calls.append(len(go)))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        seq(sg.ones(1, 3, requires_grad=True)).sum().backward()
    assert calls == [1]
    assert [w.category for w in rec] == [FutureWarning]


def test_backward_hook_gradients_are_unchanged_by_identity_hooks():
    # an identity hook must not change any gradient (the wrapper Function is an identity)
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).double()
    x = sg.tensor(np.random.default_rng(0).standard_normal((5, 3)), requires_grad=True)
    net(x).sum().backward()
    ref = [p.grad.numpy().copy() for p in net.parameters()] + [x.grad.numpy().copy()]
    net.zero_grad()
    x.grad = None
    for mod in net:
        mod.register_full_backward_hook(lambda m, gi, go: None)
        mod.register_full_backward_pre_hook(lambda m, go: None)
    net(x).sum().backward()
    got = [p.grad.numpy() for p in net.parameters()] + [x.grad.numpy()]
    for a, b in zip(got, ref, strict=True):
        np.testing.assert_array_equal(a, b)
