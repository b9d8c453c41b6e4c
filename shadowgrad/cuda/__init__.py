"""Mirrors `torch.cuda` as torch's CPU build has it: no CUDA device.

The queries answer as torch's CPU build does (`is_available()` is False, `device_count()` 0,
memory counters 0), seeding and cache calls do nothing, and the calls that need a device raise
torch's `AssertionError: Torch not compiled with CUDA enabled`. Programs written as
`device = "cuda" if torch.cuda.is_available() else "cpu"` therefore run on the cpu.
"""

from __future__ import annotations

from typing import Any

from . import amp

__all__ = [
    "amp",
    "current_device",
    "device_count",
    "empty_cache",
    "get_arch_list",
    "get_device_capability",
    "get_device_name",
    "get_device_properties",
    "get_rng_state",
    "get_rng_state_all",
    "init",
    "initial_seed",
    "is_available",
    "is_bf16_supported",
    "is_initialized",
    "manual_seed",
    "manual_seed_all",
    "max_memory_allocated",
    "max_memory_reserved",
    "mem_get_info",
    "memory_allocated",
    "memory_reserved",
    "seed",
    "seed_all",
    "set_device",
    "set_rng_state",
    "set_rng_state_all",
    "synchronize",
]


def _not_compiled(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("Torch not compiled with CUDA enabled")


def is_available() -> bool:
    """Mirrors `torch.cuda.is_available`: False."""
    return False


def device_count() -> int:
    """Mirrors `torch.cuda.device_count`: 0."""
    return 0


def is_initialized() -> bool:
    """Mirrors `torch.cuda.is_initialized`: False."""
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Mirrors `torch.cuda.is_bf16_supported`: False."""
    return False


def get_arch_list() -> list[str]:
    """Mirrors `torch.cuda.get_arch_list`: empty."""
    return []


def manual_seed(seed: int) -> None:
    """Mirrors `torch.cuda.manual_seed`: nothing to seed (torch queues it for a device that
    never comes)."""
    int(seed)


def manual_seed_all(seed: int) -> None:
    """Mirrors `torch.cuda.manual_seed_all`: nothing to seed."""
    int(seed)


def seed() -> None:
    """Mirrors `torch.cuda.seed`: nothing to seed."""


def seed_all() -> None:
    """Mirrors `torch.cuda.seed_all`: nothing to seed."""


def empty_cache() -> None:
    """Mirrors `torch.cuda.empty_cache`: no cache."""


def memory_allocated(device: Any = None) -> int:
    """Mirrors `torch.cuda.memory_allocated`: 0."""
    return 0


def max_memory_allocated(device: Any = None) -> int:
    """Mirrors `torch.cuda.max_memory_allocated`: 0."""
    return 0


def memory_reserved(device: Any = None) -> int:
    """Mirrors `torch.cuda.memory_reserved`: 0."""
    return 0


def max_memory_reserved(device: Any = None) -> int:
    """Mirrors `torch.cuda.max_memory_reserved`: 0."""
    return 0


current_device = _not_compiled
synchronize = _not_compiled
get_device_name = _not_compiled
get_device_capability = _not_compiled
get_device_properties = _not_compiled
get_rng_state = _not_compiled
get_rng_state_all = _not_compiled
set_rng_state = _not_compiled
set_rng_state_all = _not_compiled
initial_seed = _not_compiled
init = _not_compiled
mem_get_info = _not_compiled
set_device = _not_compiled
