"""Section 3: torch.autograd.grad and its options."""

from __future__ import annotations

from typing import Any

from ..engines import raises
from . import program


@program("3.1")
def prog_returns_tuple_and_leaves_grad_alone(T: Any) -> Any:
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    g = T.autograd.grad(a * b, [a, b])
    return {"type": type(g).__name__, "g": g, "a.grad": a.grad, "b.grad": b.grad}


@program("3.1")
def prog_dict_inputs(T: Any) -> Any:
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    g = T.autograd.grad(a * b, {"a": a, "b": b})
    return {"type": type(g).__name__, "g": g}


@program("3.2")
def prog_errors_of_outputs_and_grad_outputs(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    return {
        "implicit": raises(lambda: T.autograd.grad(y, x)),
        "shape": raises(lambda: T.autograd.grad(y, x, T.ones(2))),
        "length": raises(lambda: T.autograd.grad([y, y], x, [T.ones(3)])),
    }


@program("3.5")
def prog_multiple_outputs_sum(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    return T.autograd.grad([(x * 2).sum(), (x * 3).sum()], x, [None, None])


@program("3.6")
def prog_unused_inputs(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    u = T.tensor([1.0, 2.0], requires_grad=True)
    return {
        "default": raises(lambda: T.autograd.grad((x * 2).sum(), [x, u])),
        "allow": T.autograd.grad((x * 2).sum(), [x, u], allow_unused=True),
        "materialize": T.autograd.grad((x * 2).sum(), [x, u], materialize_grads=True),
        "materialize_conflict": raises(
            lambda: T.autograd.grad(
                (x * 2).sum(), [x, u], allow_unused=False, materialize_grads=True
            )
        ),
    }


@program("3.9")
def prog_input_or_output_without_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    p = T.tensor([1.0, 2.0])
    return {
        "input": raises(lambda: T.autograd.grad((x * 2).sum(), [x, p])),
        "output": raises(lambda: T.autograd.grad([(x * 2).sum(), p.sum()], x, allow_unused=True)),
        "empty_inputs": raises(lambda: T.autograd.grad((x * 2).sum(), [])),
    }


@program("3.12")
def prog_second_call_without_retain_graph(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    g = T.autograd.grad(y, x)
    return {"g": g, "again": raises(lambda: T.autograd.grad(y, x))}


@program("3.13")
def prog_grad_wrt_nonleaf(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    other = x * 5
    y = (h * h).sum()
    return {
        "h": T.autograd.grad(y, h, retain_graph=True),
        "outside": raises(lambda: T.autograd.grad(y, other)),
    }


@program("3.14")
def prog_grad_of_tensor_wrt_itself(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3).sum()
    return {"self": T.autograd.grad(x, x, T.ones(2)), "dup": T.autograd.grad(y, [x, x])}


@program("3.15")
def prog_higher_order(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (g1,) = T.autograd.grad((x**3).sum(), x, create_graph=True)
    (g2,) = T.autograd.grad(g1.sum(), x, create_graph=True)
    (g3,) = T.autograd.grad(g2.sum(), x)
    (lin,) = T.autograd.grad((x * 2).sum(), x, create_graph=True)
    return {"g1": g1, "g2": g2, "g3": g3, "lin": lin}


@program(
    "3.15",
)
def prog_double_backward_graph_of_pow(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (g1,) = T.autograd.grad((x**3).sum(), x, create_graph=True)
    return g1.grad_fn


@program("3.15")
def prog_create_graph_under_no_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x**2).sum()
    with T.no_grad():
        (g,) = T.autograd.grad(y, x, create_graph=True)
    return g


@program("3.15")
def prog_double_backward_node_names(T: Any) -> Any:
    x = T.tensor([-1.0, 2.0], requires_grad=True)
    (gr,) = T.autograd.grad(x.relu().sum(), x, create_graph=True)
    (gs,) = T.autograd.grad(x.sigmoid().sum(), x, create_graph=True)
    return {"relu": gr, "sigmoid": gs}


@program("3.16")
def prog_only_inputs_deprecated(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    a = T.autograd.grad(y, x, retain_graph=True, only_inputs=True)
    b = T.autograd.grad(y, x, only_inputs=False)
    return {"a": a, "b": b}


@program("3.17")
def prog_is_grads_batched(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    return T.autograd.grad(x * 2, x, T.eye(2), is_grads_batched=True)


@program(
    "3.10",
)
def prog_output_checked_before_inputs(T: Any) -> Any:
    p = T.tensor([1.0, 2.0])
    return raises(lambda: T.autograd.grad(p.sum(), [p], allow_unused=True))


@program(
    "3.1",
)
def prog_grad_of_sum_is_writable(T: Any) -> Any:
    out = {}
    for shape in [(), (3,), (0,)]:
        x = T.ones(shape, requires_grad=True)
        (g,) = T.autograd.grad(x.sum(), [x])
        out[str(shape)] = raises(lambda g=g: g.mul_(2))
    return out


@program("3.1")
def prog_versions_of_returned_gradients(T: Any) -> Any:
    # torch writes some gradients in place (index_put_, scatter_add_, a copy into a dense .grad)
    # and keeps others (found by the random-program fuzzer): the versions show it
    cases = {
        "index": lambda x: x[T.tensor([0, 2])].sum(),
        "gather": lambda x: x.gather(0, T.tensor([1, 1])).sum(),
        "sum": lambda x: x.sum(),
        "mul": lambda x: (x * 2).sum(),
        "add_twice": lambda x: (x + x).sum(),
        "diagonal": lambda x: x.view(2, 2).diagonal().sum(),
    }
    out = {}
    for k, f in cases.items():
        x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        (g,) = T.autograd.grad(f(x), x)
        f(x).backward()
        out[k] = (g._version, x.grad._version)
    v0 = T.tensor(-2.0, requires_grad=True)
    v1 = v0.unsqueeze(0)
    with T.no_grad():
        v0.mul_(2)
    out["as_strided"] = T.autograd.grad(v1.sum(), [v0])[0]._version
    # three gradients into one 0-d slot: the third is added in place (version 1)
    s = T.tensor(-2.0, requires_grad=True)
    s3 = s + (s + s)
    out["0-d fan-in"] = T.autograd.grad(s3.sum(), [s], retain_graph=True)[0]._version
    s3.backward()
    out["0-d fan-in .grad"] = s.grad._version
    # cat gives an empty 1-D input a fresh zeros({0}) (version 1), and the reshape's view of
    # it shares that version (fuzzer find)
    e = T.tensor([], requires_grad=True)
    cat = T.cat([e.reshape(-1), e.detach().reshape(-1)])
    out["empty cat"] = T.autograd.grad(cat.sum(), [e], retain_graph=True)[0]._version
    # a gradient summed in place, then viewed by a reshape's backward: the view shares it
    w = T.tensor([1.0, 2.0], requires_grad=True)
    r = w.reshape(2, 1)
    r3 = r + (r + r)
    out["viewed fan-in"] = T.autograd.grad(r3.sum(), [w])[0]._version
    # a hook's fresh result passed through by SubBackward0 is summed in place downstream once
    # the node's inputs are freed (fuzzer find)
    for anomaly in (False, True):
        with T.autograd.set_detect_anomaly(anomaly):
            h = T.tensor(-2.0, requires_grad=True)
            d = h - h
            d.register_hook(lambda g: g * 2.0)
            out[f"hooked pass-through {anomaly}"] = T.autograd.grad(d.sum(), [h])[0]._version
    return out


@program("3.1")
def prog_retained_grad_is_a_clone_under_create_graph(T: Any) -> Any:
    v0 = T.tensor(-2.0, requires_grad=True)
    v1 = v0 + v0
    v2 = v0 * v1
    v1.retain_grad()
    (g,) = T.autograd.grad(v2.sum(), [v0], create_graph=True)
    return {"grad_fn": type(v1.grad.grad_fn).__name__, "grad": v1.grad, "g": g}


@program("3.1")
def prog_a_hooked_leaf_keeps_its_gradient_as_torch_does(T: Any) -> Any:
    # a hook that returns None (logging) must not make the leaf copy its gradient: torch's
    # AccumulateGrad keeps a gradient nothing else holds, a view included (found on review:
    # the two backward forms kept different rules)
    cases = {
        "mm weight": lambda w, x: (x @ w.t()).sum(),
        "mul": lambda w, x: (w * 2).sum(),
        "reshape": lambda w, x: w.reshape(-1).mul(3).sum(),
        "sum": lambda w, x: w.sum(),
        "add": lambda w, x: (w + w).sum(),
        "fan-in": lambda w, x: (w.view(-1) * 1.0).sum() + (w * 2).sum(),
    }
    out = {}
    for name, f in cases.items():
        for hook in (None, "none", "new"):
            w = T.ones(3, 4, requires_grad=True)
            if hook == "none":
                w.register_hook(lambda g: None)
            if hook == "new":
                w.register_hook(lambda g: g * 1.0)
            f(w, T.ones(2, 4)).backward()
            out[f"{name} {hook}"] = (w.grad._version, w.grad.stride(), w.grad)
    return out
