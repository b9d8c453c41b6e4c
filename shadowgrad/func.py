"""Function transforms: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, linearize,
functional_call. Mirrors `torch.func`.

The transforms are built on the tape: reverse transforms differentiate fresh aliases of the
inputs with `autograd.grad`, forward transforms use `autograd.forward_ad`. An input that already
requires grad (an enclosing reverse transform) is aliased through a view so the result stays
differentiable with respect to it; an input with a tangent (an enclosing forward transform) keeps
its tangent, so `jacfwd(jacrev(f))` (hessian) works. The user's tensors are never changed.

Differences: `vmap` runs the function once per sample and stacks the results (the same values
and gradients; select/stack nodes in the graph), with a function mode that follows which
tensors derive from the mapped inputs to raise torch's batching errors; one forward AD level
exists (as in `forward_ad`), so a jvp or jacfwd inside another forward transform computes its
result by reverse mode, which the outer level's tangents follow.
"""

from __future__ import annotations

import functools
import operator
import re
import sys
import types
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _grad_mode
from . import _tensor as _tensor_mod
from ._rearrange import rearrange
from .autograd import forward_ad as _fwad
from .autograd import function as _fn

__all__ = [
    "debug_unwrap",
    "functional_call",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "rearrange",
    "replace_all_batch_norm_modules_",
    "stack_module_state",
    "vjp",
    "vmap",
]

_GM = _grad_mode.STATE


# Inside a transform, `.backward()` must raise (see BACKWARD_INSIDE): autograd.backward reads
# `_TRANSFORMS.depth`.
_TRANSFORMS = _grad_mode.TRANSFORMS
BACKWARD_INSIDE = _grad_mode.BACKWARD_INSIDE


# --- pytrees: torch's (utils._pytree), so namedtuples, OrderedDicts, structseqs keep their type


def _flatten(tree: Any) -> tuple[list[Any], Any]:
    from .utils._pytree import tree_flatten

    return tree_flatten(tree)


def _unflatten(leaves: list[Any], spec: Any) -> Any:
    return spec.unflatten(leaves)


def _spec_repr(spec: Any) -> str:
    """A spec as torch's `TreeSpec.__repr__` writes it (a leaf is `*`), for error messages."""
    return repr(spec)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, _tensor_mod.Tensor)


# --- shared helpers -------------------------------------------------------------------------


def _check_argnums(argnums: Any, n: int) -> tuple[int, ...]:
    """torch's _slice_argnums: an int or a tuple of ints (bools are ints), each wrapped into
    range, then a tuple must be non-empty and without repeats (after wrapping)."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    nums = (argnums,) if isinstance(argnums, int) else argnums
    out = []
    for a in nums:
        if not isinstance(a, int):
            raise RuntimeError(f"argnum must be int, got: {type(a)}")
        if not -n <= a < n:
            raise RuntimeError(f"Got argnum={a}, but only {n} positional inputs")
        out.append(a % n)
    if isinstance(argnums, tuple):
        if not out:
            raise RuntimeError("argnums must be non-empty")
        if len(set(out)) != len(out):
            raise RuntimeError(f"argnums elements must be unique, got {tuple(out)}")
    return tuple(out)


def _error_if_complex(api: str, tree: Any, is_input: bool) -> None:
    """torch's error_if_complex: jacrev and jacfwd take and give real tensors only."""
    for idx, x in enumerate(_flatten(tree)[0]):
        if _is_tensor(x) and x.dtype.is_complex:
            what = "inputs" if is_input else "outputs"
            raise RuntimeError(
                f"{api}: Expected all {what} to be real but received complex tensor at "
                f"flattened input idx: {idx}"
            )


def _check_outputs(leaves: list[Any], api: str) -> None:
    """torch's assert_non_empty_tensor_output."""
    if (len(leaves) == 1 and leaves[0] is None) or not leaves:
        raise RuntimeError(
            f"{api}: Expected f to be a function that has non-empty output (got output = {leaves})"
        )
    for o in leaves:
        if not _is_tensor(o):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                f"{type(o)}"
            )


def _alias_for_grad(x: Any) -> Any:
    """A fresh tensor to differentiate with respect to: differentiable back to x when x
    requires grad; carrying x's tangent when x is dual."""
    if not _is_tensor(x):  # torch's _create_differentiable
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if x._rg and _GM.grad:
        return x.view_as(x)
    # (an inference tensor, met by a transform called under inference mode: a normal copy)
    y = (x.detach().clone() if x.is_inference() else x.detach()).requires_grad_(True)
    _INTERNAL[id(y)] = y
    if _fwad._STATE.level >= 0:
        tangent = _fwad._get_tangent(x)
        if tangent is not None:
            y = _fwad.make_dual(y, tangent)
    return y


# the leaves transforms made to differentiate with respect to (_alias_for_grad): never a
# tensor of an enclosing level (_OuterReach)
_INTERNAL: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def _keeps_graph(leaves: list[Any]) -> bool:
    """Whether results must stay differentiable (an enclosing reverse transform, or a tangent
    that an enclosing forward transform follows)."""
    if not _GM.grad:
        return False
    fw = _fwad._STATE.level >= 0
    for x in leaves:
        if _is_tensor(x) and (x._rg or (fw and _fwad._get_tangent(x) is not None)):
            return True
    return False


class _OuterReach:
    """Whether a result of a transform depends on tensors an enclosing backward differentiates
    other than the transform's own inputs (parameters the function closes over): its graph
    reaches a leaf that is not one of `inner` or a node recorded before the transform began
    (`seq0`). Such results keep their graph, as torch's functorch levels leave the outer
    autograd level in place; the others are returned detached. Nodes found not to reach out
    are remembered across calls."""

    def __init__(self, inner: list[Any], seq0: int) -> None:
        self.inner = {id(x) for x in inner}
        self.seq0 = seq0
        self.clear: set[int] = set()

    def __call__(self, t: Any) -> bool:
        from .autograd.graph import AccumulateGrad

        if not _is_tensor(t) or not t._rg:
            return False
        gf = t.grad_fn
        if gf is None:
            return id(t) not in self.inner
        stack, seen = [gf], []
        while stack:
            n = stack.pop()
            if n is None or id(n) in self.clear:
                continue
            seen.append(n)
            if isinstance(n, AccumulateGrad):
                v = n.variable
                if id(v) not in self.inner and _INTERNAL.get(id(v)) is not v:
                    return True
                continue
            if getattr(n, "_seq", self.seq0) < self.seq0:
                return True
            stack.extend(nxt for nxt, _ in n.next_functions)
        self.clear.update(id(n) for n in seen)
        return False

    def detach_unreached(self, tree: Any) -> Any:
        leaves, spec = _flatten(tree)
        return _unflatten(
            [x.detach() if _is_tensor(x) and not self(x) else x for x in leaves], spec
        )


def _seq_now() -> int:
    from .autograd import graph as _graph

    return next(_graph._seq)


