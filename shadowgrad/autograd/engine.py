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
from .._dtype import LD as _LD
from .._dtype import round_bf16 as _round_bf16
from .._formats import contiguous_format as _CONTIGUOUS
from .anomaly_mode import _STATE as _ANOMALY
from .forward_ad import _STATE as _FW
from .graph import AccumulateGrad, Node, VersionCounter, hook_name

_tmake: Any = None  # _tensor._make, bound once _tensor is imported (it imports this package)

_GM = _grad_mode.STATE
_LAYOUT = _grad_mode.GRAD_LAYOUT  # enforce_grad_layout_policy's flag


class _RunState(threading.local):
    def __init__(self) -> None:
        self.callbacks: list[Any] | None = None
        # the running backward (or one it runs inside) computes only some inputs' grads
        # (autograd.grad, backward(inputs=...)), as torch marks its graph task: the reentrant
        # checkpoint refuses to run there
        self.partial = False
        # the running backward's graph (dependency counts, the nodes on a path to its
        # targets or None, its autograd.grad capture targets or None) and its id: torch's
        # graph task, read by will_execute and register_multi_grad_hook
        self.task: tuple[Any, ...] | None = None


_RUN = _RunState()
_task_ids = itertools.count()


def will_execute(node: Any) -> bool:
    """Whether the running backward executes node: torch's _will_engine_execute_node."""
    task = _RUN.task
    if task is None:
        raise RuntimeError(
            "_will_engine_execute_node should only be called during the backward pass"
        )
    deps, needed, captured, _ = task
    if node not in deps:
        return False
    if needed is None:
        return True
    if node not in needed:
        return False
    if captured and node in captured and (node._is_acc or not node._next):
        raise RuntimeError(
            "A leaf node was passed to _will_engine_execute_node but we are currently running "
            "autograd.grad(). This is currently not supported."
        )
    return True


def current_task_id() -> int:
    """The running backward's id (torch's _current_graph_task_id), -1 outside backward."""
    task = _RUN.task
    return -1 if task is None else task[3]


def queue_callback(callback: Any) -> None:
    """Run callback when the current backward finishes. Mirrors torch's
    `Variable._execution_engine.queue_callback`."""
    if _RUN.callbacks is None:
        raise RuntimeError("Final callbacks can only be installed during backward pass.")
    _RUN.callbacks.append(callback)


# Note [Raw backward]
# Without create_graph (and outside forward AD and anomaly mode) gradients travel between nodes
# as bare numpy arrays: an op node with array formulas (`defop(raw=...)`) runs them through
# `apply_raw`, which returns gradients already summed to each input's shape and cast to its
# dtype. A Tensor is made only where something observes a gradient: tensor and node hooks,
# retain_grad, a captured autograd.grad input, a node without array formulas (`_run_node`), the
# leaf's .grad. In-place sums of buffered arrays and a leaf keeping its gradient follow torch's
# use-count rules on arrays (`_sum_raw`, `_accumulate_raw`), and the versions such in-place work
# gives a gradient are carried in `bumped`. The design and why: docs/design.md.
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
        nxt = node._e0  # the edge slots: see Note [Edge slots] in graph.py
        while nxt is not None and not node._erest:
            # a chain: follow it without the stack while its nodes are new
            c = get(nxt)
            if c is not None:
                deps[nxt] = c + 1
                break
            deps[nxt] = 1
            node = nxt
            nxt = node._e0
        else:
            if nxt is not None:
                c = get(nxt)
                if c is None:
                    deps[nxt] = 1
                    stack.append(nxt)
                else:
                    deps[nxt] = c + 1
        for e in node._erest:
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


def _check_hook_value(fn: Any, new: Any, old: Any) -> None:
    """torch's check of a hook's replacement gradient: same size, same type."""
    if new.shape != old.shape:
        raise RuntimeError(f"hook '{hook_name(fn)}' has changed the size of value")
    if new.dtype is not old.dtype:
        raise RuntimeError(
            f"hook '{hook_name(fn)}' has changed the type of value (was "
            f"{_type_string(old.dtype)} got {_type_string(new.dtype)})"
        )


def _type_string(dt: Any) -> str:
    """torch's Tensor::toString(): the legacy tensor-type name of the types that have one
    (torch.FloatTensor), else the dispatch key and scalar type (CPUComplexFloatType)."""
    if dt.is_complex or dt._short in ("Bool", "BFloat16"):
        return f"CPU{dt._short}Type"
    return dt._legacy


