"""torch.ops.aten: shadowgrad's functions under torch's aten op names, with their overloads
(`torch.ops.aten.add.Tensor(x, y, alpha=2)`, `torch.ops.aten.sum.dim_IntList(x, [0])`). The
overload names are torch's for the common ops; every overload runs the public function (or
Tensor method) of the op's name, which picks the behaviour from its arguments as torch's
overloads do."""

from __future__ import annotations

from typing import Any

# torch's overload names for the common ops ("default" where torch has one)
_OVERLOADS: dict[str, tuple[str, ...]] = {
    "add": ("Tensor", "Scalar", "out", "default"),
    "sub": ("Tensor", "Scalar", "out", "default"),
    "mul": ("Tensor", "Scalar", "out", "default"),
    "div": ("Tensor", "Scalar", "Tensor_mode", "Scalar_mode", "out", "default"),
    "add_": ("Tensor", "Scalar"),
    "mul_": ("Tensor", "Scalar"),
    "sub_": ("Tensor", "Scalar"),
    "div_": ("Tensor", "Scalar"),
    "pow": ("Tensor_Tensor", "Tensor_Scalar", "Scalar", "default"),
    "sum": ("dim_IntList", "default", "IntList_out", "out", "int", "float", "complex", "bool"),
    "mean": ("dim", "default", "out"),
    "max": ("dim", "default", "other"),
    "min": ("dim", "default", "other"),
    "amax": ("default", "out"),
    "argmax": ("default", "out"),
    "softmax": ("int",),
    "log_softmax": ("int",),
    "transpose": ("int",),
    "select": ("int",),
    "split": ("Tensor", "sizes"),
    "unbind": ("int",),
    "squeeze": ("default", "dim", "dims"),
    "cat": ("default", "out"),
    "stack": ("default", "out"),
    "where": ("self", "ScalarOther", "ScalarSelf", "Scalar", "default"),
    "eq": ("Tensor", "Scalar"),
    "ne": ("Tensor", "Scalar"),
    "lt": ("Tensor", "Scalar"),
    "gt": ("Tensor", "Scalar"),
    "le": ("Tensor", "Scalar"),
    "ge": ("Tensor", "Scalar"),
    "clamp": ("default", "Tensor", "out"),
    "gather": ("default", "out"),
    "index_select": ("default", "out"),
    "full": ("default", "out"),
    "var": ("default", "dim", "correction", "correction_out", "out"),
    "std": ("default", "dim", "correction", "correction_out", "out"),
    "arange": ("default", "start", "start_step", "start_out", "out"),
    "rsub": ("Tensor", "Scalar", "Tensor_out", "Scalar_out"),
    "slice": ("Tensor",),
    "index": ("Tensor", "Tensor_out"),
    "sym_size": ("int",),
    "_to_copy": ("default", "out"),
    "_softmax": ("default", "out"),
    "_log_softmax": ("default", "out"),
    "chunk": ("default",),
    "split_with_sizes": ("default",),
}

# aten ops returning Tensor[]: torch gives a list where shadowgrad's function a tuple
_LIST_RESULT = {"split", "unbind", "chunk", "split_with_sizes", "tensor_split"}


def _slice(x: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1) -> Any:
    """aten.slice: a SliceBackward0 view even over the whole dim (indexing makes an alias)."""
    dim = dim % max(x.dim(), 1)
    n = x.shape[dim]
    lo, hi, _ = slice(start, end, step).indices(n)
    if step == 1:
        return x.narrow(dim, lo, max(hi - lo, 0))
    return x[(slice(None),) * dim + (slice(start, end, step),)]


def _index(x: Any, indices: Any) -> Any:
    return x[tuple(slice(None) if i is None else i for i in indices)]


def _to_copy(x: Any, *, dtype: Any = None, **options: Any) -> Any:
    """aten._to_copy(x, *, dtype, layout, device, pin_memory, non_blocking, memory_format)."""
    return x.to(dtype=dtype if dtype is not None else x.dtype, copy=True)


def _softmax(x: Any, dim: int, half_to_float: bool) -> Any:
    import shadowgrad

    return shadowgrad.nn.functional.softmax(x, dim)


def _log_softmax(x: Any, dim: int, half_to_float: bool) -> Any:
    import shadowgrad

    return shadowgrad.nn.functional.log_softmax(x, dim)


def _sym_size(x: Any, dim: int) -> int:
    return x.size(dim)


