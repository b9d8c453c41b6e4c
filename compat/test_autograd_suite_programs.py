"""Autograd test-suite programs: the behaviours torch's own test/test_autograd.py pins down,
written as small programs of our own: hooks of every kind and their interplay with in-place
ops, retain_graph and freed saved values, `.grad` accumulation and layout, grad-mode and
inference-mode interplay, views + in-place with version counters, custom Functions in their
odd corners (duplicate or input returns, non-differentiable outputs, materialization,
reentrant backward), saved-tensor hooks, anomaly mode, `torch.autograd.graph`, `grad` options
and the error messages of common mistakes. Each `prog(T)` runs on torch and on shadowgrad and
everything it returns, raises or warns is compared by test_realistic_programs_3's harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _d, _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _c(g: Any) -> Any:
    return None if g is None else g.clone()


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- tensor hooks and in-place ---------------------------------------------------------------


@program()
def prog_tas_hook_registered_before_inplace_stays_with_old_value(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    y = x * 2
    y.register_hook(lambda g: log.append(("before", g.clone())))
    y.mul_(3)
    y.register_hook(lambda g: log.append(("after", g.clone())))
    y.sum().backward()
    return log, x.grad, y.grad_fn.name()


@program()
def prog_tas_hook_on_view_base_inplace_through_view(T: Any) -> Any:
    log = []
    x = _t(T, 4)
    b = x * 1.0
    b.register_hook(lambda g: log.append(("base", g.clone())))
    v = b[1:3]
    v.mul_(5)
    b.register_hook(lambda g: log.append(("base2", g.clone())))
    (b * T.arange(4.0)).sum().backward()
    return log, x.grad, b.grad_fn.name(), v.grad_fn.name()


@program()
def prog_tas_retains_grad_survives_inplace(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 3
    y.retain_grad()
    y.add_(1)
    y.mul_(2)
    (y * y).sum().backward()
    return y.grad, x.grad, y.retains_grad, y._version


@program()
def prog_tas_retain_grad_multiple_outputs_inplace(T: Any) -> Any:
    x = _t(T, 4)
    a = (x * 2).unbind(0)[0]
    z = x.sin()
    z.retain_grad()
    z.mul_(a)
    z.sum().backward()
    return z.grad, x.grad, z.grad_fn.name()


@program()
def prog_tas_retain_grad_on_view_then_base_inplace(T: Any) -> Any:
    x = _t(T, 2, 3)
    base = x.clone()
    v = base[0]
    v.retain_grad()
    out = (v * 3).sum() + base.sum()
    out.backward()
    first = (v.grad.clone(), x.grad.clone())
    x.grad = None
    base2 = x.clone()
    v2 = base2[:, 1]
    v2.retain_grad()
    base2.mul_(2)
    (v2 * v2).sum().backward()
    return first, v2.grad, x.grad, v2.grad_fn.name()


@program()
def prog_tas_hook_returns_tensor_on_leaf_changes_accumulated(T: Any) -> Any:
    x = _t(T, 3)
    h1 = x.register_hook(lambda g: g * 10)
    h2 = x.register_hook(lambda g: g + 1)
    (x * x).sum().backward()
    g1 = x.grad.clone()
    h1.remove()
    (x * x).sum().backward()
    g2 = x.grad.clone()
    h2.remove()
    h2.remove()
    x.grad = None
    (x * x).sum().backward()
    return g1, g2, x.grad


@program()
def prog_tas_hook_sees_grad_of_multiple_uses_summed_once(T: Any) -> Any:
    calls = []
    x = _t(T, 3)
    y = x * 2
    y.register_hook(lambda g: calls.append(g.clone()))
    (y * y + y.sin() + y).sum().backward()
    return calls, len(calls), x.grad


@program()
def prog_tas_hook_on_tensor_not_requiring_grad_and_int(T: Any) -> Any:
    a = T.ones(2)
    b = T.ones(2, dtype=T.int64)
    return (
        raises(lambda: a.register_hook(lambda g: g)),
        raises(lambda: b.register_hook(lambda g: g)),
        raises(lambda: b.requires_grad_()),
        raises(lambda: T.zeros(2, dtype=T.int32, requires_grad=True)),
        raises(lambda: a.register_post_accumulate_grad_hook(lambda p: None)),
    )


@program()
def prog_tas_post_accumulate_grad_hook_sees_accumulated_grad(T: Any) -> Any:
    seen = []
    w = T.nn.Parameter(T.tensor(_data(3)))
    w.register_hook(lambda g: g * 2)
    w.register_post_accumulate_grad_hook(lambda p: seen.append((p is w, p.grad.clone())))
    (w * w).sum().backward()
    (w * 3).sum().backward()
    y = w * 2
    return seen, w.grad, raises(lambda: y.register_post_accumulate_grad_hook(lambda p: None))


@program()
def prog_tas_post_accumulate_hook_not_called_for_autograd_grad(T: Any) -> Any:
    seen = []
    w = _t(T, 3)
    w.register_post_accumulate_grad_hook(lambda p: seen.append("post"))
    w.register_hook(lambda g: seen.append("pre") or None)
    (g,) = T.autograd.grad((w * w).sum(), w)
    before = list(seen)
    (w * w).sum().backward(inputs=[w])
    return before, seen, g, w.grad


@program()
def prog_tas_hook_with_no_grad_mode_inside_backward(T: Any) -> Any:
    modes = []
    x = _t(T, 3)
    y = x.exp()
    y.register_hook(lambda g: modes.append((T.is_grad_enabled(), g.requires_grad)))
    y.sum().backward()
    x.grad = None
    y = x.exp()
    y.register_hook(lambda g: modes.append((T.is_grad_enabled(), g.requires_grad)))
    y.sum().backward(create_graph=True)
    return modes, x.grad, x.grad.grad_fn is not None


# --- Node hooks ------------------------------------------------------------------------------


@program()
def prog_tas_node_prehook_and_hook_on_multi_output_node(T: Any) -> Any:
    log = []
    x = _t(T, 4)
    a, b = (x * 1.0).split(2)
    node = a.grad_fn
    same = node is b.grad_fn

    def pre(grad_outputs):
        log.append(("pre", [None if g is None else g.clone() for g in grad_outputs]))

    def post(grad_inputs, grad_outputs):
        log.append(("post", [None if g is None else g.clone() for g in grad_inputs]))

    node.register_prehook(pre)
    node.register_hook(post)
    (a * 3).sum().backward()
    return same, log, x.grad, node.name()


@program()
def prog_tas_node_prehook_returns_modified_and_wrong_count(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    y.grad_fn.register_prehook(lambda go: (go[0] * 0.5,))
    y.sum().backward()
    g = x.grad.clone()
    y2 = x * 2
    y2.grad_fn.register_prehook(lambda go: (go[0], go[0]))
    err = raises(lambda: y2.sum().backward())
    y3 = x * 2
    y3.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
    err2 = raises(lambda: y3.sum().backward())
    return g, err, err2


@program()
def prog_tas_node_hook_on_accumulate_grad(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    y = x * x
    acc = y.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: log.append(("pre", go[0].clone())))
    acc.register_hook(lambda gi, go: log.append(("post", gi, go[0].clone())))
    y.sum().backward()
    return acc.name(), log, x.grad, acc.variable is x


@program()
def prog_tas_node_metadata_and_name_identity(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp().sum()
    n = y.grad_fn
    n.metadata["tag"] = 1
    n2 = y.grad_fn
    return (
        n is n2,
        n2.metadata,
        n.name(),
        [type(f).__name__ for f, _ in n.next_functions],
        n.next_functions[0][1],
        isinstance(n, T.autograd.graph.Node),
        isinstance(n.next_functions[0][0].next_functions[0][0], T.autograd.graph.Node),
    )


@program()
def prog_tas_node_hook_grad_inputs_none_for_non_requiring(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    c = T.tensor(_data(3, seed=1))
    y = x * c
    y.grad_fn.register_hook(
        lambda gi, go: log.append([None if g is None else g.clone() for g in gi])
    )
    y.sum().backward()
    return log, [f for f, _ in y.grad_fn.next_functions][1] is None


# --- multi grad hooks ------------------------------------------------------------------------


@program()
def prog_tas_multi_grad_hook_all_with_unused_tensor(T: Any) -> Any:
    seen = []
    a = _t(T, 2)
    b = _t(T, 2, seed=1)
    c = _t(T, 2, seed=2)
    T.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda gs: seen.append([None if g is None else g.clone() for g in gs])
    )
    (a * b).sum().backward()
    (a * 2).sum().backward(inputs=[a])
    return seen


@program()
def prog_tas_multi_grad_hook_any_fires_once_and_invalid_mode(T: Any) -> Any:
    seen = []
    a = _t(T, 2)
    b = _t(T, 2, seed=1)
    h = T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: seen.append(g.clone()), mode="any"
    )
    (a * b).sum().backward()
    h.remove()
    (a * b).sum().backward()
    bad = raises(lambda: T.autograd.graph.register_multi_grad_hook((a,), lambda g: None, mode="x"))
    return seen, len(seen), bad


@program()
def prog_tas_multi_grad_hook_on_non_leaves_remove(T: Any) -> Any:
    seen = []
    x = _t(T, 3)
    p = x * 2
    q = x.exp()
    h = T.autograd.graph.register_multi_grad_hook((p, q), lambda gs: seen.append(len(gs)))
    (p * q).sum().backward(retain_graph=True)
    h.remove()
    (p + q).sum().backward()
    return seen, x.grad


# --- retain_graph and freed saved values -----------------------------------------------------


@program()
def prog_tas_backward_twice_error_names_and_saved_access(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = (y * x).sum()
    z.backward()
    return (
        raises(lambda: z.backward()),
        raises(lambda: y.grad_fn._saved_result),
        raises(lambda: z.grad_fn.next_functions[0][0]._saved_self),
        x.grad,
    )


@program()
def prog_tas_retain_graph_then_free_partial_graph(T: Any) -> Any:
    x = _t(T, 3)
    y = x.sin()
    a = (y * 2).sum()
    b = (y * y).sum()
    a.backward(retain_graph=True)
    b.backward()
    g1 = x.grad.clone()
    r1 = raises(lambda: a.backward())
    r2 = raises(lambda: b.backward())
    return g1, r1, r2


@program()
def prog_tas_which_parts_of_the_graph_are_freed(T: Any) -> Any:
    x = _t(T, 2)

    def cg_retain_false():
        y = (x.exp() * x).sum()
        T.autograd.grad(y, x, create_graph=True, retain_graph=False)
        return T.autograd.grad(y, x)

    def cg_default():
        y = (x.exp() * x).sum()
        (g,) = T.autograd.grad(y, x, create_graph=True)
        return g, T.autograd.grad(y, x)

    def shared_subgraph():
        a = x.exp()
        T.autograd.grad(a.sin().sum(), x)
        return T.autograd.grad(a.cos().sum(), x)

    def stops_at_input():
        a = x.exp()
        T.autograd.grad((a * 2).sum(), a)
        return T.autograd.grad(a.cos().sum(), x)

    def below_input():
        a = x.exp()
        T.autograd.grad(a.sin().sum(), a)
        return T.autograd.grad(a.sum(), x)

    def backward_inputs_below():
        a = x * x
        a.sin().sum().backward(inputs=[a])
        return T.autograd.grad(a.sum(), x)

    return [
        raises(f)
        for f in (
            cg_retain_false,
            cg_default,
            shared_subgraph,
            stops_at_input,
            below_input,
            backward_inputs_below,
        )
    ]


@program()
def prog_tas_no_saved_tensors_backward_twice_ok(T: Any) -> Any:
    x = _t(T, 3)
    y = (x + 1 - 2).sum()
    y.backward()
    y.backward()
    n = (x * 2).sum()
    n.backward()
    r = raises(lambda: n.backward())
    z = x.view(3, 1).expand(3, 2).sum()
    z.backward()
    z.backward()
    return x.grad, r


@program()
def prog_tas_saved_attributes_of_nodes(T: Any) -> Any:
    x = _t(T, 2, 3)
    w = _t(T, 3, 4, seed=1)
    y = x.mm(w)
    s = y.sum(dim=1, keepdim=True)
    p = x.pow(3)
    c = T.cat([x, x * 2], dim=1)
    return (
        y.grad_fn._saved_self,
        y.grad_fn._saved_mat2,
        s.grad_fn._saved_dim,
        s.grad_fn._saved_keepdim,
        p.grad_fn._saved_exponent,
        c.grad_fn._saved_dim,
        x.t().grad_fn.name(),
    )


@program()
def prog_tas_saved_output_is_new_object_input_is_same(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = x.sigmoid()
    m = x * 2
    return (
        y.grad_fn._saved_result is y,
        y.grad_fn._saved_result.equal(y),
        z.grad_fn._saved_result.grad_fn.name(),
        m.grad_fn._saved_self is x,
        m.grad_fn._saved_other,
    )


# --- .grad accumulation and layout -----------------------------------------------------------


@program()
def prog_tas_grad_layout_follows_leaf_strides(T: Any) -> Any:
    a = T.tensor(_data(3, 4)).t().detach().requires_grad_()
    (a * 2).sum().backward()
    b = T.tensor(_data(2, 3, 4)).permute(2, 0, 1).detach().requires_grad_()
    (b.contiguous() * 3).sum().backward()
    c = T.tensor(_data(4, 4))[:, ::2].detach().requires_grad_()
    (c * 1).sum().backward()
    return (
        a.stride(),
        a.grad.stride(),
        a.grad,
        b.grad.stride(),
        c.stride(),
        c.grad.stride(),
        c.grad.is_contiguous(),
    )


@program()
def prog_tas_grad_accumulates_in_place_unless_create_graph(T: Any) -> Any:
    x = _t(T, 3)
    (x * 2).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    same_after_plain = x.grad is g
    (x * x).sum().backward(create_graph=True)
    same_after_cg = x.grad is g
    return same_after_plain, same_after_cg, g, x.grad, x.grad.requires_grad


@program()
def prog_tas_grad_set_manually_checks(T: Any) -> Any:
    x = _t(T, 3)
    r1 = raises(lambda: setattr(x, "grad", T.zeros(4)))
    r2 = raises(lambda: setattr(x, "grad", T.zeros(3, dtype=T.float64)))
    r3 = raises(lambda: setattr(x, "grad", 3))
    x.grad = T.ones(3)
    (x * 2).sum().backward()
    d = _t(T, 2).double()
    return r1, r2, r3, x.grad, d.is_leaf, raises(lambda: setattr(x, "grad", T.zeros(3, 1)))


@program()
def prog_tas_grad_of_expanded_leaf_and_zero_numel(T: Any) -> Any:
    x = T.tensor(_data(3, 1)).expand(3, 4).detach().requires_grad_()
    (x * T.arange(12.0).view(3, 4)).sum().backward()
    e = T.zeros(0, 3, requires_grad=True)
    (e * 2).sum().backward()
    return x.stride(), x.grad.stride(), x.grad, e.grad, e.grad.shape


@program()
def prog_tas_grad_stolen_gradient_mutated_later(T: Any) -> Any:
    x = _t(T, 3)
    gout = T.ones(3)
    x.backward(gout)
    stolen = x.grad is gout
    gout.mul_(5)
    y = _t(T, 3, seed=1)
    g2 = T.full((3,), 2.0)
    (y * 1).backward(g2)
    return stolen, x.grad, y.grad, y.grad is g2


# --- grad mode / inference mode --------------------------------------------------------------


@program()
def prog_tas_set_grad_enabled_call_decorator_and_nesting(T: Any) -> Any:
    x = _t(T, 2)
    states = []
    prev = T.is_grad_enabled()
    T.set_grad_enabled(False)
    states.append((x * 2).requires_grad)
    T.set_grad_enabled(True)
    states.append((x * 2).requires_grad)

    @T.set_grad_enabled(False)
    def f(t):
        return t * 3

    @T.no_grad()
    def g(t):
        with T.enable_grad():
            return t * 4

    states.append(f(x).requires_grad)
    states.append(g(x).requires_grad)
    with T.no_grad():
        with T.set_grad_enabled(True):
            states.append((x * 2).requires_grad)
        states.append((x * 2).requires_grad)
    return prev, states, T.is_grad_enabled()


@program()
def prog_tas_no_grad_generator_decorator(T: Any) -> Any:
    x = _t(T, 2)

    @T.no_grad()
    def gen():
        for i in range(3):
            yield (x * i).requires_grad, T.is_grad_enabled()

    out = []
    for item in gen():
        out.append((item, T.is_grad_enabled()))
    return out


@program()
def prog_tas_inference_mode_tensor_rules(T: Any) -> Any:
    with T.inference_mode():
        t = T.ones(3)
        v = t[:2]
    n = T.ones(3)
    x = _t(T, 3)
    return (
        t.is_inference(),
        v.is_inference(),
        n.is_inference(),
        t.requires_grad,
        raises(lambda: t.requires_grad_()),
        raises(lambda: t.add_(1)),
        raises(lambda: v.mul_(2)),
        raises(lambda: (x * t).sum().backward()),
        (x + t).requires_grad,
        raises(lambda: t._version),
        (t.clone() + 1).is_inference(),
    )


@program()
def prog_tas_inference_mode_nested_disable_and_function(T: Any) -> Any:
    x = _t(T, 2)
    res = []
    with T.inference_mode():
        res.append((T.is_inference_mode_enabled(), T.is_grad_enabled()))
        with T.inference_mode(False):
            y = x * 2
            res.append((T.is_inference_mode_enabled(), y.requires_grad, y.is_inference()))
        z = x * 2
        res.append((z.requires_grad, z.is_inference()))

    @T.inference_mode()
    def f(a):
        return a * 3

    w = f(x)
    res.append((w.requires_grad, w.is_inference(), T.is_inference_mode_enabled()))
    return res


@program()
def prog_tas_inplace_on_normal_tensor_in_inference_mode(T: Any) -> Any:
    x = _t(T, 3)
    n = T.ones(3)
    v0 = n._version
    with T.inference_mode():
        n.add_(1)
        r = raises(lambda: x.mul_(2))
        s = x * 2
    return v0, n._version, n, r, s.is_inference(), s.requires_grad


@program()
def prog_tas_no_grad_result_used_later_and_version(T: Any) -> Any:
    x = _t(T, 3)
    with T.no_grad():
        y = x * 2
        x.add_(1)
    z = (y * x).sum()
    z.backward()
    return y.requires_grad, y.is_leaf, x._version, x.grad


@program()
def prog_tas_grad_mode_class_decoration_and_private_managers(T: Any) -> Any:
    G = T.autograd.grad_mode
    x = _t(T, 2)

    @T.no_grad()
    class Holder:
        def __init__(self, t):
            self.v = t * 2

    h = Holder(x)
    y = x * 1.0
    z = y * y
    v0 = y._version
    with G._unsafe_preserve_version_counter(y):
        y.add_(1)
    z.sum().backward()
    with G._force_original_view_tracking(True):
        inside = T.is_grad_enabled()
    with G.set_multithreading_enabled(False):
        w = (x * 3).sum()
    return (h.v.requires_grad, type(Holder).__name__), (v0, y._version), x.grad, inside, w


# --- views + in-place ------------------------------------------------------------------------


@program()
def prog_tas_view_of_leaf_inplace_error_and_no_grad_ok(T: Any) -> Any:
    x = _t(T, 4)
    v = x[:2]
    r1 = raises(lambda: v.mul_(2))
    r2 = raises(lambda: x.add_(1))
    with T.no_grad():
        v.mul_(2)
    return r1, r2, x, x._version, v._version


@program()
def prog_tas_multi_output_view_inplace_errors(T: Any) -> Any:
    x = _t(T, 4)
    y = x * 1.0
    a = y.unbind()[0]
    r1 = raises(lambda: a.mul_(2))
    c = y.split(2)[0]
    r2 = raises(lambda: c.add_(1))
    e = y.chunk(2)[1]
    r3 = raises(lambda: e.zero_())
    return r1, r2, r3


@program()
def prog_tas_view_created_in_no_grad_modified_in_grad_mode(T: Any) -> Any:
    x = _t(T, 4)
    y = x * 2
    with T.no_grad():
        v = y[:2]
    r = raises(lambda: v.mul_(3))
    with T.no_grad():
        v.mul_(3)
    return r, y, v.requires_grad, v._is_view()


@program()
def prog_tas_inplace_on_view_updates_base_grad_fn(T: Any) -> Any:
    x = _t(T, 2, 3)
    b = x.clone()
    v = b[1]
    old = b.grad_fn.name()
    v.mul_(T.tensor(_data(3, seed=3)))
    names = (old, b.grad_fn.name(), v.grad_fn.name(), v._base is b, b._version, v._version)
    (b * b).sum().backward()
    return names, x.grad


@program()
def prog_tas_inplace_on_view_of_view(T: Any) -> Any:
    x = _t(T, 3, 4)
    b = x * 1.0
    v1 = b[1:]
    v2 = v1[:, 1:3]
    v2.exp_()
    (b.sin()).sum().backward()
    return v2._base is b, v1._base is b, b.grad_fn.name(), x.grad


@program()
def prog_tas_inplace_on_view_with_leaf_operand(T: Any) -> Any:
    x = _t(T, 3)
    w = _t(T, 2, seed=5)
    b = T.zeros(3)
    b[1:].add_(w * x[1:])
    b[:1].copy_(x[:1])
    b.sum().backward()
    return b.requires_grad, b.grad_fn.name(), x.grad, w.grad


@program()
def prog_tas_saved_tensor_modified_error_message(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    y.add_(1)
    r1 = raises(lambda: y.sum().backward())
    a = _t(T, 2, 2, seed=2)
    b = a * 1.0
    c = b.mm(b)
    b.t_()
    r2 = raises(lambda: c.sum().backward())
    p = _t(T, 3, seed=4)
    q = p.sigmoid()
    q[0] = 0.0
    r3 = raises(lambda: q.sum().backward())
    return r1, r2, r3


@program()
def prog_tas_detach_shares_version_and_invalidates(T: Any) -> Any:
    x = _t(T, 3)
    y = x.tanh()
    d = y.detach()
    v0 = y._version
    d.zero_()
    r = raises(lambda: y.sum().backward())
    dd = y.detach()
    return v0, y._version, dd._version, d.requires_grad, d.is_leaf, r, y


@program()
def prog_tas_detach_inplace_on_view_errors(T: Any) -> Any:
    x = _t(T, 4)
    y = x * 2
    v = y[:2]
    r1 = raises(lambda: v.detach_())
    u = y.view(2, 2)
    r2 = raises(lambda: u.detach_())
    z = x * 3
    z.detach_()
    return r1, r2, z.requires_grad, z.grad_fn, z.is_leaf


@program()
def prog_tas_saved_input_detached_in_place(T: Any) -> Any:
    x = _t(T, 2, 2)
    y = x * 2
    z = y * y
    y.detach_()
    r1 = raises(lambda: z.sum().backward())
    a = x * 3
    e = a.exp()
    a.detach_()
    e.sum().backward()
    b = x.sin()
    w = b.mm(b)
    b.detach_()
    r2 = raises(lambda: w.sum().backward())
    return r1, x.grad, r2, y.requires_grad, y.is_leaf


@program()
def prog_tas_hook_on_unused_output_of_multi_output_node(T: Any) -> Any:
    log = []
    x = _t(T, 2, 2)
    a, b = (x * 1).unbind()
    b.register_hook(lambda g: log.append(g))
    a.sum().backward()
    return log, x.grad


@program()
def prog_tas_grad_dtype_setter_checks(T: Any) -> Any:
    z = _t(T, 2)
    seen = []
    for v in (T.float64, None, T.int64, T.complex64):
        z.grad_dtype = v
        seen.append(z.grad_dtype)
    z.grad_dtype = T.float32
    z.grad = T.ones(2)
    r1 = raises(lambda: setattr(z, "grad_dtype", T.float64))
    r2 = raises(lambda: setattr(z, "grad_dtype", 3))
    r3 = raises(lambda: setattr(z * 2, "grad_dtype", None))
    r4 = raises(lambda: (z * 2).grad_dtype)
    z.grad_dtype = None
    r5 = raises(lambda: setattr(z, "grad", T.ones(2, dtype=T.float64)))
    return seen, r1, r2, r3, r4, r5, z.grad


@program()
def prog_tas_grad_dtype_drives_accumulation(T: Any) -> Any:
    z = _t(T, 2)
    y = (z * 2).sum()
    z.grad_dtype = T.float64
    y.backward()
    w = _t(T, 2, seed=1)
    w.grad_dtype = T.float64
    (g,) = T.autograd.grad((w * 3).sum(), w)
    return z.grad, g


@program()
def prog_tas_grad_dtype_none_keeps_any_dtype(T: Any) -> Any:
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g.double()

    out = []
    for name, f in [
        ("mul64", lambda u: u * T.ones(2, dtype=T.float64)),
        ("double", lambda u: u.double() * 3),
        ("to", lambda u: u.to(T.float64)),
        ("fn", lambda u: Double.apply(u)),
    ]:
        for gd in (None, T.float16, "unset"):
            u = _t(T, 2)
            if gd != "unset":
                u.grad_dtype = gd
            seen = []
            u.register_hook(lambda g, seen=seen: seen.append(g.dtype))
            f(u).sum().backward()
            out.append((name, str(gd), u.grad, seen))
    return out


# --- .data, requires_grad_, leaves ------------------------------------------------------------


@program()
def prog_tas_data_semantics(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    d = x.data
    d.mul_(0)
    v = x._version
    ok = raises(lambda: y.sum().backward())
    x2 = _t(T, 3, seed=2)
    x2.data = T.tensor(_data(5, seed=3))
    z = x2 * 2
    z.sum().backward()
    return d.requires_grad, d.is_leaf, v, ok, x.grad, x2.shape, x2.grad, x2.requires_grad


@program()
def prog_tas_data_assignment_type_checks(T: Any) -> Any:
    x = _t(T, 3)
    x.data = T.tensor(_data(2, seed=1)).double()
    r1 = x.dtype
    r2 = raises(lambda: setattr(x, "data", [1.0, 2.0]))
    y = x * 2
    r3 = raises(lambda: setattr(y, "data", T.zeros(2)))
    return r1, r2, x.requires_grad, r3, y.grad_fn.name()


@program()
def prog_tas_requires_grad_on_non_leaf(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    r1 = raises(lambda: y.requires_grad_(False))
    r2 = raises(lambda: setattr(y, "requires_grad", False))
    y.requires_grad_(True)
    z = T.ones(2) * 3
    z.requires_grad_()
    return r1, r2, y.requires_grad, z.is_leaf, z.requires_grad, z.grad_fn


@program()
def prog_tas_nonleaf_grad_access_warns(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    y.sum().backward()
    g = y.grad
    z = x * 3
    z.retain_grad()
    z.sum().backward()
    return g, z.grad, y.is_leaf, y.retains_grad, z.retains_grad, x.retains_grad


@program()
def prog_tas_nonleaf_grad_set_by_hand_reads_without_warning(T: Any) -> Any:
    x = _t(T, 2)
    y = x * 2
    y.grad = T.ones(2)
    g = y.grad
    z = x * 3
    z.retain_grad()
    z.grad = T.full((2,), 5.0)
    (z * 2).sum().backward()
    w = x * 4
    return g, z.grad, w.grad


@program()
def prog_tas_retained_grad_is_contiguous(T: Any) -> Any:
    x = T.tensor(_data(2, 2), requires_grad=True)
    y = x * 2
    y.retain_grad()
    (y.t() * T.tensor(_data(2, 2, seed=1))).sum().backward()
    return y.grad, y.grad.stride()


@program()
def prog_tas_retain_grad_on_leaf_and_no_grad_tensor(T: Any) -> Any:
    x = _t(T, 3)
    x.retain_grad()
    (x * 2).sum().backward()
    a = T.ones(2)
    return x.retains_grad, x.grad, raises(lambda: a.retain_grad())


@program()
def prog_tas_attribute_deletion_and_readonly(T: Any) -> Any:
    x = _t(T, 3)
    return (
        raises(lambda: delattr(x, "grad")),
        raises(lambda: delattr(x, "data")),
        raises(lambda: delattr(x, "requires_grad")),
    )


# --- backward / grad arguments ---------------------------------------------------------------


@program()
def prog_tas_backward_non_scalar_and_no_grad_fn_errors(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    c = T.tensor([1.0 + 1j], requires_grad=True)
    return (
        raises(lambda: y.backward()),
        raises(lambda: T.autograd.grad(y, x)),
        raises(lambda: (c * 2).sum().backward()),
        raises(lambda: T.ones(1).backward()),
        raises(lambda: T.autograd.grad(T.ones(1).sum(), x)),
        raises(lambda: x.detach().sum().backward()),
    )


@program()
def prog_tas_grad_outputs_shape_and_dtype_mismatch(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    return (
        raises(lambda: y.backward(T.ones(2), retain_graph=True)),
        raises(lambda: T.autograd.grad(y, x, T.ones(4), retain_graph=True)),
        raises(lambda: T.autograd.grad(y, x, T.ones(3, dtype=T.complex64), retain_graph=True)),
        T.autograd.grad(y, x, T.ones(3, dtype=T.float64), retain_graph=True),
        raises(lambda: T.autograd.grad([y, y], x, [T.ones(3)], retain_graph=True)),
        T.autograd.grad(y, x, T.ones(1, 3).squeeze(0), retain_graph=True),
    )


@program()
def prog_tas_grad_allow_unused_and_materialize(T: Any) -> Any:
    x = _t(T, 3)
    u = _t(T, 3, seed=1)
    y = (x * x).sum()
    return (
        raises(lambda: T.autograd.grad(y, [x, u], retain_graph=True)),
        T.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True),
        T.autograd.grad(y, [x, u], materialize_grads=True, retain_graph=True),
        raises(
            lambda: T.autograd.grad(
                y, [x, u], allow_unused=False, materialize_grads=True, retain_graph=True
            )
        ),
        T.autograd.grad(y, [u], allow_unused=True, materialize_grads=True),
    )


@program()
def prog_tas_grad_inputs_not_requiring_and_leaf_only_inputs(T: Any) -> Any:
    x = _t(T, 3)
    c = T.ones(3)
    y = (x * c).sum()
    return (
        raises(lambda: T.autograd.grad(y, c, retain_graph=True)),
        raises(lambda: T.autograd.grad(y, [], retain_graph=True)),
        raises(lambda: y.backward(inputs=[], retain_graph=True)),
        raises(lambda: y.backward(inputs=[c], retain_graph=True)),
    )


@program()
def prog_tas_grad_is_grads_batched(T: Any) -> Any:
    x = _t(T, 3)
    y = x.sin() * 2
    (jac,) = T.autograd.grad(y, x, T.eye(3), is_grads_batched=True, retain_graph=True)
    (j2,) = T.autograd.grad(y, x, T.eye(3)[:2], is_grads_batched=True, retain_graph=True)
    s = y.sum()
    (h,) = T.autograd.grad(s, x, T.ones(4), is_grads_batched=True, retain_graph=True)
    return jac, j2, h, raises(lambda: T.autograd.grad(y, x, T.ones(3), is_grads_batched=True))


@program()
def prog_tas_backward_inputs_non_leaf_accumulates(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=[y], retain_graph=True)
    g1 = y.grad.clone()
    z.backward(inputs=[y, x])
    return g1, y.grad, x.grad, y.is_leaf


@program()
def prog_tas_autograd_backward_function_forms(T: Any) -> Any:
    x = _t(T, 2)
    y1 = x * 2
    y2 = x.exp()
    T.autograd.backward([y1, y2], [T.ones(2), T.full((2,), 0.5)])
    g1 = x.grad.clone()
    x.grad = None
    T.autograd.backward((x * x).sum())
    g2 = x.grad.clone()
    x.grad = None
    T.autograd.backward([(x * 3).sum(), (x * 4).sum()], grad_tensors=[None, None])
    g3 = x.grad.clone()
    return g1, g2, g3, raises(lambda: T.autograd.backward([x * 2], [T.ones(2), T.ones(2)]))


@program()
def prog_tas_backward_grad_variables_deprecated_and_gradient_forms(T: Any) -> Any:
    x = _t(T, 2)
    T.autograd.backward(x * 2, grad_variables=T.ones(2))
    g1 = x.grad.clone()
    both = raises(lambda: T.autograd.backward(x * 2, T.ones(2), grad_variables=T.ones(2)))
    x.grad = None
    (x * 2).backward(T.tensor([True, False]))
    g2 = x.grad.clone()
    x.grad = None
    g0 = T.tensor(2.0, requires_grad=True)
    (x * 2).sum().backward(g0, create_graph=True)
    return (
        g1,
        both,
        g2,
        (x.grad, x.grad.grad_fn.name()),
        raises(lambda: (x * 2).sum().backward(1.0)),
        raises(lambda: (x * 2).sum().backward(T.tensor([2.0]))),
        T.autograd.grad(outputs=(x * 2).sum(), inputs={"a": x}),
    )


@program()
def prog_tas_grad_only_inputs_deprecated(T: Any) -> Any:
    x = _t(T, 3)
    y = (x * 2).sum()
    return T.autograd.grad(y, x, only_inputs=False)


@program()
def prog_tas_grad_of_complex_output_errors(T: Any) -> Any:
    z = T.tensor([1.0 + 2j, 3.0 - 1j], requires_grad=True)
    y = (z * z).sum()
    r = raises(lambda: y.backward(retain_graph=True))
    (g,) = T.autograd.grad(y, z, T.tensor(1.0 + 0j))
    w = (z.abs() ** 2).sum()
    w.backward()
    return r, g, z.grad


@program()
def prog_tas_grad_to_gradient_edge(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = (y * 2).sum()
    edge = T.autograd.graph.get_gradient_edge(y)
    (g,) = T.autograd.grad(z, edge, retain_graph=True)
    ex = T.autograd.graph.get_gradient_edge(x)
    (gx,) = T.autograd.grad(z, ex)
    return g, gx, edge.node.name(), edge.output_nr, ex.node.name()


@program()
def prog_tas_unreachable_input_and_grad_of_input_itself(T: Any) -> Any:
    x = _t(T, 3)
    y = _t(T, 3, seed=1)
    z = x * 2
    return (
        T.autograd.grad(z, z, T.ones(3), retain_graph=True),
        T.autograd.grad(x, x, T.full((3,), 2.0)),
        raises(lambda: T.autograd.grad(z.sum(), y)),
        T.autograd.grad((y * 2).sum(), [y, x], allow_unused=True),
    )


# --- custom Function corners ------------------------------------------------------------------


@program()
def prog_tas_fn_returns_input_as_is(T: Any) -> Any:
    class Ident(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = _t(T, 3)
    y = Ident.apply(x)
    info = (y is x, y.is_leaf, y.grad_fn.name(), y._is_view(), y._base is x)
    r = raises(lambda: y.mul_(2))
    (y * 2).sum().backward()
    return info, r, x.grad


@program()
def prog_tas_fn_returns_view_of_input_then_inplace(T: Any) -> Any:
    class Head(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:2]

        @staticmethod
        def backward(ctx, g):
            out = T.zeros(3, dtype=g.dtype)
            out[:2] = g
            return out

    x = _t(T, 3)
    y = Head.apply(x * 1.0)
    info = (y._is_view(), y.grad_fn.name())
    r = raises(lambda: y.add_(1))
    y.sum().backward()
    return info, r, x.grad


@program()
def prog_tas_fn_view_outputs_creation_meta(T: Any) -> Any:
    def make(fwd, bwd=lambda ctx, *g: g[0]):
        return type(
            "Fn",
            (T.autograd.Function,),
            {"forward": staticmethod(fwd), "backward": staticmethod(bwd)},
        )

    View = make(lambda ctx, a: a[:2], lambda ctx, g: T.cat([g, g.new_zeros(1)]))
    Ident = make(lambda ctx, a: a)
    x = _t(T, 3)

    def leaf_nograd():
        with T.no_grad():
            o = View.apply(x)
        o.mul_(2)

    def base_inplace():
        b = x * 1
        o = View.apply(b)
        b.mul_(2)
        return o.grad_fn

    def base_inplace_nograd():
        b = x * 1
        o = View.apply(b)
        with T.no_grad():
            b.add_(1)
        return (o * 2).sum()

    def view_of_custom_view():
        o = Ident.apply(x * 1)
        v = o.view(3)[1:]
        return v.grad_fn.name(), raises(lambda: v.add_(1))

    def view_of_custom_view_base_inplace():
        b = x * 1
        v = View.apply(b)[:1]
        b.add_(1)
        return v.grad_fn

    def nonleaf_nograd():
        with T.no_grad():
            o = View.apply(x * 1)
        o.mul_(2)
        return o, o.requires_grad

    def detach_of_custom_view():
        o = Ident.apply(x * 1)
        d = o.detach()
        d.mul_(2)
        return o._version, d

    return [
        raises(f)
        for f in (
            leaf_nograd,
            base_inplace,
            base_inplace_nograd,
            view_of_custom_view,
            view_of_custom_view_base_inplace,
            nonleaf_nograd,
            detach_of_custom_view,
        )
    ]


@program()
def prog_tas_fn_returns_duplicate_outputs(T: Any) -> Any:
    class Dup(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return y, y

        @staticmethod
        def backward(ctx, ga, gb):
            return (ga + 10 * gb) * 2

    x = _t(T, 3)
    a, b = Dup.apply(x)
    (a.sum() + 3 * b.sum()).backward()
    return a is b, a.grad_fn is b.grad_fn, x.grad


@program()
def prog_tas_fn_mark_dirty_on_leaf_and_nonleaf(T: Any) -> Any:
    class Twice(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = _t(T, 3)
    r = raises(lambda: Twice.apply(x))
    b = x * 1.0
    v0 = b._version
    y = Twice.apply(b)
    info = (y is b, b.grad_fn.name(), b._version - v0)
    y.sum().backward()
    return r, info, x.grad, x


@program()
def prog_tas_fn_mark_dirty_on_view_of_nonleaf(T: Any) -> Any:
    class Neg(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.neg_()
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return -g

    x = _t(T, 4)
    b = x * 1.0
    v = b[1:3]
    y = Neg.apply(v)
    names = (y is v, v.grad_fn.name(), b.grad_fn.name())
    (b * T.arange(4.0)).sum().backward()
    return names, b, x.grad


@program()
def prog_tas_fn_non_differentiable_mixed_and_materialize(T: Any) -> Any:
    got = []

    class SortVals(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            got.append(gi)
            (i,) = ctx.saved_tensors
            return T.zeros_like(gv).scatter(0, i, gv)

    x = T.tensor(_data(4), requires_grad=True)
    v, i = SortVals.apply(x)
    (v * T.arange(4.0)).sum().backward()
    return v, i, i.requires_grad, v.requires_grad, got, x.grad


@program()
def prog_tas_fn_dont_materialize_grads(T: Any) -> Any:
    got = []

    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            got.append((ga is None, gb is None))
            out = 0
            if ga is not None:
                out = out + ga * 2
            if gb is not None:
                out = out + gb * 3
            return out

    x = _t(T, 3)
    a, _b = Two.apply(x)
    a.sum().backward()
    g1 = x.grad.clone()
    _a2, b2 = Two.apply(x)
    b2.sum().backward()
    return got, g1, x.grad


@program()
def prog_tas_fn_needs_input_grad_and_non_tensor_args(T: Any) -> Any:
    seen = []

    class Scale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, k, flag):
            seen.append(("fwd", ctx.needs_input_grad))
            ctx.save_for_backward(x, w)
            ctx.k = k
            return x * w * k

        @staticmethod
        def backward(ctx, g):
            seen.append(("bwd", ctx.needs_input_grad))
            x, w = ctx.saved_tensors
            gx = g * w * ctx.k if ctx.needs_input_grad[0] else None
            gw = g * x * ctx.k if ctx.needs_input_grad[1] else None
            return gx, gw, None, None

    x = _t(T, 3)
    w = T.tensor(_data(3, seed=1))
    y = Scale.apply(x, w, 2.0, True)
    y.sum().backward()
    return seen, x.grad, y.grad_fn.k, y.grad_fn.name()


@program()
def prog_tas_fn_backward_gradient_count_and_non_tensor_position(T: Any) -> Any:
    def make(ret):
        class F(T.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, g):
                return ret(g)

        return F

    x = _t(T, 3)
    few = make(lambda g: (g,))
    many = make(lambda g: (g, None, None))
    many_t = make(lambda g: (g, None, g))
    nontensor = make(lambda g: (g, g))
    return (
        raises(lambda: few.apply(x, 2.0).sum().backward()),
        raises(lambda: many.apply(x, 2.0).sum().backward()),
        raises(lambda: many_t.apply(x, 2.0).sum().backward()),
        raises(lambda: nontensor.apply(x, 2.0).sum().backward()),
        x.grad,
    )


@program()
def prog_tas_fn_backward_grad_shape_and_dtype_validation(T: Any) -> Any:
    def make(ret):
        class G(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.sum(0)

            @staticmethod
            def backward(ctx, g):
                return ret(g)

        return G

    x = _t(T, 2, 3)
    outs = []
    for ret in (
        lambda g: g.expand(2, 3).double(),
        lambda g: g.expand(4, 2, 3),
        lambda g: g,
        lambda g: g[:1],
        lambda g: g.expand(2, 3).to(T.complex64),
        lambda g: g.expand(2, 3).long(),
    ):
        x.grad = None
        r = raises(lambda ret=ret: make(ret).apply(x).sum().backward())
        outs.append((r, x.grad))
    return outs


@program()
def prog_tas_fn_save_for_backward_checks(T: Any) -> Any:
    def make(save):
        class S(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x * 2
                ctx.save_for_backward(*save(x, y))
                return y

            @staticmethod
            def backward(ctx, g):
                return g * len(ctx.saved_tensors)

        return S

    x = _t(T, 3)
    return (
        raises(lambda: make(lambda x, y: (x, 3)).apply(x)),
        raises(lambda: make(lambda x, y: ([x],)).apply(x)),
        raises(lambda: make(lambda x, y: (x, None, y.exp())).apply(x).sum().backward()),
        x.grad,
    )


@program()
def prog_tas_fn_saved_tensors_freed_and_retained(T: Any) -> Any:
    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = _t(T, 3)
    y = Sq.apply(x)
    y.sum().backward(retain_graph=True)
    again = y.grad_fn.saved_tensors
    y.sum().backward()
    return (
        again,
        x.grad,
        raises(lambda: y.grad_fn.saved_tensors),
        raises(lambda: y.sum().backward()),
    )


@program()
def prog_tas_fn_ctx_is_grad_fn_and_attributes(T: Any) -> Any:
    class Affine(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, a, b):
            ctx.a = a
            ctx.extra = [1, 2]
            return x * a + b

        @staticmethod
        def backward(ctx, g):
            return g * ctx.a, None, None

    x = _t(T, 3)
    y = Affine.apply(x, 2.0, 1.0)
    gf = y.grad_fn
    return (
        gf.a,
        gf.extra,
        type(gf).__name__,
        gf.name(),
        [type(n).__name__ for n, _ in gf.next_functions],
        isinstance(gf, T.autograd.function.BackwardCFunction),
        gf.needs_input_grad,
    )


@program()
def prog_tas_fn_no_backward_defined_error(T: Any) -> Any:
    class NoBack(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    x = _t(T, 3)
    y = NoBack.apply(x)
    return y.grad_fn.name(), raises(lambda: y.sum().backward())


@program()
def prog_tas_fn_vjp_alias_and_jvp_missing(T: Any) -> Any:
    class V(T.autograd.Function):
        @staticmethod
        def forward(x):
            return x.sin()

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def vjp(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos()

    x = _t(T, 3)
    V.apply(x).sum().backward()
    return x.grad


@program()
def prog_tas_fn_once_differentiable_double_backward_error(T: Any) -> Any:
    from_fn = T.autograd.function.once_differentiable

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        @from_fn
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            seen.append((T.is_grad_enabled(), g.requires_grad))
            return 3 * x * x * g

    seen = []
    x = _t(T, 3)
    y = Cube.apply(x).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    info = (g.requires_grad, g.grad_fn.name() if g.grad_fn is not None else None)
    r = raises(lambda: g.sum().backward())
    return seen, g, info, r


@program()
def prog_tas_fn_double_backward_through_saved_output(T: Any) -> Any:
    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    x = _d(T, 3)
    y = Exp.apply(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return y, g, gg, g.grad_fn.name()


@program()
def prog_tas_fn_under_no_grad_and_inference(T: Any) -> Any:
    seen = []

    class P(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(T.is_grad_enabled())
            return x + 1

        @staticmethod
        def backward(ctx, g):
            return g

    x = _t(T, 2)
    with T.no_grad():
        a = P.apply(x)
    with T.inference_mode():
        b = P.apply(x)
    c = P.apply(x.detach())
    d = P.apply(x)
    return seen, (a.requires_grad, a.grad_fn), (b.is_inference(), b.requires_grad), c.grad_fn, d


@program()
def prog_tas_fn_exception_in_forward_and_backward(T: Any) -> Any:
    class Boom(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, fail):
            if fail:
                raise ValueError("forward failed")
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise KeyError("backward failed")

    x = _t(T, 2)
    r1 = raises(lambda: Boom.apply(x, True))
    y = Boom.apply(x, False)
    r2 = raises(lambda: y.sum().backward())
    return r1, r2, x.grad, T.is_grad_enabled()


@program()
def prog_tas_fn_reentrant_backward_inside_backward(T: Any) -> Any:
    class Inner(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.detach() * 1.0

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            with T.enable_grad():
                xd = x.detach().requires_grad_()
                y = (xd.sin() * xd).sum()
                (gi,) = T.autograd.grad(y, xd)
            return g * gi

    x = _t(T, 3)
    out = Inner.apply(x * 2)
    out.sum().backward()
    return x.grad


@program()
def prog_tas_fn_no_tensor_inputs_and_int_outputs(T: Any) -> Any:
    class Make(T.autograd.Function):
        @staticmethod
        def forward(ctx, n):
            return T.arange(float(n)), T.arange(n)

        @staticmethod
        def backward(ctx, a, b):
            return None

    class IntOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 10).long(), x * 2

        @staticmethod
        def backward(ctx, gi, gf):
            return gf * 2

    a, b = Make.apply(3)
    x = _t(T, 3)
    i, f = IntOut.apply(x)
    f.sum().backward()
    return (a.requires_grad, a.grad_fn, b), (i, i.requires_grad, f.grad_fn.name()), x.grad


@program()
def prog_tas_fn_setup_context_mark_non_diff_and_materialize(T: Any) -> Any:
    got = []

    class MaxIdx(T.autograd.Function):
        @staticmethod
        def forward(x):
            return x.max(0)

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            _, idx = output
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            ctx.n = x.shape[0]

        @staticmethod
        def backward(ctx, gv, gi):
            got.append(gi)
            (idx,) = ctx.saved_tensors
            out = T.zeros(ctx.n, dtype=gv.dtype)
            out[idx] = gv
            return out

    x = _t(T, 4)
    v, i = MaxIdx.apply(x)
    (v * 3).backward()
    return v, i, i.requires_grad, got, x.grad


@program()
def prog_tas_fn_apply_requires_staticmethods_and_legacy_call(T: Any) -> Any:
    class Legacy(T.autograd.Function):
        def forward(self, x):
            return x * 2

        def backward(self, g):
            return g

    class Fine(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = _t(T, 2)
    return raises(lambda: Legacy()(x)), raises(lambda: Fine()(x)), raises(lambda: Legacy.apply(x))


@program(warnings=False)  # torch's first forward-AD use imports jit modules that warn
def prog_tas_fn_jvp_results_checked(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    def make(jvp, n_out=1):
        def forward(ctx, x):
            return (x * 2, x * 3) if n_out == 2 else x * 2

        def backward(ctx, *g):
            return g[0]

        attrs = {"forward": staticmethod(forward), "backward": staticmethod(backward)}
        if jvp is not None:
            attrs["jvp"] = staticmethod(jvp)
        return type("Fn", (T.autograd.Function,), attrs)

    def run(F):
        with fwAD.dual_level():
            d = fwAD.make_dual(T.tensor([0.5, 1.0]), T.tensor([1.0, 2.0]))
            o = F.apply(d)
            outs = o if isinstance(o, tuple) else (o,)
            return [fwAD.unpack_dual(e).tangent for e in outs]

    return (
        run(make(lambda ctx, t: t * 2)),
        raises(lambda: run(make(None))),
        raises(lambda: run(make(lambda ctx, t: t[:1]))),
        raises(lambda: run(make(lambda ctx, t: t * 2, n_out=2))),
        run(make(lambda ctx, t: (t * 2, t * 3), n_out=2)),
    )


# --- saved-tensor hooks ----------------------------------------------------------------------


@program()
def prog_tas_saved_hooks_pack_sees_inputs_and_outputs(T: Any) -> Any:
    packed = []

    def pack(t):
        packed.append((tuple(t.shape), t.requires_grad, t.grad_fn is None))
        return t * 1

    def unpack(t):
        return t

    x = _t(T, 2, 3)
    w = _t(T, 3, seed=1)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        a = x * w
        b = a.exp()
        c = b.sum()
        d = a.pow(2)
    (c + d.sum()).backward()
    return packed, x.grad, w.grad


@program()
def prog_tas_saved_hooks_nested_innermost_wins(T: Any) -> Any:
    log = []

    def hooks(tag):
        return T.autograd.graph.saved_tensors_hooks(
            lambda t: (log.append(("pack", tag)), t)[1],
            lambda t: (log.append(("unpack", tag)), t)[1],
        )

    x = _t(T, 3)
    with hooks("outer"):
        y = x.sin()
        with hooks("inner"):
            z = y.cos()
    (z.sum()).backward()
    return log, x.grad


@program()
def prog_tas_saved_hooks_inplace_after_pack_not_detected(T: Any) -> Any:
    x = _t(T, 3)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
        a = x * 1.0
        y = a.exp()
    a.add_(1)
    y.sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        a = x * 1.0
        y = a * a
    a.mul_(2)
    r = raises(lambda: y.sum().backward())
    return g1, r, x.grad


@program()
def prog_tas_saved_hooks_with_custom_function(T: Any) -> Any:
    log = []

    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * x
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            x, _y = ctx.saved_tensors
            return 2 * x * g

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t.tolist()

    def unpack(v):
        log.append("unpack")
        return T.tensor(v)

    x = _t(T, 3)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = Sq.apply(x)
    y.sum().backward()
    return log, x.grad


@program()
def prog_tas_raw_saved_register_hooks_errors(T: Any) -> Any:
    x = _t(T, 3)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: t * 10, lambda t: t)
    r1 = raises(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    r2 = raises(lambda: raw.register_hooks(lambda t: t))
    y.sum().backward()
    r3 = raises(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    z = x.exp()
    zraw = z.grad_fn._raw_saved_result
    r4 = raises(lambda: zraw.register_hooks(1, 2))
    return r1, r2, x.grad, r3, r4


@program()
def prog_tas_disable_saved_hooks_messages(T: Any) -> Any:
    D = T.autograd.graph.disable_saved_tensors_hooks
    H = T.autograd.graph.saved_tensors_hooks
    x = _t(T, 2)

    def enter_inside():
        with D("no hooks here"), H(lambda t: t, lambda t: t):
            pass

    def disable_inside():
        with H(lambda t: t, lambda t: t), D("later"):
            return (x * x).sum()

    out = []
    out.append(raises(enter_inside))
    out.append(raises(disable_inside))
    with D("outer"):
        with D("inner"):
            out.append(raises(lambda: H(lambda t: t, lambda t: t).__enter__()))
        out.append(raises(lambda: H(lambda t: t, lambda t: t).__enter__()))
    with H(lambda t: t, lambda t: t):
        out.append((x * x).sum())
    return out


@program()
def prog_tas_saved_hooks_pack_grad_mode_and_unpack_in_double_backward(T: Any) -> Any:
    modes = []

    def pack(t):
        modes.append(("pack", T.is_grad_enabled()))
        return t

    def unpack(t):
        modes.append(("unpack", T.is_grad_enabled()))
        return t

    x = _d(T, 3)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * x * x).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return modes, g, gg


@program()
def prog_tas_saved_hooks_unpack_results_checked(T: Any) -> Any:
    H = T.autograd.graph.saved_tensors_hooks
    x = _t(T, 2)

    def run(pack, unpack):
        x.grad = None
        with H(pack, unpack):
            y = (x * x).sum()
        y.backward()
        return x.grad

    def enter_bad():
        with H(3, 4):
            pass

    return (
        raises(lambda: run(lambda t: t, lambda t: t.double())),
        raises(lambda: run(lambda t: t, lambda t: 3.0)),
        raises(lambda: run(lambda t: t, lambda t: None)),
        raises(lambda: run(lambda t: t * x, lambda t: t)),
        raises(lambda: run(lambda t: t, lambda t: t * 2)),
        raises(lambda: run(lambda t: t, lambda t: t.long())),
        raises(lambda: run(lambda t: 1 / 0, lambda t: t)),
        raises(enter_bad),
    )


@program()
def prog_tas_saved_hooks_identity_of_unpacked_values(T: Any) -> Any:
    H = T.autograd.graph.saved_tensors_hooks
    x = _t(T, 2)
    with H(lambda t: t.clone(), lambda t: t):
        y = x.exp()
        z = x * x
    r = y.grad_fn._saved_result
    s = z.grad_fn._saved_self
    with H(lambda t: t, lambda t: t):
        w = (x.exp() * 2).sum()
        (g,) = T.autograd.grad(w, x, create_graph=True)
    g.sum().backward()
    return (r is y, r.grad_fn is None, r.requires_grad), (s is x, s.is_leaf), g, x.grad


# --- anomaly mode ----------------------------------------------------------------------------


@program(warnings=False)
def prog_tas_anomaly_nan_in_backward(T: Any) -> Any:
    x = T.tensor([0.0, 1.0], requires_grad=True)
    with T.autograd.detect_anomaly():
        y = x.sqrt() * 0.0
        r1 = raises(lambda: (x / x).sum().backward(retain_graph=True))
        r2 = raises(lambda: y.sum().backward())
    x.grad = None
    with T.autograd.detect_anomaly(check_nan=False):
        (x / x).sum().backward()
    return r1, r2, x.grad


@program()
def prog_tas_anomaly_flags_and_set_detect(T: Any) -> Any:
    s = []
    s.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    with T.autograd.set_detect_anomaly(True, check_nan=False):
        s.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        with T.autograd.set_detect_anomaly(False):
            s.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        s.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    s.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    return s


@program(warnings=False)
def prog_tas_anomaly_custom_function_nan_message(T: Any) -> Any:
    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = _t(T, 2)
    with T.autograd.detect_anomaly():
        y = Bad.apply(x)
        r = raises(lambda: y.sum().backward())
    return r


# --- torch.autograd.graph --------------------------------------------------------------------


@program()
def prog_tas_increment_version_invalidates_saved(T: Any) -> Any:
    x = _t(T, 3)
    a = x * 1.0
    y = a * a
    v0 = a._version
    T.autograd.graph.increment_version(a)
    r = raises(lambda: y.sum().backward())
    T.autograd.graph.increment_version([x, a])
    return v0, a._version, x._version, r


@program()
def prog_tas_allow_mutation_on_saved_tensors(T: Any) -> Any:
    x = _t(T, 3)
    with T.autograd.graph.allow_mutation_on_saved_tensors():
        a = x * 1.0
        y = a.sin()
        a.mul_(2)
        y.sum().backward()
        aval = a.clone()
    return x.grad, aval, y


@program()
def prog_tas_gradient_edge_errors_and_leaf(T: Any) -> Any:
    x = _t(T, 3)
    c = T.ones(3)
    e = T.autograd.graph.get_gradient_edge(x)
    e2 = T.autograd.graph.get_gradient_edge(x)
    y = x * 2
    ey = T.autograd.graph.get_gradient_edge(y)
    return (
        e.node is e2.node,
        e.node.name(),
        e.output_nr,
        ey.node is y.grad_fn,
        raises(lambda: T.autograd.graph.get_gradient_edge(c)),
    )


@program()
def prog_tas_grad_wrt_intermediate_edge_after_inplace(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    edge = T.autograd.graph.get_gradient_edge(y)
    y.mul_(3)
    z = (y * y).sum()
    (g_old,) = T.autograd.grad(z, edge, retain_graph=True)
    (g_new,) = T.autograd.grad(z, y)
    return g_old, g_new


# --- version counters, leaves, misc -----------------------------------------------------------


@program()
def prog_tas_leaf_modified_under_no_grad_error_message(T: Any) -> Any:
    x = _t(T, 3)
    y = x * x
    with T.no_grad():
        x.add_(1)
    r = raises(lambda: y.sum().backward())
    w = _t(T, 2, 2, seed=3)
    z = w.mm(w)
    with T.no_grad():
        w[0, 0] = 5.0
    r2 = raises(lambda: z.sum().backward())
    return r, r2, x._version, w._version


@program()
def prog_tas_inplace_on_non_requiring_with_requiring_operand(T: Any) -> Any:
    a = T.zeros(3)
    w = _t(T, 3)
    a.add_(w * 2)
    info = (a.requires_grad, a.is_leaf, a.grad_fn.name())
    b = T.zeros(2, 3)
    v = b[0]
    v.copy_(w)
    info2 = (b.requires_grad, b.grad_fn.name(), v.grad_fn.name())
    (a.sum() + (b * 5).sum()).backward()
    return info, info2, w.grad


@program()
def prog_tas_view_before_base_requires_grad(T: Any) -> Any:
    b = T.tensor(_data(4))
    v = b[:2]
    b.requires_grad_()
    return v.requires_grad, v.is_leaf, v._base is b, (v * 2).requires_grad


@program()
def prog_tas_view_after_base_requires_grad(T: Any) -> Any:
    b = T.tensor(_data(4))
    b.requires_grad_()
    info = b[:2].is_leaf
    u = b[:2]
    info2 = (u.requires_grad, u.grad_fn.name())
    r = raises(lambda: u.mul_(2))
    return info, info2, r


@program()
def prog_tas_view_chain_base_and_detach_view(T: Any) -> Any:
    x = _t(T, 2, 3)
    y = x * 1.0
    v = y.view(3, 2).t().unsqueeze(0)
    d = y.detach()
    dv = y[0].detach()
    return (
        v._base is y,
        v._is_view(),
        v.grad_fn.name(),
        d._is_view(),
        d._base is None,
        dv._is_view(),
        dv._base is None,
        x[0]._base is x,
        x.detach().requires_grad_().is_leaf,
    )


@program()
def prog_tas_out_argument_with_requires_grad_errors(T: Any) -> Any:
    x = _t(T, 3)
    out = T.empty(3)
    r1 = raises(lambda: T.add(x, 1, out=out))
    r2 = raises(lambda: T.exp(x, out=out))
    with T.no_grad():
        T.mul(x, 2, out=out)
    o2 = T.empty(3, requires_grad=True)
    r3 = raises(lambda: T.add(T.ones(3), 1, out=o2))
    return r1, r2, out, r3


@program()
def prog_tas_create_graph_backward_warning_and_grad_grad(T: Any) -> Any:
    w = T.nn.Parameter(T.tensor(_data(3)))
    (w**3).sum().backward(create_graph=True)
    g = w.grad
    info = (g.requires_grad, g.grad_fn.name(), g.is_leaf)
    g.sum().backward()
    return info, w.grad


@program()
def prog_tas_variable_legacy_wrapper(T: Any) -> Any:
    V = T.autograd.Variable
    v = V(T.tensor(_data(3)), requires_grad=True)
    (v * 2).sum().backward()
    u = V(T.ones(2))
    return type(v).__name__, v.requires_grad, v.grad, u.requires_grad, isinstance(v, T.Tensor)


@program()
def prog_tas_grad_zeroing_patterns(T: Any) -> Any:
    x = _t(T, 3)
    (x * x).sum().backward(create_graph=True)
    g = x.grad
    x.grad.detach_()
    d = (g.requires_grad, g.grad_fn)
    x.grad.zero_()
    (x * 2).sum().backward()
    z = x.grad.clone()
    x.grad.requires_grad_(False)
    x.grad = None
    (x * 3).sum().backward()
    return d, z, x.grad, g


@program()
def prog_tas_grad_of_output_list_with_nonrequiring_element(T: Any) -> Any:
    x = _t(T, 3)
    a = (x * 2).sum()
    b = T.ones(())
    return (
        raises(lambda: T.autograd.grad([a, b], x, retain_graph=True)),
        raises(lambda: T.autograd.backward([a, b])),
        T.autograd.grad([a, a], x),
    )


# --- hooks with autograd.grad, node calls, copies ---------------------------------------------


@program()
def prog_tas_grad_wrt_nonleaf_runs_tensor_hook_not_node(T: Any) -> Any:
    log = []
    a = _t(T, 2)
    b = a * 2
    c = (b * b).sum()
    b.register_hook(lambda g: log.append(("tensor", _c(g))))
    b.grad_fn.register_prehook(lambda go: log.append(("pre", _c(go[0]))))
    b.grad_fn.register_hook(lambda gi, go: log.append(("post", _c(gi[0]))))
    (g1,) = T.autograd.grad(c, b, retain_graph=True)
    n1 = len(log)
    g2 = T.autograd.grad(c, (a, b), retain_graph=True)
    n2 = len(log)
    c.backward(inputs=[b])
    return g1, g2, n1, n2, log, b.grad


@program()
def prog_tas_grad_wrt_nonleaf_hook_modifies_captured(T: Any) -> Any:
    a = _t(T, 2)
    b = a * 2
    b.register_hook(lambda g: g * 100)
    c = (b * 3).sum()
    (gb,) = T.autograd.grad(c, b, retain_graph=True)
    (ga,) = T.autograd.grad(c, a)
    return gb, ga


@program()
def prog_tas_call_builtin_node_directly(T: Any) -> Any:
    x = _t(T, 3)
    w = _t(T, 3, seed=1)
    y = x * w
    gx, gw = y.grad_fn(T.ones(3))
    s = x.exp()
    (gs,) = (s.grad_fn(T.full((3,), 2.0)),)
    return gx, gw, gs, raises(lambda: y.grad_fn(T.ones(3), T.ones(3)))


@program()
def prog_tas_deepcopy_and_pickle_of_nonleaf(T: Any) -> Any:
    import copy
    import pickle

    x = _t(T, 3)
    y = x * 2
    c = copy.deepcopy(x)
    p = pickle.loads(pickle.dumps(x))
    return (
        (c.requires_grad, c.is_leaf, c is x, c.grad),
        (p.requires_grad, p),
        raises(lambda: copy.deepcopy(y)),
        raises(lambda: pickle.dumps(y)),
        copy.copy(y).grad_fn,
    )


@program()
def prog_tas_deepcopy_keeps_grad(T: Any) -> Any:
    import copy

    x = _t(T, 3)
    (x * 3).sum().backward()
    c = copy.deepcopy(x)
    c.grad.add_(1)
    return c.grad, x.grad, c.grad is x.grad


@program()
def prog_tas_backward_inputs_forms_and_errors(T: Any) -> Any:
    x = _t(T, 3)
    u = _t(T, 3, seed=1)
    y = (x * x).sum()
    y.backward(inputs=x, retain_graph=True)
    g = x.grad.clone()
    r1 = raises(lambda: y.backward(inputs=[u], retain_graph=True))
    r2 = raises(lambda: y.backward(inputs=[x.detach()], retain_graph=True))
    r3 = raises(lambda: y.backward(inputs=(1.0,), retain_graph=True))
    y.backward(inputs=(x, u))
    return g, r1, r2, r3, x.grad, u.grad


@program()
def prog_tas_grad_batched_shape_error_messages(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    return (
        raises(
            lambda: T.autograd.grad(y, x, T.ones(2, 4), is_grads_batched=True, retain_graph=True)
        ),
        raises(lambda: T.autograd.grad(y, x, T.ones(3), is_grads_batched=True, retain_graph=True)),
        T.autograd.grad(y, x, T.ones(2, 1, 3).squeeze(1), is_grads_batched=True, retain_graph=True),
        T.autograd.grad(y.sum(), x, T.arange(3.0), is_grads_batched=True),
    )


@program()
def prog_tas_grad_nonleaf_many_outputs(T: Any) -> Any:
    x = _t(T, 4)
    a, b = (x * 2).split(2)
    z = (a * b).sum()
    ga, gb = T.autograd.grad(z, [a, b], retain_graph=True)
    (gx,) = T.autograd.grad(z, x, create_graph=True)
    return ga, gb, gx, gx.grad_fn.name()


@program()
def prog_tas_leaf_assignment_into_non_requiring(T: Any) -> Any:
    x = T.zeros(3, 2)
    y = _t(T, 2)
    z = _t(T, 2, seed=1)
    x[0] = y
    x[1] = z * 2
    info = (x.requires_grad, x.is_leaf, x.grad_fn.name())
    x.sum().backward()
    w = _t(T, 3, 2, seed=2)
    r = raises(lambda: w.__setitem__(0, y))
    q = T.zeros(2)
    with T.no_grad():
        q[0] = y[0]
    return info, y.grad, z.grad, r, q.requires_grad


@program()
def prog_tas_requires_grad_inplace_add(T: Any) -> Any:
    a = T.tensor(_data(2, 2))
    b = _t(T, 2, 2, seed=1)
    a += b
    info = (a.requires_grad, a.is_leaf, a.grad_fn.name())
    c = T.tensor(_data(4, 2, seed=2)) + 0
    c[2:] += b
    info2 = (c.requires_grad, c.grad_fn.name())
    (a.sum() + c.sum()).backward()
    return info, info2, b.grad


@program()
def prog_tas_type_conversions_grad_fns(T: Any) -> Any:
    x = _t(T, 3)
    d = x.double()
    h = x.half()
    same = x.float()
    i = x.long()
    t = x.to(T.float64)
    (d.sum() + h.float().sum() * 2 + t.sum()).backward()
    return (
        d.grad_fn.name(),
        h.grad_fn.name(),
        same is x,
        (i.requires_grad, i.grad_fn),
        x.type(T.float64).grad_fn.name(),
        x.grad,
    )


@program()
def prog_tas_numpy_of_requiring_tensor(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    return (
        raises(lambda: x.numpy()),
        raises(lambda: y.numpy()),
        x.numpy(force=True).tolist(),
        x.detach().numpy().tolist(),
        raises(lambda: y.tolist()),
        y.tolist(),
    )


@program()
def prog_tas_save_none_and_saved_variables_deprecated(T: Any) -> Any:
    class S(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(None, x, None)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            _a, _x, _c = ctx.saved_tensors
            return g * 2, None

    x = _t(T, 3)
    out = S.apply(x, None)
    out.sum().backward(retain_graph=True)
    sv = raises(lambda: out.grad_fn.saved_variables)
    return out.grad_fn.saved_tensors[0], out.grad_fn.saved_tensors[2], x.grad, sv


@program()
def prog_tas_fn_returns_none_grad_leaves_grad_unset(T: Any) -> Any:
    class Zero(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return None, g

    x = _t(T, 3)
    y = _t(T, 3, seed=1)
    z = Zero.apply(x, y)
    z.sum().backward()
    w = x * 2
    (g,) = T.autograd.grad(Zero.apply(w, y).sum(), x, allow_unused=True)
    return x.grad, y.grad, g


@program()
def prog_tas_fn_return_leaf_input_and_new(T: Any) -> Any:
    class RetLeaf(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a, a + b

        @staticmethod
        def backward(ctx, ga, gb):
            return ga + gb, gb

    a = _t(T, 3)
    b = _t(T, 3, seed=1)
    q, p = RetLeaf.apply(a, b)
    info = (q is a, q.is_leaf, q.grad_fn.name(), p.grad_fn is q.grad_fn)
    q.register_hook(lambda g: g * 5)
    (q * p).sum().backward()
    return info, a.grad, b.grad


@program()
def prog_tas_fn_output_dtype_and_requires_grad_rules(T: Any) -> Any:
    class Cast(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.double() * 2, (x > 0)

        @staticmethod
        def backward(ctx, g, gb):
            return g.float() * 2

    x = _t(T, 3)
    d, m = Cast.apply(x)
    d.sum().backward()
    return d.dtype, m.requires_grad, m.grad_fn, x.grad, x.grad.dtype


# --- grad-mode corners -----------------------------------------------------------------------


@program()
def prog_tas_grad_mode_restored_after_exception(T: Any) -> Any:
    def fail():
        with T.no_grad():
            raise ValueError("x")

    def fail2():
        with T.inference_mode():
            raise ValueError("y")

    r1 = raises(fail)
    s1 = T.is_grad_enabled()
    r2 = raises(fail2)
    s2 = (T.is_grad_enabled(), T.is_inference_mode_enabled())
    with T.set_grad_enabled(False):
        r3 = raises(fail)
        s3 = T.is_grad_enabled()
    return r1, s1, r2, s2, r3, s3


@program()
def prog_tas_grad_mode_in_backward_of_no_grad_forward(T: Any) -> Any:
    modes = []

    class M(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            modes.append(T.is_grad_enabled())
            return g * 2

    x = _t(T, 2)
    y = M.apply(x).sum()
    with T.no_grad():
        y.backward()
    z = M.apply(x).sum()
    with T.no_grad():
        (gx,) = T.autograd.grad(z, x, create_graph=True)
    return modes, x.grad, gx.requires_grad


@program()
def prog_tas_set_grad_enabled_bad_args_and_class_decorator(T: Any) -> Any:
    r1 = raises(lambda: T.set_grad_enabled())
    r2 = raises(lambda: T.no_grad(True))
    gen_state = T.is_grad_enabled()

    class C:
        @T.no_grad()
        def m(self, t):
            return t * 2

    x = _t(T, 2)
    return r1, r2, gen_state, C().m(x).requires_grad, T.inference_mode(mode=False).mode


@program()
def prog_tas_enable_grad_inside_inference_mode(T: Any) -> Any:
    x = _t(T, 2)
    with T.inference_mode(), T.enable_grad():
        y = x * 2
        s = (T.is_grad_enabled(), T.is_inference_mode_enabled())
    with T.no_grad():
        with T.inference_mode():
            z = x * 2
        after = T.is_grad_enabled()
    return (y.requires_grad, y.is_inference()), s, z.is_inference(), after


@program()
def prog_tas_inference_tensor_in_custom_function_and_view(T: Any) -> Any:
    with T.inference_mode():
        t = T.tensor(_data(3))
    x = _t(T, 3)
    r1 = raises(lambda: (x * t.view(3)).sum().backward())
    c = t.clone()
    (x * c).sum().backward()
    r2 = raises(lambda: t.view(3).add_(1))
    r3 = raises(lambda: t.resize_(4))
    return r1, x.grad, r2, r3, c.is_inference()


# --- views + in-place, more ------------------------------------------------------------------


@program()
def prog_tas_inplace_on_view_of_leaf_created_in_no_grad(T: Any) -> Any:
    x = _t(T, 4)
    with T.no_grad():
        v = x[:2]
    r = raises(lambda: v.mul_(2))
    with T.no_grad():
        d = x.view(2, 2)
    info = (v.requires_grad, d.requires_grad, v._is_view())
    return r, info


@program()
def prog_tas_inplace_view_chain_grads(T: Any) -> Any:
    x = _t(T, 4, 4)
    b = x.clone()
    b.diagonal().mul_(3)
    b.t()[0].add_(b[:, 1].detach())
    b[1:3, 1:3].sigmoid_()
    out = (b * b).sum()
    out.backward()
    return b, x.grad, b.grad_fn.name()


@program()
def prog_tas_setitem_mask_and_index_grads(T: Any) -> Any:
    x = _t(T, 5)
    v = _t(T, 2, seed=1)
    b = x * 1.0
    m = T.tensor([True, False, True, False, False])
    b[m] = v * 2
    b[T.tensor([4])] += 1
    (b * T.arange(5.0)).sum().backward()
    return b, x.grad, v.grad, b.grad_fn.name()


@program()
def prog_tas_view_inplace_unsafe_views_and_as_strided(T: Any) -> Any:
    x = _t(T, 6)
    b = x * 1.0
    v = b.as_strided((2, 2), (1, 2))
    v.mul_(2)
    (b * b).sum().backward()
    g = x.grad.clone()
    x.grad = None
    b2 = x * 1.0
    u = b2.view(-1).unfold(0, 2, 2)
    u.add_(1)
    b2.sum().backward()
    return b, g, b.grad_fn.name(), x.grad


@program()
def prog_tas_complex_view_real_inplace(T: Any) -> Any:
    z = T.tensor([1.0 + 2j, -1.0 + 0.5j], requires_grad=True)
    w = z * 1.0
    r = T.view_as_real(w)
    r.mul_(2)
    (w.abs()).sum().backward()
    return w, z.grad, w.grad_fn.name(), r.grad_fn.name()


@program()
def prog_tas_complex_real_imag_and_view_as_complex_inplace(T: Any) -> Any:
    z = T.tensor([[1.0 + 2j, -1.0 + 0.5j], [0.3 - 0.2j, 2 + 1j]], requires_grad=True)
    c = T.tensor([1 + 1j, 2 - 1j])
    w = z * 1.0
    w.t().real.mul_(3)
    w[0].imag.mul_(w[1].real.detach().clone())
    T.view_as_real(w[1:]).pow_(2)
    out = (w * c).abs().pow(2).sum()
    (g,) = T.autograd.grad(out, z, create_graph=True)
    (gg,) = T.autograd.grad(T.view_as_real(g).pow(2).sum(), z)
    x = T.tensor(_data(3, 2), requires_grad=True)
    b = x * 1.0
    v = T.view_as_complex(b)
    v[1:].mul_(1j)
    (b * T.tensor(_data(3, 2, seed=1))).sum().backward()
    return w, g, gg, x.grad, b.grad_fn.name(), v.grad_fn.name(), w.grad_fn.name()


@program(
    xfail="a view across a dtype change (.real, view_as_real of a view) modified in place gets "
    "grad_fn as_strided on view_as_real(base); torch replays the recorded view chain "
    "(as_strided to the complex view, view_as_real, as_strided), so the node names differ"
)
def prog_tas_complex_view_chain_names_after_inplace(T: Any) -> Any:
    z = T.tensor([1.0 + 2j, -1.0 + 0.5j, 3j], requires_grad=True)
    w = z * 1.0
    a = T.view_as_real(w[1:])
    a.mul_(2)
    names = []
    node = a.grad_fn
    while node is not None and node.name() != "CopySlices":
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@program()
def prog_tas_resize_and_set_on_requiring(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    return (
        raises(lambda: x.resize_(4)),
        raises(lambda: y.resize_(2)),
        raises(lambda: x.resize_as_(T.zeros(5))),
    )


@program()
def prog_tas_version_counter_across_ops(T: Any) -> Any:
    x = T.zeros(4)
    v = x[1:]
    d = x.detach()
    vs = [x._version]
    x.add_(1)
    vs.append((x._version, v._version, d._version))
    v.mul_(2)
    vs.append((x._version, v._version, d._version))
    x[0] = 3
    vs.append(x._version)
    x.copy_(T.ones(4))
    vs.append(x._version)
    T.add(T.ones(4), 1, out=x)
    vs.append(x._version)
    x.data.add_(1)
    vs.append(x._version)
    y = x.clone()
    vs.append(y._version)
    return vs


# --- user-set .grad, leaf views, inference tensors -------------------------------------------


@program()
def prog_tas_accumulate_into_user_set_grads(T: Any) -> Any:
    x = _t(T, 3)
    x.grad = T.zeros(1).expand(3)
    r = raises(lambda: (x * 2).sum().backward())
    y = _t(T, 3, seed=1)
    g0 = T.ones(3, requires_grad=True)
    y.grad = g0
    (y * 2).sum().backward()
    return r, x.grad, y.grad, y.grad is g0, y.grad.requires_grad


@program()
def prog_tas_accumulate_into_transposed_grad(T: Any) -> Any:
    x = _t(T, 2, 2)
    x.grad = T.zeros(2, 2).t()
    (x * T.tensor(_data(2, 2, seed=1))).sum().backward()
    return x.grad, x.grad.stride()


@program()
def prog_tas_leaf_view_made_by_requires_grad(T: Any) -> Any:
    base = T.zeros(4)
    v = base[:2].requires_grad_()
    info = (v.is_leaf, v.grad_fn, v._base is base)
    r = raises(lambda: v.mul_(2))
    base.add_(1)
    info2 = (v.grad_fn, v.is_leaf, v.requires_grad, v._version)
    (v * 3).sum().backward()
    return info, r, info2, v.grad, base


@program()
def prog_tas_inference_mode_requires_grad_tensor_used_later(T: Any) -> Any:
    with T.inference_mode():
        p = T.ones(2, requires_grad=True)
        q = p * 2
    w = _t(T, 2)
    n = T.ones(3)
    with T.inference_mode():
        vv = n[1:]
        vv.add_(1)
    return (
        (p.requires_grad, p.is_inference(), q.requires_grad, q.grad_fn),
        raises(lambda: (w * p).sum().backward()),
        raises(lambda: (w + p).sum().backward()),
        w.grad,
        (vv.is_inference(), n._version, n),
    )


@program()
def prog_tas_node_hook_registration_argument_errors(T: Any) -> Any:
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = _t(T, 2)
    y = x * 2
    out = []
    for n in (y.grad_fn, F.apply(x).grad_fn, y.grad_fn.next_functions[0][0]):
        out.append(
            (
                raises(lambda n=n: n.register_hook()),
                raises(lambda n=n: n.register_hook(print, print)),
                raises(lambda n=n: n.register_prehook(fn=print)),
            )
        )
    return out


@program()
def prog_tas_anomaly_mode_argument_types(T: Any) -> Any:
    out = [
        raises(lambda: T.autograd.set_detect_anomaly(1)),
        raises(lambda: T.autograd.set_detect_anomaly(True, check_nan=1)),
        (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()),
    ]
    with T.autograd.set_detect_anomaly(True, check_nan=False):
        out.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        out.append(raises(lambda: T.autograd.set_detect_anomaly(None)))
        out.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    out.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    return out


@program(warnings=False)
def prog_tas_anomaly_backward_of_custom_function_raising(T: Any) -> Any:
    class B(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("inner failure")

    x = _t(T, 2)
    with T.autograd.detect_anomaly():
        r = raises(lambda: B.apply(x).sum().backward())
        z = T.tensor([0.0, 1.0], requires_grad=True)
        (g,) = T.autograd.grad(z.log().sum(), z, create_graph=True)
    return r, g, x.grad


@program()
def prog_tas_fn_ctx_marking_misuse(T: Any) -> Any:
    def make(fwd):
        return type(
            "Fn",
            (T.autograd.Function,),
            {"forward": staticmethod(fwd), "backward": staticmethod(lambda ctx, g: g * 2)},
        )

    def dirty_clone_returned(ctx, a):
        b = a.clone()
        b.mul_(2)
        ctx.mark_dirty(b)
        return b

    def dirty_one_not_returned(ctx, a):
        b, c = a.clone(), a.clone()
        ctx.mark_dirty(b, c)
        return b

    def dirty_non_tensor(ctx, a):
        ctx.mark_dirty(a, "q")
        return a

    def non_diff_non_tensor(ctx, a):
        ctx.mark_non_differentiable(3)
        return a * 2

    def non_diff_input(ctx, a):
        ctx.mark_non_differentiable(a)
        return a * 2

    x = _t(T, 2)
    y = make(dirty_clone_returned).apply(x * 1)
    return (
        (y, y._version, y.grad_fn.name()),
        raises(lambda: make(dirty_one_not_returned).apply(x * 1)),
        raises(lambda: make(dirty_non_tensor).apply(x * 1)),
        raises(lambda: make(non_diff_non_tensor).apply(x)),
        make(non_diff_input).apply(x),
    )


@program()
def prog_tas_fn_odd_return_values(T: Any) -> Any:
    def make(fwd, bwd=lambda ctx, *g: g[0]):
        return type(
            "Fn",
            (T.autograd.Function,),
            {"forward": staticmethod(fwd), "backward": staticmethod(bwd)},
        )

    x = _t(T, 2)
    other = _t(T, 2, seed=4)
    mid = other * 2
    r_other = make(lambda ctx, a: other).apply(x)
    r_mid = make(lambda ctx, a: mid).apply(x)
    return (
        make(lambda ctx, a: None).apply(x),
        make(lambda ctx, a: [a * 2, a * 3]).apply(x),
        make(lambda ctx, a: {"a": a * 2}).apply(x),
        make(lambda ctx, a: (a * 2, (a * 3,))).apply(x),
        (r_other is other, other.is_leaf, other.grad_fn.name()),
        (r_mid is mid, mid.grad_fn.name(), mid._base is None),
        raises(lambda: make(lambda ctx, a: a * 2, lambda ctx, g: [g]).apply(x).sum().backward()),
        raises(lambda: make(lambda ctx, a: a * 2, lambda ctx, g: 1.0).apply(x).sum().backward()),
        make(lambda ctx, a, b: a * b).apply(x, 2.0).grad_fn.needs_input_grad,
    )


@program()
def prog_tas_legacy_constructor_aliases_and_to_copy(T: Any) -> Any:
    x = _t(T, 2)
    a = T.Tensor(x)
    f = T.FloatTensor(x)
    i = T.Tensor(T.tensor([1, 2]))
    (a * 3).sum().backward()
    d = T.ones(2)
    al = T.Tensor(d)
    al.add_(1)
    c = x.to(T.float32, copy=True)
    c2 = x.to(copy=True)
    return (
        (a.grad_fn.name(), a._base is x, f.grad_fn.name(), i.dtype, i._is_view()),
        x.grad,
        (d, d._version, al._version),
        (c.grad_fn.name(), c2.grad_fn.name(), x.to(T.float32) is x),
        raises(lambda: T.DoubleTensor(x)),
    )


# --- graph structure -------------------------------------------------------------------------


def _tree(node: Any, depth: int = 2) -> Any:
    """A node's name with its next_functions (name and input_nr) down to `depth`."""
    if node is None:
        return None
    if depth == 0:
        return node.name()
    return (node.name(), [(_tree(n, depth - 1), i) for n, i in node.next_functions])


