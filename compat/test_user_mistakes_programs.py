"""Realistic programs: the mistakes users make and ask about (PyTorch forums, Stack Overflow
style). Calling backward twice, in-place writes to leaves and to tensors saved for backward,
`.numpy()` / `.item()` misuse, dtype and shape mismatches in losses, matmul, Linear, cat and
view, reductions given keepdim but no dim, forgotten zero_grad, optimizers over non-leaves,
`.grad` of non-leaves, torch.tensor(tensor), out= warnings, save/load of views, inference
tensors. Each program returns the values and gradients it gets along with the error (type and
message) or warning torch gives. The programs register into test_realistic_programs_3's set and
run through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it
returns, raises or warns is compared.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- reductions given keepdim but no dim -----------------------------------------------------


@program()
def prog_mis_sum_keepdim_without_dim(T: Any) -> Any:
    x = _x(T, 2, 3)
    out = {}
    for name in ("sum", "mean", "prod", "max", "min", "median", "nanmedian"):
        out[name] = (
            raises(lambda n=name: getattr(T, n)(x, keepdim=True)),
            raises(lambda n=name: getattr(x, n)(keepdim=True)),
            raises(lambda n=name: getattr(x, n)(keepdim=False)),
        )
    # what the user meant: every dim reduced, kept as size 1
    y = x.sum(dim=(0, 1), keepdim=True) + x.mean(dim=None, keepdim=True)
    y.sum().backward()
    return out, y, y.grad_fn, x.grad


@program()
def prog_mis_reduction_keepdim_and_dtype_without_dim(T: Any) -> Any:
    x = _x(T, 2, 3, seed=1, rg=False)
    return (
        raises(lambda: T.sum(x, keepdim=True, dtype=T.float64)),
        raises(lambda: x.sum(keepdim=True, dtype=T.float64)),
        raises(lambda: x.mean(keepdim=True, dtype=T.float64)),
        raises(lambda: T.prod(x, keepdim=False, dtype=T.float64)),
        raises(lambda: T.sum(x, keepdim=True, out=T.empty(()))),
        raises(lambda: T.max(x, keepdim=True, out=T.empty(()))),
        raises(lambda: T.sum(x.long(), keepdim=True)),
        raises(lambda: T.mean(x.long(), keepdim=True)),
        # reductions whose full form takes keepdim, and those needing a dim
        T.amax(x, keepdim=True),
        x.std(keepdim=True),
        T.any(x > 0, keepdim=True),
        T.nansum(x, keepdim=True),
        raises(lambda: x.logsumexp()),
        raises(lambda: T.logsumexp(x, keepdim=True)),
        x.logsumexp(1, keepdim=True),
    )


# --- warnings point at the user's line ------------------------------------------------------


def _where_warned(fn: Any) -> list[Any]:
    """fn's warnings: category, message head, and the line each names (this file's line of the
    call, relative to fn's own first line; None elsewhere)."""
    first = fn.__code__.co_firstlineno
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [
        (
            r.category.__name__,
            str(r.message)[:40],
            r.lineno - first if r.filename == __file__ else None,
        )
        for r in w
    ]


@program()
def prog_mis_out_resize_warning_names_callers_line(T: Any) -> Any:
    x = _x(T, 3, rg=False)
    return (
        _where_warned(lambda: T.exp(x, out=T.empty(2))),
        _where_warned(lambda: T.add(x, x, out=T.empty(2))),
        _where_warned(lambda: T.sum(x, 0, out=T.empty(2))),
        _where_warned(lambda: T.cumsum(x, 0, out=T.empty(2))),
        _where_warned(lambda: T.sort(x, out=(T.empty(2), T.empty(2, dtype=T.long)))),
        _where_warned(lambda: T.logsumexp(x, 0, out=T.empty(2))),
        _where_warned(lambda: T.ger(x, x, out=T.empty(3, 3))),
    )


@program()
def prog_mis_std_of_one_element_warns_at_call(T: Any) -> Any:
    one = _x(T, 1, seed=2)
    s = None

    def f() -> None:
        nonlocal s
        s = T.std(one, 0)

    got = (
        _where_warned(f),
        _where_warned(lambda: one.var()),
        _where_warned(lambda: T.var(one.detach(), out=T.empty(()))),
        raises(lambda: T.var(one, out=T.empty(()))),  # out= with a tensor requiring grad
        _where_warned(lambda: T.std_mean(one)),
    )
    return got, s


# --- autograd: backward, leaves, versions ----------------------------------------------------


@program()
def prog_mis_backward_twice_without_retain_graph(T: Any) -> Any:
    x = _x(T, 3)
    y = (x.exp() * x).sum()
    y.backward()
    g1 = x.grad.clone()
    err = raises(lambda: y.backward())
    z = (x.sin() ** 2).sum()
    z.backward(retain_graph=True)
    z.backward()  # a second pass over the kept graph: accumulates
    return g1, err, x.grad


@program()
def prog_mis_backward_twice_through_shared_subgraph(T: Any) -> Any:
    x = _x(T, 2, 2, seed=3)
    h = T.tanh(x @ x)
    l1 = h.sum()
    l2 = (h * h).mean()
    l1.backward()
    err = raises(lambda: l2.backward())  # h's node was freed by the first backward
    return err, x.grad, h.grad_fn


@program()
def prog_mis_inplace_on_leaf_requiring_grad(T: Any) -> Any:
    w = _x(T, 3, seed=4)
    errs = [
        raises(lambda: w.add_(1)),
        raises(lambda: w.zero_()),
        raises(lambda: w[0].mul_(2)),
        raises(lambda: w.__setitem__(0, 5.0)),
        raises(lambda: w.clamp_(min=0)),
    ]
    w.sum().backward()
    lr = 0.1
    with T.no_grad():  # the manual SGD step done right
        w -= lr * w.grad
    w.grad.zero_()
    return errs, w, w.is_leaf, w.requires_grad, w.grad, w._version


@program()
def prog_mis_inplace_iadd_on_leaf(T: Any) -> Any:
    w = _x(T, 2, 2, seed=5)

    def step() -> None:
        nonlocal w
        w += 1.0

    err = raises(step)
    w2 = w * 1.0  # a non-leaf: in-place is fine
    w2 += 1.0
    w2.sum().backward()
    return err, w2, w2.grad_fn, w.grad


@program()
def prog_mis_modify_output_saved_for_backward(T: Any) -> Any:
    x = _x(T, 4, seed=6)
    out = {}
    for name in ("exp", "sigmoid", "tanh", "sqrt"):
        a = x.abs() if name == "sqrt" else x
        y = getattr(a, name)()
        y.add_(1)
        out[name] = (raises(lambda y=y: y.sum().backward()), y._version)
    return out, x.grad


@program()
def prog_mis_modify_input_saved_for_backward(T: Any) -> Any:
    x = _x(T, 3, seed=7)
    h = x * 2
    y = h * h  # saves h
    h.mul_(3)
    err = raises(lambda: y.sum().backward())
    h2 = x * 2
    y2 = h2 + h2  # saves nothing: in-place afterwards is harmless
    h2.mul_(3)
    y2.sum().backward()
    return err, x.grad, h._version, y.grad_fn


@program()
def prog_mis_relu_inplace_after_sigmoid(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, seed=8)
    y = T.sigmoid(x)
    F.relu(y, inplace=True)  # sigmoid saved its output
    e1 = raises(lambda: y.sum().backward())
    z = T.nn.ReLU(inplace=True)(x * 1.0)  # after a mul by a number: nothing saved of it
    z.sum().backward()
    return e1, z, z.grad_fn, x.grad


@program()
def prog_mis_data_vs_detach_inplace(T: Any) -> Any:
    x = _x(T, 3, seed=9)
    y = x.exp()
    y.detach().zero_()  # detach shares the version counter: caught
    e1 = raises(lambda: y.sum().backward())
    x2 = _x(T, 3, seed=9)
    y2 = x2.exp()
    y2.data.mul_(0)  # .data does not: the wrong gradient goes unnoticed
    y2.sum().backward()
    return e1, y2, x2.grad, y._version, y2._version


@program()
def prog_mis_numpy_on_tensor_requiring_grad(T: Any) -> Any:
    x = _x(T, 2, 2, seed=10)
    y = x * 2
    return (
        raises(lambda: x.numpy()),
        raises(lambda: y.numpy()),
        y.detach().numpy(),
        raises(lambda: np.asarray(x)),
        x.tolist(),
        raises(lambda: x.numpy(force=False)),
    )


@program()
def prog_mis_item_and_python_scalars_of_many_elements(T: Any) -> Any:
    x = _x(T, 2, 3, seed=11)
    return (
        raises(lambda: x.item()),
        raises(lambda: float(x)),
        raises(lambda: int(x)),
        raises(lambda: bool(x)),
        raises(lambda: bool(x > 0)),
        raises(lambda: T.empty(0).item()),
        x[0, 1].item(),
        float(x.sum()),
        bool(x.sum() > 100),
        raises(lambda: x.sum(1).item()),
    )


