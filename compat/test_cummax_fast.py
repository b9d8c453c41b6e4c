"""cummax/cummin values, indices and gradients against torch: ties, NaN, -0.0, ints, bool."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

import shadowgrad


def _data(kind: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "float":
        return rng.standard_normal(shape).astype(np.float32)
    if kind == "ties":
        a = rng.integers(-2, 3, shape).astype(np.float64)
        a[rng.random(shape) < 0.2] = -0.0
        return a
    if kind == "nan":
        a = rng.integers(-2, 3, shape).astype(np.float32)
        a[rng.random(shape) < 0.1] = np.nan
        return a
    if kind == "int":
        return rng.integers(-5, 5, shape).astype(np.int64)
    if kind == "bool":
        return rng.random(shape) < 0.5
    raise KeyError(kind)


@pytest.mark.parametrize("kind", ["float", "ties", "nan", "int", "bool"])
@pytest.mark.parametrize("fn", ["cummax", "cummin"])
def test_cum_extreme_matches_torch(kind: str, fn: str) -> None:
    for seed, shape in enumerate([(7, 40), (3, 5, 6), (50,), (), (0, 3), (4, 0)]):
        x = _data(kind, shape, seed)
        for dim in range(-len(shape), len(shape)) if shape else [0]:
            t = getattr(torch, fn)(torch.from_numpy(np.array(x)), dim)
            s = getattr(shadowgrad, fn)(shadowgrad.tensor(np.array(x)), dim)
            where = f"{kind} {shape} dim={dim}"
            np.testing.assert_array_equal(s.indices.numpy(), t.indices.numpy(), err_msg=where)
            np.testing.assert_array_equal(s.values.numpy(), t.values.numpy(), err_msg=where)
            np.testing.assert_array_equal(
                np.signbit(s.values.numpy()), np.signbit(t.values.numpy()), err_msg=where
            )


def test_cummax_gradient_matches_torch() -> None:
    x = _data("ties", (6, 30), 9)
    g = np.random.default_rng(3).standard_normal((6, 30))
    grads = []
    for T in (torch, shadowgrad):
        xt = T.tensor(x, requires_grad=True)
        v = T.cummax(xt, 1).values
        assert type(v.grad_fn).__name__ == "CummaxBackward0"
        v.backward(T.tensor(g))
        grads.append(xt.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])
