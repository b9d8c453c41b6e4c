"""Realistic programs in the spirit of torch's own nn, lr-scheduler and data-loader tests
(test/test_nn.py, test/nn/*.py, test/optim/test_lrscheduler.py, test/test_dataloader.py):
what torch's developers pin down about Module state dicts and their hooks, forward and backward
hooks, buffers, named_* traversal, dtype moves, parametrizations, seeded init and its errors,
pooling and convolution shape errors, Embedding options, dropout, schedulers and DataLoader.
The programs register into test_realistic_programs_3's set and run through its harness: each
`prog(T)` runs on torch and on shadowgrad, and everything it returns, raises or warns is
compared.
"""

from __future__ import annotations

import collections
import importlib
import math
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _lin(T: Any, i: int = 3, o: int = 2, seed: int = 0) -> Any:
    return _seeded(T, T.nn.Linear(i, o), seed)


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _net(T: Any) -> Any:
    nn = T.nn
    return _seeded(
        T, nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)), 1
    )


def _keys(sd: Any) -> list[str]:
    return list(sd.keys())


# --- state_dict / load_state_dict -------------------------------------------------------------


@program()
def prog_nns_load_strict_error_lists_all_problems(T: Any) -> Any:
    m = _net(T)
    sd = m.state_dict()
    sd.pop("0.bias")
    sd["3.weight"] = T.zeros(5, 4)
    sd["extra.thing"] = T.ones(1)
    sd["1.extra"] = T.ones(1)
    return raises(lambda: m.load_state_dict(sd))


@program()
def prog_nns_load_non_strict_returns_incompatible_keys(T: Any) -> Any:
    m = _net(T)
    sd = {k: v.clone() + 1 for k, v in m.state_dict().items() if k != "1.running_var"}
    sd["zz"] = T.ones(2)
    r = m.load_state_dict(sd, strict=False)
    return (
        r.missing_keys,
        r.unexpected_keys,
        str(r),
        repr(r),
        list(r),
        m[0].weight,
        m[1].running_mean,
        m[1].num_batches_tracked,
    )


@program()
def prog_nns_load_size_mismatch_non_strict_still_raises(T: Any) -> Any:
    m = _lin(T)
    sd = {"weight": T.zeros(2, 4), "bias": T.zeros(2)}
    return raises(lambda: m.load_state_dict(sd, strict=False)), m.bias


@program()
def prog_nns_load_not_a_mapping(T: Any) -> Any:
    m = _lin(T)
    return raises(lambda: m.load_state_dict([("weight", T.zeros(2, 3))]))


@program()
def prog_nns_load_assign_keeps_requires_grad_and_identity(T: Any) -> Any:
    m = _lin(T)
    m.bias.requires_grad_(False)
    w = T.full((2, 3), 0.5, dtype=T.float64)
    b = T.ones(2, dtype=T.float64)
    r = m.load_state_dict({"weight": w, "bias": b}, assign=True)
    out = m(T.ones(1, 3, dtype=T.float64))
    return (
        str(r),
        type(m.weight).__name__,
        m.weight.dtype,
        m.weight.requires_grad,
        m.bias.requires_grad,
        m.weight.data_ptr() == w.data_ptr(),
        out,
    )


@program()
def prog_nns_load_without_assign_copies_and_casts(T: Any) -> Any:
    m = _lin(T)
    w0 = m.weight
    w = T.full((2, 3), 0.25, dtype=T.float64)
    m.load_state_dict({"weight": w, "bias": T.zeros(2, dtype=T.float16)})
    return m.weight is w0, m.weight.dtype, m.weight, m.bias, m.weight._version


@program()
def prog_nns_state_dict_keep_vars_prefix_and_metadata(T: Any) -> Any:
    m = _net(T)
    sd = m.state_dict(keep_vars=True)
    sd2 = m.state_dict(prefix="net.")
    md = dict(m.state_dict()._metadata)
    return (
        {k: (type(v).__name__, v.requires_grad) for k, v in sd.items()},
        _keys(sd2),
        {k: dict(v) for k, v in md.items()},
        m.state_dict()["0.weight"].requires_grad,
        m.state_dict()["0.weight"].is_leaf,
    )


@program()
def prog_nns_batchnorm_old_state_dict_without_num_batches(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(3)
    sd = bn.state_dict()
    del sd["num_batches_tracked"]
    sd._metadata[""]["version"] = 1
    r1 = bn.load_state_dict(sd)
    bn2 = T.nn.BatchNorm1d(3)
    sd2 = bn2.state_dict()
    del sd2["num_batches_tracked"]
    r2 = raises(lambda: bn2.load_state_dict(sd2))
    return str(r1), bn.num_batches_tracked, r2


@program()
def prog_nns_state_dict_pre_and_post_hooks(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T), T.nn.Tanh())
    calls = []

    def pre(mod, prefix, keep_vars):
        calls.append(("pre", type(mod).__name__, prefix, keep_vars))

    def post(mod, sd, prefix, local_metadata):
        calls.append(("post", type(mod).__name__, prefix, sorted(sd.keys()), dict(local_metadata)))
        sd[prefix + "tag"] = T.tensor(3.0)

    h1 = m[0].register_state_dict_pre_hook(pre)
    m[0].register_state_dict_post_hook(post)
    sd = m.state_dict(prefix="p.")
    h1.remove()
    sd2 = m.state_dict(keep_vars=True)
    return calls, _keys(sd), _keys(sd2)


@program()
def prog_nns_load_state_dict_pre_hook_renames_keys(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T))
    seen = []

    def pre(mod, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
        seen.append((prefix, strict, sorted(state_dict.keys())))
        for k in list(state_dict.keys()):
            if k.startswith(prefix + "w_"):
                state_dict[prefix + k[len(prefix) + 2 :]] = state_dict.pop(k)

    m[0].register_load_state_dict_pre_hook(pre)
    r = m.load_state_dict({"0.w_weight": T.ones(2, 3), "0.w_bias": T.zeros(2)})
    return seen, str(r), m[0].weight


@program()
def prog_nns_load_state_dict_post_hook_clears_and_raises(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T), _lin(T, 2, 2))
    got = []

    def post(mod, keys):
        got.append((list(keys.missing_keys), list(keys.unexpected_keys)))
        keys.missing_keys.clear()

    m.register_load_state_dict_post_hook(post)
    sd = m.state_dict()
    del sd["1.bias"]
    r = m.load_state_dict(sd)

    def post_err(mod, keys):
        raise ValueError("bad load")

    m[1].register_load_state_dict_post_hook(post_err)
    return got, str(r), raises(lambda: m.load_state_dict(m.state_dict()))


@program()
def prog_nns_extra_state_round_trip(T: Any) -> Any:
    class Counter(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.n = 0
            self.lin = _lin(T)

        def get_extra_state(self):
            return {"n": self.n}

        def set_extra_state(self, state):
            self.n = state["n"] + 100

    a = Counter()
    a.n = 5
    sd = a.state_dict()
    b = Counter()
    r = b.load_state_dict(sd)
    sd.pop("_extra_state")
    err = raises(lambda: b.load_state_dict(sd))
    return _keys(a.state_dict()), b.n, str(r), err


@program()
def prog_nns_non_persistent_buffer_and_unexpected(T: Any) -> Any:
    class M(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mean", T.zeros(2))
            self.register_buffer("scratch", T.ones(2), persistent=False)
            self.register_buffer("none_buf", None)

    m = M()
    sd = m.state_dict()
    e = raises(lambda: m.load_state_dict({"mean": T.ones(2), "scratch": T.zeros(2)}))
    r = m.load_state_dict({"mean": T.ones(2)})
    return (
        _keys(sd),
        [n for n, _ in m.named_buffers()],
        e,
        str(r),
        m.scratch,
        m._non_persistent_buffers_set == {"scratch"},
    )


@program()
def prog_nns_register_buffer_and_parameter_errors(T: Any) -> Any:
    m = _lin(T)
    return [
        raises(lambda: m.register_buffer("a.b", T.zeros(1))),
        raises(lambda: m.register_buffer("", T.zeros(1))),
        raises(lambda: m.register_buffer("weight", T.zeros(1))),
        raises(lambda: m.register_buffer("c", 3)),
        raises(lambda: m.register_buffer(1, T.zeros(1))),
        raises(lambda: m.register_parameter("p", T.zeros(1))),
        raises(lambda: m.register_parameter("a.b", T.nn.Parameter(T.zeros(1)))),
        raises(lambda: m.register_parameter("", T.nn.Parameter(T.zeros(1)))),
        raises(lambda: m.add_module("x.y", T.nn.ReLU())),
        raises(lambda: m.add_module("z", 3)),
        raises(lambda: m.add_module("weight", T.nn.ReLU())),
    ]


@program()
def prog_nns_setattr_parameter_slot_rules(T: Any) -> Any:
    m = _lin(T)
    e1 = raises(lambda: setattr(m, "weight", T.zeros(2, 3)))
    m.weight = None
    s1 = [n for n, _ in m.named_parameters()]
    m.weight = T.nn.Parameter(T.ones(2, 3))
    m.register_buffer("buf", T.zeros(1))
    m.buf = T.ones(3)
    e3 = raises(lambda: setattr(m, "buf", 3))
    b3 = [n for n, _ in m.named_buffers()]
    m.buf = T.nn.ReLU()
    e2 = raises(lambda: setattr(m, "buf", T.ones(3)))
    del m.bias
    return (
        e1,
        s1,
        [n for n, _ in m.named_parameters()],
        e2,
        e3,
        b3,
        [n for n, _ in m.named_buffers()],
        [n for n, _ in m.named_children()],
        hasattr(m, "bias"),
    )


# --- traversal -------------------------------------------------------------------------------


@program()
def prog_nns_named_modules_shared_and_prefixes(T: Any) -> Any:
    nn = T.nn
    shared = _lin(T, 2, 2)
    m = nn.Sequential(shared, nn.ReLU(), shared, nn.Sequential(shared, nn.Tanh()))
    return (
        [n for n, _ in m.named_modules()],
        [n for n, _ in m.named_modules(remove_duplicate=False)],
        [n for n, _ in m.named_modules(prefix="root")],
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_parameters(remove_duplicate=False)],
        [n for n, _ in m.named_parameters(prefix="x", recurse=False)],
        [n for n, _ in m.named_children()],
        len(list(m.modules())),
        len(list(m.parameters())),
        _keys(m.state_dict()),
    )


@program()
def prog_nns_apply_order_and_init(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Linear(3, 3), nn.ReLU()), nn.Linear(3, 1))
    order = []

    def init(mod):
        order.append(type(mod).__name__)
        if isinstance(mod, nn.Linear):
            nn.init.constant_(mod.weight, 0.1 * len(order))
            nn.init.zeros_(mod.bias)

    r = m.apply(init)
    y = m(T.ones(1, 2))
    return order, r is m, y, y.grad_fn


@program()
def prog_nns_get_set_submodule_parameter_buffer(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Sequential(_lin(T), nn.BatchNorm1d(2)))
    out = [
        type(m.get_submodule("0.1")).__name__,
        m.get_parameter("0.0.bias"),
        m.get_buffer("0.1.running_var"),
        raises(lambda: m.get_submodule("0.5")),
        raises(lambda: m.get_submodule("0.0.weight")),
        raises(lambda: m.get_parameter("0.1.running_var")),
        raises(lambda: m.get_buffer("0.0.weight")),
        raises(lambda: m.get_parameter("0.0.nope")),
    ]
    m.set_submodule("0.1", nn.Identity())
    out.append(repr(m))
    out.append(raises(lambda: m.set_submodule("0.7.x", nn.ReLU())))
    return out


@program()
def prog_nns_to_dtype_rules_and_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(_lin(T), nn.BatchNorm1d(2))
    m.double()
    d1 = [(n, t.dtype) for n, t in m.state_dict().items()]
    m.to(T.float16)
    d2 = [(n, t.dtype) for n, t in m.state_dict().items()]
    m.float()
    e = raises(lambda: m.to(T.int64))
    m.to(dtype=T.float64)
    p = m[0].weight
    return d1, d2, e, p.dtype, type(p).__name__, p.is_leaf, p.requires_grad