@program()
def prog_mis_grad_of_non_leaf_warns(T: Any) -> Any:
    x = _x(T, 3, seed=12)
    h = x * 3
    y = (h**2).sum()
    y.backward()
    g = h.grad  # warns: not a leaf
    h2 = x * 3
    h2.retain_grad()
    (h2**2).sum().backward()
    return g, h2.grad, h.is_leaf, x.grad, h2.retains_grad


@program()
def prog_mis_to_dtype_makes_non_leaf(T: Any) -> Any:
    w = T.tensor(_data(3, seed=13), requires_grad=True).double()  # not the leaf anymore
    (w * 2).sum().backward()
    g = w.grad
    w2 = T.tensor(_data(3, seed=13), dtype=T.float64, requires_grad=True)
    (w2 * 2).sum().backward()
    return w.is_leaf, w.grad_fn, g, w2.grad, w2.is_leaf


@program()
def prog_mis_requires_grad_on_integer_tensors(T: Any) -> Any:
    return (
        raises(lambda: T.tensor([1, 2, 3], requires_grad=True)),
        raises(lambda: T.arange(3).requires_grad_()),
        raises(lambda: T.zeros(2, dtype=T.long, requires_grad=True)),
        raises(lambda: T.nn.Parameter(T.tensor([1, 2]))),
        T.tensor([1.0, 2.0], requires_grad=True).long().requires_grad,
        T.tensor([1, 2], dtype=T.float32, requires_grad=True),
        raises(lambda: T.tensor([True, False]).requires_grad_(True)),
    )


@program()
def prog_mis_requires_grad_flag_on_non_leaf(T: Any) -> Any:
    x = _x(T, 3, seed=14)
    y = x * 2

    def set_false() -> None:
        y.requires_grad = False

    def set_true_leaf() -> None:
        z = T.ones(2)
        z.requires_grad = True
        z.sum().backward()
        return z.grad

    return (
        raises(set_false),
        set_true_leaf(),
        y.requires_grad,
        raises(lambda: y.requires_grad_(False)),
    )


@program()
def prog_mis_torch_tensor_of_tensor_warns(T: Any) -> Any:
    x = _x(T, 3, seed=15)
    a = T.tensor(x)  # warns: use clone().detach()
    b = T.tensor(x.detach())
    c = x.clone().detach()
    d = T.as_tensor(x)
    e = T.tensor([x[0], x[1]])  # a list of 0-dim tensors
    return a, a.requires_grad, a.is_leaf, b, c.requires_grad, d.requires_grad, d.grad_fn, e


@program()
def prog_mis_backward_on_non_scalar(T: Any) -> Any:
    x = _x(T, 3, seed=16)
    y = x * x
    e1 = raises(lambda: y.backward())
    e2 = raises(lambda: T.autograd.grad(y, x))
    y.backward(T.ones_like(y))
    e3 = raises(lambda: (x * 2).backward(T.ones(2)))
    e4 = raises(lambda: (x * 2).backward(T.ones(3, dtype=T.float64)))
    return e1, e2, e3, e4, x.grad


@program()
def prog_mis_backward_without_grad(T: Any) -> Any:
    x = _x(T, 3, rg=False)
    w = _x(T, 3, seed=17)
    with T.no_grad():
        y = (x * w).sum()
    e1 = raises(lambda: y.backward())
    e2 = raises(lambda: x.sum().backward())
    d = (x * w).sum().detach()
    e3 = raises(lambda: d.backward())
    e4 = raises(lambda: T.autograd.grad((x * 2).sum(), x))
    return e1, e2, e3, e4, y.requires_grad, y.grad_fn


@program()
def prog_mis_autograd_grad_unused_and_twice(T: Any) -> Any:
    x = _x(T, 3, seed=18)
    u = _x(T, 2, seed=19)
    y = (x**3).sum()
    e1 = raises(lambda: T.autograd.grad(y, [x, u], retain_graph=True))
    g = T.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True)
    g2 = T.autograd.grad(y, [x, u], allow_unused=True, materialize_grads=True)
    e2 = raises(lambda: T.autograd.grad(y, x))
    return e1, g, g2, e2, x.grad


@program()
def prog_mis_view_of_leaf_inplace_and_setitem(T: Any) -> Any:
    w = _x(T, 2, 3, seed=20)
    v = w[0]
    e1 = raises(lambda: v.add_(1))
    e2 = raises(lambda: w.t().zero_())
    with T.no_grad():
        w[0, 0] = 0.0
    y = w.clone()
    y[1] = 7.0  # fine on a non-leaf copy
    y.sum().backward()
    return e1, e2, y, y.grad_fn, w.grad, w._version


@program()
def prog_mis_no_grad_decorator_and_nesting(T: Any) -> Any:
    w = _x(T, 3, seed=21)

    @T.no_grad()
    def infer(v: Any) -> Any:
        return v * w

    @T.enable_grad()
    def train(v: Any) -> Any:
        return v * w

    a = infer(T.ones(3))
    with T.no_grad():
        b = train(T.ones(3))
        c = w * 2
        with T.enable_grad():
            d = w * 2
    with T.set_grad_enabled(False):
        e = w + 1
    f = T.no_grad()(lambda: w * 3)()
    return (
        (a.requires_grad, a.grad_fn),
        (b.requires_grad, b.grad_fn),
        (c.requires_grad, d.requires_grad, e.requires_grad, f.requires_grad),
        T.is_grad_enabled(),
    )


@program()
def prog_mis_forgot_zero_grad_accumulates(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 22)
    opt = T.optim.SGD(lin.parameters(), lr=0.1)
    x = _x(T, 4, 3, seed=23, rg=False)
    trace = []
    for _ in range(3):  # no zero_grad: the gradients pile up
        loss = lin(x).pow(2).mean()
        loss.backward()
        trace.append(lin.weight.grad.clone())
        opt.step()
    opt.zero_grad()
    after = lin.weight.grad
    loss = lin(x).pow(2).mean()
    loss.backward()
    return trace, after, lin.weight.grad, lin.weight, lin.bias


@program()
def prog_mis_optimizer_on_non_leaf_and_empty(T: Any) -> Any:
    w = _x(T, 3, seed=24)
    return (
        raises(lambda: T.optim.SGD([w * 2], lr=0.1)),
        raises(lambda: T.optim.Adam([], lr=0.1)),
        raises(lambda: T.optim.SGD(w, lr=0.1)),
        raises(lambda: T.optim.SGD([w, w], lr=0.1)),
        raises(lambda: T.optim.SGD([w], lr=-1)),
        raises(lambda: T.optim.Adam([w], betas=(1.0, 0.9))),
        raises(lambda: T.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)),
    )


