"""Shadow mode: mirror a real torch program in shadowgrad and check torch's gradients.

`with shadow() as report:` installs a TorchFunctionMode that runs each torch-level call as usual,
then mirrors it in shadowgrad (torch tensors map to their shadowgrad mirrors, so the mirrored
graph connects), plus a scoped patch of `torch.autograd.Function.apply` for custom Functions,
whose forward body is re-run on shadowgrad tensors. For each mirrored call, hooks on the torch
nodes that the call created capture torch's incoming gradient and its outgoing gradients; after
each backward, the incoming gradient is pushed through the call's own mirrored nodes and the
result compared with torch's outgoing ones (`_direct`; a call whose nodes cannot be run on their
own is re-run on fresh leaves instead). See Note [Local checks localize] and Note [Leaf check].

Note [Local checks localize]: each local check starts from torch's own incoming gradient, so a
wrong formula in one node shows up at that node only; nodes upstream of it receive a wrong
incoming gradient but transform it correctly. End-to-end leaf mismatches explained by a local
divergence are listed apart, in `report.leaf_divergences`.

Note [Leaf check]: a leaf's gradient is composed of the local backwards of the calls between it
and the root, each already compared from torch's incoming gradient. So with leaf_check="auto"
leaf gradients are compared end to end (one more backward through the mirrored graph) only
after a backward that ran through a call not checked locally (`uncovered`: its torch nodes
could not be delimited, or its check could not run), or whose local checks diverged (to list
the leaves reached). leaf_check="always" compares them after every backward.

A backward for some inputs only (`autograd.grad`, `backward(inputs=)`) is watched too: see
Note [Gradients not needed]. Pending calls live only as long as torch's graph: see Note [Pending
calls].

Nothing on the shadow side may break the user's program: every shadow step catches everything
and records the call as not mirrored.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import warnings
import weakref
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _grad_mode
from .._tensor import Tensor, _make
from ..autograd import engine as _engine
from ..autograd.graph import Node
from .interop import _sg_dtype

_validate = getattr(_engine, "_validate", None)  # sums broadcast gradients to input shapes

__all__ = ["Divergence", "ShadowDivergenceError", "ShadowReport", "shadow"]

# Calls with a random result: shadowgrad would draw other numbers.
_RANDOM = frozenset(
    [
        "dropout",
        "dropout1d",
        "dropout2d",
        "dropout3d",
        "alpha_dropout",
        "feature_alpha_dropout",
        "rrelu",
        "bernoulli",
        "rand_like",
        "randn_like",
        "randint_like",
        "normal",
        "multinomial",
        "uniform_",
        "normal_",
        "bernoulli_",
        "exponential_",
        "random_",
        "cauchy_",
        "log_normal_",
        "geometric_",
        "randperm",
    ]
)
_INPLACE_DUNDERS = frozenset(
    [
        "__iadd__",
        "__isub__",
        "__imul__",
        "__itruediv__",
        "__ifloordiv__",
        "__ipow__",
        "__imatmul__",
        "__iand__",
        "__ior__",
        "__ixor__",
        "__ilshift__",
        "__irshift__",
        "__setitem__",
    ]
)
_SKIP_FILES = ("/torch/", "/shadowgrad/bridge/", "<frozen", "contextlib.py")
_ACTIVE = threading.local()
# torch function -> (kind, shadowgrad callable, name); the same for every shadow() block
_KINDS: dict[Any, Any] = {}


@dataclass
class Divergence:
    """A disagreement between torch and shadowgrad."""

    op: str
    message: str
    where: str = ""
    shapes: tuple[tuple[int, ...], ...] = ()
    max_abs_err: float = 0.0
    max_rel_err: float = 0.0
    kind: str = "backward"  # "backward" (local check), "forward" or "leaf" (end to end)
    input_index: int | None = None

    def __str__(self) -> str:
        shapes = ", ".join(str(list(s)) for s in self.shapes)
        return (
            f"{self.op} [{self.kind}] at {self.where or '?'}: {self.message} "
            f"(shapes {shapes}; max abs err {self.max_abs_err:.3g}, "
            f"max rel err {self.max_rel_err:.3g})"
        )


@dataclass
class ShadowReport:
    """What shadow mode found. `ok` is True when torch and shadowgrad agree everywhere."""

    divergences: list[Divergence] = field(default_factory=list)
    leaf_divergences: list[Divergence] = field(default_factory=list)
    not_mirrored: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    calls: int = 0
    mirrored: int = 0
    checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.divergences and not self.leaf_divergences

    def __str__(self) -> str:
        head = "shadow: ok" if self.ok else "shadow: DIVERGED"
        lines = [
            f"{head} ({self.calls} calls, {self.mirrored} mirrored, {self.checked} backward "
            f"checks, {len(self.divergences)} divergence(s))"
        ]
        lines += [f"  {d}" for d in self.divergences]
        if self.leaf_divergences:
            n = len(self.leaf_divergences)
            why = " (downstream of the divergences above)" if self.divergences else ""
            lines.append(f"  {n} leaf gradient(s) differ end to end{why}:")
            lines += [f"    {d}" for d in self.leaf_divergences[:3]]
            if n > 3:
                lines.append(f"    ... and {n - 3} more")
        if self.not_mirrored:
            items = ", ".join(f"{k} x{n}" for k, n in self.not_mirrored.most_common())
            lines.append(f"  not mirrored: {items}")
        lines += [f"  note: {n}" for n in self.notes[:10]]
        return "\n".join(lines)


class ShadowDivergenceError(AssertionError):
    """Raised at the end of a `shadow(on_divergence="raise")` block that diverged."""

    def __init__(self, report: ShadowReport) -> None:
        super().__init__(str(report))
        self.report = report


_SKIPPED: dict[str, bool] = {}  # file name -> whether _where looks past its frames


def _where() -> str:
    """The user's line that made the current call: the first frame outside torch and us."""
    f = sys._getframe(3)  # above _where, _mirror and call: shadow mode's own frames
    skipped = _SKIPPED
    while f is not None:
        fn = f.f_code.co_filename
        skip = skipped.get(fn)
        if skip is None:
            skip = skipped[fn] = any(s in fn for s in _SKIP_FILES)
        if not skip:
            return f"{fn}:{f.f_lineno}"
        f = f.f_back  # type: ignore[assignment]
    return ""