def _scalar_overloads() -> dict[tuple[str, str], Any]:
    """The .Scalar overloads: torch records their own nodes (AddBackward1, MulBackward1, ...)
    where the public functions, given a number, record the .Tensor ones."""
    from ..ops import pointwise
    from ..ops.nn_ops import _div_scalar

    def add(self: Any, other: Any, alpha: Any = 1) -> Any:
        return pointwise.add_scalar(self, other * alpha if alpha != 1 else other)

    def sub(self: Any, other: Any, alpha: Any = 1) -> Any:
        return pointwise.sub_scalar(self, other * alpha if alpha != 1 else other)

    import shadowgrad

    def floats_only(node_fn: Any, public: Any) -> Any:
        # an integer or bool tensor records nothing: the public function promotes as torch's
        def fn(self: Any, *args: Any, **kwargs: Any) -> Any:
            if self.dtype.is_floating_point or self.dtype.is_complex:
                return node_fn(self, *args, **kwargs)
            return public(self, *args, **kwargs)

        return fn

    return {
        ("add", "Scalar"): floats_only(add, shadowgrad.add),
        ("sub", "Scalar"): floats_only(sub, shadowgrad.sub),
        ("mul", "Scalar"): floats_only(pointwise._mul_scalar, shadowgrad.mul),
        ("div", "Scalar"): floats_only(_div_scalar, shadowgrad.div),
    }


_OVERLOAD_FNS: dict[tuple[str, str], Any] = {}


# aten ops with no public function of their name
_EXTRA = {
    "slice": _slice,
    "index": _index,
    "_to_copy": _to_copy,
    "_softmax": _softmax,
    "_log_softmax": _log_softmax,
    "sym_size": _sym_size,
}
_DEFAULT = ("default", "out")


def _resolve(name: str) -> Any:
    import shadowgrad

    from .._tensor import Tensor

    if name in _EXTRA:
        return _EXTRA[name]
    if name.startswith("_") and not name.startswith("_foreach_"):
        return None  # shadowgrad's private names are not aten ops
    fn = shadowgrad.__dict__.get(name)
    if callable(fn) and not isinstance(fn, type):
        return fn
    fn = shadowgrad.nn.functional.__dict__.get(name)
    if callable(fn):
        return fn
    m = getattr(Tensor, name, None)
    if callable(m):
        return m
    return None


class AtenOverload:
    """torch.ops.aten.<op>.<overload>."""

    def __init__(self, packet: AtenPacket, overload: str) -> None:
        self.overloadpacket = packet
        self._opname = packet._opname
        self._overloadname = overload
        self._namespace = self.namespace = "aten"
        self.__name__ = f"{packet._opname}.{overload}"
        if not _OVERLOAD_FNS:
            _OVERLOAD_FNS.update(_scalar_overloads())
        self._fn = _OVERLOAD_FNS.get((packet._opname, overload), packet._fn)

    def name(self) -> str:
        o = "" if self._overloadname == "default" else f".{self._overloadname}"
        return f"aten::{self._opname}{o}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        out = self._fn(*args, **kwargs)
        return list(out) if self._opname in _LIST_RESULT else out

    def __repr__(self) -> str:
        return f"<OpOverload(op='aten.{self._opname}', overload='{self._overloadname}')>"

    def __str__(self) -> str:
        return f"aten.{self._opname}.{self._overloadname}"


class AtenPacket:
    """torch.ops.aten.<op>."""

    def __init__(self, name: str, fn: Any) -> None:
        self._opname = self.__name__ = name
        self._qualified_op_name = f"aten::{name}"
        self._fn = fn

    def overloads(self) -> list[str]:
        return list(_OVERLOADS.get(self._opname, _DEFAULT))

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__") or key not in _OVERLOADS.get(self._opname, _DEFAULT):
            if key.startswith("__"):
                raise AttributeError(key)
            raise AttributeError(
                f"The underlying op of 'aten.{self._opname}' has no overload name '{key}'"
            )
        ov = AtenOverload(self, key)
        self.__dict__[key] = ov
        return ov

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        out = self._fn(*args, **kwargs)
        return list(out) if self._opname in _LIST_RESULT else out

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='aten.{self._opname}')>"

    def __str__(self) -> str:
        return f"aten.{self._opname}"


class AtenNamespace:
    """torch.ops.aten."""

    name = "aten"
    __name__ = "torch.ops.aten"

    def __getattr__(self, op_name: str) -> Any:
        fn = None if op_name.startswith("__") else _resolve(op_name)
        if fn is None:
            raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{op_name}'")
        p = AtenPacket(op_name, fn)
        self.__dict__[op_name] = p
        return p

    def __repr__(self) -> str:
        return "<module 'torch.ops.aten' from 'torch.ops'>"
