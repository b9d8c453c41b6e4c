"""Optimizers. Mirrors `torch.optim`."""

from __future__ import annotations