_TOLS = {
    np.dtype(np.float64): (1e-7, 1e-10),
    np.dtype(np.complex128): (1e-7, 1e-10),
    np.dtype(np.float16): (1e-2, 1e-3),
}


def _tol(dt: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing a result computed by two engines in dtype `dt`."""
    return _TOLS.get(dt, (1e-4, 1e-6))


def _compare(a: np.ndarray, b: np.ndarray, rtol: float | None, atol: float | None) -> Any:
    """None when close, else (max abs err, max rel err). Call under np.errstate(all="ignore")."""
    r, t = _tol(b.dtype)
    if rtol is not None:
        r = rtol
    if atol is not None:
        t = atol
    if a.shape != b.shape:
        return (float("inf"), float("inf"))
    if not a.size or (a.dtype == b.dtype and a.tobytes() == b.tobytes()):
        return None  # identical bits (often: both engines compute the same formula)
    if a.dtype.kind in "fc" and b.dtype.kind in "fc":
        # the common case in one or two passes; NaN and inf fail the test and go the long way
        m = float(np.abs(a - b).max())
        if m <= t or m <= t + r * float(np.abs(b).max()):
            return None
    a = np.asarray(a, dtype=np.result_type(a, b))
    with np.errstate(all="ignore"):
        err = np.abs(a - b)
        err = np.where(np.isnan(a) & np.isnan(b), 0, err)
        err = np.where(np.isinf(a) & (a == b), 0, err)
        scale = max(float(np.nanmax(np.abs(b), initial=0)), float(np.nanmax(np.abs(a), initial=0)))
        if np.isinf(scale):
            scale = 0.0
        m = float(np.nanmax(err)) if not np.isnan(err).all() else float("nan")
        if m <= t + r * scale and not np.isnan(err).any():
            return None
        rel = float(np.nanmax(err / np.maximum(np.abs(b), 1e-30)))
    return (m, rel)


class _Call:
    """One mirrored call awaiting its local backward check.

    Owned by the hooks on its torch nodes (Note [Pending calls]); the state holds it weakly.
    """

    __slots__ = (
        "__weakref__",
        "args",
        "edges",
        "first",
        "fn",
        "handles",
        "inplace",
        "inputs",
        "kwargs",
        "name",
        "nout",
        "passes",
        "roots",
        "sub",
        "where",
    )

    def __init__(self, name: str, fn: Any, where: str) -> None:
        self.name = name
        self.fn = fn
        self.where = where
        self.passes: list[dict[str, Any]] = []
        self.sub: Any = None  # the mirrored subgraph, found on the first check
        self.handles: list[Any] = []


class _Uncovered:
    """The hook on the torch nodes of a call that cannot be checked locally.

    A backward that runs through it is not covered by local checks (Note [Leaf check]).
    """

    __slots__ = ("__weakref__", "handles", "st")

    def __init__(self, st: _State) -> None:
        self.st = st
        self.handles: list[Any] = []

    def __call__(self, grad_outputs: Any) -> None:
        self.st.uncovered = True


# The value of _State.partial during a backward whose gradients shadow mode cannot read.
_OFF: frozenset[int] = frozenset()


class _State:
    def __init__(
        self,
        report: ShadowReport,
        rtol: float | None,
        atol: float | None,
        check_forward: bool,
        leaf_check: str = "auto",
    ) -> None:
        import torch

        self.torch = torch
        self.report = report
        self.rtol = rtol
        self.atol = atol
        self.check_forward = check_forward
        self.leaf_check = leaf_check
        self.busy = False
        self.uncovered = False  # the last backward ran through a call not checked locally
        self.mirrors: dict[int, tuple[Any, Tensor, int]] = {}
        # the keys of mirrors of leaves that require grad, in the order they were mirrored
        self.leaves: dict[int, None] = {}
        self.kinds = _KINDS
        # Note [Pending calls]: a call waiting for its check is owned by the hooks on its torch
        # nodes, so it goes when they go (a forward that is never backpropagated leaves
        # nothing behind); `hooked` only finds the live ones to remove their hooks at the end.
        self.hooked: weakref.WeakSet[Any] = weakref.WeakSet()
        self.ready: list[_Call] = []  # calls whose backward ran since the last flush
        # During a backward for some inputs only (autograd.grad, backward(inputs=)): the ids
        # of the requested leaves (see Note [Gradients not needed]); None otherwise.
        self.partial: frozenset[int] | None = None
        self.hwm = -1
        self.broken = False  # a differentiable call was not mirrored since the last backward
        self.backward_fns = {torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad}
        self.py_node = torch.autograd.function.BackwardCFunction

    # --- mirrors ------------------------------------------------------------------------
    def mirror_of(self, t: Any) -> Tensor:
        e = self.mirrors.get(id(t))
        if e is not None and e[0]() is t and e[2] == t._version:
            return e[1]
        d = t.detach()
        if d.is_conj():
            d = d.resolve_conj()
        if d.is_neg():
            d = d.resolve_neg()
        m = _make(np.array(d.numpy()))
        if t.requires_grad:
            m.requires_grad_(True)
            if t.grad_fn is not None:
                self.broken = True  # a stand-in leaf for a non-leaf: the graph is cut here
        self._set(t, m)
        return m

    def _set(self, t: Any, m: Tensor) -> None:
        k = id(t)
        mirrors = self.mirrors

        def drop(r: Any, k: int = k) -> None:
            e = mirrors.get(k)
            if e is not None and e[0] is r:
                del mirrors[k]

        self.mirrors[k] = (weakref.ref(t, drop), m, t._version)
        if m._rg and m._grad_fn is None:
            self.leaves[k] = None

    # --- the mode's entry point ---------------------------------------------------------
    def kind(self, func: Any) -> Any:
        k = self.kinds.get(func)
        if k is None:
            from .interop import resolve

            name = getattr(func, "__name__", "") or ""
            if func in self.backward_fns:
                k = ("backward", None, name)
            elif name in ("__get__", "__set__"):
                k = ("pass", None, name)
            elif name in _RANDOM:
                k = ("random", None, name)
            else:
                fn = resolve(func)
                k = ("call", fn, name) if fn is not None else ("unmirrored", None, name)
            self.kinds[func] = k
        return k

    def call(
        self, name: str, fn: Any, run: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        """Run the torch call (`run`), then mirror it; the mirror never raises."""
        torch = self.torch
        self.report.calls += 1
        tin = _tensors(args, kwargs, torch)
        if not tin or fn is None:
            out = run()
            if fn is None and _differentiable(out, torch):
                self.report.not_mirrored[name] += 1
                self.broken = True
            return out
        try:
            self.busy = True
            pre = self._before(tin)
        except Exception as e:
            pre = e
        finally:
            self.busy = False
        out = run()
        if isinstance(pre, Exception):
            self._unmirrored(name, out, pre)
            return out
        try:
            self.busy = True
            with np.errstate(all="ignore"):  # the mirror warns about nothing torch is quiet on
                self._mirror(name, fn, args, kwargs, tin, pre, out)
        except Exception as e:
            self._unmirrored(name, out, e)
        finally:
            self.busy = False
        return out

    def _unmirrored(self, name: str, out: Any, e: Exception) -> None:
        self.report.not_mirrored[name] += 1
        if len(self.report.notes) < 50:
            self.report.notes.append(f"{name}: not mirrored ({type(e).__name__}: {e})")
        if _differentiable(out, self.torch):
            self.broken = True

    def _before(self, tin: list[Any]) -> Any:
        """The inputs' mirrors, their versions, which require grad, and torch's graph keys."""
        mirrors = []
        versions = []
        rgs = []
        keys = {}
        for j, t in enumerate(tin):
            m = self.mirror_of(t)
            mirrors.append(m)
            versions.append(m._version)
            rg = t.requires_grad
            rgs.append(rg)
            if rg:
                gf = t.grad_fn
                keys[(id(gf), t.output_nr) if gf is not None else ("leaf", id(t))] = j
        return mirrors, versions, rgs, keys, self.hwm

    def _mirror(
        self, name: str, fn: Any, args: Any, kwargs: Any, tin: list[Any], pre: Any, out: Any
    ) -> None:
        torch = self.torch
        T = torch.Tensor
        mirrors, versions, rgs, keys, hwm = pre
        sub = {id(t): m for t, m in zip(tin, mirrors, strict=True)}
        inplace = name in _INPLACE_DUNDERS or (name.endswith("_") and not name.endswith("__"))
        sargs = _to_shadowgrad(args, sub, torch)
        skw = {k: _to_shadowgrad(v, sub, torch) for k, v in kwargs.items()} if kwargs else {}
        if inplace:
            snap = [np.array(m._data) for m in mirrors]
        # the edges the call's gradients flow into, taken before an in-place call moves them
        edges = [m._edge() if m._rg else None for m in mirrors]
        first = _next_seq()  # every node the call creates comes later
        sout = fn(*sargs, **skw)
        if name == "__setitem__":
            sout, out = sargs[0], args[0]
        if isinstance(out, T) and isinstance(sout, Tensor):
            pairs = [(out, sout)]
        else:
            touts = out if isinstance(out, (tuple, list)) else (out,)
            souts = sout if isinstance(sout, (tuple, list)) else (sout,)
            pairs = [
                (t, s)
                for t, s in zip(touts, souts, strict=False)
                if isinstance(t, T) and isinstance(s, Tensor)
            ]
            if len(pairs) != sum(isinstance(t, T) for t in touts):
                raise TypeError("the mirror returned other outputs than torch")
        self.report.mirrored += 1
        where = ""
        grad = False
        for t, s in pairs:
            self._set(t, s)
            if self.check_forward:
                bad = _compare(s._data, _numpy(t), self.rtol, self.atol)
                if bad is not None:
                    where = where or _where()
                    self.report.divergences.append(
                        Divergence(
                            name,
                            "forward values differ",
                            where,
                            tuple(tuple(x.shape) for x in tin),
                            *bad,
                            kind="forward",
                        )
                    )
            grad = grad or t.grad_fn is not None
        if not keys or not grad:
            return
        c = _Call(name, fn, where or _where())
        c.inplace = inplace
        datas = snap if inplace else [m._data for m in mirrors]
        c.inputs = list(zip(datas, mirrors, versions, rgs, strict=True))
        c.args, c.kwargs = sargs, skw
        c.nout = len(pairs)
        c.edges, c.first = edges, first
        c.roots = [s._edge() if s._rg else None for _, s in pairs]
        self._hook(c, [t for t, _ in pairs], keys, hwm)

    # --- torch-side capture -------------------------------------------------------------
    def _hook(self, c: _Call, outs: list[Any], keys: dict[Any, int], hwm: int) -> None:
        """Hook the torch nodes this call created; give up if the subgraph leaves the inputs.

        A call given up on cannot be checked locally: a hook on its roots marks the backward
        that runs through it as not covered, which brings back the end-to-end leaf check.
        """
        roots = {}
        for k, t in enumerate(outs):
            if t.grad_fn is not None:
                roots.setdefault(t.grad_fn, []).append((k, t.output_nr))
        if not self._hook_call(c, roots, keys, hwm):
            mark = _Uncovered(self)
            for root in roots:
                mark.handles.append(root.register_prehook(mark))
            self.hooked.add(mark)

    def _hook_call(self, c: _Call, roots: dict[Any, Any], keys: dict[Any, int], hwm: int) -> bool:
        if len(roots) != 1:
            return False
        root, slots = next(iter(roots.items()))
        seen = {id(root)}
        stack = [root]
        edges: list[tuple[Any, list[tuple[int, int]]]] = []
        tnodes: list[tuple[int, Any]] = []  # (input index, the torch node it feeds)
        top = hwm
        while stack:
            node = stack.pop()
            seq = node._sequence_nr()
            top = max(top, seq)
            mine = []
            for k, (nxt, nr) in enumerate(node.next_functions):
                if nxt is None:
                    continue
                if type(nxt).__name__ == "AccumulateGrad":
                    j = keys.get(("leaf", id(nxt.variable)))
                else:
                    j = keys.get((id(nxt), nr))
                if j is not None:
                    mine.append((k, j))
                    tnodes.append((j, nxt))
                elif type(nxt).__name__ == "AccumulateGrad" or nxt._sequence_nr() <= hwm:
                    return False  # reaches a tensor that is not an input of the call
                elif id(nxt) not in seen:
                    if len(seen) > 64:
                        return False
                    seen.add(id(nxt))
                    stack.append(nxt)
            if mine:
                edges.append((node, mine))
        self.hwm = top
        nout = c.nout
        st = self

        def prehook(grad_outputs: Any) -> None:
            p: dict[str, Any] = {"gin": {}}
            if st.partial is not None:
                if st.partial is _OFF:
                    return
                p["skip"] = _not_needed(st.partial, tnodes)
            g: list[Any] = [None] * nout
            for k, nr in slots:
                go = grad_outputs[nr]
                g[k] = None if go is None else _numpy(go).copy()
            p["gout"] = g
            if not c.passes:
                st.ready.append(c)
            c.passes.append(p)

        if edges and edges[0][0] is root and not isinstance(root, self.py_node):
            # one hook on the root sees both its incoming and its outgoing gradients (not so
            # for a custom Function: its backward may change its incoming gradient in place)
            mine0 = edges[0][1]

            def both(grad_inputs: Any, grad_outputs: Any) -> None:
                skip = None
                if st.partial is not None:
                    if st.partial is _OFF:
                        return
                    skip = _not_needed(st.partial, tnodes)
                g: list[Any] = [None] * nout
                for k, nr in slots:
                    go = grad_outputs[nr]
                    g[k] = None if go is None else _numpy(go).copy()
                gin: dict[int, Any] = {}
                for k, j in mine0:
                    gi = grad_inputs[k]
                    if gi is not None:
                        a = _numpy(gi)
                        prev = gin.get(j)
                        gin[j] = a.copy() if prev is None else prev + a
                if not c.passes:
                    st.ready.append(c)
                if skip is None:
                    c.passes.append({"gout": g, "gin": gin})
                else:
                    c.passes.append({"gout": g, "gin": gin, "skip": skip})

            c.handles.append(root.register_hook(both))
            edges = edges[1:]
        else:
            c.handles.append(root.register_prehook(prehook))
        for node, mine in edges:
            c.handles.append(node.register_hook(_accumulate(c, mine)))
        self.hooked.add(c)
        return True

    # --- after each backward ------------------------------------------------------------
    def backward(self, func: Any, args: Any, kwargs: Any) -> Any:
        """Run a backward (`Tensor.backward`, `autograd.backward` or `autograd.grad`), then
        the local checks of the calls it ran through, and the leaf check where needed."""
        torch = self.torch
        leaves: list[Any] = []
        got = None  # autograd.grad: compare its results rather than .grad
        partial = None
        try:
            self.busy = True
            if func is torch.autograd.grad:
                root = args[0] if args else kwargs.get("outputs")
                inputs = args[1] if len(args) > 1 else kwargs.get("inputs")
                gradient = args[2] if len(args) > 2 else kwargs.get("grad_outputs")
                retain = kwargs.get("retain_graph", args[3] if len(args) > 3 else None)
                create = kwargs.get("create_graph", args[4] if len(args) > 4 else False)
                batched = kwargs.get("is_grads_batched", False)
                got = []
            else:
                root = args[0] if args else kwargs.get("tensors", kwargs.get("self"))
                gradient = (
                    args[1] if len(args) > 1 else kwargs.get("gradient", kwargs.get("grad_tensors"))
                )
                retain = kwargs.get("retain_graph", args[2] if len(args) > 2 else None)
                create = kwargs.get("create_graph", args[3] if len(args) > 3 else False)
                inputs = kwargs.get("inputs")
                batched = False
            if retain is None:  # torch's default: keep the graph under create_graph
                retain = create
            ins = _requested(inputs, torch)
            if batched:
                partial = _OFF  # the hooks would see batched gradients: no local checks
            elif ins is not None:
                partial = frozenset(id(t) for t in ins if t.grad_fn is None)
            if got is not None:
                if not batched:
                    for t in ins or ():
                        e = self.mirrors.get(id(t))
                        if e is not None and e[0]() is t and e[2] == t._version and e[1]._rg:
                            leaves.append((t, e[1], None))
                        else:
                            leaves.append(None)
            else:
                mirrors = self.mirrors
                for k in list(self.leaves):
                    e = mirrors.get(k)
                    t = None if e is None else e[0]()
                    if t is None:
                        self.leaves.pop(k, None)
                        continue
                    if partial is not None and id(t) not in partial:
                        continue  # torch leaves its .grad alone
                    m, v = e[1], e[2]  # type: ignore[index]
                    if t.is_leaf and t.requires_grad and m._rg and v == t._version:
                        g = t.grad
                        leaves.append((t, m, None if g is None else g.detach().clone()))
        except Exception as e:
            self.report.notes.append(f"backward: leaf check skipped ({e})")
            leaves = []
            retain = True
        finally:
            self.busy = False
        prev = self.partial
        self.partial = partial
        try:
            out = func(*args, **kwargs)
        finally:
            self.partial = prev
        try:
            self.busy = True
            before = len(self.report.divergences)
            ran = self.flush()
            # Note [Leaf check]: the end-to-end comparison only adds something where a call on
            # the way was not checked locally, or to list the leaves a divergence reached.
            need = (
                self.leaf_check == "always"
                or self.uncovered
                or self.broken
                or len(self.report.divergences) > before
            )
            if got is not None and leaves:
                pairs = [(lf, r) for lf, r in zip(leaves, out, strict=True) if lf is not None]
                leaves = [lf for lf, _ in pairs]
                got = [r for _, r in pairs]
            if leaves and need and not self.broken:
                self._check_leaves(root, gradient, retain, leaves, got)
            elif leaves and need:
                self.report.notes.append(
                    "leaf gradients not compared end to end: some calls were not mirrored"
                )
            elif not retain:  # free what torch freed (the leaf check's backward does it too)
                for node in ran:
                    node.release()
        except Exception as e:
            self.report.notes.append(f"backward: leaf check failed ({type(e).__name__}: {e})")
        finally:
            self.busy = False
            self.broken = False
            self.uncovered = False
        return out

    def _check_leaves(
        self, root: Any, gradient: Any, retain: Any, leaves: list[Any], got: Any = None
    ) -> None:
        """Compare leaf gradients end to end: torch's increment of each leaf's .grad (or, for
        autograd.grad, `got`: its results) with a backward through the mirrored graph."""
        import shadowgrad

        from .interop import from_torch

        torch = self.torch
        roots = [root] if isinstance(root, torch.Tensor) else list(root)
        grads = (
            [gradient] if gradient is None or isinstance(gradient, torch.Tensor) else list(gradient)
        )
        if len(grads) != len(roots):
            grads = [None] * len(roots)
        sroots, sgrads = [], []
        for r, g in zip(roots, grads, strict=True):
            e = self.mirrors.get(id(r))
            if e is None or e[0]() is not r or not e[1]._rg:
                return
            sroots.append(e[1])
            sgrads.append(None if g is None else from_torch(g))
        ins = [m for _, m, _ in leaves]
        res = shadowgrad.autograd.grad(
            sroots, ins, sgrads, retain_graph=bool(retain), allow_unused=True
        )
        for k, ((t, _m, before), s) in enumerate(zip(leaves, res, strict=True)):
            tg = t.grad if got is None else got[k]
            if tg is None:
                continue
            new = tg.detach().numpy()
            sv = np.zeros(new.shape, new.dtype) if s is None else s._data
            rtol, atol = _tol(new.dtype)
            rtol = rtol if self.rtol is None else self.rtol
            atol = atol if self.atol is None else self.atol
            with np.errstate(all="ignore"):
                if before is None:
                    bad = _compare(sv, new, rtol, atol)
                else:  # Note [Accumulated .grad]
                    old = before.numpy()
                    bad = _compare(sv, _increment(new, old, sv), rtol, atol)
                    if bad is not None:  # report the errors of the increment itself
                        raw = new.astype(np.result_type(new, np.float64)) - old
                        bad = _compare(sv, raw, 0.0, 0.0) or bad
            if bad is not None:
                d = Divergence(
                    "leaf",
                    "leaf gradient differs end to end",
                    "",
                    (tuple(t.shape),),
                    *bad,
                    kind="leaf",
                )
                self.report.leaf_divergences.append(d)

    def flush(self) -> list[Any]:
        """Run the local checks of every call whose backward ran; return the nodes they ran.

        Each check calls the call's own mirrored nodes on torch's incoming gradient (see
        `_direct`). Where that is impossible, the call is re-run on fresh leaves and those
        checks share one engine run.
        """
        import shadowgrad

        ready = self.ready
        if not ready:
            return []
        self.ready = []
        ran: list[Any] = []
        rerun = []
        with shadowgrad.no_grad(), np.errstate(all="ignore"):
            for c in ready:
                for p in c.passes:
                    try:
                        res = _direct(c, p)
                    except Exception:
                        rerun.append((c, p))
                        continue
                    if res is not None:
                        try:
                            self._judge(c, p, res)
                        except Exception as e:
                            self._not_checked(c, e)
                if c.sub is not None:
                    ran.extend(c.sub[0])
                c.passes = []
            if rerun:
                self._rerun(rerun)
        return ran

    def _rerun(self, todo: list[tuple[_Call, dict[str, Any]]]) -> None:
        """The local checks of `todo`, each on a re-run of its call, in one engine run."""
        import shadowgrad

        checks = []
        for c, p in todo:
            try:
                chk = self._prepare(c, p)
            except Exception as e:
                self._not_checked(c, e)
                continue
            if chk is not None:
                checks.append(chk)
        if not checks:
            return
        try:
            res = shadowgrad.autograd.grad(
                [o for chk in checks for o in chk[2]],
                [leaf for chk in checks for leaf in chk[3].values()],
                [g for chk in checks for g in chk[4]],
                allow_unused=True,
            )
        except Exception:
            res = None
        k = 0
        for c, p, outs, leaves, gouts in checks:
            n = len(leaves)
            try:
                if res is None:  # find the culprit: one engine run per check
                    r = shadowgrad.autograd.grad(
                        outs, list(leaves.values()), gouts, allow_unused=True
                    )
                else:
                    r = res[k : k + n]
                self._judge(c, p, dict(zip(leaves, r, strict=True)))
            except Exception as e:
                self._not_checked(c, e)
            k += n

    def _not_checked(self, c: _Call, e: Exception) -> None:
        self.uncovered = True
        if len(self.report.notes) < 50:
            self.report.notes.append(f"{c.name}: backward not checked ({type(e).__name__}: {e})")

    def _prepare(self, c: _Call, p: dict[str, Any]) -> Any:
        """Re-run the call on fresh leaves; returns (call, pass, outputs, leaves, grads)."""
        import shadowgrad

        leaves = {}
        sub = {}
        for j, (arr, m, ver, rg) in enumerate(c.inputs):
            if m._version != ver and not c.inplace:
                self.uncovered = True
                return None  # the mirror was changed in place since; its values are gone
            leaf = _make(arr)
            if rg:
                leaf.requires_grad_(True)
                leaves[j] = leaf
            sub[id(m)] = leaf.clone() if (c.inplace and j == 0) else leaf
        if not leaves:
            return None
        args = _substitute_sg(c.args, sub)
        kwargs = {k: _substitute_sg(v, sub) for k, v in c.kwargs.items()}
        with shadowgrad.enable_grad():
            out = c.fn(*args, **kwargs)
        if c.name == "__setitem__":
            out = args[0]
        outs = out if isinstance(out, (tuple, list)) else (out,)
        outs = [o for o in outs if isinstance(o, Tensor)]
        pairs = [(o, g) for o, g in zip(outs, p["gout"], strict=False) if g is not None and o._rg]
        if not pairs:
            return None
        return c, p, [o for o, _ in pairs], leaves, [_make(g) for _, g in pairs]

    def _judge(self, c: _Call, p: dict[str, Any], res: dict[int, Any]) -> None:
        self.report.checked += 1
        skip = p.get("skip", ())
        for j, s in res.items():
            tg = p["gin"].get(j)
            shape = c.inputs[j][0].shape
            if tg is None and (s is None or j in skip):
                continue  # Note [Gradients not needed]
            tv = np.zeros(shape, c.inputs[j][0].dtype) if tg is None else tg
            sv = np.zeros(shape, tv.dtype) if s is None else s._data
            bad = _compare(tv, sv, self.rtol, self.atol)
            if bad is not None:
                self.report.divergences.append(
                    Divergence(
                        c.name,
                        f"torch's gradient for input {j} differs from shadowgrad's "
                        "backward of the same call",
                        c.where,
                        tuple(tuple(i[0].shape) for i in c.inputs),
                        *bad,
                        kind="backward",
                        input_index=j,
                    )
                )

    def close(self) -> None:
        quiet = contextlib.suppress(Exception)  # a hook that cannot be removed is gone already
        for c in list(self.hooked):
            for h in c.handles:
                with quiet:
                    h.remove()
            c.handles = []
        self.hooked = weakref.WeakSet()
        self.ready.clear()
        self.mirrors.clear()


class _NotDirect(Exception):
    """The call's mirrored nodes cannot be run on their own."""


def _next_seq() -> int:
    """A sequence number above every shadowgrad node made so far."""
    return Node()._sequence_nr()


def _subgraph(c: _Call) -> tuple[list[Any], dict[tuple[int, int], int]]:
    """The shadowgrad nodes the call created, newest first, and {input edge: input index}.

    Walks back from the call's outputs and stops at the edges of its inputs; the walk must not
    leave the call (reach an older node or another leaf).
    """
    cap: dict[tuple[int, int], int] = {}
    for j, e in enumerate(c.edges):
        if e is not None:
            key = (id(e[0]), e[1])
            if key in cap:
                raise _NotDirect("two inputs share a graph edge")
            cap[key] = j
    nodes: dict[int, Any] = {}
    stack = [e[0] for e in c.roots if e is not None and (id(e[0]), e[1]) not in cap]
    while stack:
        node = stack.pop()
        if id(node) in nodes:
            continue
        if node._is_acc or node._sequence_nr() < c.first or len(nodes) > 64:
            raise _NotDirect("the mirrored subgraph leaves the call")
        nodes[id(node)] = node
        for e in node._next:
            if e is not None and (id(e[0]), e[1]) not in cap and id(e[0]) not in nodes:
                stack.append(e[0])
    order = sorted(nodes.values(), key=Node._sequence_nr, reverse=True)
    return order, cap


def _direct(c: _Call, p: dict[str, Any]) -> dict[int, Any] | None:
    """Run the call's mirrored nodes on torch's incoming gradient: {input index: gradient}.

    Only the call's own nodes run (the engine would walk the whole graph above them), newest
    first, which is a topological order since a node's edges point to older nodes. Raises when
    the nodes cannot be run on their own; None when no gradient reached the call.
    """
    if _validate is None:
        raise _NotDirect("the engine has no _validate")
    if c.sub is None:
        c.sub = _subgraph(c)
    nodes, cap = c.sub
    res: dict[int, Any] = {}
    buffers: dict[int, list[Any]] = {}
    for e, g in zip(c.roots, p["gout"], strict=True):
        if e is None or g is None:
            continue
        _send(e, _make(g), cap, res, buffers)
    if not res and not buffers:
        return None
    with _grad_mode.no_grad():  # a first-order check: no graph of the formulas is needed
        for node in nodes:
            grads = buffers.pop(id(node), None)
            if grads is None or all(g is None for g in grads):
                continue
            if node._raw_ok and node._x is None:
                # the formulas on arrays, as the engine runs them (gradients come validated)
                raw = node.apply_raw([None if g is None else g._data for g in grads])
                outs = [None if r is None else _make(r) for r in raw]
            else:
                outs = _validate(node, node.apply(grads))
            for e, g in zip(node._next, outs, strict=True):
                if e is not None and g is not None:
                    _send(e, g, cap, res, buffers)
    for j, (_a, _m, _v, rg) in enumerate(c.inputs):
        if rg:
            res.setdefault(j, None)
    return res


def _send(
    e: Any, g: Any, cap: dict[tuple[int, int], int], res: dict[int, Any], buffers: Any
) -> None:
    """Hand gradient g on along edge e: to an input's result, or to a node's input buffer."""
    node, nr = e
    j = cap.get((id(node), nr))
    if j is not None:
        old = res.get(j)
        res[j] = g if old is None else old + g
        return
    buf = buffers.get(id(node))
    if buf is None:
        buf = buffers[id(node)] = [None] * node.num_outputs
    old = buf[nr]
    buf[nr] = g if old is None else old + g


def _requested(inputs: Any, torch: Any) -> list[Any] | None:
    """The tensors of a backward's `inputs` (None: all leaves); a GradientEdge into a leaf
    stands for the leaf, any other edge is left out."""
    if inputs is None:
        return None
    from torch.autograd.graph import GradientEdge

    if isinstance(inputs, (torch.Tensor, GradientEdge)):
        inputs = (inputs,)
    elif isinstance(inputs, dict):
        inputs = inputs.values()
    out = []
    for t in inputs:
        if isinstance(t, GradientEdge):
            if type(t.node).__name__ != "AccumulateGrad":
                continue
            t = t.node.variable
        if isinstance(t, torch.Tensor):
            out.append(t)
    return out


def _increment(new: np.ndarray, old: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """torch's increment of a .grad (`new - old`), in float64, for comparison with `ref`.

    Note [Accumulated .grad]: torch rounds `old + increment` to .grad's dtype, so `new - old`
    is the increment up to half an ulp of `new`, which is large against a small increment
    when .grad has built up over several backwards. That rounding (bounded by eps * |new| per
    element) is taken off each element's difference from `ref`; the rest is compared with the
    usual tolerances of .grad's dtype.
    """
    delta = new.astype(np.complex128 if new.dtype.kind == "c" else np.float64) - old
    slack = np.finfo(new.dtype).eps * np.abs(new)
    diff = delta - ref
    if diff.dtype.kind == "c":
        mag = np.abs(diff)
        return np.where(mag > slack, ref + diff * (1 - slack / np.maximum(mag, 1e-300)), ref)
    return ref + (diff - np.clip(diff, -slack, slack))


def _not_needed(partial: frozenset[int], tnodes: list[tuple[int, Any]]) -> frozenset[int]:
    """The inputs of a call whose gradient torch's engine does not compute in this backward.

    Note [Gradients not needed]: for a backward for some inputs only (autograd.grad,
    backward(inputs=)), torch's engine computes a gradient only along edges into nodes it will
    run, or into a requested input; the others stay None. Such a missing gradient is not a
    divergence, but only where the engine itself skipped the edge: `_judge` passes over an input
    in this set only when torch gave it no gradient. A gradient torch did compute is always
    compared, and a missing one on the way to a requested input is reported.
    """
    import torch

    will = torch._C._will_engine_execute_node
    needed = set()
    allj = set()
    for j, nxt in tnodes:
        allj.add(j)
        if j in needed:
            continue
        try:
            if type(nxt).__name__ == "AccumulateGrad":  # torch cannot answer for a leaf under
                need = id(nxt.variable) in partial  # autograd.grad: a leaf is run if requested
            else:
                need = will(nxt)
        except Exception:
            need = True  # when in doubt, compare
        if need:
            needed.add(j)
    return frozenset(allj - needed)


def _accumulate(c: _Call, mine: list[tuple[int, int]]) -> Any:
    def hook(grad_inputs: Any, grad_outputs: Any) -> None:
        if not c.passes:
            return
        gin = c.passes[-1]["gin"]
        for k, j in mine:
            g = grad_inputs[k]
            if g is None:
                continue
            a = _numpy(g)
            prev = gin.get(j)
            gin[j] = a.copy() if prev is None else prev + a

    return hook


def _numpy(t: Any) -> np.ndarray:
    """A torch tensor's values as an array, sharing its memory where torch can."""
    return t.numpy(force=True)  # type: ignore[no-any-return]


def _tensors(args: Any, kwargs: Any, torch: Any) -> list[Any]:
    """The distinct torch tensors among a call's arguments (one level into lists), in order."""
    out = []
    T = torch.Tensor
    for a in (*args, *kwargs.values()) if kwargs else args:
        if isinstance(a, T):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out.extend(x for x in a if isinstance(x, T))
    if len(out) < 2:
        return out
    seen: set[int] = set()
    return [t for t in out if not (id(t) in seen or seen.add(id(t)))]  # type: ignore[func-returns-value]


def _differentiable(out: Any, torch: Any) -> bool:
    """Whether a call recorded autograd history (an in-place fill of a leaf records none)."""
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return any(isinstance(o, torch.Tensor) and o.grad_fn is not None for o in outs)


def _to_shadowgrad(obj: Any, sub: dict[int, Tensor], torch: Any) -> Any:
    """A call's argument for shadowgrad: tensors by their mirrors (`sub`), dtypes, devices."""
    if isinstance(obj, torch.Tensor):
        return sub[id(obj)]
    if isinstance(obj, (list, tuple)):
        conv = [_to_shadowgrad(o, sub, torch) for o in obj]
        return type(obj)(conv) if type(obj) in (list, tuple) else tuple(conv)
    if isinstance(obj, torch.dtype):
        return _sg_dtype(obj)
    if isinstance(obj, torch.device):
        return str(obj)
    return obj


def _substitute_sg(obj: Any, sub: dict[int, Tensor]) -> Any:
    if isinstance(obj, Tensor):
        return sub.get(id(obj), obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_substitute_sg(o, sub) for o in obj)
    return obj


_MODE_CLASS: Any = None


def _make_mode(state: _State) -> Any:
    """The TorchFunctionMode that routes each torch call to `state` (one class, made once)."""
    global _MODE_CLASS
    if _MODE_CLASS is None:
        from torch.overrides import TorchFunctionMode

        kinds = _KINDS
        grad_enabled = state.torch.is_grad_enabled
        torch = state.torch
        backward_fns = frozenset(
            [torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad]
        )

        class _ShadowMode(TorchFunctionMode):
            def __init__(self, st: _State) -> None:
                super().__init__()
                self.st = st

            def __torch_function__(
                self, func: Any, types: Any, args: Any = (), kwargs: Any = None
            ) -> Any:
                # the hot path: most calls (attribute access, the optimizer under no_grad) pass
                st = self.st
                if st.busy or not grad_enabled():
                    if not st.busy and func in backward_fns:  # a backward under no_grad
                        return st.backward(func, args, kwargs or {})
                    return func(*args, **kwargs) if kwargs else func(*args)
                k = kinds.get(func) or st.kind(func)
                kind = k[0]
                if kind == "pass":
                    return func(*args, **kwargs) if kwargs else func(*args)
                kwargs = kwargs or {}
                if kind == "backward":
                    return st.backward(func, args, kwargs)
                return st.call(k[2], k[1], lambda: func(*args, **kwargs), args, kwargs)

        _MODE_CLASS = _ShadowMode
    return _MODE_CLASS(state)


def _patch_function_apply(state: _State) -> Any:
    """Route custom Functions through the mirror; returns the original apply."""
    import torch

    from ._body import run_body

    Fn = torch.autograd.Function
    orig = Fn.__dict__["apply"]
    raw = orig.__func__

    def apply(cls: Any, *args: Any, **kwargs: Any) -> Any:
        st = getattr(_ACTIVE, "state", None)
        if st is None or st.busy or not torch.is_grad_enabled() or kwargs:
            return raw(cls, *args, **kwargs)
        needs = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)

        def body(*sargs: Any) -> Any:
            outs = run_body(cls, sargs, needs)
            return outs[0] if len(outs) == 1 else outs

        return st.call(cls.__name__, body, lambda: raw(cls, *args), args, {})

    Fn.apply = classmethod(apply)  # type: ignore[method-assign,assignment]
    return orig


@contextlib.contextmanager
def shadow(
    *,
    on_divergence: str = "silent",
    rtol: float | None = None,
    atol: float | None = None,
    check_forward: bool = True,
    leaf_check: str = "auto",
) -> Iterator[ShadowReport]:
    """Mirror the torch code in the block in shadowgrad and check its gradients.

    Args:
        on_divergence: "silent" (read the report), "warn" (a UserWarning with the summary) or
            "raise" (ShadowDivergenceError at the end of the block).
        rtol, atol: tolerances of the comparisons (by default from each tensor's dtype).
        check_forward: also compare each mirrored call's forward values.
        leaf_check: "auto" compares leaf gradients end to end after a backward only where it
            can find what the local checks cannot: when the backward ran through a call that
            was not checked locally, or to list the leaves a divergence reached. "always"
            compares them after every backward. See Note [Leaf check].
    """
    if on_divergence not in ("silent", "warn", "raise"):
        raise ValueError(
            f"on_divergence must be 'silent', 'warn' or 'raise', got {on_divergence!r}"
        )
    if leaf_check not in ("auto", "always"):
        raise ValueError(f"leaf_check must be 'auto' or 'always', got {leaf_check!r}")
    import torch

    report = ShadowReport()
    state = _State(report, rtol, atol, check_forward, leaf_check)
    if getattr(_ACTIVE, "state", None) is not None:
        raise RuntimeError("shadow() blocks cannot be nested")
    orig = _patch_function_apply(state)
    _ACTIVE.state = state
    try:
        with _make_mode(state):
            yield report
        state.busy = True
        with contextlib.suppress(Exception):
            state.flush()
    finally:
        _ACTIVE.state = None
        torch.autograd.Function.apply = orig  # type: ignore[method-assign]
        state.close()
    if not report.ok:
        if on_divergence == "raise":
            raise ShadowDivergenceError(report)
        if on_divergence == "warn":
            warnings.warn(str(report), UserWarning, stacklevel=3)
