"""Module: the base class of every layer. Mirrors `torch.nn.Module`."""

from __future__ import annotations

import inspect
import re
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ...utils.hooks import RemovableHandle
from ..parameter import Buffer, Parameter, is_lazy

__all__ = [
    "Module",
    "register_module_backward_hook",
    "register_module_buffer_registration_hook",
    "register_module_forward_hook",
    "register_module_forward_pre_hook",
    "register_module_full_backward_hook",
    "register_module_full_backward_pre_hook",
    "register_module_module_registration_hook",
    "register_module_parameter_registration_hook",
]


_EXTRA_STATE = "_extra_state"


def _hook_dict() -> Any:
    from ...autograd.graph import HookDict

    return HookDict()


_GLOBAL_PRE = _hook_dict()
_GLOBAL_FWD = _hook_dict()
_GLOBAL_BWD_PRE = _hook_dict()
_GLOBAL_BWD = _hook_dict()
_GLOBAL_FWD_KWARGS = _hook_dict()  # id -> True: global forward hooks called with kwargs
_GLOBAL_FWD_ALWAYS = _hook_dict()  # id -> True: global forward hooks with always_call=True
_global_is_full_backward_hook: bool | None = None
_MIXED_HOOKS = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. Please "
    "use only one of them."
)


_GLOBAL_BUFFER_REG: OrderedDict[int, Callable[..., Any]] = OrderedDict()
_GLOBAL_MODULE_REG: OrderedDict[int, Callable[..., Any]] = OrderedDict()
_GLOBAL_PARAM_REG: OrderedDict[int, Callable[..., Any]] = OrderedDict()

# torch's names for the global hook dicts (code that inspects or clears them reads these)
_global_backward_pre_hooks = _GLOBAL_BWD_PRE
_global_backward_hooks = _GLOBAL_BWD
_global_forward_pre_hooks = _GLOBAL_PRE
_global_forward_hooks = _GLOBAL_FWD
_global_forward_hooks_with_kwargs = _GLOBAL_FWD_KWARGS
_global_forward_hooks_always_called = _GLOBAL_FWD_ALWAYS
_global_buffer_registration_hooks = _GLOBAL_BUFFER_REG
_global_module_registration_hooks = _GLOBAL_MODULE_REG
_global_parameter_registration_hooks = _GLOBAL_PARAM_REG


def register_module_buffer_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_buffer_registration_hook`:
    hook(module, name, buffer) -> None or a new buffer, at every register_buffer."""
    h = RemovableHandle(_GLOBAL_BUFFER_REG)
    _GLOBAL_BUFFER_REG[h.id] = hook
    return h


def register_module_module_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_module_registration_hook`:
    hook(module, name, submodule) -> None or a new module, at every submodule registration."""
    h = RemovableHandle(_GLOBAL_MODULE_REG)
    _GLOBAL_MODULE_REG[h.id] = hook
    return h


def register_module_parameter_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_parameter_registration_hook`:
    hook(module, name, param) -> None or a new parameter, at every register_parameter."""
    h = RemovableHandle(_GLOBAL_PARAM_REG)
    _GLOBAL_PARAM_REG[h.id] = hook
    return h


def _registered(hooks: Mapping[int, Callable[..., Any]], module: Any, name: str, value: Any) -> Any:
    """value after the global registration hooks (each may return a replacement)."""
    for hook in list(hooks.values()):
        out = hook(module, name, value)
        if out is not None:
            value = out
    return value


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_forward_pre_hook`."""
    h = RemovableHandle(_GLOBAL_PRE)
    _GLOBAL_PRE[h.id] = hook
    return h


def register_module_forward_hook(
    hook: Callable[..., Any], *, with_kwargs: bool = False, always_call: bool = False
) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_forward_hook`."""
    h = RemovableHandle(_GLOBAL_FWD, extra_dict=_GLOBAL_FWD_ALWAYS)
    _GLOBAL_FWD[h.id] = hook
    if with_kwargs:
        _GLOBAL_FWD_KWARGS[h.id] = True
    if always_call:
        _GLOBAL_FWD_ALWAYS[h.id] = True
    return h


def register_module_full_backward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_full_backward_pre_hook`."""
    h = RemovableHandle(_GLOBAL_BWD_PRE)
    _GLOBAL_BWD_PRE[h.id] = hook
    return h


