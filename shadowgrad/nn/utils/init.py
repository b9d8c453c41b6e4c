"""skip_init. Mirrors `torch.nn.utils.init`."""

from __future__ import annotations

import inspect
from typing import Any

from ..modules.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls: type[Module], *args: Any, **kwargs: Any) -> Module:
    """Build a module whose parameters and buffers are left uninitialized. Mirrors
    `torch.nn.utils.skip_init`.

    Differences: shadowgrad has no meta device, so the module is built (and initialized) on the
    cpu, then its tensors are replaced by empty ones.
    """
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "cpu"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