def _run_hooks(hooks: Any, grad: Any) -> Any:
    from .._tensor import Tensor

    for fn in tuple(hooks.values()):
        r = fn(grad)
        if r is not None:
            if grad is None:  # an output that got no gradient: its hooks see None
                raise RuntimeError("can't replace a None gradient with a non-None value")
            if not isinstance(r, Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
            if grad is not None:
                _check_hook_value(fn, r, grad)
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
            if hooks:  # torch calls them with None for an output that got no gradient
                grads[nr] = _run_hooks(hooks, grads[nr])
    ret = node._retains
    if ret:
        for nr, ref in ret.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None:
                # torch's retains_grad hook keeps a contiguous clone (CloneBackward0 under
                # create_graph), never the gradient the engine goes on using
                t._grad = g.clone(memory_format=_CONTIGUOUS)
            else:
                t._grad = t._grad + g  # out of place: a new object each time, as torch does


def _check_hook_result(fn: Any, result: Any, prev: Any) -> None:
    """A node hook's returned gradients, checked as torch's check_result does: a tuple of the
    same length, each entry None (dropping that gradient) or a Tensor of the old one's
    metadata, never a value where the gradient was None."""
    from .._tensor import Tensor

    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(prev):
        raise RuntimeError(
            f"hook '{hook_name(fn)}' has returned an incorrect number of values (got "
            f"{len(result)}, but expected {len(prev)})"
        )
    for new, old in zip(result, prev, strict=True):
        if new is None:
            continue
        if old is None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        if not isinstance(new, Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
        _check_hook_value(fn, new, old)


def _node_prehooks(node: Node, grads: list[Any]) -> list[Any]:
    for fn in tuple(node._prehooks.values()):
        r = fn(tuple(grads))
        if r is not None:
            _check_hook_result(fn, r, grads)
            grads = list(r)
    return grads


def _node_posthooks(node: Node, outs: Any, grads: list[Any]) -> Any:
    for fn in tuple(node._hooks.values()):
        r = fn(tuple(outs), tuple(grads))
        if r is not None:
            _check_hook_result(fn, r, outs)
            outs = r
    return outs


def _forward_ad_active() -> bool:
    return bool(_FW.active)


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
        if d.dtype is _LD:  # bfloat16: the sum rounded (Note [bfloat16 storage])
            d[...] = _round_bf16(d)
        old._bump()
        return old
    return old + g


# References to a buffered gradient that nothing else holds, seen inside _buffer_sum: the input
# buffer's list, the caller's expression and getrefcount's argument.
_FREE_BUFFER_REFS = 3
# References to a gradient Tensor that nothing else holds, seen inside _accumulate: the
# engine's input list, the `grad` parameter and getrefcount's argument.
_FREE_TENSOR_REFS = 3
# ... and to a buffered gradient's array inside _buffer_sum (the Tensor, the `d` local and
# getrefcount's argument)
_FREE_ARRAY_REFS = 3
# ... and to a gradient's array inside _kept_array, from either backward form: one holder in the
# caller's caller (the Tensor, or the engine loop's local), the caller's local or parameter,
# _kept_array's parameter and getrefcount's argument
_FREE_KEEP_REFS = 4
# ... and to the base of a gradient view inside _kept_array (the view, the `b` local and
# getrefcount's argument)
_FREE_BASE_REFS = 3
# Raw backward: references to a buffered array that nothing else holds, seen inside _sum_raw
# (the caller's `old` local or buffer slot, the parameter, getrefcount's argument).
_FREE_RAW_BUFFER_REFS = 3


def _kept_array(g: np.ndarray) -> np.ndarray | None:
    """The array a leaf may keep as its .grad without a copy (torch's use_count test), or None.

    The gradient's array, when it is writable, C-contiguous and held by nothing but the caller
    (`_FREE_KEEP_REFS`); or the array it views, when nothing else holds that one either: torch's
    test looks at the gradient tensor, not its storage, so it keeps a reshape's view, and a
    gradient transposed twice (mm's layout rule for a Linear's weight) is its base again. One
    rule for both backward forms (`_accumulate`, `_accumulate_raw`).
    """
    if not g.flags.writeable:
        return None
    b = g.base
    if b is not None:
        if type(b) is not np.ndarray or b.base is not None or sys.getrefcount(b) > _FREE_BASE_REFS:
            return None
        # g C-contiguous too: a view of the whole of b in b's own layout (a square b's
        # transpose has b's shape but not its layout)
        if (
            b.shape == g.shape
            and b.dtype == g.dtype
            and b.flags.c_contiguous
            and g.flags.c_contiguous
        ):
            if type(g) is not np.ndarray:  # a meta array viewing a plain one: g's copy
                return None
            return b if sys.getrefcount(g) <= _FREE_KEEP_REFS else None
        b = None
    if g.flags.c_contiguous and sys.getrefcount(g) <= _FREE_KEEP_REFS:
        return g
    return None


def _kept_any_layout(g: np.ndarray) -> np.ndarray | None:
    """Under enforce_grad_layout_policy(False): the gradient itself, whatever its layout, when
    nothing else holds it (torch steals it without the layout test, so a view keeps sharing
    what it views, an expanded gradient its stride 0)."""
    return g if sys.getrefcount(g) <= _FREE_KEEP_REFS else None


def _permuted_dense(a: np.ndarray) -> bool:
    """Whether a is non-overlapping and dense but not C-contiguous (a transposed or permuted
    leaf): torch's layout contract then gives its .grad the leaf's own strides."""
    if a.flags.c_contiguous or a.ndim < 2 or min(a.strides) < 0:
        return False
    order = sorted(range(a.ndim), key=lambda i: -a.strides[i])
    return bool(a.transpose(order).flags.c_contiguous)


def _grad_like_leaf(var_data: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """torch's clone_obey_contract for a permuted dense leaf: new_empty_strided with the
    leaf's strides, then copy_(grad)."""
    out = np.empty_like(var_data, dtype=grad.dtype)  # order "K": the leaf's layout
    out[...] = grad
    return out


def _create_graph_grad(leaf: np.ndarray, grad: Any) -> Any:
    """A leaf's first gradient under create_graph, where grad mode is on and torch never keeps
    the gradient itself (clone_obey_contract): for a dense leaf, new_empty_strided in the
    leaf's strides, then copy_(grad) (version 1; CopyBackwards when grad requires grad); for
    any other leaf, a contiguous clone (version 0; CloneBackward0)."""
    from .._tensor import _make

    dense = leaf.flags.c_contiguous or _permuted_dense(leaf)
    if grad._rg:
        if not dense:
            return grad.clone(memory_format=_CONTIGUOUS)
        from ..ops.inplace import copy_grad

        t = copy_grad(grad)
        t._data = _grad_like_leaf(leaf, t._data)
    elif not dense:
        return _make(np.array(grad._data, order="C", copy=True, subok=True))
    else:
        t = _make(_grad_like_leaf(leaf, grad._data))
    t._vc = VersionCounter()
    t._vc.v = 1
    return t


def _accumulate(node: AccumulateGrad, grad: Any, create_graph: bool) -> None:
    """Add grad into the leaf's .grad: in place normally, out of place under create_graph."""
    var = node.variable
    if not var._rg:
        # requires_grad_(False) once the graph was built: torch's accumulateGrad adds nothing,
        # its hooks still run (Tensor.requires_grad_ sends such a leaf down this path)
        _post_accumulate_hooks(var)
        return
    old = var._grad
    if grad._data.dtype is _LD and not grad._rg:  # Note [bfloat16 storage]
        grad = _tmake(_round_bf16(grad._data))
    if old is None and create_graph:
        var._grad = _create_graph_grad(var._data, grad)
    elif old is None and _permuted_dense(var._data) and _LAYOUT.enforce:
        from .._tensor import _make

        var._grad = _make(_grad_like_leaf(var._data, grad._data))
        var._grad._vc = VersionCounter()
        var._grad._vc.v = 1
    elif old is None:
        from .._tensor import _make

        data = grad._data
        keep = None
        if not grad._rg and sys.getrefcount(grad) <= _FREE_TENSOR_REFS:
            keep = _kept_array(data)
            if keep is None and not _LAYOUT.enforce:
                keep = _kept_any_layout(data)
        if keep is not None:
            var._grad = _make(keep)
            if grad._vc is not None and grad._vc.v:
                var._grad._vc = VersionCounter()
                var._grad._vc.v = grad._vc.v
        else:
            # never hand out a gradient something else may hold: torch copies too, with
            # new_empty_strided(...).copy_(grad), so the copy has version 1
            copied = (
                data.as_first_grad()  # a sparse gradient: its entries
                if type(data) is not np.ndarray and getattr(data, "_sg_sparse", False)
                else np.array(data, order="C", copy=True, subok=True)
            )
            var._grad = _make(copied)
            var._grad._vc = VersionCounter()
            var._grad._vc.v = 1
    elif create_graph:
        var._grad = old + grad
    else:
        from .._tensor import Tensor

        with _grad_mode.no_grad():
            if old._rg and isinstance(old, Tensor):
                old._data += grad._data
                if old._data.dtype is _LD:
                    old._data[...] = _round_bf16(old._data)
                old._bump()
            elif type(old._data) is not np.ndarray and old.is_sparse and _dense(grad):
                var._grad = old = _sparse_plus_dense(old, grad._data)  # torch: new_grad + old
            else:
                old.add_(grad)
        _check_layout(old._data, var._data)
    _post_accumulate_hooks(var)


def _post_accumulate_hooks(var: Any) -> None:
    x = var._x
    if x is not None and x.post_acc_hooks:
        for fn in tuple(x.post_acc_hooks.values()):
            r = fn(var)
            if r is not None:
                if not hasattr(r, "_data"):  # not a Tensor: torch's check of the object first
                    raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
                # the tensor itself (`lambda p: p.add_(...)`) passes, as torch's; another
                # tensor is checked as a tensor hook's value, then refused
                _check_hook_value(fn, r, var)
                if r is not var:
                    raise RuntimeError("Tensor post accumulate grad hooks should return None.")


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
            if g._data.dtype != dt._np and _casts(node, i):
                if g._data.dtype.kind == "c" and not dt.is_complex:
                    g = _real_part(node, g)
                g = g.to(dt)
            fixed[i] = g
    return outs if fixed is None else fixed


def _real_part(node: Node, g: Any) -> Any:
    """A complex gradient for a real input. torch's engine refuses it (validate_outputs), and
    the formulas that expect one take its real part themselves (handle_r_to_c in add, sub, mul,
    div, addcmul, ...; a cast, with copy_'s warning, in cumsum, cumprod and nansum). shadowgrad's
    formulas leave that to this one place (see Note [Complex gradients]), so the nodes whose
    torch formula does neither raise torch's error here."""
    name = node.name()
    if name in _R_TO_C_CASTS:
        from ..ops.shape import warn_complex_to_real

        warn_complex_to_real()
    if name in _R_TO_C_REFUSED:
        from .function import _COMPLEX_GRAD_CHECK

        raise RuntimeError(_COMPLEX_GRAD_CHECK)
    return g.real


# nodes whose torch formula gives a real input's gradient in the output's complex dtype
_R_TO_C_REFUSED = frozenset(
    {
        "WhereBackward0",
        "SumBackward0",
        "SumBackward1",
        "MeanBackward0",
        "MeanBackward1",
        "ProdBackward0",
        "ProdBackward1",
        "DistBackward0",
        "NormBackward1",
        "NormBackward3",
        "CumprodBackward0",  # its cast is followed by a formula in the output's dtype
    }
)
# nodes whose torch formula casts the gradient to the input's dtype: grad.to(self.scalar_type())
_R_TO_C_CASTS = frozenset({"CumsumBackward0", "CumprodBackward0", "NansumBackward0"})


def _leaf_grad_dtype(node: Node, i: int) -> Any:
    """The grad_dtype the leaf behind `node`'s edge i set (torch's InputMetadata of its
    AccumulateGrad, read when the gradient is validated): a dtype, None (any dtype is kept), or
    False (not set: the leaf's own dtype)."""
    e = node._next[i]
    if e is None or not e[0]._is_acc:
        return False
    x = e[0].variable._x
    return False if x is None else x.grad_dtype


def _casts(node: Node, i: int) -> bool:
    """Whether a gradient of another dtype than the input's is cast to it: always, except into
    a leaf whose grad_dtype is None, which keeps any dtype (a cast node's own formula, torch's
    grad.to(self.options()), still casts)."""
    return _leaf_grad_dtype(node, i) is not None or node.name() in _CAST_NODES


# nodes whose formula is a cast to the input's dtype (shadowgrad's leaves it to the check above)
_CAST_NODES = frozenset({"ToCopyBackward0"})


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


def _wrap(g: Any, version: int = 0) -> Any:
    """A raw gradient array as a Tensor (for hooks, nodes without raw formulas, results)."""
    if g is None:
        return None
    t = _tmake(g if type(g) is np.ndarray else np.asanyarray(g))
    if version:
        t._vc = VersionCounter()
        t._vc.v = version
    return t


def _unwrap(g: Any) -> Any:
    return None if g is None else g._data


def _sum_raw(old: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, bool]:
    """_buffer_sum for raw arrays: in place when nothing else holds `old` (see _buffer_sum)."""
    if (
        old.base is None
        and old.flags.writeable
        and old.shape == g.shape
        and old.dtype == g.dtype
        and sys.getrefcount(old) <= _FREE_RAW_BUFFER_REFS
    ):
        old += g
        if old.dtype is _LD:  # bfloat16: the sum rounded (Note [bfloat16 storage])
            old[...] = _round_bf16(old)
        return old, True
    r = np.asanyarray(np.add(old, g))  # 0-d operands give a numpy scalar: an array
    return (_round_bf16(r) if r.dtype is _LD else r), False


def _dense(t: Any) -> bool:
    return type(t._data) is np.ndarray


def _sparse_plus_dense(old: Any, grad: np.ndarray) -> Any:
    """A dense gradient accumulated into a sparse .grad: torch's `new_grad + variable_grad`,
    a new dense gradient (a rare branch: sparse/_ops.py)."""
    from ..sparse._ops import add_dense_sparse

    return _tmake(add_dense_sparse(grad, old._data, 1))


def _accumulate_raw(node: AccumulateGrad, grad: np.ndarray, version: int) -> None:
    """_accumulate for a raw gradient array (no create_graph, no hooks on the leaf)."""
    var = node.variable
    old = var._grad
    if grad.dtype is _LD:  # Note [bfloat16 storage]: the gradient rounded to bfloat16
        grad = _round_bf16(grad)
    if old is None:
        keep = None if _permuted_dense(var._data) else _kept_array(grad)
        if keep is None and not _LAYOUT.enforce:
            keep = _kept_any_layout(grad)
        if keep is not None:
            var._grad = t = _tmake(keep)
        else:
            # torch's clone_obey_contract: new_empty_strided(...).copy_(grad), version 1
            if type(grad) is not np.ndarray and getattr(grad, "_sg_sparse", False):
                var._grad = t = _tmake(grad.as_first_grad())  # a sparse gradient (its entries)
            elif _permuted_dense(var._data):
                var._grad = t = _tmake(_grad_like_leaf(var._data, grad))
            else:
                var._grad = t = _tmake(np.array(grad, order="C", copy=True, subok=True))
            version = 1
        if version:
            t._vc = VersionCounter()
            t._vc.v = version
    else:
        d = old._data
        if old._rg or (
            old._base is None
            and not old._inf
            and d.shape == grad.shape
            and d.dtype == grad.dtype
            and d.flags.writeable
        ):
            # torch's `variable.grad += new_grad`: what add_ would do for a plain grad tensor
            d += grad
            if d.dtype is _LD:
                d[...] = _round_bf16(d)
            old._bump()
        elif type(d) is not np.ndarray and type(grad) is np.ndarray and old.is_sparse:
            var._grad = old = _sparse_plus_dense(old, grad)  # torch: new_grad + old
        else:
            with _grad_mode.no_grad():
                old.add_(_tmake(grad))
        _check_layout(old._data, var._data)


def _check_layout(g: np.ndarray, v: np.ndarray) -> None:
    """torch's warning (once) after summing into an existing .grad that breaks the gradient
    layout contract (accumulate_grad.h's CHECK_RESULT, utils::obeys_layout_contract): a dense
    leaf's grad has its strides in every dim of size > 1 (and no stride 0 where the leaf's is
    not), any other leaf's grad is contiguous."""
    if (g.strides == v.strides and g.itemsize == v.itemsize) or g.shape != v.shape:
        return
    gs = [s // g.itemsize for s in g.strides]  # in elements, as torch's
    vs = [s // v.itemsize for s in v.strides]
    if v.flags.c_contiguous or _permuted_dense(v):
        ok = all(
            (a == b) if n != 1 else not (a == 0 and b != 0)
            for n, a, b in zip(g.shape, gs, vs, strict=True)
        )
    else:
        ok = g.flags.c_contiguous
    if not ok and _LAYOUT.enforce:
        from .._tensor import warn_once

        warn_once(
            "grad_layout_contract",
            "grad and param do not obey the gradient layout contract. This is not an error, but "
            f"may impair performance.\ngrad.sizes() = {list(g.shape)}, strides() = {gs}\n"
            f"param.sizes() = {list(v.shape)}, strides() = {vs}",
            stacklevel=2,
        )


def fix_raw_grad(node: Node, i: int, g: Any, shape: tuple[int, ...], dt: Any) -> np.ndarray:
    """A raw gradient summed to its input's shape and cast to its dtype (torch's
    validate_outputs, on arrays; see _validate)."""
    if type(g) is not np.ndarray:
        g = np.asanyarray(g)
    if g.shape != shape:
        g = _sum_to_raw(g, shape, node, i)
    if g.dtype != dt._np and _casts(node, i):
        g = _tmake(g).to(dt)._data
    return g


def _sum_to_raw(g: np.ndarray, shape: tuple[int, ...], node: Node, i: int) -> np.ndarray:
    """_sum_to on an array: the same numpy sums as `sum_to_size`, without the op layer."""
    gs = g.shape
    lead = len(gs) - len(shape)
    if lead < 0 or any(s != 1 and s != gsz for s, gsz in zip(shape, gs[lead:], strict=True)):
        return _sum_to(_tmake(g), shape, node, i)._data  # raises torch's error
    dims = tuple(range(lead)) + tuple(
        lead + k for k, s in enumerate(shape) if s == 1 and gs[lead + k] != 1
    )
    if not dims:
        r = g
    elif g.dtype == np.float16:  # as sum: accumulated in float32, rounded once
        from ..ops.reduction import _half_sum

        r = _half_sum(g, dims, True, None)
    else:
        r = np.asanyarray(np.add.reduce(g, axis=dims, keepdims=True))  # np.sum, minus its wrapper
    return r.reshape(shape) if lead else r


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

    See Note [Raw backward]: without create_graph (and outside forward AD) gradients travel as
    bare arrays and become Tensors only where a hook, a capture or a node without raw formulas
    needs one.
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

    # under forward AD a gradient may carry a tangent: Tensors summed out of place, so it stays
    # paired
    fw_active = _forward_ad_active()
    raw = not create_graph and not fw_active and not _ANOMALY.enabled
    sum_in_place = not fw_active
    # raw mode: versions of buffered arrays that were summed in place (torch's in-place input
    # buffer bumps the gradient's version; a leaf that keeps it shows that version)
    bumped: dict[tuple[Node, int], int] = {}
    buffers: dict[Node, list[Any]] = {}
    heap: list[tuple[int, int, Node]] = []
    for (node, nr), g in zip(roots, grads, strict=True):
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * node.num_outputs
        if raw:
            if g._vc is not None and g._vc.v:
                bumped[(node, nr)] = bumped.get((node, nr), 0) + g._vc.v
            g = g._data
            if buf[nr] is None:
                buf[nr] = g
            else:
                buf[nr], inplace = _sum_raw(buf[nr], g)
                if inplace:
                    bumped[(node, nr)] = bumped.get((node, nr), 0) + 1
        else:
            buf[nr] = g if buf[nr] is None else _buffer_sum(buf[nr], g, sum_in_place)
        g = None
        deps[node] -= 1
        if deps[node] == 0:
            heapq.heappush(heap, (-node._seq, next(_tie), node))

    prev_grad = _GM.grad
    prev_callbacks = _RUN.callbacks
    _RUN.callbacks = []
    prev_partial = _RUN.partial
    _RUN.partial = prev_partial or capture is not None or accumulate_into is not None
    prev_task = _RUN.task
    _RUN.task = (deps, needed, capture_nodes if capture is not None else None, next(_task_ids))
    _GM.grad = create_graph
    # torch computes inf/nan silently: numpy's floating-point warnings stay off in backward
    errstate = np.errstate(all="ignore")
    errstate.__enter__()
    anomaly = _ANOMALY.enabled
    # Note [Chains]: a chain of nodes, each the only consumer of the last one's gradient, runs in
    # one tight loop (the hand-off below, cut down to that case); capture, pruning, anomaly
    # checks and version bookkeeping take the general path
    chain = raw and needed is None and not capture_nodes and not anomaly
    pop = heapq.heappop
    push = heapq.heappush
    tie = _tie
    try:
        # `ready`: a node to run next without the heap (the only one ready while the heap is
        # empty, so the heap would have picked it too)
        ready: Node | None = None
        # and its gradients, when they were handed straight to it instead of to `buffers` (a
        # chain: the node's only input gradient, and it became ready as it arrived)
        ready_grads: list[Any] | None = None
        while heap or ready is not None:
            if ready is not None:
                node = ready
                ready = None
                if ready_grads is not None:
                    in_grads = ready_grads
                    ready_grads = None
                else:
                    in_grads = buffers.pop(node, None)
            else:
                node = pop(heap)[2]
                in_grads = buffers.pop(node, None)
            if in_grads is None:
                in_grads = [None] * node.num_outputs
            if needed is not None and node not in needed:
                if len(root_nodes) == 1 and node is root_nodes[0] and in_grads[0] is not None:
                    # torch's engine makes a lone root edge the graph root itself, and a node
                    # it runs but does not need still calls its tensor pre-hooks (tensor hooks,
                    # retain_grad): autograd.grad(y, [unrelated]) fills a retained y.grad
                    _tensor_prehooks(node, _wrap_all(node, in_grads, bumped) if raw else in_grads)
                _release_children(node, deps, buffers, heap, needed)
                continue
            vers = None  # raw mode: versions of gradients a Tensor node handed back
            if raw and node._x is None and (not capture_nodes or node not in capture_nodes):
                if node._raw_ok:
                    # the hot path: an op node with raw formulas and no hooks
                    if in_grads[0] is None:
                        outs: Any = [None] * len(node._next)
                    else:
                        outs = node.apply_raw(in_grads)
                        if bumped:
                            vers = _view_versions(node, in_grads[0], outs, bumped)
                        in_grads = None
                        # Note [Chains]: while the node's one edge leads to a node that this
                        # gradient makes ready, and nothing else waits, run that node here
                        while chain and not bumped and not node._erest and not heap:
                            nxt = node._e0
                            if nxt is None or node._r0 or nxt in buffers:
                                break
                            c = deps[nxt] - 1
                            g = outs[0]
                            if c or g is None or nxt.num_outputs != 1:
                                break
                            deps[nxt] = 0
                            if not keep_graph:
                                node.release()
                            outs = None
                            node = nxt
                            if not node._raw_ok or node._x is not None:
                                ready = node  # the general path takes it from here
                                ready_grads = [g]
                                break
                            outs = node.apply_raw([g])
                            g = None
                        if ready is not None:
                            g = None
                            continue
                elif node._is_acc and node.variable._x is None:
                    g = in_grads[0]
                    if g is not None:
                        in_grads = None
                        _accumulate_raw(node, g, bumped.pop((node, 0), 0) if bumped else 0)
                        g = None
                    continue
                else:
                    # the Tensors replace the arrays (no second holder of a gradient's array: a
                    # hooked leaf may then keep it without a copy, as torch's does)
                    in_grads = _wrap_all(node, in_grads, bumped)
                    outs = _run_node(
                        node, in_grads, node._is_acc, capture, capture_nodes, captured, results,
                        needed, create_graph, deps, buffers, heap,
                    )  # fmt: skip
                    if outs is None:
                        continue
                    outs, vers = _unwrap(outs)
            else:
                if raw:
                    in_grads = _wrap_all(node, in_grads, bumped)
                outs = _run_node(
                    node, in_grads, node._is_acc, capture, capture_nodes, captured, results,
                    needed, create_graph, deps, buffers, heap,
                )  # fmt: skip
                if outs is None:
                    continue
                if raw:
                    outs, vers = _unwrap(outs)
            if anomaly and _ANOMALY.check_nan:
                try:
                    _check_nan(node, outs, in_grads)  # its hint reads the saved values
                except RuntimeError:
                    _warn_trace(node)
                    if not keep_graph:
                        # freed as torch's evaluate_function frees them before its nan check:
                        # a second backward through the node then raises
                        node.release()
                    raise
            if not keep_graph:
                node.release()
            # the node's input gradients are done with, as torch frees its input buffer: a
            # gradient a formula passes through (a hook's result through SubBackward0) may then
            # be summed in place downstream (fuzzer find)
            in_grads = None
            # hand each gradient on and drop our reference to it as we go, so that the input
            # buffer may add into a gradient nothing else holds (see _buffer_sum)
            if type(outs) is not list:
                outs = list(outs)
            # the edges, from their slots (see Note [Edge slots] in graph.py): edge 0 is
            # (_e0, _r0), edge k > 0 is _erest[k - 1]
            rest = node._erest
            n_rest = len(rest)
            nxt = node._e0
            nr = node._r0
            k = 0
            while True:
                if k:
                    if k > n_rest:
                        break
                    e = rest[k - 1]
                    if e is None:
                        k += 1
                        continue
                    nxt, nr = e
                elif nxt is None:
                    k = 1
                    continue
                g = outs[k]
                outs[k] = None
                k += 1
                c = deps[nxt] - 1
                deps[nxt] = c
                if g is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        if nr == 0 and nxt.num_outputs == 1:
                            if c == 0 and ready is None and not heap:
                                ready_grads = [g]  # straight to the next node
                            else:
                                buffers[nxt] = [g]
                        else:
                            buf = buffers[nxt] = [None] * nxt.num_outputs
                            buf[nr] = g
                        if vers is not None and k - 1 in vers:
                            bumped[(nxt, nr)] = vers[k - 1]
                    else:
                        old = buf[nr]
                        if old is None:
                            buf[nr] = g
                            if vers is not None and k - 1 in vers:
                                bumped[(nxt, nr)] = vers[k - 1]
                        elif raw:
                            buf[nr] = None
                            buf[nr], inplace = _sum_raw(old, g)
                            old = None
                            if inplace:
                                bumped[(nxt, nr)] = bumped.get((nxt, nr), 0) + 1
                            elif bumped:
                                bumped.pop((nxt, nr), None)  # a new array: version 0
                        else:
                            buf[nr] = _buffer_sum(old, g, sum_in_place)
                        old = None
                if c == 0:
                    if ready is None and not heap:
                        ready = nxt
                    else:
                        if ready is not None:
                            if ready_grads is not None:
                                buffers[ready] = ready_grads
                                ready_grads = None
                            push(heap, (-ready._seq, next(tie), ready))
                            ready = None
                        push(heap, (-nxt._seq, next(tie), nxt))
            # drop our references to the gradients handed on, so that a leaf can keep a
            # fresh gradient without a copy (see _kept_array)
            outs = g = buf = None
        callbacks = _RUN.callbacks
        while callbacks:  # a callback may queue another one
            callbacks.pop(0)()
    finally:
        errstate.__exit__(None, None, None)
        _GM.grad = prev_grad
        _RUN.callbacks = prev_callbacks
        _RUN.partial = prev_partial
        _RUN.task = prev_task
    if capture is not None and raw:
        return [_wrap(g) if type(g) is np.ndarray else g for g in results]
    return results if capture is not None else None


def _view_versions(
    node: Node, g: np.ndarray, outs: list[Any], bumped: dict[tuple[Node, int], int]
) -> dict[int, int] | None:
    """Raw mode: a gradient with a version (summed in place, or made by an in-place kernel)
    shares it with the views a formula makes of it (a reshape, a transpose, an expand), as a
    torch view shares its base's version counter."""
    v = bumped.pop((node, 0), 0)
    if not v:
        return None
    root = g if g.base is None else g.base
    vers = None
    for k, r in enumerate(outs):
        if type(r) is np.ndarray and (r is root or r.base is root):
            if vers is None:
                vers = {}
            vers[k] = v
    return vers


def _wrap_all(node: Node, in_grads: list[Any], bumped: dict[tuple[Node, int], int]) -> list[Any]:
    if not bumped:
        return [_wrap(g) for g in in_grads]
    return [_wrap(g, bumped.pop((node, k), 0)) for k, g in enumerate(in_grads)]


def _unwrap(outs: Any) -> tuple[list[Any], dict[int, int] | None]:
    """Tensor gradients back to arrays, with the versions of those modified in place (a
    formula's in-place kernel, as torch's as_strided_backward), which raw mode carries on."""
    arrays = []
    vers = None
    for k, g in enumerate(outs):
        if g is None:
            arrays.append(None)
            continue
        arrays.append(g._data)
        vc = g._vc
        if vc is not None and vc.v:
            if vers is None:
                vers = {}
            vers[k] = vc.v
    return arrays, vers


def _run_node(
    node: Node,
    in_grads: list[Any],
    is_acc: bool,
    capture: Any,
    capture_nodes: Any,
    captured: Any,
    results: list[Any],
    needed: Any,
    create_graph: bool,
    deps: Any,
    buffers: Any,
    heap: Any,
) -> Any:
    """One node with Tensor gradients: hooks, captures, accumulation and apply.

    Returns the node's output gradients, or None when nothing is handed on (a leaf, a capture
    that ends the walk here).
    """
    if is_acc:
        x = node.variable._x
        gd = False if x is None else x.grad_dtype
        g = in_grads[0]
        if gd and g is not None and g.dtype is not gd:
            # a leaf's grad_dtype: its gradient is cast to it before its hooks see it
            in_grads[0] = g.to(gd)
        g = None
    if node._x is not None or is_acc:
        _tensor_prehooks(node, in_grads)
    if capture_nodes and node in capture_nodes:
        if capture is not None:
            for nr in range(len(in_grads)):
                for i in captured.get((id(node), nr), ()):
                    results[i] = in_grads[nr]
            if not _has_needed_child(node, needed):
                _release_children(node, deps, buffers, heap, None)
                return None
        elif not is_acc and not _has_needed_child(node, needed):
            # a non-leaf input was made to retain its grad: its hook has filled .grad. torch
            # still runs the node, computing none of its outputs (no edge is needed): its node
            # hooks fire, the post hooks with undefined grad_inputs, and it unpacks its saved
            # values (a graph already freed raises the second-backward error); the caller then
            # frees them, and hands undefined gradients on
            if any(g is not None for g in in_grads):
                x = node._x
                if x is not None and x.prehooks:
                    in_grads = _node_prehooks(node, in_grads)
                node.apply(in_grads)
                outs = [None] * len(node._next)
                if x is not None and x.hooks:
                    _node_posthooks(node, outs, in_grads)
                return outs
            _release_children(node, deps, buffers, heap, None)
            return None
    x = node._x
    if is_acc:
        if capture is None and in_grads[0] is not None:
            if x is not None and x.prehooks:
                in_grads = _node_prehooks(node, in_grads)
            _accumulate(node, in_grads[0], create_graph)  # type: ignore[arg-type]
            if x is not None and x.hooks:
                _node_posthooks(node, (), in_grads)
        return None
    if x is not None and x.prehooks:
        in_grads = _node_prehooks(node, in_grads)
    # identity tests only: list.count(None) would call Tensor.__eq__ on each gradient
    if (in_grads[0] is None if len(in_grads) == 1 else all(g is None for g in in_grads)) and (
        not getattr(node, "_call_on_undefined", False)
    ):
        outs: Any = [None] * len(node._next)
    else:
        try:
            outs = _apply_as_parent(node, in_grads) if _ANOMALY.enabled else node.apply(in_grads)
        except Exception:
            if _ANOMALY.enabled:
                _warn_trace(node)
            raise
        outs = _validate(node, outs)
    if x is not None and x.hooks:
        outs = _node_posthooks(node, outs, in_grads)
    return outs


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


def _apply_as_parent(node: Node, in_grads: Any) -> Any:
    """node.apply in anomaly mode: the nodes its formulas record (create_graph) note it as
    their parent (see _warn_trace)."""
    prev = _ANOMALY.parent
    _ANOMALY.parent = node
    try:
        return node.apply(in_grads)
    finally:
        _ANOMALY.parent = prev


def _warn_trace(node: Node) -> None:
    import warnings

    if node._trace is None:  # made outside anomaly mode
        warnings.warn(
            f"Error detected in {node.name()}. No forward pass information available. Enable "
            "detect anomaly during forward pass for more information.",
            UserWarning,
            stacklevel=3,
        )
        return
    warnings.warn(
        f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
        + "".join(node._trace),
        UserWarning,
        stacklevel=3,
    )
    # a node recorded by a backward (create_graph): torch adds the forward trace of the node
    # whose backward recorded it, and of that one's parent in turn
    parent = getattr(node._trace, "parent", None)
    while parent is not None and parent._trace is not None:
        warnings.warn(
            f"\n\nPrevious calculation was induced by {parent.name()}. Traceback of forward "
            "call that induced the previous calculation:\n" + "".join(parent._trace),
            UserWarning,
            stacklevel=3,
        )
        parent = getattr(parent._trace, "parent", None)
