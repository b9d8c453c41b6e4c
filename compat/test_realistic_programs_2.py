"""Realistic programs, second set: the kind of code users run (custom Functions, hooks, higher-order
gradients, nn modules, optimizers and schedulers, tensor printing and indexing), each written once
against the torch API and run on torch and shadowgrad. Everything the program returns is compared
(values at the harness's per-dtype tolerance, dtypes, shapes, grad_fn names, requires_grad,
is_leaf, exception types and messages, printed reprs) and so are the warnings it issues.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from .compare import Tolerance, compare
from .engines import ErrorObs, get_engine, raises, run
from .report import render_mismatch, source_of

pytest.importorskip("torch")

PROGRAMS: dict[str, Any] = {}


class _Prog:
    def __init__(
        self, fn: Callable[[Any], Any], xfail: str | None, warnings: bool, tol: Tolerance | None
    ) -> None:
        self.fn, self.xfail, self.warnings, self.tol = fn, xfail, warnings, tol
        self.name = fn.__name__.removeprefix("prog_")


def program(
    *, xfail: str | None = None, warnings: bool = True, tol: Tolerance | None = None
) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register `prog(T)`; a known difference from torch is `xfail="why"` (strict)."""

    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        p = _Prog(fn, xfail, warnings, tol)
        PROGRAMS[p.name] = p
        return fn

    return deco


def _seeded(T: Any, module: Any, seed: int) -> Any:
    """Deterministic weights from numpy, the same for both libraries."""
    rng = np.random.default_rng(seed)
    with T.no_grad():
        for _, p in sorted(module.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape)).astype(np.float32)))
    return module


def _data(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _gc(fn: Callable[[], Any]) -> Any:
    """fn()'s result, or the error it raised without shadowgrad's extra worst-element line.

    The printed Jacobian entries keep 12 significant digits: fast mode's are dot products with
    random vectors, whose last float64 digit follows the BLAS's summation order (MKL's, which
    differs by CPU, against OpenBLAS's)."""
    r = raises(fn)
    if isinstance(r, ErrorObs):
        msg = r.message.split("\n\nThe worst element")[0].rstrip()
        return (r.type, _FLOAT_TEXT.sub(lambda m: f"{float(m.group()):.12g}", msg))
    return r


_FLOAT_TEXT = re.compile(r"-?\d+\.\d{12,}(?:e[-+]?\d+)?")


def _d(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    """A float64 tensor of fixed values (the same for both libraries)."""
    v = np.random.default_rng(seed).uniform(-1.0, 1.0, shape)
    return T.tensor(v, dtype=T.float64, requires_grad=rg)


# --- autograd.Function ---------------------------------------------------------------------


@program()
def prog_function_ctx_basics(T: Any) -> Any:
    class ScaledExp(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale, flag):
            y = x.exp() * scale
            ctx.save_for_backward(y)
            ctx.scale = scale
            ctx.flag = flag
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y, None, None

    x = T.tensor(_data(3, 2), requires_grad=True)
    out = ScaledExp.apply(x, 2.0, True)
    needs = []

    class Probe(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, c):
            return a * b + c

        @staticmethod
        def backward(ctx, g):
            needs.append(tuple(ctx.needs_input_grad))
            return g * 2, None, g

    w = T.tensor(_data(3, 2, seed=1))
    r = Probe.apply(out, w, x)
    r.sum().backward()
    return {
        "out": out,
        "gf": type(out.grad_fn).__name__,
        "r_gf": r.grad_fn,
        "x.grad": x.grad,
        "needs": needs,
        "repr": repr(out)[:40],
    }


@program()
def prog_function_setup_context_style(T: Any) -> Any:
    class Cube(T.autograd.Function):
        @staticmethod
        def forward(x, power=3):
            return x**power

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, power = inputs
            ctx.save_for_backward(x)
            ctx.power = power

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.power * x ** (ctx.power - 1), None

    x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    y = Cube.apply(x, 3)
    (gx,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (ggx,) = T.autograd.grad(gx.sum(), x)
    return {"y": y, "gx": gx, "ggx": ggx, "kw": raises(lambda: Cube.apply(x, power=2))}


@program()
def prog_function_mark_dirty_non_diff(T: Any) -> Any:
    class AddOneInplace(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class SortWithIdx(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            (i,) = ctx.saved_tensors
            out = T.zeros_like(gv)
            out.scatter_(0, i, gv)
            return out

    a = T.tensor([3.0, 1.0, 2.0], requires_grad=True)
    b = a * 1
    c = AddOneInplace.apply(b)
    v, i = SortWithIdx.apply(c * 2)
    (v * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    leaf_err = raises(lambda: AddOneInplace.apply(a))
    return {
        "c_is_b": c is b,
        "b_version": b._version,
        "c_gf": c.grad_fn,
        "v": v,
        "i": i,
        "i_rg": i.requires_grad,
        "a.grad": a.grad,
        "leaf_err": leaf_err,
    }


@program()
def prog_function_materialize_and_once_diff(T: Any) -> Any:
    seen = []

    class Two(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append((g1 is None, g2 is None))
            out = 0
            if g1 is not None:
                out = out + g1 * 2
            if g2 is not None:
                out = out + g2 * 3
            return out

    x = T.tensor([1.0, 2.0], requires_grad=True)
    a, _ = Two.apply(x)
    a.sum().backward()

    class Mat(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append((type(g2).__name__, g2.tolist()))
            return g1 * 2 + g2 * 3

    _, b2 = Mat.apply(x)
    b2.sum().backward()
    return {"seen": seen, "x.grad": x.grad}


@program()
def prog_function_once_differentiable(T: Any) -> Any:
    ad = T.autograd
    once = ad.function.once_differentiable

    class Sq(ad.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = T.tensor([1.0, 3.0], requires_grad=True)
    y = Sq.apply(x)
    (g,) = ad.grad(y.sum(), x, create_graph=True)
    err = raises(lambda: g.sum().backward())
    return {"g": g, "g_rg": g.requires_grad, "g_gf": g.grad_fn, "err": err}


@program()
def prog_function_wrong_grad_count(T: Any) -> Any:
    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return g

    class BadShape(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.sum()

    class TooMany(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = T.ones(3, requires_grad=True)
    y = T.ones(3, requires_grad=True)
    return {
        "few": raises(lambda: Bad.apply(x, y).sum().backward()),
        "shape": raises(lambda: BadShape.apply(x).sum().backward()),
        "many": raises(lambda: TooMany.apply(x).sum().backward()),
        "noforward": raises(lambda: T.autograd.Function.apply(x)),
    }


@program()
def prog_function_vmap_staticmethod(T: Any) -> Any:
    class MyMul(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

    x = T.tensor(_data(4, 3), requires_grad=True)
    y = T.tensor(_data(4, 3, seed=2))
    out = T.vmap(MyMul.apply)(x, y)
    out.sum().backward()
    jac = T.func.jacrev(lambda a: MyMul.apply(a, y[0]))(x[0].detach())
    return {"out": out.detach(), "x.grad": x.grad, "jac": jac}


@program()
def prog_function_vmap_node_name(T: Any) -> Any:
    class MyMul(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

    x = T.tensor(_data(4, 3), requires_grad=True)
    return T.vmap(MyMul.apply)(x, T.tensor(_data(4, 3, seed=2))).grad_fn.name()


# --- hooks ---------------------------------------------------------------------------------


@program()
def prog_tensor_hooks_chain(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    h1 = y.register_hook(lambda g: log.append(("h1", g.tolist())))
    y.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: log.append(("x", g.tolist())) or g + 1)
    x.register_post_accumulate_grad_hook(lambda p: log.append(("post", p.grad.tolist())))
    (y**2).sum().backward(retain_graph=True)
    h1.remove()
    (y**2).sum().backward()
    z = x.view(3, 1)
    z.retain_grad()
    z.sum().backward()
    return {"log": log, "x.grad": x.grad, "y.grad": y.grad, "z.grad": z.grad, "z": z}


@program()
def prog_node_hooks(T: Any) -> Any:
    log = []
    x = T.tensor([1.0, -2.0], requires_grad=True)
    y = x.exp()
    z = y.sum()
    node = y.grad_fn
    h = node.register_hook(
        lambda gi, go: log.append(("post", [g.tolist() for g in gi], [g.tolist() for g in go]))
    )
    node.register_prehook(lambda go: log.append(("pre", [g.tolist() for g in go])))
    z.backward(retain_graph=True)
    h.remove()
    z.backward()
    return {
        "log": log,
        "x.grad": x.grad,
        "name": node.name(),
        "next": node.next_functions[0][0].name(),
    }


@program()
def prog_saved_tensors_hooks(T: Any) -> Any:
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t.detach().clone() * 1

    def unpack(t):
        log.append(("unpack", tuple(t.shape)))
        return t

    x = T.tensor(_data(2, 3), requires_grad=True)
    w = T.tensor(_data(3, 2, seed=1), requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x @ w).tanh()
    y.sum().backward()
    with T.autograd.graph.save_on_cpu():
        y2 = (x.sin() * w.t()).sum()
    y2.backward()
    return {"log": log, "x.grad": x.grad, "w.grad": w.grad}


@program()
def prog_module_hooks(T: Any) -> Any:
    nn = T.nn
    log = []
    m = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 3)

    def pre(mod, args, kwargs):
        log.append(("pre", type(mod).__name__, sorted(kwargs)))
        return (args[0] * 2,), kwargs

    def post(mod, args, kwargs, out):
        log.append(("post", type(mod).__name__))
        return out + 1

    def bwd(mod, gin, gout):
        log.append(
            ("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin])
        )

    def bwd_pre(mod, gout):
        log.append(("bwd_pre", type(mod).__name__, [tuple(g.shape) for g in gout]))
        return (gout[0] * 0.5,)

    h1 = m[0].register_forward_pre_hook(pre, with_kwargs=True)
    h2 = m[2].register_forward_hook(post, with_kwargs=True)
    m[0].register_full_backward_hook(bwd)
    m[2].register_full_backward_pre_hook(bwd_pre)
    x = T.tensor(_data(5, 3), requires_grad=True)
    out = m(x)
    out.sum().backward()
    g1 = m[0].weight.grad.clone()
    h1.remove()
    h2.remove()
    out2 = m(x)
    return {"log": log, "out": out, "out2": out2, "g1": g1, "x.grad": x.grad, "out_gf": out.grad_fn}


# --- higher order --------------------------------------------------------------------------


@program()
def prog_grad_of_grad_and_penalty(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)), 7)
    x = T.tensor(_data(6, 3), requires_grad=True)
    out = m(x)
    (gx,) = T.autograd.grad(out.sum(), x, create_graph=True)
    penalty = ((gx.norm(2, dim=1) - 1) ** 2).mean()
    penalty.backward()
    grads = {n: p.grad for n, p in m.named_parameters()}
    y = T.tensor(2.0, requires_grad=True)
    f = y**4
    (d1,) = T.autograd.grad(f, y, create_graph=True)
    (d2,) = T.autograd.grad(d1, y, create_graph=True)
    (d3,) = T.autograd.grad(d2, y)
    unused = raises(lambda: T.autograd.grad((x * 2).sum(), [x, y]))
    allow = T.autograd.grad((x * 2).sum(), [x, y], allow_unused=True)
    mat = T.autograd.grad((x * 2).sum(), [x, y], allow_unused=True, materialize_grads=True)
    return {
        "grads": grads,
        "gx": gx,
        "pen": penalty,
        "d": [d1, d2, d3],
        "unused": unused,
        "allow": allow,
        "mat": mat,
    }


@program(warnings=False)  # torch's first forward-mode jacobian warns about torch.jit.script
def prog_functional_jacobian_hessian(T: Any) -> Any:
    F = T.autograd.functional

    def f(x):
        return (x.sin() * x.sum()).tanh()

    def scalar(x, y):
        return (x**2 * y.exp()).sum()

    x = T.tensor(_data(4).astype(np.float64))
    y = T.tensor(_data(4, seed=1).astype(np.float64))
    v = T.ones(4, dtype=T.float64)
    return {
        "jac": F.jacobian(f, x),
        "jac_vec": F.jacobian(f, x, vectorize=True),
        "jac_fwd": F.jacobian(f, x, vectorize=True, strategy="forward-mode"),
        "jac_cg": F.jacobian(f, x, create_graph=True),
        "hess": F.hessian(scalar, (x, y)),
        # (torch's forward-mode outer Jacobian leaves its result attached to a graph: values only)
        "hess_vec": [
            [h.detach() for h in row]
            for row in F.hessian(
                scalar, (x, y), vectorize=True, outer_jacobian_strategy="forward-mode"
            )
        ],
        "vjp": F.vjp(f, x, v),
        "jvp": F.jvp(f, x, v),
        "hvp": F.hvp(lambda a: scalar(a, y), x, v),
        "vhp": F.vhp(lambda a: scalar(a, y), x, v),
        "bad_strategy": raises(lambda: F.jacobian(f, x, strategy="forward-mode")),
        "bad_v": raises(lambda: F.vjp(f, x, T.ones(3, dtype=T.float64))),
    }


@program()
def prog_torch_func_transforms(T: Any) -> Any:
    nn = T.nn
    fn = T.func
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.Linear(4, 2)), 11)
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = T.tensor(_data(5, 3))
    t = T.tensor(_data(5, 2, seed=3))

    def loss(p, xb, tb):
        out = fn.functional_call(model, p, (xb.unsqueeze(0),))
        return ((out - tb.unsqueeze(0)) ** 2).mean()

    per_sample = fn.vmap(fn.grad(loss), in_dims=(None, 0, 0))(params, x, t)
    g, val = fn.grad_and_value(loss)(params, x[0], t[0])

    def h(z):
        return (z**3).sum() + z.prod()

    z = T.tensor([0.5, -1.0, 2.0])
    return {
        "per_sample": per_sample,
        "g": g,
        "val": val,
        "jacrev": fn.jacrev(T.sin)(z),
        "jacfwd": fn.jacfwd(lambda a: a.cumsum(0) * a)(z),
        "hessian": fn.hessian(h)(z),
        "vjp": fn.vjp(T.exp, z)[1](T.ones(3)),
        "jvp": fn.jvp(T.exp, (z,), (T.ones(3),)),
        "vmap_nested": fn.vmap(fn.vmap(T.outer))(T.ones(2, 3, 2), T.ones(2, 3, 4)).shape,
        "vmap_err": raises(lambda: fn.vmap(T.sum, in_dims=1)(T.ones(3))),
        "grad_err": raises(lambda: fn.grad(lambda a: a * 2)(z)),
    }


# --- nn ------------------------------------------------------------------------------------


@program(
    tol=Tolerance(5e-5, 2e-5, "two layers, three SGD steps, then torch's fused eval fast path")
)
def prog_transformer_encoder_training(T: Any) -> Any:
    nn = T.nn
    layer = nn.TransformerEncoderLayer(
        d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True
    )
    enc = _seeded(T, nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False), 5)
    head = _seeded(T, nn.Linear(8, 3), 6)
    opt = T.optim.SGD([*enc.parameters(), *head.parameters()], lr=0.1, momentum=0.9)
    x = T.tensor(_data(2, 5, 8))
    pad = T.tensor([[False, False, False, True, True], [False] * 5])
    causal = nn.Transformer.generate_square_subsequent_mask(5)
    y = T.tensor([0, 2])
    losses = []
    for _ in range(3):
        opt.zero_grad()
        h = enc(x, mask=causal, src_key_padding_mask=pad, is_causal=True)
        loss = T.nn.functional.cross_entropy(head(h[:, 0]), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    enc.eval()
    with T.no_grad():
        ev = enc(x, src_key_padding_mask=pad)
    return {
        "losses": losses,
        "causal": causal,
        "ev": ev[:, :3],
        "repr": repr(layer),
        "h_gf": h.grad_fn.name(),
    }


@program()
def prog_multihead_attention_masks(T: Any) -> Any:
    nn = T.nn
    mha = _seeded(T, nn.MultiheadAttention(6, 3, batch_first=True), 8)
    mha_kv = _seeded(
        T, nn.MultiheadAttention(6, 2, kdim=4, vdim=5, bias=False, add_bias_kv=True), 9
    )
    q = T.tensor(_data(2, 4, 6), requires_grad=True)
    kpm = T.tensor([[False, False, True, True], [False, False, False, False]])
    attn_mask = T.triu(T.ones(4, 4, dtype=T.bool), diagonal=1)
    out, w = mha(q, q, q, key_padding_mask=kpm, attn_mask=attn_mask)
    out2, w2 = mha(q, q, q, need_weights=True, average_attn_weights=False)
    out3, w3 = mha(q, q, q, need_weights=False)
    float_mask = T.zeros(4, 4).masked_fill(attn_mask, float("-inf"))
    out4, _ = mha(q, q, q, attn_mask=float_mask)
    (out.sum() + out2.pow(2).sum() + out4.mean()).backward()
    qs = T.tensor(_data(3, 2, 6, seed=4))
    k = T.tensor(_data(5, 2, 4, seed=5))
    v = T.tensor(_data(5, 2, 5, seed=6))
    out5, w5 = mha_kv(qs, k, v)
    return {
        "out": out,
        "w": w,
        "w2": w2.shape,
        "w3": w3,
        "out3": out3,
        "q.grad": q.grad,
        "out5": out5,
        "w5": w5,
        "repr": repr(mha_kv),
        "out_gf": out.grad_fn.name(),
        "bad": raises(lambda: mha(q, q, q, attn_mask=T.ones(3, 3, dtype=T.bool))),
    }


@program()
def prog_embedding_variants(T: Any) -> Any:
    nn = T.nn
    emb = _seeded(T, nn.Embedding(10, 4, padding_idx=2), 1)
    idx = T.tensor([[1, 2, 3], [2, 2, 9]])
    emb(idx).pow(2).sum().backward()
    capped = nn.Embedding(10, 4, max_norm=1.0)
    _seeded(T, capped, 2)
    with T.no_grad():
        capped.weight.mul_(5)
    before = capped.weight.detach().clone()
    out = capped(T.tensor([1, 1, 4]))
    bag = _seeded(T, nn.EmbeddingBag(10, 3, mode="mean"), 3)
    bag_out = bag(T.tensor([1, 2, 4, 5, 4, 3, 2, 9]), T.tensor([0, 4]))
    pre = nn.Embedding.from_pretrained(T.tensor(_data(5, 2)), freeze=True)
    return {
        "grad": emb.weight.grad,
        "out": out,
        "w_after": capped.weight,
        "before": before,
        "bag": bag_out,
        "pre_rg": pre.weight.requires_grad,
        "repr": [repr(emb), repr(capped), repr(bag)],
        "oob": raises(lambda: emb(T.tensor([10]))),
    }


@program()
def prog_embedding_float_index_error(T: Any) -> Any:
    return raises(lambda: T.nn.Embedding(4, 2)(T.tensor([1.0])))


@program()
def prog_norm_layers_train_eval(T: Any) -> Any:
    nn = T.nn
    x = T.tensor(_data(4, 6, 5), requires_grad=True)
    bn = nn.BatchNorm1d(6, momentum=0.2)
    ln = _seeded(T, nn.LayerNorm([6, 5], eps=1e-4), 2)
    gn = _seeded(T, nn.GroupNorm(3, 6), 3)
    inn = nn.InstanceNorm1d(6, affine=True, track_running_stats=True)
    outs = {}
    for mode in ("train", "eval"):
        for name, m in (("bn", bn), ("ln", ln), ("gn", gn), ("in", inn)):
            getattr(m, mode)()
            outs[f"{name}_{mode}"] = m(x)
    total = sum(o.sum() * (i + 1) for i, o in enumerate(outs.values()))
    total.backward()
    bn_nomom = nn.BatchNorm1d(6, momentum=None)
    for k in range(3):
        bn_nomom(x.detach() + k)
    drop = nn.Dropout(0.5).eval()
    return {
        **outs,
        "x.grad": x.grad,
        "rm": bn.running_mean,
        "rv": bn.running_var,
        "nbt": bn.num_batches_tracked,
        "cum_rm": bn_nomom.running_mean,
        "in_rm": inn.running_mean,
        "drop": drop(x),
        "drop_is": drop(x) is x,
        "sd": list(bn.state_dict()),
        "repr": [repr(bn), repr(ln), repr(gn), repr(inn), repr(drop)],
        "one": raises(lambda: nn.BatchNorm1d(6)(T.ones(1, 6))),
    }


@program()
def prog_batchnorm_wrong_channels(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(6)
    return {
        "train": raises(lambda: bn(T.ones(2, 5, 3))),
        "eval": raises(lambda: bn.eval()(T.ones(2, 5))),
    }


@program()
def prog_conv_stack(T: Any) -> Any:
    nn = T.nn
    c1 = _seeded(T, nn.Conv1d(2, 3, 3, padding="same", dilation=2, padding_mode="reflect"), 1)
    c2 = _seeded(T, nn.Conv2d(3, 4, (3, 2), stride=(2, 1), padding=1, groups=1, bias=False), 2)
    ct = _seeded(T, nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1), 3)
    dw = _seeded(T, nn.Conv2d(2, 4, 3, groups=2, padding_mode="circular", padding=1), 4)
    x = T.tensor(_data(2, 2, 7), requires_grad=True)
    h = c1(x)
    img = h.unsqueeze(-1).expand(2, 3, 7, 4)
    y = ct(c2(img))
    z = dw(y)
    z.square().mean().backward()
    return {
        "h": h,
        "y": y,
        "z": z,
        "x.grad": x.grad,
        "c2.grad": c2.weight.grad,
        "repr": [repr(c1), repr(c2), repr(ct), repr(dw)],
        "gf": [h.grad_fn.name(), y.grad_fn.name(), z.grad_fn.name()],
        "bad": raises(lambda: c2(T.ones(1, 2, 5, 5))),
        "same_stride": raises(lambda: nn.Conv1d(2, 3, 3, stride=2, padding="same")),
    }


@program()
def prog_state_dict_errors(T: Any) -> Any:
    nn = T.nn

    class Net(nn.Module):
        def __init__(self, extra=False):
            super().__init__()
            self.fc = nn.Linear(3, 2)
            self.bn = nn.BatchNorm1d(2)
            self.register_buffer("step", T.tensor(0))
            self.register_buffer("tmp", T.zeros(1), persistent=False)
            if extra:
                self.head = nn.Linear(2, 1)

    a = _seeded(T, Net(), 1)
    b = Net(extra=True)
    sd = a.state_dict()
    strict = raises(lambda: b.load_state_dict(sd))
    res = b.load_state_dict(sd, strict=False)
    sd2 = dict(sd)
    sd2["fc.weight"] = T.zeros(4, 3)
    sd2["bogus"] = T.zeros(1)
    shape = raises(lambda: Net().load_state_dict(sd2))
    sd3 = {k: v for k, v in sd.items() if k != "bn.running_var"}
    missing = raises(lambda: Net().load_state_dict(sd3))
    prefixed = {"module." + k: v for k, v in sd.items()}
    nn.modules.utils.consume_prefix_in_state_dict_if_present(prefixed, "module.")
    c = Net()
    c.load_state_dict(prefixed)
    return {
        "keys": list(sd),
        "strict": strict,
        "res": str(res),
        "res_fields": (res.missing_keys, res.unexpected_keys),
        "shape": shape,
        "missing": missing,
        "c.fc": c.fc.weight,
        "sd_rg": sd["fc.weight"].requires_grad,
        "meta": list(sd._metadata.keys()) if hasattr(sd, "_metadata") else None,
    }


@program()
def prog_module_introspection_reprs(T: Any) -> Any:
    nn = T.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4)])
            self.heads = nn.ModuleDict({"cls": nn.Linear(4, 2), "reg": nn.Linear(4, 1)})
            self.scales = nn.ParameterList([nn.Parameter(T.ones(4)), nn.Parameter(T.zeros(2, 2))])
            self.table = nn.ParameterDict({"a": nn.Parameter(T.ones(3))})
            self.shared = self.layers[0]
            self.register_buffer("mask", T.ones(4, dtype=T.bool))

        def extra_repr(self):
            return "custom=1"

    b = Block()
    seq = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Tanh(), nn.Dropout(0.1)), nn.Flatten(0))
    visited = []
    b.apply(lambda m: visited.append(type(m).__name__))
    for p in b.parameters():
        p.grad = T.ones_like(p)
    b.zero_grad(set_to_none=False)
    g0 = [p.grad.sum().item() for p in b.parameters()]
    b.zero_grad()
    return {
        "repr": repr(b),
        "seq": repr(seq),
        "seq_slice": repr(seq[1:]),
        "params": [(n, tuple(p.shape)) for n, p in b.named_parameters()],
        "params_dup": [n for n, _ in b.named_parameters(remove_duplicate=False)],
        "modules": [n for n, _ in b.named_modules()],
        "children": [n for n, _ in b.named_children()],
        "buffers": [n for n, _ in b.named_buffers()],
        "visited": visited,
        "g0": g0,
        "grads": [p.grad for p in b.parameters()],
        "n": sum(p.numel() for p in b.parameters()),
        "getattr": raises(lambda: b.nope),
        "plist": repr(b.scales),
        "pdict": repr(b.table),
        "get_sub": repr(b.get_submodule("heads.cls")),
        "get_sub_err": raises(lambda: b.get_submodule("heads.nope")),
        "param_repr": repr(b.scales[0]),
        "train": [b.training, b.eval().training, b.layers[0].training],
        "bad_assign": raises(lambda: setattr(b, "layers", T.ones(1))),
        "bad_param": raises(lambda: b.register_parameter("x", T.ones(1))),
    }


# --- optim ---------------------------------------------------------------------------------


def _regression(T: Any, seed: int = 0) -> tuple[Any, Any, Any]:
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1)), seed)
    x = T.tensor(_data(16, 4, seed=seed + 1))
    y = T.tensor(_data(16, 1, seed=seed + 2))
    return model, x, y


def _train(T: Any, model: Any, opt: Any, x: Any, y: Any, steps: int, sched: Any = None) -> Any:
    out = []
    for _ in range(steps):
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        out.append((loss.item(), [g["lr"] for g in opt.param_groups]))
    return out


@program()
def prog_optimizers_variants(T: Any) -> Any:
    optim = T.optim
    res = {}
    configs = {
        "sgd_nesterov": lambda p: optim.SGD(
            p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3
        ),
        "sgd_dampening": lambda p: optim.SGD(
            p, lr=0.05, momentum=0.5, dampening=0.3, maximize=False
        ),
        "adam_amsgrad": lambda p: optim.Adam(p, lr=1e-2, amsgrad=True, weight_decay=1e-2),
        "adamw": lambda p: optim.AdamW(p, lr=1e-2, betas=(0.8, 0.95)),
        "rmsprop": lambda p: optim.RMSprop(p, lr=1e-2, alpha=0.9, centered=True, momentum=0.5),
        "adagrad": lambda p: optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1),
        "adamax": lambda p: optim.Adamax(p, lr=1e-2),
        "nadam": lambda p: optim.NAdam(p, lr=1e-2, momentum_decay=4e-3),
        "radam": lambda p: optim.RAdam(p, lr=1e-2, decoupled_weight_decay=True, weight_decay=0.1),
        "adadelta": lambda p: optim.Adadelta(p, lr=1.0),
        "rprop": lambda p: optim.Rprop(p, lr=1e-2),
    }
    for name, make in configs.items():
        model, x, y = _regression(T, 3)
        opt = make(model.parameters())
        res[name] = _train(T, model, opt, x, y, 4)
        res[name + "_w"] = [p.detach() for p in model.parameters()]
    res["repr"] = repr(optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
    res["repr_adam"] = repr(
        optim.Adam(
            [{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 1e-4}]
        )
    )
    res["bad_lr"] = raises(lambda: optim.SGD(model.parameters(), lr=-1))
    res["bad_nesterov"] = raises(lambda: optim.SGD(model.parameters(), lr=0.1, nesterov=True))
    res["bad_betas"] = raises(lambda: optim.Adam(model.parameters(), betas=(1.0, 0.9)))
    res["empty"] = raises(lambda: optim.Adam([]))
    res["dup"] = raises(lambda: optim.SGD([model[0].weight, model[0].weight], lr=0.1))
    return res


@program()
def prog_lbfgs_closure(T: Any) -> Any:
    model, x, y = _regression(T, 5)
    opt = T.optim.LBFGS(
        model.parameters(), lr=0.5, max_iter=5, history_size=4, line_search_fn="strong_wolfe"
    )
    calls = []

    def closure():
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(model(x), y)
        loss.backward()
        calls.append(loss.item())
        return loss

    losses = [opt.step(closure).item() for _ in range(3)]
    model2, _, _ = _regression(T, 5)
    opt2 = T.optim.LBFGS(model2.parameters(), lr=0.1, max_iter=3)

    def closure2():
        opt2.zero_grad()
        loss = T.nn.functional.mse_loss(model2(x), y)
        loss.backward()
        return loss

    opt2.step(closure2)
    st = opt.state_dict()["state"][0]
    return {
        "losses": losses,
        "calls": calls,
        "w": [p.detach() for p in model.parameters()],
        "w2": [p.detach() for p in model2.parameters()],
        "state_keys": sorted(st),
        "n_iter": st["n_iter"],
        "func_evals": st["func_evals"],
    }


@program()
def prog_param_groups_and_state_roundtrip(T: Any) -> Any:
    model, x, y = _regression(T, 7)
    opt = T.optim.Adam([{"params": model[0].parameters(), "lr": 1e-2}], lr=1e-3, weight_decay=0.0)
    opt.add_param_group({"params": model[2].parameters(), "weight_decay": 0.1})
    first = _train(T, model, opt, x, y, 3)
    sd = opt.state_dict()
    buf = io.BytesIO()
    T.save({"model": model.state_dict(), "opt": sd, "epoch": 3}, buf)
    buf.seek(0)
    ck = T.load(buf, weights_only=True)
    model2, _, _ = _regression(T, 0)
    model2.load_state_dict(ck["model"])
    opt2 = T.optim.Adam([{"params": model2[0].parameters(), "lr": 1e-2}], lr=1e-3)
    opt2.add_param_group({"params": model2[2].parameters(), "weight_decay": 0.1})
    opt2.load_state_dict(ck["opt"])
    a = _train(T, model, opt, x, y, 2)
    b = _train(T, model2, opt2, x, y, 2)
    dup = raises(lambda: opt.add_param_group({"params": model[0].weight}))
    bad = T.optim.SGD(model.parameters(), lr=0.1)
    mismatch = raises(lambda: bad.load_state_dict(sd))
    return {
        "first": first,
        "a": a,
        "b": b,
        "groups": [{k: v for k, v in g.items() if k != "params"} for g in sd["param_groups"]],
        "params_idx": [g["params"] for g in sd["param_groups"]],
        "state_keys": sorted(sd["state"][0]),
        "step": sd["state"][0]["step"],
        "dup": dup,
        "mismatch": mismatch,
        "epoch": ck["epoch"],
    }


@program()
def prog_lr_scheduler_chains(T: Any) -> Any:
    sch = T.optim.lr_scheduler
    out = {}

    def fresh(lr=0.1, **kw):
        p = T.nn.Parameter(T.ones(2))
        return T.optim.SGD([p], lr=lr, momentum=0.9, **kw)

    def trace(opt, s, n, metric=None):
        lrs = []
        for i in range(n):
            opt.step()
            if metric is None:
                s.step()
            else:
                s.step(metric[i])
            lrs.append(s.get_last_lr() if metric is None else [g["lr"] for g in opt.param_groups])
        return lrs

    o = fresh()
    out["step"] = trace(o, sch.StepLR(o, step_size=2, gamma=0.5), 7)
    o = fresh()
    out["multistep"] = trace(o, sch.MultiStepLR(o, milestones=[2, 5], gamma=0.1), 7)
    o = fresh()
    out["onecycle"] = trace(
        o, sch.OneCycleLR(o, max_lr=1.0, total_steps=10, anneal_strategy="linear"), 9
    )
    out["onecycle_mom"] = o.param_groups[0]["momentum"]
    o = fresh()
    out["onecycle_cos"] = trace(
        o, sch.OneCycleLR(o, max_lr=0.5, epochs=2, steps_per_epoch=4, three_phase=True), 8
    )
    o = fresh()
    out["cawr"] = trace(o, sch.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), 10)
    o = fresh()
    out["plateau"] = trace(
        o,
        sch.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, cooldown=1, threshold=0.01),
        9,
        metric=[1.0, 0.9, 0.95, 0.91, 0.9, 0.9, 0.5, 0.6, 0.7],
    )
    o = fresh()
    seq = sch.SequentialLR(
        o,
        [sch.LinearLR(o, start_factor=0.1, total_iters=3), sch.ExponentialLR(o, gamma=0.9)],
        milestones=[3],
    )
    out["sequential"] = trace(o, seq, 7)
    o = fresh()
    out["lambda"] = trace(o, sch.LambdaLR(o, lambda e: 1 / (e + 1)), 4)
    o = fresh()
    chain = sch.ChainedScheduler(
        [sch.ConstantLR(o, factor=0.5, total_iters=2), sch.ExponentialLR(o, gamma=0.9)]
    )
    out["chained"] = trace(o, chain, 5)
    o = fresh()
    cos = sch.CosineAnnealingLR(o, T_max=4, eta_min=0.001)
    out["cos"] = trace(o, cos, 9)
    out["cos_sd"] = {k: v for k, v in cos.state_dict().items() if not callable(v)}
    o = fresh()
    cyc = sch.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
    out["cyclic"] = trace(o, cyc, 9)
    o = fresh()
    poly = sch.PolynomialLR(o, total_iters=4, power=2.0)
    out["poly"] = trace(o, poly, 6)
    o = fresh()
    out["bad_onecycle"] = raises(lambda: sch.OneCycleLR(o, max_lr=1.0))
    out["bad_factor"] = raises(lambda: sch.ReduceLROnPlateau(o, factor=1.5))
    return out


