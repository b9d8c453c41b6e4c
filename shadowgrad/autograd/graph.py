"""Graph nodes: Node, AccumulateGrad, saved values, hook handles.

Mirrors `torch.autograd.graph`. A node keeps its parents as a tuple of edges in input order
(`(node, input_nr)` or None) and never references the tensors it produced, so a graph holds no
reference cycles and is freed by reference counting alone. See Note [Saved outputs].
"""

from __future__ import annotations

import collections
import itertools
import weakref
from collections.abc import Callable
from typing import Any

__all__ = [
    "AccumulateGrad",
    "GradientEdge",
    "Node",
    "RemovableHandle",
    "SavedTensor",
    "allow_mutation_on_saved_tensors",
    "disable_saved_tensors_hooks",
    "get_gradient_edge",
    "increment_version",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
]

_seq = itertools.count()
# AccumulateGrad nodes run as soon as they are ready, as in torch (sequence_nr UINT64_MAX).
ACC_SEQ = 1 << 62

SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


# torch's SavedVariable::unpack for a saved input that was a non-leaf and has no grad_fn now
DETACHED_INPLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is "
    "not supported, please use out-of-place `.detach()` instead"
)

# Set by _tensor.py once Tensor exists (it imports this module first): the hot unpack path
# must not pay for a function-level import.
_make: Any = None


class VersionCounter:
    """A version counter shared by a tensor, its views and its detached aliases."""

    __slots__ = (
        "recs",
        "site",
        "v",
        "views",
    )  # site: the last in-place change's (file, line, function), anomaly mode; recs: the
    # lazy conjugate/negative views' records (ops/views.py), set only on a ConjVersionCounter;
    # views: weak references to the views of a tensor that requires no grad, which start to
    # require grad when it does (ops/views.track_view)

    def __init__(self) -> None:
        self.v = 0
        self.views: list[Any] | None = None


def track_view(vc: VersionCounter, view: Any) -> None:
    """Remember (weakly) a view of a tensor that requires no grad: once an in-place op
    recorded on the base gives it a history, torch's views of it require grad too, through an
    AsStridedBackward0 node (ops/views.views_follow_base). The list is pruned of dead
    references whenever its length reaches a power of two, so it stays proportional to the
    live views."""
    vs = vc.views
    if vs is None:
        vc.views = [weakref.ref(view)]
        return
    vs.append(weakref.ref(view))
    n = len(vs)
    if n >= 64 and not n & (n - 1):
        vs[:] = [r for r in vs if r() is not None]


# A dict of hooks that a RemovableHandle refers to weakly: an OrderedDict, the type torch's
# Tensor._backward_hooks, Module._forward_hooks, ... have (and pickle as)
HookDict = collections.OrderedDict


class RemovableHandle:
    """A handle that removes a hook. Mirrors `torch.utils.hooks.RemovableHandle`."""

    _next_id = itertools.count()

    def __init__(self, hooks_dict: HookDict, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._next_id)
        # as torch's: further dicts (a module's with_kwargs / always_call marks) the id leaves
        # on remove()
        self.extra_dict_ref: tuple[Any, ...] = ()
        if isinstance(extra_dict, dict):
            self.extra_dict_ref = (weakref.ref(extra_dict),)
        elif isinstance(extra_dict, list):
            self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        d = self.hooks_dict_ref()
        if d is not None and self.id in d:
            del d[self.id]
        for ref in self.extra_dict_ref:
            extra = ref()
            if extra is not None and self.id in extra:
                del extra[self.id]

    def __getstate__(self) -> tuple[Any, ...]:
        # as torch's: the dicts themselves, so that a deepcopied module's handles remove the
        # copy's hooks (weak references would point back at the original's)
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        # a dict unpickled on its own is not kept alive: the reference is dead, as torch's
        self.hooks_dict_ref = weakref.ref(HookDict() if state[0] is None else state[0])
        self.id = state[1]
        self.extra_dict_ref = (
            () if len(state) < 3 or state[2] is None else tuple(weakref.ref(d) for d in state[2])
        )

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def hook_name(fn: Callable[..., Any]) -> str:
    """The name torch's hook messages give a hook: its __name__, else '<unknown>' (a
    functools.partial, an instance with __call__)."""
    return getattr(fn, "__name__", "<unknown>")


