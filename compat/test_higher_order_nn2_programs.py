"""Realistic programs: higher-order gradients through nn ops, second round. Gradient
penalties, MAML steps, Hessian-vector products and `torch.autograd.functional` /
`torch.func` Hessians differentiate a backward again: torch records its double-backward
node (grid_sampler's GridSampler2DBackwardBackward0, group norm's
NativeGroupNormBackwardBackward0, ...) or, for composite backward formulas, the ops of the
formula in torch's order. Each program returns the gradients, the names of their graph
(through next_functions), the second- and third-order gradients and their graphs, and
gradcheck/gradgradcheck results in float64. The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch
and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .compare import Tolerance
from .engines import raises
from .test_higher_order_nn_programs import _same_node, _tree, _with_grad_output
from .test_realistic_programs_2 import _data, _gc

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, scale: float = 1.0, shift: float = 0.0) -> Any:
    a = _data(*shape, seed=seed).astype("float64") * scale + shift
    return T.tensor(a, requires_grad=True)


def _c(T: Any, *shape: int, seed: int = 0) -> Any:
    """A float64 constant (no grad)."""
    return T.tensor(_data(*shape, seed=seed).astype("float64"))


def _orders(
    T: Any,
    f: Callable[..., Any],
    inputs: list[Any],
    seed: int = 5,
    depth: int = 2,
    depth2: int | None = None,
) -> Any:
    """First order with create_graph (the incoming grad itself requiring grad), then the
    gradient of sum(g * g * v) over the inputs and the incoming grad (create_graph), then a
    third order of the second-order gradients: values and graph names at each level, each
    order's error (torch's "derivative for ... is not implemented") where it raises."""
    y = f(*inputs)
    rng = np.random.default_rng(seed)
    go = T.tensor(rng.standard_normal(tuple(y.shape)), dtype=y.dtype, requires_grad=True)
    gs = T.autograd.grad(y, list(inputs), go, create_graph=True, allow_unused=True)
    first = [(g, _tree(g.grad_fn, depth)) if g is not None else None for g in gs]
    live = [g for g in gs if g is not None and g.requires_grad]
    if not live:
        return y, first
    vs = [T.tensor(rng.standard_normal(tuple(g.shape)), dtype=g.dtype) for g in live]
    s = sum((g * g * v).sum() for g, v in zip(live, vs, strict=True))
    wrt = [*inputs, go]
    g2 = raises(lambda: T.autograd.grad(s, wrt, create_graph=True, allow_unused=True))
    if not isinstance(g2, tuple):
        return y, first, _same_node(gs), g2
    d2 = depth if depth2 is None else depth2
    second = [(g, _tree(g.grad_fn, d2)) if g is not None else None for g in g2]
    live2 = [g for g in g2 if g is not None and g.requires_grad]
    third = None
    if live2:
        s3 = sum((g.sin()).sum() for g in live2)
        third = raises(lambda: T.autograd.grad(s3, wrt, allow_unused=True))
    return y, first, _same_node(gs), second, third


_GRID_XFAIL = (
    "grid sampling's second order: torch's GridSampler2DBackwardBackward0/3D formulas are "
    "composites of their own (the input's gradient a ScatterAddBackward0 under views, the "
    "grid's a StackBackward0 of weight-derivative products added to grid_sampler_2d_backward's, "
    "the incoming grad's an AddcmulBackward0 added to grid_sampler_2d's); shadowgrad's compose "
    "gathers, scatter_add and stack in another way (the values and node names one level down "
    "match: ho2_grid_sample_double_backward_*)"
)
_XFAIL: dict[str, str] = {}


def _reg(name: str, body: Callable[[Any], Any], xfail: str | None = None) -> None:
    body.__name__ = f"prog_ho2_{name}"
    program(xfail=xfail or _XFAIL.get(name))(body)


def _checks(T: Any, f: Callable[..., Any], inputs: list[Any]) -> Any:
    """gradcheck and gradgradcheck of f at detached float64 copies of the inputs (seeded:
    gradgradcheck's random incoming grads come from the global generator)."""
    ins = tuple(t.detach().clone().requires_grad_() for t in inputs)
    T.manual_seed(0)
    return (
        _gc(lambda: T.autograd.gradcheck(f, ins)),
        _gc(lambda: T.autograd.gradgradcheck(f, ins)),
    )


# Each spec: T -> (function of the inputs, the inputs). A program per spec returns the
# first/second/third orders (_orders) and the gradcheck/gradgradcheck results.
_Spec = Callable[[Any], tuple[Callable[..., Any], list[Any]]]


def _orders_program(name: str, spec: _Spec, xfail: str | None = None, check: bool = True) -> None:
    def body(T: Any) -> Any:
        f, ins = spec(T)
        return _orders(T, f, ins), _checks(T, f, ins) if check else None

    _reg(name, body, xfail)


def _F(T: Any) -> Any:
    return T.nn.functional


# --- grid_sample: GridSampler2DBackwardBackward0 / GridSampler3DBackwardBackward0 ---------------


def _grid(T: Any, *shape: int, seed: int, lim: float = 0.9) -> Any:
    rng = np.random.default_rng(seed)
    return T.tensor(rng.uniform(-lim, lim, shape), requires_grad=True)


_GRIDS: dict[str, tuple[tuple[int, ...], tuple[int, ...], dict[str, Any]]] = {
    "2d_bilinear": ((1, 2, 3, 4), (1, 2, 3, 2), dict(align_corners=False)),
    "2d_bilinear_align": ((2, 1, 3, 3), (2, 2, 2, 2), dict(align_corners=True)),
    "2d_bilinear_border": ((1, 2, 3, 3), (1, 2, 2, 2), dict(padding_mode="border")),
    "2d_bilinear_reflection": (
        (1, 1, 3, 4),
        (1, 3, 2, 2),
        dict(padding_mode="reflection", align_corners=True),
    ),
    "2d_nearest": ((1, 2, 3, 4), (1, 2, 2, 2), dict(mode="nearest", align_corners=False)),
    "2d_bicubic": ((1, 2, 4, 4), (1, 2, 2, 2), dict(mode="bicubic", align_corners=False)),
    "2d_bicubic_border_align": (
        (1, 1, 4, 3),
        (1, 2, 2, 2),
        dict(mode="bicubic", padding_mode="border", align_corners=True),
    ),
    "3d_bilinear": ((1, 2, 2, 3, 3), (1, 2, 1, 2, 3), dict(align_corners=False)),
    "3d_bilinear_reflection": (
        (1, 1, 2, 3, 2),
        (1, 1, 2, 2, 3),
        dict(padding_mode="reflection", align_corners=False),
    ),
    "3d_nearest": ((1, 2, 2, 3, 3), (1, 1, 2, 2, 3), dict(mode="nearest", align_corners=True)),
}


def _grid_spec(xs: tuple[int, ...], gs: tuple[int, ...], kw: dict[str, Any]) -> _Spec:
    def spec(T: Any) -> Any:
        x = _x(T, *xs, seed=1)
        grid = _grid(T, *gs, seed=2, lim=1.2 if kw.get("padding_mode") else 0.9)
        return (lambda x, g: _F(T).grid_sample(x, g, **kw)), [x, grid]

    return spec


def _grid_orders(T: Any, dims: str, depth2: int = 0) -> dict[str, Any]:
    """Every order's values; the first order's graph two levels down, the second order's
    node names (depth2 levels down)."""
    out = {}
    for name, (xs, gs, kw) in _GRIDS.items():
        if name.startswith(dims):
            f, ins = _grid_spec(xs, gs, kw)(T)
            out[name] = _orders(T, f, ins, depth2=depth2)
    return out


def _grid_hessian_loss(T: Any, x: Any) -> Any:
    img = T.arange(6.0, dtype=T.float64).view(1, 1, 2, 3).sin()
    return _F(T).grid_sample(img, x.reshape(1, 3, 1, 2) * 0.8, align_corners=False).pow(2).sum()


@program(xfail=_GRID_XFAIL)
def prog_ho2_grid_sample_second_order_graph(T: Any) -> Any:
    return _grid_orders(T, "2d_bi", depth2=2), _grid_orders(T, "3d_bilinear", depth2=2)


@program()
def prog_ho2_grid_sample_double_backward_2d(T: Any) -> Any:
    """2-d grid sampling, every mode and padding: the input and grid gradients are the two
    outputs of one GridSampler2DBackwardBackward0 (edges: the incoming grad, the input, the
    grid), whose formulas torch composes (grid_sampler_2d of the incoming grad, a scatter-add
    for the input, ...); second and third orders."""
    orders = _grid_orders(T, "2d")
    x = _x(T, 1, 2, 3, 3, seed=3)
    grid = _grid(T, 1, 2, 2, 2, seed=4)
    out = []
    for mode in ("bilinear", "nearest", "bicubic"):
        y = _F(T).grid_sample(x, grid, mode=mode, align_corners=False)
        go = T.tensor(_data(*y.shape, seed=5), requires_grad=True)
        gx, gg = T.autograd.grad(y, (x, grid), go, create_graph=True)
        out.append((gx, gg, _tree(gx.grad_fn, 1), gx.grad_fn is gg.grad_fn, gg.output_nr))
        # only the incoming grad: the grid's gradient is linear in it
        out.append(T.autograd.grad((gx.sum() + gg.sum()), go, retain_graph=True))
    return orders, out


@program()
def prog_ho2_grid_sample_double_backward_3d_and_checks(T: Any) -> Any:
    """3-d grid sampling's second and third orders (GridSampler3DBackwardBackward0),
    gradgradcheck in float64 for every mode and padding (2-d), and 3-d; a spatial
    transformer's Hessian in theta."""
    out: dict[Any, Any] = {"3d orders": _grid_orders(T, "3d")}
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            for align in (False, True):
                x = _x(T, 1, 1, 3, 3, seed=6)
                g = _grid(T, 1, 2, 1, 2, seed=7, lim=1.1)

                def f(x: Any, g: Any, m: str = mode, p: str = pad, a: bool = align) -> Any:
                    return _F(T).grid_sample(x, g, mode=m, padding_mode=p, align_corners=a)

                out[mode, pad, align] = _checks(T, f, [x, g])
    x3 = _x(T, 1, 1, 2, 2, 3, seed=8)
    g3 = _grid(T, 1, 1, 2, 1, 3, seed=9)
    out["3d"] = _checks(T, lambda x, g: _F(T).grid_sample(x, g, align_corners=False), [x3, g3])
    out["spatial transformer"] = _grid_spatial_transformer(T)
    x0 = T.tensor(np.linspace(-0.9, 0.8, 6).reshape(2, 3))
    out["hessian"] = (
        raises(lambda: T.func.hessian(lambda x: _grid_hessian_loss(T, x))(x0)),
        T.autograd.functional.hessian(lambda x: _grid_hessian_loss(T, x), x0),
    )
    return out


def _grid_spatial_transformer(T: Any) -> Any:
    """A spatial transformer: affine_grid of theta, grid_sample, a loss; the Hessian in theta
    (torch.autograd.functional: torch.func's transforms map affine_grid_generator with vmap's
    fallback, see ho2_hessian_vmap_fallback_warnings), and a gradient penalty on the image."""
    img = _c(T, 1, 1, 4, 4, seed=10)
    F = _F(T)

    def loss(theta: Any) -> Any:
        grid = F.affine_grid(theta.view(1, 2, 3), [1, 1, 3, 3], align_corners=False)
        return F.grid_sample(img, grid, align_corners=False).pow(2).sum()

    th = T.tensor([0.9, 0.1, 0.05, -0.1, 1.1, -0.02])
    th = th.double()
    x = img.clone().requires_grad_()
    grid = F.affine_grid(th.view(1, 2, 3), [1, 1, 3, 3], align_corners=False)
    (gx,) = T.autograd.grad(F.grid_sample(x, grid, align_corners=False).sum(), x, create_graph=True)
    return (
        T.autograd.functional.hessian(loss, th),
        T.autograd.functional.hessian(loss, th, create_graph=True).requires_grad,
        gx,
        _tree(gx.grad_fn, 1),
    )


# --- group norm: NativeGroupNormBackwardBackward0 -----------------------------------------------


def _group_norm_spec(g: int, shape: tuple[int, ...], affine: bool) -> _Spec:
    def spec(T: Any) -> Any:
        x = _x(T, *shape, seed=11)
        if not affine:
            return (lambda x: _F(T).group_norm(x, g)), [x]
        w, b = _x(T, shape[1], seed=12), _x(T, shape[1], seed=13)
        return (lambda x, w, b: _F(T).group_norm(x, g, w, b)), [x, w, b]

    return spec


@program()
def prog_ho2_group_norm_orders(T: Any) -> Any:
    """Group norm under create_graph: torch's infinitely differentiable backward composes the
    gradients from the forward's mean and rstd outputs, whose gradients go back into
    NativeGroupNormBackward0 (var_mean_backward) at the next order."""
    out = []
    for g, shape, affine in ((2, (2, 4, 3), True), (3, (2, 3, 2, 2), False), (1, (1, 4, 3), True)):
        f, ins = _group_norm_spec(g, shape, affine)(T)
        out.append((_orders(T, f, ins), _checks(T, f, ins)))
    return out


# --- composite second-order graphs: rms_norm, local_response_norm, normalize, linear, cells ----


def _spec(fn: Callable[[Any, list[Any]], Any], *shapes: tuple[int, ...]) -> _Spec:
    def spec(T: Any) -> Any:
        ins = [_x(T, *s, seed=20 + i) for i, s in enumerate(shapes)]
        return (lambda *a: fn(T, list(a))), ins

    return spec


_COMPOSITES: dict[str, _Spec] = {
    "rms_norm": _spec(lambda T, a: _F(T).rms_norm(a[0], (3,), a[1]), (2, 3), (3,)),
    "rms_norm_no_weight_eps": _spec(lambda T, a: _F(T).rms_norm(a[0], (2, 3), eps=0.1), (2, 2, 3)),
    "local_response_norm": _spec(lambda T, a: _F(T).local_response_norm(a[0], 2), (1, 4, 3)),
    "local_response_norm_2d": _spec(
        lambda T, a: _F(T).local_response_norm(a[0], 3, alpha=0.1, beta=0.5, k=2.0), (1, 3, 2, 2)
    ),
    "normalize_p3": _spec(lambda T, a: _F(T).normalize(a[0], p=3, dim=1), (2, 3)),
    "normalize_p2": _spec(lambda T, a: _F(T).normalize(a[0], dim=0), (2, 3)),
    "normalize_p1": _spec(lambda T, a: _F(T).normalize(a[0], p=1, dim=1), (2, 3)),
    "linear": _spec(lambda T, a: _F(T).linear(a[0], a[1], a[2]), (2, 3), (4, 3), (4,)),
    "linear_3d_input": _spec(lambda T, a: _F(T).linear(a[0], a[1]), (2, 2, 3), (4, 3)),
    "bilinear": _spec(
        lambda T, a: _F(T).bilinear(a[0], a[1], a[2], a[3]), (2, 3), (2, 2), (4, 3, 2), (4,)
    ),
    "rnn_tanh_cell": _spec(
        lambda T, a: T.rnn_tanh_cell(a[0], a[1], a[2], a[3], a[4], a[5]),
        (2, 3),
        (2, 4),
        (4, 3),
        (4, 4),
        (4,),
        (4,),
    ),
    "rnn_relu_cell": _spec(
        lambda T, a: T.rnn_relu_cell(a[0], a[1], a[2], a[3]), (2, 3), (2, 4), (4, 3), (4, 4)
    ),
    "lstm_cell_h": _spec(
        lambda T, a: T.lstm_cell(a[0], (a[1], a[2]), a[3], a[4], a[5], a[6])[0],
        (2, 3),
        (2, 2),
        (2, 2),
        (8, 3),
        (8, 2),
        (8,),
        (8,),
    ),
    "lstm_cell_c": _spec(
        lambda T, a: T.lstm_cell(a[0], (a[1], a[2]), a[3], a[4])[1],
        (2, 3),
        (2, 2),
        (2, 2),
        (8, 3),
        (8, 2),
    ),
    "gru_cell": _spec(
        lambda T, a: T.gru_cell(a[0], a[1], a[2], a[3], a[4], a[5]),
        (2, 3),
        (2, 2),
        (6, 3),
        (6, 2),
        (6,),
        (6,),
    ),
}

for _n, _s in _COMPOSITES.items():
    _orders_program(_n, _s)


# --- interpolate ----------------------------------------------------------------------------


def _interp(shape: tuple[int, ...], **kw: Any) -> _Spec:
    return _spec(lambda T, a: _F(T).interpolate(a[0], **kw), shape)


_INTERPS: dict[str, _Spec] = {
    "nearest_1d": _interp((1, 2, 3), scale_factor=2),
    "nearest_2d_size": _interp((1, 1, 3, 2), size=(4, 5)),
    "nearest_exact_2d": _interp((1, 1, 3, 3), size=(5, 2), mode="nearest-exact"),
    "nearest_3d_scale": _interp((1, 1, 2, 2, 2), scale_factor=1.5),
    "linear_1d": _interp((1, 2, 3), size=5, mode="linear", align_corners=False),
    "linear_1d_align": _interp((1, 2, 4), scale_factor=1.5, mode="linear", align_corners=True),
    "bilinear": _interp((1, 2, 3, 3), size=(4, 5), mode="bilinear", align_corners=False),
    "bilinear_align": _interp((1, 1, 3, 4), scale_factor=2, mode="bilinear", align_corners=True),
    "bilinear_antialias": _interp(
        (1, 1, 5, 5), size=(3, 2), mode="bilinear", antialias=True, align_corners=False
    ),
    "bilinear_recompute": _interp(
        (1, 1, 3, 3), scale_factor=1.7, mode="bilinear", recompute_scale_factor=True
    ),
    "bicubic": _interp((1, 1, 3, 3), size=(5, 4), mode="bicubic", align_corners=False),
    "bicubic_align": _interp((1, 2, 3, 3), scale_factor=2, mode="bicubic", align_corners=True),
    "bicubic_antialias": _interp((1, 1, 6, 5), size=(3, 3), mode="bicubic", antialias=True),
    "trilinear": _interp((1, 1, 2, 3, 2), size=(3, 3, 3), mode="trilinear"),
    "trilinear_align": _interp(
        (1, 1, 2, 2, 2), scale_factor=(1.5, 2, 1), mode="trilinear", align_corners=True
    ),
    "area": _interp((1, 2, 5, 4), size=(2, 3), mode="area"),
    "area_1d": _interp((1, 1, 7), size=3, mode="area"),
}

_INTERPS["nearest_exact_3d_scale"] = _interp(
    (1, 1, 2, 3, 2), scale_factor=(1.5, 1, 2), mode="nearest-exact"
)
_INTERPS["bicubic_transposed"] = _spec(
    lambda T, a: _F(T).interpolate(a[0].transpose(2, 3), size=(4, 4), mode="bicubic"), (1, 1, 3, 2)
)
_INTERPS["linear_scale_recompute"] = _interp(
    (1, 2, 4), scale_factor=1.3, mode="linear", recompute_scale_factor=True
)

for _n, _s in _INTERPS.items():
    _orders_program(f"interpolate_{_n}", _s)


# --- pooling --------------------------------------------------------------------------------

_POOLS: dict[str, _Spec] = {
    "avg_pool1d": _spec(lambda T, a: _F(T).avg_pool1d(a[0], 3, 2, 1), (1, 2, 6)),
    "avg_pool2d": _spec(lambda T, a: _F(T).avg_pool2d(a[0], 2), (1, 2, 4, 4)),
    "avg_pool2d_pad_exclude_ceil": _spec(
        lambda T, a: _F(T).avg_pool2d(a[0], 3, 2, 1, ceil_mode=True, count_include_pad=False),
        (1, 1, 5, 4),
    ),
    "avg_pool2d_divisor": _spec(
        lambda T, a: _F(T).avg_pool2d(a[0], 2, 1, divisor_override=3), (1, 1, 3, 3)
    ),
    "avg_pool3d": _spec(lambda T, a: _F(T).avg_pool3d(a[0], 2, 1, 1), (1, 1, 2, 3, 2)),
    "adaptive_avg_pool1d": _spec(lambda T, a: _F(T).adaptive_avg_pool1d(a[0], 3), (1, 2, 7)),
    "adaptive_avg_pool2d": _spec(
        lambda T, a: _F(T).adaptive_avg_pool2d(a[0], (2, 3)), (1, 2, 5, 4)
    ),
    "adaptive_avg_pool2d_global": _spec(
        lambda T, a: _F(T).adaptive_avg_pool2d(a[0], 1), (2, 3, 2, 2)
    ),
    "adaptive_avg_pool3d": _spec(
        lambda T, a: _F(T).adaptive_avg_pool3d(a[0], (1, 2, 2)), (1, 1, 3, 3, 3)
    ),
    "adaptive_max_pool3d": _spec(lambda T, a: _F(T).adaptive_max_pool3d(a[0], 2), (1, 1, 3, 3, 3)),
    "lp_pool1d": _spec(lambda T, a: _F(T).lp_pool1d(a[0], 2, 2), (1, 2, 6)),
    "lp_pool2d_p3": _spec(lambda T, a: _F(T).lp_pool2d(a[0].abs() + 0.1, 3, 2), (1, 1, 4, 4)),
    "lp_pool3d": _spec(lambda T, a: _F(T).lp_pool3d(a[0], 2, 2), (1, 1, 2, 2, 4)),
}

for _n, _s in _POOLS.items():
    _orders_program(f"pool_{_n}", _s)


@program()
def prog_ho2_fractional_max_pool(T: Any) -> Any:
    """fractional_max_pool2d/3d with fixed samples: the pooled gradients and their double
    backward (a gather of the incoming grad's gradient)."""
    F = _F(T)
    x2 = _x(T, 1, 2, 5, 5, seed=30)
    x3 = _x(T, 1, 1, 4, 4, 4, seed=31)
    s2 = T.tensor([[[0.3, 0.7], [0.1, 0.9]]], dtype=T.float64)
    s3 = T.tensor([[[0.2, 0.5, 0.8]]], dtype=T.float64)
    return (
        _with_grad_output(
            T, lambda x: F.fractional_max_pool2d(x, 2, (3, 3), _random_samples=s2), x2
        ),
        _with_grad_output(
            T, lambda x: F.fractional_max_pool3d(x, 2, output_ratio=0.5, _random_samples=s3), x3
        ),
    )


@program()
def prog_ho2_max_unpool(T: Any) -> Any:
    """max_unpool1d/2d/3d of max_pool's indices: the unpool's gradient is a gather, its double
    backward the unpool again."""
    F = _F(T)
    out = []
    for d, shape in ((1, (1, 2, 6)), (2, (1, 1, 4, 4)), (3, (1, 1, 2, 2, 4))):
        src = _c(T, *shape, seed=32 + d)
        pool = getattr(F, f"max_pool{d}d")
        unpool = getattr(F, f"max_unpool{d}d")
        p, idx = pool(src, 2, return_indices=True)
        x = p.detach().clone().requires_grad_()
        out.append(_with_grad_output(T, lambda x, u=unpool, i=idx: u(x, i, 2), x))
        out.append(_checks(T, lambda x, u=unpool, i=idx: u(x, i, 2), [x]))
    return out


# --- embedding_bag ----------------------------------------------------------------------------


def _bag(mode: str, psw: bool = False, padding_idx: int | None = None) -> Callable[[Any], Any]:
    def body(T: Any) -> Any:
        w = _x(T, 5, 3, seed=40)
        idx = T.tensor([1, 3, 3, 0, 4, 2])
        offs = T.tensor([0, 2, 2, 5])
        ins = [w]
        if psw:
            ins.append(_x(T, 6, seed=41))

        def f(w: Any, p: Any = None) -> Any:
            return _F(T).embedding_bag(
                idx, w, offs, mode=mode, per_sample_weights=p, padding_idx=padding_idx
            )

        return _orders(T, f, ins), _checks(T, f, ins)

    return body


for _m in ("sum", "mean", "max"):
    _reg(f"embedding_bag_{_m}", _bag(_m))
    _reg(f"embedding_bag_{_m}_padding_idx", _bag(_m, padding_idx=3))
_reg("embedding_bag_sum_per_sample_weights", _bag("sum", psw=True))
_reg("embedding_bag_sum_per_sample_weights_padding", _bag("sum", psw=True, padding_idx=3))


@program()
def prog_ho2_embedding_bag_2d_input_hessian(T: Any) -> Any:
    F = _F(T)
    idx = T.tensor([[0, 2], [1, 1], [3, 0]])

    def f(w: Any) -> Any:
        return F.embedding_bag(idx, w, mode="mean").pow(3).sum()

    w0 = T.tensor(np.linspace(-1, 1, 8).reshape(4, 2))
    return (
        raises(lambda: T.autograd.functional.hessian(f, w0)),
        raises(lambda: T.func.hessian(f)(w0)),
    )


# --- ctc_loss ---------------------------------------------------------------------------------


@program()
def prog_ho2_ctc_loss_double_backward(T: Any) -> Any:
    """ctc_loss's gradient differentiated again: torch's ctc_loss_backward has no derivative
    (the error torch raises), and its graph."""
    F = _F(T)
    lp = _x(T, 5, 2, 4, seed=50)
    tg = T.tensor([[1, 2], [3, 3]])
    out = []
    for red in ("mean", "sum", "none"):

        def f(lp: Any, red: str = red) -> Any:
            return F.ctc_loss(lp.log_softmax(2), tg, [5, 4], [2, 2], reduction=red)

        out.append(raises(lambda f=f: _orders(T, f, [lp])))
    return out


# --- losses -----------------------------------------------------------------------------------

_LOSSES: dict[str, _Spec] = {
    "multi_margin": _spec(lambda T, a: _F(T).multi_margin_loss(a[0], T.tensor([0, 2, 1])), (3, 4)),
    "multi_margin_p2_weight": _spec(
        lambda T, a: _F(T).multi_margin_loss(
            a[0], T.tensor([3, 0]), p=2, margin=0.7, weight=T.tensor([1.0, 2, 3, 4]).double()
        ),
        (2, 4),
    ),
    "multilabel_margin": _spec(
        lambda T, a: _F(T).multilabel_margin_loss(a[0], T.tensor([[3, 0, -1, 1], [1, -1, 0, 0]])),
        (2, 4),
    ),
    "soft_margin": _spec(
        lambda T, a: _F(T).soft_margin_loss(a[0], T.tensor([[1.0, -1, 1], [-1, -1, 1]]).double()),
        (2, 3),
    ),
    "triplet_p1_swap": _spec(
        lambda T, a: _F(T).triplet_margin_loss(a[0], a[1], a[2], p=1, swap=True, margin=2.0),
        (2, 3),
        (2, 3),
        (2, 3),
    ),
    "triplet_with_distance": _spec(
        lambda T, a: _F(T).triplet_margin_with_distance_loss(
            a[0], a[1], a[2], distance_function=_F(T).pairwise_distance
        ),
        (2, 3),
        (2, 3),
        (2, 3),
    ),
    "cosine_embedding": _spec(
        lambda T, a: _F(T).cosine_embedding_loss(
            a[0], a[1], T.tensor([1.0, -1.0]).double(), margin=0.1
        ),
        (2, 3),
        (2, 3),
    ),
    "margin_ranking_sum": _spec(
        lambda T, a: _F(T).margin_ranking_loss(
            a[0], a[1], T.tensor([1.0, -1, -1]).double(), reduction="sum"
        ),
        (3,),
        (3,),
    ),
    "hinge_embedding_margin": _spec(
        lambda T, a: _F(T).hinge_embedding_loss(
            a[0], T.tensor([[1.0, -1, -1], [-1, 1, -1]]).double(), margin=0.5, reduction="none"
        ),
        (2, 3),
    ),
    "gaussian_nll": _spec(
        lambda T, a: _F(T).gaussian_nll_loss(a[0], a[1], a[2].exp()), (2, 3), (2, 3), (2, 3)
    ),
    "gaussian_nll_full_scalar_var": _spec(
        lambda T, a: _F(T).gaussian_nll_loss(a[0], a[1], a[2].exp(), full=True, eps=0.5),
        (2, 3),
        (2, 3),
        (2, 1),
    ),
    "poisson_nll_log": _spec(lambda T, a: _F(T).poisson_nll_loss(a[0], a[1].abs()), (2, 3), (2, 3)),
    "poisson_nll_full": _spec(
        lambda T, a: _F(T).poisson_nll_loss(
            a[0].abs() + 0.5, a[1].abs() * 3, log_input=False, full=True
        ),
        (2, 3),
        (2, 3),
    ),
    "bce_weight": _spec(
        lambda T, a: _F(T).binary_cross_entropy(
            a[0].sigmoid(), a[1].sigmoid(), weight=T.tensor([0.5, 2.0, 1.0]).double()
        ),
        (2, 3),
        (2, 3),
    ),
    "bce_weight_none": _spec(
        lambda T, a: _F(T).binary_cross_entropy(
            a[0].sigmoid(), T.tensor([[0.0, 1, 0.3], [1, 0, 0.5]]).double(), reduction="none"
        ),
        (2, 3),
    ),
    "kl_div_log_target": _spec(
        lambda T, a: _F(T).kl_div(a[0], a[1], reduction="batchmean", log_target=True),
        (2, 3),
        (2, 3),
    ),
}

for _n, _s in _LOSSES.items():
    _orders_program(f"loss_{_n}", _s)


@program()
def prog_ho2_smooth_l1_huber_at_boundaries(T: Any) -> Any:
    """smooth_l1 and huber with the difference exactly at 0, at +-beta/delta and beyond: the
    second derivative's side at the kink, and beta=0 (l1)."""
    F = _F(T)
    d = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]
    out = []
    for f in (
        lambda x, y: F.smooth_l1_loss(x, y, beta=1.0),
        lambda x, y: F.smooth_l1_loss(x, y, beta=0.5, reduction="sum"),
        lambda x, y: F.smooth_l1_loss(x, y, beta=0.0),
        lambda x, y: F.huber_loss(x, y, delta=1.0),
        lambda x, y: F.huber_loss(x, y, delta=0.5, reduction="none"),
        lambda x, y: F.l1_loss(x, y, reduction="none"),
    ):
        x = T.tensor(d, dtype=T.float64, requires_grad=True)
        y = T.zeros(7, dtype=T.float64, requires_grad=True)
        out.append(_orders(T, f, [x, y]))
    return out


