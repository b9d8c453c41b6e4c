"""Pytrees: nested containers of leaves. Mirrors `torch.utils._pytree` (the Python one).

A pytree is a leaf or a node of a registered container type whose children are pytrees.
Registered from the start: tuple, list, dict, every namedtuple (as the one type `namedtuple`),
OrderedDict, defaultdict and deque; `torch.Size` and each `torch.return_types` class (as
torch's own modules register them); user types through `register_pytree_node`. Anything
else, None included, is a leaf. A tree's shape is its `TreeSpec`, printed as torch prints it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import threading
import types
import warnings
from collections import OrderedDict, defaultdict, deque, namedtuple
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple

__all__ = [
    "Context",
    "DumpableContext",
    "FlattenFn",
    "FromDumpableContextFn",
    "LeafSpec",
    "PyTree",
    "PyTreeSpec",
    "ToDumpableContextFn",
    "TreeSpec",
    "UnflattenFn",
    "is_namedtuple",
    "is_namedtuple_class",
    "is_namedtuple_instance",
    "is_structseq",
    "is_structseq_class",
    "is_structseq_instance",
    "key_get",
    "keystr",
    "register_pytree_node",
    "tree_all",
    "tree_all_only",
    "tree_any",
    "tree_any_only",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_is_leaf",
    "tree_iter",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_",
    "tree_map_only",
    "tree_map_only_",
    "tree_map_with_path",
    "tree_structure",
    "tree_unflatten",
    "treespec_dumps",
    "treespec_loads",
    "treespec_pprint",
]

PyTree = Any
Context = Any
DumpableContext = Any
FlattenFn = Callable[[PyTree], tuple[list[Any], Context]]
UnflattenFn = Callable[[Iterable[Any], Context], PyTree]
ToDumpableContextFn = Callable[[Context], DumpableContext]
FromDumpableContextFn = Callable[[DumpableContext], Context]
FlattenWithKeysFn = Callable[[PyTree], tuple[list[tuple[Any, Any]], Context]]
KeyPath = tuple[Any, ...]

NO_SERIALIZED_TYPE_NAME_FOUND = "NO_SERIALIZED_TYPE_NAME_FOUND"


class NodeDef(NamedTuple):
    type: type[Any]
    flatten_fn: FlattenFn
    unflatten_fn: UnflattenFn
    flatten_with_keys_fn: FlattenWithKeysFn | None


class _SerializeNodeDef(NamedTuple):
    typ: type[Any]
    serialized_type_name: str
    to_dumpable_context: ToDumpableContextFn | None
    from_dumpable_context: FromDumpableContextFn | None


_NODE_REGISTRY_LOCK = threading.Lock()
SUPPORTED_NODES: dict[type[Any], NodeDef] = {}
SUPPORTED_SERIALIZED_TYPES: dict[type[Any], _SerializeNodeDef] = {}
SERIALIZED_TYPE_TO_PYTHON_TYPE: dict[str, type[Any]] = {}


def register_pytree_node(
    cls: type[Any],
    flatten_fn: FlattenFn,
    unflatten_fn: UnflattenFn,
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: ToDumpableContextFn | None = None,
    from_dumpable_context: FromDumpableContextFn | None = None,
    flatten_with_keys_fn: FlattenWithKeysFn | None = None,
) -> None:
    """Register a container type as a pytree node: `flatten_fn(node)` gives (children,
    context), `unflatten_fn(children, context)` rebuilds it. A type registered already is
    refused (ValueError)."""
    with _NODE_REGISTRY_LOCK:
        if cls in SUPPORTED_NODES:
            raise ValueError(f"{cls} is already registered as pytree node.")
    _private_register_pytree_node(
        cls,
        flatten_fn,
        unflatten_fn,
        serialized_type_name=serialized_type_name,
        to_dumpable_context=to_dumpable_context,
        from_dumpable_context=from_dumpable_context,
        flatten_with_keys_fn=flatten_with_keys_fn,
    )


def _register_pytree_node(
    cls: type[Any],
    flatten_fn: FlattenFn,
    unflatten_fn: UnflattenFn,
    to_str_fn: Any = None,
    maybe_from_str_fn: Any = None,
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: ToDumpableContextFn | None = None,
    from_dumpable_context: FromDumpableContextFn | None = None,
    flatten_with_keys_fn: FlattenWithKeysFn | None = None,
) -> None:
    """The deprecated spelling of register_pytree_node (re-registering only warns)."""
    warnings.warn(
        "`torch.utils._pytree._register_pytree_node` is deprecated. "
        "Please use `torch.utils._pytree.register_pytree_node` instead.",
        FutureWarning,
        stacklevel=2,
    )
    if to_str_fn is not None or maybe_from_str_fn is not None:
        warnings.warn(
            "`to_str_fn` and `maybe_from_str_fn` is deprecated. "
            "Please use `to_dumpable_context` and `from_dumpable_context` instead.",
            FutureWarning,
            stacklevel=2,
        )
    _private_register_pytree_node(
        cls,
        flatten_fn,
        unflatten_fn,
        serialized_type_name=serialized_type_name,
        to_dumpable_context=to_dumpable_context,
        from_dumpable_context=from_dumpable_context,
        flatten_with_keys_fn=flatten_with_keys_fn,
    )


def _deregister_pytree_node(cls: type[Any]) -> None:
    with _NODE_REGISTRY_LOCK:
        del SUPPORTED_NODES[cls]
        node_def = SUPPORTED_SERIALIZED_TYPES.pop(cls)
        del SERIALIZED_TYPE_TO_PYTHON_TYPE[node_def.serialized_type_name]


def _private_register_pytree_node(
    cls: type[Any],
    flatten_fn: FlattenFn,
    unflatten_fn: UnflattenFn,
    *,
    serialized_type_name: str | None = None,
    to_dumpable_context: ToDumpableContextFn | None = None,
    from_dumpable_context: FromDumpableContextFn | None = None,
    flatten_with_keys_fn: FlattenWithKeysFn | None = None,
) -> None:
    with _NODE_REGISTRY_LOCK:
        if cls in SUPPORTED_NODES:
            warnings.warn(
                f"{cls} is already registered as pytree node. "
                "Overwriting the previous registration.",
                stacklevel=2,
            )
        SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)
        if (to_dumpable_context is None) ^ (from_dumpable_context is None):
            raise ValueError(
                f"Both to_dumpable_context and from_dumpable_context for {cls} must "
                "be None or registered."
            )
        name = (
            NO_SERIALIZED_TYPE_NAME_FOUND if serialized_type_name is None else serialized_type_name
        )
        SUPPORTED_SERIALIZED_TYPES[cls] = _SerializeNodeDef(
            cls, name, to_dumpable_context, from_dumpable_context
        )
        SERIALIZED_TYPE_TO_PYTHON_TYPE[name] = cls


def register_dataclass(
    cls: type[Any],
    *,
    field_names: list[str] | None = None,
    drop_field_names: list[str] | None = None,
    serialized_type_name: str | None = None,
) -> None:
    """Register a dataclass (or a class built from keyword fields) as a pytree node: its
    fields are its children, a field that is None is kept out of the leaves."""
    drop = drop_field_names or []
    if not dataclasses.is_dataclass(cls):
        if field_names is None:
            raise ValueError(
                "field_names must be specified with a list of all fields used to "
                f"initialize {cls}, as it is not a dataclass."
            )
    elif field_names is None:
        field_names = [f.name for f in dataclasses.fields(cls) if f.init]
    else:
        init_fields = {f.name for f in dataclasses.fields(cls) if f.init}
        init_fields.difference_update(drop)  # as torch's: the same sets print the same
        if init_fields != set(field_names):
            msg = "field_names does not include all dataclass fields.\n"
            if missing := init_fields - set(field_names):
                msg += (
                    f"Missing fields in `field_names`: {missing}. If you want to include these "
                    "fields in the pytree, please add them to `field_names`, otherwise please "
                    "add them to `drop_field_names`.\n"
                )
            if unexpected := set(field_names) - init_fields:
                msg += (
                    f"Unexpected fields in `field_names`: {unexpected}. Please remove these "
                    "fields, or add them to `drop_field_names`.\n"
                )
            raise ValueError(msg)
    names = list(field_names)

    def flatten(obj: Any) -> tuple[list[Any], Context]:
        values, kept, nones = [], [], []
        for name in names:
            v = getattr(obj, name)
            if v is None:
                nones.append(name)
            else:
                values.append(v)
                kept.append(name)
        return values, [kept, nones]

    def unflatten(values: Iterable[Any], context: Context) -> Any:
        kept, nones = context
        return cls(**dict(zip(kept, values, strict=True)), **dict.fromkeys(nones))

    def flatten_with_keys(obj: Any) -> tuple[list[tuple[Any, Any]], Context]:
        values, (kept, _) = flatten(obj)
        return [(GetAttrKey(k), v) for k, v in zip(kept, values, strict=True)], kept

    _private_register_pytree_node(
        cls,
        flatten,
        unflatten,
        serialized_type_name=serialized_type_name,
        flatten_with_keys_fn=flatten_with_keys,
    )


# --- key paths --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class SequenceKey:
    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def get(self, sequence: Sequence[Any]) -> Any:
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True, slots=True)
class MappingKey:
    key: Hashable

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def get(self, mapping: Mapping[Any, Any]) -> Any:
        return mapping[self.key]


@dataclasses.dataclass(frozen=True, slots=True)
class GetAttrKey:
    name: str

    def __str__(self) -> str:
        return f".{self.name}"

    def get(self, obj: Any) -> Any:
        return getattr(obj, self.name)


def keystr(kp: KeyPath) -> str:
    """A key path printed: `[0]['a'].field`."""
    return "".join(str(k) for k in kp)


def key_get(obj: Any, kp: KeyPath) -> Any:
    """The value at a key path."""
    for k in kp:
        obj = k.get(obj)
    return obj


# --- namedtuples and structseqs ---------------------------------------------------------------


def is_namedtuple(obj: object | type) -> bool:
    """Whether obj (an instance or a class) is a namedtuple."""
    return is_namedtuple_class(obj if isinstance(obj, type) else type(obj))


def is_namedtuple_class(cls: type) -> bool:
    """Whether cls is a namedtuple class: a tuple with string `_fields`, `_make` and
    `_asdict`."""
    return (
        isinstance(cls, type)
        and issubclass(cls, tuple)
        and isinstance(getattr(cls, "_fields", None), tuple)
        and all(type(f) is str for f in cls._fields)  # type: ignore[attr-defined]
        and callable(getattr(cls, "_make", None))
        and callable(getattr(cls, "_asdict", None))
    )


def is_namedtuple_instance(obj: object) -> bool:
    return is_namedtuple_class(type(obj))


_BASETYPE = 1 << 10  # Py_TPFLAGS_BASETYPE


def is_structseq(obj: object | type) -> bool:
    """Whether obj (an instance or a class) is a structseq (`torch.return_types.max`,
    `os.stat_result`)."""
    return is_structseq_class(obj if isinstance(obj, type) else type(obj))


def is_structseq_class(cls: type) -> bool:
    if not isinstance(cls, type):
        return False
    if getattr(cls, "__module__", None) == "shadowgrad.return_types":
        return True  # shadowgrad's return types, written in Python, stand for torch's
    return (
        cls.__bases__ == (tuple,)
        and isinstance(getattr(cls, "n_fields", None), int)
        and isinstance(getattr(cls, "n_sequence_fields", None), int)
        and isinstance(getattr(cls, "n_unnamed_fields", None), int)
        and not cls.__flags__ & _BASETYPE
    )


def is_structseq_instance(obj: object) -> bool:
    return is_structseq_class(type(obj))


# --- the built-in nodes -----------------------------------------------------------------------


def _seq_keys(flatten: FlattenFn) -> FlattenWithKeysFn:
    def with_keys(d: Any) -> tuple[list[tuple[Any, Any]], Context]:
        values, context = flatten(d)
        return [(SequenceKey(i), v) for i, v in enumerate(values)], context

    return with_keys


def _tuple_flatten(d: tuple[Any, ...]) -> tuple[list[Any], Context]:
    return list(d), None


def _tuple_unflatten(values: Iterable[Any], context: Context) -> tuple[Any, ...]:
    return tuple(values)


def _list_flatten(d: list[Any]) -> tuple[list[Any], Context]:
    return d, None


def _list_unflatten(values: Iterable[Any], context: Context) -> list[Any]:
    return list(values)


def _dict_flatten(d: dict[Any, Any]) -> tuple[list[Any], Context]:
    return list(d.values()), list(d.keys())


def _dict_flatten_with_keys(d: dict[Any, Any]) -> tuple[list[tuple[Any, Any]], Context]:
    values, context = _dict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(context, values, strict=True)], context


def _dict_unflatten(values: Iterable[Any], context: Context) -> dict[Any, Any]:
    return dict(zip(context, values, strict=True))


def _namedtuple_flatten(d: Any) -> tuple[list[Any], Context]:
    return list(d), type(d)


def _namedtuple_flatten_with_keys(d: Any) -> tuple[list[tuple[Any, Any]], Context]:
    values, context = _namedtuple_flatten(d)
    return [(GetAttrKey(f), v) for f, v in zip(context._fields, values, strict=True)], context


def _namedtuple_unflatten(values: Iterable[Any], context: Context) -> Any:
    return context(*values)


def _namedtuple_serialize(context: Context) -> DumpableContext:
    if context not in SUPPORTED_SERIALIZED_TYPES:
        raise NotImplementedError(
            f"Can't serialize TreeSpec of namedtuple class {context} because we "
            "didn't register a serializated_type_name. Please register using "
            "`_register_namedtuple`."
        )
    name = SUPPORTED_SERIALIZED_TYPES[context].serialized_type_name
    if name == NO_SERIALIZED_TYPE_NAME_FOUND:
        raise NotImplementedError(
            f"Can't serialize TreeSpec of namedtuple class {context} because we "
            "couldn't find a serializated_type_name. Please register using "
            "`_register_namedtuple`."
        )
    return name


def _namedtuple_deserialize(dumpable_context: DumpableContext) -> Context:
    if dumpable_context not in SERIALIZED_TYPE_TO_PYTHON_TYPE:
        raise NotImplementedError(
            f"Can't deserialize TreeSpec of namedtuple class {dumpable_context} "
            "because we couldn't find a serializated name."
        )
    return SERIALIZED_TYPE_TO_PYTHON_TYPE[dumpable_context]


def _ordereddict_unflatten(values: Iterable[Any], context: Context) -> OrderedDict[Any, Any]:
    return OrderedDict((k, v) for k, v in zip(context, values, strict=True))


def _defaultdict_flatten(d: defaultdict[Any, Any]) -> tuple[list[Any], Context]:
    values, keys = _dict_flatten(d)
    return values, [d.default_factory, keys]


def _defaultdict_flatten_with_keys(
    d: defaultdict[Any, Any],
) -> tuple[list[tuple[Any, Any]], Context]:
    values, context = _defaultdict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(context[1], values, strict=True)], context


def _defaultdict_unflatten(values: Iterable[Any], context: Context) -> defaultdict[Any, Any]:
    factory, keys = context
    return defaultdict(factory, _dict_unflatten(values, keys))


def _defaultdict_serialize(context: Context) -> DumpableContext:
    factory, keys = context
    return {
        "default_factory_module": factory.__module__,
        "default_factory_name": factory.__qualname__,
        "dict_context": keys,
    }


def _defaultdict_deserialize(dumpable_context: DumpableContext) -> Context:
    module = importlib.import_module(dumpable_context["default_factory_module"])
    return [
        getattr(module, dumpable_context["default_factory_name"]),
        dumpable_context["dict_context"],
    ]


def _deque_flatten(d: deque[Any]) -> tuple[list[Any], Context]:
    return list(d), d.maxlen


def _deque_unflatten(values: Iterable[Any], context: Context) -> deque[Any]:
    return deque(values, maxlen=context)


for _cls, _fl, _unfl, _name, _keys, _dump in (
    (tuple, _tuple_flatten, _tuple_unflatten, "builtins.tuple", None, None),
    (list, _list_flatten, _list_unflatten, "builtins.list", None, None),
    (dict, _dict_flatten, _dict_unflatten, "builtins.dict", _dict_flatten_with_keys, None),
    (
        namedtuple,
        _namedtuple_flatten,
        _namedtuple_unflatten,
        "collections.namedtuple",
        _namedtuple_flatten_with_keys,
        (_namedtuple_serialize, _namedtuple_deserialize),
    ),
    (
        OrderedDict,
        _dict_flatten,
        _ordereddict_unflatten,
        "collections.OrderedDict",
        _dict_flatten_with_keys,
        None,
    ),
    (
        defaultdict,
        _defaultdict_flatten,
        _defaultdict_unflatten,
        "collections.defaultdict",
        _defaultdict_flatten_with_keys,
        (_defaultdict_serialize, _defaultdict_deserialize),
    ),
    (deque, _deque_flatten, _deque_unflatten, "collections.deque", None, None),
):
    _private_register_pytree_node(
        _cls,  # type: ignore[arg-type]
        _fl,
        _unfl,
        serialized_type_name=_name,
        to_dumpable_context=None if _dump is None else _dump[0],
        from_dumpable_context=None if _dump is None else _dump[1],
        flatten_with_keys_fn=_seq_keys(_fl) if _keys is None else _keys,
    )


def _register_namedtuple(cls: type[Any], *, serialized_type_name: str) -> None:
    """Register a namedtuple class under a name, so that its specs serialize."""
    _private_register_pytree_node(
        cls,
        _namedtuple_flatten,
        _namedtuple_unflatten,
        serialized_type_name=serialized_type_name,
        to_dumpable_context=_namedtuple_serialize,
        from_dumpable_context=_namedtuple_deserialize,
        flatten_with_keys_fn=_namedtuple_flatten_with_keys,
    )


STANDARD_DICT_TYPES: frozenset[type] = frozenset({dict, OrderedDict, defaultdict})
BUILTIN_TYPES: frozenset[Any] = frozenset(
    {tuple, list, dict, namedtuple, OrderedDict, defaultdict, deque}
)


def _get_node_type(tree: Any) -> Any:
    # every namedtuple is the one node type `namedtuple`, even one registered itself
    t = type(tree)
    return namedtuple if is_namedtuple_class(t) else t


def tree_is_leaf(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> bool:
    """Whether tree is a leaf: is_leaf says so, or its type is no registered node (None is a
    leaf)."""
    if is_leaf is not None and is_leaf(tree):
        return True
    return _get_node_type(tree) not in SUPPORTED_NODES


# --- TreeSpec ---------------------------------------------------------------------------------


@dataclasses.dataclass(init=False, frozen=True, eq=True, repr=False, slots=True)
class TreeSpec:
    """The structure of a pytree: its root's node type (None for a leaf), the context that
    rebuilds the root, and a TreeSpec for each child."""

    type: Any
    _context: Context
    _children: list[Any]
    num_nodes: int = dataclasses.field(init=False)
    num_leaves: int = dataclasses.field(init=False)
    num_children: int = dataclasses.field(init=False)

    def __init__(self, type: Any, context: Context, children_specs: list[Any]) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "_context", context)
        object.__setattr__(self, "_children", children_specs)
        self.__post_init__()

    def __post_init__(self) -> None:
        if self.type is None:
            if self._context is not None:
                raise AssertionError("leaf node should not have a context")
            if len(self._children) != 0:
                raise AssertionError("leaf node should not have children")
            nodes, leaves = 1, 1
        else:
            nodes = 1 + sum(c.num_nodes for c in self._children)
            leaves = sum(c.num_leaves for c in self._children)
        object.__setattr__(self, "num_nodes", nodes)
        object.__setattr__(self, "num_leaves", leaves)
        object.__setattr__(self, "num_children", len(self._children))

    def __repr__(self, indent: int = 0) -> str:
        head = f"TreeSpec({self.type.__name__}, {self._context}, ["
        body = ""
        if self.num_children:
            indent += 2
            first, *rest = self._children
            body = first.__repr__(indent) + ("," if rest else "")
            body += ",".join("\n" + " " * indent + c.__repr__(indent) for c in rest)
        return f"{head}{body}])"

    def __eq__(self, other: Any) -> bool:
        if self is other:
            return True
        if other.__class__ is self.__class__:
            return (
                str(self.type) == str(other.type)
                and self._context == other._context
                and self._children == other._children
            )
        return NotImplemented

    def __hash__(self) -> int:
        t = self.type
        if t is defaultdict:
            ctx: Any = (self._context[0], tuple(self._context[1]))
        elif t in (dict, OrderedDict):
            ctx = tuple(self._context)
        elif t is None or t in BUILTIN_TYPES:
            ctx = self._context
        else:
            ctx = None  # a user type's context need not be hashable
        return hash((t, ctx, tuple(self._children)))

    @property
    def context(self) -> Context:
        return self._context

    @property
    def children_specs(self) -> list[Any]:
        warnings.warn(
            "`treespec.children_specs` is deprecated. Use `treespec.child(index)` to access a "
            "single child, or `treespec.children()` to get all children.",
            FutureWarning,
            stacklevel=2,
        )
        return self._children

    def is_leaf(self) -> bool:
        return self.num_nodes == 1 and self.num_leaves == 1

    def children(self) -> list[Any]:
        return self._children.copy()

    def child(self, index: int) -> Any:
        return self._children[index]

    def flatten_up_to(self, tree: PyTree) -> list[PyTree]:
        """The subtrees of tree at this spec's leaves (tree must have this spec as a prefix)."""
        out: list[PyTree] = []
        _flatten_up_to(self, tree, out)
        return out

    def unflatten(self, leaves: Iterable[Any]) -> PyTree:
        """The pytree of this structure holding `leaves`."""
        if not isinstance(leaves, (list, tuple)):
            leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(
                f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} "
                f"but the spec refers to a pytree that holds {self.num_leaves} "
                f"items ({self}).",
            )
        if self.is_leaf():
            return leaves[0]
        children = []
        start = 0
        for c in self._children:
            end = start + c.num_leaves
            children.append(c.unflatten(leaves[start:end]))
            start = end
        return SUPPORTED_NODES[self.type].unflatten_fn(children, self._context)


