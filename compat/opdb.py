"""The op database: one OpEntry per op, in the spirit of torch's OpInfo.

Family files (`compat/ops_*.py`) build entries and `register()` them; the harness
(`compat/checks.py`) runs the checks of each entry against torch and shadowgrad.

An entry's `op` is written once against the torch API and takes the library module first:
`op(T, *args, **kwargs)`, where T is `torch` or `shadowgrad`. Sample inputs are described with
numpy arrays so that they can be turned into either library's tensors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["ENTRIES", "OpEntry", "Sample", "register", "tensor_arg"]


@dataclass
class TensorArg:
    """A tensor argument: its values, and whether the harness makes it require grad."""

    value: np.ndarray
    requires_grad: bool = True
    # "contiguous" | "transposed" | "sliced" - how the harness lays the tensor out in memory
    layout: str = "contiguous"


def tensor_arg(value: Any, requires_grad: bool = True, layout: str = "contiguous") -> TensorArg:
    return TensorArg(np.asarray(value), requires_grad, layout)


@dataclass
class Sample:
    """One call: positional and keyword arguments (TensorArg, lists of TensorArg, or plain)."""

    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""  # a short description shown in reports ("broadcast", "0-d", "kink at 0")


@dataclass
class OpEntry:
    """Everything the harness needs to check one op against torch."""

    name: str  # torch's public name, e.g. "exp", "nn.functional.relu", "Tensor.add_"
    op: Callable[..., Any]  # op(T, *args, **kwargs)
    samples: Callable[[str], list[Sample]]  # samples(dtype_name) -> samples for that dtype
    dtypes: tuple[str, ...] = ("float32", "float64")
    supports_grad: bool = True
    supports_gradgrad: bool = True
    # numerical tolerances per dtype name: (rtol, atol), each kept with its reason
    tolerances: dict[str, tuple[float, float]] = field(default_factory=dict)
    tolerance_reason: str = ""
    # expected failures: check name ("forward", "backward", "gradgrad", "grad_fn", ...) -> reason
    xfails: dict[str, str] = field(default_factory=dict)
    # public names this entry covers (functions, methods, in-place variants)
    covers: tuple[str, ...] = ()
    # the op can be re-run: under no_grad with the same outcome (status parity) and by float64
    # gradcheck; off for random ops (they draw again) and ops that assert what autograd recorded
    status_parity: bool = True


ENTRIES: dict[str, OpEntry] = {}


def register(*entries: OpEntry) -> None:
    for e in entries:
        if e.name in ENTRIES:
            raise ValueError(f"duplicate op entry {e.name}")
        ENTRIES[e.name] = e
