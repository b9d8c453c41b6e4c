"""Programs that turn warnings into errors after import (pytest's `filterwarnings = error`)
must not fail where torch computes inf and nan silently (Note [Floating-point warnings] in
shadowgrad/ops/registry.py)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad


def _program(T: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    x = T.tensor([0.0, 1.0, -1.0], requires_grad=True)
    y = x.log() + x.sqrt() + 1 / x + (x / 0.0)
    y.sum().backward()
    out["y"] = y.detach()
    out["x.grad"] = x.grad
    out["overflow"] = T.tensor([1e30, 2.0]) * 1e30
    out["pow"] = T.tensor([10.0]) ** 100
    out["cast"] = T.tensor(1e300, dtype=T.float32)
    out["to half"] = T.tensor([7e4]).to(T.float16).float()
    h = T.tensor([1.0, 2.0], dtype=T.float16)
    h[0] = 1e300  # torch converts a half's value through float: inf, no error
    out["setitem"] = h.float()
    b = T.tensor([1.0, 2.0])
    b.mul_(0).div_(0)
    out["in place"] = b
    p = T.tensor([3e38] * 5, dtype=T.float32)
    with T.no_grad():
        p.add_(p, alpha=2.0)
    out["add_"] = p
    out["softmax"] = T.softmax(T.tensor([1e30, -1e30, float("inf")]), 0)
    return out


def test_warnings_made_errors_do_not_stop_ops_torch_computes_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        want = _program(torch)
        got = _program(shadowgrad)
    assert want.keys() == got.keys()
    for k in want:
        a = want[k].detach().numpy()
        b = got[k].detach().numpy()
        np.testing.assert_array_equal(b, a, err_msg=k)


@pytest.mark.parametrize("op", ["log", "reciprocal", "sqrt"])
def test_warnings_made_errors_in_backward(op: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grads = []
        for T in (torch, shadowgrad):
            x = T.tensor([0.0, -1.0, 2.0], requires_grad=True)
            getattr(x, op)().sum().backward()
            grads.append(x.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_warnings_made_errors_in_optimizer_steps(name: str) -> None:
    # the update's own arithmetic overflows here; torch gives inf and nan silently, and a
    # closure's warnings stay the caller's
    kw = {"momentum": 0.9, "weight_decay": 1e38} if name == "SGD" else {}
    lr = 1e38 if name == "SGD" else 0.1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = []
        for T in (torch, shadowgrad):
            p = T.nn.Parameter(T.tensor([3e38, 1.0]))
            opt = getattr(T.optim, name)([p], lr=lr, **kw)
            (p * p).sum().backward()
            opt.step()
            out.append(p.detach().numpy().copy())
        with pytest.raises(RuntimeWarning):
            opt.step(lambda: np.log(np.zeros(1)))
    np.testing.assert_array_equal(out[1], out[0])
