"""nn functions torch runs as fused kernels, against torch: the whole backward graph.

Each program runs in both libraries on the same inputs; the outputs' values, the grad_fn names
of the whole graph (every node's name and its next_functions, in order), the gradients and,
where torch has one, the double backward are compared. Covered: F.bilinear (torch's
_trilinear: TrilinearBackward0 then ViewBackward0), F.pad(mode="circular") (slice copies into a
new tensor: CopySlices over SliceBackward0), F.scaled_dot_product_attention (the CPU flash
kernel's one node where torch picks it, the math backend's _safe_softmax elsewhere), the
float32 LSTM (one MkldnnRnnLayerBackward0 per layer and direction) and torch's composed
recurrences (RNN, GRU, the other LSTMs, packed sequences).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def graph(fn: Any) -> Any:
    """The whole graph below a node: every node, numbered in breadth-first order, with its
    name and its next_functions as (node number, input number), None for a missing edge.
    Shared nodes appear once, so this is linear in the graph's size and compares sharing too."""
    if fn is None:
        return None
    number = {id(fn): 0}
    nodes = [fn]
    i = 0
    while i < len(nodes):
        for n, _ in nodes[i].next_functions:
            if n is not None and id(n) not in number:
                number[id(n)] = len(nodes)
                nodes.append(n)
        i += 1
    return tuple(
        (
            type(n).__name__,
            tuple(None if c is None else (number[id(c)], k) for c, k in n.next_functions),
        )
        for n in nodes
    )


def _np(t: Any) -> np.ndarray:
    return t.detach().numpy()


def _leaves(T: Any, arrays: list[np.ndarray], dtype: str) -> list[Any]:
    return [T.tensor(a).to(getattr(T, dtype)).requires_grad_() for a in arrays]


def _close(a: Any, b: Any, rtol: float, atol: float) -> None:
    if a is None or b is None:
        assert a is None and b is None
        return
    np.testing.assert_allclose(_np(a), _np(b), rtol=rtol, atol=atol)


def _compare(
    prog: Any, arrays: list[np.ndarray], dtype: str = "float32", gradgrad: bool = True
) -> None:
    """Run prog(T, leaves) -> outputs in both libraries and compare graphs, values, grads."""
    rtol, atol = (1e-4, 1e-5) if dtype == "float32" else (1e-9, 1e-10)
    res = []
    for T in LIBS:
        xs = _leaves(T, arrays, dtype)
        outs = prog(T, xs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        rng = np.random.default_rng(3)
        cots = [T.tensor(rng.standard_normal(tuple(o.shape))).to(o.dtype) for o in outs]
        grads = T.autograd.grad(outs, xs, cots, create_graph=gradgrad, allow_unused=True)
        second = None
        if gradgrad:
            used = [g for g in grads if g is not None and g.requires_grad]
            if used:
                total = sum((g * g).sum() for g in used)
                second = T.autograd.grad(total, xs, allow_unused=True)
        res.append((outs, [graph(o.grad_fn) for o in outs], grads, second))
    (t_outs, t_graph, t_grads, t_2), (s_outs, s_graph, s_grads, s_2) = res
    assert s_graph == t_graph
    for a, b in zip(s_outs, t_outs, strict=True):
        assert str(a.dtype) == str(b.dtype)
        _close(a, b, rtol, atol)
    for a, b in zip(s_grads, t_grads, strict=True):
        _close(a, b, rtol, atol)
    assert (s_2 is None) == (t_2 is None)
    if t_2 is not None:
        for a, b in zip(s_2, t_2, strict=True):
            _close(a, b, rtol * 10, atol * 10)


def _rand(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape)


# --- F.bilinear -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize(
    ("n1", "n2"), [((5, 3), (5, 4)), ((2, 5, 3), (2, 5, 4)), ((3,), (4,))], ids=["2d", "3d", "1d"]
)
def test_bilinear_graph_matches_torch(n1: Any, n2: Any, bias: bool, dtype: str) -> None:
    arrays = [_rand(*n1), _rand(*n2, seed=1), _rand(2, 3, 4)] + ([_rand(2)] if bias else [])

    def prog(T: Any, xs: list[Any]) -> Any:
        return T.nn.functional.bilinear(*xs)

    _compare(prog, arrays, dtype)


