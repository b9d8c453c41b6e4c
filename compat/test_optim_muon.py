"""torch.optim.Muon and torch.optim.swap_in_optimizer_params_and_state against torch:
trajectories over several steps, state dicts, hooks into the swapped state, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import shadowgrad  # noqa: E402
from shadowgrad.optim._muon import _bf16, _zeropower_via_newtonschulz  # noqa: E402


def _err(fn: Any) -> Any:
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


def _loss(T: Any, ws: list[Any], step: int) -> Any:
    """A loss whose gradients change from step to step."""
    total = 0
    for w in ws:
        c = np.cos(np.arange(w.numel()) + step).reshape(tuple(w.shape))
        total = total + ((w * T.tensor(c, dtype=w.dtype)) ** 2).sum() + 0.1 * (w**3).sum()
    return total


def _trajectory(T: Any, init: list[np.ndarray], steps: int, closure: bool, **kw: Any) -> Any:
    ws = [T.tensor(w).requires_grad_() for w in init]
    opt = T.optim.Muon(ws, **kw)
    out = []
    for s in range(steps):
        if closure:

            def fn(s: int = s) -> Any:
                opt.zero_grad()
                loss = _loss(T, ws, s)
                loss.backward()
                return loss

            opt.step(fn)
        else:
            opt.zero_grad()
            _loss(T, ws, s).backward()
            opt.step()
        out.append([w.detach().numpy().copy() for w in ws])
    return out, opt


MUON_CASES = {
    "defaults": {"lr": 0.02},
    "no nesterov, weight decay": {"lr": 0.05, "nesterov": False, "weight_decay": 0.01},
    "match_rms_adamw": {"lr": 0.01, "adjust_lr_fn": "match_rms_adamw", "momentum": 0.9},
    "original": {"lr": 0.01, "adjust_lr_fn": "original", "momentum": 0.0},
    "coefficients, 3 steps": {"lr": 0.01, "ns_steps": 3, "ns_coefficients": (3.0, -3.2, 1.2)},
    "eps": {"lr": 0.03, "eps": 1e-3},
}


def _assert_close_steps(ta: Any, sa: Any, lr: float) -> None:
    """Each step within a bfloat16 step of the update per step so far."""
    for step, (tw, sw) in enumerate(zip(ta, sa, strict=True)):
        for a, b in zip(tw, sw, strict=True):
            ratio = max(1.0, (max(a.shape) / min(a.shape)) ** 0.5, 0.2 * max(a.shape) ** 0.5)
            assert np.abs(a - b).max() <= (step + 1) * lr * ratio * 2**-6, step


@pytest.mark.parametrize("case", sorted(MUON_CASES))
def test_muon_trajectory_matches_torch(case: str) -> None:
    # torch's bfloat16 products sum in their own order: an element of the orthogonalized
    # update can land one bfloat16 step (2**-8 relative) away, moving that step by
    # lr * 2**-8 or so (most runs are bit-identical; later steps inherit a difference)
    rng = np.random.default_rng(3)
    init = [rng.standard_normal(s).astype(np.float32) for s in ((4, 6), (8, 3), (16, 12))]
    kw = MUON_CASES[case]
    ta, topt = _trajectory(torch, init, 6, False, **kw)
    sa, sopt = _trajectory(shadowgrad, init, 6, False, **kw)
    _assert_close_steps(ta, sa, kw["lr"])
    tsd, ssd = topt.state_dict(), sopt.state_dict()
    assert tsd["param_groups"] == ssd["param_groups"]
    for k, v in tsd["state"].items():
        assert sorted(v) == sorted(ssd["state"][k]) == ["momentum_buffer"]
        np.testing.assert_allclose(
            v["momentum_buffer"].numpy(), ssd["state"][k]["momentum_buffer"].numpy(), atol=1e-3
        )


def test_muon_large_matrices_and_closure() -> None:
    rng = np.random.default_rng(4)
    init = [rng.standard_normal(s).astype(np.float32) for s in ((48, 64), (64, 20))]
    ta, _ = _trajectory(torch, init, 5, True, lr=0.02)
    sa, _ = _trajectory(shadowgrad, init, 5, True, lr=0.02)
    _assert_close_steps(ta, sa, 0.02)


def test_muon_float64_parameters() -> None:
    rng = np.random.default_rng(5)
    init = [rng.standard_normal((5, 7)), rng.standard_normal((6, 2))]
    ta, _ = _trajectory(torch, init, 4, False, lr=0.02)
    sa, _ = _trajectory(shadowgrad, init, 4, False, lr=0.02)
    for tw, sw in zip(ta, sa, strict=True):
        for a, b in zip(tw, sw, strict=True):
            assert a.dtype == b.dtype == np.float64
            np.testing.assert_allclose(a, b, rtol=0, atol=0.02 * 2**-6 * 4)


def test_newton_schulz_in_bfloat16_matches_torch() -> None:
    from torch.optim._muon import _zeropower_via_newtonschulz as torch_ns

    rng = np.random.default_rng(6)
    differ = 0
    for shape in ((4, 6), (8, 3), (16, 16), (5, 9), (12, 7)):
        g = rng.standard_normal(shape).astype(np.float32)
        t = torch_ns(torch.tensor(g), (3.4445, -4.7750, 2.0315), 5, 1e-7)
        assert t.dtype == torch.bfloat16
        s = _zeropower_via_newtonschulz(g, (3.4445, -4.7750, 2.0315), 5, 1e-7)
        differ += int(np.sum(t.float().numpy() != s))
        np.testing.assert_allclose(s, t.float().numpy(), rtol=0, atol=2**-7)
    assert differ <= 0.05 * (24 + 24 + 256 + 45 + 84)
    g = rng.standard_normal((3, 3)).astype(np.float32) * 1e3
    np.testing.assert_array_equal(_bf16(g), torch.tensor(g).bfloat16().float().numpy())
    for bad in (
        lambda f: f(np.ones((2, 2), np.float32), (1, 2, 3), 100, 1e-7),
        lambda f: f(np.ones((2, 2, 2), np.float32), (1, 2, 3), 5, 1e-7),
        lambda f: f(np.ones((2, 2), np.float32), (1, 2), 5, 1e-7),
    ):
        te = _err(lambda bad=bad: bad(lambda g, *a: torch_ns(torch.tensor(g), *a)))
        assert te == _err(lambda bad=bad: bad(_zeropower_via_newtonschulz))


MUON_ERRORS = {
    "lr": lambda T, ps: T.optim.Muon(ps, lr=-1.0),
    "momentum": lambda T, ps: T.optim.Muon(ps, momentum=-0.5),
    "weight decay": lambda T, ps: T.optim.Muon(ps, weight_decay=-0.1),
    "adjust_lr_fn": lambda T, ps: T.optim.Muon(ps, adjust_lr_fn="other"),
    "tensor lr": lambda T, ps: T.optim.Muon(ps, lr=T.tensor([0.1, 0.2])),
    "1-d parameter": lambda T, ps: T.optim.Muon([*ps, T.zeros(3, requires_grad=True)]),
    "3-d parameter": lambda T, ps: T.optim.Muon([T.zeros(2, 2, 2, requires_grad=True)]),
    "empty": lambda T, ps: T.optim.Muon([]),
}


@pytest.mark.parametrize("case", sorted(MUON_ERRORS))
def test_muon_errors_match_torch(case: str) -> None:
    def run(T: Any) -> Any:
        return _err(lambda: MUON_ERRORS[case](T, [T.ones(2, 3, requires_grad=True)]))

    assert run(torch) == run(shadowgrad) is not None


def test_muon_complex_parameter_and_repr() -> None:
    def run(T: Any) -> Any:
        p = T.zeros(2, 2, dtype=T.complex64, requires_grad=True)
        opt = T.optim.Muon([p])
        p.grad = T.ones(2, 2, dtype=T.complex64)
        return _err(opt.step), repr(opt)

    assert run(torch) == run(shadowgrad)


# --- swap_in_optimizer_params_and_state ------------------------------------------------------


def _live(T: Any, opt_name: str) -> tuple[Any, Any, list[Any]]:
    ws = [
        T.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=T.float32, requires_grad=True),
        T.tensor(np.linspace(0, 2, 6).reshape(3, 2), dtype=T.float32, requires_grad=True),
    ]
    make = {
        "AdamW": lambda: T.optim.AdamW([{"params": [ws[0]]}, {"params": [ws[1]], "lr": 0.1}]),
        "SGD": lambda: T.optim.SGD(ws, lr=0.1, momentum=0.9),
        "Muon": lambda: T.optim.Muon(ws, lr=0.05),
    }
    opt = make[opt_name]()
    for s in range(2):
        opt.zero_grad()
        _loss(T, ws, s).backward()
        opt.step()
    return ws, opt, [w.detach().clone() for w in ws]


@pytest.mark.parametrize("opt_name", ["AdamW", "SGD", "Muon"])
def test_swap_in_steps_the_given_params_and_restores(opt_name: str) -> None:
    def run(T: Any) -> Any:
        ws, opt, before = _live(T, opt_name)
        sd = opt.state_dict()
        # a copy of the state to run on, with a changed learning rate in each group
        swap_sd = {
            "state": {k: {n: v.clone() for n, v in st.items()} for k, st in sd["state"].items()},
            "param_groups": [{**g, "lr": g["lr"] * 2} for g in sd["param_groups"]],
        }
        fakes = {f"w{i}": (w.detach().clone() + 1).requires_grad_() for i, w in enumerate(ws)}
        live_params = [g["params"] for g in opt.param_groups]
        seen = []
        with T.optim.swap_in_optimizer_params_and_state(opt, fakes, swap_sd):
            seen.append([g["lr"] for g in opt.param_groups])
            firsts = zip(opt.param_groups[0]["params"], fakes.values(), strict=False)
            seen.append(all(p is f for p, f in firsts))
            _loss(T, list(fakes.values()), 5).backward()
            opt.step()
            seen.append(len(opt.state))
        pairs = zip(ws, before, strict=True)
        unchanged = [np.array_equal(w.detach().numpy(), b.numpy()) for w, b in pairs]
        restored = all(g["params"] is p for g, p in zip(opt.param_groups, live_params, strict=True))
        return (
            seen,
            [f.detach().numpy() for f in fakes.values()],
            {k: {n: np.asarray(v) for n, v in st.items()} for k, st in swap_sd["state"].items()},
            unchanged,
            restored,
            [g["lr"] for g in opt.param_groups],
            all(any(k is w for w in ws) for k in opt.state),
        )

    t, s = run(torch), run(shadowgrad)
    assert t[0] == s[0]
    for a, b in zip(t[1], s[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    assert t[2].keys() == s[2].keys()
    for k in t[2]:
        for n in t[2][k]:
            np.testing.assert_allclose(t[2][k][n], s[2][k][n], rtol=1e-6, atol=1e-6)
    assert t[3:] == s[3:]


def _renamed_lr(group: dict[str, Any]) -> dict[str, Any]:
    return {**{k: v for k, v in group.items() if k != "lr"}, "extra": 1}


SWAP_ERRORS = {
    "uninitialized": lambda T, opt, ws, sd: (opt.state.clear(), sd)[1],
    "not a dict": lambda T, opt, ws, sd: [],
    "state not a dict": lambda T, opt, ws, sd: {**sd, "state": []},
    "state keyed by tensors": lambda T, opt, ws, sd: {**sd, "state": {ws[0]: {}}},
    "state entry not a dict": lambda T, opt, ws, sd: {**sd, "state": {0: 1}},
    "groups not a list": lambda T, opt, ws, sd: {**sd, "param_groups": ()},
    "group count": lambda T, opt, ws, sd: {**sd, "param_groups": []},
    "group not a dict": lambda T, opt, ws, sd: {**sd, "param_groups": [1]},
    "params not ids": lambda T, opt, ws, sd: {
        **sd,
        "param_groups": [{**sd["param_groups"][0], "params": ws}],
    },
    "param count": lambda T, opt, ws, sd: {
        **sd,
        "param_groups": [{**sd["param_groups"][0], "params": [0]}],
    },
    "keys": lambda T, opt, ws, sd: {**sd, "param_groups": [_renamed_lr(sd["param_groups"][0])]},
    "extra state": lambda T, opt, ws, sd: {**sd, "state": {**sd["state"], 7: {}}},
}


@pytest.mark.parametrize("case", sorted(SWAP_ERRORS))
def test_swap_in_errors_match_torch(case: str) -> None:
    def run(T: Any) -> Any:
        ws, opt, _ = _live(T, "SGD")
        sd = SWAP_ERRORS[case](T, opt, ws, opt.state_dict())
        fakes = {"a": ws[0].detach().clone(), "b": ws[1].detach().clone()}

        def enter() -> None:
            with T.optim.swap_in_optimizer_params_and_state(opt, fakes, sd):
                pass

        return _err(enter)

    assert run(torch) == run(shadowgrad) is not None


def test_swap_in_too_few_parameters_matches_torch() -> None:
    def run(T: Any) -> Any:
        ws, opt, _ = _live(T, "SGD")

        def enter() -> None:
            with T.optim.swap_in_optimizer_params_and_state(opt, {"a": ws[0]}, opt.state_dict()):
                pass

        return _err(enter)

    assert run(torch) == run(shadowgrad) is not None


def test_swap_in_restores_after_an_exception() -> None:
    ws, opt, _ = _live(shadowgrad, "SGD")
    state, groups = opt.state, [dict(g) for g in opt.param_groups]
    with (
        pytest.raises(ValueError),
        shadowgrad.optim.swap_in_optimizer_params_and_state(
            opt, {"a": ws[0] * 1, "b": ws[1] * 1}, opt.state_dict()
        ),
    ):
        raise ValueError
    assert opt.state is state and opt.param_groups == groups
