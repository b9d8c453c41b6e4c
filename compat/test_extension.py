"""Differential programs for the extension API: custom Functions, hooks, anomaly mode,
gradcheck, autograd.functional, forward AD and torch.func.

Each program is written once as `prog(T)` against the torch API and returns what it observed
(values, grads, grad_fn names, hook call orders, exception types and messages). It runs on torch
and on shadowgrad, and the observations must be equal (floats within a tolerance).
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import shadowgrad

from .program_set import ProgramSet

torch = pytest.importorskip("torch")

_SET = ProgramSet()
PROGRAMS = _SET.programs
XFAIL = _SET.xfail
program = _SET.program


# --- access to the modules under test -----------------------------------------------------


def fn_mod(T: Any) -> Any:
    """`T.autograd.function` (Function, once_differentiable)."""
    return importlib.import_module(T.__name__ + ".autograd.function")


def Function(T: Any) -> Any:
    return fn_mod(T).Function


def graph(T: Any) -> Any:
    """torch.autograd.graph; for shadowgrad, graph plus the saved-tensor hooks module."""
    if T is torch:
        return torch.autograd.graph
    from shadowgrad.autograd import graph as g
    from shadowgrad.autograd import saved_hooks as h

    class NS:
        pass

    ns = NS()
    for m in (g, h):
        for k in dir(m):
            if not k.startswith("__"):
                setattr(ns, k, getattr(m, k))
    return ns


def functional(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".autograd.functional")


def forward_ad(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".autograd.forward_ad")


def func(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".func")


def gradcheck_mod(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".autograd.gradcheck")


# --- observation --------------------------------------------------------------------------

_SUFFIX = re.compile(r" \(Triggered internally at .*\)$", re.S)


def strip(msg: str) -> str:
    from .engines import normalize_message

    msg = normalize_message(_SUFFIX.sub("", str(msg)))
    return re.sub(r"0x[0-9a-f]+", "0x?", msg)


def raises(f: Callable[[], Any]) -> Any:
    """f()'s result, or ('raised', type name, message) if it raised."""
    try:
        return f()
    except Exception as e:
        return ("raised", type(e).__name__, strip(str(e)))


