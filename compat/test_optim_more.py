"""More optimizers and LR schedulers against torch: trajectories, state dicts, lr sequences,
warnings and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad
import shadowgrad.optim


def _err(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


def _warned(fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        out = fn()
    return out, [(w.category.__name__, str(w.message)) for w in rec]


# --- schedulers -----------------------------------------------------------------------------


class _Halver:
    """A callable object: its attributes travel in the scheduler's state_dict."""

    def __init__(self):
        self.factor = 0.5

    def __call__(self, epoch):
        return self.factor if epoch % 3 == 0 else 1.0


def _sub(name, **kw):
    return lambda T, opt: getattr(T.optim.lr_scheduler, name)(opt, **kw)


SCHEDULERS = {
    "LinearLR": lambda T, opt: T.optim.lr_scheduler.LinearLR(opt),
    "LinearLR-custom": _sub("LinearLR", start_factor=0.1, end_factor=0.7, total_iters=7),
    "LinearLR-down": _sub("LinearLR", start_factor=1.0, end_factor=0.05, total_iters=4),
    "ConstantLR": _sub("ConstantLR"),
    "ConstantLR-custom": _sub("ConstantLR", factor=0.25, total_iters=3),
    "PolynomialLR": _sub("PolynomialLR"),
    "PolynomialLR-power": _sub("PolynomialLR", total_iters=8, power=2.5),
    "MultiplicativeLR": _sub("MultiplicativeLR", lr_lambda=lambda e: 0.9),
    "MultiplicativeLR-list": _sub(
        "MultiplicativeLR", lr_lambda=[lambda e: 0.95, lambda e: 1.0 / (e + 1)]
    ),
    "MultiplicativeLR-obj": lambda T, opt: T.optim.lr_scheduler.MultiplicativeLR(opt, _Halver()),
    "WarmRestarts": _sub("CosineAnnealingWarmRestarts", T_0=4),
    "WarmRestarts-mult": _sub("CosineAnnealingWarmRestarts", T_0=2, T_mult=2, eta_min=0.01),
    "CyclicLR": _sub("CyclicLR", base_lr=0.01, max_lr=0.1, step_size_up=3),
    "CyclicLR-tri2": _sub(
        "CyclicLR",
        base_lr=[0.01, 0.02],
        max_lr=0.2,
        step_size_up=2,
        step_size_down=3,
        mode="triangular2",
    ),
    "CyclicLR-exp": _sub(
        "CyclicLR",
        base_lr=0.01,
        max_lr=0.1,
        step_size_up=2,
        mode="exp_range",
        gamma=0.9,
        base_momentum=[0.7, 0.75],
        max_momentum=0.95,
    ),
    "CyclicLR-fn": _sub(
        "CyclicLR",
        base_lr=0.01,
        max_lr=0.1,
        step_size_up=2,
        scale_fn=lambda x: 0.8**x,
        scale_mode="iterations",
        cycle_momentum=False,
    ),
    "SequentialLR": lambda T, opt: T.optim.lr_scheduler.SequentialLR(
        opt,
        [
            T.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, total_iters=4),
            T.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
        ],
        milestones=[4],
    ),
    "SequentialLR-3": lambda T, opt: T.optim.lr_scheduler.SequentialLR(
        opt,
        [
            T.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2),
            T.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5),
            T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5),
        ],
        milestones=[3, 8],
    ),
    "ChainedScheduler": lambda T, opt: T.optim.lr_scheduler.ChainedScheduler(
        [
            T.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2),
            T.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
        ]
    ),
    "ChainedScheduler-opt": lambda T, opt: T.optim.lr_scheduler.ChainedScheduler(
        [
            T.optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=3),
            T.optim.lr_scheduler.PolynomialLR(opt, total_iters=9, power=0.5),
        ],
        optimizer=opt,
    ),
}


def _make_opt(T, opt_name):
    p1, p2 = T.ones(2, requires_grad=True), T.ones(3, requires_grad=True)
    extra = {"momentum": 0.9} if opt_name == "SGD" else {}
    return getattr(T.optim, opt_name)(
        [{"params": [p1]}, {"params": [p2], "lr": 0.2}], lr=0.1, **extra
    )


