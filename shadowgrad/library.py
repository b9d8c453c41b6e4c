"""torch.library: defining operators from Python. Mirrors `torch.library` on CPU, without a
compiler: `custom_op` (with register_autograd / register_fake / register_kernel /
register_vmap), `Library(ns, "DEF" | "FRAGMENT" | "IMPL")` with define/impl, the function forms
`define`, `impl`, `register_autograd`, `register_fake`, `register_kernel`, `infer_schema` and
`opcheck`. The ops are reachable as `torch.ops.<ns>.<name>[.<overload>]`. See docs/library.md.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ._library import dispatch
from ._library.custom_ops import OPDEFS, CustomOpDef, custom_op, make_autograd_impl
from ._library.infer_schema import infer_schema
from ._library.schema import parse_schema

__all__ = [
    "CustomOpDef",
    "Library",
    "custom_op",
    "define",
    "fallthrough_kernel",
    "get_ctx",
    "impl",
    "impl_abstract",
    "infer_schema",
    "opcheck",
    "register_autocast",
    "register_autograd",
    "register_fake",
    "register_kernel",
    "register_vmap",
]

_reserved_namespaces = ["prim"]
_impls: set[str] = set()
_defs: set[str] = set()
# namespace -> (file, line) of its live DEF library
_DEF_SITES: dict[str, tuple[str, int]] = {}
_ATEN_SITE = ("/__w/pytorch/pytorch/build/aten/src/ATen/RegisterSchema.cpp", 6)


def fallthrough_kernel() -> None:
    """A dummy function to pass to `Library.impl` to register a fallthrough."""
    raise NotImplementedError("fallthrough_kernel() should never be called.")


class Library:
    """A library of operators in the namespace `ns`. Mirrors `torch.library.Library`."""

    def __init__(self, ns: str, kind: str, dispatch_key: str = "") -> None:
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        if ns in _reserved_namespaces and kind in ("DEF", "FRAGMENT"):
            raise ValueError(
                f"{ns} is a reserved namespace. Please try creating a library with another name."
            )
        f = sys._getframe(1)
        site = (f.f_code.co_filename, f.f_lineno)
        if kind == "DEF":
            prev = _ATEN_SITE if ns == "aten" else _DEF_SITES.get(ns)
            if prev is not None:
                raise RuntimeError(
                    f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; "
                    "please put all of your definitions in a single TORCH_LIBRARY block.  If you "
                    "were trying to specify implementations, consider using TORCH_LIBRARY_IMPL "
                    "(which can be duplicated).  If you really intended to define operators for a "
                    "single namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to "
                    "explicitly indicate this.  Previous registration of TORCH_LIBRARY was "
                    f"registered at {prev[0]}:{prev[1]}; latest registration was registered at "
                    f"{site[0]}:{site[1]}"
                )
            _DEF_SITES[ns] = site
        self.m: Any = object()
        self.ns = ns
        self._site = site
        self._op_defs: set[str] = set()
        self._op_impls: set[str] = set()
        self._kernels: list[tuple[tuple[str, str, str], str, dispatch.Kernel]] = []
        self.kind = kind
        self.dispatch_key = dispatch_key
        weakref.finalize(self, _del_library, ns, kind, site, self._op_defs, self._op_impls,
                         self._kernels)  # fmt: skip

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags: Any = ()) -> str:
        """Define an operator from its schema; returns its name."""
        if alias_analysis not in ["", "FROM_SCHEMA", "CONSERVATIVE"]:
            raise RuntimeError(f"Invalid alias_analysis type {alias_analysis}")
        if self.m is None:
            raise AssertionError("Library object has been destroyed")
        parsed = parse_schema(schema)
        if "::" in parsed.name:
            ns, _, name = parsed.name.partition("::")
            if ns != self.ns:
                raise RuntimeError(
                    f"Explicitly provided namespace ({ns}) in schema string does not match "
                    f"namespace of enclosing TORCH_LIBRARY block ({self.ns}).  Move this "
                    "definition to the (unique) TORCH_LIBRARY block corresponding to this "
                    "namespace (and consider deleting the namespace from your schema string.)  "
                    f"(Error occurred while processing TORCH_LIBRARY block at "
                    f"{self._site[0]}:{self._site[1]})"
                )
        else:
            name = parsed.name
        parsed.name = f"{self.ns}::{name}"
        key = (self.ns, name, parsed.overload_name)
        old = dispatch.OPS.get(key)
        if old is not None or self.ns == "aten":
            site = old.site if old is not None else _ATEN_SITE
            raise RuntimeError(
                f"Tried to register an operator ({parsed}) with the same name and overload name "
                "multiple times. Each overload's schema should only be registered with a single "
                "call to def(). Duplicate registration: registered at "
                f"{self._site[0]}:{self._site[1]}. Original registration: registered at "
                f"{site[0]}:{site[1]}"
            )
        from ._library.tags import normalize

        entry = dispatch.OpEntry(self.ns, name, parsed.overload_name, parsed, self._site)
        entry.tags = normalize(tags)
        dispatch.OPS[key] = entry
        dispatch.namespace(self.ns)  # torch.ops.<ns> (reachable beside a module of that name)
        full = name + (f".{parsed.overload_name}" if parsed.overload_name else "")
        qualname = f"{self.ns}::{full}"
        self._op_defs.add(qualname)
        _defs.add(qualname)
        return schema.split("(")[0].split(".")[0].strip()  # the name as written

    def _resolve_op_name(self, op_name: Any, api_name: str) -> str:
        if isinstance(op_name, str):
            return op_name
        if isinstance(op_name, dispatch.OpOverload):
            e = op_name._entry
            return e.name + (f".{e.overload}" if e.overload else "")
        raise RuntimeError(
            f"{api_name} should be passed either a name or an OpOverload object as the first "
            f"argument, got {type(op_name)}"
        )

    def impl(
        self,
        op_name: Any,
        fn: Callable[..., Any],
        dispatch_key: str = "",
        *,
        with_keyset: bool = False,
        allow_override: bool = True,
    ) -> None:
        """Register `fn` as the op's kernel for `dispatch_key`."""
        if not callable(fn):
            raise TypeError(
                f"Input function is required to be a callable but found type {type(fn)}"
            )
        if dispatch_key == "":
            dispatch_key = self.dispatch_key
        name = self._resolve_op_name(op_name, "impl")
        key = self.ns + "/" + name.split("::")[-1] + "/" + dispatch_key
        if not allow_override and key in _impls:
            raise RuntimeError(
                "This is not allowed since there's already a kernel registered from python "
                f"overriding {name.split('::')[-1]}'s behavior for {dispatch_key} dispatch key "
                f"and {self.ns} namespace."
            )
        if self.m is None:
            raise AssertionError("Library object has been destroyed")
        op, _, overload = name.split("::")[-1].partition(".")
        dk = dispatch_key or "CompositeImplicitAutograd"
        k = dispatch.Kernel(fn, with_keyset)
        op_key = (self.ns, op, "" if overload == "default" else overload)
        if fn is fallthrough_kernel:
            return
        dispatch.KERNELS.setdefault(op_key, {}).setdefault(dk, []).append(k)
        self._kernels.append((op_key, dk, k))
        _impls.add(key)
        self._op_impls.add(key)

    def _register_fake(self, op_name: str, fn: Callable[..., Any], _stacklevel: int = 1) -> None:
        entry = dispatch.lookup(f"{self.ns}::{op_name}")
        if entry is not None:
            entry.fake = fn

    def fallback(self, fn: Any, dispatch_key: str = "", *, with_keyset: bool = False) -> None:
        if self.m is None:
            raise AssertionError("Library object has been destroyed")

    def _destroy(self) -> None:
        if self.m is None:
            return
        self.m = None
        _del_library(self.ns, self.kind, self._site, self._op_defs, self._op_impls, self._kernels)


