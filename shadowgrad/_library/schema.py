"""Operator schemas: `ns::name.overload(Tensor x, *, float y=2.) -> Tensor`, parsed into a
FunctionSchema that prints as torch's does (torch._C.FunctionSchema)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_NAME = re.compile(r"[A-Za-z_][\w]*(?:::[A-Za-z_]\w*)?(?:\.[A-Za-z_]\w*)?")


@dataclass(frozen=True)
class AliasInfo:
    """`Tensor(a!)`: the alias set and whether the op writes through it (torch._C._AliasInfo:
    before_set and after_set are sets of names)."""

    name: str
    is_write: bool

    @property
    def before_set(self) -> set[str]:
        return {self.name}

    @property
    def after_set(self) -> set[str]:
        return {self.name}


_PY_NAMES = {"SymInt": "int", "ScalarType": "int", "Scalar": "number", "MemoryFormat": "int",
             "Layout": "int", "SymFloat": "float", "SymBool": "bool"}  # fmt: skip


class SchemaType(str):
    """An argument's type: its text in the schema (what comparisons and formatting see:
    "Tensor?", "SymInt[]"), printed as torch's JitType (str() and repr(): Optional[Tensor],
    List[int])."""

    def _jit(self) -> str:
        t = str.__str__(self)
        if t.endswith("?"):
            return f"Optional[{SchemaType(t[:-1])._jit()}]"
        if t.endswith("]"):
            return f"List[{SchemaType(t[: t.index('[')])._jit()}]"
        return _PY_NAMES.get(t, t)

    def __str__(self) -> str:
        return self._jit()

    def __repr__(self) -> str:
        return self._jit()


class Argument:
    """One argument (or return) of a schema. Mirrors torch._C.Argument's fields."""

    def __init__(
        self,
        name: str,
        type: str,
        default: str | None = None,
        kwarg_only: bool = False,
        alias_info: AliasInfo | None = None,
        has_default: bool = False,
    ) -> None:
        self.name = name
        self.type = SchemaType(type)
        self.default = default  # the default's text as torch prints it, or None
        self.kwarg_only = kwarg_only
        self.alias_info = alias_info
        self.has_default = has_default

    def has_default_value(self) -> bool:
        return self.has_default

    @property
    def default_value(self) -> Any:
        return default_of(self) if self.has_default else None

    @property
    def N(self) -> int | None:
        m = re.search(r"\[(\d+)\]", self.type)
        return int(m.group(1)) if m else None

    @property
    def is_out(self) -> bool:
        return self.kwarg_only and self.alias_info is not None and self.alias_info.is_write

    def type_str(self) -> str:
        t = str.__str__(self.type)
        if self.alias_info is None:
            return t
        base, rest = _split_base(t)
        bang = "!" if self.alias_info.is_write else ""
        return f"{base}({self.alias_info.name}{bang}){rest}"

    def schema_str(self) -> str:
        """The argument as the schema prints it: `Tensor(a!) x=...`."""
        s = self.type_str()
        if self.name:
            s += " " + self.name
        if self.has_default:
            s += "=" + str(self.default)
        return s

    @property
    def is_tensor(self) -> bool:
        return self.type.startswith("Tensor")

    @property
    def is_tensor_list(self) -> bool:
        return self.type.startswith("Tensor") and "[" in self.type


def _split_base(t: str) -> tuple[str, str]:
    m = re.match(r"[A-Za-z_]\w*", t)
    assert m is not None
    return t[: m.end()], t[m.end() :]


@dataclass
class FunctionSchema:
    """A parsed operator schema. str() prints it as torch does."""

    name: str  # "ns::op" (or "op" for a schema given without a namespace)
    overload_name: str
    arguments: list[Argument]
    returns: list[Argument]
    returns_tuple: bool = field(default=True)  # "(Tensor)" vs "Tensor"

    def __str__(self) -> str:
        args: list[str] = []
        star = False
        for a in self.arguments:
            if a.kwarg_only and not star:
                args.append("*")
                star = True
            args.append(a.schema_str())
        name = self.name + (f".{self.overload_name}" if self.overload_name else "")
        return f"{name}({', '.join(args)}) -> {self._returns_str()}"

    def _returns_str(self) -> str:
        rets = ", ".join(r.schema_str() for r in self.returns)
        if len(self.returns) == 1 and not self.returns_tuple:
            return rets
        return f"({rets})"

    def __repr__(self) -> str:
        return str(self)

    @property
    def is_mutable(self) -> bool:
        return any(a.alias_info is not None and a.alias_info.is_write for a in self.arguments)

    def _is_view_op(self) -> bool:
        return any(
            a.alias_info is not None and not a.alias_info.is_write for a in self.arguments
        ) and any(r.alias_info is not None for r in self.returns)


def _parse_error(kind: str, src: str, pos: int, width: int = 1) -> RuntimeError:
    found = src[pos] if pos < len(src) else "eof"
    return RuntimeError(
        f"expected {kind} but found '{found}' here:\n{src}\n{' ' * pos}{'~' * width} <--- HERE\n"
    )


