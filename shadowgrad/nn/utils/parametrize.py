"""Parametrizations of parameters and buffers. Mirrors `torch.nn.utils.parametrize`.

A parametrized tensor `module.weight` becomes a property of a per-module subclass
(`ParametrizedLinear`) that computes `parametrizations.weight(original)` on each access; the
unconstrained tensor lives at `module.parametrizations.weight.original` (or `original0`,
`original1`, ... when `right_inverse` returns several tensors).
"""

from __future__ import annotations

import collections.abc
import copyreg
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from copy import deepcopy
from typing import Any

from ... import __future__ as _future
from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]

_cache_enabled = 0
_cache: dict[tuple[int, str], Tensor] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Compute each parametrized tensor once inside the block. Mirrors
    `torch.nn.utils.parametrize.cached`."""
    global _cache_enabled, _cache
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, x: Tensor) -> None:
    if isinstance(x, Parameter):
        module.register_parameter(name, x)
    else:
        module.register_buffer(name, x)


def _set_keeping_identity(dest: Tensor, src: Tensor) -> None:
    # torch's _maybe_set: dest.set_(src), so the parameter keeps its identity (optimizers holding
    # it keep working), takes src's storage and bumps its version; under the swap future flag,
    # swap_tensors instead
    if _future.get_swap_module_params_on_conversion():
        from ...utils import swap_tensors

        if isinstance(dest, Parameter) and not isinstance(src, Parameter):
            src = Parameter(src, requires_grad=dest.requires_grad)
        swap_tensors(dest, src)
    else:
        dest.set_(src)


_SUBCLASS_SET_MSG = (  # torch's wording, its missing spaces included
    "Calling remove_parametrizations() with leave_parametrized=True for a parameter that is an "
    "instance of a tensor subclass requires set_() to be implemented correctly for the tensor "
    "subclass.Alternatively, one can opt into the swap_tensors pathEither set "
    "leave_parametrized=False or provide a working implementationfor set_() in the tensor "
    "subclass or set torch.__future__.set_swap_module_params_on_conversion(True)."
)


def _check_same(a: Any, b: Any, head: str, lines: tuple[str, str]) -> None:
    if a != b:
        raise ValueError(f"{head}\n{lines[0]}: {a}\n{lines[1]}: {b}")


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor and its original(s). Mirrors
    `torch.nn.utils.parametrize.ParametrizationList`."""

    original: Tensor
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Tensor, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape = original.shape
        original_dtype = original.dtype
        with no_grad():
            new: Any = original
            for module in reversed(self):  # type: ignore[call-overload]
                if hasattr(module, "right_inverse"):
                    with suppress(NotImplementedError):
                        new = module.right_inverse(new)
        if not isinstance(new, Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {type(new).__name__}"
            )
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            _check_same(
                original.dtype,
                new.dtype,
                "When `right_inverse` outputs one tensor, it may not change the dtype.",
                ("original.dtype", "right_inverse(original).dtype"),
            )
            with no_grad():
                _set_keeping_identity(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        "(list, tuple...). "
                        f"Got element {i} of the sequence with type {type(originali).__name__}."
                    )
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(z).__name__}.")
            _check_same(
                original_dtype,
                z.dtype,
                "Registering a parametrization may not change the dtype of the tensor, unless "
                "`unsafe` flag is enabled.",
                ("unparametrized dtype", "parametrized dtype"),
            )
            _check_same(
                original_shape,
                z.shape,
                "Registering a parametrization may not change the shape of the tensor, unless "
                "`unsafe` flag is enabled.",
                ("unparametrized shape", "parametrized shape"),
            )

    def right_inverse(self, value: Tensor) -> None:
        """Set the original(s) so that the parametrized tensor equals `value`."""
        with no_grad():
            for module in reversed(self):  # type: ignore[call-overload]
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(
                        f"parametrization {type(module).__name__} does not implement right_inverse."
                    )
                value = module.right_inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {type(value).__name__}"
                    )
                if value.dtype != self.original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {self.original.dtype}"
                    )
                _set_keeping_identity(self.original, value)
                return
            if not isinstance(value, collections.abc.Sequence):
                raise ValueError(
                    "'right_inverse' must return a sequence of tensors. "
                    f"Got {type(value).__name__}."
                )
            if len(value) != self.ntensors:
                raise ValueError(
                    "'right_inverse' must return a sequence of tensors of length "
                    f"{self.ntensors}. Got a sequence of length {len(value)}."
                )
            for i, tensor in enumerate(value):
                original_i = getattr(self, f"original{i}")
                if not isinstance(tensor, Tensor):
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors or reference-type "
                        f"opaques. Got element {i} of type {type(tensor).__name__}."
                    )
                if original_i.dtype != tensor.dtype:
                    raise ValueError(
                        f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                        f"while `original{i}` has dtype {original_i.dtype}"
                    )
                _set_keeping_identity(original_i, tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        # as torch's: the integer keys only (a parametrized original adds `parametrizations`)
        i = 1
        while hasattr(self, str(i)):
            x = self[i](x)
            i += 1
        return x  # type: ignore[no-any-return]


def _default_deepcopy(self: Module, memo: dict[int, Any]) -> Module:
    obj = memo.get(id(self))
    if obj is not None:
        return obj  # type: ignore[no-any-return]
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    replica.__dict__ = deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(self.__class__):  # type: ignore[attr-defined]
        if hasattr(self, slot):
            setattr(replica, slot, deepcopy(getattr(self, slot), memo))
    return replica


def _no_pickle(self: Module) -> Any:
    raise RuntimeError(
        "Serialization of parametrized modules is only supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
    )


def _inject_new_class(module: Module) -> None:
    # Each parametrized module gets its own subclass, so that the properties added for its
    # parametrized tensors do not leak into other instances of the class.
    cls = module.__class__
    dct: dict[str, Any] = {"__getstate__": _no_pickle, "__module__": __name__}
    if not hasattr(cls, "__deepcopy__"):
        dct["__deepcopy__"] = _default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), dct)