@program()
def prog_nns_train_eval_flags_and_zero_grad(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(_lin(T), nn.Dropout(0.5), nn.Sequential(nn.BatchNorm1d(2)))
    r = m.eval()
    f1 = [mod.training for mod in m.modules()]
    m[2].train()
    f2 = [mod.training for mod in m.modules()]
    e = raises(lambda: m.train("yes"))
    m.train()
    x = _x(T, 4, 3)
    m[1].p = 0.0
    m(x).sum().backward()
    g = m[0].weight.grad.clone()
    m.zero_grad(set_to_none=False)
    z = m[0].weight.grad
    m.zero_grad()
    return r is m, f1, f2, e, g, z, m[0].weight.grad, m[2][0].bias.grad


@program()
def prog_nns_requires_grad_module_and_frozen_backward(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(_lin(T), nn.ReLU(), _lin(T, 2, 1, seed=2))
    m[0].requires_grad_(False)
    y = m(_x(T, 3, 3))
    y.sum().backward()
    return (
        [p.requires_grad for p in m.parameters()],
        m[0].weight.grad,
        m[2].weight.grad,
        y.grad_fn,
        raises(lambda: m[0](_x(T, 1, 3)).sum().backward()),
    )


# --- forward hooks -----------------------------------------------------------------------------


@program()
def prog_nns_forward_hooks_with_kwargs(T: Any) -> Any:
    class Scale(T.nn.Module):
        def forward(self, x, *, scale=1.0, shift=0.0):
            return x * scale + shift

    m = Scale()
    log = []

    def pre(mod, args, kwargs):
        log.append(("pre", sorted(kwargs)))
        return (args[0] + 1,), {**kwargs, "scale": 2.0}

    def post(mod, args, kwargs, out):
        log.append(("post", args[0], dict(kwargs), out))
        return out * 10

    h1 = m.register_forward_pre_hook(pre, with_kwargs=True)
    h2 = m.register_forward_hook(post, with_kwargs=True)
    x = _x(T, 2, rg=True)
    y = m(x, shift=0.5)
    y.sum().backward()
    h1.remove()
    h2.remove()
    return log, y, x.grad, m(x, shift=0.5)


@program()
def prog_nns_forward_pre_hook_return_forms(T: Any) -> Any:
    m = T.nn.Identity()
    r = []
    m.register_forward_pre_hook(lambda mod, a: a[0] * 2)
    r.append(m(T.ones(2)))
    m2 = T.nn.Identity()
    m2.register_forward_pre_hook(lambda mod, a, kw: (a, kw, 3), with_kwargs=True)
    r.append(raises(lambda: m2(T.ones(2))))
    m3 = T.nn.Identity()
    m3.register_forward_pre_hook(lambda mod, a, kw: None, with_kwargs=True)
    r.append(m3(T.ones(2)))
    return r


@program()
def prog_nns_forward_hook_always_call_on_error(T: Any) -> Any:
    class Bad(T.nn.Module):
        def forward(self, x):
            raise RuntimeError("forward failed")

    m = Bad()
    log = []
    m.register_forward_hook(lambda mod, a, out: log.append(("plain", out)))
    m.register_forward_hook(lambda mod, a, out: log.append(("always", out)), always_call=True)
    e = raises(lambda: m(T.ones(1)))
    return e, log


@program()
def prog_nns_hook_order_prepend_and_global(T: Any) -> Any:
    nn = T.nn
    mm = T.nn.modules.module
    m = _lin(T)
    log = []
    m.register_forward_pre_hook(lambda mod, a: log.append("pre1"))
    m.register_forward_pre_hook(lambda mod, a: log.append("pre0"), prepend=True)
    m.register_forward_hook(lambda mod, a, o: log.append("post1"))
    m.register_forward_hook(lambda mod, a, o: log.append("post0"), prepend=True)
    g1 = mm.register_module_forward_pre_hook(lambda mod, a: log.append("gpre"))
    g2 = mm.register_module_forward_hook(lambda mod, a, o: log.append("gpost"))
    try:
        m(T.ones(1, 3))
        nn.ReLU()(T.ones(1))
    finally:
        g1.remove()
        g2.remove()
    m(T.ones(1, 3))
    return log


@program()
def prog_nns_hook_handle_context_and_dict(T: Any) -> Any:
    m = _lin(T)
    log = []
    with m.register_forward_hook(lambda mod, a, o: log.append(o.shape)):
        m(T.ones(1, 3))
    m(T.ones(2, 3))
    h = m.register_forward_pre_hook(lambda mod, a: log.append("p"))
    n1 = len(m._forward_pre_hooks)
    h.remove()
    h.remove()
    return log, n1, len(m._forward_pre_hooks), len(m._forward_hooks)


# --- backward hooks ----------------------------------------------------------------------------


@program()
def prog_nns_full_backward_hook_scales_grad_input(T: Any) -> Any:
    m = _lin(T)
    seen = []

    def hook(mod, gin, gout):
        seen.append(([g is None for g in gin], gout[0].clone()))
        return (gin[0] * 3,)

    m.register_full_backward_hook(hook)
    x = _x(T, 2, 3, rg=True)
    y = m(x)
    y.pow(2).sum().backward()
    return seen, x.grad, m.weight.grad, y.grad_fn


@program()
def prog_nns_full_backward_hook_input_without_grad(T: Any) -> Any:
    m = _lin(T)
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append((gin, gout[0].shape)))
    y = m(_x(T, 2, 3))
    y.sum().backward()
    return seen, m.bias.grad


@program()
def prog_nns_full_backward_hook_wrong_count_error(T: Any) -> Any:
    m = _lin(T)
    m.register_full_backward_hook(lambda mod, gin, gout: (gin[0], gin[0]))
    x = _x(T, 2, 3, rg=True)
    return raises(lambda: m(x).sum().backward())


@program()
def prog_nns_full_backward_pre_hook_replaces_grad_output(T: Any) -> Any:
    m = _lin(T)
    log = []

    def pre(mod, gout):
        log.append(gout[0].clone())
        return (T.ones_like(gout[0]) * 0.5,)

    m.register_full_backward_pre_hook(pre)
    m.register_full_backward_hook(lambda mod, gin, gout: log.append(gout[0].clone()))
    x = _x(T, 2, 3, rg=True)
    (m(x) * 4).sum().backward()
    return log, x.grad, m.weight.grad


@program()
def prog_nns_full_backward_hook_inplace_output_error(T: Any) -> Any:
    m = _lin(T)
    m.register_full_backward_hook(lambda mod, gin, gout: None)
    x = _x(T, 2, 3, rg=True)

    def run():
        y = m(x)
        y.relu_()
        return y

    return raises(run)


@program()
def prog_nns_full_backward_hook_multiple_inputs_outputs(T: Any) -> Any:
    class Two(T.nn.Module):
        def forward(self, a, b):
            return a * b, a + b

    m = Two()
    seen = []
    m.register_full_backward_hook(
        lambda mod, gin, gout: seen.append(([g is None for g in gin], [g is None for g in gout]))
    )
    a = _x(T, 3, rg=True)
    b = _x(T, 3, seed=1)
    p, s = m(a, b)
    p.sum().backward()
    return seen, a.grad, p.grad_fn, s.grad_fn


@program()
def prog_nns_old_backward_hook_warnings(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T), T.nn.ReLU())
    seen = []
    m.register_backward_hook(lambda mod, gin, gout: seen.append(len(gin)))
    x = _x(T, 2, 3, rg=True)
    m(x).sum().backward()
    e = raises(lambda: m.register_full_backward_hook(lambda *a: None))
    return seen, x.grad, e


# --- parametrizations --------------------------------------------------------------------------


