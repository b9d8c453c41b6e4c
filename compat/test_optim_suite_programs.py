"""Programs from torch's optimizer test suite (test/test_optim.py and the option matrix of
torch/testing/_internal/common_optimizers.py's optim_db, test/optim/test_lrscheduler.py,
test/optim/test_swa_utils.py) and the user code around them: every optimizer under its option
combinations (weight_decay, momentum, nesterov, dampening, maximize, amsgrad, foreach,
capturable, decoupled_weight_decay, centered, lr as a 0-dim tensor) over several steps with
parameters of mixed shapes, complex parameters and parameters whose grad is None; argument
errors; state_dict()/load_state_dict() round trips; param groups; zero_grad; closures (LBFGS);
optimizer hooks; every lr scheduler with its state dict and warnings; swa_utils. The programs
register into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs
on torch and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import copy
import importlib
import warnings
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


# --- helpers ---------------------------------------------------------------------------------


def _params(T: Any, complex_: bool = True, dtype: Any = None) -> list[Any]:
    """Parameters of mixed shapes: a matrix, a vector, a 0-dim scalar, a complex vector and a
    vector that never gets a grad."""
    dt = dtype or T.float32
    ps = [
        T.nn.Parameter(T.tensor(_data(2, 3, seed=1), dtype=dt)),
        T.nn.Parameter(T.tensor(_data(3, seed=2), dtype=dt)),
        T.nn.Parameter(T.tensor(0.7, dtype=dt)),
    ]
    if complex_:
        c = _data(2, 2, seed=3)
        ct = T.complex64 if dt == T.float32 else T.complex128
        ps.append(T.nn.Parameter(T.tensor(c[0] + 1j * c[1], dtype=ct)))
    ps.append(T.nn.Parameter(T.ones(2, dtype=dt)))  # no grad ever
    return ps


def _loss(T: Any, ps: list[Any], i: int) -> Any:
    """A loss whose gradients change from step to step; the last parameter gets none."""
    w, b, s = ps[0], ps[1], ps[2]
    loss = ((w - 0.1 * i) ** 2).sum() + (w.sum(0) * b).sin().sum() + (s * b).pow(2).sum()
    loss = loss + (s - 0.3).abs() * (i + 1)
    if len(ps) == 5:
        c = ps[3]
        loss = loss + ((c - 0.2j * i).abs() ** 2).sum() + (c * b[:2]).real.sum()
    return loss


def _train(T: Any, make: Any, steps: int = 3, complex_: bool = True, dtype: Any = None) -> Any:
    ps = _params(T, complex_, dtype)
    opt = make(ps)
    losses = []
    for i in range(steps):
        opt.zero_grad()
        loss = _loss(T, ps, i)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return [p.detach().clone() for p in ps], opt.state_dict(), losses


def _configs(T: Any, cls: Any, configs: list[dict[str, Any]], **kw: Any) -> Any:
    out = {}
    for i, cfg in enumerate(configs):
        out[i] = raises(lambda c=cfg: _train(T, lambda ps, c=c: cls(ps, **c), **kw))
    return out


# --- every optimizer over optim_db's option matrix -------------------------------------------


@program()
def prog_osp_sgd_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "momentum": 0.9},
        {"lr": 0.01, "momentum": 0.9, "dampening": 0.5},
        {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1},
        {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
        {"lr": 0.01, "weight_decay": 0.1, "maximize": True},
        {"lr": 0.01, "momentum": 0.9, "nesterov": True, "maximize": True},
        {"lr": 0.01, "momentum": 0.9, "foreach": True},
        {"lr": 0.01, "momentum": 0.9, "dampening": 0.3, "foreach": True, "maximize": True},
    ]
    return _configs(T, T.optim.SGD, cfgs)


@program()
def prog_osp_sgd_tensor_lr(T: Any) -> Any:
    cfgs = [
        {"lr": T.tensor(0.01)},
        {"lr": T.tensor(0.01), "momentum": 0.9, "nesterov": True},
        {"lr": T.tensor([0.01])},
        {"lr": T.tensor(0.01, dtype=T.float64), "weight_decay": 0.2},
    ]
    return _configs(T, T.optim.SGD, cfgs)


@program()
def prog_osp_adam_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.1},
        {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True},
        {"lr": 0.01, "weight_decay": 0.1, "maximize": True},
        {"lr": 0.01, "amsgrad": True, "maximize": True},
        {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True},
        {"lr": 0.01, "betas": (0.0, 0.5), "eps": 1e-3},
        {"lr": 0.01, "foreach": True, "amsgrad": True},
        {"lr": 0.01, "foreach": False, "weight_decay": 0.1, "decoupled_weight_decay": True},
    ]
    return _configs(T, T.optim.Adam, cfgs)


@program()
def prog_osp_adam_tensor_lr_and_betas(T: Any) -> Any:
    cfgs = [
        {"lr": T.tensor(0.01)},
        {"lr": T.tensor(0.01), "betas": (T.tensor(0.9), T.tensor(0.99))},
        {"lr": T.tensor(0.01), "amsgrad": True, "weight_decay": 0.1},
        {"lr": T.tensor(0.01), "foreach": True},
        {"lr": 0.01, "betas": (T.tensor([0.8]), T.tensor(0.99))},
        {"lr": 0.01, "betas": (T.tensor(0.8), 0.99)},
        {"lr": 0.01, "betas": (T.tensor(0.8), T.tensor(0.9)), "foreach": True},
    ]
    return _configs(T, T.optim.Adam, cfgs)


@program()
def prog_osp_tensor_hyperparameters_everywhere(T: Any) -> Any:
    """0-dim tensors for hyper-parameters other than lr (a user's `T.tensor(0.9)` or a value
    read back from a tensor): betas for the Adam family, weight_decay, momentum, alpha, rho."""
    t = T.tensor
    cfgs = [
        ("Adamax", {"lr": 0.01, "betas": (t(0.8), t(0.9))}),
        ("NAdam", {"lr": 0.01, "betas": (t(0.8), t(0.9))}),
        ("RAdam", {"lr": 0.01, "betas": (t(0.8), t(0.9))}),
        ("AdamW", {"lr": 0.01, "betas": (t(0.8), t(0.9)), "weight_decay": t(0.1)}),
        ("SGD", {"lr": 0.01, "momentum": t(0.9), "weight_decay": t(0.1)}),
        ("Adam", {"lr": 0.01, "weight_decay": t(0.1)}),
        ("RMSprop", {"lr": 0.01, "alpha": t(0.9), "momentum": t(0.5)}),
        ("Adadelta", {"rho": t(0.8), "weight_decay": t(0.1)}),
        ("Adagrad", {"lr": 0.1, "lr_decay": t(0.1), "weight_decay": t(0.1)}),
        ("ASGD", {"lr": 0.01, "lambd": t(1e-3), "weight_decay": t(0.1)}),
    ]
    out = {}
    for name, kw in cfgs:
        cls = getattr(T.optim, name)
        out[name] = raises(lambda c=cls, k=kw: _train(T, lambda ps: c(ps, **k), complex_=False))
    return out


@program()
def prog_osp_tensor_and_numpy_hyperparameters_rest(T: Any) -> Any:
    t = T.tensor
    out = {}
    cfgs = [
        ("Rprop", {"lr": 0.01, "etas": (t(0.5), t(1.2)), "step_sizes": (t(1e-6), t(50.0))}),
        ("Adafactor", {"lr": 0.01, "beta2_decay": t(-0.8), "d": t(1.0), "weight_decay": t(0.1)}),
        ("LBFGS", {"lr": t(0.5), "max_iter": 3}),
        ("Adam", {"lr": np.float32(0.01), "betas": (np.float64(0.9), np.float32(0.99))}),
        (
            "SGD",
            {"lr": np.float64(0.1), "momentum": np.float32(0.9), "weight_decay": np.float16(0.01)},
        ),
        ("RMSprop", {"lr": 1, "alpha": np.float64(0.9)}),
        ("Adagrad", {"lr": np.float32(0.1), "eps": np.float32(1e-10)}),
    ]
    for name, kw in cfgs:
        cls = getattr(T.optim, name)

        def run(cls=cls, kw=kw, name=name) -> Any:
            if name != "LBFGS":
                return _train(T, lambda ps: cls(ps, **kw), complex_=False)
            return _lbfgs_run(T, 2, **kw)

        out[name] = raises(run)
    return out


@program()
def prog_osp_schedulers_with_tensor_and_numpy_factors(T: Any) -> Any:
    S = T.optim.lr_scheduler
    t = T.tensor
    out = {}
    for name, mk in {
        "step_gamma_t": lambda o: S.StepLR(o, 2, gamma=t(0.5)),
        "exp_gamma_np": lambda o: S.ExponentialLR(o, gamma=np.float32(0.9)),
        "multistep_np": lambda o: S.MultiStepLR(o, [1, 2], gamma=np.float64(0.1)),
        "cos_eta_t": lambda o: S.CosineAnnealingLR(o, 3, eta_min=t(0.001)),
        "linear_np": lambda o: S.LinearLR(o, start_factor=np.float32(0.5), total_iters=2),
        "plateau_factor_np": lambda o: S.ReduceLROnPlateau(o, factor=np.float64(0.5), patience=0),
    }.items():
        opt = _opt2(T)
        sched = raises(lambda m=mk, o=opt: m(o))
        if not isinstance(sched, S.LRScheduler):
            out[name] = sched
            continue
        metric = (lambda i: 1.0) if name.startswith("plateau") else None
        out[name] = raises(lambda s=sched, o=opt, m=metric: _trace(T, o, s, 4, m))
    return out


@program()
def prog_osp_tensor_hyperparameters_muon_adafactor_swalr_plateau(T: Any) -> Any:
    t = T.tensor
    out = {}

    def muon() -> Any:
        w = T.nn.Parameter(T.tensor(_data(3, 4, seed=170)))
        opt = T.optim.Muon([w], lr=0.02, momentum=t(0.9), weight_decay=t(0.05), eps=t(1e-7))
        for i in range(2):
            w.grad = T.tensor(_data(3, 4, seed=171 + i))
            opt.step()
        return w.detach()

    def adafactor() -> Any:
        return _train(
            T, lambda ps: T.optim.Adafactor(ps, lr=0.01, eps=(t(1e-30), t(1e-3))), complex_=False
        )

    def swalr() -> Any:
        opt = _opt2(T)
        sch = T.optim.swa_utils.SWALR(opt, swa_lr=t(0.01), anneal_epochs=2)
        return _trace(T, opt, sch, 3)

    def plateau() -> Any:
        opt = _opt2(T)
        sch = T.optim.lr_scheduler.ReduceLROnPlateau(
            opt, patience=0, factor=t(0.5), min_lr=t(0.02), threshold=t(0.01)
        )
        return _trace(T, opt, sch, 4, lambda i: 1.0)

    for name, fn in (
        ("muon", muon),
        ("adafactor", adafactor),
        ("swalr", swalr),
        ("plateau", plateau),
    ):
        out[name] = raises(fn)
    return out


@program()
def prog_osp_adamw_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.0},
        {"lr": 0.01, "weight_decay": 0.5, "amsgrad": True},
        {"lr": 0.01, "maximize": True, "amsgrad": True},
        {"lr": T.tensor(0.01), "weight_decay": 0.3},
        {"lr": 0.01, "foreach": True, "maximize": True},
    ]
    return _configs(T, T.optim.AdamW, cfgs)


@program()
def prog_osp_adamax_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.1},
        {"lr": 0.01, "weight_decay": 0.1, "maximize": True},
        {"lr": T.tensor(0.01)},
        {"lr": 0.01, "foreach": True},
    ]
    return _configs(T, T.optim.Adamax, cfgs)


@program()
def prog_osp_nadam_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.1},
        {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 6e-3},
        {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True},
        {"lr": 0.01, "maximize": True},
        {"lr": T.tensor(0.01)},
        {"lr": 0.01, "foreach": True, "weight_decay": 0.1},
    ]
    return _configs(T, T.optim.NAdam, cfgs)


@program()
def prog_osp_radam_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.1},
        {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True},
        {"lr": 0.01, "maximize": True},
        {"lr": 0.01, "betas": (0.5, 0.6)},
        {"lr": T.tensor(0.01)},
        {"lr": 0.01, "foreach": True},
    ]
    return _configs(T, T.optim.RAdam, cfgs, steps=7)


@program()
def prog_osp_adagrad_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.1},
        {"lr": 0.1, "weight_decay": 0.1},
        {"lr": 0.1, "lr_decay": 0.5},
        {"lr": 0.1, "initial_accumulator_value": 0.1},
        {"lr": 0.1, "maximize": True, "weight_decay": 0.1},
        {"lr": T.tensor(0.1)},
        {"lr": 0.1, "foreach": True, "lr_decay": 0.1},
    ]
    return _configs(T, T.optim.Adagrad, cfgs)


@program()
def prog_osp_adadelta_option_matrix(T: Any) -> Any:
    cfgs = [
        {},
        {"lr": 0.5, "rho": 0.8},
        {"weight_decay": 0.1},
        {"weight_decay": 0.1, "maximize": True},
        {"lr": T.tensor(0.5)},
        {"foreach": True, "rho": 0.5},
    ]
    return _configs(T, T.optim.Adadelta, cfgs)


@program()
def prog_osp_rmsprop_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.1},
        {"lr": 0.01, "centered": True},
        {"lr": 0.01, "centered": True, "momentum": 0.9},
        {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1},
        {"lr": 0.01, "maximize": True, "momentum": 0.5, "centered": True},
        {"lr": T.tensor(0.01), "alpha": 0.5},
        {"lr": 0.01, "foreach": True, "centered": True, "momentum": 0.1},
    ]
    return _configs(T, T.optim.RMSprop, cfgs)


@program()
def prog_osp_rprop_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.05)},
        {"lr": 0.01, "maximize": True},
        {"lr": T.tensor(0.01)},
        {"lr": 0.01, "foreach": True},
    ]
    return _configs(T, T.optim.Rprop, cfgs, steps=5)


@program()
def prog_osp_asgd_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "t0": 1},
        {"lr": 0.01, "weight_decay": 0.1, "lambd": 0.1},
        {"lr": 0.01, "maximize": True, "alpha": 0.5},
        {"lr": T.tensor(0.01), "t0": 0},
        {"lr": 0.01, "foreach": True, "t0": 1},
    ]
    return _configs(T, T.optim.ASGD, cfgs, steps=4)


@program()
def prog_osp_adafactor_option_matrix(T: Any) -> Any:
    cfgs = [
        {"lr": 0.01},
        {"lr": 0.01, "weight_decay": 0.1},
        {"lr": 0.01, "maximize": True},
        {"lr": 0.01, "beta2_decay": -0.5, "d": 0.5},
        {"lr": 0.01, "eps": (1e-30, 1e-2)},
        {"lr": T.tensor(0.01)},
        {"lr": 0.01, "foreach": True},
    ]
    return _configs(T, T.optim.Adafactor, cfgs, complex_=False)


@program()
def prog_osp_mixed_dtypes_in_one_group(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        for fe in (False, True):
            if name == "Adafactor" and fe:
                continue

            def run(cls=cls, kw=kw, fe=fe) -> Any:
                ps = [
                    T.nn.Parameter(T.tensor(_data(3, seed=180))),
                    T.nn.Parameter(T.tensor(_data(2, 2, seed=181), dtype=T.float64)),
                    T.nn.Parameter(T.tensor(_data(2, seed=182)).half()),
                ]
                opt = cls(ps, foreach=fe, **kw)
                for i in range(2):
                    for j, p in enumerate(ps):
                        p.grad = T.tensor(_data(*p.shape, seed=183 + i + 3 * j)).to(p.dtype)
                    opt.step()
                return [p.detach() for p in ps], opt.state_dict()["state"]

            out[name, fe] = raises(run)
    return out


@program()
def prog_osp_optimizers_float64_params(T: Any) -> Any:
    out = {}
    for name, kw in (
        ("SGD", {"lr": 0.1, "momentum": 0.5}),
        ("Adam", {"lr": 0.1, "amsgrad": True}),
        ("AdamW", {"lr": 0.1}),
        ("Adamax", {"lr": 0.1}),
        ("NAdam", {"lr": 0.1}),
        ("RAdam", {"lr": 0.1}),
        ("Adagrad", {"lr": 0.1}),
        ("Adadelta", {}),
        ("RMSprop", {"lr": 0.1, "centered": True}),
        ("Rprop", {"lr": 0.1}),
        ("ASGD", {"lr": 0.1}),
    ):
        cls = getattr(T.optim, name)
        out[name] = raises(lambda c=cls, k=kw: _train(T, lambda ps: c(ps, **k), dtype=T.float64))
    return out


@program()
def prog_osp_capturable_on_cpu_errors(T: Any) -> Any:
    out = {}
    for name in ("Adam", "AdamW", "Adamax", "NAdam", "RAdam", "ASGD", "Adadelta", "RMSprop"):
        cls = getattr(T.optim, name)
        for fe in (False, True):
            out[name, fe] = raises(
                lambda c=cls, f=fe: _train(T, lambda ps: c(ps, capturable=True, foreach=f), 1)
            )
    out["Rprop"] = raises(lambda: _train(T, lambda ps: T.optim.Rprop(ps, capturable=True), 1))
    return out


# --- argument errors -------------------------------------------------------------------------


def _p(T: Any) -> list[Any]:
    return [T.nn.Parameter(T.ones(2, 2))]


@program()
def prog_osp_constructor_errors_sgd_adam_family(T: Any) -> Any:
    Op = T.optim
    cases = [
        lambda: Op.SGD(_p(T), lr=-0.5),
        lambda: Op.SGD(_p(T), lr=0.1, momentum=-0.5),
        lambda: Op.SGD(_p(T), lr=0.1, weight_decay=-0.5),
        lambda: Op.SGD(_p(T), lr=0.1, nesterov=True),
        lambda: Op.SGD(_p(T), lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
        lambda: Op.SGD(_p(T), lr=T.tensor([0.1, 0.2])),
        lambda: Op.SGD(_p(T), lr=float("nan")),
        lambda: Op.Adam(_p(T), lr=-0.1),
        lambda: Op.Adam(_p(T), betas=(1.0, 0.0)),
        lambda: Op.Adam(_p(T), betas=(0.9, -0.1)),
        lambda: Op.Adam(_p(T), eps=-1),
        lambda: Op.Adam(_p(T), weight_decay=-1),
        lambda: Op.Adam(_p(T), lr=T.tensor(0.001), foreach=True),
        lambda: Op.Adam(_p(T), betas=(T.tensor(0.9), 0.99)),
        lambda: Op.Adam(_p(T), betas=(T.tensor([0.9, 0.8]), T.tensor(0.9))),
        lambda: Op.Adam(_p(T), fused=True, foreach=True),
        lambda: Op.Adam(_p(T), fused=True, differentiable=True),
        lambda: Op.AdamW(_p(T), lr=-0.1),
        lambda: Op.AdamW(_p(T), betas=(0.9, 1.0)),
        lambda: Op.AdamW(_p(T), weight_decay=-0.01),
        lambda: Op.AdamW(_p(T), lr=T.tensor(0.001), foreach=True),
        lambda: Op.Adamax(_p(T), lr=-1.0),
        lambda: Op.Adamax(_p(T), betas=(1.0, 0.5)),
        lambda: Op.Adamax(_p(T), eps=-0.1),
        lambda: Op.Adamax(_p(T), weight_decay=-0.1),
        lambda: Op.NAdam(_p(T), betas=(1.0, 0.5)),
        lambda: Op.NAdam(_p(T), momentum_decay=-0.2),
        lambda: Op.NAdam(_p(T), lr=-0.2),
        lambda: Op.RAdam(_p(T), betas=(1.0, 0.5)),
        lambda: Op.RAdam(_p(T), weight_decay=-1),
        lambda: Op.RAdam(_p(T), eps=-1),
    ]
    return [raises(c) for c in cases]


@program()
def prog_osp_constructor_errors_other_optimizers(T: Any) -> Any:
    Op = T.optim
    cases = [
        lambda: Op.Adagrad(_p(T), lr=-0.5),
        lambda: Op.Adagrad(_p(T), lr_decay=-0.5),
        lambda: Op.Adagrad(_p(T), weight_decay=-0.5),
        lambda: Op.Adagrad(_p(T), initial_accumulator_value=-1.0),
        lambda: Op.Adagrad(_p(T), eps=-1.0),
        lambda: Op.Adadelta(_p(T), rho=1.1),
        lambda: Op.Adadelta(_p(T), rho=-0.1),
        lambda: Op.Adadelta(_p(T), lr=-0.1),
        lambda: Op.Adadelta(_p(T), eps=-0.1),
        lambda: Op.Adadelta(_p(T), weight_decay=-0.1),
        lambda: Op.RMSprop(_p(T), lr=-1.0),
        lambda: Op.RMSprop(_p(T), momentum=-1.0),
        lambda: Op.RMSprop(_p(T), alpha=-1.0),
        lambda: Op.RMSprop(_p(T), eps=-1.0),
        lambda: Op.RMSprop(_p(T), weight_decay=-1.0),
        lambda: Op.Rprop(_p(T), etas=(1.0, 0.5)),
        lambda: Op.Rprop(_p(T), etas=(0.5, 0.8)),
        lambda: Op.Rprop(_p(T), lr=-1.0),
        lambda: Op.ASGD(_p(T), lr=-0.1),
        lambda: Op.ASGD(_p(T), weight_decay=-0.5),
        lambda: Op.Adafactor(_p(T), lr=-0.1),
        lambda: Op.Adafactor(_p(T), eps=(-1e-30, 1e-3)),
        lambda: Op.Adafactor(_p(T), eps=(None, -1e-3)),
        lambda: Op.Adafactor(_p(T), beta2_decay=0.5),
        lambda: Op.Adafactor(_p(T), weight_decay=-0.1),
        lambda: Op.Adafactor(_p(T), d=-1.0),
        lambda: Op.Adafactor(_p(T), lr=T.tensor(0.01), foreach=True),
        lambda: Op.LBFGS(_p(T), lr=-1.0),
        lambda: Op.LBFGS(_p(T), line_search_fn="wolfe"),
        lambda: Op.LBFGS([{"params": _p(T)}, {"params": _p(T)}]),
        lambda: Op.SparseAdam(_p(T), lr=-1.0),
        lambda: Op.SparseAdam(_p(T), betas=(1.0, 0.5)),
        lambda: Op.SparseAdam(_p(T), eps=-1.0),
    ]
    return [raises(c) for c in cases]


@program()
def prog_osp_params_argument_errors(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    x = T.ones(2, requires_grad=True) * 2
    Op = T.optim
    return [
        raises(lambda: Op.SGD(w, lr=0.1)),
        raises(lambda: Op.SGD([], lr=0.1)),
        raises(lambda: Op.SGD(iter([]), lr=0.1)),
        raises(lambda: Op.SGD([x], lr=0.1)),
        raises(lambda: Op.SGD([1.0], lr=0.1)),
        raises(lambda: Op.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)),
        raises(lambda: Op.SGD([{"params": {w}}], lr=0.1)),
        raises(lambda: Op.SGD([{"lr": 0.1}], lr=0.1)),
        raises(lambda: Op.SGD([{"params": [w]}, w], lr=0.1)),
        raises(lambda: Op.SGD([w, {"params": [w]}], lr=0.1)),
        raises(lambda: Op.Adam(params=[w], lr=0.1, bogus=1)),
        raises(lambda: Op.Adam({"params": [w]})),
        raises(lambda: Op.Adam(dict(a=w))),
    ]


@program()
def prog_osp_duplicate_params_warning_and_add_param_group(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    b = T.nn.Parameter(T.zeros(3))
    c = T.nn.Parameter(T.zeros(1))
    opt = T.optim.SGD([w, w], lr=0.1)
    opt2 = T.optim.Adam([w], lr=0.1)
    r = [
        raises(lambda: opt2.add_param_group({"params": w})),
        raises(lambda: opt2.add_param_group([b])),
        raises(lambda: opt2.add_param_group({"params": {b}})),
    ]
    opt2.add_param_group({"params": b, "lr": 0.5, "betas": (0.5, 0.6)})
    opt2.add_param_group({"params": (c,), "extra": "x"})
    opt3 = T.optim.SGD([w], lr=0.1)
    opt3.add_param_group({"params": [b, b]})
    return (
        len(opt.param_groups[0]["params"]),
        r,
        [{k: v for k, v in g.items() if k != "params"} for g in opt2.param_groups],
        [len(g["params"]) for g in opt3.param_groups],
        opt2.state_dict()["param_groups"],
    )


@program()
def prog_osp_add_param_group_then_step_every_optimizer(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.tensor(_data(3, seed=95)))
        extra = {"initial_accumulator_value": 0.2} if name == "Adagrad" else {}
        opt = cls([w], **kw, **extra)
        w.grad = T.ones(3)
        opt.step()
        b = T.nn.Parameter(T.tensor(_data(2, seed=96)))
        c = T.nn.Parameter(T.ones(2))  # never gets a grad
        opt.add_param_group({"params": [b, c], "lr": 0.05})
        for i in range(2):
            w.grad = T.ones(3) * (i - 0.5)
            b.grad = T.tensor([0.3, -0.7]) * (i + 1)
            opt.step()
        sd = opt.state_dict()
        out[name] = (w.detach(), b.detach(), sd["state"], sd["param_groups"])
    return out


@program()
def prog_osp_sgd_required_lr_and_defaults(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([w])
    g = opt.param_groups[0]
    return {k: v for k, v in g.items() if k != "params"}, opt.defaults, repr(opt)


# --- state_dict / load_state_dict ------------------------------------------------------------

_ALL = [
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("Adam", {"lr": 0.1, "amsgrad": True}),
    ("AdamW", {"lr": 0.1}),
    ("Adamax", {"lr": 0.1}),
    ("NAdam", {"lr": 0.1}),
    ("RAdam", {"lr": 0.1}),
    ("Adagrad", {"lr": 0.1}),
    ("Adadelta", {}),
    ("RMSprop", {"lr": 0.1, "centered": True, "momentum": 0.5}),
    ("Rprop", {"lr": 0.1}),
    ("ASGD", {"lr": 0.1}),
    ("Adafactor", {"lr": 0.1}),
]


def _resume(T: Any, name: str, kw: dict[str, Any]) -> Any:
    """Two steps, a state dict, a fresh optimizer loading a deep copy, two more steps each:
    the copies agree, the state dicts match."""
    cls = getattr(T.optim, name)
    ps = _params(T, complex_=name != "Adafactor")
    opt = cls(ps, **kw)
    for i in range(2):
        opt.zero_grad()
        _loss(T, ps, i).backward()
        opt.step()
    sd = copy.deepcopy(opt.state_dict())
    qs = [T.nn.Parameter(p.detach().clone()) for p in ps]
    opt2 = cls(qs, **kw)
    opt2.load_state_dict(sd)
    for i in range(2, 4):
        for o, xs in ((opt, ps), (opt2, qs)):
            o.zero_grad()
            _loss(T, xs, i).backward()
            o.step()
    return sd, [q.detach() for q in qs], opt2.state_dict()


@program()
def prog_osp_state_dict_resume_every_optimizer(T: Any) -> Any:
    return {name: raises(lambda n=name, k=kw: _resume(T, n, k)) for name, kw in _ALL}


@program()
def prog_osp_load_state_dict_casts_to_param_dtype(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        if name == "Adafactor":
            continue
        cls = getattr(T.optim, name)
        p = T.nn.Parameter(T.ones(3))
        o = cls([p], **kw)
        p.grad = T.full((3,), 0.5)
        o.step()
        q = T.nn.Parameter(T.ones(3, dtype=T.float64))
        o2 = cls([q], **kw)
        o2.load_state_dict(o.state_dict())
        out[name] = {k: (v.dtype if isinstance(v, T.Tensor) else v) for k, v in o2.state[q].items()}
    return out


@program()
def prog_osp_load_old_format_float_step(T: Any) -> Any:
    """State dicts saved before `step` became a tensor keep it as a number: loading one turns
    it back into a tensor and training goes on."""
    out = {}
    for name, kw in _ALL:
        if name in ("SGD", "Adafactor"):
            continue
        cls = getattr(T.optim, name)
        p = T.nn.Parameter(T.ones(3))
        o = cls([p], **kw)
        p.grad = T.full((3,), 0.5)
        o.step()
        sd = copy.deepcopy(o.state_dict())
        sd["state"][0]["step"] = 1.0 if name != "Rprop" else 1
        q = T.nn.Parameter(T.ones(3))
        o2 = cls([q], **kw)
        o2.load_state_dict(sd)
        step0 = o2.state[q]["step"]
        q.grad = T.full((3,), 0.25)
        r = raises(o2.step)
        out[name] = (step0, r, q.detach(), o2.state[q].get("step"))
    return out


@program()
def prog_osp_load_state_dict_errors_and_extra_keys(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    b = T.nn.Parameter(T.ones(3))
    o = T.optim.Adam([w, b], lr=0.1)
    (w.sum() + b.sum()).backward()
    o.step()
    sd = o.state_dict()
    o2 = T.optim.Adam([w], lr=0.1)
    o3 = T.optim.Adam([{"params": [w]}, {"params": [b]}])
    o4 = T.optim.Adam([w, b], lr=0.3, betas=(0.1, 0.2))
    sd2 = copy.deepcopy(sd)
    sd2["param_groups"][0]["custom"] = 7
    sd2["state"]["extra"] = {"k": 1}
    o4.load_state_dict(sd2)
    return (
        raises(lambda: o2.load_state_dict(sd)),
        raises(lambda: o3.load_state_dict(sd)),
        raises(lambda: o2.load_state_dict({"state": {}})),
        {k: v for k, v in o4.param_groups[0].items() if k != "params"},
        sorted(str(k) for k in o4.state_dict()["state"]),
        o4.state_dict()["state"]["extra"],
        o4.param_groups[0]["params"][0] is w,
    )


@program()
def prog_osp_state_dict_is_a_copy_of_groups_not_state(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    o = T.optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = T.ones(2)
    o.step()
    sd = o.state_dict()
    sd["param_groups"][0]["lr"] = 5.0
    sd["state"][0]["momentum_buffer"].mul_(3)
    o.step()
    return o.param_groups[0]["lr"], w.detach(), o.state[w]["momentum_buffer"], sd["state"]


@program()
def prog_osp_load_state_dict_aliases_same_dtype_tensors(T: Any) -> Any:
    """load_state_dict keeps the given state tensors when no cast is needed (to() returns
    them), so stepping the loaded optimizer changes the dict it was given; a cast copies."""
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.ones(3))
        o = cls([w], **kw)
        w.grad = T.full((3,), 0.5)
        o.step()
        sd = o.state_dict()
        before = {k: v.clone() for k, v in sd["state"][0].items() if isinstance(v, T.Tensor)}
        q = T.nn.Parameter(T.ones(3))
        o2 = cls([q], **kw)
        o2.load_state_dict(sd)
        same = {k: o2.state[q][k] is v for k, v in sd["state"][0].items()}
        q.grad = T.full((3,), 0.25)
        o2.step()
        changed = {k: not T.equal(sd["state"][0][k], v) for k, v in before.items()}
        q64 = T.nn.Parameter(T.ones(3, dtype=T.float64))
        o3 = cls([q64], **kw)
        o3.load_state_dict(sd)
        same64 = {k: o3.state[q64][k] is v for k, v in sd["state"][0].items()}
        out[name] = (same, changed, same64)
    return out


@program()
def prog_osp_load_state_dict_keeps_param_names(T: Any) -> Any:
    m = T.nn.Linear(2, 1)
    o = T.optim.SGD(m.named_parameters(), lr=0.1, momentum=0.5)
    m(T.ones(1, 2)).sum().backward()
    o.step()
    sd = o.state_dict()
    o2 = T.optim.SGD(m.parameters(), lr=0.1, momentum=0.5)
    o2.load_state_dict(sd)
    o3 = T.optim.SGD(m.named_parameters(), lr=0.1)
    o4 = T.optim.SGD(m.parameters(), lr=0.1)
    o3.load_state_dict(o4.state_dict())
    return (
        sd["param_groups"],
        o2.state_dict()["param_groups"],
        o3.state_dict()["param_groups"],
        raises(lambda: o4.add_param_group({"params": [("x", T.nn.Parameter(T.ones(1)))]})),
        raises(lambda: o3.add_param_group({"params": [T.nn.Parameter(T.ones(1))]})),
    )


@program()
def prog_osp_load_state_dict_from_older_version_groups(T: Any) -> Any:
    """A state dict saved before maximize/foreach/differentiable/capturable/... existed: the
    loaded groups gain their defaults and stepping goes on."""
    new_keys = (
        "maximize", "foreach", "differentiable", "capturable", "fused",
        "decoupled_weight_decay", "amsgrad", "nesterov", "centered",
    )  # fmt: skip
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        p = T.nn.Parameter(T.ones(3))
        o = cls([p], **kw)
        p.grad = T.full((3,), 0.5)
        o.step()
        sd = copy.deepcopy(o.state_dict())
        for g in sd["param_groups"]:
            for k in new_keys:
                g.pop(k, None)
        o2 = cls([p], **kw)
        o2.load_state_dict(sd)
        r = raises(o2.step)
        g = o2.param_groups[0]
        out[name] = (r, sorted(g), p.detach(), o2.defaults.get("differentiable"))
    return out


@program()
def prog_osp_load_state_dict_step_dtype_for_fused_and_capturable(T: Any) -> Any:
    prev = T.get_default_dtype()
    T.set_default_dtype(T.float64)
    try:
        p = T.nn.Parameter(T.ones(3))
        o = T.optim.Adam([p], lr=0.1)
        p.grad = T.ones(3)
        o.step()
        sd = o.state_dict()
        step64 = sd["state"][0]["step"].dtype
        out = {}
        for flag in ("capturable", "fused"):
            sd2 = copy.deepcopy(sd)
            sd2["param_groups"][0][flag] = True
            o2 = T.optim.Adam([p], lr=0.1)
            o2.load_state_dict(sd2)
            out[flag] = (
                o2.state[p]["step"],
                o2.state[p]["exp_avg"].dtype,
                o2.param_groups[0][flag],
            )
        o3 = T.optim.Adam([p], lr=0.1, fused=True)
        p.grad = T.ones(3)
        o3.step()
        out["fused_step"] = o3.state[p]["step"]
        o4 = T.optim.Adagrad([p], lr=0.1, fused=True)
        out["adagrad_fused"] = o4.state[p]["step"]
        q = T.nn.Parameter(T.ones(3, dtype=T.float16))
        o5 = T.optim.Adam([q])
        o5.load_state_dict(sd)
        out["half"] = {k: v.dtype for k, v in o5.state[q].items()}
    finally:
        T.set_default_dtype(prev)
    return step64, out


# --- hooks -----------------------------------------------------------------------------------


@program()
def prog_osp_step_pre_and_post_hooks_order(T: Any) -> Any:
    mod = importlib.import_module(T.__name__ + ".optim.optimizer")
    log: list[Any] = []
    w = T.nn.Parameter(T.ones(2))
    o = T.optim.SGD([w], lr=0.1)
    h1 = o.register_step_pre_hook(lambda opt, a, k: log.append(("pre", len(a), dict(k))))
    h2 = o.register_step_post_hook(lambda opt, a, k: log.append(("post", len(a))))
    g1 = mod.register_optimizer_step_pre_hook(lambda opt, a, k: log.append("gpre"))
    g2 = mod.register_optimizer_step_post_hook(lambda opt, a, k: log.append("gpost"))
    try:
        w.grad = T.ones(2)
        o.step()
        o.step(closure=None)
        h1.remove()
        g2.remove()
        o.step()
    finally:
        g1.remove()
        g2.remove()
        h2.remove()
    o.step()
    return log, w.detach()


@program()
def prog_osp_step_pre_hook_replaces_args_and_bad_return(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    o = T.optim.SGD([w], lr=0.1)
    w.grad = T.ones(2)
    calls = []

    def closure():
        calls.append(1)
        return T.tensor(3.0)

    h = o.register_step_pre_hook(lambda opt, a, k: ((opt,), {"closure": closure}))
    loss = o.step()
    h.remove()
    h2 = o.register_step_pre_hook(lambda opt, a, k: 5)
    err = raises(o.step)
    h2.remove()
    return loss, calls, w.detach(), type(err).__name__, str(getattr(err, "message", err))[-40:]


@program()
def prog_osp_state_dict_hooks(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    o = T.optim.Adam([w], lr=0.1)
    w.grad = T.ones(2)
    o.step()
    log: list[Any] = []
    o.register_state_dict_pre_hook(lambda opt: log.append("pre1"))
    o.register_state_dict_pre_hook(lambda opt: log.append("pre0"), prepend=True)

    def post(opt, sd):
        log.append("post")
        sd["param_groups"][0]["note"] = "added"
        return sd

    o.register_state_dict_post_hook(post)
    sd = o.state_dict()

    def lpre(opt, sd):
        log.append("lpre")
        sd = copy.deepcopy(sd)
        sd["param_groups"][0]["lr"] = 0.5
        return sd

    o.register_load_state_dict_pre_hook(lpre)
    o.register_load_state_dict_post_hook(
        lambda opt: log.append(("lpost", opt.param_groups[0]["lr"]))
    )
    o.load_state_dict(sd)
    return log, sd["param_groups"], o.param_groups[0]["note"], o.param_groups[0]["lr"]


# --- zero_grad, grads that are None, closures ------------------------------------------------


@program()
def prog_osp_zero_grad_set_to_none_and_keep(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2, 2))
    b = T.nn.Parameter(T.ones(2))
    o = T.optim.SGD([w, b], lr=0.1)
    (w.sum() * 2 + b.sum()).backward()
    g = w.grad
    o.zero_grad(set_to_none=False)
    kept = (w.grad is g, w.grad, b.grad)
    (w.sum() * 3).backward(create_graph=True)
    has_fn = w.grad.grad_fn is not None
    o.zero_grad(False)
    after = (w.grad.requires_grad, w.grad.grad_fn, w.grad)
    o.zero_grad()
    return kept, has_fn, after, w.grad, b.grad


@program()
def prog_osp_step_with_no_grads_creates_no_state(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        p = T.nn.Parameter(T.ones(2))
        o = cls([p], **kw)
        r = raises(o.step)
        out[name] = (r, sorted(o.state_dict()["state"]), p.detach())
    return out


@program()
def prog_osp_closure_returns_loss_every_optimizer(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.tensor([1.0, -2.0]))
        o = cls([w], **kw)

        def closure(w=w, o=o):
            o.zero_grad()
            loss = (w**2).sum()
            loss.backward()
            return loss

        losses = [o.step(closure) for _ in range(3)]
        out[name] = (losses, w.detach())
    return out


@program()
def prog_osp_closure_that_raises_restores_modes(T: Any) -> Any:
    out = {}
    for name, kw in [*_ALL, ("LBFGS", {})]:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.ones(2))
        opt = cls([w], **kw)
        log: list[Any] = []
        opt.register_step_post_hook(lambda o, a, k, log=log: log.append("post"))

        def bad(log=log):
            log.append(("closure", T.is_grad_enabled()))
            raise ValueError("boom")

        with T.no_grad():
            r = raises(lambda opt=opt, bad=bad: opt.step(bad))
            inside = T.is_grad_enabled()
        out[name] = (r, log, inside, T.is_grad_enabled(), sorted(opt.state_dict()["state"]))
    return out


@program()
def prog_osp_zero_size_and_empty_params(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        ps = [
            T.nn.Parameter(T.zeros(0, 3)),
            T.nn.Parameter(T.ones(2, 0)),
            T.nn.Parameter(T.ones(1)),
        ]
        o = cls(ps, **kw)
        for p in ps:
            p.grad = T.ones_like(p)
        r = raises(o.step)
        out[name] = (r, [p.detach() for p in ps], o.state_dict()["state"])
    return out


# --- lr schedulers ---------------------------------------------------------------------------


def _opt2(T: Any, lr: Any = 0.05, cls: str = "SGD", **kw: Any) -> Any:
    """An optimizer with two groups (the second at 10x lr)."""
    w = T.nn.Parameter(T.ones(2))
    b = T.nn.Parameter(T.ones(1))
    lr2 = lr * 10 if not isinstance(lr, T.Tensor) else T.tensor(float(lr) * 10)
    return getattr(T.optim, cls)([{"params": [w]}, {"params": [b], "lr": lr2}], lr=lr, **kw)


def _trace(T: Any, opt: Any, sched: Any, n: int, metric: Any = None) -> Any:
    lrs = [sched.get_last_lr()]
    for i in range(n):
        opt.step()
        if metric is None:
            sched.step()
        else:
            sched.step(metric(i))
        lrs.append(list(sched.get_last_lr()))
    return lrs, [g["lr"] for g in opt.param_groups]


def _sd(sched: Any) -> Any:
    """A scheduler's state dict without its callables (compared by key only)."""
    out = {}
    for k, v in sched.state_dict().items():
        if callable(v) and not isinstance(v, (int, float)):
            out[k] = "<callable>"
        elif k == "_schedulers":
            out[k] = [_clean(x) for x in v]
        else:
            out[k] = v
    return out


