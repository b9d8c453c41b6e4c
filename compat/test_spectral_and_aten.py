"""stft/istft, the deprecated aten norms, torch.convolution, the grid samplers by dimension,
the LDL functions and the small namespace functions against torch: whole backward graphs (node
names in walk order, deeper than the op database's output node), gradients, error messages
word for word, once-per-process warnings, and set_default_tensor_type."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import shadowgrad  # noqa: E402


def _graph(y: Any) -> list[str]:
    """Node names of y's backward graph, depth first in edge order, each node once."""
    seen: set[int] = set()
    out: list[str] = []
    stack = [y.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or id(f) in seen:
            continue
        seen.add(id(f))
        out.append(type(f).__name__)
        stack.extend(n for n, _ in reversed(f.next_functions))
    return out


def _run(T: Any, arrays: list[np.ndarray], fn: Any) -> Any:
    leaves = [T.tensor(a).requires_grad_() for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = fn(T, *leaves)
    real = T.view_as_real(y) if y.is_complex() else y
    cot = np.random.default_rng(0).standard_normal(tuple(real.shape))
    grads = T.autograd.grad((real * T.tensor(cot, dtype=real.dtype)).sum(), leaves)
    return y.detach().numpy(), [g.numpy() for g in grads], _graph(y), str(y.dtype)


_r = np.random.default_rng(2024)
X = _r.standard_normal(24)
XB = _r.standard_normal((2, 24))
XC = _r.standard_normal(24) + 1j * _r.standard_normal(24)
W8 = 0.6 - 0.4 * np.cos(2 * np.pi * np.arange(8) / 8)
W5 = W8[:5] + 0.1
S = np.fft.rfft(np.stack([X[i : i + 8] for i in range(0, 17, 2)]) * W8).T
M = _r.standard_normal((2, 3, 4))

GRAPHS = {
    "stft": ([X], lambda T, x: T.stft(x, 8, return_complex=True)),
    "stft window": ([X, W8], lambda T, x, w: T.stft(x, 8, window=w, return_complex=True)),
    "stft short window": (
        [X, W5],
        lambda T, x, w: T.stft(x, 8, 3, 5, w, return_complex=True, normalized=True),
    ),
    "stft real output": ([XB, W8], lambda T, x, w: T.stft(x, 8, window=w, return_complex=False)),
    "stft complex": ([XC, W8], lambda T, x, w: T.stft(x, 8, window=w, pad_mode="constant")),
    "stft align": (
        [X],
        lambda T, x: T.stft(x, 8, 2, 4, center=False, align_to_window=True, return_complex=True),
    ),
    "istft": ([S, W8], lambda T, s, w: T.istft(s, 8, 2, window=w)),
    "istft length": ([S], lambda T, s: T.istft(s, 8, 2, length=40)),
    "istft short window": ([S, W5], lambda T, s, w: T.istft(s, 8, 2, 5, w, normalized=True)),
    "stft then istft": (
        [X, W8],
        lambda T, x, w: T.istft(T.stft(x, 8, 2, window=w, return_complex=True), 8, 2, window=w),
    ),
    "nuclear_norm": ([M], lambda T, m: T.nuclear_norm(m, (0, 2), True)),
    "frobenius_norm": ([M], lambda T, m: T.frobenius_norm(m, (2, 0))),
    "norm_except_dim middle": ([M], lambda T, m: T.norm_except_dim(m, 3, 1)),
    "norm_except_dim last": ([M], lambda T, m: T.norm_except_dim(m, 2, 2)),
    "norm_except_dim all": ([M], lambda T, m: T.norm_except_dim(m, 2, -1)),
    "convolution": (
        [M[None], _r.standard_normal((3, 2, 2, 3))],
        lambda T, x, w: T.convolution(x.transpose(1, 2), w, None, [1], [1, 0], [1], True, [0], 1),
    ),
    "grid_sampler_2d": (
        [M[None], _r.uniform(-1, 1, (1, 2, 2, 2))],
        lambda T, x, g: T.grid_sampler_2d(x, g, 2, 1, True),
    ),
}


@pytest.mark.parametrize("case", sorted(GRAPHS))
def test_graph_values_and_grads_match_torch(case: str) -> None:
    arrays, fn = GRAPHS[case]
    t, s = _run(torch, arrays, fn), _run(shadowgrad, arrays, fn)
    assert s[2] == t[2]
    assert s[3] == t[3]
    np.testing.assert_allclose(s[0], t[0], rtol=1e-9, atol=1e-10)
    for a, b in zip(s[1], t[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10)


def _e(T: Any, fn: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(T)
    except Exception as e:
        return type(e).__name__, str(e)
    return None


_x = np.linspace(-1, 1, 20)
_s = np.ones((5, 11), np.complex64)
ERRORS = {
    "stft return_complex": lambda T: T.stft(T.tensor(_x), 8),
    "stft dtype": lambda T: T.stft(T.tensor(np.arange(20)), 8, center=False, return_complex=True),
    "stft 3-d": lambda T: T.stft(T.tensor(_x.reshape(2, 2, 5)), 4, return_complex=True),
    "stft n_fft": lambda T: T.stft(T.tensor(_x), 30, 2, 5, center=False, return_complex=True),
    "stft hop": lambda T: T.stft(T.tensor(_x), 8, hop_length=0, return_complex=True),
    "stft win_length": lambda T: T.stft(T.tensor(_x), 8, win_length=9, return_complex=True),
    "stft window": lambda T: T.stft(T.tensor(_x), 8, window=T.ones(2, 4), return_complex=True),
    "stft complex window repr": lambda T: T.stft(
        T.tensor(_x.astype(np.complex128)), 8, hop_length=-1, window=T.ones(8, dtype=T.float64)
    ),
    "stft onesided complex": lambda T: T.stft(T.tensor(_s.ravel()), 8, onesided=True),
    "stft align with center": lambda T: T.stft(
        T.tensor(_x), 8, align_to_window=False, return_complex=True
    ),
    "stft align past the end": lambda T: T.stft(
        T.tensor(_x), 8, 3, 5, center=False, align_to_window=True, return_complex=True
    ),
    "stft pad mode": lambda T: T.stft(T.tensor(_x), 8, pad_mode="foo", return_complex=True),
    "stft bool": lambda T: T.stft(T.tensor(_x > 0), 8, return_complex=True),
    "istft real": lambda T: T.istft(T.tensor(_s.real.copy()), 8),
    "istft hop": lambda T: T.istft(T.tensor(_s), 8, hop_length=9, win_length=6, length=3),
    "istft win_length": lambda T: T.istft(T.tensor(_s), 8, win_length=9),
    "istft window": lambda T: T.istft(T.tensor(_s), 8, window=T.ones(7, dtype=T.float64)),
    "istft onesided": lambda T: T.istft(T.tensor(_s), 10),
    "istft twosided": lambda T: T.istft(T.tensor(_s), 8, onesided=False),
    "istft complex output": lambda T: T.istft(T.tensor(_s), 8, return_complex=True),
    "istft empty": lambda T: T.istft(T.tensor(_s[:0]), 8),
    "istft 1-d": lambda T: T.istft(T.tensor(_s[0]), 8),
    "istft 5-d": lambda T: T.istft(T.tensor(_s[None, None, None]), 8),
    "istft complex window": lambda T: T.istft(T.tensor(_s), 8, window=T.ones(8, dtype=T.cfloat)),
    "istft envelope": lambda T: T.istft(
        T.tensor(np.ones((8, 21), np.complex128)),
        8,
        center=False,
        onesided=False,
        return_complex=True,
        normalized=True,
        window=T.hann_window(8, dtype=T.float64),
    ),
    "frobenius_norm dims": lambda T: T.frobenius_norm(T.ones(2, 2, 2), (0, 1, 2)),
    "frobenius_norm dtype": lambda T: T.frobenius_norm(T.ones(2, 2, dtype=T.long), (0,)),
    "nuclear_norm dim": lambda T: T.nuclear_norm(T.ones(2, 2, 2), (0, 1, 2)),
    "nuclear_norm 1-d": lambda T: T.nuclear_norm(T.ones(3)),
    "nuclear_norm dtype": lambda T: T.nuclear_norm(T.ones(3, 3, dtype=T.long)),
    "norm_except_dim pow": lambda T: T.norm_except_dim(T.ones(2, 3), 1.5, 1),
    "norm_except_dim 0-d": lambda T: T.norm_except_dim(T.tensor(1.0), 2, 0),
    "norm_except_dim dim": lambda T: T.norm_except_dim(T.ones(2, 3), 2, 5),
    "convolution stride list": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), None, [1, 1, 1], [0], [1], False, [0], 1
    ),
    "convolution stride int": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), None, 1, [0], [1], False, [0], 1
    ),
    "convolution stride float": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), None, [1.5], [0], [1], False, [0], 1
    ),
    "convolution transposed int": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), None, [1], [0], [1], 1, [0], 1
    ),
    "convolution groups": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), None, [1], [0], [1], False, [0], 3
    ),
    "convolution channels": lambda T: T.convolution(
        T.ones(1, 3, 4, 4), T.ones(2, 2, 2, 2), None, [1], [0], [1], False, [0], 1
    ),
    "convolution bias": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), T.ones(3), [1], [0], [1], False, [0], 1
    ),
    "convolution kernel": lambda T: T.convolution(
        T.ones(1, 2, 1, 4), T.ones(2, 2, 2, 2), None, [1], [0], [1], False, [0], 1
    ),
    "convolution transposed channels": lambda T: T.convolution(
        T.ones(1, 3, 4, 4), T.ones(2, 2, 2, 2), None, [1], [0], [1], True, [0], 1
    ),
    "convolution output_padding": lambda T: T.convolution(
        T.ones(1, 2, 4, 4), T.ones(2, 2, 2, 2), None, [2], [0], [1], True, [2], 1
    ),
    "convolution dims": lambda T: T.convolution(
        T.ones(2, 4, 4), T.ones(2, 2, 2, 2), None, [1], [0], [1], False, [0], 1
    ),
    "convolution dtype": lambda T: T.convolution(
        T.ones(1, 2, 4, 4, dtype=T.float64), T.ones(2, 2, 2, 2), None, [1], [0], [1], False, [0], 1
    ),
    "convolution bias dtype": lambda T: T.convolution(
        T.ones(1, 4, 4, 4),
        T.ones(2, 2, 2, 2),
        T.ones(2, dtype=T.float64),
        [1],
        [0],
        [1],
        False,
        [0],
        2,
    ),
    "convolution 3-d transposed bias dtype": lambda T: T.convolution(
        T.ones(1, 2, 3, 3, 3),
        T.ones(2, 2, 2, 2, 2),
        T.ones(2, dtype=T.float64),
        [1],
        [0],
        [1],
        True,
        [0],
        1,
    ),
    "grid_sampler_2d 5-d": lambda T: T.grid_sampler_2d(
        T.ones(1, 1, 2, 2, 2), T.ones(1, 2, 2, 2, 3), 0, 0, False
    ),
    "grid_sampler_2d batch": lambda T: T.grid_sampler_2d(
        T.ones(2, 1, 2, 2), T.ones(1, 2, 2, 3), 0, 0, False
    ),
    "grid_sampler_3d bicubic": lambda T: T.grid_sampler_3d(
        T.ones(1, 1, 2, 2, 2), T.ones(1, 2, 2, 2, 3), 2, 0, False
    ),
    "grid_sampler_2d mode type": lambda T: T.grid_sampler_2d(
        T.ones(1, 1, 2, 2), T.ones(1, 2, 2, 2), 0.0, 0, False
    ),
    "ldl_factor square": lambda T: T.linalg.ldl_factor(T.ones(2, 3)),
    "ldl_factor zero pivot": lambda T: T.linalg.ldl_factor(T.zeros(3, 3)),
    "ldl_factor_ex check_errors": lambda T: T.linalg.ldl_factor_ex(
        T.zeros(2, 3, 3), check_errors=True
    ),
    "ldl_factor dtype": lambda T: T.linalg.ldl_factor(T.eye(3, dtype=T.long)),
    "ldl_factor hermitian": lambda T: T.linalg.ldl_factor(T.eye(3), hermitian=1),
    "ldl_solve pivots": lambda T: T.linalg.ldl_solve(
        T.eye(3), T.ones(3, dtype=T.float32), T.ones(3, 1)
    ),
    "ldl_solve pivots shape": lambda T: T.linalg.ldl_solve(
        T.eye(3), T.ones(2, dtype=T.int32), T.ones(3, 1)
    ),
    "ldl_solve sizes": lambda T: T.linalg.ldl_solve(
        T.eye(3), T.ones(3, dtype=T.int32), T.ones(4, 1)
    ),
    "ldl_solve B dtype": lambda T: T.linalg.ldl_solve(
        T.eye(3), T.ones(3, dtype=T.int32), T.ones(3, 1, dtype=T.float64)
    ),
    "ldl backward": lambda T: T.linalg.ldl_factor(T.eye(3).requires_grad_()).LD.sum().backward(),
    "ldl_solve backward": lambda T: (
        T.linalg.ldl_solve(T.eye(3), T.ones(3, dtype=T.int32), T.ones(3, 1, requires_grad=True))
        .sum()
        .backward()
    ),
    "native_norm dense": lambda T: T.native_norm(T.ones(3)),
    "get_device number": lambda T: T.get_device(1.5),
    "is_distributed number": lambda T: T.is_distributed(1.5),
    "set_default_tensor_type integer": lambda T: T.set_default_tensor_type(T.LongTensor),
    "set_default_tensor_type object": lambda T: T.set_default_tensor_type(3),
    "set_default_tensor_type cuda": lambda T: T.set_default_tensor_type("torch.cuda.FloatTensor"),
    "set_default_tensor_type module": lambda T: T.set_default_tensor_type("no_such_module.X"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_error_messages_match_torch(case: str) -> None:
    t, s = _e(torch, ERRORS[case]), _e(shadowgrad, ERRORS[case])
    assert t is not None and s is not None
    if case == "native_norm dense":  # torch lists its dispatch table after this prefix
        cut = t[1].index("SparseCPU, ")
        t, s = (t[0], t[1][:cut]), (s[0], s[1][:cut])
    assert s == t


def test_small_namespace_functions_match_torch() -> None:
    for T in (torch, shadowgrad):
        x = T.ones(2)
        assert T.get_device(x) == x.get_device() == -1
        assert T.is_distributed(x) is False


def test_set_default_tensor_type_matches_torch() -> None:
    def run(T: Any) -> Any:
        out = []
        try:
            for t in ("torch.DoubleTensor", T.HalfTensor, T.FloatTensor, "torch.FloatTensor"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    T.set_default_tensor_type(t)
                out.append((str(T.get_default_dtype()), str(T.tensor([1.5]).dtype)))
        finally:
            T.set_default_dtype(T.float32)
        return out

    assert run(torch) == run(shadowgrad)


_WARNINGS = """
import warnings, numpy as np
import {lib} as T
warnings.simplefilter("always")
seen = []
def record(fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        fn()
    seen.append([(r.category.__name__, str(r.message).split(" (Triggered internally")[0])
                 for r in rec])
x = T.tensor(np.linspace(-1, 1, 24))
for _ in range(2):
    record(lambda: T.stft(x, 8, return_complex=True))
    record(lambda: T.stft(x, 8, return_complex=False, window=T.ones(8, dtype=T.float64)))
    s = T.stft(x, 8, return_complex=True, window=T.ones(8, dtype=T.float64))
    record(lambda: T.istft(s, 8))
    record(lambda: T.istft(s, 8, window=T.ones(8, dtype=T.float64), length=40))
    record(lambda: T.frobenius_norm(x, (0,)))
    record(lambda: T.nuclear_norm(x.view(4, 6)))
    record(lambda: T.set_default_tensor_type(T.FloatTensor))
print(repr(seen))
"""


def test_once_per_process_warnings_match_torch() -> None:
    def run(lib: str) -> str:
        code = textwrap.dedent(_WARNINGS.format(lib=lib))
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        return done.stdout

    assert run("shadowgrad") == run("torch")
