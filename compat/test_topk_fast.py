"""topk's indices and values against torch's, with ties, NaNs, -0.0, every dtype kind and k
(Note [Fast topk]: rows without a tie among their first k + 1 keys skip the replay)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

import shadowgrad

from .engines import raises


def _data(kind: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "distinct":
        return rng.standard_normal(shape).astype(np.float32)
    if kind == "ties":
        return rng.integers(-3, 4, shape).astype(np.float32)
    if kind == "nan":
        a = rng.integers(-3, 4, shape).astype(np.float64)
        a[rng.random(shape) < 0.1] = np.nan
        a[rng.random(shape) < 0.1] = -0.0
        return a
    if kind == "int":
        return rng.integers(-50, 50, shape).astype(np.int64)
    if kind == "int_extremes":
        a = rng.integers(-5, 5, shape).astype(np.int64)
        a.flat[::7] = np.iinfo(np.int64).min
        a.flat[::11] = np.iinfo(np.int64).max
        return a
    if kind == "uint8":
        return rng.integers(0, 255, shape).astype(np.uint8)
    if kind == "bool":
        return rng.random(shape) < 0.5
    raise KeyError(kind)


@pytest.mark.parametrize(
    "kind", ["distinct", "ties", "nan", "int", "int_extremes", "uint8", "bool"]
)
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("sorted_", [True, False])
def test_topk_matches_torch(kind: str, largest: bool, sorted_: bool) -> None:
    for seed, shape, dim in ((0, (6, 40), 1), (1, (40, 5), 0), (2, (3, 4, 130), -1), (3, (9,), 0)):
        x = _data(kind, shape, seed)
        n = x.shape[dim]
        for k in sorted({0, 1, 2, n // 3, n - 1, n}):
            where = f"{kind} shape={shape} dim={dim} k={k}"
            if kind == "bool":
                t_err = raises(lambda x=x, k=k, d=dim: torch.topk(torch.from_numpy(x.copy()), k, d))
                s_err = raises(lambda x=x, k=k, d=dim: shadowgrad.topk(shadowgrad.tensor(x), k, d))
                assert str(s_err) == str(t_err), where
                continue
            t = torch.topk(torch.from_numpy(x.copy()), k, dim, largest, sorted_)
            s = shadowgrad.topk(shadowgrad.tensor(x.copy()), k, dim, largest, sorted_)
            np.testing.assert_array_equal(s.indices.numpy(), t.indices.numpy(), err_msg=where)
            np.testing.assert_array_equal(s.values.numpy(), t.values.numpy(), err_msg=where)
            assert s.values.dtype == shadowgrad.tensor(x).dtype


def test_topk_gradient_matches_torch() -> None:
    x = _data("ties", (5, 30), 4).astype(np.float64)
    g = np.random.default_rng(5).standard_normal((5, 4))
    grads = []
    for T in (torch, shadowgrad):
        xt = T.tensor(x, requires_grad=True)
        v = T.topk(xt, 4, 1).values
        assert type(v.grad_fn).__name__ == "TopkBackward0"
        v.backward(T.tensor(g))
        grads.append(xt.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


def test_selection_errors_match_torch() -> None:
    cases = {
        "topk_bool": lambda T: T.topk(T.tensor([True, False]), 1),
        "topk_bool_k_range": lambda T: T.topk(T.tensor([True, False]), 5),
        "kthvalue_bool": lambda T: T.kthvalue(T.tensor([[True, False]]), 1, 1),
        "kthvalue_k_range_dim": lambda T: T.kthvalue(T.ones(2, 3, 4), 5, -2),
        "median_bool": lambda T: T.median(T.tensor([True, False])),
        "median_bool_dim": lambda T: T.median(T.tensor([[True, False]]), 1),
        "nanmedian_bool": lambda T: T.nanmedian(T.tensor([True, False])),
        "nanmedian_bool_dim": lambda T: T.nanmedian(T.tensor([[True, False]]), 1),
    }
    for name, fn in cases.items():
        t, s = raises(lambda fn=fn: fn(torch)), raises(lambda fn=fn: fn(shadowgrad))
        assert str(s) == str(t), name
