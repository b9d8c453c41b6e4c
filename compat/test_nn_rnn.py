"""Recurrent, attention and transformer modules against torch.

Each case builds the module in both libraries, copies torch's initial weights into shadowgrad
through numpy, runs the same program and compares outputs, parameter grads, input grads (and a
double backward for the recurrent layers). grad_fn names are compared for the cells, RNN and
GRU here; the float32 LSTM's oneDNN nodes (`MkldnnRnnLayerBackward0`) are compared over the
whole graph in test_nn_fused_nodes.py.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _copy(src, dst):
    dst.load_state_dict(
        {k: shadowgrad.tensor(v.detach().numpy().copy()) for k, v in src.state_dict().items()}
    )


def _flat(o):
    if isinstance(o, (tuple, list)):
        return [q for p in o for q in _flat(p)]
    return [] if o is None else [o]


def _tensor(T, a, rg):
    t = T.tensor(a)
    return t.requires_grad_() if rg and a.dtype.kind == "f" else t


def _loss(T, outs):
    # fixed, non-uniform cotangents so every output element's grad is checked
    total = 0
    for o in outs:
        w = T.tensor(np.linspace(-1.0, 2.0, max(o.numel(), 1))[: o.numel()].reshape(o.shape))
        total = total + (T.nan_to_num(o) * w.to(o.dtype)).sum() + (T.nan_to_num(o) ** 2).sum()
    return total


def _run(T, make, arrays, call, train, n_grad, double):
    T.manual_seed(0)
    m = make(T)
    m.train(train)
    xs = [_tensor(T, a, i < n_grad) for i, a in enumerate(arrays)]
    outs = _flat(call(m, xs))
    loss = _loss(T, outs)
    grads_in = [x for x in xs if x.requires_grad]
    params = [p for p in m.parameters() if p.requires_grad]
    gs = T.autograd.grad(loss, grads_in + params, create_graph=double, allow_unused=True)
    res = {"outs": outs, "grads": gs}
    if double:
        gg = sum((g * g).sum() for g in gs if g is not None)
        res["double"] = T.autograd.grad(gg, grads_in, allow_unused=True)
    return m, res


def _compare(make, arrays, call, *, train=False, n_grad=1, double=False, rtol=1e-4, atol=1e-5):
    tm, tr = _run(torch, make, arrays, call, train, n_grad, double)
    sm = make(shadowgrad)
    _copy(tm, sm)
    # rerun shadowgrad with torch's weights
    sm.train(train)
    xs = [_tensor(shadowgrad, a, i < n_grad) for i, a in enumerate(arrays)]
    outs = _flat(call(sm, xs))
    loss = _loss(shadowgrad, outs)
    grads_in = [x for x in xs if x.requires_grad]
    params = [p for p in sm.parameters() if p.requires_grad]
    gs = shadowgrad.autograd.grad(loss, grads_in + params, create_graph=double, allow_unused=True)
    assert repr(sm) == repr(tm)
    assert [n for n, _ in sm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    assert len(outs) == len(tr["outs"])
    for a, b in zip(outs, tr["outs"], strict=True):
        assert tuple(a.shape) == tuple(b.shape)
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol, atol)
    for a, b in zip(gs, tr["grads"], strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol, atol * 10)
    if double:
        gg = sum((g * g).sum() for g in gs if g is not None)
        dd = shadowgrad.autograd.grad(gg, grads_in, allow_unused=True)
        for a, b in zip(dd, tr["double"], strict=True):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol, atol * 10)
    return outs, tr["outs"]


rng = np.random.default_rng(0)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def f64(*shape):
    return rng.standard_normal(shape)


# --- RNN / LSTM / GRU ---------------------------------------------------------------------
RNN_CASES = {
    "rnn_tanh": (lambda T: T.nn.RNN(3, 4), (5, 2, 3)),
    "rnn_relu_2layers": (lambda T: T.nn.RNN(3, 4, 2, nonlinearity="relu"), (5, 2, 3)),
    "rnn_positional_nonlinearity": (lambda T: T.nn.RNN(3, 4, 1, "relu", False), (4, 3, 3)),
    "rnn_bidir_batch_first": (
        lambda T: T.nn.RNN(3, 4, 2, batch_first=True, bidirectional=True),
        (2, 5, 3),
    ),
    "gru": (lambda T: T.nn.GRU(3, 4), (5, 2, 3)),
    "gru_bidir_2layers_nobias": (
        lambda T: T.nn.GRU(3, 4, 2, bias=False, bidirectional=True),
        (5, 2, 3),
    ),
    "lstm": (lambda T: T.nn.LSTM(3, 4), (5, 2, 3)),
    "lstm_bidir_2layers_bf": (
        lambda T: T.nn.LSTM(3, 4, 2, batch_first=True, bidirectional=True),
        (2, 5, 3),
    ),
    "lstm_proj": (lambda T: T.nn.LSTM(3, 5, 2, proj_size=2, bidirectional=True), (4, 2, 3)),
    "seq_len_1": (lambda T: T.nn.GRU(3, 4, 2), (1, 2, 3)),
    "batch_1": (lambda T: T.nn.LSTM(3, 4), (5, 1, 3)),
    "unbatched_rnn": (lambda T: T.nn.RNN(3, 4, 2, bidirectional=True), (5, 3)),
    "unbatched_lstm_bf": (lambda T: T.nn.LSTM(3, 4, batch_first=True), (5, 3)),
    "unbatched_gru": (lambda T: T.nn.GRU(3, 4), (5, 3)),
}


@pytest.mark.parametrize("name", list(RNN_CASES))
def test_recurrent_layers_match_torch(name):
    make, shape = RNN_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: "LSTM with projections is not supported..."
        _compare(make, [f32(*shape)], lambda m, x: m(x[0]))


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_recurrent_double_backward_float64(kind):
    def make(T):
        return getattr(T.nn, kind)(3, 4, 2, bidirectional=True, dtype=T.float64)

    _compare(make, [f64(4, 2, 3)], lambda m, x: m(x[0]), double=True, rtol=1e-7, atol=1e-9)


def test_initial_states_given_and_differentiated():
    x, h0, c0 = f32(5, 2, 3), f32(4, 2, 4), f32(4, 2, 4)
    _compare(
        lambda T: T.nn.LSTM(3, 4, 2, bidirectional=True),
        [x, h0, c0],
        lambda m, a: m(a[0], (a[1], a[2])),
        n_grad=3,
    )
    _compare(lambda T: T.nn.GRU(3, 4, 2), [x, f32(2, 2, 4)], lambda m, a: m(a[0], a[1]), n_grad=2)
    _compare(lambda T: T.nn.RNN(3, 4), [f32(5, 3), f32(1, 4)], lambda m, a: m(a[0], a[1]), n_grad=2)
    _compare(
        lambda T: T.nn.LSTM(3, 4),
        [f32(5, 3), f32(1, 4), f32(1, 4)],
        lambda m, a: m(a[0], (a[1], a[2])),
        n_grad=3,
    )


def test_relu_rnn_at_kink():
    # zero input and zero state: every pre-activation is its bias; zero biases put relu at 0
    def make(T):
        m = T.nn.RNN(3, 4, 2, nonlinearity="relu")
        with T.no_grad():
            m.bias_ih_l0.zero_()
            m.bias_hh_l0.zero_()
        return m

    _compare(make, [np.zeros((3, 2, 3), np.float32)], lambda m, x: m(x[0]))


def test_dropout_between_layers():
    # p=1 drops every unit between layers (deterministic); eval mode ignores dropout
    x = f32(4, 2, 3)
    _compare(lambda T: T.nn.LSTM(3, 4, 3, dropout=1.0), [x], lambda m, a: m(a[0]), train=True)
    _compare(lambda T: T.nn.GRU(3, 4, 2, dropout=0.7), [x], lambda m, a: m(a[0]), train=False)
    _compare(lambda T: T.nn.RNN(3, 4, 2, dropout=0.0), [x], lambda m, a: m(a[0]), train=True)


def test_non_contiguous_input():
    base = f32(3, 5, 2)

    def call(m, a):
        return m(a[0].transpose(0, 1))  # (5, 3, 2) view with swapped strides

    _compare(lambda T: T.nn.GRU(2, 3, bidirectional=True), [base], call)


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda T: T.nn.RNNCell(3, 4), (2, 3)),
        (lambda T: T.nn.RNNCell(3, 4, nonlinearity="relu", bias=False), (2, 3)),
        (lambda T: T.nn.GRUCell(3, 4), (2, 3)),
        (lambda T: T.nn.LSTMCell(3, 4), (2, 3)),
        (lambda T: T.nn.GRUCell(3, 4), (3,)),
        (lambda T: T.nn.LSTMCell(3, 4, bias=False), (3,)),
        (lambda T: T.nn.RNNCell(3, 4), (0, 3)),
    ],
)
def test_cells_match_torch(make, shape):
    outs, touts = _compare(make, [f32(*shape)], lambda m, x: m(x[0]))
    # the cells compose the same ops as torch's: grad_fn names agree
    assert [type(o.grad_fn).__name__ for o in outs] == [type(o.grad_fn).__name__ for o in touts]


def test_cells_with_state_double_backward():
    _compare(
        lambda T: T.nn.LSTMCell(3, 4, dtype=T.float64),
        [f64(2, 3), f64(2, 4), f64(2, 4)],
        lambda m, a: m(a[0], (a[1], a[2])),
        n_grad=3,
        double=True,
        rtol=1e-7,
        atol=1e-9,
    )
    _compare(
        lambda T: T.nn.GRUCell(3, 4, dtype=T.float64),
        [f64(2, 3), f64(2, 4)],
        lambda m, a: m(a[0], a[1]),
        n_grad=2,
        double=True,
        rtol=1e-7,
        atol=1e-9,
    )


def test_output_grad_fn_names():
    for kind, expected in [("RNN", "StackBackward0"), ("GRU", "StackBackward0")]:
        names = []
        for T in LIBS:
            out, h = getattr(T.nn, kind)(3, 4)(T.randn(5, 2, 3))
            names.append((type(out.grad_fn).__name__, type(h.grad_fn).__name__))
        assert names[0] == names[1] == (expected, expected)


def test_parameter_names_shapes_and_init_bounds():
    for T in LIBS:
        T.manual_seed(0)
    specs = [
        lambda T: T.nn.LSTM(3, 5, 2, bidirectional=True, proj_size=2),
        lambda T: T.nn.GRU(3, 4, 3, bias=False),
        lambda T: T.nn.RNN(2, 7, bidirectional=True),
        lambda T: T.nn.GRUCell(3, 4),
    ]
    for spec in specs:
        tm, sm = spec(torch), spec(shadowgrad)
        shapes = [(n, tuple(p.shape)) for n, p in tm.named_parameters()]
        assert [(n, tuple(p.shape)) for n, p in sm.named_parameters()] == shapes
        bound = 1 / np.sqrt(tm.hidden_size)
        for p in sm.parameters():
            a = p.detach().numpy()
            assert a.dtype == np.float32
            assert (np.abs(a) <= bound).all() and a.std() > bound / 4
        if hasattr(tm, "all_weights"):
            t_aw = [[tuple(w.shape) for w in ws] for ws in tm.all_weights]
            assert [[tuple(w.shape) for w in ws] for ws in sm.all_weights] == t_aw


# --- errors -------------------------------------------------------------------------------
def _same_error(fn):
    errs = []
    for T in LIBS:
        with pytest.raises(Exception) as ei:  # the type is compared below
            fn(T)
        errs.append((type(ei.value), str(ei.value)))
    assert errs[0] == errs[1]


@pytest.mark.parametrize(
    "fn",
    [
        lambda T: T.nn.RNN(3, 4, nonlinearity="sigmoid"),
        lambda T: T.nn.GRU(3, 4, proj_size=2),
        lambda T: T.nn.LSTM(3, 4, dropout=1.5),
        lambda T: T.nn.LSTM(3, 4, dropout=True),
        lambda T: T.nn.LSTM(3, 0),
        lambda T: T.nn.LSTM(0, 3),
        lambda T: T.nn.LSTM(3, 4, 0),
        lambda T: T.nn.LSTM(3, 4, proj_size=4),
        lambda T: T.nn.LSTM(3, 4, proj_size=-1),
        lambda T: T.nn.LSTM(3, 4.0),
        lambda T: T.nn.LSTM(3, 4, bias=1),
        lambda T: T.nn.LSTM(3, 4, batch_first=None),
        lambda T: T.nn.LSTM(3, 4)(T.randn(5, 2, 2)),
        lambda T: T.nn.LSTM(3, 4)(T.randn(5, 2, 1, 3)),
        lambda T: T.nn.LSTM(3, 4)(T.randn(5, 2, 3, dtype=T.float64)),
        lambda T: T.nn.LSTM(3, 4)(T.randn(0, 2, 3)),
        lambda T: T.nn.LSTM(3, 4)(T.randn(5, 2, 3), (T.zeros(1, 2, 4), T.zeros(1, 3, 4))),
        lambda T: T.nn.LSTM(3, 4)(T.randn(5, 2, 3), (T.zeros(2, 4), T.zeros(1, 2, 4))),
        lambda T: T.nn.LSTM(3, 4)(T.randn(5, 3), (T.zeros(1, 2, 4), T.zeros(1, 2, 4))),
        lambda T: T.nn.GRU(3, 4)(T.randn(5, 2, 3), T.zeros(2, 2, 4)),
        lambda T: T.nn.GRU(3, 4)(T.randn(5, 2, 3), T.zeros(2, 4)),
        lambda T: T.nn.RNN(3, 4)(T.randn(5, 3), T.zeros(1, 1, 4)),
        lambda T: T.nn.RNN(3, 4)(T.randn(3)),
        lambda T: T.nn.GRU(3, 4)(T.randn(3)),
        lambda T: T.nn.GRUCell(3, 4)(T.randn(1, 2, 3)),
        lambda T: T.nn.RNNCell(3, 4)(T.randn(2, 3), T.zeros(1, 2, 4)),
        lambda T: T.nn.LSTMCell(3, 4)(T.randn(2, 3), (T.zeros(2, 4), T.zeros(1, 2, 4))),
    ],
)
def test_recurrent_errors_match_torch(fn):
    _same_error(fn)


def test_dropout_with_one_layer_warns():
    msgs = []
    for T in LIBS:
        with pytest.warns(UserWarning) as rec:
            T.nn.GRU(3, 4, dropout=0.5)
        msgs.append(str(rec[0].message))
    assert msgs[0] == msgs[1]


# --- MultiheadAttention -------------------------------------------------------------------
KPM = np.array([[False, False, True, False, True], [False, True, False, False, False]])
CAUSAL = np.triu(np.ones((5, 5), bool), 1)
CAUSAL_F = np.where(CAUSAL, -np.inf, 0.0).astype(np.float32)
X = f32(5, 2, 8)


def _self(m, a, **kw):
    return m(a[0], a[0], a[0], **kw)


MHA_CASES = {
    "self": (lambda T: T.nn.MultiheadAttention(8, 2), [X], lambda m, a: _self(m, a)),
    "no_weights": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [X],
        lambda m, a: _self(m, a, need_weights=False),
    ),
    "per_head_weights": (
        lambda T: T.nn.MultiheadAttention(8, 4),
        [X, f32(3, 2, 8), f32(3, 2, 8)],
        lambda m, a: m(a[0], a[1], a[2], average_attn_weights=False),
    ),
    "key_is_value": (
        lambda T: T.nn.MultiheadAttention(8, 2, bias=False),
        [X, f32(3, 2, 8)],
        lambda m, a: m(a[0], a[1], a[1]),
    ),
    "kdim_vdim_batch_first": (
        lambda T: T.nn.MultiheadAttention(8, 2, kdim=3, vdim=5, batch_first=True),
        [f32(2, 5, 8), f32(2, 3, 3), f32(2, 3, 5)],
        lambda m, a: m(a[0], a[1], a[2]),
    ),
    "bool_masks": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [X, KPM, CAUSAL],
        lambda m, a: _self(m, a, key_padding_mask=a[1], attn_mask=a[2]),
    ),
    "bool_masks_no_weights": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [X, KPM, CAUSAL],
        lambda m, a: _self(m, a, key_padding_mask=a[1], attn_mask=a[2], need_weights=False),
    ),
    "is_causal": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [X, CAUSAL_F],
        lambda m, a: _self(m, a, attn_mask=a[1], is_causal=True, need_weights=False),
    ),
    "float_3d_mask": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [X, f32(4, 5, 5)],
        lambda m, a: _self(m, a, attn_mask=a[1]),
    ),
    "unbatched": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [f32(5, 8), np.array([False, True, False, False, False])],
        lambda m, a: _self(m, a, key_padding_mask=a[1]),
    ),
    "bias_kv_zero_attn": (
        lambda T: T.nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True),
        [X, KPM],
        lambda m, a: _self(m, a, key_padding_mask=a[1]),
    ),
    "fully_masked_row_is_nan": (
        lambda T: T.nn.MultiheadAttention(8, 2),
        [X, np.array([[True] * 5, [False] * 5])],
        lambda m, a: _self(m, a, key_padding_mask=a[1]),
    ),
    "batch_first_eval": (
        lambda T: T.nn.MultiheadAttention(8, 2, batch_first=True),
        [f32(2, 5, 8)],
        lambda m, a: _self(m, a),
    ),
}


@pytest.mark.parametrize("name", list(MHA_CASES))
def test_multihead_attention_matches_torch(name):
    make, arrays, call = MHA_CASES[name]
    _compare(make, arrays, call, train=True)
    _compare(make, arrays, call, train=False)


def test_multihead_attention_inference_fast_path_values():
    # torch answers with _native_multi_head_attention under no_grad in eval mode
    x = f32(2, 5, 8)
    tm = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    sm = shadowgrad.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    _copy(tm, sm)
    for kw in [{}, {"need_weights": False}, {"key_padding_mask": KPM}]:
        with torch.no_grad(), shadowgrad.no_grad():
            tx, sx = torch.tensor(x), shadowgrad.tensor(x)
            tk = {k: torch.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
            sk = {
                k: shadowgrad.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()
            }
            to, sw = tm(tx, tx, tx, **tk), sm(sx, sx, sx, **sk)
        for a, b in zip(_flat(sw), _flat(to), strict=True):
            np.testing.assert_allclose(a.numpy(), b.numpy(), 1e-4, 1e-5)


def test_multihead_attention_double_backward():
    _compare(
        lambda T: T.nn.MultiheadAttention(4, 2, dtype=T.float64),
        [f64(3, 2, 4)],
        lambda m, a: _self(m, a),
        double=True,
        rtol=1e-7,
        atol=1e-9,
    )


@pytest.mark.parametrize(
    "fn",
    [
        lambda T: T.nn.MultiheadAttention(8, 3),
        lambda T: T.nn.MultiheadAttention(0, 2),
        lambda T: T.nn.MultiheadAttention(8, 2)(T.randn(5, 2, 8), T.randn(5, 8), T.randn(5, 8)),
        lambda T: T.nn.MultiheadAttention(8, 2)(T.randn(5, 8), T.randn(5, 2, 8), T.randn(5, 8)),
        lambda T: T.nn.MultiheadAttention(8, 2)(T.randn(2, 5, 2, 8), *[T.randn(5, 2, 8)] * 2),
        lambda T: T.nn.MultiheadAttention(8, 2)(T.randn(5, 2, 6), *[T.randn(5, 2, 6)] * 2),
        lambda T: T.nn.MultiheadAttention(8, 2)(
            T.randn(5, 2, 8), T.randn(4, 2, 8), T.randn(3, 2, 8)
        ),
        lambda T: T.nn.MultiheadAttention(8, 2)(*[T.randn(5, 2, 8)] * 3, attn_mask=T.zeros(4, 5)),
        lambda T: T.nn.MultiheadAttention(8, 2)(
            *[T.randn(5, 2, 8)] * 3, attn_mask=T.zeros(2, 5, 5)
        ),
        lambda T: T.nn.MultiheadAttention(8, 2)(
            *[T.randn(5, 2, 8)] * 3, attn_mask=T.zeros(5, 5, dtype=T.int64)
        ),
        lambda T: T.nn.MultiheadAttention(8, 2)(
            *[T.randn(5, 2, 8)] * 3, key_padding_mask=T.zeros(3, 5, dtype=T.bool)
        ),
        lambda T: T.nn.MultiheadAttention(8, 2)(
            *[T.randn(5, 2, 8)] * 3, key_padding_mask=T.zeros(5, dtype=T.bool)
        ),
        lambda T: T.nn.MultiheadAttention(8, 2)(*[T.randn(5, 2, 8)] * 3, is_causal=True),
    ],
)
def test_multihead_attention_errors_match_torch(fn):
    _same_error(fn)


def test_mismatched_mask_types_warn():
    msgs = []
    for T in LIBS:
        m = T.nn.MultiheadAttention(8, 2)
        x = T.randn(5, 2, 8)
        with pytest.warns(UserWarning) as rec:
            m(x, x, x, key_padding_mask=T.zeros(2, 5, dtype=T.bool), attn_mask=T.zeros(5, 5))
        msgs.append(str(rec[0].message))
    assert msgs[0] == msgs[1]


# --- Transformer encoder ------------------------------------------------------------------
ENC_CASES = {
    "post_norm": (lambda T: T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), [X], {}),
    "pre_norm_gelu_batch_first": (
        lambda T: T.nn.TransformerEncoderLayer(
            8, 2, 16, dropout=0.0, activation="gelu", norm_first=True, batch_first=True
        ),
        [f32(2, 5, 8)],
        {},
    ),
    "callable_activation_eps_nobias": (
        lambda T: T.nn.TransformerEncoderLayer(
            8, 4, 16, dropout=0.0, activation=T.tanh, layer_norm_eps=1e-3, bias=False
        ),
        [X],
        {},
    ),
    "module_activation": (
        lambda T: T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=T.nn.GELU()),
        [X],
        {},
    ),
    "masks": (
        lambda T: T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0),
        [X, CAUSAL, KPM],
        {"src_mask": 1, "src_key_padding_mask": 2},
    ),
    "unbatched": (lambda T: T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), [f32(5, 8)], {}),
}


def _kw(a, spec):
    return {k: a[i] for k, i in spec.items()}


@pytest.mark.parametrize("name", list(ENC_CASES))
def test_transformer_encoder_layer_matches_torch(name):
    make, arrays, spec = ENC_CASES[name]
    _compare(make, arrays, lambda m, a: m(a[0], **_kw(a, spec)), train=True)
    _compare(make, arrays, lambda m, a: m(a[0], **_kw(a, spec)), train=False)


def test_transformer_encoder_layer_default_dropout_in_eval():
    # dropout=0.1 (the default) is inactive in eval mode
    _compare(lambda T: T.nn.TransformerEncoderLayer(8, 2, 16), [X], lambda m, a: m(a[0]))


def _encoder(T, batch_first=False, norm=True, **kw):
    layer = T.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=batch_first, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # enable_nested_tensor warning, compared below
        return T.nn.TransformerEncoder(layer, 3, norm=T.nn.LayerNorm(8) if norm else None)


def test_transformer_encoder_matches_torch():
    _compare(_encoder, [X, CAUSAL_F], lambda m, a: m(a[0], mask=a[1]), train=True)
    _compare(
        lambda T: _encoder(T, batch_first=True, norm=False),
        [f32(2, 5, 8), CAUSAL_F],
        lambda m, a: m(a[0], mask=a[1], is_causal=True),
    )
    kpm = np.array([[False] * 3 + [True] * 2, [False] * 5])
    _compare(
        lambda T: _encoder(T, batch_first=True),
        [f32(2, 5, 8), kpm],
        lambda m, a: m(a[0], src_key_padding_mask=a[1]),
    )


def test_transformer_encoder_layers_are_independent_copies():
    enc = _encoder(shadowgrad)
    ws = [layer.linear1.weight for layer in enc.layers]
    assert len({id(w) for w in ws}) == 3
    assert all(np.array_equal(ws[0].detach().numpy(), w.detach().numpy()) for w in ws)


def test_transformer_encoder_nested_fast_path_zeroes_padding():
    # torch's inference path runs padded batches as nested tensors: padded positions come
    # back as zeros (before the final norm)
    kpm = np.array([[False] * 3 + [True] * 2, [False] * 5])
    x = f32(2, 5, 8)
    tm = _encoder(torch, batch_first=True, norm=False).eval()
    sm = _encoder(shadowgrad, batch_first=True, norm=False).eval()
    _copy(tm, sm)
    with torch.no_grad(), shadowgrad.no_grad():
        a = tm(torch.tensor(x), src_key_padding_mask=torch.tensor(kpm)).numpy()
        b = sm(shadowgrad.tensor(x), src_key_padding_mask=shadowgrad.tensor(kpm)).numpy()
    assert (a[0, 3:] == 0).all()
    np.testing.assert_allclose(b, a, 1e-4, 1e-5)


def test_enable_nested_tensor_warning_matches_torch():
    msgs = []
    for T in LIBS:
        layer = T.nn.TransformerEncoderLayer(8, 2, 16)  # batch_first=False blocks the fast path
        with pytest.warns(UserWarning) as rec:
            T.nn.TransformerEncoder(layer, 2)
        msgs.append(str(rec[0].message))
    assert msgs[0] == msgs[1]


def test_transformer_activation_error():
    _same_error(lambda T: T.nn.TransformerEncoderLayer(8, 2, activation="tanh"))
