"""The runtime namespaces ordinary programs touch, against torch: torch.testing.assert_close,
finfo/iinfo, torch.cuda and torch.backends on a machine without CUDA, thread and determinism
switches, torch.compile, autocast and GradScaler.

Each case is written once against the torch API and run with both libraries; the results (or
the exception type and message, and the warnings) must be the same.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _outcome(fn: Callable[[Any], Any], T: Any) -> tuple[str, Any, list[str]]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = fn(T)
            kind, val = "ok", r
        except Exception as e:  # the comparison is the point
            kind, val = type(e).__name__, str(e)
    # torch's warnings raised from C++ name the source line; its own imports warn too
    ws = [f"{x.category.__name__}: {str(x.message).split(' (Triggered internally')[0]}" for x in w]
    return kind, val, [m for m in ws if "torch.jit" not in m]


def _same(fn: Callable[[Any], Any]) -> tuple[Any, Any]:
    a, b = (_outcome(fn, T) for T in LIBS)
    assert a[0] == b[0], (a, b)
    assert a[2] == b[2], (a[2], b[2])
    if a[0] != "ok":
        assert a[1] == b[1]
    return a[1], b[1]


def _t(T: Any, v: Any, **kw: Any) -> Any:
    return T.tensor(np.asarray(v), **kw)


ASSERT_CLOSE = {
    "close": lambda T: T.testing.assert_close(_t(T, [1.0, 2.0]), _t(T, [1.0, 2.0 + 1e-9])),
    "float32 mismatch": lambda T: T.testing.assert_close(
        _t(T, np.float32([1, 2, 3])), _t(T, np.float32([1, 2.5, 3]))
    ),
    "dtype": lambda T: T.testing.assert_close(_t(T, np.float32([1])), _t(T, [1.0])),
    "dtype unchecked": lambda T: T.testing.assert_close(
        _t(T, np.float32([1, 2])), _t(T, [1.0, 2.1]), check_dtype=False
    ),
    "shape": lambda T: T.testing.assert_close(_t(T, [1.0, 2, 3]), _t(T, [1.0, 2])),
    "int not equal": lambda T: T.testing.assert_close(
        _t(T, [[1, 2], [3, 4]]), _t(T, [[1, 2], [3, 5]])
    ),
    "0-d": lambda T: T.testing.assert_close(_t(T, np.float32(1)), _t(T, np.float32(1.5))),
    "tensor vs float": lambda T: T.testing.assert_close(_t(T, 1.0), 1.0),
    "floats": lambda T: T.testing.assert_close(1.0, 1.1),
    "float vs int": lambda T: T.testing.assert_close(1.0, 1),
    "ints": lambda T: T.testing.assert_close(1, 2),
    "bools": lambda T: T.testing.assert_close(_t(T, True), _t(T, False)),
    "list item": lambda T: T.testing.assert_close(
        [_t(T, 1.0), _t(T, 2.0)], [_t(T, 1.0), _t(T, 2.5)]
    ),
    "nested": lambda T: T.testing.assert_close(
        [_t(T, [1.0]), [{"x": _t(T, [1.0, 5.0])}]], [_t(T, [1.0]), [{"x": _t(T, [1.0, 2.0])}]]
    ),
    "mapping keys": lambda T: T.testing.assert_close({"a": 1, "b": 2}, {"a": 1, "c": 2}),
    "lengths": lambda T: T.testing.assert_close((1, 2), (1, 2, 3)),
    "nan": lambda T: T.testing.assert_close(_t(T, [math.nan]), _t(T, [math.nan])),
    "nan equal": lambda T: T.testing.assert_close(
        _t(T, [math.nan]), _t(T, [math.nan]), equal_nan=True
    ),
    "inf": lambda T: T.testing.assert_close(_t(T, [1.0, math.inf]), _t(T, [1.0, math.inf])),
    "inf sign": lambda T: T.testing.assert_close(_t(T, [1.0, math.inf]), _t(T, [1.0, -math.inf])),
    "msg": lambda T: T.testing.assert_close(_t(T, [1.0]), _t(T, [2.0]), msg="custom"),
    "msg callable": lambda T: T.testing.assert_close(
        _t(T, [1.0]), _t(T, [2.0]), msg=lambda m: "X" + m[:12]
    ),
    "rtol only": lambda T: T.testing.assert_close(_t(T, [1.0]), _t(T, [1.0]), rtol=0.1),
    "tolerances": lambda T: T.testing.assert_close(
        _t(T, [1.0, 2.0]), _t(T, [1.0, 2.1]), rtol=0, atol=0.2
    ),
    "equality": lambda T: T.testing.assert_close(
        _t(T, np.float32([1, 2])), _t(T, np.float32([1, 2.5])), rtol=0, atol=0
    ),
    "stride": lambda T: T.testing.assert_close(T.ones(2, 3), T.ones(3, 2).t(), check_stride=True),
    "stride unchecked": lambda T: T.testing.assert_close(T.ones(2, 3), T.ones(3, 2).t()),
    "requires_grad ignored": lambda T: T.testing.assert_close(
        _t(T, [1.0], requires_grad=True), _t(T, [1.0])
    ),
    "large and zero": lambda T: T.testing.assert_close(
        _t(T, np.float32([1e10, 1])), _t(T, np.float32([1e10 + 1e5, 0]))
    ),
    "2-d index": lambda T: T.testing.assert_close(
        _t(T, np.float32([[1, 2], [3, 4]])), _t(T, np.float32([[1.1, 2], [3, 4.5]]))
    ),
    "none": lambda T: T.testing.assert_close(None, None),
    "none mismatch": lambda T: T.testing.assert_close(None, 1),
    "strings": lambda T: T.testing.assert_close("a", "b"),
    "empty": lambda T: T.testing.assert_close(T.zeros(0), T.zeros(0)),
}


@pytest.mark.parametrize("name", sorted(ASSERT_CLOSE))
def test_assert_close(name: str) -> None:
    _same(ASSERT_CLOSE[name])


def test_assert_close_numpy_arrays() -> None:
    for T in LIBS:
        with pytest.raises(AssertionError, match=r"Greatest relative difference: 0\.2 at"):
            T.testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.5]))


def test_assert_allclose_is_deprecated() -> None:
    _same(lambda T: T.testing.assert_allclose(_t(T, [1.0, 2.0]), [1.0, 2.0]))


INFO = {
    "finfo": lambda T: [repr(T.finfo(d)) for d in (T.float16, T.float32, T.float64)],
    "finfo default": lambda T: repr(T.finfo()),
    "finfo complex": lambda T: repr(T.finfo(T.complex128)),
    "finfo fields": lambda T: [
        (f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, str(f.dtype))
        for f in (T.finfo(T.float32), T.finfo(T.float64))
    ],
    "iinfo": lambda T: [
        (repr(i), i.bits, i.max, i.min, str(i.dtype))
        for i in (T.iinfo(d) for d in (T.uint8, T.int8, T.int16, T.int32, T.int64))
    ],
    "finfo of int": lambda T: T.finfo(T.int32),
    "iinfo of float": lambda T: T.iinfo(T.float32),
    "iinfo of bool": lambda T: T.iinfo(T.bool),
    "finfo of int value": lambda T: T.finfo(3),
    "finfo equal": lambda T: T.finfo(T.float32) == T.finfo(T.float32),
}


@pytest.mark.parametrize("name", sorted(INFO))
def test_finfo_iinfo(name: str) -> None:
    a, b = _same(INFO[name])
    assert a == b


CUDA = {
    "queries": lambda T: (
        T.cuda.is_available(),
        T.cuda.device_count(),
        T.cuda.is_initialized(),
        T.cuda.is_bf16_supported(),
        T.cuda.get_arch_list(),
        T.cuda.memory_allocated(),
        T.cuda.max_memory_allocated(),
        T.cuda.memory_reserved(),
    ),
    "seeding": lambda T: (
        T.cuda.manual_seed(0),
        T.cuda.manual_seed_all(1),
        T.cuda.seed(),
        T.cuda.empty_cache(),
    ),
    "current_device": lambda T: T.cuda.current_device(),
    "synchronize": lambda T: T.cuda.synchronize(),
    "get_device_name": lambda T: T.cuda.get_device_name(),
    "tensor on cuda": lambda T: T.zeros(2, device="cuda"),
    "to cuda": lambda T: T.zeros(2).to("cuda"),
    "module to cuda": lambda T: T.nn.Linear(2, 2).to("cuda"),
    "module to cuda kw": lambda T: T.nn.Linear(2, 2).to(device="cuda"),
    "module to cpu": lambda T: str(T.nn.Linear(2, 2).to("cpu", T.float64).weight.dtype),
    "module to ordinal": lambda T: T.nn.Linear(2, 2).to(0),
    "to ordinal": lambda T: T.zeros(2).to(0),
    "device ordinal": lambda T: T.device(0),
    "device pick": lambda T: str(
        T.zeros(2, device="cuda" if T.cuda.is_available() else "cpu").device
    ),
    "backends": lambda T: (
        T.backends.cudnn.enabled,
        T.backends.cudnn.benchmark,
        T.backends.cudnn.deterministic,
        T.backends.cudnn.is_available(),
        T.backends.mps.is_available(),
        T.backends.mps.is_built(),
        T.backends.cuda.matmul.allow_tf32,
        T.backends.cudnn.allow_tf32,
        T.backends.cuda.is_built(),
        T.backends.openmp.is_available(),
    ),
}


@pytest.mark.parametrize("name", sorted(CUDA))
def test_cuda_and_backends(name: str) -> None:
    a, b = _same(CUDA[name])
    assert a == b


def _roundtrip(set_fn: str, get_fn: str, value: Any) -> Callable[[Any], Any]:
    def run(T: Any) -> Any:
        old = getattr(T, get_fn)()
        try:
            getattr(T, set_fn)(value)
            return getattr(T, get_fn)()
        finally:
            getattr(T, set_fn)(old)

    return run


def _debug_mode(mode: Any) -> Callable[[Any], Any]:
    def run(T: Any) -> Any:
        try:
            T.set_deterministic_debug_mode(mode)
            return (
                T.are_deterministic_algorithms_enabled(),
                T.is_deterministic_algorithms_warn_only_enabled(),
                T.get_deterministic_debug_mode(),
            )
        finally:
            T.use_deterministic_algorithms(False)

    return run


SWITCHES = {
    "threads": _roundtrip("set_num_threads", "get_num_threads", 1),
    "threads zero": lambda T: T.set_num_threads(0),
    "threads float": lambda T: T.set_num_threads(1.5),
    "interop zero": lambda T: T.set_num_interop_threads(0),
    "matmul precision": _roundtrip(
        "set_float32_matmul_precision", "get_float32_matmul_precision", "high"
    ),
    "matmul precision bad": lambda T: (
        T.set_float32_matmul_precision("x"),
        T.get_float32_matmul_precision(),
    ),
    "deterministic": _debug_mode("warn"),
    "deterministic error": _debug_mode(2),
    "deterministic bad": _debug_mode("x"),
    "deterministic bad int": _debug_mode(5),
    "deterministic int": lambda T: T.use_deterministic_algorithms(1),
    "compile not callable": lambda T: T.compile(3),
    "autocast cuda": lambda T: T.autocast("cuda").__enter__() is not None,
    "autocast bad device": lambda T: T.autocast("xyz"),
    "autocast disabled": lambda T: T.is_autocast_enabled(),
    "cuda amp autocast": lambda T: T.cuda.amp.autocast() is not None,
    "scaler cuda": lambda T: (T.amp.GradScaler().is_enabled(), T.amp.GradScaler().get_scale()),
    "cuda amp scaler": lambda T: T.cuda.amp.GradScaler().state_dict(),
}


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_switches(name: str) -> None:
    a, b = _same(SWITCHES[name])
    if name not in ("threads",):
        assert a == b


def test_autocast_disabled_is_a_no_op() -> None:
    for T in LIBS:
        with T.autocast("cpu", enabled=False):
            y = T.ones(2, 2) @ T.ones(2, 2)
        assert y.dtype == T.float32


def test_compile_returns_an_equivalent_callable() -> None:
    w = np.random.default_rng(0).standard_normal((3, 2)).astype(np.float32)
    outs = []
    for T in LIBS:
        m = T.nn.Linear(2, 3)
        with T.no_grad():
            m.weight.copy_(T.tensor(w))
            m.bias.zero_()
        validate = T.distributions.Distribution._validate_args
        try:
            f = T.compile(m)
            outs.append(f(T.ones(1, 2)).detach().numpy())
        finally:
            # torch's compiler turns distributions' validation off for the whole process when
            # it loads (dynamo's TorchPatcher): later tests in this worker must not see that
            T.distributions.Distribution.set_default_validate_args(validate)
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-6)


def _scaler_run(T: Any, dtype: Any) -> list[Any]:
    """A GradScaler('cpu') loop with one step whose gradient overflows."""
    w0 = np.array([1.0, -2.0, 0.5], dtype=dtype)
    w = T.nn.Parameter(T.tensor(w0))
    opt = T.optim.SGD([w], lr=0.1)
    s = T.amp.GradScaler("cpu", init_scale=2.0**10, growth_interval=2)
    log: list[Any] = []
    for k in range(6):
        opt.zero_grad()
        loss = (w * w).sum() * (1e38 if k == 2 else 1.0)
        scaled = s.scale(loss)
        log.append((scaled.item(), type(scaled.grad_fn).__name__ if scaled.grad_fn else None))
        scaled.backward()
        if k == 3:
            s.unscale_(opt)
            log.append(w.grad.numpy().copy())
        r = s.step(opt)
        log.append((r, w.detach().numpy().copy(), s.get_scale()))
        s.update()
        log.append((s.get_scale(), s.state_dict()))
    return log


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grad_scaler_cpu_matches_torch(dtype: Any) -> None:
    a, b = (_scaler_run(T, dtype) for T in LIBS)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            np.testing.assert_allclose(x, y, rtol=1e-6)
        elif isinstance(x, tuple) and len(x) == 3:
            assert x[0] == y[0] and x[2] == y[2]
            np.testing.assert_allclose(x[1], y[1], rtol=1e-6)
        elif isinstance(x, tuple) and isinstance(x[1], str | type(None)):
            assert x[1] == y[1]
            np.testing.assert_allclose(x[0], y[0], rtol=1e-6)
        else:
            assert x == y


SCALER_ERRORS = {
    "unscale twice": lambda T, s, opt: (s.unscale_(opt), s.unscale_(opt)),
    "step twice": lambda T, s, opt: (s.step(opt), s.step(opt)),
    "unscale after step": lambda T, s, opt: (s.step(opt), s.unscale_(opt)),
    "closure": lambda T, s, opt: s.step(opt, closure=lambda: None),
    "update without step": lambda T, s, opt: (s.update(), s.update()),
}


@pytest.mark.parametrize("name", sorted(SCALER_ERRORS))
def test_grad_scaler_errors(name: str) -> None:
    def run(T: Any) -> Any:
        w = T.nn.Parameter(T.ones(2))
        opt = T.optim.SGD([w], lr=0.1)
        s = T.amp.GradScaler("cpu")
        s.scale((w * w).sum()).backward()
        SCALER_ERRORS[name](T, s, opt)

    _same(run)


def _fork_rng(T: Any) -> Any:
    T.manual_seed(3)
    a = T.rand(2)
    T.manual_seed(3)
    with T.random.fork_rng():
        T.rand(5)
    inside_disabled = T.random.fork_rng(enabled=False)
    with inside_disabled:
        pass
    return bool((a == T.rand(2)).all()), T.random.initial_seed()


MODULES = {
    "version": lambda T: (T.version.cuda, T.version.hip, T.version.debug),
    "fork_rng": _fork_rng,
    "random state": lambda T: (
        T.random.manual_seed(5),
        T.random.initial_seed(),
        bool((T.random.get_rng_state() == T.get_rng_state()).all()),
    )[1:],
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_version_and_random_modules(name: str) -> None:
    a, b = _same(MODULES[name])
    assert a == b
