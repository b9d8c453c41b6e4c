"""Every op shadowgrad exports has an op database entry (or a reasoned exclusion).

The exported ops are the public functions (each family's FUNCTIONS, `shadowgrad.<name>`) and the
Tensor methods (each family's METHODS and the in-place variants). An entry covers its `name` and
every name in its `covers` ("add", "Tensor.add", "Tensor.add_", "torch.add"). A method that is
the same callable as a covered function, and an operator dunder whose op is covered, count too.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

pytest.importorskip("torch")

import compat
from shadowgrad.ops import FAMILIES, inplace

from .opdb import ENTRIES

# name -> why it needs no op database entry. Only non-differentiable utilities belong here.
EXCLUDED: dict[str, str] = {
    **{n: "comparison: bool result, never differentiable (1.4)"
       for n in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal",
                 "less_equal", "not_equal", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
                 "__ge__", "isnan", "isinf")},
    **{n: "bitwise/logical op: integer or bool only, never differentiable"
       for n in ("__rand__", "__ror__", "__rxor__", "bitwise_and_", "bitwise_or_",
                 "bitwise_xor_", "bitwise_not_", "logical_not_")},
    **{n: "conversion to an integer or bool dtype: result never requires grad"
       for n in ("bool", "byte", "char", "int", "long", "short")},
    "equal": "returns a Python bool, not a tensor (tested in tests/ops/test_reduction.py)",
    "allclose": "returns a Python bool, not a tensor (tested in tests/ops/test_reduction.py)",
    "from_file": "a factory reading a file, no tensor input (programs ps_from_file)",
}  # fmt: skip

# operator dunder -> the op whose entry covers it
_DUNDER = {"truediv": "div", "div": "div", "floordiv": "floor_divide", "mod": "remainder",
           "pos": "positive", "neg": "neg", "abs": "abs", "matmul": "matmul", "pow": "pow",
           "add": "add", "sub": "sub", "mul": "mul", "getitem": "__getitem__",
           "setitem": "__setitem__"}  # fmt: skip


BROKEN: dict[str, str] = {}  # family modules that failed to import: name -> error


def _load_entries() -> None:
    for m in pkgutil.iter_modules(compat.__path__):
        if m.name.startswith("ops_"):
            try:
                importlib.import_module(f"compat.{m.name}")
            except Exception as e:  # report it, and still check the other families
                BROKEN[m.name] = f"{type(e).__name__}: {e}"


def _exported() -> tuple[dict[str, object], dict[str, object]]:
    functions: dict[str, object] = {}
    methods: dict[str, object] = {}
    for fam in FAMILIES:
        functions.update(fam.FUNCTIONS)
        methods.update(fam.METHODS)
    methods.update(inplace.build_methods())
    return functions, methods


def _covered() -> set[str]:
    names: set[str] = set()
    for e in ENTRIES.values():
        for n in (e.name, *e.covers):
            names.add(n.removeprefix("torch."))
    return names


def uncovered() -> dict[str, list[str]]:
    """Exported op names without an entry, by kind."""
    _load_entries()
    functions, methods = _exported()
    cov = _covered()
    covered_fns = {id(f) for n, f in functions.items() if n in cov}
    out: dict[str, list[str]] = {"functions": [], "methods": [], "in-place methods": []}
    for n, f in sorted(functions.items()):
        if n.startswith("_") or not callable(f) or isinstance(f, type):
            continue  # private helpers and namespaces (return_types)
        if n not in cov and n not in EXCLUDED and id(f) not in covered_fns:
            out["functions"].append(n)
    for n, m in sorted(methods.items()):
        if n in EXCLUDED or f"Tensor.{n}" in cov or id(m) in covered_fns:
            continue
        if n in cov and n in functions:
            continue
        d = re.fullmatch(r"__[ri]?(\w+?)__", n)
        if d and (_DUNDER.get(d.group(1), d.group(1)) in cov or n.strip("_") in cov):
            continue
        kind = "in-place methods" if n.endswith("_") and not n.endswith("__") else "methods"
        out[kind].append(f"Tensor.{n}")
    return out


def test_every_exported_op_has_an_entry() -> None:
    missing = uncovered()
    total = sum(len(v) for v in missing.values())
    if total or BROKEN:
        lines = [f"compat/{n}.py does not import: {err}" for n, err in BROKEN.items()]
        lines.append(f"{total} exported ops have no compat/ op database entry:")
        for kind, names in missing.items():
            if names:
                lines.append(f"  {kind} ({len(names)}): {', '.join(names)}")
        lines.append(
            "Add an OpEntry (its name, or `covers=` for aliases, methods and in-place variants)"
            " in the family's compat/ops_*.py, or a reasoned EXCLUDED item for a"
            " non-differentiable utility."
        )
        pytest.fail("\n".join(lines), pytrace=False)


def test_exclusions_are_not_stale() -> None:
    _load_entries()
    functions, methods = _exported()
    cov = _covered()
    stale = sorted(n for n in EXCLUDED if n in cov or f"Tensor.{n}" in cov)
    assert not stale, f"excluded names that now have entries, remove them: {stale}"
    gone = sorted(n for n in EXCLUDED if n not in functions and n not in methods)
    assert not gone, f"excluded names that shadowgrad no longer exports: {gone}"
