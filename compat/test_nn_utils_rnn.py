"""torch.nn.utils.rnn (packing and padding) and packed input through RNN/LSTM/GRU, against torch.

Each program is written once, takes the library as its argument, and runs from the same numpy
inputs (and, for the recurrent layers, torch's initial weights copied through numpy); values,
dtypes, batch sizes, indices, gradients, grad_fn names and graph shapes, reprs and errors must
agree.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)
rng = np.random.default_rng(0)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def _graph(fn, depth=0):
    """grad_fn names down the graph (AccumulateGrad and None included), a few levels deep."""
    if fn is None:
        return None
    name = fn.name().replace("torch::autograd::", "")
    if depth == 6:
        return name
    return (name, [_graph(n, depth + 1) for n, _ in fn.next_functions])


def _weights(T, o):
    w = T.tensor(np.linspace(-1.0, 2.0, max(o.numel(), 1))[: o.numel()].reshape(tuple(o.shape)))
    return w.to(o.dtype)


def _loss(T, outs):
    # fixed, non-uniform cotangents so that every element's gradient is checked
    total = 0
    for o in outs:
        if getattr(o, "requires_grad", False):
            total = total + (o * _weights(T, o)).sum() + (o**2).sum()
    return total


def _flat(o):
    if isinstance(o, (tuple, list)):
        return [q for p in o for q in _flat(p)]
    return [] if o is None else [o]


def _assert_same(a, b, rtol=1e-5, atol=1e-6):
    if b is None or isinstance(b, (bool, int, float, str)):
        assert a == b
        return
    assert tuple(a.shape) == tuple(b.shape)
    assert str(a.dtype) == str(b.dtype)
    assert a.requires_grad == b.requires_grad
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol, atol)


def _differential(prog, arrays, n_grad=None, rtol=1e-5, atol=1e-6):
    """Run prog(T, xs) in both libraries; compare its outputs, graphs and input gradients."""
    res = {}
    for T in LIBS:
        xs = [T.tensor(a) for a in arrays]
        for i, x in enumerate(xs):
            if x.dtype.is_floating_point and (n_grad is None or i < n_grad):
                x.requires_grad_()
        outs = _flat(prog(T, xs))
        graphs = [_graph(o.grad_fn) if isinstance(o, T.Tensor) else None for o in outs]
        leaves = [x for x in xs if x.requires_grad]
        grads = T.autograd.grad(_loss(T, outs), leaves, allow_unused=True) if leaves else ()
        res[T] = (outs, graphs, grads)
    (to, tg, tgr), (so, sg, sgr) = res[torch], res[shadowgrad]
    assert len(so) == len(to)
    for a, b in zip(so, to, strict=True):
        _assert_same(a, b, rtol, atol)
    assert sg == tg
    for a, b in zip(sgr, tgr, strict=True):
        assert (a is None) == (b is None)
        if b is not None:
            _assert_same(a, b, rtol, atol * 10)


def _packed(p):
    return [p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices]


def _raises_same(prog):
    errs = []
    for T in LIBS:
        with pytest.raises(Exception) as info:
            prog(T)
        errs.append(info.value)
    assert type(errs[1]) is type(errs[0])
    assert str(errs[1]) == str(errs[0])


# --- packing and padding ------------------------------------------------------------------
PACK_CASES = {
    "sorted_list": ((4, 3, 2), [4, 2, 1], False, True),
    "sorted_tensor": ((4, 3, 2), "tensor", False, True),
    "unsorted": ((4, 3, 2), [2, 4, 1], False, False),
    "unsorted_ties": ((3, 5), [2, 3, 2, 3, 1], False, False),
    "batch_first": ((3, 4, 2), [4, 3, 3], True, True),
    "batch_first_unsorted": ((3, 4, 2, 2), [1, 4, 2], True, False),
    "no_feature_dims": ((5, 2), [5, 3], False, True),
    "equal_lengths": ((3, 3, 2), [3, 3, 3], False, True),
    "shorter_than_padding": ((6, 2, 1), [3, 2], False, True),
    "float_lengths": ((4, 3, 2), [4.0, 2.5, 1.0], False, True),
}


@pytest.mark.parametrize("name", list(PACK_CASES))
def test_pack_padded_sequence_matches_torch(name):
    shape, lengths, batch_first, enforce_sorted = PACK_CASES[name]

    def prog(T, xs):
        lens = T.tensor([4, 2, 1], dtype=T.int32) if lengths == "tensor" else lengths
        p = T.nn.utils.rnn.pack_padded_sequence(xs[0], lens, batch_first, enforce_sorted)
        assert type(p).__name__ == "PackedSequence"
        return _packed(p)

    _differential(prog, [f32(*shape)])


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("total_length", [None, 7])
def test_pad_packed_sequence_matches_torch(batch_first, enforce_sorted, total_length):
    lengths = [5, 3, 3, 1] if enforce_sorted else [3, 5, 1, 3]

    def prog(T, xs):
        p = T.nn.utils.rnn.pack_padded_sequence(xs[0], lengths, enforce_sorted=enforce_sorted)
        out, lens = T.nn.utils.rnn.pad_packed_sequence(
            p, batch_first, padding_value=-2.5, total_length=total_length
        )
        return [out, lens]

    _differential(prog, [f32(5, 4, 3)])


def test_pad_packed_sequence_round_trip_keeps_values():
    def prog(T, xs):
        p = T.nn.utils.rnn.pack_padded_sequence(xs[0], [3, 1, 2], True, False)
        out, lens = T.nn.utils.rnn.pad_packed_sequence(p, batch_first=True)
        return [out, lens, out.dtype == xs[0].dtype]

    _differential(prog, [np.arange(18, dtype=np.int64).reshape(3, 3, 2)])


PAD_CASES = {
    "time_major": ([(3, 2), (1, 2), (4, 2)], {}),
    "batch_first": ([(3, 2), (1, 2), (4, 2)], {"batch_first": True}),
    "left": ([(3, 2), (1, 2)], {"padding_side": "left", "padding_value": -1.0}),
    "left_batch_first": ([(3,), (5,), (1,)], {"padding_side": "left", "batch_first": True}),
    "scalar_steps": ([(3,), (2,)], {"padding_value": 7}),
    "empty_sequence": ([(3, 2), (0, 2)], {}),
    "all_empty": ([(0, 2), (0, 2)], {"batch_first": True}),
}


@pytest.mark.parametrize("name", list(PAD_CASES))
def test_pad_sequence_matches_torch(name):
    shapes, kwargs = PAD_CASES[name]
    _differential(
        lambda T, xs: T.nn.utils.rnn.pad_sequence(xs, **kwargs), [f32(*s) for s in shapes]
    )


def test_pad_sequence_of_a_tensor_and_of_ints():
    _differential(lambda T, xs: T.nn.utils.rnn.pad_sequence(xs[0]), [f32(2, 3)])
    _differential(
        lambda T, xs: T.nn.utils.rnn.pad_sequence(xs, True, 2.7),
        [np.array([1, 2]), np.array([3, 4, 5])],
    )
    _differential(  # the output takes the first sequence's dtype
        lambda T, xs: T.nn.utils.rnn.pad_sequence([xs[0], xs[1].double()]),
        [f32(2), f32(3)],
    )


def test_pack_sequence_and_unpack_sequence_match_torch():
    def prog(T, xs):
        p = T.nn.utils.rnn.pack_sequence(xs)
        q = T.nn.utils.rnn.pack_sequence(xs[::-1], enforce_sorted=False)
        return _packed(p) + _packed(q) + T.nn.utils.rnn.unpack_sequence(q)

    _differential(prog, [f32(4, 2), f32(3, 2), f32(1, 2)])


@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence_matches_torch(batch_first):
    def prog(T, xs):
        padded = xs[0] * 1  # torch transposes a time-major input in place
        seqs = T.nn.utils.rnn.unpad_sequence(padded, T.tensor([3, 1, 2]), batch_first)
        return [*seqs, padded]

    _differential(prog, [f32(3, 3, 2)])


def test_unpad_sequence_transposes_time_major_input_in_place():
    for T in LIBS:
        x = T.zeros(4, 2, 1)
        T.nn.utils.rnn.unpad_sequence(x, T.tensor([4, 1]))
        assert tuple(x.shape) == (2, 4, 1)


def test_packed_sequence_double_backward_float64():
    def grads(T):
        x = T.tensor(np.linspace(-1, 1, 24).reshape(4, 3, 2), requires_grad=True)
        p = T.nn.utils.rnn.pack_padded_sequence(x, [2, 4, 3], enforce_sorted=False)
        out, _ = T.nn.utils.rnn.pad_packed_sequence(p, batch_first=True)
        (g,) = T.autograd.grad((out**3).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), x)
        return g, gg

    for a, b in zip(grads(shadowgrad), grads(torch), strict=True):
        _assert_same(a, b, 1e-12, 1e-12)


# --- PackedSequence -----------------------------------------------------------------------
def _example(T, sort=True):
    x = T.arange(12, dtype=T.float32).reshape(4, 3)
    lengths = [4, 2, 1] if sort else [2, 4, 1]
    return T.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=sort)


def test_packed_sequence_is_a_namedtuple_like_torchs():
    t, s = _example(torch, False), _example(shadowgrad, False)
    assert repr(s) == repr(t)
    assert s._fields == t._fields
    assert [c.__name__ for c in type(s).__mro__] == [c.__name__ for c in type(t).__mro__]
    assert len(s) == 4 and s[0] is s.data
    assert s.is_cuda is t.is_cuda is False
    assert s.is_pinned() is t.is_pinned()
    r = s._replace(data=s.data * 2)
    assert type(r) is type(s)


@pytest.mark.parametrize("method", ["float", "double", "long", "int", "short", "char", "byte"])
def test_packed_sequence_conversions_match_torch(method):
    for sort in (True, False):
        t = getattr(_example(torch, sort), method)()
        s = getattr(_example(shadowgrad, sort), method)()
        assert repr(s) == repr(t)


def test_packed_sequence_to_returns_self_when_unchanged():
    for T in LIBS:
        p = _example(T, False)
        assert p.to(T.float32) is p and p.cpu() is p and p.float() is p
        q = p.to(dtype=T.float64)
        assert q is not p and q.sorted_indices is p.sorted_indices
        assert q.batch_sizes is p.batch_sizes


def test_packed_sequence_constructor_forms_match_torch():
    def build(T):
        data, sizes = T.arange(3.0), T.tensor([2, 1])
        return [
            T.nn.utils.rnn.PackedSequence(data, sizes),
            T.nn.utils.rnn.PackedSequence(data, sizes, T.tensor([1, 0])),
            T.nn.utils.rnn.PackedSequence((data, sizes)),
            T.nn.utils.rnn.PackedSequence([data, sizes], sorted_indices=T.tensor([1, 0])),
        ]

    assert [repr(p) for p in build(shadowgrad)] == [repr(p) for p in build(torch)]
    _raises_same(lambda T: T.nn.utils.rnn.PackedSequence(T.ones(3)))


def test_invert_permutation_matches_torch():
    for perm in ([2, 0, 1], [0], [3, 1, 0, 2]):
        t = torch.nn.utils.rnn.invert_permutation(torch.tensor(perm))
        s = shadowgrad.nn.utils.rnn.invert_permutation(shadowgrad.tensor(perm))
        _assert_same(s, t)
    assert shadowgrad.nn.utils.rnn.invert_permutation(None) is None


def test_nn_utils_exports_rnn():
    assert "rnn" in shadowgrad.nn.utils.__all__
    assert sorted(shadowgrad.nn.utils.rnn.__all__) == sorted(torch.nn.utils.rnn.__all__)


ERRORS = {
    "unsorted": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.ones(4, 3, 2), [2, 4, 1]),
    "zero_length": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.ones(4, 3), [4, 2, 0]),
    "zero_unsorted": lambda T: T.nn.utils.rnn.pack_padded_sequence(
        T.ones(4, 3), [0, 2, 1], enforce_sorted=False
    ),
    "negative": lambda T: T.nn.utils.rnn.pack_padded_sequence(
        T.ones(4, 3), [-1, 2, 1], enforce_sorted=False
    ),
    "unsorted_before_zero": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.ones(4, 3), [2, 4, 0]),
    "wrong_count": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.ones(4, 3, 2), [4, 2]),
    "lengths_2d": lambda T: T.nn.utils.rnn.pack_padded_sequence(
        T.ones(4, 3), T.tensor([[4, 2, 1]])
    ),
    "empty": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.ones(4, 0, 2), []),
    "total_length": lambda T: T.nn.utils.rnn.pad_packed_sequence(
        T.nn.utils.rnn.pack_padded_sequence(T.ones(4, 3), [4, 2, 1]), total_length=3
    ),
    "pad_empty": lambda T: T.nn.utils.rnn.pad_sequence([]),
    "pack_empty": lambda T: T.nn.utils.rnn.pack_sequence([]),
    "pad_not_iterable": lambda T: T.nn.utils.rnn.pad_sequence(3),
    "pad_side": lambda T: T.nn.utils.rnn.pad_sequence([T.ones(2)], padding_side="top"),
    "pad_scalars": lambda T: T.nn.utils.rnn.pad_sequence([T.ones(()), T.ones(3)]),
    "pack_unsorted_list": lambda T: T.nn.utils.rnn.pack_sequence([T.ones(2), T.ones(3)]),
    "pad_packed_tensor": lambda T: T.nn.utils.rnn.pad_packed_sequence(T.ones(3, 2)),
    "unpad_list_lengths": lambda T: T.nn.utils.rnn.unpad_sequence(T.ones(3, 2), [3, 1]),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    _raises_same(ERRORS[name])


def test_pad_sequence_trailing_shape_mismatch_raises_runtime_error():
    # same type as torch; the message comes from Tensor.copy_'s broadcast check
    for T in LIBS:
        with pytest.raises(RuntimeError, match="must match the size"):
            T.nn.utils.rnn.pad_sequence([T.ones(2, 3), T.ones(2, 2)])


# --- packed input through RNN / LSTM / GRU ------------------------------------------------
def _copy(src, dst):
    dst.load_state_dict(
        {k: shadowgrad.tensor(v.detach().numpy().copy()) for k, v in src.state_dict().items()}
    )


RNN_CASES = {
    "rnn_tanh": lambda T: T.nn.RNN(3, 4),
    "rnn_relu_2layers": lambda T: T.nn.RNN(3, 4, 2, nonlinearity="relu"),
    "rnn_bidir_2layers": lambda T: T.nn.RNN(3, 4, 2, bidirectional=True),
    "gru": lambda T: T.nn.GRU(3, 4),
    "gru_bidir_nobias": lambda T: T.nn.GRU(3, 4, 2, bias=False, bidirectional=True),
    "lstm": lambda T: T.nn.LSTM(3, 4),
    "lstm_bidir_2layers": lambda T: T.nn.LSTM(3, 4, 2, bidirectional=True),
    "lstm_proj_bidir": lambda T: T.nn.LSTM(3, 5, 2, proj_size=2, bidirectional=True),
    "lstm_batch_first_module": lambda T: T.nn.LSTM(3, 4, batch_first=True),
}

LENGTHS = {
    "sorted": ([5, 3, 3, 1], True),
    "unsorted": ([3, 5, 1, 3], False),
    "unsorted_ties": ([2, 5, 2, 5], False),
}


def _run_packed(make, lengths, enforce_sorted, with_hx, batch_first_input=False):
    x = f32(4, 5, 3) if batch_first_input else f32(5, 4, 3)
    res = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: "LSTM with projections is not supported..."
        tm = make(torch)
    sm = make(shadowgrad)
    _copy(tm, sm)
    lstm = isinstance(tm, torch.nn.LSTM)
    layers = tm.num_layers * (2 if tm.bidirectional else 1)
    real = tm.proj_size or tm.hidden_size
    h0 = f32(layers, 4, real)
    c0 = f32(layers, 4, tm.hidden_size)
    for T, m in ((torch, tm), (shadowgrad, sm)):
        xt = T.tensor(x, requires_grad=True)
        hs = [T.tensor(h0, requires_grad=True), T.tensor(c0, requires_grad=True)]
        p = T.nn.utils.rnn.pack_padded_sequence(xt, lengths, batch_first_input, enforce_sorted)
        hx = None if not with_hx else (tuple(hs) if lstm else hs[0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out, h = m(p, hx)
        assert type(out).__name__ == "PackedSequence"
        padded, lens = T.nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        finals = list(h) if lstm else [h]
        outs = [*_packed(out), padded, lens, *finals]
        leaves = [xt, *(hs[: 1 + lstm] if with_hx else []), *m.parameters()]
        grads = T.autograd.grad(_loss(T, outs), leaves, allow_unused=True)
        names = [out.data.grad_fn.name(), *(f.grad_fn.name() for f in finals)]
        res[T] = (outs, grads, names)
    return res


@pytest.mark.parametrize("lengths", list(LENGTHS))
@pytest.mark.parametrize("name", list(RNN_CASES))
def test_packed_input_through_recurrent_layers_matches_torch(name, lengths):
    lens, enforce_sorted = LENGTHS[lengths]
    for with_hx in (False, True):
        res = _run_packed(RNN_CASES[name], lens, enforce_sorted, with_hx)
        (to, tg, tn), (so, sg, sn) = res[torch], res[shadowgrad]
        for a, b in zip(so, to, strict=True):
            _assert_same(a, b, 1e-4, 1e-5)
        for a, b in zip(sg, tg, strict=True):
            assert (a is None) == (b is None)
            if b is not None:
                _assert_same(a, b, 1e-4, 1e-4)
        assert sn == tn


def test_packed_batch_first_padded_input_through_gru():
    res = _run_packed(lambda T: T.nn.GRU(3, 4, 2), [4, 5, 2, 5], False, True, True)
    for a, b in zip(
        res[shadowgrad][0] + list(res[shadowgrad][1]),
        res[torch][0] + list(res[torch][1]),
        strict=True,
    ):
        _assert_same(a, b, 1e-4, 1e-4)


def test_packed_final_states_cover_only_valid_steps():
    # h_n of each sequence equals the last output of its valid steps (forward direction)
    m = shadowgrad.nn.GRU(3, 4)
    x = shadowgrad.tensor(f32(5, 3, 3))
    p = shadowgrad.nn.utils.rnn.pack_padded_sequence(x, [2, 5, 3], enforce_sorted=False)
    out, h = m(p)
    padded, lens = shadowgrad.nn.utils.rnn.pad_packed_sequence(out)
    for b, n in enumerate(lens.tolist()):
        np.testing.assert_allclose(h[0, b].detach().numpy(), padded[n - 1, b].detach().numpy())


def test_packed_recurrent_double_backward_float64():
    def grads(T, m):
        x = T.tensor(np.linspace(-1, 1, 36).reshape(4, 3, 3), requires_grad=True)
        p = T.nn.utils.rnn.pack_padded_sequence(x, [2, 4, 3], enforce_sorted=False)
        out, h = m(p)
        (g,) = T.autograd.grad((out.data**2).sum() + (h**2).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), x)
        return g, gg

    tm = torch.nn.GRU(3, 4, bidirectional=True, dtype=torch.float64)
    sm = shadowgrad.nn.GRU(3, 4, bidirectional=True, dtype=shadowgrad.float64)
    _copy(tm, sm)
    for a, b in zip(grads(shadowgrad, sm), grads(torch, tm), strict=True):
        _assert_same(a, b, 1e-9, 1e-10)


def _packed_x(T):
    x = T.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 3, 2))
    return T.nn.utils.rnn.pack_padded_sequence(x, [4, 2, 1])


RNN_ERRORS = {
    "rnn_hidden_batch": lambda T: T.nn.RNN(2, 3)(_packed_x(T), T.zeros(1, 2, 3)),
    "gru_hidden_batch": lambda T: T.nn.GRU(2, 3)(_packed_x(T), T.zeros(1, 2, 3)),
    "rnn_hidden_dims": lambda T: T.nn.RNN(2, 3)(_packed_x(T), T.zeros(3, 3)),
    "rnn_input_size": lambda T: T.nn.RNN(3, 3)(_packed_x(T)),
    "rnn_dtype": lambda T: T.nn.RNN(2, 3)(_packed_x(T).double()),
    "lstm_input_size": lambda T: T.nn.LSTM(3, 3)(_packed_x(T)),
    "lstm_h_batch": lambda T: T.nn.LSTM(2, 3)(_packed_x(T), (T.zeros(1, 2, 3), T.zeros(1, 3, 3))),
    "lstm_c_batch": lambda T: T.nn.LSTM(2, 3)(_packed_x(T), (T.zeros(1, 3, 3), T.zeros(1, 2, 3))),
    "lstm_hc_batch": lambda T: T.nn.LSTM(2, 3)(_packed_x(T), (T.zeros(1, 2, 3), T.zeros(1, 2, 3))),
}


@pytest.mark.parametrize("name", list(RNN_ERRORS))
def test_packed_input_errors_match_torch(name):
    _raises_same(RNN_ERRORS[name])


def test_pack_sequence_lstm_pad_pipeline_matches_torch():
    # the usual pattern: pack_sequence -> LSTM -> pad_packed_sequence(total_length) -> loss
    seqs = [f32(n, 3) for n in (2, 5, 3)]
    tm = torch.nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True)
    sm = shadowgrad.nn.LSTM(3, 4, 2, bidirectional=True, batch_first=True)
    _copy(tm, sm)
    res = {}
    for T, m in ((torch, tm), (shadowgrad, sm)):
        xs = [T.tensor(s, requires_grad=True) for s in seqs]
        h0 = T.tensor(np.linspace(-1, 1, 48, dtype=np.float32).reshape(4, 3, 4))
        c0 = h0 * 0.5
        p = T.nn.utils.rnn.pack_sequence(xs, enforce_sorted=False)
        out, (h, c) = m(p, (h0, c0))
        padded, lens = T.nn.utils.rnn.pad_packed_sequence(out, True, -1.0, total_length=7)
        grads = T.autograd.grad(_loss(T, [padded, h, c]), [*xs, *m.parameters()])
        res[T] = [padded, lens, h, c, *grads]
        np.testing.assert_array_equal(
            h0.numpy(), np.linspace(-1, 1, 48, dtype=np.float32).reshape(4, 3, 4)
        )
    for a, b in zip(res[shadowgrad], res[torch], strict=True):
        _assert_same(a, b, 1e-4, 1e-4)
