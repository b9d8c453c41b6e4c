"""The less common losses and distances of torch.nn.functional.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`.
"""

from __future__ import annotations

__all__: list[str] = []
