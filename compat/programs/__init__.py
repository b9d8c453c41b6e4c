"""The semantics corpus: small programs, each written once as `prog(T)` and run on every engine.

One module per section of the torch-semantics checklist. A program returns a dict of
observations (tensors, `observe(T, t)` records, hook logs, `raises(...)` results); the harness
runs it on two engines and diffs everything (compat/compare.py). Decorate each with
`@program(ref=...)`; a known difference from torch is `xfail="why"`, checked strictly.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..compare import Tolerance

__all__ = ["AREAS", "PROGRAMS", "Program", "load_all", "program"]

# module name -> the checklist sections it covers
AREAS = {
    "leaves": "1. Leaves, requires_grad, detach, .data",
    "backward": "2. backward()",
    "grad": "3. torch.autograd.grad",
    "grad_modes": "4. Grad modes",
    "inplace": "5. In-place ops, version counter, views",
    "introspection": "6. Graph introspection",
    "promotion": "12. Broadcasting, dtypes, type promotion",
    "tensor_api": "13. repr, item, tolist, numpy",
    "edge_values": "14. Gradient values at kinks and edges",
}


@dataclass
class Program:
    name: str  # "<area>.<function name without prog_>"
    area: str
    ref: str  # the checklist item, e.g. "2.7"
    fn: Callable[[Any], Any]
    xfail: str | None = None  # why shadowgrad differs from torch (strict)
    tol: Tolerance | None = None
    warnings: bool = True  # compare warnings (off where torch warns once per process)

    @property
    def source(self) -> str:
        return inspect.getsource(self.fn)


PROGRAMS: dict[str, Program] = {}


def program(
    ref: str = "",
    *,
    xfail: str | None = None,
    tol: Tolerance | None = None,
    warnings: bool = True,
) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register `prog_<name>(T)` as program `<area>.<name>`."""

    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        area = fn.__module__.rsplit(".", 1)[-1]
        name = f"{area}.{fn.__name__.removeprefix('prog_')}"
        if name in PROGRAMS:
            raise ValueError(f"duplicate program {name}")
        PROGRAMS[name] = Program(name, area, ref, fn, xfail, tol, warnings)
        return fn

    return deco


def load_all() -> dict[str, Program]:
    for m in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{m.name}")
    return PROGRAMS
