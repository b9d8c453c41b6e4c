"""Realistic programs: double backward through nn ops. Gradient penalties, Hessian-vector
products and meta-learning steps build a gradient with `create_graph=True` and differentiate
it again; torch records that gradient through the ops' backward kernels (MseLossBackward-
Backward0, SiluBackward0's formula, NativeLayerNormBackwardBackward0, ...). Each program
returns the gradient, the node names of its graph (walked through next_functions), the
second-order gradients and, where cheap, the third-order graph's names. The programs register
into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch
and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, scale: float = 1.0, dtype: str = "float64") -> Any:
    a = (_data(*shape, seed=seed) * scale).astype(dtype)
    return T.tensor(a, requires_grad=True)


def _names(fn: Any, depth: int = 4) -> list[Any]:
    """The node names of a graph, depth first through next_functions (None for a missing
    edge, '..' below `depth`)."""
    out: list[Any] = []

    def rec(f: Any, d: int) -> None:
        if f is None:
            out.append(None)
            return
        if d == 0:
            out.append("..")
            return
        out.append(type(f).__name__)
        for nxt, _ in f.next_functions:
            rec(nxt, d - 1)

    rec(fn, depth)
    return out


def _second(T: Any, f: Callable[[Any], Any], x: Any, depth: int = 4) -> Any:
    """A gradient penalty: g = d f(x).sum() / dx with create_graph, then d (g * g * x).sum() /
    dx; the gradient, its graph's names, the second-order gradient and its graph's names
    (built with create_graph too)."""
    y = f(x)
    (g,) = T.autograd.grad(y.sum() if y.dim() else y, x, create_graph=True)
    gg = raises(lambda: T.autograd.grad((g * g * x).sum(), x, create_graph=True)[0])
    return g, _names(g.grad_fn, depth), gg, _names(getattr(gg, "grad_fn", None), 2)


def _reg(name: str, body: Callable[[Any], Any], xfail: str | None = None) -> None:
    body.__name__ = f"prog_dbn_{name}"
    program(xfail=xfail)(body)


# --- activations: the gradient's graph and second-order values -------------------------------

_ACTS: dict[str, Callable[[Any, Any], Any]] = {
    "silu": lambda T, x: T.nn.functional.silu(x),
    "mish": lambda T, x: T.nn.functional.mish(x),
    "softplus": lambda T, x: T.nn.functional.softplus(x),
    "softplus_beta_threshold": lambda T, x: T.nn.functional.softplus(x, beta=2.0, threshold=1.0),
    "elu": lambda T, x: T.nn.functional.elu(x),
    "elu_alpha": lambda T, x: T.nn.functional.elu(x, alpha=0.5),
    "selu": lambda T, x: T.nn.functional.selu(x),
    "celu": lambda T, x: T.nn.functional.celu(x, alpha=2.0),
    "leaky_relu": lambda T, x: T.nn.functional.leaky_relu(x, 0.1),
    "hardtanh": lambda T, x: T.nn.functional.hardtanh(x * 2),
    "relu6": lambda T, x: T.nn.functional.relu6(x * 4),
    "hardswish": lambda T, x: T.nn.functional.hardswish(x * 3),
    "hardsigmoid": lambda T, x: T.nn.functional.hardsigmoid(x * 3),
    "gelu": lambda T, x: T.nn.functional.gelu(x),
    "gelu_tanh": lambda T, x: T.nn.functional.gelu(x, approximate="tanh"),
    "logsigmoid": lambda T, x: T.nn.functional.logsigmoid(x),
    "log_softmax": lambda T, x: T.nn.functional.log_softmax(x, 1),
    "softmax": lambda T, x: T.nn.functional.softmax(x, 1),
    "softmin": lambda T, x: T.nn.functional.softmin(x, 0),
    "tanh": lambda T, x: T.tanh(x),
    "sigmoid": lambda T, x: T.sigmoid(x),
    "softsign": lambda T, x: T.nn.functional.softsign(x),
    "tanhshrink": lambda T, x: T.nn.functional.tanhshrink(x),
    "relu_squared": lambda T, x: T.relu(x) ** 2,
    "std": lambda T, x: x.std(1),
    "var_unbiased_false": lambda T, x: x.var(0, unbiased=False),
    "amax": lambda T, x: (x * x).amax(1),
    "amin_ties": lambda T, x: (x.round() * x).amin(0),
    "lerp_tensor_weight": lambda T, x: T.lerp(x * x, x.exp(), x.sigmoid()),
    "lerp_scalar_weight": lambda T, x: T.lerp(x * x, x.sin(), 0.3),
    "logsumexp": lambda T, x: T.logsumexp(x, 1),
    "norm_2": lambda T, x: x.norm(dim=1),
    "normalize": lambda T, x: T.nn.functional.normalize(x, dim=1),
    "cosine_similarity": lambda T, x: T.nn.functional.cosine_similarity(x, x.flip(0), dim=1),
}


def _act_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        x = _x(T, 3, 4, seed=len(name), scale=1.5)
        return _second(T, lambda v: f(T, v), x)

    _reg(f"act_{name}", body)


for _n, _f in _ACTS.items():
    _act_program(_n, _f)


def _act_f32_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        x = _x(T, 2, 5, seed=len(name) + 7, scale=2.0, dtype="float32")
        return _second(T, lambda v: f(T, v), x, depth=3)

    _reg(f"act_f32_{name}", body)


for _n in ("silu", "mish", "softplus", "elu", "gelu", "log_softmax", "softmax", "leaky_relu"):
    _act_f32_program(_n, _ACTS[_n])


# --- losses: the backward kernels' own nodes (MseLossBackwardBackward0, ...) ------------------

_LOSSES: dict[str, Callable[..., Any]] = {
    "mse": lambda T, x, t, r: T.nn.functional.mse_loss(x, t, reduction=r),
    "l1": lambda T, x, t, r: T.nn.functional.l1_loss(x, t, reduction=r),
    "smooth_l1": lambda T, x, t, r: T.nn.functional.smooth_l1_loss(x, t, reduction=r),
    "smooth_l1_beta2": lambda T, x, t, r: T.nn.functional.smooth_l1_loss(
        x, t, reduction=r, beta=2.0
    ),
    "smooth_l1_beta0": lambda T, x, t, r: T.nn.functional.smooth_l1_loss(
        x, t, reduction=r, beta=0.0
    ),
    "huber": lambda T, x, t, r: T.nn.functional.huber_loss(x, t, reduction=r),
    "huber_delta_half": lambda T, x, t, r: T.nn.functional.huber_loss(x, t, reduction=r, delta=0.5),
}


def _loss_program(name: str, f: Callable[..., Any], red: str) -> None:
    def body(T: Any) -> Any:
        # target requires grad too, and the incoming grad is itself differentiable (the
        # double backward's grad_output edge)
        x = _x(T, 3, 4, seed=1, scale=2.0)
        t = _x(T, 3, 4, seed=2)
        y = f(T, x, t, red)
        v = T.ones_like(y, requires_grad=True) * 1.5
        g = T.autograd.grad(y, (x, t), v, create_graph=True)
        s = (g[0] * g[0] * x).sum() + (g[1] * x).sum()
        gg = T.autograd.grad(s, (x, t, v), allow_unused=True, materialize_grads=True)
        return g, [_names(a.grad_fn) for a in g], gg, [_names(a.grad_fn, 2) for a in gg]

    _reg(f"loss_{name}_{red}", body)


for _n, _f in _LOSSES.items():
    for _r in ("mean", "sum", "none"):
        _loss_program(_n, _f, _r)


@program()
def prog_dbn_loss_gradient_penalty_mse_and_huber(T: Any) -> Any:
    # a WGAN-GP style penalty through a small net into an mse loss, then backward to weights
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(4, 5), T.nn.SiLU(), T.nn.Linear(5, 1)).double()
    x = _x(T, 6, 4, seed=3)
    y = net(x)
    loss = T.nn.functional.mse_loss(y, T.zeros_like(y)) + T.nn.functional.huber_loss(
        y, T.ones_like(y), delta=0.3
    )
    (g,) = T.autograd.grad(loss, x, create_graph=True)
    pen = ((g.norm(2, dim=1) - 1) ** 2).mean()
    pen.backward()
    return g, _names(g.grad_fn, 3), pen, [p.grad for p in net.parameters()], x.grad


@program()
def prog_dbn_loss_mse_hvp(T: Any) -> Any:
    # a Hessian-vector product of an mse loss through a weight, with torch.autograd.functional
    x = _x(T, 5, 3, seed=4).detach()
    t = _x(T, 5, seed=5).detach()

    def f(w: Any) -> Any:
        return T.nn.functional.mse_loss(T.tanh(x @ w), t)

    w = _x(T, 3, seed=6).detach()
    v = _x(T, 3, seed=7).detach()
    return T.autograd.functional.hvp(f, w, v), T.autograd.functional.hessian(f, w)


@program()
def prog_dbn_loss_double_backward_grad_output_shapes(T: Any) -> Any:
    # reduction='none' with a non-trivial grad_outputs that requires grad: d/dv of the
    # gradient is the loss's backward with the double grad (mse, smooth_l1, huber)
    x = _x(T, 2, 3, seed=8, scale=2.0)
    t = _x(T, 2, 3, seed=9).detach()
    v = _x(T, 2, 3, seed=10)
    out = []
    for fn in ("mse_loss", "smooth_l1_loss", "huber_loss"):
        y = getattr(T.nn.functional, fn)(x, t, reduction="none")
        (g,) = T.autograd.grad(y, x, v, create_graph=True)
        gv, gx = T.autograd.grad((g * g).sum(), (v, x), allow_unused=True)
        out.append((g, _names(g.grad_fn, 2), gv, gx))
    return out


@program()
def prog_dbn_loss_huber_mixed_dtype_double_backward(T: Any) -> Any:
    # huber's backward kernel takes one dtype: float32 input, float64 target
    x = _x(T, 2, 3, seed=11, dtype="float32")
    t = _x(T, 2, 3, seed=12).detach()
    return (
        raises(lambda: T.autograd.grad(T.nn.functional.huber_loss(x, t), x, create_graph=True)),
        raises(lambda: T.autograd.grad(T.nn.functional.mse_loss(x, t), x, create_graph=True)),
    )


# --- normalization and pooling ----------------------------------------------------------------


def _norm_program(name: str, f: Callable[[Any, Any], Any], names_xfail: str | None) -> None:
    def values(T: Any) -> Any:
        x = _x(T, 2, 3, 4, seed=13)
        g, _, gg, _ = _second(T, lambda v: f(T, v) * v.detach().cos(), x)
        return g.detach(), gg.detach()

    def names(T: Any) -> Any:
        x = _x(T, 2, 3, 4, seed=13)
        return _second(T, lambda v: f(T, v) * v.detach().cos(), x, depth=2)

    _reg(f"norm_{name}_values", values)
    _reg(f"norm_{name}_graph", names, names_xfail)


_norm_program("layer_norm", lambda T, x: T.nn.functional.layer_norm(x, (4,)), None)
_norm_program(
    "batch_norm", lambda T, x: T.nn.functional.batch_norm(x, None, None, training=True), None
)
_norm_program(
    "group_norm",
    lambda T, x: T.nn.functional.group_norm(x.unsqueeze(-1), 1).squeeze(-1),
    None,
)
_norm_program("instance_norm", lambda T, x: T.nn.functional.instance_norm(x), None)
_norm_program("rms_norm", lambda T, x: T.nn.functional.rms_norm(x, (4,)), None)


@program()
def prog_dbn_norm_layer_norm_affine_weight_grads(T: Any) -> Any:
    x = _x(T, 3, 4, seed=14)
    w = _x(T, 4, seed=15)
    b = _x(T, 4, seed=16)
    y = T.nn.functional.layer_norm(x, (4,), w, b)
    gx, gw = T.autograd.grad((y * y.detach().sin()).sum(), (x, w), create_graph=True)
    return T.autograd.grad((gx * gx).sum() + (gw * gw).sum(), (x, w, b), allow_unused=True)


@program()
def prog_dbn_pool_max_pool2d_values(T: Any) -> Any:
    x = _x(T, 1, 2, 4, 4, seed=17)
    g, _, gg, _ = _second(T, lambda v: T.nn.functional.max_pool2d(v, 2) ** 2, x)
    return g, gg


@program()
def prog_dbn_pool_max_pool2d_graph(T: Any) -> Any:
    x = _x(T, 1, 2, 4, 4, seed=17)
    return _second(T, lambda v: T.nn.functional.max_pool2d(v, 2) ** 2, x, depth=2)


@program()
def prog_dbn_pool_avg_pool2d(T: Any) -> Any:
    x = _x(T, 1, 2, 4, 4, seed=18)
    return _second(T, lambda v: T.nn.functional.avg_pool2d(v, 2) ** 2, x, depth=2)


@program()
def prog_dbn_pool_adaptive_avg_pool2d(T: Any) -> Any:
    x = _x(T, 1, 2, 4, 4, seed=19)
    return _second(T, lambda v: T.nn.functional.adaptive_avg_pool2d(v, 3) ** 2, x, depth=2)


@program()
def prog_dbn_loss_bce_values(T: Any) -> Any:
    x = _x(T, 3, 4, seed=20)
    t = T.tensor(np.linspace(0, 1, 12).reshape(3, 4))
    g, _, gg, _ = _second(T, lambda v: T.nn.functional.binary_cross_entropy(v.sigmoid(), t), x)
    return g, gg


@program()
def prog_dbn_loss_bce_graph(T: Any) -> Any:
    x = _x(T, 3, 4, seed=20)
    t = T.tensor(np.linspace(0, 1, 12).reshape(3, 4))
    return _second(T, lambda v: T.nn.functional.binary_cross_entropy(v.sigmoid(), t), x, 2)


@program()
def prog_dbn_loss_bce_with_logits_and_kl(T: Any) -> Any:
    x = _x(T, 3, 4, seed=21)
    t = T.tensor(np.linspace(0, 1, 12).reshape(3, 4))
    a = _second(T, lambda v: T.nn.functional.binary_cross_entropy_with_logits(v, t), x, 3)
    b = _second(
        T,
        lambda v: T.nn.functional.kl_div(v.log_softmax(1), t.softmax(1), reduction="batchmean"),
        x,
        3,
    )
    return a, b


@program()
def prog_dbn_loss_cross_entropy_and_nll(T: Any) -> Any:
    x = _x(T, 3, 4, seed=22)
    t = T.tensor([0, 3, 1])
    a = _second(T, lambda v: T.nn.functional.cross_entropy(v, t), x, 3)
    b = _second(T, lambda v: T.nn.functional.nll_loss(v.log_softmax(1), t), x, 3)
    c = _second(T, lambda v: T.nn.functional.cross_entropy(v, t, label_smoothing=0.1), x, 3)
    return a, b, c


@program()
def prog_dbn_pool_max_pool_family_graphs(T: Any) -> Any:
    # max_pool1d/3d and the adaptive max pools: the backward's node has its edge to self
    F = T.nn.functional
    x1 = _x(T, 1, 2, 6, seed=23)
    x3 = _x(T, 1, 1, 4, 4, 4, seed=24)
    x2 = _x(T, 1, 2, 5, 5, seed=25)
    return (
        _second(T, lambda v: F.max_pool1d(v, 2) ** 2, x1, 2),
        _second(T, lambda v: F.max_pool3d(v, 2) ** 2, x3, 2),
        _second(T, lambda v: F.adaptive_max_pool2d(v, 2) ** 2, x2, 2),
        _second(T, lambda v: F.adaptive_max_pool3d(v, 2) ** 2, x3, 2),
        _second(T, lambda v: F.max_pool2d(v, 3, 2, 1, ceil_mode=True).exp(), x2, 2),
        _second(T, lambda v: F.max_pool2d(v, 2), x2, 2),
    )


@program()
def prog_dbn_pool_avg_pool_family_graphs(T: Any) -> Any:
    F = T.nn.functional
    x1 = _x(T, 1, 2, 6, seed=26)
    x3 = _x(T, 1, 1, 4, 4, 4, seed=27)
    x2 = _x(T, 1, 2, 5, 5, seed=28)
    return (
        _second(T, lambda v: F.avg_pool1d(v, 2) ** 2, x1, 2),
        _second(T, lambda v: F.avg_pool3d(v, 2) ** 2, x3, 2),
        _second(T, lambda v: F.avg_pool2d(v, 3, 2, 1, count_include_pad=False).exp(), x2, 2),
        _second(T, lambda v: F.avg_pool2d(v, 2, divisor_override=3), x2, 2),
    )


def _bce_program(red: str, weighted: bool) -> None:
    def body(T: Any) -> Any:
        x = T.tensor(np.linspace(0.05, 0.95, 12).reshape(3, 4), requires_grad=True)
        t = T.tensor(_data(3, 4, seed=29).astype(np.float64) * 0.3 + 0.5, requires_grad=True)
        w = T.tensor(np.linspace(0.5, 2.0, 4)) if weighted else None
        y = T.nn.functional.binary_cross_entropy(x, t, weight=w, reduction=red)
        first = T.autograd.grad(y.sum(), (x, t), retain_graph=True)
        v = T.ones_like(y, requires_grad=True) * 1.5
        g = T.autograd.grad(y, (x, t), v, create_graph=True)
        s = (g[0] * g[0] * x).sum() + (g[1] * g[0]).sum()
        gg = T.autograd.grad(s, (x, t, v))
        return first, g, [_names(a.grad_fn, 3) for a in g], gg

    _reg(f"loss_bce_{red}{'_weighted' if weighted else ''}", body)


for _r in ("mean", "sum", "none"):
    for _w in (False, True):
        _bce_program(_r, _w)


@program()
def prog_dbn_loss_bce_float32_and_edges(T: Any) -> Any:
    # float32 first order (torch's kernel order), inputs at 0 and 1 (the 1e-12 clamp), and the
    # gradient penalty of a BCELoss module
    x = T.tensor(np.array([0.0, 1e-7, 0.3, 0.5, 0.999, 1.0], np.float32), requires_grad=True)
    t = T.tensor(np.array([0.0, 1.0, 0.2, 0.5, 1.0, 1.0], np.float32))
    y = T.nn.BCELoss()(x, t)
    (g1,) = T.autograd.grad(y, x, retain_graph=True)
    (g2,) = T.autograd.grad(y, x, create_graph=True)
    return y, g1, g2, g2.grad_fn, T.autograd.grad(g2[2:5].sum(), x)


def _bce_logits_program(red: str, pos_weight: bool, weighted: bool) -> None:
    def body(T: Any) -> Any:
        x = _x(T, 3, 4, seed=30, scale=2.0)
        t = T.tensor(np.linspace(0, 1, 12).reshape(3, 4), requires_grad=True)
        p = T.tensor(np.linspace(0.5, 3.0, 4)) if pos_weight else None
        w = T.tensor(np.linspace(2.0, 0.5, 4)) if weighted else None
        y = T.nn.functional.binary_cross_entropy_with_logits(
            x, t, weight=w, pos_weight=p, reduction=red
        )
        first = T.autograd.grad(y.sum(), (x, t), retain_graph=True)
        v = T.ones_like(y, requires_grad=True) * 1.5
        g = T.autograd.grad(y, (x, t), v, create_graph=True)
        s = (g[0] * g[0] * x).sum() + (g[1] * g[0]).sum()
        return first, g, [_names(a.grad_fn) for a in g], T.autograd.grad(s, (x, t, v))

    tag = ("_pos_weight" if pos_weight else "") + ("_weighted" if weighted else "")
    _reg(f"loss_bce_logits_{red}{tag}", body)


for _r in ("mean", "sum", "none"):
    for _p in (False, True):
        for _w in (False, True):
            _bce_logits_program(_r, _p, _w)


@program()
def prog_dbn_loss_bce_logits_float32_first_order(T: Any) -> Any:
    # torch's order: (sigmoid(x) - t) * grad, then weight, then / numel
    x = _x(T, 4, 5, seed=31, scale=3.0, dtype="float32")
    t = T.tensor(np.linspace(0, 1, 20, dtype=np.float32).reshape(4, 5))
    p = T.tensor(np.linspace(0.5, 3.0, 5, dtype=np.float32))
    out = []
    for kw in ({}, {"pos_weight": p}, {"weight": p}):
        y = T.nn.functional.binary_cross_entropy_with_logits(x, t, **kw)
        out.append((y, T.autograd.grad(y, x)))
    return out


@program()
def prog_dbn_pool_adaptive_avg_family(T: Any) -> Any:
    # uneven windows, 1d/3d, output 1 (a global average pool), float32 first order
    F = T.nn.functional
    x1 = _x(T, 2, 7, seed=32)
    x2 = _x(T, 1, 2, 5, 7, seed=33)
    x3 = _x(T, 1, 1, 3, 5, 4, seed=34)
    xf = _x(T, 2, 3, 5, 5, seed=35, dtype="float32")
    return (
        _second(T, lambda v: F.adaptive_avg_pool1d(v, 3).exp(), x1, 2),
        _second(T, lambda v: F.adaptive_avg_pool2d(v, (3, 4)).exp(), x2, 2),
        _second(T, lambda v: F.adaptive_avg_pool2d(v, 1) ** 2, x2, 2),
        _second(T, lambda v: F.adaptive_avg_pool3d(v, (2, 3, 3)).exp(), x3, 2),
        T.autograd.grad((F.adaptive_avg_pool2d(xf, 3) * xf[..., :3, :3]).sum(), xf),
    )


@program()
def prog_dbn_pad_reflect_replicate_graphs(T: Any) -> Any:
    # the padding backward's node has its edge to self, as torch's
    F = T.nn.functional
    x1 = _x(T, 1, 2, 5, seed=36)
    x2 = _x(T, 1, 2, 4, 5, seed=37)
    x3 = _x(T, 1, 1, 3, 4, 4, seed=38)
    return (
        _second(T, lambda v: F.pad(v, (2, 1), mode="reflect") ** 2, x1, 2),
        _second(T, lambda v: F.pad(v, (1, 2, 2, 1), mode="reflect") ** 2, x2, 2),
        _second(T, lambda v: F.pad(v, (1, 2, 0, 3), mode="replicate").exp(), x2, 2),
        _second(T, lambda v: F.pad(v, (1, 1, 1, 1, 1, 1), mode="replicate") ** 2, x3, 2),
        _second(T, lambda v: F.pad(v, (1, 1, 2, 2), mode="circular") ** 2, x2, 2),
        _second(T, lambda v: F.pad(v, (1, 1, 2, 2), value=0.5) ** 2, x2, 2),
    )


_ELEMENTWISE_MORE: dict[str, Callable[[Any, Any], Any]] = {
    "cross_entropy_weight": lambda T, x: T.nn.functional.cross_entropy(
        x,
        T.tensor(np.arange(32).reshape(2, 4, 4) % 3),
        weight=T.tensor([0.5, 2.0, 1.0], dtype=T.float64),
    ),
    "cross_entropy_ignore_index": lambda T, x: T.nn.functional.cross_entropy(
        x, T.tensor(np.arange(32).reshape(2, 4, 4) % 3), ignore_index=1
    ),
    "cross_entropy_probs": lambda T, x: T.nn.functional.cross_entropy(x, x.detach().softmax(1)),
    "kl_div_log_target": lambda T, x: T.nn.functional.kl_div(
        x.log_softmax(1), x.detach().cos().log_softmax(1), log_target=True, reduction="sum"
    ),
    "gaussian_nll": lambda T, x: T.nn.functional.gaussian_nll_loss(x, x.detach().sin(), x.exp()),
    "hinge_embedding": lambda T, x: T.nn.functional.hinge_embedding_loss(x, x.detach().sign()),
    "margin_ranking": lambda T, x: T.nn.functional.margin_ranking_loss(
        x, x.flip(0), x.detach().sign()
    ),
    "cosine_embedding": lambda T, x: T.nn.functional.cosine_embedding_loss(
        x.flatten(1), x.flip(0).flatten(1) * 2, T.tensor([1.0, -1.0])
    ),
    "triplet_margin": lambda T, x: T.nn.functional.triplet_margin_loss(
        x[0], x[1], x[0].flip(0), margin=3.0
    ),
    "multilabel_soft_margin": lambda T, x: T.nn.functional.multilabel_soft_margin_loss(
        x.flatten(1), (x.detach().flatten(1) > 0).double()
    ),
    "interpolate_bilinear": lambda T, x: (
        T.nn.functional.interpolate(x, scale_factor=2, mode="bilinear") ** 2
    ),
    "interpolate_nearest": lambda T, x: T.nn.functional.interpolate(x, scale_factor=2) ** 2,
    "unfold": lambda T, x: T.nn.functional.unfold(x, 2) ** 2,
    "local_response_norm": lambda T, x: T.nn.functional.local_response_norm(x, 2),
    "lp_pool2d": lambda T, x: T.nn.functional.lp_pool2d(x.abs() + 0.1, 2, 2),
    "softshrink": lambda T, x: T.nn.functional.softshrink(x) ** 2,
    "hardshrink": lambda T, x: T.nn.functional.hardshrink(x) ** 2,
    "threshold": lambda T, x: T.nn.functional.threshold(x, 0.1, 2.0) ** 2,
    "rrelu_eval": lambda T, x: T.nn.functional.rrelu(x, training=False),
    "logcumsumexp": lambda T, x: T.logcumsumexp(x, 1),
    "cumprod": lambda T, x: T.cumprod(x, 1),
    "prod": lambda T, x: x.prod(1),
    "std_mean": lambda T, x: T.std_mean(x, (1, 2))[0],
    "vector_norm_3": lambda T, x: T.linalg.vector_norm(x, 3, dim=1),
    "clamp": lambda T, x: x.clamp(-0.5, 0.5) ** 2,
    "xlogy": lambda T, x: T.xlogy(x, x.abs() + 0.1),
    "logaddexp": lambda T, x: T.logaddexp(x, x.flip(0)),
}


def _more_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        x = _x(T, 2, 3, 4, 4, seed=40 + len(name), scale=1.3)
        return _second(T, lambda v: f(T, v), x, depth=3)

    _reg(f"more_{name}", body)


for _n, _f in _ELEMENTWISE_MORE.items():
    _more_program(_n, _f)


@program()
def prog_dbn_more_cross_entropy_weight_dtype_mismatch(T: Any) -> Any:
    # a float32 class weight with a float64 input: torch's nll kernel refuses it
    x = _x(T, 3, 4, seed=50)
    t = T.tensor([0, 3, 1])
    w = T.tensor([0.5, 2.0, 1.0, 1.5])
    return (
        raises(lambda: T.nn.functional.cross_entropy(x, t, weight=w)),
        raises(lambda: T.nn.functional.nll_loss(x.log_softmax(1), t, weight=w)),
        _second(T, lambda v: T.nn.functional.cross_entropy(v, t, weight=w.double()), x, 3),
    )


@program()
def prog_dbn_relu_threshold_third_order_graph(T: Any) -> Any:
    # threshold_backward's derivative wrt self is torch's zeros_like(grad): no graph of its own
    x = _x(T, 3, 4, seed=51)
    out = []
    for f in (
        lambda v: T.relu(v) ** 3,
        lambda v: T.nn.functional.threshold(v, 0.2, -1.0) ** 3,
        lambda v: T.nn.functional.relu6(v * 3) ** 3,
    ):
        (g,) = T.autograd.grad(f(x).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), x, create_graph=True)
        (ggg,) = T.autograd.grad(gg.sum(), x, allow_unused=True)
        out.append((g, _names(g.grad_fn, 3), gg, _names(gg.grad_fn, 3), ggg))
    return out


def _soft_margin_program(red: str) -> None:
    def body(T: Any) -> Any:
        x = _x(T, 3, 4, seed=52, scale=2.0)
        t = T.tensor(np.sign(_data(3, 4, seed=53)).astype(np.float64))
        y = T.nn.functional.soft_margin_loss(x, t, reduction=red)
        first = T.autograd.grad(y.sum(), x, retain_graph=True)
        v = T.ones_like(y, requires_grad=True) * 1.5
        (g,) = T.autograd.grad(y, x, v, create_graph=True)
        gg = T.autograd.grad((g * g * x).sum(), (x, v), create_graph=True)
        return first, g, _names(g.grad_fn), gg, [_names(a.grad_fn, 2) for a in gg]

    _reg(f"loss_soft_margin_{red}", body)


for _r in ("mean", "sum", "none"):
    _soft_margin_program(_r)


@program()
def prog_dbn_glu_double_backward(T: Any) -> Any:
    # glu's backward is its own node (GluBackwardBackward0), along each dim, with a
    # differentiable incoming grad; float32 first order as torch's kernel
    out = []
    for dim in (-1, 0, 1):
        x = _x(T, 4, 6, 2, seed=54 + dim, scale=1.5)
        y = T.nn.functional.glu(x, dim)
        v = T.tensor(_data(*y.shape, seed=57).astype(np.float64), requires_grad=True)
        (g,) = T.autograd.grad(y, x, v, create_graph=True)
        gg = T.autograd.grad((g * g * x).sum(), (x, v), create_graph=True)
        out.append((g, _names(g.grad_fn, 3), gg, [_names(a.grad_fn, 2) for a in gg]))
    xf = _x(T, 3, 8, seed=58, scale=2.0, dtype="float32")
    out.append(T.autograd.grad((T.nn.functional.glu(xf) * xf[:, :4]).sum(), xf))
    out.append(raises(lambda: T.nn.functional.glu(_x(T, 3, 5, seed=59))))
    return out


@program()
def prog_dbn_inplace_activations_double_backward(T: Any) -> Any:
    # elu_/celu_/leaky_relu_ differentiate through their backward kernels with is_result
    # (EluBackwardBackward0 / LeakyReluBackwardBackward0 reading the result)
    F = T.nn.functional
    out = []
    for f in (
        lambda v: F.elu(v * 1, inplace=True),
        lambda v: F.elu(v * 1, alpha=0.5, inplace=True),
        lambda v: F.celu(v * 1, alpha=0.7, inplace=True),
        lambda v: F.leaky_relu(v * 1, 0.2, inplace=True),
        lambda v: F.celu(v, alpha=0.7),
        lambda v: F.celu(v, alpha=1.3) ** 2,
    ):
        x = _x(T, 3, 4, seed=60, scale=1.5)
        out.append(_second(T, f, x, 3))
    x = _x(T, 3, 4, seed=61)
    out.append(raises(lambda: F.elu(x * 1, alpha=-0.5, inplace=True).sum().backward()))
    return out


@program()
def prog_dbn_celu_backward_input_scale(T: Any) -> Any:
    # torch's celu backward scales by 1 / alpha rounded to float32 (alpha.toFloat()), in float64
    x = _x(T, 4, 5, seed=62, scale=2.0)
    out = []
    for alpha in (0.7, 1.1, 3.3):
        y = T.nn.functional.celu(x, alpha)
        out.append(T.autograd.grad(y.sum(), x))
    return out


@program()
def prog_dbn_loss_mixed_dtype_double_backward(T: Any) -> Any:
    # float32 input with a float64 target and back: each backward kernel writes in its
    # input's dtype (MseLossBackwardBackward0 / SmoothL1LossBackwardBackward0, no ToCopy)
    out = []
    for fn in ("mse_loss", "smooth_l1_loss", "soft_margin_loss", "binary_cross_entropy"):
        for xd, td in (("float32", "float64"), ("float64", "float32")):
            for red in ("mean", "none"):
                x = T.tensor(np.linspace(0.1, 0.9, 12, dtype=xd).reshape(3, 4), requires_grad=True)
                t = T.tensor(np.linspace(0.8, 0.2, 12, dtype=td).reshape(3, 4))
                if fn != "soft_margin_loss":
                    t.requires_grad_()

                def run(x: Any = x, t: Any = t, fn: str = fn, red: str = red) -> Any:
                    y = getattr(T.nn.functional, fn)(x, t, reduction=red)
                    ins = (x, t) if t.requires_grad else (x,)
                    g = T.autograd.grad(y, ins, T.ones_like(y), create_graph=True)
                    gg = T.autograd.grad(sum((a * a).sum() for a in g), ins)
                    return y, g, [_names(a.grad_fn, 1) for a in g], gg

                out.append(raises(run))
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
