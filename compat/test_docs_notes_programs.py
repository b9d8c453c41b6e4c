"""Realistic programs from PyTorch's documentation notes (docs/source/notes): each statement of
behaviour that autograd.rst, extending.rst, extending.func.rst, broadcasting.rst,
numerical_accuracy.rst, randomness.rst, modules.rst and serialization.rst make, and the
torch.autograd API docs (grad, autograd.functional), turned into a small program: grad modes
and their interplay, in-place correctness checks, complex gradients, saved tensors and their
hooks, backward hook order, custom Function rules, broadcasting in place and in backward,
Generators, the Module API and save/load round trips, with the exact errors and warnings for
the misuses those notes describe. The programs register into test_realistic_programs_3's set
and run through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it
returns, raises or warns is compared.
"""

from __future__ import annotations

import io
import threading
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _leaf(T: Any, *shape: int, seed: int = 0, dtype: Any = None) -> Any:
    t = T.tensor(_data(*shape, seed=seed))
    if dtype is not None:
        t = t.to(dtype)
    return t.requires_grad_()


def _name(t: Any) -> Any:
    return None if t.grad_fn is None else type(t.grad_fn).__name__


# --- autograd.rst: locally disabling gradient computation -------------------------------------


@program()
def prog_note_requires_grad_propagates_from_any_input(T: Any) -> Any:
    x = T.tensor(_data(3))
    w = _leaf(T, 3, seed=1)
    y = x * 2
    z = y + w
    z.sum().backward()
    return (y.requires_grad, z.requires_grad, _name(y), _name(z), z.is_leaf, w.grad, x.grad)


@program()
def prog_note_frozen_params_get_no_grad(T: Any) -> Any:
    m = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2)), 3)
    m[0].requires_grad_(False)
    x = T.tensor(_data(5, 3, seed=2))
    out = m(x).pow(2).sum()
    out.backward()
    return (
        m[0].weight.grad,
        m[0].bias.grad,
        m[2].weight.grad,
        [p.requires_grad for p in m.parameters()],
        _name(m[0](x)),
    )


@program()
def prog_note_no_grad_outputs_and_nested_enable(T: Any) -> Any:
    x = _leaf(T, 2, 2)
    with T.no_grad():
        a = x * 2
        with T.enable_grad():
            b = x * 3
        c = x.exp()
    d = x * 4
    return [(t.requires_grad, _name(t), t.is_leaf) for t in (a, b, c, d)] + [T.is_grad_enabled()]


@program()
def prog_note_set_grad_enabled_as_function_and_context(T: Any) -> Any:
    x = _leaf(T, 3)
    with T.set_grad_enabled(False):
        a = x * 2
    T.set_grad_enabled(False)
    b = x * 2
    off = T.is_grad_enabled()
    T.set_grad_enabled(True)
    c = x * 2
    return a.requires_grad, b.requires_grad, c.requires_grad, off, T.is_grad_enabled()


@program()
def prog_note_no_grad_as_decorator_and_factory(T: Any) -> Any:
    @T.no_grad()
    def double(t: Any) -> Any:
        return t * 2

    @T.enable_grad()
    def triple(t: Any) -> Any:
        return t * 3

    x = _leaf(T, 3)
    a = double(x)
    with T.no_grad():
        b = triple(x)
    b.sum().backward()
    return a.requires_grad, b.requires_grad, _name(b), x.grad


@program()
def prog_note_inference_mode_tensors(T: Any) -> Any:
    x = _leaf(T, 3)
    with T.inference_mode():
        y = x * 2
        inner = (T.is_inference_mode_enabled(), T.is_grad_enabled())
    out = {
        "y": (y.requires_grad, y.is_inference(), _name(y), x.is_inference()),
        "inner": inner,
        "outer": T.is_inference_mode_enabled(),
        "save": raises(lambda: (x * y).sum().backward()),
        "inplace": raises(lambda: y.add_(1)),
        "clone_ok": (y.clone() * x).sum().requires_grad,
    }
    with T.inference_mode(False):
        z = x * 2
    out["disabled"] = (z.requires_grad, z.is_inference())
    return out


@program()
def prog_note_inference_tensor_inplace_outside_mode(T: Any) -> Any:
    with T.inference_mode():
        buf = T.zeros(3)
    a = raises(lambda: buf.add_(1))
    b = raises(lambda: buf.view(3).mul_(2))
    with T.inference_mode():
        buf.add_(1)
    return a, b, buf.clone(), buf.is_inference(), raises(lambda: buf._version)


@program()
def prog_note_eval_mode_does_not_disable_grad(T: Any) -> Any:
    m = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 3), T.nn.Dropout(0.5), T.nn.BatchNorm1d(3)), 5)
    m.eval()
    x = T.tensor(_data(4, 3, seed=6))
    y = m(x)
    y.sum().backward()
    return y, _name(y), m[0].weight.grad, m.training, m[1].training


# --- autograd.rst: in-place correctness checks ------------------------------------------------


