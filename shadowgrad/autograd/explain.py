"""Explained autograd errors: where a NaN gradient came from, what an in-place error is about.

torch names the failing node and stops there. These helpers add what the user needs next, as
extra lines after torch's unchanged first sentence (code that matches on it keeps working):

- `explain_nan(output)` walks the backward graph of `output` after the fact, finds the first node
  whose gradient is not finite, and diagnoses it; `nan_hint` gives the same diagnosis for the
  node that anomaly mode stopped at.
- `explain_inplace(saved, node, current_version)` describes the saved tensor behind torch's
  "modified by an inplace operation" error.

Source lines come from the forward traces that anomaly mode records (`node._trace`), or from a
cheap `(filename, lineno, function)` site (`node._site`, `VersionCounter.site`) where the engine
records one. Nothing here runs unless an error is being explained, so it costs nothing otherwise.

Note [The where trap]
`torch.where(x > 0, x.sqrt(), 0)` at x = 0: the untaken branch `x.sqrt()` still gets a gradient,
0, and sqrt's backward multiplies it by its derivative there, inf: 0 * inf = nan. Masking the
output does not help; masking the input does: `torch.where(x > 0, x, 1).sqrt()` keeps the
untaken branch finite. The same holds for `masked_fill`, indexing and `* 0`.
"""

from __future__ import annotations

import heapq
import itertools
import linecache
import os
import traceback
from typing import Any

import numpy as np

from .graph import saved_of

__all__ = ["NanReport", "explain_inplace", "explain_nan", "forward_trace", "nan_hint", "user_site"]

_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANOMALY_ONLY = (
    "(source lines are recorded in anomaly mode only: run with "
    "torch.autograd.set_detect_anomaly(True) to see them)"
)
# Ops whose untaken or masked elements receive an exact zero gradient.
_MASKING = {
    "WhereBackward0": "the untaken branch of `torch.where`",
    "MaskedFillBackward0": "`masked_fill`",
    "MaskedFillBackward1": "`masked_fill`",
    "MulBackward0": "a multiplication by 0",
    "MulBackward1": "a multiplication by 0",
}


# --- source sites ------------------------------------------------------------------------------
def _is_internal(filename: str) -> bool:
    return os.path.abspath(filename).startswith(_PKG + os.sep)


def user_site() -> tuple[str, int, str] | None:
    """The innermost caller frame outside shadowgrad, as (filename, lineno, function)."""
    import sys

    f: Any = sys._getframe(1)
    while f is not None and _is_internal(f.f_code.co_filename):
        f = f.f_back
    return None if f is None else (f.f_code.co_filename, f.f_lineno, f.f_code.co_name)


def _is_machinery(filename: str) -> bool:
    """A frame of shadowgrad's op machinery (not nn, whose frames torch's traces show too)."""
    return _is_internal(filename) and not os.path.abspath(filename).startswith(
        os.path.join(_PKG, "nn") + os.sep
    )


def forward_trace() -> list[str]:
    """The forward stack for anomaly mode's trace, without shadowgrad's innermost op frames.

    Like `traceback.format_stack()`, but it cuts exactly the op machinery (which varies from
    one call path to another), so the user's own frame is always the last one.
    """
    from .anomaly_mode import _STATE

    stack = traceback.extract_stack()
    while stack and _is_machinery(stack[-1].filename):
        stack.pop()
    trace = _Trace(traceback.format_list(stack))
    trace.parent = _STATE.parent
    return trace


class _Trace(list):
    """A forward trace, and the node whose backward recorded this one (None in the forward)."""

    __slots__ = ("parent",)


def _format_site(site: tuple[str, int, str]) -> str:
    filename, lineno, func = site
    code = linecache.getline(filename, lineno).strip()
    text = f'File "{filename}", line {lineno}, in {func}'
    return f"{text}\n        {code}" if code else text