def _plain_state(sd):
    """A scheduler state_dict without callables (lambdas differ between the two runs)."""
    out = {}
    for k, v in sd.items():
        if k in ("lr_lambdas", "_scale_fn_custom"):
            out[k] = v if not callable(v) else "fn"
        elif k == "_schedulers":
            out[k] = [_plain_state(s) for s in v]
        else:
            out[k] = v
    return out


@pytest.mark.parametrize("name", list(SCHEDULERS))
@pytest.mark.parametrize("opt_name", ["SGD", "Adam"])
def test_scheduler_lr_sequence_and_state_match_torch(name, opt_name):
    def prog(T):
        opt = _make_opt(T, opt_name)
        sched = SCHEDULERS[name](T, opt)
        lrs = [sched.get_last_lr()]
        moms = []
        for _ in range(25):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
            moms.append([g.get("momentum", g.get("betas")) for g in opt.param_groups])
        groups = [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]
        return lrs, moms, _plain_state(sched.state_dict()), groups

    s, t = prog(shadowgrad), prog(torch)
    assert s == t


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_state_dict_resumes_like_torch(name):
    def prog(T):
        opt = _make_opt(T, "SGD")
        sched = SCHEDULERS[name](T, opt)
        for _ in range(5):
            opt.step()
            sched.step()
        sd, osd = sched.state_dict(), opt.state_dict()
        opt2 = _make_opt(T, "SGD")
        sched2 = SCHEDULERS[name](T, opt2)
        opt2.load_state_dict(osd)
        sched2.load_state_dict(sd)
        out = []
        for _ in range(8):
            opt2.step()
            sched2.step()
            out.append(sched2.get_last_lr())
        return out

    assert prog(shadowgrad) == prog(torch)


CLOSED_FORM = [
    _sub("LinearLR", start_factor=0.25, total_iters=6),
    _sub("ConstantLR", factor=0.5, total_iters=4),
    _sub("PolynomialLR", total_iters=6, power=1.5),
    _sub("CosineAnnealingWarmRestarts", T_0=3, T_mult=2),
    _sub("CosineAnnealingWarmRestarts", T_0=3),
]


@pytest.mark.parametrize("make", CLOSED_FORM)
def test_scheduler_epoch_argument_uses_closed_form_and_warns_like_torch(make):
    def prog(T):
        opt = _make_opt(T, "SGD")
        sched = make(T, opt)
        out = []
        for epoch in (1, 2, 5, 3, 9, 4, 12, 0, 7.5 if "Warm" in type(sched).__name__ else 7):
            opt.step()
            _, warned = _warned(lambda e=epoch: sched.step(e))
            out.append((sched.get_last_lr(), sched.last_epoch, warned))
        return out

    assert prog(shadowgrad) == prog(torch)


@pytest.mark.parametrize("name", ["LinearLR", "ConstantLR", "MultiplicativeLR", "CyclicLR"])
def test_scheduler_step_before_optimizer_step_warns_like_torch(name):
    def prog(T):
        opt = _make_opt(T, "SGD")
        sched = SCHEDULERS[name](T, opt)
        return _warned(sched.step)[1], _warned(sched.step)[1], _warned(sched.get_lr)[1]

    assert prog(shadowgrad) == prog(torch)


def test_warm_restarts_and_chained_step_without_optimizer_step_warn_like_torch():
    def prog(T):
        opt = _make_opt(T, "SGD")
        a = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3)
        b = T.optim.lr_scheduler.ChainedScheduler([T.optim.lr_scheduler.ConstantLR(opt)])
        return _warned(a.step)[1], _warned(b.step)[1], b.get_last_lr()

    assert prog(shadowgrad) == prog(torch)


