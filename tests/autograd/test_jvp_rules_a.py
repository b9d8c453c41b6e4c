"""Forward-mode rules of the pointwise, rounding, reduction and nn families (no torch).

Every op these modules register declares its JVP rule beside its backward formulas (`jvp=`), and
on the op database's samples (float64, shadowgrad only) each rule's tangent equals reverse
mode's J·v wherever the op is differentiable there: where reverse mode disagrees with a central
directional difference (a kink, a tie, a clamp bound), the sample is left out.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

import shadowgrad as sg
from compat import checks
from compat.opdb import ENTRIES
from shadowgrad.autograd import forward_ad as fwAD
from shadowgrad.ops.registry import REGISTRY

FAMILIES = (
    "shadowgrad.ops.pointwise",
    "shadowgrad.ops.rounding",
    "shadowgrad.ops.reduction",
    "shadowgrad.ops.nn_ops",
)
# Ops still on the VJP-of-VJP fallback, each with its reason; the test below fails both when an
# op outside this set lacks a rule and when one in it gains one.
_GENERIC = (
    "a loss's (or glu's) own backward op, added for torch's double-backward graphs: its tangent "
    "comes from forward_ad's generic rule (the transpose of its backward formulas), which gives "
    "torch's forward-over-reverse values where torch has them (torch has none for "
    "huber_loss_backward, and its mse_loss_backward rule fails on a ZeroTensor)"
)
NO_RULE_YET: dict[str, str] = dict.fromkeys(
    (
        "binary_cross_entropy_backward",
        "glu_backward",
        "huber_loss_backward",
        "mse_loss_backward",
        "smooth_l1_loss_backward",
    ),
    _GENERIC,
)

# Entries whose forward mode differs from reverse mode on purpose or outside these families.
SKIP = {
    "nn.functional.kl_div": "torch's xlogy rule at target 0 differs from its reverse mode",
    "nn.functional.linear_1d_nobias": "matmul's 1-d view rule (views family, JVP_XFAILS)",
}

for _m in ("ops_pointwise", "ops_reduction", "ops_nn"):
    importlib.import_module(f"compat.{_m}")
_OUR_ENTRIES = sorted(
    name
    for name, e in ENTRIES.items()
    if e.op.__module__ in ("compat.ops_pointwise", "compat.ops_reduction", "compat.ops_nn")
    and "float64" in e.dtypes
    and e.status_parity
    and e.supports_grad
    and name not in SKIP
)


def _family_ops() -> dict[str, Any]:
    return {
        n: op
        for n, op in REGISTRY.items()
        if op.forward.__module__ in FAMILIES and op.diff_idx  # no tangent without a diff input
    }


def test_every_family_op_declares_a_jvp_rule() -> None:
    ops = _family_ops()
    assert len(ops) > 150
    missing = {n for n, op in ops.items() if op.jvp is None}
    assert missing == set(NO_RULE_YET)
    # the rules of these families live beside their defops, not in forward_ad's table
    assert not set(fwAD.JVP_RULES) & set(ops)


def _directional_difference(entry: Any, sample: Any, h: float = 1e-6) -> list[np.ndarray] | None:
    """(f(x + h v) - f(x - h v)) / 2h with _jvp's tangents v, as numpy arrays."""
    (args, kwargs), leaves = checks.materialize(sg, (sample.args, sample.kwargs), "float64")
    if not leaves:
        return None
    rng = np.random.default_rng(7)
    vs = [rng.standard_normal(tuple(x.shape)) for x in leaves]

    def at(sign: float) -> list[np.ndarray]:
        swap = {
            id(x): sg.tensor(x.detach().numpy() + sign * h * v)
            for x, v in zip(leaves, vs, strict=True)
        }
        with sg.no_grad():
            out = checks._call_with(entry, sg, args, kwargs, swap)
        return [
            o.numpy().astype(np.float64) for o in checks._tensors(out) if o.dtype.is_floating_point
        ]

    try:
        plus, minus = at(1.0), at(-1.0)
    except RuntimeError:  # a step leaves the op's domain
        return None
    return [(p - m) / (2 * h) for p, m in zip(plus, minus, strict=True)]


def _close(a: Any, b: Any, tol: float) -> bool:
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name", _OUR_ENTRIES)
def test_rules_equal_reverse_mode_jacobian_vector_products(name: str) -> None:
    entry = ENTRIES[name]
    compared = 0
    for sample in entry.samples("float64"):
        try:
            reverse = checks._jvp_by_reverse_mode(sg, entry, sample, "float64")
        except Exception:
            continue  # reverse mode cannot differentiate this sample (errors are checked elsewhere)
        if not reverse:
            continue
        if any(not np.all(np.isfinite(r)) for r in reverse):
            continue
        numeric = _directional_difference(entry, sample)
        if numeric is None or len(numeric) != len(reverse):
            continue
        if not all(_close(r, n, 1e-4) for r, n in zip(reverse, numeric, strict=True)):
            continue  # not differentiable here (kink, tie, bound): torch's rules pick a side
        (args, kwargs), _ = checks.materialize(sg, (sample.args, sample.kwargs), "float64")
        with sg.no_grad():
            floating = [
                o.dtype.is_floating_point for o in checks._tensors(entry.op(sg, *args, **kwargs))
            ]
        got = checks._jvp(sg, entry, sample, "float64")
        assert got is not None
        got = [g for g, f in zip(got, floating, strict=True) if f]
        assert len(got) == len(reverse), sample.name
        for g, r in zip(got, reverse, strict=True):
            if g is None:  # no tangent (an output that does not depend on the inputs)
                assert not np.any(r), sample.name
                continue
            assert g.shape == r.shape, sample.name
            np.testing.assert_allclose(g, r, rtol=1e-7, atol=1e-9, err_msg=sample.name)
        compared += 1
    if compared == 0:
        pytest.skip("no sample where the op is differentiable and finite")