def _outside_inference_mode(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn run outside inference mode when called under it: torch's transforms differentiate
    there too (the inference tensors they meet are copied, _alias_for_grad); the level outside
    them sees grad mode off, as inference mode has it, so their results carry no graph."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        if not _grad_mode.mode().inference:
            return fn(*args, **kwargs)
        token = _grad_mode._set_mode(_grad_mode._MODES[(False, False)])
        try:
            return fn(*args, **kwargs)
        finally:
            _grad_mode._MODE.reset(token)

    return run


def _call(func: Callable[..., Any], args: Any, kwargs: dict[str, Any]) -> Any:
    _TRANSFORMS.depth += 1
    prev = _GM.grad
    _GM.grad = True
    try:
        return func(*args, **kwargs)
    finally:
        _GM.grad = prev
        _TRANSFORMS.depth -= 1


def _split_aux(out: Any, has_aux: bool, api: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(
            f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return out


def _check_aux(aux: Any) -> Any:
    """torch unwraps aux as a pytree of tensors: any other leaf (a number, None, a string) is
    an error, raised after the output was checked and differentiated."""
    for x in _flatten(aux)[0]:
        if not _is_tensor(x):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    return aux


def _detach_tree(tree: Any) -> Any:
    leaves, spec = _flatten(tree)
    return _unflatten([x.detach() if _is_tensor(x) else x for x in leaves], spec)


def _zeros_for_none(grads: Any, inputs: list[Any], graph: bool = True) -> list[Any]:
    """The gradients, zeros for None; without a graph (graph False: grad's), each unwrapped as
    torch's grad unwraps them: a fresh version counter (the engine's in-place accumulation of
    several contributions bumped the buffer's; vjp_fn's keep it, as torch's)."""
    from ._creation import zeros_like

    out = [zeros_like(x) if g is None else g for g, x in zip(grads, inputs, strict=True)]
    if not graph:
        out = [
            _tensor_mod._make(g._data) if type(g) is _tensor_mod.Tensor and g._version else g
            for g in out
        ]
    return out


# --- grad / grad_and_value ------------------------------------------------------------------


def grad_and_value(
    func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """Returns (gradient, value) [with aux: ((gradient), (value, aux))]. Mirrors
    `torch.func.grad_and_value`."""

    @_outside_inference_mode
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .autograd import grad as autograd_grad

        nums = _check_argnums(argnums, len(args))
        args = list(args)
        trees = []
        all_leaves = []
        for a in nums:
            leaves, spec = _flatten(args[a])
            all_leaves.extend(leaves)
            new = [_alias_for_grad(x) for x in leaves]
            trees.append((new, spec))
            args[a] = _unflatten(new, spec)
        keep = _keeps_graph(all_leaves)
        outer = _GM.grad and not keep
        seq0 = _seq_now() if outer else 0
        out = _call(func, args, kwargs)
        out, aux = _split_aux(out, has_aux, "grad_and_value(f)(*args)")
        if not _is_tensor(out):
            raise RuntimeError(
                f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}"
            )
        if out.ndim != 0:
            raise RuntimeError(
                "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                f"tensor with {out.ndim} dims. Maybe you wanted to use the vjp or jacrev APIs "
                "instead?"
            )
        flat = [x for new, _ in trees for x in new]
        reach = _OuterReach(flat, seq0) if outer else None
        keep_outer = reach is not None and (reach(out) or any(reach(a) for a in _flatten(aux)[0]))
        prev = _GM.grad
        _GM.grad = True
        _OWN_GRAD.depth += 1
        try:
            if out._rg:
                gs = autograd_grad(out, flat, create_graph=keep or keep_outer, allow_unused=True)
            else:
                gs = [None] * len(flat)
        finally:
            _OWN_GRAD.depth -= 1
            _GM.grad = prev
        gs = _zeros_for_none(gs, flat, keep or keep_outer)
        res = []
        i = 0
        for new, spec in trees:
            res.append(_unflatten(gs[i : i + len(new)], spec))
            i += len(new)
        g = res[0] if isinstance(argnums, int) else tuple(res)
        if keep_outer and _fwad._STATE.level < 0:
            g, out, aux = reach.detach_unreached((g, out, aux))  # type: ignore[union-attr]
        elif not keep and _fwad._STATE.level < 0:
            out = out.detach()
            aux = _detach_tree(aux)
        if has_aux:
            return g, (out, _check_aux(aux))
        return g, out

    return wrapper


def grad(
    func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The gradient of a scalar function. Mirrors `torch.func.grad`."""
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return wrapper


# --- vjp ------------------------------------------------------------------------------------


@_outside_inference_mode
def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """(output, vjp_fn) [, aux]; `vjp_fn(cotangents)` returns one gradient per primal.
    Mirrors `torch.func.vjp`."""
    from .autograd import grad as autograd_grad

    leaves, spec = _flatten(primals)
    keep = _keeps_graph(leaves)
    outer = _GM.grad and not keep
    seq0 = _seq_now() if outer else 0
    new = [_alias_for_grad(x) for x in leaves]
    out = _call(func, _unflatten(new, spec), {})
    out, aux = _split_aux(out, has_aux, "vjp(f, *primals)")
    if has_aux:
        _check_aux(aux)
    out_leaves, out_spec = _flatten(out)
    _check_outputs(out_leaves, "vjp(f, *primals)")
    for o in out_leaves:
        if not (o.is_floating_point() or o.is_complex()):
            raise RuntimeError(
                "vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                f"Tensor with dtype {o.dtype}"
            )
    reach = _OuterReach(new, seq0) if outer else None
    keep_outer = reach is not None and any(reach(x) for x in out_leaves + _flatten(aux)[0])

    def vjp_fn(cotangents: Any, retain_graph: bool = True, create_graph: bool | None = None) -> Any:
        if _is_tensor(retain_graph):  # torch's autograd.grad reads a bool: a tensor's index
            retain_graph = bool(operator.index(retain_graph))
        ct_leaves, ct_spec = _flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {_pprint_spec(cotangents)}, primal "
                f"output: {_pprint_spec(out)}"
            )
        cg = keep or keep_outer or _keeps_graph(ct_leaves) if create_graph is None else create_graph
        pairs = [(o, c) for o, c in zip(out_leaves, ct_leaves, strict=True) if o._rg]
        prev = _GM.grad
        _GM.grad = True
        _OWN_GRAD.depth += 1
        try:
            if pairs:
                gs = autograd_grad(
                    [o for o, _ in pairs],
                    new,
                    [c for _, c in pairs],
                    retain_graph=retain_graph,
                    create_graph=cg,
                    allow_unused=True,
                )
            else:
                for o, c in zip(out_leaves, ct_leaves, strict=True):
                    if o.shape != c.shape:
                        raise RuntimeError(
                            f"Mismatch in shape: grad_output[0] has a shape of {c.shape} and "
                            f"output[0] has a shape of {o.shape}."
                        )
                gs = [None] * len(new)
        finally:
            _OWN_GRAD.depth -= 1
            _GM.grad = prev
        # (unwrapped as grad's when called in grad mode; under no_grad torch's keep the
        # buffer's version)
        res = _unflatten(_zeros_for_none(gs, new, cg or not prev), spec)
        if keep_outer and create_graph is None and _fwad._STATE.level < 0:
            res = reach.detach_unreached(res)  # type: ignore[union-attr]
        return res

    # torch's name, which Python's TypeErrors for a bad call show
    vjp_fn.__code__ = vjp_fn.__code__.replace(
        co_name="wrapper", co_qualname="_vjp_with_argnums.<locals>.wrapper"
    )
    vjp_fn.__name__ = "wrapper"
    vjp_fn.__qualname__ = "_vjp_with_argnums.<locals>.wrapper"
    vjp_fn = _outside_inference_mode(vjp_fn)

    if keep_outer and _fwad._STATE.level < 0:
        out, aux = reach.detach_unreached((out, aux))  # type: ignore[union-attr]
    elif not keep and _fwad._STATE.level < 0:
        out = _unflatten([o.detach() for o in out_leaves], out_spec)
        aux = _detach_tree(aux)
    if has_aux:
        return out, vjp_fn, aux
    return out, vjp_fn


# --- jvp / linearize ------------------------------------------------------------------------


@_outside_inference_mode
def jvp(
    func: Callable[..., Any],
    primals: Any,
    tangents: Any,
    *,
    strict: bool = False,
    has_aux: bool = False,
) -> Any:
    """(output, J·tangents) [, aux], by forward AD. Mirrors `torch.func.jvp`."""
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{api}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    p_leaves, p_spec = _flatten(primals)
    t_leaves, t_spec = _flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(
            f"{api}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {_spec_repr(p_spec)} and tangents with structure "
            f"{_spec_repr(t_spec)}"
        )
    for what, leaves in (("primals", p_leaves), ("tangents", t_leaves)):
        # torch's assert_non_empty_list_of_tensors
        if not leaves:
            raise RuntimeError(f"{api}: Expected {what} to contain at least one Tensor.")
        for x in leaves:
            if not _is_tensor(x):
                raise RuntimeError(f"{api}: Expected {what} to only contain Tensors, got {type(x)}")
    if _fwad._STATE.level >= 0:
        _check_forward_nesting()
        # inside another forward transform: the one forward AD level is taken, so J·t by
        # reverse mode (the double-vjp trick), which the outer level's tangents follow
        return _jvp_by_reverse(func, primals, tangents, has_aux, api)

    keep = _keeps_graph(p_leaves + t_leaves)
    outer = _GM.grad and not keep
    seq0 = _seq_now() if outer else 0
    _JVP_LEVELS.depth += 1
    try:
        return _jvp_at_new_level(func, p_leaves, p_spec, t_leaves, has_aux, api, keep, outer, seq0)
    finally:
        _JVP_LEVELS.depth -= 1


class _JvpLevels:
    """How many forward levels jvp opened are running: a forward level the user opened
    (forward_ad.dual_level) is not one, and torch's jvp cannot nest inside it."""

    depth = 0


_JVP_LEVELS = _JvpLevels()


def _check_forward_nesting() -> None:
    if not _JVP_LEVELS.depth:  # torch's jvp enters a second dual level: refused
        raise RuntimeError("Nested forward mode AD is not supported at the moment")


def _jvp_at_new_level(
    func: Any, p_leaves: list[Any], p_spec: Any, t_leaves: list[Any], has_aux: bool, api: str,
    keep: bool, outer: bool, seq0: int,
) -> Any:  # fmt: skip
    from ._creation import zeros_like

    with _fwad.dual_level():
        # (inference tensors, met under inference mode: normal copies, as _alias_for_grad's)
        duals = [
            _fwad.make_dual(*(x.detach().clone() if x.is_inference() else x for x in (p, t)))
            for p, t in zip(p_leaves, t_leaves, strict=True)
        ]
        out = _call(func, _unflatten(duals, p_spec), {})
        out, aux = _split_aux(out, has_aux, api)
        if has_aux:
            _check_aux(aux)
        o_leaves, o_spec = _flatten(out)
        _check_outputs(o_leaves, api)
        prim = []
        tang = []
        for o in o_leaves:
            p, t = _fwad.unpack_dual(o)
            prim.append(p)
            tang.append(zeros_like(p) if t is None else t)
    if outer:
        prim, tang, aux = _OuterReach([], seq0).detach_unreached((prim, tang, aux))
    elif not keep:
        prim = [p.detach() for p in prim]
        tang = [t.detach() for t in tang]
        aux = _detach_tree(aux)
    res = (_unflatten(prim, o_spec), _unflatten(tang, o_spec))
    if has_aux:
        return (*res, aux)
    return res


def _jvp_by_reverse(func: Any, primals: Any, tangents: Any, has_aux: bool, api: str) -> Any:
    """jvp's result computed as the VJP of the VJP: vjp_fn(u) is linear in u, so its VJP at
    the tangents is J·tangents."""
    from ._creation import zeros_like
    from .autograd import grad as autograd_grad

    res = vjp(func, *primals, has_aux=has_aux)
    out, vjp_fn = res[0], res[1]
    o_leaves, o_spec = _flatten(out)
    _check_outputs(o_leaves, api)
    us = [zeros_like(o).requires_grad_(True) for o in o_leaves]
    g_leaves = _flatten(vjp_fn(_unflatten(us, o_spec), create_graph=True))[0]
    t_leaves = _flatten(tangents)[0]
    pairs = [(g, t) for g, t in zip(g_leaves, t_leaves, strict=True) if g._rg]
    jv: Any = [None] * len(us)
    if pairs:
        _OWN_GRAD.depth += 1
        try:
            jv = autograd_grad(
                [g for g, _ in pairs],
                us,
                [t for _, t in pairs],
                create_graph=True,
                allow_unused=True,
            )
        finally:
            _OWN_GRAD.depth -= 1
    jv = [zeros_like(o) if j is None else j for j, o in zip(jv, o_leaves, strict=True)]
    out = (out, _unflatten(jv, o_spec))
    return (*out, res[2]) if has_aux else out


def linearize(func: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """(output, jvp_fn) with `jvp_fn(*tangents)` = J·tangents. Mirrors `torch.func.linearize`.

    Differences: jvp_fn re-runs func under forward AD instead of replaying a traced graph.
    """
    out = func(*primals)
    p_leaves, p_spec = _flatten(primals)
    for p in p_leaves:  # torch makes the tracing tangents with p.new_empty(())
        if not _is_tensor(p):
            raise AttributeError(f"'{type(p).__name__}' object has no attribute 'new_empty'")

    def jvp_fn(*tangents: Any) -> Any:
        t_leaves, t_spec = _flatten(tangents)
        if t_spec != p_spec:
            raise RuntimeError(
                f"Expected the tangents {_spec_repr(t_spec)} to have the same argspec as the "
                f"primals {_spec_repr(p_spec)}"
            )
        for i, (t, p) in enumerate(zip(t_leaves, p_leaves, strict=True)):
            for what in ("shape", "device", "dtype"):
                if getattr(t, what) != getattr(p, what):
                    raise RuntimeError(
                        f"tangent:{i} with {what} {getattr(t, what)} in flattened pytree doesn't "
                        f"match the {what} {getattr(p, what)} of the corresponding primal."
                    )
        return jvp(func, primals, tangents)[1]

    return out, jvp_fn


# --- Jacobians ------------------------------------------------------------------------------


def _select(args: tuple[Any, ...], argnums: Any) -> tuple[tuple[int, ...], list[Any]]:
    nums = _check_argnums(argnums, len(args))
    return nums, [args[a] for a in nums]


def jacrev(
    func: Callable[..., Any],
    argnums: int | tuple[int, ...] = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
    _preallocate_and_copy: bool = False,
) -> Callable[..., Any]:
    """The Jacobian by reverse AD, one VJP per output element. Mirrors `torch.func.jacrev`.

    Result shape: output.shape + input.shape, nested as (outputs)(argnums) for tuples.
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @_outside_inference_mode
    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:  # torch's jacrev takes no keyword arguments
        from ._creation import zeros
        from .ops.shape import stack

        _error_if_complex("jacrev", args, True)
        nums, chosen = _select(args, argnums)

        def f(*xs: Any) -> Any:
            full = list(args)
            for a, x in zip(nums, xs, strict=True):
                full[a] = x
            return func(*full)

        res = vjp(f, *chosen, has_aux=has_aux)
        out, vjp_fn = res[0], res[1]
        o_leaves, o_spec = _flatten(out)
        total = sum(o.numel() for o in o_leaves if _is_tensor(o))
        if chunk_size and chunk_size < total:  # torch's get_chunk_sizes: a float fails here
            _ = [chunk_size] * (total // chunk_size)
        _error_if_complex("jacrev", o_leaves, False)
        in_leaves, in_spec = _flatten(tuple(chosen))
        per_out = []
        for k, o in enumerate(o_leaves):
            rows = []
            for i in range(o.numel()):
                cts = [zeros(q.shape, dtype=q.dtype) for q in o_leaves]
                cts[k].view(-1)[i] = 1
                g = vjp_fn(_unflatten(cts, o_spec))
                rows.append(_flatten(g)[0])
            jac = []
            for j, x in enumerate(in_leaves):
                if rows:
                    m = stack([r[j] for r in rows]).reshape((*o.shape, *x.shape))
                else:
                    m = zeros((*o.shape, *x.shape), dtype=x.dtype)
                jac.append(m)
            by_arg = _unflatten(jac, in_spec)
            per_out.append(by_arg[0] if isinstance(argnums, int) else by_arg)
        j = _unflatten(per_out, o_spec)
        if has_aux:
            return j, res[2]
        return j

    return wrapper


def jacfwd(
    func: Callable[..., Any],
    argnums: int | tuple[int, ...] = 0,
    has_aux: bool = False,
    *,
    randomness: str = "error",
) -> Callable[..., Any]:
    """The Jacobian by forward AD, one JVP per input element. Mirrors `torch.func.jacfwd`.

    Result shape: output.shape + input.shape, nested as (outputs)(argnums) for tuples.
    """

    @_outside_inference_mode
    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:  # torch's jacfwd takes no keyword arguments
        from . import _random
        from ._creation import zeros, zeros_like
        from .ops.shape import stack

        _error_if_complex("jacfwd", args, True)
        chosen = _select(args, argnums)[1]
        in_leaves, in_spec = _flatten(tuple(chosen))
        for x in in_leaves:  # torch sizes its basis by each primal's numel()
            if not _is_tensor(x):
                raise AttributeError(f"'{type(x).__name__}' object has no attribute 'numel'")
        if randomness not in ("error", "different", "same"):
            raise RuntimeError(
                f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                f"{randomness}"
            )
        # torch's _replace_args puts the duals back at the argnums as given: a negative one
        # matches no position, so that argument keeps no tangent (its Jacobian is zeros)
        given = (argnums,) if isinstance(argnums, int) else argnums

        def f(*xs: Any) -> Any:
            full = list(args)
            for a, x in zip(given, xs, strict=True):
                if a >= 0:
                    full[a] = x
            return func(*full)

        if _fwad._STATE.level >= 0:
            _check_forward_nesting()
            # inside another forward transform (jacfwd(jacfwd(f))): the one forward AD level
            # is taken, so the same Jacobian by reverse mode, which the outer one follows
            by = 0 if isinstance(argnums, int) else tuple(range(len(chosen)))
            return jacrev(f, by, has_aux=has_aux)(*chosen)

        cols: list[list[Any]] = []  # per input leaf, per element: output tangent leaves
        out = aux = None
        # torch vmaps the JVPs over the basis with `randomness`: 'error' refuses random ops,
        # 'same' draws once for all of them (replayed here from the same generator state)
        prev = VMAP.randomness
        VMAP.randomness = randomness
        state = _random.get_rng_state() if randomness == "same" else None
        try:
            for j, x in enumerate(in_leaves):
                per_elem = []
                for i in range(x.numel()):
                    ts = [zeros_like(q) for q in in_leaves]
                    ts[j].view(-1)[i] = 1
                    if state is not None:
                        _random.set_rng_state(state)
                    r = jvp(f, tuple(chosen), _unflatten(ts, in_spec), has_aux=has_aux)
                    out = r[0]
                    if has_aux:
                        aux = r[2]
                    per_elem.append(_flatten(r[1])[0])
                cols.append(per_elem)
        finally:
            VMAP.randomness = prev
        if out is not None:
            _error_if_complex("jacfwd", out, False)
        if out is None:  # no input element: evaluate once for the output's structure
            out = f(*chosen)
            if has_aux:
                out, aux = out
        o_leaves, o_spec = _flatten(out)
        per_out = []
        for k, o in enumerate(o_leaves):
            jac = []
            for j, x in enumerate(in_leaves):
                if cols[j]:
                    m = stack([c[k] for c in cols[j]], -1).reshape((*o.shape, *x.shape))
                else:
                    m = zeros((*o.shape, *x.shape), dtype=o.dtype)
                jac.append(m)
            by_arg = _unflatten(jac, in_spec)
            per_out.append(by_arg[0] if isinstance(argnums, int) else by_arg)
        j = _unflatten(per_out, o_spec)
        if has_aux:
            return j, aux
        return j

    return wrapper


def hessian(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """jacfwd(jacrev(func)). Mirrors `torch.func.hessian`."""
    return jacfwd(jacrev(func, argnums), argnums)


class _OwnGrad:
    """How many of the transforms' own autograd.grad calls are running (a vmap's function
    calling autograd.grad on batched outputs is refused; grad and vjp inside it are not)."""

    depth = 0


_OWN_GRAD = _OwnGrad()


class _VmapState:
    """The randomness mode of the innermost running vmap (None outside vmap); read by the
    random functions (`_random._rng`). `batched` holds the ids of the per-sample slices the
    innermost vmap handed to its function (None outside vmap): what torch would see as
    BatchedTensors at that level (see `unbatched_in_vmap`)."""

    randomness: str | None = None
    batched: set[int] | None = None
    frame: Any = None  # the innermost vmap's _Frame


class _Frame:
    """The innermost running vmap, for a Function's vmap rule met inside it
    (`_function_in_vmap`): its slices (id -> (mapped tensor, dim)), the sample running, and
    the rules' whole-batch results by call order within a sample."""

    def __init__(self, size: int, randomness: str, batched: set[int], tracker: Any) -> None:
        self.size, self.randomness, self.batched, self.tracker = size, randomness, batched, tracker
        self.slices: dict[int, tuple[Any, int]] = {}
        self.sample = 0
        self.calls = 0
        self.cache: dict[int, Any] = {}
        self.parent: _Frame | None = None


def _function_in_vmap(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Function.apply inside vmap on the mapped slices themselves: its vmap rule (or the
    generated one) runs once, on the whole batch, at the first sample, as torch calls it; each
    sample gets its part of the result. NotImplemented (apply runs per sample as usual) for a
    Function without a rule, inputs derived from the slices, or no batched input."""
    fr = VMAP.frame
    if fr is None or not (cls.generate_vmap_rule or cls.vmap is not _fn.Function.vmap):
        return NotImplemented
    if kwargs:  # bound to forward's positions, as apply binds them
        import inspect

        bound = inspect.signature(cls.forward).bind(*args, **kwargs)
        bound.apply_defaults()
        args, kwargs = bound.args, bound.kwargs
        if kwargs:
            return NotImplemented
    if any(isinstance(a, (tuple, list, dict)) for a in args):
        return NotImplemented
    ts = [a for a in args if _is_tensor(a)]
    if not any(id(t) in fr.batched for t in ts) or any(
        id(t) in fr.batched and id(t) not in fr.slices for t in ts
    ):
        return NotImplemented
    key = fr.calls
    fr.calls += 1
    full = fr.cache.get(key)
    if full is None:
        if fr.sample:
            return NotImplemented
        full_args, dims = [], []
        for a in args:
            x, d = fr.slices.get(id(a), (a, None)) if _is_tensor(a) else (a, None)
            full_args.append(x)
            dims.append(d)
        fr.tracker.off += 1  # the rule runs a level down: plain tensors, as in torch
        _fn.VMAP_DEPTH.depth -= 1
        try:
            full = _vmap_function(
                cls, cls.__name__, tuple(full_args), dims, fr.size, fr.randomness, 0
            )
        finally:
            _fn.VMAP_DEPTH.depth += 1
            fr.tracker.off -= 1
        fr.cache[key] = full
    leaves, spec = _flatten(full)
    out = []
    for o in leaves:
        if _is_tensor(o):
            o = o.select(0, fr.sample)
            fr.batched.add(id(o))
            fr.tracker.keep.append(o)
        out.append(o)
    return _unflatten(out, spec)


def unbatched_in_vmap(*ts: Any) -> bool:
    """Inside vmap, whether none of `ts` is a slice the innermost vmap mapped over (a tensor
    torch would not see batched at that level). False outside vmap."""
    sl = VMAP.batched
    return sl is not None and not any(id(t) in sl for t in ts if t is not None)


REQUIRES_GRAD_IN_TRANSFORM = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using "
    "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
    "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
    "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
    "transformed instead."
)


def called_by_user(depth: int) -> bool:
    """Whether the frame `depth` levels above the caller is not shadowgrad's own code (inside a
    transform, torch refuses the user's requires_grad_() but not shadowgrad's)."""
    f = sys._getframe(depth + 1)
    return not str(f.f_globals.get("__name__", "")).startswith("shadowgrad.")


BATCH_NORM_UNBATCHED_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which will "
    "be updated in place, were not batched.\nIf you are using a module and do not need eval "
    "mode, please set `track_running_stats` to be False.If you are using a prebuilt module and "
    "do not need eval mode, please see the functorch website for resources on how to patch your "
    "module to work with vmap"
)


VMAP = _VmapState()
RANDOM_IN_VMAP = (
    "vmap: called random operation while in randomness error mode. Please either use the "
    "'same' or 'different' randomness flags on vmap or perform the randomness operation out of "
    "vmap"
)


def vmap(
    func: Callable[..., Any],
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable[..., Any]:
    """Mirrors `torch.func.vmap`: func mapped over a dimension of its inputs.

    shadowgrad has no batching transform, so this runs func once per index of the mapped
    dimension (on `select`ed slices) and `stack`s the results: the same values and gradients
    as torch's batched run, recorded as select and stack nodes. randomness: 'error' raises on
    a random op inside, 'different' draws afresh per sample, 'same' replays one draw for all.
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    name = getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        return _vmap_call(func, name, args, kwargs, in_dims, out_dims, randomness, chunk_size)

    return mapped


def _vmap_call(
    func: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], in_dims: Any,
    out_dims: Any, randomness: str, chunk_size: int | None = None,
) -> Any:  # fmt: skip
    from . import _random
    from ._creation import zeros
    from .ops.shape import stack

    where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(out_dims, int) and not all(
        d is None or isinstance(d, int) for d in _flatten(out_dims)[0]
    ):
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a "
            "python collection of ints representing where in the outputs the vmapped dimension "
            "should appear."
        )
    if not args and isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
            "trying to vmap over a function with no inputs. The latter is unsupported."
        )
    leaves, spec = _flatten(tuple(args))
    if isinstance(in_dims, tuple):  # torch takes a tuple, not a list, at the top
        if not _is_prefix(tuple(in_dims), tuple(args)):
            raise ValueError(
                f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims "
                f"has structure {_treespec(tuple(in_dims))} but inputs has structure "
                f"{_treespec(tuple(args))}."
            )
        dims = _broadcast_dims(in_dims, args)
    elif isinstance(in_dims, int):  # torch rejects a top-level None
        dims = [in_dims] * len(leaves)
    else:
        raise ValueError(
            f"{where}: expected `in_dims` to be int or a "
            f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}."
        )
    size = None
    for x, d in zip(leaves, dims, strict=True):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but in_dim must be either an integer "
                "dimension or None."
            )
        if not _is_tensor(x):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but the input is of type "
                f"{_torch_type(type(x))}. We cannot vmap over non-Tensor arguments, please use "
                "None as the respective in_dim"
            )
        if not -x.ndim <= d < max(x.ndim, 1) or x.ndim == 0:
            raise ValueError(
                f"{where}: Got in_dim={d} for some input, but that input is a Tensor of "
                f"dimensionality {x.ndim} so expected in_dim to satisfy -{x.ndim} <= in_dim < "
                f"{x.ndim}."
            )
        n = x.size(d)  # (torch's own read: a bool in_dim fails here, as size()'s argument)
        if size is not None and n != size:
            sizes = [x.shape[d] for x, d in zip(leaves, dims, strict=True) if d is not None]
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped dimension, got "
                f"sizes {sizes} for the mapped dimension"
            )
        size = n
    if size is None:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if chunk_size is not None:
        if not size:  # torch's chunking splits no sample at all (an internal assertion)
            raise AssertionError("arg_spec must not be None")
        _ = [chunk_size] * (size // chunk_size)  # torch's get_chunk_sizes: a float fails here
    rule = _custom_vmap_rule(func)
    if rule is not None and size and not kwargs and isinstance(out_dims, int):
        return _run_vmap_rule(rule, randomness, size, args, _unflatten(dims, spec), out_dims)
    fcls = _function_of(func)
    if fcls is not None and size and not kwargs and len(leaves) == len(args):
        return _vmap_function(fcls, name, args, dims, size, randomness, out_dims)

    def slice_args(i: int) -> tuple[Any, ...]:
        batched.clear()  # this sample's slices only (a freed slice's id may be reused)
        out = []
        for x, d in zip(leaves, dims, strict=True):
            if d is None:
                out.append(x)
            elif size == 0:  # no sample: a zero slice shows func's output structure
                shape = list(x.shape)
                del shape[d]
                out.append(zeros(tuple(shape), dtype=x.dtype))
            else:
                out.append(x.select(d, i))
                batched.add(id(out[-1]))
                frame.slices[id(out[-1])] = (x, d)
        frame.sample, frame.calls = i, 0
        return _unflatten(out, spec)

    batched: set[int] = set()
    outer = []  # the enclosing vmaps' (batched, size), outermost first
    f = VMAP.frame
    while f is not None:
        outer.insert(0, (f.batched, f.size))
        f = f.parent
    tracker = _batch_tracker(_fn.VMAP_DEPTH.depth + 1, randomness, max(size, 1), batched, outer)
    frame = _Frame(max(size, 1), randomness, batched, tracker)
    call = func
    if type(func) is types.FunctionType and (func.__module__ or "").startswith("shadowgrad."):
        # a torch function mapped itself (vmap(torch.nonzero)): the tracker sees its call, as
        # it sees the calls func makes
        def call(*a: Any, **k: Any) -> Any:
            return tracker.__torch_function__(func, (), a, k)

    state = _random.get_rng_state() if randomness == "same" else None
    # (from here on, everything is restored in the finally below)
    prev, prev_batched, prev_frame = VMAP.randomness, VMAP.batched, VMAP.frame
    # a random op must pass every level: inside a vmap in 'error' mode, it is refused
    VMAP.randomness = "error" if prev == "error" else randomness
    VMAP.batched, VMAP.frame = batched, frame
    frame.parent = prev_frame
    prev_slices, _tensor_mod.VMAP_SLICES = _tensor_mod.VMAP_SLICES, batched
    _fn.VMAP_DEPTH.depth += 1
    _TRANSFORMS.depth += 1  # (`.backward()` inside raises, as in the other transforms)
    unbatched: list[list[bool]] = []
    try:
        results = []
        with tracker:  # (pushed once: the first mode pushed installs the modes' hooks)
            for i in range(max(size, 1)):
                if state is not None:
                    _random.set_rng_state(state)
                frame.slices.clear()
                sample = slice_args(i)
                tracker.keep.clear()
                tracker.first = not i
                results.append(call(*sample, **kwargs))
                # which outputs this sample left unbatched (not derived from its slices)
                unbatched.append([id(o) not in batched for o in _flatten(results[-1])[0]])
    finally:
        VMAP.frame = prev_frame
        _TRANSFORMS.depth -= 1
        _fn.VMAP_DEPTH.depth -= 1
        VMAP.randomness, VMAP.batched = prev, prev_batched
        _tensor_mod.VMAP_SLICES = prev_slices
    flat = [_flatten(r) for r in results]
    out_leaves, out_spec = flat[0]
    if isinstance(out_dims, tuple) and len(out_dims) == 1 and _is_tensor(results[0]):
        out_dims = out_dims[0]  # torch's _unwrap_batched: a single output takes (d,) as d
    if isinstance(out_dims, (tuple, list, dict)):
        if not _is_prefix(out_dims, results[0]):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
                f"with the structure of `outputs`. out_dims has structure {_treespec(out_dims)} "
                f"but outputs has structure {_treespec(results[0])}."
            )
        odims = _broadcast_dims((out_dims,), (results[0],))  # (a dict's keys matched too)
    else:
        odims = [out_dims] * len(out_leaves)
    stacked = []
    for k, o in enumerate(out_leaves):
        if odims[k] is None:
            # an output that doesn't depend on the mapped inputs comes back as is; one that
            # does (it differs between samples) would be a BatchedTensor in torch
            parts = [f[0][k] for f in flat]
            if any(not _same_output(p, parts[0]) for p in parts[1:]):
                raise ValueError(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim "
                    "is None"
                )
            stacked.append(parts[0])
            continue
        if not _is_tensor(o):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                f"{_torch_type(type(o))}. Did you mean to set out_dims= to None for output?"
            )
        parts = [f[0][k] for f in flat]
        od = int(odims[k])  # (an out_dim of True is torch's 1)
        if size and _unbatched_output(parts, [u[k] for u in unbatched], leaves, dims):
            # torch's one unbatched tensor, expanded over the batch at out_dim (_remove_batch_dim)
            from .ops._util import wrap_dim

            shape = list(parts[0].shape)
            shape.insert(wrap_dim(od, len(shape) + 1), size)
            stacked.append(parts[0].expand(*shape))
            continue
        if _grad_mode.mode().inference and not any(p.is_inference() for p in parts):
            # torch's batched outputs are func's own: no inference tensor made by stacking
            token = _grad_mode._set_mode(_grad_mode._MODES[(False, False)])
            try:
                s = stack(parts, od)
            finally:
                _grad_mode._MODE.reset(token)
        else:
            s = stack(parts, od)
        if size == 0:
            s = s.narrow(od, 0, 0)
        stacked.append(s)
    return _unflatten(stacked, out_spec)