# --- activations ------------------------------------------------------------------------------


def _act(fn: Callable[[Any, Any], Any]) -> _Spec:
    def spec(T: Any) -> Any:
        x = T.tensor(
            [[-3.0, -1.5, -0.5, 0.0, 0.25], [0.5, 1.0, 2.9, 3.0, 4.0]], requires_grad=True
        ).double()
        x = x.detach().requires_grad_()
        return (lambda x: fn(T, x)), [x]

    return spec


_ACTS: dict[str, _Spec] = {
    "softplus": _act(lambda T, x: _F(T).softplus(x)),
    "softplus_beta_threshold": _act(lambda T, x: _F(T).softplus(x, beta=2, threshold=3)),
    "elu": _act(lambda T, x: _F(T).elu(x)),
    "elu_alpha": _act(lambda T, x: _F(T).elu(x, alpha=0.5)),
    "selu": _act(lambda T, x: _F(T).selu(x)),
    "celu": _act(lambda T, x: _F(T).celu(x, alpha=2.0)),
    "silu": _act(lambda T, x: _F(T).silu(x)),
    "mish": _act(lambda T, x: _F(T).mish(x)),
    "hardswish": _act(lambda T, x: _F(T).hardswish(x)),
    "hardsigmoid": _act(lambda T, x: _F(T).hardsigmoid(x)),
    "logsigmoid": _act(lambda T, x: _F(T).logsigmoid(x)),
    "glu": _act(lambda T, x: _F(T).glu(x, dim=0)),
    "glu_last": _act(lambda T, x: _F(T).glu(x[:, :4], dim=-1)),
    "threshold": _act(lambda T, x: _F(T).threshold(x, 0.5, -2.0)),
    "rrelu_eval": _act(lambda T, x: _F(T).rrelu(x, training=False)),
    "hardtanh": _act(lambda T, x: _F(T).hardtanh(x, -1.0, 1.0)),
    "relu6": _act(lambda T, x: _F(T).relu6(x)),
    "softshrink": _act(lambda T, x: _F(T).softshrink(x, 0.5)),
    "hardshrink": _act(lambda T, x: _F(T).hardshrink(x, 0.5)),
    "tanhshrink": _act(lambda T, x: _F(T).tanhshrink(x)),
    "softsign": _act(lambda T, x: _F(T).softsign(x)),
    "gelu_tanh": _act(lambda T, x: _F(T).gelu(x, approximate="tanh")),
    "leaky_relu": _act(lambda T, x: _F(T).leaky_relu(x, 0.2)),
    "log_softmax": _act(lambda T, x: _F(T).log_softmax(x, 1)),
    "softmin": _act(lambda T, x: _F(T).softmin(x, 0)),
}

