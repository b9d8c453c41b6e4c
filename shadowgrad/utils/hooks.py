"""Mirrors `torch.utils.hooks`."""

from __future__ import annotations

from ..autograd.graph import RemovableHandle

__all__ = ["RemovableHandle"]
