"""The generator and its kernels without torch: values torch prints for known seeds, the state
layout, and the numpy building blocks (fma emulation, the C library's functions, the blocked
Fisher-Yates) against slow, obviously right versions. compat/test_rng_parity.py compares with
torch itself."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest

import shadowgrad as torch
from shadowgrad import _random, _rng_kernels, _rng_math


def test_known_values_after_manual_seed():
    # torch 2.13 on x86-64: torch.manual_seed(0); torch.rand(3); torch.randn(3); ...
    torch.manual_seed(0)
    assert torch.rand(3).tolist() == pytest.approx([0.4963, 0.7682, 0.0885], abs=1e-4)
    assert torch.randn(3).tolist() == pytest.approx([0.3643, 0.1344, 0.1642], abs=1e-4)
    assert torch.randint(0, 10, (5,)).tolist() == [6, 6, 9, 8, 6]
    assert torch.randperm(6).tolist() == [0, 4, 1, 3, 2, 5]
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 1)
    out = lin(torch.randn(2, 3))
    assert out.detach().flatten().tolist() == pytest.approx([0.2759, -0.6921], abs=1e-4)


def test_seeds_keep_low_32_bits_and_report_all_64():
    a = torch.rand(4, generator=torch.Generator().manual_seed(5))
    b = torch.rand(4, generator=torch.Generator().manual_seed(2**32 + 5))
    assert a.tolist() == b.tolist()
    assert torch.manual_seed(-1).initial_seed() == 2**64 - 1
    assert torch.Generator().initial_seed() == 67280421310721
    with pytest.raises(RuntimeError, match="manual_seed expected a long, but got float"):
        torch.Generator().manual_seed(1.5)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.manual_seed(2**64)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1])
def test_init_genrand_is_numpys_seeding(seed):
    g = torch.Generator().manual_seed(seed)
    assert np.array_equal(_random._init_genrand(seed), g._mt.state["state"]["key"])


def test_state_layout():
    torch.manual_seed(5)
    raw = torch.get_rng_state().numpy().tobytes()
    assert len(raw) == 5056
    seed, left, seeded, nxt = struct.unpack_from("<QiiQ", raw)
    assert (seed, left, seeded, nxt) == (5, 1, 1, 0)
    torch.randn(1, dtype=torch.float64)  # two 64-bit draws, the second normal cached
    raw = torch.get_rng_state().numpy().tobytes()
    assert struct.unpack_from("<QiiQ", raw) == (5, 621, 1, 4)
    (cached,) = struct.unpack_from("<d", raw, 5024)
    assert struct.unpack_from("<i", raw, 5040) == (1,)
    assert cached == pytest.approx(-0.6038215878840039, abs=0)
    assert torch.randn(1, dtype=torch.float64).item() == cached  # the cache is drawn first


def test_state_round_trip_and_errors():
    torch.manual_seed(3)
    torch.rand(700)
    torch.randn(3)
    state = torch.get_rng_state()
    a = torch.randn(5, dtype=torch.float64)
    torch.set_rng_state(state)
    assert torch.randn(5, dtype=torch.float64).tolist() == a.tolist()
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        torch.set_rng_state(torch.zeros(5056, dtype=torch.uint8))
    with pytest.raises(RuntimeError, match="size 5056 but found the input RNG state size"):
        torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))
    with pytest.raises(TypeError, match=r"RNG state must be a torch\.ByteTensor"):
        torch.set_rng_state(torch.zeros(5056))


def test_small_and_large_normals_take_different_paths():
    # below 16 elements one scalar draw per value (two 64-bit words a pair), from 16 on a
    # float32 uniform (one word) per value plus 16 for a ragged tail
    for n, words in [(3, 8), (15, 32), (16, 16), (17, 33), (32, 32), (33, 49)]:
        g = torch.Generator().manual_seed(0)
        torch.randn(n, generator=g)
        assert 625 - struct.unpack_from("<i", g.get_state().numpy().tobytes(), 8)[0] == words


def test_fma64_is_correctly_rounded():
    rng = np.random.default_rng(0)
    a = rng.standard_normal(2000) * 10.0 ** rng.integers(-30, 30, 2000)
    b = rng.standard_normal(2000)
    c = -a * b * (1 + rng.standard_normal(2000) * 1e-12)  # heavy cancellation
    c[::3] = rng.standard_normal(667) * 1e-3
    got = _rng_math.fma64(a, b, c)
    want = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c, strict=True)]
    assert np.array_equal(got, want)
    big = _rng_math.fma64(np.array([1e300, -3e300]), 1e300 / 3e300, np.array([1e300, 1e-300]))
    assert big.tolist() == [float(Fraction(1e300) * Fraction(1 / 3) + Fraction(1e300)), -1e300]


def test_fma32_is_correctly_rounded():
    rng = np.random.default_rng(1)
    a = rng.standard_normal(5000).astype(np.float32)
    b = rng.standard_normal(5000).astype(np.float32)
    c = (-a.astype(np.float64) * b).astype(np.float32)
    # (1 + 2**-12)**2 = 1 + 2**-11 + 2**-24 is a float32 midpoint: plus 2**-60 the double sum
    # rounds back onto it and a plain narrowing would round down
    a[:2] = b[:2] = np.float32(1 + 2**-12)
    c[:2] = np.float32(2**-60), np.float32(-(2**-60))
    got = _rng_math.fma32(a, b, c)
    exact = (Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
             for x, y, z in zip(a, b, c, strict=True))  # fmt: skip
    assert np.array_equal(got, np.array([_round_f32(v) for v in exact], np.float32))
    assert got[:2].tolist() == [1 + 2**-11 + 2**-23, 1 + 2**-11]


def _round_f32(v: Fraction) -> np.float32:
    """Round a rational to float32, nearest even (through its two float32 neighbours)."""
    lo = np.float32(float(v))
    cands = {lo, np.nextafter(lo, np.float32(np.inf)), np.nextafter(lo, np.float32(-np.inf))}
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - v), int(c.view(np.int32)) & 1))
    return np.float32(best)


@pytest.mark.parametrize("name", ["log", "log1p", "exp", "tan", "cos", "sin"])
def test_libm_functions_are_maths(name):
    rng = np.random.default_rng(2)
    x = {"log": rng.random(3000) + 1e-3, "log1p": -rng.random(3000)}.get(name, rng.random(3000))
    got = _rng_math.libm(name)(x)
    assert np.array_equal(got, [getattr(math, name)(v) for v in x.tolist()])
    edge = {"log": [0.0, -1.0, np.inf], "log1p": [-1.0, -2.0], "exp": [1000.0, -1000.0]}
    for v in edge.get(name, [np.nan]):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(np.array([v]))
        assert np.array_equal(_rng_math.libm(name)(np.array([v])), want, equal_nan=True)


@pytest.mark.parametrize("n", [2, 3, 10, 257, 1000, 5000, 70000])
def test_blocked_fisher_yates_is_the_sequential_one(n):
    rng = np.random.default_rng(n)
    targets = (rng.integers(0, 2**32, n - 1) % np.arange(n, 1, -1)) + np.arange(n - 1)
    want = list(range(n))
    for i, j in enumerate(targets.tolist()):
        want[i], want[j] = want[j], want[i]
    got = np.arange(n)
    _rng_kernels._swap_in_order(got, targets)
    assert got.tolist() == want


def test_memory_order_placement():
    a = np.zeros((3, 4)).T
    flat = np.arange(12.0)
    out = _rng_kernels.place(flat, a)
    assert out.shape == (4, 3)
    assert np.array_equal(_rng_kernels.in_order_of(out, a), flat)
    assert np.array_equal(out.T.ravel(), flat)  # a's memory runs along its first axis


def test_generators_are_independent_and_picklable():
    import pickle

    g = torch.Generator().manual_seed(9)
    torch.randn(3, generator=g)
    h = pickle.loads(pickle.dumps(g))
    assert torch.rand(4, generator=g).tolist() == torch.rand(4, generator=h).tolist()
    torch.manual_seed(1)
    before = torch.get_rng_state()
    torch.rand(5, generator=g)
    assert torch.equal(before, torch.get_rng_state())