SCHED_ERRORS = [
    _sub("LinearLR", start_factor=0.0),
    _sub("LinearLR", start_factor=1.5),
    _sub("LinearLR", end_factor=-0.1),
    _sub("ConstantLR", factor=1.5),
    _sub("MultiplicativeLR", lr_lambda=[lambda e: 1.0]),
    _sub("MultiplicativeLR", lr_lambda=0.5),
    _sub("CosineAnnealingWarmRestarts", T_0=0),
    _sub("CosineAnnealingWarmRestarts", T_0=2.0),
    _sub("CosineAnnealingWarmRestarts", T_0=2, T_mult=0),
    _sub("CosineAnnealingWarmRestarts", T_0=2, eta_min="x"),
    lambda T, opt: T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2).step(-1),
    _sub("CyclicLR", base_lr=0.1, max_lr=1.0, mode="bogus"),
    _sub("CyclicLR", base_lr=[0.1], max_lr=1.0),
    lambda T, opt: T.optim.lr_scheduler.CyclicLR(
        T.optim.Adagrad([T.ones(1, requires_grad=True)]), base_lr=0.1, max_lr=1.0
    ),
    lambda T, opt: T.optim.lr_scheduler.CyclicLR(None, base_lr=0.1, max_lr=1.0),
    lambda T, opt: T.optim.lr_scheduler.SequentialLR(opt, [], milestones=[]),
    lambda T, opt: T.optim.lr_scheduler.SequentialLR(
        opt, [T.optim.lr_scheduler.ConstantLR(opt)], milestones=[2]
    ),
    lambda T, opt: T.optim.lr_scheduler.SequentialLR(
        opt, [T.optim.lr_scheduler.ReduceLROnPlateau(opt)], milestones=[]
    ),
    lambda T, opt: T.optim.lr_scheduler.SequentialLR(opt, [object()], milestones=[]),
    lambda T, opt: T.optim.lr_scheduler.ChainedScheduler([]),
    lambda T, opt: T.optim.lr_scheduler.ChainedScheduler(
        [T.optim.lr_scheduler.ConstantLR(opt)], optimizer=_make_opt(T, "Adam")
    ),
]


@pytest.mark.parametrize("case", SCHED_ERRORS)
def test_scheduler_errors_match_torch(case):
    expected = _err(lambda: case(torch, _make_opt(torch, "SGD")))
    assert expected is not None
    got = _err(lambda: case(shadowgrad, _make_opt(shadowgrad, "SGD")))
    # the optimizer's repr is part of the "different optimizer" message
    assert got[0] == expected[0]
    assert got[1].replace("shadowgrad", "torch") == expected[1]


def test_scheduler_names_match_torch():
    assert set(torch.optim.lr_scheduler.__all__) == set(shadowgrad.optim.lr_scheduler.__all__)


# --- optimizers -----------------------------------------------------------------------------

rng = np.random.default_rng(7)
W0 = rng.standard_normal((4, 6))
B0 = rng.standard_normal(3)
GRADS = [(rng.standard_normal((4, 6)), rng.standard_normal(3)) for _ in range(12)]
# a gradient that repeats its sign pattern, so Rprop grows steps as well as shrinking them
GRADS[5] = (GRADS[4][0] * 0.5, GRADS[4][1] * 2.0)
GRADS[6] = (GRADS[4][0] * 0.25, GRADS[4][1] * 2.0)

OPT_CASES = [
    ("NAdam", {}),
    ("NAdam", {"lr": 0.01, "betas": (0.8, 0.9), "eps": 1e-6, "momentum_decay": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("NAdam", {"lr": 0.01, "maximize": True, "foreach": False}),
    ("RAdam", {}),
    ("RAdam", {"lr": 0.01, "betas": (0.5, 0.6)}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.01, "betas": (0.9, 0.7), "maximize": True}),
    ("Adamax", {}),
    ("Adamax", {"lr": 0.01, "betas": (0.8, 0.9), "eps": 1e-3, "weight_decay": 0.1}),
    ("Adamax", {"lr": 0.01, "maximize": True}),
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-4, "weight_decay": 0.1}),
    ("Adadelta", {"maximize": True, "rho": 1.0}),
    ("Rprop", {}),
    ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (0.01, 0.2)}),
    ("Rprop", {"lr": 0.05, "maximize": True}),
    ("ASGD", {}),
    ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 3, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.05, "t0": 0, "maximize": True}),
    ("Adafactor", {}),
    ("Adafactor", {"lr": 0.05, "weight_decay": 0.1, "maximize": True, "d": 1.5}),
    ("Adafactor", {"beta2_decay": -0.5, "eps": (1e-20, 1e-2)}),
]
OPT_IDS = [f"{n}-{k}" for n, k in OPT_CASES]


