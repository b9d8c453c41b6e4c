"""torch.nn.functional gaps: the argument checks torch makes before any computation (its
argument parser's TypeError for a non-Tensor where a natively bound function takes one, the
AttributeError of its Python functions reading `.size()`/`.dim()` first, the running-statistics
pair of batch_norm, the adaptive pools' output-size prelude, weight_norm's dimension), the
graph of kl_div with a differentiable target and the weighted mse/l1/huber reductions, each
next to the ordinary use of the same function (values, gradients, grad_fn names). The programs
register into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs
on torch and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

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


def _names(t: Any) -> list[str]:
    """The grad_fn names of a graph, depth first (AccumulateGrad included)."""
    out: list[str] = []

    def walk(g: Any, depth: int) -> None:
        if g is None or depth > 8:
            return
        out.append(type(g).__name__ if not hasattr(g, "name") else g.name())
        for n, _ in g.next_functions:
            walk(n, depth + 1)

    walk(t.grad_fn, 0)
    return out


# --- batch_norm / instance_norm: the running statistics come as a pair ------------------------


@program()
def prog_nfg_batch_norm_one_running_stat(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 4, 3)
    rm, rv = T.zeros(3), T.ones(3)
    return [
        raises(lambda: F.batch_norm(x, rm, None, training=True)),
        raises(lambda: F.batch_norm(x, None, rv, training=True)),
        raises(lambda: F.batch_norm(x, rm, None, training=False)),
        raises(lambda: F.batch_norm(x, None, rv, training=False)),
        raises(lambda: F.batch_norm(x, T.zeros(4), None, training=True)),
        raises(lambda: F.batch_norm(x, rm, None, T.ones(4), training=True)),
        raises(lambda: F.batch_norm(x.int(), rm, None, training=True)),
        raises(lambda: F.batch_norm(_x(T, 1, 3), rm, None, training=True)),
        raises(lambda: F.batch_norm(x, rm.double(), None, training=True)),
        rm,
    ]


@program()
def prog_nfg_batch_norm_empty_input_skips_the_pair_check(T: Any) -> Any:
    F = T.nn.functional
    x = T.zeros(0, 3, requires_grad=True)
    y = F.batch_norm(x, T.zeros(3), None, training=True)
    return y, y.grad_fn, F.batch_norm(T.zeros(0, 3), None, None, training=False)


@program()
def prog_nfg_batch_norm_both_none_trains_and_backprops(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 5, 3)
    w, b = _x(T, 3, seed=1), _x(T, 3, seed=2)
    y = F.batch_norm(x, None, None, w, b, training=True)
    (y * T.arange(3.0)).sum().backward()
    return y, y.grad_fn, x.grad, w.grad, b.grad


@program()
def prog_nfg_batchnorm_module_with_one_buffer_dropped(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(3)
    bn.running_var = None
    x = _x(T, 4, 3)
    out = [raises(lambda: bn(x)), list(bn.state_dict())]
    bn.eval()
    out.append(raises(lambda: bn(x)))
    bn.running_mean = None
    bn.train()
    y = bn(x)
    y.sum().backward()
    return out, y, x.grad, bn.weight.grad


@program()
def prog_nfg_instance_norm_running_stats_pair(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 4)
    rm, rv = T.zeros(3), T.ones(3)
    return [
        raises(lambda: F.instance_norm(x, rm, None)),
        raises(lambda: F.instance_norm(x, None, rv)),
        raises(lambda: F.instance_norm(x, rm, None, use_input_stats=False)),
        raises(lambda: F.instance_norm(x, None, None, use_input_stats=False)),
        raises(lambda: F.instance_norm(x, T.zeros(4), None)),
        raises(lambda: F.instance_norm(_x(T, 2, 3, 1), rm, None)),
        raises(lambda: F.instance_norm(_x(T, 2, 3, 1), None, None, use_input_stats=False)),
    ]


@program()
def prog_nfg_instance_norm_tracks_and_uses_running_stats(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 5)
    rm, rv = T.zeros(3), T.ones(3)
    y = F.instance_norm(x, rm, rv, momentum=0.3)
    y.pow(2).sum().backward()
    z = F.instance_norm(x.detach(), rm, rv, use_input_stats=False)
    return y, x.grad, rm, rv, z


# --- argument-parser TypeErrors of the natively bound functions -------------------------------


@program()
def prog_nfg_linear_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x, w, b = _x(T, 2, 3), _x(T, 4, 3, seed=1), _x(T, 4, seed=2)
    return [
        raises(lambda: F.linear([1.0, 2.0, 3.0], w)),
        raises(lambda: F.linear([1.0, 2.0, 3.0], w, b)),
        raises(lambda: F.linear(x, [[1.0, 2.0, 3.0]])),
        raises(lambda: F.linear(x, [[1.0, 2.0, 3.0]], b)),
        raises(lambda: F.linear(x, w, [1.0])),
        raises(lambda: F.linear(2.0, w)),
        raises(lambda: F.linear(np.ones((2, 3), np.float32), w, b)),
        raises(lambda: F.linear(x, w, 1.0)),
        F.linear(x, w, b),
    ]


@program()
def prog_nfg_linear_module_given_python_data(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 3)
    out = [
        raises(lambda: lin([1.0, 2.0, 3.0])),
        raises(lambda: lin(np.ones(3, np.float32))),
        raises(lambda: lin((1.0, 2.0, 3.0))),
        raises(lambda: lin(None)),
    ]
    y = lin(T.tensor([1.0, 2.0, 3.0]))
    y.sum().backward()
    return out, y, lin.weight.grad, lin.bias.grad


@program()
def prog_nfg_linear_without_bias_type_errors(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2, bias=False), 4)
    return [
        raises(lambda: lin([1.0, 2.0, 3.0])),
        raises(lambda: T.nn.functional.linear(T.ones(3), [1.0])),
        lin(T.ones(2, 3)),
    ]


@program()
def prog_nfg_bilinear_argument_types(T: Any) -> Any:
    F = T.nn.functional
    a, b = _x(T, 2, 3), _x(T, 2, 4, seed=1)
    w, bias = _x(T, 5, 3, 4, seed=2), _x(T, 5, seed=3)
    y = F.bilinear(a, b, w, bias)
    y.sum().backward()
    return [
        raises(lambda: F.bilinear([1.0], b, w)),
        raises(lambda: F.bilinear(a, [1.0], w)),
        raises(lambda: F.bilinear(a, b, [1.0])),
        raises(lambda: F.bilinear(a, b, w, [1.0])),
        raises(lambda: T.nn.Bilinear(3, 4, 5)([1.0], b)),
        y,
        y.grad_fn,
        a.grad,
        w.grad,
    ]


@program()
def prog_nfg_conv_functional_argument_types(T: Any) -> Any:
    F = T.nn.functional
    w1, w2, w3 = T.ones(1, 1, 1), T.ones(1, 1, 1, 1), T.ones(1, 1, 1, 1, 1)
    return [
        raises(lambda: F.conv1d([1.0], w1)),
        raises(lambda: F.conv2d([1.0], w2)),
        raises(lambda: F.conv3d([1.0], w3)),
        raises(lambda: F.conv1d(T.ones(1, 1, 3), [1.0])),
        raises(lambda: F.conv2d(T.ones(1, 1, 2, 2), w2, [1.0])),
        raises(lambda: F.conv2d(3, w2, None, (1, 1))),
        raises(lambda: F.conv1d([1.0], w1, None, 2)),
        raises(lambda: F.conv1d(np.ones((1, 1, 3)), w1)),
    ]


@program()
def prog_nfg_conv_transpose_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 3, 3)
    w = _x(T, 1, 2, 2, 2, seed=1)
    y = F.conv_transpose2d(x, w, stride=2)
    y.sum().backward()
    return [
        raises(lambda: F.conv_transpose1d([1.0], T.ones(1, 1, 1))),
        raises(lambda: F.conv_transpose2d(x, [1.0])),
        raises(lambda: F.conv_transpose2d(x, w, [1.0])),
        raises(lambda: F.conv_transpose3d([1.0], T.ones(1, 1, 1, 1, 1))),
        y,
        y.grad_fn,
        x.grad,
        w.grad,
    ]


@program()
def prog_nfg_conv_modules_given_lists(T: Any) -> Any:
    nn = T.nn
    c1 = nn.Conv1d(1, 2, 3, padding=1)
    c2 = nn.Conv2d(1, 1, 1, bias=False)
    c3 = nn.Conv3d(1, 1, 1, stride=2)
    return [
        raises(lambda: c1([[[1.0, 2.0, 3.0]]])),
        raises(lambda: c2([1.0])),
        raises(lambda: c3(np.ones((1, 1, 2, 2, 2), np.float32))),
        raises(lambda: nn.ConvTranspose2d(1, 1, 2)([1.0])),
        raises(lambda: nn.Conv1d(1, 1, 1, padding_mode="reflect", padding=1)([1.0])),
    ]


@program()
def prog_nfg_avg_pool_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 4, 4)
    y = F.avg_pool2d(x, 2)
    y.sum().backward()
    return [
        raises(lambda: F.avg_pool1d([1.0], 1)),
        raises(lambda: F.avg_pool2d([1.0], 1)),
        raises(lambda: F.avg_pool2d(3, 1)),
        raises(lambda: F.avg_pool3d([1.0], 1)),
        raises(lambda: F.max_pool2d([1.0], 1)),
        raises(lambda: F.max_pool1d([1.0], 1)),
        raises(lambda: T.nn.AvgPool2d(2)([1.0])),
        y,
        x.grad,
    ]


@program()
def prog_nfg_cross_entropy_and_nll_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    t = T.tensor([0, 3, 1])
    loss = F.cross_entropy(x, t)
    loss.backward()
    return [
        raises(lambda: F.cross_entropy([1.0, 2.0], t)),
        raises(lambda: F.cross_entropy(x, [0, 3, 1])),
        raises(lambda: F.cross_entropy(x, t, [1.0, 1.0, 1.0, 1.0])),
        raises(lambda: F.cross_entropy([1.0], [0], reduction="bad")),
        raises(lambda: F.cross_entropy(x, [0, 3, 1], label_smoothing=0.1)),
        raises(lambda: F.nll_loss([1.0], t)),
        raises(lambda: F.nll_loss(x, [0, 3, 1])),
        raises(lambda: F.nll_loss(x.log_softmax(1), t, [1.0] * 4)),
        raises(lambda: T.nn.CrossEntropyLoss()([0.5, 0.5], T.tensor(0))),
        loss,
        x.grad,
    ]


@program()
def prog_nfg_activation_argument_types(T: Any) -> Any:
    F = T.nn.functional
    fns = [
        "relu", "gelu", "silu", "elu", "selu", "celu", "leaky_relu", "hardtanh", "relu6",
        "softplus", "mish", "hardswish", "hardsigmoid", "logsigmoid", "hardshrink",
        "softshrink", "rrelu", "sigmoid", "tanh", "softsign", "tanhshrink", "glu",
    ]  # fmt: skip
    return [(n, raises(lambda n=n: getattr(F, n)([1.0, 2.0]))) for n in fns]


@program()
def prog_nfg_inplace_activation_argument_types(T: Any) -> Any:
    F = T.nn.functional
    fns = [
        "relu", "silu", "elu", "selu", "celu", "leaky_relu", "hardtanh", "relu6", "mish",
        "hardswish", "hardsigmoid", "rrelu", "dropout",
    ]  # fmt: skip
    out = [(n, raises(lambda n=n: getattr(F, n)([1.0], inplace=True))) for n in fns]
    out.append(raises(lambda: F.relu_([1.0])))
    out.append(raises(lambda: F.threshold([1.0], 0.5, 0.0, inplace=True)))
    out.append(raises(lambda: F.threshold(3, 0.5, 0.0)))
    return out


@program()
def prog_nfg_activation_checks_before_the_type(T: Any) -> Any:
    F = T.nn.functional
    return [
        raises(lambda: F.hardtanh([1.0], 2.0, 1.0)),
        raises(lambda: F.gelu([1.0], approximate="bad")),
        raises(lambda: F.dropout([1.0], p=1.5)),
        raises(lambda: F.celu([1.0], alpha=0.0)),
        raises(lambda: F.rrelu([1.0], 0.5, 0.1)),
    ]


@program()
def prog_nfg_activation_modules_on_python_scalars(T: Any) -> Any:
    nn = T.nn
    mods = [nn.ReLU(), nn.GELU(), nn.SiLU(), nn.Tanh(), nn.Sigmoid(), nn.LeakyReLU(0.2)]
    mods += [nn.ReLU(inplace=True), nn.Softplus(), nn.Hardtanh(), nn.ELU()]
    return [(type(m).__name__, raises(lambda m=m: m(0.5))) for m in mods]


@program()
def prog_nfg_softmax_family_argument_types(T: Any) -> Any:
    F = T.nn.functional
    out = [
        raises(lambda: F.softmax([1.0, 2.0], 0)),
        raises(lambda: F.softmax([1.0, 2.0], dim=None)),
        raises(lambda: F.log_softmax([1.0, 2.0], 0)),
        raises(lambda: F.log_softmax([1.0, 2.0])),
        raises(lambda: F.softmin([1.0, 2.0], 0)),
        raises(lambda: T.nn.Softmax(dim=0)([1.0])),
    ]
    x = _x(T, 2, 3)
    y = F.softmax(x, 1) * F.log_softmax(x, 1)
    y.sum().backward()
    return out, y, x.grad, _names(y)


@program()
def prog_nfg_norm_layers_argument_types(T: Any) -> Any:
    F = T.nn.functional
    return [
        raises(lambda: F.layer_norm([1.0, 2.0], (2,))),
        raises(lambda: F.layer_norm(T.ones(2), (2,), [1.0, 1.0])),
        raises(lambda: F.layer_norm(T.ones(2), (2,), None, [0.0, 0.0])),
        raises(lambda: F.group_norm([1.0, 2.0], 1)),
        raises(lambda: F.normalize([1.0, 2.0])),
        raises(lambda: T.nn.LayerNorm(2)([1.0, 2.0])),
        raises(lambda: T.nn.GroupNorm(1, 2)([[1.0, 2.0]])),
    ]


@program()
def prog_nfg_misc_native_argument_types(T: Any) -> Any:
    F = T.nn.functional
    w = T.ones(4, 2)
    return [
        raises(lambda: F.pad([1.0], (1, 1))),
        raises(lambda: F.embedding([0, 1], w)),
        raises(lambda: F.embedding(T.tensor([0]), [[1.0, 2.0]])),
        raises(lambda: F.embedding(T.tensor([0]), [[1.0, 2.0]], padding_idx=0)),
        raises(lambda: F.embedding([0, 1], w, max_norm=1.0)),
        raises(lambda: F.one_hot([0, 1])),
        raises(lambda: F.unfold([1.0], 2)),
        raises(lambda: F.dropout([1.0])),
        raises(lambda: F.dropout([1.0], training=False)),
        raises(lambda: T.nn.Embedding(4, 2)([0, 1])),
    ]


# --- the losses torch writes in Python read .size() first ------------------------------------


@program()
def prog_nfg_pointwise_losses_given_lists(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    out = []
    for n in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
        fn = getattr(F, n)
        out.append((n, raises(lambda fn=fn: fn(x, [1.0, 2.0, 3.0]))))
        out.append((n, raises(lambda fn=fn: fn([1.0, 2.0, 3.0], x))))
        out.append((n, raises(lambda fn=fn: fn(2.0, x))))
    return out


@program()
def prog_nfg_bce_losses_given_lists(T: Any) -> Any:
    F = T.nn.functional
    p = T.tensor([0.2, 0.7, 0.9])
    return [
        raises(lambda: F.binary_cross_entropy(p, [1.0, 0.0, 1.0])),
        raises(lambda: F.binary_cross_entropy([0.5], p)),
        raises(lambda: F.binary_cross_entropy(p, [1.0], reduction="bad")),
        raises(lambda: F.binary_cross_entropy_with_logits(p, [1.0, 0.0, 1.0])),
        raises(lambda: F.binary_cross_entropy_with_logits([0.5], p)),
        raises(lambda: T.nn.BCELoss()(p, [1.0, 0.0, 1.0])),
        raises(lambda: T.nn.BCEWithLogitsLoss()([0.1], p)),
    ]


@program()
def prog_nfg_native_losses_given_lists(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    return [
        raises(lambda: F.kl_div(x, [1.0])),
        raises(lambda: F.kl_div([1.0], x)),
        raises(lambda: F.kl_div([1.0], x, reduction="bad")),
        raises(lambda: F.soft_margin_loss(x, [1.0])),
        raises(lambda: F.soft_margin_loss([1.0], x)),
        raises(lambda: F.poisson_nll_loss(x, [1.0])),
        raises(lambda: F.poisson_nll_loss([1.0], x)),
        raises(lambda: F.poisson_nll_loss([1.0], x, reduction="bad")),
    ]


@program()
def prog_nfg_loss_size_warning_then_reduction_error(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    t = _x(T, 3, seed=1, rg=False)
    return [
        raises(lambda: F.mse_loss(x, t, reduction="bad")),
        raises(lambda: F.l1_loss(x, t, reduction="bad")),
        raises(lambda: F.smooth_l1_loss(x, t, reduction="bad")),
        raises(lambda: F.huber_loss(x, t, reduction="bad")),
        raises(lambda: F.mse_loss(x, _x(T, 4, seed=2))),
    ]


@program()
def prog_nfg_loss_legacy_args_after_size_warning(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    t = _x(T, 3, seed=1, rg=False)
    a = F.mse_loss(x, t, size_average=False)
    b = F.l1_loss(x, t, reduce=False)
    c = F.smooth_l1_loss(x, t, size_average=True, reduce=True)
    (a + b.sum() + c).backward()
    return a, b, c, x.grad


# --- weighted mse / l1 / huber -----------------------------------------------------------------


@program()
def prog_nfg_weighted_mse_and_l1_reductions(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    t = _x(T, 3, 4, seed=1, rg=False)
    w = T.tensor(np.abs(_data(3, 4, seed=2)))
    out = []
    for fn in (F.mse_loss, F.l1_loss):
        for r in ("mean", "sum", "none"):
            loss = fn(x, t, reduction=r, weight=w)
            out.append((loss, loss.grad_fn))
    sum(o[0].sum() for o in out).backward()
    return out, x.grad


@program()
def prog_nfg_weighted_huber_reductions(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    t = _x(T, 3, 4, seed=1, rg=False)
    w = T.tensor(np.abs(_data(3, 4, seed=2)))
    out = [F.huber_loss(x, t, reduction=r, delta=0.5, weight=w) for r in ("mean", "sum", "none")]
    (out[0] + out[1] + out[2].sum()).backward()
    return out, [o.grad_fn for o in out], x.grad


@program()
def prog_nfg_weighted_losses_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    t = _x(T, 3, 4, seed=1, rg=False)
    w = T.ones(4)
    return [
        raises(lambda: F.mse_loss(x, t, weight=w)),
        raises(lambda: F.l1_loss(x, t, weight=w)),
        raises(lambda: F.huber_loss(x, t, weight=w)),
        raises(lambda: F.mse_loss(x, t, weight=T.ones(3, 4), reduction="bad")),
        raises(lambda: F.l1_loss(x, t, weight=T.ones(3, 4), reduction="batchmean")),
        raises(lambda: F.huber_loss(x, t, weight=T.ones(3, 4), reduction="bad")),
        raises(lambda: F.huber_loss(x, t, reduction="bad")),
    ]


@program()
def prog_nfg_weighted_mse_training_step(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 1), 7)
    opt = T.optim.SGD(lin.parameters(), lr=0.1)
    x = T.tensor(_data(6, 3, seed=3))
    y = T.tensor(_data(6, 1, seed=4))
    w = T.tensor(np.linspace(0.1, 1.0, 6, dtype=np.float32).reshape(6, 1))
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(lin(x), y, weight=w)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return losses, lin.weight, lin.bias


# --- kl_div with a differentiable target -------------------------------------------------------


@program()
def prog_nfg_kl_div_target_requires_grad(T: Any) -> Any:
    F = T.nn.functional
    logits = _x(T, 2, 4)
    tgt = T.tensor(np.abs(_data(2, 4, seed=1)) / 4, requires_grad=True)
    loss = F.kl_div(logits.log_softmax(1), tgt, reduction="batchmean")
    loss.backward()
    return loss, _names(loss), logits.grad, tgt.grad


@program()
def prog_nfg_kl_div_target_with_zeros(T: Any) -> Any:
    F = T.nn.functional
    inp = _x(T, 3).log_softmax(0)
    tgt = T.tensor([0.0, 0.25, 0.75], requires_grad=True)
    loss = F.kl_div(inp, tgt, reduction="sum")
    loss.backward()
    none = F.kl_div(inp, tgt, reduction="none")
    return loss, tgt.grad, none, none.grad_fn, _names(none)


@program()
def prog_nfg_kl_div_distillation_both_sides_learn(T: Any) -> Any:
    F = T.nn.functional
    student = _seeded(T, T.nn.Linear(4, 3), 1)
    teacher = _seeded(T, T.nn.Linear(4, 3), 2)
    x = T.tensor(_data(5, 4, seed=3))
    temp = 2.0
    s = F.log_softmax(student(x) / temp, dim=1)
    t = F.softmax(teacher(x) / temp, dim=1)
    loss = F.kl_div(s, t, reduction="batchmean") * temp**2
    loss.backward()
    return loss, student.weight.grad, teacher.weight.grad, teacher.bias.grad


@program()
def prog_nfg_kl_div_log_target_and_detached_target(T: Any) -> Any:
    F = T.nn.functional
    inp = _x(T, 2, 3).log_softmax(1)
    lt = _x(T, 2, 3, seed=1).log_softmax(1)
    a = F.kl_div(inp, lt, reduction="batchmean", log_target=True)
    b = F.kl_div(inp, lt.exp().detach(), reduction="batchmean")
    c = F.kl_div(inp, lt.exp(), reduction="mean")
    return a, b, c, _names(a), _names(b), _names(c)


@program()
def prog_nfg_kl_div_loss_module_with_grad_target(T: Any) -> Any:
    crit = T.nn.KLDivLoss(reduction="batchmean")
    p = _x(T, 3, 5)
    q = _x(T, 3, 5, seed=4)
    loss = crit(p.log_softmax(-1), q.softmax(-1))
    loss.backward()
    return loss, _names(loss), p.grad, q.grad


# --- adaptive pools: the output size's length ----------------------------------------------------


@program()
def prog_nfg_adaptive_pool_output_size_too_long(T: Any) -> Any:
    F = T.nn.functional
    out = []
    for n in (2, 3):
        for kind in ("avg", "max"):
            fn = getattr(F, f"adaptive_{kind}_pool{n}d")
            out.append(raises(lambda fn=fn, n=n: fn(T.ones(*[2] * (n + 1)), [1] * (n + 1))))
            out.append(raises(lambda fn=fn, n=n: fn(T.ones(*[2] * n), [1] * (n + 1))))
            out.append(raises(lambda fn=fn, n=n: fn(T.ones(*[2] * (n + 1)), [1] * (n + 2))))
    return out


@program()
def prog_nfg_adaptive_pool_output_size_too_short(T: Any) -> Any:
    F = T.nn.functional
    x3, x4 = T.ones(2, 4, 4), T.ones(1, 2, 4, 4, 4)
    return [
        raises(lambda: F.adaptive_avg_pool2d(x3, [1])),
        raises(lambda: F.adaptive_max_pool2d(x3, [1])),
        raises(lambda: F.adaptive_avg_pool3d(x4, [1, 1])),
        raises(lambda: F.adaptive_max_pool3d(x4, (1,))),
        raises(lambda: F.adaptive_avg_pool2d([1.0], 1)),
        raises(lambda: F.adaptive_max_pool2d([1.0], (1, 1))),
        raises(lambda: F.adaptive_avg_pool3d([1.0], 1)),
        raises(lambda: F.adaptive_avg_pool1d([1.0], 1)),
        raises(lambda: F.adaptive_max_pool1d([1.0], 1)),
    ]


@program()
def prog_nfg_adaptive_pool_none_entries_and_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 5, 6)
    a = F.adaptive_avg_pool2d(x, (None, 3))
    b = F.adaptive_max_pool2d(x, (2, None))
    c, idx = F.adaptive_max_pool2d(x, 2, return_indices=True)
    (a.sum() + b.sum() + c.sum()).backward()
    return a, b, c, idx, x.grad, a.grad_fn, b.grad_fn


@program()
def prog_nfg_adaptive_pool_modules_in_a_classifier_head(T: Any) -> Any:
    nn = T.nn
    net = _seeded(
        T,
        nn.Sequential(
            nn.Conv2d(2, 3, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten()
        ),
        5,
    )
    x = _x(T, 2, 2, 5, 5, rg=False)
    y = net(x)
    F = T.nn.functional
    loss = F.cross_entropy(y, T.tensor([0, 2]))
    loss.backward()
    too_long = raises(lambda: nn.AdaptiveAvgPool2d((1, 1, 1, 1))(x))
    return y, loss, net[0].weight.grad, too_long


@program()
def prog_nfg_adaptive_pool3d_values_and_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 3, 4, 4)
    a = F.adaptive_avg_pool3d(x, (1, 2, None))
    b = F.adaptive_max_pool3d(x, 2)
    (a.sum() + b.sum()).backward()
    return a, b, x.grad, a.grad_fn, b.grad_fn


# --- weight_norm's dimension -------------------------------------------------------------------


@program()
def prog_nfg_weight_norm_dim_out_of_range(T: Any) -> Any:
    U = T.nn.utils
    out = []
    for dim in (3, 2, -3, -2, -1, 1, None):
        lin = T.nn.Linear(2, 3)
        r = raises(lambda lin=lin, dim=dim: U.weight_norm(lin, dim=dim))
        out.append((dim, r if not isinstance(r, T.nn.Module) else "ok", sorted(lin._parameters)))
    return out


@program()
def prog_nfg_parametrized_weight_norm_dim_out_of_range(T: Any) -> Any:
    P = T.nn.utils.parametrizations
    out = []
    for dim in (3, -3, 2, 1, -2, None):
        lin = T.nn.Linear(2, 3)
        r = raises(lambda lin=lin, dim=dim: P.weight_norm(lin, dim=dim))
        out.append((dim, r if not isinstance(r, T.nn.Module) else "ok", sorted(lin._parameters)))
    return out


@program()
def prog_nfg_weight_norm_conv_dims_train(T: Any) -> Any:
    U = T.nn.utils
    conv = _seeded(T, T.nn.Conv2d(2, 3, 2), 9)
    conv = U.weight_norm(conv, dim=2)
    x = _x(T, 1, 2, 3, 3, rg=False)
    y = conv(x)
    y.sum().backward()
    bad = raises(lambda: U.weight_norm(T.nn.Conv2d(2, 3, 2), dim=4))
    return y, conv.weight_g, conv.weight_g.grad, conv.weight_v.grad, bad, y.grad_fn


@program()
def prog_nfg_norm_except_dim_dims(T: Any) -> Any:
    v = _x(T, 3, 2, 2)
    outs = [T.norm_except_dim(v, 2, d) for d in (0, 1, 2, -1, -2)]
    sum(o.sum() for o in outs).backward()
    return [
        outs,
        [o.grad_fn for o in outs],
        v.grad,
        raises(lambda: T.norm_except_dim(v, 2, 5)),
        raises(lambda: T.norm_except_dim(v, 2, -4)),
    ]


# --- neighbours: values, gradients and graph names next to the checks -----------------------


@program()
def prog_nfg_mlp_with_every_checked_activation(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    acts = [
        F.relu, F.gelu, F.silu, F.elu, F.selu, F.celu, F.leaky_relu, F.hardtanh, F.relu6,
        F.softplus, F.mish, F.hardswish, F.hardsigmoid, F.logsigmoid, F.hardshrink,
        F.softshrink, F.sigmoid, F.tanh, F.softsign, F.tanhshrink,
    ]  # fmt: skip
    outs = [a(x) for a in acts]
    sum(o.sum() for o in outs).backward()
    return [o.grad_fn for o in outs], outs, x.grad


@program()
def prog_nfg_inplace_activations_on_non_leaf(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    outs = []
    for fn in (F.relu, F.elu, F.leaky_relu, F.hardtanh, F.silu, F.hardswish):
        h = x * 1.0
        y = fn(h, inplace=True)
        outs.append((y is h, y.grad_fn, h._version))
    leaf = raises(lambda: F.relu(_x(T, 2), inplace=True))
    return outs, leaf


@program()
def prog_nfg_conv_pool_pipeline_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 6, 6)
    w = _x(T, 3, 2, 3, 3, seed=1)
    b = _x(T, 3, seed=2)
    h = F.conv2d(x, w, b, padding=1)
    h = F.avg_pool2d(F.relu(h), 2)
    h = F.adaptive_avg_pool2d(h, (1, 1)).flatten(1)
    loss = F.cross_entropy(h, T.tensor([1]))
    loss.backward()
    return loss, _names(loss), x.grad, w.grad, b.grad


@program()
def prog_nfg_conv1d_and_3d_grads(T: Any) -> Any:
    F = T.nn.functional
    x1, w1 = _x(T, 2, 1, 5), _x(T, 2, 1, 2, seed=1)
    x3, w3 = _x(T, 1, 1, 2, 3, 3, seed=2), _x(T, 1, 1, 2, 2, 2, seed=3)
    y1 = F.conv1d(x1, w1, stride=2)
    y3 = F.conv3d(x3, w3, padding=(0, 1, 1))
    (y1.sum() + y3.pow(2).sum()).backward()
    return y1, y3, y1.grad_fn, x1.grad, w1.grad, x3.grad, w3.grad


@program()
def prog_nfg_linear_shapes_and_graph_nodes(T: Any) -> Any:
    F = T.nn.functional
    w, b = _x(T, 2, 3, seed=1), _x(T, 2, seed=2)
    outs = []
    for shape in ((3,), (4, 3), (2, 4, 3)):
        x = _x(T, *shape)
        outs.append(F.linear(x, w, b))
        outs.append(F.linear(x, w))
    sum(o.sum() for o in outs).backward()
    return outs, [o.grad_fn for o in outs], w.grad, b.grad


@program()
def prog_nfg_linear_errors_after_type_checks(T: Any) -> Any:
    F = T.nn.functional
    return [
        raises(lambda: F.linear(T.ones(2, 3), T.ones(4, 2))),
        raises(lambda: F.linear(T.ones(2, 3), T.ones(4, 2), T.ones(4))),
        raises(lambda: F.linear(T.tensor(1.0), T.ones(4, 2))),
        raises(lambda: F.linear(T.ones(2, 3), T.ones(4, 3, dtype=T.float64))),
        raises(lambda: F.linear(T.ones(2, 3), T.ones(4, 3), T.ones(4, dtype=T.float64))),
    ]


@program()
def prog_nfg_cross_entropy_probabilities_and_smoothing(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    probs = T.tensor(np.abs(_data(3, 4, seed=5))).softmax(1)
    a = F.cross_entropy(x, probs)
    b = F.cross_entropy(x, T.tensor([1, 0, 3]), label_smoothing=0.2, reduction="sum")
    c = F.cross_entropy(x, T.tensor([1, -100, 3]), weight=T.tensor([1.0, 2.0, 0.5, 1.0]))
    (a + b + c).backward()
    return a, b, c, a.grad_fn, b.grad_fn, c.grad_fn, x.grad


@program()
def prog_nfg_nll_loss_weighted_ignore_index(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 4, 3)
    lp = F.log_softmax(x, 1)
    t = T.tensor([0, 2, 1, 2])
    w = T.tensor([0.2, 1.0, 3.0])
    a = F.nll_loss(lp, t, weight=w, ignore_index=2)
    b = F.nll_loss(lp, t, reduction="none")
    (a + b.sum()).backward()
    return a, b, a.grad_fn, x.grad


@program()
def prog_nfg_mse_l1_broadcast_warning_and_grads(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 1)
    t = _x(T, 3, seed=1, rg=False)
    a = F.mse_loss(x, t)
    b = F.l1_loss(x, t)
    c = F.smooth_l1_loss(x, t, beta=0.5)
    d = F.huber_loss(x, t, delta=0.3)
    (a + b + c + d).backward()
    return a, b, c, d, [v.grad_fn for v in (a, b, c, d)], x.grad


@program()
def prog_nfg_integer_inputs_to_losses(T: Any) -> Any:
    F = T.nn.functional
    i = T.tensor([1, 2, 3])
    f = T.tensor([1.0, 2.0, 2.0])
    return [
        raises(lambda: F.mse_loss(i, i)),
        raises(lambda: F.l1_loss(i, i)),
        F.l1_loss(i, i, reduction="sum"),
        raises(lambda: F.smooth_l1_loss(i, i)),
        raises(lambda: F.huber_loss(i, i)),
        F.mse_loss(i, f),
        raises(lambda: F.kl_div(i, f)),
    ]


@program()
def prog_nfg_bce_family_values_and_grads(T: Any) -> Any:
    F = T.nn.functional
    z = _x(T, 2, 3)
    t = T.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    a = F.binary_cross_entropy(z.sigmoid(), t, weight=T.tensor([1.0, 2.0, 0.5]))
    b = F.binary_cross_entropy_with_logits(z, t, pos_weight=T.tensor([2.0, 1.0, 1.0]))
    c = F.binary_cross_entropy_with_logits(z, t, reduction="none")
    (a + b + c.sum()).backward()
    wrong = raises(lambda: F.binary_cross_entropy(z.sigmoid(), t[0]))
    return a, b, c, [v.grad_fn for v in (a, b, c)], z.grad, wrong


@program()
def prog_nfg_soft_margin_and_poisson_values(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    y = T.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])
    a = F.soft_margin_loss(x, y)
    b = F.poisson_nll_loss(x, y.abs() * 2)
    c = F.poisson_nll_loss(x.exp(), y.abs() * 3, log_input=False, full=True)
    (a + b + c).backward()
    return a, b, c, [v.grad_fn for v in (a, b, c)], x.grad


@program()
def prog_nfg_batchnorm_modules_eval_without_stats(T: Any) -> Any:
    bn = T.nn.BatchNorm2d(2, track_running_stats=False)
    x = _x(T, 2, 2, 2, 2)
    bn.eval()
    y = bn(x)
    y.sum().backward()
    bn2 = T.nn.BatchNorm2d(2)
    bn2.eval()
    bn2.running_mean = None
    return y, x.grad, bn.running_mean, raises(lambda: bn2(x)), list(bn2.state_dict())


@program()
def prog_nfg_instancenorm_module_track_running_stats(T: Any) -> Any:
    m = T.nn.InstanceNorm1d(3, track_running_stats=True, affine=True)
    x = _x(T, 2, 3, 6)
    y = m(x)
    y.pow(2).mean().backward()
    m.eval()
    z = m(x.detach())
    m.running_var = None
    return y, z, m.running_mean, x.grad, m.weight.grad, raises(lambda: m(x))


@program()
def prog_nfg_embedding_checks_in_torch_order(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 5, 2)
    idx = T.tensor([[0, 4], [2, 2]])
    y = F.embedding(idx, w, padding_idx=2)
    y.sum().backward()
    return [
        y,
        w.grad,
        raises(lambda: F.embedding(idx, w, padding_idx=7)),
        raises(lambda: F.embedding(idx.float(), w)),
        raises(lambda: F.embedding(idx, T.ones(5))),
        raises(lambda: F.embedding([[0]], T.ones(5))),
    ]


@program()
def prog_nfg_dropout_family_input_checks(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(3)
    x = _x(T, 4, 5)
    y = F.dropout(x, 0.4)
    y.sum().backward()
    return [
        y,
        x.grad,
        raises(lambda: F.dropout(x, -0.1)),
        raises(lambda: F.dropout1d([1.0])),
        raises(lambda: F.dropout2d([1.0])),
        raises(lambda: F.alpha_dropout([1.0])),
        raises(lambda: F.feature_alpha_dropout([1.0])),
    ]


@program()
def prog_nfg_pad_modes_and_type_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 3)
    a = F.pad(x, (1, 2), value=0.5)
    b = F.pad(x, (1, 1), mode="reflect")
    c = F.pad(x, (2, 0), mode="replicate")
    d = F.pad(x, (1, 1), mode="circular")
    (a.sum() + b.pow(2).sum() + c.sum() + d.sum()).backward()
    return [a, b, c, d, [v.grad_fn for v in (a, b, c, d)], x.grad, raises(lambda: F.pad(3, (1,)))]


@program()
def prog_nfg_one_hot_and_unfold_neighbours(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 3, 3)
    cols = F.unfold(x, 2)
    back = F.fold(cols, (3, 3), 2)
    back.sum().backward()
    return [
        F.one_hot(T.tensor([0, 2, 1]), 4),
        raises(lambda: F.one_hot(T.tensor([0.0, 1.0]))),
        raises(lambda: F.one_hot((0, 1))),
        cols,
        back,
        x.grad,
        raises(lambda: F.unfold((1.0, 2.0), 2)),
        raises(lambda: F.fold([1.0], (3, 3), 2)),
    ]


@program()
def prog_nfg_layer_group_norm_values(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 4, 3)
    w, b = _x(T, 3, seed=1), _x(T, 3, seed=2)
    a = F.layer_norm(x, (3,), w, b)
    g = F.group_norm(x, 2)
    n = F.normalize(x, dim=2)
    (a.sum() + g.pow(2).sum() + n.sum()).backward()
    return a, g, n, [v.grad_fn for v in (a, g, n)], x.grad, w.grad, b.grad


@program()
def prog_nfg_tensor_subclass_and_parameter_inputs(T: Any) -> Any:
    F = T.nn.functional
    p = T.nn.Parameter(T.tensor(_data(2, 3)))
    w = T.nn.Parameter(T.tensor(_data(4, 3, seed=1)))
    y = F.relu(F.linear(p, w))
    z = F.conv1d(p.unsqueeze(0), w[:, :2].unsqueeze(2))
    (y.sum() + z.sum()).backward()
    return y, z, p.grad, w.grad, y.grad_fn


@program()
def prog_nfg_functional_keyword_first_argument(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    a = F.relu(input=x)
    b = F.gelu(input=x, approximate="tanh")
    c = F.softmax(input=x, dim=1)
    d = F.mse_loss(input=x, target=T.zeros(2, 3))
    (a.sum() + b.sum() + c.sum() + d).backward()
    return a, b, c, d, x.grad


@program()
def prog_nfg_nested_module_reports_first_bad_layer(T: Any) -> Any:
    nn = T.nn
    net = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 11)
    x = T.tensor(_data(2, 3))
    ok = net(x)
    return ok, raises(lambda: net(_data(2, 3))), raises(lambda: net(_data(2, 3).tolist()))


@program()
def prog_nfg_non_leaf_grad_after_checked_functions(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    h = F.linear(x, _x(T, 3, 3, seed=1))
    y = F.mse_loss(F.relu(h), T.zeros(2, 3))
    y.backward()
    return y, x.grad, h.grad, h.is_leaf, h.requires_grad, y.grad_fn


@program()
def prog_nfg_batch_norm_eval_graph_and_version(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 4, 3)
    rm, rv = T.zeros(3), T.ones(3)
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.5)
    v = rm._version
    z = F.batch_norm(x, rm, rv, training=False)
    (y.sum() + z.pow(2).sum()).backward()
    return y, z, rm, rv, v, x.grad, y.grad_fn, z.grad_fn


@program()
def prog_nfg_kl_div_reductions_warning(T: Any) -> Any:
    F = T.nn.functional
    inp = _x(T, 2, 3).log_softmax(1)
    t = T.tensor(np.abs(_data(2, 3, seed=2)), requires_grad=True)
    out = [F.kl_div(inp, t, reduction=r) for r in ("mean", "sum", "batchmean", "none")]
    out.append(F.kl_div(inp, t, size_average=False))
    sum(o.sum() for o in out).backward()
    return out, [o.grad_fn for o in out], t.grad


@program()
def prog_nfg_pair_losses_argument_types(T: Any) -> Any:
    F = T.nn.functional
    a, b = _x(T, 3, 4), _x(T, 3, 4, seed=1)
    y = T.tensor([1.0, -1.0, 1.0])
    return [
        raises(lambda: F.cosine_embedding_loss([1.0], b, y)),
        raises(lambda: F.cosine_embedding_loss(a, [1.0], y)),
        raises(lambda: F.cosine_embedding_loss(a, b, [1.0, -1.0, 1.0])),
        raises(lambda: F.hinge_embedding_loss([1.0], y)),
        raises(lambda: F.hinge_embedding_loss(a, [1.0])),
        raises(lambda: F.multilabel_margin_loss([1.0], T.tensor([[0, -1, 0, 0]]))),
        raises(lambda: F.multi_margin_loss(a, [0, 1, 2])),
        raises(lambda: F.multi_margin_loss(a, [0, 1, 2], p=3)),
        raises(lambda: F.triplet_margin_loss(a, [1.0], b)),
        raises(lambda: F.triplet_margin_loss(a, b, [1.0], margin=-1.0)),
        raises(lambda: F.margin_ranking_loss(a[0], [1.0], y)),
        raises(lambda: F.pairwise_distance(a, [1.0])),
        raises(lambda: F.pdist([[1.0, 2.0]])),
        raises(lambda: T.nn.TripletMarginLoss()([1.0], b, b)),
    ]


@program()
def prog_nfg_pair_losses_values_and_grads(T: Any) -> Any:
    F = T.nn.functional
    a, b, c = _x(T, 3, 4), _x(T, 3, 4, seed=1), _x(T, 3, 4, seed=2)
    y = T.tensor([1.0, -1.0, 1.0])
    losses = [
        F.cosine_embedding_loss(a, b, y, margin=0.1),
        F.hinge_embedding_loss(a, T.ones(3, 4)),
        F.multi_margin_loss(a, T.tensor([0, 3, 1])),
        F.triplet_margin_loss(a, b, c, swap=True),
        F.margin_ranking_loss(a[0], b[0], T.ones(4)),
        F.pairwise_distance(a, b).sum(),
        F.pdist(a).sum(),
    ]
    sum(losses).backward()
    return losses, [v.grad_fn for v in losses], a.grad, b.grad, c.grad


@program()
def prog_nfg_layers_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 3, 3)
    q = _x(T, 2, 3, 4)
    return [
        raises(lambda: F.grid_sample([1.0], T.zeros(1, 2, 2, 2), align_corners=False)),
        raises(lambda: F.grid_sample(x, [[0.0, 0.0]], align_corners=False)),
        raises(lambda: F.grid_sample(x, [[0.0]], mode="bad")),
        raises(lambda: F.gumbel_softmax([1.0, 2.0])),
        raises(lambda: F.scaled_dot_product_attention([1.0], q, q)),
        raises(lambda: F.scaled_dot_product_attention(q, q, [1.0])),
        raises(lambda: F.scaled_dot_product_attention(q, q, q, [[True]])),
        raises(lambda: F.rms_norm([1.0], (1,))),
        raises(lambda: F.rms_norm(q, (4,), [1.0] * 4)),
    ]


@program()
def prog_nfg_norm_argument_types_in_torch_order(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 4, 3)
    x3 = _x(T, 2, 3, 4)
    m, v = T.zeros(3), T.ones(3)
    return [
        raises(lambda: F.batch_norm([1.0], m, v)),
        raises(lambda: F.batch_norm([1.0], m, v, training=True)),
        raises(lambda: F.batch_norm(x, [0.0] * 3, v)),
        raises(lambda: F.batch_norm(x, m, [1.0] * 3)),
        raises(lambda: F.batch_norm(x, m, v, [1.0] * 3)),
        raises(lambda: F.batch_norm(x, m, v, None, [0.0] * 3, training=True)),
        raises(lambda: F.batch_norm(x[:1], [0.0] * 3, v, training=True)),
        raises(lambda: F.batch_norm(T.zeros(0, 3), m, v, [1.0] * 3)),
        raises(lambda: F.instance_norm([1.0])),
        raises(lambda: F.instance_norm([1.0], use_input_stats=False)),
        raises(lambda: F.instance_norm(x3, [0.0] * 3, v)),
        raises(lambda: F.instance_norm(x3, None, None, [1.0] * 3)),
        raises(lambda: F.instance_norm(x3[:, :, :1], None, None, [1.0] * 3)),
    ]


@program()
def prog_nfg_layer_and_rms_norm_shape_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    out = []
    for ns in (3, (3,), [3], T.Size([3]), (3.0,), (True,), "ab", None, T.tensor([3])):
        for fn in (F.layer_norm, F.rms_norm):
            out.append(raises(lambda fn=fn, ns=ns: fn(x, ns)))
    out.append(raises(lambda: F.layer_norm(x, (np.int64(3),))))
    out.append(raises(lambda: F.layer_norm(x, (T.tensor(3.0),))))
    ln = T.nn.LayerNorm(3)
    y = ln(x)
    y.pow(2).sum().backward()
    return out, y, x.grad, ln.weight.grad


@program()
def prog_nfg_normalize_out_and_graph(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    y = F.normalize(x, p=1, dim=0)
    z = F.normalize(x, p=float("inf"))
    (y.sum() + z.pow(2).sum()).backward()
    o = T.empty(3, 4)
    w = F.normalize(x.detach(), out=o)
    return [
        y,
        z,
        _names(y),
        x.grad,
        w is o,
        o,
        raises(lambda: F.normalize(x, out=T.empty(3, 4))),
        raises(lambda: F.normalize(T.tensor([[1, 2]]))),
        raises(lambda: F.normalize(x, dim=3)),
        F.normalize(T.zeros(2, 2)),
    ]


@program()
def prog_nfg_softmin_negates_before_the_cast(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    a = F.softmin(x, 1, dtype=T.float64)
    b = F.softmin(x, 0)
    (a.sum() + b.pow(2).sum()).backward()
    return [
        a,
        b,
        _names(a),
        _names(b),
        x.grad,
        raises(lambda: F.softmin(T.tensor([True, False]), 0)),
        raises(lambda: F.softmin(T.tensor([1, 2]), 0)),
        F.softmin(T.tensor([1, 2]), 0, dtype=T.float32),
    ]


@program()
def prog_nfg_ctc_loss_argument_types_and_values(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(5)
    logits = T.randn(6, 2, 4, requires_grad=True)
    lp = logits.log_softmax(2)
    tg = T.tensor([[1, 2, 2], [3, 1, 0]])
    a = F.ctc_loss(lp, tg, [6, 5], [3, 2])
    b = F.ctc_loss(lp, tg, T.tensor([6, 5]), T.tensor([3, 2]), reduction="sum")
    (a + b).backward()
    return [
        a,
        b,
        a.grad_fn,
        logits.grad,
        raises(lambda: F.ctc_loss([1.0], T.ones(1), [1], [1])),
        raises(lambda: F.ctc_loss(lp, [1, 2], [6, 5], [1, 1])),
        raises(lambda: F.ctc_loss(lp, tg, [6, 5], T.tensor([3, 2]))),
        raises(lambda: F.ctc_loss([1.0], tg, T.tensor([6, 5]), T.tensor([3, 2]))),
        raises(lambda: F.ctc_loss(lp, tg, [6, 5], [3, 2], reduction="bad")),
        raises(lambda: T.nn.CTCLoss()([1.0], T.ones(1), [1], [1])),
    ]


# --- channels_last through 2-d convolutions and pools ---------------------------------------------


def _strides_and_formats(T: Any, *ts: Any) -> list[Any]:
    cl = T.channels_last
    return [(t.stride(), t.is_contiguous(), t.is_contiguous(memory_format=cl)) for t in ts]


@program()
def prog_nfg_channels_last_conv_and_pool_outputs(T: Any) -> Any:
    F = T.nn.functional
    cl = T.channels_last
    x = _x(T, 2, 3, 5, 5, rg=False).to(memory_format=cl).requires_grad_()
    w = _x(T, 4, 3, 3, 3, seed=1)
    c = F.conv2d(x, w, padding=1)
    m, mi = F.max_pool2d(c, 2, return_indices=True)
    a = F.avg_pool2d(c, 2, ceil_mode=True)
    ad = F.adaptive_avg_pool2d(c, (2, 3))
    am, ami = F.adaptive_max_pool2d(c, 2, return_indices=True)
    g = F.adaptive_avg_pool2d(c, 1)
    (m.sum() + a.sum() + ad.sum() + am.sum() + g.sum()).backward()
    return _strides_and_formats(T, c, m, mi, a, ad, am, ami, g, x.grad), m, a, ad, am, x.grad


@program()
def prog_nfg_channels_last_weight_only_and_transposed(T: Any) -> Any:
    F = T.nn.functional
    cl = T.channels_last
    x = _x(T, 2, 2, 4, 4)
    w = _x(T, 3, 2, 1, 1, seed=1, rg=False).to(memory_format=cl).requires_grad_()
    c = F.conv2d(x, w)
    t = F.conv_transpose2d(x.to(memory_format=cl), _x(T, 2, 3, 2, 2, seed=2), stride=2)
    one = F.conv2d(_x(T, 2, 1, 4, 4, seed=3).to(memory_format=cl), _x(T, 2, 1, 1, 1, seed=4))
    (c.sum() + t.sum() + one.sum()).backward()
    return _strides_and_formats(T, c, t, one), c, t, x.grad, w.grad


@program()
def prog_nfg_channels_last_training_step(T: Any) -> Any:
    nn = T.nn
    net = _seeded(
        T,
        nn.Sequential(
            nn.Conv2d(2, 4, 3, padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(4, 3, 1),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        ),
        13,
    ).to(memory_format=T.channels_last)
    opt = T.optim.SGD(net.parameters(), lr=0.05)
    x = _x(T, 3, 2, 4, 4, rg=False).to(memory_format=T.channels_last)
    y = T.tensor([0, 2, 1])
    losses = []
    for _ in range(2):
        opt.zero_grad()
        out = net(x)
        loss = T.nn.functional.cross_entropy(out, y)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    w = net[0].weight
    return losses, out, w, w.grad, _strides_and_formats(T, w, w.grad, net[:4](x))


@program()
def prog_nfg_channels_last_unbatched_and_3d_stay_contiguous(T: Any) -> Any:
    F = T.nn.functional
    x3 = _x(T, 2, 4, 4)
    c = F.conv2d(x3, _x(T, 3, 2, 3, 3, seed=1))
    x5 = _x(T, 1, 2, 2, 4, 4, seed=2).to(memory_format=T.channels_last_3d)
    c3 = F.conv3d(x5, _x(T, 3, 2, 1, 1, 1, seed=3))
    p1 = F.avg_pool1d(_x(T, 2, 3, 6, seed=4), 2)
    return [(v.stride(), v.is_contiguous()) for v in (c, c3, p1)], c, c3, p1


@program()
def prog_nfg_activations_refuse_complex_and_integer_input(T: Any) -> Any:
    # torch's activation kernels have no complex version (silu, sigmoid, tanh, softsign and
    # tanhshrink do); each names its own kernel, hardtanh/relu6 name clamp
    F = T.nn.functional
    z = T.tensor([1 + 1j, -2 + 0.5j], dtype=T.complex64, requires_grad=True)
    zd = T.tensor([1 + 1j, -2 + 0.5j], dtype=T.complex128)
    i = T.tensor([1, -2, 3, 4])
    calls = {
        "hardtanh": lambda: F.hardtanh(z),
        "relu6": lambda: F.relu6(zd),
        "leaky_relu": lambda: F.leaky_relu(z),
        "elu_": lambda: F.elu_(zd.clone()),
        "selu": lambda: T.selu(z),
        "celu": lambda: F.celu(zd),
        "threshold": lambda: F.threshold(z, 0.1, 0.0),
        "softplus": lambda: F.softplus(zd),
        "gelu": lambda: T.nn.GELU()(z),
        "logsigmoid": lambda: F.logsigmoid(z),
        "hardswish": lambda: F.hardswish(zd),
        "mish": lambda: F.mish(z),
        "hardshrink": lambda: zd.hardshrink(),
        "softshrink": lambda: F.softshrink(z),
        "glu": lambda: F.glu(T.ones(4, dtype=T.complex64)),
        "hardsigmoid": lambda: T.nn.Hardsigmoid()(z),
        "prelu": lambda: F.prelu(zd, T.ones(1, dtype=T.complex128)),
        "glu_int": lambda: F.glu(i),
        "prelu_int": lambda: F.prelu(i, T.ones(1, dtype=T.int64)),
        "prelu_mixed": lambda: F.prelu(T.ones(2, 3), T.ones(2, dtype=T.float64)),
        "prelu_mixed_int": lambda: F.prelu(i, T.ones(1)),
        "threshold_int": lambda: F.threshold(i, 1, 0),
    }
    out = {k: raises(f) for k, f in calls.items()}
    out["silu_autograd"] = raises(lambda: F.silu(z))
    return out, F.silu(zd), F.softsign(zd), F.tanhshrink(zd)


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
