"""The `__torch_function__` protocol: Tensor subclasses and Tensor-like objects. Mirrors
`torch.overrides` and the parts of `torch._C` that go with it.

Design (issue #8: plain tensors pay nothing). Ops dispatch on plain Tensors and Parameters as
before; the protocol lives on the side:

- `Tensor.__init_subclass__` calls `install` for each user subclass whose `__torch_function__`
  is not `_disabled_torch_function_impl` (nn.Parameter's). `install` gives the subclass a
  wrapper for each Tensor method, operator and property it inherits; the wrapper hands the
  call to the overriding classes' `__torch_function__` with torch's `func` (the public callable:
  `Tensor.add` for `+`, `Tensor.sum`, a property's `__get__`).
- The first such subclass also wraps the public functions of the torch namespaces
  (`torch.add`, `torch.nn.functional.relu`, ...), so they dispatch on subclass arguments too.
  Until then those namespaces hold the plain functions.
- `Tensor.__torch_function__` (the default) runs `func` with the protocol disabled for
  subclasses and turns Tensor results into `cls` (torch's `_convert`).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import types as _types
from collections.abc import Callable, Iterable
from typing import Any

from ._tensor import Tensor

__all__ = [
    "TorchFunctionMode",
    "get_default_nowrap_functions",
    "get_ignored_functions",
    "handle_torch_function",
    "has_torch_function",
    "has_torch_function_unary",
    "has_torch_function_variadic",
    "is_tensor_like",
    "is_tensor_method_or_property",
    "resolve_name",
    "wrap_torch_function",
]


class _State:
    """The protocol's state: 0 enabled, 1 disabled for subclasses, 2 disabled for all."""

    level = 0


_STATE = _State()


class DisableTorchFunctionSubclass:
    """Mirrors `torch._C.DisableTorchFunctionSubclass`: within it, subclasses' (but not
    Tensor-likes') `__torch_function__` is not called."""

    def __enter__(self) -> None:
        self._old = _STATE.level
        if _STATE.level < 1:
            _STATE.level = 1

    def __exit__(self, *exc: Any) -> None:
        _STATE.level = self._old


class DisableTorchFunction:
    """Mirrors `torch._C.DisableTorchFunction`: within it, no `__torch_function__` is called."""

    def __enter__(self) -> None:
        self._old = _STATE.level
        _STATE.level = 2

    def __exit__(self, *exc: Any) -> None:
        _STATE.level = self._old


def _is_torch_function_enabled() -> bool:
    return _STATE.level == 0


def _is_torch_function_all_disabled() -> bool:
    return _STATE.level == 2


def _from_real_torch(func: Any) -> bool:
    """Whether func is one of real torch's callables (the bridge calling us from torch)."""
    if "torch" not in sys.modules:
        return False
    for obj in (func, getattr(func, "__objclass__", None), getattr(func, "__self__", None)):
        mod = getattr(obj, "__module__", None)
        if isinstance(mod, str):
            return mod == "torch" or mod.startswith(("torch.", "torch._"))
        owner = getattr(obj, "__objclass__", None)
        if owner is not None:
            return (getattr(owner, "__module__", "") or "").startswith("torch")
    return False


