"""Custom autograd Functions: Function, FunctionCtx, the generated backward nodes.

Mirrors `torch.autograd.function`. Each Function subclass gets, from the metaclass, a node class
`<ClassName>Backward` (`Fn._backward_cls`). `Fn.apply` creates an instance of it: that instance is
both the `ctx` given to forward and the `grad_fn` of the outputs, as in torch, so attributes set
on ctx are readable on `out.grad_fn`.
"""

from __future__ import annotations

import functools
import inspect
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _grad_mode
from .._dtype import _FROM_NP
from . import forward_ad as _fwad
from .anomaly_mode import _STATE as _ANOMALY
from .graph import SECOND_TIME, Node, SavedTensor, VersionCounter, forward_op_name

__all__ = [
    "BackwardCFunction",
    "Function",
    "FunctionCtx",
    "InplaceFunction",
    "NestedIOFunction",
    "once_differentiable",
]

_GM = _grad_mode.STATE

NO_BACKWARD = (
    "You must implement either the backward or vjp method for your custom autograd.Function to "
    "use it with backward mode AD."
)
NO_JVP = (
    "You must implement the jvp function for custom autograd.Function to use it with forward "
    "mode AD."
)


class FunctionCtx:
    """The ctx API of a custom Function. Mirrors `torch.autograd.function.FunctionCtx`."""

    def save_for_backward(self, *tensors: Any) -> None:
        """Save tensors (or None) for backward; read them back with `saved_tensors`."""
        self._to_save = tensors

    @property
    def to_save(self) -> Any:
        """What save_for_backward was given, while forward runs; None once apply has saved
        it (torch's ctx.to_save)."""
        return getattr(self, "_to_save", None) or None

    def save_for_forward(self, *tensors: Any) -> None:
        """Save tensors for the `jvp` staticmethod (read as `ctx.saved_tensors` there)."""
        self._to_save_fw = tensors

    def mark_dirty(self, *args: Any) -> None:
        """Mark inputs that forward changed in place; they must be returned as outputs."""
        self._dirty = args

    @property
    def dirty_tensors(self) -> Any:
        """What mark_dirty was given, while forward runs; None before and after (torch's)."""
        return getattr(self, "_dirty", None) or None

    @property
    def non_differentiable(self) -> Any:
        """What mark_non_differentiable was given, while forward runs; None before and after."""
        return getattr(self, "_non_diff", None) or None

    def mark_shared_storage(self, *pairs: Any) -> None:
        warnings.warn(
            "mark_shared_storage is deprecated. Tensors with shared storages are automatically "
            "tracked. Note that calls to `set_()` are not tracked",
            DeprecationWarning,
            stacklevel=2,
        )

    def mark_non_differentiable(self, *args: Any) -> None:
        """Mark outputs as non-differentiable: they don't require grad."""
        self._non_diff = args

    def set_materialize_grads(self, value: bool) -> None:
        """Whether undefined output grads reach backward as zeros (default) or None."""
        self._materialize = value