@program()
def prog_nns_parametrize_symmetric_right_inverse_and_cache(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Sym(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    m = _lin(T, 3, 3)
    P.register_parametrization(m, "weight", Sym())
    w = m.weight
    orig = m.parametrizations.weight.original
    with P.cached():
        c1 = m.weight is m.weight
    c0 = m.weight is m.weight
    m.weight = T.eye(3) * 2
    y = m(_x(T, 2, 3))
    y.sum().backward()
    return (
        w,
        w.grad_fn,
        orig,
        c1,
        c0,
        m.parametrizations.weight.original,
        orig.grad,
        P.is_parametrized(m),
        P.is_parametrized(m, "bias"),
        type(m).__name__,
        _keys(m.state_dict()),
    )


@program()
def prog_nns_parametrize_remove_leave_parametrized(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Double(nn.Module):
        def forward(self, X):
            return X * 2

    a = _lin(T)
    P.register_parametrization(a, "weight", Double())
    P.remove_parametrizations(a, "weight", leave_parametrized=True)
    b = _lin(T)
    P.register_parametrization(b, "weight", Double())
    P.remove_parametrizations(b, "weight", leave_parametrized=False)
    c = _lin(T)
    return (
        a.weight,
        type(a.weight).__name__,
        b.weight,
        type(a).__name__,
        raises(lambda: P.remove_parametrizations(c, "weight")),
        hasattr(a, "parametrizations"),
    )


@program()
def prog_nns_parametrize_chain_and_errors(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class AddOne(nn.Module):
        def forward(self, X):
            return X + 1

    class Shape(nn.Module):
        def forward(self, X):
            return X[0]

    class Dt(nn.Module):
        def forward(self, X):
            return X.double()

    m = _lin(T)
    P.register_parametrization(m, "weight", AddOne())
    P.register_parametrization(m, "weight", AddOne())
    w = m.weight
    m2 = _lin(T)
    m3 = _lin(T)
    m4 = _lin(T)
    return (
        w,
        len(m.parametrizations.weight),
        raises(lambda: P.register_parametrization(m2, "weight", Shape())),
        raises(lambda: P.register_parametrization(m3, "weight", Dt())),
        raises(lambda: P.register_parametrization(m4, "nope", AddOne())),
        repr(m.parametrizations),
    )


@program()
def prog_nns_orthogonal_parametrization_maps(T: Any) -> Any:
    nn = T.nn
    out = []
    for mp in ["matrix_exp", "cayley", "householder"]:
        m = _lin(T, 3, 3, seed=4)
        nn.utils.parametrizations.orthogonal(m, orthogonal_map=mp)
        W = m.weight
        out.append((mp, T.allclose(W @ W.T, T.eye(3), atol=1e-5)))
    m = _lin(T, 4, 2, seed=5)
    nn.utils.parametrizations.orthogonal(m)
    out.append(T.allclose(m.weight @ m.weight.T, T.eye(2), atol=1e-5))
    out.append(raises(lambda: nn.utils.parametrizations.orthogonal(_lin(T), orthogonal_map="foo")))
    out.append(raises(lambda: nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), name="bias")))
    return out


@program()
def prog_nns_weight_norm_parametrization(T: Any) -> Any:
    nn = T.nn
    m = _lin(T, 3, 4, seed=6)
    w0 = m.weight.detach().clone()
    nn.utils.parametrizations.weight_norm(m, dim=0)
    g = m.parametrizations.weight.original0
    v = m.parametrizations.weight.original1
    y = m(_x(T, 2, 3))
    y.sum().backward()
    m2 = _lin(T, 3, 4, seed=6)
    nn.utils.parametrizations.weight_norm(m2, dim=None)
    return (
        g,
        v,
        m.weight,
        T.allclose(m.weight, w0),
        g.grad,
        v.grad,
        m2.parametrizations.weight.original0,
        _keys(m.state_dict()),
    )


@program()
def prog_nns_old_weight_norm_and_remove(T: Any) -> Any:
    nn = T.nn
    m = _lin(T, 3, 4, seed=6)
    nn.utils.weight_norm(m)
    names = [n for n, _ in m.named_parameters()]
    y = m(_x(T, 2, 3))
    y.sum().backward()
    gg = m.weight_g.grad
    e = raises(lambda: nn.utils.weight_norm(m))
    nn.utils.remove_weight_norm(m)
    e2 = raises(lambda: nn.utils.remove_weight_norm(m))
    return names, gg, e, [n for n, _ in m.named_parameters()], m.weight, e2


@program()
def prog_nns_spectral_norm_parametrization_eval(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    m = _lin(T, 4, 3, seed=7)
    nn.utils.parametrizations.spectral_norm(m, n_power_iterations=3)
    m.train()
    w1 = m.weight
    m.eval()
    w2 = m.weight
    sv = T.linalg.matrix_norm(w2.detach(), ord=2)
    return (
        _keys(m.state_dict()),
        T.allclose(w1, w2, atol=1e-4),
        T.allclose(sv, T.tensor(1.0), atol=2e-2),
        m.parametrizations.weight[0].n_power_iterations,
    )


# --- init --------------------------------------------------------------------------------------


@program()
def prog_nns_init_seeded_values(T: Any) -> Any:
    ini = T.nn.init
    out = []
    for fn, kw in [
        (ini.uniform_, {"a": -2, "b": 3}),
        (ini.normal_, {"mean": 1.0, "std": 0.5}),
        (ini.trunc_normal_, {"std": 2.0, "a": -1.0, "b": 1.5}),
        (ini.xavier_uniform_, {"gain": 2.0}),
        (ini.xavier_normal_, {}),
        (ini.kaiming_uniform_, {"a": 0.1, "mode": "fan_out", "nonlinearity": "leaky_relu"}),
        (ini.kaiming_normal_, {"nonlinearity": "relu"}),
        (ini.orthogonal_, {"gain": 1.5}),
        (ini.sparse_, {"sparsity": 0.5, "std": 0.1}),
    ]:
        T.manual_seed(3)
        t = T.empty(4, 5)
        r = fn(t, **kw)
        out.append((fn.__name__, r is t, t))
    return out


@program()
def prog_nns_init_conv_shapes_and_dirac_groups(T: Any) -> Any:
    ini = T.nn.init
    T.manual_seed(1)
    w = T.empty(6, 3, 3, 3)
    ini.kaiming_uniform_(w, a=math.sqrt(5))
    d = T.empty(4, 2, 3)
    ini.dirac_(d, groups=2)
    e = T.empty(3, 5)
    ini.eye_(e)
    fans = ini._calculate_fan_in_and_fan_out(T.empty(6, 3, 3, 3))
    return w, d, e, fans


@program()
def prog_nns_init_errors_and_gains(T: Any) -> Any:
    ini = T.nn.init
    return [
        ini.calculate_gain("linear"),
        ini.calculate_gain("conv2d"),
        ini.calculate_gain("tanh"),
        ini.calculate_gain("relu"),
        ini.calculate_gain("leaky_relu"),
        ini.calculate_gain("leaky_relu", 0.2),
        ini.calculate_gain("selu"),
        raises(lambda: ini.calculate_gain("leaky_relu", "x")),
        raises(lambda: ini.calculate_gain("leaky_relu", True)),
        raises(lambda: ini.calculate_gain("foo")),
        raises(lambda: ini.xavier_uniform_(T.empty(3))),
        raises(lambda: ini.kaiming_uniform_(T.empty(3, 3), mode="fan_avg")),
        raises(lambda: ini.orthogonal_(T.empty(3))),
        raises(lambda: ini.sparse_(T.empty(3, 3, 3), 0.1)),
        raises(lambda: ini.dirac_(T.empty(3, 3))),
        raises(lambda: ini.dirac_(T.empty(3, 3, 3), groups=2)),
        raises(lambda: ini.eye_(T.empty(3, 3, 3))),
    ]


@program()
def prog_nns_init_zero_element_warning_and_no_grad(T: Any) -> Any:
    ini = T.nn.init
    t = T.empty(0, 3)
    r1 = ini.kaiming_uniform_(t)
    p = T.nn.Parameter(T.empty(2, 2))
    ini.constant_(p, 0.3)
    ini.ones_(p)
    return r1.shape, p, p.grad_fn, p.is_leaf, p._version


# --- pooling and convolution errors --------------------------------------------------------------


@program()
def prog_nns_pool_shape_errors(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    x = _x(T, 1, 1, 2, 2)
    return [
        raises(lambda: nn.MaxPool2d(3)(x)),
        raises(lambda: nn.MaxPool2d(2, padding=2)(x)),
        raises(lambda: nn.AvgPool2d(3)(x)),
        raises(lambda: nn.AvgPool2d(2, padding=2)(x)),
        raises(lambda: F.max_pool1d(_x(T, 1, 4), 0)),
        raises(lambda: F.max_pool2d(_x(T, 2), 1)),
        raises(lambda: F.adaptive_avg_pool2d(_x(T, 1, 1, 2, 2), (1, 2, 3))),
        raises(lambda: nn.MaxPool2d(2, stride=0)(x)),
        raises(lambda: nn.MaxPool2d(1, dilation=0)(x)),
    ]


@program()
def prog_nns_maxpool_indices_unpool_and_grad(T: Any) -> Any:
    nn = T.nn
    pool = nn.MaxPool2d(2, stride=2, return_indices=True, ceil_mode=True)
    unpool = nn.MaxUnpool2d(2, stride=2)
    x = _x(T, 1, 2, 5, 5, rg=True)
    y, idx = pool(x)
    z = unpool(y, idx, output_size=x.shape[-2:])
    z.sum().backward()
    e = raises(lambda: unpool(y, idx, output_size=(9, 9)))
    return y, idx, z, x.grad, y.grad_fn, z.grad_fn, e


@program()
def prog_nns_avgpool_options_and_lppool(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 1, 5, 5, rg=True)
    a = nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)(x)
    b = nn.AvgPool2d(3, stride=2, padding=1, divisor_override=2)(x)
    c = nn.AvgPool2d(2, ceil_mode=True)(x)
    d = nn.LPPool2d(2, 2)(x.abs() + 0.1)
    (a.sum() + b.sum() + c.sum() + d.sum()).backward()
    return a, b, c, d, x.grad, d.grad_fn


@program()
def prog_nns_adaptive_pool_none_and_indices(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 2, 5, 7, rg=True)
    a = nn.AdaptiveAvgPool2d((None, 3))(x)
    b, i = nn.AdaptiveMaxPool2d((2, None), return_indices=True)(x)
    c = nn.AdaptiveMaxPool1d(3)(x[0])
    (a.sum() + b.sum() + c.sum()).backward()
    return a, b, i, c, x.grad, a.grad_fn, b.grad_fn


@program()
def prog_nns_conv_channel_and_kernel_errors(T: Any) -> Any:
    nn = T.nn
    c = nn.Conv2d(3, 4, 3)
    return [
        raises(lambda: c(_x(T, 1, 2, 5, 5))),
        raises(lambda: c(_x(T, 1, 3, 2, 2))),
        raises(lambda: c(_x(T, 3, 5))),
        raises(lambda: nn.Conv2d(3, 4, 3, groups=2)),
        raises(lambda: nn.Conv2d(4, 3, 3, groups=2)),
        raises(lambda: nn.Conv2d(4, 4, 3, padding="same", stride=2)),
        raises(lambda: nn.Conv2d(4, 4, 3, padding="foo")),
        # the message prints a set: its order varies from process to process
        getattr(raises(lambda: nn.Conv2d(4, 4, 3, padding_mode="wrap")), "type", None),
        raises(lambda: nn.Conv1d(2, 2, 3, groups=0)),
        raises(lambda: repr(nn.ConvTranspose2d(2, 2, 3, padding="same"))),
        raises(lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")),
    ]


@program()
def prog_nns_conv_padding_modes_same_and_grads(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 1, 2, 5, 6, rg=True)
    outs = []
    for mode in ["zeros", "reflect", "replicate", "circular"]:
        c = _seeded(T, nn.Conv2d(2, 3, 3, padding=1, padding_mode=mode), 8)
        outs.append(c(x))
    s = _seeded(T, nn.Conv2d(2, 2, (2, 3), padding="same", dilation=(2, 1)), 9)
    outs.append(s(x))
    sum(o.sum() for o in outs).backward()
    return outs, x.grad, [o.grad_fn for o in outs]


@program()
def prog_nns_conv_transpose_output_size(T: Any) -> Any:
    nn = T.nn
    ct = _seeded(T, nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1), 10)
    x = _x(T, 1, 2, 3, 3, rg=True)
    a = ct(x)
    b = ct(x, output_size=[6, 6])
    e = raises(lambda: ct(x, output_size=[8, 8]))
    e2 = raises(lambda: nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=2)(x))
    b.sum().backward()
    return a.shape, b, e, e2, x.grad, ct.weight.grad


@program()
def prog_nns_conv_groups_depthwise_and_unbatched(T: Any) -> Any:
    nn = T.nn
    dw = _seeded(T, nn.Conv1d(4, 8, 3, groups=4, bias=False), 11)
    x = _x(T, 4, 7, rg=True)
    y = dw(x)
    y2 = dw(x.unsqueeze(0))
    y.pow(2).sum().backward()
    return y, T.equal(y, y2[0]), x.grad, dw.weight.grad, y.grad_fn


# --- embedding and dropout ---------------------------------------------------------------------


@program()
def prog_nns_embedding_padding_idx_negative_and_grad(T: Any) -> Any:
    nn = T.nn
    e = _seeded(T, nn.Embedding(5, 3, padding_idx=-2), 12)
    idx = T.tensor([[0, 3, 3], [4, 1, 3]])
    y = e(idx)
    y.sum().backward()
    return (
        e.padding_idx,
        y,
        e.weight.grad,
        [
            raises(lambda: nn.Embedding(5, 3, padding_idx=5)),
            raises(lambda: nn.Embedding(5, 3, padding_idx=-6)),
            raises(lambda: e(T.tensor([5]))),
        ],
    )


@program()
def prog_nns_embedding_max_norm_renorms_in_place(T: Any) -> Any:
    nn = T.nn
    e = _seeded(T, nn.Embedding(4, 3, max_norm=0.3, norm_type=1.0), 13)
    v0 = e.weight._version
    idx = T.tensor([1, 2, 1])
    y = e(idx)
    y.sum().backward()
    return y, e.weight, e.weight._version - v0, e.weight.grad, y.grad_fn


@program()
def prog_nns_embedding_from_pretrained_and_sparse_flag(T: Any) -> Any:
    nn = T.nn
    w = T.tensor(_data(4, 2, seed=14))
    e = nn.Embedding.from_pretrained(w)
    e2 = nn.Embedding.from_pretrained(w, freeze=False, padding_idx=0)
    y = e2(T.tensor([0, 2]))
    y.sum().backward()
    return (
        e.weight.requires_grad,
        e2.weight.requires_grad,
        e2.weight.grad,
        raises(lambda: nn.Embedding.from_pretrained(T.ones(3))),
        repr(e2),
        repr(nn.Embedding(3, 2, max_norm=1.0, scale_grad_by_freq=True, sparse=True)),
    )


@program()
def prog_nns_dropout_modes_and_errors(T: Any) -> Any:
    nn = T.nn
    x = T.ones(2, 3, 4, 4, requires_grad=True)
    T.manual_seed(5)
    d = nn.Dropout(0.4)
    y = d(x)
    d2 = nn.Dropout2d(0.5)
    y2 = d2(x)
    d.eval()
    y3 = d(x)
    (y.sum() + y2.sum()).backward()
    return (
        y,
        y2,
        y3 is x,
        x.grad,
        y.grad_fn,
        raises(lambda: nn.Dropout(1.5)),
        raises(lambda: nn.Dropout(-0.1)),
        repr(nn.Dropout(0.2, inplace=True)),
    )


@program()
def prog_nns_dropout2d_3d_input_warns(T: Any) -> Any:
    T.manual_seed(2)
    x = T.ones(3, 4, 4)
    y = T.nn.Dropout2d(0.5)(x)
    z = T.nn.Dropout1d(0.5)(T.ones(2, 3))
    return y, z


@program()
def prog_nns_alpha_dropout_train_eval(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(6)
    x = _x(T, 4, 5, rg=True)
    y = nn.AlphaDropout(0.3)(x)
    z = nn.FeatureAlphaDropout(0.3)(_x(T, 2, 3, 4))
    y.sum().backward()
    return y, z, x.grad, nn.AlphaDropout(0.3).eval()(x) is x


# --- lr schedulers -----------------------------------------------------------------------------


def _sgd(T: Any, lr: float = 0.1, n: int = 1, **kw: Any) -> Any:
    ps = [T.nn.Parameter(T.tensor(_data(2, seed=i))) for i in range(n)]
    return T.optim.SGD([{"params": [p]} for p in ps], lr=lr, **kw)


def _run(opt: Any, sch: Any, n: int, *metrics: Any) -> list[Any]:
    out = []
    for i in range(n):
        opt.step()
        if metrics:
            sch.step(metrics[i])
        else:
            sch.step()
        out.append([round(g["lr"], 12) for g in opt.param_groups])
    return out


@program()
def prog_nns_sched_custom_subclass_closed_form(T: Any) -> Any:
    S = T.optim.lr_scheduler

    class Halve(S.LRScheduler):
        def __init__(self, opt, every, last_epoch=-1):
            self.every = every
            super().__init__(opt, last_epoch)

        def get_lr(self):
            if self.last_epoch > 0 and self.last_epoch % self.every == 0:
                return [g["lr"] * 0.5 for g in self.optimizer.param_groups]
            return [g["lr"] for g in self.optimizer.param_groups]

    opt = _sgd(T, n=2)
    sch = Halve(opt, 2)
    tr = _run(opt, sch, 6)
    return tr, sch.get_last_lr(), sch.last_epoch, sorted(sch.state_dict()), sch.base_lrs


@program()
def prog_nns_sched_lambda_list_errors_and_per_group(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T, n=2)
    e = raises(lambda: S.LambdaLR(opt, [lambda e: 1.0]))
    sch = S.LambdaLR(opt, [lambda e: 0.9**e, lambda e: 1.0 / (e + 1)])
    tr = _run(opt, sch, 4)
    sd = sch.state_dict()
    return e, tr, sd["lr_lambdas"], sd["last_epoch"], sd["_last_lr"]


@program()
def prog_nns_sched_constructor_errors(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T)
    return [
        raises(lambda: S.LinearLR(opt, start_factor=0.0)),
        raises(lambda: S.LinearLR(opt, end_factor=1.5)),
        raises(lambda: S.ConstantLR(opt, factor=1.5)),
        raises(lambda: S.CosineAnnealingWarmRestarts(opt, T_0=0)),
        raises(lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)),
        raises(lambda: S.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="a")),
        raises(lambda: S.ReduceLROnPlateau(opt, factor=1.0)),
        raises(lambda: S.ReduceLROnPlateau(opt, mode="up")),
        raises(lambda: S.ReduceLROnPlateau(opt, threshold_mode="x")),
        raises(lambda: S.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])),
        raises(lambda: S.OneCycleLR(opt, max_lr=1.0)),
        raises(lambda: S.OneCycleLR(opt, max_lr=1.0, total_steps=0)),
        raises(lambda: S.OneCycleLR(opt, max_lr=1.0, epochs=2, steps_per_epoch=-1)),
        raises(lambda: S.OneCycleLR(opt, max_lr=1.0, total_steps=5, anneal_strategy="x")),
        raises(lambda: S.OneCycleLR(opt, max_lr=1.0, total_steps=5, pct_start=1.5)),
        raises(lambda: S.CyclicLR(opt, 0.1, 1.0, mode="x")),
        raises(lambda: S.CyclicLR(opt, 0.1, 1.0)),
        raises(lambda: S.StepLR("opt", 2)),
        raises(lambda: S.SequentialLR(opt, [S.StepLR(opt, 2)], milestones=[1])),
        raises(lambda: S.SequentialLR(opt, [S.StepLR(opt, 2), S.StepLR(opt, 3)], milestones=[])),
        raises(lambda: S.SequentialLR(opt, [], milestones=[])),
        raises(lambda: S.SequentialLR(_sgd(T), [S.StepLR(opt, 2), S.StepLR(opt, 3)], [2])),
        raises(lambda: S.ChainedScheduler([S.StepLR(opt, 2), S.StepLR(_sgd(T), 2)])),
    ]


