"""More shape and indexing ops: repeat_interleave, unique, scatter-style copies, splits,
histograms, index builders, ...
"""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
