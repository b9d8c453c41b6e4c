"""Recurrent, attention and transformer modules, checked without torch: gradcheck in float64
and structural properties (a layer equals its cell stepped by hand, directions, batch layout)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shadowgrad as sg
import shadowgrad.nn as nn
from shadowgrad.autograd import gradcheck, gradgradcheck


def _x(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return sg.tensor(rng.standard_normal(shape), requires_grad=True)


def _module_fn(m, n_state=0):
    params = list(m.parameters())

    def fn(x, *rest):
        out = m(x, *rest) if n_state != 2 else m(x, (rest[0], rest[1]))
        flat = []
        stack = [out]
        while stack:
            o = stack.pop()
            if isinstance(o, tuple):
                stack.extend(o)
            elif o is not None:
                flat.append(o)
        return tuple(flat)

    return fn, params


@pytest.mark.parametrize(
    "make, shape, states",
    [
        (lambda: nn.RNN(2, 2, 2, bidirectional=True, dtype=sg.float64), (2, 1, 2), [(4, 1, 2)]),
        (lambda: nn.RNN(2, 3, nonlinearity="relu", dtype=sg.float64), (3, 2, 2), []),
        (lambda: nn.GRU(2, 2, 2, batch_first=True, dtype=sg.float64), (1, 2, 2), [(2, 1, 2)]),
        (lambda: nn.LSTM(2, 2, bidirectional=True, dtype=sg.float64), (2, 2), []),
        (lambda: nn.LSTM(2, 3, proj_size=1, dtype=sg.float64), (2, 1, 2), [(1, 1, 1), (1, 1, 3)]),
        (lambda: nn.RNNCell(2, 3, dtype=sg.float64), (2, 2), [(2, 3)]),
        (lambda: nn.GRUCell(2, 3, dtype=sg.float64), (2,), [(3,)]),
        (lambda: nn.LSTMCell(2, 3, dtype=sg.float64), (2, 2), [(2, 3), (2, 3)]),
    ],
)
def test_recurrent_gradcheck_first_and_second_order(make, shape, states):
    m = make()
    fn, params = _module_fn(m, len(states) if isinstance(m, (nn.LSTM, nn.LSTMCell)) else 0)
    inputs = [_x(*shape)] + [_x(*s, seed=i + 1) for i, s in enumerate(states)]

    def with_params(*args):
        return fn(*args[: len(inputs)])

    assert gradcheck(with_params, (*inputs, *params))
    assert gradgradcheck(with_params, (*inputs, *params))


def test_rnn_layer_equals_cell_stepped_by_hand():
    sg.manual_seed(0)
    for layer, cell in [
        (nn.RNN(3, 4), nn.RNNCell(3, 4)),
        (nn.GRU(3, 4), nn.GRUCell(3, 4)),
        (nn.LSTM(3, 4), nn.LSTMCell(3, 4)),
    ]:
        cell.load_state_dict({k[:-3]: v for k, v in layer.state_dict().items()})
        x = _x(5, 2, 3).float()
        out, hn = layer(x)
        state = None
        steps = []
        for t in range(5):
            state = cell(x[t], state)
            steps.append(state[0] if isinstance(state, tuple) else state)
        np.testing.assert_allclose(out.detach().numpy(), sg.stack(steps).detach().numpy(), 1e-6)
        last = hn[0] if isinstance(hn, tuple) else hn
        np.testing.assert_allclose(last[0].detach().numpy(), steps[-1].detach().numpy(), 1e-6)


@settings(max_examples=15, deadline=None)
@given(
    kind=st.sampled_from(["RNN", "GRU", "LSTM"]),
    seq=st.integers(1, 4),
    batch=st.integers(1, 3),
    layers=st.integers(1, 2),
)
def test_reverse_direction_runs_on_flipped_sequence(kind, seq, batch, layers):
    sg.manual_seed(1)
    bi = getattr(nn, kind)(2, 3, layers, bidirectional=True)
    x = _x(seq, batch, 2).float()
    out, _ = bi(x)
    if layers == 1:
        rev = getattr(nn, kind)(2, 3)
        sd = {k.replace("_reverse", ""): v for k, v in bi.state_dict().items() if "reverse" in k}
        rev.load_state_dict(sd)
        r, _ = rev(x.flip(0))
        np.testing.assert_allclose(
            out[..., 3:].detach().numpy(), r.flip(0).detach().numpy(), 1e-5, 1e-7
        )
    # batch_first is a transpose of the same computation; unbatched is a batch of one
    bf = getattr(nn, kind)(2, 3, layers, bidirectional=True, batch_first=True)
    bf.load_state_dict(bi.state_dict())
    out_bf, _ = bf(x.transpose(0, 1))
    np.testing.assert_allclose(
        out_bf.transpose(0, 1).detach().numpy(), out.detach().numpy(), 1e-5, 1e-7
    )
    single, _ = bi(x[:, 0])
    np.testing.assert_allclose(single.detach().numpy(), out[:, 0].detach().numpy(), 1e-5, 1e-7)


def test_parameters_names_init_and_repr():
    m = nn.LSTM(3, 5, 2, bidirectional=True, proj_size=2, batch_first=True)
    names = [n for n, _ in m.named_parameters()]
    assert names[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]
    assert "weight_ih_l1_reverse" in names
    assert tuple(m.weight_ih_l1.shape) == (20, 4)
    assert tuple(m.weight_hh_l0.shape) == (20, 2)
    bound = 1 / np.sqrt(5)
    assert all((np.abs(p.detach().numpy()) <= bound).all() for p in m.parameters())
    assert repr(m) == "LSTM(3, 5, proj_size=2, num_layers=2, batch_first=True, bidirectional=True)"
    assert repr(nn.RNNCell(2, 3, bias=False, nonlinearity="relu")) == (
        "RNNCell(2, 3, bias=False, nonlinearity=relu)"
    )


def test_train_dropout_p1_zeroes_the_upper_layer_input():
    m = nn.GRU(3, 4, 2, dropout=1.0)
    x = _x(4, 2, 3).float()
    out_train, _ = m(x)
    ref = nn.GRU(4, 4)
    ref.load_state_dict({k.replace("l1", "l0"): v for k, v in m.state_dict().items() if "l1" in k})
    out_ref, _ = ref(sg.zeros(4, 2, 4))
    np.testing.assert_allclose(out_train.detach().numpy(), out_ref.detach().numpy(), 1e-6)
    m.eval()
    assert not np.allclose(m(x)[0].detach().numpy(), out_train.detach().numpy())


def test_recurrent_errors():
    with pytest.raises(RuntimeError, match=re.escape("input.size(-1) must be equal to input_size")):
        nn.LSTM(3, 4)(sg.randn(5, 2, 2))
    with pytest.raises(
        RuntimeError, match=re.escape("Expected hidden size (1, 2, 4), got [1, 3, 4]")
    ):
        nn.GRU(3, 4)(sg.randn(5, 2, 3), sg.zeros(1, 3, 4))
    with pytest.raises(ValueError, match="RNN input dtype"):
        nn.RNN(3, 4)(sg.randn(5, 2, 3, dtype=sg.float64))
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.LSTM(3, 4, dropout=0.2)


def test_multihead_attention_gradcheck():
    m = nn.MultiheadAttention(4, 2, kdim=3, vdim=2, dtype=sg.float64)
    q, k, v = _x(3, 2, 4), _x(2, 2, 3, seed=1), _x(2, 2, 2, seed=2)
    mask = sg.tensor([[False, True], [False, False]])

    def fn(q, k, v, *params):
        out, w = m(q, k, v, key_padding_mask=mask)
        return out, w

    params = list(m.parameters())
    assert gradcheck(fn, (q, k, v, *params))
    assert gradgradcheck(fn, (q, k, v, *params))


def test_multihead_attention_masks_and_weights():
    sg.manual_seed(0)
    m = nn.MultiheadAttention(4, 2)
    x = sg.randn(3, 1, 4)
    causal = sg.tensor(np.triu(np.ones((3, 3), bool), 1))
    _, w = m(x, x, x, attn_mask=causal)
    wn = w.detach().numpy()[0]
    assert np.allclose(np.triu(wn, 1), 0) and np.allclose(wn.sum(-1), 1, atol=1e-6)
    _, per_head = m(x, x, x, attn_mask=causal, average_attn_weights=False)
    assert tuple(per_head.shape) == (1, 2, 3, 3)
    np.testing.assert_allclose(per_head.mean(1).detach().numpy(), w.detach().numpy(), 1e-6)
    out_bool, _ = m(x, x, x, attn_mask=causal, need_weights=False)
    float_mask = sg.zeros(3, 3).masked_fill(causal, float("-inf"))
    out_float, none = m(x, x, x, attn_mask=float_mask)
    assert none is not None
    np.testing.assert_allclose(out_bool.detach().numpy(), out_float.detach().numpy(), 1e-5)


def test_transformer_encoder_layer_gradcheck_and_stack():
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, dtype=sg.float64)
    x = _x(3, 2, 4)
    params = list(layer.parameters())
    assert gradcheck(lambda x, *p: layer(x), (x, *params))
    with pytest.warns(UserWarning, match="enable_nested_tensor is True"):
        enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(4, dtype=sg.float64))
    y = layer(layer(x))
    for p, q in zip(enc.layers[0].parameters(), enc.layers[1].parameters(), strict=True):
        assert p is not q
    np.testing.assert_allclose(
        enc(x).detach().numpy(), enc.norm(y).detach().numpy(), rtol=1e-10, atol=1e-12
    )