@program()
def prog_grad_clipping_utils(T: Any) -> Any:
    nn = T.nn
    model, x, y = _regression(T, 9)
    T.nn.functional.mse_loss(model(x), y).mul(100).backward()
    params = list(model.parameters())
    before = [p.grad.clone() for p in params]
    n2 = nn.utils.clip_grad_norm_(params, max_norm=1.0)
    after = [p.grad.clone() for p in params]
    ninf = nn.utils.clip_grad_norm_(params, max_norm=0.5, norm_type="inf")
    n1 = nn.utils.clip_grad_norm_(params[0], max_norm=10.0, norm_type=1)
    nn.utils.clip_grad_value_(params, clip_value=0.01)
    clipped = [p.grad.clone() for p in params]
    params[0].grad[0, 0] = float("nan")
    nan_norm = nn.utils.clip_grad_norm_(params, 1.0)
    err = raises(lambda: nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True))
    norms = nn.utils.get_total_norm([p.grad for p in params[1:]], norm_type=2.0)
    vec = nn.utils.parameters_to_vector(params)
    nn.utils.vector_to_parameters(vec * 2, params)
    empty = nn.utils.clip_grad_norm_([], 1.0)
    return {
        "before": before,
        "n2": n2,
        "after": after,
        "ninf": ninf,
        "n1": n1,
        "clipped": clipped,
        "nan_norm": nan_norm,
        "err": err,
        "norms": norms,
        "vec": vec,
        "doubled": params[1],
        "empty": empty,
    }


@program()
def prog_save_load_model_objects(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T, nn.Sequential(nn.Conv1d(2, 3, 2), nn.BatchNorm1d(3), nn.Flatten(), nn.Linear(9, 2)), 4
    )
    model.train()
    x = T.tensor(_data(4, 2, 4))
    model(x)
    opt = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(x).sum().backward()
    opt.step()
    buf = io.BytesIO()
    T.save(
        {
            "sd": model.state_dict(),
            "opt": opt.state_dict(),
            "t": T.arange(6).view(2, 3)[:, 1:],
            "list": [T.tensor(1.5, dtype=T.float64), T.tensor([True, False])],
        },
        buf,
    )
    buf.seek(0)
    ck = T.load(buf)
    m2 = _seeded(
        T, nn.Sequential(nn.Conv1d(2, 3, 2), nn.BatchNorm1d(3), nn.Flatten(), nn.Linear(9, 2)), 0
    )
    m2.load_state_dict(ck["sd"])
    m2.eval()
    model.eval()
    shared = T.arange(4.0)
    buf2 = io.BytesIO()
    T.save([shared, shared[1:]], buf2)
    buf2.seek(0)
    a, b = T.load(buf2)
    a[2] = 100.0
    return {
        "eq": (m2(x) - model(x)).abs().max(),
        "t": ck["t"],
        "list": ck["list"],
        "opt_state": ck["opt"]["state"][0]["momentum_buffer"],
        "shared_b": b,
        "nbt": ck["sd"]["1.num_batches_tracked"],
        "keys": list(ck["sd"]),
    }


# --- tensors -------------------------------------------------------------------------------


@program()
def prog_tensor_printing(T: Any) -> Any:
    x = T.tensor(_data(3, 4), requires_grad=True)
    y = x * 2
    big = T.arange(2000.0).reshape(40, 50) / 7
    return [
        repr(x),
        repr(y),
        str(y.sum()),
        repr(y.mean(dim=0)),
        repr(x[0]),
        repr(x.t()),
        repr(T.tensor([1, 2, 3])),
        repr(T.tensor([1, 2], dtype=T.int32)),
        repr(T.tensor([True, False])),
        repr(T.tensor([1.5, 2.25], dtype=T.float64)),
        repr(T.tensor([1.0, 2.0], dtype=T.float16)),
        repr(T.tensor([1e-8, 1.0, 1e8])),
        repr(T.tensor([1e-5, 1.0])),
        repr(T.tensor([float("nan"), float("inf"), -0.0])),
        repr(T.tensor([[1e10, 2.0]])),
        repr(T.tensor(3.5)),
        repr(T.tensor(7)),
        repr(T.zeros(0)),
        repr(T.zeros(2, 0, 3)),
        repr(T.tensor([1 + 2j, -0.5j])),
        repr(big),
        str(T.arange(1500)),
        repr(T.arange(10.0) * 1e-3),
        repr(T.ones(2, 3, dtype=T.uint8)),
        repr(T.tensor([100000.0, 1.0])),
        repr(T.tensor([0.1, 123456.789])),
        repr(T.nn.Parameter(T.ones(2, 2))),
        repr(T.randn(3, 3, 3).shape),
        repr(x.dtype),
        repr(T.float32),
        repr(x.detach().requires_grad_()),
        repr(T.tensor([[1, -2], [300, 4]], dtype=T.int64)),
        repr(T.linspace(0, 1, 7, dtype=T.float64)),
        repr(x.sum(dim=1, keepdim=True).expand(3, 2)),
    ]


@program()
def prog_print_options(T: Any) -> Any:
    x = T.tensor(_data(4, 5) * 100)
    outs = []
    T.set_printoptions(precision=2)
    outs.append(repr(x))
    T.set_printoptions(sci_mode=True)
    outs.append(repr(x[:2]))
    T.set_printoptions(threshold=5, edgeitems=1)
    outs.append(repr(x))
    T.set_printoptions(profile="full")
    outs.append(repr(T.arange(30)))
    T.set_printoptions(profile="default")
    T.set_printoptions(linewidth=40)
    outs.append(repr(T.arange(20.0)))
    T.set_printoptions(profile="default")
    outs.append(repr(x))
    return outs


@program()
def prog_indexing_everything(T: Any) -> Any:
    x = T.tensor(_data(4, 5, 3), requires_grad=True)
    h = x * 1
    idx = T.tensor([3, 0, 0])
    mask = h[:, :, 0] > 0
    outs = {
        "int": h[1],
        "neg": h[-1, -2],
        "slice": h[1:3, ::2],
        "ellipsis": h[..., 1],
        "none": h[None, :, None, 0].shape,
        "tensor_idx": h[idx],
        "two_adv": h[idx, T.tensor([1, 2, 4])],
        "adv_split": h[idx, :, T.tensor([0, 1, 2])],
        "mask": h[mask],
        "mask3": h[h > 0.5],
        "list": h[[0, 2]],
        "bool_scalar": h[True].shape,
        "step": h[::-1] if False else h[:, 1::3],
        "zero_dim_idx": h[T.tensor(2)],
        "mixed": h[1:, [0, 0, 1]],
        "adv_none": h[:, None, idx].shape,
        "int_tensor_list": h[[[0, 1], [2, 3]]].shape,
    }
    total = sum((v.sum() * (i + 1)) for i, v in enumerate(outs.values()) if hasattr(v, "grad_fn"))
    total.backward()
    gfs = {
        k: v.grad_fn.name()
        for k, v in outs.items()
        if hasattr(v, "grad_fn") and v.grad_fn is not None
    }
    errs = {
        "oob": raises(lambda: h[4]),
        "too_many": raises(lambda: h[0, 0, 0, 0]),
        "adv_oob": raises(lambda: h[T.tensor([5])]),
        "float_idx": raises(lambda: h[T.tensor([1.0])]),
        "bad_mask": raises(lambda: h[T.tensor([True, False])]),
        "step_neg": raises(lambda: h[::-1]),
    }
    return {**outs, "x.grad": x.grad, "gfs": gfs, **errs}


