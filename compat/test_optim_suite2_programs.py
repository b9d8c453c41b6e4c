"""Programs from torch's optimizer test suite, second round (test/test_optim.py,
test/optim/test_lrscheduler.py, test/optim/test_swa_utils.py and the option matrix of
torch/testing/_internal/common_optimizers.py), where the first round
(test_optim_suite_programs.py) is thin: constructor argument checks with values of the wrong
type, sparse gradients through every optimizer, differentiable steps with hyper-parameters that
require grad, state dicts loaded across optimizers with other options (a differentiable
optimizer's groups loaded into a plain one), dtype casting of loaded state, named parameters,
repr, the global step hooks, every scheduler under the deprecated epoch argument, custom
schedulers, ReduceLROnPlateau in each mode, OneCycleLR and CyclicLR over momentum-less
optimizers, SWALR and AveragedModel corners. The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and
on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program

_OPTIMIZERS = (
    "SGD",
    "Adam",
    "AdamW",
    "Adamax",
    "NAdam",
    "RAdam",
    "Adagrad",
    "Adadelta",
    "RMSprop",
    "Rprop",
    "ASGD",
    "LBFGS",
    "SparseAdam",
    "Muon",
    "Adafactor",
)


# --- helpers ---------------------------------------------------------------------------------


def _ps(T: Any, seed: int = 0, dtype: Any = None, complex_: bool = False) -> list[Any]:
    """Two real parameters (a matrix and a vector), and a complex matrix when asked."""
    dt = dtype or T.float32
    ps = [
        T.nn.Parameter(T.tensor(_data(2, 3, seed=seed + 1), dtype=dt)),
        T.nn.Parameter(T.tensor(_data(3, seed=seed + 2), dtype=dt)),
    ]
    if complex_:
        c = _data(2, 3, seed=seed + 3)
        ct = T.complex128 if dt == T.float64 else T.complex64
        ps.append(T.nn.Parameter(T.tensor(c[0] + 1j * c[1]).to(ct)))
    return ps


def _loss(T: Any, ps: list[Any], i: int) -> Any:
    loss = sum(((p.real if p.is_complex() else p) ** 2).sum() * (i + 1) for p in ps)
    loss = loss + sum((p.imag**2).sum() for p in ps if p.is_complex())
    return loss.float() if loss.dtype == T.float16 else loss


def _train(T: Any, opt: Any, ps: list[Any], steps: int = 2, start: int = 0) -> list[Any]:
    for i in range(start, start + steps):
        opt.zero_grad()
        _loss(T, ps, i).backward()
        opt.step()
    return [p.detach().clone() for p in ps]


def _groups(opt: Any) -> list[dict[str, Any]]:
    """The param groups without their parameters (compared by the keys' order too)."""
    return [[(k, None if k == "params" else v) for k, v in g.items()] for g in opt.param_groups]


def _trace(T: Any, opt: Any, sched: Any, n: int, *args: Any) -> list[Any]:
    out = []
    for _ in range(n):
        opt.step()
        sched.step(*args)
        out.append((sched.get_last_lr(), [g["lr"] for g in opt.param_groups]))
    return out


# --- constructor argument checks -------------------------------------------------------------


@program()
def prog_op2_lr_none_and_strings_every_optimizer(T: Any) -> Any:
    """torch compares `0.0 <= lr` (SGD: `lr < 0.0`, SparseAdam: `0.0 < lr`): a None or a str
    fails with the TypeError of that comparison, operands in that order."""
    out = {}
    for name in _OPTIMIZERS:
        cls = getattr(T.optim, name)
        out[name] = (
            raises(lambda c=cls: c(_ps(T), lr=None)),
            raises(lambda c=cls: c(_ps(T), lr="0.1")),
            raises(lambda c=cls: c(_ps(T), lr=float("nan"))),
        )
    return out


@program()
def prog_op2_other_hyperparameters_of_wrong_type(T: Any) -> Any:
    optim = T.optim
    ps = _ps(T)
    cases = {
        "sgd_momentum": lambda: optim.SGD(ps, lr=0.1, momentum=None),
        "sgd_weight_decay": lambda: optim.SGD(ps, lr=0.1, weight_decay="0"),
        "adam_eps": lambda: optim.Adam(ps, eps=None),
        "adam_beta0": lambda: optim.Adam(ps, betas=(None, 0.9)),
        "adam_betas_short": lambda: optim.Adam(ps, betas=(0.9,)),
        "adam_weight_decay": lambda: optim.Adam(ps, weight_decay=None),
        "adamw_weight_decay": lambda: optim.AdamW(ps, weight_decay=-1.0),
        "adamax_eps": lambda: optim.Adamax(ps, eps=None),
        "nadam_momentum_decay": lambda: optim.NAdam(ps, momentum_decay=None),
        "radam_eps": lambda: optim.RAdam(ps, eps="x"),
        "adagrad_lr_decay": lambda: optim.Adagrad(ps, lr_decay=None),
        "adagrad_initial": lambda: optim.Adagrad(ps, initial_accumulator_value=None),
        "adagrad_eps": lambda: optim.Adagrad(ps, eps=None),
        "adadelta_rho": lambda: optim.Adadelta(ps, rho=None),
        "adadelta_eps": lambda: optim.Adadelta(ps, eps=None),
        "rmsprop_alpha": lambda: optim.RMSprop(ps, alpha=None),
        "rmsprop_momentum": lambda: optim.RMSprop(ps, momentum=None),
        "rprop_etas": lambda: optim.Rprop(ps, etas=(None, 1.2)),
        "rprop_etas_order": lambda: optim.Rprop(ps, etas=(1.5, 0.5)),
        "asgd_weight_decay": lambda: optim.ASGD(ps, weight_decay=None),
        "lbfgs_neg": lambda: optim.LBFGS(ps, lr=-1),
        "muon_momentum": lambda: optim.Muon([p for p in ps if p.dim() == 2], momentum=None),
        "muon_weight_decay": lambda: optim.Muon([p for p in ps if p.dim() == 2], weight_decay=-1.0),
        "adafactor_beta2_decay": lambda: optim.Adafactor(ps, beta2_decay=None),
        "adafactor_beta2_decay_pos": lambda: optim.Adafactor(ps, beta2_decay=0.5),
        "adafactor_d": lambda: optim.Adafactor(ps, d=None),
        "adafactor_d_small": lambda: optim.Adafactor(ps, d=0.5),
        "adafactor_eps1": lambda: optim.Adafactor(ps, eps=(-1.0, 1e-3)),
        "adafactor_eps2": lambda: optim.Adafactor(ps, eps=(None, None)),
        "adafactor_weight_decay": lambda: optim.Adafactor(ps, weight_decay=None),
        "sparse_adam_eps": lambda: optim.SparseAdam(ps, eps=None),
        "sparse_adam_eps0": lambda: optim.SparseAdam(ps, eps=0.0),
        "sparse_adam_beta": lambda: optim.SparseAdam(ps, betas=(0.9, 1.0)),
    }
    return {k: raises(f) for k, f in cases.items()}


@program()
def prog_op2_tensor_hyperparameters_of_bad_shape(T: Any) -> Any:
    optim = T.optim
    out = {}
    for name in ("SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Adafactor", "SparseAdam", "Muon"):
        cls = getattr(optim, name)
        ps = _ps(T)[:1]
        out[name] = (
            raises(lambda c=cls, p=ps: c(p, lr=T.tensor([0.1, 0.2]))),
            raises(lambda c=cls, p=ps: c(p, lr=T.tensor([[0.1]])).defaults["lr"]),
            raises(lambda c=cls, p=ps: c(p, lr=T.tensor(-0.1))),
        )
    return out


# --- repr and the global hooks ---------------------------------------------------------------


@program()
def prog_op2_repr_every_optimizer(T: Any) -> Any:
    out = {}
    for name in _OPTIMIZERS:
        cls = getattr(T.optim, name)
        ps = [p for p in _ps(T) if name != "Muon" or p.dim() == 2]
        out[name] = raises(lambda c=cls, p=ps: repr(c(p, lr=0.1)))
    groups = [{"params": _ps(T)}, {"params": _ps(T, 4), "lr": T.tensor(0.5), "nesterov": True}]
    out["groups"] = repr(T.optim.SGD(groups, lr=0.1, momentum=0.9))
    net = T.nn.Linear(2, 1)
    out["named"] = repr(T.optim.Adam(net.named_parameters(), lr=0.1))
    return out


@program()
def prog_op2_global_step_hooks(T: Any) -> Any:
    om = importlib.import_module(T.__name__ + ".optim.optimizer")
    log: list[Any] = []
    h1 = om.register_optimizer_step_pre_hook(lambda o, a, k: log.append(("pre", type(o).__name__)))
    h2 = om.register_optimizer_step_post_hook(lambda o, a, k: log.append(("post", len(a), k)))
    try:
        ps = _ps(T)
        opt = T.optim.SGD(ps, lr=0.1)
        opt.register_step_pre_hook(lambda o, a, k: log.append("local-pre"))
        opt.register_step_post_hook(lambda o, a, k: log.append("local-post"))
        ps[0].sum().backward()
        opt.step()
        opt.step(closure=None)
        lb = T.optim.LBFGS(ps[:1], max_iter=1)
        lb.step(lambda: ps[0].sum())
    finally:
        h1.remove()
        h2.remove()
    opt.step()
    return log, ps[0]


@program()
def prog_op2_hook_handles_and_prepend_order(T: Any) -> Any:
    ps = _ps(T)
    opt = T.optim.Adam(ps, lr=0.1)
    log: list[Any] = []
    opt.register_step_pre_hook(lambda o, a, k: log.append("pre1"))
    h = opt.register_step_post_hook(lambda o, a, k: log.append("post1"))
    opt.register_step_post_hook(lambda o, a, k: log.append("post2"))
    opt.register_state_dict_pre_hook(lambda o: log.append("sd-pre1"))
    opt.register_state_dict_pre_hook(lambda o: log.append("sd-pre0"), prepend=True)
    opt.register_state_dict_post_hook(lambda o, sd: log.append("sd-post1"))
    opt.register_state_dict_post_hook(lambda o, sd: log.append("sd-post0"), prepend=True)
    ps[0].sum().backward()
    opt.step()
    h.remove()
    h.remove()
    opt.step()
    sd = opt.state_dict()
    opt.register_load_state_dict_pre_hook(lambda o, s: log.append(("ld-pre", sorted(s))))
    opt.register_load_state_dict_post_hook(lambda o: log.append("ld-post1"))
    opt.register_load_state_dict_post_hook(lambda o: log.append("ld-post0"), prepend=True)
    opt.load_state_dict(sd)
    return log, type(h).__name__, ps[0]


@program()
def prog_op2_state_dict_hooks_rewrite_the_dict(T: Any) -> Any:
    ps = _ps(T)
    opt = T.optim.SGD(ps, lr=0.1, momentum=0.9)
    log: list[Any] = []

    def post(o: Any, sd: Any) -> Any:
        sd["extra"] = [len(sd["state"])]
        return sd

    def ld_pre(o: Any, sd: Any) -> Any:
        sd = dict(sd)
        log.append(sd.pop("extra"))
        sd["param_groups"] = [dict(g, lr=0.5) for g in sd["param_groups"]]
        return sd

    opt.register_state_dict_post_hook(post)
    opt.register_load_state_dict_pre_hook(ld_pre)
    opt.register_state_dict_post_hook(lambda o, sd: None)
    _train(T, opt, ps)
    sd = opt.state_dict()
    opt.load_state_dict(sd)
    return log, sd["extra"], _groups(opt), opt.state_dict()["state"]


# --- sparse gradients ------------------------------------------------------------------------


def _embedding(T: Any, seed: int = 0, sparse: bool = True) -> Any:
    e = T.nn.Embedding(6, 3, sparse=sparse)
    with T.no_grad():
        e.weight.copy_(T.tensor(_data(6, 3, seed=seed)))
    return e


def _sparse_run(T: Any, make: Any, lbfgs: bool = False) -> Any:
    e = _embedding(T)
    opt = make(list(e.parameters()))
    trace = []
    for i, idx in enumerate([[1, 2, 1], [0, 5], [2, 2]]):
        opt.zero_grad()
        loss = (e(T.tensor(idx)) ** 2).sum() * (i + 1)
        loss.backward()
        opt.step((lambda loss=loss: loss) if lbfgs else None)
        trace.append(e.weight.detach().clone())
    sd = opt.state_dict()
    state = {
        i: {
            k: v.to_dense() if isinstance(v, T.Tensor) and v.is_sparse else v for k, v in st.items()
        }
        for i, st in sd["state"].items()
    }
    return trace, state, sd["param_groups"]


@program()
def prog_op2_sparse_gradients_sgd_adagrad_sparse_adam(T: Any) -> Any:
    optim = T.optim
    cfgs = {
        "sgd": lambda ps: optim.SGD(ps, lr=0.1),
        "sgd_momentum": lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9),
        "sgd_nesterov": lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True),
        "sgd_weight_decay": lambda ps: optim.SGD(ps, lr=0.1, weight_decay=0.1),
        "sgd_maximize_foreach": lambda ps: optim.SGD(ps, lr=0.1, maximize=True, foreach=True),
        "sgd_tensor_lr": lambda ps: optim.SGD(ps, lr=T.tensor(0.1)),
        "adagrad": lambda ps: optim.Adagrad(ps, lr=0.1),
        "adagrad_options": lambda ps: optim.Adagrad(
            ps, lr=0.1, lr_decay=0.1, initial_accumulator_value=0.2, maximize=True
        ),
        "adagrad_weight_decay": lambda ps: optim.Adagrad(ps, lr=0.1, weight_decay=0.1),
        "adagrad_foreach": lambda ps: optim.Adagrad(ps, lr=0.1, foreach=True),
        "sparse_adam": lambda ps: optim.SparseAdam(ps, lr=0.1),
        "sparse_adam_maximize": lambda ps: optim.SparseAdam(ps, lr=0.1, maximize=True),
    }
    return {k: raises(lambda m=mk: _sparse_run(T, m)) for k, mk in cfgs.items()}


