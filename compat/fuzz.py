"""A stateful random-program generator for autograd semantics, run against torch.

`GraphMachine` is a Hypothesis RuleBasedStateMachine. Each rule appends one Python statement to
a program and runs it on both engines (each in its own namespace, `T` bound to the library):
create leaves, combine tensors with random ops, retain_grad, register hooks that log their calls
(and sometimes scale the gradient), in-place ops, no_grad blocks, detach, backward with and
without retain_graph, autograd.grad with create_graph, and zeroing grads. After every step both
engines must agree on whether the statement raised (type and message), on every variable's
value, dtype, shape, requires_grad, is_leaf, grad_fn, _version and `.grad`, and on the hook log.

A failure is shrunk by Hypothesis to a minimal program and raised as FuzzMismatch, whose message
is the program as a runnable script for both engines. `campaign(n, seed)` runs n programs.
"""

from __future__ import annotations

import dataclasses
import os
import re
import warnings
from typing import Any

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from .compare import TOLERANCES, compare
from .engines import ENGINES, ErrorObs, Outcome, TensorObs, normalize, observe

__all__ = ["FuzzMismatch", "GraphMachine", "campaign", "default_examples", "script"]

ENGINE_PAIR = ("torch", "shadowgrad")

# Ops that produce a tensor from one or two tensors; an op that fails (shapes, domain) must fail
# the same way on both engines.
UNARY = ["{x}.exp()", "{x}.tanh()", "{x}.sigmoid()", "{x}.relu()", "-{x}", "{x} * {x}",
         "{x} * 2", "{x} + 1", "{x}.sum()", "{x}.mean()", "{x}.reciprocal()", "{x}.clone()",
         "{x}[0]", "{x}.t()", "{x}.reshape(-1)", "{x}.sum(0)", "{x}.log()", "{x} ** 2",
         "{x}.unsqueeze(0)", "1 - {x}", "2 / {x}", "{x}.neg()"]  # fmt: skip
BINARY = ["{x} + {y}", "{x} * {y}", "{x} - {y}", "{x} / {y}", "{x} ** {y}", "{x} @ {y}",
          "T.cat([{x}.reshape(-1), {y}.reshape(-1)])"]  # fmt: skip
# Known differences the fuzzer steps around until they are fixed (each is a strict xfail in the
# semantics corpus, so it cannot be forgotten): views made under no_grad of a tensor that
# requires grad (programs/grad_modes.py: view_under_no_grad_requires_grad).
# A statement that raises on both engines with errors matching these patterns (torch's,
# shadowgrad's: "Type: message" regexes) is taken as agreeing; each is a strict xfail program.
KNOWN_ERRORS = [
    (  # programs/grad.py: output_checked_before_inputs
        r"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn",
        r"RuntimeError: One of the differentiated Tensors does not require grad",
    ),
    (  # programs/promotion.py: broadcast_error_message
        r"RuntimeError: The size of tensor a \(\d+\) must match the size of tensor b",
        r"ValueError: operands could not be broadcast together",
    ),
]
VIEWS = {"{x}[0]", "{x}.t()", "{x}.reshape(-1)", "{x}.unsqueeze(0)"}
NO_GRAD_UNARY = [op for op in UNARY if op not in VIEWS]
INPLACE = ["{x}.mul_(2)", "{x}.add_(1)", "{x}.exp_()", "{x}.zero_()", "{x}.relu_()",
           "{x}.sigmoid_()", "{x}.neg_()"]  # fmt: skip
SHAPES = [(), (1,), (3,), (2, 3), (3, 1), (1, 3), (0,)]
VALUES = [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]


class FuzzMismatch(AssertionError):
    """The engines disagree; the message is the minimal program as a runnable script."""