@program()
def prog_mis_params_in_plain_list_not_registered(T: Any) -> Any:
    class Net(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = [T.nn.Linear(2, 2), T.nn.Linear(2, 1)]  # a plain list: not registered
            self.good = T.nn.ModuleList([T.nn.Linear(2, 2)])

    n = Net()
    names = [k for k, _ in n.named_parameters()]
    return names, len(list(n.parameters())), sorted(n.state_dict().keys())


@program()
def prog_mis_module_without_super_init(T: Any) -> Any:
    class Bad(T.nn.Module):
        def __init__(self) -> None:
            self.fc = T.nn.Linear(2, 2)

    class BadParam(T.nn.Module):
        def __init__(self) -> None:
            self.w = T.nn.Parameter(T.ones(2))

    class BadBuffer(T.nn.Module):
        def __init__(self) -> None:
            self.register_buffer("b", T.ones(2))

    return raises(Bad), raises(BadParam), raises(BadBuffer)


# --- dtypes -----------------------------------------------------------------------------------


@program()
def prog_mis_cross_entropy_target_dtypes(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4, seed=30)
    t = T.tensor([0, 3, 1])
    out = {
        "long": F.cross_entropy(x, t),
        "int32": raises(lambda: F.cross_entropy(x, t.int())),
        "float_same_shape_as_index": raises(lambda: F.cross_entropy(x, t.float())),
        "one_hot_long": raises(lambda: F.cross_entropy(x, F.one_hot(t, 4))),
        "probs": F.cross_entropy(x, F.one_hot(t, 4).float()),
        "out_of_range": raises(lambda: F.cross_entropy(x, T.tensor([0, 4, 1]))),
        "negative": raises(lambda: F.cross_entropy(x, T.tensor([0, -2, 1]))),
        "batch_mismatch": raises(lambda: F.cross_entropy(x, T.tensor([0, 1]))),
        "target_2d": raises(lambda: F.cross_entropy(x, t.view(3, 1))),
    }
    out["long"].backward()
    return out, x.grad


@program()
def prog_mis_nll_loss_without_log_softmax_and_dtypes(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 5, seed=31)
    t = T.tensor([4, 0, 2])
    raw = F.nll_loss(x, t)  # the forgotten log_softmax: a plain negated pick
    good = F.nll_loss(F.log_softmax(x, 1), t)
    good.backward()
    return (
        raw,
        good,
        x.grad,
        raises(lambda: F.nll_loss(x, t.float())),
        raises(lambda: F.nll_loss(x[0], t)),
        raises(lambda: F.nll_loss(x, T.tensor([5, 0, 0]))),
    )


@program()
def prog_mis_bce_targets_and_ranges(T: Any) -> Any:
    F = T.nn.functional
    logits = _x(T, 4, seed=32)
    p = T.sigmoid(logits)
    y = T.tensor([1, 0, 1, 1])
    out = (
        raises(lambda: F.binary_cross_entropy(p, y)),
        raises(lambda: F.binary_cross_entropy_with_logits(logits, y)),
        raises(lambda: F.binary_cross_entropy(logits, y.float())),  # logits, not probabilities
        raises(lambda: F.binary_cross_entropy(p, y.float().view(4, 1))),
        F.binary_cross_entropy(p, y.float()),
        F.binary_cross_entropy_with_logits(logits, y.float()),
    )
    out[-1].backward()
    return out, logits.grad


@program()
def prog_mis_mse_loss_broadcast_warning(T: Any) -> Any:
    F = T.nn.functional
    pred = _x(T, 4, 1, seed=33)
    target = T.tensor(_data(4, seed=34))
    wrong = F.mse_loss(pred, target)  # (4,1) vs (4,): broadcasts to (4,4), with a warning
    right = F.mse_loss(pred.squeeze(1), target)
    (wrong + right).backward()
    return (
        wrong,
        right,
        pred.grad,
        raises(lambda: F.mse_loss(pred, T.ones(3))),
        raises(lambda: F.l1_loss(pred, target.long())),
        raises(lambda: T.nn.MSELoss()(pred, target.view(4, 1).double())),
    )


@program()
def prog_mis_matmul_int_and_float(T: Any) -> Any:
    a = T.arange(6).view(2, 3)
    b = _x(T, 3, 2, seed=35)
    return (
        raises(lambda: a @ b),
        raises(lambda: T.mm(a, b)),
        raises(lambda: T.matmul(b.t(), a.t())),
        raises(lambda: T.bmm(a.unsqueeze(0), b.unsqueeze(0))),
        raises(lambda: T.mv(b.t(), T.arange(3))),
        raises(lambda: T.dot(T.arange(3), b[:, 0])),
        a.float() @ b,
        (a * b.t()).dtype,  # elementwise ops promote
    )


@program()
def prog_mis_linear_dtype_and_size(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 36)
    x = T.tensor(_data(4, 3, seed=37).astype(np.float64))  # from a float64 numpy array
    xi = T.tensor([[1, 2, 3]])
    return (
        raises(lambda: lin(x)),
        raises(lambda: lin(xi)),
        raises(lambda: lin(T.ones(4, 5))),
        raises(lambda: lin(T.ones(3))),
        lin(x.float()),
        lin.double()(x).dtype,
        raises(lambda: T.nn.functional.linear(T.ones(2, 3), T.ones(3, 2))),
    )


@program()
def prog_mis_numpy_float64_into_float32_model(T: Any) -> Any:
    arr = np.random.default_rng(38).standard_normal((5, 2))  # float64
    a = T.from_numpy(arr)
    b = T.tensor(arr, dtype=T.float32)
    c = T.as_tensor(arr).float()
    lin = _seeded(T, T.nn.Linear(2, 1), 39)
    arr[0, 0] = 100.0  # from_numpy shares the memory; tensor() copied
    return (a.dtype, a[0, 0], b[0, 0], c.dtype, raises(lambda: lin(a)), lin(b))


@program()
def prog_mis_mean_of_integer_and_division(T: Any) -> Any:
    i = T.tensor([1, 2, 4])
    return (
        raises(lambda: i.mean()),
        raises(lambda: T.var(i)),
        raises(lambda: i.std()),
        i.float().mean(),
        i.mean(dtype=T.float64),
        i / 2,
        i // 2,
        T.div(i, 2, rounding_mode="floor"),
        raises(lambda: T.div(i, 2, rounding_mode="round")),
        i.sum().dtype,
        (i * 1.5).dtype,
        T.tensor([1, 2], dtype=T.int32) + T.tensor([1], dtype=T.int64),
    )


@program()
def prog_mis_inplace_dtype_and_broadcast(T: Any) -> Any:
    a = T.arange(3)
    f = T.ones(3)

    def iadd_float() -> Any:
        b = T.arange(3)
        b += 0.5
        return b

    def iadd_bigger() -> Any:
        c = T.ones(3)
        c += T.ones(2, 3)
        return c

    return (
        raises(iadd_float),
        raises(lambda: a.add_(f)),
        raises(lambda: a.mul_(1.5)),
        raises(iadd_bigger),
        f.add_(a),
        raises(lambda: T.ones(2).expand(3, 2).add_(1)),
        T.ones(2).expand(3, 2).clone().add_(1),
        raises(lambda: a.div_(2)),
        a.floor_divide_(2),
    )


# --- shapes -----------------------------------------------------------------------------------


@program()
def prog_mis_view_after_transpose(T: Any) -> Any:
    x = _x(T, 2, 3, seed=40)
    t = x.t()
    y = t.reshape(6)  # copies
    z = t.contiguous().view(6)
    (y * z).sum().backward()
    return (
        raises(lambda: t.view(6)),
        raises(lambda: x.permute(1, 0).view(-1)),
        t.is_contiguous(),
        y,
        y.grad_fn,
        z.grad_fn,
        x.grad,
        x.view(3, 2).grad_fn,
        raises(lambda: x.view(4, 2)),
        raises(lambda: x.view(-1, -1)),
        raises(lambda: x.reshape(5, -1)),
        x.view(-1, 2).shape,
    )


@program()
def prog_mis_cat_and_stack_shapes(T: Any) -> Any:
    a = _x(T, 2, 3, seed=41)
    b = _x(T, 2, 4, seed=42)
    c = _x(T, 3, seed=43)
    good = T.cat([a, b], 1)
    good.sum().backward()
    return (
        raises(lambda: T.cat([a, b])),
        raises(lambda: T.cat([a, c])),
        raises(lambda: T.cat([])),
        raises(lambda: T.cat([a, b], 2)),
        raises(lambda: T.stack([a, b])),
        raises(lambda: T.stack([])),
        raises(lambda: T.cat(a, b)),
        raises(lambda: T.cat([a, a.long()], 0).dtype),
        good.grad_fn,
        a.grad,
        T.stack([a, a], 2).shape,
    )


@program()
def prog_mis_broadcast_and_expand_errors(T: Any) -> Any:
    a = _x(T, 3, seed=44)
    return (
        raises(lambda: a + T.ones(4)),
        raises(lambda: a * T.ones(2, 4)),
        raises(lambda: a.expand(3, 4)),
        raises(lambda: a.expand(2)),
        a.expand(2, 3).shape,
        raises(lambda: a.view(3, 1).expand(3, 4, 2)),
        a.view(3, 1) + a,
        raises(lambda: a.unsqueeze(2)),
        raises(lambda: a.squeeze(1)),
        raises(lambda: a.permute(0, 1)),
        raises(lambda: a.transpose(0, 1)),
        raises(lambda: a.sum(1)),
    )


@program()
def prog_mis_indexing_mistakes(T: Any) -> Any:
    x = _x(T, 3, 2, seed=45)
    s = T.tensor(5.0)
    mask = x > 0
    return (
        raises(lambda: x[3]),
        raises(lambda: x[:, 2]),
        raises(lambda: s[0]),
        raises(lambda: len(s)),
        raises(lambda: list(s)),
        raises(lambda: x[mask.float()]),
        x[mask],
        raises(lambda: x[T.tensor([0.0, 1.0])]),
        x[T.tensor([0, 2])],
        raises(lambda: x[T.tensor([0, 3])]),
        raises(lambda: x[mask[:2]]),
        raises(lambda: x[0, 0, 0]),
        x[None, ..., 1].shape,
    )


@program()
def prog_mis_gather_and_scatter_index_dtypes(T: Any) -> Any:
    x = _x(T, 2, 3, seed=46)
    idx = T.tensor([[0, 2], [1, 0]])
    g = x.gather(1, idx)
    g.sum().backward()
    return (
        g,
        x.grad,
        raises(lambda: x.gather(1, idx.int())),
        raises(lambda: x.gather(1, idx.float())),
        raises(lambda: x.gather(1, T.tensor([[0, 3], [1, 0]]))),
        raises(lambda: x.gather(2, idx)),
        raises(lambda: T.zeros(2, 3).scatter_(1, idx, T.ones(2, 2, dtype=T.float64))),
        raises(lambda: x.index_select(0, T.tensor([0.0]))),
        raises(lambda: T.zeros(2).index_add_(0, T.tensor([0]), T.ones(1, dtype=T.float64))),
    )


@program()
def prog_mis_torch_tensor_construction_mistakes(T: Any) -> Any:
    a = T.ones(2)
    return (
        raises(lambda: T.tensor([[1, 2], [3]])),
        raises(lambda: T.tensor([a, a])),
        raises(lambda: T.tensor([T.ones(1), T.ones(1)])),
        T.stack([a, a]),
        raises(lambda: T.tensor("abc")),
        raises(lambda: T.tensor([1, "a"])),
        raises(lambda: T.tensor(None)),
        T.Tensor([3]),
        T.Tensor(3).shape,
        T.tensor(3).shape,
        T.tensor([3.0], dtype=T.int64),
        raises(lambda: T.tensor([1.5], dtype=T.bool).dtype),
        T.tensor(np.array([1, 2], dtype=np.int32)).dtype,
        raises(lambda: T.zeros(2, 3.0)),
        raises(lambda: T.ones((2, -1))),
    )


@program()
def prog_mis_where_and_masked_fill_dtypes(T: Any) -> Any:
    x = _x(T, 4, seed=47)
    m = x > 0
    return (
        raises(lambda: T.where(m.float(), x, T.zeros(4))),
        T.where(m, x, 0.0),
        raises(lambda: x.masked_fill(m.float(), 0.0)),
        raises(lambda: x.masked_fill(m, T.ones(2))),
        x.masked_fill(m, float("-inf")),
        raises(lambda: x.masked_fill_(m, 1.0)),
        T.where(m, x, T.zeros(4, dtype=T.float64)).dtype,
        raises(lambda: x.masked_select(m.long())),
    )


# --- devices ----------------------------------------------------------------------------------


@program()
def prog_mis_device_strings_on_cpu_machine(T: Any) -> Any:
    x = _x(T, 2, rg=False)
    return (
        T.device("cpu"),
        T.device("cuda:0"),
        T.device("cuda", 1),
        raises(lambda: T.device("gpu")),
        raises(lambda: T.device("cuda:x")),
        raises(lambda: T.device("cpu:-1")),
        x.to("cpu") is x,
        x.to(T.device("cpu"), copy=True) is x,
        x.cpu() is x,
        x.device,
        str(x.device),
        x.device == T.device("cpu"),
        x.is_cuda,
        T.cuda.is_available(),
        T.zeros(2, device="cpu").device.type,
        raises(lambda: T.zeros(2, device="tpu")),
    )


@program()
def prog_mis_device_agnostic_code(T: Any) -> Any:
    dev = T.device("cuda" if T.cuda.is_available() else "cpu")
    lin = _seeded(T, T.nn.Linear(2, 2), 50).to(dev)
    x = T.tensor(_data(3, 2, seed=51)).to(dev)
    y = lin(x)
    y.sum().backward()
    return dev, y, lin.weight.grad, next(lin.parameters()).device, x.device.index


# --- modules and training loops --------------------------------------------------------------


@program()
def prog_mis_forward_vs_call_skips_hooks(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 52)
    calls = []
    lin.register_forward_hook(lambda m, i, o: calls.append(("fwd", tuple(o.shape))))
    lin.register_forward_pre_hook(lambda m, i: calls.append(("pre", len(i))))
    x = T.tensor(_data(1, 2, seed=53))
    a = lin(x)
    b = lin.forward(x)  # hooks skipped
    return calls, a, b


@program()
def prog_mis_eval_mode_forgotten_dropout_batchnorm(T: Any) -> Any:
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.Dropout(0.5))
    _seeded(T, net, 54)
    x = T.tensor(_data(5, 3, seed=55))
    T.manual_seed(1)
    train_out = net(x)
    stats = (net[1].running_mean.clone(), net[1].num_batches_tracked.clone())
    net.eval()
    e1 = net(x)
    e2 = net(x)
    return train_out, stats, e1, T.equal(e1, e2), net.training, net[2].training