def _clean(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: ("<callable>" if callable(v) else _clean(v)) for k, v in d.items()}
    return d


@program()
def prog_osp_every_scheduler_trace_and_state(T: Any) -> Any:
    S = T.optim.lr_scheduler
    makers = {
        "step": lambda o: S.StepLR(o, step_size=3, gamma=0.5),
        "multistep": lambda o: S.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.3),
        "constant": lambda o: S.ConstantLR(o, factor=0.25, total_iters=3),
        "linear": lambda o: S.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=4),
        "exp": lambda o: S.ExponentialLR(o, gamma=0.8),
        "poly": lambda o: S.PolynomialLR(o, total_iters=4, power=2.0),
        "cos": lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.001),
        "lambda": lambda o: S.LambdaLR(o, lambda e: 1 / (e + 1)),
        "mult": lambda o: S.MultiplicativeLR(o, lambda e: 0.9),
        "wr": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.001),
        "cyclic": lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2"),
        "onecycle": lambda o: S.OneCycleLR(o, max_lr=[0.1, 1.0], total_steps=12),
    }
    out = {}
    for name, mk in makers.items():
        opt = _opt2(T)
        sched = mk(opt)
        out[name] = (_trace(T, opt, sched, 9), _sd(sched))
    return out


@program()
def prog_osp_schedulers_with_tensor_lr(T: Any) -> Any:
    S = T.optim.lr_scheduler
    makers = {
        "step": lambda o: S.StepLR(o, step_size=2, gamma=0.5),
        "exp": lambda o: S.ExponentialLR(o, gamma=0.8),
        "cos": lambda o: S.CosineAnnealingLR(o, T_max=3),
        "lambda": lambda o: S.LambdaLR(o, lambda e: 0.5**e),
        "linear": lambda o: S.LinearLR(o, total_iters=3),
        "wr": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2),
        "onecycle": lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=6),
        "plateau": lambda o: S.ReduceLROnPlateau(o, patience=0),
    }
    out = {}
    for name, mk in makers.items():
        opt = _opt2(T, lr=T.tensor(0.05), cls="Adam")
        lr_obj = opt.param_groups[0]["lr"]
        sched = mk(opt)
        metric = (lambda i: 1.0) if name == "plateau" else None
        tr = raises(lambda s=sched, o=opt, m=metric: _trace(T, o, s, 5, m))
        out[name] = (
            tr,
            opt.param_groups[0]["lr"] is lr_obj,
            opt.param_groups[0].get("initial_lr"),
            raises(lambda s=sched: _sd(s)),
        )
    return out


