"""Mirrors `torch.nn.attention`: the backends of scaled_dot_product_attention and the context
manager choosing among them (on a CPU build: the flash kernel and the math path)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ...backends import SDPBackend, sdpa_backends, set_sdpa_backends

__all__ = ["WARN_FOR_UNFUSED_KERNELS", "SDPBackend", "sdpa_kernel"]

WARN_FOR_UNFUSED_KERNELS = False


@contextlib.contextmanager
def sdpa_kernel(backends: Any, set_priority: bool = False) -> Iterator[dict[str, Any]]:
    """Mirrors `torch.nn.attention.sdpa_kernel`: only `backends` (one SDPBackend or a list)
    enabled inside, the previous flags restored on exit.

    Differences: set_priority is accepted and has no effect (CPU's order is flash, then math,
    whatever the priority)."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(
            "Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "
            f"{type(backends).__name__}"
        )
    if isinstance(backends, SDPBackend):
        backends = [backends]
    backends = list(dict.fromkeys(backends))
    previous = sdpa_backends()
    try:
        set_sdpa_backends(backends)
        yield {}
    finally:
        set_sdpa_backends(previous)
