"""Realistic programs, fifth set: autograd-engine semantics as users meet them (backward with
`inputs=`, autograd.grad options, retain_graph and higher-order grads, in-place ops and version
counters, grad_fn introspection and saved attributes, node and tensor hooks, anomaly mode, grad
modes and inference tensors, checkpointing and saved-tensor hooks, forward AD and torch.func,
custom Function corners). The programs register into test_realistic_programs_3's set and run
through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns,
raises or warns is compared.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _versions(*ts: Any) -> list[int]:
    return [int(t._version) for t in ts]


# --- backward(inputs=...) and autograd.grad options ------------------------------------------


@program()
def prog_two_stage_backward_inputs_per_stage(T: Any) -> Any:
    """Train an encoder and a head with separate backward calls restricted by `inputs=`."""
    enc = _seeded(T, T.nn.Linear(3, 4), 0)
    head = _seeded(T, T.nn.Linear(4, 2), 1)
    x = T.tensor(_data(5, 3))
    h = T.tanh(enc(x))
    loss = head(h).pow(2).mean()
    loss.backward(inputs=list(head.parameters()), retain_graph=True)
    after_head = [p.grad for p in enc.parameters()]
    loss.backward(inputs=[enc.weight])
    return {
        "head": [p.grad for p in head.parameters()],
        "enc_after_head": after_head,
        "enc_w": enc.weight.grad,
        "enc_b": enc.bias.grad,
    }


@program()
def prog_backward_inputs_non_leaf_and_unreached(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    other = T.ones(2, requires_grad=True)
    h = x * w
    out = (h.exp() * 0.1).sum()
    out.backward(inputs=[h, other], retain_graph=True)
    h_grad = h.grad.clone()
    out.backward(inputs=(x,))
    return {
        "h_grad": h_grad,
        "h_retains": h.retains_grad,
        "other": other.grad,
        "x": x.grad,
        "w": w.grad,
        "empty": raises(lambda: (x * 2).sum().backward(inputs=[])),
        "no_grad_input": raises(lambda: (x * 2).sum().backward(inputs=[T.ones(3)])),
    }


@program()
def prog_autograd_backward_function_multiple_roots(T: Any) -> Any:
    x = T.tensor(_data(2, 3), requires_grad=True)
    a = x.sin()
    b = (x * x).sum(1)
    T.autograd.backward([a, b], [T.ones(2, 3), T.tensor([1.0, -2.0])])
    g1 = x.grad.clone()
    x.grad = None
    c = x.cos().sum()
    T.autograd.backward(c, inputs=[x])
    g2 = x.grad.clone()
    x.grad = None
    T.autograd.backward((x.exp().sum(), x.mean()), grad_tensors=(None, T.tensor(3.0)))
    return {
        "g1": g1,
        "g2": g2,
        "g3": x.grad,
        "len_mismatch": raises(lambda: T.autograd.backward([x.sum(), x.mean()], [T.tensor(1.0)])),
    }


@program()
def prog_grad_allow_unused_materialize_in_model(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 2)
    unused = T.nn.Parameter(T.ones(4))
    x = T.tensor(_data(4, 3))
    loss = lin(x).relu().sum()
    params = [lin.weight, unused, lin.bias]
    g_none = T.autograd.grad(loss, params, allow_unused=True, retain_graph=True)
    g_zero = T.autograd.grad(loss, params, materialize_grads=True, retain_graph=True)
    err = raises(lambda: T.autograd.grad(loss, params, retain_graph=True))
    bad = raises(lambda: T.autograd.grad(loss, params, allow_unused=False, materialize_grads=True))
    return {"none": g_none, "zero": g_zero, "err": err, "bad": bad}


@program()
def prog_grad_outputs_shapes_and_dtypes(T: Any) -> Any:
    x = T.tensor(_data(2, 3), requires_grad=True)
    y = x * 2 + 1
    out = {}
    out["f64"] = T.autograd.grad(y, x, T.ones(2, 3, dtype=T.float64), retain_graph=True)
    out["int"] = T.autograd.grad(y, x, T.ones(2, 3, dtype=T.long), retain_graph=True)
    out["shape"] = raises(lambda: T.autograd.grad(y, x, T.ones(3), retain_graph=True))
    out["bcast"] = raises(lambda: T.autograd.grad(y, x, T.ones(1, 3), retain_graph=True))
    out["complex"] = raises(
        lambda: T.autograd.grad(y, x, T.ones(2, 3, dtype=T.complex64), retain_graph=True)
    )
    out["list"] = raises(lambda: T.autograd.grad(y, x, [1.0], retain_graph=True))
    out["none_nonscalar"] = raises(lambda: T.autograd.grad(y, x, None, retain_graph=True))
    s = y.sum()
    out["scalar_1d_grad"] = raises(lambda: T.autograd.grad(s, x, T.ones(1), retain_graph=True))
    out["scalar_ok"] = T.autograd.grad(s, x, T.tensor(2.0))
    return out


@program()
def prog_grad_batched_jacobian_rows(T: Any) -> Any:
    """Rows of a Jacobian at once with is_grads_batched, checked against a loop."""
    x = T.tensor(_data(3), requires_grad=True)
    w = T.tensor(_data(4, 3, seed=1))
    y = T.tanh(w @ x)
    eye = T.eye(4)
    (jac,) = T.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True)
    rows = [T.autograd.grad(y, x, e, retain_graph=True)[0] for e in eye]
    (half,) = T.autograd.grad(y, x, eye[:2] * 0.5, is_grads_batched=True, retain_graph=True)
    bad = raises(lambda: T.autograd.grad(y, x, T.ones(4), is_grads_batched=True, retain_graph=True))
    return {"jac": jac, "rows": T.stack(rows), "half": half, "bad": bad}


@program()
def prog_grad_of_non_requiring_and_leaf_output(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = T.tensor([3.0, 4.0])
    with T.no_grad():
        nz = x * 2
    return {
        "plain": raises(lambda: T.autograd.grad(c.sum(), x)),
        "second": raises(lambda: T.autograd.grad([x.sum(), c.sum()], x)),
        "nograd": raises(lambda: T.autograd.grad(nz.sum(), x)),
        "self": T.autograd.grad(x, x, T.ones(2)),
        "input_no_grad": raises(lambda: T.autograd.grad((x * 2).sum(), c)),
        "unrelated": raises(lambda: T.autograd.grad((x * 2).sum(), T.ones(2, requires_grad=True))),
    }


# --- retain_graph ----------------------------------------------------------------------------


@program()
def prog_second_backward_through_model_errors(T: Any) -> Any:
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 3), T.nn.Sigmoid(), T.nn.Linear(3, 1)), 3)
    x = T.tensor(_data(4, 3))
    loss = model(x).mean()
    loss.backward()
    g = model[0].weight.grad.clone()
    second = raises(lambda: loss.backward())
    loss2 = model(x).mean()
    loss2.backward(retain_graph=True)
    loss2.backward()
    third = raises(lambda: loss2.backward())
    return {"g": g, "second": second, "acc": model[0].weight.grad, "third": third}


@program()
def prog_second_backward_saved_vs_unsaved_ops(T: Any) -> Any:
    x = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
    results = {}
    makers = {
        "add": lambda: (x + 3).sum(),
        "neg_sum": lambda: (-x).sum(),
        "view": lambda: x.view(3, 1).sum(),
        "relu": lambda: x.relu().sum(),
        "sigmoid": lambda: x.sigmoid().sum(),
        "abs": lambda: x.abs().sum(),
        "sub_scalar": lambda: (x - 1.5).mean(),
        "div_scalar": lambda: (x / 2).sum(),
        "cat": lambda: T.cat([x, x]).sum(),
        "expand": lambda: x.expand(2, 3).sum(),
        "index": lambda: x[[0, 2]].sum(),
        "mean": lambda: x.mean(),
        "max": lambda: x.max(),
    }
    for k, make in makers.items():
        x.grad = None
        y = make()
        y.backward()
        results[k] = raises(lambda y=y: y.backward())
        results[k + "_grad"] = x.grad
    return results


@program()
def prog_saved_tensor_access_after_free(T: Any) -> Any:
    x = T.tensor([0.5, 1.5], requires_grad=True)
    y = x.exp()
    z = y * x
    before = (y.grad_fn._saved_result, z.grad_fn._saved_self, z.grad_fn._saved_other)
    z.sum().backward()
    return {
        "before": before,
        "result": raises(lambda: y.grad_fn._saved_result),
        "self": raises(lambda: z.grad_fn._saved_self),
        "raw": raises(lambda: z.grad_fn._raw_saved_self),
        "g": x.grad,
    }


# --- higher order ----------------------------------------------------------------------------


@program()
def prog_third_order_through_op_zoo(T: Any) -> Any:
    x = T.tensor([0.3, -0.7, 1.2], dtype=T.float64, requires_grad=True)
    fns = {
        "sin": lambda v: v.sin(),
        "tanh": lambda v: v.tanh(),
        "sigmoid": lambda v: v.sigmoid(),
        "exp": lambda v: v.exp(),
        "log1p": lambda v: (v + 2).log1p(),
        "softplus": lambda v: T.nn.functional.softplus(v),
        "gelu": lambda v: T.nn.functional.gelu(v),
        "silu": lambda v: T.nn.functional.silu(v),
        "pow": lambda v: v.pow(4),
        "rsqrt": lambda v: (v + 2).rsqrt(),
        "atan": lambda v: v.atan(),
        "erf": lambda v: v.erf(),
        "softmax": lambda v: v.softmax(0) * T.arange(3.0, dtype=T.float64),
        "logsumexp": lambda v: v.logsumexp(0),
        "norm": lambda v: v.norm(),
        "cumprod": lambda v: v.cumprod(0),
        "mul_self": lambda v: v * v.sin(),
    }
    out = {}
    for k, f in fns.items():
        (g1,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
        (g2,) = T.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = T.autograd.grad(g2.sum(), x)
        out[k] = (g1.detach(), g2.detach(), g3, g1.grad_fn.name(), g2.grad_fn.name())
    return out


@program()
def prog_third_order_through_elu_family(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor([0.3, -0.7, 0.0, 1.2], dtype=T.float64, requires_grad=True)
    out = {}
    for k, f in {
        "elu": F.elu,
        "elu_alpha": lambda v: F.elu(v, alpha=0.5),
        "selu": F.selu,
        "celu": lambda v: F.celu(v, alpha=2.0),
    }.items():
        (g1,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
        (g2,) = T.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = T.autograd.grad(g2.sum(), x)
        out[k] = {"g": (g1, g2, g3), "names": (g1.grad_fn.name(), g2.grad_fn.name())}
    return out


@program()
def prog_hessian_vector_products_for_newton_step(T: Any) -> Any:
    w = T.tensor([0.2, -0.3, 0.5], dtype=T.float64, requires_grad=True)
    x = T.tensor(_data(6, 3)).double()
    y = T.tensor([1.0, 0.0, 1.0, 1.0, 0.0, 0.0], dtype=T.float64)
    loss = T.nn.functional.binary_cross_entropy_with_logits(x @ w, y)
    (g,) = T.autograd.grad(loss, w, create_graph=True)
    hv = [T.autograd.grad(g @ e, w, retain_graph=True)[0] for e in T.eye(3, dtype=T.float64)]
    H = T.stack(hv)
    step = T.linalg.solve(H, g.detach())
    return {"g": g, "H": H, "step": step, "gf": g.grad_fn.name()}


@program()
def prog_double_backward_matmul_conv_pool(T: Any) -> Any:
    x = T.tensor(_data(1, 2, 5, 5), dtype=T.float64, requires_grad=True)
    w = T.tensor(_data(3, 2, 3, 3, seed=1), dtype=T.float64, requires_grad=True)
    F = T.nn.functional
    y = F.max_pool2d(F.conv2d(x, w, padding=1).tanh(), 2)
    y = F.avg_pool2d(y, 2)
    (gx, gw) = T.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)
    pen = gx.pow(2).sum() + gw.pow(2).sum()
    pen.backward()
    return {"gx": gx.detach(), "pen": pen, "xg": x.grad, "wg": w.grad}


@program()
def prog_create_graph_backward_then_grad_of_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x**3).sum().backward(create_graph=True)
    g = x.grad
    first = {"g": g, "gf": g.grad_fn, "rg": g.requires_grad}
    (x**2).sum().backward(create_graph=True)
    second = {"g": x.grad, "gf": x.grad.grad_fn, "same": x.grad is g}
    (gg,) = T.autograd.grad(x.grad.sum(), x)
    return {"first": first, "second": second, "gg": gg, "old": g}


# --- in-place ops and version counters -------------------------------------------------------


@program()
def prog_version_counter_through_training_step(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 4)
    opt = T.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    x = T.tensor(_data(3, 2))
    log = []
    for _ in range(2):
        opt.zero_grad()
        lin(x).pow(2).sum().backward()
        log.append(("after_bw", _versions(lin.weight, lin.weight.grad)))
        opt.step()
        log.append(("after_step", _versions(lin.weight, lin.weight.grad)))
    return {"log": log, "w": lin.weight}


@program()
def prog_detach_data_share_versions(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d = x.detach()
    dd = x.data
    d.mul_(2)
    v1 = _versions(x, d, dd)
    dd.add_(1)
    v2 = _versions(x, d, dd)
    y = x * x
    d.zero_()
    err = raises(lambda: y.sum().backward())
    z = x * x
    x.data.fill_(5.0)
    z.sum().backward()
    return {"v1": v1, "v2": v2, "err": err, "x": x, "g": x.grad, "dd_view": dd._is_view()}


@program()
def prog_inplace_error_message_versions_in_model(T: Any) -> Any:
    """A user applies relu in place to a tensor sigmoid saved, then again to a saved output."""
    x = T.tensor(_data(2, 3), requires_grad=True)
    h = x.sigmoid()
    out = h * 2
    h.add_(1)
    h.mul_(0.5)
    e1 = raises(lambda: out.sum().backward())
    w = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    a = x @ w
    x2 = x.clone()
    b = x2 @ w
    x2.relu_()
    e2 = raises(lambda: b.sum().backward())
    e_ok = raises(lambda: a.sum().backward())
    return {"e1": e1, "e2": e2, "ok": e_ok, "vh": h._version, "vx2": x2._version, "g": w.grad}


@program()
def prog_inplace_on_leaf_view_and_nograd(T: Any) -> Any:
    w = T.zeros(4, requires_grad=True)
    e1 = raises(lambda: w.add_(1))
    e2 = raises(lambda: w[0].add_(1))
    e3 = raises(lambda: w.view(2, 2).mul_(2))
    with T.no_grad():
        w[1] = 5.0
        w.view(2, 2)[1].fill_(2.0)
    v = w._version
    (w * 3).sum().backward()
    return {"e1": e1, "e2": e2, "e3": e3, "w": w, "v": v, "g": w.grad, "leaf": w.is_leaf}


@program()
def prog_copy_slices_grad_fn_chain(T: Any) -> Any:
    x = T.tensor(_data(3, 4), requires_grad=True)
    buf = T.zeros(3, 4)
    buf[:, 1:3] = x[:, :2] * 2
    gf1 = buf.grad_fn
    buf[0] += x[0]
    gf2 = buf.grad_fn
    v = buf[1:]
    v.mul_(3)
    gf3 = (buf.grad_fn, v.grad_fn)
    buf.sum().backward()
    return {
        "names": [gf1.name(), gf2.name(), gf3[0].name(), gf3[1].name()],
        "graph": buf.grad_fn,
        "g": x.grad,
        "buf": buf,
        "ver": _versions(buf, v),
        "base": v._base is buf,
    }


@program()
def prog_view_grad_fn_after_base_inplace(T: Any) -> Any:
    a = T.tensor(_data(2, 3), requires_grad=True)
    base = a * 1
    view_t = base.t()
    view_s = base[0]
    view_u = base.unsqueeze(0)
    before = [view_t.grad_fn.name(), view_s.grad_fn.name(), view_u.grad_fn.name()]
    base.exp_()
    after = [view_t.grad_fn.name(), view_s.grad_fn.name(), view_u.grad_fn.name()]
    (view_t.sum() + view_s.sum() * 2 + view_u.sum()).backward()
    return {"before": before, "after": after, "g": a.grad, "vt": view_t, "graph": view_s.grad_fn}


@program()
def prog_inplace_op_grad_fn_names(T: Any) -> Any:
    x = T.tensor(_data(3), requires_grad=True)
    names = {}
    for k, f in {
        "add_": lambda t: t.add_(1),
        "mul_": lambda t: t.mul_(t.detach()),
        "sub_": lambda t: t.sub_(2, alpha=3),
        "div_": lambda t: t.div_(2),
        "clamp_": lambda t: t.clamp_(min=0),
        "relu_": lambda t: t.relu_(),
        "sigmoid_": lambda t: t.sigmoid_(),
        "tanh_": lambda t: t.tanh_(),
        "exp_": lambda t: t.exp_(),
        "pow_": lambda t: t.pow_(2),
        "neg_": lambda t: t.neg_(),
        "abs_": lambda t: t.abs_(),
        "fill_": lambda t: t.fill_(1.5),
        "zero_": lambda t: t.zero_(),
        "copy_": lambda t: t.copy_(T.ones(3)),
        "masked_fill_": lambda t: t.masked_fill_(T.tensor([True, False, True]), 0.0),
        "index_fill_": lambda t: t.index_fill_(0, T.tensor([1]), -1.0),
        "addcmul_": lambda t: t.addcmul_(t.detach(), T.ones(3), value=0.5),
        "lerp_": lambda t: t.lerp_(T.zeros(3), 0.25),
        "clamp_max_": lambda t: t.clamp_max_(0.1),
        "hardtanh_": lambda t: T.nn.functional.hardtanh_(t),
        "leaky_relu_": lambda t: T.nn.functional.leaky_relu_(t, 0.2),
    }.items():
        t = x.clone()
        r = f(t)
        err = raises(lambda r=r: r.sum().backward())
        names[k] = (r is t, r.grad_fn.name(), t._version, x.grad, r.detach(), err)
        x.grad = None
    return names


@program()
def prog_inplace_on_multi_output_views(T: Any) -> Any:
    x = T.tensor(_data(4, 2), requires_grad=True)
    y = x * 1
    a, b = y.split(2)
    c, _d = y.chunk(2, dim=1)
    return {
        "split": raises(lambda: a.mul_(2)),
        "chunk": raises(lambda: c.add_(1)),
        "unbind": raises(lambda: y.unbind(0)[0].zero_()),
        "narrow_ok": y.narrow(0, 0, 1).mul_(3).grad_fn.name(),
        "split_nograd": raises(lambda: T.no_grad()(lambda: b.add_(1).shape)()),
        "b": raises(lambda: b.grad_fn),
        "y_ver": y._version,
    }


@program()
def prog_running_statistics_updated_in_place(T: Any) -> Any:
    """A manual EMA of activations updated in place under no_grad while training."""
    lin = _seeded(T, T.nn.Linear(3, 3), 5)
    ema = T.zeros(3)
    x = T.tensor(_data(4, 3))
    out = []
    for _ in range(3):
        h = lin(x).tanh()
        with T.no_grad():
            ema.mul_(0.9).add_(h.mean(0), alpha=0.1)
        loss = (h - ema).pow(2).mean()
        loss.backward()
        out.append((loss, ema.clone(), ema._version, ema.requires_grad, lin.bias.grad.clone()))
    return out


@program()
def prog_saved_output_modified_errors(T: Any) -> Any:
    x = T.tensor([0.1, 0.5, -0.3], requires_grad=True)
    res = {}
    for k, f in {
        "exp": lambda v: v.exp(),
        "tanh": lambda v: v.tanh(),
        "sigmoid": lambda v: v.sigmoid(),
        "sqrt": lambda v: v.abs().sqrt(),
        "softmax": lambda v: v.softmax(0),
        "relu": lambda v: v.relu(),
        "pow": lambda v: v.pow(2),
    }.items():
        y = f(x)
        y.add_(1)
        res[k] = raises(lambda y=y: y.sum().backward())
    return res


@program()
def prog_inplace_on_input_of_multiple_consumers(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x + 0
    a = h * 3  # MulBackward0 saves nothing of h (scalar other)
    b = h.sin()  # saves h
    h.mul_(2)
    e = raises(lambda: (a + b).sum().backward())
    h2 = x + 0
    c = h2 * 3
    h2.mul_(2)
    (c.sum() + h2.sum()).backward()
    return {"e": e, "g": x.grad, "hv": h._version, "h2gf": h2.grad_fn.name()}


@program()
def prog_out_of_place_vs_inplace_same_grad(T: Any) -> Any:
    x = T.tensor(_data(5), requires_grad=True)
    y1 = x.clone()
    y1 = y1 * 2
    y1 = y1.clamp(-0.5, 0.5)
    y1 = y1 + 1
    y2 = x.clone()
    y2.mul_(2).clamp_(-0.5, 0.5).add_(1)
    (g1,) = T.autograd.grad(y1.pow(2).sum(), x)
    (g2,) = T.autograd.grad(y2.pow(2).sum(), x)
    return {"g1": g1, "g2": g2, "y2gf": y2.grad_fn, "v": y2._version}


@program()
def prog_increment_version_and_mark_dirty_like(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * y
    before = y._version
    T.autograd.graph.increment_version(y)
    err = raises(lambda: z.sum().backward())
    return {"before": before, "after": y._version, "err": err}


@program()
def prog_set_and_resize_errors_on_grad_tensors(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    return {
        "resize_leaf": raises(lambda: x.resize_(4)),
        "resize_nonleaf": raises(lambda: y.resize_(2)),
        "detach_view_": raises(lambda: y[0:2].detach_()),
        "detach_": y.detach_(),
        "after": (y.requires_grad, y.is_leaf, y.grad_fn),
    }


# --- grad_fn introspection -------------------------------------------------------------------


def _walk(node: Any, depth: int = 8) -> list[Any]:
    """A graph as (name, [(child name or None, input_nr)]) in depth-first order."""
    out: list[Any] = []
    stack = [(node, 0)]
    seen: list[Any] = []
    while stack:
        n, d = stack.pop()
        if n is None or d > depth or any(n is s for s in seen):
            continue
        seen.append(n)
        kids = [(c.name() if c is not None else None, nr) for c, nr in n.next_functions]
        out.append((n.name(), kids))
        stack.extend((c, d + 1) for c, _ in reversed(n.next_functions))
    return out


@program()
def prog_walk_graph_of_mlp_loss(T: Any) -> Any:
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 2)), 6)
    x = T.tensor(_data(5, 3))
    y = T.tensor([0, 1, 1, 0, 1])
    loss = T.nn.functional.cross_entropy(model(x), y)
    acc = loss.grad_fn.next_functions
    return {
        "walk": _walk(loss.grad_fn),
        "graph": loss.grad_fn,
        "nf_types": [type(n).__name__ for n, _ in acc],
    }


@program()
def prog_accumulate_grad_variable_and_identity(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(3))
    y1 = w * 2
    y2 = w + 1
    acc1 = y1.grad_fn.next_functions[0][0]
    acc2 = y2.grad_fn.next_functions[0][0]
    return {
        "same": acc1 is acc2,
        "var": acc1.variable is w,
        "name": acc1.name(),
        "nf": acc1.next_functions,
        "meta": acc1.metadata,
        "typename": type(acc1).__name__,
    }


@program()
def prog_saved_attributes_of_common_ops(T: Any) -> Any:
    x = T.tensor(_data(2, 3), requires_grad=True)
    w = T.tensor(_data(3, 4, seed=1), requires_grad=True)
    F = T.nn.functional
    out = {}
    y = x @ w
    out["mm"] = (y.grad_fn.name(), y.grad_fn._saved_self, y.grad_fn._saved_mat2)
    y = x.sum(1, keepdim=True)
    out["sum"] = (y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self_sym_sizes)
    y = x.mean(0)
    out["mean"] = (y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self_sym_sizes)
    y = x.pow(3)
    out["pow"] = (y.grad_fn._saved_exponent, y.grad_fn._saved_self)
    y = x.transpose(0, 1)
    out["transpose"] = (y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)
    y = x.view(3, 2)
    out["view"] = (y.grad_fn.name(), y.grad_fn._saved_self_sym_sizes)
    y = x.permute(1, 0)
    out["permute"] = y.grad_fn._saved_dims
    y = x[1]
    out["select"] = (y.grad_fn._saved_dim, y.grad_fn._saved_index, y.grad_fn._saved_self_sym_sizes)
    y = x[:, 1:3]
    out["slice"] = (
        y.grad_fn._saved_dim,
        y.grad_fn._saved_start,
        y.grad_fn._saved_end,
        y.grad_fn._saved_step,
    )
    y = F.softmax(x, 1)
    out["softmax"] = (y.grad_fn._saved_dim, y.grad_fn._saved_result)
    y = F.leaky_relu(x, 0.1)
    out["leaky"] = (y.grad_fn._saved_negative_slope, y.grad_fn._saved_self)
    y = x.unsqueeze(1)
    out["unsqueeze"] = y.grad_fn._saved_dim
    y = x.expand(4, 2, 3)
    out["expand"] = (y.grad_fn.name(), y.grad_fn._saved_self_sym_sizes)
    y = T.cat([x, x], 1)
    out["cat"] = y.grad_fn.next_functions
    y = x.max(1)
    out["max"] = (y.values.grad_fn.name(), y.values.grad_fn._saved_dim, y.indices)
    y = x.clamp(-0.5, 0.5)
    out["clamp"] = (y.grad_fn.name(), y.grad_fn._saved_min, y.grad_fn._saved_max)
    y = x.norm(dim=1)
    out["norm"] = (y.grad_fn.name(), y.grad_fn._saved_dim, y.grad_fn._saved_result)
    return out


@program()
def prog_saved_attributes_of_nn_functional(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(2, 3, 5), requires_grad=True)
    w = T.tensor(_data(4, 3, 3, seed=2), requires_grad=True)
    out = {}
    y = F.conv2d(x.unsqueeze(1), w.unsqueeze(1), padding=1, stride=2)
    gf = y.grad_fn
    out["conv"] = (
        gf.name(),
        gf._saved_stride,
        gf._saved_padding,
        gf._saved_dilation,
        gf._saved_groups,
        gf._saved_transposed,
        gf._saved_output_padding,
    )
    y = F.max_pool2d(x.unsqueeze(0), 2)
    out["pool"] = (y.grad_fn.name(), y.grad_fn.next_functions)
    y = F.layer_norm(x, (5,))
    out["ln"] = (y.grad_fn.name(), y.grad_fn._saved_normalized_shape, y.grad_fn._saved_weight)
    y = F.dropout(x, 0.0, training=True)
    out["dropout"] = (y is x, y.grad_fn, F.dropout(x, 0.5, training=False) is x)
    y = F.gelu(x, approximate="tanh")
    out["gelu"] = (y.grad_fn.name(), y.grad_fn._saved_approximate)
    y = F.linear(x.transpose(1, 2), T.ones(2, 3))
    out["linear"] = (
        y.grad_fn.name(),
        [n.name() if n else None for n, _ in y.grad_fn.next_functions],
    )
    return out


@program()
def prog_grad_fn_metadata_dict_roundtrip(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    y = x * 3
    y.grad_fn.metadata["tag"] = "scale"
    y.grad_fn.metadata["step"] = 7
    z = y.sum()
    return {
        "meta": dict(y.grad_fn.metadata),
        "type": type(z.grad_fn.metadata).__name__,
        "empty": z.grad_fn.metadata,
        "same": y.grad_fn.metadata is y.grad_fn.metadata,
        "again": x.mul(3).grad_fn.metadata,
    }


@program()
def prog_node_register_hook_and_prehook_ordering(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    z = y.sum()
    y.grad_fn.register_prehook(lambda gout: log.append(("pre1", gout[0].clone())))
    y.grad_fn.register_prehook(lambda gout: (gout[0] * 10,))
    y.grad_fn.register_hook(lambda gin, gout: log.append(("post", gin[0].clone(), gout[0].clone())))
    y.register_hook(lambda g: log.append(("tensor", g.clone())) or g + 1)
    h = y.grad_fn.register_hook(lambda gin, gout: (gin[0] * 0.5, gin[1] * 0.5))
    z.backward(retain_graph=True)
    first = x.grad.clone()
    h.remove()
    x.grad = None
    z.backward()
    return {"log": log, "first": first, "second": x.grad}


@program()
def prog_tensor_hooks_order_with_retain_grad_and_post_acc(T: Any) -> Any:
    log = []
    w = T.nn.Parameter(T.tensor([1.0, -1.0]))
    w.register_hook(lambda g: log.append(("w1", g.clone())) or g * 2)
    w.register_post_accumulate_grad_hook(lambda p: log.append(("post", p.grad.clone())))
    w.register_hook(lambda g: log.append(("w2", g.clone())))
    h = w * 3
    h.retain_grad()
    h.register_hook(lambda g: log.append(("h", g.clone())) or g - 1)
    h.retain_grad()
    (h * h).sum().backward()
    return {"log": log, "w": w.grad, "h": h.grad}


@program()
def prog_hook_handles_remove_twice_and_context(T: Any) -> Any:
    calls = []
    x = T.ones(2, requires_grad=True)
    h1 = x.register_hook(lambda g: calls.append(1))
    h2 = x.register_hook(lambda g: calls.append(2))
    h1.remove()
    h1.remove()
    (x * 2).sum().backward()
    with x.register_hook(lambda g: calls.append(3)):
        (x * 2).sum().backward()
    (x * 2).sum().backward()
    h2.remove()
    (x * 2).sum().backward()
    return {"calls": calls, "g": x.grad, "id_type": type(h2.id).__name__}


@program()
def prog_post_accumulate_hook_sgd_in_backward(T: Any) -> Any:
    """The optimizer-in-backward pattern: step and free each grad as soon as it accumulates."""
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 3), T.nn.Tanh(), T.nn.Linear(3, 1)), 7)
    opts = {p: T.optim.SGD([p], lr=0.1) for p in model.parameters()}
    order = []

    def hook(p):
        order.append(tuple(p.shape))
        opts[p].step()
        opts[p].zero_grad()

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(hook)
    x = T.tensor(_data(4, 3))
    for _ in range(2):
        model(x).pow(2).mean().backward()
    return {
        "order": order,
        "params": list(model.parameters()),
        "grads": [p.grad for p in model.parameters()],
    }


@program()
def prog_hook_modifies_grad_of_shared_intermediate(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x.exp()
    seen = []
    h.register_hook(lambda g: seen.append(g.clone()) or g.clamp(max=1.0))
    a = (h * 2).sum()
    b = (h**2).sum()
    (a + b).backward()
    return {"seen": seen, "g": x.grad}


@program()
def prog_register_hook_on_non_requiring_and_inplace(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = x * 2
    log = []
    y.register_hook(lambda g: log.append(("before_inplace", g.clone())))
    y.mul_(3)
    y.register_hook(lambda g: log.append(("after_inplace", g.clone())))
    y.sum().backward()
    return {
        "log": log,
        "g": x.grad,
        "plain": raises(lambda: T.ones(2).register_hook(lambda g: g)),
        "post_nonleaf": raises(lambda: y.register_post_accumulate_grad_hook(lambda p: None)),
    }


@program()
def prog_hook_returning_wrong_dtype_and_none(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g.double())
    e1 = raises(lambda: y.sum().backward())
    x2 = T.ones(2, requires_grad=True)
    y2 = x2 * 2
    y2.register_hook(lambda g: None)
    y2.sum().backward()
    x3 = T.ones(2, requires_grad=True)
    y3 = x3 * 2
    y3.register_hook(lambda g: 2.0)
    e3 = raises(lambda: y3.sum().backward())
    return {"e1": e1, "x": x.grad, "x2": x2.grad, "e3": e3}


@program()
def prog_grad_fn_of_leaf_view_and_detach(T: Any) -> Any:
    x = T.ones(2, 3, requires_grad=True)
    return {
        "leaf": x.grad_fn,
        "view": x.view(6).grad_fn.name(),
        "slice": x[:, :2].grad_fn.name(),
        "detach": x.detach().grad_fn,
        "t": x.t().grad_fn.name(),
        "reshape_contig": x.reshape(3, 2).grad_fn.name(),
        "reshape_noncontig": x.t().reshape(6).grad_fn.name(),
        "flatten": x.flatten().grad_fn.name(),
        "contig": x.t().contiguous().grad_fn.name(),
        "contig_noop": x.contiguous().grad_fn,
        "squeeze": x.unsqueeze(0).squeeze(0).grad_fn.name(),
        "float": x.float().grad_fn,
        "double": x.double().grad_fn.name(),
        "to_same": x.to(T.float32) is x,
        "clone": x.clone().grad_fn.name(),
        "mT": x.mT.grad_fn.name(),
        "T": x.T.grad_fn.name(),
    }


@program(
    xfail="saved-attribute gaps: torch keeps a negative dim as given (read back as an unsigned "
    "int64), and names some saved values differently (mean's self_sym_numel, max/sort/topk "
    "indices, pooling arguments, split sizes, mm's sym sizes); conv1d saves 2-d arguments"
)
def prog_saved_attributes_torch_only_names(T: Any) -> Any:
    x = T.tensor(_data(2, 3), requires_grad=True)
    F = T.nn.functional
    return {
        "softmax_neg_dim": x.softmax(-1).grad_fn._saved_dim,
        "sum_neg_dim": x.sum(-1).grad_fn._saved_dim,
        "mean_numel": x.mean(0).grad_fn._saved_self_sym_numel,
        "max_indices": x.max(1).values.grad_fn._saved_indices,
        "sort_indices": x.sort(1).values.grad_fn._saved_indices,
        "mm_sizes": (x @ x.t()).grad_fn._saved_self_sym_sizes,
        "pool": F.max_pool2d(x[None, None], 2, ceil_mode=True).grad_fn._saved_kernel_size,
        "split": x.split([1, 2], 1)[1].grad_fn._saved_split_sizes,
        "nll_ignore": F.nll_loss(x, T.tensor([0, 2])).grad_fn._saved_ignore_index,
        "conv1d_stride": F.conv1d(x[None], T.ones(1, 2, 2), stride=2).grad_fn._saved_stride,
    }


# --- anomaly mode ----------------------------------------------------------------------------


@program()
def prog_anomaly_finds_nan_from_log_of_zero(T: Any) -> Any:
    """A training step whose loss takes log of a probability that underflows to 0."""
    x = T.tensor([[10.0, -200.0], [0.5, 0.2]], requires_grad=True)
    out = {}
    with T.autograd.detect_anomaly():
        p = T.softmax(x, 1)
        loss = -(p.log() * T.tensor([[0.0, 1.0], [1.0, 0.0]])).sum()
        out["loss"] = loss
        out["err"] = raises(lambda: loss.backward())
    out["grad"] = x.grad
    with T.autograd.set_detect_anomaly(True, check_nan=False):
        out["flags"] = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())
        y = (T.tensor([0.0, 1.0], requires_grad=True).sqrt() * 0).sum()
        out["no_check"] = raises(lambda: y.backward())
    out["after"] = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())
    return out


@program()
def prog_anomaly_nan_in_forward_only_not_checked(T: Any) -> Any:
    x = T.tensor([-1.0, 4.0], requires_grad=True)
    with T.autograd.detect_anomaly():
        y = x.sqrt()  # nan in the forward, fine
        z = T.nan_to_num(y, nan=0.0).sum()
        e = raises(lambda: z.backward())
    return {"y": y, "e": e, "g": x.grad}


@program()
def prog_anomaly_mode_as_decorator_and_nested(T: Any) -> Any:
    def step(v):
        return (v / v.sum()).log().sum()

    not_a_decorator = raises(lambda: T.autograd.detect_anomaly()(step))

    def step_on(v):
        with T.autograd.set_detect_anomaly(True):
            return step(v), T.is_anomaly_enabled()

    not_a_decorator2 = raises(lambda: T.autograd.set_detect_anomaly(True)(step))
    T.autograd.set_detect_anomaly(False)  # the failed decorator left anomaly mode on
    v = T.tensor([0.0, 2.0], requires_grad=True)
    loss, on = step_on(v)
    inside = []

    with T.autograd.detect_anomaly(check_nan=False):
        inside.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        with T.autograd.detect_anomaly():
            inside.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        inside.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
    return {
        "loss": loss,
        "bw_outside": raises(lambda: loss.backward()),
        "g": v.grad,
        "inside": inside,
        "after": T.is_anomaly_enabled(),
        "not_a_decorator": not_a_decorator,
        "not_a_decorator2": not_a_decorator2,
        "on": on,
    }


@program()
def prog_anomaly_inplace_error_hint(T: Any) -> Any:
    x = T.tensor([0.5, 1.0], requires_grad=True)
    with T.autograd.detect_anomaly():
        y = x.exp()
        y.mul_(2)
        e1 = raises(lambda: y.sum().backward())
        a = x.sigmoid()
        b = a * 2
        a.add_(1)
        e2 = raises(lambda: b.sum().backward())
    return {"e1": e1, "e2": e2}


# --- grad modes and inference mode -----------------------------------------------------------


@program()
def prog_eval_loop_under_inference_then_finetune(T: Any) -> Any:
    model = _seeded(T, T.nn.Linear(3, 2), 8)
    x = T.tensor(_data(4, 3))
    with T.inference_mode():
        preds = model(x)
        emb = x * 2
    out = {
        "preds_inf": preds.is_inference(),
        "rg": preds.requires_grad,
        "train_on_inf": raises(lambda: model(emb).sum().backward()),
        "clone": model(emb.clone()).sum().grad_fn.name(),
        "inplace_outside": raises(lambda: emb.add_(1)),
        "view_outside": raises(lambda: emb.view(12).add_(1)),
        "detach": emb.detach().is_inference(),
        "mix": raises(lambda: (preds + model(x)).sum().backward()),
    }
    loss = model(emb.clone()).pow(2).mean()
    loss.backward()
    out["grad"] = model.weight.grad
    return out


@program()
def prog_inference_mode_decorator_and_generator(T: Any) -> Any:
    w = T.ones(2, requires_grad=True)

    @T.inference_mode()
    def predict(v):
        return w * v

    @T.inference_mode(mode=False)
    def train_part(v):
        return w * v

    @T.no_grad()
    def stream(n):
        for i in range(n):
            yield (w * i).requires_grad, T.is_grad_enabled()

    @T.inference_mode()
    def stream_inf(n):
        for i in range(n):
            yield T.is_inference_mode_enabled(), (w * i).is_inference()

    p = predict(T.ones(2))
    return {
        "p": (p.is_inference(), p.requires_grad),
        "t": train_part(T.ones(2)).requires_grad,
        "stream": list(stream(2)),
        "stream_inf": list(stream_inf(2)),
        "after": (T.is_grad_enabled(), T.is_inference_mode_enabled()),
        "name": predict.__name__,
    }


@program()
def prog_set_grad_enabled_function_form_and_restore(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    out = []
    prev = T.is_grad_enabled()
    T.set_grad_enabled(False)
    out.append((x * 2).requires_grad)
    with T.enable_grad():
        out.append((x * 2).requires_grad)
    out.append(T.is_grad_enabled())
    T.set_grad_enabled(prev)
    for mode in (True, False, True):
        with T.set_grad_enabled(mode):
            out.append(((x * 2).requires_grad, T.is_grad_enabled()))
    g = T.set_grad_enabled(False)
    out.append((type(g).__name__, T.is_grad_enabled()))
    T.set_grad_enabled(True)
    out.append(raises(lambda: T.set_grad_enabled("yes")))
    return out


@program()
def prog_no_grad_inside_backward_hook_and_custom_fn(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    def hook(g):
        seen.append(("hook", T.is_grad_enabled()))
        return g

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            seen.append(("fwd", T.is_grad_enabled()))
            return a * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(("bwd", T.is_grad_enabled()))
            return g * 2

    y = F.apply(x)
    y.register_hook(hook)
    y.sum().backward()
    (g2,) = T.autograd.grad(F.apply(x).sum(), x, create_graph=True)
    with T.no_grad():
        y3 = F.apply(x)
    return {"seen": seen, "g": x.grad, "g2": g2, "y3": y3}


@program()
def prog_inference_tensor_into_module_buffers(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(3)
    x = T.tensor(_data(4, 3))
    with T.inference_mode():
        bn(x)  # running stats updated in inference mode
    out = {
        "rm_inf": bn.running_mean.is_inference(),
        "train_after": raises(lambda: bn(x.requires_grad_()).sum().backward()),
    }
    bn2 = T.nn.BatchNorm1d(3)
    with T.inference_mode():
        y = bn2.eval()(x)
    out["eval_inf"] = (y.is_inference(), bn2.running_mean.is_inference())
    return out


# --- checkpoint and saved-tensor hooks -------------------------------------------------------


@program()
def prog_checkpoint_block_grads_match_plain(T: Any) -> Any:
    from torch.utils.checkpoint import checkpoint as _unused  # noqa: F401  (torch importable)

    ck = T.utils.checkpoint
    blocks = [_seeded(T, T.nn.Sequential(T.nn.Linear(4, 4), T.nn.GELU()), s) for s in (10, 11)]
    x = T.tensor(_data(3, 4), requires_grad=True)

    def run(mode):
        for b in blocks:
            b.zero_grad()
        x.grad = None
        h = x
        for b in blocks:
            h = b(h) if mode is None else ck.checkpoint(b, h, use_reentrant=mode)
        loss = h.pow(2).sum()
        loss.backward()
        return (
            loss,
            x.grad,
            [p.grad.clone() for b in blocks for p in b.parameters()],
            h.grad_fn.name(),
        )

    return {"plain": run(None), "reentrant": run(True), "nonreentrant": run(False)}


@program()
def prog_checkpoint_reentrant_input_without_grad_warns(T: Any) -> Any:
    ck = T.utils.checkpoint
    lin = _seeded(T, T.nn.Linear(3, 3), 12)
    x = T.tensor(_data(2, 3))
    y = ck.checkpoint(lin, x, use_reentrant=True)
    y2 = ck.checkpoint(lin, x, use_reentrant=False)
    y2.sum().backward()
    return {
        "rg": y.requires_grad,
        "gf": y.grad_fn,
        "y2": y2.grad_fn.name(),
        "w": lin.weight.grad,
        "no_flag": raises(lambda: ck.checkpoint(lin, x)),
    }


@program()
def prog_checkpoint_with_kwargs_and_grad_api(T: Any) -> Any:
    ck = T.utils.checkpoint
    w = T.tensor(_data(3, 3), requires_grad=True)

    def f(a, scale=1.0):
        return T.tanh(a @ w) * scale

    x = T.tensor(_data(2, 3, seed=1), requires_grad=True)
    y = ck.checkpoint(f, x, scale=2.0, use_reentrant=False)
    g = T.autograd.grad(y.sum(), [x, w])
    kw_reentrant = raises(lambda: ck.checkpoint(f, x, scale=2.0, use_reentrant=True))
    y3 = ck.checkpoint(f, x, use_reentrant=True)
    grad_err = raises(lambda: T.autograd.grad(y3.sum(), [x, w]))
    return {"g": g, "kw_reentrant": kw_reentrant, "grad_err": grad_err}


@program()
def prog_checkpoint_double_backward_nonreentrant(T: Any) -> Any:
    ck = T.utils.checkpoint
    x = T.tensor([0.3, -0.4], dtype=T.float64, requires_grad=True)

    def f(a):
        return (a.sin() * a).sum()

    y = ck.checkpoint(f, x, use_reentrant=False)
    (g,) = T.autograd.grad(y, x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    y_r = ck.checkpoint(f, x, use_reentrant=True)
    e = raises(lambda: T.autograd.grad(T.autograd.grad(y_r, x, create_graph=True)[0].sum(), x))
    return {"g": g, "gg": gg, "reentrant": e}


@program()
def prog_saved_tensors_hooks_compress_to_half(T: Any) -> Any:
    """Store activations in float16 during forward, restore them for backward."""
    packed = []

    def pack(t):
        packed.append((tuple(t.shape), str(t.dtype)))
        return t.to(T.float16)

    def unpack(t):
        return t.to(T.float32)

    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1)), 13)
    x = T.tensor(_data(5, 3))
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = model(x).pow(2).mean()
    loss.backward()
    return {"packed": packed, "grads": [p.grad for p in model.parameters()], "loss": loss}


@program()
def prog_save_on_cpu_and_disable_hooks_error(T: Any) -> Any:
    x = T.tensor(_data(3), requires_grad=True)
    with T.autograd.graph.save_on_cpu(pin_memory=False):
        y = (x.exp() * x).sum()
    y.backward()
    out = {"g": x.grad}
    with T.autograd.graph.disable_saved_tensors_hooks("no hooks in this region"):
        out["in"] = raises(
            lambda: T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        )
        out["plain_ok"] = (x * 2).sum()

    def disable_inside_hooks():
        with T.autograd.graph.disable_saved_tensors_hooks("msg"):
            return "entered"

    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        out["disable_inside"] = raises(disable_inside_hooks)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t):
        out["after_failed_disable"] = T.autograd.grad((x * x).sum(), x)

    @T.autograd.graph.disable_saved_tensors_hooks("decorated")
    def region():
        with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass

    out["decorated"] = raises(region)
    return out


@program()
def prog_saved_tensors_hooks_pack_returns_non_tensor(T: Any) -> Any:
    store = {}

    def pack(t):
        k = len(store)
        store[k] = t.detach().clone()
        return k

    def unpack(k):
        return store[k]

    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.pow(3).sum()
        z = (x * x.detach()).sum()
    y.backward()
    z.backward()
    bad = T.ones(2, requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: "oops"):
        w = bad.exp().sum()
    return {"keys": sorted(store), "g": x.grad, "bad": raises(lambda: w.backward())}


# --- forward AD ------------------------------------------------------------------------------


@program(warnings=False)  # torch's first forward-mode use may warn about torch.jit.script
def prog_forward_ad_directional_derivative_of_mlp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2)), 14)
    x = T.tensor(_data(2, 3))
    v = T.tensor(_data(2, 3, seed=1))
    with fwAD.dual_level():
        dx = fwAD.make_dual(x, v)
        out = model(dx)
        p, t = fwAD.unpack_dual(out)
        names = (type(fwAD.unpack_dual(out)).__name__, fwAD.unpack_dual(out)._fields)
    ref_p, ref_t = T.func.jvp(model, (x,), (v,))
    # the tangent's own graph (it depends on the weights) is built by jvp formulas: values only
    return {
        "p": p,
        "t": t.detach(),
        "t_rg": t.requires_grad,
        "names": names,
        "ref": (ref_p.detach(), ref_p.requires_grad, ref_t.detach(), ref_t.requires_grad),
        "after": fwAD.unpack_dual(out).tangent,
    }


@program(warnings=False)
def prog_forward_ad_through_op_zoo(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = T.tensor([0.3, -1.2, 2.0], dtype=T.float64)
    v = T.tensor([1.0, 0.5, -2.0], dtype=T.float64)
    ops = {
        "exp": lambda a: a.exp(),
        "log_abs": lambda a: a.abs().log(),
        "softmax": lambda a: a.softmax(0),
        "logsumexp": lambda a: a.logsumexp(0),
        "cumsum": lambda a: a.cumsum(0),
        "sort": lambda a: a.sort().values,
        "max": lambda a: a.max(),
        "norm": lambda a: a.norm(),
        "where": lambda a: T.where(a > 0, a * a, -a),
        "clamp": lambda a: a.clamp(-1, 1),
        "pow": lambda a: a.pow(3),
        "atan2": lambda a: T.atan2(a, a.flip(0) + 3),
        "outer": lambda a: T.outer(a, a),
        "matmul": lambda a: a.unsqueeze(0) @ T.ones(3, 2, dtype=T.float64),
        "index": lambda a: a[[2, 0, 0]],
        "cat": lambda a: T.cat([a, a * 2]),
        "gelu": lambda a: T.nn.functional.gelu(a),
        "layer_norm": lambda a: T.nn.functional.layer_norm(a, (3,)),
        "prod": lambda a: a.prod(),
        "std": lambda a: a.std(),
    }
    out = {}
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        for k, f in ops.items():
            out[k] = fwAD.unpack_dual(f(d))
    return out


@program(warnings=False)
def prog_forward_ad_errors_and_levels(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = T.ones(3, dtype=T.float64)
    out = {}
    out["outside"] = raises(lambda: fwAD.make_dual(x, T.ones(3, dtype=T.float64)))
    with fwAD.dual_level():
        out["shape"] = raises(lambda: fwAD.make_dual(x, T.ones(2, dtype=T.float64)))
        out["dtype"] = raises(lambda: fwAD.make_dual(x, T.ones(3, dtype=T.float32)))
        out["int"] = raises(
            lambda: fwAD.make_dual(T.ones(3, dtype=T.long), T.ones(3, dtype=T.long))
        )
        d = fwAD.make_dual(x, T.arange(3.0, dtype=T.float64))
        out["plain_unpack"] = fwAD.unpack_dual(x)
        out["inplace"] = fwAD.unpack_dual(d.mul_(2))
        y = T.zeros(3, dtype=T.float64)
        y.copy_(d)
        out["copy_into_plain"] = fwAD.unpack_dual(y)
        z = T.zeros(3, dtype=T.float64)
        z[1:] = d[:2]
        out["setitem"] = fwAD.unpack_dual(z)
    return out


@program(warnings=False)
def prog_forward_and_reverse_mixed_hvp(T: Any) -> Any:
    """Hessian-vector product as forward-over-reverse with dual tensors."""
    fwAD = T.autograd.forward_ad
    w = T.tensor([0.5, -0.2, 0.1], dtype=T.float64)
    v = T.tensor([1.0, 0.0, 2.0], dtype=T.float64)

    def loss(p):
        return (p.sin() * p.pow(2)).sum() + p.prod()

    with fwAD.dual_level():
        dw = fwAD.make_dual(w.clone().requires_grad_(), v)
        (g,) = T.autograd.grad(loss(dw), dw, create_graph=True)
        hvp = fwAD.unpack_dual(g).tangent
    ref = T.autograd.functional.hvp(loss, w, v)
    return {"hvp": hvp, "ref": ref}


# --- torch.func ------------------------------------------------------------------------------


@program()
def prog_func_grad_and_value_training_loop(T: Any) -> Any:
    model = _seeded(T, T.nn.Linear(3, 1), 15)
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = T.tensor(_data(6, 3))
    y = T.tensor(_data(6, 1, seed=2))

    def loss_fn(p, xb, yb):
        pred = T.func.functional_call(model, p, (xb,))
        return T.nn.functional.mse_loss(pred, yb), pred.mean()

    log = []
    for _ in range(3):
        grads, (loss, aux) = T.func.grad_and_value(loss_fn, has_aux=True)(params, x, y)
        params = {k: params[k] - 0.1 * grads[k] for k in params}
        log.append((loss, aux, grads))
    return {"log": log, "params": params, "model_untouched": model.weight}


@program()
def prog_func_vmap_per_example_grads_vs_loop(T: Any) -> Any:
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 2), T.nn.Tanh(), T.nn.Linear(2, 1)), 16)
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = T.tensor(_data(4, 3))
    y = T.tensor(_data(4, 1, seed=3))

    def loss(p, xi, yi):
        out = T.func.functional_call(model, p, (xi.unsqueeze(0),))
        return (out - yi).pow(2).sum()

    per = T.func.vmap(T.func.grad(loss), in_dims=(None, 0, 0))(params, x, y)
    loop = []
    for i in range(4):
        model.zero_grad()
        loss({k: v for k, v in model.named_parameters()}, x[i], y[i]).backward()
        loop.append({k: v.grad.clone() for k, v in model.named_parameters()})
    return {"per": per, "loop": loop}


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_func_jacrev_jacfwd_hessian_of_small_nets(T: Any) -> Any:
    w = T.tensor(_data(2, 3), dtype=T.float64)

    def f(x):
        return T.tanh(w @ x) * x[:2].sum()

    def scalar(x):
        return f(x).pow(2).sum()

    x = T.tensor([0.1, -0.4, 0.7], dtype=T.float64)
    return {
        "jacrev": T.func.jacrev(f)(x),
        "jacfwd": T.func.jacfwd(f)(x),
        "hessian": T.func.hessian(scalar)(x),
        "hess_fwdrev": T.func.jacfwd(T.func.jacrev(scalar))(x),
        "argnums": T.func.jacrev(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 2),
        "batched": T.func.vmap(T.func.jacrev(f))(T.stack([x, x * 2])),
    }


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_func_vjp_jvp_with_pytrees(T: Any) -> Any:
    def f(d):
        return {"s": (d["a"] * d["b"]).sum(), "v": d["a"].exp()}

    a = T.tensor([0.5, 1.0], dtype=T.float64)
    b = T.tensor([2.0, -1.0], dtype=T.float64)
    out, vjp_fn = T.func.vjp(f, {"a": a, "b": b})
    ct = vjp_fn({"s": T.tensor(1.0, dtype=T.float64), "v": T.ones(2, dtype=T.float64)})
    prim, tan = T.func.jvp(
        f,
        ({"a": a, "b": b},),
        ({"a": T.ones(2, dtype=T.float64), "b": T.zeros(2, dtype=T.float64)},),
    )
    return {
        "out": out,
        "ct": ct,
        "prim": prim,
        "tan": tan,
        "bad_ct": raises(lambda: vjp_fn({"s": T.tensor(1.0, dtype=T.float64)})),
    }


@program()
def prog_func_grad_errors_users_hit(T: Any) -> Any:
    x = T.tensor([1.0, 2.0])
    return {
        "nonscalar": raises(lambda: T.func.grad(lambda v: v * 2)(x)),
        "int_input": raises(lambda: T.func.grad(lambda v: v.sum())(T.tensor([1, 2]))),
        "aux_not_tuple": raises(lambda: T.func.grad(lambda v: v.sum(), has_aux=True)(x)),
        "argnums_oob": raises(lambda: T.func.grad(lambda v: v.sum(), argnums=1)(x)),
        "item": raises(lambda: T.func.grad(lambda v: T.tensor(v.sum().item()))(x)),
        "vmap_dims": raises(lambda: T.func.vmap(lambda v: v, in_dims=1)(x)),
        "vmap_sizes": raises(lambda: T.func.vmap(lambda a, b: a + b)(x, T.ones(3))),
        "ok_outside_grad": T.func.grad(lambda v: (v * x).sum())(x.clone()),
    }


@program()
def prog_func_functional_call_with_buffers_and_tied(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(2)
    x = T.tensor(_data(4, 2))
    params = {k: v.clone() for k, v in bn.named_parameters()}
    buffers = {k: v.clone() for k, v in bn.named_buffers()}
    out = T.func.functional_call(bn, (params, buffers), (x,))
    return {
        "out": out,
        "buffers_after": buffers,
        "module_buffers": dict(bn.named_buffers()),
        "strict": raises(
            lambda: T.func.functional_call(bn, {"weight": T.ones(2)}, (x,), strict=True)
        ),
        "dup": raises(lambda: T.func.functional_call(bn, (params, params), (x,))),
    }


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_func_hessian_of_logistic_regression(T: Any) -> Any:
    X = T.tensor(_data(8, 3), dtype=T.float64)
    y = T.tensor([1.0, 0, 1, 1, 0, 0, 1, 0], dtype=T.float64)

    def nll(w):
        return T.nn.functional.binary_cross_entropy_with_logits(X @ w, y)

    w = T.zeros(3, dtype=T.float64)
    log = []
    for _ in range(3):
        g = T.func.grad(nll)(w)
        H = T.func.hessian(nll)(w)
        w = w - T.linalg.solve(H, g)
        log.append((nll(w), g))
    return {"w": w, "log": log}


@program(warnings=False)  # torch's first forward-mode use warns about torch.jit.script
def prog_func_transforms_keep_closed_over_params_differentiable(T: Any) -> Any:
    """MAML-style: an inner gradient by torch.func that the outer loss backpropagates through,
    to parameters the inner function closes over."""
    w = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = T.tensor([0.5, 0.1, 0.2])
    v = T.ones(3)

    def f(a):
        return (a * w).sin()

    res = {
        "grad": T.func.grad(lambda a: f(a).sum())(x),
        "vjp_out": T.func.vjp(f, x)[0],
        "vjp_fn": T.func.vjp(f, x)[1](v)[0],
        "jvp_tangent": T.func.jvp(f, (x,), (v,))[1],
        "jacrev": T.func.jacrev(f)(x),
        "jacfwd": T.func.jacfwd(f)(x),
        "hessian": T.func.hessian(lambda a: f(a).sum())(x),
        "no_closure": T.func.grad(lambda a: (a * a).sum())(x),
    }
    outer = {k: T.autograd.grad(r.sum(), w) if r.requires_grad else None for k, r in res.items()}
    adapted = x - 0.1 * T.func.grad(lambda a: f(a).pow(2).sum())(x)
    meta_loss = f(adapted).sum()
    meta_loss.backward()
    return {"res": res, "outer": outer, "meta_grad": w.grad}


@program(
    warnings=False,  # torch's first forward-mode use warns about torch.jit.script
    xfail="torch.func.jvp returns a primal that closes over grad-requiring tensors as an "
    "alias (AliasBackward0); shadowgrad has no alias op and shows unpack_dual's Identity",
)
def prog_func_jvp_primal_alias_node(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    p, t = T.func.jvp(lambda a: a * w, (T.ones(2),), (T.ones(2),))
    return {"p": p, "t": t.detach()}


# --- custom autograd.Function ----------------------------------------------------------------


@program()
def prog_fn_straight_through_quantizer_training(T: Any) -> Any:
    class RoundSTE(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.save_for_backward(x)
            ctx.scale = scale
            return T.round(x * scale) / scale

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            inside = (x.abs() <= 1.0).to(g.dtype)
            return g * inside, None

    lin = _seeded(T, T.nn.Linear(3, 2), 17)
    opt = T.optim.Adam(lin.parameters(), lr=0.05)
    x = T.tensor(_data(6, 3))
    y = T.tensor(_data(6, 2, seed=4))
    log = []
    for _ in range(3):
        opt.zero_grad()
        wq = RoundSTE.apply(lin.weight, 4.0)
        out = T.nn.functional.linear(x, wq, lin.bias)
        loss = T.nn.functional.mse_loss(out, y)
        loss.backward()
        log.append((loss, lin.weight.grad.clone(), wq.grad_fn.name()))
        opt.step()
    return {"log": log, "w": lin.weight}


@program()
def prog_fn_gradient_reversal_layer(T: Any) -> Any:
    class GradReverse(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, lambd):
            ctx.lambd = lambd
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g.neg() * ctx.lambd, None

    feat = _seeded(T, T.nn.Linear(4, 3), 18)
    head = _seeded(T, T.nn.Linear(3, 2), 19)
    dom = _seeded(T, T.nn.Linear(3, 1), 20)
    x = T.tensor(_data(5, 4))
    h = feat(x)
    task = head(h).pow(2).mean()
    adv = dom(GradReverse.apply(h, 0.5)).mean()
    (task + adv).backward()
    r = GradReverse.apply(h, 1.0)
    return {
        "feat_w": feat.weight.grad,
        "dom_w": dom.weight.grad,
        "head_w": head.weight.grad,
        "r_gf": r.grad_fn.name(),
        "r_base": r._base is h,
        "r_inplace": raises(lambda: r.add_(1)),
    }


@program()
def prog_fn_backward_wrong_count_and_shape_messages(T: Any) -> Any:
    class TooMany(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    class WrongShape(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum(0)

        @staticmethod
        def backward(ctx, g):
            return g

    class Broadcastable(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return g.expand(1, 3)

    class TooFew(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return (g,)

    x = T.ones(2, 3, requires_grad=True)
    x1 = T.ones(3, requires_grad=True)
    return {
        "many": raises(lambda: TooMany.apply(x).sum().backward()),
        "shape": raises(lambda: WrongShape.apply(x).sum().backward()),
        "bcast": raises(lambda: Broadcastable.apply(x1).backward()),
        "bcast_g": x1.grad,
        "few": raises(lambda: TooFew.apply(x, x).sum().backward()),
    }


@program()
def prog_fn_once_differentiable_double_backward_error(T: Any) -> Any:
    from torch.autograd.function import once_differentiable as _od_torch  # noqa: F401

    od = T.autograd.function.once_differentiable

    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @od
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = T.tensor([1.0, 3.0], requires_grad=True)
    (g,) = T.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    return {
        "g": g,
        "g_rg": g.requires_grad,
        "gf": g.grad_fn.name() if g.grad_fn is not None else None,
        "double": raises(lambda: T.autograd.grad(g.sum(), x)),
        "plain": T.autograd.grad(Square.apply(x).sum(), x),
    }


@program()
def prog_fn_materialize_grads_multi_output_partial_use(T: Any) -> Any:
    seen = []

    def make(materialize):
        class SplitHalves(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return x[:2] * 1, x[2:] * 1

            @staticmethod
            def backward(ctx, ga, gb):
                seen.append(
                    (
                        materialize,
                        None if ga is None else ga.clone(),
                        None if gb is None else gb.clone(),
                    )
                )
                ga = T.zeros(2) if ga is None else ga
                gb = T.zeros(2) if gb is None else gb
                return T.cat([ga, gb])

        return SplitHalves

    out = {}
    for m in (True, False):
        x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        a, _b = make(m).apply(x)
        (a * 3).sum().backward()
        out[str(m)] = x.grad
    out["seen"] = seen
    return out


@program()
def prog_fn_non_differentiable_argmax_output(T: Any) -> Any:
    class MaxWithIndex(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.max(1)
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            ctx.shape = x.shape
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            (i,) = ctx.saved_tensors
            g = T.zeros(ctx.shape, dtype=gv.dtype)
            g.scatter_(1, i.unsqueeze(1), gv.unsqueeze(1))
            return g

    x = T.tensor(_data(3, 4), requires_grad=True)
    v, i = MaxWithIndex.apply(x)
    (v * T.arange(3.0)).sum().backward()
    return {
        "v": v,
        "i": i,
        "i_rg": (i.requires_grad, i.grad_fn, i.is_leaf),
        "g": x.grad,
        "i_backward": raises(lambda: i.sum().backward()),
    }


@program()
def prog_fn_custom_inplace_relu_mark_dirty_in_model(T: Any) -> Any:
    class InplaceRelu(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            x.clamp_(min=0)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * (y > 0).to(g.dtype)

    lin = _seeded(T, T.nn.Linear(3, 3), 21)
    x = T.tensor(_data(4, 3))
    h = lin(x)
    v0 = h._version
    r = InplaceRelu.apply(h)
    info = (r is h, h._version - v0, h.grad_fn.name(), r.grad_fn.name())
    r.sum().backward()
    leaf = T.ones(2, requires_grad=True)
    return {
        "info": info,
        "g": lin.weight.grad,
        "leaf": raises(lambda: InplaceRelu.apply(leaf)),
        "leaf_nograd": raises(lambda: InplaceRelu.apply(T.tensor([-1.0, 2.0]))),
    }


@program()
def prog_fn_save_for_backward_non_tensor_and_saved_in_forward(T: Any) -> Any:
    class SaveNumber(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3.0)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g * 3

    class SaveNone(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, None, w)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            _x, _n, w = ctx.saved_tensors
            return g * 2, None if w is None else T.zeros_like(w)

    x = T.ones(2, requires_grad=True)
    y = SaveNone.apply(x, None)
    saved = y.grad_fn.saved_tensors
    y.sum().backward()
    return {
        "number": raises(lambda: SaveNumber.apply(x)),
        "saved": saved,
        "g": x.grad,
        "to_save": raises(lambda: y.grad_fn.to_save),
    }


@program()
def prog_fn_double_backward_of_custom_with_grad_ops(T: Any) -> Any:
    """A custom softplus whose backward is written with differentiable ops: second and third
    derivatives flow through it."""

    class Softplus(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return T.log1p(T.exp(x))

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * T.sigmoid(x)

    x = T.tensor([-1.0, 0.5, 2.0], dtype=T.float64, requires_grad=True)
    (g1,) = T.autograd.grad(Softplus.apply(x).sum(), x, create_graph=True)
    (g2,) = T.autograd.grad(g1.sum(), x, create_graph=True)
    (g3,) = T.autograd.grad(g2.sum(), x)
    ref = T.nn.functional.softplus(x)
    (r1,) = T.autograd.grad(ref.sum(), x, create_graph=True)
    (r2,) = T.autograd.grad(r1.sum(), x)
    return {"g": (g1, g2, g3), "ref": (r1, r2), "names": (g1.grad_fn.name(), g2.grad_fn.name())}


@program()
def prog_fn_under_vmap_and_grad_generate_rule(T: Any) -> Any:
    class Cube(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x**3

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x**2 * g

    x = T.tensor([[1.0, 2.0], [0.5, -1.0]])
    return {
        "vmap": T.func.vmap(Cube.apply)(x),
        "grad": T.func.grad(lambda v: Cube.apply(v).sum())(x[0]),
        "vmap_grad": T.func.vmap(T.func.grad(lambda v: Cube.apply(v).sum()))(x),
        "plain": Cube.apply(x.requires_grad_()).grad_fn.name(),
    }


@program()
def prog_fn_ctx_needs_input_grad_skip_expensive_branch(T: Any) -> Any:
    calls = []

    class Bilinear(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, W, b):
            ctx.save_for_backward(a, W, b)
            return (a @ W * b).sum(-1)

        @staticmethod
        def backward(ctx, g):
            a, W, b = ctx.saved_tensors
            calls.append(ctx.needs_input_grad)
            ga = gW = gb = None
            if ctx.needs_input_grad[0]:
                ga = (g.unsqueeze(-1) * b) @ W.t()
            if ctx.needs_input_grad[1]:
                gW = a.t() @ (g.unsqueeze(-1) * b)
            if ctx.needs_input_grad[2]:
                gb = g.unsqueeze(-1) * (a @ W)
            return ga, gW, gb

    a = T.tensor(_data(3, 2))
    W = T.nn.Parameter(T.tensor(_data(2, 4, seed=1)))
    b = T.tensor(_data(3, 4, seed=2))
    Bilinear.apply(a, W, b).sum().backward()
    W.requires_grad_(False)
    b.requires_grad_(True)
    Bilinear.apply(a, W, b).sum().backward()
    return {"calls": calls, "W": W.grad, "b": b.grad}


# --- accumulation, retain_grad, misc engine behaviour ---------------------------------------


@program()
def prog_grad_accumulation_identity_and_versions(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    (w * 3).sum().backward()
    g = w.grad
    v0 = g._version
    (w * w).sum().backward()
    same = w.grad is g
    v1 = g._version
    mine = T.zeros(2)
    w.grad = mine
    (w * 2).sum().backward()
    return {
        "same": same,
        "versions": (v0, v1, mine._version),
        "mine_is_grad": w.grad is mine,
        "grad": w.grad,
        "g_rg": (g.requires_grad, g.is_leaf),
    }


@program()
def prog_grad_layout_of_transposed_and_expanded_leaves(T: Any) -> Any:
    base = T.tensor(_data(3, 2))
    xt = base.t().clone().t().requires_grad_()  # non-contiguous leaf, strides (1, 3)?
    xt2 = base.t().requires_grad_()
    (xt2 * 2).sum().backward()
    ex = T.ones(1, 3).expand(2, 3).requires_grad_()
    (ex * T.arange(3.0)).sum().backward()
    return {
        "xt2_strides": (xt2.stride(), xt2.grad.stride(), xt2.grad.is_contiguous()),
        "ex": (ex.stride(), ex.grad.stride(), ex.grad),
        "xt": xt.stride(),
    }


@program()
def prog_retain_grad_on_intermediates_of_rnn_loop(T: Any) -> Any:
    cell = _seeded(T, T.nn.RNNCell(2, 3), 22)
    xs = T.tensor(_data(4, 1, 2))
    h = T.zeros(1, 3)
    hs = []
    for x in xs:
        h = cell(x, h)
        h.retain_grad()
        hs.append(h)
    hs[-1].pow(2).sum().backward()
    return {
        "grads": [t.grad for t in hs],
        "retains": [t.retains_grad for t in hs],
        "leaf_retain": raises(lambda: xs.retain_grad()),
        "w": cell.weight_hh.grad,
    }


@program()
def prog_backward_with_gradient_argument_variants(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(T.tensor([1.0, 0.0, -1.0]), retain_graph=True)
    g1 = x.grad.clone()
    y.backward(gradient=T.ones(3, dtype=T.float64), retain_graph=True)
    g2 = x.grad.clone()
    s = y.sum()
    s.backward(T.tensor(2.0), retain_graph=True)
    g3 = x.grad.clone()
    one = y[:1]
    one.backward(retain_graph=True)
    return {
        "g": (g1, g2, g3, x.grad),
        "scalar_shape_1": raises(lambda: s.backward(T.ones(1), retain_graph=True)),
        "float": raises(lambda: y.backward(2.0)),
        "list": raises(lambda: y.backward([1.0, 1.0, 1.0])),
        "int_grad": raises(lambda: y.backward(T.ones(3, dtype=T.long), retain_graph=True)),
        "empty": raises(lambda: y[:0].backward()),
    }


@program()
def prog_multi_grad_hook_and_gradient_edges(T: Any) -> Any:
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0], requires_grad=True)
    seen = []
    h = T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda grads: seen.append([None if g is None else g.clone() for g in grads])
    )
    (a.sum() * b).sum().backward()
    (a * 2).sum().backward()
    h.remove()
    (a * 2).sum().backward()
    y = a * b
    edge = T.autograd.graph.get_gradient_edge(y)
    z = y.exp().sum()
    (gy,) = T.autograd.grad(z, edge, retain_graph=True)
    return {
        "seen": seen,
        "edge": (edge.node.name(), edge.output_nr),
        "gy": gy,
        "leaf_edge": type(T.autograd.graph.get_gradient_edge(a).node).__name__,
    }


@program()
def prog_detach_requires_grad_and_sharing(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    d.requires_grad_()
    z = (d * d).sum()
    z.backward()
    y2 = x * 3
    y2.detach_()
    return {
        "d_grad": d.grad,
        "x_grad": x.grad,
        "d_leaf": d.is_leaf,
        "y2": (y2.requires_grad, y2.grad_fn, y2.is_leaf),
        "share": d.data_ptr() == y.data_ptr(),
        "param_from_nonleaf": T.nn.Parameter(y).grad_fn,
    }


@program()
def prog_requires_grad_toggling_and_errors(T: Any) -> Any:
    x = T.ones(2)
    y = x * 2
    x.requires_grad_()
    z = x * 2
    out = {"y": y.requires_grad, "z": z.requires_grad}
    out["nonleaf_false"] = raises(lambda: z.requires_grad_(False))
    out["nonleaf_attr"] = raises(lambda: setattr(z, "requires_grad", False))
    out["nonleaf_true"] = z.requires_grad_(True) is z
    out["int"] = raises(lambda: T.ones(2, dtype=T.long).requires_grad_())
    out["int_attr"] = raises(lambda: setattr(T.ones(2, dtype=T.long), "requires_grad", True))
    out["int_factory"] = raises(lambda: T.ones(2, dtype=T.long, requires_grad=True))
    x.requires_grad = False
    out["after"] = ((x * 2).requires_grad, x.is_leaf)
    return out


@program()
def prog_grad_on_non_leaf_inputs_and_views(T: Any) -> Any:
    x = T.tensor(_data(3, 2), requires_grad=True)
    h = x.relu()
    v = h[1]
    out = (h * h).sum() + v.sum() * 5
    gh, gv = T.autograd.grad(out, [h, v], retain_graph=True)
    gx = T.autograd.grad(out, x, retain_graph=True)
    return {
        "gh": gh,
        "gv": gv,
        "gx": gx,
        "h_grad_untouched": raises(lambda: h.grad),
        "unreached_view": raises(lambda: T.autograd.grad(out, x[0])),
    }


@program()
def prog_autograd_grad_with_none_grad_outputs_and_mixed(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = (x * 2).sum()
    b = x.pow(2)
    g = T.autograd.grad([a, b], x, [None, T.tensor([1.0, 0.5])], retain_graph=True)
    g_tuple = T.autograd.grad((a, b), (x,), (T.tensor(2.0), T.ones(2)), retain_graph=True)
    none_nonscalar = raises(lambda: T.autograd.grad([a, b], x, [None, None], retain_graph=True))
    mismatch = raises(lambda: T.autograd.grad([a, b], x, [None], retain_graph=True))
    return {"g": g, "g_tuple": g_tuple, "none_nonscalar": none_nonscalar, "mismatch": mismatch}


@program()
def prog_backward_on_leaf_and_scalar_shapes(T: Any) -> Any:
    s = T.tensor(2.0, requires_grad=True)
    s.backward()
    s.backward()
    one = T.ones(1, 1, requires_grad=True)
    (one * 3).backward()
    return {
        "s": s.grad,
        "one": one.grad,
        "vec": raises(lambda: T.ones(2, requires_grad=True).backward()),
        "no_grad_leaf": raises(lambda: T.ones(1).backward()),
    }


@program()
def prog_hooks_on_parameter_used_twice_in_graph(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 23)
    calls = []
    lin.weight.register_hook(lambda g: calls.append(g.clone()))
    x = T.tensor(_data(3, 2))
    y = lin(lin(x))
    y.sum().backward()
    return {"calls": calls, "grad": lin.weight.grad}


@program()
def prog_node_hooks_see_none_for_unused_inputs(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = T.tensor([3.0, 4.0])
    y = x * c
    seen = []
    y.grad_fn.register_hook(
        lambda gin, gout: seen.append([None if g is None else g.clone() for g in gin])
    )
    y.grad_fn.register_prehook(lambda gout: seen.append(("pre", len(gout))))
    y.sum().backward()
    z = T.cat([x, c])  # (CatBackward0 computes every input's grad: not compared)
    z.sum().backward()
    return {"seen": seen, "g": x.grad, "nf": z.grad_fn.next_functions}


@program()
def prog_tensor_hook_on_output_used_by_two_losses(T: Any) -> Any:
    x = T.tensor([0.5, -0.5], requires_grad=True)
    feat = x.tanh()
    calls = []
    feat.register_hook(lambda g: calls.append(g.clone()))
    l1 = feat.pow(2).sum()
    l2 = (feat * 3).sum()
    (l1 + l2).backward(retain_graph=True)
    l1.backward()
    return {"calls": calls, "g": x.grad}


@program()
def prog_sequence_nr_execution_order_of_branches(T: Any) -> Any:
    order = []
    x = T.ones(2, requires_grad=True)
    a = x * 2
    b = x + 1
    c = x.exp()
    for name, t in (("a", a), ("b", b), ("c", c)):
        t.register_hook(lambda g, name=name: order.append(name))
    (a.sum() + c.sum() + b.sum()).backward()
    order2 = []
    y1 = x.sin()
    y2 = x.cos()
    y1.register_hook(lambda g: order2.append("sin"))
    y2.register_hook(lambda g: order2.append("cos"))
    T.autograd.backward([y2.sum(), y1.sum()])
    return {"order": order, "order2": order2}


# --- more in-place / view programs -----------------------------------------------------------


@program()
def prog_attention_mask_fill_inplace_then_softmax(T: Any) -> Any:
    q = T.tensor(_data(2, 3, 4), requires_grad=True)
    k = T.tensor(_data(2, 3, 4, seed=1), requires_grad=True)
    scores = q @ k.transpose(1, 2) / 2.0
    mask = T.triu(T.ones(3, 3, dtype=T.bool), 1)
    scores.masked_fill_(mask, float("-inf"))
    attn = scores.softmax(-1)
    attn.sum(1).pow(2).sum().backward()
    return {
        "attn": attn,
        "gq": q.grad,
        "gk": k.grad,
        "names": (scores.grad_fn.name(), attn.grad_fn.name()),
        "ver": scores._version,
    }


@program()
def prog_residual_block_with_inplace_add_and_relu(T: Any) -> Any:
    lin1 = _seeded(T, T.nn.Linear(3, 3), 24)
    lin2 = _seeded(T, T.nn.Linear(3, 3), 25)
    x = T.tensor(_data(4, 3), requires_grad=True)
    h = lin1(x)
    h = T.relu(h)
    out = lin2(h)
    out += x  # in-place residual
    out.relu_()
    out.sum().backward()
    y = lin1(x).relu_()
    bad = lin2(y)
    y.add_(1)  # relu_'s output saved by ReluBackward0? and by lin2 (mm saves its input)
    return {
        "gx": x.grad,
        "gw1": lin1.weight.grad,
        "out_gf": out.grad_fn,
        "err": raises(lambda: bad.sum().backward()),
    }


@program()
def prog_inplace_on_slices_of_buffer_built_in_loop(T: Any) -> Any:
    """A user fills rows of a preallocated output in a loop (a hand-written RNN)."""
    w = T.tensor(_data(3, 3), requires_grad=True)
    xs = T.tensor(_data(4, 3, seed=1))
    out = T.zeros(4, 3)
    h = T.zeros(3)
    for t in range(4):
        h = T.tanh(xs[t] + h @ w)
        out[t] = h
    loss = out.pow(2).sum()
    loss.backward()
    return {"loss": loss, "g": w.grad, "gf": out.grad_fn, "ver": out._version}


@program()
def prog_inplace_view_chain_on_nonleaf(T: Any) -> Any:
    x = T.tensor(_data(4, 4), requires_grad=True)
    y = x * 1
    v = y[1:3]
    vv = v[:, ::2]
    vv.mul_(10)
    v.t().add_(1)
    out = (y * T.arange(16.0).view(4, 4)).sum()
    out.backward()
    return {
        "g": x.grad,
        "y": y,
        "names": [y.grad_fn.name(), v.grad_fn.name(), vv.grad_fn.name()],
        "vers": _versions(y, v, vv),
        "bases": (v._base is y, vv._base is y),
    }


@program()
def prog_inplace_unsqueeze_squeeze_and_transpose_on_nonleaf(T: Any) -> Any:
    x = T.tensor(_data(2, 3), requires_grad=True)
    y = x * 2
    y.unsqueeze_(0)
    s1 = (tuple(y.shape), y.grad_fn.name())
    y.transpose_(1, 2)
    s2 = (tuple(y.shape), y.grad_fn.name())
    y.squeeze_(0)
    s3 = (tuple(y.shape), y.grad_fn.name())
    (y * T.arange(6.0).view(3, 2)).sum().backward()
    leaf = T.ones(2, requires_grad=True)
    return {
        "steps": [s1, s2, s3],
        "g": x.grad,
        "leaf_unsqueeze_": raises(lambda: leaf.unsqueeze_(0)),
        "leaf_t_": raises(lambda: leaf.t_()),
    }


@program()
def prog_copy_into_leaf_slice_under_no_grad_then_train(T: Any) -> Any:
    """Load pretrained rows into an embedding table in place, then train."""
    emb = T.nn.Embedding(5, 2)
    with T.no_grad():
        emb.weight.copy_(T.tensor(_data(5, 2)))
        emb.weight[0].zero_()
        emb.weight[1:3] = T.ones(2, 2)
    v = emb.weight._version
    idx = T.tensor([0, 1, 1, 4])
    emb(idx).pow(2).sum().backward()
    return {"w": emb.weight, "v": v, "g": emb.weight.grad, "leaf": emb.weight.is_leaf}


@program()
def prog_saved_view_base_modified_error_message(T: Any) -> Any:
    x = T.tensor(_data(3, 2), requires_grad=True)
    y = x.exp()
    v = y[0]
    z = v.sin()  # saves the view
    y.mul_(2)
    e = raises(lambda: z.sum().backward())
    a = x * 1
    b = a.t()
    c = b.exp()  # saves its result only
    a.zero_()
    c.sum().backward()
    return {"e": e, "g": x.grad, "vgf": v.grad_fn.name()}


@program()
def prog_out_of_place_ops_never_bump_versions(T: Any) -> Any:
    x = T.tensor(_data(3), requires_grad=True)
    y = x * 2
    ops = [y + 1, y.exp(), y.view(3), y[1:], y.clone(), y.detach(), y.t(), y.sum()]
    before = _versions(x, y)
    z = y.clone()
    z.add_(1)
    z.add_(1).mul_(2)
    return {"before": before, "after": _versions(x, y, z), "ops": [o._version for o in ops]}


# --- more hooks and introspection ------------------------------------------------------------


@program()
def prog_accumulate_grad_node_hooks(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    y = w * 3
    acc = y.grad_fn.next_functions[0][0]
    log = []
    acc.register_prehook(lambda gout: log.append(("pre", gout[0].clone())))
    acc.register_hook(lambda gin, gout: log.append(("post", gin, gout[0].clone())))
    w.register_hook(lambda g: log.append(("tensor", g.clone())) or g * 2)
    w.register_post_accumulate_grad_hook(lambda p: log.append(("acc", p.grad.clone())))
    y.sum().backward()
    return {"log": log, "g": w.grad}


@program()
def prog_prehook_replaces_grad_before_tensor_hook(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    log = []
    y.register_hook(lambda g: log.append(("tensor", g.clone())) or g + 1)
    y.grad_fn.register_prehook(
        lambda gout: log.append(("node_pre", gout[0].clone())) or (gout[0] * 10,)
    )
    y.retain_grad()
    (y * 2).sum().backward()
    return {"log": log, "g": x.grad, "y_grad": y.grad}


@program()
def prog_unbind_and_multi_output_next_functions(T: Any) -> Any:
    x = T.tensor(_data(3, 2), requires_grad=True)
    a, b, c = x.unbind(0)
    s = a * b + c
    vals, idx = x.sort(0)
    mx = x.max(0)
    q, r = T.linalg.qr(x.double())
    return {
        "s_graph": s.grad_fn,
        "nrs": [(t.output_nr, t.grad_fn.name()) for t in (a, b, c)],
        "sort": (vals.grad_fn.name(), vals.output_nr, idx.grad_fn, idx.requires_grad),
        "max": (mx.values.grad_fn.name(), mx.indices.requires_grad),
        "qr": (q.grad_fn.name(), q.output_nr, r.output_nr, q.grad_fn is r.grad_fn),
    }


@program()
def prog_custom_function_node_introspection(T: Any) -> Any:
    class Scale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x * y * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None, None

    x = T.ones(2, requires_grad=True)
    y = T.ones(2)
    out = Scale.apply(x, y, 3.0)
    gf = out.grad_fn
    return {
        "name": gf.name(),
        "type": type(gf).__name__,
        "nf": gf.next_functions,
        "needs": gf.needs_input_grad,
        "k": gf.k,
        "saved": gf.saved_tensors,
        "is_custom": isinstance(gf, T.autograd.function.BackwardCFunction),
        "metadata": gf.metadata,
        "nonleaf_y": Scale.apply(x * 1, y, 1.0).grad_fn.next_functions[0][0].name(),
    }


@program()
def prog_hooks_fire_once_per_backward_with_retain(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    counts = {"t": 0, "n": 0, "pre": 0}

    def th(g):
        counts["t"] += 1

    def nh(gi, go):
        counts["n"] += 1

    def ph(go):
        counts["pre"] += 1

    y.register_hook(th)
    y.grad_fn.register_hook(nh)
    y.grad_fn.register_prehook(ph)
    z = y.sum()
    for _ in range(3):
        z.backward(retain_graph=True)
    T.autograd.grad(z, x, retain_graph=True)
    T.autograd.grad(z, y)
    return {"counts": counts, "g": x.grad}


@program()
def prog_hook_on_grad_of_detached_branch_not_called(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    calls = []
    a = x * 2
    a.register_hook(lambda g: calls.append("a"))
    b = x * 3
    b.register_hook(lambda g: calls.append("b"))
    (a.detach() * b).sum().backward()
    c = x * 4
    c.register_hook(lambda g: calls.append("c"))
    d = x * 5
    d.register_hook(lambda g: calls.append("d"))
    T.autograd.grad((c * d).sum(), c)
    return {"calls": calls, "g": x.grad}


@program()
def prog_module_full_backward_hook_with_checkpoint(T: Any) -> Any:
    ck = T.utils.checkpoint
    lin = _seeded(T, T.nn.Linear(3, 3), 26)
    seen = []
    lin.register_full_backward_hook(
        lambda m, gi, go: (
            seen.append(tuple(tuple(g.shape) if g is not None else None for g in gi)) and None
        )
    )
    lin.register_full_backward_hook(lambda m, gi, go: seen.append(("go", go[0].clone())))
    x = T.tensor(_data(2, 3), requires_grad=True)
    ck.checkpoint(lin, x, use_reentrant=False).sum().backward()
    return {"n": len(seen), "go": [s for s in seen if isinstance(s, tuple)], "g": x.grad}


# --- more grad-mode programs -----------------------------------------------------------------


@program()
def prog_no_grad_parameter_update_and_versions(T: Any) -> Any:
    w = T.nn.Parameter(T.tensor([1.0, -2.0]))
    loss = (w * w).sum()
    loss.backward()
    with T.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    after = (w.is_leaf, w.requires_grad, w.grad_fn, w._version)
    out = {"after": after, "w": w}
    w2 = T.nn.Parameter(T.tensor([1.0, -2.0]))
    out["outside_no_grad"] = raises(lambda: w2.sub_(0.1))
    y = w * 2
    with T.no_grad():
        w.add_(1)
    out["saved_after_update"] = raises(lambda: (y * w).sum().backward())
    out["y_bw_ok"] = raises(lambda: y.sum().backward())
    return out


@program()
def prog_enable_grad_inside_no_grad_for_inner_optimization(T: Any) -> Any:
    """Optimize an input (adversarial step) inside an evaluation loop under no_grad."""
    model = _seeded(T, T.nn.Linear(3, 1), 27)
    x = T.tensor(_data(2, 3))
    with T.no_grad():
        base = model(x)
        with T.enable_grad():
            delta = T.zeros_like(x, requires_grad=True)
            loss = model(x + delta).sum()
            (g,) = T.autograd.grad(loss, delta)
        adv = model(x + 0.1 * g.sign())
    return {"base": base, "g": g, "adv": adv, "rg": (base.requires_grad, adv.requires_grad)}


@program()
def prog_grad_mode_is_thread_local(T: Any) -> Any:
    import threading

    res = {}

    def worker():
        res["thread_default"] = T.is_grad_enabled()
        with T.no_grad():
            res["thread_inside"] = T.is_grad_enabled()

    with T.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        res["main"] = T.is_grad_enabled()
    return res


@program()
def prog_inference_mode_views_and_versions_errors(T: Any) -> Any:
    with T.inference_mode():
        base = T.ones(4)
        v = base[:2]
    normal = T.ones(4)
    with T.inference_mode():
        nv = normal[:2]
        nv.mul_(2)  # in-place on a normal tensor's view inside inference mode
        inf_from_normal = normal * 2
    return {
        "flags": (
            base.is_inference(),
            v.is_inference(),
            nv.is_inference(),
            inf_from_normal.is_inference(),
        ),
        "normal": normal.tolist(),
        "normal_version": normal._version,
        "v_version": raises(lambda: v._version),
        "inplace_inf_outside": raises(lambda: base.add_(1)),
        "set_rg_inside": raises(
            lambda: T.inference_mode()(lambda: T.ones(2).requires_grad_())().tolist()
        ),
    }


@program()
def prog_anomaly_mode_records_forward_trace_in_metadata(T: Any) -> Any:
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.ones(2, requires_grad=True)
    with T.autograd.detect_anomaly():
        y = x * 2
        z = Double.apply(y)
        keys = (list(y.grad_fn.metadata), list(z.grad_fn.metadata))
        kinds = type(y.grad_fn.metadata["traceback_"]).__name__
        y.grad_fn.metadata["mine"] = 1
        keys2 = sorted(y.grad_fn.metadata)
    w = x * 3
    return {"keys": keys, "kinds": kinds, "keys2": keys2, "outside": list(w.grad_fn.metadata)}


@program(warnings=False)
def prog_forward_ad_custom_function_jvp_in_model(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Swish(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            s = T.sigmoid(x)
            ctx.save_for_backward(x, s)
            ctx.save_for_forward(x, s)
            return x * s

        @staticmethod
        def backward(ctx, g):
            x, s = ctx.saved_tensors
            return g * (s + x * s * (1 - s))

        @staticmethod
        def jvp(ctx, t):
            x, s = ctx.saved_tensors
            return t * (s + x * s * (1 - s))

    lin = _seeded(T, T.nn.Linear(3, 2), 28)
    x = T.tensor(_data(2, 3))
    v = T.tensor(_data(2, 3, seed=5))
    with fwAD.dual_level():
        out = Swish.apply(lin(fwAD.make_dual(x, v)))
        p, t = fwAD.unpack_dual(out)
    ref = T.func.jvp(lambda a: T.nn.functional.silu(lin(a)), (x,), (v,))
    return {"p": p.detach(), "t": t.detach(), "ref": [r.detach() for r in ref]}


@program()
def prog_func_vmap_over_model_ensemble_predictions(T: Any) -> Any:
    models = [_seeded(T, T.nn.Linear(3, 2), s) for s in (30, 31, 32)]
    params, buffers = T.func.stack_module_state(models)
    base = models[0]
    x = T.tensor(_data(4, 3))

    def run(p, b, xb):
        return T.func.functional_call(base, (p, b), (xb,))

    batched = T.func.vmap(run, in_dims=(0, 0, None))(params, buffers, x)
    loop = T.stack([m(x) for m in models])
    return {
        "batched": batched.detach(),
        "loop": loop.detach(),
        "shapes": {k: tuple(v.shape) for k, v in params.items()},
        "rg": [v.requires_grad for v in params.values()],
        "is_leaf": [v.is_leaf for v in params.values()],
    }


@program()
def prog_func_grad_wrt_dict_of_params_with_argnums(T: Any) -> Any:
    def loss(params, x, scale):
        return ((x @ params["w"] + params["b"]) * scale).pow(2).mean()

    params = {"w": T.tensor(_data(3, 2)), "b": T.zeros(2)}
    x = T.tensor(_data(5, 3, seed=1))
    scale = T.tensor(2.0)
    g0 = T.func.grad(loss)(params, x, scale)
    g02 = T.func.grad(loss, argnums=(0, 2))(params, x, scale)
    gv = T.func.grad_and_value(loss, argnums=1)(params, x, scale)
    return {"g0": g0, "g02": g02, "gv": gv, "params_rg": [p.requires_grad for p in params.values()]}


@program()
def prog_checkpoint_preserves_rng_for_dropout(T: Any) -> Any:
    ck = T.utils.checkpoint
    drop = T.nn.Dropout(0.5)
    lin = _seeded(T, T.nn.Linear(4, 4), 33)
    x = T.tensor(_data(3, 4), requires_grad=True)

    def block(a):
        return drop(lin(a)).tanh()

    out = {}
    for mode in (True, False):
        x.grad = None
        lin.zero_grad()
        T.manual_seed(0)
        y = ck.checkpoint(block, x, use_reentrant=mode)
        y.sum().backward()
        out[str(mode)] = (y.detach(), x.grad.clone(), lin.weight.grad.clone())
    x.grad = None
    lin.zero_grad()
    T.manual_seed(0)
    y = block(x)
    y.sum().backward()
    out["plain"] = (y.detach(), x.grad.clone(), lin.weight.grad.clone())
    return out


@program()
def prog_checkpoint_nonreentrant_saved_tensor_hooks_interplay(T: Any) -> Any:
    """(What the outer hooks pack around a non-reentrant checkpoint is torch's internals: only
    the gradients are compared.)"""
    ck = T.utils.checkpoint
    packed = []
    w = T.tensor(_data(3, 3), requires_grad=True)
    x = T.tensor(_data(2, 3, seed=1), requires_grad=True)

    def f(a):
        return (a @ w).sin()

    with T.autograd.graph.saved_tensors_hooks(
        lambda t: packed.append(tuple(t.shape)) or t, lambda t: t
    ):
        y = ck.checkpoint(f, x, use_reentrant=False)
    y.sum().backward()
    return {"gx": x.grad, "gw": w.grad, "y": y}


@program()
def prog_autograd_grad_create_graph_on_model_penalty(T: Any) -> Any:
    """Input-gradient penalty (double backward through conv, bn in eval, gelu, softmax CE)."""
    model = _seeded(
        T,
        T.nn.Sequential(
            T.nn.Conv2d(1, 2, 3, padding=1), T.nn.GELU(), T.nn.Flatten(), T.nn.Linear(2 * 16, 3)
        ),
        34,
    )
    x = T.tensor(_data(2, 1, 4, 4), requires_grad=True)
    y = T.tensor([0, 2])
    loss = T.nn.functional.cross_entropy(model(x), y)
    (gx,) = T.autograd.grad(loss, x, create_graph=True)
    pen = gx.pow(2).sum()
    (loss + pen).backward()
    return {
        "gx": gx.detach(),
        "pen": pen,
        "grads": [p.grad for p in model.parameters()],
    }


@program()
def prog_conv_double_backward_node_name(T: Any) -> Any:
    x = T.ones(1, 1, 4, 4, requires_grad=True)
    w = T.ones(2, 1, 3, 3, requires_grad=True)
    (gx,) = T.autograd.grad(T.nn.functional.conv2d(x, w).pow(2).sum(), x, create_graph=True)
    return {"gx": gx.detach(), "name": gx.grad_fn.name()}


@program()
def prog_second_backward_through_indexing_and_embedding(T: Any) -> Any:
    """Saved index tensors are freed with the graph, as torch's are."""
    W = T.tensor(_data(5, 3), requires_grad=True)
    idx = T.tensor([0, 3, 3])
    out = {}
    for k, f in {
        "adv_index": lambda: W[idx].sum(),
        "mask": lambda: W[W > 0].sum(),
        "index_select": lambda: W.index_select(0, idx).sum(),
        "gather": lambda: W.gather(1, T.tensor([[0], [1], [2], [0], [1]])).sum(),
        "embedding": lambda: T.nn.functional.embedding(idx, W).sum(),
        "take": lambda: W.take(T.tensor([1, 7])).sum(),
        "masked_fill": lambda: W.masked_fill(W > 0, 0.0).sum(),
    }.items():
        W.grad = None
        y = f()
        y.backward()
        out[k] = (W.grad, raises(lambda y=y: y.backward()))
    y = W[idx]
    out["saved_indices"] = y.grad_fn._saved_indices
    y.sum().backward()
    out["after"] = raises(lambda: y.grad_fn._saved_indices)
    return out


