"""BatchNorm layers and their bases, under torch's module path. Mirrors
`torch.nn.modules.batchnorm` (the classes live in normalization.py): code that tests
`isinstance(m, nn.modules.batchnorm._BatchNorm)` finds them here.
"""

from __future__ import annotations

from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    SyncBatchNorm,
    _BatchNorm,
    _LazyNormBase,
    _NormBase,
)

__all__ = [
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "SyncBatchNorm",
]
_PRIVATE = (_BatchNorm, _LazyNormBase, _NormBase)  # torch's private bases, importable here

# torch's classes name this module (repr(type(m)), typename, a pickled model's class path)
for _cls in (*(globals()[_n] for _n in __all__), *_PRIVATE):
    _cls.__module__ = __name__
