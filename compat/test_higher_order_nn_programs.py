"""Realistic programs: higher-order gradients through nn ops, and the graphs torch records
for them. With `create_graph=True` torch records one node per backward formula: the gradients
of a convolution's input, weight and bias are the three outputs of one
ConvolutionBackwardBackward0 node (edges: the incoming grad, input, weight), a layer norm's of
one NativeLayerNormBackwardBackward0, a batch norm's of one NativeBatchNormBackwardBackward0,
and that node's own formulas are torch's double backward (convolutions of the incoming grads,
...). Gradient penalties (WGAN-GP), MAML inner steps, Hessian-vector products and
`torch.autograd.functional` / `torch.func` Hessians build such graphs. Each program returns the
gradients, the names of their graph (through next_functions), the second- and third-order
gradients and their graphs. The programs register into test_realistic_programs_3's set and run
through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns,
raises or warns is compared.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .compare import Tolerance
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, scale: float = 1.0, dtype: str = "float64") -> Any:
    a = (_data(*shape, seed=seed) * scale).astype(dtype)
    return T.tensor(a, requires_grad=True)


def _c(T: Any, *shape: int, seed: int = 0, dtype: str = "float64") -> Any:
    """A constant (no grad)."""
    return T.tensor(_data(*shape, seed=seed).astype(dtype))


def _tree(fn: Any, depth: int = 2) -> Any:
    """A node's name and, `depth` levels down, its next_functions' (None: no edge)."""
    if fn is None:
        return None
    name = type(fn).__name__
    if depth == 0:
        return name
    return (name, [_tree(n, depth - 1) for n, _ in fn.next_functions])


def _same_node(gs: Sequence[Any]) -> list[Any]:
    """Which gradients share their first one's node, and their output numbers."""
    first = gs[0].grad_fn
    return [
        (g.grad_fn is first, getattr(g, "output_nr", None)) if g is not None else None for g in gs
    ]


def _orders(
    T: Any,
    f: Callable[..., Any],
    inputs: Sequence[Any],
    seed: int = 5,
    depth: int = 2,
    grad_out_rg: bool = True,
) -> Any:
    """First order with create_graph (the incoming grad itself requiring grad), then the
    gradient of sum(g * v) over the inputs and the incoming grad (create_graph), then a third
    order of the second-order gradients: values and graph names at each level."""
    y = f(*inputs)
    rng = np.random.default_rng(seed)
    go = T.tensor(rng.standard_normal(tuple(y.shape)), dtype=y.dtype, requires_grad=grad_out_rg)
    gs = T.autograd.grad(y, list(inputs), go, create_graph=True, allow_unused=True)
    first = [(g, _tree(g.grad_fn, depth)) if g is not None else None for g in gs]
    live = [g for g in gs if g is not None and g.requires_grad]
    if not live:
        return y, first
    vs = [T.tensor(rng.standard_normal(tuple(g.shape)), dtype=g.dtype) for g in live]
    s = sum((g * g * v).sum() for g, v in zip(live, vs, strict=True))
    wrt = [*inputs, go] if grad_out_rg else list(inputs)
    g2 = T.autograd.grad(s, wrt, create_graph=True, allow_unused=True)
    second = [(g, _tree(g.grad_fn, depth)) if g is not None else None for g in g2]
    live2 = [g for g in g2 if g is not None and g.requires_grad]
    third = None
    if live2:
        s3 = sum((g.sin()).sum() for g in live2)
        third = raises(lambda: T.autograd.grad(s3, wrt, allow_unused=True))
    return y, first, _same_node(gs), second, third


def _reg(name: str, body: Callable[[Any], Any], xfail: str | None = None) -> None:
    body.__name__ = f"prog_ho_{name}"
    program(xfail=xfail)(body)


# --- convolutions: ConvolutionBackwardBackward0 -------------------------------------------------

_CONVS: dict[str, tuple[Any, ...]] = {
    # name: (F function, input shape, weight shape, bias?, kwargs)
    "conv1d": ("conv1d", (2, 3, 7), (4, 3, 3), True, {}),
    "conv1d_stride_pad_dil": (
        "conv1d",
        (2, 2, 9),
        (3, 2, 2),
        True,
        dict(stride=2, padding=1, dilation=2),
    ),
    "conv1d_groups": ("conv1d", (1, 4, 6), (6, 2, 3), False, dict(groups=2)),
    "conv2d": ("conv2d", (2, 3, 5, 5), (4, 3, 3, 3), True, dict(padding=1)),
    "conv2d_stride2": ("conv2d", (2, 2, 6, 7), (3, 2, 3, 3), True, dict(stride=2, padding=1)),
    "conv2d_stride_uneven": ("conv2d", (1, 2, 7, 6), (2, 2, 2, 3), False, dict(stride=(3, 2))),
    "conv2d_dilation": ("conv2d", (1, 2, 7, 7), (3, 2, 3, 3), True, dict(dilation=2)),
    "conv2d_groups": ("conv2d", (2, 4, 5, 5), (6, 2, 3, 3), True, dict(groups=2)),
    "conv2d_depthwise": ("conv2d", (1, 3, 5, 4), (3, 1, 3, 3), False, dict(groups=3, padding=1)),
    "conv2d_same": ("conv2d", (1, 2, 5, 5), (3, 2, 3, 3), True, dict(padding="same")),
    "conv2d_1x1": ("conv2d", (2, 3, 4, 4), (5, 3, 1, 1), True, {}),
    "conv3d": ("conv3d", (1, 2, 4, 4, 4), (2, 2, 2, 2, 2), True, dict(stride=(1, 2, 1))),
    "conv_transpose1d": ("conv_transpose1d", (2, 3, 5), (3, 2, 3), True, dict(stride=2)),
    "conv_transpose2d": ("conv_transpose2d", (2, 3, 4, 4), (3, 2, 3, 3), True, {}),
    "conv_transpose2d_stride_outpad": (
        "conv_transpose2d",
        (1, 2, 4, 3),
        (2, 3, 3, 3),
        True,
        dict(stride=2, padding=1, output_padding=1),
    ),
    "conv_transpose2d_groups": (
        "conv_transpose2d",
        (1, 4, 3, 3),
        (4, 1, 2, 2),
        True,
        dict(groups=2),
    ),
    "conv_transpose2d_dilation": (
        "conv_transpose2d",
        (1, 2, 3, 4),
        (2, 2, 3, 2),
        False,
        dict(dilation=2, stride=2),
    ),
    "conv_transpose3d": (
        "conv_transpose3d",
        (1, 2, 2, 3, 2),
        (2, 2, 2, 2, 2),
        True,
        dict(stride=2),
    ),
}


def _conv_program(name: str, spec: tuple[Any, ...]) -> None:
    fname, xs, ws, has_bias, kw = spec

    def body(T: Any) -> Any:
        x = _x(T, *xs, seed=len(name))
        w = _x(T, *ws, seed=len(name) + 1, scale=0.5)
        ins = [x, w]
        if has_bias:
            n_out = ws[1] * kw.get("groups", 1) if "transpose" in fname else ws[0]
            ins.append(_x(T, n_out, seed=3))
        f = getattr(T.nn.functional, fname)
        return _orders(T, lambda *a: f(*a, **kw), ins)

    _reg(name, body)


for _n, _s in _CONVS.items():
    _conv_program(_n, _s)