class BackwardCFunction(Node, FunctionCtx):
    """Base of the generated `<Fn>Backward` node classes; an instance is also the ctx."""

    _forward_cls: Any
    # Set per instance by Function.apply (class defaults keep the attribute lookups cheap).
    _to_save: Any = ()
    _saved: Any = None
    _dirty: Any = ()
    _non_diff: Any = ()
    _materialize = True
    # torch calls a custom Function's backward even when every output grad is undefined (as
    # zeros, or as None without materialize_grads); the engine skips other such nodes
    _call_on_undefined = True
    _freed = False
    _n_in = 0
    _tensor_pos: Any = ()
    _out_meta: Any = ()
    needs_input_grad: Any = ()

    def __init__(self) -> None:
        Node.__init__(self)

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        if self._freed:
            raise RuntimeError(SECOND_TIME)
        saved = self._saved
        if saved is None:
            return ()
        return tuple(None if s is None else s.unpack(self) for s in saved)

    @property
    def saved_variables(self) -> tuple[Any, ...]:
        warnings.warn(
            "'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2
        )
        return self.saved_tensors

    @property
    def _raw_saved_tensors(self) -> tuple[Any, ...]:
        """The SavedTensor objects behind saved_tensors (register_hooks, unpack)."""
        if self._freed:
            raise RuntimeError(SECOND_TIME)
        return tuple(self._saved or ())

    @property
    def num_outputs(self) -> int:
        return len(self._out_meta)

    def apply(self, *args: Any) -> Any:
        """The engine calls apply(grads: list) and gets one grad per tensor input; a user's
        `grad_fn.apply(*grads)` runs the backward staticmethod as is, as in torch."""
        cls = self._forward_cls
        user = cls.vjp if cls.vjp is not Function.vjp else cls.backward
        if len(args) != 1 or type(args[0]) is not list:
            return user(self, *args)
        grads = args[0]
        if self._materialize:
            grads = _materialize(grads, self._out_meta)
        return self._check_grads(user(self, *grads))

    def __call__(self, *args: Any) -> Any:
        # torch's custom nodes are not callable (use .apply)
        raise TypeError(f"'{type(self).__name__}' object is not callable")

    def _check_grads(self, res: Any) -> tuple[Any, ...]:
        from .._tensor import Tensor

        if not isinstance(res, tuple):
            res = (res,)
        n = self._n_in
        if len(res) > n and all(g is None for g in res[n:]):
            res = res[:n]
        if len(res) != n:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients (expected "
                f"{n}, got {len(res)})"
            )
        out = []
        metas = self._in_meta or ()
        pos = self._tensor_pos
        k = 0
        for i, g in enumerate(res):
            if k < len(pos) and pos[k] == i:
                m = metas[k]
                k += 1
                if g is None or m is None:
                    out.append(None)
                    continue
                if not isinstance(g, Tensor):
                    raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
                out.append(_fit_grad(self, g, len(out), m))
            elif g is not None:
                raise RuntimeError(
                    f"function {self.name()} returned a gradient different than None at position "
                    f"{i + 1}, but the corresponding forward input was not a Variable"
                )
        return tuple(out)

    def release(self) -> None:
        self._freed = True
        saved = self._saved
        if saved:
            for s in saved:
                if s is not None:
                    s.release()

    # torch's repr names the generated class with its module: <mod.ExpBackward object at ...>
    __repr__ = object.__repr__


def _materialize(grads: list[Any], out_meta: Any) -> list[Any]:
    from .._tensor import _make

    out = list(grads)
    for i, g in enumerate(out):
        if g is None and out_meta[i] is not None:
            shape, dt = out_meta[i]
            out[i] = _make(np.zeros(shape, dt))
    return out


def _fit_grad(node: Node, g: Any, i: int, meta: tuple[Any, Any]) -> Any:
    """torch's validate_outputs for a custom Function: expandable shapes, cast to input dtype."""
    shape, dt = meta
    gs = g._data.shape
    if gs != shape:
        lead = len(gs) - len(shape)
        ok = lead >= 0 and all(s == 1 or s == n for s, n in zip(shape, gs[lead:], strict=True))
        if not ok:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - got "
                f"[{', '.join(map(str, gs))}] but expected shape compatible with "
                f"[{', '.join(map(str, shape))}]"
            )
        if lead:
            g = g.sum(dim=tuple(range(lead)))
        keep = tuple(d for d, s in enumerate(shape) if s == 1 and g._data.shape[d] != 1)
        if keep:
            g = g.sum(dim=keep, keepdim=True)
    gd = g._data.dtype
    if gd != dt._np:
        # torch checks isFloatingType(grad) || (input_is_complex == grad_is_complex)
        if gd.kind != "f" and (gd.kind == "c") != dt.is_complex:
            raise RuntimeError(_COMPLEX_GRAD_CHECK)
        from .engine import _casts

        if _casts(node, i):  # not into a leaf whose grad_dtype is None
            g = g.to(dt)
    return g


_COMPLEX_GRAD_CHECK = (
    "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to be "
    "true, but got false.  (Could this error message be improved?  If so, please report an "
    "enhancement request to PyTorch.)"
)