@program()
def prog_nns_sched_onecycle_overstep_error(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T, momentum=0.9)
    sch = S.OneCycleLR(opt, max_lr=0.5, total_steps=4, div_factor=5.0, final_div_factor=10.0)
    tr = [(g["lr"], g["momentum"]) for g in opt.param_groups]
    for _ in range(3):
        opt.step()
        sch.step()
        tr.append((opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"]))
    opt.step()
    return tr, raises(sch.step), opt.param_groups[0]["initial_lr"], opt.param_groups[0]["max_lr"]


@program()
def prog_nns_sched_cyclic_adam_betas_exp_range(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.Adam([p], lr=0.01, betas=(0.9, 0.99))
    sch = S.CyclicLR(
        opt,
        base_lr=0.001,
        max_lr=0.01,
        step_size_up=2,
        step_size_down=3,
        mode="exp_range",
        gamma=0.9,
        base_momentum=0.8,
        max_momentum=0.95,
    )
    out = []
    for _ in range(8):
        p.grad = T.ones(2)
        opt.step()
        sch.step()
        out.append((opt.param_groups[0]["lr"], opt.param_groups[0]["betas"]))
    return out, p, sorted(k for k in sch.state_dict() if not k.startswith("_"))


@program()
def prog_nns_sched_plateau_max_abs_cooldown_trace(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T, n=2)
    sch = S.ReduceLROnPlateau(
        opt,
        mode="max",
        factor=0.5,
        patience=1,
        threshold=0.1,
        threshold_mode="abs",
        cooldown=1,
        min_lr=[0.01, 0.04],
    )
    metrics = [1.0, 1.05, 1.02, 1.2, 1.25, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    tr = _run(opt, sch, len(metrics), *metrics)
    return tr, sch.best, sch.num_bad_epochs, sch.cooldown_counter, sch.get_last_lr(), sch.last_epoch


@program()
def prog_nns_sched_chained_with_optimizer_arg(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T, lr=1.0)
    a = S.ConstantLR(opt, factor=0.5, total_iters=2)
    b = S.ExponentialLR(opt, gamma=0.9)
    ch = S.ChainedScheduler([a, b], optimizer=opt)
    tr = _run(opt, ch, 5)
    sd = ch.state_dict()
    return tr, ch.get_last_lr(), sorted(sd), [sorted(s) for s in sd["_schedulers"]]


@program()
def prog_nns_sched_sequential_state_round_trip(T: Any) -> Any:
    S = T.optim.lr_scheduler

    def make():
        opt = _sgd(T, lr=1.0)
        s1 = S.LinearLR(opt, start_factor=0.1, total_iters=3)
        s2 = S.StepLR(opt, step_size=2, gamma=0.5)
        return opt, S.SequentialLR(opt, [s1, s2], milestones=[3])

    opt, sch = make()
    tr = _run(opt, sch, 4)
    sd = sch.state_dict()
    opt2, sch2 = make()
    sch2.load_state_dict(sd)
    opt2.load_state_dict(opt.state_dict())
    tr1 = _run(opt, sch, 4)
    tr2 = _run(opt2, sch2, 4)
    return tr, tr1, tr2, sch2.last_epoch, sch2._milestones


@program()
def prog_nns_sched_optimizer_step_overridden_warning(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T)
    sch = S.StepLR(opt, 1, gamma=0.5)
    orig = opt.step

    def step(*a, **k):
        return orig(*a, **k)

    opt.step = step
    opt.step()
    sch.step()
    return opt.param_groups[0]["lr"]


@program()
def prog_nns_sched_swalr_and_averaged_model(T: Any) -> Any:
    U = T.optim.swa_utils
    m = _lin(T)
    opt = T.optim.SGD(m.parameters(), lr=0.5)
    swa = U.AveragedModel(m)
    sch = U.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
    tr = []
    for i in range(5):
        m.zero_grad()
        m(_x(T, 2, 3, seed=i)).pow(2).sum().backward()
        opt.step()
        swa.update_parameters(m)
        sch.step()
        tr.append(opt.param_groups[0]["lr"])
    return (
        tr,
        swa.n_averaged,
        swa.module.weight,
        [n for n, _ in swa.named_buffers()],
        raises(lambda: U.SWALR(opt, swa_lr=0.1, anneal_strategy="x")),
        raises(lambda: U.SWALR(opt, swa_lr=0.1, anneal_epochs=-1)),
    )


@program()
def prog_nns_sched_cosine_recursive_vs_closed_form(T: Any) -> Any:
    S = T.optim.lr_scheduler
    opt = _sgd(T, lr=0.3)
    sch = S.CosineAnnealingLR(opt, T_max=4, eta_min=0.01)
    tr = _run(opt, sch, 10)
    return tr, sch._get_closed_form_lr(), sch.get_last_lr()


# --- data -------------------------------------------------------------------------------------


class _Sq:
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> Any:
        if i >= self.n:
            raise IndexError(i)
        return {"x": [i, i * 2], "y": float(i) / 2, "name": f"s{i}", "flag": i % 2 == 0}


@program()
def prog_nns_data_collate_nested_dict_list_str_bool(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(_Sq(5), batch_size=2)
    return list(dl), len(dl)


@program()
def prog_nns_data_collate_errors(T: Any) -> Any:
    D = T.utils.data
    c = D.default_collate
    return [
        raises(lambda: c([T.ones(2), T.ones(3)])),
        raises(lambda: c([[1, 2], [3]])),
        raises(lambda: c([object(), object()])),
        c([(1, 2.0), (3, 4.0)]),
        c([T.tensor(1), T.tensor(2)]),
        c([T.ones(2, dtype=T.int8), T.zeros(2, dtype=T.int8)]),
        c([1.5, 2]),
        c([True, False]),
        c(["a", "b"]),
        D.default_convert([1, 2]),
    ]


@program()
def prog_nns_data_collate_namedtuple_and_numpy(T: Any) -> Any:
    import numpy as np

    D = T.utils.data
    P = collections.namedtuple("P", ["a", "b"])
    out = D.default_collate(
        [P(np.array([1.0, 2.0]), np.float32(3)), P(np.array([3.0, 4.0]), np.float32(5))]
    )
    conv = D.default_convert(P(np.arange(3), "s"))
    return type(out).__name__, out.a, out.b, type(conv).__name__, conv.a, conv.b


@program()
def prog_nns_dataloader_option_errors(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(6.0))

    class It(D.IterableDataset):
        def __iter__(self):
            return iter(range(3))

    bs = D.BatchSampler(D.SequentialSampler(ds), 2, False)
    return [
        raises(lambda: D.DataLoader(ds, sampler=[0, 1], shuffle=True)),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, batch_size=3)),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, drop_last=True)),
        raises(lambda: D.DataLoader(ds, batch_size=None, drop_last=True)),
        raises(lambda: D.DataLoader(ds, num_workers=-1)),
        raises(lambda: D.DataLoader(ds, timeout=-1)),
        raises(lambda: D.DataLoader(ds, prefetch_factor=2)),
        raises(lambda: D.DataLoader(ds, persistent_workers=True)),
        raises(lambda: D.DataLoader(It(), shuffle=True)),
        raises(lambda: D.DataLoader(It(), sampler=[0])),
        raises(lambda: D.DataLoader(It(), batch_sampler=[[0]])),
        raises(lambda: len(D.DataLoader(It()))),
    ]


@program()
def prog_nns_dataloader_batch_size_none_and_list_sampler(T: Any) -> Any:
    import numpy as np

    D = T.utils.data

    class A(D.Dataset):
        def __getitem__(self, i):
            return np.full(2, i, dtype=np.float64), i

        def __len__(self):
            return 4

    a = list(D.DataLoader(A(), batch_size=None))
    b = list(D.DataLoader(A(), batch_size=3, sampler=[3, 1, 0, 2]))
    c = list(D.DataLoader(A(), batch_sampler=[[0, 3], [1]]))
    d = list(
        D.DataLoader(A(), batch_size=3, drop_last=True, collate_fn=lambda b: [x[1] for x in b])
    )
    return a, b, c, d


@program()
def prog_nns_dataloader_shuffle_seeded_global_and_generator(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(10), T.arange(10) * 10)
    T.manual_seed(7)
    a = [b[0].tolist() for b in D.DataLoader(ds, batch_size=4, shuffle=True)]
    after = T.rand(2)
    g = T.Generator().manual_seed(3)
    dl = D.DataLoader(ds, batch_size=3, shuffle=True, generator=g, drop_last=True)
    b1 = [b[1].tolist() for b in dl]
    b2 = [b[1].tolist() for b in dl]
    return a, after, b1, b2, len(dl)


@program()
def prog_nns_samplers_arguments_and_errors(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(4)
    r = list(D.RandomSampler(range(5), replacement=True, num_samples=8))
    r2 = list(D.RandomSampler(range(5), num_samples=7))
    w = list(D.WeightedRandomSampler([0.1, 0.0, 0.9, 0.5], 6))
    w2 = list(D.WeightedRandomSampler([1.0, 2.0, 3.0], 3, replacement=False))
    s = list(D.SubsetRandomSampler([10, 20, 30, 40]))
    b = list(D.BatchSampler(range(7), 3, drop_last=False))
    return [
        r,
        r2,
        w,
        w2,
        s,
        b,
        len(D.BatchSampler(range(7), 3, True)),
        raises(lambda: D.RandomSampler(range(3), replacement=1)),
        raises(lambda: D.RandomSampler(range(3), num_samples=0)),
        raises(lambda: D.BatchSampler(range(3), 0, False)),
        raises(lambda: D.BatchSampler(range(3), 2, 1)),
        raises(lambda: D.WeightedRandomSampler([[1.0, 2.0]], 2)),
        raises(lambda: D.WeightedRandomSampler([1.0, 2.0], 0)),
        raises(lambda: D.WeightedRandomSampler([1.0, 2.0], 2, replacement=0)),
        raises(lambda: list(D.WeightedRandomSampler([1.0, 2.0], 3, replacement=False))),
    ]


@program()
def prog_nns_datasets_concat_stack_subset_split(T: Any) -> Any:
    D = T.utils.data
    a = D.TensorDataset(T.arange(3))
    b = D.TensorDataset(T.arange(10, 14))
    c = a + b
    st = D.StackDataset(a, D.TensorDataset(T.arange(3) * 2))
    sd = D.StackDataset(x=a, y=D.TensorDataset(T.arange(3.0)))
    g = T.Generator().manual_seed(1)
    parts = D.random_split(range(10), [0.5, 0.3, 0.2], generator=g)
    return [
        len(c),
        c[-1],
        c[3],
        c.cumulative_sizes,
        raises(lambda: c[-8]),
        raises(lambda: D.ConcatDataset([])),
        st[1],
        sd[2],
        len(sd),
        raises(lambda: D.StackDataset(a, b)),
        raises(lambda: D.StackDataset(a, x=b)),
        [list(p) for p in parts],
        [p.indices for p in parts],
        raises(lambda: D.random_split(range(5), [2, 2])),
        raises(lambda: D.TensorDataset(T.ones(2), T.ones(3))),
        D.Subset(b, [3, 0])[1],
        len(D.Subset(b, [3, 0])),
    ]


@program()
def prog_nns_random_split_empty_part_warns(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(0)
    parts = D.random_split(range(3), [0.5, 0.5, 0.0], generator=g)
    return [list(p) for p in parts]


@program()
def prog_nns_iterable_dataset_len_mismatch_warns(T: Any) -> Any:
    D = T.utils.data

    class It(D.IterableDataset):
        def __iter__(self):
            return iter(T.arange(5.0))

        def __len__(self):
            return 3

    dl = D.DataLoader(It(), batch_size=2)
    n = len(dl)
    batches = list(dl)
    dl2 = D.DataLoader(It(), batch_size=2, drop_last=True)
    return n, batches, len(dl2), list(dl2)


@program()
def prog_nns_chain_dataset_and_iterable_concat_error(T: Any) -> Any:
    D = T.utils.data

    class It(D.IterableDataset):
        def __init__(self, lo, hi):
            self.lo, self.hi = lo, hi

        def __iter__(self):
            return iter(range(self.lo, self.hi))

    ch = It(0, 2) + It(5, 7)
    return (
        type(ch).__name__,
        list(ch),
        list(D.DataLoader(ch, batch_size=3)),
        raises(lambda: D.ConcatDataset([It(0, 2)])),
    )


@program()
def prog_nns_train_loop_with_loader_and_scheduler(T: Any) -> Any:
    nn = T.nn
    D = T.utils.data
    T.manual_seed(11)
    X = T.randn(12, 3)
    y = (X.sum(1, keepdim=True) > 0).float()
    dl = D.DataLoader(D.TensorDataset(X, y), batch_size=4, shuffle=True)
    m = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), 3)
    opt = T.optim.SGD(m.parameters(), lr=0.5, momentum=0.9, nesterov=True)
    sch = T.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 2], gamma=0.3)
    losses = []
    for _ in range(3):
        for xb, yb in dl:
            opt.zero_grad()
            loss = nn.functional.binary_cross_entropy_with_logits(m(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.detach())
        sch.step()
    return losses, m[0].weight, sch.get_last_lr(), opt.state_dict()["state"][0]


@program()
def prog_nns_module_to_argument_parsing(T: Any) -> Any:
    nn = T.nn
    cases = [
        ((T.float32, T.float64), {}),
        (("cpu", "cpu"), {}),
        ((), {"dtype": "float"}),
        ((T.float32,), {"dtype": T.float64}),
        ((T.ones(1), T.float64), {}),
        ((), {"foo": 1}),
        ((T.float16, True, True, 5), {}),
        ((T.float16,), {"device": "cpu"}),
        ((T.ones(1),), {"dtype": T.float16}),
        ((), {"tensor": T.ones(1, dtype=T.float64)}),
        ((T.float64, None), {}),
        ((T.float64,), {"non_blocking": None}),
        ((T.float16, 1), {}),
        ((T.float16,), {"copy": False}),
        (("cpu", T.float16, True), {}),
        ((float,), {}),
        ((1.5,), {}),
        ((True,), {}),
        (("cpu", T.float16, False, False, 7), {}),
        ((None,), {}),
        ((), {"device": None, "dtype": T.float64}),
        ((T.float16, True), {"non_blocking": False}),
    ]
    out = []
    for a, k in cases:
        m = nn.Conv2d(1, 1, 1)
        m.register_buffer("n", T.zeros(2, dtype=T.int64))
        r = raises(lambda m=m, a=a, k=k: m.to(*a, **k))
        out.append(r if not isinstance(r, nn.Module) else (m.weight.dtype, m.n.dtype))
    return out


@program()
def prog_nns_module_to_memory_format_converts_4d_only(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(_seeded(T, nn.Conv2d(2, 3, 2), 21), _lin(T, 3, 2))
    m.register_buffer("grid", T.arange(16.0).reshape(1, 1, 4, 4))
    m[0].weight.grad = T.ones(3, 2, 2, 2)
    w = m[0].weight
    m.to(memory_format=T.channels_last)
    cl = T.channels_last
    m.to(T.float64, memory_format=cl)
    return (
        m[0].weight is w,
        m[0].weight.is_contiguous(memory_format=cl),
        m[0].weight.stride(),
        m.grid.stride(),
        m[1].weight.stride(),
        m[0].weight.grad.dtype,
        m[0].weight,
        m.grid.dtype,
    )


@program()
def prog_nns_global_registration_hooks(T: Any) -> Any:
    nn = T.nn
    mm = T.nn.modules.module
    log = []

    def on_buffer(mod, name, buf):
        log.append(("buf", type(mod).__name__, name, None if buf is None else tuple(buf.shape)))
        return None if buf is None else buf + 1

    def on_param(mod, name, p):
        log.append(("param", type(mod).__name__, name))

    def on_module(mod, name, sub):
        log.append(("mod", type(mod).__name__, name, type(sub).__name__))
        return nn.Identity() if isinstance(sub, nn.ReLU) else None

    hs = [
        mm.register_module_buffer_registration_hook(on_buffer),
        mm.register_module_parameter_registration_hook(on_param),
        mm.register_module_module_registration_hook(on_module),
    ]
    try:
        m = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(1), nn.ReLU())
        m.extra = nn.Parameter(T.ones(1))
        m.register_buffer("count", T.zeros(2))
        m.count = T.ones(2)
        m.act = nn.ReLU()
        m.add_module("none", None)
    finally:
        for h in hs:
            h.remove()
    nn.Linear(1, 1)
    return log, m[1].running_var, m.count, [type(c).__name__ for c in m.children()]


@program()
def prog_nns_register_buffer_override_without_persistent(T: Any) -> Any:
    nn = T.nn
    calls = []

    class Old(nn.Module):
        def register_buffer(self, name, tensor):  # written before `persistent` existed
            calls.append(name)
            super().register_buffer(name, tensor)

    m = Old()
    m.register_buffer("a", T.zeros(1))
    m.a = T.ones(1)
    e = raises(lambda: setattr(m, "b", nn.Buffer(T.ones(1), persistent=False)))
    return calls, m.a, e, list(m.state_dict())


@program()
def prog_nns_tensor_to_memory_format_restrides(T: Any) -> Any:
    cl, cf = T.channels_last, T.contiguous_format
    w = T.arange(18.0).reshape(2, 1, 3, 3)
    img = T.arange(48.0).reshape(1, 3, 4, 4).to(memory_format=cl)
    t = T.ones(3, 2).t()
    v = T.arange(6.0).reshape(1, 6, 1, 1)
    return (
        w.to(memory_format=cl).stride(),
        w.contiguous(memory_format=cl).stride(),
        w.clone(memory_format=cl).stride(),
        w.to(T.float64, memory_format=cl).stride(),
        img.to(memory_format=cf).stride(),
        img.to(memory_format=cf) is img,
        img.to(memory_format=cl) is img,
        img.to(T.float64, memory_format=cf).stride(),
        t.to(memory_format=cf) is t,
        v.to(memory_format=cl).stride(),
        T.ones(2, 1, 1, 5, 1).to(memory_format=T.channels_last_3d).stride(),
        w.to(memory_format=cl),
    )


@program()
def prog_nns_tensor_to_argument_parsing(T: Any) -> Any:
    x = T.ones(2, 3, 4, 4, requires_grad=True)
    cases = [
        ((T.float32, T.float64), {}),
        ((), {"dtype": "x"}),
        ((1.5,), {}),
        ((T.float16, 1), {}),
        ((T.ones(1), T.float16), {}),
        (("cpu", "cpu"), {}),
        ((None,), {}),
        ((T.float16,), {"copy": 1}),
        ((), {"foo": 1}),
        ((float,), {}),
        ((T.float16, True, True, True, 1), {}),
        ((T.ones(1),), {"memory_format": T.channels_last}),
        (("cpu", T.float64, False, True), {}),
        ((T.ones(1, dtype=T.float16), False, True), {}),
        ((T.float32,), {"copy": True}),
        ((True,), {}),
        ((T.nn.Parameter(T.ones(1)), 1.5), {}),
        ((T.float64,), {"memory_format": T.contiguous_format, "non_blocking": True}),
        ((), {}),
    ]
    out = []
    for a, k in cases:
        r = raises(lambda a=a, k=k: x.to(*a, **k))
        out.append(r if not isinstance(r, T.Tensor) else (r.dtype, r is x, r.stride(), r.grad_fn))
    return out


@program()
def prog_nns_module_accelerator_moves_on_cpu_build(T: Any) -> Any:
    nn = T.nn
    out = []
    makers = [
        lambda: nn.Linear(1, 1),
        lambda: nn.ReLU(),
        lambda: nn.Sequential(nn.ReLU(), nn.BatchNorm1d(2, affine=False)),
    ]
    for mk in makers:
        for name in ["cuda", "xpu", "ipu", "mtia", "cpu"]:
            m = mk()
            r = raises(lambda m=m, name=name: getattr(m, name)())
            out.append(r if not isinstance(r, nn.Module) else (name, r is m))
    return out


# --- containers --------------------------------------------------------------------------------


@program()
def prog_nns_sequential_slicing_mul_and_repr_collapse(T: Any) -> Any:
    nn = T.nn
    s = nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)], nn.ReLU(), nn.ReLU(), nn.Linear(2, 1))
    sl = s[1:4]
    s2 = s[:2] * 2
    s3 = s[:1] + nn.Sequential(nn.Tanh())
    p = s.pop(3)
    s.insert(0, nn.Identity())
    s.append(nn.Sigmoid())
    s.extend([nn.Tanh()])
    e = raises(lambda: s[20])
    del s[1]
    return (
        repr(s),
        type(sl).__name__,
        [n for n, _ in sl.named_children()],
        len(s2),
        s2[0] is s2[2],
        repr(s3),
        type(p).__name__,
        e,
        [n for n, _ in s.named_children()],
        # the messages name the class by its module path: compare the exception types
        getattr(raises(lambda: s * 0), "type", None),
        getattr(raises(lambda: s * 1.5), "type", None),
    )