class NodeExtra:
    """Rarely used per-node state (hooks, metadata, anomaly trace), created on first use."""

    __slots__ = ("hooks", "meta", "prehooks", "retains", "tensor_prehooks", "trace")

    def __init__(self) -> None:
        self.hooks: HookDict | None = None
        self.prehooks: HookDict | None = None
        self.tensor_prehooks: dict[int, HookDict] | None = None
        self.retains: dict[int, Any] | None = None
        self.meta: dict[Any, Any] | None = None
        self.trace: list[str] | None = None


def _extra_prop(name: str) -> property:
    def get(self: Node) -> Any:
        x = self._x
        return None if x is None else getattr(x, name)

    def set_(self: Node, value: Any) -> None:
        x = self._x
        if x is None:
            if value is None:
                return
            x = self._x = NodeExtra()
        setattr(x, name, value)

    return property(get, set_)


class Node:
    """Base class of every backward node. Mirrors `torch.autograd.graph.Node`.

    Only the edges, the sequence number and the inputs' (shape, dtype) live in slots; hooks,
    metadata and anomaly traces live in `_x`, created on first use, so a node costs little.
    """

    # Note [Edge slots]
    # A node's edges are kept in slots: the number of edges (`_nin`), the first edge's node and
    # input number (`_e0`, `_r0`; `_e0` None for a missing first edge) and a tuple of the others
    # (`(node, nr)` or None each) with trailing Nones left out (`_erest`). The first edge needs
    # no tuple of its own, and a node whose only input requiring grad is the first (most
    # nodes) has `_erest == ()`: it is the one object per node the cyclic collector tracks,
    # instead of three, which matters in graphs of millions of nodes, and the engine's hand-off
    # loop ends after one edge. `_next` gives and takes the usual tuple of edges; the engine's
    # hot loops read the slots.
    __slots__ = ("__weakref__", "_e0", "_erest", "_in_meta", "_nin", "_r0", "_seq", "_x")
    # Name reported by name(); C++-only nodes carry torch's namespace prefix.
    _cpp_name: str | None = None
    _is_acc = False
    # the engine calls apply_raw(arrays) instead of apply(tensors) when this is set (see
    # Note [Raw backward] in engine.py)
    _raw_ok = False

    def __init__(self, next_edges: tuple[Any, ...] = ()) -> None:
        self._next = next_edges
        self._seq = next(_seq)
        self._x = None
        self._in_meta = None

    _hooks = _extra_prop("hooks")
    _prehooks = _extra_prop("prehooks")
    _tensor_prehooks = _extra_prop("tensor_prehooks")
    _retains = _extra_prop("retains")
    _meta = _extra_prop("meta")
    _trace = _extra_prop("trace")

    @property
    def _next(self) -> tuple[Any, ...]:
        """The edges in input order: (node, input_nr) or None each (see Note [Edge slots])."""
        n = self._nin
        if not n:
            return ()
        e0 = self._e0
        rest = self._erest
        return (None if e0 is None else (e0, self._r0), *rest) + (None,) * (n - 1 - len(rest))

    @_next.setter
    def _next(self, edges: Any) -> None:
        n = len(edges)
        self._nin = n
        e = edges[0] if n else None
        if e is None:
            self._e0 = None
            self._r0 = 0
        else:
            self._e0, self._r0 = e
        k = n
        while k > 1 and edges[k - 1] is None:
            k -= 1
        self._erest = tuple(edges[1:k])

    # --- introspection -------------------------------------------------------------------
    def name(self) -> str:
        return self._cpp_name or type(self).__name__

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        return tuple(
            (None, 0) if e is None or type(e[0]) is NoGradViewEdge else e for e in self._next
        )

    @property
    def metadata(self) -> dict[Any, Any]:
        if self._meta is None:
            self._meta = {}
            trace = self._trace
            if trace is not None:  # anomaly mode: torch keeps the forward trace there
                self._meta["traceback_"] = list(trace)  # a plain list, as torch's
        return self._meta  # type: ignore[return-value]

    def _sequence_nr(self) -> int:
        return self._seq

    @property
    def requires_grad(self) -> bool:
        return True  # torch's Python nodes answer True: a node exists only where grad is needed

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    # --- hooks ---------------------------------------------------------------------------
    def _one_arg(self, meth: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """torch's C binding of a node's hook registration: exactly one positional argument."""
        # custom Function nodes inherit the method from torch's _C._FunctionBase
        owner = "_FunctionBase" if hasattr(type(self), "_forward_cls") else type(self).__name__
        if kwargs:
            raise TypeError(f"{owner}.{meth}() takes no keyword arguments")
        if len(args) != 1:
            raise TypeError(f"{owner}.{meth}() takes exactly one argument ({len(args)} given)")
        return args[0]

    def register_hook(self, *args: Any, **kwargs: Any) -> RemovableHandle:
        """Run fn(grad_inputs, grad_outputs) after this node. Mirrors torch."""
        fn = self._one_arg("register_hook", args, kwargs)
        if self._hooks is None:
            self._hooks = HookDict()
        h = RemovableHandle(self._hooks)
        self._hooks[h.id] = fn
        return h

    def register_prehook(self, *args: Any, **kwargs: Any) -> RemovableHandle:
        """Run fn(grad_outputs) before this node. Mirrors torch."""
        fn = self._one_arg("register_prehook", args, kwargs)
        if self._prehooks is None:
            self._prehooks = HookDict()
        h = RemovableHandle(self._prehooks)
        self._prehooks[h.id] = fn
        return h

    def _add_tensor_prehook(self, output_nr: int, fn: Callable[..., Any]) -> RemovableHandle:
        if self._tensor_prehooks is None:
            self._tensor_prehooks = {}
        d = self._tensor_prehooks.get(output_nr)
        if d is None:
            d = self._tensor_prehooks[output_nr] = HookDict()
        h = RemovableHandle(d)
        d[h.id] = fn
        return h

    # --- execution -----------------------------------------------------------------------
    # How many gradients this node receives (forward outputs); a class attribute, as the engine
    # reads it for every node (subclasses with several outputs override it with a property).
    num_outputs = 1

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise NotImplementedError

    def release(self) -> None:
        """Free saved values after a backward without retain_graph."""

    def __call__(self, *grads: Any, **kwargs: Any) -> Any:
        """torch's THPCppFunction_call: one gradient per forward output (None for undefined);
        one result unpacked, several as a tuple."""
        from .._tensor import Tensor

        if kwargs:
            raise TypeError("keyword arguments are not supported")
        for i, g in enumerate(grads):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"argument {i} is not a Variable")
        n = self.num_outputs
        if len(grads) != n:
            raise TypeError(f"expected {n} arguments, got {len(grads)} instead")
        if all(g is None for g in grads):  # torch's formulas skip when no grad is defined
            out: tuple[Any, ...] = (None,) * len(self._next)
        else:
            out = tuple(self.apply(list(grads)))
        return out[0] if len(out) == 1 else out


