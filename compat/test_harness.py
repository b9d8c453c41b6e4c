"""Fault injection: plant a bug in shadowgrad and show the harness catches it.

Each test monkeypatches one realistic bug into the engine (a flipped sign in a backward formula,
a missing broadcast reduction, a wrong grad_fn name, a swallowed version-counter error) and
checks that the op database checks or the semantics programs report it, and say what differs.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("torch")

import torch

import shadowgrad
from shadowgrad.autograd import engine
from shadowgrad.autograd.graph import SavedTensor
from shadowgrad.ops.registry import REGISTRY

from . import ops_core  # noqa: F401  (registers add, mul, exp used below)
from .checks import run_entry
from .compare import compare
from .engines import ErrorObs, Outcome, get_engine, normalize_message, run
from .opdb import ENTRIES
from .programs import load_all

PROGRAMS = load_all()


def _failures(entry: str) -> list[Any]:
    return [r for r in run_entry(ENTRIES[entry], torch, shadowgrad) if not r.ok]


def _diffs(program: str) -> list[Any]:
    p = PROGRAMS[program]
    return compare(run(get_engine("torch"), p.fn), run(get_engine("shadowgrad"), p.fn))


def test_clean_engine_passes_the_checks_used_below() -> None:
    assert not _failures("mul")
    assert not _failures("exp")
    assert not _diffs("inplace.saved_output_modified")
    assert not _diffs("leaves.retain_grad_fills_nonleaf_grad")


def _flip_first(op: Any, attr: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (fn, names), *rest = getattr(op, attr)
    monkeypatch.setattr(op, attr, ((lambda *a: -fn(*a), names), *rest))


def test_flipped_sign_in_a_backward_formula_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    op = REGISTRY["mul.Tensor"]
    # both forms of the formula: on arrays (first order) and on Tensors (create_graph)
    _flip_first(op, "formulas", monkeypatch)
    _flip_first(op, "raw_formulas", monkeypatch)
    bad = _failures("mul")
    assert bad and {r.check for r in bad} == {"backward"}
    assert "grad of input 0" in bad[0].message
    diffs = _diffs("leaves.retain_grad_fills_nonleaf_grad")
    assert {d.path for d in diffs} == {"x.grad", "y.grad"}, diffs


def test_a_flipped_sign_in_only_one_form_of_a_formula_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an op with raw formulas has two forms of each formula: a sign error in either one alone
    # is caught, the array form by the first-order checks, the Tensor form by double backward
    op = REGISTRY["mul.Tensor"]
    with monkeypatch.context() as m:
        _flip_first(op, "raw_formulas", m)
        bad = _failures("mul")
    assert bad and "backward" in {r.check for r in bad}, bad
    assert "first order (array formulas)" in bad[0].message
    with monkeypatch.context() as m:
        _flip_first(op, "formulas", m)
        bad = _failures("mul")
    assert bad and "backward" in {r.check for r in bad}, bad
    assert "first order" not in bad[0].message


def test_missing_broadcast_reduction_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_sum_to", lambda g, shape, node, i: g)
    bad = _failures("add")
    assert any(r.sample == "broadcast" and r.check == "backward" for r in bad), bad
    assert all(r.sample in ("broadcast", "0-d other") for r in bad)


def test_wrong_grad_fn_name_is_caught() -> None:
    op = REGISTRY["exp"]
    classes = {op.node_cls, op.node_cls1}
    for cls in classes:
        cls.__name__ = "ExpBackward1"  # monkeypatch cannot restore a type's __name__
    try:
        bad = _failures("exp")
    finally:
        for cls in classes:
            cls.__name__ = "ExpBackward0"
    assert bad and {r.check for r in bad} == {"grad_fn"}
    assert "ExpBackward1" in bad[0].message and "ExpBackward0" in bad[0].message
    # the report shows both backward graphs side by side, the first differing node marked
    marked = [ln for ln in bad[0].message.splitlines() if ln.startswith(">> ")]
    assert len(marked) == 1, bad[0].message
    left, right = marked[0][3:].split("|")
    assert left.strip() == "ExpBackward0" and right.strip() == "ExpBackward1"


def test_swallowed_version_counter_error_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    unpack = SavedTensor.unpack

    def lenient(self: SavedTensor, node: Any) -> Any:
        self._saved_version = self._vc.v  # forget that the tensor was modified
        return unpack(self, node)

    monkeypatch.setattr(SavedTensor, "unpack", lenient)
    diffs = _diffs("inplace.saved_output_modified")
    assert [d.what for d in diffs] == ["type"], diffs
    assert "modified by an inplace operation" in diffs[0].a


def test_message_and_warning_differences_are_reported() -> None:
    a = Outcome("torch", {"e": ErrorObs("RuntimeError", "abc")}, warnings=[("UserWarning", "w")])
    b = Outcome("shadowgrad", {"e": ErrorObs("RuntimeError", "abd")})
    diffs = compare(a, b)
    assert {d.what for d in diffs} == {"exception message", "length"}
    assert "first difference at character 2" in diffs[0].detail + diffs[1].detail


def test_triggered_internally_suffix_is_stripped() -> None:
    msg = "Tensor.T is deprecated. (Triggered internally at /pytorch/aten/src/x.cpp:12.)"
    assert normalize_message(msg) == "Tensor.T is deprecated."
    assert normalize_message("<MulBackward0 object at 0x7f00ab>") == "<MulBackward0 object at 0x…>"