for _n, _s in _ACTS.items():
    _orders_program(f"act_{_n}", _s)


# --- attention --------------------------------------------------------------------------------


def _sdpa(**kw: Any) -> _Spec:
    def spec(T: Any) -> Any:
        q, k, v = _x(T, 1, 2, 3, 4, seed=60), _x(T, 1, 2, 5, 4, seed=61), _x(T, 1, 2, 5, 4, seed=62)
        kw2 = dict(kw)
        if kw2.get("attn_mask") == "bool":
            kw2["attn_mask"] = T.tensor([[True, False, True, True, False]] * 3)
        elif kw2.get("attn_mask") == "float":
            kw2["attn_mask"] = T.tensor(_data(3, 5, seed=63)).double()
        return (
            lambda q, k, v: _F(T).scaled_dot_product_attention(q, k, v, dropout_p=0.0, **kw2)
        ), [q, k, v]

    return spec


_SDPAS: dict[str, _Spec] = {
    "plain": _sdpa(),
    "bool_mask": _sdpa(attn_mask="bool"),
    "float_mask": _sdpa(attn_mask="float"),
    "causal": _sdpa(is_causal=True),
    "scale": _sdpa(scale=0.3),
}

_SDPAS["mask_requires_grad"] = _spec(
    lambda T, a: _F(T).scaled_dot_product_attention(a[0], a[1], a[2], attn_mask=a[3]),
    (1, 2, 3, 4),
    (1, 2, 5, 4),
    (1, 2, 5, 4),
    (3, 5),
)
_SDPAS["gqa"] = _spec(
    lambda T, a: _F(T).scaled_dot_product_attention(a[0], a[1], a[2], enable_gqa=True),
    (1, 4, 3, 2),
    (1, 2, 3, 2),
    (1, 2, 3, 2),
)
_SDPAS["transposed_query"] = _spec(
    lambda T, a: _F(T).scaled_dot_product_attention(a[0].transpose(1, 2), a[1], a[2]),
    (1, 3, 2, 4),
    (1, 2, 5, 4),
    (1, 2, 5, 4),
)