class NoGradViewEdge(Node):
    """Where the gradient of a view made under no_grad of a tensor that requires grad goes:
    nowhere. torch gives such a view no gradient edge (it requires grad, but ops on it record
    an invalid edge, shown as (None, 0), and nothing accumulates into it); a fresh one per
    edge, so that it is never an autograd.grad input's target and graphs share none."""

    def __init__(self) -> None:
        super().__init__(())

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        return ()


class AccumulateGrad(Node):
    """The node of a leaf that requires grad; adds incoming grads into `variable.grad`."""

    __slots__ = ("variable",)
    _cpp_name = "torch::autograd::AccumulateGrad"
    _is_acc = True

    def __init__(self, variable: Any) -> None:
        super().__init__(())
        self._seq = ACC_SEQ
        self.variable = variable

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        """A direct call (the engine accumulates on its own path): torch's accumulateGrad for
        a grad the caller still holds, cloned the first time, then added in place with grad
        mode off or out of place with it on."""
        from .. import _grad_mode

        g = grads[0]
        v = self.variable
        if g is None:
            return ()
        old = v._grad
        if old is None:
            v._grad = g.detach().clone() if not _grad_mode.STATE.grad else g.clone()
        elif _grad_mode.STATE.grad:
            v._grad = old + g
        else:
            old.add_(g)
        return ()


