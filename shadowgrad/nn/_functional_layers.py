"""Layers of torch.nn.functional beyond the core: normalization, resampling, and pixel and
channel shuffles.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`.
"""

from __future__ import annotations

__all__: list[str] = []
