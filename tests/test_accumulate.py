"""add_at (Note [Accumulation in rounds]) gives np.add.at's exact results for every index form
the backward formulas use, and its errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from shadowgrad.ops._accumulate import MAX_ROUNDS, add_at

R = np.random.default_rng(0)
I2 = (R.integers(0, 50, (40, 5)), R.integers(0, 7, (40, 5)))
I2B = (R.integers(0, 50, (40, 1)), R.integers(0, 7, (1, 5)))

CASES: list[tuple[tuple[int, ...], Any, tuple[int, ...], Any, Any]] = [
    ((100, 8), R.integers(0, 100, 500), (500, 8), np.float32, None),
    ((100, 8), R.integers(-100, 100, 500), (500, 8), np.float32, None),  # negative indices
    ((100,), R.integers(0, 100, 5000), (5000,), np.float32, None),  # > MAX_ROUNDS repeats
    ((100, 8), R.integers(0, 30, 300), (300, 8), np.float64, None),  # ~10-20 repeats
    ((50, 7, 3), I2, (40, 5, 3), np.float32, None),
    ((50, 7, 3), I2B, (40, 5, 3), np.float32, None),  # broadcast index arrays
    ((6, 100, 3), (slice(None), R.integers(0, 100, 400)), (6, 400, 3), np.float32, None),
    ((6, 100), (slice(None), R.integers(0, 100, 400)), (6, 400), np.float64, None),
    ((100, 8), R.integers(0, 100, 500), (8,), np.float32, None),  # values broadcast
    ((100, 8), R.integers(0, 100, 500), (500, 8), np.float32, np.float64),  # values cast
    ((100, 8), R.integers(0, 100, 500), (500, 8), np.int64, None),
    ((100, 8), R.integers(0, 100, 500), (500, 8), np.complex64, None),
    ((10, 4), R.integers(0, 10, 6), (6, 4), np.float32, None),  # few rows: np.add.at itself
]  # fmt: skip


@pytest.mark.parametrize("case", range(len(CASES)))
def test_same_bits_as_numpy_add_at(case: int) -> None:
    shape, index, vshape, dtype, vdtype = CASES[case]
    rng = np.random.default_rng(case)
    out = rng.standard_normal(shape).astype(dtype)
    vals = (rng.standard_normal(vshape) * 1e3).astype(vdtype or dtype)
    want = out.copy()
    np.add.at(want, index, vals)
    got = out.copy()
    add_at(got, index, vals)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype


def test_repeated_index_adds_in_index_order() -> None:
    # float32 sums depend on order: 1e8 + 1 - 1e8 in index order is 0, not 1
    out = np.zeros((1, 1), np.float32)
    add_at(out, np.zeros(64 * 3, np.int64), np.tile(np.float32([[1e8], [1.0], [-1e8]]), (64, 1)))
    want = np.zeros((1, 1), np.float32)
    np.add.at(
        want, np.zeros(64 * 3, np.int64), np.tile(np.float32([[1e8], [1.0], [-1e8]]), (64, 1))
    )
    assert MAX_ROUNDS < 64 * 3
    np.testing.assert_array_equal(out, want)
    out = np.zeros((200, 1), np.float32)
    idx = np.repeat(np.arange(100), 3)
    vals = np.tile(np.float32([[1e8], [1.0], [-1e8]]), (100, 1))
    add_at(out, idx, vals)
    assert (out[:100] == 0).all()


def test_out_of_range_index_raises_numpys_error() -> None:
    with pytest.raises(IndexError, match="out of bounds"):
        add_at(np.zeros((10, 2)), R.integers(0, 11, 100), np.ones((100, 2)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.complex64])
def test_many_repeats_same_bits_as_numpy_add_at(dtype: Any) -> None:
    # a running maximum's indices: long runs of one index (far more than MAX_ROUNDS repeats)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((64, 200))
    idx = np.maximum.accumulate(np.where(rng.random((64, 200)) < 0.05, np.arange(200), 0), 1)
    coords = (np.arange(64)[:, None], idx)  # the two leading dims of a 3-d target: rows of 2
    vals = (rng.standard_normal((64, 200, 2)) * 1e4).astype(dtype)
    vals[0, :5] = -0.0 if dtype != np.int64 else 0
    out = (np.repeat(x[..., None], 2, -1) * 10).astype(dtype)
    out[0, 0] = 0
    want = out.copy()
    np.add.at(want, coords, vals)
    got = out.copy()
    add_at(got, coords, vals)
    np.testing.assert_array_equal(got, want)
    if dtype in (np.float32, np.float64):
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