class FunctionMeta(type):
    """Generates `_backward_cls` (`<Name>Backward`) for every Function subclass."""

    def __init__(cls, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> None:
        cls._backward_cls = type(
            name + "Backward",
            (BackwardCFunction,),
            {"_forward_cls": cls, "__module__": "shadowgrad.autograd.function"},
        )
        super().__init__(name, bases, attrs)


class _VmapDepth:
    """How many torch.func.vmap calls are running (set by shadowgrad/func.py); the other
    transforms count in `_grad_mode.TRANSFORMS.depth`. `hook(cls, args, kwargs)`: func.py's
    call of a Function's vmap rule inside vmap (NotImplemented: apply runs as usual)."""

    depth = 0
    hook: Any = None


VMAP_DEPTH = _VmapDepth()
_FUNC_DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def _check_functorch(cls: Any, setup: bool) -> None:
    """torch's requirements for a Function used inside torch.func transforms: setup_context,
    and inside vmap a vmap staticmethod or generate_vmap_rule=True. shadowgrad's own Functions
    stand for torch's built-in ops and are exempt."""
    if cls.__module__.startswith("shadowgrad."):
        return
    if not setup:
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. " + _FUNC_DOCS
        )
    if VMAP_DEPTH.depth and cls.generate_vmap_rule and cls.vmap is not Function.vmap:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and "
            "an overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
            "overridden vmap staticmethod to avoid ambiguity. " + _FUNC_DOCS
        )
    if VMAP_DEPTH.depth and not cls.generate_vmap_rule and cls.vmap is Function.vmap:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
            "override and implement the vmap staticmethod or set generate_vmap_rule=True. "
            + _FUNC_DOCS
        )


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class for custom autograd operations. Mirrors `torch.autograd.Function`.

    Under torch.func.vmap the `vmap` staticmethod (or the rule generate_vmap_rule=True makes)
    is called on the whole batch when vmap maps `apply` or the function applies it to the
    mapped inputs themselves; on inputs derived from them it runs per sample (func.py).
    """

    generate_vmap_rule = False
    _backward_cls: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(NO_BACKWARD)

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError(NO_JVP)

    @staticmethod
    def vmap(info: Any, in_dims: Any, *args: Any) -> Any:
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod "
            "or set generate_vmap_rule=True."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward and record the `<Name>Backward` node. Mirrors `Function.apply`."""
        setup = cls.setup_context is not Function.setup_context
        if _grad_mode.TRANSFORMS.depth or VMAP_DEPTH.depth:
            _check_functorch(cls, setup)
            if VMAP_DEPTH.depth and VMAP_DEPTH.hook is not None:
                out = VMAP_DEPTH.hook(cls, args, kwargs)
                if out is not NotImplemented:
                    return out
        if setup:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        elif kwargs:
            args = _kwargs_to_positions(cls.forward, args, kwargs)
            kwargs = {}
        return _apply(cls, setup, args, kwargs)


def _kwargs_to_positions(
    forward: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, ...]:
    """Old-style apply: torch places keyword arguments in forward's positional slots, so they
    become inputs (with edges and needs_input_grad entries) like positional ones."""
    params = list(inspect.signature(forward).parameters)[1:]  # skip ctx
    slots: dict[int, Any] = {}
    for k, v in kwargs.items():
        if k not in params:
            raise TypeError(f"forward() got an unexpected keyword argument '{k}'")
        slots[params.index(k)] = v
    full = list(args)
    for i in range(len(args), max(slots) + 1):
        if i not in slots:
            raise TypeError(f"forward() missing required argument: '{params[i]}' (position {i})")
        full.append(slots[i])
    return tuple(full)