@program()
def prog_mis_batchnorm_batch_of_one(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(3)
    x = T.tensor(_data(1, 3, seed=56))
    err = raises(lambda: bn(x))
    bn.eval()
    ok = bn(x)
    bn2 = T.nn.BatchNorm2d(3)
    return err, ok, raises(lambda: bn2(T.ones(2, 4, 2, 2))), raises(lambda: bn2(T.ones(3, 2, 2)))


@program()
def prog_mis_conv_input_shapes(T: Any) -> Any:
    conv = _seeded(T, T.nn.Conv2d(3, 4, 3), 57)
    img = T.tensor(_data(1, 3, 5, 5, seed=58))
    y = conv(img)
    y.sum().backward()
    return (
        y.shape,
        conv.weight.grad.shape,
        raises(lambda: conv(T.ones(1, 1, 5, 5))),
        raises(lambda: conv(T.ones(1, 5, 5, 3))),  # channels-last image
        conv(T.ones(3, 5, 5)).shape,  # unbatched works
        raises(lambda: conv(T.ones(5, 5))),
        raises(lambda: conv(T.ones(1, 3, 2, 2))),  # smaller than the kernel
        raises(lambda: conv(T.ones(1, 3, 5, 5, dtype=T.float64))),
        raises(lambda: T.nn.Conv2d(3, 4, 3, groups=2)),
    )


@program()
def prog_mis_embedding_index_mistakes(T: Any) -> Any:
    emb = _seeded(T, T.nn.Embedding(5, 2), 59)
    idx = T.tensor([[0, 4], [2, 1]])
    out = emb(idx)
    out.sum().backward()
    return (
        out,
        emb.weight.grad,
        raises(lambda: emb(T.tensor([5]))),
        raises(lambda: emb(T.tensor([-1]))),
        raises(lambda: emb(T.tensor([1.0]))),
        emb(T.tensor([1], dtype=T.int32)).shape,
        raises(lambda: T.nn.Embedding(5, 2, padding_idx=5)),
    )


@program()
def prog_mis_lstm_input_layout(T: Any) -> Any:
    T.manual_seed(3)
    lstm = T.nn.LSTM(input_size=4, hidden_size=3, batch_first=False)
    x = T.tensor(_data(5, 2, 4, seed=60))  # (seq, batch, feature)
    out, (h, c) = lstm(x)
    return (
        out.shape,
        h.shape,
        raises(lambda: lstm(T.ones(2, 5, 3))),
        raises(lambda: lstm(x, (h, c[:, :1]))),
        raises(lambda: lstm(x, h)),
        raises(lambda: lstm(x.double())),
        out[-1].allclose(h[0]),
    )


@program()
def prog_mis_softmax_without_dim_warns(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, seed=61)
    a = F.softmax(x)  # implicit dim: a deprecation warning
    b = F.log_softmax(x)
    c = T.nn.Softmax()(x)
    d = F.softmax(x, dim=1)
    (a * d).sum().backward()
    return a, b, c, d, x.grad, raises(lambda: x.softmax()), raises(lambda: T.softmax(x))


@program()
def prog_mis_one_hot_mistakes(T: Any) -> Any:
    F = T.nn.functional
    return (
        raises(lambda: F.one_hot(T.tensor([0.0, 1.0]))),
        raises(lambda: F.one_hot(T.tensor([0, -1]))),
        raises(lambda: F.one_hot(T.tensor([0, 3]), 3)),
        F.one_hot(T.tensor([0, 2])),
        F.one_hot(T.tensor([[1], [0]]), 3).shape,
        raises(lambda: F.one_hot(T.tensor([0, 1], dtype=T.int32))),
    )


@program()
def prog_mis_load_state_dict_mismatches(T: Any) -> Any:
    src = _seeded(T, T.nn.Linear(3, 2), 62)
    sd = src.state_dict()
    a = T.nn.Linear(3, 2, bias=False)
    b = T.nn.Linear(4, 2)
    c = T.nn.Sequential(T.nn.Linear(3, 2))
    res = c.load_state_dict(sd, strict=False)
    d = T.nn.Linear(3, 2)
    keys = d.load_state_dict({"module." + k: v for k, v in sd.items()}, strict=False)
    return (
        raises(lambda: a.load_state_dict(sd)),
        raises(lambda: b.load_state_dict(sd)),
        raises(lambda: c.load_state_dict(sd)),
        res,
        keys,
        a.load_state_dict(sd, strict=False),
        raises(lambda: b.load_state_dict(sd, strict=False)),
    )


@program()
def prog_mis_state_dict_tensors_alias_parameters(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 1), 63)
    sd = lin.state_dict()
    snap = {k: v.clone() for k, v in sd.items()}
    opt = T.optim.SGD(lin.parameters(), lr=1.0)
    lin(T.ones(1, 2)).sum().backward()
    opt.step()
    # the state dict's tensors share the parameters' memory: the "saved best model" moved too
    return sd["weight"], snap["weight"], sd["weight"].requires_grad, T.equal(sd["bias"], lin.bias)


@program()
def prog_mis_running_loss_keeps_graph(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 1), 64)
    total = 0
    total_item = 0.0
    for i in range(3):
        loss = lin(T.tensor(_data(4, 2, seed=65 + i))).pow(2).mean()
        total = total + loss  # keeps every step's graph alive
        total_item += loss.item()
    return total, total.grad_fn, total.requires_grad, total_item, type(total_item).__name__


