"""Parameter and Buffer: tensors modules register on assignment. Mirrors `torch.nn.parameter`."""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._creation import empty
from .._tensor import Tensor
from ..overrides import _MODES, _disabled_torch_function_impl, paused_modes

__all__ = [
    "Buffer",
    "Parameter",
    "UninitializedBuffer",
    "UninitializedParameter",
    "is_lazy",
]


def _subclass(cls: type, data: Tensor, requires_grad: bool) -> Any:
    # Like torch.Tensor._make_subclass: a new leaf of type `cls` sharing `data`'s storage and
    # version counter, whatever the grad mode (see semantics 1.21/1.22).
    t = _creation._retype(data.detach(), cls)
    if requires_grad:
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            raise RuntimeError(_creation.FLOAT_ONLY)  # _make_subclass's (C++) wording
        t.requires_grad_(True)
    return t


class _ParameterMeta(type):
    # torch's _ParameterMeta: an instance of a user Tensor subclass made a Parameter (marked
    # `_is_param`) is an instance of Parameter
    def __instancecheck__(cls, instance: Any) -> bool:
        if type.__instancecheck__(cls, instance):
            return True
        return cls is Parameter and isinstance(instance, Tensor) and instance._is_param_mark()


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A tensor that a Module registers as a parameter. Mirrors `torch.nn.Parameter`."""

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if _MODES:  # torch's _make_subclass is C++: no TorchFunctionMode sees its calls
            with paused_modes():
                return Parameter.__new__(cls, data, requires_grad)
        if data is None:
            data = empty(0)
        if type(data) is Tensor or type(data) is Parameter or not isinstance(data, Tensor):
            return _subclass(cls, data, requires_grad)  # type: ignore[no-any-return]
        # torch's path for custom tensors: the instance itself, detached and marked
        t = data.detach().requires_grad_(requires_grad)
        if type(t) is not type(data):
            raise RuntimeError(
                f"Creating a Parameter from an instance of type {type(data).__name__} requires "
                f"that detach() returns an instance of the same type, but return type "
                f"{type(t).__name__} was found instead. To use the type as a Parameter, please "
                "correct the detach() semantics defined by its __torch_dispatch__() "
                "implementation."
            )
        t._is_param = True
        return t  # type: ignore[no-any-return]

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass

    __torch_function__ = _disabled_torch_function_impl  # ops on parameters give Tensors

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


_UNINIT_USE = (
    "Attempted to use an uninitialized parameter in <method '{}' of 'torch._C.TensorBase' "
    "objects>. This error happens when you are using a `LazyModule` or explicitly manipulating "
    "`torch.nn.parameter.{}` objects. When using LazyModules Call `forward` with a dummy batch "
    "to initialize the parameters before calling torch functions"
)
_UNINIT_USE_IN = _UNINIT_USE.replace("<method '{}' of 'torch._C.TensorBase' objects>", "{}")
_UNINIT_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually happens "
    "in `load_state_dict` when trying to load an uninitialized parameter into an initialized one. "
    "Call `forward` to initialize the parameters before accessing their attributes."
)
# the Tensor methods torch lets an uninitialized tensor run (its `_allowed_methods`)
_ALLOWED = frozenset(
    {"size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char"}
    | {"short", "int", "long", "cuda", "cpu", "to", "get_device", "materialize"}
)


def _refuse(name: str) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(_UNINIT_USE.format(name, type(self).__name__))

    return method


def _uninitialized(cls: type, requires_grad: bool, device: Any, dtype: Any) -> Any:
    t = _subclass(cls, empty(0, device=device, dtype=dtype), False)
    Tensor.requires_grad_(t, requires_grad)
    return t


class UninitializedTensorMixin:
    """A tensor without a shape yet, that `materialize` turns into `cls_to_become`. Mirrors
    `torch.nn.parameter.UninitializedTensorMixin`: using one in a Tensor method other than
    the conversions torch allows raises torch's ValueError; its shape raises RuntimeError."""

    cls_to_become: type

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give the tensor storage of `shape` (uninitialized values) and its final class."""
        if isinstance(shape, int):
            shape = (shape,)
        self.data = empty(tuple(shape), dtype=dtype or self.dtype)  # type: ignore[attr-defined]
        self.__class__ = self.cls_to_become

    @property
    def shape(self) -> Any:
        raise RuntimeError(_UNINIT_SHAPE)

    def __getattribute__(self, name: str) -> Any:
        if name[0] != "_" and name not in _ALLOWED:
            attr = getattr(Tensor, name, None)
            if callable(attr) and not isinstance(attr, type):
                return _refuse(name).__get__(self)
        return object.__getattribute__(self, name)

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        # reached from the functions written in Python that dispatch on Tensor-likes (torch's
        # nn.init.normal_ and others): torch names the function in its error
        raise ValueError(_UNINIT_USE_IN.format(func, cls.__name__))

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto: Any) -> Any:
        return (type(self), (self.requires_grad,))  # type: ignore[attr-defined]

    for _op in ("add", "sub", "mul", "truediv", "matmul", "pow", "neg", "abs", "getitem"):
        locals()[f"__{_op}__"] = _refuse("div" if _op == "truediv" else _op)
    for _op in ("add", "sub", "mul", "truediv", "matmul", "pow"):
        locals()[f"__r{_op}__"] = _refuse("div" if _op == "truediv" else _op)
    del _op


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape a lazy module infers on its first forward. Mirrors
    `torch.nn.parameter.UninitializedParameter`."""

    cls_to_become = Parameter

    def __new__(
        cls, requires_grad: bool = True, device: Any = None, dtype: Any = None
    ) -> UninitializedParameter:
        return _uninitialized(cls, requires_grad, device, dtype)  # type: ignore[no-any-return]

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        pass

    def __deepcopy__(self, memo: dict[int, Any]) -> UninitializedParameter:
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, None, self.dtype)
        return memo[id(self)]  # type: ignore[no-any-return]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape a lazy module infers on its first forward. Mirrors
    `torch.nn.parameter.UninitializedBuffer`."""

    cls_to_become = Tensor

    def __new__(
        cls,
        requires_grad: bool = False,
        device: Any = None,
        dtype: Any = None,
        persistent: bool = True,
    ) -> UninitializedBuffer:
        t = _uninitialized(cls, requires_grad, device, dtype)
        t.persistent = persistent
        return t  # type: ignore[no-any-return]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass


def is_lazy(param: Any) -> bool:
    """Mirrors `torch.nn.parameter.is_lazy`: whether `param` is still uninitialized."""
    return isinstance(param, UninitializedTensorMixin)