def _del_library(
    ns: str,
    kind: str,
    site: tuple[str, int],
    op_defs: set[str],
    op_impls: set[str],
    kernels: list[Any],
) -> None:
    global _impls, _defs
    _impls -= op_impls
    _defs -= op_defs
    if kind == "DEF" and _DEF_SITES.get(ns) == site:
        del _DEF_SITES[ns]
    for op_key, dk, k in kernels:
        ks = dispatch.KERNELS.get(op_key, {}).get(dk)
        if ks and k in ks:
            ks.remove(k)
    for qualname in op_defs:
        ns_, _, rest = qualname.partition("::")
        name, _, overload = rest.partition(".")
        dispatch.OPS.pop((ns_, name, overload), None)
        OPDEFS.pop(f"{ns_}::{name}", None) if overload == "" else None
    kernels.clear()
    op_defs.clear()


@contextlib.contextmanager
def _scoped_library(*args: Any, **kwargs: Any) -> Iterator[Library]:
    """A Library destroyed when the block ends (torch's tests use it)."""
    lib = Library(*args, **kwargs)
    try:
        yield lib
    finally:
        lib._destroy()


_keep_alive: list[Library] = []

NAMELESS_SCHEMA = re.compile(r"\(.*\) -> .*")


def _parse_namespace(qualname: str) -> tuple[str, str]:
    splits = qualname.split("::")
    if len(splits) != 2:
        raise ValueError(
            f"Expected `qualname` to be of the form "
            f'"namespace::name", but got {qualname}. '
            f"The qualname passed to the torch.library APIs must consist "
            f"of a namespace and a name, e.g. aten::sin"
        )
    return splits[0], splits[1]