@program()
def prog_setitem_broadcasting(T: Any) -> Any:
    a = T.zeros(4, 5)
    a[1] = 3
    a[:, 2] = T.tensor([1.0, 2.0, 3.0, 4.0])
    a[2:, 3:] = T.tensor([[7.0], [8.0]])
    a[a > 5] = -1
    a[[0, 3], [4, 0]] = T.tensor([9.0, 10.0])
    a[..., 0] += 0.5
    a[T.tensor([0, 0, 1])] = 2.0
    w = T.tensor(_data(4, 5), requires_grad=True)
    b = w.clone()
    b[1:3] = w[:2] * 10
    b[:, 0] = 0
    v = T.tensor([5.0, 6.0], requires_grad=True)
    b[0, :2] = v
    b.pow(2).sum().backward()
    i = T.zeros(3, dtype=T.int64)
    i[1] = 2.7
    bo = T.zeros(3, dtype=T.bool)
    bo[0] = 1
    errs = {
        "shape": raises(lambda: a.__setitem__(slice(0, 2), T.ones(3))),
        "leaf": raises(lambda: w.__setitem__(0, 1.0)),
        "grad_into_int": raises(lambda: i.__setitem__(0, T.tensor(1.5, requires_grad=True))),
    }
    return {
        "a": a,
        "b": b,
        "b_gf": b.grad_fn,
        "w.grad": w.grad,
        "v.grad": v.grad,
        "i": i,
        "bo": bo,
        "ver": [a._version, b._version],
        **errs,
    }


@program()
def prog_inplace_errors(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    out = {"leaf_add": raises(lambda: w.add_(1)), "leaf_relu": raises(lambda: T.relu_(w))}
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    out["exp_mod"] = raises(lambda: y.sum().backward())
    z = x * 2
    s = z.sigmoid()
    s.mul_(2)
    out["sig_mod"] = raises(lambda: s.sum().backward())
    v = x.clone()
    view = v[:2]
    q = view.pow(2)
    v.mul_(3)
    out["view_base_mod"] = raises(lambda: q.sum().backward())
    out["ok_add"] = None
    a = x * 1
    a.sin()
    a.add_(1)
    b2 = a * 2
    out["ok_after"] = raises(lambda: b2.sum().backward())
    with T.no_grad():
        w.mul_(2)
    out["w"] = w
    out["w_ver"] = w._version
    base = T.ones(4, requires_grad=True).clone()
    vw = base.unbind(0)
    out["unbind_inplace"] = raises(lambda: vw[0].mul_(2))
    ch = base.split(2)
    out["split_inplace"] = raises(lambda: ch[0].add_(1))
    det = x.detach()
    det.zero_()
    out["detach_shared"] = raises(lambda: (x * x).sum().backward())
    out["x_after"] = x
    with T.no_grad():
        nv = base[:2]
    out["nograd_view"] = raises(lambda: nv.mul_(2))
    return out


@program()
def prog_type_promotion_and_division(T: Any) -> Any:
    i = T.tensor([7, -7, 5])
    f = T.tensor([1.5, -2.5, 4.0])
    h = T.tensor([1.0, 2.0], dtype=T.float16)
    u = T.tensor([250, 3], dtype=T.uint8)
    b = T.tensor([True, False, True])
    r = {
        "i_div_2": i / 2,
        "i_floordiv": i // 2,
        "i_mod": i % 3,
        "i_floordiv_neg": i // -2,
        "i_mod_neg": i % -3,
        "i_true_int": T.div(i, 2, rounding_mode="trunc"),
        "i_floor": T.div(i, 2, rounding_mode="floor"),
        "f_floordiv": f // 2,
        "f_mod": f % 1.5,
        "fmod": T.fmod(f, 1.5),
        "remainder": T.remainder(i, -4),
        "i_plus_float": i + 1.5,
        "i_times_true": i * True,
        "b_plus_b": b + b,
        "b_plus_1": b + 1,
        "b_times_f": b * 2.5,
        "h_plus_f64": h + T.tensor(1.0, dtype=T.float64),
        "h_plus_vec64": h + T.ones(2, dtype=T.float64),
        "u_plus_1": u + 10,
        "u_neg_int": u - 300 if False else u + (-1),
        "i_pow_neg": raises(lambda: i**-1),
        "i_pow_f": i.abs() ** 0.5,
        "int_div_zero": raises(lambda: i // 0),
        "sum_bool": b.sum(),
        "mean_int": raises(lambda: i.mean()),
        "prod_u8": u.prod(),
        "cumsum_b": b.cumsum(0),
        "scalar_t": T.tensor(2) * 1.5,
        "zero_d_promo": i * T.tensor(2.5),
        "zero_d_int_f16": h * T.tensor(3),
        "complex": f * 1j,
        "abs_int": T.tensor([-3]).abs(),
        "rshift": i >> 1,
        "bitand": i & 3,
        "result_type": T.result_type(i, 1.0),
        "promote": T.promote_types(T.uint8, T.int8),
        "can_cast": T.can_cast(T.float32, T.int32),
        "iadd_err": raises(lambda: i.add_(1.5)),
        "where": T.where(b, i, 0.5),
        "where_scalar": T.where(b, 1, 0),
        "clamp_int": i.clamp(min=0.5) if False else i.clamp(-3, 3),
        "max_mixed": T.maximum(i, f),
        "eq": i == f,
        "isclose": T.isclose(f, T.tensor([1.5, -2.5, 4.000001])),
    }
    return r


@program()
def prog_where_masked_sort_topk(T: Any) -> Any:
    x = T.tensor([3.0, 1.0, 3.0, 2.0, 1.0, 3.0], requires_grad=True)
    v, i = x.sort(descending=True, stable=True)
    _, i2 = T.sort(x, stable=True)
    tv, ti = x.topk(3)
    kv, ki = x.kthvalue(2)
    mv, mi = x.max(dim=0)
    mn = x.min()
    am = x.argmax()
    md = x.median()
    mo = T.mode(x)
    u = T.unique(x, return_inverse=True, return_counts=True)
    uc = T.unique_consecutive(x.detach(), return_counts=True)
    m = x > 1.5
    w = T.where(m, x, x * 0.1)
    mf = x.masked_fill(~m, -1.0)
    ms = x.masked_select(m)
    loss = (
        v[:2].sum()
        + tv.pow(2).sum()
        + kv
        + mv * 2
        + mn
        + md
        + w.sum()
        + mf.sum()
        + ms.prod()
        + mo.values
    )
    loss.backward()
    return {
        "v": v,
        "i": i,
        "i2": i2,
        "tv": tv,
        "ti": ti,
        "kv": kv,
        "ki": ki,
        "mi": mi,
        "am": am,
        "md": md,
        "mo": [mo.values, mo.indices],
        "u": u,
        "uc": uc,
        "x.grad": x.grad,
        "w_gf": w.grad_fn,
        "nan_sort": T.tensor([2.0, float("nan"), 1.0]).sort(),
        "argsort": T.tensor([2, 1, 2, 1]).argsort(stable=True),
        "topk_err": raises(lambda: x.topk(7)),
        "msort": T.msort(T.tensor([[3, 1], [2, 4]])),
    }


@program()
def prog_conversions_item_tolist(T: Any) -> Any:
    x = T.tensor([[1.7, -2.5], [3.2, 0.0]], requires_grad=True)
    return {
        "long": x.long(),
        "int": x.int(),
        "half": x.half(),
        "double": x.double(),
        "bool": x.bool(),
        "to": x.to(T.float64),
        "to_same": x.to(T.float32) is x,
        "type": x.type(),
        "type_conv": x.type(T.int32),
        "type_str": x.type("torch.DoubleTensor").dtype,
        "item": x[0, 0].item(),
        "tolist": x.tolist(),
        "int_item": T.tensor(5).item(),
        "bool_item": T.tensor(True).item(),
        "item_err": raises(lambda: x.item()),
        "float": float(x[1, 0]),
        "int_conv": int(x[0, 1]),
        "bool_err": raises(lambda: bool(x)),
        "numpy_err": raises(lambda: x.numpy()),
        "numpy_ok": x.detach().numpy().dtype.name,
        "index": [1, 2, 3][T.tensor(1)],
        "index_err": raises(lambda: [1, 2][T.tensor(1.0)]),
        "len": len(x),
        "len0": raises(lambda: len(T.tensor(1.0))),
        "iter": [r for r in x],
        "from_numpy": T.from_numpy(np.arange(3, dtype=np.int32)),
        "as_tensor": T.as_tensor([1, 2.0]),
        "f16_round": T.tensor([1.0001, 65504.0, 60000.0]).half(),
        "u8_wrap": T.tensor([300, -1]).to(T.uint8),
        "to_int": T.tensor([2.9, -2.9]).long(),
        "complex_real": T.tensor([1 + 2j]).real,
        "contains": 3.2 in T.tensor([3.2, 1.0]),
        "format": f"{T.tensor(3.14159):.2f}",
        "format_err": raises(lambda: f"{T.tensor([1.0, 2.0]):.2f}"),
        "hash_eq": x.detach().new_tensor([1]).dtype,
    }


@program()
def prog_grad_mode_decorators(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)

    @T.no_grad()
    def f(a):
        return a * 2

    @T.enable_grad()
    def g(a):
        return a * 2

    @T.inference_mode()
    def h(a):
        return a * 2

    @T.no_grad
    def bare(a):
        return a + 1

    with T.no_grad():
        inner = g(x)
        flag_in = T.is_grad_enabled()
    with T.set_grad_enabled(False):
        sg = x * 3
    T.set_grad_enabled(False)
    off = x * 3
    T.set_grad_enabled(True)
    with T.inference_mode():
        inf = x * 2
        nested = T.is_inference_mode_enabled()
        with T.inference_mode(False):
            inner_inf = x * 2
    hi = h(x)
    gen_log = []

    @T.no_grad()
    def gen():
        for k in range(2):
            gen_log.append(T.is_grad_enabled())
            yield x * k

    outs = list(gen())
    return {
        "f": f(x),
        "g_in_nograd": inner,
        "flag_in": flag_in,
        "sg": sg,
        "off": off,
        "inf_is": inf.is_inference(),
        "nested": nested,
        "inner_inf": inner_inf,
        "inner_inf_is": inner_inf.is_inference(),
        "hi_is": hi.is_inference(),
        "bare": bare(x),
        "gen_log": gen_log,
        "gen": outs,
        "inf_backward": raises(lambda: (inf * x).sum().backward()),
        "inf_inplace": raises(lambda: inf.add_(1)),
        "inf_version": raises(lambda: inf._version),
        "name": f.__name__,
        "repr_ng": type(T.no_grad()).__name__,
        "inf_in_graph": raises(lambda: T.ones(2, requires_grad=True).mul(inf).sum().backward()),
    }


@program()
def prog_anomaly_mode(T: Any) -> Any:
    out = {}
    x = T.tensor([0.0, 1.0], requires_grad=True)
    with T.autograd.detect_anomaly(check_nan=True):
        y = x.sqrt()
        z = (y * 0).sum()
        out["nan"] = raises(lambda: (x.sqrt() * 0).sum().backward())
        out["z"] = raises(lambda: z.backward())
    out["enabled"] = T.is_anomaly_enabled()
    T.autograd.set_detect_anomaly(True)
    out["on"] = [T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()]
    T.autograd.set_detect_anomaly(False)

    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    with T.autograd.detect_anomaly():
        out["bad_fn"] = raises(lambda: Bad.apply(x).sum().backward())
    out["x.grad"] = x.grad
    return out


@program()
def prog_inf_nan_results_warn_nothing(T: Any) -> Any:
    f = T.tensor([1.5, -2.5, 0.0])
    i = T.tensor([7, -7, 5])
    return {
        "div0": f / 0,
        "int_div0": i / 0,
        "pow_neg": i**0.5,
        "log0": T.log(f),
        "exp": T.exp(f * 100),
        "mul_overflow": T.tensor([3e38]) * 10,
        "to_half": T.tensor([70000.0]).half(),
        "nan_to_long": T.tensor([float("nan")]).long(),
    }


@program()
def prog_anomaly_nan_error_frees_graph(T: Any) -> Any:
    x = T.tensor([0.0, 1.0], requires_grad=True)
    with T.autograd.detect_anomaly(check_nan=True):
        y = x.sqrt()
        first = raises(lambda: (y * 0).sum().backward())
        second = raises(lambda: (y * 2).sum().backward())
    return {"first": first, "second": second, "x.grad": x.grad}


# --- more training programs ----------------------------------------------------------------


@program()
def prog_gru_lstm_packed_classifier(T: Any) -> Any:
    nn = T.nn
    rnn_utils = nn.utils.rnn
    gru = _seeded(T, nn.GRU(3, 4, num_layers=2, batch_first=False), 1)
    lstm = _seeded(T, nn.LSTM(3, 5, proj_size=2, batch_first=True), 2)
    seqs = [T.tensor(_data(n, 3, seed=n)) for n in (5, 3, 2)]
    padded = rnn_utils.pad_sequence(seqs)
    packed = rnn_utils.pack_padded_sequence(padded, [5, 3, 2])
    out, h = gru(packed)
    unpacked, lens = rnn_utils.pad_packed_sequence(out, total_length=6)
    packed2 = rnn_utils.pack_sequence([s.flip(0) for s in seqs[::-1]], enforce_sorted=False)
    out2, (h2, c2) = lstm(packed2)
    loss = unpacked.pow(2).sum() + h.sum() + h2.pow(2).sum() + c2.sum() + out2.data.sum()
    loss.backward()
    return {
        "unpacked": unpacked,
        "lens": lens,
        "h": h,
        "h2": h2,
        "c2": c2,
        "batch_sizes": out2.batch_sizes,
        "sorted": out2.sorted_indices,
        "unsorted": out2.unsorted_indices,
        "g": gru.weight_hh_l1.grad,
        "lg": lstm.weight_hr_l0.grad,
        "repr": [repr(gru), repr(lstm)],
        "packed_repr": repr(packed.batch_sizes),
        "bad_len": raises(lambda: rnn_utils.pack_padded_sequence(padded, [3, 5, 2])),
        "bad_in": raises(lambda: gru(T.ones(4, 2, 5))),
    }


@program()
def prog_seeded_init_and_dropout(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    lin = nn.Linear(5, 3)
    conv = nn.Conv2d(2, 3, 3)
    emb = nn.Embedding(4, 2)
    w = T.empty(3, 4)
    nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    x = T.randn(2, 5)
    drop = nn.Dropout(0.3)
    d = drop(x)
    g = T.Generator().manual_seed(3)
    r = T.rand(3, generator=g)
    perm = T.randperm(6)
    ri = T.randint(0, 10, (4,))
    mult = T.multinomial(T.tensor([0.1, 0.2, 0.7]), 5, replacement=True)
    state = T.get_rng_state()
    a = T.randn(2)
    T.set_rng_state(state)
    b = T.randn(2)
    return {
        "lin": [lin.weight, lin.bias],
        "conv": conv.weight[0, 0],
        "emb": emb.weight,
        "w": w,
        "x": x,
        "d": d,
        "r": r,
        "perm": perm,
        "ri": ri,
        "mult": mult,
        "same": T.equal(a, b),
        "bern": T.bernoulli(T.full((4,), 0.5)),
    }


@program()
def prog_weight_norm_parametrize(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrize

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    lin = _seeded(T, nn.Linear(3, 3), 4)
    P.register_parametrization(lin, "weight", Symmetric())
    x = T.tensor(_data(2, 3))
    lin(x).sum().backward()
    wn = nn.utils.parametrizations.weight_norm(_seeded(T, nn.Linear(3, 2), 5))
    out = wn(x)
    out.pow(2).sum().backward()
    orth = nn.utils.parametrizations.orthogonal(_seeded(T, nn.Linear(3, 3), 6))
    wq = orth.weight
    return {
        "w": lin.weight,
        "sym": T.allclose(lin.weight, lin.weight.T),
        "orig_grad": lin.parametrizations.weight.original.grad,
        "is_p": P.is_parametrized(lin),
        "names": sorted(n for n, _ in lin.named_parameters()),
        "wn_out": out,
        "g": wn.parametrizations.weight.original0.grad,
        "v": wn.parametrizations.weight.original1.grad,
        "orth_eye": (wq @ wq.T - T.eye(3)).abs().max() < 1e-5,
        "repr": repr(lin),
        "sd": list(lin.state_dict()),
    }


@program(warnings=False)  # torch's first forward-AD use warns about torch.jit.script
def prog_checkpoint_and_forward_ad(T: Any) -> Any:
    nn = T.nn
    from_cp = T.utils.checkpoint
    block = _seeded(T, nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4)), 8)
    x = T.tensor(_data(3, 4), requires_grad=True)
    y = from_cp.checkpoint(block, x, use_reentrant=False)
    y.sum().backward()
    gx = x.grad.clone()
    x.grad = None
    y2 = from_cp.checkpoint_sequential(nn.Sequential(*block), 2, x, use_reentrant=False)
    y2.sum().backward()
    fwAD = T.autograd.forward_ad
    primal = T.tensor(_data(4, seed=2))
    tangent = T.ones(4)
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tangent)
        out = (dual.sin() * dual).sum()
        p, t = fwAD.unpack_dual(out)
        lin_out = block(fwAD.make_dual(primal.unsqueeze(0), tangent.unsqueeze(0)))
        lt = fwAD.unpack_dual(lin_out).tangent.detach()

    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_forward(a)
            return a * a

        @staticmethod
        def jvp(ctx, ta):
            (a,) = ctx.saved_tensors
            return 2 * a * ta

    with fwAD.dual_level():
        d = fwAD.make_dual(primal, tangent)
        st = fwAD.unpack_dual(Sq.apply(d)).tangent
    return {
        "y": y,
        "gx": gx,
        "gx2": x.grad,
        "y2_gf": y2.grad_fn,
        "p": p,
        "t": t,
        "lt": lt,
        "st": st,
    }


@program()
def prog_module_misc_api(T: Any) -> Any:
    nn = T.nn
    log = []

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(2, 2)
            self.b = nn.Linear(2, 2)
            self.b.weight = self.a.weight

        def forward(self, x, scale=1.0):
            return self.b(self.a(x)) * scale

    n = _seeded(T, Net(), 2)
    n.register_forward_hook(lambda m, i, o: log.append(("fwd", len(i))))
    handle = nn.modules.module.register_module_forward_pre_hook(
        lambda m, i: log.append(("global", type(m).__name__))
    )
    out = n(T.ones(1, 2), scale=2.0)
    handle.remove()
    out.sum().backward()
    n.register_load_state_dict_post_hook(
        lambda m, keys: log.append(("load", sorted(keys.missing_keys)))
    )
    n.load_state_dict(n.state_dict())
    n.requires_grad_(False)
    n.a.bias.requires_grad_(True)
    half = Net().half()
    dbl = Net().to(T.float64)
    n2 = Net()
    del n2.a
    return {
        "out": out,
        "log": log,
        "shared_grad": n.a.weight.grad,
        "params": [k for k, _ in n.named_parameters()],
        "sd": list(n.state_dict()),
        "rg": [p.requires_grad for p in n.parameters()],
        "half": half.a.weight.dtype,
        "dbl": dbl(T.ones(1, 2, dtype=T.float64)).dtype,
        "del": raises(lambda: n2(T.ones(1, 2))),
        "n2": repr(n2),
        "train": n.train(False).training,
        "buffers": list(n.buffers()),
        "get_param": n.get_parameter("a.bias").shape,
        "to_empty": repr(nn.Linear(2, 1).to_empty(device="cpu").weight.shape),
    }


@program()
def prog_mixed_dtype_layer_errors(T: Any) -> Any:
    F = T.nn.functional
    f, d = T.ones(2, 3), T.ones(4, 3, dtype=T.float64)
    return {
        "linear": raises(lambda: T.nn.Linear(3, 4).double()(f)),
        "linear_3d": raises(lambda: F.linear(T.ones(2, 2, 3), d, T.ones(4, dtype=T.float64))),
        "addmm": raises(lambda: T.addmm(T.ones(2, 4), f, d.t())),
        "bmm": raises(lambda: T.bmm(T.ones(2, 2, 3), T.ones(2, 3, 2, dtype=T.float64))),
        "conv": raises(lambda: F.conv1d(T.ones(1, 3, 5), T.ones(2, 3, 2, dtype=T.float64))),
    }


# --- autograd API details ------------------------------------------------------------------


@program()
def prog_backward_api_errors(T: Any) -> Any:
    x = T.tensor(_data(3), requires_grad=True)
    y = x * 2
    out = {
        "nonscalar": raises(lambda: y.backward()),
        "bad_grad_shape": raises(lambda: y.backward(T.ones(4))),
        "bad_grad_dtype": raises(lambda: y.backward(T.ones(3, dtype=T.float64))),
        "no_grad_tensor": raises(lambda: T.ones(2).sum().backward()),
        "hook_nograd": raises(lambda: T.ones(2).register_hook(lambda g: g)),
        "grad_nonscalar": raises(lambda: T.autograd.grad(y, x)),
        "grad_not_input": raises(lambda: T.autograd.grad(y.sum(), T.ones(2, requires_grad=True))),
        "grad_outputs_len": raises(
            lambda: T.autograd.grad([y.sum()], [x], grad_outputs=[T.ones(()), T.ones(())])
        ),
    }
    z = (x**2).sum()
    z.backward(retain_graph=True)
    z.backward(inputs=[x])
    out["twice"] = x.grad
    w = (x.exp() * 3).sum()
    w.backward()
    out["third"] = raises(lambda: w.backward())
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    c = a * b
    T.autograd.backward([c, a * 2], grad_tensors=[T.tensor(1.0), T.tensor(0.5)], inputs=[a])
    out["a.grad"], out["b.grad"] = a.grad, b.grad
    out["grad_inputs_empty"] = raises(lambda: (a * b).backward(inputs=[]))
    (g,) = T.autograd.grad(a * b * b, b, retain_graph=False, create_graph=False)
    out["g"] = g
    out["grad_is_none"] = T.autograd.grad((a * 2), [a], grad_outputs=T.tensor(2.0))
    out["y_gf_next"] = y.grad_fn.next_functions
    out["x_requires"] = [y.requires_grad, y.is_leaf, x.is_leaf, y.detach().is_leaf]
    out["requires_grad_nonleaf"] = raises(lambda: y.requires_grad_(False))
    out["int_requires"] = raises(lambda: T.tensor([1, 2], requires_grad=True))
    out["nonleaf_grad"] = y.grad
    return out


@program()
def prog_custom_training_loop_with_accumulation(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T, nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.1), nn.Dropout(0.0), nn.Linear(8, 3)), 12
    )
    opt = T.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    x = T.tensor(_data(12, 4))
    y = T.tensor(np.random.default_rng(3).integers(0, 3, 12))
    w = T.tensor([1.0, 2.0, 0.5])
    log = []
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        for chunk in range(3):
            xb, yb = x[chunk * 4 : (chunk + 1) * 4], y[chunk * 4 : (chunk + 1) * 4]
            logits = model(xb)
            loss = nn.functional.cross_entropy(logits, yb, weight=w, label_smoothing=0.05) / 3
            loss.backward()
            log.append(round(loss.item(), 6))
        opt.step()
        with T.no_grad():
            acc = (model(x).argmax(1) == y).float().mean()
        log.append(("acc", acc.item()))
    losses = {
        "nll": nn.functional.nll_loss(
            T.log_softmax(model(x), 1), y, ignore_index=1, reduction="sum"
        ),
        "bce": nn.BCEWithLogitsLoss(pos_weight=T.tensor([2.0, 1.0, 0.5]))(
            model(x), nn.functional.one_hot(y, 3).float()
        ),
        "kl": nn.KLDivLoss(reduction="batchmean")(
            T.log_softmax(model(x), 1), T.softmax(model(x).detach() * 2, 1)
        ),
        "huber": nn.HuberLoss(delta=0.5)(model(x), T.zeros(12, 3)),
        "smooth": nn.SmoothL1Loss(beta=0.2)(model(x), T.ones(12, 3)),
        "margin": nn.MultiMarginLoss()(model(x), y),
        "cos": nn.CosineEmbeddingLoss()(model(x), model(x).flip(0), T.tensor([1, -1] * 6)),
        "ce_probs": nn.functional.cross_entropy(model(x), T.softmax(T.tensor(_data(12, 3)), 1)),
    }
    sum(losses.values()).backward()
    return {
        "log": log,
        "losses": losses,
        "grads": [p.grad for p in model.parameters()],
        "oob_target": raises(lambda: nn.functional.cross_entropy(model(x), y + 5)),
    }


