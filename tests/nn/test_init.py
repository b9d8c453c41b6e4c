"""nn.init: bounds, fans, gains and no-grad behaviour (no torch)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.nn import init


def test_fans_follow_the_receptive_field():
    assert init._calculate_fan_in_and_fan_out(sg.empty(5, 3)) == (3, 5)
    assert init._calculate_fan_in_and_fan_out(sg.empty(8, 4, 3, 2)) == (24, 48)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(sg.empty(3))


def test_gains():
    assert init.calculate_gain("relu") == math.sqrt(2.0)
    assert init.calculate_gain("tanh") == 5.0 / 3
    assert init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2.0 / 1.04)
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")


@pytest.mark.parametrize(
    ("fn", "bound"),
    [
        (lambda t: init.uniform_(t, -0.3, 0.2), 0.3),
        (lambda t: init.xavier_uniform_(t), math.sqrt(6.0 / (200 + 300))),
        (lambda t: init.kaiming_uniform_(t, a=math.sqrt(5)), 1 / math.sqrt(300)),
    ],
)
def test_uniform_inits_stay_within_their_bounds_and_run_without_grad(fn, bound):
    w = sg.nn.Parameter(sg.empty(200, 300))
    out = fn(w)
    assert out is w and w.grad_fn is None and w.requires_grad
    a = w.detach().numpy()
    assert np.abs(a).max() <= bound and np.abs(a).max() > 0.95 * bound


def test_normal_inits_have_the_requested_std():
    w = sg.empty(300, 400)
    init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(w.numpy().std() / math.sqrt(2.0 / 300) - 1) < 0.05
    init.trunc_normal_(w, std=1.0, a=-0.5, b=0.5)
    assert np.abs(w.numpy()).max() <= 0.5


def test_constant_eye_dirac_orthogonal():
    w = sg.empty(3, 4)
    np.testing.assert_array_equal(init.eye_(w).numpy(), np.eye(3, 4))
    np.testing.assert_array_equal(init.constant_(w, 0.5).numpy(), np.full((3, 4), 0.5))
    q = init.orthogonal_(sg.empty(4, 6)).numpy()
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)
    d = init.dirac_(sg.empty(2, 2, 3)).numpy()
    assert d[0, 0, 1] == 1 and d[1, 1, 1] == 1 and d.sum() == 2
