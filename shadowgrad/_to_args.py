"""torch's argument parsing of `Tensor.to` and `Module.to` (torch._C._nn._parse_to): the three
signatures, matched in order as torch's argument parser matches them, and its error for
arguments that match none.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype as D
from ._formats import memory_format
from ._tensor import Tensor, check_device, device

__all__ = ["parse_to", "parser_type_name"]

_SIGNATURES = (
    "torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None",
    "torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None",
    "Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None",
)
_KINDS = (
    ("device", "dtype", "non_blocking", "copy"),
    ("dtype!", "non_blocking", "copy"),
    ("tensor", "non_blocking", "copy"),
)
# a dtype may be given as one of Python's scalar types
_PY_TYPES = {float: D.float64, int: D.int64, bool: D.bool_, complex: D.complex128}


def parser_type_name(x: Any) -> str:
    """The type name torch's argument parser prints for an argument (its tp_name: numpy's
    types with their module, Python classes by name, torch.dtype, Tensor)."""
    if isinstance(x, D.dtype):
        return "torch.dtype"
    if isinstance(x, device):
        return "torch.device"
    if isinstance(x, memory_format):
        return "torch.memory_format"
    t = type(x)
    if isinstance(x, Tensor):
        return "Tensor" if t is Tensor else t.__name__
    numpy = t.__module__ == "numpy" or t.__module__.startswith("numpy.")
    if numpy or (t.__flags__ & 256 and t.__module__ != "builtins"):  # IMMUTABLETYPE: C types
        return f"{t.__module__}.{t.__name__}"  # their tp_name: collections.deque, array.array
    return t.__name__  # a Python class's tp_name is its bare name


def _number_dtype(v: Any) -> Any:
    """The dtype of the 0-d tensor torch's parser wraps a Python (or numpy) number in when it
    matches a Tensor parameter; None for a non-number."""
    if isinstance(v, (bool, np.bool_)):
        return D.bool_
    if isinstance(v, (int, np.integer)):
        return D.int64
    if isinstance(v, (float, np.floating)):
        return D.float64
    return D.complex128 if isinstance(v, (complex, np.complexfloating)) else None


def _is_dtype(v: Any) -> bool:
    return isinstance(v, D.dtype) or (isinstance(v, type) and v in _PY_TYPES)


def _matches(kind: str, v: Any) -> bool:
    if kind == "device":
        return v is None or (
            isinstance(v, (str, device, int, np.integer)) and not isinstance(v, bool)
        )
    if kind == "dtype":
        return v is None or _is_dtype(v)
    if kind == "dtype!":
        return _is_dtype(v)
    if kind == "tensor":
        return isinstance(v, Tensor) or _number_dtype(v) is not None
    if kind == "memory_format":
        return v is None or isinstance(v, memory_format)
    return isinstance(v, bool)  # non_blocking, copy


_FIRST = (
    ("device", "device", "torch.device"),
    ("dtype", "dtype", "torch.dtype"),
    ("non_blocking", "bool", "bool"),
    ("copy", "bool", "bool"),
    ("memory_format", "memory_format", "torch.memory_format"),
)


def _bind(
    fn: str, params: tuple[tuple[str, str, str], ...], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any] | TypeError:
    """One signature of torch's FunctionSignature::parse: the arguments by name, or its first
    error (a wrong type, with the position when given positionally; an unexpected keyword; a
    value given twice)."""
    remaining = len(kwargs)
    got: dict[str, Any] = {}
    for i, (name, kind, type_name) in enumerate(params):
        if i < len(args):
            v, by_keyword = args[i], False
        elif name in kwargs:
            v, by_keyword = kwargs[name], True
        else:
            continue
        if not _matches(kind, v):
            where = "" if by_keyword else f" (position {i + 1})"
            return TypeError(
                f"{fn}(): argument '{name}'{where} must be {type_name}, not {parser_type_name(v)}"
            )
        remaining -= by_keyword
        got[name] = v
    if remaining > 0:
        names = [n for n, _, _ in params]
        for k in kwargs:
            if k not in names:
                return TypeError(f"{fn}() got an unexpected keyword argument '{k}'")
            if names.index(k) < len(args):
                return TypeError(f"{fn}() got multiple values for argument '{k}'")
    return got


def _first_signature_error(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Raise the error torch's FunctionSignature::parse gives for the first signature."""
    got = _bind("to", _FIRST, args, kwargs)
    if isinstance(got, TypeError):
        raise got


