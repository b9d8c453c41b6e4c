"""InstanceNorm layers and their base, under torch's module path. Mirrors
`torch.nn.modules.instancenorm` (the classes live in normalization.py)."""

from __future__ import annotations

from .normalization import (
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LazyInstanceNorm1d,
    LazyInstanceNorm2d,
    LazyInstanceNorm3d,
    _InstanceNorm,
)

__all__ = [
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]
_PRIVATE = (_InstanceNorm,)  # torch's private base, importable here

# torch's classes name this module (repr(type(m)), typename, a pickled model's class path)
for _cls in (*(globals()[_n] for _n in __all__), *_PRIVATE):
    _cls.__module__ = __name__
