"""Reports: mismatch text, the summary table, and report.json / report.md / report.html.

A run produces Items (one per op check, semantics program or fuzz chunk), each with a status:
"pass", "fail" (unexpected mismatch), "xfail" (known, reasoned), "xpass" (a known mismatch that
no longer happens: the xfail must go), or "missing" (shadowgrad lacks the public name).
"""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .compare import Difference

STATUSES = ("pass", "fail", "xfail", "xpass", "missing", "skipped")
BAD = ("fail", "xpass")


@dataclass
class Item:
    kind: str  # "op", "program" (semantics), "suite" (whole programs), "fuzz"
    name: str  # op name, program name, fuzz chunk
    group: str  # op: the check ("forward", ...); program: the area; suite: its file; fuzz: "fuzz"
    status: str
    detail: str = ""  # sample/dtype for op checks, checklist ref for programs
    message: str = ""  # what differs (and the program source), or the xfail reason


def source_of(fn: Any) -> str:
    """A program's source as a mismatch report shows it: a generated program (a docstring
    example, compat/docexamples.py) carries its own in `__source__`."""
    import inspect

    src = getattr(fn, "__source__", None)
    return src if isinstance(src, str) else inspect.getsource(fn)


def render_mismatch(
    name: str,
    source: str,
    diffs: list[Difference],
    a: Any = None,
    b: Any = None,
    a_name: str = "torch",
    b_name: str = "shadowgrad",
) -> str:
    """What differs, exactly, followed by the program's source."""
    lines = [f"{name}: {len(diffs)} difference(s) between {a_name} and {b_name}"]
    lines += ["  " + d.render(a_name, b_name).replace("\n", "\n  ") for d in diffs]
    lines += ["program:", *("    " + ln for ln in source.rstrip().splitlines())]
    return "\n".join(lines)


def summarize(items: list[Item], meta: dict[str, Any]) -> dict[str, Any]:
    c = Counter(i.status for i in items)
    return {
        "checks": len(items),
        "passed": c["pass"],
        "failed": c["fail"] + c["xpass"],
        "xfailed": c["xfail"],
        "xpassed": c["xpass"],
        "missing": c["missing"],
        "ops": len({i.name for i in items if i.kind == "op"}),
        "programs": len({i.name for i in items if i.kind == "program"}),
        "suite_programs": len({i.name for i in items if i.kind == "suite"}),
        **meta,
    }


def _table(items: list[Item], kind: str) -> list[tuple[str, Counter[str]]]:
    groups: dict[str, Counter[str]] = defaultdict(Counter)
    for i in items:
        if i.kind == kind:
            groups[i.group][i.status] += 1

    def key(g: str) -> tuple[int, str]:  # "2. backward()" before "12. Broadcasting"
        head = g.split(".", 1)[0]
        return (int(head) if head.isdigit() else 0, g)

    return sorted(groups.items(), key=lambda kv: key(kv[0]))


_TITLES = (
    ("op", "Op database, by check"),
    ("program", "Semantics, by area"),
    ("suite", "Whole programs, by suite (compat/test_<suite>.py)"),
    ("fuzz", "Random programs"),
)


def summary_text(items: list[Item], summary: dict[str, Any]) -> str:
    out = []
    for kind, title in _TITLES:
        rows = _table(items, kind)
        if not rows:
            continue
        out.append(f"\n{title[0].lower()}{title[1:]}")
        w = max(len(g) for g, _ in rows) + 2
        out.append(" " * w + "".join(f"{s:>9}" for s in STATUSES))
        for g, c in rows:
            out.append(f"{g:<{w}}" + "".join(f"{c[s]:>9}" for s in STATUSES))
    out.append(
        f"\n{summary['checks']} checks: {summary['passed']} passed, {summary['failed']} failed "
        f"({summary['xpassed']} unexpectedly passed), {summary['xfailed']} known differences, "
        f"{summary['missing']} missing in shadowgrad; {summary['ops']} ops, "
        f"{summary['programs']} semantics programs, {summary['suite_programs']} whole programs"
    )
    return "\n".join(out)


def failures_text(items: list[Item], limit: int = 20) -> str:
    bad = [i for i in items if i.status in BAD]
    out = []
    for i in bad[:limit]:
        where = f"{i.group}, {i.detail}" if i.detail else i.group
        head = f"[{i.status.upper()}] {i.kind} {i.name} ({where})"
        out += [head, "  " + i.message.replace("\n", "\n  "), ""]
    if len(bad) > limit:
        out.append(f"... and {len(bad) - limit} more (see the report)")
    return "\n".join(out)


def write_reports(
    directory: str | Path,
    items: list[Item],
    summary: dict[str, Any],
    api: list[dict[str, Any]] | None = None,
) -> None:
    """report.json (summary, items, API surface), report.md and report.html."""
    from .surface import surface_markdown

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    data = {"summary": summary, "items": [asdict(i) for i in items], "surface": api or []}
    (d / "report.json").write_text(json.dumps(data, indent=1))
    (d / "report.md").write_text(_markdown(items, summary) + (surface_markdown(api) if api else ""))
    (d / "report.html").write_text(_html(items, summary))


