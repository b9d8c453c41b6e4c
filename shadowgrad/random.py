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
    "thread_safe_generator",
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


def thread_safe_generator() -> Generator | None:
    """Mirrors `torch.random.thread_safe_generator`: inside a DataLoader thread worker, that
    worker's own Generator; None elsewhere (the main process, process workers), so the caller's
    draws use the default generator."""
    from .utils.data import get_worker_info  # lazily: utils.data imports this package

    info = get_worker_info()
    if info is not None and info.worker_method == "thread" and info.rng is not None:
        return info.rng.torch_generator
    return None
