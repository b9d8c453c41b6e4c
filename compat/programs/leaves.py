"""Section 1: leaves, requires_grad, detach, .data, retain_grad."""

from __future__ import annotations

from typing import Any

from ..engines import observe, raises
from . import program


@program("1.1")
def prog_user_leaf(T: Any) -> Any:
    x = T.tensor(3.0, requires_grad=True)
    return observe(T, x)


@program("1.2")
def prog_plain_tensor_and_its_results_are_leaves(T: Any) -> Any:
    a = T.tensor([1.0, 2.0])
    return {"a": observe(T, a), "a*2": observe(T, a * 2), "exp": observe(T, a.exp())}


@program("1.3")
def prog_op_result_requires_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = T.tensor([3.0, 4.0])
    return {"x*2": observe(T, x * 2), "a+x": observe(T, a + x), "x+a": observe(T, x + a)}


@program("1.4")
def prog_comparison_results_never_require_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    return {"gt": observe(T, x > 1), "long": observe(T, x.long()), "int": observe(T, x.int())}


@program("1.5")
def prog_int_tensor_cannot_require_grad(T: Any) -> Any:
    return {
        "tensor": raises(lambda: T.tensor([1, 2], requires_grad=True)),
        "ones": raises(lambda: T.ones(2, dtype=T.long, requires_grad=True)),
        "arange": raises(lambda: T.arange(3, requires_grad=True)),
        "bool": raises(lambda: T.tensor([True], requires_grad=True)),
    }


@program("1.6")
def prog_requires_grad_method_on_int_tensor(T: Any) -> Any:
    t = T.tensor([1, 2])
    return {
        "true": raises(lambda: t.requires_grad_()),
        "false_returns_self": t.requires_grad_(False) is t,
    }


@program("1.7")
def prog_requires_grad_setter_on_int_tensor(T: Any) -> Any:
    t = T.tensor([1, 2])

    def set_it() -> None:
        t.requires_grad = True

    return {"err": raises(set_it)}


@program("1.8")
def prog_float64_and_float16_may_require_grad(T: Any) -> Any:
    return {
        "f64": observe(T, T.tensor([1.0], dtype=T.float64, requires_grad=True)),
        "f16": observe(T, T.tensor([1.0], dtype=T.float16, requires_grad=True)),
    }


@program("1.9")
def prog_requires_grad_true_on_nonleaf_is_noop(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    y = x * 2
    return {"same": y.requires_grad_(True) is y, "y": observe(T, y)}


@program("1.10")
def prog_requires_grad_false_on_nonleaf_raises(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    y = x * 2

    def set_false() -> None:
        y.requires_grad = False

    return {"method": raises(lambda: y.requires_grad_(False)), "setter": raises(set_false)}


@program("1.11")
def prog_requires_grad_setter_true_on_nonleaf_raises(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    y = x * 2

    def set_true() -> None:
        y.requires_grad = True

    return {"setter": raises(set_true)}


@program("1.12")
def prog_requires_grad_on_detached_result_makes_leaf(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    d = (x * 2).detach()
    r = d.requires_grad_()
    return {"same": r is d, "d": observe(T, d)}


@program("1.13")
def prog_clearing_requires_grad_keeps_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    x.requires_grad = False
    return observe(T, x)


@program("1.14")
def prog_nonleaf_grad_warns_every_access(T: Any) -> Any:
    x = T.tensor(3.0, requires_grad=True)
    y = x**2
    y.backward()
    return {"first": y.grad, "second": y.grad, "leaf": x.grad}


@program("1.14")
def prog_no_warning_for_retained_and_no_grad_results(T: Any) -> Any:
    x = T.tensor(3.0, requires_grad=True)
    y = x * 2
    y.retain_grad()
    with T.no_grad():
        z = x * 3
    plain = T.tensor(1.0)
    return {"y": y.grad, "z": z.grad, "plain": plain.grad}


@program("1.15")
def prog_retain_grad_fills_nonleaf_grad(T: Any) -> Any:
    x = T.tensor(3.0, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    (y * y).backward()
    return {"y": observe(T, y), "x": observe(T, x)}


@program("1.16")
def prog_retain_grad_on_leaf_is_noop(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    r = x.retain_grad()
    return {"returned": r, "retains_grad": x.retains_grad}


@program("1.17")
def prog_retain_grad_without_requires_grad_raises(T: Any) -> Any:
    return raises(lambda: T.tensor([1.0]).retain_grad())


@program("1.18")
def prog_retained_grad_runs_after_hooks(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.register_hook(lambda g: g * 5)
    y.sum().backward()
    return {"y.grad": y.grad, "x.grad": x.grad}


@program("1.19")
def prog_retained_grad_accumulates_out_of_place(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.sum().backward(retain_graph=True)
    g1 = y.grad
    (y * 3).sum().backward()
    return {"g1": g1, "g2": y.grad, "new_object": y.grad is not g1}


@program(
    "1.20",
)
def prog_retained_grad_after_inplace_on_nonleaf(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.mul_(3)
    y.sum().backward()
    return {"y.grad": y.grad, "x.grad": x.grad}


@program("1.23")
def prog_detach_shares_storage_and_version(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    with T.no_grad():
        d.add_(1)
    return {"d": observe(T, d), "x": observe(T, x), "d_is_view": d._is_view()}


@program("1.24")
def prog_detach_inplace(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.detach_()
    v = x * 1
    w = v[0:1]
    return {"y": observe(T, y), "view": raises(lambda: w.detach_())}


@program("1.25")
def prog_data_has_its_own_version_counter(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    z = y * y
    y.data.zero_()
    z.sum().backward()
    return {"x": observe(T, x), "y_version": y._version}


@program("1.26")
def prog_assign_data(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    x.data = T.zeros(5)
    err_target = T.tensor([1.0], requires_grad=True)

    def bad() -> None:
        err_target.data = T.tensor([1, 2])

    return {"x": observe(T, x), "int": raises(bad)}


@program("1.27")
def prog_assign_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out: dict[str, Any] = {}

    def assign(v: Any) -> Any:
        x.grad = v
        return x.grad

    out["ok"] = assign(T.ones(3))
    out["none"] = assign(None)
    out["shape"] = raises(lambda: assign(T.ones(4)))
    out["dtype"] = raises(lambda: assign(T.ones(3, dtype=T.float64)))
    out["long"] = raises(lambda: assign(T.ones(3, dtype=T.long)))
    out["int"] = raises(lambda: assign(1))
    plain = T.tensor([1.0])
    plain.grad = T.tensor([5.0])
    out["plain"] = plain.grad
    return out


@program("1.29")
def prog_tensor_of_tensor_copies_and_warns(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = T.tensor(x)
    return {"c": observe(T, c), "x": observe(T, x)}


@program("1.31")
def prog_clone_is_nonleaf_and_copy_idiom(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    return {
        "clone": observe(T, x.clone()),
        "idiom": observe(T, x.clone().detach().requires_grad_()),
    }


@program("1.32")
def prog_factory_requires_grad_under_no_grad(T: Any) -> Any:
    with T.no_grad():
        t = T.ones(2, requires_grad=True)
    return observe(T, t)


@program("1.35")
def prog_views_of_a_leaf_are_not_leaves(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return {
        "slice": observe(T, x[0:2]),
        "view": observe(T, x.view(3)),
        "of_detached": observe(T, x.detach()[0:2]),
    }


@program("1.36")
def prog_output_nr(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a, b = (x * 1).unbind(0)
    return {"a": a.output_nr, "b": b.output_nr, "leaf": x.output_nr}
