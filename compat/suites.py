"""The whole-program suites of the pytest files, for `python -m compat`.

`compat/test_realistic_programs_2.py` and `_3.py` hold registries of whole programs `prog(T)`,
and every later program file (`_h.Subset()`) registers its programs into the third set. Under
pytest each file runs its own. Here they are gathered by file, so the conformance run checks
them too and reports them per suite: the file a program lives in names its area (autograd
test suite, nn, optim, user mistakes, tutorials, ...).

A program is checked as its test checks it: torch must run it without raising (a program torch
refuses is a broken program, reported as a harness failure), then everything shadowgrad returns,
raises or warns is compared with torch's; `xfail="why"` marks a known difference, and a known
difference that no longer happens is reported (xpass).
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import Any

from .report import Item

_SETS = ("test_realistic_programs_2", "test_realistic_programs_3")


@functools.cache
def load_suites() -> dict[str, tuple[str, Any]]:
    """Program name -> (suite, program), for every program of every suite file."""
    import compat

    from . import test_realistic_programs_3 as set3

    subsets: dict[str, list[str]] = {}
    for path in sorted(Path(compat.__path__[0]).glob("test_*.py")):
        if path.stem in _SETS or "Subset()" not in path.read_text(encoding="utf-8"):
            continue
        mod = importlib.import_module(f"compat.{path.stem}")
        s = getattr(mod, "_SET", None)
        if isinstance(s, set3.Subset):
            subsets[path.stem] = s.names
    out: dict[str, tuple[str, Any]] = {}
    set2 = importlib.import_module("compat.test_realistic_programs_2")
    for name, p in set2.PROGRAMS.items():
        out[name] = (_suite("test_realistic_programs_2"), p)
    owned = {n: mod for mod, names in subsets.items() for n in names}
    for name, p in set3.PROGRAMS.items():
        out[name] = (_suite(owned.get(name, "test_realistic_programs_3")), p)
    return out


def _suite(module: str) -> str:
    return module.removeprefix("test_").removesuffix("_programs")


def suite_item(name: str, engines: tuple[str, str]) -> Item:
    """Check one program on the two engines (torch first), as its pytest test does."""
    from .compare import compare
    from .engines import get_engine, run
    from .report import render_mismatch, source_of

    suite, p = load_suites()[name]
    ea, eb = (get_engine(e) for e in engines)
    a = run(ea, p.fn)
    if a.error is not None and ea.name.startswith("torch"):
        msg = f"{ea.name} raised {a.error}: the program is broken"
        return Item("suite", name, suite, "fail", "", msg)
    b = run(eb, p.fn)
    loose = ea.precise != eb.precise
    diffs = compare(a, b, tol=p.tol, loose_dtypes=loose, compare_warnings=p.warnings and not loose)
    if p.xfail:
        if diffs:
            return Item("suite", name, suite, "xfail", "", p.xfail)
        return Item("suite", name, suite, "xpass", "", f"marked xfail ({p.xfail}) but matches")
    if diffs:
        msg = render_mismatch(name, source_of(p.fn), diffs, a, b, ea.name, eb.name)
        return Item("suite", name, suite, "fail", "", msg)
    return Item("suite", name, suite, "pass")