def _site_from_trace(trace: list[str]) -> str | None:
    """The last user frame of an anomaly-mode forward trace (`traceback.format_stack()`)."""
    for entry in reversed(trace):
        first = entry.strip().splitlines()[0] if entry.strip() else ""
        if not first.startswith('File "'):
            continue
        filename = first[6 : first.index('"', 6)]
        if _is_internal(filename):
            continue
        lines = entry.strip().splitlines()
        return first if len(lines) < 2 else f"{first}\n        {lines[1].strip()}"
    return None


def node_site(node: Any) -> str | None:
    """The user source line that created a node, if one was recorded."""
    site = getattr(node, "_site", None)
    if site is not None:
        return _format_site(site)
    trace = getattr(node, "_trace", None)
    return _site_from_trace(trace) if trace else None


# --- in-place errors ---------------------------------------------------------------------------
def _forward_name(node: Any) -> str:
    from .graph import forward_op_name

    return forward_op_name(node.name())


def _saved_name(saved: Any, node: Any) -> str | None:
    raw = saved_of(node)
    if isinstance(raw, dict):
        for k, v in raw.items():
            if v is saved:
                return k
    elif isinstance(raw, tuple):
        for i, v in enumerate(raw):
            if v is saved:
                return f"saved_tensors[{i}]"
    return None


def explain_inplace(saved: Any, node: Any, current_version: int) -> str:
    """Extra lines for torch's "modified by an inplace operation" error.

    Args:
        saved: the `SavedTensor` whose version check failed.
        node: the node that saved it (the one whose backward needed it), or None.
        current_version: the tensor's version now.
    """
    from .anomaly_mode import is_anomaly_enabled

    t = saved._tensor
    data = t._data if t is not None else saved._data
    shape = "[" + ", ".join(str(s) for s in data.shape) + "]" if data is not None else "?"
    changes = current_version - saved._saved_version
    plural = "s" if changes != 1 else ""
    lines = []
    after = (
        f"saved for its backward at version {saved._saved_version}; after {changes} in-place "
        f"change{plural} it is at version {current_version}."
    )
    desc = f"The saved tensor ({data.dtype}, shape {shape})"
    if node is not None:
        name = _saved_name(saved, node)
        what = "the output" if saved._is_output else f"the input `{name}`" if name else "a value"
        lines.append(f"{desc} is {what} of {_forward_name(node)} ({node.name()}), {after}")
        site = node_site(node)
        if site:
            lines.append(f"  {_forward_name(node)} was called at {site}")
    else:
        lines.append(f"{desc} was {after}")
    mod = None
    if t is not None and t._grad_fn is not None and t._grad_fn is not node:
        # a saved input that an in-place op then recorded: that op is now its grad_fn
        gf = t._grad_fn
        mod = f"{_forward_name(gf).lower()}_ ({gf.name()})"
        site = node_site(gf)
        lines.append(f"  It was modified in place by {mod}" + (f" at {site}" if site else ""))
    vsite = getattr(saved._vc, "site", None)
    if vsite is not None:
        lines.append(f"  Its last in-place change was at {_format_site(vsite)}")
    if len(lines) == 1 and not is_anomaly_enabled():
        lines.append("  " + ANOMALY_ONLY)
    lines.append(
        "  Fix: use the out-of-place op (`y = y.relu()` rather than `y.relu_()`, `x = x + 1` "
        "rather than `x += 1`), or modify a clone (`y = y.clone()`) so the saved value stays "
        "intact."
    )
    return "\n".join(lines)


# --- NaN and inf provenance --------------------------------------------------------------------
def _index_text(mask: np.ndarray) -> str:
    idx = np.argwhere(mask)
    if idx.size == 0 and mask.ndim == 0:
        return "(the 0-d value)"
    first = ", ".join(str(int(i)) for i in idx[0])
    more = f" and {len(idx) - 1} more" if len(idx) > 1 else ""
    return f"index ({first}{',' if len(idx[0]) == 1 else ''}){more}"


