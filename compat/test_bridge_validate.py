"""validate_function on custom torch Functions with known bugs (and without)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shadowgrad.bridge import validate_function
from shadowgrad.bridge.validate import CONTRACT, KINK, MASKED_NAN, WRONG_FORMULA

torch = pytest.importorskip("torch")


class ExpMulAdd(torch.autograd.Function):
    """exp(x) * w + b, with w and b broadcast over the rows of x."""

    @staticmethod
    def forward(ctx, x, w, b):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x, w)
        return torch.exp(x) * w + b

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        x, w = ctx.saved_tensors
        e = torch.exp(x)
        return g * e * w, (g * e).sum(0), g.sum(0)


class OnePercentOff(ExpMulAdd):
    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        x, w = ctx.saved_tensors
        e = torch.exp(x)
        return g * e * w, 1.01 * (g * e).sum(0), g.sum(0)


class NoBroadcastReduction(ExpMulAdd):
    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        x, w = ctx.saved_tensors
        e = torch.exp(x)
        return g * e * w, (g * e).sum(0), g  # b's gradient is not summed over the rows


class NumpyForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x)
        return torch.from_numpy(x.detach().numpy() ** 3)

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        (x,) = ctx.saved_tensors
        return 3 * g * x * x


class MaskedSqrtNaN(torch.autograd.Function):
    """sqrt(x) where x > 0 else 0; the backward multiplies NaN by a zero mask."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x)
        return torch.where(x > 0, x.clamp(min=0).sqrt(), torch.zeros_like(x))

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        (x,) = ctx.saved_tensors
        return g * (0.5 / x.sqrt()) * (x > 0)


class AbsWrongAtZero(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x)
        return x.abs()

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        (x,) = ctx.saved_tensors
        return g * torch.where(x == 0, torch.full_like(x, 3.0), x.sign())


class ReluSubgradient(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        (x,) = ctx.saved_tensors
        return g * (x >= 0)  # 1 at 0: a valid subgradient


class InplaceNotMarked(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[no-untyped-def]
        x.mul_(2)
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        return 2 * g


def _inputs(seed: int = 0):  # type: ignore[no-untyped-def]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(3, 4, generator=g, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, generator=g, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, generator=g, dtype=torch.float64, requires_grad=True)
    return x, w, b


def test_correct_backward_has_no_findings() -> None:
    report = validate_function(ExpMulAdd, *_inputs())
    assert report.ok, str(report)
    assert report.findings == []
    assert "shadowgrad" in report.references
    assert "central differences" in report.references


def test_correct_backward_in_float32_has_no_findings() -> None:
    x, w, b = (t.detach().float().requires_grad_() for t in _inputs(1))
    assert validate_function(ExpMulAdd, x, w, b).ok


def test_one_percent_error_names_the_input() -> None:
    report = validate_function(OnePercentOff, *_inputs())
    assert not report.ok
    assert [f.input_index for f in report.findings] == [1]
    f = report.findings[0]
    assert f.verdict == WRONG_FORMULA
    assert f.max_rel_err == pytest.approx(0.01, rel=1e-3)
    # w's gradient feeds every output element (w broadcasts over the rows)
    assert len(f.output_elements) == 12
    assert "input 1" in str(report)


def test_forgotten_broadcast_reduction_is_caught() -> None:
    report = validate_function(NoBroadcastReduction, *_inputs())
    assert [(f.input_index, f.verdict) for f in report.findings] == [(2, CONTRACT)]
    assert "broadcast reduction" in report.findings[0].message


def test_inputs_are_not_modified() -> None:
    x, w, b = _inputs()
    before = [t.detach().clone() for t in (x, w, b)]
    validate_function(OnePercentOff, x, w, b)
    for t, t0 in zip((x, w, b), before, strict=True):
        assert torch.equal(t.detach(), t0)
        assert t.grad is None


def test_opaque_forward_is_checked_numerically() -> None:
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    report = validate_function(NumpyForward, x)
    assert report.ok, str(report)
    assert "shadowgrad" not in report.references
    assert any("opaque" in n for n in report.notes)


def test_masked_nan_verdict() -> None:
    x = torch.tensor([1.0, 4.0, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    report = validate_function(MaskedSqrtNaN, x)
    assert [(f.input_index, f.verdict) for f in report.findings] == [(0, MASKED_NAN)]
    assert "at input elements (2,))" in report.findings[0].message


def test_value_outside_subdifferential_at_kink() -> None:
    x = torch.tensor([1.0, 0.0, -2.0], dtype=torch.float64, requires_grad=True)
    report = validate_function(AbsWrongAtZero, x)
    assert [(f.input_index, f.verdict) for f in report.findings] == [(0, KINK)]
    assert report.findings[0].output_elements == [(1,)]


def test_valid_subgradient_at_kink_is_only_a_note() -> None:
    x = torch.tensor([1.0, 0.0, -2.0], dtype=torch.float64, requires_grad=True)
    report = validate_function(ReluSubgradient, x)
    assert report.ok, str(report)


def test_inplace_forward_without_mark_dirty() -> None:
    x = torch.randn(3, dtype=torch.float64)
    report = validate_function(InplaceNotMarked, x)
    assert any("mark_dirty" in f.message for f in report.findings)


def test_command_line(tmp_path: Path) -> None:
    (tmp_path / "myfns.py").write_text(
        textwrap.dedent(
            """
            import torch

            class Cube(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x, y):
                    ctx.save_for_backward(x, y)
                    return x ** 3 * y

                @staticmethod
                def backward(ctx, g):
                    x, y = ctx.saved_tensors
                    return 3 * x * x * y * g, (x ** 3 * g).sum(0) * 1.02
            """
        )
    )
    cmd = [
        sys.executable,
        "-m",
        "shadowgrad.bridge",
        "validate",
        "myfns:Cube",
        "--shapes",
        "3,4",
        "4",
    ]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "input 1 [wrong formula]" in r.stdout