def _markdown(items: list[Item], summary: dict[str, Any]) -> str:
    lines = ["# shadowgrad conformance report", ""]
    lines.append(
        f"Engines: {' vs '.join(summary.get('engines', []))}; torch {summary.get('torch_version')}"
        f"; {summary['checks']} checks, {summary['passed']} passed, {summary['failed']} failed, "
        f"{summary['xfailed']} known differences, {summary['missing']} missing."
    )
    for kind, title in _TITLES:
        rows = _table(items, kind)
        if not rows:
            continue
        lines += ["", f"## {title}", "", "| | " + " | ".join(STATUSES) + " |",
                  "|---" * (len(STATUSES) + 1) + "|"]  # fmt: skip
        lines += [f"| {g} | " + " | ".join(str(c[s]) for s in STATUSES) + " |" for g, c in rows]
    lines += ["", "## Op conformance matrix", "", "| op | " + " | ".join(_CHECKS) + " |",
              "|---" * (len(_CHECKS) + 1) + "|"]  # fmt: skip
    for op, row in _matrix(items):
        lines.append(f"| {op} | " + " | ".join(row.get(c, "") for c in _CHECKS) + " |")
    titles = (("fail", "Mismatches"), ("xpass", "Known differences that are fixed"),
              ("xfail", "Known differences"), ("missing", "Missing in shadowgrad"))  # fmt: skip
    for status, title in titles:
        sel = [i for i in items if i.status == status]
        if not sel:
            continue
        lines += ["", f"## {title} ({len(sel)})", ""]
        for i in sel:
            lines += [f"### {i.kind} `{i.name}` ({i.group}{', ' + i.detail if i.detail else ''})",
                      "", "```", i.message.strip(), "```", ""]  # fmt: skip
    return "\n".join(lines) + "\n"


_CHECKS = (
    "error",
    "forward",
    "status_parity",
    "grad_fn",
    "backward",
    "gradcheck",
    "gradgrad",
    "jvp",
)
_SYMBOL = {"pass": "✓", "fail": "✗", "xfail": "xfail", "xpass": "XPASS", "missing": "missing",
           "skipped": "-"}  # fmt: skip


def _matrix(items: list[Item]) -> list[tuple[str, dict[str, str]]]:
    rows: dict[str, dict[str, str]] = defaultdict(dict)
    rank = {"xpass": 4, "fail": 3, "xfail": 2, "missing": 1, "pass": 0, "skipped": 0}
    for i in items:
        if i.kind != "op":
            continue
        cur = rows[i.name].get(i.group)
        if cur is None or rank[i.status] > rank[cur]:
            rows[i.name][i.group] = i.status
    return [(op, {c: _SYMBOL[s] for c, s in r.items()}) for op, r in sorted(rows.items())]


def _html(items: list[Item], summary: dict[str, Any]) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>shadowgrad conformance</title>",
        "<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1200px}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;"
        "text-align:right}td:first-child{text-align:left}.fail,.xpass{background:#fdd}"
        ".pass{background:#dfd}.xfail{background:#ffd}.missing{background:#eee}"
        "pre{background:#f6f6f6;padding:8px;overflow:auto}summary{cursor:pointer}</style>",
        "</head><body><h1>shadowgrad conformance report</h1>",
        f"<p>{e(' vs '.join(summary.get('engines', [])))}; "
        f"torch {e(str(summary.get('torch_version')))}; "
        f"<b>{summary['checks']}</b> checks: {summary['passed']} passed, "
        f"<b>{summary['failed']}</b> failed, {summary['xfailed']} known differences, "
        f"{summary['missing']} missing; {summary['ops']} ops, {summary['programs']} semantics "
        f"programs, {summary['suite_programs']} whole programs.</p>",
    ]
    for kind, title in _TITLES:
        rows = _table(items, kind)
        if not rows:
            continue
        parts.append(f"<h2>{title}</h2><table><tr><th></th>")
        parts += [f"<th>{s}</th>" for s in STATUSES]
        parts.append("</tr>")
        for g, c in rows:
            cells = "".join(f"<td class='{s if c[s] else ''}'>{c[s]}</td>" for s in STATUSES)
            parts.append(f"<tr><td>{e(g)}</td>{cells}</tr>")
        parts.append("</table>")
    parts.append("<h2>Op conformance matrix</h2><table><tr><th>op</th>")
    parts += [f"<th>{c}</th>" for c in _CHECKS]
    parts.append("</tr>")
    inv = {v: k for k, v in _SYMBOL.items()}
    for op, row in _matrix(items):
        cells = "".join(
            f"<td class='{inv.get(row.get(c, ''), '')}'>{e(row.get(c, ''))}</td>" for c in _CHECKS
        )
        parts.append(f"<tr><td>{e(op)}</td>{cells}</tr>")
    parts.append("</table>")
    for status in ("fail", "xpass", "xfail", "missing"):
        sel = [i for i in items if i.status == status]
        if not sel:
            continue
        parts.append(f"<h2>{status} ({len(sel)})</h2>")
        for i in sel:
            parts.append(
                f"<details class='{status}'><summary>{e(i.kind)} <code>{e(i.name)}</code> "
                f"({e(i.group)}{', ' + e(i.detail) if i.detail else ''})</summary>"
                f"<pre>{e(i.message)}</pre></details>"
            )
    parts.append("</body></html>")
    return "\n".join(parts)
