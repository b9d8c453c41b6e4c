"""torch.library programs: custom operators written with `torch.library.custom_op` and
`register_autograd` / `register_fake` / `register_kernel`, operators defined with
`torch.library.Library(ns, kind)` and `define` / `impl`, their `torch.ops.<ns>.<op>.<overload>`
objects, `torch.ops.aten`, `infer_schema` and `opcheck`: forward values, gradients, grad_fn
names, double backward, version counters, schemas as torch prints them, and the errors and
warnings torch gives for mistakes (bad names, missing mutates_args, unsupported type hints,
redefinitions, no autograd formula, aliasing outputs). The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and
on shadowgrad, and everything it returns, raises or warns is compared.

Operators are global to a process and the programs run in one process (and again on reruns):
each program takes fresh namespaces from `_ns(T, tag)` (a counter per engine, so both engines'
runs name theirs alike) and destroys the Library objects it creates.

No `from __future__ import annotations` here: custom_op reads the kernels' type hints, which
must be the engine's own classes (`T.Tensor`), not strings naming a program's local `T`.
"""

import dataclasses
import itertools
import re
import warnings
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import ErrorObs, raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program

_COUNTERS: dict[tuple[str, ...], itertools.count] = defaultdict(itertools.count)


def _engine(T: Any) -> tuple[str, str]:
    """Which engine runs: the library and its default dtype (torch and torch-float64, ... are
    two engines of one library, and a pair of them may be compared)."""
    return T.__name__, str(T.get_default_dtype())


def _ns(T: Any, tag: str) -> str:
    """A namespace not used before in this process by this engine: a counter per engine, so
    that both runs of a program (torch's first) name theirs alike, in every rerun."""
    return f"sg_{tag}_{next(_COUNTERS[(*_engine(T), tag)])}"


_MODULE = re.compile(r"<module '[\w.]+' from '[^']*'>")


def _norm(msg: str) -> str:
    """A message with the engine's own names spelled as torch's: `shadowgrad.Tensor` in a
    signature is torch.Tensor, a module repr (which names a file) is `<module>`."""
    msg = _MODULE.sub("<module>", msg)
    msg = msg.replace("shadowgrad._dtype.dtype", "torch.dtype")
    msg = msg.replace("shadowgrad._tensor.device", "torch.device")
    return msg.replace("shadowgrad.", "torch.")


def _r(fn: Any) -> Any:
    """raises(fn), the error's message normalized by _norm."""
    out = raises(fn)
    if isinstance(out, ErrorObs):
        return dataclasses.replace(out, message=_norm(out.message))
    return out


def _first(fn: Any, n: int = 1) -> Any:
    """The error's type and its first n sentences (torch appends registration sites)."""
    out = raises(fn)
    if isinstance(out, ErrorObs):
        return out.type, ". ".join(out.message.split(". ")[:n])
    return out


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True, dtype: Any = None) -> Any:
    """Data in the engine's default dtype (float64 under the float64 engines) unless given."""
    dtype = dtype if dtype is not None else T.get_default_dtype()
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg, dtype=dtype)


def _np_sin(T: Any, name: str) -> Any:
    """A custom op computing sin in numpy (its kernel leaves torch)."""

    @T.library.custom_op(name, mutates_args=())
    def np_sin(x: T.Tensor) -> T.Tensor:
        return T.from_numpy(np.sin(x.detach().numpy()))

    return np_sin


def _sin_autograd(T: Any, op: Any) -> None:
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()

    op.register_autograd(backward, setup_context=setup_context)


# --- custom_op: forward, schema inference --------------------------------------------------


@program()
def prog_lib_custom_op_forward_numpy_kernel(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "fwd") + "::np_sin")
    x = _x(T, 2, 3, rg=False)
    y = op(x)
    z = op(x.t())  # a transposed input reaches the kernel as is
    return y, z, y.dtype, y.grad_fn, repr(op), type(op).__name__


@program()
def prog_lib_custom_op_decorator_and_call_forms(T: Any) -> Any:
    ns = _ns(T, "forms")

    def twice(x: T.Tensor) -> T.Tensor:
        return x * 2

    a = T.library.custom_op(f"{ns}::twice", twice, mutates_args=())
    b = T.library.custom_op(f"{ns}::twice_d", mutates_args=[])(twice)
    x = _x(T, 3, rg=False)
    return (
        a(x),
        b(x),
        a._schema,
        b._schema,
        repr(b),
        a._qualname if hasattr(a, "_qualname") else None,
    )


@program()
def prog_lib_infer_schema_type_hints(T: Any) -> Any:
    ns = _ns(T, "hints")

    def f(
        x: T.Tensor,
        y: T.Tensor | None,
        n: int,
        f: float,
        b: bool,
        xs: list[T.Tensor],
        s: Sequence[int],
        fl: list[float],
        ob: bool | None,
        st: str,
        oi: list[int] | None,
        ot: list[T.Tensor | None],
    ) -> T.Tensor:
        return x.clone()

    op = T.library.custom_op(f"{ns}::f", f, mutates_args=())
    return op._schema


@program()
def prog_lib_infer_schema_defaults_and_kwarg_only(T: Any) -> Any:
    ns = _ns(T, "defaults")

    def g(
        x: T.Tensor,
        a: int = 3,
        b: float = 2.5,
        c: bool = False,
        d: T.Tensor | None = None,
        *,
        s: str = "hi",
        dt: T.dtype = T.float64,
        dv: T.device = "cpu",
        w: float = 1.0,
    ) -> tuple[T.Tensor, T.Tensor]:
        return x * a, x * b

    op = T.library.custom_op(f"{ns}::g", g, mutates_args=())
    x = _x(T, 2, rg=False)
    return op._schema, op(x), op(x, 1, 1.0, True, s="q", w=3.0)


@program()
def prog_lib_infer_schema_returns(T: Any) -> Any:
    ns = _ns(T, "rets")
    out = {}

    def r_none(x: T.Tensor) -> None:
        pass

    def r_int(x: T.Tensor) -> int:
        return 3

    def r_float(x: T.Tensor) -> float:
        return 1.5

    def r_bool(x: T.Tensor) -> bool:
        return True

    def r_list(x: T.Tensor) -> list[T.Tensor]:
        return [x + 1, x + 2]

    def r_mixed(x: T.Tensor) -> tuple[T.Tensor, int, float]:
        return x + 1, 2, 0.5

    x = _x(T, 2, rg=False)
    for f in (r_none, r_int, r_float, r_bool, r_list, r_mixed):
        op = T.library.custom_op(f"{ns}::{f.__name__}", f, mutates_args=())
        out[f.__name__] = (op._schema, op(x))
    return out


@program()
def prog_lib_infer_schema_public_function(T: Any) -> Any:
    def foo(x: T.Tensor, n: int, *, scale: float = 1.0) -> T.Tensor:
        return x * n

    def bar(x: T.Tensor, y: T.Tensor) -> None:
        pass

    return (
        T.library.infer_schema(foo, mutates_args=()),
        T.library.infer_schema(foo, mutates_args=(), op_name="foo"),
        T.library.infer_schema(bar, mutates_args={"y"}),
        T.library.infer_schema(bar, mutates_args="unknown"),
        T.library.infer_schema(bar, mutates_args=["x", "y"], op_name="bar"),
    )


# --- custom_op: errors ---------------------------------------------------------------------


@program()
def prog_lib_custom_op_missing_mutates_args(T: Any) -> Any:
    ns = _ns(T, "nomut")

    def f(x: T.Tensor) -> T.Tensor:
        return x.clone()

    return (
        _r(lambda: T.library.custom_op(f"{ns}::f")(f)),
        _r(lambda: T.library.custom_op(f"{ns}::f", f)),
        _r(lambda: T.library.custom_op(f"{ns}::f", f, mutates_args="all")),
        _r(lambda: T.library.custom_op(f"{ns}::f", f, mutates_args="unknowns")),
    )


@program()
def prog_lib_custom_op_bad_names(T: Any) -> Any:
    ns = _ns(T, "names")

    def f(x: T.Tensor) -> T.Tensor:
        return x.clone()

    return (
        _r(lambda: T.library.custom_op("nonamespace", f, mutates_args=())),
        _r(lambda: T.library.custom_op(f"{ns}::a::b", f, mutates_args=())),
        _r(lambda: T.library.custom_op(f"{ns}:f", f, mutates_args=())),
    )


@program()
def prog_lib_custom_op_missing_annotations(T: Any) -> Any:
    ns = _ns(T, "annot")

    def no_param_hint(x):
        return x

    def no_return_hint(x: T.Tensor):
        return x

    def varargs(x: T.Tensor, *args) -> T.Tensor:
        return x

    def varkw(x: T.Tensor, **kw) -> T.Tensor:
        return x

    def posonly(x: T.Tensor, /) -> T.Tensor:
        return x

    return [
        _r(lambda f=f: T.library.custom_op(f"{ns}::{f.__name__}", f, mutates_args=()))
        for f in (no_param_hint, no_return_hint, varargs, varkw, posonly)
    ]


@program()
def prog_lib_custom_op_unsupported_param_types(T: Any) -> Any:
    ns = _ns(T, "badtypes")

    def tup(x: T.Tensor, t: tuple[int, int]) -> T.Tensor:
        return x

    def dct(x: T.Tensor, t: dict) -> T.Tensor:
        return x

    def strlist(x: T.Tensor, t: list[str]) -> T.Tensor:
        return x

    out = []
    for f in (tup, dct, strlist):
        e = _r(lambda f=f: T.library.custom_op(f"{ns}::{f.__name__}", f, mutates_args=()))
        # the message lists every supported type; its start and its end are compared
        out.append((e.type, e.message.split("The valid types")[0], e.message[-90:]))
    return out


@program()
def prog_lib_custom_op_unsupported_return_and_default(T: Any) -> Any:
    ns = _ns(T, "badret")

    def ret_dict(x: T.Tensor) -> dict:
        return {}

    def ret_str(x: T.Tensor) -> str:
        return ""

    def tuple_default(x: T.Tensor, sizes: list[int] = (1, 2)) -> T.Tensor:
        return x

    out = []
    for f in (ret_dict, ret_str, tuple_default):
        e = _r(lambda f=f: T.library.custom_op(f"{ns}::{f.__name__}", f, mutates_args=()))
        out.append((e.type, e.message.split("The valid types")[0], e.message[-60:]))
    return out


@program()
def prog_lib_custom_op_mutates_args_errors(T: Any) -> Any:
    ns = _ns(T, "muterr")

    def f(x: T.Tensor, n: int) -> T.Tensor:
        return x.clone()

    return (
        _r(lambda: T.library.custom_op(f"{ns}::a", f, mutates_args={"n"})),
        _r(lambda: T.library.custom_op(f"{ns}::b", f, mutates_args={"z"})),
        _r(lambda: T.library.custom_op(f"{ns}::c", f, mutates_args=("x", "z"))),
    )


