"""torch.library.custom_op: a Python function turned into an operator, with register_kernel,
register_fake, register_autograd and register_vmap. Mirrors torch/_library/custom_ops.py and
autograd.py: the op's Autograd kernel runs a generated autograd.Function
(`GeneratedBackwardFor_<ns>_<name>_<overload>`) when an input requires grad."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .. import _grad_mode
from .._tensor import Tensor
from . import dispatch

OPDEFS: dict[str, CustomOpDef] = {}


def custom_op(
    name: str,
    fn: Callable[..., Any] | None = None,
    /,
    *,
    mutates_args: str | Iterable[str],
    device_types: Any = None,
    schema: str | None = None,
    tags: Any = None,
) -> Any:
    """Wrap a function into a custom operator. Mirrors `torch.library.custom_op`."""

    def inner(fn: Callable[..., Any]) -> CustomOpDef:
        from .infer_schema import infer_schema
        from .tags import normalize

        tag_tuple = normalize(tags)
        schema_str = (
            infer_schema(fn, mutates_args=mutates_args, tags=tag_tuple)
            if schema is None
            else schema
        )
        namespace, opname = name.split("::")
        result = CustomOpDef(namespace, opname, schema_str, fn, tags)
        if schema is not None:
            expected = {
                a.name
                for a in result._opoverload._schema.arguments
                if a.alias_info is not None and a.alias_info.is_write
            }
            if expected != set(mutates_args):
                raise ValueError(
                    f"Attempted to create a custom op with `mutates_args={mutates_args}` "
                    f"and `schema={schema}. The schema suggests that the op mutates {expected}"
                    f"which is different from what was provided to us in `mutates_args`. "
                    f"Please make these consistent."
                )
        result.register_kernel(device_types)(fn)
        return result

    if fn is None:
        return inner
    return inner(fn)


@dataclass
class _Metadata:
    keyword_only_args: dict[str, Any]


def make_autograd_impl(entry: dispatch.OpEntry, info: Any) -> Callable[..., Any]:
    """The Autograd kernel of a custom op (torch._library.autograd.make_autograd_impl)."""
    from ..autograd.function import Function

    overload = entry.overload or "default"
    name = f"GeneratedBackwardFor_{entry.ns}_{entry.name}_{overload}"
    has_kwarg_only = any(a.kwarg_only for a in entry.schema.arguments)
    op_str = f"{entry.ns}.{entry.name}.{overload}"

    def forward_no_grad(args: Any, metadata: _Metadata) -> Any:
        return dispatch.below_autograd(entry, args, metadata.keyword_only_args)

    def forward(ctx: Any, *args: Any) -> Any:
        metadata = args[-1]
        args = args[:-1]
        kwargs = metadata.keyword_only_args
        result = dispatch.below_autograd(entry, args, kwargs)
        if info._setup_context_fn:
            args, kwargs = dispatch.fill_defaults(entry, args, kwargs)
            if has_kwarg_only:
                info._setup_context_fn(
                    ctx=ctx, inputs=args, keyword_only_inputs=kwargs, output=result
                )
            else:
                info._setup_context_fn(ctx=ctx, inputs=args, output=result)
        return result

    def backward(ctx: Any, *grads: Any) -> Any:
        if info._backward_fn:
            prev = ctx.needs_input_grad
            try:
                ctx.needs_input_grad = prev[:-1]
                result = info._backward_fn(ctx, *grads)
            finally:
                ctx.needs_input_grad = prev
            if isinstance(result, tuple):
                return (*result, None)
            return result, None
        raise RuntimeError(
            f"Trying to backward through {op_str} but no autograd formula was registered. "
            "Please use register_autograd to add one."
        )

    generated = type(
        name,
        (Function,),
        {
            "forward": staticmethod(forward),
            "backward": staticmethod(backward),
            # torch's module: not one of shadowgrad's own Functions (those stand for built-in
            # ops), so torch.func transforms check it as a user's Function (setup_context)
            "__module__": "torch._library.autograd",
        },
    )

    sch = entry.schema
    if any(a.is_tensor_list for a in (*sch.arguments, *sch.returns)):
        generated = _supports_tensorlist(generated)

    is_out = entry.custom is not None and entry.custom._is_out

    def autograd_impl(keyset: Any, *args: Any, **keyword_only_args: Any) -> Any:
        if is_out:
            if _grad_mode.STATE.grad and dispatch.any_requires_grad(*args, **keyword_only_args):
                raise RuntimeError(
                    f"{entry.name}(): functions with out=... arguments don't support automatic "
                    "differentiation, but one of the arguments requires grad."
                )
            return forward_no_grad(args, _Metadata(keyword_only_args))
        if _grad_mode.STATE.grad and dispatch.any_requires_grad(*args):
            return generated.apply(*args, _Metadata(keyword_only_args))
        return forward_no_grad(args, _Metadata(keyword_only_args))

    return autograd_impl


# --- list[Tensor] inputs and outputs (torch._library.autograd.supports_tensorlist) ----------


def _is_tensor_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(t, Tensor) for t in v)


def _spec_repr(spec: Any, depth: int = 0) -> str:
    """A structure as torch's pytree TreeSpec prints it: None a leaf ('*'), a list of specs
    for a list, a tuple of specs for a tuple."""
    if spec is None:
        return "*"
    kind = "list" if isinstance(spec, list) else "tuple"
    sep = ",\n" + "  " * (depth + 1)
    return f"TreeSpec({kind}, None, [{sep.join(_spec_repr(c, depth + 1) for c in spec)}])"


def _flatten(values: Any, lists: Any) -> tuple[list[Any], Any]:
    """values with the lists `lists(v)` accepts spread out, and their structure."""
    flat: list[Any] = []
    spec: list[Any] = []
    for v in values:
        if lists(v):
            flat.extend(v)
            spec.append([None] * len(v))
        else:
            flat.append(v)
            spec.append(None)
    return flat, tuple(spec)


def _unflatten(flat: Any, spec: Any) -> tuple[Any, ...]:
    out: list[Any] = []
    i = 0
    for s in spec:
        if s is None:
            out.append(flat[i])
            i += 1
        else:
            out.append(list(flat[i : i + len(s)]))
            i += len(s)
    return tuple(out)


def _supports_tensorlist(cls: Any) -> Any:
    """cls taking and returning lists of tensors: they are spread into separate inputs and
    outputs around the autograd.Function, and gathered back for forward and backward."""
    orig_forward = cls.forward
    orig_backward = cls.backward
    orig_apply = cls.apply

    @dataclass
    class _ListMeta:
        input_spec: Any
        output_spec: Any = None
        result_is_tuple: bool = False

    def new_forward(ctx: Any, *args: Any) -> Any:
        metadata = args[-1]
        args = _unflatten(args[:-1], metadata.input_spec)
        result = orig_forward(ctx, *args)
        metadata.result_is_tuple = isinstance(result, tuple)
        if not metadata.result_is_tuple:
            result = (result,)
        flat, metadata.output_spec = _flatten(result, _is_tensor_list)
        ctx._pt_metadata = metadata
        return tuple(flat)

    def new_backward(ctx: Any, *grads: Any) -> Any:
        metadata = ctx._pt_metadata
        grads = _unflatten(grads, metadata.output_spec)
        prev = ctx.needs_input_grad
        try:
            ctx.needs_input_grad = _unflatten(prev[:-1], metadata.input_spec)
            grad_inputs = orig_backward(ctx, *grads)
        finally:
            ctx.needs_input_grad = prev
        if not isinstance(grad_inputs, tuple):
            grad_inputs = (grad_inputs,)
        flat, spec = _flatten(
            grad_inputs,
            lambda v: isinstance(v, list) and all(t is None or isinstance(t, Tensor) for t in v),
        )
        if spec != metadata.input_spec:
            raise RuntimeError(
                "Expected the return from backward to be of the same structure as the inputs. "
                f"Got: {_spec_repr(spec)} (return from backward), "
                f"{_spec_repr(metadata.input_spec)} (inputs)"
            )
        return (*flat, None)

    def new_apply(*args: Any) -> Any:
        flat, spec = _flatten(args, _is_tensor_list)
        metadata = _ListMeta(spec)
        result = orig_apply(*flat, metadata)
        if not isinstance(result, tuple):
            result = (result,)
        result = _unflatten(result, metadata.output_spec)
        if not metadata.result_is_tuple:
            return result[0]
        return result

    cls.forward = staticmethod(new_forward)
    cls.backward = staticmethod(new_backward)
    cls.apply = staticmethod(new_apply)
    return cls


def _aliases(a: Any, b: Any) -> bool:
    return a is b or (a._base if a._base is not None else a) is (
        b._base if b._base is not None else b
    )


class CustomOpDef:
    """A function turned into a custom op. Mirrors torch._library.custom_ops.CustomOpDef."""

    def __init__(
        self, namespace: str, name: str, schema: str, fn: Callable[..., Any], tags: Any = None
    ) -> None:
        from .tags import normalize

        self._namespace = namespace
        self._name = name
        self._schema = schema
        self._tags = normalize(tags)
        from .tags import Tag

        self._is_inplace = Tag.inplace in self._tags
        self._is_out = Tag.out in self._tags
        self._init_fn = fn
        self._backend_fns: dict[str | None, Callable[..., Any]] = {}
        self._abstract_fn: Callable[..., Any] | None = None
        self._setup_context_fn: Callable[..., Any] | None = None
        self._backward_fn: Callable[..., Any] | None = None
        self._vmap_fn: Callable[..., Any] | None = None
        self._disabled_kernel: set[Any] = set()
        self._lib = _library_allowing_overwrite(namespace, name)
        self._register_to_dispatcher()
        OPDEFS[self._qualname] = self

    @property
    def _qualname(self) -> str:
        return f"{self._namespace}::{self._name}"

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    def _register_to_dispatcher(self) -> None:
        from .schema import parse_schema

        schema_str = self._name + self._schema
        parsed = parse_schema(schema_str)
        if any(a.kwarg_only and a.is_tensor for a in parsed.arguments) and not self._is_out:
            raise NotImplementedError(
                "custom_op with kwarg-only Tensor args. Please make your tensors not "
                f"kwarg-only. Got: {schema_str}"
            )
        from .tags import Tag

        pt2 = () if Tag.pt2_compliant_tag in self._tags else (Tag.pt2_compliant_tag,)
        self._lib.define(schema_str, tags=pt2 + self._tags)
        entry = dispatch.lookup(self._qualname)
        assert entry is not None
        entry.custom = self
        self._entry = entry
        packet = getattr(dispatch.namespace(self._namespace), entry.name)
        self._opoverload = getattr(packet, entry.overload or "default")
        self._lib.impl(self._name, make_autograd_impl(entry, self), "Autograd", with_keyset=True)

    def register_kernel(self, device_types: Any, fn: Callable[..., Any] | None = None, /) -> Any:
        """Register an implementation for device types (None: every device)."""

        def inner(fn: Callable[..., Any]) -> Callable[..., Any]:
            if device_types is None or isinstance(device_types, str):
                dtypes: list[Any] = [device_types]
            else:
                dtypes = list(device_types)
            for device_type in dtypes:
                if device_type not in self._backend_fns:

                    def backend_impl(*args: Any, __dt: Any = device_type, **kwargs: Any) -> Any:
                        result = self._backend_fns[__dt](*args, **kwargs)
                        if self._is_inplace or self._is_out:
                            self._check_returns_mutated(args, kwargs, result, __dt)
                        else:
                            self._check_aliasing(args, kwargs, result, __dt)
                        return result

                    key = "CompositeExplicitAutograd" if device_type is None else "CPU"
                    if device_type in (None, "cpu"):
                        self._lib.impl(self._name, backend_impl, key)

                def wrapped_fn(*args: Any, __dt: Any = device_type, **kwargs: Any) -> Any:
                    if __dt in self._disabled_kernel:
                        return self._init_fn(*args, **kwargs)
                    return fn(*args, **kwargs)

                self._backend_fns[device_type] = wrapped_fn
            return fn

        args = self._entry.schema.arguments
        no_tensors = not any(a.is_tensor for a in args)
        if (
            device_types is not None
            and no_tensors
            and not any(a.type.rstrip("?") == "Device" for a in args)
        ):
            raise ValueError(
                "Functions without tensor inputs are required to have a `device: "
                "torch.device` argument"
            )
        if fn is None:
            return inner
        return inner(fn)

    def _check_aliasing(self, args: Any, kwargs: Any, result: Any, device_type: Any) -> None:
        outs = result if isinstance(result, tuple) else (result,)
        flat_out = [t for o in outs for t in (o if isinstance(o, list) else [o])]
        flat_out = [t for t in flat_out if isinstance(t, Tensor)]
        ins = list(dispatch._tensors((*args, *kwargs.values())))
        bad = any(_aliases(o, i) for o in flat_out for i in ins) or any(
            _aliases(a, b) for k, a in enumerate(flat_out) for b in flat_out[k + 1 :]
        )
        if bad:
            mod = inspect.getmodule(self._backend_fns[device_type])
            raise RuntimeError(
                f"{self._name} (with implementation in {mod}): The output of this custom "
                "operator (1) must not also be an input to this custom operator and (2) may "
                "not alias any inputs to this custom operator or other returns. The most "
                "common way to trigger this error is if we have y = custom_op(x) and y and x "
                "are the same Tensor. Please instead return a clone of the offending output "
                "tensor(s) (e.g. return x.clone()) or refactor the custom operator to not "
                "return y."
            )

    def _check_returns_mutated(self, args: Any, kwargs: Any, result: Any, dt: Any) -> None:
        mod = inspect.getmodule(self._backend_fns[dt])
        if self._is_inplace:
            if result is not args[0]:
                raise RuntimeError(
                    f"{self._name} (with implementation in {mod}): An operator tagged with "
                    "torch.Tag.inplace must return its first argument."
                )
            return
        names = [
            a.name
            for a in self._entry.schema.arguments
            if a.kwarg_only and a.alias_info is not None and a.alias_info.is_write
        ]
        if len(names) == 1:
            ok = result is kwargs[names[0]]
        else:
            ok = (
                isinstance(result, tuple)
                and len(result) == len(names)
                and all(result[i] is kwargs[n] for i, n in enumerate(names))
            )
        if not ok:
            raise RuntimeError(
                f"{self._name} (with implementation in {mod}): An operator tagged with "
                "torch.Tag.out must return its mutable keyword-only arguments."
            )

    def register_fake(self, fn: Callable[..., Any], /) -> Callable[..., Any]:
        """Register the op's fake (meta) implementation (used by opcheck here)."""
        if self._is_inplace or self._is_out:
            import warnings

            tag = "torch.Tag.inplace" if self._is_inplace else "torch.Tag.out"
            warnings.warn(
                f"The fake registration for {self} is unnecessary. Custom ops tagged with {tag} "
                "already get an autogenerated fake kernel. The provided fake impl will be used "
                "instead.",
                stacklevel=2,
            )
        self._abstract_fn = fn
        return fn

    def register_autograd(
        self, backward: Callable[..., Any], /, *, setup_context: Callable[..., Any] | None = None
    ) -> None:
        """Register the op's backward formula (and setup_context)."""
        sch = self._entry.schema
        if self._is_out:
            raise RuntimeError(
                "Cannot register autograd formula for operator tagged with torch.Tag.out: "
                f"{self}. Out variants do not support autograd."
            )
        if sch.is_mutable or any(r.alias_info is not None for r in sch.returns):
            raise RuntimeError(
                f"Cannot register autograd formula for non-functional operator {self} with "
                f"schema {sch}. Please create a functional operator and register an autograd "
                "formula for that."
            )
        self._backward_fn = backward
        self._setup_context_fn = setup_context

    def register_autocast(self, device_type: str, cast_inputs: Any) -> None:
        """Under autocast on device_type, cast floating inputs to cast_inputs and run the op
        with autocast off."""
        register_autocast_kernel(self._lib, self._entry, device_type, cast_inputs)

    def register_vmap(self, func: Callable[..., Any] | None = None) -> Any:
        def register(func: Callable[..., Any]) -> Callable[..., Any]:
            self._vmap_fn = func
            return func

        if func is None:
            return register
        return register(func)

    def register_torch_dispatch(self, torch_dispatch_class: Any, fn: Any = None, /) -> Any:
        def register(fn: Any) -> Any:
            return fn

        return register if fn is None else register(fn)

    def set_kernel_enabled(self, device_type: str, enabled: bool = True) -> Any:
        import contextlib

        @contextlib.contextmanager
        def ctx() -> Any:
            was = device_type not in self._disabled_kernel
            if enabled:
                self._disabled_kernel.discard(device_type)
            else:
                self._disabled_kernel.add(device_type)
            try:
                yield
            finally:
                if was:
                    self._disabled_kernel.discard(device_type)
                else:
                    self._disabled_kernel.add(device_type)

        return ctx()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._opoverload(*args, **kwargs)


_LIBS: dict[str, Any] = {}


def _library_allowing_overwrite(namespace: str, name: str) -> Any:
    """A fresh FRAGMENT library for ns::name, destroying the previous one (custom_op may
    redefine an op of the same name, as torch's does)."""
    from ..library import Library

    qualname = f"{namespace}::{name}"
    old = _LIBS.pop(qualname, None)
    if old is not None:
        old._destroy()
    lib = Library(namespace, "FRAGMENT")
    _LIBS[qualname] = lib
    return lib


def register_autocast_kernel(
    lib: Any, entry: dispatch.OpEntry, device_type: Any, cast: Any
) -> None:
    """torch.library.register_autocast's checks and registration (cpu: AutocastCPU)."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    from ..amp import is_autocast_available

    if not is_autocast_available(device_type):
        raise ValueError(f"Device type '{device_type}' does not support autocast.")
    name = entry.name + (f".{entry.overload}" if entry.overload else "")
    lib.impl(name, dispatch.autocast_kernel(entry, cast), "AutocastCPU", with_keyset=True)