def test_bilinear_saves_torchs_trilinear_arguments() -> None:
    nodes = []
    for T in LIBS:
        xs = _leaves(T, [_rand(5, 3), _rand(5, 4), _rand(2, 3, 4)], "float32")
        nodes.append(T.nn.functional.bilinear(*xs).grad_fn.next_functions[0][0])
    for name in ("expand1", "expand2", "expand3", "sumdim"):
        assert getattr(nodes[1], f"_saved_{name}") == getattr(nodes[0], f"_saved_{name}")


def test_bilinear_non_contiguous_input_reshapes_as_torch() -> None:
    def prog(T: Any, xs: list[Any]) -> Any:
        return T.nn.functional.bilinear(xs[0].transpose(0, 1), xs[1], xs[2])

    _compare(prog, [_rand(2, 4, 3).transpose(1, 0, 2).copy(), _rand(2, 4, 5), _rand(3, 3, 5)])


@pytest.mark.parametrize(
    "shapes",
    [
        ((4, 3), (4, 2, 1), (5, 3, 2)),
        ((4, 3), (3, 2), (5, 3, 2)),
        ((4, 3), (4, 2), (5, 2, 2)),
        ((4, 3), (4, 3), (5, 3, 2)),
        ((4, 3), (4, 2), (5, 3, 2), (4,)),
        ((4, 3), (4, 2), (5, 3)),
    ],
)
def test_bilinear_errors_match_torch(shapes: Any) -> None:
    errors = []
    for T in LIBS:
        with pytest.raises(Exception) as info:
            T.nn.functional.bilinear(*[T.tensor(_rand(*s)) for s in shapes])
        errors.append((type(info.value), str(info.value)))
    assert errors[1] == errors[0]


# --- F.pad(mode="circular") -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "pad"),
    [
        ((2, 3, 4), (1, 2)),
        ((3, 4), (2, 1)),
        ((2, 3, 4), (4, 4)),
        ((2, 3, 4), (-1, 2)),
        ((2, 3, 4), (-2, -2)),
        ((2, 2, 3, 4), (1, 2, 2, 0)),
        ((2, 2, 3, 4), (-1, 2, 1, -1)),
        ((2, 3, 4), (1, 1, 1, 1)),
        ((1, 2, 3, 3, 4), (1, 1, 2, 1, 0, 1)),
        ((2, 3, 3, 4), (0, 0, 0, 0, 0, 0)),
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_circular_pad_graph_matches_torch(shape: Any, pad: Any, dtype: str) -> None:
    def prog(T: Any, xs: list[Any]) -> Any:
        return T.nn.functional.pad(xs[0] * 2, pad, mode="circular")

    _compare(prog, [_rand(*shape)], dtype)


def test_circular_pad_module_and_saved_slices_match_torch() -> None:
    outs = []
    for T in LIBS:
        (x,) = _leaves(T, [_rand(2, 3, 4)], "float32")
        y = T.nn.CircularPad1d((1, 2))(x)
        node = y.grad_fn.next_functions[1][0]  # the slice the right border was copied from
        outs.append((graph(y.grad_fn), [getattr(node, f"_saved_{a}") for a in ("dim", "start")]))
    assert outs[1] == outs[0]


@pytest.mark.parametrize(
    ("shape", "pad"),
    [((2, 3, 4), (5, 0)), ((2, 3, 4), (-3, -2)), ((4,), (1, 1)), ((2, 3, 4), (1, 1, 1, 1, 1, 1))],
)
def test_circular_pad_errors_match_torch(shape: Any, pad: Any) -> None:
    errors = []
    for T in LIBS:
        with pytest.raises(Exception) as info:
            T.nn.functional.pad(T.tensor(_rand(*shape)), pad, mode="circular")
        errors.append((type(info.value), str(info.value)))
    assert errors[1] == errors[0]


# --- F.scaled_dot_product_attention: torch's CPU flash kernel and its choice ------------------

B, H, L, S, E = 2, 3, 4, 5, 6
QKV = [(B, H, L, E), (B, H, S, E), (B, H, S, E)]
_RNG = np.random.default_rng(11)
_BOOL = _RNG.random((L, S)) > 0.4
_BOOL[1] = False  # a fully masked row: output 0 and logsumexp 0, as torch's kernel
SDPA_CASES = {
    "basic": (QKV, {}),
    "causal": (QKV, {"is_causal": True}),
    "causal, more queries": ([(B, H, 7, E), (B, H, S, E), (B, H, S, E)], {"is_causal": True}),
    "bool mask": (QKV, {"mask": _BOOL}),
    "4-d float mask": (QKV, {"mask": (B, 1, L, S)}),
    "broadcast mask": (QKV, {"mask": (1, S)}),
    "mask with grad": (QKV, {"mask": (L, S), "rg": 1}),
    "3-d mask": (QKV, {"mask": (H, L, S)}),
    "causal and mask": (QKV, {"is_causal": True, "mask": (L, S)}),
    "scale": (QKV, {"scale": 0.3}),
    "grouped heads": ([(B, 4, L, E), (B, 2, S, E), (B, 2, S, E)], {"enable_gqa": True}),
    "3-d inputs": ([(B, L, E), (B, S, E), (B, S, E)], {}),
    "3-d bool mask": ([(B, L, E), (B, S, E), (B, S, E)], {"mask": _BOOL}),
    "value head dim": ([(B, H, L, E), (B, H, S, E), (B, H, S, 3)], {}),
    "broadcast batch": ([(B, H, L, E), (1, H, S, E), (1, H, S, E)], {}),
    "transposed query": ([(B, H, E, L), (B, H, S, E), (B, H, S, E)], {"tq": True}),
}  # fmt: skip


def _sdpa(T: Any, xs: list[Any], kw: dict[str, Any], dtype: str) -> Any:
    kw = dict(kw)
    mask = kw.pop("mask", None)
    rg = kw.pop("rg", False)
    q = xs[0].transpose(-1, -2) if kw.pop("tq", False) else xs[0]
    if mask is not None:
        arr = mask if isinstance(mask, np.ndarray) else _rand(*mask, seed=4)
        mask = T.tensor(arr)
        if mask.dtype != T.bool:
            mask = mask.to(getattr(T, dtype)).requires_grad_(bool(rg))
    return T.nn.functional.scaled_dot_product_attention(q, xs[1], xs[2], attn_mask=mask, **kw)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(SDPA_CASES))