@program()
def prog_mis_clip_grad_norm_before_backward(T: Any) -> Any:
    U = T.nn.utils
    lin = _seeded(T, T.nn.Linear(3, 2), 66)
    n0 = U.clip_grad_norm_(lin.parameters(), 1.0)  # no grads yet
    lin(T.tensor(_data(4, 3, seed=67))).pow(2).sum().backward()
    n1 = U.clip_grad_norm_(lin.parameters(), 0.5)
    after = (lin.weight.grad.clone(), lin.bias.grad.clone())
    v = U.clip_grad_value_(lin.parameters(), 0.01)
    return (
        n0,
        n1,
        after,
        v,
        lin.weight.grad,
        raises(lambda: U.clip_grad_norm_(lin.parameters(), 1.0, norm_type="fro")),
    )


@program()
def prog_mis_frozen_params_and_optimizer(T: Any) -> Any:
    net = _seeded(T, T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Linear(2, 1)), 68)
    for p in net[0].parameters():
        p.requires_grad = False
    opt = T.optim.SGD(net.parameters(), lr=0.5, momentum=0.9)  # frozen ones included: skipped
    x = T.tensor(_data(3, 2, seed=69))
    for _ in range(2):
        opt.zero_grad()
        net(x).sum().backward()
        opt.step()
    return net[0].weight, net[0].weight.grad, net[1].weight, len(opt.state), net[1].weight.grad


@program()
def prog_mis_scheduler_step_before_optimizer(T: Any) -> Any:
    w = T.nn.Parameter(T.tensor(_data(2, seed=70)))
    opt = T.optim.SGD([w], lr=1.0)
    sch = T.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    sch.step()  # before opt.step(): a warning, and the first lr is skipped
    (w**2).sum().backward()
    opt.step()
    return sch.get_last_lr(), w, opt.param_groups[0]["lr"]


@program()
def prog_mis_optimizer_state_dict_and_groups(T: Any) -> Any:
    def opt(cls: str = "SGD", **kw: Any) -> Any:
        return getattr(T.optim, cls)([T.nn.Parameter(T.ones(2))], lr=0.1, **kw)

    a = opt("Adam")
    a.step()  # no gradients yet: no state
    return (
        raises(lambda: opt().load_state_dict({"state": {}, "param_groups": []})),
        raises(
            lambda: opt().load_state_dict(
                {"state": {}, "param_groups": [{"params": [0, 1], "lr": 0.1}]}
            )
        ),
        raises(lambda: opt().load_state_dict({"state": {}})),
        len(a.state),
        raises(lambda: opt(nesterov=True)),
        raises(lambda: opt(weight_decay=-1)),
        raises(lambda: opt("Adam", eps=-1)),
        raises(lambda: opt("RMSprop", alpha=-1)),
        raises(lambda: opt().add_param_group({"lr": 0.1})),
        raises(lambda: opt().add_param_group({"params": {T.nn.Parameter(T.ones(1))}})),
        raises(lambda: T.optim.LBFGS([{"params": [T.nn.Parameter(T.ones(1))]}] * 2)),
        sorted(opt("AdamW", amsgrad=True).state_dict()["param_groups"][0]),
    )


@program()
def prog_mis_scheduler_misuse(T: Any) -> Any:
    S = T.optim.lr_scheduler

    def opt() -> Any:
        return T.optim.SGD([T.nn.Parameter(T.ones(2))], lr=0.1)

    def onecycle_past_total() -> Any:
        o = opt()
        s = S.OneCycleLR(o, max_lr=1.0, total_steps=2)
        lrs = []
        for _ in range(3):
            o.step()
            s.step()
            lrs.append(s.get_last_lr())
        return lrs

    def plateau_without_metric() -> Any:
        S.ReduceLROnPlateau(opt()).step()

    return (
        raises(onecycle_past_total),
        raises(plateau_without_metric),
        raises(lambda: S.ReduceLROnPlateau(opt(), mode="maximum")),
        raises(lambda: S.StepLR(opt())),
        S.MultiStepLR(opt(), milestones=[3, 1]).milestones,
        raises(lambda: S.LambdaLR(opt(), [lambda e: 1, lambda e: 2])),
        raises(lambda: S.StepLR(opt(), 1, last_epoch=3)),
        raises(lambda: T.optim.swa_utils.SWALR(opt(), swa_lr=0.1, anneal_strategy="quadratic")),
    )


@program()
def prog_mis_zero_grad_set_to_none(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 1), 71)
    lin(T.ones(1, 2)).sum().backward()
    lin.zero_grad()
    g_none = lin.weight.grad
    lin(T.ones(1, 2)).sum().backward()
    lin.zero_grad(set_to_none=False)
    g_zero = lin.weight.grad
    return g_none, g_zero, raises(lambda: T.nn.Linear(2, 1).weight.grad.zero_())


@program()
def prog_mis_model_output_in_no_grad_backward(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 1), 72)
    with T.no_grad():
        out = lin(T.ones(3, 2))
    err = raises(lambda: out.sum().backward())
    with T.inference_mode():
        out2 = lin(T.ones(3, 2))
    err2 = raises(lambda: out2.sum().backward())
    return err, err2, out.requires_grad, out2.is_inference(), out.is_inference()


# --- save and load ----------------------------------------------------------------------------


def _round_trip(T: Any, obj: Any) -> Any:
    return _round_trip_kw(T, obj)


def _round_trip_kw(T: Any, obj: Any, **kw: Any) -> Any:
    buf = io.BytesIO()
    T.save(obj, buf)
    buf.seek(0)
    return T.load(buf, **kw)


@program()
def prog_mis_saved_views_share_storage_after_load(T: Any) -> Any:
    base = T.arange(12.0).reshape(3, 4)
    d = _round_trip(T, {"row": base[1], "cols": base[:, 1:3]})
    a, b = d["row"], d["cols"]
    a[1] = 100.0  # shared storage: the column view sees it
    return (
        (a.shape, a.stride(), a.is_contiguous(), b.stride(), b.is_contiguous()),
        a.untyped_storage().nbytes(),
        a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(),
        b,
        (a._base is None, a._is_view(), a.is_leaf),
    )


@program()
def prog_mis_loaded_view_storage_offset(T: Any) -> Any:
    base = T.arange(12.0).reshape(3, 4)
    d = _round_trip(T, [base[1], base[:, 1:3], base[2:, 3]])
    x = T.arange(6.0, requires_grad=True)
    e = _round_trip(T, x[2:])
    return [t.storage_offset() for t in d], e.storage_offset(), (x[2:].detach().storage_offset())


@program()
def prog_mis_save_load_module_and_requires_grad(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 80)
    sd = _round_trip(T, lin.state_dict())
    fresh = T.nn.Linear(2, 2)
    fresh.load_state_dict(sd)
    x = T.arange(4.0, requires_grad=True)
    y = x * 2  # a non-leaf: saved as a plain tensor
    back = _round_trip(T, {"x": x, "y": y.detach(), "p": lin.weight})
    return (
        sd["weight"].requires_grad,
        fresh.weight,
        back["x"].requires_grad,
        back["x"].is_leaf,
        back["y"].requires_grad,
        type(back["p"]).__name__,
        back["p"].requires_grad,
        raises(lambda: _round_trip(T, y)),
        raises(lambda: _round_trip(T, lin)),
    )


@program()
def prog_mis_numpy_in_checkpoint_with_weights_only(T: Any) -> Any:
    ckpt = {"epoch": 3, "losses": np.array([0.5, 0.25]), "best": np.float32(0.25)}
    only_arrays = {"a": np.arange(3, dtype=np.int32)}

    def load(obj: Any, allowed: Any = (), **kw: Any) -> Any:
        with T.serialization.safe_globals(list(allowed)):
            return _round_trip_kw(T, obj, **kw)

    arr = [np._core.multiarray._reconstruct, np.ndarray, np.dtype]
    return (
        raises(lambda: load(ckpt)),
        raises(lambda: load(only_arrays, arr[:1])),
        raises(lambda: load(only_arrays, arr[:2])),
        raises(lambda: load(only_arrays, arr)),
        load(only_arrays, [*arr, np.dtypes.Int32DType]),
        raises(lambda: load({"s": np.float32(1.5)}, [np._core.multiarray.scalar])),
        load(
            {"s": np.float32(1.5)}, [np._core.multiarray.scalar, np.dtype, np.dtypes.Float32DType]
        ),
        load(ckpt, weights_only=False),
        load({"t": T.tensor(ckpt["losses"]), "epoch": 3}),  # the fix users apply
    )


# --- inference mode -----------------------------------------------------------------------------


@program()
def prog_mis_inference_tensors_in_training(T: Any) -> Any:
    with T.inference_mode():
        feats = T.tensor(_data(2, 3, seed=81)) * 1.0
    w = _x(T, 3, seed=82)
    out = {
        "mul": raises(lambda: feats * w),
        "exp_then_mul": raises(lambda: (feats.exp() * w).sum().backward()),
        "add": raises(lambda: (feats + w).sum()),
        "inplace": raises(lambda: feats.add_(1)),
        "rg": raises(lambda: feats.requires_grad_()),
        "clone_ok": (feats.clone() * w).sum(),
        "is_inference": (feats.is_inference(), feats.clone().is_inference()),
    }
    out["clone_ok"].backward()
    return out, w.grad


