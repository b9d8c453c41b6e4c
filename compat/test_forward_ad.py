"""Differential programs for forward-mode AD (`torch.autograd.forward_ad`).

Each program is written once as `prog(T)` against the torch API, runs on torch and on
shadowgrad, and the observations must match (see compat/test_extension.py for `observe`).
Tangents are compared by value (`.detach()`): whether a tangent records a backward graph is
checked separately, where it matters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .program_set import ProgramSet
from .test_extension import Function, assert_same, forward_ad, observe, raises

torch = pytest.importorskip("torch")
import shadowgrad  # noqa: E402

_SET = ProgramSet()
PROGRAMS = _SET.programs
XFAIL = _SET.xfail
program = _SET.program


def tangent_of(fw: Any, y: Any) -> Any:
    t = fw.unpack_dual(y).tangent
    return None if t is None else t.detach()


# --- dual tensors -------------------------------------------------------------------------


@program
def make_dual_repr_and_flags(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0])
    t = T.tensor([1.0, 0.0])
    with fw.dual_level() as level:
        d = fw.make_dual(x, t)
        u = fw.unpack_dual(d)
        plain = fw.unpack_dual(x)
        out = {
            "level": level,
            "repr": repr(d),
            "rg": d.requires_grad,
            "leaf": d.is_leaf,
            "base_is_x": d._base is x,
            "tangent_is_t": u.tangent is t,
            "primal": u.primal,
            "primal_is_view": u.primal._is_view(),
            "type": type(u).__name__,
            "fields": u._fields,
            "plain_tangent": plain.tangent,
            "zero_d": repr(fw.make_dual(T.tensor(1.0), T.tensor(2.0))),
            "sum_repr": repr((d * d).sum()),
        }
    out["after"] = fw.unpack_dual(d).tangent
    out["after_repr"] = repr(d)
    return out


@program
def make_dual_of_requires_grad_primal(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(x, T.tensor([1.0, 0.0]))
        p = fw.unpack_dual(d).primal
        (p * 2).sum().backward()
        return {
            "repr": repr(d),
            "leaf": d.is_leaf,
            "grad_fn": type(d.grad_fn).__name__,
            "primal_repr": repr(p),
            "x.grad": x.grad,
        }


@program
def make_dual_long_repr(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.arange(12.0, dtype=T.float64).reshape(3, 4) / 7
    with fw.dual_level():
        d = fw.make_dual(x, T.ones(3, 4))
        return {
            "repr": repr(d),
            "bcast": repr(fw.make_dual(T.tensor([1.0, 2.0]), T.ones(2)) * T.ones(3, 1)),
        }


@program
def make_dual_errors(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0])
    out = {
        "outside": raises(lambda: fw.make_dual(x, x)),
        "unpack_outside": fw.unpack_dual(x).tangent,
        "exit_outside": raises(lambda: fw.exit_dual_level()),
    }
    with fw.dual_level():
        d = fw.make_dual(x, x)
        out["size"] = raises(lambda: fw.make_dual(x, T.ones(3)))
        out["size2"] = raises(lambda: fw.make_dual(x, T.ones(2, 1)))
        out["int_primal"] = raises(lambda: fw.make_dual(T.tensor([1, 2]), x))
        out["int_tangent"] = raises(lambda: fw.make_dual(x, T.tensor([1, 2])))
        out["bad_level"] = raises(lambda: fw.make_dual(x, x, level=1))
        out["bad_unpack_level"] = raises(lambda: fw.unpack_dual(x, level=1))
        out["twice"] = raises(lambda: fw.make_dual(d, x))
        out["nested"] = raises(lambda: fw.enter_dual_level())
        out["exit_other"] = raises(lambda: fw.exit_dual_level(level=3))
    return out


@program
def enter_exit_functions(T: Any) -> Any:
    fw = forward_ad(T)
    lvl = fw.enter_dual_level()
    d = fw.make_dual(T.tensor([1.0]), T.tensor([3.0]))
    inside = tangent_of(fw, d * 2)
    fw.exit_dual_level()
    return {"level": lvl, "inside": inside, "after": fw.unpack_dual(d * 2).tangent}


@program
def tangent_dtype_is_kept(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = fw.make_dual(T.tensor([1.0, 2.0]), T.tensor([1.0, 0.5], dtype=T.float64))
        y = d * 3
        return {
            "repr": repr(d),
            "y": repr(y),
            "exp": tangent_of(fw, d.exp()),
            "to64": tangent_of(fw, d.to(T.float64)),
        }


# --- propagation through ops ----------------------------------------------------------------

X = [[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]]
TX = [[1.0, 0.5, -1.0], [0.25, 2.0, 1.0]]
Y = [[1.5, 2.0, -0.5], [0.75, -1.0, 3.0]]
TY = [[-0.5, 1.0, 0.0], [2.0, 0.5, -1.5]]
POS = [[0.5, 1.0, 2.0], [1.5, 3.0, 0.25]]

UNARY: dict[str, Callable[[Any, Any], Any]] = {
    "neg": lambda T, x: -x,
    "exp": lambda T, x: x.exp(),
    "tanh": lambda T, x: x.tanh(),
    "sigmoid": lambda T, x: T.sigmoid(x),
    "relu_kink": lambda T, x: T.relu(x),
    "abs_kink": lambda T, x: x.abs(),
    "sin": lambda T, x: x.sin(),
    "square": lambda T, x: x * x,
    "pow2": lambda T, x: x**2,
    "pow0": lambda T, x: x**0,
    "pow3": lambda T, x: x.pow(3),
    "sum": lambda T, x: x.sum(),
    "sum_dim": lambda T, x: x.sum(1),
    "sum_keepdim": lambda T, x: x.sum(0, keepdim=True),
    "mean": lambda T, x: x.mean(),
    "mean_dim": lambda T, x: x.mean(-1),
    "view": lambda T, x: x.view(3, 2),
    "reshape": lambda T, x: x.reshape(-1),
    "flatten_t": lambda T, x: x.t().reshape(-1),
    "expand": lambda T, x: x[:1].expand(4, 3),
    "permute": lambda T, x: x.permute(1, 0),
    "transpose": lambda T, x: x.transpose(0, 1),
    "select": lambda T, x: x[1],
    "slice": lambda T, x: x[:, 1:],
    "step_slice": lambda T, x: x[:, ::2],
    "unsqueeze": lambda T, x: x.unsqueeze(1),
    "squeeze": lambda T, x: x[:1].squeeze(0),
    "clone": lambda T, x: x.clone(),
    "to_double": lambda T, x: x.to(T.float64),
    "noncontig_exp": lambda T, x: x.t().exp(),
    "max_all": lambda T, x: x.max(),
    "max_dim": lambda T, x: x.max(1)[0],
    "softmax": lambda T, x: T.softmax(x, 1),
    "logsumexp": lambda T, x: T.logsumexp(x, 1),
    "cumsum": lambda T, x: x.cumsum(1),
    "where": lambda T, x: T.where(x > 0, x, x * 3),
    "cat_self": lambda T, x: T.cat([x, x * 2]),
    "stack": lambda T, x: T.stack([x, x.exp()], 1),
    "index": lambda T, x: x[T.tensor([1, 0, 1])],
    "matmul_self": lambda T, x: x @ x.t(),
    "linear_chain": lambda T, x: ((x * 2 + 1).tanh() - x.sigmoid()).sum(0),
}

POSITIVE: dict[str, Callable[[Any, Any], Any]] = {
    "log": lambda T, x: x.log(),
    "sqrt": lambda T, x: x.sqrt(),
    "pow_half": lambda T, x: x**0.5,
    "reciprocal": lambda T, x: 1 / x,
}

BINARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "add": lambda T, x, y: x + y,
    "add_alpha": lambda T, x, y: T.add(x, y, alpha=2.5),
    "sub": lambda T, x, y: x - y,
    "sub_alpha": lambda T, x, y: T.sub(x, y, alpha=-2),
    "mul": lambda T, x, y: x * y,
    "div": lambda T, x, y: x / y,
    "pow_tensor": lambda T, x, y: x.abs().pow(y),
    "maximum_ties": lambda T, x, y: T.maximum(x, x.detach() * 0 + y),
    "mm": lambda T, x, y: x @ y.t(),
    "matmul_mv": lambda T, x, y: x @ y[0],
    "dot": lambda T, x, y: T.dot(x[0], y[1]),
    "bmm": lambda T, x, y: T.bmm(x.unsqueeze(0), y.t().unsqueeze(0)),
    "broadcast_add": lambda T, x, y: x[0] + y.unsqueeze(0),
    "broadcast_mul": lambda T, x, y: x[:, :1] * y,
}


def _ops_program(T: Any, dtype: Any) -> Any:
    fw = forward_ad(T)
    out: dict[str, Any] = {}
    with fw.dual_level():
        x = fw.make_dual(T.tensor(X, dtype=dtype), T.tensor(TX, dtype=dtype))
        p = fw.make_dual(T.tensor(POS, dtype=dtype), T.tensor(TX, dtype=dtype))
        y = fw.make_dual(T.tensor(Y, dtype=dtype), T.tensor(TY, dtype=dtype))
        y_plain = T.tensor(Y, dtype=dtype)
        for k, f in UNARY.items():
            r = f(T, x)
            out[k] = (fw.unpack_dual(r).primal.detach(), tangent_of(fw, r))
        for k, f in POSITIVE.items():
            out[k] = tangent_of(fw, f(T, p))
        for k, f in BINARY.items():
            out[k] = tangent_of(fw, f(T, x, y))
            out[k + "_left"] = tangent_of(fw, f(T, x, y_plain))
            out[k + "_right"] = tangent_of(fw, f(T, y_plain, y))
    return out


@program
def ops_float64(T: Any) -> Any:
    return _ops_program(T, T.float64)


@program
def ops_float32(T: Any) -> Any:
    return _ops_program(T, T.float32)


@program
def scalar_and_empty_inputs(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        s = fw.make_dual(T.tensor(2.0), T.tensor(0.5))
        e = fw.make_dual(T.ones(0, 3), T.ones(0, 3))
        return {
            "scalar_exp": tangent_of(fw, s.exp()),
            "scalar_mul_py": tangent_of(fw, s * 3),
            "scalar_times_vec": tangent_of(fw, s * T.tensor([1.0, 2.0])),
            "rsub": tangent_of(fw, 1 - s),
            "empty_sum": tangent_of(fw, e.sum()),
            "empty_exp": tangent_of(fw, e.exp()),
            "int_result": tangent_of(fw, (s > 1).long()),
            "argmax": fw.unpack_dual(s.argmax()).tangent,
        }


@program
def tangents_propagate_under_no_grad(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = fw.make_dual(T.tensor([1.0, 2.0]), T.tensor([1.0, 0.0]))
        with T.no_grad():
            y = (d * 2).exp()
        return {"t": tangent_of(fw, y), "rg": y.requires_grad}


@program
def detach_drops_the_tangent(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = fw.make_dual(T.tensor([1.0, 2.0]), T.tensor([1.0, 0.0]))
        return {"detach": fw.unpack_dual(d.detach()).tangent, "clone": tangent_of(fw, d.clone())}


# --- forward and backward AD together --------------------------------------------------------


@program
def backward_of_a_dual_gives_a_dual_grad(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(x, T.tensor([1.0, 0.5]))
        (g1,) = T.autograd.grad((d * d).sum(), x)
        (g2,) = T.autograd.grad(d.exp().sum(), x)  # backward reads the saved output
        (g3,) = T.autograd.grad(d.tanh().sum(), x)
        (g4,) = T.autograd.grad((d.sin() * d).sum(), x)
        return {
            "g1": (g1.detach(), tangent_of(fw, g1)),
            "g2": (g2.detach(), tangent_of(fw, g2)),
            "g3": (g3.detach(), tangent_of(fw, g3)),
            "g4": (g4.detach(), tangent_of(fw, g4)),
        }


@program
def tangent_is_differentiable(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(x, T.tensor([1.0, 0.5]))
        jv = fw.unpack_dual((d**3).sum()).tangent  # 3 x^2 . t
        (g,) = T.autograd.grad(jv, x)
        return {"jv": jv.detach(), "g": g}


# --- custom Functions -----------------------------------------------------------------------


@program
def custom_function_jvp(T: Any) -> Any:
    fw = forward_ad(T)

    class Twice(Function(T)):
        @staticmethod
        def forward(ctx: Any, a: Any, k: Any) -> Any:
            ctx.save_for_forward(a)
            return a * k

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2, None

        @staticmethod
        def jvp(ctx: Any, a_t: Any, k_t: Any) -> Any:
            # deliberately not the forward's derivative: torch must use this rule
            return a_t * 10 + ctx.saved_tensors[0]

    with fw.dual_level():
        d = fw.make_dual(T.tensor([1.0, 2.0]), T.tensor([1.0, 3.0]))
        return {"t": tangent_of(fw, Twice.apply(d, 2)), "plain": Twice.apply(T.ones(2), 2)}


@program
def custom_function_without_jvp_raises(T: Any) -> Any:
    fw = forward_ad(T)

    class NoJvp(Function(T)):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            return a * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    with fw.dual_level():
        d = fw.make_dual(T.tensor([1.0, 2.0]), T.tensor([1.0, 3.0]))
        return {"err": raises(lambda: NoJvp.apply(d)), "plain": NoJvp.apply(T.ones(2))}


# --- in-place ops ----------------------------------------------------------------------------


@program
def inplace_updates_the_tangent(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = fw.make_dual(T.tensor([1.0, 2.0, 3.0]), T.tensor([1.0, 1.0, 1.0]))
        v = d[1:]
        d.mul_(2)
        w = T.zeros(3)
        w.copy_(d)
        return {"d": tangent_of(fw, d), "v": tangent_of(fw, v), "w": tangent_of(fw, w)}


@program
def inplace_on_strided_views_updates_the_base_tangent(T: Any) -> Any:
    # a view's tangent is a view of its base's: filling a diagonal (an as_strided view) or
    # scaling one in place changes the base's tangent there
    fw = forward_ad(T)
    out = {}
    with fw.dual_level():
        x = fw.make_dual(
            T.arange(9.0, dtype=T.float64).reshape(3, 3), T.ones(3, 3, dtype=T.float64)
        )
        y = x.clone()
        y.fill_diagonal_(0.5)
        out["fill_diagonal"] = tangent_of(fw, y)
        z = x.clone()
        T.as_strided(z, (3,), (4,), 0).fill_(0.5)
        out["as_strided_fill"] = tangent_of(fw, z)
        w = x.clone()
        v = w.as_strided((2,), (4,), 1)
        v.mul_(2)
        out["as_strided_mul"] = (tangent_of(fw, w), tangent_of(fw, v))
        u = x.clone()
        u.diagonal().fill_(0.5)
        out["diagonal"] = tangent_of(fw, u)
    return out


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    _SET.check(name, observe, assert_same, torch, shadowgrad)