def parse_to(
    args: tuple[Any, ...], kwargs: dict[str, Any], *, raw_device: bool = False
) -> tuple[Any, Any, bool, Any, Any]:
    """(device, dtype, non_blocking, copy, memory_format) from `to`'s arguments; copy is None
    when not given. The device is checked (the CPU build's errors for the others), unless
    raw_device: then it is returned as given (nn.Module.to converts and checks it later)."""
    if len(args) == 1 and not kwargs and isinstance(args[0], D.dtype):
        return None, args[0], False, None, None  # x.to(dtype): the common call
    if len(args) > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were given")
    got: dict[str, Any] = {}
    for sig in _KINDS:
        if len(args) > len(sig):
            continue
        got = {}
        ok = True
        for kind, v in zip(sig, args, strict=False):
            ok = ok and _matches(kind, v)
            got[kind.rstrip("!")] = v
        names = {k.rstrip("!"): k for k in (*sig, "memory_format")}
        for k, v in kwargs.items():
            if k not in names or k in got or not _matches(names[k], v):
                ok = False
                break
            got[k] = v
        ok = ok and all(k.rstrip("!") in got for k in sig if k in ("dtype!", "tensor"))
        if ok:
            break
    else:
        if len(args) + len(kwargs) == 5:
            # torch's parser: when a single signature takes this many arguments (the first,
            # the only one with five), its error is that signature's own
            _first_signature_error(args, kwargs)
        types = [parser_type_name(a) for a in args]
        # torch lists the keywords in the reverse of their order in the call
        kw = [f"{k}={parser_type_name(kwargs[k])}" for k in reversed(list(kwargs))]
        got_s = ", ".join(types + kw) if types else "".join(f"{k}, " for k in kw)
        lines = "".join(f" * ({s})\n" for s in _SIGNATURES)
        raise TypeError(
            f"to() received an invalid combination of arguments - got ({got_s}), but expected "
            f"one of:\n{lines}"
        )
    dev, dtype = got.get("device"), got.get("dtype")
    if isinstance(dtype, type):
        dtype = _PY_TYPES[dtype]
    if "tensor" in got:
        t = got["tensor"]
        dev, dtype = (t.device, t.dtype) if isinstance(t, Tensor) else (None, _number_dtype(t))
    if dev is not None and not raw_device:
        check_device(dev if not isinstance(dev, (int, np.integer)) else device(int(dev)))
    return (
        dev,
        dtype,
        bool(got.get("non_blocking", False)),
        got.get("copy"),
        got.get("memory_format"),
    )


_NO_BACKEND: dict[str, tuple[type, str]] = {
    "cuda": (AssertionError, "Torch not compiled with CUDA enabled"),
    "xpu": (AssertionError, "Torch not compiled with XPU enabled"),
    "ipu": (RuntimeError, "PyTorch is not linked with support for ipu devices"),
    "mtia": (
        AssertionError,
        "Torch not compiled with MTIA enabled. Ensure you have `import "
        "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
        "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!",
    ),
}
_MOVE_PARAMS = (
    ("device", "device", "torch.device"),
    ("non_blocking", "bool", "bool"),
    ("memory_format", "memory_format", "torch.memory_format"),
)


def accelerator_error(kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Exception:
    """The error torch's CPU build raises for `Tensor.<kind>(*args, **kwargs)` (kind: cuda, xpu,
    ipu, mtia): its argument parser's (signature `(Device? device=None, bool non_blocking=False,
    *, MemoryFormat memory_format=torch.preserve_format)`), then the device's (a malformed string,
    an index with no accelerator, a device of another type), then the missing backend's."""
    if len(args) > 2:
        return TypeError(
            f"{kind}() takes from 0 to 2 positional arguments but {len(args)} were given"
        )
    got = _bind(kind, _MOVE_PARAMS, args, kwargs)
    if isinstance(got, TypeError):
        return got
    dev = got.get("device")
    if dev is not None:
        try:
            if not isinstance(dev, device):
                dev = device(dev if isinstance(dev, str) else int(dev))
        except Exception as e:
            return e
        if dev.type != kind:
            return RuntimeError(f"Invalid device, must be {kind.replace('mtia', 'MTIA')} device")
    err, msg = _NO_BACKEND[kind]
    return err(msg)
