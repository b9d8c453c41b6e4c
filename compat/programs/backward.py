"""Section 2: backward(): implicit gradients, retain_graph, second-time errors, accumulation."""

from __future__ import annotations

from typing import Any

from ..engines import observe, raises
from . import program


@program("2.2")
def prog_implicit_grad_needs_numel_one(T: Any) -> Any:
    out: dict[str, Any] = {}
    for shape in [(), (1,), (1, 1)]:
        x = T.ones(shape, requires_grad=True)
        (x * 2).backward()
        out[str(shape)] = x.grad
    x = T.ones(3, requires_grad=True)
    out["numel3"] = raises(lambda: (x * 2).backward())
    e = T.ones(0, requires_grad=True)
    out["empty"] = raises(lambda: (e * 2).backward())
    return out


@program("2.3")
def prog_gradient_shape_must_match(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    s = (x * 1).sum()
    return {
        "[1] for [3]": raises(lambda: y.backward(T.ones(1))),
        "[] for [3]": raises(lambda: y.backward(T.tensor(1.0))),
        "[2] for [3]": raises(lambda: y.backward(T.ones(2))),
        "[1] for []": raises(lambda: s.backward(T.ones(1))),
    }


@program("2.4")
def prog_gradient_dtype_is_cast(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    (x * 2).backward(T.ones(3, dtype=T.float64), retain_graph=True)
    y = T.ones(3, requires_grad=True)
    (y * 2).backward(T.ones(3, dtype=T.long))
    return {"x": observe(T, x), "y": observe(T, y)}


@program("2.5")
def prog_gradient_must_be_tensor(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    return {"float": raises(lambda: y.backward(2.0)), "list": raises(lambda: y.backward([1.0] * 3))}


@program("2.6")
def prog_backward_without_grad_raises(T: Any) -> Any:
    with T.no_grad():
        r = (T.ones(2, requires_grad=True) * 2).sum()
    return {
        "plain": raises(lambda: T.ones(2).sum().backward()),
        "int": raises(lambda: T.tensor(2).backward()),
        "no_grad": raises(lambda: r.backward()),
    }


@program("2.7")
def prog_second_backward_through_saved_tensor_raises(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    return {"second": raises(lambda: y.backward()), "x": observe(T, x)}


@program("2.8")
def prog_second_backward_without_saved_tensors_is_fine(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = (x + 2).sum()
    a.backward()
    a.backward()
    b = x.sum()
    b.backward()
    b.backward()
    return observe(T, x)


@program("2.8")
def prog_second_backward_through_copy_slices_raises(T: Any) -> Any:
    # torch's CopySlices drops its function after a backward without retain_graph, so a second
    # one raises although nothing was saved (fuzzer find); with retain_graph it runs again
    v0 = T.tensor([-2.0, -2.0, -2.0], requires_grad=True)
    v1 = v0 + v0
    v1[0].add_(1)
    v1.sum().backward()
    second = raises(lambda: v1.sum().backward())
    w0 = T.tensor([1.0, 2.0], requires_grad=True)
    w1 = w0 * 1.0
    w1[1].mul_(3)
    w1.sum().backward(retain_graph=True)
    w1.sum().backward()
    return {"second": second, "v0.grad": v0.grad, "w0.grad": w0.grad, "graph": w1.grad_fn}


@program("2.8")
def prog_python_scalar_operand_is_saved(T: Any) -> Any:
    out: dict[str, Any] = {}
    for name, f in [
        ("x*2", lambda x: x * 2),
        ("2*x", lambda x: 2 * x),
        ("mul", lambda x: x.mul(2)),
        ("x*w", lambda x: x * T.ones(2)),
        ("exp", lambda x: x.exp()),
        ("x/2", lambda x: x / 2),
        ("x-1", lambda x: x - 1),
        ("neg", lambda x: -x),
    ]:
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = f(x).sum()
        y.backward()
        out[name] = raises(lambda y=y: y.backward())
    return out


@program("2.9")
def prog_retain_graph_then_plain_then_error(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.backward(T.tensor([1.0, 0.0]), retain_graph=True)
    y.backward(T.tensor([0.0, 1.0]))
    return {"x": observe(T, x), "third": raises(lambda: y.backward(T.ones(2)))}


@program("2.10")
def prog_accumulation_is_in_place(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    g = T.tensor([1.0, 1.0])
    (x * 2).backward(g)
    g1 = x.grad
    (x * 2).backward(g)
    return {
        "not_caller_gradient": g1 is not g,
        "same_object": x.grad is g1,
        "grad": observe(T, x.grad),
        "g": observe(T, g),
    }


@program("2.10")
def prog_user_assigned_grad_updated_in_place(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    mine = T.zeros(2)
    x.grad = mine
    (x * 3).sum().backward()
    return {"same": x.grad is mine, "mine": observe(T, mine)}


@program("2.11", warnings=False)  # the create_graph warning is issued once per process
def prog_create_graph_accumulates_out_of_place(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x**3).sum().backward(create_graph=True)
    g1 = x.grad
    (x**3).sum().backward(create_graph=True)
    return {"g1": g1, "g2": x.grad, "new": x.grad is not g1}


@program("2.13")
def prog_grad_properties(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0]], dtype=T.float64, requires_grad=True)
    (x * 2).sum().backward()
    return observe(T, x.grad)


@program(
    "2.13",
)
def prog_grad_version_after_summed_contributions(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0]], requires_grad=True)
    (x * x).sum().backward()
    return {"version": x.grad._version}


@program("2.15")
def prog_backward_inputs_leaf(T: Any) -> Any:
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    c = a * b
    c.backward(inputs=[a], retain_graph=True)
    unused = T.tensor(1.0, requires_grad=True)
    (a * 1).backward(inputs=[a, unused])
    return {"a": observe(T, a), "b": observe(T, b), "unused": observe(T, unused)}


@program("2.15")
def prog_backward_inputs_nonleaf(T: Any) -> Any:
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    h = a * 2
    (h * b).backward(inputs=h)
    return {"h": observe(T, h), "h.grad": h.grad, "a": observe(T, a)}


@program("2.15")
def prog_backward_inputs_errors(T: Any) -> Any:
    a = T.tensor(2.0, requires_grad=True)
    c = a * 3
    return {
        "empty": raises(lambda: c.backward(inputs=[])),
        "no_grad_input": raises(lambda: c.backward(inputs=[T.tensor(1.0)])),
    }


@program("2.16")
def prog_same_tensor_twice(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x + x).sum().backward()
    (x * x.detach()).sum().backward()
    return x.grad


@program("2.18")
def prog_backward_on_view_of_output(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y[0].backward()
    return x.grad


@program("2.19")
def prog_backward_on_leaf_itself(T: Any) -> Any:
    leaf = T.tensor(2.0, requires_grad=True)
    leaf.backward()
    g1 = leaf.grad.clone()
    leaf.backward()
    return {"g1": g1, "g2": leaf.grad}


@program("2.20")
def prog_backward_inside_no_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with T.no_grad():
        y.backward()
        err = raises(lambda: (x * x).sum().backward())
    return {"x": observe(T, x), "inside": err}


@program("2.20")
def prog_backward_inside_inference_mode(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with T.inference_mode():
        y.backward()
    return observe(T, x)


@program("2.21")
def prog_backward_from_another_thread(T: Any) -> Any:
    import threading

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    seen: list[str] = []
    x.register_hook(lambda g: seen.append(threading.current_thread().name))
    t = threading.Thread(target=y.backward, name="worker")
    t.start()
    t.join()
    return {"x": observe(T, x), "hook_thread": seen}


@program("2.1")
def prog_autograd_backward_function(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = (x * 2).sum()
    b = x * 3
    r = T.autograd.backward([a, b], [None, T.ones(2)])
    return {"returned": r, "x": observe(T, x)}


@program("2.1")
def prog_backward_through_complex_tensors(T: Any) -> Any:
    x = T.tensor([1 + 2j, -0.5 + 0.3j], requires_grad=True)
    y = (x * x).abs().sum()
    out = {"grad_fn": type(y.grad_fn).__name__, "value": y}
    y.backward()
    out["grad"] = x.grad
    return out
