"""Shadow mode inside real torch programs."""

from __future__ import annotations

import sys
import warnings

import pytest

from shadowgrad.bridge import ShadowDivergenceError, shadow

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional


class ScaledTanh(torch.autograd.Function):
    """tanh(x) * s, s broadcast over the batch."""

    @staticmethod
    def forward(ctx, x, s):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x, s)
        return torch.tanh(x) * s

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        x, s = ctx.saved_tensors
        t = torch.tanh(x)
        return g * s * (1 - t * t), (g * t).sum(0)


class FlippedScaledTanh(ScaledTanh):
    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        x, s = ctx.saved_tensors
        t = torch.tanh(x)
        return -g * s * (1 - t * t), (g * t).sum(0)  # the planted sign error


class TenLayers(nn.Module):
    def __init__(self, act: type = ScaledTanh, width: int = 12) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(10))
        self.norm = nn.LayerNorm(width)
        self.s = nn.Parameter(torch.linspace(0.5, 1.5, width))
        self.act = act
        self.head = nn.Linear(width, 4)

    def forward(self, x):  # type: ignore[no-untyped-def]
        for k, layer in enumerate(self.layers):
            x = layer(x)
            if k == 4:
                x = self.act.apply(x, self.s)
            elif k == 7:
                x = self.norm(x)
            else:
                x = F.gelu(x) if k % 2 else torch.relu(x) + 0.1 * x.sigmoid()
        return self.head(x)


def _train(model, steps: int = 2, opt_cls=torch.optim.SGD):  # type: ignore[no-untyped-def]
    g = torch.Generator().manual_seed(0)
    x = torch.randn(6, 12, generator=g)
    y = torch.randint(0, 4, (6,), generator=g)
    opt = opt_cls(model.parameters(), lr=0.05)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def test_correct_training_step_has_no_divergences() -> None:
    torch.manual_seed(0)
    with shadow() as report:
        _train(TenLayers(), steps=2, opt_cls=torch.optim.Adam)
    assert report.ok, str(report)
    assert report.divergences == [] and report.leaf_divergences == []
    assert report.checked >= 2 * 30  # every differentiable call of both steps
    assert not report.not_mirrored


def test_sign_error_is_localized_to_the_custom_function() -> None:
    torch.manual_seed(0)
    with shadow() as report:
        _train(TenLayers(FlippedScaledTanh), steps=2)
    assert not report.ok
    ops = {(d.op, d.input_index, d.kind) for d in report.divergences}
    assert ops == {("FlippedScaledTanh", 0, "backward")}
    d = report.divergences[0]
    assert d.where.endswith(f"{__file__}:{_line_of('self.act.apply')}".split("/")[-1])
    assert d.shapes == ((6, 12), (12,))
    assert d.max_rel_err == pytest.approx(2.0, rel=1e-3)
    # the layers below it get wrong gradients end to end, but they are not blamed
    assert report.leaf_divergences
    assert "FlippedScaledTanh" in str(report)


def _line_of(text: str) -> int:
    with open(__file__) as f:
        for n, line in enumerate(f, 1):
            if text in line and "_line_of" not in line:
                return n
    raise AssertionError(text)


def test_shadow_does_not_change_the_program() -> None:
    torch.manual_seed(0)
    plain = _train(TenLayers(FlippedScaledTanh), steps=3)
    torch.manual_seed(0)
    with shadow():
        shadowed = _train(TenLayers(FlippedScaledTanh), steps=3)
    assert plain == shadowed


def test_unmirrored_calls_are_reported_and_never_break_the_program() -> None:
    x = torch.randn(4, 8, requires_grad=True)
    with shadow() as report:
        y = torch.logcumsumexp(x, 1).exp()  # shadowgrad has no logcumsumexp
        z = F.dropout(torch.tanh(x), 0.5, training=True)
        (y.sum() + z.sum()).backward()
    assert report.not_mirrored["logcumsumexp"] == 1
    assert report.not_mirrored["dropout"] == 1
    assert report.ok, str(report)
    assert x.grad is not None


def test_opaque_custom_function_is_not_mirrored() -> None:
    class NumpyCube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):  # type: ignore[no-untyped-def]
            ctx.save_for_backward(x)
            return torch.from_numpy(x.detach().numpy() ** 3)

        @staticmethod
        def backward(ctx, g):  # type: ignore[no-untyped-def]
            (x,) = ctx.saved_tensors
            return 3 * x * x * g

    x = torch.randn(5, requires_grad=True)
    with shadow() as report:
        NumpyCube.apply(x * 2).sum().backward()
    assert report.not_mirrored["NumpyCube"] == 1
    assert report.ok


