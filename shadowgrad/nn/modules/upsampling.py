"""Mirrors `torch.nn.modules.upsampling`."""

from __future__ import annotations

__all__: list[str] = []
