"""torch.Size: a tuple subclass with torch's repr."""

from __future__ import annotations

from typing import Any


class Size(tuple):  # type: ignore[type-arg]
    """The shape of a tensor. Mirrors `torch.Size`."""

    __slots__ = ()

    def __new__(cls, seq: Any = ()) -> Size:
        items = tuple(seq)
        for s in items:
            if type(s) is not int:
                return tuple.__new__(cls, _checked(items))
        return tuple.__new__(cls, items)

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
        if not isinstance(other, tuple):
            raise TypeError(
                f"can only concatenate tuple (not {type(other).__name__}) to torch.Size"
            )
        return Size(tuple(self) + tuple(other))

    def __mul__(self, n: Any) -> Size:
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def __radd__(self, other: Any) -> Size:
        return Size(tuple(other) + tuple(self))


def _checked(items: tuple[Any, ...]) -> list[int]:
    """torch.Size's elements as ints: an integer (numpy's, a bool) or a one-element integer
    tensor; anything else is torch's TypeError."""
    import numpy as np

    out = []
    for i, s in enumerate(items):
        if isinstance(s, (int, np.integer)):
            out.append(int(s))
            continue
        data = getattr(s, "_data", None)  # a tensor
        if isinstance(data, np.ndarray) and data.size == 1 and data.dtype.kind in "biu":
            out.append(int(data.reshape(())))
            continue
        name = "Tensor" if data is not None else type(s).__name__
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{name}')")
    return out
