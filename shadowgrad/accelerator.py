"""Accelerator queries. Mirrors `torch.accelerator` on torch's CPU build: there is none, so the
usual device-selection idiom (`torch.accelerator.current_accelerator().type if
torch.accelerator.is_available() else "cpu"`) picks the cpu.

Differences: the stream, memory and device-index functions are not provided.
"""

from __future__ import annotations

from typing import Any

__all__ = ["current_accelerator", "device_count", "is_available"]


def is_available() -> bool:
    """Mirrors `torch.accelerator.is_available`: False (cpu only)."""
    return False


def current_accelerator(check_available: bool = False) -> Any:
    """Mirrors `torch.accelerator.current_accelerator`: None (cpu only)."""
    return None


def device_count() -> int:
    """Mirrors `torch.accelerator.device_count`: 0 (cpu only)."""
    return 0