def _flatten_up_to(spec: TreeSpec, node: PyTree, out: list[PyTree]) -> None:
    if spec.is_leaf():
        out.append(node)
        return
    node_type = _get_node_type(node)
    if spec.type not in BUILTIN_TYPES:
        if node_type != spec.type:  # a user type must match exactly
            raise ValueError(f"Type mismatch; expected {spec.type!r}, but got {node_type!r}.")
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        if len(children) != spec.num_children:
            raise ValueError(
                f"Node arity mismatch; expected {spec.num_children}, but got {len(children)}."
            )
        if context != spec._context:
            raise ValueError(f"Node context mismatch for custom node type {spec.type!r}.")
    else:
        # the dict types stand in for each other; any other node type must match
        dicts = spec.type in STANDARD_DICT_TYPES and node_type in STANDARD_DICT_TYPES
        if not dicts and node_type != spec.type:
            raise ValueError(f"Node type mismatch; expected {spec.type!r}, but got {node_type!r}.")
        if len(node) != spec.num_children:
            raise ValueError(
                f"Node arity mismatch; expected {spec.num_children}, but got {len(node)}."
            )
        if dicts:
            keys = spec._context if spec.type is not defaultdict else spec._context[1]
            got, want = set(node), set(keys)
            if got != want:
                missing, extra = want - got, got - want
                msg = ""
                if missing:
                    msg += f"; missing key(s): {missing}"
                if extra:
                    msg += f"; extra key(s): {extra}"
                raise ValueError(f"Node keys mismatch{msg}.")
            children = [node[k] for k in keys]
        else:
            children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
            if node_type is not deque and context != spec._context:  # a deque's maxlen may differ
                raise ValueError(
                    f"Node context mismatch for node type {spec.type!r}; "
                    f"expected {spec._context!r}, but got {context!r}.",
                )
    for child, child_spec in zip(children, spec._children, strict=True):
        _flatten_up_to(child_spec, child, out)


