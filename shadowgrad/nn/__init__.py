"""Neural network modules. Mirrors `torch.nn`."""

from __future__ import annotations

from . import attention, functional, grad, init, modules, parallel, parameter, utils
from .modules import *  # noqa: F403 - torch.nn re-exports every layer
from .modules import __all__ as _modules_all
from .parallel import DataParallel
from .parameter import Buffer, Parameter

functional.grad = grad  # type: ignore[attr-defined]  # torch.nn.functional imports torch.nn.grad

__all__ = [
    "Buffer",
    "DataParallel",
    "Parameter",
    "functional",
    "grad",
    "init",
    "modules",
    "parallel",
    "parameter",
    "utils",
    *_modules_all,
]