# --- what torch's BatchedTensors refuse: followed by a function mode while func runs ----------

_DATA_DEPENDENT = (
    "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
    "We don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues ."
)
_NO_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
_DYNAMIC = (
    "vmap: We do not support batching operators that can output dynamic shape. Attempted to vmap "
    "over aten::{}. Please file an issue at https://github.com/pytorch/pytorch/issues if you need "
    "this feature."
)
_INPLACE_UNBATCHED = (
    "vmap: {0}(self, *extra_args) is not possible because there exists a Tensor `other` in "
    "extra_args that has more elements than `self`. This happened due to `other` being vmapped "
    "over but `self` not being vmapped over {1}. Please try to use out-of-place operators "
    "instead of {0}. If said operator is being called inside the PyTorch framework, please file "
    "a bug report instead."
)
_SAME_BATCHED = (
    "Vmap does not currently support same randomness with a batched tensor input. Please file an "
    "issue with functorch"
)
_DIFFERENT_INPLACE = (
    "vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will appear "
    "like same randomness. If this is necessary for your usage, please file an issue with "
    "functorch."
)
# in-place ops torch batches as `self.op(other)` broadcast: an unbatched self fails the
# broadcast (TensorIterator's error); those of its "inplace arithmetic" rule; those named bare
_INPLACE_BROADCAST = frozenset(
    ("add_", "atan2_", "copysign_", "bitwise_and_", "bitwise_or_", "bitwise_xor_")
)
_INPLACE_ARITHMETIC = frozenset(
    (
        "sub_",
        "mul_",
        "div_",
        "true_divide_",
        "copy_",
        "__setitem__",
        "masked_fill_",
        "clamp_min_",
        "clamp_max_",
        "logical_and_",
        "logical_or_",
        "logical_xor_",
    )
)
_INPLACE_BARE = frozenset(("fill_", "index_add_", "index_put_", "index_fill_", "scatter_add_"))
# the fallback's warning names the overload of these (their batched operand is a Tensor)
_TENSOR_OVERLOAD = frozenset(
    (
        *("fmod_", "remainder_", "pow_", "floor_divide_", "float_power_", "xlogy_", "clamp_"),
        *("eq_", "ne_", "ge_", "gt_", "le_", "lt_"),
    )
)
_RANDOM_INPLACE = frozenset(
    (
        "uniform_",
        "normal_",
        "bernoulli_",
        "random_",
        "exponential_",
        "geometric_",
        "cauchy_",
        "log_normal_",
    )
)
_RANDOM_FROM_TENSORS = frozenset(("bernoulli", "multinomial", "normal", "poisson", "binomial"))
_RANDOM_CREATE = frozenset(
    ("rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like", "normal")
)
_STORAGE_READS = frozenset(("tolist", "numpy", "data_ptr"))
_ITEM_READS = frozenset(("item", "__float__", "__int__", "__index__", "__complex__"))


