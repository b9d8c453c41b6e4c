"""The semantics corpus (compat/programs/) as pytest cases: torch vs shadowgrad, all observables.

A program shadowgrad cannot run because it lacks a public name is skipped with that name (the
op is being added; the report counts these as "missing"). A known difference is a strict xfail
whose reason says what differs.
"""

from __future__ import annotations

import pytest

from .compare import compare
from .engines import get_engine, run
from .programs import load_all
from .report import render_mismatch

pytest.importorskip("torch")

PROGRAMS = load_all()


def _params() -> list[object]:
    out = []
    for name, p in sorted(PROGRAMS.items()):
        marks = [pytest.mark.xfail(reason=p.xfail, strict=True)] if p.xfail else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", _params())
def test_program_matches_torch(name: str) -> None:
    p = PROGRAMS[name]
    a = run(get_engine("torch"), p.fn)
    assert a.error is None or a.missing_api is None, f"torch lacks {a.missing_api}: fix the program"
    b = run(get_engine("shadowgrad"), p.fn)
    diffs = compare(a, b, tol=p.tol, compare_warnings=p.warnings)
    missing = [d for d in diffs if d.what == "missing API"]
    if missing and len(missing) == len(diffs) and not p.xfail:
        pytest.skip("shadowgrad " + "; ".join(sorted({d.detail for d in missing})))
    if diffs:
        pytest.fail(render_mismatch(p.name, p.source, diffs, a, b), pytrace=False)