PyTreeSpec = TreeSpec


@dataclasses.dataclass(init=False, frozen=True, eq=False, repr=False, slots=True)
class LeafSpec(TreeSpec):
    """The TreeSpec of a leaf (deprecated: torch warns on making one)."""

    def __init__(self) -> None:
        warnings.warn(
            "`isinstance(treespec, LeafSpec)` is deprecated, use `isinstance(treespec, "
            "TreeSpec) and treespec.is_leaf()` instead.",
            FutureWarning,
            stacklevel=2,
        )
        _init_leaf(self)

    def __repr__(self, indent: int = 0) -> str:
        return "*"


def _init_leaf(spec: TreeSpec) -> None:
    for name, value in (("type", None), ("_context", None), ("_children", [])):
        object.__setattr__(spec, name, value)
    for name in ("num_nodes", "num_leaves"):
        object.__setattr__(spec, name, 1)
    object.__setattr__(spec, "num_children", 0)


_LEAF_SPEC = object.__new__(LeafSpec)  # all leaves share one spec
_init_leaf(_LEAF_SPEC)


def treespec_leaf() -> TreeSpec:
    return _LEAF_SPEC


def treespec_tuple(iterable: Iterable[TreeSpec] = (), /) -> TreeSpec:
    children = list(iterable)
    if any(not isinstance(c, TreeSpec) for c in children):
        raise ValueError(f"Expected a tuple of TreeSpec values, got: {children!r}.")
    return TreeSpec(tuple, None, children)


