"""Autograd test-suite programs, part 2: the behaviours torch's test/test_autograd.py and
test/autograd/* pin down that test_autograd_suite_programs.py does not: complex gradients
reaching real inputs, forward-mode AD (dual numbers, make_dual/unpack_dual errors, tangents
through views and in-place ops), saved-tensor hooks and what they see, the
torch.autograd.graph API (node names, next_functions, node hooks, multi-grad hooks),
anomaly mode, checkpointing both ways, torch.autograd.functional (jacobian, hessian, vjp, jvp,
hvp, vhp and their options) and the errors of grad/backward options. Each `prog(T)` runs on
torch and on shadowgrad, and everything it returns, raises or warns is compared by
test_realistic_programs_3's harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _warm_up_torch() -> None:
    """torch's first make_dual in a process scripts some helpers with torch.jit.script (18
    DeprecationWarnings, once per process): done here, so programs see torch's steady state."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.forward_ad.dual_level():
            torch.autograd.forward_ad.make_dual(torch.ones(1), torch.ones(1))


_warm_up_torch()


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = True, dtype: Any = None) -> Any:
    x = T.tensor(_data(*shape, seed=seed), requires_grad=False)
    if dtype is not None:
        x = x.to(dtype)
    return x.requires_grad_(rg)


def _z(T: Any, *shape: int, seed: int = 0) -> Any:
    """A complex64 tensor (no grad)."""
    return T.complex(T.tensor(_data(*shape, seed=seed)), T.tensor(_data(*shape, seed=seed + 7)))


def _back(fn: Any, x: Any) -> Any:
    """Run fn(), backward through |out|.sum(); x.grad or the error."""

    def go() -> Any:
        out = fn()
        (out.abs() if out.is_complex() else out).sum().backward()
        return x.grad

    return raises(go)


# --- complex gradients reaching real inputs -------------------------------------------------


@program()
def prog_ta2_complex_grad_into_real_refused_by_reductions(T: Any) -> Any:
    out = {}
    z = _z(T, 3)
    for name, fn in (
        ("sum", lambda x: x.sum(dtype=T.complex64) * (1 + 1j)),
        ("sum_dim", lambda x: x.sum(0, dtype=T.complex64) * (1 + 1j)),
        ("mean", lambda x: x.mean(dtype=T.complex64) * (1 + 1j)),
        ("mean_dim", lambda x: x.mean(0, dtype=T.complex64) * (1 + 1j)),
        ("prod", lambda x: x.prod(dtype=T.complex64) * (1 + 1j)),
        ("prod_dim", lambda x: x.prod(0, dtype=T.complex64) * (1 + 1j)),
        ("where", lambda x: T.where(x > 0, x, z) * z),
        ("dist", lambda x: T.dist(x, z)),
    ):
        x = _t(T, 3)
        out[name] = (_back(lambda f=fn, x=x: f(x), x), fn(x).grad_fn)
    return out


@program()
def prog_ta2_complex_grad_into_real_taken_by_formulas(T: Any) -> Any:
    out = {}
    z = _z(T, 3, seed=1)
    for name, fn in (
        ("mul", lambda x: x * z),
        ("add", lambda x: x + z),
        ("rsub", lambda x: 1j - x),
        ("sub_alpha", lambda x: T.sub(z, x, alpha=2)),
        ("div", lambda x: z / (x + 3)),
        ("addcmul", lambda x: T.addcmul(z, x, z, value=0.5)),
        ("addcdiv", lambda x: T.addcdiv(z, x, x + 3)),
        ("to", lambda x: x.to(T.complex64) * z),
        ("type_as", lambda x: x.type_as(z) * z),
        ("cat", lambda x: T.cat([x, z])),
        ("stack", lambda x: T.stack([x, z])),
        ("complex", lambda x: T.complex(x, x * 2) * z),
        ("polar", lambda x: T.polar(x.abs(), x) * z),
        ("where_scalar", lambda x: T.where(x > 0, x, 1j) * z),
        ("where_scalar_self", lambda x: T.where(x > 0, 2j, x) * z),
        ("pow", lambda x: (x.abs() + 1) ** (1 + 1j)),
        ("copy_", lambda x: z.clone().copy_(x) * z),
        ("einsum", lambda x: T.einsum("i,i->", x.to(T.complex64), z)),
    ):
        x = _t(T, 3, seed=2)
        out[name] = (_back(lambda f=fn, x=x: f(x), x), fn(x).grad_fn)
    return out


@program()
def prog_ta2_complex_grad_cast_with_warning(T: Any) -> Any:
    z = _z(T, 3, seed=3)
    out = {}
    for name, fn in (
        ("cumsum", lambda x: x.cumsum(0, dtype=T.complex64) * z),
        ("cumprod", lambda x: x.cumprod(0, dtype=T.complex64) * z),
    ):
        x = _t(T, 3, seed=4)
        out[name] = (_back(lambda f=fn, x=x: f(x), x), fn(x).grad_fn)
    return out


@program()
def prog_ta2_complex_grad_from_custom_function_and_hook(T: Any) -> Any:
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 1j

    x = _t(T, 3)
    r1 = raises(lambda: F.apply(x).sum().backward())
    y = x * 2
    y.register_hook(lambda g: g * 1j)
    r2 = raises(lambda: y.sum().backward())
    x2 = _t(T, 3)
    r3 = raises(lambda: T.autograd.grad(x2 * 2, x2, _z(T, 3)))
    r4 = raises(lambda: (x2 * 2).backward(_z(T, 3)))
    return r1, r2, r3, r4, x.grad, x2.grad


@program()
def prog_ta2_mean_dtype_records_one_node(T: Any) -> Any:
    x = _t(T, 2, 3)
    out = []
    for d in (T.float64, T.float16, T.complex64, T.float32):
        a = x.mean(dtype=d)
        b = x.mean(1, keepdim=True, dtype=d)
        out.append((a, b, a.grad_fn, b.grad_fn))
    g = T.autograd.grad(x.mean(dtype=T.float64) + x.mean(0, dtype=T.float64).sum(), x)
    c = _z(T, 2, 2)
    r = raises(lambda: T.ones(3, dtype=T.int64).mean(dtype=T.int64))
    return out, g, c.mean(dtype=T.float32), r, raises(lambda: x.mean(dtype=T.int32))


# --- forward-mode AD -------------------------------------------------------------------------


@program()
def prog_ta2_fwad_make_dual_errors(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3, rg=False)
    out = [raises(lambda: fwAD.make_dual(x, T.ones(3)))]  # outside a level
    with fwAD.dual_level():
        out.append(raises(lambda: fwAD.make_dual(x, T.ones(4))))
        out.append(raises(lambda: fwAD.make_dual(x, T.ones(3, dtype=T.float64))))
        out.append(raises(lambda: fwAD.make_dual(x, T.ones(3, dtype=T.int64))))
        out.append(raises(lambda: fwAD.make_dual(x.long(), T.ones(3, dtype=T.int64))))
        d = fwAD.make_dual(x, T.ones(3))
        out.append(raises(lambda: fwAD.make_dual(d, T.ones(3))))
        out.append(raises(lambda: fwAD.make_dual(x, T.ones(3), level=5)))
        out.append(fwAD.unpack_dual(x))
        out.append(fwAD.unpack_dual(d).tangent)
        out.append(fwAD.unpack_dual(d, level=0).tangent)
    out.append(fwAD.unpack_dual(d).tangent)
    return out