@program()
def prog_op2_sparse_gradients_refused_or_densified(T: Any) -> Any:
    """The dense-only optimizers refuse a sparse grad; LBFGS densifies it (_gather_flat_grad)."""
    optim = T.optim
    cfgs = {
        "adam": lambda ps: optim.Adam(ps, lr=0.1),
        "adamw": lambda ps: optim.AdamW(ps, lr=0.1),
        "adamax": lambda ps: optim.Adamax(ps, lr=0.1),
        "nadam": lambda ps: optim.NAdam(ps, lr=0.1),
        "radam": lambda ps: optim.RAdam(ps, lr=0.1),
        "adadelta": lambda ps: optim.Adadelta(ps, lr=0.1),
        "rmsprop": lambda ps: optim.RMSprop(ps, lr=0.1),
        "rprop": lambda ps: optim.Rprop(ps, lr=0.1),
        "asgd": lambda ps: optim.ASGD(ps, lr=0.1),
        "muon": lambda ps: optim.Muon(ps, lr=0.1),
        "adafactor": lambda ps: optim.Adafactor(ps, lr=0.1),
    }
    out = {k: raises(lambda m=mk: _sparse_run(T, m)) for k, mk in cfgs.items()}
    out["lbfgs"] = _sparse_run(T, lambda ps: optim.LBFGS(ps, lr=0.1, max_iter=3), lbfgs=True)
    out["lbfgs_wolfe"] = _sparse_run(
        T, lambda ps: optim.LBFGS(ps, lr=0.5, line_search_fn="strong_wolfe"), lbfgs=True
    )
    return out


@program()
def prog_op2_sparse_adam_mixed_dense_and_sparse(T: Any) -> Any:
    e = _embedding(T)
    extra = T.nn.Parameter(T.ones(2))
    opt = T.optim.SparseAdam([*e.parameters(), extra], lr=0.1)
    (e(T.tensor([1])).sum() + extra.sum()).backward()
    r1 = raises(lambda: opt.step())
    e2 = _embedding(T, sparse=False)
    opt2 = T.optim.SparseAdam(e2.parameters(), lr=0.1)
    e2(T.tensor([1])).sum().backward()
    r2 = raises(lambda: opt2.step())
    r3 = raises(lambda: T.optim.SparseAdam([T.nn.Parameter(T.ones(2, dtype=T.complex64))]))
    return r1, r2, r3, e.weight, len(opt.state)


# --- differentiable steps: hyper-parameters that require grad ---------------------------------


def _meta(T: Any, cls_name: str, kw: dict[str, Any], steps: int = 2) -> Any:
    """Steps a non-leaf copy of w0 with grads that require grad, then differentiates the final
    parameter's loss by w0, the grads and every hyper-parameter that requires grad."""
    w0 = T.tensor(_data(4, seed=1), dtype=T.float64, requires_grad=True)
    p = w0.clone()
    opt = getattr(T.optim, cls_name)([p], differentiable=True, **kw)
    gs = []
    for i in range(steps):
        g = T.tensor(_data(4, seed=10 + i), dtype=T.float64, requires_grad=True)
        gs.append(g)
        p.grad = g * (i + 1)
        opt.step()
    hyper = [v for v in kw.values() if isinstance(v, T.Tensor) and v.requires_grad]
    hyper += [
        x for v in kw.values() if isinstance(v, tuple) for x in v if getattr(x, "requires_grad", 0)
    ]
    grads = T.autograd.grad((p**2).sum(), [w0, *gs, *hyper], allow_unused=True)
    return p, p.grad_fn, grads, dict(opt.state[p])


def _t(T: Any, v: float) -> Any:
    return T.tensor(v, dtype=T.float64, requires_grad=True)


@program()
def prog_op2_differentiable_hyperparameters_adam_family(T: Any) -> Any:
    cases = {
        "adam": (
            "Adam",
            {"lr": _t(T, 0.1), "betas": (_t(T, 0.9), _t(T, 0.99)), "eps": _t(T, 1e-3)},
        ),
        "adam_decoupled": (
            "Adam",
            {
                "lr": _t(T, 0.1),
                "betas": (_t(T, 0.9), _t(T, 0.99)),
                "weight_decay": _t(T, 0.1),
                "decoupled_weight_decay": True,
            },
        ),
        "adam_amsgrad": (
            "Adam",
            {"lr": _t(T, 0.1), "betas": (_t(T, 0.9), _t(T, 0.99)), "amsgrad": True},
        ),
        "adam_weight_decay": (
            "Adam",
            {"lr": _t(T, 0.1), "weight_decay": _t(T, 0.1), "maximize": True},
        ),
        "adamw": (
            "AdamW",
            {"lr": _t(T, 0.1), "betas": (_t(T, 0.9), _t(T, 0.99)), "weight_decay": _t(T, 0.1)},
        ),
        "adamax": (
            "Adamax",
            {"lr": _t(T, 0.1), "betas": (_t(T, 0.9), _t(T, 0.99)), "eps": _t(T, 1e-3)},
        ),
        "nadam": (
            "NAdam",
            {"lr": _t(T, 0.1), "betas": (_t(T, 0.9), _t(T, 0.99)), "momentum_decay": _t(T, 4e-3)},
        ),
        "radam": (
            "RAdam",
            {
                "lr": _t(T, 0.1),
                "betas": (_t(T, 0.5), _t(T, 0.6)),
                "weight_decay": 0.1,
                "decoupled_weight_decay": True,
            },
        ),
    }
    return {k: raises(lambda c=c, kw=kw: _meta(T, c, kw)) for k, (c, kw) in cases.items()}


@program()
def prog_op2_differentiable_hyperparameters_others(T: Any) -> Any:
    cases = {
        "sgd": ("SGD", {"lr": _t(T, 0.1), "momentum": _t(T, 0.9), "dampening": _t(T, 0.2)}),
        "sgd_weight_decay": ("SGD", {"lr": _t(T, 0.1), "weight_decay": _t(T, 0.1)}),
        "sgd_nesterov": (
            "SGD",
            {"lr": 0.1, "momentum": _t(T, 0.9), "nesterov": True, "maximize": True},
        ),
        "adagrad": ("Adagrad", {"lr": _t(T, 0.1), "lr_decay": _t(T, 0.1), "eps": _t(T, 1e-3)}),
        "adagrad_plain_lr": ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": _t(T, 0.1)}),
        "adadelta": ("Adadelta", {"lr": _t(T, 0.9), "rho": _t(T, 0.8), "eps": _t(T, 1e-3)}),
        "rmsprop": (
            "RMSprop",
            {"lr": _t(T, 0.1), "alpha": _t(T, 0.9), "momentum": 0.5, "centered": True},
        ),
        "rmsprop_plain": ("RMSprop", {"lr": 0.1, "alpha": _t(T, 0.9), "weight_decay": 0.1}),
        "rprop": ("Rprop", {"lr": _t(T, 0.1), "etas": (_t(T, 0.4), _t(T, 1.3))}),
        "rprop_etas": ("Rprop", {"lr": 0.1, "etas": (_t(T, 0.4), _t(T, 1.3))}),
        "asgd": (
            "ASGD",
            {"lr": _t(T, 0.1), "lambd": _t(T, 1e-3), "alpha": _t(T, 0.75), "t0": _t(T, 1.0)},
        ),
        "asgd_lr": ("ASGD", {"lr": _t(T, 0.1), "weight_decay": 0.1}),
    }
    return {k: raises(lambda c=c, kw=kw: _meta(T, c, kw)) for k, (c, kw) in cases.items()}


# --- state dicts across optimizers -----------------------------------------------------------


def _plain_steps(T: Any, cls: Any, ps: list[Any], n: int, **kw: Any) -> Any:
    opt = cls(ps, **kw)
    for i in range(n):
        for p in ps:
            p.grad = T.tensor(_data(*p.shape, seed=5 + i))
        opt.step()
    return opt


@program()
def prog_op2_differentiable_groups_loaded_into_a_plain_optimizer(T: Any) -> Any:
    """Grad mode during a step follows the optimizer's defaults (torch's
    _use_grad_for_differentiable), not the loaded group's `differentiable` flag: the
    differentiable update then runs under no_grad, on leaves that require grad."""
    optim = T.optim
    cfgs = {
        "sgd": (optim.SGD, {"lr": 0.1, "momentum": 0.9}),
        "adam": (optim.Adam, {"lr": 0.1, "amsgrad": True}),
        "adamw": (optim.AdamW, {"lr": 0.1}),
        "rmsprop": (optim.RMSprop, {"lr": 0.1, "centered": True}),
        "adagrad": (optim.Adagrad, {"lr": 0.1}),
        "rprop": (optim.Rprop, {"lr": 0.1}),
        "asgd": (optim.ASGD, {"lr": 0.1}),
        "nadam": (optim.NAdam, {"lr": 0.1}),
        "radam": (optim.RAdam, {"lr": 0.1}),
        "adamax": (optim.Adamax, {"lr": 0.1}),
        "adadelta": (optim.Adadelta, {"lr": 0.5}),
    }
    out = {}
    for k, (cls, kw) in cfgs.items():

        def go(cls: Any = cls, kw: Any = kw) -> Any:
            ps = [T.tensor(_data(2, 3, seed=1)), T.tensor(_data(3, seed=2))]
            a = _plain_steps(T, cls, ps, 2, differentiable=True, **kw)
            qs = [T.nn.Parameter(p.clone()) for p in ps]
            b = cls(qs, **kw)
            b.load_state_dict(a.state_dict())
            for q in qs:
                q.grad = T.tensor(_data(*q.shape, seed=9))
            b.step()
            return [q.detach().clone() for q in qs], [q.grad_fn for q in qs], _groups(b)

        out[k] = raises(go)
    return out


@program()
def prog_op2_load_state_dict_across_options(T: Any) -> Any:
    optim = T.optim
    pairs = {
        "adam_to_amsgrad": (
            lambda ps: optim.Adam(ps, lr=0.1),
            lambda ps: optim.Adam(ps, lr=0.1, amsgrad=True),
        ),
        "amsgrad_to_adam": (
            lambda ps: optim.Adam(ps, lr=0.1, amsgrad=True),
            lambda ps: optim.Adam(ps, lr=0.2),
        ),
        "sgd_to_momentum": (
            lambda ps: optim.SGD(ps, lr=0.1),
            lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9),
        ),
        "momentum_to_sgd": (
            lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9),
            lambda ps: optim.SGD(ps, lr=0.1),
        ),
        "adam_to_adamw": (lambda ps: optim.Adam(ps, lr=0.1), lambda ps: optim.AdamW(ps, lr=0.1)),
        "adamw_to_nadam": (lambda ps: optim.AdamW(ps, lr=0.1), lambda ps: optim.NAdam(ps, lr=0.1)),
        "rmsprop_to_centered": (
            lambda ps: optim.RMSprop(ps, lr=0.1),
            lambda ps: optim.RMSprop(ps, lr=0.1, centered=True, momentum=0.5),
        ),
        "foreach_to_loop": (
            lambda ps: optim.Adam(ps, lr=0.1, foreach=True),
            lambda ps: optim.Adam(ps, lr=0.1),
        ),
        "adam_to_sgd": (
            lambda ps: optim.Adam(ps, lr=0.1),
            lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9),
        ),
        "adam_to_adamax": (lambda ps: optim.Adam(ps, lr=0.1), lambda ps: optim.Adamax(ps, lr=0.1)),
        "asgd_to_foreach": (
            lambda ps: optim.ASGD(ps, lr=0.1, t0=1),
            lambda ps: optim.ASGD(ps, lr=0.1, foreach=True),
        ),
        "rprop_to_maximize": (
            lambda ps: optim.Rprop(ps, lr=0.1),
            lambda ps: optim.Rprop(ps, lr=0.3, maximize=True, foreach=True),
        ),
        "adagrad_to_lr_decay": (
            lambda ps: optim.Adagrad(ps, lr=0.1),
            lambda ps: optim.Adagrad(ps, lr=0.1, lr_decay=0.5, foreach=True),
        ),
    }
    out = {}
    for k, (a, b) in pairs.items():

        def go(a: Any = a, b: Any = b) -> Any:
            ps = _ps(T, complex_=True)
            oa = a(ps)
            _train(T, oa, ps)
            ob = b(ps)
            ob.load_state_dict(oa.state_dict())
            groups = _groups(ob)
            return groups, _train(T, ob, ps, start=2), ob.state_dict()

        out[k] = raises(go)
    return out


@program()
def prog_op2_load_state_dict_casts_state_to_param_dtype(T: Any) -> Any:
    """float64 state loaded over float16 and complex64 parameters: floating state follows the
    parameter's dtype, `step` stays as saved, a complex parameter's state is not cast."""
    optim = T.optim
    makers = {
        "adam": lambda ps: optim.Adam(ps, lr=0.1, amsgrad=True),
        "sgd": lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9),
        "asgd": lambda ps: optim.ASGD(ps, lr=0.1),
        "rprop": lambda ps: optim.Rprop(ps),
        "adagrad": lambda ps: optim.Adagrad(ps),
        "rmsprop": lambda ps: optim.RMSprop(ps, centered=True, momentum=0.1),
        "adadelta": lambda ps: optim.Adadelta(ps),
        "nadam": lambda ps: optim.NAdam(ps),
        "radam": lambda ps: optim.RAdam(ps),
        "adamax": lambda ps: optim.Adamax(ps),
    }
    out = {}
    for name, mk in makers.items():

        def go(mk: Any = mk) -> Any:
            ps = _ps(T, dtype=T.float64, complex_=True)
            o = mk(ps)
            _train(T, o, ps)
            ps2 = _ps(T, dtype=T.float16, complex_=True)
            o2 = mk(ps2)
            o2.load_state_dict(o.state_dict())
            return [
                {
                    k: (v.dtype, v.shape) if isinstance(v, T.Tensor) else v
                    for k, v in o2.state[p].items()
                }
                for p in ps2
            ]

        out[name] = raises(go)
    return out