def _apply(cls: Any, setup: bool, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from .._tensor import Tensor

    ctx = cls._backward_cls()
    pos = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
    grad_on = _GM.grad
    executable = grad_on and any(args[i]._rg for i in pos)
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._rg for a in args)
    prev = _GM.grad
    _GM.grad = False
    # torch runs forward with grad mode and forward grad mode off: ops inside record nothing
    # and propagate no tangents (an in-place op on a dual input leaves its tangent to jvp)
    fw_prev = _fwad._STATE.enabled
    if fw_prev:
        _fwad._set_enabled(False)
    try:
        if setup:
            out = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, out)
        else:
            out = cls.forward(ctx, *args, **kwargs)
    finally:
        _GM.grad = prev
        if fw_prev:
            _fwad._set_enabled(True)
    if out is None:
        return None
    single = not isinstance(out, tuple)
    outs = (out,) if single else out
    if executable:
        if ctx._dirty:
            _check_dirty_leaf_views(ctx, outs)
        ctx._next = tuple(args[i]._edge() if args[i]._rg else None for i in pos)
        ctx._in_meta = tuple(
            (args[i]._data.shape, _FROM_NP[args[i]._data.dtype]) if args[i]._rg else None
            for i in pos
        )
        ctx._n_in = len(args)
        ctx._tensor_pos = pos
        outs = _wrap_outputs(ctx, args, outs)
        _save(ctx, outs)
        if _ANOMALY.enabled:
            ctx._trace = traceback.format_stack()[:-3]
    else:
        outs = _plain_outputs(ctx, args, outs, grad_on)
    if _fwad._STATE.active:
        _fwad.function_jvp(cls, ctx, args, outs)
    if ctx._dirty or ctx._non_diff:
        # torch clears them once the outputs are wrapped; kept, they would also hold the
        # outputs from their own node (a reference cycle)
        ctx._dirty = ctx._non_diff = ()
    return outs[0] if single else outs


def _alias(t: Any) -> Any:
    """A new tensor object over t's storage and version counter (not a view)."""
    from .._tensor import _make

    vc = t._vc
    if vc is None:
        vc = t._vc = VersionCounter()
    a = _make(t._data, False, None, 0, vc)
    a._inf = t._inf  # a view of a normal tensor made in inference mode is a normal tensor
    return a


def _view_of(t: Any) -> Any:
    a = _alias(t)
    a._base = t._base if t._base is not None else t
    a._vv = a._vc.v  # the base's version it was made at: a later in-place op on the base is
    # seen (reading its grad_fn then raises torch's custom-Function view error)
    return a


def _mark_dirty(ctx: Any) -> set[int]:
    """torch's _parse_non_differentiable then _mark_dirty, whether a node is recorded or not:
    their (truncated) type errors, and one version bump per tensor given to mark_dirty (in
    order, so the ones before a bad argument are bumped), returned or not."""
    from .._tensor import Tensor

    if not all(isinstance(t, Tensor) for t in ctx._non_diff):
        raise RuntimeError("mark_non_differentiable only accepts variable arguments, but got ")
    for t in ctx._dirty:
        if not isinstance(t, Tensor):
            raise RuntimeError("mark_dirty can only accept variables, but argument ")
        t._bump()
    return {id(t) for t in ctx._dirty}


def _check_dirty_leaf_views(ctx: Any, outs: tuple[Any, ...]) -> None:
    """A returned view of a leaf that requires grad, marked dirty: torch's check_inplace of a
    dirty view (rebase_history) raises, after mark_dirty's version bumps, before anything else
    of the graph is built, so nothing is packed by saved_tensors_hooks for the view's
    regenerated node. (_wrap_outputs, which runs after, no longer checks it.)"""
    from .._tensor import Tensor

    dirty = {id(t) for t in ctx._dirty}
    for o in outs:
        if (
            isinstance(o, Tensor)
            and id(o) in dirty
            and o._rg
            and o._base is not None
            and o._base._grad_fn is None
        ):
            _mark_dirty(ctx)
            raise RuntimeError(
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation."
            )


def _check_dirty_returned(dirty: set[int], outs: tuple[Any, ...]) -> None:
    if dirty - {id(o) for o in outs}:
        raise RuntimeError(
            "Some elements marked as dirty during the forward method were not returned as "
            "output. The inputs that are modified inplace must all be outputs of the Function."
        )


