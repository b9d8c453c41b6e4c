"""Mirrors `torch.xpu` on torch's CPU build: no XPU."""

from __future__ import annotations

from typing import Any

__all__ = ["current_device", "device_count", "is_available", "synchronize"]

_NOT_COMPILED = "Torch not compiled with XPU enabled"


def is_available() -> bool:
    """Mirrors `torch.xpu.is_available`: False."""
    return False


def device_count() -> int:
    """Mirrors `torch.xpu.device_count`: 0."""
    return 0


def current_device(*args: Any, **kwargs: Any) -> Any:
    """Mirrors `torch.xpu.current_device`: not compiled."""
    raise AssertionError(_NOT_COMPILED)


def synchronize(*args: Any, **kwargs: Any) -> Any:
    """Mirrors `torch.xpu.synchronize`: not compiled."""
    raise AssertionError(_NOT_COMPILED)
