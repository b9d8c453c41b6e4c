"""Utilities. Mirrors `torch.utils`."""

from __future__ import annotations

from . import checkpoint, data, hooks