def move_retained(t: Any, node: Node, nr: int) -> None:
    """t's grad_fn is about to become (node, nr): a retain_grad hook moves with it, as torch
    moves it, so the retained grad is the grad of the tensor's current version."""
    x = t._x
    if x is None or not x.retains_grad:
        return
    old = t._grad_fn
    if old is not None and old._retains:
        ref = old._retains.get(t._nr)
        if ref is not None and ref() is t:
            del old._retains[t._nr]
    if node._retains is None:
        node._retains = {}
    node._retains[nr] = weakref.ref(t)


class GradientEdge(tuple):  # type: ignore[type-arg]
    """(node, output_nr). Mirrors `torch.autograd.graph.GradientEdge`."""

    __slots__ = ()

    def __new__(cls, node: Node, output_nr: int) -> GradientEdge:
        return tuple.__new__(cls, (node, output_nr))

    def __repr__(self) -> str:
        # torch's is a NamedTuple with a third field, ownership_token (None unless set by
        # torch internals); shadowgrad's edges stay pairs, which autograd.grad's inputs expect
        return f"GradientEdge(node={self[0]!r}, output_nr={self[1]!r}, ownership_token=None)"

    @property
    def ownership_token(self) -> None:
        return None

    @property
    def node(self) -> Node:
        return self[0]  # type: ignore[no-any-return]

    @property
    def output_nr(self) -> int:
        return self[1]  # type: ignore[no-any-return]


def increment_version(tensor: Any) -> None:
    """Bump the version counter of a tensor (or of each tensor in an iterable) modified in place
    behind autograd's back. Mirrors `torch.autograd.graph.increment_version`: an inference tensor
    has no version counter and is skipped."""
    from .._tensor import Tensor

    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if not t._inf:
            t._bump()


# the (shape, dtype) of the tensor behind each edge handed out by get_gradient_edge, per node:
# torch's node._input_metadata[output_nr], which autograd.grad/backward read for an edge given
# as an output (shadowgrad's op nodes keep their forward inputs' metadata, not their outputs')
_EDGE_META: weakref.WeakKeyDictionary[Node, dict[int, tuple[Any, Any]]] = (
    weakref.WeakKeyDictionary()
)


def get_gradient_edge(tensor: Any) -> GradientEdge:
    """Mirrors `torch.autograd.graph.get_gradient_edge`."""
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    node, nr = tensor._edge()
    _EDGE_META.setdefault(node, {})[nr] = (tensor.shape, tensor.dtype)
    return GradientEdge(node, nr)


def edge_meta(edge: Any) -> tuple[Any, Any]:
    """(shape, dtype) of the gradient an edge given as an output of autograd.grad/backward
    takes (torch's node._input_metadata[output_nr])."""
    node, nr = edge
    if node._is_acc:
        v = node.variable
        return v.shape, v.dtype
    m = _EDGE_META.get(node)
    if m is not None and nr in m:
        return m[nr]
    out_meta = getattr(node, "_out_meta", None)  # a custom Function's outputs
    if out_meta is not None and nr < len(out_meta) and out_meta[nr] is not None:
        from .._dtype import _FROM_NP
        from .._size import Size

        shape, npdt = out_meta[nr]
        return Size(shape), _FROM_NP[npdt]
    raise RuntimeError(
        "shadowgrad: this GradientEdge's output shape is unknown (make it with "
        "torch.autograd.graph.get_gradient_edge)"
    )


