"""torch.types: the type aliases torch's annotations use (`Number` is what
torch.library.custom_op reads as a Scalar argument)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, TypeAlias, Union

from ._dtype import dtype
from ._size import Size
from ._tensor import Tensor, device

__all__ = ["Device", "Number", "Size", "Storage", "Tensor"]

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_complex = builtins.complex
_str = builtins.str
_bytes = builtins.bytes


_dtype = dtype
_device = device
_size: TypeAlias = Union[Size, list[builtins.int], tuple[builtins.int, ...]]  # noqa: UP007
_symsize = _size
Number: TypeAlias = builtins.int | builtins.float | builtins.bool
_Number = (builtins.int, builtins.float, builtins.bool)
Device: TypeAlias = device | builtins.str | builtins.int | None
IntLikeType: TypeAlias = builtins.int
FloatLikeType: TypeAlias = builtins.float
BoolLikeType: TypeAlias = builtins.bool
_TensorOrTensors: TypeAlias = Tensor | Sequence[Tensor]
Storage = Any