@program()
def prog_tensor_api_grab_bag(T: Any) -> Any:
    x = T.tensor(_data(2, 3, 4), requires_grad=True)
    parts = {
        "permute": x.permute(2, 0, 1),
        "flatten": x.flatten(1),
        "unflatten": x.flatten(1).unflatten(1, (3, 4)),
        "chunk": x.chunk(2, dim=2)[1],
        "split": x.split([1, 3], dim=2)[1],
        "stack": T.stack([x, x], dim=1),
        "cat": T.cat([x, x * 2], dim=-1),
        "gather": x.gather(2, T.tensor([[[0, 3]] * 3] * 2)),
        "scatter_add": T.zeros(2, 3, 5).scatter_add(2, T.tensor([[[0, 1, 1, 4]] * 3] * 2), x),
        "index_add": T.zeros(4, 3, 4).index_add(0, T.tensor([3, 3]), x),
        "roll": x.roll(1, 2),
        "tril": x[0].tril(),
        "cumprod": x.cumprod(2),
        "logsumexp": x.logsumexp(1),
        "norm": x.norm(dim=(1, 2)),
        "std": x.std(1, unbiased=True),
        "var_mean": T.var_mean(x, dim=2, correction=0)[0],
        "amax": x.amax((0, 2)),
        "clamp": x.clamp(-0.5, 0.5),
        "lerp": T.lerp(x, T.zeros_like(x), 0.3),
        "einsum": T.einsum("bij,bkj->bik", x, x),
        "matmul": x @ x.transpose(1, 2),
        "baddbmm": T.baddbmm(T.ones(2, 3, 3), x, x.mT, alpha=0.5),
        "outer": T.outer(x[0, 0], x[1, 1]),
        "diag_embed": T.diag_embed(x[0, 0]),
        "repeat": x[0].repeat(2, 1),
        "repeat_interleave": x[0, 0].repeat_interleave(2),
        "expand_as": x[:, :1].expand_as(x),
        "softmax": x.softmax(-1),
        "normalize": T.nn.functional.normalize(x, dim=-1),
        "where": T.where(x > 0, x, 0.0),
        "atan2": T.atan2(x, x.flip(0)),
        "pad": T.nn.functional.pad(x, (1, 2), mode="constant", value=0.5),
        "reflect": T.nn.functional.pad(x, (1, 1), mode="reflect"),
        "interp": T.nn.functional.interpolate(x, scale_factor=2, mode="linear"),
        "cdist": T.cdist(x, x),
        "triu_idx": x[0][tuple(T.triu_indices(3, 4))],
        "narrow": x.narrow(2, 1, 2),
        "movedim": x.movedim(0, -1),
        "squeeze": x[:, :1].squeeze(),
        "topk_vals": x.topk(2, dim=-1).values,
    }
    total = sum(v.float().sum() * (k + 1) for k, v in enumerate(parts.values()))
    total.backward()
    names = {k: v.grad_fn.name() for k, v in parts.items()}
    return {**parts, "names": names, "x.grad": x.grad}


@program()
def prog_cross_entropy_float_index_target(T: Any) -> Any:
    logits = T.tensor(_data(4, 3), requires_grad=True)
    return raises(lambda: T.nn.functional.cross_entropy(logits, T.tensor([0.0, 2.0, 1.0, 1.0])))


@program()
def prog_scheduler_warnings_and_state(T: Any) -> Any:
    sch = T.optim.lr_scheduler
    p = T.nn.Parameter(T.ones(2))
    opt = T.optim.SGD([p], lr=0.1)
    s = sch.StepLR(opt, step_size=1, gamma=0.5)
    s.step()  # before opt.step(): torch warns
    lr_direct = s.get_lr()  # outside step(): torch warns
    opt.step()
    s.step()
    sd = s.state_dict()
    s2 = sch.StepLR(T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1), step_size=1, gamma=0.5)
    s2.load_state_dict(sd)
    opt3 = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)
    for g in opt3.param_groups:
        g["initial_lr"] = 0.1
    s3 = sch.ExponentialLR(opt3, gamma=0.9, last_epoch=4)
    opt4 = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)
    bad = raises(lambda: sch.StepLR(opt4, step_size=1, last_epoch=3))
    plateau = sch.ReduceLROnPlateau(T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1), patience=0)
    for m in (1.0, 2.0, 3.0):
        plateau.step(m)
    return {
        "lr_direct": lr_direct,
        "sd": sd,
        "s2": s2.get_last_lr(),
        "last_epoch": s2.last_epoch,
        "s3": s3.get_last_lr(),
        "bad": bad,
        "plateau": plateau.get_last_lr(),
        "psd": sorted(plateau.state_dict()),
        "opt_repr": repr(opt),
    }


@program()
def prog_swa_and_ema(T: Any) -> Any:
    nn = T.nn
    swa_utils = T.optim.swa_utils
    model, x, y = _regression(T, 13)
    opt = T.optim.SGD(model.parameters(), lr=0.05)
    swa = swa_utils.AveragedModel(model)
    ema = swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.9))
    sched = swa_utils.SWALR(opt, swa_lr=0.01, anneal_epochs=2, anneal_strategy="linear")
    lrs = []
    for _ in range(4):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        swa.update_parameters(model)
        ema.update_parameters(model)
        sched.step()
        lrs.append(sched.get_last_lr())
    return {
        "swa": [p.detach() for p in swa.module.parameters()],
        "ema": [p.detach() for p in ema.module.parameters()],
        "n": swa.n_averaged,
        "lrs": lrs,
        "out": swa(x),
        "keys": list(swa.state_dict()),
    }


@program()
def prog_deepcopy_and_module_dtype(T: Any) -> Any:
    import copy

    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)), 2)
    x = T.tensor(_data(4, 3))
    m(x).sum().backward()
    c = copy.deepcopy(m)
    same = [a is b for a, b in zip(m.parameters(), c.parameters(), strict=True)]
    c[0].weight.data.fill_(1.0)
    t = T.tensor(_data(2), requires_grad=True)
    nonleaf = t * 2
    leaf_copy = copy.deepcopy(t)
    d = m.double()
    return {
        "same": same,
        "orig": m[0].weight,
        "copy_grad": c[0].weight.grad,
        "rm": c[1].running_mean,
        "leaf_copy": leaf_copy,
        "deepcopy_nonleaf": raises(lambda: copy.deepcopy(nonleaf)),
        "dtypes": [p.dtype for p in d.parameters()],
        "buf_dtype": d[1].running_mean.dtype,
        "nbt": d[1].num_batches_tracked.dtype,
        "clone_param": type(m[0].weight.clone()).__name__,
        "param_copy": type(copy.deepcopy(m[0].weight)).__name__,
    }


@program()
def prog_module_backward_hooks_multi_io(T: Any) -> Any:
    nn = T.nn
    log = []

    class Mix(nn.Module):
        def forward(self, a, b):
            return a * b, a + b

    mix = Mix()
    mix.register_full_backward_hook(
        lambda m, gi, go: log.append(
            (
                "mix",
                [None if g is None else g.tolist() for g in gi],
                [None if g is None else g.tolist() for g in go],
            )
        )
    )
    mix.register_full_backward_pre_hook(lambda m, go: log.append(("pre", len(go))))
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0])
    p, q = mix(a, b)
    (p.sum() + q.sum() * 2).backward()
    relu = nn.ReLU(inplace=True)
    relu.register_full_backward_hook(lambda m, gi, go: log.append(("relu",)))
    h = T.tensor([-1.0, 1.0], requires_grad=True) * 1
    err = raises(lambda: relu(h))
    lin = _seeded(T, nn.Linear(2, 2), 1)
    lin.register_forward_hook(lambda m, i, o: log.append(("always", o is None)), always_call=True)

    def bad_pre(m, i):
        raise ValueError("stop")

    lin.register_forward_pre_hook(bad_pre)
    err2 = raises(lambda: lin(T.ones(1, 2)))
    return {"log": log, "a.grad": a.grad, "err": err, "err2": err2, "p_gf": p.grad_fn.name()}


@program()
def prog_forward_hooks_always_call_and_global(T: Any) -> Any:
    nn = T.nn
    mm = nn.modules.module
    log = []

    class Boom(nn.Module):
        def forward(self, x, fail=False):
            if fail:
                raise ValueError("forward failed")
            return x * 2

    m = Boom()
    m.register_forward_hook(
        lambda mod, a, kw, out: log.append(("kw", sorted(kw), out is None)),
        with_kwargs=True,
        always_call=True,
    )

    def noisy(mod, a, out):
        raise KeyError("hook failed")

    m.register_forward_hook(noisy, always_call=True)
    g1 = mm.register_module_forward_hook(
        lambda mod, a, out: log.append(("global", type(mod).__name__, out is None)),
        always_call=True,
    )
    g2 = mm.register_module_forward_hook(
        lambda mod, a, kw, out: log.append(("global_kw", sorted(kw))), with_kwargs=True
    )
    ok = m(T.ones(2), fail=False) if False else None
    err = raises(lambda: m(T.ones(2), fail=True))
    g2.remove()
    err_hook = raises(lambda: m(T.ones(2)))
    g1.remove()
    lin = _seeded(T, nn.Linear(2, 2), 3)
    lin.register_full_backward_hook(lambda mod, gi, go: log.append(("bwd",)))
    out = lin(T.ones(1, 2))
    inplace_after = raises(lambda: out.add_(1))
    with T.no_grad():
        nograd = lin(T.ones(1, 2)).add_(1)
    return {
        "log": log,
        "ok": ok,
        "err": err,
        "err_hook": err_hook,
        "inplace_after": inplace_after,
        "nograd": nograd,
    }


@program()
def prog_profiler_labels_and_increment_version(T: Any) -> Any:
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(3, 3), nn.ReLU()), 4)
    x = T.tensor(_data(2, 3))

    @T.autograd.profiler.record_function("loss_fn")
    def loss_fn(out):
        return out.pow(2).mean()

    with T.profiler.record_function("forward") as rf:
        out = model(x)
    with T.autograd.profiler.record_function("backward", "extra"):
        loss = loss_fn(out)
        loss.backward()
    y = T.ones(3, requires_grad=True) * 2
    z = y.sin()
    T.autograd.graph.increment_version(y)
    err = raises(lambda: z.sum().backward())
    T.autograd.graph.increment_version([y, x])
    return {
        "name": rf.name,
        "loss": loss,
        "g": model[0].weight.grad,
        "err": err,
        "ver": [y._version, x._version],
    }


@program()
def prog_model_ensembling_with_func(T: Any) -> Any:
    nn = T.nn
    fn = T.func
    models = [
        _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), s) for s in range(3)
    ]
    params, buffers = fn.stack_module_state(models)
    base = models[0]
    x = T.tensor(_data(5, 3))

    def call(p, b, xb):
        return fn.functional_call(base, (p, b), (xb,))

    ens = fn.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
    loop = T.stack([m(x) for m in models])
    bn = _seeded(T, nn.BatchNorm1d(3), 1)
    out_fc = fn.functional_call(bn, {"weight": T.ones(3) * 2}, (x,), strict=False)
    missing = raises(lambda: fn.functional_call(bn, {"weight": T.ones(3)}, (x,), strict=True))
    tied = fn.functional_call(models[0], {"0.weight": T.zeros(4, 3)}, x)
    return {
        "ens": ens.detach(),
        "loop": loop,
        "keys": sorted(params),
        "shapes": [tuple(v.shape) for v in params.values()],
        "rg": [v.requires_grad for v in params.values()],
        "fc": out_fc,
        "rm": bn.running_mean,
        "missing": missing,
        "tied": tied,
    }


@program()
def prog_gradcheck_custom_function(T: Any) -> Any:
    class Smooth(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return T.log1p(T.exp(k * x)) / k

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * T.sigmoid(ctx.k * x), None

    class Wrong(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.tensor(_data(4).astype(np.float64), requires_grad=True)
    ok = T.autograd.gradcheck(lambda a: Smooth.apply(a, 2.0), (x,))
    ok2 = T.autograd.gradgradcheck(lambda a: (a.sin() * a).sum(), (x,))
    bad = raises(lambda: T.autograd.gradcheck(Wrong.apply, (x,)))
    quiet = T.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False)
    f32 = raises(lambda: T.autograd.gradcheck(Wrong.apply, (x.float().detach().requires_grad_(),)))
    fast = raises(lambda: T.autograd.gradcheck(Wrong.apply, (x,), fast_mode=True))

    def head(e):  # the message without shadowgrad's extra last line (see the xfail below)
        return (e.type, e.message.split("\n\nThe worst element")[0])

    return {
        "ok": ok,
        "ok2": ok2,
        "bad": head(bad),
        "quiet": quiet,
        "f32": head(f32),
        "fast": fast.type,
    }


@program(
    xfail="gradcheck's failure message ends with an extra line naming the worst element "
    "('The worst element: input 0 element ...'), a documented shadowgrad addition "
    "(autograd/gradcheck.py); torch's message ends with the analytical Jacobian"
)
def prog_gradcheck_failure_message(T: Any) -> Any:
    class Half(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    return raises(lambda: T.autograd.gradcheck(Half.apply, (x,)))


@program()
def prog_sdpa_and_attention_variants(T: Any) -> Any:
    F = T.nn.functional
    q = T.tensor(_data(2, 2, 4, 8), requires_grad=True)
    k = T.tensor(_data(2, 2, 5, 8, seed=1), requires_grad=True)
    v = T.tensor(_data(2, 2, 5, 8, seed=2), requires_grad=True)
    bool_mask = T.tensor(np.random.default_rng(0).random((4, 5)) > 0.3)
    a = F.scaled_dot_product_attention(q, k, v)
    b = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask, scale=0.5)
    c = F.scaled_dot_product_attention(q, k[:, :, :4], v[:, :, :4], is_causal=True)
    d = F.scaled_dot_product_attention(q, k, v, attn_mask=T.zeros(4, 5))
    gqa = F.scaled_dot_product_attention(q, k[:, :1], v[:, :1], enable_gqa=True)
    (a.sum() + b.pow(2).sum() + c.mean() + d.sum() + gqa.sum()).backward()
    dec = _seeded(T, T.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 3)
    mem = T.tensor(_data(2, 5, 8, seed=4))
    tgt = T.tensor(_data(2, 4, 8, seed=5))
    dout = dec(
        tgt, mem, tgt_mask=T.nn.Transformer.generate_square_subsequent_mask(4), tgt_is_causal=True
    )
    return {
        "a": a,
        "b": b,
        "c": c,
        "d": d,
        "gqa": gqa,
        "q.grad": q.grad,
        "k.grad": k.grad,
        "v.grad": v.grad,
        "gf": [a.grad_fn.name(), b.grad_fn.name()],
        "dout": dout,
        "bad": raises(
            lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask, is_causal=True)
        ),
    }