@program()
def prog_ho_conv2d_weight_only_maml(T: Any) -> Any:
    """MAML's inner step: the data needs no grad, only the weight does; the adapted weight's
    graph goes through ConvolutionBackwardBackward0 (edges: the loss's grad, None, weight)."""
    x = _c(T, 2, 2, 5, 5, seed=1)
    w = _x(T, 3, 2, 3, 3, seed=2, scale=0.4)
    b = _x(T, 3, seed=3)
    tgt = _c(T, 2, 3, 3, 3, seed=4)
    F = T.nn.functional
    loss = F.mse_loss(F.conv2d(x, w, b), tgt)
    gw, gb = T.autograd.grad(loss, (w, b), create_graph=True)
    w2, b2 = w - 0.1 * gw, b - 0.1 * gb
    outer = F.mse_loss(F.conv2d(x * 2, w2, b2), tgt)
    outer.backward()
    return gw, gb, _tree(gw.grad_fn, 3), _tree(gb.grad_fn, 2), outer, w.grad, b.grad


@program()
def prog_ho_conv2d_input_only_penalty(T: Any) -> Any:
    """A gradient penalty on the input alone: the weight has no grad; the node still has its
    weight edge empty and the penalty reaches nothing but x."""
    x = _x(T, 2, 2, 4, 4, seed=5)
    w = _c(T, 3, 2, 2, 2, seed=6)
    y = T.nn.functional.conv2d(x, w).tanh().sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    p = (g.flatten(1).norm(2, dim=1) - 1).pow(2).mean()
    (gx,) = T.autograd.grad(p, x, create_graph=True)
    return g, _tree(g.grad_fn, 3), p, gx, _tree(gx.grad_fn, 3)


