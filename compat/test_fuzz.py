"""The random-program campaign (compat/fuzz.py) against torch, and its shrunk-script output."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")

from .fuzz import FuzzMismatch, GraphMachine, campaign, script

# pytest runs a small, derandomized campaign (the same programs every run, ~10 s on 2 cores);
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


def test_amplified_last_bit_difference_is_not_a_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    # An exp one or two ulps off torch's (numpy's float32 exp was, before Note [float32
    # transcendentals]), then x ** x, which amplifies it past float32's tolerance: shadowgrad is
    # as close to the float64 reference as torch is, so the machine accepts it (Note [Fuzz
    # float64 reference]). Without the reference the same state is a mismatch.
    import shadowgrad

    real = shadowgrad.Tensor.exp

    def ulp_off(self: object) -> object:
        return real(self) * (1 + 2**-23)  # type: ignore[operator]

    monkeypatch.setattr(shadowgrad.Tensor, "exp", ulp_off)
    m = GraphMachine()
    m._exec("v0 = T.tensor(1.0, dtype=T.float32)", "v0")
    m._exec("v1 = v0.exp()", "v1")
    m._exec("v2 = v1.exp()", "v2")
    m._exec("v3 = v2 ** v2", "v3")
    m.engines_agree()
    assert m.ref is not None
    m.ref = None
    with pytest.raises(FuzzMismatch, match="value differs"):
        m.engines_agree()


def test_wrong_value_is_still_a_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    import shadowgrad

    real = shadowgrad.Tensor.exp

    def off(self: object) -> object:
        return real(self) * 1.001  # type: ignore[operator]

    monkeypatch.setattr(shadowgrad.Tensor, "exp", off)
    m = GraphMachine()
    m._exec("v0 = T.tensor([0.5, 1.0], dtype=T.float32, requires_grad=True)", "v0")
    m._exec("v1 = v0.exp()", "v1")
    with pytest.raises(FuzzMismatch, match="value differs"):
        m.engines_agree()


def test_reference_stops_when_its_outcome_differs_from_torch() -> None:
    # float32 @ float64 raises in torch; the reference, all float64, runs it: from then on it no
    # longer shadows torch and is dropped rather than trusted
    m = GraphMachine()
    m._exec("v0 = T.tensor([[1.0]], dtype=T.float32)", "v0")
    m._exec("v1 = T.tensor([[1.0]], dtype=T.float64, requires_grad=True)", "v1")
    m._exec("v2 = v1 @ v1", "v2")
    assert m.ref is not None
    m._exec("v3 = v0 @ v1", "v3")
    assert m.ref is None


def test_vocabulary_compiles() -> None:
    # every template, as the rules fill it (on a name and on a view made on the spot), is valid
    # Python: a typo would only show as a crash deep in some campaign
    from . import fuzz

    for op in fuzz.UNARY + fuzz.VIEW_OPS + fuzz.BINARY + fuzz.CALLS:
        compile("v = " + op.format(x="v0", y="v1"), "<op>", "exec")
    for op in fuzz.INPLACE:
        compile(op.format(x="v0", y="v1"), "<op>", "exec")
        if not op.startswith("{x} "):
            for view in fuzz.VIEW_OPS[:24]:
                compile(op.format(x=view.format(x="v0"), y="v1"), "<op>", "exec")
    for mode in fuzz.MODES:
        compile(f"with {mode}:\n    pass", "<mode>", "exec")


def test_custom_functions_in_a_script_run_on_both_engines() -> None:
    import torch

    import shadowgrad

    from .fuzz import FUNCTIONS

    lines = [
        FUNCTIONS,
        "v1 = T.tensor([1.0, -2.0], requires_grad=True)",
        "v2 = Sq.apply(v1) + NonDiff.apply(v1)[0] + Ident.apply(v1)",
        "v2.sum().backward()",
        "try:\n    Dirty.apply(v1)\nexcept Exception as e:\n    log.append(repr(e))",
    ]
    src = script(lines)
    ns: dict[str, object] = {}
    exec(compile(src.split("for T in")[0], "<script>", "exec"), ns)
    outs = []
    for T in (torch, shadowgrad):
        variables, log = ns["prog"](T)  # type: ignore[operator]
        outs.append((variables["v1"].grad.tolist(), log))
    assert outs[0] == outs[1]
    assert outs[0][0] == [2 * 1.0 + 3 + 2, 2 * -2.0 + 3 + 2]


def test_campaign_seed_reproduces_its_programs() -> None:
    # a fixed seed gives the same programs (the CLI's reruns), different seeds different ones
    seen: list[list[str]] = []

    class Recording(GraphMachine):
        def teardown(self) -> None:
            seen[-1].append("\n".join(self.lines))

    from . import fuzz

    real = fuzz.GraphMachine
    try:
        fuzz.GraphMachine = Recording  # type: ignore[misc]
        for seed in (7, 7, 8):
            seen.append([])
            assert campaign(3, seed=seed, steps=3) is None
    finally:
        fuzz.GraphMachine = real  # type: ignore[misc]
    assert seen[0] == seen[1] and seen[0] != seen[2]
