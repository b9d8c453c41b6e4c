"""Every op of the op-level benchmark sweep (benchmarks/ops.py) runs in both libraries and
gives torch's output and input gradients: the sweep's timings compare like with like."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

import shadowgrad
from benchmarks import ops as B

# float32 through long reductions and factorizations: values agree to a few ulp of their scale
RTOL, ATOL = 2e-4, 2e-4


def _run(T: Any, fn: Any, X: np.ndarray, P: np.ndarray) -> list[np.ndarray | None]:
    T.manual_seed(0)
    x = T.tensor(X, requires_grad=True)
    p = T.tensor(P, requires_grad=True)
    out = fn(T, x, p)
    res = [out.detach().numpy().copy()]
    if out.requires_grad:
        out.sum().backward()
    res += [None if t.grad is None else t.grad.numpy().copy() for t in (x, p)]
    return res


@pytest.mark.parametrize("name", sorted(B.OPS))
def test_sweep_op_matches_torch(name: str) -> None:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((B.N, B.N)).astype(np.float32)
    P = (np.abs(rng.standard_normal((B.N, B.N))) + 0.5).astype(np.float32)
    t = _run(torch, B.OPS[name], X, P)
    s = _run(shadowgrad, B.OPS[name], X, P)
    for what, a, b in zip(("output", "x.grad", "p.grad"), s, t, strict=True):
        assert (a is None) == (b is None), what
        if a is not None:
            scale = max(1.0, float(np.nanmax(np.abs(b))) if b.size else 1.0)
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL * scale, err_msg=f"{name} {what}")