@program()
def prog_ho_conv_wgan_gp_discriminator(T: Any) -> Any:
    """WGAN-GP: a conv discriminator's gradient at interpolates, its norm penalty, and the
    penalty's gradients to every parameter (the ConvolutionBackwardBackward0 formulas)."""
    T.manual_seed(0)
    nn = T.nn
    d = nn.Sequential(
        nn.Conv2d(2, 4, 3, stride=2, padding=1),
        nn.LeakyReLU(0.2),
        nn.Conv2d(4, 4, 3, padding=1, groups=2),
        nn.LeakyReLU(0.2),
        nn.Flatten(),
        nn.Linear(4 * 3 * 3, 1),
    ).double()
    rng = np.random.default_rng(0)
    with T.no_grad():
        for _, p in sorted(d.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    real, fake = _c(T, 3, 2, 6, 6, seed=1), _c(T, 3, 2, 6, 6, seed=2)
    alpha = T.tensor(rng.uniform(size=(3, 1, 1, 1)))
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = d(inter)
    (g,) = T.autograd.grad(out, inter, T.ones_like(out), create_graph=True, retain_graph=True)
    gp = ((g.view(3, -1).norm(2, dim=1) - 1) ** 2).mean() * 10
    gp.backward()
    grads = {n: p.grad for n, p in sorted(d.named_parameters())}
    return out, g, _tree(g.grad_fn, 2), gp, grads


@program()
def prog_ho_conv_retain_graph_reuse(T: Any) -> Any:
    """The double-backward graph differentiated twice (retain_graph), then a third time
    without it: the second call raises torch's error."""
    x = _x(T, 1, 2, 4, 4, seed=7)
    w = _x(T, 2, 2, 3, 3, seed=8)
    y = T.nn.functional.conv2d(x, w, padding=1).pow(2).sum()
    gx, gw = T.autograd.grad(y, (x, w), create_graph=True)
    s = gx.pow(2).sum() + gw.sum()
    a = T.autograd.grad(s, (x, w), retain_graph=True)
    b = T.autograd.grad(s, (x, w), retain_graph=False)
    c = raises(lambda: T.autograd.grad(s, (x, w)))
    return a, b, c


@program()
def prog_ho_conv_hvp_functional(T: Any) -> Any:
    """torch.autograd.functional.hvp and hessian of a small conv's loss wrt its weight."""
    x = _c(T, 1, 1, 4, 4, seed=9)
    w0 = _c(T, 2, 1, 2, 2, seed=10)
    v = _c(T, 2, 1, 2, 2, seed=11)

    def loss(w: Any) -> Any:
        return T.nn.functional.conv2d(x, w).tanh().pow(2).sum()

    out, hv = T.autograd.functional.hvp(loss, w0, v)
    h = T.autograd.functional.hessian(loss, w0)
    return out, hv, h


@program()
def prog_ho_conv_second_order_bias_unused(T: Any) -> Any:
    """The bias's gradient is the incoming grad summed: it does not depend on the bias, so
    the second order wrt the bias is None (allow_unused) and wrt the grad is an expand."""
    x = _x(T, 1, 2, 3, 3, seed=12)
    w = _x(T, 2, 2, 2, 2, seed=13)
    b = _x(T, 2, seed=14)
    y = T.nn.functional.conv2d(x, w, b)
    go = T.ones_like(y).requires_grad_(True)
    gb = T.autograd.grad(y, b, go, create_graph=True)[0]
    r = T.autograd.grad((gb * gb).sum(), (x, w, b, go), allow_unused=True, create_graph=True)
    return gb, _tree(gb.grad_fn, 1), [None if t is None else (t, _tree(t.grad_fn, 2)) for t in r]


# --- layer norm: NativeLayerNormBackwardBackward0 -----------------------------------------------

_LNS: dict[str, tuple[Any, ...]] = {
    # name: (input shape, normalized_shape, weight?, bias?)
    "layer_norm": ((3, 4), (4,), True, True),
    "layer_norm_no_affine": ((2, 5), (5,), False, False),
    "layer_norm_weight_only": ((2, 3, 4), (4,), True, False),
    "layer_norm_two_dims": ((2, 3, 4), (3, 4), True, True),
    "layer_norm_whole": ((3, 2), (3, 2), True, True),
    "layer_norm_single_feature": ((3, 1), (1,), True, True),
}


def _ln_program(name: str, spec: tuple[Any, ...]) -> None:
    xs, ns, has_w, has_b = spec

    def body(T: Any) -> Any:
        x = _x(T, *xs, seed=len(name), scale=1.5)
        ins = [x]
        if has_w:
            ins.append(_x(T, *ns, seed=2))
        if has_b:
            ins.append(_x(T, *ns, seed=3))

        def f(x: Any, w: Any = None, b: Any = None) -> Any:
            return T.nn.functional.layer_norm(x, ns, w, b)

        return _orders(T, f, ins)

    _reg(name, body)


for _n, _s in _LNS.items():
    _ln_program(_n, _s)


# --- batch and instance norm: NativeBatchNormBackwardBackward0 ----------------------------------

_BNS: dict[str, tuple[Any, ...]] = {
    # name: (input shape, training, affine)
    "batch_norm_train": ((4, 3), True, True),
    "batch_norm_train_3d": ((3, 2, 4), True, True),
    "batch_norm_train_4d": ((2, 3, 2, 2), True, True),
    "batch_norm_train_no_affine": ((3, 2, 3), True, False),
    "batch_norm_eval": ((3, 2, 3), False, True),
    "batch_norm_eval_no_affine": ((4, 3), False, False),
}


def _bn_program(name: str, spec: tuple[Any, ...]) -> None:
    xs, training, affine = spec

    def body(T: Any) -> Any:
        c = xs[1]
        x = _x(T, *xs, seed=len(name), scale=1.5)
        rm = T.tensor(_data(c, seed=4).astype("float64"))
        rv = T.tensor(np.abs(_data(c, seed=5)).astype("float64") + 0.5)
        ins = [x] + ([_x(T, c, seed=6), _x(T, c, seed=7)] if affine else [])

        def f(x: Any, w: Any = None, b: Any = None) -> Any:
            return T.nn.functional.batch_norm(x, rm, rv, w, b, training=training, momentum=0.2)

        return _orders(T, f, ins), rm, rv

    _reg(name, body)


for _n, _s in _BNS.items():
    _bn_program(_n, _s)


@program()
def prog_ho_instance_norm_affine(T: Any) -> Any:
    x = _x(T, 2, 3, 4, seed=20)
    w, b = _x(T, 3, seed=21), _x(T, 3, seed=22)
    return _orders(T, lambda x, w, b: T.nn.functional.instance_norm(x, weight=w, bias=b), [x, w, b])


@program()
def prog_ho_norm_node_saved_values(T: Any) -> Any:
    """What the double-backward nodes of layer and batch norm show of their saved values."""
    x = _x(T, 3, 4, seed=23)
    w, b = _x(T, 4, seed=24), _x(T, 4, seed=25)
    out = []
    for y in (
        T.nn.functional.layer_norm(x, (4,), w, b),
        T.nn.functional.batch_norm(x, None, None, w, b, training=True),
    ):
        gx, gw, gb = T.autograd.grad(y.pow(2).sum(), (x, w, b), create_graph=True)
        n = gx.grad_fn
        names = sorted(a for a in dir(n) if a.startswith("_saved_"))
        out.append((type(n).__name__, names, gw.grad_fn is n, gb.grad_fn is n, gb.output_nr))
        out.append([getattr(n, a) for a in names if a in ("_saved_grad_out", "_saved_input")])
    return out


@program()
def prog_ho_transformer_block_gradient_penalty(T: Any) -> Any:
    """A pre-norm MLP block (LayerNorm, Linear, GELU, residual): the input-gradient penalty's
    gradients to every parameter go through NativeLayerNormBackwardBackward0."""
    T.manual_seed(0)
    nn = T.nn
    ln = nn.LayerNorm(4).double()
    fc1, fc2 = nn.Linear(4, 6).double(), nn.Linear(6, 4).double()
    rng = np.random.default_rng(3)
    with T.no_grad():
        for m in (ln, fc1, fc2):
            for _, p in sorted(m.named_parameters()):
                p.copy_(T.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
    x = _x(T, 3, 4, seed=26)
    y = x + fc2(nn.functional.gelu(fc1(ln(x))))
    (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    pen = g.pow(2).sum()
    pen.backward()
    params = {n: p.grad for m in (ln, fc1, fc2) for n, p in sorted(m.named_parameters())}
    return g, _tree(g.grad_fn, 2), pen, x.grad, params


@program()
def prog_ho_conv_bn_relu_penalty(T: Any) -> Any:
    """Conv, batch norm (training), ReLU: a gradient penalty through the whole stack."""
    T.manual_seed(0)
    nn = T.nn
    net = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU()).double()
    rng = np.random.default_rng(4)
    with T.no_grad():
        for _, p in sorted(net.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
    x = _x(T, 2, 2, 4, 4, seed=27)
    y = net(x).pow(2).mean()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    pen = (g.flatten(1).norm(dim=1) - 1).pow(2).mean()
    pen.backward()
    grads = {n: p.grad for n, p in sorted(net.named_parameters())}
    return g, _tree(g.grad_fn, 3), pen, x.grad, grads, net[1].running_mean


@program()
def prog_ho_layer_norm_hessian_functional(T: Any) -> Any:
    """torch.autograd.functional.hessian and vhp of a layer norm loss wrt its input."""
    w = _c(T, 4, seed=28)

    def loss(x: Any) -> Any:
        return (T.nn.functional.layer_norm(x, (4,)) * w).pow(3).sum()

    x0 = _c(T, 2, 4, seed=29)
    v = _c(T, 2, 4, seed=30)
    h = T.autograd.functional.hessian(loss, x0)
    out, vh = T.autograd.functional.vhp(loss, x0, v)
    return h, out, vh


@program()
def prog_ho_batch_norm_eval_weight_only_maml(T: Any) -> Any:
    """MAML through an eval-mode batch norm: only the affine parameters adapt."""
    x = _c(T, 4, 3, seed=31)
    rm, rv = _c(T, 3, seed=32), T.tensor(np.abs(_data(3, seed=33)).astype("float64") + 0.3)
    w, b = _x(T, 3, seed=34), _x(T, 3, seed=35)
    F = T.nn.functional
    loss = F.batch_norm(x, rm, rv, w, b, training=False).tanh().sum()
    gw, gb = T.autograd.grad(loss, (w, b), create_graph=True)
    w2, b2 = w - 0.5 * gw, b - 0.5 * gb
    outer = F.batch_norm(x * 2, rm, rv, w2, b2, training=False).pow(2).sum()
    outer.backward()
    return gw, gb, _tree(gw.grad_fn, 2), _tree(gb.grad_fn, 2), outer, w.grad, b.grad


# --- prelu: PreluKernelBackwardBackward0 --------------------------------------------------------


def _prelu_case(name: str, xs: tuple[int, ...], nw: int, kink: bool = False) -> None:
    def body(T: Any) -> Any:
        a = _data(*xs, seed=len(name)).astype("float64")
        if kink:
            a.ravel()[::3] = 0.0  # torch's double backward splits at x >= 0, its kernel at x > 0
        x = T.tensor(a, requires_grad=True)
        w = T.tensor(np.linspace(-0.5, 0.5, nw), requires_grad=True)
        return _orders(T, lambda x, w: T.nn.functional.prelu(x, w), [x, w])

    _reg(name, body)


_prelu_case("prelu_per_channel", (2, 3, 2), 3)
_prelu_case("prelu_shared", (2, 3, 2), 1)
_prelu_case("prelu_1d", (4,), 1)
_prelu_case("prelu_at_zero", (3, 3), 3, kink=True)
_prelu_case("prelu_4d", (1, 2, 2, 3), 2)


@program()
def prog_ho_prelu_undefined_grads(T: Any) -> Any:
    """Only one of prelu's two gradients differentiated again: the other's incoming grad is
    undefined, and torch's formulas drop its terms (zeros for the input then)."""
    x = _x(T, 2, 3, seed=40)
    w = _x(T, 3, seed=41, scale=0.3)
    go = T.tensor(_data(2, 3, seed=42).astype("float64"), requires_grad=True)
    gx, gw = T.autograd.grad(T.nn.functional.prelu(x, w), (x, w), go, create_graph=True)
    only_x = T.autograd.grad(gx.pow(2).sum(), (x, w, go), create_graph=True, allow_unused=True)
    only_w = T.autograd.grad(gw.sin().sum(), (x, w, go), create_graph=True, allow_unused=True)
    return [[None if t is None else (t, _tree(t.grad_fn, 2)) for t in r] for r in (only_x, only_w)]


@program()
def prog_ho_prelu_module_penalty(T: Any) -> Any:
    """nn.PReLU in a small conv net under a gradient penalty."""
    T.manual_seed(0)
    nn = T.nn
    net = nn.Sequential(nn.Conv2d(1, 2, 2), nn.PReLU(2), nn.Flatten(), nn.Linear(8, 1)).double()
    rng = np.random.default_rng(5)
    with T.no_grad():
        for _, p in sorted(net.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.7, 0.7, tuple(p.shape))))
    x = _x(T, 2, 1, 3, 3, seed=43)
    (g,) = T.autograd.grad(net(x).sum(), x, create_graph=True)
    pen = g.pow(2).sum()
    pen.backward()
    return g, _tree(g.grad_fn, 3), pen, {n: p.grad for n, p in sorted(net.named_parameters())}


# --- what the fused nodes show: saved values, names, hooks ---------------------------------------


def _saved_of(T: Any, n: Any) -> list[Any]:
    out = []
    for a in sorted(a for a in dir(n) if a.startswith("_saved_")):
        v = getattr(n, a)
        out.append((a, tuple(v.shape) if isinstance(v, T.Tensor) else v))
    return out


@program()
def prog_ho_fused_nodes_saved_values(T: Any) -> Any:
    F = T.nn.functional
    x4, x3 = _x(T, 1, 2, 4, 4, seed=50), _x(T, 1, 2, 5, seed=51)
    w4, w3 = _x(T, 3, 2, 2, 2, seed=52), _x(T, 3, 2, 2, seed=53)
    b = _x(T, 3, seed=54)
    cases = [
        (F.conv2d(x4, w4, b, stride=2, padding=1), (x4, w4, b)),
        (F.conv1d(x3, w3, stride=2, padding=1), (x3, w3)),
        (F.conv_transpose1d(x3, w3.transpose(0, 1), stride=2, output_padding=1), (x3, w3)),
        (F.conv_transpose2d(x4, w4.transpose(0, 1), groups=1, dilation=2), (x4, w4)),
        (F.prelu(x4, b[:2]), (x4, b)),
        (F.batch_norm(x4, None, None, b[:2], b[1:], training=True), (x4, b)),
        (F.layer_norm(x3, (5,)), (x3,)),
    ]
    out = []
    for y, ins in cases:
        gs = T.autograd.grad(y.pow(2).sum(), ins, create_graph=True)
        n = gs[0].grad_fn
        out.append((n.name(), _saved_of(T, n), [g.output_nr for g in gs]))
    return out


@program()
def prog_ho_fused_node_hooks(T: Any) -> Any:
    """Hooks on a fused double-backward node and on its outputs."""
    x = _x(T, 1, 1, 3, 3, seed=55)
    w = _x(T, 2, 1, 2, 2, seed=56)
    gx, gw = T.autograd.grad(T.nn.functional.conv2d(x, w).pow(2).sum(), (x, w), create_graph=True)
    seen = []
    n = gx.grad_fn
    n.register_hook(
        lambda gi, go: seen.append(("node", [None if t is None else t.shape for t in gi]))
    )
    n.register_prehook(
        lambda go: seen.append(("pre", [None if t is None else t.shape for t in go]))
    )
    gx.register_hook(lambda g: seen.append(("gx", g.shape)))
    (gx.sum() + gw.pow(2).sum()).backward()
    return seen, x.grad, w.grad


@program()
def prog_ho_fused_node_backward_twice_error(T: Any) -> Any:
    """The double-backward graph of a layer norm freed by a backward: a second one raises."""
    x = _x(T, 2, 4, seed=57)
    w = _x(T, 4, seed=58)
    gx, gw = T.autograd.grad(
        T.nn.functional.layer_norm(x, (4,), w).pow(3).sum(), (x, w), create_graph=True
    )
    s = gx.pow(2).sum() + gw.sum()
    s.backward()
    first = (x.grad.clone(), w.grad.clone())
    return first, raises(lambda: s.backward())


@program()
def prog_ho_fused_node_inplace_error(T: Any) -> Any:
    """The input saved by ConvolutionBackwardBackward0 modified in place before the second
    backward: torch's version-counter error."""
    x0 = _x(T, 1, 1, 3, 3, seed=59)
    x = x0 * 1
    w = _x(T, 2, 1, 2, 2, seed=60)
    (gw,) = T.autograd.grad(T.nn.functional.conv2d(x, w).pow(2).sum(), w, create_graph=True)
    with T.no_grad():
        x.mul_(2)
    return raises(lambda: T.autograd.grad(gw.sum(), (x0, w)))


@program()
def prog_ho_gradgradcheck_fused_ops(T: Any) -> Any:
    """gradcheck and gradgradcheck (float64) of conv, conv_transpose, layer norm, batch norm
    and prelu, and gradgradcheck of their create_graph gradients (the third order)."""
    F = T.nn.functional
    x = _x(T, 1, 2, 3, 3, seed=61)
    w = _x(T, 2, 2, 2, 2, seed=62)
    a = _x(T, 2, seed=63)
    fs = {
        "conv": lambda x, w: F.conv2d(x, w, stride=2, padding=1),
        "conv_t": lambda x, w: F.conv_transpose2d(x, w, stride=2),
        "layer_norm": lambda x, w: F.layer_norm(x, (3,), w.flatten()[:3] + 1),
        "batch_norm": lambda x, w: F.batch_norm(x, None, None, w[0, :, 0, 0], training=True),
        "prelu": lambda x, w: F.prelu(x, w[0, :, 0, 0]) * a.sum(),
    }
    out = {}
    for k, f in fs.items():

        def g(x: Any, w: Any, f: Any = f) -> Any:
            return T.autograd.grad(f(x, w).pow(3).sum(), (x, w), create_graph=True)

        out[k] = (
            T.autograd.gradcheck(f, (x, w)),
            T.autograd.gradgradcheck(f, (x, w)),
            T.autograd.gradgradcheck(g, (x, w), raise_exception=False),
        )
    return out


@program()
def prog_ho_func_hessian_layer_norm_conv(T: Any) -> Any:
    """torch.func.hessian (forward over reverse) through layer norm and a convolution."""
    w = _c(T, 2, 1, 2, seed=64)

    def f(x: Any) -> Any:
        y = T.nn.functional.conv1d(x.view(1, 1, 4), w)
        return T.nn.functional.layer_norm(y, (3,)).pow(3).sum()

    x0 = _c(T, 4, seed=65)
    return T.func.hessian(f)(x0), T.func.grad(f)(x0)


@program()
def prog_ho_hvp_batch_norm_functional(T: Any) -> Any:
    """torch.autograd.functional.hvp through a training batch norm and a convolution."""
    w = _c(T, 2, 2, 2, 2, seed=66)

    def f(x: Any) -> Any:
        y = T.nn.functional.conv2d(x, w, padding=1)
        return T.nn.functional.batch_norm(y, None, None, training=True).tanh().sum()

    x0 = _c(T, 2, 2, 3, 3, seed=67)
    v = _c(T, 2, 2, 3, 3, seed=68)
    return T.autograd.functional.hvp(f, x0, v), T.autograd.functional.vhp(f, x0, v)[1]


# --- losses whose double backward torch writes out -----------------------------------------------


@program()
def prog_ho_bce_target_third_order(T: Any) -> Any:
    """binary_cross_entropy with a target that requires grad: the target's second-order
    gradient divides by (1 - x) * x with the product recorded (its clamp is not), so the
    third order reaches x."""
    x = T.tensor(np.linspace(0.1, 0.9, 6).reshape(2, 3), requires_grad=True)
    t = T.tensor(np.linspace(0.8, 0.2, 6).reshape(2, 3), requires_grad=True)
    out = []
    for red in ("mean", "sum", "none"):
        y = T.nn.functional.binary_cross_entropy(x, t, reduction=red)
        gx, gt = T.autograd.grad(y.sum(), (x, t), create_graph=True)
        g2 = T.autograd.grad((gx * gx).sum() + (gt * gt).sum(), (x, t), create_graph=True)
        g3 = T.autograd.grad(g2[1].sum(), (x, t), allow_unused=True)
        out.append((gt, _tree(gt.grad_fn, 2), g2, [_tree(g.grad_fn, 3) for g in g2], g3))
    return out


@program()
def prog_ho_bce_weighted_second_order(T: Any) -> Any:
    x = T.tensor(np.linspace(0.05, 0.95, 8).reshape(2, 4), requires_grad=True)
    t = T.tensor(np.linspace(0.9, 0.1, 8).reshape(2, 4), requires_grad=True)
    wt = T.tensor(np.linspace(0.5, 2.0, 4))
    return _orders(T, lambda x, t: T.nn.functional.binary_cross_entropy(x, t, wt), [x, t])


@program()
def prog_ho_kl_div_second_order(T: Any) -> Any:
    """kl_div's gradients to a target that requires grad arrive (and are summed) in torch's
    order: torch's C++ forms `target * input` before xlogy, and `target - input` before exp."""
    x = _x(T, 2, 3, seed=69)
    t = T.tensor(np.linspace(0.1, 0.9, 6).reshape(2, 3), requires_grad=True)
    out = []
    for lt in (False, True):
        for red in ("batchmean", "sum", "none"):
            tt = (t.log() if lt else t).detach().requires_grad_(True)
            y = T.nn.functional.kl_div(x, tt, reduction=red, log_target=lt)
            gx, gt = T.autograd.grad(y.sum(), (x, tt), create_graph=True)
            g2 = T.autograd.grad((gx * gt).sum() + gt.pow(2).sum(), (x, tt), allow_unused=True)
            out.append((gx, gt, _tree(gx.grad_fn, 3), _tree(gt.grad_fn, 4), g2))
    return out


@program()
def prog_ho_poisson_nll_second_order(T: Any) -> Any:
    x = _x(T, 2, 3, seed=70)
    t = T.tensor(np.linspace(0.5, 3.0, 6).reshape(2, 3), requires_grad=True)
    out = []
    for log_input in (True, False):
        for full in (False, True):
            inp = x if log_input else x.exp()
            y = T.nn.functional.poisson_nll_loss(inp, t, log_input=log_input, full=full)
            gx, gt = T.autograd.grad(y, (x, t), create_graph=True)
            g2 = T.autograd.grad((gx * gx).sum() + (gt * gx).sum(), (x, t), allow_unused=True)
            out.append((gx, gt, _tree(gx.grad_fn, 3), _tree(gt.grad_fn, 3), g2))
    return out


# --- pdist: PdistBackwardBackward0, without a derivative -----------------------------------------


@program()
def prog_ho_pdist_gradient_node(T: Any) -> Any:
    """Under create_graph pdist's gradient is torch's _pdist_backward node (edges: the grad,
    the input, the distances), for every p; differentiating it again raises torch's error."""
    x = _x(T, 4, 3, seed=71)
    out = []
    for p in (2.0, 1.0, 3.0, 0.0, float("inf")):
        y = T.nn.functional.pdist(x, p)
        (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
        out.append((g, _tree(g.grad_fn, 2), g.requires_grad))
    return out, raises(lambda: T.autograd.grad(g.sum(), x))


@program()
def prog_ho_pdist_hessian_raises(T: Any) -> Any:
    """A Hessian through pdist: reverse over reverse reaches the node without a derivative;
    forward over reverse has no forward rule for pdist."""
    x = _c(T, 4, 3, seed=72)

    def f(x: Any) -> Any:
        return T.nn.functional.pdist(x).sum()

    return (
        raises(lambda: T.autograd.functional.hessian(f, x)),
        raises(lambda: T.func.hessian(f)(x)),
        T.autograd.functional.jacobian(f, x),
    )


@program()
def prog_ho_pdist_first_order_unchanged(T: Any) -> Any:
    """Without create_graph the gradient is plain (no node), as before."""
    x = _x(T, 5, 2, seed=73)
    y = T.nn.functional.pdist(x, 1.5)
    (g,) = T.autograd.grad(y.sum(), x)
    y2 = T.nn.functional.pdist(x)
    y2.pow(3).sum().backward()
    return g, g.requires_grad, g.grad_fn, x.grad


# --- edge cases of the fused nodes ---------------------------------------------------------------


@program()
def prog_ho_conv_empty_batch(T: Any) -> Any:
    """An empty batch: the double backward's terms are zeros of the right shapes."""
    x = T.zeros(0, 2, 4, 4, dtype=T.float64, requires_grad=True)
    w = _x(T, 3, 2, 2, 2, seed=80)
    b = _x(T, 3, seed=81)
    return _orders(T, lambda x, w, b: T.nn.functional.conv2d(x, w, b), [x, w, b])


@program()
def prog_ho_layer_norm_empty_batch(T: Any) -> Any:
    x = T.zeros(0, 4, dtype=T.float64, requires_grad=True)
    w, b = _x(T, 4, seed=82), _x(T, 4, seed=83)
    return _orders(T, lambda x, w, b: T.nn.functional.layer_norm(x, (4,), w, b), [x, w, b])


@program(
    tol=Tolerance(
        1e-4,
        1e-4,
        "the third order of a float32 convolution: the float32 sums of three chained "
        "convolutions (im2col-matmul order against oneDNN's) compound, and the third-order "
        "terms partly cancel (~2e-5 relative seen)",
    )
)
def prog_ho_conv_float32(T: Any) -> Any:
    x = _x(T, 2, 2, 5, 5, seed=84, scale=0.3, dtype="float32")
    w = _x(T, 3, 2, 3, 3, seed=85, scale=0.2, dtype="float32")
    b = _x(T, 3, seed=86, dtype="float32")
    return _orders(T, lambda x, w, b: T.nn.functional.conv2d(x, w, b, padding=1), [x, w, b])


@program(
    tol=Tolerance(
        1e-4,
        1e-4,
        "the third order of a float32 layer norm: terms that partly cancel, and torch's float32 "
        "sums depend on its thread count (1.8e-5 relative seen when another test had set it)",
    )
)
def prog_ho_layer_norm_float32(T: Any) -> Any:
    x = _x(T, 3, 6, seed=87, scale=2.0, dtype="float32")
    w, b = _x(T, 6, seed=88, dtype="float32"), _x(T, 6, seed=89, dtype="float32")
    return _orders(T, lambda x, w, b: T.nn.functional.layer_norm(x, (6,), w, b), [x, w, b])


@program()
def prog_ho_batch_norm_float32(T: Any) -> Any:
    x = _x(T, 6, 3, 2, seed=90, scale=2.0, dtype="float32")
    w, b = _x(T, 3, seed=91, dtype="float32"), _x(T, 3, seed=92, dtype="float32")
    return _orders(
        T, lambda x, w, b: T.nn.functional.batch_norm(x, None, None, w, b, True), [x, w, b]
    )


@program()
def prog_ho_conv_noncontiguous_inputs(T: Any) -> Any:
    """Transposed and channels-last inputs and weight: the gradients' layouts and values."""
    x = _x(T, 2, 5, 5, 3, seed=93).permute(0, 3, 1, 2)
    w = _x(T, 2, 3, 3, 3, seed=94, scale=0.5).transpose(2, 3)
    xl = x.detach().contiguous(memory_format=T.channels_last).requires_grad_(True)
    out = []
    for xi in (x, xl):
        y = T.nn.functional.conv2d(xi, w, padding=1)
        go = T.ones_like(y, requires_grad=True)
        gx, gw = T.autograd.grad(y, (xi, w), go, create_graph=True)
        g2 = T.autograd.grad((gx.pow(2).sum() + gw.pow(2).sum()), (xi, w, go))
        out.append((gx, gw, gx.is_contiguous(), gw.is_contiguous(), g2))
    return out


@program()
def prog_ho_conv_same_weight_twice(T: Any) -> Any:
    """conv(x, w) + conv(x, w): one incoming grad reaches two convolution nodes; each has its
    own double-backward node, and their gradients add."""
    x = _x(T, 1, 2, 4, 4, seed=95)
    w = _x(T, 2, 2, 2, 2, seed=96)
    F = T.nn.functional
    y = F.conv2d(x, w) + F.conv2d(x, w)
    gx, gw = T.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)
    g2 = T.autograd.grad(gx.pow(2).sum() + gw.sum(), (x, w))
    return gx, gw, _tree(gx.grad_fn, 2), _tree(gw.grad_fn, 2), g2


@program()
def prog_ho_residual_conv_block_penalty(T: Any) -> Any:
    """x + conv(relu(conv(x))): the residual's gradient and the convolutions' nodes meet."""
    x = _x(T, 1, 2, 4, 4, seed=97)
    w1 = _x(T, 2, 2, 3, 3, seed=98, scale=0.4)
    w2 = _x(T, 2, 2, 3, 3, seed=99, scale=0.4)
    F = T.nn.functional
    y = x + F.conv2d(F.relu(F.conv2d(x, w1, padding=1)), w2, padding=1)
    (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    pen = g.pow(2).mean()
    gs = T.autograd.grad(pen, (x, w1, w2))
    return g, _tree(g.grad_fn, 2), pen, gs


@program()
def prog_ho_batchnorm_module_train_and_eval(T: Any) -> Any:
    """nn.BatchNorm1d with running statistics: the penalty's gradients in training and in
    eval mode, and the running buffers after."""
    m = T.nn.BatchNorm1d(3, momentum=0.3).double()
    with T.no_grad():
        m.weight.copy_(T.tensor([0.5, -1.0, 2.0]))
        m.bias.copy_(T.tensor([0.1, 0.2, -0.3]))
    out = []
    for train in (True, False):
        m.train(train)
        x = _x(T, 5, 3, seed=100 + train)
        (g,) = T.autograd.grad(m(x).pow(3).sum(), x, create_graph=True)
        gs = T.autograd.grad(g.pow(2).sum(), (x, m.weight, m.bias))
        out.append((g, _tree(g.grad_fn, 2), gs))
    return out, m.running_mean, m.running_var, m.num_batches_tracked


@program()
def prog_ho_bn_inplace_relu_penalty(T: Any) -> Any:
    """Batch norm followed by an in-place ReLU (ThresholdBackwardBackward0 over the fused
    batch-norm node)."""
    x = _x(T, 4, 3, seed=102)
    w, b = _x(T, 3, seed=103), _x(T, 3, seed=104)
    F = T.nn.functional
    y = F.relu(F.batch_norm(x, None, None, w, b, training=True), inplace=True)
    (g,) = T.autograd.grad((y * y.detach().cos()).sum(), x, create_graph=True)
    return g, _tree(g.grad_fn, 3), T.autograd.grad(g.pow(2).sum(), (x, w, b))


@program()
def prog_ho_layer_norm_retain_graph_twice(T: Any) -> Any:
    """A layer norm's double-backward graph used twice with retain_graph, then freed."""
    x = _x(T, 3, 4, seed=105)
    w, b = _x(T, 4, seed=106), _x(T, 4, seed=107)
    y = T.nn.functional.layer_norm(x, (4,), w, b)
    gx, gw, gb = T.autograd.grad(y.pow(3).sum(), (x, w, b), create_graph=True)
    s = gx.pow(2).sum() + gw.pow(2).sum() + gb.pow(2).sum()
    a = T.autograd.grad(s, (x, w, b), retain_graph=True)
    b2 = T.autograd.grad(s, (x, w, b))
    return a, b2, raises(lambda: T.autograd.grad(s, (x, w, b)))


@program()
def prog_ho_grad_under_no_grad(T: Any) -> Any:
    """create_graph=True inside no_grad: grad mode is on for the backward (torch's engine),
    so the gradients still carry the fused nodes."""
    x = _x(T, 1, 1, 3, 3, seed=108)
    w = _x(T, 1, 1, 2, 2, seed=109)
    y = T.nn.functional.conv2d(x, w).pow(2).sum()
    with T.no_grad():
        gx, gw = T.autograd.grad(y, (x, w), create_graph=True)
    return gx, gw, gx.requires_grad, _tree(gx.grad_fn, 1)


@program()
def prog_ho_only_grad_output_requires_grad(T: Any) -> Any:
    """Constant input and weight, an incoming grad that requires grad: the gradients are
    linear in it and their nodes have only that edge."""
    x = _c(T, 1, 2, 3, 3, seed=110)
    w = _c(T, 2, 2, 2, 2, seed=111)
    xr = x.clone().requires_grad_(True)
    wr = w.clone().requires_grad_(True)
    F = T.nn.functional
    go = T.tensor(_data(1, 2, 2, 2, seed=112).astype("float64"), requires_grad=True)
    out = []
    for xi, wi in ((xr, w), (x, wr)):
        (g,) = T.autograd.grad(F.conv2d(xi, wi), xi if xi is xr else wi, go, create_graph=True)
        (gg,) = T.autograd.grad(g.pow(2).sum(), go)
        out.append((g, _tree(g.grad_fn, 1), gg))
    return out


@program()
def prog_ho_maml_functional_call_conv_bn(T: Any) -> Any:
    """MAML with torch.func.functional_call: a conv + batch-norm net adapted for one step,
    the outer loss differentiated through the inner gradient."""
    T.manual_seed(0)
    nn = T.nn
    net = nn.Sequential(
        nn.Conv2d(1, 2, 2), nn.BatchNorm2d(2), nn.Tanh(), nn.Flatten(), nn.Linear(8, 1)
    ).double()
    rng = np.random.default_rng(6)
    with T.no_grad():
        for _, p in sorted(net.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape))))
    params = dict(net.named_parameters())
    xs, ys = _c(T, 3, 1, 3, 3, seed=113), _c(T, 3, 1, seed=114)
    xq, yq = _c(T, 3, 1, 3, 3, seed=115), _c(T, 3, 1, seed=116)
    F = T.nn.functional
    inner = F.mse_loss(T.func.functional_call(net, params, (xs,)), ys)
    grads = T.autograd.grad(inner, list(params.values()), create_graph=True)
    fast = {k: v - 0.1 * g for (k, v), g in zip(params.items(), grads, strict=True)}
    outer = F.mse_loss(T.func.functional_call(net, fast, (xq,)), yq)
    outer.backward()
    return (
        inner,
        outer,
        [_tree(g.grad_fn, 1) for g in grads],
        {k: v.grad for k, v in sorted(params.items())},
    )


