"""In-place ops on views: the rebase of the graph onto the base (torch's CopySlices).

When an in-place op modifies a view of a tensor while autograd records it, torch does not make
the op's node the view's grad_fn. It wraps the node in a `CopySlices` node that becomes the
base's grad_fn: its backward takes the base's gradient, runs the op's backward on the view's
region and writes the region's gradient back. The view's grad_fn becomes `AsStridedBackward0`
on the base. Other views of the base, made before, are regenerated the same way when their
grad_fn is next read (`refresh_view`).
"""

from __future__ import annotations

from collections.abc import Callable
from sys import getrefcount
from typing import Any

import numpy as np

from .. import _grad_mode
from .._tensor import Tensor, _make
from ..autograd import forward_ad as _fwad
from ..autograd.anomaly_mode import _STATE as _ANOMALY
from ..autograd.explain import forward_trace
from ..autograd.graph import (
    SECOND_TIME,
    Node,
    VersionCounter,
    forward_op_name,
    move_retained,
    resave,
)

_GM = _grad_mode.STATE
_FW = _fwad._STATE

MULTI_VIEW = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation "
    "by an out-of-place one."
)
NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled."
)
NO_GRAD_VIEW_HINT = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)


def nograd_view_message(kind: Any, rebase: bool = False, view: Tensor | None = None) -> str:
    """torch's error for a view made under no_grad (kind True) or in inference mode (kind
    "inference", creation meta INFERENCE_MODE) that is modified in place (rebase False) or whose
    base was (rebase True) with grad mode on. A view with a grad_fn (made in grad mode from
    such a view, whose creation meta it inherits) is named by its node."""
    what = (
        "its base or another view of its base has been modified inplace"
        if rebase
        else "is being modified inplace"
    )
    prefix = "A view was created in"
    gf = None if view is None else view._grad_fn
    if gf is not None:
        name = forward_op_name(gf.name())
        prefix = f"Output {view._nr} of {name} is a view of a view which was created in"
    if kind == "inference":
        return f"{prefix} inference mode and {what} in normal mode." + NO_GRAD_VIEW_HINT.replace(
            "no_grad block", "inference_mode block"
        )
    return f"{prefix} no_grad mode and {what} with grad mode enabled." + NO_GRAD_VIEW_HINT


