"""The process-group queries single-process code guards with. Mirrors `torch.distributed` on
torch's CPU build: the package is available and no process group is initialized.

Differences: init_process_group and the collectives are not provided.
"""

from __future__ import annotations

__all__ = ["get_rank", "get_world_size", "is_available", "is_initialized"]

_NOT_INITIALIZED = (
    "Default process group has not been initialized, please make sure to call init_process_group."
)


def is_available() -> bool:
    """Mirrors `torch.distributed.is_available` (True on torch's CPU build)."""
    return True


def is_initialized() -> bool:
    """Mirrors `torch.distributed.is_initialized`: no process group exists."""
    return False


def get_rank(group: object = None) -> int:
    """Mirrors `torch.distributed.get_rank` with no process group: raises torch's error."""
    raise ValueError(_NOT_INITIALIZED)


def get_world_size(group: object = None) -> int:
    """Mirrors `torch.distributed.get_world_size` with no process group: raises torch's error."""
    raise ValueError(_NOT_INITIALIZED)
