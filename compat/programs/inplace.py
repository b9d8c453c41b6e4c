"""Section 5: in-place ops, the version counter, views, and their exact errors."""

from __future__ import annotations

from typing import Any

from ..engines import observe, raises
from . import program


@program("5.1")
def prog_version_counts_inplace_writes(T: Any) -> Any:
    t = T.zeros(3)
    out = [t._version]
    t.add_(1)
    out.append(t._version)
    t.mul_(2)
    t[0] = 5.0
    t.zero_()
    t.copy_(T.ones(3))
    t += 1
    out.append(t._version)
    v = t[1:]
    v.add_(1)
    return {"versions": out, "view": v._version, "base": t._version, "new": (t * 1)._version}


@program("5.2")
def prog_saved_output_modified(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    z = y.sum()
    y.mul_(2)
    return raises(lambda: z.backward())


@program("5.2")
def prog_saved_input_modified_names_current_grad_fn(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    z = (y * y).sum()
    y.add_(1)
    return raises(lambda: z.backward())


@program("5.2")
def prog_saved_leaf_modified_through_detach(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=T.float64, requires_grad=True)
    z = (x * x).sum()
    x.detach().add_(1)
    return raises(lambda: z.backward())


@program("5.3")
def prog_forward_op_name_keeps_overload_digit(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    e = T.tensor([2.0, 2.0], requires_grad=True)
    y = x**e
    z = (y * y).sum()
    y.mul_(1)
    w = (x * 1) ** e
    v = w.exp()
    u = v.sum()
    v.add_(0)
    return {"mul": raises(lambda: z.backward()), "exp": raises(lambda: u.backward())}


@program("5.4")
def prog_hint_under_anomaly_mode(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.autograd.set_detect_anomaly(True):
        y = x.exp()
        z = y.sum()
        y.add_(1)
        err = raises(lambda: z.backward())
    return {"err": err}


@program("5.5")
def prog_only_saved_tensors_are_checked(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = T.tensor([2.0, 2.0, 2.0])
    y = x * 1
    z = (y * c).sum()
    y.add_(1)
    z.backward()
    g = x.grad.clone()
    y2 = x * 1
    z2 = (y2 * c).sum()
    c.add_(1)
    return {"g": g, "nongrad_saved": raises(lambda: z2.backward())}


@program("5.6")
def prog_inplace_on_leaf_raises(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def iadd() -> None:
        nonlocal x
        x += 1

    return {
        "add_": raises(lambda: x.add_(1)),
        "zero_": raises(lambda: x.zero_()),
        "copy_": raises(lambda: x.copy_(T.ones(3))),
        "iadd": raises(iadd),
        "version": x._version,
    }


@program("5.7")
def prog_inplace_through_view_of_leaf(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def setitem() -> None:
        x[0] = 1.0

    return {
        "setitem": raises(setitem),
        "slice": raises(lambda: x[0:2].mul_(2)),
        "view": raises(lambda: x.view(3).mul_(2)),
    }


@program("5.8")
def prog_out_argument_with_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    return raises(lambda: T.add(x, 1, out=T.empty(2)))


@program("5.9")
def prog_allowed_mutations_of_a_leaf(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        x.add_(1)
    x.data.mul_(2)
    x.detach().add_(1)
    return observe(T, x)


@program("5.10")
def prog_inplace_on_nonleaf(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.add_(1)
    gf = y.grad_fn
    y.sum().backward()
    return {"y": observe(T, y), "graph": gf, "x.grad": x.grad}


@program("5.10")
def prog_inplace_node_names(T: Any) -> Any:
    x = T.tensor([0.5, -1.0], requires_grad=True)
    out = {}
    for name in ["exp_", "sigmoid_", "relu_", "zero_", "neg_", "tanh_"]:
        y = x * 1
        getattr(y, name)()
        out[name] = y.grad_fn
    y = x * 1
    y.clamp_(0, 1)
    out["clamp_"] = y.grad_fn
    y = x * 1
    y.fill_(2.0)
    out["fill_"] = y.grad_fn
    return out


@program("5.11")
def prog_plain_tensor_takes_grad_through_inplace(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = T.zeros(3)
    a.add_(x)
    a.sum().backward()
    return {"a": observe(T, a), "x.grad": x.grad}


@program("5.12")
def prog_setitem_node_names(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[0] = 5.0
    z = x * 1
    z[1:] = x[:2]
    b = T.zeros(3)
    b[0] = x[0]
    return {"y": y.grad_fn, "z": z.grad_fn, "b": b.grad_fn}


@program("5.12")
def prog_setitem_with_index_tensor(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[T.tensor([0, 2])] = 0.0
    z = x * 1
    z[z > 1] = 0.0
    return {"y": y.grad_fn, "z": z.grad_fn}


@program("5.13")
def prog_view_metadata(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[1:]
    vv = v[1:]
    return {
        "is_view": v._is_view(),
        "base": v._base is y,
        "root_base": vv._base is y,
        "nonview_base": y._base,
        "v": observe(T, v),
        "detach_view": y.detach()._is_view(),
    }


@program("5.14")
def prog_inplace_on_view_of_nonleaf_rebases(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[1:]
    v.mul_(10)
    y.sum().backward()
    return {"y": observe(T, y), "v": observe(T, v), "x.grad": x.grad}


@program(
    "5.14",
)
def prog_view_taken_before_inplace_on_base(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[:2]
    y.add_(1)
    return {"v": observe(T, v)}


@program("5.15")
def prog_copy_into_view_of_plain_base(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = T.zeros(3)
    v = base[0:2]
    v.copy_(x[0:2])
    base.sum().backward()
    return {"base": observe(T, base), "v": observe(T, v), "x.grad": x.grad}


@program("5.16")
def prog_inplace_on_multi_view_outputs(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1
    return {
        "unbind": raises(lambda: y.unbind(0)[0].mul_(2)),
        "split": raises(lambda: y.split(1)[0].mul_(2)),
        "chunk": raises(lambda: y.chunk(2)[1].mul_(2)),
    }


@program(
    "5.17",
)
def prog_view_made_in_no_grad_modified_with_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    with T.no_grad():
        v = y[0:1]
    return raises(lambda: v.mul_(2))


@program("5.1")
def prog_retained_grad_follows_the_tensor_through_in_place_changes(T: Any) -> Any:
    # a retain_grad hook moves with the tensor when its grad_fn changes (found by the fuzzer):
    # an in-place op on a view rebases the base (CopySlices), and a view whose base changed
    # under no_grad gets a regenerated grad_fn
    v0 = T.tensor([-2.0, -2.0, -2.0], requires_grad=True)
    v1 = v0 + v0
    v1.retain_grad()
    v1[0].mul_(2)
    v1.sum().backward()
    w0 = T.tensor([[-2.0, -2.0, -2.0], [1.0, 2.0, 3.0]], requires_grad=True)
    w1 = w0[0]
    w1.retain_grad()
    with T.no_grad():
        w0.mul_(2)
    g = T.autograd.grad(w1.sum(), [w0], retain_graph=True)[0]
    return {"base": v1.grad, "view": w1.grad, "g": g, "v0": v0.grad}


@program("5.1")
def prog_saved_outputs_are_checked_even_when_their_formula_is_not_needed(T: Any) -> Any:
    # torch saves an output any formula reads and checks it when the node runs (found by the
    # fuzzer): pow's exponent formula reads result, though only the base needs grad here
    v0 = T.tensor(-2.0, requires_grad=True)
    v3 = v0 ** v0.detach()
    v3.mul_(2)
    return {"error": raises(lambda: v3.sum().backward())}


@program("5.1")
def prog_in_place_on_one_element_of_an_expanded_tensor(T: Any) -> Any:
    # torch's expand is a writable view: an in-place op on one element writes through to the
    # memory all elements share (numpy's broadcast views are read-only; fuzzer find)
    v0 = T.tensor([-2.0, -2.0, -2.0], requires_grad=True)
    v1 = T.autograd.grad(v0.sum(), [v0])[0]  # an expanded gradient: one element, three views
    v1[0].mul_(2)
    a = T.tensor([1.0, 2.0]).expand(3, 2)
    a[0].add_(1)
    # a 0-d gradient of a scalar used twice through cat, modified in place
    s = T.tensor(-2.0, requires_grad=True)
    cat = T.cat([s.reshape(-1), s.detach().reshape(-1)])
    g = T.autograd.grad(cat.sum(), [s], retain_graph=True)[0]
    g.mul_(2)
    return {
        "v1": v1,
        "a": a,
        "overlap": raises(lambda: a.mul_(2)),
        "fill": a.fill_(3.0),
        "g": (g, g._version),
    }


@program("5.1")
def prog_modified_saved_values_are_reported_in_torchs_order(T: Any) -> Any:
    # with several saved values modified, torch's node reports the one it unpacks first (its
    # saved variables in name order); copysign saves nothing for other (fuzzer find)
    out = {}
    for a_rg, b_rg in ((False, True), (True, False), (True, True)):
        for op in ("div", "mul", "atan2", "pow", "hypot", "xlogy", "maximum", "copysign"):
            v0 = T.tensor([-2.0, 1.0], requires_grad=a_rg)
            v1 = T.tensor(-2.0, requires_grad=b_rg)
            a = v0 * 1 if a_rg else v0
            b = v1 * 1 if b_rg else v1
            v2 = getattr(T, op)(a, b)
            with T.no_grad():
                a.mul_(2)
                b.mul_(2)
            out[f"{op} {a_rg} {b_rg}"] = raises(lambda v2=v2: v2.sum().backward())
    return out