for _n, _s in _SDPAS.items():
    _orders_program(f"sdpa_{_n}", _s, check=_n == "plain")


# --- pixel_shuffle / unfold / fold, similarity and distance --------------------------------------

_SHAPES: dict[str, _Spec] = {
    "pixel_shuffle": _spec(lambda T, a: _F(T).pixel_shuffle(a[0], 2), (1, 4, 2, 3)),
    "pixel_unshuffle": _spec(lambda T, a: _F(T).pixel_unshuffle(a[0], 2), (1, 1, 4, 2)),
    "unfold": _spec(lambda T, a: _F(T).unfold(a[0], 2, padding=1, stride=2), (1, 2, 3, 3)),
    "unfold_dilation": _spec(lambda T, a: _F(T).unfold(a[0], (2, 1), dilation=2), (1, 1, 4, 3)),
    "fold": _spec(lambda T, a: _F(T).fold(a[0], (3, 3), 2), (1, 4, 4)),
    "fold_stride_pad": _spec(
        lambda T, a: _F(T).fold(a[0], (4, 3), 2, padding=1, stride=2), (2, 8, 6)
    ),
    "cosine_similarity": _spec(lambda T, a: _F(T).cosine_similarity(a[0], a[1]), (2, 3), (2, 3)),
    "cosine_similarity_broadcast": _spec(
        lambda T, a: _F(T).cosine_similarity(a[0], a[1], dim=-1, eps=0.5), (2, 1, 3), (4, 3)
    ),
    "pairwise_distance": _spec(lambda T, a: _F(T).pairwise_distance(a[0], a[1]), (2, 3), (2, 3)),
    "pairwise_distance_p1_keepdim": _spec(
        lambda T, a: _F(T).pairwise_distance(a[0], a[1], p=1, keepdim=True), (2, 3), (2, 3)
    ),
    "pairwise_distance_p3": _spec(
        lambda T, a: _F(T).pairwise_distance(a[0], a[1], p=3, eps=0.1), (3,), (2, 3)
    ),
    "pairwise_distance_inf": _spec(
        lambda T, a: _F(T).pairwise_distance(a[0], a[1], p=float("inf")), (2, 3), (2, 3)
    ),
}

