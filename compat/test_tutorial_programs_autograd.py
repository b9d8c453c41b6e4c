"""Tutorial programs, autograd: what users run while working through the autograd tutorials and
recipes of pytorch/tutorials (the blitz and "introyt" autograd pages, the basics quickstart,
the examples_autograd / examples_nn nets, custom Functions with double backward, the fused
conv + batchnorm Function, saved-tensor hooks, forward-mode AD, zeroing gradients), and the
variations a user tries around each one: backward twice, in-place ops on saved tensors,
non-scalar backward, hook misuse, gradcheck on a wrong backward, `once_differentiable`,
`mark_dirty`, `mark_non_differentiable`, `set_materialize_grads`, anomaly detection and
inference mode. Small synthetic data; each `prog(T)` runs on torch and on shadowgrad and
everything it returns, raises or warns is compared by test_realistic_programs_3's harness.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import ErrorObs, raises
from .test_realistic_programs_2 import _d, _data, _gc, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _names(node: Any, depth: int = 6) -> Any:
    """The grad_fn chain as nested (name, [children]) down to `depth`."""
    if node is None:
        return None
    if depth == 0:
        return type(node).__name__
    return (type(node).__name__, [_names(n, depth - 1) for n, _ in node.next_functions])


# --- blitz: autograd_tutorial ------------------------------------------------------------------


@program()
def prog_tut_ag_blitz_q_external_gradient(T: Any) -> Any:
    a = T.tensor([2.0, 3.0], requires_grad=True)
    b = T.tensor([6.0, 4.0], requires_grad=True)
    Q = 3 * a**3 - b**2
    Q.backward(gradient=T.tensor([1.0, 1.0]))
    return {
        "Q": Q,
        "a.grad": a.grad,
        "b.grad": b.grad,
        "check": (9 * a**2 == a.grad, -2 * b == b.grad),
        "graph": _names(Q.grad_fn),
        "leaf": (a.is_leaf, Q.is_leaf, Q.requires_grad),
    }


@program()
def prog_tut_ag_blitz_nonscalar_without_gradient(T: Any) -> Any:
    a = T.tensor([2.0, 3.0], requires_grad=True)
    Q = 3 * a**3
    e1 = raises(lambda: Q.backward())
    e2 = raises(lambda: Q.backward(gradient=T.ones(3)))
    e3 = raises(lambda: T.autograd.grad(Q, a))
    e4 = raises(lambda: Q.backward(gradient=T.ones(2, 1)))
    ok = Q.backward(gradient=T.tensor([0.5, 2.0]))
    return {"errs": (e1, e2, e3, e4), "ok": ok, "grad": a.grad}


@program()
def prog_tut_ag_blitz_gradient_dtype_cast(T: Any) -> Any:
    a = T.tensor([2.0, 3.0], requires_grad=True)
    Q = a * a
    Q.backward(gradient=T.tensor([1.0, 2.0], dtype=T.float64), retain_graph=True)
    g1 = a.grad.clone()
    Q.backward(gradient=T.tensor([1, 2]), retain_graph=True)
    e = raises(lambda: Q.backward(gradient=T.tensor([1j, 2j])))
    return {"g1": g1, "g2": a.grad, "dtype": a.grad.dtype, "complex": e}


@program()
def prog_tut_ag_blitz_requires_grad_propagation(T: Any) -> Any:
    x = T.rand(5, 5)
    y = T.rand(5, 5)
    z = T.rand((5, 5), requires_grad=True)
    a = x + y
    b = x + z
    return {
        "a": (a.requires_grad, a.grad_fn, a.is_leaf),
        "b": (b.requires_grad, type(b.grad_fn).__name__, b.is_leaf),
        "int": raises(lambda: T.arange(3).requires_grad_()),
        "int2": raises(lambda: T.tensor([1, 2], requires_grad=True)),
        "nonleaf_flag": raises(lambda: b.requires_grad_(False)),
    }


@program()
def prog_tut_ag_blitz_finetune_frozen_model(T: Any) -> Any:
    T.manual_seed(0)
    model = T.nn.Sequential(
        T.nn.Conv2d(1, 2, 3), T.nn.ReLU(), T.nn.Flatten(), T.nn.Linear(2 * 4 * 4, 5)
    )
    for p in model.parameters():
        p.requires_grad = False
    model[3] = T.nn.Linear(2 * 4 * 4, 3)
    opt = T.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    x = T.randn(2, 1, 6, 6)
    out = model(x)
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    return {
        "grads": [(n, p.grad) for n, p in model.named_parameters()],
        "rg": [p.requires_grad for p in model.parameters()],
        "fc": model[3].weight,
        "out_fn": _names(out.grad_fn, 3),
    }


# --- introyt: autogradyt_tutorial --------------------------------------------------------------


@program()
def prog_tut_ag_yt_sine_graph_walk(T: Any) -> Any:
    a = T.linspace(0.0, 2.0 * math.pi, steps=13, requires_grad=True)
    b = T.sin(a)
    c = 2 * b
    d = c + 1
    out = d.sum()
    out.backward()
    walk = []
    fn = d.grad_fn
    while fn is not None:
        walk.append((type(fn).__name__, len(fn.next_functions)))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return {"a.grad": a.grad, "walk": walk, "out": out, "names": _names(out.grad_fn)}


@program()
def prog_tut_ag_yt_nonleaf_grad_warning(T: Any) -> Any:
    a = T.linspace(0.0, 1.0, steps=5, requires_grad=True)
    b = a.sin()
    c = b * 3
    c.retain_grad()
    c.sum().backward()
    return {"b.grad": b.grad, "c.grad": c.grad, "retains": (b.retains_grad, c.retains_grad)}


@program()
def prog_tut_ag_yt_tiny_model_training(T: Any) -> Any:
    class TinyModel(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer1 = T.nn.Linear(8, 6)
            self.relu = T.nn.ReLU()
            self.layer2 = T.nn.Linear(6, 3)

        def forward(self, x):
            return self.layer2(self.relu(self.layer1(x)))

    model = _seeded(T, TinyModel(), 1)
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    x = _t(T, 4, 8)
    y = _t(T, 4, 3, seed=1)
    before = model.layer2.weight.grad
    hist = []
    for _ in range(3):
        pred = model(x)
        loss = (y - pred).pow(2).sum()
        loss.backward()
        hist.append((loss.item(), model.layer2.weight.grad[0, :3].clone()))
        opt.step()
    g_acc = model.layer2.weight.grad.clone()
    opt.zero_grad(set_to_none=False)
    return {"before": before, "hist": hist, "acc": g_acc, "zeroed": model.layer2.weight.grad}


@program()
def prog_tut_ag_yt_turning_autograd_off(T: Any) -> Any:
    a = T.ones(2, 3, requires_grad=True) * 2
    b = T.ones(2, 3, requires_grad=True) * 3
    c1 = a + b
    with T.no_grad():
        c2 = a + b
    c3 = a * b

    @T.no_grad()
    def add_tensors(x, y):
        return x + y

    c4 = add_tensors(a, b)
    with T.set_grad_enabled(False):
        c5 = a * 2
    d = a.detach()
    return {
        "c1": (c1.requires_grad, type(c1.grad_fn).__name__),
        "c2": (c2.requires_grad, c2.grad_fn),
        "c3": c3.requires_grad,
        "c4": (c4.requires_grad, c4.is_leaf),
        "c5": c5.requires_grad,
        "d": (d.requires_grad, d.is_leaf, d.data_ptr() == a.data_ptr()),
        "enabled": T.is_grad_enabled(),
    }


@program()
def prog_tut_ag_yt_inplace_on_leaf(T: Any) -> Any:
    a = T.linspace(0.0, 2.0 * math.pi, steps=5, requires_grad=True)
    e1 = raises(lambda: T.sin_(a))
    e2 = raises(lambda: a.add_(1))
    e3 = raises(lambda: a.__setitem__(0, 2.0))
    with T.no_grad():
        a.mul_(2)
    return {"errs": (e1, e2, e3), "a": a, "v": a._version, "leaf": a.is_leaf}


@program()
def prog_tut_ag_yt_functional_jacobian_hessian(T: Any) -> Any:
    F = T.autograd.functional

    def exp_adder(x, y):
        return 2 * x.exp() + 3 * y

    inputs = (_t(T, 3), _t(T, 3, seed=1))
    jac = F.jacobian(exp_adder, inputs)
    jac_cg = F.jacobian(exp_adder, inputs, create_graph=True)

    def do_some_doubling(x):
        y = x * 2
        while y.norm() < 1000:
            y = y * 2
        return y

    inp = T.ones(3)
    v = T.tensor([0.1, 1.0, 0.0001])
    vjp = F.vjp(do_some_doubling, inp, v)
    jvp = F.jvp(do_some_doubling, inp, v)
    hes = F.hessian(lambda x: (x**3).sum(), T.tensor([1.0, 2.0]))
    hvp = F.hvp(lambda x: (x**3).sum(), T.tensor([1.0, 2.0]), T.tensor([1.0, 0.0]))
    return {
        "jac": jac,
        "jac_cg_rg": [j.requires_grad for j in jac_cg],
        "vjp": vjp,
        "jvp": jvp,
        "hes": hes,
        "hvp": hvp,
    }


@program()
def prog_tut_ag_yt_functional_errors(T: Any) -> Any:
    F = T.autograd.functional
    x = T.ones(2)
    return {
        "vjp_nonscalar": raises(lambda: F.vjp(lambda a: a * 2, x)),
        "vjp_shape": raises(lambda: F.vjp(lambda a: a * 2, x, T.ones(3))),
        "hes_nonscalar": raises(lambda: F.hessian(lambda a: a * 2, x)),
        "jac_nontensor": raises(lambda: F.jacobian(lambda a: a.tolist(), x)),
        "jac_strategy": raises(lambda: F.jacobian(lambda a: a * 2, x, strategy="bad")),
        "strict": raises(lambda: F.jacobian(lambda a: T.ones(2), x, strict=True)),
        "nonstrict": F.jacobian(lambda a: T.ones(2), x),
    }


# --- basics: autogradqs_tutorial ---------------------------------------------------------------


@program()
def prog_tut_ag_qs_logistic_backward_twice(T: Any) -> Any:
    T.manual_seed(0)
    x = T.ones(5)
    y = T.zeros(3)
    w = T.randn(5, 3, requires_grad=True)
    b = T.randn(3, requires_grad=True)
    z = T.matmul(x, w) + b
    loss = T.nn.functional.binary_cross_entropy_with_logits(z, y)
    names = (type(z.grad_fn).__name__, type(loss.grad_fn).__name__)
    loss.backward()
    g = (w.grad.clone(), b.grad.clone())
    e = raises(lambda: loss.backward())
    return {"loss": loss, "names": names, "g": g, "second": e}


@program()
def prog_tut_ag_qs_retain_graph_accumulates(T: Any) -> Any:
    inp = T.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(T.ones_like(out), retain_graph=True)
    first = inp.grad.clone()
    out.backward(T.ones_like(out), retain_graph=True)
    second = inp.grad.clone()
    inp.grad.zero_()
    out.backward(T.ones_like(out))
    third = inp.grad.clone()
    fourth = raises(lambda: out.backward(T.ones_like(out)))
    return {"first": first, "second": second, "third": third, "fourth": fourth, "fn": out.grad_fn}


@program()
def prog_tut_ag_qs_detach_and_no_grad(T: Any) -> Any:
    T.manual_seed(1)
    x = T.ones(5)
    w = T.randn(5, 3, requires_grad=True)
    b = T.randn(3, requires_grad=True)
    z = T.matmul(x, w) + b
    with T.no_grad():
        z2 = T.matmul(x, w) + b
    z_det = z.detach()
    z_det2 = z.detach_() if False else None
    return {
        "z": (z.requires_grad, z2.requires_grad, z_det.requires_grad, z_det2),
        "z_det_is_leaf": z_det.is_leaf,
        "z_det_version_shared": (z_det.add_(1), z._version),
        "backward_after_detach_mutation": raises(lambda: z.sum().backward()),
    }


@program()
def prog_tut_ag_qs_backward_on_constant(T: Any) -> Any:
    x = T.ones(3)
    y = (x * 2).sum()
    w = T.ones(3, requires_grad=True)
    with T.no_grad():
        z = (w * 2).sum()
    return {
        "e1": raises(lambda: y.backward()),
        "e2": raises(lambda: z.backward()),
        "e3": raises(lambda: T.autograd.grad(y, x)),
        "e4": raises(lambda: T.autograd.grad((w * 2).sum(), x)),
    }


# --- examples_autograd: polynomial fits ---------------------------------------------------------


def _legendre(T: Any) -> Any:
    class LegendrePolynomial3(T.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input**3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            (input,) = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input**2 - 1)

    return LegendrePolynomial3


@program()
def prog_tut_ag_poly_custom_function_fit(T: Any) -> Any:
    x = T.linspace(-math.pi, math.pi, 50)
    y = T.sin(x)
    a = T.full((), 0.0, requires_grad=True)
    b = T.full((), -1.0, requires_grad=True)
    c = T.full((), 0.0, requires_grad=True)
    d = T.full((), 0.3, requires_grad=True)
    P3 = _legendre(T).apply
    lr = 5e-6
    losses = []
    for _ in range(5):
        y_pred = a + b * P3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        losses.append(loss.item())
        loss.backward()
        with T.no_grad():
            for p in (a, b, c, d):
                p -= lr * p.grad
                p.grad = None
    y_pred = a + b * P3(c + d * x)
    return {
        "losses": losses,
        "params": (a, b, c, d),
        "fn": _names(y_pred.grad_fn, 4),
        "name": y_pred.grad_fn.next_functions[1][0].next_functions[1][0].name(),
    }


@program()
def prog_tut_ag_poly_manual_tensors_and_autograd(T: Any) -> Any:
    x = T.linspace(-math.pi, math.pi, 40, dtype=T.float64)
    y = T.sin(x)
    T.manual_seed(0)
    coef = [T.randn((), dtype=T.float64, requires_grad=True) for _ in range(4)]
    lr = 1e-6
    for _ in range(4):
        a, b, c, d = coef
        y_pred = a + b * x + c * x**2 + d * x**3
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with T.no_grad():
            for p in coef:
                p -= lr * p.grad
                p.grad.zero_()
    return {"coef": coef, "loss": loss, "grads": [p.grad for p in coef]}


@program()
def prog_tut_ag_poly_nn_sequential_flatten(T: Any) -> Any:
    x = T.linspace(-math.pi, math.pi, 30)
    y = T.sin(x)
    p = T.tensor([1, 2, 3])
    xx = x.unsqueeze(-1).pow(p)
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 1), T.nn.Flatten(0, 1)), 2)
    loss_fn = T.nn.MSELoss(reduction="sum")
    opt = T.optim.RMSprop(model.parameters(), lr=1e-3)
    hist = []
    for _ in range(4):
        y_pred = model(xx)
        loss = loss_fn(y_pred, y)
        hist.append(loss.item())
        model.zero_grad()
        loss.backward()
        opt.step()
    lin = model[0]
    return {
        "xx": (xx.dtype, xx[:2]),
        "hist": hist,
        "w": lin.weight,
        "b": lin.bias,
        "grad": lin.weight.grad,
        "names": _names(y_pred.grad_fn, 3),
    }


@program()
def prog_tut_ag_two_layer_relu_custom_function(T: Any) -> Any:
    class MyReLU(T.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            (input,) = ctx.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input < 0] = 0
            return grad_input

    T.manual_seed(0)
    x = T.randn(6, 5)
    y = T.randn(6, 2)
    w1 = T.randn(5, 4, requires_grad=True)
    w2 = T.randn(4, 2, requires_grad=True)
    losses = []
    for _ in range(3):
        y_pred = MyReLU.apply(x.mm(w1)).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        losses.append(loss.item())
        loss.backward()
        with T.no_grad():
            w1 -= 1e-3 * w1.grad
            w2 -= 1e-3 * w2.grad
            w1.grad.zero_()
            w2.grad.zero_()
    return {"losses": losses, "w1": w1, "w2": w2, "fn": _names(y_pred.grad_fn, 3)}


@program()
def prog_tut_ag_dynamic_net_weight_sharing(T: Any) -> Any:
    class DynamicNet(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = T.nn.Parameter(T.tensor(0.1))
            self.b = T.nn.Parameter(T.tensor(-0.2))
            self.c = T.nn.Parameter(T.tensor(0.05))
            self.d = T.nn.Parameter(T.tensor(0.01))
            self.e = T.nn.Parameter(T.tensor(0.001))

        def forward(self, x, n_extra):
            y = self.a + self.b * x + self.c * x**2 + self.d * x**3
            for exp in range(4, 4 + n_extra):
                y = y + self.e * x**exp
            return y

    x = T.linspace(-1.0, 1.0, 20)
    y = T.sin(x)
    model = DynamicNet()
    opt = T.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    hist = []
    for n_extra in (0, 2, 1, 0, 2):
        opt.zero_grad()
        loss = (model(x, n_extra) - y).pow(2).sum()
        loss.backward()
        hist.append((loss.item(), model.e.grad.clone() if model.e.grad is not None else None))
        opt.step()
    return {"hist": hist, "params": dict(model.named_parameters())}


@program()
def prog_tut_ag_dynamic_control_flow_doubling(T: Any) -> Any:
    x = T.tensor([0.3, -0.2, 0.5], requires_grad=True)
    y = x * 2
    steps = 0
    while y.data.norm() < 1000:
        y = y * 2
        steps += 1
    v = T.tensor([0.1, 1.0, 0.0001])
    y.backward(v)
    return {"y": y, "steps": steps, "grad": x.grad, "depth": len(str(_names(y.grad_fn, 30)))}


# --- custom_function_double_backward ------------------------------------------------------------


@program()
def prog_tut_ag_double_backward_square(T: Any) -> Any:
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, grad_out):
            (x,) = ctx.saved_tensors
            return grad_out * 2 * x

    x = _d(T, 3, 3)
    g1 = T.autograd.gradcheck(Square.apply, x)
    g2 = T.autograd.gradgradcheck(Square.apply, x)
    y = Square.apply(x)
    (gx,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (ggx,) = T.autograd.grad(gx.sum(), x)
    return {"ok": (g1, g2), "gx": gx, "gx_fn": _names(gx.grad_fn, 3), "ggx": ggx}


@program()
def prog_tut_ag_double_backward_exp_saves_output(T: Any) -> Any:
    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = T.exp(x)
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_out):
            (result,) = ctx.saved_tensors
            return result * grad_out

    x = _d(T, 3, 3)
    ok = (T.autograd.gradcheck(Exp.apply, x), T.autograd.gradgradcheck(Exp.apply, x))
    y = Exp.apply(x)
    (g,) = T.autograd.grad(y, x, T.ones_like(y), create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return {"ok": ok, "g": g, "gg": gg, "names": _names(g.grad_fn, 4), "y": y.grad_fn.name()}


def _sinh_good(T: Any) -> Any:
    class Sinh(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            expx = T.exp(x)
            expnegx = T.exp(-x)
            ctx.save_for_backward(expx, expnegx)
            return (expx - expnegx) / 2, expx, expnegx

        @staticmethod
        def backward(ctx, grad_out, grad_out_exp, grad_out_negexp):
            expx, expnegx = ctx.saved_tensors
            grad_input = grad_out * (expx + expnegx) / 2
            grad_input += grad_out_exp * expx
            grad_input -= grad_out_negexp * expnegx
            return grad_input

    return Sinh


@program()
def prog_tut_ag_double_backward_sinh_intermediates(T: Any) -> Any:
    Sinh = _sinh_good(T)

    def sinh(x):
        return Sinh.apply(x)[0]

    x = _d(T, 3, 3)
    ok = (T.autograd.gradcheck(sinh, x), T.autograd.gradgradcheck(sinh, x))
    outs = Sinh.apply(x)
    (g,) = T.autograd.grad(outs[0].sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return {
        "ok": ok,
        "outs": [(o.requires_grad, o.grad_fn is outs[0].grad_fn) for o in outs],
        "g": g,
        "gg": gg,
    }


@program()
def prog_tut_ag_double_backward_sinh_bad_intermediates(T: Any) -> Any:
    class SinhBad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            expx = T.exp(x)
            expnegx = T.exp(-x)
            ctx.expx = expx
            ctx.expnegx = expnegx
            return (expx - expnegx) / 2

        @staticmethod
        def backward(ctx, grad_out):
            return grad_out * (ctx.expx + ctx.expnegx) / 2

    x = _d(T, 2, 2)
    first = T.autograd.gradcheck(SinhBad.apply, x)
    second = T.autograd.gradgradcheck(SinhBad.apply, x, raise_exception=False)
    err = _gc(lambda: T.autograd.gradgradcheck(SinhBad.apply, x))
    inner = (ctx_rg := SinhBad.apply(x)).grad_fn.expx.requires_grad
    return {"first": first, "second": second, "err": err, "inner": inner, "y": ctx_rg}


@program()
def prog_tut_ag_double_backward_once_differentiable(T: Any) -> Any:
    from_mod = T.autograd.function.once_differentiable

    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = T.exp(x)
            ctx.save_for_backward(result)
            return result

        @staticmethod
        @from_mod
        def backward(ctx, grad_out):
            (result,) = ctx.saved_tensors
            return result * grad_out

    x = _d(T, 2, 3)
    y = Exp.apply(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    e = raises(lambda: g.sum().backward())
    y2 = Exp.apply(x)
    (g2,) = T.autograd.grad(y2.sum(), x)
    return {
        "g": g,
        "g_rg": (g.requires_grad, type(g.grad_fn).__name__),
        "err": e,
        "g2": g2,
        "gc": T.autograd.gradcheck(Exp.apply, x),
        "ggc": _gc(lambda: T.autograd.gradgradcheck(Exp.apply, x)),
    }


@program()
def prog_tut_ag_double_backward_cube_backward_function(T: Any) -> Any:
    def cube_forward(x):
        return x**3

    def cube_backward(grad_out, x):
        return grad_out * 3 * x**2

    def cube_backward_backward(grad_out, sav_grad_out, x):
        return grad_out * sav_grad_out * 6 * x

    def cube_backward_backward_grad_out(grad_out, x):
        return grad_out * 3 * x**2

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return cube_forward(x)

        @staticmethod
        def backward(ctx, grad_out):
            (x,) = ctx.saved_tensors
            return CubeBackward.apply(grad_out, x)

    class CubeBackward(T.autograd.Function):
        @staticmethod
        def forward(ctx, grad_out, x):
            ctx.save_for_backward(x, grad_out)
            return cube_backward(grad_out, x)

        @staticmethod
        def backward(ctx, grad_out):
            x, sav_grad_out = ctx.saved_tensors
            dx = cube_backward_backward(grad_out, sav_grad_out, x)
            dgrad_out = cube_backward_backward_grad_out(grad_out, x)
            return dgrad_out, dx

    x = _d(T, 3, 3)
    ok = (T.autograd.gradcheck(Cube.apply, x), T.autograd.gradgradcheck(Cube.apply, x))
    y = Cube.apply(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x, create_graph=True)
    return {"ok": ok, "g": g, "gg": gg, "names": (_names(g.grad_fn, 3), _names(gg.grad_fn, 3))}


# --- gradcheck on a deliberately wrong backward ----------------------------------------------


@program()
def prog_tut_ag_gradcheck_wrong_backward(T: Any) -> Any:
    class BadSquare(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x  # should be 2 * x

    x = _d(T, 2, 2)
    return {
        "soft": T.autograd.gradcheck(BadSquare.apply, x, raise_exception=False),
        "fast": T.autograd.gradcheck(BadSquare.apply, x, raise_exception=False, fast_mode=True),
        "err": _gc(lambda: T.autograd.gradcheck(BadSquare.apply, x)),
        "err_fast": raises(lambda: T.autograd.gradcheck(BadSquare.apply, x, fast_mode=True)).type,
    }


@program()
def prog_tut_ag_gradcheck_float32_and_tolerances(T: Any) -> Any:
    x32 = _t(T, 3, rg=True)
    x64 = _d(T, 3)
    return {
        "f32": _gc(lambda: T.autograd.gradcheck(T.sin, x32, raise_exception=False)),
        "f32_loose": T.autograd.gradcheck(T.sin, x32, eps=1e-3, atol=1e-2, rtol=1e-2),
        "f64": T.autograd.gradcheck(T.sin, x64),
        "no_rg": _gc(lambda: T.autograd.gradcheck(T.sin, x64.detach())),
        "ggc_f64": T.autograd.gradgradcheck(T.sin, x64),
    }


@program()
def prog_tut_ag_gradcheck_wrong_shape_and_count(T: Any) -> Any:
    class TooFew(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    class BadShape(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.sum(0)

    class BadType(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return "nope"

    x = _d(T, 2, 3)
    y = _d(T, 2, 3, seed=1)
    return {
        "few": raises(lambda: TooFew.apply(x, y).sum().backward()),
        "shape": raises(lambda: BadShape.apply(x).sum().backward()),
        "type": raises(lambda: BadType.apply(x).sum().backward()),
        "gc_shape": _gc(lambda: T.autograd.gradcheck(BadShape.apply, x)),
    }


@program()
def prog_tut_ag_gradcheck_nondeterministic_and_batched(T: Any) -> Any:
    counter = [0]

    class Noisy(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            counter[0] += 1
            return g * (2 + 1e-3 * counter[0])

    x = _d(T, 3)
    return {
        "noisy": _gc(lambda: T.autograd.gradcheck(Noisy.apply, x, atol=1e-2)),
        "tolerant": T.autograd.gradcheck(Noisy.apply, x, atol=1e-1, rtol=1e-1, nondet_tol=1.0),
        "batched": T.autograd.gradcheck(T.tanh, x, check_batched_grad=True),
    }


# --- custom_function_conv_bn_tutorial ---------------------------------------------------------


def _conv_bn_fns(T: Any) -> Any:
    F = T.nn.functional

    def convolution_backward(grad_out, X, weight):
        grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
        grad_X = F.conv_transpose2d(grad_out, weight)
        return grad_X, grad_input

    class Conv2D(T.autograd.Function):
        @staticmethod
        def forward(ctx, X, weight):
            ctx.save_for_backward(X, weight)
            return F.conv2d(X, weight)

        @staticmethod
        def backward(ctx, grad_out):
            X, weight = ctx.saved_tensors
            return convolution_backward(grad_out, X, weight)

    def unsqueeze_all(t):
        return t[None, :, None, None]

    def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
        tmp = ((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
        tmp *= -1
        d_denom = tmp / (sqrt_var + eps) ** 2
        d_var = d_denom / (2 * sqrt_var)
        d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
        d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
        grad_input = X * unsqueeze_all(d_var * N)
        grad_input += unsqueeze_all(-d_var * sum)
        grad_input *= 2 / ((N - 1) * N)
        grad_input += d_mean_dx
        grad_input *= unsqueeze_all(sqrt_var + eps)
        grad_input += grad_out
        grad_input /= unsqueeze_all(sqrt_var + eps)
        return grad_input

    class BatchNorm(T.autograd.Function):
        @staticmethod
        def forward(ctx, X, eps=1e-3):
            sum = X.sum(dim=(0, 2, 3))
            var = X.var(unbiased=True, dim=(0, 2, 3))
            N = X.numel() / X.size(1)
            sqrt_var = T.sqrt(var)
            ctx.save_for_backward(X)
            ctx.eps = eps
            ctx.sum = sum
            ctx.N = N
            ctx.sqrt_var = sqrt_var
            mean = sum / N
            denom = sqrt_var + eps
            return (X - unsqueeze_all(mean)) / unsqueeze_all(denom)

        @staticmethod
        def backward(ctx, grad_out):
            (X,) = ctx.saved_tensors
            return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps), None

    class FusedConvBN2DFunction(T.autograd.Function):
        @staticmethod
        def forward(ctx, X, conv_weight, eps=1e-3):
            assert X.ndim == 4
            ctx.save_for_backward(X, conv_weight)
            X = F.conv2d(X, conv_weight)
            sum = X.sum(dim=(0, 2, 3))
            var = X.var(unbiased=True, dim=(0, 2, 3))
            N = X.numel() / X.size(1)
            sqrt_var = T.sqrt(var)
            ctx.eps = eps
            ctx.sum = sum
            ctx.N = N
            ctx.sqrt_var = sqrt_var
            mean = sum / N
            denom = sqrt_var + eps
            out = X - unsqueeze_all(mean)
            out /= unsqueeze_all(denom)
            return out

        @staticmethod
        def backward(ctx, grad_out):
            X, conv_weight = ctx.saved_tensors
            X_conv_out = F.conv2d(X, conv_weight)
            grad_out = batch_norm_backward(
                grad_out, X_conv_out, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps
            )
            grad_X, grad_input = convolution_backward(grad_out, X, conv_weight)
            return grad_X, grad_input, None

    return Conv2D, BatchNorm, FusedConvBN2DFunction


@program()
def prog_tut_ag_conv_bn_gradchecks(T: Any) -> Any:
    Conv2D, BatchNorm, Fused = _conv_bn_fns(T)
    T.manual_seed(0)
    w = T.rand(2, 1, 2, 2, requires_grad=True, dtype=T.double)
    X = T.rand(1, 1, 3, 3, requires_grad=True, dtype=T.double)
    a = T.rand(1, 2, 2, 2, requires_grad=True, dtype=T.double)
    b = T.rand(1, 2, 3, 3, requires_grad=True, dtype=T.double)
    wf = T.rand(2, 2, 2, 2, requires_grad=True, dtype=T.double)
    return {
        # fast mode: torch's float64 conv2d takes ~20 ms a call on the CI machines
        "conv": T.autograd.gradcheck(Conv2D.apply, (X, w), fast_mode=True),
        "bn": T.autograd.gradcheck(BatchNorm.apply, (a,), fast_mode=False),
        "fused": T.autograd.gradcheck(Fused.apply, (b, wf, 1e-3), fast_mode=True),
        "fwd": Conv2D.apply(X, w),
        "bn_out": BatchNorm.apply(a),
    }


@program()
def prog_tut_ag_conv_bn_fused_module_matches_unfused(T: Any) -> Any:
    _, _, Fused = _conv_bn_fns(T)

    class FusedConvBN(T.nn.Module):
        def __init__(self, in_channels, out_channels, kernel_size, eps=1e-3):
            super().__init__()
            exp_shape = (out_channels, in_channels, kernel_size, kernel_size)
            self.conv_weight = T.nn.Parameter(T.empty(*exp_shape))
            T.nn.init.kaiming_uniform_(self.conv_weight, a=math.sqrt(5))
            self.eps = eps

        def forward(self, X):
            return Fused.apply(X, self.conv_weight, self.eps)

    T.manual_seed(3)
    fused = FusedConvBN(2, 3, 2)
    conv = T.nn.Conv2d(2, 3, 2, bias=False)
    bn = T.nn.BatchNorm2d(3, affine=False, eps=1e-3)
    with T.no_grad():
        conv.weight.copy_(fused.conv_weight)
    x = T.randn(4, 2, 5, 5)
    y1 = fused(x)
    y2 = bn(conv(x))
    t = T.randn(4, 3, 4, 4)
    (y1 * t).sum().backward()
    (y2 * t).sum().backward()
    return {
        "y1": y1,
        "close": T.allclose(y1, y2, atol=1e-2),
        "g1": fused.conv_weight.grad,
        "gdiff": (fused.conv_weight.grad - conv.weight.grad).abs().max() < 1e-1,
        "fn": y1.grad_fn.name(),
        "running": (bn.running_mean, bn.num_batches_tracked),
    }


@program()
def prog_tut_ag_conv_weight_input_grads_via_nn_grad(T: Any) -> Any:
    G = T.nn.grad
    F = T.nn.functional
    T.manual_seed(4)
    x = T.randn(2, 2, 5, 5, dtype=T.float64, requires_grad=True)
    w = T.randn(3, 2, 3, 3, dtype=T.float64, requires_grad=True)
    y = F.conv2d(x, w, stride=1, padding=1)
    go = T.randn_like(y)
    gx, gw = T.autograd.grad(y, (x, w), go)
    gx2 = G.conv2d_input(x.shape, w, go, padding=1)
    gw2 = G.conv2d_weight(x, w.shape, go, padding=1)
    return {"gx": gx, "gw": gw, "same": (T.allclose(gx, gx2), T.allclose(gw, gw2))}


# --- saved tensors hooks ----------------------------------------------------------------------


@program()
def prog_tut_ag_saved_attrs_identity(T: Any) -> Any:
    a = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    b = T.ones(3, requires_grad=True)
    y = a * b
    e = T.exp(a)
    s = a.pow(3)
    return {
        "self_is_a": y.grad_fn._saved_self is a,
        "other_is_b": y.grad_fn._saved_other is b,
        "result_equal": e.grad_fn._saved_result.equal(e),
        "result_is": e.grad_fn._saved_result is e,
        "result": e.grad_fn._saved_result,
        "pow": (s.grad_fn._saved_self is a, s.grad_fn._saved_exponent),
        "missing": raises(lambda: y.grad_fn._saved_result),
    }


@program()
def prog_tut_ag_saved_attrs_after_backward(T: Any) -> Any:
    a = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = a.sin()
    y.sum().backward(retain_graph=True)
    kept = y.grad_fn._saved_self
    z = a.cos()
    z.sum().backward()
    return {
        "kept": kept,
        "freed": raises(lambda: z.grad_fn._saved_self),
        "raw": raises(lambda: z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)),
    }


@program()
def prog_tut_ag_saved_hooks_print_order(T: Any) -> Any:
    log = []

    def pack_hook(x):
        log.append(("pack", x.shape, x.requires_grad))
        return x

    def unpack_hook(x):
        log.append(("unpack", x.shape))
        return x

    a = T.ones(5, requires_grad=True)
    b = T.ones(5, requires_grad=True) * 2
    with T.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = a * b
        z = y.exp()
    log.append("forward done")
    z.sum().backward()
    return {"log": log, "a.grad": a.grad, "b_grad_nonleaf": b.is_leaf}


@program()
def prog_tut_ag_saved_hooks_scaled_pack(T: Any) -> Any:
    x = _t(T, 5, rg=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
        y = T.pow(x, 2)
    y.sum().backward()
    x2 = _t(T, 5, rg=True)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t):
        y2 = T.pow(x2, 2)
    y2.sum().backward()
    return {"g": x.grad, "eq": x.grad.equal(2 * x), "wrong": x2.grad}


@program()
def prog_tut_ag_saved_hooks_int_and_tuple(T: Any) -> Any:
    storage = []

    def pack(x):
        storage.append(x)
        return len(storage) - 1

    def unpack(i):
        return storage[i]

    x = _t(T, 4, rg=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    g1 = x.grad.clone()

    T.manual_seed(0)

    def pack2(t):
        delta = T.randn(*t.size())
        return t - delta, lambda u: u + delta

    def unpack2(packed):
        u, f = packed
        return f(u)

    x2 = _t(T, 4, rg=True)
    with T.autograd.graph.saved_tensors_hooks(pack2, unpack2):
        y2 = x2 * x2
    y2.sum().backward()
    return {"g1": g1, "n": len(storage), "g2": x2.grad, "close": T.allclose(x2.grad, 2 * x2)}


@program()
def prog_tut_ag_saved_hooks_unpack_twice(T: Any) -> Any:
    calls = []
    store = {}

    def pack(t):
        k = len(store)
        store[k] = t.clone()
        calls.append("pack")
        return k

    def unpack(k):
        calls.append("unpack")
        return store.pop(k)

    x = T.ones(5, requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.pow(2)
    first = y.grad_fn._saved_self
    second = raises(lambda: y.grad_fn._saved_self)
    return {"first": first, "second": second, "calls": calls}


@program()
def prog_tut_ag_saved_hooks_misuse(T: Any) -> Any:

    def inplace_pack(t):
        t.mul_(2)
        return t

    def mk(pack, unpack):
        def run():
            x = _t(T, 3, rg=True)
            with T.autograd.graph.saved_tensors_hooks(pack, unpack):
                y = (x * 1).exp()
            y.sum().backward()
            return x.grad

        return run

    return {
        "inplace": raises(mk(inplace_pack, lambda t: t)),
        "unpack_int": raises(mk(lambda t: t, lambda t: 3)),
        "unpack_shape": raises(mk(lambda t: t, lambda t: t[:1])),
        "unpack_dtype": raises(mk(lambda t: t, lambda t: t.double())),
        "pack_raises": raises(mk(lambda t: 1 / 0, lambda t: t)),
    }


@program()
def prog_tut_ag_saved_hooks_nested_and_disabled(T: Any) -> Any:
    log = []

    def mk(tag):
        return (lambda t: (log.append(("pack", tag)), t)[1], lambda t: (log.append(tag), t)[1])

    x = _t(T, 3, rg=True)
    with T.autograd.graph.saved_tensors_hooks(*mk("outer")):
        y = x.sin()
        with T.autograd.graph.saved_tensors_hooks(*mk("inner")):
            z = y.cos()
        w = z.tanh()
    w.sum().backward()

    def blocked():
        G = T.autograd.graph
        with G.disable_saved_tensors_hooks("no hooks"), G.saved_tensors_hooks(lambda t: t, id):
            pass

    def blocked_inside():
        G = T.autograd.graph
        with G.saved_tensors_hooks(lambda t: t, id), G.disable_saved_tensors_hooks("stop"):
            return (x * x).sum()

    return {
        "log": log,
        "g": x.grad,
        "blocked": raises(blocked),
        "blocked_inside": raises(blocked_inside),
    }


@program()
def prog_tut_ag_saved_hooks_register_on_saved_tensor(T: Any) -> Any:
    log = []
    x = _t(T, 3, rg=True)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: (log.append("p"), t * 2)[1], lambda t: (log.append("u"), t)[1])
    twice = raises(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    y.sum().backward()
    z = x.pow(2)
    bad = raises(lambda: z.grad_fn._raw_saved_self.register_hooks(1, lambda t: t))
    return {"log": log, "twice": twice, "g": x.grad, "bad": bad}


@program()
def prog_tut_ag_save_on_cpu_module(T: Any) -> Any:
    class Model(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = T.nn.Parameter(T.tensor(_data(5, seed=3)))

        def forward(self, x):
            with T.autograd.graph.save_on_cpu(pin_memory=False):
                return self.w * x

    class SaveToCpu(T.nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, *args, **kwargs):
            with T.autograd.graph.save_on_cpu():
                return self.module(*args, **kwargs)

    m = Model()
    x = _t(T, 5)
    loss = m(x).sum()
    loss.backward()
    seq = _seeded(
        T, T.nn.Sequential(T.nn.Linear(4, 6), SaveToCpu(T.nn.Linear(6, 6)), T.nn.Linear(6, 2)), 5
    )
    out = seq(_t(T, 3, 4)).sum()
    out.backward()
    return {"g": m.w.grad, "seq": [p.grad for p in seq.parameters()], "out": out}


# --- forward-mode AD --------------------------------------------------------------------------


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_dual_basics(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    primal = _t(T, 3, 3)
    tangent = _t(T, 3, 3, seed=1)

    def fn(x, y):
        return x**2 + y**2

    with fwAD.dual_level():
        dual_input = fwAD.make_dual(primal, tangent)
        plain = T.ones(3, 3)
        dual_output = fn(dual_input, plain)
        jvp = fwAD.unpack_dual(dual_output).tangent
        p, t = fwAD.unpack_dual(plain)
        un = fwAD.unpack_dual(dual_output)
    after = fwAD.unpack_dual(dual_output).tangent
    return {
        "jvp": jvp,
        "plain_tangent": t,
        "primal_is": p is plain,
        "un": (un.primal, type(un).__name__, un._fields),
        "after": after,
        "no_level": raises(lambda: fwAD.make_dual(primal, tangent)),
    }


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_dual_errors(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    p = T.ones(3)
    with fwAD.dual_level():
        e_shape = raises(lambda: fwAD.make_dual(p, T.ones(4)))
        e_dtype = raises(lambda: fwAD.make_dual(p, T.ones(3, dtype=T.float64)))
        e_int = raises(lambda: fwAD.make_dual(T.arange(3), T.arange(3)))
        d = fwAD.make_dual(p, T.ones(3))
        e_again = raises(lambda: fwAD.make_dual(d, T.ones(3)))
    return {"errs": (e_shape, e_dtype, e_int, e_again)}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_module_params_as_duals(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    model = _seeded(T, T.nn.Linear(5, 3), 7)
    x = _t(T, 4, 5)
    params = {name: p for name, p in model.named_parameters()}
    tangents = {name: T.tensor(_data(*p.shape, seed=9)) for name, p in params.items()}
    with fwAD.dual_level():
        for name, p in params.items():
            delattr(model, name)
            setattr(model, name, fwAD.make_dual(p, tangents[name]))
        out = model(x)
        jvp = fwAD.unpack_dual(out).tangent
    model2 = _seeded(T, T.nn.Linear(5, 3), 7)
    from_func = T.func.functional_call
    with fwAD.dual_level():
        dual_params = {
            name: fwAD.make_dual(p, tangents[name]) for name, p in model2.named_parameters()
        }
        out2 = from_func(model2, dual_params, (x,))
        jvp2 = fwAD.unpack_dual(out2).tangent
    return {"out": out, "jvp": jvp, "jvp2": jvp2, "same": T.allclose(jvp, jvp2)}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_addmm_family_one_sided_tangents(T: Any) -> Any:
    """addmm/addmv/baddbmm/addbmm with a tangent on one factor only, the other factor requiring
    grad: torch evaluates the zero term too, so the tangent is differentiable."""
    fwAD = T.autograd.forward_ad
    out = {}
    with fwAD.dual_level():
        for name, shapes in (
            ("addmm", ((3, 4), (3, 2), (2, 4))),
            ("addmv", ((3,), (3, 2), (2,))),
            ("baddbmm", ((2, 3, 4), (2, 3, 5), (2, 5, 4))),
            ("addbmm", ((3, 4), (2, 3, 5), (2, 5, 4))),
        ):
            s, a, b = (T.tensor(_data(*sh, seed=i + 40)) for i, sh in enumerate(shapes))
            a.requires_grad_()
            b.requires_grad_()
            ta, tb = T.tensor(_data(*a.shape, seed=50)), T.tensor(_data(*b.shape, seed=51))
            fn = getattr(T, name)
            r1 = fn(s, fwAD.make_dual(a, ta), b, beta=0.5, alpha=2.0)
            r2 = fn(s, a, fwAD.make_dual(b, tb))
            r3 = fn(fwAD.make_dual(s, T.ones_like(s)), a.detach(), b.detach(), alpha=3)
            t1, t2, t3 = (fwAD.unpack_dual(r).tangent for r in (r1, r2, r3))
            (g,) = T.autograd.grad(t1.sum(), b)
            out[name] = (t1, t1.grad_fn.name(), t2, t2.grad_fn.name(), t3, t3.requires_grad, g)
    return out


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_custom_function_jvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Fn(T.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            result = T.exp(foo)
            ctx.result = result
            return result

        @staticmethod
        def jvp(ctx, gI):
            gO = gI * ctx.result
            del ctx.result
            return gO

    x = _d(T, 3, rg=False)
    t = _d(T, 3, seed=1, rg=False)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        out = Fn.apply(dual)
        jvp = fwAD.unpack_dual(out).tangent
    xr = _d(T, 3)
    ok = T.autograd.gradcheck(
        Fn.apply,
        (xr,),
        check_forward_ad=True,
        check_backward_ad=False,
        check_undefined_grad=False,
        check_batched_grad=False,
    )
    return {"out": out, "jvp": jvp, "ok": ok}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_custom_function_missing_jvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class NoJvp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g * 3

    class WrongJvp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def jvp(ctx, t):
            return t * 4

    x = _d(T, 3, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.ones(3, dtype=T.float64))
        e = raises(lambda: NoJvp.apply(d))
        plain = NoJvp.apply(x)
    xr = _d(T, 3)
    bad = _gc(
        lambda: T.autograd.gradcheck(
            WrongJvp.apply,
            (xr,),
            check_forward_ad=True,
            check_backward_ad=False,
            check_undefined_grad=False,
            check_batched_grad=False,
        )
    )
    return {"e": e, "plain": plain, "bad": bad}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_save_for_forward_and_backward(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class MulAdd(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_forward(x, y)
            ctx.save_for_backward(x, y)
            return x * y + x

        @staticmethod
        def jvp(ctx, tx, ty):
            x, y = ctx.saved_tensors
            return tx * y + x * ty + tx

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * (y + 1), g * x

    x = _d(T, 4)
    y = _d(T, 4, seed=1)
    ok = T.autograd.gradcheck(MulAdd.apply, (x, y), check_forward_ad=True)
    with fwAD.dual_level():
        dx = fwAD.make_dual(x.detach(), T.ones(4, dtype=T.float64))
        out = MulAdd.apply(dx, y.detach())
        t = fwAD.unpack_dual(out).tangent
    no_ctx = raises(lambda: T.func.jacfwd(MulAdd.apply)(x.detach(), y.detach()))

    class MulAdd2(T.autograd.Function):
        @staticmethod
        def forward(x, y):
            return x * y + x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(*inputs)
            ctx.save_for_backward(*inputs)

        generate_vmap_rule = True
        jvp = MulAdd.jvp
        backward = MulAdd.backward

    jf = T.func.jacfwd(MulAdd2.apply)(x.detach(), y.detach())
    jr = T.func.jacrev(MulAdd2.apply, argnums=(0, 1))(x.detach(), y.detach())
    return {"ok": ok, "t": t, "no_ctx": no_ctx, "jf": jf, "jr": jr}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_func_jvp_vjp(T: Any) -> Any:
    def f(x):
        return (x.sin() * x).sum(0)

    x = _t(T, 3, 2)
    t = _t(T, 3, 2, seed=1)
    out, jvp_out = T.func.jvp(f, (x,), (t,))
    out2, vjp_fn = T.func.vjp(f, x)
    (vjp_out,) = vjp_fn(T.ones(2))
    return {
        "out": (out, out2),
        "jvp": jvp_out,
        "vjp": vjp_out,
        "jf": T.func.jacfwd(f)(x),
        "jr": T.func.jacrev(f)(x),
        "grad": T.func.grad(lambda a: f(a).sum())(x),
    }


# --- zeroing gradients recipe -----------------------------------------------------------------


@program()
def prog_tut_ag_zeroing_gradients_recipe(T: Any) -> Any:
    class Net(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = T.nn.Linear(6, 5)
            self.fc2 = T.nn.Linear(5, 3)

        def forward(self, x):
            return self.fc2(T.nn.functional.relu(self.fc1(x)))

    net = _seeded(T, Net(), 11)
    crit = T.nn.CrossEntropyLoss()
    opt = T.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    x = _t(T, 4, 6)
    labels = T.tensor([0, 2, 1, 2])
    trace = []
    for i in range(3):
        opt.zero_grad()
        before = net.fc1.weight.grad
        loss = crit(net(x), labels)
        loss.backward()
        opt.step()
        trace.append((i, before, loss.item(), net.fc2.bias.grad.clone()))
    net.zero_grad(set_to_none=False)
    z = net.fc2.bias.grad
    for p in net.parameters():
        p.grad = None
    acc = []
    for _ in range(2):
        crit(net(x), labels).backward()
        acc.append(net.fc2.bias.grad.clone())
    return {"trace": trace, "zeros": z, "acc": acc}


@program()
def prog_tut_ag_gradient_accumulation_micro_batches(T: Any) -> Any:
    model = _seeded(T, T.nn.Linear(4, 1), 2)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    x = _t(T, 8, 4)
    y = _t(T, 8, 1, seed=1)
    opt.zero_grad()
    for i in range(4):
        loss = T.nn.functional.mse_loss(model(x[2 * i : 2 * i + 2]), y[2 * i : 2 * i + 2]) / 4
        loss.backward()
    acc = model.weight.grad.clone()
    opt.zero_grad()
    T.nn.functional.mse_loss(model(x), y).backward()
    full = model.weight.grad.clone()
    return {"acc": acc, "full": full, "close": T.allclose(acc, full, atol=1e-6)}


# --- hooks -------------------------------------------------------------------------------------


@program()
def prog_tut_ag_tensor_hooks_modify_and_remove(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h1 = x.register_hook(lambda g: (log.append(("x", g.clone())), g * 2)[1])
    y = x * x
    h2 = y.register_hook(lambda g: log.append(("y", g.clone())))
    y.sum().backward()
    g1 = x.grad.clone()
    h1.remove()
    h2.remove()
    x.grad = None
    (x * x).sum().backward()
    return {"log": log, "g1": g1, "g2": x.grad, "hooks_after": len(log)}


@program()
def prog_tut_ag_hooks_order_and_retain_grad(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, -2.0], requires_grad=True)
    y = x.exp()
    y.register_hook(lambda g: log.append(("h1", g.clone())))
    y.retain_grad()
    y.register_hook(lambda g: (log.append(("h2", g.clone())), g + 1)[1])
    z = (y * 3).sum()
    z.backward()
    return {"log": log, "y.grad": y.grad, "x.grad": x.grad}


@program()
def prog_tut_ag_hook_errors(T: Any) -> Any:
    x = T.ones(3)
    w = T.ones(3, requires_grad=True)
    y = w * 2
    y.register_hook(lambda g: g.sum())
    return {
        "no_grad": raises(lambda: x.register_hook(lambda g: g)),
        "bad_shape": raises(lambda: y.sum().backward(retain_graph=True)),
        "bad_post": raises(lambda: y.register_post_accumulate_grad_hook(lambda p: None)),
    }


@program()
def prog_tut_ag_post_accumulate_hook_optimizer_in_backward(T: Any) -> Any:
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2)), 3)
    opts = {p: T.optim.SGD([p], lr=0.1) for p in model.parameters()}
    order = []

    def hook(p):
        order.append(tuple(p.shape))
        opts[p].step()
        opts[p].zero_grad()

    names = {p: n for n, p in model.named_parameters()}
    for p in model.parameters():
        p.register_post_accumulate_grad_hook(hook)
    x = _t(T, 5, 3)
    for _ in range(2):
        model(x).pow(2).sum().backward()
    return {
        "order": order,
        "params": [(names[p], p) for p in model.parameters()],
        "grads": [p.grad for p in model.parameters()],
    }


@program()
def prog_tut_ag_node_hooks_and_prehooks(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.sin()
    z = y * 2

    def c(gs):
        return [None if g is None else g.clone() for g in gs]

    h = z.grad_fn.register_hook(lambda gi, go: log.append(("post", c(gi), c(go))))
    z.grad_fn.register_prehook(lambda go: (log.append("pre"), (go[0] * 10,))[1])
    y.grad_fn.register_hook(lambda gi, go: log.append(("sin", c(gi))))
    z.sum().backward(retain_graph=True)
    h.remove()
    z.sum().backward()
    return {"log": log, "g": x.grad}


@program()
def prog_tut_ag_multi_grad_hook(T: Any) -> Any:
    log = []
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0], requires_grad=True)
    c = T.tensor([4.0], requires_grad=True)

    def hook(grads):
        log.append([None if g is None else g.clone() for g in grads])

    T.autograd.graph.register_multi_grad_hook((a, b, c), hook)
    (a.sum() * b).sum().backward()
    anyh = []
    T.autograd.graph.register_multi_grad_hook((a, b), lambda g: anyh.append(g.clone()), mode="any")
    (a * 2).sum().backward()
    return {"log": log, "any": anyh}


@program()
def prog_tut_ag_visualizing_gradients_layer_norms(T: Any) -> Any:
    T.manual_seed(0)
    layers = []
    for _ in range(4):
        layers += [T.nn.Linear(6, 6), T.nn.BatchNorm1d(6), T.nn.Sigmoid()]
    model = T.nn.Sequential(*layers, T.nn.Linear(6, 2))
    x = T.randn(8, 6)
    target = T.tensor([0, 1, 1, 0, 1, 0, 0, 1])
    outs = {}

    def save(name):
        def hook(mod, inp, out):
            out.retain_grad()
            outs[name] = out

        return hook

    for i, m in enumerate(model):
        if isinstance(m, T.nn.Sigmoid):
            m.register_forward_hook(save(f"sig{i}"))
    loss = T.nn.functional.cross_entropy(model(x), target)
    loss.backward()
    return {
        "loss": loss,
        "norms": {k: v.grad.norm() for k, v in outs.items()},
        "weight_norms": [
            (n, p.grad.norm()) for n, p in model.named_parameters() if n.endswith("weight")
        ],
    }


@program()
def prog_tut_ag_module_full_backward_hook(T: Any) -> Any:
    log = []
    lin = _seeded(T, T.nn.Linear(3, 2), 1)

    def hook(m, gin, gout):
        log.append(("bw", [None if g is None else g.clone() for g in gin], gout[0].clone()))

    def pre(m, gout):
        log.append(("pre", gout[0].clone()))
        return (gout[0] * 0.5,)

    lin.register_full_backward_hook(hook)
    lin.register_full_backward_pre_hook(pre)
    x = _t(T, 2, 3, rg=True)
    lin(x).sum().backward()
    return {"log": log, "x.grad": x.grad, "w.grad": lin.weight.grad}


# --- in-place and version counters -------------------------------------------------------------


@program()
def prog_tut_ag_inplace_on_saved_output(T: Any) -> Any:
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    a = x.sigmoid()
    a.mul_(2)
    e1 = raises(lambda: a.sum().backward())
    b = x.exp()
    c = b * 1
    b.add_(1)
    e2 = raises(lambda: c.sum().backward())
    d = x * 1
    dd = d.pow(2)
    d[0] = 0.0
    e3 = raises(lambda: dd.sum().backward())
    return {"e1": e1, "e2_ok": e2, "x.grad": x.grad, "e3": e3, "v": (a._version, d._version)}


@program()
def prog_tut_ag_inplace_view_and_relu_(T: Any) -> Any:
    x = T.tensor([[0.5, -1.0], [2.0, -3.0]], requires_grad=True)
    y = x * 2
    v = y[0]
    v.relu_()
    z = y.sum()
    z.backward()
    w = x.t().clone()
    col = w[:, 1]
    col.mul_(3)
    w.sum().backward()
    return {
        "y": y,
        "yfn": (type(y.grad_fn).__name__, type(v.grad_fn).__name__),
        "g": x.grad,
        "w": (type(w.grad_fn).__name__, type(col.grad_fn).__name__),
        "view_of_leaf": raises(lambda: T.ones(2, requires_grad=True)[0].mul_(2)),
    }


@program()
def prog_tut_ag_allow_mutation_on_saved(T: Any) -> Any:
    ctx = T.autograd.graph.allow_mutation_on_saved_tensors
    with ctx():
        x = T.tensor([0.5, 1.0, 2.0], requires_grad=True)
        y = x.clone()
        z = y.sin()
        y.mul_(3)
        z.sum().backward()
        g = x.grad.clone()
    x2 = T.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y2 = x2.clone()
    z2 = y2.sin()
    y2.mul_(3)
    return {"g": g, "y": y, "plain": raises(lambda: z2.sum().backward())}


@program()
def prog_tut_ag_data_vs_detach_mutation(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.data.mul_(0)
    y.sum().backward()
    g_data = x.grad.clone()
    x.grad = None
    y2 = x.exp()
    y2.detach().zero_()
    return {
        "g_data": g_data,
        "versions": (y._version, y2._version),
        "detach_err": raises(lambda: y2.sum().backward()),
    }


# --- custom Function ctx features ------------------------------------------------------------


@program()
def prog_tut_ag_mark_dirty_inplace_function(T: Any) -> Any:
    class AddOne_(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    out = AddOne_.apply(b)
    same = out is b
    out.sum().backward()
    leaf = raises(lambda: AddOne_.apply(T.ones(2, requires_grad=True)))
    with T.no_grad():
        nog = AddOne_.apply(T.ones(2))
    c = a * 3
    d = c.view(2)
    e = AddOne_.apply(d)
    e.sum().backward()
    return {
        "same": same,
        "b": (b, type(b.grad_fn).__name__, b._version),
        "g": a.grad,
        "leaf": leaf,
        "nog": nog,
        "view": (type(c.grad_fn).__name__, type(e.grad_fn).__name__),
    }


@program()
def prog_tut_ag_mark_dirty_missing_and_wrong(T: Any) -> Any:
    class Sneaky(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class DirtyNotReturned(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    out = Sneaky.apply(b)
    info = (out is b, type(out.grad_fn).__name__, type(b.grad_fn).__name__, b._version)
    out.sum().backward()
    c = a * 1
    return {"info": info, "g": a.grad, "dirty": raises(lambda: DirtyNotReturned.apply(c))}


@program()
def prog_tut_ag_mark_non_differentiable_sort(T: Any) -> Any:
    seen = []

    class SortFn(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            vals, idx = x.sort()
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(x, idx)
            return vals, idx

        @staticmethod
        def backward(ctx, g1, g2):
            x, idx = ctx.saved_tensors
            seen.append(g2)
            gi = T.zeros_like(x)
            gi.index_add_(0, idx, g1)
            return gi

    x = T.tensor([3.0, 1.0, 2.0], requires_grad=True)
    vals, idx = SortFn.apply(x)
    (vals * T.tensor([1.0, 2.0, 3.0])).sum().backward()
    return {
        "vals": vals,
        "idx": (idx, idx.requires_grad, idx.grad_fn),
        "g": x.grad,
        "seen": seen,
        "err": raises(lambda: idx.float().sum().backward()),
    }


@program()
def prog_tut_ag_set_materialize_grads(T: Any) -> Any:
    seen = []

    def mk(materialize):
        class Split(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return x.clone(), x.clone()

            @staticmethod
            def backward(ctx, g1, g2):
                seen.append((materialize, g1, g2))
                out = T.zeros(2)
                if g1 is not None:
                    out = out + g1
                if g2 is not None:
                    out = out + 2 * g2
                return out

        return Split

    res = {}
    for m in (True, False):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        a, _b = mk(m).apply(x)
        a.sum().backward()
        res[m] = x.grad
    return {"res": res, "seen": seen}


@program()
def prog_tut_ag_needs_input_grad_and_none_returns(T: Any) -> Any:
    seen = []

    class Lin(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, b=None):
            ctx.save_for_backward(x, w, b)
            out = x.mm(w.t())
            if b is not None:
                out += b.unsqueeze(0).expand_as(out)
            return out

        @staticmethod
        def backward(ctx, g):
            x, w, b = ctx.saved_tensors
            seen.append(ctx.needs_input_grad)
            gx = gw = gb = None
            if ctx.needs_input_grad[0]:
                gx = g.mm(w)
            if ctx.needs_input_grad[1]:
                gw = g.t().mm(x)
            if b is not None and ctx.needs_input_grad[2]:
                gb = g.sum(0)
            return gx, gw, gb

    x = _d(T, 4, 3, rg=False)
    w = _d(T, 2, 3, seed=1)
    b = _d(T, 2, seed=2)
    Lin.apply(x, w, b).sum().backward()
    Lin.apply(x, w).sum().backward()
    gc = T.autograd.gradcheck(Lin.apply, (x.clone().requires_grad_(), w, b))
    return {"seen": seen[:2], "w": w.grad, "b": b.grad, "gc": gc}


@program()
def prog_tut_ag_function_misuse(T: Any) -> Any:
    class NoStatic(T.autograd.Function):
        def forward(self, x):
            return x * 2

        def backward(self, g):
            return g * 2

    class NoBackward(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    class SaveNonTensor(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.ones(2, requires_grad=True)
    return {
        "legacy": raises(lambda: NoStatic()(x)),
        "legacy_apply": raises(lambda: NoStatic.apply(x)),
        "no_backward": raises(lambda: NoBackward.apply(x).sum().backward()),
        "save_int": raises(lambda: SaveNonTensor.apply(x)),
        "direct_forward": raises(lambda: T.autograd.Function.forward(None, x)),
    }


@program()
def prog_tut_ag_saved_tensors_after_backward(T: Any) -> Any:
    holder = {}

    class Keep(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            holder["ctx"] = ctx
            return x * 2

        @staticmethod
        def backward(ctx, g):
            (x1,) = ctx.saved_tensors
            (x2,) = ctx.saved_tensors
            return g * 2 + 0 * x2 + 0 * x1

    x = T.ones(2, requires_grad=True)
    y = Keep.apply(x)
    before = holder["ctx"].saved_tensors
    y.sum().backward()
    after = raises(lambda: holder["ctx"].saved_tensors)
    again = raises(lambda: y.sum().backward())
    return {"before": before, "after": after, "again": again, "g": x.grad}


@program()
def prog_tut_ag_function_returns_input_and_view(T: Any) -> Any:
    class Ident(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    class ViewFn(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(2, 2) * 7

    a = T.ones(2, 2, requires_grad=True)
    out = Ident.apply(a)
    info = (out is a, out.is_leaf, type(out.grad_fn).__name__)
    out.sum().backward()
    g1 = a.grad.clone()
    a.grad = None
    b = a * 1
    v = ViewFn.apply(b)
    vinfo = (v._base is b, type(v.grad_fn).__name__)
    v.sum().backward()
    return {"info": info, "g1": g1, "vinfo": vinfo, "g2": a.grad, "mod": raises(lambda: v.add_(1))}


# --- anomaly detection and inference mode ----------------------------------------------------


@program(warnings=False)  # anomaly mode warns with the forward's traceback (file paths differ)
def prog_tut_ag_detect_anomaly_nan_backward(T: Any) -> Any:
    x = T.tensor([0.0, 1.0], requires_grad=True)

    def run():
        with T.autograd.detect_anomaly():
            y = x.sqrt()
            z = (y * 0).sum()
            z.backward()

    e = raises(run)
    with T.autograd.set_detect_anomaly(True):
        flag = T.is_anomaly_enabled()
    x2 = T.tensor([0.0, 1.0], requires_grad=True)
    (x2.sqrt() * 0).sum().backward()
    return {"e": e, "flag": (flag, T.is_anomaly_enabled()), "plain": x2.grad}


@program(warnings=False)  # anomaly mode warns with the forward's traceback (file paths differ)
def prog_tut_ag_detect_anomaly_custom_function_nan(T: Any) -> Any:
    class BadGrad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    x = T.ones(2, requires_grad=True)

    def run():
        with T.autograd.detect_anomaly(check_nan=True):
            BadGrad.apply(x).sum().backward()

    def run_nocheck():
        with T.autograd.detect_anomaly(check_nan=False):
            BadGrad.apply(x).sum().backward()
        return x.grad

    return {"e": raises(run), "nocheck": raises(run_nocheck)}


@program()
def prog_tut_ag_inference_mode_tensors(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    with T.inference_mode():
        x = T.ones(3) * 2
        y = w * 2
        inner = (T.is_inference_mode_enabled(), x.is_inference(), y.requires_grad)
    e_save = raises(lambda: (w * x).sum().backward())
    e_inplace = raises(lambda: x.add_(1))
    ok_add = (w + x).sum()
    ok_add.backward()
    cl = x.clone()
    return {
        "inner": inner,
        "outer": (T.is_inference_mode_enabled(), x.is_inference(), cl.is_inference()),
        "e_save": e_save,
        "e_inplace": e_inplace,
        "g": w.grad,
        "rg": raises(lambda: x.requires_grad_()),
        "version": raises(lambda: x._version),
    }


@program()
def prog_tut_ag_inference_mode_decorator_and_disabled(T: Any) -> Any:
    model = _seeded(T, T.nn.Linear(3, 2), 4)

    @T.inference_mode()
    def predict(x):
        return model(x)

    x = _t(T, 2, 3)
    p = predict(x)
    with T.inference_mode(mode=False):
        q = model(x)
    with T.inference_mode(), T.inference_mode(False):
        r = model(x)
        r_inf = r.is_inference()
    return {
        "p": (p.clone(), p.is_inference(), p.requires_grad),
        "q": (q.is_inference(), q.requires_grad),
        "r": (r_inf, r.requires_grad),
        "saved_pred": raises(lambda: (model(x) * p).sum().backward()),
        "unsaved_pred": ((model(x) - p).sum().backward(), model.bias.grad),
    }


# --- higher-order gradients ------------------------------------------------------------------


@program()
def prog_tut_ag_gradient_penalty(T: Any) -> Any:
    critic = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 5), T.nn.Tanh(), T.nn.Linear(5, 1)), 6)
    real = _t(T, 4, 3)
    fake = _t(T, 4, 3, seed=1)
    alpha = T.tensor(np.linspace(0.1, 0.9, 4, dtype=np.float32)).view(4, 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    (grads,) = T.autograd.grad(
        outputs=out,
        inputs=interp,
        grad_outputs=T.ones_like(out),
        create_graph=True,
        retain_graph=True,
    )
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    gp.backward()
    return {
        "grads": grads,
        "gp": gp,
        "fn": type(grads.grad_fn).__name__,
        "wgrads": [p.grad for p in critic.parameters()],
        "interp": interp.grad,
    }


@program()
def prog_tut_ag_hessian_vector_double_backward(T: Any) -> Any:
    x = _d(T, 3)
    v = _d(T, 3, seed=1, rg=False)
    f = (x.sin() * x.pow(2)).sum()
    (g,) = T.autograd.grad(f, x, create_graph=True)
    (hv,) = T.autograd.grad(g, x, v, retain_graph=True)
    H = T.autograd.functional.hessian(lambda a: (a.sin() * a.pow(2)).sum(), x.detach())
    (g3,) = T.autograd.grad((g * v).sum(), x, create_graph=True)
    return {
        "g": g,
        "hv": hv,
        "check": T.allclose(hv, H @ v),
        "g3": (g3.requires_grad, _names(g3.grad_fn, 2)),
        "third": T.autograd.grad(g3.sum(), x)[0],
    }


@program()
def prog_tut_ag_create_graph_backward_warning(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x**3).sum()
    y.backward(create_graph=True)
    g = x.grad
    info = (g.requires_grad, type(g.grad_fn).__name__)
    x.grad = None
    (g2,) = T.autograd.grad((x**3).sum(), x, create_graph=True)
    g2.sum().backward()
    return {"info": info, "g": g, "gg": x.grad}


@program()
def prog_tut_ag_grad_allow_unused_and_materialize(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    u = T.tensor([3.0], requires_grad=True)
    y = (x * 2).sum()
    return {
        "unused": raises(lambda: T.autograd.grad(y, (x, u), retain_graph=True)),
        "allow": T.autograd.grad(y, (x, u), allow_unused=True, retain_graph=True),
        "mat": T.autograd.grad(y, (x, u), materialize_grads=True, retain_graph=True),
        "mat_no_allow": raises(
            lambda: T.autograd.grad(y, (x, u), allow_unused=False, materialize_grads=True)
        ),
    }


@program()
def prog_tut_ag_backward_inputs_argument(T: Any) -> Any:
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    d = (c * c).sum()
    d.backward(inputs=[a], retain_graph=True)
    ga = a.grad.clone()
    bg = b.grad
    d.backward(inputs=[c], retain_graph=True)
    cg = c.grad
    T.autograd.backward([d], inputs=[b])
    return {
        "ga": ga,
        "bg": bg,
        "cg": cg,
        "b": b.grad,
        "empty": raises(lambda: (a * 2).sum().backward(inputs=[])),
    }


@program()
def prog_tut_ag_grad_is_grads_batched_jacobian(T: Any) -> Any:
    x = _t(T, 3, rg=True)
    y = x.exp() * 2
    eye = T.eye(3)
    (jac,) = T.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True)
    rows = [T.autograd.grad(y, x, eye[i], retain_graph=True)[0] for i in range(3)]
    return {"jac": jac, "rows": T.stack(rows), "same": T.allclose(jac, T.stack(rows))}


@program()
def prog_tut_ag_no_grad_leaf_update_patterns(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    loss.backward()
    e_direct = raises(lambda: w.sub_(0.1 * w.grad))
    with T.no_grad():
        w -= 0.1 * w.grad
    w_after = (w.clone(), w.is_leaf, w.requires_grad, w._version)
    w2 = T.tensor([1.0, 2.0], requires_grad=True)
    w2 = w2 - 0.1  # rebinding makes a non-leaf
    (w2 * w2).sum().backward()
    return {"e": e_direct, "w": w_after, "w2": (w2.is_leaf, w2.grad)}


@program()
def prog_tut_ag_grad_set_manually_errors(T: Any) -> Any:
    w = T.ones(2, 2, requires_grad=True)
    ok = T.zeros(2, 2)
    w.grad = ok
    same = w.grad is ok
    return {
        "same": same,
        "shape": raises(lambda: setattr(w, "grad", T.zeros(3))),
        "dtype": raises(lambda: setattr(w, "grad", T.zeros(2, 2, dtype=T.float64))),
        "type": raises(lambda: setattr(w, "grad", [1.0])),
        "after": w.grad,
    }


@program()
def prog_tut_ag_get_gradient_edge_and_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    out = (h * 3).sum()
    edge = T.autograd.graph.get_gradient_edge(h)
    (gh,) = T.autograd.grad(out, edge, retain_graph=True)
    (gx,) = T.autograd.grad(out, x)
    return {"gh": gh, "gx": gx, "node": type(edge.node).__name__, "nr": edge.output_nr}


@program()
def prog_tut_ag_grad_fn_metadata_and_name(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.sum(dim=1, keepdim=True)
    z = y.expand(2, 3)
    fn = z.grad_fn
    fn.metadata["tag"] = "mine"
    acc = x.view_as(x).grad_fn.next_functions[0][0]
    return {
        "names": (y.grad_fn.name(), fn.name(), acc.name()),
        "meta": dict(fn.metadata),
        "var_is_x": acc.variable is x,
        "sum_dims": (
            y.grad_fn._saved_dim,
            y.grad_fn._saved_keepdim,
            y.grad_fn._saved_self_sym_sizes,
        ),
        "expand": z.grad_fn._saved_self_sym_sizes,
    }


# --- more variations: forward-over-reverse, saved attributes, grad-mode switches ----------------


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_over_reverse_hvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    p = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    v = T.tensor([1.0, 0.5, -0.25])

    def f(x):
        return (x.sin() * x * x).sum() + (x * 2.0).pow(2).sum()

    with fwAD.dual_level():
        x = fwAD.make_dual(p, v)
        (g,) = T.autograd.grad(f(x), x, create_graph=True)
        hvp = fwAD.unpack_dual(g).tangent
        primal = fwAD.unpack_dual(g).primal
    H = T.autograd.functional.hessian(f, p.detach())
    return {
        "hvp": hvp,
        "primal": primal,
        "ref": H @ v,
        "rg": (hvp.requires_grad, primal.requires_grad),
    }


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_tangent_requires_grad_products(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    w = T.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
    b = T.tensor([0.5, -0.5], requires_grad=True)
    x = T.tensor([[0.25, 0.75]])
    out = {}
    with fwAD.dual_level():
        dw = fwAD.make_dual(w, T.ones(2, 2))
        db = fwAD.make_dual(b.detach(), T.ones(2))
        for name, y in (
            ("scaled", dw * 2),
            ("times_const", x * dw),
            ("mm", x.mm(dw)),
            ("mm_right", dw.mm(x.t())),
            ("mv", dw.mv(b)),
            ("mv_dual_vec", w.mv(db)),
            ("dot", T.dot(b, db)),
            ("bmm", dw.unsqueeze(0).bmm(w.unsqueeze(0))),
            ("mul_both", dw * db),
        ):
            t = fwAD.unpack_dual(y).tangent
            out[name] = (t, t.requires_grad, type(t.grad_fn).__name__ if t.grad_fn else None)
        t = fwAD.unpack_dual(dw * 3.0).tangent
        t.sum().backward()
    return {"out": out, "w.grad": w.grad}


@program()
def prog_tut_ag_saved_attributes_of_common_ops(T: Any) -> Any:
    x = T.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    sm = x.softmax(dim=1)
    mx = x.max(dim=1)
    cat = T.cat([x, x * 2], dim=0)
    mean = x.mean(dim=0)
    cl = x.clamp(min=-1.0, max=2.0)
    idx = x[:, 1]
    tr = x.transpose(0, 1)
    rs = x.reshape(3, 2)
    return {
        "softmax": (sm.grad_fn._saved_dim, sm.grad_fn._saved_result),
        "max": (mx.values.grad_fn._saved_dim, mx.values.grad_fn._saved_keepdim),
        "max_idx": mx.values.grad_fn._saved_indices,
        "cat": type(cat.grad_fn).__name__,
        "mean": (mean.grad_fn._saved_dim, mean.grad_fn._saved_keepdim),
        "clamp": (cl.grad_fn._saved_min, cl.grad_fn._saved_max),
        "select": (idx.grad_fn._saved_dim, idx.grad_fn._saved_index),
        "transpose": (tr.grad_fn._saved_dim0, tr.grad_fn._saved_dim1),
        "reshape": (type(rs.grad_fn).__name__, rs.grad_fn._saved_self_sym_sizes),
    }


@program()
def prog_tut_ag_saved_hooks_with_custom_function(T: Any) -> Any:
    log = []

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * g * x**2

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t.clone()

    def unpack(t):
        log.append(("unpack", tuple(t.shape)))
        return t

    x = _t(T, 4, rg=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = Cube.apply(x)
        z = y.sin()
    z.sum().backward()
    return {"log": log, "g": x.grad}


@program()
def prog_tut_ag_saved_hooks_recompute_checkpoint(T: Any) -> Any:
    """A user-written "save nothing, keep the index" pack hook, as the tutorial suggests."""
    calls = {"pack": 0, "unpack": 0}
    store = {}

    def pack(t):
        calls["pack"] += 1
        k = len(store)
        store[k] = t.detach().clone()
        return k

    def unpack(k):
        calls["unpack"] += 1
        return store[k]

    model = _seeded(T, T.nn.Sequential(T.nn.Linear(4, 5), T.nn.Tanh(), T.nn.Linear(5, 1)), 8)
    x = _t(T, 3, 4)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = model(x).pow(2).mean()
    loss.backward()
    return {"calls": calls, "n": len(store), "grads": [p.grad for p in model.parameters()]}


@program()
def prog_tut_ag_requires_grad_flag_errors(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    y = x * 2

    def set_false():
        y.requires_grad = False

    def detach_view():
        v = x[:1]
        v.detach_()

    return {
        "set_false": raises(set_false),
        "set_true_nonleaf": raises(lambda: setattr(y, "requires_grad", True)),
        "detach_view": raises(detach_view),
        "int_flag": raises(lambda: setattr(T.ones(2, dtype=T.long), "requires_grad", True)),
        "argmax": (x.argmax().requires_grad, (x > 0).requires_grad, x.sign().requires_grad),
        "one_element": (x[:1] * 3).backward() or x.grad,
    }


@program()
def prog_tut_ag_hook_changes_type_or_shape(T: Any) -> Any:
    def run(hook):
        x = T.ones(3, requires_grad=True)
        y = x * 2
        y.register_hook(hook)
        y.sum().backward()
        return x.grad

    return {
        "double": raises(lambda: run(lambda g: g.double())),
        "shape": raises(lambda: run(lambda g: g[:2])),
        "none": run(lambda g: None),
        "scaled": run(lambda g: g * 10),
        "leaf_double": raises(
            lambda: (
                (x := T.ones(2, requires_grad=True)).register_hook(lambda g: g.double()),
                (x * 1).sum().backward(),
            )
        ),
    }


@program()
def prog_tut_ag_grad_mode_switches(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    states = []
    with T.no_grad():
        states.append(T.is_grad_enabled())
        with T.enable_grad():
            a = x * 2
            states.append(T.is_grad_enabled())
        b = x * 2

    @T.enable_grad()
    def inside(t):
        return t * 3

    with T.no_grad():
        c = inside(x)
    T.set_grad_enabled(False)
    d = x * 4
    states.append(T.is_grad_enabled())
    T.set_grad_enabled(True)
    e = x * 5

    @T.no_grad()
    def gen():
        yield x * 6
        yield x * 7

    gs = [g.requires_grad for g in gen()]
    return {
        "flags": (a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad),
        "e": e.requires_grad,
        "states": states,
        "gen": gs,
        "mode": T.is_grad_enabled(),
    }


@program()
def prog_tut_ag_noncontiguous_leaf_grad_layout(T: Any) -> Any:
    base = T.tensor(_data(3, 4))
    w = base.t().detach().requires_grad_()
    (w * T.arange(3.0)).sum().backward()
    e = T.ones(1, 3, requires_grad=True)
    e.expand(4, 3).sum().backward()
    return {
        "w.grad": w.grad,
        "strides": (w.stride(), w.grad.stride(), w.grad.is_contiguous()),
        "e.grad": (e.grad, e.grad.stride()),
    }


@program()
def prog_tut_ag_data_assignment_and_shape_change(T: Any) -> Any:
    w = T.ones(2, 3, requires_grad=True)
    w.data = T.zeros(4)
    info = (w.shape, w.requires_grad, w.is_leaf)
    (w * 2).sum().backward()
    return {
        "info": info,
        "g": w.grad,
        "bad_type": raises(lambda: setattr(w, "data", [1.0, 2.0])),
    }


@program()
def prog_tut_ag_autograd_backward_lists(T: Any) -> Any:
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0], requires_grad=True)
    y1 = a * b
    y2 = (a**2).sum()
    T.autograd.backward([y1, y2], [T.tensor([1.0, -1.0]), None])
    g = (a.grad.clone(), b.grad.clone())
    e = raises(lambda: T.autograd.backward([a * 2, a.sum()], [None, None]))
    e2 = raises(lambda: T.autograd.backward([a * 2], [T.ones(2), T.ones(2)]))
    return {"g": g, "e": e, "e2": e2}


@program()
def prog_tut_ag_grad_outputs_and_retain(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    z = y.sum()
    g1 = T.autograd.grad([y, z], [x], [T.ones(3) * 0.5, T.tensor(2.0)], retain_graph=True)
    g2 = T.autograd.grad(z, [x, y], retain_graph=False)
    e = raises(lambda: T.autograd.grad(z, x))
    e_len = raises(lambda: T.autograd.grad([y, z], x, [T.ones(3)]))
    e_shape = raises(lambda: T.autograd.grad(y * 1, x, T.ones(4)))
    return {"g1": g1, "g2": g2, "e": e, "e_len": e_len, "e_shape": e_shape}


@program()
def prog_tut_ag_function_kwargs_and_nontensor_outputs(T: Any) -> Any:
    class Scale(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, factor=2.0, tag="t"):
            ctx.factor = factor
            return x * factor, tag, 7

        @staticmethod
        def backward(ctx, g, _g_tag, _g_int):
            return g * ctx.factor, None, None

    x = T.ones(2, requires_grad=True)
    y, tag, n = Scale.apply(x, 3.0)
    y.sum().backward()
    kw = raises(lambda: Scale.apply(x, factor=4.0))
    return {"y": y, "tag": tag, "n": n, "g": x.grad, "kw": kw}


@program()
def prog_tut_ag_function_too_many_grads_and_none_ok(T: Any) -> Any:
    class TooMany(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    class ExtraNonNone(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, g

    class GradForNonTensor(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, g.sum()

    x = T.ones(2, requires_grad=True)
    TooMany.apply(x).sum().backward()
    return {
        "g": x.grad,
        "extra": raises(lambda: ExtraNonNone.apply(x).sum().backward()),
        "nontensor": raises(lambda: GradForNonTensor.apply(x, 3.0).sum().backward()),
    }


@program()
def prog_tut_ag_function_vmap_generate_rule(T: Any) -> Any:
    class MyCube(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x**3, 3 * x**2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output[1])

        @staticmethod
        def backward(ctx, g, dg):
            x, dx = ctx.saved_tensors
            return g * dx + dg * 6 * x

    x = _t(T, 3, 2)
    y = T.func.vmap(lambda a: MyCube.apply(a)[0])(x)
    g = T.func.grad(lambda a: MyCube.apply(a)[0].sum())(x)
    gg = T.func.grad(lambda a: T.func.grad(lambda b: MyCube.apply(b)[0].sum())(a).sum())(x)
    jac = T.func.vmap(T.func.jacrev(lambda a: MyCube.apply(a)[0]))(x)
    return {"y": y, "g": g, "gg": gg, "jac": jac}


@program()
def prog_tut_ag_once_differentiable_with_materialize(T: Any) -> Any:
    seen = []

    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(x)
            return x * 2, x * 3

        @staticmethod
        @T.autograd.function.once_differentiable
        def backward(ctx, g1, g2):
            seen.append((g1 is None, g2 is None))
            (x,) = ctx.saved_tensors
            out = T.zeros_like(x)
            if g1 is not None:
                out = out + 2 * g1
            if g2 is not None:
                out = out + 3 * g2
            return out

    x = _d(T, 3)
    a, b = Two.apply(x)
    (ga,) = T.autograd.grad(b.sum(), x, retain_graph=True)
    (gb,) = T.autograd.grad(a.sum() + b.sum(), x)
    undefined = _gc(lambda: T.autograd.gradcheck(lambda t: Two.apply(t)[0], x))
    return {"seen": seen[:2], "ga": ga, "gb": gb, "gc": undefined}


@program()
def prog_tut_ag_gradcheck_undefined_grad_failure(T: Any) -> Any:
    class NoNone(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return 2 * g1 + 3 * g2

    x = _d(T, 3)
    return {
        "gc": _gc(lambda: T.autograd.gradcheck(NoNone.apply, x)),
        "no_undef": raises(
            lambda: T.autograd.gradcheck(NoNone.apply, x, check_undefined_grad=False)
        ),
    }


@program()
def prog_tut_ag_gradcheck_integer_outputs_and_nondiff(T: Any) -> Any:
    def f(x):
        v, i = x.sort()
        return v * 2, i

    def g(x, k):
        return x.pow(k)

    x = _d(T, 4)
    return {
        "sort": T.autograd.gradcheck(f, x),
        "kwarg_style": T.autograd.gradcheck(lambda t: g(t, 3), x),
        "nondet_inputs": T.autograd.gradcheck(g, (x, 2)),
        "ggc": T.autograd.gradgradcheck(
            lambda t: t.tanh() * t, x, gen_non_contig_grad_outputs=True
        ),
        "ggc_outputs": T.autograd.gradgradcheck(
            lambda t: (t.sin(), t.cos()), (x,), (_d(T, 4, seed=2), _d(T, 4, seed=3))
        ),
    }


@program()
def prog_tut_ag_functional_vectorized_and_forward_strategies(T: Any) -> Any:
    F = T.autograd.functional

    def f(x, y):
        return (x.exp() * y).sum(0), x * y.sin()

    x = _t(T, 3, 2)
    y = _t(T, 3, 2, seed=1)
    j1 = F.jacobian(f, (x, y))
    j2 = F.jacobian(f, (x, y), vectorize=True)
    j3 = F.jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
    h1 = F.hessian(lambda a: (a.exp() * a).sum(), x)
    h2 = F.hessian(
        lambda a: (a.exp() * a).sum(), x, vectorize=True, outer_jacobian_strategy="forward-mode"
    )
    bad = raises(lambda: F.jacobian(f, (x, y), strategy="forward-mode"))
    return {"j1": j1, "j2": j2, "j3": j3, "h1": h1, "h2": h2, "bad": bad}


@program()
def prog_tut_ag_anomaly_nan_in_second_output(T: Any) -> Any:
    x = T.tensor([1.0, 0.0], requires_grad=True)
    w = T.tensor([0.0, 2.0], requires_grad=True)

    def run():
        with T.autograd.detect_anomaly():
            y = x * w.sqrt()
            y.sum().backward()

    def ok():
        with T.autograd.detect_anomaly():
            (x * 2).sum().backward()
        return x.grad

    return {"e": raises(run), "ok": ok()}


@program()
def prog_tut_ag_inplace_relu_after_hooked_module(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 3), 2)
    log = []
    lin.register_full_backward_hook(lambda m, gi, go: log.append(go[0].clone()))
    x = _t(T, 2, 3, rg=True)
    e = raises(lambda: T.nn.ReLU(inplace=True)(lin(x)))
    out = T.nn.ReLU()(lin(x))
    out.sum().backward()
    return {"e": e, "log": log, "g": x.grad, "fn": type(lin(x).grad_fn).__name__}


@program()
def prog_tut_ag_forward_pre_hook_and_forward_hook_modify(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 3)
    h1 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 2,))
    h2 = lin.register_forward_hook(lambda m, inp, out: out + 1)
    x = T.tensor([[1.0, -1.0]], requires_grad=True)
    y = lin(x)
    y.sum().backward()
    g = x.grad.clone()
    h1.remove()
    h2.remove()
    x.grad = None
    y2 = lin(x)
    y2.sum().backward()
    return {"y": y, "g": g, "y2": y2, "g2": x.grad, "fns": _names(y.grad_fn, 3)}


@program()
def prog_tut_ag_leaf_used_twice_and_shared_hooks(T: Any) -> Any:
    calls = []
    w = T.tensor([1.0, 2.0], requires_grad=True)
    w.register_hook(lambda g: calls.append(g.clone()))
    y = (w * 3).sum() + (w**2).sum()
    y.backward(retain_graph=True)
    y.backward()
    return {"calls": calls, "g": w.grad}


@program()
def prog_tut_ag_inference_mode_views_and_nesting(T: Any) -> Any:
    base = T.ones(4)
    with T.inference_mode():
        inf = T.arange(4.0)
        v = inf[1:]
        with T.no_grad():
            nested = (T.is_inference_mode_enabled(), T.is_grad_enabled())
        w = base.view(2, 2)
        n = T.ones(2, requires_grad=True)
        m = n * 2
    return {
        "v": v.is_inference(),
        "nested": nested,
        "w": (w.is_inference(), w.requires_grad),
        "m": (m.requires_grad, m.is_inference(), m.grad_fn),
        "mix": raises(lambda: base.add_(inf)),
        "mix2": raises(lambda: inf.add_(base)),
        "plain": (base + inf).is_inference(),
    }


@program()
def prog_tut_ag_two_layer_net_nn_module_manual_update(T: Any) -> Any:
    T.manual_seed(0)
    x = T.randn(8, 5)
    y = T.randn(8, 2)
    model = T.nn.Sequential(T.nn.Linear(5, 6), T.nn.ReLU(), T.nn.Linear(6, 2))
    loss_fn = T.nn.MSELoss(reduction="sum")
    hist = []
    for _ in range(3):
        loss = loss_fn(model(x), y)
        hist.append(loss.item())
        model.zero_grad()
        loss.backward()
        with T.no_grad():
            for p in model.parameters():
                p -= 1e-3 * p.grad
    return {
        "hist": hist,
        "params": list(model.parameters()),
        "leaf": [p.is_leaf for p in model.parameters()],
    }


# --- old-tutorial idioms and common mistakes ---------------------------------------------------


@program()
def prog_tut_ag_variable_wrapper_legacy(T: Any) -> Any:
    V = T.autograd.Variable
    x = V(T.ones(2, 2), requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    out.backward()
    plain = V(T.ones(2))
    vol = raises(lambda: V(T.ones(2), volatile=True))
    return {
        "types": (type(x).__name__, isinstance(x, T.Tensor), x.is_leaf, plain.requires_grad),
        "y.grad_fn": type(y.grad_fn).__name__,
        "out": out,
        "x.grad": x.grad,
        "data": x.data,
        "vol": vol,
    }


@program()
def prog_tut_ag_common_conversion_mistakes(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    return {
        "numpy": raises(lambda: w.numpy()),
        "numpy_ok": w.detach().numpy().tolist(),
        "index_0d": raises(lambda: loss.data[0]),
        "item_many": raises(lambda: w.item()),
        "item": loss.item(),
        "bool_many": raises(lambda: bool(w > 0)),
        "float": float(loss),
        "tolist": w.tolist(),
        "copy_construct": T.tensor(w).requires_grad,
        "int_grad": raises(lambda: T.tensor([1, 2]).float().requires_grad_().long().backward()),
    }


@program()
def prog_tut_ag_old_style_grad_data_zero(T: Any) -> Any:
    w = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    hist = []
    for i in range(3):
        loss = ((w * (i + 1)) ** 2).sum()
        loss.backward()
        hist.append(w.grad.clone())
        w.data -= 0.01 * w.grad.data
        w.grad.data.zero_()
    return {"hist": hist, "w": (w, w._version, w.is_leaf), "grad": (w.grad, w.grad._version)}


@program()
def prog_tut_ag_inplace_update_under_no_grad_breaks_graph(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    y = (w * w).sum()
    with T.no_grad():
        w.add_(1)
    e = raises(lambda: y.backward())
    w2 = T.tensor([1.0, 2.0], requires_grad=True)
    y2 = (w2 * 3).sum()  # mul by a number saves no tensor: no error
    with T.no_grad():
        w2.add_(1)
    y2.backward()
    return {"e": e, "g2": w2.grad, "v": (w._version, w2._version)}


@program()
def prog_tut_ag_function_saved_output_modified(T: Any) -> Any:
    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            r = x.exp()
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            (r,) = ctx.saved_tensors
            return g * r

    x = T.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    y.mul_(2)
    e = raises(lambda: y.sum().backward())
    x2 = T.tensor([0.0, 1.0], requires_grad=True)
    y2 = Exp.apply(x2)
    z = y2 * 1
    y2.add_(1)
    e2 = raises(lambda: z.sum().backward())
    return {"e": e, "fn": type(y.grad_fn).__name__, "e2": e2, "v": (y._version, y2._version)}


@program()
def prog_tut_ag_retain_grad_and_inplace(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.add_(1)
    z = (y * y).sum()
    z.backward()
    leaf = T.ones(2, requires_grad=True)
    leaf.retain_grad()
    (leaf * 3).sum().backward()
    return {
        "y.grad": y.grad,
        "x.grad": x.grad,
        "fn": type(y.grad_fn).__name__,
        "leaf": (leaf.grad, leaf.retains_grad),
        "no_rg": raises(lambda: T.ones(2).retain_grad()),
    }


@program()
def prog_tut_ag_grad_of_grad_repeated(T: Any) -> Any:
    x = T.tensor([0.3, -0.7], requires_grad=True)
    y = x.tanh()
    derivs = []
    cur = y.sum()
    for _ in range(3):
        (g,) = T.autograd.grad(cur, x, create_graph=True)
        derivs.append(g)
        cur = g.sum()
    x2 = T.tensor([0.3, -0.7], requires_grad=True)
    (x2.tanh().sum()).backward(create_graph=True)
    first = x2.grad
    x2.grad = None
    first.sum().backward()
    return {"derivs": derivs, "first": first, "second": x2.grad}


@program()
def prog_tut_ag_only_inputs_deprecated(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x**2).sum()
    return {"g": T.autograd.grad(y, x, only_inputs=True)}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_nested_levels_and_plain(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    def nested():
        with fwAD.dual_level(), fwAD.dual_level():
            pass

    x = T.ones(2)
    with fwAD.dual_level():
        p, t = fwAD.unpack_dual(x)
        d = fwAD.make_dual(x, T.full((2,), 2.0))
        y = d.view(2, 1).t()
        yt = fwAD.unpack_dual(y).tangent
        z = d.clone()
        z.mul_(3)
        zt = fwAD.unpack_dual(z).tangent
        inplace_plain = T.zeros(2)
        inplace_plain.add_(d)
        ipt = fwAD.unpack_dual(inplace_plain).tangent
    return {
        "nested": raises(nested),
        "plain": (p is x, t),
        "view": yt,
        "inplace": zt,
        "into_plain": ipt,
    }


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_through_nn_layers(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    F = T.nn.functional
    x = _d(T, 3, 4, rg=False)
    t = _d(T, 3, 4, seed=1, rg=False)
    w = _d(T, 4, seed=2, rg=False)
    out = {}
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        for name, f in (
            ("relu", F.relu),
            ("gelu", F.gelu),
            ("softmax", lambda a: F.softmax(a, dim=1)),
            ("log_softmax", lambda a: F.log_softmax(a, dim=0)),
            ("layer_norm", lambda a: F.layer_norm(a, (4,), weight=w)),
            ("tanh_sigmoid", lambda a: a.tanh() * a.sigmoid()),
            ("norm", lambda a: a.norm(dim=1)),
            ("logsumexp", lambda a: a.logsumexp(dim=1)),
        ):
            out[name] = fwAD.unpack_dual(f(d)).tangent
    return out


@program()
def prog_tut_ag_func_hessian_matches_functional(T: Any) -> Any:
    def f(x):
        return (x.sin() * x.cos().exp()).sum()

    x = _d(T, 3, rg=False)
    h1 = T.func.hessian(f)(x)
    h2 = T.autograd.functional.hessian(f, x)
    h3 = T.func.jacfwd(T.func.jacrev(f))(x)
    return {"h1": h1, "h2": h2, "h3": h3}


@program()
def prog_tut_ag_node_hook_replaces_grad_inputs(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, gi[1] * 10))
    y.sum().backward()
    acc = x.grad_fn if x.grad_fn is not None else y.grad_fn.next_functions[0][0]
    return {
        "x.grad": x.grad,
        "w.grad": w.grad,
        "acc": (type(acc).__name__, acc.next_functions, acc.name()),
        "bad": raises(
            lambda: (
                (z := x * 2).grad_fn.register_hook(lambda gi, go: (gi[0], gi[0])),
                z.sum().backward(),
            )
        ),
    }


@program()
def prog_tut_ag_hooks_inside_custom_backward(T: Any) -> Any:
    log = []

    class Twice(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            log.append(("bw", T.is_grad_enabled(), g.requires_grad))
            return g * 2

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = Twice.apply(x)
    y.register_hook(lambda g: log.append(("hook", g.clone())))
    y.grad_fn.register_prehook(lambda go: log.append(("pre", go[0].clone())))
    y.sum().backward()
    x.grad = None
    (g,) = T.autograd.grad(Twice.apply(x).sum(), x, create_graph=True)
    return {"log": log, "g": (g, g.requires_grad)}


@program()
def prog_tut_ag_gradcheck_module_via_functional_call(T: Any) -> Any:
    model = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2)).double()
    _seeded(T, model, 9)
    with T.no_grad():
        for p in model.parameters():
            p.copy_(p.double())
    names = [n for n, _ in model.named_parameters()]
    params = tuple(p.detach().requires_grad_() for p in model.parameters())
    x = _d(T, 5, 3)

    def f(inp, *ps):
        return T.func.functional_call(model, dict(zip(names, ps, strict=True)), (inp,))

    return {
        "gc": T.autograd.gradcheck(f, (x, *params)),
        "ggc": T.autograd.gradgradcheck(f, (x, *params)),
        "out": f(x, *params),
    }


@program()
def prog_tut_ag_nonleaf_by_cast_mistake(T: Any) -> Any:
    T.manual_seed(0)
    w = T.randn(3, requires_grad=True).double()
    b = T.zeros(3, requires_grad=True) + 1
    loss = (w * 2).sum() + b.sum()
    loss.backward()
    p = T.nn.Parameter(T.ones(2) * 3)
    q = p * 1
    return {
        "w": (w.is_leaf, w.requires_grad, type(w.grad_fn).__name__, w.grad),
        "b": (b.is_leaf, b.grad),
        "p": (p.is_leaf, type(p).__name__, q.is_leaf),
        "opt": raises(lambda: T.optim.SGD([w], lr=0.1)),
        "param_of_rg": T.nn.Parameter(T.ones(2, requires_grad=True) * 2).is_leaf,
    }


@program()
def prog_tut_ag_jvp_by_double_vjp_trick(T: Any) -> Any:
    x = _d(T, 3)
    v = _d(T, 3, seed=1, rg=False)

    def f(a):
        return a.sin() * a.exp()

    y = f(x)
    u = T.zeros_like(y, requires_grad=True)
    (g,) = T.autograd.grad(y, x, u, create_graph=True)
    (jvp,) = T.autograd.grad(g, u, v)
    ref = T.autograd.functional.jvp(f, x.detach(), v)[1]
    return {"g": g, "g_fn": type(g.grad_fn).__name__, "jvp": jvp, "ref": ref}


@program()
def prog_tut_ag_backward_gradient_requires_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    v = T.tensor([0.5, -1.0], requires_grad=True)
    y = x**3
    y.backward(v, create_graph=True)
    gx = x.grad
    gx.sum().backward()
    return {"gx": (gx, type(gx.grad_fn).__name__), "v.grad": v.grad, "x.grad": x.grad}


@program()
def prog_tut_ag_truncated_bptt_detach(T: Any) -> Any:
    cell = _seeded(T, T.nn.RNNCell(3, 4), 12)
    head = _seeded(T, T.nn.Linear(4, 1), 13)
    opt = T.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.05)
    xs = T.tensor(_data(6, 2, 3, seed=4))
    ys = T.tensor(_data(6, 2, 1, seed=5))
    h = T.zeros(2, 4)
    losses = []
    for chunk in range(3):
        h = h.detach()
        opt.zero_grad()
        loss = 0
        for t in range(2 * chunk, 2 * chunk + 2):
            h = cell(xs[t], h)
            loss = loss + (head(h) - ys[t]).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    stale = cell(xs[0], h)
    return {
        "losses": losses,
        "h": (h.requires_grad, h.is_leaf, type(h.grad_fn).__name__),
        "w": cell.weight_hh,
        "stale": type(stale.grad_fn).__name__,
    }


@program()
def prog_tut_ag_complex_input_real_loss(T: Any) -> Any:
    z = T.tensor([1.0 + 2.0j, -0.5 + 0.25j], requires_grad=True)
    loss = (z * z.conj()).real.sum() + z.abs().sum()
    loss.backward()
    w = T.tensor([0.5 - 1.0j], requires_grad=True)
    e = raises(lambda: (w * 2).backward())
    (g,) = T.autograd.grad((w * 2).sum(), w, T.tensor(1.0 + 0.0j))
    return {"loss": loss, "z.grad": z.grad, "e": e, "g": g}


@program()
def prog_tut_ag_function_save_none_and_non_tensor_ctx(T: Any) -> Any:
    class MaybeBias(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, b):
            ctx.save_for_backward(x, b)
            ctx.shape = x.shape
            return x * 2 if b is None else x * 2 + b

        @staticmethod
        def backward(ctx, g):
            x, b = ctx.saved_tensors
            return (g * 2).reshape(x.shape), None if b is None else g.sum(0)

    x = T.ones(2, 3, requires_grad=True)
    b = T.ones(3, requires_grad=True)
    MaybeBias.apply(x, None).sum().backward()
    g1 = x.grad.clone()
    MaybeBias.apply(x, b).sum().backward()
    return {"g1": g1, "g2": x.grad, "b": b.grad}


@program()
def prog_tut_ag_custom_function_double_backward_of_saved_output(T: Any) -> Any:
    class Sigmoid(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = 1 / (1 + T.exp(-x))
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y * (1 - y)

    x = _d(T, 4)
    ok = (T.autograd.gradcheck(Sigmoid.apply, x), T.autograd.gradgradcheck(Sigmoid.apply, x))
    y = Sigmoid.apply(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    ref = T.autograd.grad(T.autograd.grad(x.sigmoid().sum(), x, create_graph=True)[0].sum(), x)
    return {"ok": ok, "g": g, "gg": gg, "ref": ref[0]}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_printed_tensors_in_tutorials(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    a = T.linspace(0.0, 1.0, steps=4, requires_grad=True)
    b = T.sin(a)
    c = b.sum()
    d = T.tensor([[1.0, 2.0]], dtype=T.float64, requires_grad=True) * 3
    out = {
        "a": repr(a),
        "b": repr(b),
        "c": str(c),
        "d": repr(d),
        "det": repr(b.detach()),
        "half": repr(T.ones(2, dtype=T.float16, requires_grad=True) * 2),
        "int": repr(a.argmax()),
        "param": repr(T.nn.Parameter(T.ones(2))),
        "grad_fn": repr(b.grad_fn).split(" object")[0],
        "next": [repr(n).split(" object")[0] for n, _ in c.grad_fn.next_functions],
    }
    with fwAD.dual_level():
        dual = fwAD.make_dual(T.ones(2), T.tensor([0.5, 1.5]))
        out["dual"] = repr(dual)
        out["dual_op"] = repr(dual * 2)
    with T.inference_mode():
        out["inf"] = repr(T.ones(2) * 2)
    return out


@program()
def prog_tut_ag_printed_custom_function_nodes(T: Any) -> Any:
    class MyReLU(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * (x > 0)

    x = T.tensor([-1.0, 2.0], requires_grad=True)
    y = MyReLU.apply(x)
    return {
        "y": repr(y),
        "name": y.grad_fn.name(),
        "type": type(y.grad_fn).__name__,
        "repr": repr(y.grad_fn).split(" object")[0].rsplit(".", 1)[-1],
        "next": [(type(n).__name__, i) for n, i in y.grad_fn.next_functions],
        "is_fn": isinstance(y.grad_fn, T.autograd.graph.Node),
        "mro_has_ctx": hasattr(y.grad_fn, "saved_tensors"),
    }


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_tangent_requires_grad_pointwise(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    a = T.tensor([1.5, 2.5], requires_grad=True)
    b = T.tensor([0.5, 3.0])
    out = {}
    with fwAD.dual_level():
        da = fwAD.make_dual(a, T.tensor([1.0, -1.0]))
        db = fwAD.make_dual(b, T.tensor([0.5, 2.0]))
        for name, y in (
            ("div_by_plain", da / b),
            ("plain_div_dual", a / db),
            ("pow", da**b),
            ("pow_exp_dual", a**db),
            ("xlogy", T.xlogy(da, b)),
            ("xlogy_other", T.xlogy(a, db)),
            ("addcmul", T.addcmul(da, da, b)),
            ("atan2", T.atan2(db, a)),
            ("fmod", T.fmod(da, b)),
        ):
            t = fwAD.unpack_dual(y).tangent
            out[name] = (t, t.requires_grad)
        loss = sum(v[0].sum() for v in out.values())
        (g,) = T.autograd.grad(loss, a)
    return {"out": out, "g": g}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_conv_tangents_differentiable(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    F = T.nn.functional
    T.manual_seed(2)
    x = T.randn(1, 2, 5, 5, requires_grad=True)
    w = T.randn(3, 2, 3, 3, requires_grad=True)
    b = T.randn(3)
    tx = T.randn(1, 2, 5, 5)
    with fwAD.dual_level():
        y = F.conv2d(fwAD.make_dual(x, tx), w, b, padding=1)
        t = fwAD.unpack_dual(y).tangent
        info = (t.requires_grad, type(t.grad_fn).__name__)
        (t * t).mean().backward()
    return {"t": t, "info": info, "x.grad": x.grad, "w.grad": w.grad}


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_tut_ag_fwd_inplace_function_jvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    def mk(inplace_jvp):
        class Scale_(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 2

            @staticmethod
            def jvp(ctx, t):
                return t.mul_(2) if inplace_jvp else t * 2

        return Scale_

    out = {}
    for flag in (True, False):
        with fwAD.dual_level():
            d = fwAD.make_dual(T.ones(2), T.tensor([1.0, 3.0]))
            fn = mk(flag)
            r = raises(lambda d=d, fn=fn: fn.apply(d))
            out[flag] = r if isinstance(r, ErrorObs) else (r, fwAD.unpack_dual(r).tangent)
    x = T.ones(2, requires_grad=True)
    y = mk(True).apply(x * 1)
    y.sum().backward()
    return {"out": out, "g": x.grad}


@program()
def prog_tut_ag_mark_dirty_non_input_warns(T: Any) -> Any:
    class Fresh(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.mark_dirty(y)
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.ones(2, requires_grad=True)
    y = Fresh.apply(x)
    y.sum().backward()
    plain = Fresh.apply(T.ones(2))
    return {"y": (y, type(y.grad_fn).__name__, y._version), "g": x.grad, "plain": plain}


@program()
def prog_tut_ag_inference_tensor_out_and_resize(T: Any) -> Any:
    n = T.tensor([1.0, 2.0])
    with T.inference_mode():
        i = T.zeros(2)
        inside = T.add(n, n, out=i).is_inference()
        j = T.zeros(2)
    e_out = raises(lambda: T.add(n, n, out=i))
    after = i.clone()
    e_mul = raises(lambda: T.mul(n, 3, out=i))
    e_resize = raises(lambda: j.resize_(3))
    same = j.resize_(3).shape
    return {
        "inside": inside,
        "e_out": e_out,
        "after": after,
        "e_mul": e_mul,
        "i": i.clone(),
        "e_resize": e_resize,
        "j": (j.shape, same),
        "normal_out": T.add(n, n, out=T.empty(2)),
    }


@program()
def prog_tut_ag_saved_hooks_see_index_and_stat_tensors(T: Any) -> Any:
    F = T.nn.functional
    x0 = T.tensor(_data(4, 3))
    out = {}
    for name, f in (
        ("max_dim", lambda a: a.max(1).values),
        ("index", lambda a: a[T.tensor([0, 2])]),
        ("layer_norm", lambda a: F.layer_norm(a, (3,))),
        ("nll", lambda a: F.nll_loss(a, T.tensor([0, 1, 2, 0]))),
    ):
        log = []

        def pack(t, log=log):
            log.append((tuple(t.shape), str(t.dtype)))
            return t

        x = x0.clone().requires_grad_()
        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            f(x)
        out[name] = sorted(log)
    return out


@program()
def prog_tut_ag_saved_dim_of_cat_and_stack(T: Any) -> Any:
    x = T.ones(2, 3, requires_grad=True)
    c = T.cat([x, x * 2], dim=1)
    s = T.stack([x, x * 2], dim=0)
    listed = [[a for a in dir(n) if a.startswith("_saved_")] for n in (c.grad_fn, s.grad_fn)]
    out = {"cat": c.grad_fn._saved_dim, "stack": s.grad_fn._saved_dim, "listed": listed}
    c.sum().backward()
    out["after_backward"] = c.grad_fn._saved_dim
    out["unknown"] = raises(lambda: c.grad_fn._saved_sizes)
    return out


@program()
def prog_tut_ag_inference_tensor_views_untracked(T: Any) -> Any:
    with T.inference_mode():
        inf = T.arange(4.0)
        v = inf[1:]
        inf.view(2, 2).mul_(2)  # still shares memory with its base
        normal = T.arange(3.0)
        nv = normal[1:]  # a view of a normal tensor stays a view, and not an inference tensor
    w = inf.view(2, 2)
    return {
        "v": (v.tolist(), v._base is None, v._is_view(), v.is_inference()),
        "w": (w._base is None, w._is_view(), w.is_inference()),
        "inf": inf.tolist(),
        "nv": (nv._base is normal, nv._is_view(), nv.is_inference()),
        "version": raises(lambda: v._version),
        "inplace_outside": raises(lambda: w.add_(1)),
    }


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