@program()
def prog_lib_custom_op_kwarg_only_tensor_refused(T: Any) -> Any:
    ns = _ns(T, "kwt")

    def f(x: T.Tensor, *, y: T.Tensor) -> T.Tensor:
        return x + y

    return _r(lambda: T.library.custom_op(f"{ns}::f", f, mutates_args=()))


@program()
def prog_lib_custom_op_explicit_schema(T: Any) -> Any:
    ns = _ns(T, "explicit")

    def f(x, n):
        return x * n

    op = T.library.custom_op(
        f"{ns}::f", f, mutates_args=(), schema="(Tensor x, SymInt n) -> Tensor"
    )
    bad = _r(
        lambda: T.library.custom_op(
            f"{ns}::g", f, mutates_args=(), schema="(Tensor(a!) x, SymInt n) -> Tensor"
        )
    )
    return op._schema, op(_x(T, 3, rg=False), 2), bad


@program()
def prog_lib_custom_op_redefinition_replaces(T: Any) -> Any:
    ns = _ns(T, "redef")

    def one(x: T.Tensor) -> T.Tensor:
        return x + 1

    def two(x: T.Tensor) -> T.Tensor:
        return x + 2

    a = T.library.custom_op(f"{ns}::f", one, mutates_args=())
    x = _x(T, 2, rg=False)
    first = a(x)
    b = T.library.custom_op(f"{ns}::f", two, mutates_args=())
    return first, b(x), getattr(T.ops, ns).f(x), getattr(T.ops, ns).f.default(x)


@program()
def prog_lib_custom_op_output_aliases_input(T: Any) -> Any:
    ns = _ns(T, "alias")

    def ident(x: T.Tensor) -> T.Tensor:
        return x

    def view(x: T.Tensor) -> T.Tensor:
        return x.view(-1)

    def both(x: T.Tensor) -> tuple[T.Tensor, T.Tensor]:
        y = x + 1
        return y, y

    out = []
    for f in (ident, view, both):
        op = T.library.custom_op(f"{ns}::{f.__name__}", f, mutates_args=())
        out.append(_r(lambda op=op: op(_x(T, 2, 2, rg=False))))
    return out


# --- custom_op: autograd -------------------------------------------------------------------


@program()
def prog_lib_no_autograd_formula_raises_at_backward(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "noad") + "::np_sin")
    x = _x(T, 3)
    y = op(x)
    err = _r(lambda: y.sum().backward())
    with T.no_grad():
        z = op(x)
    w = op(x.detach())
    return y.requires_grad, y.grad_fn, err, z.requires_grad, w.grad_fn, x.grad


@program()
def prog_lib_register_autograd_sin(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "sin") + "::np_sin")
    _sin_autograd(T, op)
    x = _x(T, 2, 3)
    y = op(x)
    (y * y).sum().backward()
    return y, y.grad_fn, x.grad, type(y.grad_fn).__name__


@program()
def prog_lib_register_autograd_needs_input_grad(T: Any) -> Any:
    ns = _ns(T, "nig")
    seen = []

    @T.library.custom_op(f"{ns}::mul", mutates_args=())
    def mul(x: T.Tensor, y: T.Tensor, k: float) -> T.Tensor:
        return x * y * k

    def setup_context(ctx, inputs, output):
        x, y, k = inputs
        ctx.save_for_backward(x, y)
        ctx.k = k

    def backward(ctx, g):
        x, y = ctx.saved_tensors
        seen.append(ctx.needs_input_grad)
        gx = g * y * ctx.k if ctx.needs_input_grad[0] else None
        gy = g * x * ctx.k if ctx.needs_input_grad[1] else None
        return gx, gy, None

    mul.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 3)
    y = _x(T, 3, seed=1, rg=False)
    out = mul(x, y, 2.0)
    out.sum().backward()
    y.requires_grad_()
    out2 = mul(x.detach(), y, 3.0)
    out2.sum().backward()
    return out, out2, x.grad, y.grad, seen, out.grad_fn


@program()
def prog_lib_register_autograd_keyword_only_inputs(T: Any) -> Any:
    ns = _ns(T, "kwonly")

    @T.library.custom_op(f"{ns}::scale", mutates_args=())
    def scale(x: T.Tensor, *, val: float, shift: float = 0.5) -> T.Tensor:
        return T.from_numpy(x.detach().numpy() * val + shift)

    got = []

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        got.append((len(inputs), sorted(keyword_only_inputs.items())))
        ctx.val = keyword_only_inputs["val"]

    def backward(ctx, g):
        return g * ctx.val

    scale.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 4)
    y = scale(x, val=3.0)
    (gx,) = T.autograd.grad(y.sum(), x)
    return y, gx, got


@program()
def prog_lib_register_autograd_setup_sees_defaults(T: Any) -> Any:
    ns = _ns(T, "dflt")

    @T.library.custom_op(f"{ns}::pw", mutates_args=())
    def pw(x: T.Tensor, p: float = 2.0, eps: float = 0.0) -> T.Tensor:
        return (x.abs() + eps) ** p

    seen = []

    def setup_context(ctx, inputs, output):
        seen.append(inputs[1:])
        x, p, eps = inputs
        ctx.save_for_backward(x)
        ctx.p, ctx.eps = p, eps

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.p * (x.abs() + ctx.eps) ** (ctx.p - 1) * x.sign(), None, None

    pw.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 3)
    pw(x).sum().backward()
    pw(x, 3.0).sum().backward()
    pw(x, eps=0.5).sum().backward()
    return x.grad, seen


@program()
def prog_lib_register_autograd_saves_output(T: Any) -> Any:
    ns = _ns(T, "expo")

    @T.library.custom_op(f"{ns}::exp", mutates_args=())
    def exp(x: T.Tensor) -> T.Tensor:
        return T.from_numpy(np.exp(x.detach().numpy()))

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out

    exp.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 2, 2)
    y = exp(x)
    y.backward(T.ones_like(y))
    return y, x.grad, y.grad_fn


@program()
def prog_lib_register_autograd_double_backward(T: Any) -> Any:
    ns = _ns(T, "dbl")

    @T.library.custom_op(f"{ns}::cube", mutates_args=())
    def cube(x: T.Tensor) -> T.Tensor:
        return x**3

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2  # made of differentiable ops: backward of backward works

    cube.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 3, dtype=T.float64)
    y = cube(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return y, g, gg, g.grad_fn


@program()
def prog_lib_register_autograd_gradcheck(T: Any) -> Any:
    ns = _ns(T, "gc")

    @T.library.custom_op(f"{ns}::smul", mutates_args=())
    def smul(x: T.Tensor, y: T.Tensor) -> T.Tensor:
        return T.from_numpy(np.sin(x.detach().numpy()) * y.detach().numpy())

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * x.cos() * y, g * x.sin()

    smul.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 4, dtype=T.float64)
    y = _x(T, 4, seed=3, dtype=T.float64)
    return T.autograd.gradcheck(smul, (x, y)), T.autograd.gradcheck(lambda a: smul(a, y), (x,))


@program()
def prog_lib_register_autograd_wrong_gradient_count(T: Any) -> Any:
    ns = _ns(T, "count")

    @T.library.custom_op(f"{ns}::add", mutates_args=())
    def add(x: T.Tensor, y: T.Tensor) -> T.Tensor:
        return x + y

    add.register_autograd(lambda ctx, g: g)
    x, y = _x(T, 2), _x(T, 2, seed=1)
    e1 = _r(lambda: add(x, y).sum().backward())

    add.register_autograd(lambda ctx, g: (g, g, g))
    e2 = _r(lambda: add(x, y).sum().backward())
    return e1, e2, x.grad


@program()
def prog_lib_register_autograd_tuple_outputs(T: Any) -> Any:
    ns = _ns(T, "tup")

    @T.library.custom_op(f"{ns}::sincos", mutates_args=())
    def sincos(x: T.Tensor) -> tuple[T.Tensor, T.Tensor]:
        a = x.detach().numpy()
        return T.from_numpy(np.sin(a)), T.from_numpy(np.cos(a))

    calls = []

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, gs, gc):
        (x,) = ctx.saved_tensors
        calls.append((gs is None, gc is None))
        return gs * x.cos() - gc * x.sin()

    sincos.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 3)
    s, c = sincos(x)
    (s.sum() + 2 * c.sum()).backward()
    g1 = x.grad.clone()
    x.grad = None
    s2, _ = sincos(x)
    s2.sum().backward()  # the unused output's grad reaches backward as zeros
    return s, c, s.grad_fn, c.grad_fn, g1, x.grad, calls


@program()
def prog_lib_register_autograd_function_form_and_overload(T: Any) -> Any:
    ns = _ns(T, "fform")
    op = _np_sin(T, f"{ns}::np_sin")

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, g):
        return g * ctx.saved_tensors[0].cos()

    T.library.register_autograd(f"{ns}::np_sin", backward, setup_context=setup_context)
    x = _x(T, 3)
    op(x).sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    T.library.register_autograd(
        getattr(T.ops, ns).np_sin.default, lambda ctx, g: g * 2, setup_context=setup_context
    )
    op(x).sum().backward()
    return g1, x.grad


@program()
def prog_lib_register_autograd_bad_arguments(T: Any) -> Any:
    ns = _ns(T, "badreg")
    _np_sin(T, f"{ns}::np_sin")
    bw = lambda ctx, g: g  # noqa: E731
    return (
        _r(lambda: T.library.register_autograd(3, bw)),
        _r(lambda: T.library.register_autograd(f"{ns}np_sin", bw)),
        _r(lambda: T.library.register_autograd(f"{ns}::nothere", bw)),
    )


@program()
def prog_lib_register_autograd_on_mutating_op_refused(T: Any) -> Any:
    ns = _ns(T, "mutad")

    @T.library.custom_op(f"{ns}::add_one", mutates_args={"x"})
    def add_one(x: T.Tensor) -> None:
        x.add_(1)

    return _r(lambda: add_one.register_autograd(lambda ctx, g: g)), add_one._schema