def test_sdpa_graph_matches_torch(case: str, dtype: str) -> None:
    shapes, kw = SDPA_CASES[case]
    arrays = [_rand(*s, seed=i) for i, s in enumerate(shapes)]

    def prog(T: Any, xs: list[Any]) -> Any:
        return _sdpa(T, xs, kw, dtype)

    # torch's flash backward has no derivative: its double backward raises (checked below)
    _compare(prog, arrays, dtype, gradgrad=False)


MATH_CASES = ["3-d inputs", "3-d bool mask", "mask with grad", "value head dim", "3-d mask"]


@pytest.mark.parametrize("case", MATH_CASES)
def test_sdpa_math_backend_double_backward_matches_torch(case: str) -> None:
    shapes, kw = SDPA_CASES[case]
    arrays = [_rand(*s, seed=i) for i, s in enumerate(shapes)]

    def prog(T: Any, xs: list[Any]) -> Any:
        return _sdpa(T, xs, kw, "float64")

    _compare(prog, arrays, "float64", gradgrad=True)


def test_sdpa_flash_node_saves_torchs_values() -> None:
    nodes = []
    for T in LIBS:
        xs = _leaves(
            T, [_rand(B, H, L, E), _rand(B, H, S, E, seed=1), _rand(B, H, S, E)], "float32"
        )
        o = _sdpa(T, xs, {"mask": _BOOL, "scale": 0.5}, "float32")
        nodes.append(o.grad_fn)
    t, s = nodes
    assert type(s).__name__ == type(t).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    for name in ("dropout_p", "is_causal", "scale"):
        assert getattr(s, f"_saved_{name}") == getattr(t, f"_saved_{name}")
    for name in ("query", "key", "value", "attn_mask"):
        _close(getattr(s, f"_saved_{name}"), getattr(t, f"_saved_{name}"), 0, 0)
    _close(s._saved_result, t._saved_output, 1e-5, 1e-6)
    _close(s._saved_result1, t._saved_logsumexp, 1e-5, 1e-6)


