"""Differential programs for `torch.utils.checkpoint` (checkpoint in both modes,
checkpoint_sequential), run on torch and shadowgrad.

Random streams differ between the engines, so dropout programs compare each engine with itself
(checkpointed versus plain, same seed) and report the agreement, which must match torch's.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from .program_set import ProgramSet
from .test_extension import assert_same, observe, raises, warns

torch = pytest.importorskip("torch")
import shadowgrad  # noqa: E402

_SET = ProgramSet()
PROGRAMS = _SET.programs
program = _SET.program

_W1 = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
_W2 = np.linspace(0.5, -0.7, 8).reshape(2, 4)
_X = np.array([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4]])


def ckpt(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".utils.checkpoint")


def _net(T: Any, dropout: float = 0.0) -> Any:
    lin1, lin2 = T.nn.Linear(3, 4), T.nn.Linear(4, 2)
    with T.no_grad():
        lin1.weight.copy_(T.tensor(_W1))
        lin1.bias.fill_(0.1)
        lin2.weight.copy_(T.tensor(_W2))
        lin2.bias.fill_(-0.2)
    return T.nn.Sequential(lin1, T.nn.Tanh(), T.nn.Dropout(dropout), lin2, T.nn.Sigmoid())


def _grads(T: Any, net: Any, x: Any, run: Any) -> Any:
    for p in net.parameters():
        p.grad = None
    x.grad = None
    y = run(net, x)
    y.pow(2).sum().backward()
    return {"y": y, "x.grad": x.grad, **{n: p.grad for n, p in net.named_parameters()}}


@program
def reentrant_matches_plain(T: Any) -> Any:
    C = ckpt(T)
    net = _net(T)
    x = T.tensor(_X, dtype=T.float32, requires_grad=True)
    y = C.checkpoint(net, x, use_reentrant=True)
    return {
        "plain": _grads(T, net, x, lambda n, a: n(a)),
        "ckpt": _grads(T, net, x, lambda n, a: C.checkpoint(n, a, use_reentrant=True)),
        "name": y.grad_fn.name(),
        "next": [type(e[0]).__name__ for e in y.grad_fn.next_functions],
    }


@program
def non_reentrant_matches_plain(T: Any) -> Any:
    C = ckpt(T)
    net = _net(T)
    x = T.tensor(_X, dtype=T.float32, requires_grad=True)
    y = C.checkpoint(net, x, use_reentrant=False)
    plain = net(x)
    (g,) = T.autograd.grad(y.sum(), x)
    return {
        "plain": _grads(T, net, x, lambda n, a: n(a)),
        "ckpt": _grads(T, net, x, lambda n, a: C.checkpoint(n, a, use_reentrant=False)),
        "name": y.grad_fn.name(),
        "same_names": y.grad_fn.name() == plain.grad_fn.name(),
        "next": [type(e[0]).__name__ for e in y.grad_fn.next_functions],
        "autograd.grad": g,
    }


@program
def second_backward(T: Any) -> Any:
    C = ckpt(T)
    out = {}
    for mode in (True, False):
        x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = C.checkpoint(lambda a: (a.sin() * a).exp(), x, use_reentrant=mode).sum()
        y.backward(retain_graph=True)
        y.backward()
        out[f"{mode}.twice"] = x.grad
        out[f"{mode}.third"] = raises(lambda y=y: y.backward())
        z = C.checkpoint(lambda a: (a * a).sum(), x, use_reentrant=mode)
        out[f"{mode}.grad"] = raises(lambda z=z, x=x: T.autograd.grad(z, x))
        w = C.checkpoint(lambda a: (a * a).sum(), x, use_reentrant=mode)
        out[f"{mode}.inputs"] = raises(lambda w=w, x=x: w.backward(inputs=[x]))
        out[f"{mode}.after_inputs"] = x.grad
    return out


@program
def inputs_kwargs_and_outputs(T: Any) -> Any:
    C = ckpt(T)
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = T.tensor([0.5, 0.5, 0.5])

    def h(a: Any, k: float, c: Any) -> Any:
        return a * k, (a + c).sum(), 5

    out = C.checkpoint(h, x, 3.0, b, use_reentrant=True)
    (out[0].sum() + out[1]).backward()
    lin = _net(T)
    r_no_rg = warns(lambda: C.checkpoint(lin, T.tensor(_X, dtype=T.float32), use_reentrant=True))
    n_no_rg = warns(lambda: C.checkpoint(lin, T.tensor(_X, dtype=T.float32), use_reentrant=False))
    kw = C.checkpoint(lambda a, scale: a * scale, x, use_reentrant=False, scale=2.0)
    with T.no_grad():
        under_no_grad = [
            warns(lambda m=m: C.checkpoint(lin, T.tensor(_X, dtype=T.float32), use_reentrant=m))
            for m in (True, False)
        ]
    return {
        "out": list(out),
        "names": [o.grad_fn.name() for o in out[:2]],
        "x.grad": x.grad,
        "reentrant_no_rg": (r_no_rg[0].requires_grad, r_no_rg[1]),
        "non_reentrant_no_rg": (n_no_rg[0].grad_fn.name(), n_no_rg[1]),
        "kwargs": kw,
        "no_grad": under_no_grad,
    }


@program
def argument_errors_and_warnings(T: Any) -> Any:
    C = ckpt(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)

    def f(a: Any) -> Any:
        return a.exp()

    return {
        "no_use_reentrant": warns(lambda: C.checkpoint(f, x)),
        "kwargs": raises(lambda: C.checkpoint(f, x, use_reentrant=True, foo=1, bar=2)),
        "kwargs_first": raises(
            lambda: C.checkpoint(f, x, use_reentrant=True, context_fn=C.noop_context_fn, foo=1)
        ),
        "context_fn": raises(
            lambda: C.checkpoint(f, x, use_reentrant=True, context_fn=lambda: None)
        ),
        "debug": raises(lambda: C.checkpoint(f, x, use_reentrant=True, debug=True)),
        "determinism": raises(
            lambda: C.checkpoint(f, x, use_reentrant=False, determinism_check="foo")
        ),
        "detached_output": raises(
            lambda: C.checkpoint(lambda a: a.detach() * 2, x, use_reentrant=True).sum().backward()
        ),
        "detach_variable": raises(lambda: C.detach_variable([x])),
        "seq_no_use_reentrant": warns(
            lambda: C.checkpoint_sequential([T.nn.Tanh(), T.nn.ReLU()], 2, x)
        ),
        "seq_kwargs": raises(
            lambda: C.checkpoint_sequential([T.nn.Tanh()], 1, x, use_reentrant=False, foo=1)
        ),
    }


@program
def recomputation_mismatch(T: Any) -> Any:
    C = ckpt(T)
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def changing(first: Any, later: Any) -> Any:
        calls = [0]

        def f(a: Any) -> Any:
            calls[0] += 1
            return first(a) if calls[0] == 1 else later(a)

        return f

    def run(f: Any, **kw: Any) -> Any:
        return raises(lambda: C.checkpoint(f, x, use_reentrant=False, **kw).sum().backward())

    return {
        "shape": run(changing(lambda a: a**2, lambda a: a[:2] ** 2)),
        "dtype": run(changing(lambda a: a**2, lambda a: a.double() ** 2)),
        "count": run(changing(lambda a: a**2, lambda a: a + 1)),
        "count_unchecked": run(changing(lambda a: a**2, lambda a: a + 1), determinism_check="none"),
        "more_early_stop": run(changing(lambda a: a**2, lambda a: a * a * a)),
        "x.grad": x.grad,
    }


@program
def early_stop_and_saved_access(T: Any) -> Any:
    C = ckpt(T)
    x = T.tensor([0.5, 1.0, -1.5], requires_grad=True)
    calls = []

    def f(a: Any) -> Any:
        calls.append("start")
        c = a.sin() * a
        calls.append("mid")
        return c + 1

    y = C.checkpoint(f, x, use_reentrant=False)
    forward = list(calls)
    calls.clear()
    saved = y.grad_fn.next_functions[0][0]._saved_other
    outside = list(calls)
    calls.clear()
    y.sum().backward()
    backward = list(calls)
    calls.clear()
    with C.set_checkpoint_early_stop(False):
        y2 = C.checkpoint(f, x, use_reentrant=False)
    calls.clear()
    y2.sum().backward()
    return {
        "forward": forward,
        "outside": outside,
        "saved": saved.detach(),
        "backward": backward,
        "no_early_stop": list(calls),
        "x.grad": x.grad,
    }


@program
def dropout_mask_is_recomputed(T: Any) -> Any:
    C = ckpt(T)
    out = {}
    for mode in (True, False):
        net = _net(T, dropout=0.5)
        x = T.tensor(_X, dtype=T.float32, requires_grad=True)
        T.manual_seed(7)
        plain = _grads(T, net, x, lambda n, a: n(a))
        after_plain = T.rand(3)
        T.manual_seed(7)
        ck = _grads(T, net, x, lambda n, a, m=mode: C.checkpoint(n, a, use_reentrant=m))
        after_ck = T.rand(3)
        out[str(mode)] = {
            "grads_equal": all(T.equal(plain[k], ck[k]) for k in plain),
            "stream_unchanged": T.equal(after_plain, after_ck),
        }
        T.manual_seed(7)
        nopreserve = _grads(
            T,
            net,
            x,
            lambda n, a, m=mode: C.checkpoint(n, a, use_reentrant=m, preserve_rng_state=False),
        )
        out[f"{mode}.no_preserve_equal"] = all(T.equal(plain[k], nopreserve[k]) for k in plain)
    return out


@program
def checkpoint_sequential_matches_plain(T: Any) -> Any:
    C = ckpt(T)
    net = _net(T)
    x = T.tensor(_X, dtype=T.float32, requires_grad=True)
    out = {"plain": _grads(T, net, x, lambda n, a: n(a))}
    for mode in (True, False):
        for segments in (1, 2, 3):
            out[f"{mode}.{segments}"] = _grads(
                T,
                net,
                x,
                lambda n, a, s=segments, m=mode: C.checkpoint_sequential(n, s, a, use_reentrant=m),
            )
        y = C.checkpoint_sequential(list(net), 2, x, use_reentrant=mode)
        out[f"{mode}.name"] = y.grad_fn.name()
    out["too_many"] = raises(lambda: C.checkpoint_sequential(net, 9, x, use_reentrant=False))
    return out


@program
def non_reentrant_double_backward(T: Any) -> Any:
    C = ckpt(T)
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = C.checkpoint(lambda a: (a**3).sum(), x, use_reentrant=False)
    (g,) = T.autograd.grad(y, x, create_graph=True)
    return {"g": g, "gg": T.autograd.grad(g.sum(), x)}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    _SET.check(name, observe, assert_same, torch, shadowgrad)
