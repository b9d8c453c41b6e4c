"""3-d conv/pool modules, the remaining pooling modules, Dropout3d and the Transformer decoder
against torch: reprs, state dict keys, forward/backward values and grad_fn names, errors.

Each program is written once against the torch API and run with both libraries; weights are
copied from torch through numpy. The functionals themselves are checked by the op database
(compat/ops_nn.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad

from .nn_helpers import LIBS, _np_copy


def _copy_weights(src, dst):
    sd = {k: shadowgrad.tensor(v.detach().numpy().copy()) for k, v in src.state_dict().items()}
    dst.load_state_dict(sd)


def _names(out):
    outs = out if isinstance(out, tuple) else (out,)
    return [o.grad_fn.name() if o.grad_fn is not None else None for o in outs]


REPR_CASES = [
    lambda T: T.nn.Conv3d(2, 4, 3),
    lambda T: T.nn.Conv3d(
        4, 2, (1, 2, 3), stride=(2, 1, 1), padding=1, dilation=2, groups=2, bias=False
    ),
    lambda T: T.nn.Conv3d(2, 2, 3, padding="same", padding_mode="circular"),
    lambda T: T.nn.ConvTranspose3d(3, 2, 3, stride=2, output_padding=1),
    lambda T: T.nn.MaxPool3d(2),
    lambda T: T.nn.MaxPool3d((2, 1, 3), stride=1, padding=1, dilation=2, ceil_mode=True),
    lambda T: T.nn.AvgPool3d(3, stride=2, padding=1, count_include_pad=False),
    lambda T: T.nn.AdaptiveAvgPool3d((2, None, 3)),
    lambda T: T.nn.AdaptiveMaxPool1d(3, return_indices=True),
    lambda T: T.nn.AdaptiveMaxPool3d(2),
    lambda T: T.nn.MaxUnpool1d(2),
    lambda T: T.nn.MaxUnpool2d(2, stride=1, padding=1),
    lambda T: T.nn.MaxUnpool3d((2, 1, 2), padding=1),
    lambda T: T.nn.LPPool1d(2, 3),
    lambda T: T.nn.LPPool2d(1.5, (2, 3), stride=1, ceil_mode=True),
    lambda T: T.nn.LPPool3d(3, 2),
    lambda T: T.nn.Dropout3d(),
    lambda T: T.nn.Dropout3d(0.2, inplace=True),
    lambda T: T.nn.TransformerDecoderLayer(8, 2, 16),
    lambda T: T.nn.TransformerDecoder(T.nn.TransformerDecoderLayer(8, 2, 16), 2),
    lambda T: T.nn.Transformer(8, 2, 1, 2, 16),
]


@pytest.mark.parametrize("make", REPR_CASES)
def test_module_repr_and_state_dict_keys_match_torch(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = make(shadowgrad), make(torch)
    assert repr(ours) == repr(theirs)
    sd_o, sd_t = ours.state_dict(), theirs.state_dict()
    assert list(sd_o) == list(sd_t)
    assert [tuple(v.shape) for v in sd_o.values()] == [tuple(v.shape) for v in sd_t.values()]


def _x(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


LAYER_CASES = [
    ("conv3d", lambda T: T.nn.Conv3d(2, 3, (2, 3, 2), padding=1), _x(2, 2, 4, 5, 3)),
    ("conv3d groups", lambda T: T.nn.Conv3d(4, 2, 2, groups=2, stride=2), _x(1, 4, 4, 4, 5)),
    ("conv3d same", lambda T: T.nn.Conv3d(2, 2, (2, 3, 2), padding="same"), _x(2, 4, 3, 4)),
    *[
        (
            f"conv3d {m}",
            lambda T, m=m: T.nn.Conv3d(2, 2, 3, padding=(1, 2, 1), padding_mode=m),
            _x(1, 2, 3, 4, 3),
        )
        for m in ("reflect", "replicate", "circular")
    ],
    ("convt3d", lambda T: T.nn.ConvTranspose3d(2, 3, 2, stride=2, padding=1), _x(2, 2, 3, 2, 3)),
    (
        "convt3d outpad dil",
        lambda T: T.nn.ConvTranspose3d(2, 4, 3, stride=2, output_padding=1, dilation=2, groups=2),
        _x(1, 2, 2, 3, 2),
    ),
    ("maxpool3d", lambda T: T.nn.MaxPool3d(2, 1, return_indices=True), _x(2, 2, 3, 4, 3)),
    ("avgpool3d", lambda T: T.nn.AvgPool3d(2, ceil_mode=True, divisor_override=3), _x(2, 3, 3, 5)),
    ("adaptiveavg3d", lambda T: T.nn.AdaptiveAvgPool3d((2, 1, 3)), _x(2, 2, 4, 3, 5)),
    ("adaptivemax3d", lambda T: T.nn.AdaptiveMaxPool3d(2, True), _x(2, 2, 4, 3, 5)),
    ("adaptivemax1d", lambda T: T.nn.AdaptiveMaxPool1d(3), _x(2, 3, 7)),
    ("lppool1d", lambda T: T.nn.LPPool1d(2, 3, 2), np.abs(_x(2, 3, 7)) + 0.1),
    ("lppool2d", lambda T: T.nn.LPPool2d(1.5, 2), np.abs(_x(2, 4, 5)) + 0.1),
    ("lppool3d", lambda T: T.nn.LPPool3d(3, 2, ceil_mode=True), np.abs(_x(1, 3, 5, 4)) + 0.1),
    ("dropout3d eval", lambda T: T.nn.Dropout3d().eval(), _x(2, 3, 2, 2)),
]


@pytest.mark.parametrize("name,make,x", LAYER_CASES, ids=[c[0] for c in LAYER_CASES])
def test_layer_forward_backward_matches_torch(name, make, x):
    res, ref = [], None
    for T in LIBS:
        torch.manual_seed(0)
        mod = make(T).double()
        if T is shadowgrad:
            _copy_weights(ref, mod)
        else:
            ref = mod
        xt = T.tensor(x, requires_grad=True)
        out = mod(xt)
        first = out[0] if isinstance(out, tuple) else out
        first.backward(T.tensor(np.cos(np.arange(first.numel())).reshape(first.shape)))
        grads = [_np_copy(xt.grad)] + [_np_copy(p.grad) for p in mod.parameters()]
        outs = [_np_copy(o) for o in (out if isinstance(out, tuple) else (out,))]
        res.append((outs, grads, _names(out)))
    (o1, g1, n1), (o2, g2, n2) = res
    assert n1 == n2
    for a, b in zip(o1 + g1, o2 + g2, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)


def test_max_unpool_modules_invert_max_pool_like_torch():
    res = []
    for T in LIBS:
        x = T.tensor(_x(2, 2, 4, 5, 6), requires_grad=True)
        y, i = T.nn.MaxPool3d(2, return_indices=True)(x)
        u = T.nn.MaxUnpool3d(2)(y, i, output_size=list(x.shape))
        x1 = T.tensor(_x(2, 3, 7), requires_grad=True)
        y1, i1 = T.nn.MaxPool1d(2, return_indices=True)(x1)
        u1 = T.nn.MaxUnpool1d(2)(y1, i1)
        (u.sum() * 2 + (u1 * u1).sum()).backward()
        res.append(
            (
                [_np_copy(u), _np_copy(u1), _np_copy(x.grad), _np_copy(x1.grad)],
                _names(u) + _names(u1),
            )
        )
    assert res[0][1] == res[1][1]
    for a, b in zip(res[0][0], res[1][0], strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-12)


def test_dropout3d_zeroes_whole_channels_and_scales():
    shadowgrad.manual_seed(0)
    x = shadowgrad.ones(4, 8, 2, 3, 2, requires_grad=True)
    y = shadowgrad.nn.Dropout3d(0.5)(x)
    assert y.grad_fn.name() == "MulBackward0"
    v = y.detach().numpy()
    per_channel = v.reshape(4, 8, -1)
    assert ((per_channel == 0).all(-1) | (per_channel == 2.0).all(-1)).all()
    assert 0 < (per_channel == 0).all(-1).sum() < 32
    # unbatched input: one mask value per channel, then squeezed as torch does
    for T in LIBS:
        z = T.nn.functional.dropout3d(T.ones(3, 2, 2, 2, requires_grad=True), 0.5)
        assert z.grad_fn.name() == "SqueezeBackward1"
        assert T.nn.functional.dropout3d(T.ones(3, 2, 2, 2), 0.0, training=False).shape == (
            3,
            2,
            2,
            2,
        )


def test_dropout3d_warns_like_torch_for_other_ranks():
    msgs = []
    for T in LIBS:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            T.nn.functional.dropout3d(T.ones(3, 4, 5), 0.5)
        msgs.append([str(m.message) for m in w])
    assert msgs[0] == msgs[1] and len(msgs[0]) == 1


ERROR_CASES = [
    lambda T: T.nn.Conv3d(3, 4, 2, groups=2),
    lambda T: T.nn.Conv3d(2, 4, 2, stride=2, padding="same"),
    lambda T: T.nn.ConvTranspose3d(2, 4, 2, padding_mode="reflect"),
    lambda T: T.nn.Conv3d(2, 4, 2)(T.ones(2, 3, 3)),
    lambda T: T.nn.ConvTranspose3d(2, 2, 2)(T.ones(1, 2, 2, 2, 2), output_size=(9, 9, 9)),
    lambda T: T.nn.MaxPool3d(2)(T.ones(2, 3, 4)),
    lambda T: T.nn.AvgPool3d(3)(T.ones(1, 1, 2, 2, 2)),
    lambda T: T.nn.AdaptiveMaxPool3d(2)(T.ones(2, 3)),
    lambda T: T.nn.AdaptiveAvgPool3d((2, 2))(T.ones(1, 2, 3, 3, 3)),
    lambda T: T.nn.MaxUnpool2d(2)(T.ones(1, 1, 2, 2), T.zeros(1, 1, 2, 2)),
    lambda T: T.nn.MaxUnpool2d(2)(T.ones(1, 1, 2, 2), T.full((1, 1, 2, 2), 99)),
    lambda T: T.nn.MaxUnpool3d(2)(T.ones(1, 1, 2, 2, 2), T.zeros(1, 1, 2, 2, 2).long(), [1, 2]),
    lambda T: T.nn.Dropout3d(1.5),
    lambda T: T.nn.TransformerDecoderLayer(8, 2, activation="tanh"),
    lambda T: T.nn.Transformer(8, 2, 1, 1, 16)(T.ones(3, 2, 8), T.ones(3, 4, 8)),
    lambda T: T.nn.Transformer(8, 2, 1, 1, 16)(T.ones(3, 2, 8), T.ones(3, 2, 6)),
]


@pytest.mark.parametrize("case", ERROR_CASES)
def test_errors_match_torch(case):
    errs = []
    for T in LIBS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                case(T)
            except Exception as e:
                errs.append((type(e).__name__, str(e)))
            else:
                errs.append(None)
    assert errs[0] is not None
    assert errs[1] == errs[0]


# --- transformer --------------------------------------------------------------------------


def _compare_transformer(make, call, inputs, train=False):
    res, ref = [], None
    for T in LIBS:
        torch.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mod = make(T).double()
        if T is shadowgrad:
            _copy_weights(ref, mod)
        else:
            ref = mod
        mod.train(train)
        ts = [T.tensor(v, requires_grad=v.dtype == np.float64) for v in inputs]
        out = call(T, mod, *ts)
        out.backward(T.tensor(np.sin(np.arange(out.numel())).reshape(out.shape)))
        grads = [_np_copy(t.grad) for t in ts if t.requires_grad]
        grads += [_np_copy(p.grad) for p in mod.parameters()]
        res.append(([_np_copy(out), *grads], _names(out)))
    assert res[0][1] == res[1][1]
    for a, b in zip(res[0][0], res[1][0], strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-9, atol=1e-11)


def _dec(**kw):
    return lambda T: T.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, **kw)


def _causal(T, n):
    return T.nn.Transformer.generate_square_subsequent_mask(n, dtype=T.float64)


DECODER_CASES = [
    ("post-norm", _dec(), lambda T, m, t, mem: m(t, mem), (_x(4, 2, 8), _x(5, 2, 8, seed=1))),
    (
        "norm_first gelu batch_first",
        _dec(norm_first=True, activation="gelu", batch_first=True),
        lambda T, m, t, mem: m(t, mem),
        (_x(2, 4, 8), _x(2, 5, 8, seed=1)),
    ),
    (
        "callable activation, masks",
        _dec(activation=lambda x: x.tanh()),
        lambda T, m, t, mem, kpm: m(
            t, mem, tgt_mask=_causal(T, 4), memory_key_padding_mask=kpm, tgt_is_causal=True
        ),
        (_x(4, 2, 8), _x(5, 2, 8, seed=1), np.array([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]], bool)),
    ),
    (
        "unbatched, no bias",
        _dec(bias=False),
        lambda T, m, t, mem: m(t, mem, memory_mask=T.zeros(4, 5, dtype=T.float64)),
        (_x(4, 8), _x(5, 8, seed=1)),
    ),
    (
        "decoder stack with norm, causal detected",
        lambda T: T.nn.TransformerDecoder(_dec()(T), 2, norm=T.nn.LayerNorm(8)),
        lambda T, m, t, mem, kpm: m(t, mem, tgt_mask=_causal(T, 4), tgt_key_padding_mask=kpm),
        (_x(4, 2, 8), _x(5, 2, 8, seed=1), np.array([[0, 0, 0, 1], [0, 0, 0, 0]], bool)),
    ),
    (
        "transformer",
        lambda T: T.nn.Transformer(8, 2, 2, 2, 16, dropout=0.0),
        lambda T, m, s, t: m(s, t, tgt_mask=_causal(T, 4)),
        (_x(5, 2, 8), _x(4, 2, 8, seed=1)),
    ),
    (
        "transformer batch_first norm_first padding masks",
        lambda T: T.nn.Transformer(
            8, 2, 1, 1, 16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu"
        ),
        lambda T, m, s, t, kpm: m(
            s, t, src_key_padding_mask=kpm, memory_key_padding_mask=kpm, tgt_is_causal=False
        ),
        (_x(2, 5, 8), _x(2, 4, 8, seed=1), np.array([[0, 0, 0, 0, 1], [0, 0, 0, 0, 0]], bool)),
    ),
]


@pytest.mark.parametrize("name,make,call,inputs", DECODER_CASES, ids=[c[0] for c in DECODER_CASES])
@pytest.mark.parametrize("train", [False, True])
def test_transformer_decoder_matches_torch(name, make, call, inputs, train):
    _compare_transformer(make, call, inputs, train)


def test_transformer_init_and_mask_match_torch():
    a = shadowgrad.nn.Transformer.generate_square_subsequent_mask(4)
    b = torch.nn.Transformer.generate_square_subsequent_mask(4)
    assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
    np.testing.assert_array_equal(_np_copy(a), _np_copy(b))
    # xavier-uniform matrices, LayerNorms at ones/zeros, biases as the layers leave them
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shadowgrad.manual_seed(0)
        m = shadowgrad.nn.Transformer(16, 4, 1, 1, 32)
    w = m.encoder.layers[0].linear1.weight.detach().numpy()
    bound = np.sqrt(6.0 / (16 + 32))
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    assert (m.decoder.norm.weight.detach().numpy() == 1).all()
    assert (m.decoder.layers[0].multihead_attn.in_proj_bias.detach().numpy() == 0).all()
