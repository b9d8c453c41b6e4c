"""The torch bridge: interop, shadow mode and the custom-backward validator.

The only part of shadowgrad that imports torch, and only when one of its functions runs.
"""

from __future__ import annotations

from .interop import from_torch, to_torch
from .shadow import Divergence, ShadowDivergenceError, ShadowReport, shadow
from .validate import Finding, ValidationReport, validate_function

__all__ = [
    "Divergence",
    "Finding",
    "ShadowDivergenceError",
    "ShadowReport",
    "ValidationReport",
    "from_torch",
    "shadow",
    "to_torch",
    "validate_function",
]
