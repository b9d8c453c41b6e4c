"""The runtime queries and switches of the `torch` namespace that ordinary programs call:
`finfo`/`iinfo`, thread counts, deterministic algorithms, float32 matmul precision, `compile`.

shadowgrad runs on numpy in one process, so the switches record what they are told (and read
back the same) without changing how anything is computed: numpy's BLAS picks its own threads,
every op is deterministic, and float32 products are computed in float32 whatever the precision.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from . import _dtype as D


def _g(x: float) -> str:
    return f"{x:g}"


class finfo:
    """Mirrors `torch.finfo`: the limits of a floating point dtype (a complex dtype gives its
    real part's)."""

    __slots__ = ("bits", "dtype", "eps", "max", "min", "resolution", "smallest_normal", "tiny")

    def __init__(self, type: Any = None) -> None:
        if type is None:
            type = D.get_default_dtype()
        if not isinstance(type, D.dtype):
            raise TypeError(
                f"finfo(): argument 'type' (position 1) must be torch.dtype, not "
                f"{builtin_type(type).__name__}"
            )
        if not (type.is_floating_point or type.is_complex):
            raise TypeError(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                "'torch.finfo'"
            )
        real = type.to_real()
        if real is D.bfloat16:  # Note [bfloat16 storage]: its array's longdouble is not it
            self.bits, self.eps, self.resolution, self.dtype = 16, 2.0**-7, 0.01, "bfloat16"
            self.max = float.fromhex("0x1.fep127")
            self.min = -self.max
            self.tiny = self.smallest_normal = 2.0**-126
            return
        info = np.finfo(real._np)
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = float(info.tiny)
        self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = real._name

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, "
            f"eps={_g(self.eps)}, smallest_normal={_g(self.smallest_normal)}, "
            f"tiny={_g(self.tiny)}, dtype={self.dtype})"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash(("finfo", self.dtype))


class iinfo:
    """Mirrors `torch.iinfo`: the limits of an integer dtype."""

    __slots__ = ("bits", "dtype", "max", "min")

    def __init__(self, type: Any) -> None:
        if not isinstance(type, D.dtype):
            raise TypeError(
                f"iinfo(): argument 'type' (position 1) must be torch.dtype, not "
                f"{builtin_type(type).__name__}"
            )
        if type is D.bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point or type.is_complex:
            raise TypeError(
                "torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                "'torch.iinfo'"
            )
        info = np.iinfo(type._np)
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type._name

    def __repr__(self) -> str:
        return f"iinfo(min={_g(self.min)}, max={_g(self.max)}, dtype={self.dtype})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash(("iinfo", self.dtype))


builtin_type = type


class _Settings:
    """What the switches were last set to (read back by their getters)."""

    num_threads = os.cpu_count() or 1
    num_interop_threads = os.cpu_count() or 1
    deterministic = False
    deterministic_warn_only = False
    matmul_precision = "highest"
    warn_always = False


_S = _Settings()


def _check_threads(n: Any, name: str) -> int:
    if not isinstance(n, int):
        raise RuntimeError(f"{name} expects an int, but got {builtin_type(n).__name__}")
    if n <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return int(n)


def get_num_threads() -> int:
    """Mirrors `torch.get_num_threads`: what `set_num_threads` was given (numpy's BLAS keeps
    its own thread count)."""
    return _S.num_threads


def set_num_threads(int: Any) -> None:
    """Mirrors `torch.set_num_threads` (recorded; see the module docstring)."""
    _S.num_threads = _check_threads(int, "set_num_threads")


def init_num_threads(*args: Any) -> None:
    """Mirrors `torch.init_num_threads`: a new thread sees the count `set_num_threads` set, as it
    is one process-wide setting here; there is nothing to initialize."""
    if args:
        raise TypeError(
            "init_num_threads(): incompatible function arguments. The following argument types "
            "are supported:\n    1. () -> None\n\nInvoked with: " + ", ".join(repr(a) for a in args)
        )


def get_num_interop_threads() -> int:
    """Mirrors `torch.get_num_interop_threads`."""
    return _S.num_interop_threads


def set_num_interop_threads(int: Any) -> None:
    """Mirrors `torch.set_num_interop_threads` (recorded; see the module docstring)."""
    _S.num_interop_threads = _check_threads(int, "set_num_interop_threads")


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Mirrors `torch.use_deterministic_algorithms`: every shadowgrad op is deterministic."""
    if not isinstance(mode, bool):
        raise TypeError(
            "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
            f"{builtin_type(mode).__name__}"
        )
    _S.deterministic = mode
    _S.deterministic_warn_only = bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    """Mirrors `torch.are_deterministic_algorithms_enabled`."""
    return _S.deterministic


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Mirrors `torch.is_deterministic_algorithms_warn_only_enabled`."""
    return _S.deterministic_warn_only


def set_deterministic_debug_mode(debug_mode: Any) -> None:
    """Mirrors `torch.set_deterministic_debug_mode` ("default"/"warn"/"error" or 0/1/2)."""
    modes = {"default": 0, "warn": 1, "error": 2}
    if isinstance(debug_mode, str):
        if debug_mode not in modes:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but "
                f"got {debug_mode}"
            )
        debug_mode = modes[debug_mode]
    elif not isinstance(debug_mode, int) or debug_mode not in (0, 1, 2):
        raise RuntimeError(
            f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
        )
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    """Mirrors `torch.get_deterministic_debug_mode`."""
    if not _S.deterministic:
        return 0
    return 1 if _S.deterministic_warn_only else 2


