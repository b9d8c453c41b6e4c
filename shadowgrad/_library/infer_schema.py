"""torch.library.infer_schema: an operator schema from a function's type hints. Mirrors
torch/_library/infer_schema.py (same table of supported types, same errors)."""

from __future__ import annotations

import collections.abc
import inspect
import typing
from types import GenericAlias
from typing import Any

UNKNOWN_MUTATES = "unknown"


def _number() -> Any:
    from .. import types

    return types.Number


def _group_name() -> Any:
    gn = typing.NewType("GroupName", str)
    gn.__module__ = "torch.distributed.distributed_c10d"
    return gn


def _derived_types(base: Any, cpp: str, list_base: bool, opt_base_list: bool, opt_list: bool):
    result: list[tuple[Any, str]] = [(base, cpp), (typing.Optional[base], f"{cpp}?")]  # noqa: UP045

    def seq(t: Any) -> tuple[Any, ...]:
        return (
            typing.Sequence[t],
            typing.List[t],  # noqa: UP006
            GenericAlias(collections.abc.Sequence, (t,)),
            GenericAlias(list, (t,)),
        )

    if list_base:
        result.extend((s, f"{cpp}[]") for s in seq(base))
    if opt_base_list:
        result.extend((s, f"{cpp}?[]") for s in seq(typing.Optional[base]))  # noqa: UP045
    if opt_list:
        result.extend((typing.Optional[s], f"{cpp}[]?") for s in seq(base))  # noqa: UP045
    return result


def _param_types() -> dict[Any, str]:
    import shadowgrad

    data = [
        (shadowgrad.Tensor, "Tensor", True, True, False),
        (int, "SymInt", True, False, True),
        (float, "float", True, False, True),
        (bool, "bool", True, False, True),
        (str, "str", False, False, False),
        (_number(), "Scalar", True, False, False),
        (shadowgrad.dtype, "ScalarType", False, False, False),
        (shadowgrad.device, "Device", False, False, False),
        (_group_name(), "str", False, False, False),
    ]
    out: dict[Any, str] = {}
    for line in data:
        out.update(_derived_types(*line))
    return out


def _return_types() -> dict[Any, str]:
    import shadowgrad

    T = shadowgrad.Tensor
    return {
        T: "Tensor",
        typing.List[T]: "Tensor[]",  # noqa: UP006
        list[T]: "Tensor[]",
        int: "SymInt",
        float: "float",
        bool: "bool",
        _number(): "Scalar",
    }


_TABLES: dict[str, dict[Any, str]] = {}


def supported_param_types() -> dict[Any, str]:
    if "param" not in _TABLES:
        _TABLES["param"] = _param_types()
    return _TABLES["param"]


def supported_return_types() -> dict[Any, str]:
    if "ret" not in _TABLES:
        _TABLES["ret"] = _return_types()
    return _TABLES["ret"]


def _tuple_to_list(t: Any) -> Any:
    args = typing.get_args(t)
    if t is typing.Tuple or t is tuple or not args:  # noqa: UP006
        return list
    if len(args) == 1:
        return list[args[0]]
    if len(args) == 2 and args[1] is Ellipsis:
        return list[args[0]]
    return list[typing.Union[tuple(args)]]  # noqa: UP007


