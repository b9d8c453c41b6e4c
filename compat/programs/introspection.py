"""Section 6: graph introspection: grad_fn, next_functions, AccumulateGrad, metadata, hooks."""

from __future__ import annotations

from typing import Any

from ..engines import raises
from . import program


@program("6.1")
def prog_grad_fn_identity_and_names(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    gf = y.grad_fn
    return {
        "same": y.grad_fn is gf,
        "name": gf.name(),
        "module": type(gf).__module__,
        "is_node": isinstance(gf, T.autograd.graph.Node),
        "acc_is_node": isinstance(gf.next_functions[0][0], T.autograd.graph.Node),
    }


@program(
    "6.1",
)
def prog_sequence_nr_is_a_method(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = (x * 2).grad_fn
    b = (x * 3).grad_fn
    return {"grows": b._sequence_nr() > a._sequence_nr()}


@program("6.2")
def prog_next_functions(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    i = T.tensor([1, 2])
    y = (x * x).sum()
    y.backward()
    return {
        "x+1": (x + 1).grad_fn,
        "1+x": (1 + x).grad_fn,
        "x*int": (x * i).grad_fn,
        "1-x": (1 - x).grad_fn,
        "2/x": (2 / x).grad_fn,
        "after_backward": y.grad_fn,
        "chain": ((x * 2).exp() + x).tanh().sum().grad_fn,
    }


@program("6.3")
def prog_accumulate_grad_node(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = (x * 2).grad_fn.next_functions[0][0]
    b = (x + 2).grad_fn.next_functions[0][0]
    return {
        "name": a.name(),
        "cls": type(a).__name__,
        "variable": a.variable is x,
        "next": a.next_functions,
        "cached": a is b,
        "leaf_grad_fn": x.grad_fn,
    }


@program("6.4")
def prog_metadata(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    y = x * 2
    empty = dict(y.grad_fn.metadata)
    y.grad_fn.metadata["k"] = 1
    return {"empty": empty, "kept": dict(y.grad_fn.metadata)}


@program("6.5")
def prog_saved_values_through_node(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    e = x.exp()
    p = x**2
    s = (y + e + p).sum()
    out = {
        "self_is_x": y.grad_fn._saved_self is x,
        "other_is_w": y.grad_fn._saved_other is w,
        "result": e.grad_fn._saved_result,
        "result_is_not_e": e.grad_fn._saved_result is not e,
        "exponent": p.grad_fn._saved_exponent,
    }
    s.backward()
    out["freed"] = raises(lambda: y.grad_fn._saved_self)
    return out


@program("6.5")
def prog_single_saved_values(T: Any) -> Any:
    """Nodes whose one input requiring grad saves one value (a number, an input, the result),
    before and after backward, under saved-tensor hooks, and re-saved by an in-place op."""
    x = T.tensor([1.0, -2.0], requires_grad=True)
    k = T.tensor([3.0, 5.0])
    m = x * 2.5  # a saved number
    n = x * k  # a saved input that needs no grad
    e = x.exp()  # the saved result
    t = x.tanh()
    u = x * 1  # a view-free copy to modify in place
    u.exp_()  # ExpBackward0 re-saves the modified tensor as its result
    out: dict[str, Any] = {
        "number": m.grad_fn._saved_other,
        "input_is_k": n.grad_fn._saved_other is k,
        "result": e.grad_fn._saved_result,
        "tanh_result": t.grad_fn._saved_result,
        "inplace_result": u.grad_fn._saved_result,
    }
    (m + n + e + t + u).sum().backward()
    out["grad"] = x.grad
    for name, y in (("m", m), ("n", n), ("e", e), ("t", t), ("u", u)):
        attr = "_saved_result" if name in "etu" else "_saved_other"
        out[f"freed_{name}"] = raises(lambda y=y, attr=attr: getattr(y.grad_fn, attr))
    out["again"] = raises(lambda: m.sum().backward())
    packed: list[Any] = []

    def pack(v: Any) -> Any:
        packed.append(tuple(v.shape))
        return v * 1

    with T.autograd.graph.saved_tensors_hooks(pack, lambda v: v):
        z = x * 2.5
        w = x.exp()
    out["packed"] = packed
    out["hooked"] = (z.grad_fn._saved_other, w.grad_fn._saved_result)
    (gz,) = T.autograd.grad((z + w).sum(), x, create_graph=True)
    out["create_graph"] = gz
    out["double"] = T.autograd.grad(gz.sum(), x)
    return out


@program("6.6")
def prog_call_node_directly(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    return (x * w).grad_fn(T.ones(2))


@program(
    "6.7",
)
def prog_node_hook_order_and_returns(T: Any) -> Any:
    log: list[Any] = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    gf = y.grad_fn
    gf.register_prehook(lambda go: log.append(("pre", len(go))))
    gf.register_hook(lambda gi, go: log.append(("post", len(gi), len(go))))
    gf.register_hook(lambda gi, go: (gi[0] * 10, None))
    acc = gf.next_functions[0][0]
    acc.register_prehook(lambda go: log.append(("acc_pre", len(go))))
    acc.register_hook(lambda gi, go: log.append(("acc_post", len(gi), len(go))))
    y.register_hook(lambda g: log.append("tensor_hook"))
    y.sum().backward()
    return {"log": log, "x.grad": x.grad, "w.grad": w.grad}


@program("6.7")
def prog_node_hooks_on_op_nodes(T: Any) -> Any:
    log: list[Any] = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    gf = y.grad_fn
    gf.register_prehook(lambda go: log.append(("pre", len(go))))
    gf.register_hook(lambda gi, go: log.append(("post", len(gi), len(go))))
    gf.register_hook(lambda gi, go: (gi[0] * 10, None))
    y.register_hook(lambda g: log.append("tensor_hook"))
    y.sum().backward()
    return {"log": log, "x.grad": x.grad, "w.grad": w.grad}


@program("6.7")
def prog_node_hook_wrong_arity(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = x * w

    def bad(gi: Any, go: Any) -> Any:
        return (gi[0],)

    y.grad_fn.register_hook(bad)
    return raises(lambda: y.sum().backward())


@program("8.x")
def prog_tensor_hook_order(T: Any) -> Any:
    log: list[Any] = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = x * 3
    a.register_hook(lambda g: log.append(("a", g.tolist())))
    b.register_hook(lambda g: log.append(("b", g.tolist())))
    x.register_hook(lambda g: log.append(("x1", g.tolist())))
    h = x.register_hook(lambda g: log.append(("removed", g.tolist())))
    x.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: log.append(("x3", g.tolist())))
    h.remove()
    (a * b).sum().backward()
    return {"log": log, "x.grad": x.grad}


@program("6.1", warnings=False)  # torch's first forward-AD use warns about torch.jit
def prog_nodes_without_a_derivative(T: Any) -> Any:
    # torch records floor_divide with a NotImplemented node: one edge per input that requires
    # grad; backward through it raises, and forward AD refuses it
    x = T.tensor([0.5, 1.5], requires_grad=True)
    y = T.floor_divide(x, T.tensor([1.0, 2.0]))
    fa = T.autograd.forward_ad
    with fa.dual_level():
        d = fa.make_dual(T.tensor([0.5, 1.5]), T.ones(2))
        fwd = raises(lambda: T.floor_divide(d, 2))
    return {
        "name": y.grad_fn.name(),
        "edges": len(y.grad_fn.next_functions),
        "backward": raises(lambda: y.sum().backward()),
        "forward_ad": fwd,
    }


@program("6.5")
def prog_saved_attribute_names(T: Any) -> Any:
    """dir(grad_fn) lists a `_saved_<name>` property per saved variable and `_raw_saved_<name>`
    for a tensor one (torch's generated nodes), and a node answers requires_grad."""
    x = T.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    w = T.tensor([[3.0, 4.0], [1.0, 2.0]], requires_grad=True)
    nodes = {
        "mul": x * w,
        "mul_number": x * 2.5,
        "add": x + w,
        "exp": x.exp(),
        "tanh": x.tanh(),
        "sigmoid": x.sigmoid(),
        "relu": x.relu(),
        "pow": x.pow(2),
        "div": x / w,
        "sum": x.sum(),
        "view": x.view(4),
        "softmax": x.softmax(1),
        "log_softmax": x.log_softmax(1),
        "mse": T.nn.functional.mse_loss(x, w),
        "where": T.where(x > 0, x, w),
        "clamp": x.clamp(-1, 1),
        "sqrt": x.abs().sqrt(),
        "norm": x.norm(),
    }
    out: dict[str, Any] = {}
    for k, y in nodes.items():
        fn = y.grad_fn
        out[k] = [a for a in dir(fn) if a.startswith(("_saved_", "_raw_saved_"))]
        out[k + ".requires_grad"] = fn.requires_grad
    return out