def script(lines: list[str], failing: int | None = None, detail: str = "") -> str:
    """A program as a runnable script: prog(T) runs on torch and shadowgrad and prints both."""
    body = ["log = []"]
    for i, ln in enumerate(lines):
        if i == failing:
            body.append("# the engines disagree after the next statement")
        body.append(ln)
    out = ["import torch", "import shadowgrad", "", "", "def prog(T):"]
    for ln in body:
        if ln.startswith("try:") or "\n" in ln:
            out += ["    " + part for part in ln.split("\n")]
        else:
            out.append("    " + ln)
    out.append("    return {k: v for k, v in locals().items() if k.startswith('v')}, log")
    out += ["", "", "for T in (torch, shadowgrad):", "    print(T.__name__, prog(T))"]
    head = f"# {detail}\n" if detail else ""
    return head + "\n".join(out)


def _literal(shape: tuple[int, ...], flat: list[float]) -> str:

    return repr(np.asarray(flat, dtype=float).reshape(shape).tolist())


class GraphMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        a, b = ENGINES[ENGINE_PAIR[0]], ENGINES[ENGINE_PAIR[1]]
        self.engines = (a, b)
        self.ns = [{"T": a.module(), "log": []}, {"T": b.module(), "log": []}]
        # Note [Fuzz float64 reference]: the same program on torch with float32 read as float64.
        # It tells a last-bit difference that the program amplified (x ** x after two exp_) from
        # a wrong value: see engines_agree. None once it stops shadowing torch (an outcome that
        # differs from torch's, e.g. an in-place dtype error only float32 raises).
        self.ref: dict[str, Any] | None = {"T": _Float64(a.module()), "log": []}
        self.lines: list[str] = []
        self.names: list[str] = []  # variables holding tensors in both engines

    # --- running a statement ----------------------------------------------------------------
    def _exec(self, stmt: str, new: str | None = None) -> None:
        code = compile(stmt, "<fuzz>", "exec")
        errs: list[ErrorObs | None] = []
        for ns, eng in zip(self.ns, self.engines, strict=True):
            with eng.session(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(code, ns)
                    errs.append(None)
                except Exception as e:
                    errs.append(ErrorObs.of(e))
        ea, eb = errs
        if self.ref is not None:
            with self.engines[0].session(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(code, self.ref)
                    failed = False
                except Exception:
                    failed = True
            if failed != (ea is not None):
                self.ref = None
        if ea is not None:
            guarded = f"try:\n    {stmt.replace(chr(10), chr(10) + '    ')}\nexcept Exception as e:\n    log.append(repr(e))"  # noqa: E501
            self.lines.append(guarded)
        else:
            self.lines.append(stmt)
        known = (
            ea is not None
            and eb is not None
            and any(re.match(p, str(ea)) and re.match(q, str(eb)) for p, q in KNOWN_ERRORS)
        )
        if ((ea is None) != (eb is None) or (ea is not None and ea != eb)) and not known:
            self._fail(f"statement outcome: torch {ea or 'ok'} vs shadowgrad {eb or 'ok'}")
        if ea is None and new is not None and all(_is_tensor(ns.get(new)) for ns in self.ns):
            self.names.append(new)

    def _fail(self, detail: str) -> None:
        raise FuzzMismatch(
            f"{detail}\n\nminimal program (runs on both engines):\n\n"
            + script(self.lines, len(self.lines) - 1, "torch and shadowgrad disagree")
        )

    def _new(self) -> str:
        return f"v{len(self.lines)}"

    # --- rules --------------------------------------------------------------------------------
    @rule(
        shape=st.sampled_from(SHAPES),
        data=st.data(),
        requires_grad=st.booleans(),
        dtype=st.sampled_from(["float32", "float32", "float64"]),
    )
    def leaf(self, shape: tuple[int, ...], data: Any, requires_grad: bool, dtype: str) -> None:
        n = 1
        for s in shape:
            n *= s
        flat = data.draw(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n))
        v = self._new()
        self._exec(
            f"{v} = T.tensor({_literal(shape, flat)}, dtype=T.{dtype}, "
            f"requires_grad={requires_grad})",
            v,
        )

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(UNARY))
    def unary(self, data: Any, op: str) -> None:
        x = data.draw(st.sampled_from(self.names))
        v = self._new()
        self._exec(f"{v} = " + op.format(x=x), v)

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(BINARY))
    def binary(self, data: Any, op: str) -> None:
        x = data.draw(st.sampled_from(self.names))
        y = data.draw(st.sampled_from(self.names))
        v = self._new()
        self._exec(f"{v} = " + op.format(x=x, y=y), v)

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(INPLACE), no_grad=st.booleans())
    def inplace(self, data: Any, op: str, no_grad: bool) -> None:
        x = data.draw(st.sampled_from(self.names))
        stmt = op.format(x=x)
        self._exec(f"with T.no_grad():\n    {stmt}" if no_grad else stmt)

    @precondition(lambda self: self.names)
    @rule(data=st.data(), op=st.sampled_from(NO_GRAD_UNARY))
    def no_grad_block(self, data: Any, op: str) -> None:
        x = data.draw(st.sampled_from(self.names))
        v = self._new()
        self._exec(f"with T.no_grad():\n    {v} = " + op.format(x=x), v)

    @precondition(lambda self: self.names)
    @rule(data=st.data())
    def detach(self, data: Any) -> None:
        x = data.draw(st.sampled_from(self.names))
        v = self._new()
        self._exec(f"{v} = {x}.detach()", v)

    @precondition(lambda self: self.names)
    @rule(data=st.data())
    def retain_grad(self, data: Any) -> None:
        self._exec(f"{data.draw(st.sampled_from(self.names))}.retain_grad()")

    @precondition(lambda self: self.names)
    @rule(data=st.data(), scale=st.sampled_from([None, 2.0, -1.0]))
    def hook(self, data: Any, scale: float | None) -> None:
        x = data.draw(st.sampled_from(self.names))
        k = len(self.lines)
        ret = "" if scale is None else f" or g * {scale}"
        self._exec(
            f"{x}.register_hook(lambda g: log.append(({k}, tuple(g.shape), g.sum().item())){ret})"
        )

    @precondition(lambda self: self.names)
    @rule(data=st.data(), retain=st.booleans(), how=st.sampled_from(["sum", "ones", "plain"]))
    def backward(self, data: Any, retain: bool, how: str) -> None:
        x = data.draw(st.sampled_from(self.names))
        rg = ", retain_graph=True" if retain else ""
        if how == "sum":
            self._exec(f"{x}.sum().backward({rg.lstrip(', ')})")
        elif how == "ones":
            self._exec(f"{x}.backward(T.ones_like({x}){rg})")
        else:
            self._exec(f"{x}.backward({rg.lstrip(', ')})")

    @precondition(lambda self: self.names)
    @rule(data=st.data(), create_graph=st.booleans())
    def grad(self, data: Any, create_graph: bool) -> None:
        y = data.draw(st.sampled_from(self.names))
        x = data.draw(st.sampled_from(self.names))
        v = self._new()
        self._exec(
            f"{v} = T.autograd.grad({y}.sum(), [{x}], create_graph={create_graph}, "
            f"retain_graph=True, allow_unused=True)[0]",
            v,
        )

    @precondition(lambda self: self.names)
    @rule(data=st.data(), how=st.sampled_from(["none", "zero_"]))
    def zero_grad(self, data: Any, how: str) -> None:
        x = data.draw(st.sampled_from(self.names))
        if how == "none":
            self._exec(f"{x}.grad = None")
        else:
            self._exec(f"if {x}.grad is not None:\n    {x}.grad.zero_()")

    # --- the oracle -----------------------------------------------------------------------------
    @invariant()
    def engines_agree(self) -> None:
        if not self.lines:
            return
        outs = []
        for ns, eng in zip(self.ns, self.engines, strict=True):
            with eng.session() as T:
                state = {n: observe(T, ns[n]) for n in self.names}
            outs.append(Outcome(eng.name, normalize({"vars": state, "log": list(ns["log"])})))
        diffs = compare(*outs, tol=_FUZZ_TOL, compare_warnings=False)
        if diffs and self.ref is not None:
            # values that torch's float32 and shadowgrad's both approximate: forgiven where
            # shadowgrad's is as close to the float64 reference as torch's (Note [Fuzz float64
            # reference]); every other observation is still compared
            with self.engines[0].session() as T:
                ref = {n: observe(T, self.ref.get(n)) for n in self.names}
            outs[1] = Outcome(outs[1].engine, _forgive(outs[0].result, outs[1].result, ref))
            diffs = compare(*outs, tol=_FUZZ_TOL, compare_warnings=False)
        if diffs:
            self._fail("state after the last statement:\n" + "\n".join(d.render() for d in diffs))


