"""Realistic programs in the spirit of torch's nn tests, part 3 (test/test_nn.py,
test/test_modules.py and the module_db of torch/testing/_internal/common_modules.py):
Transformer and MultiheadAttention options and errors, RNN/LSTM/GRU constructor and input
checks, packed sequences, nn.utils (parametrize, parametrizations, the old weight_norm and
spectral_norm hooks, clip_grad, parameters_to_vector, fusion, prune), module state and
containers, lazy modules. The programs register into test_realistic_programs_3's set and run
through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns,
raises or warns is compared.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import ErrorObs, raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- MultiheadAttention ------------------------------------------------------------------------


@program()
def prog_nn3_mha_constructor_errors(T: Any) -> Any:
    nn = T.nn
    return (
        raises(lambda: nn.MultiheadAttention(5, 2)),
        raises(lambda: repr(nn.MultiheadAttention(4, 2, dropout=1.5))),
        raises(lambda: nn.MultiheadAttention(-4, 2)),
        raises(lambda: nn.MultiheadAttention(4, -2)),
        nn.MultiheadAttention(4, 2, bias=False).in_proj_bias,
        nn.MultiheadAttention(4, 2, bias=False, add_bias_kv=True).bias_k.shape,
    )


@program()
def prog_nn3_mha_key_padding_mask_dtypes(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 1)
    q = _x(T, 2, 3, 4, seed=1)
    return [
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(2, 3, dtype=T.long))),
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(2, 3, dtype=T.int32))),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(3, 3, dtype=T.int32))),
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(2, 3, dtype=T.float64))),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(3, 3, dtype=T.uint8))),
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(3, 2, dtype=T.bool))),
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(2, 3, 1, dtype=T.bool))),
    ]


@program()
def prog_nn3_mha_3d_mask_shape_errors(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2), 2)
    q = _x(T, 3, 2, 4, seed=2)
    k = _x(T, 5, 2, 4, seed=3)
    return [
        raises(lambda: mha(q, k, k, attn_mask=T.zeros(4, 3, 5))),
        raises(lambda: mha(q, k, k, attn_mask=T.zeros(4, 5, 3))),
        raises(lambda: mha(q, k, k, attn_mask=T.zeros(3, 3))),
        raises(lambda: mha(q, k, k, attn_mask=T.zeros(5))),
        mha(q, k, k, attn_mask=T.zeros(4, 3, 5))[0].shape,
        raises(lambda: mha(q, k, k, key_padding_mask=T.zeros(2, 3, dtype=T.bool))),
        raises(lambda: mha(q, k, k[:4])),
        raises(lambda: mha(q[:, :1], k, k)),
    ]


@program()
def prog_nn3_mha_bias_kv_zero_attn_masks_pad(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True), 3)
    q = _x(T, 3, 2, 4, seed=4, rg=True)
    k = _x(T, 5, 2, 4, seed=5, rg=True)
    am = T.zeros(3, 5)
    am[0, 1] = float("-inf")
    kpm = T.tensor([[False] * 4 + [True], [False] * 5])
    o, w = mha(q, k, k, attn_mask=am, key_padding_mask=kpm, average_attn_weights=False)
    (o.sum() + w.pow(2).sum()).backward()
    return o, w, w.shape, q.grad, k.grad, mha.bias_k.grad, mha.bias_v.grad, o.grad_fn, w.grad_fn


@program()
def prog_nn3_mha_bias_kv_3d_mask_pad(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, add_bias_kv=True, batch_first=True), 4)
    q = _x(T, 2, 3, 4, seed=6, rg=True)
    am = T.zeros(4, 3, 3, dtype=T.bool)
    am[1, 0, 2] = True
    o, w = mha(q, q, q, attn_mask=am)
    o.sum().backward()
    return o, w, q.grad


@program()
def prog_nn3_mha_float64_and_half_module(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2), 5).double()
    q = T.tensor(_data(3, 2, 4, seed=7), dtype=T.float64, requires_grad=True)
    o, w = mha(q, q, q)
    o.sum().backward()
    return o, w, q.grad, raises(lambda: mha(q.float(), q.float(), q.float()))


@program()
def prog_nn3_mha_kdim_vdim_unbatched_and_grads(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, kdim=3, vdim=5), 6)
    q = _x(T, 3, 4, seed=8, rg=True)
    k = _x(T, 6, 3, seed=9, rg=True)
    v = _x(T, 6, 5, seed=10, rg=True)
    kpm = T.tensor([False, False, True, False, False, True])
    o, w = mha(q, k, v, key_padding_mask=kpm)
    o.pow(2).sum().backward()
    return (
        o,
        w,
        q.grad,
        k.grad,
        v.grad,
        mha.q_proj_weight.grad,
        mha.k_proj_weight.grad,
        mha.v_proj_weight.grad,
        raises(lambda: mha(q, v, k)),
        raises(lambda: mha(q, k, v, key_padding_mask=kpm[None])),
    )


@program()
def prog_nn3_mha_eval_no_grad_fast_path_options(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 7).eval()
    q = _x(T, 2, 3, 4, seed=11)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    with T.no_grad():
        a = mha(q, q, q, key_padding_mask=kpm)
        b = mha(q, q, q, need_weights=False, key_padding_mask=kpm)
        c = mha(q, q, q, average_attn_weights=False)
        d = mha(q, q.clone(), q.clone(), need_weights=False)
    return a, b, c, d


@program()
def prog_nn3_mha_merge_masks(T: Any) -> Any:
    mha = T.nn.MultiheadAttention(4, 2, batch_first=True)
    q = _x(T, 2, 3, 4, seed=12)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    am = T.tensor([[False, True, True], [False, False, True], [False, False, False]])
    return (
        mha.merge_masks(am, kpm, q),
        mha.merge_masks(None, kpm, q),
        mha.merge_masks(am, None, q),
        mha.merge_masks(None, None, q),
    )


# --- Transformer layers -----------------------------------------------------------------------


@program()
def prog_nn3_transformer_forward_errors(T: Any) -> Any:
    m = _seeded(T, T.nn.Transformer(4, 2, 1, 1, 6, dropout=0.0), 8)
    src = _x(T, 5, 2, 4, seed=13)
    tgt = _x(T, 3, 2, 4, seed=14)
    return [
        raises(lambda: m(src, tgt[:, :1])),
        raises(lambda: m(src, _x(T, 3, 2, 5))),
        raises(lambda: m(src[:, 0], tgt)),
        raises(lambda: m(src[:, 0], tgt[:, 0])).shape,
        raises(lambda: m(src, tgt, tgt_mask=T.zeros(2, 2))),
        raises(lambda: T.nn.TransformerEncoderLayer(4, 2, activation="swish")),
        raises(lambda: T.nn.TransformerDecoderLayer(4, 2, activation="tanh")),
        raises(lambda: T.nn.Transformer(5, 2)),
    ]


@program()
def prog_nn3_transformer_batch_first_all_masks_grads(T: Any) -> Any:
    m = _seeded(
        T, T.nn.Transformer(4, 2, 1, 2, 6, dropout=0.0, batch_first=True, norm_first=True), 9
    )
    src = _x(T, 2, 5, 4, seed=15, rg=True)
    tgt = _x(T, 2, 3, 4, seed=16, rg=True)
    skpm = T.tensor([[False] * 4 + [True], [False] * 5])
    tkpm = T.tensor([[False, False, True], [False] * 3])
    tmask = m.generate_square_subsequent_mask(3)
    y = m(
        src,
        tgt,
        tgt_mask=tmask,
        src_key_padding_mask=skpm,
        tgt_key_padding_mask=tkpm,
        memory_key_padding_mask=skpm,
        tgt_is_causal=True,
    )
    y.pow(2).sum().backward()
    return y, y.grad_fn, src.grad, tgt.grad, m.encoder.layers[0].self_attn.in_proj_weight.grad


@program()
def prog_nn3_transformer_custom_encoder_decoder(T: Any) -> Any:
    nn = T.nn

    class Enc(nn.Module):
        def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
            return src * 2

    class Dec(nn.Module):
        def forward(self, tgt, memory, **kw):
            return tgt + memory.mean(0, keepdim=True)

    m = nn.Transformer(4, 2, custom_encoder=Enc(), custom_decoder=Dec())
    src = _x(T, 5, 2, 4, seed=17)
    tgt = _x(T, 3, 2, 4, seed=18)
    return m(src, tgt), len(list(m.parameters())), type(m.encoder).__name__


@program()
def prog_nn3_encoder_layer_bias_false_and_eps(T: Any) -> Any:
    m = _seeded(
        T,
        T.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, bias=False, layer_norm_eps=1e-2),
        10,
    )
    x = _x(T, 3, 2, 4, seed=19, rg=True)
    y = m(x)
    y.sum().backward()
    return y, x.grad, sorted(n for n, _ in m.named_parameters()), m.norm1.eps, m.norm1.bias


@program()
def prog_nn3_decoder_layer_bias_false_memory_causal(T: Any) -> Any:
    m = _seeded(T, T.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, bias=False), 11)
    tgt = _x(T, 3, 2, 4, seed=20, rg=True)
    mem = _x(T, 3, 2, 4, seed=21, rg=True)
    mm = T.nn.Transformer.generate_square_subsequent_mask(3)
    y = m(tgt, mem, memory_mask=mm, memory_is_causal=True)
    y.sum().backward()
    return y, tgt.grad, mem.grad, raises(lambda: m(tgt, mem, memory_is_causal=True))


@program()
def prog_nn3_encoder_detects_causal_mask(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)
    enc = _seeded(T, T.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False), 12)
    x = _x(T, 3, 2, 4, seed=22)
    cm = T.nn.Transformer.generate_square_subsequent_mask(3)
    bm = T.ones(3, 3, dtype=T.bool).triu(1)
    return (
        enc(x, mask=cm),
        enc(x, mask=cm, is_causal=True),
        enc(x, mask=bm),
        raises(lambda: enc(x, is_causal=True)),
        raises(lambda: enc(x, mask=T.zeros(2, 2))),
    )


@program()
def prog_nn3_generate_square_subsequent_mask_options(T: Any) -> Any:
    g = T.nn.Transformer.generate_square_subsequent_mask
    return g(4), g(1), g(0), g(3, dtype=T.float64), g(2, device="cpu"), g(3, dtype=T.float16)


@program()
def prog_nn3_encoder_eval_fast_path_and_training_flag(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.1, batch_first=True)
    enc = _seeded(T, T.nn.TransformerEncoder(layer, 2), 13).eval()
    x = _x(T, 2, 3, 4, seed=23)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    with T.no_grad():
        a = enc(x, src_key_padding_mask=kpm)
        b = enc(x)
    c = enc(x, src_key_padding_mask=kpm)
    return a, b, c, enc.use_nested_tensor, enc.training, enc.layers[1].training


@program()
def prog_nn3_encoder_layer_repr_and_attrs(T: Any) -> Any:
    m = T.nn.TransformerEncoderLayer(4, 2, 6, batch_first=True, norm_first=True)
    d = T.nn.TransformerDecoderLayer(4, 2, 6)
    return (
        repr(m),
        repr(d),
        m.activation_relu_or_gelu,
        m.norm_first,
        m.self_attn.batch_first,
        d.multihead_attn.batch_first,
        type(m.activation).__name__
        if not callable(m.activation) or isinstance(m.activation, T.nn.Module)
        else m.activation.__name__,
    )


# --- RNN / LSTM / GRU -------------------------------------------------------------------------


@program()
def prog_nn3_rnn_constructor_errors(T: Any) -> Any:
    nn = T.nn
    return [
        raises(lambda: nn.RNN(2, 3, nonlinearity="sigmoid")),
        raises(lambda: nn.RNN(2, 3, dropout=1.5)),
        raises(lambda: nn.LSTM(2, 3, dropout=-0.1)),
        raises(lambda: nn.GRU(2, 0)),
        raises(lambda: nn.GRU(2, 3, num_layers=0)),
        raises(lambda: nn.LSTM(2, 3.0)),
        raises(lambda: nn.LSTM(2, 3, proj_size=3)),
        raises(lambda: repr(nn.RNNCell(2, 3, nonlinearity="gelu"))),
        raises(lambda: nn.RNN(2, 3, dropout=True)),
        raises(lambda: nn.LSTM(2, 3, num_layers=2.0)),
        raises(lambda: nn.RNNBase("FOO", 2, 3)),
    ]


@program()
def prog_nn3_rnn_input_shape_errors(T: Any) -> Any:
    nn = T.nn
    rnn = nn.RNN(2, 3)
    lstm = nn.LSTM(2, 3, num_layers=2)
    gru = nn.GRU(2, 3, bidirectional=True)
    x = _x(T, 4, 2, 2)
    return [
        raises(lambda: rnn(T.ones(1, 4, 2, 2))),
        raises(lambda: rnn(T.ones(4, 2, 3))),
        raises(lambda: rnn(T.ones(4, 2), T.zeros(1, 1, 3))),
        raises(lambda: rnn(x, T.zeros(1, 3))),
        raises(lambda: rnn(x, T.zeros(1, 3, 3))),
        raises(lambda: lstm(T.ones(4, 2), (T.zeros(2, 1, 3), T.zeros(2, 1, 3)))),
        raises(lambda: lstm(x, (T.zeros(2, 3), T.zeros(2, 3)))),
        raises(lambda: lstm(x, (T.zeros(1, 2, 3), T.zeros(2, 2, 3)))),
        raises(lambda: lstm(x, (T.zeros(2, 2, 3), T.zeros(2, 2, 4)))),
        raises(lambda: gru(x, T.zeros(1, 2, 3))),
        raises(lambda: gru(x, T.zeros(2, 2, 3, dtype=T.float64))),
        raises(lambda: rnn(x.double())),
        raises(lambda: rnn(T.ones(4, 2, 2, dtype=T.long))),
    ]


@program()
def prog_nn3_lstm_proj_bidirectional_three_layers_grads(T: Any) -> Any:
    m = _seeded(
        T, T.nn.LSTM(3, 5, num_layers=3, proj_size=2, bidirectional=True, batch_first=True), 14
    )
    x = _x(T, 2, 4, 3, seed=24, rg=True)
    h0 = _x(T, 6, 2, 2, seed=25, rg=True)
    c0 = _x(T, 6, 2, 5, seed=26, rg=True)
    o, (h, c) = m(x, (h0, c0))
    (o.pow(2).sum() + h.sum() + c.sum()).backward()
    return (
        o,
        h,
        c,
        o.grad_fn,
        x.grad,
        h0.grad,
        c0.grad,
        m.weight_hr_l2_reverse.grad,
        raises(lambda: m(x, (c0, h0))),
    )


@program()
def prog_nn3_gru_unbatched_bidirectional_with_h0(T: Any) -> Any:
    m = _seeded(T, T.nn.GRU(2, 3, num_layers=2, bidirectional=True), 15)
    x = _x(T, 4, 2, seed=27, rg=True)
    h0 = _x(T, 4, 3, seed=28, rg=True)
    o, h = m(x, h0)
    (o.sum() + h.pow(2).sum()).backward()
    return o, h, x.grad, h0.grad, o.grad_fn, h.grad_fn


@program()
def prog_nn3_rnn_dropout_train_warns_and_seeded(T: Any) -> Any:
    T.manual_seed(0)
    m = _seeded(T, T.nn.RNN(2, 3, num_layers=1, dropout=0.5), 16)
    m2 = _seeded(T, T.nn.LSTM(2, 3, num_layers=2, dropout=0.0, bias=False), 17)
    x = _x(T, 3, 1, 2, seed=29)
    return m(x), m2(x), m.dropout, list(m2.state_dict())


@program()
def prog_nn3_rnn_zero_length_and_batch(T: Any) -> Any:
    m = _seeded(T, T.nn.LSTM(2, 3), 18)
    return (
        raises(lambda: m(T.zeros(0, 2, 2))),
        raises(lambda: m(T.zeros(3, 0, 2))),
        raises(lambda: T.nn.GRU(2, 3)(T.zeros(0, 2))),
    )


@program()
def prog_nn3_rnn_all_weights_and_flat_names(T: Any) -> Any:
    m = T.nn.LSTM(2, 3, num_layers=2, bidirectional=True, proj_size=1)
    g = T.nn.GRU(2, 3, bias=False)
    return (
        m._flat_weights_names,
        [[tuple(w.shape) for w in ws] for ws in m.all_weights],
        g._flat_weights_names,
        repr(m),
        repr(g),
        repr(T.nn.RNN(2, 3, nonlinearity="relu", dropout=0.2, num_layers=2)),
        repr(T.nn.LSTMCell(2, 3, bias=False)),
        repr(T.nn.RNNCell(2, 3, nonlinearity="relu")),
    )


@program()
def prog_nn3_cells_input_errors(T: Any) -> Any:
    nn = T.nn
    c = nn.LSTMCell(2, 3)
    g = nn.GRUCell(2, 3)
    r = nn.RNNCell(2, 3)
    return [
        raises(lambda: c(T.ones(2, 3))),
        raises(lambda: c(T.ones(1, 2, 2))),
        raises(lambda: c(T.ones(2, 2), (T.zeros(3, 3), T.zeros(3, 3)))),
        raises(lambda: c(T.ones(2), (T.zeros(1, 3), T.zeros(1, 3)))),
        raises(lambda: g(T.ones(2, 2), T.zeros(2, 4))),
        raises(lambda: g(T.ones(2), T.zeros(1, 3))),
        raises(lambda: r(T.ones(2, 2), T.zeros(3))),
        raises(lambda: r(T.ones(2, 2, dtype=T.float64))),
    ]


# --- packed sequences -------------------------------------------------------------------------


@program()
def prog_nn3_pack_padded_errors(T: Any) -> Any:
    U = T.nn.utils.rnn
    x = _x(T, 4, 3, 2)
    return [
        raises(lambda: U.pack_padded_sequence(x, [2, 4, 3])),
        raises(lambda: U.pack_padded_sequence(x, [4, 3, 0])),
        raises(lambda: U.pack_padded_sequence(x, [5, 3, 1])),
        raises(lambda: U.pack_padded_sequence(x, [4, 3])),
        raises(lambda: U.pack_padded_sequence(x, T.tensor([[4, 3, 1]]))),
        raises(lambda: U.pad_packed_sequence(U.pack_padded_sequence(x, [4, 3, 1]), total_length=2)),
        U.pad_packed_sequence(U.pack_padded_sequence(x, [4, 3, 1]), total_length=6)[0].shape,
        raises(lambda: U.pack_padded_sequence(x, T.tensor([4.0, 3.0, 1.0]))),
    ]


@program()
def prog_nn3_packed_sequence_unsorted_indices_round_trip(T: Any) -> Any:
    U = T.nn.utils.rnn
    seqs = [_x(T, n, 2, seed=30 + n, rg=True) for n in (2, 4, 1, 3)]
    p = U.pack_sequence(seqs, enforce_sorted=False)
    m = _seeded(T, T.nn.GRU(2, 3), 19)
    o, h = m(p)
    pad, lens = U.pad_packed_sequence(o, batch_first=True, padding_value=-1.0)
    unp = U.unpack_sequence(o)
    unpad = U.unpad_sequence(pad, lens, batch_first=True)
    (pad.sum() + h.sum()).backward()
    return (
        p.data,
        p.batch_sizes,
        p.sorted_indices,
        p.unsorted_indices,
        pad,
        lens,
        unp,
        unpad,
        h,
        [s.grad for s in seqs],
        raises(lambda: U.pack_sequence(seqs)),
    )


@program()
def prog_nn3_pad_sequence_padding_side(T: Any) -> Any:
    U = T.nn.utils.rnn
    seqs = [_x(T, n, 2, seed=40 + n) for n in (2, 4, 1)]
    return (
        U.pad_sequence(seqs, padding_side="left"),
        U.pad_sequence(seqs, batch_first=True, padding_side="left", padding_value=9.0),
        raises(lambda: U.pad_sequence(seqs, padding_side="middle")),
        raises(lambda: U.pad_sequence([])),
        U.pad_sequence([T.ones(2, 3, dtype=T.long), T.ones(1, 3, dtype=T.long)]),
        raises(lambda: U.pad_sequence([T.ones(2, 3), T.ones(1, 4)])),
    )


@program()
def prog_nn3_packed_sequence_construction_and_methods(T: Any) -> Any:
    U = T.nn.utils.rnn
    p = U.pack_padded_sequence(_x(T, 3, 2, 2, seed=50), [3, 2])
    q = U.PackedSequence(p.data, p.batch_sizes)
    return (
        q.sorted_indices,
        p.double().data.dtype,
        p.is_cuda,
        p.is_pinned(),
        p.to(T.float16).data.dtype,
        p.long().data.dtype,
        len(p),
        p._fields,
        raises(lambda: U.PackedSequence(p.data, [3, 2])),
        type(p.cpu()).__name__,
    )


@program()
def prog_nn3_lstm_packed_unbatched_error_and_h0_errors(T: Any) -> Any:
    U = T.nn.utils.rnn
    m = T.nn.LSTM(2, 3)
    p = U.pack_padded_sequence(_x(T, 3, 2, 2, seed=51), [3, 2])
    return (
        raises(lambda: m(p, (T.zeros(1, 3, 3), T.zeros(1, 3, 3)))),
        raises(lambda: m(p, (T.zeros(3, 3), T.zeros(3, 3)))),
        raises(lambda: T.nn.GRU(2, 3)(p, T.zeros(1, 1, 3))),
    )


# --- nn.utils.parametrize --------------------------------------------------------------------


@program()
def prog_nn3_parametrize_errors_and_queries(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Sym(nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).mT

    class Shape(nn.Module):
        def forward(self, x):
            return x[:2]

    class Dtype(nn.Module):
        def forward(self, x):
            return x.double()

    class NoTensor(nn.Module):
        def forward(self, x):
            return 3

    m = nn.Linear(3, 3)
    out = [
        P.is_parametrized(m),
        raises(lambda: P.remove_parametrizations(m, "weight")),
        raises(lambda: P.register_parametrization(m, "nothere", Sym())),
        raises(lambda: P.register_parametrization(m, "weight", Shape())),
        raises(lambda: P.register_parametrization(m, "weight", Dtype())),
        raises(lambda: P.register_parametrization(m, "weight", NoTensor())),
        P.is_parametrized(m),
    ]
    P.register_parametrization(m, "weight", Sym())
    out += [
        P.is_parametrized(m),
        P.is_parametrized(m, "weight"),
        P.is_parametrized(m, "bias"),
        type(m).__name__,
        P.type_before_parametrizations(m).__name__,
        type(m.parametrizations).__name__,
        type(m.parametrizations.weight).__name__,
        raises(lambda: P.remove_parametrizations(m, "bias")),
        raises(lambda: setattr(m, "weight", T.ones(2, 2))),
        sorted(m.state_dict()),
        m.weight,
    ]
    return out


@program()
def prog_nn3_parametrize_right_inverse_errors(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class BadInv(nn.Module):
        def forward(self, x):
            return x * 2

        def right_inverse(self, x):
            return x[0]

    class BadInvDtype(nn.Module):
        def forward(self, x):
            return x * 2

        def right_inverse(self, x):
            return x.double()

    class TupleInv(nn.Module):
        def forward(self, a, b):
            return a + b

        def right_inverse(self, x):
            return x / 2, x / 2

    class NotTensorInv(nn.Module):
        def forward(self, x):
            return x

        def right_inverse(self, x):
            return [x]

    m = nn.Linear(2, 2)
    out = [
        raises(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", BadInv())),
        raises(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", BadInvDtype())),
        raises(lambda: repr(P.register_parametrization(nn.Linear(2, 2), "weight", NotTensorInv()))),
    ]
    P.register_parametrization(m, "weight", TupleInv())
    out += [
        sorted(n for n, _ in m.named_parameters()),
        m.parametrizations.weight.original0,
        raises(lambda: P.register_parametrization(m, "weight", TupleInv())),
    ]
    with T.no_grad():
        m.weight = T.ones(2, 2)
    out.append(m.parametrizations.weight.original1)
    P.remove_parametrizations(m, "weight", leave_parametrized=True)
    out += [m.weight, type(m).__name__]
    return out


@program()
def prog_nn3_parametrize_remove_not_leave_multi_and_unsafe(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Double(nn.Module):
        def forward(self, x):
            return x * 2

    class Pair(nn.Module):
        def forward(self, a, b):
            return a - b

        def right_inverse(self, x):
            return x, T.zeros_like(x)

    class Grow(nn.Module):
        def forward(self, x):
            return T.cat([x, x])

    m = nn.Linear(2, 2)
    P.register_parametrization(m, "weight", Pair())
    r1 = raises(lambda: P.remove_parametrizations(m, "weight", leave_parametrized=False))
    m2 = nn.Linear(2, 3)
    P.register_parametrization(m2, "weight", Grow(), unsafe=True)
    r2 = m2.weight.shape
    r3 = raises(lambda: m2(T.ones(1, 2)))
    m3 = _seeded(T, nn.Linear(2, 2), 20)
    w0 = m3.weight.detach().clone()
    P.register_parametrization(m3, "weight", Double())
    P.register_parametrization(m3, "weight", Double())
    P.remove_parametrizations(m3, "weight", leave_parametrized=False)
    return r1, r2, r3, T.equal(m3.weight, w0), type(m3).__name__, len(m3.state_dict())


@program()
def prog_nn3_parametrize_cached_context_and_grads(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize
    calls = []

    class Sq(nn.Module):
        def forward(self, x):
            calls.append(1)
            return x * x

    m = _seeded(T, nn.Linear(2, 2), 21)
    P.register_parametrization(m, "weight", Sq())
    x = _x(T, 3, 2, seed=60)
    with P.cached():
        y = m(x) + m(x)
        with P.cached():
            z = m(x)
    y.sum().backward()
    g = m.parametrizations.weight.original.grad
    n_cached = len(calls)
    m(x)
    m(x)
    return y, z, g, n_cached, len(calls)


@program()
def prog_nn3_parametrize_on_buffer_and_bias(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Pos(nn.Module):
        def forward(self, x):
            return x.abs()

    bn = nn.BatchNorm1d(2)
    P.register_parametrization(bn, "running_var", Pos())
    r = raises(lambda: setattr(bn, "running_var", T.tensor([4.0, 9.0])))
    lin = _seeded(T, nn.Linear(2, 2), 22)
    P.register_parametrization(lin, "bias", Pos())
    with T.no_grad():
        lin.parametrizations.bias.original.copy_(T.tensor([-1.0, 2.0]))
    return (
        r,
        sorted(bn.state_dict()),
        bn.running_var,
        sorted(n for n, _ in bn.named_buffers()),
        lin.bias,
        lin.parametrizations.bias.original,
        sorted(n for n, _ in lin.named_parameters()),
    )


# --- nn.utils.parametrizations ---------------------------------------------------------------


@program()
def prog_nn3_orthogonal_maps_and_errors(T: Any) -> Any:
    nn = T.nn
    orth = nn.utils.parametrizations.orthogonal
    outs = []
    for omap in ("matrix_exp", "cayley", "householder"):
        for trivial in (True, False):
            m = _seeded(T, nn.Linear(3, 3), 23)
            orth(m, orthogonal_map=omap, use_trivialization=trivial)
            w = m.weight
            outs.append((omap, trivial, w, (w @ w.T - T.eye(3)).abs().max() < 1e-5))
    tall = _seeded(T, nn.Linear(2, 4), 24)
    orth(tall)
    return (
        outs,
        tall.weight,
        raises(lambda: orth(nn.Linear(2, 2), orthogonal_map="qr")),
        raises(lambda: orth(nn.BatchNorm1d(2), "weight")),
        raises(lambda: orth(nn.Linear(2, 2), "bias")),
    )


@program()
def prog_nn3_orthogonal_assign_and_grads(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 3), 25)
    nn.utils.parametrizations.orthogonal(m)
    q = T.linalg.qr(T.tensor(_data(3, 3, seed=61)))[0]
    with T.no_grad():
        m.weight = q
    w_after = m.weight
    x = _x(T, 2, 3, seed=62)
    m(x).pow(2).sum().backward()
    r = raises(lambda: setattr(m, "weight", T.ones(3, 3)))
    return w_after, m.parametrizations.weight.original.grad, r


@program()
def prog_nn3_spectral_norm_parametrization_train_steps(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(3)
    m = _seeded(T, nn.Linear(3, 4), 26)
    nn.utils.parametrizations.spectral_norm(m, n_power_iterations=2)
    x = _x(T, 2, 3, seed=63, rg=True)
    y1 = m(x)
    y2 = m(x)
    y2.sum().backward()
    m.eval()
    y3 = m(x)
    sd = m.state_dict()
    return (
        y1,
        y2,
        y3,
        x.grad,
        sorted(sd),
        m.parametrizations.weight[0].n_power_iterations,
        raises(
            lambda: nn.utils.parametrizations.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
        ),
        raises(lambda: nn.utils.parametrizations.spectral_norm(nn.Linear(2, 2), "nope")),
    )


@program()
def prog_nn3_spectral_norm_parametrization_conv_dim(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(4)
    c = _seeded(T, nn.ConvTranspose2d(2, 3, 2), 27)
    nn.utils.parametrizations.spectral_norm(c)
    sn = c.parametrizations.weight[0]
    c1 = _seeded(T, nn.Conv1d(2, 3, 2), 28)
    nn.utils.parametrizations.spectral_norm(c1, dim=1)
    b = nn.Linear(2, 2)
    nn.utils.parametrizations.spectral_norm(b, "bias")
    return (
        sn.dim,
        sn._u.shape,
        sn._v.shape,
        c.weight,
        c1.weight,
        b.bias,
        b.parametrizations.bias[0]._u.shape if hasattr(b.parametrizations.bias[0], "_u") else None,
    )


@program()
def prog_nn3_weight_norm_parametrization_dims_and_grads(T: Any) -> Any:
    nn = T.nn
    W = nn.utils.parametrizations.weight_norm
    a = W(_seeded(T, nn.Linear(3, 2), 29))
    b = W(_seeded(T, nn.Linear(3, 2), 29), dim=None)
    c = W(_seeded(T, nn.Conv2d(2, 3, 2), 30), dim=1)
    d = W(_seeded(T, nn.Linear(3, 2), 29), dim=-1)
    x = _x(T, 2, 3, seed=64, rg=True)
    ya = a(x)
    yb = b(x)
    yd = d(x)
    (ya.sum() + yb.pow(2).sum() + yd.sum()).backward()
    return (
        ya,
        yb,
        yd,
        a.parametrizations.weight.original0,
        b.parametrizations.weight.original0,
        c.parametrizations.weight.original0.shape,
        d.parametrizations.weight.original0.shape,
        a.parametrizations.weight.original0.grad,
        b.parametrizations.weight.original1.grad,
        x.grad,
        sorted(a.state_dict()),
    )


# --- the old weight_norm / spectral_norm hooks ------------------------------------------------


@program()
def prog_nn3_old_weight_norm_errors_and_dims(T: Any) -> Any:
    nn = T.nn
    wn = nn.utils.weight_norm
    a = wn(_seeded(T, nn.Linear(3, 2), 31), dim=None)
    b = wn(_seeded(T, nn.Conv1d(2, 3, 2), 32), dim=2)
    c = wn(_seeded(T, nn.Linear(3, 2), 31), dim=-1)
    x = _x(T, 2, 3, seed=65, rg=True)
    y = a(x) + c(x)
    y.sum().backward()
    return (
        y,
        a.weight_g,
        a.weight_g.shape,
        b.weight_g.shape,
        c.weight_g.shape,
        a.weight_v.grad,
        c.weight_g.grad,
        raises(lambda: wn(a)),
        raises(lambda: nn.utils.remove_weight_norm(nn.Linear(2, 2))),
        raises(lambda: wn(nn.Linear(2, 2), name="nope")),
        sorted(a.state_dict()),
    )


@program()
def prog_nn3_old_spectral_norm_errors_and_eval(T: Any) -> Any:
    nn = T.nn
    sn = nn.utils.spectral_norm
    T.manual_seed(5)
    m = sn(_seeded(T, nn.Linear(3, 4), 33), n_power_iterations=3, eps=1e-6)
    x = _x(T, 2, 3, seed=66, rg=True)
    y1 = m(x)
    m.eval()
    y2 = m(x)
    y2.sum().backward()
    return (
        y1,
        y2,
        x.grad,
        m.weight_orig.grad,
        sorted(m.state_dict()),
        raises(lambda: sn(m)),
        raises(lambda: nn.utils.remove_spectral_norm(nn.Linear(2, 2))),
        raises(lambda: sn(nn.Linear(2, 2), n_power_iterations=0)),
        m.weight_u.shape,
        m.weight_v.shape,
    )


# --- clip_grad / parameters_to_vector / fusion -----------------------------------------------


@program()
def prog_nn3_clip_grad_norm_edge_cases(T: Any) -> Any:
    nn = T.nn
    U = nn.utils

    def params(seed):
        ps = [nn.Parameter(_x(T, 3, seed=seed)), nn.Parameter(_x(T, 2, 2, seed=seed + 1))]
        for i, p in enumerate(ps):
            p.grad = _x(T, *p.shape, seed=seed + 10 + i)
        return ps

    a = params(70)
    b = params(70)
    c = params(70)
    d = params(70)
    nograd = nn.Parameter(T.ones(2))
    return (
        U.clip_grad_norm_(a, 0.5),
        [p.grad for p in a],
        U.clip_grad_norm_(b, 1.0, norm_type=1),
        [p.grad for p in b],
        U.clip_grad_norm_(c, 100.0, norm_type="inf"),
        [p.grad for p in c],
        U.clip_grad_norm_(d[0], 0.1, norm_type=0.5, foreach=False),
        d[0].grad,
        U.clip_grad_norm_([], 1.0),
        U.clip_grad_norm_([nograd], 1.0),
        U.clip_grad_norm_(params(80), 1.0, norm_type=3.0, foreach=True),
    )


@program()
def prog_nn3_clip_grad_nonfinite_and_value(T: Any) -> Any:
    nn = T.nn
    U = nn.utils
    p = nn.Parameter(T.ones(3))
    p.grad = T.tensor([1.0, float("nan"), 2.0])
    q = nn.Parameter(T.ones(2))
    q.grad = T.tensor([float("inf"), 1.0])
    r = nn.Parameter(T.ones(4))
    r.grad = T.tensor([-3.0, -0.5, 0.5, 3.0])
    s = nn.Parameter(T.ones(2, dtype=T.float64))
    s.grad = T.tensor([5.0, -5.0], dtype=T.float64)
    return (
        raises(lambda: U.clip_grad_norm_(p, 1.0, error_if_nonfinite=True)),
        raises(
            lambda: U.clip_grad_norm_([q], 1.0, norm_type=float("inf"), error_if_nonfinite=True)
        ),
        U.clip_grad_norm_([q], 1.0),
        q.grad,
        U.clip_grad_value_([r, s], 1.0),
        r.grad,
        s.grad,
        U.clip_grad_value_(r, 0.25, foreach=True),
        r.grad,
        raises(lambda: U.clip_grad_value_(r, -1.0)),
    )


@program()
def prog_nn3_parameters_to_vector_errors_and_views(T: Any) -> Any:
    nn = T.nn
    U = nn.utils
    m = _seeded(T, nn.Linear(3, 2), 34)
    v = U.parameters_to_vector(m.parameters())
    U.vector_to_parameters(v * 2, m.parameters())
    half = [T.ones(2), T.ones(2, dtype=T.float64)]
    return (
        v,
        v.grad_fn,
        m.weight,
        m.weight.is_leaf,
        m.weight.requires_grad,
        raises(lambda: U.vector_to_parameters([1.0, 2.0], m.parameters())),
        raises(lambda: U.vector_to_parameters(T.ones(3), m.parameters())),
        U.parameters_to_vector(half),
        U.parameters_to_vector(T.ones(2, 2)),
        raises(lambda: U.parameters_to_vector([])),
    )


@program()
def prog_nn3_fusion_linear_bn_and_conv_transpose(T: Any) -> Any:
    nn = T.nn
    fu = nn.utils.fusion
    lin = _seeded(T, nn.Linear(3, 4), 35).eval()
    bn = _seeded(T, nn.BatchNorm1d(4), 36).eval()
    bn.running_mean = T.tensor([0.1, -0.2, 0.3, 0.0])
    bn.running_var = T.tensor([1.5, 0.5, 2.0, 1.0])
    fused = fu.fuse_linear_bn_eval(lin, bn)
    x = _x(T, 2, 3, seed=67)
    ct = _seeded(T, nn.ConvTranspose2d(2, 3, 2), 37).eval()
    bn2 = _seeded(T, nn.BatchNorm2d(3), 38).eval()
    fct = fu.fuse_conv_bn_eval(ct, bn2, transpose=True)
    xi = _x(T, 1, 2, 3, 3, seed=68)
    nb = nn.Conv2d(2, 3, 1, bias=False).eval()
    fnb = fu.fuse_conv_bn_eval(nb, bn2)
    return (
        fused(x),
        bn(lin(x)),
        type(fused.weight).__name__,
        fused.weight.requires_grad,
        fct(xi),
        bn2(ct(xi)),
        fnb.bias,
        raises(lambda: fu.fuse_linear_bn_eval(nn.Linear(2, 3).train(), nn.BatchNorm1d(3))),
        raises(lambda: fu.fuse_linear_bn_eval(nn.Linear(2, 3).eval(), nn.BatchNorm1d(4).eval())),
        raises(lambda: fu.fuse_conv_bn_eval(nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3))),
    )


# --- prune ------------------------------------------------------------------------------------


@program()
def prog_nn3_prune_structured_and_errors(T: Any) -> Any:
    nn = T.nn
    pr = importlib.import_module(T.__name__ + ".nn.utils.prune")
    T.manual_seed(6)
    a = _seeded(T, nn.Linear(4, 3), 39)
    pr.ln_structured(a, "weight", amount=1, n=2, dim=0)
    b = _seeded(T, nn.Conv2d(2, 4, 2), 40)
    pr.ln_structured(b, "weight", amount=0.5, n=float("inf"), dim=1)
    c = _seeded(T, nn.Linear(4, 3), 41)
    pr.random_structured(c, "weight", amount=2, dim=1)
    d = _seeded(T, nn.Linear(4, 3), 42)
    pr.random_unstructured(d, "bias", amount=0.34)
    return (
        a.weight_mask,
        b.weight_mask.sum(),
        c.weight_mask,
        d.bias_mask,
        pr.is_pruned(a),
        pr.is_pruned(nn.Linear(2, 2)),
        raises(lambda: pr.ln_structured(nn.Linear(2, 2), "weight", amount=3, n=1, dim=0)),
        raises(lambda: pr.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5)),
        raises(lambda: pr.l1_unstructured(nn.Linear(2, 2), "weight", amount=-1)),
        raises(lambda: pr.l1_unstructured(nn.Linear(2, 2), "weight", amount="a")),
        raises(lambda: pr.remove(nn.Linear(2, 2), "weight")),
        raises(lambda: pr.ln_structured(nn.Linear(2, 2), "weight", amount=1, n=1, dim=3)),
    )


@program()
def prog_nn3_prune_custom_from_mask_and_hooks(T: Any) -> Any:
    nn = T.nn
    pr = importlib.import_module(T.__name__ + ".nn.utils.prune")
    m = _seeded(T, nn.Linear(3, 2), 43)
    pr.custom_from_mask(m, "weight", T.tensor([[1, 0, 1], [0, 1, 1]]))
    pr.l1_unstructured(m, "weight", amount=1)
    hooks = list(m._forward_pre_hooks.values())
    x = _x(T, 2, 3, seed=69, rg=True)
    y = m(x)
    y.sum().backward()
    out = (
        m.weight,
        m.weight_mask,
        type(hooks[0]).__name__,
        [type(h).__name__ for h in hooks[0]._pruning_methods],
        m.weight_orig.grad,
        sorted(m.state_dict()),
        y.grad_fn,
    )
    pr.remove(m, "weight")
    return out, sorted(m.state_dict()), m.weight, len(m._forward_pre_hooks)


# --- probes turned programs: grad_fn names, norms, state loading ----------------------------


def _gf(t: Any) -> Any:
    g = t.grad_fn
    if g is None:
        return None
    return g.name(), [None if n is None else n.name() for n, _ in g.next_functions]


@program()
def prog_nn3_norm_parametrizations_graph_names(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrizations
    T.manual_seed(7)
    out = [
        _gf(nn.utils.weight_norm(nn.Linear(3, 2)).weight),
        _gf(nn.utils.weight_norm(nn.Linear(3, 2), dim=None).weight),
        _gf(P.weight_norm(nn.Linear(3, 2)).weight),
        _gf(P.weight_norm(nn.Linear(3, 2), dim=None).weight),
    ]
    m = nn.utils.spectral_norm(nn.Linear(3, 2))
    m(T.ones(1, 3))
    out.append(_gf(m.weight))
    out.append(_gf(P.spectral_norm(nn.Linear(3, 2)).weight))
    out.append(_gf(P.spectral_norm(nn.Linear(3, 2, dtype=T.complex64)).weight))
    for omap in ("matrix_exp", "cayley", "householder"):
        out.append(_gf(P.orthogonal(nn.Linear(3, 3), orthogonal_map=omap).weight))
    c = P.orthogonal(nn.Linear(3, 2, dtype=T.complex64))
    out.append((_gf(c.weight), c.weight.dtype))
    return out


@program()
def prog_nn3_spectral_norm_parametrization_backward(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(8)
    m = _seeded(T, nn.Linear(3, 4), 44)
    nn.utils.parametrizations.spectral_norm(m)
    x = _x(T, 2, 3, seed=70, rg=True)
    y = m(x)
    y.pow(2).sum().backward()
    g = m.parametrizations.weight.original.grad
    m.eval()
    w = m.weight
    gw = T.autograd.grad(w.sum(), m.parametrizations.weight.original, create_graph=True)[0]
    gg = T.autograd.grad(gw.pow(2).sum(), m.parametrizations.weight.original)[0]
    return y, x.grad, g, w, gw, gg


@program()
def prog_nn3_packed_sequence_graph_names(T: Any) -> Any:
    U = T.nn.utils.rnn
    x = _x(T, 3, 2, 2, seed=71, rg=True)
    p = U.pack_padded_sequence(x, [3, 1])
    q = U.pad_packed_sequence(p)
    p2 = U.pack_padded_sequence(x, [1, 3], enforce_sorted=False)
    s = U.pad_sequence([x[0], x[1, :1]])
    (p.data.sum() + q[0].pow(2).sum() + p2.data.sum() + s.sum()).backward()
    return _gf(p.data), _gf(q[0]), _gf(p2.data), _gf(s), x.grad


@program()
def prog_nn3_clip_grad_mixed_dtypes_complex_and_tensor_max(T: Any) -> Any:
    nn = T.nn
    U = nn.utils

    def ps(*grads):
        out = []
        for g in grads:
            p = nn.Parameter(T.ones(g.shape, dtype=g.dtype))
            p.grad = g
            out.append(p)
        return out

    a = ps(T.ones(2), T.ones(2, dtype=T.float64))
    b = ps(T.full((2,), 300.0, dtype=T.float16), T.ones(2))
    c = ps(T.full((2,), 1 + 1j))
    d = ps(T.ones(2))
    return (
        raises(lambda: U.clip_grad_norm_(a, 1.0)),
        raises(lambda: U.clip_grad_norm_(b, 1.0)),
        [p.grad for p in b],
        raises(lambda: U.get_total_norm([T.ones(2), T.ones(3, dtype=T.float64)], norm_type=1)),
        raises(lambda: U.get_total_norm([])),
        raises(lambda: U.get_total_norm(T.ones(3), norm_type=0)),
        raises(lambda: U.get_total_norm([T.ones(3, dtype=T.long)])),
        raises(lambda: U.clip_grads_with_norm_([nn.Parameter(T.ones(2))], 1.0, T.tensor(0.5))),
        raises(lambda: U.clip_grad_norm_(c, 1.0)),
        c[0].grad,
        raises(lambda: U.clip_grad_norm_(d, 1.0, norm_type=-float("inf"))),
        raises(lambda: U.clip_grad_norm_(d, T.tensor(0.5))),
        d[0].grad,
        raises(lambda: U.clip_grad_value_(d, T.tensor(0.1))),
        d[0].grad,
    )


@program()
def prog_nn3_load_state_dict_custom_errors_hooks_and_assign(T: Any) -> Any:
    nn = T.nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(2, 2)
            self.register_buffer("b", T.zeros(2, dtype=T.long))
            self.c = nn.Sequential(nn.Linear(2, 1), nn.BatchNorm1d(1))

        def _load_from_state_dict(self, sd, prefix, lm, strict, missing, unexpected, errs):
            errs.append("custom problem at " + prefix)
            super()._load_from_state_dict(sd, prefix, lm, strict, missing, unexpected, errs)

    class E(nn.Module):
        def get_extra_state(self):
            return {"x": 1}

    m = M()
    sd = m.state_dict()
    out = [
        raises(lambda: m.load_state_dict(sd)),
        raises(lambda: m.load_state_dict(sd, strict=False)),
        raises(lambda: E().load_state_dict(E().state_dict())),
        raises(lambda: nn.Linear(2, 2).set_extra_state(3)),
        raises(lambda: nn.Linear(2, 2).get_extra_state()),
    ]
    seen = []

    def pre(module, sd, prefix, local_metadata, strict, missing, unexpected, errs):
        seen.append((type(module).__name__, prefix, sorted(sd)[:2], strict))

    lin = nn.Sequential(nn.Linear(2, 2))
    h = lin[0].register_load_state_dict_pre_hook(pre)
    out.append(raises(lambda: lin.load_state_dict(lin.state_dict(), strict=False)))
    out.append(seen)
    h.remove()

    def post(module, keys):
        keys.missing_keys.append("fake")

    lin.register_load_state_dict_post_hook(post)
    out.append(raises(lambda: lin.load_state_dict(lin.state_dict())))
    out.append(raises(lambda: repr(lin.load_state_dict(lin.state_dict(), strict=False))))
    l2 = nn.Linear(2, 2)
    sd2 = {"weight": T.ones(2, 2, dtype=T.float64), "bias": T.zeros(2, dtype=T.float64)}
    out.append(raises(lambda: l2.load_state_dict(sd2, assign=True)))
    out.append((l2.weight.dtype, type(l2.weight).__name__, l2.weight.requires_grad))
    bn = nn.BatchNorm1d(2)
    sdb = {k: v.double() if v.is_floating_point() else v.int() for k, v in bn.state_dict().items()}
    out.append(raises(lambda: bn.load_state_dict(sdb, assign=True)))
    out.append([(k, v.dtype, type(v).__name__) for k, v in bn.state_dict().items()])
    bn2 = nn.BatchNorm1d(2)
    out.append(raises(lambda: bn2.load_state_dict(sdb)))
    out.append([(k, v.dtype) for k, v in bn2.state_dict().items()])
    l3 = nn.Linear(2, 2)
    out.append(
        raises(
            lambda: l3.load_state_dict(
                {"weight": nn.Parameter(T.ones(2, 2)), "bias": T.zeros(2)}, assign=True
            )
        )
    )
    out.append((type(l3.weight).__name__, l3.weight.requires_grad, l3.bias.requires_grad))
    l4 = nn.Linear(2, 2).requires_grad_(False)
    out.append(
        raises(
            lambda: l4.load_state_dict({"weight": T.ones(2, 2), "bias": T.zeros(2)}, assign=True)
        )
    )
    out.append((l4.weight.requires_grad, l4.bias.requires_grad))
    return out


@program()
def prog_nn3_prune_combined_masks_and_global(T: Any) -> Any:
    pr = importlib.import_module(T.__name__ + ".nn.utils.prune")
    nn = T.nn
    T.manual_seed(9)
    out = []
    a = _seeded(T, nn.Linear(5, 4), 45)
    pr.l1_unstructured(a, "weight", amount=0.3)
    pr.ln_structured(a, "weight", amount=0.5, n=1, dim=0)
    pr.ln_structured(a, "weight", amount=1, n=2, dim=1)
    pr.random_structured(a, "weight", amount=0.25, dim=0)
    pr.random_unstructured(a, "weight", amount=2)
    out.append(a.weight_mask)
    out.append([type(m).__name__ for m in next(iter(a._forward_pre_hooks.values()))])
    b = _seeded(T, nn.Linear(5, 4), 46)
    pr.ln_structured(b, "weight", amount=2, n=1, dim=0)
    pr.l1_unstructured(b, "weight", amount=0.5)
    out.append(b.weight_mask)
    c = _seeded(T, nn.Conv2d(2, 3, 2), 47)
    scores = T.arange(24.0).reshape(3, 2, 2, 2)
    pr.ln_structured(c, "weight", amount=0.4, n=2, dim=-1, importance_scores=scores)
    out.append(c.weight_mask)
    d = _seeded(T, nn.Linear(3, 3), 48)
    e = _seeded(T, nn.Linear(3, 2), 49)
    params = [(d, "weight"), (e, "weight"), (e, "bias")]
    pr.global_unstructured(params, pruning_method=pr.L1Unstructured, amount=5)
    pr.global_unstructured(params[:2], pruning_method=pr.RandomUnstructured, amount=0.2)
    out.append((d.weight_mask, e.weight_mask, e.bias_mask))
    out.append(
        raises(
            lambda: pr.global_unstructured(
                [(d, "weight")], pruning_method=pr.LnStructured, amount=1
            )
        )
    )
    out.append(
        raises(
            lambda: pr.global_unstructured(
                (d, "weight"), pruning_method=pr.L1Unstructured, amount=1
            )
        )
    )
    f = _seeded(T, nn.Linear(3, 3), 50)
    pr.identity(f, "weight")
    pr.l1_unstructured(f, "weight", 0.0)
    pr.l1_unstructured(f, "weight", 0)
    out.append((f.weight_mask, pr.L1Unstructured.PRUNING_TYPE, pr.LnStructured.PRUNING_TYPE))
    g = _seeded(T, nn.Linear(3, 3), 51)
    pr.l1_unstructured(g, "weight", 0.5, importance_scores=T.ones(3, 3))
    out.append(g.weight_mask)
    out += [
        raises(
            lambda: pr.l1_unstructured(
                nn.Linear(3, 3), "weight", 0.5, importance_scores=T.ones(2, 3)
            )
        ),
        raises(lambda: pr.random_structured(nn.Linear(3, 3), "bias", 0.5, dim=0)),
        raises(lambda: pr.ln_structured(nn.Linear(3, 3), "bias", 0.5, n=1, dim=1)),
        pr.L1Unstructured.apply(_seeded(T, nn.Linear(2, 2), 52), "weight", amount=1).amount,
    ]
    return out


# --- the inference fast path (eval, nothing needing grad) -------------------------------------


def _fully_masked_inputs(T: Any) -> Any:
    x = _x(T, 2, 3, 4, seed=80)
    kpm = T.tensor([[True, True, True], [False, False, True]])
    am = T.tensor([[False, True, True], [True, True, True], [False, False, False]])
    return x, kpm, am


@program()
def prog_nn3_mha_fast_path_fully_masked_rows(T: Any) -> Any:
    x, kpm, am = _fully_masked_inputs(T)
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 53).eval()
    with T.no_grad():
        fast = [
            mha(x, x, x, key_padding_mask=kpm),
            mha(x, x, x, key_padding_mask=kpm, need_weights=False),
            mha(x, x, x, attn_mask=am, need_weights=False),
            mha(x, x, x, attn_mask=am, key_padding_mask=kpm, need_weights=False),
            mha(x, x, x, attn_mask=am, average_attn_weights=False),
            # float masks never take the fast path
            mha(
                x,
                x,
                x,
                key_padding_mask=T.zeros(2, 3).masked_fill(kpm, float("-inf")),
                need_weights=False,
            ),
            # nor cross-attention, training, or an odd head count
            mha(x, x.clone(), x.clone(), key_padding_mask=kpm, need_weights=False),
        ]
    mha.train()
    with T.no_grad():
        train = mha(x, x, x, key_padding_mask=kpm, need_weights=False)
    mha.eval()
    grad = mha(x, x, x, key_padding_mask=kpm, need_weights=False)
    odd = _seeded(T, T.nn.MultiheadAttention(3, 3, batch_first=True), 54).eval()
    y = x[..., :3].contiguous()
    with T.no_grad():
        odd_out = odd(y, y, y, key_padding_mask=kpm, need_weights=False)
    return fast, train, grad, grad[0].grad_fn, odd_out


@program()
def prog_nn3_mha_fast_path_is_causal_without_mask(T: Any) -> Any:
    x, kpm, _ = _fully_masked_inputs(T)
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 55).eval()
    with T.no_grad():
        a = mha(x, x, x, is_causal=True)
        b = mha(x, x, x, is_causal=True, need_weights=False)
        c = mha(x, x, x, key_padding_mask=kpm[1:].expand(2, 3), is_causal=True)
    d = raises(lambda: mha(x, x, x, is_causal=True))
    mha.batch_first = False
    with T.no_grad():
        e = raises(lambda: mha(x, x, x, is_causal=True))
    return a, b, c, d, e


@program()
def prog_nn3_mha_fastpath_switch(T: Any) -> Any:
    x, kpm, _ = _fully_masked_inputs(T)
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 56).eval()
    layer = _seeded(T, T.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 109).eval()
    enc = T.nn.TransformerEncoder(layer, 2)
    partial = T.tensor([[False, False, True], [False, False, False]])
    B = T.backends.mha
    before = B.get_fastpath_enabled()
    B.set_fastpath_enabled(False)
    try:
        with T.no_grad():
            off = mha(x, x, x, key_padding_mask=kpm, need_weights=False)
            off_causal = raises(lambda: mha(x, x, x, is_causal=True))
            off_layer = layer(x, src_key_padding_mask=kpm)
            off_enc = enc(x, src_key_padding_mask=partial)
        state = B.get_fastpath_enabled()
    finally:
        B.set_fastpath_enabled(True)
    with T.no_grad():
        on = mha(x, x, x, key_padding_mask=kpm, need_weights=False)
        on_layer = layer(x, src_key_padding_mask=kpm)
        on_enc = enc(x, src_key_padding_mask=partial)
    return before, state, off, off_causal, on, off_layer, on_layer, off_enc, on_enc


@program()
def prog_nn3_encoder_layer_fast_path_masked_rows(T: Any) -> Any:
    x, kpm, am = _fully_masked_inputs(T)
    out = []
    for nf in (False, True):
        for act in ("relu", "gelu"):
            layer = T.nn.TransformerEncoderLayer(
                4, 2, 8, batch_first=True, norm_first=nf, activation=act
            )
            layer = _seeded(T, layer, 57).eval()
            with T.no_grad():
                out.append(layer(x, src_key_padding_mask=kpm))
                out.append(layer(x, src_mask=am))
                out.append(layer(x, src_mask=am.float().masked_fill(am, float("-inf"))))
                out.append(layer(x, src_mask=am, src_key_padding_mask=kpm))
                enc = T.nn.TransformerEncoder(layer, 2, enable_nested_tensor=not nf)
                out.append(enc(x, src_key_padding_mask=kpm))
    return out


@program()
def prog_nn3_encoder_layer_fast_path_activation_and_is_causal(T: Any) -> Any:
    x = _x(T, 2, 3, 4, seed=81) * 3
    nn = T.nn
    layer = _seeded(
        T,
        nn.TransformerEncoderLayer(
            4, 2, 8, batch_first=True, activation=nn.GELU(approximate="tanh")
        ),
        58,
    ).eval()
    with T.no_grad():
        fast = layer(x)
        causal = layer(x, is_causal=True)
    slow = layer(x)
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    with T.no_grad():
        enc_causal = enc(x, is_causal=True)
    return (
        fast,
        slow,
        causal,
        raises(lambda: layer(x, is_causal=True)),
        enc_causal,
        layer.activation_relu_or_gelu,
    )


@program()
def prog_nn3_encoder_layer_fast_path_blockers(T: Any) -> Any:
    x, kpm, _ = _fully_masked_inputs(T)
    nn = T.nn
    out = []
    # a hook anywhere inside, unequal norm eps, an odd head count, or batch_first=False
    hooked = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 59).eval()
    seen = []
    hooked.linear1.register_forward_hook(lambda m, i, o: seen.append(o.shape))
    eps = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 59).eval()
    eps.norm2.eps = 1e-3
    odd = _seeded(T, nn.TransformerEncoderLayer(4, 1, 8, batch_first=True), 59).eval()
    seq = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8), 59).eval()
    plain = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 59).eval()
    with T.no_grad():
        for m in (hooked, eps, odd):
            out.append(m(x, src_key_padding_mask=kpm))
        out.append(seq(x.transpose(0, 1), src_key_padding_mask=kpm))
        out.append(plain(x, src_key_padding_mask=kpm))
        out.append(plain(x[0], src_key_padding_mask=kpm[0]))
    with_grad = plain(x, src_key_padding_mask=kpm)
    xr = x.clone().requires_grad_()
    with T.no_grad():
        out.append(plain(xr, src_key_padding_mask=kpm))
    return out, seen, with_grad, with_grad.grad_fn


@program()
def prog_nn3_transformer_eval_no_grad_padding(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Transformer(4, 2, 2, 1, 8, batch_first=True), 60).eval()
    src = _x(T, 2, 3, 4, seed=82)
    tgt = _x(T, 2, 2, 4, seed=83)
    kpm = T.tensor([[True, True, True], [False, False, True]])
    with T.no_grad():
        a = m(src, tgt, src_key_padding_mask=kpm)
        b = m(src, tgt, src_key_padding_mask=kpm, memory_key_padding_mask=kpm)
        c = m(src, tgt, src_mask=T.zeros(3, 3, dtype=T.bool), src_key_padding_mask=kpm)
    return a, b, c, m.encoder.use_nested_tensor


@program()
def prog_nn3_decoder_eval_no_grad_masked_rows_and_causal_hint(T: Any) -> Any:
    nn = T.nn
    x, kpm, am = _fully_masked_inputs(T)
    mem = _x(T, 2, 3, 4, seed=84)
    out = []
    with T.no_grad():
        for nf in (False, True):
            d = _seeded(T, nn.TransformerDecoderLayer(4, 2, 8, batch_first=True, norm_first=nf), 61)
            d.eval()
            out.append(d(x, mem, tgt_mask=am))
            out.append(d(x, mem, tgt_key_padding_mask=kpm))
            out.append(d(x, mem, memory_key_padding_mask=kpm))
            out.append(d(x, mem, memory_mask=am))
            out.append(d(x, mem, tgt_is_causal=True))
            dec = nn.TransformerDecoder(d, 2)
            out.append(dec(x, mem, tgt_mask=am))
            out.append(dec(x, mem, tgt_is_causal=True))
            cm = nn.Transformer.generate_square_subsequent_mask(3)
            out.append(dec(x, mem, tgt_mask=cm, tgt_is_causal=True))
    d.train()
    out.append(raises(lambda: d(x, mem, tgt_is_causal=True)))
    return out


# --- RNN module state, positional arguments, parametrized weights ------------------------------


@program()
def prog_nn3_rnn_weight_replacement_dtype_and_grad_fn_names(T: Any) -> Any:
    import copy

    nn = T.nn
    x = _x(T, 3, 2, 2, seed=90)
    out = []
    m = _seeded(T, nn.GRU(2, 3), 62)
    m.weight_ih_l0 = nn.Parameter(T.ones(9, 2) * 0.1)
    out += [m(x)[0].sum(), m._flat_weights_names]
    m2 = _seeded(T, nn.LSTM(2, 3, batch_first=True), 63)
    out.append(m2(x[:, 0])[0])
    h = T.zeros(2, 1, 3).transpose(0, 1)
    out.append(raises(lambda: m2(x, (h, h))[0].sum()))
    m3 = _seeded(T, nn.RNN(2, 3), 64)
    out += [
        raises(lambda: m3(x, T.zeros(1, 1, 3).expand(1, 2, 3))[0].sum()),
        raises(lambda: m3(x, T.zeros(1, 2, 3, dtype=T.float64))),
        raises(lambda: m3(x.double())),
        raises(lambda: m3(x.half())),
        raises(lambda: m3(x.int())),
        copy.deepcopy(m3)(x)[0].sum(),
        T.func.functional_call(m3, {"weight_hh_l0": T.zeros(3, 3)}, (x,))[0].sum(),
        m3(x)[0].sum(),
    ]
    m5 = _seeded(T, nn.LSTM(2, 3, num_layers=2, dropout=0.3), 65).eval()
    out.append(m5(x)[0].sum())
    m5.train()
    T.manual_seed(1)
    out.append(m5(x)[0].sum())
    m6 = _seeded(T, nn.GRU(2, 3), 66).double()
    out += [(m6(x.double())[0].dtype, [p.dtype for p in m6._flat_weights]), raises(lambda: m6(x))]
    m7 = _seeded(T, nn.RNN(2, 3), 67)
    m7.flatten_parameters()
    with T.no_grad():
        m7.weight_hh_l0.mul_(2)
    out.append(m7(x)[1])
    m8 = _seeded(T, nn.LSTM(2, 3, proj_size=2), 68)
    out += [
        raises(lambda: m8(x, (T.zeros(1, 2, 3), T.zeros(1, 2, 3)))),
        raises(lambda: m8(x, (T.zeros(1, 2, 2), T.zeros(1, 2, 2)))),
        raises(lambda: m8(x[:, 0], (T.zeros(1, 2), T.zeros(1, 3)))[1][0].shape),
        raises(lambda: m8(x[:, 0], (T.zeros(1, 2), T.zeros(1, 1, 3)))),
    ]
    names = [
        lambda: nn.GRU(2, 3)(x, T.zeros(1, 2, 3, requires_grad=True))[1],
        lambda: nn.RNN(2, 3)(x[:, :1].requires_grad_())[0],
        lambda: nn.LSTM(2, 3)(x)[1][1],
        lambda: nn.LSTM(2, 3, batch_first=True)(x)[0],
        lambda: nn.GRU(2, 3)(x[:, 0])[0],
        lambda: nn.GRU(2, 3)(x[:, 0])[1],
        lambda: nn.LSTMCell(2, 3)(x[0])[0],
        lambda: nn.GRUCell(2, 3)(x[0, 0]),
        lambda: nn.RNNCell(2, 3)(x[0]),
        lambda: nn.RNNCell(2, 3, nonlinearity="relu")(x[0]),
    ]
    out.append([raises(lambda f=f: f().grad_fn.name()) for f in names])
    return out


@program()
def prog_nn3_rnn_positional_arguments_and_parametrized_weights(T: Any) -> Any:
    nn = T.nn
    out = [
        raises(lambda: repr(nn.RNN(2, 3, 2, "relu"))),
        raises(lambda: repr(nn.RNN(2, 3, 2, "relu", False, True, 0.0, True))),
        raises(lambda: repr(nn.RNN(2, 3, 2, "relu", False, True, 0.0, True, "x"))),
        raises(lambda: repr(nn.RNN(2, 3, 2, nonlinearity="relu", bias=False))),
        raises(lambda: repr(nn.RNN(2, 3, 2, "relu", nonlinearity="tanh"))),
        raises(lambda: repr(nn.RNN(2, 3, foo=1))),
        raises(lambda: repr(nn.RNN(2))),
        raises(lambda: repr(nn.RNN())),
        raises(lambda: repr(nn.LSTM(2, 3, 1, True, True, 0.0, True, 1))),
        raises(lambda: repr(nn.GRU(2, 3, 1, False))),
        raises(lambda: repr(nn.GRU(input_size=2, hidden_size=3, num_layers=2, dropout=0.5))),
        raises(lambda: repr(nn.LSTM(2, 3, nonlinearity="relu"))),
        raises(lambda: repr(nn.RNN(0, 3))),
    ]
    T.manual_seed(2)
    lstm = nn.utils.weight_norm(_seeded(T, nn.LSTM(2, 3), 69), name="weight_hh_l0")
    x = _x(T, 3, 1, 2, seed=91)
    out.append(
        (lstm(x)[0], lstm._flat_weights_names, sorted(n for n, _ in lstm.named_parameters()))
    )
    gru = nn.utils.parametrizations.weight_norm(
        _seeded(T, nn.GRU(2, 3, num_layers=2), 70), name="weight_ih_l1"
    )
    y = gru(x)[0]
    y.sum().backward()
    out.append((y, sorted(n for n, _ in gru.named_parameters())))
    out.append(gru.parametrizations.weight_ih_l1.original0.grad)
    rnn = nn.utils.parametrizations.orthogonal(_seeded(T, nn.RNN(3, 3), 71), name="weight_hh_l0")
    out.append(raises(lambda: rnn(_x(T, 2, 1, 3, seed=92))[0]))
    return out


# --- lazy modules ---------------------------------------------------------------------------


@program()
def prog_nn3_lazy_modules_materialize_copy_and_load(T: Any) -> Any:
    import copy

    nn = T.nn
    out = []
    T.manual_seed(0)
    a = nn.LazyConvTranspose2d(3, 2, stride=2, output_padding=1)
    out.append(raises(lambda: a(T.ones(1, 2, 3, 3)).shape))
    out.append((repr(a), type(a).__name__, a.in_channels, a.weight.shape, a.weight.sum() != 0))
    b = nn.LazyLinear(2)
    c = copy.deepcopy(b)
    out.append((type(c).__name__, c.has_uninitialized_params()))
    c(T.ones(1, 5))
    out.append((type(c).__name__, c.weight.shape, b.has_uninitialized_params()))
    d = nn.Sequential(nn.LazyLinear(3), nn.ReLU(), nn.LazyLinear(1))
    sd = {"0.weight": T.ones(3, 4), "0.bias": T.zeros(3)}
    out.append(raises(lambda: d.load_state_dict(sd, strict=False)))
    out.append((type(d[0]).__name__, type(d[2]).__name__, d[0].weight.shape))
    out.append(raises(lambda: d(T.ones(2, 4)).shape))
    out.append(type(d[2]).__name__)
    e = nn.LazyLinear(2)
    out.append(raises(lambda: e.initialize_parameters(T.ones(3, 4))))
    out.append((type(e).__name__, e.weight.shape))
    f = nn.LazyBatchNorm2d(affine=False, track_running_stats=False)
    out.append(raises(lambda: f(T.ones(2, 3, 2, 2)).shape))
    out.append((type(f).__name__, f.num_features, f.running_mean))
    g = nn.LazyInstanceNorm2d()
    out.append(raises(lambda: g(T.ones(3, 2, 2)).shape))
    out.append((type(g).__name__, g.num_features))
    h = nn.LazyConv1d(4, 3, padding="same", bias=False)
    out.append(raises(lambda: h(T.ones(2, 5)).shape))
    out.append((repr(h), h.bias))
    i = nn.LazyLinear(3)
    out.append(raises(lambda: repr(i.to(T.float64))))
    out.append(raises(lambda: i(T.ones(2, 2, dtype=T.float64)).dtype))
    j = nn.LazyLinear(3)
    out.append(raises(lambda: j(T.ones(2, 2, dtype=T.long))))
    out.append(type(j).__name__)
    k = nn.LazyConv2d(4, 2)
    out.append(raises(lambda: k(T.ones(2, 2))))
    out.append(type(k).__name__)
    out.append(raises(lambda: nn.LazyLinear(3).reset_parameters()))
    p = nn.parameter.UninitializedParameter()
    p.materialize((2, 2))
    out.append((type(p).__name__, p.shape, p.requires_grad))
    q = nn.parameter.UninitializedBuffer()
    out.append(raises(lambda: q.materialize((2,), dtype=T.float64)))
    out.append((type(q).__name__, q.dtype))
    out.append(raises(lambda: nn.parameter.UninitializedParameter().data))
    out.append(raises(lambda: repr(nn.parameter.UninitializedParameter(requires_grad=False))))
    out.append(raises(lambda: nn.parameter.is_lazy(nn.parameter.UninitializedParameter())))
    out.append(raises(lambda: nn.LazyLinear(0)(T.ones(2, 3)).shape))
    out.append(raises(lambda: nn.LazyLinear(3)(T.ones(2, 3), T.ones(2))))
    return out


# --- parametrize: set_ semantics, unsafe removal, transfer ------------------------------------


@program()
def prog_nn3_parametrize_versions_and_identity(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Half(nn.Module):
        def forward(self, x):
            return x * 0.5

        def right_inverse(self, x):
            return x * 2

    m = _seeded(T, nn.Linear(2, 2), 72)
    w = m.weight
    v0 = w._version
    P.register_parametrization(m, "weight", Half())
    o = m.parametrizations.weight.original
    v1 = o._version
    with T.no_grad():
        m.weight = T.ones(2, 2)
    v2 = o._version
    P.remove_parametrizations(m, "weight")
    opt = T.optim.SGD([w], lr=0.1)
    m(T.ones(1, 2)).sum().backward()
    opt.step()
    return (o is w, v1 - v0, v2 - v1, o._version - v2, m.weight is w, m.weight, w.grad)


@program()
def prog_nn3_parametrize_remove_unsafe_shape_and_dtype(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Grow(nn.Module):
        def forward(self, x):
            return T.cat([x, x])

    class Dbl(nn.Module):
        def forward(self, x):
            return x.double()

    class Half(nn.Module):
        def forward(self, x):
            return x * 0.5

    out = []
    m = _seeded(T, nn.Linear(2, 2), 73)
    P.register_parametrization(m, "weight", Grow(), unsafe=True)
    out.append(
        raises(lambda: repr(P.remove_parametrizations(m, "weight", leave_parametrized=True)))
    )
    out.append((m.weight, type(m).__name__))
    m = _seeded(T, nn.Linear(2, 2), 74)
    P.register_parametrization(m, "weight", Dbl(), unsafe=True)
    out.append(raises(lambda: P.remove_parametrizations(m, "weight", leave_parametrized=True)))
    out.append((m.weight.dtype, type(m.weight).__name__))
    m = _seeded(T, nn.Linear(2, 2), 75)
    P.register_parametrization(m, "weight", Grow(), unsafe=True)
    P.register_parametrization(m, "weight", Half(), unsafe=True)
    out.append(m.weight)
    out.append(raises(lambda: setattr(m, "weight", T.ones(4, 2))))
    out.append(
        raises(lambda: repr(P.remove_parametrizations(m, "weight", leave_parametrized=False)))
    )
    out.append(m.weight)
    p = nn.Parameter(T.ones(2, 2))
    out.append(raises(lambda: p.set_(T.ones(2, 2, dtype=T.float64))))
    out.append(raises(lambda: p.set_(T.ones(2, 2))))
    with T.no_grad():
        out.append(raises(lambda: p.set_(T.ones(3).long())))
        out.append(raises(lambda: p.set_(T.arange(6.0).reshape(3, 2))))
    out.append((p, p._version))
    return out


@program()
def prog_nn3_parametrize_transfer_tied_cached_and_lists(T: Any) -> Any:
    import copy

    nn = T.nn
    P = nn.utils.parametrize

    class Half(nn.Module):
        def forward(self, x):
            return x * 0.5

        def right_inverse(self, x):
            return x * 2

    class Detach(nn.Module):
        def forward(self, x):
            return x.detach()

    out = []
    src = _seeded(T, nn.Linear(3, 3), 76)
    P.register_parametrization(src, "weight", Half())
    dst = _seeded(T, nn.Linear(3, 3), 77)
    out.append(raises(lambda: repr(P.transfer_parametrizations_and_params(src, dst))))
    orig = src.parametrizations.weight.original
    out.append((type(dst).__name__, dst.weight, dst.parametrizations.weight.original is orig))
    dst2 = nn.Linear(3, 3)
    out.append(raises(lambda: repr(P.transfer_parametrizations_and_params(src, dst2, "weight"))))
    out.append(raises(lambda: P.transfer_parametrizations_and_params(src, nn.Linear(3, 3), "bias")))
    out.append(raises(lambda: repr(P.transfer_parametrizations_and_params(nn.Linear(3, 3), dst2))))
    a = _seeded(T, nn.Linear(2, 2), 78)
    b = nn.Linear(2, 2)
    b.weight = a.weight
    P.register_parametrization(a, "weight", Half())
    out.append((T.equal(a.weight * 2, b.weight), b.weight is a.parametrizations.weight.original))
    c = _seeded(T, nn.Linear(2, 2), 79)
    P.register_parametrization(c, "weight", Half())
    with P.cached():
        y = c(T.ones(1, 2)).sum()
        y.backward(retain_graph=True)
        y.backward()
    out.append(c.parametrizations.weight.original.grad)
    d = nn.Linear(2, 2)
    P.register_parametrization(d, "weight", Detach())
    out.append((d.weight.requires_grad, d(T.ones(1, 2)).requires_grad))
    e = _seeded(T, nn.Linear(2, 2), 80)
    P.register_parametrization(e, "weight", Half())
    out += [
        raises(lambda: nn.Linear(2, 2).load_state_dict(e.state_dict())),
        raises(lambda: e.load_state_dict(nn.Linear(2, 2).state_dict())),
        copy.deepcopy(e).parametrizations.weight[0].__class__.__name__,
        raises(lambda: P.register_parametrization(e, "parametrizations", Half())),
        raises(lambda: repr(P.register_parametrization(e, "weight", nn.Identity()))),
        len(e.parametrizations.weight),
        repr(e.parametrizations.weight[1]),
        raises(lambda: e.parametrizations.weight.right_inverse(T.ones(2, 2))),
        e.parametrizations.weight.unsafe,
        e.parametrizations.weight.is_tensor,
        e.parametrizations.weight.ntensors,
    ]
    return out


# --- containers -------------------------------------------------------------------------------


@program()
def prog_nn3_container_indexing_mutation_and_operators(T: Any) -> Any:
    nn = T.nn

    def L():
        return nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])

    def S():
        return nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())

    def r(f):
        def g():
            v = f()
            return repr(v) if isinstance(v, nn.Module) else v

        return raises(g)

    def del_first():
        s = S()
        del s[0]
        return list(s._modules), repr(s)

    def del_slice():
        s = S()
        del s[::2]
        return list(s._modules)

    def list_del_set():
        m = L()
        del m[-1]
        m[0] = nn.GELU()
        return list(m._modules), repr(m)

    def set_item(c, i, v):
        c[i] = v
        return c

    def insert(c, i, v):
        c.insert(i, v)
        return c

    def iadd(a, b):
        a += b
        return list(a._modules)

    def imul(a, n):
        a *= n
        return list(a._modules)

    def pop(c, i):
        return repr(c.pop(i)), list(c._modules)

    def index_of_member():
        m = L()
        return m.index(m[0]), m[0] in m

    return [
        r(lambda: L()[5]),
        r(lambda: L()[-4]),
        r(lambda: L()[1.0]),
        r(lambda: L()["1"]),
        r(lambda: S()[5]),
        r(lambda: S()[-4]),
        r(lambda: S()[1.0]),
        r(lambda: S()["1"]),
        r(del_first),
        r(del_slice),
        r(list_del_set),
        r(lambda: set_item(L(), 5, nn.GELU())),
        r(lambda: set_item(S(), 1, 3)),
        r(lambda: set_item(L(), 1, 3)),
        r(lambda: L().append(3)),
        r(lambda: L().extend(nn.ReLU())),
        r(lambda: L().extend(3)),
        r(lambda: S().extend([nn.ReLU(), 3])),
        r(lambda: pop(S(), 1)),
        r(lambda: S().pop(10)),
        r(lambda: insert(S(), -1, nn.ELU())),
        r(lambda: insert(S(), -5, nn.ELU())),
        r(lambda: insert(S(), 1, 3)),
        r(lambda: S() + L()),
        r(lambda: S() + S()),
        r(lambda: L() + L()),
        r(lambda: L() + [nn.ReLU()]),  # noqa: RUF005 (ModuleList + list)
        r(lambda: S() * 0),
        r(lambda: S() * -1),
        r(lambda: S() * 1.5),
        r(lambda: 2 * S()),
        r(lambda: imul(S(), 2)),
        r(lambda: iadd(S(), L())),
        r(lambda: iadd(L(), S())),
        r(lambda: len(S()[1:])),
        r(lambda: list(S()[::-1]._modules)),
        r(lambda: list(L()[::-1]._modules)),
        r(lambda: insert(nn.ModuleList([nn.ReLU()]), 5, nn.Tanh())),
        r(lambda: insert(L(), -10, nn.ELU())),
        r(lambda: pop(L(), -1)),
        r(lambda: L().index(nn.ReLU())),
        r(lambda: nn.ReLU() in L()),
        r(index_of_member),
        r(lambda: nn.Sequential(nn.ReLU(), nn.ReLU()).forward(T.ones(1), T.ones(1))),
        r(lambda: nn.Sequential()(T.ones(1))),
        r(lambda: nn.ModuleList()(T.ones(1))),
        r(lambda: nn.ModuleDict()(T.ones(1))),
        r(lambda: nn.ParameterList([T.ones(1)])(T.ones(1))),
        r(lambda: nn.ModuleDict({"a": nn.ReLU()})["b"]),
        r(lambda: nn.ModuleDict({"a.b": nn.ReLU()})),
        r(lambda: nn.ModuleDict({"": nn.ReLU()})),
        r(lambda: nn.ModuleDict({1: nn.ReLU()})),
        r(lambda: nn.ModuleDict({"training": nn.ReLU()})),
        r(lambda: nn.ModuleDict({"a": 3})),
        r(lambda: nn.Sequential({"a": nn.ReLU()})),
    ]


# --- old hooks: metadata, versions, dtype moves; clip_grad on sparse gradients ----------------


@program()
def prog_nn3_old_norm_hooks_metadata_load_and_conversions(T: Any) -> Any:
    import copy
    from collections import OrderedDict

    nn = T.nn
    out = []
    T.manual_seed(0)
    m = nn.utils.spectral_norm(_seeded(T, nn.Linear(3, 4), 81))
    sd = m.state_dict()
    out.append((list(sd), dict(sd._metadata)))
    old = dict(sd.items())
    old["weight"] = m.weight.detach().clone()
    m2 = nn.utils.spectral_norm(_seeded(T, nn.Linear(3, 4), 82))
    out.append(raises(lambda: m2.load_state_dict(old)))
    od = OrderedDict((k, v) for k, v in sd.items() if k != "weight_v")
    od._metadata = OrderedDict({"": {"version": 1}})
    m3 = nn.utils.spectral_norm(_seeded(T, nn.Linear(3, 4), 83))
    out.append(raises(lambda: m3.load_state_dict(od)))
    out.append((m3.weight_v, m3.weight_u))
    out.append(raises(lambda: repr(copy.deepcopy(m))))
    m5 = m.double()
    x64 = T.ones(1, 3, dtype=T.float64)
    out.append((m5.weight_orig.dtype, m5.weight_u.dtype, m5(x64)))
    w = nn.utils.weight_norm(_seeded(T, nn.Linear(3, 2), 84))
    out.append((list(w.state_dict()), dict(w.state_dict()._metadata)))
    out.append(raises(lambda: repr(copy.deepcopy(w))))
    out.append(w.double()(x64))
    nn.utils.remove_weight_norm(w)
    out.append((list(w.state_dict()), type(w.weight).__name__, w.weight, len(w._forward_pre_hooks)))
    c = nn.utils.spectral_norm(_seeded(T, nn.ConvTranspose1d(2, 3, 2), 85))
    out.append((c.weight_u.shape, c.weight_v.shape, c(T.ones(1, 2, 3))))
    c.eval()
    out.append(c(T.ones(1, 2, 3)))
    e = nn.utils.spectral_norm(_seeded(T, nn.Embedding(4, 3), 86))
    out.append((e.weight_u.shape, e(T.tensor([1, 2]))))
    g = nn.utils.spectral_norm(_seeded(T, nn.Linear(3, 4), 87), dim=1)
    out.append((g.weight_u.shape, g(T.ones(1, 3))))
    h = nn.utils.spectral_norm(_seeded(T, nn.Linear(3, 4), 88))
    h(T.ones(2, 3)).sum().backward()
    out.append(h.weight_orig.grad)
    out.append(raises(lambda: nn.utils.spectral_norm(nn.Linear(3, 4), eps=0)(T.ones(1, 3)).shape))
    out.append(raises(lambda: repr(nn.utils.weight_norm(nn.Linear(3, 4), dim=5))))
    out.append(raises(lambda: repr(nn.utils.weight_norm(nn.Linear(3, 4), dim=-3))))
    out.append(raises(lambda: repr(nn.utils.spectral_norm(nn.Linear(3, 4), dim=5))))
    return out


def _head(fn: Any) -> Any:
    """fn()'s result, or its error with a dispatcher message cut before torch's backend list."""
    r = raises(fn)
    if isinstance(r, ErrorObs):
        return r.type, r.message.split(" This could be because")[0]
    return r


@program()
def prog_nn3_clip_grad_sparse_embedding_gradients(T: Any) -> Any:
    nn = T.nn
    out = []
    for kw in ({}, {"foreach": True}, {"foreach": False}):
        e = nn.Embedding(4, 2, sparse=True)
        with T.no_grad():
            e.weight.copy_(T.arange(8.0).reshape(4, 2))
        e(T.tensor([1, 1, 3])).sum().backward()
        out.append(_head(lambda kw=kw, e=e: nn.utils.clip_grad_norm_(e.parameters(), 1.0, **kw)))
        out.append(e.weight.grad.to_dense())
        out.append(_head(lambda kw=kw, e=e: nn.utils.clip_grad_value_(e.parameters(), 0.5, **kw)))
        out.append(e.weight.grad.to_dense())
        out.append(nn.utils.parameters_to_vector(e.parameters()).shape)
    return out


@program()
def prog_nn3_fast_path_mask_shape_and_width_errors(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, 4, seed=93)
    m = _seeded(T, nn.MultiheadAttention(4, 2, batch_first=True), 89).eval()
    layer = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 90).eval()
    b = T.bool
    masks = [
        (T.zeros(3, 2, dtype=b), None),
        (T.zeros(2, 4, dtype=b), None),
        (T.zeros(2, 3, 1, dtype=b), None),
        (T.zeros(3, dtype=b), None),
        (None, T.zeros(2, 2, dtype=b)),
        (None, T.zeros(4, 3, 3, dtype=b)),
        (None, T.zeros(2, 3, 3, dtype=b)),
        (None, T.zeros(1, 3, 3, dtype=b)),
        (None, T.zeros(3, dtype=b)),
        (None, T.zeros(3, 3, dtype=T.long)),
        (T.zeros(2, 3, dtype=T.long), None),
        (
            T.tensor([[False, False, True], [False, False, False]]),
            T.eye(3, dtype=b)[None].expand(2, 3, 3),
        ),
        (T.zeros(2, 3, dtype=b), T.zeros(4, 3, 3, dtype=b)),
    ]
    calls = [
        lambda kpm, am: m(x, x, x, key_padding_mask=kpm, attn_mask=am, need_weights=False),
        lambda kpm, am: m(x, x, x, key_padding_mask=kpm, attn_mask=am),
        lambda kpm, am: layer(x, src_key_padding_mask=kpm, src_mask=am),
    ]
    out = []
    with T.no_grad():
        for f in calls:
            out.append([raises(lambda f=f, k=k, a=a: f(k, a)) for k, a in masks])
        y = x[..., :3]
        out.append(raises(lambda: m(x, x, x[:, :2])))
        out.append(raises(lambda: m(x[..., :3], x[..., :3], x[..., :3])))
        out.append(raises(lambda: m(y, y, y)))
        out.append(raises(lambda: layer(y)))
        out.append(raises(lambda: layer(x.double())))
        out.append(raises(lambda: m(x.double(), x.double(), x.double())))
        for z in (T.ones(2, 0, 4), T.ones(0, 3, 4)):
            out.append((m(z, z, z), layer(z)))
    # the same masks outside the fast path
    out.append(
        [raises(lambda k=k, a=a: m(x, x, x, key_padding_mask=k, attn_mask=a)) for k, a in masks]
    )
    return out


@program()
def prog_nn3_encoder_layer_fast_path_reads_float_masks_as_bool(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, 4, seed=94)
    fm = T.tensor([[0.0, -1.0, 0.5], [0.0, 0.0, 0.0], [0.25, 0.0, 0.0]])
    kf = T.tensor([[0.0, 0.3, 0.0], [0.0, 0.0, -2.0]])
    out = []
    for nf in (False, True):
        layer = nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, norm_first=nf)
        layer = _seeded(T, layer, 91).eval()
        with T.no_grad():
            out.append(layer(x, src_mask=fm))
            out.append(layer(x, src_key_padding_mask=kf))
            out.append(layer(x, src_mask=fm, src_key_padding_mask=kf))
            # -1 + 1 cancels in the merged mask: that entry is not masked
            out.append(layer(x, src_mask=-fm, src_key_padding_mask=T.zeros(2, 3) + fm[0]))
            enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            out.append(enc(x, mask=fm, src_key_padding_mask=kf))
        out.append(layer(x, src_mask=fm))  # grad mode: the composed path adds the floats
    return out


@program()
def prog_nn3_encoder_nested_path_lengths_and_mask_check(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 3, 4, 4, seed=95)
    layer = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 92).eval()
    masks = [
        T.tensor([[0.0, 0.3, 0.0, 0.0], [0.0, 0.0, 0.0, -1.0], [0.0] * 4]),
        T.tensor([[False, True, False, False], [False] * 4, [True] * 4]),
        T.tensor([[False, False, True, True], [False] * 4, [True] * 4]),
    ]
    out = []
    for mc in (True, False):
        enc = nn.TransformerEncoder(layer, 2, mask_check=mc, norm=nn.LayerNorm(4))
        with T.no_grad():
            out.append([enc(x, src_key_padding_mask=k) for k in masks])
            kc = T.tensor([[False, False, True, True], [False] * 4, [False] * 3 + [True]])
            out.append(enc(x, src_key_padding_mask=kc, is_causal=True))
            out.append(
                raises(lambda enc=enc: enc(x, src_key_padding_mask=T.zeros(3, 5, dtype=T.bool)))
            )
            out.append(
                raises(lambda enc=enc: enc(x, src_key_padding_mask=T.zeros(3, dtype=T.bool)))
            )
            out.append(
                raises(lambda enc=enc: enc(x, src_key_padding_mask=T.zeros(4, 3, dtype=T.bool)))
            )
            zm = T.zeros(4, 4, dtype=T.bool)
            out.append(enc(x, mask=zm, src_key_padding_mask=T.zeros(3, 4, dtype=T.bool)))
            out.append(enc(x[0], src_key_padding_mask=T.zeros(4, dtype=T.bool)))
    t = _seeded(T, nn.Transformer(4, 2, 1, 1, 8, batch_first=True), 93).eval()
    kpm = T.tensor([[False, False, True, True], [False] * 4, [True] * 4])
    with T.no_grad():
        out.append(t(x, x[:, :2], src_key_padding_mask=kpm, memory_key_padding_mask=kpm))
        out.append(t(x, x[:, :2], src_mask=T.tensor([[0.0, -1.0, 0.0, 0.0]] * 4)))
    return out


@program()
def prog_nn3_packed_sequence_constructor_forms_and_utilities(T: Any) -> Any:
    import numpy as np

    U = T.nn.utils.rnn
    d = T.arange(12.0).reshape(6, 2)
    bs = T.tensor([3, 2, 1])
    out = [
        raises(lambda: U.PackedSequence(d, bs, T.tensor([2, 0, 1]))),
        raises(lambda: U.PackedSequence(d, bs, T.tensor([2, 0, 1]), T.tensor([1, 2, 0]))),
        raises(lambda: U.PackedSequence(d, bs, None, T.tensor([1, 2, 0]))),
        raises(lambda: U.PackedSequence(d, T.tensor([3, 2, 1.0]))),
        raises(lambda: U.PackedSequence(d)),
        raises(lambda: U.PackedSequence(d, None)),
        raises(lambda: U.PackedSequence((d, bs))),
        raises(lambda: U.PackedSequence(d, bs, [2, 0, 1])),
    ]
    p = U.PackedSequence(d, bs, T.tensor([2, 0, 1]))
    out += [
        U.pad_packed_sequence(p),
        U.pad_packed_sequence(p, batch_first=True, padding_value=-1, total_length=4),
        U.unpack_sequence(p),
        p._replace(data=d * 2).data.sum(),
        p.to(T.float64).sorted_indices.dtype,
        p.int().data.dtype,
        p.half().data.dtype,
        p.to("cpu") is p,
        p.to(T.float32) is p,
        p.cpu() is p,
        p.double().batch_sizes.dtype,
        repr(p),
    ]
    ones = T.ones(3, 2, 2)
    out += [
        raises(lambda: U.pack_padded_sequence(ones, T.tensor([3, 2], dtype=T.int32)).batch_sizes),
        raises(lambda: U.pack_padded_sequence(ones, np.array([3, 2])).batch_sizes),
        raises(lambda: U.pack_padded_sequence(ones, (3, 2)).batch_sizes),
        raises(lambda: U.pack_padded_sequence(ones, [3, 2.5]).batch_sizes),
        raises(lambda: U.pack_padded_sequence(ones, [3, -1]).batch_sizes),
        raises(lambda: U.pack_padded_sequence(ones, [3, 2], batch_first=True).batch_sizes),
        raises(lambda: U.pack_padded_sequence(T.ones(3), [3]).batch_sizes),
        raises(lambda: U.pack_padded_sequence(T.ones(3, 2), [3, 1]).data),
        raises(lambda: U.pack_padded_sequence(T.ones(0, 2, 2), [0, 0])),
        raises(lambda: U.pack_sequence([])),
        raises(lambda: U.pack_sequence([T.ones(2, 3), T.ones(3, 3)], enforce_sorted=True)),
        raises(lambda: U.pack_sequence([T.ones(2, 3), T.ones(2, 4)], enforce_sorted=False)),
        raises(lambda: U.pack_sequence([T.ones(3), T.ones(2)]).data),
        raises(lambda: U.pack_sequence([T.ones(3, dtype=T.long), T.ones(2, dtype=T.long)]).data),
        raises(lambda: U.unpad_sequence(ones, T.tensor([3, 1]))),
        raises(lambda: U.unpad_sequence(ones, T.tensor([4, 1]))),
        raises(lambda: U.unpad_sequence(ones, [3, 1])),
        raises(lambda: U.invert_permutation(T.tensor([2, 0, 1]))),
        raises(lambda: U.invert_permutation(None)),
        raises(lambda: U.pad_sequence(T.ones(3, 2))),
        raises(lambda: U.pad_sequence((T.ones(3, 2), T.ones(1, 2)), batch_first=True)),
        raises(lambda: U.pad_sequence([T.ones(3, 2), T.ones(1, 2, dtype=T.float64)])),
        raises(lambda: U.pad_sequence([T.ones(3, 2), T.ones(1, 3, 2)])),
        raises(lambda: U.pad_sequence([T.ones(()), T.ones(())])),
        raises(lambda: U.pad_sequence([T.ones(0, 2), T.ones(0, 2)]).shape),
    ]
    return out


# --- gradients through option combinations -------------------------------------------------


@program()
def prog_nn3_mha_float_mask_gradients_and_layouts(T: Any) -> Any:
    import numpy as np

    nn = T.nn
    m = _seeded(T, nn.MultiheadAttention(4, 2), 94)
    x = _x(T, 3, 2, 4, seed=96, rg=True)
    out = []
    for nw in (True, False):
        am = _x(T, 3, 3, seed=97, rg=True)
        kpm = _x(T, 2, 3, seed=98, rg=True)
        o, _ = m(x, x, x, attn_mask=am, key_padding_mask=kpm, need_weights=nw)
        o.pow(2).sum().backward()
        out.append((o, am.grad, kpm.grad, x.grad))
        x.grad = None
    am3 = _x(T, 4, 3, 3, seed=99, rg=True)
    o, _ = m(x, x, x, attn_mask=am3, need_weights=False)
    o.sum().backward()
    out.append((am3.grad, x.grad))
    xt = x.detach().transpose(0, 1).contiguous().transpose(0, 1).requires_grad_()
    o, w = m(xt, xt[:, :1].expand(3, 2, 4), xt.flip(0))
    o.sum().backward()
    out.append((o, w, xt.grad))
    out.append(raises(lambda: m(x, x, x, attn_mask=T.zeros(3, 3, dtype=T.float16))[0]))
    out.append(raises(lambda: m(x, x, x, key_padding_mask=T.zeros(2, 3, dtype=T.float64))[0]))
    z64 = T.zeros(3, 3, dtype=T.float64)
    out.append(raises(lambda: m(x, x, x, attn_mask=z64, need_weights=False)[0]))
    out.append(raises(lambda: m(x, x, x, attn_mask=z64)[0]))
    md = _seeded(T, nn.MultiheadAttention(4, 2), 95).double()
    am = T.tensor(np.random.default_rng(5).standard_normal((3, 3)), requires_grad=True)
    xd = x.detach().double().requires_grad_()
    o, _ = md(xd, xd, xd, attn_mask=am, need_weights=False)
    g = T.autograd.grad(o.sum(), (xd, am), create_graph=True)
    gg = T.autograd.grad(g[0].pow(2).sum() + g[1].pow(2).sum(), (xd, am))
    out.append((g, gg))
    return out


@program()
def prog_nn3_mha_all_options_need_weights_false_grads(T: Any) -> Any:
    nn = T.nn
    m = nn.MultiheadAttention(
        4, 2, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True, batch_first=True
    )
    m = _seeded(T, m, 96)
    q = _x(T, 2, 3, 4, seed=100, rg=True)
    k = _x(T, 2, 5, 3, seed=101, rg=True)
    v = _x(T, 2, 5, 5, seed=102, rg=True)
    am = T.zeros(4, 3, 5, dtype=T.bool)
    am[:, 0, 1] = True
    kpm = T.tensor([[False] * 4 + [True], [False] * 5])
    outs = []
    for nw in (False, True):
        o, w = m(q, k, v, attn_mask=am, key_padding_mask=kpm, need_weights=nw)
        o.pow(2).sum().backward()
        outs.append((o, None if w is None else w.shape, o.grad_fn))
    grads = [q.grad, k.grad, v.grad, m.bias_k.grad, m.bias_v.grad, m.q_proj_weight.grad]
    return outs, grads


@program()
def prog_nn3_transformer_training_step_all_options(T: Any) -> Any:
    nn = T.nn
    m = nn.Transformer(
        4, 2, 2, 2, 6, dropout=0.0, activation="gelu", batch_first=True, norm_first=True,
        bias=False, layer_norm_eps=1e-3,
    )  # fmt: skip
    m = _seeded(T, m, 97)
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    src = _x(T, 2, 4, 4, seed=103)
    tgt = _x(T, 2, 3, 4, seed=104)
    skpm = T.tensor([[False, False, False, True], [False] * 4])
    losses = []
    for _ in range(2):
        opt.zero_grad()
        y = m(
            src,
            tgt,
            tgt_mask=m.generate_square_subsequent_mask(3),
            src_key_padding_mask=skpm,
            memory_key_padding_mask=skpm,
            tgt_is_causal=True,
        )
        loss = y.pow(2).mean()
        loss.backward()
        nn.utils.clip_grad_norm_(m.parameters(), 0.5)
        opt.step()
        losses.append(loss)
    return losses, y.grad_fn, m.decoder.layers[1].linear2.weight, len(list(m.parameters()))


@program()
def prog_nn3_recurrent_packed_unsorted_batch_first_grads(T: Any) -> Any:
    nn = T.nn
    U = nn.utils.rnn
    out = []
    specs = [
        ("LSTM", dict(proj_size=2, bidirectional=True, num_layers=2)),
        ("GRU", dict(bidirectional=True)),
        ("RNN", dict(nonlinearity="relu", bidirectional=True, num_layers=2)),
    ]
    for i, (kind, kw) in enumerate(specs):
        m = _seeded(T, getattr(nn, kind)(3, 4, batch_first=True, **kw), 98 + i)
        x = _x(T, 3, 4, 3, seed=105 + i, rg=True)
        lengths = T.tensor([2, 4, 1])
        p = U.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        layers = kw.get("num_layers", 1) * 2
        h0 = _x(T, layers, 3, kw.get("proj_size", 4), seed=110 + i, rg=True)
        if kind == "LSTM":
            c0 = _x(T, layers, 3, 4, seed=115 + i, rg=True)
            o, (h, c) = m(p, (h0, c0))
            extra = c
        else:
            o, h = m(p, h0)
            extra = h
        pad, lens = U.pad_packed_sequence(o, batch_first=True, total_length=5)
        (pad.pow(2).sum() + h.sum() + extra.sum()).backward()
        out.append((pad, lens, h, x.grad, h0.grad, o.data.grad_fn, pad.grad_fn))
    return out


@program()
def prog_nn3_orthogonal_non_square_assignment_and_shapes(T: Any) -> Any:
    import numpy as np

    nn = T.nn
    orth = nn.utils.parametrizations.orthogonal
    T.manual_seed(0)
    out = []
    for omap in ("matrix_exp", "cayley", "householder"):
        for triv in (True, False):
            for shape in ((3, 5), (5, 3)):
                m = _seeded(T, nn.Linear(shape[1], shape[0]), 99)
                orth(m, orthogonal_map=omap, use_trivialization=triv)
                w = m.weight
                a = np.random.default_rng(2).standard_normal((max(shape), min(shape)))
                q = T.linalg.qr(T.tensor(a.astype(np.float32)))[0]
                q = q if shape[0] >= shape[1] else q.T

                def assign(value, m=m):
                    with T.no_grad():
                        m.weight = value
                    return m.weight, m.parametrizations.weight.original

                bad = T.tensor(_data(*shape, seed=120))
                out.append(
                    (
                        omap,
                        triv,
                        shape,
                        w,
                        raises(lambda q=q: assign(q)),
                        raises(lambda b=bad: assign(b)),
                    )
                )
                out.append(T.rand(1))  # (torch completes a non-square base with randn)
    c = _seeded(T, nn.Conv2d(2, 3, 2), 100)
    out.append(orth(c).weight)
    cc = nn.Linear(3, 3, dtype=T.complex64)
    z = np.random.default_rng(4).standard_normal((3, 3)) + 1j * np.random.default_rng(
        5
    ).standard_normal((3, 3))
    with T.no_grad():
        cc.weight.copy_(T.tensor(z.astype(np.complex64)))
    out.append(raises(lambda: orth(cc, orthogonal_map="cayley").weight))
    out.append(
        raises(lambda: orth(nn.Linear(3, 3, dtype=T.complex64), orthogonal_map="householder"))
    )
    mx = orth(
        _seeded(T, nn.Linear(3, 3), 101), orthogonal_map="matrix_exp", use_trivialization=False
    )
    out.append(hasattr(mx.parametrizations.weight[0], "base"))
    m = _seeded(T, nn.Linear(3, 3), 102)
    orth(m)
    out.append(m.parametrizations.weight[0].base)
    m(T.ones(2, 3)).sum().backward()
    out.append(m.parametrizations.weight.original.grad)
    one = nn.Linear(1, 1)
    with T.no_grad():
        one.weight.fill_(-0.3)
    out.append(orth(one).weight)
    out.append(raises(lambda: orth(nn.Linear(3, 3), "bias")))
    return out


# --- fusion helpers, reprs, LSTM state checks in both autograd modes, seeded inits -----------


@program()
def prog_nn3_fusion_weight_helpers_dtypes_and_errors(T: Any) -> Any:
    nn = T.nn
    fu = nn.utils.fusion
    w, b = _x(T, 3, 2, 2, 2, seed=121), _x(T, 3, seed=122)
    rm, rv, bw, bb = (
        _x(T, 3, seed=123),
        _x(T, 3, seed=124).abs(),
        _x(T, 3, seed=125),
        _x(T, 3, seed=126),
    )
    d = [v.double() for v in (rm, rv, bw, bb)]
    out = [
        raises(lambda: fu.fuse_conv_bn_weights(w, b, rm, rv, 1e-5, bw, bb)),
        raises(lambda: fu.fuse_conv_bn_weights(w, None, rm, rv, 1e-5, bw, bb)),
        raises(lambda: fu.fuse_conv_bn_weights(w, None, rm, rv, 1e-5, None, None)),
        raises(lambda: fu.fuse_conv_bn_weights(w, b, d[0], d[1], 1e-5, d[2], d[3])),
        raises(lambda: fu.fuse_conv_bn_weights(w.double(), b.double(), rm, rv, 1e-5, bw, bb)),
        raises(
            lambda: fu.fuse_conv_bn_weights(
                _x(T, 2, 3, 2, seed=127), None, rm, rv, 1e-5, bw, bb, transpose=True
            )
        ),
        raises(lambda: fu.fuse_conv_bn_weights(nn.Parameter(w), b, rm, rv, 1e-5, bw, bb)),
        raises(lambda: fu.fuse_linear_bn_weights(_x(T, 3, 4, seed=128), b, rm, rv, 1e-5, bw, bb)),
        raises(
            lambda: fu.fuse_linear_bn_weights(_x(T, 3, 4, seed=128), None, rm, rv, 1e-5, bw, bb)
        ),
        raises(
            lambda: fu.fuse_linear_bn_weights(
                _x(T, 3, 4, seed=128), b, rm[:1], rv[:1], 1e-5, bw[:1], bb[:1]
            )
        ),
        raises(
            lambda: fu.fuse_linear_bn_weights(
                _x(T, 3, 4, seed=128), b, rm[:2], rv[:2], 1e-5, bw[:2], bb[:2]
            )
        ),
    ]
    out.append([type(t).__name__ for t in fu.fuse_conv_bn_weights(w, b, rm, rv, 1e-5, bw, bb)])
    l1 = _seeded(T, nn.Linear(4, 3), 103).eval()
    out.append(raises(lambda: fu.fuse_linear_bn_eval(l1, nn.BatchNorm1d(1).eval()).weight))
    l2 = _seeded(T, nn.Linear(4, 3), 104).eval()
    out.append(
        raises(lambda: fu.fuse_linear_bn_eval(l2, nn.BatchNorm1d(3, affine=False).eval()).bias)
    )
    bn3 = nn.BatchNorm1d(3, track_running_stats=False).eval()
    out.append(raises(lambda: fu.fuse_linear_bn_eval(nn.Linear(4, 3).eval(), bn3)))
    c = _seeded(T, nn.Conv1d(2, 3, 2), 105).eval()
    bnc = _seeded(T, nn.BatchNorm1d(3), 106).eval()
    with T.no_grad():
        bnc.running_mean.copy_(_x(T, 3, seed=129))
        bnc.running_var.copy_(_x(T, 3, seed=130).abs())
    f = fu.fuse_conv_bn_eval(c, bnc)
    x = _x(T, 2, 2, 5, seed=131)
    out.append((f(x), bnc(c(x)), type(f).__name__, f.training, f is c))
    bnf = nn.BatchNorm1d(3, track_running_stats=False).eval()
    out.append(raises(lambda: fu.fuse_conv_bn_eval(nn.Conv1d(2, 3, 2).eval(), bnf)))
    return out


@program()
def prog_nn3_reprs_of_configured_modules(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrizations
    ms = [
        nn.Transformer(
            4, 2, 1, 1, 8, dropout=0.2, activation="gelu", batch_first=True, norm_first=True,
            bias=False,
        ),
        nn.TransformerEncoder(
            nn.TransformerEncoderLayer(4, 2, 8, activation=T.tanh), 2, norm=nn.LayerNorm(4),
            enable_nested_tensor=False,
        ),
        nn.TransformerDecoder(
            nn.TransformerDecoderLayer(4, 2, 8, activation=nn.GELU(approximate="tanh")), 2
        ),
        nn.MultiheadAttention(
            4, 2, dropout=0.1, bias=False, add_bias_kv=True, add_zero_attn=True, kdim=3, vdim=5,
            batch_first=True,
        ),
        nn.LSTM(
            2, 3, num_layers=2, bias=False, batch_first=True, dropout=0.1, bidirectional=True,
            proj_size=2,
        ),
        nn.GRUCell(2, 3, bias=False),
        nn.Unflatten(1, (2, 3)),
        nn.Flatten(0, -2),
        nn.Identity(3, a=2),
        P.weight_norm(nn.Linear(2, 3)),
        P.spectral_norm(nn.Conv1d(2, 3, 2)),
        P.orthogonal(nn.Linear(3, 3)),
        nn.ParameterList([nn.Parameter(T.ones(2)), T.ones(3, dtype=T.float64), 1, "a", nn.ReLU()]),
        nn.ParameterDict({"a": T.ones(2, dtype=T.float16), "b": None}),
        nn.ModuleDict({"x": nn.ReLU(), "y": nn.ModuleList([nn.Tanh()] * 3)}),
        nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)], nn.ReLU(), nn.ReLU()),
        nn.LazyConvTranspose3d(3, 2, stride=2, dilation=2),
        nn.LazyBatchNorm3d(momentum=None, affine=False),
        nn.LazyInstanceNorm1d(affine=True),
    ]  # fmt: skip
    return [repr(m) for m in ms]


@program()
def prog_nn3_lstm_state_checks_with_and_without_grad(T: Any) -> Any:
    import contextlib

    nn = T.nn
    m = _seeded(T, nn.LSTM(2, 3, num_layers=2), 107)
    x = _x(T, 4, 2, 2, seed=132)
    h = _x(T, 2, 2, 3, seed=133)
    out = []
    for ctx in (contextlib.nullcontext, T.no_grad):
        with ctx():
            calls = [
                lambda: m(x, (h.double(), h)),
                lambda: m(x, (h, h.double())),
                lambda: m(x, (h.half(), h.half())),
                lambda: m(x.double(), (h, h)),
                lambda: m(x, (h, h, h)),
                lambda: m(x, (h,)),
                lambda: m(x, h),
                lambda: m(x, [h, h]),
                lambda: m(x, (h.int(), h.int())),
                lambda: m(x.bfloat16(), (h.bfloat16(), h.bfloat16())),
                lambda: m(x, (h[:, :1], h)),
                lambda: m(x, (h.transpose(0, 1).contiguous().transpose(0, 1), h)),
                lambda: m(x, (h.unsqueeze(0), h)),
                lambda: m(x[:, 0], (h[:, 0], h)),
            ]
            out.append([raises(lambda f=f: f()[0].sum()) for f in calls])
    g = _seeded(T, nn.GRU(2, 3), 108)
    with T.no_grad():
        out.append(raises(lambda: g(x, T.zeros(1, 2, 3).double())[0]))
        out.append(raises(lambda: g(x, T.zeros(1, 2, 3).half())[0]))
        out.append(raises(lambda: g(x, (T.zeros(1, 2, 3),))[0]))
    return out


@program()
def prog_nn3_seeded_default_inits(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(3)
    ms = [
        nn.Transformer(4, 2, 1, 1, 8),
        nn.MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True),
        nn.LSTM(2, 3, proj_size=2),
        nn.GRUCell(2, 3),
        nn.TransformerEncoderLayer(4, 2, 8),
        nn.LazyLinear(3),
    ]
    ms[-1](T.ones(1, 2))
    nn.utils.parametrizations.spectral_norm(ms[-1])
    sums = [sum(p.double().sum() for p in m.parameters()) for m in ms]
    return sums, ms[1].bias_k, ms[-1].parametrizations.weight[0]._u, T.rand(2)


@program()
def prog_nn3_fast_path_inference_mode_and_frozen_modules(T: Any) -> Any:
    nn = T.nn
    x, kpm, _ = _fully_masked_inputs(T)
    m = _seeded(T, nn.MultiheadAttention(4, 2, batch_first=True), 110).eval()
    layer = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 111).eval()
    out = []
    with T.inference_mode():
        out.append(m(x, x, x, key_padding_mask=kpm, need_weights=False)[0])
        out.append(layer(x, src_key_padding_mask=kpm))
        out.append(layer(x, is_causal=True))
    m.requires_grad_(False)
    layer.requires_grad_(False)
    out.append(m(x, x, x, key_padding_mask=kpm, need_weights=False)[0])
    out.append(layer(x, src_key_padding_mask=kpm))
    out.append(layer(x, is_causal=True))
    xr = x.clone().requires_grad_()
    out.append(layer(xr, src_key_padding_mask=kpm))
    out.append(m(xr, xr, xr, key_padding_mask=kpm, need_weights=False)[0])
    # (clones: inference tensors have no version counter to compare)
    return [(o.clone(), o.requires_grad, o.grad_fn is not None) for o in out]


@program()
def prog_nn3_prune_with_norm_reparametrizations_and_optimizer(T: Any) -> Any:
    import copy

    nn = T.nn
    pr = importlib.import_module(T.__name__ + ".nn.utils.prune")
    T.manual_seed(0)
    out = []
    m = nn.utils.parametrizations.weight_norm(_seeded(T, nn.Linear(3, 2), 112))
    out.append(raises(lambda: repr(pr.l1_unstructured(m, "weight", 0.5))))
    m2 = _seeded(T, nn.Linear(3, 2), 113)
    pr.l1_unstructured(m2, "weight", 0.5)
    out.append(raises(lambda: repr(nn.utils.parametrizations.weight_norm(m2))))
    m3 = nn.utils.weight_norm(_seeded(T, nn.Linear(3, 2), 114))
    out.append(raises(lambda: repr(pr.l1_unstructured(m3, "weight_v", 0.5))))
    out.append((sorted(m3.state_dict()), m3(T.ones(1, 3))))
    m4 = _seeded(T, nn.Linear(3, 2), 115)
    pr.random_unstructured(m4, "weight", 0.5)
    out.append(raises(lambda: copy.deepcopy(m4).weight_mask))
    m5 = _seeded(T, nn.Linear(3, 2), 116)
    pr.l1_unstructured(m5, "weight", 0.5)
    sd = m5.state_dict()
    m6 = nn.Linear(3, 2)
    out.append(raises(lambda: m6.load_state_dict(sd)))
    pr.identity(m6, "weight")
    out.append((raises(lambda: m6.load_state_dict(sd)), m6.weight))
    m7 = _seeded(T, nn.Linear(3, 2), 117)
    pr.l1_unstructured(m7, "weight", 0.5)
    opt = T.optim.SGD(m7.parameters(), lr=0.1)
    m7(T.ones(1, 3)).sum().backward()
    opt.step()
    out.append((m7.weight, m7.weight_orig.grad))
    pr.remove(m7, "weight")
    names = [n for n, _ in m7.named_parameters()], [n for n, _ in m7.named_buffers()]
    out.append((type(m7.weight).__name__, names))
    m8 = _seeded(T, nn.Linear(3, 2), 118)
    pr.l1_unstructured(m8, "weight", 0.5)
    out.append(raises(lambda: repr(pr.l1_unstructured(m8, "weight", 1.0))))
    out.append(m8.weight_mask.sum())
    out.append(raises(lambda: repr(pr.l1_unstructured(m8, "weight", 5))))
    out.append(raises(lambda: repr(pr.l1_unstructured(m8, "weight", 4))))
    out.append(m8.weight_mask.sum())
    m10 = _seeded(T, nn.Linear(3, 2), 119)
    pr.l1_unstructured(m10, "weight", 2)
    m10.double()
    x64 = T.ones(1, 3, dtype=T.float64)
    out.append((m10.weight_mask.dtype, m10.weight.dtype, m10(x64)))
    return out


@program()
def prog_nn3_clip_grad_argument_types(T: Any) -> Any:
    nn = T.nn
    U = nn.utils

    def ps():
        p = nn.Parameter(T.ones(3))
        p.grad = T.tensor([3.0, 4.0, 0.0])
        return [p]

    out = []
    for nt in (2, 2.0, "2", T.tensor(2.0), None, "fro", "nuc", float("inf"), -1, 0, True, 1j):
        a = ps()
        out.append(
            (
                repr(nt),
                raises(lambda a=a, nt=nt: U.clip_grad_norm_(a, 1.0, norm_type=nt)),
                a[0].grad,
            )
        )
    for mn in (1, T.tensor(1.0), T.tensor([1.0]), "1", None, -1.0, 0.0, float("nan")):
        a = ps()
        out.append((repr(mn), raises(lambda a=a, mn=mn: U.clip_grad_norm_(a, mn)), a[0].grad))
    for cv in (1, T.tensor(1.0), "1", None, 0.0, float("nan"), T.tensor([1.0, 2.0, 3.0])):
        a = ps()
        out.append((repr(cv), raises(lambda a=a, cv=cv: U.clip_grad_value_(a, cv)), a[0].grad))
    out += [
        raises(lambda: U.clip_grad_norm_(ps(), 1.0, error_if_nonfinite=None)),
        raises(lambda: U.clip_grad_norm_(3, 1.0)),
        raises(lambda: U.clip_grad_norm_([3], 1.0)),
        raises(lambda: U.clip_grad_norm_([T.ones(2)], 1.0)),
        raises(lambda: U.clip_grad_value_(3, 1.0)),
        raises(
            lambda: U.get_total_norm([T.tensor([3.0, 4.0])], norm_type=2, error_if_nonfinite=True)
        ),
        raises(lambda: U.get_total_norm(T.tensor([3.0, float("nan")]), error_if_nonfinite=True)),
        raises(lambda: U.get_total_norm([T.tensor([3.0, 4.0])], norm_type="inf")),
        raises(lambda: U.clip_grad_norm_((p for p in []), 1.0)),
        raises(lambda: U.clip_grad_value_((p for p in []), 1.0)),
    ]
    return out


@program()
def prog_nn3_recurrent_weights_set_to_none(T: Any) -> Any:
    nn = T.nn
    U = nn.utils.rnn
    x = _x(T, 2, 1, 2, seed=134)
    packed = U.pack_sequence([_x(T, 2, 2, seed=135)])
    cases = [
        ("LSTM", {}, "bias_hh_l0", False, None),
        ("LSTM", {"bidirectional": True}, "bias_hh_l0_reverse", True, None),
        ("LSTM", {"bidirectional": True}, "bias_hh_l0_reverse", True, "h"),
        ("LSTM", {}, "weight_hh_l0", False, "nograd"),
        ("LSTM", {}, "weight_ih_l0", False, None),
        ("GRU", {"num_layers": 2}, "weight_hh_l1", False, None),
        ("GRU", {}, "bias_ih_l0", True, None),
        ("RNN", {}, "weight_ih_l0", True, None),
        ("RNN", {"nonlinearity": "relu"}, "bias_hh_l0", False, None),
    ]
    out = []
    for i, (kind, kw, name, pack, extra) in enumerate(cases):
        m = _seeded(T, getattr(nn, kind)(2, 3, **kw), 120 + i)
        setattr(m, name, None)
        inp = packed if pack else x
        args = [inp]
        if extra == "h":
            args.append((T.zeros(2, 1, 3), T.zeros(2, 1, 3)))
        if extra == "nograd":
            with T.no_grad():
                out.append(raises(lambda m=m, args=args: m(*args)[0]))
        else:
            out.append(raises(lambda m=m, args=args: m(*args)[0]))
    for j, (cls, kw, name) in enumerate(
        [
            ("RNNCell", {}, "weight_hh"),
            ("RNNCell", {"nonlinearity": "relu"}, "weight_ih"),
            ("GRUCell", {}, "weight_ih"),
            ("LSTMCell", {}, "weight_hh"),
            ("LSTMCell", {}, "bias_ih"),
            ("GRUCell", {}, "bias_hh"),
        ]
    ):
        c = _seeded(T, getattr(nn, cls)(2, 3, **kw), 130 + j)
        setattr(c, name, None)
        out.append(raises(lambda c=c: c(_x(T, 1, 2, seed=136))))
    return out


@program()
def prog_nn3_fast_path_reduced_precision_and_layouts(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, 8, seed=137)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    out = []
    for dt in (T.float16, T.bfloat16, T.float64):
        layer = (
            _seeded(T, nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 140).to(dt).eval()
        )
        m = _seeded(T, nn.MultiheadAttention(8, 2, batch_first=True), 141).to(dt).eval()
        xd = x.to(dt)
        with T.no_grad():
            out.append(layer(xd, src_key_padding_mask=kpm))
            out.append(layer(xd))
            out.append(m(xd, xd, xd, key_padding_mask=kpm, need_weights=False)[0])
            out.append(m(xd, xd, xd)[1])
            out.append(nn.TransformerEncoder(layer, 2)(xd, src_key_padding_mask=kpm))
    xt = x.transpose(1, 2).contiguous().transpose(1, 2)
    layer = _seeded(T, nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 140).eval()
    with T.no_grad():
        out.append(layer(xt, src_key_padding_mask=kpm))
    return out


@program()
def prog_nn3_fast_path_with_parametrized_projections(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrizations
    x, kpm, _ = _fully_masked_inputs(T)
    T.manual_seed(0)
    m = _seeded(T, nn.MultiheadAttention(4, 2, batch_first=True), 142)
    P.spectral_norm(m, "in_proj_weight")
    P.weight_norm(m.out_proj)
    m.eval()
    layer = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 143)
    P.orthogonal(layer.linear1)
    layer.eval()
    partial = T.tensor([[False, False, True], [False] * 3])
    out = []
    with T.no_grad():
        out.append(m(x, x, x, key_padding_mask=kpm, need_weights=False)[0])
        out.append(layer(x, src_key_padding_mask=kpm))
        out.append(nn.TransformerEncoder(layer, 2)(x, src_key_padding_mask=partial))
    y = m(x, x, x, key_padding_mask=kpm, need_weights=False)[0]
    out.append((y, y.grad_fn))
    return out


@program()
def prog_nn3_setstate_of_old_pickles(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    out = []
    m = _seeded(T, nn.MultiheadAttention(4, 2), 144)
    d = dict(m.__dict__)
    d.pop("_qkv_same_embed_dim")
    m2 = nn.MultiheadAttention.__new__(nn.MultiheadAttention)
    m2.__setstate__(d)
    q = _x(T, 3, 1, 4, seed=150)
    out.append((m2._qkv_same_embed_dim, m2(q, q, q)))
    for cls in (nn.TransformerEncoderLayer, nn.TransformerDecoderLayer):
        layer = _seeded(T, cls(4, 2, 8, dropout=0.0), 145)
        d = dict(layer.__dict__)
        d.pop("activation")
        l2 = cls.__new__(cls)
        l2.__setstate__(d)
        args = (q,) if cls is nn.TransformerEncoderLayer else (q, q)
        out.append((l2.activation is T.nn.functional.relu, l2(*args)))
    for kw in ({}, {"bidirectional": True, "num_layers": 2}, {"bias": False}, {"proj_size": 2}):
        r = _seeded(T, nn.LSTM(2, 3, **kw), 146)
        d = dict(r.__dict__)
        if not kw:
            d.pop("proj_size")
        # a pre-1.0 pickle: the weights themselves in all_weights, no names
        d["all_weights"] = [[getattr(r, n) for n in ws] for ws in r._all_weights]
        d.pop("_all_weights")
        d.pop("_flat_weights_names")
        r2 = nn.LSTM.__new__(nn.LSTM)
        r2.__setstate__(d)
        out.append((r2.proj_size, r2._flat_weights_names, r2._all_weights))
        out.append(raises(lambda r2=r2: r2(_x(T, 2, 1, 2, seed=151))[0]))
    # an encoder pickled before use_nested_tensor and mask_check: no nested path
    layer = _seeded(T, nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 147).eval()
    enc = nn.TransformerEncoder(layer, 1)
    del enc.use_nested_tensor
    del enc.mask_check
    kpm = T.tensor([[False, True, True], [False] * 3])
    with T.no_grad():
        out.append(enc(_x(T, 2, 3, 4, seed=152), src_key_padding_mask=kpm))
    return out


@program()
def prog_nn3_setstate_defaults_of_other_modules(T: Any) -> Any:
    nn = T.nn
    out = []
    cases = [
        (nn.Softmax, "dim", (1,)),
        (nn.Softmin, "dim", (1,)),
        (nn.LogSoftmax, "dim", (1,)),
        (nn.Conv1d, "padding_mode", (2, 2, 1)),
        (nn.ConvTranspose2d, "padding_mode", (2, 2, 1)),
        (nn.AvgPool3d, "padding", (2,)),
        (nn.AvgPool3d, "ceil_mode", (2,)),
        (nn.AvgPool3d, "count_include_pad", (2,)),
    ]
    x = _x(T, 1, 2, 4, 4, 4, seed=153)
    for cls, attr, args in cases:
        m = cls(*args)
        d = dict(m.__dict__)
        d.pop(attr)
        m2 = cls.__new__(cls)
        m2.__setstate__(d)
        out.append((getattr(m2, attr), repr(m2)))
        if cls is nn.AvgPool3d:
            out.append(m2(x))
    return out


@program()
def prog_nn3_parameter_containers_conversions_and_edits(T: Any) -> Any:
    nn = T.nn
    out = []
    frozen = nn.Parameter(T.ones(1), requires_grad=False)
    pl = nn.ParameterList([T.ones(2), frozen, T.zeros(2, dtype=T.complex64)])
    out.append([(type(p).__name__, p.dtype, p.requires_grad) for p in pl.double()])
    out.append([(type(p).__name__, p.dtype) for p in pl.half()])
    out.append(raises(lambda: pl.append(T.ones(2, dtype=T.long))))
    out.append(raises(lambda: len(pl.extend([T.ones(1)] * 2))))
    out.append(raises(lambda: pl.extend(T.ones(2))))
    out += [raises(lambda i=i: pl[i]) for i in (10, -10, "0")]
    out.append((len(pl[1:3]), type(pl[1:3]).__name__, [n for n, _ in pl.named_parameters()]))

    def set_tensor():
        pl[0] = T.ones(3)
        return type(pl[0]).__name__, pl[0].requires_grad

    def set_int():
        pl[1] = 5
        return pl[1], [n for n, _ in pl.named_parameters()]

    out += [raises(set_tensor), raises(set_int)]
    pd = nn.ParameterDict({"a": T.ones(2), "b": nn.Parameter(T.ones(1), requires_grad=False)})
    out.append([(k, type(p).__name__, p.dtype, p.requires_grad) for k, p in pd.double().items()])
    out += [
        raises(lambda: pd.get("zz", 3)),
        raises(lambda: pd.pop("zz")),
        sorted(pd.copy().keys()),
        "a" in pd,
        raises(lambda: pd.update({"c": T.ones(1, dtype=T.long)})),
        raises(lambda: pd.update(nn.ParameterDict({"d": T.ones(1)})) or sorted(pd.keys())),
        raises(lambda: pd.update([("e", T.ones(1)), ("a", None)]) or sorted(pd.keys())),
        pd["a"],
        [n for n, _ in pd.named_parameters()],
        raises(lambda: nn.ParameterDict({"x": 1}).x),
        raises(lambda: setattr(pd, "newattr", T.ones(1)) or sorted(pd.keys())),
        raises(lambda: setattr(pl, "newattr", nn.Parameter(T.ones(1))) or len(pl)),
    ]
    return out


@program()
def prog_nn3_pack_padded_node_saved_values_and_freeing(T: Any) -> Any:
    U = T.nn.utils.rnn
    out = []
    x = _x(T, 3, 2, 2, seed=154, rg=True)
    p = U.pack_padded_sequence(x, [3, 1])
    g = p.data.grad_fn
    names = sorted(a for a in dir(g) if a.startswith(("_saved_", "_raw_saved_")))
    out.append((names, g._saved_batch_first, g._saved_input_sym_sizes, g._saved_result1))
    out.append((p.batch_sizes, p.batch_sizes.requires_grad, p.batch_sizes.grad_fn))
    w = T.arange(8.0).reshape(4, 2)
    (p.data * w).sum().backward(retain_graph=True)
    (p.data * w).sum().backward()
    out.append(x.grad)
    out.append(raises(lambda: p.data.sum().backward()))
    out.append(raises(lambda: g._saved_result1))
    # double backward, then a third pass through the freed node
    x2 = _x(T, 3, 2, 2, seed=155, rg=True).double()
    p2 = U.pack_padded_sequence(x2, [3, 2])
    gr = T.autograd.grad((p2.data**3).sum(), x2, create_graph=True)[0]
    out.append((gr, gr.grad_fn))
    out.append(T.autograd.grad(gr.sum(), x2))
    out.append(raises(lambda: T.autograd.grad((p2.data * 2).sum(), x2)))
    # a length past the padded size: packed forward, failing backward
    for bf, shape, lens in ((False, (2, 2, 1), [3, 1]), (True, (3, 2, 1), [3, 1, 1])):
        y = T.arange(float(shape[0] * shape[1])).reshape(shape).requires_grad_()
        q = U.pack_padded_sequence(y, lens, batch_first=bf)
        out.append((q.data, q.batch_sizes, raises(lambda q=q: q.data.sum().backward())))
    # forward AD: torch has no formula for _pack_padded_sequence (pad_packed and pad_sequence
    # decompose)
    fw = importlib.import_module(T.__name__ + ".autograd.forward_ad")
    z, t = T.arange(12.0).reshape(3, 2, 2), T.ones(3, 2, 2) * 0.5
    with fw.dual_level():
        d = fw.make_dual(z, t)
        out.append(raises(lambda: U.pack_padded_sequence(d, [3, 1])))
        pd = fw.make_dual(T.arange(8.0).reshape(4, 2), T.ones(4, 2))
        packed = U.PackedSequence(pd, T.tensor([2, 1, 1]))
        out.append(tuple(fw.unpack_dual(U.pad_packed_sequence(packed)[0])))
        out.append(tuple(fw.unpack_dual(U.pad_sequence([d[0], d[1, :1]]))))
    out.append(
        raises(lambda: T.func.jvp(lambda v: U.pack_padded_sequence(v, [3, 1]).data, (z,), (t,)))
    )
    return out


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
