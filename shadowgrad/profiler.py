"""record_function. Mirrors the part of `torch.profiler` that training code calls outside a
profiler (see autograd/profiler.py).

Differences: `profile`, `schedule`, `ProfilerActivity` and the trace handlers are not provided.
"""

from __future__ import annotations

from .autograd.profiler import record_function

__all__ = ["record_function"]