@program()
def prog_op2_named_parameters_in_groups(T: Any) -> Any:
    optim = T.optim
    net = _seeded(T, T.nn.Linear(2, 2), 3)
    opt = optim.Adam(net.named_parameters(), lr=0.1)
    out = [list(opt.param_groups[0]), opt.param_groups[0]["param_names"]]
    net(T.ones(1, 2)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    out.append(sd["param_groups"])
    net2 = _seeded(T, T.nn.Linear(2, 2), 4)
    one = T.nn.Parameter(T.ones(1))
    out.append(raises(lambda: optim.Adam(net2.parameters(), lr=0.1).load_state_dict(sd)))
    out.append(
        raises(
            lambda: optim.Adam([{"params": net2.named_parameters()}]).add_param_group(
                {"params": [one]}
            )
        )
    )
    out.append(
        raises(lambda: optim.Adam([("a", T.nn.Parameter(T.ones(1))), T.nn.Parameter(T.ones(1))]))
    )
    out.append(
        raises(
            lambda: optim.Adam([{"params": [("a", T.nn.Parameter(T.ones(1)))]}, {"params": [one]}])
        )
    )
    out.append(raises(lambda: opt.add_param_group({"params": [T.nn.Parameter(T.ones(1))]})))
    out.append(raises(lambda: opt.add_param_group({"params": [("x", T.nn.Parameter(T.ones(1)))]})))
    out.append(_groups(opt))
    out.append(repr(opt))
    return out


# --- schedulers ------------------------------------------------------------------------------


def _sgd(T: Any, **kw: Any) -> Any:
    return T.optim.SGD(_ps(T), **{"lr": 0.1, "momentum": 0.9, **kw})


@program()
def prog_op2_every_scheduler_under_the_epoch_argument(T: Any) -> Any:
    """step(epoch) on each scheduler, epochs out of order: the closed form where there is one
    (with the deprecation warning), get_lr() otherwise."""
    S = T.optim.lr_scheduler
    makers = {
        "step": lambda o: S.StepLR(o, 2, gamma=0.5),
        "multistep": lambda o: S.MultiStepLR(o, [1, 3, 3], gamma=0.5),
        "constant": lambda o: S.ConstantLR(o, factor=0.5, total_iters=2),
        "linear": lambda o: S.LinearLR(o, start_factor=0.25, total_iters=3),
        "exponential": lambda o: S.ExponentialLR(o, 0.7),
        "polynomial": lambda o: S.PolynomialLR(o, total_iters=3, power=2.0),
        "cosine": lambda o: S.CosineAnnealingLR(o, T_max=3, eta_min=0.01),
        "lambda": lambda o: S.LambdaLR(o, lambda e: 0.9**e),
        "multiplicative": lambda o: S.MultiplicativeLR(o, lambda e: 0.9),
        "warm_restarts": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=1e-3),
        "cyclic": lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2),
        "onecycle": lambda o: S.OneCycleLR(o, 0.5, total_steps=8),
    }
    out = {}
    for k, mk in makers.items():
        opt = _sgd(T)
        s = mk(opt)
        trace = []

        def go(s: Any = s, opt: Any = opt, trace: Any = trace) -> Any:
            for e in [1, 2, 5, 3, 0, 4]:
                opt.step()
                s.step(e)
                g = opt.param_groups[0]
                trace.append((s.last_epoch, s.get_last_lr(), g["lr"], g["momentum"]))
            return trace

        sd = s.state_dict() if k not in ("lambda", "multiplicative") else None
        out[k] = raises(go), sd
    return out


@program()
def prog_op2_get_lr_outside_step_and_overridden_optimizer_step(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T)
    scheds = {
        "step": S.StepLR(opt, 2),
        "cosine": S.CosineAnnealingLR(opt, 3),
        "warm_restarts": S.CosineAnnealingWarmRestarts(opt, 2),
        "poly": S.PolynomialLR(opt, 3),
    }
    out: dict[str, Any] = {k: s.get_lr() for k, s in scheds.items()}
    opt1 = _sgd(T)
    s1 = S.StepLR(opt1, 2)
    opt1.step = lambda *a, **k: None
    s1.step()
    opt2 = _sgd(T)
    s2 = S.StepLR(opt2, 2)
    s2.step()
    opt3 = _sgd(T)
    s3 = S.StepLR(opt3, 2)
    opt3.step()
    opt3.step()
    s3.step()
    s3.step()
    out["counts"] = (s1.get_last_lr(), s2.get_last_lr(), s3.last_epoch, s3._step_count)
    return out


@program()
def prog_op2_custom_scheduler_subclasses(T: Any) -> Any:
    S = T.optim.lr_scheduler

    class Halving(S.LRScheduler):
        def __init__(self, opt: Any, k: float, last_epoch: int = -1) -> None:
            self.k = k
            super().__init__(opt, last_epoch)

        def get_lr(self) -> Any:
            return [g["lr"] * self.k for g in self.optimizer.param_groups]

    class ClosedForm(S.LRScheduler):
        def get_lr(self) -> Any:
            return [b / (self.last_epoch + 1) for b in self.base_lrs]

        def _get_closed_form_lr(self) -> Any:
            return [b * 10 for b in self.base_lrs]

    class Old(S._LRScheduler):
        def get_lr(self) -> Any:
            return [b * 2 for b in self.base_lrs]

    opt = _sgd(T)
    s = Halving(opt, 0.5)
    trace = _trace(T, opt, s, 3)
    opt2 = _sgd(T)
    c = ClosedForm(opt2)
    trace2 = _trace(T, opt2, c, 2)
    c.step(4)
    old = Old(_sgd(T))
    return (
        trace,
        s.state_dict(),
        trace2,
        c.get_last_lr(),
        old.get_last_lr(),
        issubclass(S._LRScheduler, S.LRScheduler),
        sorted(vars(s)),
    )


@program()
def prog_op2_plateau_nan_tensor_metrics_cooldown_and_eps(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T)
    s = S.ReduceLROnPlateau(opt, patience=0, cooldown=1, min_lr=0.02, eps=1e-3)
    trace = []
    for m in [1.0, T.tensor(2.0), float("nan"), 3.0, 0.5, 0.5, 0.5, T.tensor([0.4])]:
        s.step(m)
        trace.append((s.get_last_lr(), s.num_bad_epochs, s.cooldown_counter, s.best, s.last_epoch))
    epoch = raises(lambda: s.step(1.0, epoch=10))
    return trace, epoch, s.last_epoch, sorted(s.state_dict()), raises(lambda: s.get_lr())


@program()
def prog_op2_plateau_modes_and_threshold_modes(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for mode in ("min", "max"):
        for tm in ("rel", "abs"):
            opt = T.optim.SGD(_ps(T), lr=1.0)
            s = S.ReduceLROnPlateau(
                opt, mode=mode, threshold_mode=tm, threshold=0.1, patience=1, factor=0.5
            )
            trace = []
            for m in [1.0, 1.05, 0.95, 1.2, 0.8, 0.85, 2.0, 2.0, -1.0, -1.0, -1.0, float("inf")]:
                s.step(m)
                trace.append((opt.param_groups[0]["lr"], s.best, s.num_bad_epochs))
            out[mode + "_" + tm] = trace, s.mode_worse
    return out


@program()
def prog_op2_plateau_min_lr_list_and_added_group(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 4), "lr": 0.5}], lr=1.0)
    s = S.ReduceLROnPlateau(opt, min_lr=[0.3, 0.2], patience=0, factor=0.1)
    trace = []
    for m in [1, 1, 1]:
        s.step(m)
        trace.append(s.get_last_lr())
    opt.add_param_group({"params": _ps(T, 7), "lr": 0.9})
    err = raises(lambda: s.step(1))
    opt2 = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 4), "lr": 0.5}], lr=1.0)
    s2 = S.ReduceLROnPlateau(opt2, min_lr=0.05, patience=0, factor=0.1)
    opt2.add_param_group({"params": _ps(T, 7), "lr": 0.9})
    added = raises(lambda: [s2.step(1) for _ in range(3)] and s2.get_last_lr())
    return trace, err, s.min_lrs, added, s2.min_lrs


@program()
def prog_op2_onecycle_three_phase_and_overstepping(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = T.optim.Adam(_ps(T), lr=0.1)
    s = S.OneCycleLR(
        opt,
        max_lr=[0.5],
        total_steps=3,
        three_phase=True,
        anneal_strategy="linear",
        div_factor=5,
        final_div_factor=50,
    )
    trace = []
    for _ in range(3):
        opt.step()
        trace.append(raises(lambda: s.step()))
        trace.append((s.get_last_lr(), opt.param_groups[0]["betas"]))
    opt2 = T.optim.SGD(_ps(T), lr=0.1)
    s2 = S.OneCycleLR(opt2, max_lr=0.5, epochs=2, steps_per_epoch=2, cycle_momentum=False)
    trace2 = [raises(lambda: s2.step()) for _ in range(5)]
    return (
        trace,
        trace2,
        opt2.param_groups[0]["lr"],
        list(opt.param_groups[0]),
        list(opt2.param_groups[0]),
        s.state_dict(),
    )


@program()
def prog_op2_momentum_cycling_over_momentumless_optimizers(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    opt = T.optim.Adagrad(_ps(T), lr=0.1)
    out["onecycle_adagrad"] = raises(lambda: S.OneCycleLR(opt, 0.5, total_steps=4))
    out["onecycle_adagrad_off"] = raises(
        lambda: S.OneCycleLR(opt, 0.5, total_steps=4, cycle_momentum=False).get_last_lr()
    )
    rms = T.optim.RMSprop(_ps(T), lr=0.1, momentum=0.5)
    s = S.OneCycleLR(rms, 0.5, total_steps=4, base_momentum=[0.7], max_momentum=0.95)
    trace = []
    for _ in range(3):
        rms.step()
        s.step()
        trace.append((s.get_last_lr(), rms.param_groups[0]["momentum"]))
    out["onecycle_rmsprop"] = trace
    sgd0 = T.optim.SGD(_ps(T), lr=0.1)
    out["onecycle_sgd_no_momentum"] = raises(
        lambda: S.OneCycleLR(sgd0, 0.5, total_steps=4).optimizer.param_groups[0]["momentum"]
    )
    out["cyclic_adagrad"] = raises(lambda: S.CyclicLR(T.optim.Adagrad(_ps(T)), 0.01, 0.1))
    out["cyclic_adam"] = raises(
        lambda: S.CyclicLR(
            T.optim.Adam(_ps(T)), 0.01, 0.1, base_momentum=0.8, max_momentum=0.9
        ).optimizer.param_groups[0]["betas"]
    )
    out["cyclic_sgd_no_momentum"] = raises(
        lambda: S.CyclicLR(T.optim.SGD(_ps(T), lr=0.1), 0.01, 0.1).optimizer.param_groups[0]
    )
    out["cyclic_momentum_list"] = raises(
        lambda: S.CyclicLR(_sgd(T), 0.01, 0.1, base_momentum=[0.1, 0.2])
    )
    out["onecycle_momentum_list"] = raises(
        lambda: S.OneCycleLR(_sgd(T), 0.1, total_steps=3, base_momentum=[0.1, 0.2])
    )
    return out


@program()
def prog_op2_scheduler_constructor_checks(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T)
    ps = _ps(T)
    cases = {
        "not_an_optimizer": lambda: S.StepLR(ps, 2),
        "step_size_none": lambda: S.StepLR(opt, None),
        "constant_factor_big": lambda: S.ConstantLR(opt, factor=1.5),
        "constant_factor_neg": lambda: S.ConstantLR(opt, factor=-0.1),
        "linear_start_zero": lambda: S.LinearLR(opt, start_factor=0),
        "linear_start_big": lambda: S.LinearLR(opt, start_factor=2.0),
        "linear_end_big": lambda: S.LinearLR(opt, end_factor=1.5),
        "warm_t0_zero": lambda: S.CosineAnnealingWarmRestarts(opt, T_0=0),
        "warm_t0_float": lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2.0),
        "warm_tmult_zero": lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
        "warm_tmult_float": lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5),
        "warm_eta_str": lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="a"),
        "cyclic_mode": lambda: S.CyclicLR(opt, 0.01, 0.1, mode="foo"),
        "cyclic_base_list": lambda: S.CyclicLR(opt, [0.01, 0.02], 0.1),
        "cyclic_max_list": lambda: S.CyclicLR(opt, 0.01, [0.1, 0.2]),
        "onecycle_no_steps": lambda: S.OneCycleLR(opt, 0.1),
        "onecycle_epochs_zero": lambda: S.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=2),
        "onecycle_spe_neg": lambda: S.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=-1),
        "onecycle_total_zero": lambda: S.OneCycleLR(opt, 0.1, total_steps=0),
        "onecycle_total_float": lambda: S.OneCycleLR(opt, 0.1, total_steps=2.0),
        "onecycle_pct_int": lambda: S.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1),
        "onecycle_pct_big": lambda: S.OneCycleLR(opt, 0.1, total_steps=10, pct_start=1.2),
        "onecycle_anneal": lambda: S.OneCycleLR(opt, 0.1, total_steps=10, anneal_strategy="x"),
        "onecycle_max_list": lambda: S.OneCycleLR(opt, [0.1, 0.2], total_steps=10),
        "plateau_mode": lambda: S.ReduceLROnPlateau(opt, mode="x"),
        "plateau_threshold_mode": lambda: S.ReduceLROnPlateau(opt, threshold_mode="x"),
        "plateau_factor": lambda: S.ReduceLROnPlateau(opt, factor=1.0),
        "plateau_min_lr_list": lambda: S.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]),
        "lambda_list": lambda: S.LambdaLR(opt, [lambda e: 1.0, lambda e: 1.0]),
        "multiplicative_list": lambda: S.MultiplicativeLR(opt, [lambda e: 1.0, lambda e: 1.0]),
        "sequential_empty": lambda: S.SequentialLR(opt, [], milestones=[]),
        "sequential_milestones": lambda: S.SequentialLR(
            opt, [S.StepLR(opt, 2), S.StepLR(opt, 2)], milestones=[]
        ),
        "chained_empty": lambda: S.ChainedScheduler([]),
        "polynomial_zero": lambda: S.PolynomialLR(opt, total_iters=0).get_last_lr(),
        "exponential_none": lambda: S.ExponentialLR(opt, None),
        "last_epoch_without_initial_lr": lambda: S.StepLR(opt, 2, last_epoch=3),
        "multistep_unsorted": lambda: S.MultiStepLR(opt, [5, 2, 2]).milestones,
    }
    return {k: raises(f) for k, f in cases.items()}


@program()
def prog_op2_composed_schedulers_of_other_optimizers(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T)
    opt2 = T.optim.SGD(_ps(T, 5), lr=0.1)
    cases = {
        "sequential_other": lambda: S.SequentialLR(
            opt, [S.StepLR(opt, 2), S.StepLR(opt2, 2)], milestones=[2]
        ),
        "sequential_plateau": lambda: S.SequentialLR(
            opt, [S.StepLR(opt, 2), S.ReduceLROnPlateau(opt)], milestones=[2]
        ),
        "sequential_not_scheduler": lambda: S.SequentialLR(
            opt, [S.StepLR(opt, 2), 3], milestones=[2]
        ),
        "chained_other": lambda: S.ChainedScheduler([S.StepLR(opt, 2), S.StepLR(opt2, 2)]),
        "chained_optimizer_argument": lambda: S.ChainedScheduler(
            [S.StepLR(opt, 2)], optimizer=opt2
        ),
        "chained_plateau": lambda: S.ChainedScheduler([S.StepLR(opt, 2), S.ReduceLROnPlateau(opt)]),
    }
    return {k: raises(f) for k, f in cases.items()}


# --- swa_utils -------------------------------------------------------------------------------


@program()
def prog_op2_swalr_checks_and_per_group_lrs(T: Any) -> Any:
    U = T.optim.swa_utils
    opt = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 3), "lr": 0.3}], lr=0.1)
    out: dict[str, Any] = {
        "strategy": raises(lambda: U.SWALR(opt, 0.05, anneal_strategy="exp")),
        "epochs_neg": raises(lambda: U.SWALR(opt, 0.05, anneal_epochs=-1)),
        "epochs_float": raises(lambda: U.SWALR(opt, 0.05, anneal_epochs=2.0)),
        "list_long": raises(lambda: U.SWALR(opt, [0.05, 0.1, 0.2])),
        "list_ok": raises(lambda: U.SWALR(opt, [0.05, 0.1], anneal_epochs=0).get_last_lr()),
    }
    s = U.SWALR(opt, [0.05, 0.01], anneal_epochs=3, anneal_strategy="linear")
    out["trace"] = _trace(T, opt, s, 5)
    out["state"] = s.state_dict()
    out["get_lr"] = s.get_lr()
    return out