def set_float32_matmul_precision(precision: str) -> None:
    """Mirrors `torch.set_float32_matmul_precision` (recorded: products stay float32)."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect.",
            UserWarning,
            stacklevel=2,
        )
        return
    _S.matmul_precision = precision


def get_float32_matmul_precision() -> str:
    """Mirrors `torch.get_float32_matmul_precision`."""
    return _S.matmul_precision


def set_warn_always(b: bool) -> None:
    """Mirrors `torch.set_warn_always`."""
    _S.warn_always = bool(b)


def is_warn_always_enabled() -> bool:
    """Mirrors `torch.is_warn_always_enabled`."""
    return _S.warn_always


def compile(
    model: Any = None,
    *,
    fullgraph: bool = False,
    dynamic: bool | None = None,
    backend: Any = None,
    mode: str | None = None,
    options: dict[str, Any] | None = None,
    name: str | None = None,
    disable: bool = False,
    recompile_limit: int | None = None,
    isolate_recompiles: bool = False,
    shapes_spec: Any = None,
) -> Any:
    """Mirrors `torch.compile`'s contract (and its signature, so a misspelled or positional
    option is refused as torch's is): the result computes what `model` computes.

    shadowgrad has no compiler, so it returns `model` itself (and, called with options only,
    a decorator that does the same), a Module wrapped as torch wraps it (an OptimizedModule
    whose `_orig_mod` is the module: its state_dict keys carry the `_orig_mod.` prefix).
    Values, gradients and graphs are the eager ones, which is what torch's compiled code is
    checked against.
    """
    if model is None:
        return compile
    if not callable(model):
        raise AssertionError(
            f"A callable function is expected, but {builtin_type(model)} is provided."
        )
    from .nn.modules.module import Module

    if isinstance(model, Module):
        from ._optimized_module import OptimizedModule

        return OptimizedModule(model)
    return model


__all__ = [
    "are_deterministic_algorithms_enabled",
    "compile",
    "finfo",
    "get_deterministic_debug_mode",
    "get_float32_matmul_precision",
    "get_num_interop_threads",
    "get_num_threads",
    "iinfo",
    "init_num_threads",
    "is_deterministic_algorithms_warn_only_enabled",
    "is_warn_always_enabled",
    "set_deterministic_debug_mode",
    "set_float32_matmul_precision",
    "set_num_interop_threads",
    "set_num_threads",
    "set_warn_always",
    "use_deterministic_algorithms",
]