@program()
def prog_nns_modulelist_ops_and_errors(T: Any) -> Any:
    nn = T.nn
    ml = nn.ModuleList([nn.Linear(1, 1), nn.ReLU(), nn.Tanh()])
    ml2 = ml + nn.ModuleList([nn.Sigmoid()])
    e0 = raises(lambda: ml.insert(-1, nn.ELU()))
    ml.insert(1, nn.ELU())
    del ml[0]
    ml[-1] = nn.GELU()
    out = [
        e0,
        [type(m).__name__ for m in ml],
        [n for n, _ in ml.named_children()],
        [type(m).__name__ for m in ml[1:]],
        len(ml2),
        raises(lambda: ml[7]),
        raises(lambda: ml.extend(nn.ReLU())),
        raises(lambda: ml.append(3)),
        raises(lambda: ml(T.ones(1))),
        type(ml.pop(0)).__name__,
        repr(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()])),
    ]
    return out


@program()
def prog_nns_moduledict_and_parameterdict_ops(T: Any) -> Any:
    nn = T.nn
    md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
    md.update([("c", nn.Sigmoid())])
    md.update(nn.ModuleDict({"a": nn.ELU()}))
    e1 = raises(lambda: md.update([("x",)]))
    e2 = raises(lambda: md.update(3))
    popped = md.pop("b")
    pd = nn.ParameterDict({"w": nn.Parameter(T.ones(2)), "t": T.zeros(3)})
    pd["s"] = "not a tensor"
    pd.setdefault("u", T.ones(1))
    pd2 = pd | nn.ParameterDict({"v": T.ones(2, 2)})
    return (
        list(md.keys()),
        [type(m).__name__ for m in md.values()],
        e1,
        e2,
        type(popped).__name__,
        "b" in md,
        [(k, type(v).__name__) for k, v in pd.items()],
        pd["t"].requires_grad,
        [n for n, _ in pd.named_parameters()],
        list(pd2.keys()),
        repr(pd),
        raises(lambda: pd["zz"]),
    )


@program()
def prog_nns_parameterlist_mixed_and_grads(T: Any) -> Any:
    nn = T.nn
    pl = nn.ParameterList([T.ones(2), nn.Parameter(T.full((2,), 2.0)), "meta"])
    pl.append(T.zeros(2, dtype=T.float64))
    pl.extend([T.ones(1, requires_grad=False)])
    y = (pl[0] * pl[1]).sum() + pl[3].sum()
    y.backward()
    return (
        [type(p).__name__ for p in pl],
        [n for n, _ in pl.named_parameters()],
        pl[0].grad,
        pl[1].grad,
        pl[3].grad,
        repr(pl),
        len(pl),
        type(pl[-2:]).__name__,
    )


@program()
def prog_nns_module_without_forward_and_none_children(T: Any) -> Any:
    nn = T.nn

    class Empty(nn.Module):
        pass

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(1, 1)
            self.b = None
            self.register_module("c", None)
            self.register_parameter("p", None)

    h = Holder()
    return (
        raises(lambda: Empty()(T.ones(1))),
        [n for n, _ in h.named_children()],
        [n for n, _ in h.named_parameters()],
        h.b,
        h.c,
        h.p,
        _keys(h.state_dict()),
        repr(h),
        raises(lambda: h.nothing),
    )


@program()
def prog_nns_deepcopy_shared_params_and_hooks(T: Any) -> Any:
    import copy

    nn = T.nn
    a = _lin(T, 2, 2)
    m = nn.Sequential(a, nn.ReLU(), a)
    log = []
    m.register_forward_hook(lambda mod, i, o: log.append("hook"))
    c = copy.deepcopy(m)
    y = c(T.ones(1, 2))
    y.sum().backward()
    return (
        c[0] is c[2],
        c[0].weight is m[0].weight,
        c[0].weight.grad,
        m[0].weight.grad,
        log,
        c[0].weight.is_leaf,
        len(list(c.parameters())),
    )


@program()
def prog_nns_non_leaf_grad_warning_and_retain(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T), T.nn.Tanh())
    x = _x(T, 2, 3, rg=True)
    h = m[0](x)
    y = m[1](h)
    h.retain_grad()
    y.sum().backward()
    return h.grad, y.grad, y.is_leaf, h.grad_fn, x.grad


# --- utils -------------------------------------------------------------------------------------