def test_sdpa_flash_double_backward_raises_as_torch() -> None:
    seen = []
    for T in LIBS:
        xs = _leaves(
            T, [_rand(B, H, L, E), _rand(B, H, S, E, seed=1), _rand(B, H, S, E)], "float32"
        )
        o = T.nn.functional.scaled_dot_product_attention(*xs)
        gs = T.autograd.grad(o.sum(), xs, create_graph=True)
        names = [g.grad_fn.name() for g in gs]
        with pytest.raises(RuntimeError) as info:
            T.autograd.grad(gs[0].sum(), xs)
        seen.append((names, [g.requires_grad for g in gs], str(info.value)))
    assert seen[1] == seen[0]


@pytest.mark.parametrize(
    "make",
    [
        lambda T: (T.ones(2, 3, 4, 6), T.ones(2, 3, 5, 6, dtype=T.float64), T.ones(2, 3, 5, 6)),
        lambda T: (T.ones(2, 3, 4, 6), T.ones(2, 3, 5, 6), T.ones(2, 3, 5, 6), T.ones(5)),
        lambda T: (T.ones(2, 3, 4, 6), T.ones(2, 3, 5, 6), T.ones(2, 3, 5, 6), T.tensor(1.0)),
        lambda T: (T.ones(2, 3, 4, 6), T.ones(2, 3, 5, 6), T.ones(2, 3, 5, 6), T.ones(4, 5).long()),
        lambda T: (T.ones(6), T.ones(5, 6), T.ones(5, 6)),
    ],
    ids=["qkv dtypes", "1-d mask", "0-d mask", "int mask", "1-d query"],
)
def test_sdpa_errors_match_torch(make: Any) -> None:
    errors = []
    for T in LIBS:
        with pytest.raises(Exception) as info:
            T.nn.functional.scaled_dot_product_attention(*make(T))
        errors.append((type(info.value), str(info.value)))
    assert errors[1] == errors[0]


def test_sdpa_causal_with_mask_raises_on_math_path_as_torch() -> None:
    errors = []
    for T in LIBS:
        q, k, v, m = T.ones(2, 4, 6), T.ones(2, 5, 6), T.ones(2, 5, 6), T.ones(4, 5)
        with pytest.raises(RuntimeError) as info:
            T.nn.functional.scaled_dot_product_attention(q, k, v, m, is_causal=True)
        errors.append(str(info.value))
    assert errors[1] == errors[0]


# --- LSTM: torch's oneDNN layers (MkldnnRnnLayerBackward0) -------------------------------------

LSTM_CASES = {
    "one layer": ({}, {}),
    "h0 and c0": ({}, {"h0": True}),
    "batch first": ({"batch_first": True}, {}),
    "2 layers, h0": ({"num_layers": 2}, {"h0": True}),
    "bidirectional": ({"bidirectional": True}, {}),
    "2 layers bidirectional batch first h0": (
        {"num_layers": 2, "bidirectional": True, "batch_first": True},
        {"h0": True},
    ),
    "no bias": ({"bias": False}, {}),
    "unbatched": ({}, {"unbatched": True}),
    "unbatched h0": ({}, {"unbatched": True, "h0": True}),
    "dropout": ({"num_layers": 2, "dropout": 0.5}, {}),
    "float64 (composed)": ({}, {"dtype": "float64"}),
    "float64 batch first bidirectional (composed)": (
        {"batch_first": True, "bidirectional": True},
        {"dtype": "float64", "h0": True},
    ),
    "projections (composed)": ({"proj_size": 3}, {}),
}


def _lstm(T: Any, **kw: Any) -> Any:
    """nn.LSTM(4, 5, **kw) with the same weights in both libraries (and the same generator
    state after, for dropout)."""
    T.manual_seed(0)
    m = T.nn.LSTM(4, 5, **kw)
    r = np.random.default_rng(2)
    with T.no_grad():
        for p in m.parameters():
            p.copy_(T.tensor(r.standard_normal(tuple(p.shape)) * 0.5))
    return m


def _lstm_prog(kw: dict[str, Any], extra: dict[str, Any]) -> tuple[Any, list[np.ndarray]]:
    n = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    x = (6, 4) if extra.get("unbatched") else (3, 6, 4) if kw.get("batch_first") else (6, 3, 4)
    arrays = [_rand(*x)]
    if extra.get("h0"):
        batch = () if extra.get("unbatched") else (3,)
        arrays += [_rand(n, *batch, kw.get("proj_size") or 5, seed=1), _rand(n, *batch, 5)]

    def prog(T: Any, xs: list[Any]) -> Any:
        m = _lstm(T, **kw).to(xs[0].dtype)
        out, (h, c) = m(xs[0], tuple(xs[1:]) or None)
        return out, h, c

    return prog, arrays