def _trajectory(T, name, kwargs, dtype, steps=12):
    cast = np.float32 if dtype == "float32" else np.float64
    w = T.nn.Parameter(T.tensor(W0.astype(cast)))
    b = T.nn.Parameter(T.tensor(B0.astype(cast)))
    opt = getattr(T.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.03}], **kwargs)
    out = []
    for i in range(steps):
        opt.zero_grad()
        w.grad = T.tensor(GRADS[i][0].astype(cast))
        if i != 3:  # a step where one parameter has no grad leaves it (and its state) alone
            b.grad = T.tensor(GRADS[i][1].astype(cast))
        opt.step()
        out.append((w.detach().numpy().copy(), b.detach().numpy().copy()))
    return out, opt


def _state_summary(sd):
    state = {
        k: {
            sk: (tuple(v.shape), str(v.dtype).split(".")[-1], v.detach().numpy().tolist())
            if hasattr(v, "shape")
            else v
            for sk, v in s.items()
        }
        for k, s in sd["state"].items()
    }
    return state, sd["param_groups"]


def _assert_close(s, t, dtype):
    tol = {"rtol": 2e-6, "atol": 1e-7} if dtype == "float32" else {"rtol": 1e-13, "atol": 1e-15}
    np.testing.assert_allclose(s, t, **tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "kwargs"), OPT_CASES, ids=OPT_IDS)
def test_optimizer_trajectory_and_state_dict_match_torch(name, kwargs, dtype):
    t_traj, t_opt = _trajectory(torch, name, kwargs, dtype)
    s_traj, s_opt = _trajectory(shadowgrad, name, kwargs, dtype)
    for (tw, tb), (sw, sb) in zip(t_traj, s_traj, strict=True):
        assert sw.dtype == tw.dtype
        _assert_close(sw, tw, dtype)
        _assert_close(sb, tb, dtype)
    t_state, t_groups = _state_summary(t_opt.state_dict())
    s_state, s_groups = _state_summary(s_opt.state_dict())
    assert s_groups == t_groups
    assert [list(g) for g in s_groups] == [list(g) for g in t_groups]
    assert list(s_state) == list(t_state)
    for k in t_state:
        assert list(s_state[k]) == list(t_state[k])
        for sk in t_state[k]:
            ts, ss = t_state[k][sk], s_state[k][sk]
            assert ss[:2] == ts[:2], sk
            _assert_close(ss[2], ts[2], dtype if ts[1] == dtype else "float32")
    assert repr(s_opt) == repr(t_opt)
    assert s_opt.defaults == t_opt.defaults


@pytest.mark.parametrize(("name", "kwargs"), OPT_CASES, ids=OPT_IDS)
def test_optimizer_resumes_from_torch_state_dict(name, kwargs):
    """Five steps in torch, its state_dict loaded into a fresh optimizer of each library, then
    both continue: a torch checkpoint's layout is what shadowgrad reads."""
    _, t_opt = _trajectory(torch, name, kwargs, "float64", steps=5)
    start = [p.detach().numpy().copy() for g in t_opt.param_groups for p in g["params"]]
    sd = t_opt.state_dict()

    def to_lib(T, v):
        return T.tensor(v.numpy()) if isinstance(v, torch.Tensor) else v

    def prog(T):
        w, b = (T.nn.Parameter(T.tensor(a)) for a in start)
        opt = getattr(T.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.03}], **kwargs)
        opt.load_state_dict(
            {
                "state": {
                    k: {sk: to_lib(T, v) for sk, v in s.items()} for k, s in sd["state"].items()
                },
                "param_groups": sd["param_groups"],
            }
        )
        for g in GRADS[5:]:
            w.grad, b.grad = T.tensor(g[0]), T.tensor(g[1])
            opt.step()
        return w.detach().numpy().copy(), b.detach().numpy().copy()

    for s, t in zip(prog(shadowgrad), prog(torch), strict=True):
        _assert_close(s, t, "float64")