_VIEW_OF_LEAF = "a view of a leaf Variable that requires grad is being used in an in-place"
_HIDDEN_AUTOGRAD = {"requires_grad": (False,), "grad_fn": (None,), "is_leaf": (True,)}


def _property_name(prop: Any) -> str | None:
    """Which of Tensor's autograd properties `prop` is (the modes' wrapper of it)."""
    from ._tensor import Tensor

    own = vars(Tensor)
    return next((n for n in _HIDDEN_AUTOGRAD if own.get(n) is prop), None)


def _read_by_shadowgrad(extra: int = 0) -> bool:
    """Whether the call the tracker sees comes from shadowgrad's own code (the first frame
    above the modes' dispatch in overrides.py; `extra`: the tracker's frames below its
    __torch_function__)."""
    f = sys._getframe(2 + extra)
    while f is not None and f.f_globals.get("__name__") == "shadowgrad.overrides":
        f = f.f_back
    return f is not None and str(f.f_globals.get("__name__", "")).startswith("shadowgrad.")


def _warn_fallback(op: str) -> None:
    """torch's batching fallback's warning (an op without a batching rule, run per sample)."""
    warnings.warn(
        f"There is a performance drop because we have not yet implemented the batching rule for "
        f"aten::{op}. Please file us an issue on GitHub so that we can prioritize its "
        "implementation.",
        UserWarning,
        stacklevel=1,
    )


