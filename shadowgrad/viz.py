"""Pictures of the backward graph: `make_dot(output)` gives its DOT text and renders it.

Like the third-party torchviz package: outputs in green, leaves in blue, saved tensors in orange,
edges drawn in the forward direction (input -> consumer). Node ids are numbered in walk order, so
the DOT text of a program is the same on every run and can be compared in tests. The walk uses
only the public node API (`name()`, `next_functions`, `variable`), so it draws torch graphs too.
The DOT text needs nothing installed; rendering needs the graphviz program (`dot`), through the
`graphviz` Python package when it is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from typing import Any

from .autograd.graph import saved_of

__all__ = ["Dot", "make_dot"]

_HEADER = (
    "digraph {\n"
    '\tgraph [size="12,12"]\n'
    "\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box "
    "style=filled]\n"
)


class Dot:
    """A graph description: `.source` is its DOT text; `render` and `pipe` draw it."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        return f"<shadowgrad.viz.Dot with {self.source.count(' -> ')} edges>"

    def pipe(self, format: str = "svg") -> bytes:
        """The rendered picture as bytes (format "svg", "png", ...)."""
        try:
            import graphviz  # type: ignore[import-not-found]
        except ImportError:
            exe = shutil.which("dot")
            if exe is None:
                raise RuntimeError(
                    "rendering a graph needs the graphviz program 'dot' (for example "
                    "`apt-get install graphviz`); the DOT text is in `.source`"
                ) from None
            done = subprocess.run(
                [exe, f"-T{format}"], input=self.source.encode(), capture_output=True, check=False
            )
            if done.returncode:
                raise RuntimeError(f"dot failed: {done.stderr.decode(errors='replace')}") from None
            return done.stdout
        try:
            return graphviz.Source(self.source).pipe(format=format)  # type: ignore[no-any-return]
        except graphviz.CalledProcessError as e:
            raise RuntimeError(f"dot failed: {e.stderr!r}") from e

    def render(self, filename: str, format: str = "svg") -> str:
        """Write the DOT text to `filename` and the picture to `filename.format`; return the
        picture's path (as `graphviz.Digraph.render` does)."""
        data = self.pipe(format)
        with open(filename, "w") as f:
            f.write(self.source)
        path = f"{filename}.{format}"
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _repr_svg_(self) -> str | None:
        """The SVG picture for Jupyter; None (text fallback) when graphviz is not installed."""
        try:
            return self.pipe("svg").decode()
        except RuntimeError:
            return None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dtype_name(dt: Any) -> str:
    return str(dt).replace("torch.", "")


def _describe(shape: Any, dtype: Any) -> str:
    return "(" + ", ".join(str(int(s)) for s in shape) + ") " + _dtype_name(dtype)


def _node_name(fn: Any) -> str:
    name = str(fn.name())
    return name.rsplit("::", 1)[-1]  # torch::autograd::AccumulateGrad -> AccumulateGrad


def _saved_values(fn: Any) -> list[tuple[str, Any]]:
    """(name, value) for what a node saved; a value is a tensor-like, a plain value or a str."""
    raw = saved_of(fn)
    if isinstance(raw, dict):  # a shadowgrad op node
        # sorted, as torch's `_saved_<name>` attributes come from dir()
        return [(k, _unpack_quietly(raw[k])) for k in sorted(raw) if not k.startswith("_")]
    if isinstance(raw, tuple):  # a shadowgrad custom Function node
        return [(f"saved_tensors[{i}]", _unpack_quietly(v)) for i, v in enumerate(raw)]
    out = []
    for attr in dir(fn):  # a torch node exposes _saved_<name> attributes
        if attr.startswith("_saved_"):
            try:
                out.append((attr[7:], getattr(fn, attr)))
            except RuntimeError:
                out.append((attr[7:], "(freed)"))
    return out