@program()
def prog_mis_inference_tensor_error_before_shape_error(T: Any) -> Any:
    # torch's autograd kernels save their inputs before the forward checks shapes
    with T.inference_mode():
        a = T.ones(2, 3)
    return (
        raises(lambda: a * T.ones(4, requires_grad=True)),
        raises(lambda: T.ones(4, requires_grad=True) * a),
        raises(lambda: T.bmm(a[None], T.ones(1, 4, 2, requires_grad=True))),
        raises(lambda: T.addmm(T.ones(2), a, T.ones(4, 2, requires_grad=True))),
        raises(lambda: T.atan2(a, T.ones(4, requires_grad=True))),
        raises(lambda: T.cat([a, T.ones(2, 4, requires_grad=True)])),
        raises(lambda: T.nn.functional.linear(a, T.ones(2, 4, requires_grad=True), T.ones(2))),
        raises(lambda: a @ T.ones(4, 2, requires_grad=True)),
        raises(lambda: T.nn.functional.linear(a, T.ones(2, 4, requires_grad=True))),
    )


# --- hooks ------------------------------------------------------------------------------------


@program()
def prog_mis_tensor_hook_mistakes(T: Any) -> Any:
    x = _x(T, 3, seed=90)
    calls = []

    def wrong_shape(g: Any) -> Any:
        return g.sum()

    def record(g: Any) -> None:
        calls.append(g.clone())

    e1 = raises(lambda: T.ones(2).register_hook(record))
    h = x.register_hook(wrong_shape)
    e2 = raises(lambda: (x * 2).sum().backward())
    h.remove()
    x.register_hook(record)
    x.register_hook(lambda g: g * 10)
    (x**2).sum().backward()
    y = x * 1.0
    y.register_hook(lambda g: g.double())
    e3 = raises(lambda: y.sum().backward())
    return e1, e2, e3, calls, x.grad


@program()
def prog_mis_module_hook_return_values(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 91)
    lin.register_forward_hook(lambda m, i, o: o * 0)  # replaces the output
    lin.register_forward_pre_hook(lambda m, i: (i[0] + 1,))  # replaces the input
    x = T.tensor(_data(1, 2, seed=92), requires_grad=True)
    y = lin(x)
    y.sum().backward()
    seen = []
    lin2 = _seeded(T, T.nn.Linear(2, 1), 93)
    lin2.register_full_backward_hook(lambda m, gi, go: seen.append((gi[0].shape, go[0].shape)))
    z = lin2(x)
    z.sum().backward()
    return y, y.grad_fn, x.grad, seen


# --- data -------------------------------------------------------------------------------------


@program()
def prog_mis_dataloader_shapes_and_last_batch(T: Any) -> Any:
    D = T.utils.data
    xs = T.tensor(_data(5, 2, seed=94))
    ys = T.arange(5)
    ds = D.TensorDataset(xs, ys)
    full = [tuple(b[0].shape) for b in D.DataLoader(ds, batch_size=2)]
    dropped = [tuple(b[0].shape) for b in D.DataLoader(ds, batch_size=2, drop_last=True)]
    ragged = [T.ones(2), T.ones(3)]
    return (
        full,
        dropped,
        len(D.DataLoader(ds, batch_size=2)),
        raises(lambda: D.TensorDataset(xs, T.arange(4))),
        raises(lambda: list(D.DataLoader(ragged, batch_size=2))),
        raises(lambda: D.random_split(ds, [3, 3])),
        [len(s) for s in D.random_split(ds, [3, 2], generator=T.Generator().manual_seed(0))],
        raises(lambda: D.DataLoader(ds, batch_size=0)),
        raises(lambda: D.DataLoader(ds, shuffle=True, sampler=D.SequentialSampler(ds))),
    )


@program()
def prog_mis_parameters_generator_exhausted(T: Any) -> Any:
    lin = T.nn.Linear(2, 2)
    params = lin.parameters()
    n = len(list(params))  # the generator is used up here
    return (
        n,
        raises(lambda: T.optim.SGD(params, lr=0.1)),
        raises(lambda: T.optim.SGD(lin.parameters, lr=0.1)),
        len(T.optim.SGD(lin.parameters(), lr=0.1).param_groups[0]["params"]),
        T.optim.SGD(lin.parameters()).defaults["lr"],
    )


# --- values that surprise ---------------------------------------------------------------------


@program()
def prog_mis_bool_tensor_arithmetic(T: Any) -> Any:
    m = T.tensor([True, False, True])
    f = _x(T, 3, rg=False)
    return (
        raises(lambda: 1 - m),
        raises(lambda: m - 1),
        raises(lambda: -m),
        ~m,
        m.logical_not(),
        raises(lambda: ~f),
        m + m,
        m * 2,
        m.sum(),
        raises(lambda: f and f),
        raises(lambda: bool(m)),
        (f > 0) & m,
        raises(lambda: (f > 0) & f),
    )


@program()
def prog_mis_integer_overflow_and_uint8(T: Any) -> Any:
    u = T.tensor([250, 5], dtype=T.uint8)
    return (
        u + 10,
        u - 10,
        u * 2,
        raises(lambda: T.tensor([2**63])),
        raises(lambda: T.tensor([2**64])),
        T.tensor([2**62]) * 4,
        raises(lambda: T.tensor([300], dtype=T.uint8)),
        T.tensor([-1]).to(T.uint8),
        T.tensor([1.7, -1.7]).long(),
        T.tensor(3) / T.tensor(2),
    )


@program()
def prog_mis_nan_gradients_and_anomaly(T: Any) -> Any:
    x = T.tensor([0.0, 4.0], requires_grad=True)
    T.sqrt(x).sum().backward()
    g_sqrt = x.grad.clone()
    x.grad = None
    (x**0.5).sum().backward()
    g_pow = x.grad.clone()
    z = T.zeros(3, requires_grad=True)
    z.norm().backward()
    n = T.zeros(3, requires_grad=True)
    T.nn.functional.normalize(n, dim=0).sum().backward()
    d = T.tensor([-1.0, 1.0], requires_grad=True)
    with T.autograd.detect_anomaly():
        err = raises(lambda: T.sqrt(d).sum().backward())
    return g_sqrt, g_pow, z.grad, n.grad, err, T.log(T.tensor([0.0, -1.0]))


@program(warnings=False)  # anomaly mode's own warning carries torch's traceback text
def prog_mis_anomaly_mode_names_the_node(T: Any) -> Any:
    x = T.tensor([1.0, 0.0], requires_grad=True)
    with T.autograd.set_detect_anomaly(True):
        y = (x / x).sum()
        err = raises(lambda: y.backward())
    return err, y.grad_fn, x.grad


@program()
def prog_mis_rounding_and_argmax_have_no_useful_grad(T: Any) -> Any:
    x = _x(T, 4, seed=95)
    r = T.round(x * 3)
    r.sum().backward()
    g_round = x.grad.clone()
    i = x.argmax()
    m = x.max(0)
    c = x > 0
    return (
        g_round,
        (i.requires_grad, i.grad_fn, i.dtype),
        (m.values.grad_fn, m.indices.requires_grad),
        (c.requires_grad, c.dtype),
        raises(lambda: i.float().backward()),
        raises(lambda: c.sum().backward()),
        T.floor(x).grad_fn,
        T.sign(x).grad_fn,
    )


@program()
def prog_mis_duplicate_indices_in_setitem(T: Any) -> Any:
    x = T.zeros(4)
    idx = T.tensor([0, 0, 2])
    x[idx] += 1  # one write per position: not accumulated
    y = T.zeros(4)
    y.index_put_((idx,), T.ones(3), accumulate=True)
    z = T.zeros(4).index_add(0, idx, T.ones(3))
    w = _x(T, 4, seed=96)
    v = w.clone()
    v[idx] = v[idx] * 2
    v.sum().backward()
    return x, y, z, v, v.grad_fn, w.grad


@program()
def prog_mis_x_T_and_size_mistakes(T: Any) -> Any:
    x3 = _x(T, 2, 3, 4, seed=97, rg=False)
    return (
        x3.T.shape,  # deprecated on 3 dims: a warning
        x3.mT.shape,
        x3.permute(2, 1, 0).shape,
        x3.shape == (2, 3, 4),
        raises(lambda: x3.size(3)),
        raises(lambda: x3.shape[3]),
        x3.size(-1),
        x3.numel(),
        x3.dim(),
        raises(lambda: T.ones(3).T.shape),
    )


@program()
def prog_mis_creation_argument_mistakes(T: Any) -> Any:
    return (
        raises(lambda: T.randn(2.0)),
        T.randn((2, 3), generator=T.Generator().manual_seed(0)).shape,
        raises(lambda: T.linspace(0, 1)),
        T.linspace(0, 1, 5),
        T.arange(0, 1, 0.25),
        raises(lambda: T.arange(0, 1, 0)),
        raises(lambda: T.arange(1, 0, 1)),
        raises(lambda: T.full((2,), 1.5, dtype=T.long)),
        T.full((2,), 7).dtype,
        raises(lambda: T.empty(-1)),
        raises(lambda: T.eye(2, 3.0)),
        T.zeros_like(T.ones(2), dtype=T.int32),
        raises(lambda: T.ones(2).new_tensor(T.ones(2))),
    )


