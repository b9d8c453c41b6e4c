"""Realistic programs in the spirit of torch's nn tests, part 2 (test/test_nn.py, the module_db
of torch/testing/_internal/common_modules.py and common_nn.py): Transformer layers with their
masks and options, MultiheadAttention's kdim/vdim/bias_kv/zero_attn and weight averaging,
scaled_dot_product_attention's scale/GQA/mask forms, RNN/LSTM/GRU options, packed sequences and
hidden-state shape errors, Embedding/EmbeddingBag modes, init functions, the Module API,
normalization running statistics, padding modes, interpolation, Fold/Unfold and PixelShuffle.
The programs register into test_realistic_programs_3's set and run through its harness: each
`prog(T)` runs on torch and on shadowgrad, and everything it returns, raises or warns is
compared.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _fb(m: Any, *xs: Any) -> Any:
    """Forward, backward of the squared sum of the first output, and every gradient."""
    y = m(*xs)
    y0 = y[0] if isinstance(y, tuple) else y
    y0.float().pow(2).sum().backward()
    grads = [(n, p.grad) for n, p in m.named_parameters()]
    return y, [getattr(x, "grad", None) for x in xs], grads, y0.grad_fn


# --- Transformer layers ------------------------------------------------------------------------


@program()
def prog_nn2_encoder_layer_norm_first_gelu(T: Any) -> Any:
    m = _seeded(
        T,
        T.nn.TransformerEncoderLayer(
            4, 2, 6, dropout=0.0, activation="gelu", norm_first=True, batch_first=True
        ),
        1,
    )
    return _fb(m, _x(T, 2, 3, 4, rg=True))


@program()
def prog_nn2_encoder_layer_callable_activation_and_masks(T: Any) -> Any:
    m = _seeded(
        T, T.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, activation=T.nn.functional.silu), 2
    )
    x = _x(T, 3, 2, 4, seed=1, rg=True)
    bool_mask = T.tensor([[False, True, True], [False, False, True], [False, False, False]])
    float_mask = T.nn.Transformer.generate_square_subsequent_mask(3)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    a = m(x, src_mask=bool_mask, src_key_padding_mask=kpm)
    b = m(x, src_mask=float_mask, src_key_padding_mask=kpm)
    c = m(x, src_mask=float_mask, is_causal=True)
    (a.sum() + b.sum() + c.sum()).backward()
    return a, b, c, x.grad, float_mask, a.grad_fn


@program()
def prog_nn2_encoder_stack_norm_and_layers_are_copies(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    enc = T.nn.TransformerEncoder(layer, 2, norm=T.nn.LayerNorm(4), enable_nested_tensor=False)
    _seeded(T, enc, 3)
    x = _x(T, 2, 3, 4, seed=2, rg=True)
    out = _fb(enc, x)
    return (
        out,
        enc.layers[0] is layer,
        enc.layers[0].linear1.weight is enc.layers[1].linear1.weight,
        len(list(enc.parameters())),
        sorted(n for n, _ in enc.named_parameters())[:6],
    )


@program()
def prog_nn2_encoder_mask_mismatch_warning(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    enc = T.nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
    _seeded(T, enc, 4)
    x = _x(T, 2, 3, 4)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    fmask = T.zeros(3, 3)
    return enc(x, mask=T.ones(3, 3, dtype=T.bool).triu(1), src_key_padding_mask=kpm), raises(
        lambda: enc(x, mask=fmask, src_key_padding_mask=kpm.float())
    )


@program()
def prog_nn2_decoder_layer_masks_norm_first(T: Any) -> Any:
    m = _seeded(
        T,
        T.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, norm_first=True, batch_first=True),
        5,
    )
    tgt = _x(T, 2, 3, 4, seed=3, rg=True)
    mem = _x(T, 2, 5, 4, seed=4, rg=True)
    tmask = T.nn.Transformer.generate_square_subsequent_mask(3)
    mkpm = T.tensor([[False] * 4 + [True], [False] * 5])
    y = m(tgt, mem, tgt_mask=tmask, memory_key_padding_mask=mkpm, tgt_is_causal=True)
    y.pow(2).sum().backward()
    return y, tgt.grad, mem.grad, m.multihead_attn.in_proj_weight.grad


@program()
def prog_nn2_transformer_full_masks_and_errors(T: Any) -> Any:
    m = _seeded(T, T.nn.Transformer(4, 2, 1, 1, 6, dropout=0.0), 6)
    src = _x(T, 5, 2, 4, seed=5)
    tgt = _x(T, 3, 2, 4, seed=6)
    tm = m.generate_square_subsequent_mask(3)
    return (
        m(src, tgt, tgt_mask=tm, tgt_is_causal=True),
        raises(lambda: m(src, _x(T, 3, 3, 4))),
        raises(lambda: m(_x(T, 5, 2, 3), _x(T, 3, 2, 3))),
        T.nn.Transformer.generate_square_subsequent_mask(2, dtype=T.float64),
        raises(lambda: T.nn.Transformer(5, 2)),
    )


@program()
def prog_nn2_transformer_unbatched(T: Any) -> Any:
    m = _seeded(T, T.nn.Transformer(4, 2, 1, 1, 6, dropout=0.0), 7)
    src = _x(T, 5, 4, seed=7, rg=True)
    tgt = _x(T, 3, 4, seed=8, rg=True)
    y = m(src, tgt)
    y.sum().backward()
    return y, src.grad, tgt.grad, raises(lambda: m(src, _x(T, 3, 1, 4)))


@program()
def prog_nn2_encoder_layer_eval_no_grad_matches(T: Any) -> Any:
    m = _seeded(T, T.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.1, batch_first=True), 8)
    m.eval()
    x = _x(T, 2, 3, 4, seed=9)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    with T.no_grad():
        a = m(x, src_key_padding_mask=kpm)
    b = m(x, src_key_padding_mask=kpm)
    return a, b.detach(), b.grad_fn is not None


# --- MultiheadAttention ---------------------------------------------------------------------


@program()
def prog_nn2_mha_kdim_vdim_separate_weights(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, kdim=3, vdim=5), 9)
    q = _x(T, 2, 1, 4, seed=1, rg=True)
    k = _x(T, 3, 1, 3, seed=2, rg=True)
    v = _x(T, 3, 1, 5, seed=3, rg=True)
    o, w = mha(q, k, v)
    o.sum().backward()
    return (
        o,
        w,
        q.grad,
        k.grad,
        v.grad,
        mha.in_proj_weight,
        [n for n, _ in mha.named_parameters()],
        mha.q_proj_weight.grad,
        o.grad_fn,
    )


@program()
def prog_nn2_mha_weights_not_averaged_and_none(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 10)
    q = _x(T, 2, 3, 4, seed=4)
    o1, w1 = mha(q, q, q, average_attn_weights=False)
    o2, w2 = mha(q, q, q, need_weights=False)
    am = T.tensor([[0.0, -1.0, 0.0], [0.0, 0.0, -2.0], [-1.0, 0.0, 0.0]])
    o3, w3 = mha(q, q, q, attn_mask=am)
    o4, w4 = mha(q, q, q, attn_mask=am.expand(4, 3, 3).contiguous())
    return o1, w1.shape, w1, o2, w2, o3, w3, o4, w4


@program()
def prog_nn2_mha_mask_errors(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2), 11)
    q = _x(T, 3, 2, 4, seed=5)
    return [
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(2, 3))),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(3, 3, 3))),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(3, 3, dtype=T.long))),
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(2, 4, dtype=T.bool))),
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(1, 3, 3, 3))),
        raises(lambda: mha(q, q[:2], q)),
        raises(lambda: mha(q, _x(T, 3, 2, 5), _x(T, 3, 2, 5))),
    ]


@program()
def prog_nn2_mha_bool_and_float_key_padding_mixed_warns(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 12)
    q = _x(T, 2, 3, 4, seed=6)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    am = T.tensor([[0.0, -1.0, 0.0], [0.0, 0.0, -2.0], [-1.0, 0.0, 0.0]])
    return mha(q, q, q, key_padding_mask=kpm, attn_mask=am), mha(
        q, q, q, key_padding_mask=kpm.float() * -1e4
    )


@program()
def prog_nn2_mha_is_causal_needs_mask(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 13)
    q = _x(T, 2, 3, 4, seed=7)
    cm = T.nn.Transformer.generate_square_subsequent_mask(3)
    return (
        raises(lambda: mha(q, q, q, is_causal=True)),
        mha(q, q, q, attn_mask=cm, is_causal=True, need_weights=False),
        mha(q, q, q, attn_mask=cm, need_weights=True),
    )


@program()
def prog_nn2_mha_fully_masked_row_and_zero_attn(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, add_zero_attn=True, batch_first=True), 14)
    q = _x(T, 1, 2, 4, seed=8, rg=True)
    kpm = T.tensor([[True, True]])
    o, w = mha(q, q, q, key_padding_mask=kpm)
    o.sum().backward()
    mha2 = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 14)
    o2, w2 = mha2(q, q, q, key_padding_mask=kpm)
    return o, w, q.grad, o2, w2


@program()
def prog_nn2_mha_double_backward(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 1, dtype=T.float64), 15)
    q = T.tensor(_data(2, 1, 4, seed=9), dtype=T.float64, requires_grad=True)
    o, _ = mha(q, q, q)
    (g,) = T.autograd.grad(o.sum(), q, create_graph=True)
    g.pow(2).sum().backward()
    return o, g, q.grad


# --- scaled_dot_product_attention --------------------------------------------------------


@program()
def prog_nn2_sdpa_scale_bool_and_float_masks(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 2, 2, 3, 4, seed=10, rg=True)
    k = _x(T, 2, 2, 5, 4, seed=11, rg=True)
    v = _x(T, 2, 2, 5, 6, seed=12, rg=True)
    bm = T.tensor([[True, True, False, True, True]] * 3)
    fm = T.where(bm, 0.0, -0.5)
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=bm, scale=0.3)
    b = F.scaled_dot_product_attention(q, k, v, attn_mask=fm)
    (a.sum() + b.pow(2).sum()).backward()
    return a, b, q.grad, k.grad, v.grad, a.grad_fn


@program()
def prog_nn2_sdpa_causal_non_square_and_errors(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 1, 3, 4, seed=13)
    k = _x(T, 1, 5, 4, seed=14)
    return (
        F.scaled_dot_product_attention(q, k, k, is_causal=True),
        raises(
            lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=T.ones(3, 5), is_causal=True)
        ),
        raises(lambda: F.scaled_dot_product_attention(q, k[..., :3], k)),
        raises(lambda: F.scaled_dot_product_attention(q, k, k.double())),
        raises(lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=T.ones(3, 4))),
        raises(lambda: F.scaled_dot_product_attention(q.long(), k.long(), k.long())),
    )


@program()
def prog_nn2_sdpa_gqa(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 1, 4, 3, 2, seed=15, rg=True)
    k = _x(T, 1, 2, 3, 2, seed=16, rg=True)
    v = _x(T, 1, 2, 3, 2, seed=17, rg=True)
    y = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    y.sum().backward()
    return (
        y,
        k.grad,
        raises(lambda: F.scaled_dot_product_attention(q, k, v)),
        raises(lambda: F.scaled_dot_product_attention(q[:, :3], k, v, enable_gqa=True)),
    )


@program()
def prog_nn2_sdpa_fully_masked_rows_and_empty(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 2, 3, 4, seed=18, rg=True)
    bm = T.tensor([[True, True], [False, False], [True, False]])
    k = _x(T, 2, 2, 4, seed=19)
    y = F.scaled_dot_product_attention(q, k, k, attn_mask=bm)
    y.sum().backward()
    e = F.scaled_dot_product_attention(T.zeros(2, 0, 4), T.zeros(2, 3, 4), T.zeros(2, 3, 5))
    return y, q.grad, e.shape, F.scaled_dot_product_attention(q[:1, :1], q[:1, :0], q[:1, :0])


# --- RNN / LSTM / GRU ------------------------------------------------------------------


@program()
def prog_nn2_gru_bidirectional_two_layers_batch_first(T: Any) -> Any:
    m = _seeded(T, T.nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True), 20)
    x = _x(T, 2, 5, 3, seed=20, rg=True)
    h0 = _x(T, 4, 2, 4, seed=21, rg=True)
    out, h = m(x, h0)
    (out.sum() + h.pow(2).sum()).backward()
    return out, h, x.grad, h0.grad, m.weight_hh_l1_reverse.grad, out.grad_fn


@program()
def prog_nn2_rnn_relu_unbatched_and_hidden_errors(T: Any) -> Any:
    m = _seeded(T, T.nn.RNN(3, 2, num_layers=2, nonlinearity="relu"), 21)
    x = _x(T, 4, 3, seed=22, rg=True)
    out, h = m(x)
    out.sum().backward()
    return (
        out,
        h,
        x.grad,
        raises(lambda: m(x, T.zeros(2, 1, 2))),
        raises(lambda: m(x, T.zeros(1, 2))),
        raises(lambda: m(x, T.zeros(2, 3))),
        raises(lambda: m(_x(T, 4, 1, 3), T.zeros(2, 2))),
    )


@program()
def prog_nn2_lstm_proj_bidirectional_hidden_shapes(T: Any) -> Any:
    m = _seeded(T, T.nn.LSTM(3, 5, proj_size=2, bidirectional=True), 22)
    x = _x(T, 4, 2, 3, seed=23, rg=True)
    out, (h, c) = m(x)
    (out.sum() + c.sum()).backward()
    return (
        out.shape,
        h.shape,
        c.shape,
        out,
        x.grad,
        m.weight_hr_l0_reverse.grad,
        raises(lambda: m(x, (T.zeros(2, 2, 5), T.zeros(2, 2, 5)))),
        raises(lambda: m(x, (T.zeros(2, 2, 2), T.zeros(2, 2, 2)))),
        raises(lambda: m(x, T.zeros(2, 2, 2))),
    )


@program()
def prog_nn2_lstm_unbatched_with_state(T: Any) -> Any:
    m = _seeded(T, T.nn.LSTM(2, 3, num_layers=2), 23)
    x = _x(T, 4, 2, seed=24, rg=True)
    h0 = _x(T, 2, 3, seed=25, rg=True)
    c0 = _x(T, 2, 3, seed=26, rg=True)
    out, (h, c) = m(x, (h0, c0))
    (out.sum() + h.sum() + c.sum()).backward()
    return (
        out,
        h,
        c,
        h0.grad,
        c0.grad,
        raises(lambda: m(x, (h0.unsqueeze(1), c0))),
    )


@program()
def prog_nn2_packed_sequence_lstm_enforce_sorted(T: Any) -> Any:
    U = T.nn.utils.rnn
    m = _seeded(T, T.nn.LSTM(2, 3, bidirectional=True), 24)
    seqs = [_x(T, n, 2, seed=30 + n, rg=True) for n in (2, 4, 3)]
    padded = U.pad_sequence(seqs)
    lens = T.tensor([2, 4, 3])
    err = raises(lambda: U.pack_padded_sequence(padded, lens))
    packed = U.pack_padded_sequence(padded, lens, enforce_sorted=False)
    out, (h, _c) = m(packed)
    unpacked, ulens = U.pad_packed_sequence(out, total_length=5, padding_value=-1.0)
    (unpacked.clamp(min=0).sum() + h.sum()).backward()
    return (
        err,
        packed.batch_sizes,
        packed.sorted_indices,
        packed.unsorted_indices,
        unpacked,
        ulens,
        h,
        [s.grad for s in seqs],
    )


@program()
def prog_nn2_pack_sequence_and_errors(T: Any) -> Any:
    U = T.nn.utils.rnn
    seqs = [T.tensor([1.0, 2.0, 3.0]), T.tensor([4.0]), T.tensor([5.0, 6.0])]
    p = U.pack_sequence(seqs, enforce_sorted=False)
    return (
        p.data,
        p.batch_sizes,
        U.unpack_sequence(p),
        U.unpad_sequence(U.pad_sequence(seqs, batch_first=True), T.tensor([3, 1, 2]), True),
        U.pad_sequence(seqs, padding_side="left"),
        raises(lambda: U.pack_sequence(seqs)),
        raises(lambda: U.pack_padded_sequence(T.zeros(3, 2), T.tensor([3, 0]))),
        raises(lambda: U.pack_padded_sequence(T.zeros(3, 2), T.tensor([4, 1]))),
        raises(lambda: U.pad_packed_sequence(p, total_length=2)),
        raises(lambda: U.pack_padded_sequence(T.zeros(3, 2), [3])),
    )


@program()
def prog_nn2_gru_packed_with_h0_and_sorted_indices(T: Any) -> Any:
    U = T.nn.utils.rnn
    m = _seeded(T, T.nn.GRU(2, 3, batch_first=True), 25)
    x = _x(T, 3, 4, 2, seed=40, rg=True)
    h0 = _x(T, 1, 3, 3, seed=41, rg=True)
    p = U.pack_padded_sequence(x, [2, 4, 1], batch_first=True, enforce_sorted=False)
    out, h = m(p, h0)
    o, lens = U.pad_packed_sequence(out, batch_first=True)
    (o.sum() + h.sum()).backward()
    return o, lens, h, x.grad, h0.grad


@program()
def prog_nn2_rnn_flatten_params_and_state_dict_names(T: Any) -> Any:
    m = T.nn.LSTM(2, 3, num_layers=2, bias=False, proj_size=1)
    m.flatten_parameters()
    return (
        list(m.state_dict()),
        [tuple(p.shape) for p in m.parameters()],
        m._flat_weights_names,
        repr(m),
        m.all_weights.__len__(),
        [len(x) for x in m.all_weights],
    )


@program()
def prog_nn2_rnn_cells_shape_errors(T: Any) -> Any:
    nn = T.nn
    return [
        raises(lambda: nn.RNNCell(3, 2)(T.ones(2, 4))),
        raises(lambda: nn.LSTMCell(3, 2)(T.ones(2, 3), (T.ones(3, 2), T.ones(2, 2)))),
        raises(lambda: nn.GRUCell(3, 2)(T.ones(2, 3), T.ones(2, 3))),
        raises(lambda: nn.RNNCell(3, 2)(T.ones(2, 2, 3))),
        raises(lambda: nn.RNNCell(3, 2, nonlinearity="gelu")(T.ones(2, 3))),
        raises(lambda: nn.GRUCell(3, 2)(T.ones(3), T.ones(1, 2))),
        nn.RNNCell(3, 2, bias=False).bias_ih,
    ]


# --- Embedding / EmbeddingBag -------------------------------------------------------------


@program()
def prog_nn2_embedding_max_norm_renorm_and_grad(T: Any) -> Any:
    e = _seeded(T, T.nn.Embedding(5, 3, max_norm=0.5, norm_type=1.0), 26)
    w0 = e.weight.detach().clone()
    idx = T.tensor([[0, 2], [2, 4]])
    y = e(idx)
    y.sum().backward()
    return w0, e.weight, y, e.weight.grad, e.weight._version > 0


@program()
def prog_nn2_embedding_functional_options(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 5, 3, seed=27, rg=True)
    idx = T.tensor([1, 1, 4, 0])
    y = F.embedding(idx, w, padding_idx=1, scale_grad_by_freq=True)
    y.pow(2).sum().backward()
    return (
        y,
        w.grad,
        raises(lambda: F.embedding(idx, w, padding_idx=5)),
        raises(lambda: F.embedding(idx, w, padding_idx=-6)),
        F.embedding(T.tensor([], dtype=T.long), w).shape,
        raises(lambda: F.embedding(idx.int(), w[0])),
        F.embedding(idx.int(), w).dtype,
    )


@program()
def prog_nn2_embedding_from_pretrained_options(T: Any) -> Any:
    nn = T.nn
    w = T.tensor(_data(4, 2, seed=28))
    e = nn.Embedding.from_pretrained(w, freeze=False, padding_idx=2, max_norm=1.0)
    y = e(T.tensor([0, 2, 3]))
    y.sum().backward()
    return (
        y,
        e.weight.grad,
        e.weight.requires_grad,
        e.padding_idx,
        repr(e),
        raises(lambda: nn.Embedding.from_pretrained(T.zeros(3))),
        repr(nn.Embedding(3, 2, padding_idx=-1, sparse=True, scale_grad_by_freq=True)),
    )


@program()
def prog_nn2_embedding_bag_modes_with_offsets(T: Any) -> Any:
    out = []
    for mode in ("sum", "mean", "max"):
        b = _seeded(T, T.nn.EmbeddingBag(6, 3, mode=mode), 27)
        idx = T.tensor([1, 2, 4, 5, 4, 3, 2, 0])
        off = T.tensor([0, 2, 2, 5])
        y = b(idx, off)
        y.pow(2).sum().backward()
        out.append((mode, y, b.weight.grad, y.grad_fn))
    return out


@program()
def prog_nn2_embedding_bag_2d_per_sample_weights_padding(T: Any) -> Any:
    b = _seeded(T, T.nn.EmbeddingBag(6, 3, mode="sum", padding_idx=0), 28)
    idx = T.tensor([[1, 0, 3], [0, 0, 5]])
    psw = _x(T, 2, 3, seed=29, rg=True)
    y = b(idx, per_sample_weights=psw)
    y.sum().backward()
    return (
        y,
        psw.grad,
        b.weight.grad,
        raises(lambda: T.nn.EmbeddingBag(6, 3, mode="mean")(idx, per_sample_weights=psw)),
        raises(lambda: b(idx, T.tensor([0]))),
        raises(lambda: b(idx, per_sample_weights=psw[:, :2])),
    )


@program()
def prog_nn2_embedding_bag_include_last_offset(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 6, 2, seed=30, rg=True)
    idx = T.tensor([1, 2, 4, 5, 4])
    off = T.tensor([0, 2, 5])
    y = F.embedding_bag(idx, w, off, mode="mean", include_last_offset=True)
    y.sum().backward()
    return (
        y,
        w.grad,
        F.embedding_bag(idx, w, T.tensor([0, 3]), mode="max", include_last_offset=True),
        raises(lambda: F.embedding_bag(idx, w, T.tensor([1, 3]))),
        raises(lambda: F.embedding_bag(idx, w, T.tensor([0, 6]))),
        raises(lambda: F.embedding_bag(idx, w, T.tensor([0, 3]), mode="median")),
        F.embedding_bag(idx, w, T.tensor([0, 3]), max_norm=0.5).detach(),
    )


@program()
def prog_nn2_embedding_bag_from_pretrained_and_repr(T: Any) -> Any:
    nn = T.nn
    w = T.tensor(_data(4, 2, seed=31))
    b = nn.EmbeddingBag.from_pretrained(w, mode="max", padding_idx=1)
    return (
        b(T.tensor([[0, 1], [1, 3]])),
        b.weight.requires_grad,
        repr(b),
        repr(nn.EmbeddingBag(3, 2, max_norm=1.0, include_last_offset=True)),
        raises(lambda: nn.EmbeddingBag(3, 2, mode="foo")(T.tensor([[0]]))),
        raises(lambda: nn.EmbeddingBag(3, 2, padding_idx=3)),
    )


# --- init --------------------------------------------------------------------------------


@program()
def prog_nn2_init_calculate_gain_and_errors(T: Any) -> Any:
    init = T.nn.init
    out = [
        init.calculate_gain(n)
        for n in (
            "linear",
            "conv1d",
            "conv2d",
            "conv3d",
            "conv_transpose1d",
            "conv_transpose2d",
            "conv_transpose3d",
            "sigmoid",
            "tanh",
            "relu",
            "selu",
        )
    ]
    out += [
        init.calculate_gain("leaky_relu"),
        init.calculate_gain("leaky_relu", 0.2),
        init.calculate_gain("leaky_relu", 3),
        raises(lambda: init.calculate_gain("leaky_relu", "x")),
        raises(lambda: init.calculate_gain("leaky_relu", True)),
        raises(lambda: init.calculate_gain("gelu")),
    ]
    return out


@program()
def prog_nn2_init_fan_modes_and_low_dim_errors(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(0)
    w = T.empty(4, 3, 2, 2)
    v = T.empty(3)
    return (
        init._calculate_fan_in_and_fan_out(w),
        init._calculate_correct_fan(w, "fan_in"),
        init._calculate_correct_fan(w, "fan_out"),
        raises(lambda: init._calculate_correct_fan(w, "fan_avg")),
        raises(lambda: init.xavier_uniform_(v)),
        raises(lambda: init.kaiming_normal_(v)),
        raises(lambda: init.orthogonal_(v)),
        raises(lambda: init.sparse_(w, 0.5)),
        raises(lambda: init.eye_(w)),
        raises(lambda: init.dirac_(v)),
        init.kaiming_uniform_(T.empty(3, 2), mode="fan_out", nonlinearity="leaky_relu"),
        init.xavier_normal_(T.empty(2, 3), gain=2.0),
        init.trunc_normal_(T.empty(5), mean=1.0, std=0.1, a=0.9, b=1.05),
        init.orthogonal_(T.empty(2, 5)),
        init.sparse_(T.empty(4, 3), 0.5),
        init.eye_(T.empty(2, 3)),
        init.dirac_(T.empty(4, 2, 3), groups=2),
        raises(lambda: init.dirac_(T.empty(5, 2, 3), groups=2)),
    )


@program()
def prog_nn2_init_integer_and_empty_tensors(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(1)
    return (
        init.constant_(T.empty(2, dtype=T.long), 3),
        init.ones_(T.empty(2, 2, dtype=T.int32)),
        init.zeros_(T.empty(0, 3)),
        raises(lambda: init.uniform_(T.empty(2, dtype=T.long))),
        raises(lambda: init.normal_(T.empty(2, dtype=T.long))),
        init.uniform_(T.empty(0, 3)),
        raises(lambda: init.kaiming_uniform_(T.empty(0, 3))),
        raises(lambda: init.xavier_uniform_(T.empty(0, 3))),
    )


# --- Module API -------------------------------------------------------------------------------


@program()
def prog_nn2_named_modules_remove_duplicate_and_memo(T: Any) -> Any:
    nn = T.nn
    shared = nn.Linear(2, 2)
    m = nn.Sequential(shared, nn.ReLU(), shared, nn.Sequential(shared))
    return (
        [n for n, _ in m.named_modules()],
        [n for n, _ in m.named_modules(remove_duplicate=False)],
        [n for n, _ in m.named_modules(prefix="root")],
        [n for n, _ in m.named_parameters(remove_duplicate=False)],
        [n for n, _ in m.named_children()],
        len(list(m.modules())),
        [n for n, _ in m.named_parameters(prefix="p", recurse=False)],
    )


@program()
def prog_nn2_state_dict_prefix_and_strict_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    sd = m.state_dict(prefix="model.")
    sd2 = {k.removeprefix("model."): v for k, v in sd.items()}
    sd2["1.running_mean"] = T.zeros(4)
    del sd2["0.bias"]
    sd2["2.weight"] = T.zeros(1)
    return (
        list(sd),
        raises(lambda: m.load_state_dict(sd)),
        raises(lambda: m.load_state_dict(sd2)),
        raises(lambda: m.load_state_dict(sd2, strict=False)),
        raises(lambda: m.load_state_dict({"0.weight": [[1.0, 2.0]] * 3}, strict=False)),
    )


@program()
def prog_nn2_register_buffer_non_persistent_and_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Linear(2, 2)
    m.register_buffer("a", T.ones(2), persistent=False)
    m.register_buffer("b", T.zeros(1))
    m.register_buffer("c", None)
    return (
        list(m.state_dict()),
        [n for n, _ in m.named_buffers()],
        raises(lambda: m.register_buffer("weight", T.ones(1))),
        raises(lambda: m.register_buffer("x.y", T.ones(1))),
        raises(lambda: m.register_buffer("", T.ones(1))),
        raises(lambda: m.register_buffer(1, T.ones(1))),
        raises(lambda: m.register_buffer("d", [1.0])),
        raises(lambda: m.register_parameter("e", T.ones(1))),
        raises(lambda: m.add_module("f", T.ones(1))),
        raises(lambda: m.add_module("a", nn.ReLU())),
        raises(lambda: m.add_module("g.h", nn.ReLU())),
        m._non_persistent_buffers_set,
    )


@program()
def prog_nn2_get_submodule_parameter_buffer_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.BatchNorm1d(2)))
    return (
        repr(m.get_submodule("1.0")),
        m.get_submodule("") is m,
        raises(lambda: m.get_submodule("1.5")),
        raises(lambda: m.get_submodule("0.weight")),
        raises(lambda: m.get_parameter("0.nothing")),
        raises(lambda: m.get_parameter("1.0.running_mean")),
        raises(lambda: m.get_buffer("0.weight")),
        raises(lambda: m.get_buffer("1.0.zzz")),
        m.get_buffer("1.0.num_batches_tracked"),
        raises(lambda: m.set_submodule("1.2.x", nn.ReLU())),
        raises(lambda: m.set_submodule("", nn.ReLU())),
    )


@program()
def prog_nn2_repr_extra_repr_nested(T: Any) -> Any:
    nn = T.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3, stride=2, padding=1, bias=False, padding_mode="reflect")
            self.bn = nn.BatchNorm2d(2, eps=1e-3, momentum=None, affine=False)
            self.pool = nn.MaxPool2d(2, ceil_mode=True, return_indices=True)

        def extra_repr(self) -> str:
            return "custom=1\nsecond line"

    m = nn.ModuleDict({"b": Block(), "e": nn.Identity(3, x=4), "l": nn.ModuleList()})
    return repr(m), repr(nn.Sequential()), repr(nn.ParameterList([nn.Parameter(T.ones(2))]))


@program()
def prog_nn2_train_eval_requires_grad_zero_grad(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.Sequential(nn.BatchNorm1d(2)))
    r1 = m.eval()
    flags1 = [x.training for x in m.modules()]
    m.train(False)
    m[2].train()
    flags2 = [x.training for x in m.modules()]
    m.requires_grad_(False)
    m[0].bias.requires_grad_(True)
    y = m[0](T.ones(1, 2)).sum()
    y.backward()
    g1 = m[0].bias.grad.clone()
    m.zero_grad(set_to_none=False)
    g2 = m[0].bias.grad
    m.zero_grad()
    return (
        r1 is m,
        flags1,
        flags2,
        [p.requires_grad for p in m.parameters()],
        g1,
        g2,
        m[0].bias.grad,
        raises(lambda: m.train("yes")),
    )


@program()
def prog_nn2_apply_and_to_empty_and_half(T: Any) -> Any:
    nn = T.nn
    seen = []
    m = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.LayerNorm(2)))
    m.apply(lambda mod: seen.append(type(mod).__name__))
    m.half()
    d1 = [p.dtype for p in m.parameters()]
    m.double()
    d2 = [p.dtype for p in m.parameters()]
    m.to(T.float16)
    d3 = [p.dtype for p in m.parameters()]
    m.float()
    m.to_empty(device="cpu")
    return seen, d1, d2, d3, [p.shape for p in m.parameters()], m.type(T.float64)[0].weight.dtype


# --- normalization layers ---------------------------------------------------------------


@program()
def prog_nn2_batchnorm_momentum_none_cumulative_average(T: Any) -> Any:
    bn = T.nn.BatchNorm2d(2, momentum=None)
    for s in range(3):
        bn(_x(T, 2, 2, 3, 3, seed=50 + s))
    bn.eval()
    y = bn(_x(T, 1, 2, 3, 3, seed=60))
    return bn.running_mean, bn.running_var, bn.num_batches_tracked, y


@program()
def prog_nn2_batchnorm_eval_grad_and_double_backward(T: Any) -> Any:
    bn = _seeded(T, T.nn.BatchNorm1d(3).double(), 30)
    x = T.tensor(_data(4, 3, 2, seed=61), dtype=T.float64, requires_grad=True)
    y = bn(x)
    (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    g.sum().backward()
    bn.eval()
    x2 = x.detach().requires_grad_()
    y2 = bn(x2)
    y2.pow(2).sum().backward()
    return y, g.detach(), x.grad, bn.weight.grad, y2, x2.grad, y.grad_fn, y2.grad_fn


@program()
def prog_nn2_norm_double_backward_node_names(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(4, 3, 2, seed=61), dtype=T.float64, requires_grad=True)
    out = []
    for f in (
        lambda t: F.batch_norm(t, None, None, training=True),
        lambda t: F.layer_norm(t, (2,)),
        lambda t: F.group_norm(t, 3),
    ):
        (g,) = T.autograd.grad(f(x).pow(2).sum(), x, create_graph=True)
        out.append(g.grad_fn)
    return out


@program()
def prog_nn2_instancenorm_track_running_stats(T: Any) -> Any:
    m = T.nn.InstanceNorm2d(2, affine=True, track_running_stats=True, momentum=0.3)
    x = _x(T, 3, 2, 2, 3, seed=62, rg=True)
    y = m(x)
    y.pow(2).sum().backward()
    m.eval()
    return y, x.grad, m.running_mean, m.running_var, m(_x(T, 1, 2, 2, 3, seed=63)), repr(m)


@program()
def prog_nn2_groupnorm_layernorm_grads_and_no_affine(T: Any) -> Any:
    gn = _seeded(T, T.nn.GroupNorm(2, 4, eps=1e-3), 31)
    ln = T.nn.LayerNorm([3, 2], elementwise_affine=False)
    ln2 = _seeded(T, T.nn.LayerNorm(2, bias=False), 32)
    x = _x(T, 2, 4, 3, 2, seed=64, rg=True)
    a = gn(x)
    b = ln(x)
    c = ln2(x)
    (a.pow(2).sum() + b.pow(3).sum() + c.sum()).backward()
    return a, b, c, x.grad, gn.weight.grad, list(ln.state_dict()), list(ln2.state_dict())


@program()
def prog_nn2_rmsnorm_eps_none_and_shapes(T: Any) -> Any:
    m = _seeded(T, T.nn.RMSNorm([3]), 33)
    m2 = T.nn.RMSNorm(3, eps=1e-2, elementwise_affine=False)
    x = _x(T, 2, 3, seed=65, rg=True)
    y = m(x) + m2(x)
    y.pow(2).sum().backward()
    return (
        y,
        x.grad,
        m.weight.grad,
        repr(m),
        repr(m2),
        m(x.half().float()).dtype,
        raises(lambda: m(T.ones(3, 2))),
        T.nn.functional.rms_norm(x.double(), (3,)),
    )


@program()
def prog_nn2_batchnorm_half_input_float_params(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(2)
    x = T.tensor(_data(3, 2, seed=66)).half()
    return raises(lambda: bn(x)), raises(lambda: bn.double()(x))


@program()
def prog_nn2_local_response_norm_and_cross_map(T: Any) -> Any:
    x = _x(T, 2, 5, 3, seed=67, rg=True)
    m = T.nn.LocalResponseNorm(3, alpha=1e-2, beta=0.5, k=2.0)
    y = m(x)
    y.sum().backward()
    return y, x.grad, m(_x(T, 1, 4, 2, 2, seed=68)), raises(lambda: m(T.ones(3, 4))), repr(m)


# --- padding --------------------------------------------------------------------------------


@program()
def prog_nn2_padding_modules_all_modes(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 2, 4, 4, seed=70, rg=True)
    mods = [
        nn.ReflectionPad2d((1, 2, 0, 3)),
        nn.ReplicationPad2d(2),
        nn.ZeroPad2d((1, 0, 2, 1)),
        nn.ConstantPad2d(1, 3.5),
        nn.CircularPad2d((1, 2, 3, 0)),
        nn.ZeroPad2d((-1, 0, 1, -2)),
    ]
    out = []
    for m in mods:
        xx = x.detach().clone().requires_grad_()
        y = m(xx)
        y.pow(2).sum().backward()
        out.append((repr(m), y, xx.grad, y.grad_fn))
    return out


@program()
def prog_nn2_pad_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 3)
    return [
        raises(lambda: F.pad(x, (3, 0), mode="reflect")),
        raises(lambda: F.pad(x, (4, 0), mode="circular")),
        raises(lambda: F.pad(x, (1, 1, 1), mode="constant")),
        raises(lambda: F.pad(x, (1, 1, 1, 1, 1, 1, 1, 1))),
        raises(lambda: F.pad(x, (1, 1), mode="wrap")),
        raises(lambda: F.pad(x, (1, 1, 1, 1), mode="reflect")),
        raises(lambda: F.pad(x, (1, 1), mode="replicate", value=2.0)),
        raises(lambda: F.pad(T.zeros(1, 0, 3), (1, 1), mode="reflect")),
        F.pad(x, (2, 2), mode="reflect"),
        raises(lambda: F.pad(x, (-4, 0))),
        F.pad(x, (1, 1), value=T.tensor(2.0).item()),
    ]


@program()
def prog_nn2_pad_1d_3d_modes_unbatched_and_int(T: Any) -> Any:
    F = T.nn.functional
    x1 = _x(T, 2, 4, seed=71, rg=True)
    x3 = _x(T, 1, 2, 2, 2, seed=72, rg=True)
    a = F.pad(x1, (2, 1), mode="reflect")
    b = F.pad(x3, (1, 1, 0, 1, 1, 0), mode="replicate")
    c = F.pad(x3, (1, 0, 1, 0, 1, 0), mode="circular")
    (a.sum() + b.pow(2).sum() + c.pow(3).sum()).backward()
    i = T.arange(6).reshape(1, 2, 3)
    return (
        a,
        b,
        c,
        x1.grad,
        x3.grad,
        F.pad(i, (1, 1), mode="replicate"),
        F.pad(i, (1, 1), value=7),
        F.pad(i.bool(), (1, 0), value=1),
        raises(lambda: F.pad(i, (1, 1), mode="reflect")),
    )


# --- interpolate / Upsample -------------------------------------------------------------------


@program()
def prog_nn2_interpolate_modes_align_corners_and_scale_factor(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 3, 4, seed=73, rg=True)
    out = []
    for kw in (
        {"size": (5, 7), "mode": "bilinear", "align_corners": True},
        {"scale_factor": 1.7, "mode": "bilinear"},
        {"scale_factor": (0.5, 1.5), "mode": "nearest"},
        {"scale_factor": 2.3, "mode": "nearest-exact"},
        {"size": 6, "mode": "bicubic", "align_corners": False},
        {"scale_factor": 1.5, "mode": "bilinear", "recompute_scale_factor": True},
        {"size": (2, 3), "mode": "area"},
        {"scale_factor": 0.6, "mode": "bicubic", "antialias": True},
    ):
        xx = x.detach().clone().requires_grad_()
        y = F.interpolate(xx, **kw)
        y.pow(2).sum().backward()
        out.append((y, xx.grad, y.grad_fn))
    return out


@program()
def prog_nn2_interpolate_errors_and_warnings(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 3, 4, seed=74)
    return [
        raises(lambda: F.interpolate(x)),
        raises(lambda: F.interpolate(x, size=3, scale_factor=2)),
        raises(lambda: F.interpolate(x, size=(1, 2, 3))),
        raises(lambda: F.interpolate(x, scale_factor=2, mode="linear")),
        raises(lambda: F.interpolate(x, scale_factor=2, mode="trilinear")),
        raises(lambda: F.interpolate(x, scale_factor=2, mode="nearest", align_corners=True)),
        raises(lambda: F.interpolate(x, scale_factor=2, mode="foo")),
        raises(lambda: F.interpolate(x[0, 0, 0], scale_factor=2)),
        raises(lambda: F.interpolate(x, size=(0, 2))),
        raises(lambda: F.interpolate(x, scale_factor=2, antialias=True)),
        raises(lambda: F.interpolate(x, scale_factor=(2, 2, 2))),
        F.interpolate(x, scale_factor=2, mode="bilinear"),
        raises(lambda: F.upsample(x, scale_factor=2)),
        raises(lambda: F.interpolate(x.long(), scale_factor=2)),
    ]


@program()
def prog_nn2_upsample_modules_and_repr(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 2, 3, seed=75, rg=True)
    u1 = nn.Upsample(scale_factor=2, mode="linear", align_corners=True)
    u2 = nn.UpsamplingNearest2d(scale_factor=2)
    u3 = nn.UpsamplingBilinear2d(size=(3, 4))
    y = u1(x)
    y.sum().backward()
    x4 = _x(T, 1, 1, 2, 2, seed=76)
    return (
        y,
        x.grad,
        repr(u1),
        repr(u2),
        repr(u3),
        u2(x4),
        u3(x4),
        nn.Upsample(size=(2, 3, 4), mode="trilinear")(_x(T, 1, 1, 2, 2, 2, seed=77)),
        repr(nn.Upsample(scale_factor=(2.0, 3.0), mode="nearest")),
    )


@program()
def prog_nn2_interpolate_integer_and_uint8_nearest(T: Any) -> Any:
    F = T.nn.functional
    u = T.arange(12, dtype=T.uint8).reshape(1, 1, 3, 4)
    return (
        F.interpolate(u, scale_factor=2),
        F.interpolate(u, size=(2, 3), mode="nearest-exact"),
        raises(lambda: F.interpolate(u.long(), size=(5, 5), mode="bilinear")),
        raises(lambda: F.interpolate(u[0], size=5, mode="linear")),
        F.interpolate(u.float().to(T.float64), size=(2, 2), mode="area").dtype,
    )


@program()
def prog_nn2_interpolate_uint8_bilinear_bicubic(T: Any) -> Any:
    import numpy as np

    F = T.nn.functional
    u = T.arange(12, dtype=T.uint8).reshape(1, 1, 3, 4) * 20
    img = T.tensor(np.random.default_rng(7).integers(0, 256, (2, 3, 5, 6)).astype(np.uint8))
    wide = T.tensor(np.random.default_rng(8).integers(0, 256, (1, 5, 6, 4)).astype(np.uint8))
    out = [
        F.interpolate(u, size=(5, 7), mode=mode, antialias=aa)
        for mode in ("bilinear", "bicubic")
        for aa in (False, True)
    ]
    cl = img.contiguous(memory_format=T.channels_last)
    for kw in (
        {"size": (9, 4), "mode": "bicubic"},
        {"scale_factor": (0.5, 1.7), "mode": "bilinear", "align_corners": True},
        {"size": (3, 11), "mode": "bicubic", "antialias": True},
        {"scale_factor": 0.4, "mode": "bilinear", "antialias": True},
    ):
        y = F.interpolate(cl, **kw)
        out.append((y, y.is_contiguous(memory_format=T.channels_last)))
    # more than 4 channels: torch's generic kernel (its output width 1 repeats the first row)
    out.append(F.interpolate(wide, size=(9, 1), mode="bilinear"))
    out.append(F.interpolate(wide, size=(3, 7), mode="bicubic", antialias=True))
    return out


# --- Fold / Unfold / PixelShuffle ------------------------------------------------------------


@program()
def prog_nn2_unfold_fold_round_trip_options(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, 5, 6, seed=80, rg=True)
    unf = nn.Unfold(kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
    cols = unf(x)
    fold = nn.Fold(
        output_size=(5, 6), kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1)
    )
    back = fold(cols)
    back.pow(2).sum().backward()
    ones = fold(unf(T.ones(1, 3, 5, 6)))
    return cols.shape, cols, back, x.grad, ones, repr(unf), repr(fold), back.grad_fn


@program()
def prog_nn2_fold_unfold_unbatched_and_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 4, 4, seed=81)
    return [
        F.unfold(x, 2),
        F.fold(_x(T, 8, 9, seed=82), (4, 4), 2, stride=1),
        raises(lambda: F.unfold(_x(T, 4, 4), 2)),
        raises(lambda: F.unfold(x, 5)),
        raises(lambda: F.fold(_x(T, 1, 7, 9), (4, 4), 2)),
        raises(lambda: F.fold(_x(T, 1, 8, 8), (4, 4), 2, stride=1)),
        raises(lambda: F.fold(_x(T, 1, 8, 9), (4, 4), 0)),
        raises(lambda: F.unfold(x, 2, stride=0)),
        raises(lambda: F.fold(_x(T, 8, 9), (4, 4, 4), 2)),
        raises(lambda: F.unfold(_x(T, 1, 2, 2, 2, 2), 2)),
    ]


@program()
def prog_nn2_pixel_shuffle_unshuffle_and_errors(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 8, 2, 3, seed=83, rg=True)
    ps = nn.PixelShuffle(2)
    pu = nn.PixelUnshuffle(2)
    y = ps(x)
    z = pu(y)
    (y.pow(2).sum() + z.sum()).backward()
    return (
        y,
        z.equal(x),
        x.grad,
        y.grad_fn,
        repr(ps),
        repr(pu),
        ps(_x(T, 4, 1, 1, seed=84)),
        ps(T.arange(16).reshape(1, 1, 4, 2, 2)),
        raises(lambda: ps(_x(T, 1, 3, 2, 2))),
        raises(lambda: pu(_x(T, 1, 1, 3, 4))),
        raises(lambda: ps(_x(T, 4, 2))),
        ps(T.zeros(0, 4, 2, 2)).shape,
    )


@program()
def prog_nn2_channel_shuffle(T: Any) -> Any:
    nn = T.nn
    x = T.arange(24.0).reshape(1, 6, 2, 2).requires_grad_()
    y = nn.ChannelShuffle(3)(x)
    y.sum().backward()
    return (
        y,
        x.grad,
        repr(nn.ChannelShuffle(2)),
        raises(lambda: nn.ChannelShuffle(4)(x)),
        raises(lambda: nn.ChannelShuffle(0)(x)),
        nn.functional.channel_shuffle(T.arange(8).reshape(1, 4, 2), 2),
    )


# --- more Transformer / attention ------------------------------------------------------------


@program()
def prog_nn2_decoder_stack_with_norm_and_memory_mask(T: Any) -> Any:
    layer = T.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0)
    dec = _seeded(T, T.nn.TransformerDecoder(layer, 2, norm=T.nn.LayerNorm(4)), 40)
    tgt = _x(T, 3, 2, 4, seed=90, rg=True)
    mem = _x(T, 4, 2, 4, seed=91, rg=True)
    mm = T.zeros(3, 4, dtype=T.bool)
    mm[0, 1:] = True
    y = dec(tgt, mem, memory_mask=mm, tgt_key_padding_mask=T.tensor([[False, False, True]] * 2))
    y.sum().backward()
    return y, tgt.grad, mem.grad, y.grad_fn


@program()
def prog_nn2_transformer_layer_relu_activation_string_and_repr(T: Any) -> Any:
    nn = T.nn
    e = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation="relu", bias=False)
    d = nn.TransformerDecoderLayer(4, 2, 8, activation=T.nn.GELU())
    return (
        repr(e),
        sorted(n for n, _ in e.named_parameters()),
        repr(d.activation),
        e.activation_relu_or_gelu,
        d.norm_first,
        repr(nn.TransformerEncoder(e, 1, enable_nested_tensor=False).layers),
    )


@program()
def prog_nn2_mha_3d_attn_mask_per_head_and_batch(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 41)
    q = _x(T, 2, 3, 4, seed=92, rg=True)
    k = _x(T, 2, 5, 4, seed=93)
    am = T.zeros(4, 3, 5)
    am[1, :, 2] = -T.inf
    am[3, 0] = -1.0
    o, w = mha(q, k, k, attn_mask=am, average_attn_weights=False)
    o.sum().backward()
    bm = T.zeros(4, 3, 5, dtype=T.bool)
    bm[0, :, :2] = True
    o2, w2 = mha(q, k, k, attn_mask=bm)
    return o, w, q.grad, o2, w2


@program()
def prog_nn2_mha_unbatched_and_need_weights_false(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, kdim=3, vdim=3), 42)
    q = _x(T, 2, 4, seed=94, rg=True)
    k = _x(T, 5, 3, seed=95, rg=True)
    o, w = mha(q, k, k, key_padding_mask=T.tensor([False, True, False, False, True]))
    o.pow(2).sum().backward()
    o2, w2 = mha(q, k, k, need_weights=False)
    return o, w, q.grad, k.grad, o2, w2


@program()
def prog_nn2_mha_eval_no_grad_and_dropout_zero_in_eval(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, dropout=0.5, batch_first=True), 43).eval()
    q = _x(T, 2, 3, 4, seed=96)
    with T.no_grad():
        o1, w1 = mha(q, q, q)
    o2, w2 = mha(q, q, q)
    return o1, w1, o2.detach(), w2.detach(), o2.grad_fn is not None


@program()
def prog_nn2_functional_mha_forward_direct(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 12, 4, seed=97, rg=True)
    b = _x(T, 12, seed=98, rg=True)
    ow = _x(T, 4, 4, seed=99, rg=True)
    ob = _x(T, 4, seed=100)
    q = _x(T, 3, 2, 4, seed=101)
    o, a = F.multi_head_attention_forward(
        q, q, q, 4, 2, w, b, None, None, False, 0.0, ow, ob, training=False,
        key_padding_mask=T.tensor([[False, True, False], [False, False, False]]),
    )  # fmt: skip
    o.sum().backward()
    return o, a, w.grad, b.grad, ow.grad


@program()
def prog_nn2_sdpa_3d_and_5d_batch_broadcast_mask(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 2, 3, 2, 4, 5, seed=102, rg=True)
    k = _x(T, 2, 3, 2, 6, 5, seed=103, rg=True)
    m = T.ones(4, 6, dtype=T.bool).tril()
    y = F.scaled_dot_product_attention(q, k, k, attn_mask=m)
    y.sum().backward()
    q3 = _x(T, 2, 4, 5, seed=104)
    return y, q.grad, k.grad, y.grad_fn, F.scaled_dot_product_attention(q3, q3, q3, is_causal=True)


@program()
def prog_nn2_sdpa_mask_broadcast_shapes_4d(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 2, 2, 3, 4, seed=105, rg=True)
    out = []
    for shape in ((1, 1, 3, 3), (2, 1, 1, 3), (1, 2, 3, 1), (3, 3), (1, 3)):
        m = T.tensor(_data(*shape, seed=106))
        y = F.scaled_dot_product_attention(q, q, q, attn_mask=m)
        out.append((shape, y, y.grad_fn))
    out.append(raises(lambda: F.scaled_dot_product_attention(q, q, q, attn_mask=T.zeros(3))))
    out.append(
        raises(lambda: F.scaled_dot_product_attention(q, q, q, attn_mask=T.zeros(2, 2, 2, 3, 3)))
    )
    out.append(
        raises(
            lambda: F.scaled_dot_product_attention(
                q, q, q, attn_mask=T.zeros(3, 3, dtype=T.float64)
            )
        )
    )
    out.append(
        F.scaled_dot_product_attention(q.double(), q.double(), q.double(), attn_mask=T.zeros(3, 3))
    )
    return out


@program()
def prog_nn2_sdpa_half_and_negative_scale(T: Any) -> Any:
    F = T.nn.functional
    q = _x(T, 1, 2, 3, 4, seed=107)
    k = _x(T, 1, 2, 5, 4, seed=108)
    return (
        F.scaled_dot_product_attention(q.half(), k.half(), k.half()),
        F.scaled_dot_product_attention(q, k, k, scale=-0.5),
        F.scaled_dot_product_attention(q, k, k, scale=-0.5, is_causal=True),
        F.scaled_dot_product_attention(q[0], k[0], k[0], scale=-0.5, is_causal=True),
        F.scaled_dot_product_attention(q, k, k, scale=0.0),
    )


@program()
def prog_nn2_sdpa_transposed_inputs_layout(T: Any) -> Any:
    F = T.nn.functional
    base = _x(T, 2, 3, 2, 4, seed=109, rg=True)
    q = base.transpose(1, 2)
    y = F.scaled_dot_product_attention(q, q, q)
    z = y.transpose(1, 2).reshape(2, 3, 8)
    z.pow(2).sum().backward()
    return y.stride(), y.is_contiguous(), z.grad_fn, base.grad, y


# --- more RNN ----------------------------------------------------------------------------------


@program()
def prog_nn2_lstm_float64_and_dropout_eval(T: Any) -> Any:
    m = _seeded(T, T.nn.LSTM(3, 4, num_layers=2, dropout=0.3), 50).double().eval()
    x = T.tensor(_data(5, 2, 3, seed=110), dtype=T.float64, requires_grad=True)
    out, (h, c) = m(x)
    (out.sum() + c.pow(2).sum()).backward()
    return out, h, c, x.grad, m.weight_ih_l1.grad, out.grad_fn


@program()
def prog_nn2_gru_empty_sequence_and_batch(T: Any) -> Any:
    m = _seeded(T, T.nn.GRU(2, 3), 51)
    return (
        raises(lambda: m(T.zeros(0, 2, 2))),
        m(T.zeros(3, 0, 2))[0].shape,
        raises(lambda: T.nn.RNN(2, 3)(T.zeros(3, 2, 3))),
        raises(lambda: m(T.zeros(3, 2, 2, dtype=T.float64))),
        raises(lambda: m(T.zeros(3, 2, 2, dtype=T.long))),
    )


@program()
def prog_nn2_rnn_weights_modified_after_flatten_and_state_dict_load(T: Any) -> Any:
    m = T.nn.GRU(2, 3, bidirectional=True)
    sd = {k: T.full_like(v, 0.1) for k, v in m.state_dict().items()}
    r = m.load_state_dict(sd)
    x = _x(T, 4, 1, 2, seed=111)
    out, h = m(x)
    with T.no_grad():
        m.weight_hh_l0.mul_(2)
    out2, _ = m(x)
    return str(r), out, h, out2


@program()
def prog_nn2_lstm_cell_and_gru_cell_grads_and_no_hx(T: Any) -> Any:
    c = _seeded(T, T.nn.LSTMCell(3, 2, bias=False), 52)
    g = _seeded(T, T.nn.GRUCell(3, 2), 53)
    x = _x(T, 4, 3, seed=112, rg=True)
    h, cc = c(x)
    h2 = g(x, h)
    (h2.sum() + cc.pow(2).sum()).backward()
    return h, cc, h2, x.grad, c.weight_hh.grad, g.bias_hh.grad, h2.grad_fn, list(c.state_dict())


@program()
def prog_nn2_packed_sequence_methods_and_to(T: Any) -> Any:
    U = T.nn.utils.rnn
    p = U.pack_sequence([T.tensor([1.0, 2.0, 3.0]), T.tensor([4.0, 5.0])])
    d = p.double()
    return (
        type(p).__name__,
        p._fields,
        d.data.dtype,
        p.is_cuda,
        p.to(T.float64).data.dtype,
        p.data.is_pinned(),
        U.pad_packed_sequence(p, batch_first=True),
        U.PackedSequence(T.ones(3), T.tensor([2, 1])).batch_sizes,
        raises(lambda: U.PackedSequence(T.ones(3), [2, 1])),
    )


@program()
def prog_nn2_pad_sequence_errors_and_options(T: Any) -> Any:
    U = T.nn.utils.rnn
    a, b = T.ones(2, 3), T.zeros(4, 3)
    return (
        U.pad_sequence([a, b], batch_first=True, padding_value=-2.0),
        U.pad_sequence([a, b], batch_first=True, padding_side="left").shape,
        raises(lambda: U.pad_sequence([a, T.zeros(4, 2)])),
        raises(lambda: U.pad_sequence([a, b], padding_side="middle")),
        raises(lambda: U.pad_sequence([])),
        U.pad_sequence([T.tensor(1.0), T.tensor(2.0)]) if False else None,
        U.pad_sequence((T.arange(3), T.arange(1))),
    )


# --- more Embedding ------------------------------------------------------------------------


@program()
def prog_nn2_embedding_padding_idx_grad_zero_and_double_backward(T: Any) -> Any:
    e = _seeded(T, T.nn.Embedding(4, 2, padding_idx=0), 54).double()
    idx = T.tensor([[0, 1], [3, 0]])
    y = e(idx)
    (g,) = T.autograd.grad(y.pow(2).sum(), e.weight, create_graph=True)
    g.sum().backward()
    return y, g, e.weight.grad, y.grad_fn, g.grad_fn


@program()
def prog_nn2_embedding_max_norm_shared_indices_and_norm_type_inf(T: Any) -> Any:
    F = T.nn.functional
    w = T.tensor(_data(4, 3, seed=113)) * 3
    idx = T.tensor([1, 1, 3])
    y = F.embedding(idx, w, max_norm=1.0, norm_type=float("inf"))
    w2 = T.tensor(_data(4, 3, seed=114)) * 3
    y2 = F.embedding(T.tensor([[2, 0], [2, 2]]), w2, max_norm=2.0)
    return y, w, y2, w2


@program()
def prog_nn2_embedding_bag_empty_bags_and_max_grad(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 5, 2, seed=115, rg=True)
    idx = T.tensor([3, 1, 1, 4])
    off = T.tensor([0, 0, 3, 4])
    out = []
    for mode in ("sum", "mean", "max"):
        ww = w.detach().clone().requires_grad_()
        y = F.embedding_bag(idx, ww, off, mode=mode)
        y.pow(2).sum().backward()
        out.append((y, ww.grad))
    return out, F.embedding_bag(T.tensor([], dtype=T.long), w, T.tensor([0, 0]))


@program()
def prog_nn2_embedding_bag_int32_offsets_and_dtype_errors(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 5, 2, seed=116)
    return (
        F.embedding_bag(T.tensor([1, 2, 3], dtype=T.int32), w, T.tensor([0, 1], dtype=T.int32)),
        raises(lambda: F.embedding_bag(T.tensor([1, 2, 3]), w, T.tensor([0, 1], dtype=T.int32))),
        raises(lambda: F.embedding_bag(T.tensor([1.0, 2.0]), w, T.tensor([0]))),
        raises(lambda: F.embedding_bag(T.tensor([[1, 2]]), w, T.tensor([0]))),
        raises(lambda: F.embedding_bag(T.tensor([1, 7]), w, T.tensor([0]))),
        raises(lambda: F.embedding_bag(T.tensor([1, 2]), w, T.tensor([[0]]))),
        F.embedding_bag(T.tensor([[1, 2], [0, 4]]), w, mode="max", padding_idx=4),
    )


# --- Module API, more -------------------------------------------------------------------------


@program()
def prog_nn2_module_setattr_delattr_and_dir(T: Any) -> Any:
    nn = T.nn
    m = nn.Linear(2, 2)
    m.extra = nn.ReLU()
    m.buf_holder = None
    m.register_buffer("buf", T.ones(1))
    m.buf = T.zeros(1)
    r1 = raises(lambda: setattr(m, "buf", 3))
    del m.extra
    r2 = raises(lambda: m.extra)
    r3 = raises(lambda: setattr(m, "weight", T.ones(2, 2)))
    m.weight = None
    del m.bias
    return (
        r1,
        r2,
        r3,
        m.weight,
        list(m.state_dict()),
        "buf" in dir(m),
        "extra" in dir(m),
        raises(lambda: m.nothing),
        hasattr(m, "bias"),
    )


@program()
def prog_nn2_module_half_buffers_and_float_only(T: Any) -> Any:
    nn = T.nn
    m = nn.BatchNorm1d(2)
    m.register_buffer("idx", T.tensor([1, 2]))
    m.half()
    d1 = (m.weight.dtype, m.running_mean.dtype, m.num_batches_tracked.dtype, m.idx.dtype)
    m.to(T.complex64) if False else None
    m.double()
    d2 = (m.weight.dtype, m.running_mean.dtype, m.num_batches_tracked.dtype, m.idx.dtype)
    m.float()
    return d1, d2, raises(lambda: m.to(T.int32)), raises(lambda: m.to("cpu", T.long))


@program()
def prog_nn2_parameters_recurse_and_buffers_recurse(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    m.register_parameter("top", nn.Parameter(T.ones(1)))
    m.register_buffer("tb", T.ones(1))
    return (
        [n for n, _ in m.named_parameters(recurse=False)],
        [n for n, _ in m.named_buffers(recurse=False)],
        [n for n, _ in m.named_buffers()],
        len(list(m.parameters(recurse=False))),
        [n for n, _ in m.named_buffers(prefix="x", remove_duplicate=False)],
        list(m.state_dict(keep_vars=True)),
    )


@program()
def prog_nn2_sequential_append_insert_extend_pop(T: Any) -> Any:
    nn = T.nn
    s = nn.Sequential(nn.ReLU())
    s.append(nn.Tanh())
    s.insert(0, nn.Sigmoid())
    s.extend([nn.Identity()])
    s.insert(-1, nn.Softsign())
    p = s.pop(1)
    del s[0]
    return (
        repr(s),
        repr(p),
        [type(m).__name__ for m in s],
        raises(lambda: s.insert(10, nn.ReLU())),
        raises(lambda: s[10]),
        raises(lambda: s.append(3)),
        repr(s + nn.Sequential(nn.ReLU())),
        len(s),
        s(T.tensor([1.0, -2.0])),
    )


@program()
def prog_nn2_moduledict_update_and_errors(T: Any) -> Any:
    nn = T.nn
    d = nn.ModuleDict({"a": nn.ReLU()})
    d.update({"b": nn.Tanh()})
    d.update([("c", nn.Sigmoid())])
    d["a"] = nn.Identity()
    popped = d.pop("b")
    return (
        list(d.keys()),
        repr(popped),
        "c" in d,
        raises(lambda: d.update(nn.ReLU())),
        raises(lambda: d.update([("x", nn.ReLU(), 1)])),
        raises(lambda: d["zz"]),
        raises(lambda: nn.ModuleDict({"a.b": nn.ReLU()})),
        repr(d),
    )


@program()
def prog_nn2_parameterdict_and_list_repr_and_types(T: Any) -> Any:
    nn = T.nn
    pd = nn.ParameterDict({"w": nn.Parameter(T.ones(2)), "t": T.zeros(1), "s": "str"})
    pl = nn.ParameterList([T.ones(2, 3), nn.Parameter(T.zeros(1)), 5])
    return (
        repr(pd),
        repr(pl),
        type(pd["t"]).__name__,
        pd["t"].requires_grad,
        type(pl[0]).__name__,
        pl[2],
        [n for n, _ in pd.named_parameters()],
        [n for n, _ in pl.named_parameters()],
    )


@program()
def prog_nn2_state_dict_load_shape_mismatch_scalar_and_missing_num_batches(T: Any) -> Any:
    nn = T.nn
    bn = nn.BatchNorm1d(2)
    sd = bn.state_dict()
    sd["num_batches_tracked"] = T.tensor([3])
    r1 = raises(lambda: bn.load_state_dict(sd))
    sd2 = nn.BatchNorm1d(2).state_dict()
    sd2["running_mean"] = T.tensor(1.0)
    r2 = raises(lambda: bn.load_state_dict(sd2))
    sd3 = nn.BatchNorm1d(2).state_dict()
    sd3["weight"] = nn.Parameter(T.tensor([2.0, 3.0]))
    bn.load_state_dict(sd3)
    return r1, r2, bn.weight, type(bn.weight).__name__


@program()
def prog_nn2_register_module_and_children_order(T: Any) -> Any:
    nn = T.nn
    m = nn.Module()
    m.register_module("b", nn.ReLU())
    m.add_module("a", nn.Tanh())
    m.register_module("n", None)
    return (
        [n for n, _ in m.named_children()],
        repr(m),
        raises(lambda: m.register_module("c", 3)),
        raises(lambda: m()),
        m.training,
    )


# --- normalization, more -------------------------------------------------------------------


@program()
def prog_nn2_batchnorm_train_single_value_per_channel_error(T: Any) -> Any:
    nn = T.nn
    return (
        raises(lambda: nn.BatchNorm1d(3)(T.ones(1, 3))),
        raises(lambda: nn.BatchNorm2d(3)(T.ones(1, 3, 1, 1))),
        nn.BatchNorm2d(3)(T.ones(1, 3, 1, 2)),
        nn.BatchNorm1d(3).eval()(T.ones(1, 3)),
        raises(lambda: nn.InstanceNorm1d(3)(T.ones(1, 3, 1))),
        raises(lambda: nn.BatchNorm1d(3)(T.ones(2, 4))),
        raises(lambda: nn.BatchNorm3d(3)(T.ones(2, 3, 2, 2))),
    )


@program()
def prog_nn2_functional_batch_norm_args_and_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 4, 3, seed=120, rg=True)
    rm, rv = T.zeros(3), T.ones(3)
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.5)
    y.pow(2).sum().backward()
    return (
        y,
        x.grad,
        rm,
        rv,
        F.batch_norm(x.detach(), None, None, training=True),
        raises(lambda: F.batch_norm(x, None, None, training=False)),
        raises(lambda: F.batch_norm(x, T.zeros(2), T.ones(2))),
        raises(lambda: F.batch_norm(x, rm, rv, weight=T.ones(4))),
        F.batch_norm(x.detach(), rm, rv, weight=T.ones(3) * 2, bias=T.ones(3), eps=0.1),
    )


@program()
def prog_nn2_instance_norm_functional_use_input_stats(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 4, seed=121, rg=True)
    rm, rv = T.zeros(3), T.ones(3)
    y = F.instance_norm(x, rm, rv, use_input_stats=True, momentum=0.2)
    y.pow(2).sum().backward()
    y2 = F.instance_norm(x.detach(), rm, rv, use_input_stats=False)
    return y, x.grad, rm, rv, y2, raises(lambda: F.instance_norm(x, use_input_stats=False))


@program()
def prog_nn2_group_norm_functional_and_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 6, 3, seed=122, rg=True)
    y = F.group_norm(x, 3, T.ones(6) * 2, T.zeros(6))
    y.pow(3).sum().backward()
    return (
        y,
        x.grad,
        y.grad_fn,
        raises(lambda: F.group_norm(x, 4)),
        raises(lambda: F.group_norm(x, 3, T.ones(5))),
        F.group_norm(T.zeros(0, 6, 3), 3).shape,
        raises(lambda: F.group_norm(T.ones(6), 3)),
        F.group_norm(x.detach().double(), 2),
    )


@program()
def prog_nn2_layer_norm_functional_edge_cases(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, seed=123, rg=True)
    y = F.layer_norm(x, (3,), T.ones(3), None, eps=1e-2)
    (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    g.sum().backward()
    return (
        y,
        g.detach(),
        x.grad,
        y.grad_fn,
        F.layer_norm(T.ones(2, 3), [3]),
        F.layer_norm(T.zeros(0, 3), [3]).shape,
        raises(lambda: F.layer_norm(x, (2,))),
        raises(lambda: F.layer_norm(x, (3,), T.ones(2))),
        F.layer_norm(x.detach().half(), (3,)).dtype,
    )


@program()
def prog_nn2_sync_batchnorm_cpu_and_convert(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Conv2d(1, 2, 1), nn.BatchNorm2d(2))
    c = nn.SyncBatchNorm.convert_sync_batchnorm(m)
    return (
        repr(c),
        type(c[1]).__name__,
        raises(lambda: c[1](T.ones(2, 2, 2, 2))),
        raises(lambda: nn.SyncBatchNorm(2)(T.ones(2))),
    )


# --- conv / pooling / misc layers from common_modules -------------------------------------


@program()
def prog_nn2_conv_padding_modes_transposed_and_errors(T: Any) -> Any:
    nn = T.nn
    out = []
    for mode in ("zeros", "reflect", "replicate", "circular"):
        c = _seeded(T, nn.Conv1d(2, 3, 3, padding=2, padding_mode=mode, dilation=2), 60)
        x = _x(T, 1, 2, 5, seed=124, rg=True)
        y = c(x)
        y.pow(2).sum().backward()
        out.append((mode, y, x.grad, c.weight.grad, y.grad_fn))
    out.append(raises(lambda: nn.ConvTranspose2d(2, 3, 3, padding_mode="reflect")))
    out.append(raises(lambda: nn.Conv2d(2, 3, 3, padding="same", stride=2)))
    out.append(raises(lambda: nn.Conv2d(2, 3, 3, padding="valid2")))
    out.append(repr(nn.Conv2d(2, 4, 3, padding="same", groups=2, padding_mode="circular")))
    return out


@program()
def prog_nn2_conv_same_padding_even_kernel_asymmetric(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 5, 6, seed=125, rg=True)
    w = _x(T, 2, 1, 2, 4, seed=126, rg=True)
    y = F.conv2d(x, w, padding="same", dilation=(2, 1))
    y.sum().backward()
    return y, x.grad, w.grad, y.grad_fn, F.conv1d(x[0, :, 0], w[:, :, 0], padding="valid").shape


@program()
def prog_nn2_pooling_return_indices_and_unpool_errors(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 1, 4, 4, seed=127, rg=True)
    y, i = nn.MaxPool2d(2, stride=2, return_indices=True)(x)
    up = nn.MaxUnpool2d(2, stride=2)
    z = up(y, i, output_size=(5, 5))
    z.sum().backward()
    return (
        y,
        i,
        z,
        x.grad,
        raises(lambda: up(y, i, output_size=(7, 7))),
        raises(lambda: up(y, i.float())),
        up(y, i, output_size=[1, 1, 4, 4]).shape,
        repr(up),
    )


@program()
def prog_nn2_lp_pool_and_adaptive_max_1d_3d(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 6, seed=128, rg=True)
    a = F.lp_pool1d(x, 2.0, 3)
    b = F.adaptive_max_pool1d(x, 4, return_indices=True)
    x3 = _x(T, 1, 1, 3, 4, 5, seed=129, rg=True)
    c = F.adaptive_max_pool3d(x3, (2, 2, 3))
    d = F.lp_pool3d(x3.abs(), 1, 2) if hasattr(F, "lp_pool3d") else None
    (a.sum() + b[0].sum() + c.sum()).backward()
    return a, b, c, d, x.grad, x3.grad


@program()
def prog_nn2_bilinear_and_identity_and_flatten(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Bilinear(2, 3, 4), 61)
    a = _x(T, 5, 2, seed=130, rg=True)
    b = _x(T, 5, 3, seed=131, rg=True)
    y = m(a, b)
    y.sum().backward()
    m2 = _seeded(T, nn.Bilinear(2, 3, 4, bias=False), 62)
    return (
        y,
        a.grad,
        b.grad,
        m.weight.grad,
        y.grad_fn,
        m2(a[0], b[0]),
        repr(m),
        raises(lambda: m(a, b[:4])),
        nn.Flatten(0, -1)(T.ones(2, 3)).shape,
        nn.Unflatten(1, (2, 2))(T.ones(3, 4)).shape,
    )


@program()
def prog_nn2_cosine_pairwise_distance_modules(T: Any) -> Any:
    nn = T.nn
    a = _x(T, 3, 4, seed=132, rg=True)
    b = _x(T, 1, 4, seed=133, rg=True)
    c = nn.CosineSimilarity(dim=1, eps=1e-6)(a, b)
    d = nn.PairwiseDistance(p=1.5, keepdim=True)(a, b)
    (c.sum() + d.sum()).backward()
    return (
        c,
        d,
        a.grad,
        b.grad,
        repr(nn.PairwiseDistance()),
        nn.CosineSimilarity(0)(T.zeros(3), T.zeros(3)),
    )


@program()
def prog_nn2_softmax_modules_dim_none_warning(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, seed=134)
    return (
        nn.Softmax()(x),
        nn.LogSoftmax()(x[0]),
        nn.Softmin()(_x(T, 2, 2, 2, seed=135)),
        repr(nn.Softmax(dim=1)),
        nn.functional.softmax(x, dim=1, dtype=T.float64),
        nn.functional.log_softmax(x, 0, _stacklevel=5),
    )


@program()
def prog_nn2_adaptive_avg_pool_nonuniform_and_grads(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 2, 5, 7, seed=136, rg=True)
    y = nn.AdaptiveAvgPool2d((3, None))(x)
    z = nn.AdaptiveAvgPool2d(4)(x)
    (y.sum() + z.pow(2).sum()).backward()
    return y, z, x.grad, y.grad_fn, nn.AdaptiveAvgPool1d(3)(_x(T, 2, 7, seed=137))


# --- batch 3: module_db inputs and options ---------------------------------------------


@program()
def prog_nn2_transformer_encoder_nested_tensor_warnings(T: Any) -> Any:
    nn = T.nn
    a = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=False)
    enc = nn.TransformerEncoder(a, 1)
    b = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True, norm_first=True)
    enc2 = nn.TransformerEncoder(b, 1)
    c = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True, activation=T.tanh)
    enc3 = nn.TransformerEncoder(c, 1, enable_nested_tensor=True)
    return enc.use_nested_tensor, enc2.use_nested_tensor, enc3.use_nested_tensor


@program()
def prog_nn2_mha_key_not_value_batch_first_and_grads(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True, bias=False), 70)
    q = _x(T, 2, 3, 4, seed=140, rg=True)
    k = _x(T, 2, 5, 4, seed=141, rg=True)
    v = _x(T, 2, 5, 4, seed=142, rg=True)
    o, w = mha(q, k, v)
    o2, w2 = mha(q, k, k)
    (o.sum() + o2.pow(2).sum() + w.sum()).backward()
    return o, w, o2, w2, q.grad, k.grad, v.grad, mha.in_proj_weight.grad, mha.out_proj.bias


@program()
def prog_nn2_mha_repr_and_attributes(T: Any) -> Any:
    nn = T.nn
    a = nn.MultiheadAttention(6, 3, kdim=4, vdim=5, add_bias_kv=True)
    return (
        repr(a),
        a.head_dim,
        a._qkv_same_embed_dim,
        a.in_proj_weight,
        a.bias_k.shape,
        a.out_proj.__class__.__name__,
        sorted(a.state_dict()),
        raises(lambda: nn.MultiheadAttention(0, 1)),
        raises(lambda: nn.MultiheadAttention(4, 0)),
    )


@program()
def prog_nn2_rnn_proj_errors_and_weight_shapes(T: Any) -> Any:
    nn = T.nn
    return (
        raises(lambda: nn.GRU(2, 3, proj_size=1)),
        raises(lambda: nn.RNN(2, 3, proj_size=1)),
        raises(lambda: nn.LSTM(2, 3, proj_size=-1)),
        [tuple(p.shape) for p in nn.LSTM(2, 4, proj_size=3, bidirectional=True).parameters()],
        raises(lambda: nn.LSTM(2, 3)(T.ones(3, 2), (T.zeros(1, 3),))),
        raises(lambda: nn.LSTM(2, 3)(T.ones(3, 1, 2), T.zeros(1, 1, 3))),
        raises(lambda: nn.GRU(2, 3)(T.ones(3, 1, 2), (T.zeros(1, 1, 3), T.zeros(1, 1, 3)))),
    )


@program()
def prog_nn2_rnn_tanh_vs_relu_batch_first_packed(T: Any) -> Any:
    U = T.nn.utils.rnn
    out = []
    for nl in ("tanh", "relu"):
        m = _seeded(T, T.nn.RNN(2, 3, nonlinearity=nl, batch_first=True, num_layers=2), 71)
        x = _x(T, 2, 4, 2, seed=143, rg=True)
        p = U.pack_padded_sequence(x, T.tensor([4, 2]), batch_first=True)
        o, h = m(p)
        o, lens = U.pad_packed_sequence(o, batch_first=True)
        (o.sum() + h.sum()).backward()
        out.append((o, lens, h, x.grad, m.weight_ih_l1.grad))
    return out


@program()
def prog_nn2_lstm_packed_proj_and_unsorted_h0(T: Any) -> Any:
    U = T.nn.utils.rnn
    m = _seeded(T, T.nn.LSTM(2, 4, proj_size=2), 72)
    x = _x(T, 3, 3, 2, seed=144, rg=True)
    h0 = _x(T, 1, 3, 2, seed=145, rg=True)
    c0 = _x(T, 1, 3, 4, seed=146, rg=True)
    p = U.pack_padded_sequence(x, [1, 3, 2], enforce_sorted=False)
    o, (h, c) = m(p, (h0, c0))
    o, _ = U.pad_packed_sequence(o)
    (o.sum() + h.sum() + c.pow(2).sum()).backward()
    return o, h, c, x.grad, h0.grad, c0.grad


@program()
def prog_nn2_embedding_module_errors_and_weight_shape(T: Any) -> Any:
    nn = T.nn
    e = nn.Embedding(4, 3)
    return (
        raises(lambda: nn.Embedding(4, 3, padding_idx=4)),
        raises(lambda: nn.Embedding(4, 3, padding_idx=-5)),
        nn.Embedding(4, 3, padding_idx=-1).padding_idx,
        raises(lambda: e(T.tensor([4]))),
        raises(lambda: e(T.tensor([[0.5]]))),
        e(T.zeros(2, 0, dtype=T.long)).shape,
        raises(lambda: nn.Embedding(4, 3, _weight=T.ones(4, 2))),
        e(T.tensor(2)).shape,
        repr(nn.Embedding(4, 3, max_norm=2.0, norm_type=3.0)),
    )


@program()
def prog_nn2_embedding_bag_max_norm_in_place_and_padding_mean(T: Any) -> Any:
    b = _seeded(T, T.nn.EmbeddingBag(5, 2, mode="mean", max_norm=0.3, padding_idx=2), 73)
    idx = T.tensor([[0, 2, 1], [2, 2, 2], [3, 4, 2]])
    y = b(idx)
    y.sum().backward()
    return y, b.weight.detach(), b.weight.grad


@program()
def prog_nn2_init_kaiming_a_and_modes_seeded(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(3)
    out = [
        init.kaiming_uniform_(T.empty(3, 4), a=0.5),
        init.kaiming_normal_(T.empty(3, 4, 2), mode="fan_out", nonlinearity="relu"),
        init.kaiming_uniform_(T.empty(2, 3), nonlinearity="selu"),
        init.xavier_uniform_(T.empty(2, 3, 2), gain=init.calculate_gain("tanh")),
        init.trunc_normal_(T.empty(6)),
        init.normal_(T.empty(3), 2.0, 0.5),
        init.uniform_(T.empty(3), -2.0, -1.0),
        raises(lambda: init.kaiming_uniform_(T.empty(2, 3), mode="fan")),
        raises(lambda: init.kaiming_uniform_(T.empty(2, 3), nonlinearity="swish")),
        init.constant_(T.empty(2), float("nan")),
    ]
    return out


@program()
def prog_nn2_init_under_no_grad_keeps_leaf_and_version(T: Any) -> Any:
    init = T.nn.init
    p = T.nn.Parameter(T.zeros(2, 3))
    v0 = p._version
    init.ones_(p)
    init.constant_(p, 0.5)
    init.zeros_(p)
    init.eye_(p)
    return p, p.is_leaf, p.grad_fn, p._version - v0, p.requires_grad


@program()
def prog_nn2_module_extra_repr_of_common_layers(T: Any) -> Any:
    nn = T.nn
    mods = [
        nn.Conv3d(2, 4, (1, 2, 3), stride=(1, 1, 2), dilation=2, groups=2, bias=False),
        nn.ConvTranspose1d(2, 3, 3, output_padding=1, stride=2),
        nn.MaxPool1d(3, 2, 1, dilation=2, return_indices=True, ceil_mode=True),
        nn.AvgPool2d(3, count_include_pad=False, divisor_override=2),
        nn.LPPool2d(2, 3),
        nn.AdaptiveMaxPool2d((None, 3), return_indices=True),
        nn.FractionalMaxPool2d(2, output_ratio=0.5),
        nn.LayerNorm([2, 3], eps=1e-3, bias=False),
        nn.GroupNorm(2, 4, affine=False),
        nn.InstanceNorm3d(3),
        nn.Dropout1d(0.2, inplace=True),
        nn.ELU(alpha=0.5, inplace=True),
        nn.LeakyReLU(0.2),
        nn.Softplus(2, 10),
        nn.Hardshrink(0.3),
        nn.RReLU(0.1, 0.2),
        nn.PReLU(3, init=0.1),
        nn.Threshold(0.1, 20, inplace=True),
        nn.GLU(-2),
        nn.ReplicationPad3d(1),
        nn.ReflectionPad1d((1, 2)),
        nn.CircularPad3d((1, 0, 1, 0, 1, 0)),
        nn.Unflatten(1, (2, 3)),
        nn.Flatten(2, 3),
        nn.ZeroPad1d(2),
        nn.ConstantPad3d(1, -1.5),
        nn.Embedding(3, 2, padding_idx=0),
        nn.EmbeddingBag(3, 2, mode="max", padding_idx=1),
        nn.RNN(2, 3, 2, nonlinearity="relu", bias=False, dropout=0.2, bidirectional=True),
        nn.LSTM(2, 3, proj_size=2, batch_first=True),
        nn.GRUCell(2, 3, bias=False),
        nn.Softmax2d(),
        nn.CTCLoss(blank=1, zero_infinity=True),
        nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=3),
    ]
    return [repr(m) for m in mods]


@program()
def prog_nn2_module_state_dict_hooks_and_load_strict_false_report(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.LayerNorm(2))
    sd = {"0.weight": T.ones(2, 2), "1.weight": T.ones(2), "2.zzz": T.ones(1)}
    res = m.load_state_dict(sd, strict=False)
    return res.missing_keys, res.unexpected_keys, repr(res), m[0].weight, m[1].weight


@program()
def prog_nn2_module_train_returns_self_and_nested_flags(T: Any) -> Any:
    nn = T.nn
    inner = nn.Dropout(0.5)
    m = nn.Sequential(nn.Sequential(inner), nn.BatchNorm1d(2))
    a = m.train(False) is m
    b = inner.training
    c = m.eval().training
    m[0].train()
    return a, b, c, [x.training for x in m.modules()], raises(lambda: m.eval(True))


@program()
def prog_nn2_norm_running_stats_momentum_and_num_batches(T: Any) -> Any:
    nn = T.nn
    out = []
    for mom in (0.0, 1.0, 0.3, None):
        bn = nn.BatchNorm1d(2, momentum=mom)
        for s in range(2):
            bn(_x(T, 4, 2, seed=150 + s))
        out.append((mom, bn.running_mean, bn.running_var, bn.num_batches_tracked))
    inn = nn.InstanceNorm1d(2, track_running_stats=True, momentum=None)
    for s in range(2):
        inn(_x(T, 3, 2, 4, seed=160 + s))
    out.append((inn.running_mean, inn.running_var, inn.num_batches_tracked))
    return out


@program()
def prog_nn2_lazy_norm_and_conv_infer_shapes(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(4)
    bn = nn.LazyBatchNorm2d()
    conv = nn.LazyConv1d(3, 2)
    inn = nn.LazyInstanceNorm1d(affine=True)
    y1 = bn(_x(T, 2, 3, 2, 2, seed=170))
    y2 = conv(_x(T, 1, 4, 5, seed=171))
    y3 = inn(_x(T, 2, 3, 4, seed=172))
    return (
        type(bn).__name__,
        bn.num_features,
        bn.running_mean,
        conv.weight.shape,
        conv.in_channels,
        y1,
        y2.shape,
        y3,
        type(inn.weight).__name__,
    )


@program()
def prog_nn2_pad_circular_large_and_negative(T: Any) -> Any:
    F = T.nn.functional
    x = T.arange(1.0, 7.0).reshape(1, 1, 2, 3).requires_grad_()
    a = F.pad(x, (3, 3, 2, 2), mode="circular")
    b = F.pad(x, (-1, 2, 0, -1), mode="circular")
    c = F.pad(x, (1, -1, -1, 1), mode="replicate")
    (a.sum() + b.pow(2).sum() + c.sum()).backward()
    return a, b, c, x.grad, raises(lambda: F.pad(x, (4, 0), mode="circular"))


@program()
def prog_nn2_pad_reflect_5d_and_unbatched_3d(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 2, 3, 3, seed=173, rg=True)
    y = F.pad(x, (1, 1, 2, 0, 1, 1), mode="reflect")
    z = F.pad(x[0], (1, 1, 2, 0, 1, 1), mode="replicate")
    (y.sum() + z.pow(2).sum()).backward()
    return y.shape, y, z, x.grad, y.grad_fn, z.grad_fn


@program()
def prog_nn2_interpolate_1d_3d_and_unusual_scales(T: Any) -> Any:
    F = T.nn.functional
    x1 = _x(T, 1, 2, 5, seed=174, rg=True)
    x3 = _x(T, 1, 1, 2, 3, 4, seed=175, rg=True)
    a = F.interpolate(x1, scale_factor=0.7, mode="linear")
    b = F.interpolate(x1, size=8, mode="nearest-exact")
    c = F.interpolate(x3, scale_factor=(1.5, 0.5, 2.0), mode="trilinear", align_corners=True)
    d = F.interpolate(x3, size=(3, 2, 5), mode="nearest")
    e = F.interpolate(x3, scale_factor=1.3, mode="area")
    (a.sum() + b.sum() + c.pow(2).sum() + d.sum() + e.sum()).backward()
    return a, b, c, d, e, x1.grad, x3.grad, [t.grad_fn for t in (a, b, c, d, e)]


@program()
def prog_nn2_interpolate_recompute_scale_factor_and_warnings(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 4, 5, seed=176)
    return [
        F.interpolate(x, scale_factor=1.3, mode="nearest", recompute_scale_factor=False),
        F.interpolate(x, scale_factor=1.3, mode="nearest", recompute_scale_factor=True),
        F.interpolate(x, scale_factor=(0.6, 1.7), mode="bilinear", align_corners=False),
        F.interpolate(x, scale_factor=0.6, mode="bicubic", align_corners=True),
        raises(lambda: F.interpolate(x, size=(2, 2), recompute_scale_factor=True)),
        raises(lambda: F.interpolate(x, size=2.5)),
        raises(lambda: F.interpolate(x, size=2.5, mode="bicubic", antialias=True)),
        raises(lambda: F.interpolate(x, size=1.0, mode="area")),
        raises(lambda: F.interpolate(x[0], size=2.0, mode="linear", align_corners=True)),
        raises(lambda: F.interpolate(x, scale_factor=-1.0)),
    ]


@program()
def prog_nn2_fold_overlapping_sums_and_grad(T: Any) -> Any:
    F = T.nn.functional
    cols = _x(T, 2, 2 * 4, 9, seed=177, rg=True)
    y = F.fold(cols, (4, 4), 2, stride=1)
    y2 = F.fold(cols[:, :, :4], (4, 4), 2, stride=2)
    (y.pow(2).sum() + y2.sum()).backward()
    return y, y2, cols.grad, y.grad_fn, F.unfold(y, 2, stride=2, padding=1).shape


@program()
def prog_nn2_unfold_integer_and_double_backward(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(1, 1, 3, 3, seed=178), dtype=T.float64, requires_grad=True)
    y = F.unfold(x, 2)
    (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    g.sum().backward()
    return (
        y,
        g,
        x.grad,
        g.grad_fn,
        raises(lambda: F.unfold(T.arange(9).reshape(1, 1, 3, 3), 2)),
        F.unfold(T.zeros(0, 1, 3, 3), 2).shape,
    )


@program()
def prog_nn2_pixel_shuffle_5d_and_int_and_double_backward(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(2, 1, 4, 2, 2, seed=179), dtype=T.float64, requires_grad=True)
    y = F.pixel_shuffle(x, 2)
    (g,) = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    g.sum().backward()
    return (
        y.shape,
        y,
        x.grad,
        g.grad_fn,
        F.pixel_unshuffle(T.arange(16).reshape(1, 4, 4), 2),
        raises(lambda: F.pixel_unshuffle(x, 0)),
        raises(lambda: F.pixel_shuffle(x, -1)),
    )


@program()
def prog_nn2_adaptive_pool_errors_and_empty(T: Any) -> Any:
    F = T.nn.functional
    return [
        raises(lambda: F.adaptive_avg_pool2d(T.ones(2, 3), 2)),
        raises(lambda: F.adaptive_max_pool2d(T.ones(1, 0, 3), 2)),
        raises(lambda: F.adaptive_avg_pool1d(T.ones(1, 3), (2, 2))),
        F.adaptive_avg_pool2d(T.ones(0, 2, 3, 3), 2).shape,
        raises(lambda: F.adaptive_avg_pool2d(T.ones(1, 2, 3, 3), -1)),
        F.adaptive_max_pool2d(T.ones(1, 3, 3), (5, 1)),
        raises(lambda: F.adaptive_avg_pool3d(T.ones(1, 2, 2), 1)),
    ]


@program()
def prog_nn2_maxpool_padding_too_large_and_negative_output(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 4, 4, seed=180)
    return [
        raises(lambda: F.max_pool2d(x, 2, padding=2)),
        raises(lambda: F.avg_pool2d(x, 2, padding=2)),
        raises(lambda: F.max_pool2d(x, 5)),
        raises(lambda: F.max_pool1d(x[0], 2, stride=0)),
        raises(lambda: F.avg_pool1d(x[0], 2, padding=-1)),
        F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
        F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=True),
        raises(lambda: F.max_pool2d(x, 2, dilation=0)),
    ]


@program()
def prog_nn2_dropout_family_eval_identity_and_p_edges(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, 4, 4, seed=181, rg=True)
    outs = []
    for m in (nn.Dropout(0.0), nn.Dropout2d(0.0), nn.Dropout3d(1.0).eval(), nn.AlphaDropout(0.0)):
        y = m(x)
        outs.append((type(m).__name__, y is x, y.grad_fn))
    z = nn.Dropout(1.0)(x)
    z.sum().backward()
    return outs, z, x.grad, raises(lambda: nn.Dropout(-0.1)), raises(lambda: nn.Dropout1d(1.5))


@program()
def prog_nn2_channel_shuffle_and_pixel_shuffle_module_names(T: Any) -> Any:
    nn = T.nn
    x = T.arange(16.0).reshape(1, 4, 2, 2).requires_grad_()
    y = nn.ChannelShuffle(2)(x)
    z = nn.PixelShuffle(2)(y)
    z.pow(2).sum().backward()
    return y, z, x.grad, y.grad_fn, z.grad_fn


@program()
def prog_nn2_transformer_decoder_only_masks_bool_float_mix(T: Any) -> Any:
    layer = _seeded(T, T.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, batch_first=True), 74)
    tgt = _x(T, 1, 3, 4, seed=182)
    mem = _x(T, 1, 2, 4, seed=183)
    tm = T.nn.Transformer.generate_square_subsequent_mask(3)
    return (
        layer(tgt, mem, tgt_mask=tm, tgt_key_padding_mask=T.tensor([[False, False, True]])),
        layer(tgt, mem, tgt_mask=tm.isinf()),
        raises(lambda: layer(tgt, mem, tgt_mask=T.zeros(2, 2))),
    )


# --- batch 4: layouts, dtypes and non-contiguous inputs --------------------------------------


def _cl(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    x = _x(T, *shape, seed=seed).contiguous(memory_format=T.channels_last)
    return x.requires_grad_() if rg else x


@program()
def prog_nn2_channels_last_layouts_through_layers(T: Any) -> Any:
    F = T.nn.functional
    x = _cl(T, 2, 4, 3, 5, seed=190, rg=True)
    outs = {
        "interp_nearest": F.interpolate(x, scale_factor=2),
        "interp_bilinear": F.interpolate(x, size=(4, 7), mode="bilinear"),
        "pad_reflect": F.pad(x, (1, 1, 1, 1), mode="reflect"),
        "pad_const": F.pad(x, (1, 1, 1, 1)),
        "pixel_shuffle": F.pixel_shuffle(x, 2),
        "pixel_unshuffle": F.pixel_unshuffle(F.pad(x, (0, 1, 0, 1)), 2),
        "channel_shuffle": F.channel_shuffle(x, 2),
        "batch_norm": F.batch_norm(x, None, None, training=True),
        "group_norm": F.group_norm(x, 2),
        "avg_pool": F.avg_pool2d(x, 2),
        "adaptive_avg": F.adaptive_avg_pool2d(x, (2, 3)),
        "dropout_eval": F.dropout(x, 0.5, training=False),
        "max_pool": F.max_pool2d(x, 2),
    }
    total = sum(v.sum() for v in outs.values())
    total.backward()
    return {
        k: (v.stride(), v.is_contiguous(memory_format=T.channels_last)) for k, v in outs.items()
    }, x.grad.stride()


@program()
def prog_nn2_noncontiguous_inputs_through_norms_and_linear(T: Any) -> Any:
    nn = T.nn
    base = _x(T, 4, 3, 2, seed=191, rg=True)
    x = base.transpose(0, 2)  # (2, 3, 4), not contiguous
    ln = _seeded(T, nn.LayerNorm(4), 80)
    bn = nn.BatchNorm1d(3)
    lin = _seeded(T, nn.Linear(4, 2), 81)
    a, b, c = ln(x), bn(x), lin(x)
    (a.sum() + b.pow(2).sum() + c.pow(2).sum()).backward()
    return a.stride(), b.stride(), c.stride(), a, b, c, base.grad, c.grad_fn


@program()
def prog_nn2_float64_transformer_and_mha_masks(T: Any) -> Any:
    m = _seeded(T, T.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, batch_first=True), 82)
    m = m.double()
    x = T.tensor(_data(2, 3, 4, seed=192), dtype=T.float64, requires_grad=True)
    fm = T.zeros(3, 3, dtype=T.float64)
    fm[0, 2] = -T.inf
    y = m(x, src_mask=fm, src_key_padding_mask=T.tensor([[False, False, True], [False] * 3]))
    y.sum().backward()
    return y, x.grad, raises(lambda: m(x, src_mask=fm.float(), src_key_padding_mask=None))


@program()
def prog_nn2_gru_double_backward_float64(T: Any) -> Any:
    m = _seeded(T, T.nn.GRU(2, 2), 83).double()
    x = T.tensor(_data(3, 1, 2, seed=193), dtype=T.float64, requires_grad=True)
    out, h = m(x)
    (g,) = T.autograd.grad(out.pow(2).sum(), x, create_graph=True)
    g.sum().backward()
    return out, h, g, x.grad, m.weight_hh_l0.grad


@program()
def prog_nn2_lstm_cell_double_backward_and_zero_hidden(T: Any) -> Any:
    c = _seeded(T, T.nn.LSTMCell(2, 3), 84).double()
    x = T.tensor(_data(2, 2, seed=194), dtype=T.float64, requires_grad=True)
    h, cc = c(x, (T.zeros(2, 3, dtype=T.float64), T.zeros(2, 3, dtype=T.float64)))
    (g,) = T.autograd.grad((h * cc).sum(), x, create_graph=True)
    g.pow(2).sum().backward()
    return h, cc, g, x.grad, c.bias_ih.grad


@program()
def prog_nn2_embedding_bag_float64_and_half_weights(T: Any) -> Any:
    F = T.nn.functional
    w = T.tensor(_data(5, 3, seed=195), dtype=T.float64, requires_grad=True)
    idx = T.tensor([0, 2, 4, 1])
    off = T.tensor([0, 1])
    y = F.embedding_bag(idx, w, off, mode="mean")
    y.sum().backward()
    wh = w.detach().half()
    return (
        y,
        w.grad,
        F.embedding_bag(idx, wh, off, mode="sum"),
        F.embedding_bag(idx, wh, off, mode="max"),
        F.embedding(idx, wh),
        F.embedding_bag(
            idx, w.detach(), off, mode="sum", per_sample_weights=T.ones(4, dtype=T.float64)
        ),
        raises(
            lambda: F.embedding_bag(idx, w.detach(), off, mode="sum", per_sample_weights=T.ones(4))
        ),
    )


@program()
def prog_nn2_pad_and_interpolate_on_expanded_and_sliced(T: Any) -> Any:
    F = T.nn.functional
    b = _x(T, 1, 1, 1, 4, seed=196, rg=True)
    x = b.expand(2, 3, 3, 4)
    s = _x(T, 1, 2, 6, 8, seed=197, rg=True)[:, :, ::2, 1::2]
    a = F.pad(x, (1, 1, 0, 0), mode="replicate")
    c = F.interpolate(s, scale_factor=2, mode="bilinear")
    d = F.interpolate(x, size=(2, 2), mode="area")
    (a.sum() + c.pow(2).sum() + d.sum()).backward()
    return a, c, d, b.grad, c.stride(), a.stride()


@program()
def prog_nn2_conv_transpose_groups_dilation_output_padding(T: Any) -> Any:
    nn = T.nn
    m = _seeded(
        T,
        nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=2),
        85,
    )
    x = _x(T, 1, 4, 3, 3, seed=198, rg=True)
    y = m(x)
    y.pow(2).sum().backward()
    y2 = m(x, output_size=[8, 8])
    return (
        y.shape,
        y,
        x.grad,
        m.weight.grad,
        y.grad_fn,
        y2.shape,
        raises(lambda: m(x, output_size=[20, 20])),
    )


@program()
def prog_nn2_conv_module_unbatched_and_bias_false_and_double(T: Any) -> Any:
    nn = T.nn
    c1 = _seeded(T, nn.Conv1d(2, 3, 2, bias=False), 86).double()
    c3 = _seeded(T, nn.Conv3d(1, 2, (1, 2, 2), padding="same"), 87)
    x1 = T.tensor(_data(2, 5, seed=199), dtype=T.float64, requires_grad=True)
    x3 = _x(T, 1, 2, 3, 3, seed=200, rg=True)
    y1, y3 = c1(x1), c3(x3)
    (g,) = T.autograd.grad(y1.pow(2).sum(), x1, create_graph=True)
    g.sum().backward()
    y3.sum().backward()
    return y1, g, x1.grad, c1.weight.grad, y3.shape, x3.grad, y1.grad_fn


@program()
def prog_nn2_module_zero_grad_set_to_none_false_and_requires_grad_false(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 2), 88)
    m(T.ones(1, 2)).sum().backward()
    g = m.weight.grad
    m.zero_grad(set_to_none=False)
    same = m.weight.grad is g
    m.weight.requires_grad_(False)
    m.bias.grad = None
    m(T.ones(1, 2)).sum().backward()
    return same, m.weight.grad, m.bias.grad, g._version > 0


@program()
def prog_nn2_state_dict_of_shared_and_tied_parameters(T: Any) -> Any:
    nn = T.nn
    emb = nn.Embedding(4, 3)
    head = nn.Linear(3, 4, bias=False)
    head.weight = emb.weight
    m = nn.ModuleDict({"emb": emb, "head": head})
    sd = m.state_dict()
    new = nn.ModuleDict({"emb": nn.Embedding(4, 3), "head": nn.Linear(3, 4, bias=False)})
    new["head"].weight = new["emb"].weight
    new.load_state_dict(sd)
    return (
        list(sd),
        len(list(m.parameters())),
        [n for n, _ in m.named_parameters(remove_duplicate=False)],
        new["head"].weight is new["emb"].weight,
        T.equal(new["emb"].weight, emb.weight),
    )


@program()
def prog_nn2_sequential_with_ordereddict_and_indexing(T: Any) -> Any:
    import collections

    nn = T.nn
    s = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(2, 3)), ("act", nn.ReLU())]))
    return (
        repr(s),
        type(s.fc).__name__,
        repr(s[-1]),
        repr(s[0:1]),
        raises(lambda: s["fc"]),
        raises(lambda: nn.Sequential(collections.OrderedDict([("a", nn.ReLU())]), nn.ReLU())),
        [n for n, _ in s.named_children()],
        raises(lambda: s.__setitem__(5, nn.ReLU())),
    )


@program()
def prog_nn2_transformer_decoder_layer_unbatched_and_errors(T: Any) -> Any:
    layer = _seeded(T, T.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0), 89)
    tgt = _x(T, 3, 4, seed=201, rg=True)
    mem = _x(T, 2, 4, seed=202, rg=True)
    y = layer(tgt, mem, tgt_mask=T.nn.Transformer.generate_square_subsequent_mask(3))
    y.sum().backward()
    return (
        y,
        tgt.grad,
        mem.grad,
        raises(lambda: layer(tgt, mem.unsqueeze(1))),
        raises(lambda: layer(tgt, _x(T, 2, 5))),
    )


@program()
def prog_nn2_mha_attn_mask_float64_query_float32_and_bool_kpm_float_mask(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2), 90)
    q = _x(T, 3, 1, 4, seed=203)
    return (
        raises(lambda: mha(q, q, q, attn_mask=T.zeros(3, 3, dtype=T.float64))),
        raises(lambda: mha(q, q, q, key_padding_mask=T.zeros(1, 3, dtype=T.int64))),
        mha(q, q, q, key_padding_mask=T.zeros(1, 3)),
        mha(q, q, q, attn_mask=T.zeros(3, 3, dtype=T.bool), key_padding_mask=T.zeros(1, 3)),
    )


# --- batch 5: fast paths, warnings and state toggles ----------------------------------------


@program()
def prog_nn2_encoder_eval_fast_path_padding_mask_zeros(T: Any) -> Any:
    layer = T.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    enc = _seeded(T, T.nn.TransformerEncoder(layer, 2), 91).eval()
    x = _x(T, 2, 3, 4, seed=210)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    with T.no_grad():
        fast = enc(x, src_key_padding_mask=kpm)
        fast_layer = enc.layers[0](x, src_key_padding_mask=kpm)
    slow = enc(x, src_key_padding_mask=kpm)
    return fast, fast_layer, slow.detach(), enc.use_nested_tensor


@program()
def prog_nn2_mha_mismatched_mask_types_warn(T: Any) -> Any:
    mha = _seeded(T, T.nn.MultiheadAttention(4, 2, batch_first=True), 92)
    q = _x(T, 2, 3, 4, seed=211)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    fm = T.zeros(3, 3)
    a = mha(q, q, q, key_padding_mask=kpm, attn_mask=fm)
    b = mha(q, q, q, key_padding_mask=kpm.float(), attn_mask=fm.bool())
    return a, b


@program()
def prog_nn2_instancenorm_num_features_mismatch_warns(T: Any) -> Any:
    nn = T.nn
    m = nn.InstanceNorm1d(3)
    y = m(_x(T, 2, 4, 5, seed=212))
    m2 = nn.InstanceNorm2d(2, affine=True)
    return y, raises(lambda: m2(_x(T, 1, 3, 2, 2, seed=213))), nn.InstanceNorm1d(3)(_x(T, 3, 5))


@program()
def prog_nn2_batchnorm_running_stats_none_and_toggled(T: Any) -> Any:
    nn = T.nn
    bn = nn.BatchNorm1d(2)
    bn.eval()
    bn.running_mean = None
    bn.running_var = None
    x = _x(T, 4, 2, seed=214, rg=True)
    y = bn(x)
    y.sum().backward()
    bn2 = nn.BatchNorm1d(2)
    bn2.track_running_stats = False
    y2 = bn2.eval()(x.detach())
    return y, x.grad, y2, bn2.running_mean, bn2.num_batches_tracked


@program()
def prog_nn2_group_and_layer_norm_2d_inputs_and_flags(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 3, 4, seed=215, rg=True)
    a = nn.GroupNorm(2, 4)(x)
    b = nn.LayerNorm(4, elementwise_affine=False, bias=False)(x)
    c = nn.LayerNorm(4, bias=False)(x)
    (a.sum() + b.pow(2).sum() + c.sum()).backward()
    return a, b, c, x.grad, list(nn.LayerNorm(4, bias=False).state_dict()), repr(nn.GroupNorm(2, 4))


@program()
def prog_nn2_dropout_integer_and_bool_inputs(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(0)
    i = T.arange(6)
    return (
        raises(lambda: F.dropout(i, 0.5)),
        F.dropout(i, 0.5, training=False),
        raises(lambda: F.dropout(i.bool(), 0.5)),
        raises(lambda: F.alpha_dropout(i, 0.5, training=True)),
        raises(lambda: F.feature_alpha_dropout(i.reshape(2, 3).bool(), 0.5, training=True)),
        F.alpha_dropout(i, 1.0, training=True),
        T.rand(2),
        raises(lambda: F.dropout2d(i.reshape(1, 2, 3).float(), 1.5)),
        F.dropout(T.ones(0, 3), 0.5).shape,
    )


@program()
def prog_nn2_embedding_from_pretrained_padding_row_not_zeroed(T: Any) -> Any:
    w = T.tensor(_data(4, 3, seed=216))
    e = T.nn.Embedding.from_pretrained(w, freeze=False, padding_idx=1)
    y = e(T.tensor([1, 1, 2]))
    y.pow(2).sum().backward()
    e2 = T.nn.Embedding(4, 3, padding_idx=1)
    return y, e.weight.grad, e.weight[1], e2.weight[1], T.equal(e.weight, w)


@program()
def prog_nn2_rnn_frozen_weights_input_grad(T: Any) -> Any:
    m = _seeded(T, T.nn.LSTM(2, 3, batch_first=True), 93)
    m.requires_grad_(False)
    x = _x(T, 2, 3, 2, seed=217, rg=True)
    out, (h, c) = m(x)
    (out.sum() + c.sum() + h.sum()).backward()
    g = T.nn.GRU(2, 3)
    g.requires_grad_(False)
    o2, _ = g(_x(T, 3, 2))
    return out, x.grad, out.grad_fn is not None, o2.requires_grad, o2.grad_fn


@program()
def prog_nn2_mha_static_kv_and_functional_errors(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 12, 4, seed=218)
    b = _x(T, 12, seed=219)
    ow = _x(T, 4, 4, seed=220)
    q = _x(T, 3, 2, 4, seed=221)
    sk = _x(T, 4, 5, 2, seed=222)

    def mha(**kw: Any) -> Any:
        args = (q, q, q, 4, 2, w, b, None, None, False, 0.0, ow, None)
        return F.multi_head_attention_forward(*args, training=False, **kw)

    o, a = mha(static_k=sk, static_v=sk)
    return (
        o,
        a,
        raises(lambda: mha(static_k=sk, need_weights=False)),
        mha(static_k=sk, static_v=sk, need_weights=False),
        mha(static_v=sk[:, :3]),
        raises(lambda: mha(static_k=sk[:3])),
        raises(lambda: mha(static_v=sk[..., :1])),
        raises(lambda: mha(use_separate_proj_weight=True)),
        raises(lambda: mha(static_k=sk, key_padding_mask=T.zeros(2, 3, dtype=T.bool))),
    )


@program()
def prog_nn2_transformer_generate_mask_dtype_and_forward_defaults(T: Any) -> Any:
    nn = T.nn
    m = nn.Transformer.generate_square_subsequent_mask(3, dtype=T.float16)
    m0 = nn.Transformer.generate_square_subsequent_mask(0)
    t = _seeded(
        T, nn.Transformer(4, 2, 1, 1, 6, dropout=0.0, batch_first=True, norm_first=True), 94
    )
    src = _x(T, 1, 3, 4, seed=223)
    tgt = _x(T, 1, 2, 4, seed=224)
    return (
        m,
        m0.shape,
        t(src, tgt, src_is_causal=False, memory_key_padding_mask=T.tensor([[False, True, False]])),
        [type(x).__name__ for x in t.children()],
        t.d_model,
        t.nhead,
        t.batch_first,
    )


@program()
def prog_nn2_adaptive_max_pool_indices_and_unpool_roundtrip(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 2, 5, 7, seed=225, rg=True)
    y, i = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(x)
    z = nn.functional.max_unpool2d(y, i, kernel_size=(3, 3), output_size=(5, 7))
    (y.pow(2).sum() + z.sum()).backward()
    return y, i, z, x.grad, y.grad_fn


@program()
def prog_nn2_fractional_max_pool_output_ratio_and_errors(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 1, 6, 6, seed=226)
    s = T.tensor([[[0.3, 0.7]]])
    return (
        raises(
            lambda: nn.functional.fractional_max_pool2d(x, 2, output_ratio=0.5, _random_samples=s)
        ),
        nn.functional.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5), _random_samples=s),
        raises(lambda: nn.FractionalMaxPool2d(2)),
        raises(lambda: nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5)),
        raises(lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5)),
        raises(lambda: nn.functional.fractional_max_pool2d(x, 4, output_size=5, _random_samples=s)),
    )


@program()
def prog_nn2_constructor_argument_errors_name_the_class(T: Any) -> Any:
    nn = T.nn
    makers = [
        lambda: nn.Softmax(axis=1),
        lambda: nn.LogSoftmax(dims=1),
        lambda: nn.BatchNorm2d(),
        lambda: nn.BatchNorm1d(3, momentun=0.1),
        lambda: nn.ReLU(True, 3),
        lambda: nn.SiLU(inplce=True),
        lambda: nn.LazyConv2d(3),
        lambda: nn.ZeroPad2d(),
        lambda: nn.ConstantPad1d(2),
        lambda: nn.ReflectionPad2d(padding=1, mode="x"),
        lambda: nn.AdaptiveAvgPool2d(),
        lambda: nn.AdaptiveMaxPool1d(2, indices=True),
        lambda: nn.AvgPool3d(),
        lambda: nn.MaxUnpool2d(),
        lambda: nn.FractionalMaxPool2d(),
        lambda: nn.CELU(alpha=1.0, beta=2.0),
        lambda: nn.Hardshrink(lamda=0.5),
        lambda: nn.MarginRankingLoss(margn=1.0),
        lambda: nn.Mish(True, True),
    ]
    return [raises(mk) for mk in makers]


@program()
def prog_nn2_forward_argument_errors_name_the_class(T: Any) -> Any:
    nn = T.nn
    x = T.ones(1, 1, 4, 4)
    calls = [
        lambda: nn.ReflectionPad2d(1)(x, 2),
        lambda: nn.ReplicationPad1d(1)(x[0]),
        lambda: nn.CircularPad2d(1)(x, mode="x"),
        lambda: nn.LPPool2d(2, 2)(x, 1),
        lambda: nn.MaxUnpool2d(2)(x),
        lambda: nn.Linear(4, 2)(x, x),
        lambda: nn.ReLU()(x, inplace=True),
        lambda: nn.Softmax(1)(x, dim=0),
        lambda: nn.BatchNorm2d(1)(x, x),
        lambda: nn.Conv2d(1, 1, 1)(),
        lambda: nn.MultiheadAttention(4, 2)(x[0]),
        lambda: nn.LSTM(4, 2)(x[0], None, None),
    ]
    return [raises(c) for c in calls]


@program()
def prog_nn2_pad_non_positive_clones_the_narrowed_input(T: Any) -> Any:
    F = T.nn.functional
    cl = _cl(T, 2, 4, 3, 5, seed=230, rg=True)
    tr = _x(T, 5, 3, seed=231, rg=True).t()
    outs = [
        F.pad(cl, (0, 0, 0, 0)),
        F.pad(cl, (-1, 0, 0, -1)),
        F.pad(cl.permute(0, 1, 3, 2), (-1, 0)),
        F.pad(tr, (-1, -1)),
        F.pad(tr, (1, -1)),
    ]
    sum(o.sum() for o in outs).backward()
    return [(o.stride(), o.is_contiguous(), o.grad_fn, o) for o in outs], cl.grad, tr.grad


@program()
def prog_nn2_lstm_hidden_state_count_and_dtype_errors(T: Any) -> Any:
    nn = T.nn
    U = nn.utils.rnn
    m = _seeded(T, nn.LSTM(2, 3), 95)
    x = _x(T, 4, 2, 2, seed=232)
    z = T.zeros(1, 2, 3)
    packed = U.pack_sequence([_x(T, 3, 2, seed=233), _x(T, 2, 2, seed=234)])
    unsorted = U.pack_sequence([_x(T, 2, 2, seed=235), _x(T, 3, 2, seed=236)], enforce_sorted=False)
    cell = _seeded(T, nn.LSTMCell(2, 3), 96)
    return [
        raises(lambda: m(x, (z, z, z))),
        m(x[:, 0], (z[:, 0], z[:, 0], z[:, 0])),
        raises(lambda: m(packed, (z, z, z))),
        m(unsorted, (z, z, z))[1],
        raises(lambda: m(x, (z.double(), z))),
        raises(lambda: m(x, (z, z.half()))),
        raises(lambda: m(x, (z.long(), z))),
        raises(lambda: cell(x[0], T.zeros(2, 3))),
        cell(x[0], [T.zeros(2, 3), T.ones(2, 3)]),
        raises(lambda: nn.GRUCell(2, 3)(x[0], (T.zeros(2, 3),))),
    ]


@program()
def prog_nn2_embedding_bag_unsorted_offsets_and_argument_types(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 5, 3, seed=240)
    idx = T.tensor([1, 2, 0, 1, 4])
    # decreasing offsets in mode sum/mean: torch's result depends on its thread count (with 2
    # threads its parallel path asserts 'Expected i < index_size', with 1 it sums what it
    # reads), so only max mode, which is the same either way, is compared
    return [
        F.embedding_bag(idx, w, T.tensor([0, 3, 2]), mode="max"),
        F.embedding_bag(idx, w, T.tensor([0, 1, 1, 0]), mode="max"),
        F.embedding_bag(idx, w, T.tensor([0, 4, 1, 5]), mode="max"),
        raises(lambda: F.embedding_bag(idx, T.ones(5, 2, dtype=T.long), T.tensor([0]))),
        raises(lambda: F.embedding(idx, w, padding_idx=1.5)),
        raises(lambda: F.embedding(idx, w.clone(), padding_idx=1.5, max_norm=0.5)),
        F.embedding(idx, w, padding_idx=T.tensor(1).item()),
    ]


@program()
def prog_nn2_layer_ops_argument_types_and_bool_inputs(T: Any) -> Any:
    import numpy as np

    F = T.nn.functional
    rng = np.random.default_rng(241)
    b = T.tensor(rng.integers(0, 2, (2, 1, 4, 5)).astype(bool))
    cols = T.tensor(rng.integers(0, 2, (2, 4, 12)).astype(bool))
    x = _x(T, 1, 4, 2, 2, seed=242)
    return [
        F.unfold(b, 2, padding=1),
        F.fold(cols, (4, 5), 2),
        raises(lambda: F.unfold(b.long(), 2)),
        raises(lambda: F.pixel_shuffle(x, 2.0)),
        raises(lambda: F.pixel_unshuffle(x, 2.0)),
        raises(lambda: F.channel_shuffle(x, 2.0)),
        raises(lambda: F.interpolate(x, scale_factor=T.tensor(2.0))),
        raises(lambda: F.interpolate(x, scale_factor=(T.tensor(2.0), 1.5), mode="bilinear")),
        F.interpolate(x, scale_factor=T.tensor(2.0), mode="area"),
        F.interpolate(x, scale_factor=T.tensor(1.5), recompute_scale_factor=True),
        raises(lambda: F.pad(x, (1.5, 1))),
        raises(lambda: F.pad(b[0], (1, 1), mode="reflect")),
        raises(lambda: F.pad(b, (1, 1, 1, 1), mode="replicate")),
        F.pad(b, (1, 1, 0, 1), mode="circular"),
        F.pad(b, (1, 1), value=True),
    ]


@program()
def prog_nn2_norm_functional_argument_types(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    x = _x(T, 2, 3, 4, seed=243)
    rm, rv = T.zeros(3), T.ones(3)
    return [
        raises(lambda: F.group_norm(x, 1.5)),
        raises(lambda: F.batch_norm(x, rm, rv, training=True, momentum=None)),
        raises(lambda: F.batch_norm(x, rm, rv, training=False, momentum=None)),
        raises(lambda: F.instance_norm(x, rm, rv, momentum=None)),
        nn.InstanceNorm1d(3, momentum=None, track_running_stats=True)(x),
        nn.BatchNorm1d(3, momentum=None, track_running_stats=False)(x),
        rm,
        rv,
    ]


@program()
def prog_nn2_sdpa_scale_argument_types(T: Any) -> Any:
    import numpy as np

    F = T.nn.functional
    q = _x(T, 2, 3, 4, seed=244)
    return [
        raises(lambda: F.scaled_dot_product_attention(q, q, q, scale="a")),
        raises(lambda: F.scaled_dot_product_attention(q, q, q, scale=[1.0])),
        F.scaled_dot_product_attention(q, q, q, scale=True),
        F.scaled_dot_product_attention(q, q, q, scale=2),
        F.scaled_dot_product_attention(q, q, q, scale=np.float32(0.5)),
    ]


@program()
def prog_nn2_cosine_similarity_and_rms_norm_layouts(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    cl = _cl(T, 2, 4, 3, 5, seed=245, rg=True)
    tr = _x(T, 4, 3, 2, seed=246, rg=True).transpose(0, 2)
    rms = _seeded(T, nn.RMSNorm(5), 97)
    outs = [
        F.cosine_similarity(cl, cl.detach() + 1),
        F.cosine_similarity(tr, tr.detach() * 2, dim=-1),
        F.rms_norm(cl, (5,)),
        rms(cl),
        F.rms_norm(tr, (4,)),
    ]
    sum(o.sum() for o in outs).backward()
    return [(o.stride(), o.is_contiguous(), o) for o in outs], cl.grad, rms.weight.grad


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