class CopySlices(Node):
    """The base's node after an in-place op on one of its views. Mirrors torch's CopySlices."""

    # cross: None, or for a view of another dtype than its base (view_as_real, .real/.imag,
    # view_as_complex) (base_is_complex, view_is_complex): vidx then indexes the real units
    # lazy: None, or for an in-place op on a conj (negative) view the op conjugating (negating)
    # the view's region of the gradient on its way to the op's backward and back
    # overlap: the view has elements sharing memory (an expanded view): torch's backward
    # copies the op's gradient into it, which it refuses
    __slots__ = ("base_shape", "cross", "fn", "fn_edges", "lazy", "overlap", "vidx")
    _cpp_name = "torch::autograd::CopySlices"

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        from ..autograd.engine import _validate
        from .indexing import _index, _index_put

        if self.fn is None:  # released by an earlier backward, as torch's CopySlices
            raise RuntimeError(SECOND_TIME)
        grad = grads[0]
        vidx = self.vidx
        if getattr(self, "overlap", False):  # (unset: a custom Function's CopySlices)
            from .inplace import OVERLAP

            raise RuntimeError(OVERLAP)
        if self.cross is not None:
            return self._apply_cross(grad, _validate)
        if _GM.grad:  # create_graph: build the result with ops, so it can be differentiated
            flat = grad.reshape(-1)
            region = _index(flat, (vidx,), tuple(flat._data.shape))
            res = self._call_fn(region, _validate)
            g0 = res[0] if res[0] is not None else _make(np.zeros(vidx.shape, flat._data.dtype))
            result = _index_put(flat, (vidx,), g0, False).reshape(self.base_shape)
        else:
            flat = grad._data.flatten()
            res = self._call_fn(_make(np.asarray(flat[vidx])), _validate)  # (0-d vidx: a scalar)
            flat[vidx] = 0 if res[0] is None else res[0]._data
            result = _make(flat.reshape(self.base_shape))
        return (result, *res[1:])

    def _apply_cross(self, grad: Tensor, validate: Callable[..., Any]) -> tuple[Any, ...]:
        """apply for a view of another dtype: the base's gradient as real units (torch's
        view_as_real), the view's region of it back in the view's dtype for the op's backward,
        and the op's gradient written back in units."""
        from .indexing import _index, _index_put
        from .pointwise import view_as_complex, view_as_real

        base_c, view_c = self.cross
        vidx = self.vidx
        if _GM.grad:
            units = view_as_real(grad) if base_c else grad
            flat = units.reshape(-1)
            region = _index(flat, (vidx,), tuple(flat._data.shape))
            res = self._call_fn(view_as_complex(region) if view_c else region, validate)
            g0 = res[0]
            if g0 is None:
                g0 = _make(np.zeros(vidx.shape, flat._data.dtype))
            elif view_c:
                g0 = view_as_real(g0)
            result = _index_put(flat, (vidx,), g0, False).reshape(units._data.shape)
            return (view_as_complex(result) if base_c else result, *res[1:])
        flat = _units(grad._data).flatten()
        region = np.asarray(flat[vidx])  # (a 0-d vidx gives a numpy scalar)
        res = self._call_fn(_make(_from_units(region) if view_c else region), validate)
        flat[vidx] = 0 if res[0] is None else _units(res[0]._data)
        result = _from_units(flat.reshape(-1, 2)) if base_c else flat
        return (_make(np.ascontiguousarray(result).reshape(self.base_shape)), *res[1:])

    def _call_fn(self, region: Tensor, validate: Callable[..., Any]) -> list[Any]:
        lazy = getattr(self, "lazy", None)
        if lazy is not None:
            res = self._call_fn2(lazy(region), validate)
            if res[0] is not None:
                res[0] = lazy(res[0])
            return res
        return self._call_fn2(region, validate)

    def _call_fn2(self, region: Tensor, validate: Callable[..., Any]) -> list[Any]:
        fn = self.fn
        if self.fn_edges is None:  # the op is one node whose first input is the view
            return list(validate(fn, fn.apply([region])))
        # a composite op: backpropagate through its nodes to the view and the other inputs
        from ..autograd.engine import run_backward

        root, has_view, edges = self.fn_edges
        out = list(run_backward([root], [region], True, _GM.grad, capture=list(edges)) or [])
        return out if has_view else [None, *out]

    def release(self) -> None:
        # torch's CopySlices drops its function: a second backward through it raises even
        # when the function saved nothing (fuzzer find)
        if self.fn_edges is None and self.fn is not None:
            self.fn.release()
        self.fn = None


def _chain_multi_view(t: Tensor) -> bool:
    """Whether t comes, through view ops only, from an op that returns several views."""
    node = t._grad_fn
    while node is not None:
        op = getattr(type(node), "_op", None)
        if op is None or not getattr(op, "view", False):  # list ops (stack) have no views
            return False
        if op.multi_view:
            return True
        e = node._next[0]
        node = e[0] if e is not None else None
    return False


CUSTOM_VIEW = (
    "This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function."
)


def custom_view_name(t: Tensor) -> str | None:
    """The name torch's message gives a view whose creation meta is IN_CUSTOM_FUNCTION: a
    view output of a custom Function, or a view made from one through view ops (torch
    propagates the creation meta to views of views); None for other tensors."""
    x = t._x
    if x is not None and x.custom_view and not x.nograd_view:
        return x.custom_view
    node = t._grad_fn
    top = node
    nr = t._nr
    while node is not None:
        op = getattr(type(node), "_op", None)
        if op is None or not getattr(op, "view", False):
            cv = getattr(node, "_custom_views", None) if node is not top else None
            if cv and nr in cv:
                return forward_op_name(top.name())
            return None
        e = node._next[0]
        if e is None:
            return None
        node, nr = e
    return None


