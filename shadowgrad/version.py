"""Mirrors `torch.version`: shadowgrad's version, and no accelerator toolkit (the CPU build's
answers: `cuda` and `hip` are None)."""

from __future__ import annotations

__version__ = "0.1.0"
cuda: str | None = None
hip: str | None = None
rocm: str | None = None
xpu: str | None = None
debug = False
git_version = "unknown"