def _no_overload(args: Any) -> str:
    return ""


# ops torch runs through its batching fallback on a batched input (which warns), with the
# overload its warning names
_FALLBACK_OPS: dict[str, Callable[[Any], str]] = {
    "argwhere": _no_overload,
    "take": _no_overload,
    "histc": _no_overload,
    "put": _no_overload,
    "put_": _no_overload,
    "renorm": _no_overload,
    "bincount": _no_overload,
    "masked_scatter": _no_overload,
    "vander": _no_overload,
    "quantile": lambda a: "" if len(a) > 1 and _is_tensor(a[1]) else ".scalar",
    "histogram": lambda a: ".bins_tensor" if len(a) > 1 and _is_tensor(a[1]) else ".bin_ct",
    "isin": lambda a: (
        ".Tensor_Tensor"
        if all(_is_tensor(x) for x in a[:2])
        else (".Tensor_Scalar" if _is_tensor(a[0]) else ".Scalar_Tensor")
    ),
}


def _tensor_property(name: str) -> Any:
    """Tensor's property `name` as it stands (the modes' wrapper of it is what a mode sees)."""
    from ._tensor import Tensor

    return vars(Tensor).get(name)


def _torch_type(t: type) -> str:
    """str(t) as torch's messages show it: shadowgrad's classes stand for torch's (a public
    top-level one, such as dtype or Size, by its torch.<name>)."""
    import shadowgrad

    from .nn.modules.module import _cls_str

    if t.__module__.startswith("shadowgrad._") and getattr(shadowgrad, t.__name__, None) is t:
        return f"<class 'torch.{t.__name__}'>"
    return _cls_str(t)


def _tensor_leaves(args: Any, kwargs: Any) -> list[Any]:
    out = []
    for v in (*args, *kwargs.values()):
        if _is_tensor(v):
            out.append(v)
        elif isinstance(v, (tuple, list)):
            out.extend(x for x in v if _is_tensor(x))
    return out


