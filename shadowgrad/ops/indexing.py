"""Op family: indexing (being written). See registry.py for how ops are declared."""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
