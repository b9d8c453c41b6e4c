"""Mirrors `torch.random`: the default generator's seeding and state, and `fork_rng`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ._random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

__all__ = [
    "Generator",
    "default_generator",
    "fork_rng",
    "get_rng_state",
    "initial_seed",
    "manual_seed",
    "seed",
    "set_rng_state",
]


@contextlib.contextmanager
def fork_rng(
    devices: Any = None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: Any = None,
) -> Iterator[None]:
    """Mirrors `torch.random.fork_rng`: the default generator's state is restored on exit, so
    random draws inside do not change the draws after."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