def _batch_tracker(
    level: int, randomness: str, size: int, batched: set[int], outer: list[Any]
) -> Any:
    """A function mode for one vmap level: the tensors derived from the mapped slices are
    `batched` (kept alive in `keep` so their ids stay theirs), and the calls torch's batching
    rules refuse raise torch's errors: in-place writes of batched values into unbatched
    tensors, data-dependent control flow, reads of the data, dynamic-shape ops, and the
    randomness modes' refusals. Made per vmap call; only a vmap pays for it."""
    from ._library.dispatch import IN_OP
    from .overrides import TorchFunctionMode

    kernels = IN_OP.depth
    depth = _TRANSFORMS.depth + 1  # vmap's own count (a grad transform inside counts above)

    class _BatchTracker(TorchFunctionMode):
        keep: list[Any]
        off: int
        first: bool

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            kwargs = kwargs or {}
            if self.off or IN_OP.depth > kernels:  # an op's kernel, a Function's vmap rule
                return func(*args, **kwargs)
            name = getattr(func, "__name__", "")
            hit = any(id(t) in batched for t in _tensor_leaves(args, kwargs))
            if not hit and len(args) > 1 and type(args[1]) in (slice, tuple):
                hit = name in ("__getitem__", "__setitem__") and _batched_bounds(args[1])
            if name == "requires_grad_" and not _read_by_shadowgrad():
                raise RuntimeError(REQUIRES_GRAD_IN_TRANSFORM)
            if hit or name in _RANDOM_INPLACE or name in _RANDOM_CREATE:
                _refuse(name, func, args, kwargs, hit)
            if hit and name == "__get__" and _TRANSFORMS.depth == depth:
                # a BatchedTensor carries no autograd state of its own: it reads as a leaf
                # that does not require grad (a grad transform inside the vmap tracks its own);
                # shadowgrad's own code reading it (a transform's wrapper) sees the real state
                hidden = _HIDDEN_AUTOGRAD.get(_property_name(getattr(func, "__self__", None)))
                if hidden is not None and not _read_by_shadowgrad():
                    return hidden[0]
            try:
                out = func(*args, **kwargs)
            except RuntimeError as e:
                if hit and name.endswith("_") and args and id(args[0]) in batched:
                    _raise_batched_broadcast(e)
                    fr = VMAP.frame
                    if (
                        fr is not None
                        and fr.batched is batched
                        and id(args[0]) in fr.slices
                        and str(e).startswith(_VIEW_OF_LEAF)
                    ):  # torch's batched tensor is the mapped leaf itself, not a view of it
                        raise RuntimeError(
                            "a leaf Variable that requires grad is being used in an in-place "
                            "operation."
                        ) from None
                raise
            if hit or (name in _RANDOM_CREATE and randomness == "different"):
                if _is_tensor(out):
                    batched.add(id(out))
                    self.keep.append(out)
                elif isinstance(out, (tuple, list)):
                    for o in out:
                        if _is_tensor(o):
                            batched.add(id(o))
                            self.keep.append(o)
            return out

    def _refuse(name: str, func: Any, args: Any, kwargs: Any, hit: bool) -> None:
        func_module = getattr(func, "__module__", None) or ""
        func_self = getattr(func, "__self__", None)
        self_ = args[0] if args and _is_tensor(args[0]) else None
        self_batched = self_ is not None and id(self_) in batched
        if name in _RANDOM_INPLACE and self_ is not None:
            numbers = [] if name == "bernoulli_" else _tensor_leaves(args[1:], kwargs)
            if any(t.ndim for t in numbers):
                return  # a tensor given as a number (mean, from, ...): the op's TypeError
            if any(id(t) in batched for t in numbers):  # a batched 0-d one: read with .item()
                raise RuntimeError(_tensor_mod.VMAP_ITEM)
            if randomness == "different" and not self_batched:
                others = _tensor_leaves(args[1:], kwargs)
                if name == "bernoulli_" and any(id(t) in batched for t in others):
                    raise RuntimeError(_INPLACE_UNBATCHED.format("inplace bernoulli", "in a vmap"))
                raise RuntimeError(_DIFFERENT_INPLACE)
            if randomness == "same" and any(
                id(t) in batched for t in _tensor_leaves(args[1:], kwargs)
            ):
                raise RuntimeError(_SAME_BATCHED)
            return
        if not hit:
            return
        if name in _RANDOM_FROM_TENSORS and randomness == "same":
            raise RuntimeError(_SAME_BATCHED)
        if name == "__bool__" or name == "is_nonzero":
            raise RuntimeError(_DATA_DEPENDENT)
        if name in _ITEM_READS:
            raise RuntimeError(_tensor_mod.VMAP_ITEM)
        if name in _STORAGE_READS:
            raise RuntimeError(_NO_STORAGE)
        if name == "untyped_storage":
            raise NotImplementedError("Cannot access storage of BatchedTensorImpl")
        if name == "nonzero" and kwargs.get("as_tuple"):
            raise RuntimeError(
                "Batching rule not implemented for aten::nonzero_numpy. We could not generate a "
                "fallback."
            )
        if name == "nonzero" or (name == "where" and len(args) == 1 and not kwargs):
            raise RuntimeError(_DYNAMIC.format(name))
        if name == "unique":
            dim = kwargs.get("dim", args[4] if len(args) > 4 else None)
            raise RuntimeError(_DYNAMIC.format("_unique2" if dim is None else "unique_dim"))
        if name == "unique_consecutive":
            raise RuntimeError(_DYNAMIC.format(name))
        if name == "one_hot" and kwargs.get("num_classes", args[1] if len(args) > 1 else -1) < 1:
            raise RuntimeError(
                "When vmap-ing torch.nn.functional.one_hot, please provide an explicit positive "
                "num_classes argument."
            )
        if name == "masked_select" and len(args) > 1 and id(args[1]) in batched:
            raise RuntimeError(
                "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We "
                "cannot support this because for each batch this would return a differently "
                "shaped Tensor. Please file an issue at https://github.com/pytorch/pytorch/issues "
                "if you need this feature."
            )
        if name == "__getitem__" and len(args) > 1:
            idx = args[1] if isinstance(args[1], tuple) else (args[1],)
            if any(_is_tensor(i) and i._data.dtype.kind == "b" and id(i) in batched for i in idx):
                raise RuntimeError(
                    "vmap: We do not support batching operators that can support dynamic shape. "
                    "Attempting to batch over indexing with a boolean mask."
                )
        if name == "grad" and not _OWN_GRAD.depth and func_module.startswith("shadowgrad.autograd"):
            outs = args[0] if args else kwargs.get("outputs")
            outs = outs if isinstance(outs, (tuple, list)) else (outs,)
            for i, o in enumerate(outs):
                if _is_tensor(o) and (id(o) in batched or not o._rg):
                    raise RuntimeError(
                        f"element {i} of tensors does not require grad and does not have a grad_fn"
                    )
        if name in _FALLBACK_OPS and tracker.first:  # (torch runs the batch once: one warning)
            _warn_fallback(name + _FALLBACK_OPS[name](args))
        hook = name in ("retain_grad", "register_hook") and _TRANSFORMS.depth == depth
        if hook and not _read_by_shadowgrad(1):  # a batched tensor reads as not requiring grad
            raise RuntimeError(
                "can't retain_grad on Tensor that has requires_grad=False"
                if name == "retain_grad"
                else "cannot register a hook on a tensor that doesn't require gradient"
            )
        if name in ("batch_norm", "instance_norm") and args and id(args[0]) in batched:
            _refuse_unbatched_stats(name, args, kwargs)
        if name in ("rrelu", "rrelu_"):
            raise RuntimeError("vmap: we do not yet support aten::rrelu. Please file an issue")
        if name == "equal":
            raise RuntimeError(
                "Batching rule not implemented for aten::equal. We could not generate a fallback."
            )
        if name == "allclose":
            raise RuntimeError(
                "vmap over torch.allclose isn't supported yet. Please file an issue at "
                "https://github.com/pytorch/pytorch/issues if you need this feature."
            )
        if kwargs.get("out") is not None:
            raise RuntimeError(
                f"Batching rule not implemented for aten::{name}.out; the fallback path "
                "doesn't work on out= or view ops."
            )
        if name in ("__getitem__", "__setitem__") and len(args) > 1 and _batched_bounds(args[1]):
            raise RuntimeError(_tensor_mod.VMAP_ITEM)
        if name == "__get__" and args and func_self is _tensor_property("data"):
            raise RuntimeError("accessing `data` under vmap transform is not allowed")
        imag = name == "__get__" and args and func_self is _tensor_property("imag")
        if imag and args[0].is_conj():  # torch's imag of a conj view is a _neg_view
            raise RuntimeError(
                "Batching rule not implemented for aten::_neg_view; the fallback path "
                "doesn't work on out= or view ops."
            )
        inplace = name == "__setitem__" or (name.endswith("_") and not name.startswith("_"))
        if inplace and self_ is not None and not self_batched:
            _refuse_inplace(name, self_, args, kwargs)

    def _raise_batched_broadcast(e: RuntimeError) -> None:
        # the sample's shapes, as torch's batched self and result have them: batch dim first
        m = re.fullmatch(
            r"output with shape \[(.*)\] doesn't match the broadcast shape \[(.*)\]", str(e)
        )
        if m:
            a, b = (f"[{size}, {x}]" if x else f"[{size}]" for x in m.groups())
            raise RuntimeError(
                f"output with shape {a} doesn't match the broadcast shape {b}"
            ) from None

    def _refuse_unbatched_stats(name: str, args: Any, kwargs: Any) -> None:
        """torch's batch norm rule: running statistics updated in place must be batched."""
        names = ("input", "running_mean", "running_var", "weight", "bias")
        flag = "training" if name == "batch_norm" else "use_input_stats"
        given = dict(zip((*names, flag), args, strict=False)) | kwargs
        stats = [given.get("running_mean"), given.get("running_var")]
        updating = given.get(flag, name == "instance_norm")
        if updating and any(t is not None and id(t) not in batched for t in stats):
            raise RuntimeError(BATCH_NORM_UNBATCHED_STATS)

    def _batched_bounds(index: Any) -> bool:
        """Whether an index holds a slice bounded by a batched tensor (read as an int)."""
        idx = index if isinstance(index, tuple) else (index,)
        bounds = [b for i in idx if isinstance(i, slice) for b in (i.start, i.stop, i.step)]
        return any(_is_tensor(b) and id(b) in batched for b in bounds)

    def _refuse_inplace(name: str, self_: Any, args: Any, kwargs: Any) -> None:
        if name in _INPLACE_BROADCAST:
            from .ops.shape_extra import broadcast_shapes

            other = next(t for t in _tensor_leaves(args[1:], kwargs) if id(t) in batched)
            try:
                # the batch sizes of every level `other` is batched at, outermost first
                sizes = [n for b, n in outer if id(other) in b]
                shape = broadcast_shapes(tuple(self_.shape), (*sizes, size, *other.shape))
            except RuntimeError:
                return
            raise RuntimeError(
                f"output with shape {list(self_.shape)} doesn't match the broadcast shape "
                f"{list(shape)}"
            )
        if name == "__setitem__" and any(
            _is_tensor(i) for i in (args[1] if isinstance(args[1], tuple) else (args[1],))
        ):
            name = "index_put_"  # a tensor index: torch's setitem is index_put_
        if name in _INPLACE_ARITHMETIC:
            raise RuntimeError(_INPLACE_UNBATCHED.format("inplace arithmetic", "in a vmap"))
        if name in _INPLACE_BARE:
            raise RuntimeError(_INPLACE_UNBATCHED.format(name, "in a vmap"))
        # the batching fallback's: it warns, then refuses
        overload = ""
        if name in _TENSOR_OVERLOAD:
            overload = ".Tensor"
        elif name == "lerp_":
            overload = ".Tensor" if len(args) > 2 and _is_tensor(args[2]) else ".Scalar"
        elif name == "scatter_":
            overload = ".src" if len(args) > 3 and _is_tensor(args[3]) else ".value"
        _warn_fallback(name + overload)
        raise RuntimeError(_INPLACE_UNBATCHED.format(f"aten::{name}", f"at level {level}"))

    tracker = _BatchTracker()
    tracker.keep = []
    tracker.off = 0
    tracker.first = True  # the first sample running
    return tracker