@program()
def prog_lib_custom_op_in_module_training(T: Any) -> Any:
    ns = _ns(T, "mod")
    op = _np_sin(T, f"{ns}::np_sin")
    _sin_autograd(T, op)

    class Net(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = T.nn.Linear(3, 2)

        def forward(self, x):
            return self.lin(op(x))

    T.manual_seed(0)
    net = Net()
    with T.no_grad():
        net.lin.weight.copy_(_x(T, 2, 3, seed=4, rg=False))
        net.lin.bias.zero_()
    opt = T.optim.SGD(net.parameters(), lr=0.1)
    x = _x(T, 4, 3, rg=False)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = net(x).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, net.lin.weight, net.lin.weight.grad


@program()
def prog_lib_custom_op_dtypes_and_empty(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "dtypes") + "::np_sin")
    _sin_autograd(T, op)
    out = {}
    for dt in (T.float16, T.float32, T.float64):
        x = _x(T, 3, dtype=dt)
        y = op(x)
        y.sum().backward()
        out[str(dt)] = (y, x.grad)
    e = T.zeros(0, 3, requires_grad=True)
    y = op(e)
    y.sum().backward()
    out["empty"] = (y, e.grad)
    return out


# --- mutation, version counters ------------------------------------------------------------


@program()
def prog_lib_mutating_op_bumps_version(T: Any) -> Any:
    ns = _ns(T, "vers")

    @T.library.custom_op(f"{ns}::np_add_", mutates_args={"x"})
    def np_add_(x: T.Tensor, v: float) -> None:
        a = x.numpy()
        a += v  # writes through numpy: torch's counter does not see it

    @T.library.custom_op(f"{ns}::add_", mutates_args={"x"})
    def add_(x: T.Tensor, v: float) -> None:
        x.add_(v)

    z = T.zeros(3)
    v0 = z._version
    r = np_add_(z, 1.0)
    v1 = z._version
    add_(z, 2.0)
    return r, z, v0, v1, z._version, np_add_._schema


@program()
def prog_lib_mutating_op_unknown_mutates_all_tensors(T: Any) -> Any:
    ns = _ns(T, "unk")

    @T.library.custom_op(f"{ns}::f", mutates_args="unknown")
    def f(x: T.Tensor, y: T.Tensor, n: int) -> T.Tensor:
        return x + y * n

    a, b = T.ones(2), T.ones(2)
    out = f(a, b, 3)
    return out, a._version, b._version, f._schema


@program()
def prog_lib_mutating_op_on_leaf_requiring_grad(T: Any) -> Any:
    ns = _ns(T, "mutleaf")

    @T.library.custom_op(f"{ns}::fill", mutates_args={"x"})
    def fill(x: T.Tensor, v: float) -> None:
        x.fill_(v)

    leaf = T.zeros(2, requires_grad=True)
    r1 = _r(lambda: fill(leaf, 1.0))
    c = T.zeros(2, requires_grad=True).clone()
    r2 = _r(lambda: fill(c, 2.0))
    return r1, leaf, leaf._version, r2, c, c.grad_fn, c._version


@program()
def prog_lib_mutating_op_list_argument(T: Any) -> Any:
    ns = _ns(T, "mutlist")

    @T.library.custom_op(f"{ns}::zero_all", mutates_args={"xs"})
    def zero_all(xs: list[T.Tensor]) -> None:
        for t in xs:
            t.zero_()

    a, b = T.ones(2), T.ones(3)
    zero_all([a, b])
    return a, b, a._version, b._version, zero_all._schema


# --- register_kernel, register_fake, opcheck -----------------------------------------------


@program()
def prog_lib_register_kernel_cpu_overrides_default(T: Any) -> Any:
    ns = _ns(T, "kern")

    @T.library.custom_op(f"{ns}::f", mutates_args=())
    def f(x: T.Tensor) -> T.Tensor:
        return x + 1

    x = _x(T, 2, rg=False)
    before = f(x)

    @f.register_kernel("cpu")
    def _(x):
        return x + 100

    after = f(x)
    with f.set_kernel_enabled("cpu", False):
        disabled = f(x)
    return before, after, disabled, f(x)


@program()
def prog_lib_register_kernel_function_form_and_device_types(T: Any) -> Any:
    ns = _ns(T, "kernf")

    @T.library.custom_op(f"{ns}::f", mutates_args=(), device_types="cpu")
    def f(x: T.Tensor) -> T.Tensor:
        return x * 2

    x = _x(T, 2, rg=False)
    a = f(x)
    T.library.register_kernel(f"{ns}::f", "cpu", lambda x: x * 3)
    b = f(x)
    return a, b


@program()
def prog_lib_register_kernel_without_tensor_inputs(T: Any) -> Any:
    ns = _ns(T, "factory")

    def ones(n: int) -> T.Tensor:
        return T.ones(n)

    def ones_dev(n: int, device: T.device) -> T.Tensor:
        return T.ones(n, device=device)

    e = _r(lambda: T.library.custom_op(f"{ns}::ones", ones, mutates_args=(), device_types="cpu"))
    op = T.library.custom_op(f"{ns}::ones_dev", ones_dev, mutates_args=(), device_types="cpu")
    plain = T.library.custom_op(f"{ns}::ones_plain", ones, mutates_args=())
    return e, op._schema, op(3, "cpu"), plain(2)


@program()
def prog_lib_opcheck_passes(T: Any) -> Any:
    ns = _ns(T, "opc")

    @T.library.custom_op(f"{ns}::np_mul", mutates_args=())
    def np_mul(x: T.Tensor, y: float) -> T.Tensor:
        return T.from_numpy(x.detach().numpy() * y)

    @np_mul.register_fake
    def _(x, y):
        return T.empty_like(x)

    def setup_context(ctx, inputs, output):
        ctx.y = inputs[1]

    np_mul.register_autograd(lambda ctx, g: (g * ctx.y, None), setup_context=setup_context)
    return (
        T.library.opcheck(np_mul, (_x(T, 3, rg=False), 3.14)),
        T.library.opcheck(np_mul, (_x(T, 1, 10), 1.5)),
        T.library.opcheck(np_mul, (_x(T, 2, 2), 2.0), test_utils="test_schema"),
        T.library.opcheck(
            np_mul, (_x(T, 2), 2.0), test_utils=("test_schema", "test_autograd_registration")
        ),
    )


@program()
def prog_lib_opcheck_failures(T: Any) -> Any:
    ns = _ns(T, "opcf")

    @T.library.custom_op(f"{ns}::nofake", mutates_args=())
    def nofake(x: T.Tensor) -> T.Tensor:
        return x * 2

    @T.library.custom_op(f"{ns}::sneaky", mutates_args=())
    def sneaky(x: T.Tensor) -> T.Tensor:
        x.add_(1)  # mutates an input its schema says it does not
        return x.clone()

    sneaky.register_fake(lambda x: T.empty_like(x))
    x = _x(T, 3, rg=False)
    soft = T.library.opcheck(nofake, (x,), raise_exception=False)
    return (
        _r(lambda: T.library.opcheck(nofake, (x,))),
        {k: (v if isinstance(v, str) else (type(v).__name__, str(v))) for k, v in soft.items()},
        _r(lambda: T.library.opcheck(sneaky, (x.clone(),), test_utils="test_schema")),
        _r(lambda: T.library.opcheck(nofake, (x,), test_utils="bogus")),
        _r(lambda: T.library.opcheck(nofake, (x,), rtol=1e-3)),
    )


@program()
def prog_lib_opcheck_fake_returns_none_op(T: Any) -> Any:
    ns = _ns(T, "opcn")

    @T.library.custom_op(f"{ns}::inc", mutates_args={"x"})
    def inc(x: T.Tensor) -> None:
        x.add_(1)

    # an op returning nothing gets a generated fake impl
    return T.library.opcheck(inc, (T.zeros(3),))


# --- torch.ops -----------------------------------------------------------------------------


@program()
def prog_lib_torch_ops_objects(T: Any) -> Any:
    ns = _ns(T, "objs")
    op = _np_sin(T, f"{ns}::np_sin")
    nsobj = getattr(T.ops, ns)
    packet = nsobj.np_sin
    ov = packet.default
    x = _x(T, 3, rg=False)
    return (
        packet is nsobj.np_sin,
        ov is packet.default,
        str(packet),
        repr(packet),
        str(ov),
        repr(ov),
        ov.name(),
        packet.overloads(),
        packet._qualified_op_name,
        ov._opname,
        ov._overloadname,
        ov.namespace,
        str(ov._schema),
        str(ov.overloadpacket),
        repr(nsobj).replace(ns, "NS"),
        packet(x),
        ov(x),
        op(x),
    )


@program()
def prog_lib_torch_ops_unknown_names(T: Any) -> Any:
    ns = _ns(T, "unknown")
    _np_sin(T, f"{ns}::np_sin")
    nsobj = getattr(T.ops, ns)
    return (
        _r(lambda: nsobj.nothere),
        _r(lambda: nsobj.np_sin.nothere),
        _r(lambda: T.ops.aten.nothere_op),
        _r(lambda: T.ops.aten.add.nothere),
    )


@program()
def prog_lib_torch_ops_argument_errors(T: Any) -> Any:
    ns = _ns(T, "argerr")
    lib = T.library.Library(ns, "DEF")
    lib.define("foo(Tensor x, Scalar alpha=1) -> Tensor")
    lib.impl("foo", lambda x, alpha=1: x * alpha, "CPU")
    op = getattr(T.ops, ns).foo
    x = _x(T, 2, rg=False)
    out = (
        op(x),
        op(x, 3),
        op(x, alpha=2),
        _r(lambda: op(x, 1, 2)),
        _r(lambda: op()),
        _r(lambda: op(x, beta=2)),
        _r(lambda: op(x, x=x)),
        _r(lambda: op(3)),
        _r(lambda: op([x])),
    )
    lib._destroy()
    return out


@program()
def prog_lib_torch_ops_aten_calls(T: Any) -> Any:
    aten = T.ops.aten
    x = _x(T, 2, 3)
    w = _x(T, 3, 2, seed=1)
    y = aten.add.Tensor(x, x, alpha=2)
    z = aten.mul.Tensor(y, 3.0)
    m = aten.mm.default(z, w)
    r = aten.relu.default(m)
    s = aten.sum.dim_IntList(r, [0])
    t = aten.sum.default(s)
    t.backward()
    return (
        y, z, m, r, s, t,
        x.grad, w.grad,
        str(aten.add.Tensor), repr(aten.mm.default), str(aten.sum),
        aten.add.Tensor.name(), aten.relu.default.name(),
        aten.mean.dim(x.detach(), [1]),
        aten.transpose.int(x.detach(), 0, 1),
        aten.cat.default([x.detach(), x.detach()], 1),
    )  # fmt: skip


@program()
def prog_lib_torch_ops_aten_in_custom_kernel(T: Any) -> Any:
    ns = _ns(T, "atenk")

    @T.library.custom_op(f"{ns}::softplus", mutates_args=())
    def softplus(x: T.Tensor) -> T.Tensor:
        return T.ops.aten.log1p.default(T.ops.aten.exp.default(x))

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, g):
        return g * T.ops.aten.sigmoid.default(ctx.saved_tensors[0])

    softplus.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 4)
    y = softplus(x)
    y.sum().backward()
    return y, x.grad, y.grad_fn


