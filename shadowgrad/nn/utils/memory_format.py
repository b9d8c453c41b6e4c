"""convert_conv2d/3d_weight_memory_format. Mirrors `torch.nn.utils.memory_format`."""

from __future__ import annotations

from typing import Any, TypeVar

from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]

_M = TypeVar("_M", bound=Module)


def _convert(module: Any, memory_format: Any, kinds: tuple[type, ...]) -> Any:
    if isinstance(module, kinds):
        weight_data = module.weight.detach().clone(memory_format=memory_format)
        module.weight.data = weight_data.resize_(weight_data.size(), memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module: _M, memory_format: Any) -> _M:
    """Mirrors `torch.nn.utils.convert_conv2d_weight_memory_format`: every Conv2d and
    ConvTranspose2d weight in `module` re-laid out in `memory_format`, in place."""
    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))  # type: ignore[no-any-return]


def convert_conv3d_weight_memory_format(module: _M, memory_format: Any) -> _M:
    """Mirrors `torch.nn.utils.convert_conv3d_weight_memory_format` (Conv3d and
    ConvTranspose3d weights)."""
    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))  # type: ignore[no-any-return]