def _plain_outputs(ctx: Any, args: tuple[Any, ...], outs: tuple[Any, ...], grad_on: bool) -> Any:
    """Outputs when no node is recorded (no_grad, or no input requires grad)."""
    from .._tensor import Tensor

    dirty = _mark_dirty(ctx) if ctx._dirty or ctx._non_diff else set()
    ids = {id(a) for a in args if isinstance(a, Tensor)}
    res = []
    for o in outs:
        if isinstance(o, Tensor):
            if id(o) in dirty:
                # torch's _wrap_outputs without a node: a modified input comes back as is,
                # unless it requires grad (then as a detached alias, under no_grad)
                if not grad_on and o._rg:
                    o = _alias(o)
            elif id(o) in ids:
                # torch: an input returned as-is comes back as a view of it (view_as_self), or,
                # when it requires grad but no node is recorded, as a detached alias
                o = _view_of(o) if grad_on or not o._rg else _alias(o)
            elif o._x is not None and o._x.nograd_view:
                # a view of a grad-requiring input made by forward under no_grad: torch's
                # creation meta is the custom Function's (its in-place error says so)
                o._x.custom_view = forward_op_name(ctx.name())
        res.append(o)
    if dirty:
        _check_dirty_returned(dirty, outs)
    return tuple(res)