def _param(T):
    return T.ones(2, requires_grad=True)


OPT_ERRORS = [
    lambda T: T.optim.NAdam([_param(T)], lr=-1.0),
    lambda T: T.optim.NAdam([_param(T)], eps=-1.0),
    lambda T: T.optim.NAdam([_param(T)], betas=(1.0, 0.9)),
    lambda T: T.optim.NAdam([_param(T)], betas=(0.9, -0.1)),
    lambda T: T.optim.NAdam([_param(T)], weight_decay=-0.5),
    lambda T: T.optim.NAdam([_param(T)], momentum_decay=-0.5),
    lambda T: T.optim.NAdam([_param(T)], lr=T.tensor([0.1, 0.2])),
    lambda T: T.optim.RAdam([_param(T)], lr=-0.1),
    lambda T: T.optim.RAdam([_param(T)], eps=-1e-8),
    lambda T: T.optim.RAdam([_param(T)], betas=(0.9, 1.0)),
    lambda T: T.optim.RAdam([_param(T)], weight_decay=-1),
    lambda T: T.optim.Adamax([_param(T)], lr=-1),
    lambda T: T.optim.Adamax([_param(T)], eps=-1),
    lambda T: T.optim.Adamax([_param(T)], betas=(-0.1, 0.9)),
    lambda T: T.optim.Adamax([_param(T)], weight_decay=-1),
    lambda T: T.optim.Adadelta([_param(T)], lr=-1),
    lambda T: T.optim.Adadelta([_param(T)], rho=1.5),
    lambda T: T.optim.Adadelta([_param(T)], eps=-1),
    lambda T: T.optim.Adadelta([_param(T)], weight_decay=-1),
    lambda T: T.optim.Rprop([_param(T)], lr=-1),
    lambda T: T.optim.Rprop([_param(T)], etas=(1.5, 1.2)),
    lambda T: T.optim.Rprop([_param(T)], etas=(0.5, 0.9)),
    lambda T: T.optim.ASGD([_param(T)], lr=-1),
    lambda T: T.optim.ASGD([_param(T)], weight_decay=-1),
    lambda T: T.optim.Adafactor([_param(T)], lr=-1),
    lambda T: T.optim.Adafactor([_param(T)], beta2_decay=0.5),
    lambda T: T.optim.Adafactor([_param(T)], eps=(-1.0, 1e-3)),
    lambda T: T.optim.Adafactor([_param(T)], eps=(None, -1.0)),
    lambda T: T.optim.Adafactor([_param(T)], d=0.5),
    lambda T: T.optim.Adafactor([_param(T)], weight_decay=-1),
    lambda T: T.optim.NAdam([], lr=0.1),
    lambda T: T.optim.Rprop([{"params": [_param(T)]}, {"params": []}], foo=1),
]


@pytest.mark.parametrize("case", OPT_ERRORS)
def test_optimizer_errors_match_torch(case):
    expected = _err(lambda: case(torch))
    assert expected is not None
    assert _err(lambda: case(shadowgrad)) == expected


def test_optimizer_names_match_torch():
    done = {"NAdam", "RAdam", "Adamax", "Adadelta", "Rprop", "ASGD", "LBFGS", "Adafactor"}
    assert done <= set(shadowgrad.optim.__all__)
    for name in done:
        assert getattr(shadowgrad.optim, name).__name__ == getattr(torch.optim, name).__name__


# --- LBFGS ----------------------------------------------------------------------------------

LSQ_A = rng.standard_normal((8, 4))
LSQ_B = rng.standard_normal(8)