@program()
def prog_ho_conv_padding_modes_penalty(T: Any) -> Any:
    """Conv2d modules with reflect, replicate and circular padding: the pad's own double
    backward in front of the convolution's."""
    out = []
    for mode in ("reflect", "replicate", "zeros"):
        T.manual_seed(0)
        m = T.nn.Conv2d(1, 2, 3, padding=1, padding_mode=mode, bias=False).double()
        with T.no_grad():
            m.weight.copy_(T.tensor(np.linspace(-1, 1, 18).reshape(2, 1, 3, 3)))
        x = _x(T, 1, 1, 4, 4, seed=117)
        (g,) = T.autograd.grad(m(x).pow(2).sum(), x, create_graph=True)
        gg = T.autograd.grad(g.pow(2).sum(), (x, m.weight))
        out.append((mode, g, _tree(g.grad_fn, 2), gg))
    return out


@program()
def prog_ho_instance_and_group_norm_values(T: Any) -> Any:
    """Second-order values through instance norm (the fused batch-norm node) and group norm
    (torch's composite); group norm's graph names are in ho_group_norm_graph."""
    x = _x(T, 2, 4, 3, seed=118)
    w, b = _x(T, 4, seed=119), _x(T, 4, seed=120)
    F = T.nn.functional
    out = []
    for f in (
        lambda x: F.instance_norm(x, weight=w, bias=b),
        lambda x: F.group_norm(x, 2, w, b),
    ):
        (g,) = T.autograd.grad(f(x).pow(3).sum(), x, create_graph=True)
        out.append((g.detach(), [t.detach() for t in T.autograd.grad(g.pow(2).sum(), (x, w, b))]))
    return out


