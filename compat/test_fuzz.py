"""The random-program campaign (compat/fuzz.py) against torch, and its shrunk-script output."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")

from .fuzz import FuzzMismatch, GraphMachine, campaign, script

# pytest runs a small, derandomized campaign (the same programs every run, ~30 s on 2 cores);
# `python -m compat` runs COMPAT_FUZZ_EXAMPLES (default 1000) fresh programs over all cores.
EXAMPLES = int(os.environ.get("COMPAT_FUZZ_PYTEST_EXAMPLES", "40"))


def test_random_programs_agree_with_torch() -> None:
    found = campaign(EXAMPLES, derandomize=True, steps=10)
    if found is not None:
        pytest.fail(str(found), pytrace=False)


def test_mismatch_script_runs_on_both_engines() -> None:
    import torch

    import shadowgrad

    lines = [
        "v0 = T.tensor([1.0, 2.0], requires_grad=True)",
        "v1 = v0 * v0",
        "v1.register_hook(lambda g: log.append(tuple(g.shape)))",
        "try:\n    v1.sum().backward()\nexcept Exception as e:\n    log.append(repr(e))",
    ]
    src = script(lines, failing=1)
    ns: dict[str, object] = {}
    exec(compile(src.split("for T in")[0], "<script>", "exec"), ns)
    for T in (torch, shadowgrad):
        variables, log = ns["prog"](T)  # type: ignore[operator]
        assert log == [(2,)]
        assert variables["v0"].grad.tolist() == [2.0, 4.0]
    assert "# the engines disagree after the next statement\n    v1 = v0 * v0" in src


def test_machine_reports_statement_outcome_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    import shadowgrad

    def broken(self: object, *a: object, **k: object) -> object:
        raise RuntimeError("planted")

    monkeypatch.setattr(shadowgrad.Tensor, "retain_grad", broken)
    m = GraphMachine()
    m._exec("v0 = T.tensor([1.0], requires_grad=True)", "v0")
    with pytest.raises(FuzzMismatch, match="torch ok vs shadowgrad RuntimeError: planted") as e:
        m._exec("v0.retain_grad()")
    assert "def prog(T):" in str(e.value)
    assert "v0.retain_grad()" in str(e.value)
