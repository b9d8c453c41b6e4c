"""Interop with real torch: tensor conversion and the `__torch_function__` dispatch table.

`from_torch`/`to_torch` convert through numpy (zero-copy where torch allows it). `torch_function`
is what `shadowgrad.Tensor.__torch_function__` delegates to: a torch function or Tensor method
called with shadowgrad tensors runs shadowgrad's function of the same name, or returns
NotImplemented when shadowgrad has none (torch then raises its usual TypeError).

torch is imported only inside functions: importing shadowgrad never imports torch.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make

__all__ = ["from_torch", "resolve", "to_torch", "torch_function"]

_MISSING = object()
# func -> the shadowgrad callable that mirrors it (None: shadowgrad has no such function).
_TABLE: dict[Any, Any] = {}


def _torch() -> Any:
    import torch

    return torch


def from_torch(t: Any) -> Tensor:
    """A shadowgrad tensor with `t`'s values, dtype and shape, sharing memory where possible.

    The array is read-only on the shadowgrad side (torch owns it). The result is a leaf that
    requires grad when `t` does.
    """
    torch = _torch()
    if isinstance(t, Tensor):
        return t
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"from_torch() expects a torch.Tensor, got {type(t).__name__}")
    d = t.detach()
    if d.device.type != "cpu":
        d = d.cpu()
    if d.is_conj():
        d = d.resolve_conj()
    if d.is_neg():
        d = d.resolve_neg()
    if d.dtype == torch.bfloat16 and D.HAS_BF16:  # through float32: exact (a copy)
        arr = d.float().numpy().astype(D.LD)
        arr.flags.writeable = False
        out = _make(arr)
        if t.requires_grad:
            out.requires_grad_(True)
        return out
    try:
        arr = d.numpy()
    except TypeError as e:  # other dtypes numpy lacks
        raise TypeError(f"from_torch(): shadowgrad has no dtype for {t.dtype}") from e
    if arr.dtype not in D._FROM_NP:
        raise TypeError(f"from_torch(): shadowgrad has no dtype for {t.dtype}")
    arr = arr.view()
    arr.flags.writeable = False
    out = _make(arr)
    if t.requires_grad:
        out.requires_grad_(True)
    return out


def to_torch(x: Any) -> Any:
    """A torch tensor with `x`'s values, dtype and shape, sharing memory where torch allows.

    Arrays with negative strides and read-only arrays are copied (torch supports neither). The
    result is a leaf that requires grad when `x` does.
    """
    torch = _torch()
    if isinstance(x, torch.Tensor):
        return x
    if not isinstance(x, Tensor):
        raise TypeError(f"to_torch() expects a shadowgrad.Tensor, got {type(x).__name__}")
    arr = x._data
    if arr.dtype is D.LD:  # bfloat16: through float32, exact (a copy)
        t = torch.from_numpy(arr.astype(np.float32)).to(torch.bfloat16)
        if x._rg:
            t.requires_grad_(True)
        return t
    if not arr.flags.writeable or any(s < 0 for s in arr.strides):
        arr = np.array(arr, order="C")
    t = torch.from_numpy(arr)
    if x._rg:
        t.requires_grad_(True)
    return t


def to_torch_dtype(dt: Any) -> Any:
    return getattr(_torch(), dt._name)


def _sg_dtype(dt: Any) -> Any:
    import shadowgrad

    return getattr(shadowgrad, str(dt).rsplit(".", 1)[-1])


def convert_args(obj: Any) -> Any:
    """torch tensors, dtypes and devices inside args (lists and tuples too) -> shadowgrad's."""
    torch = sys.modules["torch"]
    if isinstance(obj, torch.Tensor):
        return from_torch(obj)
    if isinstance(obj, (list, tuple)):
        conv = [convert_args(o) for o in obj]
        if all(a is b for a, b in zip(conv, obj, strict=True)):
            return obj
        return type(obj)(conv) if type(obj) in (list, tuple) else tuple(conv)
    if isinstance(obj, torch.dtype):
        return _sg_dtype(obj)
    if isinstance(obj, torch.device):
        return str(obj)
    return obj


def _needs_conversion(obj: Any, torch: Any) -> bool:
    if isinstance(obj, (torch.Tensor, torch.dtype, torch.device)):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_needs_conversion(o, torch) for o in obj)
    return False


def resolve(func: Any) -> Any:
    """The shadowgrad callable for a torch function or Tensor method, or None."""
    fn = _TABLE.get(func, _MISSING)
    if fn is _MISSING:
        try:
            fn = _resolve(func)
        except Exception:
            fn = None
        _TABLE[func] = fn
    return fn


def _resolve(func: Any) -> Any:
    import shadowgrad
    import shadowgrad.nn.functional as F

    torch = _torch()
    name = getattr(func, "__name__", None)
    if not isinstance(name, str) or name == "__get__" or name == "__set__":
        return None
    qual = getattr(func, "__qualname__", "") or ""
    mod = getattr(func, "__module__", None) or ""
    if qual.startswith(("TensorBase.", "Tensor.")) or getattr(torch.Tensor, name, None) is func:
        m = getattr(Tensor, name, None)
        return m if callable(m) else None
    if mod in ("torch.nn.functional", "torch._C._nn"):
        return getattr(F, name, None)
    if mod.startswith("torch._C._linalg") or mod == "torch.linalg":
        lin = getattr(shadowgrad, "linalg", None)
        return getattr(lin, name.removeprefix("linalg_"), None)
    for ns in (torch, torch._C._VariableFunctions):
        if getattr(ns, name, None) is func:
            fn = getattr(shadowgrad, name, None)
            return fn if callable(fn) and not isinstance(fn, type) else None
    return None


def torch_function(func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
    """`Tensor.__torch_function__`: run shadowgrad's same-named function or method."""
    fn = resolve(func)
    if fn is None:
        return NotImplemented
    torch = sys.modules["torch"]
    if _needs_conversion(args, torch):
        args = convert_args(args)
    if kwargs:
        if _needs_conversion(tuple(kwargs.values()), torch):
            kwargs = {k: convert_args(v) for k, v in kwargs.items()}
        return fn(*args, **kwargs)
    return fn(*args)