def _inject_property(module: Module, tensor_name: str) -> None:
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_parametrized(self: Module) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_enabled:
            return parametrization()  # type: ignore[no-any-return]
        key = (id(self), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = _cache[key] = parametrization()
        return tensor

    def set_original(self: Module, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
) -> Module:
    """Make `module.<tensor_name>` computed by `parametrization` from an unconstrained original.
    Mirrors `torch.nn.utils.parametrize.register_parametrization`."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_appended(module, tensor_name, parametrization)
        plist = module.parametrizations[tensor_name]
        plist.append(parametrization)
        plist.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        plist = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = plist
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a "
            f"parametrized element with name '{tensor_name}'"
        )
    return module


def _check_appended(module: Module, tensor_name: str, parametrization: Module) -> None:
    y = getattr(module, tensor_name)
    x = parametrization(y)
    if not isinstance(x, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(x).__name__}.")
    unsafe = "unless the `unsafe` flag is enabled"
    for what in ("dtype", "shape"):
        _check_same(
            getattr(y, what),
            getattr(x, what),
            f"Registering a parametrization may not change the {what} of the tensor, {unsafe}.",
            (f"module.{tensor_name}.{what}", f"parametrization(module.{tensor_name}).{what}"),
        )
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        z = parametrization.right_inverse(x)
    except NotImplementedError:
        return
    if not isinstance(z, Tensor):
        raise ValueError(
            f"parametrization.right_inverse must return a tensor. Got: {type(z).__name__}"
        )
    for what in ("dtype", "shape"):
        _check_same(
            getattr(y, what),
            getattr(z, what),
            f"The tensor returned by parametrization.right_inverse must have the same {what} "
            f"as module.{tensor_name}, {unsafe}.",
            (f"module.{tensor_name}.{what}", f"returned {what}"),
        )


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Mirrors `torch.nn.utils.parametrize.is_parametrized`."""
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(
    module: Module, tensor_name: str, leave_parametrized: bool = True
) -> Module:
    """Remove the parametrizations of `module.<tensor_name>`, keeping its current value
    (`leave_parametrized=True`) or its original. Mirrors
    `torch.nn.utils.parametrize.remove_parametrizations`."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
                if type(original) is Tensor:
                    _set_keeping_identity(original, t)
                else:
                    try:
                        _set_keeping_identity(original, t)
                    except RuntimeError as e:
                        raise RuntimeError(_SUBCLASS_SET_MSG) from e
    elif leave_parametrized:
        t = getattr(module, tensor_name)
        original = Parameter(t) if t.requires_grad else t
    else:
        raise ValueError(
            "Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
            "that is parametrized in terms of a sequence of tensors."
        )
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """Mirrors `torch.nn.utils.parametrize.type_before_parametrizations`."""
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(
    from_module: Module, to_module: Module, tensor_name: str | None = None
) -> Module:
    """Register `from_module`'s parametrizations (and share its originals) on `to_module`.
    Mirrors `torch.nn.utils.parametrize.transfer_parametrizations_and_params`."""
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        source = from_module.parametrizations[name]
        for param_func in source:
            register_parametrization(to_module, name, param_func)
        target = to_module.parametrizations[name]
        if hasattr(source, "original"):
            target.original = source.original
        else:
            i = 0
            while hasattr(source, f"original{i}"):
                setattr(target, f"original{i}", getattr(source, f"original{i}"))
                i += 1
    return to_module
