"""torch.func.vmap against torch: values, gradients through it (per-sample gradients),
in_dims/out_dims handling, nesting, randomness modes and the errors torch raises."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)
RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3))
Y = RNG.standard_normal((4, 3))
W = RNG.standard_normal((3, 2))


def _run(T: Any, prog: Any) -> Any:
    try:
        return prog(T)
    except Exception as e:  # the comparison is the point
        return (type(e).__name__, str(e).replace("torch.", "T.").replace("shadowgrad.", "T."))


def _np(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_np(v) for v in x]
    if hasattr(x, "detach"):
        return x.detach().numpy()
    return x


PROGRAMS = {
    "dot": lambda T: T.func.vmap(lambda a, b: (a * b).sum())(T.tensor(X), T.tensor(Y)),
    "broadcast arg": lambda T: T.func.vmap(lambda a, w: a @ w, in_dims=(0, None))(
        T.tensor(X), T.tensor(W)
    ),
    "in_dims 1": lambda T: T.func.vmap(lambda a: a.exp().sum(), in_dims=1)(T.tensor(X)),
    "negative in_dim": lambda T: T.func.vmap(lambda a: a * 2, in_dims=-1)(T.tensor(X)),
    "out_dims 1": lambda T: T.func.vmap(lambda a: a * 2, out_dims=1)(T.tensor(X)),
    "tuple out": lambda T: T.func.vmap(lambda a: (a.sum(), a * 3), out_dims=(0, 1))(T.tensor(X)),
    "dict in": lambda T: T.func.vmap(lambda d: d["a"] + d["b"])(
        {"a": T.tensor(X), "b": T.tensor(Y)}
    ),
    "nested": lambda T: T.func.vmap(T.func.vmap(lambda a: a**2))(T.tensor(X)),
    "vmap(grad)": lambda T: T.func.vmap(T.func.grad(lambda a: (a.sin() * a).sum()))(T.tensor(X)),
    "per-sample grads": lambda T: T.func.vmap(
        T.func.grad(lambda w, x, y: ((x @ w - y) ** 2).sum()), in_dims=(None, 0, 0)
    )(T.tensor(W), T.tensor(X), T.tensor(Y[:, :2])),
    "torch.vmap": lambda T: T.vmap(lambda a: a.tanh())(T.tensor(X)),
    "empty batch": lambda T: T.func.vmap(lambda a: a * 2)(T.zeros(0, 3)).shape,
    "sizes differ": lambda T: T.func.vmap(lambda a, b: a + b)(T.tensor(X), T.tensor(Y[:3])),
    "non-tensor out": lambda T: T.func.vmap(lambda a: 1.0)(T.tensor(X)),
    "in_dim out of range": lambda T: T.func.vmap(lambda a: a, in_dims=5)(T.tensor(X)),
    "number input": lambda T: T.func.vmap(lambda a: a)(3.0),
    "nothing to map": lambda T: T.func.vmap(lambda a, b: a, in_dims=(None, None))(
        T.tensor(X), T.tensor(X)
    ),
    "random in error mode": lambda T: T.func.vmap(lambda a: a + T.rand(3))(T.tensor(X)),
    "bad randomness": lambda T: T.func.vmap(lambda a: a, randomness="sometimes"),
}


def _close(a: Any, b: Any) -> None:
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _close(x, y)
    else:
        np.testing.assert_allclose(np.asarray(b, float), np.asarray(a, float), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_vmap_matches_torch(name: str) -> None:
    a, b = (_run(T, PROGRAMS[name]) for T in LIBS)
    if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str):
        assert b == a  # the same exception and message
    else:
        _close(_np(a), _np(b))


def test_gradient_flows_through_vmap() -> None:
    outs = []
    for T in LIBS:
        x = T.tensor(X, requires_grad=True)
        w = T.tensor(W, requires_grad=True)
        y = T.func.vmap(lambda a, w=w: (a @ w).sigmoid())(x)
        (y * y).sum().backward()
        outs.append((x.grad.numpy(), w.grad.numpy()))
    for a, b in zip(*outs, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-10)


@pytest.mark.parametrize("mode", ["same", "different"])
def test_randomness_modes(mode: str) -> None:
    shadowgrad.manual_seed(0)
    out = shadowgrad.func.vmap(lambda a: a * 0 + shadowgrad.rand(3), randomness=mode)(
        shadowgrad.tensor(X)
    )
    rows = out.numpy()
    same = all(np.array_equal(rows[0], r) for r in rows[1:])
    assert same == (mode == "same")