@program()
def prog_ho_group_norm_graph(T: Any) -> Any:
    x = _x(T, 2, 4, 3, seed=121)
    w, b = _x(T, 4, seed=122), _x(T, 4, seed=123)
    return _orders(T, lambda x, w, b: T.nn.functional.group_norm(x, 2, w, b), [x, w, b])


@program(
    xfail="grid sampling's second-order graph: torch's GridSampler2DBackwardBackward0 formulas "
    "are composites of their own (ScatterAddBackward0 under views for the input, a "
    "StackBackward0 term for the grid, AddcmulBackward0 for the incoming grad); shadowgrad's "
    "compose gathers and scatter_add otherwise (values match: ho2_grid_sample_double_backward_2d)"
)
def prog_ho_grid_sample_double_backward(T: Any) -> Any:
    x = _x(T, 1, 2, 3, 4, seed=124)
    grid = T.tensor(np.linspace(-0.9, 0.8, 8).reshape(1, 2, 2, 2), requires_grad=True)
    f = T.nn.functional.grid_sample
    return _orders(T, lambda x, g: f(x, g, align_corners=False), [x, grid])


@program(
    xfail="circular padding is torch's in-place copies into slices (CopySlices): under "
    "create_graph torch's CopySlices backward clones the grad and writes the slice's gradient "
    "through an as_strided view (CloneBackward0, AsStridedBackward0, CopyBackwards); "
    "shadowgrad's records index and index_put (IndexBackward0, IndexPutBackward0)"
)
def prog_ho_conv_circular_padding_penalty(T: Any) -> Any:
    m = T.nn.Conv2d(1, 2, 3, padding=1, padding_mode="circular", bias=False).double()
    with T.no_grad():
        m.weight.copy_(T.tensor(np.linspace(-1, 1, 18).reshape(2, 1, 3, 3)))
    x = _x(T, 1, 1, 4, 4, seed=125)
    (g,) = T.autograd.grad(m(x).pow(2).sum(), x, create_graph=True)
    return g, _tree(g.grad_fn, 4), T.autograd.grad(g.pow(2).sum(), (x, m.weight))


