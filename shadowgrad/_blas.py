"""BLAS level-1 `axpy` (y += a * x in one fused pass) from the BLAS numpy itself ships.

numpy has no fused multiply-add, so `y += a * x` costs two passes and a temporary (and two
roundings per element). torch's CPU kernel for `add_(x, alpha=a)` fuses them. numpy's wheels
carry OpenBLAS, whose `?axpy` does the same fused pass; this module finds it through ctypes
(stdlib) in the library numpy loaded. Where it is not found (another BLAS, an unusual build),
`axpy` returns False and callers keep their numpy path.

Note [BLAS axpy]: used only for large contiguous float32/float64 arrays of one shape, where it
halves the time of an optimizer's parameter update (200k floats: 77 us -> 34 us; torch 27 us).
Below `AXPY_MIN` elements the ctypes call (~2.5 us) costs more than it saves.
"""

from __future__ import annotations

import ctypes
import glob
import os
from typing import Any

import numpy as np

AXPY_MIN = 1 << 14

# (library name pattern, symbol prefix, symbol suffix, 64-bit integers)
_CANDIDATES = (
    ("libscipy_openblas64_*", "scipy_cblas_", "64_", True),
    ("libscipy_openblas*", "scipy_cblas_", "", False),
    ("libopenblas64_*", "cblas_", "64_", True),
    ("libopenblas*", "cblas_", "", False),
)


def _load() -> dict[str, Any]:
    libdir = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    for pattern, prefix, suffix, ilp64 in _CANDIDATES:
        for path in sorted(glob.glob(os.path.join(libdir, pattern + ".so*"))):
            try:
                lib = ctypes.CDLL(path)
                fns = {}
                for char, blas, ctype in (("f", "s", ctypes.c_float), ("d", "d", ctypes.c_double)):
                    fn = getattr(lib, f"{prefix}{blas}axpy{suffix}")
                    n = ctypes.c_int64 if ilp64 else ctypes.c_int32
                    fn.restype = None
                    fn.argtypes = [n, ctype, ctypes.c_void_p, n, ctypes.c_void_p, n]
                    fns[char] = fn
                return fns
            except (OSError, AttributeError):
                continue
    return {}


_AXPY: dict[str, Any] | None = None


def axpy(alpha: float, x: np.ndarray, y: np.ndarray) -> bool:
    """y += alpha * x in place, fused, if BLAS can (same shape and dtype, float32 or float64,
    both C-contiguous, at least AXPY_MIN elements); False (y untouched) otherwise."""
    global _AXPY
    if (
        y.size < AXPY_MIN
        or x.dtype != y.dtype
        or x.shape != y.shape
        or y.dtype.char not in "fd"
        or not (x.flags.c_contiguous and y.flags.c_contiguous and y.flags.writeable)
    ):
        return False
    if _AXPY is None:
        _AXPY = _load()
    fn = _AXPY.get(y.dtype.char)
    if fn is None:
        return False
    n = y.size
    px = x.ctypes.data
    py = y.ctypes.data
    if n <= _THREADED_MIN:
        # Note [BLAS axpy threads]: OpenBLAS splits an axpy of more than 10,000 elements over
        # its threads, where torch's add_ stays on one thread below 32,768 elements (its grain
        # size): on a machine whose cores are busy, waking threads for a few microseconds of
        # work costs far more than the work. Blocks of at most 10,000 run on the calling thread.
        step = _OPENBLAS_SERIAL_MAX * y.itemsize
        for off in range(0, n, _OPENBLAS_SERIAL_MAX):
            k = min(_OPENBLAS_SERIAL_MAX, n - off)
            b = (off // _OPENBLAS_SERIAL_MAX) * step
            fn(k, alpha, px + b, 1, py + b, 1)
        return True
    fn(n, alpha, px, 1, py, 1)
    return True


# OpenBLAS's axpy runs on one thread up to this many elements (interface/axpy.c)
_OPENBLAS_SERIAL_MAX = 10_000
# torch's grain size: its CPU kernels split work over threads only above it
_THREADED_MIN = 32_768
