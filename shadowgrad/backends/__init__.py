"""Mirrors `torch.backends` as torch's CPU build reports it.

The flags (`cudnn.benchmark`, `cudnn.deterministic`, `cuda.matmul.allow_tf32`, ...) can be
read and set as in torch; shadowgrad computes the same way whatever they say, except for the
scaled_dot_product_attention backends (`cuda.enable_flash_sdp`, `cuda.enable_math_sdp`, ... and
`torch.nn.attention.sdpa_kernel`), which choose between the flash kernel and the math path as
torch's CPU build does.
"""

from __future__ import annotations

import contextlib
import enum
import warnings
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _true(*args: Any, **kwargs: Any) -> bool:
    return True


cudnn = SimpleNamespace(
    enabled=True,
    benchmark=False,
    benchmark_limit=10,
    deterministic=False,
    allow_tf32=True,
    is_available=_false,
    is_acceptable=_false,
    version=lambda: None,
)


class SDPBackend(enum.Enum):
    """Mirrors `torch.nn.attention.SDPBackend` (torch's `_SDPBackend`): the backends of
    scaled_dot_product_attention; not equal to ints, though int() of one is its value."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)


SDPBackend.__module__ = "torch.nn.attention"

# torch's global context flags (torch._C._get_<name>_sdp_enabled): which backends
# scaled_dot_product_attention may choose; on a CPU build only flash and math run
SDP_ENABLED = {"cudnn": True, "flash": True, "mem_efficient": True, "math": True}
SDP_ENABLED["overrideable"] = True
_SDP_NAMES = {
    "cudnn": SDPBackend.CUDNN_ATTENTION,
    "flash": SDPBackend.FLASH_ATTENTION,
    "mem_efficient": SDPBackend.EFFICIENT_ATTENTION,
    "math": SDPBackend.MATH,
    "overrideable": SDPBackend.OVERRIDEABLE,
}


def _sdp_setter(name: str) -> Any:
    def enable(enabled: bool) -> None:
        if not isinstance(enabled, bool):  # (torch's every setter names math)
            raise RuntimeError(f"set_sdp_use_math expects a bool, but got {type(enabled).__name__}")
        SDP_ENABLED[name] = enabled

    enable.__name__ = f"enable_{name}_sdp"
    enable.__doc__ = f"Mirrors `torch.backends.cuda.enable_{name}_sdp`."
    return enable


def _sdp_getter(name: str) -> Any:
    def enabled() -> bool:
        return SDP_ENABLED[name]

    enabled.__name__ = f"{name}_sdp_enabled"
    enabled.__doc__ = f"Mirrors `torch.backends.cuda.{name}_sdp_enabled`."
    return enabled


def sdpa_backends() -> list[SDPBackend]:
    """The enabled backends, in torch's `_backend_names` order."""
    return [b for name, b in _SDP_NAMES.items() if SDP_ENABLED[name]]


def set_sdpa_backends(backends: Any) -> None:
    """Enable exactly `backends` (torch.nn.attention._sdpa_kernel without priorities)."""
    for name, b in _SDP_NAMES.items():
        SDP_ENABLED[name] = b in backends


@contextlib.contextmanager
def _sdp_kernel(
    enable_flash: bool = True,
    enable_math: bool = True,
    enable_mem_efficient: bool = True,
    enable_cudnn: bool = True,
) -> Iterator[dict[str, Any]]:
    """Mirrors the deprecated `torch.backends.cuda.sdp_kernel` (FutureWarning)."""
    warnings.warn(
        "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
        "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
        "manager, with updated signature.",
        FutureWarning,
        stacklevel=3,
    )
    chosen = [SDPBackend.FLASH_ATTENTION] if enable_flash else []
    chosen += [SDPBackend.EFFICIENT_ATTENTION] if enable_mem_efficient else []
    chosen += [SDPBackend.MATH] if enable_math else []
    chosen += [SDPBackend.CUDNN_ATTENTION] if enable_cudnn else []
    previous = sdpa_backends()
    try:
        set_sdpa_backends(chosen)
        yield {}
    finally:
        set_sdpa_backends(previous)


cuda = SimpleNamespace(
    matmul=SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                           allow_bf16_reduced_precision_reduction=True),
    is_built=_false,
    SDPBackend=SDPBackend,
    sdp_kernel=_sdp_kernel,
    **{f"enable_{n}_sdp": _sdp_setter(n) for n in ("flash", "mem_efficient", "math", "cudnn")},
    **{f"{n}_sdp_enabled": _sdp_getter(n) for n in ("flash", "mem_efficient", "math", "cudnn")},
)  # fmt: skip
mps = SimpleNamespace(is_available=_false, is_built=_false)
mkldnn = SimpleNamespace(is_available=_true, enabled=True)
mkl = SimpleNamespace(is_available=_true)
openmp = SimpleNamespace(is_available=_true)

from . import mha  # noqa: E402  (torch.backends.mha, importable as a submodule too)

__all__ = ["cuda", "cudnn", "mha", "mkl", "mkldnn", "mps", "openmp"]
