"""torch's docstring examples (compat/docexamples.py): each public name's `>>>` examples, run
statement by statement on torch and on shadowgrad, with every value, printed form, error and
warning compared. The programs register into test_realistic_programs_3's set, so the
conformance run (`python -m compat`) reports them as a suite of their own.

A known difference is listed in `KNOWN` with its reason, and runs as a strict xfail.
"""

from __future__ import annotations

import pytest

from . import test_realistic_programs_3 as _h
from .compare import Tolerance
from .docexamples import program as _example_program
from .docexamples import selected
from .report import source_of

pytest.importorskip("torch")

_SET = _h.Subset()

# program name -> why shadowgrad differs (each one a strict xfail)
KNOWN: dict[str, str] = {
    "doc_torch_sort": "the order of ties in an unstable sort (torch's is its algorithm's)",
    "doc_torch_set_default_dtype": "a float16 default makes complex numbers complex32, a dtype "
    "shadowgrad lacks",
}
# program name -> the tolerance its values need, and why
TOLERANCE: dict[str, Tolerance] = {
    name: Tolerance(1e-4, 1e-3, "a 3-d convolution sums hundreds of float32 products")
    for name in ("doc_torch_conv3d", "doc_torch_conv_transpose3d")
}


def _register() -> None:
    for name, (owner, stmts) in selected().items():
        fn = _example_program(owner, stmts)
        fn.__name__ = name
        _SET.program(xfail=KNOWN.get(name), tol=TOLERANCE.get(name))(fn)


_register()


@pytest.mark.parametrize("name", _SET.params())
def test_docstring_example_matches_torch(name: str) -> None:
    _h.check_program(name, _h.PROGRAMS[name])


def test_every_known_difference_is_selected() -> None:
    stale = sorted((set(KNOWN) | set(TOLERANCE)) - set(_SET.names))
    assert not stale, f"KNOWN lists examples that are no longer selected: {stale}"


def test_example_source_is_shown() -> None:
    # a mismatch report shows the example's own statements, not this file's generic program
    name = _SET.names[0]
    assert source_of(_h.PROGRAMS[name].fn).startswith(">>> ")
