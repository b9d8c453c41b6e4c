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


# --- the harness -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
