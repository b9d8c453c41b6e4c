"""More optimizers and LR schedulers against torch: trajectories, state dicts, lr sequences,
warnings and errors."""

from __future__ import annotations

import warnings

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