def custom_view_message(t: Tensor) -> str:
    """The explanation torch gives for a view from a custom Function: CUSTOM_VIEW, or
    MULTI_VIEW when the Function returned more than one differentiable output (torch then sets
    the views' creation meta to MULTI_OUTPUT_NODE)."""
    node = t._grad_fn
    while node is not None:
        op = getattr(type(node), "_op", None)
        if op is None or not getattr(op, "view", False):
            return MULTI_VIEW if getattr(node, "_custom_multi", False) else CUSTOM_VIEW
        e = node._next[0]
        node = e[0] if e is not None else None
    return CUSTOM_VIEW


def check_view_inplace(self: Tensor, base: Tensor) -> None:
    """torch's errors for in-place ops on views made by multi-view ops, under no_grad, or
    returned by a custom Function (or made from such a view)."""
    name = custom_view_name(self)
    if name is not None:
        raise RuntimeError(
            f"Output {self._nr} of {name} is a view and is being modified inplace. "
            + custom_view_message(self)
        )
    if self._rg:
        if self._grad_fn is not None and _chain_multi_view(self):
            name = forward_op_name(self._grad_fn.name())
            raise RuntimeError(
                f"Output {self._nr} of {name} is a view and is being modified inplace. "
                + MULTI_VIEW
            )
        return
    x = self._x
    if x is not None and x.nograd_view:  # made under no_grad of a tensor requiring no grad
        raise RuntimeError(nograd_view_message(x.nograd_view, view=self))
    if x is not None and x.multi_view:
        raise RuntimeError(NO_GRAD_VIEW + " " + MULTI_VIEW)
    if base._rg:  # a view of a grad-requiring base that doesn't require grad: made in no_grad
        raise RuntimeError(NO_GRAD_VIEW + NO_GRAD_VIEW_HINT)


def _units(a: np.ndarray) -> np.ndarray:
    """A complex array as its real units (numpy's view_as_real); a real one as is."""
    if a.dtype.kind != "c":
        return a
    part = a.real
    return np.lib.stride_tricks.as_strided(part, (*a.shape, 2), (*a.strides, part.itemsize))


def _from_units(a: np.ndarray) -> np.ndarray:
    """Real pairs (a contiguous last axis of 2) as complex values."""
    a = np.ascontiguousarray(a)
    return a.view(np.result_type(a.dtype, np.complex64))[..., 0]


def cross_dtype(view: Tensor, base: Tensor) -> tuple[bool, bool] | None:
    """None for a view of its base's dtype; else (base_is_complex, view_is_complex)."""
    a, b = view._data.dtype, base._data.dtype
    if a == b:
        return None
    return (b.kind == "c", a.kind == "c")


def view_index(view: Tensor, base: Tensor) -> np.ndarray:
    """For each element of the view, its C-order flat index in the base; for a view of
    another dtype (cross_dtype), of each real unit of the view in the base's real units."""
    from .shape import flat_map, positions

    if view._data.dtype != base._data.dtype:
        vu, bu = _units(view._data), _units(base._data)
        return flat_map(positions(vu, bu), bu)
    return flat_map(positions(view._data, base._data), base._data)


