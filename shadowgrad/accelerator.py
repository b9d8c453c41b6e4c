"""Accelerator queries. Mirrors `torch.accelerator` on torch's CPU build: there is none, so the
usual device-selection idiom (`torch.accelerator.current_accelerator().type if
torch.accelerator.is_available() else "cpu"`) picks the cpu, and everything that needs the
accelerator raises torch's "Cannot access accelerator device when none is available.".

Differences: Graph and the memory-statistics functions beyond those below are not provided.
"""

from __future__ import annotations

import warnings
from typing import Any

__all__ = [
    "current_accelerator",
    "current_device_idx",
    "current_device_index",
    "current_stream",
    "device_count",
    "device_index",
    "empty_cache",
    "get_memory_info",
    "is_available",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "set_device_idx",
    "set_device_index",
    "set_stream",
    "synchronize",
]

_NONE = "Cannot access accelerator device when none is available."


def is_available() -> bool:
    """Mirrors `torch.accelerator.is_available`: False (cpu only)."""
    return False


def current_accelerator(check_available: bool = False) -> Any:
    """Mirrors `torch.accelerator.current_accelerator`: None (cpu only)."""
    return None


def device_count() -> int:
    """Mirrors `torch.accelerator.device_count`: 0 (cpu only)."""
    return 0


def _none(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError(_NONE)


def current_device_index() -> int:
    """Mirrors `torch.accelerator.current_device_index`: no accelerator."""
    raise RuntimeError(_NONE)


def set_device_index(device: Any, /) -> None:
    """Mirrors `torch.accelerator.set_device_index`: no accelerator."""
    raise RuntimeError(_NONE)


def current_device_idx() -> int:
    """Mirrors the deprecated `torch.accelerator.current_device_idx`."""
    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_idx(device: Any, /) -> None:
    """Mirrors the deprecated `torch.accelerator.set_device_idx`."""
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


def synchronize(device: Any = None, /) -> None:
    """Mirrors `torch.accelerator.synchronize`: no accelerator."""
    raise RuntimeError(_NONE)


def current_stream(device: Any = None, /) -> Any:
    """Mirrors `torch.accelerator.current_stream`: no accelerator."""
    raise RuntimeError(_NONE)


def set_stream(stream: Any) -> None:
    """Mirrors `torch.accelerator.set_stream`: no accelerator."""
    raise RuntimeError(_NONE)


def empty_cache() -> None:
    """Mirrors `torch.accelerator.empty_cache`: no accelerator."""
    raise RuntimeError(_NONE)


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _none
get_memory_info = _none


class device_index:
    """Mirrors `torch.accelerator.device_index`: a no-op for None, else no accelerator."""

    def __init__(self, device: Any, /) -> None:
        self.idx = device

    def __enter__(self) -> None:
        if self.idx is not None:
            raise RuntimeError(_NONE)

    def __exit__(self, *exc: Any) -> None:
        pass
