"""record_function. Mirrors the part of `torch.autograd.profiler` that training code calls
outside a profiler: labelling a region. shadowgrad has no profiler, so nothing is recorded, as
torch records nothing when no profiler is active.

Differences: `profile`, `emit_nvtx` and the event classes are not provided.
"""

from __future__ import annotations

from contextlib import ContextDecorator
from typing import Any

__all__ = ["record_function"]


class record_function(ContextDecorator):
    """Label a region of code (a context manager or a decorator). Mirrors
    `torch.autograd.profiler.record_function`; records nothing."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self.run_callbacks_on_exit = True

    def __enter__(self) -> record_function:
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        return None