def register_module_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_backward_hook`."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is True:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module "
            "hook. Please use only one of them."
        )
    _global_is_full_backward_hook = False
    h = RemovableHandle(_GLOBAL_BWD)
    _GLOBAL_BWD[h.id] = hook
    return h


def register_module_full_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.nn.modules.module.register_module_full_backward_hook`."""
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is False:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module "
            "hook. Please use only one of them."
        )
    _global_is_full_backward_hook = True
    h = RemovableHandle(_GLOBAL_BWD)
    _GLOBAL_BWD[h.id] = hook
    return h


class _WrappedHook:
    """A legacy backward hook as a node post-hook: hook(module, grad_input, grad_output)."""

    def __init__(self, hook: Callable[..., Any], module: Module | None) -> None:
        self.hook = hook
        self.module = module
        self.__name__ = getattr(hook, "__name__", type(hook).__name__)

    def __call__(self, *args: Any) -> Any:
        if self.module is None:
            return self.hook(*args)
        return self.hook(self.module, *args)


def _future(msg: str) -> None:
    warnings.warn(msg, FutureWarning, stacklevel=4)


# Note [Full backward hooks]
# As in torch, a call of a module with full backward hooks or pre-hooks passes its tensor inputs
# and outputs through the identity Function BackwardHookFunction (nn/modules/_functions.py). The
# output node's hook runs the pre-hooks on grad_output (they may replace it); the input node's
# hook runs the hooks with (grad_input, grad_output) (they may replace grad_input). When no input
# requires grad, the hooks run from the output node with grad_input all None, with a warning.


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _cls_str(cls: type) -> str:
    """str(cls) as torch's messages show it: shadowgrad's classes stand for torch's."""
    return re.sub(r"^<class 'shadowgrad\b", "<class 'torch", str(cls))


def typename(obj: Any) -> str:
    """Mirrors `torch.typename`."""
    if isinstance(obj, Tensor):
        return obj.type()  # type: ignore[no-any-return]
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module.partition(".")[0] == "shadowgrad":  # ours sit where torch's do: name them so
        module = "torch" + module.removeprefix("shadowgrad")
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _addindent(s_: str, num_spaces: int) -> str:
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    return first + "\n" + "\n".join((num_spaces * " ") + ln if ln.strip() else "" for ln in s)


def _add_hook(hooks: Any, hook: Any, prepend: bool, extra: Any = None) -> RemovableHandle:
    h = RemovableHandle(hooks, extra_dict=extra)
    if prepend:
        items = list(hooks.items())
        hooks.clear()
        hooks[h.id] = hook
        hooks.update(items)
    else:
        hooks[h.id] = hook
    return h


def _forward_unimplemented(self: Module, *input: Any) -> None:
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function'
    )


def _parse_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, Any]:
    """torch._C._nn._parse_to: (device, dtype, memory_format) from Module.to's arguments
    (Tensor.to's signatures, without copy). As torch's, the copy argument is refused before the
    device is read (a malformed device string, a device index), and a device without a backend
    is only refused when a tensor moves there (see Module.to)."""
    from ..._tensor import device
    from ..._to_args import parse_to

    dev, dtype, _, copy, fmt = parse_to(args, kwargs, raw_device=True)
    if copy is not None:
        raise RuntimeError(".to() does not accept copy argument")
    if dev is not None and not isinstance(dev, device):
        dev = device(dev if isinstance(dev, str) else int(dev))
    return dev, dtype, fmt


