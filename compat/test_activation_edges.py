"""Piecewise activations at their edges against torch: values (signed zeros, inf, NaN) and the
raw first-order gradients (Note [Raw backward]) at and around each breakpoint."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

import shadowgrad

X = [-6.0, -3.0, -2.0, -1.0, -0.0, 0.0, 1e-45, -1e-45, 1.0, 3.0, 6.0, 7.0, 3e38, -3e38]
SPECIAL = [np.nan, np.inf, -np.inf]

CASES = {
    "leaky_relu": lambda F, x: F.leaky_relu(x),
    "leaky_relu_0": lambda F, x: F.leaky_relu(x, 0.0),
    "leaky_relu_1": lambda F, x: F.leaky_relu(x, 1.0),
    "leaky_relu_2": lambda F, x: F.leaky_relu(x, 2.0),
    "leaky_relu_neg": lambda F, x: F.leaky_relu(x, -0.5),
    "hardtanh": lambda F, x: F.hardtanh(x),
    "hardtanh_range": lambda F, x: F.hardtanh(x, -2.0, 3.0),
    "relu6": lambda F, x: F.relu6(x),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "hardswish": lambda F, x: F.hardswish(x),
}


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal values, NaN equal to NaN, and equal signs of zeros (a NaN's sign bit is not
    compared: it carries no value)."""
    num = ~np.isnan(b)
    return bool(
        np.array_equal(a, b, equal_nan=True)
        and np.array_equal(np.signbit(a[num]), np.signbit(b[num]))
    )


PARAMS = [(name, dtype) for name in sorted(CASES) for dtype in ("float32", "float64")]


@pytest.mark.parametrize(("name", "dtype"), PARAMS)
def test_activation_values_and_grads_match_torch(name: str, dtype: str) -> None:
    x = np.array(X + SPECIAL, dtype=dtype)
    g = np.linspace(-2, 2, x.size).astype(dtype)
    res: list[Any] = []
    for T in (torch, shadowgrad):
        t = T.tensor(x, requires_grad=True)
        y = CASES[name](T.nn.functional, t)
        y.backward(T.tensor(g))
        res.append((y.detach().numpy(), t.grad.numpy()))
    (ty, tg), (sy, sg) = res
    assert _same(sy, ty), f"{name} values: {sy} vs torch {ty}"
    assert _same(sg, tg), f"{name} grads: {sg} vs torch {tg}"