@program()
def prog_op2_averaged_model_ema_over_buffers(T: Any) -> Any:
    U = T.optim.swa_utils
    net = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 2), T.nn.BatchNorm1d(2)), 5)
    out: dict[str, Any] = {
        "both_fns": raises(
            lambda: U.AveragedModel(
                net, avg_fn=lambda a, b, n: a, multi_avg_fn=U.get_ema_multi_avg_fn(0.9)
            )
        ),
        "decay_big": raises(lambda: U.get_ema_multi_avg_fn(1.5)),
        "decay_neg": raises(lambda: U.get_ema_multi_avg_fn(-0.1)),
    }
    m = U.AveragedModel(net, multi_avg_fn=U.get_ema_multi_avg_fn(0.5), use_buffers=True)
    out["n0"] = (m.n_averaged, m.n_averaged.dtype)
    for k in range(3):
        with T.no_grad():
            for p in net.parameters():
                p.mul_(1.5).add_(0.1 * k)
            net[1].running_mean.add_(1.0)
            net[1].num_batches_tracked.add_(1)
        m.update_parameters(net)
    out["params"] = [p.detach() for p in m.parameters()]
    out["buffers"] = list(m.buffers())
    out["keys"] = list(m.state_dict())
    out["requires_grad"] = [p.requires_grad for p in m.parameters()]
    m2 = U.AveragedModel(net, avg_fn=U.get_swa_avg_fn())
    m2.update_parameters(net)
    out["from_averaged"] = raises(lambda: m2.update_parameters(m))
    out["m2"] = [p.detach() for p in m2.parameters()], m2.n_averaged
    out["swa_multi"] = raises(
        lambda: U.AveragedModel(net, multi_avg_fn=U.get_swa_multi_avg_fn()).update_parameters(net)
    )
    m.eval()
    out["forward"] = m(T.tensor(_data(4, 3, seed=9)))
    out["repr"] = repr(m)
    return out


@program()
def prog_op2_update_bn_batches_and_modes(T: Any) -> Any:
    U = T.optim.swa_utils
    net = T.nn.Sequential(
        T.nn.Linear(3, 4),
        T.nn.BatchNorm1d(4, momentum=0.3),
        T.nn.ReLU(),
        T.nn.BatchNorm1d(4, affine=False),
    )
    _seeded(T, net, 3)
    data = [T.tensor(_data(5, 3, seed=s)) for s in range(3)]
    U.update_bn([(d, 0) for d in data], net)
    r1 = [
        net[1].running_mean.clone(),
        net[1].running_var.clone(),
        net[1].momentum,
        net[1].num_batches_tracked.clone(),
        net[3].running_var.clone(),
        net.training,
    ]
    U.update_bn([{"a": 1}], T.nn.Linear(2, 2))  # no batch norm: the loader is never read
    net.eval()
    U.update_bn([[d] for d in data], net)
    r2 = [net[1].running_mean.clone(), net.training, net[1].training]
    return r1, r2


# --- more optimizer behaviour ----------------------------------------------------------------


def _cplx_leaf(T: Any, seed: int) -> Any:
    c = _data(2, 2, 3, seed=seed)
    return T.tensor(c[0] + 1j * c[1]).to(T.complex128).requires_grad_()


_DIFFERENTIABLE_COMPLEX = {
    "SGD": [
        {"lr": 0.1},
        {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1, "maximize": True},
    ],
    "Adam": [{"lr": 0.1}, {"lr": 0.1, "amsgrad": True, "weight_decay": 0.1, "maximize": True}],
    "AdamW": [{"lr": 0.1}, {"lr": 0.1, "amsgrad": True, "maximize": True}],
    "Adamax": [{"lr": 0.1}, {"lr": 0.1, "weight_decay": 0.1, "maximize": True}],
    "NAdam": [{"lr": 0.1}, {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True}],
    "RAdam": [{"lr": 0.1}, {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True}],
    "Adagrad": [{"lr": 0.1}, {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1, "maximize": True}],
    "Adadelta": [{"lr": 0.5}, {"lr": 0.5, "weight_decay": 0.1, "maximize": True}],
    "RMSprop": [{"lr": 0.1}, {"lr": 0.1, "centered": True, "momentum": 0.5, "weight_decay": 0.1}],
    "Rprop": [{"lr": 0.1}, {"lr": 0.1, "maximize": True}],
    "ASGD": [{"lr": 0.1}, {"lr": 0.1, "weight_decay": 0.1, "maximize": True, "t0": 1}],
}


def _differentiable_complex_run(T: Any, name: str, kw: dict[str, Any]) -> Any:
    w0 = _cplx_leaf(T, 3)
    r0 = T.tensor(_data(3, seed=4), dtype=T.float64, requires_grad=True)
    p, q = w0 * 1, r0 * 1
    opt = getattr(T.optim, name)([p, q], differentiable=True, **kw)
    gs = []
    for k in range(3):
        g = _cplx_leaf(T, 10 + k)
        h = T.tensor(_data(3, seed=30 + k), dtype=T.float64, requires_grad=True)
        gs += [g, h]
        p.grad = g * (k + 1)
        q.grad = h
        opt.step()
    loss = (p.abs() ** 2).sum() + (q**3).sum()
    grads = T.autograd.grad(loss, [w0, r0, *gs], allow_unused=True)
    return p, q, p.grad_fn, q.grad_fn, grads, dict(opt.state[p])


@program()
def prog_op2_differentiable_complex_parameters_adam_family(T: Any) -> Any:
    names = ("Adam", "AdamW", "Adamax", "NAdam", "RAdam")
    return {
        (n, i): raises(lambda n=n, kw=kw: _differentiable_complex_run(T, n, kw))
        for n in names
        for i, kw in enumerate(_DIFFERENTIABLE_COMPLEX[n])
    }


@program()
def prog_op2_differentiable_complex_parameters_others(T: Any) -> Any:
    names = ("SGD", "Adagrad", "Adadelta", "RMSprop", "Rprop", "ASGD")
    return {
        (n, i): raises(lambda n=n, kw=kw: _differentiable_complex_run(T, n, kw))
        for n in names
        for i, kw in enumerate(_DIFFERENTIABLE_COMPLEX[n])
    }


@program()
def prog_op2_per_group_flags(T: Any) -> Any:
    """Flags given per group (amsgrad, maximize, foreach, centered, ...) override the defaults
    for that group only; a complex group in the middle."""
    o = T.optim
    cases = {
        "adam": (o.Adam, [{"amsgrad": True}, {"maximize": True, "weight_decay": 0.1},
                          {"foreach": True, "decoupled_weight_decay": True, "weight_decay": 0.2}]),
        "sgd": (o.SGD, [{"momentum": 0.9, "nesterov": True}, {"maximize": True},
                        {"momentum": 0.5, "dampening": 0.5, "foreach": True}]),
        "rmsprop": (o.RMSprop, [{"centered": True}, {"momentum": 0.5, "maximize": True},
                                {"foreach": True, "alpha": 0.5}]),
        "nadam": (o.NAdam, [{"decoupled_weight_decay": True, "weight_decay": 0.1},
                            {"momentum_decay": 0.1}, {"foreach": True}]),
        "radam": (o.RAdam, [{"decoupled_weight_decay": True, "weight_decay": 0.1},
                            {"maximize": True}, {"foreach": True, "betas": (0.5, 0.6)}]),
        "adagrad": (o.Adagrad, [{"lr_decay": 0.1},
                                {"maximize": True, "initial_accumulator_value": 1.0},
                                {"foreach": True}]),
        "asgd": (o.ASGD, [{"t0": 1}, {"lambd": 0.1, "maximize": True},
                          {"foreach": True, "alpha": 0.5}]),
        "rprop": (o.Rprop, [{"etas": (0.3, 1.5)}, {"step_sizes": (0.01, 0.02), "maximize": True},
                            {"foreach": True}]),
        "adadelta": (o.Adadelta, [{"rho": 0.5}, {"maximize": True},
                                  {"foreach": True, "weight_decay": 0.1}]),
        "adamax": (o.Adamax, [{"eps": 0.1}, {"maximize": True},
                              {"foreach": True, "weight_decay": 0.1}]),
    }  # fmt: skip
    out = {}
    for k, (cls, gs) in cases.items():

        def go(cls: Any = cls, gs: Any = gs) -> Any:
            pss = [_ps(T, seed=3 * i, complex_=(i == 1)) for i in range(3)]
            opt = cls([{"params": ps, **g} for ps, g in zip(pss, gs, strict=True)], lr=0.05)
            flat = [p for ps in pss for p in ps]
            for i in range(3):
                opt.zero_grad()
                _loss(T, flat, i).backward()
                opt.step()
            return [p.detach() for p in flat], _groups(opt)

        out[k] = raises(go)
    return out


@program()
def prog_op2_default_dtype_float64_state_tensors(T: Any) -> Any:
    """Under set_default_dtype(float64) the 0-dim state (`step`, ASGD's eta and mu, NAdam's
    mu_product) is float64, but float32 for fused steps; float32 parameters stay float32."""
    out = {}
    old = T.get_default_dtype()
    T.set_default_dtype(T.float64)
    try:
        for name in _OPTIMIZERS:
            if name == "SparseAdam":
                continue

            def go(name: str = name) -> Any:
                ps = _ps(T, dtype=T.float32)[: 1 if name == "Muon" else 2]
                opt = getattr(T.optim, name)(ps, lr=0.01)
                for i in range(2):
                    opt.zero_grad()
                    loss = _loss(T, ps, i)
                    loss.backward()
                    opt.step((lambda loss=loss: loss) if name == "LBFGS" else None)
                skip = ("old_dirs", "old_stps", "ro", "al")
                return [{k: v for k, v in opt.state[p].items() if k not in skip} for p in ps]

            out[name] = raises(go)
        for name in ("Adam", "AdamW", "SGD", "Adagrad"):

            def fused(name: str = name) -> Any:
                ps = _ps(T, dtype=T.float32)
                opt = getattr(T.optim, name)(ps, lr=0.01, fused=True)
                _train(T, opt, ps)
                return [dict(opt.state[p]) for p in ps]

            out[name + "_fused"] = raises(fused)
        for name in ("Adam", "RAdam", "NAdam", "ASGD", "Adamax", "RMSprop", "Adadelta", "Rprop"):

            def foreach(name: str = name) -> Any:
                ps = _ps(T, dtype=T.float32)
                opt = getattr(T.optim, name)(ps, lr=0.01, foreach=True)
                _train(T, opt, ps)
                return [dict(opt.state[p]) for p in ps]

            out[name + "_foreach"] = raises(foreach)
    finally:
        T.set_default_dtype(old)
    return out


@program()
def prog_op2_fused_steps_every_dtype(T: Any) -> Any:
    """fused=True on CPU: SGD, Adam, AdamW and Adagrad run; the others refuse it; float16 and
    bfloat16 parameters, maximize with weight decay, a Tensor lr."""
    out = {}
    for name in ("SGD", "Adam", "AdamW", "Adagrad", "Adamax", "NAdam", "RMSprop"):
        for dt in ("float32", "float64", "float16"):
            for i, extra in enumerate(
                [{}, {"maximize": True, "weight_decay": 0.1}, {"lr": T.tensor(0.05)}]
            ):

                def go(name: str = name, dt: str = dt, extra: Any = extra) -> Any:
                    ps = _ps(T, dtype=getattr(T, dt))
                    kw = {"lr": 0.05, **extra, **({"momentum": 0.9} if name == "SGD" else {})}
                    opt = getattr(T.optim, name)(ps, fused=True, **kw)
                    return _train(T, opt, ps), opt.state_dict()

                out[(name, dt, i)] = raises(go)
    return out


@program()
def prog_op2_fused_refusals_and_grad_scaler(T: Any) -> Any:
    """A fused step refuses complex and integer parameters; under a GradScaler its grads are
    unscaled and an inf step skipped as for the unfused step."""
    o = T.optim
    out: dict[Any, Any] = {}
    for name in ("SGD", "Adam", "AdamW", "Adagrad"):
        cls = getattr(o, name)

        def cplx(cls: Any = cls) -> Any:
            ps = _ps(T, complex_=True)
            return _train(T, cls(ps, lr=0.1, fused=True), ps)

        out[name] = (
            raises(cplx),
            raises(lambda cls=cls: cls(_ps(T), lr=0.1, fused=True, foreach=True)),
            raises(lambda cls=cls: cls(_ps(T), lr=0.1, fused=True, differentiable=True)),
            raises(lambda cls=cls: cls([T.zeros(2, dtype=T.int64)], lr=0.1, fused=True)),
        )
        for fused in (True, False):
            for unscale_first in (False, True):

                def scaled(cls: Any = cls, fused: bool = fused, uf: bool = unscale_first) -> Any:
                    ps = _ps(T)
                    kw = {"momentum": 0.9} if cls is o.SGD else {}
                    opt = cls(ps, lr=0.1, fused=fused, **kw)
                    sc = T.amp.GradScaler("cpu", init_scale=4.0, growth_interval=1)
                    trace = []
                    for i in range(4):
                        opt.zero_grad()
                        loss = _loss(T, ps, i) * (float("inf") if i == 2 else 1.0)
                        sc.scale(loss).backward()
                        if uf:
                            sc.unscale_(opt)
                        r = sc.step(opt)
                        sc.update()
                        trace.append(
                            (r, sc.get_scale(), [p.detach().clone() for p in ps],
                             [p.grad.clone() for p in ps], hasattr(opt, "grad_scale"))
                        )  # fmt: skip
                    return trace, opt.state_dict()

                out[(name, fused, unscale_first)] = raises(scaled)
    return out


