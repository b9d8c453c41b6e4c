"""Autograd test-suite programs, part 3: what torch's test/test_autograd.py checks that
test_autograd_suite_programs.py and test_autograd_suite2_programs.py do not: the inference-mode
matrix (inference and normal tensors through functional, in-place and view ops, in and out of
the mode), hook ordering corners (tensor hooks, retains_grad, node pre/post hooks, hooks on
views and on inputs of in-place ops), the graph.Node API, saved-tensor hooks on wrapped numbers
and in double backward, version-counter and retain_graph messages, custom Function corners and
reentrant backward. Each `prog(T)` runs on torch and on shadowgrad, and everything it returns,
raises or warns is compared by test_realistic_programs_3's harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = True, dtype: Any = None) -> Any:
    x = T.tensor(_data(*shape, seed=seed), requires_grad=False)
    if dtype is not None:
        x = x.to(dtype)
    return x.requires_grad_(rg)


def _name(node: Any) -> Any:
    return None if node is None else node.name()


# --- inference mode: the matrix of torch's test_inference_mode_* ----------------------------


@program()
def prog_ag3_inference_tensor_in_inference_mode_ops(T: Any) -> Any:
    with T.inference_mode():
        c = T.ones(2, 3)
        f = c * 2
        i = c.add_(1)
        v = c.view(6)
        s = c[0]
        t = c.t()
        out = [
            (f.is_inference(), f.requires_grad, f.grad_fn),
            (i is c, i.is_inference(), i.requires_grad),
            (v.is_inference(), v._is_view(), v._base is c, s._is_view(), t.is_contiguous()),
        ]
        r = T.ones(2, 3, requires_grad=True)
        out.append((r.is_inference(), r.requires_grad, r.is_leaf))
        g = r * 2
        out.append((g.requires_grad, g.grad_fn, g.is_inference()))
    out.append(raises(lambda: c._version))
    return out, c.clone(), v.clone()


@program()
def prog_ag3_inference_tensor_outside_mode_errors(T: Any) -> Any:
    with T.inference_mode():
        c = T.ones(2, 3)
        v = c.view(6)
    n = _t(T, 2, 3)
    out = {
        "func": ((c * 2).is_inference(), (c * 2).requires_grad),
        "add_": raises(lambda: c.add_(1)),
        "view_add_": raises(lambda: v.add_(1)),
        "copy_": raises(lambda: c.copy_(T.zeros(2, 3))),
        "setitem": raises(lambda: c.__setitem__(0, 1.0)),
        "zero_": raises(lambda: c.zero_()),
        "view": (c.view(3, 2).is_inference(), c[1].is_inference()),
        "mix_func": raises(lambda: n * c),
        "mix_add": ((n + c).is_inference(), (n + c).requires_grad, _name((n + c).grad_fn)),
        "save": raises(lambda: (n * c).sum().backward()),
        "save_mm": raises(lambda: (n @ c.t()).sum().backward()),
        "add_ok": raises(lambda: (n + c).sum().backward()),
        "grad": n.grad,
        "normal_inplace_with_inf": raises(lambda: n.detach().mul_(c)),
        "req_grad": raises(lambda: c.requires_grad_()),
        "req_grad_false": raises(lambda: c.requires_grad_(False).requires_grad),
        "after": c.clone(),  # the refused in-place ops wrote before refusing
        "detach": (c.detach().is_inference(), c.detach()._is_view()),
    }
    with T.inference_mode():
        c2 = T.ones(2, 3)
    r = raises(lambda: c2.resize_(3, 2))
    out["resize_"] = (r.shape if hasattr(r, "shape") else r), c2.shape
    return out


@program()
def prog_ag3_normal_tensor_inplace_and_view_in_inference_mode(T: Any) -> Any:
    a = _t(T, 2, 3)
    b = a * 1
    out = []
    with T.inference_mode():
        d = b.detach()
        d.mul_(2)
        v = b.view(6)
        out.append((v.is_inference(), v.requires_grad, v.grad_fn is not None, v._is_view()))
        w = b[0]
        out.append((w.requires_grad, _name(w.grad_fn)))
        out.append(raises(lambda: b.mul_(2)))
        e = T.ones(3)
        e2 = e.view(3)
        e2.add_(1)
        out.append((e2.is_inference(), raises(lambda: e._version)))
    out.append(raises(lambda: v.add_(1)))
    out.append(raises(lambda: (v * 2).sum().backward()))
    out.append(raises(lambda: v.sum().backward()))
    out.append(a.grad)
    return out, b, d


@program()
def prog_ag3_inference_mode_view_of_requiring_then_rebase(T: Any) -> Any:
    a = _t(T, 4)
    b = a.clone()
    with T.inference_mode():
        v = b[:2]
    r1 = raises(lambda: v.mul_(2))
    with T.no_grad():
        u = b[2:]
    r2 = raises(lambda: u.mul_(3))
    u2 = b[1:3]
    u2.mul_(4)
    b.sum().backward()
    c = a.clone()
    with T.inference_mode():
        parts = c.unbind(0)
        w = c[1:]
    with T.no_grad():
        nparts = c.split(2)
    r3 = raises(lambda: parts[0].mul_(2))
    r4 = raises(lambda: nparts[0].mul_(2))
    c.add_(1)
    r5 = raises(lambda: w.grad_fn)
    r6 = raises(lambda: w * 2)
    r7 = raises(lambda: parts[1].is_leaf)
    return r1, r2, _name(u2.grad_fn), _name(b.grad_fn), a.grad, b, r3, r4, r5, r6, r7


@program()
def prog_ag3_inference_mode_decorator_forms_and_state(T: Any) -> Any:
    @T.inference_mode
    def f(x):
        return x * 2, T.is_inference_mode_enabled()

    @T.inference_mode(mode=False)
    def g(x):
        return x * 2, T.is_inference_mode_enabled()

    x = _t(T, 2)
    y, s1 = f(x)
    with T.inference_mode():
        z, s2 = g(x)
    m = T.inference_mode()
    return (
        (y.is_inference(), y.requires_grad, s1),
        (z.is_inference(), z.requires_grad, s2),
        m.mode,
        T.inference_mode(False).mode,
        T.is_inference_mode_enabled(),
        T.is_grad_enabled(),
    )


@program()
def prog_ag3_inference_tensor_as_custom_function_and_module_input(T: Any) -> Any:
    with T.inference_mode():
        inp = T.ones(2, 3)
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.fill_(0.5)
        lin.bias.fill_(0.1)
    r0 = raises(lambda: lin(inp))
    out = lin(inp.clone())
    out.sum().backward()
    w = lin.weight.grad
    with T.inference_mode():
        o2 = lin(inp)
    b = T.tensor([1.0, 2.0], requires_grad=True)
    with T.inference_mode():
        s = T.tensor([3.0, 4.0])
    r1 = raises(lambda: (b + s).sum().backward())
    r2 = raises(lambda: (b - s * 2).exp().sum().backward())
    r3 = raises(lambda: b * s)
    r4 = raises(lambda: T.where(s > 3, b, s).sum().backward())
    return (
        r0,
        out.is_inference(),
        w,
        o2.is_inference(),
        o2.requires_grad,
        o2.clone(),
        r1,
        r2,
        r3,
        r4,
        b.grad,
    )


@program()
def prog_ag3_inference_tensor_clone_and_conversions(T: Any) -> Any:
    with T.inference_mode():
        c = T.arange(6.0).view(2, 3)
    cl = c.clone()
    return (
        cl.is_inference(),
        cl.requires_grad_().requires_grad,
        c.to(T.float64).is_inference(),
        c.float().is_inference(),
        c.contiguous() is c,
        c.t().contiguous().is_inference(),
        c.numpy().sum().item(),
        c.tolist(),
        T.empty_like(c).is_inference(),
        T.zeros_like(c).is_inference(),
        T.tensor(c.tolist()).is_inference(),
    )


# --- version counter messages: the tensor's type, shape, producer and versions ------------


def _modified(T: Any, make: Any, bump: Any) -> Any:
    """Build a graph saving a tensor, modify it in place, and backward: the error."""

    def go() -> Any:
        out, saved = make()
        bump(saved)
        out.sum().backward()

    return raises(go)


@program()
def prog_ag3_version_error_message_forms(T: Any) -> Any:
    out = {}
    a = _t(T, 2, 3)
    d = _t(T, 2, 3, dtype=T.float64)
    h = _t(T, 4, dtype=T.float16)
    z = T.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    out["exp"] = _modified(T, lambda: ((e := a.exp()) * 1, e), lambda e: e.add_(1))
    out["leaf"] = _modified(
        T,
        lambda: ((w := a.detach().clone().requires_grad_()) * w, w),
        lambda w: w.detach().add_(1),
    )
    out["double_t"] = _modified(T, lambda: ((e := d.t()) * e, e), lambda e: e.detach().mul_(2))
    out["half_0d"] = _modified(T, lambda: ((e := h.sum()) * e, e), lambda e: e.detach().mul_(2))
    out["complex"] = _modified(
        T, lambda: (((e := z * 2) * e).abs(), e), lambda e: e.detach().mul_(2)
    )
    out["twice"] = _modified(
        T,
        lambda: ((e := a.tanh()) * 1 + e.sigmoid(), e),
        lambda e: (e.detach().mul_(2), e.detach().add_(1)),
    )
    out["view"] = _modified(T, lambda: ((e := a.clone()[0]) ** 2, e), lambda e: e.detach().mul_(2))
    out["int_index"] = _modified(
        T,
        lambda: ((e := T.tensor([0, 1])), a[e])[::-1],
        lambda e: e.add_(1),
    )
    return out


@program()
def prog_ag3_version_error_via_base_and_after_hooks(T: Any) -> Any:
    a = _t(T, 4)
    b = a * 1
    v = b[:2]
    y = v.exp()
    b[2:].mul_(2)  # another view: the saved output is not touched, but the version is shared
    r1 = raises(lambda: y.sum().backward(retain_graph=True))
    c = a * 1
    s = c.sin()
    c.add_(1)
    r2 = raises(lambda: T.autograd.grad(s.sum(), a))
    r3 = raises(lambda: s.grad_fn._saved_self)
    e = a.exp()
    e.add_(0)
    r4 = raises(lambda: e.grad_fn)
    r5 = raises(lambda: e.sum().backward())
    return r1, r2, r3, _name(r4), r5, a.grad, b._version, c._version


# --- retain_graph: what the second pass can and cannot do ------------------------------------


@program()
def prog_ag3_second_backward_messages_by_node(T: Any) -> Any:
    out = {}
    for name, fn in (
        ("mul", lambda x: x * x),
        ("exp", lambda x: x.exp()),
        ("add", lambda x: x + 1),
        ("view", lambda x: x.view(-1)),
        ("sum_mean", lambda x: x.mean() + x.sum()),
        ("mm", lambda x: x.view(2, 2) @ x.view(2, 2)),
        ("index", lambda x: x[T.tensor([0, 0, 1])]),
        ("relu", lambda x: x.relu()),
        ("pow", lambda x: x.pow(2)),
    ):
        x = _t(T, 4)
        y = fn(x).sum()
        y.backward()
        out[name] = (raises(lambda y=y: y.backward()), x.grad)
    return out


@program()
def prog_ag3_retain_graph_none_follows_create_graph(T: Any) -> Any:
    x = _t(T, 3)
    y = (x**3).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    r1 = raises(lambda: T.autograd.grad(y, x))  # retain_graph defaulted to create_graph
    (gg,) = T.autograd.grad(g.sum(), x, retain_graph=False)
    r2 = raises(lambda: T.autograd.grad(g.sum(), x))
    z = (x * 2).exp().sum()
    z.backward(create_graph=True, retain_graph=False)
    r3 = raises(lambda: z.backward())
    return g, r1, gg, r2, r3, x.grad, x.grad.grad_fn


# --- custom Function: apply forms, setup_context defaults, backward results -----------------


@program()
def prog_ag3_fn_apply_forms_and_backward_result_checks(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class NoFwd(F):
        @staticmethod
        def backward(ctx, g):
            return g

    out["nofwd"] = raises(lambda: NoFwd.apply(T.ones(2, requires_grad=True)))

    class Sq(F):
        @staticmethod
        def forward(ctx, x, k=2.0):
            ctx.save_for_backward(x)
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    x = T.ones(2, requires_grad=True)
    out["kw"] = raises(lambda: Sq.apply(x, k=3.0))
    out["default"] = raises(lambda: Sq.apply(x))

    class SC(F):
        @staticmethod
        def forward(x, k=2.0):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1] if len(inputs) > 1 else None
            ctx.n = len(inputs)

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    y = SC.apply(x)
    out["sc_default"] = (y, y.grad_fn.n, y.grad_fn.k)

    class Bad(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g

    out["both_ctx"] = raises(lambda: Bad.apply(x))

    class Acc(F):
        @staticmethod
        def forward(ctx, x):
            _ = ctx.saved_tensors
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    out["saved_in_fwd"] = raises(lambda: Acc.apply(x))

    class Twice(F):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x)
            ctx.save_for_backward(y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            (s,) = ctx.saved_tensors
            return g * s, g * s

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    Twice.apply(a, b).sum().backward()
    out["twice"] = (a.grad, b.grad)

    class NdIn(F):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    z = T.ones(2, requires_grad=True) * 1
    r = raises(lambda: NdIn.apply(z))
    out["nd_input"] = (
        (r.requires_grad, r.grad_fn, r is z, r._base is z) if hasattr(r, "requires_grad") else r
    )

    class RetList(F):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3]

        @staticmethod
        def backward(ctx, a, b):
            return a + b

    out["list_ret"] = raises(lambda: type(RetList.apply(x)).__name__)

    class RetDict(F):
        @staticmethod
        def forward(ctx, x):
            return {"a": x * 2}

        @staticmethod
        def backward(ctx, a):
            return a

    out["dict_ret"] = raises(lambda: RetDict.apply(x))

    class BadGrad(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return "nope"

    out["bad_grad_type"] = raises(lambda: BadGrad.apply(x).sum().backward())

    class BadGrad2(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return [g]

    out["list_grad"] = raises(lambda: BadGrad2.apply(x).sum().backward())
    out["list_grad_x"] = x.grad

    class IntGrad(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 3

    out["int_grad"] = raises(lambda: IntGrad.apply(x).sum().backward())

    class WrongGradDtypeInt(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.long()

    xx = T.ones(2, requires_grad=True)
    out["long_grad"] = raises(lambda: WrongGradDtypeInt.apply(xx).sum().backward())
    out["long_grad_x"] = xx.grad

    class Expand(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.sum()

    x3 = T.ones(2, 3, requires_grad=True)
    out["scalar_grad_expand"] = raises(lambda: Expand.apply(x3).sum().backward())
    out["x3g"] = x3.grad

    class Bcast(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g[:1]

    x4 = T.ones(2, 3, requires_grad=True)
    out["bcast_grad"] = raises(lambda: Bcast.apply(x4).sum().backward())
    out["x4g"] = x4.grad
    return out


# --- the graph.Node API --------------------------------------------------------------------


@program()
def prog_ag3_node_api_isinstance_metadata_and_saved_fields(T: Any) -> Any:
    out = {}
    Node = T.autograd.graph.Node
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * 2).sum()
    g = y.grad_fn
    out["isinst"] = (
        isinstance(g, Node),
        isinstance(x, Node),
        issubclass(type(g), Node),
        isinstance(None, Node),
    )

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g

    f = F.apply(x)
    out["fn_node"] = (isinstance(f.grad_fn, Node), f.grad_fn.name(), type(f.grad_fn).__name__)
    acc = g.next_functions[0][0].next_functions[0][0]
    out["acc"] = (
        acc.name(),
        acc.next_functions,
        acc.variable is x,
        isinstance(acc, Node),
        acc.metadata,
    )
    out["seq"] = (
        type(g._sequence_nr()).__name__,
        g._sequence_nr() > g.next_functions[0][0]._sequence_nr(),
    )
    g.metadata["k"] = 1
    out["meta"] = (g.metadata, y.grad_fn.metadata is g.metadata)
    h = g.register_hook(lambda gi, go: None)
    out["handle"] = (type(h).__name__, raises(lambda: h.remove()), raises(lambda: h.remove()))
    with x.register_hook(lambda gr: gr * 100):
        (x * 1).sum().backward()
    out["ctx_handle_grad"] = x.grad.clone()
    (x * 1).sum().backward()
    out["after_ctx"] = x.grad.clone()
    out["raw_saved"] = raises(lambda: type((x.exp()).grad_fn._raw_saved_result).__name__)
    out["saved_result"] = raises(lambda: (x.exp()).grad_fn._saved_result)
    out["saved_dims"] = raises(lambda: (x.sum(0, keepdim=True)).grad_fn._saved_dim)
    out["saved_keepdim"] = raises(lambda: (x.sum(0, keepdim=True)).grad_fn._saved_keepdim)
    out["saved_self_sym_sizes"] = raises(lambda: (x.sum(0)).grad_fn._saved_self_sym_sizes)
    out["saved_other_none"] = raises(lambda: (x * 2).grad_fn._saved_other)
    out["saved_self_mulscalar"] = raises(lambda: (x * 2).grad_fn._saved_self)
    out["saved_scalar_mul"] = raises(lambda: (x * 2).grad_fn.__dict__)
    out["dir_saved"] = sorted(a for a in dir((x * x).grad_fn) if a.startswith("_saved_"))
    out["dir_saved_pow"] = sorted(a for a in dir((x**2.5).grad_fn) if a.startswith("_saved_"))
    out["pow_exp"] = (
        (x**2.5).grad_fn._saved_exponent,
        type((x**2.5).grad_fn._saved_exponent).__name__,
    )
    out["pow_int"] = ((x**2).grad_fn._saved_exponent, type((x**2).grad_fn._saved_exponent).__name__)
    out["clamp"] = (
        x.clamp(0, 2).grad_fn._saved_min,
        x.clamp(0, 2).grad_fn._saved_max,
        x.clamp(min=0.5).grad_fn._saved_max,
    )
    out["view_size"] = x.view(3, 1).grad_fn._saved_self_sym_sizes
    out["expand"] = x.expand(2, 3).grad_fn._saved_self_sym_sizes
    out["permute"] = x.view(1, 3).permute(1, 0).grad_fn._saved_dims
    out["transpose"] = (
        x.view(1, 3).t().grad_fn.name(),
        x.view(1, 3).transpose(0, 1).grad_fn._saved_dim0,
    )
    out["select"] = (x[1].grad_fn._saved_dim, x[1].grad_fn._saved_index, x[-1].grad_fn._saved_index)
    out["slice"] = (
        x[1:].grad_fn._saved_start,
        x[1:].grad_fn._saved_end,
        x[::2].grad_fn._saved_step,
    )
    out["cat"] = (T.cat([x, x]).grad_fn._saved_dim,)
    out["mean"] = (x.mean().grad_fn.name(), raises(lambda: x.mean().grad_fn._saved_self_sym_numel))
    out["softmax"] = (x.softmax(0).grad_fn._saved_dim, x.softmax(0).grad_fn._saved_result)
    out["next_none"] = (x * T.ones(3)).grad_fn.next_functions
    return out


# --- saved-tensor hooks --------------------------------------------------------------------


@program()
def prog_ag3_saved_hooks_wrapped_numbers_double_backward_disable(T: Any) -> Any:
    out = {}
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape), t.dtype, t.requires_grad, t.grad_fn is not None))
        return t

    def unpack(t):
        log.append(("unpack", tuple(t.shape)))
        return t

    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * 2.5  # wrapped number: not saved as tensor
        z = x * T.tensor(2.0)  # 0-dim tensor saved
        w = x.pow(2)
        s = T.addcmul(x, x, x, value=0.5)
        q = x.where(x > 1, T.zeros(3))
        m = x.max()
        n = T.nn.functional.softplus(x)
    out["log_fwd"] = list(log)
    log.clear()
    (y.sum() + z.sum() + w.sum() + s.sum() + q.sum() + m + n.sum()).backward()
    out["log_bwd"] = log
    out["g"] = x.grad
    # hooks in double backward
    log3 = []
    x2 = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(
        lambda t: (log3.append(("p", tuple(t.shape))), t)[1], lambda t: (log3.append("u"), t)[1]
    ):
        y2 = (x2**3).sum()
        (g,) = T.autograd.grad(y2, x2, create_graph=True)
        n_after_first = len(log3)
        g.sum().backward()
    out["dbl"] = (log3, n_after_first, x2.grad)
    # pack returning a different tensor: backward uses unpack's result
    x3 = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t):
        y3 = (x3 * x3).sum()
    y3.backward()
    out["changed"] = x3.grad
    # save_on_cpu
    x4 = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.save_on_cpu():
        y4 = (x4.exp() * x4).sum()
    y4.backward()
    out["cpu"] = x4.grad
    out["cpu_pin"] = raises(
        lambda: T.autograd.graph.save_on_cpu(pin_memory=True).__class__.__name__
    )
    # hooks context reentry/nesting
    hk = T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
    with hk, hk:
        y5 = x4 * x4
    out["reenter"] = y5
    # disable
    with T.autograd.graph.disable_saved_tensors_hooks("nope"):
        out["dis1"] = raises(
            lambda: T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        )
        out["dis_ops"] = (x4 * x4).sum()
        with T.autograd.graph.disable_saved_tensors_hooks("inner"):
            out["dis2"] = raises(lambda: T.autograd.graph.save_on_cpu().__enter__())
        out["dis3"] = raises(
            lambda: T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        )
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        out["dis_inside"] = raises(
            lambda: T.autograd.graph.disable_saved_tensors_hooks("x").__enter__()
        )
    return out


# --- hook ordering -------------------------------------------------------------------------


@program()
def prog_ag3_hook_order_tensor_node_retain_acc_and_views(T: Any) -> Any:
    out = {}
    log = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * 3
    y.grad_fn.register_prehook(lambda go: log.append("node_pre1"))
    y.register_hook(lambda g: log.append("tensor1"))
    y.retain_grad()
    y.grad_fn.register_prehook(lambda go: log.append("node_pre2"))
    y.register_hook(lambda g: (log.append("tensor2"), g * 2)[1])
    y.grad_fn.register_hook(lambda gi, go: log.append("node_post"))
    z.grad_fn.register_hook(lambda gi, go: log.append("z_post"))
    x.register_hook(lambda g: log.append("leaf_tensor"))
    acc = y.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: log.append("acc_pre"))
    acc.register_hook(lambda gi, go: log.append("acc_post"))
    x.register_post_accumulate_grad_hook(lambda t: log.append("post_acc"))
    z.sum().backward()
    out["order"] = log
    out["grads"] = (y.grad, x.grad)
    # hook added during backward to a node not yet run
    log2 = []
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    c = b * 3

    def add_hook(g):
        log2.append("c_hook")
        b.register_hook(lambda gg: (log2.append("b_added"), gg * 0)[1])
        return None

    c.register_hook(add_hook)
    c.sum().backward()
    out["added"] = (log2, a.grad)
    # node pre-hook removing a later tensor hook
    log3 = []
    p = T.tensor([1.0, 2.0], requires_grad=True)
    q = p * 2
    r = q * 3
    hs = []

    def rm(go):
        log3.append("rm")
        hs[0].remove()
        return None

    r.grad_fn.register_prehook(rm)
    hs.append(q.register_hook(lambda g: (log3.append("q"), g * 100)[1]))
    r.sum().backward()
    out["removed"] = (log3, p.grad)
    # hooks on a view of a leaf and the base
    log4 = []
    v0 = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = v0 * 1
    view = base[1:]
    view.register_hook(lambda g: (log4.append(("view", g.tolist())), g * 2)[1])
    base.register_hook(lambda g: (log4.append(("base", g.tolist())), g)[1])
    (view.sum() + base.sum()).backward()
    out["view_hooks"] = (log4, v0.grad)
    # hook on view after in-place on view
    log5 = []
    w0 = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    wb = w0 * 1
    wv = wb[:2]
    wv.register_hook(lambda g: (log5.append(("old_view", g.tolist())), g)[1])
    wv.mul_(2)
    wv.register_hook(lambda g: (log5.append(("new_view", g.tolist())), g)[1])
    wb.register_hook(lambda g: (log5.append(("base", g.tolist())), g)[1])
    wb.sum().backward()
    out["view_inplace_hooks"] = (log5, w0.grad, wv.grad_fn.name(), wb.grad_fn.name())
    # prehook returning tuple modifies grads
    m = T.tensor([1.0, 2.0], requires_grad=True)
    n = m.exp()
    n.grad_fn.register_prehook(lambda go: (go[0] * 0 + 1,))
    n.sum().backward()
    out["pre_ret"] = m.grad
    # post hook returning modified grad_inputs for a leaf-edge
    k = T.tensor([1.0, 2.0], requires_grad=True)
    kk = k * 5
    kk.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, None))
    out["post_ret"] = raises(lambda: kk.sum().backward())
    out["post_ret_g"] = k.grad
    return out


# --- grad mode: threads, multithreading, private managers, bad arguments ------------------


@program()
def prog_ag3_grad_mode_threads_multithreading_and_bad_args(T: Any) -> Any:
    out = {}
    import threading

    gm = T.autograd.grad_mode
    # thread-local grad/inference mode
    res = {}

    def worker():
        res["grad"] = T.is_grad_enabled()
        res["inf"] = T.is_inference_mode_enabled()
        a = T.ones(2, requires_grad=True)
        (a * 2).sum().backward()
        res["g"] = a.grad

    with T.no_grad(), T.inference_mode():
        th = threading.Thread(target=worker)
        th.start()
        th.join()
    out["thread"] = res
    out["mt"] = raises(
        lambda: (
            gm.set_multithreading_enabled(False).__class__.__name__,
            T.autograd.is_multithreading_enabled(),
        )
    )
    gm.set_multithreading_enabled(True)
    with gm.set_multithreading_enabled(False):
        out["mt_in"] = T.autograd.is_multithreading_enabled()
    out["mt_after"] = T.autograd.is_multithreading_enabled()
    # unsafe_preserve_version_counter
    x = T.ones(3)
    v0 = x._version
    with gm._unsafe_preserve_version_counter(x):
        x.add_(1)
    out["preserve"] = (v0, x._version, x)
    # _force_original_view_tracking
    with gm._force_original_view_tracking(True):
        out["fovt"] = T.autograd.is_view_replay_enabled()
    out["fovt_after"] = T.autograd.is_view_replay_enabled()
    f = gm._force_original_view_tracking(True)  # set on construction, as set_grad_enabled
    out["fovt_ctor"] = T.autograd.is_view_replay_enabled()
    with f:
        pass
    out["fovt_exit"] = T.autograd.is_view_replay_enabled()
    # set_grad_enabled object repr and clone
    s = T.set_grad_enabled(False)
    out["sge_state_mid"] = T.is_grad_enabled()
    out["sge_clone"] = raises(lambda: type(s.clone()).__name__)
    T.set_grad_enabled(True)
    out["ng_clone"] = raises(lambda: type(T.no_grad().clone()).__name__)
    out["inf_clone"] = raises(lambda: T.inference_mode(False).clone().mode)
    # no_grad __call__ on non-callable
    out["ng_bad"] = raises(lambda: T.no_grad()(3))
    out["ng_arg"] = raises(lambda: T.no_grad(3))
    out["sge_bad"] = raises(lambda: T.set_grad_enabled("yes"))
    out["sge_none"] = raises(lambda: T.set_grad_enabled(None))
    out["inf_bad"] = raises(lambda: T.inference_mode("yes").mode)
    out["grad_enabled_after"] = T.is_grad_enabled()
    return out


# --- custom Function under torch.func ------------------------------------------------------


@program()
def prog_ag3_fn_under_func_transforms_vmap_rules(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Dbl(F):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.arange(6.0).view(2, 3)
    out["vmap_gen"] = raises(lambda: T.func.vmap(Dbl.apply)(x))

    class NoRule(F):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    out["vmap_norule"] = raises(lambda: T.func.vmap(NoRule.apply)(x))

    class OldStyle(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    out["vmap_oldstyle"] = raises(lambda: T.func.vmap(OldStyle.apply)(x))
    out["grad_oldstyle"] = raises(lambda: T.func.grad(lambda t: OldStyle.apply(t).sum())(x))
    out["grad_new"] = raises(lambda: T.func.grad(lambda t: NoRule.apply(t).sum())(x))

    class VR(F):
        @staticmethod
        def forward(x):
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 3

        @staticmethod
        def vmap(info, in_dims, x):
            return x * 3 + 0, in_dims[0]

    out["vmap_custom"] = raises(lambda: T.func.vmap(VR.apply)(x))

    class Both(F):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 3

        @staticmethod
        def vmap(info, in_dims, x):
            return x * 3, in_dims[0]

    out["vmap_both"] = raises(lambda: T.func.vmap(Both.apply)(x))

    return out


@program()
def prog_ag3_fn_vmap_staticmethod_is_called(T: Any) -> Any:
    F = T.autograd.Function
    log = []

    class VR(F):
        @staticmethod
        def forward(x):
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 3

        @staticmethod
        def vmap(info, in_dims, x):
            log.append((info.batch_size, info.randomness, in_dims, tuple(x.shape)))
            return x * 3, in_dims[0]

    x = T.arange(6.0).view(2, 3)
    out = {"ok": T.func.vmap(VR.apply)(x), "dim1": T.func.vmap(VR.apply, in_dims=1)(x)}
    out["log"] = log

    class VRInfo(F):
        @staticmethod
        def forward(x):
            return x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 3

        @staticmethod
        def vmap(info, in_dims, x):
            return (x * 3, (info.batch_size, info.randomness))

    out["vmap_info_bad_outdims"] = raises(lambda: T.func.vmap(VRInfo.apply)(x))
    return out


# --- grad/backward argument errors and is_grads_batched ------------------------------------


@program()
def prog_ag3_grad_and_backward_argument_errors(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)

    def y():
        return (x * x).sum()

    ag = T.autograd
    out["empty_backward"] = raises(lambda: ag.backward([]))
    out["empty_grad_out"] = raises(lambda: ag.grad([], [x]))
    out["empty_grad_in"] = raises(lambda: ag.grad(y(), []))
    out["grad_in_none"] = raises(lambda: ag.grad(y(), None))
    out["grad_in_int"] = raises(lambda: ag.grad(y(), 3))
    out["grad_in_list_int"] = raises(lambda: ag.grad(y(), [x, 3]))
    out["grad_out_int"] = raises(lambda: ag.grad(3, x))
    out["grad_out_list_none"] = raises(lambda: ag.grad([y(), None], x))
    out["gradient_list"] = raises(lambda: y().backward([1.0]))
    out["gradient_float"] = raises(lambda: y().backward(1.0))
    out["gradient_np"] = raises(lambda: y().backward(T.tensor(2.0).numpy()))
    out["gradient_int_tensor"] = raises(lambda: y().backward(T.tensor(2)))
    out["gradient_double"] = raises(lambda: y().backward(T.tensor(2.0, dtype=T.float64)))
    out["gradient_shape1"] = raises(lambda: y().backward(T.tensor([2.0])))
    out["gradient_bool"] = raises(lambda: y().backward(T.tensor(True)))
    out["gradient_complex"] = raises(lambda: y().backward(T.tensor(1 + 1j)))
    out["g"] = x.grad
    out["grad_outputs_count"] = raises(lambda: ag.grad([y(), y()], x, [T.tensor(1.0)]))
    out["grad_outputs_none_nonscalar"] = raises(lambda: ag.grad(x * 2, x, None))
    out["grad_outputs_list_none_nonscalar"] = raises(lambda: ag.grad([x * 2], x, [None]))
    out["grad_outputs_wrong_type"] = raises(lambda: ag.grad(y(), x, 3.0))
    out["grad_outputs_tuple_int"] = raises(lambda: ag.grad(y(), x, (3,)))
    out["backward_grad_tensors_count"] = raises(lambda: ag.backward([y(), y()], [T.tensor(1.0)]))
    out["backward_inputs_empty"] = raises(lambda: ag.backward(y(), inputs=[]))
    out["backward_inputs_int"] = raises(lambda: ag.backward(y(), inputs=[3]))
    out["backward_inputs_nonrg"] = raises(lambda: ag.backward(y(), inputs=[T.ones(2)]))
    out["tensor_backward_inputs_tensor"] = raises(lambda: y().backward(inputs=x))
    out["g2"] = x.grad
    out["grad_kw_bad"] = raises(lambda: ag.grad(y(), x, bogus=1))
    out["grad_positional"] = raises(lambda: ag.grad(y(), x, None, True, False, False, False))
    out["backward_kw_bad"] = raises(lambda: y().backward(bogus=1))
    out["grad_only_inputs"] = raises(lambda: ag.grad(y(), x, only_inputs=False))
    out["grad_allow_unused_false_materialize"] = raises(
        lambda: ag.grad(
            y(), [x, T.ones(1, requires_grad=True)], allow_unused=False, materialize_grads=True
        )
    )
    out["grad_batched_scalar"] = raises(
        lambda: ag.grad(y(), x, T.tensor(1.0), is_grads_batched=True)
    )
    out["grad_batched_ok"] = raises(lambda: ag.grad(x * 2, x, T.eye(2), is_grads_batched=True))
    return out


@program()
def prog_ag3_is_grads_batched_check_order(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    n = T.ones(2)
    ag = T.autograd
    out["nonrg_bad_shape"] = raises(lambda: ag.grad(n * 2, x, T.ones(3, 3), is_grads_batched=True))
    out["nonrg_0dim"] = raises(lambda: ag.grad(n * 2, x, T.tensor(1.0), is_grads_batched=True))
    out["mixed"] = raises(
        lambda: ag.grad([(x * x).sum(), x * 2], x, [None, T.tensor(1.0)], is_grads_batched=True)
    )
    out["mixed2"] = raises(
        lambda: ag.grad([(x * x).sum(), x * 2], x, [None, T.ones(3, 2)], is_grads_batched=True)
    )
    out["mixed3"] = raises(
        lambda: ag.grad(
            [(x * x).sum().view(1), x * 2], x, [None, T.ones(3, 2)], is_grads_batched=True
        )
    )
    out["second_bad"] = raises(
        lambda: ag.grad([x * 3, x * 2], x, [T.ones(3, 2), T.ones(3, 3)], is_grads_batched=True)
    )
    out["batch_mismatch"] = raises(
        lambda: ag.grad([x * 3, x * 2], x, [T.ones(3, 2), T.ones(4, 2)], is_grads_batched=True)
    )
    out["dtype"] = raises(
        lambda: ag.grad(x * 3, x, T.ones(3, 2, dtype=T.float64), is_grads_batched=True)
    )
    out["int"] = raises(
        lambda: ag.grad(x * 3, x, T.ones(3, 2, dtype=T.int64), is_grads_batched=True)
    )
    return out


@program()
def prog_ag3_is_grads_batched_none_and_made_grads(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    n = T.ones(2)
    ag = T.autograd
    out["nonrg_none"] = raises(
        lambda: ag.grad([n.sum(), x * 2], x, [None, T.ones(3, 2)], is_grads_batched=True)
    )
    out["nonrg_none2"] = raises(
        lambda: ag.grad([n * 2, x * 2], x, [None, T.ones(3, 2)], is_grads_batched=True)
    )
    out["one"] = raises(
        lambda: ag.grad([x.sum().view(1), x * 2], x, [None, T.ones(1, 2)], is_grads_batched=True)
    )
    out["q"] = raises(
        lambda: ag.grad([x * 3, x * 2], x, [T.ones(3, 2), T.ones(3, 1)], is_grads_batched=True)
    )
    return out


@program()
def prog_ag3_grad_outputs_mismatch_index_of_later_outputs(T: Any) -> Any:
    """torch names the mismatching pair by grads.index(grad) and outputs.index(out): list.index
    compares the earlier tensors with ==, which raises for shapes that don't broadcast and for
    multi-element results."""
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    ag = T.autograd
    out["a"] = raises(lambda: ag.grad([x * 3, x * 2], x, [T.ones(2), T.ones(3)]))
    out["b"] = raises(lambda: ag.grad([x * 3, x * 2], x, [T.ones(2), T.ones(2, 2)]))
    out["c"] = raises(lambda: ag.grad([x * 3, x * 2], x, [None, T.ones(3)]))
    out["d"] = raises(lambda: ag.grad([(x * 3).sum(), x * 2], x, [None, T.ones(3)]))
    out["e"] = raises(lambda: ag.grad([x.sum(), x * 2], x, [T.tensor(1.0), T.ones(1)]))
    out["f"] = raises(lambda: ag.grad([x[0], x * 2], x, [T.tensor(1.0), T.ones(1)]))
    out["g"] = raises(lambda: ag.backward([x * 3, x * 2], [T.ones(2), T.ones(3)]))
    out["h"] = raises(lambda: ag.grad([x * 3, x * 2], x, [T.ones(2), T.ones(2, dtype=T.complex64)]))
    out["i"] = raises(lambda: ag.grad([x * 3, x * 2], x, [T.ones(2), T.ones(3, dtype=T.complex64)]))
    out["j"] = raises(lambda: ag.grad([x.sum(), x[1]], x, [T.tensor(1.0), T.ones(1)]))
    out["k"] = raises(
        lambda: ag.grad(
            [x.sum(), (x * 2).sum(), x * 2], x, [T.tensor(1.0), T.tensor(2.0), T.ones(3)]
        )
    )
    return out


@program(
    xfail="is_grads_batched runs one backward per row and stacks the results, so with "
    "create_graph=True the gradient's grad_fn is StackBackward0 (torch's vmapped backward ends "
    "in the last node of the formula, AddBackward0 for x * x)"
)
def prog_ag3_is_grads_batched_create_graph_grad_fn(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (g,) = T.autograd.grad(x * x, x, T.eye(2), is_grads_batched=True, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return g, gg


# --- custom Function: mark_dirty, materialize, reentrant and deep graphs -------------------


@program()
def prog_ag3_fn_dirty_view_plain_leaf_needs_input_grad_materialize(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class DirtyNotRet(F):
        @staticmethod
        def forward(ctx, x, y):
            ctx.mark_dirty(y)
            y.add_(1)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    a = T.ones(2, requires_grad=True)
    b = T.ones(2) * 1
    out["dirty_not_returned"] = raises(lambda: DirtyNotRet.apply(a, b))
    out["b_after"] = (b, b._version)

    class DirtyView(F):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            x.mul_(2)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    base = T.ones(4, requires_grad=True) * 1
    v = base[:2]
    r = raises(lambda: DirtyView.apply(v))
    out["dirty_view"] = (
        r is v if not hasattr(r, "type") else r,
        _name(v.grad_fn),
        _name(base.grad_fn),
    )
    if not hasattr(r, "type"):
        base.sum().backward()

    class DirtyLeafNoGrad(F):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            x.mul_(2)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    leaf = T.ones(2)
    w = T.ones(2, requires_grad=True)
    res = DirtyLeafNoGrad.apply(leaf)
    out["dirty_plain_leaf"] = (res is leaf, res.requires_grad, res.grad_fn, leaf)

    class NeedsGrad(F):
        @staticmethod
        def forward(ctx, x, k, y, z):
            ctx.ng = ctx.needs_input_grad
            return x * k + y + z

        @staticmethod
        def backward(ctx, g):
            return g, None, g, None

    y = NeedsGrad.apply(w, 2.0, T.ones(2), T.ones(2, requires_grad=True).detach())
    out["needs"] = (y.grad_fn.ng, y.grad_fn.needs_input_grad)
    with T.no_grad():
        y2 = NeedsGrad.apply(w, 2.0, T.ones(2), T.ones(2))
    out["needs_nograd"] = y2.requires_grad

    class MatFalse(F):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            ctx.seen = (g1 is None, g2 is None)
            if g1 is None:
                return g2 * 3
            return g1 * 2

    p, q = MatFalse.apply(w)
    q.sum().backward()
    out["mat_false"] = (p.grad_fn.seen, w.grad.clone())

    class MatTrue(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            ctx.seen = (g1.tolist(), g2.tolist())
            return g1 * 2 + g2 * 3

    p2, q2 = MatTrue.apply(w)
    q2.sum().backward()
    out["mat_true"] = (p2.grad_fn.seen, w.grad.clone())
    return out


@program()
def prog_ag3_fn_reentrant_nested_child_error_and_deep_graphs(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Reent(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            with T.enable_grad():
                xx = x.detach().requires_grad_()
                (xx**3).sum().backward()
            return g * xx.grad

    z = T.tensor([1.0, 2.0], requires_grad=True)
    Reent.apply(Reent.apply(z)).sum().backward()
    out["reentrant_nested"] = z.grad

    class ReentErr(F):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            with T.enable_grad():
                t = T.ones(1, requires_grad=True)
                (t * 2).sum().backward()
                (t * 2).backward()
            return g

    z2 = T.tensor([1.0, 2.0], requires_grad=True)
    out["reentrant_child_error"] = raises(lambda: ReentErr.apply(z2).sum().backward())
    out["after_error_grad_mode"] = T.is_grad_enabled()
    # deep graphs
    d = T.tensor([1.0], requires_grad=True)
    h = d
    for _ in range(3000):
        h = h * 1.0001
    h.backward()
    out["deep"] = d.grad

    class Id(F):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * 1.0001

    e = T.tensor([1.0], requires_grad=True)
    h = e
    for _ in range(1000):
        h = Id.apply(h)
    h.backward()
    out["deep_fn"] = e.grad
    return out


@program()
def prog_ag3_fn_mark_dirty_bumps_per_argument_and_checks(T: Any) -> Any:
    """torch bumps the version of each tensor given to mark_dirty, returned or not (once per
    argument), checks mark_non_differentiable's arguments first, and refuses dirty tensors not
    returned whether a node is recorded or not."""
    out = {}
    F = T.autograd.Function

    def mk(dirty_fn, ret_fn):
        class D(F):
            @staticmethod
            def forward(ctx, x, y):
                dirty_fn(ctx, x, y)
                return ret_fn(x, y)

            @staticmethod
            def backward(ctx, *g):
                return g[0], None

        return D

    def run(D, rg, nograd=False):
        a = T.ones(2, requires_grad=rg) * 1 if rg else T.ones(2)
        b = T.ones(2) * 1
        va, vb = a._version, b._version
        if nograd:
            with T.no_grad():
                r = raises(lambda: D.apply(a, b))
        else:
            r = raises(lambda: D.apply(a, b))
        return (r if hasattr(r, "type") else "ok"), a._version - va, b._version - vb

    cases = {
        "dirty_b_not_returned": mk(lambda c, x, y: c.mark_dirty(y), lambda x, y: x * 2),
        "dirty_twice": mk(lambda c, x, y: c.mark_dirty(x, x), lambda x, y: x),
        "dirty_twice_calls": mk(lambda c, x, y: (c.mark_dirty(x), c.mark_dirty(x)), lambda x, y: x),
        "dirty_returned_twice": mk(lambda c, x, y: c.mark_dirty(x), lambda x, y: (x, x)),
        "dirty_both": mk(lambda c, x, y: c.mark_dirty(x, y), lambda x, y: (x, y)),
        "dirty_int": mk(lambda c, x, y: c.mark_dirty(x, 3), lambda x, y: x),
        "nondiff_int_dirty_int": mk(
            lambda c, x, y: (c.mark_dirty(3), c.mark_non_differentiable(4)), lambda x, y: x
        ),
        "dirty_nonreturned_and_nondiff_int": mk(
            lambda c, x, y: (c.mark_dirty(y), c.mark_non_differentiable(4)), lambda x, y: x * 1
        ),
        "dirty_not_input": mk(lambda c, x, y: c.mark_dirty(T.ones(2)), lambda x, y: x * 1),
    }
    for k, D in cases.items():
        out[k] = (run(D, True), run(D, False), run(D, True, nograd=True))
    return out


# --- GradientEdge outputs and inputs ----------------------------------------------------------


@program()
def prog_ag3_gradient_edges_as_inputs_and_outputs(T: Any) -> Any:
    out = {}
    G = T.autograd.graph
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = y.exp()
    ey = G.get_gradient_edge(y)
    ex = G.get_gradient_edge(x)
    out["edges"] = (_name(ey.node), ey.output_nr, _name(ex.node), ex.output_nr, type(ey).__name__)
    out["grad_wrt_edge"] = T.autograd.grad(z.sum(), ey, retain_graph=True)
    out["grad_wrt_edge_leaf"] = T.autograd.grad(z.sum(), ex, retain_graph=True)
    ez = G.get_gradient_edge(z)
    out["edge_output"] = raises(lambda: T.autograd.grad(ez, x, T.ones(2), retain_graph=True))
    out["edge_output_no_go"] = raises(lambda: T.autograd.grad(ez, x, retain_graph=True))
    out["edge_output_bad_shape"] = raises(
        lambda: T.autograd.grad(ez, x, T.ones(3), retain_graph=True)
    )
    out["edge_output_dtype"] = raises(
        lambda: T.autograd.grad(ez, x, T.ones(2, dtype=T.float64), retain_graph=True)
    )
    out["edge_materialize"] = raises(
        lambda: T.autograd.grad(
            z.sum(),
            [ex, G.get_gradient_edge(T.ones(1, requires_grad=True))],
            retain_graph=True,
            materialize_grads=True,
        )
    )
    out["edge_unused"] = raises(
        lambda: T.autograd.grad(
            z.sum(),
            [ex, G.get_gradient_edge(T.ones(1, requires_grad=True))],
            retain_graph=True,
            allow_unused=True,
        )
    )
    out["edge_no_grad_tensor"] = raises(lambda: G.get_gradient_edge(T.ones(2)))
    out["edge_backward_inputs"] = raises(
        lambda: (z.sum().backward(inputs=[ey], retain_graph=True), x.grad)
    )
    out["edge_tuple"] = raises(
        lambda: T.autograd.grad(z.sum(), (ey.node, ey.output_nr), retain_graph=True)
    )
    out["edge_eq"] = (G.get_gradient_edge(y) == ey, hash(G.get_gradient_edge(y)) == hash(ey))
    w = x.unbind(0)
    out["edge_multi"] = (G.get_gradient_edge(w[1]).output_nr, _name(G.get_gradient_edge(w[1]).node))
    out["grad_multi_edge"] = T.autograd.grad((w[0] * 2 + w[1] * 3), G.get_gradient_edge(w[1]))
    v = x.view(2)
    out["view_edge"] = _name(G.get_gradient_edge(v).node)
    return out


@program()
def prog_ag3_gradient_edge_outputs_hooks_and_backward_inputs(T: Any) -> Any:
    out = {}
    G = T.autograd.graph
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    z = y.exp()
    z.sum().backward(inputs=[G.get_gradient_edge(x)], retain_graph=True)
    out["leaf_edge_input"] = (x.grad.clone(), y.grad.clone())
    z.sum().backward(inputs=[G.get_gradient_edge(y)], retain_graph=True)
    out["nonleaf_edge_input"] = (x.grad.clone(), y.grad.clone())
    log = []
    y.register_hook(lambda g: log.append("yhook"))
    z.grad_fn.register_hook(lambda gi, go: log.append("zpost"))
    y.grad_fn.register_prehook(lambda go: log.append("ypre"))
    y.grad_fn.register_hook(lambda gi, go: log.append("ypost"))
    z.sum().backward(inputs=[G.get_gradient_edge(y)], retain_graph=True)
    out["hooks_edge_input"] = (list(log), y.grad.clone(), x.grad.clone())
    log.clear()
    z.sum().backward(inputs=[y], retain_graph=True)
    out["hooks_tensor_input"] = (list(log), y.grad.clone(), x.grad.clone())
    log.clear()
    T.autograd.grad(z.sum(), y, retain_graph=True)
    out["hooks_grad_input"] = list(log)
    e = G.get_gradient_edge(z)
    out["edge_out_cast"] = T.autograd.grad(e, x, T.ones(2, dtype=T.float64), retain_graph=True)
    out["edge_out_create"] = T.autograd.grad(
        [e], [x], [T.ones(2)], retain_graph=True, create_graph=True
    )
    T.autograd.backward(e, T.ones(2), inputs=[x], retain_graph=True)
    out["backward_edge_out"] = x.grad.clone()
    out["backward_edge_no_grad"] = raises(lambda: T.autograd.backward(e, inputs=[x]))
    out["edge_out_complex_go"] = raises(
        lambda: T.autograd.grad(e, x, T.ones(2, dtype=T.complex64), retain_graph=True)
    )
    w = (x * 2).sum()
    out["scalar_edge_implicit"] = raises(
        lambda: T.autograd.grad(G.get_gradient_edge(w), x, retain_graph=True)
    )
    out["scalar_edge_batched"] = raises(
        lambda: T.autograd.grad(G.get_gradient_edge(w), x, is_grads_batched=True)
    )
    out["edge_batched"] = raises(
        lambda: T.autograd.grad(G.get_gradient_edge(x * 2), x, T.eye(2), is_grads_batched=True)
    )
    out["leaf_edge_as_output"] = raises(
        lambda: T.autograd.grad(G.get_gradient_edge(x), x, T.ones(2))
    )
    m = T.tensor([1.0, 2.0], requires_grad=True)
    out["mixed_outputs"] = raises(
        lambda: T.autograd.grad([(m * 2).sum(), G.get_gradient_edge(m * 3)], m, [None, T.ones(2)])
    )
    ints = (m * 2).long()
    out["edge_of_int"] = raises(lambda: G.get_gradient_edge(ints))

    class Fn(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2, a * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 3

    _, q = Fn.apply(m)
    out["fn_edge"] = T.autograd.grad(G.get_gradient_edge(q), m, T.ones(2))
    return out


# --- more custom Function corners and views ----------------------------------------------


@program()
def prog_ag3_fn_once_differentiable_saved_intermediates_and_extra_grads(T: Any) -> Any:
    out = {}
    F = T.autograd.Function
    od = T.autograd.function.once_differentiable

    class OD(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        @od
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            ctx.gmode = T.is_grad_enabled()
            return 2 * x * g

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = OD.apply(x).sum()
    (gx,) = T.autograd.grad(y, x, create_graph=True)
    out["od_create"] = (
        gx,
        gx.requires_grad,
        _name(gx.grad_fn),
        y.grad_fn.next_functions[0][0].gmode,
    )
    out["od_second"] = raises(lambda: gx.sum().backward())
    out["od_names"] = raises(lambda: [_name(n) for n, _ in gx.grad_fn.next_functions])

    # once_differentiable returning a non-tuple / None
    class OD2(F):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        @od
        def backward(ctx, g):
            return g, None

    a = T.tensor([1.0, 2.0], requires_grad=True)
    (ga,) = T.autograd.grad(OD2.apply(a, T.ones(2)).sum(), a, create_graph=True)
    out["od2"] = (ga, ga.requires_grad, _name(ga.grad_fn))

    # save an intermediate, then modify it
    class SaveInter(F):
        @staticmethod
        def forward(ctx, x):
            t = x * 3
            ctx.save_for_backward(t)
            ctx.t = t
            return x * 2

        @staticmethod
        def backward(ctx, g):
            (t,) = ctx.saved_tensors
            return g * t

    b = T.tensor([1.0, 2.0], requires_grad=True)
    r = SaveInter.apply(b)
    r.sum().backward(retain_graph=True)
    out["inter"] = b.grad.clone()
    r.grad_fn.t.add_(1)
    out["inter_mod"] = raises(lambda: r.sum().backward())

    # saved output modified in place afterwards
    class SaveOut(F):
        @staticmethod
        def forward(ctx, x):
            o = x.exp()
            ctx.save_for_backward(o)
            return o

        @staticmethod
        def backward(ctx, g):
            (o,) = ctx.saved_tensors
            return g * o

    c = T.tensor([1.0, 2.0], requires_grad=True)
    o = SaveOut.apply(c)
    o.mul_(2)
    out["out_mod"] = raises(lambda: o.sum().backward())
    out["out_mod_names"] = (_name(o.grad_fn), [_name(n) for n, _ in o.grad_fn.next_functions])

    # saved input that is marked dirty and returned
    class DirtySave(F):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            (s,) = ctx.saved_tensors
            return g * 2 + s * 0

    d = T.tensor([1.0, 2.0], requires_grad=True)
    dd = d * 1
    ro = DirtySave.apply(dd)
    ro.sum().backward()
    out["dirty_save"] = (d.grad, ro is dd, _name(ro.grad_fn), ro._version)

    # mark_non_differentiable on an input returned as-is
    class NdRet(F):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x, x * 2

        @staticmethod
        def backward(ctx, g1, g2):
            return g2 * 2

    e = T.tensor([1.0, 2.0], requires_grad=True)
    p, q = NdRet.apply(e)
    out["nd_ret"] = (
        p.requires_grad,
        p.grad_fn,
        p is e,
        p._is_view(),
        q.requires_grad,
        _name(q.grad_fn),
    )

    # forward returning a tuple with None in it
    class RetNone(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2, None

        @staticmethod
        def backward(ctx, g, gn):
            ctx.gn = gn
            return g

    f = T.tensor([1.0, 2.0], requires_grad=True)
    u, n = RetNone.apply(f)
    u.sum().backward()
    out["ret_none"] = (n, u.grad_fn.gn, f.grad)

    # backward returning more than needed when trailing non-tensors
    class Extra(F):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    h = T.tensor([1.0, 2.0], requires_grad=True)
    out["extra_none"] = raises(lambda: (Extra.apply(h, 2.0).sum().backward(), h.grad)[1])

    class Extra2(F):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, g

    h2 = T.tensor([1.0, 2.0], requires_grad=True)
    out["extra_tensor"] = raises(lambda: Extra2.apply(h2, 2.0).sum().backward())

    class GradForNonTensor(F):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, g

    h3 = T.tensor([1.0, 2.0], requires_grad=True)
    out["grad_for_nontensor"] = raises(lambda: GradForNonTensor.apply(h3, 2.0).sum().backward())

    class GradForNonRg(F):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3

    h4 = T.tensor([1.0, 2.0], requires_grad=True)
    out["grad_for_nonrg"] = raises(
        lambda: (GradForNonRg.apply(h4, T.ones(2)).sum().backward(), h4.grad)[1]
    )
    return out


@program()
def prog_ag3_inplace_through_every_view_op_grad_fns(T: Any) -> Any:
    out = {}
    views = {
        "t": lambda b: b.t(),
        "T": lambda b: b.T,
        "mT": lambda b: b.mT,
        "diag": lambda b: b.diagonal(),
        "diag_off": lambda b: b.diagonal(1),
        "narrow": lambda b: b.narrow(1, 1, 2),
        "select_neg": lambda b: b[-1],
        "step": lambda b: b.view(-1)[::2],
        "unsq": lambda b: b.unsqueeze(0),
        "sq": lambda b: b.unsqueeze(0).squeeze(0),
        "movedim": lambda b: b.movedim(0, 1),
        "swapaxes": lambda b: b.swapaxes(0, 1),
        "unfold": lambda b: b.view(-1).unfold(0, 2, 2),
        "unfold_overlap": lambda b: b.view(-1).unfold(0, 3, 1),
        "expand": lambda b: b[:1].expand(3, 3),
        "as_strided": lambda b: b.as_strided((2, 2), (1, 3)),
        "chunk1": lambda b: b.chunk(1)[0],
        "split_one": lambda b: b.split(3)[0],
        "split_two": lambda b: b.split(2)[0],
        "unbind": lambda b: b.unbind(0)[1],
        "view_as": lambda b: b.view_as(b),
        "flatten": lambda b: b.flatten(),
        "reshape": lambda b: b.reshape(9),
        "reshape_t": lambda b: b.t().reshape(9),
        "alias": lambda b: b.view(3, 3)[...],
        "none_idx": lambda b: b[None],
        "detach": lambda b: b.detach(),
        "real": lambda b: b.real,
        "mH": lambda b: b.mH,
        "adjoint": lambda b: b.adjoint(),
        "indices": lambda b: b.view(3, 3)[:, 1],
        "ellipsis": lambda b: b[..., 0],
    }
    for name, vf in views.items():
        x = T.arange(9.0).view(3, 3).requires_grad_()
        b = x * 1

        def go(x=x, b=b, vf=vf):
            v = vf(b)
            v.mul_(2)
            res = (_name(v.grad_fn), _name(b.grad_fn), v._is_view(), v._base is b)
            (b * T.arange(9.0).view(3, 3)).sum().backward()
            return res, x.grad

        out[name] = raises(go)
    return out


@program(
    xfail="view replay (_force_original_view_tracking(True)) is a flag only in shadowgrad: a "
    "view modified in place (or whose base was) gets AsStridedBackward0 where torch replays "
    "the view ops (SliceBackward0, TransposeBackward0, PermuteBackward0, ...)"
)
def prog_ag3_view_replay_regenerates_view_ops(T: Any) -> Any:
    out = {}
    with T.autograd.grad_mode._force_original_view_tracking(True):
        for name, vf in (
            ("t", lambda b: b.t()),
            ("T", lambda b: b.T),
            ("slice", lambda b: b[1:]),
            ("step", lambda b: b.view(-1)[::2]),
            ("select", lambda b: b[0]),
            ("diagonal", lambda b: b.diagonal()),
        ):
            x = T.arange(9.0).view(3, 3).requires_grad_()
            b = x * 1
            v = vf(b)
            v.mul_(2)
            w = vf(b)
            b.add_(1)
            (b * T.arange(9.0).view(3, 3)).sum().backward()
            out[name] = (_name(v.grad_fn), _name(w.grad_fn), _name(b.grad_fn), x.grad)
    return out


# --- anomaly mode ----------------------------------------------------------------------------


@program()
def prog_ag3_anomaly_nan_messages_by_node_and_source(T: Any) -> Any:
    out = {}

    def an(f, *shape, val=0.0, check_nan=True):
        x = T.full(shape, val, requires_grad=True)

        def go():
            with T.autograd.detect_anomaly(check_nan=check_nan):
                f(x).sum().backward()
            return x.grad

        return raises(go)

    out["sqrt"] = an(lambda x: x.sqrt() * 0, 2)
    out["div"] = an(lambda x: x / x, 2)
    out["log"] = an(lambda x: x.log() * 0, 2)
    out["pow"] = an(lambda x: x**0.5 * 0, 2)
    out["mul_inf"] = an(lambda x: (x * float("inf")) * 0, 2)
    out["multi_out_1th"] = an(lambda x: T.atan2(T.ones(2), x * 0) * 0, 2)
    out["max_nan"] = an(lambda x: (x * float("nan")).max(), 2, val=1.0)
    out["no_check"] = an(lambda x: x.sqrt() * 0, 2, check_nan=False)
    out["norm"] = an(lambda x: x.norm() * 0 + x.norm(), 2)
    out["cat_slice"] = an(lambda x: T.cat([x, x]).sqrt()[:2], 2)

    def inplace(x):
        y = x * 1
        y[0:1].sqrt_()
        return y * 0

    out["copyslices"] = an(inplace, 2)

    class Nan(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    out["custom"] = an(lambda x: Nan.apply(x), 2)

    def hook_nan(x):
        y = x * 2
        y.register_hook(lambda g: g * float("nan"))
        return y

    out["hook"] = an(hook_nan, 2)

    # nan in grad passed as gradient argument
    def go():
        x = T.ones(2, requires_grad=True)
        with T.autograd.detect_anomaly():
            (x * 2).backward(T.tensor([float("nan"), 1.0]))
        return x.grad

    out["nan_grad_arg"] = raises(go)
    # set_detect_anomaly function form
    prev = T.is_anomaly_enabled()
    T.autograd.set_detect_anomaly(True)
    out["flags"] = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())
    T.autograd.set_detect_anomaly(False)
    out["flags_off"] = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled(), prev)
    return out


@program()
def prog_ag3_anomaly_copyslices_and_nodes_made_outside_the_mode(T: Any) -> Any:
    """CopySlices records the forward stack like every node made in anomaly mode; a node made
    outside it warns "No forward pass information available"."""
    out = {}

    class DirtyNan(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    def go_fn():
        x = T.ones(4, requires_grad=True)
        with T.autograd.detect_anomaly():
            b = x * 1
            DirtyNan.apply(b[:2])
            b.sum().backward()
        return x.grad

    out["fn_view_dirty"] = raises(go_fn)

    class Boom(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom in backward")

    def go_err():
        x = T.ones(2, requires_grad=True)
        with T.autograd.detect_anomaly():
            b = x * 1
            b[:1].mul_(Boom.apply(x[:1]))
            b.sum().backward()

    out["err_through_copyslices"] = raises(go_err)

    def go_asstrided():
        x = T.ones(4, requires_grad=True)
        with T.autograd.detect_anomaly():
            b = x * 1
            v = b[:2]
            b.mul_(2)
            (v.sqrt() * 0 + v.log() * 0).sum().backward()
        return x.grad

    out["regenerated_view"] = raises(go_asstrided)

    def go_no_anomaly_then():
        x = T.zeros(2, requires_grad=True)
        b = x * 1
        b[:1].sqrt_()
        with T.autograd.detect_anomaly():
            (b * 0).sum().backward()  # nodes made outside anomaly mode have no trace
        return x.grad

    out["made_outside"] = raises(go_no_anomaly_then)
    return out


# --- hooks: results checked, grad mode inside, reentrant work, execution order ------------


@program()
def prog_ag3_hook_results_checked_on_leaf_nonleaf_and_nodes(T: Any) -> Any:
    out = {}

    def h_shape(g):
        return g[:1]

    def h_dtype(g):
        return g.double()

    def h_int(g):
        return 3

    def h_list(g):
        return [g]

    def h_rg(g):
        return g.detach().requires_grad_()

    def h_complex(g):
        return g.to(T.complex64)

    def h_expand(g):
        return g.sum().expand(2)

    def h_noncontig(g):
        return T.stack([g, g], 1)[:, 0]

    for name, h in (
        ("shape", h_shape),
        ("dtype", h_dtype),
        ("int", h_int),
        ("list", h_list),
        ("rg", h_rg),
        ("complex", h_complex),
        ("expand", h_expand),
        ("noncontig", h_noncontig),
    ):
        for where in ("leaf", "nonleaf"):
            x = T.tensor([1.0, 2.0], requires_grad=True)

            def go(x=x, h=h, where=where):
                if where == "leaf":
                    x.register_hook(h)
                    (x * 3).sum().backward()
                    return x.grad, x.grad.is_contiguous(), x.grad.requires_grad
                y = x * 2
                y.register_hook(h)
                (y * 3).sum().backward()
                return x.grad

            out[f"{name}_{where}"] = raises(go)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    out["post_acc_nonleaf"] = raises(lambda: y.register_post_accumulate_grad_hook(lambda t: None))
    out["post_acc_norg"] = raises(
        lambda: T.ones(2).register_post_accumulate_grad_hook(lambda t: None)
    )
    out["hook_norg"] = raises(lambda: T.ones(2).register_hook(lambda g: None))
    out["retain_norg"] = raises(lambda: T.ones(2).retain_grad())
    out["post_acc_ret"] = raises(
        lambda: (
            x.register_post_accumulate_grad_hook(lambda t: t * 2),
            (x * 1).sum().backward(),
            x.grad,
        )[2]
    )
    # node hook returning wrong things
    z = T.tensor([1.0, 2.0], requires_grad=True)
    w = z.exp()
    w.grad_fn.register_prehook(lambda go: (go[0][:1],))
    out["pre_shape"] = raises(lambda: w.sum().backward(retain_graph=True))
    w2 = z.exp()
    w2.grad_fn.register_prehook(lambda go: go[0])
    out["pre_not_tuple"] = raises(lambda: w2.sum().backward())
    w3 = z.exp()
    w3.grad_fn.register_hook(lambda gi, go: (gi[0].double(),))
    out["post_dtype"] = raises(lambda: (w3.sum().backward(), z.grad)[1])
    w4 = z.exp()
    w4.grad_fn.register_hook(lambda gi, go: (gi[0][:1],))
    out["post_shape"] = raises(lambda: w4.sum().backward())
    w5 = z * T.ones(2, requires_grad=True)
    w5.grad_fn.register_hook(lambda gi, go: (gi[0],))
    out["post_count"] = raises(lambda: w5.sum().backward())
    return out


@program()
def prog_ag3_grad_mode_seen_by_function_and_hooks_in_backward(T: Any) -> Any:
    out = {}
    seen = []

    class Spy(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(("fwd", T.is_grad_enabled(), T.is_inference_mode_enabled()))
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(
                ("bwd", T.is_grad_enabled(), T.is_inference_mode_enabled(), g.requires_grad)
            )
            return g * 2

    x = T.tensor([1.0, 2.0], requires_grad=True)
    Spy.apply(x).sum().backward()
    T.autograd.grad(Spy.apply(x).sum(), x, create_graph=True)
    with T.no_grad():
        Spy.apply(x)
    with T.inference_mode():
        Spy.apply(x)
    s = Spy.apply(x).sum()
    with T.no_grad():
        s.backward()
    with T.inference_mode():
        r = raises(lambda: Spy.apply(x).sum().backward())
    out["inf_backward"] = r
    s2 = Spy.apply(x).sum()
    with T.inference_mode():
        r2 = raises(lambda: s2.backward())
    out["inf_backward_of_normal_graph"] = r2
    out["x_grad"] = x.grad
    out["seen"] = seen
    # hooks see grad mode
    modes = []
    z = T.tensor([1.0, 2.0], requires_grad=True)
    w = z * 2
    w.register_hook(lambda g: modes.append(("tensor", T.is_grad_enabled(), g.requires_grad)))
    w.grad_fn.register_prehook(lambda go: modes.append(("pre", T.is_grad_enabled())))
    w.grad_fn.register_hook(lambda gi, go: modes.append(("post", T.is_grad_enabled())))
    z.register_post_accumulate_grad_hook(
        lambda t: modes.append(("postacc", T.is_grad_enabled(), t.grad.requires_grad))
    )
    (w * w).sum().backward(retain_graph=True)
    (w * w).sum().backward(create_graph=True)
    out["modes"] = modes
    out["z_grad"] = (z.grad, _name(z.grad.grad_fn))
    return out


@program()
def prog_ag3_execution_order_and_reentrant_work_in_hooks(T: Any) -> Any:
    """Nodes run in reverse creation order (torch's sequence numbers); hooks and forwards
    may run their own backward or autograd.grad."""
    out = {}
    log = []

    def tag(t, name):
        t.grad_fn.register_prehook(lambda go: log.append(name))
        return t

    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = tag(x * 2, "a")
    b = tag(x * 3, "b")
    c = tag(a.exp(), "c")
    d = tag(b.sin(), "d")
    e = tag(a * b, "e")
    f = tag(c + d + e, "f")
    f.sum().backward()
    out["diamond"] = list(log)
    log.clear()
    # two roots created in different order
    p = tag(x * 5, "p")
    q = tag(x * 7, "q")
    T.autograd.backward([p.sum(), q.sum()], retain_graph=True)
    out["two_roots"] = list(log)
    log.clear()
    T.autograd.backward([q.sum() * 1, p.sum() * 1], inputs=[x])
    out["two_roots_rev"] = list(log)
    log.clear()
    # reentrant grad inside a tensor hook
    inner = []
    y = T.tensor([1.0, 2.0], requires_grad=True)
    z = y * y

    def hook(g):
        w = T.tensor([3.0], requires_grad=True)
        with T.enable_grad():
            (gw,) = T.autograd.grad((w**2).sum(), w)
        inner.append(gw)
        return g * 2

    z.register_hook(hook)
    z.sum().backward()
    out["grad_in_hook"] = (inner, y.grad)
    # backward inside a node post hook on another graph
    other = T.tensor([1.0], requires_grad=True)
    z2 = y * 3

    def post(gi, go):
        with T.enable_grad():
            (other * 4).sum().backward()

    z2.grad_fn.register_hook(post)
    z2.sum().backward()
    out["backward_in_post_hook"] = (other.grad, y.grad)

    # backward inside a custom Function's forward
    class FwdBack(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            with T.enable_grad():
                t = T.tensor([2.0], requires_grad=True)
                (t**3).sum().backward()
            ctx.tg = t.grad
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * ctx.tg

    v = T.tensor([1.0, 2.0], requires_grad=True)
    FwdBack.apply(v).sum().backward()
    out["backward_in_forward"] = v.grad
    # autograd.grad of a hook-modified intermediate inside create_graph
    s = T.tensor([1.0, 2.0], requires_grad=True)
    t = s**2
    t.register_hook(lambda g: g * s)
    (gs,) = T.autograd.grad(t.sum(), s, create_graph=True)
    out["hook_create_graph"] = (gs, _name(gs.grad_fn))
    gs.sum().backward()
    out["hook_create_graph_2nd"] = s.grad
    return out


# --- requires_grad through non-differentiable ops, tensor subclasses ------------------------


@program()
def prog_ag3_non_differentiable_outputs_dtype_requires_grad_grad_fn(T: Any) -> Any:
    out = {}
    x = T.tensor([[1.5, -2.0, 3.0], [0.5, 2.0, -1.0]], requires_grad=True)
    ops = {
        "argmax": lambda: x.argmax(),
        "argsort": lambda: x.argsort(),
        "eq": lambda: x.eq(1.5),
        "gt": lambda: x > 0,
        "isnan": lambda: x.isnan(),
        "sign": lambda: x.sign(),
        "sgn": lambda: x.sgn(),
        "floor": lambda: x.floor(),
        "ceil": lambda: x.ceil(),
        "trunc": lambda: x.trunc(),
        "round": lambda: x.round(),
        "round_dec": lambda: x.round(decimals=1),
        "long": lambda: x.long(),
        "bool": lambda: x.bool(),
        "half": lambda: x.half(),
        "nonzero": lambda: x.nonzero(),
        "unique": lambda: T.unique(x),
        "unique_inv": lambda: T.unique(x, return_inverse=True)[0],
        "sort_vals": lambda: x.sort()[0],
        "sort_idx": lambda: x.sort()[1],
        "topk_vals": lambda: x.topk(2)[0],
        "max_dim_idx": lambda: x.max(1)[1],
        "bucketize": lambda: T.bucketize(x, T.tensor([0.0, 1.0])),
        "searchsorted": lambda: T.searchsorted(T.tensor([0.0, 1.0]), x.detach().contiguous()),
        "histc": lambda: T.histc(x, 3),
        "count_nonzero": lambda: T.count_nonzero(x),
        "isclose": lambda: T.isclose(x, x),
        "allclose": lambda: T.allclose(x, x),
        "equal": lambda: T.equal(x, x),
        "signbit": lambda: x.signbit(),
        "frac": lambda: x.frac(),
        "fmod": lambda: x.fmod(2),
        "remainder": lambda: x.remainder(2),
        "floor_divide": lambda: x.floor_divide(2),
        "div_floor": lambda: x.div(2, rounding_mode="floor"),
        "div_trunc": lambda: x.div(2, rounding_mode="trunc"),
        "clamp_int": lambda: x.long().clamp(0, 1),
        "randlike": lambda: T.rand_like(x),
        "zeros_like": lambda: T.zeros_like(x),
        "full_like": lambda: T.full_like(x, 2.0),
        "empty_like_rg": lambda: T.empty_like(x, requires_grad=True).shape,
        "new_ones": lambda: x.new_ones(2),
        "new_tensor": lambda: x.new_tensor([1.0]),
        "clone": lambda: x.clone(),
        "detach_clone": lambda: x.detach().clone(),
        "heaviside": lambda: T.heaviside(x, T.tensor(0.5)),
        "logical_not": lambda: x.logical_not(),
        "bitwise_not": lambda: x.long().bitwise_not(),
        "nan_to_num": lambda: x.nan_to_num(),
        "diff": lambda: x.diff(),
        "cummax_idx": lambda: x.cummax(1)[1],
        "mode_vals": lambda: x.mode(1)[0],
        "kthvalue": lambda: x.kthvalue(2, 1)[0],
        "aminmax": lambda: T.aminmax(x).min,
    }
    for k, f in ops.items():
        r = raises(f)
        if hasattr(r, "requires_grad"):
            r = (r.dtype, r.requires_grad, _name(r.grad_fn), r.is_leaf)
        out[k] = r
    return out


@program()
def prog_ag3_tensor_subclass_and_parameter_through_autograd(T: Any) -> Any:
    out = {}

    class MyT(T.Tensor):
        pass

    x = T.tensor([1.0, 2.0]).as_subclass(MyT).requires_grad_()
    y = x * 2
    out["types"] = (type(x).__name__, type(y).__name__, _name(y.grad_fn), x.is_leaf)
    y.sum().backward()
    out["grad"] = (type(x.grad).__name__, x.grad)
    (gx,) = T.autograd.grad((x**2).sum(), x)
    out["autograd_grad"] = (type(gx).__name__, gx)

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.t = type(a).__name__
            return a * 3

        @staticmethod
        def backward(ctx, g):
            ctx.gt = type(g).__name__
            return g * 3

    z = F.apply(x)
    z.sum().backward()
    out["fn"] = (type(z).__name__, z.grad_fn.t, z.grad_fn.gt, type(x.grad).__name__, x.grad)
    p = T.nn.Parameter(T.tensor([1.0, 2.0]))
    q = p * 2
    out["param"] = (
        type(p).__name__,
        type(q).__name__,
        type(p.detach()).__name__,
        type(p.data).__name__,
        type(p.clone()).__name__,
    )
    q.sum().backward()
    out["param_grad"] = (type(p.grad).__name__, p.grad)
    hooked = []
    x.register_hook(lambda g: hooked.append(type(g).__name__))
    (x * 1).sum().backward()
    out["hook_type"] = hooked
    out["detach"] = (type(x.detach()).__name__, type(x.data).__name__, x.detach().requires_grad)
    v = x.view(2)
    out["view"] = (type(v).__name__, _name(v.grad_fn), v._base is x)
    return out


# --- multi-grad hooks ------------------------------------------------------------------------


@program()
def prog_ag3_multi_grad_hook_timing_counts_and_leaf_capture(T: Any) -> Any:
    """mode "all" runs fn inside the hook that completes the count of the tensors' nodes the
    backward executes (torch's _will_engine_execute_node, which refuses a captured leaf in
    autograd.grad)."""
    out = {}
    G = T.autograd.graph
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    c = T.ones(2)
    log = []
    out["norg"] = raises(lambda: G.register_multi_grad_hook((a, c), lambda gs: None))
    out["empty"] = raises(lambda: G.register_multi_grad_hook((), lambda gs: None))
    out["bad_mode"] = raises(
        lambda: G.register_multi_grad_hook((a, b), lambda gs: None, mode="some")
    )
    h = G.register_multi_grad_hook(
        (a, b), lambda gs: log.append(("all", [None if g is None else g.tolist() for g in gs]))
    )
    (a * b).sum().backward()
    (a * 2).sum().backward()
    out["all_log"] = list(log)
    out["handle"] = (type(h).__name__, raises(lambda: h.remove()))
    (a * b).sum().backward()
    out["after_remove"] = list(log)
    log.clear()
    h2 = G.register_multi_grad_hook((a, b), lambda g: log.append(("any", g.tolist())), mode="any")
    (a * b).sum().backward()
    (b * 3).sum().backward()
    out["any_log"] = list(log)
    h2.remove()
    log.clear()
    # return value of the hook is ignored / must be None?
    h3 = G.register_multi_grad_hook((a, b), lambda gs: (gs[0] * 0, gs[1] * 0))
    out["ret"] = raises(lambda: ((a * b).sum().backward(), a.grad.clone())[1])
    h3.remove()
    # non-leaf tensors, partial graph with inputs=
    x = a * 1
    y = b * 1
    h4 = G.register_multi_grad_hook(
        (x, y), lambda gs: log.append(("nl", [None if g is None else g.tolist() for g in gs]))
    )
    (x * 2).sum().backward(retain_graph=True, inputs=[a])
    (x * y).sum().backward()
    out["nonleaf_log"] = list(log)
    h4.remove()
    log.clear()
    # same tensor twice
    h5 = G.register_multi_grad_hook(
        (a, a), lambda gs: log.append(("twice", len(gs), [g is None for g in gs]))
    )
    (a * 3).sum().backward()
    out["twice"] = list(log)
    h5.remove()
    log.clear()
    # autograd.grad triggers too
    h6 = G.register_multi_grad_hook(
        (a, b), lambda gs: log.append(("grad", [g is None for g in gs]))
    )
    out["via_grad_leaf"] = raises(lambda: T.autograd.grad((a * b).sum(), [a]))
    out["via_grad_leaf_log"] = list(log)
    h6.remove()
    log.clear()
    # autograd.grad w.r.t. non-leaves works; fn runs as soon as the last reached grad is in
    m = a * 1
    n = b * 1
    k = m * n
    h7 = G.register_multi_grad_hook((m, n), lambda gs: log.append(("mh", [g is None for g in gs])))
    k.grad_fn.register_prehook(lambda go: log.append("k_pre"))
    m.grad_fn.register_prehook(lambda go: log.append("m_pre"))
    n.grad_fn.register_prehook(lambda go: log.append("n_pre"))
    T.autograd.backward(k.sum(), retain_graph=True)
    T.autograd.grad(k.sum(), [m, n], retain_graph=True)
    T.autograd.grad((m * 2).sum(), [m], retain_graph=True)
    T.autograd.grad((m * 2).sum(), [a], retain_graph=True)
    out["timing"] = list(log)
    h7.remove()
    log.clear()
    # a tensor in the graph whose hook never fires: fn is not called
    u = a * 1
    v = b * 1
    w = u + v.detach()
    h8 = G.register_multi_grad_hook((u, v), lambda gs: log.append("never?"))
    (w.sum() + (v * 0).sum()).backward()
    out["unreached_in_graph"] = list(log)
    h8.remove()
    return out


# --- .grad setter, first accumulation, retains_grad ---------------------------------------


@program()
def prog_ag3_grad_setter_layouts(T: Any) -> Any:
    out = {}
    x = T.ones(2, 3, requires_grad=True)
    g = T.arange(6.0).view(3, 2).t()
    x.grad = g
    out["noncontig_kept"] = (x.grad is g, x.grad.is_contiguous(), x.grad.stride())
    (x * 2).sum().backward()
    out["accumulated_inplace"] = (x.grad is g, x.grad, x.grad.stride(), g)
    x.grad = T.ones(2, 3, requires_grad=True)
    out["rg_grad"] = (x.grad.requires_grad, x.grad.is_leaf)
    (x * 2).sum().backward()
    out["rg_grad_acc"] = (x.grad.requires_grad, _name(x.grad.grad_fn), x.grad)
    x.grad = T.ones(1, 3).expand(2, 3)
    out["expanded_grad_acc"] = raises(lambda: (x * 2).sum().backward())
    out["expanded_grad_after"] = (x.grad, x.grad.stride())
    y = T.ones(3, 2, requires_grad=True).t()
    out["nonleaf_set"] = raises(lambda: setattr(y, "grad", T.ones(2, 3)))
    out["nonleaf_get"] = raises(lambda: y.grad)
    z = T.ones(2, requires_grad=True)
    out["set_int_tensor"] = raises(lambda: setattr(z, "grad", T.ones(2, dtype=T.int64)))
    out["set_list"] = raises(lambda: setattr(z, "grad", [1.0, 2.0]))
    out["set_scalar_shape"] = raises(lambda: setattr(z, "grad", T.tensor(1.0)))
    out["set_self"] = raises(lambda: setattr(z, "grad", z))
    w = T.ones(2)
    w.grad = T.ones(2)
    out["set_on_norg"] = (w.grad, w.requires_grad)
    return out


@program()
def prog_ag3_grad_first_accumulation_identity(T: Any) -> Any:
    out = {}
    x = T.ones(3, requires_grad=True)
    g = T.tensor([1.0, 2.0, 3.0])
    (x * 1).backward(g)
    out["stolen"] = (x.grad is g, x.grad)
    x2 = T.ones(3, requires_grad=True)
    g2 = T.tensor([1.0, 2.0, 3.0])
    x2.backward(g2)
    out["leaf_root"] = (x2.grad is g2, x2.grad)
    g2.mul_(10)
    out["leaf_root_after"] = x2.grad
    x3 = T.ones(3, requires_grad=True)
    (gx,) = T.autograd.grad(x3 * 1, x3, g)
    out["grad_identity"] = (gx is g, gx)
    h = T.ones(3, requires_grad=True)
    h.backward(T.ones(3), retain_graph=True)
    first = h.grad
    h.backward(T.ones(3))
    out["accumulate_identity"] = (h.grad is first, h.grad)
    return out


@program()
def prog_ag3_retains_grad_flags(T: Any) -> Any:
    out = {}
    x = T.ones(2, requires_grad=True)
    x.retain_grad()
    y = x * 2
    out["flags"] = (x.retains_grad, y.retains_grad)
    y.retain_grad()
    y.retain_grad()
    out["after"] = y.retains_grad
    z = y.detach()
    out["detached"] = (z.retains_grad, raises(lambda: z.retain_grad()))
    w = y.view(2)
    out["view"] = w.retains_grad
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    out["grads"] = (x.grad, y.grad)
    with T.no_grad():
        n = x * 2
    out["nograd"] = raises(lambda: n.retain_grad())
    return out


# --- attribute setters and deleters, factories with requires_grad, in-place on leaves -----


@program()
def prog_ag3_attribute_setter_types(T: Any) -> Any:
    out = {}
    x = T.ones(2)
    out["rg_int"] = raises(lambda: setattr(x, "requires_grad", 1))
    out["rg_none"] = raises(lambda: setattr(x, "requires_grad", None))
    out["rg_str"] = raises(lambda: setattr(x, "requires_grad", "yes"))
    out["rg_np_bool"] = raises(
        lambda: (setattr(x, "requires_grad", T.tensor(True).item()), x.requires_grad)[1]
    )
    out["rg__int"] = raises(lambda: x.requires_grad_(1))
    out["rg__none"] = raises(lambda: x.requires_grad_(None))
    out["rg__kw"] = raises(lambda: x.requires_grad_(requires_grad=False).requires_grad)
    y = T.ones(2, requires_grad=True) * 2
    out["grad_fn_set"] = raises(lambda: setattr(y, "grad_fn", None))
    out["is_leaf_set"] = raises(lambda: setattr(y, "is_leaf", True))
    for a in ("grad_fn", "is_leaf", "_version", "retains_grad", "output_nr", "shape", "T"):
        out[f"del_{a}"] = raises(lambda a=a: delattr(y, a))
    out["del_requires_grad"] = raises(lambda: delattr(y, "requires_grad"))
    out["del_data"] = raises(lambda: delattr(y, "data"))
    out["version_set"] = raises(lambda: setattr(y, "_version", 3))
    out["rg_false_nonleaf"] = raises(lambda: setattr(y, "requires_grad", False))
    out["rg_true_nonleaf"] = raises(lambda: (setattr(y, "requires_grad", True), y.requires_grad)[1])
    out["rg__false_nonleaf"] = raises(lambda: y.requires_grad_(False))
    i = T.ones(2, dtype=T.int64)
    out["int_rg"] = raises(lambda: i.requires_grad_())
    out["int_rg_false"] = raises(lambda: i.requires_grad_(False).requires_grad)
    out["bool_rg"] = raises(lambda: T.ones(2, dtype=T.bool).requires_grad_())
    out["complex_rg"] = T.ones(2, dtype=T.complex64).requires_grad_().requires_grad
    out["half_rg"] = T.ones(2, dtype=T.float16).requires_grad_().requires_grad
    out["bf16_rg"] = T.ones(2, dtype=T.bfloat16).requires_grad_().requires_grad
    out["factory_int"] = raises(lambda: T.ones(2, dtype=T.int32, requires_grad=True))
    out["tensor_int"] = raises(lambda: T.tensor([1, 2], requires_grad=True))
    out["arange_rg"] = raises(lambda: T.arange(3, requires_grad=True))
    out["arange_f_rg"] = raises(lambda: T.arange(3.0, requires_grad=True).requires_grad)
    out["randint_rg"] = raises(lambda: T.randint(0, 3, (2,), requires_grad=True))
    out["empty_rg_int"] = raises(lambda: T.empty(2, dtype=T.uint8, requires_grad=True))
    out["full_int_rg"] = raises(lambda: T.full((2,), 3, requires_grad=True))
    return out


@program()
def prog_ag3_leaf_inplace_messages_by_op(T: Any) -> Any:
    out = {}
    ops = {
        "add_": lambda x: x.add_(1),
        "setitem": lambda x: x.__setitem__(0, 1.0),
        "copy_": lambda x: x.copy_(T.zeros(3)),
        "zero_": lambda x: x.zero_(),
        "fill_": lambda x: x.fill_(2),
        "clamp_": lambda x: x.clamp_(0, 1),
        "index_add_": lambda x: x.index_add_(0, T.tensor([0]), T.ones(1)),
        "masked_fill_": lambda x: x.masked_fill_(T.tensor([True, False, True]), 0.0),
        "uniform_": lambda x: x.uniform_(),
        "normal_": lambda x: x.normal_(),
        "t_": lambda x: x.unsqueeze_(0),
        "resize_": lambda x: x.resize_(4),
        "detach_": lambda x: x.detach_(),
        "set_": lambda x: x.set_(T.zeros(3)),
        "iadd": lambda x: x.__iadd__(1),
        "imul_tensor": lambda x: x.__imul__(T.ones(3)),
        "view_add_": lambda x: x.view(3).add_(1),
        "view_zero_": lambda x: x[:2].zero_(),
        "out_arg": lambda x: T.add(T.ones(3), 1, out=x),
        "sin_out": lambda x: T.sin(T.ones(3), out=x),
    }
    for k, f in ops.items():
        x = T.ones(3, requires_grad=True)
        r = raises(lambda f=f, x=x: f(x))
        out[k] = (r if not hasattr(r, "shape") else "ok", x._version, x.requires_grad)
    return out


# --- in-place ops that save their input or result; saved views modified through the base ---


@program()
def prog_ag3_inplace_ops_saving_self_or_result(T: Any) -> Any:
    out = {}
    ops = {
        "exp_": lambda y: y.exp_(),
        "sigmoid_": lambda y: y.sigmoid_(),
        "tanh_": lambda y: y.tanh_(),
        "relu_": lambda y: y.relu_(),
        "sqrt_": lambda y: y.sqrt_(),
        "pow_": lambda y: y.pow_(2),
        "mul_self": lambda y: y.mul_(y),
        "add_self": lambda y: y.add_(y),
        "div_": lambda y: y.div_(2),
        "sin_": lambda y: y.sin_(),
        "clamp_": lambda y: y.clamp_(0.2, 0.8),
        "abs_": lambda y: y.abs_(),
        "reciprocal_": lambda y: y.reciprocal_(),
        "addcmul_": lambda y: y.addcmul_(y, y),
        "lerp_": lambda y: y.lerp_(T.ones(3), 0.5),
        "hardtanh_": lambda y: T.nn.functional.hardtanh_(y),
        "leaky_relu_": lambda y: T.nn.functional.leaky_relu_(y),
        "elu_": lambda y: T.nn.functional.elu_(y),
        "dropout_p0": lambda y: T.nn.functional.dropout(y, 0.0, True, True),
        "threshold_": lambda y: T.nn.functional.threshold_(y, 0.5, 0.0),
    }
    for k, f in ops.items():
        x = T.tensor([0.25, 0.5, 0.75], requires_grad=True)
        y = x * 1
        r = f(y)
        res = [r is y, _name(y.grad_fn), y._version]
        res.append(
            raises(lambda y=y, x=x: (y.sum().backward(retain_graph=True), x.grad.clone())[1])
        )
        y.mul_(3)  # now y's previous node's saved value (if any) is stale
        res.append(raises(lambda y=y: y.sum().backward()))
        out[k] = res
    return out


@program()
def prog_ag3_saved_view_modified_through_base_messages(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = x * 1
    v = b[1:3]
    e = v.exp()
    b.add_(1)
    out["view_saved_result_base_modified"] = raises(lambda: e.sum().backward())
    b2 = x * 1
    v2 = b2.view(2, 2)
    s = v2.sin()
    v2.t().mul_(2)
    out["view_of_view"] = raises(lambda: s.sum().backward())
    b3 = x * 1
    m = b3 * b3[0]
    b3[0] = 5.0
    out["select_saved"] = raises(lambda: m.sum().backward())
    out["names"] = (_name(b3.grad_fn), _name(v2.grad_fn), _name(v.grad_fn))
    return out


# --- autograd.functional strategies and argument edges ------------------------------------


@program()
def prog_ag3_functional_strategies(T: Any) -> Any:
    out = {}
    F = T.autograd.functional
    x = T.tensor([0.5, 1.0, 1.5], requires_grad=False)

    def f(a):
        return (a**2).sin()

    def g(a):
        return (a**3).sum()

    out["jac_fwd"] = raises(lambda: F.jacobian(f, x, strategy="forward-mode", vectorize=True))
    out["jac_fwd_novec"] = raises(lambda: F.jacobian(f, x, strategy="forward-mode"))
    out["jac_bad_strategy"] = raises(lambda: F.jacobian(f, x, strategy="sideways"))
    out["jac_fwd_create"] = raises(
        lambda: F.jacobian(f, x, strategy="forward-mode", vectorize=True, create_graph=True)
    )
    out["hess_fwd_outer"] = raises(
        lambda: F.hessian(g, x, vectorize=True, outer_jacobian_strategy="forward-mode")
    )
    out["hess_fwd_outer_novec"] = raises(
        lambda: F.hessian(g, x, outer_jacobian_strategy="forward-mode")
    )
    out["hess_bad"] = raises(lambda: F.hessian(g, x, outer_jacobian_strategy="x"))
    out["jac_tuple_fwd"] = raises(
        lambda: F.jacobian(lambda a, b: a * b, (x, x + 1), strategy="forward-mode", vectorize=True)
    )
    out["jac_strict_vec"] = raises(lambda: F.jacobian(f, x, strict=True, vectorize=True))
    out["hess_create_vec"] = raises(lambda: F.hessian(g, x, create_graph=True, vectorize=True))
    return out


@program()
def prog_ag3_functional_vjp_jvp_edge_inputs(T: Any) -> Any:
    out = {}
    F = T.autograd.functional
    x = T.tensor([0.5, 1.0])
    out["vjp_no_v_nonscalar"] = raises(lambda: F.vjp(lambda a: a * 2, x))
    out["vjp_v_shape"] = raises(lambda: F.vjp(lambda a: a * 2, x, T.ones(3)))
    out["vjp_scalar_no_v"] = raises(lambda: F.vjp(lambda a: (a * 2).sum(), x))
    out["jvp_no_v"] = raises(lambda: F.jvp(lambda a: a * 2, x))
    out["jvp_scalar_input"] = raises(lambda: F.jvp(lambda a: a * 2, T.tensor(2.0)))
    out["vhp_no_v"] = raises(lambda: F.vhp(lambda a: (a**3).sum(), x))
    out["hvp_v_wrong"] = raises(lambda: F.hvp(lambda a: (a**3).sum(), x, T.ones(3)))
    out["vjp_int_input"] = raises(lambda: F.vjp(lambda a: a * 2, T.tensor([1, 2]), T.ones(2)))
    out["vjp_list_inputs"] = raises(lambda: F.vjp(lambda a, b: a * b, [x, x], T.ones(2)))
    out["vjp_returns_tuple"] = raises(
        lambda: F.vjp(lambda a: (a * 2, a * 3), x, (T.ones(2), T.ones(2)))
    )
    out["vjp_returns_list"] = raises(lambda: F.vjp(lambda a: [a * 2], x, T.ones(2)))
    out["vjp_non_tensor_out"] = raises(lambda: F.vjp(lambda a: 3, x))
    return out


# --- duplicate and overlapping inputs and outputs -----------------------------------------


@program()
def prog_ag3_duplicate_and_overlapping_inputs(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[1:]
    z = (y**2).sum() + (v**3).sum()
    out["grad_dup"] = raises(lambda: T.autograd.grad(z, [x, x], retain_graph=True))
    out["grad_y_and_view"] = raises(lambda: T.autograd.grad(z, [y, v], retain_graph=True))
    out["grad_view_then_y"] = raises(lambda: T.autograd.grad(z, [v, y], retain_graph=True))
    out["grad_output_as_input"] = raises(lambda: T.autograd.grad(z, [z, x], retain_graph=True))
    out["backward_dup_inputs"] = raises(
        lambda: (z.backward(inputs=[x, x], retain_graph=True), x.grad.clone())[1]
    )
    x.grad = None
    out["backward_y_v"] = raises(
        lambda: (z.backward(inputs=[y, v], retain_graph=True), y.grad, v.grad)[1:]
    )
    out["backward_nonleaf_then_leaf"] = raises(
        lambda: (z.backward(inputs=[v, x], retain_graph=True), x.grad, v.grad)[1:]
    )
    w = T.tensor([1.0, 2.0], requires_grad=True)
    outs = [w * 2, w * 2]
    out["grad_same_output_twice"] = raises(
        lambda: T.autograd.grad([outs[0], outs[0]], w, [T.ones(2), T.ones(2) * 3])
    )
    s = (w * 3).sum()
    out["backward_same_root_twice"] = raises(lambda: (T.autograd.backward([s, s]), w.grad)[1])
    return out


# --- the autograd.function module surface -------------------------------------------------


@program()
def prog_ag3_function_module_surface(T: Any) -> Any:
    out = {}
    fm = T.autograd.function
    names = [
        "Function",
        "FunctionCtx",
        "BackwardCFunction",
        "InplaceFunction",
        "NestedIOFunction",
        "once_differentiable",
        "traceable",
        "FunctionMeta",
    ]
    out["has"] = {n: hasattr(fm, n) for n in names}

    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.ones(2, requires_grad=True)
    y = Sq.apply(x)
    n = y.grad_fn
    out["node_types"] = (
        isinstance(n, fm.BackwardCFunction),
        isinstance(n, fm.FunctionCtx),
        type(n).__name__,
        type(n).__mro__[1].__name__ if len(type(n).__mro__) > 1 else None,
    )
    out["cls_attr"] = (n._forward_cls is Sq, Sq._backward_cls is type(n))
    out["apply_on_node"] = raises(lambda: n.apply(T.ones(2)))
    out["call_node"] = raises(lambda: n(T.ones(2)))
    out["ctx_outside"] = raises(lambda: fm.FunctionCtx().saved_tensors)
    ctx = fm.FunctionCtx()
    ctx.save_for_backward(T.ones(1))
    out["ctx_saved_plain"] = raises(lambda: ctx.saved_tensors)
    out["ctx_to_save"] = raises(lambda: len(ctx.to_save))
    out["fn_dunder_call"] = raises(lambda: Sq()(x))
    return out


# --- module backward hooks (BackwardHookFunction) -----------------------------------------


@program()
def prog_ag3_module_full_backward_hooks(T: Any) -> Any:
    out = {}
    log = []
    T.manual_seed(0)
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.copy_(T.arange(6.0).view(2, 3) / 10)
        lin.bias.fill_(0.1)
    h1 = lin.register_full_backward_pre_hook(
        lambda m, go: log.append(("pre", [g.tolist() for g in go]))
    )
    h2 = lin.register_full_backward_hook(
        lambda m, gi, go: log.append(
            ("post", [None if g is None else g.tolist() for g in gi], [g.tolist() for g in go])
        )
    )
    x = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = lin(x)
    out["y"] = (y, _name(y.grad_fn))
    y.sum().backward()
    out["log"] = list(log)
    out["x_grad"] = x.grad
    log.clear()
    x2 = T.tensor([[1.0, 2.0, 3.0]])
    y2 = lin(x2)
    out["y2"] = (_name(y2.grad_fn),)
    y2.sum().backward()
    out["log_no_input_grad"] = list(log)
    log.clear()
    y3 = lin(x)
    out["inplace_on_output"] = raises(lambda: y3.mul_(2))
    out["view_inplace"] = raises(lambda: y3[0].add_(1))
    h1.remove()
    h2.remove()
    # hook returning replacement grad_input
    h3 = lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0,))
    x.grad = None
    lin(x).sum().backward()
    out["replaced"] = x.grad
    h3.remove()
    h4 = lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    out["wrong_count"] = raises(lambda: lin(x).sum().backward())
    h4.remove()
    h5 = lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 2,))
    x.grad = None
    lin(x).sum().backward()
    out["pre_replaced"] = x.grad
    h5.remove()
    return out


@program()
def prog_ag3_module_legacy_backward_hook_warnings(T: Any) -> Any:
    out = {}
    log = []
    lin = T.nn.Linear(2, 2)
    with T.no_grad():
        lin.weight.fill_(0.5)
        lin.bias.zero_()
    h = lin.register_backward_hook(lambda m, gi, go: log.append(len(gi)))
    x = T.ones(1, 2, requires_grad=True)
    lin(x).sum().backward()
    out["legacy"] = list(log)
    out["mix"] = raises(lambda: lin.register_full_backward_hook(lambda m, gi, go: None))
    h.remove()
    seq = T.nn.Sequential(T.nn.ReLU(), T.nn.ReLU())
    seq.register_full_backward_hook(lambda m, gi, go: log.append("seq"))
    z = T.ones(2, requires_grad=True)
    r = raises(lambda: seq(z).sum().backward())
    out["relu_seq"] = (r, list(log))
    inpl = T.nn.ReLU(inplace=True)
    inpl.register_full_backward_hook(lambda m, gi, go: None)
    out["inplace_module"] = raises(lambda: inpl(z * 1).sum().backward())
    return out


# --- custom Function: nested inputs, fresh outputs, complex convention, double backward ---


@program()
def prog_ag3_fn_nested_inputs_and_fresh_outputs(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class ListIn(F):
        @staticmethod
        def forward(ctx, xs, y):
            ctx.nig = ctx.needs_input_grad
            return xs[0] * y

        @staticmethod
        def backward(ctx, g):
            return None, g * 2

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    r = ListIn.apply([x], y)
    r.sum().backward()
    out["list_in"] = (r.grad_fn.nig, x.grad, y.grad, _name(r.grad_fn))

    class Fresh(F):
        @staticmethod
        def forward(ctx, a):
            return T.tensor([5.0, 6.0]), T.zeros(2, dtype=T.int64), a.detach() * 3

        @staticmethod
        def backward(ctx, g1, g2, g3):
            ctx.gs = (g1.tolist(), g2 is None or g2.tolist(), g3.tolist())
            return g1 + g3

    p, q, s = Fresh.apply(x)
    out["fresh"] = [(t.requires_grad, _name(t.grad_fn), t.is_leaf, t.dtype) for t in (p, q, s)]
    (p.sum() + s.sum()).backward()
    out["fresh_grads"] = (p.grad_fn.gs, x.grad)

    class ViewOfInter(F):
        @staticmethod
        def forward(ctx, a):
            inter = a * 2
            return inter[:1], inter

        @staticmethod
        def backward(ctx, g1, g2):
            return g2 * 2

    v, w = ViewOfInter.apply(x)
    out["view_of_inter"] = (
        v._is_view(),
        v._base is w,
        raises(lambda: v.mul_(2)),
        raises(lambda: w.mul_(2)),
    )

    class NoGradInside(F):
        @staticmethod
        def forward(ctx, a):
            ctx.ge = T.is_grad_enabled()
            with T.enable_grad():
                inner = a * 2
                ctx.inner_rg = inner.requires_grad
            return inner

        @staticmethod
        def backward(ctx, g):
            return g * 2

    z = NoGradInside.apply(x)
    out["grad_mode_in_forward"] = (z.grad_fn.ge, z.grad_fn.inner_rg, _name(z.grad_fn), z._is_view())
    return out


@program()
def prog_ag3_fn_complex_backward_convention(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class CMul(F):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b.conj(), g * a.conj()

    a = T.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    b = T.tensor([2 - 1j, 1 + 1j], requires_grad=True)
    CMul.apply(a, b).abs().sum().backward()
    out["custom"] = (a.grad, b.grad)
    a2 = a.detach().clone().requires_grad_()
    b2 = b.detach().clone().requires_grad_()
    (a2 * b2).abs().sum().backward()
    out["builtin"] = (a2.grad, b2.grad)

    class RealToComplex(F):
        @staticmethod
        def forward(ctx, r):
            return T.complex(r, r * 2)

        @staticmethod
        def backward(ctx, g):
            return g.real + 2 * g.imag

    r = T.tensor([1.0, 2.0], requires_grad=True)
    RealToComplex.apply(r).abs().sum().backward()
    out["real_to_complex"] = r.grad

    class BadComplexGrad(F):
        @staticmethod
        def forward(ctx, r):
            return r * 2

        @staticmethod
        def backward(ctx, g):
            return g * (1 + 1j)

    r2 = T.tensor([1.0, 2.0], requires_grad=True)
    out["complex_grad_for_real"] = raises(
        lambda: (BadComplexGrad.apply(r2).sum().backward(), r2.grad)[1]
    )
    return out


@program()
def prog_ag3_fn_double_backward_through_saved(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Cube(F):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a**3

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 3 * a**2 * g

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    out["g"] = (g, _name(g.grad_fn), [_name(n) for n, _ in g.grad_fn.next_functions])
    (gg,) = T.autograd.grad(g.sum(), x, create_graph=True)
    out["gg"] = (gg, _name(gg.grad_fn))
    (ggg,) = T.autograd.grad(gg.sum(), x)
    out["ggg"] = ggg
    out["retain_none"] = raises(lambda: T.autograd.grad(y.sum(), x))
    return out


# --- custom Function view outputs: creation meta with one or several differentiable outputs ---


@program()
def prog_ag3_fn_multi_output_views_creation_meta(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    def mk(fwd, nout):
        class Fn(F):
            @staticmethod
            def forward(ctx, a):
                return fwd(ctx, a)

            @staticmethod
            def backward(ctx, *gs):
                return gs[0]

        return Fn

    cases = {
        "single_view_of_inter": (lambda ctx, a: (a * 2)[:1], 1),
        "two_one_view_inter": (lambda ctx, a: ((i := a * 2)[:1], i), 2),
        "two_views_of_input": (lambda ctx, a: (a[:1], a[1:]), 2),
        "view_and_nondiff": (
            lambda ctx, a: ((a * 2)[:1], (ctx.mark_non_differentiable(j := a * 3), j)[1]),
            2,
        ),
        "view_and_int": (lambda ctx, a: ((a * 2)[:1], T.ones(1, dtype=T.int64)), 2),
        "view_and_none": (lambda ctx, a: ((a * 2)[:1], None), 2),
        "input_as_is_and_other": (lambda ctx, a: (a, a * 2), 2),
        "view_of_input_and_other": (lambda ctx, a: (a.view(2), a * 2), 2),
    }
    for k, (fwd, n) in cases.items():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        base = x * 1

        def go(fwd=fwd, base=base, n=n):
            outs = mk(fwd, n).apply(base)
            outs = outs if isinstance(outs, tuple) else (outs,)
            res = []
            for o in outs:
                if o is None or not o.requires_grad:
                    res.append(None)
                    continue
                res.append(raises(lambda o=o: o.mul_(2) and "ok"))
                res.append(raises(lambda o=o: o[:1].mul_(2) and "ok"))
            return res

        out[k] = raises(go)
    return out


@program()
def prog_ag3_fn_view_outputs_rebase_and_leaf_views(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Two(F):
        @staticmethod
        def forward(ctx, a):
            return a[:1], a[1:]

        @staticmethod
        def backward(ctx, g1, g2):
            return T.cat([g1, g2])

    class One(F):
        @staticmethod
        def forward(ctx, a):
            return a[:1]

        @staticmethod
        def backward(ctx, g):
            return T.cat([g, T.zeros(1)])

    for name, Fn in (("two", Two), ("one", One)):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        base = x * 1
        outs = Fn.apply(base)
        o = outs[0] if isinstance(outs, tuple) else outs
        base.add_(1)
        out[name + "_rebase_grad_fn"] = raises(lambda o=o: o.grad_fn)
        out[name + "_rebase_use"] = raises(lambda o=o: o * 2)
    leaf = T.tensor([1.0, 2.0], requires_grad=True)
    out["leaf_unbind"] = raises(lambda: leaf.unbind(0)[0].mul_(2))
    out["leaf_split_view"] = raises(lambda: leaf.split(1)[0][:1].mul_(2))
    out["leaf_view"] = raises(lambda: leaf[:1].mul_(2))
    out["leaf_view_nograd"] = raises(lambda: _ng(T, leaf))
    out["leaf_fn_view"] = raises(lambda: One.apply(leaf)[:1].mul_(2))
    out["leaf_fn_two"] = raises(lambda: Two.apply(leaf)[1].mul_(2))
    out["leaf_fn_two_view"] = raises(lambda: Two.apply(leaf)[1][:1].mul_(2))
    return out


def _ng(T, leaf):
    with T.no_grad():
        v = leaf[:1]
    return v.mul_(2)


# --- custom Function: inputs returned in odd ways, view outputs with hooks ----------------


@program()
def prog_ag3_fn_returns_inputs_in_odd_ways(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class RetB(F):
        @staticmethod
        def forward(ctx, a, b):
            return b, a * 2

        @staticmethod
        def backward(ctx, g1, g2):
            return g2 * 2, g1

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0])
    r1, _ = RetB.apply(a, b)
    out["nonrg_input_as_is"] = (
        r1 is b,
        r1.requires_grad,
        _name(r1.grad_fn),
        r1._is_view(),
        raises(lambda: r1.mul_(2) is r1),
    )

    class SameTwice(F):
        @staticmethod
        def forward(ctx, a):
            v = a[:1]
            return v, v

        @staticmethod
        def backward(ctx, g1, g2):
            return T.cat([g1 + g2, T.zeros(1)])

    base = a * 1
    s1, s2 = SameTwice.apply(base)
    out["same_view_twice"] = (s1 is s2, s1.output_nr, s2.output_nr, _name(s1.grad_fn))
    (s1.sum() + s2.sum() * 3).backward()
    out["same_view_twice_grad"] = a.grad.clone()

    class InputTwice(F):
        @staticmethod
        def forward(ctx, a):
            return a, a

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + g2

    a.grad = None
    t1, t2 = InputTwice.apply(a)
    out["input_twice"] = (t1 is t2, t1 is a, t1._base is a, t1.output_nr, t2.output_nr)
    (t1 * 2 + t2 * 5).sum().backward()
    out["input_twice_grad"] = a.grad.clone()
    return out


@program()
def prog_ag3_fn_view_outputs_with_hooks_and_retain_grad(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class View(F):
        @staticmethod
        def forward(ctx, a):
            return a.view(2, 1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2) * 10

    x = T.tensor([1.0, 2.0], requires_grad=True)
    b = x * 1
    v = View.apply(b)
    log = []
    v.register_hook(lambda g: log.append(g.tolist()))
    v.retain_grad()
    (v * 3).sum().backward()
    out["hooks"] = (log, v.grad, x.grad, _name(v.grad_fn), v._base is b)
    with T.inference_mode():
        w = View.apply(T.ones(2))
    out["inference"] = (w.is_inference(), w.requires_grad, w._is_view())
    with T.no_grad():
        u = View.apply(b)
    out["nograd_view_out"] = (
        u.requires_grad,
        _name(u.grad_fn),
        u._is_view(),
        raises(lambda: u.mul_(2)),
    )
    return out


# --- the Node API on CopySlices, regenerated views and AccumulateGrad ---------------------


@program()
def prog_ag3_node_api_on_copyslices_and_regenerated_views(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor([2.0], requires_grad=True)
    b = x * 1
    v = b[:1]
    v.mul_(w)
    cs = b.grad_fn
    out["names"] = (cs.name(), _name(v.grad_fn), [(_name(n), i) for n, i in cs.next_functions])
    out["vnext"] = [(_name(n), i) for n, i in v.grad_fn.next_functions]
    out["isinstance"] = isinstance(cs, T.autograd.graph.Node)
    out["saved_attrs"] = sorted(a for a in dir(cs) if a.startswith("_saved_"))
    out["as_strided_saved"] = raises(
        lambda: (v.grad_fn._saved_size, v.grad_fn._saved_stride, v.grad_fn._saved_storage_offset)
    )
    log = []
    cs.register_prehook(lambda go: log.append(("cs_pre", [g.tolist() for g in go])))
    cs.register_hook(
        lambda gi, go: log.append(("cs_post", [None if g is None else g.tolist() for g in gi]))
    )
    cs.metadata["tag"] = 1
    b.sum().backward()
    out["hooks"] = (log, x.grad, w.grad, cs.metadata)
    y = T.tensor([1.0, 2.0], requires_grad=True)
    c = y * 1
    u = c[1:]
    old = u.grad_fn
    c.add_(1)
    new = u.grad_fn
    out["regenerated"] = (
        old is new,
        _name(old),
        _name(new),
        [(_name(n), i) for n, i in new.next_functions],
    )
    return out


@program()
def prog_ag3_node_api_accumulate_grad_identity(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a1 = (x * 1).grad_fn.next_functions[0][0]
    a2 = (x * 2).grad_fn.next_functions[0][0]
    out["same_acc"] = (a1 is a2, a1.name(), a1.variable is x)
    del a1, a2
    a3 = (x * 3).grad_fn.next_functions[0][0]
    out["acc3"] = a3.name()
    v = x.view(2)
    out["view_of_leaf_next"] = [(_name(n), i) for n, i in v.grad_fn.next_functions]
    out["acc_registers"] = (
        type(a3.register_hook(lambda gi, go: None)).__name__,
        type(a3.register_prehook(lambda go: None)).__name__,
    )
    out["acc_call"] = raises(lambda: a3(T.ones(2)))
    out["grad_after_call"] = x.grad
    out["detach_acc"] = raises(lambda: x.detach().grad_fn)
    return out


# --- dtype mixes, zero-size tensors, double backward through saved indices ----------------


@program()
def prog_ag3_mixed_dtype_gradients(T: Any) -> Any:
    out = {}
    a = T.tensor([1.0, 2.0], requires_grad=True)
    d = T.tensor([3.0, 4.0], dtype=T.float64, requires_grad=True)
    h = T.tensor([0.5, 1.5], dtype=T.float16, requires_grad=True)
    bf = T.tensor([0.25, 0.75], dtype=T.bfloat16, requires_grad=True)
    z = T.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    (a * d).sum().backward()
    (a * h).sum().backward()
    (h * bf).sum().backward()
    (d * bf).sum().backward()
    out["grads"] = [(t.grad, t.grad.dtype) for t in (a, d, h, bf)]
    (a * z).abs().sum().backward()
    out["real_times_complex"] = (a.grad, z.grad)
    (d * 2.5).sum().backward()
    (h**2).sum().backward()
    out["after"] = (d.grad, h.grad)
    i = T.tensor([1, 2])
    (a * i).sum().backward()
    (h * i).sum().backward()
    out["int_operand"] = (a.grad, h.grad)
    out["names"] = [
        _name((a * d).grad_fn),
        _name((a + h).grad_fn),
        _name((a * i).grad_fn),
        _name(a.double().grad_fn),
        _name(a.to(T.float16).grad_fn),
    ]
    return out


@program()
def prog_ag3_zero_size_backward(T: Any) -> Any:
    out = {}
    e = T.zeros(0, 3, requires_grad=True)
    (e.sum() * 2).backward()
    out["sum_empty"] = (e.grad, e.grad.shape)
    e2 = T.zeros(0, requires_grad=True)
    out["mean_empty"] = raises(lambda: (e2.mean().backward(), e2.grad)[1])
    out["max_empty"] = raises(lambda: e2.max())
    out["prod_empty"] = raises(lambda: (T.zeros(0, requires_grad=True).prod().backward(), "ok")[1])
    e3 = T.zeros(2, 0, requires_grad=True)
    out["mm_empty"] = raises(lambda: ((e3 @ T.zeros(0, 4)).sum().backward(), e3.grad.shape)[1])
    x = T.ones(3, requires_grad=True)
    out["index_empty"] = raises(
        lambda: (x[T.tensor([], dtype=T.int64)].sum().backward(), x.grad)[1]
    )
    y = T.ones(3, requires_grad=True)
    out["slice_empty"] = raises(lambda: (y[3:].sum().backward(), y.grad)[1])
    w = T.ones(0, requires_grad=True)
    out["grad_empty"] = T.autograd.grad((w * 2).sum(), w)
    out["backward_nonscalar_empty"] = raises(lambda: (w * 2).backward())
    out["backward_empty_grad"] = raises(lambda: ((w * 2).backward(T.ones(0)), w.grad)[1])
    return out


@program()
def prog_ag3_double_backward_with_saved_indices(T: Any) -> Any:
    out = {}
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    idx = T.tensor([[1, 0], [0, 0]])
    for name, f in (
        ("gather", lambda x: T.gather(x, 1, idx) ** 2),
        ("index_select", lambda x: x.index_select(0, T.tensor([1, 1])) ** 2),
        ("max_dim", lambda x: x.max(1)[0] ** 2),
        ("sort", lambda x: x.sort(1)[0] ** 3),
        ("take", lambda x: x.take(T.tensor([3, 0])) ** 2),
        ("masked_select", lambda x: x.masked_select(x > 1.5) ** 2),
        ("scatter_add", lambda x: T.zeros(2, 2).scatter_add(1, idx, x) ** 2),
        (
            "index_put",
            lambda x: T.zeros(2, 2).index_put((T.tensor([0]), T.tensor([1])), x[0, 0:1]) ** 2,
        ),
    ):
        xx = x.detach().clone().requires_grad_()
        (g,) = T.autograd.grad(f(xx).sum(), xx, create_graph=True)
        (gg,) = T.autograd.grad(g.sum(), xx, allow_unused=True)
        out[name] = (g, _name(g.grad_fn), gg)
    return out


# --- grad_fn of create_graph gradients ----------------------------------------------------


def _gfn(T, f, *shape):
    x = (T.arange(float(__import__("math").prod(shape))).reshape(shape) / 7 + 0.3).requires_grad_()
    try:
        (gx,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
    except Exception as e:
        return type(e).__name__
    n = gx.grad_fn
    return (
        None if n is None else n.name(),
        [None if m is None else m.name() for m, _ in (n.next_functions if n else ())],
    )


@program()
def prog_ag3_create_graph_grad_fn_unary(T: Any) -> Any:
    F = T.nn.functional
    fs = {
        "exp": lambda x: x.exp(),
        "sin": lambda x: x.sin(),
        "log": lambda x: x.log(),
        "sqrt": lambda x: x.sqrt(),
        "pow2": lambda x: x**2,
        "pow3": lambda x: x**3.0,
        "relu": lambda x: x.relu(),
        "sigmoid": lambda x: x.sigmoid(),
        "tanh": lambda x: x.tanh(),
        "abs": lambda x: x.abs(),
        "neg": lambda x: -x,
        "reciprocal": lambda x: x.reciprocal(),
        "gelu": lambda x: F.gelu(x),
        "silu": lambda x: F.silu(x),
        "elu": lambda x: F.elu(x),
        "softplus": lambda x: F.softplus(x),
        "leaky": lambda x: F.leaky_relu(x, 0.1),
        "hardtanh": lambda x: F.hardtanh(x),
        "clamp": lambda x: x.clamp(0.5, 1.0),
        "erf": lambda x: x.erf(),
        "atan": lambda x: x.atan(),
        "log1p": lambda x: x.log1p(),
        "rsqrt": lambda x: x.rsqrt(),
        "square": lambda x: x.square(),
        "cumsum": lambda x: x.cumsum(0),
        "cumprod": lambda x: x.cumprod(0),
        "logsigmoid": lambda x: F.logsigmoid(x),
        "mish": lambda x: F.mish(x),
        "hardswish": lambda x: F.hardswish(x),
        "selu": lambda x: F.selu(x),
    }
    return {k: _gfn(T, f, 4) for k, f in fs.items()}


@program()
def prog_ag3_create_graph_grad_fn_reductions_shapes(T: Any) -> Any:
    F = T.nn.functional
    fs = {
        "sum": lambda x: x.sum() * 1,
        "mean": lambda x: x.mean(),
        "mean_dim": lambda x: x.mean(1),
        "sum_dim": lambda x: x.sum(1),
        "prod": lambda x: x.prod(),
        "max": lambda x: x.max(),
        "amax": lambda x: x.amax(1),
        "norm": lambda x: x.norm(),
        "logsumexp": lambda x: x.logsumexp(1),
        "var": lambda x: x.var(),
        "std": lambda x: x.std(1),
        "view": lambda x: x.view(6) * x.view(6),
        "t": lambda x: x.t() ** 2,
        "permute": lambda x: x.permute(1, 0) ** 2,
        "expand": lambda x: x[:, :1].expand(2, 5) ** 2,
        "index": lambda x: x[T.tensor([1, 0])] ** 2,
        "slice": lambda x: x[:, 1:] ** 2,
        "select": lambda x: x[1] ** 2,
        "cat": lambda x: T.cat([x, x]) ** 2,
        "stack": lambda x: T.stack([x, x]) ** 2,
        "repeat": lambda x: x.repeat(2, 1) ** 2,
        "flip": lambda x: x.flip(0) ** 2,
        "roll": lambda x: x.roll(1, 0) ** 2,
        "softmax": lambda x: F.softmax(x, 1) * T.arange(3.0),
        "log_softmax": lambda x: F.log_softmax(x, 1) * T.arange(3.0),
        "mm": lambda x: x @ x.t(),
        "matmul_vec": lambda x: x @ T.ones(3),
        "linear": lambda x: F.linear(x, T.ones(4, 3)) ** 2,
        "mse": lambda x: F.mse_loss(x, T.zeros(2, 3)),
        "l1": lambda x: F.l1_loss(x, T.zeros(2, 3)),
        "smooth_l1": lambda x: F.smooth_l1_loss(x, T.zeros(2, 3)),
        "bce": lambda x: F.binary_cross_entropy(x.sigmoid(), T.ones(2, 3) * 0.5),
        "ce": lambda x: F.cross_entropy(x, T.tensor([0, 2])),
        "nll": lambda x: F.nll_loss(F.log_softmax(x, 1), T.tensor([0, 2])),
        "where": lambda x: T.where(x > 0.5, x**2, x**3),
        "maximum": lambda x: T.maximum(x**2, x),
    }
    return {k: _gfn(T, f, 2, 3) for k, f in fs.items()}


# --- normalization layers under double backward -------------------------------------------


def _gfn2(T, f, *shape):
    x = (T.arange(float(__import__("math").prod(shape))).reshape(shape) / 7 + 0.3).requires_grad_()
    w = T.tensor([[1.0, -2.0, 3.0], [0.5, 1.5, -1.0]])
    (gx,) = T.autograd.grad((f(x) ** 2 * w).sum(), x, create_graph=True)
    (gg,) = T.autograd.grad((gx * w).sum(), x)
    n = gx.grad_fn
    return gx, gg, n.name(), [None if m is None else m.name() for m, _ in n.next_functions]


@program()
def prog_ag3_norms_double_backward_values(T: Any) -> Any:
    F = T.nn.functional
    return {
        "group_norm": _gfn2(T, lambda x: F.group_norm(x.view(2, 3, 1), 1).view(2, 3), 2, 3),
        "instance_norm": _gfn2(T, lambda x: F.instance_norm(x.view(1, 2, 3)).view(2, 3), 2, 3),
        "rms_norm": _gfn2(T, lambda x: F.rms_norm(x, (3,)), 2, 3),
    }


@program(
    xfail="float32 batch norm over a batch of two: the gradients are all cancellation, and "
    "shadowgrad's first-order batch-norm backward rounds differently from torch's kernel (the "
    "first-order gradient is already ~3e-4 off relatively, the second order as much)"
)
def prog_ag3_norms_double_backward_nodes(T: Any) -> Any:
    F = T.nn.functional
    return {
        "layer_norm": _gfn2(T, lambda x: F.layer_norm(x, (3,)), 2, 3),
        "batch_norm": _gfn2(T, lambda x: F.batch_norm(x, None, None, training=True), 2, 3),
    }


# --- grad_fn of create_graph gradients: indexing, linalg, nn ops --------------------------


@program()
def prog_ag3_create_graph_grad_fn_indexing_and_linalg(T: Any) -> Any:
    F = T.nn.functional
    i = T.tensor([[1, 0, 2], [0, 0, 1]])
    fs = {
        "gather": lambda x: x.gather(1, i) ** 2,
        "scatter": lambda x: T.zeros(2, 3).scatter(1, i[:, :1], x[:, :1]) ** 2,
        "masked_fill": lambda x: x.masked_fill(x > 0.5, 0.0) ** 2,
        "tril": lambda x: x.tril() ** 2,
        "diag": lambda x: x.diagonal() ** 2,
        "trace": lambda x: x[:, :2].trace() ** 2,
        "kron": lambda x: T.kron(x, x),
        "einsum": lambda x: T.einsum("ij,kj->ik", x, x),
        "bmm": lambda x: T.bmm(x[None], x.t()[None]),
        "addmm": lambda x: T.addmm(T.ones(2, 2), x, x.t()),
        "cross": lambda x: T.linalg.cross(x, x.flip(0)),
        "cdist": lambda x: T.cdist(x, x + 1),
        "cos_sim": lambda x: F.cosine_similarity(x, x + 1),
        "normalize": lambda x: F.normalize(x) * T.arange(3.0),
        "lerp": lambda x: T.lerp(x, x**2, 0.3),
        "addcmul": lambda x: T.addcmul(x, x, x, value=0.5),
        "atan2": lambda x: T.atan2(x, x + 1),
        "logaddexp": lambda x: T.logaddexp(x, x * 2),
        "hypot": lambda x: T.hypot(x, x + 1),
        "pad": lambda x: F.pad(x, (1, 1)) ** 2,
        "unfold": lambda x: x.unfold(1, 2, 1) ** 2,
        "interp": lambda x: F.interpolate(x[None], scale_factor=2.0, mode="linear") ** 2,
        "avg_pool": lambda x: F.avg_pool1d(x[None], 2) ** 2,
        "max_pool": lambda x: F.max_pool1d(x[None], 2) ** 2,
        "embedding": lambda x: F.embedding(T.tensor([1, 0]), x) ** 2,
        "sort": lambda x: x.sort(1)[0] ** 2,
        "topk": lambda x: x.topk(2)[0] ** 2,
        "cummax": lambda x: x.cummax(1)[0] ** 2,
        "det": lambda x: T.linalg.det(x[:, :2]) ** 2,
        "inv": lambda x: T.linalg.inv(x[:, :2] + T.eye(2)),
        "solve": lambda x: T.linalg.solve(x[:, :2] + T.eye(2), x[:, 2]),
        "fft": lambda x: T.fft.rfft(x).abs(),
        "dropout0": lambda x: F.dropout(x, 0.0) ** 2,
        "glu": lambda x: F.glu(x[:, :2]),
        "huber": lambda x: F.huber_loss(x, T.zeros(2, 3)),
        "kl": lambda x: F.kl_div(x.log_softmax(1), T.ones(2, 3) / 3, reduction="batchmean"),
        "triplet": lambda x: F.triplet_margin_loss(x, x + 1, x * 2),
    }
    return {k: _gfn(T, f, 2, 3) for k, f in fs.items()}


@program(
    xfail="create_graph gradients whose torch formula is an op with its own double-backward "
    "node: masked_scatter_backward (MaskedScatterBackwardBackward0) where shadowgrad composes ops"
)
def prog_ag3_create_graph_grad_fn_of_composite_formulas(T: Any) -> Any:
    F = T.nn.functional
    fs = {
        "masked_scatter": lambda x: (
            T.zeros(2, 3).masked_scatter(T.tensor([[True, False, True], [False, True, False]]), x)
            ** 2
        ),
        "pdist": lambda x: F.pdist(x),
        "conv1d": lambda x: F.conv1d(x[None], T.ones(1, 2, 2)) ** 2,
        "prelu": lambda x: F.prelu(x, T.tensor([0.25])),
    }
    return {k: _gfn(T, f, 2, 3) for k, f in fs.items()}


@program()
def prog_ag3_create_graph_index_add_copy_source_grads(T: Any) -> Any:
    """torch's source gradient is grad.index_select(dim, index).expand_as(source), times alpha
    with mul.Scalar (MulBackward1) when alpha is not 1."""
    out = {}
    for name, f in (
        ("add", lambda x: T.zeros(3, 3).index_add(0, T.tensor([0, 2]), x) ** 2),
        ("add_alpha", lambda x: T.zeros(3, 3).index_add(0, T.tensor([2, 0]), x, alpha=2) ** 2),
        (
            "add_alpha_float",
            lambda x: T.zeros(3, 3).index_add(0, T.tensor([1, 1]), x, alpha=0.5) ** 2,
        ),
        ("copy", lambda x: T.zeros(3, 3).index_copy(0, T.tensor([0, 2]), x) ** 2),
        ("add_dim1", lambda x: T.zeros(2, 4).index_add(1, T.tensor([3, 0, 1]), x) ** 2),
    ):
        x = (T.arange(6.0).view(2, 3) / 7 + 0.3).requires_grad_()
        if name == "add_dim1":
            x = (T.arange(6.0).view(2, 3) / 5 + 0.1).requires_grad_()
        (g,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), x, allow_unused=True)
        n = g.grad_fn
        out[name] = (g, gg, _name(n), [_name(m) for m, _ in n.next_functions])
    z = T.tensor([1 + 1j, 2j], requires_grad=True)
    T.zeros(3, dtype=T.complex64).index_add(0, T.tensor([0, 2]), z, alpha=2).abs().sum().backward()
    out["complex"] = z.grad
    return out


# --- grad_fn of create_graph gradients: more pointwise ops --------------------------------


def _gfn3(T, f, *shape):
    x = (T.arange(float(__import__("math").prod(shape))).reshape(shape) / 7 + 0.3).requires_grad_()
    try:
        (gx,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
    except Exception as e:
        return type(e).__name__
    n = gx.grad_fn
    return (
        None if n is None else n.name(),
        [None if m is None else m.name() for m, _ in (n.next_functions if n else ())],
    )


@program()
def prog_ag3_create_graph_grad_fn_more_ops(T: Any) -> Any:
    F = T.nn.functional
    fs = {
        "div_t": lambda x: x / (x + 1),
        "rdiv": lambda x: 2 / x,
        "sub": lambda x: (x - x**2) ** 2,
        "pow_t": lambda x: x**x,
        "rpow": lambda x: 2**x,
        "fmod": lambda x: T.fmod(x**2, 0.7),
        "remainder": lambda x: T.remainder(x**2, 0.7),
        "min_bin": lambda x: T.minimum(x**2, x),
        "clamp_t": lambda x: x.clamp(min=T.full((3,), 0.5)) ** 2,
        "xlogy": lambda x: T.xlogy(x, x + 1),
        "sinc": lambda x: x.sinc(),
        "expm1": lambda x: x.expm1(),
        "log2": lambda x: x.log2(),
        "log10": lambda x: x.log10(),
        "asinh": lambda x: x.asinh(),
        "acosh": lambda x: (x + 1).acosh(),
        "erfc": lambda x: x.erfc(),
        "erfinv": lambda x: (x / 10).erfinv(),
        "lgamma": lambda x: x.lgamma(),
        "digamma": lambda x: x.digamma(),
        "logit": lambda x: (x / 10).logit(),
        "i0": lambda x: x.i0(),
        "deg2rad": lambda x: x.deg2rad() ** 2,
        "frac": lambda x: x.frac() ** 2,
        "cosh": lambda x: x.cosh(),
        "tan": lambda x: x.tan(),
        "exp2": lambda x: x.exp2(),
        "softmin": lambda x: F.softmin(x, 0) * T.arange(3.0),
        "rrelu_eval": lambda x: F.rrelu(x - 1, training=False),
        "celu": lambda x: F.celu(x - 1),
        "softsign": lambda x: F.softsign(x),
        "tanhshrink": lambda x: F.tanhshrink(x),
        "threshold": lambda x: F.threshold(x, 0.5, 0.0) ** 2,
        "relu6": lambda x: F.relu6(x) ** 2,
        "hardsigmoid": lambda x: F.hardsigmoid(x) ** 2,
        "softshrink": lambda x: F.softshrink(x) ** 2,
        "logsumexp0": lambda x: x.logsumexp(0),
        "nansum": lambda x: x.nansum() ** 2,
        "cumlogsumexp": lambda x: x.logcumsumexp(0),
        "renorm": lambda x: x.view(1, 3).renorm(2, 0, 0.5),
        "dist": lambda x: T.dist(x, x**2),
        "polygamma": lambda x: T.polygamma(1, x),
        "mvlgamma": lambda x: T.mvlgamma(x + 2, 2),
        "copysign": lambda x: T.copysign(x**2, -1.0),
    }
    return {k: _gfn3(T, f, 3) for k, f in fs.items()}


# --- saved-tensor hooks during create_graph backward; pack results of other types ---------


@program()
def prog_ag3_saved_hooks_during_create_graph_backward(T: Any) -> Any:
    out = {}
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape), t.requires_grad))
        return t

    def unpack(t):
        log.append(("unpack", tuple(t.shape)))
        return t

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        (g,) = T.autograd.grad(y, x, create_graph=True)
    out["during_backward"] = list(log)
    log.clear()
    g.sum().backward()
    out["second_backward"] = (list(log), x.grad)
    log.clear()
    z = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        w = (z**3).sum()
    (gz,) = T.autograd.grad(w, z, create_graph=True)
    out["outside_hooks_grad"] = (list(log), gz)
    log.clear()
    with T.autograd.graph.disable_saved_tensors_hooks("no hooks in backward"):
        out["disabled_backward_with_hooks_graph"] = raises(lambda: T.autograd.grad(gz.sum(), z))
    out["disabled_log"] = list(log)
    return out


@program()
def prog_ag3_saved_hooks_pack_modifies_and_returns_other_types(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: {"t": t}, lambda d: d["t"]):
        y = (x * x).sum()
    y.backward()
    out["dict_pack"] = x.grad.clone()
    x.grad = None
    with T.autograd.graph.saved_tensors_hooks(
        lambda t: t.numpy().copy(), lambda a: T.from_numpy(a)
    ):
        y = (x.detach().requires_grad_() * 0 + x.sin()).sum()
    out["numpy_pack"] = raises(lambda: (y.backward(), x.grad)[1])
    with T.autograd.graph.saved_tensors_hooks(lambda t: None, lambda p: T.ones(2)):
        y2 = (x * x).sum()
    out["none_pack"] = raises(lambda: T.autograd.grad(y2, x))
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p.double()):
        y3 = (x * x).sum()
    out["unpack_dtype"] = raises(lambda: T.autograd.grad(y3, x))
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p[:1]):
        y4 = (x * x).sum()
    out["unpack_shape"] = raises(lambda: T.autograd.grad(y4, x))
    return out


@program()
def prog_ag3_numpy_of_requiring_tensor_by_grad_mode(T: Any) -> Any:
    """torch refuses numpy() on a tensor requiring grad only while grad mode is on."""
    import numpy as np

    x = T.tensor([1.0, 2.0], requires_grad=True)
    out = {"grad_on": raises(lambda: x.numpy()), "asarray_on": raises(lambda: np.asarray(x))}
    with T.no_grad():
        out["no_grad"] = (x.numpy(), (x * 2).numpy(), np.asarray(x), x.__array__())
    with T.inference_mode():
        out["inference"] = x.numpy()
    with T.set_grad_enabled(False), T.enable_grad():
        out["enable_inside"] = raises(lambda: x.numpy())
    out["force"] = x.numpy(force=True)
    y = x * 3
    with T.no_grad():
        a = y.numpy()
    a[0] = 100.0  # shares memory with y, as torch's
    out["shared"] = (y.detach(), raises(lambda: y.sum().backward()), x.grad)
    return out


# --- checks under grad mode, no_grad and inference mode -----------------------------------


@program()
def prog_ag3_checks_that_depend_on_grad_mode(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    res = {}
    for mode in ("on", "no_grad", "inference"):
        ctx = {"on": T.enable_grad, "no_grad": T.no_grad, "inference": T.inference_mode}[mode]
        with ctx():
            r = {}
            r["out_arg"] = raises(lambda: T.add(x, 1, out=T.empty(2)).tolist())
            r["out_into_rg"] = raises(
                lambda: T.add(T.ones(2), 1, out=x.detach().clone().requires_grad_()).tolist()
            )
            r["resize_"] = raises(lambda: x.detach().clone().requires_grad_().resize_(3).shape)
            r["set_"] = raises(lambda: x.detach().clone().requires_grad_().set_(T.ones(3)).shape)
            r["leaf_inplace"] = raises(lambda: x.detach().clone().requires_grad_().add_(1).tolist())
            r["np_array"] = raises(lambda: __import__("numpy").array(x).tolist())
            r["tolist"] = x.tolist()
            r["item"] = x[0].item()
            r["int"] = raises(lambda: int(x[1]))
            r["float"] = raises(lambda: float(x[1]))
            r["bool"] = raises(lambda: bool(x[1]))
            r["index"] = raises(lambda: [0, 1, 2][T.tensor(1)])
            r["copy_from_rg"] = raises(lambda: T.zeros(2).copy_(x).requires_grad)
            r["detach_"] = raises(lambda: (x * 1).detach_().requires_grad)
            r["requires_grad_nonleaf_false"] = raises(
                lambda: (x * 1).requires_grad_(False).requires_grad
            )
            res[mode] = r
    out.update(res)
    return out


# --- inference mode on tensors requiring grad ---------------------------------------------


@program()
def prog_ag3_inference_mode_on_requiring_normal_tensors(T: Any) -> Any:
    out = {}

    def fresh():
        return T.tensor([1.0, 2.0, 3.0], requires_grad=True)

    with T.inference_mode():
        ops = {
            "leaf_add_": lambda x: x.add_(1),
            "leaf_view_add_": lambda x: x[:2].add_(1),
            "nonleaf_add_": lambda x: (x * 1).add_(1),
            "out_rg": lambda x: T.add(x, 1, out=T.empty(3)),
            "out_into_rg": lambda x: T.add(T.ones(3), 1, out=x),
            "set_": lambda x: x.set_(T.zeros(2)),
            "detach_": lambda x: x.detach_(),
            "requires_grad_false": lambda x: x.requires_grad_(False),
            "zero_": lambda x: x.zero_(),
            "copy_": lambda x: x.copy_(T.zeros(3)),
            "setitem": lambda x: x.__setitem__(0, 5.0),
            "grad_set": lambda x: setattr(x, "grad", T.ones(3)),
            "retain_grad": lambda x: x.retain_grad(),
            "register_hook": lambda x: x.register_hook(lambda g: g),
            "backward": lambda x: (x * 2).sum().backward(),
        }
        for k, f in ops.items():
            x = fresh()
            r = raises(lambda f=f, x=x: f(x))
            out[k] = (
                "tensor" if isinstance(r, T.Tensor) else r,
                x.requires_grad,
                x.is_leaf,
                raises(lambda x=x: x._version),
                x.detach().tolist(),
            )
    x = fresh()
    with T.inference_mode():
        x.add_(1)
    out["after_leaf_add"] = (raises(lambda: (x * 2).sum().backward()), x.grad, x._version)
    return out


@program()
def prog_ag3_inference_mode_detach_and_views_of_requiring(T: Any) -> Any:
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    v = y[:1]
    with T.inference_mode():
        r = (x.detach_() is x, y.detach_() is y, v.detach_() is v)
        i = T.ones(2)
        i.detach_()
    out["detach_"] = (
        r,
        x.requires_grad,
        x.is_leaf,
        y.requires_grad,
        _name(y.grad_fn),
        v.requires_grad,
        v._is_view(),
        _name(v.grad_fn),
    )
    out["after"] = raises(lambda: ((y + v.sum()).sum().backward(), x.grad)[1])
    out["detach_outside"] = raises(lambda: v.detach_())
    return out


# --- inference tensors created with requires_grad -----------------------------------------


@program()
def prog_ag3_inference_tensors_requiring_grad(T: Any) -> Any:
    out = {}
    with T.inference_mode():
        r = T.ones(2, requires_grad=True)
        c = T.ones(2)
        out["in_mode"] = (
            r.requires_grad,
            r.is_inference(),
            r.is_leaf,
            raises(lambda: c.requires_grad_().requires_grad),
            raises(lambda: r.register_hook(lambda g: g) is not None),
            raises(lambda: r.retain_grad()),
            raises(lambda: (r * 2).requires_grad),
            raises(lambda: (r * 2).sum().backward()),
            raises(lambda: T.autograd.grad((r * 2).sum(), r)),
            raises(lambda: r.add_(1).tolist()),
        )
    out["outside"] = (
        r.requires_grad,
        raises(lambda: (r * 2).requires_grad),
        raises(lambda: _name((r * 2).grad_fn)),
        raises(lambda: (r * 2).sum().backward()),
        raises(lambda: (r + 2).sum().backward()),
        None if r.grad is None else (r.grad.tolist(), r.grad.is_inference()),
        raises(lambda: r.requires_grad_(False).requires_grad),
        raises(lambda: r.add_(1).tolist()),
        raises(lambda: r.register_hook(lambda g: g) is not None),
        raises(lambda: r.detach().requires_grad),
        raises(lambda: setattr(r, "grad", T.ones(2))),
        raises(lambda: None if r.grad is None else (r.grad.tolist(), r.grad.is_inference())),
    )
    return out


# --- saved tensors: identity and attributes of what comes back ----------------------------


@program()
def prog_ag3_saved_tensor_identity_attributes(T: Any) -> Any:
    out = {}
    a = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    parts = a.unbind(0)
    b = parts[1]
    c = b * b
    s = c.grad_fn._saved_self
    out["unbind_saved"] = (
        s.output_nr,
        _name(s.grad_fn),
        s is b,
        s.requires_grad,
        s.is_leaf,
        s._version,
    )
    e = a.exp()
    r = e.grad_fn._saved_result
    out["result"] = (r is e, r.grad_fn is e.grad_fn, r.output_nr, r.requires_grad, _name(r.grad_fn))
    m = a.max(1)
    out["multi_out_saved"] = raises(
        lambda: (m.values.grad_fn._saved_indices.tolist(), _name(m.values.grad_fn))
    )
    leaf_saved = (a * a).grad_fn._saved_self
    out["leaf"] = (
        leaf_saved is a,
        leaf_saved.is_leaf,
        leaf_saved.requires_grad,
        leaf_saved.grad is None,
    )
    v = a[0]
    sv = (v * v).grad_fn._saved_self
    out["view"] = (sv is v, sv._is_view(), _name(sv.grad_fn), sv._base is a)
    d = a.detach()
    sd = (a * d).grad_fn._saved_other
    out["detached"] = (sd is d, sd.requires_grad, sd._version)
    d.add_(1)
    out["detached_bumped"] = (raises(lambda: (a * d).grad_fn._saved_other._version), d._version)
    return out


# --- CPU autocast under backward ----------------------------------------------------------


@program()
def prog_ag3_autocast_cpu_gradients(T: Any) -> Any:
    out = {}
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    w = T.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    with T.autocast("cpu", dtype=T.bfloat16):
        y = x @ w
        z = (y.float() * 2).sum()
        out["fwd"] = (y.dtype, _name(y.grad_fn), [_name(n) for n, _ in y.grad_fn.next_functions])
    z.backward()
    out["grads"] = (x.grad, x.grad.dtype, w.grad, w.grad.dtype)
    x.grad = None
    with T.autocast("cpu", dtype=T.bfloat16):
        s = T.nn.functional.softmax(x, 1)
        lin = T.nn.functional.linear(x, w)
    out["softmax"] = (s.dtype, _name(s.grad_fn), lin.dtype, _name(lin.grad_fn))
    (s.sum() + lin.float().sum()).backward()
    out["grads2"] = (x.grad, x.grad.dtype)
    return out


# --- multi-output view chains and base modification ---------------------------------------


@program()
def prog_ag3_multi_output_view_chains_and_rebase(T: Any) -> Any:
    out = {}
    for name, make in (
        ("unbind", lambda b: b.unbind(0)),
        ("split", lambda b: b.split(1)),
        ("chunk", lambda b: b.chunk(2)),
        ("split_sizes", lambda b: b.split([1, 1])),
        ("tensor_split", lambda b: b.tensor_split(2)),
        ("unsafe_split", lambda b: T.unsafe_split(b, 1)),
    ):
        x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = x * 1
        parts = make(b)
        p0 = parts[0]
        vv = p0.view(-1)
        res = [
            _name(p0.grad_fn),
            raises(lambda p0=p0: p0.mul_(2) and "ok"),
            raises(lambda vv=vv: vv.add_(1) and "ok"),
        ]
        b.add_(1)
        res.append(raises(lambda p0=p0: _name(p0.grad_fn)))
        res.append(raises(lambda vv=vv: _name(vv.grad_fn)))
        res.append(raises(lambda p1=parts[1]: (p1 * 2).sum().backward()))
        out[name] = res
    return out


# --- custom Function: mark_dirty on a leaf by grad mode -----------------------------------


@program()
def prog_ag3_fn_mark_dirty_leaf_by_mode(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Dirty(F):
        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 2

    for mode in ("grad", "no_grad", "inference"):
        ctx = {"grad": T.enable_grad, "no_grad": T.no_grad, "inference": T.inference_mode}[mode]
        x = T.tensor([1.0, 2.0], requires_grad=True)
        with ctx():
            r = raises(lambda x=x: Dirty.apply(x))
        out[mode] = (
            "tensor" if isinstance(r, T.Tensor) else r,
            (r is x) if isinstance(r, T.Tensor) else None,
            x.requires_grad,
            x.is_leaf,
            x._version,
            x.detach().tolist(),
        )
    y = T.tensor([1.0, 2.0])
    with T.inference_mode():
        r = Dirty.apply(y)
    out["plain_in_inference"] = (r is y, y._version, y.is_inference(), r.requires_grad)
    return out


# --- custom Function: an input returned as-is without a node ------------------------------


@program()
def prog_ag3_fn_input_returned_as_is_without_node(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Ident(F):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def backward(ctx, g):
            return g

    cases = {}
    for mode in ("grad", "no_grad", "inference"):
        for rg in (False, True):
            ctx = {"grad": T.enable_grad, "no_grad": T.no_grad, "inference": T.inference_mode}[mode]
            x = T.tensor([1.0, 2.0], requires_grad=rg)
            with ctx():
                r = Ident.apply(x)
            cases[f"{mode}_{rg}"] = (
                r is x,
                r._is_view(),
                r._base is x,
                r.requires_grad,
                _name(r.grad_fn),
                r.is_inference(),
                raises(lambda r=r: r.add_(1) is r),
                x._version,
            )
    out.update(cases)
    return out


# --- custom Functions under torch.func grad/jvp/vjp and forward AD ------------------------


@program()
def prog_ag3_fn_under_func_grad_and_jvp(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Old(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    class New(F):
        @staticmethod
        def forward(x):
            return x**2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.save_for_forward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 2 * x * t

    x = T.tensor([1.0, 2.0, 3.0])
    out["old_grad"] = raises(lambda: T.func.grad(lambda a: Old.apply(a).sum())(x))
    out["new_grad"] = raises(lambda: T.func.grad(lambda a: New.apply(a).sum())(x))
    out["new_jvp"] = raises(lambda: T.func.jvp(New.apply, (x,), (T.ones(3),)))
    out["old_jvp"] = raises(lambda: T.func.jvp(Old.apply, (x,), (T.ones(3),)))
    out["new_vjp"] = raises(lambda: T.func.vjp(New.apply, x)[1](T.ones(3)))
    out["new_jacrev"] = raises(lambda: T.func.jacrev(New.apply)(x))
    out["new_plain"] = raises(
        lambda: (New.apply(x.clone().requires_grad_()).sum().backward(), "ok")[1]
    )
    y = x.clone().requires_grad_()
    out["new_backward"] = raises(lambda: (New.apply(y).sum().backward(), y.grad)[1])
    with T.autograd.forward_ad.dual_level():
        d = T.autograd.forward_ad.make_dual(x, T.ones(3))
        out["new_fwad"] = raises(lambda: T.autograd.forward_ad.unpack_dual(New.apply(d)).tangent)
        out["old_fwad"] = raises(lambda: T.autograd.forward_ad.unpack_dual(Old.apply(d)).tangent)
    return out


# --- node hooks on custom Function nodes --------------------------------------------------


@program()
def prog_ag3_hooks_on_custom_function_nodes(T: Any) -> Any:
    out = {}
    F = T.autograd.Function

    class Two(F):
        @staticmethod
        def forward(ctx, a, b):
            return a * b, a + b

        @staticmethod
        def backward(ctx, g1, g2):
            ctx.seen = (None if g1 is None else g1.tolist(), None if g2 is None else g2.tolist())
            return g1 + g2, g1 * 2 + g2

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    p, q = Two.apply(a, b)
    n = p.grad_fn
    log = []
    n.register_prehook(
        lambda go: (
            log.append(("pre", [None if g is None else g.tolist() for g in go])),
            (go[0] * 10, go[1]),
        )[1]
    )
    n.register_hook(
        lambda gi, go: (log.append(("post", [g.tolist() for g in gi])), (gi[0], None))[1]
    )
    p.register_hook(lambda g: (log.append(("p_tensor", g.tolist())), g + 1)[1])
    (p.sum() + (q * 3).sum()).backward()
    out["log"] = (log, n.seen, a.grad, b.grad)
    a.grad = b.grad = None
    log.clear()
    p2, _ = Two.apply(a, b)
    p2.grad_fn.register_prehook(lambda go: (go[0],))
    out["pre_wrong_count"] = raises(lambda: p2.sum().backward())
    p3, _ = Two.apply(a, b)
    p3.grad_fn.register_hook(lambda gi, go: (gi[0],))
    out["post_wrong_count"] = raises(lambda: p3.sum().backward())
    p4, _ = Two.apply(a, b)
    p4.grad_fn.register_hook(lambda gi, go: (gi[0].double(), gi[1]))
    out["post_dtype"] = raises(lambda: (p4.sum().backward(), a.grad)[1])
    return out


# --- end of programs ------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
