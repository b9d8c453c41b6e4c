"""_single, _pair, _triple, _reverse_repeat_tuple, consume_prefix_in_state_dict_if_present.
Mirrors `torch.nn.modules.utils`."""

from __future__ import annotations

import collections
from itertools import repeat
from typing import Any

__all__ = ["consume_prefix_in_state_dict_if_present"]


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


def consume_prefix_in_state_dict_if_present(state_dict: dict[str, Any], prefix: str) -> None:
    """Strip `prefix` from the keys of `state_dict` in place, and from its `_metadata` keys
    (the DDP/DataParallel `module.` case). Mirrors torch's, key order included: a stripped
    key moves to the end."""
    for key in list(state_dict.keys()):
        if key.startswith(prefix):
            state_dict[key[len(prefix) :]] = state_dict.pop(key)
    meta = getattr(state_dict, "_metadata", None)
    if meta is not None:
        for key in list(meta.keys()):
            # '': the wrapper itself (kept); 'module': the model; 'module.x.y': the rest
            if key and (key == prefix.replace(".", "") or key.startswith(prefix)):
                meta[key[len(prefix) :]] = meta.pop(key)
