"""shadowgrad._blas.axpy: the fused y += a * x from numpy's own BLAS, or a refusal."""

from __future__ import annotations

import numpy as np
import pytest

from shadowgrad import _blas


def _fused(alpha: float, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y + alpha * x rounded once: exact in float64 for float32 operands."""
    a = np.asarray(alpha, y.dtype).astype(np.float64)
    return (y.astype(np.float64) + a * x.astype(np.float64)).astype(y.dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
# one call to BLAS, and blocks of at most 10,000 on this thread (Note [BLAS axpy threads]):
# exactly 16384, uneven blocks, the last size done in blocks
@pytest.mark.parametrize("n", [_blas.AXPY_MIN * 3 + 5, _blas.AXPY_MIN, 27_040, 32_768])
def test_axpy_is_one_fused_pass(dtype: type, n: int) -> None:
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    y0 = y.copy()
    done = _blas.axpy(-0.01, x, y)
    if not done:  # no BLAS axpy in this numpy build: y is untouched
        np.testing.assert_array_equal(y, y0)
        pytest.skip("numpy's BLAS exposes no axpy here")
    if dtype is np.float32:
        # one rounding of the exact value (float64 holds it exactly before the final rounding)
        np.testing.assert_array_equal(y, _fused(-0.01, x, y0))
    else:
        np.testing.assert_allclose(y, y0 - 0.01 * x, rtol=1e-15, atol=1e-16)
    np.testing.assert_array_equal(x, x.copy())


def test_axpy_keeps_nan_and_inf() -> None:
    n = _blas.AXPY_MIN
    x = np.zeros(n, np.float32)
    y = np.zeros(n, np.float32)
    x[:3] = [np.inf, np.nan, 1.0]
    y[:3] = [1.0, 2.0, -np.inf]
    if _blas.axpy(2.0, x, y):
        np.testing.assert_array_equal(y[:3], np.array([np.inf, np.nan, -np.inf], np.float32))


@pytest.mark.parametrize(
    "case",
    ["small", "dtype", "shape", "strided", "int", "readonly"],
)
def test_axpy_refuses_and_leaves_y_alone(case: str) -> None:
    n = _blas.AXPY_MIN * 2
    x = np.ones(n, np.float32)
    y = np.ones(n, np.float32)
    if case == "small":
        x, y = x[:8], y[:8]
    elif case == "dtype":
        x = x.astype(np.float64)
    elif case == "shape":
        x = x.reshape(2, -1)
    elif case == "strided":
        y = np.ones(2 * n, np.float32)[::2]
    elif case == "int":
        x, y = x.astype(np.int64), y.astype(np.int64)
    else:
        y.flags.writeable = False
    y0 = y.copy()
    assert _blas.axpy(3.0, x, y) is False
    np.testing.assert_array_equal(y, y0)
