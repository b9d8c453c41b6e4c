"""Programs for what torch's docstring examples found missing: `torch.utils._pytree` (flatten,
unflatten, map over nested containers of tensors, TreeSpec and its printed form, user node
types, key paths, prefix matching and its errors), `torch.func.rearrange` (einops patterns,
their parse errors and warnings, binding errors, the view/alias/copy its result is and the
gradients through it), `torch.autograd.enforce_grad_layout_policy` (the layout a leaf's first
gradient keeps), ldexp's resize warning and `torch.random.thread_safe_generator`. The programs
register into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs
on torch and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import contextlib
import warnings
from collections import OrderedDict, defaultdict, deque, namedtuple
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program

Point = namedtuple("Point", "x y")


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _p(T: Any) -> Any:
    return T.utils._pytree


def _tree(T: Any) -> Any:
    return {
        "a": [_x(T, 2, rg=False), (_x(T, 3, seed=1, rg=False), 7)],
        "b": None,
        "c": Point(_x(T, 1, seed=2, rg=False), "s"),
        "d": OrderedDict(z=1.5, y=_x(T, 2, 2, seed=3, rg=False)),
        "e": defaultdict(list, {"k": _x(T, 2, seed=4, rg=False)}),
    }


# --- flatten / unflatten / TreeSpec --------------------------------------------------------


@program()
def prog_ptr_flatten_nested_containers(T: Any) -> Any:
    p = _p(T)
    leaves, spec = p.tree_flatten(_tree(T))
    back = p.tree_unflatten(leaves, spec)
    return (
        leaves,
        repr(spec),
        str(spec),
        spec.num_leaves,
        spec.num_nodes,
        spec.num_children,
        spec.type.__name__,
        spec.context,
        type(back["c"]).__name__,
        type(back["d"]).__name__,
        type(back["e"]).__name__,
        back["e"].default_factory is list,
        list(back["d"]),
        back,
    )


@program()
def prog_ptr_leaves_are_none_scalars_strings_tensors(T: Any) -> Any:
    p = _p(T)
    return [
        (lambda r: (r[0], repr(r[1])))(p.tree_flatten(v))
        for v in (None, 5, "abc", 2.5, T.ones(2), [], (), {}, [None], (None, ()), {"a": []})
    ]


@program()
def prog_ptr_treespec_repr_shapes(T: Any) -> Any:
    p = _p(T)
    specs = [
        p.tree_structure([1, 2]),
        p.tree_structure((1, [2, (3, 4)], {"k": 5})),
        p.tree_structure({"b": 1, "a": [2, 3]}),
        p.tree_structure(OrderedDict(b=1, a=2)),
        p.tree_structure(defaultdict(int, x=1)),
        p.tree_structure(Point(1, (2, 3))),
        p.tree_structure(deque([1, 2], maxlen=4)),
        p.tree_structure([[[]]]),
        p.tree_structure(5),
    ]
    return [repr(s) for s in specs], [s.is_leaf() for s in specs], [s.num_leaves for s in specs]


@program()
def prog_ptr_treespec_equality_and_hash(T: Any) -> Any:
    p = _p(T)
    a = p.tree_structure({"x": [1, 2], "y": 3})
    b = p.tree_structure({"x": [T.ones(1), "q"], "y": None})
    c = p.tree_structure({"y": 3, "x": [1, 2]})
    d = p.tree_structure(OrderedDict(x=[1, 2], y=3))
    return (
        a == b,
        hash(a) == hash(b),
        a == c,
        a == d,
        a != c,
        p.tree_structure(1) == p.tree_structure(T.ones(3)),
        len({a, b, c}),
        p.tree_structure((1, 2)) == p.tree_structure([1, 2]),
    )


@program()
def prog_ptr_treespec_children_and_unflatten(T: Any) -> Any:
    p = _p(T)
    spec = p.tree_structure((1, {"a": 2, "b": [3, 4]}))
    kids = spec.children()
    return (
        [repr(k) for k in kids],
        repr(spec.child(1)),
        spec.child(1).context,
        spec.unflatten([10, 20, 30, 40]),
        spec.unflatten(iter([T.ones(1), 2, 3, 4])),
        raises(lambda: spec.unflatten([1, 2, 3])),
        raises(lambda: spec.unflatten([])),
        raises(lambda: spec.child(5)),
    )


@program()
def prog_ptr_children_specs_deprecated(T: Any) -> Any:
    p = _p(T)
    spec = p.tree_structure([1, (2, 3)])
    return [repr(c) for c in spec.children_specs]


@program()
def prog_ptr_leafspec_and_treespec_builders(T: Any) -> Any:
    p = _p(T)
    leaf = p.treespec_leaf()
    tup = p.treespec_tuple([leaf, p.treespec_dict(a=leaf, b=leaf)])
    return (
        repr(leaf),
        leaf.is_leaf(),
        repr(tup),
        tup.num_leaves,
        p.tree_unflatten([1, 2, 3], tup),
        repr(p.treespec_dict({"x": leaf})),
        raises(lambda: p.treespec_tuple([leaf, 3])),
        raises(lambda: p.treespec_dict(a=1)),
        repr(p.LeafSpec()),
        isinstance(p.tree_structure(1), p.TreeSpec),
        p.tree_structure(1) == leaf,
    )


@program()
def prog_ptr_tree_unflatten_argument_checks(T: Any) -> Any:
    p = _p(T)
    leaves, spec = p.tree_flatten([1, (2, 3)])
    return (
        p.tree_unflatten(spec, leaves),  # swapped: torch takes them either way
        raises(lambda: p.tree_unflatten(leaves, [1, 2])),
        raises(lambda: p.tree_unflatten(leaves, None)),
        p.tree_unflatten((5, 6, 7), spec),
    )


# --- map and friends -----------------------------------------------------------------------


@program()
def prog_ptr_tree_map_docstring_examples(T: Any) -> Any:
    p = _p(T)
    return (
        p.tree_map(lambda x: x + 1, {"x": 7, "y": (42, 64)}),
        p.tree_map(lambda x: x is None, {"x": 7, "y": (42, 64), "z": None}),
        p.tree_map(lambda x, y: [x] + y, [5, 6], [[7, 9], [1, 2]]),  # noqa: RUF005
        type(p.tree_map(lambda x: x, {"x": (1, 2)})["x"]).__name__,
    )


@program()
def prog_ptr_tree_map_tensors_with_grad(T: Any) -> Any:
    p = _p(T)
    w = {"w": _x(T, 3, 2), "b": [_x(T, 2, seed=1)], "n": None, "k": 3}
    scaled = p.tree_map(lambda t: t * 2 if isinstance(t, T.Tensor) else t, w)
    loss = sum(t.sum() for t in p.tree_leaves(scaled) if isinstance(t, T.Tensor))
    loss.backward()
    return scaled, loss, w["w"].grad, w["b"][0].grad, scaled["w"].grad_fn


@program()
def prog_ptr_tree_map_multiple_trees_prefix(T: Any) -> Any:
    p = _p(T)
    a = {"x": 1, "y": [2, 3]}
    b = {"y": [T.ones(1), T.zeros(1)], "x": T.ones(2)}  # other key order: keys matched
    c = OrderedDict(x=10, y=[20, 30])
    return (
        p.tree_map(lambda u, v: v * u, a, b),
        p.tree_map(lambda u, v, w: u + w, a, b, c),
        p.tree_map(lambda u, v: (u, v), [1, 2], [{"k": 1}, (2, 3)]),
    )


@program()
def prog_ptr_tree_map_mismatch_errors(T: Any) -> Any:
    p = _p(T)
    f = lambda *xs: xs  # noqa: E731
    return (
        raises(lambda: p.tree_map(f, [1, 2], [1, 2, 3])),
        raises(lambda: p.tree_map(f, [1, 2], (1, 2))),
        raises(lambda: p.tree_map(f, {"a": 1, "b": 2}, {"a": 1, "c": 2})),
        raises(lambda: p.tree_map(f, {"a": 1}, {"a": 1, "b": 2})),
        raises(lambda: p.tree_map(f, [1, [2]], [1, 3])),
        raises(lambda: p.tree_map(f, Point(1, 2), (1, 2))),
        raises(lambda: p.tree_map(f, (1, 2), Point(1, 2))),
        raises(lambda: p.tree_map(f, [1], 5)),
        p.tree_map(f, deque([1, 2]), deque([3, 4], maxlen=5)),
        p.tree_map(f, defaultdict(int, a=1), {"a": 2}),
    )


@program()
def prog_ptr_tree_map_is_leaf(T: Any) -> Any:
    p = _p(T)
    tree = {"pair": (1, 2), "list": [3, (4, 5)], "t": T.ones(2)}
    is_tuple = lambda x: isinstance(x, tuple)  # noqa: E731
    return (
        p.tree_map(lambda x: str(x), tree, is_leaf=is_tuple),
        p.tree_leaves(tree, is_leaf=is_tuple),
        repr(p.tree_structure(tree, is_leaf=is_tuple)),
        p.tree_flatten(tree, is_leaf=lambda x: isinstance(x, list))[0],
        p.tree_is_leaf((1, 2), is_leaf=is_tuple),
        p.tree_is_leaf((1, 2)),
        p.tree_is_leaf(None),
        p.tree_is_leaf({"a": None}),
        p.tree_is_leaf(T.ones(2)),
    )


@program()
def prog_ptr_tree_map_inplace_and_only(T: Any) -> Any:
    p = _p(T)
    tree = [T.ones(2), (T.zeros(1), 3), {"s": "x", "f": 1.5}]
    seen: list[Any] = []
    r = p.tree_map_(seen.append, tree)
    p.tree_map_only_(T.Tensor, lambda t: t.add_(1), tree)
    doubled = p.tree_map_only(T.Tensor, lambda t: t * 2, tree)
    ints = p.tree_map_only((int, float), lambda v: -v, tree)
    by_pred = p.tree_map_only(lambda v: isinstance(v, str), str.upper, tree)
    return (
        r is tree,
        seen,
        tree,
        doubled,
        ints,
        by_pred,
        raises(lambda: p.tree_map_only(3, abs, tree)),
    )


@program()
def prog_ptr_tree_all_any(T: Any) -> Any:
    p = _p(T)
    tree = {"a": [1, 2, T.ones(2)], "b": (None, 0)}
    is_t = lambda x: isinstance(x, T.Tensor)  # noqa: E731
    return (
        p.tree_all(lambda x: x is not None, tree),
        p.tree_any(lambda x: x is None, tree),
        p.tree_any(is_t, tree),
        p.tree_all(is_t, []),
        p.tree_any(is_t, []),
        p.tree_all_only(int, lambda v: v >= 0, tree),
        p.tree_any_only(int, lambda v: v > 1, tree),
        p.tree_all_only(T.Tensor, lambda t: bool((t == 1).all()), tree),
        p.tree_any_only((str, float), bool, tree),
        p.tree_all(lambda v: v is not None, tree, is_leaf=lambda x: isinstance(x, tuple)),
    )


@program()
def prog_ptr_tree_iter_and_leaves(T: Any) -> Any:
    p = _p(T)
    tree = ((1, [2]), {"z": 3, "a": 4}, Point(5, 6), deque([7]))
    it = p.tree_iter(tree)
    first = next(it)
    return first, list(it), p.tree_leaves(tree), p.arg_tree_leaves(1, [2, 3], k={"v": 4})


# --- namedtuples, structseqs, Size ----------------------------------------------------------


@program()
def prog_ptr_namedtuple_and_structseq(T: Any) -> Any:
    p = _p(T)
    x = _x(T, 2, 3, rg=False)
    mx = T.max(x, 1)
    leaves, spec = p.tree_flatten(mx)
    back = p.tree_map(lambda t: t + 1, mx)
    return (
        leaves,
        repr(spec),
        type(back).__name__,
        back.values,
        p.is_namedtuple(Point(1, 2)),
        p.is_namedtuple(Point),
        p.is_namedtuple((1, 2)),
        p.is_namedtuple_class(Point),
        p.is_namedtuple_instance(mx),
        p.is_structseq(mx),
        p.is_structseq_class(type(mx)),
        p.is_structseq_instance(Point(1, 2)),
        repr(p.tree_structure(T.sort(x))),
    )


@program()
def prog_ptr_size_is_a_node(T: Any) -> Any:
    p = _p(T)
    s = T.ones(2, 3).shape
    leaves, spec = p.tree_flatten({"shape": s})
    back = p.tree_unflatten(leaves, spec)
    return leaves, repr(spec), type(back["shape"]).__name__, back


@program()
def prog_ptr_namedtuple_spec_context(T: Any) -> Any:
    p = _p(T)
    spec = p.tree_structure(Point(1, [2, 3]))
    other = namedtuple("Point", "x y")
    return (
        spec.context is Point,
        repr(spec),
        p.tree_unflatten(["a", "b", "c"], spec),
        raises(lambda: p.tree_map(lambda a, b: a, Point(1, 2), other(1, 2))),
        p.tree_map(lambda a, b: (a, b), Point(1, 2), Point(3, 4)),
    )


# --- user node types -----------------------------------------------------------------------


class _Pair:
    def __init__(self, a: Any, b: Any, tag: str = "t") -> None:
        self.a, self.b, self.tag = a, b, tag

    def __repr__(self) -> str:
        return f"_Pair({self.a!r}, {self.b!r}, {self.tag!r})"


def _register_pair(p: Any) -> None:
    if _Pair not in p.SUPPORTED_NODES:
        p.register_pytree_node(
            _Pair,
            lambda x: ([x.a, x.b], x.tag),
            lambda xs, tag: _Pair(xs[0], xs[1], tag),
            flatten_with_keys_fn=lambda x: (
                [(p.GetAttrKey("a"), x.a), (p.GetAttrKey("b"), x.b)],
                x.tag,
            ),
        )


@program()
def prog_ptr_register_user_node(T: Any) -> Any:
    p = _p(T)
    _register_pair(p)
    tree = {"p": _Pair(_x(T, 2), [1, 2])}
    leaves, spec = p.tree_flatten(tree)
    mapped = p.tree_map(lambda v: v * 3, tree)
    mapped["p"].a.sum().backward()
    return (
        leaves,
        repr(spec),
        repr(mapped),
        tree["p"].a.grad,
        raises(lambda: p.register_pytree_node(_Pair, lambda x: ([], None), lambda xs, c: None)),
        raises(lambda: p.tree_map(lambda u, v: u, _Pair(1, 2, "t"), _Pair(1, 2, "u"))),
        raises(lambda: p.tree_map(lambda u, v: u, _Pair(1, 2), (1, 2))),
        p.tree_is_leaf(_Pair(1, 2)),
    )


@program()
def prog_ptr_register_node_serialization_pairing(T: Any) -> Any:
    p = _p(T)

    class Box:
        def __init__(self, v: Any) -> None:
            self.v = v

    out = raises(
        lambda: p.register_pytree_node(
            Box, lambda b: ([b.v], None), lambda xs, c: Box(xs[0]), to_dumpable_context=str
        )
    )
    unreg = p.tree_is_leaf(Box(1))
    with contextlib.suppress(KeyError):  # registered, then refused: torch's order
        p._deregister_pytree_node(Box)
    return out, unreg


@program()
def prog_ptr_user_node_without_keys(T: Any) -> Any:
    p = _p(T)

    class Bag:
        def __init__(self, items: list[Any]) -> None:
            self.items = items

    p.register_pytree_node(Bag, lambda b: (b.items, None), lambda xs, c: Bag(list(xs)))
    try:
        flat = p.tree_leaves({"b": Bag([1, 2])})
        keyed = raises(lambda: p.tree_leaves_with_path({"b": Bag([1, 2])}))
    finally:
        p._deregister_pytree_node(Bag)
    return flat, keyed


@program()
def prog_ptr_register_dataclass(T: Any) -> Any:
    import dataclasses

    p = _p(T)

    @dataclasses.dataclass
    class Batch:
        x: Any
        y: Any = None
        note: str = dataclasses.field(default="n", init=True)

    p.register_dataclass(Batch, field_names=["x", "y"], drop_field_names=["note"])
    try:
        b = Batch(_x(T, 2), None)
        leaves, spec = p.tree_flatten(b)
        doubled = p.tree_map(lambda t: t * 2, b)
        doubled.x.sum().backward()
        out = (
            leaves,
            repr(spec),
            spec.context,
            type(doubled).__name__,
            doubled.y,
            b.x.grad,
            [p.keystr(k) for k, _ in p.tree_leaves_with_path(Batch(1, 2))],
            p.tree_leaves(Batch(1, [2, 3])),
        )
    finally:
        p._deregister_pytree_node(Batch)

    class Plain:
        def __init__(self, a: Any) -> None:
            self.a = a

    return (
        out,
        raises(lambda: p.register_dataclass(Plain)),
        raises(lambda: p.register_dataclass(Batch, field_names=["x"])),
        raises(lambda: p.register_dataclass(Batch, field_names=["x", "y", "z"])),
    )


@program()
def prog_ptr_treespec_dumps_loads(T: Any) -> Any:
    p = _p(T)
    trees = (
        [1, (2, 3)],
        {"a": 1, "b": [2]},
        OrderedDict(z=1),
        defaultdict(list, k=1),
        deque([1], maxlen=3),
        5,
        None,
        {1: 2},
        T.ones(2, 3).shape,
    )
    out = []
    for tree in trees:
        spec = p.tree_structure(tree)
        text = p.treespec_dumps(spec)
        back = p.treespec_loads(text)
        out.append((text, back == spec, repr(back)))
    Named = namedtuple("Named", "u v")
    p._register_namedtuple(Named, serialized_type_name="prog.Named")
    try:
        named = p.treespec_dumps(p.tree_structure(Named(1, [2])))
        named_back = repr(p.treespec_loads(named))
    finally:
        p._deregister_pytree_node(Named)
    unknown = '[1, {"type": "x.Y", "context": "null", "children_spec": []}]'
    return (
        out,
        named,
        named_back,
        raises(lambda: p.treespec_dumps(p.tree_structure(Point(1, 2)))),
        raises(lambda: p.treespec_dumps(p.tree_structure([1]), protocol=2)),
        raises(lambda: p.treespec_loads("[3, {}]")),
        raises(lambda: p.treespec_loads(unknown)),
        raises(lambda: p.treespec_dumps([1])),
    )


# --- key paths -----------------------------------------------------------------------------


@program()
def prog_ptr_key_paths(T: Any) -> Any:
    p = _p(T)
    tree = {"a": [1, (2, 3)], "p": Point(4, 5), "o": OrderedDict(k=6), "q": deque([7])}
    pairs, spec = p.tree_flatten_with_path(tree)
    return (
        [(p.keystr(kp), v) for kp, v in pairs],
        [[str(k) for k in kp] for kp, _ in pairs],
        [p.key_get(tree, kp) for kp, _ in pairs],
        repr(spec),
        [p.keystr(kp) for kp, _ in p.tree_leaves_with_path(tree)],
        p.tree_map_with_path(lambda kp, v: f"{p.keystr(kp)}={v}", tree),
        p.tree_map_with_path(lambda kp, u, w: (len(kp), u + w), [1, 2], [10, 20]),
        p.keystr(()),
    )


@program()
def prog_ptr_key_entry_objects(T: Any) -> Any:
    p = _p(T)
    k1, k2, k3 = p.SequenceKey(2), p.MappingKey("x"), p.GetAttrKey("y")
    return (
        str(k1),
        str(k2),
        str(k3),
        repr(k1),
        repr(k2),
        repr(k3),
        k1 == p.SequenceKey(2),
        k2.get({"x": 5}),
        k1.get([0, 1, 2]),
        k3.get(Point(1, 2)),
        p.keystr((k2, k1, k3)),
        raises(lambda: setattr(k1, "idx", 3)),
    )


@program()
def prog_ptr_treespec_pprint_and_broadcast(T: Any) -> Any:
    p = _p(T)
    spec = p.tree_structure({"a": [1, 2], "b": (3,)})
    return (
        p.treespec_pprint(spec),
        p.treespec_pprint(p.tree_structure(7)),
        p._broadcast_to_and_flatten(0, spec),
        p._broadcast_to_and_flatten({"a": 1, "b": 2}, spec),
        p._broadcast_to_and_flatten({"a": [1, 2], "b": 5}, spec),
        p._broadcast_to_and_flatten([1, 2], spec),
        p._broadcast_to_and_flatten({"a": [1, 2, 3], "b": 5}, spec),
    )


@program()
def prog_ptr_flatten_up_to(T: Any) -> Any:
    p = _p(T)
    spec = p.tree_structure([1, {"k": 2}])
    return (
        spec.flatten_up_to([[1, 2], {"k": (3, 4)}]),
        spec.flatten_up_to([T.ones(1), OrderedDict(k=None)]),
        raises(lambda: spec.flatten_up_to([1, {"j": 2}])),
        raises(lambda: spec.flatten_up_to([1, {"k": 2, "j": 3}])),
        raises(lambda: spec.flatten_up_to((1, {"k": 2}))),
    )


@program()
def prog_ptr_checkpoint_module_tree_map(T: Any) -> Any:
    import importlib

    ck = importlib.import_module(T.__name__ + ".utils.checkpoint")
    return ck.tree_map is T.utils._pytree.tree_map, ck.tree_map(abs, [-1, (-2,)])


@program()
def prog_ptr_tree_map_state_dict_like(T: Any) -> Any:
    p = _p(T)
    m = T.nn.Linear(3, 2)
    with T.no_grad():
        for i, prm in enumerate(m.parameters()):
            prm.copy_(T.tensor(_data(*prm.shape, seed=i)))
    sd = m.state_dict()
    halves = p.tree_map(lambda t: t / 2, sd)
    shapes = p.tree_map(lambda t: tuple(t.shape), dict(sd))
    return type(sd).__name__, type(halves).__name__, list(halves), halves, shapes


# --- torch.func transforms over pytrees ----------------------------------------------------


@program()
def prog_ptr_func_transforms_keep_namedtuples(T: Any) -> Any:
    # torch.func flattens with torch's pytree: namedtuples, OrderedDicts and structseqs come
    # back as themselves (shadowgrad's own flattening returned lists and dicts)
    x = T.tensor(_data(3, 2))
    vm = T.func.vmap
    a = vm(lambda v: Point(v * 2, v.sum()))(x)
    b = vm(lambda p: p.x + p.y)(Point(x, x))
    c = vm(lambda v: OrderedDict(z=v, a=v.sum()))(x)
    d = vm(lambda p: p.x * p.y, in_dims=(Point(0, None),))(Point(x, T.ones(2)))
    e = vm(lambda v: T.max(v, 0))(x)
    f = T.func.grad(lambda p: (p.x * p.y).sum())(Point(x, x + 1))
    g = T.func.grad(lambda p: (p["a"] * 2).sum())(OrderedDict(a=x))
    h = T.func.jacrev(lambda v: Point(v.sum(), (v * v).sum()))(T.ones(2))
    i = T.func.vjp(lambda v: Point(v * 2, v), T.ones(2))[1](Point(T.ones(2), T.ones(2)))
    j = T.func.jvp(lambda p: Point(p.y, p.x), (Point(T.ones(2), T.zeros(2)),), (Point(x[0], x[1]),))
    names = [type(r).__name__ for r in (a, c, e, f, g, h, j[0], j[1])]
    return names, a, b, c, d, e, f, g, h, i, j


@program()
def prog_ptr_func_structure_errors_print_treespecs(T: Any) -> Any:
    x = T.ones(3, 2)
    vm = T.func.vmap
    return (
        raises(lambda: vm(lambda v: Point(v, v), out_dims=(0, 1, 0))(x)),
        raises(lambda: vm(lambda p: p.x, in_dims=(Point(0, 0), 0))(Point(x, x))),
        raises(lambda: vm(lambda a, b: a, in_dims=(0, (0, 0)))(x, Point(x, x))),
        raises(lambda: T.func.jvp(lambda p: p.x, (Point(T.ones(2), T.ones(2)),), ((T.ones(2),),))),
        raises(lambda: T.func.vjp(lambda v: Point(v, v), T.ones(2))[1]((T.ones(2), T.ones(2)))),
    )


@program()
def prog_ptr_func_vjp_refuses_integer_outputs(T: Any) -> Any:
    # found next to the pytree work: torch's vjp (and jacrev, hessian built on it) refuses a
    # non-floating output; grad and jacfwd do not
    F = T.func
    x = T.tensor(_data(2))
    return (
        raises(lambda: F.vjp(lambda v: v.long(), x)),
        raises(lambda: F.vjp(lambda v: (v, v > 0), x)),
        raises(lambda: F.jacrev(lambda v: v.long())(x)),
        raises(lambda: F.jacrev(lambda v: {"a": v, "b": v.int()})(x)),
        raises(lambda: F.hessian(lambda v: v.long().sum())(x)),
        raises(lambda: F.vjp(lambda v: (v, 3), x)),
        F.jacfwd(lambda v: v.long())(x),
        F.grad(lambda v: v.long().sum())(x),
        F.vjp(lambda v: v.double() * 2, x)[1](T.ones(2, dtype=T.float64)),
        F.vjp(lambda v: v * 1j, x)[0],
    )


# --- rearrange -----------------------------------------------------------------------------


_PATTERNS = (
    "a b c -> a b c",
    "a b c -> c b a",
    "a b c -> a (b c)",
    "a b c -> (a b) c",
    "a b c -> (c a) b",
    "a b c -> c (a b)",
    "a b c -> b (a c)",
    "a b c -> (a b c)",
    "a b c -> a c b 1",
    "a b c -> 1 a (b c) 1",
    "a b c -> (a 1) b c",
    "... c -> c ...",
    "a ... -> ... a",
    "a b ... -> (a b) ...",
    "a ... c -> (a ...) c",
)


@program()
def prog_ptr_rearrange_patterns(T: Any) -> Any:
    out = {}
    for pat in _PATTERNS:
        x = _x(T, 2, 3, 4)
        y = T.func.rearrange(x, pat)
        (y * T.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
        out[pat] = (y, y.shape, y.stride(), y.is_contiguous(), y._base is not None, y.grad_fn)
        out[pat + " grad"] = x.grad
    return out


@program()
def prog_ptr_rearrange_transposed_and_sliced_input(T: Any) -> Any:
    out = {}
    for pat in ("a b c -> a b c", "a b c -> c b a", "a b c -> a (b c)", "a b c -> (a b c)"):
        base = _x(T, 4, 3, 2)
        for name, x in (("t", base.transpose(0, 2)), ("s", base[:2, :, ::2].transpose(1, 2))):
            y = T.func.rearrange(x, pat)
            out[f"{pat} {name}"] = (y, y.stride(), y.grad_fn)
    return out


@program()
def prog_ptr_rearrange_split_axes(T: Any) -> Any:
    x = _x(T, 2, 6, 4)
    r = T.func.rearrange
    a = r(x, "a (b1 b2) c -> a b1 b2 c", b1=3)
    b = r(x, "a (b1 b2) c -> b2 a b1 c", b2=3)
    c = r(x, "a (b1 b2) (c1 c2) -> (a c1) (b2 b1 c2)", b1=2, c1=2)
    d = r(x, "a (b1 b2) c -> a b1 b2 c", b1=6, b2=1)
    (a.sum() + (b * 2).sum() + (c**2).sum() + d.sum()).backward()
    return a, b, c, d, a.stride(), b.stride(), c.grad_fn, x.grad


@program()
def prog_ptr_rearrange_docstring_images(T: Any) -> Any:
    images = T.tensor(_data(4, 6, 8, 3))
    r = T.func.rearrange
    return (
        r(images, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=2),
        r(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2),
        r(images, "b h w c -> h (b w) c"),
    )


@program()
def prog_ptr_rearrange_unnamed_left_axis_sums(T: Any) -> Any:
    r = T.func.rearrange
    x = _x(T, 1, 3, 4)
    y = r(x, "1 b c -> b c")
    y2 = r(x, "() b c -> c b")
    z = _x(T, 2, 3, 4, seed=1)
    w = r(z, "1 b c -> b c")  # torch binds the `1` to the dim's size and sums over it
    (y.sum() + y2.sum() + (w * w).sum()).backward()
    return y, y.grad_fn, y2, w, w.grad_fn, x.grad, z.grad


@program()
def prog_ptr_rearrange_unnamed_axis_with_new_axes(T: Any) -> Any:
    # torch's first-class dims refuse to sum unnamed left axes when the output gains axes `1`
    r = T.func.rearrange
    x, z = T.ones(1, 3, 4), T.ones(2, 1, 3, 4, 5)
    pats = ("1 b c -> 1 b c", "1 b c -> b c 1", "1 b c -> (b 1) c", "1 b c -> (b c)")
    return (
        {p: raises(lambda p=p: r(x, p)) for p in pats},
        raises(lambda: r(z, "a 1 ... -> 1 a ...")),
        raises(lambda: r(z, "a 1 b ... -> (a b) ... 1")),
        raises(lambda: r(T.ones(1, 1, 3), "1 1 b -> b 1")),
        raises(lambda: r(T.ones(1, 3, 4), "1 b c -> 1 b c", b=4)),
    )


@program()
def prog_ptr_reduction_of_permuted_input_is_contiguous(T: Any) -> Any:
    t = T.ones(2, 3, 4).permute(2, 0, 1)
    r = T.func.rearrange(_x(T, 1, 3, 4), "() b c -> c b")
    return (
        t.sum(1).stride(),
        t.mean(1).stride(),
        t.amax(1).stride(),
        t.prod(1).stride(),
        t.sum(1, keepdim=True).stride(),
        r.stride(),
    )


@program()
def prog_ptr_rearrange_sequence_of_tensors(T: Any) -> Any:
    r = T.func.rearrange
    a, b = _x(T, 3), _x(T, 3, seed=1)
    y = r([a, b], "n k -> k n")
    z = r((a, b), "n k -> (k n)")
    (y.sum() + (z * z).sum()).backward()
    return y, z, y.grad_fn, z.grad_fn, a.grad, b.grad


@program()
def prog_ptr_rearrange_zero_dim_and_empty(T: Any) -> Any:
    r = T.func.rearrange
    s = T.tensor(3.0, requires_grad=True)
    e = T.ones(2, 0, 4)
    return (
        r(s, " -> ") is s,
        r(s, "... -> ...") is s,
        r(s, " -> 1"),
        raises(lambda: r(s, "x -> x")),
        r(e, "a b c -> c b a"),
        r(e, "a b c -> a (b c)").shape,
        r(T.ones(2, 0), "a (b c) -> a b c", b=2).shape,
        raises(lambda: r(T.ones(2, 0), "a (b c) -> a b c", b=0)),
        r(T.arange(6).reshape(2, 3), "a b -> b a"),
        r(T.ones(2, 3, dtype=T.float64), "a b -> (b a)").dtype,
    )


@program()
def prog_ptr_rearrange_parse_errors(T: Any) -> Any:
    r = T.func.rearrange
    x = T.ones(2, 3, 4)
    pats = (
        "a b c d -> a b c d",
        "a b -> a b",
        "a b c -> a b",
        "a b c -> a 2 b c",
        "a a c -> a c",
        "a b c  a b c",
        "a b c -> a b c -> a",
        "a (b c -> a b c",
        "a b) c -> a b c",
        "a ((b) c) -> a b c",
        "a b c -> a b c ...",
        "_a b c -> _a b c",
        "a_ b c -> a_ b c",
        "a b c. -> a b c",
        "a .. b c -> a b c",
        "a b c% -> a b c",
        "(a ...) b -> a ... b",
        "a b c 0 -> a b c",
        "... a ... -> a",
        "9a b c -> b c",
    )
    return {pat: raises(lambda pat=pat: r(x, pat)) for pat in pats}


@program()
def prog_ptr_rearrange_length_errors(T: Any) -> Any:
    r = T.func.rearrange
    x = T.ones(2, 3, 4)
    return (
        raises(lambda: r(x, "a b c -> a b c", d=3)),
        raises(lambda: r(x, "a b c -> a b c", a=2.0)),
        raises(lambda: r(x, "a b c -> a b c", a=True)),
        raises(lambda: r(x, "a b c -> a b c", a=3)),
        raises(lambda: r(x, "a (b1 b2) c -> a b1 b2 c", b1=2)),
        raises(lambda: r(T.ones(6, 2), "(a b) c -> a b c")),
        raises(lambda: r(T.ones(6, 2), "(a b) c -> a b c", a=4)),
        raises(lambda: r(T.ones(6, 2), "(a b) c -> a b c", a=4, b=2)),
        raises(lambda: r(T.ones(6, 2), "(a b d) c -> a b d c", a=1)),
        type(raises(lambda: r(x, "a b c -> a b c", a=3))).__name__,
    )


@program()
def prog_ptr_rearrange_odd_lengths_and_one_dim_groups(T: Any) -> Any:
    # functorch.dim reads a length of -1 as "unbound", and a 1-d tensor indexed with one
    # group's dims as that many indices (torch's ValueError)
    r = T.func.rearrange
    x6, x62 = T.arange(6.0), T.arange(12.0).reshape(6, 2)
    return (
        r(x62, "a c -> a c", a=-1),
        r(x62, "(a b) c -> a b c", a=-1, b=3),
        raises(lambda: r(x62, "(a b) c -> a b c", a=-1)),
        raises(lambda: r(x62, "(a b) c -> a b c", a=-2)),
        raises(lambda: r(x62, "(a b) c -> a b c", a=0)),
        raises(lambda: r(x62, "a c -> a c", a=0)),
        raises(lambda: r(x6, "(a b) -> a b", a=2)),
        raises(lambda: r(x6, "(a b c) -> c b a", a=1, b=2)),
        r(x6, "(a) -> a"),
        r(x6, "(a 1) -> a"),
        r(x6, "1 -> "),
        raises(lambda: r([1.0, 2.0], "a -> a")),
        raises(lambda: r([], "a -> a")),
        raises(lambda: r([T.ones(2), T.ones(3)], "a b -> b a")),
        raises(lambda: r(x6, "a -> a", a=T.tensor(6).item() * 1.0)),
    )


@program()
def prog_ptr_rearrange_name_warnings(T: Any) -> Any:
    r = T.func.rearrange
    x = T.ones(2, 3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = r(x, "class b -> b class")
        b = r(x, "axis b -> b axis")
        r(x, "class b -> b class")  # the parsed pattern is cached: no second warning
    return a, b, [(i.category.__name__, str(i.message)) for i in w]


@program()
def prog_ptr_view_to_own_shape_size1_strides(T: Any) -> Any:
    # found through rearrange: a view to the tensor's own shape recomputes a size-1 dim's
    # stride (torch's computeStride); numpy kept the old one
    b = T.arange(24.0)
    out = []
    for st in ((6, 2, 2), (6, 100, 2), (3, 6, 1)):
        t = b.as_strided((2, 1, 3), st)
        out.append((t.view(2, 1, 3).stride(), t.reshape(2, 1, 3).stride(), t.view(1, 2, 1, 3)))
    w = _x(T, 2, 1, 3)
    y = w.transpose(0, 2).view(3, 1, 2)
    y.sum().backward()
    e = T.ones(1, 1, 3).expand(2, 1, 3)
    v = b.as_strided((2, 1, 3), (6, 2, 2)).view(2, 1, 3)
    v.add_(1)
    return out, y.stride(), y.grad_fn, w.grad, e.view(2, 1, 3).stride(), b, v._version


# --- enforce_grad_layout_policy ------------------------------------------------------------


def _layout(p: Any) -> Any:
    g = p.grad
    return tuple(g.shape), g.stride(), g.is_contiguous(), g._version


@program()
def prog_ptr_grad_layout_policy_permuted_leaf(T: Any) -> Any:
    E = T.autograd.enforce_grad_layout_policy
    out = {}
    for on in (True, False):
        with E(on):
            p = T.tensor(_data(2, 3, 4)).permute(2, 0, 1).requires_grad_()
            (p * 2).sum().backward()
            first = _layout(p)
            (p * 3).sum().backward()
            out[on] = (first, _layout(p), p.grad)
    return out


@program()
def prog_ptr_grad_layout_policy_stolen_views(T: Any) -> Any:
    E = T.autograd.enforce_grad_layout_policy
    out = {}
    for on in (True, False):
        with E(on):
            x = T.ones(3, 4, requires_grad=True)
            (x.t() * 2).backward(T.tensor(_data(4, 3)))
            a = _layout(x)
            y = T.ones(3, 4, requires_grad=True)
            g = T.ones(4, 3)
            y.t().backward(g)
            shares = y.grad.data_ptr() == g.data_ptr()
            z = T.ones(3, 4, requires_grad=True)
            z.sum(0).sum().backward()
            c = _layout(z)
            second = raises(lambda z=z: z.sum().backward())
            m = T.ones(3, 4, requires_grad=True)
            m.mean().backward()
            out[on] = (a, shares, c, second, _layout(m), x.grad)
    return out


@program()
def prog_ptr_grad_layout_policy_as_function_and_decorator(T: Any) -> Any:
    E = T.autograd.enforce_grad_layout_policy

    def leaf_grad() -> Any:
        p = T.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
        (p * 2).sum().backward()
        return p.grad.stride()

    c = E(False)
    during = leaf_grad()
    c.__exit__(None, None, None)
    after = leaf_grad()

    @E(False)
    def f() -> Any:
        return leaf_grad()

    out = during, after, f(), leaf_grad(), c.mode, E(True).clone().mode, E(False).clone().mode
    E(True)  # the constructor sets the policy (E(False) above left it off): the default again
    return out


@program()
def prog_ptr_grad_layout_policy_is_per_thread(T: Any) -> Any:
    import threading

    E = T.autograd.enforce_grad_layout_policy
    seen: dict[str, Any] = {}

    def leaf_grad(tag: str) -> None:
        p = T.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
        (p * 2).sum().backward()
        seen[tag] = p.grad.stride()

    with E(False):
        th = threading.Thread(target=leaf_grad, args=("thread",))
        th.start()
        th.join()
        leaf_grad("main")
    return seen


@program()
def prog_ptr_grad_layout_policy_warning_suppressed(T: Any) -> Any:
    E = T.autograd.enforce_grad_layout_policy
    x = T.ones(3, 4, requires_grad=True)
    x.grad = T.ones(4, 3).t()
    with E(False):
        (x * 2).backward(T.ones(3, 4))
    return x.grad, x.grad.stride()


@program()
def prog_ptr_grad_layout_policy_create_graph_copies(T: Any) -> Any:
    E = T.autograd.enforce_grad_layout_policy
    with E(False):
        p = T.tensor(_data(2, 3, 4)).permute(2, 0, 1).requires_grad_()
        (p * p).sum().backward(create_graph=True)
        g = p.grad
    return g.stride(), g.grad_fn, g


@program()
def prog_ptr_create_graph_first_grad_is_a_copy(T: Any) -> Any:
    # under create_graph grad mode is on: torch never keeps the gradient itself, it copies it
    # into the leaf's layout (copy_: version 1, CopyBackwards), or clones it for a leaf that is
    # not dense (version 0, CloneBackward0); found next to enforce_grad_layout_policy
    out = {}
    leaves = {
        "dense": lambda: T.ones(3, 4, requires_grad=True),
        "permuted": lambda: T.ones(4, 3).t().requires_grad_(),
        "strided": lambda: T.ones(3, 8)[:, ::2].detach().requires_grad_(),
    }
    for name, make in leaves.items():
        for how in ("const", "sq", "t_sq"):
            x = make()
            if how == "const":
                (x * 2).sum().backward(create_graph=True)
            elif how == "sq":
                (x * x).sum().backward(create_graph=True)
            else:
                y = x.t()
                (y * y).backward(T.ones(y.shape), create_graph=True)
            g = x.grad
            out[f"{name} {how}"] = (g.stride(), g._version, g.grad_fn, g)
    x = T.ones(3, 4, requires_grad=True)
    (x * x).sum().backward(create_graph=True)
    (x * x).sum().backward(create_graph=True)
    out["twice"] = (x.grad._version, x.grad.grad_fn, x.grad)
    return out


# --- ldexp, thread_safe_generator ----------------------------------------------------------


@program()
def prog_ptr_ldexp_broadcast_resize_warning(T: Any) -> Any:
    i = T.tensor([1, 2, 3, 4])
    return (
        T.ldexp(T.tensor([1.0]), i),
        T.ldexp(T.tensor(1.5), i),
        T.ldexp(T.ones(2, 1, dtype=T.float64), i.int()),
        T.ldexp(T.ones(1, dtype=T.float16), i.to(T.int8) - 6),
        T.ldexp(T.ones(4), i),  # same shape: no warning
        T.ldexp(T.ones(1, 1), T.ones(4)),  # a float exponent: torch's composite, no warning
        T.ldexp(T.ones(1, dtype=T.complex64), i),
        T.ldexp(T.ones(1, dtype=T.int32), i),
        T.ldexp(T.ones(0, 1), i),
        T.ones(1).ldexp(i),
        T.ldexp(T.ones(1), i, out=T.empty(4)),
    )


@program()
def prog_ptr_ldexp_bool_exponent(T: Any) -> Any:
    b = T.tensor([True, False])
    return (
        raises(lambda: T.ldexp(T.ones(2), b)),
        raises(lambda: T.ldexp(T.ones(2, dtype=T.float64), b, out=T.empty(2, dtype=T.float64))),
        raises(lambda: T.ones(2).ldexp_(b)),
        T.ldexp(T.ones(2, dtype=T.int64), b),
        T.ldexp(T.ones(2, dtype=T.complex64), b),
    )


@program()
def prog_ptr_ldexp_grad_with_broadcast(T: Any) -> Any:
    x = _x(T, 1, 3)
    y = T.ldexp(x, T.tensor([[1], [-2]]))
    y.sum().backward()
    return y, y.grad_fn, x.grad


@program()
def prog_ptr_ldexp_complex_grads(T: Any) -> Any:
    c = T.tensor([1 - 1j, 2 + 1j])
    out = []
    for a_, b_ in (
        ([1 + 2j, 3 - 1j], [1, -2]),
        ([1 + 2j, 3 - 1j], [1 + 0.5j, 2 - 1j]),
        ([1 + 2j, 3 - 1j], [1.0, 2.0]),
    ):
        a = T.tensor(a_, requires_grad=True)
        b = T.tensor(b_, requires_grad=not isinstance(b_[0], int))
        r = T.ldexp(a, b)
        out.append(
            (r, r.grad_fn, raises(lambda r=r: (r * c).real.sum().backward()), a.grad, b.grad)
        )
    return out


@program()
def prog_ptr_thread_safe_generator_outside_workers(T: Any) -> Any:
    import importlib

    rnd = importlib.import_module(T.__name__ + ".random")
    g = rnd.thread_safe_generator()
    T.manual_seed(3)
    return g, T.randint(0, 10, (5,), generator=g), "thread_safe_generator" in rnd.__all__


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
