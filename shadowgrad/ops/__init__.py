"""The op families. Each module declares its ops once (see registry.py) and lists its public
functions (FUNCTIONS, exported as `shadowgrad.<name>`) and Tensor methods (METHODS).
"""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._tensor import Tensor
from . import (
    aliases,
    aten_legacy,
    indexing,
    inplace,
    linalg,
    linalg_extra,
    nn_ctc,
    nn_ops,
    pointwise,
    reduction,
    resample,
    rounding,
    shape,
    shape_extra,
    sorting,
    special,
    special_bessel,
    special_poly,
    spectral,
    statistics,
    views,
)
from .registry import REGISTRY

FAMILIES = [
    pointwise,
    rounding,
    reduction,
    sorting,
    shape,
    indexing,
    views,
    linalg,
    nn_ops,
    special,
    special_bessel,
    special_poly,
    shape_extra,
    resample,
    linalg_extra,
    aliases,
    nn_ctc,
    statistics,
    spectral,
    aten_legacy,
]


def install_methods() -> dict[str, Any]:
    """Attach every family's Tensor methods; return every family's public functions."""
    functions: dict[str, Any] = {}
    for fam in FAMILIES:
        for name, fn in fam.METHODS.items():
            setattr(Tensor, name, fn)
        functions.update(fam.FUNCTIONS)
    for name, fn in _creation.new_methods().items():
        setattr(Tensor, name, fn)
    for name, fn in inplace.build_methods().items():
        setattr(Tensor, name, fn)
    return functions


def stack_tensors(ts: list[Tensor]) -> Tensor:
    return shape.stack(ts)


__all__ = ["REGISTRY", "install_methods", "stack_tensors"]