def _disabled_torch_function_impl(func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
    """Mirrors `torch._C._disabled_torch_function_impl` (nn.Parameter's `__torch_function__`):
    run func with the protocol disabled for subclasses, keeping the result's type."""
    if _from_real_torch(func):
        from .bridge.interop import torch_function

        return torch_function(func, types, args, kwargs)
    with DisableTorchFunctionSubclass():
        return func(*args, **(kwargs or {}))


def _tf_of(t: type) -> Any:
    """t's `__torch_function__`, or None when t does not take part in the protocol."""
    if t is Tensor:
        return None
    tf = getattr(t, "__torch_function__", None)
    if tf is None or tf is _disabled_torch_function_impl:
        return None
    return tf


_BASIC = (bool, int, float, complex, str, bytes, type(None), list, tuple, dict, slice)


def _overloaded_args(objs: Iterable[Any], python: bool = False) -> list[Any]:
    """The arguments whose `__torch_function__` is called: one of each type, subclasses
    before their bases, otherwise in the order met; none while the protocol is disabled.

    torch's C++ parser (`python=False`) skips plain Tensors and looks one level into lists
    and tuples (Tensor lists); its Python `_get_overloaded_args` (`python=True`, for the
    functions written in Python) takes the given arguments as they are, plain Tensors too."""
    if _STATE.level:
        return []
    seen: list[type] = []
    out: list[Any] = []

    def add(a: Any) -> None:
        t = type(a)
        if t in seen or (not python if t is Tensor else t in _BASIC or _tf_of(t) is None):
            return
        seen.append(t)
        idx = len(out)
        for i, o in enumerate(out):
            if issubclass(t, type(o)):
                idx = i
                break
        out.insert(idx, a)

    for a in objs:
        ta = type(a)
        if ta is Tensor and not python:
            continue
        if (ta is list or ta is tuple) and not python:
            for b in a:
                if type(b) is not Tensor:
                    add(b)
        else:
            add(a)
    return out


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PY_TENSOR = _names(
    "__array__ __array_wrap__ __contains__ __deepcopy__ __dir__ __dlpack__ __dlpack_device__ "
    "__floordiv__ __format__ __ipow__ __len__ __pow__ __rdiv__ __reduce_ex__ __repr__ "
    "__reversed__ __rfloordiv__ __rlshift__ __rmatmul__ __rmod__ __rpow__ __rrshift__ __rsub__ "
    "__setstate__ backward index is_shared istft lu module_load norm register_hook "
    "register_post_accumulate_grad_hook resize resize_as share_memory_ split stft storage "
    "storage_type to_sparse_coo unflatten unique unique_consecutive"
)
_PY_TOP = _names(
    "atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes broadcast_tensors "
    "cartesian_prod cdist chain_matmul einsum istft lu meshgrid norm pca_lowrank split stft "
    "svd_lowrank tensordot unique unique_consecutive unravel_index"
)
_CPP_F = {"linear": "torch.nn.linear", "bilinear": "torch.bilinear"}


def _func_name(func: Any) -> tuple[bool, str]:
    """(whether torch handles func in C++, the name its error shows)."""
    named = getattr(func, "_sg_tf_name", None)
    if named is not None:
        return named  # type: ignore[no-any-return]
    if isinstance(func, _types.MethodWrapperType) and isinstance(func.__self__, property):
        props = _MEMBERS[1] if _MEMBERS is not None else {}
        pname = next((n for n, p in props.items() if p is func.__self__), "?")
        return True, f"torch.Tensor.{pname}.{func.__name__}"
    name = getattr(func, "__name__", None) or repr(func)
    if _TENSOR_PUBLIC.get(name) is func:
        if name in _PY_TENSOR:
            return False, f"torch._tensor.{name}"
        return True, f"torch.Tensor.{name}"
    return False, f"{getattr(func, '__module__', None)}.{name}"


def _no_implementation(func: Any, overloaded: list[Any]) -> TypeError:
    cpp, name = _func_name(func)
    if cpp:
        kinds = "".join(f"  - tensor subclass {type(a)}\n" for a in overloaded)
        return TypeError(
            f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers returned "
            f"NotImplemented:\n\n{kinds}\nFor more information, try re-running with "
            "TORCH_LOGS=not_implemented"
        )
    return TypeError(
        f"no implementation found for '{name}' on types that implement __torch_function__: "
        f"{[type(a) for a in overloaded]}"
    )


def _plain_method(t: type) -> bool:
    """Whether t's `__torch_function__` is a plain method (not a classmethod)."""
    for k in t.__mro__:
        if "__torch_function__" in vars(k):
            return isinstance(vars(k)["__torch_function__"], _types.FunctionType) and (
                vars(k)["__torch_function__"] is not _disabled_torch_function_impl
            )
    return False


def _call_overloads(
    public_api: Any, overloaded: list[Any], args: tuple[Any, ...], kwargs: dict[str, Any] | None
) -> Any:
    if _MODES and _STATE.level < 2:
        func = _MODE_FUNC.get(id(public_api), public_api)
        return _mode_dispatch(func, args, kwargs or None, False, overloaded)
    types = tuple(type(a) for a in overloaded)
    for a in overloaded:
        if _plain_method(type(a)):
            from ._tensor import warn_once

            warn_once(
                "torch_function plain method",
                "Defining your `__torch_function__` as a plain method is deprecated and will be "
                "an error in future, please define it as a classmethod.",
            )
        result = a.__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    raise _no_implementation(public_api, overloaded)


def handle_torch_function(
    public_api: Callable[..., Any], relevant_args: Iterable[Any], *args: Any, **kwargs: Any
) -> Any:
    """Mirrors `torch.overrides.handle_torch_function`."""
    overloaded = _overloaded_args(relevant_args, python=True)
    return _call_overloads(public_api, overloaded, args, kwargs)


def _has(a: Any) -> bool:
    t = type(a)
    if t is Tensor or t in _BASIC or _STATE.level:
        return False
    return _tf_of(t) is not None


def has_torch_function(relevant_args: Iterable[Any]) -> bool:
    """Mirrors `torch.overrides.has_torch_function` (True under a TorchFunctionMode)."""
    try:
        args = list(relevant_args)
    except TypeError:
        raise TypeError("expected a sequence") from None  # torch's PySequence_Fast
    return any(_has(a) for a in args) or (bool(_MODES) and _STATE.level < 2)


def has_torch_function_unary(a: Any) -> bool:
    """Mirrors `torch.overrides.has_torch_function_unary`."""
    return _has(a) or (bool(_MODES) and _STATE.level < 2)


def has_torch_function_variadic(*args: Any) -> bool:
    """Mirrors `torch.overrides.has_torch_function_variadic`."""
    return any(_has(a) for a in args) or (bool(_MODES) and _STATE.level < 2)


def is_tensor_like(inp: Any) -> bool:
    """Mirrors `torch.overrides.is_tensor_like`."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func: Callable[..., Any]) -> bool:
    """Mirrors `torch.overrides.is_tensor_method_or_property`."""
    methods = _members()[0]
    if getattr(func, "__name__", None) == "__get__":
        return True
    name = getattr(func, "__name__", None)
    return (
        func in methods.values()
        or (name is not None and getattr(Tensor, name, None) is func)
        or func in _MODE_WRAPPERS.values()
    )


def _members() -> tuple[dict[str, Any], dict[str, property]]:
    global _MEMBERS
    if _MEMBERS is None:
        _MEMBERS = _tensor_members()
        _TENSOR_PUBLIC.update(_MEMBERS[0])
    return _MEMBERS


def resolve_name(f: Any) -> str | None:
    """Mirrors `torch.overrides.resolve_name`: the name a `__torch_function__` handler can
    show for func (`torch.add`, `torch.Tensor.add`, `torch.Tensor.shape.__get__`), or None."""
    import shadowgrad
    from shadowgrad import fft, linalg, special
    from shadowgrad.nn import functional

    methods, props = _members()
    if isinstance(f, _types.MethodWrapperType) and isinstance(f.__self__, property):
        for pname in props:
            if getattr(Tensor, pname, None) is f.__self__ or props[pname] is f.__self__:
                return f"torch.Tensor.{pname}.{f.__name__}"
        return None
    name = getattr(f, "__name__", None)
    if not isinstance(name, str):
        return None
    if getattr(Tensor, name, None) is f or methods.get(name) is f:
        return f"torch.Tensor.{name}"
    for member, v in vars(Tensor).items():  # an operator: Tensor.__add__ is named otherwise
        if v is f:
            return f"torch.Tensor.{member}"
    for ns, prefix in (
        (shadowgrad, "torch"),
        (functional, "torch.nn.functional"),
        (linalg, "torch.linalg"),
        (special, "torch.special"),
        (fft, "torch.fft"),
    ):
        if vars(ns).get(name) is f:
            return f"{prefix}.{name}"
    return None


def wrap_torch_function(dispatcher: Callable[..., Any]) -> Callable[[Any], Any]:
    """Mirrors `torch.overrides.wrap_torch_function`: a decorator making a function dispatch
    on the arguments `dispatcher` picks out."""

    def inner(func: Any) -> Any:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            relevant_args = dispatcher(*args, **kwargs)
            if has_torch_function(relevant_args):
                return handle_torch_function(wrapped, relevant_args, *args, **kwargs)
            return func(*args, **kwargs)

        return wrapped

    return inner


def get_default_nowrap_functions() -> set[Any]:
    """Mirrors `torch.overrides.get_default_nowrap_functions`: what the default
    `__torch_function__` returns unconverted (`.grad`, `._base`)."""
    return {Tensor.grad.__get__}


def get_ignored_functions() -> set[Any]:
    """Mirrors `torch.overrides.get_ignored_functions`: public functions that can't be
    overridden by `__torch_function__` (those shadowgrad has)."""
    import shadowgrad

    out: set[Any] = set()
    for name in _IGNORED_TOP:
        f = getattr(shadowgrad, name, None)
        if callable(f) and not isinstance(f, type):
            out.add(f)  # (a factory: _device's wrapper, and the function it wraps)
            out.add(getattr(f, "__wrapped__", f))
    for name in _IGNORED_METHODS:
        f = Tensor.__dict__.get(name)
        if callable(f):
            out.add(f)
    return out


def _convert(ret: Any, cls: type) -> Any:
    """torch's `_convert`: Tensor results (and tuples/lists of them) become `cls`."""
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        ret = Tensor.as_subclass(ret, cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        make = getattr(ret, "_make", None)  # a namedtuple; return_types take one iterable
        ret = make(items) if make is not None else type(ret)(items)
    return ret


def default_torch_function(
    cls: type, func: Any, types: Any, args: Any = (), kwargs: Any = None
) -> Any:
    """`Tensor.__torch_function__` for shadowgrad's own callables (torch/_tensor.py's)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        ret = func(*args, **kwargs)
        if isinstance(func, _types.MethodWrapperType) and func == Tensor.grad.__get__:
            return ret
        return _convert(ret, cls)


# --- Tensor methods, operators and properties of a user subclass ------------------------------

# the operator dunders torch dispatches as another public callable (its func for `a + b` is
# Tensor.add)
_OPERATOR_FUNC = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub",
    "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
    "__truediv__": "div", "__div__": "div", "__itruediv__": "div_", "__idiv__": "div_",
    "__rtruediv__": "__rdiv__", "__matmul__": "matmul", "__neg__": "neg", "__pos__": "positive",
    "__abs__": "abs", "__pow__": "pow", "__ipow__": "pow_", "__mod__": "remainder",
    "__imod__": "remainder_", "__ifloordiv__": "floor_divide_", "__ne__": "ne", "__lt__": "lt",
    "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__str__": "__repr__",
}  # fmt: skip
_BINARY = frozenset(
    f"__{p}{op}__"
    for op in _names("add sub mul truediv div floordiv mod pow matmul and or xor lshift rshift")
    for p in ("", "r", "i")
) | {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"}
# Tensor's methods torch never dispatches (torch.overrides.get_ignored_functions), and the
# object protocol itself
_IGNORED_METHODS = frozenset(
    {"__delattr__", "__delitem__", "__getattribute__", "__hash__", "__init__", "__iter__"}
    | {"__new__", "__setattr__", "__init_subclass__", "__torch_function__", "__class__"}
    | {"__subclasshook__", "__getstate__", "__reduce__", "__sizeof__", "__getattr__"}
    | {"__array_priority__", "__slots__", "__weakref__", "__dict__", "__module__", "__doc__"}
    | {"__class_getitem__", "as_subclass", "_make_subclass", "_make_wrapper_subclass"}
)
_IGNORED_TOP = _names(
    "arange are_deterministic_algorithms_enabled as_strided as_tensor asarray bartlett_window "
    "blackman_window broadcast_shapes can_cast clear_autocast_cache compile cond device dtype "
    "empty empty_permuted empty_strided enable_grad eye fill finfo from_numpy frombuffer full "
    "get_autocast_dtype get_default_device get_default_dtype get_deterministic_debug_mode "
    "get_float32_matmul_precision get_num_interop_threads get_num_threads get_rng_state "
    "hamming_window hann_window iinfo inference_mode init_num_threads initial_seed "
    "is_anomaly_check_nan_enabled is_anomaly_enabled is_autocast_cache_enabled "
    "is_autocast_enabled is_deterministic_algorithms_warn_only_enabled is_grad_enabled "
    "is_inference_mode_enabled is_storage is_tensor is_warn_always_enabled kaiser_window layout "
    "linspace load logspace manual_seed memory_format no_grad normal ones promote_types rand "
    "rand_like randint randint_like randn randn_like randperm range result_type save "
    "scalar_tensor seed set_anomaly_enabled set_autocast_cache_enabled set_autocast_dtype "
    "set_autocast_enabled set_default_device set_default_tensor_type "
    "set_deterministic_debug_mode set_float32_matmul_precision set_grad_enabled "
    "set_num_interop_threads set_num_threads set_printoptions set_rng_state set_warn_always "
    "tensor tril_indices triu_indices typename use_deterministic_algorithms vander vmap zeros"
)
_IGNORED_F = _names("hardsigmoid hardswish sigmoid tanh upsample upsample_bilinear")

_TENSOR_PUBLIC: dict[str, Any] = {}  # name -> Tensor's own callable
_REPR = [Tensor.__repr__]


def _tensor_members() -> tuple[dict[str, Any], dict[str, property]]:
    methods: dict[str, Any] = {}
    props: dict[str, property] = {}
    for klass in reversed(Tensor.__mro__[:-1]):
        for name, v in vars(klass).items():
            if name in _IGNORED_METHODS:
                continue
            if name[0] == "_" and not (name.startswith("__") and name.endswith("__")):
                continue
            if isinstance(v, property):
                props[name] = v
            elif isinstance(v, (_types.FunctionType, _types.BuiltinFunctionType)):
                methods[name] = v
    return methods, props


_MEMBERS: tuple[dict[str, Any], dict[str, property]] | None = None


# torch's Tensor methods written in Python that hand handle_torch_function keyword arguments:
# how many parameters (after self) they pass positionally, then the rest by keyword
_PY_METHOD_FORM: dict[str, tuple[int, tuple[tuple[str, Any], ...]]] = {
    "backward": (
        0,
        (("gradient", None), ("retain_graph", None), ("create_graph", False), ("inputs", None)),
    ),
    "norm": (0, (("p", "fro"), ("dim", None), ("keepdim", False), ("dtype", None))),
    "split": (1, (("dim", 0),)),
    "unique": (
        0,
        (("sorted", True), ("return_inverse", False), ("return_counts", False), ("dim", None)),
    ),
    "unique_consecutive": (
        0,
        (("return_inverse", False), ("return_counts", False), ("dim", None)),
    ),
    "lu": (0, (("pivot", True), ("get_infos", False))),
}


def _method_call_form(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    npos, kwdefs = _PY_METHOD_FORM[name]
    names = [k for k, _ in kwdefs]
    if len(args) > npos + len(names) or any(k not in names for k in kwargs):
        return args, kwargs  # a call torch would refuse: as given
    kw = dict(kwdefs)
    kw.update(zip(names, args[npos:], strict=False))
    kw.update(kwargs)
    return args[:npos], kw


def _method_wrapper(name: str, impl: Any, public: Any) -> Any:
    state = _STATE
    python = getattr(public, "__name__", name) in _PY_TENSOR  # written in Python in torch

    reflected = name in _REFLECTED

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if reflected and args and isinstance(args[0], Tensor) and name in _FORWARD:
            # `plain - sub`: Python tries the subclass's reflected method first (it overrides
            # Tensor's); torch's subclass doesn't override it, so torch runs plain.__sub__(sub)
            if not state.level:
                overloaded = _overloaded_args((args[0], self))
                if overloaded:
                    return _call_overloads(_FORWARD[name], overloaded, (args[0], self), None)
            return impl(self, *args, **kwargs)
        if not state.level:
            overloaded = _overloaded_args((self, *args, *kwargs.values()))
            if overloaded:
                if public is _REPR[0] and not kwargs:
                    kwargs = {"tensor_contents": None}  # as torch's Tensor.__repr__ passes
                if python:
                    overloaded = _overloaded_args((self, *args), python=True)
                    if name in _PY_METHOD_FORM:
                        args, kwargs = _method_call_form(name, args, kwargs)
                return _call_overloads(public, overloaded, (self, *args), kwargs)
        return impl(self, *args, **kwargs)

    if name in _BINARY:

        def binary(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except TypeError:
                return NotImplemented  # torch's TypeError_to_NotImplemented_

        binary.__name__ = name
        binary.__qualname__ = f"Tensor.{name}"
        binary.__doc__ = getattr(impl, "__doc__", None)
        binary.__wrapped__ = impl  # type: ignore[attr-defined]
        return binary

    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = getattr(impl, "__doc__", None)
    method.__wrapped__ = impl  # type: ignore[attr-defined]
    return method


def _property_wrapper(p: property) -> property:
    state = _STATE
    fget = p.fget
    fset = p.fset

    def get(self: Any) -> Any:
        if not state.level and _tf_of(type(self)) is not None:
            return _call_overloads(p.__get__, [self], (self,), None)
        return fget(self)  # type: ignore[misc]

    def set_(self: Any, value: Any) -> None:
        if not state.level and _tf_of(type(self)) is not None:
            _call_overloads(p.__set__, [self], (self, value), None)
            return
        fset(self, value)  # type: ignore[misc]

    return property(get, set_ if fset is not None else None, p.fdel, p.__doc__)


_REFLECTED = frozenset(
    f"__r{op}__"
    for op in _names("add sub mul truediv div floordiv mod pow matmul and or xor lshift rshift")
)
_FORWARD: dict[str, Any] = {}  # reflected dunder -> torch's func for the forward operator


def install(cls: type) -> None:
    """Give a user subclass of Tensor the protocol (see the module docstring)."""
    global _MEMBERS
    if getattr(cls, "__torch_function__", None) is _disabled_torch_function_impl:
        return
    if _MEMBERS is None:
        _MEMBERS = _tensor_members()
        _TENSOR_PUBLIC.update(_MEMBERS[0])
    methods, props = _MEMBERS
    if not _FORWARD:
        for r in _REFLECTED:
            fwd = "__" + r[3:]
            f = methods.get(_OPERATOR_FUNC.get(fwd, fwd))
            if f is not None:
                _FORWARD[r] = f
    mro = cls.__mro__
    own = mro[: mro.index(Tensor)]

    def inherited(name: str) -> bool:  # found first on Tensor: not overridden in between
        return not any(name in vars(k) for k in own)

    cls._sg_proto = True  # type: ignore[attr-defined]
    for name, impl in methods.items():
        if inherited(name):
            pname = _OPERATOR_FUNC.get(name, name)
            public = methods.get(pname, impl)
            pub_name = getattr(public, "__name__", pname)
            if pub_name != pname and (pname[:2] == "__" or pub_name[0] == "_"):
                # torch's func for `1 - t` is named __rsub__ (shadowgrad's _rsub_method)
                with contextlib.suppress(AttributeError, TypeError):
                    public.__name__ = pname
            setattr(cls, name, _method_wrapper(name, impl, public))
    for name, p in props.items():
        if inherited(name):
            setattr(cls, name, _property_wrapper(p))
    _activate()


# --- the public functions of the torch namespaces --------------------------------------------

_ACTIVE = False
_PLAIN_TYPES = frozenset((Tensor, int, float, bool, complex, str, type(None)))


def _function_wrapper(fn: Any, name: tuple[bool, str]) -> Any:
    state = _STATE

    python = not name[0]

    plain = _PLAIN_TYPES
    modes = _MODES

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if modes and state.level < 2:
            if python:
                args, kwargs = _python_call_form(fn, args, kwargs)
            return _mode_dispatch(wrapper, args, kwargs, python)
        for a in args:
            if type(a) not in plain:
                break
        else:
            if not kwargs:
                return fn(*args)  # tensors and numbers only: nothing to dispatch on
        if not state.level:
            overloaded = _overloaded_args((*args, *kwargs.values()))
            if overloaded:
                if python:
                    args, kwargs = _python_call_form(fn, args, kwargs)
                    relevant = [v for v in (*args, *kwargs.values()) if is_tensor_like(v)]
                    overloaded = _overloaded_args(relevant, python=True)
                return _call_overloads(wrapper, overloaded, args, kwargs)
        return fn(*args, **kwargs)

    wrapper._sg_protocol = True  # type: ignore[attr-defined]
    wrapper._sg_tf_name = name  # type: ignore[attr-defined]
    return _skipped_by_warnings(wrapper)


_SKIPPED: dict[Any, Any] = {}  # a wrapper's code -> the same under the skipped file name


def _skipped_by_warnings(fn: Any) -> Any:
    """fn, whose frame warnings skip when they count an op's fixed stacklevel, so a warning
    still names the user's line with the namespaces wrapped (Note [Wrapper frames and
    warnings] in _numpy_compat.py). One code object per wrapper kind."""
    code = _SKIPPED.get(fn.__code__)
    if code is None:
        from ._numpy_compat import _FILENAME

        code = _SKIPPED[fn.__code__] = fn.__code__.replace(co_filename=_FILENAME)
    fn.__code__ = code
    return fn


def _grad_wrapper(fn: Any) -> Any:
    """torch.autograd.grad: dispatches on its outputs and inputs (torch's Python code)."""

    @functools.wraps(fn)
    def grad(
        outputs: Any,
        inputs: Any,
        grad_outputs: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        only_inputs: bool = True,
        allow_unused: Any = None,
        is_grads_batched: bool = False,
        materialize_grads: bool = False,
    ) -> Any:
        kwargs = {
            "grad_outputs": grad_outputs,
            "retain_graph": retain_graph,
            "create_graph": create_graph,
            "only_inputs": only_inputs,
            "allow_unused": allow_unused,
            "is_grads_batched": is_grads_batched,
            "materialize_grads": materialize_grads,
        }
        if _MODES and _STATE.level < 2 and not (materialize_grads and allow_unused is False):
            # torch's call form: outputs and inputs as tuples, allow_unused resolved
            outs = (outputs,) if is_tensor_like(outputs) else tuple(outputs)
            named = type(inputs) is dict
            ins = (
                (inputs,)
                if is_tensor_like(inputs)
                else tuple(inputs.values())
                if named
                else tuple(inputs)
            )
            if allow_unused is None:
                kwargs["allow_unused"] = materialize_grads
            r = _mode_dispatch(grad, (outs, ins), kwargs, True)
            return dict(zip(inputs.keys(), r, strict=True)) if named else r
        if not _STATE.level:
            t_out = (outputs,) if is_tensor_like(outputs) else tuple(outputs)
            if is_tensor_like(inputs):
                inputs = (inputs,)
            relevant = t_out + tuple(inputs)
            if has_torch_function(relevant):
                return handle_torch_function(grad, relevant, outputs, inputs, **kwargs)
        return fn(outputs, inputs, **kwargs)

    grad._sg_protocol = True  # type: ignore[attr-defined]
    grad._sg_tf_name = (False, "torch.autograd.grad")  # type: ignore[attr-defined]
    return _skipped_by_warnings(grad)


def _backward_wrapper(fn: Any) -> Any:
    """torch.autograd.backward: dispatches on its tensors and inputs (torch's Python code)."""

    @functools.wraps(fn)
    def backward(
        tensors: Any,
        grad_tensors: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        grad_variables: Any = None,
        inputs: Any = None,
    ) -> Any:
        if _MODES and _STATE.level < 2 and grad_variables is None:
            return _mode_dispatch(
                backward,
                (tensors,),
                {
                    "grad_tensors": grad_tensors,
                    "retain_graph": retain_graph,
                    "create_graph": create_graph,
                    "inputs": inputs,
                },
                True,
            )
        if not _STATE.level and grad_variables is None and not isinstance(inputs, dict):
            ts = (tensors,) if is_tensor_like(tensors) else tuple(tensors)
            ins = () if inputs is None else (inputs,) if is_tensor_like(inputs) else tuple(inputs)
            relevant = tuple(t for t in (*ts, *ins) if is_tensor_like(t))
            if has_torch_function(relevant):
                return handle_torch_function(
                    backward,
                    relevant,
                    ts,
                    grad_tensors=grad_tensors,
                    retain_graph=retain_graph,
                    create_graph=create_graph,
                    inputs=ins if inputs is not None else None,
                )
        return fn(tensors, grad_tensors, retain_graph, create_graph, grad_variables, inputs)

    backward._sg_protocol = True  # type: ignore[attr-defined]
    backward._sg_tf_name = (False, "torch.autograd.backward")  # type: ignore[attr-defined]
    return _skipped_by_warnings(backward)


def dispatch_op(name: str, args: tuple[Any, ...]) -> Any:
    """A plain tensor's op given a subclass operand (`plain.mul(sub)`, `param * sub`): the
    operands' `__torch_function__`, with Tensor's method of that name, as torch's parser."""
    import shadowgrad

    public = _TENSOR_PUBLIC.get(name) or getattr(shadowgrad, name)
    if name in ("add", "sub") and len(args) == 3 and args[2] == 1:
        args = args[:2]  # the default alpha torch's parser leaves out
    return _call_overloads(public, _overloaded_args(args), args, None)


def dispatch_tensor_like(name: str, args: tuple[Any, ...]) -> Any:
    """An op given a Tensor-like (non-Tensor) operand: hand it to the operands'
    `__torch_function__` with the public torch.* function of that name."""
    import shadowgrad

    _activate()
    public = getattr(shadowgrad, name, None)
    if public is None:
        public = _TENSOR_PUBLIC.get(name) or getattr(Tensor, name)
    if name in ("add", "sub") and len(args) == 3 and args[2] == 1:
        args = args[:2]  # the default alpha torch's parser leaves out
    return _call_overloads(public, _overloaded_args(args), args, None)


def _python_call_form(
    fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments torch's Python functions hand to handle_torch_function: the leading
    tensors positionally, every other parameter by keyword with its default filled in
    (`F.relu(x)` passes `(x,)` and `{"inplace": False}`)."""
    try:
        sig = inspect.signature(fn)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    pos: list[Any] = []
    kw: dict[str, Any] = {}
    lead = True
    for pname, v in bound.arguments.items():
        kind = sig.parameters[pname].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            pos.extend(v)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            kw.update(v)
        elif lead and kind is not inspect.Parameter.KEYWORD_ONLY and is_tensor_like(v):
            pos.append(v)
        else:
            lead = False
            kw[pname] = v
    return tuple(pos), kw


def unwrapped(fn: Any) -> Any:
    """fn, or the function a namespace wrapper of this module stands for (identity checks
    such as `activation is F.relu` hold whether or not the namespaces are wrapped)."""
    return fn.__wrapped__ if getattr(fn, "_sg_protocol", False) else fn


def _activate(for_modes: bool = False) -> None:
    """Wrap the namespaces' public functions (once, when the first user subclass appears, or
    while a TorchFunctionMode is active: `for_modes`, undone by _deactivate)."""
    global _ACTIVE, _FOR_MODES_ONLY
    if not for_modes:
        _FOR_MODES_ONLY = False
    if _ACTIVE:
        return
    _ACTIVE = True
    _FOR_MODES_ONLY = for_modes
    import shadowgrad
    from shadowgrad import fft, linalg, special
    from shadowgrad.nn import functional

    def top(n: str) -> tuple[bool, str]:
        return (False, f"torch.functional.{n}") if n in _PY_TOP else (True, f"torch.{n}")

    def nn_f(n: str) -> tuple[bool, str]:
        return (True, _CPP_F[n]) if n in _CPP_F else (False, f"torch.nn.functional.{n}")

    if _PLAN:  # wrapped before (modes come and go): the same wrappers again
        for ns, name, fn, w in _PLAN:
            if vars(ns).get(name) is fn:
                _REPLACED.append((ns, name, fn))
                setattr(ns, name, w)
        _wrap_autograd()
        return
    made: dict[int, Any] = {}  # one wrapper per function: `F.conv_tbc is torch.conv_tbc` holds
    for ns, ignored, named in (
        (shadowgrad, _IGNORED_TOP, top),
        (functional, _IGNORED_F, nn_f),
        (linalg, frozenset(), lambda n: (True, f"torch.linalg.linalg_{n}")),
        (special, frozenset(), lambda n: (True, f"torch.special.special_{n}")),
        (fft, frozenset(), lambda n: (True, f"torch.fft.fft_{n}")),
    ):
        for name, fn in list(vars(ns).items()):
            if (
                (name[0] == "_" and name[:9] != "_foreach_")  # torch._foreach_*: dispatched
                or name in ignored
                or type(fn) is not _types.FunctionType
            ):
                continue
            if name in _NEVER_WRAPPED:  # not torch functions: no __torch_function__ sees them
                continue
            if getattr(fn, "_sg_protocol", False) or fn.__module__ == __name__:
                continue
            w = made.get(id(fn))
            if w is None:
                w = made[id(fn)] = _function_wrapper(fn, named(name))
            _PLAN.append((ns, name, fn, w))
            _REPLACED.append((ns, name, fn))
            setattr(ns, name, w)
    _wrap_autograd()


_PLAN: list[tuple[Any, str, Any, Any]] = []  # _activate's (namespace, name, function, wrapper)
_AUTOGRAD_WRAPPERS: dict[str, Any] = {}


def _wrap_autograd() -> None:
    from shadowgrad import autograd

    for name, make in (("grad", _grad_wrapper), ("backward", _backward_wrapper)):
        fn = getattr(autograd, name)
        if not getattr(fn, "_sg_protocol", False):
            w = _AUTOGRAD_WRAPPERS.get(name)
            if w is None or w.__wrapped__ is not fn:
                w = _AUTOGRAD_WRAPPERS[name] = make(fn)
            _REPLACED.append((autograd, name, fn))
            setattr(autograd, name, w)


# the namespaces' functions torch does not dispatch at all (not torch functions, or shadowgrad's
# helpers imported into a namespace)
_NEVER_WRAPPED = _names(
    "set_default_dtype get_printoptions get_device_module while_loop apply_inplace "
    "check_inference_saved defop handle_torch_function has_torch_function "
    "has_torch_function_unary has_torch_function_variadic show_saved warn_once wrap_dim "
    "wrap_dims check_norm_dtype check_out_dtype complex_np constant_pad_op"
)
_REPLACED: list[tuple[Any, str, Any]] = []  # (namespace, name, function) _activate wrapped
_FOR_MODES_ONLY = False  # the namespaces are wrapped for the modes alone (no user subclass)


def _deactivate() -> None:
    """Undo _activate when only the modes needed it: the namespaces hold their plain
    functions again once the last mode is popped (issue #8: nothing left on the hot path)."""
    global _ACTIVE
    if not (_ACTIVE and _FOR_MODES_ONLY):
        return
    for ns, name, fn in reversed(_REPLACED):
        setattr(ns, name, fn)
    _REPLACED.clear()
    _ACTIVE = False


# --- TorchFunctionMode ---------------------------------------------------------------------
#
# Design (issue #8: with no mode active, ops pay nothing). Entering the first mode installs
# hooks, popping the last one removes them: Tensor's public methods, operators and properties
# are replaced by wrappers that hand the call to the top mode (Tensor's own members are kept in
# _MODE_SAVED and put back), and the namespaces are wrapped as for a user subclass (_activate,
# undone by _deactivate unless a subclass needs them). A mode's `__torch_function__` runs with
# the mode popped, as torch's `_pop_mode_temporarily`: the functions it calls go to the next
# mode, and once every mode has seen the call the implementation runs with the stack empty, so
# shadowgrad's own calls inside it are not seen (torch's are C++).

_MODES: list[Any] = []  # the mode stack, innermost last
_MODE_SAVED: dict[str, Any] = {}  # Tensor's own members while the modes' wrappers stand in


class TorchFunctionMode:
    """Mirrors `torch.overrides.TorchFunctionMode`: `with Mode():` hands each torch function,
    Tensor method and property called inside to `Mode.__torch_function__`."""

    inner: TorchFunctionMode

    def __init__(self) -> None:
        pass

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        raise NotImplementedError

    def __enter__(self) -> Any:
        _push_mode(self)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        _pop_mode()

    @classmethod
    def push(cls, *args: Any, **kwargs: Any) -> Any:
        import warnings

        warnings.warn(
            "`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`",
            stacklevel=2,
        )
        return cls(*args, **kwargs)


def _push_mode(mode: Any) -> None:
    if not _MODES:
        _install_mode_hooks()
    _MODES.append(mode)


def _pop_mode() -> Any:
    if not _MODES:
        raise RuntimeError("trying to pop from empty mode stack")
    mode = _MODES.pop()
    if not _MODES:
        _remove_mode_hooks()
    return mode


@contextlib.contextmanager
def _pop_mode_temporarily() -> Any:
    mode = _MODES.pop()
    try:
        yield mode
    finally:
        _MODES.append(mode)


@contextlib.contextmanager
def paused_modes() -> Any:
    """No mode sees the calls inside (shadowgrad's own calls that torch makes in C++)."""
    saved = _MODES[:]
    _MODES.clear()
    try:
        yield
    finally:
        _MODES[:] = saved


def _get_current_function_mode() -> Any:
    """Mirrors `torch.overrides._get_current_function_mode`: the innermost mode, or None."""
    return _MODES[-1] if _MODES else None


def _get_current_function_mode_stack() -> list[Any]:
    """Mirrors `torch.overrides._get_current_function_mode_stack`."""
    return list(_MODES)


def _len_torch_function_stack() -> int:
    return len(_MODES)


def _is_torch_function_mode_enabled() -> bool:
    """Mirrors `torch._C._is_torch_function_mode_enabled`: a mode (or `with torch.device`, a
    mode in torch) is active."""
    from . import _device

    return bool(_MODES) or bool(_device._MODE_MARK) or _device.STATE.dev is not None


def _mode_dispatch(
    public: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None,
    python: bool,
    overloaded: list[Any] | None = None,
) -> Any:
    """The call of `public` handed to the innermost mode (popped while it runs)."""
    if overloaded is None:
        if python:
            relevant = [v for v in (*args, *(kwargs or {}).values()) if is_tensor_like(v)]
            overloaded = _overloaded_args(relevant, python=True)
        else:
            overloaded = _overloaded_args((*args, *(kwargs or {}).values()))
    types = tuple(type(a) for a in overloaded)
    mode = _MODES.pop()
    try:
        if _classmethod_tf(type(mode)):
            raise RuntimeError(
                "Defining your mode's `__torch_function__` as a classmethod is not supported, "
                "please make it a plain method"
            )
        result = mode.__torch_function__(public, types, args, kwargs or None)
        if result is NotImplemented:  # the subclasses' turn, the mode still popped
            for a in overloaded:
                if type(a) is not Tensor and _tf_of(type(a)) is not None:
                    result = a.__torch_function__(public, types, args, kwargs or {})
                    if result is not NotImplemented:
                        return result
    finally:
        _MODES.append(mode)
    if result is NotImplemented:
        cpp, name = _func_name(public)
        if cpp:
            raise TypeError(
                f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers "
                f"returned NotImplemented:\n\n  - mode object {mode!r}\n\nFor more "
                "information, try re-running with TORCH_LOGS=not_implemented"
            )
        raise TypeError(
            f"no implementation found for '{name}' on types that implement __torch_function__: "
            f"{[t for t in types if t is not Tensor]} nor in mode {mode!r}"
        )
    return result


_MODE_SKIP = frozenset(("__getstate__", "__setstate__"))
_CLASSMETHOD_TF: dict[type, bool] = {}


def _classmethod_tf(cls: type) -> bool:
    """Whether a mode class defines `__torch_function__` as a classmethod (torch refuses)."""
    known = _CLASSMETHOD_TF.get(cls)
    if known is None:
        known = _CLASSMETHOD_TF[cls] = isinstance(
            inspect.getattr_static(cls, "__torch_function__", None), classmethod
        )
    return known


def _mode_method(name: str, impl: Any, pname: str, python: bool) -> Any:
    modes = _MODES
    state = _STATE
    wrappers = _MODE_WRAPPERS

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if modes and state.level < 2:
            if python and name in _PY_METHOD_FORM:
                args, kwargs = _method_call_form(name, args, kwargs)
            elif pname == "__repr__" and not kwargs:
                kwargs = {"tensor_contents": None}  # as torch's Tensor.__repr__ passes
            try:
                # the func a mode sees is what `torch.Tensor.<name>` is now (Tensor.add for +)
                return _mode_dispatch(wrappers.get(pname, method), (self, *args), kwargs, python)
            except TypeError:
                if name in _BINARY:
                    return NotImplemented  # torch's TypeError_to_NotImplemented_
                raise
        if not state.level and type(self) is not Tensor and type(self)._sg_proto:
            # a mode's handler calling `func(sub, ...)`: the subclass's __torch_function__
            overloaded = _overloaded_args((self, *args, *kwargs.values()))
            if overloaded:
                return _call_overloads(method, overloaded, (self, *args), kwargs or None)
        return impl(self, *args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = getattr(impl, "__doc__", None)
    method.__wrapped__ = impl  # type: ignore[attr-defined]
    where = "torch._tensor" if python else "torch.Tensor"
    method._sg_tf_name = (not python, f"{where}.{name}")  # type: ignore[attr-defined]
    return _skipped_by_warnings(method)


def _mode_property(p: property) -> property:
    modes = _MODES
    state = _STATE
    fget = p.fget
    fset = p.fset

    def get(self: Any) -> Any:
        if modes and state.level < 2:
            return _mode_dispatch(new.__get__, (self,), None, True)
        return fget(self)  # type: ignore[misc]

    def set_(self: Any, value: Any) -> None:
        if modes and state.level < 2:
            _mode_dispatch(new.__set__, (self, value), None, True)
            return
        fset(self, value)  # type: ignore[misc]

    _skipped_by_warnings(get)
    _skipped_by_warnings(set_)
    new = property(get, set_ if fset is not None else None, p.fdel, p.__doc__)
    return new


_MODE_WRAPPERS: dict[str, Any] = {}  # a Tensor member's name -> the modes' wrapper of it
_MODE_FUNC: dict[int, Any] = {}  # id of Tensor's own public callable -> the modes' wrapper


def _install_mode_hooks() -> None:
    global _MEMBERS
    if _MEMBERS is None:
        _MEMBERS = _tensor_members()
        _TENSOR_PUBLIC.update(_MEMBERS[0])
    methods, props = _MEMBERS
    own = vars(Tensor)
    if not _MODE_WRAPPERS:  # made once, installed at each first push
        for name, impl in methods.items():
            if name in _MODE_SKIP or own.get(name) is not impl:
                continue
            pname = _OPERATOR_FUNC.get(name, name)
            public = methods.get(pname, impl)
            python = getattr(public, "__name__", pname) in _PY_TENSOR
            w = _mode_method(name, impl, pname, python)
            _MODE_WRAPPERS[name] = w
            _MODE_FUNC[id(impl)] = w
        for name, p in props.items():
            if own.get(name) is p:
                _MODE_PROPS[name] = _mode_property(p)
    for name, w in _MODE_WRAPPERS.items():
        _MODE_SAVED[name] = methods[name]
        setattr(Tensor, name, w)
    for name, w in _MODE_PROPS.items():
        _MODE_SAVED[name] = props[name]
        setattr(Tensor, name, w)
    _activate(for_modes=True)
    import shadowgrad

    for name in _MODE_FACTORIES:  # not overridable by a subclass, but a mode sees them
        fn = vars(shadowgrad).get(name)
        if type(fn) is _types.FunctionType and not getattr(fn, "_sg_protocol", False):
            w = _MODE_FACTORY_WRAPPERS.get(name)
            if w is None or w.__wrapped__ is not fn:
                w = _MODE_FACTORY_WRAPPERS[name] = _function_wrapper(fn, (True, f"torch.{name}"))
            _MODE_FACTORY_SAVED[name] = fn
            setattr(shadowgrad, name, w)


_MODE_PROPS: dict[str, property] = {}  # the modes' properties, made once
_MODE_FACTORY_WRAPPERS: dict[str, Any] = {}


# the factories a mode sees (torch.utils._device's constructors), which _activate leaves alone
_MODE_FACTORIES = _names(
    "arange as_tensor asarray empty empty_strided eye full linspace logspace ones rand randint "
    "randn randperm range scalar_tensor tensor tril_indices triu_indices zeros"
)
_MODE_FACTORY_SAVED: dict[str, Any] = {}


def _remove_mode_hooks() -> None:
    for name, impl in _MODE_SAVED.items():
        setattr(Tensor, name, impl)
    _MODE_SAVED.clear()
    import shadowgrad

    for name, fn in _MODE_FACTORY_SAVED.items():
        setattr(shadowgrad, name, fn)
    _MODE_FACTORY_SAVED.clear()
    _deactivate()


# `torch._C`'s part of the protocol, as the module `shadowgrad._C`
_C = _types.ModuleType("shadowgrad._C")
_C.DisableTorchFunctionSubclass = DisableTorchFunctionSubclass  # type: ignore[attr-defined]
_C.DisableTorchFunction = DisableTorchFunction  # type: ignore[attr-defined]
_C._disabled_torch_function_impl = _disabled_torch_function_impl  # type: ignore[attr-defined]
_C._is_torch_function_enabled = _is_torch_function_enabled  # type: ignore[attr-defined]
_C._is_torch_function_all_disabled = _is_torch_function_all_disabled  # type: ignore[attr-defined]
_C._has_torch_function = has_torch_function  # type: ignore[attr-defined]
_C._has_torch_function_unary = has_torch_function_unary  # type: ignore[attr-defined]
_C._has_torch_function_variadic = has_torch_function_variadic  # type: ignore[attr-defined]
_C._is_torch_function_mode_enabled = _is_torch_function_mode_enabled  # type: ignore[attr-defined]
_C._len_torch_function_stack = _len_torch_function_stack  # type: ignore[attr-defined]
sys.modules.setdefault("shadowgrad._C", _C)