@pytest.mark.filterwarnings("ignore:LSTM with projections")
@pytest.mark.parametrize("case", sorted(LSTM_CASES))
def test_lstm_graph_matches_torch(case: str) -> None:
    kw, extra = LSTM_CASES[case]
    prog, arrays = _lstm_prog(kw, extra)
    _compare(prog, arrays, extra.get("dtype", "float32"))


def test_lstm_parameter_grads_and_saved_values_match_torch() -> None:
    res = []
    for T in LIBS:
        m = _lstm(T, num_layers=2, bidirectional=True)
        x = T.tensor(_rand(6, 3, 4)).to(T.float32).requires_grad_()
        out, (h, c) = m(x)
        node = out.grad_fn.next_functions[0][0]
        saved = [getattr(node, f"_saved_{a}") for a in ("reverse", "mode", "hidden_size")]
        saved += [getattr(node, f"_saved_{a}") for a in ("num_layers", "has_biases", "train")]
        (out.sum() + h.sum() * 2 + c.sum() * 3).backward()
        res.append(({n: p.grad for n, p in m.named_parameters()}, saved))
    assert res[1][1] == res[0][1]
    for name, g in res[0][0].items():
        _close(res[1][0][name], g, 1e-4, 1e-5)


def test_functional_lstm_records_torchs_layers() -> None:
    graphs = []
    for T in LIBS:
        m = _lstm(T, num_layers=2, batch_first=True)
        x = T.tensor(_rand(3, 6, 4)).to(T.float32).requires_grad_()
        h0 = T.zeros(2, 3, 5, requires_grad=True)
        out, h, c = T.lstm(
            x, (h0, T.zeros(2, 3, 5)), m._flat_weights, True, 2, 0.0, True, False, True
        )
        graphs.append([graph(t.grad_fn) for t in (out, h, c)])
    assert graphs[1] == graphs[0]


def test_lstm_with_grad_off_and_without_input_grad_match_torch() -> None:
    res = []
    for T in LIBS:
        m = _lstm(T)
        x = T.tensor(_rand(6, 3, 4)).to(T.float32)
        with T.no_grad():
            off = m(x)[0]
        on = m(x)[0]
        res.append((off.grad_fn, off.numpy(), graph(on.grad_fn)))
    assert res[1][0] is None and res[0][0] is None
    np.testing.assert_allclose(res[1][1], res[0][1], rtol=1e-5, atol=1e-6)
    assert res[1][2] == res[0][2]


# torch's composed recurrences (RNN, GRU; LSTM in float64, with projections or packed): the
# same nodes in the same order (linear_hh(h) + gi, unsafe_chunk, narrow per packed step,
# transpose_ of a batch-first RNN/GRU output)


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize(
    "kw",
    [{}, {"batch_first": True}, {"num_layers": 2, "bidirectional": True}, {"bias": False}],
    ids=["plain", "batch first", "2 layers bidirectional", "no bias"],
)
def test_composed_recurrence_graph_matches_torch(kind: str, kw: dict[str, Any]) -> None:
    def prog(T: Any, xs: list[Any]) -> Any:
        T.manual_seed(0)
        m = getattr(T.nn, kind)(3, 4, **kw).to(T.float64)
        out, h = m(xs[0])
        return (out, *h) if isinstance(h, tuple) else (out, h)

    _compare(prog, [_rand(3, 2, 3)], "float64")


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_packed_recurrence_graph_matches_torch(kind: str) -> None:
    def prog(T: Any, xs: list[Any]) -> Any:
        T.manual_seed(0)
        m = getattr(T.nn, kind)(3, 4, bidirectional=True)
        packed = T.nn.utils.rnn.pack_padded_sequence(xs[0], [3, 2, 1])
        out, h = m(packed)
        return (out.data, *h) if isinstance(h, tuple) else (out.data, h)

    _compare(prog, [_rand(3, 3, 3)], "float32")


def test_linear_on_non_contiguous_input_records_torchs_matmul() -> None:
    def prog(T: Any, xs: list[Any]) -> Any:
        return T.nn.functional.linear(xs[0].transpose(0, 1), xs[1], xs[2])

    _compare(prog, [_rand(2, 3, 4), _rand(5, 4), _rand(5)], "float64")
