"""_single, _pair, _triple, _reverse_repeat_tuple. Mirrors `torch.nn.modules.utils`."""

from __future__ import annotations

import collections
from itertools import repeat
from typing import Any

__all__: list[str] = []


def _ntuple(n: int, name: str = "parse") -> Any:
    def parse(x: Any) -> tuple[Any, ...]:
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")


def _reverse_repeat_tuple(t: tuple[Any, ...], n: int) -> tuple[Any, ...]:
    return tuple(x for x in reversed(t) for _ in range(n))
