"""float32 transcendentals bit for bit: for small float32 tensors shadowgrad's exp, log, tanh,
sigmoid, softmax, ... give torch's values on nearly every element (Note [float32
transcendentals]). Each op runs on a few thousand random inputs plus edge values through both
libraries; the share of bitwise-equal elements (NaN equal to NaN) must reach the rate measured
against torch 2.13 on an AVX-512 CPU, less a margin for other CPUs. The composite kernels
(sigmoid, silu, softmax, ...) call SLEEF's expf in torch; shadowgrad rounds the float64 exp once
instead (`_fmath.sleef_expf`: emulating SLEEF bit for bit made sigmoid on 8 elements 15x slower
than torch), which equals SLEEF's on ~99% of inputs, so those ops match on 85-97% of elements
(before Note [float32 transcendentals]: 38-73%)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad
from shadowgrad.ops import _fmath

N = 4096
_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-30, -1e-30, 88.0, -88.0, 100.0, -104.0, -110.0, 1e4, -1e4]
_SPECIAL = [np.inf, -np.inf, np.nan]


def _inputs(lo: float, hi: float, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).uniform(lo, hi, N).astype(np.float32)
    edges = [e for e in _EDGES if lo <= e <= hi] + _SPECIAL
    x[: len(edges)] = edges
    return x


def _rate(a: np.ndarray, b: np.ndarray) -> float:
    return float(((a == b) | (np.isnan(a) & np.isnan(b))).mean())


def _both(fn, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = fn(torch, torch.tensor(x)).numpy()
    s = fn(shadowgrad, shadowgrad.tensor(x)).numpy()
    assert t.dtype == s.dtype == np.float32
    return t, s


def _nnf(name: str, **kw):
    return lambda L, x: getattr(L.nn.functional, name)(x, **kw)


def _fn(name: str):
    return lambda L, x: getattr(L, name)(x)


# (name, function of (library, tensor), input domain, minimum bitwise match rate); the rates
# measured on 1e6 inputs are in the comments (before: numpy's float32 loops)
CASES = [
    ("exp", _fn("exp"), (-20, 20), 0.97),  # 0.989 (before 0.61)
    ("log", _fn("log"), (1e-3, 100), 0.99),  # 0.9999 (0.95)
    ("tanh", _fn("tanh"), (-5, 5), 0.97),  # 0.992 (0.67)
    ("sin", _fn("sin"), (-10, 10), 0.93),  # 0.951 (0.84)
    ("cos", _fn("cos"), (-10, 10), 0.93),  # 0.950 (0.81)
    ("tan", _fn("tan"), (-1.5, 1.5), 0.97),  # 0.994 (0.76)
    ("exp2", _fn("exp2"), (-20, 20), 0.90),  # 0.938 (0.78)
    ("expm1", _fn("expm1"), (-5, 5), 0.97),  # 0.999 (0.89)
    ("log2", _fn("log2"), (1e-3, 100), 0.99),  # 1.0 (0.98)
    ("log10", _fn("log10"), (1e-3, 100), 0.99),  # 1.0 (0.54)
    ("log1p", _fn("log1p"), (-0.99, 10), 0.97),  # 0.996 (0.91)
    ("sinh", _fn("sinh"), (-10, 10), 0.97),  # 0.999 (0.88)
    ("cosh", _fn("cosh"), (-10, 10), 0.97),  # 0.999 (0.61)
    ("asin", _fn("asin"), (-1, 1), 0.92),  # 0.944 (0.71)
    ("acos", _fn("acos"), (-1, 1), 0.89),  # 0.913 (0.65)
    ("atan", _fn("atan"), (-10, 10), 0.99),  # 0.9999 (0.72)
    ("atanh", _fn("atanh"), (-0.99, 0.99), 0.99),  # 0.999 (0.99)
    ("pow_scalar", lambda L, x: x**2.5, (0.01, 10), 0.96),  # 0.983 (0.80)
    ("pow_tensor", lambda L, x: x ** x.flip(0), (0.01, 10), 0.96),  # 0.982 (0.80)
    ("rpow", lambda L, x: 1.3**x, (-20, 20), 0.96),  # 0.982 (0.79)
    ("gelu_tanh", _nnf("gelu", approximate="tanh"), (-6, 6), 0.97),  # 0.992 (0.79)
    ("softplus", _nnf("softplus"), (-30, 30), 0.93),  # 0.947 (0.82)
    ("mish", _nnf("mish"), (-10, 10), 0.92),  # 0.936 (0.61)
    ("logsigmoid", _nnf("logsigmoid"), (-10, 10), 0.93),  # 0.947 (0.77)
    ("elu", _nnf("elu"), (-10, 10), 0.99),  # 0.9999 (0.89)
    ("log_softmax", lambda L, x: x.reshape(-1, 64).log_softmax(-1), (-10, 10), 0.98),  # 0.999
    ("softmax_dim0", lambda L, x: x.reshape(64, -1).softmax(0), (-10, 10), 0.88),  # 0.898
    ("logsumexp", lambda L, x: x.reshape(-1, 64).logsumexp(-1), (-10, 10), 0.85),  # 0.91 (0.86)
]

EXACT = [
    ("sigmoid", _fn("sigmoid"), (-120, 120), 0.95),  # 0.969 (before 0.73)
    ("silu", _nnf("silu"), (-120, 120), 0.95),  # 0.970 (before 0.67)
    ("softmax", lambda L, x: x.reshape(-1, 64).softmax(-1), (-10, 10), 0.85),  # 0.873 (0.38)
    ("softmax_short_rows", lambda L, x: x.reshape(-1, 8).softmax(-1), (-10, 10), 0.90),  # 0.928
    ("softmax_long_rows", lambda L, x: x.reshape(-1, 1024).softmax(-1), (-10, 10), 0.91),  # 0.938
]


def _cpu_vendor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


# torch's float32 log, tan and atan come from MKL's VML, which takes other code paths on AMD
# CPUs: there torch's results are less often the correctly rounded value that shadowgrad gives
# (measured on an AMD EPYC with AVX-512, 4096 inputs: log 0.969, tan 0.826, atan 0.937, the
# same with torch's AVX2 kernels), so the bar is the AMD rate less a margin
_NOT_INTEL = {"log": 0.95, "tan": 0.80, "atan": 0.92}


@pytest.mark.parametrize(("name", "fn", "domain", "rate"), CASES, ids=[c[0] for c in CASES])
def test_float32_match_rate(name, fn, domain, rate):
    if name in _NOT_INTEL and _cpu_vendor() != "GenuineIntel":
        rate = _NOT_INTEL[name]
    t, s = _both(fn, _inputs(*domain, seed=len(name)))
    assert _rate(t, s) >= rate, f"{name}: {_rate(t, s):.4f} of elements equal torch's"


@pytest.mark.parametrize(("name", "fn", "domain", "rate"), EXACT, ids=[e[0] for e in EXACT])
def test_float32_composite_match_rate(name, fn, domain, rate):
    t, s = _both(fn, _inputs(*domain, seed=len(name)))
    assert _rate(t, s) >= rate, f"{name}: {_rate(t, s):.4f} of elements equal torch's"


def test_exp_twice_then_self_power_matches():
    # the fuzzer's find: numpy's float32 exp(1) is one ulp off and x ** x amplified it
    def prog(L):
        v0 = L.tensor(1.0)
        v0.exp_()
        v0.exp_()
        return [v0.item(), (v0**v0).item(), L.tensor(1.0).exp().item()]

    assert prog(shadowgrad) == prog(torch)


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "sigmoid", "sin", "expm1", "log1p"])
def test_in_place_variant_equals_out_of_place(name):
    x = _inputs(0.01, 5, seed=3)
    out = getattr(shadowgrad.tensor(x), name)().numpy()
    t = shadowgrad.tensor(x)
    getattr(t, name + "_")()
    np.testing.assert_array_equal(t.numpy(), out)


BACKWARD = [
    # tanh's gradient reads its forward result, which differs from torch's on a few elements
    ("tanh", _fn("tanh"), 0.99),  # before 0.15
    ("sigmoid", _fn("sigmoid"), 0.95),  # 0.966 (before 0.66)
    # 0.856 (before 0.64), 0.761 when torch runs on one thread (OMP_NUM_THREADS=1, as CI)
    ("softmax", lambda L, x: x.softmax(-1), 0.72),
    ("softmax_dim0", lambda L, x: x.softmax(0), 0.68),  # 0.701 (before 0.72)
    # log_softmax's gradient reads its forward result too
    ("log_softmax", lambda L, x: x.log_softmax(-1), 0.97),  # 0.983 (before 0.89)
    ("log_softmax_dim0", lambda L, x: x.log_softmax(0), 0.99),  # before 0.93
    ("silu", _nnf("silu"), 0.95),  # 0.969 (before 0.87)
    ("softplus", _nnf("softplus"), 0.93),  # 0.944 (before 0.51)
    ("elu", _nnf("elu"), 0.94),  # 0.955 (before 0.96)
    ("logsigmoid", _nnf("logsigmoid"), 0.94),  # 0.959 (before 0.62)
    ("mish", _nnf("mish"), 0.93),  # 0.945 (before 0.65)
    ("gelu_tanh", _nnf("gelu", approximate="tanh"), 0.97),  # 0.986 (before 0.60)
]


@pytest.mark.parametrize(("name", "fn", "rate"), BACKWARD, ids=[b[0] for b in BACKWARD])
def test_float32_backward_match_rate(name, fn, rate):
    x = _inputs(-8, 8, seed=5)[: 31 * 132].reshape(-1, 31)  # finite values only
    g = np.random.default_rng(6).normal(0, 1, x.shape).astype(np.float32)
    grads = []
    for L in (torch, shadowgrad):
        t = L.tensor(x, requires_grad=True)
        fn(L, t).backward(L.tensor(g))
        grads.append(t.grad.numpy())
    assert _rate(*grads) >= rate, f"{name}: {_rate(*grads):.4f} of elements equal torch's"


def test_large_float32_keeps_numpy_loop_within_few_ulp():
    x = np.random.default_rng(7).uniform(-20, 20, _fmath.LIMIT + 1).astype(np.float32)
    s = shadowgrad.tensor(x).exp().numpy()
    np.testing.assert_array_equal(s, np.exp(x))
    np.testing.assert_allclose(s, torch.tensor(x).exp().numpy(), rtol=6e-7, atol=0)


def test_float64_is_unchanged():
    x = np.random.default_rng(8).uniform(-20, 20, 100)
    for name in ("exp", "log1p", "tanh", "sin"):
        np.testing.assert_array_equal(
            getattr(shadowgrad.tensor(x), name)().numpy(), getattr(np, name)(x)
        )