# --- Library, define, impl -----------------------------------------------------------------


@program()
def prog_lib_library_define_and_cpu_impl(T: Any) -> Any:
    ns = _ns(T, "def")
    lib = T.library.Library(ns, "DEF")
    names = (
        lib.define("foo(Tensor x, float y=2.0, int[] z=[1,2], *, bool b=False) -> Tensor"),
        lib.define("foo.ov(Tensor x, Tensor[] xs) -> (Tensor, Tensor)"),
        lib.define("bar(Tensor x) -> Tensor[]"),
        lib.define('baz(Tensor(a!) x, str s="hi", ScalarType? dt=None) -> ()'),
    )
    lib.impl("foo", lambda x, y=2.0, z=(1, 2), *, b=False: x * y + len(z), "CPU")
    lib.impl("foo.ov", lambda x, xs: (x + sum(xs), x - sum(xs)), "CPU")
    lib.impl("bar", lambda x: [x + 1, x + 2], "CompositeExplicitAutograd")
    nsobj = getattr(T.ops, ns)
    x = _x(T, 2, rg=False)
    out = (
        names,
        repr(lib).replace(ns, "NS"),
        [str(getattr(nsobj, n).default._schema) if "default" in getattr(nsobj, n).overloads()
         else None for n in ("foo", "bar", "baz")],
        str(nsobj.foo.ov._schema),
        nsobj.foo.overloads(),
        nsobj.foo(x),
        nsobj.foo(x, 3.0, [1]),
        nsobj.foo.ov(x, [x, x]),
        nsobj.bar(x),
    )  # fmt: skip
    lib._destroy()
    return out


@program()
def prog_lib_library_kind_and_namespace_errors(T: Any) -> Any:
    ns = _ns(T, "kind")
    lib = T.library.Library(ns, "DEF")
    out = (
        _r(lambda: T.library.Library(ns, "BAD")),
        _r(lambda: T.library.Library("prim", "FRAGMENT")),
        _r(lambda: T.library.Library("prim", "DEF")),
        _first(lambda: T.library.Library("aten", "DEF")),
        _r(lambda: T.library.Library(ns, "DEF")),  # a second DEF for the namespace
        T.library.Library(ns, "FRAGMENT").kind,
        T.library.Library(ns, "IMPL").kind,
    )
    lib._destroy()
    return out


@program()
def prog_lib_library_redefinition_and_destroy(T: Any) -> Any:
    ns = _ns(T, "dup")
    lib = T.library.Library(ns, "DEF")
    lib.define("foo(Tensor x) -> Tensor")
    dup = _r(lambda: lib.define("foo(Tensor x) -> Tensor"))
    dup2 = _r(lambda: lib.define("foo(Tensor x, int y) -> Tensor"))
    lib.impl("foo", lambda x: x + 1, "CPU")
    x = _x(T, 2, rg=False)
    before = getattr(T.ops, ns).foo(x)
    lib._destroy()
    gone = _r(lambda: getattr(T.ops, ns).foo)
    destroyed = _r(lambda: lib.define("bar(Tensor x) -> Tensor"))
    lib2 = T.library.Library(ns, "DEF")  # the namespace is free again
    lib2.define("foo(Tensor x) -> Tensor")
    lib2.impl("foo", lambda x: x + 2, "CPU")
    after = getattr(T.ops, ns).foo(x)
    lib2._destroy()
    return dup, dup2, before, gone, destroyed, after


@program()
def prog_lib_library_define_and_impl_errors(T: Any) -> Any:
    ns = _ns(T, "deferr")
    lib = T.library.Library(ns, "DEF")
    out = (
        _r(lambda: lib.define("bad schema")),
        _r(lambda: lib.define("foo(Tensor x) -> Tensor", alias_analysis="PURE")),
        _r(lambda: lib.impl("foo", 3, "CPU")),
        _r(lambda: lib.impl(3, lambda x: x, "CPU")),
        lib.impl("not_defined_yet", lambda x: x, "CPU"),  # torch accepts this
    )
    lib._destroy()
    return out


@program()
def prog_lib_library_composite_implicit_autograd(T: Any) -> Any:
    ns = _ns(T, "cia")
    lib = T.library.Library(ns, "DEF")
    lib.define("sq(Tensor x) -> Tensor")
    lib.impl("sq", lambda x: x * x.sin(), "CompositeImplicitAutograd")
    lib.define("dflt(Tensor x) -> Tensor")
    lib.impl("dflt", lambda x: x.exp() * 2)  # no key: CompositeImplicitAutograd
    x = _x(T, 3)
    y = getattr(T.ops, ns).sq(x)
    z = getattr(T.ops, ns).dflt(x)
    (y.sum() + z.sum()).backward()
    lib._destroy()
    return y, z, y.grad_fn, z.grad_fn, x.grad


@program()
def prog_lib_library_autograd_fallback_warns_at_backward(T: Any) -> Any:
    ns = _ns(T, "fallback")
    lib = T.library.Library(ns, "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * 2, "CPU")
    x = _x(T, 3)
    y = getattr(T.ops, ns).twice(x)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y.sum().backward()
    lib._destroy()
    msgs = [(i.category.__name__, str(i.message).split(" (Triggered")[0]) for i in w]
    return y, y.grad_fn, x.grad, msgs


@program()
def prog_lib_library_autograd_fallback_numpy_kernel(T: Any) -> Any:
    ns = _ns(T, "fbnp")
    lib = T.library.Library(ns, "DEF")
    lib.define("np_twice(Tensor x) -> Tensor")
    lib.impl("np_twice", lambda x: T.from_numpy(x.detach().numpy() * 2), "CPU")
    x = _x(T, 3)
    y = getattr(T.ops, ns).np_twice(x)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        e = _r(lambda: (y * x).sum().backward())
    lib._destroy()
    msgs = [(i.category.__name__, str(i.message).split(" (Triggered")[0]) for i in w]
    return y, y.requires_grad, type(y.grad_fn).__name__, e, x.grad, msgs


@program()
def prog_lib_library_no_kernel(T: Any) -> Any:
    ns = _ns(T, "nokern")
    lib = T.library.Library(ns, "DEF")
    lib.define("foo(Tensor x) -> Tensor")
    lib.define("bar(Tensor[] xs) -> Tensor")
    x = _x(T, 2, rg=False)
    out = (
        _first(lambda: getattr(T.ops, ns).foo(x)),
        _first(lambda: getattr(T.ops, ns).bar([])),
    )
    lib._destroy()
    return out


@program()
def prog_lib_library_autograd_key_kernel(T: Any) -> Any:
    ns = _ns(T, "adkey")
    lib = T.library.Library(ns, "DEF")
    lib.define("mysin(Tensor x) -> Tensor")

    class MySin(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos() * 10

    lib.impl("mysin", lambda x: x.sin(), "CPU")
    lib.impl("mysin", MySin.apply, "Autograd")
    x = _x(T, 3)
    y = getattr(T.ops, ns).mysin(x)
    y.sum().backward()
    lib._destroy()
    return y, y.grad_fn, x.grad


@program()
def prog_lib_define_and_impl_function_forms(T: Any) -> Any:
    ns = _ns(T, "funcs")
    lib = T.library.Library(ns, "FRAGMENT")
    T.library.define(f"{ns}::scale", "(Tensor x, float k) -> Tensor", lib=lib)
    T.library.impl(f"{ns}::scale", "cpu", lambda x, k: x * k, lib=lib)

    T.library.define(f"{ns}::shift", "(Tensor x, float k) -> Tensor", lib=lib)

    @T.library.impl(f"{ns}::shift", "default", lib=lib)
    def _(x, k):
        return x + k

    x = _x(T, 3, rg=False)
    nsobj = getattr(T.ops, ns)
    out = (
        nsobj.scale(x, 2.0),
        nsobj.shift(x, 1.0),
        _r(lambda: T.library.define(f"{ns}::bad", "Tensor x -> Tensor", lib=lib)),
        _r(lambda: T.library.define(f"{ns}bad", "(Tensor x) -> Tensor", lib=lib)),
        _r(lambda: T.library.define(3, "(Tensor x) -> Tensor", lib=lib)),
    )
    lib._destroy()
    return out


@program()
def prog_lib_register_autograd_for_library_op(T: Any) -> Any:
    ns = _ns(T, "libad")
    lib = T.library.Library(ns, "DEF")
    lib.define("np_cube(Tensor x) -> Tensor")
    lib.impl("np_cube", lambda x: T.from_numpy(x.detach().numpy() ** 3), "CPU")

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, g):
        return g * 3 * ctx.saved_tensors[0] ** 2

    T.library.register_autograd(f"{ns}::np_cube", backward, setup_context=setup_context, lib=lib)
    x = _x(T, 3)
    y = getattr(T.ops, ns).np_cube(x)
    y.sum().backward()
    lib.define("inc(Tensor(a!) x) -> ()")
    e = _r(lambda: T.library.register_autograd(f"{ns}::inc", backward, lib=lib))
    lib._destroy()
    return y, y.grad_fn, x.grad, e


@program()
def prog_lib_library_mutable_schema_versions(T: Any) -> Any:
    ns = _ns(T, "libmut")
    lib = T.library.Library(ns, "DEF")
    lib.define("np_inc(Tensor(a!) x) -> ()")
    lib.define("inc(Tensor(a!) x) -> Tensor(a!)")

    def np_inc(x):
        a = x.numpy()
        a += 1

    lib.impl("np_inc", np_inc, "CPU")
    lib.impl("inc", lambda x: x.add_(1), "CPU")
    z = T.zeros(2)
    getattr(T.ops, ns).np_inc(z)
    v1 = z._version  # a Library op's schema alone bumps nothing
    r = getattr(T.ops, ns).inc(z)
    lib._destroy()
    return z, v1, z._version, r is z


@program()
def prog_lib_library_overloads_dispatch_by_schema(T: Any) -> Any:
    ns = _ns(T, "ovl")
    lib = T.library.Library(ns, "DEF")
    lib.define("f(Tensor x) -> Tensor")
    lib.define("f.two(Tensor x, Tensor y) -> Tensor")
    lib.impl("f", lambda x: x + 1, "CPU")
    lib.impl("f.two", lambda x, y: x + y * 10, "CPU")
    p = getattr(T.ops, ns).f
    x = _x(T, 2, rg=False)
    out = (p.overloads(), p(x), p(x, x), p.default(x), p.two(x, x), str(p.two._schema))
    lib._destroy()
    return out


@program()
def prog_lib_old_define_decorator_form(T: Any) -> Any:
    ns = _ns(T, "olddef")
    lib = T.library.Library(ns, "DEF")

    @T.library.define(lib, "triple(Tensor x) -> Tensor")
    def triple(x):
        return x * 3

    @T.library.impl(lib, "triple", "CPU")
    def triple_cpu(x):
        return x * 30

    x = _x(T, 2)
    y = getattr(T.ops, ns).triple(x)
    lib._destroy()
    return y, y.grad_fn


# --- the finished example a user writes ---------------------------------------------------


@program()
def prog_lib_tutorial_numpy_linear(T: Any) -> Any:
    ns = _ns(T, "tut")

    @T.library.custom_op(f"{ns}::np_linear", mutates_args=())
    def np_linear(x: T.Tensor, w: T.Tensor, b: T.Tensor | None = None) -> T.Tensor:
        out = x.detach().numpy() @ w.detach().numpy().T
        if b is not None:
            out = out + b.detach().numpy()
        return T.from_numpy(out)

    @np_linear.register_fake
    def _(x, w, b=None):
        return x.new_empty(x.shape[0], w.shape[0])

    def setup_context(ctx, inputs, output):
        x, w, b = inputs
        ctx.save_for_backward(x, w)
        ctx.has_b = b is not None

    def backward(ctx, g):
        x, w = ctx.saved_tensors
        gx = g @ w if ctx.needs_input_grad[0] else None
        gw = g.t() @ x if ctx.needs_input_grad[1] else None
        gb = g.sum(0) if ctx.has_b and ctx.needs_input_grad[2] else None
        return gx, gw, gb

    np_linear.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 4, 3, rg=False)
    w = _x(T, 2, 3, seed=1)
    b = _x(T, 2, seed=2)
    y = np_linear(x, w, b)
    y.pow(2).sum().backward()
    y2 = np_linear(x, w)
    ok = T.library.opcheck(np_linear, (x, w, b))
    return y, y2, w.grad, b.grad, y.grad_fn, ok, np_linear._schema


