"""Run every op database entry's checks against torch, one pytest case per entry."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import compat
import shadowgrad

from .checks import JVP_XFAILS, run_entry
from .opdb import ENTRIES

torch = pytest.importorskip("torch")

for _m in pkgutil.iter_modules(compat.__path__):
    if _m.name.startswith("ops_"):
        importlib.import_module(f"compat.{_m.name}")


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_op_matches_torch(name: str) -> None:
    entry = ENTRIES[name]
    results = run_entry(entry, torch, shadowgrad)
    failed = [r for r in results if not r.ok and r.xfail is None]
    unexpected_pass = [
        r for r in results if r.ok and r.xfail is not None and r.check in entry.xfails
    ]
    lines = [f"{r.check} [{r.dtype}, {r.sample}]: {r.message}" for r in failed]
    assert not failed, f"{name}: {len(failed)} checks differ from torch:\n" + "\n".join(lines)
    if name in JVP_XFAILS and not any(r.check == "jvp" and not r.ok for r in results):
        pytest.fail(f"{name}: forward mode is listed in JVP_XFAILS but now matches torch")
    xfailed = {r.check for r in results if not r.ok and r.xfail is not None}
    for check in entry.xfails:
        if check not in xfailed and any(r.check == check for r in results):
            pytest.fail(f"{name}: check '{check}' is marked xfail but now passes: fix the entry")
    _ = unexpected_pass