@program(
    xfail="vmap runs the function once per sample and stacks the results, so a batched output "
    "that requires grad has grad_fn StackBackward0; torch's batched kernels leave the last op's "
    "node (AddBackward0 for a Linear's bias add) (shadowgrad/func.py's vmap design)"
)
def prog_vmap_output_node(T: Any) -> Any:
    w = T.tensor(_data(3, 4), requires_grad=True)
    b = T.tensor(_data(3), requires_grad=True)
    out = T.func.vmap(lambda x: T.nn.functional.linear(x, w, b))(T.tensor(_data(5, 4)))
    return out.grad_fn.name()


@program()
def prog_creation_and_scalar_ops(T: Any) -> Any:
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    shared = T.from_numpy(a)
    a[0, 0] = 100.0
    asn = T.as_tensor(a)
    a[0, 1] = 200.0
    i32 = T.tensor([1, 2, 3], dtype=T.int32)
    return {
        "full_int": T.full((2,), 3),
        "full_float": T.full((2,), 3.0),
        "full_bool": T.full((1,), True),
        "arange_f": T.arange(0, 1, 0.25),
        "arange_i": T.arange(5),
        "arange_neg": T.arange(5, 0, -2),
        "arange_dt": T.arange(3, dtype=T.float64),
        "linspace": T.linspace(-1, 1, 5),
        "logspace": T.logspace(0, 2, 3),
        "eye": T.eye(2, 3),
        "zeros_like_rg": T.zeros_like(T.ones(2), requires_grad=True),
        "empty_shape": T.empty(0, 3).shape,
        "mixed_list": T.tensor([1, 2.5, True]),
        "bool_list": T.tensor([True, False]),
        "nested": T.tensor([[1, 2], [3, 4]]),
        "np_f64": T.tensor(a).dtype,
        "np_i32": T.tensor(np.array([1], dtype=np.int32)).dtype,
        "shared": shared,
        "as_tensor_shared": asn,
        "new_ones": i32.new_ones(2),
        "new_tensor": i32.new_tensor([1.5]),
        "new_full": i32.new_full((2,), 7),
        "new_zeros_f": T.ones(1, dtype=T.float64).new_zeros(2),
        "rpow": 2 ** T.tensor([1.0, 3.0]),
        "ipow": i32**2,
        "neg_bool": raises(lambda: -T.tensor([True])),
        "invert_float": raises(lambda: ~T.tensor([1.0])),
        "invert_bool": ~T.tensor([True, False]),
        "abs_bool": raises(lambda: T.tensor([True]).abs()),
        "sum_i32": i32.sum(),
        "sum_i32_dt": i32.sum(dtype=T.float32),
        "cumsum_i32": i32.cumsum(0),
        "prod_b": T.tensor([True, True]).prod(),
        "mean_i": raises(lambda: i32.mean()),
        "max_empty": raises(lambda: T.tensor([]).max()),
        "argmax_empty": raises(lambda: T.tensor([]).argmax()),
        "int_div0": raises(lambda: i32 // 0),
        "int_mod0": raises(lambda: i32 % 0),
        "fmod_int0": raises(lambda: T.fmod(i32, 0)),
        "scalar_tensor": T.scalar_tensor(3),
        "tensor_of_scalars": T.tensor([T.tensor(1.0), T.tensor(2.0)]),
        "complex_list": T.tensor([1, 2j]),
        "range_err": raises(lambda: T.arange(0, 5, 0)),
        "linspace_int": T.linspace(0, 10, 4, dtype=T.int64),
        "full_like": T.full_like(i32, 2.7),
        "empty_like_shape": T.empty_like(i32).shape,
        "ones_dt": T.ones(2, dtype=T.bool),
        "randn_shape": T.randn(2, 3).shape,
        "tensor_req_int": raises(lambda: T.tensor([1, 2], requires_grad=True)),
        "bad_list": raises(lambda: T.tensor([[1, 2], [3]])),
        "bad_type": raises(lambda: T.tensor("abc")),
        "item_py": type(T.tensor(2.5).item()).__name__,
        "tolist_types": [type(v).__name__ for v in T.tensor([1, 2]).tolist()],
    }


@program()
def prog_inplace_semantics_and_versions(T: Any) -> Any:
    x = T.tensor(_data(4), requires_grad=True)
    y = x.clone()
    versions = [y._version]
    y.mul_(2)
    versions.append(y._version)
    y[1:3] += 1
    versions.append(y._version)
    v = y.view(2, 2)
    v.t_()
    versions.append(y._version)
    y.clamp_(min=-0.5)
    y.exp_()
    versions.append((y._version, v._version))
    out = y.sum()
    out.backward()
    z = T.zeros(3)
    z.add_(T.ones(3), alpha=2).sub_(0.5).div_(T.tensor(2.0))
    w = T.ones(2, 3)
    w.masked_fill_(T.tensor([True, False, True]), 5.0)
    w.index_fill_(1, T.tensor([1]), -1.0)
    w.scatter_(1, T.tensor([[0], [2]]), 9.0)
    q = T.ones(3, dtype=T.int64)
    errs = {
        "int_add_float": raises(lambda: q.add_(0.5)),
        "broadcast_out": raises(lambda: T.ones(3).add_(T.ones(2, 3))),
        "expand_inplace": raises(lambda: T.ones(1, 3).expand(2, 3).add_(1)),
        "float_into_bool": raises(lambda: T.ones(2, dtype=T.bool).mul_(1.5)),
        "resize_grad": raises(lambda: x.resize_(2)),
    }
    return {
        "versions": versions,
        "y": y,
        "y_gf": y.grad_fn,
        "x.grad": x.grad,
        "v": v,
        "z": z,
        "w": w,
        "q_div": q.div_(2, rounding_mode="floor"),
        **errs,
    }


@program()
def prog_reprs_of_containers_and_results(T: Any) -> Any:
    from collections import OrderedDict

    nn = T.nn
    x = T.tensor([[3.0, 1.0], [2.0, 5.0]], requires_grad=True)
    stack = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)] + [nn.ReLU(), nn.ReLU()])
    od = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.Softmax(dim=1))]))
    nested = nn.ModuleDict(
        {
            "enc": nn.ModuleList([nn.Conv2d(1, 2, 3), nn.MaxPool2d(2, stride=1)]),
            "empty": nn.ModuleList(),
        }
    )
    return {
        "stack": repr(stack),
        "od": repr(od),
        "nested": repr(nested),
        "max": repr(x.max(dim=0)),
        "sort": str(x.sort()),
        "topk": repr(x.topk(1)),
        "svd_type": type(T.linalg.svd(x.detach())).__name__,
        "size": repr(x.shape),
        "size_str": str(T.Size([2, 3])),
        "dtype": [repr(T.int64), str(T.float16), repr(T.bool)],
        "device": [repr(x.device), str(x.device), repr(T.device("cpu"))],
        "aminmax": repr(T.aminmax(x)),
        "layers": repr(
            nn.Sequential(
                nn.Conv1d(1, 1, 1),
                nn.Upsample(scale_factor=2.0),
                nn.LSTM(2, 3, 2, dropout=0.1),
                nn.Embedding(3, 2, max_norm=1.0),
                nn.LayerNorm(3, elementwise_affine=False),
                nn.MultiheadAttention(4, 2),
                nn.Dropout2d(0.2),
                nn.AdaptiveAvgPool2d((1, None)),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Hardtanh(-2, 2),
                nn.Softplus(beta=2),
                nn.GRUCell(2, 3),
                nn.Identity(),
                nn.Unflatten(1, (2, 2)),
                nn.PixelShuffle(2),
                nn.ConstantPad1d((1, 2), 0.5),
                nn.Bilinear(2, 3, 4),
                nn.PReLU(3),
                nn.RMSNorm([4]),
                nn.CrossEntropyLoss(label_smoothing=0.1),
                nn.TransformerEncoderLayer(4, 2, 8),
            )
        ),
        "param": repr(nn.Parameter(T.tensor([1.5], dtype=T.float64))),
        "param_nograd": repr(nn.Parameter(T.ones(1), requires_grad=False)),
        "grad_repr": repr(x.sum(0)),
        "view_repr": repr(x[0]),
        "detached": repr(x.detach()),
        "int_repr": repr(T.tensor([[1, 200], [-3, 4]])),
    }


@program()
def prog_dataloader_training_epoch(T: Any) -> Any:
    data = T.utils.data
    T.manual_seed(7)
    X = T.tensor(_data(10, 3))
    Y = T.arange(10) % 2
    ds = data.TensorDataset(X, Y)
    train, val = data.random_split(ds, [0.8, 0.2], generator=T.Generator().manual_seed(1))
    loader = data.DataLoader(train, batch_size=3, shuffle=True, drop_last=False)
    model = _seeded(T, T.nn.Linear(3, 2), 2)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    seen = []
    for xb, yb in loader:
        seen.append(yb.tolist())
        opt.zero_grad()
        T.nn.functional.cross_entropy(model(xb), yb).backward()
        opt.step()

    class Dicts(data.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return {"x": T.full((2,), float(i)), "y": i, "name": f"s{i}"}

    batches = list(data.DataLoader(Dicts(), batch_size=3))
    sampler = data.WeightedRandomSampler(
        [0.1, 0.9, 0.5], num_samples=5, replacement=True, generator=T.Generator().manual_seed(0)
    )
    return {
        "val_idx": list(val.indices),
        "train_len": len(train),
        "seen": seen,
        "w": model.weight,
        "b0": batches[0],
        "b1": batches[1],
        "n_batches": len(loader),
        "weighted": list(sampler),
        "bad_split": raises(lambda: data.random_split(ds, [5, 6])),
    }


@program()
def prog_pruning_workflow(T: Any) -> Any:
    import importlib

    prune = importlib.import_module(T.__name__ + ".nn.utils.prune")
    nn = T.nn
    model = _seeded(
        T, nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(64, 3)), 5
    )
    with T.no_grad():
        model[3].weight[0, :4] = 0.05  # ties in |w| for L1 pruning
    prune.l1_unstructured(model[3], "weight", amount=0.3)
    prune.ln_structured(model[0], "weight", amount=2, n=2, dim=0)
    T.manual_seed(0)
    prune.random_unstructured(model[3], "bias", amount=1)
    prune.l1_unstructured(model[3], "weight", amount=0.2)
    names = {
        "params": [n for n, _ in model.named_parameters()],
        "buffers": [n for n, _ in model.named_buffers()],
    }
    x = T.tensor(_data(2, 1, 6, 6))
    out = model(x)
    out.sum().backward()
    grads = [model[3].weight_orig.grad, model[0].weight_orig.grad]
    hooks = [type(h).__name__ for h in model[3]._forward_pre_hooks.values()]
    sparsity = float((model[3].weight == 0).sum()) / model[3].weight.nelement()
    prune.remove(model[3], "weight")
    lin2 = _seeded(T, nn.Linear(4, 4), 6)
    lin3 = _seeded(T, nn.Linear(4, 2), 7)
    prune.global_unstructured(
        [(lin2, "weight"), (lin3, "weight")], pruning_method=prune.L1Unstructured, amount=0.5
    )
    prune.custom_from_mask(lin3, "bias", mask=T.tensor([1.0, 0.0]))
    return {
        "names": names,
        "out": out,
        "grads": grads,
        "hooks": hooks,
        "sparsity": sparsity,
        "w": model[3].weight,
        "after_remove": [n for n, _ in model[3].named_parameters()],
        "is_pruned": prune.is_pruned(model),
        "mask0": model[0].weight_mask[:, 0, 0, 0],
        "lin2": lin2.weight,
        "lin3": lin3.weight,
        "lin3b": lin3.bias,
        "bad_amount": raises(lambda: prune.l1_unstructured(lin2, "bias", amount=1.5)),
        "too_many": raises(lambda: prune.l1_unstructured(nn.Linear(2, 2), "bias", amount=3)),
        "remove_unpruned": raises(lambda: prune.remove(nn.Linear(2, 2), "weight")),
        "structured_1d": raises(
            lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=1, dim=0)
        ),
    }


@program()
def prog_function_edge_cases(T: Any) -> Any:
    F = T.autograd.Function

    class Legacy(F):
        def forward(self, x):
            return x * 2

    class SaveNonTensor(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class NonTensorOut(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, "label", 7

        @staticmethod
        def backward(ctx, g, g2, g3):
            (x,) = ctx.saved_tensors
            return g * 2 * x / x

    class ReturnsInput(F):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    class NoGradInput(F):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return g, g

    class Twice(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.exp()

    x = T.tensor([1.0, 2.0], requires_grad=True)
    out, label, n = NonTensorOut.apply(x)
    out.sum().backward()
    ri = ReturnsInput.apply(x)
    ri_info = [ri is x, ri._is_view(), ri.grad_fn.name()]
    ri.sum().backward()
    ng = NoGradInput.apply(x, T.ones(2))
    ng.sum().backward()
    t = Twice.apply(x)
    t.sum().backward()
    second = raises(lambda: t.sum().backward())
    nograd = NoGradInput.apply(T.ones(2), T.ones(2))
    with T.no_grad():
        under_nograd = Twice.apply(x)
    return {
        "legacy": raises(lambda: Legacy.apply(x)),
        "legacy_call": raises(lambda: Legacy()(x)),
        "save_nt": raises(lambda: SaveNonTensor.apply(x)),
        "label": label,
        "n": n,
        "out_gf": out.grad_fn,
        "ri_info": ri_info,
        "x.grad": x.grad,
        "second": second,
        "nograd": nograd,
        "under_nograd": under_nograd,
        "direct_forward": raises(lambda: Twice.forward(None, x)),
        "instantiate": type(Twice()).__name__,
    }


@program()
def prog_multi_grad_hooks_and_edges(T: Any) -> Any:
    log = []
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0], requires_grad=True)
    c = T.tensor([4.0], requires_grad=True)
    h = T.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda grads: log.append(("all", [g is None for g in grads]))
    )
    h2 = T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(("any", g.tolist())), mode="any"
    )
    (a.sum() * b).sum().backward()
    h.remove()
    h2.remove()
    (a * 2).sum().backward()
    y = a * b
    edge = T.autograd.graph.get_gradient_edge(y)
    (g,) = T.autograd.grad(y.sum(), edge)
    acc = a.grad_fn if a.grad_fn is not None else (a * 1).grad_fn.next_functions[0][0]
    z = (a * 1).sum()
    meta = z.grad_fn.metadata
    meta["tag"] = 1
    return {
        "log": log,
        "a.grad": a.grad,
        "b.grad": b.grad,
        "c.grad": c.grad,
        "g": g,
        "acc": acc.name(),
        "acc_var": acc.variable is a,
        "meta": dict(z.grad_fn.metadata),
        "edge_nr": edge.output_nr,
        "next": z.grad_fn.next_functions[0][0].name(),
        "bad_mode": raises(
            lambda: T.autograd.graph.register_multi_grad_hook((a,), print, mode="some")
        ),
    }


@program()
def prog_module_registration_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Linear(2, 2)
    out = {
        "buf_dot": raises(lambda: m.register_buffer("a.b", T.ones(1))),
        "buf_exists": raises(lambda: m.register_buffer("weight", T.ones(1))),
        "buf_empty": raises(lambda: m.register_buffer("", T.ones(1))),
        "buf_type": raises(lambda: m.register_buffer("x", [1, 2])),
        "param_type": raises(lambda: m.register_parameter("p", T.ones(1))),
        "param_nonleaf": raises(lambda: m.register_parameter("p", nn.Parameter(T.ones(1)) * 2)),
        "module_type": raises(lambda: m.add_module("sub", "notamodule")),
        "module_dot": raises(lambda: m.add_module("a.b", nn.ReLU())),
        "set_param_to_tensor": raises(lambda: setattr(m, "weight", T.ones(2, 2))),
        "del_missing": raises(lambda: delattr(m, "nothing")),
        "getattr_missing": raises(lambda: m.missing_attr),
        "get_buffer_missing": raises(lambda: m.get_buffer("x")),
        "get_param_missing": raises(lambda: m.get_parameter("bias.x")),
    }
    m.register_buffer("scale", T.tensor(2.0))
    m.scale = T.tensor(3.0)
    m.register_buffer("none_buf", None)
    m.weight = None
    out["after"] = {
        "buffers": [n for n, _ in m.named_buffers()],
        "params": [n for n, _ in m.named_parameters()],
        "sd": list(m.state_dict()),
        "scale": m.scale,
        "weight": m.weight,
    }
    m2 = _seeded(T, nn.Linear(2, 2), 1)
    sd = m2.state_dict(keep_vars=True)
    out["keep_vars"] = [type(v).__name__ for v in sd.values()] + [sd["weight"].requires_grad]
    m3 = nn.Linear(2, 2)
    res = m3.load_state_dict({k: v.detach() * 2 for k, v in m2.state_dict().items()}, assign=True)
    out["assign"] = [str(res), type(m3.weight).__name__, m3.weight.requires_grad, m3.weight]
    log = []
    m2.register_state_dict_pre_hook(
        lambda mod, prefix, keep_vars: log.append(("pre", prefix, keep_vars))
    )
    m2.register_load_state_dict_pre_hook(
        lambda mod, sd, prefix, *a: log.append(("load_pre", prefix, sorted(sd)))
    )
    seq = nn.Sequential(m2)
    seq.load_state_dict(seq.state_dict())
    out["log"] = log
    out["recurse"] = [n for n, _ in seq.named_parameters(recurse=False)]
    out["prefix"] = [n for n, _ in seq.named_parameters(prefix="model")]
    gen = seq.parameters()
    list(gen)
    out["exhausted"] = list(gen)
    return out


@program()
def prog_gan_training_steps(T: Any) -> Any:
    nn = T.nn
    # no bias before the BatchNorm: its gradient is rounding noise (the norm removes it), which
    # Adam turns into full steps of either sign
    G = nn.Sequential(
        nn.Linear(3, 8, bias=False),
        nn.BatchNorm1d(8),
        nn.LeakyReLU(0.2),
        nn.Linear(8, 2),
        nn.Tanh(),
    )
    G = _seeded(T, G, 1)
    D = _seeded(T, nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1)), 2)
    opt_g = T.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = T.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
    crit = nn.BCEWithLogitsLoss()
    real = T.tensor(_data(6, 2))
    z = T.tensor(_data(6, 3, seed=9))
    log = []
    for _ in range(3):
        fake = G(z)
        opt_d.zero_grad()
        d_loss = crit(D(real), T.ones(6, 1)) + crit(D(fake.detach()), T.zeros(6, 1))
        d_loss.backward()
        opt_d.step()
        opt_g.zero_grad()
        g_loss = crit(D(fake), T.ones(6, 1))
        g_loss.backward()
        opt_g.step()
        log.append((d_loss.item(), g_loss.item()))
    G.eval()
    return {"log": log, "sample": G(z[:2]), "rm": G[1].running_mean, "d_w": D[0].weight.grad}


@program()
def prog_vae_step_with_reparameterization(T: Any) -> Any:
    nn = T.nn
    F = nn.functional

    class VAE(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.Linear(6, 8)
            self.mu = nn.Linear(8, 2)
            self.logvar = nn.Linear(8, 2)
            self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 6))

        def forward(self, x, eps):
            h = F.relu(self.enc(x))
            mu, logvar = self.mu(h), self.logvar(h)
            z = mu + eps * T.exp(0.5 * logvar)
            return self.dec(z), mu, logvar

    vae = _seeded(T, VAE(), 3)
    opt = T.optim.Adam(vae.parameters(), lr=1e-2)
    x = T.sigmoid(T.tensor(_data(5, 6)))
    eps = T.tensor(_data(5, 2, seed=4))
    log = []
    for _ in range(3):
        opt.zero_grad()
        recon, mu, logvar = vae(x, eps)
        rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum")
        kld = -0.5 * T.sum(1 + logvar - mu.pow(2) - logvar.exp())
        loss = (rec + kld) / x.shape[0]
        loss.backward()
        opt.step()
        log.append((rec.item(), kld.item()))
    return {
        "log": log,
        "mu": mu,
        "gf": [recon.grad_fn.name(), kld.grad_fn.name(), loss.grad_fn.name()],
    }