@program()
def prog_op2_base_optimizer_and_param_group_edges(T: Any) -> Any:
    o = T.optim
    ps = _ps(T)

    def added(group: Any) -> Any:
        opt = o.SGD(ps[:1], lr=0.1)
        opt.add_param_group(group)
        return _groups(opt)

    cases = {
        "base_step": lambda: o.Optimizer(ps, {}).step(),
        "base_repr": lambda: repr(o.Optimizer(ps, {"lr": 0.1})),
        "base_state_dict": lambda: o.Optimizer(ps, {"lr": 0.1}).state_dict(),
        "empty_group": lambda: _groups(o.SGD([{"params": []}], lr=0.1)),
        "add_empty": lambda: added({"params": []}),
        "add_duplicate": lambda: o.SGD(ps, lr=0.1).add_param_group({"params": ps[:1]}),
        "add_not_dict": lambda: o.SGD(ps, lr=0.1).add_param_group(ps),
        "add_tensor": lambda: added({"params": T.nn.Parameter(T.ones(2))}),
        "add_set": lambda: added({"params": {T.nn.Parameter(T.ones(2))}}),
        "add_tuple": lambda: added({"params": (T.nn.Parameter(T.ones(2)),), "lr": 0.3}),
        "no_lr": lambda: o.SGD([{"params": ps}]),
        "extra_keys": lambda: _groups(o.Adam([{"params": ps, "foo": 1, "lr": 0.5}], lr=0.1)),
        "state_default": lambda: (lambda opt: (dict(opt.state[ps[0]]), len(opt.state)))(
            o.SGD(ps, lr=0.1)
        ),
        "no_grads_step": lambda: (lambda opt: (opt.step(), opt.state_dict()))(o.Adam(ps, lr=0.1)),
        "duplicate_in_group": lambda: _groups(o.SGD([ps[0], ps[0]], lr=0.1)),
        "duplicate_across": lambda: o.SGD([{"params": ps[:1]}, {"params": ps[:1]}], lr=0.1),
        "generator": lambda: len(o.SGD((p for p in ps), lr=0.1).param_groups[0]["params"]),
    }
    return {k: raises(f) for k, f in cases.items()}


# --- schedulers, continued -------------------------------------------------------------------


@program()
def prog_op2_nested_sequential_and_chained(T: Any) -> Any:
    S = T.optim.lr_scheduler
    combos = {
        "linear_warm_restarts": lambda o: S.SequentialLR(
            o, [S.LinearLR(o, 0.1, total_iters=2), S.CosineAnnealingWarmRestarts(o, 2, 2)], [2]
        ),
        "linear_cyclic": lambda o: S.SequentialLR(
            o, [S.LinearLR(o, 0.1, total_iters=2), S.CyclicLR(o, 0.01, 0.1, 2)], [3]
        ),
        "constant_onecycle": lambda o: S.SequentialLR(
            o, [S.ConstantLR(o, 0.5, total_iters=2), S.OneCycleLR(o, 0.5, total_steps=10)], [2]
        ),
        "three": lambda o: S.SequentialLR(
            o,
            [S.ConstantLR(o, 0.5, total_iters=1), S.ExponentialLR(o, 0.5), S.StepLR(o, 1, 0.9)],
            [1, 3],
        ),
        "sequential_of_chained": lambda o: S.SequentialLR(
            o,
            [
                S.ChainedScheduler([S.ConstantLR(o, 0.5, total_iters=2), S.ExponentialLR(o, 0.9)]),
                S.PolynomialLR(o, 4),
            ],
            [3],
        ),
        "chained_of_sequential": lambda o: S.ChainedScheduler(
            [
                S.SequentialLR(
                    o, [S.ConstantLR(o, 0.5, total_iters=2), S.ExponentialLR(o, 0.9)], [2]
                ),
                S.MultiplicativeLR(o, lambda e: 0.95),
            ]
        ),
        "sequential_of_sequential": lambda o: S.SequentialLR(
            o,
            [
                S.SequentialLR(
                    o, [S.ConstantLR(o, 0.5, total_iters=1), S.ExponentialLR(o, 0.8)], [1]
                ),
                S.StepLR(o, 2),
            ],
            [3],
        ),
        "chained_lambda_cosine": lambda o: S.ChainedScheduler(
            [S.LambdaLR(o, lambda e: 1 / (e + 1)), S.CosineAnnealingLR(o, 4)]
        ),
        "milestone_zero": lambda o: S.SequentialLR(
            o, [S.ConstantLR(o, 0.5, total_iters=2), S.ExponentialLR(o, 0.8)], [0]
        ),
        "milestones_unsorted": lambda o: S.SequentialLR(
            o, [S.ConstantLR(o, 0.5), S.ExponentialLR(o, 0.8), S.StepLR(o, 1)], [4, 2]
        ),
    }
    out = {}
    for k, mk in combos.items():

        def go(mk: Any = mk) -> Any:
            opt = _sgd(T)
            s = mk(opt)
            g = opt.param_groups[0]
            init = (s.get_last_lr(), g["lr"], g["momentum"])
            trace = []
            for _ in range(7):
                opt.step()
                s.step()
                trace.append((s.get_last_lr(), g["lr"], g["momentum"], s.last_epoch))
            return init, trace, sorted(s.state_dict())

        out[k] = raises(go)
    return out


@program()
def prog_op2_sequential_resume_and_chained_state(T: Any) -> Any:
    S = T.optim.lr_scheduler

    def mk(o: Any) -> Any:
        return S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=2), S.ExponentialLR(o, 0.7)], [2])

    opt = _sgd(T)
    s = mk(opt)
    for _ in range(3):
        opt.step()
        s.step()
    sd, osd = s.state_dict(), opt.state_dict()
    opt2 = _sgd(T)
    s2 = mk(opt2)
    opt2.load_state_dict(osd)
    s2.load_state_dict(sd)
    resumed = _trace(T, opt2, s2, 3)
    original = _trace(T, opt, s, 3)
    chain = S.ChainedScheduler([S.ExponentialLR(opt, 0.9), S.StepLR(opt, 2)])
    csd = chain.state_dict()
    return resumed, original, s2._schedulers[1].last_epoch, sorted(csd), csd["_schedulers"]


@program()
def prog_op2_resume_every_scheduler_with_last_epoch(T: Any) -> Any:
    """A scheduler built with last_epoch=3 over an optimizer loaded from a checkpoint (its
    groups carry initial_lr, and OneCycleLR's max_lr/min_lr) continues the run."""
    S = T.optim.lr_scheduler
    U = T.optim.swa_utils
    makers = {
        "step": lambda o, le: S.StepLR(o, 2, gamma=0.5, last_epoch=le),
        "multistep": lambda o, le: S.MultiStepLR(o, [2, 5], last_epoch=le),
        "constant": lambda o, le: S.ConstantLR(o, 0.5, total_iters=4, last_epoch=le),
        "linear": lambda o, le: S.LinearLR(o, 0.2, total_iters=5, last_epoch=le),
        "exponential": lambda o, le: S.ExponentialLR(o, 0.8, last_epoch=le),
        "polynomial": lambda o, le: S.PolynomialLR(o, 6, 2.0, last_epoch=le),
        "cosine": lambda o, le: S.CosineAnnealingLR(o, 5, 0.01, last_epoch=le),
        "lambda": lambda o, le: S.LambdaLR(o, lambda e: 0.9**e, last_epoch=le),
        "multiplicative": lambda o, le: S.MultiplicativeLR(o, lambda e: 0.9, last_epoch=le),
        "warm_restarts": lambda o, le: S.CosineAnnealingWarmRestarts(o, 2, 2, 1e-3, last_epoch=le),
        "cyclic": lambda o, le: S.CyclicLR(o, 0.01, 0.1, 2, last_epoch=le),
        "onecycle": lambda o, le: S.OneCycleLR(o, 0.5, total_steps=12, last_epoch=le),
        "swalr": lambda o, le: U.SWALR(o, 0.05, anneal_epochs=4, last_epoch=le),
    }
    out = {}
    for k, mk in makers.items():

        def go(mk: Any = mk) -> Any:
            opt = _sgd(T)
            s = mk(opt, -1)
            for _ in range(3):
                opt.step()
                s.step()
            osd = opt.state_dict()
            ref = _trace(T, opt, s, 3)
            opt2 = _sgd(T)
            opt2.load_state_dict(osd)
            s2 = mk(opt2, 3)
            init = (s2.get_last_lr(), [g["lr"] for g in opt2.param_groups], s2._step_count)
            return ref, init, _trace(T, opt2, s2, 3)

        out[k] = raises(go)
    return out


@program()
def prog_op2_tensor_lr_initial_lr_does_not_alias(T: Any) -> Any:
    """torch's test_constant_initial_lr: the user's lr tensor changes in place after the
    scheduler is built; initial_lr and base_lrs keep their own copies."""
    S = T.optim.lr_scheduler
    makers = {
        "lambda": lambda o: S.LambdaLR(o, lr_lambda=lambda e: e // 10),
        "multiplicative": lambda o: S.MultiplicativeLR(o, lr_lambda=lambda e: 0.95),
        "step": lambda o: S.StepLR(o, step_size=30),
        "multistep": lambda o: S.MultiStepLR(o, milestones=[30, 80]),
        "constant": lambda o: S.ConstantLR(o),
        "linear": lambda o: S.LinearLR(o),
        "exponential": lambda o: S.ExponentialLR(o, gamma=0.9),
        "polynomial": lambda o: S.PolynomialLR(o),
        "cosine": lambda o: S.CosineAnnealingLR(o, T_max=10),
        "warm_restarts": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=20),
    }
    out = {}
    for k, mk in makers.items():

        def go(mk: Any = mk) -> Any:
            lr = T.as_tensor(0.1)
            opt = T.optim.SGD([T.nn.Parameter(T.tensor([0.5]))], lr=lr)
            sch = mk(opt)
            trace = []
            for i in range(2):
                opt.step()
                sch.step(i)
                lr.multiply_(0.1)
                g = opt.param_groups[0]
                trace.append(
                    (g["initial_lr"], sch.base_lrs, sch.base_lrs[0] is g["initial_lr"],
                     g["lr"] is lr, g["lr"], sch.get_last_lr(), sch.get_last_lr()[0] is g["lr"])
                )  # fmt: skip
            return trace

        out[k] = raises(go)
    return out


@program()
def prog_op2_tensor_arguments_of_cyclic_onecycle_swalr_copied(T: Any) -> Any:
    S = T.optim.lr_scheduler
    U = T.optim.swa_utils
    out = {}
    lr, max_lr, bm, mm = T.as_tensor(0.1), T.as_tensor(0.2), T.as_tensor(0.8), T.as_tensor(0.9)
    opt = T.optim.SGD([T.nn.Parameter(T.tensor([0.5]))], lr=lr, momentum=0.5)
    sch = S.CyclicLR(opt, base_lr=lr, max_lr=max_lr, base_momentum=bm, max_momentum=mm)
    trace = []
    for i in range(2):
        for t in (lr, max_lr, bm, mm):
            t.multiply_(0.5)
        opt.step()
        sch.step(i)
        trace.append((_groups(opt), sch.base_lrs, sch.max_lrs))
    out["cyclic"] = trace
    lr, bm, mm = T.as_tensor(0.1), T.as_tensor(0.85), T.as_tensor(0.95)
    opt = T.optim.SGD([T.nn.Parameter(T.tensor([0.5]))], lr=lr, momentum=0.5)
    sch = S.OneCycleLR(opt, max_lr=lr, total_steps=10, base_momentum=bm, max_momentum=mm)
    trace = []
    for i in range(2):
        for t in (lr, bm, mm):
            t.multiply_(0.5)
        opt.step()
        sch.step(i)
        trace.append((_groups(opt), sch.get_last_lr()))
    out["onecycle"] = trace
    lr, swa = T.as_tensor(0.1), T.as_tensor(0.05)
    opt = T.optim.SGD([T.nn.Parameter(T.tensor([0.5]))], lr=lr)
    sch = U.SWALR(opt, swa_lr=swa)
    trace = []
    for _ in range(2):
        lr.multiply_(0.5)
        swa.multiply_(0.5)
        opt.step()
        sch.step()
        trace.append((_groups(opt), sch.base_lrs, sch.get_last_lr()))
    out["swalr"] = trace
    return out