def test_options_raise_and_warn() -> None:
    def run() -> None:
        x = torch.randn(3, 12, requires_grad=True)
        FlippedScaledTanh.apply(x, torch.ones(12)).sum().backward()

    with pytest.raises(ShadowDivergenceError) as info, shadow(on_divergence="raise"):
        run()
    assert info.value.report.divergences[0].op == "FlippedScaledTanh"
    with pytest.warns(UserWarning, match="FlippedScaledTanh"), shadow(on_divergence="warn"):
        run()
    with pytest.raises(ValueError, match="on_divergence"), shadow(on_divergence="loud"):
        pass


def test_everything_is_removed_afterwards() -> None:
    apply = torch.autograd.Function.__dict__["apply"]
    x = torch.randn(3, 12, requires_grad=True)
    with shadow() as report:
        y = FlippedScaledTanh.apply(x, torch.ones(12)).sum()
    assert torch.autograd.Function.__dict__["apply"] is apply
    assert torch.overrides._get_current_function_mode_stack() == []
    y.backward()  # outside the block: no hook of shadow mode runs any more
    assert report.divergences == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FlippedScaledTanh.apply(x, torch.ones(12)).sum().backward()


def test_no_grad_code_and_inplace_ops() -> None:
    x = torch.randn(4, 4, requires_grad=True)
    with shadow() as report:
        with torch.no_grad():
            x.mul_(0.5)
        y = x * 2
        y.add_(1)
        y[0] = 0.0
        y.relu_()
        (y * y).sum().backward()
    assert report.ok, str(report)


class SquareScalingGradInPlace(torch.autograd.Function):
    """x * x, with a backward that scales its incoming gradient in place (correct result)."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        (x,) = ctx.saved_tensors
        g.mul_(2)
        return g * x


def test_incoming_gradient_is_taken_before_a_custom_backward_changes_it() -> None:
    x = torch.randn(4, 3, requires_grad=True)
    with shadow() as report:
        (SquareScalingGradInPlace.apply(x * 1.5) * 3).sum().backward()
    assert report.ok, str(report)
    assert report.checked == 4  # mul, the custom Function, mul, sum


def test_local_checks_run_the_mirrored_nodes_not_a_rerun(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    shadow_module = sys.modules["shadowgrad.bridge.shadow"]

    def no_rerun(self, c, p):  # type: ignore[no-untyped-def]
        raise AssertionError(f"{c.name} was re-run")

    monkeypatch.setattr(shadow_module._State, "_prepare", no_rerun)
    torch.manual_seed(0)
    with shadow() as report:
        _train(TenLayers(), steps=2, opt_cls=torch.optim.Adam)
    assert report.ok, str(report)
    assert report.checked >= 2 * 30
    assert not report.notes


def _spy_leaf_checks(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    shadow_module = sys.modules["shadowgrad.bridge.shadow"]
    calls: list[int] = []
    orig = shadow_module._State._check_leaves

    def spy(self, *args):  # type: ignore[no-untyped-def]
        calls.append(1)
        return orig(self, *args)

    monkeypatch.setattr(shadow_module._State, "_check_leaves", spy)
    return calls


def test_leaf_check_only_where_local_checks_do_not_cover(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls = _spy_leaf_checks(monkeypatch)
    torch.manual_seed(0)
    with shadow() as report:
        _train(TenLayers(), steps=2)
    assert report.ok and calls == []  # every call checked locally: nothing to add
    with shadow(leaf_check="always") as report:
        _train(TenLayers(), steps=2)
    assert report.ok and len(calls) == 2
    with pytest.raises(ValueError, match="leaf_check"), shadow(leaf_check="never"):
        pass


def test_leaf_check_runs_when_a_call_was_not_checked_locally(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls = _spy_leaf_checks(monkeypatch)
    shadow_module = sys.modules["shadowgrad.bridge.shadow"]
    # a call whose torch nodes cannot be hooked: the backward through it is not covered
    monkeypatch.setattr(shadow_module._State, "_hook_call", lambda *a: False)
    x = torch.randn(5, 4, requires_grad=True)
    w = torch.randn(4, 3, requires_grad=True)
    with shadow() as report:
        (torch.tanh(x @ w) ** 2).sum().backward()
    assert report.ok, str(report)
    assert report.checked == 0 and len(calls) == 1


def test_leaf_check_lists_the_leaves_a_divergence_reached(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls = _spy_leaf_checks(monkeypatch)
    x = torch.randn(3, 12, requires_grad=True)
    w = torch.randn(12, 12, requires_grad=True)
    with shadow() as report:
        FlippedScaledTanh.apply(x @ w, torch.ones(12)).sum().backward()
    assert [d.op for d in report.divergences] == ["FlippedScaledTanh"]
    assert len(calls) == 1
    assert len(report.leaf_divergences) == 2  # x and w, downstream of the sign error
