"""The 3-d (and remaining 1-d) convolutions, pooling and dropout of torch.nn.functional.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`.
"""

from __future__ import annotations

__all__: list[str] = []