def _unpack_quietly(v: Any) -> Any:
    import numpy as np

    from .autograd.graph import SavedTensor
    from .ops.registry import _RELEASED

    if v is _RELEASED:  # a saved Python number, freed after backward
        return "(freed)"
    if type(v) is np.ndarray:  # a saved Python number, as the op's 0-d array
        return (v.shape, v.dtype)
    if type(v) is not SavedTensor:
        return v
    if v._hooks is not None:
        return "(packed by saved_tensors_hooks)"
    if v.freed:
        return "(freed)"
    data = v._tensor._data if v._tensor is not None else v._data
    return (data.shape, data.dtype)


def _saved_label(name: str, v: Any) -> str | None:
    """A saved tensor's label, or None for a plain value (shown in its node's label instead)."""
    if isinstance(v, str):
        return f"{name}\n{v}"
    if isinstance(v, tuple) and len(v) == 2 and hasattr(v[1], "kind"):  # (shape, np.dtype)
        return f"{name}\n{_describe(v[0], v[1])}"
    if hasattr(v, "shape") and hasattr(v, "dtype"):
        return f"{name}\n{_describe(v.shape, v.dtype)}"
    return None


def make_dot(output: Any, params: Mapping[str, Any] | None = None, show_saved: bool = False) -> Dot:
    """The backward graph of `output` (a tensor or a sequence of tensors) as a `Dot`.

    Args:
        params: names for tensors (`dict(model.named_parameters())`); leaves found among them
            are labelled with their name.
        show_saved: also draw the tensors each node saved for backward (orange), and list the
            node's other saved values (dims, sizes, scalars) in its label.
    """
    outputs = list(output) if isinstance(output, (list, tuple)) else [output]
    names = {id(t): k for k, t in (params or {}).items()}
    lines = [_HEADER]
    ids: dict[int, str] = {}
    keep: list[Any] = []  # nodes stay alive while the walk runs, so their ids stay unique

    def node_id(fn: Any) -> tuple[str, bool]:
        key = id(fn)
        nid = ids.get(key)
        if nid is not None:
            return nid, False
        nid = ids[key] = f"n{len(ids)}"
        keep.append(fn)
        return nid, True

    def tensor_label(t: Any) -> str:
        desc = _describe(t.shape, t.dtype)
        name = names.get(id(t))
        return desc if name is None else f"{name}\n{desc}"

    stack: list[Any] = []
    for k, t in enumerate(outputs):
        lines.append(f"\to{k} [label={_quote(tensor_label(t))} fillcolor=darkolivegreen1]\n")
        fn = t.grad_fn
        if fn is None:
            continue
        nid, _ = node_id(fn)
        lines.append(f"\t{nid} -> o{k}\n")
        stack.append(fn)
    # Each node is drawn when first met; its inputs are walked depth first, in input order.
    todo = list(reversed(stack))
    drawn: set[int] = set()
    n_saved = 0
    while todo:
        fn = todo.pop()
        if id(fn) in drawn:
            continue
        drawn.add(id(fn))
        nid, _ = node_id(fn)
        label = _node_name(fn)
        extra = []
        if show_saved:
            for name, v in _saved_values(fn):
                slabel = _saved_label(name, v)
                if slabel is None:
                    extra.append(f"{name}: {v}")
                    continue
                lines.append(f"\ts{n_saved} [label={_quote(slabel)} fillcolor=orange]\n")
                lines.append(f"\ts{n_saved} -> {nid} [dir=none]\n")
                n_saved += 1
        if extra:
            label += "\n" + "\n".join(extra)
        lines.append(f"\t{nid} [label={_quote(label)}]\n")
        var = getattr(fn, "variable", None)
        if var is not None:
            lines.append(f"\tv{nid[1:]} [label={_quote(tensor_label(var))} fillcolor=lightblue]\n")
            lines.append(f"\tv{nid[1:]} -> {nid}\n")
        nexts = []
        for nxt, nr in fn.next_functions:
            if nxt is None:
                continue
            cid, _ = node_id(nxt)
            attr = f' [label="{nr}"]' if nr else ""
            lines.append(f"\t{cid} -> {nid}{attr}\n")
            nexts.append(nxt)
        todo.extend(reversed(nexts))
    lines.append("}\n")
    return Dot("".join(lines))