def _forward_values(node: Any) -> tuple[str, np.ndarray] | None:
    """("input", x) or ("output", y): a forward value the node saved, to show at the bad index."""
    raw = saved_of(node)
    if not isinstance(raw, dict):
        return None
    from .graph import SavedTensor

    for key in ("self", "input", "result"):
        v = raw.get(key)
        if type(v) is SavedTensor and not v.freed and v._hooks is None:
            arr = v._tensor._data if v._tensor is not None else v._data
            return ("output" if key == "result" else "input"), arr
    return None


def _local_derivative(node: Any, grads: list[Any], i: int) -> np.ndarray | None:
    """Node i-th output gradient with an all-ones incoming gradient (its local derivative)."""
    from .. import _grad_mode
    from .._tensor import _make
    from ..ops.registry import OpNode

    if not isinstance(node, OpNode) or node.num_outputs != 1 or grads[0] is None:
        return None
    g = grads[0]._data
    try:
        with _grad_mode.no_grad(), np.errstate(all="ignore"):
            outs = node.apply([_make(np.ones_like(g))])
    except Exception:
        return None
    out = outs[i] if i < len(outs) else None
    return None if out is None else out._data


def nan_hint(node: Any, grads: list[Any], outs: Any, i: int, masker: str | None = None) -> str:
    """Why `node`'s i-th gradient output is not finite, and how to avoid it.

    Args:
        grads: the gradients that flowed into the node; outs: what its backward returned.
        masker: what sent the zero gradient, when known (explain_nan knows it).
    """
    out = outs[i]._data
    bad = ~np.isfinite(out)
    g = grads[0]._data if len(grads) == 1 and grads[0] is not None else None
    op = _forward_name(node)
    fn = op.lower()
    lines = []
    fv = _forward_values(node)
    x = fv[1] if fv is not None and fv[1].shape == out.shape else None
    if x is not None and not np.isfinite(x[bad]).all():
        lines.append(
            f"The forward {fv[0]} of {op} is already {x[bad][~np.isfinite(x[bad])][0]} at "
            f"{_index_text(bad & ~np.isfinite(x))}: the non-finite value comes from the forward "
            "pass, before this op."
        )
        return "\n".join(lines)
    if g is not None and g.shape == out.shape and not np.isfinite(g[bad]).all():
        val = g[bad][~np.isfinite(g[bad])][0]
        why = "; inf * 0 = nan" if np.isinf(val) and np.isnan(out[bad]).any() else ""
        lines.append(
            f"The gradient flowing into {node.name()} is already {val} at "
            f"{_index_text(bad & ~np.isfinite(g))}{why}. Run "
            "shadowgrad.autograd.explain_nan(output) to find where it stopped being finite."
        )
        return "\n".join(lines)
    local = _local_derivative(node, grads, i)
    at = _index_text(bad)
    xval = f" ({fv[0]} value {x[bad][0]})" if fv is not None and x is not None else ""
    if g is not None and g.shape == out.shape and (g[bad] == 0).all():
        src = masker or (
            "the untaken branch of `torch.where`, `masked_fill`, indexing or a multiplication by 0"
        )
        deriv = ""
        if local is not None and local.shape == out.shape:
            deriv = f", but the derivative of {fn} there is {local[bad][0]}{xval}"
        lines.append(
            f"The NaN is 0 * inf: the gradient flowing into {node.name()} is 0 at {at}, where "
            f"the value was masked out downstream ({src}){deriv}. A zero gradient does not "
            "stop a NaN: the masked-out elements are still differentiated, and 0 * inf = nan."
        )
        lines.append(
            "  Fix: mask the input before the op, so that the untaken branch stays finite: "
            f"`torch.where(mask, torch.where(mask, x, 1).{fn}(), 0)` rather than "
            f"`torch.where(mask, x.{fn}(), 0)`, or clamp it into the op's domain "
            f"(`x.clamp(min=eps).{fn}()`)."
        )
        return "\n".join(lines)
    lines.append(
        f"The derivative of {fn} is not finite at {at}{xval}: the input lies at the edge of the "
        f"op's domain. Fix: keep the input inside it (`x.clamp(min=eps)`), or mask it before "
        "the op."
    )
    return "\n".join(lines)


