"""Functional neural network ops. Mirrors `torch.nn.functional`."""

from __future__ import annotations
