"""nn functions torch runs as fused kernels, against torch: the whole backward graph.

Each program runs in both libraries on the same inputs; the outputs' values, the grad_fn names
of the whole graph (every node's name and its next_functions, in order), the gradients and,
where torch has one, the double backward are compared. Covered: F.bilinear (torch's
_trilinear: TrilinearBackward0 then ViewBackward0) and F.pad(mode="circular") (slice copies into a
new tensor: CopySlices over SliceBackward0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def graph(fn: Any, depth: int = 0) -> Any:
    """(name, children) over the whole graph below a node, None for a missing edge."""
    if fn is None:
        return None
    if depth > 60:
        return "..."
    return (type(fn).__name__, tuple(graph(n, depth + 1) for n, _ in fn.next_functions))


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