def _split_top(s: str) -> list[str]:
    """Split on commas outside brackets."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


_ARG = re.compile(
    r"^(?P<base>[A-Za-z_]\w*)(?:\((?P<alias>[a-z]\w*)(?P<bang>!?)\))?(?P<rest>(?:\?|\[\d*\])*)"
    r"(?:\s+(?P<name>[A-Za-z_]\w*))?(?:\s*=\s*(?P<default>.+))?$"
)


# c10::ScalarType's numbering: a ScalarType default prints (and reads back) as its number
SCALAR_TYPE_CODES = {
    "uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5, "float32": 6,
    "float64": 7, "complex32": 8, "complex64": 9, "complex128": 10, "bool": 11, "bfloat16": 15,
    "half": 5, "float": 6, "double": 7, "long": 4, "int": 3, "short": 2,
}  # fmt: skip


def _fmt_default(typ: str, text: str) -> str:
    """A default's text as torch prints it: floats as C++ does (2.0 -> 2.), lists spaced."""
    text = text.strip()
    base = typ.rstrip("?")
    if base == "Device" and text[:1] in "\"'":
        return text[1:-1]
    if base == "ScalarType" and text in SCALAR_TYPE_CODES:
        return str(SCALAR_TYPE_CODES[text])
    if base == "float" and re.fullmatch(r"-?\d+\.0*", text):
        return text.split(".")[0] + "."
    if text.startswith("["):
        inner = [p.strip() for p in text[1:-1].split(",") if p.strip()]
        return "[" + ", ".join(inner) + "]"
    if text.startswith("'") and text.endswith("'"):
        return '"' + text[1:-1] + '"'
    return text


# the type names a schema may use (torch's schema type parser)
_TYPES = {
    "Tensor", "SymInt", "int", "float", "bool", "str", "Scalar", "ScalarType", "Device",
    "Layout", "MemoryFormat", "Generator", "Dimname", "Storage", "Stream", "SymFloat",
    "SymBool", "complex", "QScheme", "Any", "t", "AnyEnumType", "GraphModule",
}  # fmt: skip


def _find_token(src: str, token: str, context: str) -> int:
    """Where `token` (found in the argument text `context`) stands in src."""
    at = src.find(context)
    if at < 0:
        return max(src.find(token), 0)
    return at + context.find(token)


def _parse_arg(text: str, kwarg_only: bool, src: str, is_return: bool) -> Argument:
    m = _ARG.match(text)
    if m is None:
        pos = src.find(text)
        raise _parse_error("a type", src, max(pos, 0))
    alias = None
    if m.group("alias"):
        alias = AliasInfo(m.group("alias"), bool(m.group("bang")))
    name = m.group("name") or ""
    if not name and not is_return:
        pos = src.find(text) + len(text)
        raise _parse_error("ident", src, pos)
    typ = m.group("base") + m.group("rest")
    if m.group("base") not in _TYPES:
        pos = _find_token(src, m.group("base"), text)
        raise RuntimeError(
            "\nunknown type specifier. Common valid schema types include Tensor, SymInt, int, "
            "float, bool, Scalar; for a full list, please see "
            "https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func :"
            f"\n{src}\n{' ' * pos}{'~' * len(m.group('base'))} <--- HERE\n"
        )
    default = m.group("default")
    return Argument(
        name,
        typ,
        _fmt_default(typ, default) if default is not None else None,
        kwarg_only,
        alias,
        default is not None,
    )


def parse_schema(src: str, *, nameless: bool = False) -> FunctionSchema:
    """Parse `name.overload(args) -> returns` (torch._C.parse_schema)."""
    s = src.strip()
    if nameless:
        name, overload = "", ""
        rest = s
    else:
        m = _NAME.match(s)
        if m is None:
            raise _parse_error("ident", src, 0)
        full = m.group(0)
        name, _, overload = full.partition(".")
        rest = s[m.end() :]
        if not rest.startswith("("):
            pos = m.end() + len(rest) - len(rest.lstrip())
            tok = re.match(r"[A-Za-z_]\w*", rest.lstrip())
            found = "ident" if tok else (rest.lstrip()[:1] or "eof")
            width = len(tok.group(0)) if tok else 1
            raise RuntimeError(
                f"expected eof but found '{found}' here:\n{src}\n{' ' * pos}{'~' * width} "
                "<--- HERE\n"
            )
    depth, close = 0, -1
    for i, ch in enumerate(rest):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                close = i
                break
    if close < 0:
        arrow = src.find("->")
        if arrow >= 0:
            raise RuntimeError(
                f"expected ) but found 'arrow' here:\n{src}\n{' ' * arrow}~~ <--- HERE\n"
            )
        raise _parse_error(")", src, len(src))
    arg_text = rest[1:close]
    tail = rest[close + 1 :].strip()
    if not tail:
        raise RuntimeError(f"expected arrow but found 'eof' here:\n{src}")
    if not tail.startswith("->"):
        raise _parse_error("->", src, len(src) - len(tail))
    ret_text = tail[2:].strip()
    args: list[Argument] = []
    kwarg_only = False
    for part in _split_top(arg_text):
        if part == "*":
            kwarg_only = True
            continue
        args.append(_parse_arg(part, kwarg_only, src, False))
    returns_tuple = ret_text.startswith("(")
    if returns_tuple:
        inner = ret_text[1:-1]
        rets = [_parse_arg(p, False, src, True) for p in _split_top(inner)]
    else:
        rets = [_parse_arg(ret_text, False, src, True)]
    return FunctionSchema(name, overload, args, rets, returns_tuple)


def default_of(arg: Argument) -> Any:
    """The Python value of an argument's default."""
    text = arg.default
    if text is None or text == "None":
        return None
    if text in ("True", "False"):
        return text == "True"
    if text.startswith('"'):
        return text[1:-1]
    if text.startswith("["):
        return [_num(p) for p in text[1:-1].split(",") if p.strip()]
    base = str.__str__(arg.type).rstrip("?")
    if base == "Device":
        import shadowgrad

        return shadowgrad.device(text)
    return _num(text)  # a ScalarType default is its number, as torch's default_value


def _num(text: str) -> Any:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text