@program()
def prog_ta2_fwad_nested_levels_refused(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    out = []
    with fwAD.dual_level():
        out.append(raises(lambda: fwAD.dual_level().__enter__()))
    out.append(raises(lambda: fwAD.exit_dual_level()))
    lvl = fwAD.enter_dual_level()
    out.append(lvl)
    fwAD.exit_dual_level(level=lvl)
    return out


@program()
def prog_ta2_fwad_tangent_through_views_and_inplace(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 4, 3, rg=False)
    t = _t(T, 4, 3, seed=1, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x.clone(), t)
        v = d[1:3]
        v.mul_(2)
        w = d.t()
        w[0].add_(1)
        base_t = fwAD.unpack_dual(d).tangent.clone()
        view_t = fwAD.unpack_dual(v).tangent.clone()
        y = d.sin().sum(0)
        yt = fwAD.unpack_dual(y).tangent
        e = d.unsqueeze(0).expand(2, 4, 3)
        et = fwAD.unpack_dual(e).tangent
    return base_t, view_t, yt, et, d._version


@program()
def prog_ta2_fwad_inplace_on_plain_tensor_with_dual_operand(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.ones(3))
        base = T.zeros(3)
        base.add_(d)
        bt = fwAD.unpack_dual(base).tangent
        buf = T.zeros(2, 3)
        buf[1].copy_(d * 2)
        buft = fwAD.unpack_dual(buf).tangent
        view = T.zeros(6)[::2]
        view.mul_(d)
        vt = fwAD.unpack_dual(view).tangent
    return bt, buft, vt


@program()
def prog_ta2_fwad_dual_with_backward_mode(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3)
    t = T.tensor([1.0, 0.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        y = (d * d).exp()
        p, tan = fwAD.unpack_dual(y)
        g = T.autograd.grad(tan.sum(), x, create_graph=True)[0]
        g2 = T.autograd.grad(p.sum(), x)[0]
    return p, tan, g, g2, y.grad_fn


@program()
def prog_ta2_fwad_unpack_dual_namedtuple_and_attributes(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 2, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.tensor([3.0, 4.0]))
        u = fwAD.unpack_dual(d)
        p, t = u
        return (
            type(u).__name__,
            u.primal is p,
            p._version,
            t,
            d.is_leaf,
            d.requires_grad,
            d.grad_fn,
            p.grad_fn,
            u._fields,
        )


@program()
def prog_ta2_fwad_ops_without_formula_and_integer(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.ones(3))
        r = [
            fwAD.unpack_dual(d.argmax()).tangent,
            fwAD.unpack_dual(d > 0).tangent,
            fwAD.unpack_dual(d.floor()).tangent,
            fwAD.unpack_dual(d.sign()).tangent,
            fwAD.unpack_dual(d.round()).tangent,
            fwAD.unpack_dual(d.long()).tangent,
            fwAD.unpack_dual(d.detach()).tangent,
            fwAD.unpack_dual(d.max(0).indices).tangent,
            fwAD.unpack_dual(d.max(0).values).tangent,
            fwAD.unpack_dual(d.sort().values).tangent,
        ]
    return r


@program()
def prog_ta2_fwad_jvp_of_reductions_and_norms(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3, 4, rg=False)
    t = _t(T, 3, 4, seed=5, rg=False)
    out = {}
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        for name, fn in (
            ("var", lambda a: a.var(1)),
            ("std", lambda a: a.std(0, correction=0)),
            ("norm", lambda a: a.norm()),
            ("logsumexp", lambda a: a.logsumexp(1)),
            ("softmax", lambda a: a.softmax(0)),
            ("log_softmax", lambda a: a.log_softmax(1)),
            ("cumsum", lambda a: a.cumsum(1)),
            ("prod", lambda a: a.prod(1)),
            ("amax", lambda a: a.amax(1)),
            ("mean_dtype", lambda a: a.mean(dtype=T.float64)),
        ):
            out[name] = raises(lambda f=fn: fwAD.unpack_dual(f(d)).tangent)
    return out


@program()
def prog_ta2_fwad_custom_function_jvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_forward(x)
            return x * x

        @staticmethod
        def jvp(ctx: Any, t: Any) -> Any:
            (x,) = ctx.saved_tensors
            return 2 * x * t

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    class NoJvp(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    x = _t(T, 3, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.ones(3))
        a = fwAD.unpack_dual(Square.apply(d)).tangent
        b = raises(lambda: NoJvp.apply(d))
    return a, b


@program()
def prog_ta2_fwad_jvp_through_inplace_on_view_of_dual(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 2, 3, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x.clone(), T.ones(2, 3))
        d.transpose(0, 1)[1].mul_(3)
        d[:, 0].exp_()
        d.diagonal().zero_()
        t1 = fwAD.unpack_dual(d).tangent.clone()
        p = T.zeros(2, 3)
        p.diagonal().copy_(fwAD.make_dual(T.ones(2), T.tensor([5.0, 6.0])))
        t2 = fwAD.unpack_dual(p).tangent
    return t1, t2, d


# --- saved tensor hooks ----------------------------------------------------------------------


def _packed(T: Any, fn: Any) -> Any:
    """The shapes and dtypes of what pack hooks see while fn() runs."""
    seen = []

    def pack(t: Any) -> Any:
        seen.append((tuple(t.shape), str(t.dtype).removeprefix("torch."), t.requires_grad))
        return t

    with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    return seen, out


@program()
def prog_ta2_pack_hooks_see_indices_of_max_sort_gather(T: Any) -> Any:
    x = _t(T, 3, 4)
    idx = T.tensor([[0, 1], [2, 3], [1, 1]])
    out = {}
    for name, fn in (
        ("max_dim", lambda: x.max(1).values),
        ("sort", lambda: x.sort(1).values),
        ("topk", lambda: x.topk(2, 1).values),
        ("gather", lambda: x.gather(1, idx)),
        ("index_select", lambda: x.index_select(0, T.tensor([2, 0]))),
        ("kthvalue", lambda: x.kthvalue(2, 1).values),
        ("cummax", lambda: x.cummax(1).values),
    ):
        seen, y = _packed(T, fn)
        y.sum().backward()
        out[name] = (seen, x.grad.clone())
        x.grad = None
    return out


@program()
def prog_ta2_pack_hooks_see_norm_statistics(T: Any) -> Any:
    x = _t(T, 2, 3, 4)
    w = _t(T, 4, seed=1)
    out = {}
    for name, fn in (
        ("layer_norm", lambda: T.nn.functional.layer_norm(x, (4,), w)),
        ("batch_norm", lambda: T.nn.functional.batch_norm(x, None, None, training=True)),
        ("group_norm", lambda: T.nn.functional.group_norm(x, 1)),
        ("log_softmax", lambda: x.log_softmax(-1)),
    ):
        seen, _ = _packed(T, fn)
        out[name] = seen
    return out


@program()
def prog_ta2_pack_hooks_order_and_count_common_ops(T: Any) -> Any:
    x = _t(T, 3, 3)
    y = _t(T, 3, 3, seed=1)
    out = {}
    for name, fn in (
        ("mul", lambda: x * y),
        ("mul_scalar", lambda: x * 2),
        ("matmul", lambda: x @ y),
        ("exp", lambda: x.exp()),
        ("pow", lambda: x**3),
        ("div", lambda: x / y),
        ("relu", lambda: x.relu()),
        ("sigmoid", lambda: x.sigmoid()),
        ("linear", lambda: T.nn.functional.linear(x, y)),
        ("where", lambda: T.where(x > 0, x, y)),
    ):
        seen, _ = _packed(T, fn)
        out[name] = seen
    return out


@program()
def prog_ta2_save_on_cpu_and_disable_hooks(T: Any) -> Any:
    x = _t(T, 3)
    with T.autograd.graph.save_on_cpu():
        y = (x * x).sin()
    y.sum().backward()
    out = [x.grad.clone()]
    with T.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        out.append(raises(lambda: T.autograd.graph.save_on_cpu().__enter__()))
        z = x.exp()
    out.append(z.grad_fn)

    @T.autograd.graph.disable_saved_tensors_hooks("decorated")
    def f() -> Any:
        with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            return 1

    out.append(raises(f))
    return out


@program()
def prog_ta2_pack_hook_returns_non_tensor_and_unpack_errors(T: Any) -> Any:
    x = _t(T, 3)
    store = {}

    def pack(t: Any) -> Any:
        store[len(store)] = t.detach().clone()
        return len(store) - 1

    with T.autograd.graph.saved_tensors_hooks(pack, lambda k: store[k]):
        y = x.pow(2)
    y.sum().backward()
    g1 = x.grad.clone()
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 1.0):
        y2 = x.pow(2)
    r = raises(lambda: y2.sum().backward())
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
        y3 = x.pow(2)
    r3 = raises(lambda: y3.sum().backward())
    with T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t[:2]):
        y4 = x.pow(2)
    r4 = raises(lambda: y4.sum().backward())
    return g1, r, r3, r4, len(store)


@program()
def prog_ta2_raw_saved_and_saved_attributes(T: Any) -> Any:
    x = _t(T, 3)
    y = x.pow(3)
    raw = y.grad_fn._raw_saved_self
    out = [
        y.grad_fn._saved_self is x,
        y.grad_fn._saved_exponent,
        type(raw).__name__,
        raises(lambda: raw.register_hooks(lambda t: t)),
        raises(lambda: raw.register_hooks(1, lambda t: t)),
    ]
    raw.register_hooks(lambda t: t * 0 + 5, lambda t: t)
    out.append(raises(lambda: raw.register_hooks(lambda t: t, lambda t: t)))
    y.sum().backward(retain_graph=True)
    out.append(x.grad)
    z = x.exp()
    out.append(z.grad_fn._saved_result is z)
    out.append(z.grad_fn._saved_result.equal(z))
    s = x.sum(0)
    out.append(s.grad_fn._saved_self_sym_sizes)
    m = x.max(0).values
    out.append((m.grad_fn._saved_dim, m.grad_fn._saved_keepdim, m.grad_fn._saved_indices))
    return out


@program()
def prog_ta2_saved_tensor_freed_attribute_access(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = x * x
    y.sum().backward()
    z.sum().backward()
    return (
        raises(lambda: y.grad_fn._saved_result),
        raises(lambda: z.grad_fn._saved_self),
        raises(lambda: z.grad_fn._raw_saved_self),
        raises(lambda: z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)),
    )


@program()
def prog_ta2_pack_hook_inplace_modification_error(T: Any) -> Any:
    x = _t(T, 3)

    def pack(t: Any) -> Any:
        t.add_(1)
        return t

    def go() -> Any:
        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            return (x * 2).exp()

    return raises(go)


# --- autograd.graph API ----------------------------------------------------------------------


@program()
def prog_ta2_node_register_hook_and_prehook_order(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    y = x * 2
    z = y.exp()
    n = z.grad_fn
    n.register_prehook(lambda go: log.append(("pre1", go[0].clone())))
    n.register_prehook(lambda go: (go[0] * 10,))
    n.register_hook(lambda gi, go: log.append(("hook", gi[0].clone(), go[0].clone())))
    h = n.register_hook(lambda gi, go: (gi[0] + 1,))
    z.register_hook(lambda g: log.append(("tensor", g.clone())))
    z.sum().backward(retain_graph=True)
    g1 = x.grad.clone()
    h.remove()
    x.grad = None
    z.sum().backward()
    return log, g1, x.grad


@program()
def prog_ta2_node_hooks_on_accumulate_grad_and_errors(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: log.append(("pre", go[0].clone())))
    acc.register_hook(lambda gi, go: log.append(("post", len(gi), go[0].clone())))
    y.sum().backward()
    return (
        log,
        acc.name(),
        acc.variable is x,
        acc.next_functions,
        raises(lambda: acc.register_hook(1)),
        raises(lambda: y.grad_fn.register_prehook("a")),
        type(acc.metadata).__name__,
    )


@program()
def prog_ta2_node_hook_returning_wrong_count_and_type(T: Any) -> Any:
    out = []
    for bad in (lambda gi, go: (gi[0], gi[0]), lambda gi, go: 5, lambda gi, go: [gi[0]]):
        x = _t(T, 3)
        y = x.exp()
        y.grad_fn.register_hook(bad)
        out.append(raises(lambda y=y: y.sum().backward()))
    for bad in (lambda go: (go[0], go[0]), lambda go: 5):
        x = _t(T, 3)
        y = x.exp()
        y.grad_fn.register_prehook(bad)
        out.append(raises(lambda y=y: y.sum().backward()))
    return out


@program()
def prog_ta2_next_functions_of_views_and_multi_output(T: Any) -> Any:
    x = _t(T, 4, 3)
    y = _t(T, 3, seed=1, rg=False)
    a, b = x.unbind(1)[:2]
    c = x.split(2)
    m = x.max(0)
    return (
        a.grad_fn,
        b.grad_fn,
        [t.grad_fn for t in c],
        m.values.grad_fn,
        (x + y).grad_fn,
        (x.t() @ x).grad_fn,
        x.view(-1).grad_fn,
        x[1:, ::2].grad_fn,
        x.T.grad_fn,
        x.mT.grad_fn,
        x.narrow(0, 1, 2).grad_fn,
        x.chunk(3, 1)[2].grad_fn,
        x.select(1, 0).grad_fn,
        x.diagonal().grad_fn,
        x.expand(2, 4, 3).grad_fn,
        x.unflatten(0, (2, 2)).grad_fn,
        x.movedim(0, 1).grad_fn,
        x.flatten().grad_fn,
        x.reshape(3, 4).grad_fn,
        x.t().reshape(12).grad_fn,
        x.squeeze().grad_fn,
        x[None].grad_fn,
    )


@program()
def prog_ta2_increment_version_and_saved_check(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 1
    z = y.exp()
    v0 = y._version
    T.autograd.graph.increment_version(y)
    r = raises(lambda: z.sum().backward())
    w = T.ones(2)
    T.autograd.graph.increment_version([w, w])
    return v0, y._version, r, w._version


@program()
def prog_ta2_gradient_edge_grad_and_next(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    z = y.sin()
    e = T.autograd.graph.get_gradient_edge(y)
    g = T.autograd.grad(z.sum(), e)
    ex = T.autograd.graph.get_gradient_edge(x)
    return g, e.node, e.output_nr, ex.node.name(), ex.output_nr, type(e).__name__


@program()
def prog_ta2_multi_grad_hook_all_and_any_with_partial_backward(T: Any) -> Any:
    log = []
    a = _t(T, 2)
    b = _t(T, 2, seed=1)
    c = _t(T, 2, seed=2)
    h = T.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda gs: log.append(("all", [None if g is None else g.clone() for g in gs]))
    )
    (a * 2 + b).sum().backward()
    (b * 3).sum().backward(inputs=[b])
    h.remove()
    (a * 2).sum().backward()
    h2 = T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(("any", g.clone())), mode="any"
    )
    (a * 5 + b * 7).sum().backward()
    h2.remove()
    return log, a.grad, b.grad, c.grad


@program()
def prog_ta2_node_name_and_repr_names_of_common_nodes(T: Any) -> Any:
    x = _t(T, 2, 3)
    ints = T.tensor([0, 1])
    names = []
    for y in (
        x.clone(),
        x.contiguous(),
        x.t().contiguous(),
        x.float(),
        x.double(),
        x.half(),
        x.to(T.float64),
        x.new_zeros(2) + x[0, :2],
        x.index_select(1, ints),
        x[ints],
        x[:, ints],
        x[x > 0],
        x.masked_fill(x > 0, 0),
        x.abs(),
        x.neg(),
        -x,
        x.__rsub__(1),
        1 / x,
        x.clamp(min=0),
        x.clamp(-1, 1),
        x.clamp_min(0.1),
        x.repeat(2, 1),
        x.tile(2),
        x.roll(1),
        x.flip(0),
        x.cumsum(0),
        x.std(),
        x.var(0),
        x.norm(dim=1),
        T.nn.functional.softmax(x, -1),
        T.nn.functional.gelu(x),
        T.nn.functional.silu(x),
        T.nn.functional.mse_loss(x, x.detach() * 2),
        T.nn.functional.dropout(x, 0.0),
    ):
        names.append(None if y.grad_fn is None else y.grad_fn.name())
    return names


# --- anomaly mode ----------------------------------------------------------------------------


@program()
def prog_ta2_anomaly_nan_from_builtin_node_message(T: Any) -> Any:
    x = T.tensor([0.0, 1.0], requires_grad=True)

    def go() -> Any:
        with T.autograd.detect_anomaly():
            y = x.sqrt() * 0
            y.sum().backward()

    def go_check_off() -> Any:
        with T.autograd.detect_anomaly(check_nan=False):
            y = x.sqrt() * 0
            y.sum().backward()
        return x.grad

    return raises(go), raises(go_check_off)


@program()
def prog_ta2_anomaly_error_in_backward_names_forward(T: Any) -> Any:
    class Bad(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x.clone()

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            raise ValueError("boom in backward")

    x = _t(T, 2)

    def go() -> Any:
        with T.autograd.set_detect_anomaly(True):
            Bad.apply(x).exp().sum().backward()

    return raises(go), T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()


@program()
def prog_ta2_anomaly_nan_in_grad_output_of_hook(T: Any) -> Any:
    x = _t(T, 3)

    def go() -> Any:
        with T.autograd.detect_anomaly():
            y = x * 2
            y.register_hook(lambda g: g * float("nan"))
            y.exp().sum().backward()

    return raises(go)


# --- torch.autograd.functional ---------------------------------------------------------------


def _f2(T: Any) -> Any:
    def f(a: Any, b: Any) -> Any:
        return (a * b.sin()).sum(0), a.exp() * b

    return f


@program()
def prog_ta2_functional_jacobian_options(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 2, 3, rg=False)
    b = _t(T, 3, seed=1, rg=False)
    f = _f2(T)
    j = AF.jacobian(f, (a, b))
    jv = AF.jacobian(f, (a, b), vectorize=True)
    jf = AF.jacobian(f, (a, b), vectorize=True, strategy="forward-mode")
    jc = AF.jacobian(lambda t: t.exp(), a, create_graph=True)
    return (
        j,
        jv,
        jf,
        jc.requires_grad,
        raises(lambda: AF.jacobian(f, (a, b), strategy="forward-mode")),
        raises(lambda: AF.jacobian(f, (a, b), strategy="bogus")),
    )


@program()
def prog_ta2_functional_strict_errors(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3, rg=False)
    b = _t(T, 3, seed=1, rg=False)
    return (
        raises(lambda: AF.jacobian(lambda x, y: x * 2, (a, b), strict=True)),
        AF.jacobian(lambda x, y: x * 2, (a, b)),
        raises(lambda: AF.jacobian(lambda x: T.ones(3), a, strict=True)),
        AF.jacobian(lambda x: T.ones(3), a),
        raises(lambda: AF.vjp(lambda x: x.detach(), a, T.ones(3), strict=True)),
        raises(lambda: AF.jacobian(lambda x: x * 2, a, strict=True, vectorize=True)),
        raises(lambda: AF.hessian(lambda x: x.sum(), a, strict=True)),
        AF.hessian(lambda x: x.sum(), a),
    )


@program()
def prog_ta2_functional_vjp_jvp_hvp_vhp(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3, rg=False)
    v = _t(T, 3, seed=2, rg=False)

    def f(x: Any) -> Any:
        return (x**3).sum()

    def g(x: Any) -> Any:
        return x.exp() * x

    return (
        AF.vjp(g, a, v),
        AF.vjp(f, a),
        AF.jvp(g, a, v),
        AF.hvp(f, a, v),
        AF.vhp(f, a, v),
        AF.hessian(f, a),
        AF.hessian(lambda x, y: (x * y).sum(), (a, v)),
        AF.hessian(f, a, vectorize=True),
        AF.hessian(f, a, vectorize=True, outer_jacobian_strategy="forward-mode"),
    )


@program()
def prog_ta2_functional_argument_errors(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3, rg=False)
    return (
        raises(lambda: AF.vjp(lambda x: x * 2, a)),
        raises(lambda: AF.vjp(lambda x: x * 2, a, T.ones(4))),
        raises(lambda: AF.jvp(lambda x: x * 2, a, T.ones(2))),
        raises(lambda: AF.jvp(lambda x: x * 2, a)),
        raises(lambda: AF.hvp(lambda x: x * 2, a, T.ones(3))),
        raises(lambda: AF.vhp(lambda x: x.sum(), a)),
        raises(lambda: AF.jacobian(lambda x: 3.0, a)),
        raises(lambda: AF.jacobian(lambda x: x, [1.0])),
        raises(lambda: AF.hessian(lambda x: (x, x), a)),
        AF.jvp(lambda x: x.sum(), a, T.ones(3)),
        AF.vjp(lambda x: x.sum(), a),
    )


@program()
def prog_ta2_functional_create_graph_double_backward(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3)
    v = T.tensor([1.0, 0.5, 2.0])
    out, hv = AF.hvp(lambda x: (x**4).sum(), a, v, create_graph=True)
    hv.sum().backward()
    g1 = a.grad.clone()
    a.grad = None
    _, jv = AF.jvp(lambda x: x.sin(), a, v, create_graph=True)
    jv.sum().backward()
    out2, vj = AF.vjp(lambda x: x.sin(), a, v, create_graph=False)
    return out.requires_grad, hv.requires_grad, g1, a.grad, vj.requires_grad, out2.requires_grad


@program()
def prog_ta2_functional_jacobian_shapes_and_tuple_outputs(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 2, 2, rg=False)
    b = T.tensor(1.5)
    j1 = AF.jacobian(lambda x: x.sum(), a)
    j2 = AF.jacobian(lambda x: x, b)
    j3 = AF.jacobian(lambda x, y: (x * y, y * 2), (a, b))
    j4 = AF.jacobian(lambda x: (x.t(),), a)
    j5 = raises(lambda: AF.jacobian(lambda x: x.reshape(4), [a]))
    j6 = AF.jacobian(lambda x: x.reshape(4), (a,))
    return j1, j2, j3, j4, j5, type(j6).__name__, j6


# --- checkpoint ------------------------------------------------------------------------------


def _ckpt(T: Any) -> Any:
    import importlib

    return importlib.import_module(T.__name__ + ".utils.checkpoint")


@program()
def prog_ta2_checkpoint_both_ways_grads_match(T: Any) -> Any:
    cp = _ckpt(T)
    out = {}
    for reentrant in (True, False):
        x = _t(T, 3, 4)
        w = _t(T, 4, 4, seed=1)

        def f(a: Any, w: Any = w) -> Any:
            return (a @ w).tanh() @ w

        y = cp.checkpoint(f, x, use_reentrant=reentrant)
        y.sum().backward()
        out[reentrant] = (y, y.grad_fn.name(), x.grad, w.grad)
    return out


@program()
def prog_ta2_checkpoint_use_reentrant_warning_and_errors(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)
    r = raises(lambda: cp.checkpoint(lambda a: a * 2, x))
    r2 = raises(lambda: cp.checkpoint(lambda a: a * 2, x, use_reentrant=True, bogus=1))
    r3 = raises(lambda: cp.checkpoint(lambda a: a * 2, x, use_reentrant=False, bogus=1))
    return r, r2, r3


@program()
def prog_ta2_checkpoint_reentrant_no_input_requires_grad(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3, rg=False)
    w = _t(T, 3, seed=1)
    y = cp.checkpoint(lambda a: a * w, x, use_reentrant=True)
    y2 = cp.checkpoint(lambda a: a * w, x, use_reentrant=False)
    y2.sum().backward()
    return y.requires_grad, y2.requires_grad, w.grad


@program()
def prog_ta2_checkpoint_reentrant_autograd_grad_refused(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)
    y = cp.checkpoint(lambda a: a.exp(), x, use_reentrant=True)
    r = raises(lambda: T.autograd.grad(y.sum(), x))
    x2 = _t(T, 3)
    y2 = cp.checkpoint(lambda a: a.exp(), x2, use_reentrant=False)
    g = T.autograd.grad(y2.sum(), x2)
    return r, g


@program()
def prog_ta2_checkpoint_non_reentrant_double_backward_and_kwargs(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)

    def f(a: Any, scale: float = 1.0) -> Any:
        return (a**3) * scale

    y = cp.checkpoint(f, x, use_reentrant=False, scale=2.0)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return y, g, gg


@program()
def prog_ta2_checkpoint_non_tensor_outputs_and_none(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)

    def f(a: Any) -> Any:
        return a * 2, None, 3, a.sum()

    out = {}
    for reentrant in (True, False):
        x.grad = None
        o = cp.checkpoint(f, x, use_reentrant=reentrant)
        (o[0].sum() + o[3]).backward()
        out[reentrant] = (o[1], o[2], x.grad.clone())
    return out


@program()
def prog_ta2_checkpoint_sequential(T: Any) -> Any:
    cp = _ckpt(T)
    T.manual_seed(0)
    layers = [T.nn.Linear(3, 3) for _ in range(4)]
    with T.no_grad():
        for i, m in enumerate(layers):
            m.weight.copy_(T.tensor(_data(3, 3, seed=i)) * 0.5)
            m.bias.zero_()
    seq = T.nn.Sequential(*layers)
    x = _t(T, 2, 3)
    out = {}
    for reentrant in (True, False):
        seq.zero_grad()
        y = cp.checkpoint_sequential(seq, 2, x, use_reentrant=reentrant)
        y.sum().backward()
        out[reentrant] = (y, seq[0].weight.grad.clone())
    return out


@program()
def prog_ta2_checkpoint_reentrant_backward_twice_and_detached(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)
    y = cp.checkpoint(lambda a: a.exp(), x, use_reentrant=True)
    y.sum().backward(retain_graph=True)
    g1 = x.grad.clone()
    r = raises(lambda: y.sum().backward())
    return g1, r, x.grad, y.grad_fn.name()


@program()
def prog_ta2_checkpoint_non_reentrant_recompute_mismatch(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)
    calls = [0]

    def f(a: Any) -> Any:
        calls[0] += 1
        if calls[0] > 1:
            return a.exp().exp()  # the recomputation saves more tensors
        return a.exp()

    y = cp.checkpoint(f, x, use_reentrant=False)
    r = raises(lambda: y.sum().backward())
    return r, calls[0]


@program()
def prog_ta2_checkpoint_preserves_rng_state(T: Any) -> Any:
    cp = _ckpt(T)
    out = {}
    for reentrant in (True, False):
        T.manual_seed(3)
        x = _t(T, 6)
        y = cp.checkpoint(
            lambda a: T.nn.functional.dropout(a, 0.5, training=True), x, use_reentrant=reentrant
        )
        y.sum().backward()
        out[reentrant] = (y, x.grad)
    return out


# --- grad / backward options -----------------------------------------------------------------


@program()
def prog_ta2_backward_inputs_argument_forms(T: Any) -> Any:
    a = _t(T, 3)
    b = _t(T, 3, seed=1)
    out = []
    (a * b).sum().backward(inputs=a)
    out.append((a.grad, b.grad))
    a.grad = None
    (a * b).sum().backward(inputs=[b])
    out.append((a.grad, b.grad))
    out.append(raises(lambda: (a * b).sum().backward(inputs=[])))
    out.append(raises(lambda: (a * b).sum().backward(inputs=[a.detach()])))
    c = a * 2
    (c * b).sum().backward(inputs=[c])
    out.append((c.grad, c.is_leaf))
    out.append(raises(lambda: T.autograd.backward((a * b).sum(), inputs=(a, 1))))
    return out


@program()
def prog_ta2_grad_errors_non_scalar_and_unused(T: Any) -> Any:
    a = _t(T, 3)
    b = _t(T, 3, seed=1)
    y = a * 2
    return (
        raises(lambda: T.autograd.grad(y, a)),
        raises(lambda: y.backward()),
        raises(lambda: T.autograd.grad(y.sum(), [a, b])),
        T.autograd.grad((a * 2).sum(), [a, b], allow_unused=True),
        T.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True),
        raises(
            lambda: T.autograd.grad((a * 2).sum(), b, allow_unused=False, materialize_grads=True)
        ),
        raises(lambda: T.autograd.grad(T.ones(1).sum(), a)),
        raises(lambda: T.autograd.grad([], [a])),
        raises(lambda: T.autograd.grad((a * 2).sum(), [])),
        T.autograd.grad([(a * 2).sum(), (a * 3).sum()], a, grad_outputs=[T.tensor(1.0), None]),
    )


@program()
def prog_ta2_retain_graph_errors_and_partial(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = y.sin()
    z.sum().backward(retain_graph=True)
    z.sum().backward()
    r1 = raises(lambda: z.sum().backward())
    y2 = x + 3  # no saved tensors
    y2.sum().backward()
    y2.sum().backward()
    y3 = x * 3  # the number is saved
    y3.sum().backward()
    r3 = raises(lambda: y3.sum().backward())
    w = x.exp()
    T.autograd.grad(w.sum(), x)
    r2 = raises(lambda: T.autograd.grad(w.sum(), x))
    return r1, r2, r3, x.grad


@program()
def prog_ta2_is_grads_batched_forms(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp() * 2
    eye = T.eye(3)
    (g,) = T.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True)
    (g2,) = T.autograd.grad(
        y.sum(), x, T.tensor([1.0, 2.0]), is_grads_batched=True, retain_graph=True
    )
    r = raises(lambda: T.autograd.grad(y, x, T.ones(3), is_grads_batched=True, retain_graph=True))
    r2 = raises(lambda: T.autograd.grad(y, x, T.ones(2, 4), is_grads_batched=True))
    return g, g2, r, r2


@program()
def prog_ta2_grad_outputs_forms_and_dtype(T: Any) -> Any:
    x = _t(T, 3)
    y = x * 2
    return (
        T.autograd.grad(y, x, T.ones(3, dtype=T.float64), retain_graph=True),
        raises(lambda: T.autograd.grad(y, x, T.ones(3, dtype=T.int64), retain_graph=True)),
        raises(lambda: T.autograd.grad(y, x, T.ones(2), retain_graph=True)),
        T.autograd.grad(y, x, T.ones(1).expand(3), retain_graph=True),
        raises(lambda: T.autograd.grad(y, x, [T.ones(3), T.ones(3)], retain_graph=True)),
        raises(lambda: T.autograd.grad(y, x, 1.0, retain_graph=True)),
        T.autograd.grad(y.sum(), x, T.tensor(2.0), retain_graph=True),
        raises(lambda: T.autograd.grad(y.sum(), x, T.tensor([2.0]), retain_graph=True)),
        T.autograd.grad(y.sum(), x, T.tensor(2.0, dtype=T.float16), retain_graph=True),
    )


@program()
def prog_ta2_backward_on_leaf_and_no_grad_tensor(T: Any) -> Any:
    x = _t(T, 3)
    x.backward(T.ones(3))
    g = x.grad.clone()
    x.sum().backward()
    n = T.ones(3)
    return g, x.grad, raises(lambda: n.sum().backward()), raises(lambda: n.backward(T.ones(3)))


# --- more: saved hooks with custom Functions, mutation, graph metadata ------------------------


@program()
def prog_ta2_custom_function_saved_tensors_packed(T: Any) -> Any:
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            out = x * y
            ctx.save_for_backward(x, out, None)
            return out

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, out, n = ctx.saved_tensors
            return g * out / x, g * x + (0 if n is None else 1)

    x = _t(T, 3)
    y = _t(T, 3, seed=1)
    seen, out = _packed(T, lambda: F.apply(x, y))
    out.sum().backward()
    return seen, x.grad, y.grad, out.grad_fn.name()


@program()
def prog_ta2_unpack_hook_result_used_by_backward(T: Any) -> Any:
    x = _t(T, 3)

    def unpack(t: Any) -> Any:
        return t * 2 if t.is_floating_point() else t

    with T.autograd.graph.saved_tensors_hooks(lambda t: t * 1, unpack):
        y = x.pow(2)
        m, i = x.sort()
    y.sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    m.sum().backward()
    return g1, x.grad, i


@program()
def prog_ta2_allow_mutation_on_saved_tensors_values(T: Any) -> Any:
    out = []
    with T.autograd.graph.allow_mutation_on_saved_tensors():
        x = _t(T, 3)
        y = x * 1
        z = y.sin()
        y.mul_(10)
        z.sum().backward()
        out.append((x.grad.clone(), y))
        a = _t(T, 3, seed=1)
        b = a.clone()
        c = b * b
        b.add_(1)
        b.add_(1)
        c.sum().backward()
        out.append(a.grad)
    out.append(
        raises(lambda: T.autograd.graph.allow_mutation_on_saved_tensors().__enter__().__enter__())
    )
    return out


@program()
def prog_ta2_allow_mutation_backward_outside_context(T: Any) -> Any:
    with T.autograd.graph.allow_mutation_on_saved_tensors():
        x = _t(T, 3)
        y = x.exp()
    return raises(lambda: y.sum().backward())


@program()
def prog_ta2_node_metadata_and_sequence(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    y.grad_fn.metadata["k"] = 1
    z = y * 2
    return (
        y.grad_fn.metadata,
        z.grad_fn.metadata,
        z.grad_fn._sequence_nr() > y.grad_fn._sequence_nr(),
        isinstance(y.grad_fn, T.autograd.graph.Node),
        isinstance(x, T.autograd.graph.Node),
        issubclass(type(y.grad_fn), T.autograd.graph.Node),
        y.grad_fn.next_functions[0][0].metadata,
    )


@program()
def prog_ta2_tensor_hook_on_non_requiring_and_remove_twice(T: Any) -> Any:
    x = T.ones(3)
    r = raises(lambda: x.register_hook(lambda g: g))
    y = _t(T, 3)
    h = y.register_hook(lambda g: g * 2)
    h.remove()
    h.remove()
    (y * 3).sum().backward()
    r2 = raises(lambda: y.register_post_accumulate_grad_hook(1))
    z = y * 2
    r3 = raises(lambda: z.register_post_accumulate_grad_hook(lambda t: None))
    return r, y.grad, r2, r3


@program()
def prog_ta2_hook_return_changes_dtype_bool_and_half(T: Any) -> Any:
    out = []
    for dt in (T.float64, T.float16, T.bool, T.complex128, T.int64):
        x = _t(T, 2)
        y = x * 1
        y.register_hook(lambda g, dt=dt: g.to(dt))
        out.append(raises(lambda y=y: y.sum().backward()))
    x = _t(T, 2)
    y = x * 1
    y.register_hook(lambda g: g.expand(2, 2))
    out.append(raises(lambda: y.sum().backward()))
    return out


@program()
def prog_ta2_grad_of_intermediate_with_inputs_and_hooks(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    y = x.exp()
    z = (y * 2).sum()
    y.register_hook(lambda g: log.append(g.clone()))
    (gy,) = T.autograd.grad(z, y, retain_graph=True)
    z.backward(inputs=[y])
    return gy, y.grad, x.grad, log


@program()
def prog_ta2_backward_create_graph_on_leaf_grad(T: Any) -> Any:
    x = _t(T, 3)
    y = (x**3).sum()
    y.backward(create_graph=True)
    g = x.grad
    g_rg = g.requires_grad
    g_fn = g.grad_fn
    x.grad = None
    g.sum().backward()
    return g, g_rg, g_fn, x.grad


@program()
def prog_ta2_double_backward_of_common_ops(T: Any) -> Any:
    out = {}
    for name, fn in (
        ("tanh", lambda a: a.tanh()),
        ("sigmoid", lambda a: a.sigmoid()),
        ("softmax", lambda a: a.softmax(0)),
        ("log_softmax", lambda a: a.log_softmax(0)),
        ("norm", lambda a: a.norm()),
        ("pow", lambda a: (a * a + 1) ** 2.5),
        ("atan2", lambda a: T.atan2(a, a.flip(0) + 3)),
        ("logsumexp", lambda a: a.logsumexp(0)),
        ("cumprod", lambda a: a.cumprod(0)),
        ("prod", lambda a: a.prod()),
        ("max", lambda a: a.max()),
        ("clamp", lambda a: a.clamp(-0.5, 0.5) ** 2),
    ):
        x = _t(T, 4, seed=3)
        y = fn(x).sum()
        (g,) = T.autograd.grad(y, x, create_graph=True)
        gg = raises(lambda g=g, x=x: T.autograd.grad(g.sum(), x, allow_unused=True))
        # the double-backward graph of norm differs in shape (see the report)
        out[name] = (g, gg, g.grad_fn if name != "norm" else g.grad_fn.name())
    return out


@program()
def prog_ta2_grad_with_only_inputs_that_are_views(T: Any) -> Any:
    x = _t(T, 4)
    v = x[1:3]
    y = (v * v).sum() + x.sum()
    return raises(lambda: T.autograd.grad(y, v, retain_graph=True)), T.autograd.grad(y, x)


@program()
def prog_ta2_grad_on_output_that_does_not_require_grad(T: Any) -> Any:
    x = _t(T, 3)
    with T.no_grad():
        y = x * 2
    return (
        raises(lambda: T.autograd.grad(y.sum(), x)),
        raises(lambda: T.autograd.grad(y.sum(), x, allow_unused=True)),
        raises(lambda: y.sum().backward()),
        raises(lambda: T.autograd.backward([y.sum()], [None])),
    )


@program()
def prog_ta2_backward_list_of_outputs_and_grads(T: Any) -> Any:
    x = _t(T, 3)
    a = x * 2
    b = x.exp()
    T.autograd.backward([a, b], [T.ones(3), T.full((3,), 0.5)], retain_graph=True)
    g1 = x.grad.clone()
    x.grad = None
    T.autograd.backward((a.sum(), b.sum()), retain_graph=True)
    return (
        g1,
        x.grad,
        raises(lambda: T.autograd.backward([a, b], [T.ones(3)])),
        raises(lambda: T.autograd.backward([a], [T.ones(3), T.ones(3)])),
    )


@program()
def prog_ta2_unpack_hook_result_for_saved_indices(T: Any) -> Any:
    out = {}
    idx = T.tensor([[2, 0], [1, 1]])
    for name, fn in (
        ("sort", lambda a: a.sort().values),
        ("max", lambda a: a.max(1).values),
        ("gather", lambda a: a.gather(1, idx)),
        ("index", lambda a: a[T.tensor([1, 0]), T.tensor([0, 2])]),
        ("index_select", lambda a: a.index_select(1, T.tensor([2, 1]))),
    ):
        x = _t(T, 2, 3)
        log = []

        def unpack(t: Any, log: Any = log) -> Any:
            log.append(str(t.dtype))
            return t if t.is_floating_point() else t.flip(0)

        with T.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            m = fn(x)
        w = T.arange(float(m.numel())).reshape(m.shape)
        (m * w).sum().backward(retain_graph=True)
        g1 = x.grad.clone()
        (m * w).sum().backward()
        out[name] = (g1, x.grad, sorted(log))
    return out


# --- more forward AD ------------------------------------------------------------------------


@program()
def prog_ta2_fwad_make_dual_on_views_and_noncontiguous(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3, 4, rg=False)
    out = []
    with fwAD.dual_level():
        t = T.ones(4, 3).t()  # non-contiguous tangent
        d = fwAD.make_dual(x, t)
        out.append(fwAD.unpack_dual(d).tangent.is_contiguous())
        out.append(fwAD.unpack_dual(d).tangent)
        v = x[1]
        dv = fwAD.make_dual(v, T.full((4,), 2.0))
        out.append(fwAD.unpack_dual(dv).tangent)
        out.append(fwAD.unpack_dual(x).tangent)
        e = fwAD.make_dual(x, T.ones(1, 4).expand(3, 4))
        out.append(fwAD.unpack_dual(e).tangent)
        out.append(fwAD.unpack_dual(e * 2).tangent)
    return out


@program()
def prog_ta2_fwad_integer_and_complex_duals(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    z = _z(T, 3)
    out = []
    with fwAD.dual_level():
        d = fwAD.make_dual(z, _z(T, 3, seed=4))
        out.append(fwAD.unpack_dual(d * d).tangent)
        out.append(fwAD.unpack_dual(d.abs()).tangent)
        out.append(fwAD.unpack_dual(d.real).tangent)
        out.append(fwAD.unpack_dual(d.conj()).tangent)
        out.append(raises(lambda: fwAD.make_dual(T.ones(3, dtype=T.int32), T.ones(3))))
        out.append(raises(lambda: fwAD.make_dual(T.ones(3), _z(T, 3))))
    return out


@program()
def prog_ta2_fwad_jvp_matches_functional_jvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    AF = T.autograd.functional
    x = _t(T, 4, rg=False)
    v = _t(T, 4, seed=9, rg=False)

    def f(a: Any) -> Any:
        return (a.sin() * a.cos()).cumsum(0) / (1 + a * a)

    with fwAD.dual_level():
        t1 = fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent
    _, t2 = AF.jvp(f, x, v)
    return t1, t2


@program()
def prog_ta2_fwad_inplace_on_dual_leaf_requiring_grad(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.ones(3))
        r = raises(lambda: d.mul_(2))
        e = d * 1
        e.mul_(2)
        t = fwAD.unpack_dual(e).tangent.detach()  # torch's tangent here has a CopyBackwards node
    return r, t, e


@program()
def prog_ta2_fwad_linear_and_matmul_tangents(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 2, 3, rg=False)
    w = _t(T, 4, 3, seed=1, rg=False)
    b = _t(T, 4, seed=2, rg=False)
    with fwAD.dual_level():
        dx = fwAD.make_dual(x, T.ones(2, 3))
        dw = fwAD.make_dual(w, T.full((4, 3), 0.5))
        y = T.nn.functional.linear(dx, dw, b)
        z = dx @ dw.t()
        q = T.nn.functional.layer_norm(dx, (3,))
        return (
            fwAD.unpack_dual(y).tangent,
            fwAD.unpack_dual(z).tangent,
            fwAD.unpack_dual(q).tangent,
        )


# --- more anomaly / checkpoint --------------------------------------------------------------


@program()
def prog_ta2_anomaly_mode_state_and_nesting(T: Any) -> Any:
    out = [T.is_anomaly_enabled()]
    with T.autograd.detect_anomaly():
        out.append(T.is_anomaly_enabled())
        with T.autograd.set_detect_anomaly(False):
            out.append(T.is_anomaly_enabled())
        out.append(T.is_anomaly_enabled())
    out.append(T.is_anomaly_enabled())
    T.autograd.set_detect_anomaly(True)
    out.append(T.is_anomaly_enabled())
    T.autograd.set_detect_anomaly(False)
    out.append(T.is_anomaly_enabled())
    return out


@program()
def prog_ta2_anomaly_inplace_error_message_in_mode(T: Any) -> Any:
    x = _t(T, 3)

    def go() -> Any:
        with T.autograd.detect_anomaly():
            y = x.exp()
            y.add_(1)
            y.sum().backward()

    return raises(go)


@program()
def prog_ta2_checkpoint_with_inplace_on_input(T: Any) -> Any:
    cp = _ckpt(T)
    out = {}
    for reentrant in (True, False):
        x = _t(T, 3)
        a = x * 1

        def f(t: Any) -> Any:
            return t.exp() * 2

        y = cp.checkpoint(f, a, use_reentrant=reentrant)
        a.mul_(2)
        out[reentrant] = raises(lambda y=y, x=x: (y.sum().backward(), x.grad)[1])
    return out


@program()
def prog_ta2_checkpoint_multiple_inputs_some_not_tensors(T: Any) -> Any:
    cp = _ckpt(T)
    out = {}
    for reentrant in (True, False):
        a = _t(T, 3)
        b = _t(T, 3, seed=1, rg=False)

        def f(x: Any, s: float, y: Any, flag: bool) -> Any:
            return (x * s + y) if flag else x

        y = cp.checkpoint(f, a, 3.0, b, True, use_reentrant=reentrant)
        y.sum().backward()
        out[reentrant] = (y, a.grad, b.grad, y.requires_grad)
    return out


@program()
def prog_ta2_checkpoint_in_no_grad_and_nested(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)
    out = {}
    for reentrant in (True, False):
        with T.no_grad():
            y = cp.checkpoint(lambda a: a * 2, x, use_reentrant=reentrant)
        x.grad = None
        z = cp.checkpoint(
            lambda a, r=reentrant: cp.checkpoint(lambda b: b.sin(), a, use_reentrant=r) * 3,
            x,
            use_reentrant=reentrant,
        )
        z.sum().backward()
        out[reentrant] = (y.requires_grad, z, x.grad.clone())
    return out


# --- more functional -------------------------------------------------------------------------


@program()
def prog_ta2_functional_jacobian_of_non_differentiable_output(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3, rg=False)
    return (
        AF.jacobian(lambda x: (x > 0).float(), a),
        raises(lambda: AF.jacobian(lambda x: (x > 0).float(), a, strict=True)),
        AF.jacobian(lambda x: x.argmax(), a),
        AF.jacobian(lambda x: x.detach() * 2, a),
        AF.hessian(lambda x: x.detach().sum(), a),
    )


@program()
def prog_ta2_functional_vhp_hvp_multiple_inputs(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 2, rg=False)
    b = _t(T, 2, seed=1, rg=False)
    va = T.tensor([1.0, 0.0])
    vb = T.tensor([0.5, 2.0])

    def f(x: Any, y: Any) -> Any:
        return (x * x * y).sum() + y.exp().sum()

    return (
        AF.vhp(f, (a, b), (va, vb)),
        AF.hvp(f, (a, b), (va, vb)),
        raises(lambda: AF.vhp(f, (a, b), (va,))),
        raises(lambda: AF.hvp(f, (a, b), va)),
    )


@program()
def prog_ta2_functional_does_not_touch_user_grad_state(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3)  # requires grad: functional detaches its own copy
    j = AF.jacobian(lambda x: x * 2, a)
    h = AF.hessian(lambda x: (x**3).sum(), a)
    with T.no_grad():
        j2 = AF.jacobian(lambda x: x.exp(), a)
    return j, h, a.grad, j2, T.is_grad_enabled()


# --- batch 3: options, errors and corners ---------------------------------------------------


@program()
def prog_ta2_checkpoint_option_errors(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)
    f = lambda a: a * 2  # noqa: E731
    return (
        raises(lambda: cp.checkpoint(f, x, use_reentrant=True, context_fn=lambda: (None, None))),
        raises(lambda: cp.checkpoint(f, x, use_reentrant=True, debug=True)),
        raises(lambda: cp.checkpoint(f, x, use_reentrant=False, determinism_check="bogus")),
        raises(lambda: cp.checkpoint(f, x, use_reentrant=True, determinism_check="none")),
        cp.checkpoint(f, x, use_reentrant=False, determinism_check="none"),
        cp.checkpoint(f, x, use_reentrant=False, preserve_rng_state=False),
        cp.checkpoint(f, x, use_reentrant=True, preserve_rng_state=False),
    )


@program()
def prog_ta2_checkpoint_context_fn_runs_in_both_passes(T: Any) -> Any:
    import contextlib

    cp = _ckpt(T)
    log = []

    @contextlib.contextmanager
    def tag(name: str) -> Any:
        log.append(("enter", name))
        yield
        log.append(("exit", name))

    x = _t(T, 3)
    y = cp.checkpoint(
        lambda a: a.sin() * a,
        x,
        use_reentrant=False,
        context_fn=lambda: (tag("forward"), tag("recompute")),
    )
    log.append("before backward")
    y.sum().backward()
    return log, x.grad


@program()
def prog_ta2_checkpoint_early_stop_and_output_only_non_tensor(T: Any) -> Any:
    cp = _ckpt(T)
    out = {}
    for early in (True, False):
        calls = []
        x = _t(T, 3)

        def f(a: Any, calls: Any = calls) -> Any:
            calls.append("a")
            b = a.exp()
            calls.append("b")
            return b.sin()

        with cp.set_checkpoint_early_stop(early):
            y = cp.checkpoint(f, x, use_reentrant=False)
        y.sum().backward()
        out[early] = (calls, x.grad)
    x = _t(T, 3)
    out["number"] = cp.checkpoint(lambda a: 5, x, use_reentrant=False)
    out["reentrant_number"] = raises(lambda: cp.checkpoint(lambda a: 5, x, use_reentrant=True))
    return out


@program()
def prog_ta2_functional_jacobian_vectorize_create_graph(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3)
    j = AF.jacobian(lambda x: x.sin() * x, a, create_graph=True, vectorize=True)
    (g,) = T.autograd.grad(j.sum(), a)
    h = AF.hessian(lambda x: (x.exp() * x).sum(), a, create_graph=True)
    (gh,) = T.autograd.grad(h.sum(), a)
    return j, g, h, gh, j.grad_fn is not None, h.requires_grad


@program()
def prog_ta2_functional_jvp_vjp_outputs_tuple_and_scalar_v(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 2, rg=False)
    b = _t(T, 2, seed=1, rg=False)

    def f(x: Any, y: Any) -> Any:
        return x * y, (x + y).sum()

    return (
        AF.vjp(f, (a, b), (T.ones(2), T.tensor(2.0))),
        AF.jvp(f, (a, b), (T.ones(2), T.zeros(2))),
        raises(lambda: AF.vjp(f, (a, b), T.ones(2))),
        raises(lambda: AF.vjp(f, (a, b), (T.ones(2), T.ones(1)))),
        AF.vjp(lambda x: x.sum(), a, T.tensor(3.0)),
        raises(lambda: AF.vjp(lambda x: x.sum(), a, T.ones(2))),
    )


@program()
def prog_ta2_is_grads_batched_with_unused_and_materialize(T: Any) -> Any:
    x = _t(T, 3)
    z = _t(T, 3, seed=1)
    y = x * 2
    v = T.eye(3)
    return (
        T.autograd.grad(y, [x, z], v, is_grads_batched=True, allow_unused=True, retain_graph=True),
        T.autograd.grad(
            y, [x, z], v, is_grads_batched=True, materialize_grads=True, retain_graph=True
        ),
        raises(lambda: T.autograd.grad(y, [x, z], v, is_grads_batched=True, retain_graph=True)),
        raises(
            lambda: T.autograd.grad(
                y.sum(), [x, T.autograd.graph.get_gradient_edge(z)], materialize_grads=True
            )
        ),
    )


@program()
def prog_ta2_backward_inputs_with_hooks_and_partial_graph(T: Any) -> Any:
    log = []
    a = _t(T, 3)
    b = _t(T, 3, seed=1)
    c = a * b
    d = c.exp()
    c.register_hook(lambda g: log.append(("c", g.clone())))
    b.register_hook(lambda g: log.append(("b", g.clone())))
    a.register_post_accumulate_grad_hook(lambda t: log.append(("a_acc", t.grad.clone())))
    d.sum().backward(inputs=[b], retain_graph=True)
    d.sum().backward(inputs=[a, c])
    return log, a.grad, b.grad, c.grad


@program()
def prog_ta2_grad_unreachable_and_not_requiring_messages(T: Any) -> Any:
    a = _t(T, 3)
    b = _t(T, 3, seed=1)
    nr = T.ones(3)
    y = (a * 2).sum()
    return (
        raises(lambda: T.autograd.grad(y, b, retain_graph=True)),
        raises(lambda: T.autograd.grad(y, nr, retain_graph=True)),
        raises(lambda: T.autograd.grad(y, [a, nr], retain_graph=True)),
        raises(lambda: T.autograd.grad(y, [a, a], retain_graph=True)),
        raises(lambda: T.autograd.grad(y, (a,), grad_outputs=(T.ones(()), T.ones(())))),
    )


@program()
def prog_ta2_complex_real_imag_and_view_as_real_grads(T: Any) -> Any:
    zr = _t(T, 3, 2)
    z = T.view_as_complex(zr)
    out = [z.grad_fn]
    y = z.real * 2 + z.imag * 3 + T.view_as_real(z * z).sum(-1)
    y.sum().backward()
    out.append(zr.grad)
    wr = _t(T, 3, seed=2)
    w = T.complex(wr, _t(T, 3, seed=3))
    out.append(T.autograd.grad((w.abs() + w.angle()).sum(), wr))
    x = _t(T, 3, seed=4)
    out.append(T.autograd.grad((x.angle() + x.sgn() * 2).sum(), x))
    out.append(raises(lambda: T.autograd.grad((x * 1j).sum(), x)))
    out.append(T.autograd.grad((x * 1j).abs().sum(), x))
    return out


@program()
def prog_ta2_complex_leaf_grad_conjugate_convention(T: Any) -> Any:
    z = T.tensor([1 + 2j, -0.5 + 1j], requires_grad=True)
    (z * z.conj()).real.sum().backward()
    g1 = z.grad.clone()
    z.grad = None
    (z.abs() ** 2).sum().backward()
    g2 = z.grad.clone()
    z.grad = None
    (z * (2 - 1j)).real.sum().backward()
    g3 = z.grad.clone()
    z.grad = None
    T.view_as_real(z.exp()).sum().backward()
    return g1, g2, g3, z.grad


@program()
def prog_ta2_fwad_inplace_view_ops_on_dual(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    out = []
    with fwAD.dual_level():
        d = fwAD.make_dual(_t(T, 2, 3, rg=False), _t(T, 2, 3, seed=1, rg=False))
        e = d.clone()
        e.transpose_(0, 1)
        out.append((e.shape, fwAD.unpack_dual(e).tangent))
        e.unsqueeze_(0)
        out.append((e.shape, fwAD.unpack_dual(e).tangent.shape))
        e.squeeze_()
        e.transpose_(0, 1)
        out.append(fwAD.unpack_dual(e).tangent)
        f = d.clone()
        f.detach_()
        out.append(fwAD.unpack_dual(f).tangent)
        g = d.clone()
        g.requires_grad_()
        out.append((g.requires_grad, fwAD.unpack_dual(g).tangent is not None))
    return out


@program()
def prog_ta2_fwad_custom_function_mark_dirty_and_views(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def jvp(ctx: Any, t: Any) -> Any:
            t.mul_(2)
            return t

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    class View(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x.view(-1)

        @staticmethod
        def jvp(ctx: Any, t: Any) -> Any:
            return t.view(-1)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g.view(2, 2)

    with fwAD.dual_level():
        d = fwAD.make_dual(_t(T, 2, 2, rg=False), T.ones(2, 2))
        c = d.clone()
        r = Double.apply(c)
        a = (r is c, fwAD.unpack_dual(c).tangent)
        v = View.apply(d)
        b = (v._base is d, fwAD.unpack_dual(v).tangent)
    return a, b


@program()
def prog_ta2_fwad_tangent_of_out_of_place_with_plain_operand(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = _t(T, 3, rg=False)
    w = _t(T, 3, seed=1, rg=False)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.tensor([1.0, 2.0, 3.0]))
        res = {
            "where": fwAD.unpack_dual(T.where(w > 0, d, w)).tangent,
            "where2": fwAD.unpack_dual(T.where(w > 0, w, d)).tangent,
            "cat": fwAD.unpack_dual(T.cat([w, d])).tangent,
            "stack": fwAD.unpack_dual(T.stack([d, w])).tangent,
            "max": fwAD.unpack_dual(T.maximum(d, w)).tangent,
            "clamp": fwAD.unpack_dual(d.clamp(min=w)).tangent,
            "index_put": fwAD.unpack_dual(w.index_put((T.tensor([0, 2]),), d[:2])).tangent,
            "masked": fwAD.unpack_dual(w.masked_scatter(w > 0, d)).tangent,
        }
    return res


@program()
def prog_ta2_anomaly_forward_trace_warning_and_grad_mode(T: Any) -> Any:
    x = _t(T, 2)

    def go() -> Any:
        with T.autograd.detect_anomaly():
            y = x.log() * 0  # log of a negative: nan in the forward, its backward too
            z = (y * float("inf")).sum()
            z.backward()

    r = raises(go)
    return r, x.grad


@program()
def prog_ta2_node_hooks_see_none_for_unused_inputs(T: Any) -> Any:
    log = []
    a = _t(T, 3)
    b = T.ones(3)  # does not require grad
    y = a * b
    y.grad_fn.register_hook(
        lambda gi, go: log.append([None if g is None else tuple(g.shape) for g in gi])
    )
    y.grad_fn.register_prehook(lambda go: log.append(("pre", len(go))))
    y.sum().backward()
    c = T.stack([a, a * 2]).unbind(0)
    c[0].grad_fn.register_prehook(lambda go: log.append([None if g is None else 1 for g in go]))
    c[0].sum().backward()
    return log, a.grad


@program()
def prog_ta2_retain_graph_freed_saved_access_on_multiple_nodes(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = y.sin()
    w = z * y
    w.sum().backward(retain_graph=False)
    return (
        raises(lambda: w.grad_fn._saved_self),
        raises(lambda: z.grad_fn._saved_self),
        raises(lambda: y.grad_fn._saved_result),
        raises(lambda: w.sum().backward()),
        raises(lambda: T.autograd.grad(z.sum(), x)),
        x.grad,
    )


@program()
def prog_ta2_create_graph_hooks_and_grad_of_grad_with_inplace(T: Any) -> Any:
    x = _t(T, 3)
    y = x**3
    y.register_hook(lambda g: g * 2)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    g2 = g.clone()
    g2.mul_(3)
    (gg,) = T.autograd.grad(g2.sum(), x)
    return g, g.grad_fn, g2.grad_fn, gg


@program()
def prog_ta2_fwad_inplace_view_op_changes_the_tangent_itself(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    with fwAD.dual_level():
        x = _t(T, 2, 3, rg=False)
        t = T.arange(6.0).reshape(2, 3)
        d = fwAD.make_dual(x, t)
        d.t_()
        a = (d.shape, x.shape, t.shape, fwAD.unpack_dual(d).tangent is t)
        d2 = fwAD.make_dual(_t(T, 2, 3, seed=1, rg=False), T.ones(2, 3))
        v = d2[0]
        v.unsqueeze_(0)
        tv = fwAD.unpack_dual(v).tangent
        v.squeeze_(0)
        b = (v.shape, tv.shape)
    return a, b


# --- batch 4: callbacks, node calls, hook names, saved hooks during backward ----------------


@program()
def prog_ta2_queue_callback_order_and_nested(T: Any) -> Any:
    log = []
    eng = T.autograd.Variable._execution_engine
    x = _t(T, 3)
    y = x * 2

    def cb2() -> None:
        log.append(("cb2", x.grad is not None))

    def cb1() -> None:
        log.append(("cb1", x.grad is not None))
        eng.queue_callback(cb2)

    def hook(g: Any) -> Any:
        eng.queue_callback(cb1)
        log.append("hook")
        return g

    y.register_hook(hook)
    y.sum().backward()
    r = raises(lambda: eng.queue_callback(cb1))
    return log, r


@program()
def prog_ta2_callback_error_propagates(T: Any) -> Any:
    eng = T.autograd.Variable._execution_engine
    x = _t(T, 3)
    y = x * 2

    def bad() -> None:
        raise ValueError("callback failed")

    y.register_hook(lambda g: eng.queue_callback(bad))
    r = raises(lambda: y.sum().backward())
    return r, x.grad


@program()
def prog_ta2_grad_fn_called_directly_bad_calls(T: Any) -> Any:
    x = _t(T, 3)
    y = x.exp()
    z = x * x
    n = z.grad_fn
    return (
        y.grad_fn(T.ones(3)),
        raises(lambda: y.grad_fn(T.ones(3), T.ones(3))),
        raises(lambda: y.grad_fn()),
        n(T.ones(3)),
        raises(lambda: n(1.0)),
    )


@program()
def prog_ta2_hook_names_in_messages_partial_and_class(T: Any) -> Any:
    import functools

    out = []

    def to_double(g: Any, scale: float) -> Any:
        return (g * scale).double()

    class Hook:
        def __call__(self, g: Any) -> Any:
            return g[:1]

    for h in (functools.partial(to_double, scale=2.0), Hook(), lambda g: g.long()):
        x = _t(T, 3)
        y = x * 1
        y.register_hook(h)
        out.append(raises(lambda y=y: y.sum().backward()))
    return out


@program()
def prog_ta2_saved_hooks_entered_during_backward(T: Any) -> Any:
    log = []
    x = _t(T, 3)

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (a,) = ctx.saved_tensors
            with (
                T.enable_grad(),
                T.autograd.graph.saved_tensors_hooks(
                    lambda t: (log.append(("pack", tuple(t.shape))), t)[1], lambda t: t
                ),
            ):
                b = a.detach().requires_grad_() ** 2
                (gb,) = T.autograd.grad(b.sum(), b)
            return g * 2 + gb * 0

    F.apply(x).sum().backward()
    return log, x.grad


@program()
def prog_ta2_saved_hooks_context_exit_errors(T: Any) -> Any:
    h = T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
    r = raises(lambda: T.autograd.graph.saved_tensors_hooks(1, lambda t: t).__enter__())
    x = _t(T, 3)
    with h:
        y = x.exp()
    with h:  # re-entering the same object
        z = x.sin()
    (y + z).sum().backward()
    return r, x.grad


@program()
def prog_ta2_retain_grad_inplace_multiple_outputs_and_views(T: Any) -> Any:
    x = _t(T, 4)
    a, b = (x * 1)[:2], (x * 2)[2:]
    a.retain_grad()
    b.retain_grad()
    a.mul_(2)
    v = b.view(2, 1)
    v.retain_grad()
    (a.sum() * 3 + v.sum() * 5).backward()
    return a.grad, b.grad, v.grad, x.grad, a.grad_fn, b.grad_fn


@program()
def prog_ta2_detach_base_and_view_grad_fns(T: Any) -> Any:
    x = _t(T, 3, 3)
    y = x * 2
    v = y[1]
    d = y.detach()
    d.zero_()  # shares y's version counter
    r1 = raises(lambda: v.sum().backward(retain_graph=True))
    w = x[0]
    dw = w.detach()
    return (
        r1,
        d._version,
        y._version,
        v._version,
        dw._base is None,
        dw.is_leaf,
        dw.requires_grad,
        raises(lambda: w.detach_()),
    )


@program()
def prog_ta2_requires_grad_factories_and_errors(T: Any) -> Any:
    out = []
    for fn in (
        lambda: T.zeros(2, requires_grad=True),
        lambda: T.ones(2, dtype=T.float64, requires_grad=True),
        lambda: T.arange(3.0, requires_grad=True),
        lambda: T.linspace(0, 1, 3, requires_grad=True),
        lambda: T.full((2,), 1.5, requires_grad=True),
        lambda: T.eye(2, requires_grad=True),
        lambda: T.empty(2, requires_grad=True).shape,
        lambda: T.zeros(2, dtype=T.int64, requires_grad=True),
        lambda: T.arange(3, requires_grad=True),
        lambda: T.tensor([1, 2], requires_grad=True),
        lambda: T.ones(2, dtype=T.bool, requires_grad=True),
        lambda: T.randn(2, requires_grad=True).requires_grad,
        lambda: T.zeros_like(T.ones(2), requires_grad=True),
        lambda: T.ones(2).new_zeros(3, requires_grad=True),
    ):
        out.append(raises(fn))
    return out


@program()
def prog_ta2_too_many_and_too_few_grads_custom(T: Any) -> Any:
    class TooMany(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            return a * 1

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g, None, None

    class TooManyT(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            return a * 1

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g, g

    class TooFew(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            return a * b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return (g,)

    x = _t(T, 3)
    y = _t(T, 3, seed=1)
    a = raises(lambda: (TooMany.apply(x).sum().backward(), x.grad)[1])
    b = raises(lambda: TooManyT.apply(x).sum().backward())
    c = raises(lambda: TooFew.apply(x, y).sum().backward())
    return a, b, c


@program()
def prog_ta2_unused_output_and_dep_nograd(T: Any) -> Any:
    x = _t(T, 3)
    _a, b = x.exp().chunk(3)[:2]
    b.sum().backward()
    g1 = x.grad.clone()

    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, t: Any) -> Any:
            return t * 2, t.detach() * 3

        @staticmethod
        def backward(ctx: Any, g1: Any, g2: Any) -> Any:
            return g1 * 2 + (0 if g2 is None else g2)

    x.grad = None
    p, q = F.apply(x)
    p.sum().backward()
    return g1, x.grad, q.requires_grad, q.grad_fn, p.grad_fn.name()


@program()
def prog_ta2_no_grad_assignment_and_copy(T: Any) -> Any:
    x = _t(T, 3)
    y = T.zeros(3)
    with T.no_grad():
        y[0] = x[0]
        z = x.clone()
        y.copy_(x)
    w = T.zeros(3)
    w.copy_(x)
    w.sum().backward()
    return y.requires_grad, z.requires_grad, w.grad_fn, x.grad, y


@program()
def prog_ta2_free_deep_graph_and_long_chain_grads(T: Any) -> Any:
    x = _t(T, 2)
    y = x
    for _ in range(3000):
        y = y * 1.0001
    y.sum().backward()
    z = x
    for _ in range(500):
        z = z.sin() + z * 0.1
    (g,) = T.autograd.grad(z.sum(), x)
    return x.grad, g


# --- batch 5 -------------------------------------------------------------------------------


@program()
def prog_ta2_multi_grad_hook_any_with_autograd_grad_and_removal(T: Any) -> Any:
    log = []
    a = _t(T, 2)
    b = _t(T, 2, seed=1)
    h = T.autograd.graph.register_multi_grad_hook(
        (a, b), lambda g: log.append(("any", g.clone())), mode="any"
    )
    T.autograd.grad((a * 3 + b).sum(), [a, b])
    (b * 5).sum().backward()
    h.remove()
    (a * 7).sum().backward()
    n = T.ones(2)
    r = raises(lambda: T.autograd.graph.register_multi_grad_hook((a, n), lambda gs: None))
    return log, a.grad, b.grad, r


@program()
def prog_ta2_multi_grad_hook_all_grads_none_for_unreached(T: Any) -> Any:
    log = []
    a = _t(T, 2)
    b = _t(T, 2, seed=1)
    c = a * 2  # a non-leaf among the tensors
    T.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda gs: log.append([None if g is None else g.clone() for g in gs])
    )
    (c * 3).sum().backward(retain_graph=True)
    (b * 2 + c).sum().backward()
    return log


@program()
def prog_ta2_post_accumulate_hook_errors_and_order(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    x.register_hook(lambda g: log.append(("pre", g.clone())) or g * 2)
    x.register_post_accumulate_grad_hook(lambda t: log.append(("post", t.grad.clone())))

    def scale(t: Any) -> None:
        t.grad.mul_(10)

    x.register_post_accumulate_grad_hook(scale)
    (x * 1).sum().backward()
    (x * 1).sum().backward()
    v = x[:2]
    r = raises(lambda: v.register_post_accumulate_grad_hook(lambda t: None))
    return log, x.grad, r


@program()
def prog_ta2_grad_only_inputs_false_and_deprecations(T: Any) -> Any:
    x = _t(T, 3)
    y = (x * 2).sum()
    return (
        T.autograd.grad(y, x, only_inputs=True, retain_graph=True),
        raises(lambda: T.autograd.grad(y, x, only_inputs=False)),
    )


@program()
def prog_ta2_custom_function_raw_saved_and_saved_values(T: Any) -> Any:
    class F(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            out = a * b
            ctx.save_for_backward(a, out)
            ctx.k = 3
            return out

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            a, out = ctx.saved_tensors
            return g * out / a * ctx.k, None

    x = _t(T, 3)
    y = _t(T, 3, seed=1, rg=False)
    o = F.apply(x, y)
    n = o.grad_fn
    raw = n._raw_saved_tensors
    out = [
        len(raw),
        [type(r).__name__ for r in raw],
        n.saved_tensors[0] is x,
        n.saved_tensors[1] is o,
        n.k,
        n.needs_input_grad,
        raises(lambda: raw[0].register_hooks(lambda t: t)),
    ]
    o.sum().backward()
    out.append(x.grad)
    out.append(raises(lambda: n.saved_tensors))
    out.append(raises(lambda: n._raw_saved_tensors))
    return out


@program()
def prog_ta2_raw_saved_hooks_pack_runs_at_registration(T: Any) -> Any:
    log = []
    x = _t(T, 3)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self

    def pack(t: Any) -> Any:
        log.append(("pack", t is x))
        return t.detach() * 1

    def unpack(t: Any) -> Any:
        log.append("unpack")
        return t

    raw.register_hooks(pack, unpack)
    log.append("registered")
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    return log, x.grad


@program()
def prog_ta2_saved_output_hooks_and_version(T: Any) -> Any:
    log = []
    x = _t(T, 3)

    def pack(t: Any) -> Any:
        log.append((tuple(t.shape), t.grad_fn is not None, t._version))
        return t

    with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x.exp()
        z = y.tanh()
        w = z.sigmoid().relu()
    w.sum().backward()
    return log, x.grad


@program(
    xfail="allow_mutation_on_saved_tensors: torch clones a saved tensor before an in-place op on "
    "a tensor with the same data_ptr (a saved offset view mutated through its base is not "
    "cloned, so backward reads the new values); shadowgrad copies every saved tensor when it is "
    "packed and, seeing only the version counter, gives back the copy"
)
def prog_ta2_allow_mutation_saved_view_mutated_through_base(T: Any) -> Any:
    with T.autograd.graph.allow_mutation_on_saved_tensors():
        x = _t(T, 4)
        b = x * 1
        v = b[1:3]
        y = (v * v).sum() + (b * 2).sum()
        b.add_(1)
        y.backward()
    return x.grad


@program()
def prog_ta2_allow_mutation_saved_base_and_same_start_view(T: Any) -> Any:
    with T.autograd.graph.allow_mutation_on_saved_tensors():
        x = _t(T, 4)
        b = x * 1
        y = (b * b).sum()
        b[:2].add_(1)  # a view starting where b starts: torch clones b first
        y.backward()
        g1 = x.grad.clone()
        x.grad = None
        c = x * 1
        z = c.sin()
        c[0] = 100.0
        z.sum().backward()
    return g1, x.grad, c


@program()
def prog_ta2_anomaly_nan_in_custom_function_outputs(T: Any) -> Any:
    class NanBack(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            return a * b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g, g * float("nan")

    x = _t(T, 2)
    y = _t(T, 2, seed=1)

    def go() -> Any:
        with T.autograd.detect_anomaly():
            NanBack.apply(x, y).sum().backward()

    def go_nocheck() -> Any:
        with T.autograd.detect_anomaly(check_nan=False):
            NanBack.apply(x, y).sum().backward()
        return y.grad

    return raises(go), raises(go_nocheck)


@program()
def prog_ta2_anomaly_enable_warning_and_decorator(T: Any) -> Any:
    def f(a: Any) -> Any:
        return T.is_anomaly_enabled(), (a * 2).sum()

    r = raises(lambda: T.autograd.detect_anomaly()(f))
    x = _t(T, 2)
    with T.autograd.detect_anomaly():
        flag, y = f(x)
    y.backward()
    return r, flag, T.is_anomaly_enabled(), x.grad


@program()
def prog_ta2_checkpoint_reentrant_kwargs_and_warnings(T: Any) -> Any:
    cp = _ckpt(T)
    x = _t(T, 3)

    def f(a: Any, scale: float = 1.0) -> Any:
        return a * scale

    r = raises(lambda: cp.checkpoint(f, x, use_reentrant=True, scale=2.0))
    y = cp.checkpoint(f, x, 2.0, use_reentrant=True)
    y.sum().backward()
    return r, x.grad, y.grad_fn.name()


@program()
def prog_ta2_checkpoint_output_views_and_inplace_after(T: Any) -> Any:
    cp = _ckpt(T)
    out = {}
    for reentrant in (True, False):
        x = _t(T, 4)
        y = cp.checkpoint(lambda a: a.exp(), x, use_reentrant=reentrant)
        v = y[1:3]
        r = raises(lambda v=v: v.mul_(2))
        w = y * 1
        w.mul_(2)
        w.sum().backward()
        out[reentrant] = (r, x.grad, v.grad_fn.name())
    return out


@program()
def prog_ta2_functional_jacobian_integer_input_and_no_grad_output(T: Any) -> Any:
    AF = T.autograd.functional
    xi = T.tensor([1, 2, 3])
    a = _t(T, 3, rg=False)
    return (
        raises(lambda: AF.jacobian(lambda x: x * 2, xi)),
        raises(lambda: AF.jacobian(lambda x: x.long(), a, strict=True)),
        AF.jacobian(lambda x: x.long(), a),
        raises(lambda: AF.vjp(lambda x: x.long(), a, T.ones(3, dtype=T.int64))),
    )


@program()
def prog_ta2_functional_hvp_vhp_non_scalar_and_strict(T: Any) -> Any:
    AF = T.autograd.functional
    a = _t(T, 3, rg=False)
    v = T.ones(3)
    return (
        raises(lambda: AF.hvp(lambda x: x * 2, a, v)),
        raises(lambda: AF.vhp(lambda x: x.exp(), a, v)),
        raises(lambda: AF.hvp(lambda x: x.sum(), a, v, strict=True)),
        AF.hvp(lambda x: x.sum(), a, v),
        raises(lambda: AF.vhp(lambda x: (x**2).sum(), a, v[:2])),
    )


@program()
def prog_ta2_grad_of_view_of_leaf_and_inputs_views(T: Any) -> Any:
    x = _t(T, 3, 2)
    v = x.t()
    y = (v * v).sum()
    return (
        T.autograd.grad(y, x, retain_graph=True),
        raises(lambda: T.autograd.grad(y, v, retain_graph=True)),
        T.autograd.grad(y, [x, x], retain_graph=True),
        raises(lambda: y.backward(inputs=[v])),
    )


@program()
def prog_ta2_backward_twice_accumulates_and_zero_grad_modes(T: Any) -> Any:
    x = _t(T, 3)
    (x * 2).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    same = x.grad is g
    x.grad.zero_()
    (x * 4).sum().backward()
    x.grad = None
    (x * 5).sum().backward(create_graph=True)
    cg = x.grad.requires_grad
    (x * 6).sum().backward()
    return same, g, x.grad, cg


@program()
def prog_ta2_complex_linear_ops_and_real_operands(T: Any) -> Any:
    z = _z(T, 3, seed=5)
    out = {}
    for name, fn in (
        ("masked_scatter", lambda x: z.masked_scatter(T.tensor([True, False, True]), x + 0j)),
        ("trapezoid", lambda x: T.trapezoid(z, x)),
        ("cumulative_trapezoid", lambda x: T.cumulative_trapezoid(z, x)),
        ("trapezoid_dx", lambda x: T.trapezoid(x * z, dx=0.5)),
        ("outer", lambda x: T.outer(x, z)),
        ("kron", lambda x: T.kron(x, z)),
        ("hstack", lambda x: T.hstack([x, z])),
        ("broadcast", lambda x: T.broadcast_tensors(x, z)[0] * z),
        ("std", lambda x: (x * z).std()),
        ("nansum_complex_dtype", lambda x: x.nansum(dtype=T.complex64)),
        ("vdot", lambda x: T.vdot(x.to(T.complex64), z)),
    ):
        x = _t(T, 3, seed=6)
        out[name] = _back(lambda f=fn, x=x: f(x), x)
    return out


@program()
def prog_ta2_norm_double_backward_graphs_and_saved_dim(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    for name, fn in (
        ("norm", lambda a: a.norm()),
        ("norm1", lambda a: a.norm(1)),
        ("norm3", lambda a: a.norm(3)),
        ("norm1.5", lambda a: T.linalg.vector_norm(a, 1.5)),
        ("norm0.5", lambda a: T.linalg.vector_norm(a, 0.5)),
        ("vector_norm_dim", lambda a: T.linalg.vector_norm(a.reshape(2, 3), dim=1)),
        ("vector_norm_all_dims", lambda a: T.linalg.vector_norm(a.reshape(2, 3), dim=(0, 1))),
        ("norm_dim_keepdim", lambda a: a.reshape(2, 3).norm(dim=0, keepdim=True)),
        ("cosine", lambda a: F.cosine_similarity(a[None], a.flip(0)[None])),
        ("normalize", lambda a: F.normalize(a, dim=0)),
        ("cross_entropy", lambda a: F.cross_entropy(a.reshape(2, 3), T.tensor([1, 2]))),
        ("nll_4d", lambda a: F.nll_loss(a.reshape(1, 3, 2, 1), T.tensor([[[0], [2]]]))),
    ):
        x = T.tensor([0.3, -0.7, 1.2, -0.1, 0.0, 2.0], requires_grad=True)
        y = fn(x)
        (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = T.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)
        out[name] = (y, g, gg, g.grad_fn, getattr(y.grad_fn, "_saved_dim", "-"))
    return out


@program()
def prog_ta2_pack_hooks_order_inputs_then_outputs_and_extras(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    for name, fn in (
        ("std", lambda a: a.std()),
        ("norm", lambda a: a.norm()),
        ("amax", lambda a: a.amax(1)),
        ("prod", lambda a: a.prod()),
        ("logsumexp", lambda a: a.logsumexp(1)),
        ("cumprod", lambda a: a.cumprod(1)),
        ("logcumsumexp", lambda a: a.logcumsumexp(1)),
        ("hypot", lambda a: T.hypot(a, a)),
        ("pdist", lambda a: F.pdist(a)),
        ("cdist", lambda a: T.cdist(a, a.detach())),
        ("cummax", lambda a: a.cummax(1).values),
        ("max_pool2d", lambda a: F.max_pool2d(a[None, None], 2, 1)),
        ("adaptive_max_pool1d", lambda a: F.adaptive_max_pool1d(a[None], 2)),
        ("batch_norm_eval", lambda a: F.batch_norm(a, T.zeros(3), T.ones(3))),
        ("batch_norm_train", lambda a: F.batch_norm(a, None, None, training=True)),
        ("masked_select", lambda a: a.masked_select(a > 0)),
        ("take", lambda a: a.take(T.tensor([0, 4]))),
        ("index_add", lambda a: T.zeros(3, 3).index_add(0, T.tensor([0, 2]), a)),
        ("index_copy", lambda a: T.zeros(3, 3).index_copy(0, T.tensor([0, 2]), a)),
        ("put", lambda a: T.zeros(6).put(T.tensor([0, 3]), a[0, :2])),
        ("index_2d", lambda a: a[T.tensor([0, 1]), T.tensor([2, 0])]),
        ("pad_reflect", lambda a: F.pad(a, (1, 1), mode="reflect")),
        ("embedding", lambda a: F.embedding(T.tensor([[0, 1], [1, 1]]), a)),
    ):
        x = T.tensor([[0.3, -0.7, 1.2], [-0.1, 0.5, 2.0]], requires_grad=True)
        log = []

        def pack(t: Any, log: Any = log, x: Any = x) -> Any:
            log.append((tuple(t.shape), str(t.dtype), t.requires_grad, t is x))
            return t

        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            y = fn(x).sum()
        y.backward()
        out[name] = (log, x.grad)
    return out


@program()
def prog_ta2_fwad_ops_torch_has_no_formula_for(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    F = T.nn.functional
    x = T.tensor([[0.3, 0.7, 1.2], [0.1, 0.5, 2.0]])
    out = {}
    for name, fn in (
        ("cdist", lambda d: T.cdist(d, x)),
        ("pdist", lambda d: F.pdist(d)),
        (
            "grid_sample",
            lambda d: F.grid_sample(d[None, None], T.zeros(1, 1, 2, 2), align_corners=False),
        ),
        ("embedding_bag", lambda d: F.embedding_bag(T.tensor([0, 1]), d, T.tensor([0]))),
        ("multi_margin", lambda d: F.multi_margin_loss(d, T.tensor([0, 2]))),
        (
            "multilabel_margin",
            lambda d: F.multilabel_margin_loss(d, T.tensor([[0, -1, 1], [2, -1, 0]])),
        ),
        ("igamma", lambda d: T.igamma(d, x)),
        ("igammac", lambda d: T.igammac(x, d)),
        ("zeta", lambda d: T.special.zeta(d + 2, x)),
        ("zeta_scalar", lambda d: T.special.zeta(d + 2, 1.5)),
        (
            "segment_reduce",
            lambda d: T.segment_reduce(d.reshape(-1), "sum", lengths=T.tensor([2, 4])),
        ),
        ("soft_margin", lambda d: F.soft_margin_loss(d, T.ones(2, 3))),
        ("kthvalue", lambda d: d.kthvalue(1).values),
        ("cummax", lambda d: d.cummax(1).values),
        ("sort", lambda d: d.sort(1).values),
    ):
        with fwAD.dual_level():
            d = fwAD.make_dual(x, T.ones(2, 3))
            out[name] = raises(lambda f=fn, d=d: fwAD.unpack_dual(f(d)).tangent)
    return out


@program()
def prog_ta2_anomaly_double_backward_names_the_inducing_node(T: Any) -> Any:
    x = T.tensor([0.0, 1.0, 4.0], requires_grad=True)

    def nan_in_double_backward() -> Any:
        with T.autograd.detect_anomaly():
            y = x.sqrt()
            (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
            (g * 0).sum().backward()

    def inplace_in_double_backward() -> Any:
        with T.autograd.detect_anomaly():
            y = (x * 2).pow(1.5)
            (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
            (h,) = T.autograd.grad(g.sum(), x, create_graph=True)
            z = h.exp()
            z.add_(1)
            T.autograd.grad(z.sum(), x)

    return raises(nan_in_double_backward), raises(inplace_in_double_backward)


@program()
def prog_ta2_functional_jacobian_of_empty_tensors(T: Any) -> Any:
    AF = T.autograd.functional
    e = T.zeros(0)
    return (
        raises(lambda: AF.jacobian(lambda x: x * 2, e)),
        AF.jacobian(lambda x: x.sum(), e),
        raises(lambda: AF.jacobian(lambda x: T.zeros(0), T.ones(2))),
        raises(lambda: AF.jacobian(lambda x: x * 2, e, vectorize=True)),
        AF.jacobian(lambda x: x * 2, e, vectorize=True, strategy="forward-mode"),
        raises(lambda: AF.jacobian(lambda x, y: (x * 2, y * 2), (e, T.ones(2)))),
        AF.jacobian(
            lambda x: x.reshape(0, 2), T.zeros(0, 3), vectorize=True, strategy="forward-mode"
        ),
        AF.hessian(lambda x: x.sum() + 1, T.ones(2)),
    )


def _saved_attrs(node: Any) -> Any:
    """A node's `_saved_*` attributes: name -> value (tensors as themselves) or the error."""
    out = {}
    for a in sorted(n for n in dir(node) if n.startswith("_saved_")):
        out[a] = raises(lambda a=a: getattr(node, a))
    return out


@program()
def prog_ta2_saved_attributes_of_common_nodes(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    for name, fn in (
        ("mul_number", lambda a: a * 3),
        ("pow_number", lambda a: a**2.5),
        ("expand", lambda a: a[None].expand(2, 2, 3)),
        ("reshape_copy", lambda a: a.t().reshape(6)),
        ("index", lambda a: a[T.tensor([1, 0])]),
        ("select", lambda a: a.select(1, 2)),
        ("slice", lambda a: a[:, 1:3:2]),
        ("narrow", lambda a: a.narrow(1, 0, 2)),
        ("permute", lambda a: a.permute(1, 0)),
        ("sum_dim", lambda a: a.sum(1, keepdim=True)),
        ("max_dim", lambda a: a.max(1).values),
        ("amax", lambda a: a.amax((0,))),
        ("log_softmax", lambda a: a.log_softmax(0)),
        ("cumprod", lambda a: a.cumprod(0)),
        ("var", lambda a: a.var(1, correction=0)),
        ("clamp", lambda a: a.clamp(-0.5, 0.5)),
        ("clamp_tensor", lambda a: a.clamp(min=a.detach() * 0)),
        ("leaky_relu", lambda a: F.leaky_relu(a, 0.2)),
        ("softplus", lambda a: F.softplus(a, 2, 10)),
        ("gelu", lambda a: F.gelu(a, approximate="tanh")),
        ("threshold", lambda a: F.threshold(a, 0.1, 20)),
        ("smooth_l1", lambda a: F.smooth_l1_loss(a, a.detach() * 0, beta=0.5)),
        ("cross_entropy", lambda a: F.cross_entropy(a, T.tensor([0, 2]), label_smoothing=0.1)),
        ("flip_roll", lambda a: a.flip(0, 1).roll(1, 1)),
        ("repeat", lambda a: a.repeat(2, 1)),
        ("cat", lambda a: T.cat([a, a], 1)),
        ("stack", lambda a: T.stack([a, a], 1)),
        ("scatter", lambda a: a.scatter(1, T.tensor([[0], [2]]), 1.0)),
        ("masked_fill", lambda a: a.masked_fill(a > 0, 2.0)),
        ("where", lambda a: T.where(a > 0, a, 0.0)),
        ("lerp", lambda a: T.lerp(a, a.detach(), 0.3)),
        ("addcmul", lambda a: T.addcmul(a, a, a, value=0.5)),
        ("diagonal", lambda a: a.diagonal(1)),
        ("pad", lambda a: F.pad(a, (1, 2))),
        ("logsumexp", lambda a: a.logsumexp(1, keepdim=True)),
        ("kthvalue", lambda a: a.kthvalue(2, 1).values),
        ("to_double", lambda a: a.double()),
        ("sum_dtype", lambda a: a.sum(dtype=T.float64)),
        ("mean_dtype", lambda a: a.mean(dtype=T.float64)),
        ("polar", lambda a: T.polar(a.abs(), a)),
        ("cdist", lambda a: T.cdist(a, a.detach(), p=1)),
        ("bmm", lambda a: T.bmm(a[None], T.ones(1, 3, 2))),
        ("kron", lambda a: T.kron(a, T.ones(1, 2))),
    ):
        x = T.tensor([[0.3, -0.7, 1.2], [-0.1, 0.5, 2.0]], requires_grad=True)
        y = fn(x)
        out[name] = (y.grad_fn, _saved_attrs(y.grad_fn))
    # mm saves each input's strides only for the formula that reads them: () otherwise
    x = T.tensor([[0.3, -0.7, 1.2], [-0.1, 0.5, 2.0]], requires_grad=True)
    for name, y in (("mm_self", x @ T.ones(3, 2)), ("mm_mat2", T.ones(4, 2) @ x.t().t())):
        n = y.grad_fn
        out[name] = (n._saved_self_sym_strides, n._saved_mat2_sym_strides, n._saved_self)
    return out


@program()
def prog_ta2_vector_norm_dtype_records_one_node_and_keeps_int_order(T: Any) -> Any:
    out = []
    for o in (2, 3, 1, 0, float("inf"), 0.5, -1, 2.0):
        x = T.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, 1.0]], requires_grad=True)
        y = T.linalg.vector_norm(x, o, dtype=T.float64)
        n = y.grad_fn
        meta = (n, n._saved_ord, n._saved_self, n._saved_dim)
        y.backward()
        out.append((y, meta, x.grad))
    x = T.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, 1.0]], requires_grad=True)
    h = T.linalg.vector_norm(x.half(), dtype=T.float32)
    d = x.norm(3, dim=1, dtype=T.float64)
    return out, h, h.grad_fn, d, d.grad_fn, d.grad_fn._saved_ord


@program()
def prog_ta2_fwad_out_variants_refuse_dual_operands(T: Any) -> Any:
    fwAD = T.autograd.forward_ad
    x = T.tensor([[0.3, -0.7], [1.2, 0.5]])
    out = {}
    with fwAD.dual_level():
        d = fwAD.make_dual(x, T.ones(2, 2))
        for name, fn in (
            ("mul", lambda: T.mul(d, 2, out=T.empty(2, 2))),
            ("add", lambda: T.add(d, x, out=T.empty(2, 2))),
            ("exp", lambda: T.exp(d, out=T.empty(2, 2))),
            ("clamp", lambda: T.clamp(d, 0, 1, out=T.empty(2, 2))),
            ("where", lambda: T.where(x > 0, d, x, out=T.empty(2, 2))),
            ("sum", lambda: T.sum(d, 0, out=T.empty(2))),
            ("prod", lambda: T.prod(d, 0, out=T.empty(2))),
            ("mm", lambda: T.mm(d, x, out=T.empty(2, 2))),
            ("matmul", lambda: T.matmul(d, x, out=T.empty(2, 2))),
            ("bmm", lambda: T.bmm(d[None], x[None], out=T.empty(1, 2, 2))),
            ("cat", lambda: T.cat([d, x], out=T.empty(4, 2))),
            ("stack", lambda: T.stack([d, x], out=T.empty(2, 2, 2))),
            ("dual_out", lambda: T.mul(x, x, out=fwAD.make_dual(T.empty(2, 2), T.ones(2, 2)))),
            ("plain", lambda: T.mul(x, 2, out=T.empty(2, 2))),
        ):
            out[name] = raises(fn)
    return out


@program()
def prog_ta2_hooks_when_capturing_and_removing(T: Any) -> Any:
    log = []
    a = _t(T, 2)
    b = a * 2
    c = b.exp()
    b.grad_fn.register_prehook(lambda go: log.append("b_pre"))
    b.grad_fn.register_hook(lambda gi, go: log.append("b_post"))
    c.grad_fn.register_hook(lambda gi, go: log.append("c_post"))
    b.register_hook(lambda g: log.append("b_tensor"))
    T.autograd.grad(c.sum(), b)  # b is captured: its node does not run
    acc = (a * 1).grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: log.append("acc_pre"))
    acc.register_hook(lambda gi, go: log.append("acc_post"))
    a.register_hook(lambda g: log.append("a_tensor"))
    T.autograd.grad((a * 3).sum(), a)  # a leaf captured: tensor hook only
    (a * 3).sum().backward()
    x = _t(T, 2, seed=1)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    y.retain_grad()
    y.register_hook(lambda g: g + 1)
    y.sum().backward()
    z = _t(T, 2, seed=2)
    w = z * 2
    hs: list[Any] = []
    hs.append(w.register_hook(lambda g: (hs[0].remove(), g * 2)[1]))
    w.register_hook(lambda g: g + 1)
    w.sum().backward(retain_graph=True)
    g1 = z.grad.clone()
    z.grad = None
    w.sum().backward()
    p = _t(T, 2, seed=3)
    q = _t(T, 2, seed=4)
    m = p * q
    m.grad_fn.register_hook(lambda gi, go: (None, gi[1] * 5))
    m.sum().backward()
    return log, y.grad, x.grad, g1, z.grad, p.grad, q.grad


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
