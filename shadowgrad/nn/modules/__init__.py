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

# Python names a method's argument errors ("X.__init__() missing 1 required positional
# argument", "got an unexpected keyword argument") after the function that runs: where
# shadowgrad's layers share an __init__ or forward that torch's define per class (or the
# reverse), each gets its own copy named as torch's, so that those errors read the same.
_TORCH_INIT_OWNERS = {
    "AdaptiveAvgPool1d": "_AdaptiveAvgPoolNd",
    "AdaptiveAvgPool2d": "_AdaptiveAvgPoolNd",
    "AdaptiveAvgPool3d": "_AdaptiveAvgPoolNd",
    "AdaptiveMaxPool1d": "_AdaptiveMaxPoolNd",
    "AdaptiveMaxPool2d": "_AdaptiveMaxPoolNd",
    "AdaptiveMaxPool3d": "_AdaptiveMaxPoolNd",
    "BatchNorm1d": "_BatchNorm",
    "BatchNorm2d": "_BatchNorm",
    "BatchNorm3d": "_BatchNorm",
    **dict.fromkeys(
        [
            "AvgPool3d",
            "CELU",
            "CircularPad1d",
            "CircularPad2d",
            "CircularPad3d",
            "ConstantPad1d",
            "ConstantPad2d",
            "ConstantPad3d",
            "CosineEmbeddingLoss",
            "FractionalMaxPool2d",
            "FractionalMaxPool3d",
            "Hardshrink",
            "Hardsigmoid",
            "Hardswish",
            "HingeEmbeddingLoss",
            "LazyConv1d",
            "LazyConv2d",
            "LazyConv3d",
            "LazyConvTranspose1d",
            "LazyConvTranspose2d",
            "LazyConvTranspose3d",
            "LogSoftmax",
            "MarginRankingLoss",
            "MaxUnpool1d",
            "MaxUnpool2d",
            "MaxUnpool3d",
            "Mish",
            "NLLLoss2d",
            "ReLU",
            "ReflectionPad1d",
            "ReflectionPad2d",
            "ReflectionPad3d",
            "ReplicationPad1d",
            "ReplicationPad2d",
            "ReplicationPad3d",
            "SELU",
            "SiLU",
            "Softmax",
            "Softmin",
            "Softshrink",
            "ZeroPad1d",
            "ZeroPad2d",
            "ZeroPad3d",
        ]
    ),
}


_TORCH_FORWARD_OWNERS = {
    **{f"CircularPad{n}d": "_CircularPadNd" for n in (1, 2, 3)},
    **{f"ReflectionPad{n}d": "_ReflectionPadNd" for n in (1, 2, 3)},
    **{f"ReplicationPad{n}d": "_ReplicationPadNd" for n in (1, 2, 3)},
    **{f"LPPool{n}d": None for n in (1, 2, 3)},
    **{f"MaxUnpool{n}d": None for n in (1, 2, 3)},
}


def _name_method(cls: type, method: str, owner: str | None) -> None:
    import types

    f = getattr(cls, method)
    g = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    g.__dict__.update(f.__dict__)
    g.__doc__, g.__module__, g.__annotations__ = f.__doc__, f.__module__, f.__annotations__
    g.__qualname__ = f"{owner or cls.__name__}.{method}"
    setattr(cls, method, g)


for _cls_name, _owner in _TORCH_INIT_OWNERS.items():
    _name_method(globals()[_cls_name], "__init__", _owner)
for _cls_name, _owner in _TORCH_FORWARD_OWNERS.items():
    _name_method(globals()[_cls_name], "forward", _owner)
del _cls_name, _owner
