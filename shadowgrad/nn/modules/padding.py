"""Padding layers. Mirrors `torch.nn.modules.padding`: each one calls `F.pad` with its mode."""

from __future__ import annotations

from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__ = [
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
]


def _padding(padding: Any, dims: int) -> tuple[int, ...]:
    """torch's _pair / _quadruple / _ntuple(6): an int repeated for both sides of each dim."""
    if isinstance(padding, int):
        return (padding,) * (2 * dims)
    return tuple(padding)


class _PadNd(Module):
    mode = "constant"
    dims = 1

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _padding(padding, self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Mirrors `torch.nn.ConstantPad1d`."""

    dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Mirrors `torch.nn.ConstantPad2d`."""

    dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Mirrors `torch.nn.ConstantPad3d`."""

    dims = 3


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Mirrors `torch.nn.ZeroPad1d`."""

    dims = 1


class ZeroPad2d(_ZeroPadNd):
    """Mirrors `torch.nn.ZeroPad2d`."""

    dims = 2


class ZeroPad3d(_ZeroPadNd):
    """Mirrors `torch.nn.ZeroPad3d`."""

    dims = 3


class ReflectionPad1d(_PadNd):
    """Mirrors `torch.nn.ReflectionPad1d`."""

    mode = "reflect"
    dims = 1


class ReflectionPad2d(_PadNd):
    """Mirrors `torch.nn.ReflectionPad2d`."""

    mode = "reflect"
    dims = 2


class ReflectionPad3d(_PadNd):
    """Mirrors `torch.nn.ReflectionPad3d`."""

    mode = "reflect"
    dims = 3


class ReplicationPad1d(_PadNd):
    """Mirrors `torch.nn.ReplicationPad1d`."""

    mode = "replicate"
    dims = 1


class ReplicationPad2d(_PadNd):
    """Mirrors `torch.nn.ReplicationPad2d`."""

    mode = "replicate"
    dims = 2


class ReplicationPad3d(_PadNd):
    """Mirrors `torch.nn.ReplicationPad3d`."""

    mode = "replicate"
    dims = 3


class CircularPad1d(_PadNd):
    """Mirrors `torch.nn.CircularPad1d`."""

    mode = "circular"
    dims = 1


class CircularPad2d(_PadNd):
    """Mirrors `torch.nn.CircularPad2d`."""

    mode = "circular"
    dims = 2


class CircularPad3d(_PadNd):
    """Mirrors `torch.nn.CircularPad3d`."""

    mode = "circular"
    dims = 3
