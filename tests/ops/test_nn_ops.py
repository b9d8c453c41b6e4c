"""Unit tests of shadowgrad.nn.functional: first and second order gradchecks in float64, the
subgradients torch picks at kinks and ties, and properties of the forward values."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
import shadowgrad.nn.functional as F
from shadowgrad.autograd import gradcheck, gradgradcheck


def _t(shape, low=-2.0, high=2.0, seed=0, rg=True):
    r = np.random.default_rng(seed)
    return sg.tensor(r.uniform(low, high, shape), dtype=sg.float64, requires_grad=rg)


def _check(fn, *inputs, second=True):
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
    if second:
        assert gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


ACTIVATIONS = {
    "gelu": lambda x: F.gelu(x),
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu,
    "mish": F.mish,
    "elu": lambda x: F.elu(x, 0.7),
    "selu": F.selu,
    "celu": lambda x: F.celu(x, 1.3),
    "softplus": lambda x: F.softplus(x, beta=2.0, threshold=3.0),
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2),
    "logsigmoid": F.logsigmoid,
    "hardtanh": lambda x: F.hardtanh(x, -0.5, 0.7),
    "hardsigmoid": lambda x: F.hardsigmoid(x * 4),
    "hardswish": lambda x: F.hardswish(x * 4),
    "softsign": F.softsign,
    "tanhshrink": F.tanhshrink,
    "glu": lambda x: F.glu(x, 0),
    "softmax": lambda x: F.softmax(x, 1),
    "log_softmax": lambda x: F.log_softmax(x, 0),
    "softmin": lambda x: F.softmin(x, 1),
    "threshold": lambda x: F.threshold(x, 0.5, -1.0),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_gradcheck(name):
    # keep the inputs away from every op's kinks (0, +-0.5, 0.7, +-3/4, 1.5)
    x = sg.tensor(
        np.array([[-1.9, -1.1, -0.3], [0.2, 0.35, 0.6], [1.2, 1.8, -0.65], [0.9, -1.4, 1.1]]),
        dtype=sg.float64,
        requires_grad=True,
    )
    if name == "hardsigmoid":
        # torch's hardsigmoid_backward has no derivative: second order raises, as in torch
        _check(ACTIVATIONS[name], x, second=False)
        with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward"):
            gradgradcheck(ACTIVATIONS[name], (x,))
        return
    _check(ACTIVATIONS[name], x)


def test_prelu_gradcheck():
    x = _t((2, 3, 2), seed=2)
    w = sg.tensor([0.2, -0.4, 1.5], dtype=sg.float64, requires_grad=True)
    _check(F.prelu, x, w)


def test_subgradients_at_kinks():
    x = sg.tensor([-1.0, 0.0, 1.0, 2.0], requires_grad=True)
    F.hardtanh(x).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 0.0]  # bounds excluded
    x.grad = None
    F.leaky_relu(x, 0.1).sum().backward()
    assert np.allclose(x.grad.numpy(), [0.1, 0.1, 1.0, 1.0])  # negative slope at 0
    x.grad = None
    F.elu(x).sum().backward()
    assert x.grad.tolist()[1] == 1.0
    x.grad = None
    F.relu(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_softmax_stable_for_large_inputs():
    x = sg.tensor([[1e4, -1e4, 0.0], [1e4, 1e4, 1e4]], requires_grad=True)
    y = F.softmax(x, 1)
    assert np.allclose(y.detach().numpy(), [[1, 0, 0], [1 / 3] * 3])
    ls = F.log_softmax(x, 1)
    assert np.isfinite(ls.detach().numpy()[1]).all()
    assert type(y.grad_fn).__name__ == "SoftmaxBackward0"


@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 1))
def test_softmax_rows_sum_to_one(n, c, dim):
    x = sg.tensor(np.random.default_rng(n * 7 + c).normal(size=(n, c)) * 10)
    s = F.softmax(x, dim).numpy().sum(dim)
    assert np.allclose(s, 1)
    assert np.allclose(np.exp(F.log_softmax(x, dim).numpy()).sum(dim), 1)


def test_softmax_implicit_dim_warns():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        F.softmax(sg.ones(2, 3))


def test_linear_graph_and_gradcheck():
    x, w, b = _t((3, 4)), _t((5, 4), seed=1), _t(5, seed=2)
    y = F.linear(x, w, b)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    names = [type(n).__name__ if n else None for n, _ in y.grad_fn.next_functions]
    assert names == ["AccumulateGrad", "AccumulateGrad", "TBackward0"]
    _check(F.linear, x, w, b)
    _check(F.linear, _t((2, 3, 4)), w, b)
    _check(F.linear, _t(4), w)


CONV_CASES = [
    ({}, (2, 4, 6, 5), (6, 4, 3, 2)),
    ({"stride": 2, "padding": 1}, (1, 2, 5, 5), (3, 2, 3, 3)),
    ({"dilation": 2, "padding": (2, 1)}, (1, 2, 6, 5), (2, 2, 2, 2)),
    ({"groups": 2, "padding": "same"}, (1, 4, 4, 4), (4, 2, 2, 3)),
]


@pytest.mark.parametrize("kw,xs,ws", CONV_CASES)
def test_conv2d_gradcheck(kw, xs, ws):
    x, w, b = _t(xs), _t(ws, seed=1), _t(ws[0], seed=2)
    y = F.conv2d(x, w, b, **kw)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"
    assert len(y.grad_fn.next_functions) == 3
    _check(lambda x, w, b: F.conv2d(x, w, b, **kw), x, w, b)


def test_conv2d_matches_direct_loops():
    x, w = _t((1, 2, 5, 4), rg=False), _t((3, 2, 2, 3), seed=1, rg=False)
    y = F.conv2d(x, w, stride=(2, 1), padding=1).numpy()
    xp = np.pad(x.numpy(), ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.zeros(y.shape)
    for o in range(3):
        for i in range(y.shape[2]):
            for j in range(y.shape[3]):
                ref[0, o, i, j] = (xp[0, :, 2 * i : 2 * i + 2, j : j + 3] * w.numpy()[o]).sum()
    assert np.allclose(y, ref)


def test_conv1d_and_transposed_gradcheck():
    _check(lambda x, w: F.conv1d(x, w, stride=2, padding=1), _t((2, 2, 6)), _t((3, 2, 3), seed=1))
    _check(
        lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
        _t((1, 2, 3, 3)),
        _t((2, 3, 3, 2), seed=1),
        _t(3, seed=2),
    )


def test_conv_transpose_is_adjoint_of_conv():
    x, w = _t((1, 2, 5, 5), rg=False), _t((3, 2, 3, 3), seed=1, rg=False)
    g = _t((1, 3, 3, 3), seed=2, rg=False)
    lhs = (F.conv2d(x, w, stride=2, padding=1) * g).sum().item()
    rhs = (F.conv_transpose2d(g, w, stride=2, padding=1) * x).sum().item()
    assert np.isclose(lhs, rhs)


def test_pooling_gradcheck():
    x = _t((1, 2, 5, 6))
    _check(lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), x)
    _check(lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False), x)
    _check(lambda x: F.adaptive_avg_pool2d(x, (2, 4)), x)
    _check(lambda x: F.adaptive_max_pool2d(x, (2, 3)), x)


def test_max_pool_ties_go_to_first_element():
    x = sg.tensor([[[[1.0, 1.0], [1.0, 1.0]]]], requires_grad=True)
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    y.sum().backward()
    assert x.grad.numpy().ravel().tolist() == [1.0, 0.0, 0.0, 0.0]
    assert idx.dtype is sg.int64 and idx.item() == 0
    assert type(y.grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"


def test_adaptive_avg_pool_to_one_is_a_mean():
    y = F.adaptive_avg_pool2d(_t((2, 3, 4, 4)), 1)
    assert type(y.grad_fn).__name__ == "MeanBackward1"


def test_norms_gradcheck():
    x = _t((3, 4, 2))
    _check(lambda x, w, b: F.layer_norm(x, (4, 2), w, b), x, _t((4, 2), seed=1), _t((4, 2), 2))
    _check(
        lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), x, _t(4), _t(4, seed=3)
    )
    _check(lambda x, w: F.group_norm(x, 2, w), _t((2, 4, 3)), _t(4, seed=1))


def test_layer_norm_normalizes():
    x = _t((5, 7), -100, 100, rg=False)
    y = F.layer_norm(x, (7,)).numpy()
    assert np.allclose(y.mean(1), 0) and np.allclose(y.var(1), 1, atol=1e-4)


def test_batch_norm_updates_running_stats_in_place():
    x = _t((6, 3), rg=False)
    rm, rv = sg.zeros(3, dtype=sg.float64), sg.ones(3, dtype=sg.float64)
    v0 = rm._version
    F.batch_norm(x, rm, rv, training=True, momentum=0.5)
    xn = x.numpy()
    assert np.allclose(rm.numpy(), 0.5 * xn.mean(0))
    assert np.allclose(rv.numpy(), 0.5 + 0.5 * xn.var(0, ddof=1))
    assert rm._version == v0  # torch's kernel writes the running stats without a bump
    with pytest.raises(ValueError, match="Expected more than 1 value per channel"):
        F.batch_norm(x[:1], rm, rv, training=True)


def test_embedding_padding_idx_gets_no_grad():
    w = _t((4, 3))
    idx = sg.tensor([[0, 2, 2], [1, 2, 3]])
    y = F.embedding(idx, w, padding_idx=2)
    y.sum().backward()
    assert np.allclose(w.grad.numpy()[2], 0) and np.allclose(w.grad.numpy()[0], 1)
    assert type(y.grad_fn).__name__ == "EmbeddingBackward0"
    _check(lambda w: F.embedding(idx, w), _t((4, 3), seed=1))


def test_one_hot():
    y = F.one_hot(sg.tensor([0, 2, 1]))
    assert y.dtype is sg.int64 and y.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        F.one_hot(sg.tensor([3]), 2)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_gradcheck(mode):
    x = _t((1, 2, 3, 4))
    _check(lambda x: F.pad(x, (1, 2, 2, 1), mode=mode), x)


def test_pad_constant_negative_crops():
    x = _t((2, 5), rg=False)
    assert np.array_equal(F.pad(x, (-1, -2)).numpy(), x.numpy()[:, 1:3])


LOSSES = {
    "mse": lambda a, b: F.mse_loss(a, b),
    "l1": lambda a, b: F.l1_loss(a, b, reduction="sum"),
    "smooth_l1": lambda a, b: F.smooth_l1_loss(a, b, beta=0.5, reduction="none"),
    "huber": lambda a, b: F.huber_loss(a, b, delta=0.7),
    "bce_logits": lambda a, b: F.binary_cross_entropy_with_logits(
        a, b.sigmoid(), pos_weight=sg.tensor([0.5, 2.0, 1.0], dtype=sg.float64)
    ),
    "kl_div": lambda a, b: F.kl_div(a, b, reduction="batchmean", log_target=True),
    "cosine_similarity": lambda a, b: F.cosine_similarity(a, b),
    "pairwise_distance": lambda a, b: F.pairwise_distance(a, b, p=3.0),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_pair_loss_gradcheck(name):
    _check(LOSSES[name], _t((4, 3)), _t((4, 3), seed=5))


def test_bce_gradcheck_and_log_clamp():
    x, t = _t((3, 2), 0.1, 0.9), _t((3, 2), 0.0, 1.0, seed=1)
    _check(lambda x, t: F.binary_cross_entropy(x, t), x, t)
    y = F.binary_cross_entropy(sg.tensor([0.0, 1.0]), sg.tensor([1.0, 0.0]), reduction="none")
    assert y.tolist() == [100.0, 100.0]


def test_nll_and_cross_entropy():
    x = _t((4, 3))
    t = sg.tensor([0, 2, 1, 2])
    w = sg.tensor([0.5, 2.0, 1.0], dtype=sg.float64)
    _check(lambda x: F.nll_loss(x, t, w, ignore_index=1), x)
    _check(lambda x: F.cross_entropy(x, t, label_smoothing=0.2), x)
    probs = F.softmax(_t((4, 3), seed=3, rg=False), 1)
    _check(lambda x: F.cross_entropy(x, probs, w, label_smoothing=0.1), x)
    y = F.cross_entropy(x, t)
    assert type(y.grad_fn).__name__ == "NllLossBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "LogSoftmaxBackward0"
    # cross_entropy is the mean of -log softmax at the targets
    ls = np.log(F.softmax(x, 1).detach().numpy())
    assert np.isclose(y.item(), -ls[np.arange(4), t.numpy()].mean())
    with pytest.raises(IndexError, match=r"Target 3 is out of bounds\."):
        F.nll_loss(x, sg.tensor([0, 3, 1, 2]))


def test_nll_loss_kd():
    x = _t((2, 3, 2, 2))
    t = sg.tensor([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])
    _check(lambda x: F.nll_loss(x, t, reduction="none"), x)


def test_dropout():
    x = _t((200, 50))
    assert F.dropout(x, 0.0) is x
    assert F.dropout(x, 0.5, training=False) is x
    y = F.dropout(x, 1.0)
    assert np.all(y.detach().numpy() == 0) and type(y.grad_fn).__name__ == "MulBackward0"
    y = F.dropout(x, 0.3)
    kept = y.detach().numpy() != 0
    assert abs(kept.mean() - 0.7) < 0.02
    assert np.allclose(y.detach().numpy()[kept], x.detach().numpy()[kept] / 0.7)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        F.dropout(x, 1.5)


def test_scaled_dot_product_attention_gradcheck():
    q, k, v = _t((2, 3, 4)), _t((2, 5, 4), seed=1), _t((2, 5, 2), seed=2)
    mask = sg.tensor(np.tril(np.ones((3, 5), bool)))
    _check(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, mask), q, k, v)


def test_unfold_fold_are_adjoint():
    x = _t((1, 2, 5, 4), rg=False)
    c = _t((1, 8, 9), seed=1, rg=False)
    lhs = (F.unfold(x, 2, padding=1, stride=2) * c).sum().item()
    rhs = (F.fold(c, (5, 4), 2, padding=1, stride=2) * x).sum().item()
    assert np.isclose(lhs, rhs)
    _check(lambda x: F.unfold(x, (2, 3), dilation=(2, 1)), _t((1, 2, 5, 4)))


def test_mse_loss_warns_on_broadcast():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        F.mse_loss(sg.ones(3, 2), sg.ones(1, 2))
    assert any("different to the input size" in str(m.message) for m in w)