def warns(f: Callable[[], Any]) -> tuple[Any, list[tuple[str, str]]]:
    """(f()'s result or its exception, the warnings it emitted)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = raises(f)
    return r, [(x.category.__name__, strip(str(x.message))) for x in w]


def name(node: Any) -> Any:
    return None if node is None else type(node).__name__


def observe(x: Any) -> Any:
    if isinstance(x, (torch.Tensor, shadowgrad.Tensor)):
        arr = x.detach().numpy()
        return (
            "tensor",
            str(x.dtype),
            tuple(x.shape),
            np.array(arr, copy=True),
            x.requires_grad,
            x.is_leaf,
            name(x.grad_fn),
        )
    if isinstance(x, (torch.dtype, shadowgrad.dtype)):
        return ("dtype", str(x))
    if isinstance(x, (torch.autograd.graph.Node, shadowgrad.autograd.graph.Node)):
        return ("node", name(x))
    if isinstance(x, dict):
        return {k: observe(v) for k, v in x.items()}
    if isinstance(x, (tuple, list)):
        return type(x).__name__, [observe(v) for v in x]
    if isinstance(x, BaseException):
        return ("raised", type(x).__name__, strip(str(x)))
    return x


def assert_same(sg: Any, th: Any, path: str = "result") -> None:
    if isinstance(th, np.ndarray):
        assert isinstance(sg, np.ndarray), f"{path}: {sg!r} vs torch array"
        assert sg.shape == th.shape, f"{path}: shape {sg.shape} vs torch {th.shape}"
        if th.dtype.kind in "fc":
            assert np.allclose(sg, th, rtol=1e-4, atol=1e-5, equal_nan=True), (
                f"{path}: {sg!r} vs torch {th!r}"
            )
        else:
            assert np.array_equal(sg, th), f"{path}: {sg!r} vs torch {th!r}"
        return
    if isinstance(th, dict):
        assert isinstance(sg, dict) and sg.keys() == th.keys(), f"{path}: {sg!r} vs torch {th!r}"
        for k in th:
            assert_same(sg[k], th[k], f"{path}[{k!r}]")
        return
    if isinstance(th, (tuple, list)):
        assert isinstance(sg, (tuple, list)) and len(sg) == len(th), (
            f"{path}: {sg!r} vs torch {th!r}"
        )
        for i, (a, b) in enumerate(zip(sg, th, strict=True)):
            assert_same(a, b, f"{path}[{i}]")
        return
    if isinstance(th, float) and isinstance(sg, float):
        assert np.isclose(sg, th, rtol=1e-4, atol=1e-6, equal_nan=True), f"{path}: {sg} vs {th}"
        return
    assert sg == th, f"{path}: shadowgrad {sg!r} vs torch {th!r}"


# ==========================================================================================
# 7. autograd.Function
# ==========================================================================================


def _exp_fn(T: Any) -> Any:
    class Exp(Function(T)):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            ctx.tag = "hello"
            ctx.grad_mode = T.is_grad_enabled()
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    return Exp


@program
def function_basic(T: Any) -> Any:
    Exp = _exp_fn(T)
    x = T.tensor([0.0, 1.0, -1.0], requires_grad=True)
    y = Exp.apply(x)
    gf = y.grad_fn
    r = {
        "y": y,
        "name": gf.name(),
        "cls": Exp._backward_cls.__name__,
        "same_cls": type(gf) is Exp._backward_cls,
        "is_node": isinstance(gf, T.autograd.graph.Node),
        "tag": gf.tag,
        "grad_mode_in_forward": gf.grad_mode,
        "next": [(name(n), i) for n, i in gf.next_functions],
        "repr": repr(y),
        "needs": gf.needs_input_grad,
        "saved": gf.saved_tensors,
    }
    y.sum().backward()
    r["x.grad"] = x.grad
    r["after_free"] = raises(lambda: gf.saved_tensors)
    return r


@program
def function_outputs_requires_grad(T: Any) -> Any:
    class F(Function(T)):
        @staticmethod
        def forward(ctx, x, k, y):
            return x * k, 5, T.tensor([1, 2]), T.ones(2), None

        @staticmethod
        def backward(ctx, g, g5, gi, go, gn):
            return g * 2, None, None

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0])
    out = F.apply(x, 3, y)
    with T.no_grad():
        nog = F.apply(x, 3, y)
    plain = F.apply(y, 3, y)
    return {
        "out": out,
        "nr": [o.output_nr for o in out if isinstance(o, type(x))],
        "next": [(name(n), i) for n, i in out[0].grad_fn.next_functions],
        "nog": nog,
        "plain": plain,
        "single_none": _none_fn(T).apply(x),
    }


def _none_fn(T: Any) -> Any:
    class N(Function(T)):
        @staticmethod
        def forward(ctx, x):
            return None

        @staticmethod
        def backward(ctx, g):
            return g

    return N


@program
def function_backward_receives(T: Any) -> Any:
    seen = []

    class G(Function(T)):
        @staticmethod
        def forward(ctx, x):
            return 5, x * 2, x * 3

        @staticmethod
        def backward(ctx, g5, g1, g2):
            seen.append((g5, g1, g2))
            return g1

    x = T.tensor([1.0, 2.0], requires_grad=True)
    o = G.apply(x)
    o[1].sum().backward()
    return seen, x.grad


@program
def function_save_for_backward(T: Any) -> Any:
    class S(Function(T)):
        @staticmethod
        def forward(ctx, x, w):
            ctx.inside = ctx.saved_tensors
            h = x * 2
            ctx.save_for_backward(x, None)
            ctx.save_for_backward(x, None, h, w)  # a second call replaces the first
            out = h * w
            return out

        @staticmethod
        def backward(ctx, g):
            _x, _n, h, w = ctx.saved_tensors
            return g * w * 2, g * h

    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    out = S.apply(x, w)
    r = {"inside": out.grad_fn.inside, "saved": out.grad_fn.saved_tensors}
    out.sum().backward(retain_graph=True)
    r["grads"] = (x.grad, w.grad)
    w2 = T.tensor([3.0, 4.0])
    out2 = S.apply(x, w2)
    with T.no_grad():
        w2.add_(1)
    r["modified"] = raises(lambda: out2.sum().backward())
    return r


@program
def function_save_non_tensor(T: Any) -> Any:
    class S(Function(T)):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.tensor([1.0], requires_grad=True)
    return raises(lambda: S.apply(x)), raises(lambda: S.apply(T.tensor([1.0])))


@program
def function_saved_output_modified(T: Any) -> Any:
    Exp = _exp_fn(T)
    x = T.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    y2 = y * 1  # noqa: F841 - keeps a second consumer
    with T.no_grad():
        pass
    z = y.sum()
    y.mul_(2)
    return raises(lambda: z.backward()), y


@program
def function_ctx_attribute_bypasses_versions(T: Any) -> Any:
    class A(Function(T)):
        @staticmethod
        def forward(ctx, x, w):
            ctx.w = w
            return x * w

        @staticmethod
        def backward(ctx, g):
            return g * ctx.w, None

    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0])
    out = A.apply(x, w)
    w.add_(10)
    out.sum().backward()
    return x.grad


@program
def function_needs_input_grad(T: Any) -> Any:
    seen = []

    class F(Function(T)):
        @staticmethod
        def forward(ctx, a, b, k):
            seen.append(ctx.needs_input_grad)
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g, g, None

    a = T.tensor([1.0], requires_grad=True)
    b = T.tensor([2.0])
    out = F.apply(a, b, 3)
    out.backward()
    with T.no_grad():
        F.apply(a, b, 3)
    return seen, out.grad_fn.needs_input_grad, a.grad


def _returning(T: Any, ret: Callable[[Any], Any], n_in: int = 1) -> Any:
    class Bad(Function(T)):
        @staticmethod
        def forward(ctx, x, *rest):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return ret(g)

    return Bad


@program
def function_wrong_grads(T: Any) -> Any:
    res = {}
    cases = {
        "too_many": lambda g: (g, g),
        "too_few": lambda g: (),
        "extra_none": lambda g: (g, None, None),
        "float": lambda g: 2.0,
        "shape3": lambda g: T.ones(3),
        "shape12": lambda g: T.ones(1, 2),
        "shape0d": lambda g: T.ones(()),
        "float64": lambda g: T.ones(2, dtype=T.float64),
    }
    for k, ret in cases.items():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        Bad = _returning(T, ret)
        res[k] = raises(lambda Bad=Bad, x=x: (Bad.apply(x).sum().backward(), x.grad)[1])
    x = T.tensor([1.0, 2.0], requires_grad=True)
    x64 = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    res["f32_for_f64"] = raises(
        lambda: (_returning(T, lambda g: T.ones(2)).apply(x64).sum().backward(), x64.grad)[1]
    )

    class NT(Function(T)):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g

    res["non_tensor_input"] = raises(lambda: NT.apply(x, 2).sum().backward())

    class Drop(Function(T)):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, T.ones(5)  # y doesn't require grad: dropped without a check

    y = T.tensor([1.0, 1.0])
    Drop.apply(x, y).sum().backward()
    res["dropped"] = (x.grad, y.grad)
    return res


@program
def function_no_backward(T: Any) -> Any:
    class NB(Function(T)):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    x = T.tensor([1.0], requires_grad=True)
    return raises(lambda: NB.apply(x).sum().backward())


@program
def function_mark_dirty(T: Any) -> Any:
    class D(Function(T)):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class D2(Function(T)):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * 2

    leaf = T.tensor([1.0, 2.0], requires_grad=True)
    r = {"leaf": raises(lambda: D.apply(leaf)), "leaf_after": leaf}
    z = leaf * 1
    out = D.apply(z)
    r["same_object"] = out is z
    r["version"] = z._version
    r["out"] = out
    out.sum().backward()
    r["grad"] = leaf.grad
    plain = T.tensor([1.0, 2.0])
    p = D.apply(plain)
    r["plain"] = (p is plain, plain._version, p)
    r["not_returned"] = raises(lambda: D2.apply(leaf * 1))
    return r


@program
def function_return_input_is_view(T: Any) -> Any:
    class Id(Function(T)):
        @staticmethod
        def forward(ctx, x, y):
            return x, y

        @staticmethod
        def backward(ctx, g, h):
            return g * 3, h

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([1.0, 1.0])
    o, p = Id.apply(x, y)
    r = {
        "o": (o is x, o._is_view(), o._base is x, o),
        "p": (p is y, p._is_view(), p._base is y, p),
        "x_grad_fn": x.grad_fn,
    }
    o.sum().backward()
    r["x.grad"] = x.grad
    q, _ = Id.apply(y, y)
    r["plain"] = (q is y, q._is_view(), q)
    with T.no_grad():
        n, _ = Id.apply(x, y)
    r["no_grad"] = (n is x, n._is_view(), n)
    return r


@program
def function_view_inplace_error(T: Any) -> Any:
    class ViewOut(Function(T)):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.tensor([1.0, 2.0], requires_grad=True)
    v = ViewOut.apply(x * 1)
    return raises(lambda: v.mul_(2))


@program
def function_mark_non_differentiable(T: Any) -> Any:
    seen = []

    class ND(Function(T)):
        @staticmethod
        def forward(ctx, x):
            s = x.sum()
            i = T.tensor([0, 1])
            f = x * 2
            ctx.mark_non_differentiable(i, f)
            return s, i, T.tensor(0), f

        @staticmethod
        def backward(ctx, g, gi, g0, gf):
            seen.append((g, gi, g0, gf))
            return g * T.ones(2)

    x = T.tensor([1.0, 2.0], requires_grad=True)
    s, i, i0, f = ND.apply(x)
    s.backward()
    return (s, i, i0, f), seen, x.grad


@program
def function_materialize_grads(T: Any) -> Any:
    seen = []

    def make(mat: bool) -> Any:
        class M(Function(T)):
            @staticmethod
            def forward(ctx, x):
                if not mat:
                    ctx.set_materialize_grads(False)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, a, b):
                seen.append((a, b))
                return a

        return M

    x = T.tensor([1.0, 2.0], requires_grad=True)
    for mat in (True, False):
        a, _ = make(mat).apply(x)
        a.sum().backward()
    return seen


@program
def function_setup_context(T: Any) -> Any:
    seen = []

    class SC(Function(T)):
        @staticmethod
        def forward(x, k=2):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append((inputs, output.requires_grad, T.is_grad_enabled()))
            ctx.k = inputs[1]
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.k + 0 * x, None

    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = SC.apply(x)
    b = SC.apply(x, k=3)
    (a + b).sum().backward()
    return seen, a, b, x.grad


@program
def function_kwargs_old_style(T: Any) -> Any:
    class K(Function(T)):
        @staticmethod
        def forward(ctx, x, w=None, scale=1.0):
            ctx.scale = scale
            return x * scale * w

        @staticmethod
        def backward(ctx, g):
            return g * ctx.scale, g, None

    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([1.0, 3.0], requires_grad=True)
    y = K.apply(x, scale=4.0, w=w)
    y.sum().backward()
    r = [y, x.grad, w.grad, y.grad_fn.needs_input_grad, len(y.grad_fn.next_functions)]

    class K2(Function(T)):
        @staticmethod
        def forward(ctx, x, scale=1.0, w=None):
            return x

    r.append(raises(lambda: K2.apply(x, w=w)))
    r.append(raises(lambda: K2.apply(x, z=w)))
    return r


@program
def function_once_differentiable(T: Any) -> Any:
    od = fn_mod(T).once_differentiable

    class Od(Function(T)):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @od
        def backward(ctx, g):
            return g * 3

    x = T.tensor([1.0, 2.0], requires_grad=True)
    o = Od.apply(x)
    (g1,) = T.autograd.grad(o.sum(), x, create_graph=True)
    gg = T.ones(2, requires_grad=True)
    (g2,) = T.autograd.grad(o, x, gg, create_graph=True)
    return {
        "g1": g1,
        "g2": g2,
        "g2_name": g2.grad_fn.name(),
        "g2_next": [(name(n), i) for n, i in g2.grad_fn.next_functions],
        "twice": raises(lambda: g2.sum().backward()),
        "twice_no_rg": raises(lambda: g1.sum().backward()),
        "plain": Od.backward(None, T.ones(2)),
    }


@program
def function_double_backward(T: Any) -> Any:
    class Sq(Function(T)):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g

    a = T.tensor([1.0, 3.0], requires_grad=True)
    (g,) = T.autograd.grad(Sq.apply(a).sum(), a, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), a)
    return g, gg


@program
def function_legacy_instantiation(T: Any) -> Any:
    Exp = _exp_fn(T)
    x = T.tensor([1.0], requires_grad=True)

    def run() -> Any:
        return Exp()(x)

    r, w = warns(run)
    w = [(c, m.replace("compat.test_extension.", "").split("'>")[-1]) for c, m in w]
    return r, w


@program
def function_hooks_on_custom_node(T: Any) -> Any:
    order = []
    Exp = _exp_fn(T)
    x = T.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    y.grad_fn.register_prehook(lambda go: order.append(("pre", go)))
    y.grad_fn.register_hook(lambda gi, go: order.append(("post", gi, go)))
    y.register_hook(lambda g: order.append(("tensor", g)))
    y.sum().backward()
    return order


@program
def function_direct_node_call(T: Any) -> Any:
    Exp = _exp_fn(T)
    x = T.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    return raises(lambda: y.grad_fn(T.ones(2))), y.grad_fn.apply(T.ones(2))


@program
def function_anomaly_nan(T: Any) -> Any:
    class NanFn(Function(T)):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = T.tensor([1.0], requires_grad=True)

    def run() -> Any:
        with T.autograd.detect_anomaly():
            NanFn.apply(x).sum().backward()

    r, w = warns(run)
    return r, [m.split("\n")[0] for _, m in w]


# ==========================================================================================
# 6.7 / 8. Hooks
# ==========================================================================================


@program
def hooks_tensor_order_and_replacement(T: Any) -> Any:
    order = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    h1 = y.register_hook(lambda g: order.append(("h1", g)) or g * 10)
    y.register_hook(lambda g: order.append(("h2", g)))
    x.register_hook(lambda g: order.append(("leaf", g)))
    x.register_post_accumulate_grad_hook(lambda t: order.append(("post", t.grad)))
    y.sum().backward(retain_graph=True)
    h1.remove()
    h1.remove()
    (y * 1).sum().backward()
    return order, x.grad, y.grad, type(h1).__name__


@program
def hooks_errors(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    r = {"no_grad": raises(lambda: T.tensor([1.0]).register_hook(lambda g: g))}
    for k, fn in {
        "size": lambda g: T.ones(3),
        "type": lambda g: g.double(),
        "int": lambda g: 1,
    }.items():
        y = x * 2
        y.register_hook(fn)
        r[k] = raises(lambda y=y: y.sum().backward())
    r["post_nonleaf"] = raises(lambda: (x * 2).register_post_accumulate_grad_hook(print))
    return r


@program
def hooks_used_twice_fire_once(T: Any) -> Any:
    seen = []
    q = T.tensor(1.0, requires_grad=True)
    a = q * 2
    a.register_hook(lambda g: seen.append(g))
    (a * 3 + a * 4).backward()
    return seen


@program
def hooks_node_pre_and_post(T: Any) -> Any:
    order = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    y.grad_fn.register_prehook(lambda go: order.append(("pre", go)) or (go[0] * 2,))
    y.grad_fn.register_hook(lambda gi, go: order.append(("post", gi, go)) or (gi[0], None))
    y.sum().backward()
    z = x * w
    z.grad_fn.register_hook(lambda gi, go: (gi[0],))
    return order, x.grad, w.grad, raises(lambda: z.sum().backward())


@program
def hooks_grad_mode_and_autograd_grad(T: Any) -> Any:
    modes = []
    x = T.tensor([1.0], requires_grad=True)
    y = x * x
    y.register_hook(lambda g: modes.append(T.is_grad_enabled()))
    x.register_post_accumulate_grad_hook(lambda t: modes.append("post"))
    T.autograd.grad(y, x, retain_graph=True)
    T.autograd.grad(y, x, create_graph=True)
    return modes


@program
def saved_tensors_hooks_pack_unpack(T: Any) -> Any:
    g = graph(T)
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape), T.is_grad_enabled()))
        return t

    def unpack(t):
        log.append("unpack")
        return t

    x = T.tensor([1.0, 2.0], requires_grad=True)
    with g.saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()
        e = x.exp()
    y.backward()
    e.sum().backward()
    return log, x.grad


@program
def saved_tensors_hooks_innermost_and_no_version_check(T: Any) -> Any:
    g = graph(T)
    log = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    with (
        g.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t),
        g.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda t: t),
    ):
        y = (a * a).sum()
    a.mul_(10)  # no version error under hooks: backward sees the new values
    y.backward()
    bad = T.tensor([1.0], requires_grad=True)
    with g.saved_tensors_hooks(lambda t: t, lambda t: 1):
        z = (bad * bad).sum()
    with g.disable_saved_tensors_hooks("no hooks here"):
        dis = raises(lambda: g.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    return log, x.grad, raises(lambda: z.backward()), dis


@program
def saved_tensors_hooks_unpacked_tensor_keeps_autograd_identity(T: Any) -> Any:
    # torch's SavedVariable gives the unpack hook's data the saved tensor's grad_fn (the node
    # itself for a saved output), requires_grad and leaf-ness, so double backward works even
    # when the hooks store detached copies
    g = graph(T)
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = x * 2
    with g.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y = w.exp()
        z = w.sin()
        u = x.cos()
    r, s, v = y.grad_fn._saved_result, z.grad_fn._saved_self, u.grad_fn._saved_self
    ident = [
        (t is src, t.grad_fn.name() if t.grad_fn else None, t.requires_grad, t.is_leaf)
        for t, src in ((r, y), (s, w), (v, x))
    ]
    (gx,) = T.autograd.grad((y + z + u).sum(), x, create_graph=True)
    return ident, gx.grad_fn.name(), gx, T.autograd.grad(gx.sum(), x)


@program
def save_on_cpu_same_results(T: Any) -> Any:
    g = graph(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with g.save_on_cpu():
        y = (x * x.exp()).sum()
    y.backward()
    return x.grad


# ==========================================================================================
# 9. Anomaly mode
# ==========================================================================================


@program
def anomaly_flags_and_nan(T: Any) -> Any:
    r = {"default": (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())}
    x = T.tensor([0.0, 1.0], requires_grad=True)
    (T.sqrt(x) * 0).sum().backward()
    r["silent"] = x.grad

    def nan_run(check_nan: bool) -> Any:
        x = T.tensor([0.0, 1.0], requires_grad=True)
        with T.autograd.detect_anomaly(check_nan=check_nan):
            r["inside"] = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())
            (x.sqrt() * 0).sum().backward()
        return x.grad

    res, w = warns(lambda: nan_run(True))
    r["nan"] = (res, [m.split("\n")[0] for _, m in w])
    r["no_check"] = warns(lambda: nan_run(False))
    res, w = warns(lambda: T.autograd.set_detect_anomaly(True))
    r["set"] = (T.is_anomaly_enabled(), w)
    T.autograd.set_detect_anomaly(False)
    r["after"] = T.is_anomaly_enabled()
    with T.autograd.set_detect_anomaly(True):
        r["ctx"] = T.is_anomaly_enabled()
    r["restored"] = T.is_anomaly_enabled()
    r["not_decorator"] = raises(lambda: T.autograd.detect_anomaly()(lambda: 1))
    return r


@program
def anomaly_inplace_hint(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)

    def run() -> Any:
        with T.autograd.detect_anomaly():
            y = x.sigmoid()
            y.mul_(2)
            y.sum().backward()

    res, w = warns(run)
    return res, [m.split("\n")[0] for _, m in w]


# ==========================================================================================
# 10. gradcheck
# ==========================================================================================


@program
def gradcheck_results_and_errors(T: Any) -> Any:
    gc = gradcheck_mod(T)

    class Half(Function(T)):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    c = T.tensor([1.0, 2.0], dtype=T.float64)

    def first_lines(f: Callable[[], Any]) -> Any:
        try:
            return f()
        except gc.GradcheckError as e:
            lines = str(e).split("\n")
            return ("GradcheckError", lines[:5] if "fast" not in str(e) else lines[0])

    return {
        "ok": T.autograd.gradcheck(lambda a: (a * a).sum(), (x,)),
        "ok_fast": T.autograd.gradcheck(lambda a: a.exp(), x, fast_mode=True),
        "gg": T.autograd.gradgradcheck(lambda a: a * a * a, (x,)),
        "slow": first_lines(lambda: T.autograd.gradcheck(lambda c, a: Half.apply(a) * c, (c, x))),
        "fast": first_lines(lambda: T.autograd.gradcheck(Half.apply, (x,), fast_mode=True)),
        "false": T.autograd.gradcheck(Half.apply, (x,), raise_exception=False),
        "no_rg": raises(lambda: T.autograd.gradcheck(lambda a: a, (c,))),
        "f32": warns(
            lambda: T.autograd.gradcheck(
                lambda a: a * 2, (T.tensor([1.0], requires_grad=True),), eps=1e-2, atol=1e-2
            )
        ),
        "is_runtime": issubclass(gc.GradcheckError, RuntimeError),
    }


# ==========================================================================================
# 11. autograd.functional
# ==========================================================================================


@program
def functional_values_and_structure(T: Any) -> Any:
    F = functional(T)
    x = T.tensor([1.0, 3.0])
    ones = T.ones(2)
    return {
        "jac": F.jacobian(lambda a: a**2 * T.tensor([1.0, 2.0]), x),
        "x_untouched": x.requires_grad,
        "jac_tuple": F.jacobian(lambda a, b: (a * b, (a + b).sum()), (x, x)),
        "jac_cg": F.jacobian(lambda a: a**2, x, create_graph=True),
        "hes": F.hessian(lambda a: (a**3).sum(), x),
        "hes_tuple": F.hessian(lambda a, b: (a * b * b).sum(), (x, x)),
        "vjp": F.vjp(lambda a: a**2 * T.tensor([1.0, 2.0]), x, ones),
        "vjp_scalar": F.vjp(lambda a: (a**2).sum(), x),
        "jvp": F.jvp(lambda a: a**2, x, ones),
        "jvp_tuple": F.jvp(lambda a, b: (a * b, a + b), (x, x), (ones, ones)),
        "hvp": F.hvp(lambda a: (a**3).sum(), x, ones),
        "vhp": F.vhp(lambda a: (a**3).sum(), x, ones),
        "nonstrict_zero": F.jacobian(lambda a: T.ones(2), x),
        "vectorize": F.jacobian(lambda a: a.exp(), x, vectorize=True),
    }


@program
def functional_errors(T: Any) -> Any:
    F = functional(T)
    x = T.tensor([1.0, 3.0])
    return {
        "list": raises(lambda: F.jacobian(lambda a: a, [x])),
        "tuple_elem": raises(lambda: F.jacobian(lambda a, b: a, (x, 2))),
        "out_float": raises(lambda: F.jacobian(lambda a: 1.0, x)),
        "strict": raises(lambda: F.jacobian(lambda a: T.ones(2), x, strict=True)),
        "strict_indep": raises(lambda: F.vjp(lambda a: T.ones(2), x, T.ones(2), strict=True)),
        "fwd": raises(lambda: F.jacobian(lambda a: a, x, strategy="forward-mode")),
        "fwd_cg": raises(
            lambda: F.jacobian(lambda a: a, x, strategy="forward-mode", create_graph=True)
        ),
        "hes_vec": raises(lambda: F.hessian(lambda a: a, x)),
        "hes_tuple": raises(lambda: F.hessian(lambda a: (a.sum(),), x)),
        "vjp_none": raises(lambda: F.vjp(lambda a: a, x)),
        "jvp_none": raises(lambda: F.jvp(lambda a: a, x)),
        "v_size": raises(lambda: F.vjp(lambda a: a, x, T.ones(3))),
        "v_len": raises(lambda: F.vjp(lambda a, b: (a, b), (x, x), (T.ones(2),))),
        "v_entry": raises(lambda: F.vjp(lambda a, b: (a, b), (x, x), (T.ones(2), T.ones(3)))),
        "v_single": raises(lambda: F.vjp(lambda a: a, x, (T.ones(2), T.ones(2)))),
        "hvp_vec": raises(lambda: F.hvp(lambda a: a, x, T.ones(2))),
    }


# ==========================================================================================
# Running
# ==========================================================================================


@program
def multi_grad_hook_all_and_any(T: Any) -> Any:
    a = T.ones(2, requires_grad=True)
    b = T.ones(2, requires_grad=True)
    c = T.ones(2, requires_grad=True)
    seen: list[Any] = []
    anys: list[Any] = []
    graph = T.autograd.graph
    graph.register_multi_grad_hook(
        [a, b, c], lambda gs: seen.append([None if g is None else g.tolist() for g in gs])
    )
    (a * 2 + b).sum().backward()
    (a * 3).sum().backward()
    graph.register_multi_grad_hook([a, b], lambda g: anys.append(g.tolist()), mode="any")
    (a * 2 + b * 5).sum().backward()
    (b * 7).sum().backward()
    return {"all": seen, "any": anys}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    _SET.check(name, observe, assert_same, torch, shadowgrad)
