"""Mirrors `torch.utils.hooks`."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ..autograd.graph import RemovableHandle

__all__ = ["RemovableHandle", "unserializable_hook", "warn_if_has_hooks"]

RemovableHandle.__module__ = __name__  # torch defines it here (torch.autograd.graph re-exports it)


def unserializable_hook(f: Callable[..., Any]) -> Callable[..., Any]:
    """Mirrors `torch.utils.hooks.unserializable_hook`: marks a tensor hook as one that is
    not expected to be serialized (warn_if_has_hooks stays quiet about it)."""
    f.__torch_unserializable__ = True  # type: ignore[attr-defined]
    return f


def warn_if_has_hooks(tensor: Any) -> None:
    """Mirrors `torch.utils.hooks.warn_if_has_hooks`: a warning for each backward hook of
    `tensor` that is not marked with unserializable_hook."""
    hooks = getattr(tensor, "_backward_hooks", None)
    if hooks is None:
        extra = getattr(tensor, "_x", None)
        hooks = getattr(extra, "hooks", None)
    for hook in (hooks or {}).values():
        if not hasattr(hook, "__torch_unserializable__"):
            warnings.warn(
                f"backward hook {hook!r} on tensor will not be serialized.  If this is "
                "expected, you can decorate the function with "
                "@torch.utils.hooks.unserializable_hook to suppress this warning",
                stacklevel=2,
            )
