"""Neural network modules. Mirrors `torch.nn`."""

from __future__ import annotations

from . import functional, init, modules, parameter, utils
from .modules import *  # noqa: F403 - torch.nn re-exports every layer
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter

__all__ = [
    "Buffer",
    "Parameter",
    "functional",
    "init",
    "modules",
    "parameter",
    "utils",
    *_modules_all,
]