@functools.singledispatch
def define(qualname: Any, schema: str, *, lib: Library | None = None, tags: Any = ()) -> None:
    """Define a new operator `qualname` ("ns::name") with `schema` ("(Tensor x) -> Tensor")."""
    if not isinstance(qualname, str):
        raise ValueError(
            f"define(qualname, schema): expected qualname to be instance of str, got "
            f"{type(qualname)}"
        )
    namespace, name = _parse_namespace(qualname)
    if lib is None:
        lib = Library(namespace, "FRAGMENT")
        _keep_alive.append(lib)
    if not NAMELESS_SCHEMA.fullmatch(schema):
        raise ValueError(
            f"define(qualname, schema, ...): expected schema "
            f'to look like e.g. "(Tensor x) -> Tensor" but '
            f'got "{schema}"'
        )
    lib.define(name + schema, alias_analysis="", tags=tags)


@define.register
def _(lib: Library, schema: str, alias_analysis: str = "") -> Callable[..., Any]:
    """The old torch.library.define(lib, schema): a decorator registering the CIA kernel."""

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        name = lib.define(schema, alias_analysis)
        lib.impl(name, f)
        return f

    return wrap


def _device_type_to_key(device_type: str) -> str:
    if device_type == "default":
        return "CompositeExplicitAutograd"
    from ._tensor import device

    device(device_type)  # torch's error for a string that names no device type
    return {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta"}.get(device_type, device_type.upper())


_DISPATCH_KEYS = {
    "CPU", "CUDA", "Meta", "Autograd", "AutogradCPU", "CompositeImplicitAutograd",
    "CompositeExplicitAutograd", "BackendSelect", "ADInplaceOrView", "Functionalize",
    "Python", "PythonDispatcher", "AutocastCPU", "AutocastCUDA",
}  # fmt: skip


@functools.singledispatch
def impl(
    qualname: Any,
    types: str | Sequence[str],
    func: Callable[..., Any] | None = None,
    *,
    lib: Library | None = None,
) -> Any:
    """Register `func` for device types ("cpu", "default", ...) of the op `qualname`."""
    if isinstance(types, str):
        types = (types,)
    keys = {t if t in _DISPATCH_KEYS else _device_type_to_key(t) for t in types}
    namespace, _ = _parse_namespace(qualname)

    def register_(func: Callable[..., Any]) -> None:
        use = lib
        if use is None:
            use = Library(namespace, "FRAGMENT")
            _keep_alive.append(use)
        for key in sorted(keys):
            use.impl(qualname, func, key)

    if func is None:
        return register_
    register_(func)
    return None


@impl.register
def _(lib: Library, name: str, dispatch_key: str = "") -> Callable[..., Any]:
    """The old torch.library.impl(lib, name, dispatch_key): a decorator."""

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        lib.impl(name, f, dispatch_key)
        return f

    return wrap


def _resolve_op(op: Any, registration_name: str) -> str | CustomOpDef:
    if not isinstance(op, (str, dispatch.OpOverload, CustomOpDef)):
        raise ValueError(f"{registration_name}({op}): got unexpected type for op: {type(op)}")
    if isinstance(op, dispatch.OpOverload):
        op = op._name
    if isinstance(op, str):
        opdef = OPDEFS.get(op.split(".")[0])
        if opdef is not None and "." not in op:
            return opdef
    return op


def _library_for(namespace: str, lib: Library | None) -> Library:
    if lib is not None:
        return lib
    use = Library(namespace, "FRAGMENT")
    _keep_alive.append(use)
    return use


def register_kernel(
    op: Any, device_types: Any, func: Callable[..., Any] | None = None, /, *, lib: Any = None
) -> Any:
    """Register an implementation for device types of `op`."""
    opdef = _resolve_op(op, "register_kernel")
    if isinstance(opdef, CustomOpDef):
        return opdef.register_kernel(device_types, func)
    if device_types is None:
        device_types = "CompositeExplicitAutograd"
    return impl(opdef, device_types, func, lib=lib)


def register_fake(
    op: Any, func: Callable[..., Any] | None = None, /, *, lib: Any = None, _stacklevel: int = 1
) -> Any:
    """Register the op's fake implementation (the shapes and dtypes of its outputs)."""
    opdef = _resolve_op(op, "register_fake")
    if isinstance(opdef, CustomOpDef):
        if func is None:
            return opdef.register_fake
        return opdef.register_fake(func)

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        namespace, name = _parse_namespace(opdef)
        if dispatch.lookup(opdef) is None:
            raise RuntimeError(f"operator {opdef} does not exist")
        use = _library_for(namespace, lib)
        use._register_fake(name, func)
        return func

    if func is None:
        return register
    return register(func)


def impl_abstract(qualname: Any, func: Any = None, *, lib: Any = None, _stacklevel: int = 1) -> Any:
    """The old name of register_fake (deprecated)."""
    import warnings

    warnings.warn(
        "`torch.library.impl_abstract` was renamed to `torch.library.register_fake`. Please use "
        "that instead; we will remove `torch.library.impl_abstract` in a future version of "
        "PyTorch.",
        FutureWarning,
        stacklevel=2,
    )
    return register_fake(qualname, func, lib=lib)


def register_autograd(
    op: Any,
    backward: Callable[..., Any],
    /,
    *,
    setup_context: Callable[..., Any] | None = None,
    lib: Any = None,
) -> None:
    """Register the backward formula of `op`."""
    opdef = _resolve_op(op, "register_autograd")
    if isinstance(opdef, CustomOpDef):
        opdef.register_autograd(backward, setup_context=setup_context)
        return
    qualname = opdef
    namespace, opname = _parse_namespace(qualname)
    entry = dispatch.lookup(qualname)
    if entry is None:
        getattr(dispatch.namespace(namespace), opname.split(".")[0])  # torch's AttributeError
        raise AttributeError(f"The underlying op of '{namespace}.{opname}' has no overload")
    schema = entry.schema
    if schema.is_mutable or any(r.alias_info is not None for r in schema.returns):
        ov = entry.overload or "default"
        raise RuntimeError(
            f"Cannot register autograd formula for non-functional operator "
            f"{entry.ns}.{entry.name}.{ov} with schema {schema}. Please create "
            f"a functional operator and register an autograd formula for that."
        )
    if any(a.kwarg_only and a.is_tensor for a in schema.arguments):
        raise NotImplementedError(
            f"register_autograd with kwarg-only Tensor args. In the original definition of the "
            f"op, please make your tensors not kwarg-only. Got: {schema}"
        )

    class _Info:
        _backward_fn = staticmethod(backward)
        _setup_context_fn = staticmethod(setup_context) if setup_context else None

    kernel = make_autograd_impl(entry, _Info)
    use = _library_for(namespace, lib)
    use.impl(opname, kernel, "Autograd", with_keyset=True)


def register_autocast(op: Any, device_type: str, cast_inputs: Any, /, *, lib: Any = None) -> None:
    """Under autocast on device_type, the op casts its floating inputs to cast_inputs and runs
    with autocast off."""
    from ._library.custom_ops import register_autocast_kernel

    opdef = _resolve_op(op, "register_autocast")
    from .amp import is_autocast_available

    if not isinstance(device_type, str):  # torch._C._is_autocast_available's parser
        raise TypeError(
            "_is_autocast_available(): argument 'device_type' (position 1) must be str, not "
            f"{type(device_type).__name__}"
        )
    if not is_autocast_available(device_type):
        raise ValueError(f"Device type '{device_type}' does not support autocast.")
    if isinstance(opdef, CustomOpDef):
        opdef.register_autocast(device_type, cast_inputs)
        return
    namespace, _ = _parse_namespace(opdef)
    entry = dispatch.lookup(opdef)
    if entry is None:
        raise RuntimeError(f"Could not find the operator {opdef}")
    register_autocast_kernel(_library_for(namespace, lib), entry, device_type, cast_inputs)


def register_vmap(op: Any, func: Callable[..., Any] | None = None, /, *, lib: Any = None) -> Any:
    """Register a vmap rule for a custom op (kept; shadowgrad's vmap runs the op per sample)."""
    opdef = _resolve_op(op, "register_vmap")
    if isinstance(opdef, CustomOpDef):
        return opdef.register_vmap(func)
    return (lambda f: f) if func is None else func


def get_ctx() -> Any:
    """The fake-impl context inside a fake impl (which shadowgrad runs on real tensors, in
    opcheck); None elsewhere, as torch's outside one."""
    from ._library.opcheck import CURRENT

    return CURRENT[-1] if CURRENT else None


def opcheck(
    op: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
    *,
    test_utils: Any = (
        "test_schema",
        "test_autograd_registration",
        "test_faketensor",
        "test_aot_dispatch_dynamic",
    ),
    raise_exception: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
) -> dict[str, str]:
    """Check a custom op's registrations (torch.library.opcheck), as far as they apply without
    a compiler: the op mutates only what its schema says, an input requiring grad has an
    autograd formula, and the fake impl gives the outputs' shapes and dtypes. Returns
    {test: "SUCCESS" | the error} as torch does."""
    from ._library.opcheck import run_opcheck

    return run_opcheck(op, args, kwargs or {}, test_utils, raise_exception, rtol, atol)