# --- nll_loss_backward (NllLossBackwardBackward0) and mean-reduced losses ------------------------


def _with_grad_output(T: Any, f: Callable[[Any], Any], x: Any) -> Any:
    """f(x)'s gradient for an incoming grad that requires grad, then the gradient of its
    square to x and to that grad: values and graphs."""
    y = f(x)
    go = T.tensor(np.full(tuple(y.shape), 1.5), dtype=y.dtype, requires_grad=True)
    (g,) = T.autograd.grad(y, x, go, create_graph=True)
    g2 = T.autograd.grad(g.pow(2).sum(), (x, go), create_graph=True, allow_unused=True)
    return g, _tree(g.grad_fn, 3), [None if t is None else (t, _tree(t.grad_fn, 3)) for t in g2]


_CES: dict[str, Callable[[Any, Any], Any]] = {
    "plain": lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([0, 2, 1])),
    "weight": lambda T, x: T.nn.functional.cross_entropy(
        x, T.tensor([0, 2, 1]), weight=T.tensor([1.0, 2.0, 0.5, 1.0], dtype=T.float64)
    ),
    "ignore_index": lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([0, -100, 1])),
    "sum": lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([3, 2, 1]), reduction="sum"),
    "none": lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([3, 2, 1]), reduction="none"),
    "label_smoothing": lambda T, x: T.nn.functional.cross_entropy(
        x, T.tensor([0, 2, 1]), label_smoothing=0.2
    ),
    "label_smoothing_weight": lambda T, x: T.nn.functional.cross_entropy(
        x,
        T.tensor([0, 2, 1]),
        weight=T.tensor([1.0, 2.0, 0.5, 1.0], dtype=T.float64),
        label_smoothing=0.1,
    ),
    "probabilities": lambda T, x: T.nn.functional.cross_entropy(
        x, T.softmax(T.tensor(np.arange(12.0).reshape(3, 4) / 5), 1)
    ),
}