@program()
def prog_tas_next_functions_of_mixed_operand_ops(T: Any) -> Any:
    x = _t(T, 2, 3)
    w = _t(T, 2, 3, seed=1)
    c = T.tensor(_data(2, 3, seed=2)).abs() + 1
    idx = T.tensor([1, 0])
    outs = [
        x.clamp(min=w),
        x.clamp(min=0.0),
        T.cat([x, c, w]),
        T.stack([c, x]),
        T.where(x > 0, x, w),
        T.where(x > 0, x, 0.0),
        x[idx],
        x.index_put((idx,), w[:, :1]),
        T.addcmul(x, c, w, value=2),
        T.lerp(x, c, w),
        x.masked_fill(c > 1.5, w[0, 0]),
        x.scatter(1, T.tensor([[0], [2]]), w[:, :1]),
        x.abs().pow(w),
        T.pow(2.0, x),
        T.sub(x, w, alpha=2),
        1 - x,
        T.nn.functional.linear(x, w, w[0, :2]),
        x.t().reshape(6),
        x.reshape(3, 2),
        T.std_mean(x, 1)[0],
        T.polar(x.abs(), w),
        T.complex(x, w),
        x.tile(2),
        x.tile(2, 1),
        x.split([1, 2], 1)[1],
        T.baddbmm(c.unsqueeze(0)[:, :, :2], x.unsqueeze(0), w.t().unsqueeze(0)),
        T.cdist(x, w),
        x.sum(dtype=T.float64),
    ]
    x.tile(2).sum().backward()
    return [_tree(o.grad_fn) for o in outs], x.grad, raises(lambda: T.tile(x, 2))


@program()
def prog_tas_normalize_graph(T: Any) -> Any:
    x = _t(T, 2, 3)
    y = T.nn.functional.normalize(x)
    y.sum().backward()
    return _tree(y.grad_fn, 3), x.grad


# --- harness ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
