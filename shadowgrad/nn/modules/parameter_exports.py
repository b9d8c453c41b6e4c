"""The parameter helpers `torch.nn` re-exports from `torch.nn.parameter`
(`UninitializedParameter`, `UninitializedBuffer`) and `torch.nn.factory_kwargs`."""

from __future__ import annotations

from typing import Any

from ..parameter import UninitializedBuffer, UninitializedParameter

__all__ = ["UninitializedBuffer", "UninitializedParameter", "factory_kwargs"]


def factory_kwargs(kwargs: dict[str, Any] | None) -> dict[str, Any]:
    """Mirrors `torch.nn.factory_kwargs`: the factory keywords (device, dtype, memory_format)
    of `kwargs` as one dict, merged with an explicit `factory_kwargs` entry; an unknown key,
    or one given both ways, raises TypeError."""
    if kwargs is None:
        return {}
    simple = {"device", "dtype", "memory_format"}
    expected = simple | {"factory_kwargs"}
    if not kwargs.keys() <= expected:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected}")
    result = dict(kwargs.get("factory_kwargs", {}))
    for k in simple:
        if k in kwargs:
            if k in result:
                raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
            result[k] = kwargs[k]
    return result