@program()
def prog_nns_clip_grad_norm_inf_nonfinite_and_foreach(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(_lin(T), _lin(T, 2, 2, seed=3))
    m(_x(T, 4, 3)).pow(2).sum().backward()
    gs = [p.grad.clone() for p in m.parameters()]
    n1 = nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=float("inf"))
    n2 = nn.utils.clip_grad_norm_(m.parameters(), 0.1, norm_type=1.0, foreach=False)
    a = [p.grad.clone() for p in m.parameters()]
    m[0].bias.grad[0] = float("nan")
    e = raises(lambda: nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
    n3 = nn.utils.clip_grad_norm_([], 1.0)
    nn.utils.clip_grad_value_(m[1].parameters(), 0.01)
    e2 = raises(lambda: nn.utils.clip_grad_value_(m.parameters(), None))
    return gs, n1, n2, a, e, n3, [p.grad for p in m[1].parameters()], e2


@program()
def prog_nns_total_norm_and_clip_with_norm(T: Any) -> Any:
    nn = T.nn
    gs = [T.tensor(_data(3, seed=1)), T.tensor(_data(2, 2, seed=2))]
    tn = nn.utils.get_total_norm(gs, norm_type=2.0)
    ps = [T.nn.Parameter(T.zeros(3)), T.nn.Parameter(T.zeros(2, 2))]
    for p, g in zip(ps, gs, strict=True):
        p.grad = g.clone()
    nn.utils.clip_grads_with_norm_(ps, 1.0, tn)
    return tn, [p.grad for p in ps], nn.utils.get_total_norm(gs, norm_type=3.0)


@program()
def prog_nns_parameters_vector_round_trip_and_errors(T: Any) -> Any:
    nn = T.nn
    m = _lin(T)
    v = nn.utils.parameters_to_vector(m.parameters())
    nn.utils.vector_to_parameters(v * 2, m.parameters())
    return (
        v,
        v.grad_fn,
        m.weight,
        raises(lambda: nn.utils.vector_to_parameters([1.0], m.parameters())),
        raises(lambda: nn.utils.vector_to_parameters(T.ones(3), m.parameters())),
    )


@program()
def prog_nns_prune_l1_random_global_and_remove(T: Any) -> Any:
    P = importlib.import_module(T.__name__ + ".nn.utils.prune")
    a = _lin(T, 4, 3, seed=15)
    P.l1_unstructured(a, "weight", amount=0.5)
    names = ([n for n, _ in a.named_parameters()], [n for n, _ in a.named_buffers()])
    w = a.weight
    P.l1_unstructured(a, "weight", amount=2)
    w2 = a.weight
    y = a(_x(T, 2, 4))
    y.sum().backward()
    g = a.weight_orig.grad
    P.remove(a, "weight")
    b = _lin(T, 4, 3, seed=16)
    c = _lin(T, 3, 3, seed=17)
    P.global_unstructured([(b, "weight"), (c, "weight")], pruning_method=P.L1Unstructured, amount=6)
    d = _lin(T, 4, 3, seed=18)
    P.ln_structured(d, "weight", amount=1, n=2, dim=0)
    return (
        names,
        w,
        w2,
        g,
        a.weight,
        [n for n, _ in a.named_parameters()],
        b.weight_mask,
        c.weight_mask,
        d.weight_mask,
        P.is_pruned(d),
        raises(lambda: P.l1_unstructured(_lin(T), "weight", amount=1.5)),
        raises(lambda: P.l1_unstructured(_lin(T), "weight", amount=10)),
        raises(lambda: P.remove(_lin(T), "weight")),
    )


@program()
def prog_nns_functional_call_tied_and_strict(T: Any) -> Any:
    fc = T.func.functional_call
    m = _lin(T)
    w = T.ones(2, 3, requires_grad=True)
    x = _x(T, 1, 3)
    y = fc(m, {"weight": w}, (x,))
    y.sum().backward()
    e = raises(lambda: fc(m, {"weight": w}, (x,), strict=True))
    e2 = raises(lambda: fc(m, {"nope": w}, (x,), strict=True))
    y2 = fc(m, ({"weight": w}, {"bias": T.zeros(2)}), x)
    e3 = raises(lambda: fc(m, ({"weight": w}, {"weight": w}), x))
    return y, w.grad, m.weight.grad, e, e2, y2, e3, m.weight


@program()
def prog_nns_fuse_conv_bn_eval_matches(T: Any) -> Any:
    nn = T.nn
    conv = _seeded(T, nn.Conv2d(2, 3, 3), 19)
    bn = nn.BatchNorm2d(3)
    with T.no_grad():
        bn.running_mean.copy_(T.tensor([0.1, -0.2, 0.3]))
        bn.running_var.copy_(T.tensor([1.5, 0.5, 2.0]))
        bn.weight.copy_(T.tensor([1.0, 2.0, 0.5]))
    conv.eval()
    bn.eval()
    fused = nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
    x = _x(T, 1, 2, 4, 4)
    return fused(x), bn(conv(x)), fused.weight.requires_grad, type(fused.weight).__name__


@program()
def prog_nns_skip_init_and_lazy_linear(T: Any) -> Any:
    nn = T.nn
    s = nn.utils.skip_init(nn.Linear, 3, 2)
    lz = nn.LazyLinear(4)
    before = (repr(lz), type(lz.weight).__name__, _keys(lz.state_dict()))
    T.manual_seed(0)
    y = lz(_x(T, 2, 5))
    return (
        s.weight.shape,
        type(s).__name__,
        before,
        type(lz).__name__,
        lz.weight.shape,
        y.shape,
        lz.in_features,
        raises(lambda: nn.utils.skip_init(3)),
    )


@program()
def prog_nns_lazy_state_dict_load_initializes(T: Any) -> Any:
    nn = T.nn
    src = _lin(T, 5, 4)
    lz = nn.LazyLinear(4)
    lz.load_state_dict(src.state_dict())
    return type(lz).__name__, lz.weight, lz.in_features, lz(_x(T, 1, 5))


@program()
def prog_nns_flatten_unflatten_errors(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 3, 4, rg=True)
    f = nn.Flatten(1)(x)
    u = nn.Unflatten(1, (3, 4))(f)
    u2 = nn.Unflatten(-1, (2, -1))(f)
    (u * u2.reshape(2, 3, 4)).sum().backward()
    return (
        f.grad_fn,
        u.shape,
        u2.shape,
        x.grad,
        raises(lambda: nn.Unflatten(1, (5, 5))(f)),
        raises(lambda: repr(nn.Unflatten(1, [2, 2.0]))),
        raises(lambda: repr(nn.Unflatten("a", (2, 2)))),
        repr(nn.Unflatten(1, (3, 4))),
    )


# --- init, more --------------------------------------------------------------------------------


@program()
def prog_nns_init_generator_and_trunc_warning(T: Any) -> Any:
    ini = T.nn.init
    g = T.Generator().manual_seed(5)
    a = ini.uniform_(T.empty(3), generator=g)
    b = ini.normal_(T.empty(3), generator=g)
    c = ini.kaiming_uniform_(T.empty(2, 3), generator=g)
    d = ini.trunc_normal_(T.empty(4), mean=5.0, std=1.0, a=-1.0, b=1.0, generator=g)
    e = ini.orthogonal_(T.empty(3, 2), generator=g)
    return a, b, c, d, e


@program()
def prog_nns_default_inits_under_seed(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(9)
    mods = [
        nn.Linear(3, 2),
        nn.Conv1d(2, 3, 2),
        nn.ConvTranspose2d(2, 2, 2, groups=2),
        nn.Embedding(3, 2),
        nn.LayerNorm(3),
        nn.GRU(2, 2),
        nn.Bilinear(2, 3, 2),
        nn.PReLU(2),
        nn.MultiheadAttention(4, 2),
    ]
    return [[(n, p) for n, p in m.named_parameters()] for m in mods]


# --- pooling, more -----------------------------------------------------------------------------


@program()
def prog_nns_fractional_max_pool_given_samples(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 7, 7, rg=True)
    s = T.tensor([[[0.2, 0.7], [0.5, 0.1]]])
    y, i = F.fractional_max_pool2d(x, 2, output_size=3, return_indices=True, _random_samples=s)
    y.sum().backward()
    y2 = F.fractional_max_pool2d(x, 3, output_ratio=(0.5, 0.5), _random_samples=s)
    e = raises(lambda: F.fractional_max_pool2d(x, 2, _random_samples=s))
    e2 = raises(lambda: F.fractional_max_pool2d(x, 3, output_ratio=0.5, _random_samples=s))
    return y, i, x.grad, y.grad_fn, y2, e, e2


@program()
def prog_nns_maxpool_dilation_ceil_and_1d_3d(T: Any) -> Any:
    F = T.nn.functional
    x1 = _x(T, 1, 2, 9, rg=True)
    a, ia = F.max_pool1d(x1, 3, stride=2, dilation=2, ceil_mode=True, return_indices=True)
    x3 = _x(T, 1, 1, 4, 4, 4, rg=True)
    b = F.max_pool3d(x3, 2, stride=(1, 2, 2), padding=1)
    c = F.avg_pool1d(x1, 4, stride=3, padding=2, ceil_mode=True, count_include_pad=True)
    (a.sum() + b.sum() + c.sum()).backward()
    return a, ia, b, c, x1.grad, x3.grad, b.grad_fn, c.grad_fn


@program()
def prog_nns_pool_channels_last_and_unbatched(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 4, 4).to(memory_format=T.channels_last).requires_grad_()
    y = F.max_pool2d(x, 2)
    z = F.avg_pool2d(x[0], 2)
    (y.sum() + z.sum()).backward()
    return y, z, x.grad


@program()
def prog_nns_channels_last_model_keeps_format(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)), 20)
    m = m.to(memory_format=T.channels_last)
    x = _x(T, 2, 3, 4, 4).to(memory_format=T.channels_last)
    y = m(x)
    cl = T.channels_last
    return (
        m[0].weight.is_contiguous(memory_format=cl),
        m[0](x).is_contiguous(memory_format=cl),
        y.is_contiguous(memory_format=cl),
        nn.functional.avg_pool2d(x, 2).is_contiguous(memory_format=cl),
        nn.functional.adaptive_avg_pool2d(x, 1).is_contiguous(memory_format=cl),
        y,
    )


# --- data, more --------------------------------------------------------------------------------


@program()
def prog_nns_distributed_sampler_explicit_replicas(T: Any) -> Any:
    D = T.utils.data
    ds = range(10)
    s0 = D.DistributedSampler(ds, num_replicas=3, rank=0, shuffle=True, seed=4)
    s2 = D.DistributedSampler(ds, num_replicas=3, rank=2, shuffle=False)
    s3 = D.DistributedSampler(ds, num_replicas=3, rank=1, shuffle=False, drop_last=True)
    a = list(s0)
    s0.set_epoch(1)
    b = list(s0)
    return (
        a,
        b,
        list(s2),
        list(s3),
        len(s0),
        len(s3),
        raises(lambda: D.DistributedSampler(ds, num_replicas=2, rank=3)),
        raises(lambda: D.DistributedSampler(ds, num_replicas=2, rank=-1)),
    )


@program()
def prog_nns_dataloader_attributes_and_setattr_error(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(5.0))
    dl = D.DataLoader(ds, batch_size=2, shuffle=True)
    dl2 = D.DataLoader(ds, batch_size=None)

    def set_bs():
        dl.batch_size = 3

    return (
        type(dl.sampler).__name__,
        type(dl.batch_sampler).__name__,
        dl.batch_size,
        dl.drop_last,
        dl.num_workers,
        type(dl2.sampler).__name__,
        dl2.batch_sampler,
        raises(set_bs),
        D.get_worker_info(),
        len(dl),
        len(dl2),
    )


@program()
def prog_nns_dataloader_pin_memory_without_accelerator(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(D.TensorDataset(T.arange(4.0)), batch_size=2, pin_memory=True)
    b = list(dl)
    return b, b[0][0].is_pinned()


# --- more hooks and parametrizations -------------------------------------------------------------


@program()
def prog_nns_full_backward_hook_module_reused(T: Any) -> Any:
    m = _lin(T, 2, 2)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi[0].clone(), go[0].clone())))
    x = T.ones(1, 2, requires_grad=True)
    y = m(m(x))
    y.sum().backward()
    return log, x.grad, m.weight.grad


@program()
def prog_nns_full_backward_hook_tuple_with_non_tensors(T: Any) -> Any:
    class M(T.nn.Module):
        def forward(self, x):
            return x * 2, "tag", x.detach()

    m = M()
    log = []
    m.register_full_backward_hook(
        lambda mod, gi, go: log.append(([g is None for g in gi], [g is None for g in go]))
    )
    x = T.ones(2, requires_grad=True)
    a, t, d = m(x)
    a.sum().backward()
    return log, t, d.requires_grad, a.grad_fn, x.grad


@program()
def prog_nns_backward_hooks_when_nothing_requires_grad(T: Any) -> Any:
    m = _lin(T)
    m.requires_grad_(False)
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append(1))
    m.register_full_backward_pre_hook(lambda mod, go: log.append(2))
    y = m(T.ones(1, 3))
    return y.requires_grad, y.grad_fn, log


@program()
def prog_nns_backward_hook_with_inplace_on_input(T: Any) -> Any:
    class M(T.nn.Module):
        def forward(self, x):
            x.add_(1)
            return x * 2

    m = M()
    m.register_full_backward_hook(lambda *a: None)
    x = T.ones(2, requires_grad=True)
    return raises(lambda: m(x.clone()))


@program()
def prog_nns_forward_hook_rewrites_dict_output(T: Any) -> Any:
    class M(T.nn.Module):
        def forward(self, x):
            return {"a": x * 2, "b": x + 1}

    m = M()
    m.register_forward_hook(lambda mod, i, o: {**o, "c": o["a"] * 3})
    log = []
    m.register_full_backward_hook(lambda mod, gi, go: log.append(1))
    x = T.ones(2, requires_grad=True)
    out = m(x)
    out["c"].sum().backward()
    return out, x.grad, log


@program()
def prog_nns_parametrize_cached_shares_one_evaluation(T: Any) -> Any:
    P = T.nn.utils.parametrize
    calls = []

    class D(T.nn.Module):
        def forward(self, X):
            calls.append(1)
            return X * 2

    m = _lin(T)
    P.register_parametrization(m, "weight", D())
    x = T.ones(1, 3)
    with P.cached():
        y1 = m(x).sum()
        y2 = m(x).sum()
        (y1 + y2).backward()
    n_cached = len(calls)
    m(x)
    m(x)
    return m.parametrizations.weight.original.grad, n_cached, len(calls)