@program()
def prog_multi_output_view_modified_then_graph_read(T: Any) -> Any:
    x = T.tensor(_data(4, 2), requires_grad=True)
    y = x * 1
    _first, second = y.chunk(2)
    with T.no_grad():
        y.mul_(2)
    out = {
        "second_gf": raises(lambda: second.grad_fn),
        "second_sum": raises(lambda: second.sum()),
        "y_gf": y.grad_fn.name(),
    }
    z = x * 1
    parts = z.unbind(1)
    z.add_(1)
    out["unbind_read"] = raises(lambda: parts[0].grad_fn)
    out["z_backward"] = raises(lambda: z.sum().backward())
    out["g"] = x.grad
    return out


@program()
def prog_assigning_grad_checks_and_grad_dtype(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(3))
    out = {
        "shape": raises(lambda: setattr(w, "grad", T.ones(4))),
        "dtype": raises(lambda: setattr(w, "grad", T.ones(3, dtype=T.float64))),
        "long": raises(lambda: setattr(w, "grad", T.ones(3, dtype=T.long))),
        "number": raises(lambda: setattr(w, "grad", 1.0)),
        "grad_dtype": w.grad_dtype,
    }
    w.grad = T.full((3,), 0.5)
    (w * 2).sum().backward()
    out["acc"] = w.grad
    w.grad_dtype = None
    w.grad = T.ones(3, dtype=T.float64)
    out["any_dtype"] = w.grad
    out["nonleaf_grad_dtype"] = raises(lambda: (w * 2).grad_dtype)
    return out