# --- list[Tensor] and optional Tensor arguments, non-differentiable outputs ---------------


@program()
def prog_lib_tensor_list_input_autograd(T: Any) -> Any:
    ns = _ns(T, "tlist")

    @T.library.custom_op(f"{ns}::wsum", mutates_args=())
    def wsum(xs: list[T.Tensor], ws: list[float]) -> T.Tensor:
        return sum(x * w for x, w in zip(xs, ws, strict=True))

    seen = []

    def setup_context(ctx, inputs, output):
        xs, ws = inputs
        seen.append((type(xs).__name__, len(xs), ws))
        ctx.ws = ws

    def backward(ctx, g):
        seen.append(ctx.needs_input_grad)
        return [g * w for w in ctx.ws], None

    wsum.register_autograd(backward, setup_context=setup_context)
    a = _x(T, 2)
    b = _x(T, 2, seed=1, rg=False)
    c = _x(T, 2, seed=2)
    y = wsum([a, b, c], [2.0, 3.0, 4.0])
    y.sum().backward()
    return y, y.grad_fn, a.grad, b.grad, c.grad, seen, wsum._schema


@program()
def prog_lib_tensor_list_backward_wrong_structure(T: Any) -> Any:
    ns = _ns(T, "tlbad")

    @T.library.custom_op(f"{ns}::wsum", mutates_args=())
    def wsum(xs: list[T.Tensor], k: float) -> T.Tensor:
        return sum(xs) * k

    wsum.register_autograd(lambda ctx, g: (g, None))  # a tensor where a list is due
    a = _x(T, 2)
    y = wsum([a, _x(T, 2, seed=1, rg=False)], 2.0)
    return _r(lambda: y.sum().backward()), a.grad


@program()
def prog_lib_tensor_list_output_autograd(T: Any) -> Any:
    ns = _ns(T, "tlout")

    @T.library.custom_op(f"{ns}::split2", mutates_args=())
    def split2(x: T.Tensor) -> list[T.Tensor]:
        return [x[:2].clone(), x[2:] * 2]

    def backward(ctx, grads):
        g0, g1 = grads
        return T.cat([g0, g1 * 2])

    split2.register_autograd(backward)
    x = _x(T, 5)
    parts = split2(x)
    (parts[0].sum() * 3 + parts[1].sum()).backward()
    return type(parts).__name__, parts, [p.grad_fn for p in parts], x.grad, split2._schema


@program()
def prog_lib_optional_tensor_argument(T: Any) -> Any:
    ns = _ns(T, "opt")

    @T.library.custom_op(f"{ns}::addb", mutates_args=())
    def addb(x: T.Tensor, b: T.Tensor | None = None) -> T.Tensor:
        return x.clone() if b is None else x + b

    def setup_context(ctx, inputs, output):
        ctx.has_b = inputs[1] is not None

    addb.register_autograd(
        lambda ctx, g: (g, g if ctx.has_b else None), setup_context=setup_context
    )
    x = _x(T, 3)
    b = _x(T, 3, seed=1)
    y1 = addb(x)
    y2 = addb(x, b)
    y3 = addb(x, None)
    (y1.sum() + y2.sum() + y3.sum()).backward()
    return y1, y2, y3, x.grad, b.grad, _r(lambda: addb(x, 3)), addb._schema


@program()
def prog_lib_schema_argument_type_errors(T: Any) -> Any:
    ns = _ns(T, "typeerr")
    lib = T.library.Library(ns, "DEF")
    lib.define("f(Tensor x, Tensor? b, Tensor[] ts, int[] n=[1]) -> Tensor")
    lib.impl("f", lambda x, b, ts, n=(1,): x * len(ts) + sum(n), "CPU")
    op = getattr(T.ops, ns).f
    x = _x(T, 2, rg=False)
    out = (
        op(x, None, [x, x]),
        op(x, x, [], [1, 2]),
        _r(lambda: op(x, None, [], 3)),
        _r(lambda: op(x, 3, [])),
        _r(lambda: op(x, None, 3)),
        _r(lambda: op(x, None, [3])),
        _r(lambda: op(x, None, [], 2.5)),
        _r(lambda: op(x, None, [], "a")),
    )
    lib._destroy()
    return out


@program()
def prog_lib_integer_outputs_not_differentiable(T: Any) -> Any:
    ns = _ns(T, "intout")

    @T.library.custom_op(f"{ns}::max_and_arg", mutates_args=())
    def max_and_arg(x: T.Tensor) -> tuple[T.Tensor, T.Tensor, int]:
        return x.max(), x.argmax(), int(x.argmax())

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output[1])

    def backward(ctx, gv, gi, gn):
        x, i = ctx.saved_tensors
        g = T.zeros_like(x)
        g[i] = gv
        return g

    max_and_arg.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 5)
    v, i, n = max_and_arg(x)
    v.backward()
    return v, i, n, i.requires_grad, i.grad_fn, v.grad_fn, x.grad


@program()
def prog_lib_custom_op_under_inference_and_no_grad(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "inf") + "::np_sin")
    _sin_autograd(T, op)
    x = _x(T, 3)
    with T.inference_mode():
        a = op(x)
    with T.no_grad():
        b = op(x)
    with T.enable_grad():
        c = op(x)
    return a.requires_grad, a.is_inference(), b.requires_grad, c.grad_fn, a.tolist(), b


@program()
def prog_lib_get_ctx_outside_fake_impl(T: Any) -> Any:
    return T.library.get_ctx()


@program()
def prog_lib_vmap_over_custom_op(T: Any) -> Any:
    ns = _ns(T, "vmap")
    op = _np_sin(T, f"{ns}::np_sin")
    x = _x(T, 2, 3, rg=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's batching-fallback warning is C++ only
        return T.func.vmap(op)(x), T.func.vmap(op, in_dims=1)(x)


@program()
def prog_lib_custom_op_complex_and_noncontiguous(T: Any) -> Any:
    ns = _ns(T, "cplx")

    @T.library.custom_op(f"{ns}::absq", mutates_args=())
    def absq(x: T.Tensor) -> T.Tensor:
        return (x * x.conj()).real.contiguous()

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    absq.register_autograd(lambda ctx, g: 2 * g * ctx.saved_tensors[0], setup_context=setup_context)
    z = T.tensor([1 + 2j, 3 - 1j, -0.5j], requires_grad=True)
    y = absq(z)
    y.sum().backward()
    m = _x(T, 3, 4)
    w = absq(m.t())
    w.sum().backward()
    return y, z.grad, w, m.grad, w.is_contiguous()


# --- kernels and backward formulas that break the contract --------------------------------


@program()
def prog_lib_kernel_returns_non_tensor(T: Any) -> Any:
    ns = _ns(T, "retnp")

    @T.library.custom_op(f"{ns}::as_numpy", mutates_args=())
    def as_numpy(x: T.Tensor) -> T.Tensor:
        return np.sin(x.numpy())  # forgot torch.from_numpy

    @T.library.custom_op(f"{ns}::nothing", mutates_args=())
    def nothing(x: T.Tensor) -> T.Tensor:
        return None

    x = _x(T, 2, rg=False)
    return _r(lambda: as_numpy(x)), _r(lambda: nothing(x))


@program()
def prog_lib_backward_returns_bad_gradients(T: Any) -> Any:
    ns = _ns(T, "badgrad")

    @T.library.custom_op(f"{ns}::f", mutates_args=())
    def f(x: T.Tensor) -> T.Tensor:
        return x * 2

    x = _x(T, 3)
    out = []
    for bw in (
        lambda ctx, g: g[:1] * 2,  # wrong shape
        lambda ctx, g: (g * 2).double(),  # wrong dtype: cast back
        lambda ctx, g: 1.0,  # not a tensor
        lambda ctx, g: (g * 2).expand(2, 3),  # summed to the input's shape
    ):
        f.register_autograd(bw)
        x.grad = None
        out.append((_r(lambda: f(x).sum().backward()), x.grad))
    return out


@program()
def prog_lib_backward_twice_frees_saved_tensors(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "twice") + "::np_sin")
    _sin_autograd(T, op)
    x = _x(T, 3)
    y = op(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    z = op(x)
    z.sum().backward()
    return x.grad, _r(lambda: z.sum().backward())


@program()
def prog_lib_mutation_by_custom_op_invalidates_saved_tensor(T: Any) -> Any:
    ns = _ns(T, "saved")

    @T.library.custom_op(f"{ns}::scale_", mutates_args={"x"})
    def scale_(x: T.Tensor, k: float) -> None:
        a = x.numpy()
        a *= k

    x = _x(T, 3)
    y = x.clone()
    s = y.sin()
    scale_(y.detach(), 2.0)  # shares y's version counter
    return y._version, _r(lambda: s.sum().backward()), x.grad


@program()
def prog_lib_parameter_and_expanded_inputs(T: Any) -> Any:
    op = _np_sin(T, _ns(T, "param") + "::np_sin")
    _sin_autograd(T, op)
    p = T.nn.Parameter(T.tensor(_data(3)))
    y = op(p)
    e = _x(T, 1, 3, seed=2)
    z = op(e.expand(4, 3))
    (y.sum() + z.sum()).backward()
    return y, z, p.grad, e.grad, type(p).__name__


# --- the registration APIs' argument checks ------------------------------------------------


@program()
def prog_lib_registration_argument_errors(T: Any) -> Any:
    ns = _ns(T, "regerr")
    op = _np_sin(T, f"{ns}::np_sin")
    lib = T.library.Library(ns, "FRAGMENT")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x + 1, "CPU")
    out = (
        _r(lambda: T.library.register_kernel(f"{ns}::np_sin", 3, lambda x: x)),
        _r(lambda: lib.impl("g", lambda x: x + 2, "CPU", allow_override=False)),
        _r(lambda: T.library.register_fake(3, lambda x: x)),
        _r(lambda: T.library.custom_op(f"{ns}::lam", lambda x: x, mutates_args=())),
        getattr(T.ops, ns).g(_x(T, 1, rg=False)),
        op._name,
        op._namespace,
        op._qualname,
        type(op._opoverload).__name__,
        op._init_fn.__name__,
    )
    lib._destroy()
    return out


