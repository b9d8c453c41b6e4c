"""The backward engine: an iterative walk over the graph that knows no op.

Note [Engine order]
Like torch's engine, we first count, for every node reachable from the roots, how many edges
point into it; then we run nodes whose count has reached zero, always the one with the highest
sequence number first (the most recently created), and AccumulateGrad nodes as soon as they are
ready. Gradients arriving at the same input slot are summed in arrival order. This reproduces
torch's hook and accumulation order, and the walk never recurses, so graph depth is unbounded.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
from typing import Any

import numpy as np

from .. import _grad_mode
from .anomaly_mode import _STATE as _ANOMALY
from .graph import AccumulateGrad, Node, VersionCounter, hook_name

_GM = _grad_mode.STATE


class _RunState(threading.local):
    def __init__(self) -> None:
        self.callbacks: list[Any] | None = None


_RUN = _RunState()


def queue_callback(callback: Any) -> None:
    """Run callback when the current backward finishes. Mirrors torch's
    `Variable._execution_engine.queue_callback`."""
    if _RUN.callbacks is None:
        raise RuntimeError("Final callbacks can only be installed during backward pass.")
    _RUN.callbacks.append(callback)


_tie = itertools.count()  # heap tie-breaker: AccumulateGrad nodes share one sequence number


def _collect(roots: list[Node]) -> dict[Node, int]:
    """Dependency counts: for each reachable node, the number of edges pointing into it."""
    deps: dict[Node, int] = {}
    stack = []
    for r in roots:
        if r not in deps:
            deps[r] = 0
            stack.append(r)
    get = deps.get
    while stack:
        node = stack.pop()
        for e in node._next:
            if e is None:
                continue
            nxt = e[0]
            c = get(nxt)
            if c is None:
                deps[nxt] = 1
                stack.append(nxt)
            else:
                deps[nxt] = c + 1
    return deps


def _needed(deps: dict[Node, int], targets: set[Node]) -> set[Node]:
    """Nodes that lie on a path to one of the targets (torch's exec_info)."""
    # Reverse edges, then walk back from the targets.
    parents: dict[Node, list[Node]] = {}
    for node in deps:
        for e in node._next:
            if e is not None:
                parents.setdefault(e[0], []).append(node)
    needed: set[Node] = set()
    stack = [t for t in targets if t in deps]
    while stack:
        n = stack.pop()
        if n in needed:
            continue
        needed.add(n)
        stack.extend(parents.get(n, ()))
    return needed


def _run_hooks(hooks: Any, grad: Any) -> Any:
    from .._tensor import Tensor

    for fn in tuple(hooks.values()):
        r = fn(grad)
        if r is not None:
            if not isinstance(r, Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
            if grad is not None:
                if r.shape != grad.shape:
                    raise RuntimeError(f"hook '{hook_name(fn)}' has changed the size of value")
                if r.dtype is not grad.dtype:
                    raise RuntimeError(
                        f"hook '{hook_name(fn)}' has changed the type of value (was "
                        f"{grad.dtype._legacy} got {r.dtype._legacy})"
                    )
            grad = r
    return grad


def _tensor_prehooks(node: Node, grads: list[Any]) -> None:
    """Tensor hooks, then the retain_grad hooks (always last), for each output slot."""
    if node._is_acc:
        x = node.variable._x
        if x is not None and x.hooks and grads[0] is not None:
            grads[0] = _run_hooks(x.hooks, grads[0])
        return
    tph = node._tensor_prehooks
    if tph:
        for nr, hooks in tph.items():
            if hooks and grads[nr] is not None:
                grads[nr] = _run_hooks(hooks, grads[nr])
    ret = node._retains
    if ret:
        for nr, ref in ret.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None:
                t._grad = g if _GM.grad else g.detach()
                if t._grad is g and not _GM.grad:
                    t._grad = g.clone()
            else:
                t._grad = t._grad + g  # out of place: a new object each time, as torch does


def _node_prehooks(node: Node, grads: list[Any]) -> list[Any]:
    for fn in tuple(node._prehooks.values()):
        r = fn(tuple(grads))
        if r is not None:
            if len(r) != len(grads):
                raise RuntimeError(
                    f"hook '{hook_name(fn)}' has returned an incorrect number of values (got "
                    f"{len(r)}, but expected {len(grads)})"
                )
            grads = list(r)
    return grads


def _node_posthooks(node: Node, outs: Any, grads: list[Any]) -> Any:
    for fn in tuple(node._hooks.values()):
        r = fn(tuple(outs), tuple(grads))
        if r is not None:
            if len(r) != len(outs):
                raise RuntimeError(
                    f"hook '{hook_name(fn)}' has returned an incorrect number of values (got "
                    f"{len(r)}, but expected {len(outs)})"
                )
            outs = tuple(r)
    return outs


def _forward_ad_active() -> bool:
    from .forward_ad import _STATE

    return bool(_STATE.active)


def _buffer_sum(old: Any, g: Any, in_place: bool) -> Any:
    """Sum two gradients for one input slot, as torch's input buffer does.

    torch adds in place when the buffered gradient is not shared (its use_count test) and grad
    mode is off, so such a sum has _version 1 and costs no allocation; a shared one (AddBackward0
    hands the same gradient to both inputs) is added out of place.
    """
    d = old._data
    if (
        in_place
        and not _GM.grad
        and d.base is None
        and d.flags.writeable
        and d.shape == g._data.shape
        and d.dtype == g._data.dtype
        and sys.getrefcount(old) <= _FREE_BUFFER_REFS + 1  # + this frame's `old`
        and sys.getrefcount(d) <= _FREE_ARRAY_REFS
    ):
        d += g._data
        old._bump()
        return old
    return old + g


# References to a buffered gradient that nothing else holds, seen inside _buffer_sum: the input
# buffer's list, the caller's expression and getrefcount's argument.
_FREE_BUFFER_REFS = 3
# References to a gradient that nothing else holds, as seen inside _accumulate: the Tensor is
# held by the engine's input buffer, the `grad` parameter and getrefcount's argument; its array
# by the Tensor, the `data` local and getrefcount's argument.
_FREE_TENSOR_REFS = 3
_FREE_ARRAY_REFS = 3


def _can_steal(grad: Any, data: np.ndarray) -> bool:
    """Whether the leaf may keep this gradient's array without a copy (torch's use_count test).

    Only a fresh, contiguous, writable array that no other tensor, view or caller holds.
    """
    return (
        not grad._rg
        and data.base is None
        and data.flags.c_contiguous
        and data.flags.writeable
        and sys.getrefcount(grad) <= _FREE_TENSOR_REFS + 1  # + the call frame of _can_steal
        and sys.getrefcount(data) <= _FREE_ARRAY_REFS + 1
    )


def _accumulate(node: AccumulateGrad, grad: Any, create_graph: bool) -> None:
    """Add grad into the leaf's .grad: in place normally, out of place under create_graph."""
    var = node.variable
    old = var._grad
    if old is None:
        if create_graph and grad._rg:
            from ..ops.inplace import copy_grad

            var._grad = copy_grad(grad)
        else:
            from .._tensor import _make

            data = grad._data
            if _can_steal(grad, data):
                var._grad = _make(data)
            else:
                # never hand out a gradient something else may hold (torch copies too)
                var._grad = _make(np.array(data, order="C", copy=True))
            if grad._vc is not None and grad._vc.v:
                var._grad._vc = VersionCounter()
                var._grad._vc.v = grad._vc.v
    elif create_graph:
        var._grad = old + grad
    else:
        from .._tensor import Tensor

        with _grad_mode.no_grad():
            if old._rg and isinstance(old, Tensor):
                old._data += grad._data
                old._bump()
            else:
                old.add_(grad)
    x = var._x
    if x is not None and x.post_acc_hooks:
        for fn in tuple(x.post_acc_hooks.values()):
            fn(var)


def _validate(node: Node, outs: Any) -> Any:
    """Check a node's gradient count; reduce each gradient to its input's shape and dtype.

    This is the one place where broadcast gradients are summed back to their input's shape
    (torch's validate_outputs), so backward formulas never un-broadcast themselves.
    """
    n = len(node._next)
    if len(outs) != n:
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients (expected {n}, "
            f"got {len(outs)})"
        )
    meta = node._in_meta
    if meta is None:
        return outs
    fixed = None
    for i, g in enumerate(outs):
        m = meta[i]
        if g is None or m is None:
            continue
        shape, dt = m
        d = g._data
        if d.shape != shape or d.dtype != dt._np:
            if fixed is None:
                fixed = list(outs)
            if d.shape != shape:
                g = _sum_to(g, shape, node, i)
            if g._data.dtype != dt._np:
                g = g.to(dt)
            fixed[i] = g
    return outs if fixed is None else fixed


def _sum_to(g: Any, shape: tuple[int, ...], node: Node, i: int) -> Any:
    gs = g._data.shape
    lead = len(gs) - len(shape)
    ok = lead >= 0 and all(s == 1 or s == gsz for s, gsz in zip(shape, gs[lead:], strict=True))
    if not ok:
        raise RuntimeError(
            f"Function {node.name()} returned an invalid gradient at index {i} - got "
            f"[{', '.join(map(str, gs))}] but expected shape compatible with "
            f"[{', '.join(map(str, shape))}]"
        )
    from ..ops.reduction import sum_to_size

    return sum_to_size(g, shape)


def _check_nan(node: Node, outs: Any, in_grads: list[Any]) -> None:
    for i, g in enumerate(outs):
        if g is not None and g._data.dtype.kind in "fc" and np.isnan(g._data).any():
            from .explain import nan_hint

            raise RuntimeError(
                f"Function '{node.name()}' returned nan values in its {i}th output.\n"
                + nan_hint(node, in_grads, outs, i)
            )


def run_backward(
    roots: list[tuple[Node, int]],
    grads: list[Any],
    keep_graph: bool,
    create_graph: bool,
    capture: list[tuple[Node, int]] | None = None,
    accumulate_into: list[Any] | None = None,
) -> list[Any] | None:
    """Propagate grads from the root edges.

    Args:
        roots: the output edges, one per gradient in `grads`.
        capture: for autograd.grad, the edges whose incoming gradient is returned (nothing is
            accumulated into any .grad).
        accumulate_into: for backward(inputs=...), the tensors whose .grad is filled; the walk
            is pruned to the nodes that lead to them.
    """
    root_nodes = [e[0] for e in roots]
    deps = _collect(root_nodes)
    for n in root_nodes:  # the virtual graph root points at each root edge
        deps[n] += 1

    needed: set[Node] | None = None
    captured: dict[tuple[int, int], list[int]] = {}
    results: list[Any] = []
    acc_targets: dict[Node, Any] = {}
    if capture is not None:
        results = [None] * len(capture)
        for i, (node, nr) in enumerate(capture):
            captured.setdefault((id(node), nr), []).append(i)
        targets = {node for node, _ in capture}
        needed = _needed(deps, targets)
        capture_nodes = targets
    elif accumulate_into is not None:
        for t in accumulate_into:
            node, nr = t._edge()
            acc_targets[node] = (t, nr)
        needed = _needed(deps, set(acc_targets))
        capture_nodes = set(acc_targets)
    else:
        capture_nodes = set()

    buffers: dict[Node, list[Any]] = {}
    heap: list[tuple[int, int, Node]] = []
    # under forward AD a gradient may carry a tangent: sum out of place so it stays paired
    sum_in_place = not _forward_ad_active()
    for (node, nr), g in zip(roots, grads, strict=True):
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * node.num_outputs
        buf[nr] = g if buf[nr] is None else _buffer_sum(buf[nr], g, sum_in_place)
        deps[node] -= 1
        if deps[node] == 0:
            heapq.heappush(heap, (-node._seq, next(_tie), node))

    prev_grad = _GM.grad
    prev_callbacks = _RUN.callbacks
    _RUN.callbacks = []
    _GM.grad = create_graph
    # torch computes inf/nan silently: numpy's floating-point warnings stay off in backward
    errstate = np.errstate(all="ignore")
    errstate.__enter__()
    anomaly = _ANOMALY.enabled
    pop = heapq.heappop
    push = heapq.heappush
    tie = _tie
    try:
        while heap:
            node = pop(heap)[2]
            in_grads = buffers.pop(node, None) or [None] * node.num_outputs
            if needed is not None and node not in needed:
                _release_children(node, deps, buffers, heap, needed)
                continue
            is_acc = node._is_acc
            if node._x is not None or is_acc:
                _tensor_prehooks(node, in_grads)
            if capture_nodes and node in capture_nodes:
                if capture is not None:
                    for nr in range(len(in_grads)):
                        for i in captured.get((id(node), nr), ()):
                            results[i] = in_grads[nr]
                    if not _has_needed_child(node, needed):
                        _release_children(node, deps, buffers, heap, None)
                        continue
                elif not is_acc and not _has_needed_child(node, needed):
                    # a non-leaf input was made to retain its grad: its hook has filled .grad
                    _release_children(node, deps, buffers, heap, None)
                    continue
            if is_acc:
                if capture is None and in_grads[0] is not None:
                    x = node._x
                    if x is not None and x.prehooks:
                        in_grads = _node_prehooks(node, in_grads)
                    _accumulate(node, in_grads[0], create_graph)  # type: ignore[arg-type]
                    if x is not None and x.hooks:
                        _node_posthooks(node, (), in_grads)
                continue
            x = node._x
            if x is not None and x.prehooks:
                in_grads = _node_prehooks(node, in_grads)
            # identity tests only: list.count(None) would call Tensor.__eq__ on each gradient
            if in_grads[0] is None if len(in_grads) == 1 else all(g is None for g in in_grads):
                outs: Any = [None] * len(node._next)
            else:
                try:
                    outs = node.apply(in_grads)
                except Exception:
                    if anomaly and node._trace is not None:
                        _warn_trace(node)
                    raise
                outs = _validate(node, outs)
            if x is not None and x.hooks:
                outs = _node_posthooks(node, outs, in_grads)
            if anomaly and _ANOMALY.check_nan:
                try:
                    _check_nan(node, outs, in_grads)
                except RuntimeError:
                    if node._trace is not None:
                        _warn_trace(node)
                    raise
            if not keep_graph:
                node.release()
            # hand each gradient on and drop our reference to it as we go, so that the input
            # buffer may add into a gradient nothing else holds (see _buffer_sum)
            outs = list(outs)
            for k, e in enumerate(node._next):
                g = outs[k]
                outs[k] = None
                if e is None:
                    continue
                nxt, nr = e
                if g is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        if nr == 0 and nxt.num_outputs == 1:
                            buffers[nxt] = [g]
                        else:
                            buf = buffers[nxt] = [None] * nxt.num_outputs
                            buf[nr] = g
                    else:
                        old = buf[nr]
                        buf[nr] = g if old is None else _buffer_sum(old, g, sum_in_place)
                c = deps[nxt] - 1
                deps[nxt] = c
                if c == 0:
                    push(heap, (-nxt._seq, next(tie), nxt))
            # drop our references to the gradients handed on, so that a leaf can keep a
            # fresh gradient without a copy (see _can_steal)
            outs = g = None
        callbacks = _RUN.callbacks
        while callbacks:  # a callback may queue another one
            callbacks.pop(0)()
    finally:
        errstate.__exit__(None, None, None)
        _GM.grad = prev_grad
        _RUN.callbacks = prev_callbacks
    return results if capture is not None else None


def _has_needed_child(node: Node, needed: set[Node] | None) -> bool:
    if needed is None:
        return True
    return any(e is not None and e[0] in needed for e in node._next)


def _release_children(
    node: Node, deps: dict[Node, int], buffers: dict[Node, list[Any]], heap: list[Any], needed: Any
) -> None:
    """Skip a node: its children still count this edge as done."""
    for e in node._next:
        if e is None:
            continue
        nxt = e[0]
        c = deps[nxt] - 1
        deps[nxt] = c
        if c == 0:
            heapq.heappush(heap, (-nxt._seq, next(_tie), nxt))


def _warn_trace(node: Node) -> None:
    import warnings

    warnings.warn(
        f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
        + "".join(node._trace),
        UserWarning,
        stacklevel=3,
    )