@program()
def prog_osp_scheduler_order_and_epoch_warnings(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = []
    opt = _opt2(T)
    sched = S.StepLR(opt, 2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        sched.step()  # before optimizer.step()
        opt.step()
        sched.step()
        sched.step(5)
        sched.get_lr()
    out.append(([str(x.message)[:70] for x in w], sched.get_last_lr(), sched.last_epoch))
    opt = _opt2(T)
    sched = S.ExponentialLR(opt, 0.5)
    opt.step = lambda *a, **k: None  # overridden after the scheduler wrapped it
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        opt.step()
        sched.step()
    out.append([str(x.message)[:70] for x in w])
    return out


@program()
def prog_osp_scheduler_resume_with_last_epoch(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    err = raises(lambda: S.StepLR(opt, 2, last_epoch=3))
    for g in opt.param_groups:
        g["initial_lr"] = g["lr"] * 2
    sched = S.StepLR(opt, 2, gamma=0.5, last_epoch=3)
    opt2 = _opt2(T)
    for g in opt2.param_groups:
        g["initial_lr"] = g["lr"]
    cos = S.CosineAnnealingLR(opt2, T_max=6, last_epoch=2)
    return err, _trace(T, opt, sched, 4), _trace(T, opt2, cos, 4)


@program()
def prog_osp_closed_form_epoch_argument(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, mk in {
        "step": lambda o: S.StepLR(o, 2, gamma=0.5),
        "multistep": lambda o: S.MultiStepLR(o, [1, 3], gamma=0.5),
        "exp": lambda o: S.ExponentialLR(o, 0.7),
        "cos": lambda o: S.CosineAnnealingLR(o, 5, eta_min=0.01),
        "linear": lambda o: S.LinearLR(o, 0.5, 1.0, total_iters=4),
        "poly": lambda o: S.PolynomialLR(o, 4, 1.5),
        "constant": lambda o: S.ConstantLR(o, 0.5, total_iters=2),
        "lambda": lambda o: S.LambdaLR(o, lambda k: 0.9**k),
    }.items():
        opt = _opt2(T)
        sched = mk(opt)
        lrs = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for e in (3, 1, 6, 0, 2):
                opt.step()
                sched.step(e)
                lrs.append(sched.get_last_lr())
        out[name] = lrs
    return out


@program()
def prog_osp_scheduler_constructor_errors(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    cases = [
        lambda: S.StepLR("opt", 2),
        lambda: S.ConstantLR(opt, factor=1.5),
        lambda: S.ConstantLR(opt, factor=-0.1),
        lambda: S.LinearLR(opt, start_factor=0),
        lambda: S.LinearLR(opt, start_factor=1.5),
        lambda: S.LinearLR(opt, end_factor=1.5),
        lambda: S.LinearLR(opt, end_factor=-0.5),
        lambda: S.LambdaLR(opt, [lambda e: 1.0]),
        lambda: S.MultiplicativeLR(opt, [lambda e: 1.0]),
        lambda: S.MultiplicativeLR(opt, 0.5),
        lambda: S.CosineAnnealingWarmRestarts(opt, T_0=0),
        lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2.5),
        lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
        lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5),
        lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0"),
        lambda: S.ReduceLROnPlateau(opt, factor=1.0),
        lambda: S.ReduceLROnPlateau(opt, mode="avg"),
        lambda: S.ReduceLROnPlateau(opt, threshold_mode="pct"),
        lambda: S.ReduceLROnPlateau(opt, min_lr=[0.1]),
        lambda: S.ReduceLROnPlateau("opt"),
        lambda: S.CyclicLR(opt, 0.01, 0.1, mode="sine"),
        lambda: S.CyclicLR(opt, [0.01], 0.1),
        lambda: S.CyclicLR(_opt2(T, cls="Adagrad"), 0.01, 0.1),
        lambda: S.OneCycleLR(opt, 0.1),
        lambda: S.OneCycleLR(opt, 0.1, total_steps=0),
        lambda: S.OneCycleLR(opt, 0.1, total_steps=2.5),
        lambda: S.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=2),
        lambda: S.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=-1),
        lambda: S.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1.5),
        lambda: S.OneCycleLR(opt, 0.1, total_steps=10, anneal_strategy="exp"),
        lambda: S.OneCycleLR(opt, [0.1], total_steps=10),
        lambda: S.OneCycleLR(_opt2(T, cls="Adagrad"), 0.1, total_steps=10),
        lambda: S.SequentialLR(opt, [S.StepLR(opt, 2)], milestones=[1]),
        lambda: S.SequentialLR(opt, [], milestones=[]),
        lambda: S.SequentialLR(opt, [S.StepLR(opt, 2), S.StepLR(_opt2(T), 2)], [1]),
        lambda: S.SequentialLR(opt, [S.StepLR(opt, 2), 3], [1]),
        lambda: S.ChainedScheduler([S.StepLR(opt, 2), S.StepLR(_opt2(T), 2)]),
        lambda: S.ChainedScheduler([S.StepLR(opt, 2)], optimizer=_opt2(T)),
        lambda: S.ChainedScheduler([]),
    ]
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c in cases:
            out.append(raises(c))
    return out