@program()
def prog_lib_impl_abstract_is_deprecated(T: Any) -> Any:
    ns = _ns(T, "implabs")
    lib = T.library.Library(ns, "FRAGMENT")
    lib.define("g(Tensor x) -> Tensor")
    fake = T.library.impl_abstract(f"{ns}::g", lambda x: T.empty_like(x), lib=lib)
    lib._destroy()
    return callable(fake)


@program()
def prog_lib_string_annotations(T: Any) -> Any:
    ns = _ns(T, "strann")

    def local_names(x: "T.Tensor") -> "T.Tensor":  # T is the program's local: not found
        return x

    def bare(x: "Tensor", n: "int") -> "Tensor":  # noqa: F821 - Tensor is not imported here
        return x * n

    def builtins_only(n: "int", f: "float") -> "bool":
        return n > f

    return (
        _r(lambda: T.library.custom_op(f"{ns}::a", local_names, mutates_args=())),
        _r(lambda: T.library.custom_op(f"{ns}::b", bare, mutates_args=())),
        T.library.custom_op(f"{ns}::c", builtins_only, mutates_args=())._schema,
    )


@program()
def prog_lib_number_dtype_device_arguments(T: Any) -> Any:
    ns = _ns(T, "scalar")

    @T.library.custom_op(f"{ns}::cast_scale", mutates_args=())
    def cast_scale(
        x: T.Tensor, s: T.types.Number, dt: T.dtype = T.float64, dev: T.device | None = None
    ) -> T.Tensor:
        return (x * s).to(dt)

    x = _x(T, 2, rg=False)
    return (
        cast_scale._schema,
        cast_scale(x, 2),
        cast_scale(x, 2.5, T.float16),
        cast_scale(x, True, dt=T.int32, dev=T.device("cpu")),
    )


# --- opcheck of a Library op; torch.ops.aten packets ---------------------------------------


@program()
def prog_lib_opcheck_library_op(T: Any) -> Any:
    ns = _ns(T, "opclib")
    lib = T.library.Library(ns, "DEF")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x + 1, "CPU")
    op = getattr(T.ops, ns).g.default

    def show(d: Any) -> Any:
        return {k: v if isinstance(v, str) else (type(v).__name__, str(v)) for k, v in d.items()}

    plain = show(T.library.opcheck(op, (_x(T, 2, rg=False),), raise_exception=False))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch backpropagates through the fallback (warns)
        grad = show(
            T.library.opcheck(
                op, (_x(T, 2),), test_utils="test_autograd_registration", raise_exception=False
            )
        )
    lib._destroy()
    return plain, grad


@program()
def prog_lib_aten_packet_calls_and_dtypes(T: Any) -> Any:
    aten = T.ops.aten
    i = T.tensor([1, 2, 3])
    f = _x(T, 2, 3)
    s = aten.sum.dim_IntList(f, [1], True)
    s.sum().backward()
    return (
        aten.add(i, 1),
        aten.mul(i, 2.5),
        aten.div.Tensor(i, 2),
        s,
        f.grad,
        aten.where.self(i > 1, i, -i),
        aten.clone.default(f).grad_fn,
        aten.view.default(f, [6]).grad_fn,
        aten.t.default(f).shape,
    )


# --- transforms over a custom op -------------------------------------------------------------


def _cube(T: Any, tag: str) -> Any:
    @T.library.custom_op(f"{_ns(T, tag)}::cube", mutates_args=())
    def cube(x: T.Tensor) -> T.Tensor:
        return x**3

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    cube.register_autograd(
        lambda ctx, g: g * 3 * ctx.saved_tensors[0] ** 2, setup_context=setup_context
    )
    return cube


@program()
def prog_lib_func_transforms_over_custom_op(T: Any) -> Any:
    cube = _cube(T, "functx")
    x = T.tensor([1.0, 2.0])
    # the generated Function has no setup_context of its own: torch.func refuses it
    return (
        _r(lambda: T.func.grad(lambda a: cube(a).sum())(x)),
        _r(lambda: T.func.jacrev(cube)(x)),
        _r(lambda: T.func.vmap(T.func.grad(lambda a: cube(a).sum()))(x[:, None])),
    )


@program()
def prog_lib_forward_ad_through_custom_op(T: Any) -> Any:
    cube = _cube(T, "fwad")
    x = T.tensor([1.0, 2.0])
    fwad = T.autograd.forward_ad
    with fwad.dual_level():
        d = fwad.make_dual(x, T.ones(2))
        primal, tangent = fwad.unpack_dual(cube(d))  # the kernel runs below autograd
    return primal, tangent, T.func.jvp(cube, (x,), (T.ones(2),))


@program()
def prog_lib_autograd_functional_and_checkpoint(T: Any) -> Any:
    cube = _cube(T, "afunc")
    x = T.tensor([1.0, 2.0, -0.5])
    jac = T.autograd.functional.jacobian(cube, x)
    hess = T.autograd.functional.hessian(lambda a: cube(a).sum(), x)
    xr = x.clone().requires_grad_()
    from importlib import import_module

    checkpoint = import_module(T.__name__ + ".utils.checkpoint").checkpoint
    y = checkpoint(cube, xr, use_reentrant=False)
    y.sum().backward()
    return jac, hess, y, xr.grad


@program()
def prog_lib_opcheck_fake_impl_with_dynamic_size(T: Any) -> Any:
    ns = _ns(T, "nonzero")

    @T.library.custom_op(f"{ns}::nonzero", mutates_args=())
    def nonzero(x: T.Tensor) -> T.Tensor:
        return x.nonzero()

    kinds = []

    @nonzero.register_fake
    def _(x):
        ctx = T.library.get_ctx()
        kinds.append(type(ctx).__name__)
        nnz = ctx.new_dynamic_size()
        return x.new_empty([nnz, x.dim()], dtype=T.int64)

    @T.library.custom_op(f"{ns}::nonzero_fixed", mutates_args=())
    def nonzero_fixed(x: T.Tensor) -> T.Tensor:
        return x.nonzero()

    nonzero_fixed.register_fake(lambda x: x.new_empty([3, x.dim()], dtype=T.int64))

    @T.library.custom_op(f"{ns}::halve", mutates_args=())
    def halve(x: T.Tensor) -> T.Tensor:
        return x / 2

    halve.register_fake(lambda x: T.empty_like(x, dtype=T.float64))
    x = T.tensor([0.0, 1.0, 2.0, 0.0])

    def show(d: Any) -> Any:
        return {k: v if isinstance(v, str) else (type(v).__name__, str(v)) for k, v in d.items()}

    return (
        T.library.opcheck(nonzero, (x,)),
        sorted(set(kinds)),
        show(T.library.opcheck(nonzero_fixed, (x,), raise_exception=False)),
        show(T.library.opcheck(halve, (x,), raise_exception=False)),
        nonzero(x),
    )


@program()
def prog_lib_custom_op_call_errors_and_filled_defaults(T: Any) -> Any:
    ns = _ns(T, "calls")

    @T.library.custom_op(f"{ns}::f", mutates_args=())
    def f(
        x: T.Tensor,
        k: float = 2.0,
        *,
        dv: T.device = "cpu",
        dt: T.dtype = T.float32,
        o: int | None = None,
    ) -> T.Tensor:
        return x * k

    seen = []

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        kw = sorted((k, str(v), type(v).__name__) for k, v in keyword_only_inputs.items())
        seen.append((inputs[1:], kw))

    f.register_autograd(lambda ctx, g: (g, None), setup_context=setup_context)
    x = _x(T, 2)
    sch = str(getattr(T.ops, ns).f.default._schema)  # defaults as the parsed schema prints them
    return (
        f._schema,
        sch,
        f(x),
        f(x, 3),
        f(x, True),
        f(x, k=3, dt=T.float64, o=4),
        _r(lambda: f(x, 1.0, 2.0)),
        _r(lambda: f(x, z=1)),
        _r(lambda: f()),
        _r(lambda: f(x, k="a")),
        _r(lambda: f(x, o=1.5)),
        seen,
    )


@program()
def prog_lib_register_autocast(T: Any) -> Any:
    ns = _ns(T, "autocast")
    seen = []

    def mm(a: T.Tensor, b: T.Tensor) -> T.Tensor:
        seen.append((a.dtype, b.dtype, T.is_autocast_enabled("cpu")))
        return a @ b

    plain = T.library.custom_op(f"{ns}::mm", mm, mutates_args=())
    cast = T.library.custom_op(f"{ns}::mm_cast", mm, mutates_args=())
    for op in (plain, cast):

        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        def backward(ctx, g):
            a, b = ctx.saved_tensors
            g = g.double()
            return g @ b.double().t(), a.double().t() @ g

        op.register_autograd(backward, setup_context=setup_context)
    cast.register_autocast("cpu", T.float16)
    a = _x(T, 2, 3)
    b = _x(T, 3, 2, seed=1)
    idx = T.tensor([0, 1])
    with T.autocast("cpu", dtype=T.bfloat16):
        y1 = plain(a, b)
        y2 = cast(a, b)
        y3 = cast(a.double(), b.double())  # float64 is not cast
    (y1.float().sum() + y2.float().sum() + y3.float().sum()).backward()
    outside = cast(a, b)
    return (
        y1.dtype, y2.dtype, y3.dtype, outside.dtype, seen, a.grad, b.grad, y2.grad_fn, idx,
        _r(lambda: T.library.register_autocast(f"{ns}::mm", 3, T.float16)),
    )  # fmt: skip