@program()
def prog_nns_parametrize_buffer_and_unsafe_shape(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class D(T.nn.Module):
        def forward(self, X):
            return X * 2

    class Flat(T.nn.Module):
        def forward(self, X):
            return X.reshape(-1)

    bn = T.nn.BatchNorm1d(2)
    P.register_parametrization(bn, "running_mean", D())
    m = _lin(T)
    P.register_parametrization(m, "weight", Flat(), unsafe=True)
    return (
        bn.running_mean,
        list(bn.state_dict()),
        [n for n, _ in bn.named_buffers()],
        [n for n, _ in bn.named_parameters()],
        m.weight.shape,
        raises(lambda: m(T.ones(1, 3))),
    )


@program()
def prog_nns_parametrize_right_inverse_returns_tuple(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class Split(T.nn.Module):
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X * 0.25, X * 0.75

    m = _lin(T)
    P.register_parametrization(m, "weight", Split())
    y = m(T.ones(1, 3))
    y.sum().backward()
    return (
        [n for n, _ in m.named_parameters()],
        m.weight,
        m.parametrizations.weight.original0,
        m.parametrizations.weight.original0.grad,
        list(m.state_dict()),
    )


@program()
def prog_nns_parametrize_deepcopy_load_and_transfer(T: Any) -> Any:
    import copy

    P = T.nn.utils.parametrize

    class D(T.nn.Module):
        def forward(self, X):
            return X * 2

    m = _lin(T)
    P.register_parametrization(m, "weight", D())
    c = copy.deepcopy(m)
    m2 = _lin(T, seed=5)
    P.register_parametrization(m2, "weight", D())
    m2.load_state_dict(m.state_dict())
    n = _lin(T, seed=3)
    P.transfer_parametrizations_and_params(m, n)
    return (
        c.weight,
        type(c).__name__,
        m2.weight,
        raises(lambda: _lin(T).load_state_dict(m.state_dict())),
        P.type_before_parametrizations(m).__name__,
        repr(m),
        n.weight,
        P.is_parametrized(n),
    )


@program()
def prog_nns_old_spectral_norm_state_and_remove(T: Any) -> Any:
    T.manual_seed(0)
    m = _lin(T, 4, 3, seed=7)
    T.nn.utils.spectral_norm(m, n_power_iterations=2)
    y = m(T.ones(1, 4))
    y.sum().backward()
    names = (
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_buffers()],
        list(m.state_dict()),
    )
    g = m.weight_orig.grad
    e = raises(lambda: T.nn.utils.spectral_norm(m))
    T.nn.utils.remove_spectral_norm(m)
    return names, y, g, e, [n for n, _ in m.named_parameters()], m.weight


# --- per-module forward and backward ---------------------------------------------------------


def _fb(T: Any, m: Any, *xs: Any) -> Any:
    y = m(*xs)
    y0 = y[0] if isinstance(y, tuple) else y
    y0.float().pow(2).sum().backward()
    return y, [x.grad for x in xs], [(n, p.grad) for n, p in m.named_parameters()], y0.grad_fn


@program()
def prog_nns_transformer_encoder_decoder(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Transformer(4, 2, 1, 1, 8, dropout=0.0, batch_first=True)
    return _fb(T, m, _x(T, 2, 3, 4, rg=True), _x(T, 2, 2, 4, seed=1, rg=True))


@program()
def prog_nns_adaptive_log_softmax_with_loss(T: Any) -> Any:
    m = _seeded(T, T.nn.AdaptiveLogSoftmaxWithLoss(4, 8, [3, 6], div_value=2.0, head_bias=True), 1)
    x = _x(T, 5, 4, rg=True)
    out = m(x, T.tensor([0, 3, 7, 5, 1]))
    out.loss.backward()
    return (
        out.output,
        out.loss,
        x.grad,
        m.log_prob(x),
        m.predict(x),
        raises(lambda: m(x, T.tensor([0, 8, 1, 1, 1]))),
    )


@program()
def prog_nns_rnn_cells_unbatched(T: Any) -> Any:
    out = []
    for C in (T.nn.RNNCell, T.nn.GRUCell, T.nn.LSTMCell):
        m = _seeded(T, C(3, 2), 2)
        x = _x(T, 3, rg=True)
        y = m(x)
        (y[0] if isinstance(y, tuple) else y).sum().backward()
        out.append((y, x.grad, m.weight_ih.grad))
    return out


@program()
def prog_nns_activation_modules_values_grads(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 4, 3, 3)
    mods = [
        nn.Softmax2d(),
        nn.Hardswish(),
        nn.Mish(),
        nn.GLU(1),
        nn.Hardsigmoid(),
        nn.CELU(0.5),
        nn.Softsign(),
        nn.Tanhshrink(),
        nn.Softmin(1),
        nn.RReLU(0.1, 0.3).eval(),
        nn.GELU("tanh"),
        nn.Softshrink(0.3),
        nn.Threshold(0.2, -1.0),
    ]
    out = []
    for m in mods:
        xx = x.detach().clone().requires_grad_()
        y = m(xx)
        y.sum().backward()
        out.append((type(m).__name__, y, xx.grad, y.grad_fn))
    return out


@program()
def prog_nns_lstm_projection_two_layers(T: Any) -> Any:
    T.manual_seed(5)
    lstm = T.nn.LSTM(3, 4, proj_size=2, num_layers=2, batch_first=True)
    x = T.randn(2, 5, 3, requires_grad=True)
    o, (h, c) = lstm(x)
    (o.sum() + h.pow(2).sum() + c.sum()).backward()
    return o, h, c, x.grad, lstm.weight_hr_l0.grad, [n for n, _ in lstm.named_parameters()]


@program()
def prog_nns_mha_bias_kv_zero_attn_padding(T: Any) -> Any:
    T.manual_seed(8)
    mha = T.nn.MultiheadAttention(
        6, 3, batch_first=True, bias=False, add_bias_kv=True, add_zero_attn=True
    )
    q = T.randn(2, 3, 6, requires_grad=True)
    k = T.randn(2, 4, 6)
    kpm = T.tensor([[False, False, True, True], [False, False, False, False]])
    o, w = mha(q, k, k, key_padding_mask=kpm)
    o.sum().backward()
    return o, w, q.grad, mha.bias_k.grad, [n for n, _ in mha.named_parameters()]


@program()
def prog_nns_gru_packed_training_steps(T: Any) -> Any:
    nn = T.nn
    U = nn.utils.rnn
    emb = _seeded(T, nn.Embedding(10, 4, padding_idx=0), 2)
    gru = _seeded(T, nn.GRU(4, 5, batch_first=True, bidirectional=True, num_layers=2), 3)
    head = _lin(T, 10, 2, seed=4)
    seqs = [T.tensor([1, 2, 3, 4]), T.tensor([5, 6]), T.tensor([7, 8, 9])]
    lens = T.tensor([len(s) for s in seqs])
    pad = U.pad_sequence(seqs, batch_first=True)
    params = [*emb.parameters(), *gru.parameters(), *head.parameters()]
    opt = T.optim.RMSprop(params, lr=0.01)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        packed = U.pack_padded_sequence(emb(pad), lens, batch_first=True, enforce_sorted=False)
        out, h = gru(packed)
        unp, ul = U.pad_packed_sequence(out, batch_first=True)
        loss = nn.functional.cross_entropy(head(T.cat([h[-2], h[-1]], dim=1)), T.tensor([0, 1, 0]))
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return losses, unp, ul, emb.weight.grad, gru.weight_hh_l1_reverse.grad


@program()
def prog_nns_cnn_bn_onecycle_training(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    m = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1, bias=False),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Dropout2d(0.2),
        nn.Conv2d(4, 6, 3),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(6, 3),
    )
    _seeded(T, m, 1)
    opt = T.optim.SGD(m.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-3)
    sch = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=4)
    X = T.randn(8, 1, 8, 8)
    y = T.randint(0, 3, (8,))
    losses = []
    for _ in range(4):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(X), y, label_smoothing=0.1)
        loss.backward()
        nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        opt.step()
        sch.step()
        losses.append(loss.detach())
    m.eval()
    return losses, m(X), m[1].running_mean, m[1].running_var, m[1].num_batches_tracked


# --- schedulers and swa, more ----------------------------------------------------------------


@program()
def prog_nns_swa_ema_multi_avg_and_update_bn(T: Any) -> Any:
    nn = T.nn
    U = T.optim.swa_utils
    T.manual_seed(0)
    m = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)), 1)
    ema = U.AveragedModel(m, multi_avg_fn=U.get_ema_multi_avg_fn(0.9), use_buffers=True)
    ema2 = U.AveragedModel(m, avg_fn=U.get_ema_avg_fn(0.8))
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    X = T.randn(6, 3)
    for _ in range(3):
        opt.zero_grad()
        m(X).sum().backward()
        opt.step()
        ema.update_parameters(m)
        ema2.update_parameters(m)
    loader = T.utils.data.DataLoader(T.utils.data.TensorDataset(X), batch_size=3)
    swa = U.AveragedModel(m)
    U.update_bn(loader, swa)
    return (
        ema.module[0].weight,
        ema.module[1].running_mean,
        ema2.module[0].weight,
        ema2.module[1].running_mean,
        swa.module[1].running_mean,
        swa.module[1].running_var,
        swa.module[1].momentum,
        ema.n_averaged,
        list(ema.state_dict()),
    )