for _n, _s in _SHAPES.items():
    _orders_program(_n, _s)


@program()
def prog_ho2_cosine_similarity_zero_vector(T: Any) -> Any:
    """cosine_similarity with a zero vector (the eps clamp) and identical vectors."""
    F = _F(T)
    a = T.tensor([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]], dtype=T.float64, requires_grad=True)
    b = T.tensor([[1.0, 0.5, 0.0], [1.0, 2.0, 3.0]], dtype=T.float64, requires_grad=True)
    return _orders(T, lambda a, b: F.cosine_similarity(a, b), [a, b])


@program()
def prog_ho2_pairwise_distance_equal_points(T: Any) -> Any:
    """pairwise_distance of equal points: the eps keeps the norm away from 0."""
    F = _F(T)
    a = T.tensor([[1.0, 2.0], [0.0, 0.0]], dtype=T.float64, requires_grad=True)
    b = T.tensor([[1.0, 2.0], [0.0, 0.0]], dtype=T.float64, requires_grad=True)
    return _orders(T, lambda a, b: F.pairwise_distance(a, b), [a, b])


# --- layouts, dtypes and sizes at second order ------------------------------------------------


@program()
def prog_ho2_group_norm_edge_inputs(T: Any) -> Any:
    """Group norm's double backward on a float32 input, a channels-last input, a transposed
    (non-contiguous) input, an empty batch and one element per group."""
    F = _F(T)
    out = []
    x32 = T.tensor(_data(2, 4, 3, seed=70), requires_grad=True)
    w32 = T.tensor(_data(4, seed=71), requires_grad=True)
    out.append(_orders(T, lambda x, w: F.group_norm(x, 2, w), [x32, w32]))
    xcl = _x(T, 1, 4, 2, 2, seed=72)
    out.append(
        _orders(T, lambda x: F.group_norm(x.contiguous(memory_format=T.channels_last), 2), [xcl])
    )
    xt = _x(T, 3, 4, seed=73)
    out.append(_orders(T, lambda x: F.group_norm(x.t(), 3), [xt]))
    xe = _x(T, 0, 4, 3, seed=74)
    out.append(_orders(T, lambda x: F.group_norm(x, 2), [xe]))
    x1 = _x(T, 2, 4, seed=75)
    out.append(_orders(T, lambda x: F.group_norm(x, 4), [x1]))
    return out


