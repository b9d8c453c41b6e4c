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


def test_unmirrored_calls_are_reported_and_never_break_the_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import shadowgrad

    monkeypatch.delattr(shadowgrad, "logcumsumexp")  # an op shadowgrad lacks
    x = torch.randn(4, 8, requires_grad=True)
    with shadow() as report:
        y = torch.logcumsumexp(x, 1).exp()
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


# --- gradients for some inputs only: autograd.grad, backward(inputs=) ---------------------


def test_grad_for_some_inputs_only_is_not_a_divergence() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    with shadow() as report:
        (gw,) = torch.autograd.grad(torch.sigmoid(x @ w).sum(), w)
        torch.sigmoid(x @ w).sum().backward(inputs=[w])
        h = torch.tanh(x * 2)
        (gh,) = torch.autograd.grad((h @ w).sum(), h)  # a non-leaf: nothing runs below it
        # a call torch splits into several nodes, one of which the engine skips
        a, b = x * 1.5, x.flip(0)
        torch.autograd.grad(F.cosine_similarity(a, b).sum(), a)
        torch.autograd.grad(F.cosine_similarity(a, b).sum(), [b, a])
        loss = torch.sigmoid(x @ w).sum()
        with torch.no_grad():  # a backward needs no grad mode
            torch.autograd.grad(loss, w)
    assert report.ok, str(report)
    assert report.checked >= 10
    assert x.grad is None
    assert torch.allclose(w.grad, gw)
    assert torch.allclose(gh, w.sum(1).expand(4, 3))


@pytest.mark.parametrize("how", ["grad", "backward"])
def test_grad_for_some_inputs_of_a_model(how: str) -> None:
    torch.manual_seed(0)
    model = TenLayers()
    x = torch.randn(6, 12)
    wanted = [model.layers[9].weight, model.s, model.head.bias]
    with shadow(leaf_check="always") as report:
        loss = model(x).square().mean()
        if how == "grad":
            torch.autograd.grad(loss, wanted)
        else:
            loss.backward(inputs=wanted)
    assert report.ok, str(report)
    assert report.checked >= 10


@pytest.mark.parametrize("how", ["grad", "backward"])
def test_a_divergence_on_the_way_to_a_requested_input_is_still_reported(how: str) -> None:
    torch.manual_seed(0)
    model = TenLayers(FlippedScaledTanh)
    x = torch.randn(6, 12)
    wanted = [model.layers[0].weight]  # below the custom Function: the sign error is on the way
    with shadow() as report:
        loss = model(x).square().mean()
        if how == "grad":
            torch.autograd.grad(loss, wanted)
        else:
            loss.backward(inputs=wanted)
    assert {(d.op, d.input_index) for d in report.divergences} == {("FlippedScaledTanh", 0)}


def test_leaf_check_compares_what_autograd_grad_returns() -> None:
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    w.register_hook(lambda g: g * 1.01)  # outside the block: shadowgrad does not mirror it
    with shadow(leaf_check="always") as report:
        torch.autograd.grad(torch.sigmoid(x @ w).sum(), [x, w])
        torch.autograd.grad(torch.sigmoid(x @ w).sum(), x)
    assert report.divergences == []
    assert [d.shapes for d in report.leaf_divergences] == [((3, 2),)]
    assert report.leaf_divergences[0].max_rel_err == pytest.approx(0.01 / 1.01, rel=1e-3)


class DropsGradOfX(torch.autograd.Function):
    """x * y, with a backward that returns no gradient for x: wrong wherever x's is needed."""

    @staticmethod
    def forward(ctx, x, y):  # type: ignore[no-untyped-def]
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, g):  # type: ignore[no-untyped-def]
        x, _ = ctx.saved_tensors
        return None, g * x


def test_a_missing_gradient_that_was_needed_is_still_reported() -> None:
    x = torch.randn(5, requires_grad=True)
    y = torch.randn(5, requires_grad=True)
    with shadow() as report:
        (gx,) = torch.autograd.grad(DropsGradOfX.apply(x * 2, y).sum(), [x], allow_unused=True)
    assert gx is None
    assert [(d.op, d.input_index) for d in report.divergences] == [("DropsGradOfX", 0)]
    with shadow() as report:
        torch.autograd.grad(DropsGradOfX.apply(x * 2, y).sum(), [y])
    assert report.ok, str(report)


# --- forwards that are never backpropagated ------------------------------------------------


def _live(cls: type) -> int:
    import gc

    gc.collect()
    return sum(type(o) is cls for o in gc.get_objects())


def test_forwards_never_backpropagated_do_not_pile_up() -> None:
    import weakref

    shadow_module = sys.modules["shadowgrad.bridge.shadow"]
    Call, Handle = shadow_module._Call, torch.utils.hooks.RemovableHandle
    torch.manual_seed(0)
    model = TenLayers(FlippedScaledTanh)
    x = torch.randn(6, 12)
    with shadow() as report:
        kept = model(x).sum()  # backpropagated at the end
        calls0, handles0 = _live(Call), _live(Handle)
        for k in range(30):  # evaluation with grad mode on: nothing is backpropagated
            h = model.layers[0](x)
            if k == 0:
                first = weakref.ref(shadow_module._ACTIVE.state.mirrors[id(h)][1])
            model(x).sum()
        del h
        calls, handles = _live(Call) - calls0, _live(Handle) - handles0
        assert first() is None  # the mirrored graph of a dropped forward is freed
        kept.backward()
    assert calls <= 2 and handles <= 4, (calls, handles)  # at most the last iteration's
    assert {(d.op, d.input_index) for d in report.divergences} == {("FlippedScaledTanh", 0)}
    assert report.checked >= 30  # every call of the kept forward was checked


def test_a_call_whose_output_is_dropped_is_checked_when_its_graph_is_backpropagated() -> None:
    import gc

    x = torch.randn(3, 12, requires_grad=True)
    w = torch.randn(12, 12, requires_grad=True)
    with shadow() as report:
        h = FlippedScaledTanh.apply(x @ w, torch.ones(12))
        out = (h * 2).sum()
        del h
        gc.collect()
        out.backward()
    assert [(d.op, d.input_index) for d in report.divergences] == [("FlippedScaledTanh", 0)]
    assert report.checked == 4


# --- leaf_check="always" with .grad built up over several backwards ---------------------


def test_leaf_check_with_gradient_built_up_over_backwards() -> None:
    torch.manual_seed(0)
    x = torch.randn(16, 8)
    w = torch.randn(8, 8, requires_grad=True)
    with shadow(leaf_check="always") as report:
        for scale in (1e4, 1e4, 1e4, 1.0, 1.0, 1e-2):  # loss scales of accumulated micro-batches
            ((x @ w).tanh().sum() * scale).backward()
    assert report.ok, str(report)
    assert report.checked == 6 * 4
    # a gradient hook (registered outside the block: not mirrored) that changes the last,
    # small increment by 1% is found
    factor = [1.0]
    w.register_hook(lambda g: g * factor[0])
    with shadow(leaf_check="always") as report:
        for scale in (1e4, 1e4, 1e4, 1.0):
            factor[0] = 1.01 if scale == 1.0 else 1.0
            ((x @ w).tanh().sum() * scale).backward()
    assert report.divergences == []
    assert len(report.leaf_divergences) == 1
    assert 0.009 < report.leaf_divergences[0].max_rel_err < 0.02  # 1%, plus .grad's rounding