# Note [Saved outputs]
# A node that saves one of its own outputs must not hold the output Tensor: the Tensor holds the
# node as grad_fn, so that would be a reference cycle, kept alive until the cyclic collector runs.
# Like torch's SavedVariable, we save the output's array and version counter instead, and build a
# fresh Tensor with grad_fn=node when the backward formula unpacks it.


def _hooked_meta(tensor: Any, is_output: bool) -> tuple[Any, int, bool, Any]:
    """What a saved tensor packed by hooks keeps of the original's autograd identity: its
    grad_fn (an output's is the saving node, supplied at unpack), output number,
    requires_grad and, for a leaf that requires grad, its accumulator (weakly, as torch)."""
    rg = tensor._rg
    if is_output:
        return (None, tensor._nr, rg, None)
    gf = tensor._grad_fn
    acc = None
    if rg and gf is None:
        tensor._edge()  # makes the leaf's accumulator if it has none yet
        acc = tensor._acc
    return (gf, tensor._nr, rg, acc)


class _Unpacked:
    """The tensors a node's backward unpacked from saved-tensor hooks, by id of their
    SavedTensor, while its formulas run (ops/registry.py _unpack_once); None otherwise."""

    memo: dict[int, Any] | None = None


UNPACKED = _Unpacked()


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    Mirrors torch's SavedVariable: unpacking checks the version counter and raises torch's
    in-place error if the tensor was modified after it was saved.
    """

    # _view_node: set only for an in-place op's result on a view (see resave)
    __slots__ = (
        *("_data", "_hooks", "_is_output", "_nr", "_rg", "_saved_version", "_tensor", "_vc"),
        "_view_node",
    )

    def __init__(self, tensor: Any, is_output: bool = False) -> None:
        vc = tensor._vc
        if vc is None:
            vc = tensor._vc = VersionCounter()
        self._vc = vc
        self._saved_version = vc.v
        self._is_output = is_output
        self._hooks = None
        if is_output:
            self._tensor = None
            self._data = tensor._data
            self._nr = tensor._nr
            self._rg = tensor._rg
        else:
            self._tensor = tensor
            self._data = None
            self._nr = 0
            self._rg = tensor._grad_fn is not None  # an input: whether it was a non-leaf
        if _SAVED_HOOKS.stack:
            # saved_tensors_hooks: pack now (grad mode off inside pack); no version checks later
            self._hooks = (*_pack(tensor), _hooked_meta(tensor, is_output))
            self._tensor = None
            self._data = None

    def unpack(self, node: Node | None = None) -> Any:
        if self._hooks is not None:
            return self._unpack_hooked(node)
        if self._is_output:
            data = self._data
            if data is None:
                raise RuntimeError(SECOND_TIME)
            if self._vc.v != self._saved_version:
                first = _first_modified(self, node)
                if first is not None:
                    return first.unpack(node)  # raises for the one torch checks first
                view_node = getattr(self, "_view_node", None)
                # an in-place op's result on a view: torch names the view's node then (weakly)
                named = node if view_node is None else view_node()
                raise RuntimeError(
                    _modified_message(data, self._nr, named, self._vc.v, self)
                    + _explained(self, node)
                )
            return _make(data, self._rg, node if self._rg else None, self._nr, self._vc)
        t = self._tensor
        if t is None:
            raise RuntimeError(SECOND_TIME)
        if self._rg and t._grad_fn is None:
            raise RuntimeError(DETACHED_INPLACE)
        if self._vc.v != self._saved_version:
            first = _first_modified(self, node)
            if first is not None:
                return first.unpack(node)  # raises for the one torch checks first
            # the public grad_fn: a view whose base was modified in place regenerates its node
            # (AsStridedBackward0), and torch's SavedVariable names that one (data_.grad_fn())
            gf = t.grad_fn
            raise RuntimeError(
                _modified_message(t._data, t._nr, gf, self._vc.v, self) + _explained(self, node)
            )
        return t

    def unpack_raw(self, node: Node | None) -> Any:
        """The saved array itself, after the same checks as unpack (raw backward)."""
        if self._hooks is None and self._vc.v == self._saved_version:
            if self._is_output:
                data = self._data
            else:
                t = self._tensor
                data = None if t is None or (self._rg and t._grad_fn is None) else t._data
            if data is not None:
                return data
        return self.unpack(node)._data

    def _unpack_hooked(self, node: Node | None) -> Any:
        """The unpack hook's tensor, as torch's SavedVariable returns it: a new tensor on the
        hook's data that carries the saved tensor's autograd identity (its grad_fn, or this
        node for a saved output; requires_grad; a leaf's accumulator; the version counter),
        so that double backward through the unpacked value reaches the graph."""
        from .._tensor import Tensor, _make

        memo = UNPACKED.memo
        if memo is not None and id(self) in memo:  # unpacked already by this backward step
            return memo[id(self)]
        pack_result, unpack_fn, meta = self._hooks
        if unpack_fn is None:
            raise RuntimeError(SECOND_TIME)
        out = unpack_fn(pack_result)
        if not isinstance(out, Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                f"type {type(out).__name__}"
            )
        gf, nr, rg, acc = meta
        if self._is_output:
            gf = node if rg else None
        if rg and gf is None and out._data.dtype.kind not in "fc":
            # torch's make_variable(data, requires_grad=True) for a saved leaf
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t = _make(out._data, rg, gf, nr, self._vc)
        t._acc = acc
        return t

    def release(self) -> None:
        self._tensor = None
        self._data = None
        if self._hooks is not None:
            self._hooks = (None, None, None)

    @property
    def freed(self) -> bool:
        if self._hooks is not None:
            return self._hooks[1] is None
        return self._tensor is None and self._data is None

    def register_hooks(self, *args: Any) -> None:
        if len(args) != 2 or not all(map(callable, args)):  # torch's pybind argument check
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked "
                f"with: <torch._C._autograd.SavedTensor object at {hex(id(self))}>"
                + "".join(f", {a!r}" for a in args)
            )
        pack, unpack = args
        if self.freed:  # freeing drops the hooks too, so this check comes first in torch
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward."
            )
        if self._hooks is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time."
            )
        t = self.unpack(None)
        # torch packs a detached alias (shares the version counter), with grad mode off
        packed = _saved_hooks.run_pack(pack, t.detach())
        self._hooks = (packed, unpack, _hooked_meta(t, self._is_output))
        self._tensor = None
        self._data = None


_new_saved = object.__new__


def save_output(t: Any) -> SavedTensor:
    """SavedTensor(t, is_output=True) without saved-tensor hooks: the hot path of ops that save
    their result (exp, tanh, relu, ...)."""
    vc = t._vc
    if vc is None:
        vc = t._vc = VersionCounter()
    s = _new_saved(SavedTensor)
    s._vc = vc
    s._saved_version = vc.v
    s._is_output = True
    s._hooks = None
    s._tensor = None
    s._data = t._data
    s._nr = t._nr
    s._rg = t._rg
    return s


def save_input(t: Any) -> SavedTensor:
    """SavedTensor(t) without saved-tensor hooks (see save_output)."""
    vc = t._vc
    if vc is None:
        vc = t._vc = VersionCounter()
    s = _new_saved(SavedTensor)
    s._vc = vc
    s._saved_version = vc.v
    s._is_output = False
    s._hooks = None
    s._tensor = t
    s._data = None
    s._nr = 0
    s._rg = t._grad_fn is not None  # whether it was a non-leaf (see DETACHED_INPLACE)
    return s


def _first_modified(st: SavedTensor, node: Any) -> SavedTensor | None:
    """Another modified value the node saved before `st`, in torch's order (its generated node
    unpacks saved variables in the order the op's formulas first name them), or None."""
    op = getattr(type(node), "_op", None)
    order = getattr(op, "saved_order", None)
    saved = saved_of(node)
    if not order or not saved:
        return None
    for n in order:
        v = saved.get(n)
        if v is st:
            return None
        if (
            type(v) is SavedTensor
            and v._hooks is None
            and v._vc.v != v._saved_version
            and (v._tensor is not None or v._data is not None)
        ):
            return v
    return None


def _modified_message(data: Any, nr: int, grad_fn: Node | None, cur: int, saved: Any) -> str:
    from .._dtype import from_numpy_dtype
    from .anomaly_mode import is_anomaly_enabled

    d = from_numpy_dtype(data.dtype)
    # torch's toString(): the legacy tensor type, which complex and bool dtypes lack
    # (CPUComplexDoubleType, CPUBoolType)
    name = f"CPU{d._short}Type" if d.is_complex or d._cat == 0 else d._legacy
    sizes = "[" + ", ".join(str(s) for s in data.shape) + "]"
    where = ""
    if grad_fn is not None:
        where = f", which is output {nr} of {forward_op_name(grad_fn.name())},"
    if is_anomaly_enabled():
        hint = (
            "Hint: the backtrace further above shows the operation that failed to compute its "
            "gradient. The variable in question was changed in there or anywhere later. Good luck!"
        )
    else:
        hint = (
            "Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
        )
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{name} {sizes}]{where} is at version {cur}; expected version "
        f"{saved._saved_version} instead. {hint}"
    )