# --- autograd.Function mapped directly: its vmap staticmethod, or the generated rule ----------


def _function_of(func: Any) -> Any:
    """The autograd.Function subclass whose `apply` func is (`vmap(MyFunction.apply)`), outside
    another vmap; None for anything else."""
    if _fn.VMAP_DEPTH.depth or getattr(func, "__func__", None) is not _fn.Function.apply.__func__:
        return None
    cls = func.__self__
    return cls if isinstance(cls, type) and issubclass(cls, _fn.Function) else None


_EXTENDING_FUNC = (
    "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"
)


def _vmap_function(
    cls: Any, name: str, args: tuple[Any, ...], dims: list[Any], size: int, randomness: str,
    out_dims: Any,
) -> Any:  # fmt: skip
    """torch's custom_function_call_vmap: the Function's vmap staticmethod called once on the
    whole batch (the inputs' batch dims as in_dims), or with generate_vmap_rule=True a
    `Vmapped<Name>` Function whose forward and backward map the Function's over the batch."""
    setup = cls.setup_context is not _fn.Function.setup_context
    _fn.VMAP_DEPTH.depth += 1
    try:
        _fn._check_functorch(cls, setup)
    finally:
        _fn.VMAP_DEPTH.depth -= 1
    in_dims = tuple(
        None if d is None or not _is_tensor(a) else d % a.ndim
        for a, d in zip(args, dims, strict=True)
    )
    if cls.generate_vmap_rule:
        outs = _vmapped_function(cls, in_dims, size, randomness).apply(*args)
        odims: Any = 0
    else:
        res = cls.vmap(_VmapInfo(size, randomness), in_dims, *args)
        base = (
            "Expected the vmap staticmethod to have two returns, an output and out_dims with "
            "pytree structure compatible with the output. "
        )
        if not isinstance(res, tuple):
            from .nn.modules.module import _cls_str

            raise RuntimeError(base + f"Got a {_cls_str(type(res))} instead")
        if len(res) != 2:
            raise RuntimeError(base + f"Got {len(res)} returns instead")
        outs, odims = res
    flat, spec = _flatten(outs)
    if odims is None or isinstance(odims, int):
        flat_od = [odims] * len(flat)
    elif _is_prefix(odims, outs):
        flat_od = _broadcast_dims((odims,), (outs,))
    else:
        raise RuntimeError(
            "The autograd.Function's vmap staticmethod returned an incompatible (output, "
            f"out_dims) tuple. Expected out_dims={odims} to be compatible with the structure of "
            f"`output`. out_dims has structure {_treespec(odims)} but output has structure "
            f"{spec}. {_EXTENDING_FUNC}"
        )
    if isinstance(out_dims, (tuple, list, dict)):
        if not _is_prefix(out_dims, outs):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
                f"with the structure of `outputs`. out_dims has structure {_treespec(out_dims)} "
                f"but outputs has structure {_treespec(outs)}."
            )
        vod = _broadcast_dims((out_dims,), (outs,))
    else:
        vod = [out_dims] * len(flat)
    res = []
    for o, d, v in zip(flat, flat_od, vod, strict=True):
        if _is_tensor(o) and d is not None:
            if v is None:
                raise ValueError(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim "
                    "is None"
                )
            from .ops._util import wrap_dim

            v = wrap_dim(v, o.ndim)
            o = o if d == v else o.movedim(d, v)
        elif _is_tensor(o) and v is not None:
            shape = list(o.shape)  # torch's _remove_batch_dim expands, batch size inserted at v
            shape.insert(v, size)
            o = o.expand(*shape)
        elif v is not None:
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                f"{_torch_type(type(o))}. Did you mean to set out_dims= to None for output?"
            )
        res.append(o)
    return _unflatten(res, spec)


class _SampleCtx:
    """One sample's ctx for a generated vmap rule: what setup_context saves and sets on it,
    read back by that sample's backward. A saved slice of an input or output is saved as
    where it came from and sliced again from the Function's own saved tensors at backward
    (so double backward reaches the inputs' graphs)."""

    def __init__(self, ctx: Any, origin: dict[int, int]) -> None:
        self.needs_input_grad = ctx.needs_input_grad
        self._ctx, self._origin = ctx, origin
        self._saved: list[tuple[int, Any]] = []
        self._resolve: Any = None
        self.keep: Any = None

    def save_for_backward(self, *tensors: Any) -> None:
        o = self._origin
        self._saved = [(o[id(t)], None) if id(t) in o else (-1, t) for t in tensors]

    def save_for_forward(self, *tensors: Any) -> None:
        pass

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        return tuple(t if k < 0 else self._resolve(k) for k, t in self._saved)

    def mark_dirty(self, *args: Any) -> None:
        pass

    def mark_non_differentiable(self, *args: Any) -> None:
        pass

    def set_materialize_grads(self, value: bool) -> None:
        pass


def _vmapped_function(cls: Any, in_dims: tuple[Any, ...], size: int, randomness: str) -> Any:
    """torch's vmapify_autograd_function: `Vmapped<Name>`, whose forward, setup_context and
    backward run the Function's per sample (its grad_fn is `Vmapped<Name>Backward`)."""
    from ._creation import zeros_like
    from .ops.shape import stack

    def forward(*operands: Any) -> Any:
        return vmap(cls.forward, in_dims=in_dims, randomness=randomness)(*operands)

    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        outs = output if isinstance(output, tuple) else (output,)
        # the full inputs and outputs saved; slot k of them, with its batch dim
        slots = [(x, d) for x, d in zip(inputs, in_dims, strict=True) if _is_tensor(x)]
        slots += [(o, 0) for o in outs if _is_tensor(o)]
        ctx.save_for_backward(*(x for x, _ in slots))
        ctx._pt_dims = [d for _, d in slots]
        ctx._pt_samples = []
        ctx._pt_tensor = tuple(_is_tensor(x) for x in inputs)
        for i in range(size):
            origin: dict[int, int] = {}
            ins, o = [], []
            for x, d in zip(inputs, in_dims, strict=True):
                if _is_tensor(x):
                    x = x.select(d, i) if d is not None else x
                    origin[id(x)] = len(origin)
                ins.append(x)
            for t in outs:
                if _is_tensor(t):
                    t = t.select(0, i)
                    origin[id(t)] = len(origin)
                o.append(t)
            c = _SampleCtx(ctx, origin)
            cls.setup_context(c, tuple(ins), tuple(o) if isinstance(output, tuple) else o[0])
            c.keep = (ins, o)  # (the ids in origin stay theirs)
            ctx._pt_samples.append(c)

    def backward(ctx: Any, *grads: Any) -> Any:
        full = ctx.saved_tensors
        per = []
        for i, c in enumerate(ctx._pt_samples):
            c._resolve = lambda k, i=i: (
                full[k] if ctx._pt_dims[k] is None else full[k].select(ctx._pt_dims[k], i)
            )
            g = cls.backward(c, *(None if g is None else g.select(0, i) for g in grads))
            per.append(g if isinstance(g, tuple) else (g,))
        res = []
        for k, (is_t, d) in enumerate(zip(ctx._pt_tensor, in_dims, strict=True)):
            parts = [p[k] if k < len(p) else None for p in per]
            if not is_t or all(p is None for p in parts):
                res.append(None)
                continue
            ref = next(p for p in parts if p is not None)
            parts = [zeros_like(ref) if p is None else p for p in parts]
            if d is None:  # an unbatched input: the samples' gradients summed (reductify)
                res.append(stack(parts).sum(0))
            else:
                res.append(stack(parts, d))
        return tuple(res)

    return type(
        f"Vmapped{cls.__name__}",
        (_fn.Function,),
        {
            "forward": staticmethod(forward),
            "setup_context": staticmethod(setup_context),
            "backward": staticmethod(backward),
            # shadowgrad's own (as torch's generated class is): an enclosing vmap runs it per
            # sample instead of asking it for a vmap rule
            "__module__": __name__,
        },
    )


def _unbatched_output(
    parts: list[Any], flags: list[bool], leaves: list[Any], dims: list[Any]
) -> bool:
    """Whether an output is unbatched, as torch would see it: no sample derived it from its
    slices, and (a guard for ops the tracker cannot see, a custom op's or a function no mode
    sees) its samples are equal and, when a mapped input requires grad, none requires grad."""
    if not all(flags):
        return False
    mapped_rg = any(x._rg for x, d in zip(leaves, dims, strict=True) if d is not None)
    if mapped_rg and any(p._rg for p in parts):
        return False
    return all(_same_output(p, parts[0]) for p in parts[1:])


def _custom_vmap_rule(func: Any) -> Any:
    """The register_vmap rule of a torch.library custom op vmapped directly (its CustomOpDef
    or torch.ops.<ns>.<op>.<overload>), outside another vmap; None for anything else."""
    if _fn.VMAP_DEPTH.depth:
        return None
    from ._library.custom_ops import CustomOpDef
    from ._library.dispatch import OpOverload

    if isinstance(func, OpOverload):
        func = func._entry.custom
    return func._vmap_fn if isinstance(func, CustomOpDef) else None


class _VmapInfo:
    """What a register_vmap rule gets first (torch's VmapInfo)."""

    def __init__(self, batch_size: int, randomness: str) -> None:
        self.batch_size = batch_size
        self.randomness = randomness