@program()
def prog_osp_reduce_on_plateau_full(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    metrics = [1.0, 0.9, 0.95, 0.95, 0.94, 0.96, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6]
    for name, kw in {
        "min_rel": {"patience": 1, "factor": 0.5},
        "min_abs": {"patience": 1, "threshold_mode": "abs", "threshold": 0.05},
        "max_rel": {"mode": "max", "patience": 0, "cooldown": 2},
        "max_abs": {"mode": "max", "threshold_mode": "abs", "patience": 2},
        "minlr": {"patience": 0, "factor": 0.1, "min_lr": [0.004, 0.3]},
        "eps": {"patience": 0, "factor": 0.99, "eps": 1e-3},
    }.items():
        opt = _opt2(T)
        sched = S.ReduceLROnPlateau(opt, **kw)
        tr = _trace(T, opt, sched, len(metrics), lambda i: metrics[i])
        out[name] = (tr, sched.num_bad_epochs, sched.best, sched.cooldown_counter, _sd(sched))
    opt = _opt2(T)
    sched = S.ReduceLROnPlateau(opt, patience=0)
    opt.step()
    sched.step(T.tensor(2.0))
    sched.step(T.tensor([3.0]))
    out["tensor_metric"] = (sched.get_last_lr(), sched.best)
    out["no_metric"] = raises(lambda: sched.step())
    return out


@program()
def prog_osp_plateau_load_state_dict_and_new_group(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    sched = S.ReduceLROnPlateau(opt, patience=0, min_lr=0.001)
    for m in (1.0, 2.0, 3.0):
        opt.step()
        sched.step(m)
    sd = sched.state_dict()
    opt2 = _opt2(T)
    s2 = S.ReduceLROnPlateau(opt2)
    s2.load_state_dict(sd)
    opt2.step()
    s2.step(4.0)
    opt3 = _opt2(T)
    s3 = S.ReduceLROnPlateau(opt3, patience=0, min_lr=[0.001, 0.002])
    opt3.add_param_group({"params": [T.nn.Parameter(T.ones(1))], "lr": 0.3})
    opt3.step()
    r = raises(lambda: [s3.step(5.0), s3.step(6.0)])
    return _sd(s2), [g["lr"] for g in opt2.param_groups], r, s3.min_lrs


@program()
def prog_osp_sequential_and_chained_traces(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    seq = S.SequentialLR(
        opt,
        [S.LinearLR(opt, 0.1, total_iters=3), S.ExponentialLR(opt, 0.9), S.StepLR(opt, 2)],
        milestones=[3, 6],
    )
    a = _trace(T, opt, seq, 10)
    opt2 = _opt2(T)
    ch = S.ChainedScheduler(
        [S.ConstantLR(opt2, 0.5, total_iters=2), S.ExponentialLR(opt2, 0.9), S.StepLR(opt2, 3)]
    )
    b = _trace(T, opt2, ch, 7)
    opt3 = _opt2(T)
    c = raises(
        lambda: S.ChainedScheduler(
            [S.ReduceLROnPlateau(opt3, patience=0), S.ExponentialLR(opt3, 0.9)], optimizer=opt3
        )
    )
    return a, _sd(seq), b, _sd(ch), seq.last_epoch, c


@program()
def prog_osp_composed_schedulers_over_tensor_lr(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T, lr=T.tensor(0.05), cls="Adam")
    lr0 = opt.param_groups[0]["lr"]
    seq = S.SequentialLR(
        opt, [S.LinearLR(opt, 0.1, total_iters=2), S.CosineAnnealingLR(opt, 3)], milestones=[2]
    )
    a = raises(lambda: _trace(T, opt, seq, 5))
    opt2 = _opt2(T, lr=T.tensor(0.05), cls="AdamW")
    ch = S.ChainedScheduler([S.ExponentialLR(opt2, 0.9), S.StepLR(opt2, 2, gamma=0.5)])
    b = raises(lambda: _trace(T, opt2, ch, 4))
    return a, b, opt.param_groups[0]["lr"] is lr0, raises(lambda: _sd(seq)), raises(lambda: _sd(ch))


@program()
def prog_osp_sequential_state_dict_round_trip(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    mk = lambda o: S.SequentialLR(  # noqa: E731
        o, [S.ConstantLR(o, 0.5, total_iters=2), S.CosineAnnealingLR(o, 4)], milestones=[2]
    )
    seq = mk(opt)
    for _ in range(3):
        opt.step()
        seq.step()
    sd = seq.state_dict()
    opt2 = _opt2(T)
    seq2 = mk(opt2)
    seq2.load_state_dict(sd)
    return _sd(seq2), _trace(T, opt2, seq2, 3), _trace(T, opt, seq, 3)


@program()
def prog_osp_cyclic_lr_modes_and_momentum(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, kw in {
        "tri": {"mode": "triangular"},
        "tri2": {"mode": "triangular2", "step_size_down": 3},
        "exp": {"mode": "exp_range", "gamma": 0.9},
        "fn_cycle": {"scale_fn": lambda x: 0.5**x, "scale_mode": "cycle"},
        "fn_iter": {"scale_fn": lambda x: 1 / (1 + x), "scale_mode": "iterations"},
        "nomom": {"cycle_momentum": False},
        "list": {"base_momentum": [0.7, 0.8], "max_momentum": [0.9, 0.95]},
    }.items():
        opt = _opt2(T, momentum=0.9)
        sched = S.CyclicLR(opt, [0.01, 0.02], [0.1, 0.2], step_size_up=2, **kw)
        tr = _trace(T, opt, sched, 8)
        out[name] = (tr, [g["momentum"] for g in opt.param_groups], _sd(sched))
    opt = _opt2(T, cls="Adam")
    sched = S.CyclicLR(opt, 0.001, 0.01, step_size_up=2, base_momentum=0.8, max_momentum=0.9)
    out["adam"] = (_trace(T, opt, sched, 4), [g["betas"] for g in opt.param_groups])
    return out


@program()
def prog_osp_onecycle_variants(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, kw in {
        "cos": {},
        "linear": {"anneal_strategy": "linear"},
        "three": {"three_phase": True},
        "nomom": {"cycle_momentum": False},
        "div": {"div_factor": 10.0, "final_div_factor": 100.0, "pct_start": 0.5},
        "epochs": {"epochs": 2, "steps_per_epoch": 5, "total_steps": None},
    }.items():
        opt = _opt2(T, momentum=0.9)
        kw2 = {"total_steps": 10, **kw}
        sched = S.OneCycleLR(opt, max_lr=0.5, **kw2)
        tr = _trace(T, opt, sched, 9)
        out[name] = (tr, [g.get("momentum") for g in opt.param_groups], _sd(sched))
    opt = _opt2(T, cls="Adam")
    sched = S.OneCycleLR(opt, 0.1, total_steps=3)
    out["adam"] = (_trace(T, opt, sched, 2), [g["betas"] for g in opt.param_groups])
    out["over"] = raises(lambda: [opt.step(), sched.step(), sched.step()])
    return out


@program()
def prog_osp_momentum_cycling_on_tensor_betas_and_lr(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, mk in {
        "onecycle": lambda o: S.OneCycleLR(o, 0.1, total_steps=5),
        "cyclic": lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, base_momentum=0.8),
    }.items():

        def run(mk=mk) -> Any:
            w = T.nn.Parameter(T.ones(2))
            opt = T.optim.Adam([w], lr=T.tensor(0.01), betas=(T.tensor(0.9), T.tensor(0.99)))
            b0 = opt.param_groups[0]["betas"][0]
            sched = mk(opt)
            seen = []
            for _ in range(3):
                w.grad = T.ones(2)
                opt.step()
                sched.step()
                g = opt.param_groups[0]
                seen.append((g["lr"], g["betas"], type(g["betas"][0]).__name__))
            return seen, g["betas"][0] is b0, w.detach(), _sd(sched)

        out[name] = raises(run)
    return out


@program()
def prog_osp_stacked_schedulers_without_chaining(T: Any) -> Any:
    """Two schedulers built on one optimizer and both stepped (the pre-ChainedScheduler
    idiom): the second sees the first's initial_lr; closed-form and chained forms differ."""
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    a = S.StepLR(opt, 2, gamma=0.5)
    b = S.ExponentialLR(opt, 0.9)
    lrs = []
    for _ in range(5):
        opt.step()
        a.step()
        b.step()
        lrs.append((a.get_last_lr(), b.get_last_lr(), [g["lr"] for g in opt.param_groups]))
    opt2 = _opt2(T)
    c = S.MultiStepLR(opt2, [2], gamma=0.1)
    d = S.LinearLR(opt2, 0.5, total_iters=3)
    for _ in range(4):
        opt2.step()
        d.step()
        c.step()
        lrs.append((c.get_last_lr(), d.get_last_lr()))
    return lrs, a.base_lrs, b.base_lrs, d.base_lrs


@program()
def prog_osp_cyclic_custom_scale_fn_state_dict(T: Any) -> Any:
    S = T.optim.lr_scheduler

    class Halve:
        def __call__(self, x):
            return 0.5**x

    out = {}
    for name, fn in (("object", Halve()), ("lambda", lambda x: 1.0 / (x + 1)), ("none", None)):
        opt = _opt2(T, momentum=0.9)
        kw = {"scale_fn": fn, "scale_mode": "cycle"} if fn is not None else {"mode": "exp_range"}
        sched = S.CyclicLR(opt, 0.01, 0.1, step_size_up=2, **kw)
        for _ in range(3):
            opt.step()
            sched.step()
        sd = sched.state_dict()
        opt2 = _opt2(T, momentum=0.9)
        s2 = S.CyclicLR(opt2, 0.01, 0.1, step_size_up=2, **kw)
        s2.load_state_dict(sd)
        out[name] = (sorted(sd), _sd(sched), _trace(T, opt2, s2, 3))
    return out


@program()
def prog_osp_param_group_added_after_scheduler(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, mk in {
        "step": lambda o: S.StepLR(o, 1, gamma=0.5),
        "multistep": lambda o: S.MultiStepLR(o, [1], gamma=0.5),
        "exp": lambda o: S.ExponentialLR(o, 0.5),
        "lambda": lambda o: S.LambdaLR(o, lambda k: 0.5**k),
        "cos": lambda o: S.CosineAnnealingLR(o, 3),
        "cyclic": lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=1),
        "onecycle": lambda o: S.OneCycleLR(o, 0.1, total_steps=4),
        "plateau": lambda o: S.ReduceLROnPlateau(o, patience=0),
    }.items():
        opt = _opt2(T, momentum=0.9)
        sched = mk(opt)
        opt.add_param_group({"params": [T.nn.Parameter(T.ones(1))], "lr": 0.3})
        opt.step()
        r = raises(lambda s=sched, n=name: s.step(1.0) if n == "plateau" else s.step())
        out[name] = (
            r,
            [g["lr"] for g in opt.param_groups],
            [g.get("initial_lr") for g in opt.param_groups],
        )
    return out


@program()
def prog_osp_warm_restarts_epoch_forms(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    sched = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)
    lrs = []
    for e in (0.5, 1.0, 2.9, 3.0, 4.5, 9.0, 21.0, 20.5, 0):
        opt.step()
        sched.step(e)
        lrs.append((sched.get_last_lr(), sched.T_cur, sched.T_i, sched.last_epoch))
    return lrs, raises(lambda: sched.step(-1)), _sd(sched)


@program()
def prog_osp_lambda_lr_state_dict_with_callable_objects(T: Any) -> Any:
    S = T.optim.lr_scheduler

    class Decay:
        def __init__(self, k):
            self.k = k

        def __call__(self, e):
            return self.k**e

    opt = _opt2(T)
    sched = S.LambdaLR(opt, [Decay(0.5), lambda e: 1.0])
    for _ in range(2):
        opt.step()
        sched.step()
    sd = sched.state_dict()
    opt2 = _opt2(T)
    s2 = S.LambdaLR(opt2, [Decay(0.9), lambda e: 2.0])
    s2.load_state_dict(sd)
    return sd["lr_lambdas"], s2.lr_lambdas[0].k, _trace(T, opt2, s2, 2)


# --- odd gradients: SparseAdam on dense ones, layouts, versions, inf and nan ---------------


@program()
def prog_osp_sparse_adam_dense_grad_and_params(T: Any) -> Any:
    """SparseAdam refuses a dense gradient and complex parameters (sparse gradients themselves
    are outside shadowgrad)."""
    w = T.nn.Parameter(T.ones(3))
    o = T.optim.SparseAdam([w])
    w.grad = T.ones(3)
    z = T.nn.Parameter(T.ones(2, dtype=T.complex64))
    return (
        raises(o.step),
        raises(lambda: T.optim.SparseAdam([w, z])),
        raises(lambda: T.optim.SparseAdam([{"params": [w]}, {"params": [z]}])),
        o.state_dict(),
        repr(o),
    )


@program()
def prog_osp_noncontiguous_and_expanded_grads(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.tensor(_data(3, 2, seed=11)))
        b = T.nn.Parameter(T.tensor(_data(4, seed=12)))
        o = cls([w, b], **kw)
        for i in range(2):
            w.grad = T.tensor(_data(2, 3, seed=13 + i)).t()
            b.grad = T.tensor([0.5 - i]).expand(4)
            o.step()
        out[name] = (w.detach(), b.detach(), w.grad.is_contiguous(), b.grad.stride())
    return out


@program()
def prog_osp_noncontiguous_and_storage_sharing_params(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        base = T.tensor(_data(4, 3, seed=150))
        wt = T.nn.Parameter(base.t())  # transposed leaf
        store = T.zeros(6)
        a = T.nn.Parameter(store[:3])  # two parameters over one storage
        b = T.nn.Parameter(store[3:])
        strided = T.nn.Parameter(T.tensor(_data(8, seed=151))[::2])
        o = cls([wt, a, b, strided], **kw)
        for i in range(2):
            wt.grad = T.tensor(_data(3, 4, seed=152 + i))
            a.grad = T.ones(3) * (i + 1)
            b.grad = -T.ones(3)
            strided.grad = T.tensor(_data(4, seed=160 + i))
            o.step()
        out[name] = (
            wt.detach(),
            wt.stride(),
            store,
            strided.detach(),
            strided.stride(),
            [
                tuple(v.stride())
                for v in o.state[wt].values()
                if isinstance(v, T.Tensor) and v.dim() == 2
            ],
        )
    return out


@program()
def prog_osp_grad_version_and_param_version(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.ones(2))
        o = cls([w], **kw)
        w.grad = T.tensor([0.5, -0.5])
        v0, g0 = w._version, w.grad._version
        o.step()
        out[name] = (w._version - v0 > 0, w.grad._version - g0, w.grad)
    return out


@program()
def prog_osp_grad_of_other_dtype_and_shape_errors(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    return (
        raises(lambda: setattr(w, "grad", T.ones(2, dtype=T.float64))),
        raises(lambda: setattr(w, "grad", T.ones(3))),
        raises(lambda: setattr(w, "grad", T.ones(2, dtype=T.int64))),
        raises(lambda: setattr(w, "grad", 1.0)),
    )


@program()
def prog_osp_inf_nan_gradients(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.tensor([1.0, 2.0, 3.0, 0.0]))
        o = cls([w], **kw)
        w.grad = T.tensor([float("inf"), float("nan"), -float("inf"), 0.0])
        o.step()
        w.grad = T.tensor([1.0, 1.0, 1.0, 0.0])
        o.step()
        out[name] = w.detach()
    return out


@program()
def prog_osp_integer_and_no_grad_tensors_in_groups(T: Any) -> Any:
    i = T.arange(3)
    f = T.ones(2)  # a leaf that does not require grad
    w = T.nn.Parameter(T.ones(2))
    o = T.optim.Adam([i, f, w], lr=0.1)
    w.grad = T.ones(2)
    o.step()
    f.grad = T.ones(2)
    o.step()
    return (
        i,
        f,
        w.detach(),
        sorted(o.state_dict()["state"]),
        raises(lambda: T.optim.SGD([T.ones(2) * 2])),
    )


@program()
def prog_osp_scheduler_degenerate_settings(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, mk in {
        "step0": lambda o: S.StepLR(o, step_size=0),
        "multistep_unsorted": lambda o: S.MultiStepLR(o, milestones=[4, 1, 4]),
        "exp0": lambda o: S.ExponentialLR(o, gamma=0.0),
        "exp_gt1": lambda o: S.ExponentialLR(o, gamma=1.5),
        "cos_tmax0": lambda o: S.CosineAnnealingLR(o, T_max=0),
        "cos_tmax1": lambda o: S.CosineAnnealingLR(o, T_max=1, eta_min=0.5),
        "poly0": lambda o: S.PolynomialLR(o, total_iters=0),
        "linear0": lambda o: S.LinearLR(o, total_iters=0),
        "constant0": lambda o: S.ConstantLR(o, factor=0.5, total_iters=0),
        "cyclic_float": lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=1.5, step_size_down=2.5),
        "onecycle_one": lambda o: S.OneCycleLR(o, 0.1, total_steps=2),
        "wr_tmult1": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=1),
    }.items():
        opt = _opt2(T, momentum=0.5)
        sched = raises(lambda m=mk, o=opt: m(o))
        if not isinstance(sched, S.LRScheduler):
            out[name] = sched
            continue
        out[name] = raises(lambda s=sched, o=opt: _trace(T, o, s, 4))
    return out


@program()
def prog_osp_optimizer_and_scheduler_pickle_and_deepcopy(T: Any) -> Any:
    import pickle

    S = T.optim.lr_scheduler
    w = T.nn.Parameter(T.tensor([1.0, -2.0]))
    opt = T.optim.Adam([w], lr=0.1, amsgrad=True)
    sched = S.StepLR(opt, 1, gamma=0.5)
    w.grad = T.tensor([0.5, 0.5])
    opt.step()
    sched.step()
    o2 = pickle.loads(pickle.dumps(opt))
    o3 = copy.deepcopy(opt)
    p2 = o2.param_groups[0]["params"][0]
    p2.grad = T.tensor([0.5, 0.5])
    o2.step()
    s2 = copy.deepcopy(sched)
    return (
        o2.state_dict(),
        p2.detach(),
        o3.state_dict()["param_groups"],
        s2.state_dict(),
        s2.optimizer is not opt,
        repr(o2),
    )


@program()
def prog_osp_scheduler_get_lr_warning_and_last_lr_copies(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    sched = S.MultiStepLR(opt, [1, 2], gamma=0.1)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        direct = sched.get_lr()
    last = sched.get_last_lr()
    last.append(99)
    opt.step()
    sched.step()
    opt.param_groups[0]["lr"] = 7.0
    return direct, [str(x.message) for x in w], sched.get_last_lr(), sched.state_dict()


# --- more shapes, dtypes and contexts --------------------------------------------------------


@program()
def prog_osp_adafactor_shapes_and_complex_refusal(T: Any) -> Any:
    ps = [
        T.nn.Parameter(T.tensor(_data(2, 3, 4, seed=70))),
        T.nn.Parameter(T.tensor(_data(5, seed=71))),
        T.nn.Parameter(T.tensor(0.3)),
        T.nn.Parameter(T.tensor(_data(1, 6, seed=72))),
    ]
    opt = T.optim.Adafactor(ps, lr=0.05, weight_decay=0.01)
    for i in range(3):
        opt.zero_grad()
        sum(((p - 0.1 * i) ** 2).sum() for p in ps).backward()
        opt.step()
    sd = opt.state_dict()
    shapes = {k: {n: tuple(v.shape) for n, v in st.items()} for k, st in sd["state"].items()}
    z = T.nn.Parameter(T.ones(2, dtype=T.complex64))
    oz = T.optim.Adafactor([z])
    z.grad = T.ones(2, dtype=T.complex64)
    return [p.detach() for p in ps], shapes, sd["state"][0], raises(oz.step), sd["param_groups"]


@program()
def prog_osp_half_precision_params(T: Any) -> Any:
    out = {}
    for dt in (T.float16,):  # shadowgrad has no bfloat16
        for name, kw in (
            ("SGD", {"lr": 0.1, "momentum": 0.9}),
            ("Adam", {"lr": 0.01}),
            ("AdamW", {"lr": 0.01}),
            ("Adagrad", {"lr": 0.1}),
            ("RMSprop", {"lr": 0.01}),
        ):
            w = T.nn.Parameter(T.tensor(_data(4, seed=73)).to(dt))
            opt = getattr(T.optim, name)([w], **kw)
            for i in range(2):
                w.grad = T.tensor(_data(4, seed=74 + i)).to(dt)
                opt.step()
            out[str(dt), name] = (w.detach(), {k: v.dtype for k, v in opt.state[w].items()})
    return out


@program()
def prog_osp_half_params_every_optimizer_several_steps(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)

        def run(cls=cls, kw=kw) -> Any:
            w = T.nn.Parameter(T.tensor(_data(2, 3, seed=190)).half())
            opt = cls([w], **kw)
            for j in range(4):
                w.grad = T.tensor(_data(2, 3, seed=191 + j)).half()
                opt.step()
            return w.detach(), opt.state_dict()["state"][0]

        out[name] = raises(run)
    return out


@program()
def prog_osp_half_rmsprop_every_option(T: Any) -> Any:
    """float16 RMSprop, whose centered average cancels: torch computes each op in float32 and
    rounds its result to half."""
    out = {}
    for i, kw in enumerate(
        [
            {},
            {"centered": True},
            {"centered": True, "momentum": 0.5},
            {"momentum": 0.9, "weight_decay": 0.1},
            {"centered": True, "momentum": 0.5, "maximize": True, "alpha": 0.9},
        ]
    ):
        w = T.nn.Parameter(T.tensor(_data(4, seed=182)).half())
        opt = T.optim.RMSprop([w], lr=0.1, **kw)
        for j in range(3):
            w.grad = T.tensor(_data(4, seed=189 + j)).half()
            opt.step()
        out[i] = (w.detach(), opt.state_dict()["state"][0])
    return out


@program()
def prog_osp_step_under_no_grad_inference_and_grad_mode(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([w], lr=0.1, momentum=0.9)
    seen = []

    def closure():
        seen.append(T.is_grad_enabled())
        opt.zero_grad()
        loss = (w * 3).sum()
        loss.backward()
        return loss

    with T.no_grad():
        l1 = opt.step(closure)
    with T.inference_mode():
        r = raises(lambda: opt.step(closure))
    l3 = opt.step(closure)
    hook_modes = []
    opt.register_step_pre_hook(lambda o, a, k: hook_modes.append(T.is_grad_enabled()))
    opt.step(closure)
    return l1, r, l3, seen, hook_modes, w.detach(), w._version


@program()
def prog_osp_custom_optimizer_subclass(T: Any) -> Any:
    class SignSGD(T.optim.Optimizer):
        def __init__(self, params, lr=0.01, beta=0.5):
            if lr <= 0:
                raise ValueError(f"Invalid learning rate: {lr}")
            super().__init__(params, {"lr": lr, "beta": beta})

        @T.no_grad()
        def step(self, closure=None):
            loss = None
            if closure is not None:
                with T.enable_grad():
                    loss = closure()
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    st = self.state[p]
                    m = st.setdefault("m", T.zeros_like(p))
                    m.mul_(group["beta"]).add_(p.grad, alpha=1 - group["beta"])
                    st["n"] = st.get("n", 0) + 1
                    p.add_(m.sign(), alpha=-group["lr"])
            return loss

    w = T.nn.Parameter(T.tensor(_data(3, seed=75)))
    b = T.nn.Parameter(T.zeros(1))
    opt = SignSGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
    sched = T.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    pre = []
    opt.register_step_pre_hook(lambda o, a, k: pre.append(len(a)))
    for i in range(3):
        opt.zero_grad()
        ((w - i) ** 2).sum().add(b.sum() * 2).backward()
        opt.step()
        sched.step()
    sd = opt.state_dict()
    opt2 = SignSGD([w, b])
    r = raises(lambda: opt2.load_state_dict(sd))
    opt3 = SignSGD([{"params": [w]}, {"params": [b]}])
    opt3.load_state_dict(sd)
    return (
        w.detach(),
        b.detach(),
        sd,
        pre,
        r,
        opt3.param_groups[1]["lr"],
        repr(opt3),
        raises(lambda: SignSGD([w], lr=-1)),
        sched.get_last_lr(),
    )


@program()
def prog_osp_manual_update_with_tensor_lr(T: Any) -> Any:
    """A hand-written step with the group's tensor lr: `p.add_(g, alpha=-lr)` and
    `addcdiv_(..., value=-lr)` take a 0-dim tensor that does not require grad as a number and
    refuse any other tensor with the argument parser's TypeError."""
    w = T.nn.Parameter(T.tensor(_data(3, seed=140)))
    w.grad = T.tensor(_data(3, seed=141))
    lr = T.tensor(0.1)
    out = []
    with T.no_grad():
        w.add_(w.grad, alpha=-lr)
        w.sub_(w.grad, alpha=lr.double())
        w.addcdiv_(w.grad, w.grad.abs() + 1, value=-lr)
        w.addcmul_(w.grad, w.grad, value=lr)
        out.append(w.detach().clone())
        out.append(T.add(w, w.grad, alpha=T.tensor(2)))
        out.append(T.sub(w, w.grad, alpha=T.tensor(0.5, dtype=T.float64)))
        for bad in (T.tensor([0.1]), T.tensor(0.1, requires_grad=True), T.ones(2)):
            out.append(
                (
                    raises(lambda b=bad: w.add_(w.grad, alpha=b)),
                    raises(lambda b=bad: w.sub(w.grad, alpha=b)),
                    raises(lambda b=bad: T.add(w, w.grad, alpha=b)),
                    raises(lambda b=bad: w.addcdiv_(w.grad, w.grad, value=b)),
                    raises(lambda b=bad: T.addcmul(w, w.grad, w.grad, value=b)),
                )
            )
        out.append(raises(lambda: T.ones(2, dtype=T.long).add(T.ones(2, dtype=T.long), alpha=lr)))
        out.append(raises(lambda: w.add(w.grad, alpha=T.tensor(True))))
        out.append(
            [
                raises(lambda: w.add_("a")),
                raises(lambda: w.mul_("a")),
                raises(lambda: w.addcdiv_(w.grad, "a")),
                raises(lambda: w.sub_(w.grad, alpha=T.ones(2))),
            ]
        )
    return out, w.detach()


@program()
def prog_osp_scheduler_on_lbfgs_and_rprop(T: Any) -> Any:
    S = T.optim.lr_scheduler
    xy = T.nn.Parameter(T.tensor([-1.0, 1.0], dtype=T.float64))
    opt = T.optim.LBFGS([xy], lr=1.0, max_iter=3)
    sched = S.StepLR(opt, 1, gamma=0.5)

    def closure():
        opt.zero_grad()
        loss = _rosen(T, xy)
        loss.backward()
        return loss

    losses = []
    for _ in range(3):
        losses.append(opt.step(closure))
        sched.step()
    w = T.nn.Parameter(T.ones(3))
    o2 = T.optim.Rprop([w], lr=0.1)
    s2 = S.CosineAnnealingLR(o2, 4)
    for i in range(3):
        w.grad = T.tensor([1.0, -1.0, 0.5]) * (i - 1)
        o2.step()
        s2.step()
    return losses, xy.detach(), sched.get_last_lr(), w.detach(), o2.state[w]["step_size"]


@program()
def prog_osp_averaged_model_errors_and_extras(T: Any) -> Any:
    U = T.optim.swa_utils
    net = _bn_net(T)
    m = U.AveragedModel(net)
    other = T.nn.Sequential(T.nn.Linear(3, 4))
    r1 = raises(lambda: m.update_parameters(other))
    m.update_parameters(net)
    x = T.tensor(_data(2, 3, seed=76))
    out = m(x)
    sd = m.state_dict()
    m2 = U.AveragedModel(_bn_net(T))
    m2.load_state_dict(sd)
    both = raises(
        lambda: U.AveragedModel(
            net, avg_fn=U.get_ema_avg_fn(0.5), multi_avg_fn=U.get_ema_multi_avg_fn(0.5)
        )
    )
    m3 = U.AveragedModel(net, avg_fn=U.get_ema_avg_fn(0.5))
    m3.update_parameters(net)
    with T.no_grad():
        for p in net.parameters():
            p.add_(1.0)
    m3.update_parameters(net)
    return (
        r1,
        both,
        out,
        sorted(sd),
        m2.n_averaged,
        [p.detach() for p in m3.parameters()][:2],
        m3.n_averaged,
        [type(c).__name__ for c in m.modules()][:3],
    )


@program()
def prog_osp_foreach_leaves_or_changes_grads_as_torch(T: Any) -> Any:
    """torch's foreach updates reuse gradient memory only where they made copies, except SGD's
    nesterov term, added into p.grad itself."""
    out = {}
    for name, kw in _ALL:
        if name in ("Adafactor",):
            continue
        for extra in ({}, {"maximize": True}, {"weight_decay": 0.1}, {"nesterov": True}):
            if ("nesterov" in extra and name != "SGD") or (
                "weight_decay" in extra and name == "Rprop"
            ):
                continue
            cls = getattr(T.optim, name)
            w = T.nn.Parameter(T.tensor(_data(3, seed=80)))
            z = T.nn.Parameter(T.tensor([0.5 + 0.5j, -1.0 + 0.25j]))
            opt = cls([w, z], foreach=True, **kw, **extra)
            grads = []
            for i in range(2):
                w.grad = T.tensor(_data(3, seed=81 + i))
                z.grad = T.tensor([0.1 - 0.2j, 0.3 + 0.1j]) * (i + 1)
                opt.step()
                grads.append((w.grad.clone(), z.grad.clone()))
            out[name, tuple(extra)] = (grads, w.detach(), z.detach())
    return out


def _mixed_fused(T: Any, cls: Any, kw: dict[str, Any]) -> Any:
    w = T.nn.Parameter(T.ones(2))
    z = T.nn.Parameter(T.ones(2, dtype=T.complex64))
    opt = cls([{"params": [w]}, {"params": [z]}], fused=True, **kw)
    out = []
    for _ in range(2):
        w.grad = T.ones(2)
        z.grad = T.ones(2, dtype=T.complex64)
        out.append(raises(opt.step))
    opt2 = cls([w], fused=True, **kw)
    opt2.add_param_group({"params": [z]})
    out.append(raises(opt2.step))
    return out, w.detach(), z.detach()


@program()
def prog_osp_fused_on_cpu(T: Any) -> Any:
    out = {}
    for name, kw in (
        ("SGD", {"lr": 0.1, "momentum": 0.9}),
        ("Adam", {"lr": 0.1, "amsgrad": True}),
        ("AdamW", {"lr": 0.1, "weight_decay": 0.1}),
        ("Adagrad", {"lr": 0.1}),
    ):
        cls = getattr(T.optim, name)
        res = {}
        for label, make in (
            ("f32", lambda: T.nn.Parameter(T.tensor(_data(3, seed=90)))),
            ("f64", lambda: T.nn.Parameter(T.tensor(_data(3, seed=90), dtype=T.float64))),
            ("f16", lambda: T.nn.Parameter(T.tensor(_data(3, seed=90)).half())),
            ("c64", lambda: T.nn.Parameter(T.tensor([1.0 + 1.0j, 0.5j]))),
            ("int", lambda: T.arange(3)),
        ):

            def run(make=make, cls=cls, kw=kw) -> Any:
                w = make()
                opt = cls([w], fused=True, **kw)
                if w.is_floating_point() or w.is_complex():
                    for i in range(2):
                        w.grad = T.ones_like(w) * (i + 0.5)
                        opt.step()
                return w.detach(), opt.state_dict()

            res[label] = raises(run)
        # SGD and Adagrad check only the first parameter with a grad, once
        res["mixed"] = raises(lambda cls=cls, kw=kw: _mixed_fused(T, cls, kw))
        res["tensor_lr"] = raises(
            lambda cls=cls, kw=kw: cls(
                [T.nn.Parameter(T.ones(2))], fused=True, **{**kw, "lr": T.tensor(0.1)}
            ).state_dict()
        )
        out[name] = res
    return out


@program()
def prog_osp_zero_grads_leave_params_and_public_attrs(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.tensor(_data(2, 2, seed=91)))
        opt = cls([w], **kw)
        w.grad = T.zeros(2, 2)
        opt.step()
        opt.step()
        c = copy.deepcopy(opt)
        out[name] = (
            w.detach(),
            sorted(k for k in vars(opt) if not k.startswith("_")),
            sorted(k for k in vars(c) if not k.startswith("_")),
        )
    return out


@program()
def prog_osp_state_dict_save_load_weights_only(T: Any) -> Any:
    import io

    out = {}
    for name, kw in _ALL:
        cls = getattr(T.optim, name)
        w = T.nn.Parameter(T.tensor(_data(3, seed=92)))
        opt = cls([w], **kw)
        w.grad = T.ones(3)
        opt.step()
        buf = io.BytesIO()
        T.save(opt.state_dict(), buf)
        buf.seek(0)
        sd = T.load(buf, weights_only=True)
        opt2 = cls([w], **kw)
        opt2.load_state_dict(sd)
        w.grad = T.ones(3) * 0.5
        opt2.step()
        out[name] = (w.detach(), opt2.state_dict()["state"])
    return out


# --- differentiable=True ---------------------------------------------------------------------


def _rand(T: Any, *shape: int, seed: int, rg: bool = True, low: float = 0.0) -> Any:
    v = np.random.default_rng(seed).uniform(low, 1.0, shape)
    return T.tensor(v, dtype=T.float64, requires_grad=rg)


def _diff_step(T: Any, cls: Any, kwargs: dict[str, Any], state: dict[str, Any]) -> Any:
    return raises(lambda: _diff_step_(T, cls, kwargs, state))


def _diff_step_(T: Any, cls: Any, kwargs: dict[str, Any], state: dict[str, Any]) -> Any:
    """torch's TestDifferentiableOptimizer._diff_fn: a cloned (non-leaf) parameter whose grad
    requires grad, its state given as tensors that require grad, one differentiable step; then
    the gradients of everything it returns w.r.t. the inputs."""
    p0 = _rand(T, 5, seed=1)
    g0 = _rand(T, 5, seed=2)
    p = p0.clone()
    p.grad = g0
    st = {k: v.clone() if isinstance(v, T.Tensor) else v for k, v in state.items()}
    opt = cls([p], **kwargs, differentiable=True)
    opt.state[p].update(st)
    opt.step()
    outs = (p, *(v for v in opt.state[p].values() if isinstance(v, T.Tensor) and v.requires_grad))
    inputs = [p0, g0] + [v for v in state.values() if isinstance(v, T.Tensor) and v.requires_grad]
    inputs += [v for v in kwargs.values() if isinstance(v, T.Tensor) and v.requires_grad]
    weights = [T.linspace(0.5, 1.5, o.numel(), dtype=T.float64).reshape(o.shape) for o in outs]
    total = sum((o * w).sum() for o, w in zip(outs, weights, strict=True))
    grads = T.autograd.grad(total, inputs, allow_unused=True)
    return [o.detach() for o in outs], p.grad_fn, grads, opt.state[p]


@program()
def prog_osp_differentiable_sgd(T: Any) -> Any:
    S = T.optim.SGD
    mb = {"momentum_buffer": _rand(T, 5, seed=3)}
    return {
        "plain": _diff_step(T, S, {"lr": 0.9}, mb),
        "momentum": _diff_step(T, S, {"lr": 0.9, "momentum": 0.9, "dampening": 0.2}, mb),
        "nesterov_wd": _diff_step(
            T, S, {"lr": 0.9, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}, mb
        ),
        "maximize": _diff_step(T, S, {"lr": 0.9, "momentum": 0.5, "maximize": True}, mb),
        "first_step": _diff_step(T, S, {"lr": 0.5, "momentum": 0.5}, {}),
        "tensor_lr": _diff_step(T, S, {"lr": _rand(T, seed=4)}, {}),
        "tensor_wd": _diff_step(T, S, {"lr": 0.3, "weight_decay": _rand(T, seed=5)}, {}),
    }


@program()
def prog_osp_differentiable_adam_and_adamw(T: Any) -> Any:
    def st(amsgrad: bool = False) -> dict[str, Any]:
        d = {
            "step": T.tensor(10.0, dtype=T.float64),
            "exp_avg": _rand(T, 5, seed=6),
            "exp_avg_sq": _rand(T, 5, seed=7),
        }
        if amsgrad:
            d["max_exp_avg_sq"] = _rand(T, 5, seed=8)
        return d

    A, W = T.optim.Adam, T.optim.AdamW
    return {
        "adam": _diff_step(T, A, {"lr": 0.9}, st()),
        "amsgrad": _diff_step(T, A, {"lr": 0.9, "amsgrad": True}, st(True)),
        "wd_max": _diff_step(T, A, {"lr": 0.5, "weight_decay": 0.1, "maximize": True}, st()),
        "adamw": _diff_step(T, W, {"lr": 0.5, "weight_decay": 0.2}, st()),
        "adamw_ams": _diff_step(T, W, {"lr": 0.5, "amsgrad": True}, st(True)),
        "tensor_hparams": _diff_step(
            T,
            A,
            {
                "lr": _rand(T, seed=9),
                "betas": (_rand(T, seed=10, low=0.5), _rand(T, seed=11, low=0.5)),
            },
            st(),
        ),
    }


@program()
def prog_osp_differentiable_rmsprop_and_adagrad(T: Any) -> Any:
    def st(**extra: Any) -> dict[str, Any]:
        d = {"step": T.tensor(3.0, dtype=T.float64), "square_avg": _rand(T, 5, seed=12, low=0.5)}
        d.update(extra)
        return d

    R, G = T.optim.RMSprop, T.optim.Adagrad
    mom = _rand(T, 5, seed=13)
    gavg = _rand(T, 5, seed=14, low=-0.2) * 0.1
    return {
        "rms": _diff_step(T, R, {"lr": 0.1}, st()),
        "rms_mom": _diff_step(T, R, {"lr": 0.1, "momentum": 0.9}, st(momentum_buffer=mom)),
        "rms_centered": _diff_step(
            T,
            R,
            {"lr": 0.1, "centered": True, "momentum": 0.5, "weight_decay": 0.1},
            st(momentum_buffer=mom, grad_avg=gavg.detach().requires_grad_()),
        ),
        "adagrad": _diff_step(
            T,
            G,
            {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.2},
            {"step": T.tensor(2.0, dtype=T.float64), "sum": _rand(T, 5, seed=15, low=0.5)},
        ),
    }


@program()
def prog_osp_differentiable_adamax_nadam_radam(T: Any) -> Any:
    def st(**extra: Any) -> dict[str, Any]:
        d = {"step": T.tensor(10.0, dtype=T.float64), "exp_avg": _rand(T, 5, seed=16)}
        d.update(extra)
        return d

    sq = _rand(T, 5, seed=17, low=0.2)
    return {
        "adamax": _diff_step(
            T, T.optim.Adamax, {"lr": 0.9, "weight_decay": 0.1}, st(exp_inf=_rand(T, 5, seed=18))
        ),
        "adamax_max": _diff_step(
            T, T.optim.Adamax, {"lr": 0.5, "maximize": True}, st(exp_inf=_rand(T, 5, seed=19))
        ),
        "nadam": _diff_step(
            T,
            T.optim.NAdam,
            {"lr": 0.9, "weight_decay": 0.1},
            st(exp_avg_sq=sq, mu_product=T.tensor(1.0, dtype=T.float64, requires_grad=True)),
        ),
        "nadam_decoupled": _diff_step(
            T,
            T.optim.NAdam,
            {"lr": 0.5, "weight_decay": 0.1, "decoupled_weight_decay": True},
            st(exp_avg_sq=sq, mu_product=T.tensor(0.8, dtype=T.float64)),
        ),
        "radam_rect": _diff_step(
            T, T.optim.RAdam, {"lr": 0.9, "weight_decay": 0.1}, st(exp_avg_sq=sq)
        ),
        "radam_early": _diff_step(
            T,
            T.optim.RAdam,
            {"lr": 0.9, "decoupled_weight_decay": True, "weight_decay": 0.2},
            {
                "step": T.tensor(1.0, dtype=T.float64),
                "exp_avg": _rand(T, 5, seed=20),
                "exp_avg_sq": sq,
            },
        ),
    }


@program()
def prog_osp_differentiable_adadelta_asgd_rprop(T: Any) -> Any:
    step = T.tensor(10.0, dtype=T.float64)
    return {
        "adadelta": _diff_step(
            T,
            T.optim.Adadelta,
            {"lr": 0.9, "weight_decay": 0.1, "rho": 0.8},
            {"step": step, "square_avg": _rand(T, 5, seed=21), "acc_delta": _rand(T, 5, seed=22)},
        ),
        "asgd_mu1": _diff_step(
            T,
            T.optim.ASGD,
            {"lr": 0.9, "t0": 20},
            {
                "step": step,
                "eta": T.tensor(0.9, dtype=T.float64),
                "mu": T.tensor(1.0, dtype=T.float64),
                "ax": _rand(T, 5, seed=23),
            },
        ),
        "asgd": _diff_step(
            T,
            T.optim.ASGD,
            {"lr": 0.9, "t0": 1, "weight_decay": 0.1, "maximize": True},
            {
                "step": step,
                "eta": T.tensor(0.5, dtype=T.float64),
                "mu": T.tensor(0.3, dtype=T.float64),
                "ax": _rand(T, 5, seed=24),
            },
        ),
        "rprop": _diff_step(
            T,
            T.optim.Rprop,
            {"lr": 0.9},
            {
                "step": step,
                "prev": _rand(T, 5, seed=25, low=-1.0),
                "step_size": _rand(T, 5, seed=26),
            },
        ),
    }


@program()
def prog_osp_differentiable_every_optimizer_trains_nonleaf_copy(T: Any) -> Any:
    """Three differentiable steps of each optimizer on a non-leaf copy of the weights (fresh
    state, complex parameter included), then the gradient of the result w.r.t. the init."""
    out = {}
    for name, kw in _ALL:
        if name == "Adafactor":
            continue
        w0 = T.tensor(_data(3, seed=60), requires_grad=True)
        z0 = T.tensor([0.5 + 0.2j, -0.3 + 0.9j], requires_grad=True)
        w, z = w0 * 1.0, z0 * 1.0
        opt = getattr(T.optim, name)([w, z], differentiable=True, **kw)

        def run(w=w, z=z, opt=opt, w0=w0, z0=z0) -> Any:
            for i in range(3):
                # gradients taken at the init, so the updated copies are not saved anywhere
                gw, gz = T.autograd.grad(
                    (w0**2).sum() + (w0 * i).sin().sum() + (z0 * z0.conj()).real.sum() * (i + 1),
                    (w0, z0),
                    create_graph=True,
                )
                w.grad, z.grad = gw, gz
                opt.step()
            loss = (w**3).sum() + (z * z.conj()).real.sum()
            return loss, T.autograd.grad(loss, (w0, z0)), w.grad_fn, z.grad_fn

        def saved_and_modified(w=w, opt=opt, w0=w0) -> Any:
            (gw,) = T.autograd.grad((w**2).sum(), w, create_graph=True)
            w.grad = gw
            opt.step()
            return T.autograd.grad((w**3).sum(), w0)

        out[name] = (raises(run), raises(saved_and_modified))
    return out


@program()
def prog_osp_differentiable_lr_requiring_grad_every_optimizer(T: Any) -> Any:
    """A learning rate that requires grad under differentiable=True: the optimizers whose
    update takes it as a tensor carry its gradient; the others refuse it as torch does."""
    out = {}
    for name, kw in _ALL:
        if name == "Adafactor":
            continue

        def run(name=name, kw=kw) -> Any:
            lr = T.tensor(0.05, dtype=T.float64, requires_grad=True)
            w0 = T.tensor(_data(3, seed=130), dtype=T.float64, requires_grad=True)
            w = w0 * 1.0
            opt = getattr(T.optim, name)([w], differentiable=True, **{**kw, "lr": lr})
            for i in range(2):
                w.grad = (w0 * (i + 1)).sin()
                opt.step()
            loss = (w**2).sum()
            return loss, T.autograd.grad(loss, (w0, lr), allow_unused=True), w.grad_fn

        out[name] = raises(run)
    w = T.tensor([1.0, 2.0], requires_grad=True) * 1.0
    wd = T.tensor(0.1, requires_grad=True)
    opt = T.optim.Adam([w], lr=0.1, weight_decay=wd, differentiable=True)
    w.grad = T.tensor([0.5, -0.5]) * 1.0
    out["adam_tensor_wd"] = raises(opt.step)
    return out


@program()
def prog_osp_differentiable_leaf_param_and_step_requires_grad(T: Any) -> Any:
    out = {}
    for name, kw in (
        ("SGD", {"lr": 0.1}),
        ("Adam", {"lr": 0.1}),
        ("AdamW", {"lr": 0.1}),
        ("RMSprop", {"lr": 0.1}),
        ("Adagrad", {"lr": 0.1}),
    ):
        w = T.nn.Parameter(T.tensor([1.0, 2.0]))
        opt = getattr(T.optim, name)([w], differentiable=True, **kw)
        w.grad = T.tensor([0.5, -0.5])
        out[name] = (raises(opt.step), w.detach(), sorted(opt.state[w]))
    x = T.tensor([1.0, 2.0], requires_grad=True) * 1.0
    opt = T.optim.Adam([x], differentiable=True)
    x.grad = T.ones(2)
    opt.state[x]["step"] = T.tensor(1.0, requires_grad=True)
    opt.state[x]["exp_avg"] = T.zeros(2)
    opt.state[x]["exp_avg_sq"] = T.zeros(2)
    out["step_rg"] = raises(opt.step)
    out["nonleaf_plain"] = raises(lambda: T.optim.SGD([x], lr=0.1))
    return out


@program()
def prog_osp_differentiable_with_foreach(T: Any) -> Any:
    out = {}
    for name, kw in _ALL:
        if name == "Adafactor":
            continue
        w = T.tensor([1.0, 2.0], requires_grad=True) * 1.0
        opt = getattr(T.optim, name)([w], differentiable=True, foreach=True, **kw)
        no_grad_yet = raises(opt.step)
        w.grad = T.tensor([0.5, -0.25])
        r = raises(opt.step)
        out[name] = (no_grad_yet, r, w.grad_fn, sorted(opt.state[w]))
    return out


@program()
def prog_osp_differentiable_meta_learning_loop(T: Any) -> Any:
    """Learning the learning rate: an inner SGD step (differentiable) on a non-leaf copy of the
    weights, the validation loss backpropagated to the learning rate and the init."""
    w0 = T.tensor(_data(3, seed=50), requires_grad=True)
    log_lr = T.tensor(-1.0, requires_grad=True)
    x = T.tensor(_data(8, 3, seed=51))
    y = T.tensor(_data(8, seed=52))
    outer = T.optim.Adam([w0, log_lr], lr=0.05)
    losses = []
    for _ in range(3):
        outer.zero_grad()
        w = w0.clone()
        inner = T.optim.SGD([w], lr=log_lr.exp(), momentum=0.0, differentiable=True)
        (g,) = T.autograd.grad(((x @ w - y) ** 2).mean(), w, create_graph=True)
        w.grad = g
        inner.step()
        val = ((x @ w - y) ** 2).mean()
        val.backward()
        outer.step()
        losses.append(val.detach())
    return losses, w0.detach(), log_lr.detach(), w.grad_fn


@program()
def prog_osp_scheduler_odd_arguments(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for name, mk in {
        "verbose": lambda o: S.StepLR(o, 2, verbose=True),
        "verbose_false": lambda o: S.ExponentialLR(o, 0.5, verbose=False),
        "lambda_tensor": lambda o: S.LambdaLR(o, lambda e: T.tensor(0.5) ** e),
        "lambda_int": lambda o: S.LambdaLR(o, lambda e: e + 1),
        "mult_tensor": lambda o: S.MultiplicativeLR(o, lambda e: T.tensor(0.9)),
        "milestones_tuple": lambda o: S.MultiStepLR(o, (3, 1)),
        "milestones_set": lambda o: S.MultiStepLR(o, {2, 4}),
        "onecycle_tensor_max": lambda o: S.OneCycleLR(o, T.tensor(0.5), total_steps=5),
        "cyclic_tensor": lambda o: S.CyclicLR(o, T.tensor(0.01), T.tensor(0.1), step_size_up=2),
        "poly_frac": lambda o: S.PolynomialLR(o, total_iters=5, power=0.5),
        "gamma_int": lambda o: S.StepLR(o, 1, gamma=2),
        "cos_int_eta": lambda o: S.CosineAnnealingLR(o, 3, eta_min=1),
    }.items():
        opt = _opt2(T, momentum=0.9)
        sched = raises(lambda m=mk, o=opt: m(o))
        if not isinstance(sched, S.LRScheduler):
            out[name] = sched
            continue
        out[name] = (
            raises(lambda s=sched, o=opt: _trace(T, o, s, 4)),
            raises(lambda s=sched: _sd(s)),
        )
    return out


@program()
def prog_osp_muon_options_and_errors(T: Any) -> Any:
    M = T.optim.Muon
    out = {}
    for name, kw in {
        "default": {},
        "no_nesterov": {"nesterov": False, "momentum": 0.9},
        "wd0": {"weight_decay": 0.0, "lr": 0.02},
        "original": {"adjust_lr_fn": "original"},
        "rms": {"adjust_lr_fn": "match_rms_adamw", "ns_steps": 3},
        "tensor_lr": {"lr": T.tensor(0.01)},
    }.items():

        def run(kw=kw) -> Any:
            w = T.nn.Parameter(T.tensor(_data(3, 5, seed=100)))
            v = T.nn.Parameter(T.tensor(_data(6, 2, seed=101)))
            opt = M([w, v], **kw)
            for i in range(3):
                w.grad = T.tensor(_data(3, 5, seed=102 + i))
                v.grad = T.tensor(_data(6, 2, seed=110 + i))
                opt.step()
            return w.detach(), v.detach(), opt.state_dict()

        out[name] = raises(run)
    p1 = T.nn.Parameter(T.ones(3))
    pz = T.nn.Parameter(T.ones(2, 2, dtype=T.complex64))
    out["errors"] = [
        raises(lambda: M([p1])),
        raises(lambda: M([T.nn.Parameter(T.ones(2, 2, 2))])),
        raises(lambda: M([T.nn.Parameter(T.ones(2, 2))], lr=-1.0)),
        raises(lambda: M([T.nn.Parameter(T.ones(2, 2))], momentum=-1.0)),
        raises(lambda: M([T.nn.Parameter(T.ones(2, 2))], weight_decay=-1.0)),
        raises(lambda: M([T.nn.Parameter(T.ones(2, 2))], adjust_lr_fn="sqrt")),
        raises(lambda: M([T.nn.Parameter(T.ones(2, 2))], lr=T.tensor([0.1, 0.2]))),
    ]
    oz = raises(lambda: M([pz]))
    if isinstance(oz, T.optim.Optimizer):
        pz.grad = T.ones(2, 2, dtype=T.complex64)
        oz = raises(oz.step)
    out["complex"] = oz
    return out


# --- LBFGS -----------------------------------------------------------------------------------


def _rosen(T: Any, xy: Any) -> Any:
    return (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2


def _lbfgs_run(T: Any, steps: int = 3, dtype: Any = None, **kw: Any) -> Any:
    xy = T.nn.Parameter(T.tensor([-1.2, 1.0], dtype=dtype or T.float64))
    opt = T.optim.LBFGS([xy], **kw)
    evals = []

    def closure():
        opt.zero_grad()
        loss = _rosen(T, xy)
        loss.backward()
        evals.append(float(loss))
        return loss

    losses = [opt.step(closure) for _ in range(steps)]
    st = opt.state[xy]
    keys = sorted(opt.state_dict()["state"][0]) if opt.state_dict()["state"] else []
    return losses, xy.detach(), len(evals), st.get("func_evals"), st.get("n_iter"), keys


@program()
def prog_osp_lbfgs_options(T: Any) -> Any:
    return {
        "default": _lbfgs_run(T),
        "wolfe": _lbfgs_run(T, line_search_fn="strong_wolfe"),
        "hist2": _lbfgs_run(T, history_size=2, max_iter=10),
        "max_eval": _lbfgs_run(T, max_iter=20, max_eval=7),
        "lr": _lbfgs_run(T, lr=0.1, max_iter=5),
        "tol_grad": _lbfgs_run(T, tolerance_grad=1e3),
        "tol_change": _lbfgs_run(T, tolerance_change=1.0),
        "wolfe_f32": _lbfgs_run(T, 1, T.float32, line_search_fn="strong_wolfe", max_iter=6),
    }


@program()
def prog_osp_lbfgs_multiple_params_and_state_dict(T: Any) -> Any:
    w = T.nn.Parameter(T.tensor(_data(3, 2, seed=4), dtype=T.float64))
    b = T.nn.Parameter(T.tensor(_data(2, seed=5), dtype=T.float64))
    x = T.tensor(_data(5, 3, seed=6), dtype=T.float64)
    y = T.tensor(_data(5, 2, seed=7), dtype=T.float64)
    opt = T.optim.LBFGS([w, b], max_iter=4, history_size=3, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        return loss

    losses = [opt.step(closure) for _ in range(3)]
    sd = opt.state_dict()
    st = sd["state"][0]
    summary = {
        k: (len(v) if isinstance(v, list) else v)
        for k, v in st.items()
        if k not in ("d", "prev_flat_grad")
    }
    opt2 = T.optim.LBFGS([w, b], max_iter=4, history_size=3, line_search_fn="strong_wolfe")
    opt2.load_state_dict(copy.deepcopy(sd))
    more = opt2.step(closure)
    return (
        losses,
        w.detach(),
        b.detach(),
        summary,
        st["d"],
        st["prev_flat_grad"],
        more,
        sd["param_groups"],
    )


@program()
def prog_osp_lbfgs_errors_and_zero_grad_start(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.LBFGS([p])

    def closure():
        opt.zero_grad()
        loss = (p * 0).sum()
        loss.backward()
        return loss

    return (
        raises(lambda: opt.step()),
        opt.step(closure),
        p.detach(),
        opt.state[p]["n_iter"],
        raises(lambda: T.optim.LBFGS([p], max_iter=2).step(lambda: None)),
    )


@program()
def prog_osp_lbfgs_complex_parameter(T: Any) -> Any:
    z = T.nn.Parameter(T.tensor([1.0 + 2.0j, -0.5 + 0.1j], dtype=T.complex128))
    opt = T.optim.LBFGS([z], max_iter=5)

    def closure():
        opt.zero_grad()
        loss = ((z - (0.3 - 0.2j)).abs() ** 2).sum()
        loss.backward()
        return loss

    return [opt.step(closure) for _ in range(2)], z.detach()


@program()
def prog_osp_lbfgs_unused_param_and_float_closure(T: Any) -> Any:
    xy = T.nn.Parameter(T.tensor([-1.2, 1.0], dtype=T.float64))
    unused = T.nn.Parameter(T.ones(3, dtype=T.float64))
    opt = T.optim.LBFGS([xy, unused], max_iter=4)

    def closure():
        opt.zero_grad()
        loss = _rosen(T, xy)
        loss.backward()
        return loss.item()

    r = [opt.step(closure) for _ in range(2)]
    st = opt.state[xy]
    return r, xy.detach(), unused.detach(), st["d"].shape, sorted(opt.state_dict()["state"])


@program()
def prog_osp_duplicate_param_updated_twice(T: Any) -> Any:
    out = {}
    for name, kw in (
        ("SGD", {"lr": 0.1, "momentum": 0.5}),
        ("Adam", {"lr": 0.1}),
        ("RMSprop", {"lr": 0.1}),
    ):
        w = T.nn.Parameter(T.tensor([1.0, -1.0]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            opt = getattr(T.optim, name)([w, w], **kw)
        for _ in range(2):
            w.grad = T.tensor([0.5, 0.25])
            opt.step()
        out[name] = (w.detach(), opt.state_dict())
    return out


@program()
def prog_osp_swalr_with_tensor_lr_and_resume(T: Any) -> Any:
    U = T.optim.swa_utils
    opt = _opt2(T, lr=T.tensor(0.05), cls="Adam")
    sch = U.SWALR(opt, swa_lr=0.01, anneal_epochs=3)
    tr = raises(lambda: _trace(T, opt, sch, 4))
    sd = sch.state_dict()
    opt2 = _opt2(T)
    sch2 = U.SWALR(opt2, swa_lr=[0.2, 0.3], anneal_epochs=2, anneal_strategy="linear")
    sch2.load_state_dict(sd)
    return tr, _sd(sch), _sd(sch2), _trace(T, opt2, sch2, 2)


@program()
def prog_osp_optimizer_load_carries_initial_lr_into_scheduler(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _opt2(T)
    sched = S.StepLR(opt, 2, gamma=0.1)
    for _ in range(3):
        opt.step()
        sched.step()
    osd, ssd = opt.state_dict(), sched.state_dict()
    opt2 = _opt2(T)
    opt2.load_state_dict(osd)
    sched2 = S.StepLR(opt2, 2, gamma=0.1, last_epoch=ssd["last_epoch"])
    opt3 = _opt2(T)
    sched3 = S.StepLR(opt3, 2, gamma=0.1)
    sched3.load_state_dict(ssd)
    opt3.load_state_dict(osd)
    return (
        osd["param_groups"],
        _trace(T, opt2, sched2, 3),
        _trace(T, opt3, sched3, 3),
        sched2.base_lrs,
    )


@program()
def prog_osp_lbfgs_scalar_complex_wolfe_and_nan(T: Any) -> Any:
    out = {}

    def run(params: list[Any], f: Any, **kw: Any) -> Any:
        opt = T.optim.LBFGS(params, **kw)

        def closure():
            opt.zero_grad()
            loss = f()
            loss.backward()
            return loss

        return [opt.step(closure) for _ in range(2)], [p.detach() for p in params]

    s = T.nn.Parameter(T.tensor(1.5, dtype=T.float64))
    v = T.nn.Parameter(T.tensor([0.3, -0.4], dtype=T.float64))
    out["scalar"] = raises(
        lambda: run(
            [s, v], lambda: (s - 0.2) ** 4 + ((v * s) ** 2).sum(), line_search_fn="strong_wolfe"
        )
    )
    z = T.nn.Parameter(T.tensor([1.0 + 2.0j, -0.5 + 0.1j], dtype=T.complex128))
    out["complex_wolfe"] = raises(
        lambda: run(
            [z],
            lambda: ((z - (0.3 - 0.2j)).abs() ** 2).sum(),
            line_search_fn="strong_wolfe",
            max_iter=4,
        )
    )
    n = T.nn.Parameter(T.tensor([1.0, 2.0], dtype=T.float64))
    out["nan"] = raises(lambda: run([n], lambda: (n.log() * float("nan")).sum(), max_iter=3))
    h = T.nn.Parameter(T.tensor([1.0, -1.0], dtype=T.float32))
    out["f32_hist1"] = raises(
        lambda: run([h], lambda: ((h - 0.5) ** 2).sum() + h.prod(), history_size=1, max_iter=5)
    )
    return out


# --- swa_utils -------------------------------------------------------------------------------


def _bn_net(T: Any) -> Any:
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.ReLU(), T.nn.Linear(4, 2))
    with T.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(T.tensor(_data(*p.shape, seed=20 + i)))
    return net


@program()
def prog_osp_averaged_model_swa_and_ema(T: Any) -> Any:
    U = T.optim.swa_utils
    net = _bn_net(T)
    swa = U.AveragedModel(net)
    ema = U.AveragedModel(net, multi_avg_fn=U.get_ema_multi_avg_fn(0.9))
    ema2 = U.AveragedModel(net, avg_fn=U.get_ema_avg_fn(0.8), use_buffers=True)
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    x = T.tensor(_data(6, 3, seed=30))
    for _ in range(3):
        opt.zero_grad()
        net(x).pow(2).sum().backward()
        opt.step()
        for m in (swa, ema, ema2):
            m.update_parameters(net)
    sd = swa.state_dict()
    return (
        [p.detach() for p in swa.parameters()],
        [p.detach() for p in ema.parameters()],
        [b for b in ema2.buffers()],
        sorted(sd),
        swa.n_averaged,
        ema2.n_averaged.dtype,
        swa(x),
    )


@program()
def prog_osp_averaged_model_custom_avg_fn_and_buffers(T: Any) -> Any:
    U = T.optim.swa_utils
    net = _bn_net(T)
    calls = []

    def avg(avg_p, p, n):
        calls.append(int(n))
        return avg_p + (p - avg_p) / (n + 1)

    m = U.AveragedModel(net, avg_fn=avg, use_buffers=True)
    net.train()
    x = T.tensor(_data(6, 3, seed=31))
    for i in range(3):
        net(x * (i + 1))
        m.update_parameters(net)
    m2 = U.AveragedModel(net)
    m2.update_parameters(net)
    return calls, list(m.buffers()), list(m2.module[1].running_mean), m.n_averaged


@program()
def prog_osp_averaged_model_use_buffers_default_swa(T: Any) -> Any:
    U = T.optim.swa_utils
    net = _bn_net(T)
    m = U.AveragedModel(net, use_buffers=True)
    e = U.AveragedModel(net, use_buffers=True, multi_avg_fn=U.get_ema_multi_avg_fn(0.7))
    net.train()
    for i in range(4):
        net(T.tensor(_data(5, 3, seed=120 + i)) * (i + 1))
        with T.no_grad():
            net[0].weight.mul_(0.9)
        m.update_parameters(net)
        e.update_parameters(net)
    return (
        [b for b in m.buffers()],
        [b for b in e.buffers()],
        [p.detach() for p in m.parameters()][:2],
        m.n_averaged,
        e.n_averaged,
    )


@program()
def prog_osp_swa_avg_functions_directly(T: Any) -> Any:
    U = T.optim.swa_utils
    a = [T.tensor([1.0, 2.0]), T.tensor([[0.5]])]
    b = [T.tensor([3.0, -2.0]), T.tensor([[1.5]])]
    out = {}
    swa = U.get_swa_avg_fn()
    ema = U.get_ema_avg_fn(0.75)
    out["swa"] = [swa(x, y, T.tensor(2)) for x, y in zip(a, b, strict=True)]
    out["ema"] = [ema(x, y, T.tensor(5)) for x, y in zip(a, b, strict=True)]
    ma = [x.clone() for x in a]
    U.get_swa_multi_avg_fn()(ma, b, T.tensor(3))
    me = [x.clone() for x in a]
    U.get_ema_multi_avg_fn(0.5)(me, b, T.tensor(1))
    mi = [T.tensor([1, 2])]
    r = raises(lambda: U.get_swa_multi_avg_fn()(mi, [T.tensor([3, 4])], T.tensor(1)))
    return out, ma, me, r, mi


@program()
def prog_osp_swalr_schedules_and_errors(T: Any) -> Any:
    U = T.optim.swa_utils
    out = {}
    for name, kw in {
        "cos": {"swa_lr": 0.05, "anneal_epochs": 3},
        "lin": {"swa_lr": [0.05, 0.5], "anneal_epochs": 4, "anneal_strategy": "linear"},
        "zero": {"swa_lr": 0.01, "anneal_epochs": 0},
    }.items():
        opt = _opt2(T)
        sch = U.SWALR(opt, **kw)
        out[name] = (_trace(T, opt, sch, 6), _sd(sch))
    opt = _opt2(T)
    out["errors"] = [
        raises(lambda: U.SWALR(opt, 0.1, anneal_strategy="exp")),
        raises(lambda: U.SWALR(opt, 0.1, anneal_epochs=-1)),
        raises(lambda: U.SWALR(opt, 0.1, anneal_epochs=1.5)),
        raises(lambda: U.SWALR(opt, [0.1, 0.2, 0.3])),
    ]
    return out


@program()
def prog_osp_update_bn_loaders(T: Any) -> Any:
    U = T.optim.swa_utils
    net = _bn_net(T)
    xs = [T.tensor(_data(4, 3, seed=40 + i)) for i in range(3)]
    U.update_bn(xs, net)
    a = (net[1].running_mean.clone(), net[1].running_var.clone(), net[1].num_batches_tracked)
    net2 = _bn_net(T)
    net2[1].momentum = 0.3
    U.update_bn([(x, 0) for x in xs], net2)
    b = (net2[1].running_mean, net2[1].momentum, net2.training)
    net3 = T.nn.Sequential(T.nn.Linear(3, 2))
    U.update_bn(xs, net3)
    net4 = _bn_net(T).eval()
    U.update_bn([[x] for x in xs], net4)
    return a, b, net4.training, net4[1].running_var


# --- user code: training loops ---------------------------------------------------------------


def _mlp(T: Any, seed: int = 0) -> Any:
    net = T.nn.Sequential(T.nn.Linear(4, 8), T.nn.LayerNorm(8), T.nn.GELU(), T.nn.Linear(8, 3))
    with T.no_grad():
        for i, (_, p) in enumerate(sorted(net.named_parameters())):
            p.copy_(T.tensor(_data(*p.shape, seed=seed + i) * 0.5))
    return net


def _batches(T: Any, n: int, seed: int = 200) -> list[Any]:
    rng = np.random.default_rng(seed)
    return [
        (T.tensor(rng.standard_normal((6, 4)).astype(np.float32)), T.tensor(rng.integers(0, 3, 6)))
        for _ in range(n)
    ]


@program()
def prog_osp_train_adamw_onecycle_clip_no_decay_groups(T: Any) -> Any:
    net = _mlp(T, 10)
    decay = [p for n, p in net.named_parameters() if n.endswith("weight") and p.dim() > 1]
    no_decay = [p for n, p in net.named_parameters() if not (n.endswith("weight") and p.dim() > 1)]
    opt = T.optim.AdamW(
        [{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}],
        lr=3e-3,
        betas=(0.9, 0.95),
    )
    sched = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=6, pct_start=0.3)
    losses, norms = [], []
    for x, y in _batches(T, 6):
        opt.zero_grad(set_to_none=True)
        loss = T.nn.functional.cross_entropy(net(x), y, label_smoothing=0.1)
        loss.backward()
        norms.append(T.nn.utils.clip_grad_norm_(net.parameters(), 0.5))
        opt.step()
        sched.step()
        losses.append(loss.detach())
    return losses, norms, sched.get_last_lr(), opt.state_dict()["state"][0], net[3].bias.detach()


@program()
def prog_osp_train_grad_accumulation_sgd_nesterov(T: Any) -> Any:
    net = _mlp(T, 20)
    opt = T.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3)
    sched = T.optim.lr_scheduler.MultiStepLR(opt, [1, 2], gamma=0.5)
    losses = []
    for i, (x, y) in enumerate(_batches(T, 6, 201)):
        loss = T.nn.functional.cross_entropy(net(x), y) / 2
        loss.backward()
        losses.append(loss.detach())
        if i % 2 == 1:
            opt.step()
            opt.zero_grad()
            sched.step()
    return losses, [p.detach() for p in net.parameters()][:2], sched.get_last_lr()


@program()
def prog_osp_train_freeze_then_unfreeze(T: Any) -> Any:
    net = _mlp(T, 30)
    for p in net[0].parameters():
        p.requires_grad_(False)
    opt = T.optim.Adam(net.parameters(), lr=1e-2)
    hist = []
    for i, (x, y) in enumerate(_batches(T, 4, 202)):
        if i == 2:
            for p in net[0].parameters():
                p.requires_grad_(True)
        opt.zero_grad()
        T.nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
        hist.append(sorted(opt.state_dict()["state"]))
    st = opt.state_dict()["state"]
    return hist, st[0]["step"], st[2]["step"], net[0].weight.detach()


@program()
def prog_osp_train_checkpoint_resume_bytes(T: Any) -> Any:
    import io

    def make(net: Any) -> Any:
        opt = T.optim.RMSprop(net.parameters(), lr=1e-2, momentum=0.5, centered=True)
        sched = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
        return opt, sched

    def train(net: Any, opt: Any, sched: Any, batches: list[Any]) -> list[Any]:
        out = []
        for x, y in batches:
            opt.zero_grad()
            loss = T.nn.functional.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            sched.step()
            out.append(loss.detach())
        return out

    batches = _batches(T, 6, 203)
    net = _mlp(T, 40)
    opt, sched = make(net)
    first = train(net, opt, sched, batches[:3])
    buf = io.BytesIO()
    T.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict()}, buf)
    rest = train(net, opt, sched, batches[3:])
    buf.seek(0)
    ck = T.load(buf)
    net2 = _mlp(T, 99)
    net2.load_state_dict(ck["model"])
    opt2, sched2 = make(net2)
    opt2.load_state_dict(ck["opt"])
    sched2.load_state_dict(ck["sched"])
    rest2 = train(net2, opt2, sched2, batches[3:])
    return first, rest, rest2, sched2.get_last_lr(), net2[3].weight.detach()


@program()
def prog_osp_train_swa_phase_with_update_bn(T: Any) -> Any:
    U = T.optim.swa_utils
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(4, 6), T.nn.BatchNorm1d(6), T.nn.ReLU(), T.nn.Linear(6, 3))
    with T.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(T.tensor(_data(*p.shape, seed=210 + i) * 0.5))
    opt = T.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    swa_model = U.AveragedModel(net)
    sched = T.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
    swa_sched = U.SWALR(opt, swa_lr=0.02, anneal_epochs=2)
    batches = _batches(T, 4, 204)
    lrs = []
    for epoch in range(6):
        for x, y in batches[:2]:
            opt.zero_grad()
            T.nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
        if epoch >= 3:
            swa_model.update_parameters(net)
            swa_sched.step()
        else:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    U.update_bn([x for x, _ in batches], swa_model)
    x = batches[0][0]
    swa_model.eval()
    return lrs, swa_model(x), swa_model.module[1].running_mean, swa_model.n_averaged


# --- the harness -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
