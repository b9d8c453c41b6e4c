"""Tensor subclasses and the `__torch_function__` protocol (torch's notes/extending.rst,
torch/overrides.py, torch/_tensor.py): `as_subclass`, `_make_subclass`, results keeping the
subclass through Tensor methods, operators, properties and torch.* functions, user overrides
called with torch's `(func, types, args, kwargs)`, `super().__torch_function__`, NotImplemented
handlers and their errors, `torch._C.DisableTorchFunctionSubclass` / `DisableTorchFunction`,
`torch.overrides` helpers, nn.Parameter's disabled protocol, repr, pickling and autograd of
subclass instances. The programs register into test_realistic_programs_3's set and run
through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns,
raises or warns is compared.
"""

from __future__ import annotations

import copy
import io
import pickle
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _v(T: Any, x: Any) -> Any:
    """x as plain data: a tensor (of any class) as its class name, grad_fn name, flags and a
    detached plain Tensor, read with the protocol off (so a logging subclass logs nothing)."""
    if isinstance(x, (tuple, list)):
        return [type(x).__name__, *[_v(T, i) for i in x]]
    if isinstance(x, T.Tensor):
        with T._C.DisableTorchFunctionSubclass():
            gf = x.grad_fn
            return {
                "type": type(x).__name__,
                "grad_fn": None if gf is None else type(gf).__name__,
                "rg": x.requires_grad,
                "leaf": x.is_leaf,
                "value": x.detach(),
            }
    return x


def _classes(T: Any) -> Any:
    class MyT(T.Tensor):
        pass

    return MyT


