"""Realistic programs, third set: areas the first two sets cover least (custom Function corner
cases, hook ordering and removal, autograd.functional options, version-counter errors, Module
API details, optimizer flag combinations and schedulers, data utilities, dtype promotion and
indexing gradients). Each program `prog(T)` is run on torch and on shadowgrad and everything it
returns, raises or warns is compared by the harness of test_realistic_programs_2.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from .compare import Tolerance
from .engines import raises
from .test_realistic_programs_2 import _data, _Prog, _seeded, check_program, program_params

pytest.importorskip("torch")

PROGRAMS: dict[str, _Prog] = {}


def program(
    *, xfail: str | None = None, warnings: bool = True, tol: Tolerance | None = None
) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register `prog(T)` in this file's set (see test_realistic_programs_2.program)."""

    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        p = _Prog(fn, xfail, warnings, tol)
        PROGRAMS[p.name] = p
        return fn

    return deco


class Subset:
    """A later file's programs: registered into this set (names unique across files, run by
    this file's harness), parametrized by that file alone. The file writes
    `_SET = Subset()`, `program = _SET.program` and, at its end, a test over `_SET.params()`."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def program(
        self, *, xfail: str | None = None, warnings: bool = True, tol: Tolerance | None = None
    ) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        """Register `prog(T)` (the options of this file's `program`)."""

        def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
            name = fn.__name__.removeprefix("prog_")
            assert name not in PROGRAMS, f"program {name} is already registered"
            self.names.append(name)
            return program(xfail=xfail, warnings=warnings, tol=tol)(fn)

        return deco

    def params(self) -> list[Any]:
        """pytest params of this subset's programs, known differences as strict xfails."""
        return program_params({n: PROGRAMS[n] for n in self.names})


def _lin(T: Any, i: int, o: int, seed: int) -> Any:
    return _seeded(T, T.nn.Linear(i, o), seed)


# --- autograd.Function -----------------------------------------------------------------------


@program()
def prog_fn_setup_context_saves_output(T: Any) -> Any:
    class Softplus(T.autograd.Function):
        @staticmethod
        def forward(x, beta):
            return T.log1p(T.exp(x * beta)) / beta

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, beta = inputs
            ctx.save_for_backward(x, output)
            ctx.beta = beta

        @staticmethod
        def backward(ctx, g):
            x, _out = ctx.saved_tensors
            return g * T.sigmoid(x * ctx.beta), None

    x = T.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    y = Softplus.apply(x, 2.0)
    y.sum().backward()
    return {"y": y, "gf": y.grad_fn, "name": y.grad_fn.name(), "g": x.grad}


@program()
def prog_fn_save_input_view_and_output(T: Any) -> Any:
    class RowScale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            row = x[0]
            out = x * row
            ctx.save_for_backward(row, out)
            return out

        @staticmethod
        def backward(ctx, g):
            row, out = ctx.saved_tensors
            gx = g * row
            gx[0] = gx[0] + (g * (out / row)).sum(0)
            return gx

    x = T.tensor(_data(3, 2) + 3, requires_grad=True)
    y = RowScale.apply(x)
    saved = y.grad_fn.saved_tensors
    y.sum().backward()
    return {"y": y, "g": x.grad, "saved": saved, "again": raises(lambda: y.grad_fn.saved_tensors)}


@program()
def prog_fn_needs_input_grad_mixed(T: Any) -> Any:
    seen = []

    class Affine(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, b, k):
            ctx.save_for_backward(x, w)
            return x @ w + b * k

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            seen.append(ctx.needs_input_grad)
            gx = g @ w.t() if ctx.needs_input_grad[0] else None
            gw = x.t() @ g if ctx.needs_input_grad[1] else None
            gb = g.sum(0) * 2 if ctx.needs_input_grad[2] else None
            return gx, gw, gb, None

    x = T.tensor(_data(4, 3))
    w = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    b = T.zeros(2, requires_grad=True)
    Affine.apply(x, w, b, 2).sum().backward()
    b.requires_grad_(False)
    x.requires_grad_()
    Affine.apply(x, w, b, 2).pow(2).sum().backward()
    return {"seen": seen, "w.grad": w.grad, "b.grad": b.grad, "x.grad": x.grad}


@program()
def prog_fn_return_none_for_tensor_input(T: Any) -> Any:
    class OnlyFirst(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * 2 + b

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    a = T.ones(3, requires_grad=True)
    b = T.ones(3, requires_grad=True)
    OnlyFirst.apply(a, b).sum().backward()
    c = T.ones(3, requires_grad=True)
    ga, gc = T.autograd.grad(OnlyFirst.apply(a, c).sum(), [a, c], allow_unused=True)
    gm = T.autograd.grad(
        OnlyFirst.apply(a, c).sum(), [a, c], allow_unused=True, materialize_grads=True
    )
    return {"a": a.grad, "b": b.grad, "ga": ga, "gc": gc, "gm": gm}


@program()
def prog_fn_non_tensor_outputs(T: Any) -> Any:
    class WithStats(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3, float(x.sum()), "tag", None

        @staticmethod
        def backward(ctx, g, g2, g3, g4):
            return g * 3

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y, s, tag, none = WithStats.apply(x)
    y.sum().backward()
    return {"y": y, "s": s, "tag": tag, "none": none, "g": x.grad}


@program()
def prog_fn_double_backward_custom(T: Any) -> Any:
    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x**2 * g

    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    (g1,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (g2,) = T.autograd.grad(g1.sum(), x, create_graph=True)
    (g3,) = T.autograd.grad(g2.sum(), x)
    return {"g1": g1, "g2": g2, "g3": g3, "g1gf": g1.grad_fn, "g2gf": g2.grad_fn}


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_fn_jvp_forward_mode(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 2 * x * t

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = T.tensor([1.0, 2.0, 3.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.tensor([1.0, 0.5, 0.0]))
        out = Square.apply(d)
        p, t = fwAD.unpack_dual(out)
    return {"p": p, "t": t}


@program()
def prog_fn_jvp_missing_error(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class NoJvp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with fwAD.dual_level():
        d = fwAD.make_dual(T.ones(2), T.ones(2))
        return raises(lambda: NoJvp.apply(d))


@program()
def prog_fn_mark_dirty_on_view(T: Any) -> Any:
    class Inc(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    base = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = base * 1
    v = b[:2]
    out = Inc.apply(v)
    out.sum().backward()
    return {"out": out, "b": b, "b_gf": b.grad_fn, "g": base.grad, "ver": b._version}


@program()
def prog_fn_forgot_mark_dirty(T: Any) -> Any:
    class Sneaky(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.ones(3, requires_grad=True)
    y = x + 0
    return raises(lambda: Sneaky.apply(y))


@program()
def prog_fn_output_is_input_no_dirty(T: Any) -> Any:
    class Identity(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = T.ones(2, requires_grad=True)
    y = Identity.apply(x)
    y.sum().backward()
    return {"same": y is x, "y": y, "gf": y.grad_fn, "g": x.grad, "leaf": y.is_leaf}


@program()
def prog_fn_mark_non_differentiable_float(T: Any) -> Any:
    class MaxIdx(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            m = x.max(dim=1)
            ctx.save_for_backward(m.indices)
            mask = (x == m.values.unsqueeze(1)).float()
            ctx.mark_non_differentiable(mask)
            ctx.shape = x.shape
            return m.values, mask

        @staticmethod
        def backward(ctx, gv, gm):
            (idx,) = ctx.saved_tensors
            out = T.zeros(ctx.shape)
            out.scatter_(1, idx.unsqueeze(1), gv.unsqueeze(1))
            return out

    x = T.tensor(_data(3, 4), requires_grad=True)
    v, mask = MaxIdx.apply(x)
    (v * 2).sum().backward()
    return {
        "v": v,
        "mask": mask,
        "mask_rg": mask.requires_grad,
        "mask_gf": mask.grad_fn,
        "g": x.grad,
        "err": raises(lambda: mask.sum().backward()),
    }


@program()
def prog_fn_saved_tensor_modified_error(T: Any) -> Any:
    class Mul(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b, g * a

    a = T.ones(3, requires_grad=True)
    b = T.full((3,), 2.0)
    y = Mul.apply(a, b)
    b.add_(1)
    return raises(lambda: y.sum().backward())


@program()
def prog_fn_saved_tensors_twice_error(T: Any) -> Any:
    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = T.ones(2, requires_grad=True)
    y = Sq.apply(x).sum()
    y.backward()
    return {"second": raises(y.backward), "g": x.grad}


@program()
def prog_fn_backward_returns_wrong_dtype(T: Any) -> Any:
    class D(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return (g * 2).double()

    class Int(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return T.ones(3, dtype=T.long)

    x = T.ones(3, requires_grad=True)
    D.apply(x).sum().backward()
    g1 = x.grad.clone()
    return {"g1": g1, "int": raises(lambda: Int.apply(x).sum().backward())}


@program()
def prog_fn_backward_returns_non_tensor(T: Any) -> Any:
    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 2.0

    x = T.ones(3, requires_grad=True)
    return raises(lambda: Bad.apply(x).sum().backward())


@program()
def prog_fn_ctx_attributes_and_apply_kwargs(T: Any) -> Any:
    class Scale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor=2.0):
            ctx.factor = factor
            return x * factor

        @staticmethod
        def backward(ctx, g):
            return g * ctx.factor, None

    x = T.ones(2, requires_grad=True)
    y = Scale.apply(x)
    y.sum().backward()
    return {
        "g": x.grad,
        "kw": raises(lambda: Scale.apply(x, factor=3.0)),
        "factor": y.grad_fn.factor,
        "needs": y.grad_fn.needs_input_grad,
        "nf": y.grad_fn.next_functions,
    }


@program()
def prog_fn_in_no_grad_and_inference(T: Any) -> Any:
    class Dbl(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.ones(2, requires_grad=True)
    with T.no_grad():
        a = Dbl.apply(x)
    with T.inference_mode():
        b = Dbl.apply(T.ones(2))
        b = (b.tolist(), b.is_inference(), b.requires_grad)
        b2 = Dbl.apply(x)
        b2 = (b2.tolist(), b2.is_inference(), b2.requires_grad)
    c = Dbl.apply(T.ones(2))
    return {"a": a, "b": b, "b2": b2, "c": c}


@program()
def prog_fn_grad_inside_forward_is_off(T: Any) -> Any:
    seen = []

    class Probe(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(T.is_grad_enabled())
            y = x.exp()
            seen.append(y.requires_grad)
            return y

        @staticmethod
        def backward(ctx, g):
            seen.append(T.is_grad_enabled())
            return g

    x = T.ones(2, requires_grad=True)
    y = Probe.apply(x)
    y.sum().backward()
    z = Probe.apply(x)
    (gz,) = T.autograd.grad(z.sum(), x, create_graph=True)
    return {"seen": seen, "gz": gz}


@program()
def prog_fn_custom_function_in_module(T: Any) -> Any:
    nn = T.nn

    class ClipGrad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, bound):
            ctx.bound = bound
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g.clamp(-ctx.bound, ctx.bound), None

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 2)

        def forward(self, x):
            return ClipGrad.apply(self.fc(x), 0.1)

    net = _seeded(T, Net(), 1)
    x = T.tensor(_data(5, 3))
    out = net(x)
    (out * 10).sum().backward()
    return {"out": out, "gf": out.grad_fn, "w": net.fc.weight.grad, "b": net.fc.bias.grad}


@program()
def prog_fn_vjp_and_jvp_staticmethods(T: Any) -> Any:
    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def vjp(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    x = T.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    y.sum().backward()
    return {"g": x.grad, "has_backward": Exp.backward is not None}


@program()
def prog_fn_materialize_false_all_none(T: Any) -> Any:
    seen = []

    class Pair(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append((g1 is None, g2 is None))
            return g1 if g1 is not None else g2

    x = T.ones(2, requires_grad=True)
    _a, b = Pair.apply(x)
    (b * 3).sum().backward()
    a2, _b2 = Pair.apply(x)
    T.autograd.backward([a2.sum()])
    return {"seen": seen, "g": x.grad}


@program()
def prog_fn_once_differentiable_no_grad_path(T: Any) -> Any:
    once = T.autograd.function.once_differentiable

    class Relu(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0)

        @staticmethod
        @once
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * (x > 0).float()

    x = T.tensor([-1.0, 2.0], requires_grad=True)
    y = Relu.apply(x)
    y.sum().backward()
    g = x.grad.clone()
    (gx,) = T.autograd.grad(Relu.apply(x).sum(), x, create_graph=True)
    return {"g": g, "gx": gx, "gx_gf": gx.grad_fn, "rg": gx.requires_grad}


@program()
def prog_fn_apply_on_plain_tensors(T: Any) -> Any:
    class Dbl(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Dbl.apply(T.ones(2))
    z = Dbl.apply(T.ones(2, dtype=T.float64))
    return {"y": y, "z": z, "rg": y.requires_grad, "gf": y.grad_fn}


@program()
def prog_fn_call_forward_directly_error(T: Any) -> Any:
    class Dbl(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    return {
        "inst": raises(lambda: Dbl()(T.ones(2))),
        "old_style": raises(lambda: Dbl.forward(None, T.ones(2))),
    }


# --- hooks -------------------------------------------------------------------------------------


@program()
def prog_hook_on_leaf_modifies_grad(T: Any) -> Any:
    w = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    h = w.register_hook(lambda g: g.clamp(-0.5, 0.5))
    (w * T.tensor([2.0, -3.0, 0.1])).sum().backward()
    g1 = w.grad.clone()
    h.remove()
    w.grad = None
    (w * T.tensor([2.0, -3.0, 0.1])).sum().backward()
    return {"g1": g1, "g2": w.grad, "h_id_int": isinstance(h.id, int)}


@program()
def prog_hook_returning_wrong_shape_error(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g.sum())
    return raises(lambda: y.sum().backward())


@program()
def prog_hook_on_tensor_without_grad_error(T: Any) -> Any:
    x = T.ones(3)
    return raises(lambda: x.register_hook(lambda g: g))


@program()
def prog_hook_order_multiple_and_retain(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.sin()
    y.register_hook(lambda g: log.append(("a", g.tolist())) or g * 2)
    y.retain_grad()
    y.register_hook(lambda g: log.append(("b", g.tolist())) or g + 1)
    (y * y).sum().backward()
    return {"log": log, "y.grad": y.grad, "x.grad": x.grad}


@program()
def prog_post_accumulate_grad_hook_optimizer_in_backward(T: Any) -> Any:
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1)), 5)
    opts = {p: T.optim.SGD([p], lr=0.1) for p in model.parameters()}
    order = []

    def hook(p):
        order.append(tuple(p.shape))
        opts[p].step()
        opts[p].zero_grad()

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(hook)
    x = T.tensor(_data(6, 3))
    for _ in range(2):
        model(x).pow(2).mean().backward()
    return {
        "order": order,
        "params": [p.detach() for p in model.parameters()],
        "grads": [p.grad for p in model.parameters()],
    }


@program()
def prog_post_accumulate_hook_non_leaf_error(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    y = x * 2
    return {
        "nonleaf": raises(lambda: y.register_post_accumulate_grad_hook(lambda t: None)),
        "nograd": raises(lambda: T.ones(2).register_post_accumulate_grad_hook(lambda t: None)),
    }


@program()
def prog_module_forward_pre_hook_with_kwargs(T: Any) -> Any:
    nn = T.nn
    log = []

    class Scale(nn.Module):
        def forward(self, x, *, factor=1.0):
            return x * factor

    m = Scale()

    def pre(mod, args, kwargs):
        log.append(("pre", dict(kwargs)))
        kwargs = dict(kwargs)
        kwargs["factor"] = kwargs.get("factor", 1.0) * 10
        return args, kwargs

    def post(mod, args, kwargs, out):
        log.append(("post", dict(kwargs), out.tolist()))

    h1 = m.register_forward_pre_hook(pre, with_kwargs=True)
    m.register_forward_hook(post, with_kwargs=True)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = m(x, factor=2.0)
    h1.remove()
    z = m(x, factor=2.0)
    return {"log": log, "y": y, "z": z}


@program()
def prog_module_pre_hook_returns_single_value(T: Any) -> Any:
    nn = T.nn
    m = _lin(T, 2, 2, 1)
    m.register_forward_pre_hook(lambda mod, args: args[0] * 0)
    out1 = m(T.ones(1, 2))
    m2 = _lin(T, 2, 2, 1)
    m2.register_forward_hook(lambda mod, args, out: None)
    out2 = m2(T.ones(1, 2))
    m3 = nn.Identity()
    m3.register_forward_hook(lambda mod, args, out: out * 3, prepend=True)
    m3.register_forward_hook(lambda mod, args, out: out + 1, prepend=True)
    return {"out1": out1, "out2": out2, "out3": m3(T.ones(2))}


@program()
def prog_full_backward_hook_replaces_grad_input(T: Any) -> Any:
    nn = T.nn
    log = []
    m = _seeded(T, nn.Sequential(nn.Linear(3, 3), nn.Sigmoid(), nn.Linear(3, 1)), 7)

    def bwd(mod, gin, gout):
        log.append((type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin]))
        return tuple(None if g is None else g * 0.5 for g in gin)

    for sub in m:
        sub.register_full_backward_hook(bwd)
    x = T.tensor(_data(2, 3), requires_grad=True)
    m(x).sum().backward()
    return {"log": log, "x.grad": x.grad, "w0": m[0].weight.grad}


@program()
def prog_full_backward_hook_input_no_grad(T: Any) -> Any:
    log = []
    m = _lin(T, 3, 2, 2)
    m.register_full_backward_hook(
        lambda mod, gin, gout: log.append(([g is None for g in gin], [g.shape for g in gout]))
    )
    m(T.tensor(_data(4, 3))).sum().backward()
    return {"log": log, "w": m.weight.grad}


@program()
def prog_backward_hook_on_inplace_module_error(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(inplace=True))
    m[1].register_full_backward_hook(lambda mod, gi, go: None)
    x = T.ones(1, 2, requires_grad=True)
    return raises(lambda: m(x).sum().backward())


@program()
def prog_state_dict_hooks(T: Any) -> Any:
    log = []
    m = _lin(T, 2, 2, 3)

    def post_sd(module, sd, prefix, local_metadata):
        log.append(("post_sd", prefix, sorted(sd)))
        sd[prefix + "extra"] = T.tensor(1.0)

    m._register_state_dict_hook(post_sd)
    sd = m.state_dict()

    def pre_load(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errs):
        log.append(("pre_load", prefix, sorted(state_dict)))
        state_dict.pop(prefix + "extra", None)

    m._register_load_state_dict_pre_hook(pre_load, with_module=True)

    def post_load(module, keys):
        log.append(("post_load", list(keys.missing_keys), list(keys.unexpected_keys)))

    m.register_load_state_dict_post_hook(post_load)
    res = m.load_state_dict(sd)
    return {"log": log, "keys": sorted(sd), "res": str(res)}


@program()
def prog_saved_tensors_hooks_pack_count(T: Any) -> Any:
    packed = []

    def pack(t):
        packed.append((tuple(t.shape), t.requires_grad))
        return t

    x = T.tensor(_data(3), requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        a = x * x
        b = a.exp()
        c = T.sigmoid(b)
        d = c.sum()
        e = x.relu()
        f = x[1:]
        g = T.matmul(x, x)
    (d + e.sum() + f.sum() + g).backward()
    return {"packed": packed, "x.grad": x.grad}


@program()
def prog_saved_tensors_hooks_unpack_changes_value(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t):
        y = x.pow(2)
    y.sum().backward()
    return {"g": x.grad, "y": y}


@program()
def prog_disable_saved_tensors_hooks(T: Any) -> Any:
    g = T.autograd.graph
    x = T.ones(2, requires_grad=True)
    with g.disable_saved_tensors_hooks("no hooks here please"):
        y = x * x
        err = raises(lambda: g.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    y.sum().backward()
    return {"err": err, "g": x.grad}


@program()
def prog_register_multi_grad_hook_any(T: Any) -> Any:
    log = []
    a = T.ones(2, requires_grad=True)
    b = T.ones(3, requires_grad=True)
    T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(None if g is None else tuple(g.shape)), mode="any"
    )
    (a * 2).sum().backward()
    (b * 3).sum().backward()
    return {"log": log, "a": a.grad, "b": b.grad}


# --- autograd.functional and torch.func ------------------------------------------------------


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_functional_jacobian_options(T: Any) -> Any:
    F = T.autograd.functional

    def f(x, y):
        return (x * y).sin(), x.sum() * y

    x = T.tensor([0.5, 1.0, -0.3])
    y = T.tensor([2.0, -1.0, 0.7])
    j = F.jacobian(f, (x, y))
    jv = F.jacobian(f, (x, y), vectorize=True)
    jc = F.jacobian(lambda a: a.exp(), x, create_graph=True)
    jf = F.jacobian(lambda a: a.exp(), x, strategy="forward-mode", vectorize=True)
    return {"j": j, "jv": jv, "jc": jc, "jc_rg": jc.requires_grad, "jf": jf}


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_functional_hessian_vhp_hvp(T: Any) -> Any:
    F = T.autograd.functional

    def energy(x):
        return (x**3).sum() + (x[0] * x[1]) ** 2

    x = T.tensor([1.0, -2.0, 0.5])
    v = T.tensor([1.0, 0.0, 2.0])
    h = F.hessian(energy, x)
    val, hv = F.hvp(energy, x, v)
    val2, vh = F.vhp(energy, x, v)
    hv2 = F.hessian(energy, x, vectorize=True, outer_jacobian_strategy="forward-mode")
    return {"h": h, "val": val, "hv": hv, "val2": val2, "vh": vh, "hv2": hv2}


@program()
def prog_functional_vjp_jvp_defaults(T: Any) -> Any:
    F = T.autograd.functional
    x = T.tensor([1.0, 2.0])
    out, g = F.vjp(lambda a: (a**2).sum(), x)
    out2, g2 = F.vjp(lambda a: a**2, x, T.tensor([1.0, -1.0]))
    out3, t3 = F.jvp(lambda a: a.exp(), x, T.tensor([1.0, 0.0]))
    err = raises(lambda: F.vjp(lambda a: a**2, x))
    err2 = raises(lambda: F.jvp(lambda a: a**2, x))
    return {
        "out": out,
        "g": g,
        "out2": out2,
        "g2": g2,
        "out3": out3,
        "t3": t3,
        "err": err,
        "err2": err2,
    }


@program()
def prog_functional_strict_errors(T: Any) -> Any:
    F = T.autograd.functional
    x = T.ones(2)
    return {
        "indep": raises(lambda: F.jacobian(lambda a: T.ones(2), x, strict=True)),
        "indep_ns": F.jacobian(lambda a: T.ones(2), x),
        "vjp": raises(lambda: F.vjp(lambda a: a.detach() * 2, x, T.ones(2), strict=True)),
        "hess": raises(lambda: F.hessian(lambda a: a.sum(), x, strict=True)),
        "hess_ns": F.hessian(lambda a: a.sum(), x),
        "nonscalar": raises(lambda: F.hessian(lambda a: a * 2, x)),
        "notensor": raises(lambda: F.jacobian(lambda a: 3.0, x)),
        "vec_strict": raises(lambda: F.jacobian(lambda a: a, x, strict=True, vectorize=True)),
    }


@program(warnings=False)
def prog_func_grad_and_value_has_aux(T: Any) -> Any:
    func = T.func

    def loss(w, x, y):
        pred = x @ w
        err = pred - y
        return (err**2).mean(), {"pred": pred, "max": err.abs().max()}

    w = T.tensor(_data(3, 1))
    x = T.tensor(_data(5, 3, seed=1))
    y = T.tensor(_data(5, 1, seed=2))
    (g, aux) = func.grad(loss, has_aux=True)(w, x, y)
    (gw, gx), (val, aux2) = func.grad_and_value(loss, argnums=(0, 1), has_aux=True)(w, x, y)
    return {"g": g, "aux": aux, "gw": gw, "gx": gx, "val": val, "aux2_max": aux2["max"]}


@program(
    warnings=False,
    xfail="vmap runs the function once per sample and stacks the results, so a vmapped "
    "functional_call over stacked parameters ends in StackBackward0 where torch's batched "
    "addmm ends in AddBackward0 (shadowgrad/func.py's vmap design)",
)
def prog_func_functional_call_and_stack(T: Any) -> Any:
    func = T.func
    nn = T.nn
    models = [_lin(T, 3, 2, s) for s in range(3)]
    params, buffers = func.stack_module_state(models)
    base = _lin(T, 3, 2, 9)
    x = T.tensor(_data(4, 3))

    def call(p, b, x):
        return func.functional_call(base, (p, b), (x,))

    out = T.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
    single = func.functional_call(base, dict(models[1].named_parameters()), (x,))
    tied = func.functional_call(
        nn.Linear(3, 2), {"weight": T.ones(2, 3), "bias": T.zeros(2)}, x, strict=True
    )
    err = raises(lambda: func.functional_call(base, {"weight": T.ones(2, 3)}, (x,), strict=True))
    return {
        "out": out,
        "single": single,
        "tied": tied,
        "err": err,
        "keys": sorted(params),
        "shape": params["weight"].shape,
    }


@program(warnings=False)
def prog_func_jacrev_jacfwd_hessian(T: Any) -> Any:
    func = T.func

    def f(x):
        return T.stack([x[0] * x[1], x[1].sin(), x.pow(2).sum()])

    x = T.tensor([0.3, -1.2])
    return {
        "jr": func.jacrev(f)(x),
        "jf": func.jacfwd(f)(x),
        "h": func.hessian(lambda a: f(a).sum())(x),
        "jr_argnums": func.jacrev(lambda a, b: a * b, argnums=1)(x, x + 1),
        "vjp": func.vjp(f, x)[1](T.ones(3)),
        "jvp": func.jvp(f, (x,), (T.ones(2),)),
    }


@program(warnings=False)
def prog_func_per_sample_grads(T: Any) -> Any:
    func = T.func
    model = _lin(T, 4, 3, 11)
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = T.tensor(_data(6, 4))
    y = T.tensor([0, 2, 1, 1, 0, 2])

    def loss(p, xi, yi):
        out = func.functional_call(model, p, (xi.unsqueeze(0),))
        return T.nn.functional.cross_entropy(out, yi.unsqueeze(0))

    g = T.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, x, y)
    return {"w": g["weight"], "b": g["bias"], "mean_w": g["weight"].mean(0)}


# --- higher order ------------------------------------------------------------------------------


@program()
def prog_grad_of_grad_with_retain_combos(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x**3).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x, retain_graph=True)
    (gg2,) = T.autograd.grad(g.sum(), x)
    err = raises(lambda: T.autograd.grad(g.sum(), x))
    (g_again,) = T.autograd.grad(y, x)
    err2 = raises(lambda: T.autograd.grad(y, x))
    return {"g": g, "gg": gg, "gg2": gg2, "err": err, "g_again": g_again, "err2": err2}


@program()
def prog_grad_allow_unused_errors(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    z = T.ones(2, requires_grad=True)
    y = (x * 2).sum()
    return {
        "unused": raises(lambda: T.autograd.grad(y, [x, z], retain_graph=True)),
        "allowed": T.autograd.grad(y, [x, z], retain_graph=True, allow_unused=True),
        "mat": T.autograd.grad(y, [x, z], retain_graph=True, materialize_grads=True),
        "mat_no_unused": raises(
            lambda: T.autograd.grad(y, [z], allow_unused=False, materialize_grads=True)
        ),
        "nonleaf_input": T.autograd.grad(y, x, retain_graph=True),
        "not_rg": raises(lambda: T.autograd.grad(y, T.ones(2))),
    }


@program()
def prog_grad_is_grads_batched(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x**2
    eye = T.eye(3)
    (jac,) = T.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True)
    (jac2,) = T.autograd.grad(y, x, T.stack([T.ones(3), 2 * T.ones(3)]), is_grads_batched=True)
    return {"jac": jac, "jac2": jac2}


@program()
def prog_backward_inputs_subset(T: Any) -> Any:
    a = T.ones(2, requires_grad=True)
    b = T.ones(2, requires_grad=True)
    c = (a * b * 3).sum()
    c.backward(inputs=[a], retain_graph=True)
    ga, gb = a.grad.clone(), b.grad
    c.backward(inputs=b)
    err = raises(lambda: (a * 2).sum().backward(inputs=[]))
    return {"ga": ga, "gb": gb, "b2": b.grad, "a2": a.grad, "err": err}


@program()
def prog_gradient_penalty_wgan(T: Any) -> Any:
    nn = T.nn
    critic = _seeded(T, nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1)), 4)
    real = T.tensor(_data(4, 2))
    fake = T.tensor(_data(4, 2, seed=3))
    alpha = T.tensor(np.linspace(0.1, 0.9, 4, dtype=np.float32)).view(4, 1)
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(inter)
    (g,) = T.autograd.grad(out, inter, T.ones_like(out), create_graph=True)
    gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    loss.backward()
    return {"gp": gp, "loss": loss, "w0": critic[0].weight.grad, "b2": critic[2].bias.grad}


@program()
def prog_backward_twice_error_per_op(T: Any) -> Any:
    res = {}
    for name, f in {
        "add": lambda x: (x + 2).sum(),
        "mul_scalar": lambda x: (x * 2).sum(),
        "exp": lambda x: x.exp().sum(),
        "view": lambda x: x.view(2, 1).sum(),
        "neg": lambda x: (-x).sum(),
        "div_scalar": lambda x: (x / 2).sum(),
        "relu": lambda x: x.relu().sum(),
        "index": lambda x: x[0] + x[1],
        "cat": lambda x: T.cat([x, x]).sum(),
        "mean": lambda x: x.mean(),
        "pow": lambda x: x.pow(2).sum(),
        "sigmoid": lambda x: x.sigmoid().sum(),
        "expand": lambda x: x.expand(3, 2).sum(),
        "clone": lambda x: x.clone().sum(),
        "transpose": lambda x: x.view(1, 2).t().sum(),
        "max": lambda x: x.max(),
        "abs": lambda x: x.abs().sum(),
        "sub_tensor": lambda x: (x - x.detach()).sum(),
    }.items():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = f(x)
        y.backward()
        res[name] = raises(y.backward)
    return res


# --- in-place and views ------------------------------------------------------------------------


@program()
def prog_version_counter_error_messages(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    z = y * 2
    y.add_(1)
    out["exp"] = raises(lambda: z.sum().backward())
    a = T.ones(2, 3, requires_grad=True)
    w = T.ones(3, 4)
    h = a @ w
    w.mul_(2)
    out["mm"] = raises(lambda: h.sum().backward())
    b = T.ones(3, requires_grad=True)
    s = b.sigmoid()
    s.mul_(2)
    s.add_(1)
    out["sigmoid_twice"] = raises(lambda: s.sum().backward())
    c = T.ones(3, dtype=T.float64, requires_grad=True)
    t = c.tanh()
    q = t * t
    t.zero_()
    out["tanh64"] = raises(lambda: q.sum().backward())
    d = T.ones(2, 2, requires_grad=True)
    v = d.t()
    e = v.pow(2)
    with T.no_grad():
        d.mul_(3)
    out["pow_leaf"] = raises(lambda: e.sum().backward())
    return out


@program()
def prog_inplace_on_view_of_nonleaf(T: Any) -> Any:
    x = T.tensor(_data(3, 4), requires_grad=True)
    y = x * 2
    row = y[1]
    row.mul_(3)
    col = y[:, 2]
    col.add_(row[:3])
    diag = y.diagonal()
    diag.zero_()
    y.sum().backward()
    return {
        "y": y,
        "y_gf": y.grad_fn,
        "row_gf": row.grad_fn,
        "col_gf": col.grad_fn,
        "g": x.grad,
        "ver": y._version,
        "row_ver": row._version,
    }


@program()
def prog_inplace_on_leaf_view_errors(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    v = x[:2]
    d = x.detach()
    return {
        "view": raises(lambda: v.add_(1)),
        "leaf": raises(lambda: x.mul_(2)),
        "detach_view": raises(lambda: v.detach_()),
        "detached_ok": d.add_(1),
        "x_after": x,
        "x_ver": x._version,
        "rg_false": raises(lambda: v.requires_grad_(False)),
    }


@program()
def prog_view_of_leaf_under_no_grad_then_inplace(T: Any) -> Any:
    x = T.ones(4, requires_grad=True)
    with T.no_grad():
        v = x[:2]
        v.mul_(5)
    y = x * 1
    with T.no_grad():
        w = y.view(2, 2)
    err = raises(lambda: w.add_(1))
    (x * x).sum().backward()
    return {"x": x, "g": x.grad, "v": v.tolist(), "v_rg": v.requires_grad, "err": err}


@program()
def prog_no_grad_view_grad_fn_after_base_inplace(T: Any) -> Any:
    x = T.ones(4, requires_grad=True)
    with T.no_grad():
        v = x[:2]
        x.mul_(5)
    out = {
        "gf": raises(lambda: v.grad_fn),
        "repr": repr(v),
        "rg": v.requires_grad,
        "leaf": raises(lambda: v.is_leaf),
        "use": raises(lambda: (v * 2).sum()),
        "detach": v.detach(),
    }
    y = x * 1
    with T.no_grad():
        w = y[:2]
    y.mul_(2)  # in grad mode: the view made before it can't get a grad_fn either
    with T.no_grad():
        fresh = y[:2]  # made after the change: fine
    out.update(w=raises(lambda: w.grad_fn), w_repr=repr(w), fresh=fresh.grad_fn)
    with T.no_grad():
        u = x[1:]
        u.mul_(2)  # the view itself modified under no_grad
    out.update(u=raises(lambda: u.grad_fn), u_repr=repr(u))
    return out


@program()
def prog_unbind_split_inplace_errors(T: Any) -> Any:
    x = T.ones(2, 3, requires_grad=True)
    y = x * 1
    a, _b = y.unbind(0)
    c, _d = y.split(1, dim=0)
    e, _f = y.chunk(2, dim=1)
    return {
        "unbind": raises(lambda: a.mul_(2)),
        "split": raises(lambda: c.mul_(2)),
        "chunk": raises(lambda: e.mul_(2)),
        "a_gf": a.grad_fn,
        "c_gf": c.grad_fn,
    }


@program()
def prog_out_argument_with_grad(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    buf = T.empty(3)
    err = raises(lambda: T.mul(x, 2, out=buf))
    with T.no_grad():
        T.mul(x, 2, out=buf)
    buf2 = T.empty(3)
    T.add(T.ones(3), 1, out=buf2)
    return {"err": err, "buf": buf, "buf2": buf2, "rg": buf.requires_grad}


@program()
def prog_set_data_and_version(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(3))
    opt_like = p.data
    opt_like.mul_(2)
    q = p * 3
    p.data = T.zeros(5)
    return {
        "p": p,
        "q": q,
        "ver": p._version,
        "shape": p.shape,
        "rg": p.requires_grad,
        "is_param": type(p).__name__,
    }


@program()
def prog_inplace_chain_grad_values(T: Any) -> Any:
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.clone()
    y.mul_(2).add_(1).relu_().pow_(2)
    y.sigmoid_()
    y.clamp_(0.2, 0.9)
    err = raises(lambda: y.sum().backward(retain_graph=True))
    z = x.clone()
    z.mul_(2).add_(1).abs_().pow_(2)
    z.sum().backward()
    return {"y": y, "gf": y.grad_fn, "err": err, "g": x.grad, "ver": y._version, "z": z}


@program()
def prog_masked_fill_inplace_and_index_put(T: Any) -> Any:
    x = T.tensor(_data(3, 3), requires_grad=True)
    y = x * 1
    y.masked_fill_(y > 0.5, 0.0)
    y[T.tensor([0, 2]), T.tensor([1, 1])] = T.tensor([7.0, 8.0])
    y.index_put_((T.tensor([1]),), T.tensor(1.5), accumulate=True)
    y.sum().backward()
    return {"y": y, "gf": y.grad_fn, "g": x.grad}


# --- nn.Module API -----------------------------------------------------------------------------


def _small_net(T: Any) -> Any:
    nn = T.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv1d(2, 3, 3, padding=1)
            self.bn = nn.BatchNorm1d(3)
            self.register_buffer("scale", T.tensor(2.0))
            self.register_buffer("cache", T.zeros(3), persistent=False)

        def forward(self, x):
            return self.bn(self.conv(x)) * self.scale

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(12, 2))
            self.extra = nn.ModuleDict({"a": nn.Identity(), "b": nn.ReLU()})
            self.plist = nn.ParameterList([nn.Parameter(T.ones(2)), nn.Parameter(T.zeros(1))])

        def forward(self, x):
            return self.head(self.extra["b"](self.block(x))) + self.plist[0]

    return _seeded(T, Net(), 21)


@program()
def prog_module_named_everything(T: Any) -> Any:
    net = _small_net(T)
    return {
        "modules": [(n, type(m).__name__) for n, m in net.named_modules()],
        "children": [n for n, _ in net.named_children()],
        "params": [(n, tuple(p.shape)) for n, p in net.named_parameters()],
        "buffers": [(n, tuple(b.shape)) for n, b in net.named_buffers()],
        "nonrec": [n for n, _ in net.named_parameters(recurse=False)],
        "sd_keys": list(net.state_dict().keys()),
        "get_sub": type(net.get_submodule("head.1")).__name__,
        "get_param": tuple(net.get_parameter("block.conv.weight").shape),
        "get_buffer": net.get_buffer("block.scale"),
        "bad_sub": raises(lambda: net.get_submodule("head.7")),
        "bad_param": raises(lambda: net.get_parameter("block.scale")),
    }


@program()
def prog_module_apply_train_eval_zero_grad(T: Any) -> Any:
    net = _small_net(T)
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    x = T.tensor(_data(4, 2, 4))
    out = net(x)
    out.sum().backward()
    g_before = net.head[1].weight.grad.clone()
    net.zero_grad(set_to_none=False)
    z = net.head[1].weight.grad
    net.zero_grad()
    net.eval()
    modes = [(n, m.training) for n, m in net.named_modules()]
    net.train()
    net.block.train(False)
    modes2 = [m.training for m in net.modules()]
    return {
        "seen": seen,
        "out": out,
        "g_before": g_before,
        "z": z,
        "none": net.head[1].weight.grad,
        "modes": modes,
        "modes2": modes2,
        "rm": net.block.bn.running_mean,
        "nbt": net.block.bn.num_batches_tracked,
    }


@program()
def prog_load_state_dict_errors(T: Any) -> Any:
    nn = T.nn
    net = _small_net(T)
    sd = net.state_dict()
    bad = dict(sd)
    bad.pop("head.1.bias")
    bad["head.2.weight"] = T.ones(1)
    shape = dict(sd)
    shape["head.1.weight"] = T.ones(3, 12)
    r1 = raises(lambda: net.load_state_dict(bad))
    r2 = net.load_state_dict(bad, strict=False)
    r3 = raises(lambda: net.load_state_dict(shape))
    r4 = raises(lambda: net.load_state_dict(shape, strict=False))
    lin = nn.Linear(2, 2)
    r5 = raises(lambda: lin.load_state_dict({"weight": T.ones(2, 2)}))
    r6 = lin.load_state_dict({"weight": T.ones(2, 2), "bias": T.zeros(2)}, assign=True)
    return {
        "r1": r1,
        "r2": str(r2),
        "r2_missing": r2.missing_keys,
        "r3": r3,
        "r4": r4,
        "r5": r5,
        "r6": str(r6),
        "w": lin.weight,
        "w_type": type(lin.weight).__name__,
    }


@program()
def prog_register_buffer_and_parameter_rules(T: Any) -> Any:
    nn = T.nn
    m = nn.Module()
    m.register_buffer("b", T.ones(2))
    m.register_buffer("nb", T.zeros(2), persistent=False)
    m.register_buffer("none", None)
    m.register_parameter("p", nn.Parameter(T.ones(1)))
    m.register_parameter("pnone", None)
    errs = {
        "dot": raises(lambda: m.register_buffer("a.b", T.ones(1))),
        "empty": raises(lambda: m.register_buffer("", T.ones(1))),
        "exists": raises(lambda: m.register_buffer("p", T.ones(1))),
        "notensor": raises(lambda: m.register_buffer("x", 3)),
        "param_plain": raises(lambda: m.register_parameter("q", T.ones(1))),
        "assign_plain": raises(lambda: setattr(m, "p", T.ones(1))),
        "nonleaf": raises(lambda: m.register_parameter("r", nn.Parameter(T.ones(1)) * 2)),
    }
    m.p = None
    return {
        "errs": errs,
        "sd": sorted(m.state_dict()),
        "buffers": [n for n, _ in m.named_buffers()],
        "params": [n for n, _ in m.named_parameters()],
        "p": m.p,
        "repr": repr(m),
    }


@program()
def prog_module_deletion_and_setattr_order(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    del m[1]
    m.append(nn.Sigmoid())
    m.insert(0, nn.Identity())
    m.extend([nn.Dropout(0.0)])
    names = [n for n, _ in m.named_children()]
    sl = m[1:3]
    ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
    ml[1] = nn.Tanh()
    md = nn.ModuleDict()
    md["x"] = nn.ReLU()
    md.update({"y": nn.Tanh()})
    popped = md.pop("x")
    return {
        "names": names,
        "len": len(m),
        "sl": type(sl).__name__,
        "sl_names": [n for n, _ in sl.named_children()],
        "ml": [type(x).__name__ for x in ml],
        "md": list(md.keys()),
        "popped": type(popped).__name__,
        "repr": repr(m),
        "idx_err": raises(lambda: m[10]),
    }


@program()
def prog_parametrizations_orthogonal_and_custom(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    lin = _lin(T, 3, 3, 8)
    P.register_parametrization(lin, "weight", Symmetric())
    w = lin.weight
    x = T.tensor(_data(2, 3))
    lin(x).sum().backward()
    orig_g = lin.parametrizations.weight.original.grad
    names = [n for n, _ in lin.named_parameters()]
    with P.cached():
        a = lin.weight
        b = lin.weight
    same = a is b
    P.remove_parametrizations(lin, "weight", leave_parametrized=True)
    return {
        "w": w,
        "sym": bool((w == w.t()).all()),
        "orig_g": orig_g,
        "names": names,
        "same": same,
        "after": [n for n, _ in lin.named_parameters()],
        "is_p": P.is_parametrized(lin),
        "w_after": lin.weight,
    }


@program()
def prog_weight_norm_and_spectral_norm(T: Any) -> Any:
    nn = T.nn
    wn = nn.utils.parametrizations.weight_norm(_lin(T, 3, 2, 1))
    x = T.tensor(_data(4, 3))
    wn(x).sum().backward()
    keys = sorted(wn.state_dict())
    g0 = wn.parametrizations.weight.original0.grad
    g1 = wn.parametrizations.weight.original1.grad
    T.manual_seed(0)
    sn = nn.utils.parametrizations.spectral_norm(_lin(T, 3, 4, 2))
    out = sn(x)
    sn.eval()
    out_eval = sn(x)
    return {
        "keys": keys,
        "g0": g0,
        "g1": g1,
        "w": wn.weight,
        "sn_keys": sorted(sn.state_dict()),
        "out": out,
        "out_eval": out_eval,
    }


@program()
def prog_clip_grad_norm_variants(T: Any) -> Any:
    nn = T.nn
    res = {}
    for norm_type in (2.0, 1.0, float("inf"), 0.5):
        m = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)), 3)
        (m(T.tensor(_data(5, 3))) ** 2).sum().backward()
        total = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=norm_type)
        res[str(norm_type)] = (total, [p.grad for p in m.parameters()])
    p = nn.Parameter(T.ones(2))
    p.grad = T.tensor([float("nan"), 1.0])
    res["nan"] = raises(lambda: nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True))
    res["nan_ok"] = nn.utils.clip_grad_norm_([p], 1.0)
    res["empty"] = nn.utils.clip_grad_norm_([], 1.0)
    q = nn.Parameter(T.ones(3))
    q.grad = T.tensor([-3.0, 0.5, 2.0])
    nn.utils.clip_grad_value_([q], 1.0)
    res["value"] = q.grad
    res["single"] = nn.utils.clip_grad_norm_(q, 0.1)
    return res


@program()
def prog_parameters_to_vector_roundtrip(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1)), 4)
    v = nn.utils.parameters_to_vector(m.parameters())
    nn.utils.vector_to_parameters(v * 2, m.parameters())
    v2 = nn.utils.parameters_to_vector(m.parameters())
    err = raises(lambda: nn.utils.vector_to_parameters([1.0], m.parameters()))
    gv = nn.utils.parameters_to_vector([p * 1 for p in m.parameters()])
    return {"v": v, "v2": v2, "err": err, "gv": gv, "p0": m[0].weight}


@program()
def prog_embedding_padding_idx_and_max_norm(T: Any) -> Any:
    nn = T.nn
    emb = nn.Embedding(6, 3, padding_idx=0)
    _seeded(T, emb, 2)
    idx = T.tensor([[0, 2, 2], [5, 0, 1]])
    out = emb(idx)
    out.sum().backward()
    emb2 = _seeded(T, nn.Embedding(4, 3, max_norm=0.3), 3)
    before = emb2.weight.detach().clone()
    o2 = emb2(T.tensor([1, 3]))
    bag = _seeded(T, nn.EmbeddingBag(5, 2, mode="mean"), 4)
    ob = bag(T.tensor([1, 2, 4, 4, 3]), T.tensor([0, 2]))
    ob.sum().backward()
    return {
        "out": out,
        "g": emb.weight.grad,
        "w0": emb.weight[0],
        "o2": o2,
        "before": before,
        "after": emb2.weight,
        "ob": ob,
        "bag_g": bag.weight.grad,
        "neg": raises(lambda: emb(T.tensor([-1]))),
        "oob": raises(lambda: emb(T.tensor([6]))),
    }


@program()
def prog_loss_reductions_and_weights(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(4, 3), requires_grad=True)
    tgt = T.tensor([0, 2, 1, 2])
    w = T.tensor([1.0, 2.0, 0.5])
    res = {}
    for red in ("mean", "sum", "none"):
        res["ce_" + red] = F.cross_entropy(x, tgt, weight=w, reduction=red)
        res["nll_" + red] = F.nll_loss(F.log_softmax(x, 1), tgt, reduction=red, ignore_index=1)
        res["bce_" + red] = F.binary_cross_entropy_with_logits(
            x, (x > 0).float(), pos_weight=T.tensor([1.0, 3.0, 0.2]), reduction=red
        )
        res["huber_" + red] = F.huber_loss(x, T.zeros(4, 3), delta=0.5, reduction=red)
        res["smooth_" + red] = F.smooth_l1_loss(x, T.ones(4, 3), beta=0.3, reduction=red)
    res["ls"] = F.cross_entropy(x, tgt, label_smoothing=0.1)
    res["probs"] = F.cross_entropy(x, F.softmax(x.detach() * 2, 1))
    total = sum(v.sum() for v in res.values())
    total.backward()
    res["grad"] = x.grad
    res["kl"] = F.kl_div(F.log_softmax(x, 1), F.softmax(x, 1), reduction="batchmean")
    res["ignore_all"] = F.cross_entropy(x, T.full((4,), -100))
    return res


@program()
def prog_rnn_packed_sequence_roundtrip(T: Any) -> Any:
    nn = T.nn
    U = nn.utils.rnn
    seqs = [T.tensor(_data(n, 2, seed=n)) for n in (4, 2, 3)]
    padded = U.pad_sequence(seqs, batch_first=True)
    lengths = T.tensor([4, 2, 3])
    packed = U.pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
    lstm = _seeded(T, nn.LSTM(2, 3, batch_first=True), 5)
    out, (h, c) = lstm(packed)
    unpacked, lens = U.pad_packed_sequence(out, batch_first=True, total_length=5)
    (unpacked.sum() + h.sum()).backward()
    ps = U.pack_sequence(seqs, enforce_sorted=False)
    err = raises(lambda: U.pack_padded_sequence(padded, lengths, batch_first=True))
    return {
        "padded": padded,
        "bs": packed.batch_sizes,
        "sorted": packed.sorted_indices,
        "unsorted": packed.unsorted_indices,
        "unpacked": unpacked,
        "lens": lens,
        "h": h,
        "c": c,
        "g": lstm.weight_ih_l0.grad,
        "ps_data": ps.data,
        "err": err,
        "unpad": [t.shape for t in U.unpad_sequence(padded, lengths, batch_first=True)],
    }


@program()
def prog_transformer_decoder_small(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
    dec = nn.TransformerDecoder(layer, num_layers=2)
    _seeded(T, dec, 6)
    tgt = T.tensor(_data(2, 3, 8))
    mem = T.tensor(_data(2, 4, 8, seed=1))
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    out = dec(tgt, mem, tgt_mask=mask, tgt_is_causal=True)
    out.sum().backward()
    return {
        "out": out,
        "mask": mask,
        "g": dec.layers[0].linear1.weight.grad,
        "n": len(list(dec.parameters())),
    }


@program()
def prog_multihead_attention_weights_and_kdim(T: Any) -> Any:
    nn = T.nn
    mha = _seeded(T, nn.MultiheadAttention(4, 2, kdim=3, vdim=5, batch_first=True), 7)
    q = T.tensor(_data(2, 3, 4))
    k = T.tensor(_data(2, 5, 3, seed=1))
    v = T.tensor(_data(2, 5, 5, seed=2))
    kpm = T.tensor([[False, False, True, True, False], [False] * 5])
    out, w = mha(q, k, v, key_padding_mask=kpm)
    out2, w2 = mha(q, k, v, average_attn_weights=False)
    out3, w3 = mha(q, k, v, need_weights=False)
    (out.sum() + out2.sum()).backward()
    return {
        "out": out,
        "w": w,
        "w2": w2,
        "w3": w3,
        "out3": out3,
        "gq": mha.q_proj_weight.grad,
        "names": sorted(n for n, _ in mha.named_parameters()),
    }


# --- optim and lr_scheduler --------------------------------------------------------------------


def _quad_problem(T: Any, seed: int = 0) -> tuple[Any, Any, Any]:
    model = _seeded(T, T.nn.Linear(3, 2), seed)
    x = T.tensor(_data(8, 3, seed=seed + 1))
    y = T.tensor(_data(8, 2, seed=seed + 2))
    return model, x, y


def _steps(T: Any, model: Any, opt: Any, x: Any, y: Any, n: int = 4) -> list[Any]:
    losses = []
    for _ in range(n):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return losses


@program()
def prog_optim_sgd_flag_matrix(T: Any) -> Any:
    res = {}
    for mom, nest, damp, wd, maximize in (
        (0.0, False, 0.0, 0.0, False),
        (0.9, False, 0.1, 1e-2, False),
        (0.9, True, 0.0, 1e-2, False),
        (0.5, False, 0.0, 0.0, True),
    ):
        for foreach in (False, True):
            model, x, y = _quad_problem(T)
            opt = T.optim.SGD(
                model.parameters(),
                lr=0.05,
                momentum=mom,
                nesterov=nest,
                dampening=damp,
                weight_decay=wd,
                maximize=maximize,
                foreach=foreach,
            )
            key = f"{mom}-{nest}-{damp}-{wd}-{maximize}-{foreach}"
            res[key] = (_steps(T, model, opt, x, y), model.weight.detach())
    res["nest_err"] = raises(
        lambda: T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, nesterov=True)
    )
    return res


@program()
def prog_optim_adam_family_flags(T: Any) -> Any:
    res = {}
    optim = T.optim
    makers = {
        "adam_amsgrad": lambda p: optim.Adam(p, lr=0.01, amsgrad=True, weight_decay=0.1),
        "adam_max": lambda p: optim.Adam(p, lr=0.01, maximize=True, foreach=True),
        "adamw_ams": lambda p: optim.AdamW(p, lr=0.01, amsgrad=True, weight_decay=0.5),
        "adamax": lambda p: optim.Adamax(p, lr=0.02, weight_decay=0.1),
        "nadam": lambda p: optim.NAdam(
            p, lr=0.01, momentum_decay=0.005, decoupled_weight_decay=True, weight_decay=0.1
        ),
        "radam": lambda p: optim.RAdam(p, lr=0.01, decoupled_weight_decay=True, weight_decay=0.1),
        "rmsprop": lambda p: optim.RMSprop(
            p, lr=0.01, momentum=0.9, centered=True, weight_decay=0.01
        ),
        "adagrad": lambda p: optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1),
        "adadelta": lambda p: optim.Adadelta(p, lr=1.0, rho=0.8, weight_decay=0.01),
        "rprop": lambda p: optim.Rprop(p, lr=0.01, etas=(0.4, 1.3), step_sizes=(1e-4, 1.0)),
        "asgd": lambda p: optim.ASGD(p, lr=0.05, t0=2, lambd=1e-3),
    }
    for name, make in makers.items():
        model, x, y = _quad_problem(T, 1)
        opt = make(model.parameters())
        res[name] = (_steps(T, model, opt, x, y, 5), model.weight.detach(), model.bias.detach())
        res[name + "_state_keys"] = sorted(opt.state[model.weight].keys())
    return res


@program()
def prog_optim_state_dict_roundtrip_continues(T: Any) -> Any:
    model, x, y = _quad_problem(T, 2)
    opt = T.optim.Adam(model.parameters(), lr=0.02, betas=(0.8, 0.9))
    _steps(T, model, opt, x, y, 3)
    sd = opt.state_dict()
    model2, _, _ = _quad_problem(T, 2)
    model2.load_state_dict(model.state_dict())
    opt2 = T.optim.Adam(model2.parameters(), lr=0.5)
    opt2.load_state_dict(sd)
    l1 = _steps(T, model, opt, x, y, 2)
    l2 = _steps(T, model2, opt2, x, y, 2)
    return {
        "l1": l1,
        "l2": l2,
        "lr": opt2.param_groups[0]["lr"],
        "state_step": sd["state"][0]["step"],
        "groups": [{k: v for k, v in g.items() if k != "params"} for g in sd["param_groups"]],
        "params": sd["param_groups"][0]["params"],
    }


@program()
def prog_optim_load_state_dict_errors(T: Any) -> Any:
    model, x, y = _quad_problem(T, 3)
    opt = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    _steps(T, model, opt, x, y, 1)
    sd = opt.state_dict()
    other = T.optim.SGD([model.weight], lr=0.1)
    two = T.optim.SGD([{"params": [model.weight]}, {"params": [model.bias]}], lr=0.1)
    return {
        "len": raises(lambda: other.load_state_dict(sd)),
        "groups": raises(lambda: two.load_state_dict(sd)),
    }


@program()
def prog_optim_param_groups_add_and_errors(T: Any) -> Any:
    nn = T.nn
    a, b, c = nn.Parameter(T.ones(2)), nn.Parameter(T.ones(3)), nn.Parameter(T.ones(1))
    opt = T.optim.SGD([{"params": [a], "lr": 0.5}, {"params": b}], lr=0.1, momentum=0.5)
    opt.add_param_group({"params": [c], "weight_decay": 0.1})
    errs = {
        "dup": raises(lambda: opt.add_param_group({"params": [a]})),
        "empty": raises(lambda: T.optim.SGD([], lr=0.1)),
        "nonleaf": raises(lambda: T.optim.SGD([a * 2], lr=0.1)),
        "tensor": raises(lambda: T.optim.SGD(a, lr=0.1)),
        "neg_lr": raises(lambda: T.optim.Adam([a], lr=-1.0)),
        "beta": raises(lambda: T.optim.Adam([a], betas=(1.0, 0.9))),
        "eps": raises(lambda: T.optim.Adam([a], eps=-1.0)),
        "set": raises(lambda: T.optim.SGD({a, b}, lr=0.1)),
        "dupe_in_group": raises(lambda: T.optim.SGD([a, a], lr=0.1)),
    }
    for p, k in ((a, 1.0), (b, 2.0), (c, 3.0)):
        p.grad = T.full_like(p, k)
    opt.step()
    return {
        "errs": errs,
        "groups": [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups],
        "a": a,
        "b": b,
        "c": c,
        "repr": repr(opt),
    }


@program()
def prog_optim_zero_grad_and_none_grads(T: Any) -> Any:
    a = T.nn.Parameter(T.ones(2))
    b = T.nn.Parameter(T.ones(2))
    opt = T.optim.Adam([a, b], lr=0.1)
    (a * 3).sum().backward()
    opt.step()
    state_b = len(opt.state[b])
    ga = a.grad
    opt.zero_grad(set_to_none=False)
    same = a.grad is ga
    z = a.grad.clone()
    opt.zero_grad()
    return {
        "a": a,
        "b": b,
        "state_b": state_b,
        "same": same,
        "z": z,
        "none": a.grad,
        "state_a": sorted(opt.state[a].keys()),
        "step": opt.state[a]["step"],
    }


@program()
def prog_lbfgs_strong_wolfe(T: Any) -> Any:
    w = T.nn.Parameter(T.tensor([1.5, -0.5]))
    opt = T.optim.LBFGS([w], lr=1, max_iter=10, history_size=5, line_search_fn="strong_wolfe")
    calls = []

    def closure():
        opt.zero_grad()
        loss = (1 - w[0]) ** 2 + 100 * (w[1] - w[0] ** 2) ** 2
        loss.backward()
        calls.append(1)
        return loss

    losses = [opt.step(closure) for _ in range(3)]
    return {
        "losses": losses,
        "w": w,
        "calls": len(calls),
        "n_iter": opt.state[w]["n_iter"],
        "func_evals": opt.state[w]["func_evals"],
    }


@program()
def prog_scheduler_step_multistep_exponential(T: Any) -> Any:
    S = T.optim.lr_scheduler
    res = {}
    for name, make in {
        "step": lambda o: S.StepLR(o, step_size=2, gamma=0.5),
        "multi": lambda o: S.MultiStepLR(o, milestones=[1, 3, 3], gamma=0.1),
        "exp": lambda o: S.ExponentialLR(o, gamma=0.9),
        "const": lambda o: S.ConstantLR(o, factor=0.5, total_iters=3),
        "linear": lambda o: S.LinearLR(o, start_factor=0.2, total_iters=4),
        "poly": lambda o: S.PolynomialLR(o, total_iters=4, power=2.0),
        "lambda": lambda o: S.LambdaLR(o, [lambda e: 0.9**e, lambda e: 1 / (e + 1)]),
        "mult": lambda o: S.MultiplicativeLR(o, lambda e: 0.8),
    }.items():
        a = T.nn.Parameter(T.ones(1))
        b = T.nn.Parameter(T.ones(1))
        opt = T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=1.0)
        sch = make(opt)
        lrs = [sch.get_last_lr()]
        for _ in range(6):
            opt.step()
            sch.step()
            lrs.append(sch.get_last_lr())
        res[name] = lrs
        res[name + "_sd"] = {k: v for k, v in sch.state_dict().items() if "lambda" not in k}
    return res


@program()
def prog_scheduler_cosine_warm_restarts_onecycle(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(1))
    opt = T.optim.SGD([p], lr=0.1, momentum=0.9)
    cos = S.CosineAnnealingLR(opt, T_max=5, eta_min=0.01)
    l1 = []
    for _ in range(12):
        opt.step()
        cos.step()
        l1.append(cos.get_last_lr()[0])
    opt2 = T.optim.SGD([p], lr=0.1)
    wr = S.CosineAnnealingWarmRestarts(opt2, T_0=3, T_mult=2, eta_min=0.001)
    l2 = []
    for i in range(10):
        opt2.step()
        wr.step(i + 0.5 if i % 3 == 0 else None)
        l2.append(wr.get_last_lr()[0])
    opt3 = T.optim.SGD([p], lr=0.1, momentum=0.9)
    oc = S.OneCycleLR(opt3, max_lr=1.0, total_steps=10, anneal_strategy="linear", three_phase=True)
    l3, m3 = [], []
    for _ in range(10):
        opt3.step()
        oc.step()
        l3.append(oc.get_last_lr()[0])
        m3.append(opt3.param_groups[0]["momentum"])
    err = raises(oc.step)
    return {"cos": l1, "wr": l2, "oc": l3, "mom": m3, "err": err, "T_cur": wr.T_cur}


@program()
def prog_scheduler_reduce_on_plateau(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(1))
    opt = T.optim.Adam([p], lr=1.0)
    sch = S.ReduceLROnPlateau(
        opt, mode="min", factor=0.5, patience=1, threshold=0.1, cooldown=1, min_lr=0.1
    )
    lrs = []
    for metric in [1.0, 0.95, 0.94, 0.93, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]:
        sch.step(metric)
        lrs.append((opt.param_groups[0]["lr"], sch.num_bad_epochs, sch.cooldown_counter))
    sch2 = S.ReduceLROnPlateau(opt, mode="max", threshold_mode="abs", patience=0)
    lrs2 = []
    for metric in [1.0, 1.0, 2.0, 1.5]:
        sch2.step(metric)
        lrs2.append(sch2.get_last_lr())
    return {
        "lrs": lrs,
        "lrs2": lrs2,
        "best": sch.best,
        "bad_mode": raises(lambda: S.ReduceLROnPlateau(opt, mode="avg")),
        "bad_factor": raises(lambda: S.ReduceLROnPlateau(opt, factor=1.0)),
    }


@program()
def prog_scheduler_sequential_and_chained(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(1))
    opt = T.optim.SGD([p], lr=1.0)
    warm = S.LinearLR(opt, start_factor=0.1, total_iters=3)
    decay = S.ExponentialLR(opt, gamma=0.5)
    seq = S.SequentialLR(opt, [warm, decay], milestones=[3])
    l1 = []
    for _ in range(7):
        opt.step()
        seq.step()
        l1.append(seq.get_last_lr())
    opt2 = T.optim.SGD([p], lr=1.0)
    ch = S.ChainedScheduler(
        [S.ConstantLR(opt2, factor=0.5, total_iters=2), S.ExponentialLR(opt2, gamma=0.9)]
    )
    l2 = []
    for _ in range(5):
        opt2.step()
        ch.step()
        l2.append(ch.get_last_lr())
    opt3 = T.optim.SGD([p], lr=1.0)
    bad = raises(lambda: S.SequentialLR(opt3, [S.StepLR(opt3, 1)], milestones=[1]))
    return {"seq": l1, "chain": l2, "bad": bad, "sd_keys": sorted(seq.state_dict())}


@program()
def prog_scheduler_cyclic(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(1))
    res = {}
    for mode in ("triangular", "triangular2", "exp_range"):
        opt = T.optim.SGD([p], lr=0.1, momentum=0.9)
        sch = S.CyclicLR(
            opt, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode=mode, gamma=0.9
        )
        lrs = []
        for _ in range(11):
            opt.step()
            sch.step()
            lrs.append((sch.get_last_lr()[0], opt.param_groups[0]["momentum"]))
        res[mode] = lrs
    opt = T.optim.Adam([p], lr=0.1)
    res["adam_err"] = raises(lambda: S.CyclicLR(opt, 0.01, 0.1))
    res["adam_ok"] = S.CyclicLR(opt, 0.01, 0.1, cycle_momentum=False).get_last_lr()
    return res


@program()
def prog_swa_utils_averaged_model(T: Any) -> Any:
    swa = T.optim.swa_utils
    model, x, y = _quad_problem(T, 5)
    ema = swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9))
    avg = swa.AveragedModel(model)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    sch = swa.SWALR(opt, swa_lr=0.05, anneal_epochs=2, anneal_strategy="cos")
    lrs = []
    for _ in range(4):
        _steps(T, model, opt, x, y, 1)
        ema.update_parameters(model)
        avg.update_parameters(model)
        sch.step()
        lrs.append(sch.get_last_lr())
    return {
        "ema_w": ema.module.weight,
        "avg_w": avg.module.weight,
        "n": avg.n_averaged,
        "lrs": lrs,
        "out": avg(x),
        "keys": sorted(avg.state_dict()),
    }


# --- data utilities ----------------------------------------------------------------------------


@program()
def prog_dataloader_shuffle_generator_and_drop_last(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(10).float(), T.arange(10) * 2)
    g = T.Generator().manual_seed(7)
    dl = D.DataLoader(ds, batch_size=3, shuffle=True, generator=g, drop_last=True)
    epochs = [[(xb.tolist(), yb.tolist()) for xb, yb in dl] for _ in range(2)]
    dl2 = D.DataLoader(ds, batch_size=4)
    return {
        "epochs": epochs,
        "len": len(dl),
        "len2": len(dl2),
        "last": [b[0].shape for b in dl2],
        "ds_len": len(ds),
        "item": ds[3],
    }


@program()
def prog_random_split_and_subset(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(10))
    a, b = D.random_split(ds, [7, 3], generator=T.Generator().manual_seed(42))
    c, d, e = D.random_split(ds, [0.5, 0.3, 0.2], generator=T.Generator().manual_seed(1))
    sub = D.Subset(ds, [9, 0, 4])
    cat = D.ConcatDataset([sub, a])
    return {
        "a": list(a.indices),
        "b": list(b.indices),
        "c": list(c.indices),
        "d": list(d.indices),
        "e": list(e.indices),
        "sub": [sub[i][0] for i in range(3)],
        "cat_len": len(cat),
        "cat5": cat[5],
        "bad": raises(lambda: D.random_split(ds, [5, 6])),
        "cum": cat.cumulative_sizes,
    }


@program()
def prog_dataloader_collate_dicts_and_samplers(T: Any) -> Any:
    D = T.utils.data

    class Dicts(D.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"x": T.full((2,), float(i)), "y": i, "name": f"s{i}", "t": (i, i * 0.5)}

    dl = D.DataLoader(Dicts(), batch_size=2)
    batches = list(dl)
    ws = D.WeightedRandomSampler([0.1, 0.9, 0.0, 0.5], 6, generator=T.Generator().manual_seed(3))
    rs = D.RandomSampler(
        range(5), replacement=True, num_samples=4, generator=T.Generator().manual_seed(0)
    )
    bs = D.BatchSampler(D.SequentialSampler(range(6)), batch_size=4, drop_last=False)
    dl2 = D.DataLoader(D.TensorDataset(T.arange(6)), batch_sampler=bs)
    return {
        "batches": batches,
        "ws": list(ws),
        "rs": list(rs),
        "bs": list(bs),
        "dl2": [b[0].tolist() for b in dl2],
        "coll": D.default_collate([(1, 2.0), (3, 4.0)]),
    }


@program()
def prog_iterable_dataset_and_errors(T: Any) -> Any:
    D = T.utils.data

    class Stream(D.IterableDataset):
        def __iter__(self):
            return iter(T.arange(7).float().split(1))

    dl = D.DataLoader(Stream(), batch_size=3)
    out = [b.tolist() for b in dl]
    return {
        "out": out,
        "shuffle_err": raises(lambda: D.DataLoader(Stream(), shuffle=True)),
        "len_err": raises(lambda: len(Stream())),
        "bs_err": raises(lambda: D.DataLoader(range(4), batch_size=2, batch_sampler=[[0]])),
        "tds_err": raises(lambda: D.TensorDataset(T.ones(3), T.ones(4))),
    }


# --- checkpoint --------------------------------------------------------------------------------


@program()
def prog_checkpoint_sequential_and_non_reentrant(T: Any) -> Any:
    nn = T.nn
    cp = T.utils.checkpoint
    model = _seeded(T, nn.Sequential(*[nn.Linear(4, 4) for _ in range(4)], nn.Tanh()), 9)
    x = T.tensor(_data(3, 4), requires_grad=True)
    out = cp.checkpoint_sequential(model, 2, x, use_reentrant=False)
    out.sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    out2 = cp.checkpoint(lambda a: model(a), x, use_reentrant=False)
    out2.sum().backward()
    (gg,) = T.autograd.grad(
        cp.checkpoint(lambda a: (a**3).sum(), x, use_reentrant=False), x, create_graph=True
    )
    return {
        "out": out,
        "g1": g1,
        "g2": x.grad,
        "gg": gg,
        "gg_rg": gg.requires_grad,
        "w": model[0].weight.grad,
    }


@program()
def prog_checkpoint_reentrant_no_grad_input(T: Any) -> Any:
    cp = T.utils.checkpoint
    lin = _lin(T, 3, 3, 4)
    x = T.tensor(_data(2, 3))
    out = cp.checkpoint(lin, x, use_reentrant=True)
    err = raises(lambda: out.sum().backward())
    out2 = cp.checkpoint(lin, x.requires_grad_(), use_reentrant=True)
    out2.sum().backward()
    return {
        "out": out,
        "gf": out.grad_fn,
        "err": err,
        "out2": out2,
        "w": lin.weight.grad,
        "x": x.grad,
    }


# --- printing, promotion, integer arithmetic ---------------------------------------------------


@program()
def prog_repr_grad_fn_variants(T: Any) -> Any:
    x = T.tensor([1.5, -2.25, 3.0], requires_grad=True)
    vals = {
        "leaf": x,
        "mul": x * 2,
        "view": x.view(3, 1),
        "idx": x[1],
        "sum": x.sum(),
        "mean": x.mean(),
        "unbind": x.unbind()[0],
        "max": x.max(0),
        "sort": x.sort(),
        "dbl": x.double() * 1e-5,
        "big": x * 1e6,
        "int_like": x.detach().round(),
        "half": x.half() * 3,
        "cplx": T.complex(x, x),
        "empty": x[:0],
        "param": T.nn.Parameter(T.tensor([[1.0, 2.0], [3.0, 4.0]])),
        "bool": x > 0,
        "long": T.tensor([1, 200000, -3]),
        "nan": x / T.tensor([0.0, 1.0, 0.0]),
    }
    return {k: repr(v) for k, v in vals.items()} | {"str_grad_fn": str((x * 2).grad_fn)[:14]}


@program()
def prog_repr_large_and_summarized(T: Any) -> Any:
    a = T.arange(2000, dtype=T.float32).reshape(40, 50) / 7
    b = T.linspace(-1e-4, 1e4, 9)
    c = T.tensor([1e-10, 1.0, 1e10])
    d = T.arange(1200).reshape(2, 3, 200)
    e = (T.arange(12, dtype=T.float64).reshape(3, 4) * 0.1).requires_grad_()
    return {
        "a": repr(a),
        "b": repr(b),
        "c": repr(c),
        "d": repr(d),
        "e": repr(e * 2),
        "e_str": str(e),
        "f": repr(T.zeros(2, 0, 3)),
        "g": repr(T.tensor(float("inf"))),
    }


@program()
def prog_format_and_fstring(T: Any) -> Any:
    x = T.tensor(3.14159, requires_grad=True)
    y = T.tensor([1.0, 2.0])
    return {
        "f": f"{x:.2f}",
        "f_int": f"{T.tensor(7):>4}",
        "plain": f"{x}",
        "vec": f"{y}",
        "vec_fmt": raises(lambda: f"{y:.2f}"),
        "item": f"{x.item():.3f}",
        "round": round(T.tensor(2.567).item(), 2),
    }


@program()
def prog_dtype_promotion_with_scalars(T: Any) -> Any:
    i = T.tensor([1, 2, 3])
    u = T.tensor([1, 2, 3], dtype=T.uint8)
    h = T.tensor([1.0, 2.0], dtype=T.float16)
    f = T.tensor([1.0, 2.0])
    d = T.tensor([1.0, 2.0], dtype=T.float64)
    b = T.tensor([True, False])
    res = {
        "i+1.5": i + 1.5,
        "i*2": i * 2,
        "i/2": i / 2,
        "u-5": u - 5,
        "u+300": u + 300,
        "h*1e5": h * 1e5,
        "f+d0": f + T.tensor(1.0, dtype=T.float64),
        "d+f": d + f,
        "b+b": b + b,
        "b*1.5": b * 1.5,
        "i+True": i + True,
        "f**2": f**2,
        "i**2": i**2,
        "i**-1": raises(lambda: i**-1),
        "i**0.5": i**0.5,
        "2**i": 2**i,
        "u*i": u * i,
        "cplx": f * 1j,
        "h+f0": h + T.tensor(1.0),
        "i0+f": T.tensor(1) + f,
        "result_type": T.result_type(i, 1.0),
        "promote": T.promote_types(T.uint8, T.int8),
        "can_cast": T.can_cast(T.float32, T.int32),
        "sub_bool": raises(lambda: b - b),
        "neg_bool": raises(lambda: -b),
    }
    return res


@program()
def prog_integer_division_and_remainder(T: Any) -> Any:
    a = T.tensor([7, -7, 7, -7, 0])
    b = T.tensor([2, 2, -2, -2, 3])
    fa = a.float()
    fb = b.float()
    return {
        "floordiv": a // b,
        "div_floor": T.div(a, b, rounding_mode="floor"),
        "div_trunc": T.div(a, b, rounding_mode="trunc"),
        "true": a / b,
        "rem": a % b,
        "remainder": T.remainder(a, b),
        "fmod": T.fmod(a, b),
        "frem": fa % fb,
        "ffmod": T.fmod(fa, fb),
        "ffloor": fa // fb,
        "zero_int": raises(lambda: a // T.zeros(5, dtype=T.long)),
        "zero_float": fa / 0,
        "zero_floordiv": fa // 0,
        "neg_scalar": a % -3,
        "rem_scalar_first": T.remainder(5, b),
        "floor_scalar": 7 // b,
        "uint": T.tensor([250], dtype=T.uint8) // 3,
        "idiv_err": raises(lambda: a.div_(b)),
        "bitwise": (a & 3, a | 8, a ^ b, ~a, a << 1, a >> 1),
    }


@program()
def prog_remainder_fmod_grads(T: Any) -> Any:
    x = T.tensor([5.5, -5.5, 2.0, -0.3], requires_grad=True)
    y = T.tensor([2.0, 2.0, -3.0, 0.7], requires_grad=True)
    (T.remainder(x, y) * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    gx, gy = x.grad.clone(), y.grad.clone()
    x.grad = y.grad = None
    (T.fmod(x, y) * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    z = T.tensor([3.7, -3.7], requires_grad=True)
    fd = z // 2
    err = raises(lambda: fd.sum().backward())
    tr = T.div(z, 2, rounding_mode="trunc")
    tr.sum().backward()
    return {
        "gx": gx,
        "gy": gy,
        "fx": x.grad,
        "fy": y.grad,
        "fd": fd,
        "err": err,
        "tr": tr,
        "trunc_g": z.grad,
    }


# --- indexing and selection gradients ----------------------------------------------------------


@program()
def prog_bool_and_long_mask_grads(T: Any) -> Any:
    x = T.tensor(_data(3, 4), requires_grad=True)
    m = x.detach() > 0
    a = x[m]
    b = x[T.tensor([2, 0, 2])]
    c = x[:, T.tensor([True, False, True, False])]
    d = x[T.tensor([[0, 1], [1, 2]]), T.tensor([[3, 3], [0, 0]])]
    e = x[m.any(1)]
    f = x[..., None, 1:3]
    g = x[T.tensor(1)]
    (a.sum() * 2 + b.sum() + (c**2).sum() + d.sum() * 3 + e.mean() + f.sum() + g.sum()).backward()
    return {
        "a": a,
        "b": b,
        "c": c,
        "d": d,
        "e": e,
        "f": f,
        "g": g,
        "grad": x.grad,
        "err": raises(lambda: x[T.tensor([True, False])]),
        "err2": raises(lambda: x[T.tensor([5])]),
        "err3": raises(lambda: x[T.tensor([1.0])]),
    }


@program()
def prog_where_masked_fill_grads(T: Any) -> Any:
    x = T.tensor([-1.0, 0.0, 2.0, 4.0], requires_grad=True)
    y = T.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    w = T.where(x > 0, x * 2, y)
    w2 = T.where(x > 1, x, 0.5)
    w3 = x.masked_fill(x < 1, float("-inf")).softmax(0)
    w4 = T.where(x > 0)
    w5 = x.masked_scatter(x > 0, T.tensor([7.0, 8.0]))
    (w.sum() + w2.sum() + (w3 * T.arange(4.0)).sum() + w5.sum()).backward()
    return {
        "w": w,
        "w2": w2,
        "w3": w3,
        "w4": w4,
        "w5": w5,
        "gx": x.grad,
        "gy": y.grad,
        "err": raises(lambda: T.where(x > 0, x, T.ones(3))),
    }


@program()
def prog_scatter_gather_family_grads(T: Any) -> Any:
    src = T.tensor(_data(2, 4), requires_grad=True)
    idx = T.tensor([[0, 1, 1, 3], [2, 2, 0, 1]])
    base = T.zeros(2, 5, requires_grad=True)
    s1 = base.scatter(1, idx, src)
    s2 = base.scatter_add(1, idx, src)
    s3 = base.scatter_reduce(1, idx, src, reduce="amax", include_self=False)
    s4 = base.scatter_reduce(1, idx, src, reduce="mean")
    s5 = base.scatter(1, idx, 2.5)
    g = src.gather(1, T.tensor([[3, 3], [0, 1]]))
    ia = T.zeros(5, 4).index_add(0, T.tensor([0, 4, 0]), T.ones(3, 4), alpha=2)
    ic = T.zeros(4, 2, requires_grad=True).index_copy(0, T.tensor([3, 1]), src.t()[:2])
    isel = src.index_select(1, T.tensor([3, 0, 3]))
    tot = s1.sum() + (s2**2).sum() + s3.sum() + (s4 * 3).sum() + s5.sum() + g.sum()
    (tot + ic.sum() + isel.sum()).backward()
    return {
        "s1": s1,
        "s2": s2,
        "s3": s3,
        "s4": s4,
        "s5": s5,
        "g": g,
        "ia": ia,
        "ic": ic,
        "isel": isel,
        "src_g": src.grad,
        "base_g": base.grad,
        "err": raises(lambda: src.gather(1, T.tensor([[4]]))),
        "err2": raises(lambda: src.gather(1, T.tensor([[0]], dtype=T.int32))),
    }


@program()
def prog_sort_topk_unique_stability(T: Any) -> Any:
    x = T.tensor([3.0, 1.0, 2.0, 1.0, 3.0, float("nan"), -0.0, 0.0], requires_grad=True)
    s = x.sort(stable=True)
    sd = x.sort(descending=True, stable=True)
    tk = x.topk(3)
    tk2 = x.topk(3, largest=False, sorted=True)
    am = x.detach().argsort(stable=True)
    (s.values * T.arange(8.0)).nansum().backward()
    i = T.tensor([3, 1, 3, 2, 1, 1])
    u = T.unique(i, return_inverse=True, return_counts=True)
    uc = T.unique_consecutive(T.tensor([1, 1, 2, 2, 1, 3]), return_counts=True)
    ud = T.unique(T.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True)
    return {
        "s": s,
        "sd": sd,
        "tk": tk,
        "tk2": tk2,
        "am": am,
        "g": x.grad,
        "u": u,
        "uc": uc,
        "ud": ud,
        "kth": x.detach()[:5].kthvalue(2),
        "msort": T.msort(x.detach()[:5]),
        "searchsorted": T.searchsorted(
            T.tensor([1.0, 2.0, 2.0, 5.0]), T.tensor([2.0, 3.0]), right=True
        ),
    }


@program()
def prog_cumulative_and_statistics_grads(T: Any) -> Any:
    x = T.tensor([[1.0, -2.0, 3.0], [0.5, 0.5, -1.0]], requires_grad=True)
    parts = {
        "cumsum": x.cumsum(1),
        "cumprod": x.cumprod(0),
        "cummax": x.cummax(1),
        "logcumsumexp": x.logcumsumexp(1),
        "var": x.var(1),
        "std0": x.std(0, correction=0),
        "median": x.median(1),
        "nanmean": x.nanmean(),
        "logsumexp": x.logsumexp(1),
        "norm": x.norm(dim=1),
        "amin": x.amin(1),
        "aminmax": x.aminmax(),
        "var_mean": T.var_mean(x, 1),
        "quantile": T.quantile(x, 0.3, dim=1),
        "mode": x.mode(1),
        "prod": x.prod(1),
    }
    tot = 0
    for v in parts.values():
        if isinstance(v, tuple):
            v = v[0]
        tot = tot + v.sum()
    tot.backward()
    return parts | {"g": x.grad}


@program()
def prog_setitem_variants_grad(T: Any) -> Any:
    x = T.tensor(_data(4, 3), requires_grad=True)
    y = x.clone()
    y[0] = 0
    y[1:3, 1] = T.tensor([5.0, 6.0])
    y[y > 1] = -1
    y[T.tensor([3, 3]), 0] = x[0, :2] * 10
    y[..., 2] += 1
    y[:, ::2] *= 2
    v = T.ones(3, requires_grad=True)
    y[2] = v
    y.sum().backward()
    return {
        "y": y,
        "gf": y.grad_fn,
        "gx": x.grad,
        "gv": v.grad,
        "ver": y._version,
        "err": raises(lambda: y.__setitem__(0, T.ones(4))),
        "err2": raises(lambda: x.__setitem__(0, 1.0)),
    }


@program()
def prog_advanced_index_put_accumulate(T: Any) -> Any:
    x = T.zeros(5, requires_grad=True)
    vals = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    idx = T.tensor([0, 2, 0, 4])
    y = x.index_put((idx,), vals, accumulate=True)
    z = x.index_put((idx,), vals)
    (y * T.arange(5.0)).sum().backward()
    g1 = (x.grad.clone(), vals.grad.clone())
    bins = T.bincount(T.tensor([0, 3, 3, 1]), weights=T.tensor([0.5, 1.0, 2.0, 1.0]))
    hist = T.histc(T.tensor([0.1, 0.2, 0.9, 0.5]), bins=4, min=0, max=1)
    return {"y": y, "z": z, "g1": g1, "bins": bins, "hist": hist}


# --- more printing ------------------------------------------------------------------------------


@program()
def prog_print_options_profiles(T: Any) -> Any:
    x = T.tensor(_data(3, 5) * 1000)
    y = T.tensor([1e-5, 1.0, 123456.0])
    out = {}
    try:
        T.set_printoptions(precision=2)
        out["p2"] = repr(x)
        T.set_printoptions(sci_mode=True)
        out["sci"] = repr(y)
        T.set_printoptions(sci_mode=False)
        out["nosci"] = repr(y)
        T.set_printoptions(profile="short")
        out["short"] = repr(T.arange(100.0).reshape(10, 10))
        T.set_printoptions(profile="full")
        out["full"] = repr(T.arange(1100))
        T.set_printoptions(profile="default", linewidth=40)
        out["narrow"] = repr(x)
        T.set_printoptions(threshold=5, edgeitems=1)
        out["edge"] = repr(T.arange(20.0).reshape(4, 5))
    finally:
        T.set_printoptions(profile="default")
    out["after"] = repr(y)
    return out


@program()
def prog_repr_dtypes_and_special_values(T: Any) -> Any:
    vals = {
        "i8": T.tensor([-128, 0, 127], dtype=T.int8),
        "u8": T.tensor([0, 255], dtype=T.uint8),
        "i16": T.tensor([1, -2], dtype=T.int16),
        "f16": T.tensor([1.0, 65504.0, 1e-4], dtype=T.float16),
        "f64": T.tensor([1.0, 2.5], dtype=T.float64, requires_grad=True),
        "c64": T.tensor([1 + 2j, float("nan") + 0j, -0.5j]),
        "c128": T.tensor([1 + 1e-8j], dtype=T.complex128),
        "mixed_inf": T.tensor([float("inf"), -float("inf"), float("nan"), 1.5]),
        "allint_float": T.tensor([1.0, 2.0, -3.0]),
        "tiny": T.tensor([1e-20, 1e-21]),
        "bool0": T.tensor(True),
        "neg0": T.tensor([-0.0, 0.0]),
        "i64_0d": T.tensor(5),
        "f_0d_grad": T.tensor(2.5, requires_grad=True) * 2,
        "ones_int": T.ones(2, 2, dtype=T.int32),
        "empty_f64": T.empty(0, dtype=T.float64),
        "empty_2d_int": T.zeros(0, 2, dtype=T.long),
    }
    return {k: repr(v) for k, v in vals.items()}


@program()
def prog_repr_under_float64_default(T: Any) -> Any:
    old = T.get_default_dtype()
    try:
        T.set_default_dtype(T.float64)
        a = T.tensor([1.0, 2.0])
        b = T.tensor([1.0, 2.0], dtype=T.float32)
        c = T.tensor([1 + 1j])
        return {
            "a": repr(a),
            "b": repr(b),
            "c": repr(c),
            "dt": a.dtype,
            "cdt": c.dtype,
            "ar": T.arange(3.0).dtype,
            "lin": repr(T.nn.Linear(1, 1).weight.dtype),
        }
    finally:
        T.set_default_dtype(old)


# --- optimizer hooks and extras ----------------------------------------------------------------


@program()
def prog_optimizer_step_hooks(T: Any) -> Any:
    model, x, y = _quad_problem(T, 6)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    log = []
    h1 = opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", len(args))))
    opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post",)))
    _steps(T, model, opt, x, y, 2)
    h1.remove()
    _steps(T, model, opt, x, y, 1)
    sd_log = []
    opt.register_state_dict_pre_hook(lambda o: sd_log.append("sd_pre"))
    opt.register_state_dict_post_hook(lambda o, sd: sd_log.append(("sd_post", sorted(sd))))
    opt.register_load_state_dict_pre_hook(lambda o, sd: sd_log.append("load_pre"))
    opt.register_load_state_dict_post_hook(lambda o: sd_log.append("load_post"))
    opt.load_state_dict(opt.state_dict())
    opt.register_step_pre_hook(lambda o, args, kwargs: (args, kwargs))
    _steps(T, model, opt, x, y, 1)
    bad = opt.register_step_pre_hook(lambda o, args, kwargs: args)
    err = raises(opt.step)
    bad.remove()
    optimizer_mod = importlib.import_module(T.__name__ + ".optim.optimizer")
    h = optimizer_mod.register_optimizer_step_post_hook(lambda o, a, k: log.append("global"))
    _steps(T, model, opt, x, y, 1)
    h.remove()
    sd_first = []
    opt.register_state_dict_pre_hook(lambda o: sd_first.append("first"), prepend=True)
    opt.state_dict()
    return {"log": log, "sd_log": sd_log, "w": model.weight, "err": err, "sd_first": sd_first}


@program()
def prog_optimizer_tensor_lr_and_fused(T: Any) -> Any:
    res = {}
    for name, make in {
        "adam_tensor_lr": lambda p: T.optim.Adam(p, lr=T.tensor(0.01)),
        "adamw_fused": lambda p: T.optim.AdamW(p, lr=0.01, fused=True),
        "sgd_fused": lambda p: T.optim.SGD(p, lr=0.01, momentum=0.9, fused=True),
        "adam_foreach_false": lambda p: T.optim.Adam(p, lr=0.01, foreach=False),
    }.items():
        model, x, y = _quad_problem(T, 7)
        opt = raises(lambda make=make, model=model: make(model.parameters()))
        if isinstance(opt, T.optim.Optimizer):
            res[name] = (
                _steps(T, model, opt, x, y, 3),
                model.weight.detach(),
                {k: v for k, v in opt.param_groups[0].items() if k != "params"},
            )
        else:
            res[name] = opt
    res["fused_foreach"] = raises(
        lambda: T.optim.Adam([T.nn.Parameter(T.ones(1))], fused=True, foreach=True)
    )
    return res


@program()
def prog_optimizer_sparse_and_complex_params(T: Any) -> Any:
    p = T.nn.Parameter(T.tensor([1 + 1j, -2 + 0.5j]))
    opt = T.optim.Adam([p], lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        loss = (p.abs() ** 2).sum()
        loss.backward()
        opt.step()
    q = T.nn.Parameter(T.tensor([1 + 1j]))
    opt2 = T.optim.SGD([q], lr=0.1, momentum=0.9)
    (q * q.conj()).real.sum().backward()
    opt2.step()
    return {"p": p, "q": q, "state": opt.state[p]["exp_avg_sq"]}


@program()
def prog_scheduler_misuse_warnings(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(1))
    opt = T.optim.SGD([p], lr=1.0)
    sch = S.StepLR(opt, 1, gamma=0.5)
    sch.step()  # before optimizer.step(): warns
    lr1 = sch.get_last_lr()
    direct = sch.get_lr()  # warns: use get_last_lr
    opt2 = T.optim.SGD([p], lr=1.0)
    resume = raises(lambda: S.StepLR(opt2, 1, last_epoch=3))
    return {"lr1": lr1, "direct": direct, "resume": resume, "last_epoch": sch.last_epoch}


# --- torch.func errors and extras --------------------------------------------------------------


@program(warnings=False)
def prog_func_transform_errors(T: Any) -> Any:
    func = T.func
    x = T.ones(3)
    return {
        "nonscalar": raises(lambda: func.grad(lambda a: a * 2)(x)),
        "notensor": raises(lambda: func.grad(lambda a: 3.0)(x)),
        "argnums": raises(lambda: func.grad(lambda a: a.sum(), argnums=2)(x)),
        "aux_bad": raises(lambda: func.grad(lambda a: a.sum(), has_aux=True)(x)),
        "vjp_aux": func.vjp(lambda a: (a * 2, {"k": a.sum()}), x, has_aux=True)[2],
        "jacrev_chunk": func.jacrev(lambda a: a.sin(), chunk_size=1)(x),
        "linearize": func.linearize(lambda a: a.exp(), x)[1](T.ones(3)),
        "vmap_dims": raises(lambda: T.vmap(lambda a: a, in_dims=(0, 0))(x)),
        "vmap_size": raises(lambda: T.vmap(lambda a, b: a + b)(T.ones(2, 1), T.ones(3, 1))),
        "vmap_out": T.vmap(lambda a: (a * 2, a.sum()), out_dims=(1, 0))(T.ones(2, 3)),
    }


@program(warnings=False)
def prog_func_grad_of_module_loss_with_buffers(T: Any) -> Any:
    func = T.func
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)), 8)
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.clone() for k, v in model.named_buffers()}
    x = T.tensor(_data(6, 3))

    def loss(p, b):
        return func.functional_call(model, (p, b), (x,)).pow(2).mean()

    g = func.grad(loss)(params, buffers)
    return {
        "g": g,
        "rm": buffers["1.running_mean"],
        "model_rm": model[1].running_mean,
        "nbt": buffers["1.num_batches_tracked"],
    }


# --- gradcheck ---------------------------------------------------------------------------------


@program()
def prog_gradcheck_modes(T: Any) -> Any:
    ag = T.autograd
    x = T.tensor(_data(3), dtype=T.float64, requires_grad=True)
    y = T.tensor(_data(3, seed=1), dtype=T.float64, requires_grad=True)
    res = {
        "ok": ag.gradcheck(lambda a, b: (a * b).sin(), (x, y)),
        "fast": ag.gradcheck(lambda a, b: (a * b).sin(), (x, y), fast_mode=True),
        "gg": ag.gradgradcheck(lambda a: (a**3).sum(), (x,)),
        "nonraise": ag.gradcheck(lambda a: a.detach() * 2 + a * 0, (x,), raise_exception=False),
        "undefined": ag.gradcheck(lambda a: a * 2, (x,), check_undefined_grad=True),
        "batched": ag.gradcheck(lambda a: a.exp(), (x,), check_batched_grad=True),
        "fwd": ag.gradcheck(lambda a: a.exp(), (x,), check_forward_ad=True),
    }
    return res


@program()
def prog_gradcheck_float32_and_no_grad_inputs(T: Any) -> Any:
    ag = T.autograd
    x32 = T.tensor([1.0, 2.0], requires_grad=True)
    xn = T.tensor([1.0, 2.0], dtype=T.float64)
    return {
        "f32": ag.gradcheck(lambda a: a * 2, (x32,), eps=1e-3, atol=1e-2),
        "no_rg": raises(lambda: ag.gradcheck(lambda a: a * 2, (xn,))),
        "int_out": ag.gradcheck(lambda a: (a * 2, a.argmax()), (xn.clone().requires_grad_(),)),
    }


# --- data extras --------------------------------------------------------------------------------


@program()
def prog_dataset_composition(T: Any) -> Any:
    D = T.utils.data
    a = D.TensorDataset(T.arange(3), T.arange(3) * 10)
    b = D.TensorDataset(T.arange(4) + 100, T.arange(4))
    c = a + b
    st = D.StackDataset(a, T.arange(3) * -1)
    st2 = D.StackDataset(x=a, y=T.arange(3.0))
    sub = D.Subset(D.Subset(c, [6, 5, 4, 0]), [0, 3])

    class Gen(D.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

    ch = D.ChainDataset([Gen(2), Gen(3)])
    return {
        "c_len": len(c),
        "c4": c[4],
        "c_neg": c[-1],
        "st": st[1],
        "st2": st2[2],
        "sub": [sub[i] for i in range(2)],
        "ch": list(ch),
        "conv": D.default_convert({"a": np.arange(3), "b": [np.float32(1.5)]}),
        "worker": D.get_worker_info(),
        "neg_err": raises(lambda: c[-8]),
        "st_err": raises(lambda: D.StackDataset(a, T.arange(5))),
    }


@program()
def prog_random_split_fraction_rounding(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(11))
    parts = D.random_split(ds, [0.33, 0.33, 0.34], generator=T.Generator().manual_seed(5))
    parts2 = D.random_split(range(7), [0.1, 0.9], generator=T.Generator().manual_seed(0))
    return {
        "lens": [len(p) for p in parts],
        "idx": [list(p.indices) for p in parts],
        "lens2": [len(p) for p in parts2],
        "bad": raises(lambda: D.random_split(ds, [0.5, 0.6])),
        "zero": D.random_split(range(3), [0.0, 1.0], generator=T.Generator().manual_seed(0))[
            0
        ].indices
        if False
        else None,
    }


@program()
def prog_dataloader_collate_fn_and_pin(T: Any) -> Any:
    D = T.utils.data
    ds = [(T.tensor([i, i + 1.0]), i % 2) for i in range(5)]

    def collate(batch):
        xs, ys = zip(*batch, strict=True)
        return T.stack(xs).sum(0), T.tensor(ys)

    dl = D.DataLoader(ds, batch_size=2, collate_fn=collate)
    dl_none = D.DataLoader(ds, batch_size=None)
    nested = D.default_collate([[T.ones(2), (1, "a")], [T.zeros(2), (2, "b")]])
    return {
        "dl": list(dl),
        "first_none": next(iter(dl_none)),
        "nested": nested,
        "np": D.default_collate([np.ones(2), np.zeros(2)]),
        "bad": raises(lambda: D.default_collate([T.ones(2), T.ones(3)])),
        "sampler": type(dl.sampler).__name__,
        "bs_type": type(dl.batch_sampler).__name__,
    }


@program()
def prog_optimizers_complex_parameters(T: Any) -> Any:
    optim = T.optim
    makers = {
        "sgd": lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1),
        "adam": lambda p: optim.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.1),
        "adamw": lambda p: optim.AdamW(p, lr=0.1),
        "adamax": lambda p: optim.Adamax(p, lr=0.1, weight_decay=0.1),
        "nadam": lambda p: optim.NAdam(p, lr=0.1),
        "radam": lambda p: optim.RAdam(p, lr=0.1),
        "rmsprop": lambda p: optim.RMSprop(p, lr=0.01, momentum=0.9, centered=True),
        "adagrad": lambda p: optim.Adagrad(p, lr=0.1),
        "adadelta": lambda p: optim.Adadelta(p, lr=1.0),
        "rprop": lambda p: optim.Rprop(p, lr=0.01),
        "asgd": lambda p: optim.ASGD(p, lr=0.05),
    }
    res = {}
    w = T.tensor([[1 + 2j, 0.5], [1j, -1]])
    for name, make in makers.items():
        p = T.nn.Parameter(T.tensor([[1 + 1j, -2 + 0.5j], [0.3 - 0.2j, 0.1j]]))
        opt = make([p])
        for _ in range(4):
            opt.zero_grad()
            ((p * w).abs() ** 2).sum().backward()
            opt.step()
        res[name] = (p, {k: v for k, v in opt.state[p].items() if k != "step"})
    p = T.nn.Parameter(T.tensor([1 + 1j, -2 + 0.5j]))
    q = T.nn.Parameter(T.tensor([0.5, 1.5]))
    opt = optim.LBFGS([p, q], lr=0.5, max_iter=5, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ((p - 1j).abs() ** 2).sum() + (q**2).sum() + (p.real * q).sum()
        loss.backward()
        return loss

    for _ in range(2):
        opt.step(closure)
    res["lbfgs"] = (p, q)
    return res


@program()
def prog_fn_mark_dirty_view_variants(T: Any) -> Any:
    class Inc(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            x.add_(w)
            ctx.mark_dirty(x)
            ctx.save_for_backward(w)
            return x

        @staticmethod
        def backward(ctx, g):
            (w,) = ctx.saved_tensors
            return g * 2, g * w

    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x, 3

        @staticmethod
        def backward(ctx, g, g2):
            return g * 2

    base = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor([0.5, 0.25], requires_grad=True)
    b = base * 1
    b.retain_grad()
    v = b[:2]
    out = Inc.apply(v, w)
    info = (out.grad_fn, b.grad_fn, b._version, v._version, out is v)
    (out.sum() * 3 + b.sum()).backward()
    plain = T.zeros(4)
    out2 = Inc.apply(plain[1:3], w)
    return {
        "info": info,
        "base": base.grad,
        "w": w.grad,
        "b": b.grad,
        "multi": raises(lambda: Two.apply((base * 1)[1:])),
        "out2": out2,
        "plain": plain,
        "plain_gf": plain.grad_fn,
    }


# --- nn.init, utils, serialization ----------------------------------------------------------


@program()
def prog_nn_init_with_generators(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(0)  # sparse_ draws its rows from the default generator
    g = T.Generator().manual_seed(3)
    res = {
        "normal": init.normal_(T.empty(3, 4), 0.5, 2.0, generator=g),
        "uniform": init.uniform_(T.empty(2, 3), -1, 1, generator=g),
        "xavier_u": init.xavier_uniform_(T.empty(4, 5), gain=2.0, generator=g),
        "xavier_n": init.xavier_normal_(T.empty(4, 5), generator=g),
        "kaiming_u": init.kaiming_uniform_(T.empty(3, 4), a=0.1, mode="fan_out", generator=g),
        "kaiming_n": init.kaiming_normal_(T.empty(3, 2, 2), nonlinearity="leaky_relu", generator=g),
        "trunc": init.trunc_normal_(T.empty(6), std=2.0, a=-1.0, b=1.5, generator=g),
        "orth": init.orthogonal_(T.empty(3, 5), generator=g),
        "sparse": init.sparse_(T.empty(6, 3), sparsity=0.5, generator=g),
        "eye": init.eye_(T.empty(2, 3)),
        "dirac": init.dirac_(T.empty(2, 2, 3), groups=2),
        "const": init.constant_(T.empty(2), 0.3),
        "gain": [
            init.calculate_gain(n, p)
            for n, p in (
                ("relu", None),
                ("leaky_relu", 0.2),
                ("tanh", None),
                ("selu", None),
                ("conv2d", None),
                ("sigmoid", None),
            )
        ],
        "gain_err": raises(lambda: init.calculate_gain("foo")),
        "eye_err": raises(lambda: init.eye_(T.empty(2, 2, 2))),
        "fan_err": raises(lambda: init.xavier_uniform_(T.empty(3))),
        "mode_err": raises(lambda: init.kaiming_uniform_(T.empty(2, 2), mode="fan")),
    }
    p = T.nn.Parameter(T.ones(2, 2))
    out = init.normal_(p, generator=g)
    res["param_same"] = out is p
    res["param_gf"] = p.grad_fn
    res["param_rg"] = p.requires_grad
    return res


@program()
def prog_prune_and_fusion_utils(T: Any) -> Any:
    nn = T.nn
    prune = importlib.import_module(T.__name__ + ".nn.utils.prune")
    lin = _lin(T, 4, 3, 12)
    prune.l1_unstructured(lin, "weight", amount=0.5)
    prune.random_unstructured(
        lin,
        "bias",
        amount=1,
    )
    names = sorted(n for n, _ in lin.named_parameters())
    bufs = sorted(n for n, _ in lin.named_buffers())
    lin(T.tensor(_data(2, 4))).sum().backward()
    g = lin.weight_orig.grad
    prune.remove(lin, "weight")
    conv = _seeded(T, nn.Conv2d(2, 3, 3), 13)
    prune.ln_structured(conv, "weight", amount=0.34, n=2, dim=0)
    mask = conv.weight_mask
    bn = _seeded(T, nn.BatchNorm2d(3), 14).eval()
    bn.running_mean.fill_(0.1)
    bn.running_var.fill_(2.0)
    conv2 = _seeded(T, nn.Conv2d(2, 3, 3), 15).eval()
    fused = nn.utils.fusion.fuse_conv_bn_eval(conv2, bn)
    x = T.tensor(_data(1, 2, 5, 5))
    return {
        "names": names,
        "bufs": bufs,
        "g": g,
        "after": sorted(n for n, _ in lin.named_parameters()),
        "w": lin.weight,
        "mask": mask,
        "fused": fused(x),
        "ref": bn(conv2(x)),
        "is_pruned": prune.is_pruned(conv),
        "amount_err": raises(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5)),
    }


@program()
def prog_save_load_shared_storage_and_views(T: Any) -> Any:
    buf = io.BytesIO()
    base = T.arange(6.0)
    view = base[2:4]
    p = T.nn.Parameter(T.ones(2))
    nl = T.ones(2, requires_grad=True) * 3
    T.save({"base": base, "view": view, "p": p, "nl": nl, "list": [1, "a", (2.0,)]}, buf)
    buf.seek(0)
    obj = T.load(buf)
    obj["view"].fill_(-1)
    buf.seek(0)
    wo = T.load(buf, weights_only=True)
    return {
        "base": obj["base"],
        "view": obj["view"],
        "p_type": type(obj["p"]).__name__,
        "p": obj["p"],
        "nl": obj["nl"],
        "list": obj["list"],
        "wo_keys": sorted(wo),
        "wo_nl": wo["nl"],
    }


@program()
def prog_save_load_checkpoint_with_args(T: Any) -> Any:
    model = _lin(T, 2, 2, 18)
    args = argparse.Namespace(lr=0.1, epochs=3, scale=T.tensor([2.0]), name="run")
    buf = io.BytesIO()
    counts = collections.Counter("aab")
    T.save(
        {"args": args, "model": model.state_dict(), "step": 7, "span": range(3), "n": counts}, buf
    )
    buf.seek(0)
    default = raises(lambda: T.load(buf))
    buf.seek(0)
    full = T.load(buf, weights_only=False)
    buf.seek(0)
    with T.serialization.safe_globals([argparse.Namespace, range]):
        allowed = T.load(buf)
    buf.seek(0)
    T.serialization.add_safe_globals([argparse.Namespace])
    try:
        partial = raises(lambda: T.load(buf))
    finally:
        T.serialization.clear_safe_globals()

    class Local:
        pass

    return {
        "default": default,
        "counter": (type(full["n"]).__name__, dict(full["n"])),
        "args": vars(full["args"]),
        "model": full["model"],
        "step": full["step"],
        "span": list(full["span"]),
        "allowed": vars(allowed["args"]),
        "partial": partial,
        "safe_after": T.serialization.get_safe_globals(),
        "local": raises(lambda: T.save(Local(), io.BytesIO())),
    }


@program()
def prog_stateless_functional_call_and_skip_init(T: Any) -> Any:
    nn = T.nn
    lin = _lin(T, 3, 2, 16)
    x = T.tensor(_data(4, 3))
    w = T.ones(2, 3, requires_grad=True)
    out = nn.utils.stateless.functional_call(lin, {"weight": w}, (x,))
    out.sum().backward()
    sk = nn.utils.skip_init(nn.Linear, 3, 2)
    return {
        "out": out,
        "w": w.grad,
        "orig_w_grad": lin.weight.grad,
        "sk": sk.weight.shape,
        "tie": raises(
            lambda: nn.utils.stateless.functional_call(lin, {"nope": w}, (x,), strict=True)
        ),
    }


@program()
def prog_removable_handle_semantics(T: Any) -> Any:
    log = []
    x = T.ones(2, requires_grad=True)
    with x.register_hook(lambda g: log.append("ctx") or None):
        (x * 2).sum().backward()
    (x * 2).sum().backward()
    h = x.register_hook(lambda g: log.append("h"))
    h.remove()
    h.remove()
    (x * 2).sum().backward()
    m = T.nn.Linear(1, 1)
    h2 = m.register_forward_hook(lambda *a: log.append("fwd"))
    m(T.ones(1, 1))
    h2.remove()
    m(T.ones(1, 1))
    return {"log": log, "g": x.grad}


# --- autograd graph introspection ---------------------------------------------------------------


@program()
def prog_grad_fn_saved_attributes(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    p = x.pow(3)
    m = x * w
    e = x.exp()
    s = x.sum(0, keepdim=True)
    c = x.clamp(min=1.5)
    v = x.view(2, 1)
    return {
        "pow_self": p.grad_fn._saved_self,
        "pow_exp": p.grad_fn._saved_exponent,
        "mul_other": m.grad_fn._saved_other,
        "mul_self": m.grad_fn._saved_self,
        "exp_result": e.grad_fn._saved_result,
        "sum_dim": s.grad_fn._saved_dim,
        "sum_keep": s.grad_fn._saved_keepdim,
        "sum_sizes": s.grad_fn._saved_self_sym_sizes,
        "clamp_max": c.grad_fn._saved_max,
        "view_size": v.grad_fn._saved_self_sym_sizes,
        "same_obj": e.grad_fn._saved_result is e,
        "raw": type(p.grad_fn._raw_saved_self).__name__,
        "metadata": p.grad_fn.metadata,
    }


@program()
def prog_gradient_edge_grads(T: Any) -> Any:
    G = T.autograd.graph
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    y = (h**2).sum()
    edge = G.get_gradient_edge(h)
    (gh,) = T.autograd.grad(y, edge, retain_graph=True)
    gx, gh2 = T.autograd.grad(y, (x, edge))
    return {
        "gh": gh,
        "gx": gx,
        "gh2": gh2,
        "edge_node": edge.node,
        "nr": edge.output_nr,
        "leaf_edge": G.get_gradient_edge(x).node,
    }


@program()
def prog_node_prehook_replaces_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sin()
    z = y * 2
    z.grad_fn.register_prehook(lambda go: (go[0] * 10,))
    y.grad_fn.register_hook(lambda gi, go: (gi[0] + 1,))
    z.sum().backward()
    acc = []
    x2 = T.ones(2, requires_grad=True)
    (x2 * 2).grad_fn.next_functions[0][0].register_hook(lambda gi, go: acc.append(len(gi)))
    node = (x2 * 2).grad_fn.next_functions[0][0]
    node.register_prehook(lambda go: acc.append(("pre", go[0].tolist())))
    (x2 * 2).sum().backward()
    return {"g": x.grad, "acc": acc, "g2": x2.grad, "node": node.name()}


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_forward_ad_through_modules(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    nn = T.nn
    model = _seeded(
        T,
        nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.LayerNorm(4), nn.Linear(4, 2), nn.Softmax(-1)),
        17,
    )
    x = T.tensor(_data(2, 3))
    t = T.tensor(_data(2, 3, seed=5))
    with fwAD.dual_level():
        out = model(fwAD.make_dual(x, t))
        u = fwAD.unpack_dual(out)
        res = {
            "p": u.primal.detach(),
            "t": u.tangent,
            "fields": u._fields,
            "rg": u.primal.requires_grad,
        }
    res["after"] = fwAD.unpack_dual(out).tangent
    return res


@program()
def prog_save_whole_module(T: Any) -> Any:
    model = _lin(T, 2, 1, 19)
    opt = T.optim.Adam(model.parameters(), lr=0.1)
    model(T.ones(3, 2)).sum().backward()
    opt.step()
    buf = io.BytesIO()
    T.save({"model": model, "opt": opt}, buf)
    buf.seek(0)
    refused = raises(lambda: T.load(buf))
    buf.seek(0)
    loaded = T.load(buf, weights_only=False)
    m = loaded["model"]
    return {
        "refused": refused,
        "type": type(m).__name__,
        "w": m.weight,
        "repr": repr(m),
        "out": m(T.ones(2, 2)),
        "opt_state": loaded["opt"].state_dict(),
    }


@program()
def prog_clamp_saved_scalar_bounds(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = x.clamp(min=1.5)
    d = x.clamp(min=-1.25, max=3.5)
    e, f = x.clamp_min(1.5), x.clamp_max(1)
    g = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True).clamp(max=-2.0)
    return {
        "c": (c.grad_fn._saved_min, c.grad_fn._saved_max, c.grad_fn),
        "d": (d.grad_fn._saved_min, d.grad_fn._saved_max),
        "types": [type(v).__name__ for v in (d.grad_fn._saved_min, c.grad_fn._saved_min)],
        "e": (e.grad_fn, e.grad_fn._saved_min),
        "f": (f.grad_fn, f.grad_fn._saved_max),
        "g": (g.grad_fn._saved_min, g.grad_fn._saved_max),
    }


@program()
def prog_python_int_operand_range(T: Any) -> Any:
    """A Python int operand is read as an int64 or uint64 Scalar: up to 2**64 - 1 it computes
    (wrapping into an integer tensor's type), beyond it every op raises OverflowError; setitem's
    parser has its own ValueError."""
    f, i = T.ones(2), T.ones(2, dtype=T.int64)
    big = 2**70
    return {
        "f*2**63": f * 2**63,
        "f*-2**63": f * -(2**63),
        "i*2**63": i * 2**63,
        "i*2**64-1": i * (2**64 - 1),
        "u8+2**64-1": T.ones(2, dtype=T.uint8) + (2**64 - 1),
        "f+2**64": raises(lambda: f + 2**64),
        "f*big": raises(lambda: f * big),
        "add": raises(lambda: f.add(big)),
        "rsub": raises(lambda: big - f),
        "lt": raises(lambda: f < big),
        "pow": raises(lambda: f**big),
        "rpow": raises(lambda: big**f),
        "clamp": raises(lambda: f.clamp(max=big)),
        "fill_": raises(lambda: f.clone().fill_(big)),
        "full": raises(lambda: T.full((2,), big)),
        "where": raises(lambda: T.where(f > 0, f, big)),
        "masked_fill": raises(lambda: f.masked_fill(f > 0, big)),
        "index_fill": raises(lambda: f.index_fill(0, T.tensor([0]), big)),
        "setitem": raises(lambda: f.clone().__setitem__(0, big)),
        "setitem 2**63": raises(lambda: f.clone().__setitem__(0, 2**63)),
        "mul_": raises(lambda: f.clone().mul_(big)),
    }


@program()
def prog_clamp_saved_int_bounds(T: Any) -> Any:
    d = T.tensor([1.0, 2.0], requires_grad=True).clamp(min=1, max=3)
    return [d.grad_fn._saved_min, d.grad_fn._saved_max]


@program(warnings=False)
def prog_unpack_dual_primal_node_class(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = T.ones(2, requires_grad=True) * 1
    with fwAD.dual_level():
        p = fwAD.unpack_dual(fwAD.make_dual(x, T.ones(2))).primal
        return {"gf": p.grad_fn, "name": p.grad_fn.name(), "view": p._is_view()}


# --- more module API ---------------------------------------------------------------------------


@program()
def prog_module_repr_collapsing_and_extra_repr(T: Any) -> Any:
    nn = T.nn

    class Scaled(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k
            self.inner = nn.Linear(2, 2)

        def extra_repr(self):
            return f"k={self.k}"

    from collections import OrderedDict

    m = nn.Sequential(
        OrderedDict(
            [
                ("stack", nn.ModuleList([nn.Linear(3, 3) for _ in range(3)] + [nn.ReLU()])),
                ("scaled", Scaled(0.5)),
                ("dict", nn.ModuleDict({"a": nn.Tanh(), "b": nn.Tanh()})),
                ("plist", nn.ParameterList([nn.Parameter(T.ones(2)), T.zeros(3)])),
                ("pdict", nn.ParameterDict({"w": nn.Parameter(T.ones(1, 2))})),
            ]
        )
    )
    return {
        "repr": repr(m),
        "scaled": repr(m.scaled),
        "empty": repr(nn.Sequential()),
        "plist": repr(m.plist),
        "names": [n for n, _ in m.named_parameters()],
    }


@program()
def prog_tied_weights_and_duplicates(T: Any) -> Any:
    nn = T.nn
    emb = nn.Embedding(5, 3)
    head = nn.Linear(3, 5, bias=False)
    head.weight = emb.weight
    model = nn.ModuleDict({"emb": emb, "head": head})
    _seeded(T, model, 20)
    x = T.tensor([1, 4])
    out = model["head"](model["emb"](x))
    out.sum().backward()
    return {
        "n": len(list(model.parameters())),
        "names": [n for n, _ in model.named_parameters()],
        "dups": [n for n, _ in model.named_parameters(remove_duplicate=False)],
        "sd": list(model.state_dict()),
        "g": emb.weight.grad,
        "same": model["head"].weight is model["emb"].weight,
    }


@program()
def prog_module_to_dtype_and_grads(T: Any) -> Any:
    nn = T.nn
    m = _lin(T, 2, 2, 21)
    m(T.ones(1, 2)).sum().backward()
    w = m.weight
    m.double()
    same = m.weight is w
    out = m(T.ones(1, 2, dtype=T.float64))
    m.to(T.float32)
    m.half()
    res = {
        "same": same,
        "w_dt": m.weight.dtype,
        "g_dt": m.weight.grad.dtype,
        "out": out,
        "err": raises(lambda: m(T.ones(1, 2))),
    }
    m.float()
    m.requires_grad_(False)
    res["rg"] = [p.requires_grad for p in m.parameters()]
    res["int_err"] = raises(lambda: m.to(T.int32))
    bn = nn.BatchNorm1d(2).double()
    res["bn"] = (bn.running_mean.dtype, bn.num_batches_tracked.dtype)
    return res


@program()
def prog_state_dict_keep_vars_prefix_assign(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(_lin(T, 2, 2, 22), nn.BatchNorm1d(2))
    sd_kv = m.state_dict(keep_vars=True)
    sd = m.state_dict(prefix="net.")
    new = {k: v * 2 for k, v in m.state_dict().items() if v.dtype.is_floating_point}
    new["1.num_batches_tracked"] = T.tensor(5)
    res = m.load_state_dict(new, assign=True)
    return {
        "kv_type": [type(v).__name__ for v in sd_kv.values()],
        "kv_rg": [v.requires_grad for v in sd_kv.values()],
        "prefix": list(sd),
        "res": str(res),
        "w_type": type(m[0].weight).__name__,
        "w_rg": m[0].weight.requires_grad,
        "w": m[0].weight,
        "nbt": m[1].num_batches_tracked,
        "meta": getattr(m.state_dict(), "_metadata", None) is not None,
    }


# --- grad mode -----------------------------------------------------------------------------


@program()
def prog_grad_mode_decorators_and_generators(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    seen = []

    @T.no_grad()
    def gen():
        for i in range(2):
            seen.append(T.is_grad_enabled())
            yield x * i

    outs = list(gen())
    seen.append(T.is_grad_enabled())

    @T.enable_grad()
    def inner():
        return x * 2

    with T.no_grad():
        y = inner()
        with T.set_grad_enabled(True):
            z = x * 3
        T.set_grad_enabled(True)
        w = x * 4
        T.set_grad_enabled(False)
    after = T.is_grad_enabled()
    T.set_grad_enabled(True)
    with T.inference_mode(False):
        v = x * 5
    with T.inference_mode():
        inf = T.is_inference_mode_enabled()
    return {
        "outs": [o.requires_grad for o in outs],
        "seen": seen,
        "y": y,
        "z": z,
        "w": w,
        "after": after,
        "v": v,
        "inf": inf,
    }


@program()
def prog_autograd_backward_api_errors(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    z = x.sum() * 1
    return {
        "len": raises(lambda: T.autograd.backward([y, z], [T.ones(3)], retain_graph=True)),
        "shape": raises(lambda: T.autograd.grad(y, x, T.ones(2), retain_graph=True)),
        "nograd_out": raises(lambda: T.autograd.grad(T.ones(1), x)),
        "none_grad": raises(lambda: T.autograd.backward([y], [None], retain_graph=True)),
        "dup_inputs": T.autograd.grad(z, [x, x], retain_graph=True),
        "list_outputs": T.autograd.grad([z, z], x, retain_graph=True),
        "empty_inputs": raises(lambda: T.autograd.grad(z, [])),
        "int_input": raises(lambda: T.autograd.grad(z, T.ones(1, dtype=T.long))),
    }


@program()
def prog_anomaly_custom_function_nan(T: Any) -> Any:
    class BadGrad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = T.ones(2, requires_grad=True)
    with T.autograd.detect_anomaly():
        err = raises(lambda: BadGrad.apply(x).sum().backward())
    x2 = T.ones(2, requires_grad=True)
    with T.autograd.set_detect_anomaly(True, check_nan=False):
        BadGrad.apply(x2).sum().backward()
    return {"err": err, "g2": x2.grad, "enabled": T.is_anomaly_enabled()}


# --- data RNG parity ---------------------------------------------------------------------------


@program()
def prog_dataloader_shuffle_global_seed(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(123)
    ds = D.TensorDataset(T.arange(12))
    dl = D.DataLoader(ds, batch_size=5, shuffle=True)
    e1 = [b[0].tolist() for b in dl]
    e2 = [b[0].tolist() for b in dl]
    srs = list(D.SubsetRandomSampler([10, 20, 30, 40], generator=T.Generator().manual_seed(2)))
    T.manual_seed(5)
    sp = D.random_split(range(6), [3, 3])
    return {"e1": e1, "e2": e2, "srs": srs, "split": [list(s) for s in sp], "after": T.rand(2)}


@program()
def prog_distributed_sampler_without_process_group(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(10))
    s0 = D.distributed.DistributedSampler(ds, num_replicas=3, rank=0, shuffle=True, seed=4)
    s2 = D.distributed.DistributedSampler(ds, num_replicas=3, rank=2, shuffle=False, drop_last=True)
    s0.set_epoch(1)
    return {
        "s0": list(s0),
        "s2": list(s2),
        "len0": len(s0),
        "len2": len(s2),
        "bad_rank": raises(lambda: D.distributed.DistributedSampler(ds, num_replicas=2, rank=2)),
    }


@program()
def prog_complex_scalar_implicit_grad_error(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    return raises(lambda: (x * 1j).sum().backward())


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_gradcheck_reentrancy_and_forward_ad(T: Any) -> Any:
    ag = T.autograd
    calls = [0]

    class Drifting(ag.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            calls[0] += 1
            return g * 2 + calls[0] * 1e-3

    class NoJvp(ag.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class WithJvp(ag.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x.sin()

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * x.cos()

        @staticmethod
        def backward(ctx, g):
            raise RuntimeError("not used")

    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    return {
        "nondet": raises(lambda: ag.gradcheck(Drifting.apply, (x,))),
        "nondet_fast": raises(lambda: ag.gradcheck(Drifting.apply, (x,), fast_mode=True)),
        "nondet_tol": raises(lambda: ag.gradcheck(Drifting.apply, (x,), nondet_tol=1.0)).type,
        "nojvp": raises(lambda: ag.gradcheck(NoJvp.apply, (x,), check_forward_ad=True)),
        "jvp_only": ag.gradcheck(
            WithJvp.apply,
            (x,),
            check_forward_ad=True,
            check_backward_ad=False,
            check_undefined_grad=False,
        ),
        "fwd_ok": ag.gradcheck(lambda a: (a.exp() * a).cumsum(0), (x,), check_forward_ad=True),
    }


@program(warnings=False)  # torch's first functorch transform warns about torch.jit.script
def prog_fn_under_func_transforms_requirements(T: Any) -> Any:
    class OldStyle(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class NoVmapRule(T.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.ones(3, 2)
    return {
        "vmap_old": raises(lambda: T.vmap(OldStyle.apply)(x)),
        "grad_old": raises(lambda: T.func.grad(lambda a: OldStyle.apply(a).sum())(x)),
        "jacrev_old": raises(lambda: T.func.jacrev(OldStyle.apply)(x[0])),
        "vmap_norule": raises(lambda: T.vmap(NoVmapRule.apply)(x)),
        "grad_norule": T.func.grad(lambda a: NoVmapRule.apply(a).sum())(x),
        "plain_old": OldStyle.apply(x.requires_grad_()),
    }


@program()
def prog_fn_returns_inputs_and_views(T: Any) -> Any:
    class NonDiffInput(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class FirstRow(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.n = x.shape[0]
            return x[:1]

        @staticmethod
        def backward(ctx, g):
            return T.cat([g, T.zeros(ctx.n - 1, *g.shape[1:])])

    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    nd = NonDiffInput.apply(x)
    y = x * 1
    v = FirstRow.apply(y)
    err = raises(lambda: v.mul_(2))
    v.sum().backward()
    return {
        "nd": (nd.requires_grad, nd.grad_fn, nd is x, nd._is_view(), nd.is_leaf),
        "v": (v.grad_fn, v._is_view(), v._base is y),
        "err": err,
        "g": x.grad,
    }


@program(warnings=False)
def prog_fn_jvp_wrong_count(T: Any) -> Any:
    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def jvp(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, g1, g2):
            return g1

    fw = T.autograd.forward_ad
    with fw.dual_level():
        return raises(lambda: Two.apply(fw.make_dual(T.ones(2), T.ones(2)))[1].sum().item())


@program()
def prog_functional_tuple_io_and_create_graph(T: Any) -> Any:
    AF = T.autograd.functional
    x = T.tensor([1.0, 2.0])
    y = T.tensor([0.5, -1.0])
    xr = x.clone().requires_grad_()
    jvp_c = AF.jvp(lambda a: a**2, xr, T.ones(2), create_graph=True)
    vjp_c = AF.vjp(lambda a: (a**2).sum(), xr, create_graph=True)
    return {
        "vjp_tuple": AF.vjp(lambda a, b: (a * b, a.sum()), (x, y), (T.ones(2), T.tensor(1.0))),
        "vjp_v_shape": raises(lambda: AF.vjp(lambda a: a * 2, x, T.ones(3))),
        "vjp_v_tuple": raises(lambda: AF.vjp(lambda a: (a, a), x, T.ones(2))),
        "jvp_v_wrong": raises(lambda: AF.jvp(lambda a: a * 2, x, (T.ones(2), T.ones(2)))),
        "jvp_c": [t.requires_grad for t in jvp_c],
        "vjp_c": [t.requires_grad for t in vjp_c],
        "hvp_nonscalar": raises(lambda: AF.hvp(lambda a: a**2, x, T.ones(2))),
        "vhp_tuple": AF.vhp(lambda a, b: (a * b).sum() ** 2, (x, y), (T.ones(2), T.ones(2))),
        "hvp_strict": raises(lambda: AF.hvp(lambda a: a.sum(), x, T.ones(2), strict=True)),
        "hess_tuple": AF.hessian(lambda a, b: (a * b**2).sum(), (x, y)),
        "jac_tuple_out": AF.jacobian(lambda a: (a, a.sum()), x),
        "jac_scalar_in": AF.jacobian(lambda a: a * T.ones(3), T.tensor(2.0)),
        "jac_list_in": raises(lambda: AF.jacobian(lambda a, b: a * b, [x, y])),
        "jac_nontensor": raises(lambda: AF.jacobian(lambda a: a * 2, 3.0)),
        "bad_strategy": raises(lambda: AF.jacobian(lambda a: a, x, strategy="foo")),
        "hess_fwd_novec": raises(
            lambda: AF.hessian(lambda a: (a**2).sum(), x, outer_jacobian_strategy="forward-mode")
        ),
        "vjp_none_out": raises(lambda: AF.vjp(lambda a: None, x)),
    }


@program()
def prog_saved_tensor_hooks_nesting_and_raw(T: Any) -> Any:
    G = T.autograd.graph
    log = []
    a = T.ones(2, requires_grad=True)
    with G.saved_tensors_hooks(
        lambda t: (log.append("p1"), t)[1], lambda t: (log.append("u1"), t)[1]
    ):
        with G.saved_tensors_hooks(
            lambda t: (log.append("p2"), t)[1], lambda t: (log.append("u2"), t)[1]
        ):
            b = a * a
        c = b.exp()
    c.sum().backward()
    g1 = a.grad.clone()
    with G.saved_tensors_hooks(lambda t: t, lambda t: 5):
        d = a * a
    bad_unpack = raises(lambda: d.sum().backward())
    e = a.exp()
    raw = e.grad_fn._raw_saved_result
    raw.register_hooks(lambda t: t * 2, lambda t: t)
    twice = raises(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    a.grad = None
    e.sum().backward()
    with G.saved_tensors_hooks(lambda t: t, lambda t: t):
        f = a * a
    f.sum().backward()
    return {
        "log": log,
        "g1": g1,
        "bad_unpack": bad_unpack,
        "twice": twice,
        "g2": a.grad,
        "freed": raises(lambda: f.grad_fn._saved_self),
    }


@program()
def prog_rnn_utils_padding_side_and_total_norm(T: Any) -> Any:
    nn = T.nn
    U = nn.utils
    seqs = [T.ones(2, 2), T.ones(3, 2) * 2, T.ones(1, 2) * 3]
    ps = [nn.Parameter(T.ones(2)), nn.Parameter(T.ones(3))]
    ps[0].grad = T.tensor([3.0, 4.0])
    ps[1].grad = T.tensor([1.0, 2.0, 2.0])
    tn = U.get_total_norm([p.grad for p in ps], norm_type=2.0)
    U.clip_grads_with_norm_(ps, 1.0, tn)
    clipped = [p.grad.clone() for p in ps]
    return {
        "left": U.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1, padding_side="left"),
        "bad_side": raises(lambda: U.rnn.pad_sequence(seqs, padding_side="middle")),
        "tn": tn,
        "clipped": clipped,
        "fe": U.clip_grad_norm_(ps, 0.5, foreach=True),
        "nofe": U.clip_grad_norm_(ps, 0.5, foreach=False),
        "inf": U.get_total_norm([p.grad for p in ps], norm_type="inf"),
    }


@program()
def prog_legacy_weight_and_spectral_norm_hooks(T: Any) -> Any:
    nn = T.nn
    U = nn.utils
    m = U.weight_norm(_lin(T, 3, 2, 23))
    out = m(T.ones(1, 3))
    out.sum().backward()
    T.manual_seed(0)
    s = U.spectral_norm(_lin(T, 3, 4, 24), n_power_iterations=2)
    so = s(T.ones(1, 3))
    return {
        "names": sorted(n for n, _ in m.named_parameters()),
        "out": out,
        "g": m.weight_g.grad,
        "gv": m.weight_v.grad,
        "w": m.weight,
        "sn_names": sorted(n for n, _ in s.named_parameters()),
        "sn_bufs": sorted(n for n, _ in s.named_buffers()),
        "so": so,
        "sn_sd": sorted(s.state_dict()),
        "removed": sorted(n for n, _ in U.remove_weight_norm(m).named_parameters()),
    }


@program()
def prog_stacked_parametrizations_and_right_inverse(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Double(nn.Module):
        def forward(self, X):
            return X * 2

        def right_inverse(self, X):
            return X / 2

    class Sym(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).t()

    class Bad(nn.Module):
        def forward(self, X):
            return X[0]

    m = _lin(T, 3, 3, 25)
    P.register_parametrization(m, "weight", Double())
    P.register_parametrization(m, "weight", Sym())
    w = m.weight
    no_inverse = raises(lambda: setattr(m, "weight", T.eye(3) * 4))
    res = {
        "w": w,
        "no_inverse": no_inverse,
        "orig": m.parametrizations.weight.original,
        "repr": repr(m.parametrizations.weight),
        "cls": type(m).__name__,
        "bad": raises(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", Bad())),
        "missing": raises(lambda: P.remove_parametrizations(nn.Linear(2, 2), "weight")),
        "nope": raises(lambda: P.register_parametrization(nn.Linear(2, 2), "nope", nn.Identity())),
    }
    P.remove_parametrizations(m, "weight", leave_parametrized=False)
    res["after"] = m.weight
    res["cls_after"] = type(m).__name__
    return res


@program()
def prog_fuse_linear_bn_and_orthogonal_maps(T: Any) -> Any:
    nn = T.nn
    lin = _lin(T, 3, 2, 26).eval()
    bn = _seeded(T, nn.BatchNorm1d(2), 27).eval()
    fused = nn.utils.fusion.fuse_linear_bn_eval(lin, bn)
    x = T.tensor(_data(2, 3))
    res = {"fused": fused(x), "ref": bn(lin(x)), "type": type(fused).__name__}
    for mp in ("matrix_exp", "cayley", "householder"):
        m = _lin(T, 4, 3, 28)
        nn.utils.parametrizations.orthogonal(m, orthogonal_map=mp)
        res[mp] = m.weight
    return res


@program()
def prog_checkpoint_rng_kwargs_and_errors(T: Any) -> Any:
    nn = T.nn
    cp = T.utils.checkpoint
    x = T.ones(2, 3, requires_grad=True)
    T.manual_seed(0)
    d = nn.Dropout(0.5)
    y = cp.checkpoint(d, x, use_reentrant=False)
    y.sum().backward()
    g = x.grad.clone()
    x.grad = None
    T.manual_seed(0)
    y2 = cp.checkpoint(d, x, use_reentrant=True)
    y2.sum().backward()

    def shape_change():
        calls = []

        def f(a):
            calls.append(1)
            return a * 2 if len(calls) == 1 else a[:1] * 2

        cp.checkpoint(f, x, use_reentrant=False).sum().backward()

    def twice():
        z = cp.checkpoint(lambda a: a.exp(), x, use_reentrant=False).sum()
        z.backward()
        z.backward()

    a, b = cp.checkpoint(lambda t: (t * 2, t.sum()), x, use_reentrant=True)
    return {
        "y": y,
        "g": g,
        "g2": x.grad,
        "after": T.rand(1),
        "no_arg": raises(lambda: cp.checkpoint(lambda t: t * 2, x)),
        "kw": cp.checkpoint(lambda t, scale=1.0: t * scale, x, scale=3.0, use_reentrant=False),
        "kw_re": raises(
            lambda: cp.checkpoint(lambda t, scale=1.0: t * scale, x, scale=3.0, use_reentrant=True)
        ),
        "shape": raises(shape_change),
        "twice": raises(twice),
        "ctx_fn": raises(
            lambda: cp.checkpoint(lambda t: t, x, use_reentrant=True, context_fn=lambda: (1, 2))
        ),
        "tuple": (a.grad_fn, b.grad_fn),
    }


@program()
def prog_allow_mutation_on_saved_tensors(T: Any) -> Any:
    G = T.autograd.graph
    with G.allow_mutation_on_saved_tensors() as ctx:
        a = T.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        b.sin_()
        out.backward()
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x.clone()
        c = y.exp()
        e = c * y
        y.add_(1)
        c.add_(1)
        e.sum().backward()
        kind = type(ctx).__name__
        nested = raises(lambda: G.allow_mutation_on_saved_tensors().__enter__())
        z = x * x
    return {
        "a": a.grad,
        "b": b,
        "x": x.grad,
        "y": y,
        "c": c,
        "kind": kind,
        "nested": nested,
        "outside": raises(lambda: z.sum().backward()),
    }


@program()
def prog_graph_hooks_edges_and_multi_grad(T: Any) -> Any:
    G = T.autograd.graph
    log = []
    a = T.ones(2, requires_grad=True)
    b = T.ones(2, requires_grad=True)
    c = T.ones(2, requires_grad=True)
    h = G.register_multi_grad_hook(
        (a, b, c), lambda gs: log.append([None if g is None else g.tolist() for g in gs])
    )
    (a * 2 + b * 3).sum().backward()
    (c * 4).sum().backward()
    h.remove()
    (a * 2).sum().backward()
    acc_log = []
    acc = (a * 1).grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: acc_log.append(("pre", go[0].tolist())))
    acc.register_hook(
        lambda gi, go: acc_log.append(("post", [g is None for g in gi], go[0].tolist()))
    )
    (a * 5).sum().backward()
    y = a * 2
    e = G.GradientEdge(y.grad_fn, 0)
    t = T.ones(2)
    G.increment_version(t)
    G.increment_version([t, t])
    return {
        "log": log,
        "acc_log": acc_log,
        "acc_var": acc.variable is a,
        "acc_name": acc.name(),
        "edge_grad": T.autograd.grad(y.sum() * 3, e),
        "edge_repr": repr(e)[:30],
        "edge_tail": repr(e)[-35:],
        "token": e.ownership_token,
        "bad_mode": raises(lambda: G.register_multi_grad_hook((a,), lambda g: None, mode="some")),
        "ver": t._version,
        "no_grad_edge": raises(lambda: G.get_gradient_edge(T.ones(2))),
    }


@program()
def prog_node_hook_result_checks(T: Any) -> Any:
    a = T.ones(2, requires_grad=True)
    out: dict[str, Any] = {}
    hooks = {
        "post_replaces_none": ("hook", lambda gi, go: (gi[0], gi[0])),
        "pre_bare_tensor": ("prehook", lambda go: go[0]),
        "post_bare_tensor": ("hook", lambda gi, go: gi[0]),
        "pre_list": ("prehook", lambda go: [go[0]]),
        "post_list": ("hook", lambda gi, go: [gi[0], None]),
        "pre_drops": ("prehook", lambda go: (None,)),
        "post_drops": ("hook", lambda gi, go: (None, None)),
        "pre_number": ("prehook", lambda go: (1.0,)),
        "post_string": ("hook", lambda gi, go: ("x", None)),
        "post_scales": ("hook", lambda gi, go: (gi[0] * 3, None)),
        "pre_wrong_count": ("prehook", lambda go: (go[0], go[0])),
    }
    for name, (kind, fn) in hooks.items():
        a.grad = None
        y = a * 2
        getattr(y.grad_fn, "register_" + kind)(fn)
        out[name] = (raises(lambda y=y: y.sum().backward()), a.grad)
    return out


@program()
def prog_custom_optimizer_subclass_with_scheduler(T: Any) -> Any:
    class MySGD(T.optim.Optimizer):
        def __init__(self, params, lr=0.1, momentum=0.0):
            super().__init__(params, {"lr": lr, "momentum": momentum})

        @T.no_grad()
        def step(self, closure=None):
            loss = None
            if closure is not None:
                with T.enable_grad():
                    loss = closure()
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    st = self.state[p]
                    buf = st.get("buf")
                    if buf is None:
                        buf = st["buf"] = p.grad.clone()
                    else:
                        buf.mul_(group["momentum"]).add_(p.grad)
                    p.add_(buf, alpha=-group["lr"])
            return loss

    w = T.nn.Parameter(T.tensor([1.0, -2.0]))
    opt = MySGD([w], lr=0.1, momentum=0.9)
    sch = T.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    for _ in range(3):
        opt.zero_grad()
        (w**2).sum().backward()
        opt.step()
        sch.step()
    sd = opt.state_dict()

    def closure():
        opt.zero_grad()
        loss = (w**2).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    return {
        "w": w,
        "groups": sd["param_groups"],
        "state": sd["state"],
        "repr": repr(opt),
        "state_type": type(opt.state).__name__,
        "defaults": opt.defaults,
        "loss": loss,
        "lr": sch.get_last_lr(),
    }


@program()
def prog_scheduler_overridden_step_and_custom_scheduler(T: Any) -> Any:
    S = T.optim.lr_scheduler
    w = T.nn.Parameter(T.tensor([1.0]))
    opt = T.optim.SGD([w], lr=0.1)
    sch = S.StepLR(opt, 1)
    opt.step = lambda closure=None: None
    opt.step()
    sch.step()

    class Warm(S.LRScheduler):
        def __init__(self, opt, n, last_epoch=-1):
            self.n = n
            super().__init__(opt, last_epoch)

        def get_lr(self):
            return [b * min(1.0, (self.last_epoch + 1) / self.n) for b in self.base_lrs]

    opt2 = T.optim.SGD([w], lr=0.1)
    s2 = Warm(opt2, 3)
    lrs = [s2.get_last_lr()]
    for _ in range(4):
        opt2.step()
        s2.step()
        lrs.append(s2.get_last_lr())
    opt3 = T.optim.SGD([w], lr=0.1)
    s3 = S.StepLR(opt3, 2)
    opt3.step()
    s3.step(5)
    a = T.nn.Parameter(T.tensor([1.0]))
    b = T.nn.Parameter(T.tensor([1.0]))
    opt4 = T.optim.SGD([a], lr=0.1)
    s4 = S.StepLR(opt4, 1, 0.5)
    opt4.add_param_group({"params": [b], "lr": 1.0})
    opt4.step()
    added = raises(s4.step)
    return {
        "sch_lr": sch.get_last_lr(),
        "lrs": lrs,
        "sd": s2.state_dict(),
        "epoch_arg": (s3.get_last_lr(), s3.last_epoch),
        "added": added,
        "after_added": [g["lr"] for g in opt4.param_groups],
    }


@program()
def prog_default_collate_variants_and_loader_checks(T: Any) -> Any:
    import collections

    D = T.utils.data
    P = collections.namedtuple("P", "x y")

    class Items(D.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return T.tensor([i])

        def __getitems__(self, idx):
            return [T.tensor([i * 10]) for i in idx]

    dl = D.DataLoader(range(5), batch_size=2)
    it = iter(dl)
    first = next(it)
    return {
        "namedtuple": D.default_collate([P(T.ones(2), 1), P(T.zeros(2), 2)]),
        "np_scalars": D.default_collate([np.float32(1.5), np.float32(2.5)]),
        "strings": D.default_collate(["a", "b"]),
        "dict_mismatch": raises(lambda: D.default_collate([{"a": 1}, {"b": 2}])),
        "uneven": raises(lambda: D.default_collate([[1, 2], [3]])),
        "none": raises(lambda: D.default_collate([None, None])),
        "np_str": raises(lambda: D.default_collate([np.array(["a"]), np.array(["b"])])),
        "mixed": D.default_collate([T.tensor(1), T.tensor(2.0)]),
        "getitems": [b.tolist() for b in D.DataLoader(Items(), batch_size=2)],
        "prefetch": raises(lambda: D.DataLoader(range(3), prefetch_factor=2)),
        "persistent": raises(lambda: D.DataLoader(range(3), persistent_workers=True)),
        "mp_ctx": raises(lambda: D.DataLoader(range(3), multiprocessing_context="spawn")),
        "set_bs": raises(lambda: setattr(dl, "batch_size", 4)),
        "iter_type": type(it).__name__,
        "iter_len": len(it),
        "first": first,
        "rest": [b.tolist() for b in it],
        "rs_bad": raises(lambda: D.RandomSampler(range(3), num_samples=0)),
        "bs_bad": raises(lambda: D.BatchSampler(range(3), 0, False)),
    }


@program()
def prog_weighted_sampler_negative_weight(T: Any) -> Any:
    D = T.utils.data
    nan, inf = float("nan"), float("inf")
    cases = {
        "nan": ([nan, 1.0], 2, True),
        "inf": ([inf, 1.0], 2, True),
        "zero_sum": ([0.0, 0.0], 2, True),
        "rows": ([[0.0, 0.0], [-1.0, 1.0]], 2, True),
        "rows_neg_first": ([[1.0, inf], [-1.0, 1.0]], 2, True),
        "one_sample_nan": ([nan, 1.0], 1, True),
        "no_replacement_neg": ([-1.0, 1.0], 1, False),
        "no_replacement_inf": ([inf, 1.0], 1, False),
    }
    out = {"sampler": raises(lambda: list(D.WeightedRandomSampler([-1.0, 1.0], 2)))}
    for name, (p, k, rep) in cases.items():
        out[name] = raises(lambda p=p, k=k, rep=rep: T.multinomial(T.tensor(p), k, rep))
    return out


@program()
def prog_swa_update_bn_and_buffers(T: Any) -> Any:
    nn = T.nn
    swa_utils = T.optim.swa_utils
    m = _seeded(
        T, nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)), 29
    )
    swa = swa_utils.AveragedModel(m)
    data = [T.tensor(_data(5, 3, seed=i)) for i in range(3)]
    swa_utils.update_bn(data, swa)
    bn = swa.module[1]
    m2 = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)), 30)
    swb = swa_utils.AveragedModel(m2, use_buffers=True)
    m2(T.ones(2, 3))
    swb.update_parameters(m2)
    m2(T.ones(2, 3) * 2)
    swb.update_parameters(m2)
    lin = _lin(T, 2, 2, 31)
    ema = swa_utils.AveragedModel(lin, avg_fn=swa_utils.get_ema_avg_fn(0.5))
    for _ in range(2):
        with T.no_grad():
            lin.weight.add_(1)
        ema.update_parameters(lin)
    opt = T.optim.SGD([nn.Parameter(T.ones(1))], lr=0.1)
    return {
        "rm": bn.running_mean,
        "rv": bn.running_var,
        "mom": bn.momentum,
        "nbt": bn.num_batches_tracked,
        "buf_rm": swb.module[1].running_mean,
        "n": swb.n_averaged,
        "ema": ema.module.weight,
        "bad_strategy": raises(lambda: swa_utils.SWALR(opt, swa_lr=0.05, anneal_strategy="exp")),
        "bad_epochs": raises(lambda: swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=-1)),
    }


@program(warnings=False)
def prog_func_extras_and_vmap_randomness(T: Any) -> Any:
    f = T.func
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2)), 32)
    f.replace_all_batch_norm_modules_(m)
    T.manual_seed(0)
    a = T.vmap(lambda x: x + T.rand(1), randomness="different")(T.zeros(3, 1))
    T.manual_seed(0)
    b = T.vmap(lambda x: x + T.rand(1), randomness="same")(T.zeros(3, 1))
    lin = _lin(T, 2, 1, 33)
    p = dict(lin.named_parameters())
    out, fn = f.vjp(lambda x, y: (x * y, x + y), T.ones(2), T.ones(2) * 2)
    return {
        "rm": m[1].running_mean,
        "track": m[1].track_running_stats,
        "aux": f.jacrev(lambda x: (x.sin(), x.sum()), has_aux=True)(T.ones(3)),
        "chunk": T.vmap(lambda x: x * 2, chunk_size=2)(T.ones(5, 2)),
        "functionalize": f.functionalize(lambda x: x.add_(1))(T.ones(2)),
        "different": a,
        "same": b,
        "after": T.rand(1),
        "nested": T.vmap(T.vmap(lambda u, v: u * v, in_dims=(0, None)), in_dims=(None, 0))(
            T.arange(3.0), T.arange(2.0)
        ),
        "hess": f.hessian(lambda q: f.functional_call(lin, q, (T.ones(1, 2),)).sum() ** 2)(p)[
            "weight"
        ]["weight"],
        "grad_kw": f.grad(lambda x, *, k: (x * k).sum())(T.ones(2), k=3.0),
        "vjp": (out, fn((T.ones(2), T.ones(2)))),
    }


@program()
def prog_parameter_and_buffer_types(T: Any) -> Any:
    import copy

    nn = T.nn
    p = nn.Parameter(T.ones(2))
    p.grad = T.ones(2)
    q = copy.deepcopy(p)
    m = nn.Module()
    m.b = nn.Buffer(T.ones(2), persistent=False)
    lazy = nn.LazyLinear(2)
    before = repr(lazy)
    T.manual_seed(0)
    lazy(T.ones(3, 4))
    u = nn.parameter.UninitializedParameter()
    return {
        "mul": repr(p * 2),
        "data": type(p.data).__name__,
        "detach": type(p.detach()).__name__,
        "clone": type(p.clone()).__name__,
        "deep": (type(q).__name__, q.grad, q is p),
        "nograd": repr(nn.Parameter(T.ones(2, dtype=T.float64), requires_grad=False)),
        "buf": (list(m.state_dict()), [n for n, _ in m.named_buffers()], type(m.b).__name__),
        "lazy": (before, repr(lazy), type(lazy).__name__, type(lazy.weight).__name__),
        "uninit": (repr(u)[:40], type(u).__name__, u.requires_grad),
    }


@program()
def prog_indexing_and_shape_error_messages(T: Any) -> Any:
    x = T.arange(12.0).reshape(3, 4)

    def put(y, idx, v):
        y[idx] = v
        return y

    return {
        "neg_step": raises(lambda: x[::-1]),
        "step0": raises(lambda: x[::0]),
        "step0_set": raises(lambda: put(x.clone(), slice(None, None, 0), 1.0)),
        "too_many": raises(lambda: x[0, 0, 0]),
        "float_idx": raises(lambda: x[1.0]),
        "bool_scalars": (x[True].shape, x[False].shape),
        "none_ellipsis": x[None, ..., None, 1].shape,
        "list_of_lists": x[[[0, 1], [2, 0]]],
        "list_bool": x[[True, False, True]],
        "adv_sep": T.arange(24).reshape(2, 3, 4)[[0, 1], :, [1, 2]].shape,
        "neg_oob": raises(lambda: x[-4]),
        "idx_int32": x[T.tensor([0, 2], dtype=T.int32)],
        "empty_idx": x[T.tensor([], dtype=T.long)].shape,
        "set_bcast": put(x.clone(), (slice(None), slice(0, 2)), T.tensor([7.0, 8.0])),
        "set_mask_bad": raises(lambda: put(x.clone(), x > 5, T.arange(5.0))),
        "set_int_float": put(T.arange(4), 0, 2.7),
        "masked_fill_nonbool": raises(lambda: x.masked_fill(x.long(), 0)),
        "masked_fill_tensor": raises(lambda: x.masked_fill(x > 5, T.tensor([1.0]))),
        "scatter_small": raises(lambda: T.zeros(3).scatter(0, T.tensor([0, 1, 2]), T.ones(2))),
        "narrow_bad": raises(lambda: x.narrow(1, 3, 2)),
        "split_bad": raises(lambda: x.split([1, 1], 0)),
        "chunk_zero": raises(lambda: x.chunk(0)),
        "view_bad": raises(lambda: x.t().view(12)),
        "reshape_bad": raises(lambda: x.reshape(5, -1)),
        "expand_bad": raises(lambda: x.expand(2, 4)),
        "permute_bad": raises(lambda: x.permute(0, 0)),
        "flatten_bad": raises(lambda: x.flatten(1, 0)),
        "cat_mismatch": raises(lambda: T.cat([x, T.ones(3, 3)], 0)),
        "cat_dtype": T.cat([x, T.ones(1, 4, dtype=T.long)]).dtype,
        "stack_mismatch": raises(lambda: T.stack([x, x[:2]])),
        "repeat_bad": raises(lambda: x.repeat(2)),
    }


@program()
def prog_reductions_with_explicit_dim_none(T: Any) -> Any:
    def masked_mean(x, dim=None, keepdim=False):
        return x.mean(dim=dim, keepdim=keepdim)

    x = T.tensor(_data(3, 4), requires_grad=True)
    s = T.tensor(3.0, requires_grad=True)
    outs = {
        "mean_none_keep": masked_mean(x, keepdim=True),
        "mean_dim1": masked_mean(x, 1),
        "sum_none_keep": x.sum(dim=None, keepdim=True),
        "sum_none": T.sum(x, None),
        "sum_all": x.sum(),
        "mean_all": x.mean(),
        "scalar": s.sum(dim=None, keepdim=True),
        "f64": T.mean(x, dim=None, keepdim=True, dtype=T.float64),
        "int": T.arange(6).sum(dim=None, keepdim=True),
    }
    (outs["mean_none_keep"] * 2 + outs["sum_none_keep"]).sum().backward()
    outs["g"] = x.grad
    outs["nansum"] = x.nansum(dim=None)
    outs["std"] = x.std(dim=None, keepdim=True)
    return outs


# --- end-to-end training programs --------------------------------------------------------------


@program()
def prog_cnn_classifier_epoch_with_scheduler(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(0)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            # no bias before batch norm: its gradient is zero up to rounding, which Adam's
            # normalised step would amplify into an arbitrary +-lr
            self.c1 = nn.Conv2d(1, 4, 3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(4)
            self.c2 = nn.Conv2d(4, 8, 3, stride=2)
            self.drop = nn.Dropout2d(0.25)
            self.gn = nn.GroupNorm(2, 8)
            self.fc = nn.Linear(8 * 2 * 2, 3)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.bn(self.c1(x))), 2)
            x = self.gn(F.gelu(self.c2(self.drop(x))))
            return self.fc(x.flatten(1))

    net = _seeded(T, Net(), 40)
    opt = T.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.05)
    sch = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=4)
    x = T.tensor(_data(6, 1, 10, 10))
    y = T.tensor([0, 1, 2, 0, 1, 2])
    losses = []
    for step in range(4):
        opt.zero_grad(set_to_none=True)
        out = net(x[step % 2 * 3 : step % 2 * 3 + 3])
        loss = F.cross_entropy(out, y[step % 2 * 3 : step % 2 * 3 + 3], label_smoothing=0.1)
        loss.backward()
        T.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        sch.step()
        losses.append(loss.detach())
    net.eval()
    with T.no_grad():
        pred = net(x).argmax(1)
    return {
        "losses": losses,
        "pred": pred,
        "rm": net.bn.running_mean,
        "lr": sch.get_last_lr(),
        "fc": net.fc.weight,
        "rand_after": T.rand(2),
    }


@program()
def prog_lstm_language_model_steps(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(11, 6, padding_idx=0)
            self.rnn = nn.LSTM(6, 8, num_layers=2, batch_first=True, dropout=0.0)
            self.out = nn.Linear(8, 11)

        def forward(self, tokens, lengths):
            e = self.emb(tokens)
            packed = nn.utils.rnn.pack_padded_sequence(
                e, lengths, batch_first=True, enforce_sorted=False
            )
            h, _ = self.rnn(packed)
            h, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True)
            return self.out(h)

    lm = _seeded(T, LM(), 41)
    opt = T.optim.Adam(lm.parameters(), lr=5e-3)
    tokens = T.tensor([[3, 4, 5, 6, 0], [7, 8, 0, 0, 0], [2, 9, 10, 1, 5]])
    lengths = T.tensor([4, 2, 5])
    losses = []
    for _ in range(3):
        opt.zero_grad()
        logits = lm(tokens[:, :-1], (lengths - 1).clamp(min=1))
        tgt = tokens[:, 1 : logits.shape[1] + 1]
        loss = F.cross_entropy(logits.reshape(-1, 11), tgt.reshape(-1), ignore_index=0)
        loss.backward()
        nn.utils.clip_grad_value_(lm.parameters(), 0.5)
        opt.step()
        losses.append(loss.detach())
    return {
        "losses": losses,
        "emb0": lm.emb.weight[0],
        "w": lm.rnn.weight_hh_l1,
        "g_emb": lm.emb.weight.grad,
    }


@program()
def prog_transformer_classifier_with_padding(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(0)
    layer = nn.TransformerEncoderLayer(
        8, 2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu"
    )
    enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    head = nn.Linear(8, 2)
    model = _seeded(T, nn.ModuleDict({"enc": enc, "head": head}), 42)
    x = T.tensor(_data(3, 5, 8))
    pad = T.tensor([[False] * 5, [False, False, False, True, True], [False] * 4 + [True]])
    opt = T.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        h = model["enc"](x, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        loss = F.cross_entropy(model["head"](pooled), T.tensor([0, 1, 1]))
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return {"losses": losses, "h": h.detach(), "w": model["head"].weight}


@program()
def prog_autoencoder_with_tied_decoder_and_hooks(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    enc = _lin(T, 6, 3, 43)
    bias = nn.Parameter(T.zeros(6))
    acts = {}
    enc.register_forward_hook(lambda m, i, o: acts.__setitem__("code", o.detach()))
    grads = []
    opt = T.optim.RMSprop([*enc.parameters(), bias], lr=0.01, alpha=0.9)
    x = T.tensor(_data(4, 6))
    for _ in range(3):
        opt.zero_grad()
        code = T.tanh(enc(x))
        code.register_hook(lambda g: grads.append(g.norm()))
        recon = F.linear(code, enc.weight.t(), bias)
        loss = F.mse_loss(recon, x) + 1e-3 * code.abs().sum()
        loss.backward()
        opt.step()
    return {"loss": loss, "code": acts["code"], "grads": grads, "w": enc.weight, "b": bias}


@program(warnings=False)
def prog_vmap_out_dims_none_and_pytree_errors(T: Any) -> Any:
    f = T.func
    x = T.arange(6.0).reshape(2, 3)
    const = T.ones(2)
    return {
        "out_none": T.vmap(lambda a: (a * 2, T.ones(2)), out_dims=(0, None))(x),
        "out_none_closure": T.vmap(lambda a: (a.sum(), const), out_dims=(0, None))(x)[1] is const,
        "out_none_batched": raises(lambda: T.vmap(lambda a: a * 2, out_dims=None)(x)),
        "out_none_nontensor": T.vmap(lambda a: (a, "tag"), out_dims=(0, None))(x)[1],
        "in_none": raises(lambda: T.vmap(lambda a: a, in_dims=None)(x)),
        "dict_in": T.vmap(lambda d: d["a"] + d["b"])({"a": x, "b": x}),
        "kwargs": T.vmap(lambda a, k=1.0: a * k)(x, k=3.0),
        "neg_dim": T.vmap(lambda a: a.sum(), in_dims=-1)(x),
        "vjp_struct": raises(lambda: f.vjp(lambda a: (a, a), T.ones(2))[1](T.ones(2))),
        "vjp_struct_dict": raises(
            lambda: f.vjp(lambda a: {"u": a, "v": [a]}, T.ones(2))[1]((T.ones(2),))
        ),
        "jacrev_dict": f.jacrev(lambda a: {"s": a.sin(), "t": a.sum()})(T.ones(2)),
        "jacfwd_aux": f.jacfwd(lambda a: (a**2, a.sum()), has_aux=True)(T.ones(2)),
        "vmap_grad_aux": T.vmap(f.grad(lambda a: ((a**2).sum(), a.mean()), has_aux=True))(x),
    }


@program()
def prog_optimizer_and_scheduler_validation(T: Any) -> Any:
    optim = T.optim
    S = optim.lr_scheduler
    p = T.nn.Parameter(T.ones(2))
    res = {}
    for name, kw in [
        ("SGD", {"lr": -1}),
        ("SGD", {"lr": 0.1, "momentum": -1}),
        ("SGD", {"lr": 0.1, "nesterov": True, "momentum": 0.9, "dampening": 0.1}),
        ("Adam", {"betas": (0.9, 1.0)}),
        ("Adamax", {"betas": (-0.1, 0.9)}),
        ("Adagrad", {"lr_decay": -1}),
        ("Adadelta", {"rho": 1.5}),
        ("RMSprop", {"alpha": -1}),
        ("Rprop", {"etas": (1.2, 0.5)}),
        ("NAdam", {"momentum_decay": -1}),
        ("RAdam", {"eps": -1}),
        ("LBFGS", {"lr": -1}),
        ("SparseAdam", {"lr": 0.0}),
        ("SparseAdam", {"lr": 0.1}),
        ("SGD", {}),
    ]:
        res[f"{name}{sorted(kw.items())}"] = raises(
            lambda name=name, kw=kw: repr(getattr(optim, name)([p], **kw))
        )
    opt = optim.SGD([p], lr=0.1)
    sp = optim.SparseAdam([p], lr=0.1)
    p.grad = T.ones(2)
    res["sparse_dense_grad"] = raises(sp.step)
    res["sparse_complex"] = raises(lambda: optim.SparseAdam([T.nn.Parameter(T.ones(1) * 1j)]))
    res["sparse_sd"] = sp.state_dict()
    res["onecycle_none"] = raises(lambda: S.OneCycleLR(opt, 0.1))
    res["onecycle_pct"] = raises(lambda: S.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1.5))
    res["wr_t0"] = raises(lambda: S.CosineAnnealingWarmRestarts(opt, 0))
    res["linear_factor"] = raises(lambda: S.LinearLR(opt, start_factor=0))
    res["const_factor"] = raises(lambda: S.ConstantLR(opt, factor=2))
    res["lambda_count"] = raises(lambda: S.LambdaLR(opt, [lambda e: 1, lambda e: 2]))
    res["seq_milestones"] = raises(
        lambda: S.SequentialLR(opt, [S.StepLR(opt, 1), S.StepLR(opt, 1)], milestones=[1, 2])
    )
    res["chain_other"] = raises(
        lambda: S.ChainedScheduler([S.StepLR(optim.SGD([p], lr=0.1), 1), S.StepLR(opt, 1)])
    )
    res["cyclic_mode"] = raises(lambda: S.CyclicLR(opt, 0.01, 0.1, mode="x"))
    res["plateau_min_lr"] = raises(lambda: S.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]))
    res["not_opt"] = raises(lambda: S.StepLR("opt", 1))
    return res


@program()
def prog_sparse_embedding_with_sparse_adam(T: Any) -> Any:
    emb = _seeded(T, T.nn.Embedding(5, 3, sparse=True), 44)
    opt = T.optim.SparseAdam(emb.parameters(), lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        emb(T.tensor([1, 3, 3])).pow(2).sum().backward()
        opt.step()
    return {"w": emb.weight, "sparse": emb.weight.grad.is_sparse}


@program()
def prog_gradgradcheck_random_grad_outputs_and_rng(T: Any) -> Any:
    class BadDouble(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x.detach()

    def head(e):  # without shadowgrad's extra last line (see test_realistic_programs_2)
        return (e.type, e.message.split("\n\nThe worst element")[0])

    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    T.manual_seed(0)
    ok = T.autograd.gradgradcheck(lambda a: a**3, (x,))
    after = T.rand(2)
    T.manual_seed(0)
    ok2 = T.autograd.gradgradcheck(lambda a: a**3, (x,), gen_non_contig_grad_outputs=True)
    after2 = T.rand(2)
    T.manual_seed(0)
    bad = head(raises(lambda: T.autograd.gradgradcheck(BadDouble.apply, (x,))))
    return {"ok": ok, "after": after, "ok2": ok2, "after2": after2, "bad": bad}


@program()
def prog_make_tensor_zero_dim_complex(T: Any) -> Any:
    T.manual_seed(0)
    return T.testing.make_tensor((), dtype=T.complex64, device="cpu", low=-1, high=1)


@program()
def prog_gradgradcheck_complex_scalar_output(T: Any) -> Any:
    T.manual_seed(0)
    x = T.tensor([1.0 + 1j, 2.0], dtype=T.complex128, requires_grad=True)
    return {"ok": T.autograd.gradgradcheck(lambda a: (a * a).sum(), (x,)), "after": T.rand(2)}


@program()
def prog_module_global_and_backward_pre_hooks(T: Any) -> Any:
    nn = T.nn
    log = []
    mod = importlib.import_module(T.__name__ + ".nn.modules.module")
    h1 = mod.register_module_forward_pre_hook(lambda m, a: log.append(("pre", type(m).__name__)))
    h2 = mod.register_module_full_backward_hook(
        lambda m, gi, go: log.append(("bwd", type(m).__name__))
    )
    try:
        seq = _seeded(T, nn.Sequential(nn.Linear(2, 2), nn.Tanh()), 45)
        seq(T.ones(1, 2, requires_grad=True)).sum().backward()
    finally:
        h1.remove()
        h2.remove()
    lin = _lin(T, 2, 2, 46)
    lin.register_full_backward_pre_hook(lambda m, go: log.append(len(go)) or (go[0] * 0,))
    x = T.ones(1, 2, requires_grad=True)
    lin(x).sum().backward()

    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    boom = Boom()
    boom.register_forward_hook(lambda m, a, o: log.append(("always", o)), always_call=True)
    err = raises(lambda: boom(T.ones(1)))

    class Two(nn.Module):
        def forward(self, x):
            return x * 2, x * 3

    two = Two()
    two.register_full_backward_hook(
        lambda m, gi, go: log.append(([g is None for g in gi], [g is None for g in go]))
    )
    y = T.ones(2, requires_grad=True)
    a, _ = two(y)
    a.sum().backward()
    sd_log = []
    inner = nn.Linear(1, 1)
    inner.register_state_dict_pre_hook(lambda m, prefix, keep: sd_log.append((prefix, keep)))
    inner.register_state_dict_post_hook(lambda m, sd, prefix, local: sd_log.append(sorted(sd)))
    nn.Sequential(inner).state_dict(keep_vars=True)
    return {"log": log, "x": x.grad, "err": err, "y": y.grad, "sd_log": sd_log}


@program()
def prog_scheduler_state_dict_roundtrips(T: Any) -> Any:
    S = T.optim.lr_scheduler

    def mk():
        return T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, momentum=0.9)

    def rt(make):
        o1 = mk()
        s1 = make(o1)
        for _ in range(3):
            o1.step()
            s1.step()
        sd = s1.state_dict()
        o2 = mk()
        s2 = make(o2)
        s2.load_state_dict(sd)
        o2.load_state_dict(o1.state_dict())
        out = []
        for _ in range(3):
            o1.step()
            s1.step()
            o2.step()
            s2.step()
            out.append((s1.get_last_lr(), s2.get_last_lr()))
        return out, list(sd)

    return {
        "seq": rt(
            lambda o: S.SequentialLR(
                o, [S.LinearLR(o, 0.1, total_iters=2), S.ExponentialLR(o, 0.5)], milestones=[2]
            )
        ),
        "chain": rt(lambda o: S.ChainedScheduler([S.StepLR(o, 2), S.ExponentialLR(o, 0.9)])),
        "wr": rt(lambda o: S.CosineAnnealingWarmRestarts(o, 2, 2)),
        "oc": rt(lambda o: S.OneCycleLR(o, 1.0, total_steps=10)),
        "cyc": rt(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2)),
        "lambda": rt(lambda o: S.LambdaLR(o, lambda e: 0.5**e)),
        "mult": rt(lambda o: S.MultiplicativeLR(o, lambda e: 0.9)),
        "plateau": S.ReduceLROnPlateau(mk()).state_dict(),
    }


@program()
def prog_optimizer_named_parameters_and_state_casts(T: Any) -> Any:
    m = _lin(T, 2, 1, 47)
    opt = T.optim.Adam(m.named_parameters(), lr=0.1)
    m(T.ones(1, 2)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    groups = T.optim.SGD(
        [{"params": [("w", m.weight)]}, {"params": [("b", m.bias)], "lr": 1.0}], lr=0.1
    ).state_dict()["param_groups"]
    o1 = T.optim.SGD(m.named_parameters(), lr=0.1, momentum=0.9)
    o1.step()
    o2 = T.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    o2.load_state_dict(o1.state_dict())
    p = T.nn.Parameter(T.ones(2))
    o3 = T.optim.Adam([{"params": [p], "tag": "enc"}])
    p.grad = T.ones(2)
    o3.step()
    q = T.nn.Parameter(T.ones(2, dtype=T.float64))
    o4 = T.optim.Adam([q], lr=0.5)
    o4.load_state_dict(o3.state_dict())
    return {
        "groups": sd["param_groups"],
        "state": sd["state"],
        "repr": repr(opt),
        "named_groups": groups,
        "loaded": o2.state_dict()["param_groups"],
        "mixed": raises(lambda: T.optim.SGD([("w", m.weight), m.bias], lr=0.1)),
        "cast": {k: v for k, v in o4.state[q].items()},
        "tag": o4.param_groups[0]["tag"],
        "lr": o4.param_groups[0]["lr"],
    }


@program()
def prog_saved_number_operand_types(T: Any) -> Any:
    """A number operand is saved as torch's wrapped number, of its own Python type: 1 and 1.0
    compute alike but read back as int64 and float64, True as a bool."""
    x = T.ones(2, requires_grad=True)
    ys = [x * 1.0, x * 1, x * 2, x * 2.0, x * 0, x * -0.0, x / 4, x / 4.0, x * True, x * False]
    ys += [x.double() * 2, x.half() * 3, x * 2**40, x * -(2**63)]
    return [(y.grad_fn._saved_other, y) for y in ys]


# --- the harness -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", program_params(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    check_program(name, PROGRAMS[name])