def _ce_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        return _with_grad_output(T, lambda x: f(T, x), _x(T, 3, 4, seed=130))

    _reg(f"cross_entropy_{name}", body)


for _n, _f in _CES.items():
    _ce_program(_n, _f)


@program()
def prog_ho_cross_entropy_2d_and_nll_2d(T: Any) -> Any:
    """Per-pixel losses: nll_loss2d's backward node (NllLoss2DBackwardBackward0)."""
    x = _x(T, 1, 3, 2, 2, seed=131)
    t = T.tensor([[[0, 1], [2, 0]]])
    F = T.nn.functional
    return (
        _with_grad_output(T, lambda x: F.cross_entropy(x, t), x),
        _with_grad_output(T, lambda x: F.nll_loss(x.log_softmax(1), t, reduction="none"), x),
    )


@program()
def prog_ho_nll_loss_direct(T: Any) -> Any:
    """nll_loss of a 1-d input and of a batch with every target ignored (the grad is 0)."""
    F = T.nn.functional
    x1 = _x(T, 4, seed=132)
    xb = _x(T, 2, 3, seed=133)
    return (
        _with_grad_output(T, lambda x: F.nll_loss(x, T.tensor(2)), x1),
        _with_grad_output(T, lambda x: F.nll_loss(x, T.tensor([-100, -100])), xb),
        _with_grad_output(T, lambda x: F.nll_loss(x, T.tensor([1, 0]), reduction="sum"), xb),
    )


_MEAN_LOSSES: dict[str, Callable[[Any, Any], Any]] = {
    "margin_ranking": lambda T, x: T.nn.functional.margin_ranking_loss(
        x[0], x[1], T.tensor([1.0, -1.0, 1.0], dtype=T.float64), margin=0.1
    ),
    "hinge_embedding": lambda T, x: T.nn.functional.hinge_embedding_loss(
        x, T.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], dtype=T.float64)
    ),
    "multilabel_soft_margin": lambda T, x: T.nn.functional.multilabel_soft_margin_loss(
        x, T.tensor([[0.0, 1, 1], [1, 0, 0]], dtype=T.float64)
    ),
    "triplet": lambda T, x: T.nn.functional.triplet_margin_loss(x[0], x[1], x[1].flip(0)),
    "bce_with_logits_pos_weight": lambda T, x: T.nn.functional.binary_cross_entropy_with_logits(
        x,
        T.sigmoid(T.tensor(np.arange(6.0).reshape(2, 3) - 2)),
        pos_weight=T.tensor([1.0, 2.0, 3.0], dtype=T.float64),
    ),
    "x_pow_mean": lambda T, x: x.pow(3).mean(),
}


def _mean_loss_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        return _with_grad_output(T, lambda x: f(T, x), _x(T, 2, 3, seed=134))

    _reg(f"mean_loss_{name}", body)


for _n, _f in _MEAN_LOSSES.items():
    _mean_loss_program(_n, _f)


# --- max pooling and embedding: their backward kernels' double backward --------------------------

_POOLS: dict[str, tuple[Callable[[Any, Any], Any], tuple[int, ...]]] = {
    "max_pool2d_ceil_dilation": (
        lambda T, x: T.nn.functional.max_pool2d(x, 2, 2, 0, 2, ceil_mode=True),
        (1, 2, 6, 6),
    ),
    "max_pool1d": (lambda T, x: T.nn.functional.max_pool1d(x, 3, 2, 1), (2, 3, 7)),
    "max_pool3d": (lambda T, x: T.nn.functional.max_pool3d(x, 2), (1, 1, 4, 4, 4)),
    "adaptive_max_pool2d": (
        lambda T, x: T.nn.functional.adaptive_max_pool2d(x, (2, 3)),
        (1, 2, 5, 7),
    ),
    "adaptive_max_pool1d": (lambda T, x: T.nn.functional.adaptive_max_pool1d(x, 2), (1, 2, 5)),
    "max_pool2d_channels_last": (
        lambda T, x: T.nn.functional.max_pool2d(x.contiguous(memory_format=T.channels_last), 2),
        (2, 3, 4, 4),
    ),
}


def _pool_program(name: str, spec: tuple[Callable[[Any, Any], Any], tuple[int, ...]]) -> None:
    f, shape = spec

    def body(T: Any) -> Any:
        return _with_grad_output(T, lambda x: f(T, x), _x(T, *shape, seed=140))

    _reg(f"pool_{name}", body)


