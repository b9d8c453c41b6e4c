"""bfloat16's storage helpers (Note [bfloat16 storage] in shadowgrad/_dtype.py): rounding to
bfloat16, its limits for numpy-level code, the bytes its storage reads as. The behaviour of
bfloat16 tensors against torch's is checked by compat/test_bfloat16_programs.py."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad import _dtype as D

pytestmark = pytest.mark.skipif(not D.HAS_BF16, reason="longdouble is float64 here")


def _reference(f: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even of float32 values to bfloat16, element by element in Python."""
    out = []
    for x in f.astype(np.float32):
        u = int(np.array(x).view(np.uint32))
        if x != x:
            out.append(np.float32(np.nan))
            continue
        low = u & 0xFFFF
        hi = u >> 16
        if low > 0x8000 or (low == 0x8000 and hi & 1):
            hi += 1
        out.append(np.array((hi << 16) & 0xFFFFFFFF, np.uint32).view(np.float32))
    return np.array(out, np.float32)


def test_round_bf16_matches_nearest_even_on_random_bit_patterns() -> None:
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2**32, 20000, dtype=np.uint64).astype(np.uint32)
    ties = (rng.integers(0, 2**16, 2000, dtype=np.uint64).astype(np.uint32) << 16) | 0x8000
    f = np.concatenate([bits, ties]).view(np.float32)
    r = D.round_bf16(f)
    assert r.dtype == D.LD
    got = r.astype(np.float32)
    want = _reference(f)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all()


def test_round_bf16_special_values_and_shapes() -> None:
    f = np.array([[np.inf, -np.inf, np.nan], [-0.0, 3.4e38, 1e-45]], np.float64)
    r = D.round_bf16(f).astype(np.float32)
    assert r.shape == (2, 3)
    assert r[0, 0] == np.inf and r[0, 1] == -np.inf and np.isnan(r[0, 2])
    assert np.signbit(r[1, 0]) and r[1, 1] == np.inf  # beyond bfloat16's max: inf
    assert D.round_bf16(1.0).shape == ()


def test_np_finfo_reads_bfloat16_limits() -> None:
    fi = D.np_finfo(D.LD)
    assert (fi.bits, fi.eps, fi.tiny) == (16, 2.0**-7, 2.0**-126)
    assert fi.max == float(sg.finfo(sg.bfloat16).max)
    assert D.np_finfo(np.float32).eps == np.finfo(np.float32).eps


def test_dtype_and_storage_sizes() -> None:
    x = sg.tensor([1.0, -2.0, 0.5], dtype=sg.bfloat16)
    assert sg.bfloat16.itemsize == 2 and x.element_size() == 2 and x.nbytes == 6
    st = x.untyped_storage()
    assert st.nbytes() == 6
    assert st.tolist() == [0x80, 0x3F, 0x00, 0xC0, 0x00, 0x3F]  # little-endian bfloat16 bits


def test_every_result_is_rounded() -> None:
    x = sg.tensor([1.0, 3.0], dtype=sg.bfloat16, requires_grad=True)
    for t in (x / 3, x.exp(), x.sum(), x @ x, sg.ones(2, dtype=sg.bfloat16) * 0.1):
        a = t._data
        assert a.dtype == D.LD
        assert (D.round_bf16(a) == a).all()
    (x / 3).sum().backward()
    assert (D.round_bf16(x.grad._data) == x.grad._data).all()