@program()
def prog_policy_gradient_with_distributions(T: Any) -> Any:
    nn = T.nn
    D = T.distributions
    policy = _seeded(T, nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3)), 5)
    value = _seeded(T, nn.Linear(4, 1), 6)
    opt = T.optim.RMSprop([*policy.parameters(), *value.parameters()], lr=1e-2)
    states = T.tensor(_data(8, 4))
    actions = T.tensor([0, 2, 1, 1, 0, 2, 2, 1])
    rewards = T.tensor(_data(8, seed=3))
    returns = T.zeros(8)
    run = 0.0
    for t in reversed(range(8)):
        run = rewards[t] + 0.9 * run
        returns[t] = run
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    logs = []
    for _ in range(3):
        dist = D.Categorical(logits=policy(states))
        v = value(states).squeeze(-1)
        adv = returns - v.detach()
        loss = (
            -(dist.log_prob(actions) * adv).mean()
            + 0.5 * nn.functional.mse_loss(v, returns)
            - 0.01 * dist.entropy().mean()
        )
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        opt.step()
        logs.append(loss.item())
    normal = D.Normal(T.tensor([0.0, 1.0], requires_grad=True), T.tensor([1.0, 0.5]))
    lp = normal.log_prob(T.tensor([0.5, 0.5]))
    lp.sum().backward()
    kl = D.kl_divergence(
        D.Categorical(probs=T.tensor([0.2, 0.8])), D.Categorical(probs=T.tensor([0.5, 0.5]))
    )
    return {
        "logs": logs,
        "returns": returns,
        "probs": dist.probs,
        "lp": lp,
        "loc_grad": normal.loc.grad,
        "kl": kl,
        "repr": repr(dist),
        "normal_repr": repr(normal),
        "bad": raises(lambda: D.Categorical(probs=T.tensor([0.2, -0.8]), validate_args=True)),
    }


@program()
def prog_deprecation_and_usage_warnings(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    x = T.tensor(_data(2, 3))
    out = {
        "softmax_nodim": F.softmax(x),
        "log_softmax_nodim": F.log_softmax(x),
        "softmax_mod": nn.Softmax()(x),
        "upsample": F.upsample(T.ones(1, 1, 2, 2), scale_factor=2),
        "sigmoid": F.sigmoid(x),
        "tanh": F.tanh(x),
        "clip": nn.utils.clip_grad_norm([nn.Parameter(T.ones(1))], 1.0),
        "T3d": T.ones(2, 3, 4).T.shape,
        "xavier": nn.init.xavier_uniform(T.zeros(2, 2)).shape,
        "size_average": F.mse_loss(x, x * 2, size_average=True),
        "range": T.range(0, 3),
        "cross": T.cross(T.ones(3, 3), T.eye(3)),
        "chain": T.chain_matmul(T.eye(2), T.ones(2, 2)),
        "gru": repr(nn.GRU(2, 2, dropout=0.5)),
        "enc": type(
            nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, norm_first=True), 2)
        ).__name__,
        "new_tensor": x.new_tensor(x[0]),
        "tensor_copy": T.tensor(x[1]),
        "std_dof": T.ones(1).std(),
        "var_dof": T.ones(3, 1).var(dim=1),
        "kl_mean": F.kl_div(T.zeros(2, 2), T.full((2, 2), 0.5)),
        "mse_shape": F.mse_loss(T.ones(2, 1), T.ones(2)),
        "nll_reduce": F.nll_loss(T.log_softmax(x, 1), T.tensor([0, 2]), reduce=False),
        "fused_adam": raises(lambda: T.optim.Adam([nn.Parameter(T.ones(1))], fused=True)),
        "bad_dropout": raises(lambda: nn.Dropout(1.5)),
    }
    return out


@program()
def prog_common_user_mistakes(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    x = T.ones(2, 3)
    cases = {
        "linear_shape": lambda: nn.Linear(4, 5)(x),
        "conv_dims": lambda: nn.Conv2d(3, 4, 3)(T.ones(3)),
        "conv_channels": lambda: nn.Conv2d(3, 4, 3)(T.ones(1, 2, 5, 5)),
        "ce_batch": lambda: F.cross_entropy(T.ones(3, 4), T.tensor([0, 1])),
        "ce_target_range": lambda: F.nll_loss(T.ones(3, 4), T.tensor([0, 1, 4])),
        "view_noncontig": lambda: T.ones(2, 3).t().view(6),
        "reshape_bad": lambda: x.reshape(5),
        "view_bad": lambda: x.view(4, -1),
        "two_minus_one": lambda: x.view(-1, -1),
        "cat": lambda: T.cat([T.ones(2, 2), T.ones(3, 3)], dim=1),
        "cat_dims": lambda: T.cat([T.ones(2, 2), T.ones(2)]),
        "cat_empty": lambda: T.cat([]),
        "stack": lambda: T.stack([T.ones(2), T.ones(3)]),
        "matmul_0d": lambda: T.matmul(T.tensor(1.0), T.ones(2)),
        "mm_shapes": lambda: T.mm(T.ones(2, 3), T.ones(2, 3)),
        "bmm_batch": lambda: T.bmm(T.ones(2, 2, 3), T.ones(3, 3, 2)),
        "broadcast": lambda: T.ones(2, 3) + T.ones(2, 4),
        "index_oob": lambda: x[5],
        "index_neg_oob": lambda: x[:, -4],
        "lstm_dims": lambda: nn.LSTM(3, 4)(T.ones(1, 1, 1, 3)),
        "lstm_size": lambda: nn.LSTM(3, 4)(T.ones(2, 1, 4)),
        "lstm_hidden": lambda: nn.LSTM(3, 4)(T.ones(2, 1, 3), (T.zeros(1, 1, 5), T.zeros(1, 1, 4))),
        "bn_dims": lambda: nn.BatchNorm1d(3)(T.ones(1, 3, 2, 2)),
        "ln_shape": lambda: nn.LayerNorm(4)(x),
        "opt_tensor": lambda: T.optim.SGD(T.ones(2, requires_grad=True), lr=0.1),
        "opt_nonleaf": lambda: T.optim.SGD([T.ones(2, requires_grad=True) * 2], lr=0.1),
        "opt_nolr": lambda: T.optim.SGD([nn.Parameter(T.ones(1))]),
        "one_hot_neg": lambda: F.one_hot(T.tensor([-1, 0])),
        "one_hot_small": lambda: F.one_hot(T.tensor([3]), num_classes=2),
        "gather_dims": lambda: T.gather(x, 1, T.tensor([0])),
        "transpose_dim": lambda: x.transpose(0, 2),
        "sum_dim": lambda: x.sum(dim=3),
        "expand": lambda: T.ones(2, 2).expand(2, 3),
        "expand_fewer": lambda: T.ones(2, 2).expand(2),
        "permute": lambda: x.permute(0),
        "permute_dup": lambda: x.permute(0, 0),
        "squeeze_dim": lambda: x.squeeze(5),
        "chunk_zero": lambda: x.chunk(0),
        "split_sizes": lambda: x.split([1, 1], dim=1),
        "narrow": lambda: x.narrow(1, 2, 3),
        "narrow_neg_start": lambda: x.narrow(1, -1, 1),
        "narrow_neg_len": lambda: x.narrow(1, 0, -1),
        "narrow_start": lambda: x.narrow(1, -4, 1),
        "hstack_empty": lambda: T.hstack([]),
        "select": lambda: x.select(1, 3),
        "masked_fill_shape": lambda: x.masked_fill(T.tensor([True, False]), 0.0),
        "masked_fill_float": lambda: x.masked_fill(T.ones(2, 3), 0.0),
        "where_cond": lambda: T.where(T.ones(2, 3), x, x),
        "index_select_idx": lambda: x.index_select(0, T.tensor([0.0])),
        "scatter_shape": lambda: T.zeros(2, 2).scatter_(1, T.tensor([[0, 1, 1]]), 1.0),
        "flatten_range": lambda: x.flatten(1, 0),
        "repeat_fewer": lambda: x.repeat(2),
        "unflatten": lambda: x.unflatten(1, (2, 2)),
        "mse_grad_target": lambda: F.mse_loss(x, T.ones(2, 3, requires_grad=True)).backward(),
        "pad_reflect": lambda: F.pad(T.ones(1, 1, 2), (3, 3), mode="reflect"),
        "interp_size": lambda: F.interpolate(T.ones(1, 1, 2), size=(3, 3)),
    }
    return {k: raises(fn) for k, fn in cases.items()}


@program()
def prog_layer_input_checks(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    cases = {
        "conv_small": lambda: nn.Conv2d(1, 1, 5)(T.ones(1, 1, 3, 3)),
        "conv_int": lambda: nn.Conv1d(1, 1, 1)(T.ones(1, 1, 3, dtype=T.long)),
        "maxpool_small": lambda: nn.MaxPool2d(3)(T.ones(1, 1, 2, 2)),
        "softmax_int": lambda: T.tensor([1, 2]).softmax(0),
        "embedding_1d_weight": lambda: F.embedding(T.tensor([0]), T.ones(3)),
    }
    return {k: raises(fn) for k, fn in cases.items()}


@program()
def prog_devices_and_membership(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    devs = {}
    for spec in [
        "cpu",
        "cpu:0",
        "cuda:0",
        "xyz",
        "xyz:1",
        "CPU",
        "",
        "cuda:-1",
        "cuda:01",
        "cpu:a",
        "float32",
        "cuda:1:2",
    ]:
        devs[repr(spec)] = raises(lambda spec=spec: repr(T.device(spec)))
    return {
        "devs": devs,
        "index_neg": raises(lambda: T.device("cpu", -1)),
        "index_twice": raises(lambda: T.device("cpu:0", 1)),
        "to_cpu": x.to("cpu").device,
        "to_str_dtype": raises(lambda: x.to("float32")),
        "to_mps": raises(lambda: x.to("mps")),
        "to_unknown": raises(lambda: x.to("xyz")),
        "to_cuda": raises(lambda: x.to("cuda")),
        "ones_dev": raises(lambda: T.ones(1, device="foo")),
        "eq_str": T.device("cpu") == "cpu",
        "in_2d": 3.0 in x,
        "not_in": 5 in x,
        "row_in": T.tensor([1.0, 0.0]) in x,
        "bool_in": True in T.tensor([False, True]),
        "str_in": raises(lambda: "a" in x),
        "none_in": raises(lambda: None in x),
        "list_in": raises(lambda: [1.0] in x),
    }


@program()
def prog_creation_and_indexing_errors(T: Any) -> Any:
    x = T.ones(2, 3)
    cases = {
        "zeros_neg": lambda: T.zeros(2, -3),
        "zeros_tuple_neg": lambda: T.zeros((-1, 2)),
        "ones_neg": lambda: T.ones(-1),
        "empty_neg": lambda: T.empty(-1),
        "full_neg": lambda: T.full((-1,), 1.0),
        "randn_neg": lambda: T.randn(2, -1),
        "eye_neg": lambda: T.eye(-1),
        "eye_m_neg": lambda: T.eye(2, -1),
        "arange_sign": lambda: T.arange(0, 5, -1),
        "arange_sign2": lambda: T.arange(5, 0, 1),
        "full_str": lambda: T.full((2,), "a"),
        "full_none": lambda: T.full((2,), None),
        "rand_int": lambda: T.rand(2, dtype=T.int64),
        "randn_int": lambda: T.randn(2, dtype=T.long),
        "rand_like_int": lambda: T.rand_like(T.ones(2, dtype=T.long)),
        "randn_like_int": lambda: T.randn_like(T.ones(2, dtype=T.long)),
        "view_neg": lambda: x.view(3, -2),
        "reshape_neg": lambda: x.reshape(-3),
        "repeat_neg": lambda: x.repeat(2, -1),
        "repeat_neg_pad": lambda: x.repeat(1, 1, -2),
        "index_put_shape": lambda: x.index_put_((T.tensor([0, 1]),), T.ones(3, 3)),
        "index_put_oop": lambda: T.index_put(x, (T.tensor([0, 1]),), T.ones(3, 3)),
        "adv_broadcast": lambda: x[T.tensor([0, 1]), T.tensor([0, 1, 2])],
        "adv_broadcast_ok": lambda: x[T.tensor([[0], [1]]), T.tensor([0, 1, 2])],
        "set_adv_broadcast": lambda: x.clone().__setitem__(
            (T.tensor([0, 1]), T.tensor([0, 1, 2])), 1.0
        ),
        "set_shape": lambda: x.clone().__setitem__(T.tensor([0, 1]), T.ones(3, 3)),
    }
    return {k: raises(fn) for k, fn in cases.items()}


@program()
def prog_bernoulli_probability_check(T: Any) -> Any:
    return {
        "above": raises(lambda: T.bernoulli(T.tensor([1.5]))),
        "below": raises(lambda: T.bernoulli(T.tensor([-0.5]))),
        "nan": raises(lambda: T.bernoulli(T.tensor([float("nan")]))),
    }


@program()
def prog_optimizer_state_dict_layouts(T: Any) -> Any:
    optim = T.optim
    makers = {
        "SGD": lambda p: optim.SGD(p, lr=0.1, momentum=0.9),
        "Adam": lambda p: optim.Adam(p),
        "AdamW": lambda p: optim.AdamW(p, amsgrad=True),
        "RMSprop": lambda p: optim.RMSprop(p, centered=True, momentum=0.1),
        "Adagrad": lambda p: optim.Adagrad(p),
        "Adadelta": lambda p: optim.Adadelta(p),
        "Adamax": lambda p: optim.Adamax(p),
        "NAdam": lambda p: optim.NAdam(p),
        "RAdam": lambda p: optim.RAdam(p),
        "Rprop": lambda p: optim.Rprop(p),
        "ASGD": lambda p: optim.ASGD(p),
        "LBFGS": lambda p: optim.LBFGS(p),
        "Adafactor": lambda p: optim.Adafactor(p),
    }
    out = {}
    for name, make in makers.items():
        w = T.nn.Parameter(T.tensor(_data(2, 2)))
        opt = make([w])

        def closure(opt=opt, w=w):
            opt.zero_grad()
            v = (w**2).sum()
            v.backward()
            return v

        for _ in range(2):
            opt.step(closure)
        sd = opt.state_dict()
        st = sd["state"][0]
        out[name] = {
            "groups": [{k: v for k, v in g.items()} for g in sd["param_groups"]],
            "state": {
                k: v
                for k, v in st.items()
                if k
                not in (
                    "d",
                    "t",
                    "old_dirs",
                    "old_stps",
                    "ro",
                    "al",
                    "H_diag",
                    "prev_flat_grad",
                    "prev_loss",
                )
            },
            "w": w.detach(),
            "repr": repr(opt),
        }
    return out


@program(warnings=False)  # torch's first forward-mode transform warns about torch.jit.script
def prog_func_transform_options(T: Any) -> Any:
    fn = T.func
    x = T.tensor(_data(3))
    y = T.tensor(_data(3, seed=1))

    def f(a, b):
        return (a.sin() * b).sum(), {"aux": a.cos()}

    g, aux = fn.grad(f, argnums=(0, 1), has_aux=True)(x, y)
    jr, jaux = fn.jacrev(lambda a: (a.exp(), a.sum()), has_aux=True)(x)
    jf = fn.jacfwd(lambda a, b: a * b, argnums=1)(x, y)
    batched = T.tensor(_data(4, 3, seed=2))
    vm = fn.vmap(lambda a, b: a @ b, in_dims=(0, None), out_dims=0)(batched, y)
    vm_out1 = fn.vmap(lambda a: a * 2, out_dims=1)(batched)
    vm_chunk = fn.vmap(T.sin, chunk_size=2)(batched)
    vm_dict = fn.vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
        {"a": batched, "b": y}
    )
    vm_tuple_out = fn.vmap(lambda a: (a.sum(), a.mean()))(batched)
    h = fn.hessian(lambda a: (a**3).sum())(x)
    lin_out, jvp_fn = fn.linearize(T.sin, x)
    return {
        "g": g,
        "aux": aux,
        "jr": jr,
        "jaux": jaux,
        "jf": jf,
        "vm": vm,
        "vm_out1": vm_out1,
        "vm_chunk": vm_chunk,
        "vm_dict": vm_dict,
        "vm_tuple_out": vm_tuple_out,
        "h": h,
        "lin": [lin_out, jvp_fn(T.ones(3))],
        "err_nonscalar": raises(lambda: fn.grad(lambda a: a * 2)(x)),
        "err_aux": raises(lambda: fn.grad(lambda a: a.sum(), has_aux=True)(x)),
        "err_in_dims": raises(lambda: fn.vmap(T.sin, in_dims=(0, 0))(batched)),
        "err_sizes": raises(lambda: fn.vmap(T.add)(batched, T.ones(3, 3))),
        "err_out_dims": raises(lambda: fn.vmap(T.sin, out_dims=(0, 1))(batched)),
        "err_argnums": raises(lambda: fn.grad(lambda a: a.sum(), argnums=2)(x)),
        "err_int_input": raises(lambda: fn.grad(lambda a: a.sum())(T.ones(2, dtype=T.long))),
        "err_out_dims_len": raises(lambda: fn.vmap(lambda a: (a, a), out_dims=(0, 1, 0))(batched)),
        "err_nested": raises(lambda: fn.vmap(lambda a, b: a, in_dims=(0, (0, 1)))(batched, y)),
        "err_list_type": raises(lambda: fn.vmap(lambda a: a[0], in_dims=((0,),))([batched])),
        "err_top_list": raises(lambda: fn.vmap(T.sin, in_dims=[0])(batched)),
        "err_str": raises(lambda: fn.vmap(T.sin, in_dims="x")(batched)),
        "out_dims_nested": fn.vmap(lambda a: (a, [a * 2, a]), out_dims=(0, [1, 0]))(batched),
    }


@program()
def prog_vmap_item_error(T: Any) -> Any:
    return raises(lambda: T.func.vmap(lambda a: a * a.sum().item())(T.ones(3, 2)))


@program()
def prog_resnet_block_training(T: Any) -> Any:
    nn = T.nn

    class Block(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(c)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(c)

        def forward(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            out += x
            return self.relu(out)

    model = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1, bias=False),
        nn.BatchNorm2d(4),
        nn.ReLU(inplace=True),
        Block(4),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(4, 3),
    )
    _seeded(T, model, 21)
    opt = T.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
    x = T.tensor(_data(4, 1, 6, 6))
    y = T.tensor([0, 1, 2, 1])
    log = []
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        out = model(x)
        loss = nn.functional.cross_entropy(out, y)
        loss.backward()
        opt.step()
        log.append(loss.item())
    model.eval()
    with T.no_grad():
        ev = model(x)
    return {
        "log": log,
        "ev": ev,
        "gf": out.grad_fn,
        "rv": model[3].bn2.running_var,
        "nbt": model[1].num_batches_tracked,
        "grad": model[3].conv1.weight.grad[0, 0],
    }


@program()
def prog_unet_like_with_skip_concat(T: Any) -> Any:
    nn = T.nn
    F = nn.functional

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.down = nn.Conv2d(2, 4, 3, stride=2, padding=1)
            self.mid = nn.Conv2d(4, 4, 3, padding=1)
            self.up = nn.ConvTranspose2d(4, 4, 2, stride=2)
            self.out = nn.Conv2d(6, 1, 1)

        def forward(self, x):
            d = F.gelu(self.down(x))
            m = F.silu(self.mid(d)) + d
            u = self.up(m)
            u = F.interpolate(u, size=x.shape[-2:], mode="nearest")
            return self.out(T.cat([u, x], dim=1))

    net = _seeded(T, Tiny(), 22)
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    x = T.tensor(_data(2, 2, 7, 7))
    target = T.tensor(_data(2, 1, 7, 7, seed=5))
    log = []
    for _ in range(3):
        opt.zero_grad()
        pred = net(x)
        loss = F.l1_loss(pred, target) + 0.1 * F.mse_loss(pred, target)
        loss.backward()
        opt.step()
        log.append(loss.item())
    return {
        "log": log,
        "pred": pred[0, 0, :2],
        "g": net.up.weight.grad[0, 0],
        "gf": pred.grad_fn.name(),
    }


@program()
def prog_char_rnn_with_cells_and_tied_weights(T: Any) -> Any:
    nn = T.nn

    class CharRNN(nn.Module):
        def __init__(self, vocab=7, hidden=6):
            super().__init__()
            self.emb = nn.Embedding(vocab, hidden)
            self.cell = nn.LSTMCell(hidden, hidden)
            self.gru = nn.GRUCell(hidden, hidden)
            self.head = nn.Linear(hidden, vocab)
            self.head.weight = self.emb.weight  # tied

        def forward(self, tokens):
            b, t = tokens.shape
            h = c = g = T.zeros(b, self.cell.hidden_size)
            outs = []
            for i in range(t):
                h, c = self.cell(self.emb(tokens[:, i]), (h, c))
                g = self.gru(h, g)
                outs.append(self.head(g))
            return T.stack(outs, 1)

    m = _seeded(T, CharRNN(), 23)
    opt = T.optim.Adagrad(m.parameters(), lr=0.1)
    tokens = T.tensor([[1, 2, 3, 4], [4, 3, 2, 1]])
    target = T.tensor([[2, 3, 4, 5], [3, 2, 1, 0]])
    log = []
    for _ in range(3):
        opt.zero_grad()
        logits = m(tokens)
        loss = nn.functional.cross_entropy(logits.reshape(-1, 7), target.reshape(-1))
        loss.backward()
        nn.utils.clip_grad_value_(m.parameters(), 0.5)
        opt.step()
        log.append(loss.item())
    names = [n for n, _ in m.named_parameters()]
    return {
        "log": log,
        "names": names,
        "shared": m.head.weight is m.emb.weight,
        "g": m.emb.weight.grad,
        "n_params": sum(p.numel() for p in m.parameters()),
        "sd": list(m.state_dict()),
    }


@program()
def prog_manual_sgd_and_freezing(T: Any) -> Any:
    x = T.tensor(_data(8, 3))
    y = x @ T.tensor([[1.0], [-2.0], [0.5]]) + 0.3
    w = T.zeros(3, 1, requires_grad=True)
    b = T.zeros(1, requires_grad=True)
    log = []
    for i in range(4):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with T.no_grad():
            w -= 0.1 * w.grad
            b.sub_(0.1 * b.grad)
        if i % 2:
            w.grad.zero_()
            b.grad = None
        else:
            w.grad.data.zero_()
            b.grad.detach_().zero_()
        log.append((loss.item(), w._version, b._version))
    err = raises(lambda: w.sub_(0.1))
    w.data -= 0.01
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)), 30)
    for p in model[0].parameters():
        p.requires_grad_(False)
    opt = T.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
    opt.zero_grad()
    out = model(x)
    nn.functional.mse_loss(out, y).backward()
    opt.step()
    frozen = [p.grad for p in model[0].parameters()]
    model[0].weight.requires_grad = True
    out2 = model(x).sum()
    out2.backward()
    opt.zero_grad()
    return {
        "log": log,
        "w": w,
        "b": b,
        "err": err,
        "frozen": frozen,
        "g0": model[0].weight.grad,
        "after_zero": [p.grad for p in model[2].parameters()],
        "out_gf": out.grad_fn.next_functions,
        "opt_groups": len(opt.param_groups[0]["params"]),
    }