@program()
def prog_lib_tags(T: Any) -> Any:
    ns = _ns(T, "tags")

    def f(x: T.Tensor) -> T.Tensor:
        return x + 1

    a = T.library.custom_op(f"{ns}::a", f, mutates_args=())
    b = T.library.custom_op(f"{ns}::b", f, mutates_args=(), tags=(T.Tag.pointwise,))
    c = T.library.custom_op(f"{ns}::c", f, mutates_args=(), tags=T.Tag.pt2_compliant_tag)
    lib = T.library.Library(ns + "_lib", "DEF")
    lib.define("h(Tensor x) -> Tensor", tags=T.Tag.core)
    lib.define("k(Tensor x) -> Tensor", tags=(T.Tag.pointwise, T.Tag.reduction))
    lib.define("m(Tensor x) -> Tensor")
    nsobj, libns = getattr(T.ops, ns), getattr(T.ops, ns + "_lib")
    out = (
        [str(t) for t in nsobj.a.default.tags],
        [repr(t) for t in nsobj.b.default.tags],
        [t.name for t in nsobj.c.default.tags],
        libns.h.default.tags,
        libns.k.default.tags,
        libns.m.default.tags,
        b._tags,
        c._tags,
        T.Tag.inplace.value,
        T.Tag.view_copy.name,
        T.Tag.core == T.Tag.core,
        a(_x(T, 2, rg=False)),
    )
    lib._destroy()
    return [
        [str(t) if isinstance(t, T.Tag) else t for t in o] if isinstance(o, (list, tuple)) else o
        for o in out
    ]


# --- torch.Tag.inplace and torch.Tag.out custom ops ----------------------------------------


@program()
def prog_lib_inplace_tagged_custom_op(T: Any) -> Any:
    ns = _ns(T, "inplace")

    @T.library.custom_op(f"{ns}::sin_", mutates_args={"x"}, tags=T.Tag.inplace)
    def sin_(x: T.Tensor) -> T.Tensor:
        x.sin_()
        return x

    @T.library.custom_op(f"{ns}::bad_", mutates_args={"x"}, tags=T.Tag.inplace)
    def bad_(x: T.Tensor) -> T.Tensor:
        return x.clone()

    z = T.ones(2)
    v = sin_(z)
    leaf = T.ones(2, requires_grad=True)
    y = sin_(leaf)
    c = T.ones(2, requires_grad=True).clone()
    w = sin_(c)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        sin_.register_fake(lambda x: x)
    return (
        sin_._schema, v is z, z, z._version,
        y, y.grad_fn, _r(lambda: y.sum().backward()),
        w.grad_fn, c.grad_fn,
        _r(lambda: sin_.register_autograd(lambda ctx, g: g)),
        _r(lambda: bad_(T.ones(2))),
        [str(r.message) for r in rec],
        T.library.opcheck(sin_, (T.ones(3),)),
    )  # fmt: skip


@program()
def prog_lib_out_tagged_custom_op(T: Any) -> Any:
    ns = _ns(T, "outtag")

    @T.library.custom_op(f"{ns}::sin_out", mutates_args={"out"}, tags=T.Tag.out)
    def sin_out(x: T.Tensor, *, out: T.Tensor) -> T.Tensor:
        out.copy_(x.sin())
        return out

    @T.library.custom_op(f"{ns}::two_out", mutates_args={"a", "b"}, tags=T.Tag.out)
    def two_out(x: T.Tensor, *, a: T.Tensor, b: T.Tensor) -> tuple[T.Tensor, T.Tensor]:
        a.copy_(x + 1)
        b.copy_(x - 1)
        return b, a  # the wrong order

    o = T.empty(2)
    res = sin_out(_x(T, 2, rg=False), out=o)
    return (
        sin_out._schema, two_out._schema, res is o, o, o._version,
        _r(lambda: sin_out(_x(T, 2), out=T.empty(2))),
        _r(lambda: sin_out.register_autograd(lambda ctx, g: g)),
        _r(lambda: two_out(T.ones(2), a=T.empty(2), b=T.empty(2))),
    )  # fmt: skip


@program()
def prog_lib_inplace_and_out_tag_schema_errors(T: Any) -> Any:
    ns = _ns(T, "tagerr")

    def two(x: T.Tensor, y: T.Tensor) -> T.Tensor:
        return x

    def none_ret(x: T.Tensor) -> None:
        pass

    def pos_out(x: T.Tensor, out: T.Tensor) -> T.Tensor:
        return out

    def int_first(n: int, x: T.Tensor) -> T.Tensor:
        return x

    def out_none(x: T.Tensor, *, out: T.Tensor) -> None:
        return None

    def no_out(x: T.Tensor) -> T.Tensor:
        return x

    def go(name: str, f: Any, muts: Any, tags: Any) -> Any:
        return _r(lambda: T.library.custom_op(f"{ns}::{name}", f, mutates_args=muts, tags=tags))

    return [
        go("a", two, {"y"}, T.Tag.inplace),
        go("b", none_ret, {"x"}, T.Tag.inplace),
        go("c", pos_out, {"out"}, T.Tag.out),
        go("d", two, {"x"}, [T.Tag.inplace, T.Tag.out]),
        go("e", int_first, {"x"}, T.Tag.inplace),
        go("f", out_none, {"out"}, T.Tag.out),
        go("g", no_out, (), T.Tag.out),
        go("h", two, "unknown", T.Tag.inplace),
    ]


@program()
def prog_lib_aten_ops_decompositions_use(T: Any) -> Any:
    aten = T.ops.aten
    a = _x(T, 2, 3)
    w = _x(T, 4, 3, seed=1)
    outs = (
        aten.slice.Tensor(a, 1, 0, 2),
        aten.slice.Tensor(a),
        aten.index.Tensor(a, [T.tensor([1, 0])]),
        aten.index.Tensor(a, [None, T.tensor([0, 2])]),
        aten._to_copy.default(a, dtype=T.float64),
        aten._softmax.default(a, 1, False),
        aten._log_softmax.default(a, 0, False),
        aten.var.correction(a, [1], correction=0),
        aten.std.dim(a, [0]),
        aten.rsub.Scalar(a, 1),
        aten.embedding.default(w, T.tensor([0, 2])),
        aten.addmm.default(T.ones(2, 4), a, w.t()),
        aten.native_layer_norm.default(a, [3], None, None, 1e-5)[0],
    )
    sum(o.double().sum() for o in outs).backward()
    return (
        outs,
        [o.grad_fn for o in outs],
        a.grad,
        w.grad,
        aten.sym_size.int(a, 1),
        aten.arange.start(1, 4),
        aten.split.Tensor(a.detach(), 1, 1),
        type(aten.unbind.int(a.detach(), 0)).__name__,
        _r(lambda: aten._private_helper),
        _r(lambda: aten.var.nothere),
    )


@program()
def prog_lib_setup_context_ctx_api(T: Any) -> Any:
    ns = _ns(T, "ctxapi")

    @T.library.custom_op(f"{ns}::sc", mutates_args=())
    def sc(x: T.Tensor) -> tuple[T.Tensor, T.Tensor]:
        return x.sin(), x.cos()

    calls = []

    def setup_context(ctx, inputs, output):
        ctx.set_materialize_grads(False)
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(inputs[0])

    def backward(ctx, gs, gc):
        calls.append((gs is None, gc is None))
        return gs * ctx.saved_tensors[0].cos()

    sc.register_autograd(backward, setup_context=setup_context)
    x = _x(T, 2)
    s, c = sc(x)
    s.sum().backward()
    first = (s.requires_grad, c.requires_grad, c.grad_fn, x.grad.clone(), list(calls))

    sc.register_autograd(
        backward, setup_context=lambda ctx, inputs, output: ctx.save_for_backward(1.0)
    )
    bad_save = _r(lambda: sc(x))

    @T.library.custom_op(f"{ns}::mulk", mutates_args=())
    def mulk(x: T.Tensor, k: float) -> T.Tensor:
        return x * k

    mulk.register_autograd(lambda ctx, g: (g, g))  # a gradient for the float
    bad_grad = _r(lambda: mulk(x, 2.0).sum().backward())

    def save_x(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    mulk.register_autograd(lambda ctx, g: (g * ctx.saved_tensors[0], None), setup_context=save_x)
    packed = []
    with T.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t.shape) or t, lambda t: t):
        y = mulk(x, 3.0)
    hooks = []
    y.grad_fn.register_hook(lambda gi, go: hooks.append((len(gi), len(go))))
    y.grad_fn.register_prehook(lambda go: hooks.append(("pre", len(go))))
    x.grad = None
    y.sum().backward()
    return (
        first,
        bad_save,
        bad_grad,
        packed,
        hooks,
        x.grad,
        y.grad_fn.name(),
        _r(lambda: y.grad_fn.saved_tensors),
    )


@program()
def prog_lib_scoped_library(T: Any) -> Any:
    ns = _ns(T, "scoped")
    with T.library._scoped_library(ns, "DEF") as lib:
        lib.define("f(Tensor x) -> Tensor")
        lib.impl("f", lambda x: x * 3, "CPU")
        inside = getattr(T.ops, ns).f(_x(T, 2, rg=False))
    after = _r(lambda: getattr(T.ops, ns).f)
    with T.library._scoped_library(ns, "DEF") as lib:  # the namespace is free again
        lib.define("f(Tensor x) -> Tensor")
        lib.impl("f", lambda x: x * 4, "CPU")
        again = getattr(T.ops, ns).f(_x(T, 2, rg=False))
    return inside, after, again


@program()
def prog_lib_library_lifetime_ends_with_the_object(T: Any) -> Any:
    import gc

    ns = _ns(T, "lifetime")

    def make() -> Any:
        lib = T.library.Library(ns, "DEF")
        lib.define("f(Tensor x) -> Tensor")
        lib.impl("f", lambda x: x + 1, "CPU")
        return getattr(T.ops, ns).f(T.ones(1))

    first = make()  # the Library is gone when make returns: so are its ops
    gc.collect()
    gone = _r(lambda: getattr(T.ops, ns).f)
    lib = T.library.Library(ns, "DEF")  # and its namespace is free
    lib.define("f(Tensor x) -> Tensor")
    kept = _first(lambda: getattr(T.ops, ns).f(T.ones(1)))  # defined, no kernel yet
    lib._destroy()
    return first, gone, kept


