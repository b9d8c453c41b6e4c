"""The operator table behind torch.library and torch.ops: every defined operator's schema and
its kernels per dispatch key, and the objects `torch.ops.<ns>.<op>[.<overload>]` returns
(_OpNamespace, OpOverloadPacket, OpOverload). There is no C++ dispatcher: a call binds its
arguments to the schema (torch's errors), runs the Autograd kernel if one is registered (or the
CompositeImplicitAutograd one, or the autograd fallback), and below autograd bumps the version
of the arguments a custom op mutates and runs the CPU / CompositeExplicitAutograd kernel."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .. import _grad_mode
from .._tensor import Tensor
from .schema import Argument, FunctionSchema, default_of

AUTOGRAD_KEYS = ("Autograd", "AutogradCPU")
BACKEND_KEYS = ("CPU", "CompositeExplicitAutograd")
CIA = "CompositeImplicitAutograd"


@dataclass
class Kernel:
    fn: Callable[..., Any]
    with_keyset: bool = False


@dataclass
class OpEntry:
    """One operator overload: its schema and kernels."""

    ns: str
    name: str
    overload: str  # "" for the default overload
    schema: FunctionSchema
    site: Any = None  # (file, line) of the Library that defined it (not the Library: a
    # registration does not keep its Library alive, whose finalizer removes it)
    custom: Any = None  # the CustomOpDef, for custom_op's ops
    fake: Any = None
    tags: tuple[Any, ...] = ()

    @property
    def qualname(self) -> str:
        return f"{self.ns}::{self.name}"

    @property
    def kernels(self) -> dict[str, list[Kernel]]:
        return KERNELS.setdefault((self.ns, self.name, self.overload), {})

    @property
    def full_name(self) -> str:
        return self.qualname + (f".{self.overload}" if self.overload else "")

    def kernel(self, *keys: str) -> Kernel | None:
        for k in keys:
            ks = self.kernels.get(k)
            if ks:
                return ks[-1]
        return None


# (ns, name, overload) -> entry
OPS: dict[tuple[str, str, str], OpEntry] = {}
# (ns, name, overload) -> dispatch key -> kernels, latest last (torch lets a library register
# kernels for an op not defined yet)
KERNELS: dict[tuple[str, str, str], dict[str, list[Kernel]]] = {}


class DispatchKeySet:
    """What a with_keyset kernel receives first (torch._C.DispatchKeySet); redispatching with
    it runs the op below autograd."""

    def __and__(self, other: Any) -> DispatchKeySet:
        return self

    def __repr__(self) -> str:
        return "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)"


KEYSET = DispatchKeySet()


def find(ns: str, name: str) -> dict[str, OpEntry]:
    """The overloads of ns::name, by overload name ("default" for "")."""
    return {(e.overload or "default"): e for (n, nm, _), e in OPS.items() if n == ns and nm == name}


def lookup(qualname: str) -> OpEntry | None:
    ns, _, rest = qualname.partition("::")
    name, _, overload = rest.partition(".")
    return OPS.get((ns, name, "" if overload == "default" else overload))


# --- argument binding -------------------------------------------------------------------------


def _decl(e: OpEntry) -> str:
    return str(e.schema)


def _type_of(v: Any) -> str:
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


def _check_type(e: OpEntry, a: Argument, v: Any, pos: int) -> None:
    t = a.type
    opt = t.endswith("?")
    if v is None and opt:
        return
    base = t.rstrip("?")
    ok = True
    if base == "Tensor":
        ok = isinstance(v, Tensor)
    elif base.startswith("Tensor"):  # Tensor[] / Tensor?[]
        ok = isinstance(v, (list, tuple)) and all(
            isinstance(x, Tensor) or (x is None and "?[" in base) for x in v
        )
    elif base.startswith(("int[", "SymInt[")):
        ok = (isinstance(v, int) and not base.endswith("[]")) or (
            isinstance(v, (list, tuple)) and all(isinstance(x, int) for x in v)
        )
    elif base in _SCALAR_TYPES:
        ok = isinstance(v, _SCALAR_TYPES[base])
    if not ok:
        cast = f"{v} to {base}"
        if base != "Tensor":
            cast = (
                f"Python instance of type {type(v)} to C++ type '?' (#define "
                "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)"
            )
        raise RuntimeError(
            f"{e.full_name}() Expected a value of type '{_py_type(t)}' for argument "
            f"'{a.name}' but instead found type '{_type_of(v)}'.\nPosition: {pos}\nValue: {v!r}\n"
            f"Declaration: {_decl(e)}\nCast error details: Unable to cast {cast}"
        )


_SCALAR_TYPES: dict[str, Any] = {
    "float": (int, float),
    "int": int,
    "SymInt": int,
    "bool": bool,
    "str": str,
    "Scalar": (int, float, complex, Tensor),
}


def _py_type(t: str) -> str:
    """A schema type as the argument parser names it: Tensor? is Optional[Tensor]."""
    if t.endswith("?"):
        return f"Optional[{_py_type(t[:-1])}]"
    if t.endswith("]"):
        return f"List[{_py_type(t[: t.index('[')])}]"
    return "int" if t == "SymInt" else t


def bind(e: OpEntry, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list, dict]:
    """The call's arguments as the dispatcher passes them on: positional ones (defaults
    filled in, trailing ones equal to their default dropped) and keyword-only ones."""
    sch = e.schema.arguments
    name = e.qualname + (f".{e.overload}" if e.overload else "")
    if len(args) + len(kwargs) > len(sch):
        raise RuntimeError(
            f"{name}() expected at most {len(sch)} argument(s) but received "
            f"{len(args) + len(kwargs)} argument(s). Declaration: {_decl(e)}"
        )
    n_positional = sum(not a.kwarg_only for a in sch)
    if len(args) > n_positional:
        raise RuntimeError(
            f"{name}() takes {n_positional} positional argument(s) but {len(args)} was/were "
            f"given.  Declaration: {_decl(e)}"
        )
    names = [a.name for a in sch]
    for k in kwargs:
        if k not in names:
            raise RuntimeError(
                f"Unknown keyword argument '{k}' for operator '{name}'. Schema: {_decl(e)}"
            )
        if names.index(k) < len(args):
            raise RuntimeError(
                f"Argument '{k}' specified both as positional and keyword argument. Schema: "
                f"{_decl(e)}"
            )
    pos: list[Any] = []
    kw: dict[str, Any] = {}
    for i, a in enumerate(sch):
        if i < len(args) and not a.kwarg_only:
            v = args[i]
        elif a.name in kwargs:
            v = kwargs[a.name]
        elif a.has_default:
            v = default_of(a)
        else:
            raise RuntimeError(
                f"{name}() is missing value for argument '{a.name}'. Declaration: {_decl(e)}"
            )
        _check_type(e, a, v, i)
        if a.type.startswith("float") and v is not None:  # the parser converts to double
            v = [float(x) for x in v] if isinstance(v, (list, tuple)) else float(v)
        if a.kwarg_only:
            kw[a.name] = v
        else:
            pos.append(v)
    # the dispatcher leaves out trailing arguments equal to their defaults
    n = len(pos)
    positional = [a for a in sch if not a.kwarg_only]
    while n and positional[n - 1].has_default and _same(pos[n - 1], positional[n - 1]):
        n -= 1
    return pos[:n], kw


def _same(v: Any, a: Argument) -> bool:
    d = default_of(a)
    if isinstance(v, Tensor) or isinstance(d, Tensor):
        return False
    try:
        return type(v) is type(d) and bool(v == d)
    except Exception:
        return False


def fill_defaults(e: OpEntry, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple:
    """args/kwargs with the defaults the dispatcher dropped put back (torch._library.utils)."""
    args = list(args)
    positional = [a for a in e.schema.arguments if not a.kwarg_only]
    for a in positional[len(args) :]:
        args.append(default_of(a))
    kwargs = dict(kwargs)
    for a in e.schema.arguments:
        if a.kwarg_only and a.name not in kwargs:
            kwargs[a.name] = default_of(a)
    return tuple(args), kwargs


def _tensors(args: Any) -> Iterator[Tensor]:
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, Tensor))


def any_requires_grad(*args: Any, **kwargs: Any) -> bool:
    return any(t.requires_grad for t in _tensors((*args, *kwargs.values())))


# --- calling ----------------------------------------------------------------------------------


def autocast_kernel(e: OpEntry, cast_inputs: Any) -> Callable[..., Any]:
    """The AutocastCPU kernel register_autocast gives an op: floating tensors other than
    float64 cast to cast_inputs, the op run with autocast off (torch excludes the key)."""
    from ..amp import _AC

    def cast(v: Any) -> Any:
        if isinstance(v, Tensor):
            ok = v.is_floating_point() and v.dtype is not _float64()
            return v.to(cast_inputs) if ok else v
        if isinstance(v, (list, tuple)):
            return type(v)(cast(x) for x in v)
        return v

    def kernel(_keyset: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise AssertionError(f"Custom ops do not support kwargs yet, got {list(kwargs.keys())}")
        prev = _AC.enabled
        _AC.enabled = False
        try:
            return call(e, tuple(cast(a) for a in args), {})
        finally:
            _AC.enabled = prev

    return kernel


def _float64() -> Any:
    from .. import _dtype

    return _dtype.float64


def _no_kernel(e: OpEntry, args: Any) -> NotImplementedError:
    if not any(True for _ in _tensors(args)):
        return NotImplementedError(
            "There were no tensor arguments to this function (e.g., you passed an empty list of "
            f"Tensors), but no fallback function is registered for schema {e.full_name}.  This "
            "usually means that this function requires a non-empty list of Tensors, or that you "
            "(the operator writer) forgot to register a fallback function.  Available functions "
            "are [CPU, Meta, BackendSelect, Python, ...]"
        )
    return NotImplementedError(
        f"Could not run '{e.full_name}' with arguments from the 'CPU' backend. This could be "
        "because the operator doesn't exist for this backend, or was omitted during the "
        "selective/custom build process (if using custom build). If you are a Facebook employee "
        "using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible "
        f"resolutions. '{e.full_name}' is only available for these backends: [...]"
    )


def _run(k: Kernel, args: Any, kwargs: dict[str, Any]) -> Any:
    if k.with_keyset:
        return k.fn(KEYSET, *args, **kwargs)
    return k.fn(*args, **kwargs)


class _KernelDepth:
    """How many ops' calls are running: inside one, a vmap's batch tracker (func.py) stands
    aside, as torch's batching fallback runs the kernel on plain per-sample tensors."""

    depth = 0


