"""Realistic programs, seventh set: training utilities end to end. Every LR scheduler traced
over many steps with its state dict round trips and calling-order warnings; optimizer options,
param groups, hooks and state-dict mismatches; swa_utils; the Module API (state dicts, hooks,
named_* with prefixes, containers, parametrizations, pruning, clipping); losses with weights and
smoothing; seeded init; Embedding options; data utilities with exact batches. The programs
register into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs
on torch and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import collections
import copy
import importlib
import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .compare import Tolerance
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _params(T: Any, *shapes: tuple[int, ...], seed: int = 0) -> list[Any]:
    return [T.nn.Parameter(T.tensor(_data(*s, seed=seed + i))) for i, s in enumerate(shapes)]


def _opt(T: Any, cls: str = "SGD", lr: float = 0.1, n: int = 1, **kw: Any) -> Any:
    """An optimizer over `n` param groups of one parameter each."""
    return getattr(T.optim, cls)([{"params": [p]} for p in _params(T, *[(2,)] * n)], lr=lr, **kw)


def _lrs(opt: Any) -> list[Any]:
    return [g["lr"] for g in opt.param_groups]


def _trace(opt: Any, sch: Any, n: int, metric: Callable[[int], Any] | None = None) -> list[Any]:
    """Step optimizer then scheduler `n` times; record last_lr, group lrs and last_epoch."""
    out = []
    for i in range(n):
        opt.step()
        if metric is None:
            sch.step()
        else:
            sch.step(metric(i))
        last = sch.get_last_lr() if hasattr(sch, "get_last_lr") else None
        out.append((last, _lrs(opt), getattr(sch, "last_epoch", None)))
    return out


def _state(opt: Any) -> Any:
    return {k: dict(v) for k, v in opt.state_dict()["state"].items()}


# --- LR schedulers ---------------------------------------------------------------------------


@program()
def prog_sched_steplr_two_groups_trace_and_state(T: Any) -> Any:
    S = T.optim.lr_scheduler
    a, b = _params(T, (2,), (3,))
    opt = T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1, momentum=0.9)
    sch = S.StepLR(opt, step_size=3, gamma=0.3)
    first = (sch.get_last_lr(), sch.last_epoch, sch.base_lrs, _lrs(opt))
    tr = _trace(opt, sch, 8)
    return {"first": first, "trace": tr, "sd": sch.state_dict(), "initial": opt.param_groups[1]}


@program()
def prog_sched_multistep_repeated_milestones(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    sch = S.MultiStepLR(opt, milestones=[4, 2, 2, 6], gamma=0.5)
    tr = _trace(opt, sch, 8)
    sd = sch.state_dict()
    return {"trace": tr, "milestones": dict(sd["milestones"]), "last": sd["last_epoch"]}


@program()
def prog_sched_exponential_and_multiplicative(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o1 = _opt(T, lr=2.0)
    e = S.ExponentialLR(o1, gamma=0.7)
    o2 = _opt(T, lr=2.0, n=2)
    o2.param_groups[0]["lr"] = 1.0
    m = S.MultiplicativeLR(o2, lr_lambda=lambda ep: 0.9 if ep % 2 else 0.5)
    o3 = _opt(T, lr=1.0, n=1)
    m2 = S.MultiplicativeLR(o3, lr_lambda=[lambda ep: 1.0 - 0.1 * ep])
    return {
        "exp": _trace(o1, e, 5),
        "mult": _trace(o2, m, 5),
        "mult2": _trace(o3, m2, 4),
        "mult_sd": m.state_dict(),
        "bad_len": raises(lambda: S.MultiplicativeLR(o2, lr_lambda=[lambda e: 1.0])),
    }


@program()
def prog_sched_cosine_annealing_beyond_tmax(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=0.4)
    sch = S.CosineAnnealingLR(opt, T_max=4, eta_min=0.05)
    tr = _trace(opt, sch, 11)
    opt2 = _opt(T, lr=0.4)
    sch2 = S.CosineAnnealingLR(opt2, T_max=3)
    opt2.param_groups[0]["lr"] = 0.2  # manual change mid-run: the recursive form follows it
    tr2 = _trace(opt2, sch2, 5)
    return {"tr": tr, "tr2": tr2, "sd": sch.state_dict()}


@program()
def prog_sched_cosine_warm_restarts_tmult_and_fractional(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    sch = S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.1)
    tr = _trace(opt, sch, 9)
    opt2 = _opt(T, lr=1.0)
    sch2 = S.CosineAnnealingWarmRestarts(opt2, T_0=3)
    frac = []
    for ep in [0.5, 1.25, 2.9, 3.0, 7.5]:
        opt2.step()
        sch2.step(ep)
        frac.append((sch2.get_last_lr(), sch2.T_cur, sch2.T_i, sch2.last_epoch))
    return {
        "tr": tr,
        "frac": frac,
        "sd": sch.state_dict(),
        "bad_t0": raises(lambda: S.CosineAnnealingWarmRestarts(_opt(T), T_0=0)),
        "bad_tmult": raises(lambda: S.CosineAnnealingWarmRestarts(_opt(T), T_0=2, T_mult=0)),
        "float_t0": raises(lambda: S.CosineAnnealingWarmRestarts(_opt(T), T_0=2.0)),
        "neg_epoch": raises(lambda: sch2.step(-1)),
    }


@program()
def prog_sched_onecycle_cos_and_linear_three_phase(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for strat in ["cos", "linear"]:
        for three in [False, True]:
            opt = _opt(T, lr=0.01, momentum=0.9)
            sch = S.OneCycleLR(
                opt,
                max_lr=0.5,
                total_steps=9,
                pct_start=0.3,
                anneal_strategy=strat,
                three_phase=three,
                div_factor=5.0,
                final_div_factor=50.0,
            )
            rows = []
            for _ in range(9):
                opt.step()
                sch.step()
                g = opt.param_groups[0]
                rows.append((sch.get_last_lr(), g["momentum"], g["initial_lr"], g["min_lr"]))
            out[f"{strat}-{three}"] = rows
    return out


@program()
def prog_sched_onecycle_epochs_adam_betas_and_errors(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, "Adam", lr=0.01, n=2)
    sch = S.OneCycleLR(opt, max_lr=[0.1, 0.2], epochs=2, steps_per_epoch=3, cycle_momentum=True)
    rows = []
    for _ in range(6):
        opt.step()
        sch.step()
        rows.append([(g["lr"], g["betas"]) for g in opt.param_groups])
    over = raises(sch.step)
    return {
        "rows": rows,
        "over": over,
        "total": sch.total_steps,
        "no_total": raises(lambda: S.OneCycleLR(_opt(T), max_lr=0.1)),
        "bad_pct": raises(lambda: S.OneCycleLR(_opt(T), 0.1, total_steps=5, pct_start=1.5)),
        "bad_anneal": raises(
            lambda: S.OneCycleLR(_opt(T), 0.1, total_steps=5, anneal_strategy="exp")
        ),
        "bad_epochs": raises(lambda: S.OneCycleLR(_opt(T), 0.1, epochs=0, steps_per_epoch=2)),
        "bad_total": raises(lambda: S.OneCycleLR(_opt(T), 0.1, total_steps=-1)),
        "no_momentum": raises(lambda: S.OneCycleLR(_opt(T, "Adagrad"), 0.1, total_steps=3)),
        "wrong_len": raises(lambda: S.OneCycleLR(_opt(T), [0.1, 0.2], total_steps=3)),
    }


@program()
def prog_sched_cyclic_modes_and_momentum(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for mode in ["triangular", "triangular2", "exp_range"]:
        opt = _opt(T, lr=0.1, momentum=0.9)
        sch = S.CyclicLR(
            opt,
            base_lr=0.01,
            max_lr=0.1,
            step_size_up=2,
            step_size_down=3,
            mode=mode,
            gamma=0.8,
            base_momentum=0.8,
            max_momentum=0.95,
        )
        rows = []
        for _ in range(11):
            opt.step()
            sch.step()
            rows.append((sch.get_last_lr()[0], opt.param_groups[0]["momentum"]))
        out[mode] = rows
    opt = _opt(T, lr=0.1)
    sch = S.CyclicLR(
        opt,
        0.0,
        1.0,
        step_size_up=2,
        scale_fn=lambda x: 1 / (x + 1),
        scale_mode="cycle",
        cycle_momentum=False,
    )
    out["custom"] = [(opt.step(), sch.step(), sch.get_last_lr()) for _ in range(7)]
    out["custom_sd"] = sorted(sch.state_dict())
    out["bad_mode"] = raises(lambda: S.CyclicLR(_opt(T, momentum=0.9), 0.1, 1.0, mode="tri"))
    out["adam_no_momentum"] = raises(lambda: S.CyclicLR(_opt(T, "Adagrad"), 0.1, 1.0))
    out["adam_betas"] = S.CyclicLR(
        _opt(T, "Adam"), 0.01, 0.1, base_momentum=0.8
    ).optimizer.param_groups[0]["betas"]
    return out


@program()
def prog_sched_linear_constant_polynomial(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o1 = _opt(T, lr=0.5)
    lin = S.LinearLR(o1, start_factor=0.2, end_factor=0.9, total_iters=4)
    first_lin = lin.get_last_lr()
    o2 = _opt(T, lr=0.5)
    con = S.ConstantLR(o2, factor=0.25, total_iters=3)
    first_con = con.get_last_lr()
    o3 = _opt(T, lr=0.5)
    poly = S.PolynomialLR(o3, total_iters=4, power=2.0)
    o4 = _opt(T, lr=0.5)
    poly1 = S.PolynomialLR(o4, total_iters=3)
    return {
        "lin": (first_lin, _trace(o1, lin, 7)),
        "con": (first_con, _trace(o2, con, 6)),
        "poly": _trace(o3, poly, 6),
        "poly1": _trace(o4, poly1, 5),
        "lin_bad": raises(lambda: S.LinearLR(_opt(T), start_factor=0.0)),
        "lin_bad_end": raises(lambda: S.LinearLR(_opt(T), end_factor=1.5)),
        "con_bad": raises(lambda: S.ConstantLR(_opt(T), factor=1.5)),
        "sds": (lin.state_dict(), con.state_dict(), poly.state_dict()),
    }


@program()
def prog_sched_lambdalr_callable_object_state_dict(T: Any) -> Any:
    S = T.optim.lr_scheduler

    class Warmup:
        def __init__(self, n):
            self.n = n
            self.calls = 0

        def __call__(self, ep):
            self.calls += 1
            return min(1.0, (ep + 1) / self.n)

    opt = _opt(T, lr=0.3, n=2)
    w = Warmup(3)
    sch = S.LambdaLR(opt, [w, lambda ep: 0.5**ep])
    tr = _trace(opt, sch, 4)
    sd = sch.state_dict()
    opt2 = _opt(T, lr=0.3, n=2)
    w2 = Warmup(10)
    sch2 = S.LambdaLR(opt2, [w2, lambda ep: 1.0])
    sch2.load_state_dict(sd)
    return {
        "tr": tr,
        "lambdas": sd["lr_lambdas"],
        "loaded_n": w2.n,
        "loaded_calls": w2.calls,
        "last": sch2.last_epoch,
        "bad_len": raises(lambda: S.LambdaLR(opt, [w])),
    }


@program()
def prog_sched_sequential_warmup_then_cosine(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0, momentum=0.5)
    warm = S.LinearLR(opt, start_factor=0.1, total_iters=3)
    cos = S.CosineAnnealingLR(opt, T_max=4, eta_min=0.0)
    seq = S.SequentialLR(opt, [warm, cos], milestones=[3])
    first = (seq.get_last_lr(), _lrs(opt))
    tr = _trace(opt, seq, 9)
    sd = seq.state_dict()
    opt2 = _opt(T, lr=1.0, momentum=0.5)
    w2 = S.LinearLR(opt2, start_factor=0.1, total_iters=3)
    c2 = S.CosineAnnealingLR(opt2, T_max=4)
    seq2 = S.SequentialLR(opt2, [w2, c2], milestones=[3])
    seq2.load_state_dict(sd)
    return {
        "first": first,
        "tr": tr,
        "sd_keys": sorted(sd),
        "subs": sd["_schedulers"],
        "milestones": sd["_milestones"],
        "loaded": (seq2.last_epoch, w2.last_epoch, c2.last_epoch, seq2.get_last_lr()),
        "bad_ms": raises(lambda: S.SequentialLR(opt, [warm, cos], milestones=[1, 2])),
        "other_opt": raises(lambda: S.SequentialLR(opt2, [warm, cos], milestones=[2])),
        "empty": raises(lambda: S.SequentialLR(opt, [], milestones=[])),
    }


@program()
def prog_sched_chained_three_and_state(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0, n=2)
    ch = S.ChainedScheduler(
        [
            S.ConstantLR(opt, factor=0.5, total_iters=2),
            S.ExponentialLR(opt, gamma=0.9),
            S.MultiStepLR(opt, milestones=[3], gamma=0.1),
        ]
    )
    first = ch.get_last_lr()
    tr = _trace(opt, ch, 6)
    sd = ch.state_dict()
    return {"first": first, "tr": tr, "sd": sd, "opt_is": ch.optimizer is opt}


@program()
def prog_sched_plateau_modes_thresholds_cooldown(T: Any) -> Any:
    S = T.optim.lr_scheduler
    metrics = [1.0, 0.99, 0.995, 0.98, 0.985, 0.97, 0.975, 0.976, 0.9, 0.95, 0.96, 0.97]
    out = {}
    for mode in ["min", "max"]:
        for tm in ["rel", "abs"]:
            opt = _opt(T, lr=1.0, n=2)
            sch = S.ReduceLROnPlateau(
                opt,
                mode=mode,
                factor=0.5,
                patience=1,
                threshold=0.01,
                threshold_mode=tm,
                cooldown=1,
                min_lr=[0.1, 0.2],
                eps=1e-3,
            )
            rows = []
            for m in metrics:
                opt.step()
                sch.step(m if mode == "min" else -m)
                rows.append((_lrs(opt), sch.num_bad_epochs, sch.cooldown_counter, sch.best))
            out[f"{mode}-{tm}"] = (rows, sch.get_last_lr(), sch.state_dict())
    return out


@program()
def prog_sched_plateau_errors_and_tensor_metric(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    sch = S.ReduceLROnPlateau(opt, patience=0)
    for m in [T.tensor(1.0), T.tensor(2.0), T.tensor(3.0)]:
        opt.step()
        sch.step(m)
    return {
        "lr": _lrs(opt),
        "best": sch.best,
        "last_epoch": sch.last_epoch,
        "bad_factor": raises(lambda: S.ReduceLROnPlateau(opt, factor=1.0)),
        "bad_mode": raises(lambda: S.ReduceLROnPlateau(opt, mode="avg")),
        "bad_tm": raises(lambda: S.ReduceLROnPlateau(opt, threshold_mode="pct")),
        "bad_minlr": raises(lambda: S.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])),
        "no_metric": raises(sch.step),
        "not_opt": raises(lambda: S.ReduceLROnPlateau([1, 2])),
    }


@program()
def prog_sched_step_before_optimizer_warns_once(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    sch = S.ExponentialLR(opt, 0.5)
    sch.step()
    sch.step()
    opt.step()
    sch.step()
    return {"lr": sch.get_last_lr(), "last": sch.last_epoch}


@program()
def prog_sched_epoch_argument_deprecated(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    sch = S.StepLR(opt, step_size=2, gamma=0.1)
    rows = []
    for ep in [1, 2, 5, 3]:
        opt.step()
        sch.step(ep)
        rows.append((sch.get_last_lr(), sch.last_epoch))
    opt2 = _opt(T, lr=1.0)
    sch2 = S.ExponentialLR(opt2, 0.5)
    opt2.step()
    sch2.step(3)
    return {"rows": rows, "exp": (sch2.get_last_lr(), sch2.last_epoch)}


@program()
def prog_sched_resume_with_last_epoch_and_initial_lr(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    sch = S.StepLR(opt, 2, 0.5)
    _trace(opt, sch, 3)
    opt_sd = opt.state_dict()
    opt2 = _opt(T, lr=1.0)
    opt2.load_state_dict(opt_sd)
    sch2 = S.StepLR(opt2, 2, 0.5, last_epoch=2)
    return {
        "groups": opt_sd["param_groups"],
        "sch2": (sch2.get_last_lr(), sch2.last_epoch, sch2.base_lrs),
        "next": _trace(opt2, sch2, 3),
    }


@program()
def prog_sched_two_schedulers_same_optimizer(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    a = S.StepLR(opt, 1, 0.5)
    b = S.MultiplicativeLR(opt, lambda e: 0.9)
    rows = []
    for _ in range(3):
        opt.step()
        a.step()
        b.step()
        rows.append((a.get_last_lr(), b.get_last_lr(), _lrs(opt)))
    return {"rows": rows, "base": (a.base_lrs, b.base_lrs)}


@program()
def prog_sched_tensor_lr_optimizer(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = _params(T, (3,))
    opt = T.optim.Adam(p, lr=T.tensor(0.01))
    sch = S.ExponentialLR(opt, 0.5)
    rows = []
    for _ in range(3):
        opt.step()
        sch.step()
        rows.append((sch.get_last_lr(), opt.param_groups[0]["lr"]))
    return {"rows": rows, "type": type(opt.param_groups[0]["lr"]).__name__}


@program()
def prog_sched_created_after_optimizer_steps(T: Any) -> Any:
    # the calling-order check only sees optimizer steps made after the scheduler wrapped step
    S = T.optim.lr_scheduler
    opt = _opt(T, lr=1.0)
    opt.param_groups[0]["params"][0].grad = T.ones(2)
    opt.step()
    opt.step()
    sch = S.StepLR(opt, 1, 0.5)
    sch.step()
    opt.step()
    sch.step()
    opt2 = _opt(T, lr=1.0)
    sch2 = S.ExponentialLR(opt2, 0.5)
    sch3 = S.StepLR(opt2, 1, 0.1)  # a second scheduler does not wrap step again
    opt2.step()
    sch3.step()
    sch2.step()
    return {
        "lr": (sch.get_last_lr(), sch.last_epoch, sch._step_count),
        "two": (sch2.get_last_lr(), sch3.get_last_lr(), _lrs(opt2)),
        "attr": hasattr(_opt(T), "_opt_called"),
        "wrapped": hasattr(opt.step, "_wrapped_by_lr_sched"),
    }


# --- optimizers ----------------------------------------------------------------------------


def _quad_steps(T: Any, opt: Any, ps: list[Any], n: int = 3) -> list[Any]:
    """`n` steps on sum((p - 1)^2 * (i + 1)); record params and state after each."""
    out = []
    for _ in range(n):
        opt.zero_grad()
        loss = sum(((p - 1) ** 2 * (i + 1)).sum() for i, p in enumerate(ps))
        loss.backward()
        opt.step()
        out.append(([p.detach().clone() for p in ps], _state(opt)))
    return out


@program()
def prog_optim_per_group_options_every_optimizer(T: Any) -> Any:
    out = {}
    specs = {
        "SGD": ({"momentum": 0.9, "nesterov": True}, {"momentum": 0.5, "dampening": 0.1}),
        "Adam": ({"amsgrad": True}, {"betas": (0.8, 0.9), "weight_decay": 0.1}),
        "AdamW": ({"weight_decay": 0.5}, {"amsgrad": True, "maximize": True}),
        "RMSprop": ({"centered": True, "momentum": 0.5}, {"alpha": 0.9}),
        "Adagrad": ({"lr_decay": 0.1}, {"initial_accumulator_value": 0.5}),
        "Adadelta": ({"rho": 0.5}, {"weight_decay": 0.2}),
        "Adamax": ({"betas": (0.5, 0.6)}, {"eps": 1e-2}),
        "NAdam": ({"momentum_decay": 0.01}, {"decoupled_weight_decay": True, "weight_decay": 0.1}),
        "RAdam": ({"decoupled_weight_decay": True, "weight_decay": 0.1}, {}),
        "ASGD": ({"lambd": 0.01, "t0": 1.0}, {"alpha": 0.5}),
        "Rprop": ({"etas": (0.4, 1.5)}, {"step_sizes": (0.01, 0.2)}),
    }
    for name, (g1, g2) in specs.items():
        ps = _params(T, (2,), (3,), seed=3)
        opt = getattr(T.optim, name)(
            [{"params": [ps[0]], **g1}, {"params": [ps[1]], "lr": 0.05, **g2}], lr=0.01
        )
        steps = _quad_steps(T, opt, ps, 3)
        out[name] = (steps, opt.state_dict()["param_groups"])
    return out


@program()
def prog_optim_foreach_true_false_agree(T: Any) -> Any:
    out = {}
    for name, kw in [
        ("SGD", {"momentum": 0.9, "weight_decay": 0.1}),
        ("Adam", {"amsgrad": True, "maximize": True}),
        ("AdamW", {}),
        ("RMSprop", {"centered": True}),
        ("Adagrad", {}),
        ("NAdam", {}),
        ("RAdam", {}),
        ("Adamax", {}),
        ("Adadelta", {}),
        ("Rprop", {}),
        ("ASGD", {}),
    ]:
        res = []
        for fe in [False, True]:
            ps = _params(T, (2,), (2, 2), seed=5)
            opt = getattr(T.optim, name)(ps, lr=0.01, foreach=fe, **kw)
            res.append((_quad_steps(T, opt, ps, 2), opt.defaults["foreach"]))
        out[name] = res
    return out


@program()
def prog_optim_grads_after_step_every_flag(T: Any) -> Any:
    # what a step leaves in p.grad (torch's foreach SGD with nesterov adds into it) and the
    # parameters, over three steps with zero_grad between them
    cfg = {
        "SGD": [
            {"momentum": 0.9, "nesterov": True},
            {"momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
            {"momentum": 0.9, "nesterov": True, "maximize": True},
            {"momentum": 0.9, "dampening": 0.5},
        ],
        "Adam": [{"maximize": True}, {"weight_decay": 0.1, "amsgrad": True}],
        "RMSprop": [{"centered": True, "momentum": 0.5}, {"weight_decay": 0.1, "maximize": True}],
        "Adagrad": [{"weight_decay": 0.1}],
        "NAdam": [{"decoupled_weight_decay": True, "weight_decay": 0.1}, {"maximize": True}],
        "RAdam": [{"weight_decay": 0.1}],
        "Adadelta": [{"maximize": True}],
        "Adamax": [{"weight_decay": 0.1}],
        "ASGD": [{"weight_decay": 0.1}],
        "Rprop": [{"maximize": True}],
    }
    out = {}
    for name, kws in cfg.items():
        for i, kw in enumerate(kws):
            for fe in [False, True]:
                ps = _params(T, (2,), (3,), seed=4)
                opt = getattr(T.optim, name)(ps, lr=0.01, foreach=fe, **kw)
                rows = []
                for _ in range(3):
                    opt.zero_grad()
                    sum(((p - 1) ** 2 * (j + 1)).sum() for j, p in enumerate(ps)).backward()
                    v = [p.grad._version for p in ps]
                    opt.step()
                    versions = [p.grad._version - x for p, x in zip(ps, v, strict=True)]
                    rows.append(([p.grad for p in ps], versions, [p.detach().clone() for p in ps]))
                out[f"{name}{i}-{fe}"] = rows
    return out


@program()
def prog_optim_sgd_nesterov_grad_accumulation_foreach(T: Any) -> Any:
    # gradients accumulated over steps without zero_grad: torch's foreach nesterov update
    # feeds the previous step's nesterov term back through p.grad
    out = {}
    for fe in [False, True]:
        a, b, c = _params(T, (2,), (2,), (2,), seed=1)
        opt = T.optim.SGD([a, b, c], lr=0.1, momentum=0.9, nesterov=True, foreach=fe)
        a.grad = T.ones(2)
        c.grad = T.ones(2) * 2
        opt.step()
        b.grad = T.ones(2)
        opt.step()
        x = T.tensor(_data(4, 2))
        (x @ a + x @ b).sum().backward()
        opt.step()
        out[str(fe)] = (a, b, c, a.grad, b.grad, _state(opt))
    return out


@program()
def prog_optim_capturable_and_fused_flag_errors(T: Any) -> Any:
    ps = _params(T, (2,))
    return {
        "adam_fused_foreach": raises(lambda: T.optim.Adam(ps, fused=True, foreach=True)),
        "sgd_fused_foreach": raises(lambda: T.optim.SGD(ps, lr=0.1, fused=True, foreach=True)),
        "adam_fused_cpu": raises(lambda: T.optim.Adam(ps, fused=True).step()),
        "adam_capturable_cpu_step": raises(
            lambda: _with_grad(T, ps, T.optim.Adam(ps, capturable=True)).step()
        ),
        "adam_differentiable_fused": raises(
            lambda: T.optim.Adam(ps, fused=True, differentiable=True)
        ),
        "adagrad_fused_foreach": raises(lambda: T.optim.Adagrad(ps, fused=True, foreach=True)),
        "nesterov_no_momentum": raises(lambda: T.optim.SGD(ps, lr=0.1, nesterov=True)),
        "nesterov_dampening": raises(
            lambda: T.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, dampening=0.1)
        ),
        "neg_lr": raises(lambda: T.optim.Adam(ps, lr=-1.0)),
        "bad_beta": raises(lambda: T.optim.Adam(ps, betas=(1.0, 0.9))),
        "bad_beta2": raises(lambda: T.optim.AdamW(ps, betas=(0.9, -0.1))),
        "neg_eps": raises(lambda: T.optim.Adam(ps, eps=-1e-8)),
        "neg_wd": raises(lambda: T.optim.SGD(ps, lr=0.1, weight_decay=-1)),
        "neg_mom": raises(lambda: T.optim.SGD(ps, lr=0.1, momentum=-0.5)),
        "rms_alpha": raises(lambda: T.optim.RMSprop(ps, alpha=-0.1)),
        "adadelta_rho": raises(lambda: T.optim.Adadelta(ps, rho=1.5)),
        "rprop_etas": raises(lambda: T.optim.Rprop(ps, etas=(1.5, 1.2))),
        "adagrad_lr_decay": raises(lambda: T.optim.Adagrad(ps, lr_decay=-0.1)),
        "adagrad_init_acc": raises(lambda: T.optim.Adagrad(ps, initial_accumulator_value=-1)),
        "nadam_md": raises(lambda: T.optim.NAdam(ps, momentum_decay=-0.1)),
        "tensor_lr_foreach": raises(lambda: T.optim.Adam(ps, lr=T.tensor([0.1, 0.2]))),
    }


def _with_grad(T: Any, ps: list[Any], opt: Any) -> Any:
    for p in ps:
        p.grad = T.ones_like(p)
    return opt


@program()
def prog_optim_zero_grad_set_to_none_false_and_step_none(T: Any) -> Any:
    a, b = _params(T, (2,), (3,))
    opt = T.optim.SGD([a, b], lr=0.1, momentum=0.9)
    (a.sum() * 2).backward()
    g_before = a.grad
    opt.step()
    st1 = _state(opt)
    opt.zero_grad(set_to_none=False)
    after = (a.grad, b.grad, a.grad is g_before)
    a.grad.requires_grad_(False)
    ret = opt.step()
    st2 = _state(opt)
    opt.zero_grad()
    return {"after": after, "st1": st1, "st2": st2, "ret": ret, "none": (a.grad, b.grad)}


@program()
def prog_optim_zero_grad_on_grad_with_graph(T: Any) -> Any:
    a = _params(T, (2,))[0]
    opt = T.optim.SGD([a], lr=0.1)
    x = T.ones(2, requires_grad=True)
    a.grad = x * 2  # a grad that has a grad_fn
    opt.zero_grad(set_to_none=False)
    g = a.grad
    return {"g": g, "rg": g.requires_grad, "gf": g.grad_fn, "leaf": g.is_leaf}


@program()
def prog_optim_add_param_group_errors_and_defaults(T: Any) -> Any:
    a, b, c, d = _params(T, (2,), (2,), (2,), (2,))
    opt = T.optim.Adam([a], lr=0.01, betas=(0.8, 0.99))
    opt.add_param_group({"params": b, "lr": 0.1})
    opt.add_param_group({"params": [c], "weight_decay": 0.5, "custom": "x"})
    return {
        "groups": opt.state_dict()["param_groups"],
        "dup": raises(lambda: opt.add_param_group({"params": [a]})),
        "not_dict": raises(lambda: opt.add_param_group([d])),
        "set": raises(lambda: opt.add_param_group({"params": {d}})),
        "non_leaf": raises(lambda: opt.add_param_group({"params": [d * 2]})),
        "not_tensor": raises(lambda: opt.add_param_group({"params": [1.0]})),
        "no_lr_sgd": raises(lambda: T.optim.SGD([a]).add_param_group({"params": [d]})),
        "sgd_none_lr": raises(lambda: T.optim.SGD([{"params": [a]}])),
        "empty": raises(lambda: T.optim.SGD([], lr=0.1)),
        "tensor_params": raises(lambda: T.optim.SGD(a, lr=0.1)),
        "dup_in_group": raises(lambda: T.optim.SGD([a, a], lr=0.1)),
        "count": len(opt.param_groups),
    }


@program()
def prog_optim_load_state_dict_mismatched_groups(T: Any) -> Any:
    a, b, c = _params(T, (2,), (3,), (4,))
    opt = T.optim.Adam([{"params": [a]}, {"params": [b, c], "lr": 0.1}], lr=0.01)
    _quad_steps(T, opt, [a, b, c], 1)
    sd = opt.state_dict()
    a2, b2, c2 = _params(T, (2,), (3,), (4,))
    out = {
        "n_groups": raises(lambda: T.optim.Adam([a2, b2, c2]).load_state_dict(sd)),
        "sizes": raises(
            lambda: T.optim.Adam([{"params": [a2, b2]}, {"params": [c2]}]).load_state_dict(sd)
        ),
    }
    ok = T.optim.Adam([{"params": [a2]}, {"params": [b2, c2]}], lr=0.5)
    ok.load_state_dict(sd)
    out["loaded_groups"] = ok.param_groups[1]["lr"], ok.param_groups[0]["lr"]
    out["state"] = _state(ok)
    out["missing_key"] = raises(lambda: ok.load_state_dict({"state": {}}))
    d2 = T.optim.Adam([{"params": [a2]}, {"params": [b2, c2]}])
    sd_half = {"state": {}, "param_groups": sd["param_groups"]}
    d2.load_state_dict(sd_half)
    out["half"] = (_state(d2), d2.param_groups[1]["lr"])
    return out


@program()
def prog_optim_load_state_dict_casts_and_step_dtype(T: Any) -> Any:
    a = T.nn.Parameter(T.tensor(_data(3)).double())
    opt = T.optim.Adam([a], lr=0.1)
    f = _params(T, (3,))[0]
    src = T.optim.Adam([f], lr=0.1)
    _quad_steps(T, src, [f], 2)
    opt.load_state_dict(src.state_dict())
    st = opt.state[a]
    res = {k: (v.dtype, v) for k, v in st.items()}
    _quad_steps(T, opt, [a], 1)
    return {"loaded": res, "after": _state(opt)}


@program()
def prog_optim_step_hooks_global_and_local(T: Any) -> Any:
    om = importlib.import_module(T.__name__ + ".optim.optimizer")
    log = []
    a = _params(T, (2,))[0]
    opt = T.optim.SGD([a], lr=0.1)
    h1 = opt.register_step_pre_hook(lambda o, args, kw: log.append(("pre", args, kw)))
    h2 = opt.register_step_post_hook(lambda o, args, kw: log.append(("post", len(args))))
    g1 = om.register_optimizer_step_pre_hook(
        lambda o, a_, k: log.append(("gpre", type(o).__name__))
    )
    g2 = om.register_optimizer_step_post_hook(lambda o, a_, k: log.append("gpost"))
    try:
        a.grad = T.ones(2)
        opt.step()

        def changes_args(o, args, kw):
            return ((o, lambda: log.append("closure2") or T.tensor(5.0)), {})

        h3 = opt.register_step_pre_hook(changes_args)
        r = opt.step(lambda: log.append("closure1") or T.tensor(1.0))
        h3.remove()
        bad = opt.register_step_pre_hook(lambda o, args, kw: 5)
        err = raises(opt.step)
        bad.remove()
        h1.remove()
        h2.remove()
    finally:
        g1.remove()
        g2.remove()
    opt.step()
    return {"log": log, "r": r, "err": err, "a": a}


@program()
def prog_optim_state_dict_hooks(T: Any) -> Any:
    a, b = _params(T, (2,), (3,))
    opt = T.optim.Adam([a, b], lr=0.1)
    _quad_steps(T, opt, [a, b], 1)
    log = []

    def pre_sd(o):
        log.append("pre_sd")

    def post_sd(o, sd):
        log.append(("post_sd", sorted(sd)))
        sd["extra"] = 1
        return sd

    def pre_load(o, sd):
        log.append(("pre_load", sorted(sd)))
        sd = dict(sd)
        sd.pop("extra")
        return sd

    def post_load(o):
        log.append(("post_load", o.param_groups[0]["lr"]))

    opt.register_state_dict_pre_hook(pre_sd)
    opt.register_state_dict_post_hook(post_sd)
    sd = opt.state_dict()
    opt2 = T.optim.Adam([a, b], lr=0.5)
    opt2.register_load_state_dict_pre_hook(pre_load)
    opt2.register_load_state_dict_post_hook(post_load)
    opt2.load_state_dict(sd)
    plain = T.optim.Adam([a, b])
    return {
        "log": log,
        "extra": sd.get("extra"),
        "plain": raises(lambda: plain.load_state_dict(sd)),
    }


@program()
def prog_optim_capturable_on_cpu_every_optimizer(T: Any) -> Any:
    out = {}
    for name in ["Adam", "AdamW", "Adamax", "NAdam", "RAdam", "ASGD", "Adadelta", "RMSprop",
                 "Rprop"]:  # fmt: skip
        for fe in [None, True]:
            a, b = _params(T, (2,), (3,))
            opt = getattr(T.optim, name)([a, b], lr=0.1, capturable=True, foreach=fe)
            b.grad = T.ones(3)
            err = raises(opt.step)
            out[f"{name}-{fe}"] = (err, _state(opt), b)
    a = _params(T, (2,))[0]
    opt = T.optim.Adam([{"params": [a], "capturable": False}], lr=0.1, capturable=True)
    a.grad = T.ones(2)
    opt.step()
    out["group_off"] = (a, _state(opt))
    out["no_grads"] = raises(T.optim.RMSprop(_params(T, (2,)), capturable=True).step)
    return out


@program()
def prog_optim_adam_tensor_lr_and_betas(T: Any) -> Any:
    out = {}
    for kw in [
        {"lr": T.tensor(0.05)},
        {"lr": T.tensor([0.05])},
        {"betas": (T.tensor(0.8), T.tensor(0.9))},
        {"betas": (T.tensor([0.8]), T.tensor(0.9))},
    ]:
        a = _params(T, (3,), seed=2)[0]
        opt = T.optim.Adam([a], **kw)
        steps = _quad_steps(T, opt, [a], 2)
        out[str(sorted(kw))] = (steps, opt.param_groups[0]["betas"], opt.param_groups[0]["lr"])
    ps = _params(T, (2,))
    out["errs"] = [
        raises(lambda: T.optim.Adam(ps, lr=T.tensor(0.1), foreach=True)),
        raises(lambda: T.optim.Adam(ps, lr=T.tensor([0.1, 0.2]))),
        raises(lambda: T.optim.Adam(ps, betas=(T.tensor(0.9), 0.99))),
        raises(lambda: T.optim.Adam(ps, betas=(T.tensor(0.9), T.tensor(0.9)), foreach=True)),
        raises(lambda: T.optim.Adam(ps, betas=(T.tensor([0.9, 0.8]), T.tensor(0.9)))),
        raises(lambda: T.optim.SGD(ps, lr=T.tensor([0.1, 0.2]))),
        raises(lambda: T.optim.RMSprop(ps, lr=T.tensor([0.1, 0.2]))),
        raises(lambda: T.optim.Adagrad(ps, lr=T.tensor([0.1, 0.2]))),
        raises(lambda: T.optim.AdamW(ps, lr=T.tensor([0.1, 0.2]))),
    ]
    return out


@program()
def prog_lbfgs_strong_wolfe_rosenbrock_history(T: Any) -> Any:
    x = T.nn.Parameter(T.tensor([-1.2, 1.0], dtype=T.float64))
    opt = T.optim.LBFGS([x], lr=1, max_iter=15, history_size=4, line_search_fn="strong_wolfe")
    evals = []

    def closure():
        opt.zero_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        loss.backward()
        evals.append(loss.item())
        return loss

    losses = [opt.step(closure) for _ in range(3)]
    st = opt.state[x]
    return {
        "x": x,
        "losses": losses,
        "n_evals": len(evals),
        "evals": evals[:12],
        "func_evals": st["func_evals"],
        "n_iter": st["n_iter"],
        "hist": len(st["old_dirs"]),
        "t": st["t"],
        "sd_keys": sorted(opt.state_dict()["state"][0]),
    }


@program()
def prog_lbfgs_plain_tolerances_and_errors(T: Any) -> Any:
    w = T.nn.Parameter(T.tensor(_data(3)))
    tgt = T.tensor([1.0, -2.0, 0.5])
    opt = T.optim.LBFGS([w], lr=0.5, max_iter=4, max_eval=6, tolerance_grad=1e-3,
                        tolerance_change=1e-6)  # fmt: skip
    n = [0]

    def closure():
        n[0] += 1
        opt.zero_grad()
        loss = ((w - tgt) ** 2).sum() + (w**4).sum() * 0.01
        loss.backward()
        return loss

    out = [(opt.step(closure), w.detach().clone(), n[0]) for _ in range(3)]
    a, b = _params(T, (2,), (2,))
    return {
        "out": out,
        "groups": raises(lambda: T.optim.LBFGS([{"params": [a]}, {"params": [b]}])),
        "bad_ls": raises(
            lambda: T.optim.LBFGS([a], line_search_fn="armijo").step(lambda: (a**2).sum())
        ),
        "no_closure": raises(lambda: T.optim.LBFGS([a]).step()),
        "defaults": T.optim.LBFGS([a]).defaults,
    }


@program()
def prog_lbfgs_model_fit_with_strong_wolfe(T: Any) -> Any:
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1)), 3)
    x = T.tensor(_data(8, 3))
    y = T.tensor(_data(8, 1, seed=1))
    opt = T.optim.LBFGS(model.parameters(), lr=0.8, max_iter=5, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss

    losses = [opt.step(closure).detach() for _ in range(2)]
    return {"losses": losses, "params": dict(model.named_parameters())}


# --- swa_utils -------------------------------------------------------------------------------


@program()
def prog_swa_averaged_model_ema_and_custom_avg(T: Any) -> Any:
    swa = T.optim.swa_utils
    model = _seeded(T, T.nn.Sequential(T.nn.Linear(2, 3), T.nn.BatchNorm1d(3)), 4)
    ema = swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9))
    ema_buf = swa.AveragedModel(model, multi_avg_fn=swa.get_ema_multi_avg_fn(0.5),
                                use_buffers=True)  # fmt: skip
    custom = swa.AveragedModel(model, avg_fn=lambda avg, new, n: avg * 0.25 + new * 0.75)
    plain = swa.AveragedModel(model)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    x = T.tensor(_data(5, 2))
    for _ in range(3):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        for m in (ema, ema_buf, custom, plain):
            m.update_parameters(model)
    return {
        "ema": dict(ema.named_parameters()),
        "ema_buf": dict(ema_buf.state_dict()),
        "custom": list(custom.parameters()),
        "plain": dict(plain.state_dict()),
        "n": (ema.n_averaged, plain.n_averaged, ema_buf.n_averaged),
        "names": [k for k, _ in plain.named_modules()],
        "out": plain(x),
    }


@program()
def prog_swa_swalr_strategies_and_errors(T: Any) -> Any:
    swa = T.optim.swa_utils
    out = {}
    for strat in ["cos", "linear"]:
        opt = _opt(T, lr=1.0, n=2)
        opt.param_groups[1]["lr"] = 0.5
        sch = swa.SWALR(opt, swa_lr=[0.1, 0.2], anneal_epochs=3, anneal_strategy=strat)
        out[strat] = (sch.get_last_lr(), _trace(opt, sch, 5), sch.state_dict())
    opt = _opt(T, lr=1.0)
    out["zero_anneal"] = _trace(opt, swa.SWALR(opt, swa_lr=0.05, anneal_epochs=0), 2)
    out["bad_strat"] = raises(lambda: swa.SWALR(_opt(T), 0.1, anneal_strategy="exp"))
    out["bad_epochs"] = raises(lambda: swa.SWALR(_opt(T), 0.1, anneal_epochs=-1))
    out["bad_len"] = raises(lambda: swa.SWALR(_opt(T), [0.1, 0.2]))
    return out


@program()
def prog_swa_update_bn_with_dict_batches_and_momentum(T: Any) -> Any:
    swa = T.optim.swa_utils
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3, momentum=0.3)), 6)
    loader = [T.tensor(_data(4, 2, seed=i)) for i in range(3)]
    with T.no_grad():
        model[1].running_mean.fill_(5.0)
    swa.update_bn(loader, model)
    after = (model[1].running_mean, model[1].running_var, model[1].momentum, model.training)
    tuple_loader = [(T.tensor(_data(4, 2, seed=i)), T.zeros(4)) for i in range(2)]
    model.eval()
    swa.update_bn(tuple_loader, model)
    no_bn = nn.Linear(2, 2)
    swa.update_bn(loader, no_bn)
    return {
        "after": after,
        "tuple": (model[1].running_mean, model[1].num_batches_tracked, model.training),
    }


# --- Module API ------------------------------------------------------------------------------


class _Block:
    """A nested model factory: Block(conv+bn) inside a Net with a ModuleDict head."""

    @staticmethod
    def make(T: Any) -> Any:
        nn = T.nn

        class Block(nn.Module):
            def __init__(self, c):
                super().__init__()
                self.conv = nn.Conv1d(c, c, 3, padding=1, bias=False)
                self.bn = nn.BatchNorm1d(c)
                self.register_buffer("scale", T.ones(c))
                self.register_buffer("tmp", T.zeros(1), persistent=False)

            def forward(self, x):
                return T.relu(self.bn(self.conv(x))) * self.scale[:, None] + x

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = nn.Conv1d(1, 2, 1)
                self.blocks = nn.Sequential(Block(2), Block(2))
                self.heads = nn.ModuleDict({"a": nn.Linear(8, 2), "b": nn.Linear(8, 3)})
                self.temp = nn.Parameter(T.tensor(1.5))

            def forward(self, x, head="a"):
                h = self.blocks(self.stem(x)).flatten(1)
                return self.heads[head](h) / self.temp

        return _seeded(T, Net(), 11)


@program()
def prog_module_state_dict_strict_error_messages(T: Any) -> Any:
    net = _Block.make(T)
    sd = net.state_dict()
    keys = list(sd)
    missing = {k: v for k, v in sd.items() if "heads.b" not in k}
    extra = dict(sd, **{"blocks.0.extra": T.ones(1), "unknown.weight": T.ones(2)})
    wrong = dict(sd)
    wrong["heads.a.weight"] = T.ones(2, 9)
    wrong["blocks.1.bn.running_mean"] = T.ones(3)
    both = dict(missing, **{"foo": T.ones(1)})
    both["stem.bias"] = T.ones(5)
    fresh = _Block.make(T)
    res_nonstrict = fresh.load_state_dict(both | {"stem.bias": T.ones(2)}, strict=False)
    return {
        "keys": keys,
        "missing": raises(lambda: fresh.load_state_dict(missing)),
        "extra": raises(lambda: fresh.load_state_dict(extra)),
        "wrong": raises(lambda: fresh.load_state_dict(wrong)),
        "both": raises(lambda: fresh.load_state_dict(both)),
        "nonstrict": (res_nonstrict, res_nonstrict.missing_keys, res_nonstrict.unexpected_keys),
        "nonstrict_size": raises(lambda: fresh.load_state_dict(wrong, strict=False)),
        "not_mapping": raises(lambda: fresh.load_state_dict([1, 2])),
        "ok": str(fresh.load_state_dict(sd)),
        "bias_after": fresh.stem.bias,
    }


@program()
def prog_module_load_state_dict_assign_and_versions(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)), 1)
    src = {k: v.clone() * 2 for k, v in m.state_dict().items()}
    src["1.num_batches_tracked"] = T.tensor(7)
    w_before = m[0].weight
    m.load_state_dict(src)
    copied = (m[0].weight is w_before, m[0].weight._version, m[1].num_batches_tracked)
    src2 = {k: v.clone() for k, v in src.items()}
    src2["0.weight"] = src2["0.weight"].double()
    m2 = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)), 1)
    m2.load_state_dict(src2, assign=True)
    w = m2[0].weight
    m3 = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)), 1)
    m3.load_state_dict(src2)
    return {
        "copied": copied,
        "assigned": (type(w).__name__, w.dtype, w.requires_grad, w is src2["0.weight"]),
        "rm_is": m2[1].running_mean is src2["1.running_mean"],
        "copy_cast": (m3[0].weight.dtype, m3[0].weight),
        "assign_frozen": _assign_frozen(T),
    }


def _assign_frozen(T: Any) -> Any:
    m = T.nn.Linear(2, 2)
    m.weight.requires_grad_(False)
    m.load_state_dict({"weight": T.ones(2, 2), "bias": T.zeros(2)}, assign=True)
    return (m.weight.requires_grad, m.bias.requires_grad, type(m.weight).__name__)


@program()
def prog_module_named_members_prefix_and_duplicates(T: Any) -> Any:
    nn = T.nn
    shared = nn.Linear(2, 2)
    seq = nn.Sequential(shared, nn.ReLU(), shared, nn.Sequential(shared, nn.Tanh()))
    seq.register_buffer("b", T.zeros(1))
    seq[3].register_buffer("b2", seq.b)
    return {
        "params": [k for k, _ in seq.named_parameters()],
        "params_dup": [k for k, _ in seq.named_parameters(remove_duplicate=False)],
        "params_prefix": [k for k, _ in seq.named_parameters(prefix="model")],
        "params_norec": [k for k, _ in seq.named_parameters(recurse=False)],
        "mods": [k for k, _ in seq.named_modules()],
        "mods_dup": [k for k, _ in seq.named_modules(remove_duplicate=False)],
        "mods_prefix": [k for k, _ in seq.named_modules(prefix="root")],
        "bufs": [k for k, _ in seq.named_buffers()],
        "bufs_dup": [k for k, _ in seq.named_buffers(remove_duplicate=False)],
        "bufs_prefix": [k for k, _ in seq.named_buffers(prefix="p", recurse=False)],
        "children": [k for k, _ in seq.named_children()],
        "n_params": sum(p.numel() for p in seq.parameters()),
        "sd": list(seq.state_dict()),
        "sd_prefix": list(seq.state_dict(prefix="x.")),
    }


@program()
def prog_module_apply_requires_grad_zero_grad_train(T: Any) -> Any:
    net = _Block.make(T)
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    net.requires_grad_(False)
    net.heads.requires_grad_()
    rg = {k: p.requires_grad for k, p in net.named_parameters()}
    out = net(T.tensor(_data(2, 1, 4)), head="b")
    out.sum().backward()
    grads = {k: p.grad for k, p in net.named_parameters()}
    net.zero_grad()
    after = {k: p.grad for k, p in net.named_parameters()}
    net.eval()
    modes = [m.training for m in net.modules()]
    net.blocks.train()
    modes2 = [m.training for m in net.modules()]
    r = net.train(False)
    return {
        "seen": seen,
        "rg": rg,
        "grads": grads,
        "after": after,
        "modes": modes,
        "modes2": modes2,
        "ret": r is net,
        "bad_train": raises(lambda: net.train("yes")),
    }


@program()
def prog_module_print_nested_and_extra_repr(T: Any) -> Any:
    nn = T.nn
    net = _Block.make(T)

    class WithExtra(nn.Module):
        def __init__(self):
            super().__init__()
            self.k = 3
            self.inner = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.1))

        def extra_repr(self):
            return f"k={self.k},\nmultiline=True"

    containers = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)] + [nn.ReLU(), nn.ReLU()])
    pl = nn.ParameterList([nn.Parameter(T.ones(2)), T.zeros(3, dtype=T.float64)])
    pd = nn.ParameterDict({"a": nn.Parameter(T.ones(1, 2)), "b": T.zeros(2)})
    return {
        "net": repr(net),
        "extra": repr(WithExtra()),
        "list": repr(containers),
        "plist": repr(pl),
        "pdict": repr(pd),
        "empty": (repr(nn.Sequential()), repr(nn.ModuleDict()), repr(nn.ParameterList())),
        "misc": [
            repr(m)
            for m in [
                nn.Conv2d(
                    2,
                    4,
                    (3, 5),
                    stride=1,
                    padding="same",
                    dilation=(2, 1),
                    groups=2,
                    bias=False,
                    padding_mode="reflect",
                ),
                nn.LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True),
                nn.Embedding(10, 3, padding_idx=0, max_norm=1.0, sparse=True),
                nn.BatchNorm2d(3, affine=False, track_running_stats=False),
                nn.LayerNorm((3, 4), elementwise_affine=False),
                nn.GroupNorm(2, 4, eps=1e-3),
                nn.MultiheadAttention(4, 2, kdim=3, vdim=5),
                nn.TransformerEncoderLayer(4, 2, 8),
                nn.Upsample(scale_factor=2.0, mode="bilinear"),
                nn.MaxPool2d(2, ceil_mode=True, return_indices=True),
                nn.AdaptiveAvgPool2d((None, 3)),
                nn.Softmax(dim=-1),
                nn.Flatten(0, 2),
                nn.Unflatten(1, (2, 3)),
                nn.Identity(3, k=4),
                nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=2),
                nn.PReLU(3, init=0.1),
                nn.Hardtanh(-2.0, 2.0, inplace=True),
                nn.ELU(alpha=0.5),
                nn.Threshold(0.1, 20.0),
            ]
        ],
    }


@program()
def prog_module_list_dict_operations(T: Any) -> Any:
    nn = T.nn
    ml = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()])
    ml.append(nn.Tanh())
    ml.extend([nn.Sigmoid(), nn.GELU()])
    ml.insert(1, nn.Identity())
    ml[0] = nn.Linear(1, 2)
    del ml[2]
    sl = ml[1:3]
    ml2 = ml + nn.ModuleList([nn.ELU()])
    popped = ml.pop(1)
    md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
    md.update([("c", nn.GELU())])
    md["d"] = nn.Identity()
    pm = md.pop("a")
    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    seq.append(nn.Sigmoid())
    seq.insert(0, nn.Identity())
    seq.extend([nn.Flatten()])
    del seq[1:3]
    return {
        "ml": repr(ml),
        "sl": (type(sl).__name__, repr(sl)),
        "ml2": [type(m).__name__ for m in ml2],
        "popped": repr(popped),
        "len": len(ml),
        "neg": repr(ml[-1]),
        "idx_err": raises(lambda: ml[10]),
        "md": (list(md.keys()), repr(md), repr(pm), "c" in md),
        "md_bad": raises(lambda: md.update(5)),
        "md_bad2": raises(lambda: md.update([("x",)])),
        "md_key": raises(lambda: md["zz"]),
        "seq": repr(seq),
        "seq_slice": repr(seq[1:]),
        "seq_keys": [k for k, _ in seq.named_children()],
        "mul": repr(nn.Sequential(nn.ReLU()) * 2),
        "bad_append": raises(lambda: ml.append(5)),
        "bad_setitem": raises(lambda: ml.__setitem__(0, "x")),
    }


@program()
def prog_parameter_list_and_dict_operations(T: Any) -> Any:
    nn = T.nn
    pl = nn.ParameterList([nn.Parameter(T.ones(2)), T.zeros(3)])
    pl.append(nn.Parameter(T.full((1,), 2.0)))
    pl.extend([T.ones(1, 1)])
    pl[0] = nn.Parameter(T.tensor([3.0, 4.0]))
    types = [(type(p).__name__, p.requires_grad) for p in pl]
    pd = nn.ParameterDict({"w": nn.Parameter(T.ones(2)), "s": "a string", "n": 5})
    pd["t"] = T.zeros(2)
    pd.update({"u": T.ones(1)})
    popped = pd.pop("u")
    m = nn.Module()
    m.pl = pl
    m.pd = pd
    s = sum(p.sum() for p in m.parameters())
    s.backward()
    return {
        "types": types,
        "pd_types": {k: type(v).__name__ for k, v in pd.items()},
        "pd_keys": list(pd.keys()),
        "popped": (type(popped).__name__, popped),
        "names": [k for k, _ in m.named_parameters()],
        "grads": [p.grad for p in m.parameters()],
        "sd": list(m.state_dict()),
        "copy": [k for k, _ in pd.copy().items()],
        "get": pd.get("zz", "dflt"),
        "fromkeys": list(nn.ParameterDict().fromkeys(["a", "b"], T.ones(1)).keys()),
        "pl_or": raises(lambda: pl | pl),
        "pd_or": list((pd | nn.ParameterDict({"z": T.ones(1)})).keys()),
        "dir_ok": "w" in pd,
        "reversed": list(reversed(pd)),
    }


@program()
def prog_module_forward_hooks_with_kwargs_order(T: Any) -> Any:
    nn = T.nn
    log = []

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)

        def forward(self, x, scale=1.0, *, shift=0.0):
            log.append(("fwd", scale, shift))
            return self.lin(x) * scale + shift

    m = _seeded(T, M(), 2)

    def pre1(mod, args):
        log.append(("pre1", len(args)))

    def pre2(mod, args, kwargs):
        log.append(("pre2", sorted(kwargs)))
        return args, dict(kwargs, shift=1.0)

    def post1(mod, args, out):
        log.append("post1")
        return out * 2

    def post2(mod, args, kwargs, out):
        log.append(("post2", sorted(kwargs)))

    h1 = m.register_forward_pre_hook(pre1)
    h2 = m.register_forward_pre_hook(pre2, with_kwargs=True, prepend=True)
    h3 = m.register_forward_hook(post1)
    h4 = m.register_forward_hook(post2, with_kwargs=True, prepend=True)
    x = T.tensor(_data(1, 2))
    y1 = m(x, 2.0, shift=0.5)
    h2.remove()
    y2 = m(x, scale=3.0)
    for h in (h1, h3, h4):
        h.remove()
    y3 = m(x)

    def bad(mod, args, kwargs):
        return (x,)

    m.register_forward_pre_hook(bad, with_kwargs=True)
    return {"log": log, "y": (y1, y2, y3), "bad": raises(lambda: m(x))}


@program()
def prog_module_full_backward_hooks_multi_layer(T: Any) -> Any:
    nn = T.nn
    log = []
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 5)

    def bw(name):
        def hook(mod, gin, gout):
            log.append((name, [g if g is None else g.shape for g in gin], [g for g in gout]))
            if name == "relu":
                return (gin[0] * 0.5,)

        return hook

    def bw_pre(mod, gout):
        log.append(("pre", gout[0]))
        return (gout[0] * 2,)

    for i, name in enumerate(["lin1", "relu", "lin2"]):
        model[i].register_full_backward_hook(bw(name))
    model[2].register_full_backward_pre_hook(bw_pre)
    x = T.tensor(_data(2, 3), requires_grad=True)
    y = model(x)
    y.sum().backward()
    x2 = T.tensor(_data(2, 3))
    model(x2).sum().backward()
    return {"log": log, "xg": x.grad, "wg": model[0].weight.grad, "y_gf": y.grad_fn}


@program()
def prog_module_state_dict_pre_post_hooks_and_load_hooks(T: Any) -> Any:
    nn = T.nn
    log = []
    m = _seeded(T, nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1)), 3)

    def sd_pre(mod, prefix, keep_vars):
        log.append(("sd_pre", type(mod).__name__, prefix, keep_vars))

    def sd_post(mod, sd, prefix, local_metadata):
        log.append(("sd_post", prefix, sorted(sd)))
        sd[prefix + "extra"] = T.tensor(1.0)

    def load_pre(mod, sd, prefix, local_metadata, strict, missing, unexpected, errors):
        log.append(("load_pre", prefix, strict))
        sd.pop(prefix + "1.extra", None)

    def load_post(mod, incompatible):
        log.append(("load_post", list(incompatible.missing_keys), incompatible.unexpected_keys))
        incompatible.missing_keys.clear()

    m[0].register_state_dict_pre_hook(sd_pre)
    m[1].register_state_dict_post_hook(sd_post)
    m.register_load_state_dict_pre_hook(load_pre)
    m.register_load_state_dict_post_hook(load_post)
    sd = m.state_dict(keep_vars=True)
    sd2 = {k: v for k, v in sd.items() if k != "1.bias"}
    r = m.load_state_dict(sd2)
    return {"log": log, "keys": list(sd), "r": str(r), "grad_fn": sd["0.weight"].requires_grad}


@program()
def prog_module_get_submodule_parameter_buffer_errors(T: Any) -> Any:
    net = _Block.make(T)
    return {
        "sub": repr(net.get_submodule("blocks.1.bn")),
        "root": net.get_submodule("") is net,
        "missing": raises(lambda: net.get_submodule("blocks.5")),
        "not_mod": raises(lambda: net.get_submodule("temp.x")),
        "attr_not_mod": raises(lambda: net.get_submodule("blocks.0.scale")),
        "param": net.get_parameter("heads.a.bias"),
        "param_top": net.get_parameter("temp"),
        "param_buf": raises(lambda: net.get_parameter("blocks.0.scale")),
        "param_missing": raises(lambda: net.get_parameter("heads.a.nope")),
        "buffer": net.get_buffer("blocks.0.bn.running_var"),
        "buffer_param": raises(lambda: net.get_buffer("stem.weight")),
        "buffer_missing": raises(lambda: net.get_buffer("blocks.0.zz")),
        "extra_state": raises(lambda: net.get_extra_state()),
        "set_sub": (net.set_submodule("heads.a", T.nn.Identity()), repr(net.heads)),
        "set_missing": raises(lambda: net.set_submodule("nope.x", T.nn.ReLU())),
    }


@program()
def prog_module_setattr_rules(T: Any) -> Any:
    nn = T.nn
    m = nn.Linear(2, 2)
    out = {}
    out["tensor_to_param"] = raises(lambda: setattr(m, "weight", T.ones(2, 2)))
    m.weight = None
    out["none"] = (m.weight, [k for k, _ in m.named_parameters()])
    m.weight = nn.Parameter(T.ones(2, 2))
    out["reassign"] = [k for k, _ in m.named_parameters()]
    m.register_buffer("buf", T.zeros(2))
    m.buf = T.ones(2)
    out["buf_tensor"] = m.buf
    out["buf_param"] = raises(lambda: setattr(m, "buf", "str"))
    m.buf = None
    out["buf_none"] = (m.buf, list(m.state_dict()))
    out["param_before_init"] = _before_init(T)
    out["reg_param_bad"] = raises(lambda: m.register_parameter("x", T.ones(1)))
    out["reg_param_dot"] = raises(lambda: m.register_parameter("a.b", None))
    out["reg_param_empty"] = raises(lambda: m.register_parameter("", None))
    out["reg_param_exists"] = raises(lambda: m.register_parameter("buf", None))
    out["reg_buf_exists"] = raises(lambda: m.register_buffer("weight", T.ones(1)))
    out["reg_buf_bad"] = raises(lambda: m.register_buffer("x", 5))
    out["add_module_bad"] = raises(lambda: m.add_module("y", 5))
    out["add_module_dot"] = raises(lambda: m.add_module("y.z", nn.ReLU()))
    out["add_module_attr"] = raises(lambda: m.add_module("forward", nn.ReLU()))
    out["nonleaf_param"] = raises(lambda: nn.Parameter(T.ones(2, requires_grad=True) * 2))
    m.plain = 3
    del m.plain
    del m.buf
    out["after_del"] = (list(m.state_dict()), hasattr(m, "buf"))
    out["getattr_missing"] = raises(lambda: m.nothing)
    return out


def _before_init(T: Any) -> Any:
    class Bad(T.nn.Module):
        def __init__(self):
            self.w = T.nn.Parameter(T.ones(1))
            super().__init__()

    class Bad2(T.nn.Module):
        def __init__(self):
            self.l = T.nn.Linear(1, 1)

    class Bad3(T.nn.Module):
        def __init__(self):
            self.register_buffer("b", T.ones(1))

    return [raises(Bad), raises(Bad2), raises(Bad3)]


@program()
def prog_shared_parameters_training_and_state_dict(T: Any) -> Any:
    nn = T.nn
    enc = nn.Linear(3, 2)
    dec = nn.Linear(2, 3)
    dec.weight = nn.Parameter(enc.weight.t().detach().clone())
    model = nn.Module()
    model.body = nn.Sequential(enc, nn.Tanh(), dec)
    model.shared_head = enc
    _seeded(T, model, 9)
    opt = T.optim.Adam(model.parameters(), lr=0.05)
    x = T.tensor(_data(4, 3))
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = ((model.body(x) - x) ** 2).mean() + model.shared_head(x).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    sd = model.state_dict()
    return {
        "losses": losses,
        "sd_keys": list(sd),
        "same_storage": sd["body.0.weight"].data_ptr() == sd["shared_head.weight"].data_ptr(),
        "n_params": len(list(model.parameters())),
        "n_state": len(opt.state),
        "enc_w": enc.weight,
    }


# --- parametrizations, pruning, clipping --------------------------------------------------------


@program()
def prog_parametrize_register_remove_and_train(T: Any) -> Any:
    nn = T.nn
    P = T.nn.utils.parametrize

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    class Scale(nn.Module):
        def __init__(self):
            super().__init__()
            self.s = nn.Parameter(T.tensor(2.0))

        def forward(self, X):
            return X * self.s

    m = _seeded(T, nn.Linear(3, 3), 4)
    P.register_parametrization(m, "weight", Symmetric())
    P.register_parametrization(m, "weight", Scale())
    names = [k for k, _ in m.named_parameters()]
    sd_keys = list(m.state_dict())
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    x = T.tensor(_data(2, 3))
    for _ in range(2):
        opt.zero_grad()
        m(x).pow(2).sum().backward()
        opt.step()
    w = m.weight
    with P.cached():
        c1 = m.weight
        c2 = m.weight
        cached_same = c1 is c2
    info = (P.is_parametrized(m), P.is_parametrized(m, "weight"), P.is_parametrized(m, "bias"))
    rep = repr(m)
    cls = type(m).__name__
    P.remove_parametrizations(m, "weight", leave_parametrized=True)
    after = (type(m).__name__, [k for k, _ in m.named_parameters()], m.weight)
    m2 = _seeded(T, nn.Linear(2, 2), 5)
    P.register_parametrization(m2, "weight", Symmetric())
    P.remove_parametrizations(m2, "weight", leave_parametrized=False)
    return {
        "names": names,
        "sd_keys": sd_keys,
        "w": w,
        "w_gf": w.grad_fn,
        "cached_same": cached_same,
        "info": info,
        "rep": rep,
        "cls": cls,
        "after": after,
        "m2": (m2.weight, P.is_parametrized(m2)),
        "remove_missing": raises(lambda: P.remove_parametrizations(m2, "weight")),
        "bad_name": raises(lambda: P.register_parametrization(m2, "nope", Symmetric())),
    }


@program()
def prog_parametrize_right_inverse_and_assignment(T: Any) -> Any:
    nn = T.nn
    P = T.nn.utils.parametrize

    class Exp(nn.Module):
        def forward(self, X):
            return X.exp()

        def right_inverse(self, Y):
            return Y.log()

    m = nn.Linear(2, 2)
    with T.no_grad():
        m.weight.copy_(T.tensor([[1.0, 2.0], [3.0, 4.0]]))
    P.register_parametrization(m, "weight", Exp())
    orig = m.parametrizations.weight.original
    m.weight = T.tensor([[1.0, 1.0], [2.0, 2.0]])
    after = (m.weight, m.parametrizations.weight.original)

    class NoInv(nn.Module):
        def forward(self, X):
            return X * 2

    m3 = nn.Linear(2, 2)
    P.register_parametrization(m3, "weight", NoInv())
    err = raises(lambda: setattr(m3, "weight", T.ones(2, 2)))

    class ChangesShape(nn.Module):
        def forward(self, X):
            return X[:1]

    bad_shape = raises(
        lambda: P.register_parametrization(nn.Linear(2, 2), "weight", ChangesShape())
    )
    return {"orig": orig, "after": after, "err": err, "bad_shape": bad_shape}


@program()
def prog_weight_norm_and_spectral_norm_parametrizations(T: Any) -> Any:
    nn = T.nn
    PZ = T.nn.utils.parametrizations
    T.manual_seed(0)
    lin = _seeded(T, nn.Linear(4, 3), 1)
    wn = PZ.weight_norm(lin, dim=0)
    g = wn.parametrizations.weight.original0
    v = wn.parametrizations.weight.original1
    x = T.tensor(_data(2, 4))
    wn(x).sum().backward()
    conv = _seeded(T, nn.Conv1d(2, 3, 2), 2)
    wn2 = PZ.weight_norm(conv, dim=None)
    sn_lin = _seeded(T, nn.Linear(4, 3), 3)
    T.manual_seed(1)
    sn = PZ.spectral_norm(sn_lin, n_power_iterations=3)
    ys = [sn(x) for _ in range(2)]
    sn.eval()
    ye = sn(x)
    return {
        "g": (g, g.grad),
        "v_grad": v.grad,
        "wn_w": wn.weight,
        "wn2": (wn2.parametrizations.weight.original0, wn2.weight),
        "sn_keys": list(sn.state_dict()),
        "sn_u": sn.parametrizations.weight[0]._u,
        "sn_w": sn.weight,
        "ys": ys,
        "ye": ye,
        "repr": repr(sn),
    }


@program()
def prog_prune_methods_and_remove(T: Any) -> Any:
    nn = T.nn
    prune = importlib.import_module(T.__name__ + ".nn.utils.prune")
    m = _seeded(T, nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2)), 7)
    prune.l1_unstructured(m[0], "weight", amount=0.5)
    prune.ln_structured(m[1], "weight", amount=1, n=2, dim=0)
    prune.random_unstructured(m[0], "bias", amount=1)
    mask_keys = [k for k, _ in m.named_buffers()]
    params = [k for k, _ in m.named_parameters()]
    hooks = [type(h).__name__ for h in m[0]._forward_pre_hooks.values()]
    prune.l1_unstructured(m[0], "weight", amount=2)
    container = m[0]._forward_pre_hooks
    cont = [type(h).__name__ for h in container.values()]
    masked = m[0].weight.clone()
    x = T.tensor(_data(2, 4))
    m(x).sum().backward()
    g = m[0].weight_orig.grad
    prune.remove(m[0], "weight")
    after = ([k for k, _ in m[0].named_parameters()], m[0].weight)
    return {
        "mask_keys": mask_keys,
        "params": params,
        "hooks": hooks,
        "cont": cont,
        "masked": masked,
        "g": g,
        "after": after,
        "is_pruned": (prune.is_pruned(m[0]), prune.is_pruned(m[1])),
        "bad_amount": raises(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", 1.5)),
        "bad_int": raises(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", 10)),
        "remove_unpruned": raises(lambda: prune.remove(nn.Linear(2, 2), "weight")),
    }


@program()
def prog_prune_global_and_custom_mask(T: Any) -> Any:
    nn = T.nn
    prune = importlib.import_module(T.__name__ + ".nn.utils.prune")
    m = _seeded(T, nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2)), 8)
    prune.global_unstructured(
        [(m[0], "weight"), (m[2], "weight")], pruning_method=prune.L1Unstructured, amount=0.4
    )
    counts = (int((m[0].weight == 0).sum()), int((m[2].weight == 0).sum()))
    prune.custom_from_mask(m[2], "bias", mask=T.tensor([1.0, 0.0]))
    prune.identity(m[0], "bias")
    x = T.tensor(_data(3, 4))
    y = m(x)
    return {
        "counts": counts,
        "bias": m[2].bias,
        "y": y,
        "masks": {k: v for k, v in m.named_buffers()},
        "bad_global": raises(lambda: prune.global_unstructured([], prune.L1Unstructured, amount=1)),
    }


@program()
def prog_clip_grad_norm_variants_and_nonfinite(T: Any) -> Any:
    U = T.nn.utils
    out = {}
    for norm in [2.0, 1, "inf", 0.5]:
        ps = _params(T, (3,), (2, 2), seed=1)
        for i, p in enumerate(ps):
            p.grad = T.tensor(_data(*p.shape, seed=10 + i)) * 3
        nt = float("inf") if norm == "inf" else norm
        tot = U.clip_grad_norm_(ps, max_norm=1.0, norm_type=nt)
        out[str(norm)] = (tot, [p.grad for p in ps])
    ps = _params(T, (3,))
    ps[0].grad = T.tensor([1.0, float("nan"), 2.0])
    out["nan_err"] = raises(lambda: U.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True))
    out["nan_ok"] = (U.clip_grad_norm_(ps, 1.0), ps[0].grad)
    ps[0].grad = T.tensor([1.0, float("inf"), 2.0])
    out["inf_err"] = raises(
        lambda: U.clip_grad_norm_(ps, 1.0, foreach=True, error_if_nonfinite=True)
    )
    q = _params(T, (2,))
    out["no_grads"] = U.clip_grad_norm_(q, 1.0)
    q[0].grad = T.tensor([3.0, 4.0])
    out["single_tensor"] = (U.clip_grad_norm_(q[0], 10.0), q[0].grad)
    out["value"] = (U.clip_grad_value_(q, 0.5), q[0].grad)
    q[0].grad = T.tensor([3.0, -4.0])
    U.clip_grad_value_(q[0], clip_value=1, foreach=True)
    out["value_foreach"] = q[0].grad
    out["get_total_norm"] = U.get_total_norm([T.ones(2), T.ones(3) * 2], norm_type=3.0)
    gs = [T.ones(2), T.ones(2) * 3]
    U.clip_grads_with_norm_(_with_grads(T, gs), max_norm=1.0, total_norm=T.tensor(5.0))
    return out


def _with_grads(T: Any, gs: list[Any]) -> list[Any]:
    ps = [T.nn.Parameter(T.zeros_like(g)) for g in gs]
    for p, g in zip(ps, gs, strict=True):
        p.grad = g
    return ps


@program()
def prog_parameters_to_vector_and_back(T: Any) -> Any:
    U = T.nn.utils
    m = _seeded(T, T.nn.Sequential(T.nn.Linear(2, 3), T.nn.Linear(3, 1)), 3)
    v = U.parameters_to_vector(m.parameters())
    U.vector_to_parameters(v * 2, m.parameters())
    v2 = U.parameters_to_vector(m.parameters())
    lin = T.nn.Linear(2, 2)
    return {
        "v": v,
        "v2": v2,
        "w": m[0].weight,
        "bad_vec": raises(lambda: U.vector_to_parameters([1.0], lin.parameters())),
        "short": raises(lambda: U.vector_to_parameters(T.ones(3), lin.parameters())),
        "grad_v": U.parameters_to_vector(p * 1 for p in lin.parameters()).grad_fn,
    }


# --- losses --------------------------------------------------------------------------------


@program()
def prog_loss_cross_entropy_probabilities_and_smoothing_grads(T: Any) -> Any:
    nn = T.nn
    logits = T.tensor(_data(4, 3), requires_grad=True)
    probs = T.softmax(T.tensor(_data(4, 3, seed=1)), 1)
    w = T.tensor([1.0, 2.0, 0.5])
    out = {}
    for red in ["mean", "sum", "none"]:
        for ls in [0.0, 0.2]:
            for weight in [None, w]:
                crit = nn.CrossEntropyLoss(weight=weight, reduction=red, label_smoothing=ls)
                l1 = crit(logits, probs)
                l2 = crit(logits, T.tensor([0, 2, 1, 2]))
                (g,) = T.autograd.grad((l1.sum() + l2.sum()), logits)
                out[f"{red}-{ls}-{weight is None}"] = (l1, l2, g)
    out["ignore_probs"] = raises(lambda: nn.CrossEntropyLoss(ignore_index=1)(logits, probs))
    out["ls_bad"] = raises(lambda: nn.CrossEntropyLoss(label_smoothing=1.5)(logits, probs))
    out["shape_bad"] = raises(lambda: nn.CrossEntropyLoss()(logits, probs[:, :2]))
    out["target_oob"] = raises(lambda: nn.CrossEntropyLoss()(logits, T.tensor([0, 1, 2, 3])))
    out["int_probs"] = raises(lambda: nn.CrossEntropyLoss()(logits, T.ones(4, 3, dtype=T.int64)))
    return out


@program()
def prog_loss_ce_ignore_index_spatial_smoothing_weights(T: Any) -> Any:
    nn = T.nn
    x = T.tensor(_data(2, 3, 2, 2), requires_grad=True)
    t = T.tensor([[[0, -100], [2, 1]], [[-100, -100], [1, 0]]])
    w = T.tensor([0.2, 1.0, 3.0])
    out = {}
    for red in ["mean", "sum", "none"]:
        crit = nn.CrossEntropyLoss(weight=w, reduction=red, label_smoothing=0.1)
        loss = crit(x, t)
        (g,) = T.autograd.grad(loss.sum(), x)
        out[red] = (loss, g)
    t5 = T.tensor([[[5, 5], [5, 5]], [[5, 5], [5, 5]]])
    out["all_ignored"] = nn.CrossEntropyLoss(ignore_index=5)(x, t5)
    out["nll_all_ignored"] = nn.NLLLoss(ignore_index=5, weight=w)(x.log_softmax(1), t5)
    out["nll_sum"] = nn.NLLLoss(reduction="sum", ignore_index=2)(x.log_softmax(1), t.clamp(0))
    return out


@program()
def prog_loss_bce_pos_weight_and_weights_broadcast(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    x = T.tensor(_data(3, 4), requires_grad=True)
    y = (T.tensor(_data(3, 4, seed=2)) > 0).float()
    pw = T.tensor([1.0, 2.0, 0.5, 3.0])
    w = T.tensor([[1.0], [0.5], [2.0]])
    out = {}
    for red in ["mean", "sum", "none"]:
        l1 = nn.BCEWithLogitsLoss(weight=w, pos_weight=pw, reduction=red)(x, y)
        l2 = F.binary_cross_entropy(T.sigmoid(x), y, weight=w.expand(3, 4), reduction=red)
        (g,) = T.autograd.grad(l1.sum() + l2.sum(), x)
        out[red] = (l1, l2, g)
    out["soft_targets"] = nn.BCEWithLogitsLoss(pos_weight=pw)(x, T.full((3, 4), 0.3))
    out["bad_shape"] = raises(lambda: nn.BCEWithLogitsLoss()(x, y[:, :2]))
    out["bce_range"] = raises(lambda: F.binary_cross_entropy(x, y))
    out["bce_extreme"] = F.binary_cross_entropy(T.tensor([0.0, 1.0]), T.tensor([1.0, 0.0]))
    out["pw_bad"] = raises(lambda: nn.BCEWithLogitsLoss(pos_weight=T.ones(3))(x, y))
    return out


@program()
def prog_loss_deprecated_size_average_reduce(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    x = T.tensor(_data(3, 2))
    y = T.tensor(_data(3, 2, seed=1))
    return {
        "mse_sa": nn.MSELoss(size_average=False)(x, y),
        "l1_reduce": nn.L1Loss(reduce=False)(x, y),
        "both": nn.SmoothL1Loss(size_average=True, reduce=True)(x, y),
        "f_mse": F.mse_loss(x, y, size_average=False),
        "f_nll": F.nll_loss(x.log_softmax(1), T.tensor([0, 1, 1]), reduce=False),
        "red_attr": nn.MSELoss(size_average=False).reduction,
        "bad_red": raises(lambda: F.mse_loss(x, y, reduction="avg")),
        "mse_broadcast": F.mse_loss(x, y[:1]),
    }


@program()
def prog_loss_misc_modules_reductions(T: Any) -> Any:
    nn = T.nn
    x = T.tensor(_data(3, 4), requires_grad=True)
    y = T.tensor(_data(3, 4, seed=1))
    lbl = T.tensor([1, 0, 3])
    out = {}
    losses = {
        "huber": nn.HuberLoss(delta=0.5),
        "smoothl1": nn.SmoothL1Loss(beta=0.3),
        "smoothl1_0": nn.SmoothL1Loss(beta=0.0),
        "kl": nn.KLDivLoss(reduction="batchmean", log_target=True),
        "poisson": nn.PoissonNLLLoss(log_input=False, full=True),
        "gauss": nn.GaussianNLLLoss(full=True, eps=1e-3),
        "softmargin": nn.SoftMarginLoss(),
        "mlsm": nn.MultiLabelSoftMarginLoss(weight=T.tensor([1.0, 2.0, 0.5, 1.0])),
    }
    for name, crit in losses.items():
        if name == "poisson":
            val = crit(x.abs() + 0.1, y.abs())
        elif name == "gauss":
            val = crit(x, y, T.ones(3, 1) * 0.5)
        elif name in ("softmargin", "mlsm"):
            val = crit(
                x,
                (y > 0).float() * (2 if name == "softmargin" else 1) - float(name == "softmargin"),
            )
        elif name == "kl":
            val = crit(x.log_softmax(1), y.log_softmax(1))
        else:
            val = crit(x, y)
        (g,) = T.autograd.grad(val, x)
        out[name] = (val, g)
    out["multimargin"] = nn.MultiMarginLoss(p=2, margin=0.5, weight=T.tensor([1.0, 2.0, 1.0, 0.5]))(
        x, lbl
    )
    out["multilabel_margin"] = nn.MultiLabelMarginLoss()(x, T.tensor([[1, 2, -1, 0]] * 3))
    out["hinge"] = nn.HingeEmbeddingLoss(margin=0.5, reduction="none")(x, T.sign(y))
    out["cosemb"] = nn.CosineEmbeddingLoss(margin=0.1)(x, y, T.tensor([1, -1, 1]))
    out["margin_rank"] = nn.MarginRankingLoss(margin=0.2)(
        x[:, 0], y[:, 0], T.tensor([1.0, -1.0, 1.0])
    )
    out["triplet"] = nn.TripletMarginLoss(margin=0.5, p=1, swap=True)(x, y, y.flip(0))
    out["triplet_dist"] = nn.TripletMarginWithDistanceLoss(
        distance_function=nn.PairwiseDistance(), margin=0.3
    )(x, y, y.flip(0))
    out["gauss_bad_var"] = raises(lambda: nn.GaussianNLLLoss()(x, y, -T.ones(3, 4)))
    out["gauss_bad_shape"] = raises(lambda: nn.GaussianNLLLoss()(x, y, T.ones(3, 2)))
    return out


@program()
def prog_loss_nll_weights_and_kldiv_warnings(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    lp = T.tensor(_data(5, 3)).log_softmax(1)
    t = T.tensor([0, 2, 2, 1, 0])
    w = T.tensor([0.0, 1.0, 2.0])
    return {
        "nll_w": nn.NLLLoss(weight=w)(lp, t),
        "nll_w_zero_all": nn.NLLLoss(weight=T.tensor([0.0, 0.0, 1.0]))(
            lp, T.tensor([0, 1, 0, 1, 0])
        ),
        "kl_mean": F.kl_div(lp, lp.exp().flip(0), reduction="mean"),
        "kl_default": nn.KLDivLoss()(lp, lp.exp()),
        "bad_weight": raises(lambda: nn.NLLLoss(weight=T.ones(4))(lp, t)),
        "bad_target_dtype": raises(lambda: nn.NLLLoss()(lp, t.float())),
        "bad_batch": raises(lambda: nn.NLLLoss()(lp, t[:3])),
        "1d_input": nn.NLLLoss()(lp[0], t[0]),
    }


# --- init ------------------------------------------------------------------------------------


@program()
def prog_init_functions_with_manual_seed_and_gains(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(123)
    out = {}
    w = T.empty(4, 6)
    out["xavier_u"] = init.xavier_uniform_(w.clone(), gain=init.calculate_gain("tanh"))
    out["xavier_n"] = init.xavier_normal_(T.empty(3, 5))
    out["kaiming_u"] = init.kaiming_uniform_(T.empty(4, 3, 2), a=0.1, mode="fan_out")
    out["kaiming_n"] = init.kaiming_normal_(T.empty(5, 2), nonlinearity="leaky_relu")
    out["trunc"] = init.trunc_normal_(T.empty(10), mean=0.5, std=2.0, a=-1.0, b=1.0)
    out["orth"] = init.orthogonal_(T.empty(3, 5), gain=2.0)
    out["sparse"] = init.sparse_(T.empty(6, 3), sparsity=0.5, std=0.1)
    out["eye"] = init.eye_(T.empty(2, 3))
    out["dirac"] = init.dirac_(T.empty(4, 2, 3), groups=2)
    out["uniform"] = init.uniform_(T.empty(3), -2, 2)
    out["normal"] = init.normal_(T.empty(3), 1, 0.1)
    out["const"] = init.constant_(T.empty(2), 0.3)
    out["gains"] = [
        init.calculate_gain(n) for n in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]
    ] + [init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("leaky_relu")]
    out["bad_gain"] = raises(lambda: init.calculate_gain("swish"))
    out["bad_param"] = raises(lambda: init.calculate_gain("leaky_relu", "x"))
    out["fan_1d"] = raises(lambda: init.xavier_uniform_(T.empty(3)))
    out["bad_mode"] = raises(lambda: init.kaiming_uniform_(T.empty(3, 3), mode="fan"))
    out["dirac_bad"] = raises(lambda: init.dirac_(T.empty(3, 3)))
    out["eye_bad"] = raises(lambda: init.eye_(T.empty(3)))
    out["zero_el"] = init.kaiming_uniform_(T.empty(0, 3))
    out["after"] = T.rand(2)
    return out


@program()
def prog_init_with_generator_and_module_reset(T: Any) -> Any:
    init = T.nn.init
    g = T.Generator().manual_seed(7)
    a = init.uniform_(T.empty(3), generator=g)
    b = init.normal_(T.empty(3), generator=g)
    c = init.kaiming_normal_(T.empty(2, 3), generator=g)
    d = init.trunc_normal_(T.empty(4), generator=g)
    e = init.orthogonal_(T.empty(2, 2), generator=g)
    T.manual_seed(3)
    lin = T.nn.Linear(3, 2)
    conv = T.nn.Conv2d(1, 2, 2)
    emb = T.nn.Embedding(4, 2, padding_idx=1)
    gru = T.nn.GRU(2, 2)
    T.manual_seed(3)
    lin2 = T.nn.Linear(3, 2)
    lin2.reset_parameters()
    return {
        "g": (a, b, c, d, e),
        "lin": dict(lin.named_parameters()),
        "conv": dict(conv.named_parameters()),
        "emb": emb.weight,
        "gru": dict(gru.named_parameters()),
        "lin2": lin2.weight,
        "no_grad_track": init.uniform_(T.nn.Parameter(T.empty(2))).grad_fn,
    }


# --- Embedding -------------------------------------------------------------------------------


@program()
def prog_embedding_max_norm_renorm_in_place_and_grads(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    emb = nn.Embedding(5, 3, max_norm=1.0, norm_type=1.0, padding_idx=2)
    with T.no_grad():
        emb.weight.copy_(T.tensor(_data(5, 3)) * 2)
    v0 = emb.weight._version
    idx = T.tensor([[0, 2, 4], [4, 4, 1]])
    y = emb(idx)
    w_after = emb.weight.detach().clone()
    y.sum().backward()
    w = T.tensor(_data(5, 3)) * 3
    w.requires_grad_()
    y2 = F.embedding(T.tensor([1, 3]), w.detach(), max_norm=2.0)
    return {
        "y": y,
        "w_after": w_after,
        "v": emb.weight._version - v0,
        "grad": emb.weight.grad,
        "y2": y2,
        "scale_grad": _scale_grad(T),
        "pad_neg": nn.Embedding(4, 2, padding_idx=-1).padding_idx,
        "pad_bad": raises(lambda: nn.Embedding(4, 2, padding_idx=4)),
        "from_pre": _from_pretrained(T),
        "oob": raises(lambda: emb(T.tensor([5]))),
    }


def _scale_grad(T: Any) -> Any:
    emb = T.nn.Embedding(4, 2, scale_grad_by_freq=True)
    with T.no_grad():
        emb.weight.fill_(1.0)
    emb(T.tensor([0, 0, 1, 3, 3, 3])).pow(2).sum().backward()
    return emb.weight.grad


def _from_pretrained(T: Any) -> Any:
    w = T.tensor(_data(3, 2))
    e1 = T.nn.Embedding.from_pretrained(w)
    e2 = T.nn.Embedding.from_pretrained(w, freeze=False, padding_idx=0, max_norm=0.5)
    y = e2(T.tensor([0, 1]))
    return (
        e1.weight.requires_grad,
        e2.weight.requires_grad,
        e2.padding_idx,
        y,
        raises(lambda: T.nn.Embedding.from_pretrained(T.ones(3))),
        repr(e2),
    )


@program()
def prog_embedding_bag_modes_offsets_weights(T: Any) -> Any:
    nn = T.nn
    bag = _seeded(T, nn.EmbeddingBag(6, 3, mode="sum"), 1)
    inp = T.tensor([1, 2, 4, 5, 4, 3, 2, 0])
    offs = T.tensor([0, 2, 2, 5])
    psw = T.tensor([1.0, 0.5, 2.0, 1.0, 1.0, 0.1, 0.2, 3.0])
    out = {"sum_w": bag(inp, offs, per_sample_weights=psw)}
    out["sum_last"] = nn.EmbeddingBag.from_pretrained(
        bag.weight.detach(), mode="sum", include_last_offset=True
    )(inp, T.tensor([0, 2, 2, 5, 8]))
    for mode in ["mean", "max"]:
        b = _seeded(T, nn.EmbeddingBag(6, 3, mode=mode, padding_idx=2), 1)
        y = b(inp, offs)
        y.sum().backward()
        out[mode] = (y, b.weight.grad)
    out["2d"] = bag(T.tensor([[1, 2], [3, 4]]))
    out["psw_mean"] = raises(
        lambda: nn.EmbeddingBag(6, 3, mode="mean")(inp, offs, per_sample_weights=psw)
    )
    out["2d_offsets"] = raises(lambda: bag(T.tensor([[1, 2]]), T.tensor([0])))
    out["bad_offset0"] = raises(lambda: bag(inp, T.tensor([1, 3])))
    return out


# --- data utilities --------------------------------------------------------------------------


@program()
def prog_data_tensor_dataset_random_split_generator(T: Any) -> Any:
    D = T.utils.data
    x = T.arange(20.0).reshape(10, 2)
    y = T.arange(10)
    ds = D.TensorDataset(x, y)
    g = T.Generator().manual_seed(42)
    a, b, c = D.random_split(ds, [5, 3, 2], generator=g)
    g2 = T.Generator().manual_seed(1)
    f1, f2, f3 = D.random_split(range(10), [0.5, 0.3, 0.2], generator=g2)
    g3 = T.Generator().manual_seed(2)
    r1, r2 = D.random_split(range(7), [0.5, 0.5], generator=g3)
    return {
        "ds": (len(ds), ds[3], ds[-1]),
        "split": (list(a.indices), list(b.indices), list(c.indices)),
        "item": a[0],
        "frac": (list(f1), list(f2), list(f3)),
        "odd": (list(r1), list(r2)),
        "bad_sum": raises(lambda: D.random_split(ds, [5, 6])),
        "bad_frac": raises(lambda: D.random_split(ds, [0.5, 0.6])),
        "mismatch": raises(lambda: D.TensorDataset(x, y[:3])),
        "neg_frac": raises(lambda: D.random_split(ds, [1.2, -0.2])),
    }


@program()
def prog_data_subset_concat_and_indexing(T: Any) -> Any:
    D = T.utils.data
    d1 = D.TensorDataset(T.arange(4.0))
    d2 = D.TensorDataset(T.arange(10.0, 13.0))
    cat = D.ConcatDataset([d1, d2])
    sub = D.Subset(cat, [6, 0, 3, 4])
    both = d1 + d2
    return {
        "len": (len(cat), len(sub), len(both), cat.cumulative_sizes),
        "items": [cat[i] for i in [0, 3, 4, 6, -1, -7]],
        "sub": [sub[i] for i in range(4)],
        "sub_many": sub.__getitems__([0, 1]),
        "neg_oob": raises(lambda: cat[-8]),
        "oob": raises(lambda: cat[7]),
        "empty": raises(lambda: D.ConcatDataset([])),
        "type": type(both).__name__,
        "chain": [x for x in D.ChainDataset([_Iter(T, 2), _Iter(T, 3)])],
    }


def _Iter(T: Any, n: int) -> Any:
    class It(T.utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(n))

    return It()


@program()
def prog_dataloader_batches_dict_tuple_collate_and_drop_last(T: Any) -> Any:
    D = T.utils.data

    class DictDS(D.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {
                "x": T.tensor([float(i), -float(i)]),
                "y": i,
                "name": f"s{i}",
                "pair": (i * 0.5, T.tensor(i)),
                "np": __import__("numpy").array([i, i + 1]),
            }

    dl = D.DataLoader(DictDS(), batch_size=2)
    batches = list(dl)
    dl2 = D.DataLoader(DictDS(), batch_size=2, drop_last=True)
    tup = D.DataLoader(D.TensorDataset(T.arange(6.0), T.arange(6)), batch_size=4)
    return {
        "batches": batches,
        "len": (len(dl), len(dl2), len(list(dl2))),
        "tup": list(tup),
        "none": list(D.DataLoader([1, 2, 3], batch_size=None)),
        "lists": list(D.DataLoader([[1, 2], [3, 4]], batch_size=2)),
        "floats": list(D.DataLoader([1.5, 2.5], batch_size=2)),
        "bools": list(D.DataLoader([True, False], batch_size=2)),
        "ragged": raises(lambda: list(D.DataLoader([[1, 2], [3]], batch_size=2))),
        "bad_type": raises(lambda: list(D.DataLoader([object(), object()], batch_size=2))),
    }


@program()
def prog_dataloader_samplers_exact_order(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(0)
    ds = list(range(10))
    out = {}
    out["no_gen"] = [b.tolist() for b in D.DataLoader(ds, batch_size=4, shuffle=True)]
    out["no_gen_seq"] = [b.tolist() for b in D.DataLoader(ds, batch_size=4)]
    out["rand_mid"] = T.rand(2)
    g = T.Generator().manual_seed(5)
    out["shuffle"] = [b.tolist() for b in D.DataLoader(ds, batch_size=3, shuffle=True, generator=g)]
    g = T.Generator().manual_seed(5)
    out["random_sampler"] = list(D.RandomSampler(ds, generator=g))
    g = T.Generator().manual_seed(5)
    out["replacement"] = list(D.RandomSampler(ds, replacement=True, num_samples=6, generator=g))
    g = T.Generator().manual_seed(5)
    out["subset_random"] = list(D.SubsetRandomSampler([9, 3, 5, 7], generator=g))
    out["sequential"] = list(D.SequentialSampler(ds))
    out["batch_sampler"] = list(D.BatchSampler(D.SequentialSampler(ds), 4, drop_last=False))
    out["batch_drop"] = list(D.BatchSampler(range(10), 4, drop_last=True))
    dl = D.DataLoader(ds, batch_sampler=D.BatchSampler(range(10), 3, False))
    out["via_batch_sampler"] = [b.tolist() for b in dl]
    out["sampler_conflict"] = raises(lambda: D.DataLoader(ds, sampler=range(3), shuffle=True))
    out["bs_conflict"] = raises(lambda: D.DataLoader(ds, batch_sampler=[[0]], batch_size=2))
    out["bs_shuffle"] = raises(lambda: D.DataLoader(ds, batch_sampler=[[0]], shuffle=True))
    out["bad_num_samples"] = raises(lambda: D.RandomSampler(ds, num_samples=0))
    out["bad_bs"] = raises(lambda: D.BatchSampler(range(3), 0, False))
    out["bad_drop"] = raises(lambda: D.BatchSampler(range(3), 2, "no"))
    out["after"] = T.rand(2)
    return out


@program()
def prog_weighted_random_sampler_exact(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(3)
    s1 = D.WeightedRandomSampler([0.1, 0.9, 0.4, 0.0], num_samples=8, generator=g)
    g = T.Generator().manual_seed(3)
    s2 = D.WeightedRandomSampler(T.tensor([1.0, 2.0, 3.0]), 3, replacement=False, generator=g)
    ds = D.TensorDataset(T.arange(4.0))
    g = T.Generator().manual_seed(9)
    dl = D.DataLoader(
        ds, batch_size=3, sampler=D.WeightedRandomSampler([1, 1, 5, 1], 6, generator=g)
    )
    return {
        "s1": list(s1),
        "s2": list(s2),
        "len": len(s1),
        "dl": list(dl),
        "too_many": raises(lambda: list(D.WeightedRandomSampler([1.0, 2.0], 3, replacement=False))),
        "bad_n": raises(lambda: D.WeightedRandomSampler([1.0], 0)),
        "bad_repl": raises(lambda: D.WeightedRandomSampler([1.0], 1, replacement=1)),
        "2d": raises(lambda: D.WeightedRandomSampler([[1.0, 2.0]], 1)),
    }


@program()
def prog_dataloader_worker_init_and_len_iterable(T: Any) -> Any:
    D = T.utils.data

    class Counting(D.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(T.tensor([float(i)]) for i in range(self.n))

        def __len__(self):
            return self.n

    dl = D.DataLoader(Counting(5), batch_size=2)
    dl_drop = D.DataLoader(Counting(5), batch_size=2, drop_last=True)
    return {
        "batches": list(dl),
        "len": (len(dl), len(dl_drop)),
        "drop": list(dl_drop),
        "shuffle_err": raises(lambda: D.DataLoader(Counting(3), shuffle=True)),
        "sampler_err": raises(lambda: D.DataLoader(Counting(3), sampler=[0, 1])),
        "info": D.get_worker_info(),
        "default_collate": D.default_collate([(1, 2.0), (3, 4.0)]),
        "default_convert": D.default_convert([__import__("numpy").array([1.0, 2.0])]),
    }


@program()
def prog_training_loop_with_dataloader_and_scheduler(T: Any) -> Any:
    nn = T.nn
    D = T.utils.data
    x = T.tensor(_data(12, 3))
    y = (x.sum(1) > 0).long()
    g = T.Generator().manual_seed(0)
    train, val = D.random_split(D.TensorDataset(x, y), [8, 4], generator=g)
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 2)
    opt = T.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.1)
    sch = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=3)
    crit = nn.CrossEntropyLoss(label_smoothing=0.05)
    gl = T.Generator().manual_seed(1)
    loader = D.DataLoader(train, batch_size=3, shuffle=True, generator=gl)
    log = []
    for _ in range(2):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            T.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            sch.step()
            log.append((loss.detach(), sch.get_last_lr()))
        model.eval()
        with T.no_grad():
            vx, vy = next(iter(D.DataLoader(val, batch_size=4)))
            acc = (model(vx).argmax(1) == vy).float().mean()
        log.append(acc)
    return {"log": log, "params": dict(model.named_parameters())}


# --- smaller programs: one API's corner cases each -----------------------------------------


# --- optsched ----------------------------------------------------------------------------------


def _optsched_P(T, *s):
    return [T.nn.Parameter(T.ones(x)) for x in s]


@program()
def prog_optsched_sched_not_opt(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    return [
        raises(lambda: S.StepLR([1], 1)),
        raises(lambda: S.LambdaLR(None, lambda e: 1)),
        raises(lambda: S.ReduceLROnPlateau(object())),
        raises(lambda: S.CyclicLR(5, 0.1, 1.0)),
    ]


@program()
def prog_optsched_plateau_last_lr(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = T.optim.SGD(_optsched_P(T, 2), lr=0.1)
    s = S.ReduceLROnPlateau(o)
    return [s.get_last_lr(), s.last_epoch, sorted(s.state_dict()), s.state_dict()]


@program()
def prog_optsched_steplr_zero(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = T.optim.SGD(_optsched_P(T, 2), lr=0.1)
    return [
        raises(lambda: S.StepLR(o, 0)),
        raises(lambda: S.StepLR(o, 1.5).step()),
        raises(lambda: S.MultiStepLR(o, [3, 1]).step()),
        raises(lambda: S.ExponentialLR(o, -1).step()),
    ]


@program()
def prog_optsched_sequential_plateau(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = T.optim.SGD(_optsched_P(T, 2), lr=0.1)
    return [
        raises(lambda: S.SequentialLR(o, [S.ReduceLROnPlateau(o), S.StepLR(o, 1)], [1])),
        raises(lambda: S.ChainedScheduler([S.ReduceLROnPlateau(o), S.StepLR(o, 1)])),
    ]


@program()
def prog_optsched_chained_plateau_step(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = T.optim.SGD(_optsched_P(T, 2), lr=0.1)
    c = S.ChainedScheduler([S.StepLR(o, 1, 0.5)], optimizer=o)
    o.step()
    c.step()
    return c.get_last_lr(), c.optimizer is o


@program()
def prog_optsched_sched_repr(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = T.optim.SGD(_optsched_P(T, 2), lr=0.1)
    return [type(S.StepLR(o, 1)).__mro__[1].__name__, repr(o), str(o)]


@program()
def prog_optsched_opt_repr(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    o = T.optim.Adam(
        [
            {"params": _optsched_P(T, 2)},
            {"params": _optsched_P(T, 3), "lr": 0.5, "betas": (0.1, 0.2)},
        ]
    )
    return (
        repr(o),
        repr(T.optim.SGD(_optsched_P(T, 1), lr=0.1, momentum=0.9)),
        repr(T.optim.LBFGS(_optsched_P(T, 1))),
    )


@program()
def prog_optsched_opt_deepcopy_and_pickle(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    ps = _optsched_P(T, 2)
    o = T.optim.Adam(ps, lr=0.1)
    ps[0].grad = T.ones(2)
    o.step()
    o2 = copy.deepcopy(o)
    buf = io.BytesIO()
    T.save(o.state_dict(), buf)
    buf.seek(0)
    sd = T.load(buf)
    return sd, len(o2.state), o2.param_groups[0]["lr"], o.state_dict()


@program()
def prog_optsched_opt_getstate(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    o = T.optim.SGD(_optsched_P(T, 2), lr=0.1)
    return sorted(o.__getstate__())


@program()
def prog_optsched_opt_param_groups_key_error(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a, b = _optsched_P(T, 2, 2)
    o = T.optim.SGD([{"params": a}, {"params": [b]}], lr=0.1)
    return [
        raises(lambda: T.optim.SGD([{"lr": 0.1}])),
        raises(lambda: T.optim.SGD([{"params": [a]}, {"params": [a]}], lr=0.1)),
        [len(g["params"]) for g in o.param_groups],
    ]


@program()
def prog_optsched_opt_params_generator_warn(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a = _optsched_P(T, 2)[0]
    o = T.optim.SGD((p for p in [a]), lr=0.1)
    return len(o.param_groups[0]["params"]), raises(lambda: T.optim.SGD({a}, lr=0.1))


@program()
def prog_optsched_opt_named_params(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    o = T.optim.Adam(m.named_parameters(), lr=0.1)
    m.weight.grad = T.ones(2, 2)
    o.step()
    sd = o.state_dict()
    return sd["param_groups"], list(sd["state"]), o.param_groups[0].get("param_names")


@program()
def prog_optsched_opt_named_load_mismatch(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    o = T.optim.Adam(m.named_parameters(), lr=0.1)
    o2 = T.optim.Adam(m.parameters(), lr=0.1)
    return raises(lambda: o2.load_state_dict(o.state_dict())), raises(
        lambda: o.load_state_dict(o2.state_dict())
    )


@program()
def prog_optsched_zero_grad_foreach(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a, b = _optsched_P(T, 2, 3)
    o = T.optim.SGD([a, b], lr=0.1, foreach=True)
    a.grad = T.ones(2)
    b.grad = T.ones(3) * 2
    o.zero_grad(set_to_none=False)
    return a.grad, b.grad


@program()
def prog_optsched_opt_step_no_grad_state(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a, b = _optsched_P(T, 2, 3)
    o = T.optim.Adam([a, b], lr=0.1)
    a.grad = T.ones(2)
    o.step()
    return o.state_dict(), len(o.state)


@program()
def prog_optsched_opt_lr_int(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a = _optsched_P(T, 2)[0]
    o = T.optim.SGD([a], lr=1)
    a.grad = T.ones(2)
    o.step()
    s = T.optim.lr_scheduler.StepLR(o, 1, 0.5)
    s.step()
    return a, o.param_groups[0]["lr"], s.get_last_lr()


@program()
def prog_optsched_adam_state_dtype_double_default(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a = T.nn.Parameter(T.ones(2, dtype=T.float16))
    o = T.optim.Adam([a], lr=0.1)
    a.grad = T.ones(2, dtype=T.float16)
    o.step()
    return a, o.state[a]["step"], o.state[a]["exp_avg"]


@program()
def prog_optsched_sgd_complex(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    a = T.nn.Parameter(T.ones(2, dtype=T.complex64))
    o = T.optim.SGD([a], lr=0.1, momentum=0.9, weight_decay=0.1, nesterov=True)
    for _ in range(2):
        o.zero_grad()
        (a * a.conj()).real.sum().backward()
        o.step()
    return a


# --- modapi ------------------------------------------------------------------------------------


def _modapi_S(T, m, seed=0):
    rng = np.random.default_rng(seed)
    with T.no_grad():
        for _, p in sorted(m.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape)).astype(np.float32)))
    return m


@program()
def prog_modapi_sd_positional_warn(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    d = {}
    r = m.state_dict(d, "pre.")
    return list(r), r is d


@program()
def prog_modapi_sd_destination(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    d = {}
    return list(m.state_dict(destination=d, prefix="a.")), list(d)


@program()
def prog_modapi_extra_state(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it

    class M(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.l = T.nn.Linear(1, 1)
            self.k = 3

        def get_extra_state(self):
            return {"k": self.k}

        def set_extra_state(self, st):
            self.k = st["k"]

    m = M()
    sd = m.state_dict()
    m2 = M()
    m2.k = 0
    sd2 = dict(sd)
    sd2["_extra_state"] = {"k": 9}
    m2.load_state_dict(sd2)
    sd3 = {k: v for k, v in sd.items() if k != "_extra_state"}
    return list(sd), sd["_extra_state"], m2.k, raises(lambda: m2.load_state_dict(sd3))


@program()
def prog_modapi_load_sd_metadata(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.BatchNorm1d(2)
    sd = m.state_dict()
    return sd._metadata, type(sd).__name__


@program()
def prog_modapi_bn_old_version_load(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.BatchNorm1d(2)
    sd = m.state_dict()
    del sd["num_batches_tracked"]
    sd._metadata[""]["version"] = 1
    m2 = T.nn.BatchNorm1d(2)
    r = m2.load_state_dict(sd)
    sd2 = T.nn.BatchNorm1d(2).state_dict()
    del sd2["num_batches_tracked"]
    r2 = raises(lambda: T.nn.BatchNorm1d(2).load_state_dict(sd2))
    return str(r), m2.num_batches_tracked, r2


@program()
def prog_modapi_module_to_dtypes(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.BatchNorm1d(2))
    m.to(T.float64)
    a = {k: v.dtype for k, v in m.state_dict().items()}
    m.half()
    b = {k: v.dtype for k, v in m.state_dict().items()}
    m.to(dtype=T.float16)
    c = m[0].weight.dtype
    m.float()
    return (
        a,
        b,
        c,
        raises(lambda: m.to(T.int64)),
        raises(lambda: m.to("cpu", T.int32)),
        m.to("cpu") is m,
    )


@program()
def prog_modapi_module_to_complex_warn(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    m.to(T.complex64)
    return m.weight.dtype


@program()
def prog_modapi_module_type(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    m.type(T.float64)
    return m.weight.dtype, m.double().bias.dtype


@program()
def prog_modapi_to_empty(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    m.to_empty(device="cpu")
    return m.weight.shape, type(m.weight).__name__


@program()
def prog_modapi_deepcopy_parametrized(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = _modapi_S(T, T.nn.Linear(2, 2))
    T.nn.utils.parametrizations.weight_norm(m)
    m2 = copy.deepcopy(m)
    return m2.weight, [k for k, _ in m2.named_parameters()], type(m2).__name__


@program()
def prog_modapi_module_global_hooks(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    h = T.nn.modules.module.register_module_forward_pre_hook(
        lambda m, a: log.append(("pre", type(m).__name__))
    )
    h2 = T.nn.modules.module.register_module_forward_hook(
        lambda m, a, o: log.append(("post", type(m).__name__))
    )
    try:
        m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.ReLU())
        m(T.ones(1, 2))
    finally:
        h.remove()
        h2.remove()
    return log


@program()
def prog_modapi_forward_hook_always_call(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    m = T.nn.Linear(2, 2)
    m.register_forward_hook(lambda mod, a, o: log.append("always"), always_call=True)
    m.register_forward_hook(lambda mod, a, o: log.append("normal"))
    r = raises(lambda: m(T.ones(3)))
    return log, r


@program()
def prog_modapi_backward_hook_on_module_with_kwargs(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    m = T.nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gi, go: log.append([g is None for g in gi]))
    x = T.ones(1, 2)
    m(x).sum().backward()
    return log


@program()
def prog_modapi_register_module_and_children(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Module()
    m.register_module("a", T.nn.ReLU())
    m.add_module("b", None)
    return (
        [k for k, _ in m.named_children()],
        m.b,
        repr(m),
        raises(lambda: m.register_module(1, T.nn.ReLU())),
    )


@program()
def prog_modapi_module_dir_and_getattr(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    m.register_buffer("bb", T.ones(1))
    d = dir(m)
    return "bb" in d, "weight" in d, "in_features" in d, raises(lambda: m.zz)


@program()
def prog_modapi_module_repr_custom_and_empty_children(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it

    class A(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.x = T.nn.Sequential()
            self.y = T.nn.ModuleList()
            self.z = T.nn.ModuleDict({"q": T.nn.Sequential(T.nn.Linear(1, 1))})

    return repr(A())


@program()
def prog_modapi_sequential_ordered_dict(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    from collections import OrderedDict

    s = T.nn.Sequential(OrderedDict([("fc", T.nn.Linear(2, 3)), ("act", T.nn.ReLU())]))
    return (
        repr(s),
        repr(s.fc),
        [k for k, _ in s.named_children()],
        raises(lambda: s[5]),
        repr(s[-1]),
        len(s),
        repr(s[0:1]),
    )


@program()
def prog_modapi_sequential_pop_insert(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    s = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.ReLU(), T.nn.Tanh())
    p = s.pop(1)
    s.insert(-1, T.nn.GELU())
    return repr(s), repr(p), raises(lambda: s.insert(10, T.nn.ReLU()))


@program()
def prog_modapi_modulelist_extend_bad(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    ml = T.nn.ModuleList()
    return (
        raises(lambda: ml.extend(5)),
        raises(lambda: ml.extend(T.nn.ReLU())),
        raises(lambda: ml.insert(0, 5)),
    )


@program()
def prog_modapi_named_modules_memo(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    lin = T.nn.Linear(1, 1)
    s = T.nn.Sequential(lin, lin)
    return [k for k, _ in s.named_modules(memo={lin})], [k for k, _ in s.named_modules()]


@program()
def prog_modapi_requires_grad_buffers(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.BatchNorm1d(2)
    m.requires_grad_(False)
    return [(k, p.requires_grad) for k, p in m.named_parameters()], raises(
        lambda: m.requires_grad_("x")
    )


@program()
def prog_modapi_zero_grad_set_none_false(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    m(T.ones(1, 2)).sum().backward()
    m.zero_grad(set_to_none=False)
    return m.weight.grad, m.bias.grad


@program()
def prog_modapi_share_memory(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    return m.share_memory() is m, m.weight.is_shared()


@program()
def prog_modapi_module_state_dict_keep_vars(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    sd = m.state_dict(keep_vars=True)
    sd2 = m.state_dict()
    return (
        type(sd["weight"]).__name__,
        sd["weight"].requires_grad,
        type(sd2["weight"]).__name__,
        sd2["weight"].requires_grad,
    )


@program()
def prog_modapi_parameter_ops(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    p = T.nn.Parameter(T.ones(2))
    q = T.nn.Parameter(T.ones(2), requires_grad=False)
    r = p * 2
    return (
        repr(p),
        repr(q),
        type(r).__name__,
        type(p.data).__name__,
        type(p.detach()).__name__,
        type(p.clone()).__name__,
        repr(T.nn.Parameter()),
        type(copy.deepcopy(p)).__name__,
    )


@program()
def prog_modapi_buffer_class(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Module()
    m.b = T.nn.Buffer(T.ones(2), persistent=False)
    m.c = T.nn.Buffer(T.zeros(1))
    return (
        list(m.state_dict()),
        [k for k, _ in m.named_buffers()],
        type(m.b).__name__,
        repr(T.nn.Buffer(T.ones(1))),
    )


@program()
def prog_modapi_uninit_param(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.LazyLinear(3)
    r = repr(m)
    s = list(m.state_dict())
    m(T.ones(2, 4))
    return r, s, repr(m), m.weight.shape, type(m).__name__


@program()
def prog_modapi_bn_sd_load_shape(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.BatchNorm1d(3)
    sd = {k: v for k, v in T.nn.BatchNorm1d(2).state_dict().items()}
    return raises(lambda: m.load_state_dict(sd))


@program()
def prog_modapi_load_sd_int_to_float(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 1)
    m.load_state_dict({"weight": T.tensor([[1, 2]]), "bias": T.tensor([3])})
    return m.weight, m.bias


@program()
def prog_modapi_load_sd_nontensor(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 1)
    return raises(lambda: m.load_state_dict({"weight": [[1.0, 2.0]], "bias": T.ones(1)}))


@program()
def prog_modapi_load_sd_requires_grad_input(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 1)
    w = T.ones(1, 2, requires_grad=True) * 2
    m.load_state_dict({"weight": w, "bias": T.ones(1)})
    return m.weight, m.weight.grad_fn, m.weight.is_leaf


@program()
def prog_modapi_load_sd_assign_nonparam(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 1)
    w = T.ones(1, 2)
    m.load_state_dict({"weight": w, "bias": T.ones(1)}, assign=True)
    return (
        type(m.weight).__name__,
        m.weight.requires_grad,
        raises(lambda: m.load_state_dict({"weight": T.ones(3, 2), "bias": T.ones(1)}, assign=True)),
    )


# --- optdata -----------------------------------------------------------------------------------


def _optdata_P(T, *s, seed=0):
    rng = np.random.default_rng(seed)
    return [T.nn.Parameter(T.tensor(rng.standard_normal(x).astype(np.float32))) for x in s]


def _optdata_steps(T, opt, ps, n=3):
    out = []
    for _ in range(n):
        opt.zero_grad()
        sum(((p - 1) ** 2 * (i + 1)).sum() for i, p in enumerate(ps)).backward()
        opt.step()
        out.append([p.detach().clone() for p in ps])
    return out, {k: dict(v) for k, v in opt.state_dict()["state"].items()}


@program()
def prog_optdata_all_maximize_wd(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    out = {}
    for n in [
        "SGD",
        "Adam",
        "AdamW",
        "RMSprop",
        "Adagrad",
        "Adadelta",
        "Adamax",
        "NAdam",
        "RAdam",
        "ASGD",
        "Rprop",
    ]:
        ps = _optdata_P(T, (2,), (3,))
        kw = {"maximize": True}
        if n != "Rprop":
            kw["weight_decay"] = 0.1
        out[n] = _optdata_steps(T, getattr(T.optim, n)(ps, lr=0.01, **kw), ps)
    return out


@program()
def prog_optdata_none_grad_middle(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    out = {}
    for n in ["SGD", "Adam", "RMSprop", "NAdam", "Adagrad"]:
        for fe in [False, True]:
            a, b, c = _optdata_P(T, (2,), (2,), (2,))
            kw = {"momentum": 0.9, "nesterov": True} if n == "SGD" else {}
            o = getattr(T.optim, n)([a, b, c], lr=0.1, foreach=fe, **kw)
            a.grad = T.ones(2)
            c.grad = T.ones(2) * 2
            o.step()
            b.grad = T.ones(2)
            o.step()
            out[f"{n}{fe}"] = (a, b, c, {k: dict(v) for k, v in o.state_dict()["state"].items()})
    return out


@program()
def prog_optdata_adafactor(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    ps = _optdata_P(T, (2, 3), (4,))
    o = T.optim.Adafactor(ps, lr=0.01)
    return _optdata_steps(T, o, ps), repr(o)


@program()
def prog_optdata_lbfgs_sd_roundtrip(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    x = T.nn.Parameter(T.tensor([1.5, -0.5]))
    o = T.optim.LBFGS([x], history_size=3, max_iter=3)

    def cl():
        o.zero_grad()
        lv = (x**4).sum() + x.prod()
        lv.backward()
        return lv

    o.step(cl)
    sd = o.state_dict()
    x2 = T.nn.Parameter(x.detach().clone())
    o2 = T.optim.LBFGS([x2], history_size=3, max_iter=3)
    o2.load_state_dict(sd)

    def cl2():
        o2.zero_grad()
        lv = (x2**4).sum() + x2.prod()
        lv.backward()
        return lv

    o2.step(cl2)
    o.step(cl)
    return x, x2, sorted(sd["state"][0]), sd["param_groups"]


@program()
def prog_optdata_lbfgs_early_exit(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    x = T.nn.Parameter(T.tensor([0.0, 0.0]))
    o = T.optim.LBFGS([x])
    n = [0]

    def cl():
        n[0] += 1
        o.zero_grad()
        lv = (x**2).sum()
        lv.backward()
        return lv

    r = o.step(cl)
    return r, n[0], o.state[x].get("n_iter"), sorted(o.state[x])


@program()
def prog_optdata_swa_bn_no_buffers(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    swa = T.optim.swa_utils
    m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.BatchNorm1d(2))
    av = swa.AveragedModel(m)
    m(T.ones(3, 2) * T.arange(3.0)[:, None])
    av.update_parameters(m)
    return dict(av.state_dict()), dict(av.named_buffers()), repr(av)


@program()
def prog_optdata_swa_averaged_errors(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    swa = T.optim.swa_utils
    m = T.nn.Linear(2, 2)
    av = swa.AveragedModel(m)
    return (
        raises(lambda: av.update_parameters(T.nn.Linear(3, 2))),
        av.n_averaged,
        av.n_averaged.dtype,
    )


@program()
def prog_optdata_swalr_last_epoch_and_warn(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    swa = T.optim.swa_utils
    o = T.optim.SGD(_optdata_P(T, (2,)), lr=1.0)
    s = swa.SWALR(o, swa_lr=0.1, anneal_epochs=2)
    s.step()
    return s.get_last_lr(), s.state_dict()


@program()
def prog_optdata_clip_empty_and_mixed(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    U = T.nn.utils
    a = T.nn.Parameter(T.ones(2))
    b = T.nn.Parameter(T.ones(2, dtype=T.float64))
    a.grad = T.ones(2) * 3
    b.grad = T.ones(2, dtype=T.float64) * 4
    t = U.clip_grad_norm_([a, b], 1.0)
    t2 = U.clip_grad_norm_([], 1.0)
    c = T.nn.Parameter(T.ones(2))
    c.grad = T.ones(2)
    t3 = U.clip_grad_norm_([c], 1.0, norm_type=0)
    t4 = U.clip_grad_norm_([c], 1.0, norm_type=-float("inf"))
    return (
        t,
        a.grad,
        b.grad,
        t2,
        t3,
        t4,
        raises(lambda: U.clip_grad_norm_([c], 1.0, norm_type="fro")),
    )


@program()
def prog_optdata_collate_namedtuple_strings(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    Pt = collections.namedtuple("Pt", ["x", "y"])
    b = D.default_collate([Pt(1, 2.0), Pt(3, 4.0)])
    s = D.default_collate(["a", "b"])
    nested = D.default_collate(
        [{"a": [1, 2], "b": {"c": T.ones(2)}}, {"a": [3, 4], "b": {"c": T.zeros(2)}}]
    )
    return (
        type(b).__name__,
        b,
        s,
        nested,
        raises(lambda: D.default_collate([object()])),
        raises(lambda: D.default_collate([{"a": 1}, {"b": 2}])),
        raises(lambda: D.default_collate([T.ones(2), T.ones(3)])),
        D.default_collate([np.float64(1.5), np.float64(2.5)]),
        D.default_collate([np.array(["a"])]) if False else None,
    )


@program()
def prog_optdata_dataloader_arg_errors(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    ds = list(range(4))
    return [
        raises(lambda: D.DataLoader(ds, num_workers=-1)),
        raises(lambda: D.DataLoader(ds, timeout=-1)),
        raises(lambda: D.DataLoader(ds, persistent_workers=True)),
        raises(lambda: D.DataLoader(ds, prefetch_factor=2)),
        raises(lambda: D.DataLoader(ds, batch_size=None, drop_last=True)),
        raises(lambda: D.DataLoader(ds, batch_size=0)),
        raises(lambda: setattr(D.DataLoader(ds), "batch_size", 3)),
        raises(lambda: D.DataLoader(ds, collate_fn=5)),
    ]


@program()
def prog_optdata_dataloader_len_batch_none(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    dl = D.DataLoader(list(range(5)), batch_size=None, shuffle=False)
    return len(dl), list(dl), repr(type(next(iter(dl))))


@program()
def prog_optdata_dataloader_tensor_ds_direct(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    x = T.arange(6.0).reshape(3, 2)
    return list(D.DataLoader(x, batch_size=2)), list(
        D.DataLoader(T.arange(5), batch_size=2, drop_last=True)
    )


@program()
def prog_optdata_random_split_default_gen(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    T.manual_seed(3)
    a, b = D.random_split(range(6), [4, 2])
    return list(a), list(b), T.rand(1)


@program()
def prog_optdata_stack_dataset(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    s = D.StackDataset(D.TensorDataset(T.arange(3.0)), list("abc"))
    s2 = D.StackDataset(x=[1, 2], y=[3, 4])
    return (
        len(s),
        s[1],
        s2[0],
        raises(lambda: D.StackDataset([1], [1, 2])),
        raises(lambda: D.StackDataset([1], y=[1])),
    )


@program()
def prog_optdata_subset_random_sampler_len(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    g = T.Generator().manual_seed(0)
    s = D.SubsetRandomSampler(T.tensor([4, 2, 9]), generator=g)
    return len(s), list(s), list(s)


@program()
def prog_optdata_weighted_sampler_tensor_ops(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    T.manual_seed(0)
    s = D.WeightedRandomSampler(np.array([0.2, 0.8]), 5)
    first = list(s)
    return first, type(first[0]).__name__, T.rand(1)


# --- schedx ------------------------------------------------------------------------------------


def _schedx_O(T, lr=1.0, n=1, cls="SGD", **kw):
    return getattr(T.optim, cls)(
        [{"params": [T.nn.Parameter(T.ones(2))]} for _ in range(n)], lr=lr, **kw
    )


def _schedx_tr(o, s, n, m=None):
    out = []
    for i in range(n):
        o.step()
        s.step() if m is None else s.step(m[i])
        out.append(
            (
                s.get_last_lr() if hasattr(s, "get_last_lr") else None,
                [g["lr"] for g in o.param_groups],
            )
        )
    return out


@program()
def prog_schedx_add_group_after_sched(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.StepLR(o, 1, 0.5)
    o.add_param_group({"params": [T.nn.Parameter(T.ones(1))], "lr": 0.3})
    return _schedx_tr(o, s, 2), s.base_lrs


@program()
def prog_schedx_add_group_after_plateau(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.ReduceLROnPlateau(o, patience=0)
    o.add_param_group({"params": [T.nn.Parameter(T.ones(1))], "lr": 0.3})
    return raises(lambda: _schedx_tr(o, s, 3, [1, 2, 3]))


@program()
def prog_schedx_plateau_nan(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.ReduceLROnPlateau(o, patience=0)
    return _schedx_tr(o, s, 4, [float("nan"), 1.0, float("nan"), 2.0]), s.best, s.num_bad_epochs


@program()
def prog_schedx_plateau_eps(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, lr=1e-3)
    s = S.ReduceLROnPlateau(o, patience=0, factor=0.999, eps=1e-5)
    return _schedx_tr(o, s, 3, [1, 2, 3])


@program()
def prog_schedx_plateau_in_cooldown_props(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.ReduceLROnPlateau(o, patience=0, cooldown=2)
    r = _schedx_tr(o, s, 3, [1, 2, 3])
    return (
        r,
        s.in_cooldown,
        s.mode_worse,
        s.eps,
        s.min_lrs,
        s.default_min_lr if hasattr(s, "default_min_lr") else None,
    )


@program()
def prog_schedx_plateau_sd_load(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.ReduceLROnPlateau(o, patience=1, mode="max", threshold_mode="abs")
    _schedx_tr(o, s, 3, [1, 0.5, 0.2])
    sd = s.state_dict()
    o2 = _schedx_O(T)
    s2 = S.ReduceLROnPlateau(o2)
    s2.load_state_dict(sd)
    return sd, _schedx_tr(o2, s2, 3, [0.1, 0.05, 3]), s2.mode


@program()
def prog_schedx_poly_power_lt1(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    return _schedx_tr(o, S.PolynomialLR(o, total_iters=5, power=0.5), 7)


@program()
def prog_schedx_linear_total0(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.LinearLR(o, start_factor=0.5, total_iters=0)
    return s.get_last_lr(), _schedx_tr(o, s, 2)


@program()
def prog_schedx_constant_total0(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.ConstantLR(o, factor=0.5, total_iters=0)
    return s.get_last_lr(), _schedx_tr(o, s, 2)


@program()
def prog_schedx_seq_three(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, n=2)
    a = S.ConstantLR(o, factor=0.1, total_iters=2)
    b = S.ExponentialLR(o, gamma=0.9)
    c = S.StepLR(o, 2, 0.5)
    s = S.SequentialLR(o, [a, b, c], milestones=[2, 5])
    first = s.get_last_lr()
    r = _schedx_tr(o, s, 9)
    return first, r, [x.last_epoch for x in (a, b, c)]


@program()
def prog_schedx_seq_epoch_arg(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.SequentialLR(o, [S.ConstantLR(o, 0.5, 1), S.ExponentialLR(o, 0.5)], milestones=[2])
    o.step()
    return raises(lambda: s.step(3)), s.get_last_lr()


@program()
def prog_schedx_cyclic_sd_roundtrip(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, momentum=0.9)
    s = S.CyclicLR(o, 0.1, 1.0, step_size_up=2, mode="exp_range", gamma=0.9)
    _schedx_tr(o, s, 3)
    sd = s.state_dict()
    o2 = _schedx_O(T, momentum=0.9)
    s2 = S.CyclicLR(o2, 0.1, 1.0, step_size_up=2, mode="exp_range", gamma=0.9)
    s2.load_state_dict(sd)
    return (
        sorted(sd),
        _schedx_tr(o2, s2, 3),
        sd.get("_scale_fn_ref", "none"),
        sd.get("_scale_fn_custom"),
    )


@program()
def prog_schedx_cyclic_custom_scale_sd(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, momentum=0.9)
    s = S.CyclicLR(o, 0.1, 1.0, step_size_up=2, scale_fn=lambda x: 0.5)
    sd = s.state_dict()
    return sorted(sd), sd["_scale_fn_custom"] is None


@program()
def prog_schedx_onecycle_sd_roundtrip(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, cls="Adam", lr=0.01)
    s = S.OneCycleLR(o, 0.1, total_steps=10)
    _schedx_tr(o, s, 3)
    sd = s.state_dict()
    o2 = _schedx_O(T, cls="Adam", lr=0.01)
    s2 = S.OneCycleLR(o2, 0.1, total_steps=10)
    s2.load_state_dict(sd)
    return (
        sorted(sd),
        sd["_schedule_phases"],
        _schedx_tr(o2, s2, 3),
        [g["betas"] for g in o2.param_groups],
    )


@program()
def prog_schedx_cosine_restart_load(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    s = S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2)
    _schedx_tr(o, s, 3)
    sd = s.state_dict()
    o2 = _schedx_O(T)
    s2 = S.CosineAnnealingWarmRestarts(o2, T_0=5)
    s2.load_state_dict(sd)
    return sd, _schedx_tr(o2, s2, 4)


@program()
def prog_schedx_sched_get_lr_outside(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    out = []
    for mk in [
        lambda: S.StepLR(o, 1),
        lambda: S.CosineAnnealingLR(o, 3),
        lambda: S.OneCycleLR(_schedx_O(T, momentum=0.9), 0.1, total_steps=3),
        lambda: S.CyclicLR(_schedx_O(T, momentum=0.9), 0.1, 1.0),
        lambda: S.LinearLR(o),
        lambda: S.PolynomialLR(o),
    ]:
        s = mk()
        out.append(s.get_lr())
    return out


@program()
def prog_schedx_multiplicative_sd_callable_obj(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler

    class F:
        def __init__(self):
            self.f = 0.5

        def __call__(self, e):
            return self.f

    o = _schedx_O(T, n=2)
    f = F()
    s = S.MultiplicativeLR(o, [f, lambda e: 0.9])
    sd = s.state_dict()
    f2 = F()
    f2.f = 0.1
    o2 = _schedx_O(T, n=2)
    s2 = S.MultiplicativeLR(o2, [f2, lambda e: 0.9])
    f.f = 0.25
    sd = s.state_dict()
    s2.load_state_dict(sd)
    return sd["lr_lambdas"], f2.f, _schedx_tr(o2, s2, 2)


@program()
def prog_schedx_sched_last_epoch_resume_errors(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T)
    return [
        raises(lambda: S.CosineAnnealingLR(o, 3, last_epoch=2)),
        raises(lambda: S.OneCycleLR(_schedx_O(T, momentum=0.9), 0.1, total_steps=5, last_epoch=2)),
        raises(lambda: S.CyclicLR(_schedx_O(T, momentum=0.9), 0.1, 1.0, last_epoch=1)),
    ]


@program()
def prog_schedx_onecycle_resume(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, momentum=0.9)
    s = S.OneCycleLR(o, 0.1, total_steps=6)
    _schedx_tr(o, s, 2)
    s2 = S.OneCycleLR(o, 0.1, total_steps=6, last_epoch=2)
    return s2.get_last_lr(), _schedx_tr(o, s2, 2), [g["momentum"] for g in o.param_groups]


@program()
def prog_schedx_cyclic_resume(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    S = T.optim.lr_scheduler
    o = _schedx_O(T, momentum=0.9)
    s = S.CyclicLR(o, 0.1, 1.0, step_size_up=2)
    _schedx_tr(o, s, 2)
    s2 = S.CyclicLR(o, 0.1, 1.0, step_size_up=2, last_epoch=2)
    return (
        s2.get_last_lr(),
        _schedx_tr(o, s2, 2),
        [g["momentum"] for g in o.param_groups],
        s2.base_lrs,
    )


# --- lossx -------------------------------------------------------------------------------------


def _lossx_D(*s, seed=0):
    return np.random.default_rng(seed).standard_normal(s).astype(np.float32)


@program()
def prog_lossx_losses_empty(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.zeros(0, 3, requires_grad=True)
    t = T.zeros(0, dtype=T.int64)
    out = {}
    for red in ["mean", "sum", "none"]:
        out[red] = [
            F.cross_entropy(x, t, reduction=red),
            F.nll_loss(x, t, reduction=red),
            F.mse_loss(x, x.detach(), reduction=red),
            F.l1_loss(x, x.detach() + 1, reduction=red),
            F.binary_cross_entropy_with_logits(x, x.detach(), reduction=red),
            F.smooth_l1_loss(x, x.detach(), reduction=red),
            F.kl_div(x, x.detach(), reduction=red),
            F.huber_loss(x, x.detach(), reduction=red),
        ]
    out["bm"] = F.kl_div(x, x.detach(), reduction="batchmean")
    return out


@program()
def prog_lossx_losses_dtype_mismatch(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(3, 2), requires_grad=True)
    y64 = T.tensor(_lossx_D(3, 2, seed=1)).double()
    return [
        raises(lambda: F.mse_loss(x, y64)),
        raises(lambda: F.l1_loss(x, y64)),
        raises(lambda: F.binary_cross_entropy_with_logits(x, y64)),
        raises(lambda: F.smooth_l1_loss(x, y64)),
        raises(lambda: F.huber_loss(x, y64)),
        raises(lambda: F.cross_entropy(x, y64)),
        raises(lambda: F.mse_loss(x, T.ones(3, 2, dtype=T.int64))),
        raises(lambda: F.kl_div(x, y64)),
        raises(lambda: F.binary_cross_entropy(x.sigmoid(), y64)),
        raises(lambda: F.cross_entropy(x, T.tensor([0, 1, 1], dtype=T.int32))),
        raises(lambda: F.nll_loss(x, T.tensor([0, 1, 1], dtype=T.uint8))),
    ]


@program()
def prog_lossx_losses_grads_float64_target(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(3, 2), requires_grad=True)
    y = T.tensor(_lossx_D(3, 2, seed=1))
    ls = [
        F.mse_loss(x.double(), y.double()),
        F.soft_margin_loss(x, y.sign()),
        F.poisson_nll_loss(x, y.abs()),
        F.gaussian_nll_loss(x, y, T.ones(3, 2)),
    ]
    gs = T.autograd.grad(sum(lv.float() for lv in ls), x)
    return ls, gs, [lv.grad_fn for lv in ls]


@program()
def prog_lossx_ce_target_shapes(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(2, 3, 4), requires_grad=True)
    return [
        raises(lambda: F.cross_entropy(x, T.zeros(2, 3, dtype=T.int64))),
        raises(lambda: F.cross_entropy(x, T.zeros(2, 5, dtype=T.int64))),
        F.cross_entropy(x, T.zeros(2, 4, dtype=T.int64)),
        raises(lambda: F.cross_entropy(x, T.zeros(2, 4))),
        F.cross_entropy(x, T.softmax(T.tensor(_lossx_D(2, 3, 4, seed=2)), 1), label_smoothing=0.3),
        raises(lambda: F.cross_entropy(T.tensor(5.0), T.tensor(1))),
        F.cross_entropy(T.tensor([1.0, 2.0, 0.5]), T.tensor(1)),
        raises(lambda: F.nll_loss(T.ones(2, 3, 4, 5, 6), T.zeros(2, 4, 5, 6, dtype=T.int64))),
    ]


@program()
def prog_lossx_ce_weight_smoothing_ignore_grad(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(5, 4), requires_grad=True)
    t = T.tensor([0, 3, -1, 2, 3])
    w = T.tensor([0.5, 1.0, 2.0, 0.0])
    out = []
    for red in ["mean", "sum", "none"]:
        lv = F.cross_entropy(x, t, weight=w, ignore_index=-1, label_smoothing=0.25, reduction=red)
        out.append((lv, T.autograd.grad(lv.sum(), x)[0]))
    return out


@program()
def prog_lossx_bce_weight_grad_and_pos_weight_broadcast(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(2, 3, 4), requires_grad=True)
    y = T.rand(2, 3, 4, generator=T.Generator().manual_seed(0))
    pw = T.tensor([[1.0], [2.0], [3.0]]).expand(3, 4)
    w = T.tensor([1.0, 2.0, 0.0, 1.0])
    lv = F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw)
    return lv, T.autograd.grad(lv, x)[0]


@program()
def prog_lossx_multilabel_soft_margin_and_margins(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(3, 4), requires_grad=True)
    y = (T.tensor(_lossx_D(3, 4, seed=1)) > 0).float()
    out = []
    for red in ["mean", "sum", "none"]:
        out.append(
            [
                F.multilabel_soft_margin_loss(x, y, reduction=red),
                F.multi_margin_loss(x, T.tensor([0, 3, 1]), reduction=red, p=1, margin=2.0),
                F.hinge_embedding_loss(x, y * 2 - 1, reduction=red),
            ]
        )
    g = T.autograd.grad(sum(lv.sum() for r in out for lv in r), x)
    return out, g


@program()
def prog_lossx_ctc_reductions(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    lp = T.tensor(_lossx_D(6, 2, 4)).log_softmax(2).requires_grad_()
    tg = T.tensor([[1, 2, 2], [3, 1, 0]])
    il = T.tensor([6, 5])
    tl = T.tensor([3, 2])
    out = []
    for red in ["mean", "sum", "none"]:
        lv = F.ctc_loss(lp, tg, il, tl, reduction=red, zero_infinity=True)
        out.append((lv, T.autograd.grad(lv.sum(), lp)[0]))
    return out


@program()
def prog_lossx_cosine_triplet_grads(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    a = T.tensor(_lossx_D(3, 4), requires_grad=True)
    b = T.tensor(_lossx_D(3, 4, seed=1))
    c = T.tensor(_lossx_D(3, 4, seed=2))
    ls = [
        F.cosine_embedding_loss(a, b, T.tensor([1, -1, 1]), margin=-0.2),
        F.triplet_margin_loss(a, b, c, swap=True, p=3),
        F.margin_ranking_loss(a[:, 0], b[:, 0], T.tensor([1.0, -1.0, 1.0]), reduction="sum"),
        F.pairwise_distance(a, b, p=1.5, keepdim=True).sum(),
    ]
    return ls, T.autograd.grad(sum(ls), a)


@program()
def prog_lossx_nll_2d_weight_ignore(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.functional
    x = T.tensor(_lossx_D(2, 3, 2, 2)).log_softmax(1).requires_grad_()
    t = T.tensor([[[0, 2], [1, 1]], [[2, 2], [0, 1]]])
    w = T.tensor([1.0, 0.5, 2.0])
    out = []
    for red in ["mean", "sum", "none"]:
        lv = F.nll_loss(x, t, weight=w, ignore_index=1, reduction=red)
        out.append((lv, T.autograd.grad(lv.sum(), x)[0]))
    return out


# --- nnutil ------------------------------------------------------------------------------------


def _nnutil_D(*s, seed=0):
    return np.random.default_rng(seed).standard_normal(s).astype(np.float32)


def _nnutil_S(T, m, seed=0):
    rng = np.random.default_rng(seed)
    with T.no_grad():
        for _, p in sorted(m.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape)).astype(np.float32)))
    return m


@program()
def prog_nnutil_orthogonal_maps(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    PZ = T.nn.utils.parametrizations
    out = {}
    for mp in ["matrix_exp", "cayley", "householder"]:
        for triv in [True, False]:
            m = _nnutil_S(T, T.nn.Linear(3, 3), 1)
            r = raises(
                lambda m=m, mp=mp, triv=triv: PZ.orthogonal(
                    m, orthogonal_map=mp, use_trivialization=triv
                )
            )
            if not hasattr(r, "message"):
                w = m.weight
                x = T.tensor(_nnutil_D(2, 3))
                m(x).sum().backward()
                out[f"{mp}{triv}"] = (
                    w,
                    (w @ w.T),
                    [p.grad for p in m.parameters()],
                    list(m.state_dict()),
                )
            else:
                out[f"{mp}{triv}"] = r
    m = _nnutil_S(T, T.nn.Linear(4, 2), 2)
    PZ.orthogonal(m)
    out["rect"] = (m.weight, m.weight @ m.weight.T)
    out["bad"] = raises(lambda: PZ.orthogonal(T.nn.Linear(2, 2), orthogonal_map="qr"))
    out["1d"] = raises(lambda: PZ.orthogonal(T.nn.BatchNorm1d(2)))
    return out


@program()
def prog_nnutil_orthogonal_assign(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    PZ = T.nn.utils.parametrizations
    m = _nnutil_S(T, T.nn.Linear(3, 3), 3)
    PZ.orthogonal(m)
    q = T.linalg.qr(T.tensor(_nnutil_D(3, 3, seed=5)))[0]
    m.weight = q
    return m.weight, raises(lambda: setattr(m, "weight", T.ones(3, 3)))


@program()
def prog_nnutil_spectral_norm_old_api(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    U = T.nn.utils
    T.manual_seed(0)
    m = _nnutil_S(T, T.nn.Linear(3, 2), 4)
    U.spectral_norm(m, n_power_iterations=2)
    sd = list(m.state_dict())
    x = T.tensor(_nnutil_D(2, 3))
    y = m(x)
    m.eval()
    ye = m(x)
    U.remove_spectral_norm(m)
    return (
        sd,
        y,
        ye,
        m.weight,
        [k for k, _ in m.named_parameters()],
        raises(lambda: U.remove_spectral_norm(m)),
    )


@program()
def prog_nnutil_weight_norm_old_api(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    U = T.nn.utils
    m = _nnutil_S(T, T.nn.Conv1d(2, 3, 2), 4)
    U.weight_norm(m, dim=1)
    names = [k for k, _ in m.named_parameters()]
    y = m(T.tensor(_nnutil_D(1, 2, 4)))
    y.sum().backward()
    g = (m.weight_g.grad, m.weight_v.grad)
    U.remove_weight_norm(m)
    return (
        names,
        y,
        g,
        m.weight,
        raises(lambda: U.remove_weight_norm(m)),
        raises(lambda: U.weight_norm(U.weight_norm(T.nn.Linear(2, 2)))),
    )


@program()
def prog_nnutil_parametrize_cached_grad_and_original(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    P = T.nn.utils.parametrize

    class Sq(T.nn.Module):
        def forward(self, X):
            return X * X

    m = _nnutil_S(T, T.nn.Linear(2, 2), 5)
    P.register_parametrization(m, "weight", Sq(), unsafe=True)
    x = T.tensor(_nnutil_D(3, 2))
    with P.cached():
        y = m(x) + m(x)
    y.sum().backward()
    return (
        y,
        m.parametrizations.weight.original.grad,
        repr(m.parametrizations),
        type(m.parametrizations.weight).__name__,
        repr(m.parametrizations.weight),
    )


@program()
def prog_nnutil_parametrize_on_buffer_and_bias(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    P = T.nn.utils.parametrize

    class Pos(T.nn.Module):
        def forward(self, X):
            return X.abs()

    m = T.nn.BatchNorm1d(2)
    P.register_parametrization(m, "running_mean", Pos())
    m.train()
    r = raises(lambda: m(T.ones(3, 2)))
    sd = list(m.state_dict())
    return sd, [k for k, _ in m.named_buffers()], r


@program()
def prog_nnutil_parametrize_right_inverse_tuple(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    P = T.nn.utils.parametrize

    class Split(T.nn.Module):
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X / 2, X / 2

    m = _nnutil_S(T, T.nn.Linear(2, 2), 6)
    w0 = m.weight.detach().clone()
    P.register_parametrization(m, "weight", Split())
    names = [k for k, _ in m.named_parameters()]
    return names, m.weight, w0, m.parametrizations.weight.original0


@program()
def prog_nnutil_parametrize_stacked_remove_order(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    P = T.nn.utils.parametrize

    class Add1(T.nn.Module):
        def forward(self, X):
            return X + 1

    class Dbl(T.nn.Module):
        def forward(self, X):
            return X * 2

    m = _nnutil_S(T, T.nn.Linear(2, 2), 7)
    P.register_parametrization(m, "weight", Add1())
    P.register_parametrization(m, "weight", Dbl())
    w = m.weight.detach().clone()
    plist = m.parametrizations.weight
    return (
        w,
        len(plist),
        repr(plist),
        [type(p).__name__ for p in plist],
        P.type_before_parametrizations(m).__name__,
    )


@program()
def prog_nnutil_skip_init_and_stateless(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    U = T.nn.utils
    m = U.skip_init(T.nn.Linear, 2, 3)
    sh = m.weight.shape
    lin = _nnutil_S(T, T.nn.Linear(2, 1), 8)
    x = T.tensor(_nnutil_D(4, 2))
    y = T.func.functional_call(lin, {"weight": T.ones(1, 2)}, (x,))
    y2 = T.func.functional_call(lin, ({"weight": T.ones(1, 2)}, {"bias": T.zeros(1)}), x)
    r = raises(
        lambda: T.func.functional_call(
            lin, ({"weight": T.ones(1, 2)}, {"weight": T.zeros(1, 2)}), x
        )
    )
    r2 = raises(lambda: T.func.functional_call(lin, {"nope": T.ones(1)}, x, strict=True))
    return sh, y, y2, r, r2, lin.weight


@program()
def prog_nnutil_fuse_conv_bn(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    U = T.nn.utils
    conv = _nnutil_S(T, T.nn.Conv2d(2, 3, 2), 1)
    bn = _nnutil_S(T, T.nn.BatchNorm2d(3), 2)
    bn.running_mean.copy_(T.tensor([0.1, -0.2, 0.3]))
    bn.running_var.copy_(T.tensor([1.5, 0.5, 2.0]))
    conv.eval()
    bn.eval()
    f = U.fuse_conv_bn_eval(conv, bn)
    x = T.tensor(_nnutil_D(1, 2, 3, 3))
    lin = _nnutil_S(T, T.nn.Linear(2, 3), 3)
    bn1 = _nnutil_S(T, T.nn.BatchNorm1d(3), 4).eval()
    fl = U.fuse_linear_bn_eval(lin.eval(), bn1)
    return (
        f(x),
        bn(conv(x)),
        fl(T.tensor(_nnutil_D(2, 2))),
        raises(lambda: U.fuse_conv_bn_eval(conv.train(), bn)),
    )


@program()
def prog_nnutil_rnn_utils_pack_sort(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    R = T.nn.utils.rnn
    seqs = [T.tensor(_nnutil_D(n, 2, seed=n)) for n in [2, 4, 3]]
    padded = R.pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    packed = R.pack_padded_sequence(
        padded, T.tensor([2, 4, 3]), batch_first=True, enforce_sorted=False
    )
    un, lens = R.pad_packed_sequence(packed, batch_first=True, total_length=5)
    ps = R.pack_sequence(seqs, enforce_sorted=False)
    return (
        padded,
        packed.batch_sizes,
        packed.sorted_indices,
        packed.unsorted_indices,
        un,
        lens,
        R.unpack_sequence(ps),
        R.unpad_sequence(padded, T.tensor([2, 4, 3]), batch_first=True),
        raises(lambda: R.pack_padded_sequence(padded, T.tensor([2, 4, 3]), batch_first=True)),
        raises(lambda: R.pad_packed_sequence(packed, total_length=2)),
    )


@program()
def prog_nnutil_module_buffers_in_deepcopy_and_pickle(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.BatchNorm1d(2))
    m[1].register_buffer("np", T.ones(1), persistent=False)
    buf = io.BytesIO()
    T.save(m, buf)
    buf.seek(0)
    m2 = T.load(buf, weights_only=False)
    m3 = copy.deepcopy(m)
    return (
        list(m2.state_dict()),
        [k for k, _ in m2.named_buffers()],
        m3[1]._non_persistent_buffers_set,
        repr(m2),
    )


@program()
def prog_nnutil_weights_only_load_module_error(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    m = T.nn.Linear(2, 2)
    buf = io.BytesIO()
    T.save(m, buf)
    buf.seek(0)
    r = raises(lambda: T.load(buf))
    return type(r).__name__, getattr(r, "type", None)


# --- hooksx ------------------------------------------------------------------------------------


def _hooksx_D(*s, seed=0):
    return np.random.default_rng(seed).standard_normal(s).astype(np.float32)


@program()
def prog_hooksx_bw_hook_multi_io(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []

    class M(T.nn.Module):
        def forward(self, a, b, k=2):
            return a * b, a + k, 5

    m = M()
    m.register_full_backward_hook(
        lambda mod, gi, go: log.append(
            (
                "h",
                [None if g is None else g.tolist() for g in gi],
                [None if g is None else g.tolist() for g in go],
            )
        )
    )
    m.register_full_backward_pre_hook(
        lambda mod, go: log.append(("pre", [None if g is None else g.tolist() for g in go]))
    )
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0])
    x, y, _z = m(a, b)
    (x.sum() * 2).backward()
    return log, a.grad, x.grad_fn, y.grad_fn


@program()
def prog_hooksx_bw_hook_no_input_grad(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    lin = T.nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda mod, gi, go: log.append([g is None for g in gi]))
    lin.weight.requires_grad_(False)
    lin.bias.requires_grad_(False)
    x = T.ones(1, 2, requires_grad=True)
    lin(x).sum().backward()
    lin2 = T.nn.Linear(2, 2)
    lin2.register_full_backward_hook(lambda mod, gi, go: log.append("never"))
    with T.no_grad():
        y = lin2(x)
    return log, y.requires_grad


@program()
def prog_hooksx_bw_hook_wrong_return(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    lin = T.nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda mod, gi, go: (T.ones(1, 2), T.ones(1)))
    x = T.ones(1, 2, requires_grad=True)
    r = raises(lambda: lin(x).sum().backward())
    lin2 = T.nn.Linear(2, 2)
    lin2.register_full_backward_hook(lambda mod, gi, go: (T.ones(3, 3),))
    r2 = raises(lambda: lin2(x).sum().backward())
    lin3 = T.nn.Linear(2, 2)
    lin3.register_full_backward_pre_hook(lambda mod, go: (T.ones(1, 2), T.ones(1, 2)))
    r3 = raises(lambda: lin3(x).sum().backward())
    return r, r2, r3


@program()
def prog_hooksx_bw_hook_inplace_output(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    r = T.nn.ReLU(inplace=True)
    r.register_full_backward_hook(lambda *a: None)
    x = T.ones(2, requires_grad=True) * 1
    return raises(lambda: r(x))


@program()
def prog_hooksx_bw_hook_dict_output(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it

    class M(T.nn.Module):
        def forward(self, x):
            return {"a": x * 2}

    m = M()
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append(len(go)))
    x = T.ones(2, requires_grad=True)
    out = m(x)
    out["a"].sum().backward()
    return log, x.grad


@program()
def prog_hooksx_forward_hook_kwargs_only_call(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    lin = T.nn.Linear(2, 2)
    lin.register_forward_pre_hook(lambda m, args: log.append(("pre", len(args))))
    lin.register_forward_hook(lambda m, args, out: log.append(("post", len(args))))
    lin.register_forward_pre_hook(
        lambda m, args, kwargs: log.append(("kwpre", list(kwargs))), with_kwargs=True
    )
    lin(input=T.ones(1, 2))
    return log


@program()
def prog_hooksx_forward_pre_hook_returns_non_tuple(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    T.manual_seed(0)
    lin = T.nn.Linear(2, 2)
    lin.register_forward_pre_hook(lambda m, args: args[0] * 0)
    y = lin(T.ones(1, 2))
    lin2 = T.nn.Linear(2, 2)
    lin2.register_forward_pre_hook(lambda m, a, k: (a, k, 1), with_kwargs=True)
    return y, lin.bias, raises(lambda: lin2(T.ones(1, 2)))


@program()
def prog_hooksx_hooks_dict_state_and_removal(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    lin = T.nn.Linear(2, 2)
    h1 = lin.register_forward_hook(lambda *a: None)
    h2 = lin.register_forward_pre_hook(lambda *a: None)
    h3 = lin.register_full_backward_hook(lambda *a: None)
    n = (len(lin._forward_hooks), len(lin._forward_pre_hooks), len(lin._backward_hooks))
    h1.remove()
    h1.remove()
    with h2:
        pass
    return n, (len(lin._forward_hooks), len(lin._forward_pre_hooks)), h3.id - h1.id


@program()
def prog_hooksx_global_backward_hook(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    mm = T.nn.modules.module
    h = mm.register_module_full_backward_hook(lambda m, gi, go: log.append(type(m).__name__))
    h2 = mm.register_module_full_backward_pre_hook(
        lambda m, go: log.append("pre-" + type(m).__name__)
    )
    try:
        s = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Tanh())
        x = T.ones(1, 2, requires_grad=True)
        s(x).sum().backward()
    finally:
        h.remove()
        h2.remove()
    return log


@program()
def prog_hooksx_module_call_with_hooks_and_exception(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    lin = T.nn.Linear(2, 2)
    lin.register_forward_hook(lambda m, a, o: log.append("always"), always_call=True)
    lin.register_forward_hook(
        lambda m, a, k, o: log.append(("kw", o)), with_kwargs=True, always_call=True
    )
    r = raises(lambda: lin(T.ones(1, 3)))
    return log, r


@program()
def prog_hooksx_state_dict_hook_on_submodule_and_pre_load_module(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    log = []
    s = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Sequential(T.nn.Linear(2, 1)))
    s[1].register_load_state_dict_pre_hook(
        lambda m, sd, prefix, *a: log.append(("pre", type(m).__name__, prefix))
    )
    s[1][0].register_load_state_dict_post_hook(
        lambda m, inc: log.append(("post", list(inc.missing_keys), list(inc.unexpected_keys)))
    )
    sd = s.state_dict()
    sd["1.0.extra"] = T.ones(1)
    r = s.load_state_dict(sd, strict=False)
    return log, str(r)


@program()
def prog_hooksx_register_state_dict_post_hook_returns(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    lin = T.nn.Linear(2, 2)
    lin.register_state_dict_post_hook(lambda m, sd, prefix, meta: {"x": 1})
    return raises(lambda: lin.state_dict())


@program()
def prog_hooksx_load_state_dict_post_hook_errors(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    lin = T.nn.Linear(2, 2)
    lin.register_load_state_dict_post_hook(lambda m, inc: inc.missing_keys.append("zzz"))
    r = raises(lambda: lin.load_state_dict(lin.state_dict()))
    lin2 = T.nn.Linear(2, 2)
    lin2.register_load_state_dict_post_hook(lambda m, inc: 5)
    r2 = raises(lambda: lin2.load_state_dict(lin2.state_dict()))
    return r, r2


# --- layers ------------------------------------------------------------------------------------


def _layers_mods(T):
    nn = T.nn
    return [
        nn.Bilinear(2, 3, 4),
        nn.Fold((4, 4), 2),
        nn.Unfold(2, dilation=1, padding=1, stride=2),
        nn.CosineSimilarity(dim=0, eps=1e-6),
        nn.PairwiseDistance(p=1.0, keepdim=True),
        nn.PixelShuffle(2),
        nn.PixelUnshuffle(2),
        nn.ChannelShuffle(2),
        nn.Softmax2d(),
        nn.LogSoftmax(1),
        nn.Softmin(0),
        nn.RMSNorm(4),
        nn.RMSNorm([2, 3], eps=1e-5, elementwise_affine=False),
        nn.CircularPad2d(1),
        nn.ZeroPad1d((1, 2)),
        nn.ReflectionPad3d(1),
        nn.ReplicationPad1d(2),
        nn.ConstantPad2d((1, 0, 2, 0), 3.5),
        nn.LPPool1d(2, 3),
        nn.LPPool2d(1.5, (2, 2), stride=1),
        nn.Hardshrink(0.3),
        nn.Softshrink(),
        nn.Tanhshrink(),
        nn.LogSigmoid(),
        nn.Softplus(beta=2, threshold=10),
        nn.CELU(0.5),
        nn.SELU(inplace=True),
        nn.GLU(-1),
        nn.Mish(),
        nn.SiLU(),
        nn.Hardswish(),
        nn.Hardsigmoid(),
        nn.RReLU(0.1, 0.3),
        nn.LeakyReLU(0.2, True),
        nn.ReLU6(),
        nn.GELU("tanh"),
        nn.Softsign(),
        nn.MaxUnpool2d(2, stride=2, padding=0),
        nn.AvgPool3d(
            2, stride=1, padding=1, ceil_mode=True, count_include_pad=False, divisor_override=3
        ),
        nn.AdaptiveMaxPool1d(3, return_indices=True),
        nn.FractionalMaxPool2d(2, output_ratio=0.5),
        nn.InstanceNorm1d(3, affine=True, track_running_stats=True),
        nn.LocalResponseNorm(3, alpha=1e-3),
        nn.CrossMapLRN2d(3),
        nn.Dropout1d(0.2),
        nn.AlphaDropout(0.1),
        nn.FeatureAlphaDropout(0.3, inplace=True),
        nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=1, groups=1, dilation=2),
        nn.Conv3d(1, 2, (1, 2, 3), padding=(0, 1, 1), padding_mode="circular"),
        nn.RNN(2, 3, nonlinearity="relu", bias=False),
        nn.GRUCell(2, 3),
        nn.LSTMCell(2, 3, bias=False),
        nn.RNNCell(2, 3, nonlinearity="tanh"),
        nn.Transformer(
            d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8
        ),
        nn.TransformerDecoderLayer(4, 2, 8, norm_first=True, activation="gelu", bias=False),
        nn.Upsample(size=(3, 4), mode="nearest"),
        nn.UpsamplingBilinear2d(scale_factor=2),
        nn.UpsamplingNearest2d(size=5),
        nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8], div_value=2.0, head_bias=True),
        nn.EmbeddingBag(5, 2, mode="max", max_norm=1.0),
        nn.SyncBatchNorm(3),
        nn.ZeroPad2d(2),
        nn.ZeroPad3d((1, 1, 1, 1, 0, 0)),
        nn.CircularPad1d((1, 2)),
        nn.CircularPad3d(1),
        nn.ReflectionPad1d(1),
        nn.ReflectionPad2d((1, 0, 0, 1)),
        nn.ReplicationPad2d(1),
        nn.ReplicationPad3d(1),
        nn.ConstantPad1d(2, -1.0),
        nn.ConstantPad3d(1, 0.0),
        nn.LazyConv1d(4, 3),
        nn.LazyBatchNorm2d(),
        nn.LazyConvTranspose3d(2, 2),
        nn.LazyInstanceNorm2d(),
        nn.Flatten(),
        nn.Unflatten("features", (("C", 2), ("H", 3))) if False else nn.Identity(),
        nn.MultiLabelSoftMarginLoss(),
        nn.CTCLoss(blank=1, zero_infinity=True),
        nn.PoissonNLLLoss(log_input=False),
        nn.GaussianNLLLoss(full=True),
        nn.TripletMarginWithDistanceLoss(margin=2.0),
        nn.NLLLoss(ignore_index=0),
        nn.MarginRankingLoss(0.5),
        nn.HuberLoss(delta=2.0, reduction="sum"),
        nn.SmoothL1Loss(beta=0.5),
        nn.KLDivLoss(log_target=True, reduction="batchmean"),
        nn.BCELoss(weight=T.ones(2)),
        nn.BCEWithLogitsLoss(pos_weight=T.ones(2)),
        nn.CosineEmbeddingLoss(margin=0.1),
        nn.MultiMarginLoss(p=2, margin=0.5),
        nn.TripletMarginLoss(p=1, swap=True),
    ]


@program()
def prog_layers_reprs(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    return [repr(m) for m in _layers_mods(T)]


@program()
def prog_layers_state_dict_keys(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    lazy = T.nn.modules.lazy.LazyModuleMixin
    return [
        (type(m).__name__, [(k, tuple(v.shape), str(v.dtype)) for k, v in m.state_dict().items()])
        for m in _layers_mods(T)
        if not isinstance(m, lazy)
    ]


@program()
def prog_layers_extra_attrs(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    out = []
    for m in _layers_mods(T):
        d = {
            k: v
            for k, v in vars(m).items()
            if not k.startswith("_")
            and k != "training"
            and isinstance(v, (int, float, str, tuple, bool, type(None)))
        }
        out.append((type(m).__name__, d))
    return out


@program()
def prog_layers_dtypes_after_double(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    return [[str(v.dtype) for v in m.double().state_dict().values()] for m in _layers_mods(T)]


@program(tol=Tolerance(1e-4, 2e-5, "two SGD steps through conv and batch norms, then eval"))
def prog_layers_sync_batchnorm_convert_and_train(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    nn = T.nn
    T.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(2, 3, 3, padding=1),
        nn.BatchNorm2d(3, momentum=None),
        nn.ReLU(),
        nn.Sequential(nn.Flatten(), nn.Linear(48, 4), nn.BatchNorm1d(4, affine=False)),
    )
    bn = model[1]
    model.eval()
    conv = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    same = (
        conv is model,
        conv[1].weight is bn.weight,
        conv[1].running_mean is bn.running_mean,
        conv[1].training,
    )
    conv.train()
    opt = T.optim.SGD(conv.parameters(), lr=0.1, momentum=0.9)
    x = T.randn(2, 2, 4, 4)
    log = []
    for _ in range(2):
        opt.zero_grad()
        y = conv(x)
        y.pow(2).mean().backward()
        opt.step()
        log.append(
            (
                y.detach(),
                conv[1].running_mean.clone(),
                conv[1].num_batches_tracked.clone(),
                conv[3][2].running_var.clone(),
            )
        )
    conv.eval()
    single = nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm1d(2, bias=False))
    sbn = nn.SyncBatchNorm(3)
    return {
        "repr": repr(conv),
        "same": same,
        "log": log,
        "eval": conv(x),
        "single": (repr(single), type(single).__name__),
        "1d": raises(lambda: sbn(T.ones(3))),
        "zero_ch": raises(lambda: nn.SyncBatchNorm(0)(T.ones(2, 0))),
        "3d_in": sbn(T.ones(2, 3, 5, 1, 1)).shape,
        "wrong_ch": raises(lambda: sbn(T.ones(2, 4))),
        "pg": sbn.process_group,
        "isbn": isinstance(sbn, T.nn.modules.batchnorm._BatchNorm),
        "sd": list(sbn.state_dict()),
    }


# --- workers -----------------------------------------------------------------------------------


@program()
def prog_workers_workers_basic(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data
    ds = D.TensorDataset(T.arange(10.0))
    dl = D.DataLoader(ds, batch_size=3, num_workers=2)
    return [b for b in dl], len(dl)


@program()
def prog_workers_workers_random_aug(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class Aug(D.Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            info = D.get_worker_info()
            return T.rand(1) + i, info.id if info else -1

    T.manual_seed(0)
    dl = D.DataLoader(Aug(), batch_size=2, num_workers=2)
    return list(dl), T.rand(1)


@program()
def prog_workers_workers_iterable_split(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class It(D.IterableDataset):
        def __iter__(self):
            info = D.get_worker_info()
            if info is None:
                return iter(range(6))
            return iter(range(info.id, 6, info.num_workers))

    return list(D.DataLoader(It(), batch_size=2, num_workers=2))


@program()
def prog_workers_worker_init_fn(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    def init(wid):
        info = D.get_worker_info()
        info.dataset.offset = 100 * (wid + 1)

    class DS(D.Dataset):
        offset = 0

        def __len__(self):
            return 4

        def __getitem__(self, i):
            return i + self.offset

    return list(D.DataLoader(DS(), batch_size=1, num_workers=2, worker_init_fn=init))


@program()
def prog_workers_generator_with_workers(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class Aug(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return T.randint(0, 1000, (1,))

    g = T.Generator().manual_seed(3)
    return list(D.DataLoader(Aug(), batch_size=2, num_workers=2, generator=g))


@program()
def prog_workers_persistent_workers_epochs(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class Aug(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return T.rand(1) + i

    T.manual_seed(1)
    calls = []
    dl = D.DataLoader(
        Aug(),
        batch_size=2,
        num_workers=2,
        persistent_workers=True,
        worker_init_fn=lambda w: calls.append(w),
    )
    e1 = list(dl)
    e2 = list(dl)
    dl2 = D.DataLoader(Aug(), batch_size=2, num_workers=2, shuffle=True)
    e3 = list(dl2)
    e4 = list(dl2)
    return e1, e2, e3, e4, T.rand(1)


@program()
def prog_workers_iterable_uneven_workers(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class It(D.IterableDataset):
        def __iter__(self):
            info = D.get_worker_info()
            n = 7 if info.id == 0 else 2
            return iter(range(info.id * 100, info.id * 100 + n))

        def __len__(self):
            return 5

    dl = D.DataLoader(It(), batch_size=2, num_workers=3)
    n = len(dl)
    return (
        list(dl),
        n,
        list(D.DataLoader(It(), batch_size=None, num_workers=2)),
        list(D.DataLoader(It(), batch_size=3, num_workers=2, drop_last=True)),
    )


@program()
def prog_workers_numpy_and_random_in_workers(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    random = importlib.import_module("random")
    D = T.utils.data

    class Aug(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return np.random.rand(), random.random(), T.randn(1)

    T.manual_seed(5)
    out = list(D.DataLoader(Aug(), batch_size=2, num_workers=2))
    return out


@program()
def prog_workers_worker_exception(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class Bad(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            if i == 3:
                raise ValueError("bad index")
            return i

    dl = D.DataLoader(Bad(), batch_size=1, num_workers=2)
    it = iter(dl)
    got = [next(it), next(it), next(it)]
    try:
        next(it)
    except ValueError as e:
        got.append(str(e).split("\n")[0])
    return got


@program()
def prog_workers_iterable_len_warning(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class It(D.IterableDataset):
        def __iter__(self):
            return iter(range(5))

        def __len__(self):
            return 2

        def __repr__(self):
            return "It()"

    dl = D.DataLoader(It(), batch_size=1)
    n = len(dl)
    return n, list(dl), list(D.DataLoader(It(), batch_size=1))


@program()
def prog_workers_worker_info_attrs(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    D = T.utils.data

    class DS(D.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            info = D.get_worker_info()
            return (
                info.id,
                info.num_workers,
                info.dataset is self,
                type(info).__name__,
                info.worker_method,
            )

    T.manual_seed(0)
    return list(D.DataLoader(DS(), batch_size=None, num_workers=2)), D.get_worker_info()


# --- nnutil2 -----------------------------------------------------------------------------------


def _nnutil2_D(*s, seed=0):
    return np.random.default_rng(seed).standard_normal(s).astype(np.float32)


@program()
def prog_nnutil2_stateless_functional_call_deprecated(T: Any) -> Any:
    T.manual_seed(0)
    lin = T.nn.Linear(2, 1)
    y = T.nn.utils.stateless.functional_call(lin, {"weight": T.ones(1, 2)}, (T.ones(3, 2),))
    return y


@program()
def prog_nnutil2_clip_grad_norm_deprecated_name(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    p = T.nn.Parameter(T.ones(2))
    p.grad = T.ones(2) * 3
    return T.nn.utils.clip_grad_norm(p, 1.0), p.grad


@program()
def prog_nnutil2_weight_norm_deprecated(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.utils.weight_norm(T.nn.Linear(2, 2))
    return [k for k, _ in m.named_parameters()]


@program()
def prog_nnutil2_fuse_weights(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    F = T.nn.utils.fusion
    w, b = F.fuse_conv_bn_weights(
        T.ones(2, 1, 1, 1),
        T.zeros(2),
        T.tensor([0.1, 0.2]),
        T.tensor([1.0, 2.0]),
        1e-5,
        T.tensor([1.0, 0.5]),
        T.tensor([0.0, 1.0]),
    )
    w2, b2 = F.fuse_linear_bn_weights(
        T.ones(2, 3), None, T.zeros(2), T.ones(2), 1e-5, T.ones(2), T.zeros(2)
    )
    return w, b, type(w).__name__, w2, b2, w.requires_grad


@program()
def prog_nnutil2_invert_permutation(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    R = T.nn.utils.rnn
    return R.invert_permutation(T.tensor([2, 0, 1])), R.invert_permutation(None)


@program()
def prog_nnutil2_convert_memory_format(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Sequential(T.nn.Conv2d(1, 2, 2), T.nn.ReLU())
    r = T.nn.utils.convert_conv2d_weight_memory_format(m, T.channels_last)
    return (
        r is m,
        m[0].weight.is_contiguous(),
        m[0].weight.is_contiguous(memory_format=T.channels_last),
    )


@program()
def prog_nnutil2_parameters_to_vector_errors(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    U = T.nn.utils
    return raises(lambda: U.parameters_to_vector(T.ones(3))), U.parameters_to_vector(
        [T.ones(2, 2), T.zeros(1)]
    )


@program()
def prog_nnutil2_module_half_grad_and_float_loss(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Linear(3, 2).double()
    x = T.tensor(_nnutil2_D(4, 3)).double()
    loss = m(x).pow(2).mean()
    loss.backward()
    opt = T.optim.Adam(m.parameters(), lr=0.1)
    opt.step()
    return m.weight, opt.state[m.weight]["step"].dtype, opt.state[m.weight]["exp_avg"].dtype


@program()
def prog_nnutil2_init_on_param_with_grad(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    p = T.nn.Parameter(T.ones(2, 2))
    (p * 2).sum().backward()
    T.manual_seed(0)
    T.nn.init.normal_(p)
    return p.grad, p.requires_grad, p.is_leaf, p._version


@program()
def prog_nnutil2_trunc_normal_nan_warning(T: Any) -> Any:
    T.manual_seed(0)
    return T.nn.init.trunc_normal_(T.empty(3), mean=5.0, std=1.0, a=-2.0, b=2.0)


@program()
def prog_nnutil2_kaiming_zero_fan(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    return raises(lambda: T.nn.init.kaiming_normal_(T.empty(0, 0))), T.nn.init.xavier_uniform_(
        T.empty(0, 3)
    ).shape


@program()
def prog_nnutil2_calculate_fan(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    f = T.nn.init._calculate_fan_in_and_fan_out
    return f(T.empty(3, 4)), f(T.empty(3, 4, 5, 6)), raises(lambda: f(T.empty(3)))


@program()
def prog_nnutil2_orthogonal_init_sizes(T: Any) -> Any:
    T.manual_seed(0)
    a = T.nn.init.orthogonal_(T.empty(2, 3, 2))
    b = T.nn.init.orthogonal_(T.empty(5, 2))
    return a, b, raises(lambda: T.nn.init.orthogonal_(T.empty(3)))


@program()
def prog_nnutil2_sparse_init_errors(T: Any) -> Any:
    T.manual_seed(0)  # the default initializations below draw from it
    return raises(lambda: T.nn.init.sparse_(T.empty(3), 0.5)), raises(
        lambda: T.nn.init.sparse_(T.empty(2, 2, 2), 0.5)
    )


@program()
def prog_nnutil2_uniform_bounds(T: Any) -> Any:
    T.manual_seed(0)
    return raises(lambda: T.nn.init.uniform_(T.empty(3), 2.0, 1.0)), raises(
        lambda: T.nn.init.uniform_(T.empty(3, dtype=T.int64))
    )


@program()
def prog_nnutil2_init_int_tensor(T: Any) -> Any:
    T.manual_seed(0)
    return (
        [
            raises(lambda f=f: f(T.empty(2, 2, dtype=T.int64)))
            for f in [
                T.nn.init.normal_,
                T.nn.init.xavier_uniform_,
                T.nn.init.kaiming_uniform_,
                T.nn.init.orthogonal_,
                T.nn.init.trunc_normal_,
            ]
        ],
        T.nn.init.zeros_(T.empty(2, dtype=T.int64)),
        T.nn.init.ones_(T.empty(2, dtype=T.int64)),
        T.nn.init.constant_(T.empty(2, dtype=T.int64), 3),
    )


@program()
def prog_nnutil2_convert_memory_format_train(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Sequential(
        T.nn.Conv2d(2, 4, 2),
        T.nn.ReLU(),
        T.nn.ConvTranspose2d(4, 2, 2),
        T.nn.Sequential(T.nn.Conv3d(1, 1, 1)),
    )
    w = m[0].weight
    r = T.nn.utils.convert_conv2d_weight_memory_format(m, T.channels_last)
    T.nn.utils.convert_conv3d_weight_memory_format(m, T.channels_last_3d)
    x = T.randn(1, 2, 4, 4)
    y = m[2](m[1](m[0](x)))
    y.sum().backward()
    return (
        r is m,
        m[0].weight is w,
        m[0].weight.stride(),
        m[2].weight.stride(),
        m[3][0].weight.stride(),
        y,
        m[0].weight.grad.stride(),
        type(m[0].weight).__name__,
        m[0].weight.is_contiguous(memory_format=T.channels_last),
        m[0].weight.requires_grad,
    )


# --- epochs ------------------------------------------------------------------------------------


def _epochs_O(T, lr=1.0, **kw):
    return T.optim.SGD([T.nn.Parameter(T.ones(2))], lr=lr, **kw)


@program()
def prog_epochs_plateau_epoch_arg(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T)
    s = S.ReduceLROnPlateau(o, patience=0)
    o.step()
    s.step(1.0, 5)
    o.step()
    s.step(2.0)
    return s.last_epoch, s.get_last_lr()


@program()
def prog_epochs_cyclic_epoch_arg(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T, momentum=0.9)
    s = S.CyclicLR(o, 0.1, 1.0, step_size_up=2)
    o.step()
    s.step(3)
    return s.get_last_lr(), s.last_epoch


@program()
def prog_epochs_onecycle_epoch_arg(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T, momentum=0.9)
    s = S.OneCycleLR(o, 1.0, total_steps=5)
    o.step()
    s.step(2)
    return s.get_last_lr(), s.last_epoch


@program()
def prog_epochs_cosine_epoch_closed_form(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T)
    s = S.CosineAnnealingLR(o, 4, eta_min=0.1)
    o.step()
    s.step(3)
    o.step()
    s.step()
    return s.get_last_lr(), s.last_epoch


@program()
def prog_epochs_lambda_epoch(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T)
    s = S.LambdaLR(o, lambda e: 1 / (e + 1))
    o.step()
    s.step(4)
    return s.get_last_lr()


@program()
def prog_epochs_chained_epoch(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T)
    c = S.ChainedScheduler([S.StepLR(o, 1, 0.5), S.ExponentialLR(o, 0.9)])
    o.step()
    return raises(lambda: c.step(2)), c.get_last_lr()


@program()
def prog_epochs_swalr_epoch(T: Any) -> Any:
    swa = T.optim.swa_utils
    o = _epochs_O(T)
    s = swa.SWALR(o, 0.1, anneal_epochs=3)
    o.step()
    s.step(2)
    return s.get_last_lr(), s.last_epoch


@program()
def prog_epochs_sched_pickle(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T)
    s = S.StepLR(o, 1, 0.5)
    buf = io.BytesIO()
    T.save(s.state_dict(), buf)
    buf.seek(0)
    return T.load(buf)


@program()
def prog_epochs_sched_weights_only_load(T: Any) -> Any:
    S = T.optim.lr_scheduler
    o = _epochs_O(T, momentum=0.9)
    s = S.OneCycleLR(o, 1.0, total_steps=5)
    buf = io.BytesIO()
    T.save({"sched": s.state_dict(), "opt": o.state_dict()}, buf)
    buf.seek(0)
    return raises(lambda: T.load(buf, weights_only=True))


@program()
def prog_epochs_opt_state_dict_save_load_weights_only(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    o = T.optim.Adam([p], lr=0.1, betas=(0.8, 0.9))
    p.grad = T.ones(2)
    o.step()
    buf = io.BytesIO()
    T.save(o.state_dict(), buf)
    buf.seek(0)
    sd = T.load(buf, weights_only=True)
    return sd


@program()
def prog_epochs_zero_grad_after_hooks(T: Any) -> Any:
    log = []
    p = T.nn.Parameter(T.ones(2))
    o = T.optim.SGD([p], lr=0.1)
    o.register_step_post_hook(lambda *a: log.append("post"))
    o.zero_grad()
    return log, p.grad


# --- scaler ------------------------------------------------------------------------------------


def _scaler_D(*s, seed=0):
    return np.random.default_rng(seed).standard_normal(s).astype(np.float32)


@program()
def prog_scaler_grad_scaler_cpu(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Linear(3, 1)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    sc = T.amp.GradScaler("cpu", init_scale=2.0**4, growth_interval=1)
    x = T.tensor(_scaler_D(4, 3))
    log = []
    for _ in range(3):
        opt.zero_grad()
        loss = m(x).pow(2).mean()
        sc.scale(loss).backward()
        sc.unscale_(opt)
        T.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        r = sc.step(opt)
        sc.update()
        log.append((loss.detach(), sc.get_scale(), r, m.weight.detach().clone()))
    return log, sc.state_dict(), sc.is_enabled()


@program()
def prog_scaler_grad_scaler_inf(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Linear(2, 1)
    opt = T.optim.Adam(m.parameters(), lr=0.1)
    sc = T.amp.GradScaler("cpu", init_scale=4.0, backoff_factor=0.25)
    loss = m(T.tensor([[float("inf"), 1.0]])).sum()
    sc.scale(loss).backward()
    r = sc.step(opt)
    sc.update()
    return r, sc.get_scale(), m.weight, len(opt.state)


@program()
def prog_scaler_grad_scaler_errors(T: Any) -> Any:
    sc = T.amp.GradScaler("cpu")
    m = T.nn.Linear(2, 1)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    sc.scale(m(T.ones(1, 2)).sum()).backward()
    sc.unscale_(opt)
    r1 = raises(lambda: sc.unscale_(opt))
    sc.step(opt)
    r2 = raises(lambda: sc.step(opt))
    sc.update()
    return (
        r1,
        r2,
        raises(lambda: sc.update(T.tensor([1.0, 2.0]))),
        sc.get_scale(),
        sc.get_growth_factor(),
        sc.get_backoff_factor(),
        sc.get_growth_interval(),
    )


@program()
def prog_scaler_grad_scaler_disabled(T: Any) -> Any:
    sc = T.amp.GradScaler("cpu", enabled=False)
    lv = T.tensor(2.0, requires_grad=True)
    return sc.scale(lv) is lv, sc.get_scale(), sc.state_dict(), sc.is_enabled()


@program()
def prog_scaler_cuda_amp_gradscaler_cpu_warns(T: Any) -> Any:
    sc = T.cuda.amp.GradScaler()
    return sc.is_enabled()


# --- containers --------------------------------------------------------------------------------


@program()
def prog_containers_moduledict_keys(T: Any) -> Any:
    nn = T.nn
    md = nn.ModuleDict()
    return [
        raises(lambda: md.__setitem__(1, nn.ReLU())),
        raises(lambda: nn.ModuleDict({"a.b": nn.ReLU()})),
        raises(lambda: nn.ModuleDict({"": nn.ReLU()})),
        raises(lambda: nn.ModuleDict({"training": nn.ReLU()})),
        list(nn.ModuleDict([("z", nn.ReLU()), ("a", nn.Tanh())]).keys()),
        list(nn.ModuleDict({"z": nn.ReLU(), "a": nn.Tanh()}).keys()),
        raises(lambda: nn.ModuleDict({"a": 3})),
    ]


@program()
def prog_containers_modulelist_iadd_and_dir(T: Any) -> Any:
    nn = T.nn
    ml = nn.ModuleList([nn.ReLU()])
    ml += [nn.Tanh()]
    ml += nn.ModuleList([nn.GELU()])
    return (
        [type(m).__name__ for m in ml],
        "0" in dir(ml),
        ml.__len__(),
        raises(lambda: ml.__iadd__(5)),
    )


@program()
def prog_containers_parameterdict_ops(T: Any) -> Any:
    nn = T.nn
    pd = nn.ParameterDict()
    a = pd.setdefault("a", T.ones(1))
    b = pd.setdefault("a", T.zeros(1))
    pd.update(nn.ParameterDict({"b": nn.Parameter(T.ones(2))}))
    c = pd.popitem()
    pd["x"] = None
    return (
        type(a).__name__,
        b is a,
        c[0],
        list(pd.keys()),
        len(pd),
        raises(lambda: pd.update(5)),
        pd.get("x"),
        [k for k, _ in pd.named_parameters()],
    )


@program()
def prog_containers_parameterlist_setitem_and_extra_repr(T: Any) -> Any:
    nn = T.nn
    pl = nn.ParameterList([T.ones(2)])
    pl.append("string")
    pl.append(3)
    return (
        repr(pl),
        len(pl),
        [type(p).__name__ for p in pl],
        raises(lambda: pl[5]),
        [k for k, _ in pl.named_parameters()],
    )


@program()
def prog_containers_frozen_params_in_optimizer(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Linear(2, 1))
    m[0].requires_grad_(False)
    opt = T.optim.Adam(m.parameters(), lr=0.1)
    m(T.ones(3, 2)).sum().backward()
    opt.step()
    return len(opt.state), [p.grad is None for p in m.parameters()], m[1].weight


@program()
def prog_containers_optimizer_non_leaf_and_no_grad_params(T: Any) -> Any:
    a = T.ones(2)
    return (
        raises(lambda: T.optim.SGD([a], lr=0.1)),
        raises(lambda: T.optim.SGD([a * 2], lr=0.1)),
        raises(lambda: T.optim.SGD([T.ones(2, requires_grad=True) * 2], lr=0.1)),
    )


@program()
def prog_containers_sequential_getitem_types(T: Any) -> Any:
    nn = T.nn
    s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.GELU())
    return (
        repr(s[::2]),
        raises(lambda: s["a"]),
        raises(lambda: s[1.5]),
        len(s[5:]),
        raises(lambda: s.__delitem__(5)),
    )


@program()
def prog_containers_module_children_order_after_reassign(T: Any) -> Any:
    nn = T.nn
    m = nn.Module()
    m.a = nn.ReLU()
    m.b = nn.Tanh()
    m.a = nn.GELU()
    del m.b
    m.b = nn.Tanh()
    return [k for k, _ in m.named_children()], repr(m)


@program()
def prog_containers_module_eq_hash_and_bool(T: Any) -> Any:
    m = T.nn.Linear(1, 1)
    return bool(m), m == m, hash(m) == hash(m), bool(T.nn.Sequential()), bool(T.nn.ModuleList())


@program(tol=Tolerance(5e-5, 2e-5, "several AdamW steps on noisy batches"))
def prog_workers_sharded_stream_training_with_resume(T: Any) -> Any:
    D = T.utils.data
    nn = T.nn

    class Stream(D.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            info = D.get_worker_info()
            wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
            for i in range(wid, self.n, nw):
                x = T.full((3,), float(i) / self.n) + 0.1 * T.randn(3)
                yield x, (x.sum() > 0.5).long()

    def make():
        model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 5)
        opt = T.optim.AdamW(model.parameters(), lr=0.05)
        sch = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=1, T_mult=2)
        return model, opt, sch

    def epoch(model, opt, sch, loader, ep):
        log = []
        for i, (xb, yb) in enumerate(loader):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            sch.step(ep + i / 3)
            log.append((loss.detach(), yb, sch.get_last_lr()))
        return log

    T.manual_seed(0)
    loader = D.DataLoader(Stream(10), batch_size=2, num_workers=2)
    model, opt, sch = make()
    first = epoch(model, opt, sch, loader, 0)
    buf = io.BytesIO()
    T.save({"m": model.state_dict(), "o": opt.state_dict(), "s": sch.state_dict()}, buf)
    buf.seek(0)
    ck = T.load(buf)
    model2, opt2, sch2 = make()
    model2.load_state_dict(ck["m"])
    opt2.load_state_dict(ck["o"])
    sch2.load_state_dict(ck["s"])
    T.manual_seed(1)
    second = epoch(model2, opt2, sch2, loader, 1)
    return {"first": first, "second": second, "w": dict(model2.named_parameters())}


# --- embed -------------------------------------------------------------------------------------


def _embed_D(*s, seed=0):
    return np.random.default_rng(seed).standard_normal(s).astype(np.float32)


@program()
def prog_embed_embedding_padding_grad_and_renorm_double(T: Any) -> Any:
    e = T.nn.Embedding(4, 3, padding_idx=0, max_norm=0.5, norm_type=float("inf"))
    with T.no_grad():
        e.weight.copy_(T.tensor(_embed_D(4, 3)))
    y = e(T.tensor([[0, 1], [1, 3]]))
    (y * T.arange(12.0).reshape(2, 2, 3)).sum().backward()
    return y, e.weight, e.weight.grad


@program()
def prog_embed_embedding_double_and_half(T: Any) -> Any:
    e = T.nn.Embedding(3, 2).double()
    with T.no_grad():
        e.weight.copy_(T.tensor(_embed_D(3, 2)).double())
    return (
        e(T.tensor([2, 0])),
        e(T.tensor([1], dtype=T.int32)).dtype,
        raises(lambda: e(T.tensor([1.0]))),
    )


@program()
def prog_embed_embedding_bag_padding_and_empty(T: Any) -> Any:
    b = T.nn.EmbeddingBag(4, 2, mode="mean", padding_idx=1)
    with T.no_grad():
        b.weight.copy_(T.tensor(_embed_D(4, 2)))
    inp = T.tensor([1, 1, 2, 3, 1])
    offs = T.tensor([0, 2, 2, 4])
    y = b(inp, offs)
    y.sum().backward()
    return y, b.weight.grad


@program()
def prog_embed_one_hot_and_label_smoothing_manual(T: Any) -> Any:
    F = T.nn.functional
    t = T.tensor([0, 2, 1])
    oh = F.one_hot(t, 4).float()
    sm = oh * 0.9 + 0.1 / 4
    x = T.tensor(_embed_D(3, 4), requires_grad=True)
    l1 = F.cross_entropy(x, sm)
    l2 = F.cross_entropy(x, t, label_smoothing=0.1)
    return oh, l1, l2


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
