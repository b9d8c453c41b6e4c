"""Differential programs for `torch.func` (grad, grad_and_value, vjp, jvp, jacrev, jacfwd,
hessian, linearize, functional_call), run on torch and shadowgrad."""

from __future__ import annotations

from typing import Any

import pytest

from .program_set import ProgramSet
from .test_extension import assert_same, func, observe, raises

torch = pytest.importorskip("torch")
import shadowgrad  # noqa: E402

_SET = ProgramSet()
PROGRAMS = _SET.programs
XFAIL = _SET.xfail
program = _SET.program


def values(x: Any) -> Any:
    """Values only: whether a transform's output records a graph is not compared here."""
    if isinstance(x, (tuple, list)):
        return type(x)(values(v) for v in x)
    if isinstance(x, dict):
        return {k: values(v) for k, v in x.items()}
    return x.detach() if hasattr(x, "detach") else x


def _head(r: Any) -> Any:
    return (*r[:2], r[2].split(" Got primals")[0])


def f_mixed(T: Any, x: Any) -> Any:
    return (x.exp() * x.sin()).sum() + x[0] * x[1] * x[2] + T.relu(x).sum()


@program
def grad_values_and_flags(T: Any) -> Any:
    F = func(T)
    x = T.tensor([0.5, 0.0, -2.0])
    g, v = F.grad_and_value(lambda a: f_mixed(T, a))(x)
    return {
        "g": g,
        "v": v,
        "grad": F.grad(lambda a: f_mixed(T, a))(x),
        "x": x,
        "aux": F.grad(lambda a: ((a * 2).sum(), {"y": a * 3}), has_aux=True)(x),
        "argnums": F.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x + 1),
        "neg_argnum": F.grad(lambda a, b: (a * b.exp()).sum(), argnums=-1)(x, x),
        "dict_input": F.grad(lambda d: (d["a"] ** 2).sum())({"a": x}),
        "unused": F.grad(lambda a: T.tensor(1.0))(x),
        "int_out": F.grad(lambda a: (a * 2).sum().int())(x),
    }


@program
def grad_errors(T: Any) -> Any:
    F = func(T)
    x = T.tensor([1.0, 2.0])
    return {
        "non_scalar": raises(lambda: F.grad(lambda a: a * 2)(x)),
        "non_tensor": raises(lambda: F.grad(lambda a: 3.0)(x)),
        "tuple_out": raises(lambda: F.grad(lambda a: (a.sum(), 5))(x)),
        "aux_not_tuple": raises(lambda: F.grad(lambda a: a.sum(), has_aux=True)(x)),
        "empty_argnums": raises(lambda: F.grad(lambda a: a.sum(), argnums=())(x)),
        "float_argnums": raises(lambda: F.grad(lambda a: a.sum(), argnums=1.0)(x)),
        "argnum_range": raises(lambda: F.grad(lambda a: a.sum(), argnums=1)(x)),
        "int_input": raises(lambda: F.grad(lambda a: a.sum())(T.tensor([1, 2]))),
    }


@program
def backward_inside_a_transform_raises(T: Any) -> Any:
    F = func(T)

    def f(a: Any) -> Any:
        y = (a * 2).sum()
        y.backward()
        return y

    return raises(lambda: F.grad(f)(T.tensor([1.0, 2.0])))


