"""Optimizers and LR schedulers against torch: trajectories, state dicts, lr sequences, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad
import shadowgrad.optim

rng = np.random.default_rng(0)
W0 = rng.standard_normal((5, 7)).astype(np.float32)
B0 = rng.standard_normal(3).astype(np.float32)
GRADS = [
    (rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal(3).astype(np.float32))
    for _ in range(6)
]

OPT_CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.01, "momentum": 0.9}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "dampening": 0.3}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.01, "weight_decay": 0.5, "maximize": True}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "eps": 1e-6}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True}),
    ("Adam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.5, "maximize": True}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "centered": True}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.5, "weight_decay": 0.1, "maximize": True}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}),
    ("Adagrad", {"lr": 0.1}),
    (
        "Adagrad",
        {
            "lr": 0.1,
            "lr_decay": 0.01,
            "weight_decay": 0.1,
            "initial_accumulator_value": 0.1,
            "eps": 1e-6,
        },
    ),
    ("Adagrad", {"lr": 0.1, "maximize": True}),
]


def _trajectory(T, name, kwargs, steps=6):
    w = T.nn.Parameter(T.tensor(W0.copy()))
    b = T.nn.Parameter(T.tensor(B0.copy()))
    opt = getattr(T.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.05}], **kwargs)
    out = []
    for i in range(steps):
        opt.zero_grad()
        if i == 3:  # a step where one parameter has no grad is skipped for it
            w.grad = T.tensor(GRADS[i][0])
        else:
            w.grad = T.tensor(GRADS[i][0])
            b.grad = T.tensor(GRADS[i][1])
        opt.step()
        out.append((w.detach().numpy().copy(), b.detach().numpy().copy()))
    return out, opt


def _state_summary(sd):
    state = {
        k: {
            sk: (tuple(v.shape), str(v.dtype), v.detach().numpy().tolist())
            if hasattr(v, "shape")
            else v
            for sk, v in s.items()
        }
        for k, s in sd["state"].items()
    }
    return state, sd["param_groups"]


@pytest.mark.parametrize(("name", "kwargs"), OPT_CASES, ids=[f"{n}-{k}" for n, k in OPT_CASES])
def test_optimizer_trajectory_and_state_dict_match_torch(name, kwargs):
    t_traj, t_opt = _trajectory(torch, name, kwargs)
    s_traj, s_opt = _trajectory(shadowgrad, name, kwargs)
    for (tw, tb), (sw, sb) in zip(t_traj, s_traj, strict=True):
        np.testing.assert_allclose(sw, tw, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(sb, tb, rtol=1e-6, atol=1e-7)
    t_state, t_groups = _state_summary(t_opt.state_dict())
    s_state, s_groups = _state_summary(s_opt.state_dict())
    assert s_groups == t_groups
    assert list(s_state) == list(t_state)
    for k in t_state:
        assert list(s_state[k]) == list(t_state[k])
        for sk in t_state[k]:
            ts, ss = t_state[k][sk], s_state[k][sk]
            assert ss[:2] == ts[:2], sk
            np.testing.assert_allclose(ss[2], ts[2], rtol=1e-6, atol=1e-7)
    assert repr(s_opt) == repr(t_opt)


@pytest.mark.parametrize(("name", "kwargs"), OPT_CASES[::3], ids=[n for n, _ in OPT_CASES[::3]])
def test_optimizer_load_state_dict_resumes_like_torch(name, kwargs):
    def prog(T):
        traj, opt = _trajectory(T, name, kwargs, steps=3)
        w = T.nn.Parameter(T.tensor(traj[-1][0]))
        b = T.nn.Parameter(T.tensor(traj[-1][1]))
        opt2 = getattr(T.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.05}], **kwargs)
        opt2.load_state_dict(opt.state_dict())
        for g in GRADS[3:]:
            w.grad, b.grad = T.tensor(g[0]), T.tensor(g[1])
            opt2.step()
        return w.detach().numpy().copy(), b.detach().numpy().copy()

    for s, t in zip(prog(shadowgrad), prog(torch), strict=True):
        np.testing.assert_allclose(s, t, rtol=1e-6, atol=1e-7)


def test_training_loop_with_closure_matches_torch():
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = rng.standard_normal((16, 1)).astype(np.float32)
    torch.manual_seed(0)
    init = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
    src = {k: v.detach().numpy().copy() for k, v in init.state_dict().items()}

    def prog(T):
        model = T.nn.Sequential(T.nn.Linear(3, 8), T.nn.Tanh(), T.nn.Linear(8, 1))
        model.load_state_dict({k: T.tensor(v) for k, v in src.items()})
        opt = T.optim.Adam(model.parameters(), lr=0.05)
        loss_fn = T.nn.MSELoss()
        losses = []
        for _ in range(5):

            def closure():
                opt.zero_grad()
                loss = loss_fn(model(T.tensor(x)), T.tensor(y))
                loss.backward()
                return loss

            losses.append(opt.step(closure).item())
        return losses, {k: v.numpy().copy() for k, v in model.state_dict().items()}

    t_losses, t_sd = prog(torch)
    s_losses, s_sd = prog(shadowgrad)
    np.testing.assert_allclose(s_losses, t_losses, rtol=1e-5)
    for k in t_sd:
        np.testing.assert_allclose(s_sd[k], t_sd[k], rtol=1e-4, atol=1e-6)


def _err(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


OPT_ERRORS = [
    lambda T: T.optim.SGD([], lr=0.1),
    lambda T: T.optim.SGD(T.ones(2, requires_grad=True), lr=0.1),
    lambda T: T.optim.SGD([T.ones(2, requires_grad=True)], lr=-1),
    lambda T: T.optim.SGD([T.ones(2, requires_grad=True)], lr=0.1, nesterov=True),
    lambda T: T.optim.SGD([T.ones(2, requires_grad=True) * 2], lr=0.1),
    lambda T: T.optim.SGD([1.0], lr=0.1),
    lambda T: T.optim.SGD([{"params": {T.ones(2, requires_grad=True)}}], lr=0.1),
    lambda T: T.optim.Adam([T.ones(2, requires_grad=True)], betas=(1.0, 0.9)),
    lambda T: T.optim.Adam([T.ones(2, requires_grad=True)], eps=-1.0),
    lambda T: T.optim.RMSprop([T.ones(2, requires_grad=True)], alpha=-1.0),
    lambda T: T.optim.Adagrad([T.ones(2, requires_grad=True)], lr_decay=-1.0),
    lambda T: (lambda p: T.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1))(
        T.ones(2, requires_grad=True)
    ),
    lambda T: T.optim.SGD([T.ones(2, requires_grad=True)], lr=0.1).load_state_dict(
        {"state": {}, "param_groups": []}
    ),
]


@pytest.mark.parametrize("case", OPT_ERRORS)
def test_optimizer_errors_match_torch(case):
    expected = _err(lambda: case(torch))
    assert expected is not None
    assert _err(lambda: case(shadowgrad)) == expected


SCHEDULERS = [
    ("StepLR", {"step_size": 3, "gamma": 0.5}),
    ("MultiStepLR", {"milestones": [2, 5, 5, 8], "gamma": 0.3}),
    ("ExponentialLR", {"gamma": 0.9}),
    ("CosineAnnealingLR", {"T_max": 5, "eta_min": 0.001}),
    ("LambdaLR", {"lr_lambda": lambda e: 1.0 / (e + 1)}),
    ("OneCycleLR", {"max_lr": 0.5, "total_steps": 12}),
    (
        "OneCycleLR",
        {"max_lr": [0.5, 1.0], "total_steps": 12, "anneal_strategy": "linear", "three_phase": True},
    ),
]


@pytest.mark.parametrize(("name", "kwargs"), SCHEDULERS, ids=[n for n, _ in SCHEDULERS])
@pytest.mark.parametrize("opt_name", ["SGD", "Adam"])
def test_scheduler_lr_sequence_matches_torch(name, kwargs, opt_name):
    def prog(T):
        p1, p2 = T.ones(2, requires_grad=True), T.ones(3, requires_grad=True)
        extra = {"momentum": 0.9} if opt_name == "SGD" else {}
        opt = getattr(T.optim, opt_name)(
            [{"params": [p1]}, {"params": [p2], "lr": 0.2}], lr=0.1, **extra
        )
        sched = getattr(T.optim.lr_scheduler, name)(opt, **kwargs)
        lrs = [sched.get_last_lr()]
        moms = []
        for _ in range(11):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
            moms.append([g.get("momentum", g.get("betas")) for g in opt.param_groups])
        sd = {k: v for k, v in sched.state_dict().items() if k != "lr_lambdas"}
        return lrs, moms, sorted(sd), sched.last_epoch

    s, t = prog(shadowgrad), prog(torch)
    assert s[2:] == t[2:]
    np.testing.assert_allclose(np.array(s[0]), np.array(t[0]), rtol=1e-15)
    assert s[1] == t[1]


def test_scheduler_state_dict_round_trip_matches_torch():
    def prog(T):
        p = T.ones(2, requires_grad=True)
        opt = T.optim.SGD([p], lr=1.0)
        sched = T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        for _ in range(3):
            opt.step()
            sched.step()
        sd = sched.state_dict()
        opt2 = T.optim.SGD([p], lr=1.0)
        opt2.load_state_dict(opt.state_dict())
        s2 = T.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)
        s2.load_state_dict(sd)
        out = []
        for _ in range(4):
            opt2.step()
            s2.step()
            out.append(s2.get_last_lr())
        return sd, out

    (ssd, sout), (tsd, tout) = prog(shadowgrad), prog(torch)
    assert ssd == tsd
    assert sout == tout


def test_reduce_lr_on_plateau_matches_torch():
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.96, 0.5, 0.6, 0.6, 0.6, 0.7, 0.8, 0.9]

    def prog(T, **kw):
        p = T.ones(2, requires_grad=True)
        opt = T.optim.SGD([p], lr=1.0)
        sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
        out = []
        for m in metrics:
            sched.step(m)
            out.append((sched.get_last_lr(), sched.num_bad_epochs, sched.best))
        return out

    for kw in (
        {"patience": 1},
        {"mode": "max", "factor": 0.5, "patience": 0, "cooldown": 2},
        {"threshold_mode": "abs", "threshold": 0.05, "patience": 1, "min_lr": 0.3},
    ):
        assert prog(shadowgrad, **kw) == prog(torch, **kw)
