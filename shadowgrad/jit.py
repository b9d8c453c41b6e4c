"""The TorchScript queries and decorators model code calls outside scripting. Mirrors
`torch.jit`'s is_scripting, is_tracing, ignore, unused and export: nothing is ever scripted or
traced here, so the queries answer False and the decorators return the function.

Differences: script, trace and the rest of TorchScript are not provided.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["export", "ignore", "is_scripting", "is_tracing", "unused"]


def is_scripting() -> bool:
    """Mirrors `torch.jit.is_scripting`: False outside TorchScript."""
    return False


def is_tracing() -> bool:
    """Mirrors `torch.jit.is_tracing`: False outside tracing."""
    return False


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    """Mirrors `torch.jit.ignore`: the function itself, as a decorator or called with options."""
    if callable(drop):
        return drop
    if not isinstance(drop, bool):
        raise RuntimeError(
            f"Argument to @torch.jit.ignore must be a bool or a function but got {drop}"
        )
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        warnings.warn(
            "ignore(drop_on_export=True) has been deprecated. TorchScript will now drop the "
            "function call on compilation. Use torch.jit.unused now. {}",
            category=FutureWarning,
            stacklevel=2,
        )
    elif drop:
        warnings.warn(
            "ignore(True) has been deprecated. TorchScript will now drop the function call on "
            "compilation. Use torch.jit.unused now. {}",
            category=FutureWarning,
            stacklevel=2,
        )

    def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
        return fn

    return decorator


def unused(fn: Any) -> Any:
    """Mirrors `torch.jit.unused`: the function (or property) itself."""
    return fn


class Error(Exception):
    """Mirrors `torch.jit.Error` (`torch.JITException`)."""


def export(fn: Any) -> Any:
    """Mirrors `torch.jit.export`: the function itself."""
    return fn