def _run_vmap_rule(
    rule: Any, randomness: str, size: int, args: tuple[Any, ...], in_dims: Any, out_dims: int
) -> Any:
    """Call the rule once on the whole batch; its outputs' batch dims (None: unbatched,
    broadcast over the batch) go where vmap's out_dims puts them."""
    out, odims = rule(_VmapInfo(size, randomness), tuple(in_dims), *args)
    leaves, spec = _flatten(out)
    od = [odims] * len(leaves) if odims is None or isinstance(odims, int) else _flatten(odims)[0]
    res = []
    for o, d in zip(leaves, od, strict=True):
        if _is_tensor(o):
            o = o.unsqueeze(0).expand(size, *o.shape) if d is None else o.movedim(d, 0)
            o = o.movedim(0, out_dims)
        res.append(o)
    return _unflatten(res, spec)


def _same_output(a: Any, b: Any) -> bool:
    """Whether two samples' values of an out_dims=None output are the same (unbatched)."""
    if a is b:
        return True
    if _is_tensor(a) and _is_tensor(b):
        return a.shape == b.shape and bool(
            np.array_equal(a.detach().numpy(), b.detach().numpy(), equal_nan=a.is_floating_point())
        )
    try:
        return bool(a == b)
    except Exception:
        return False


def _pprint_spec(tree: Any) -> str:
    """torch's treespec_pprint: '*' for a leaf, containers as Python writes them."""
    from .utils._pytree import tree_structure, treespec_pprint

    return treespec_pprint(tree_structure(tree))


def _treespec(tree: Any) -> str:
    """torch's repr of a pytree's TreeSpec."""
    from .utils._pytree import tree_structure

    return repr(tree_structure(tree))


def _is_prefix(dims: Any, tree: Any) -> bool:
    """Whether the in_dims/out_dims tree `dims` is a prefix of `tree` (torch's
    _broadcast_to_and_flatten succeeds): an int or None covers a whole subtree."""
    if isinstance(dims, (tuple, list)):
        return (
            isinstance(tree, (tuple, list))
            and type(dims) is type(tree)
            and len(dims) == len(tree)
            and all(_is_prefix(d, t) for d, t in zip(dims, tree, strict=True))
        )
    if isinstance(dims, dict):
        return (
            isinstance(tree, dict)
            and dims.keys() == tree.keys()
            and all(_is_prefix(dims[k], tree[k]) for k in tree)
        )
    return True


def _broadcast_dims(in_dims: Any, args: tuple[Any, ...]) -> list[Any]:
    """in_dims matched to the flattened arguments: an int or None for a whole argument applies
    to each of its leaves."""
    dims: list[Any] = []
    for d, a in zip(in_dims, args, strict=True):
        n = len(_flatten(a)[0])
        if isinstance(d, (tuple, list)):
            dims.extend(_broadcast_dims(d, a) if isinstance(a, (tuple, list)) else [d] * n)
        elif isinstance(d, dict) and isinstance(a, dict) and d.keys() == a.keys():
            # a dict of in_dims for a dict argument, matched key by key (pytree order)
            dims.extend(_broadcast_dims([d[k] for k in a], tuple(a.values())))
        else:
            dims.extend([d] * n)
    return dims


# --- functional_call ------------------------------------------------------------------------


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Call `module` with some parameters and buffers replaced. Mirrors
    `torch.func.functional_call`.

    Each name is swapped as torch swaps it: a parameter or buffer slot takes the value itself;
    any other attribute (a parametrized tensor such as "weight") is assigned, which runs the
    parametrization's right_inverse, and assigned back afterwards. With a single dict, the
    values the module holds when the call ends are written back into it, as torch does.
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        values = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (tuple, list)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        counts: dict[str, int] = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous"
            )
        values = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        from .nn.modules.module import _cls_str

        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
            f"{_cls_str(type(parameter_and_buffer_dicts))}"
        )
    swapped = _untie(module, values) if tie_weights else values
    if strict:
        _check_keys(module, swapped)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    originals = _swap_all(module, swapped)
    try:
        return module(*args, **(kwargs or {}))
    finally:
        now = _swap_all(module, originals)
        values.update({k: now[k] for k in values if k in now})


def _named_tensors(module: Any) -> list[tuple[str, Any]]:
    return [
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ]


def _untie(module: Any, values: dict[str, Any]) -> dict[str, Any]:
    """values, plus every name tied to a given one (the same tensor) with the given value."""
    names_of: dict[int, set[str]] = {}
    for n, t in _named_tensors(module):
        names_of.setdefault(id(t), set()).add(n)
    tied = {n: group for group in names_of.values() if len(group) > 1 for n in group}
    given = [n for n in values if n in tied]
    for n in given:
        group = tied[n]
        if len([g for g in given if g in group]) > 1 and len({id(values[g]) for g in group}) != 1:
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(group)}, which are tied. "
                "Consider using tie_weights=False"
            )
    out = dict(values)
    for n in given:
        for m in tied[n]:
            out[m] = values[n]
    return out


def _check_keys(module: Any, values: dict[str, Any]) -> None:
    valid = {n for n, _ in _named_tensors(module)}
    missing = sorted(valid - set(values))
    unexpected = sorted(set(values) - valid)
    parts = []
    if unexpected:
        parts.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        parts.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if parts:
        raise RuntimeError(
            "Error(s) in reparametrizing for {}:\n\t{}".format(
                module._get_name(), "\n\t".join(parts)
            )
        )


_MISSING = object()


def _swap_all(module: Any, values: dict[str, Any]) -> dict[str, Any]:
    """Swap each dotted name to its value; returns the previous values (swapped back on error)."""
    old: dict[str, Any] = {}
    try:
        for name, value in values.items():
            old[name] = _swap(module, name, value)
    except Exception:
        for name, value in old.items():
            _swap(module, name, value)
        raise
    return old


def _submodule(module: Any, path: str) -> Any:
    from .nn import Module

    mod = module
    for i, attr in enumerate(path.split(".") if path else ()):
        try:
            sub = getattr(mod, attr)
        except AttributeError as e:
            raise AttributeError(f"{mod._get_name()} has no attribute `{attr}`") from e
        if not isinstance(sub, Module):
            name = ".".join(path.split(".")[: i + 1])
            raise TypeError(f"submodule `{name}`: {sub} is not an instance of torch.nn.Module")
        mod = sub
    return mod


def _swap(module: Any, name: str, value: Any) -> Any:
    prefix, _, attr = name.rpartition(".")
    mod = _submodule(module, prefix)
    if value is not _MISSING and value is not None and not _is_tensor(value):
        raise TypeError(f"{value} is not an instance of torch.Tensor")
    if attr == "":  # torch's swap_tensor: a name ending in "." (or "") names no tensor
        raise KeyError('tensor name can\'t be empty string ""')
    for table in (mod._parameters, mod._buffers):
        if attr in table:
            old = table[attr]
            if value is _MISSING:
                del table[attr]
            else:
                table[attr] = value
            return old
    old = getattr(mod, attr) if hasattr(mod, attr) else _MISSING
    if old is not _MISSING and old is not None and not _is_tensor(old):
        raise TypeError(f"attribute `{attr}`: {old} is not an instance of torch.Tensor")
    if value is not _MISSING:
        setattr(mod, attr, value)  # a parametrized tensor: through right_inverse, as torch
    elif hasattr(mod, attr):
        delattr(mod, attr)
    return old


def stack_module_state(models: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Mirrors `torch.func.stack_module_state`: each parameter and buffer stacked over the
    models (new leaves; the parameters require grad as the originals do)."""
    from .ops.shape import stack

    if not len(models):  # (torch takes a sized collection: a generator is a TypeError)
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not all(m.training for m in models) and any(m.training for m in models):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    if any(type(m) is not type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def leaf(ts: list[Any], name: str) -> Any:
        # torch's construct_stacked_leaf: parameters and buffers alike
        rg = [t.requires_grad for t in ts]
        if any(rg) and not all(rg):
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        with _grad_mode.no_grad():
            t = stack([x.detach() for x in ts])
        return t.requires_grad_(True) if all(rg) else t

    def stacked(named: Any) -> dict[str, Any]:
        every = [dict(named(m)) for m in models]
        return {k: leaf([d[k] for d in every], k) for k in every[0]}

    return (
        stacked(lambda m: m.named_parameters()),
        stacked(lambda m: m.named_buffers()),
    )


def replace_all_batch_norm_modules_(root: Any) -> Any:
    """Mirrors `torch.func.replace_all_batch_norm_modules_`: every batch norm stops tracking
    running statistics (they become None), in place; returns root."""
    from .nn.modules.normalization import _BatchNorm

    for m in root.modules():
        if isinstance(m, _BatchNorm):
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None
            m.track_running_stats = False
    return root


def functionalize(func: Callable[..., Any], *, remove: str = "mutations") -> Callable[..., Any]:
    """Mirrors `torch.func.functionalize`: the function's results, and its mutations of its
    inputs, are those of running it eagerly, which is what shadowgrad does."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}."
            " Valid options are:\n     remove='mutations': all inplace and out= operators will "
            "be removed from the program, and replaced with their out-of-place equivalents.\n"
            "     remove='mutations_and_views': In addition to the above, all aliasing operators "
            "{view} will be replaced with their non-aliasing counterparts, {view}_copy.\n"
        )

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapped


def _link_random() -> None:
    from . import _random

    _random._VMAP = VMAP
    _fn.VMAP_DEPTH.hook = _function_in_vmap


_link_random()


def debug_unwrap(tensor: Any, *, recurse: bool = True) -> Any:
    """Mirrors `torch.func.debug_unwrap`: the tensor under a transform's wrappers; shadowgrad's
    transforms run on plain tensors, so the tensor itself."""
    return tensor