def _lbfgs_run(T, dtype, problem, calls=4, **kwargs):
    cast = np.float32 if dtype == "float32" else np.float64
    x = T.nn.Parameter(T.tensor(np.array([-1.2, 1.0, 0.5, -0.3], dtype=cast)))
    y = T.nn.Parameter(T.tensor(np.array([0.3], dtype=cast)))
    opt = T.optim.LBFGS([x, y], **kwargs)
    a, b = T.tensor(LSQ_A.astype(cast)), T.tensor(LSQ_B.astype(cast))
    evals = [0]

    def closure():
        opt.zero_grad()
        evals[0] += 1
        if problem == "rosenbrock":
            loss = (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum() + (y**2).sum()
        else:
            loss = ((a @ x - b) ** 2).sum() + ((y - 2) ** 2).sum()
        loss.backward()
        return loss

    out = []
    for _ in range(calls):
        loss = opt.step(closure)
        out.append(
            (loss.detach().numpy().copy(), x.detach().numpy().copy(), y.detach().numpy().copy())
        )
    state = opt.state[x]
    summary = {
        "keys": list(state),
        "evals": evals[0],
        "func_evals": state["func_evals"],
        "n_iter": state["n_iter"],
        "t": type(state["t"]).__name__,
        "history": len(state["old_dirs"]),
        "groups": [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups],
        "sd_state": list(opt.state_dict()["state"]),
    }
    return out, summary


LBFGS_CASES = [
    {},
    {"line_search_fn": "strong_wolfe"},
    {"lr": 0.5, "max_iter": 5, "history_size": 3},
    {"line_search_fn": "strong_wolfe", "max_iter": 7, "history_size": 2, "max_eval": 9},
    {"tolerance_grad": 1e-3, "tolerance_change": 1e-4},
]


@pytest.mark.parametrize("problem", ["rosenbrock", "least_squares"])
@pytest.mark.parametrize("kwargs", LBFGS_CASES, ids=[str(k) for k in LBFGS_CASES])
def test_lbfgs_iterates_match_torch_float64(kwargs, problem):
    s_out, s_sum = _lbfgs_run(shadowgrad, "float64", problem, **kwargs)
    t_out, t_sum = _lbfgs_run(torch, "float64", problem, **kwargs)
    assert s_sum == t_sum
    for s, t in zip(s_out, t_out, strict=True):
        for a, b in zip(s, t, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_float32_follows_torch(line_search_fn):
    # float32 dot products round differently (summation order), so only the path is compared
    kw = {"line_search_fn": line_search_fn, "max_iter": 5}
    s_out, s_sum = _lbfgs_run(shadowgrad, "float32", "least_squares", calls=1, **kw)
    t_out, t_sum = _lbfgs_run(torch, "float32", "least_squares", calls=1, **kw)
    assert s_sum == t_sum
    for a, b in zip(s_out[0], t_out[0], strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_lbfgs_stops_at_once_on_a_stationary_point_like_torch():
    def prog(T):
        x = T.nn.Parameter(T.zeros(3))
        opt = T.optim.LBFGS([x])

        def closure():
            opt.zero_grad()
            loss = (x**2).sum()
            loss.backward()
            return loss

        loss = opt.step(closure)
        return float(loss.detach()), dict(opt.state[x]), x.detach().numpy().tolist()

    assert prog(shadowgrad) == prog(torch)


LBFGS_ERRORS = [
    lambda T: T.optim.LBFGS([_param(T)], lr=-1.0),
    lambda T: T.optim.LBFGS([{"params": [_param(T)]}, {"params": [_param(T)]}]),
    lambda T: (
        lambda p: T.optim.LBFGS([p], line_search_fn="armijo").step(
            lambda: (p * p).sum().backward() or (p * p).sum()
        )
    )(_param(T)),
]


@pytest.mark.parametrize("case", LBFGS_ERRORS)
def test_lbfgs_errors_match_torch(case):
    expected = _err(lambda: case(torch))
    assert expected is not None
    assert _err(lambda: case(shadowgrad)) == expected