# Random programs mix float32 and float64 freely, so a float64 value can carry a float32
# intermediate's last-bit difference (numpy's and ATen's exp differ by one ulp): values are
# compared at float32's tolerance; the fuzzer is after semantics (graphs, versions, errors).
_FUZZ_TOL = TOLERANCES["float32"]


class _Float64:
    """torch as the float64 reference sees it: `T.float32` is float64, the rest is torch."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, "float64" if name == "float32" else name)


def _forgive(torch_out: Any, sg_out: Any, ref: dict[str, Any]) -> Any:
    """shadowgrad's observations with each float value that is explained by rounding replaced
    by torch's: where, elementwise, |shadowgrad - reference| is within float32's tolerance of
    the float64 reference or at most 4x torch's own distance from it."""
    out = {"vars": dict(sg_out["vars"]), "log": sg_out["log"]}
    for name, obs in sg_out["vars"].items():
        t_obs, r_obs = torch_out["vars"].get(name), ref.get(name)
        if not isinstance(obs, dict) or not isinstance(t_obs, dict) or r_obs is None:
            continue
        new = dict(obs)
        for key in ("tensor", "grad"):
            s, t, r = obs.get(key), t_obs.get(key), r_obs.get(key)
            if all(isinstance(o, TensorObs) for o in (s, t, r)) and _explained(s, t, r):
                new[key] = dataclasses.replace(s, value=t.value)
        out["vars"][name] = new
    return out