@program()
def prog_op2_scheduler_state_dicts_through_save_and_load(T: Any) -> Any:
    import functools
    import io

    S = T.optim.lr_scheduler
    U = T.optim.swa_utils
    P = functools.partial
    classes = {
        "lambda": P(S.LambdaLR, lr_lambda=lambda e: e // 10),
        "step": P(S.StepLR, step_size=30),
        "constant": S.ConstantLR,
        "linear": S.LinearLR,
        "polynomial": S.PolynomialLR,
        "chained": lambda o: S.ChainedScheduler(schedulers=[S.ConstantLR(o), S.ConstantLR(o)]),
        "sequential": lambda o: S.SequentialLR(
            o, [S.ConstantLR(o), S.ConstantLR(o)], milestones=[2]
        ),
        "plateau": S.ReduceLROnPlateau,
        "cyclic": P(S.CyclicLR, base_lr=0.01, max_lr=0.1),
        "onecycle": P(S.OneCycleLR, max_lr=0.01, total_steps=10, anneal_strategy="linear"),
        "warm_restarts": P(S.CosineAnnealingWarmRestarts, T_0=20),
        "swalr": P(U.SWALR, swa_lr=0.01),
    }
    out = {}
    for k, cls in classes.items():
        for weights_only in (True, False):

            def go(cls: Any = cls, wo: bool = weights_only) -> Any:
                groups = [{"params": _ps(T)}, {"params": _ps(T, 3), "lr": T.tensor(0.5)}]
                opt = T.optim.SGD(groups, lr=0.05, momentum=0.9)
                sd = cls(opt).state_dict()
                f = io.BytesIO()
                T.save(sd, f)
                f.seek(0)
                loaded = T.load(f, weights_only=wo)
                s2 = cls(opt)
                s2.load_state_dict(loaded)
                return repr(loaded), repr(s2.state_dict()) == repr(sd)

            out[(k, weights_only)] = raises(go)
    return out


@program()
def prog_op2_scheduler_reference_cycles_and_get_lr_signature(T: Any) -> Any:
    import gc
    import weakref

    S = T.optim.lr_scheduler

    class WithStep(S.LRScheduler):
        def get_lr(self, step: Any) -> Any:
            return [1.0]

    bad = raises(lambda: WithStep(T.optim.SGD([T.rand(1)], lr=1)))
    param = T.nn.Parameter(T.empty(10))
    optim = T.optim.SGD([param], lr=0.5)
    scheduler = S.LambdaLR(optim, lambda epoch: 1.0)
    del scheduler
    referrers = len(gc.get_referrers(optim))

    def run() -> Any:
        p = T.empty(10, requires_grad=True)
        o = T.optim.SGD(params=[p], lr=0.5)
        s = S.LambdaLR(o, lambda epoch: 1.0)
        p.sum().backward()
        o.step()
        s.step()
        return weakref.ref(s)

    gc.disable()
    try:
        ref = run()
        freed = ref() is None
    finally:
        gc.enable()
    return bad, referrers, freed


@program()
def prog_op2_old_pattern_warnings_with_method_type_step(T: Any) -> Any:
    """torch's test_old_pattern_warning_* and test_new_pattern_no_warning_*: optimizer.step
    replaced by a types.MethodType wrapper, with and without resuming."""
    import types
    import warnings

    S = T.optim.lr_scheduler
    out = []
    for resume in (False, True):
        for new_order in (False, True):
            groups = [{"params": _ps(T)}, {"params": _ps(T, 3), "lr": T.tensor(0.5)}]
            opt = T.optim.SGD(groups, lr=0.05)
            if resume:
                for g in opt.param_groups:
                    g["initial_lr"] = 0.01
            s = S.StepLR(opt, gamma=0.1, step_size=3, last_epoch=10 if resume else -1)
            old = opt.step

            def new_step(o: Any, *a: Any, old: Any = old, **k: Any) -> Any:
                return old(*a, **k)

            opt.step = types.MethodType(new_step, opt)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                for _ in range(4):
                    if new_order:
                        opt.step()
                        s.step()
                    else:
                        s.step()
                        opt.step()
            out.append(([str(x.message)[:60] for x in w], s.get_last_lr()))

    class MySGD(T.optim.SGD):
        def step(self, closure: Any = None) -> Any:
            return super().step(closure)

    for new_order in (True, False):
        opt = MySGD(_ps(T), lr=0.1)
        s = S.ExponentialLR(opt, 0.5)
        for _ in range(2):
            if new_order:
                opt.step()
                s.step()
            else:
                s.step()
                opt.step()
        out.append(s.get_last_lr())
    return out


# --- reduced precision -----------------------------------------------------------------------


@program()
def prog_op2_half_and_bfloat16_add_with_alpha_vector_and_tail(T: Any) -> Any:
    """add/sub with alpha on float16 and bfloat16 as torch's CPU kernel computes them: alpha
    converted to the dtype; the vectorized loop (32 elements a step under AVX-512) fuses
    self + alpha * other in float, its scalar tail rounds the product first. Sizes below, at
    and across the vector width, in place and out of place, a 0-d other."""
    out = {}
    for dt in (T.float16, T.bfloat16):
        for n in (7, 32, 40, 100, 1000):
            b = T.tensor(_data(n, seed=n)).to(dt)
            g = T.tensor(_data(n, seed=n + 1)).to(dt)
            out[(str(dt), n)] = (
                b.clone().add_(g, alpha=0.7),
                T.add(b, g, alpha=-0.3),
                T.sub(b, g, alpha=1.7),
                b.clone().sub_(g, alpha=3),
                T.add(b, g, alpha=3),
                T.add(b.reshape(-1, 1), g.reshape(-1, 1), alpha=0.7),
                T.add(b, T.tensor(0.3).to(dt), alpha=0.7),
            )
    return out


@program()
def prog_op2_plain_sgd_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """SGD without momentum updates with p.add_(grad, alpha=-lr): parameters of 100 and 1000
    elements cross the vectorized loop's width."""
    out = {}
    for dt in (T.float16, T.bfloat16):
        for maximize in (False, True):
            ps = [T.nn.Parameter(T.tensor(_data(n, seed=n)).to(dt)) for n in (10, 100, 1000)]
            opt = T.optim.SGD(ps, lr=0.07, maximize=maximize)
            for k in range(4):
                for i, p in enumerate(ps):
                    p.grad = T.tensor(_data(p.numel(), seed=50 + 3 * k + i)).to(dt)
                opt.step()
            out[(str(dt), maximize)] = [p.detach() for p in ps]
    return out


@program()
def prog_op2_sgd_momentum_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """SGD's momentum buffer on float16/bfloat16 parameters, op by op as torch's rounds each:
    buf.mul_(momentum).add_(grad, alpha=1 - dampening), the nesterov add, weight decay,
    maximize; foreach=True's _foreach_mul_ rounds the momentum to the dtype once every buffer
    exists (a parameter without a grad on some steps). Parameters across the vector width."""
    import itertools

    out = {}
    for dt in (T.float16, T.bfloat16):
        options = itertools.product(
            (0.0, 0.3), (0.0, 0.1), (False, True), (False, True), (None, True)
        )
        for damp, wd, nesterov, maximize, foreach in options:
            if nesterov and damp:
                continue
            kw = {
                "lr": 0.1, "momentum": 0.9, "dampening": damp, "weight_decay": wd,
                "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
            }  # fmt: skip
            ps = [T.nn.Parameter(T.tensor(_data(*s, seed=7 + i)).to(dt)) for i, s in
                  enumerate([(2, 3), (40,), (4, 25)])]  # fmt: skip
            opt = T.optim.SGD(ps, **kw)
            for k in range(5):
                opt.zero_grad()
                for j, p in enumerate(ps):
                    if j == 1 and k % 2 == 0:
                        continue  # no grad on even steps
                    p.grad = T.tensor(_data(*p.shape, seed=100 + 7 * k + j)).to(dt) * (k + 1)
                opt.step()
            out[(str(dt), damp, wd, nesterov, maximize, foreach)] = (
                [p.detach() for p in ps],
                [opt.state[p].get("momentum_buffer") for p in ps],
                [p.grad for p in ps],
            )
    return out


@program()
def prog_op2_adam_family_weight_decay_on_bfloat16(T: Any) -> Any:
    """Weight decay on bfloat16 parameters rounds as torch's ops: AdamW's param.mul_(1 - lr *
    wd) multiplies by the factor as a float (foreach=True's _foreach_mul_ rounds it to bfloat16
    first), the coupled grad.add(param, alpha=wd) is the add kernel's (alpha in bfloat16)."""
    import itertools

    out = {}
    for name in ("Adam", "AdamW", "NAdam", "RAdam"):
        for wd, decoupled, maximize, foreach in itertools.product(
            (0.1, 0.3), (False, True), (False, True), (None, True)
        ):
            kw = {"lr": 0.05, "weight_decay": wd, "maximize": maximize, "foreach": foreach}
            if name != "AdamW":
                kw["decoupled_weight_decay"] = decoupled
            elif decoupled:
                continue
            ps = [T.nn.Parameter(T.tensor(_data(*s, seed=20 + i)).bfloat16()) for i, s in
                  enumerate([(2, 3), (5,), (3, 4)])]  # fmt: skip
            opt = getattr(T.optim, name)(ps, **kw)
            for k in range(5):
                for j, p in enumerate(ps):
                    p.grad = T.tensor(_data(*p.shape, seed=200 + 7 * k + j)).bfloat16() * (k + 1)
                opt.step()
            out[(name, wd, decoupled, maximize, foreach)] = [p.detach() for p in ps]
    return out


# --- more edges ------------------------------------------------------------------------------


@program()
def prog_op2_plateau_over_a_tensor_lr_group(T: Any) -> Any:
    """ReduceLROnPlateau writes a Tensor lr in place (fill_), per-group min_lr, eps."""
    S = T.optim.lr_scheduler
    lr = T.tensor(0.5)
    groups = [{"params": _ps(T)}, {"params": _ps(T, 3), "lr": lr}]
    opt = T.optim.SGD(groups, lr=0.1, momentum=0.9)
    s = S.ReduceLROnPlateau(opt, patience=0, factor=0.5, min_lr=[0.01, 0.2], eps=1e-3)
    trace = []
    for m in [1, 1, 1, 1, 1]:
        opt.step()
        s.step(m)
        trace.append((s.get_last_lr(), opt.param_groups[1]["lr"] is lr, lr.clone()))
    return trace, s.state_dict()


@program()
def prog_op2_zero_grad_of_graph_grads_and_views(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(3))
    b = T.nn.Parameter(T.ones(2, 2))
    opt = T.optim.SGD([w, b], lr=0.1)
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (w * x).sum().backward(create_graph=True)
    before = w.grad.grad_fn
    opt.zero_grad(set_to_none=False)
    after = (w.grad, w.grad.grad_fn, w.grad.requires_grad, b.grad)
    base = T.zeros(6) + 1
    w.grad = base[:3]
    opt.zero_grad(set_to_none=False)
    view = (w.grad, base)
    w.grad = T.ones(3)
    g = w.grad
    opt.zero_grad()
    return before, after, view, w.grad, g


@program()
def prog_op2_load_state_dict_group_and_shape_mismatches(T: Any) -> Any:
    ps = _ps(T)
    o1 = T.optim.Adam(ps, lr=0.1)
    _train(T, o1, ps)
    o1.add_param_group({"params": [T.nn.Parameter(T.ones(2))], "lr": 0.5})
    sd = o1.state_dict()

    def two_groups(second: list[Any]) -> Any:
        return T.optim.Adam([{"params": _ps(T)}, {"params": second}], lr=0.1)

    def loaded(opt: Any, d: Any) -> Any:
        opt.load_state_dict(d)
        return _groups(opt), [dict(opt.state[p]) for g in opt.param_groups for p in g["params"]]

    str_keys = dict(sd, state={str(k): v for k, v in sd["state"].items()})
    return {
        "groups": raises(lambda: T.optim.Adam(_ps(T), lr=0.1).load_state_dict(sd)),
        "sizes": raises(
            lambda: two_groups(
                [T.nn.Parameter(T.ones(2)), T.nn.Parameter(T.ones(1))]
            ).load_state_dict(sd)
        ),
        "other_shape": raises(lambda: loaded(two_groups([T.nn.Parameter(T.ones(3))]), sd)),
        "str_keys": raises(
            lambda: (lambda o: (o.load_state_dict(str_keys), sorted(map(str, o.state))))(
                two_groups([T.nn.Parameter(T.ones(2))])
            )
        ),
        "no_state": raises(
            lambda: T.optim.Adam(_ps(T)).load_state_dict({"param_groups": sd["param_groups"][:1]})
        ),
        "no_groups": raises(lambda: T.optim.Adam(_ps(T)).load_state_dict({"state": {}})),
    }


@program()
def prog_op2_muon_checks_and_options(T: Any) -> Any:
    m = T.optim.Muon
    w = T.nn.Parameter(T.tensor(_data(4, 3, seed=1)))

    def trained(opt: Any, ps: list[Any]) -> Any:
        return _train(T, opt, ps), opt.state_dict()

    wide = T.nn.Parameter(T.tensor(_data(2, 5, seed=3)))
    f64 = T.nn.Parameter(T.tensor(_data(3, 5, seed=3), dtype=T.float64))
    return {
        "1d": raises(lambda: m([T.nn.Parameter(T.ones(3))])),
        "3d": raises(lambda: m([T.nn.Parameter(T.ones(2, 2, 2))])),
        "adjust": raises(lambda: m([w], adjust_lr_fn="arbitrary")),
        "maximize": raises(lambda: m([w], maximize=True)),
        "plain_momentum": raises(
            lambda: trained(m([w], lr=0.1, nesterov=False, momentum=0.5, weight_decay=0.1), [w])
        ),
        "coefficients": raises(
            lambda: trained(m([w], lr=0.1, ns_coefficients=(3.0, -3.0, 1.0), ns_steps=2), [w])
        ),
        "eps": raises(lambda: trained(m([w], lr=0.1, eps=1e-3), [w])),
        "wide": raises(lambda: trained(m([wide], lr=0.1), [wide])),
        "float64_rms": raises(
            lambda: trained(m([f64], lr=0.1, adjust_lr_fn="match_rms_adamw"), [f64])
        ),
    }


@program()
def prog_op2_asgd_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """ASGD's float16/bfloat16 update op by op as torch's: param.mul_(1 - lambd * eta), the
    add with alpha=-eta, the average ax.add_(param.sub(ax).mul_(mu)) (a copy while mu is 1);
    foreach=True's addcmul_ forms. Parameters across the vector width, one without a grad on
    some steps."""
    import itertools

    out = {}
    for dt in (T.float16, T.bfloat16):
        for t0, wd, maximize, foreach in itertools.product(
            (1, 1e6), (0, 0.1), (False, True), (None, True)
        ):
            kw = {"lr": 0.1, "lambd": 0.1, "alpha": 0.5, "t0": t0, "weight_decay": wd,
                  "maximize": maximize, "foreach": foreach}  # fmt: skip
            ps = [T.nn.Parameter(T.tensor(_data(*s, seed=9 + i)).to(dt)) for i, s in
                  enumerate([(2, 3), (40,), (4, 25)])]  # fmt: skip
            opt = T.optim.ASGD(ps, **kw)
            for k in range(5):
                opt.zero_grad()
                for j, p in enumerate(ps):
                    if j == 1 and k % 2 == 0:
                        continue
                    p.grad = T.tensor(_data(*p.shape, seed=300 + 7 * k + j)).to(dt) * (k + 1)
                opt.step()
            out[(str(dt), t0, wd, maximize, foreach)] = (
                [p.detach() for p in ps],
                [opt.state[p].get("ax") for p in ps],
            )
    return out


def _reduced_run(T: Any, name: str, kw: dict[str, Any], dt: Any, steps: int = 5) -> Any:
    """Steps of `name` on float16/bfloat16 parameters across the vector width, one without a
    grad on even steps; the parameters and the state's tensors."""
    ps = [T.nn.Parameter(T.tensor(_data(*s, seed=11 + i)).to(dt)) for i, s in
          enumerate([(2, 3), (40,), (4, 25)])]  # fmt: skip
    opt = getattr(T.optim, name)(ps, **kw)
    for k in range(steps):
        opt.zero_grad()
        for j, p in enumerate(ps):
            if j == 1 and k % 2 == 0:
                continue
            p.grad = T.tensor(_data(*p.shape, seed=400 + 7 * k + j)).to(dt) * (k + 1)
        opt.step()
    return [p.detach() for p in ps], [
        {k: v for k, v in opt.state[p].items() if k != "step"} for p in ps
    ]


def _reduced_matrix(T: Any, name: str, options: dict[str, tuple[Any, ...]]) -> Any:
    import itertools

    out = {}
    for dt in (T.float16, T.bfloat16):
        for values in itertools.product(*options.values()):
            kw = dict(zip(options, values, strict=True))
            out[(str(dt), *values)] = raises(lambda kw=kw, dt=dt: _reduced_run(T, name, kw, dt))
    return out


@program()
def prog_op2_adagrad_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """Adagrad op by op as torch's on float16/bfloat16: sum.addcmul_, sqrt().add_(eps), the
    single-tensor addcdiv_ with -clr, the multi-tensor one of the grads times -clr (its
    in-place _foreach_mul_ on copied grads rounds -clr to the dtype)."""
    return _reduced_matrix(
        T,
        "Adagrad",
        {"lr": (0.1,), "lr_decay": (0.0, 0.1), "weight_decay": (0.0, 0.1),
         "initial_accumulator_value": (0.0, 0.5), "maximize": (False, True),
         "foreach": (None, True)},
    )  # fmt: skip


@program()
def prog_op2_rmsprop_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """RMSprop op by op as torch's on float16/bfloat16 (square_avg.mul_(alpha).addcmul_, the
    centered lerp_ and addcmul(...).sqrt_(), add_(eps), the momentum buffer's mul_ and
    addcdiv_); foreach=True's _foreach_mul_ rounds alpha and the momentum to the dtype."""
    return _reduced_matrix(
        T,
        "RMSprop",
        {"lr": (0.01,), "alpha": (0.9,), "eps": (1e-8, 1e-2), "weight_decay": (0.0, 0.1),
         "momentum": (0.0, 0.5), "centered": (False, True), "maximize": (False,),
         "foreach": (None, True)},
    )  # fmt: skip


@program()
def prog_op2_rprop_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """Rprop in the dtype as torch's: etaplus/etaminus stored into the signs (rounded: 1.2 is
    1.203125 in bfloat16), the flip found by comparing with etaminus in the dtype."""
    return _reduced_matrix(
        T,
        "Rprop",
        {"lr": (0.01, 0.1), "etas": ((0.5, 1.2), (0.3, 1.5)),
         "step_sizes": ((1e-6, 50), (0.01, 0.05)), "maximize": (False, True),
         "foreach": (None, True)},
    )  # fmt: skip


@program()
def prog_op2_radam_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """RAdam op by op as torch's on float16/bfloat16: the single-tensor
    param.add_(exp_avg / bc1 * lr * adaptive_lr * rect, alpha=-1), the multi-tensor addcmul_
    of exp_avg by 1 / ((sqrt(v) + eps) / step_size) + the unrectified step size (its in-place
    _foreach_mul_ rounds beta2 and the decoupled decay factor to the dtype)."""
    return _reduced_matrix(
        T,
        "RAdam",
        {"lr": (0.01,), "betas": ((0.9, 0.999), (0.5, 0.6)), "weight_decay": (0.0, 0.1),
         "decoupled_weight_decay": (False, True), "maximize": (False, True),
         "foreach": (None, True)},
    )  # fmt: skip


@program()
def prog_op2_adam_and_adamw_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """Adam and AdamW op by op as torch's on float16/bfloat16: lerp_, mul_(beta2).addcmul_,
    the amsgrad maximum, (sqrt(v) / bc2_sqrt).add_(eps), addcdiv_ with -step_size;
    foreach=True's in-place _foreach_mul_ rounds beta2 and the decay factor to the dtype."""
    out = _reduced_matrix(
        T,
        "Adam",
        {"lr": (0.01,), "betas": ((0.9, 0.999), (0.5, 0.6)), "weight_decay": (0.0, 0.1),
         "amsgrad": (False, True), "decoupled_weight_decay": (False, True),
         "maximize": (False, True), "foreach": (None, True)},
    )  # fmt: skip
    out["AdamW"] = _reduced_matrix(
        T,
        "AdamW",
        {"lr": (0.01,), "weight_decay": (0.01, 0.3), "amsgrad": (False, True),
         "foreach": (None, True)},
    )  # fmt: skip
    return out


@program()
def prog_op2_adamax_adadelta_nadam_on_half_and_bfloat16_parameters(T: Any) -> Any:
    """Adamax (lerp_, maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)), addcdiv_), Adadelta
    (the two moving averages, add(eps).sqrt_(), div_, mul_) and NAdam (its single-tensor
    div-then-sqrt denominator, the multi-tensor sqrt-then-div one, two addcdiv_) op by op as
    torch's on float16/bfloat16; foreach=True's _foreach_mul_ rounds its factor first."""
    return {
        "Adamax": _reduced_matrix(
            T,
            "Adamax",
            {"lr": (0.1,), "betas": ((0.9, 0.999), (0.5, 0.6)), "eps": (1e-8, 1e-2),
             "weight_decay": (0.0, 0.1), "maximize": (False, True), "foreach": (None, True)},
        ),
        "Adadelta": _reduced_matrix(
            T,
            "Adadelta",
            {"lr": (1.0,), "rho": (0.9, 0.5), "eps": (1e-6, 1e-2), "weight_decay": (0.0, 0.1),
             "maximize": (False, True), "foreach": (None, True)},
        ),
        "NAdam": _reduced_matrix(
            T,
            "NAdam",
            {"lr": (0.01,), "betas": ((0.9, 0.999), (0.5, 0.6)), "weight_decay": (0.0, 0.1),
             "momentum_decay": (4e-3, 0.5), "decoupled_weight_decay": (False, True),
             "foreach": (None, True)},
        ),
    }  # fmt: skip


@program()
def prog_op2_half_and_bfloat16_zero_size_and_scalar_parameters(T: Any) -> Any:
    """Every optimizer over float16/bfloat16 parameters of zero size, 0-dim and (4, 1): no
    warnings (Rprop's masked writes on an empty tensor), the same states."""
    out = {}
    names = ("SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Adagrad", "Adadelta",
             "RMSprop", "Rprop", "ASGD")  # fmt: skip
    for dt in (T.float16, T.bfloat16):
        for name in names:

            def go(name: str = name, dt: Any = dt) -> Any:
                values = [
                    T.zeros(2, 0, 3),
                    T.zeros(0),
                    T.tensor(0.7),
                    T.tensor(_data(4, 1, seed=5)),
                ]
                ps = [T.nn.Parameter(v.to(dt)) for v in values]
                kw = {"momentum": 0.9} if name == "SGD" else {}
                opt = getattr(T.optim, name)(ps, lr=0.01, maximize=True, **kw)
                for k in range(3):
                    for j, p in enumerate(ps):
                        p.grad = T.full_like(p, 0.5 * (k + 1) - j * 0.25)
                    opt.step()
                return [p.detach() for p in ps], [dict(opt.state[p]) for p in ps]

            out[(str(dt), name)] = raises(go)
    return out


@program()
def prog_op2_lerp_rounding_float_half_bfloat16(T: Any) -> Any:
    """torch's lerp kernel on float32 (float16/bfloat16 in float): end - self rounded to float,
    then self + w * d (|w| < 0.5) or end - d * (1 - w) as one fused multiply-add. Scalar and
    tensor weights on both sides of 0.5, broadcasting, in place; the EMA of AveragedModel."""
    out = {}

    def bits(t: Any) -> Any:  # compared exactly: a last-place difference shows
        return t.view(T.int32 if t.dtype == T.float32 else T.int16)

    for dt in (T.float32, T.float16, T.bfloat16):
        for n in (20, 100):
            b = T.tensor(_data(n, seed=n)).to(dt)
            e = T.tensor(_data(n, seed=n + 1)).to(dt)
            w = T.tensor(np.linspace(-0.9, 1.6, n).astype(np.float32)).to(dt)
            out[(str(dt), n)] = (
                [bits(b.clone().lerp_(e, s)) for s in (0.1, 0.9, 0.001, -0.7, 2.5, 0.5)],
                bits(T.lerp(b, e, w)),
                bits(T.lerp(b.reshape(-1, 1)[:5], e[:7], T.tensor(0.75).to(dt))),
            )
    U = T.optim.swa_utils
    net = _seeded(T, T.nn.Linear(30, 20), 8)
    ema = U.AveragedModel(net, multi_avg_fn=U.get_ema_multi_avg_fn(0.9))
    for k in range(3):
        with T.no_grad():
            for p in net.parameters():
                p.mul_(1.1).add_(0.01 * k)
        ema.update_parameters(net)
    out["ema"] = [bits(p.detach()) for p in ema.parameters()]
    return out


@program()
def prog_op2_float32_add_and_sub_with_alpha_bits(T: Any) -> Any:
    """float32 add/sub with alpha as torch's kernel: alpha as float, self + alpha * other one
    fused multiply-add (sub: alpha negated), out of place, with grad on and in place; compared
    bit for bit (about a fifth of the elements were a last place off)."""
    out = {}
    for n in (7, 100, 1000):
        b = T.tensor(_data(n, seed=n))
        g = T.tensor(_data(n, seed=n + 1))
        br = b.clone().requires_grad_()
        r = T.add(br, g, alpha=0.3)
        r.sum().backward()
        out[n] = [
            t.view(T.int32)
            for t in (
                T.add(b, g, alpha=0.3),
                T.sub(b, g, alpha=0.7),
                T.add(b, g, alpha=3),
                r.detach(),
                b.clone().sub_(g, alpha=1.3),
                T.add(b.reshape(-1, 1), g[:3], alpha=-0.3),
            )
        ] + [r.grad_fn, br.grad]
    return out


@program()
def prog_op2_float32_and_half_addcmul_bits(T: Any) -> Any:
    """addcmul on float32 (float16 in float) as torch's kernel: value * tensor1 rounded, then
    one fused multiply-add with tensor2; value 1 and others, in place, broadcast, a 0-d
    tensor2; compared bit for bit."""
    out = {}
    for dt, bits in ((T.float32, T.int32), (T.float16, T.int16)):
        for n in (7, 100, 1000):
            s, a, b = (T.tensor(_data(n, seed=n + k)).to(dt) for k in range(3))
            out[(str(dt), n)] = [
                t.view(bits)
                for t in (
                    T.addcmul(s, a, b, value=0.3),
                    T.addcmul(s, a, b),
                    s.clone().addcmul_(a, b, value=-0.7),
                    T.addcmul(s.reshape(-1, 1), a[:3], b[:3], value=0.3),
                    T.addcmul(s, a, T.tensor(0.7).to(dt), value=2),
                )
            ]
    return out


# --- reduced precision in training loops ------------------------------------------------------


def _tiny_net(T: Any, dt: Any) -> Any:
    net = _seeded(T, T.nn.Sequential(T.nn.Linear(6, 8), T.nn.Tanh(), T.nn.Linear(8, 3)), 21)
    return net.to(dt)


def _loop(T: Any, dt: Any, make_opt: Any, make_sched: Any = None, steps: int = 4) -> Any:
    net = _tiny_net(T, dt)
    opt = make_opt(net.parameters())
    sched = make_sched(opt) if make_sched else None
    x = T.tensor(_data(5, 6, seed=22)).to(dt)
    y = T.tensor([0, 2, 1, 1, 0])
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = T.nn.functional.cross_entropy(net(x).float(), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        losses.append(loss.detach())
    return losses, [p.detach() for p in net.parameters()], opt.state_dict()["state"]


@program()
def prog_op2_bfloat16_training_loops(T: Any) -> Any:
    """Small nets trained in bfloat16 with the usual optimizer/scheduler pairs. (In float16 the
    first Linear's weight gradient already differs from torch's in the last place on some
    elements, upstream of the optimizers.)"""
    S = T.optim.lr_scheduler
    o = T.optim
    out = {}
    for dt in (T.bfloat16,):
        out[(str(dt), "adamw_cosine")] = _loop(
            T, dt, lambda ps: o.AdamW(ps, lr=0.01), lambda op: S.CosineAnnealingLR(op, 4)
        )
        out[(str(dt), "sgd_nesterov_step")] = _loop(
            T, dt, lambda ps: o.SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3),
            lambda op: S.StepLR(op, 2),
        )  # fmt: skip
        out[(str(dt), "rmsprop_centered")] = _loop(
            T, dt, lambda ps: o.RMSprop(ps, lr=0.01, centered=True, momentum=0.5)
        )
        out[(str(dt), "adam_amsgrad_foreach_onecycle")] = _loop(
            T, dt, lambda ps: o.Adam(ps, lr=0.01, amsgrad=True, foreach=True),
            lambda op: S.OneCycleLR(op, 0.02, total_steps=6),
        )  # fmt: skip
        out[(str(dt), "adagrad")] = _loop(T, dt, lambda ps: o.Adagrad(ps, lr=0.05, lr_decay=0.01))
    return out


@program()
def prog_op2_half_state_dict_resume(T: Any) -> Any:
    """A bfloat16/float16 run saved after two steps and resumed in a fresh optimizer continues
    bit for bit as the uninterrupted run (the reduced-precision updates read the loaded
    state)."""
    out = {}
    for dt in (T.float16, T.bfloat16):
        for name, kw in (("AdamW", {"lr": 0.01}), ("SGD", {"lr": 0.05, "momentum": 0.9}),
                         ("ASGD", {"lr": 0.05, "t0": 1}), ("NAdam", {"lr": 0.01}),
                         ("Rprop", {"lr": 0.01})):  # fmt: skip
            ps = [T.nn.Parameter(T.tensor(_data(4, 5, seed=31)).to(dt))]
            opt = getattr(T.optim, name)(ps, **kw)
            grads = [T.tensor(_data(4, 5, seed=40 + k)).to(dt) for k in range(4)]
            for g in grads[:2]:
                ps[0].grad = g
                opt.step()
            sd = opt.state_dict()
            qs = [T.nn.Parameter(ps[0].detach().clone())]
            opt2 = getattr(T.optim, name)(qs, **kw)
            opt2.load_state_dict(sd)
            for g in grads[2:]:
                ps[0].grad = g
                opt.step()
                qs[0].grad = g.clone()
                opt2.step()
            out[(str(dt), name)] = (
                ps[0].detach(),
                T.equal(ps[0], qs[0]),
                opt2.state_dict()["state"],
            )
    return out


@program()
def prog_op2_mixed_dtype_group_foreach_momentum(T: Any) -> Any:
    """One SGD group mixing float32, float16 and bfloat16 parameters under foreach=True: torch
    groups the tensors by dtype, and whether every momentum buffer exists (so whether
    _foreach_mul_ runs, rounding the momentum) is decided per dtype; a float16 parameter
    without a grad on the first step."""
    out = {}
    for nesterov in (False, True):
        ps = [
            T.nn.Parameter(T.tensor(_data(40, seed=1))),
            T.nn.Parameter(T.tensor(_data(40, seed=2)).half()),
            T.nn.Parameter(T.tensor(_data(40, seed=3)).half()),
            T.nn.Parameter(T.tensor(_data(40, seed=4)).bfloat16()),
        ]
        opt = T.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=nesterov, foreach=True)
        for k in range(4):
            opt.zero_grad()
            for j, p in enumerate(ps):
                if j == 2 and k == 0:
                    continue
                p.grad = T.tensor(_data(40, seed=50 + 4 * k + j)).to(p.dtype)
            opt.step()
        out[nesterov] = ([p.detach() for p in ps], [opt.state[p]["momentum_buffer"] for p in ps])
    return out


