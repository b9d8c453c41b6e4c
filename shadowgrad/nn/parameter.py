"""Parameter and Buffer: tensors modules register on assignment. Mirrors `torch.nn.parameter`."""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._creation import empty
from .._tensor import Tensor

__all__ = ["Buffer", "Parameter", "is_lazy"]


def _subclass(cls: type, data: Tensor, requires_grad: bool) -> Any:
    # Like torch.Tensor._make_subclass: a new leaf of type `cls` sharing `data`'s storage and
    # version counter, whatever the grad mode (see semantics 1.21/1.22).
    t = _creation._retype(data.detach(), cls)
    if requires_grad:
        t.requires_grad_(True)
    return t


class Parameter(Tensor):
    """A tensor that a Module registers as a parameter. Mirrors `torch.nn.Parameter`."""

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = empty(0)
        return _subclass(cls, data, requires_grad)  # type: ignore[no-any-return]

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]  # type: ignore[no-any-return]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


class _BufferMeta(type):
    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer on assignment. Mirrors `torch.nn.Buffer`.

    As in torch, the result is a plain Tensor marked as a buffer.
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Any:
        if data is None:
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


def is_lazy(param: Any) -> bool:
    """Mirrors `torch.nn.parameter.is_lazy`; shadowgrad has no lazy modules."""
    return False