@program()
def prog_ho2_group_norm_module_gradient_penalty(T: Any) -> Any:
    """A GroupNorm module in a small conv net: a WGAN-GP style input-gradient penalty, its
    gradients on every parameter."""
    T.manual_seed(0)
    nn = T.nn
    net = nn.Sequential(nn.Conv2d(2, 4, 2), nn.GroupNorm(2, 4), nn.SiLU(), nn.Flatten()).double()
    x = _x(T, 2, 2, 3, 3, seed=76)
    (g,) = T.autograd.grad(net(x).sum(), x, create_graph=True)
    penalty = (g.flatten(1).norm(dim=1) - 1).pow(2).mean()
    penalty.backward()
    return g, penalty, {k: p.grad for k, p in sorted(net.named_parameters())}


@program()
def prog_ho2_grid_sample_edge_inputs(T: Any) -> Any:
    """grid_sample's double backward on a transposed grid, grid points exactly on
    the borders and corners (+-1), and far outside (zeros padding: no taps in bounds); the
    second order's node names (its graph below them: ho2_grid_sample_second_order_graph)."""
    F = _F(T)
    out = []
    x = _x(T, 1, 1, 3, 4, seed=78)
    gt = T.tensor(np.linspace(-0.8, 0.9, 12).reshape(1, 2, 3, 2), requires_grad=True)
    out.append(
        _orders(
            T,
            lambda x, g: F.grid_sample(x, g.transpose(1, 2), align_corners=True),
            [x, gt],
            depth2=0,
        )
    )
    gb = T.tensor([[[[-1.0, -1.0], [1.0, 1.0]], [[1.0, -1.0], [0.0, 1.0]]]], requires_grad=True)
    gb = gb.double().detach().requires_grad_()
    for kw in (
        dict(align_corners=True),
        dict(align_corners=False, padding_mode="border"),
        dict(align_corners=False, mode="bicubic"),
    ):
        out.append(_orders(T, lambda x, g, kw=kw: F.grid_sample(x, g, **kw), [x, gb], depth2=0))
    gf = T.tensor([[[[3.0, 0.2], [-4.0, 5.0]]]], dtype=T.float64, requires_grad=True)
    out.append(_orders(T, lambda x, g: F.grid_sample(x, g, align_corners=False), [x, gf], depth2=0))
    return out