@program()
def prog_inference_mode_rules(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    with T.inference_mode():
        t = T.tensor([1.0, 2.0, 3.0])
        u = t * 2
        v = t.view(3, 1)
        inside_rg = (w * 2).requires_grad
        inside_inplace = raises(lambda: t.add_(1).tolist())
    out = {
        "is_inf": [t.is_inference(), u.is_inference(), v.is_inference(), w.is_inference()],
        # (lists: the harness's observer reads _version, which inference tensors lack)
        "inside_rg": inside_rg,
        "inside_inplace": inside_inplace,
        "t": t.tolist(),
        "save": raises(lambda: (w * t).sum().backward()),
        "save_exp": raises(lambda: (w * t.exp()).sum().backward()),
        "req_grad": raises(lambda: t.requires_grad_()),
        "inplace_out": raises(lambda: t.mul_(2)),
        "view_out": raises(lambda: v.add_(1)),
        "version": raises(lambda: t._version),
        "clone_ok": t.clone().is_inference(),
        "add_ok": (t + 1).is_inference(),
        "add_w": (w + t).requires_grad,
    }
    with T.inference_mode(False):
        out["disabled"] = [T.is_inference_mode_enabled(), (w * 2).requires_grad]
    with T.no_grad():
        with T.enable_grad():
            out["nested_enable"] = (w * 2).requires_grad
        with T.inference_mode():
            out["inf_in_nograd"] = [T.is_grad_enabled(), T.is_inference_mode_enabled()]
        out["after_inf"] = T.is_grad_enabled()

    @T.set_grad_enabled(False)
    def f(a):
        return a * 2

    class M:
        @T.no_grad()
        def method(self, a):
            return a * 3

    out["decorated"] = [f(w).requires_grad, M().method(w).requires_grad, T.is_grad_enabled()]
    out["ctx_repr"] = type(T.set_grad_enabled(True)).__name__
    T.set_grad_enabled(True)
    return out


@program()
def prog_autograd_functional_strict_and_tuples(T: Any) -> Any:
    F = T.autograd.functional
    x = T.tensor(_data(3).astype(np.float64))
    y = T.tensor(_data(2, seed=1).astype(np.float64))

    def two_out(a, b):
        return a.sum() * b, a * 2

    def indep(a, b):
        return a * 2

    return {
        "jac_tuple": F.jacobian(two_out, (x, y)),
        "vjp_tuple": F.vjp(
            two_out, (x, y), (T.ones(2, dtype=T.float64), T.ones(3, dtype=T.float64))
        ),
        "jvp_tuple": F.jvp(
            two_out, (x, y), (T.ones(3, dtype=T.float64), T.ones(2, dtype=T.float64))
        ),
        "strict_indep": raises(lambda: F.jacobian(indep, (x, y), strict=True)),
        "strict_const": raises(
            lambda: F.vjp(
                lambda a: T.ones(3, dtype=T.float64), x, T.ones(3, dtype=T.float64), strict=True
            )
        ),
        "strict_vec": raises(lambda: F.jacobian(indep, (x, y), strict=True, vectorize=True)),
        "nonstrict_indep": F.jacobian(indep, (x, y)),
        "hess_cg": F.hessian(lambda a: (a**3).sum(), x, create_graph=True).requires_grad,
        "hvp_nonscalar": raises(lambda: F.hvp(lambda a: a**2, x, T.ones(3, dtype=T.float64))),
        "vjp_no_v": raises(lambda: F.vjp(lambda a: a * 2, x)),
        "vjp_no_v_scalar": F.vjp(lambda a: (a * 2).sum(), x),
        "jvp_bad_v": raises(lambda: F.jvp(lambda a: a * 2, x, T.ones(2, dtype=T.float64))),
        "bad_input": raises(lambda: F.jacobian(lambda a: a, [1.0, 2.0])),
        "bad_output": raises(lambda: F.jacobian(lambda a: 3.0, x)),
    }


@program()
def prog_construction_and_config_errors(T: Any) -> Any:
    nn, F, optim = T.nn, T.nn.functional, T.optim
    sch = optim.lr_scheduler
    p = [nn.Parameter(T.ones(2))]
    cases = {
        "linear_neg": lambda: nn.Linear(-1, 2),
        "conv_groups": lambda: nn.Conv2d(3, 4, 3, groups=2),
        "emb_pad": lambda: nn.Embedding(3, 2, padding_idx=5),
        "lstm_bad_dropout": lambda: nn.LSTM(2, 2, dropout=2.0),
        "lstm_nonint": lambda: nn.LSTM(2.5, 2),
        "gru_zero_layers": lambda: nn.GRU(2, 2, num_layers=0),
        "mha_div": lambda: nn.MultiheadAttention(5, 2),
        "tel_div": lambda: nn.TransformerEncoderLayer(5, 2),
        "gn_div": lambda: nn.GroupNorm(3, 4),
        "ln_bad": lambda: nn.LayerNorm([3])(T.ones(3, 4)),
        "drop_neg": lambda: nn.Dropout(-0.1),
        "pool_pad": lambda: nn.MaxPool2d(2, padding=2)(T.ones(1, 1, 4, 4)),
        "upsample_none": lambda: nn.Upsample()(T.ones(1, 1, 2)),
        "flatten_bad": lambda: nn.Flatten(2, 1)(T.ones(2, 3, 4)),
        "unflatten_bad": lambda: nn.Unflatten(1, (2, 2))(T.ones(2, 3)),
        "seq_index": lambda: nn.Sequential(nn.ReLU())[3],
        "ml_index": lambda: nn.ModuleList([nn.ReLU()])[2],
        "md_key": lambda: nn.ModuleDict()["x"],
        "pl_index": lambda: nn.ParameterList()[0],
        "seq_bad_add": lambda: nn.Sequential(nn.ReLU(), "x"),
        "ml_append_bad": lambda: nn.ModuleList().append(3),
        "reduction_bad": lambda: F.mse_loss(T.ones(2), T.ones(2), reduction="avg"),
        "ce_reduction_bad": lambda: F.cross_entropy(T.ones(2, 3), T.tensor([0, 1]), reduction="x"),
        "bce_range": lambda: F.binary_cross_entropy(T.tensor([1.5]), T.tensor([1.0])),
        "nll_dim": lambda: F.nll_loss(T.ones(3), T.tensor(1)),
        "kl_bad": lambda: F.kl_div(T.ones(2), T.ones(2), reduction="x"),
        "sgd_mom": lambda: optim.SGD(p, lr=0.1, momentum=-1),
        "sgd_wd": lambda: optim.SGD(p, lr=0.1, weight_decay=-1),
        "adam_eps": lambda: optim.Adam(p, eps=-1),
        "adam_beta2": lambda: optim.Adam(p, betas=(0.9, 1.0)),
        "adam_lr_t": lambda: optim.Adam(p, lr=T.tensor(0.01)).param_groups[0]["lr"],
        "rms_alpha": lambda: optim.RMSprop(p, alpha=-1),
        "adagrad_lrd": lambda: optim.Adagrad(p, lr_decay=-1),
        "lbfgs_groups": lambda: optim.LBFGS([{"params": p}, {"params": [nn.Parameter(T.ones(1))]}]),
        "opt_dict_no_params": lambda: optim.SGD([{"lr": 0.1}], lr=0.1),
        "opt_set": lambda: optim.SGD({p[0]}, lr=0.1),
        "opt_overlap": lambda: optim.SGD([{"params": p}, {"params": p}], lr=0.1),
        "opt_step_closure_none": lambda: optim.LBFGS(p).step(),
        "opt_load_bad": lambda: optim.SGD(p, lr=0.1).load_state_dict({"state": {}}),
        "opt_load_groups": lambda: optim.SGD(p, lr=0.1).load_state_dict(
            {"state": {}, "param_groups": []}
        ),
        "step_lr_nonint": lambda: sch.StepLR(optim.SGD(p, lr=0.1), step_size=1.5),
        "multistep_unsorted": lambda: sch.MultiStepLR(optim.SGD(p, lr=0.1), [3, 1]).milestones,
        "cos_tmax0": lambda: sch.CosineAnnealingLR(optim.SGD(p, lr=0.1), T_max=0),
        "cawr_t0": lambda: sch.CosineAnnealingWarmRestarts(optim.SGD(p, lr=0.1), T_0=0),
        "cawr_tmult": lambda: sch.CosineAnnealingWarmRestarts(
            optim.SGD(p, lr=0.1), T_0=2, T_mult=1.5
        ),
        "linear_factor": lambda: sch.LinearLR(optim.SGD(p, lr=0.1), start_factor=0),
        "const_factor": lambda: sch.ConstantLR(optim.SGD(p, lr=0.1), factor=2),
        "seq_mismatch": lambda: sch.SequentialLR(
            optim.SGD(p, lr=0.1), [sch.StepLR(optim.SGD(p, lr=0.1), 1)], milestones=[1]
        ),
        "seq_milestones": lambda: (
            lambda o: sch.SequentialLR(o, [sch.StepLR(o, 1), sch.StepLR(o, 1)], milestones=[1, 2])
        )(optim.SGD(p, lr=0.1)),
        "onecycle_steps": lambda: sch.OneCycleLR(optim.SGD(p, lr=0.1), max_lr=1, total_steps=-1),
        "onecycle_pct": lambda: sch.OneCycleLR(
            optim.SGD(p, lr=0.1), max_lr=1, total_steps=10, pct_start=1.5
        ),
        "onecycle_anneal": lambda: sch.OneCycleLR(
            optim.SGD(p, lr=0.1), max_lr=1, total_steps=10, anneal_strategy="x"
        ),
        "onecycle_over": lambda: (lambda s: [s.optimizer.step() or s.step() for _ in range(12)])(
            sch.OneCycleLR(optim.SGD(p, lr=0.1), max_lr=1, total_steps=10)
        ),
        "plateau_mode": lambda: sch.ReduceLROnPlateau(optim.SGD(p, lr=0.1), mode="x"),
        "plateau_thr": lambda: sch.ReduceLROnPlateau(optim.SGD(p, lr=0.1), threshold_mode="x"),
        "plateau_minlr": lambda: sch.ReduceLROnPlateau(optim.SGD(p, lr=0.1), min_lr=[0.1, 0.2]),
        "lambda_len": lambda: sch.LambdaLR(optim.SGD(p, lr=0.1), [lambda e: 1, lambda e: 2]),
        "cyclic_mode": lambda: sch.CyclicLR(optim.SGD(p, lr=0.1), 0.1, 1, mode="x"),
        "cyclic_adam": lambda: sch.CyclicLR(optim.Adam(p), 0.1, 1).base_lrs,
        "poly_neg": lambda: sch.PolynomialLR(optim.SGD(p, lr=0.1), total_iters=-1).get_last_lr(),
        "dl_bs0": lambda: T.utils.data.DataLoader([1, 2], batch_size=0),
        "dl_shuffle_sampler": lambda: T.utils.data.DataLoader([1, 2], shuffle=True, sampler=[0, 1]),
        "dl_drop_bs_none": lambda: T.utils.data.DataLoader([1, 2], batch_size=None, drop_last=True),
        "dl_workers_neg": lambda: T.utils.data.DataLoader([1, 2], num_workers=-1),
        "td_mismatch": lambda: T.utils.data.TensorDataset(T.ones(2), T.ones(3)),
        "split_frac": lambda: T.utils.data.random_split([1, 2, 3], [0.5, 0.6]),
        "clip_bad_norm": lambda: nn.utils.clip_grad_norm_(p, 1.0, norm_type="x"),
    }

    def run(fn: Any) -> Any:
        r = fn()
        if isinstance(r, (nn.Module, optim.Optimizer)) or hasattr(r, "optimizer"):
            return type(r).__name__
        return r

    return {k: raises(lambda fn=fn: run(fn)) for k, fn in cases.items()}


# warnings not compared: backward(create_graph=True)'s warning is once per process in both
# libraries, so whether it shows depends on which test of the worker process triggered it first
@program(warnings=False)
def prog_hook_and_grad_misuse(T: Any) -> Any:
    def mk():
        return T.ones(3, requires_grad=True)

    def hook_shape():
        x = mk()
        y = x * 2
        y.register_hook(lambda g: g.sum())
        y.sum().backward()

    def hook_dtype():
        x = mk()
        y = x * 2
        y.register_hook(lambda g: g.double())
        y.sum().backward()
        return x.grad.dtype

    def hook_leaf_shape():
        x = mk()
        x.register_hook(lambda g: g[:2])
        (x * 2).sum().backward()

    def hook_nontensor():
        x = mk()
        y = x * 2
        y.register_hook(lambda g: 3.0)
        y.sum().backward()

    def post_acc_nonleaf():
        x = mk()
        (x * 2).register_post_accumulate_grad_hook(lambda p: None)

    def post_acc_noreq():
        T.ones(2).register_post_accumulate_grad_hook(lambda p: None)

    def node_hook_bad():
        x = mk()
        y = x.exp()
        y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
        y.sum().backward()

    def batched():
        x = mk()
        y = x * x
        return T.autograd.grad(y, x, T.eye(3), is_grads_batched=True)

    def batched_bad():
        x = mk()
        y = x * x
        return T.autograd.grad(y, x, T.ones(2, 4), is_grads_batched=True)

    def grad_shape_assign():
        x = mk()
        x.grad = T.ones(2)

    def grad_type_assign():
        x = mk()
        x.grad = 3

    def data_assign_int():
        x = mk()
        x.data = T.ones(3, dtype=T.long)

    def retain_noreq():
        T.ones(2).retain_grad()

    def hook_removal_twice():
        x = mk()
        h = x.register_hook(lambda g: g)
        h.remove()
        h.remove()
        return "ok"

    def hook_on_view_of_leaf():
        x = mk()
        v = x[:2]
        v.register_hook(lambda g: g * 10)
        v.sum().backward()
        return x.grad

    def modify_grad_inplace_in_hook():
        x = mk()
        y = x * 2

        def h(g):
            g.mul_(2)

        y.register_hook(h)
        y.sum().backward()
        return x.grad

    def backward_in_hook():
        x = mk()
        y = x * 2

        def h(g):
            (x * 3).sum().backward()

        y.register_hook(h)
        y.sum().backward()
        return x.grad

    def grad_of_int_output():
        x = mk()
        return T.autograd.grad((x > 0).sum(), x)

    def backward_int():
        x = mk()
        (x * 2).long().sum().backward()

    def create_graph_warn():
        x = mk()
        (x * x).sum().backward(create_graph=True)
        return x.grad.grad_fn.name()

    def retain_graph_false_then():
        x = mk()
        y = (x * x).sum()
        y.backward(retain_graph=False)
        y.backward()

    return {
        name: raises(fn)
        for name, fn in [
            ("hook_shape", hook_shape),
            ("hook_dtype", hook_dtype),
            ("hook_leaf_shape", hook_leaf_shape),
            ("hook_nontensor", hook_nontensor),
            ("post_acc_nonleaf", post_acc_nonleaf),
            ("post_acc_noreq", post_acc_noreq),
            ("node_hook_bad", node_hook_bad),
            ("batched", batched),
            ("batched_bad", batched_bad),
            ("grad_shape_assign", grad_shape_assign),
            ("grad_type_assign", grad_type_assign),
            ("data_assign_int", data_assign_int),
            ("retain_noreq", retain_noreq),
            ("hook_removal_twice", hook_removal_twice),
            ("hook_on_view_of_leaf", hook_on_view_of_leaf),
            ("modify_grad_inplace_in_hook", modify_grad_inplace_in_hook),
            ("backward_in_hook", backward_in_hook),
            ("grad_of_int_output", grad_of_int_output),
            ("backward_int", backward_int),
            ("create_graph_warn", create_graph_warn),
            ("retain_graph_false_then", retain_graph_false_then),
        ]
    }


@program()
def prog_engine_hook_result_checks(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda p: p * 2)
    post = raises(lambda: (x * 2).sum().backward())
    y = T.ones(3, requires_grad=True).exp()
    y.grad_fn.register_prehook(lambda go: (go[0][:1],))
    pre = raises(lambda: y.sum().backward())
    out = {"post": post, "x.grad": x.grad, "pre": pre}
    for name, hook in {
        "pre_dtype": lambda go: (go[0].double(),),
        "pre_count": lambda go: (go[0], go[0]),
        "pre_none": lambda go: None,
    }.items():
        z = T.ones(3, requires_grad=True).exp()
        z.grad_fn.register_prehook(hook)
        out[name] = raises(lambda z=z: z.sum().backward())
    w = T.ones(3, requires_grad=True).exp()
    w.grad_fn.register_hook(lambda gi, go: (gi[0][:1],))
    out["post_size"] = raises(lambda: w.sum().backward())
    return out


@program()
def prog_custom_function_misuse(T: Any) -> Any:
    F = T.autograd.Function

    def mk():
        return T.tensor([1.0, 2.0], requires_grad=True)

    def grad_for_nontensor():
        class A(F):
            @staticmethod
            def forward(ctx, x, k):
                return x * k

            @staticmethod
            def backward(ctx, g):
                return g, g

        A.apply(mk(), 2.0).sum().backward()

    def wrong_dtype():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g.double()

        x = mk()
        A.apply(x).sum().backward()
        return x.grad.dtype

    def wrong_dtype_int():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g.long()

        x = mk()
        A.apply(x).sum().backward()
        return x.grad

    def saved_in_forward():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return ctx.saved_tensors

            @staticmethod
            def backward(ctx, g):
                return g

        return A.apply(mk())

    def save_twice():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                ctx.save_for_backward(x * 3)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                (s,) = ctx.saved_tensors
                return g * s

        x = mk()
        A.apply(x).sum().backward()
        return x.grad

    def save_intermediate():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                t = x.exp()
                ctx.save_for_backward(t)
                return t * 2

            @staticmethod
            def backward(ctx, g):
                (t,) = ctx.saved_tensors
                return g * 2 * t

        x = mk()
        A.apply(x).sum().backward()
        return x.grad

    def dirty_not_returned():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x * 1

            @staticmethod
            def backward(ctx, g):
                return g

        return A.apply(mk() * 1)

    def nondiff_not_output():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_non_differentiable(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g

        y = A.apply(mk())
        return y.requires_grad

    def no_inputs_require():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g

        y = A.apply(T.ones(2))
        return (y.requires_grad, y.grad_fn)

    def in_no_grad():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g

        with T.no_grad():
            y = A.apply(mk())
        return (y.requires_grad, y.grad_fn)

    def forward_nontensor():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return 3.0

            @staticmethod
            def backward(ctx, g):
                return g

        return A.apply(mk())

    def forward_none():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return None

            @staticmethod
            def backward(ctx, g):
                return g

        return A.apply(mk())

    def no_backward():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        A.apply(mk()).sum().backward()

    def double_backward():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x**2

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return 2 * x * g

        x = mk()
        (g,) = T.autograd.grad(A.apply(x).sum(), x, create_graph=True)
        g.sum().backward()
        return (g.grad_fn.name(), x.grad)

    def needs_input_grad_mixed():
        out = []

        class A(F):
            @staticmethod
            def forward(ctx, x, y, k, z):
                out.append(ctx.needs_input_grad)
                return x * y * k + z

            @staticmethod
            def backward(ctx, g):
                return g, g, None, None

        A.apply(mk(), T.ones(2), 3, T.ones(2, dtype=T.float64, requires_grad=True))
        return out

    def materialize_after():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                return g1 + (0 if g2 is None else g2)

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.set_materialize_grads(False)

        x = mk()
        a, _ = A.apply(x)
        a.sum().backward()
        return x.grad

    def apply_kwargs():
        class A(F):
            @staticmethod
            def forward(ctx, x, scale=2.0):
                return x * scale

            @staticmethod
            def backward(ctx, g):
                return g * 2, None

        return A.apply(mk(), scale=3.0)

    def vjp_alias():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def vjp(ctx, g):
                return g * 2

        x = mk()
        A.apply(x).sum().backward()
        return x.grad

    def once_diff_grad_fn():
        class A(F):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @T.autograd.function.once_differentiable
            def backward(ctx, g):
                return g * 2

        x = mk()
        (g,) = T.autograd.grad(A.apply(x).sum(), x, create_graph=True)
        return (g.requires_grad, g.grad_fn)

    return {
        name: raises(fn)
        for name, fn in [
            ("grad_for_nontensor", grad_for_nontensor),
            ("wrong_dtype", wrong_dtype),
            ("wrong_dtype_int", wrong_dtype_int),
            ("saved_in_forward", saved_in_forward),
            ("save_twice", save_twice),
            ("save_intermediate", save_intermediate),
            ("dirty_not_returned", dirty_not_returned),
            ("nondiff_not_output", nondiff_not_output),
            ("no_inputs_require", no_inputs_require),
            ("in_no_grad", in_no_grad),
            ("forward_nontensor", forward_nontensor),
            ("forward_none", forward_none),
            ("no_backward", no_backward),
            ("double_backward", double_backward),
            ("needs_input_grad_mixed", needs_input_grad_mixed),
            ("materialize_after", materialize_after),
            ("apply_kwargs", apply_kwargs),
            ("vjp_alias", vjp_alias),
            ("once_diff_grad_fn", once_diff_grad_fn),
        ]
    }


@program()
def prog_tensor_memory_and_layout_api(T: Any) -> Any:
    x = T.arange(12.0).reshape(3, 4)
    t = x.t()
    m = _seeded(T, T.nn.Linear(2, 2), 3)
    m.share_memory()
    s = x.clone()
    view = s[1:]
    s.share_memory_()
    loader = T.utils.data.DataLoader([T.ones(2)] * 3, batch_size=2, pin_memory=True)
    batches = [b.is_pinned() for b in loader]
    return {
        "stride": [
            x.stride(),
            t.stride(),
            x[:, 1].stride(),
            x[::2].stride(),
            T.ones(3, 1).expand(3, 4).stride(),
        ],
        "contig": [
            x.is_contiguous(),
            t.is_contiguous(),
            t.contiguous().stride(),
            x[:, :2].is_contiguous(),
        ],
        "offset": [x[1].storage_offset(), x[:, 1].storage_offset(), t[1].storage_offset()],
        "sizes": [
            x.element_size(),
            x.nelement(),
            x.dim(),
            x.ndimension(),
            T.ones(1, dtype=T.int16).element_size(),
        ],
        "same": [
            x.cpu() is x,
            x.float() is x,
            x.to(T.float32) is x,
            x.to(T.float32, copy=True) is x,
        ],
        "cuda": raises(lambda: x.cuda()),
        "pin": raises(lambda: x.pin_memory()),
        "is_pinned": x.is_pinned(),
        "shared": [
            s.is_shared(),
            view.is_shared(),
            s.detach().is_shared(),
            s.clone().is_shared(),
            x.is_shared(),
        ],
        "module_shared": [p.is_shared() for p in m.parameters()],
        "batches": batches,
        "numpy_shares": (lambda c: (c.numpy().__setitem__((0, 0), 100.0), c[0, 0].item())[1])(
            x.clone()
        ),
        "apply_": T.ones(3).apply_(lambda v: v * 3),
        "map_": T.ones(3).map_(T.ones(3) * 2, lambda a, b: a + b),
        "as_strided": x.as_strided((2, 2), (1, 4), 1),
        "as_strided_oob": raises(lambda: x.as_strided((20,), (1,))),
        "finfo": [T.finfo(T.float32).eps, T.finfo(T.float16).max, T.iinfo(T.int8).min],
        "finfo_int": raises(lambda: T.finfo(T.int32)),
    }


@program()
def prog_device_selection_and_module_paths(T: Any) -> Any:
    nn = T.nn
    device = T.accelerator.current_accelerator().type if T.accelerator.is_available() else "cpu"
    model = _seeded(
        T, nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.InstanceNorm2d(2), nn.ReLU()), 3
    ).to(device)
    frozen = []
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.eval()
            frozen.append(type(m).__name__)
        if isinstance(m, nn.modules.instancenorm._InstanceNorm):
            frozen.append(type(m).__name__)

    @T.jit.ignore
    def helper(x):
        return x * 2

    @T.jit.unused
    def unused(x):
        return x + 1

    dist = T.distributed
    rank = dist.get_rank() if dist.is_available() and dist.is_initialized() else 0
    return {
        "device": device,
        "count": T.accelerator.device_count(),
        "frozen": frozen,
        "training": [m.training for m in model],
        "out": model(T.tensor(_data(1, 1, 5, 5))),
        "scripting": [T.jit.is_scripting(), T.jit.is_tracing()],
        "helper": helper(T.ones(1)),
        "unused": unused(T.ones(1)),
        "export": T.jit.export(helper)(T.ones(1)),
        "rank": rank,
        "dist": [dist.is_available(), dist.is_initialized()],
        "get_rank": raises(dist.get_rank),
        "get_world_size": raises(dist.get_world_size),
        "bn_all": sorted(nn.modules.batchnorm.__all__)[:3],
    }


@program()
def prog_cpu_autocast(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 1)
    x = T.ones(4, 3)
    with T.autocast("cpu", dtype=T.float16):
        y = lin(x)
        return [y.dtype, (x @ x.t()).dtype, T.exp(x).dtype]


@program()
def prog_scheduler_resume_mid_training(T: Any) -> Any:
    sch = T.optim.lr_scheduler
    out = {}

    def opt_adam():
        return T.optim.Adam([T.nn.Parameter(T.ones(2))], lr=0.1, betas=(0.9, 0.99))

    def opt_sgd():
        return T.optim.SGD([T.nn.Parameter(T.ones(2))], lr=0.1, momentum=0.9)

    makers = {
        "onecycle_adam": (
            opt_adam,
            lambda o: sch.OneCycleLR(o, max_lr=1.0, total_steps=12, cycle_momentum=True),
        ),
        "cyclic_mom": (
            opt_sgd,
            lambda o: sch.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9),
        ),
        "cawr": (
            opt_sgd,
            lambda o: sch.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.001),
        ),
        "sequential": (
            opt_sgd,
            lambda o: sch.SequentialLR(
                o, [sch.LinearLR(o, 0.1, total_iters=2), sch.CosineAnnealingLR(o, 5)], [2]
            ),
        ),
        "chained": (
            opt_sgd,
            lambda o: sch.ChainedScheduler(
                [sch.ExponentialLR(o, 0.9), sch.MultiplicativeLR(o, lambda e: 0.95)]
            ),
        ),
        "poly": (opt_sgd, lambda o: sch.PolynomialLR(o, total_iters=5, power=0.5)),
    }
    for name, (mk_opt, mk_sched) in makers.items():
        o1 = mk_opt()
        s1 = mk_sched(o1)
        trace = []
        for _ in range(5):
            o1.step()
            s1.step()
            trace.append(
                [g["lr"] for g in o1.param_groups]
                + [g.get("momentum", g.get("betas")) for g in o1.param_groups]
            )
        sd_s = {
            k: v
            for k, v in s1.state_dict().items()
            if not callable(v) and k not in ("_schedulers", "lr_lambdas")
        }
        o2 = mk_opt()
        o2.load_state_dict(o1.state_dict())
        s2 = mk_sched(o2)
        s2.load_state_dict(s1.state_dict())
        resumed = []
        for _ in range(4):
            o1.step()
            s1.step()
            o2.step()
            s2.step()
            resumed.append((s1.get_last_lr(), s2.get_last_lr()))
        out[name] = {"trace": trace, "sd": sd_s, "resumed": resumed}
    o = opt_sgd()
    pl = sch.ReduceLROnPlateau(
        o,
        mode="max",
        factor=0.5,
        patience=0,
        threshold=0.1,
        threshold_mode="abs",
        min_lr=0.02,
        eps=1e-3,
    )
    lrs = []
    for m in [1.0, 1.05, 1.2, 1.25, 1.3, 0.9, 0.8, 0.7]:
        pl.step(m)
        lrs.append(o.param_groups[0]["lr"])
    out["plateau_max_abs"] = [lrs, pl.best, pl.num_bad_epochs, pl.cooldown_counter]
    o = opt_sgd()
    st = sch.StepLR(o, step_size=2)
    for e in range(4):
        o.step()
        st.step(e)  # the deprecated epoch argument: closed form, with torch's warning
    out["epoch_arg"] = st.get_last_lr()
    return out