@program()
def prog_op2_sgd_nesterov_foreach_writes_half_grads(T: Any) -> Any:
    """torch's foreach SGD with nesterov adds the buffer into the grads themselves (no
    maximize, no weight decay); float16/bfloat16 grads change in place the same way."""
    out = {}
    for dt in (T.float16, T.bfloat16):
        for maximize, wd in ((False, 0.0), (True, 0.0), (False, 0.1)):
            p = T.nn.Parameter(T.tensor(_data(5, seed=6)).to(dt))
            opt = T.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, foreach=True,
                              maximize=maximize, weight_decay=wd)  # fmt: skip
            grads = []
            for k in range(3):
                p.grad = T.tensor(_data(5, seed=60 + k)).to(dt)
                opt.step()
                grads.append(p.grad.clone())
            out[(str(dt), maximize, wd)] = (p.detach(), grads)
    return out


@program()
def prog_op2_differentiable_on_half_parameters(T: Any) -> Any:
    """differentiable=True on float16/bfloat16 non-leaf parameters: torch's single-tensor
    update recorded by autograd, the grads through the step in the dtype."""
    out = {}
    for dt in (T.float16, T.bfloat16):
        for name, kw in (("SGD", {"lr": 0.1, "momentum": 0.9}), ("Adam", {"lr": 0.1}),
                         ("RMSprop", {"lr": 0.01, "centered": True})):  # fmt: skip

            def go(name: str = name, kw: Any = kw, dt: Any = dt) -> Any:
                w0 = T.tensor(_data(4, seed=7)).to(dt).requires_grad_()
                p = w0 * 1
                opt = getattr(T.optim, name)([p], differentiable=True, **kw)
                for k in range(2):
                    p.grad = T.tensor(_data(4, seed=70 + k)).to(dt)
                    opt.step()
                (g,) = T.autograd.grad((p.float() ** 2).sum(), [w0])
                return p, p.grad_fn, g

            out[(str(dt), name)] = raises(go)
    return out


