"""torch's legacy tensor types and constructors (`torch.FloatTensor`, `torch.LongTensor`, ...),
and namespace helpers that need the whole package built first (`torch.vmap`, the default
device)."""

from __future__ import annotations

from typing import Any

from . import _dtype as D
from ._creation import tensor, zeros
from ._size import Size
from ._tensor import Tensor, _make, device
from .func import vmap

__all__: list[str] = [
    "BoolTensor",
    "ByteTensor",
    "CharTensor",
    "DoubleTensor",
    "FloatTensor",
    "HalfTensor",
    "IntTensor",
    "LongTensor",
    "ShortTensor",
    "get_default_device",
    "set_default_device",
    "vmap",
]


def _options(d: D.dtype) -> str:
    return (
        f"TensorOptions(dtype={D.CPP_NAMES[d]}, device=cpu, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt))"
    )


def _tname(v: Any) -> str:
    t = type(v)
    return f"torch.{t.__name__}" if t.__module__.startswith("shadowgrad") else t.__name__


class tensortype(type):
    """Metaclass of the legacy types: `isinstance(x, torch.FloatTensor)` holds exactly when x
    is a float32 tensor, as torch's `torch.tensortype` decides it."""

    dtype: D.dtype

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __subclasscheck__(cls, sub: Any) -> bool:
        return sub is cls

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"

    __module__ = "torch"

    def __call__(cls, *args: Any, device: Any = None, **kwargs: Any) -> Tensor:
        if kwargs:
            bad = next(iter(kwargs))
            raise TypeError(
                f"new() received an invalid combination of arguments - got "
                f"({', '.join(map(_tname, args))}, {bad}={_tname(kwargs[bad])}), but expected one "
                "of:"
                "\n * (*, torch.device device = None)\n"
                f"      didn't match because some of the keywords were incorrect: {bad}"
            )
        return _construct(cls.dtype, args)


def _construct(d: D.dtype, args: tuple[Any, ...]) -> Tensor:
    if not args:
        return zeros(0, dtype=d)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Tensor):
            if a.dtype is not d:
                raise TypeError(f"expected {_options(d)} (got {_options(a.dtype)})")
            return _make(a._data)  # an alias of the same data
        if isinstance(a, Size):
            return zeros(*a, dtype=d)
        if isinstance(a, str):
            raise TypeError("new(): invalid data type 'str'")
        if isinstance(a, (bool, float, complex)):
            raise TypeError(f"new(): data must be a sequence (got {type(a).__name__})")
        if not isinstance(a, int):
            try:
                return tensor(a, dtype=d)
            except OverflowError:  # out-of-range ints wrap, as in torch
                return tensor(a).to(d)
    for i, s in enumerate(args):
        if isinstance(s, bool) or not isinstance(s, int):
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {type(s).__name__}"'
            )
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: "
                f"[{', '.join(map(str, args))}]"
            )
    return zeros(*args, dtype=d)  # torch leaves the memory uninitialized


def _legacy_type(name: str, d: D.dtype) -> Any:
    # not a subclass of Tensor, as in torch: only isinstance is special
    return tensortype(name, (), {"dtype": d, "__module__": "torch", "is_sparse": False})


FloatTensor = _legacy_type("FloatTensor", D.float32)
DoubleTensor = _legacy_type("DoubleTensor", D.float64)
HalfTensor = _legacy_type("HalfTensor", D.float16)
LongTensor = _legacy_type("LongTensor", D.int64)
IntTensor = _legacy_type("IntTensor", D.int32)
ShortTensor = _legacy_type("ShortTensor", D.int16)
CharTensor = _legacy_type("CharTensor", D.int8)
ByteTensor = _legacy_type("ByteTensor", D.uint8)
BoolTensor = _legacy_type("BoolTensor", D.bool_)

# --- default device ---------------------------------------------------------------------------

_DEFAULT_DEVICE: list[device | None] = [None]


def set_default_device(device_: Any) -> None:
    """Mirrors `torch.set_default_device`; None restores the CPU."""
    _DEFAULT_DEVICE[0] = None if device_ is None else device(device_)


def get_default_device() -> device:
    """Mirrors `torch.get_default_device`: only the CPU exists, so an accelerator set as the
    default fails here as in a CPU build of torch."""
    d = _DEFAULT_DEVICE[0]
    if d is None or d.type == "cpu":
        return device("cpu")
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    return d