def _wrap_outputs(ctx: Any, args: tuple[Any, ...], outs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Give the outputs the custom node, as torch's _wrap_outputs does."""
    from .._tensor import Tensor

    dirty = _mark_dirty(ctx)
    non_diff = {id(t) for t in ctx._non_diff}
    inputs = {id(a) for a in args if isinstance(a, Tensor)}
    res = []
    meta = []
    for nr, o in enumerate(outs):
        if not isinstance(o, Tensor):
            res.append(o)
            meta.append(None)
            continue
        meta.append((o._data.shape, o._data.dtype))
        if id(o) in dirty and id(o) not in inputs:
            # torch warns for each returned output marked dirty that is not an input
            warnings.warn(
                "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors "
                "that have been mutated should be passed to ctx.mark_dirty().",
                UserWarning,
                stacklevel=4,
            )
        if id(o) in dirty and o._grad_fn is None and o._rg:
            raise RuntimeError(
                "a leaf Variable that requires grad has been used in an in-place operation."
            )
        nd = id(o) in non_diff
        if id(o) not in dirty and id(o) in inputs:
            # An input returned as-is comes back as a view of it (torch 7.13); one marked
            # non-differentiable that requires grad as a detached alias (torch's var.detach())
            o = _alias(o) if nd and o._rg else _view_of(o)
        if o._base is not None and id(o) not in dirty:
            # in-place ops on it would override the custom backward: torch forbids them (5.18)
            x = o._extra()
            x.custom_view = forward_op_name(ctx.name())
            x.nograd_view = False  # made under forward's no_grad, but torch's creation meta
            # is now the custom Function's
            # views of this output inherit that creation meta (ops/views.custom_view_name)
            cv = getattr(ctx, "_custom_views", None)
            if cv is None:
                cv = ctx._custom_views = set()
            cv.add(nr)
        if nd or o._data.dtype.kind not in "fc":
            if o._grad_fn is None:
                o._rg = False
            res.append(o)
            continue
        o._rg = True
        o._grad_fn = ctx
        o._nr = nr
        res.append(o)
    if getattr(ctx, "_custom_views", None):
        # torch's num_diff_outputs > 1: the views among the outputs get the MULTI_OUTPUT_NODE
        # creation meta (ops/views.custom_view_message)
        n_diff = sum(
            1 for o in res if isinstance(o, Tensor) and o._grad_fn is ctx and id(o) not in non_diff
        )
        if n_diff > 1:
            ctx._custom_multi = True
    dirty_views = [
        o for o in res if isinstance(o, Tensor) and id(o) in dirty and o._base is not None
    ]
    _check_dirty_returned(dirty, outs)
    ctx._out_meta = tuple(meta)
    for o in dirty_views:
        if o._grad_fn is ctx:
            if len(outs) != 1:
                raise RuntimeError(VIEW_DIRTY_MULTI)
            _rebase_view(ctx, o)
    for o in res:
        if isinstance(o, Tensor) and id(o) in dirty and o._base is None:
            vc = o._vc
            if vc is not None and vc.views:  # its views require grad now (ops/views.py)
                from ..ops.views import views_follow_base

                views_follow_base(o)
    return tuple(res)


VIEW_DIRTY_MULTI = (
    "If your Function modifies inplace an input that is a view of another Tensor, your "
    "Function cannot return more than one Tensor. This is not supported by the current autograd "
    "engine. You should either make sure the input is not a view (using .clone() for example) "
    "or make your Function only return one Tensor (potentially splitting it into two Functions: "
    "one doing the inplace that returns a single Tensor and a second one that does the other "
    "operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do "
    "this change."
)


def _rebase_view(ctx: Any, view: Any) -> None:
    """A view the Function modified in place (mark_dirty): as torch's rebase_history, the
    base's grad_fn becomes CopySlices around the Function's node (whose first input stands for
    the view) and the view's grad_fn AsStridedBackward0 on the base."""
    from ..ops.views import (
        CopySlices,
        cross_dtype,
        set_as_strided_grad_fn,
        view_index,
        views_follow_base,
    )
    from .graph import move_retained

    base = view._base
    vidx = view_index(view, base)
    base_edge = base._edge() if base._rg else None
    cs = CopySlices((base_edge, *ctx._next[1:]))
    cs._in_meta = ((base._data.shape, base.dtype) if base._rg else None, *ctx._in_meta[1:])
    cs.fn_edges = None
    cs.fn = ctx
    cs.vidx = vidx
    cs.cross = cross_dtype(view, base)
    cs.base_shape = base._data.shape
    if _ANOMALY.enabled:  # torch's nodes store the forward stack when they are made
        from .explain import forward_trace

        cs._trace = forward_trace()
    move_retained(base, cs, 0)
    base._grad_fn = cs
    base._rg = True
    base._nr = 0
    set_as_strided_grad_fn(view, base, vidx)
    if base._vc.views:
        views_follow_base(base)


def _save(ctx: Any, outs: tuple[Any, ...]) -> None:
    from .._tensor import Tensor

    to_save = ctx._to_save
    if not to_save:
        return
    out_ids = {id(o) for o in outs if isinstance(o, Tensor) and o._grad_fn is ctx}
    saved = []
    for i, t in enumerate(to_save):
        if t is None:
            saved.append(None)
        elif not isinstance(t, Tensor):
            raise TypeError(
                f"save_for_backward can only save variables, but argument {i} is of type "
                f"{type(t).__name__}"
            )
        else:
            # See Note [Saved outputs]: an output is saved without a reference to itself.
            saved.append(SavedTensor(t, is_output=id(t) in out_ids))
    ctx._saved = saved
    ctx._to_save = ()


# --- once_differentiable ------------------------------------------------------------------

ONCE = "trying to differentiate twice a function that was marked with @once_differentiable"


class Error(Node):
    """A node whose backward raises (torch's DelayedError output node)."""

    __slots__ = ("_msg", "_n")
    _cpp_name = "torch::autograd::Error"

    def __init__(self, msg: str, next_edges: tuple[Any, ...]) -> None:
        Node.__init__(self, next_edges)
        self._msg = msg
        self._n = len(next_edges)

    @property
    def num_outputs(self) -> int:
        return self._n

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise RuntimeError(self._msg)


Error.__module__ = "builtins"


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a backward without building a graph. Mirrors `torch.autograd.function`'s."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        from .._tensor import Tensor

        prev = _GM.grad
        _GM.grad = False
        try:
            outputs = fn(ctx, *args, **kwargs)
        finally:
            _GM.grad = prev
        if not prev:
            return outputs
        if not any(isinstance(a, Tensor) and a._rg for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        leaves = []
        for o in outs:
            if isinstance(o, Tensor):
                o = o.detach()
                o._rg = True
            leaves.append(o)
        node = Error(ONCE, tuple(o._edge() if isinstance(o, Tensor) else None for o in leaves))
        res = []
        for nr, o in enumerate(leaves):
            if isinstance(o, Tensor):
                o = _alias(o)
                o._rg = True
                o._grad_fn = node
                o._nr = nr
            res.append(o)
        return res[0] if single else tuple(res)

    return wrapper


class InplaceFunction(Function):
    """Kept for backward compatibility. Mirrors `torch.autograd.function.InplaceFunction`."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    """Legacy base class; only its name is provided."""