def _logged(T: Any, log: list[Any]) -> Any:
    class Logged(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append(
                (
                    getattr(func, "__name__", "?"),
                    [t.__name__ for t in types],
                    len(args),
                    sorted(kwargs or {}),
                )
            )
            return super().__torch_function__(func, types, args, kwargs)

    return Logged


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- the default protocol: results keep the subclass ---------------------------------------


@program()
def prog_tsub_as_subclass_results_keep_class(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 2, 3).as_subclass(MyT)
    return [
        _v(T, r)
        for r in (
            a + 1,
            1 + a,
            a * a,
            a - 1,
            1 - a,
            a / 2,
            2 / a,
            -a,
            abs(a),
            a**2,
            2**a,
            a.sum(),
            a.sum(dim=0),
            a.mean(1, keepdim=True),
            T.add(a, 1),
            T.mul(2, a),
            T.exp(a),
            a.exp(),
            a.T,
            a.mT,
            a[0],
            a[:, 1],
            a.view(3, 2),
            a.reshape(-1),
            a.clone(),
            a.detach(),
            a.to(T.float64),
            a.double(),
            a > 0,
            a.argmax(),
        )
    ]


@program()
def prog_tsub_plain_and_subclass_mixed(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3).as_subclass(MyT)
    p = _x(T, 3, seed=1)
    return [_v(T, r) for r in (p + a, a + p, p * a, p @ a, T.add(p, a), T.maximum(p, a))]


@program()
def prog_tsub_tuple_and_namedtuple_results(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3, 4).as_subclass(MyT)
    mx = a.max(dim=1)
    srt = T.sort(a, dim=0)
    return (
        _v(T, a.unbind(0)),
        _v(T, a.split(2, dim=1)),
        _v(T, a.chunk(2)),
        type(mx).__name__,
        _v(T, mx.values),
        _v(T, mx.indices),
        _v(T, srt.values),
        _v(T, T.linalg.qr(a)[0]),
        _v(T, a.tolist()),
    )


@program()
def prog_tsub_list_arguments(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 2).as_subclass(MyT)
    p = _x(T, 2, seed=2)
    return [
        _v(T, r)
        for r in (
            T.cat([a, p]),
            T.cat([p, a]),
            T.stack((p, a)),
            T.hstack([a, a]),
            T.where(a > 0, a, p),
        )
    ]


@program()
def prog_tsub_functional_and_namespaces(T: Any) -> Any:
    MyT = _classes(T)
    F = T.nn.functional
    a = _x(T, 2, 3).as_subclass(MyT)
    w = _x(T, 4, 3, seed=1)
    return [
        _v(T, r)
        for r in (
            F.relu(a),
            F.softmax(a, dim=1),
            F.linear(a, w),
            F.linear(_x(T, 2, 3), w.as_subclass(MyT)),
            F.mse_loss(a, T.zeros(2, 3)),
            T.linalg.norm(a),
            T.special.expit(a),
            T.fft.fft(a).real,
            T.nn.Linear(3, 2)(a).shape,
            F.dropout(a, 0.0),
        )
    ]


@program()
def prog_tsub_scalar_and_python_results(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 2, 2).as_subclass(MyT)
    return (
        a.shape,
        a.size(),
        a.dim(),
        a.numel(),
        len(a),
        a.dtype,
        str(a.device),
        a.tolist(),
        float(a[0, 0]),
        int(a[1, 1] * 10),
        bool(a[0, 0] > -5),
        a[0, 0].item(),
        a.is_contiguous(),
        type(a.numpy()).__name__,
        a.stride(),
        a.requires_grad,
        a.is_leaf,
        a.grad_fn,
        a.ndim,
    )


@program()
def prog_tsub_inplace_returns_self(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3).as_subclass(MyT)
    v0 = a._version
    r = a.add_(1)
    r2 = a.mul_(2)
    a += 1
    b = a
    b *= 3
    a[0] = 5.0
    return r is a, r2 is a, b is a, type(a).__name__, a._version - v0, _v(T, a)


@program()
def prog_tsub_properties_data_and_grad(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    (leaf * leaf).sum().backward()
    d = leaf.data
    return (
        type(d).__name__,
        _v(T, leaf.grad),
        type(leaf.grad).__name__,
        type(leaf.real).__name__,
        type(leaf.T).__name__,
        leaf.is_leaf,
        leaf.requires_grad,
    )


@program()
def prog_tsub_new_and_like_factories(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 2, 2).as_subclass(MyT)
    return [
        _v(T, r)
        for r in (
            a.new_zeros(3),
            a.new_ones(2),
            a.new_full((2,), 4.0),
            a.new_tensor([1.0, 2.0]),
            T.zeros_like(a),
            T.ones_like(a),
            T.full_like(a, 3.0),
            T.empty_like(a).shape,
            T.zeros(2),
            T.tensor([1.0]),
        )
    ]


@program()
def prog_tsub_custom_method_and_attribute(T: Any) -> Any:
    class Scaled(T.Tensor):
        def twice(self):
            return self * 2

        @property
        def doubled(self):
            return self.twice()

    a = _x(T, 3).as_subclass(Scaled)
    a.tag = "keep"
    b = a.twice()
    c = a + 0
    return (
        _v(T, b),
        _v(T, a.doubled),
        a.tag,
        hasattr(b, "tag"),
        hasattr(c, "tag"),
        type(b.twice()).__name__,
    )


@program()
def prog_tsub_subclass_of_subclass(T: Any) -> Any:
    class A(T.Tensor):
        pass

    class B(A):
        pass

    a = _x(T, 2).as_subclass(A)
    b = _x(T, 2, seed=1).as_subclass(B)
    return [_v(T, r) for r in (a + b, b + a, T.add(a, b), T.cat([a, b]), b.sum(), a.sum())]


@program()
def prog_tsub_unrelated_subclasses_mixed(T: Any) -> Any:
    class A(T.Tensor):
        pass

    class B(T.Tensor):
        pass

    a = _x(T, 2).as_subclass(A)
    b = _x(T, 2, seed=1).as_subclass(B)
    return (
        raises(lambda: a + b),
        raises(lambda: T.add(a, b)),
        raises(lambda: a.add(b)),
        raises(lambda: a * b),
        raises(lambda: T.eq(a, b)),
        raises(lambda: T.cat([a, b])),
    )


@program()
def prog_tsub_isinstance_and_type(T: Any) -> Any:
    MyT = _classes(T)
    a = T.ones(2).as_subclass(MyT)
    p = a.as_subclass(T.Tensor)
    return (
        isinstance(a, T.Tensor),
        isinstance(a, MyT),
        type(p).__name__,
        isinstance(p, MyT),
        T.is_tensor(a),
        issubclass(MyT, T.Tensor),
        type(a.as_subclass(MyT)).__name__,
        T.overrides.is_tensor_like(a),
        T.overrides.is_tensor_like(p),
    )


@program()
def prog_tsub_as_subclass_errors(T: Any) -> Any:
    a = T.ones(2)
    return (
        raises(lambda: a.as_subclass(3)),
        raises(lambda: a.as_subclass(int)),
        raises(lambda: a.as_subclass(np.ndarray)),
        raises(lambda: a.as_subclass("Tensor")),
    )


# --- as_subclass and autograd ----------------------------------------------------------------


@program()
def prog_tsub_as_subclass_of_requires_grad_leaf(T: Any) -> Any:
    MyT = _classes(T)
    x = _x(T, 3, rg=True)
    a = x.as_subclass(MyT)
    y = (a * a).sum()
    y.backward()
    return _v(T, a), _v(T, y), x.grad, a.grad_fn, x.is_leaf


@program()
def prog_tsub_as_subclass_shares_data(T: Any) -> Any:
    MyT = _classes(T)
    x = _x(T, 3)
    a = x.as_subclass(MyT)
    a.add_(1)
    x.mul_(2)
    return x, _v(T, a), x._version, a._version, a.data_ptr() == x.data_ptr()


@program()
def prog_tsub_backward_through_subclass_ops(T: Any) -> Any:
    MyT = _classes(T)
    x = _x(T, 2, 3, rg=True)
    a = x.as_subclass(MyT)
    h = (a.exp() * a.sin()).sum(dim=1)
    out = T.nn.functional.softplus(h).mean()
    (g,) = T.autograd.grad(out, x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return _v(T, h), _v(T, out), _v(T, g), gg, out.grad_fn, h.grad_fn


@program()
def prog_tsub_subclass_leaf_grad_type(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    y = (leaf * 3).sum()
    y.backward()
    g1 = leaf.grad
    (leaf**2).sum().backward()
    return _v(T, leaf), type(g1).__name__, _v(T, leaf.grad), leaf.grad is g1


@program()
def prog_tsub_retain_grad_and_hooks(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    mid = leaf * 2
    mid.retain_grad()
    seen = []
    leaf.register_hook(lambda g: seen.append(type(g).__name__))
    mid.sum().backward()
    return _v(T, mid.grad), type(mid).__name__, seen, mid.retains_grad


# --- _make_subclass --------------------------------------------------------------------------


@program()
def prog_tsub_make_subclass(T: Any) -> Any:
    MyT = _classes(T)
    base = _x(T, 2, 2, rg=True) * 2
    s = T.Tensor._make_subclass(MyT, base)
    s2 = T.Tensor._make_subclass(MyT, base, True)
    s.add_(1)
    return (
        _v(T, s),
        _v(T, s2),
        _v(T, base),
        s._version,
        base._version,
        s.data_ptr() == base.data_ptr(),
    )


@program()
def prog_tsub_make_subclass_errors(T: Any) -> Any:
    MyT = _classes(T)
    return (
        raises(lambda: T.Tensor._make_subclass(MyT, 3)),
        raises(lambda: T.Tensor._make_subclass(int, T.ones(2))),
        raises(lambda: T.Tensor._make_subclass(MyT, T.ones(2, dtype=T.long), True)),
        _v(T, T.Tensor._make_subclass(MyT, T.ones(2, dtype=T.long))),
    )


@program()
def prog_tsub_parameter_like_class(T: Any) -> Any:
    class MyParam(T.Tensor):
        def __new__(cls, data, requires_grad=True):
            return T.Tensor._make_subclass(cls, data, requires_grad)

        def __init__(self, data, requires_grad=True):
            self.note = "init"

    p = MyParam(_x(T, 3))
    q = p * 2
    q.sum().backward()
    return _v(T, p), _v(T, q), p.note, hasattr(q, "note"), p.grad


@program()
def prog_tsub_subclass_with_new_and_extra_state(T: Any) -> Any:
    class Tagged(T.Tensor):
        @staticmethod
        def __new__(cls, data, tag):
            t = T.Tensor._make_subclass(cls, data)
            t.tag = tag
            return t

        def __init__(self, data, tag):
            pass

    t = Tagged(_x(T, 2), "a")
    r = t + 1
    return t.tag, type(r).__name__, hasattr(r, "tag"), _v(T, r), _v(T, t)


# --- the legacy constructor and repr ---------------------------------------------------------


@program()
def prog_tsub_legacy_constructor(T: Any) -> Any:
    MyT = _classes(T)
    base = T.ones(2, requires_grad=True)
    return (
        _v(T, MyT(T.ones(2))),
        _v(T, MyT([1, 2])),
        _v(T, MyT(base)),
        MyT(2, 3).shape,
        _v(T, MyT()),
    )


@program()
def prog_tsub_repr(T: Any) -> Any:
    MyT = _classes(T)

    class Deeper(MyT):
        pass

    a = _x(T, 2, 3).as_subclass(MyT)
    g = _x(T, 2, rg=True).as_subclass(MyT)
    return (
        repr(MyT(T.ones(2))),
        repr(a),
        str(a),
        repr(g),
        repr(a.sum()),
        repr(T.arange(3).as_subclass(MyT)),
        repr(T.ones(2, 2).as_subclass(Deeper)),
        repr(T.Tensor._make_subclass(MyT, T.ones(2), True)),
        repr(T.zeros(0).as_subclass(MyT)),
        raises(lambda: f"{a.sum():.2f}"),
        f"{a.sum()}",
        repr(a.half()),
        raises(lambda: f"{T.nn.Parameter(T.tensor(1.5)):.1f}"),
        f"{T.tensor(1.5):.1f}",
        format(a),
        raises(lambda: format(a, "x")),
    )


@program()
def prog_tsub_repr_of_parameter_subclass(T: Any) -> Any:
    class MyParam(T.nn.Parameter):
        pass

    p = MyParam(T.ones(2))
    return repr(p), repr(T.nn.Parameter(T.ones(2))), type(p * 2).__name__


# --- user overrides of __torch_function__ ----------------------------------------------------


@program()
def prog_tsub_logged_calls(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = _x(T, 2, 2).as_subclass(Logged)
    out = {}
    for name, f in (
        ("add", lambda: x + 1),
        ("radd", lambda: 1 + x),
        ("mul", lambda: x * 2),
        ("rsub", lambda: 1 - x),
        ("div", lambda: x / 2),
        ("rdiv", lambda: 2 / x),
        ("matmul", lambda: x @ x),
        ("neg", lambda: -x),
        ("pos", lambda: +x),
        ("abs", lambda: abs(x)),
        ("pow", lambda: x**2),
        ("rpow", lambda: 2**x),
        ("eq", lambda: x == 1),
        ("ne", lambda: x != 1),
        ("lt", lambda: x < 1),
        ("ge", lambda: x >= 1),
        ("getitem", lambda: x[0]),
        ("len", lambda: len(x)),
        ("sum", lambda: x.sum()),
        ("sum_dim", lambda: x.sum(dim=0)),
        ("t_add", lambda: T.add(x, 1, alpha=2)),
        ("t_cat", lambda: T.cat([x, x])),
        ("relu", lambda: T.nn.functional.relu(x)),
        ("mod", lambda: x % 2),
        ("floordiv", lambda: x // 2),
        ("repr", lambda: repr(x)),
    ):
        log.clear()
        r = f()
        out[name] = (list(log), type(r).__name__)
    return out


@program()
def prog_tsub_logged_properties(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = _x(T, 2, 2).as_subclass(Logged)
    out = {}
    for name, f in (
        ("shape", lambda: x.shape),
        ("dtype", lambda: x.dtype),
        ("T", lambda: x.T),
        ("requires_grad", lambda: x.requires_grad),
        ("grad", lambda: x.grad),
        ("is_leaf", lambda: x.is_leaf),
        ("ndim", lambda: x.ndim),
        ("data", lambda: x.data),
        ("device", lambda: x.device),
        ("real", lambda: x.real),
    ):
        log.clear()
        r = f()
        out[name] = (list(log), type(r).__name__)
    log.clear()
    x.requires_grad = True
    out["set_requires_grad"] = list(log)
    return out


@program()
def prog_tsub_logged_inplace(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = _x(T, 3).as_subclass(Logged)
    out = {}
    for name, code in (
        ("iadd", "x += 1"),
        ("isub", "x -= 1"),
        ("imul", "x *= 2"),
        ("idiv", "x /= 2"),
        ("ipow", "x **= 1"),
        ("setitem", "x[0] = 1.0"),
        ("add_", "x.add_(1)"),
        ("zero_", "x.zero_()"),
        ("copy_", "x.copy_(T.ones(3))"),
    ):
        log.clear()
        exec(code, {"x": x, "T": T})
        out[name] = list(log)
    return out, _v(T, x)


@program()
def prog_tsub_override_sees_args_and_kwargs(T: Any) -> Any:
    seen = []

    class Spy(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(
                (
                    func.__name__,
                    tuple(type(a).__name__ for a in args),
                    {k: type(v).__name__ for k, v in (kwargs or {}).items()},
                    type(args).__name__,
                    kwargs is None or type(kwargs).__name__,
                )
            )
            return super().__torch_function__(func, types, args, kwargs)

    s = _x(T, 2).as_subclass(Spy)
    T.add(s, 1, alpha=3)
    s.sum(dim=0, keepdim=True)
    T.nn.functional.softmax(s, dim=0)
    T.clamp(s, min=0.0)
    s.add(other=2)
    T.add(_x(T, 2), other=s)
    return seen


@program()
def prog_tsub_override_func_identity(T: Any) -> Any:
    funcs = []

    class Spy(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            funcs.append(func)
            return super().__torch_function__(func, types, args, kwargs)

    s = _x(T, 2).as_subclass(Spy)
    s + 1
    T.add(s, 1)
    s.sum()
    T.nn.functional.relu(s)
    1 - s
    _ = s.shape
    return (
        funcs[0] is T.Tensor.add,
        funcs[1] is T.add,
        funcs[2] is T.Tensor.sum,
        funcs[3] is T.nn.functional.relu,
        funcs[4] is T.Tensor.__rsub__,
        funcs[5] == T.Tensor.shape.__get__,
        [f.__name__ for f in funcs],
        T.overrides.is_tensor_method_or_property(funcs[0]),
        T.overrides.is_tensor_method_or_property(funcs[1]),
    )


@program()
def prog_tsub_override_unwraps_to_plain(T: Any) -> Any:
    class Unwrap(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            def plain(a):
                if isinstance(a, (list, tuple)):
                    return type(a)(plain(i) for i in a)
                return a.as_subclass(T.Tensor) if isinstance(a, Unwrap) else a

            args = [plain(a) for a in args]
            return func(*args, **(kwargs or {}))

    u = _x(T, 3).as_subclass(Unwrap)
    return [_v(T, r) for r in (u + 1, u.sum(), T.exp(u), u[1:], T.cat([u, u]))]


@program()
def prog_tsub_override_rewraps_results(T: Any) -> Any:
    class Meters(T.Tensor):
        unit = "m"

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            with T._C.DisableTorchFunctionSubclass():
                ret = func(*args, **(kwargs or {}))
            if isinstance(ret, T.Tensor) and func is not T.Tensor.__repr__:
                ret = ret.as_subclass(cls)
            return ret

    m = _x(T, 3).as_subclass(Meters)
    return [_v(T, r) for r in (m * 2, m.mean(), T.sqrt(m.abs()), m.max(dim=0))], (m * 2).unit


@program()
def prog_tsub_override_returns_notimplemented(T: Any) -> Any:
    class Never(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    n = _x(T, 2).as_subclass(Never)
    return {
        "op_add": raises(lambda: n + 1),
        "op_radd": raises(lambda: 1 + n),
        "t_add": raises(lambda: T.add(n, 1)),
        "m_add": raises(lambda: n.add(1)),
        "sum": raises(lambda: n.sum()),
        "shape": raises(lambda: n.shape),
        "relu": raises(lambda: T.nn.functional.relu(n)),
        "repr": raises(lambda: repr(n)),
        "len": raises(lambda: len(n)),
        "getitem": raises(lambda: n[0]),
        "norm": raises(lambda: T.linalg.norm(n)),
        "expit": raises(lambda: T.special.expit(n)),
        "eq": n == 1,
        "ne": n != 1,
        "linear": raises(lambda: T.nn.functional.linear(n, T.ones(2, 2))),
    }


@program()
def prog_tsub_override_raises(T: Any) -> Any:
    class Boom(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if getattr(func, "__name__", "") == "mul":
                raise ValueError("no mul for Boom")
            return super().__torch_function__(func, types, args, kwargs)

    b = _x(T, 2).as_subclass(Boom)
    return raises(lambda: b * 2), raises(lambda: T.mul(b, 2)), _v(T, b + 2)


@program()
def prog_tsub_override_custom_result(T: Any) -> Any:
    class Const(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if func is T.Tensor.sum or func is T.sum:
                return "summed"
            return super().__torch_function__(func, types, args, kwargs)

    c = _x(T, 2).as_subclass(Const)
    return c.sum(), T.sum(c), _v(T, c.mean()), _v(T, c + c)


@program()
def prog_tsub_two_overriding_classes_order(T: Any) -> Any:
    order: list[Any] = []

    def make(name):
        class K(T.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                order.append((name, [t.__name__ for t in types]))
                return NotImplemented

        K.__name__ = K.__qualname__ = name
        return K

    A, B = make("A"), make("B")

    class C(A):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            order.append(("C", [t.__name__ for t in types]))
            return NotImplemented

    a = T.ones(2).as_subclass(A)
    b = T.ones(2).as_subclass(B)
    c = T.ones(2).as_subclass(C)
    r1 = raises(lambda: T.add(a, b))
    r2 = raises(lambda: T.add(a, c))
    r3 = raises(lambda: T.stack([b, a, c]))
    return order, r1.type if hasattr(r1, "type") else r1, r2, r3


@program()
def prog_tsub_default_returns_notimplemented_for_foreign_types(T: Any) -> Any:
    MyT = _classes(T)

    class Other(T.Tensor):
        pass

    a = T.ones(2).as_subclass(MyT)
    return (
        T.Tensor.__torch_function__.__func__(MyT, T.add, (Other,), (a, 1)) is NotImplemented,
        _v(T, T.Tensor.__torch_function__(T.add, (T.Tensor,), (a, 1))),
        _v(T, MyT.__torch_function__(T.add, (MyT,), (a, 1), {"alpha": 2})),
        _v(T, MyT.__torch_function__(T.add, (MyT,), (a, 1), None)),
    )


# --- disabling the protocol ------------------------------------------------------------------


@program()
def prog_tsub_disable_torch_function_subclass(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    MyT = _classes(T)
    x = T.ones(2).as_subclass(Logged)
    m = T.ones(2).as_subclass(MyT)
    with T._C.DisableTorchFunctionSubclass():
        r = [type(x + 1).__name__, type(m.sum()).__name__, type(T.add(m, 1)).__name__]
        inside = (T._C._is_torch_function_enabled(), T.overrides.has_torch_function_unary(m))
        with T._C.DisableTorchFunctionSubclass():
            nested = type(m * 2).__name__
        after_nested = T._C._is_torch_function_enabled()
    return (
        r,
        inside,
        nested,
        after_nested,
        list(log),
        T._C._is_torch_function_enabled(),
        type(m * 2).__name__,
    )


@program()
def prog_tsub_disable_torch_function_all(T: Any) -> Any:
    MyT = _classes(T)
    m = T.ones(2).as_subclass(MyT)
    with T._C.DisableTorchFunction():
        r = (
            type(m + 1).__name__,
            T._C._is_torch_function_enabled(),
            T.overrides.has_torch_function((m,)),
        )
        with T._C.DisableTorchFunctionSubclass():
            inner = T._C._is_torch_function_enabled()
    return r, inner, T._C._is_torch_function_enabled(), type(m + 1).__name__


@program()
def prog_tsub_disable_restores_after_error(T: Any) -> Any:
    MyT = _classes(T)
    m = T.ones(2).as_subclass(MyT)
    try:
        with T._C.DisableTorchFunctionSubclass():
            raise KeyError("x")
    except KeyError:
        pass
    return T._C._is_torch_function_enabled(), type(m + 1).__name__


@program()
def prog_tsub_disabled_impl(T: Any) -> Any:
    class NoProto(T.Tensor):
        __torch_function__ = T._C._disabled_torch_function_impl

    n = T.ones(2).as_subclass(NoProto)
    return (
        type(n + 1).__name__,
        type(n.sum()).__name__,
        type(T.add(n, 1)).__name__,
        repr(n),
        T.overrides.has_torch_function_unary(n),
        type(n.T).__name__,
    )


# --- nn.Parameter keeps the protocol disabled --------------------------------------------------


@program()
def prog_tsub_parameter_protocol_disabled(T: Any) -> Any:
    p = T.nn.Parameter(_x(T, 2, 2))
    return (
        T.nn.Parameter.__torch_function__ is T._C._disabled_torch_function_impl,
        type(p * 2).__name__,
        type(p.sum()).__name__,
        type(T.add(p, 1)).__name__,
        type(p.data).__name__,
        type(p.T).__name__,
        type(p.detach()).__name__,
        T.overrides.has_torch_function_unary(p),
        T.overrides.has_torch_function([p, 1]),
    )


@program()
def prog_tsub_parameter_subclass(T: Any) -> Any:
    class MyParam(T.nn.Parameter):
        pass

    class Proto(T.nn.Parameter):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return super().__torch_function__(func, types, args, kwargs)

    p = MyParam(T.ones(2))
    q = Proto(T.ones(2))
    return (
        type(p * 2).__name__,
        type(T.exp(p)).__name__,
        T.overrides.has_torch_function_unary(p),
        isinstance(p, T.nn.Parameter),
        raises(lambda: type(q * 2).__name__),
    )


@program()
def prog_tsub_subclass_in_module(T: Any) -> Any:
    MyT = _classes(T)
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.copy_(T.tensor(_data(2, 3, seed=4)))
        lin.bias.zero_()
    x = _x(T, 4, 3).as_subclass(MyT)
    y = lin(x)
    loss = T.nn.functional.mse_loss(y, T.zeros(4, 2))
    loss.backward()
    return _v(T, y), _v(T, loss), lin.weight.grad, type(lin.weight.grad).__name__


# --- torch.overrides ---------------------------------------------------------------------------


@program()
def prog_tsub_has_torch_function(T: Any) -> Any:
    MyT = _classes(T)
    ov = T.overrides

    class Like:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "like"

    m = T.ones(2).as_subclass(MyT)
    p = T.ones(2)
    return (
        ov.has_torch_function((p,)),
        ov.has_torch_function((p, m)),
        ov.has_torch_function([1, 2.0]),
        ov.has_torch_function((Like(),)),
        ov.has_torch_function_unary(m),
        ov.has_torch_function_unary(p),
        ov.has_torch_function_unary(Like()),
        ov.has_torch_function_variadic(p, 1, m),
        ov.has_torch_function_variadic(p, p),
        ov.has_torch_function_variadic(),
        ov.has_torch_function(()),
        ov.is_tensor_like(Like()),
        ov.is_tensor_like(Like),
        ov.is_tensor_like(3),
        ov.is_tensor_like(np.ones(2)),
        ov.is_tensor_like(p),
    )


@program()
def prog_tsub_functional_reexports(T: Any) -> Any:
    F = T.nn.functional
    ov = T.overrides
    return (
        F.has_torch_function is ov.has_torch_function,
        F.has_torch_function_unary is ov.has_torch_function_unary,
        F.has_torch_function_variadic is ov.has_torch_function_variadic,
        F.handle_torch_function is ov.handle_torch_function,
    )


@program()
def prog_tsub_handle_torch_function_user_api(T: Any) -> Any:
    ov = T.overrides
    calls = []

    def my_api(x, scale=1.0):
        if ov.has_torch_function_unary(x):
            return ov.handle_torch_function(my_api, (x,), x, scale=scale)
        return x * scale

    class Spy(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            calls.append((func is my_api, [t.__name__ for t in types], sorted(kwargs or {})))
            return super().__torch_function__(func, types, args, kwargs)

    s = _x(T, 2).as_subclass(Spy)
    r = my_api(s, scale=2.0)
    p = my_api(_x(T, 2), scale=3.0)
    return _v(T, r), _v(T, p), calls


@program()
def prog_tsub_handle_torch_function_tensor_like(T: Any) -> Any:
    ov = T.overrides

    def my_api(x):
        if ov.has_torch_function_unary(x):
            return ov.handle_torch_function(my_api, (x,), x)
        return "plain"

    class Like:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return ("like", func is my_api, [t.__name__ for t in types], len(args))

    class Nope:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    e = raises(lambda: my_api(Nope()))
    return my_api(Like()), my_api(T.ones(1)), type(e).__name__, str(getattr(e, "message", e))[:40]


@program()
def prog_tsub_default_nowrap_and_ignored(T: Any) -> Any:
    ov = T.overrides
    nowrap = ov.get_default_nowrap_functions()
    ignored = ov.get_ignored_functions()
    return (
        T.Tensor.grad.__get__ in nowrap,
        T.add in ignored,
        T.tensor in ignored,
        T.ones in ignored,
        T.Tensor.as_subclass in ignored,
        T.is_tensor in ignored,
    )


# --- copying and pickling ----------------------------------------------------------------------


@program()
def prog_tsub_pickle_round_trip(T: Any) -> Any:
    MyT = _classes(T)
    globals()["_PickledT"] = MyT  # picklable by name
    MyT.__qualname__ = "_PickledT"
    a = _x(T, 2, 2).as_subclass(MyT)
    a.note = "kept"
    buf = io.BytesIO()
    pickle.dump(a, buf)
    b = pickle.loads(buf.getvalue())
    return type(b).__name__, _v(T, b), getattr(b, "note", None)


@program()
def prog_tsub_deepcopy(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3).as_subclass(MyT)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    return raises(lambda: _v(T, copy.deepcopy(a))), raises(lambda: _v(T, copy.deepcopy(leaf)))


@program()
def prog_tsub_deepcopy_with_new_empty(T: Any) -> Any:
    class Copyable(T.Tensor):
        def new_empty(self, *args, **kwargs):
            return super().new_empty(*args, **kwargs).as_subclass(Copyable)

    a = _x(T, 3).as_subclass(Copyable)
    a.note = "n"
    b = copy.deepcopy(a)
    return type(b).__name__, _v(T, b), getattr(b, "note", None), b is a


@program()
def prog_tsub_save_load(T: Any) -> Any:
    MyT = _classes(T)
    globals()["_SavedT"] = MyT
    MyT.__qualname__ = "_SavedT"
    a = _x(T, 2).as_subclass(MyT)
    a.note = 7
    g = T.Tensor._make_subclass(MyT, _x(T, 2, seed=1), True)
    buf = io.BytesIO()
    T.save({"a": a, "g": g, "again": a}, buf)
    buf.seek(0)
    d = T.load(buf, weights_only=False)
    buf.seek(0)
    refused = raises(lambda: T.load(buf))
    return (
        type(d["a"]).__name__,
        _v(T, d["a"]),
        _v(T, d["g"]),
        getattr(d["a"], "note", None),
        d["a"] is d["again"],
        d["g"]._version,
        refused,
    )


# --- numpy interop -----------------------------------------------------------------------------


@program()
def prog_tsub_numpy_interop(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3).as_subclass(MyT)
    arr = np.asarray(a)
    return (
        type(arr).__name__,
        arr.dtype.name,
        arr.tolist(),
        a.numpy().tolist(),
        float(np.sum(a.numpy())),
    )


@program()
def prog_tsub_iteration_and_contains(T: Any) -> Any:
    MyT = _classes(T)
    a = T.arange(6.0).reshape(3, 2).as_subclass(MyT)
    rows = list(a)
    return (
        [type(r).__name__ for r in rows],
        _v(T, rows[1]),
        2.0 in a,
        9.0 in a,
        [type(v).__name__ for v in reversed(a)],
    )


# --- Tensor-like objects (not Tensors) -----------------------------------------------------------


def _tensor_like(T: Any, log: list[Any]) -> Any:
    class Like:
        def __init__(self, v):
            self.v = v

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            name = getattr(func, "__name__", "?")
            log.append((name, [t.__name__ for t in types], len(args)))
            if name in ("add", "mul"):
                vals = [a.v if isinstance(a, Like) else a for a in args]
                return ("Like", name, [type(v).__name__ for v in vals])
            return NotImplemented

    return Like


@program()
def prog_tsub_tensor_like_ops(T: Any) -> Any:
    log: list[Any] = []
    Like = _tensor_like(T, log)
    s = Like(2.0)
    p = T.ones(2)
    return (
        T.add(p, s),
        T.mul(s, p),
        raises(lambda: T.add(p, s, alpha=2)),
        raises(lambda: T.sub(p, s)),
        raises(lambda: T.exp(s)),
        raises(lambda: T.maximum(p, s)),
        list(log),
    )


@program()
def prog_tsub_tensor_like_with_subclass_disabled(T: Any) -> Any:
    log: list[Any] = []
    Like = _tensor_like(T, log)
    s = Like(1.0)
    with T._C.DisableTorchFunctionSubclass():
        a = raises(lambda: T.add(T.ones(2), s))
    with T._C.DisableTorchFunction():
        b = raises(lambda: T.add(T.ones(2), s))
    return a, b, list(log)


@program()
def prog_tsub_tensor_like_and_subclass_together(T: Any) -> Any:
    log: list[Any] = []
    Like = _tensor_like(T, log)

    class Sub(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append(("Sub", [t.__name__ for t in types]))
            return NotImplemented

    s = Like(1.0)
    m = T.ones(2).as_subclass(Sub)
    return T.add(m, s), T.mul(s, m), raises(lambda: T.exp(m)), list(log)


# --- more subclass behaviour -----------------------------------------------------------------


@program()
def prog_tsub_custom_function_on_subclass(T: Any) -> Any:
    MyT = _classes(T)

    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    y = Double.apply(leaf)
    y.sum().backward()
    return _v(T, y), leaf.grad, type(leaf.grad).__name__


@program()
def prog_tsub_autograd_grad_and_backward_methods(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = _x(T, 3, rg=True)
    a = x.as_subclass(Logged)
    y = (a * a).sum()
    log.clear()
    (g,) = T.autograd.grad(y, x, retain_graph=True)
    grad_log = list(log)
    log.clear()
    y.backward()
    return _v(T, g), grad_log, [e[0] for e in log], x.grad


@program()
def prog_tsub_override_changes_kwargs(T: Any) -> Any:
    class Float64Sum(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if func is T.Tensor.sum:
                kwargs["dtype"] = T.float64
            return super().__torch_function__(func, types, args, kwargs)

    f = _x(T, 2, 2).as_subclass(Float64Sum)
    return _v(T, f.sum()), _v(T, f.sum(dim=0)), _v(T, T.sum(f)), _v(T, f.mean())


@program()
def prog_tsub_grad_setter_and_zero_grad(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    leaf = T.Tensor._make_subclass(Logged, _x(T, 2), True)
    log.clear()
    leaf.grad = T.ones(2)
    set_log = [e[0] for e in log]
    g = leaf.grad
    leaf.grad = None
    return set_log, type(g).__name__, _v(T, g), leaf.grad


@program()
def prog_tsub_optimizer_over_subclass_param(T: Any) -> Any:
    MyT = _classes(T)
    w = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    opt = T.optim.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(2):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
    return _v(T, w), w.grad, type(w).__name__


@program()
def prog_tsub_views_of_subclass_and_version(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 2, 3), True)
    v = leaf[0]
    u = leaf.view(3, 2)
    y = (v.exp().sum() + u.sum()) * 2
    y.backward()
    return (
        _v(T, v),
        _v(T, u),
        v._base is leaf,
        v._is_view(),
        leaf.grad,
        raises(lambda: leaf.add_(1)),
    )


@program()
def prog_tsub_no_grad_and_inference(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 2), True)
    with T.no_grad():
        a = leaf * 2
    with T.inference_mode():
        b = leaf + 1
    with T._C.DisableTorchFunctionSubclass():
        bv = (b.tolist(), b.requires_grad, b.is_leaf, b.grad_fn)
    return _v(T, a), bv, b.is_inference(), type(b).__name__


@program()
def prog_tsub_complex_and_int_dtypes(T: Any) -> Any:
    MyT = _classes(T)
    c = T.tensor([1 + 2j, -1j]).as_subclass(MyT)
    i = T.arange(4).as_subclass(MyT)
    b = T.tensor([True, False]).as_subclass(MyT)
    return [
        _v(T, r)
        for r in (
            c.real,
            c.imag,
            c.abs(),
            c.conj(),
            c.angle(),
            i // 3,
            i % 3,
            i.float(),
            ~b,
            b & b,
            i << 1,
            i.sum(),
            i.to(T.float16),
            T.view_as_real(c),
        )
    ]


@program()
def prog_tsub_empty_and_zero_size(T: Any) -> Any:
    MyT = _classes(T)
    e = T.zeros(0, 3).as_subclass(MyT)
    return [_v(T, r) for r in (e.sum(0), e.sum(), e.T, e + 1, T.cat([e, e]), e.reshape(3, 0))] + [
        raises(lambda: e.max()),
        repr(e),
        len(e),
    ]


@program()
def prog_tsub_expanded_and_noncontiguous(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3, 1).as_subclass(MyT)
    ex = a.expand(3, 4)
    tr = _x(T, 3, 4, seed=1).as_subclass(MyT).t()
    return (
        _v(T, ex),
        ex.stride(),
        ex.is_contiguous(),
        _v(T, tr.contiguous()),
        tr.is_contiguous(),
        _v(T, ex + tr.T),
        _v(T, tr[::2]),
    )


@program()
def prog_tsub_torch_function_plain_method_override_warns(T: Any) -> Any:
    class Plain(T.Tensor):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return "plain"

    p = T.ones(2).as_subclass(Plain)
    return raises(lambda: T.add(p, 1)), raises(lambda: p + 1)


@program()
def prog_tsub_subclass_bool_and_hash(T: Any) -> Any:
    MyT = _classes(T)
    a = T.tensor([3.0]).as_subclass(MyT)
    z = T.zeros(2).as_subclass(MyT)
    return (
        bool(a),
        raises(lambda: bool(z)),
        hash(a) == id(a),
        int(a),
        float(a),
        [10, 20, 30][T.tensor(2).as_subclass(MyT)],
        raises(lambda: [1, 2][T.tensor(1).as_subclass(MyT)]),
        {a: 1}[a],
    )


@program()
def prog_tsub_plain_method_with_subclass_argument(T: Any) -> Any:
    MyT = _classes(T)
    p = T.ones(2)
    m = T.ones(2).as_subclass(MyT)
    w = T.nn.Parameter(T.ones(2))
    return (
        type(p.add(m)).__name__,
        type(p.mul(m)).__name__,
        type(p.sub(m)).__name__,
        type(w + m).__name__,
        type(w.mul(m)).__name__,
    )


@program()
def prog_tsub_plain_operand_left_logged(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = T.tensor(_data(2, 2)).as_subclass(Logged)
    w = T.nn.Parameter(T.tensor(_data(2, 2, seed=1)))
    p = T.tensor(_data(2, 2, seed=2))
    out = {}
    for name, f in (
        ("param_mul", lambda: w * x),
        ("param_add", lambda: w + x),
        ("plain_sub", lambda: p - x),
        ("plain_div", lambda: p / x),
        ("plain_mul_method", lambda: p.mul(x)),
        ("param_matmul", lambda: w @ x),
        ("plain_maximum", lambda: p.maximum(x)),
        ("plain_eq", lambda: p == x),
    ):
        log.clear()
        r = f()
        out[name] = ([e[:2] for e in log], type(r).__name__, _v(T, r))
    return out


@program()
def prog_tsub_logged_conversions(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = T.tensor([1.5, -2.0]).as_subclass(Logged)
    s = T.tensor(3.0).as_subclass(Logged)
    out = {}
    for name, f in (
        ("str", lambda: str(x)),
        ("format", lambda: format(x)),
        ("bool", lambda: bool(s)),
        ("float", lambda: float(s)),
        ("int", lambda: int(s)),
        ("item", lambda: s.item()),
        ("tolist", lambda: x.tolist()),
        ("numpy", lambda: x.numpy().tolist()),
        ("contains", lambda: 1.5 in x),
        ("size", lambda: x.size()),
        ("dim", lambda: x.dim()),
        ("clone", lambda: x.clone()),
        ("to", lambda: x.to(T.float64)),
        ("detach", lambda: x.detach()),
        ("requires_grad_", lambda: x.requires_grad_()),
    ):
        log.clear()
        r = f()
        out[name] = ([e[0] for e in log], type(r).__name__)
    return out


@program()
def prog_tsub_parameter_and_subclass_mixed(T: Any) -> Any:
    MyT = _classes(T)
    p = T.nn.Parameter(_x(T, 2))
    m = _x(T, 2, seed=1).as_subclass(MyT)
    r = [m + p, T.add(p, m), T.mul(m, p), T.stack([p, m])]
    r[0].sum().backward()
    return [_v(T, t) for t in r], p.grad


@program()
def prog_tsub_subclass_with_slots(T: Any) -> Any:
    class Slotted(T.Tensor):
        __slots__ = ("unit",)

    a = _x(T, 2).as_subclass(Slotted)
    a.unit = "m"
    b = a * 2
    return a.unit, hasattr(b, "unit"), _v(T, b), type(b).__name__


@program()
def prog_tsub_copy_copy(T: Any) -> Any:
    MyT = _classes(T)
    a = _x(T, 3).as_subclass(MyT)
    a.tag = "t"
    return raises(lambda: _v(T, copy.copy(a))), raises(lambda: copy.copy(a).tag)


@program()
def prog_tsub_module_attribute_and_state_dict(T: Any) -> Any:
    MyT = _classes(T)

    class M(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = T.nn.Linear(2, 2)
            self.extra = T.ones(2).as_subclass(MyT)

    m = M()
    with T.no_grad():
        m.lin.weight.fill_(0.5)
        m.lin.bias.zero_()
    y = m.lin(T.ones(1, 2).as_subclass(MyT))
    return (
        sorted(m.state_dict()),
        type(m.extra).__name__,
        _v(T, y),
        [n for n, _ in m.named_buffers()],
    )


@program()
def prog_tsub_super_torch_function_with_extra_kwargs(T: Any) -> Any:
    class Clamped(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            out = super().__torch_function__(func, types, args, kwargs)
            if func is T.Tensor.add or func is T.add:
                with T._C.DisableTorchFunctionSubclass():
                    out = out.clamp(max=1.0).as_subclass(cls)
            return out

    c = _x(T, 3).as_subclass(Clamped)
    return _v(T, c + 5), _v(T, T.add(c, 5)), _v(T, c * 5)


@program()
def prog_tsub_torch_function_types_argument(T: Any) -> Any:
    seen = []

    class A(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append((cls.__name__, [t.__name__ for t in types]))
            return super().__torch_function__(func, types, args, kwargs)

    class B(A):
        pass

    a = T.ones(2).as_subclass(A)
    b = T.ones(2).as_subclass(B)
    r = (T.add(a, b), T.add(b, a), T.cat([a, T.ones(2), b]), a + T.nn.Parameter(T.ones(2)))
    return [type(t).__name__ for t in r], seen


@program()
def prog_tsub_handle_torch_function_errors(T: Any) -> Any:
    ov = T.overrides

    def api(x):
        return ov.handle_torch_function(api, (x,), x)

    class Never(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    n = T.ones(2).as_subclass(Never)
    e = raises(lambda: api(n))
    return e


@program()
def prog_tsub_subclass_in_no_grad_inplace_and_data_assign(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    with T.no_grad():
        leaf.mul_(2)
    leaf.data = T.zeros(3)
    v = leaf._version
    (leaf + 1).sum().backward()
    return _v(T, leaf), leaf.grad, v, type(leaf.data).__name__


@program()
def prog_tsub_double_backward_subclass_leaf(T: Any) -> Any:
    MyT = _classes(T)
    leaf = T.Tensor._make_subclass(MyT, _x(T, 3), True)
    y = (leaf**3).sum()
    (g,) = T.autograd.grad(y, leaf, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), leaf)
    return _v(T, g), _v(T, gg), g.grad_fn, type(g).__name__


@program()
def prog_tsub_modules_forward_log(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    nn = T.nn
    T.manual_seed(0)
    mods = {
        "linear": (nn.Linear(3, 2), (2, 3)),
        "relu": (nn.ReLU(), (2, 3)),
        "layer_norm": (nn.LayerNorm(3), (2, 3)),
        "conv1d": (nn.Conv1d(2, 2, 2), (1, 2, 4)),
        "softmax": (nn.Softmax(dim=1), (2, 3)),
        "dropout_eval": (nn.Dropout(0.5).eval(), (2, 3)),
        "seq": (nn.Sequential(nn.Linear(3, 3), nn.Tanh()), (2, 3)),
        "flatten": (nn.Flatten(), (2, 3, 1)),
    }
    out = {}
    for name, (m, shape) in mods.items():
        x = T.tensor(_data(*shape)).as_subclass(Logged)
        log.clear()
        y = m(x)
        out[name] = ([e[0] for e in log], type(y).__name__, tuple(y.shape))
    return out


@program()
def prog_tsub_losses_and_functional_log(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    F = T.nn.functional
    x = T.tensor(_data(3, 4)).as_subclass(Logged)
    tgt = T.tensor([0, 2, 1])
    out = {}
    for name, f in (
        ("cross_entropy", lambda: F.cross_entropy(x, tgt)),
        ("mse", lambda: F.mse_loss(x, T.zeros(3, 4))),
        ("log_softmax", lambda: F.log_softmax(x, dim=1)),
        ("gelu", lambda: F.gelu(x)),
        ("pad", lambda: F.pad(x, (1, 1))),
        ("normalize", lambda: F.normalize(x)),
        ("one_hot", lambda: F.one_hot(tgt.as_subclass(Logged), 3)),
        ("embedding", lambda: F.embedding(tgt, x)),
    ):
        log.clear()
        r = f()
        out[name] = ([e[0] for e in log], [e[1] for e in log], type(r).__name__)
    return out


@program()
def prog_tsub_torch_namespace_variety(T: Any) -> Any:
    MyT = _classes(T)
    a = T.tensor(_data(3, 3)).as_subclass(MyT)
    return [
        (type(r).__name__ if not isinstance(r, tuple) else [type(i).__name__ for i in r])
        for r in (
            T.matmul(a, a),
            T.einsum("ij,jk->ik", a, a),
            T.clamp(a, -0.1, 0.1),
            T.topk(a, 2),
            T.max(a),
            T.max(a, 1),
            T.split(a, 1),
            T.chunk(a, 3),
            T.broadcast_tensors(a, T.ones(3)),
            T.linalg.inv(a + 3 * T.eye(3)),
            T.linalg.svd(a),
            T.fft.rfft(a),
            T.special.erf(a),
            T.nonzero(a > 0),
            T.where(a > 0),
            T.tril(a),
            T.flatten(a),
            T.meshgrid(T.ones(2), a[0], indexing="ij"),
            T.unique(a > 0),
            T.std_mean(a),
        )
    ]


@program()
def prog_tsub_as_subclass_is_a_view(T: Any) -> Any:
    MyT = _classes(T)
    x = _x(T, 2, 2)
    a = x.as_subclass(MyT)
    v = a[0]
    return (
        a._base is x,
        a._is_view(),
        type(v._base).__name__,
        v._base is a,
        raises(lambda: _x(T, 2, rg=True).as_subclass(MyT).add_(1)),
    )


@program()
def prog_tsub_nonleaf_grad_warning(T: Any) -> Any:
    MyT = _classes(T)
    x = _x(T, 2, rg=True)
    a = x.as_subclass(MyT)
    (a * 2).sum().backward()
    return a.grad, x.grad, a.is_leaf


@program()
def prog_tsub_logged_view_inplace(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = _x(T, 2, 3).as_subclass(Logged)
    log.clear()
    x[0] += 1
    first = [e[0] for e in log]
    log.clear()
    x[:, 1] = T.zeros(2)
    second = [e[0] for e in log]
    return first, second, _v(T, x)


@program()
def prog_tsub_wrap_torch_function(T: Any) -> Any:
    ov = T.overrides
    calls = []

    def dispatcher(a, b=None):
        return (a, b)

    @ov.wrap_torch_function(dispatcher)
    def combine(a, b=None):
        return a if b is None else a + b

    class Spy(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            calls.append((func is combine, func.__name__, len(args)))
            return super().__torch_function__(func, types, args, kwargs)

    s = T.ones(2).as_subclass(Spy)
    r = combine(s, T.ones(2))
    p = combine(T.ones(2), T.ones(2))
    return _v(T, r), _v(T, p), calls, combine.__name__


@program()
def prog_tsub_disabled_impl_called_directly(T: Any) -> Any:
    MyT = _classes(T)
    a = T.ones(2).as_subclass(MyT)
    impl = T._C._disabled_torch_function_impl
    r = impl(T.add, (MyT,), (a, 1), {})
    r2 = impl(T.Tensor.sum, (MyT,), (a,))
    return _v(T, r), _v(T, r2)


@program()
def prog_tsub_logged_autograd_methods(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    leaf = T.Tensor._make_subclass(Logged, T.tensor(_data(3)), True)
    y = (leaf * 2).sum()
    out = {}
    for name, f in (
        ("retain_grad", lambda: y.retain_grad()),
        ("register_hook", lambda: y.register_hook(lambda g: g)),
        ("backward", lambda: y.backward()),
        ("grad", lambda: leaf.grad),
        ("autograd_backward", lambda: T.autograd.backward((leaf * 3).sum())),
    ):
        log.clear()
        r = f()
        out[name] = ([(e[0], e[3]) for e in log], type(r).__name__)
    return out, _v(T, leaf.grad)


@program()
def prog_tsub_logged_creation_functions(T: Any) -> Any:
    log: list[Any] = []
    Logged = _logged(T, log)
    x = T.tensor(_data(3)).as_subclass(Logged)
    out = {}
    for name, f in (
        ("tensor", lambda: T.tensor(x)),
        ("as_tensor", lambda: T.as_tensor(x)),
        ("as_tensor_dtype", lambda: T.as_tensor(x, dtype=T.float64)),
        ("is_tensor", lambda: T.is_tensor(x)),
        ("numel", lambda: T.numel(x)),
        ("zeros_like", lambda: T.zeros_like(x)),
        ("new_zeros", lambda: x.new_zeros(2)),
        ("asarray", lambda: np.asarray(x).tolist()),
        ("float", lambda: x.float()),
        ("cpu", lambda: x.cpu()),
        ("data_ptr", lambda: x.data_ptr() == x.data_ptr()),
    ):
        log.clear()
        r = f()
        out[name] = ([e[0] for e in log], type(r).__name__)
    return out


@program()
def prog_tsub_parameter_of_subclass(T: Any) -> Any:
    MyT = _classes(T)
    m = _x(T, 3).as_subclass(MyT)
    p = T.nn.Parameter(m)
    lin = T.nn.Linear(3, 1)
    lin.extra = T.nn.Parameter(T.ones(2).as_subclass(MyT))
    return (
        type(p).__name__,
        isinstance(p, T.nn.Parameter),
        p.requires_grad,
        p.is_leaf,
        getattr(p, "_is_param", None),
        sorted(n for n, _ in lin.named_parameters()),
        type(lin.extra).__name__,
        _v(T, p * 2),
        repr(p),
    )


@program()
def prog_tsub_module_to_and_buffers(T: Any) -> Any:
    MyT = _classes(T)
    m = T.nn.Module()
    m.register_buffer("b", T.ones(2).as_subclass(MyT))
    m.to(T.float64)
    sd = m.state_dict()
    m2 = T.nn.Module()
    m2.register_buffer("b", T.zeros(2, dtype=T.float64))
    m2.load_state_dict(sd)
    return type(m.b).__name__, m.b.dtype, type(sd["b"]).__name__, type(m2.b).__name__, _v(T, m2.b)


@program()
def prog_tsub_misc_methods(T: Any) -> Any:
    MyT = _classes(T)
    a = T.tensor(_data(2, 2)).as_subclass(MyT)
    return [
        _v(T, r) if isinstance(r, T.Tensor) else r
        for r in (
            a.type(),
            a.type(T.float64),
            a.view(T.int32),
            a.view_as(T.ones(4)),
            a.expand_as(T.ones(3, 2, 2)),
            a.is_floating_point(),
            a.element_size(),
            a.new_empty(2).shape,
            a.masked_fill(a > 0, 0.0),
            a.index_select(0, T.tensor([1])),
            a.gather(1, T.tensor([[0], [1]])),
            a.scatter(1, T.tensor([[0], [1]]), 5.0),
            a.cumsum(0),
            a.softmax(-1),
            a.flip(0),
            a.roll(1),
            a.diag(),
            a.trace(),
            a.allclose(a),
            a.equal(a),
        )
    ]


@program()
def prog_tsub_overrides_edge_calls(T: Any) -> Any:
    ov = T.overrides
    MyT = _classes(T)
    a = T.ones(2).as_subclass(MyT)

    def f(x):
        return x + 1

    return (
        _v(T, MyT.__torch_function__(f, (MyT,), (a,))),
        _v(T, MyT.__torch_function__(f, (), (T.ones(2),))),
        raises(lambda: ov.handle_torch_function(f, (T.ones(2),), T.ones(2))),
        raises(lambda: ov.has_torch_function(3)),
        ov.has_torch_function(iter([a])),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