@program(
    tol=Tolerance(
        2e-4,
        1e-4,
        "float32 third order of grid sampling: torch's double-backward composite sums the "
        "taps' terms in another order, and the third order's sin of second-order gradients "
        "of ~40 amplifies their float32 rounding",
    )
)
def prog_ho2_grid_sample_float32(T: Any) -> Any:
    F = _F(T)
    out = []
    x32 = T.tensor(_data(1, 2, 3, 3, seed=77), requires_grad=True)
    g32 = T.tensor(np.linspace(-0.9, 0.7, 8).reshape(1, 2, 2, 2).astype("float32"))
    g32.requires_grad_()
    out.append(
        _orders(T, lambda x, g: F.grid_sample(x, g, align_corners=False), [x32, g32], depth2=0)
    )
    return out


@program()
def prog_ho2_interpolate_and_pool_edge_inputs(T: Any) -> Any:
    """Second order through interpolate and pooling of a float32 input, a channels-last
    input, and a transposed one."""
    F = _F(T)
    out = []
    x32 = T.tensor(_data(1, 2, 3, 3, seed=79), requires_grad=True)
    out.append(_orders(T, lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), [x32]))
    out.append(_orders(T, lambda x: F.avg_pool2d(x, 2, 1), [x32]))
    xcl = _x(T, 1, 2, 3, 3, seed=80)
    out.append(
        _orders(
            T,
            lambda x: F.interpolate(
                x.contiguous(memory_format=T.channels_last), size=(4, 5), mode="bicubic"
            ),
            [xcl],
        )
    )
    xt = _x(T, 1, 2, 4, 3, seed=81)
    out.append(_orders(T, lambda x: F.adaptive_avg_pool2d(x.transpose(2, 3), (2, 2)), [xt]))
    return out


_MORE: dict[str, _Spec] = {
    "cdist_p2": _spec(lambda T, a: T.cdist(a[0], a[1]), (3, 2), (4, 2)),
    "cdist_p1": _spec(lambda T, a: T.cdist(a[0], a[1], p=1), (2, 3), (3, 3)),
    "cdist_p3_batched": _spec(lambda T, a: T.cdist(a[0], a[1], p=3), (2, 2, 3), (2, 3, 3)),
    "pdist": _spec(lambda T, a: _F(T).pdist(a[0]), (4, 3)),
    "layer_norm_transposed": _spec(
        lambda T, a: _F(T).layer_norm(a[0].transpose(0, 1), (2,), a[1], a[2]), (2, 3), (2,), (2,)
    ),
    "batch_norm_transposed": _spec(
        lambda T, a: _F(T).batch_norm(a[0].t(), None, None, a[1], a[2], training=True),
        (3, 4),
        (3,),
        (3,),
    ),
    "instance_norm_running": _spec(
        lambda T, a: _F(T).instance_norm(
            a[0], T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64), use_input_stats=True
        ),
        (2, 3, 4),
    ),
    "log_softmax_transposed": _spec(lambda T, a: _F(T).log_softmax(a[0].t(), 0), (3, 4)),
    "softmax_dtype": _spec(lambda T, a: _F(T).softmax(a[0], 1, dtype=T.float64), (2, 3)),
    "kl_div_batchmean": _spec(
        lambda T, a: _F(T).kl_div(a[0].log_softmax(1), a[1].softmax(1), reduction="batchmean"),
        (2, 3),
        (2, 3),
    ),
    "nll_weighted_ignore": _spec(
        lambda T, a: _F(T).nll_loss(
            a[0].log_softmax(1),
            T.tensor([2, 0, 1]),
            weight=T.tensor([0.5, 2.0, 1.5], dtype=T.float64),
            ignore_index=0,
        ),
        (3, 3),
    ),
    "embedding_max_norm": _spec(
        lambda T, a: _F(T).embedding(T.tensor([0, 2, 2]), a[0] * 1, max_norm=0.5), (3, 2)
    ),
    "prelu_channels": _spec(lambda T, a: _F(T).prelu(a[0], a[1]), (2, 3, 2), (3,)),
    "dropout_p0": _spec(lambda T, a: _F(T).dropout(a[0], 0.0) * a[0], (2, 3)),
    "conv1d_reflect_pad": _spec(
        lambda T, a: _F(T).conv1d(_F(T).pad(a[0], (2, 1), mode="reflect"), a[1]),
        (1, 2, 5),
        (3, 2, 2),
    ),
    "pad_replicate_2d": _spec(
        lambda T, a: _F(T).pad(a[0], (1, 2, 0, 1), mode="replicate").pow(2), (1, 1, 2, 3)
    ),
}

