"""Mirrors `torch.nn.modules.fold`."""

from __future__ import annotations

__all__: list[str] = []