@program()
def prog_mis_nn_constructor_mistakes(T: Any) -> Any:
    nn = T.nn

    def made(f: Any) -> Any:
        return raises(lambda: type(f()).__name__)

    return (
        made(lambda: nn.Linear(3.0, 2)),
        made(lambda: nn.Dropout(p=1.5)),
        made(lambda: nn.Dropout(p=-0.1)),
        made(lambda: nn.Conv2d(3, 4)),
        made(lambda: nn.Conv2d(3, 4, 3, padding="same", stride=2)),
        made(lambda: nn.LSTM(4, 3, dropout=0.5)),
        made(lambda: nn.Embedding(5)),
        made(lambda: nn.Sequential([nn.Linear(2, 2)])),
        made(lambda: nn.ModuleList([T.ones(2)])),
        made(lambda: nn.BatchNorm1d(0)),
        made(lambda: nn.MultiheadAttention(5, 2)),
    )


@program()
def prog_mis_sequential_missing_flatten(T: Any) -> Any:
    nn = T.nn
    net = _seeded(T, nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Linear(8, 3)), 98)
    img = T.tensor(_data(2, 1, 4, 4, seed=99))
    err = raises(lambda: net(img))
    fixed = _seeded(
        T, nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3)), 98
    )
    out = fixed(img)
    out.sum().backward()
    return err, out, fixed[3].weight.grad, raises(lambda: fixed(img[0, 0]))


@program()
def prog_mis_softmax_before_cross_entropy(T: Any) -> Any:
    F = T.nn.functional
    logits = _x(T, 3, 4, seed=100)
    t = T.tensor([1, 0, 3])
    double = F.cross_entropy(F.softmax(logits, 1), t)  # softmax applied twice: flat gradients
    right = F.cross_entropy(logits, t)
    g1 = T.autograd.grad(double, logits, retain_graph=True)[0]
    g2 = T.autograd.grad(right, logits)[0]
    return double, right, g1, g2, T.nn.CrossEntropyLoss(reduction="none")(logits, t)


# --- arguments left out -------------------------------------------------------------------------


@program()
def prog_mis_required_dim_left_out(T: Any) -> Any:
    x = _x(T, 2, 3, seed=110)
    fine = x.unsqueeze(0).softmax(-1).log_softmax(dim=1)
    fine.sum().backward()
    return (
        raises(lambda: x.unsqueeze()),
        raises(lambda: T.unsqueeze(x)),
        raises(lambda: x.clone().unsqueeze_()),
        raises(lambda: x.log_softmax()),
        raises(lambda: T.log_softmax(x)),
        raises(lambda: T.special.softmax(x)),
        raises(lambda: T.special.log_softmax(x)),
        raises(lambda: T.special.logsumexp(x)),
        raises(lambda: x.cumsum()),
        raises(lambda: T.cumprod(x)),
        fine,
        fine.grad_fn,
        x.grad,
    )


@program()
def prog_mis_transpose_and_swapaxes_arguments(T: Any) -> Any:
    x = _x(T, 2, 3, seed=120)
    a = T.swapaxes(x, axis0=0, axis1=1)
    b = x.swapdims(dim0=1, dim1=0)
    c = x.detach().clone().swapaxes_(axis0=0, axis1=1)
    (a * b).sum().backward()
    return (
        a,
        a.grad_fn,
        b.grad_fn,
        c,
        x.grad,
        raises(lambda: x.transpose()),
        raises(lambda: x.transpose(0)),
        raises(lambda: x.transpose(dim1=0)),
        raises(lambda: T.transpose(x, dim0=1)),
        raises(lambda: T.swapaxes(x, 0)),
        raises(lambda: x.swapdims()),
        raises(lambda: x.detach().transpose_(0)),
        raises(lambda: x.detach().swapaxes_()),
        raises(lambda: x.transpose(0, 2)),
    )


# --- attributes users assign --------------------------------------------------------------------


@program()
def prog_mis_assigning_grad_and_data(T: Any) -> Any:
    def mk() -> Any:
        return _x(T, 2, 3, seed=111)

    def assign(t: Any, name: str, v: Any) -> Any:
        setattr(t, name, v)
        return getattr(t, name)

    w = mk()
    w.grad = T.full((2, 3), 0.5)
    (w * 2).sum().backward()  # accumulates onto the assigned gradient
    return (
        raises(lambda: assign(mk(), "grad", T.ones(3))),
        raises(lambda: assign(mk(), "grad", T.ones(2, 3, dtype=T.float64))),
        raises(lambda: assign(mk(), "grad", T.ones(2, 3, dtype=T.long))),
        raises(lambda: assign(mk(), "grad", [1.0])),
        raises(lambda: assign(mk(), "data", T.ones(5))),
        raises(lambda: assign(T.ones(2, dtype=T.long), "requires_grad", True)),
        w.grad,
        assign(mk(), "grad", None),
    )


@program()
def prog_mis_module_attribute_mistakes(T: Any) -> Any:
    nn = T.nn
    lin = nn.Linear(2, 2)
    return (
        raises(lambda: setattr(nn.Linear(2, 2), "weight", T.ones(2, 2))),
        raises(lambda: nn.Linear(2, 2).register_parameter("w", T.ones(2))),
        raises(lambda: nn.Linear(2, 2).register_parameter("a.b", None)),
        raises(lambda: nn.Linear(2, 2).register_buffer("weight", T.ones(2))),
        raises(lambda: nn.Linear(2, 2).add_module("x", T.ones(2))),
        raises(lambda: nn.Sequential(nn.Linear(2, 2)).get_submodule("1")),
        raises(lambda: lin.weights),
        raises(lambda: nn.Sequential(nn.Linear(2, 2))[3]),
        raises(lambda: nn.ModuleList([nn.Linear(2, 2)])(T.ones(2))),
        raises(lambda: nn.ModuleDict({"a": nn.Linear(2, 2)})["b"]),
        raises(lambda: nn.Module()(T.ones(2))),
        raises(lambda: nn.Linear(2, 2).to(T.long)),
        raises(lambda: type(nn.Parameter(_x(T, 2) * 2)).__name__),
    )


@program()
def prog_mis_backward_inputs_and_grad_outputs(T: Any) -> Any:
    a = _x(T, 2, 3, seed=112)
    b = _x(T, 3, seed=113)
    y = (a * b).sum()
    y.backward(inputs=[b], retain_graph=True)  # only b gets a gradient
    only_b = (a.grad, b.grad.clone())
    return (
        only_b,
        raises(lambda: y.backward(inputs=[T.ones(2)], retain_graph=True)),
        raises(lambda: y.backward(inputs=[], retain_graph=True)),
        raises(lambda: T.autograd.grad(a * 2, a, T.ones(3))),
        raises(lambda: T.autograd.grad(1.0, a)),
        raises(lambda: T.autograd.grad(y, T.ones(2))),
        raises(lambda: T.ones(2).retain_grad()),
        raises(lambda: a.detach_()),
    )


@program()
def prog_mis_backward_create_graph_warns_and_double_grad(T: Any) -> Any:
    a = _x(T, 3, seed=114)
    (a**3).sum().backward(create_graph=True)  # a warning: a reference cycle through .grad
    g = a.grad
    gg = T.autograd.grad(g.sum(), a)[0]
    b = _x(T, 3, seed=114)
    gb = T.autograd.grad((b**3).sum(), b, create_graph=True)[0]
    gb.sum().backward()
    return g, g.grad_fn, gg, gb, b.grad


# --- sequences ----------------------------------------------------------------------------------


@program()
def prog_mis_packing_unsorted_lengths(T: Any) -> Any:
    R = T.nn.utils.rnn
    seqs = T.tensor(_data(3, 2, 1, seed=115))
    ok = R.pack_padded_sequence(seqs, T.tensor([1, 3]), enforce_sorted=False)
    gru = _seeded(T, T.nn.GRU(1, 2), 116)
    out, h = gru(ok)
    padded, lens = R.pad_packed_sequence(out)
    return (
        raises(lambda: R.pack_padded_sequence(seqs, T.tensor([1, 3]))),
        raises(lambda: R.pack_padded_sequence(seqs, T.tensor([4, 3]))),
        raises(lambda: R.pack_padded_sequence(seqs, T.tensor([3, 0]))),
        raises(lambda: R.pad_sequence([T.ones(2, 3), T.ones(2, 4)])),
        raises(lambda: R.pack_sequence([T.ones(2), T.ones(3)])),
        ok.batch_sizes,
        ok.sorted_indices,
        padded,
        lens,
        h,
    )