for _n, _s in _MORE.items():
    _orders_program(_n, _s)


# --- the order a node computes its inputs' gradients in ---------------------------------------

_CORE: dict[str, _Spec] = {
    "mul": _spec(lambda T, a: a[0] * a[1], (2, 3), (2, 3)),
    "div": _spec(lambda T, a: a[0] / (a[1].exp() + 0.5), (2, 3), (2, 3)),
    "div_broadcast": _spec(lambda T, a: a[0] / (a[1].exp() + 0.5), (2, 3), (3,)),
    "lerp": _spec(lambda T, a: T.lerp(a[0], a[1], a[2].sigmoid()), (2, 3), (2, 3), (2, 3)),
    "addcmul": _spec(lambda T, a: T.addcmul(a[0], a[1], a[2], value=0.5), (3,), (3,), (2, 3)),
    "addcdiv": _spec(
        lambda T, a: T.addcdiv(a[0], a[1], a[2].exp(), value=2.0), (3,), (2, 3), (2, 3)
    ),
    "mm": _spec(lambda T, a: a[0] @ a[1], (2, 3), (3, 4)),
    "addmm": _spec(
        lambda T, a: T.addmm(a[0], a[1], a[2], beta=0.5, alpha=2.0), (4,), (2, 3), (3, 4)
    ),
    "atan2_hypot": _spec(lambda T, a: T.atan2(a[0], a[1]) * T.hypot(a[1], a[0]), (2, 3), (2, 3)),
    "pow_tensor": _spec(lambda T, a: (a[0].abs() + 0.5).pow(a[1]), (2, 3), (2, 3)),
    "where_maximum": _spec(
        lambda T, a: T.where(a[0] > 0, a[0] * a[1], T.maximum(a[0], a[1])), (2, 3), (2, 3)
    ),
}

for _n, _s in _CORE.items():
    _orders_program(f"order_{_n}", _s, check=False)


# --- Hessians of nn functions ---------------------------------------------------------------

_HESSIANS: dict[str, Callable[[Any, Any], Any]] = {
    "interpolate_bilinear": lambda T, x: (
        _F(T).interpolate(x.view(1, 1, 2, 3), size=(3, 4), mode="bilinear").pow(3).sum()
    ),
    "interpolate_bicubic_align": lambda T, x: (
        _F(T)
        .interpolate(x.view(1, 1, 2, 3), scale_factor=2, mode="bicubic", align_corners=True)
        .pow(3)
        .sum()
    ),
    "avg_pool1d": lambda T, x: _F(T).avg_pool1d(x.view(1, 2, 3), 2, 1).pow(3).sum(),
    "lp_pool1d": lambda T, x: _F(T).lp_pool1d(x.view(1, 2, 3), 2, 2).sum(),
    "mish": lambda T, x: _F(T).mish(x).sum(),
    "gaussian_nll": lambda T, x: _F(T).gaussian_nll_loss(x[0], x[1].flip(0), x[1].exp()),
    "multi_margin": lambda T, x: _F(T).multi_margin_loss(x, T.tensor([1, 2]), p=2),
    "cosine_similarity": lambda T, x: _F(T).cosine_similarity(x[0], x[1], dim=0),
    "pairwise_distance": lambda T, x: _F(T).pairwise_distance(x[0:1], x[1:2]).sum(),
    "sdpa": lambda T, x: (
        _F(T)
        .scaled_dot_product_attention(x.view(1, 2, 3), x.view(1, 2, 3), x.view(1, 2, 3))
        .pow(2)
        .sum()
    ),
    "group_norm": lambda T, x: _F(T).group_norm(x.view(1, 2, 3), 1).pow(3).sum(),
}


@program()
def prog_ho2_hessian_glu_reverse_over_reverse(T: Any) -> Any:
    """glu's Hessian by reverse over reverse (jacrev of jacrev, autograd.functional)."""

    def f(x: Any) -> Any:
        return _F(T).glu(x, 0).pow(2).sum()

    x0 = T.tensor(np.linspace(-0.9, 0.8, 6).reshape(2, 3))
    return (
        T.func.jacrev(T.func.jacrev(f))(x0),
        T.autograd.functional.hessian(f, x0),
        T.autograd.functional.hessian(f, x0, create_graph=True).grad_fn is not None,
    )


@program(
    xfail="vmap's batching fallback: torch warns 'There is a performance drop because we have "
    "not yet implemented the batching rule for aten::glu_jvp' (soft_margin_loss_backward) when "
    "jacfwd maps an op without a batching rule (affine_grid_generator too); shadowgrad's vmap "
    "runs the function per sample and warns only for in-place ops"
)
def prog_ho2_hessian_vmap_fallback_warnings(T: Any) -> Any:
    F = _F(T)
    x0 = T.tensor(np.linspace(-0.9, 0.8, 6).reshape(2, 3))
    return (
        raises(lambda: T.func.hessian(lambda x: F.glu(x, 0).pow(2).sum())(x0)),
        raises(lambda: T.func.hessian(lambda x: F.soft_margin_loss(x, -T.ones_like(x)))(x0)),
        T.autograd.functional.hessian(lambda x: F.soft_margin_loss(x, -T.ones_like(x)), x0),
        # affine_grid_generator under jacfwd warns before grid_sampler_2d's forward-AD error
        raises(
            lambda: T.func.hessian(
                lambda th: F.grid_sample(
                    T.ones(1, 1, 2, 2, dtype=T.float64),
                    F.affine_grid(th.view(1, 2, 3), [1, 1, 2, 2], align_corners=False),
                    align_corners=False,
                ).sum()
            )(T.tensor([1.0, 0.1, 0.0, 0.0, 1.0, 0.0], dtype=T.float64))
        ),
    )


def _hessian_program(name: str, f: Callable[[Any, Any], Any]) -> None:
    def body(T: Any) -> Any:
        x0 = T.tensor(np.linspace(-0.9, 0.8, 6).reshape(2, 3))
        return (
            raises(lambda: T.func.hessian(lambda x: f(T, x))(x0)),
            raises(lambda: T.autograd.functional.hessian(lambda x: f(T, x), x0)),
        )

    _reg(f"hessian_{name}", body)


for _n, _f in _HESSIANS.items():
    _hessian_program(_n, _f)


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
