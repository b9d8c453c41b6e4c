"""Mirrors `torch.nn.modules.channelshuffle`."""

from __future__ import annotations

__all__: list[str] = []
