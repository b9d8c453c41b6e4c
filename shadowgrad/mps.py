"""Mirrors `torch.mps` on a machine without Apple's MPS backend: nothing is available."""

from __future__ import annotations

from typing import Any

__all__ = ["device_count", "empty_cache", "is_available", "synchronize"]


def is_available() -> bool:
    """Mirrors `torch.mps.is_available`: False."""
    return False


def device_count() -> int:
    """Mirrors `torch.mps.device_count`: 0."""
    return 0


def synchronize() -> None:
    """Mirrors `torch.mps.synchronize`: no backend to wait for."""
    raise RuntimeError("Cannot execute deviceSynchronize() without MPS backend.")


def empty_cache() -> None:
    """Mirrors `torch.mps.empty_cache`: no backend."""
    raise RuntimeError("Cannot execute emptyCache() without MPS backend.")


def manual_seed(seed: Any) -> None:
    """Mirrors `torch.mps.manual_seed`: a no-op without the backend."""
