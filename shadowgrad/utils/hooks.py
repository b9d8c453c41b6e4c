"""Mirrors `torch.utils.hooks`."""

from __future__ import annotations

from ..autograd.graph import RemovableHandle

__all__ = ["RemovableHandle"]

RemovableHandle.__module__ = __name__  # torch defines it here (torch.autograd.graph re-exports it)
