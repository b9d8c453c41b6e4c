"""The nn layers. Mirrors `torch.nn.modules`.

Each layer file lists its public layers in `__all__`; they are re-exported here (and from
`shadowgrad.nn`). A name a file exports for its own importers but torch does not re-export
from `torch.nn` (module hooks, attention's helper) is listed in `_NOT_REEXPORTED`.
"""

from __future__ import annotations

import importlib

_FILES = (
    "activation",
    "adaptive",
    "attention",
    "channelshuffle",
    "container",
    "conv",
    "distance",
    "dropout",
    "flatten",
    "fold",
    "lazy",
    "linear",
    "linear_cross_entropy",
    "loss",
    "module",
    "normalization",
    "padding",
    "parameter_exports",
    "pixelshuffle",
    "pooling",
    "rnn",
    "sparse",
    "transformer",
    "upsampling",
)
_NOT_REEXPORTED = frozenset(
    {
        "register_module_forward_pre_hook",
        "register_module_forward_hook",
        "register_module_full_backward_pre_hook",
        "register_module_full_backward_hook",
        "register_module_backward_hook",
        "register_module_buffer_registration_hook",
        "register_module_module_registration_hook",
        "register_module_parameter_registration_hook",
        "multi_head_attention_forward",
        "NonDynamicallyQuantizableLinear",
    }
)

__all__: list[str] = []
for _file in _FILES:
    _mod = importlib.import_module(f".{_file}", __name__)
    for _name in _mod.__all__:
        if _name not in _NOT_REEXPORTED:
            globals()[_name] = getattr(_mod, _name)
            __all__.append(_name)
del _file, _mod, _name

# torch's per-family module paths for the norm layers (same classes; nothing re-exported)
from . import batchnorm, instancenorm  # noqa: E402
