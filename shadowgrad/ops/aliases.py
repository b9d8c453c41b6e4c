"""torch's top-level spellings of ops shadowgrad already has: the in-place functions
(`torch.relu_`, `torch.sigmoid_`, ...), the functional layers torch also exports at top level
(`torch.batch_norm`, `torch.layer_norm`, ...), and other aliases.
"""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