def infer_schema(
    prototype_function: Any, /, *, mutates_args: Any, op_name: str | None = None, tags: Any = ()
) -> str:
    """The schema of `prototype_function` from its type hints. Mirrors
    `torch.library.infer_schema`."""
    import shadowgrad

    from .tags import Tag, normalize

    pf_globals = prototype_function.__globals__
    sig = inspect.signature(prototype_function)
    tags = normalize(tags)
    is_inplace = Tag.inplace in tags
    is_out = Tag.out in tags
    if is_inplace and is_out:
        raise AssertionError("torch.Tag.inplace and torch.Tag.out are mutually exclusive")
    if type(mutates_args) is not str:
        mutates_args = tuple(mutates_args)

    def error_fn(what: str) -> typing.NoReturn:
        raise ValueError(f"infer_schema(func): {what} Got func with signature {sig})")

    def convert_type_string(s: str) -> Any:
        try:
            return eval(s, pf_globals)
        except NameError as e:
            error_fn(
                f"Unsupported type annotation {s}. It is not a type. ({e}). If you are using "
                "'from __future__ import annotations', note that annotations are evaluated "
                "lazily as strings; make sure all types referenced in annotations are "
                "importable at module scope, not only inside a local function."
            )
        except Exception as e:
            error_fn(
                f"Unsupported type annotation {s}. It is not a type. ({type(e).__name__}: {e})"
            )

    def unstringify(t: Any) -> Any:
        if isinstance(t, str):
            return convert_type_string(t)
        origin = typing.get_origin(t)
        if origin:
            args = typing.get_args(t)
            new = tuple(unstringify(a) for a in args)
            if any(isinstance(a, str) for a in args):
                return GenericAlias(origin, new)
        return t

    supported = supported_param_types()
    params: list[str] = []
    seen: set[str] = set()
    saw_kwarg_only = False
    first_name = first_type = first_alias = None
    out_aliases: list[str] = []
    out_names: list[str] = []
    for idx, (name, param) in enumerate(sig.parameters.items()):
        if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            error_fn("We do not support positional-only args, varargs, or varkwargs.")
        if param.kind == param.KEYWORD_ONLY and not saw_kwarg_only:
            params.append("*")
            saw_kwarg_only = True
        if param.annotation is inspect.Parameter.empty:
            error_fn(f"Parameter {name} must have a type annotation.")
        ann = unstringify(param.annotation)
        if ann not in supported:
            if getattr(ann, "__origin__", None) is tuple:
                list_type = _tuple_to_list(ann)
                example = "\n\n"
                if list_type in supported:
                    example = f"For example, {list_type}.\n\n"
                error_fn(
                    f"Parameter {name} has unsupported type {param.annotation}. We do not "
                    "support Tuple inputs in schema. As a workaround, please try to use List "
                    f"instead. {example}The valid types are: {supported.keys()}."
                )
            error_fn(
                f"Parameter {name} has unsupported type {param.annotation}. "
                f"The valid types are: {supported.keys()}."
            )
        schema_type = supported[ann]
        if param.kind == param.POSITIONAL_OR_KEYWORD and first_name is None:
            first_name, first_type, first_alias = name, schema_type, f"a{idx}"
        is_mutated = False
        if type(mutates_args) is str:
            if mutates_args != UNKNOWN_MUTATES:
                raise ValueError(
                    "mutates_args must either be a sequence of the names of the arguments that "
                    "are mutated or the string 'unknown'. "
                )
            if schema_type.startswith("Tensor"):
                is_mutated = True
                schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor') :]}"
        elif name in mutates_args:
            if not schema_type.startswith("Tensor"):
                error_fn(
                    f"Parameter {name} is in mutable_args but only Tensors or collections of "
                    "Tensors can be mutated"
                )
            is_mutated = True
            schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor') :]}"
        if is_out and is_mutated:
            if param.kind != param.KEYWORD_ONLY:
                error_fn("torch.Tag.out requires mutable arguments to be keyword-only.")
            if schema_type != f"Tensor(a{idx}!)":
                error_fn("torch.Tag.out only supports mutable keyword-only Tensor arguments.")
            out_aliases.append(f"a{idx}")
            out_names.append(name)
        seen.add(name)
        if param.default is inspect.Parameter.empty:
            params.append(f"{schema_type} {name}")
            continue
        d = param.default
        if d is None or isinstance(d, (int, float, bool)):
            rep = str(d)
        elif isinstance(d, (str, shadowgrad.device)):
            rep = f'"{d}"'
        elif isinstance(d, shadowgrad.dtype):
            rep = str(d).removeprefix("torch.")
        else:
            error_fn(
                f"Parameter {name} has an unsupported default value type {type(d)}. "
                "Please file an issue on GitHub so we can prioritize this."
            )
        params.append(f"{schema_type} {name}={rep}")
    if mutates_args != UNKNOWN_MUTATES:
        not_seen = set(mutates_args) - seen
        if not_seen:
            error_fn(
                f"{not_seen} in mutates_args were not found in the custom op's signature. "
                "mutates_args should contain the names of all args that the custom op mutates, "
                "or just the string 'unknown' if you don't know."
            )
    if is_inplace:
        if first_name is None:
            error_fn("torch.Tag.inplace requires a positional Tensor argument.")
        if first_type != "Tensor":
            error_fn("torch.Tag.inplace requires the first positional argument to be a Tensor.")
        if type(mutates_args) is str or set(mutates_args) != {first_name}:
            error_fn(
                "torch.Tag.inplace requires mutates_args to contain exactly the first "
                f"positional argument, got {mutates_args}."
            )
    if is_out and not out_aliases:
        error_fn("torch.Tag.out requires at least one mutable keyword-only Tensor argument.")
    annotation = unstringify(sig.return_annotation)
    if is_out:
        ret = _out_return(annotation, out_aliases, out_names, error_fn)
    else:
        ret = parse_return(annotation, error_fn)
    if is_inplace:
        if ret != "Tensor":
            error_fn("torch.Tag.inplace requires the return annotation to be torch.Tensor.")
        ret = f"Tensor({first_alias}!)"
    if op_name is not None:
        return f"{op_name}({', '.join(params)}) -> {ret}"
    return f"({', '.join(params)}) -> {ret}"


def _out_return(annotation: Any, aliases: list[str], names: list[str], error_fn: Any) -> str:
    import shadowgrad

    T = shadowgrad.Tensor
    if len(aliases) == 1:
        matches = annotation is T
    else:
        matches = typing.get_origin(annotation) is tuple and typing.get_args(annotation) == (
            (T,) * len(aliases)
        )
    if not matches:
        error_fn(
            "torch.Tag.out requires the return annotation to match the mutable keyword-only "
            f"Tensor arguments {tuple(names)}."
        )
    rets = [f"Tensor({a}!)" for a in aliases]
    return rets[0] if len(rets) == 1 else f"({', '.join(rets)})"


def parse_return(annotation: Any, error_fn: Any) -> str:
    rets = supported_return_types()
    if annotation is None:
        return "()"
    if annotation is inspect.Parameter.empty:
        error_fn("No return type annotation was provided. Please add one.")
    if typing.get_origin(annotation) is not tuple:
        if annotation not in rets:
            error_fn(f"Return has unsupported type {annotation}. The valid types are: {rets}.")
        return rets[annotation]
    args = typing.get_args(annotation)
    for a in args:
        if a not in rets:
            error_fn(f"Return has unsupported type {annotation}. The valid types are: {rets}.")
    out = ", ".join(rets[a] for a in args)
    if len(args) == 1:
        out = "(" + out + ")"
    return "(" + out + ")"