def set_as_strided_grad_fn(view: Tensor, base: Tensor, vidx: np.ndarray | None = None) -> None:
    """Make view's grad_fn an AsStridedBackward0 on the base's current grad_fn."""
    from .registry import show_saved
    from .shape import _as_strided, offset_of

    src = base
    if view._data.dtype != base._data.dtype:
        # torch replays the view across the dtype change: the view of the base's other dtype
        # (view_as_real / view_as_complex), then as_strided on it unless that is the view
        src = _reinterpreted(base)
        sd, arr = src._data, view._data
        if sd.shape == arr.shape and sd.strides == arr.strides and offset_of(arr, sd) == 0:
            _set_view_grad_fn(view, base, src._grad_fn)
            return
        vidx = None
    if vidx is None:
        vidx = view_index(view, src)
    arr = view._data
    isz = arr.itemsize
    stride = tuple(s // isz for s in arr.strides)
    prev = _GM.grad
    _GM.grad = True
    offset = offset_of(arr, src._data)
    try:
        tmp = _as_strided(
            src, src._data, tuple(arr.shape), stride, offset, vidx, tuple(src._data.shape)
        )
    finally:
        _GM.grad = prev
    show_saved(tmp, size=tuple(arr.shape), stride=stride, storage_offset=offset)
    _set_view_grad_fn(view, base, tmp._grad_fn)


def _reinterpreted(base: Tensor) -> Tensor:
    """The base as a view of its other dtype, recorded (view_as_real of a complex base,
    view_as_complex of a real one)."""
    from .pointwise import view_as_complex, view_as_real

    prev = _GM.grad
    _GM.grad = True
    try:
        if base._data.dtype.kind == "c":
            return view_as_real(base)
        return view_as_complex(base if base._data.shape[-1:] == (2,) else base.view(-1, 2))
    finally:
        _GM.grad = prev


def _set_view_grad_fn(view: Tensor, base: Tensor, node: Node) -> None:
    move_retained(view, node, 0)
    view._grad_fn = node
    view._rg = True
    view._nr = 0
    view._vv = base._vc.v if base._vc is not None else 0


def inplace_on_view(
    fn: Callable[..., Tensor], self: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Tensor:
    """Run the in-place op `fn` on a view while autograd records: rebase the graph as torch."""
    from .inplace import _set_result_tangent, write

    base = self._base
    check_view_inplace(self, base)
    if self._grad_fn is not None:
        refresh_view(self)
    # the op sees a copy of the view that stands for the view in the graph (its saved `self`
    # then differentiates through the view's own history under create_graph)
    snap = _make(self._data.copy(), self._rg, self._grad_fn, self._nr)
    snap._acc = self._acc
    snap_edge = snap._edge() if self._rg else None
    others = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor) and a._rg]
    other_edges = [a._edge() for a in others]
    fw = _FW.active
    if fw:
        _fwad._set_tangent(snap, _fwad._get_tangent(self))
    r = fn(snap, *args, **kwargs)
    write(self, r._data, fn)
    self._bump()
    if fw:
        _set_result_tangent(self, r)
    node = r._grad_fn
    if node is None:
        return self
    lazy = _lazy_op(self, base) if type(self._vc) is ConjVersionCounter else None
    vidx = view_index(self if lazy is None else _make(shadow_of(self)), base)
    base_edge = base._edge() if base._rg else None
    direct = node._next and node._next[0] == snap_edge and _edges_are(node, other_edges)
    cs = CopySlices((base_edge, *(node._next[1:] if direct else other_edges)))
    base_meta = (base._data.shape, base.dtype) if base._rg else None
    if direct:
        cs._in_meta = (base_meta, *node._in_meta[1:])
        cs.fn_edges = None
    else:
        cs._in_meta = (base_meta, *((a._data.shape, a.dtype) for a in others))
        capture = [snap_edge, *other_edges] if snap_edge is not None else other_edges
        cs.fn_edges = ((node, r._nr), snap_edge is not None, capture)
    cs.fn = node
    cs.vidx = vidx
    cs.lazy = lazy
    d = self._data
    cs.overlap = (
        0 in d.strides
        and d.size > 1
        and any(st == 0 and n > 1 for n, st in zip(d.shape, d.strides, strict=True))
    )
    cs.cross = cross_dtype(self, base)
    cs.base_shape = base._data.shape
    if _ANOMALY.enabled:  # torch's nodes store the forward stack when they are made
        cs._trace = forward_trace()
    move_retained(base, cs, 0)
    base._grad_fn = cs
    base._rg = True
    base._nr = 0
    if lazy is not None:
        lazy_view_grad_fn(self, base, lazy, vidx)
    else:
        set_as_strided_grad_fn(self, base, vidx)
    resave(node, "result", self, on_view=True)
    if base._vc.views:
        views_follow_base(base)
    return self