@program()
def prog_retain_grad_then_inplace_and_hooks_on_views(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.mul_(3)
    calls = []
    v = y[:2]
    v.register_hook(lambda g: calls.append(g.clone()))
    (v.sum() * 2 + y.sum()).backward()
    return {"y_grad": y.grad, "x_grad": x.grad, "calls": calls, "retains": y.retains_grad}


@program()
def prog_reentrant_backward_inside_hook(T: Any) -> Any:
    """A tensor hook that runs its own small backward (gradient of a side loss)."""
    side = T.tensor([1.0, 2.0], requires_grad=True)
    x = T.tensor([0.5, -0.5], requires_grad=True)
    calls = []

    def hook(g):
        calls.append(raises(lambda: T.autograd.grad((side * g).sum(), side)))
        with T.enable_grad():  # backward runs hooks with grad mode off
            (gs,) = T.autograd.grad((side * g).sum(), side)
        calls.append(gs)
        return g + gs

    y = x.exp()
    y.register_hook(hook)
    y.sum().backward()
    inner = T.ones(2, requires_grad=True)

    def hook2(g):
        with T.enable_grad():
            (inner * 3).sum().backward()
        return g

    z = x.sin()
    z.register_hook(hook2)
    z.sum().backward()
    return {"calls": calls, "x": x.grad, "inner": inner.grad}


@program()
def prog_node_isinstance_and_public_types(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    y = x * 2

    class Id(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    z = Id.apply(x)
    acc = y.grad_fn.next_functions[0][0]
    return {
        "node": [isinstance(n, T.autograd.graph.Node) for n in (y.grad_fn, acc, z.grad_fn)],
        "not_node": isinstance(x, T.autograd.graph.Node),
        "subclass": issubclass(type(y.grad_fn), T.autograd.graph.Node),
        "fn_ctx": isinstance(z.grad_fn, T.autograd.function.FunctionCtx),
        "names": [type(n).__name__ for n in (y.grad_fn, acc, z.grad_fn)],
        "callable": callable(y.grad_fn),
    }


@program()
def prog_only_inputs_deprecation_and_grad_kwargs(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    g = T.autograd.grad(y, x, only_inputs=True, retain_graph=True)
    return {
        "g": g,
        "bad_kw": raises(lambda: T.autograd.grad(y, x, foo=1)),
        "no_outputs": raises(lambda: T.autograd.grad([], x)),
        "no_inputs": raises(lambda: T.autograd.grad(y, [])),
    }


@program()
def prog_inference_mode_nested_in_no_grad_and_enable(T: Any) -> Any:
    w = T.ones(2, requires_grad=True)
    out = []
    with T.inference_mode():
        out.append((T.is_grad_enabled(), T.is_inference_mode_enabled()))
        with T.enable_grad():
            out.append(
                ("enable", T.is_grad_enabled(), (w * 2).requires_grad, (w * 2).is_inference())
            )
        with T.inference_mode(False):
            a = w * 2
            out.append(("inf_off", T.is_grad_enabled(), a.requires_grad, a.is_inference()))
        with T.no_grad():
            out.append(("nograd", T.is_inference_mode_enabled()))
    out.append((T.is_grad_enabled(), T.is_inference_mode_enabled()))
    return out


@program()
def prog_gradients_through_where_with_nan_branch(T: Any) -> Any:
    """The classic where-NaN trap: the untaken branch still poisons the gradient."""
    x = T.tensor([-1.0, 0.0, 4.0], requires_grad=True)
    y = T.where(x > 0, x.sqrt(), T.zeros_like(x))
    y.sum().backward()
    naive = x.grad.clone()
    x.grad = None
    safe = T.where(x > 0, x, T.ones_like(x))
    y2 = T.where(x > 0, safe.sqrt(), T.zeros_like(x))
    y2.sum().backward()
    return {"y": y, "naive": naive, "safe": x.grad, "gf": y2.grad_fn}


@program()
def prog_grads_batched_defaults_errors_and_double_backward(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.pow(3)
    (jac,) = T.autograd.grad(y, x, T.eye(3), is_grads_batched=True, create_graph=True)
    (h,) = T.autograd.grad(jac.sum(), x)  # (jac's own node: vmap's in torch, not compared)
    b = x * 2
    return {
        "jac": jac.detach(),
        "h": h,
        "none_scalar": raises(
            lambda: T.autograd.grad(b.sum(), x, is_grads_batched=True, retain_graph=True)
        ),
        "none_vector": raises(
            lambda: T.autograd.grad(b, x, is_grads_batched=True, retain_graph=True)
        ),
        "empty_batch": raises(
            lambda: T.autograd.grad(b, x, T.ones(0, 3), is_grads_batched=True, retain_graph=True)
        ),
        "mixed_none": raises(
            lambda: T.autograd.grad(
                [b, b.sum()], x, [T.ones(2, 3), None], is_grads_batched=True, retain_graph=True
            )
        ),
        "ok": T.autograd.grad(b, x, T.ones(2, 3), is_grads_batched=True),
    }


@program()
def prog_raw_saved_tensor_register_hooks_per_node(T: Any) -> Any:
    """Per-tensor pack/unpack hooks on one saved value (not the global context manager)."""
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    raw = y.grad_fn._raw_saved_result
    log = []
    raw.register_hooks(lambda t: log.append("pack") or t * 1, lambda t: log.append("unpack") or t)
    twice = raises(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    y.sum().backward()
    z = x * x
    bad = raises(lambda: z.grad_fn._raw_saved_self.register_hooks(lambda t: t, 3))

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a

    o = F.apply(x)
    raws = o.grad_fn._raw_saved_tensors
    unpacked = raws[0].unpack()
    o.sum().backward()
    return {
        "log": log,
        "twice": twice,
        "bad": bad,
        "g": x.grad,
        "n_raw": (type(raws).__name__, len(raws)),
        "unpacked": unpacked,
        "after": raises(lambda: o.grad_fn._raw_saved_tensors),
    }


@program()
def prog_gradient_penalty_through_piecewise_activations(T: Any) -> Any:
    """Input-gradient penalties through leaky_relu / hardtanh / relu6 / prelu: the first
    gradient still requires grad (its node read x), the penalty's gradient is zero there."""
    F = T.nn.functional
    x = T.tensor(
        [[0.3, -0.7, 1.5, 0.2], [0.1, 1.2, -2.0, 0.4]], dtype=T.float64, requires_grad=True
    )
    c = T.linspace(-1, 1, 8, dtype=T.float64).view(2, 4)
    out = {}
    for k, f in {
        "leaky": lambda v: F.leaky_relu(v, 0.1),
        "hardtanh": F.hardtanh,
        "relu6": F.relu6,
        "prelu_fixed": lambda v: F.prelu(v, T.tensor([0.25], dtype=T.float64)),
    }.items():
        (g1,) = T.autograd.grad((f(x) * c).sum(), x, create_graph=True)
        pen = g1.pow(2).sum()
        out[k] = {
            "g1": g1,
            "name": g1.grad_fn.name(),
            "pen_grad": T.autograd.grad(pen, x, allow_unused=True, materialize_grads=True),
        }
    return out


@program()
def prog_double_backward_node_names_of_losses_and_norms(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(
        [[0.3, -0.7, 1.5, 0.2], [0.1, 1.2, -2.0, 0.4]], dtype=T.float64, requires_grad=True
    )
    t = T.tensor([[0.0, 1.0, 0.5, 0.2], [1.0, 0.0, 0.3, 0.9]], dtype=T.float64)
    out = {}
    for k, f in {
        "mse": lambda: F.mse_loss(x, t),
        "smooth_l1": lambda: F.smooth_l1_loss(x, t),
        "layer_norm": lambda: F.layer_norm(x, (4,)).pow(2).sum(),
        "logsigmoid": lambda: F.logsigmoid(x).sum(),
        "glu": lambda: F.glu(x).pow(2).sum(),
    }.items():
        (g1,) = T.autograd.grad(f(), x, create_graph=True)
        out[k] = (g1.detach(), g1.grad_fn.name())
    (g,) = T.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    out["hardsigmoid"] = raises(lambda: T.autograd.grad(g.sum(), x))
    return out


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
