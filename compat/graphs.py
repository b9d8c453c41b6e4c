"""Side-by-side backward graphs of torch and shadowgrad, with the first difference marked.

Both graphs are walked through the public API (`grad_fn`, `next_functions`, `name()`), in the
same order, pairing the children of matching nodes by input position; the first node whose name
differs (or that exists on one side only) is marked `>>`. Used in mismatch reports.
"""

from __future__ import annotations

from typing import Any

MAX_NODES = 40


def _name(node: Any) -> str:
    if node is None:
        return "-"
    name = node.name()
    return name.rsplit("::", 1)[-1]


def _children(node: Any) -> list[Any]:
    if node is None:
        return []
    return [fn for fn, _ in node.next_functions]


def _walk(a: Any, b: Any) -> list[tuple[int, str, str, bool]]:
    """(depth, torch name, shadowgrad name, differs) in a shared depth-first order."""
    rows: list[tuple[int, str, str, bool]] = []
    stack = [(0, a, b)]
    seen: set[tuple[int, int]] = set()
    while stack and len(rows) < MAX_NODES:
        depth, x, y = stack.pop()
        key = (id(x), id(y))
        if key in seen and x is not None:
            continue
        seen.add(key)
        nx, ny = _name(x), _name(y)
        rows.append((depth, nx, ny, nx != ny))
        cx, cy = _children(x), _children(y)
        n = max(len(cx), len(cy))
        pairs = [(cx[i] if i < len(cx) else None, cy[i] if i < len(cy) else None) for i in range(n)]
        for px, py in reversed(pairs):
            if px is None and py is None:
                continue
            stack.append((depth + 1, px, py))
    return rows


def side_by_side(torch_outs: list[Any], shadow_outs: list[Any]) -> str:
    """Text of both graphs, one node per line, the first differing node marked with `>>`."""
    lines = ["backward graphs (torch | shadowgrad), first difference marked >>:"]
    marked = False
    for k, (t, s) in enumerate(zip(torch_outs, shadow_outs, strict=False)):
        lines.append(f"output {k}:")
        rows = _walk(getattr(t, "grad_fn", None), getattr(s, "grad_fn", None))
        width = max((2 * d + len(a) for d, a, _, _ in rows), default=10) + 2
        for depth, a, b, differs in rows:
            mark = ">> " if differs and not marked else "   "
            marked = marked or differs
            left = "  " * depth + a
            lines.append(f"{mark}{left:<{width}}| {'  ' * depth}{b}")
    if not marked:
        lines.append("(the graphs have the same node names: the difference is in values)")
    return "\n".join(lines)