def _explained(saved: SavedTensor, node: Node | None) -> str:
    from .explain import explain_inplace

    return "\n" + explain_inplace(saved, node, saved._vc.v)


def saved_of(node: Any) -> Any:
    """What a node saved for backward: a dict by name for an op's node, a tuple for a custom
    Function's, None for a node that saves nothing (see Note [Single saved value])."""
    m = getattr(node, "saved_map", None)
    return m() if m is not None else getattr(node, "_saved", None)


def resave(
    node: Any, name: str, tensor: Any, is_output: bool = True, on_view: bool = False
) -> None:
    """Save `tensor` as the value `name` of an op's node, if the node saves one by that name (an
    in-place op's result is saved again as the tensor it modified; svd saves its other
    outputs). on_view: the tensor is a view the op modified in place."""
    saved = saved_of(node)
    if not isinstance(saved, dict) or name not in saved:
        return
    if on_view and is_output and not _SAVED_HOOKS.stack:
        import weakref

        # torch's SavedVariable with is_inplace_on_view: its version error names the view's
        # grad_fn when it was saved (the regenerated AsStridedBackward0), held weakly
        value = SavedTensor(tensor, is_output=True)
        gf = tensor._grad_fn
        value._view_node = weakref.ref(gf) if gf is not None else _no_node
    else:
        value = SavedTensor(tensor, is_output=is_output)
    if getattr(node, "_single", None) == name:  # see Note [Single saved value]
        node._saved = value
    else:
        saved[name] = value


def _no_node() -> None:
    return None


def forward_op_name(node_name: str) -> str:
    """torch's forward-op name for a node: `MulBackward0` -> `Mul`, `PowBackward1` -> `Pow1`."""
    if node_name.startswith("torch::"):
        return node_name
    i = node_name.rfind("Backward")
    if i < 0:
        return node_name
    digits = node_name[i + len("Backward") :]
    if digits and not digits.isdigit():
        return node_name
    return node_name[:i] + ("" if digits in ("", "0") else digits)


# saved_hooks imports RemovableHandle from this module, so it is imported last.
from . import saved_hooks as _saved_hooks  # noqa: E402
from .saved_hooks import (  # noqa: E402
    allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks,
    register_multi_grad_hook,
    save_on_cpu,
    saved_tensors_hooks,
)

_SAVED_HOOKS = _saved_hooks._STATE
_pack = _saved_hooks.pack