def views_follow_base(base: Tensor) -> None:
    """base (a tensor that required no grad) has just been given a history by an in-place op:
    its views, which track_view remembered, now require grad as torch's do. One made in grad
    mode gets its AsStridedBackward0 node on the base's new one; one made under no_grad
    requires grad without a node, and reading it raises (Tensor._check_nograd_view)."""
    for v in _untracked_views(base):
        x = v._x
        if x is not None and x.nograd_view:
            x.nograd_plain = False
            v._rg = True
        elif type(v._vc) is not ConjVersionCounter:
            set_as_strided_grad_fn(v, base)


def views_follow_leaf(base: Tensor) -> None:
    """base, a leaf, has just been made to require grad: its views (track_view) require grad
    through it as torch's (DifferentiableViewMeta::requires_grad), without a node or an edge of
    their own: a view made in grad mode has kind "base" (Tensor._check_nograd_view gives it its
    node once the base changes under no_grad), one made under no_grad keeps its creation meta."""
    for v in _untracked_views(base):
        x = v._extra()
        if x.nograd_view:
            x.nograd_plain = False
        else:
            x.nograd_view = "base"
        v._rg = True


def _untracked_views(base: Tensor) -> list[Tensor]:
    """The live views of base (a tensor that required no grad) that track_view remembered and
    that can require grad; the counter keeps the others (views of a detached alias)."""
    vc = base._vc
    vs = vc.views if vc is not None else None
    if not vs:
        return []
    mine, others = [], []
    for ref in vs:
        v = ref()
        if v is None:
            continue
        if v._base is not base:
            others.append(ref)
        elif not v._rg and v._data.dtype.kind in "fc":
            mine.append(v)
    vc.views = others or None
    return mine


def tangent_view(view: Tensor) -> Tensor | None:
    """Forward AD: a view of its base's tangent with the view's geometry (the base gets a zero
    tangent first if it has none), so that writing a tangent into the view writes the base's,
    as torch's view tangents alias their base's. None if the base's tangent is laid out
    differently from the base."""
    base = view._base
    bt = _fwad._get_tangent(base)
    if bt is None:
        bt = _make(np.zeros_like(base._data))
        _fwad._set_tangent(base, bt)
    arr, root = view._data, base._data
    if bt._data.strides != root.strides or bt._data.dtype != root.dtype:
        return None
    start = arr.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if start < 0 or start % arr.itemsize:
        return None
    off = start // arr.itemsize
    flat = np.lib.stride_tricks.as_strided(bt._data, shape=(off + 1,), strides=(arr.itemsize,))
    t = _make(np.lib.stride_tricks.as_strided(flat[off:], arr.shape, arr.strides))
    _fwad._set_tangent(view, t)
    return t


def _edges_are(node: Any, edges: list[Any]) -> bool:
    rest = [e for e in node._next[1:] if e is not None]
    return len(rest) == len(edges) and all(a == b for a, b in zip(rest, edges, strict=True))