@program
def vjp_and_jvp(T: Any) -> Any:
    F = func(T)
    x = T.tensor([0.5, 1.0, -2.0], dtype=T.float64)
    u = T.tensor([1.0, -1.0, 0.5], dtype=T.float64)

    def f(a: Any) -> Any:
        return T.stack([a.exp().sum(), (a * a[0]).sum(), a.tanh().prod()])

    out, vjp_fn = F.vjp(f, x)
    jout, jv = F.jvp(f, (x,), (u,))
    two_out, two_fn = F.vjp(lambda a, b: (a * b, a.sum() * b), x, x * 2)
    return {
        "out": values(out),
        "vjp": values(vjp_fn(u)),
        "vjp_again": values(vjp_fn(u * 2)),
        "jvp": values((jout, jv)),
        "two": values(two_fn((u, u))),
        "two_out": values(two_out),
        "jvp_aux": values(F.jvp(lambda a: (a * 2, a.sum()), (x,), (u,), has_aux=True)),
        "jvp_two_args": values(F.jvp(lambda a, b: a * b.sin(), (x, x), (u, u * 3))),
        "vjp_shape": raises(lambda: vjp_fn(T.ones(2, dtype=T.float64))),
        "jvp_not_tuple": raises(lambda: F.jvp(f, x, u)),
        # torch goes on to print its TreeSpec reprs; the sentence before them is compared
        "jvp_structure": _head(raises(lambda: F.jvp(f, (x,), (u, u)))),
        "jvp_size": raises(lambda: F.jvp(f, (x,), (T.ones(2, dtype=T.float64),))),
        "jvp_non_tensor": raises(lambda: F.jvp(lambda a: 3, (x,), (u,))),
        "jvp_int": raises(lambda: F.jvp(f, (T.tensor([1, 2]),), (T.tensor([1, 2]),))),
        "linearize": values(F.linearize(f, x)[1](u)),
    }


@program
def jacobians_and_hessian(T: Any) -> Any:
    F = func(T)
    x = T.tensor([0.5, 0.0, -2.0], dtype=T.float64)
    y = T.tensor([1.0, 2.0], dtype=T.float64)

    def f(a: Any) -> Any:
        return T.stack([a.exp().sum(), (a * a[0]).sum(), a.sin().prod(), T.relu(a).sum()])

    def g(a: Any, b: Any) -> Any:
        return a.unsqueeze(1) * b.exp(), (a.sum() * b).tanh()

    def s(a: Any) -> Any:
        return (a.exp() * a.sin()).sum() + a[0] * a[1] * a[2] + (a**3).sum()

    return {
        "jacrev": values(F.jacrev(f)(x)),
        "jacfwd": values(F.jacfwd(f)(x)),
        "jacrev_multi": values(F.jacrev(g, argnums=(0, 1))(x, y)),
        "jacfwd_multi": values(F.jacfwd(g, argnums=(0, 1))(x, y)),
        "jacrev_argnum1": values(F.jacrev(g, argnums=1)(x, y)),
        "jacrev_scalar_out": values(F.jacrev(s)(x)),
        "jacrev_aux": values(F.jacrev(lambda a: (a * 2, a.sum()), has_aux=True)(x)),
        "hessian": values(F.hessian(s)(x)),
        "hessian_matches": values(F.jacrev(F.jacrev(s))(x)),
        "rev_over_fwd": values(F.jacrev(F.jacfwd(s))(x)),
        "x": x,
    }


@program
def transforms_of_inputs_requiring_grad(T: Any) -> Any:
    F = func(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    g = F.grad(lambda a: (a**3).sum())(x)
    (gg,) = T.autograd.grad(g.sum(), x)
    return {"g": values(g), "g_rg": g.requires_grad, "gg": gg, "x": x, "x.grad": x.grad}


@program
def functional_call_linear(T: Any) -> Any:
    F = func(T)
    T.manual_seed(0)
    m = T.nn.Linear(3, 2).double()
    x = T.tensor([[1.0, -1.0, 2.0]], dtype=T.float64)
    w = T.ones(2, 3, dtype=T.float64)
    b = T.tensor([0.5, -0.5], dtype=T.float64)
    out = F.functional_call(m, {"weight": w, "bias": b}, (x,))
    grads = F.grad(lambda p: F.functional_call(m, p, (x,)).pow(2).sum())({"weight": w, "bias": b})
    return {
        "out": values(out),
        "grads": values(grads),
        "restored": type(m.weight).__name__,
        "weight_unchanged": m.weight.shape,
    }


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    _SET.check(name, observe, assert_same, torch, shadowgrad)
