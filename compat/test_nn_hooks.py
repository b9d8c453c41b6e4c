"""Module backward hooks against torch (semantics 8.15).

Each program is written once against the torch API, logs what the hooks see (as lists of
floats, None or names) and returns the log; torch's and shadowgrad's logs must be equal.
"""

from __future__ import annotations

import warnings

import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _g(gs):
    return [None if g is None else g.tolist() for g in gs]


def _linear(T):
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.copy_(T.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]))
        lin.bias.copy_(T.tensor([0.1, -0.2]))
    return lin


def _warnings(fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        fn()
    return [(w.category.__name__, str(w.message)) for w in rec]


def prog_pre_hook_runs_before_hook_and_both_replace(T):
    log = []
    lin = _linear(T)

    def pre(m, go):
        log.append(("pre", m is lin, _g(go)))
        return (go[0] * 2,)

    def hook(m, gi, go):
        log.append(("hook", m is lin, _g(gi), _g(go)))
        return (gi[0] * 10,)

    lin.register_full_backward_hook(hook)
    lin.register_full_backward_pre_hook(pre)
    x = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = lin(x)
    log.append(type(y.grad_fn).__name__)
    log.append([type(n[0]).__name__ for n in y.grad_fn.next_functions])
    (y * T.tensor([[1.0, -3.0]])).sum().backward()
    log.append(("grads", x.grad.tolist(), lin.weight.grad.tolist(), lin.bias.grad.tolist()))
    return log


def prog_no_input_requires_grad(T):
    log = []
    lin = _linear(T)
    lin.register_full_backward_pre_hook(lambda m, go: log.append(("pre", _g(go))))
    lin.register_full_backward_hook(lambda m, gi, go: log.append(("hook", _g(gi), _g(go))))
    x = T.tensor([[1.0, 2.0, 3.0]])
    log.append(_warnings(lambda: lin(x).sum().backward()))
    log.append(lin.weight.grad.tolist())
    return log


def prog_hook_must_return_none_without_input_grad(T):
    lin = _linear(T)
    lin.register_full_backward_hook(lambda m, gi, go: (T.ones(1),))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            lin(T.ones(1, 3)).sum().backward()
        except RuntimeError as e:
            return str(e)
    return "no error"


def prog_multiple_inputs_and_outputs(T):
    log = []

    class Two(T.nn.Module):
        def forward(self, a, k, b):
            return a * b, a + k, b.exp()

    m = Two()
    m.register_full_backward_pre_hook(lambda mod, go: log.append(("pre", _g(go))))

    def hook(mod, gi, go):
        log.append(("hook", _g(gi), _g(go)))

    m.register_full_backward_hook(hook)
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([0.5, -1.0], requires_grad=True)
    k = T.tensor([3.0, 4.0])  # does not require grad: its grad_input is None
    p, q, r = m(a, k, b)
    log.append([type(t.grad_fn).__name__ for t in (p, q, r)])
    (p.sum() + 2 * r.sum()).backward()  # q unused: its grad_output is None
    log.append((a.grad.tolist(), b.grad.tolist()))
    return log


def prog_hook_order_prepend_and_remove(T):
    log = []
    lin = _linear(T)
    lin.register_full_backward_hook(lambda m, gi, go: log.append("h1"))
    h2 = lin.register_full_backward_hook(lambda m, gi, go: log.append("h2"))
    lin.register_full_backward_hook(lambda m, gi, go: log.append("h0"), prepend=True)
    lin.register_full_backward_pre_hook(lambda m, go: log.append("p1"))
    lin.register_full_backward_pre_hook(lambda m, go: log.append("p0"), prepend=True)
    x = T.ones(1, 3, requires_grad=True)
    lin(x).sum().backward()
    h2.remove()
    log.append("--")
    lin(x).sum().backward()
    return log


def prog_nested_modules_order(T):
    log = []
    net = T.nn.Sequential(_linear(T), T.nn.Tanh(), T.nn.Linear(2, 1))
    for name, mod in net.named_children():
        mod.register_full_backward_pre_hook(lambda m, go, n=name: log.append(("pre", n)))
        mod.register_full_backward_hook(lambda m, gi, go, n=name: log.append(("hook", n)))
    net.register_full_backward_hook(lambda m, gi, go: log.append(("hook", "net")))
    x = T.ones(2, 3, requires_grad=True)
    net(x).sum().backward()
    return log


def prog_wrong_number_of_grads(T):
    out = []
    for kind in ("pre", "hook"):
        lin = _linear(T)
        if kind == "pre":
            lin.register_full_backward_pre_hook(lambda m, go: (go[0], go[0]))
        else:
            lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
        try:
            lin(T.ones(1, 3, requires_grad=True)).sum().backward()
        except RuntimeError as e:
            out.append(str(e))
    return out


def prog_hooks_with_autograd_grad_and_no_grad(T):
    log = []
    lin = _linear(T)
    lin.register_full_backward_hook(lambda m, gi, go: log.append(_g(gi)))
    x = T.tensor([[1.0, -1.0, 2.0]], requires_grad=True)
    (g,) = T.autograd.grad(lin(x).sum(), x)
    log.append(g.tolist())
    with T.no_grad():
        y = lin(x)
    log.append((y.requires_grad, y.grad_fn is None))
    return log


def prog_legacy_backward_hook(T):
    log = []
    lin = _linear(T)
    lin.register_backward_hook(lambda m, gi, go: log.append(("legacy", len(gi), len(go))))
    x = T.ones(1, 3, requires_grad=True)
    log.append(_warnings(lambda: lin(x).sum().backward()))
    seq = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.ReLU())
    seq.register_backward_hook(lambda m, gi, go: log.append(("seq", _g(go))))
    log.append(_warnings(lambda: seq(x).sum().backward()))
    for reg in ("register_full_backward_hook", "register_backward_hook"):
        m = T.nn.Linear(1, 1)
        other = "register_backward_hook" if reg == "register_full_backward_hook" else reg
        other = "register_full_backward_hook" if reg == "register_backward_hook" else other
        getattr(m, reg)(lambda *a: None)
        try:
            getattr(m, other)(lambda *a: None)
        except RuntimeError as e:
            log.append(str(e))
    return log


def prog_global_full_backward_hooks(T):
    log = []
    mod = T.nn.modules.module
    h1 = mod.register_module_full_backward_pre_hook(lambda m, go: log.append("gpre"))
    h2 = mod.register_module_full_backward_hook(lambda m, gi, go: log.append(type(m).__name__))
    try:
        lin = _linear(T)
        lin.register_full_backward_pre_hook(lambda m, go: log.append("pre"))
        lin(T.ones(1, 3, requires_grad=True)).sum().backward()
    finally:
        h1.remove()
        h2.remove()
    return log


PROGRAMS = [v for k, v in sorted(globals().items()) if k.startswith("prog_")]


@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__[5:])
def test_backward_hook_program_matches_torch(prog):
    assert prog(shadowgrad) == prog(torch)


def test_inplace_on_hooked_output_raises_like_torch():
    def prog(T):
        lin = _linear(T)
        lin.register_full_backward_hook(lambda m, gi, go: None)
        y = lin(T.ones(1, 3, requires_grad=True))
        try:
            y.add_(1)
        except RuntimeError as e:
            return str(e)
        return "no error"

    assert prog(shadowgrad) == prog(torch)