def refresh_view(t: Tensor) -> None:
    """Regenerate a view's grad_fn (AsStridedBackward0) when its base was modified in place
    since the view's grad_fn was made, as torch does when it reads a view's grad_fn: the
    view's recorded version (`_vv`) differs from the shared version counter.
    """
    base = t._base
    vc = base._vc
    cur = vc.v if vc is not None else 0
    made = getattr(t, "_vv", None)
    if made is None or made == cur:
        return
    x = t._x
    if x is not None and x.nograd_view:
        # made under no_grad: a leaf of its own (4.2), whose base changed since; torch refuses
        # to use it (Tensor._check_nograd_view)
        from .._tensor import _check_nograd_view

        _check_nograd_view(t)
        return
    node = t._grad_fn
    if (t._rg or base._rg) and not (base._grad_fn is None and not base._rg):
        name = custom_view_name(t)
        if name is not None:  # torch's handle_view_on_rebase for IN_CUSTOM_FUNCTION
            raise RuntimeError(
                f"Output {t._nr} of {name} is a view and its base or another view of its base "
                "has been modified inplace. " + custom_view_message(t)
            )
    if type(vc) is ConjVersionCounter and (t._rg or base._rg) and base._grad_fn is not None:
        lazy = _lazy_op(t, base)  # a conj (negative) view: replayed on the base's history
        if lazy is not None and not (node is not None and _chain_multi_view(t)):
            lazy_view_grad_fn(t, base, lazy)
            return
    if node is not None and not getattr(getattr(type(node), "_op", None), "view", False):
        # not made by a view op (e.g. a custom Function that returned its input): that node
        # is the tensor's own history, nothing to regenerate
        t._vv = cur
        return
    if not (t._rg or base._rg) or (base._grad_fn is None and not base._rg):
        t._vv = cur
        return
    if node is not None and _chain_multi_view(t):
        # torch's CreationMeta::MULTI_OUTPUT_NODE: no grad_fn can be regenerated for it
        raise RuntimeError(
            f"Output {t._nr} of {forward_op_name(node.name())} is a view and its base or another "
            "view of its base has been modified inplace. " + MULTI_VIEW
        )
    if t._data.size and not np.may_share_memory(t._data, base._data):
        # the base's memory was replaced since (`param.data = ...`, a module's conversion):
        # the view keeps the old memory, and no place in the base's new memory is the view's
        t._vv = cur
        return
    set_as_strided_grad_fn(t, base)


METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}


# --- lazy conjugate and negative views (torch's conj / neg bits) --------------------------
# numpy has no lazy conjugate. A conj view (x.conj() of a complex x) and a negative view
# (torch._neg_view(x), the imag of a conj view) read their values from a shadow storage: a
# flat array the size of x's storage root holding f(root) (np.conjugate or np.negative), laid
# out as the root, so that the view's array has the geometry x's would have. The shared version
# counter becomes a ConjVersionCounter, which keeps the records (root, shadow, snapshot of the
# shadow) and re-syncs them on every version bump: shadow elements written since the last sync
# (an in-place op on the view) are written back through f into the root, then the shadow is
# recomputed from the root (an in-place op on x or another view). Ordinary tensors never see
# any of this: only tensors whose counter was made a ConjVersionCounter pay the sync.


class _Rec:
    __slots__ = ("C", "R", "S", "f", "neg")

    def push(self) -> None:
        """Write the shadow's elements changed since the last sync back into the root."""
        C, S = self.C, self.S
        n = C.size
        if n:
            cb = C.view(np.uint8).reshape(n, -1)
            changed = (cb != S.view(np.uint8).reshape(n, -1)).any(1)
            if changed.any():
                self.R[changed] = self.f(C[changed])

    def pull(self) -> None:
        """Recompute the shadow from the root."""
        if self.C.size:
            np.copyto(self.C, self.f(self.R))
            self.S = self.C.copy()

    def sync(self) -> None:
        self.push()
        self.pull()


class ConjVersionCounter(VersionCounter):
    """A version counter some of whose tensors are lazy conjugate/negative views."""

    __slots__ = ()

    @property
    def v(self) -> int:
        return _VC_V.__get__(self)

    @v.setter
    def v(self, value: int) -> None:
        _VC_V.__set__(self, value)
        # a shadow no array refers to any more (its views are gone) is dropped, and a counter
        # left without shadows is a plain one again (ops read through conj() in backward
        # formulas leave none behind)
        recs = self.recs
        recs[:] = [r for r in recs if getrefcount(r.C) > 2]  # in place: aliases share it
        if not recs:
            self.__class__ = VersionCounter
            return
        for rec in recs:  # every write-back first: shadows may share a root
            rec.push()
        for rec in recs:
            rec.pull()


_VC_V = VersionCounter.__dict__["v"]


def alias_counter(vc: VersionCounter) -> VersionCounter:
    """The version counter of a `.data` alias of memory that has conj/negative views: its own
    count, as torch's, but the same shadow records, so that writes through either side sync."""
    new = VersionCounter()
    if type(vc) is ConjVersionCounter:
        new.__class__ = ConjVersionCounter
        new.recs = vc.recs
    return new


