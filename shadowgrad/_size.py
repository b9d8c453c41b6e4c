"""torch.Size: a tuple subclass with torch's repr."""

from __future__ import annotations

from typing import Any


class Size(tuple):  # type: ignore[type-arg]
    """The shape of a tensor. Mirrors `torch.Size`."""

    __slots__ = ()

    def __new__(cls, seq: Any = ()) -> Size:
        return tuple.__new__(cls, (int(s) for s in seq))

    def __repr__(self) -> str:
        return "torch.Size([" + ", ".join(str(s) for s in self) + "])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item: Any) -> Any:
        r = tuple.__getitem__(self, item)
        return Size(r) if isinstance(item, slice) else r

    def __add__(self, other: Any) -> Size:
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other: Any) -> Size:
        return Size(tuple(other) + tuple(self))