class Module:
    """Base class for all neural network modules. Mirrors `torch.nn.Module`."""

    training: bool
    _version: int = 1
    call_super_init: bool = False
    dump_patches: bool = False
    T_destination = TypeVar("T_destination", bound=dict[str, Any])
    forward: Callable[..., Any] = _forward_unimplemented

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )
        if self.call_super_init is False and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = _hook_dict()
        d["_forward_pre_hooks_with_kwargs"] = _hook_dict()
        d["_forward_hooks"] = _hook_dict()
        d["_forward_hooks_with_kwargs"] = _hook_dict()
        d["_forward_hooks_always_called"] = _hook_dict()
        d["_backward_hooks"] = _hook_dict()
        d["_backward_pre_hooks"] = _hook_dict()
        d["_is_full_backward_hook"] = None
        d["_state_dict_hooks"] = _hook_dict()
        d["_state_dict_pre_hooks"] = _hook_dict()
        d["_load_state_dict_pre_hooks"] = _hook_dict()
        d["_load_state_dict_post_hooks"] = _hook_dict()
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    # --- registration ------------------------------------------------------------------
    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Mirrors `torch.nn.Module.register_buffer`."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        # (a Buffer's own persistent flag counts when it is assigned as an attribute, not here)
        if _GLOBAL_BUFFER_REG:
            tensor = _registered(_GLOBAL_BUFFER_REG, self, name, tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Mirrors `torch.nn.Module.register_parameter`."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        if _GLOBAL_PARAM_REG:
            param = _registered(_GLOBAL_PARAM_REG, self, name, param)
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Mirrors `torch.nn.Module.add_module`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        if _GLOBAL_MODULE_REG:
            module = _registered(_GLOBAL_MODULE_REG, self, name, module)
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        """Mirrors `torch.nn.Module.register_module`."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> Module:
        """Mirrors `torch.nn.Module.get_submodule`."""
        if target == "":
            return self
        mod: Module = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Mirrors `torch.nn.Module.set_submodule`."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {_cls_str(type(module))}")
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        name = atoms[-1]
        exists = hasattr(parent, name)
        if strict and not exists:
            raise AttributeError(parent._get_name() + " has no attribute `" + name + "`")
        if exists and not isinstance(getattr(parent, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(parent, name, module)

    def get_parameter(self, target: str) -> Parameter:
        """Mirrors `torch.nn.Module.get_parameter`."""
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """Mirrors `torch.nn.Module.get_buffer`."""
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer  # type: ignore[no-any-return]

    # --- attribute protocol ------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        def remove_from(*dicts_or_sets: Any) -> None:
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(
                self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set
            )
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(
                self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set
            )
            if _GLOBAL_MODULE_REG:
                value = _registered(_GLOBAL_MODULE_REG, self, name, value)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            if _GLOBAL_MODULE_REG:
                value = _registered(_GLOBAL_MODULE_REG, self, name, value)
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                persistent = value.persistent  # type: ignore[attr-defined]
            else:
                persistent = name not in self._non_persistent_buffers_set
            register = self.register_buffer
            own = getattr(register, "__func__", None) is Module.register_buffer
            if own or "persistent" in inspect.signature(register).parameters:
                register(name, value, persistent)
            else:
                # as torch: a subclass's register_buffer without the argument (written before
                # it existed) registers persistent buffers only
                if not persistent:
                    raise RuntimeError(
                        "Registering a non-persistent buffer on a Module subclass that "
                        "implements register_buffer() without the persistent argument is not "
                        "allowed."
                    )
                register(name, value)
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        keys = [
            *dir(self.__class__),
            *self.__dict__,
            *self._parameters,
            *self._modules,
            *self._buffers,
        ]
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        # as torch's: a module pickled by an older version lacks the newer attributes
        d = self.__dict__
        for name in (
            "_forward_pre_hooks",
            "_forward_pre_hooks_with_kwargs",
            "_forward_hooks_with_kwargs",
            "_forward_hooks_always_called",
            "_state_dict_hooks",
            "_state_dict_pre_hooks",
            "_load_state_dict_pre_hooks",
            "_load_state_dict_post_hooks",
            "_backward_pre_hooks",
        ):
            if name not in d:
                d[name] = _hook_dict()
        if "_non_persistent_buffers_set" not in d:
            d["_non_persistent_buffers_set"] = set()
        if "_is_full_backward_hook" not in d:
            d["_is_full_backward_hook"] = None

    # --- iteration -----------------------------------------------------------------------
    def _named_members(
        self,
        get_members_fn: Callable[[Module], Any],
        prefix: str = "",
        recurse: bool = True,
        remove_duplicate: bool = True,
    ) -> Iterator[tuple[str, Any]]:
        memo: set[int] = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Mirrors `torch.nn.Module.parameters`."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """Mirrors `torch.nn.Module.named_parameters`."""
        yield from self._named_members(
            lambda m: m._parameters.items(), prefix, recurse, remove_duplicate
        )

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Mirrors `torch.nn.Module.buffers`."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """Mirrors `torch.nn.Module.named_buffers`."""
        yield from self._named_members(
            lambda m: m._buffers.items(), prefix, recurse, remove_duplicate
        )

    def children(self) -> Iterator[Module]:
        """Mirrors `torch.nn.Module.children`."""
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """Mirrors `torch.nn.Module.named_children`."""
        memo: set[int] = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self, remove_duplicate: bool = True) -> Iterator[Module]:
        """Mirrors `torch.nn.Module.modules`."""
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(
        self, memo: set[Any] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """Mirrors `torch.nn.Module.named_modules`."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            submodule_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # --- modes and conversions -----------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Mirrors `torch.nn.Module.train`."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """Mirrors `torch.nn.Module.eval`."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Mirrors `torch.nn.Module.requires_grad_`."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Mirrors `torch.nn.Module.zero_grad`."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Mirrors `torch.nn.Module.apply`."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, fn: Callable[[Tensor], Tensor], recurse: bool = True) -> Module:
        # As torch's: by default parameters keep their identity and get the converted data
        # (`param.data = new`), and their grads likewise; torch.__future__ switches to new
        # Parameter objects (overwrite) or to swap_tensors (swap).
        from ... import __future__ as future

        if recurse:
            for module in self.children():
                module._apply(fn)
        use_swap = future._swap_module_params_on_conversion
        use_set_data = not future._overwrite_module_params_on_conversion
        for key, param in self._parameters.items():
            if param is None:
                continue
            with no_grad():
                param_applied = fn(param)
            if not isinstance(param_applied, Tensor):  # torch's first use of it, in C++
                from ..._to_args import parser_type_name

                raise TypeError(
                    "_has_compatible_shallow_copy_type(): argument 'from' (position 2) must be "
                    f"Tensor, not {parser_type_name(param_applied)}"
                )
            param_grad = param.grad
            if use_swap:
                from ...utils import swap_tensors

                try:
                    if param_grad is not None:
                        param.grad = None
                    param_applied = Parameter(param_applied, requires_grad=param.requires_grad)
                    swap_tensors(param, param_applied)
                except Exception as e:
                    if param_grad is not None:
                        param.grad = param_grad
                    raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}") from e
                out_param = param
            elif use_set_data:
                param.data = param_applied
                out_param = param
            else:
                out_param = Parameter(param_applied, param.requires_grad)
                self._parameters[key] = out_param
            if param_grad is not None:
                with no_grad():
                    grad_applied = fn(param_grad)
                if use_swap:
                    from ...utils import swap_tensors

                    grad_applied.requires_grad_(param_grad.requires_grad)
                    try:
                        swap_tensors(param_grad, grad_applied)
                    except Exception as e:
                        raise RuntimeError(
                            f"_apply(): Couldn't swap {self._get_name()}.{key}.grad"
                        ) from e
                    out_param.grad = param_grad
                elif use_set_data:
                    out_param.grad.data = grad_applied  # type: ignore[union-attr]
                else:
                    out_param.grad = grad_applied.requires_grad_(param_grad.requires_grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Mirrors `torch.nn.Module.to`: torch's `_parse_to` (its three signatures and their
        argument-parser error), then dtype, device and memory_format (4-d and 5-d tensors)."""
        dev, dtype, fmt = _parse_to(args, kwargs)
        if dtype is not None:
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError(
                    "nn.Module.to only accepts floating point or complex dtypes, but got "
                    f"desired dtype={dtype}"
                )
            if dtype.is_complex:
                warnings.warn(
                    "Complex modules are a new feature under active development whose design may "
                    "change, and some modules might not work as expected when using complex "
                    "tensors as parameters or buffers. Please file an issue at "
                    "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml if a "
                    "complex module does not work as expected.",
                    stacklevel=2,
                )
        if dev is not None and dev.type != "cpu":
            from ..._tensor import check_device

            try:
                check_device(dev)
            except Exception as e:  # torch's: raised by the first tensor moved there
                if next(self.parameters(), None) is None and next(self.buffers(), None) is None:
                    return self
                raise e
        if dev is not None:
            from ..._device import module_to

            moved = module_to(self, dev, dtype)  # to or from the meta device
            if moved is not None:
                return moved
        if dtype is None and fmt is None:
            return self

        def convert(t: Tensor) -> Tensor:
            dt = dtype if dtype is not None and (t.is_floating_point() or t.is_complex()) else None
            if fmt is not None and t.dim() in (4, 5):
                return t.to(dt, memory_format=fmt) if dt is not None else t.to(memory_format=fmt)
            return t.to(dt) if dt is not None else t

        return self._apply(convert)

    def float(self) -> Module:
        """Mirrors `torch.nn.Module.float`."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        """Mirrors `torch.nn.Module.double`."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        """Mirrors `torch.nn.Module.half`."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> Module:
        """Mirrors `torch.nn.Module.bfloat16`."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def type(self, dst_type: Any) -> Module:
        """Mirrors `torch.nn.Module.type`."""
        return self._apply(lambda t: t.type(dst_type))

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """Mirrors `torch.nn.Module.to_empty`."""
        from ..._creation import empty_like

        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    def share_memory(self) -> Module:
        """Mirrors `torch.nn.Module.share_memory`: share_memory_() on each parameter and buffer
        (which marks them shared; shadowgrad has no worker processes to share them with)."""
        return self._apply(lambda t: t.share_memory_())

    def cpu(self) -> Module:
        """Mirrors `torch.nn.Module.cpu`."""
        from ..._device import module_to

        module_to(self, "cpu", None, to=False)  # a meta tensor's error
        return self

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """Mirrors `torch.nn.Module.compile`: torch.compile of this module's calls, in place.
        shadowgrad has no compiler (see shadowgrad.compile): calls stay eager."""
        from ..._runtime import compile as _compile

        _compile(self._call_impl, *args, **kwargs)

    def _to_accelerator(self, kind: str, device: Any) -> Module:
        # torch's CPU build: moving the first parameter or buffer (t.cuda(device), ...) fails,
        # with its argument and device errors first; a module with none (nn.ReLU().cuda()) is
        # returned as it is
        if next(self.parameters(), None) is None and next(self.buffers(), None) is None:
            return self
        from ..._to_args import accelerator_error

        raise accelerator_error(kind, (device,), {})

    def cuda(self, device: Any = None) -> Module:
        """Mirrors `torch.nn.Module.cuda` (torch's CPU build: no CUDA)."""
        return self._to_accelerator("cuda", device)

    def xpu(self, device: Any = None) -> Module:
        """Mirrors `torch.nn.Module.xpu` (torch's CPU build: no XPU)."""
        return self._to_accelerator("xpu", device)

    def ipu(self, device: Any = None) -> Module:
        """Mirrors `torch.nn.Module.ipu` (torch's CPU build: no IPU)."""
        return self._to_accelerator("ipu", device)

    def mtia(self, device: Any = None) -> Module:
        """Mirrors `torch.nn.Module.mtia` (torch's CPU build: no MTIA)."""
        return self._to_accelerator("mtia", device)

    # --- state dict ----------------------------------------------------------------------
    def _save_to_state_dict(
        self, destination: dict[str, Any], prefix: str, keep_vars: bool
    ) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()

    def get_extra_state(self) -> Any:
        """Mirrors `torch.nn.Module.get_extra_state` (override it with set_extra_state)."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug."
        )

    def set_extra_state(self, state: Any) -> None:
        """Mirrors `torch.nn.Module.set_extra_state` (override it with get_extra_state)."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
            "bug-report.yml to report this bug."
        )

    def state_dict(
        self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> dict[str, Any]:
        """Mirrors `torch.nn.Module.state_dict`."""
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                "#torch.nn.Module.state_dict for details.",
                FutureWarning,
                stacklevel=2,
            )
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()  # type: ignore[attr-defined]
        local_metadata = {"version": self._version}
        meta = getattr(destination, "_metadata", None)
        if meta is not None:
            meta[prefix[:-1]] = local_metadata
        for pre_hook in self._state_dict_pre_hooks.values():
            pre_hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False):
                if hook_result is not None:
                    raise RuntimeError("state_dict post-hook must return None")
            elif hook_result is not None:
                destination = hook_result
        return destination  # type: ignore[no-any-return]

    def _load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        for pre_hook in self._load_state_dict_pre_hooks.values():
            pre_hook(
                state_dict,
                prefix,
                local_metadata,
                strict,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
        persistent = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {
            k: v for k, v in [*self._parameters.items(), *persistent.items()] if v is not None
        }
        assign = local_metadata.get("assign_to_params_buffers", False)
        from ... import __future__ as future

        use_swap = future._swap_module_params_on_conversion
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {_cls_str(type(input_param))}"
                )
                continue
            # an uninitialized (lazy) parameter has no shape to check: a lazy module's load
            # pre-hook materializes it from an initialized input, and an uninitialized input
            # leaves it as it is (torch's is_param_lazy)
            param_lazy = is_lazy(param)
            if (
                not param_lazy
                and param.ndim == 0
                and input_param.ndim == 1
                and input_param.shape[0] == 1
            ):
                input_param = input_param[0]
            if not param_lazy and input_param.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                    f"from checkpoint, the shape in current model is {param.shape}."
                )
                continue
            meta_noop = param.is_meta and not input_param.is_meta and not assign
            if meta_noop:
                warnings.warn(
                    f"for {key}: copying from a non-meta parameter in the checkpoint to a meta "
                    "parameter in the current model, which is a no-op. (Did you mean to pass "
                    "`assign=True` to assign items in the state dictionary to their corresponding "
                    "key in the module instead of copying them in place?)",
                    stacklevel=2,
                )
            try:
                with no_grad():
                    if use_swap:
                        from ...utils import swap_tensors

                        new_input = param.module_load(input_param, assign=assign)
                        if new_input is input_param or new_input is param:
                            raise RuntimeError(
                                "module_load returned one of self or other, please .detach() "
                                "the result if returning one of the inputs in module_load"
                            )
                        if isinstance(param, Parameter):
                            if not isinstance(new_input, Parameter):
                                new_input = Parameter(new_input, requires_grad=param.requires_grad)
                            else:
                                new_input.requires_grad_(param.requires_grad)
                        swap_tensors(param, new_input)
                        del new_input
                    elif assign:
                        if isinstance(param, Parameter):
                            if not isinstance(input_param, Parameter):
                                input_param = Parameter(input_param, param.requires_grad)
                            else:
                                input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    elif not meta_noop:
                        param.copy_(input_param)
            except Exception as ex:
                action = "swapping" if use_swap else "copying"
                error_msgs.append(
                    f'While {action} the parameter named "{key}", whose dimensions in the model '
                    f"are {param.size()} and whose dimensions in the checkpoint are "
                    f"{input_param.size()}, an exception occurred : {ex.args}."
                )
        extra_key = prefix + _EXTRA_STATE
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    head, dot, _ = key[len(prefix) :].partition(".")
                    if head not in (self._modules if dot else local_state):
                        unexpected_keys.append(key)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        """Mirrors `torch.nn.Module.load_state_dict`."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(
                f"Expected state_dict to be dict-like, got {_cls_str(type(state_dict))}."
            )
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)

        def load(module: Module, local_state_dict: dict[str, Any], prefix: str = "") -> None:
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state_dict,
                prefix,
                local_metadata,
                True,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {
                        k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)
                    }
                    load(child, child_state, child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace."
                    )

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            if missing_keys:
                error_msgs.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing_keys)
                    ),
                )
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    self.__class__.__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _register_state_dict_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        # The private form: hook(module, state_dict, prefix, local_metadata) may return a new
        # state_dict, which replaces the result.
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError(
                "Cannot register the same function as the state dict post hook that was "
                "previously registered via register_state_dict_post_hook"
            )
        return _add_hook(self._state_dict_hooks, hook, False)

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_state_dict_post_hook`."""
        hook._from_public_api = True  # type: ignore[attr-defined]
        return _add_hook(self._state_dict_hooks, hook, False)

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_state_dict_pre_hook`: hook(module, prefix,
        keep_vars)."""
        return _add_hook(self._state_dict_pre_hooks, hook, False)

    def _register_load_state_dict_pre_hook(
        self, hook: Callable[..., Any], with_module: bool = False
    ) -> RemovableHandle:
        # The private form: without with_module the hook does not receive the module. As in
        # torch, the stored value is always a wrapper (so isinstance checks on the stored hooks,
        # like remove_spectral_norm's, do not find the hook itself).
        wrapped = _WrappedHook(hook, self if with_module else None)
        return _add_hook(self._load_state_dict_pre_hooks, wrapped, False)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_load_state_dict_pre_hook`: hook(module, state_dict,
        prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_load_state_dict_post_hook`."""
        return _add_hook(self._load_state_dict_post_hooks, hook, False)

    # --- hooks and calling ---------------------------------------------------------------
    def register_forward_pre_hook(
        self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_forward_pre_hook`."""
        h = _add_hook(self._forward_pre_hooks, hook, prepend, self._forward_pre_hooks_with_kwargs)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[h.id] = True
        return h

    def register_forward_hook(
        self,
        hook: Callable[..., Any],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_forward_hook`."""
        h = _add_hook(
            self._forward_hooks,
            hook,
            prepend,
            [self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
        )
        if with_kwargs:
            self._forward_hooks_with_kwargs[h.id] = True
        if always_call:
            self._forward_hooks_always_called[h.id] = True
        return h

    def register_full_backward_pre_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_full_backward_pre_hook`."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_backward_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_backward_hook` (legacy: a hook on the output's
        grad_fn)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(_MIXED_HOOKS)
        self._is_full_backward_hook = False
        return _add_hook(self._backward_hooks, hook, False)

    def register_full_backward_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.nn.Module.register_full_backward_hook`.

        See Note [Full backward hooks].
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(_MIXED_HOOKS)
        self._is_full_backward_hook = True
        return _add_hook(self._backward_hooks, hook, prepend)

    def _get_backward_hooks(self) -> tuple[list[Any], list[Any]]:
        full: list[Any] = []
        non_full: list[Any] = []
        if _global_is_full_backward_hook is True:
            full += _GLOBAL_BWD.values()
        if self._is_full_backward_hook is True:
            full += self._backward_hooks.values()
        if _global_is_full_backward_hook is False:
            non_full += _GLOBAL_BWD.values()
        if self._is_full_backward_hook is False:
            non_full += self._backward_hooks.values()
        return full, non_full

    def _get_backward_pre_hooks(self) -> list[Any]:
        return [*_GLOBAL_BWD_PRE.values(), *self._backward_pre_hooks.values()]

    def _maybe_warn_non_full_backward_hook(self, inputs: Any, result: Any, grad_fn: Any) -> None:
        if not isinstance(result, Tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
                _future(
                    "Using non-full backward hooks on a Module that does not return a single "
                    "Tensor or a tuple of Tensors is deprecated and will be removed in future "
                    "versions. This hook will be missing some of the grad_output. Please use "
                    "register_full_backward_hook to get the documented behavior."
                )
                return
        else:
            result = (result,)
        if not isinstance(inputs, Tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
                _future(
                    "Using non-full backward hooks on a Module that does not take as input a "
                    "single Tensor or a tuple of Tensors is deprecated and will be removed in "
                    "future versions. This hook will be missing some of the grad_input. Please "
                    "use register_full_backward_hook to get the documented behavior."
                )
                return
        else:
            inputs = (inputs,)
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            _future(
                "Using a non-full backward hook when outputs are nested in python data structure "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_output."
            )
        elif len(out_grad_fn) > 1:
            _future(
                "Using a non-full backward hook when outputs are generated by different autograd "
                "Nodes is deprecated and will be removed in future versions. This hook will be "
                "missing some grad_output. Please use register_full_backward_hook to get the "
                "documented behavior."
            )
        else:
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
            next_functions = {n[0] for n in grad_fn.next_functions}
            if inputs_grad_fn != next_functions:
                _future(
                    "Using a non-full backward hook when the forward contains multiple autograd "
                    "Nodes is deprecated and will be removed in future versions. This hook will be "
                    "missing some grad_input. Please use register_full_backward_hook to get the "
                    "documented behavior."
                )

    def _call_impl(self, *args: Any, **kwargs: Any) -> Any:
        forward_call = self.forward
        # torch's order (a module whose __init__ skipped super().__init__() fails on
        # '_backward_hooks' first)
        if not (
            self._backward_hooks
            or self._backward_pre_hooks
            or self._forward_hooks
            or self._forward_pre_hooks
            or _GLOBAL_BWD_PRE
            or _GLOBAL_BWD
            or _GLOBAL_FWD
            or _GLOBAL_PRE
        ):
            return forward_call(*args, **kwargs)
        result = None
        called_always: set[int] = set()
        try:
            full_hooks: list[Any] = []
            non_full_hooks: list[Any] = []
            pre_hooks: list[Any] = []
            if self._backward_pre_hooks or _GLOBAL_BWD_PRE:
                pre_hooks = self._get_backward_pre_hooks()
            if self._backward_hooks or _GLOBAL_BWD:
                full_hooks, non_full_hooks = self._get_backward_hooks()
            for hook_id, hook in (*_GLOBAL_PRE.items(), *self._forward_pre_hooks.items()):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    out = hook(self, args, kwargs)
                    if out is not None:
                        if not (isinstance(out, tuple) and len(out) == 2):
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple of (new_args, "
                                f"new_kwargs), but got {out}."
                            )
                        args, kwargs = out
                else:
                    out = hook(self, args)
                    if out is not None:
                        args = out if isinstance(out, tuple) else (out,)
            bw_hook = None
            if full_hooks or pre_hooks:
                from ._functions import BackwardHook

                bw_hook = BackwardHook(self, full_hooks, pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = forward_call(*args, **kwargs)
            for hook_id, hook in (*_GLOBAL_FWD.items(), *self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called or hook_id in _GLOBAL_FWD_ALWAYS:
                    called_always.add(hook_id)
                if hook_id in self._forward_hooks_with_kwargs or hook_id in _GLOBAL_FWD_KWARGS:
                    out = hook(self, args, kwargs, result)
                else:
                    out = hook(self, args, result)
                if out is not None:
                    result = out
            if bw_hook:
                if not isinstance(result, (Tensor, tuple)):
                    warnings.warn(
                        "For backward hooks to be called, module output should be a Tensor or a "
                        f"tuple of Tensors but received {_cls_str(type(result))}",
                        stacklevel=2,
                    )
                result = bw_hook.setup_output_hook(result)
            if non_full_hooks:
                var = result
                while not isinstance(var, Tensor):
                    if isinstance(var, dict):
                        var = next(v for v in var.values() if isinstance(v, Tensor))
                    else:
                        var = var[0]
                grad_fn = var.grad_fn
                if grad_fn is not None:
                    for hook in non_full_hooks:
                        grad_fn.register_hook(_WrappedHook(hook, self))
                    self._maybe_warn_non_full_backward_hook(args, result, grad_fn)
            return result
        except Exception:
            # torch runs the always_call forward hooks that have not run, then re-raises
            self._run_always_called(args, kwargs, result, called_always)
            raise

    def _run_always_called(self, args: Any, kwargs: Any, result: Any, called: set[int]) -> None:
        for hook_id, hook in _GLOBAL_FWD.items():
            if hook_id in _GLOBAL_FWD_ALWAYS and hook_id not in called:
                try:
                    out = hook(self, args, result)
                    if out is not None:
                        result = out
                except Exception as e:
                    warnings.warn(
                        "global module forward hook with ``always_call=True`` raised an exception "
                        f"that was silenced as another error was raised in forward: {e}",
                        stacklevel=3,
                    )
        for hook_id, hook in self._forward_hooks.items():
            if hook_id in self._forward_hooks_always_called and hook_id not in called:
                try:
                    if hook_id in self._forward_hooks_with_kwargs:
                        out = hook(self, args, kwargs, result)
                    else:
                        out = hook(self, args, result)
                    if out is not None:
                        result = out
                except Exception as e:
                    warnings.warn(
                        "module forward hook with ``always_call=True`` raised an exception that "
                        f"was silenced as another error was raised in forward: {e}",
                        stacklevel=3,
                    )

    __call__: Callable[..., Any] = _call_impl

    # --- repr ----------------------------------------------------------------------------
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        """Mirrors `torch.nn.Module.extra_repr`."""
        return ""

    def __repr__(self) -> str:
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"
