"""Programs on the semi-private autograd state that libraries read and write: a tensor's
`_backward_hooks` and `_post_accumulate_grad_hooks` (OrderedDicts by handle id, None before the
first hook), a module's and an optimizer's hook dicts (OrderedDicts), and a custom Function
ctx's `dirty_tensors` / `non_differentiable` / `to_save`, which torch fills while forward runs
and clears once the outputs are wrapped. Each program returns what it sees and the harness
compares it with torch's.
"""

from __future__ import annotations

import collections
import copy
import io
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


def _hooks_view(d: Any) -> Any:
    """A hook dict as something comparable: its type, its size and the hooks' results on 3."""
    if d is None:
        return None
    return type(d).__name__, len(d), [h(3.0) for h in d.values()]


@program()
def prog_ps_leaf_backward_hooks(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    out = [x._backward_hooks, x._post_accumulate_grad_hooks]
    h1 = x.register_hook(lambda g: g * 2)
    h2 = x.register_hook(lambda g: g + 1)
    out.append(_hooks_view(x._backward_hooks))
    keys = list(x._backward_hooks)
    out.append(keys == sorted(keys) and keys[1] == keys[0] + 1)
    (x * 3).sum().backward()
    out.append(x.grad)
    h1.remove()
    out.append(_hooks_view(x._backward_hooks))
    h2.remove()
    out.append(_hooks_view(x._backward_hooks))  # empty, not None, as torch's
    return out


@program()
def prog_ps_nonleaf_backward_hooks(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    out = [y._backward_hooks]
    y.register_hook(lambda g: g * 10)
    z = y.exp()
    out += [_hooks_view(y._backward_hooks), z._backward_hooks]
    y.retain_grad()
    z.sum().backward()
    return out, x.grad, y.grad


@program()
def prog_ps_assign_backward_hooks(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    x._backward_hooks = collections.OrderedDict([(7, lambda g: g * 7)])
    (x * 1).sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    x._backward_hooks = None
    (x * 1).sum().backward()
    return g1, x.grad, x._backward_hooks


@program()
def prog_ps_post_accumulate_hooks_dict(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    seen = []
    h = x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
    d = x._post_accumulate_grad_hooks
    out = [type(d).__name__, len(d)]
    (x * 4).sum().backward()
    h.remove()
    out.append(len(x._post_accumulate_grad_hooks))
    (x * 4).sum().backward()
    return out, seen, x.grad


def _forward_hook(mod: Any, args: Any, out: Any) -> None:
    return None


@program()
def prog_ps_module_and_optimizer_hook_dicts(T: Any) -> Any:
    m = T.nn.Linear(2, 2)
    out = [type(m._forward_hooks).__name__, repr(m._forward_hooks)]
    for name in ("_forward_pre_hooks", "_backward_hooks", "_state_dict_hooks"):
        out.append((name, type(getattr(m, name)).__name__, len(getattr(m, name))))
    m.register_forward_hook(_forward_hook)
    m.register_forward_pre_hook(lambda mod, i: None)
    out.append(raises(lambda: T.save(m, io.BytesIO())))  # a local lambda does not pickle
    m._forward_pre_hooks.clear()
    out.append((len(m._forward_hooks), len(m._forward_pre_hooks)))
    m2 = copy.deepcopy(m)
    out.append((type(m2._forward_hooks).__name__, len(m2._forward_hooks)))
    buf = io.BytesIO()
    T.save(m, buf)
    buf.seek(0)
    m3 = T.load(buf, weights_only=False)
    out.append((type(m3._forward_hooks).__name__, len(m3._forward_hooks)))
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    out.append(type(opt._optimizer_step_pre_hooks).__name__)
    opt.register_step_post_hook(lambda o, a, k: None)
    out.append(len(opt._optimizer_step_post_hooks))
    return out


def _ctx_state(ctx: Any) -> Any:
    return tuple(
        None if v is None else [t.tolist() for t in v]
        for v in (ctx.dirty_tensors, ctx.non_differentiable, ctx.to_save)
    )


@program()
def prog_ps_function_ctx_marks(T: Any) -> Any:
    log = []

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            log.append(("forward, before", _ctx_state(ctx)))
            a.mul_(2)
            c = b * 1
            ctx.mark_dirty(a)
            ctx.mark_non_differentiable(c)
            ctx.save_for_backward(a, b)
            log.append(("forward, after", _ctx_state(ctx)))
            return a, c

        @staticmethod
        def backward(ctx: Any, ga: Any, gc: Any) -> Any:
            log.append(("backward", _ctx_state(ctx), len(ctx.saved_tensors)))
            return ga * 2, None

    a = T.ones(2, requires_grad=True).clone()
    b = T.full((2,), 3.0)
    y, c = F.apply(a, b)
    log.append(("node", _ctx_state(y.grad_fn)))
    y.sum().backward()
    log.append(("after backward", _ctx_state(y.grad_fn)))
    return log, y, c, c.requires_grad


@program()
def prog_ps_function_ctx_marks_without_graph(T: Any) -> Any:
    log = []

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            a.add_(1)
            ctx.mark_dirty(a)
            log.append(_ctx_state(ctx))
            return a

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    a = T.zeros(2)
    out = F.apply(a)
    with T.no_grad():
        b = F.apply(T.zeros(2, requires_grad=True).clone())
    return log, out, out is a, b, a._version


@program()
def prog_ps_function_output_freed_with_its_node(T: Any) -> Any:
    """An output marked dirty is not kept alive by its own node once the caller drops it."""
    import weakref

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            a.mul_(3)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 3

    x = T.ones(2, requires_grad=True)
    y = F.apply(x.clone())
    ref = weakref.ref(y)
    node = weakref.ref(y.grad_fn)
    del y
    return ref() is None, node() is None, raises(lambda: F.apply(x))


@program()
def prog_ps_from_file(T: Any) -> Any:
    import os
    import tempfile

    import numpy as np

    # one directory for both engines' runs (the messages name the file)
    d = os.path.join(tempfile.gettempdir(), f"ps_from_file_{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    path = os.path.join(d, "data.bin")
    np.arange(10, dtype=np.float32).tofile(path)
    out = [
        T.from_file(path, size=10),
        T.from_file(path, shared=False, size=4, dtype=T.float32),
        T.from_file(path),
        T.from_file(path, size=2, dtype=T.int64),
        T.from_file(path, size=5, dtype=T.float16),
        raises(lambda: T.from_file(path, size=100)),
        raises(lambda: T.from_file(os.path.join(d, "missing.bin"), size=3)),
    ]
    private = T.from_file(path, size=3)
    private[0] = 42.0
    shared = T.from_file(path, shared=True, size=10)
    shared[1] = 99.0
    del shared
    out.append(np.fromfile(path, dtype=np.float32)[:3].tolist())
    new = os.path.join(d, "new.bin")
    out.append((T.from_file(new, shared=True, size=3), os.path.getsize(new)))
    return out


@program()
def prog_ps_small_api(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    return (
        x.const_data_ptr() == x.data_ptr(),
        x[1].const_data_ptr() - x.const_data_ptr(),
        raises(lambda: T.autograd.variable(x)),
        T.autograd.kineto_available(),
        T.autograd.has_torch_function((x,)),
        T.autograd.has_torch_function is T.overrides.has_torch_function,
        T.autograd.handle_torch_function is T.overrides.handle_torch_function,
    )


@program()
def prog_ps_function_class_hierarchy(T: Any) -> Any:
    # a custom Function class is a FunctionCtx too (torch's _SingleLevelFunction's bases)
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    fc = T.autograd.function.FunctionCtx
    x = T.ones(2, requires_grad=True)
    y = Double.apply(x)
    return (
        issubclass(Double, fc),
        issubclass(T.autograd.Function, fc),
        isinstance(y.grad_fn, fc),
        callable(Double.save_for_backward),
        type(y.grad_fn).__name__,
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