for _n, _p in _POOLS.items():
    _pool_program(_n, _p)


@program()
def prog_ho_embedding_double_backward(T: Any) -> Any:
    """embedding's weight gradient differentiated again (the incoming grad's gradient):
    torch's rows at the indices, the padding row zeroed, never scaled by frequency (torch
    leaves the scaling to the first backward, so repeated indices are not divided here)."""
    F = T.nn.functional
    w = _x(T, 4, 3, seed=141)
    idx = T.tensor([[0, 2, 2], [1, 2, 0]])
    out = []
    for kw in ({}, {"padding_idx": 2}, {"scale_grad_by_freq": True}, {"max_norm": None}):
        out.append(_with_grad_output(T, lambda w, kw=kw: F.embedding(idx, w, **kw), w))
    return out


@program()
def prog_ho_embedding_bag_and_embedding_maml(T: Any) -> Any:
    """A MAML step on an embedding table: the adapted table's gradient reaches the original
    through the embedding's double backward."""
    F = T.nn.functional
    w = _x(T, 5, 2, seed=142)
    idx = T.tensor([1, 3, 3, 0])
    tgt = _c(T, 4, 2, seed=143)
    loss = F.mse_loss(F.embedding(idx, w), tgt)
    (gw,) = T.autograd.grad(loss, w, create_graph=True)
    w2 = w - 0.5 * gw
    outer = F.embedding(idx.flip(0), w2).pow(2).sum()
    (gw0,) = T.autograd.grad(outer, w)
    return gw, _tree(gw.grad_fn, 2), outer, gw0


@program()
def prog_ho_fused_node_asked_again(T: Any) -> Any:
    """One graph, one incoming grad tensor, differentiated with create_graph several times
    for different inputs (retain_graph): each call makes its own double-backward node, the
    gradients of one call share theirs."""
    F = T.nn.functional
    x = _x(T, 1, 2, 3, 3, seed=150)
    w = _x(T, 2, 2, 2, 2, seed=151)
    b = _x(T, 2, seed=152)
    y = F.conv2d(x, w, b)
    go = T.tensor(_data(1, 2, 2, 2, seed=153).astype("float64"))
    out = []
    firsts = []
    for ins in ((w,), (x, w), (x, w, b), (b,), (x,)):
        gs = T.autograd.grad(y, ins, go, create_graph=True, retain_graph=True)
        firsts.append(gs[0].grad_fn)
        out.append(([g.grad_fn is gs[0].grad_fn for g in gs], [g.output_nr for g in gs], gs))
    new_nodes = [a is not c for a, c in itertools.pairwise(firsts)]
    ln = F.layer_norm(x, (3,))
    gl = [T.autograd.grad(ln, x, T.ones_like(ln), create_graph=True)[0] for _ in range(2)]
    return out, new_nodes, gl[0].grad_fn is gl[1].grad_fn, gl


_HESSIAN_FNS: dict[str, Callable[[Any, Any], Any]] = {
    "cross_entropy": lambda T, x: T.nn.functional.cross_entropy(x, T.tensor([1, 3])),
    "cross_entropy_weight": lambda T, x: T.nn.functional.cross_entropy(
        x, T.tensor([1, 3]), weight=T.tensor([1.0, 2.0, 3.0, 4.0], dtype=T.float64)
    ),
    "nll_loss2d": lambda T, x: T.nn.functional.nll_loss(
        x.view(1, 2, 2, 2).log_softmax(1), T.tensor([[[0, 1], [1, 0]]])
    ),
    "max_pool1d": lambda T, x: T.nn.functional.max_pool1d(x.view(1, 2, 4), 2).pow(2).sum(),
    "embedding": lambda T, x: T.nn.functional.embedding(T.tensor([1, 0, 1]), x).pow(3).sum(),
    "prelu": lambda T, x: T.nn.functional.prelu(x, T.tensor([0.25], dtype=T.float64)).pow(3).sum(),
    "layer_norm": lambda T, x: T.nn.functional.layer_norm(x, (4,)).pow(3).sum(),
    "conv_transpose1d": lambda T, x: (
        T.nn.functional.conv_transpose1d(x.view(1, 2, 4), x.new_ones(2, 1, 2)).pow(3).sum()
    ),
    "bce": lambda T, x: T.nn.functional.binary_cross_entropy(
        x.sigmoid(), T.full((2, 4), 0.3, dtype=T.float64)
    ),
}


def _hessian_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        x0 = T.tensor(np.linspace(-1, 1, 8).reshape(2, 4))
        return (
            T.func.hessian(lambda x: f(T, x))(x0),
            T.autograd.functional.hessian(lambda x: f(T, x), x0),
        )

    _reg(f"hessian_{name}", body)


for _n, _f in _HESSIAN_FNS.items():
    _hessian_program(_n, _f)


@program()
def prog_ho_nll_backward_forward_mode(T: Any) -> Any:
    """Forward mode through nll_loss's backward node (NllLossBackwardBackward0 and the 2-d
    one): jacfwd of a gradient, forward-over-reverse, with class weights and ignore_index."""
    x = _x(T, 4, 3, seed=95)
    x4 = _x(T, 2, 3, 2, 2, seed=96)
    t = T.tensor([2, 0, 1, 0])
    t4 = T.tensor([[[0, 2], [1, 1]], [[2, 0], [0, 1]]])
    w = T.tensor([0.5, 1.0, 2.0], dtype=T.float64)
    F = T.nn.functional
    out = {}
    for red in ("mean", "sum"):

        def g(x: Any, red: str = red) -> Any:
            return T.func.grad(lambda z: F.nll_loss(z.log_softmax(1), t, w, reduction=red))(x)

        def g4(x: Any, red: str = red) -> Any:
            return T.func.grad(
                lambda z: F.nll_loss(z.log_softmax(1), t4, ignore_index=1, reduction=red)
            )(x)

        out[red] = (T.func.jacfwd(g)(x.detach()), T.func.jacfwd(g4)(x4.detach()).sum((0, 1)))
    out["hessian"] = T.func.hessian(lambda z: F.cross_entropy(z, t, label_smoothing=0.1))(
        x.detach()
    )
    return out


def _walk(node: Any, depth: int) -> Any:
    if node is None or depth == 0:
        return None
    return node.name(), [_walk(n, depth - 1) for n, _ in node.next_functions]


@program()
def prog_ho_inplace_saves_a_clone_of_self(T: Any) -> Any:
    """An in-place op whose backward reads self's old value saves torch's `original_self =
    self.clone()`: the double-backward graph reaches self's old node through CloneBackward0,
    while the op's own input edge goes straight to it."""
    F = T.nn.functional
    x = T.linspace(-1, 1, 4, requires_grad=True)
    ops = {
        "hardtanh_": lambda y: F.hardtanh_(y),
        "mul_": lambda y: y.mul_(x),
        "div_": lambda y: y.div_(x + 3),
        "pow_": lambda y: y.pow_(2),
        "sigmoid_": lambda y: y.sigmoid_(),
        "relu_": lambda y: y.relu_(),
        "add_": lambda y: y.add_(x),
        "leaky_relu_": lambda y: F.leaky_relu_(y, 0.1),
        "clamp_": lambda y: y.clamp_(-0.5, 0.5),
    }
    out = {}
    for name, f in ops.items():
        y = x * 1.5
        z = f(y)
        saved = getattr(z.grad_fn, "_saved_self", None)
        (g,) = T.autograd.grad(z.sum(), x, create_graph=True)
        gg = T.autograd.grad(g.sum(), x, allow_unused=True)[0] if g.requires_grad else None
        out[name] = (
            _walk(z.grad_fn, 3),
            _walk(g.grad_fn, 4),
            g,
            gg,
            None if saved is None else (saved, _walk(saved.grad_fn, 2)),
        )
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