IN_OP = _KernelDepth()


def call(e: OpEntry, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call the op (counted in IN_OP)."""
    IN_OP.depth += 1
    try:
        return _call(e, args, kwargs)
    finally:
        IN_OP.depth -= 1


def _call(e: OpEntry, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call the op: its autograd kernel, or the autograd fallback over its backend kernel."""
    pos, kw = bind(e, args, kwargs)
    kernels = e.kernels
    if kernels.get("AutocastCPU"):
        from ..amp import _AC

        if _AC.enabled:
            return _run(kernels["AutocastCPU"][-1], pos, kw)
    k = e.kernel(*AUTOGRAD_KEYS)
    if k is not None:
        return _run(k, pos, kw)
    if e.kernel(*BACKEND_KEYS) is None:
        k = e.kernel(CIA)
        if k is not None:
            return _run(k, pos, kw)
        raise _no_kernel(e, pos)
    if not (_grad_mode.STATE.grad and any_requires_grad(*pos, **kw)):
        return below_autograd(e, pos, kw)
    return _autograd_fallback(e, pos, kw)


@contextlib.contextmanager
def _below_autograd() -> Iterator[None]:
    """Grad mode and forward AD off, as below torch's Autograd key: a kernel's ops record
    nothing and propagate no tangents."""
    from ..autograd import forward_ad as _fwad

    prev = _grad_mode.STATE.grad
    _grad_mode.STATE.grad = False
    fw_prev = _fwad._STATE.enabled
    if fw_prev:
        _fwad._set_enabled(False)
    try:
        yield
    finally:
        _grad_mode.STATE.grad = prev
        if fw_prev:
            _fwad._set_enabled(True)


def below_autograd(e: OpEntry, args: Any, kwargs: dict[str, Any]) -> Any:
    """ADInplaceOrView (a custom op bumps the versions of what it mutates) and the backend
    kernel, with autograd off as below torch's Autograd key."""
    if e.custom is not None and e.schema.is_mutable:
        full, fkw = fill_defaults(e, args, kwargs)
        for i, a in enumerate(e.schema.arguments):
            if a.alias_info is None or not a.alias_info.is_write:
                continue
            v = fkw[a.name] if a.kwarg_only else full[i]
            for t in v if isinstance(v, (list, tuple)) else (v,):
                if isinstance(t, Tensor):
                    t._bump()
    if any(t.is_meta for t in _tensors((*args, *kwargs.values()))):
        with _below_autograd():
            return _run_fake(e, args, kwargs)
    k = e.kernel(*BACKEND_KEYS) or e.kernel(CIA)
    if k is None:
        raise _no_kernel(e, args)
    with _below_autograd():
        out = _run(k, args, kwargs)
    _check_returns(e, out)
    return out


def _run_fake(e: OpEntry, args: Any, kwargs: dict[str, Any]) -> Any:
    """Meta tensors: the fake impl (a custom op's register_fake, a Library op's Meta kernel or
    register_fake) computes the outputs' metadata, as torch's Meta key runs it."""
    opdef = e.custom
    if opdef is not None:
        if opdef._abstract_fn is not None:
            return opdef._abstract_fn(*args, **kwargs)
        if opdef._is_inplace:
            return args[0]
        if opdef._is_out:
            outs = [kwargs[a.name] for a in e.schema.arguments if a.is_out]
            return outs[0] if len(outs) == 1 else tuple(outs)
        if not e.schema.returns:
            return None
        raise RuntimeError(
            f"There was no fake impl registered for {opdef}. This is necessary for "
            "torch.compile/export/fx tracing to work. Please use "
            f"`{opdef._init_fn.__name__}.register_fake` to add an fake impl."
        )
    k = e.kernel("Meta")
    if k is not None:
        return _run(k, args, kwargs)
    if e.fake is not None:
        return e.fake(*args, **kwargs)
    raise NotImplementedError(
        f"{e.full_name}: attempted to run this operator with Meta tensors, but there was no "
        "fake impl or Meta kernel registered. You may have run into this message while using "
        "an operator with PT2 compilation APIs (torch.compile/torch.export); in order to use "
        "this operator with those APIs you'll need to add a fake impl. Please see the "
        "following for next steps:  "
        "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html"
    )


def _check_returns(e: OpEntry, out: Any) -> None:
    """A kernel's result converts to the schema's returns (torch casts it to IValues)."""
    rets = e.schema.returns
    outs = out if isinstance(out, tuple) and len(rets) > 1 else (out,)
    for r, o in zip(rets, outs, strict=False):
        if r.type == "Tensor" and o is not None and not isinstance(o, Tensor):
            raise RuntimeError(f"Unable to cast {o} to Tensor")


_FALLBACK_WARNING = (
    "{name}: an autograd kernel was not registered to the Autograd key(s) but we are trying to "
    "backprop through it. This may lead to silently incorrect behavior. This behavior is "
    "deprecated and will be removed in a future version of PyTorch. If your operator is "
    "differentiable, please ensure you have registered an autograd kernel to the correct "
    "Autograd key (e.g. DispatchKey::Autograd, DispatchKey::CompositeImplicitAutograd). If your "
    "operator is not differentiable, or to squash this warning and use the previous behavior, "
    "please register torch::CppFunction::makeFallthrough() to DispatchKey::Autograd."
)


def _autograd_fallback(e: OpEntry, args: Any, kwargs: dict[str, Any]) -> Any:
    """torch's autograd fallback ("warn" mode): the backend kernel runs with autograd on; an
    output that requires grad warns when backward reaches it, one that does not gets a
    WarnNotImplemented node that warns and passes no gradient on."""
    k = e.kernel(*BACKEND_KEYS)
    assert k is not None
    out = _run(k, args, kwargs)
    msg = _FALLBACK_WARNING.format(name=e.full_name)
    inputs = [t for t in _tensors((*args, *kwargs.values())) if t.requires_grad]

    def mark(t: Any) -> Any:
        if not isinstance(t, Tensor) or not (t.dtype.is_floating_point or t.dtype.is_complex):
            return t
        if t.requires_grad:

            def hook(g: Any) -> None:
                warnings.warn(msg, UserWarning, stacklevel=2)

            t.register_hook(hook)
            return t
        return _WarnNotImplemented.apply(t, msg, *inputs)

    if isinstance(out, tuple):
        return tuple(mark(t) for t in out)
    return mark(out)


def _make_warn_fn() -> Any:
    from ..autograd.function import Function

    class WarnNotImplemented(Function):
        @staticmethod
        def forward(ctx: Any, t: Any, msg: str, *inputs: Any) -> Any:
            ctx.msg = msg
            ctx.n = len(inputs)
            return t.detach()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            warnings.warn(ctx.msg, UserWarning, stacklevel=2)
            return (None, None, *([None] * ctx.n))

    # torch's node is a C++ function: its class is CppFunction, its name() WarnNotImplemented
    WarnNotImplemented._backward_cls.__name__ = "CppFunction"
    WarnNotImplemented._backward_cls.__qualname__ = "CppFunction"
    WarnNotImplemented._backward_cls._cpp_name = "WarnNotImplemented"
    return WarnNotImplemented


class _Lazy:
    fn: Any = None

    def apply(self, *args: Any) -> Any:
        if self.fn is None:
            self.fn = _make_warn_fn()
        return self.fn.apply(*args)


_WarnNotImplemented = _Lazy()


# --- torch.ops objects ------------------------------------------------------------------------


class OpOverload:
    """torch.ops.<ns>.<op>.<overload>. Mirrors torch._ops.OpOverload."""

    def __init__(self, packet: OpOverloadPacket, entry: OpEntry) -> None:
        self._entry = entry
        self.overloadpacket = packet
        self._opname = entry.name
        self._overloadname = entry.overload or "default"
        self._namespace = entry.ns
        self.namespace = entry.ns
        self._name = entry.full_name
        self.__name__ = f"{entry.name}.{self._overloadname}"
        self.__qualname__ = self._name
        self.__module__ = packet.__module__

    @property
    def _schema(self) -> FunctionSchema:
        return self._entry.schema

    @property
    def op(self) -> Callable[..., Any]:
        return self

    @property
    def tags(self) -> list[Any]:
        return list(self._entry.tags)

    def name(self) -> str:
        return self._name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return call(self._entry, args, kwargs)

    def redispatch(self, keyset: Any, *args: Any, **kwargs: Any) -> Any:
        return below_autograd(self._entry, args, kwargs)

    def __repr__(self) -> str:
        return (
            f"<OpOverload(op='{self._namespace}.{self._opname}', overload='{self._overloadname}')>"
        )

    def __str__(self) -> str:
        return f"{self._namespace}.{self._opname}.{self._overloadname}"

    def __hash__(self) -> int:
        return hash(self._name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpOverload) and other._entry is self._entry


class OpOverloadPacket:
    """torch.ops.<ns>.<op>: its overloads as attributes; calling it calls the one whose schema
    the arguments fit. Mirrors torch._ops.OpOverloadPacket."""

    def __init__(self, ns: str, name: str) -> None:
        self._ns = ns
        self._opname = name
        self._qualified_op_name = f"{ns}::{name}"
        self.__name__ = name
        self.__module__ = f"torch.ops.{ns}"
        self._overloads: dict[str, OpOverload] = {}

    def overloads(self) -> list[str]:
        return list(find(self._ns, self._opname))

    def __getattr__(self, key: str) -> Any:
        if key.startswith("__"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{key}'")
        entry = find(self._ns, self._opname).get(key)
        if entry is None:
            raise AttributeError(
                f"The underlying op of '{self._ns}.{self._opname}' has no overload name '{key}'"
            )
        ov = self._overloads.get(key)
        if ov is None or ov._entry is not entry:
            ov = self._overloads[key] = OpOverload(self, entry)
        return ov

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        entries = find(self._ns, self._opname)
        if len(entries) == 1:
            return call(next(iter(entries.values())), args, kwargs)
        err: Exception | None = None
        for e in entries.values():
            try:
                bind(e, args, kwargs)
            except RuntimeError as ex:
                err = ex
                continue
            return call(e, args, kwargs)
        raise RuntimeError(
            f"Overloaded torch operator invoked from Python failed to match any schema:\n{err}"
        )

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self._ns}.{self._opname}')>"

    def __str__(self) -> str:
        return f"{self._ns}.{self._opname}"


class _OpNamespace:
    """torch.ops.<ns>: its operators as attributes. Mirrors torch._ops._OpNamespace."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._packets: dict[str, OpOverloadPacket] = {}
        self.__name__ = f"torch.ops.{name}"

    def __getattr__(self, op_name: str) -> Any:
        if op_name.startswith("__"):
            raise AttributeError(
                f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'"
            )
        p = self._packets.get(op_name)
        if p is not None and find(self.name, op_name):
            return p
        if not find(self.name, op_name):
            raise AttributeError(
                f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'"
            )
        p = self._packets[op_name] = OpOverloadPacket(self.name, op_name)
        return p

    def __repr__(self) -> str:
        return f"<module 'torch.ops.{self.name}' from 'torch.ops'>"


_NAMESPACES: dict[str, Any] = {}


def namespace(name: str) -> Any:
    """torch.ops.<name> (aten is shadowgrad's functions under torch's op names)."""
    ns = _NAMESPACES.get(name)
    if ns is None:
        if name == "aten":
            from .aten import AtenNamespace

            ns = AtenNamespace()
        else:
            ns = _OpNamespace(name)
            _share_with_submodule(name, ns)
        _NAMESPACES[name] = ns
    return ns


def _share_with_submodule(name: str, ns: _OpNamespace) -> None:
    """`torch.ops.<name>` where shadowgrad.ops has a module of that name (sorting, special,
    linalg, ...): the module stays the attribute, and names it lacks are looked up among the
    namespace's operators (module __getattr__: only missing names reach it)."""
    import importlib
    import importlib.util

    modname = f"shadowgrad.ops.{name}"
    if not name.isidentifier() or importlib.util.find_spec(modname) is None:
        return
    module = importlib.import_module(modname)
    if "__getattr__" in vars(module):
        return

    def __getattr__(attr: str) -> Any:
        if not attr.startswith("__") and find(name, attr):
            return getattr(ns, attr)
        raise AttributeError(f"module {modname!r} has no attribute {attr!r}")

    module.__getattr__ = __getattr__  # type: ignore[attr-defined]
