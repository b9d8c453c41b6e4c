"""Muon on its own: the bfloat16 rounding it emulates, the orthogonalization it computes, and a
step on a simple problem."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.optim._muon import _bf16, _zeropower_via_newtonschulz


def test_bf16_rounds_to_nearest_even_and_keeps_specials() -> None:
    one = np.float32(1.0)
    step = np.float32(2**-7)  # bfloat16's spacing at 1
    values = np.array(
        [one + step / 2, one + 3 * step / 2, one + step / 4, np.inf, -np.inf, np.nan, -0.0],
        np.float32,
    )
    out = _bf16(values)
    np.testing.assert_array_equal(out[:5], [1.0, one + 2 * step, 1.0, np.inf, -np.inf])
    assert np.isnan(out[5]) and np.signbit(out[6])
    assert np.array_equal(_bf16(out), out, equal_nan=True)  # representable values stay


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5)])
def test_newton_schulz_nearly_orthogonalizes(shape: tuple[int, int]) -> None:
    g = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    o = _zeropower_via_newtonschulz(g, (3.4445, -4.7750, 2.0315), 5, 1e-7)
    s = np.linalg.svd(o.astype(np.float64), compute_uv=False)
    assert o.shape == shape and s.min() > 0.5 and s.max() < 1.5  # Keller Jordan's band
    u, _, vt = np.linalg.svd(g.astype(np.float64), full_matrices=False)
    assert np.sum((u @ vt) * o) > 0.8 * min(shape)  # aligned with U V^T


def test_muon_step_decreases_a_quadratic() -> None:
    target = sg.tensor(np.random.default_rng(1).standard_normal((4, 3)), dtype=sg.float32)
    w = sg.zeros(4, 3, requires_grad=True)
    opt = sg.optim.Muon([w], lr=0.1, weight_decay=0.0)
    losses = []
    for _ in range(30):
        opt.zero_grad()
        loss = ((w - target) ** 2).sum()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    assert list(opt.state[w]) == ["momentum_buffer"]
