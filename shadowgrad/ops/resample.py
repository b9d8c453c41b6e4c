"""Resampling ops behind torch.nn.functional.interpolate and the upsampling layers."""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