@program()
def prog_nns_sched_tensor_lr_lambda_and_exponential(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.Adam([p], lr=T.tensor(0.1))
    sch = T.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    p.grad = T.ones(2)
    opt.step()
    sch.step()
    q = T.nn.Parameter(T.ones(2))
    opt2 = T.optim.SGD([q], lr=T.tensor(0.5))
    s2 = T.optim.lr_scheduler.LambdaLR(opt2, lambda e: 1 / (e + 1))
    out = []
    for _ in range(3):
        opt2.step()
        s2.step()
        out.append(opt2.param_groups[0]["lr"].clone())
    return (
        sch.get_last_lr(),
        type(sch.get_last_lr()[0]).__name__,
        opt.param_groups[0]["lr"],
        sch.state_dict(),
        p,
        out,
        s2.get_last_lr(),
    )


@program()
def prog_nns_sched_plateau_state_and_step_errors(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([p], lr=0.1)
    s = T.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
    s.step(1.0)
    s.step(2.0)
    sd = s.state_dict()
    return sorted(sd), sd["_last_lr"], s.get_last_lr(), raises(s.step), raises(lambda: s.step("a"))


@program()
def prog_nns_sched_warm_restarts_fractional_epochs(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([p], lr=0.5)
    s = T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
    out = []
    for epoch in range(3):
        for i in range(4):
            opt.step()
            s.step(epoch + i / 4)
            out.append(opt.param_groups[0]["lr"])
    return out, s.T_cur, s.T_i, raises(lambda: s.step(-1))


@program()
def prog_nns_sched_linear_with_plateau_and_sequential_refusal(T: Any) -> Any:
    S = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([p], lr=1.0)
    a = S.LinearLR(opt, 0.5, 1.0, total_iters=2)
    b = S.ReduceLROnPlateau(opt, patience=0, factor=0.5)
    out = []
    for m in [1.0, 2.0, 3.0, 0.5]:
        opt.step()
        a.step()
        b.step(m)
        out.append(opt.param_groups[0]["lr"])
    return (
        out,
        raises(lambda: S.SequentialLR(opt, [a, b], [2])),
        raises(lambda: S.ChainedScheduler([a, b])),
    )


# --- layer errors --------------------------------------------------------------------------------


@program()
def prog_nns_norm_layer_input_errors(T: Any) -> Any:
    nn = T.nn
    return [
        raises(lambda: nn.BatchNorm1d(2)(T.ones(1, 2))),
        raises(lambda: nn.BatchNorm1d(2)(T.ones(2, 3))),
        raises(lambda: nn.BatchNorm2d(2)(T.ones(2, 2, 2))),
        raises(lambda: nn.InstanceNorm1d(3, affine=True)(T.ones(1, 4, 4))),
        raises(lambda: nn.GroupNorm(3, 4)),
        raises(lambda: nn.GroupNorm(2, 4)(T.ones(2, 3, 2))),
        raises(lambda: nn.LayerNorm(3)(T.ones(2, 4))),
        raises(lambda: nn.LayerNorm([2, 3])(T.ones(3, 2))),
        nn.InstanceNorm1d(3)(T.arange(12.0).reshape(1, 3, 4)),
    ]


@program()
def prog_nns_batchnorm_momentum_none_and_no_running_stats(T: Any) -> Any:
    nn = T.nn
    bn = nn.BatchNorm1d(2, momentum=None)
    for i in range(3):
        bn(T.tensor([[1.0 * i, 2.0], [3.0, 4.0 + i]]))
    b2 = nn.BatchNorm1d(2, track_running_stats=False).eval()
    x = T.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
    y = b2(x)
    y.sum().backward()
    stats = (bn.running_mean.clone(), bn.running_var.clone(), bn.num_batches_tracked.clone())
    bn.reset_running_stats()
    return stats, y, x.grad, b2.running_mean, list(b2.state_dict()), bn.running_var


@program()
def prog_nns_linear_embedding_rnn_input_errors(T: Any) -> Any:
    nn = T.nn
    e = nn.Embedding(3, 2)
    r = nn.LSTM(2, 3)
    b = nn.EmbeddingBag(4, 2, mode="mean")
    return [
        raises(lambda: nn.Linear(3, 2)(T.ones(2, 4))),
        raises(lambda: nn.Linear(3, 2)(T.ones(3, dtype=T.float64))),
        raises(lambda: nn.Bilinear(2, 3, 4)(T.ones(2, 2), T.ones(3, 3))),
        raises(lambda: e(T.tensor([1.0]))),
        raises(lambda: e(T.tensor([-1]))),
        raises(lambda: nn.Embedding(3, 2, _weight=T.ones(2, 2))),
        raises(lambda: b(T.tensor([1, 2]), T.tensor([0]), per_sample_weights=T.ones(2))),
        raises(lambda: b(T.tensor([1, 2]))),
        raises(lambda: b(T.tensor([1, 2]), T.tensor([1]))),
        raises(lambda: r(T.ones(4, 1, 3))),
        raises(lambda: r(T.ones(4, 1, 2), (T.zeros(1, 1, 3),))),
        raises(lambda: r(T.ones(4, 1, 2), (T.zeros(2, 1, 3), T.zeros(1, 1, 3)))),
        raises(lambda: r(T.ones(2, 2, 2, 2))),
        raises(lambda: nn.MultiheadAttention(4, 2)(T.ones(3, 4), T.ones(2, 4), T.ones(3, 4))),
    ]


@program()
def prog_nns_module_constructor_validation(T: Any) -> Any:
    nn = T.nn
    makers = [
        lambda: nn.Linear(10.5, 5),
        lambda: nn.Linear(10, "five"),
        lambda: nn.Bilinear(10, 5, "three"),
        lambda: nn.Linear(-1, 2),
        lambda: nn.Conv2d(3.5, 2, 3),
        lambda: nn.Conv2d(3, 2, 3, stride=0),
        lambda: nn.Conv2d(3, 2, 3, padding=-1),
        lambda: nn.Conv2d(3, 3, (3, 3, 3)),
        lambda: nn.Embedding(-1, 2),
        lambda: nn.LSTM(2, 0),
        lambda: nn.LSTM(2, 3, num_layers=0),
        lambda: nn.LSTM(2, 3, num_layers=1.5),
        lambda: nn.RNN(2, 3, dropout=2),
        lambda: nn.GRU(2, 3, dropout=0.5),
        lambda: nn.LSTM(2, 3, proj_size=3),
        lambda: nn.RNN(2, 3, nonlinearity="gelu"),
        lambda: nn.BatchNorm1d(2.5),
        lambda: nn.MultiheadAttention(5, 2),
        lambda: nn.TransformerEncoderLayer(4, 2, activation="foo"),
        lambda: nn.AdaptiveAvgPool2d((1, 2, 3)),
        lambda: nn.ConstantPad1d((1, 2, 3), 0.0),
        lambda: nn.Hardtanh(2, 1),
        lambda: nn.PixelShuffle(0),
        lambda: nn.Upsample(),
    ]
    out = []
    for mk in makers:
        r = raises(mk)
        out.append(repr(r) if isinstance(r, nn.Module) else r)
    return out


@program()
def prog_nns_typed_dataset_sampler_subclasses(T: Any) -> Any:
    D = T.utils.data

    class Pairs(D.Dataset[tuple[Any, int]]):
        def __init__(self, n):
            self.x = T.arange(float(n)).reshape(n, 1)

        def __len__(self):
            return len(self.x)

        def __getitem__(self, i):
            return self.x[i] * 2, i

    class EveryOther(D.Sampler[int]):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(0, self.n, 2))

        def __len__(self):
            return (self.n + 1) // 2

    class Stream(D.IterableDataset[int]):
        def __iter__(self):
            return iter(range(3))

    ds = Pairs(5)
    dl = D.DataLoader(ds, batch_size=2, sampler=EveryOther(5))
    typed = D.DataLoader[tuple[Any, int]](ds, batch_size=5)
    return (
        list(dl),
        list(typed),
        list(D.DataLoader(Stream(), batch_size=2)),
        raises(lambda: D.IterableDataset()),
        raises(lambda: Pairs(2)[5]),
        raises(lambda: D.Dataset()[0]),
        [c.__name__ for c in D.BatchSampler.__mro__[1:2]],
    )


@program()
def prog_nns_lazy_modules_materialize_and_load(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    m = nn.Sequential(nn.LazyConv2d(3, 2), nn.LazyBatchNorm2d(), nn.LazyConvTranspose2d(2, 2))
    before = [type(x).__name__ for x in m]
    y = m(T.ones(1, 2, 4, 4))
    shapes = [(n, p.shape) for n, p in m.named_parameters()]
    a, b = nn.LazyLinear(3), nn.LazyLinear(3)
    r = b.load_state_dict(a.state_dict())
    still = type(b.weight).__name__
    c = nn.LazyLinear(3)
    c.load_state_dict({"weight": T.ones(3, 2), "bias": T.zeros(3)})
    return (
        before,
        [type(x).__name__ for x in m],
        y.shape,
        shapes,
        str(r),
        still,
        type(c).__name__,
        c(T.ones(1, 2)),
        raises(lambda: nn.Linear(2, 3).load_state_dict(a.state_dict())),
        raises(lambda: T.optim.SGD(a.parameters(), lr=0.1).step()),
    )


@program()
def prog_nns_custom_optimizer_with_scheduler_and_state(T: Any) -> Any:
    class Sign(T.optim.Optimizer):
        def __init__(self, params, lr=0.1, decay=0.0):
            if lr < 0:
                raise ValueError(f"Invalid learning rate: {lr}")
            super().__init__(params, {"lr": lr, "decay": decay})

        @T.no_grad()
        def step(self, closure=None):
            loss = None
            if closure is not None:
                with T.enable_grad():
                    loss = closure()
            for g in self.param_groups:
                for p in g["params"]:
                    if p.grad is None:
                        continue
                    st = self.state[p]
                    st["n"] = st.get("n", 0) + 1
                    st["buf"] = st.get("buf", T.zeros_like(p)) * 0.5 + p.grad.sign()
                    p.add_(st["buf"], alpha=-g["lr"])
            return loss

    w = T.nn.Parameter(T.tensor([1.0, -2.0, 3.0]))
    b = T.nn.Parameter(T.tensor([0.5]))
    opt = Sign([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.2)
    sch = T.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    losses = []
    for _ in range(3):

        def closure():
            opt.zero_grad()
            loss = (w**2).sum() + (b * 3).sum()
            loss.backward()
            return loss

        losses.append(opt.step(closure))
        sch.step()
    sd = opt.state_dict()
    opt2 = Sign([{"params": [w]}, {"params": [b]}])
    opt2.load_state_dict(sd)
    return (
        w,
        b,
        losses,
        sd["param_groups"],
        {k: dict(v) for k, v in sd["state"].items()},
        opt2.param_groups,
        repr(opt),
        raises(lambda: Sign([w], lr=-1)),
    )


@program()
def prog_nns_optimizer_state_mapping_and_load_casts(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2, dtype=T.float64))
    o = T.optim.Adam([w], lr=0.1)
    w.grad = T.ones(2, dtype=T.float64)
    o.step()
    sd = o.state_dict()
    v = T.nn.Parameter(T.ones(2))
    o2 = T.optim.Adam([v], lr=0.1)
    o2.load_state_dict(sd)
    s = T.nn.Parameter(T.ones(2))
    o3 = T.optim.SGD([s], lr=0.1)
    o3.param_groups[0]["lr"] = 0.5
    s.grad = T.ones(2)
    o3.step()
    o3.param_groups[0]["momentum"] = 0.9
    o3.step()
    o3.step()
    return (
        type(o.state).__name__,
        next(iter(o.state.keys())) is w,
        sorted(o.state[w].keys()),
        o.state[w]["step"],
        o.defaults,
        o2.state[v]["exp_avg"].dtype,
        o2.state[v]["step"].dtype,
        s,
        o3.state_dict(),
    )


@program()
def prog_nns_weight_norm_old_state_dict_into_parametrized(T: Any) -> Any:
    old = _lin(T, 3, 4, seed=1)
    T.nn.utils.weight_norm(old)
    sd = old.state_dict()
    new = _lin(T, 3, 4, seed=2)
    T.nn.utils.parametrizations.weight_norm(new)
    r = new.load_state_dict(sd)
    return list(sd), str(r), new.weight, old.weight, list(new.state_dict())


@program()
def prog_nns_functional_call_tied_weights_and_buffers(T: Any) -> Any:
    nn = T.nn

    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(2, 2, bias=False)
            self.b = nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight
            self.register_buffer("scale", T.tensor(2.0))

        def forward(self, x):
            return self.b(self.a(x)) * self.scale

    m = Tied()
    with T.no_grad():
        m.a.weight.copy_(T.tensor([[1.0, 2.0], [3.0, 4.0]]))
    w = T.eye(2, requires_grad=True)
    x = T.ones(1, 2)
    fc = T.func.functional_call
    y1 = fc(m, {"a.weight": w, "scale": T.tensor(3.0)}, (x,))
    y2 = fc(m, {"a.weight": w}, (x,), tie_weights=False)
    y1.sum().backward()
    return (
        y1,
        y2,
        w.grad,
        m.scale,
        raises(lambda: fc(m, {"a.weight": w, "b.weight": w * 2}, (x,))),
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_parameters(remove_duplicate=False)],
    )


@program()
def prog_nns_parametrized_module_double_and_names(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class D(T.nn.Module):
        def forward(self, X):
            return X * 2

    m = _lin(T)
    P.register_parametrization(m, "weight", D())
    m.double()
    y = m(T.ones(1, 3, dtype=T.float64))
    return (
        m.weight.dtype,
        m.parametrizations.weight.original.dtype,
        y,
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_modules()],
    )


@program()
def prog_nns_state_dict_order_and_multiline_repr(T: Any) -> Any:
    nn = T.nn

    class Inner(nn.Module):
        def extra_repr(self):
            return "line1\nline2"

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("z", T.zeros(1))
            self.sub = nn.Linear(1, 1)
            self.a = nn.Parameter(T.ones(1))
            self.register_buffer("y", T.zeros(1))
            self.b = nn.Parameter(T.ones(1))
            self.i = Inner()
            self.lst = nn.ModuleList([Inner(), nn.Linear(1, 1), nn.Linear(1, 1)])
            self.d = nn.ModuleDict({"x": Inner()})
            self.p = nn.ParameterList([nn.Parameter(T.ones(2, 3))])

    m = M()
    return (
        list(m.state_dict()),
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_buffers()],
        repr(m),
    )


@program()
def prog_nns_batchnorm_one_running_stat_removed(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(2)
    bn.running_mean = None
    return (
        list(bn.state_dict()),
        [n for n, _ in bn.named_buffers()],
        raises(lambda: bn(T.ones(3, 2))),
        raises(lambda: T.nn.functional.instance_norm(T.ones(1, 2, 3), None, T.ones(2))),
    )


@program()
def prog_nns_dataloader_multiprocessing_context_checks(T: Any) -> Any:
    D = T.utils.data
    out = []
    for kw in [
        {"multiprocessing_context": "spawn"},
        {"num_workers": 1, "multiprocessing_context": "foo"},
        {"num_workers": 1, "multiprocessing_context": 3},
        {"num_workers": 1, "multiprocessing_context": "fork"},
        {"num_workers": 1},
    ]:
        r = raises(lambda kw=kw: D.DataLoader([1.0, 2.0], **kw))
        if isinstance(r, D.DataLoader):
            r = (type(r.multiprocessing_context).__name__, list(r))
        out.append(r)
    dl = D.DataLoader([1.0, 2.0], num_workers=1)
    dl.multiprocessing_context = "fork"
    out.append(type(dl.multiprocessing_context).__name__)
    out.append(raises(lambda: setattr(dl, "multiprocessing_context", "bad")))
    return out


@program()
def prog_nns_packed_sequence_pin_memory_and_module_attrs(T: Any) -> Any:
    U = T.nn.utils.rnn
    ps = U.pack_sequence([T.ones(2, 1), T.ones(1, 1)])
    return (
        raises(ps.pin_memory),
        ps.is_pinned(),
        T.nn.Module.dump_patches,
        str(T.nn.Module.T_destination),
    )


@program()
def prog_nns_lazy_norm_bias_false_and_hardtanh_old_names(T: Any) -> Any:
    T.manual_seed(0)
    out = []
    for C in [T.nn.LazyBatchNorm1d, T.nn.LazyInstanceNorm1d]:
        for kw in [{"bias": False}, {"bias": False, "affine": False}, {}]:
            m = C(**kw)
            names0 = [(n, type(p).__name__) for n, p in m.named_parameters()]
            x = T.arange(24.0).reshape(2, 3, 4).requires_grad_()
            y = m(x)
            y.pow(2).sum().backward()
            out.append(
                (names0, [(n, p.shape) for n, p in m.named_parameters()], repr(m), y, x.grad)
            )
    h = T.nn.Hardtanh(min_value=-2.0, max_value=0.5)
    return (
        out,
        repr(h),
        h(T.tensor([-3.0, 0.0, 1.0])),
        raises(lambda: T.nn.Hardtanh(max_value=-2.0)),
    )


@program()
def prog_nns_sampler_base_has_no_init(T: Any) -> Any:
    D = T.utils.data

    class Old(D.Sampler):
        def __init__(self, data_source):
            super().__init__(data_source)  # torch 2.x: object.__init__'s TypeError
            self.data_source = data_source

        def __iter__(self):
            return iter(range(len(self.data_source)))

    class New(D.Sampler[int]):
        def __init__(self, data_source):
            self.data_source = data_source

        def __iter__(self):
            return iter(reversed(range(len(self.data_source))))

        def __len__(self):
            return len(self.data_source)

    return (
        raises(lambda: Old([1, 2])),
        raises(lambda: D.Sampler([1])),
        raises(lambda: list(D.Sampler())),
        list(D.DataLoader([10.0, 20.0, 30.0], sampler=New([0, 0, 0]), batch_size=2)),
    )


@program()
def prog_nns_collate_and_stack_type_errors(T: Any) -> Any:
    import numpy as np

    D = T.utils.data
    return [
        raises(lambda: D.default_collate([T.ones(2), T.ones(2, dtype=T.float64)])),
        raises(lambda: D.default_collate([np.ones(2), np.ones(2, dtype=np.int32)])),
        raises(lambda: D.default_collate([T.ones(2), np.ones(2)])),
        raises(lambda: D.default_collate([])),
        raises(lambda: T.stack([T.ones(2), np.float32(1)])),
        raises(lambda: T.stack(np.ones((2, 2)))),
        raises(lambda: T.cat(T.nn.Parameter(T.ones(2)))),
        raises(lambda: T.cat([T.ones(2), None])),
    ]


@program()
def prog_nns_optimizer_differentiable_step(T: Any) -> Any:
    p = T.tensor([1.0, -0.5], requires_grad=True)
    w = p * 1.0
    o = T.optim.Adam([w], lr=0.1, differentiable=True)
    w.grad = T.tensor([0.3, -0.2])
    o.step()
    (w**2).sum().backward()
    leaf = T.nn.Parameter(T.tensor([1.0, 2.0]))
    o2 = T.optim.RMSprop([leaf], lr=0.1, differentiable=True)
    leaf.grad = T.tensor([0.5, -0.5])
    return w, w.grad_fn, p.grad, raises(o2.step), leaf


@program()
def prog_nns_layers_given_a_list_or_array(T: Any) -> Any:
    import numpy as np

    nn = T.nn
    return [
        raises(lambda: nn.Linear(2, 2)([1.0, 2.0])),
        raises(lambda: nn.Linear(2, 2)(np.ones((1, 2), dtype=np.float32))),
        raises(lambda: nn.Conv1d(1, 1, 1)([[[1.0]]])),
        raises(lambda: nn.CrossEntropyLoss()([0.5, 0.5], T.tensor(0))),
        raises(lambda: nn.MSELoss()([0.5, 0.5], T.tensor([1.0, 0.0]))),
        raises(lambda: nn.LSTM(2, 2)([[1.0, 2.0]])),
    ]


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
