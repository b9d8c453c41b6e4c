"""max_pool2d's choice of index among ties and NaNs, against torch (random tie-heavy inputs)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import shadowgrad

torch = pytest.importorskip("torch")

OPTIONS = [
    {"kernel_size": 2},
    {"kernel_size": 2, "ceil_mode": True},
    {"kernel_size": 3, "stride": 1},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": 2, "stride": 1, "dilation": 2},
]


@pytest.mark.parametrize("kw", OPTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()))
def test_max_pool2d_indices_with_ties_and_nans(kw: dict[str, Any]) -> None:
    # torch keeps the first maximum of a window but takes every NaN it meets (the last wins)
    for seed in range(30):
        r = np.random.default_rng(seed)
        x = r.integers(0, 3, (2, 2, 7, 7)).astype(np.float32)
        x[r.random(x.shape) < 0.15] = np.nan
        t, ti = torch.nn.functional.max_pool2d(torch.tensor(x), return_indices=True, **kw)
        s, si = shadowgrad.nn.functional.max_pool2d(shadowgrad.tensor(x), return_indices=True, **kw)
        np.testing.assert_array_equal(si.numpy(), ti.numpy())
        np.testing.assert_array_equal(s.numpy(), t.numpy())