@program()
def prog_mis_recurrent_state_shapes(T: Any) -> Any:
    T.manual_seed(5)
    rnn = T.nn.RNN(2, 3)
    gru = T.nn.GRU(2, 3, batch_first=True)
    out, h = rnn(T.ones(4, 2))  # unbatched
    return (
        out.shape,
        h.shape,
        raises(lambda: rnn(T.ones(4, 1, 2), T.ones(1, 2, 3))),
        raises(lambda: gru(T.ones(4, 5, 3))),
        raises(lambda: T.nn.RNN(2, 3, nonlinearity="sigmoid")),
        raises(lambda: T.nn.MultiheadAttention(4, 2)(T.ones(3, 4), T.ones(3, 5), T.ones(3, 5))),
        raises(lambda: T.nn.TransformerEncoderLayer(5, 2)),
    )


@program()
def prog_mis_loss_arguments_mistakes(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, seed=117)
    t = T.tensor([0, 1])
    ignored = F.cross_entropy(x, T.tensor([-100, -100]))  # every target ignored: nan
    return (
        raises(lambda: F.cross_entropy(x, t, label_smoothing=1.5)),
        raises(lambda: F.cross_entropy(x, t, weight=T.ones(2))),
        ignored,
        raises(lambda: F.nll_loss(x, t, reduction="avg")),
        raises(lambda: F.mse_loss(x, x, reduction="avg")),
        raises(lambda: F.binary_cross_entropy(T.sigmoid(x), T.ones(2, 3), weight=T.ones(2))),
        type(T.nn.MSELoss(size_average=False)).__name__,
        F.l1_loss(x, T.zeros(2, 3), reduce=False),
        raises(lambda: F.huber_loss(x, x, delta=-1.0)),
        raises(lambda: F.cosine_embedding_loss(x, x, T.tensor([1, 2]))),
        raises(lambda: F.margin_ranking_loss(T.ones(2), T.ones(3), T.ones(2))),
        raises(lambda: F.gaussian_nll_loss(T.ones(2), T.ones(2), -T.ones(2))),
    )


@program()
def prog_mis_conv_pool_argument_mistakes(T: Any) -> Any:
    F = T.nn.functional
    return (
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2), padding="same", stride=2)),
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2), padding="full")),
        raises(lambda: F.conv_transpose1d(T.ones(1, 1, 4), T.ones(1, 1, 2), output_padding=2)),
        raises(lambda: F.unfold(T.ones(1, 1, 3, 3), 4)),
        raises(lambda: F.max_pool2d(T.ones(1, 1, 2, 2), 3)),
        raises(lambda: F.avg_pool2d(T.ones(1, 1, 4, 4), 2, padding=2)),
        raises(lambda: F.pad(T.ones(2, 3), (1,))),
        raises(lambda: F.pad(T.ones(1, 2, 3), (3, 3), mode="reflect")),
        raises(lambda: F.interpolate(T.ones(2, 3), scale_factor=2)),
        raises(lambda: F.interpolate(T.ones(1, 1, 3), scale_factor=2, mode="bilinear")),
        raises(lambda: T.nn.Upsample(size=2, scale_factor=2)(T.ones(1, 1, 2))),
        raises(lambda: F.pixel_shuffle(T.ones(1, 3, 2, 2), 2)),
        raises(lambda: F.glu(T.ones(3))),
    )


# --- numpy and asarray ------------------------------------------------------------------------


@program()
def prog_mis_asarray_copy_and_requires_grad(T: Any) -> Any:
    t = _x(T, 2, seed=130)
    arr = _data(3, seed=131).astype(np.float64)

    def desc(r: Any, src: Any) -> Any:
        same = r.data_ptr() == src.data_ptr() if isinstance(src, T.Tensor) else None
        return r is src, r.dtype, r.requires_grad, r.is_leaf, r.grad_fn, same

    shared = T.asarray(arr)
    arr[0] = 5.0  # shared memory: the tensor sees it
    copied = T.asarray(arr, copy=True)
    arr[1] = 6.0
    d = T.ones(2)
    return (
        desc(T.asarray(t), t),
        desc(T.asarray(t, copy=True), t),
        desc(T.asarray(t, copy=False), t),
        desc(T.asarray(t, dtype=T.float64), t),
        desc(T.asarray(t, dtype=T.float32), t),
        raises(lambda: T.asarray(t, dtype=T.float64, copy=False)),
        (desc(T.asarray(d, requires_grad=True), d), d.requires_grad),
        (shared, copied, T.asarray(arr, dtype=T.float32)),
        raises(lambda: T.asarray(arr, dtype=T.float32, copy=False)),
        T.asarray(arr, requires_grad=True).is_leaf,
        T.asarray([1.0, 2]),
        raises(lambda: T.asarray([1.0, 2], copy=False)),
        raises(lambda: T.asarray([1, 2], requires_grad=True)),
        T.asarray(np.float64(3.0)).dtype,
        raises(lambda: T.asarray([1], T.float32)),
        desc(T.asarray(t * 2, copy=True), t),
        raises(lambda: T.tensor([np.array(1.0), np.array(2.0)])),  # 0-d arrays have no len()
        raises(lambda: T.as_tensor([[np.array(1)]])),
        T.tensor([1.0, np.array(2.0)]),
        T.tensor(np.array(1.0)),
    )


@program()
def prog_mis_from_numpy_view_shares_only_its_extent(T: Any) -> Any:
    a = np.arange(12.0).reshape(3, 4)
    v = T.from_numpy(a[1:, 1:3])
    v[0, 0] = -1.0  # writes through to the array
    f = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    tf = T.from_numpy(f[:, 1:])
    row = T.as_tensor(a[2])
    conv = T.as_tensor(a[2], dtype=T.float32)
    whole = T.from_numpy(a)
    return (
        a[1, 1],
        [
            (t.untyped_storage().nbytes(), t.storage_offset(), t.stride(), t.is_contiguous())
            for t in (v, tf, row, conv, whole, T.asarray(a[0, 1:]))
        ],
        tf,
        v.untyped_storage().data_ptr() == v.data_ptr(),
        np.shares_memory(v.numpy(), a),
    )


# torch's once-per-process warnings, seen by a fresh process for each library (the harness
# leaves such warnings out: a process shows them once)
_ONCE_SCRIPT = """
import sys, warnings
import numpy as np
T = __import__(sys.argv[1])
out = []
for name, f in [
    ("list of arrays", lambda: T.tensor([np.ones(2), np.zeros(2)])),
    ("tuple of arrays", lambda: T.as_tensor((np.ones(2),))),
    ("array inside a list", lambda: T.tensor([[1.0, 2.0], np.ones(2)])),
    ("0-d arrays", lambda: T.tensor([np.array(1.0)])),
    ("empty array", lambda: T.tensor([np.ones(0)])),
    ("read-only from_numpy", lambda: T.from_numpy(ro)),
    ("read-only as_tensor", lambda: T.as_tensor(ro)),
    ("read-only asarray", lambda: T.asarray(ro)),
    ("read-only tensor", lambda: T.tensor(ro)),
    ("asarray of a tensor requiring grad", lambda: T.asarray(T.ones(2, requires_grad=True))),
    ("asarray explicit", lambda: T.asarray(T.ones(2, requires_grad=True), requires_grad=True)),
]:
    ro = np.ones(2)
    ro.flags.writeable = False
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            f()
            err = None
        except Exception as e:
            err = (type(e).__name__, str(e))
    out.append((name, err, [str(m.message).split(" (Triggered")[0] for m in w]))
print(repr(out))
"""


def _once_warnings(lib: str) -> Any:
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-c", _ONCE_SCRIPT, lib], capture_output=True, text=True, check=True
    )
    return r.stdout


def test_once_per_process_warnings_match_torch() -> None:
    assert _once_warnings("shadowgrad") == _once_warnings("torch")


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@program()
def prog_mis_cast_methods_take_no_dtype(T: Any) -> Any:
    # x.float(T.float64) reads like a cast to float64: torch's cast methods take no positional
    # argument (memory_format is keyword-only)
    x = _x(T, 2, 3)
    ok = [
        x.float(memory_format=T.preserve_format).grad_fn,
        x.double().grad_fn,
        x.cfloat().dtype,
        x.half(memory_format=T.contiguous_format).dtype,
    ]
    return ok, [
        raises(lambda: x.float(T.float64)),
        raises(lambda: x.double(1, 2)),
        raises(lambda: x.long(T.int32)),
        raises(lambda: x.bool(0)),
        raises(lambda: x.cdouble(1)),
        raises(lambda: x.float(dtype=T.float64)),
    ]


@program()
def prog_mis_matmul_with_a_number_or_array(T: Any) -> Any:
    x = _x(T, 3)
    m = _x(T, 3, 3, seed=1)
    return (
        raises(lambda: x @ 2),
        raises(lambda: 2.0 @ m),
        raises(lambda: np.ones(3) @ m),
        raises(lambda: m @ [1.0, 2.0, 3.0]),
        raises(lambda: T.matmul(x, 2)),
        (m @ x).grad_fn,
    )


@program()
def prog_mis_numpy_copy_keyword(T: Any) -> Any:
    x = T.ones(2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = np.array(x, copy=None)
    return a, [str(i.message)[:60] for i in w], raises(lambda: np.asarray(x, copy=False))


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
