"""Mirrors `torch.nn.parallel` (the parts that exist without an accelerator)."""

from __future__ import annotations

from .data_parallel import DataParallel, data_parallel

__all__ = ["DataParallel", "data_parallel"]