class NanReport:
    """What `explain_nan` found: the first backward node with a non-finite gradient, or none.

    `bool(report)` is True when one was found; `str(report)` is the explanation.
    """

    def __init__(
        self, node: Any = None, output_nr: int = 0, kind: str = "", text: str = ""
    ) -> None:
        self.node = node
        self.output_nr = output_nr
        self.kind = kind  # "nan" or "inf"
        self.text = text

    def __bool__(self) -> bool:
        return self.node is not None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.node is None:
            return "<NanReport: all gradients are finite>"
        return (
            f"<NanReport: {self.node.name()} returned {self.kind} in its {self.output_nr}th output>"
        )


def explain_nan(output: Any, gradient: Any = None) -> NanReport:
    """Run the backward of `output` and report the first node whose gradient is not finite.

    Nothing is accumulated into any `.grad` and the graph is kept (call it before `backward`,
    or after `backward(retain_graph=True)`). Hooks are not run.

    Args:
        output: the tensor to differentiate.
        gradient: its incoming gradient (default: ones, as for a scalar `backward()`).
    """
    from .. import _grad_mode
    from .._tensor import _make
    from .engine import _collect, _validate

    root = output.grad_fn
    if root is None:
        return NanReport(text="The output has no grad_fn: there is no backward graph to check.")
    g0 = gradient if gradient is not None else _make(np.ones_like(output._data))
    deps = _collect([root])
    deps[root] += 1
    buffers: dict[Any, list[Any]] = {root: [None] * root.num_outputs}
    buffers[root][output._nr] = g0
    senders: dict[tuple[int, int], list[tuple[Any, Any]]] = {}
    deps[root] -= 1
    tie = itertools.count()
    heap = [(-root._seq, next(tie), root)]
    with _grad_mode.no_grad(), np.errstate(all="ignore"):
        while heap:
            node = heapq.heappop(heap)[2]
            grads = buffers.pop(node, None) or [None] * node.num_outputs
            if node._is_acc:
                continue
            if all(g is None for g in grads):
                outs: Any = [None] * len(node._next)
            else:
                outs = _validate(node, node.apply(list(grads)))
            for i, g in enumerate(outs):
                if g is None or g._data.dtype.kind not in "fc" or np.isfinite(g._data).all():
                    continue
                return _report(node, grads, outs, i, senders)
            for e, g in zip(node._next, outs, strict=False):
                if e is None:
                    continue
                nxt, nr = e
                if g is not None:
                    buf = buffers.setdefault(nxt, [None] * nxt.num_outputs)
                    buf[nr] = g if buf[nr] is None else buf[nr] + g
                    senders.setdefault((id(nxt), nr), []).append((node, g))
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(heap, (-nxt._seq, next(tie), nxt))
    return NanReport(text="All gradients are finite.")


def _report(node: Any, grads: list[Any], outs: Any, i: int, senders: dict[Any, Any]) -> NanReport:
    bad = ~np.isfinite(outs[i]._data)
    kind = "nan" if np.isnan(outs[i]._data).any() else "inf"
    masker = None
    for src, g in senders.get((id(node), 0), ()):
        d = g._data
        if d.shape == bad.shape and (d[bad] == 0).all() and src.name() in _MASKING:
            masker = f"{_MASKING[src.name()]}, {src.name()}"
            break
    lines = [f"Function '{node.name()}' returned {kind} values in its {i}th output."]
    site = node_site(node)
    if site:
        lines.append(f"  {_forward_name(node)} was called at {site}")
    else:
        lines.append("  " + ANOMALY_ONLY)
    lines.append(nan_hint(node, grads, outs, i, masker))
    return NanReport(node, i, kind, "\n".join(lines))
