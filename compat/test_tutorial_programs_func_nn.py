"""Tutorial programs: torch.func and building networks with torch.nn. Programs in the spirit of
pytorch/tutorials' Jacobians/Hessians, per-sample gradients, neural tangent kernels, model
ensembling, parametrizations, pruning, "What is torch.nn really?", the basics and blitz
optimization / model-building tutorials, saving and loading models (state_dict through
io.BytesIO), and module hooks, with the variations and mistakes users try around each. The
programs register into test_realistic_programs_3's set and run through its harness: each
`prog(T)` runs on torch and on shadowgrad, and everything it returns, raises or warns is
compared.
"""

from __future__ import annotations

import copy
import importlib
import io
import itertools
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _warm_torch_func() -> None:
    """torch.func's first use in a process scripts helpers with torch.jit, which warns
    (DeprecationWarning) once per process: use it once here so no program sees that."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.func.jacrev(torch.sin)(torch.ones(1))
        torch.func.jacfwd(torch.sin)(torch.ones(1))
        torch.func.vmap(torch.sin)(torch.ones(1))


_warm_torch_func()


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _prune(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".nn.utils.prune")


def _mlp(T: Any, sizes: tuple[int, ...] = (3, 4, 2), seed: int = 0) -> Any:
    layers: list[Any] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        if i:
            layers.append(T.nn.ReLU())
        layers.append(T.nn.Linear(a, b))
    return _seeded(T, T.nn.Sequential(*layers), seed)


# --- torch.func: Jacobians, Hessians, grad/vjp/jvp ------------------------------------------


@program()
def prog_tut_fn_jacrev_predict_wrt_weight_and_argnums(T: Any) -> Any:
    F = T.nn.functional
    fn = T.func

    def predict(weight, bias, x):
        return F.linear(x, weight, bias).tanh()

    w, b, x = _t(T, 3, 3), _t(T, 3, seed=1), _t(T, 3, seed=2)
    j0 = fn.jacrev(predict)(w, b, x)
    j2 = fn.jacrev(predict, argnums=2)(w, b, x)
    jwb = fn.jacrev(predict, argnums=(0, 1))(w, b, x)
    # the vjp-per-row construction the tutorial builds first
    _, vjp_fn = fn.vjp(lambda xx: predict(w, b, xx), x)
    rows = [vjp_fn(v)[0] for v in T.eye(3).unbind()]
    jf = fn.jacfwd(predict, argnums=2)(w, b, x)
    return j0.shape, j2, jwb, T.stack(rows), jf, (j2 - jf).abs().max() < 1e-5


@program()
def prog_tut_fn_jacrev_vmap_rows_and_batched_jacobian(T: Any) -> Any:
    fn = T.func
    w = _t(T, 3, 3)

    def f(x):
        return (x @ w.T).sin()

    xb = _t(T, 4, 3, seed=3)
    per = fn.vmap(fn.jacrev(f))(xb)
    # the sum trick: jacobian of the batch sum, then move the batch dim first
    summed = fn.jacrev(lambda x: f(x).sum(0))(xb).movedim(1, 0)
    fwd = fn.vmap(fn.jacfwd(f))(xb)
    return per, summed, fwd, per.shape


@program()
def prog_tut_fn_hessian_forms_agree(T: Any) -> Any:
    fn = T.func

    def f(x):
        return (x.sin() * x.cos().pow(2)).sum()

    x = _t(T, 4, seed=4)
    h1 = fn.hessian(f)(x)
    h2 = fn.jacfwd(fn.jacrev(f))(x)
    h3 = fn.jacrev(fn.jacrev(f))(x)
    g = fn.grad(f)(x)
    return h1, h2, h3, g, (h1 - h1.T).abs().max() < 1e-5


@program()
def prog_tut_fn_hessian_of_vector_output_and_argnums(T: Any) -> Any:
    fn = T.func

    def f(a, b):
        return (a.unsqueeze(1) * b).exp().sum(1)

    a, b = _t(T, 2, seed=5), _t(T, 3, seed=6)
    h = fn.hessian(f, argnums=1)(a, b)
    hab = fn.hessian(f, argnums=(0, 1))(a, b)
    return h, h.shape, [[t.shape for t in row] for row in hab], hab[0][1]


@program()
def prog_tut_fn_grad_has_aux_and_argnums(T: Any) -> Any:
    fn = T.func

    def loss(w, x, y):
        pred = x @ w
        err = pred - y
        return (err**2).mean(), {"pred": pred, "n": T.tensor(x.shape[0])}

    w, x, y = _t(T, 3, seed=1), _t(T, 5, 3, seed=2), _t(T, 5, seed=3)
    g, aux = fn.grad(loss, has_aux=True)(w, x, y)
    gx, aux2 = fn.grad(loss, argnums=1, has_aux=True)(w, x, y)
    gwx, _ = fn.grad(loss, argnums=(0, 1), has_aux=True)(w, x, y)
    gv, (val, aux3) = fn.grad_and_value(loss, has_aux=True)(w, x, y)
    bad_aux = raises(lambda: fn.grad(lambda v: (v.sum(), 3), has_aux=True)(w))
    return g, aux, gx, aux2["pred"].requires_grad, gwx, gv, val, aux3["n"], bad_aux


@program()
def prog_tut_fn_grad_user_mistakes(T: Any) -> Any:
    fn = T.func
    x = _t(T, 3)
    return {
        "non_scalar": raises(lambda: fn.grad(lambda v: v * 2)(x)),
        "aux_not_tuple": raises(lambda: fn.grad(lambda v: v.sum(), has_aux=True)(x)),
        "aux_tuple3": raises(lambda: fn.grad(lambda v: (v.sum(), v, v), has_aux=True)(x)),
        "not_tensor": raises(lambda: fn.grad(lambda v: 3.0)(x)),
        "argnums_range": raises(lambda: fn.grad(lambda v: v.sum(), argnums=1)(x)),
        "argnums_neg": fn.grad(lambda a, b: (a * b).sum(), argnums=-1)(x, x + 1),
        "argnums_float": raises(lambda: fn.grad(lambda v: v.sum(), argnums=0.5)(x)),
        "argnums_empty": raises(lambda: fn.grad(lambda v: v.sum(), argnums=())(x)),
        "int_input": raises(lambda: fn.grad(lambda v: v.sum())(T.tensor([1, 2]))),
        "no_args": raises(lambda: fn.grad(lambda: T.ones(()))()),
    }


@program()
def prog_tut_fn_grad_of_dict_and_tuple_inputs(T: Any) -> Any:
    fn = T.func

    def f(params, x):
        h = x @ params["w1"]
        return (h.tanh() @ params["w2"]).sum() + params["s"][0] * params["s"][1]

    params = {
        "w1": _t(T, 3, 4, seed=1),
        "w2": _t(T, 4, seed=2),
        "s": (T.tensor(2.0), T.tensor(3.0)),
    }
    g = fn.grad(f)(params, _t(T, 2, 3, seed=3))
    return g, sorted(g), type(g["s"]).__name__


@program()
def prog_tut_fn_vjp_has_aux_and_cotangent_errors(T: Any) -> Any:
    fn = T.func
    x = _t(T, 3, seed=1)

    out, vjp_fn = fn.vjp(lambda v: v.exp() * 2, x)
    (g,) = vjp_fn(T.ones(3))
    out2, vjp2, aux = fn.vjp(lambda v: (v.sin(), v.cos()), x, has_aux=True)
    two, vjp3 = fn.vjp(lambda a, b: (a * b, a + b), x, x * 3)
    g3 = vjp3((T.ones(3), T.full((3,), 2.0)))
    return {
        "out": out,
        "g": g,
        "out2": out2,
        "aux": aux,
        "aux_rg": aux.requires_grad,
        "g2": vjp2(T.ones(3)),
        "two": two,
        "g3": g3,
        "bad_shape": raises(lambda: vjp_fn(T.ones(4))),
        "bad_struct": raises(lambda: vjp3(T.ones(3))),
        "bad_dtype": raises(lambda: vjp_fn(T.ones(3, dtype=T.float64))),
        "aux_bad": raises(lambda: fn.vjp(lambda v: v, x, has_aux=True)),
    }


@program()
def prog_tut_fn_jvp_values_and_errors(T: Any) -> Any:
    fn = T.func
    x, t = _t(T, 3, seed=1), _t(T, 3, seed=2)
    out, tan = fn.jvp(lambda v: v.sin() * v, (x,), (t,))
    o2, t2, aux = fn.jvp(lambda v: (v.exp(), v.sum()), (x,), (t,), has_aux=True)
    o3, t3 = fn.jvp(lambda a, b: a * b, (x, x + 1), (t, T.zeros(3)))
    return {
        "out": out,
        "tan": tan,
        "o2": o2,
        "t2": t2,
        "aux": aux,
        "o3": o3,
        "t3": t3,
        "primals_not_tuple": raises(lambda: fn.jvp(lambda v: v, x, t)),
        "len_mismatch": raises(lambda: fn.jvp(lambda a, b: a, (x, x), (t,))),
        "shape_mismatch": raises(lambda: fn.jvp(lambda v: v, (x,), (T.ones(4),))),
        "non_tensor_out": raises(lambda: fn.jvp(lambda v: 1.0, (x,), (t,))),
    }


@program()
def prog_tut_fn_jacrev_has_aux_and_dict_output(T: Any) -> Any:
    fn = T.func

    def f(x):
        y = x.pow(3)
        return {"y": y, "s": y.sum()}, y.detach()

    x = _t(T, 3, seed=7)
    jac, aux = fn.jacrev(f, has_aux=True)(x)
    jf, auxf = fn.jacfwd(f, has_aux=True)(x)
    jc = fn.jacrev(lambda v: v.exp().outer(v), chunk_size=2)(x)
    return jac, aux, jf, auxf, jc, raises(lambda: fn.jacrev(f)(x))


@program()
def prog_tut_fn_backward_inside_transform_error(T: Any) -> Any:
    fn = T.func
    x = _t(T, 3, seed=1)

    def f(v):
        y = (v * v).sum()
        y.backward()
        return y

    w = _t(T, 3, seed=2, rg=True)

    def g(v):
        return (v * w).sum()

    gv = fn.grad(g)(x)
    return raises(lambda: fn.grad(f)(x)), gv, w.grad, gv.requires_grad


# --- per-sample gradients, NTK, ensembling --------------------------------------------------


@program()
def prog_tut_fn_per_sample_grads_match_loop(T: Any) -> Any:
    F = T.nn.functional
    fn = T.func
    model = _mlp(T, (4, 5, 3), seed=1)
    data, targets = _t(T, 6, 4, seed=2), T.tensor([0, 2, 1, 1, 0, 2])
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def compute_loss(params, buffers, sample, target):
        batch = sample.unsqueeze(0)
        tg = target.unsqueeze(0)
        pred = fn.functional_call(model, (params, buffers), (batch,))
        return F.cross_entropy(pred, tg)

    ft = fn.vmap(fn.grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
    loop = []
    for i in range(6):
        model.zero_grad()
        F.cross_entropy(model(data[i : i + 1]), targets[i : i + 1]).backward()
        loop.append({k: p.grad.clone() for k, p in model.named_parameters()})
    stacked = {k: T.stack([d[k] for d in loop]) for k in loop[0]}
    return ft, stacked, {k: (ft[k] - stacked[k]).abs().max() < 1e-5 for k in ft}


@program()
def prog_tut_fn_vmap_in_dims_out_dims_and_errors(T: Any) -> Any:
    fn = T.func
    a, b = _t(T, 2, 3, seed=1), _t(T, 3, seed=2)
    r1 = fn.vmap(T.dot, in_dims=(0, None))(a, b)
    r2 = fn.vmap(lambda x, y: x * y, in_dims=(1, None), out_dims=1)(a, T.tensor(2.0))
    r3 = fn.vmap(lambda x: (x.sum(), x * 2))(a)
    r4 = fn.vmap(fn.vmap(lambda x: x * x))(a)
    return {
        "r1": r1,
        "r2": r2,
        "r3": r3,
        "r4": r4,
        "size_mismatch": raises(lambda: fn.vmap(T.mul)(a, T.ones(3, 3))),
        "in_dims_len": raises(lambda: fn.vmap(T.mul, in_dims=(0,))(a, a)),
        "all_none": raises(lambda: fn.vmap(T.mul, in_dims=(None, None))(a, a)),
        "dim_out_of_range": raises(lambda: fn.vmap(lambda x: x, in_dims=2)(a)),
        "returns_float": raises(lambda: fn.vmap(lambda x: 1.0)(a)),
    }


@program()
def prog_tut_fn_empirical_ntk_jacobian_contraction(T: Any) -> Any:
    fn = T.func
    net = _mlp(T, (3, 4, 2), seed=3)
    params = {k: v.detach() for k, v in net.named_parameters()}

    def fnet_single(params, x):
        return fn.functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)

    x1, x2 = _t(T, 4, 3, seed=4), _t(T, 2, 3, seed=5)
    jac1 = fn.vmap(fn.jacrev(fnet_single), (None, 0))(params, x1)
    jac2 = fn.vmap(fn.jacrev(fnet_single), (None, 0))(params, x2)
    j1 = [j.flatten(2) for j in jac1.values()]
    j2 = [j.flatten(2) for j in jac2.values()]
    full = T.stack([T.einsum("Naf,Mbf->NMab", a, b) for a, b in zip(j1, j2, strict=True)]).sum(0)
    trace = T.stack([T.einsum("Naf,Maf->NM", a, b) for a, b in zip(j1, j2, strict=True)]).sum(0)
    diag = T.stack([T.einsum("Naf,Mbf->NMab", a, b) for a, b in zip(j1, j2, strict=True)]).sum(0)
    return (
        full,
        trace,
        diag.diagonal(dim1=-2, dim2=-1).sum(-1),
        {k: v.shape for k, v in jac1.items()},
    )


@program()
def prog_tut_fn_ntk_via_vjp_jvp(T: Any) -> Any:
    fn = T.func
    net = _mlp(T, (3, 2), seed=6)
    params = {k: v.detach() for k, v in net.named_parameters()}

    def f(p, x):
        return fn.functional_call(net, p, (x,))

    x1, x2 = _t(T, 2, 3, seed=7), _t(T, 2, 3, seed=8)
    _, vjp_fn = fn.vjp(lambda p: f(p, x2), params)

    def get_ntk_slice(vec):
        (vjps,) = vjp_fn(vec)
        _, jvps = fn.jvp(lambda p: f(p, x1), (params,), (vjps,))
        return jvps

    basis = T.eye(4).view(4, 2, 2)
    res = fn.vmap(get_ntk_slice)(basis)
    return res, res.shape


@program()
def prog_tut_fn_ensembling_stack_module_state(T: Any) -> Any:
    fn = T.func
    models = [_mlp(T, (3, 4, 2), seed=s) for s in range(3)]
    params, buffers = fn.stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")

    def fmodel(p, b, x):
        return fn.functional_call(base, (p, b), (x,))

    x = _t(T, 5, 3, seed=9)
    same = fn.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
    minibatches = _t(T, 3, 5, 3, seed=10)
    diff = fn.vmap(fmodel)(params, buffers, minibatches)
    loop_same = T.stack([m(x) for m in models])
    loop_diff = T.stack([m(xb) for m, xb in zip(models, minibatches, strict=True)])
    return {
        "keys": list(params),
        "shapes": {k: v.shape for k, v in params.items()},
        "leaf": [(v.is_leaf, v.requires_grad) for v in params.values()],
        "same": same.detach(),  # vmap's graph: see shadowgrad.func's docstring
        "diff": diff.detach(),
        "rg": (same.requires_grad, diff.requires_grad),
        "ok": ((same - loop_same).abs().max() < 1e-6, (diff - loop_diff).abs().max() < 1e-6),
        "meta": base[0].weight.shape,
        "bad_dims": raises(lambda: fn.vmap(fmodel, in_dims=(0, 0, 0))(params, buffers, x)),
    }


@program()
def prog_tut_fn_stack_module_state_grads_and_errors(T: Any) -> Any:
    fn = T.func
    models = [_seeded(T, T.nn.Linear(2, 1), s) for s in range(2)]
    params, _ = fn.stack_module_state(models)
    x = _t(T, 4, 2, seed=11)

    def f(p, xx):
        return fn.functional_call(models[0], p, (xx,)).pow(2).mean()

    losses = fn.vmap(f, in_dims=(0, None))(params, x)
    losses.sum().backward()
    bn = [T.nn.BatchNorm1d(2), T.nn.BatchNorm1d(2)]
    p2, b2 = fn.stack_module_state(bn)
    return {
        "losses": losses.detach(),  # vmap's graph: see shadowgrad.func's docstring
        "grads": {k: v.grad for k, v in params.items()},
        "orig_grad": models[0].weight.grad,
        "bn_buffers": b2,
        "bn_params": p2,
        "empty": raises(lambda: fn.stack_module_state([])),
        "mixed": raises(lambda: fn.stack_module_state([T.nn.Linear(2, 1), T.nn.Linear(2, 2)])),
    }


@program()
def prog_tut_fn_functional_call_variations(T: Any) -> Any:
    fn = T.func
    m = _mlp(T, (2, 3, 1), seed=12)
    x = _t(T, 4, 2, seed=13)
    new_w = {"0.weight": T.ones(3, 2), "2.bias": T.tensor([5.0])}
    partial = fn.functional_call(m, new_w, (x,))
    kw = fn.functional_call(m, {}, args=(), kwargs={"input": x})
    tied = raises(
        lambda: fn.functional_call(m, ({"0.bias": T.zeros(3)}, {"0.bias": T.ones(3)}), (x,))
    )
    unexpected = raises(lambda: fn.functional_call(m, {"nope": T.ones(1)}, (x,), strict=True))
    missing = raises(lambda: fn.functional_call(m, new_w, (x,), strict=True))
    return partial, kw, tied, unexpected, missing, m[0].weight[0], m(x)


# --- parametrizations ----------------------------------------------------------------------


class _SymmetricFactory:
    @staticmethod
    def make(T: Any) -> Any:
        class Symmetric(T.nn.Module):
            def forward(self, X):
                return X.triu() + X.triu(1).transpose(-1, -2)

        return Symmetric


def _symmetric(T: Any) -> Any:
    return _SymmetricFactory.make(T)


def _skew(T: Any) -> Any:
    class Skew(T.nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.transpose(-1, -2)

    return Skew


@program()
def prog_tut_fn_parametrize_symmetric_linear(T: Any) -> Any:
    P = T.nn.utils.parametrize
    layer = _seeded(T, T.nn.Linear(3, 3), 1)
    P.register_parametrization(layer, "weight", _symmetric(T)())
    A = layer.weight
    x = _t(T, 2, 3, seed=2)
    layer(x).pow(2).sum().backward()
    orig = layer.parametrizations.weight.original
    return {
        "sym": (A - A.T).abs().max(),
        "A": A,
        "A_grad_fn": A.grad_fn,
        "cls": type(layer).__name__,
        "orig_grad": orig.grad,
        "params": [n for n, _ in layer.named_parameters()],
        "sd": sorted(layer.state_dict()),
        "is_p": (P.is_parametrized(layer), P.is_parametrized(layer, "bias")),
        "plist": type(layer.parametrizations.weight).__name__,
    }


@program()
def prog_tut_fn_parametrize_skew_matrix_exp_orthogonal(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class MatrixExponential(T.nn.Module):
        def forward(self, X):
            return T.matrix_exp(X)

    layer = _seeded(T, T.nn.Linear(3, 3), 2)
    P.register_parametrization(layer, "weight", _skew(T)())
    P.register_parametrization(layer, "weight", MatrixExponential())
    Q = layer.weight
    eye = Q.T @ Q
    opt = T.optim.SGD(layer.parameters(), lr=0.1)
    layer(_t(T, 4, 3, seed=3)).sum().backward()
    opt.step()
    Q2 = layer.weight
    return Q, eye, Q2, (Q2.T @ Q2 - T.eye(3)).abs().max() < 1e-5, len(layer.parametrizations.weight)


@program()
def prog_tut_fn_parametrize_right_inverse_and_assign(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class Sym(T.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    layer = _seeded(T, T.nn.Linear(3, 3), 4)
    P.register_parametrization(layer, "weight", Sym())
    before = layer.parametrizations.weight.original.clone()
    X = _t(T, 3, 3, seed=5)
    S = X + X.T
    layer.weight = S
    after = layer.parametrizations.weight.original
    no_inv = _seeded(T, T.nn.Linear(3, 3), 4)
    P.register_parametrization(no_inv, "weight", _symmetric(T)())
    err = raises(lambda: setattr(no_inv, "weight", S))
    return before, after, layer.weight, (layer.weight - S).abs().max(), err


@program()
def prog_tut_fn_parametrize_cached_and_remove(T: Any) -> Any:
    P = T.nn.utils.parametrize

    calls = []

    class Counted(T.nn.Module):
        def forward(self, X):
            calls.append(1)
            return X * 2

    layer = _seeded(T, T.nn.Linear(2, 2), 6)
    P.register_parametrization(layer, "weight", Counted())
    n0 = len(calls)
    with P.cached():
        a = layer.weight
        b = layer.weight
        same = a is b
    n1 = len(calls)
    _ = layer.weight
    n2 = len(calls)
    c = _seeded(T, T.nn.Linear(2, 2), 6)
    P.register_parametrization(c, "weight", Counted())
    P.remove_parametrizations(layer, "weight", leave_parametrized=True)
    kept = layer.weight
    P.remove_parametrizations(c, "weight", leave_parametrized=False)
    return {
        "counts": (n0, n1, n2),
        "same": same,
        "kept": kept,
        "kept_type": type(kept).__name__,
        "cls": (type(layer).__name__, type(c).__name__),
        "orig": c.weight,
        "again": raises(lambda: P.remove_parametrizations(layer, "weight")),
        "hasattr": hasattr(layer, "parametrizations"),
    }


@program()
def prog_tut_fn_parametrize_shape_change_and_unsafe(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class Drop(T.nn.Module):
        def forward(self, X):
            return X[:, :2]

    class BadInv(T.nn.Module):
        def forward(self, X):
            return X * 2

        def right_inverse(self, X):
            return X.double()

    m = _seeded(T, T.nn.Linear(3, 3), 7)
    e1 = raises(lambda: P.register_parametrization(m, "weight", Drop()))
    e2 = raises(lambda: P.register_parametrization(m, "weight", BadInv()))
    e3 = raises(lambda: P.register_parametrization(m, "nothere", Drop()))
    u = _seeded(T, T.nn.Linear(3, 3), 7)
    P.register_parametrization(u, "weight", Drop(), unsafe=True)
    return e1, e2, e3, u.weight.shape, P.is_parametrized(m), raises(lambda: u(T.ones(1, 3)))


@program()
def prog_tut_fn_parametrizations_orthogonal_and_weight_norm(T: Any) -> Any:
    PZ = T.nn.utils.parametrizations
    T.manual_seed(0)
    lin = PZ.orthogonal(T.nn.Linear(4, 3))
    W = lin.weight
    T.manual_seed(1)
    wn = PZ.weight_norm(_seeded(T, T.nn.Linear(3, 2), 8))
    x = _t(T, 2, 3, seed=9)
    wn(x).sum().backward()
    return {
        "WWt": W @ W.T,
        "shape": W.shape,
        "wn_keys": sorted(wn.state_dict()),
        "g": wn.parametrizations.weight.original0,
        "g_grad": wn.parametrizations.weight.original0.grad,
        "v_grad": wn.parametrizations.weight.original1.grad,
        "w": wn.weight,
    }


@program()
def prog_tut_fn_orthogonal_maps_and_trivialization(T: Any) -> Any:
    PZ = T.nn.utils.parametrizations
    out = {}
    for kind in ("matrix_exp", "cayley", "householder"):
        for triv in (True, False):
            for shape in ((4, 3), (2, 5)):
                T.manual_seed(0)
                m = T.nn.Linear(shape[1], shape[0])
                PZ.orthogonal(m, orthogonal_map=kind, use_trivialization=triv)
                m(T.ones(2, shape[1])).sum().backward()
                out[f"{kind}_{triv}_{shape[0]}"] = (
                    m.weight,
                    sorted(n for n, _ in m.named_parameters()),
                    m.parametrizations.weight.original.grad,
                )
    out["bad_map"] = raises(lambda: PZ.orthogonal(T.nn.Linear(2, 2), orthogonal_map="qr"))
    out["bias_1d"] = raises(lambda: PZ.orthogonal(T.nn.Linear(2, 2), "bias"))
    T.manual_seed(1)
    q = PZ.orthogonal(T.nn.Linear(2, 2))
    q.weight = T.tensor([[0.0, 1.0], [1.0, 0.0]])
    out["assigned"] = q.weight
    return out


@program()
def prog_tut_fn_inference_mode_eval_and_frozen_layers(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    m = nn.Linear(2, 2)
    with T.inference_mode():
        y = m(T.ones(1, 2))
        xi = T.ones(1, 2)

    @T.no_grad()
    def evaluate(x):
        return m(x)

    @T.inference_mode()
    def predict(x):
        return m(x)

    T.manual_seed(0)
    net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    for p in net[0].parameters():
        p.requires_grad = False
    opt = T.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    net(T.ones(3, 2)).sum().backward()
    opt.step()
    frozen = nn.Linear(2, 1).requires_grad_(False)
    fout = frozen(T.ones(1, 2))
    return {
        "flags": (y.is_inference(), y.requires_grad, xi.is_inference()),
        "train_on_inf": raises(lambda: m(xi).sum().backward()),
        "save_inf": raises(lambda: (m.weight * xi).sum().backward()),
        "inplace_inf": raises(lambda: xi.add_(1)),
        "version_inf": raises(lambda: xi._version),
        "param_from_inf": raises(lambda: nn.Parameter(y)),
        "clone_ok": (m(xi.clone()).sum().backward(), m.weight.grad)[1],
        "evaluate": (evaluate(T.ones(1, 2)).requires_grad, evaluate.__name__),
        "predict": predict(T.ones(1, 2)).is_inference(),
        "frozen_grad": (net[0].weight.grad, net[1].weight, len(opt.state)),
        "frozen_all": (fout.requires_grad, raises(lambda: fout.sum().backward())),
        "set_rg_nonleaf": raises(lambda: setattr(m(T.ones(1, 2)), "requires_grad", False)),
        "int_param": raises(lambda: nn.Parameter(T.ones(2, dtype=T.long))),
    }


@program()
def prog_tut_fn_stateless_and_vector_utils(T: Any) -> Any:
    nn = T.nn
    U = nn.utils
    m = _seeded(T, nn.Linear(2, 1), 88)
    stateless = U.stateless.functional_call(m, {"bias": T.zeros(1)}, (T.ones(1, 2),))
    vec = U.parameters_to_vector(m.parameters())
    U.vector_to_parameters(T.arange(3.0), m.parameters())
    m(T.ones(1, 2)).sum().backward()
    norm = U.clip_grad_norm_(m.parameters(), 0.5)
    m.weight.grad = T.tensor([[float("inf"), 1.0]])
    return {
        "stateless": stateless,
        "vec": vec,
        "after": (m.weight, m.bias),
        "norm": norm,
        "bad_vec": raises(lambda: U.vector_to_parameters([1.0], m.parameters())),
        "nonfinite": raises(
            lambda: U.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
        ),
        "old_wn": sorted(n for n, _ in U.weight_norm(nn.Linear(2, 1)).named_parameters()),
    }


# --- pruning --------------------------------------------------------------------------------


def _lenet(T: Any) -> Any:
    class LeNetish(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = T.nn.Conv2d(1, 2, 3)
            self.conv2 = T.nn.Conv2d(2, 3, 2)
            self.fc1 = T.nn.Linear(3 * 2 * 2, 4)
            self.fc2 = T.nn.Linear(4, 2)

        def forward(self, x):
            x = T.nn.functional.max_pool2d(T.nn.functional.relu(self.conv1(x)), 2)
            x = T.nn.functional.relu(self.conv2(x))
            x = x.flatten(1)
            return self.fc2(T.nn.functional.relu(self.fc1(x)))

    return _seeded(T, LeNetish(), 21)


@program()
def prog_tut_fn_prune_random_unstructured_seeded(T: Any) -> Any:
    prune = _prune(T)
    model = _lenet(T)
    module = model.conv1
    T.manual_seed(3)
    prune.random_unstructured(module, name="weight", amount=0.3)
    hooks = list(module._forward_pre_hooks.values())
    return {
        "params": [n for n, _ in module.named_parameters()],
        "buffers": [n for n, _ in module.named_buffers()],
        "mask": module.weight_mask,
        "weight": module.weight,
        "weight_type": type(module.weight).__name__,
        "hook": (type(hooks[0]).__name__, hooks[0]._tensor_name, hooks[0].amount),
        "grad_fn": module.weight.grad_fn,
        "is_pruned": (prune.is_pruned(module), prune.is_pruned(model.fc1)),
    }


@program()
def prog_tut_fn_prune_l1_then_ln_structured_container(T: Any) -> Any:
    prune = _prune(T)
    module = _lenet(T).conv2
    prune.l1_unstructured(module, name="bias", amount=1)
    prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
    prune.ln_structured(module, name="weight", amount=1, n=float("inf"), dim=1)
    hook = next(h for h in module._forward_pre_hooks.values() if h._tensor_name == "weight")
    x = _t(T, 1, 2, 3, 3, seed=2)
    y = module(x)
    y.sum().backward()
    return {
        "bias": module.bias,
        "bias_mask": module.bias_mask,
        "weight_mask": module.weight_mask,
        "container": type(hook).__name__,
        "history": [type(h).__name__ for h in hook._pruning_methods],
        "n_hooks": len(module._forward_pre_hooks),
        "y": y,
        "orig_grad": module.weight_orig.grad,
        "nonzero": int((module.weight != 0).sum()),
    }


@program()
def prog_tut_fn_prune_remove_makes_permanent(T: Any) -> Any:
    prune = _prune(T)
    module = _lenet(T).fc1
    prune.l1_unstructured(module, "weight", amount=0.5)
    sd_before = sorted(module.state_dict())
    prune.remove(module, "weight")
    return {
        "sd_before": sd_before,
        "sd_after": sorted(module.state_dict()),
        "weight_is_param": type(module.weight).__name__,
        "w": module.weight,
        "hooks": len(module._forward_pre_hooks),
        "again": raises(lambda: prune.remove(module, "weight")),
        "never": raises(lambda: prune.remove(module, "bias")),
    }


@program()
def prog_tut_fn_prune_global_unstructured_sparsity(T: Any) -> Any:
    prune = _prune(T)
    model = _lenet(T)
    to_prune = (
        (model.conv1, "weight"),
        (model.conv2, "weight"),
        (model.fc1, "weight"),
        (model.fc2, "weight"),
    )
    prune.global_unstructured(to_prune, pruning_method=prune.L1Unstructured, amount=0.4)
    per = {n: float((m.weight == 0).sum()) / m.weight.nelement() for n, m in model.named_children()}
    total = sum(int((m.weight == 0).sum()) for m, _ in to_prune)
    out = model(_t(T, 2, 1, 8, 8, seed=4))
    bad = raises(
        lambda: prune.global_unstructured(
            [(model.fc2, "bias")], pruning_method=prune.LnStructured, amount=0.1
        )
    )
    return per, total, out, [n for n, _ in model.named_buffers()], bad


@program()
def prog_tut_fn_prune_custom_method(T: Any) -> Any:
    prune = _prune(T)

    class FooBarPruningMethod(prune.BasePruningMethod):
        PRUNING_TYPE = "unstructured"

        def compute_mask(self, t, default_mask):
            mask = default_mask.clone()
            mask.view(-1)[::2] = 0
            return mask

    def foobar_unstructured(module, name):
        FooBarPruningMethod.apply(module, name)
        return module

    m = _lenet(T)
    foobar_unstructured(m.fc2, name="bias")
    foobar_unstructured(m.fc2, name="bias")
    prune.identity(m.fc1, "weight")
    return m.fc2.bias_mask, m.fc2.bias, m.fc1.weight_mask.sum(), m.fc2.bias_orig


@program()
def prog_tut_fn_prune_amount_errors(T: Any) -> Any:
    prune = _prune(T)

    def fresh():
        return _seeded(T, T.nn.Linear(3, 2), 30)

    return {
        "too_many": raises(lambda: prune.l1_unstructured(fresh(), "weight", amount=7)),
        "neg": raises(lambda: prune.l1_unstructured(fresh(), "weight", amount=-0.1)),
        "gt1": raises(lambda: prune.l1_unstructured(fresh(), "weight", amount=1.5)),
        "str": raises(lambda: prune.l1_unstructured(fresh(), "weight", amount="half")),
        "no_name": raises(lambda: prune.l1_unstructured(fresh(), "nope", amount=1)),
        "ln_dim": raises(lambda: prune.ln_structured(fresh(), "weight", amount=1, n=1, dim=3)),
        "zero": prune.l1_unstructured(fresh(), "weight", amount=0).weight_mask,
        "all": prune.l1_unstructured(fresh(), "weight", amount=1.0).weight,
    }


@program()
def prog_tut_fn_prune_importance_scores_and_default_mask(T: Any) -> Any:
    prune = _prune(T)
    m = _seeded(T, T.nn.Linear(3, 2), 31)
    scores = T.tensor(_data(2, 3, seed=32)).abs()
    prune.l1_unstructured(m, "weight", amount=2, importance_scores=scores)
    m1 = m.weight_mask.clone()
    prune.l1_unstructured(m, "weight", amount=2)
    m2 = m.weight_mask.clone()
    m3 = prune.custom_from_mask(_seeded(T, T.nn.Linear(3, 2), 31), "bias", T.tensor([0.0, 1.0]))
    return m1, m2, m3.bias, m3.bias_orig.requires_grad, m3.bias.requires_grad


@program()
def prog_tut_fn_prune_ln_structured_norm_orders(T: Any) -> Any:
    prune = _prune(T)

    def lin():
        return _seeded(T, T.nn.Linear(4, 3), 70)

    out = {}
    for name, n in (("l1", 1), ("l2", 2), ("fro", "fro"), ("inf", float("inf"))):
        m = lin()
        prune.ln_structured(m, "weight", amount=1, n=n, dim=0)
        prune.ln_structured(m, "weight", amount=0.5, n=n, dim=-1)
        out[name] = m.weight_mask
    m = lin()
    prune.ln_structured(m, "weight", amount=2, n=-float("inf"), dim=1)
    out["neg_inf"] = m.weight_mask
    out["nuc"] = raises(lambda: prune.ln_structured(lin(), "weight", amount=1, n="nuc", dim=0))
    out["norm_nuc_1d"] = raises(lambda: T.norm(T.ones(2, 3), p="nuc", dim=1))
    out["norm_fro_3"] = raises(lambda: T.norm(T.ones(2, 3), p="fro", dim=(0, 1, 2)))
    out["mnorm_dims"] = raises(lambda: T.linalg.matrix_norm(T.ones(2, 3), dim=(0, 0)))
    out["mnorm_1"] = raises(lambda: T.linalg.matrix_norm(T.ones(2, 3), "nuc", dim=(1,)))
    return out


@program()
def prog_tut_fn_prune_container_chaining(T: Any) -> Any:
    prune = _prune(T)
    m = _seeded(T, T.nn.Linear(4, 3), 71)
    prune.l1_unstructured(m, "weight", 0.25)
    prune.ln_structured(m, "weight", 1, n=1, dim=0)
    prune.l1_unstructured(m, "weight", 2)
    c = next(iter(m._forward_pre_hooks.values()))
    e_add = raises(lambda: c.add_pruning_method(3))
    e_name = raises(lambda: c.add_pruning_method(prune.L1Unstructured(1)))
    s = _seeded(T, T.nn.Linear(4, 3), 71)
    prune.ln_structured(s, "weight", 0.34, n=2, dim=1)
    prune.ln_structured(s, "weight", 1, n=2, dim=1)
    prune.ln_structured(s, "weight", 1, n=2, dim=0)
    return {
        "mask": m.weight_mask,
        "kinds": [type(x).__name__ for x in c],
        "len": len(c),
        "amounts": [x.amount for x in c],
        "e_add": e_add,
        "e_name": e_name,
        "s_mask": s.weight_mask,
        "out": m(T.ones(1, 4)),
    }


@program()
def prog_tut_fn_prune_with_functional_call_and_parametrize(T: Any) -> Any:
    prune = _prune(T)
    fn = T.func
    P = T.nn.utils.parametrize

    class Twice(T.nn.Module):
        def forward(self, X):
            return X * 2

    m = _seeded(T, T.nn.Linear(3, 2), 89)
    prune.l1_unstructured(m, "weight", 2)
    x = _t(T, 1, 3, seed=90)
    a = T.nn.Linear(2, 2)
    prune.identity(a, "weight")
    b = T.nn.Linear(2, 2)
    P.register_parametrization(b, "weight", Twice())
    return {
        "orig": fn.functional_call(m, {"weight_orig": T.ones(2, 3)}, (x,)),
        "weight": fn.functional_call(m, {"weight": T.ones(2, 3)}, (x,)),
        "mask": fn.functional_call(m, {"weight_mask": T.ones(2, 3)}, (x,)),
        "sd": list(m.state_dict()),
        "deepcopy": raises(lambda: copy.deepcopy(m)),
        "prune_then_param": raises(lambda: P.register_parametrization(a, "weight", Twice())),
        "param_then_prune": raises(lambda: prune.l1_unstructured(b, "weight", 1)),
    }


# --- "What is torch.nn really?" -----------------------------------------------------------


def _toy_mnist(T: Any, n: int = 24, d: int = 16, c: int = 4, seed: int = 0) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, (n, d)).astype(np.float32)
    y = rng.integers(0, c, n)
    return T.tensor(x), T.tensor(y)


@program()
def prog_tut_fn_nn_really_manual_weights(T: Any) -> Any:
    x_train, y_train = _toy_mnist(T)
    weights = T.tensor(_data(16, 4, seed=1)) / np.sqrt(16)
    weights.requires_grad_()
    bias = T.zeros(4, requires_grad=True)

    def log_softmax(x):
        return x - x.exp().sum(-1).log().unsqueeze(-1)

    def model(xb):
        return log_softmax(xb @ weights + bias)

    def nll(inp, target):
        return -inp[range(target.shape[0]), target].mean()

    def accuracy(out, yb):
        return (T.argmax(out, dim=1) == yb).float().mean()

    bs, lr = 8, 0.5
    first = model(x_train[:bs])
    start = (nll(first, y_train[:bs]), accuracy(first, y_train[:bs]))
    losses = []
    for _ in range(2):
        for i in range((24 - 1) // bs + 1):
            xb, yb = x_train[i * bs : i * bs + bs], y_train[i * bs : i * bs + bs]
            loss = nll(model(xb), yb)
            loss.backward()
            with T.no_grad():
                weights -= weights.grad * lr
                bias -= bias.grad * lr
                weights.grad.zero_()
                bias.grad.zero_()
            losses.append(loss)
    return start, first.grad_fn, losses, weights, bias, weights.is_leaf, weights._version


@program()
def prog_tut_fn_nn_really_refactor_steps(T: Any) -> Any:
    F = T.nn.functional
    nn = T.nn
    x_train, y_train = _toy_mnist(T, seed=2)

    class MnistLogistic(nn.Module):
        def __init__(self):
            super().__init__()
            self.weights = nn.Parameter(T.tensor(_data(16, 4, seed=3)) / np.sqrt(16))
            self.bias = nn.Parameter(T.zeros(4))

        def forward(self, xb):
            return xb @ self.weights + self.bias

    class MnistLinear(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(16, 4)

        def forward(self, xb):
            return self.lin(xb)

    m1 = MnistLogistic()
    m2 = MnistLinear()
    with T.no_grad():
        m2.lin.weight.copy_(m1.weights.T)
        m2.lin.bias.zero_()
    out = []
    for m in (m1, m2):
        opt = T.optim.SGD(m.parameters(), lr=0.5)
        ds = T.utils.data.TensorDataset(x_train, y_train)
        dl = T.utils.data.DataLoader(ds, batch_size=8)
        for xb, yb in dl:
            loss = F.cross_entropy(m(xb), yb)
            loss.backward()
            opt.step()
            opt.zero_grad()
        out.append((loss, [p.grad for p in m.parameters()], F.cross_entropy(m(x_train), y_train)))
    return out, list(dict(m1.named_parameters())), ds[3], len(dl)


@program()
def prog_tut_fn_nn_really_fit_with_validation(T: Any) -> Any:
    F = T.nn.functional
    nn = T.nn
    x_train, y_train = _toy_mnist(T, n=20, seed=4)
    x_valid, y_valid = _toy_mnist(T, n=10, seed=5)
    train_ds = T.utils.data.TensorDataset(x_train, y_train)
    valid_ds = T.utils.data.TensorDataset(x_valid, y_valid)

    def get_data(bs):
        g = T.Generator().manual_seed(0)
        return (
            T.utils.data.DataLoader(train_ds, batch_size=bs, shuffle=True, generator=g),
            T.utils.data.DataLoader(valid_ds, batch_size=bs * 2),
        )

    def loss_batch(model, loss_func, xb, yb, opt=None):
        loss = loss_func(model(xb), yb)
        if opt is not None:
            loss.backward()
            opt.step()
            opt.zero_grad()
        return loss.item(), len(xb)

    def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
        hist = []
        for _ in range(epochs):
            model.train()
            for xb, yb in train_dl:
                loss_batch(model, loss_func, xb, yb, opt)
            model.eval()
            with T.no_grad():
                losses, nums = zip(
                    *[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl], strict=False
                )
            hist.append(np.sum(np.multiply(losses, nums)) / np.sum(nums))
        return hist

    model = _seeded(T, nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4)), 6)
    opt = T.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    train_dl, valid_dl = get_data(6)
    hist = fit(3, model, F.cross_entropy, opt, train_dl, valid_dl)
    order = [yb for _, yb in train_dl]
    return T.tensor(hist), model[0].weight, order, model.training


@program()
def prog_tut_fn_nn_really_cnn_lambda_and_wrapped_loader(T: Any) -> Any:
    F = T.nn.functional
    nn = T.nn
    x_train, y_train = _toy_mnist(T, n=8, seed=7)

    class Lambda(nn.Module):
        def __init__(self, func):
            super().__init__()
            self.func = func

        def forward(self, x):
            return self.func(x)

    def preprocess(x, y):
        return x.view(-1, 1, 4, 4), y

    class WrappedDataLoader:
        def __init__(self, dl, func):
            self.dl, self.func = dl, func

        def __len__(self):
            return len(self.dl)

        def __iter__(self):
            for b in self.dl:
                yield self.func(*b)

    model = nn.Sequential(
        nn.Conv2d(1, 3, kernel_size=3, stride=1, padding=1),
        nn.ReLU(),
        nn.Conv2d(3, 4, kernel_size=3, stride=2, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        Lambda(lambda x: x.view(x.size(0), -1)),
    )
    _seeded(T, model, 8)
    dl = WrappedDataLoader(
        T.utils.data.DataLoader(T.utils.data.TensorDataset(x_train, y_train), batch_size=4),
        preprocess,
    )
    opt = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for xb, yb in dl:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss)
    bad = raises(lambda: model(x_train))
    return losses, model[0].weight, len(dl), bad, [type(m).__name__ for m in model]


# --- basics: build a model, optimize it --------------------------------------------------


@program()
def prog_tut_fn_buildmodel_flatten_stack_softmax(T: Any) -> Any:
    nn = T.nn

    class NeuralNetwork(nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.linear_relu_stack = nn.Sequential(
                nn.Linear(4 * 4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3)
            )

        def forward(self, x):
            return self.linear_relu_stack(self.flatten(x))

    model = _seeded(T, NeuralNetwork(), 9)
    X = T.tensor(np.random.default_rng(10).uniform(0, 1, (2, 4, 4)).astype(np.float32))
    logits = model(X)
    pred_probab = nn.Softmax(dim=1)(logits)
    y_pred = pred_probab.argmax(1)
    images = T.tensor(np.random.default_rng(11).uniform(0, 1, (3, 4, 4)).astype(np.float32))
    flat = nn.Flatten()(images)
    h = nn.ReLU()(nn.Linear(16, 5)(flat))
    return {
        "logits": logits,
        "probab": pred_probab,
        "pred": y_pred,
        "flat": flat.shape,
        "h_shape": h.shape,
        "h_min": h.min() >= 0,
        "named": [(n, p.size()) for n, p in model.named_parameters()],
        "p0": next(model.parameters())[:2, :3],
        "flatten_args": (nn.Flatten(0).start_dim, nn.Flatten().end_dim),
        "softmax_no_dim": raises(lambda: nn.Softmax()(logits)),
    }


@program()
def prog_tut_fn_optimization_train_test_loops(T: Any) -> Any:
    nn = T.nn
    x, y = _toy_mnist(T, n=30, d=6, c=3, seed=12)
    train = T.utils.data.TensorDataset(x[:20], y[:20])
    test = T.utils.data.TensorDataset(x[20:], y[20:])
    train_dl = T.utils.data.DataLoader(train, batch_size=8)
    test_dl = T.utils.data.DataLoader(test, batch_size=8)
    model = _seeded(T, nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3)), 13)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = T.optim.SGD(model.parameters(), lr=1e-1)

    def train_loop(dataloader, model, loss_fn, optimizer):
        size = len(dataloader.dataset)
        model.train()
        rec = []
        for batch, (X, yy) in enumerate(dataloader):
            loss = loss_fn(model(X), yy)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            rec.append((batch, loss.item(), (batch + 1) * len(X), size))
        return rec

    def test_loop(dataloader, model, loss_fn):
        model.eval()
        num_batches = len(dataloader)
        test_loss, correct = 0, 0
        with T.no_grad():
            for X, yy in dataloader:
                pred = model(X)
                test_loss += loss_fn(pred, yy).item()
                correct += (pred.argmax(1) == yy).type(T.float).sum().item()
        return test_loss / num_batches, correct / len(dataloader.dataset)

    hist = []
    for _ in range(3):
        hist.append(
            (train_loop(train_dl, model, loss_fn, optimizer), test_loop(test_dl, model, loss_fn))
        )
    grads_after_zero = [p.grad for p in model.parameters()]
    return hist, grads_after_zero, model[2].bias


@program()
def prog_tut_fn_blitz_net_conv_pool_and_graph(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 2, 3)
            self.conv2 = nn.Conv2d(2, 4, 3)
            self.fc1 = nn.Linear(4 * 2 * 2, 6)
            self.fc2 = nn.Linear(6, 3)

        def forward(self, input):
            c1 = F.relu(self.conv1(input))
            s2 = F.max_pool2d(c1, (2, 2))
            c3 = F.relu(self.conv2(s2))
            s4 = F.max_pool2d(c3, 2)
            s4 = T.flatten(s4, 1)
            return self.fc2(F.relu(self.fc1(s4)))

    net = _seeded(T, Net(), 14)
    params = list(net.parameters())
    inp = T.tensor(_data(1, 1, 14, 14, seed=15))
    out = net(inp)
    net.zero_grad()
    out.backward(T.tensor(_data(1, 3, seed=16)))
    g1 = net.conv1.bias.grad.clone()
    target = T.tensor(_data(3, seed=17)).view(1, -1)
    criterion = nn.MSELoss()
    output = net(inp)
    loss = criterion(output, target)
    chain = [
        loss.grad_fn,
        loss.grad_fn.next_functions[0][0],
        loss.grad_fn.next_functions[0][0].next_functions[0][0],
    ]
    net.zero_grad()
    before = net.conv1.bias.grad
    loss.backward()
    after = net.conv1.bias.grad
    lr = 0.01
    for f in net.parameters():
        f.data.sub_(f.grad.data * lr)
    return {
        "n": len(params),
        "shape0": params[0].size(),
        "out": out,
        "g1": g1,
        "loss": loss,
        "chain": [type(c).__name__ for c in chain],
        "before": before,
        "after": after,
        "w": net.conv1.weight,
        "unbatched": net.conv1(inp[0]).shape,
        "bad_rank": raises(lambda: net(inp[0, 0])),
        "out_no_grad": raises(lambda: out.backward()),
    }


@program()
def prog_tut_fn_blitz_optimizer_loop_and_accumulation(T: Any) -> Any:
    nn = T.nn
    net = _mlp(T, (4, 3, 2), seed=18)
    x, target = _t(T, 3, 4, seed=19), _t(T, 3, 2, seed=20)
    opt = T.optim.SGD(net.parameters(), lr=0.01)
    crit = nn.MSELoss()
    recs = []
    for i in range(3):
        if i != 1:  # forgetting zero_grad once: the gradients accumulate
            opt.zero_grad()
        loss = crit(net(x), target)
        loss.backward()
        recs.append((loss, net[0].bias.grad.clone()))
        opt.step()
    opt.zero_grad(set_to_none=False)
    return recs, net[0].bias.grad, net[2].weight


@program()
def prog_tut_fn_ntk_nested_vmap_of_vjp_jvp(T: Any) -> Any:
    fn = T.func
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2))
    params = {k: v.detach() for k, v in net.named_parameters()}

    def fnet_single(p, x):
        return fn.functional_call(net, p, (x.unsqueeze(0),)).squeeze(0)

    def get_ntk(x1, x2):
        out, vjp_fn = fn.vjp(lambda p: fnet_single(p, x1), params)

        def get_ntk_slice(vec):
            (v,) = vjp_fn(vec)
            return fn.jvp(lambda p: fnet_single(p, x2), (params,), (v,))[1]

        basis = T.eye(out.numel(), dtype=out.dtype).view(out.numel(), -1)
        return fn.vmap(get_ntk_slice)(basis)

    x1, x2 = T.randn(3, 3), T.randn(2, 3)
    ntk = fn.vmap(fn.vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    j1 = fn.vmap(fn.jacrev(fnet_single), (None, 0))(params, x1)
    j2 = fn.vmap(fn.jacfwd(fnet_single), (None, 0))(params, x2)
    by_jac = sum(
        T.einsum("Naf,Mbf->NMab", a.flatten(2), b.flatten(2))
        for a, b in zip(j1.values(), j2.values(), strict=True)
    )
    return ntk.detach(), by_jac.detach(), (ntk - by_jac).abs().max() < 1e-5


@program()
def prog_tut_fn_printing_progress_and_predictions(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(1)
    model = nn.Sequential(nn.Flatten(), nn.Linear(4, 3))
    X = T.rand(2, 2, 2)
    logits = model(X)
    pred = nn.Softmax(dim=1)(logits).argmax(1)
    loss = nn.CrossEntropyLoss()(logits, T.tensor([0, 2]))
    correct = (logits.argmax(1) == T.tensor([0, 2])).type(T.float).sum().item() / 2
    return {
        "loss_line": f"loss: {loss:>7f}  [{2:>5d}/{8:>5d}]",
        "acc_line": f"Accuracy: {(100 * correct):>0.1f}%",
        "pred_line": f"Predicted class: {pred}",
        "logits": str(logits),
        "param": str(model[1].bias),
        "fmt_int": f"{T.tensor(3):>4d}",
        "fmt_vec": raises(lambda: f"{T.tensor([1.0, 2.0]):>7f}"),
        "item_vec": raises(lambda: T.tensor([1.0, 2.0]).item()),
        "bool_vec": raises(lambda: bool(T.tensor([1.0, 2.0]))),
        "int_1elem": int(T.tensor([3.7])),
        "round": raises(lambda: round(T.tensor(2.567), 2)),
        "opt": repr(T.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)),
        "default_lr": T.optim.SGD(model.parameters()).defaults["lr"],
        "lr_none": raises(lambda: T.optim.SGD(model.parameters(), lr=None)),
    }


# --- saving and loading -------------------------------------------------------------------


def _roundtrip(T: Any, obj: Any, **kw: Any) -> Any:
    buf = io.BytesIO()
    T.save(obj, buf)
    buf.seek(0)
    return T.load(buf, **kw)


def _thenet(T: Any, seed: int = 22) -> Any:
    nn = T.nn
    return _seeded(
        T, nn.Sequential(nn.Conv2d(1, 2, 2), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 2)), seed
    )


@program()
def prog_tut_fn_save_state_dict_roundtrip_and_infer(T: Any) -> Any:
    model = _thenet(T)
    opt = T.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    x = _t(T, 2, 1, 3, 3, seed=23)
    model(x).sum().backward()
    opt.step()
    sd = model.state_dict()
    info = {k: (tuple(v.size()), v.requires_grad, str(v.dtype)) for k, v in sd.items()}
    osd = opt.state_dict()
    loaded = _roundtrip(T, sd)
    fresh = _thenet(T, seed=99)
    res = fresh.load_state_dict(loaded)
    fresh.eval()
    model.eval()
    return {
        "info": info,
        "type": type(loaded).__name__,
        "osd_groups": osd["param_groups"],
        "osd_state_keys": list(osd["state"]),
        "res": (list(res.missing_keys), list(res.unexpected_keys), str(res)),
        "res_type": type(res).__name__,
        "same": fresh(x) - model(x),
        "nbt": loaded["1.num_batches_tracked"],
    }


@program()
def prog_tut_fn_save_checkpoint_dict_resume(T: Any) -> Any:
    model = _mlp(T, (3, 4, 2), seed=24)
    opt = T.optim.Adam(model.parameters(), lr=0.01)
    x, y = _t(T, 5, 3, seed=25), _t(T, 5, 2, seed=26)
    for _ in range(2):
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    ckpt = _roundtrip(
        T,
        {
            "epoch": 2,
            "model_state_dict": model.state_dict(),
            "optimizer_state_dict": opt.state_dict(),
            "loss": loss,
        },
    )
    m2 = _mlp(T, (3, 4, 2), seed=0)
    o2 = T.optim.Adam(m2.parameters(), lr=0.5)
    m2.load_state_dict(ckpt["model_state_dict"])
    o2.load_state_dict(ckpt["optimizer_state_dict"])
    traj = []
    for mm, oo in ((model, opt), (m2, o2)):
        oo.zero_grad()
        T.nn.functional.mse_loss(mm(x), y).backward()
        oo.step()
        traj.append(mm[0].weight)
    return (
        ckpt["epoch"],
        ckpt["loss"],
        traj,
        o2.param_groups[0]["lr"],
        o2.state[m2[0].weight]["step"],
    )


@program()
def prog_tut_fn_load_state_dict_strict_mismatch_messages(T: Any) -> Any:
    nn = T.nn
    a = _mlp(T, (3, 4, 2), seed=27)
    b = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Linear(2, 1)), 28)
    c = _seeded(T, nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)), 29)
    sd = _roundtrip(T, a.state_dict())
    e_missing = raises(lambda: b.load_state_dict(sd))
    r_loose = b.load_state_dict(sd, strict=False)
    e_unexp = raises(lambda: a.load_state_dict({**sd, "3.weight": T.ones(1)}))
    e_size = raises(lambda: c.load_state_dict(sd))
    e_size_loose = raises(lambda: c.load_state_dict(sd, strict=False))
    e_type = raises(lambda: a.load_state_dict({**sd, "0.bias": [1.0, 2.0, 3.0, 4.0]}))
    e_notdict = raises(lambda: a.load_state_dict([1, 2]))
    return {
        "missing": e_missing,
        "loose": (r_loose.missing_keys, r_loose.unexpected_keys),
        "loose_eq": r_loose == ([], []),
        "unexp": e_unexp,
        "size": e_size,
        "size_loose": e_size_loose,
        "type": e_type,
        "notdict": e_notdict,
        "b_after": b[0].weight,
    }


@program()
def prog_tut_fn_save_whole_tensors_views_and_prefix(T: Any) -> Any:
    base = T.arange(6.0)
    view = base[2:4]
    loaded = _roundtrip(T, {"base": base, "view": view, "n": 3, "lst": [base, base * 2]})
    loaded["base"][2] = 100.0
    shared = loaded["view"][0].item()
    m = _mlp(T, (2, 2), seed=30)
    sd = {"module." + k: v for k, v in m.state_dict().items()}
    T.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module.")
    m2 = _mlp(T, (2, 2), seed=31)
    r = m2.load_state_dict(sd)
    kv = m.state_dict(keep_vars=True)
    rg = _roundtrip(T, T.ones(2, requires_grad=True))
    return {
        "loaded": loaded,
        "shared": shared,
        "keys": list(sd),
        "r": str(r),
        "eq": (m2[0].weight == m[0].weight).all(),
        "kv": [type(v).__name__ for v in kv.values()],
        "kv_rg": [v.requires_grad for v in kv.values()],
        "rg": (rg.requires_grad, rg.is_leaf),
        "sd_rg": [v.requires_grad for v in m.state_dict().values()],
    }


@program()
def prog_tut_fn_save_persistent_buffers_and_assign(T: Any) -> Any:
    nn = T.nn

    class WithBufs(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)
            self.register_buffer("running", T.zeros(2))
            self.register_buffer("scratch", T.ones(2), persistent=False)

        def forward(self, x):
            return self.lin(x) + self.running + self.scratch

    m = _seeded(T, WithBufs(), 32)
    sd = m.state_dict()
    m2 = WithBufs()
    new_sd = {k: v.clone() + 1 for k, v in sd.items()}
    r = m2.load_state_dict(new_sd, assign=True)
    ident = m2.lin.weight is new_sd["lin.weight"]
    x = _t(T, 1, 2, seed=33)
    return {
        "keys": list(sd),
        "r": r,
        "assign_type": type(m2.lin.weight).__name__,
        "assign_rg": m2.lin.weight.requires_grad,
        "ident": ident,
        "out": m2(x),
        "buffers": [n for n, _ in m.named_buffers()],
        "extra_key": raises(lambda: m.load_state_dict({**sd, "scratch": T.ones(2)})),
    }


@program()
def prog_tut_fn_load_weights_only_and_map_location(T: Any) -> Any:
    buf = io.BytesIO()
    T.save({"a": T.ones(2, dtype=T.float16), "b": (1, 2.5, "s"), "c": T.tensor([True])}, buf)
    buf.seek(0)
    out = T.load(buf, map_location="cpu", weights_only=True)
    buf.seek(0)
    out2 = T.load(buf, map_location=T.device("cpu"))
    forgot_seek = io.BytesIO()
    T.save(T.ones(1), forgot_seek)
    return (
        out,
        out2,
        out["a"].dtype,
        raises(lambda: T.load(forgot_seek)),
        raises(lambda: T.load(forgot_seek, weights_only=False)),
        raises(lambda: T.load(io.BytesIO())),
    )


@program()
def prog_tut_fn_save_load_across_devices_and_paths(T: Any) -> Any:
    import os
    import tempfile

    model = _mlp(T, (2, 2), seed=87)
    buf = io.BytesIO()
    T.save({"sd": model.state_dict(), "note": "epoch 3"}, buf)

    def load(**kw):
        buf.seek(0)
        return T.load(buf, **kw)

    meta_only = io.BytesIO()
    T.save({"n": 1, "s": "x"}, meta_only)
    meta_only.seek(0)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "model.pt")
        T.save(model.state_dict(), path)
        from_path = T.load(path, mmap=True)
        from_pathlib = T.load(__import__("pathlib").Path(path), map_location="cpu")
    return {
        "cpu": load(map_location="cpu")["sd"],
        "cpu_dev": load(map_location=T.device("cpu"))["note"],
        "cuda": raises(lambda: load(map_location="cuda:0")),
        "cuda_dev": raises(lambda: load(map_location=T.device("cuda"))),
        "cuda_dict": raises(lambda: load(map_location={"cpu": "cuda:1"})),
        "dict_other": load(map_location={"cuda:0": "cpu"})["sd"]["0.bias"],
        "fn": load(map_location=lambda storage, loc: storage)["note"],
        "no_tensors_cuda": T.load(meta_only, map_location="cuda"),
        "mmap_buffer": raises(lambda: load(mmap=True)),
        "from_path": from_path,
        "from_pathlib": from_pathlib["0.weight"],
        "no_parent": raises(lambda: T.save({}, os.path.join("no_such_dir_tut_fn", "x.pt"))),
        "cuda_avail": T.cuda.is_available(),
    }


# --- module hooks --------------------------------------------------------------------------


@program()
def prog_tut_fn_hooks_forward_activations_and_remove(T: Any) -> Any:
    model = _mlp(T, (3, 4, 4, 2), seed=34)
    acts: dict[str, Any] = {}
    handles = []

    def get_activation(name):
        def hook(module, inp, out):
            acts[name] = (type(inp).__name__, len(inp), out.detach(), out.requires_grad)

        return hook

    for name, mod in model.named_modules():
        if isinstance(mod, T.nn.ReLU):
            handles.append(mod.register_forward_hook(get_activation(name)))
    x = _t(T, 2, 3, seed=35)
    y = model(x)
    n_first = len(acts)
    for h in handles:
        h.remove()
    acts.clear()
    model(x)
    handles[0].remove()
    return y, n_first, dict(acts), len(model[1]._forward_hooks)


@program()
def prog_tut_fn_hooks_forward_pre_modifies_input_and_kwargs(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 36)
    log = []

    def pre(module, args):
        log.append(("pre", len(args)))
        return (args[0] * 2,)

    def pre_single(module, args):
        log.append(("pre1",))
        return args[0] + 1  # a non-tuple return is wrapped

    def fwd_replace(module, args, out):
        log.append(("fwd", type(args).__name__))
        return out * 0

    h1 = lin.register_forward_pre_hook(pre)
    x = _t(T, 1, 2, seed=37, rg=True)
    a = lin(x)
    h2 = lin.register_forward_pre_hook(pre_single, prepend=True)
    b = lin(x)
    h3 = lin.register_forward_hook(fwd_replace)
    c = lin(x)
    h1.remove()
    h2.remove()
    h3.remove()

    class KW(T.nn.Module):
        def forward(self, x, scale=1.0):
            return x * scale

    m = KW()

    def pre_kw(module, args, kwargs):
        log.append(("kw", sorted(kwargs)))
        return args, {"scale": kwargs.get("scale", 1.0) * 10}

    def post_kw(module, args, kwargs, out):
        log.append(("post_kw", kwargs))
        return out + 1

    m.register_forward_pre_hook(pre_kw, with_kwargs=True)
    m.register_forward_hook(post_kw, with_kwargs=True)
    d = m(T.ones(2), scale=2.0)
    c.sum().backward()
    return a, b, c, d, log, x.grad, c.grad_fn


@program()
def prog_tut_fn_hooks_full_backward_grad_input_output(T: Any) -> Any:
    model = _mlp(T, (3, 4, 2), seed=38)
    seen = []

    def bhook(module, grad_input, grad_output):
        seen.append(
            (
                type(module).__name__,
                [None if g is None else g.clone() for g in grad_input],
                [g.clone() for g in grad_output],
            )
        )

    def pre_bhook(module, grad_output):
        seen.append(("pre", type(module).__name__, len(grad_output)))

    for m in model:
        m.register_full_backward_hook(bhook)
    model[2].register_full_backward_pre_hook(pre_bhook)
    x = _t(T, 2, 3, seed=39)
    out = model(x)
    out.sum().backward()
    x2 = _t(T, 2, 3, seed=39, rg=True)
    seen.append("second")
    model(x2).pow(2).sum().backward()
    return seen, out.grad_fn, x2.grad


@program()
def prog_tut_fn_hooks_backward_hook_replaces_grad_input(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 40)
    act = T.nn.Tanh()

    def clip(module, grad_input, grad_output):
        return tuple(None if g is None else g.clamp(-0.1, 0.1) for g in grad_input)

    def bad_len(module, grad_input, grad_output):
        return (grad_input[0], grad_input[0])

    def pre_scale(module, grad_output):
        return (grad_output[0] * 3,)

    act.register_full_backward_hook(clip)
    lin.register_full_backward_pre_hook(pre_scale)
    x = _t(T, 3, 2, seed=41, rg=True)
    y = act(lin(x))
    y.sum().backward()
    g_w = lin.weight.grad.clone()
    xg = x.grad.clone()
    act2 = T.nn.Sigmoid()
    act2.register_full_backward_hook(bad_len)
    z = act2(_t(T, 2, seed=42, rg=True))
    return y, g_w, xg, raises(lambda: z.sum().backward())


@program()
def prog_tut_fn_hooks_backward_hook_inplace_and_mixing(T: Any) -> Any:
    act = T.nn.ReLU()
    act.register_full_backward_hook(lambda m, gi, go: None)
    x = _t(T, 3, seed=43, rg=True)
    y = act(x)
    e_inplace = raises(lambda: y.add_(1))
    lin = _seeded(T, T.nn.Linear(2, 2), 44)
    lin.register_full_backward_hook(lambda m, gi, go: None)
    e_mix = raises(lambda: lin.register_backward_hook(lambda m, gi, go: None))
    inp_act = T.nn.ReLU(inplace=True)
    inp_act.register_full_backward_hook(lambda m, gi, go: None)
    e_inp_mod = raises(lambda: inp_act(x * 1))
    return e_inplace, e_mix, e_inp_mod, y.grad_fn


@program()
def prog_tut_fn_hooks_global_module_hooks_and_order(T: Any) -> Any:
    mod = T.nn.modules.module
    log = []
    model = _mlp(T, (2, 2, 2), seed=45)
    h1 = mod.register_module_forward_pre_hook(lambda m, a: log.append(("gpre", type(m).__name__)))
    h2 = mod.register_module_forward_hook(lambda m, a, o: log.append(("gfwd", type(m).__name__)))
    h3 = model[0].register_forward_hook(lambda m, a, o: log.append(("local", 0)))
    h4 = model[0].register_forward_hook(
        lambda m, a, o: log.append(("local_first", 0)), prepend=True
    )
    try:
        model(_t(T, 1, 2, seed=46))
    finally:
        h1.remove()
        h2.remove()
    h3.remove()
    h4.remove()
    model(_t(T, 1, 2, seed=46))
    return log


@program()
def prog_tut_fn_hooks_always_call_on_exception(T: Any) -> Any:
    log = []

    class Boom(T.nn.Module):
        def forward(self, x):
            raise ValueError("boom in forward")

    m = Boom()
    m.register_forward_hook(lambda mod, a, o: log.append(("always", o)), always_call=True)
    m.register_forward_hook(lambda mod, a, o: log.append(("normal", o)))
    err = raises(lambda: m(T.ones(1)))
    return err, log


@program()
def prog_tut_fn_hooks_tensor_hooks_inside_module(T: Any) -> Any:
    log = []

    class Net(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = T.nn.Linear(3, 2)

        def forward(self, x):
            h = self.fc(x)
            h.register_hook(lambda g: log.append(("h", g.clone())))
            h.retain_grad()
            self.h = h
            return h.relu().sum()

    net = _seeded(T, Net(), 47)
    net.fc.weight.register_hook(lambda g: g * 0.5)
    loss = net(_t(T, 2, 3, seed=48))
    loss.backward()
    return log, net.h.grad, net.fc.weight.grad, net.h.is_leaf, net.h.retains_grad


# --- more torch.func and autograd.functional ---------------------------------------------


@program()
def prog_tut_fn_autograd_functional_jacobian_strategies(T: Any) -> Any:
    AF = T.autograd.functional

    def f(x, y):
        return (x * y.sin()).cumsum(0), x.pow(2).sum()

    x, y = _t(T, 3, seed=1), _t(T, 3, seed=2)
    j = AF.jacobian(f, (x, y))
    jv = AF.jacobian(f, (x, y), vectorize=True)
    jf = AF.jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
    jc = AF.jacobian(lambda v: v.exp(), x, create_graph=True)
    h = AF.hessian(lambda v: v.pow(3).sum(), x)
    return {
        "j": j,
        "jv": jv,
        "jf": jf,
        "jc": (jc.requires_grad, jc.grad_fn is not None),
        "h": h,
        "fwd_no_vec": raises(lambda: AF.jacobian(f, (x, y), strategy="forward-mode")),
        "bad_strategy": raises(lambda: AF.jacobian(f, (x, y), strategy="sideways")),
        "func_j": T.func.jacrev(f, argnums=(0, 1))(x, y),
    }


@program()
def prog_tut_fn_grad_of_grad_nested(T: Any) -> Any:
    fn = T.func

    def f(x):
        return x.sin().sum()

    x = _t(T, 3, seed=3)
    d1 = fn.grad(f)(x)
    d2 = fn.grad(lambda v: fn.grad(f)(v).sum())(x)
    d3 = fn.grad(fn.grad(lambda s: s**3))(T.tensor(2.0))
    scalar = fn.grad(lambda v: v * v)(T.tensor(3.0))
    return d1, d2, d3, scalar


# torch's linearize traces f with make_fx and const-folds the graph, and its fx pass warns
# ("Attempted to insert a get_attr Node ...") on every call: an artifact of that tracing, which
# shadowgrad (re-running f under forward AD) has no counterpart of. Warnings are left out here.
@program(warnings=False)
def prog_tut_fn_linearize_and_tangent_checks(T: Any) -> Any:
    fn = T.func
    x = _t(T, 3, seed=3)
    out, jvp_fn = fn.linearize(lambda v: v.exp() * v, x)
    t1 = jvp_fn(T.ones(3))
    t2 = jvp_fn(_t(T, 3, seed=4))
    _, jvp2 = fn.linearize(lambda a, b: a * b, x, x + 1)
    return {
        "out": out,
        "t1": t1,
        "t2": t2,
        "two": jvp2(T.ones(3), T.zeros(3)),
        "shape": raises(lambda: jvp_fn(T.ones(2))),
        "dtype": raises(lambda: jvp_fn(T.ones(3, dtype=T.float64))),
        "struct": raises(lambda: jvp_fn(T.ones(3), T.ones(3))),
        "struct2": raises(lambda: jvp2(T.ones(3))),
    }


@program()
def prog_tut_fn_grad_through_module_params_and_outer_tape(T: Any) -> Any:
    fn = T.func
    F = T.nn.functional
    model = _mlp(T, (3, 4, 1), seed=5)
    x, y = _t(T, 6, 3, seed=6), _t(T, 6, 1, seed=7)
    params = dict(model.named_parameters())

    def loss(p):
        return F.mse_loss(fn.functional_call(model, p, (x,)), y)

    g = fn.grad(loss)(params)
    # params are live Parameters: the tape outside the transform still sees them
    gsum = sum(v.sum() for v in g.values())
    gsum.backward()
    hw = fn.hessian(lambda w: loss({**params, "2.weight": w}))(params["2.weight"])
    return {
        "g": g,
        "g_rg": {k: v.requires_grad for k, v in g.items()},
        "outer": {k: v.grad for k, v in model.named_parameters()},
        "hw": hw,
        "model_grad_after": model[0].weight.grad is not None,
    }


@program()
def prog_tut_fn_vmap_nested_dicts_chunks_and_randomness(T: Any) -> Any:
    fn = T.func
    d = {"a": _t(T, 4, 2, seed=8), "b": _t(T, 2, 4, seed=9)}

    def f(inp, s):
        return inp["a"] * s + inp["b"].sum()

    r1 = fn.vmap(f, in_dims=({"a": 0, "b": 1}, None))(d, T.tensor(3.0))
    r2 = fn.vmap(lambda v: v.cumsum(0), chunk_size=3)(d["a"])
    r3 = fn.vmap(lambda v: v.sum(), in_dims=1)(d["a"])
    r4 = fn.vmap(lambda v: (v, v * 2), out_dims=(0, 1))(d["a"])
    drop = raises(lambda: fn.vmap(lambda v: T.nn.functional.dropout(v, 0.5))(d["a"]))
    drop_eval = fn.vmap(lambda v: T.nn.functional.dropout(v, 0.5, training=False))(d["a"])
    return r1, r2, r3, r4, drop, drop_eval, raises(lambda: fn.vmap(f, chunk_size=0)(d, 1.0))


@program()
def prog_tut_fn_vjp_fn_reuse_and_non_tensor_output(T: Any) -> Any:
    fn = T.func
    x = _t(T, 2, 2, seed=10)
    out, vjp_fn = fn.vjp(lambda v: v @ v, x)
    a = vjp_fn(T.ones(2, 2))
    b = vjp_fn(T.eye(2))
    return {
        "a": a,
        "b": b,
        "out": out,
        "non_tensor": raises(lambda: fn.vjp(lambda v: [v, 2], x)),
        "no_primals": raises(lambda: fn.vjp(lambda: T.ones(1))),
        "int_primal": raises(lambda: fn.vjp(lambda v: v * 2, T.tensor([1, 2]))),
        "list_primal": fn.vjp(lambda v: v[0] * v[1], [x, x + 1])[1](T.ones(2, 2)),
    }


@program()
def prog_tut_fn_jacrev_jacfwd_multi_output_and_errors(T: Any) -> Any:
    fn = T.func

    def f(x, y):
        return x * y, (x + y).sum()

    x, y = _t(T, 3, seed=11), _t(T, 3, seed=12)
    jr = fn.jacrev(f, argnums=(0, 1))(x, y)
    jf = fn.jacfwd(f, argnums=1)(x, y)
    return {
        "jr": jr,
        "jf": jf,
        "out_not_tensor": raises(lambda: fn.jacrev(lambda v: 1.0)(x)),
        "fwd_out_not_tensor": raises(lambda: fn.jacfwd(lambda v: [v, "s"])(x)),
        "argnums_oob": raises(lambda: fn.jacrev(f, argnums=2)(x, y)),
        "argnums_dup": raises(lambda: fn.jacrev(f, argnums=(0, 0))(x, y)),
        "int_input": raises(lambda: fn.jacfwd(lambda v: v * 2)(T.arange(3))),
        "scalar_in_out": fn.jacrev(lambda v: v * v)(T.tensor(2.0)),
    }


@program()
def prog_tut_fn_transform_output_and_argnums_errors(T: Any) -> Any:
    fn = T.func
    x = _t(T, 3, seed=13)

    def mul(a, b):
        return (a * b).sum()

    return {
        "argnums_bool": fn.grad(mul, argnums=True)(x, x * 2),
        "argnums_tuple_float": raises(lambda: fn.grad(mul, argnums=(0, 1.0))(x, x)),
        "argnums_list": raises(lambda: fn.grad(mul, argnums=[0])(x, x)),
        "argnums_dup_wrap": raises(lambda: fn.jacfwd(lambda a, b: a * b, argnums=(0, -2))(x, x)),
        "argnums_dup_grad": raises(lambda: fn.grad(mul, argnums=(1, 1))(x, x)),
        "hessian_dup": raises(lambda: fn.hessian(mul, argnums=(0, 0))(x, x)),
        "vjp_none": raises(lambda: fn.vjp(lambda v: None, x)),
        "vjp_empty": raises(lambda: fn.vjp(lambda v: (), x)),
        "jvp_none": raises(lambda: fn.jvp(lambda v: None, (x,), (x,))),
        "jvp_list_str": raises(lambda: fn.jvp(lambda v: [v, "s"], (x,), (x,))),
        "jacrev_none": raises(lambda: fn.jacrev(lambda v: None)(x)),
        "jacfwd_none": raises(lambda: fn.jacfwd(lambda v: None)(x)),
        "jacrev_chunk0": raises(lambda: fn.jacrev(T.sin, chunk_size=0)),
        "vmap_chunk_neg": raises(lambda: fn.vmap(T.sin, chunk_size=-1)),
        "vjp_aux_first": raises(lambda: fn.vjp(lambda v: (3, 4), x, has_aux=True)),
        "jvp_aux_first": raises(lambda: fn.jvp(lambda v: (3, 4), (x,), (x,), has_aux=True)),
        "grad_out_first": raises(lambda: fn.grad(lambda v: (3, 4), has_aux=True)(x)),
        "jacrev_aux_first": raises(lambda: fn.jacrev(lambda v: (3, 4), has_aux=True)(x)),
        "aux_none": raises(lambda: fn.grad(lambda v: (v.sum(), None), has_aux=True)(x)),
    }


@program()
def prog_tut_fn_jacobian_kwargs_complex_and_randomness(T: Any) -> Any:
    fn = T.func
    x, y = _t(T, 3, seed=14), _t(T, 3, seed=15)

    def scaled(a, s=1.0):
        return a * s

    T.manual_seed(0)
    same = fn.jacfwd(lambda a: a * T.rand(3), randomness="same")(x)
    after = T.rand(2)  # the generator moved on by one draw
    return {
        "grad_kw": fn.grad(lambda a, *, s: (a * s).sum())(x, s=y),
        "vmap_kw": fn.vmap(scaled)(x, s=y),
        "jacrev_kw": raises(lambda: fn.jacrev(scaled)(x, s=y)),
        "jacfwd_kw": raises(lambda: fn.jacfwd(scaled)(x, s=y)),
        "jacrev_pos": fn.jacrev(scaled)(x, y),
        "jacrev_complex_out": raises(lambda: fn.jacrev(lambda a: a * 1j)(x)),
        "jacfwd_complex_in": raises(lambda: fn.jacfwd(lambda a: a.abs())(x * 1j)),
        "jacrev_complex_other": raises(lambda: fn.jacrev(lambda a, b: a)(x, y * 1j)),
        "grad_complex_in": raises(lambda: fn.grad(lambda a: a.abs().sum())(x * 1j)),
        "jacfwd_rand": raises(lambda: fn.jacfwd(lambda a: a * T.rand(3))(x)),
        "jacfwd_dropout": raises(lambda: fn.jacfwd(lambda a: T.nn.functional.dropout(a))(x)),
        "jacfwd_bad_mode": raises(lambda: fn.jacfwd(T.sin, randomness="sometimes")(x)),
        "same": same,
        "after": after,
        "indep": (fn.jacrev(lambda a: T.ones(2))(x), fn.jacfwd(lambda a: T.ones(2))(x)),
    }


@program()
def prog_tut_fn_non_tensor_inputs_to_transforms(T: Any) -> Any:
    fn = T.func
    x = _t(T, 2, seed=16)
    return {
        "grad_float": raises(lambda: fn.grad(lambda a: a * 2.0)(3.0)),
        "grad_none": raises(lambda: fn.grad(lambda a, b: a.sum(), argnums=(0, 1))(x, None)),
        "grad_dict_int": raises(lambda: fn.grad(lambda d: d["a"].sum() * d["b"])({"a": x, "b": 3})),
        "grad_other_int": fn.grad(lambda a, n: (a * n).sum())(x, 3),
        "vjp_int": raises(lambda: fn.vjp(lambda a, b: a, x, 3)),
        "jacrev_float": raises(lambda: fn.jacrev(lambda a: a * 2)(3.0)),
        "jacrev_other": fn.jacrev(lambda a, b: a * b)(x, 3.0),
        "jvp_float": raises(lambda: fn.jvp(lambda a: a, (3.0,), (1.0,))),
        "jvp_tangent_float": raises(lambda: fn.jvp(lambda a: a, (x,), (1.0,))),
        "jvp_empty": raises(lambda: fn.jvp(lambda: 1, (), ())),
        "grad_item_inside": fn.grad(lambda a: a.sum() * a[0].item())(x),
        "grad_control_flow": fn.grad(lambda a: (a * 2).sum() if a.sum() > 0 else a.sum())(x),
        "grad_autograd_inside": fn.grad(
            lambda a: T.autograd.grad((a**2).sum(), a, create_graph=True)[0].sum()
        )(x),
        "grad_inplace_input": raises(lambda: fn.grad(lambda a: a.mul_(2).sum())(x.clone())),
        "grad_inplace_clone": fn.grad(lambda a: a.clone().mul_(2).sum())(x),
    }


# --- more parametrizations -----------------------------------------------------------------


@program()
def prog_tut_fn_parametrize_state_dict_roundtrip_and_type(T: Any) -> Any:
    P = T.nn.utils.parametrize
    m = _seeded(T, T.nn.Linear(3, 3), 50)
    P.register_parametrization(m, "weight", _symmetric(T)())
    sd = _roundtrip(T, m.state_dict())
    m2 = T.nn.Linear(3, 3)
    P.register_parametrization(m2, "weight", _symmetric(T)())
    r = m2.load_state_dict(sd)
    plain = T.nn.Linear(3, 3)
    err = raises(lambda: plain.load_state_dict(sd))
    return {
        "keys": list(sd),
        "r": str(r),
        "w_eq": (m2.weight - m.weight).abs().max(),
        "err": err,
        "type_before": P.type_before_parametrizations(m).__name__,
        "type_now": type(m).__name__,
        "repr": repr(m),
        "mro": [c.__name__ for c in type(m).__mro__[:3]],
    }


@program()
def prog_tut_fn_parametrize_buffer_bias_and_training(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class Positive(T.nn.Module):
        def forward(self, X):
            return T.nn.functional.softplus(X)

    class Scale(T.nn.Module):
        def forward(self, X):
            return X * 0.5

    m = _seeded(T, T.nn.Linear(2, 2), 51)
    P.register_parametrization(m, "bias", Positive())
    m.register_buffer("buf", T.ones(2))
    P.register_parametrization(m, "buf", Scale())
    opt = T.optim.Adam(m.parameters(), lr=0.1)
    x = _t(T, 3, 2, seed=52)
    hist = []
    for _ in range(3):
        opt.zero_grad()
        loss = (m(x) - 1).pow(2).mean() + m.buf.sum()
        loss.backward()
        opt.step()
        hist.append((loss, m.bias.detach().clone()))
    return {
        "hist": hist,
        "params": [n for n, _ in m.named_parameters()],
        "buffers": [n for n, _ in m.named_buffers()],
        "buf": m.buf,
        "orig_bias_grad": m.parametrizations.bias.original.grad,
        "n_opt": len(opt.param_groups[0]["params"]),
    }


@program()
def prog_tut_fn_parametrize_dtype_change_and_non_module(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class ToDouble(T.nn.Module):
        def forward(self, X):
            return X.double()

    m = _seeded(T, T.nn.Linear(2, 2), 53)
    e1 = raises(lambda: P.register_parametrization(m, "weight", ToDouble()))
    e2 = raises(lambda: P.register_parametrization(m, "weight", lambda X: X * 2))
    e3 = raises(lambda: P.remove_parametrizations(m, "weight"))
    return e1, e2, e3, P.is_parametrized(m), type(m).__name__


@program()
def prog_tut_fn_spectral_norm_parametrization_power_iteration(T: Any) -> Any:
    PZ = T.nn.utils.parametrizations
    T.manual_seed(5)
    m = PZ.spectral_norm(_seeded(T, T.nn.Linear(4, 3), 54))
    x = _t(T, 2, 4, seed=55)
    outs = []
    for _ in range(3):
        outs.append(m(x))
    m.eval()
    ev = m(x)
    sv = T.linalg.matrix_norm(m.weight.detach(), ord=2)
    return {
        "outs": [o.detach() for o in outs],
        "ev": ev.detach(),
        "sv": sv,
        "buffers": sorted(n for n, _ in m.named_buffers()),
        "u": m.parametrizations.weight[0]._u,
    }


# --- more pruning ----------------------------------------------------------------------------


@program()
def prog_tut_fn_prune_train_masked_grads_and_state_dict(T: Any) -> Any:
    prune = _prune(T)
    m = _seeded(T, T.nn.Linear(4, 3), 60)
    prune.l1_unstructured(m, "weight", amount=0.5)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    x = _t(T, 5, 4, seed=61)
    for _ in range(2):
        opt.zero_grad()
        m(x).pow(2).sum().backward()
        opt.step()
    sd = _roundtrip(T, m.state_dict())
    plain = _seeded(T, T.nn.Linear(4, 3), 62)
    err = raises(lambda: plain.load_state_dict(sd))
    pruned2 = _seeded(T, T.nn.Linear(4, 3), 62)
    prune.identity(pruned2, "weight")
    r = pruned2.load_state_dict(sd)
    return {
        "orig_grad": m.weight_orig.grad,
        "w": m.weight,
        "w_grad_fn": m.weight.grad_fn,
        "w_leaf": (m.weight.is_leaf, m.weight.requires_grad),
        "opt_params": [tuple(p.shape) for p in opt.param_groups[0]["params"]],
        "keys": list(sd),
        "err": err,
        "r": str(r),
        "pruned2_w": pruned2(x),
    }


@program()
def prog_tut_fn_prune_random_structured_and_deepcopy(T: Any) -> Any:
    prune = _prune(T)
    conv = _seeded(T, T.nn.Conv2d(2, 4, 2), 63)
    T.manual_seed(7)
    prune.random_structured(conv, "weight", amount=2, dim=0)
    x = _t(T, 1, 2, 3, 3, seed=64)
    y = conv(x)
    # the pruned weight is a computed (non-leaf) attribute: deepcopy refuses it
    e_copy = raises(lambda: copy.deepcopy(conv))
    prune.remove(conv, "weight")
    c2 = copy.deepcopy(conv)
    with T.no_grad():
        c2.weight.fill_(1.0)
    return {
        "mask_rows": y.detach().abs().sum((0, 2, 3)) == 0,
        "y": y,
        "e_copy": e_copy,
        "c2_out": c2(x),
        "conv_w": conv.weight[:, 0],
        "c2_hooks": len(c2._forward_pre_hooks),
    }


@program()
def prog_tut_fn_prune_global_with_importance_scores(T: Any) -> Any:
    prune = _prune(T)
    a = _seeded(T, T.nn.Linear(3, 2), 65)
    b = _seeded(T, T.nn.Linear(2, 2), 66)
    scores = {(a, "weight"): T.arange(6.0).view(2, 3), (b, "weight"): T.full((2, 2), 2.5)}
    prune.global_unstructured(
        [(a, "weight"), (b, "weight")],
        pruning_method=prune.L1Unstructured,
        importance_scores=scores,
        amount=4,
    )
    return a.weight_mask, b.weight_mask, a.weight, b.weight


# --- more nn basics and common mistakes ---------------------------------------------------


@program()
def prog_tut_fn_module_reprs(T: Any) -> Any:
    nn = T.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3, stride=2, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(4, momentum=0.2)
            self.pool = nn.MaxPool2d(2)
            self.drop = nn.Dropout(0.25)
            self.flat = nn.Flatten()
            self.heads = nn.ModuleList([nn.Linear(4, 2), nn.Linear(4, 3, bias=False)])
            self.acts = nn.ModuleDict({"relu": nn.ReLU(inplace=True), "lrelu": nn.LeakyReLU(0.1)})
            self.seq = nn.Sequential(nn.Softmax(dim=1), nn.Identity())

        def extra_repr(self):
            return "custom=1"

    net = Net()
    return {
        "net": repr(net),
        "embed": repr(nn.Embedding(5, 3, padding_idx=0)),
        "lstm": repr(nn.LSTM(3, 4, num_layers=2, batch_first=True)),
        "ln": repr(nn.LayerNorm((4,), eps=1e-6)),
        "ce": repr(nn.CrossEntropyLoss(label_smoothing=0.1)),
        "empty_seq": repr(nn.Sequential()),
        "adaptive": repr(nn.AdaptiveAvgPool2d((1, 1))),
        "convT": repr(nn.ConvTranspose2d(2, 3, 3, output_padding=1, stride=2)),
        "param": repr(nn.Parameter(T.zeros(2))),
    }


@program()
def prog_tut_fn_module_introspection_and_freezing(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2))), 70
    )
    seen = []

    def init_fn(m):
        seen.append(type(m).__name__)
        if isinstance(m, nn.Linear):
            nn.init.constant_(m.bias, 0.1)

    model.apply(init_fn)
    model[0].requires_grad_(False)
    x = _t(T, 2, 3, seed=71)
    model(x).sum().backward()
    return {
        "seen": seen,
        "modules": [n for n, _ in model.named_modules()],
        "children": [type(c).__name__ for c in model.children()],
        "count": sum(p.numel() for p in model.parameters()),
        "trainable": sum(p.numel() for p in model.parameters() if p.requires_grad),
        "grads": [p.grad for p in model.parameters()],
        "get_sub": model.get_submodule("2.0").weight.shape,
        "get_param": model.get_parameter("2.0.bias"),
        "bad_sub": raises(lambda: model.get_submodule("2.5")),
        "bad_param": raises(lambda: model.get_parameter("0.nope")),
    }


@program()
def prog_tut_fn_nn_really_common_mistakes(T: Any) -> Any:
    w = T.tensor(_data(3, 2, seed=72), requires_grad=True)
    x = _t(T, 4, 3, seed=73)
    loss = (x @ w).pow(2).mean()
    loss.backward()
    e_inplace = raises(lambda: w.sub_(w.grad * 0.1))
    e_twice = raises(lambda: loss.backward())
    w2 = w - w.grad * 0.1  # forgot no_grad: w2 is not a leaf
    (x @ w2).sum().backward()
    g_nonleaf = w2.grad
    e_numpy = raises(lambda: w.numpy())
    e_item = raises(lambda: (x @ w).item())
    e_target = raises(lambda: T.nn.functional.cross_entropy(x, T.tensor([0.0, 1.0, 2.0, 0.0])))
    e_target_oob = raises(lambda: T.nn.functional.cross_entropy(x, T.tensor([0, 1, 3, 0])))
    ok_int32 = raises(
        lambda: T.nn.functional.cross_entropy(x, T.tensor([0, 1, 2, 0], dtype=T.int32))
    )
    return {
        "inplace": e_inplace,
        "twice": e_twice,
        "w2": (w2.is_leaf, w2.grad_fn, g_nonleaf),
        "w_grad": w.grad,
        "numpy": e_numpy,
        "item": e_item,
        "target": e_target,
        "target_oob": e_target_oob,
        "int32": ok_int32,
    }


@program()
def prog_tut_fn_shape_mistakes_in_layers(T: Any) -> Any:
    nn = T.nn
    conv = _seeded(T, nn.Conv2d(1, 2, 3), 74)
    lin = _seeded(T, nn.Linear(16, 6), 75)
    bn = nn.BatchNorm1d(3)
    return {
        "conv_channels": raises(lambda: conv(T.ones(1, 3, 5, 5))),
        "conv_small": raises(lambda: conv(T.ones(1, 1, 2, 2))),
        "conv_rank": raises(lambda: conv(T.ones(5, 5))),
        "lin": raises(lambda: lin(T.ones(1, 10))),
        "lin_dtype": raises(lambda: lin(T.ones(1, 16, dtype=T.float64))),
        "lin_int": raises(lambda: lin(T.ones(1, 16, dtype=T.int64))),
        "bn_one": raises(lambda: bn(T.ones(1, 3))),
        "bn_feat": raises(lambda: bn(T.ones(4, 5))),
        "flatten_then": nn.Flatten()(T.ones(2, 3, 4)).shape,
        "mse_bcast": nn.MSELoss()(T.ones(3, 1), T.zeros(3)),
    }


@program()
def prog_tut_fn_optimizer_construction_errors(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    q = T.nn.Parameter(T.zeros(2))
    opt = T.optim.SGD([p], lr=0.1)
    return {
        "tensor": raises(lambda: T.optim.SGD(p, lr=0.1)),
        "empty": raises(lambda: T.optim.SGD([], lr=0.1)),
        "dup": raises(lambda: T.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)),
        "dup_in_group": T.optim.SGD([p, p], lr=0.1).param_groups[0]["params"].__len__(),
        "neg_lr": raises(lambda: T.optim.SGD([q], lr=-1.0)),
        "nesterov": raises(lambda: T.optim.SGD([q], lr=0.1, nesterov=True)),
        "adam_beta": raises(lambda: T.optim.Adam([q], betas=(1.0, 0.9))),
        "add_dup": raises(lambda: opt.add_param_group({"params": [p]})),
        "add_ok": opt.add_param_group({"params": q, "lr": 0.5}),
        "groups": [(len(g["params"]), g["lr"]) for g in opt.param_groups],
        "non_leaf": raises(lambda: T.optim.SGD([p * 2], lr=0.1)),
        "step_no_grad": opt.step(),
        "p_after": p,
    }


@program()
def prog_tut_fn_dataloader_batches_and_drop_last(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(10.0).view(5, 2), T.arange(5))
    dl = D.DataLoader(ds, batch_size=2)
    dl_drop = D.DataLoader(ds, batch_size=2, drop_last=True)
    g = T.Generator().manual_seed(3)
    dl_shuf = D.DataLoader(ds, batch_size=2, shuffle=True, generator=g)
    sampler = D.RandomSampler(ds, generator=T.Generator().manual_seed(4))
    return {
        "plain": list(dl),
        "drop": (list(dl_drop), len(dl_drop), len(dl)),
        "shuf": [b[1] for b in dl_shuf],
        "shuf2": [b[1] for b in dl_shuf],
        "sampler": list(sampler),
        "len_ds": len(ds),
        "item": ds[-1],
        "slice": ds[1:3],
        "mismatch": raises(lambda: D.TensorDataset(T.ones(3), T.ones(4))),
        "bs0": raises(lambda: D.DataLoader(ds, batch_size=0)),
        "shuffle_sampler": raises(lambda: D.DataLoader(ds, sampler=sampler, shuffle=True)),
    }


@program()
def prog_tut_fn_train_eval_dropout_batchnorm_modes(T: Any) -> Any:
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Dropout(0.5)), 76)
    x = _t(T, 6, 3, seed=77)
    T.manual_seed(8)
    tr = model(x)
    stats = (model[1].running_mean.clone(), model[1].num_batches_tracked.clone())
    model.eval()
    ev1 = model(x)
    ev2 = model(x)
    with T.no_grad():
        ng = model(x)
    model.train(False)
    modes = [m.training for m in model.modules()]
    model.train()
    return {
        "tr": tr,
        "stats": stats,
        "ev_same": (ev1 - ev2).abs().max(),
        "ev": ev1,
        "ng": (ng.requires_grad, ng.grad_fn),
        "modes": modes,
        "train_modes": [m.training for m in model.modules()],
        "running_var": model[1].running_var,
    }


@program()
def prog_tut_fn_nll_logsoftmax_vs_cross_entropy(T: Any) -> Any:
    nn = T.nn
    logits = _t(T, 5, 4, seed=78, rg=True)
    target = T.tensor([0, 3, 1, 1, 2])
    w = T.tensor([1.0, 2.0, 0.5, 1.0])
    a = nn.NLLLoss(weight=w)(nn.LogSoftmax(dim=1)(logits), target)
    b = nn.CrossEntropyLoss(weight=w)(logits, target)
    c = nn.CrossEntropyLoss(reduction="none", ignore_index=1)(logits, target)
    d = nn.CrossEntropyLoss(reduction="sum")(logits, target)
    (a + b + c.sum() + d).backward()
    return a, b, c, d, logits.grad, a.grad_fn, b.grad_fn, c.grad_fn


# --- more saving and loading ------------------------------------------------------------------


@program()
def prog_tut_fn_save_whole_model_and_dtypes(T: Any) -> Any:
    model = _mlp(T, (2, 3, 1), seed=80)
    loaded = _roundtrip(T, model, weights_only=False)
    x = _t(T, 2, 2, seed=81)
    half_sd = _roundtrip(T, model.half().state_dict())
    f_model = _mlp(T, (2, 3, 1), seed=82)
    f_model.load_state_dict(half_sd)
    nonleaf = _roundtrip(T, {"t": _t(T, 2, seed=83, rg=True) * 2})
    return {
        "type": type(loaded).__name__,
        "out": loaded(x),
        "params_rg": [p.requires_grad for p in loaded.parameters()],
        "param_type": type(next(loaded.parameters())).__name__,
        "half": [v.dtype for v in half_sd.values()],
        "f_dtype": f_model[0].weight.dtype,
        "f_w": f_model[0].weight,
        "nonleaf": (nonleaf["t"].requires_grad, nonleaf["t"].is_leaf, nonleaf["t"].grad_fn),
    }


@program()
def prog_tut_fn_save_tied_weights_and_map_location_callable(T: Any) -> Any:
    nn = T.nn

    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(4, 3)
            self.out = nn.Linear(3, 4, bias=False)
            self.out.weight = self.emb.weight

        def forward(self, idx):
            return self.out(self.emb(idx))

    m = _seeded(T, Tied(), 84)
    sd = m.state_dict()
    loaded = _roundtrip(T, sd, map_location=lambda storage, loc: storage)
    m2 = Tied()
    m2.load_state_dict(loaded)
    m2(T.tensor([1, 2])).sum().backward()
    return {
        "keys": list(sd),
        "params": [n for n, _ in m.named_parameters()],
        "shared_loaded": loaded["emb.weight"].data_ptr() == loaded["out.weight"].data_ptr(),
        "m2_tied": m2.out.weight is m2.emb.weight,
        "grad": m2.emb.weight.grad,
    }


@program()
def prog_tut_fn_load_state_dict_partial_transfer(T: Any) -> Any:
    nn = T.nn
    src = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 5)), 85)
    dst = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 86)
    sd = src.state_dict()
    own = dst.state_dict()
    filtered = {k: v for k, v in sd.items() if k in own and v.shape == own[k].shape}
    r = dst.load_state_dict(filtered, strict=False)
    own.update(filtered)
    r2 = dst.load_state_dict(own)
    both = dst.load_state_dict({"0.weight": sd["0.weight"], "junk": T.ones(1)}, strict=False)
    return {
        "r": (r.missing_keys, r.unexpected_keys),
        "r2": repr(r2),
        "both": repr(both),
        "w0": dst[0].weight,
        "w2": dst[2].weight,
        "sd_is_copy": sd["0.weight"].data_ptr() == src[0].weight.data_ptr(),
        "sd_rg": sd["0.weight"].requires_grad,
    }


# --- more hooks --------------------------------------------------------------------------------


@program()
def prog_tut_fn_hooks_multi_input_module_backward(T: Any) -> Any:
    class Bilinear(T.nn.Module):
        def forward(self, a, b):
            return a * b + a

    m = Bilinear()
    seen = []
    m.register_full_backward_hook(
        lambda mod, gi, go: seen.append([None if g is None else g.clone() for g in gi])
    )
    a = _t(T, 3, seed=90, rg=True)
    b = _t(T, 3, seed=91)
    out = m(a, b)
    out.sum().backward()
    c = _t(T, 3, seed=92, rg=True)
    m(c, c).pow(2).sum().backward()
    return seen, a.grad, c.grad, out.grad_fn


@program()
def prog_tut_fn_hooks_old_style_backward_hook_warning(T: Any) -> Any:
    seq = _mlp(T, (2, 3, 2), seed=93)
    calls = []
    seq.register_backward_hook(lambda m, gi, go: calls.append((len(gi), len(go))))
    x = _t(T, 1, 2, seed=94, rg=True)
    seq(x).sum().backward()
    lin = _seeded(T, T.nn.Linear(2, 2), 95)
    lin.register_backward_hook(lambda m, gi, go: calls.append(("lin", len(gi))))
    lin(x).sum().backward()
    return calls, x.grad


@program()
def prog_tut_fn_hooks_handles_and_no_grad(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(2, 2), 96)
    log = []
    h = lin.register_forward_hook(lambda m, a, o: log.append(("fwd", o.requires_grad)))
    with T.no_grad():
        lin(T.ones(1, 2))
    lin(T.ones(1, 2))
    h.remove()
    h.remove()
    with lin.register_forward_hook(lambda m, a, o: log.append("ctx")):
        lin(T.ones(1, 2))
    lin(T.ones(1, 2))
    h2 = lin.register_forward_hook(lambda m, a, o: (o, o))
    tup = lin(T.ones(1, 2))
    h2.remove()
    return log, type(tup).__name__, len(lin._forward_hooks), type(h).__name__


@program()
def prog_tut_fn_hooks_forward_hook_on_container_and_eval(T: Any) -> Any:
    model = _mlp(T, (2, 3, 2), seed=97)
    log = []
    model.register_forward_pre_hook(lambda m, a: log.append(("seq_pre", a[0].shape)))
    model.register_forward_hook(lambda m, a, o: log.append(("seq", o.shape)))
    for i, sub in enumerate(model):
        sub.register_forward_hook(lambda m, a, o, i=i: log.append((i, m.training)))
    model(T.ones(4, 2))
    model.eval()
    model(T.ones(1, 2))
    return log


@program()
def prog_tut_fn_ensembling_batchnorm_models(T: Any) -> Any:
    nn = T.nn
    fn = T.func
    models = [_seeded(T, nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)), s) for s in (1, 2)]
    params, buffers = fn.stack_module_state(models)
    base = copy.deepcopy(models[0])

    def f(p, b, x):
        return fn.functional_call(base, (p, b), (x,))

    x = _t(T, 4, 2, seed=3)
    xs = _t(T, 2, 4, 2, seed=4)
    same = fn.vmap(f, in_dims=(0, 0, None))(params, buffers, x)
    diff = fn.vmap(f)(params, buffers, xs)
    one = {k: v[0] for k, v in buffers.items()}
    # train mode, running stats that vmap does not map over: torch's batching rule refuses
    e_unbatched = raises(lambda: fn.vmap(f, in_dims=(0, None, 0))(params, one, xs))
    e_plain = raises(lambda: fn.vmap(models[0])(xs))
    base.eval()
    ev = fn.vmap(f, in_dims=(0, None, 0))(params, one, xs)
    nbt = models[0][1].num_batches_tracked
    fixed = copy.deepcopy(models[1])
    fn.replace_all_batch_norm_modules_(fixed)
    rep = fn.vmap(fixed)(xs)
    return {
        "same": same.detach(),  # vmap's graph: see shadowgrad.func's docstring
        "diff": diff.detach(),
        "buffers": buffers,
        "e_unbatched": e_unbatched,
        "e_plain": e_plain,
        "nbt_after_error": nbt,
        "ev": ev.detach(),
        "rep": rep.detach(),
        "rep_stats": (fixed[1].running_mean, fixed[1].track_running_stats),
    }


@program()
def prog_tut_fn_stack_module_state_requires_grad_and_modes(T: Any) -> Any:
    nn = T.nn
    fn = T.func
    a, b = _seeded(T, nn.Linear(2, 1), 5), _seeded(T, nn.Linear(2, 1), 6)
    b.bias.requires_grad_(False)
    e_rg = raises(lambda: fn.stack_module_state([a, b]))
    a.bias.requires_grad_(False)
    p, _ = fn.stack_module_state([a, b])
    b.eval()
    e_mode = raises(lambda: fn.stack_module_state([a, b]))
    e_cls = raises(lambda: fn.stack_module_state([nn.Linear(2, 1), nn.Conv1d(2, 1, 1)]))

    class WithBuf(nn.Module):
        def __init__(self, v):
            super().__init__()
            self.register_buffer("scale", T.full((2,), v))

    _, bufs = fn.stack_module_state([WithBuf(1.0), WithBuf(2.0)])
    return {
        "e_rg": e_rg,
        "rg": {k: (v.requires_grad, v.is_leaf) for k, v in p.items()},
        "p": p,
        "e_mode": e_mode,
        "e_cls": e_cls,
        "bufs": bufs,
    }


@program()
def prog_tut_fn_module_definition_mistakes(T: Any) -> Any:
    nn = T.nn

    class NoSuper(nn.Module):
        def __init__(self):
            self.lin = nn.Linear(2, 2)

    class NoSuperP(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(T.ones(1))

    class ListParams(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Linear(2, 2)]
            self.plist = [nn.Parameter(T.ones(1))]

    lin = _seeded(T, nn.Linear(2, 2), 7)
    return {
        "nosuper": raises(lambda: NoSuper()),
        "nosuperp": raises(lambda: NoSuperP()),
        "assign_tensor": raises(lambda: setattr(lin, "weight", T.ones(2, 2))),
        "buffer_dot": raises(lambda: nn.Module().register_buffer("a.b", T.ones(1))),
        "buffer_exists": raises(lambda: nn.Linear(2, 2).register_buffer("weight", T.ones(1))),
        "buffer_list": raises(lambda: nn.Module().register_buffer("b", [1])),
        "param_tensor": raises(lambda: nn.Module().register_parameter("p", T.ones(1))),
        "param_nonleaf": raises(
            lambda: nn.Module().register_parameter("p", nn.Parameter(T.ones(1)) * 2)
        ),
        "add_module_dot": raises(lambda: nn.Module().add_module("x.y", nn.ReLU())),
        "add_module_int": raises(lambda: nn.Module().add_module("x", 3)),
        "list_params": len(list(ListParams().parameters())),
        "forward_missing": raises(lambda: nn.Module()(T.ones(1))),
        "typo": raises(lambda: lin.wieght),
        "double_model": raises(lambda: nn.Linear(2, 2).double()(T.ones(1, 2))),
        "seq_two_inputs": raises(lambda: nn.Sequential(lin)(T.ones(1, 2), T.ones(1, 2))),
        "modlist_int": raises(lambda: nn.ModuleList([3])),
        "moddict_missing": raises(lambda: nn.ModuleDict({"a": nn.ReLU()})["b"]),
        "seq_oob": raises(lambda: nn.Sequential(lin)[5]),
        "train_bad": raises(lambda: nn.Linear(1, 1).train("yes")),
        "requires_grad_int": raises(lambda: nn.Linear(1, 1).requires_grad_(1)),
    }


@program()
def prog_tut_fn_sequential_editing_and_shared_layers(T: Any) -> Any:
    nn = T.nn
    lin = _seeded(T, nn.Linear(2, 2), 8)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    s2 = nn.Sequential(nn.ReLU()).append(nn.Tanh())
    s2.insert(0, nn.Sigmoid())
    del s2[1]
    s3 = seq[1:] + nn.Sequential(nn.Identity())
    x = _t(T, 3, 2, seed=9)
    y = seq(x)
    y.sum().backward()
    return {
        "names": [n for n, _ in seq.named_parameters()],
        "names_all": [n for n, _ in seq.named_parameters(remove_duplicate=False)],
        "sd": list(seq.state_dict()),
        "s2": repr(s2),
        "s3": repr(s3),
        "y": y,
        "grad": lin.weight.grad,
        "kw": seq(input=x),
        "len": (len(seq), len(s3)),
        "neg": type(seq[-2]).__name__,
    }


@program()
def prog_tut_fn_hooks_tuple_dict_outputs_and_bad_returns(T: Any) -> Any:
    nn = T.nn

    class Two(nn.Module):
        def forward(self, x):
            return x * 2, x.sum()

    class D(nn.Module):
        def forward(self, x):
            return {"a": x * 2}

    log = []
    m = Two()
    m.register_full_backward_hook(
        lambda mod, gi, go: log.append(("two", [None if g is None else g.clone() for g in go]))
    )
    x = _t(T, 3, seed=10, rg=True)
    a, _ = m(x)
    a.sum().backward()
    a2, b2 = m(x)
    (a2.sum() + b2 * 3).backward()
    d = D()
    d.register_full_backward_hook(lambda mod, gi, go: log.append(("dict", len(go))))
    d(x)["a"].sum().backward()

    lin = _seeded(T, nn.Linear(2, 2), 11)
    lin.register_forward_pre_hook(lambda mod, args: (args[0], args[0]))
    lin_kw = _seeded(T, nn.Linear(2, 2), 11)
    lin_kw.register_forward_pre_hook(lambda mod, args, kw: args, with_kwargs=True)
    lin_b = _seeded(T, nn.Linear(2, 2), 11)
    lin_b.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
    act = nn.Tanh()
    act.register_full_backward_hook(lambda mod, gi, go: (T.ones(5),))
    xi = _t(T, 1, 2, seed=12, rg=True)
    return {
        "log": log,
        "x_grad": x.grad,
        "pre_two": raises(lambda: lin(T.ones(1, 2))),
        "pre_kw": raises(lambda: lin_kw(T.ones(1, 2))),
        "bpre_two": raises(lambda: lin_b(xi).sum().backward()),
        "bhook_shape": raises(lambda: act(xi).sum().backward()),
    }


@program()
def prog_tut_fn_hooks_backward_reuse_retain_and_no_grad(T: Any) -> Any:
    act = T.nn.Tanh()
    log = []
    act.register_full_backward_hook(lambda m, gi, go: log.append(gi[0].clone()))
    x = _t(T, 2, seed=13, rg=True)
    y = act(act(x))  # the module used twice: the hook fires for each call
    y.sum().backward(retain_graph=True)
    n1 = len(log)
    y.sum().backward()
    with T.no_grad():
        z = act(x)
    kw = T.nn.Linear(2, 1)

    class K(T.nn.Module):
        def forward(self, x, *, scale):
            return x * scale

    k = K()
    seen = []
    k.register_forward_pre_hook(lambda mod, a: seen.append(len(a)))
    k.register_forward_hook(lambda mod, a, o: seen.append(("post", len(a))))
    out = k(T.ones(1), scale=3.0)
    return log, n1, x.grad, z.requires_grad, y.grad_fn, seen, out, type(kw).__name__


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