def treespec_dict(
    mapping: Mapping[Any, TreeSpec] | Iterable[tuple[Any, TreeSpec]] = (),
    /,
    **kwargs: TreeSpec,
) -> TreeSpec:
    dct = dict(mapping, **kwargs)
    if any(not isinstance(c, TreeSpec) for c in dct.values()):
        raise ValueError(f"Expected a dictionary of TreeSpec values, got: {dct!r}.")
    return TreeSpec(dict, list(dct.keys()), list(dct.values()))


# --- flatten, unflatten, map ------------------------------------------------------------------


def tree_flatten(
    tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> tuple[list[Any], TreeSpec]:
    """The leaves of tree, left to right, and its TreeSpec."""
    leaves: list[Any] = []

    def walk(node: PyTree) -> TreeSpec:
        if tree_is_leaf(node, is_leaf=is_leaf):
            leaves.append(node)
            return _LEAF_SPEC
        node_type = _get_node_type(node)
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        return TreeSpec(node_type, context, [walk(c) for c in children])

    spec = walk(tree)
    return leaves, spec


def tree_unflatten(leaves: Iterable[Any], treespec: TreeSpec) -> PyTree:
    """The pytree of structure treespec holding leaves (the arguments may come swapped)."""
    if not isinstance(treespec, TreeSpec):
        if not isinstance(leaves, TreeSpec):
            raise TypeError(
                f"Expected `treespec` to be an instance of "
                f"PyTreeSpec but got item of type {type(treespec)}."
            )
        leaves, treespec = treespec, leaves
    return treespec.unflatten(leaves)


def tree_iter(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> Iterator[Any]:
    """The leaves of tree, lazily."""
    if tree_is_leaf(tree, is_leaf=is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_get_node_type(tree)].flatten_fn(tree)
    for c in children:
        yield from tree_iter(c, is_leaf=is_leaf)


def tree_leaves(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> list[Any]:
    return list(tree_iter(tree, is_leaf=is_leaf))


def tree_structure(tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None) -> TreeSpec:
    return tree_flatten(tree, is_leaf=is_leaf)[1]


def tree_map(
    func: Callable[..., Any],
    tree: PyTree,
    *rests: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    """A pytree of tree's structure holding func(leaf, *matching subtrees of rests): each of
    rests has tree's structure as a prefix.

    >>> tree_map(lambda x: x + 1, {"x": 7, "y": (42, 64)})
    {'x': 8, 'y': (43, 65)}
    """
    leaves, spec = tree_flatten(tree, is_leaf=is_leaf)
    args = [leaves] + [spec.flatten_up_to(r) for r in rests]
    return spec.unflatten(map(func, *args))


def tree_map_(
    func: Callable[..., Any],
    tree: PyTree,
    *rests: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    """tree_map for func's side effects: returns tree itself."""
    leaves, spec = tree_flatten(tree, is_leaf=is_leaf)
    args = [leaves] + [spec.flatten_up_to(r) for r in rests]
    deque(map(func, *args), maxlen=0)
    return tree


def map_only(type_or_types_or_pred: Any, /) -> Callable[[Callable[[Any], Any]], Any]:
    """A decorator: func applied to the values of the given type(s) (or passing the predicate),
    any other value returned as it is."""
    if isinstance(type_or_types_or_pred, (type, tuple, types.UnionType)):
        types_ = type_or_types_or_pred

        def pred(x: Any) -> bool:
            return isinstance(x, types_)

    elif callable(type_or_types_or_pred):
        pred = type_or_types_or_pred
    else:
        raise TypeError("Argument must be a type, a tuple of types, or a callable.")

    def wrapper(func: Callable[[Any], Any]) -> Callable[[Any], Any]:
        @functools.wraps(func)
        def wrapped(x: Any) -> Any:
            return func(x) if pred(x) else x

        return wrapped

    return wrapper


def tree_map_only(
    type_or_types_or_pred: Any,
    /,
    func: Callable[[Any], Any],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    return tree_map(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_map_only_(
    type_or_types_or_pred: Any,
    /,
    func: Callable[[Any], Any],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    return tree_map_(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_all(
    pred: Callable[[Any], bool], tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> bool:
    return all(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_any(
    pred: Callable[[Any], bool], tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> bool:
    return any(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_all_only(
    type_or_types: Any,
    /,
    pred: Callable[[Any], bool],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> bool:
    return all(pred(x) for x in tree_iter(tree, is_leaf=is_leaf) if isinstance(x, type_or_types))


def tree_any_only(
    type_or_types: Any,
    /,
    pred: Callable[[Any], bool],
    tree: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> bool:
    return any(pred(x) for x in tree_iter(tree, is_leaf=is_leaf) if isinstance(x, type_or_types))


def _broadcast_to_and_flatten(
    tree: PyTree, treespec: TreeSpec, is_leaf: Callable[[PyTree], bool] | None = None
) -> list[Any] | None:
    """tree broadcast to treespec's structure (each of its leaves repeated over the leaves of
    the subtree it stands for), flattened; None when tree is no prefix of it."""
    full = tree_unflatten([0] * treespec.num_leaves, treespec)
    result: list[Any] = []

    def add(x: Any, subtree: PyTree) -> None:
        result.extend([x] * tree_structure(subtree, is_leaf=is_leaf).num_leaves)

    try:
        tree_map_(add, tree, full, is_leaf=is_leaf)
    except ValueError:
        return None
    return result


class _Asterisk(str):
    __slots__ = ()

    def __new__(cls) -> _Asterisk:
        return super().__new__(cls, "*")

    def __repr__(self) -> str:
        return "*"


_asterisk = _Asterisk()


def treespec_pprint(treespec: TreeSpec) -> str:
    """The spec's tree printed with `*` at each leaf."""
    return repr(tree_unflatten([_asterisk] * treespec.num_leaves, treespec))


def arg_tree_leaves(*args: PyTree, **kwargs: PyTree) -> list[Any]:
    """tree_leaves((args, kwargs))."""
    leaves: list[Any] = []
    for a in (*args, *kwargs.values()):
        leaves.extend(tree_iter(a))
    return leaves


# --- serialization ---------------------------------------------------------------------------

DEFAULT_TREESPEC_SERIALIZATION_PROTOCOL = 1


class EnumEncoder(json.JSONEncoder):
    """JSON for contexts holding Enum members: their class's import path and name."""

    def default(self, obj: object) -> Any:
        if isinstance(obj, Enum):
            cls = obj.__class__
            return {
                "__enum__": True,
                "fqn": f"{cls.__module__}:{cls.__qualname__}",
                "name": obj.name,
            }
        return super().default(obj)


def enum_object_hook(obj: dict[str, Any]) -> Any:
    if "__enum__" in obj:
        module, _, qualname = obj["fqn"].partition(":")
        cls: Any = importlib.import_module(module)
        for attr in qualname.split("."):
            cls = getattr(cls, attr)
        return cls[obj["name"]]
    return obj


def _treespec_to_json(spec: TreeSpec) -> dict[str, Any]:
    if spec.is_leaf():
        return {"type": None, "context": None, "children_spec": []}
    if spec.type not in SUPPORTED_SERIALIZED_TYPES:
        raise NotImplementedError(f"Serializing {spec.type} in pytree is not registered.")
    node = SUPPORTED_SERIALIZED_TYPES[spec.type]
    if node.serialized_type_name == NO_SERIALIZED_TYPE_NAME_FOUND:
        raise NotImplementedError(
            f"No registered serialization name for {spec.type} found. Please update your "
            "_register_pytree_node call with a `serialized_type_name` kwarg."
        )
    if node.to_dumpable_context is None:
        try:
            context = json.dumps(spec._context, cls=EnumEncoder)
        except TypeError as e:
            raise TypeError(
                "Unable to serialize context. Please make the context json dump-able, or "
                "register a custom serializer using _register_pytree_node."
            ) from e
    else:
        context = node.to_dumpable_context(spec._context)
    children = [_treespec_to_json(c) for c in spec._children]
    return {"type": node.serialized_type_name, "context": context, "children_spec": children}


def _json_to_treespec(schema: Any) -> TreeSpec:
    if schema["type"] is None and schema["context"] is None and not schema["children_spec"]:
        return _LEAF_SPEC
    if schema["type"] not in SERIALIZED_TYPE_TO_PYTHON_TYPE:
        raise NotImplementedError(f"Deserializing {schema['type']} in pytree is not registered.")
    typ = SERIALIZED_TYPE_TO_PYTHON_TYPE[schema["type"]]
    node = SUPPORTED_SERIALIZED_TYPES[typ]
    if node.from_dumpable_context is None:
        try:
            context = json.loads(schema["context"], object_hook=enum_object_hook)
        except TypeError as e:
            raise TypeError(
                "Unable to deserialize context. Please make the context json load-able, or "
                "register a custom serializer using _register_pytree_node.",
            ) from e
    else:
        context = node.from_dumpable_context(schema["context"])
    return TreeSpec(typ, context, [_json_to_treespec(c) for c in schema["children_spec"]])


def treespec_dumps(treespec: TreeSpec, protocol: int | None = None) -> str:
    """The spec as a JSON string: `[protocol, {"type", "context", "children_spec"}]`."""
    if not isinstance(treespec, TreeSpec):
        raise TypeError(
            f"Expected `treespec` to be an instance of PyTreeSpec but got item of type "
            f"{type(treespec)}."
        )
    if protocol is None:
        protocol = DEFAULT_TREESPEC_SERIALIZATION_PROTOCOL
    if protocol != 1:
        raise ValueError(f"Unknown protocol {protocol}. Available protocols: [1]")
    return json.dumps((protocol, _treespec_to_json(treespec)), cls=EnumEncoder)


@functools.lru_cache
def treespec_loads(serialized: str) -> TreeSpec:
    """The spec treespec_dumps wrote."""
    protocol, schema = json.loads(serialized)
    if protocol != 1:
        raise ValueError(f"Unknown protocol {protocol}. Available protocols: [1]")
    return _json_to_treespec(schema)


# --- key paths over trees ---------------------------------------------------------------------


def _key_paths(
    path: KeyPath, tree: PyTree, is_leaf: Callable[[PyTree], bool] | None
) -> Iterator[tuple[KeyPath, Any]]:
    if is_leaf and is_leaf(tree):
        yield path, tree
        return
    node_type = _get_node_type(tree)
    handler = SUPPORTED_NODES.get(node_type)
    if not handler:
        yield path, tree
        return
    if not handler.flatten_with_keys_fn:
        raise ValueError(
            f"Did not find a flatten_with_keys_fn for type: {node_type}. "
            "Please pass a flatten_with_keys_fn argument to register_pytree_node."
        )
    for k, c in handler.flatten_with_keys_fn(tree)[0]:
        yield from _key_paths((*path, k), c, is_leaf)


def tree_flatten_with_path(
    tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> tuple[list[tuple[KeyPath, Any]], TreeSpec]:
    """tree_flatten with each leaf's key path: ([(path, leaf), ...], spec)."""
    _, spec = tree_flatten(tree, is_leaf)
    return list(_key_paths((), tree, is_leaf)), spec


def tree_leaves_with_path(
    tree: PyTree, is_leaf: Callable[[PyTree], bool] | None = None
) -> list[tuple[KeyPath, Any]]:
    return list(_key_paths((), tree, is_leaf))


def tree_map_with_path(
    func: Callable[..., Any],
    tree: PyTree,
    *rests: PyTree,
    is_leaf: Callable[[PyTree], bool] | None = None,
) -> PyTree:
    """tree_map whose func takes each leaf's key path first."""
    path_leaves, spec = tree_flatten_with_path(tree, is_leaf)
    columns = list(zip(*path_leaves, strict=True)) + [spec.flatten_up_to(r) for r in rests]
    return spec.unflatten(func(*xs) for xs in zip(*columns, strict=True))


# --- shadowgrad's own node types, registered as torch's modules register theirs ---------------


def _register_shadowgrad_types() -> None:
    from .. import _size
    from ..ops.sorting import return_types

    register_pytree_node(
        _size.Size,
        lambda xs: (list(xs), None),
        lambda xs, _: tuple(xs),
        flatten_with_keys_fn=lambda xs: ([(SequenceKey(i), x) for i, x in enumerate(xs)], None),
        serialized_type_name="torch.Size",
    )
    for name in sorted(vars(return_types)):
        cls = getattr(return_types, name)
        if name.startswith("__") or not isinstance(cls, type) or not issubclass(cls, tuple):
            continue
        register_pytree_node(
            cls,
            lambda s: (list(s), None),
            lambda values, _, cls=cls: cls(values),
            flatten_with_keys_fn=lambda s: ([(SequenceKey(i), v) for i, v in enumerate(s)], None),
        )


_register_shadowgrad_types()