def _flat_root(a: np.ndarray) -> np.ndarray | None:
    """The storage root of a as a flat array of a's dtype, or None if it can't be."""
    root = _root(a)
    if not isinstance(root, np.ndarray) or not root.flags.writeable:
        return None
    if not (root.flags.c_contiguous or root.flags.f_contiguous):
        return None
    flat = root.ravel(order="K")
    if flat.dtype != a.dtype:
        if flat.nbytes % a.itemsize:
            return None
        flat = flat.view(np.uint8).view(a.dtype)
    return flat


def _root(a: Any) -> Any:
    while (b := getattr(a, "base", None)) is not None:  # as_strided's DummyArray bases too
        a = b
    return a


def _remap(arr: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """arr (a view into the flat buffer src) as the same view into dst."""
    off = arr.__array_interface__["data"][0] - src.__array_interface__["data"][0]
    return np.ndarray(arr.shape, arr.dtype, buffer=dst, offset=off, strides=arr.strides)


def _rec_of(t: Tensor) -> _Rec | None:
    """The record whose shadow t's array lies in, if any."""
    vc = t._vc
    if type(vc) is not ConjVersionCounter:
        return None
    root = _root(t._data)
    for rec in vc.recs:
        if rec.C is root:
            return rec
    return None


def is_conj(t: Tensor) -> bool:
    """Mirrors `Tensor.is_conj`."""
    rec = _rec_of(t)
    return rec is not None and not rec.neg and t._data.dtype.kind == "c"


def is_neg(t: Tensor) -> bool:
    """Mirrors `Tensor.is_neg`: a negative view, or a real part-view of a conj view (its
    imag)."""
    rec = _rec_of(t)
    return rec is not None and (rec.neg or t._data.dtype.kind != "c")


def shadow_of(t: Tensor) -> np.ndarray | None:
    """For a tensor in a shadow storage, the same view into the real storage."""
    rec = _rec_of(t)
    return None if rec is None else _remap(t._data, rec.C, rec.R)


def lazy_view(x: Tensor, r: Tensor, neg: bool) -> Tensor:
    """Make r (an op's result computing f(x)) a lazy conj (neg False) or negative view of x:
    r's array becomes x's geometry in the shadow storage of x's root."""
    rec0 = _rec_of(x)
    if rec0 is not None:
        if rec0.neg == neg:  # f(f(x)) is x: a plain view of the real storage
            arr = _remap(x._data, rec0.C, rec0.R)
            R = None
        else:
            return r  # a conj view of a negative view (or the reverse): materialized
    else:
        R = _flat_root(x._data)
        if R is None:
            return r
        arr = None
    vc = x._vc
    if vc is None:
        vc = x._vc = VersionCounter()
        if x._base is not None and x._base._vc is None:
            x._base._vc = vc
    if R is not None:
        if type(vc) is not ConjVersionCounter:
            vc.__class__ = ConjVersionCounter
            vc.recs = []
        f = np.negative if neg else np.conjugate
        rec = next((c for c in vc.recs if c.neg == neg and _same(c.R, R)), None)
        if rec is None:
            rec = _Rec()
            rec.R, rec.f, rec.neg = R, f, neg
            rec.C = f(R)
            rec.S = rec.C.copy()
            vc.recs.append(rec)
        else:
            rec.sync()
        arr = _remap(x._data, rec.R, rec.C)
    r._data = arr
    r._vc = vc
    base = x._base if x._base is not None else x
    r._base = base
    if r._grad_fn is not None:
        r._vv = vc.v
    if _FW.active:  # torch's tangent of a conj (negative) view is that view of the tangent
        tx = _fwad._get_tangent(x)
        if tx is not None and _fwad._get_tangent(r) is not None:
            from .pointwise import _conj, _neg_view_op

            op = _neg_view_op if neg else _conj
            _fwad._set_tangent(r, lazy_view(tx, op(tx), neg))
    return r


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return (
        a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        and a.size == b.size
        and a.dtype == b.dtype
    )


def _neg_view(input: Tensor) -> Tensor:
    """Mirrors `torch._neg_view`: a lazy negative view (NegViewBackward0)."""
    from .pointwise import _neg_view_op

    if input._data.dtype == np.bool_:
        raise NotImplementedError("\"neg_cpu\" not implemented for 'Bool'")
    return lazy_view(input, _neg_view_op(input), True)


def _conj_fn(input: Tensor) -> Tensor:
    """Mirrors `torch._conj`: the lazy conjugate view, the tensor itself when real."""
    from .pointwise import conj

    return conj(input)


def check_lazy_view_dtype(t: Tensor) -> None:
    """torch refuses view(dtype) of a conj or negative view, even to its own dtype."""
    if type(t._vc) is not ConjVersionCounter:
        return
    if is_conj(t):
        what = "conjugate view tensors"
    elif is_neg(t):
        what = "tensors with negative bit set"
    else:
        return
    raise RuntimeError(
        f"torch.Tensor.view is not supported for {what} when converting to a different dtype."
    )


def shadow_storage(t: Tensor, storage: np.ndarray) -> np.ndarray:
    """For a conj (negative) view t, its storage array as the same view into t's shadow; the
    storage itself for another tensor."""
    rec = _rec_of(t)
    if rec is None or storage.dtype != t._data.dtype:
        return storage
    return _remap(storage, rec.R, rec.C)


def lazy_alias(t: Tensor, neg: bool) -> Tensor:
    """A conj (negative) view of t's memory that is no view of t: a loaded tensor with the bit."""
    from .pointwise import _conj, _neg_view_op

    r = lazy_view(t, (_neg_view_op if neg else _conj)(t), neg)
    r._base = None
    r._grad_fn = None
    return r


FUNCTIONS["_neg_view"] = _neg_view
FUNCTIONS["_conj"] = _conj_fn
METHODS["_neg_view"] = _neg_view
METHODS["_conj"] = _conj_fn


def conj_physical_(self: Tensor) -> Tensor:
    """Mirrors `Tensor.conj_physical_`: conjugates a complex tensor in place (its conj views
    then read the conjugate of the new values); a real tensor is left as is."""
    if self._data.dtype.kind != "c":
        return self
    from .inplace import make_inplace
    from .pointwise import _conj_physical

    return make_inplace(_conj_physical)(self)


METHODS["conj_physical_"] = conj_physical_
FUNCTIONS["conj_physical_"] = conj_physical_


def _lazy_op(view: Tensor, base: Tensor) -> Any:
    """For a conj (negative) view of its base's dtype, the op making it (conj, _neg_view, both
    their own inverse); None otherwise."""
    rec = _rec_of(view)
    if rec is None or view._data.dtype != base._data.dtype:
        return None
    from .pointwise import _conj, _neg_view_op

    return _neg_view_op if rec.neg else _conj


def lazy_view_grad_fn(view: Tensor, base: Tensor, op: Any, vidx: np.ndarray | None = None) -> None:
    """Regenerate a conj (negative) view's grad_fn on its base's current history, as torch
    replays the view: the conj last (ConjBackward0 on the base, or on AsStridedBackward0 of it
    for another geometry), or first (AsStridedBackward0 of ConjBackward0 of the base)."""
    from .shape import offset_of

    stand = _make(shadow_of(view))
    sd, bd = stand._data, base._data
    node = view._grad_fn
    last = node is not None and node.name() in ("ConjBackward0", "NegViewBackward0")
    prev = _GM.grad
    _GM.grad = True
    try:
        if sd.shape == bd.shape and sd.strides == bd.strides and offset_of(sd, bd) == 0:
            out = op(base)._grad_fn
        elif last:
            set_as_strided_grad_fn(stand, base, vidx)
            out = op(stand)._grad_fn
        else:
            c = op(base)
            c._data = bd
            set_as_strided_grad_fn(stand, c, vidx)
            out = stand._grad_fn
    finally:
        _GM.grad = prev
    _set_view_grad_fn(view, base, out)