@program()
def prog_lib_namespaces_named_like_builtin_modules(T: Any) -> Any:
    # shadowgrad.ops has modules named sorting, special, linalg, shape, ...: a user's
    # namespace of the same name still reaches its operators
    out = []
    for base in ("sorting", "special", "linalg"):
        ns = _ns(T, base)  # sg_sorting_0, ...: not a module name
        op = _np_sin(T, f"{ns}::np_sin")
        out.append(getattr(T.ops, ns).np_sin(T.ones(1)).shape == op(T.ones(1)).shape)
    lib = T.library.Library("sorting", "FRAGMENT")
    name = f"my_sort_{next(_COUNTERS[(*_engine(T), 'sortingfrag')])}"
    lib.define(f"{name}(Tensor x) -> Tensor")
    lib.impl(name, lambda x: x.sort().values, "CPU")
    v = getattr(T.ops.sorting, name)(T.tensor([3.0, 1.0, 2.0]))
    missing = _r(lambda: T.ops.sorting.not_an_op_here)
    lib._destroy()
    return out, v, type(missing).__name__ if not hasattr(missing, "type") else missing.type


@program()
def prog_lib_schema_object_fields(T: Any) -> Any:
    ns = _ns(T, "schobj")
    lib = T.library.Library(ns, "DEF")
    lib.define(
        "f.ov(Tensor(a!) x, Tensor? b, SymInt[] s, int[2] k=[1,2], float y=2.0, *, "
        'ScalarType? dt=None, str m="a", Scalar al=1) -> (Tensor, Tensor[])'
    )
    sch = getattr(T.ops, ns).f.ov._schema
    args = [
        (a.name, str(a.type), repr(a.type), a.default_value, a.has_default_value(), a.kwarg_only,
         a.alias_info is not None, a.is_out)
        for a in sch.arguments
    ]  # fmt: skip
    alias = sch.arguments[0].alias_info
    out = (
        sch.name.replace(ns, "NS"),
        sch.overload_name,
        sch.is_mutable,
        args,
        [(r.name, str(r.type)) for r in sch.returns],
        (alias.is_write, sorted(alias.before_set), sorted(alias.after_set)),
        sch.arguments[3].N,
        str(sch).replace(ns, "NS"),
    )
    lib._destroy()
    return out


@program()
def prog_lib_define_schema_parse_errors(T: Any) -> Any:
    ns = _ns(T, "parse")
    lib = T.library.Library(ns, "DEF")
    out = [
        _r(lambda s=s: lib.define(s))
        for s in (
            "a(Tensor x) -> Tensor",
            "other::b(Tensor x) -> Tensor",
            "c(Tensr x) -> Tensor",
            "d(Tensor x) -> Tensr",
            "f(Tensor x -> Tensor",
            "g(Tensor x)",
            "h(Tensor x, *, Tensor y) -> Tensor",
            "j() -> Tensor",
            "l(Tensor x) -> (Tensor a, Tensor b)",
            "m(Tensor(a) x) -> Tensor(a)",
            "n.Tensor(Tensor x) -> Tensor",
            "o(Tensor x)->Tensor",
        )
    ]
    nsobj = getattr(T.ops, ns)
    schemas = [str(getattr(nsobj, n).overloads()) for n in ("a", "h", "j", "l", "m", "n", "o")]
    lib._destroy()
    return [o.replace(ns, "NS") if isinstance(o, str) else o for o in out], schemas


@program()
def prog_lib_aten_scalar_overloads(T: Any) -> Any:
    aten = T.ops.aten
    a = _x(T, 3)
    outs = [
        aten.add.Scalar(a, 2),
        aten.add.Scalar(a, 2, alpha=3),
        aten.sub.Scalar(a, 0.5),
        aten.mul.Scalar(a, -2),
        aten.div.Scalar(a, 4),
        aten.add.Tensor(a, 2),
        aten.mul.Tensor(a, a),
        aten.mul.Scalar(a.double(), 2),
        aten.add.Scalar(a.half(), 1.5),
    ]
    sum(o.double().sum() for o in outs).backward()
    ints = [
        aten.add.Scalar(T.tensor([1, 2]), 2),
        aten.mul.Scalar(T.tensor([1, 2]), 2.5),
        aten.div.Scalar(T.tensor([1, 2]), 2),
        aten.add.Scalar(T.tensor([True, False]), 2),
    ]
    return outs, [o.grad_fn for o in outs], a.grad, ints


@program()
def prog_lib_register_vmap_rule_is_called(T: Any) -> Any:
    ns = _ns(T, "vmaprule")
    op = _np_sin(T, f"{ns}::np_sin")
    calls = []

    def rule(info, in_dims, x):
        calls.append((info.batch_size, info.randomness, in_dims))
        return op(x.movedim(in_dims[0], 0)) * 10, 0  # * 10: the rule's answer is visible

    op.register_vmap(rule)
    x = _x(T, 3, 2, rg=False)

    @T.library.custom_op(f"{ns}::two", mutates_args=())
    def two(x: T.Tensor) -> tuple[T.Tensor, T.Tensor]:
        return x + 1, x.sum()

    def rule2(info, in_dims, x):
        calls.append(("two", info.batch_size, in_dims))
        return (x + 1, x[0].sum() * 0), (in_dims[0], None)  # the second: unbatched

    two.register_vmap(rule2)
    return (
        T.func.vmap(op)(x),
        T.func.vmap(op, in_dims=1)(x),
        T.func.vmap(getattr(T.ops, ns).np_sin.default, out_dims=1)(x),
        T.func.vmap(two)(x),
        calls,
    )


@program(
    xfail="a register_vmap rule is called only when vmap maps the op itself: inside a vmapped "
    "function shadowgrad runs the op once per sample (torch calls the rule on the batch)"
)
def prog_lib_register_vmap_rule_inside_a_function(T: Any) -> Any:
    ns = _ns(T, "vmapin")
    op = _np_sin(T, f"{ns}::np_sin")
    calls = []

    def rule(info, in_dims, x):
        calls.append((info.batch_size, in_dims))
        return op(x), in_dims[0]

    op.register_vmap(rule)
    return T.func.vmap(lambda a: op(a) + 1)(_x(T, 3, 2, rg=False)), calls


@program()
def prog_lib_ops_load_library_and_import_module(T: Any) -> Any:
    import os

    err = raises(lambda: T.ops.load_library("no_such_library_here.so"))
    where = os.path.realpath("no_such_library_here.so")
    return (
        err.type,
        err.message.replace(where, "<path>"),
        sorted(T.ops.loaded_libraries),
        T.ops.import_module("json"),
        _r(lambda: T.ops.import_module("no_such_module_here")),
    )


@program()
def prog_lib_device_types_and_unknown_ops(T: Any) -> Any:
    ns = _ns(T, "devtypes")

    @T.library.custom_op(f"{ns}::cu", mutates_args=(), device_types="cuda")
    def cu(x: T.Tensor) -> T.Tensor:
        return x + 1

    @T.library.custom_op(f"{ns}::both", mutates_args=(), device_types=("cpu", "cuda"))
    def both(x: T.Tensor) -> T.Tensor:
        return x + 2

    return (
        _first(lambda: cu(T.ones(1))),  # a cuda-only kernel: nothing for a cpu tensor
        both(T.ones(1)),
        _r(lambda: T.library.register_fake(f"{ns}::nothere", lambda x: x)),
        _r(lambda: T.library.impl(f"{ns}::cu", "xyz", lambda x: x)),
    )


@program()
def prog_lib_meta_tensors_run_the_fake_impl(T: Any) -> Any:
    ns = _ns(T, "meta")
    op = _np_sin(T, f"{ns}::np_sin")
    m = T.empty(3, 2, device="meta")

    def show(v: Any) -> Any:
        if isinstance(v, T.Tensor):
            return tuple(v.shape), v.dtype, v.device.type, v.requires_grad
        return v

    no_fake = _r(lambda: op(m))
    op.register_fake(lambda x: T.empty_like(x))
    faked = show(op(m))

    @T.library.custom_op(f"{ns}::inc", mutates_args={"x"})
    def inc(x: T.Tensor) -> None:
        x.add_(1)

    @T.library.custom_op(f"{ns}::sin_", mutates_args={"x"}, tags=T.Tag.inplace)
    def sin_(x: T.Tensor) -> T.Tensor:
        return x.sin_()

    mi = T.empty(2, device="meta")
    inc_out = inc(mi)
    same = sin_(mi) is mi
    lib = T.library.Library(ns + "_lib", "DEF")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x * 2, "CPU")
    g = getattr(T.ops, ns + "_lib").g
    no_meta = _first(lambda: g(m))
    lib.impl("g", lambda x: T.empty_like(x).sum(0), "Meta")
    with_meta = show(g(m))
    mg = T.empty(3, device="meta", requires_grad=True)
    op.register_autograd(lambda ctx, gr: gr * 2)
    y = op(mg)
    lib._destroy()
    return no_fake, faked, inc_out, mi._version, same, no_meta, with_meta, show(y), y.grad_fn


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)


# --- shadowgrad.bridge.validate_function takes a torch custom op ---------------------------


def test_validate_function_checks_a_custom_op_backward() -> None:
    """validate_function(op, *inputs) checks the formula register_autograd gave a torch custom
    op (as it checks an autograd.Function's backward), given as its CustomOpDef or as
    torch.ops.<ns>.<op>[.default]."""
    torch = pytest.importorskip("torch")
    from shadowgrad.bridge import validate_function

    ns = _ns(torch, "validate")

    @torch.library.custom_op(f"{ns}::cube", mutates_args=())
    def cube(x: torch.Tensor) -> torch.Tensor:
        return x**3

    @torch.library.custom_op(f"{ns}::np_sin", mutates_args=())
    def np_sin(x: torch.Tensor, k: float) -> torch.Tensor:
        return torch.from_numpy(np.sin(x.detach().numpy()) * k)

    def save_x(ctx: Any, inputs: Any, output: Any) -> None:
        ctx.save_for_backward(inputs[0])

    cube.register_autograd(lambda ctx, g: g * 3 * ctx.saved_tensors[0] ** 2, setup_context=save_x)
    # forgets the factor k
    np_sin.register_autograd(
        lambda ctx, g: (g * ctx.saved_tensors[0].cos(), None), setup_context=save_x
    )
    x = torch.tensor(_data(4), requires_grad=True)
    for op in (cube, getattr(torch.ops, ns).cube, getattr(torch.ops, ns).cube.default):
        rep = validate_function(op, x)
        assert rep.ok, str(rep)
        assert rep.function == f"{ns}::cube"
    rep = validate_function(np_sin, x, 2.0)
    assert not rep.ok and rep.findings[0].input_index == 0, str(rep)