@program()
def prog_note_inplace_on_saved_output_errors(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.exp()
    y.add_(1)
    return raises(lambda: y.sum().backward()), y._version, _name(y)


@program()
def prog_note_inplace_on_saved_input_errors(T: Any) -> Any:
    a = _leaf(T, 2, 3)
    b = a * 1
    c = b.sin()
    b.mul_(2)
    err = raises(lambda: c.sum().backward())
    d = a.clone()
    e = d * d
    d.zero_()
    return err, b._version, raises(lambda: e.sum().backward())


@program()
def prog_note_inplace_not_saved_is_fine(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x * 2  # MulBackward saves only the scalar
    y.add_(1)
    y.relu_()
    y.sum().backward()
    return x.grad, _name(y), y._version


@program()
def prog_note_leaf_inplace_and_view_of_leaf(T: Any) -> Any:
    x = _leaf(T, 4)
    e1 = raises(lambda: x.add_(1))
    e2 = raises(lambda: x[:2].mul_(2))
    e3 = raises(lambda: x.view(2, 2).zero_())
    with T.no_grad():
        x.add_(1)
    return e1, e2, e3, x, x.is_leaf, x._version


@program()
def prog_note_view_inplace_rebases_grad_fn(T: Any) -> Any:
    x = _leaf(T, 4)
    y = x.clone()
    v = y[1:3]
    v.mul_(3)
    names = (_name(v), _name(y), v._version, y._version, v._base is y)
    y.sum().backward()
    return names, x.grad


@program()
def prog_note_version_counter_shared_by_views(T: Any) -> Any:
    x = T.zeros(2, 3)
    v = x[0]
    t = x.t()
    start = (x._version, v._version)
    v.add_(1)
    t.mul_(2)
    x.detach().add_(1)
    return start, x._version, v._version, t._version, x


@program()
def prog_note_detach_shares_storage_and_version(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.sigmoid()
    d = y.detach()
    d.zero_()
    err = raises(lambda: y.sum().backward())
    return d.requires_grad, d.is_leaf, y, err, y._version


# --- autograd.rst: multithreaded autograd -----------------------------------------------------


@program()
def prog_note_threads_accumulate_into_shared_leaf(T: Any) -> Any:
    x = _leaf(T, 3)
    errors: list[Any] = []

    def work(k: int) -> None:
        try:
            y = (x * (k + 1)).pow(2).sum()
            y.backward()
        except Exception as e:  # pragma: no cover - compared through the result
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return x.grad, errors


@program()
def prog_note_grad_mode_is_thread_local(T: Any) -> Any:
    seen: list[Any] = []
    x = _leaf(T, 2)

    def work() -> None:
        seen.append(T.is_grad_enabled())
        seen.append((x * 2).requires_grad)

    with T.no_grad():
        th = threading.Thread(target=work)
        th.start()
        th.join()
        here = (x * 2).requires_grad
    return seen, here


# --- autograd.rst: complex autograd -----------------------------------------------------------


@program()
def prog_note_complex_grad_is_conjugate_wirtinger(T: Any) -> Any:
    z = T.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j], requires_grad=True)
    loss = (z * z.conj()).real.sum()
    loss.backward()
    g1 = z.grad.clone()
    z.grad = None
    z.abs().sum().backward()
    g2 = z.grad.clone()
    z.grad = None
    (z * (2 + 1j)).real.sum().backward()
    return g1, g2, z.grad, _name(loss)


@program()
def prog_note_complex_backward_needs_real_scalar(T: Any) -> Any:
    z = T.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    out = (z * z).sum()
    err = raises(lambda: out.backward())
    out.backward(T.tensor(1 + 0j))
    return err, z.grad, out.dtype


@program()
def prog_note_complex_real_view_and_angle_grads(T: Any) -> Any:
    r = _leaf(T, 3, 2, dtype=T.float64)
    z = T.view_as_complex(r)
    loss = (z.angle() + z.abs().log()).sum()
    loss.backward()
    w = T.tensor([0.5 + 1j, -2 + 0.1j], requires_grad=True)
    T.view_as_real(w).pow(2).sum().backward()
    return r.grad, w.grad, _name(z), z.dtype


@program()
def prog_note_complex_grad_of_holomorphic_via_autograd_grad(T: Any) -> Any:
    z = T.tensor([0.3 + 0.4j, -1.0 + 0.5j], dtype=T.complex128, requires_grad=True)
    y = z.exp() * z.sin()
    (g,) = T.autograd.grad(y.real.sum() + y.imag.sum(), z, retain_graph=True)
    (h,) = T.autograd.grad(y, z, grad_outputs=T.ones_like(y))
    return g, h


@program()
def prog_note_complex_grads_of_holomorphic_unary_functions(T: Any) -> Any:
    z0 = T.tensor([0.3 + 0.4j, -1.2 + 0.5j, 0.7 - 2.0j, 2.5 + 0.1j], dtype=T.complex128)
    g = T.tensor([1 + 0.5j, -0.3j, 2.0, 0.1 - 1j], dtype=T.complex128)
    out = {}
    for name in ("exp2", "expm1", "log2", "log10", "log1p", "rsqrt", "tan", "asin", "acos", "sinc"):
        z = z0.clone().requires_grad_()
        y = getattr(T, name)(z)
        y.backward(g)
        out[name] = (z.grad, _name(y))
    for name in ("atan", "sinh", "cosh", "asinh", "acosh", "atanh"):
        z = z0.to(T.complex64).requires_grad_()
        (gz,) = T.autograd.grad(getattr(T, name)(z).abs().sum(), z, create_graph=True)
        (hz,) = T.autograd.grad(gz.abs().sum(), z)
        out[name] = (gz, hz)
    return out


# warnings not compared: a first forward-AD use in a torch process can warn (jit.script)
@program(warnings=False)
def prog_note_complex_grads_of_reductions_and_ternary_ops(T: Any) -> Any:
    fw = T.autograd.forward_ad
    z0 = T.tensor([[0.3 + 0.4j, -1.2 + 0.5j, 0.7 - 2.0j], [1j, 2.0, -1 - 1j]], dtype=T.complex128)
    t0 = T.tensor([[1.0, 0.5j, -2.0], [0.3 - 1j, 1j, 0.25]], dtype=T.complex128)
    fns = {
        "cumsum": lambda z: z.cumsum(1),
        "var": lambda z: z.var(1),
        "std": lambda z: z.std(),
        "var_mean": lambda z: T.var_mean(z, 0)[0] + T.var_mean(z, 0)[1].abs(),
        "lerp": lambda z: T.lerp(z, z * 2 + 1, 0.3),
        "lerp_t": lambda z: T.lerp(z, z.exp(), (z.abs() / 4).to(T.complex128)),
        "addcdiv": lambda z: T.addcdiv(z, z, z + 3, value=1 - 1j),
        "addcmul": lambda z: T.addcmul(z, z.conj(), z, value=0.5),
        "pow_tensor": lambda z: z ** (z.flip(0) * 0.5 + 1j),
        "pow_scalar_base": lambda z: (1.5 + 1j) ** z,
        "vdot": lambda z: T.vdot(z.flatten(), z.flatten().exp()),
        "dist": lambda z: T.dist(z, z.flip(1).conj()) + T.dist(z, z * 1j, 3.5),
        "logsumexp": lambda z: T.logsumexp(z, 1),
        "cumprod": lambda z: z.cumprod(1) + z.prod(0).sum(),
        "indexing": lambda z: (
            z.gather(1, T.tensor([[2], [0]])).sum()
            + z.index_select(1, T.tensor([1, 1])).sum()
            + z.take(T.tensor([0, 5]))
            + z.masked_fill(z.real > 0.5, 1j).sum()
            + T.zeros(2, 3, dtype=z.dtype).scatter_add(1, T.tensor([[0, 0, 1]] * 2), z).pow(2).sum()
        ),
    }
    out: dict[str, Any] = {"nan_to_num": raises(lambda: T.nan_to_num(z0.clone().requires_grad_()))}
    for name, f in fns.items():
        z = z0.clone().requires_grad_()
        y = f(z)
        (g,) = T.autograd.grad(y.abs().sum(), z, create_graph=True)
        (h,) = T.autograd.grad(g.abs().sum(), z)
        with fw.dual_level():
            tan = fw.unpack_dual(f(fw.make_dual(z0, t0))).tangent
        out[name] = (y, g, h, tan, _name(y))
    return out


# --- autograd.rst: saved tensors and their hooks ----------------------------------------------


@program()
def prog_note_saved_tensor_attributes(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.pow(2)
    e = x.exp()
    return (
        y.grad_fn._saved_self is x,
        y.grad_fn._saved_self.equal(x),
        y.grad_fn._saved_exponent,
        e.grad_fn._saved_result.equal(e),
        e.grad_fn._saved_result is e,
    )


@program()
def prog_note_saved_tensor_freed_after_backward(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.pow(2)
    y.sum().backward()
    return (
        raises(lambda: y.grad_fn._saved_self),
        raises(lambda: y.sum().backward()),
        x.grad,
    )


@program()
def prog_note_retain_graph_allows_second_backward(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.exp().sum()
    y.backward(retain_graph=True)
    g1 = x.grad.clone()
    y.backward()
    ok = y.grad_fn._saved_result if False else None
    return g1, x.grad, ok, raises(lambda: y.backward())


@program()
def prog_note_raw_saved_register_hooks(T: Any) -> Any:
    log: list[Any] = []
    x = _leaf(T, 3)
    y = x.pow(2)

    def pack(t: Any) -> Any:
        log.append(("pack", tuple(t.shape)))
        return t * 10

    def unpack(t: Any) -> Any:
        log.append(("unpack", tuple(t.shape)))
        return t / 10

    y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
    again = raises(lambda: y.grad_fn._raw_saved_self.register_hooks(pack, unpack))
    y.sum().backward()
    e = (x * 1).exp()
    bad = raises(lambda: e.grad_fn._raw_saved_result.register_hooks(lambda t: t.mul_(1), unpack))
    return log, x.grad, again, bad, e._version


@program()
def prog_note_saved_tensors_hooks_context(T: Any) -> Any:
    log: list[Any] = []

    def pack(t: Any) -> Any:
        log.append(("pack", tuple(t.shape), t.requires_grad))
        return t.detach().clone()

    def unpack(t: Any) -> Any:
        log.append(("unpack", tuple(t.shape)))
        return t

    a = _leaf(T, 2, 3)
    b = _leaf(T, 3, 2, seed=1)
    with T.autograd.graph.saved_tensors_hooks(pack, unpack):
        c = a.matmul(b)
        d = c.sin()
    e = d * 3
    e.sum().backward()
    return log, a.grad, b.grad


@program()
def prog_note_saved_hooks_pack_inplace_error(T: Any) -> Any:
    def pack(t: Any) -> Any:
        t.mul_(2)
        return t

    x = _leaf(T, 3)
    y = x * 1

    def run() -> Any:
        with T.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            return y.sin()

    return raises(run)


@program()
def prog_note_save_on_cpu_gives_same_grads(T: Any) -> Any:
    x = _leaf(T, 4, 3)
    w = _leaf(T, 3, 2, seed=4)
    with T.autograd.graph.save_on_cpu():
        y = (x @ w).tanh().sum()
    y.backward()
    return y, x.grad, w.grad


@program()
def prog_note_disable_saved_tensors_hooks(T: Any) -> Any:
    msg = "saving is disabled here"
    x = _leaf(T, 3)
    with T.autograd.graph.disable_saved_tensors_hooks(msg):
        err = raises(
            lambda: T.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        )
        y = x.exp()
    y.sum().backward()
    return err, x.grad


# --- autograd.rst: backward hooks -------------------------------------------------------------


@program()
def prog_note_hook_order_tensor_node_pre_post(T: Any) -> Any:
    log: list[Any] = []
    a = _leaf(T, 3)
    b = a.mul(2)
    c = b.exp()
    b.register_hook(lambda g: log.append(("b tensor hook", g.sum().item() > -1e9)))
    c.grad_fn.register_prehook(lambda go: log.append(("c node prehook", len(go))))
    c.grad_fn.register_hook(lambda gi, go: log.append(("c node hook", len(gi), len(go))))
    c.register_hook(lambda g: log.append(("c tensor hook", tuple(g.shape))))
    b.grad_fn.register_hook(lambda gi, go: log.append(("b node hook", gi[0] is None)))
    a.register_hook(lambda g: log.append(("a leaf hook", tuple(g.shape))))
    a.register_post_accumulate_grad_hook(lambda p: log.append(("a post acc", p.grad.shape)))
    c.sum().backward()
    return log, a.grad


@program()
def prog_note_retains_grad_hook_runs_last(T: Any) -> Any:
    log: list[Any] = []
    a = _leaf(T, 3)
    b = a * 2
    b.retain_grad()
    b.register_hook(lambda g: (log.append(("h1", b.grad)), g * 10)[1])
    b.register_hook(lambda g: (log.append(("h2", g.clone())), None)[1])
    (b * b).sum().backward()
    return log, b.grad, a.grad, b.retains_grad


@program()
def prog_note_leaf_hook_before_accumulation(T: Any) -> Any:
    log: list[Any] = []
    a = _leaf(T, 3)
    a.grad = T.ones(3)
    a.register_hook(lambda g: (log.append(("pre", a.grad.clone(), g.clone())), g * 2)[1])
    a.register_post_accumulate_grad_hook(lambda p: log.append(("post", p.grad.clone())))
    (a * 3).sum().backward()
    return log, a.grad


@program()
def prog_note_post_accumulate_grad_hook_optimizer_step(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 8)
    seen: list[Any] = []

    def step(p: Any) -> None:
        seen.append(tuple(p.shape))
        with T.no_grad():
            p.add_(p.grad, alpha=-0.1)
        p.grad = None

    hs = [p.register_post_accumulate_grad_hook(step) for p in lin.parameters()]
    lin(T.tensor(_data(4, 3, seed=9))).pow(2).sum().backward()
    after = (lin.weight.clone(), lin.bias.clone(), lin.weight.grad)
    for h in hs:
        h.remove()
    lin(T.tensor(_data(4, 3, seed=9))).pow(2).sum().backward()
    return seen, after, lin.weight.grad is not None


@program()
def prog_note_post_accumulate_hook_on_nonleaf_errors(T: Any) -> Any:
    a = _leaf(T, 3)
    b = a * 2
    c = T.ones(3)
    return (
        raises(lambda: b.register_post_accumulate_grad_hook(lambda p: None)),
        raises(lambda: c.register_hook(lambda g: g)),
        raises(lambda: c.register_post_accumulate_grad_hook(lambda p: None)),
    )


@program()
def prog_note_hook_registered_before_inplace_sees_old_grad_fn(T: Any) -> Any:
    log: list[Any] = []
    t = T.tensor(1.0, requires_grad=True).sin()
    t.register_hook(lambda g: log.append(("before", g)))
    old = _name(t)
    t.cos_()
    t.register_hook(lambda g: log.append(("after", g)))
    t.backward()
    return log, old, _name(t)


@program()
def prog_note_hook_returning_tensor_replaces_grad_and_remove(T: Any) -> Any:
    a = _leaf(T, 3)
    h = a.register_hook(lambda g: g * 0 + 5)
    (a * 2).sum().backward()
    g1 = a.grad.clone()
    h.remove()
    a.grad = None
    (a * 2).sum().backward()
    return g1, a.grad


@program()
def prog_note_node_hook_replaces_grad_inputs(T: Any) -> Any:
    a = _leaf(T, 3)
    b = _leaf(T, 3, seed=1)
    c = a * b
    c.grad_fn.register_hook(lambda gi, go: (gi[0] * 2, None))
    c.sum().backward()
    d = a + b
    d.grad_fn.register_prehook(lambda go: (go[0] * -1,))
    a.grad = b.grad = None
    d.sum().backward()
    return a.grad, b.grad, c.grad_fn.name(), [type(n).__name__ for n, _ in c.grad_fn.next_functions]


@program()
def prog_note_hook_wrong_shape_error(T: Any) -> Any:
    a = _leaf(T, 3)
    a.register_hook(lambda g: T.ones(2))
    b = _leaf(T, 3)
    b.register_hook(lambda g: g.double())
    return raises(lambda: (a * 2).sum().backward()), raises(lambda: (b * 2).sum().backward())


# --- torch.autograd.grad and autograd.functional ----------------------------------------------


@program()
def prog_note_autograd_grad_allow_unused_and_materialize(T: Any) -> Any:
    x = _leaf(T, 3)
    y = _leaf(T, 3, seed=1)
    out = (x * 2).sum()
    e = raises(lambda: T.autograd.grad(out, [x, y], retain_graph=True))
    a = T.autograd.grad(out, [x, y], allow_unused=True, retain_graph=True)
    b = T.autograd.grad(out, [x, y], materialize_grads=True, retain_graph=True)
    c = raises(lambda: T.autograd.grad(out, [x, y], allow_unused=False, materialize_grads=True))
    return e, a, b, c, x.grad


@program()
def prog_note_autograd_grad_is_grads_batched(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.sin() * x
    eye = T.eye(3)
    (jac,) = T.autograd.grad(y, x, grad_outputs=eye, is_grads_batched=True, retain_graph=True)
    rows = [T.autograd.grad(y, x, e, retain_graph=True)[0] for e in eye]
    return jac, T.stack(rows)


@program()
def prog_note_autograd_grad_create_graph_second_order(T: Any) -> Any:
    x = _leaf(T, 3, dtype=T.float64)
    y = (x.pow(3) * x.sin()).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    (h,) = T.autograd.grad(g.sum(), x)
    return g, h, _name(g), g.requires_grad, h.requires_grad


@program()
def prog_note_grad_non_scalar_requires_grad_outputs(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x * 2
    return (
        raises(lambda: T.autograd.grad(y, x)),
        raises(lambda: y.backward()),
        raises(lambda: T.autograd.grad(T.ones(1).sum(), x)),
        raises(lambda: T.autograd.grad(y.sum(), T.ones(3))),
    )


# torch's first forward-mode vectorized jacobian in a process warns (jit.script deprecation)
@program(warnings=False)
def prog_note_functional_jacobian_options(T: Any) -> Any:
    F = T.autograd.functional

    def f(a: Any, b: Any) -> Any:
        return a.exp() * b.sum(), a.pow(2)

    a = T.tensor(_data(3, seed=2)).double()
    b = T.tensor(_data(2, seed=3)).double()
    j1 = F.jacobian(f, (a, b))
    j2 = F.jacobian(f, (a, b), vectorize=True)
    j3 = F.jacobian(f, (a, b), create_graph=True)
    j4 = F.jacobian(lambda t: t.sin(), a, strategy="forward-mode", vectorize=True)
    return j1, j2, [[t.requires_grad for t in row] for row in j3], j4


@program()
def prog_note_functional_strict_errors(T: Any) -> Any:
    F = T.autograd.functional
    a = T.tensor(_data(3, seed=2))

    def indep(t: Any) -> Any:
        return T.ones(3)

    return (
        raises(lambda: F.jacobian(indep, a, strict=True)),
        F.jacobian(indep, a),
        raises(lambda: F.vjp(indep, a, T.ones(3), strict=True)),
        raises(lambda: F.jacobian(lambda t: t, a, strict=True, vectorize=True)),
        raises(lambda: F.jacobian(lambda t: t, a, strategy="forward-mode")),
    )


@program()
def prog_note_functional_vjp_jvp_hvp_vhp(T: Any) -> Any:
    F = T.autograd.functional

    def f(x: Any) -> Any:
        return (x.pow(3) * x.cos()).sum()

    def g(x: Any) -> Any:
        return x.sin() * x

    x = T.tensor(_data(4, seed=5)).double()
    v = T.tensor(_data(4, seed=6)).double()
    return (
        F.vjp(g, x, v),
        F.jvp(g, x, v),
        F.hvp(f, x, v),
        F.vhp(f, x, v),
        F.hessian(f, x),
        F.hessian(f, x, vectorize=True, outer_jacobian_strategy="forward-mode"),
        F.vjp(f, x),
    )


@program()
def prog_note_functional_create_graph_outputs(T: Any) -> Any:
    F = T.autograd.functional
    x = T.tensor(_data(3, seed=5), requires_grad=True)

    def f(t: Any) -> Any:
        return (t.exp() * t).sum()

    out, vjp = F.vjp(f, x, create_graph=True)
    h = F.hessian(f, x, create_graph=True)
    vjp.sum().backward()
    _, jv = F.jvp(lambda t: t.tanh(), x, T.ones(3))
    return out.requires_grad, vjp.requires_grad, h.requires_grad, x.grad, jv.requires_grad


@program()
def prog_note_functional_jvp_v_shape_errors(T: Any) -> Any:
    F = T.autograd.functional
    x = T.tensor(_data(3, seed=5))
    return (
        raises(lambda: F.jvp(lambda t: t * 2, x, T.ones(2))),
        raises(lambda: F.vjp(lambda t: t * 2, x)),
        raises(lambda: F.hvp(lambda t: t * 2, x, T.ones(3))),
        raises(lambda: F.jacobian(lambda t: 3, x)),
    )


# --- extending.rst: custom autograd.Function --------------------------------------------------


@program()
def prog_note_function_linear_with_needs_input_grad(T: Any) -> Any:
    seen: list[Any] = []

    class LinearFn(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, b=None):
            ctx.save_for_backward(x, w, b)
            out = x.mm(w.t())
            if b is not None:
                out = out + b.unsqueeze(0).expand_as(out)
            return out

        @staticmethod
        def backward(ctx, g):
            x, w, b = ctx.saved_tensors
            seen.append(tuple(ctx.needs_input_grad))
            gx = gw = gb = None
            if ctx.needs_input_grad[0]:
                gx = g.mm(w)
            if ctx.needs_input_grad[1]:
                gw = g.t().mm(x)
            if b is not None and ctx.needs_input_grad[2]:
                gb = g.sum(0)
            return gx, gw, gb

    x = T.tensor(_data(4, 3, seed=1))
    w = _leaf(T, 2, 3, seed=2)
    b = _leaf(T, 2, seed=3)
    y = LinearFn.apply(x, w, b)
    y.pow(2).sum().backward()
    x2 = _leaf(T, 4, 3, seed=1)
    LinearFn.apply(x2, w.detach()).sum().backward()
    return y, _name(y), w.grad, b.grad, x2.grad, seen


@program()
def prog_note_function_setup_context_style(T: Any) -> Any:
    class MulConst(T.autograd.Function):
        @staticmethod
        def forward(x, c):
            return x * c

        @staticmethod
        def setup_context(ctx, inputs, output):
            _, c = inputs
            ctx.c = c

        @staticmethod
        def backward(ctx, g):
            return g * ctx.c, None

    x = _leaf(T, 3)
    y = MulConst.apply(x, 2.5)
    y.sum().backward()
    return y, x.grad, _name(y)


@program()
def prog_note_function_wrong_number_of_grads(T: Any) -> Any:
    class TooMany(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    class TooFew(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return (g,)

    class NonTensorGrad(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2, T.ones(1)

    x = _leaf(T, 3)
    y = _leaf(T, 3, seed=1)
    return (
        raises(lambda: TooMany.apply(x).sum().backward()),
        raises(lambda: TooFew.apply(x, y).sum().backward()),
        raises(lambda: NonTensorGrad.apply(x, 3).sum().backward()),
        x.grad,
    )


@program()
def prog_note_function_invalid_grad_shape_and_dtype(T: Any) -> Any:
    class BadShape(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return T.ones(5)

    class Broadcastable(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return T.ones(1, 3).double()

    x = _leaf(T, 3)
    e = raises(lambda: BadShape.apply(x).sum().backward())
    Broadcastable.apply(x).sum().backward()
    return e, x.grad, x.grad.dtype


@program()
def prog_note_function_mark_dirty_inplace(T: Any) -> Any:
    class AddOne_(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    a = _leaf(T, 3)
    b = a.clone()
    c = AddOne_.apply(b)
    names = (_name(c), _name(b), c is b, b._version)
    c.sum().backward()
    leaf_err = raises(lambda: AddOne_.apply(_leaf(T, 2)))
    return names, a.grad, c, leaf_err


@program()
def prog_note_function_mark_non_differentiable_sort(T: Any) -> Any:
    class SortFn(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(x, i)
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            x, i = ctx.saved_tensors
            gx = T.zeros_like(x)
            gx.index_add_(0, i, gv)
            return gx

    x = _leaf(T, 5)
    v, i = SortFn.apply(x)
    (v * T.arange(5.0)).sum().backward()
    return v, i, v.requires_grad, i.requires_grad, x.grad, _name(v)


@program()
def prog_note_function_set_materialize_grads(T: Any) -> Any:
    seen: list[Any] = []

    def make(materialize: bool) -> Any:
        class Two(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return x.clone(), x.clone()

            @staticmethod
            def backward(ctx, g1, g2):
                seen.append((g1 is None, g2 is None))
                out = T.zeros(3)
                if g1 is not None:
                    out = out + g1
                if g2 is not None:
                    out = out + 2 * g2
                return out

        return Two

    x = _leaf(T, 3)
    a, _ = make(True).apply(x)
    a.sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    a, _ = make(False).apply(x)
    a.sum().backward()
    return seen, g1, x.grad


@program()
def prog_note_function_once_differentiable_double_backward(T: Any) -> Any:

    od = T.autograd.function.once_differentiable

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        @od
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x**2

    x = _leaf(T, 3, dtype=T.float64)
    y = Cube.apply(x).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    return g, g.requires_grad, _name(g), raises(lambda: g.sum().backward())


@program()
def prog_note_function_double_backward_via_saved_tensors(T: Any) -> Any:
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x

    x = _leaf(T, 3, dtype=T.float64)
    (g,) = T.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    (h,) = T.autograd.grad(g.sum(), x)
    ok = T.autograd.gradcheck(Square.apply, (x,))
    ok2 = T.autograd.gradgradcheck(Square.apply, (x,))
    return g, h, _name(g), ok, ok2


@program()
def prog_note_function_save_for_backward_non_tensor_errors(T: Any) -> Any:
    class SaveInt(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    class SaveIntermediate(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y * 2

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * 2 * y

    x = _leaf(T, 3)
    e = raises(lambda: SaveInt.apply(x))
    out = SaveIntermediate.apply(x)
    out.sum().backward()
    return e, x.grad, out


@program()
def prog_note_function_forward_called_directly_and_no_grad_inputs(T: Any) -> Any:
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.tensor(_data(3))
    y = Double.apply(x)
    z = _leaf(T, 3)
    with T.no_grad():
        w = Double.apply(z)
    return y, y.requires_grad, _name(y), w.requires_grad, _name(w), raises(lambda: Double()(x))


@program()
def prog_note_function_returning_input_as_is(T: Any) -> Any:
    class Identity(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = _leaf(T, 3)
    y = Identity.apply(x)
    y.sum().backward()
    return y is x, _name(y), y.is_leaf, x.grad


@program()
def prog_note_function_jvp_staticmethod_forward_ad(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Sin(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.x = x
            return x.sin()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos()

        @staticmethod
        def jvp(ctx, t):
            return t * ctx.x.cos()

    x = T.tensor(_data(3, seed=2)).double()
    t = T.tensor(_data(3, seed=3)).double()
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        out = Sin.apply(d)
        p, tan = fwAD.unpack_dual(out)
    return p, tan


@program()
def prog_note_function_vmap_staticmethod(T: Any) -> Any:
    calls: list[Any] = []

    class Scale(T.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

        @staticmethod
        def vmap(info, in_dims, x, k):
            calls.append((info.batch_size, in_dims))
            xd = in_dims[0]
            x = x.movedim(xd, 0) if xd is not None else x
            return x * k, 0

    x = T.tensor(_data(4, 3, seed=2))
    out = T.func.vmap(Scale.apply, in_dims=(1, None))(x, 2.0)
    g = T.func.grad(lambda t: Scale.apply(t, 3.0).sum())(x)
    return out, g, calls


@program()
def prog_note_function_generate_vmap_rule(T: Any) -> Any:
    class Cube(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x**3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x**2 * g

    x = T.tensor(_data(3, 2, seed=4))
    y = T.func.vmap(Cube.apply)(x)
    per = T.func.vmap(T.func.grad(lambda t: Cube.apply(t).sum()))(x)
    return y, per


@program()
def prog_note_function_vmap_without_rule_errors(T: Any) -> Any:
    class Plain(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class NoSetup(T.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = T.tensor(_data(3, 2, seed=4))
    return (
        raises(lambda: T.func.vmap(Plain.apply)(x)),
        raises(lambda: T.func.vmap(NoSetup.apply)(x)),
        raises(lambda: T.func.grad(lambda t: Plain.apply(t).sum())(x)),
    )


# --- extending.rst: extending torch.nn and __torch_function__ ----------------------------------


@program()
def prog_note_custom_module_with_parameters(T: Any) -> Any:
    class MyLinear(T.nn.Module):
        def __init__(self, n_in: int, n_out: int, bias: bool = True) -> None:
            super().__init__()
            self.weight = T.nn.Parameter(T.empty(n_out, n_in))
            if bias:
                self.bias = T.nn.Parameter(T.empty(n_out))
            else:
                self.register_parameter("bias", None)
            with T.no_grad():
                self.weight.copy_(T.tensor(_data(n_out, n_in, seed=11)))
                if bias:
                    self.bias.copy_(T.tensor(_data(n_out, seed=12)))

        def forward(self, x: Any) -> Any:
            y = x @ self.weight.t()
            return y if self.bias is None else y + self.bias

        def extra_repr(self) -> str:
            return f"in={self.weight.shape[1]}, out={self.weight.shape[0]}"

    m = MyLinear(3, 2)
    n = MyLinear(3, 2, bias=False)
    x = T.tensor(_data(4, 3, seed=13))
    (m(x).sum() + n(x).sum()).backward()
    return (
        repr(m),
        [k for k, _ in m.named_parameters()],
        [k for k, _ in n.named_parameters()],
        list(n.state_dict()),
        m.weight.grad,
        m.bias.grad,
        n.bias,
    )


@program()
def prog_note_tensor_subclass_torch_function_logging(T: Any) -> Any:
    log: list[Any] = []

    class Logged(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append(getattr(func, "__name__", str(func)))
            return super().__torch_function__(func, types, args, kwargs or {})

    x = T.tensor(_data(3)).as_subclass(Logged)
    y = x + 1
    z = T.mul(y, 2)
    return type(y).__name__, type(z).__name__, z.as_subclass(T.Tensor), log


@program()
def prog_note_torch_function_on_plain_object(T: Any) -> Any:
    class Scalarish:
        def __init__(self, v: float) -> None:
            self.v = v

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            name = getattr(func, "__name__", "")
            if name == "add":
                return "handled add"
            return NotImplemented

    s = Scalarish(2.0)
    return T.add(T.ones(2), s), raises(lambda: T.mul(T.ones(2), s))


# --- broadcasting.rst -------------------------------------------------------------------------


@program()
def prog_note_broadcast_shapes_and_errors(T: Any) -> Any:
    x = T.empty(5, 7, 3)
    y = T.empty(5, 7, 3)
    a = (x + y).shape
    b = (T.empty(0) + T.empty(1)).shape
    c = (T.empty(5, 3, 4, 1) + T.empty(3, 1, 1)).shape
    d = (T.empty(1) + T.empty(3, 1, 7)).shape
    e = raises(lambda: T.empty(5, 2, 4, 1) + T.empty(3, 1, 1))
    f = raises(lambda: T.empty((0,)) + T.empty(2, 2))
    return a, b, c, d, e, f, T.broadcast_shapes((5, 1, 4), (3, 1))


@program()
def prog_note_broadcast_inplace_rules(T: Any) -> Any:
    x = T.ones(5, 3, 4, 1)
    y = T.ones(3, 1, 1) * 2
    x.add_(y)
    z = T.ones(1, 3, 1)
    w = T.ones(3, 1, 7)
    err = raises(lambda: z.add_(w))
    err2 = raises(lambda: T.ones(3).mul_(T.ones(2, 3)))
    return x.shape, x[0, 0, 0], err, err2


@program()
def prog_note_backward_through_broadcasting(T: Any) -> Any:
    a = _leaf(T, 4, 1, seed=1)
    b = _leaf(T, 3, seed=2)
    c = _leaf(T, 1, seed=3)
    y = (a * b + c).pow(2)
    y.sum().backward()
    s = _leaf(T, 1, 3, seed=4)
    t = s.expand(2, 3)
    (t * T.arange(6.0).view(2, 3)).sum().backward()
    return y.shape, a.grad, b.grad, c.grad, s.grad, _name(t)


@program()
def prog_note_backward_compat_pointwise_warning_free(T: Any) -> Any:
    # same number of elements but different shapes: broadcast, not elementwise
    a = T.tensor(_data(4, 1, seed=5))
    b = T.tensor(_data(1, 4, seed=6))
    return (a + b).shape, T.add(T.ones(4), T.ones(4, 1)).shape, (a * b).sum()


# --- numerical_accuracy.rst -------------------------------------------------------------------


@program()
def prog_note_finfo_iinfo_values(T: Any) -> Any:
    out = []
    for dt in (T.float16, T.float32, T.float64):
        f = T.finfo(dt)
        out.append((f.eps, f.tiny, f.max, f.min, f.bits, f.resolution, f.smallest_normal))
    for dt in (T.int8, T.int32, T.int64, T.uint8):
        i = T.iinfo(dt)
        out.append((i.min, i.max, i.bits))
    return out, T.finfo().dtype, T.finfo(T.float32) == T.finfo(T.float32)


@program()
def prog_note_float32_vs_float64_sum_differs(T: Any) -> Any:
    a = T.tensor([1e8, 1.0, -1e8, 1.0])
    b = a.double()
    s32 = a.sum()
    s64 = b.sum()
    x = T.tensor(_data(100, seed=7))
    return s32, s64, s32.dtype, x.sum().double() - x.double().sum() == 0, (x.double() * 1).dtype


@program()
def prog_note_dtype_promotion_rules(T: Any) -> Any:
    i = T.tensor([1, 2])
    f = T.tensor([1.0, 2.0])
    h = T.tensor([1.0], dtype=T.float16)
    d = T.tensor([1.0], dtype=T.float64)
    b = T.tensor([True])
    return (
        (i + f).dtype,
        (i * 2.5).dtype,
        (i / 2).dtype,
        (i // 2).dtype,
        (h + 1.0).dtype,
        (h + f).dtype,
        (f + d).dtype,
        (b + b).dtype,
        (b + 1).dtype,
        (h + T.tensor(1.0, dtype=T.float64)).dtype,
        T.result_type(i, 1.0),
        T.promote_types(T.int32, T.float16),
        T.can_cast(T.float64, T.int32),
    )


@program()
def prog_note_extremal_values_overflow_and_inf(T: Any) -> Any:
    x = T.tensor([100.0, 1000.0, -1000.0])
    h = T.tensor([60000.0], dtype=T.float16)
    return (
        x.exp(),
        T.softmax(x, 0),
        T.logsumexp(x, 0),
        h * 2,
        (x.exp() / x.exp()),
        T.tensor([1e-45]) > 0,
        T.tensor(0.0).log(),
    )


@program()
def prog_note_integer_overflow_wraps(T: Any) -> Any:
    a = T.tensor([127], dtype=T.int8)
    b = T.tensor([255], dtype=T.uint8)
    c = T.tensor([2**62], dtype=T.int64)
    return a + 1, b + 1, c * 4, T.tensor([-128], dtype=T.int8).abs()


# --- randomness.rst ---------------------------------------------------------------------------


@program()
def prog_note_manual_seed_reproducible(T: Any) -> Any:
    T.manual_seed(0)
    a = T.randn(3)
    T.manual_seed(0)
    b = T.randn(3)
    c = T.randn(3)
    return a, b, T.equal(a, b), T.equal(b, c), T.initial_seed()


@program()
def prog_note_generator_objects_independent(T: Any) -> Any:
    g1 = T.Generator().manual_seed(42)
    g2 = T.Generator()
    g2.manual_seed(42)
    T.manual_seed(7)
    a = T.rand(3, generator=g1)
    glob = T.rand(2)
    b = T.rand(3, generator=g2)
    state = g1.get_state()
    c = T.randint(0, 10, (4,), generator=g1)
    g1.set_state(state)
    d = T.randint(0, 10, (4,), generator=g1)
    return a, b, glob, c, d, g1.initial_seed(), state.dtype, state.shape


@program()
def prog_note_fork_rng_restores_global_state(T: Any) -> Any:
    T.manual_seed(3)
    with T.random.fork_rng():
        T.manual_seed(99)
        inner = T.randn(2)
    after = T.randn(2)
    T.manual_seed(3)
    ref = T.randn(2)
    s = T.get_rng_state()
    x = T.rand(2)
    T.set_rng_state(s)
    y = T.rand(2)
    return inner, after, ref, x, y


@program()
def prog_note_dropout_and_randperm_seeded(T: Any) -> Any:
    T.manual_seed(5)
    d = T.nn.Dropout(0.5)
    x = _leaf(T, 8, seed=1)
    y = d(x)
    y.sum().backward()
    p = T.randperm(6)
    gen = T.Generator().manual_seed(1)
    q = T.randperm(6, generator=gen)
    return y, x.grad, p, q, _name(y)


# --- modules.rst ------------------------------------------------------------------------------


@program()
def prog_note_module_buffers_persistent_and_not(T: Any) -> Any:
    class RunningMean(T.nn.Module):
        def __init__(self, n: int, momentum: float = 0.5) -> None:
            super().__init__()
            self.momentum = momentum
            self.register_buffer("mean", T.zeros(n))
            self.register_buffer("scratch", T.ones(n), persistent=False)
            self.register_buffer("unset", None)

        def forward(self, x: Any) -> Any:
            self.mean = self.momentum * self.mean + (1 - self.momentum) * x
            return self.mean

    m = RunningMean(3)
    for k in range(3):
        m(T.tensor(_data(3, seed=k)))
    return (
        m.mean,
        list(m.state_dict()),
        [k for k, _ in m.named_buffers()],
        list(m.parameters()),
        raises(lambda: m.register_buffer("mean", [1, 2])),
        raises(lambda: m.register_buffer("a.b", T.ones(1))),
    )


@program()
def prog_note_module_apply_init_and_children(T: Any) -> Any:
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Sequential(T.nn.Linear(4, 2)))
    seen: list[Any] = []

    def init(m: Any) -> None:
        seen.append(type(m).__name__)
        if isinstance(m, T.nn.Linear):
            T.nn.init.constant_(m.weight, 0.5)
            T.nn.init.zeros_(m.bias)

    ret = net.apply(init)
    y = net(T.tensor(_data(2, 3, seed=3)))
    return (
        seen,
        ret is net,
        y,
        [n for n, _ in net.named_modules()],
        [type(c).__name__ for c in net.children()],
        [n for n, _ in net.named_parameters(prefix="net")],
    )


@program()
def prog_note_module_to_dtype_and_requires_grad(T: Any) -> Any:
    m = _seeded(T, T.nn.Linear(3, 2), 21)
    m.register_buffer("steps", T.tensor(0))
    m.to(T.float64)
    dts = (m.weight.dtype, m.bias.dtype, m.steps.dtype, m.weight.is_leaf)
    m.requires_grad_(False)
    y = m(T.tensor(_data(2, 3, seed=1)).double())
    m.requires_grad_()
    m.half()
    return dts, y.requires_grad, y, m.weight.dtype, m.weight.requires_grad, type(m.weight).__name__


@program()
def prog_note_module_zero_grad_set_to_none(T: Any) -> Any:
    m = _seeded(T, T.nn.Linear(3, 2), 22)
    x = T.tensor(_data(4, 3, seed=2))
    m(x).sum().backward()
    m.zero_grad(set_to_none=False)
    a = (m.weight.grad, m.bias.grad)
    m(x).sum().backward()
    m.zero_grad()
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    m(x).sum().backward()
    opt.zero_grad(set_to_none=False)
    return a, m.weight.grad, m.bias.grad


@program()
def prog_note_module_training_mode_switch(T: Any) -> Any:
    class ModalDropout(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return x * 2 if self.training else x

    m = T.nn.Sequential(ModalDropout(), T.nn.Sequential(ModalDropout()))
    x = T.ones(2)
    a = m(x)
    m.eval()
    b = m(x)
    flags = [c.training for c in m.modules()]
    m.train()
    m[1].train(False)
    return a, b, flags, [c.training for c in m.modules()], m(x)


@program()
def prog_note_module_forward_hooks(T: Any) -> Any:
    log: list[Any] = []
    m = _seeded(T, T.nn.Linear(3, 2), 23)

    def pre(mod: Any, args: Any) -> Any:
        log.append(("pre", len(args)))
        return (args[0] * 2,)

    def post(mod: Any, args: Any, out: Any) -> Any:
        log.append(("post", tuple(out.shape)))
        return out + 1

    def bwd(mod: Any, gin: Any, gout: Any) -> Any:
        log.append(("bwd", [None if g is None else tuple(g.shape) for g in gin]))
        return None

    def bwd_pre(mod: Any, gout: Any) -> Any:
        log.append(("bwd_pre", tuple(gout[0].shape)))
        return None

    hs = [
        m.register_forward_pre_hook(pre),
        m.register_forward_hook(post),
        m.register_full_backward_hook(bwd),
        m.register_full_backward_pre_hook(bwd_pre),
    ]
    x = _leaf(T, 4, 3, seed=3)
    y = m(x)
    y.sum().backward()
    for h in hs:
        h.remove()
    y2 = m(x)
    return log, y, y2, x.grad, m.weight.grad


@program()
def prog_note_module_forward_hook_with_kwargs(T: Any) -> Any:
    log: list[Any] = []

    class Scale(T.nn.Module):
        def forward(self, x: Any, scale: float = 1.0) -> Any:
            return x * scale

    m = Scale()

    def pre(mod: Any, args: Any, kwargs: Any) -> Any:
        log.append(("pre", sorted(kwargs)))
        kwargs = dict(kwargs, scale=kwargs.get("scale", 1.0) * 10)
        return args, kwargs

    def post(mod: Any, args: Any, kwargs: Any, out: Any) -> Any:
        log.append(("post", sorted(kwargs)))
        return out

    m.register_forward_pre_hook(pre, with_kwargs=True)
    m.register_forward_hook(post, with_kwargs=True)
    return m(T.ones(2), scale=3.0), m(T.ones(2)), log


@program()
def prog_note_module_state_dict_roundtrip_and_strict(T: Any) -> Any:
    a = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 2), T.nn.BatchNorm1d(2)), 24)
    b = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.BatchNorm1d(2))
    sd = a.state_dict()
    r = b.load_state_dict(sd)
    sd2 = dict(sd)
    sd2.pop("0.bias")
    sd2["extra"] = T.ones(1)
    err = raises(lambda: b.load_state_dict(sd2))
    r2 = b.load_state_dict(sd2, strict=False)
    bad = dict(sd)
    bad["0.weight"] = T.ones(3, 3)
    err2 = raises(lambda: b.load_state_dict(bad))
    return (
        list(sd),
        r.missing_keys,
        r.unexpected_keys,
        err,
        r2.missing_keys,
        r2.unexpected_keys,
        err2,
        b[0].weight,
        sd["1.num_batches_tracked"],
    )


@program()
def prog_note_module_parametrization_orthogonal_and_custom(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class Symmetric(T.nn.Module):
        def forward(self, X: Any) -> Any:
            return X.triu() + X.triu(1).transpose(-1, -2)

    lin = _seeded(T, T.nn.Linear(3, 3), 25)
    P.register_parametrization(lin, "weight", Symmetric())
    w = lin.weight
    sym = T.equal(w, w.t())
    y = lin(T.tensor(_data(2, 3, seed=4)))
    y.sum().backward()
    orig = lin.parametrizations.weight.original
    names = [n for n, _ in lin.named_parameters()]
    with P.cached():
        c1 = lin.weight
        c2 = lin.weight
    P.remove_parametrizations(lin, "weight", leave_parametrized=True)
    return (
        sym,
        orig.grad,
        names,
        c1 is c2,
        P.is_parametrized(lin),
        [n for n, _ in lin.named_parameters()],
        lin.weight,
    )


@program()
def prog_note_module_register_module_and_errors(T: Any) -> Any:
    m = T.nn.Module()
    m.add_module("fc", T.nn.Linear(2, 2))
    m.register_module("act", T.nn.ReLU())
    return (
        [n for n, _ in m.named_children()],
        raises(lambda: m.add_module("fc.x", T.nn.ReLU())),
        raises(lambda: m.add_module("x", 3)),
        raises(lambda: setattr(m, "fc", 3)),
        raises(lambda: m.register_parameter("p", T.ones(2))),
        raises(lambda: m()),
        raises(lambda: m.nonexistent),
    )


# --- serialization.rst ------------------------------------------------------------------------


def _roundtrip(T: Any, obj: Any) -> Any:
    buf = io.BytesIO()
    T.save(obj, buf)
    buf.seek(0)
    return T.load(buf)


@program()
def prog_note_save_load_tensor_views_share_storage(T: Any) -> Any:
    numbers = T.arange(1, 10)
    evens = numbers[1::2]
    loaded_numbers, loaded_evens = _roundtrip(T, [numbers, evens])
    loaded_evens *= 2
    same = loaded_numbers.untyped_storage().data_ptr() == loaded_evens.untyped_storage().data_ptr()
    return loaded_numbers, loaded_evens, loaded_evens.stride(), same


@program()
def prog_note_save_small_view_keeps_whole_storage(T: Any) -> Any:
    large = T.arange(1, 1000)
    small = large[0:5]
    a = _roundtrip(T, small)
    b = _roundtrip(T, small.clone())
    return (
        a,
        a.untyped_storage().nbytes(),
        b.untyped_storage().nbytes(),
        a.is_contiguous(),
    )


@program()
def prog_note_save_load_state_dict_into_new_module(T: Any) -> Any:
    bn = _seeded(T, T.nn.BatchNorm1d(3), 26)
    bn(T.tensor(_data(4, 3, seed=7)))
    sd = _roundtrip(T, bn.state_dict())
    new = T.nn.BatchNorm1d(3)
    new.load_state_dict(sd)
    return (
        list(sd),
        sd["running_mean"],
        sd["num_batches_tracked"],
        new.running_var,
        new.weight,
        type(sd).__name__,
    )


@program()
def prog_note_save_load_requires_grad_and_dtypes(T: Any) -> Any:
    p = T.nn.Parameter(T.tensor(_data(3)))
    x = _leaf(T, 2)
    obj = {
        "p": p,
        "x": x,
        "i": T.tensor([1, 2], dtype=T.int16),
        "b": T.tensor([True, False]),
        "h": T.tensor([0.5], dtype=T.float16),
        "c": T.tensor([1 + 2j]),
        "n": 3,
        "s": "str",
    }
    out = _roundtrip(T, obj)
    return (
        {k: v for k, v in out.items()},
        type(out["p"]).__name__,
        out["p"].requires_grad,
        out["x"].requires_grad,
        out["x"].is_leaf,
    )


@program()
def prog_note_save_nonleaf_and_weights_only(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x * 2
    e = raises(lambda: _roundtrip(T, y))
    buf = io.BytesIO()
    T.save({"t": y.detach(), "lst": [1, 2.5]}, buf)
    buf.seek(0)
    ok = T.load(buf, weights_only=True)
    return e, ok


@program()
def prog_note_save_module_state_dict_values_after_training(T: Any) -> Any:
    m = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1)), 27)
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    x = T.tensor(_data(8, 3, seed=8))
    for _ in range(3):
        opt.zero_grad()
        m(x).pow(2).mean().backward()
        opt.step()
    ck = _roundtrip(T, {"model": m.state_dict(), "opt": opt.state_dict()})
    m2 = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1))
    m2.load_state_dict(ck["model"])
    opt2 = T.optim.Adam(m2.parameters(), lr=0.01)
    opt2.load_state_dict(ck["opt"])
    for o, mm in ((opt, m), (opt2, m2)):
        o.zero_grad()
        mm(x).pow(2).mean().backward()
        o.step()
    return m2(x), m(x), ck["opt"]["state"][0]["step"], ck["opt"]["param_groups"]


# --- autograd.rst / autograd API: common misuses and their messages ---------------------------


@program()
def prog_note_nonleaf_grad_access_warns_and_retain_grad(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x * 2
    z = y.sum()
    z.backward(retain_graph=True)
    g_warn = y.grad
    y.retain_grad()
    z.backward()
    return g_warn, y.grad, y.retains_grad, x.retains_grad, x.grad


@program()
def prog_note_requires_grad_flag_errors(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x * 2
    return (
        raises(lambda: y.requires_grad_(False)),
        raises(lambda: T.tensor([1, 2]).requires_grad_()),
        raises(lambda: T.tensor([1, 2], requires_grad=True)),
        raises(lambda: T.ones(2).retain_grad()),
        raises(lambda: T.ones(2).sum().backward()),
        y.requires_grad_(True) is y,
        raises(lambda: setattr(y, "requires_grad", False)),
    )


@program()
def prog_note_backward_inputs_argument(T: Any) -> Any:
    a = _leaf(T, 3)
    b = _leaf(T, 3, seed=1)
    c = a * b
    d = (c * c).sum()
    d.backward(inputs=[a], retain_graph=True)
    ga, gb = a.grad.clone(), b.grad
    d.backward(inputs=[c], retain_graph=True)
    e = raises(lambda: d.backward(inputs=[], retain_graph=True))
    T.autograd.backward([d, c.sum()], inputs=[b])
    return ga, gb, c.grad, e, b.grad, a.grad


@program()
def prog_note_grad_accumulates_until_zeroed(T: Any) -> Any:
    w = _leaf(T, 2, 2)
    x = T.tensor(_data(2, seed=3))
    for _ in range(3):
        (w @ x).pow(2).sum().backward()
    acc = w.grad.clone()
    w.grad.zero_()
    (w @ x).sum().backward()
    w.grad = None
    (w @ x).sum().backward()
    return acc, w.grad, raises(lambda: setattr(w, "grad", T.ones(3)))


@program()
def prog_note_autograd_backward_with_grad_tensors(T: Any) -> Any:
    x = _leaf(T, 3)
    y1 = x * 2
    y2 = x.pow(2)
    T.autograd.backward([y1, y2], grad_tensors=[T.ones(3), T.tensor([1.0, 0.0, -1.0])])
    e = raises(lambda: T.autograd.backward([x * 1], grad_tensors=[T.ones(2)]))
    e2 = raises(lambda: T.autograd.grad([x * 1], [x], grad_outputs=[T.ones(3), T.ones(3)]))
    return x.grad, e, e2


@program()
def prog_note_grad_outputs_mismatch_errors(T: Any) -> Any:
    x = _leaf(T, 3)
    z = T.tensor([1 + 1j, 2 + 0j], requires_grad=True)
    return (
        raises(lambda: T.autograd.grad(x * 2, x, grad_outputs=T.ones(2))),
        raises(lambda: T.autograd.grad(x * 2, x, grad_outputs=T.ones(3, dtype=T.float64))),
        raises(lambda: T.autograd.grad(z * 2, z, grad_outputs=T.ones(2))),
        raises(lambda: T.autograd.grad((z * 2).sum(), z)),
    )


@program()
def prog_note_autograd_grad_only_inputs_and_leaf_grads_untouched(T: Any) -> Any:
    x = _leaf(T, 3)
    w = _leaf(T, 3, seed=2)
    out = (x * w).sum()
    (gx,) = T.autograd.grad(out, x, retain_graph=True)
    untouched = (x.grad, w.grad)
    (gw,) = T.autograd.grad(out, w, only_inputs=True)
    return gx, gw, untouched


@program()
def prog_note_no_grad_inplace_on_leaf_breaks_saved(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x * x
    with T.no_grad():
        x.mul_(2)
    err = raises(lambda: y.sum().backward())
    z = x * 3  # not saved: fine
    with T.no_grad():
        x.add_(1)
    z.sum().backward()
    return err, x._version, x.grad


@program()
def prog_note_data_attribute_bypasses_version_tracking(T: Any) -> Any:
    x = _leaf(T, 3)
    y = x.exp()
    y.data.mul_(0)
    y.sum().backward()
    v = y._version
    w = _leaf(T, 3, seed=1)
    w.data = T.ones(3) * 4
    (w * w).sum().backward()
    return x.grad, v, w.grad, w.is_leaf, raises(lambda: setattr(w, "data", [1.0]))


@program()
def prog_note_view_inplace_base_regenerates_grad_fn(T: Any) -> Any:
    x = _leaf(T, 2, 3)
    base = x.clone()
    v = base[0]
    t = base.t()
    base.mul_(2)
    names = (_name(v), _name(t), _name(base))
    (v.sum() + t[1].sum() * 3).backward()
    return names, x.grad


@program()
def prog_note_inplace_on_view_of_leaf_created_in_no_grad(T: Any) -> Any:
    x = _leaf(T, 4)
    with T.no_grad():
        v = x[:2]
    e = raises(lambda: v.mul_(2))
    y = x.clone()
    with T.no_grad():
        w = y[1:]
    e2 = raises(lambda: w.add_(T.ones(3, requires_grad=True)))
    return v.requires_grad, _name(v), e, e2


@program()
def prog_note_multi_output_view_inplace_error(T: Any) -> Any:
    x = _leaf(T, 4)
    y = x.clone()
    a, _ = y.split(2)
    e = raises(lambda: a.mul_(2))
    c = y.unbind()[0]
    e2 = raises(lambda: c.add_(1))
    return e, e2, _name(a), _name(c)


@program()
def prog_note_expanded_tensor_inplace_write_error(T: Any) -> Any:
    x = T.ones(1, 3).expand(2, 3)
    e = raises(lambda: x.add_(1))
    y = T.zeros(3)
    e2 = raises(lambda: T.add(T.ones(3), 1, out=y.expand(2, 3)))
    return e, e2, x.stride(), x.is_contiguous()


@program()
def prog_note_grad_fn_node_api(T: Any) -> Any:
    a = _leaf(T, 3)
    b = _leaf(T, 3, seed=1)
    c = (a * b).sum()
    gf = c.grad_fn
    nf = gf.next_functions
    mul = nf[0][0]
    acc = mul.next_functions[0][0]
    gf.metadata["tag"] = 7
    return (
        gf.name(),
        [(type(n).__name__, i) for n, i in nf],
        [(type(n).__name__, i) for n, i in mul.next_functions],
        acc.variable is a,
        gf.metadata,
        c.grad_fn is gf,
        raises(lambda: acc.variable.add_(1)),
    )


@program()
def prog_note_gradient_of_shared_subexpression(T: Any) -> Any:
    x = _leaf(T, 3, dtype=T.float64)
    s = x.sin()
    y = s * s + s.exp() * x
    y.sum().backward()
    return x.grad, _name(y), [type(n).__name__ for n, _ in y.grad_fn.next_functions]


@program()
def prog_note_anomaly_mode_flags(T: Any) -> Any:
    x = _leaf(T, 3)
    with T.autograd.detect_anomaly(check_nan=True):
        inside = (T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled())
        y = (x * 0).div(T.zeros(3))
        e = raises(lambda: y.sum().backward())
    with T.autograd.set_detect_anomaly(False):
        off = T.is_anomaly_enabled()
    return inside, off, T.is_anomaly_enabled(), type(e).__name__, y


@program()
def prog_note_grad_mode_interplay_table(T: Any) -> Any:
    x = _leaf(T, 2)
    out = []
    with T.inference_mode():
        with T.no_grad():
            out.append(((x * 2).requires_grad, T.is_inference_mode_enabled()))
        with T.enable_grad():
            out.append(((x * 2).requires_grad, T.is_inference_mode_enabled()))
    with T.no_grad():
        with T.inference_mode():
            out.append(((x * 2).requires_grad, (x * 2).is_inference()))
        with T.inference_mode(mode=False):
            out.append(((x * 2).requires_grad, T.is_grad_enabled()))
    return out


# --- extending.rst: more Function rules --------------------------------------------------------


@program()
def prog_note_function_output_view_then_inplace_error(T: Any) -> Any:
    class ViewOut(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g

    class AsIs(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = _leaf(T, 3)
    y = ViewOut.apply(x.clone())
    e = raises(lambda: y.mul_(2))
    z = AsIs.apply(x.clone())
    e2 = raises(lambda: z.mul_(2))
    return e, e2, _name(y), y._is_view(), _name(z)


@program()
def prog_note_function_saved_tensor_modified_error(T: Any) -> Any:
    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    a = _leaf(T, 3)
    b = a.clone()
    y = Sq.apply(b)
    b.add_(1)
    e = raises(lambda: y.sum().backward())
    y2 = Sq.apply(a.clone())
    y2.sum().backward()
    e2 = raises(lambda: y2.grad_fn.saved_tensors)
    return e, e2, a.grad


@program()
def prog_note_function_non_tensor_outputs_and_inputs(T: Any) -> Any:
    seen: list[Any] = []

    class Mixed(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, n, flag, t):
            ctx.n = n
            return x * n, n + 1, None, t.sum()

        @staticmethod
        def backward(ctx, gx, gn, gnone, gt):
            seen.append((gn, gnone, tuple(ctx.needs_input_grad)))
            return gx * ctx.n, None, None, T.ones(2) * gt

    x = _leaf(T, 3)
    t = _leaf(T, 2, seed=1)
    a, n, none, s = Mixed.apply(x, 3, True, t)
    (a.sum() + s).backward()
    return a, n, none, s, x.grad, t.grad, seen, _name(a)


@program()
def prog_note_function_backward_returns_non_tensor_error(T: Any) -> Any:
    class BadType(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 2

    class NoBackward(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    x = _leaf(T, 3)
    return (
        raises(lambda: BadType.apply(x).sum().backward()),
        raises(lambda: NoBackward.apply(x).sum().backward()),
    )


@program()
def prog_note_function_needs_input_grad_mixed(T: Any) -> Any:
    seen: list[Any] = []

    class Add3(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, c):
            return a + b + c

        @staticmethod
        def backward(ctx, g):
            seen.append(tuple(ctx.needs_input_grad))
            return tuple(g if n else None for n in ctx.needs_input_grad)

    a = _leaf(T, 2)
    b = T.ones(2)
    c = _leaf(T, 2, seed=1) * 2
    Add3.apply(a, b, c).sum().backward()
    return seen, a.grad, b.grad


@program()
def prog_note_function_save_for_forward_jvp(T: Any) -> Any:
    fwAD = T.autograd.forward_ad

    class Mul(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            ctx.save_for_forward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y, g * x

        @staticmethod
        def jvp(ctx, tx, ty):
            x, y = ctx.saved_tensors
            return tx * y + x * ty

    x = T.tensor(_data(3, seed=1)).double()
    y = T.tensor(_data(3, seed=2)).double()
    tx = T.ones(3).double()
    with fwAD.dual_level():
        out = Mul.apply(fwAD.make_dual(x, tx), y)
        p, t = fwAD.unpack_dual(out)
    return p, t


# --- modules.rst: more of the Module API ------------------------------------------------------


@program()
def prog_note_module_shared_parameters_tied(T: Any) -> Any:
    emb = T.nn.Embedding(5, 3)
    head = T.nn.Linear(3, 5, bias=False)
    head.weight = emb.weight
    m = T.nn.ModuleDict({"emb": emb, "head": head})
    _seeded(T, m, 31)
    y = m["head"](m["emb"](T.tensor([1, 3])))
    y.sum().backward()
    return (
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_parameters(remove_duplicate=False)],
        list(m.state_dict()),
        emb.weight.grad,
        head.weight is emb.weight,
    )


@program()
def prog_note_module_state_dict_keep_vars_and_detached(T: Any) -> Any:
    m = _seeded(T, T.nn.Linear(2, 2), 32)
    sd = m.state_dict()
    kv = m.state_dict(keep_vars=True)
    sd["weight"].add_(1)  # shares memory with the parameter
    return (
        sd["weight"].requires_grad,
        kv["weight"] is m.weight,
        m.weight,
        type(sd).__name__,
        sd["weight"].is_leaf,
    )


@program()
def prog_note_module_load_state_dict_assign(T: Any) -> Any:
    src = _seeded(T, T.nn.Linear(3, 2), 33)
    dst = T.nn.Linear(3, 2)
    sd = {k: v.clone() for k, v in src.state_dict().items()}
    dst.load_state_dict(sd, assign=True)
    return (
        dst.weight,
        type(dst.weight).__name__,
        dst.weight.requires_grad,
        dst.weight.data_ptr() == sd["weight"].data_ptr(),
    )


@program()
def prog_note_module_get_submodule_and_parameter(T: Any) -> Any:
    net = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.Sequential(T.nn.ReLU(), T.nn.Linear(3, 1)))
    net.register_buffer("scale", T.ones(1))
    return (
        type(net.get_submodule("1.1")).__name__,
        tuple(net.get_parameter("1.1.weight").shape),
        tuple(net.get_buffer("scale").shape),
        raises(lambda: net.get_submodule("1.5")),
        raises(lambda: net.get_parameter("1.1.nope")),
        raises(lambda: net.get_parameter("scale")),
        raises(lambda: net.get_buffer("0.weight")),
    )


@program()
def prog_note_module_global_forward_hook(T: Any) -> Any:
    log: list[Any] = []
    h = T.nn.modules.module.register_module_forward_hook(
        lambda m, i, o: log.append(type(m).__name__)
    )
    try:
        net = _seeded(T, T.nn.Sequential(T.nn.Linear(2, 2), T.nn.ReLU()), 34)
        net(T.ones(1, 2))
    finally:
        h.remove()
    net(T.ones(1, 2))
    return log


@program()
def prog_note_module_full_backward_hook_inputs_no_grad(T: Any) -> Any:
    log: list[Any] = []
    m = _seeded(T, T.nn.Linear(3, 2), 35)
    m.register_full_backward_hook(
        lambda mod, gi, go: log.append(([g is None for g in gi], [tuple(g.shape) for g in go]))
    )
    m(T.tensor(_data(2, 3))).sum().backward()
    x = _leaf(T, 2, 3)
    m(x).sum().backward()
    return log, x.grad


@program()
def prog_note_module_backward_hook_inplace_output_error(T: Any) -> Any:
    class Inplace(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return x.relu_()

    m = Inplace()
    m.register_full_backward_hook(lambda mod, gi, go: None)
    x = _leaf(T, 3)
    e = raises(lambda: m(x * 1))
    n = T.nn.ReLU()
    n.register_full_backward_hook(lambda mod, gi, go: None)
    y = n(x * 1)
    e2 = raises(lambda: y.mul_(2))
    return e, e2


@program()
def prog_note_module_parametrize_right_inverse_assignment(T: Any) -> Any:
    P = T.nn.utils.parametrize

    class Exp(T.nn.Module):
        def forward(self, X: Any) -> Any:
            return X.exp()

        def right_inverse(self, Y: Any) -> Any:
            return Y.log()

    m = _seeded(T, T.nn.Linear(2, 2), 36)
    with T.no_grad():
        m.weight.abs_().add_(0.1)
    before = m.weight.clone()
    P.register_parametrization(m, "weight", Exp())
    after = m.weight
    orig = m.parametrizations.weight.original.clone()
    m.weight = T.full((2, 2), 2.0)
    return before, after, orig, m.weight, m.parametrizations.weight.original


@program()
def prog_note_module_repr_and_extra_repr(T: Any) -> Any:
    net = T.nn.Sequential(
        T.nn.Conv2d(1, 2, 3, padding=1),
        T.nn.BatchNorm2d(2),
        T.nn.Dropout(0.1),
        T.nn.Flatten(),
        T.nn.ModuleList([T.nn.Linear(4, 2), T.nn.GELU(approximate="tanh")]),
    )
    return repr(net)


@program()
def prog_note_module_train_eval_return_self_and_buffers_to(T: Any) -> Any:
    bn = T.nn.BatchNorm1d(2)
    r = (bn.train() is bn, bn.eval() is bn, bn.requires_grad_(False) is bn)
    bn.double()
    return r, bn.running_mean.dtype, bn.num_batches_tracked.dtype, bn.weight.requires_grad


# --- randomness.rst: more ---------------------------------------------------------------------


@program()
def prog_note_dataloader_generator_shuffle_reproducible(T: Any) -> Any:
    data = T.utils.data.TensorDataset(T.arange(10.0), T.arange(10))
    g = T.Generator()
    g.manual_seed(0)
    dl = T.utils.data.DataLoader(data, batch_size=4, shuffle=True, generator=g)
    first = [b[1] for b in dl]
    g.manual_seed(0)
    second = [b[1] for b in dl]
    split = T.utils.data.random_split(range(6), [4, 2], generator=T.Generator().manual_seed(1))
    return first, second, [list(s) for s in split]


@program()
def prog_note_deterministic_algorithms_flag(T: Any) -> Any:
    before = T.are_deterministic_algorithms_enabled()
    T.use_deterministic_algorithms(True)
    try:
        on = (
            T.are_deterministic_algorithms_enabled(),
            T.is_deterministic_algorithms_warn_only_enabled(),
        )
        x = T.zeros(3)
        x.index_add_(0, T.tensor([0, 0, 2]), T.ones(3))
    finally:
        T.use_deterministic_algorithms(False)
    return before, on, x, T.are_deterministic_algorithms_enabled()


@program()
def prog_note_generator_device_and_seed_errors(T: Any) -> Any:
    g = T.Generator()
    g.manual_seed(2**40 + 3)
    return (
        g.initial_seed(),
        str(g.device),
        T.rand(2, generator=g),
        raises(lambda: g.manual_seed(-1)),
        raises(lambda: g.set_state(T.zeros(3))),
        raises(lambda: T.manual_seed("x")),
        T.randint(low=2, high=5, size=(3,), generator=g),
        T.randint(2, high=5, size=(2,), generator=g),
        raises(lambda: T.randint(low=2, size=(3,))),
    )


# --- numerical_accuracy.rst / broadcasting: more ----------------------------------------------


@program()
def prog_note_default_dtype_switch(T: Any) -> Any:
    old = T.get_default_dtype()
    T.set_default_dtype(T.float64)
    try:
        a = T.tensor([1.0, 2.0])
        b = T.ones(2)
        c = T.tensor([1, 2]) * 0.5
        d = T.arange(0.0, 1.0, 0.5)
        e = T.tensor(1 + 2j)
    finally:
        T.set_default_dtype(old)
    f = raises(lambda: T.set_default_dtype(T.int32))
    return [t.dtype for t in (a, b, c, d, e)], T.get_default_dtype(), f


@program()
def prog_note_allclose_isclose_nan(T: Any) -> Any:
    a = T.tensor([1.0, float("nan"), 1e-9, float("inf")])
    b = T.tensor([1.0 + 1e-7, float("nan"), 0.0, float("inf")])
    return (
        T.isclose(a, b),
        T.isclose(a, b, equal_nan=True),
        T.allclose(a, b),
        T.allclose(a, b, equal_nan=True),
        T.isclose(a, b, rtol=0, atol=0),
        raises(lambda: T.isclose(a, b.double())),
        raises(lambda: T.allclose(a, b, rtol=-1)),
    )


@program()
def prog_note_half_precision_accumulation(T: Any) -> Any:
    h = T.full((4096,), 0.1, dtype=T.float16)
    x = T.tensor([1.0, 2.0**-24, 2.0**-25], dtype=T.float32)
    return (
        h.sum(),
        h.sum(dtype=T.float32),
        h.mean(),
        x.half(),
        T.tensor([65504.0, 65520.0]).half(),
        (T.tensor([3.0], dtype=T.float16) / 7).dtype,
    )


@program()
def prog_note_broadcast_backward_with_keepdim_and_scalars(T: Any) -> Any:
    x = _leaf(T, 3, 4)
    m = x.mean(1, keepdim=True)
    y = (x - m) / (x.std(1, keepdim=True) + 1e-5)
    s = _leaf(T, seed=5)
    z = (y * s + T.tensor(2.0)).pow(2).sum()
    z.backward()
    return z, x.grad, s.grad, s.shape, _name(y)


@program()
def prog_note_broadcast_inplace_dtype_rules(T: Any) -> Any:
    i = T.tensor([1, 2, 3])
    f = T.ones(3)
    e = raises(lambda: i.add_(f))
    f.add_(i)
    b = T.tensor([True, False])
    e2 = raises(lambda: b.mul_(2))
    e3 = raises(lambda: i.div_(2))
    i.floor_divide_(2)
    return e, f, e2, e3, i


# --- autograd.rst: which hooks fire, saved-tensor identity, multi-grad hooks -------------------


@program()
def prog_note_saved_tensor_identity_with_and_without_hooks(T: Any) -> Any:
    x = _leaf(T, 5)
    y = x * x
    plain = (y.grad_fn._saved_self is x, y.grad_fn._saved_other is x)
    with T.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
        z = x * x
    a, b = z.grad_fn._saved_self, z.grad_fn._saved_other
    z.sum().backward()
    return plain, (a is x, b is x, a is b), a.data_ptr() == x.data_ptr(), a.requires_grad, x.grad


@program()
def prog_note_tensor_hook_fires_for_grad_inputs_node_hooks_do_not(T: Any) -> Any:
    log: list[Any] = []
    a = _leaf(T, 3)
    b = a * 2
    c = (b * b).sum()
    b.register_hook(lambda g: log.append("b tensor hook"))
    b.grad_fn.register_hook(lambda gi, go: log.append("b node hook"))
    b.grad_fn.register_prehook(lambda go: log.append("b node prehook"))
    (gb,) = T.autograd.grad(c, b, retain_graph=True)
    log.append("|")
    ga, gb2 = T.autograd.grad(c, [a, b])
    return log, gb, ga, gb2


@program()
def prog_note_backward_inputs_still_runs_input_node_hooks(T: Any) -> Any:
    log: list[Any] = []
    a = _leaf(T, 3)
    b = a * 2
    c = (b * b).sum()
    b.register_hook(lambda g: log.append("b tensor hook"))
    b.grad_fn.register_hook(lambda gi, go: log.append(("b node hook", gi, go)))
    b.grad_fn.register_prehook(lambda go: log.append("b node prehook"))
    c.backward(inputs=[b])
    # the input's node runs without retain_graph: its saved values are freed afterwards, and
    # an input node whose graph was freed before raises
    e = _leaf(T, 3, seed=1)
    f = e.exp()
    (f * f).sum().backward(inputs=[f])
    after = raises(lambda: f.sum().backward())
    g = e.exp()
    g.sum().backward()
    before = raises(lambda: (g * g).sum().backward(inputs=[g]))
    return log, b.grad, a.grad, f.grad, after, before, e.grad


@program()
def prog_note_multi_grad_hook_all_and_any(T: Any) -> Any:
    log: list[Any] = []
    p = _leaf(T, 2)
    q = _leaf(T, 2, seed=1)
    h = T.autograd.graph.register_multi_grad_hook(
        (p, q), lambda gs: log.append([None if g is None else g.clone() for g in gs])
    )
    (p * 3).sum().backward()
    (p * q).sum().backward()
    h.remove()
    (p * q).sum().backward()
    T.autograd.graph.register_multi_grad_hook((p, q), lambda g: log.append(g.clone()), mode="any")
    (p * q * 5).sum().backward()
    bad = raises(lambda: T.autograd.graph.register_multi_grad_hook((p,), print, mode="some"))
    return log, bad, p.grad


@program()
def prog_note_same_type_hooks_run_in_order_and_chain(T: Any) -> Any:
    log: list[Any] = []
    z = _leaf(T, 2)
    w = z * 1
    w.register_hook(lambda g: g + 1)
    w.register_hook(lambda g: (log.append(g.clone()), g * 10)[1])
    w.grad_fn.register_prehook(lambda go: (log.append(go[0].clone()), None)[1])
    w.sum().backward()
    return log, z.grad


# warnings not compared: torch's first forward-mode vectorized jacobian in a process warns
@program(warnings=False)
def prog_note_functional_jacobian_forward_mode_containers(T: Any) -> Any:
    F = T.autograd.functional
    x = T.tensor(_data(3, seed=2)).double()
    y = T.tensor(_data(2, seed=3)).double()

    def one(a: Any, b: Any) -> Any:
        return (a.sum() * b).exp()

    def two(a: Any, b: Any) -> Any:
        return (a.sum() * b).exp(), a * 2

    kw = {"strategy": "forward-mode", "vectorize": True}
    return (
        F.jacobian(one, (x, y), **kw),
        F.jacobian(two, (x, y), **kw),
        F.jacobian(lambda a: a * 2, (x,), **kw),
        F.jacobian(lambda a: (a * 2, a.sum()), x, **kw),
        F.jacobian(one, (x, y)),
        F.hessian(
            lambda a, b: one(a, b).sum(),
            (x, y),
            outer_jacobian_strategy="forward-mode",
            vectorize=True,
        ),
    )


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