# --- schedulers and optimizers, last edges ---------------------------------------------------


@program()
def prog_op2_warm_restarts_float_and_negative_epochs(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    for t_mult in (1, 2):
        opt = _sgd(T)
        s = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=t_mult, eta_min=0.001)
        trace = []
        for e in (0.5, 1.0, 2.9, 3.0, 3.1, 7.5, 10.0, 20.25, 0):
            opt.step()
            s.step(e)
            trace.append((s.T_cur, s.T_i, s.get_last_lr()))
        out[t_mult] = trace, raises(lambda s=s: s.step(-1)), s.state_dict()
    return out


@program()
def prog_op2_cyclic_scale_modes_and_custom_functions(T: Any) -> Any:
    S = T.optim.lr_scheduler
    out = {}
    cases = {
        "exp_range": {"mode": "exp_range", "gamma": 0.9},
        "triangular2": {"mode": "triangular2"},
        "custom_cycle": {"scale_fn": lambda x: 1 / (x + 1), "scale_mode": "cycle"},
        "custom_iterations": {"scale_fn": lambda x: 0.95**x, "scale_mode": "iterations"},
        "down_longer": {"step_size_down": 5},
    }
    for k, kw in cases.items():
        groups = [{"params": _ps(T)}, {"params": _ps(T, 3)}]
        opt = T.optim.SGD(groups, lr=0.1, momentum=0.9)
        s = S.CyclicLR(opt, [0.01, 0.02], [0.1, 0.2], step_size_up=2, **kw)
        trace = []
        for _ in range(9):
            opt.step()
            s.step()
            trace.append((s.get_last_lr(), opt.param_groups[0]["momentum"]))
        sd = s.state_dict()
        out[k] = trace, sorted(sd), sd["_scale_fn_custom"] is None
    return out


@program()
def prog_op2_plateau_eps_blocks_small_reductions(T: Any) -> Any:
    """ReduceLROnPlateau skips a reduction smaller than eps; min_lr floors it; cooldown."""
    S = T.optim.lr_scheduler
    out = {}
    for eps, min_lr in ((1e-8, 0.0), (0.05, 0.0), (1e-8, 0.09)):
        opt = T.optim.SGD(_ps(T), lr=0.1)
        s = S.ReduceLROnPlateau(opt, factor=0.5, patience=0, cooldown=1, eps=eps, min_lr=min_lr)
        trace = []
        for _ in range(8):
            s.step(1.0)
            trace.append((opt.param_groups[0]["lr"], s.cooldown_counter, s.num_bad_epochs))
        out[(eps, min_lr)] = trace
    return out


@program()
def prog_op2_swalr_after_other_schedulers(T: Any) -> Any:
    """torch's test_swalr_*_anneal_after_multiplicative: SWALR takes over from another
    scheduler's lr (its initial lr is the current lr)."""
    S = T.optim.lr_scheduler
    U = T.optim.swa_utils
    out = {}
    for strategy in ("cos", "linear"):
        opt = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 3), "lr": 0.5}], lr=0.05)
        m = S.MultiplicativeLR(opt, lambda e: 0.9)
        trace = []
        for _ in range(3):
            opt.step()
            m.step()
            trace.append(m.get_last_lr())
        swa = U.SWALR(opt, swa_lr=0.01, anneal_epochs=4, anneal_strategy=strategy)
        for _ in range(6):
            opt.step()
            swa.step()
            trace.append(swa.get_last_lr())
        out[strategy] = trace, swa.state_dict()
    return out


@program()
def prog_op2_get_last_lr_before_any_step(T: Any) -> Any:
    S = T.optim.lr_scheduler
    U = T.optim.swa_utils
    makers = {
        "step": lambda o: S.StepLR(o, 2),
        "multistep": lambda o: S.MultiStepLR(o, [1]),
        "constant": lambda o: S.ConstantLR(o),
        "linear": lambda o: S.LinearLR(o),
        "exponential": lambda o: S.ExponentialLR(o, 0.5),
        "polynomial": lambda o: S.PolynomialLR(o, power=0.0),
        "cosine": lambda o: S.CosineAnnealingLR(o, 3),
        "lambda": lambda o: S.LambdaLR(o, lambda e: 2.0),
        "multiplicative": lambda o: S.MultiplicativeLR(o, lambda e: 0.5),
        "warm_restarts": lambda o: S.CosineAnnealingWarmRestarts(o, 2),
        "cyclic": lambda o: S.CyclicLR(o, 0.01, 0.1),
        "onecycle": lambda o: S.OneCycleLR(o, 0.5, total_steps=4),
        "plateau": lambda o: S.ReduceLROnPlateau(o),
        "swalr": lambda o: U.SWALR(o, 0.01),
        "sequential": lambda o: S.SequentialLR(o, [S.ConstantLR(o), S.ExponentialLR(o, 0.5)], [1]),
        "chained": lambda o: S.ChainedScheduler([S.ConstantLR(o), S.ExponentialLR(o, 0.5)]),
    }
    out = {}
    for k, mk in makers.items():
        opt = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 3), "lr": T.tensor(0.5)}], lr=0.05,
                          momentum=0.9)  # fmt: skip
        s = mk(opt)
        out[k] = raises(lambda s=s: s.get_last_lr()), [g["lr"] for g in opt.param_groups]
    return out


@program()
def prog_op2_lambda_lr_callable_objects_state_dict(T: Any) -> Any:
    S = T.optim.lr_scheduler

    class Decay:
        def __init__(self, value: float) -> None:
            self.value = value

        def __call__(self, epoch: int) -> float:
            return self.value**epoch

    opt = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 3)}], lr=0.1)
    s = S.LambdaLR(opt, [Decay(0.9), lambda e: 1.0 / (e + 1)])
    m = S.MultiplicativeLR(opt, [Decay(0.8), Decay(0.7)])
    for _ in range(3):
        opt.step()
        s.step()
        m.step()
    sd, msd = s.state_dict(), m.state_dict()
    opt2 = T.optim.SGD([{"params": _ps(T)}, {"params": _ps(T, 3)}], lr=0.1)
    s2 = S.LambdaLR(opt2, [Decay(0.5), lambda e: 2.0])
    s2.load_state_dict(sd)
    return sd, msd, s2.lr_lambdas[0].value, s2.last_epoch, s.get_last_lr(), m.get_last_lr()


@program()
def prog_op2_sparse_adam_and_adagrad_sparse_state_resume(T: Any) -> Any:
    """SparseAdam/Adagrad over an nn.Embedding(sparse=True) saved and resumed mid-run."""
    o = T.optim
    out = {}
    makers = {
        "sparse_adam": lambda ps: o.SparseAdam(ps, lr=0.1),
        "adagrad": lambda ps: o.Adagrad(ps, lr=0.1, initial_accumulator_value=0.1),
    }
    for name, mk in makers.items():
        e = _embedding(T)
        opt = mk(list(e.parameters()))
        idxs = [[1, 2, 1], [0, 5], [2, 2], [4, 1]]
        for idx in idxs[:2]:
            opt.zero_grad()
            (e(T.tensor(idx)) ** 2).sum().backward()
            opt.step()
        sd = opt.state_dict()
        e2 = _embedding(T)
        with T.no_grad():
            e2.weight.copy_(e.weight)
        opt2 = mk(list(e2.parameters()))
        opt2.load_state_dict(sd)
        for idx in idxs[2:]:
            for mod, op in ((e, opt), (e2, opt2)):
                op.zero_grad()
                (mod(T.tensor(idx)) ** 2).sum().backward()
                op.step()
        out[name] = e.weight.detach(), T.equal(e.weight, e2.weight)
    return out


@program()
def prog_op2_lbfgs_on_half_and_float64_parameters(T: Any) -> Any:
    out = {}
    for dt in (T.float64, T.float16):
        w = T.nn.Parameter(T.tensor(_data(3, seed=8)).to(dt))
        opt = T.optim.LBFGS([w], lr=0.5, max_iter=4, history_size=2)

        def closure(w: Any = w, opt: Any = opt) -> Any:
            opt.zero_grad()
            loss = ((w.float() - 1.0) ** 2 * T.tensor([1.0, 2.0, 3.0])).sum()
            loss.backward()
            return loss

        losses = [raises(lambda c=closure, o=opt: o.step(c)) for _ in range(2)]
        st = opt.state[w]
        out[str(dt)] = losses, w.detach(), st.get("n_iter"), st.get("func_evals")
    return out


def _float32_bits(T: Any, cfgs: dict[str, dict[str, Any]]) -> Any:
    out = {}
    for name, kw in cfgs.items():
        cls = getattr(T.optim, name.split("_")[0])
        for foreach in (False, True):
            ps = [T.nn.Parameter(T.tensor(_data(n, seed=80 + n))) for n in (7, 40, 100)]
            opt = cls(ps, foreach=foreach, **kw)
            for k in range(4):
                for j, p in enumerate(ps):
                    p.grad = T.tensor(_data(p.numel(), seed=90 + 5 * k + j))
                opt.step()
            out[(name, foreach)] = [p.detach().view(T.int32) for p in ps]
    return out


@program()
def prog_op2_float32_bits_radam_adamax_rprop_asgd(T: Any) -> Any:
    """float32 updates bit for bit (parameters of 7, 40 and 100 elements, single- and
    multi-tensor), where the value comparison's tolerance would hide a last-place difference."""
    return _float32_bits(
        T,
        {"RAdam": {"lr": 0.01}, "RAdam_decoupled": {"lr": 0.01, "weight_decay": 0.1,
         "decoupled_weight_decay": True}, "Adamax": {"lr": 0.01, "weight_decay": 0.01},
         "Rprop": {"lr": 0.01}, "ASGD": {"lr": 0.01, "t0": 1}},
    )  # fmt: skip


@program()
def prog_op2_float32_bits_sgd(T: Any) -> Any:
    """SGD's float32 update bit for bit: torch fuses the in-place add_(alpha=) of the parameter
    update at every size (shadowgrad: BLAS axpy for large parameters, the float64 sum rounded
    once for small ones)."""
    return _float32_bits(
        T,
        {"SGD": {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
         "SGD_nesterov": {"lr": 0.1, "momentum": 0.9, "nesterov": True},
         "SGD_plain": {"lr": 0.0123}, "SGD_maximize": {"lr": 0.05, "maximize": True}},
    )  # fmt: skip


@program(
    xfail="float32 bits: torch's vectorized float32 sqrt is not correctly rounded (Adam, AdamW, "
    "NAdam, Adagrad, Adadelta, RMSprop denominators): last-place differences"
)
def prog_op2_float32_bits_sqrt_optimizers(T: Any) -> Any:
    return _float32_bits(
        T,
        {"Adam": {"lr": 0.01, "weight_decay": 0.01}, "AdamW": {"lr": 0.01, "amsgrad": True},
         "NAdam": {"lr": 0.01, "weight_decay": 0.01}, "Adagrad": {"lr": 0.1, "lr_decay": 0.01},
         "Adadelta": {"lr": 1.0}, "RMSprop": {"lr": 0.01, "centered": True, "momentum": 0.5}},
    )  # fmt: skip


@program()
def prog_op2_half_and_bfloat16_optimizer_bits(T: Any) -> Any:
    """The float16/bfloat16 updates op by op bit for bit (the value comparison allows an ulp):
    every optimizer with a reduced-precision path, single- and multi-tensor."""
    cfgs = {
        "SGD": {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
        "Adam": {"lr": 0.01, "weight_decay": 0.01, "amsgrad": True},
        "AdamW": {"lr": 0.01},
        "Adamax": {"lr": 0.01},
        "NAdam": {"lr": 0.01, "weight_decay": 0.01},
        "RAdam": {"lr": 0.01},
        "Adagrad": {"lr": 0.1, "lr_decay": 0.01},
        "Adadelta": {"lr": 1.0},
        "RMSprop": {"lr": 0.01, "centered": True, "momentum": 0.5},
        "Rprop": {"lr": 0.01},
        "ASGD": {"lr": 0.01, "t0": 1},
    }
    out = {}
    for dt in (T.float16, T.bfloat16):
        for name, kw in cfgs.items():
            for foreach in (False, True):
                ps = [T.nn.Parameter(T.tensor(_data(n, seed=80 + n)).to(dt)) for n in (7, 40)]
                opt = getattr(T.optim, name)(ps, foreach=foreach, **kw)
                for k in range(4):
                    for j, p in enumerate(ps):
                        p.grad = T.tensor(_data(p.numel(), seed=90 + 5 * k + j)).to(dt)
                    opt.step()
                out[(str(dt), name, foreach)] = [p.detach().view(T.int16) for p in ps]
    return out


@program()
def prog_op2_ema_and_swa_averages_bits(T: Any) -> Any:
    """AveragedModel's EMA (get_ema_multi_avg_fn: a foreach lerp_) and SWA averages over float32,
    float16 and bfloat16 models, bit for bit."""
    U = T.optim.swa_utils
    out = {}
    for dt, bits in ((T.float32, T.int32), (T.float16, T.int16), (T.bfloat16, T.int16)):
        net = _seeded(T, T.nn.Linear(12, 5), 30).to(dt)
        ema = U.AveragedModel(net, multi_avg_fn=U.get_ema_multi_avg_fn(0.9))
        ema2 = U.AveragedModel(net, avg_fn=U.get_ema_avg_fn(0.7))
        swa = U.AveragedModel(net)
        for k in range(4):
            with T.no_grad():
                for p in net.parameters():
                    p.mul_(1.05).add_(0.01 * (k + 1))
            for m in (ema, ema2, swa):
                m.update_parameters(net)
        out[str(dt)] = [[p.detach().view(bits) for p in m.parameters()] for m in (ema, ema2, swa)]
    return out


# --- the harness -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