@program()
def prog_checkpoint_file_contents(T: Any) -> Any:
    import os
    import pathlib
    import tempfile
    from collections import OrderedDict

    def rt(obj, **kw):
        b = io.BytesIO()
        T.save(obj, b)
        b.seek(0)
        return T.load(b, **kw)

    d = tempfile.mkdtemp()
    T.save({"w": T.ones(2)}, pathlib.Path(d) / "m.pt")
    T.save([1, "two"], os.path.join(d, "n.pt"))
    base = T.arange(4.0)
    views = rt([base, base[:2], base.detach(), base])
    views[0][0] = 9.0
    p = T.nn.Parameter(T.zeros(2))
    p.grad = T.ones(2)
    return {
        "nested": rt(
            {
                "a": [1, 2.5, None, True, "s"],
                "b": (T.ones(2), {"c": T.tensor(3)}),
                3: "int key",
                (1, 2): "tuple",
            }
        ),
        "ordered": type(rt(OrderedDict(a=1))).__name__,
        "set": rt({"s": {1, 2}, "e": set()}),
        "bytes": rt(b"abc"),
        "complex": rt(1 + 2j),
        "big_int": rt(2**70),
        "dtype": rt(T.float16),
        "size": rt(T.Size([2, 3])),
        "device": rt(T.device("cpu")),
        "device_type": type(rt(T.device("cpu"))).__name__,
        "param": [type(rt(p)).__name__, rt(p).requires_grad, rt(p).grad],
        "nonleaf": (lambda t: [t.requires_grad, t.grad_fn, t.is_leaf])(
            rt(T.ones(2, requires_grad=True) * 2)
        ),
        "dtypes": [
            rt(T.ones(2, dtype=dt)).dtype
            for dt in (
                T.int8,
                T.uint8,
                T.int16,
                T.int32,
                T.int64,
                T.bool,
                T.float16,
                T.float64,
                T.complex64,
            )
        ],
        "noncontig": (lambda t: [t.stride(), t.is_contiguous()])(
            rt(T.arange(6.0).reshape(2, 3).t())
        ),
        "zero_d": rt(T.tensor(5.0)),
        "empty": rt(T.zeros(0, 3)),
        "map": rt(T.ones(1), map_location="cpu"),
        "views": [v.tolist() for v in views],
        "same": views[0] is views[3],
        "path": T.load(pathlib.Path(d) / "m.pt"),
        "str_path": T.load(os.path.join(d, "n.pt")),
        "missing": raises(lambda: T.load("/nonexistent/x.pt")),
        "sd_meta": dict(rt(T.nn.Linear(2, 2).state_dict())._metadata),
    }


@program()
def prog_seeded_init_functions(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(123)
    out = {}
    for name, call in {
        "uniform": lambda w: init.uniform_(w, -0.5, 0.5),
        "normal": lambda w: init.normal_(w, 0.1, 0.2),
        "trunc": lambda w: init.trunc_normal_(w, std=0.5, a=-0.4, b=0.4),
        "constant": lambda w: init.constant_(w, 0.3),
        "ones": init.ones_,
        "zeros": init.zeros_,
        "eye": init.eye_,
        "xavier_u": lambda w: init.xavier_uniform_(w, gain=init.calculate_gain("tanh")),
        "xavier_n": init.xavier_normal_,
        "kaiming_u": lambda w: init.kaiming_uniform_(w, a=5**0.5),
        "kaiming_n": lambda w: init.kaiming_normal_(w, mode="fan_out", nonlinearity="leaky_relu"),
        "orthogonal": lambda w: init.orthogonal_(w, gain=2.0),
        "sparse": lambda w: init.sparse_(w, sparsity=0.5),
    }.items():
        w = T.empty(4, 3)
        r = call(w)
        out[name] = [w, r is w]
    conv_w = T.empty(4, 2, 3, 3)
    init.dirac_(conv_w[:2, :, :, :])
    out["dirac_groups"] = init.dirac_(T.empty(4, 2, 3), groups=2)
    out["gains"] = [
        init.calculate_gain(n) for n in ("linear", "relu", "tanh", "sigmoid", "selu")
    ] + [init.calculate_gain("leaky_relu", 0.2)]
    out["fans"] = init._calculate_fan_in_and_fan_out(T.empty(5, 3, 2, 2))
    out["errs"] = [
        raises(lambda: init.xavier_uniform_(T.empty(3))),
        raises(lambda: init.eye_(T.empty(2, 2, 2))),
        raises(lambda: init.calculate_gain("nope")),
        raises(lambda: init.kaiming_uniform_(T.empty(0, 3))),
        raises(lambda: init.orthogonal_(T.empty(3))),
    ]
    out["after"] = T.rand(2)
    return out


@program()
def prog_float_sizes_in_view_and_reshape(T: Any) -> Any:
    x = T.ones(4, 6)
    n = x.shape[0]
    cases = {
        "view_half": lambda: x.view(n / 2, -1),
        "view_one_float": lambda: x.view(24.0),
        "view_tuple": lambda: x.view((2.0, 12)),
        "view_list": lambda: x.view([2.0, 12]),
        "view_none": lambda: x.view(2, None),
        "view_str": lambda: x.view("a"),
        "reshape_half": lambda: x.reshape(n / 2, -1),
        "reshape_second": lambda: x.reshape(2, 12.0),
        "reshape_one": lambda: x.reshape(24.0),
        "reshape_tuple": lambda: x.reshape((24.0,)),
        "fn_reshape": lambda: T.reshape(x, (24.0,)),
        "fn_reshape_one": lambda: T.reshape(x, 24.0),
        "ok_floordiv": lambda: x.view(n // 2, -1).shape,
        "ok_tensor": lambda: x.view(T.tensor(24)).shape,
        "ok_size": lambda: x.reshape(x.shape).shape,
        "ok_np": lambda: x.view(np.int64(2), -1).shape,
        "ok_dtype": lambda: x.view(T.int32).dtype,
        "view_tuple_second": lambda: x.view((2, 12.0)),
        "reshape_tuple_second": lambda: x.reshape((2, 12.0)),
        "zeros_float": lambda: T.zeros(n / 2, 3),
        "zeros_second": lambda: T.zeros(2, 1.5),
        "zeros_tuple": lambda: T.zeros((2, 1.5)),
        "zeros_list_first": lambda: T.zeros([1.5]),
        "ones_str": lambda: T.ones(2, "a"),
        "empty_one": lambda: T.empty(2.0),
        "rand_tuple": lambda: T.rand((2, 2.0)),
        "randn_one": lambda: T.randn(2.5),
        "zeros_none": lambda: T.zeros(None),
        "full_float": lambda: T.full((2.0,), 1.0),
        "full_int": lambda: T.full(3, 1.0),
        "zeros_float_tensor": lambda: T.zeros(T.tensor(2.0)),
        "ok_int_tensor": lambda: T.zeros(T.tensor(2)).shape,
        "ok_zeros_size": lambda: T.zeros(x.shape).shape,
    }
    return {k: raises(fn) for k, fn in cases.items()}


@program()
def prog_optimizer_flags(T: Any) -> Any:
    optim = T.optim
    res = {}
    configs = {
        "adam_foreach_max": lambda p: optim.Adam(p, lr=1e-2, foreach=True, maximize=True),
        "adamw_foreach_false": lambda p: optim.AdamW(
            p, lr=1e-2, foreach=False, weight_decay=0.1, amsgrad=True
        ),
        "adam_tensor_lr": lambda p: optim.Adam(p, lr=T.tensor(1e-2)),
        "sgd_foreach_max": lambda p: optim.SGD(
            p, lr=0.1, momentum=0.5, foreach=True, maximize=True
        ),
        "rms_max": lambda p: optim.RMSprop(p, lr=1e-2, maximize=True, weight_decay=0.01),
        "adagrad_foreach": lambda p: optim.Adagrad(p, lr=0.1, foreach=True),
        "nadam_decoupled": lambda p: optim.NAdam(
            p, lr=1e-2, decoupled_weight_decay=True, weight_decay=0.1
        ),
    }
    for name, make in configs.items():
        model, x, y = _regression(T, 4)
        opt = make(model.parameters())
        res[name] = _train(T, model, opt, x, y, 3)
        res[name + "_w"] = [p.detach() for p in model.parameters()]
        res[name + "_group"] = {k: v for k, v in opt.param_groups[0].items() if k != "params"}
    return res


@program()
def prog_differentiable_optimizer_step(T: Any) -> Any:
    w = T.nn.Parameter(T.ones(2))
    opt = T.optim.Adam([w], lr=1e-2, differentiable=True)
    (w * 2).sum().backward()
    return raises(opt.step)


# --- the harness -----------------------------------------------------------------------------


def program_params(programs: dict[str, Any]) -> list[Any]:
    """pytest params for a set of programs, a known difference as a strict xfail (shared by
    the later sets of realistic programs)."""
    out = []
    for name, p in programs.items():
        # only a mismatch (check_program's pytest.fail) is the known difference: a program that
        # torch itself refuses (an AssertionError) fails, xfail or not
        marks = (
            [pytest.mark.xfail(reason=p.xfail, strict=True, raises=pytest.fail.Exception)]
            if p.xfail
            else []
        )
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", program_params(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    check_program(name, PROGRAMS[name])


def check_program(name: str, p: _Prog) -> None:
    """Run one program on torch and shadowgrad; fail with the differences rendered."""
    a = run(get_engine("torch"), p.fn)
    assert a.error is None, f"torch raised {a.error}: fix the program"
    b = run(get_engine("shadowgrad"), p.fn)
    diffs = compare(a, b, tol=p.tol, compare_warnings=p.warnings)
    if diffs:
        pytest.fail(render_mismatch(name, source_of(p.fn), diffs, a, b), pytrace=False)