def _explained(s: TensorObs, t: TensorObs, r: TensorObs) -> bool:
    if not (s.value.shape == t.value.shape == r.value.shape) or s.value.dtype.kind != "f":
        return False
    sv, tv, rv = (np.asarray(o.value, dtype=np.float64) for o in (s, t, r))
    with np.errstate(all="ignore"):
        close = np.abs(sv - rv) <= _FUZZ_TOL.atol + _FUZZ_TOL.rtol * np.abs(rv)
        as_good = np.abs(sv - rv) <= 4 * np.abs(tv - rv)
    finite = np.isfinite(sv) & np.isfinite(tv) & np.isfinite(rv)
    same = (sv == tv) | (np.isnan(sv) & np.isnan(tv))
    return bool(np.all(same | (finite & (close | as_good))))


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "grad_fn") and hasattr(x, "requires_grad")


def default_examples() -> int:
    return int(os.environ.get("COMPAT_FUZZ_EXAMPLES", "1000"))


def campaign(n: int, derandomize: bool = True, steps: int = 12) -> FuzzMismatch | None:
    """Run n random programs; return the first mismatch, shrunk, if any.

    derandomize: the same programs on every run (pytest); False explores new ones (the CLI).
    """
    s = settings(
        max_examples=n,
        stateful_step_count=steps,
        deadline=None,
        derandomize=derandomize,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    try:
        run_state_machine_as_test(GraphMachine, settings=s)
    except FuzzMismatch as e:
        return e
    return None
