"""Programs on torch's `_foreach_*` functions and on the optimizers' foreach / fused /
capturable / differentiable flags, after torch's test/test_foreach.py and test/test_optim.py:
the out-of-place forms and their Scalar, ScalarList, Tensor and TensorList overloads, list
checks and their messages, dtype promotion per element, mixed dtypes in a list, empty and
zero-size tensors, autograd through the out-of-place forms (one node per call, torch's node
names), the in-place forms on leaves and their version bumps; then the optimizers' flags, the
errors torch gives for the combinations it refuses on CPU, foreach=True against foreach=False
bit for bit, and clip_grad_norm_ / get_total_norm / clip_grads_with_norm_ with foreach. The
programs register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import observe, raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _xs(
    T: Any, *shapes: tuple[int, ...], seed: int = 0, rg: bool = False, dtype: Any = None
) -> Any:
    out = []
    for k, s in enumerate(shapes):
        t = T.tensor(_data(*s, seed=seed + k))
        if dtype is not None:
            t = t.to(dtype)
        out.append(t.requires_grad_(rg) if rg else t)
    return out


def _grads(ts: Any) -> Any:
    return [t.grad for t in ts]


def _node(r: Any) -> Any:
    """What the outputs of a foreach call share: their grad_fn's name, output numbers and
    whether they share one node."""
    return (
        [t.grad_fn.name() if t.grad_fn is not None else None for t in r],
        [t.output_nr for t in r],
        all(t.grad_fn is r[0].grad_fn for t in r),
        r[0].grad_fn,
        type(r).__name__,
    )


# --- list checks ----------------------------------------------------------------------------


@program()
def prog_fe_empty_and_length_errors(T: Any) -> Any:
    a, b, c = _xs(T, (3,), (2,), (4,))
    return [
        raises(lambda: T._foreach_add([], 1.0)),
        raises(lambda: T._foreach_add_([], 1.0)),
        raises(lambda: T._foreach_exp([])),
        raises(lambda: T._foreach_norm([])),
        raises(lambda: T._foreach_add([a, b], [a, b, c])),
        raises(lambda: T._foreach_add_([a, b], [a])),
        raises(lambda: T._foreach_mul([a, b], [1.0, 2.0, 3.0])),
        raises(lambda: T._foreach_mul_([a, b], [1.0])),
        raises(lambda: T._foreach_add([a, b], [a, c])),
        raises(lambda: T._foreach_lerp([a, b], [a], 0.5)),
        raises(lambda: T._foreach_lerp([a, b], [a, b], [0.5])),
        raises(lambda: T._foreach_addcmul([a, b], [a, b], [a])),
        raises(lambda: T._foreach_addcmul([a, b], [a, b], [a, b], [1.0])),
        raises(lambda: T._foreach_copy_([a.clone()], [b])),
        raises(lambda: T._foreach_copy_([a.clone(), b.clone()], [a])),
    ]


@program()
def prog_fe_argument_types(T: Any) -> Any:
    (a,) = _xs(T, (3,))
    return [
        raises(lambda: T._foreach_add([a, 1], 1)),
        raises(lambda: T._foreach_exp([a, None])),
        raises(lambda: T._foreach_exp(None)),
        raises(lambda: T._foreach_exp(a)),
        raises(lambda: T._foreach_add([a], [a, 1.0])),
        raises(lambda: T._foreach_norm(a)),
        raises(lambda: T._foreach_zero_(3)),
        raises(lambda: T._foreach_copy_([a], [1.0])),
    ]


@program()
def prog_fe_tuple_inputs_and_return_types(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,))
    xs = [a.clone(), b.clone()]
    tp = (a.clone(), b.clone())
    r1 = T._foreach_add_(xs, 1.0)
    r2 = T._foreach_mul_(tp, 2.0)
    r3 = T._foreach_add((a, b), 1)
    r4 = T._foreach_exp([a, b])
    return (
        r1 is xs,
        r2 is tp,
        type(r3).__name__,
        type(r4).__name__,
        list(r3),
        list(r4),
        xs,
        list(tp),
        T._foreach_zero_([a.clone()]),
    )


# --- binary ops and their overloads ---------------------------------------------------------


@program()
def prog_fe_add_overloads(T: Any) -> Any:
    a, b = _xs(T, (3,), (2, 2))
    return [
        T._foreach_add([a, b], 1.5),
        T._foreach_add([a, b], [1.0, -2]),
        T._foreach_add([a, b], [b.sum(), b.t()]),
        T._foreach_add([a, b], [b.sum(), b[0]], alpha=-2.5),
        T._foreach_add([a, b], T.tensor(2.0)),
        T._foreach_add([a, b], T.tensor(2)),
        raises(lambda: T._foreach_add([a, b], T.tensor([1.0, 2.0]))),
        raises(lambda: T._foreach_add([a, b], 1.0, alpha=2)),
        raises(lambda: T._foreach_add([a, b], [1.0, 2.0], alpha=2)),
        T._foreach_add([a, b], True),
    ]


@program()
def prog_fe_sub_mul_div_overloads(T: Any) -> Any:
    a, b = _xs(T, (3,), (2, 2), seed=3)
    s = T.tensor(3.0)
    return [
        T._foreach_sub([a, b], 1.5),
        T._foreach_sub([a, b], [1, 2.5]),
        T._foreach_sub([a, b], [b[0, 0], b[:, :1]], alpha=3),
        T._foreach_mul([a, b], 2),
        T._foreach_mul([a, b], [2, -0.5]),
        T._foreach_mul([a, b], [a, b]),
        T._foreach_mul([a, b], s),
        T._foreach_mul([a, b], T.tensor(2)),
        T._foreach_div([a, b], 2),
        T._foreach_div([a, b], [4.0, 0.0]),
        T._foreach_div([a, b], [a, b]),
        T._foreach_div([a, b], s),
        raises(lambda: T._foreach_mul([a, b], T.tensor([1.0, 2.0]))),
        raises(lambda: T._foreach_div([a, b], a)),
        raises(lambda: T._foreach_sub([a, b], T.tensor([1.0, 2.0]))),
    ]


@program()
def prog_fe_bool_sub_and_neg_errors(T: Any) -> Any:
    m = T.tensor([True, False])
    return [
        raises(lambda: T._foreach_sub([m], True)),
        raises(lambda: T._foreach_sub([m], [m])),
        raises(lambda: T._foreach_sub_([m.clone()], [True])),
        raises(lambda: T._foreach_neg([m])),
        raises(lambda: T._foreach_neg_([m.clone()])),
        T._foreach_add([m], [m]),
        T._foreach_mul([m], True),
        T._foreach_add([m], 1),
        raises(lambda: T._foreach_abs([m])),
    ]


@program()
def prog_fe_dtype_promotion_per_element(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=5)
    i = T.tensor([1, -2, 3])
    h = b.half()
    return [
        T._foreach_add([i, h], 1.5),
        T._foreach_add([i, a], 2),
        T._foreach_mul([i, h], [2, 2.5]),
        T._foreach_mul([i, a], [True, 3]),
        T._foreach_add([a, b.double()], [i, h]),
        T._foreach_div([i, i], [2, 3]),
        T._foreach_mul([a], [1 + 2j]),
        T._foreach_mul([i], T.tensor(2.5)),
        T._foreach_add([i.to(T.uint8), i.to(T.int8)], [255, 1]),
        T._foreach_pow([i, h], 2),
        T._foreach_clamp_min([i, h], 0.5),
        T._foreach_maximum([i, h], [0, 0.25]),
    ]


@program()
def prog_fe_reduced_precision_scalars(T: Any) -> Any:
    # torch's in-place _foreach_mul_ by numbers rounds the number to a float16/bfloat16
    # tensor's dtype first; the other ops (and t.mul_) compute with it in float32
    s = 1 / 3

    def calls(c: Any) -> dict[str, Any]:
        return {
            "mul_": lambda x: T._foreach_mul_(x, s),
            "mul_sl": lambda x: T._foreach_mul_(x, [s]),
            "mul_t": lambda x: T._foreach_mul_(x, T.tensor(s)),
            "div_": lambda x: T._foreach_div_(x, s),
            "addcmul_": lambda x: T._foreach_addcmul_(x, [c], [c], s),
            "lerp_": lambda x: T._foreach_lerp_(x, [c], s),
            "mul": lambda x: T._foreach_mul(x, s),
            "method": lambda x: [x[0].mul_(s)],
        }

    out = {}
    for dt in (T.float16, T.bfloat16, T.float32):
        b = T.tensor(_data(64, seed=901)).to(dt)
        c = T.tensor(_data(64, seed=902)).to(dt).abs() + 0.5
        row = {}
        ref = b.clone().mul_(s)
        for name, fn in calls(c).items():
            x = [b.clone()]
            r = fn(x)
            # bit-equality with t.mul_(s): tolerances would hide a one-ulp difference
            same = bool((x[0] == ref).all()) if name.startswith("mul") else None
            row[name] = (x[0], r[0] if isinstance(r, tuple) else None, same)
        out[str(dt)] = row
    return out


@program()
def prog_fe_inplace_scalar_nodes_reduced_precision(T: Any) -> Any:
    # with autograd recording, in-place foreach by a number records torch's Scalar overload
    # (AddBackward1, one edge) with the one-tensor op's values, in every float dtype
    out = {}
    for dt in (T.float16, T.bfloat16, T.float32, T.float64):
        for op in ("add", "sub", "mul", "div"):
            w = T.tensor(_data(64, seed=5)).to(dt).requires_grad_()
            x = w * 1
            getattr(T, f"_foreach_{op}_")([x], 1 / 3)
            num = 1 / 3
            if op == "mul" and dt.itemsize == 2:  # _foreach_mul_ rounds it to the dtype
                num = T.tensor(num).to(dt).item()
            ref = getattr(w.detach() * 1, op)(num)
            x.sum().backward()
            same = bool((x.detach() == ref).all())
            out[f"{dt}_{op}"] = (x.grad_fn, x, w.grad, same)
    return out


@program()
def prog_fe_inplace_cast_errors(T: Any) -> Any:
    i = T.tensor([1, -2, 3])
    f = T.tensor([1.0, 2.0])
    return [
        raises(lambda: T._foreach_add_([i.clone()], 1.5)),
        raises(lambda: T._foreach_div_([i.clone()], 2)),
        raises(lambda: T._foreach_mul_([f.clone(), i.clone()], [2.0, 2.5])),
        raises(lambda: T._foreach_sqrt_([i.clone()])),
        raises(lambda: T._foreach_add_([i.clone()], [f[:1].expand(3)])),
        raises(lambda: T._foreach_add_([f[:1].expand(2)], 1.0)),
        T._foreach_mul_([i.clone()], True),
        T._foreach_round_([i.clone()]),
    ]


@program()
def prog_fe_inplace_partial_progress(T: Any) -> Any:
    # the slow path changes the tensors one by one: those before the failing one are changed
    f = T.tensor([1.0, 2.0])
    i = T.tensor([1, 2])
    xs = [f.clone(), i.clone(), f.clone()]
    err = raises(lambda: T._foreach_add_(xs, 0.5))
    return err, xs, [t._version for t in xs]


@program()
def prog_fe_maximum_minimum_clamp(T: Any) -> Any:
    a, b = _xs(T, (4,), (2, 3), seed=7)
    nan = T.tensor([float("nan"), 1.0, -1.0])
    return [
        T._foreach_maximum([a, b], 0.0),
        T._foreach_maximum([a, b], [0.1, -0.1]),
        T._foreach_minimum([a, b], [a.flip(0), b.t().t()]),
        T._foreach_clamp_min([a, b], -0.5),
        T._foreach_clamp_max([a, b], [0.5, 0.0]),
        T._foreach_clamp_min([a, b], [a * 0, b * 0]),
        T._foreach_clamp_max([a, b], T.tensor(0.25)),
        T._foreach_maximum([nan], 0.0),
        T._foreach_minimum([nan], [T.zeros(3)]),
        T._foreach_clamp_min([nan], 0.0),
        T._foreach_clamp_max([nan], [T.zeros(3)]),
        raises(lambda: T._foreach_clamp_min([a + 0j], 0.0)),
        raises(lambda: T._foreach_maximum([a + 0j], 0.0)),
    ]


@program()
def prog_fe_pow_forms(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=9)
    a, b = a.abs() + 0.1, b.abs() + 0.1
    i = T.tensor([1, 2, 3])
    return [
        T._foreach_pow([a, b], 2),
        T._foreach_pow([a, b], 0.5),
        T._foreach_pow([a, b], [2, 3.5]),
        T._foreach_pow([a, b], [b.sum(), b.flip(0)]),
        T._foreach_pow(2, [a, b]),
        T._foreach_pow(2.5, [i, b]),
        T._foreach_pow(T.tensor(3.0), [a, b]),
        T._foreach_pow([a, b], T.tensor(2.0)),
        T._foreach_pow([i], 2),
        raises(lambda: T._foreach_pow([i], -1)),
        raises(lambda: T._foreach_pow([a, b], T.tensor([1.0, 2.0]))),
        T._foreach_pow_([a.clone(), b.clone()], [2, 3]),
        raises(lambda: T._foreach_pow([2.0, 3.0], [a, b])),
    ]


# --- unary ops ------------------------------------------------------------------------------

_UNARY = [
    "abs",
    "acos",
    "asin",
    "atan",
    "ceil",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "expm1",
    "floor",
    "frac",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "neg",
    "reciprocal",
    "round",
    "rsqrt",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
]


@program()
def prog_fe_unary_values(T: Any) -> Any:
    a, b = _xs(T, (5,), (2, 3), seed=11)
    b = b * 0.9
    out = {}
    for op in _UNARY:
        out[op] = getattr(T, f"_foreach_{op}")([a, b])
    return out


@program()
def prog_fe_unary_inplace_versions(T: Any) -> Any:
    a, b = _xs(T, (5,), (2, 3), seed=12)
    out = {}
    for op in [*_UNARY, "zero"]:
        xs = [a.clone(), b.clone()]
        r = getattr(T, f"_foreach_{op}_")(xs)
        out[op] = (r is xs, xs, [t._version for t in xs])
    return out


@program()
def prog_fe_unary_special_values(T: Any) -> Any:
    v = T.tensor([0.0, -0.0, 1.0, -1.0, float("inf"), -float("inf"), float("nan"), 2.5, -2.5])
    out = {}
    for op in _UNARY:
        out[op] = getattr(T, f"_foreach_{op}")([v, v.double()])
    return out


@program()
def prog_fe_unary_integer_and_bool_inputs(T: Any) -> Any:
    i = T.tensor([-3, 0, 2])
    m = T.tensor([True, False, True])
    out = {}
    for op in _UNARY:
        out[op] = (
            raises(lambda o=op: getattr(T, f"_foreach_{o}")([i])),
            raises(lambda o=op: getattr(T, f"_foreach_{o}")([m])),
            raises(lambda o=op: getattr(T, f"_foreach_{o}_")([i.clone()])),
        )
    return out


@program()
def prog_fe_unary_complex(T: Any) -> Any:
    z = T.tensor([1 + 2j, -0.5 + 0.25j, 0j])
    out = {}
    for op in ("abs", "exp", "log", "neg", "reciprocal", "sqrt", "sigmoid", "tanh", "sin"):
        out[op] = getattr(T, f"_foreach_{op}")([z])
    out["sign"] = raises(lambda: T._foreach_sign([z]))
    out["floor"] = raises(lambda: T._foreach_floor([z]))
    return out


@program()
def prog_fe_zero_size_and_scalar_tensors(T: Any) -> Any:
    e = T.empty(0)
    z = T.empty(2, 0)
    s = T.tensor(1.5)
    return [
        T._foreach_add([e, z, s], 1.0),
        T._foreach_exp([e, z, s]),
        T._foreach_mul([e, z, s], [e, z, s]),
        T._foreach_norm([e, z, s]),
        T._foreach_norm([e, s], 1),
        raises(lambda: T._foreach_norm([e, s], float("inf"))),
        raises(lambda: T._foreach_norm([s, z], -float("inf"))),
        raises(lambda: T._foreach_max([s, e])),
        T._foreach_max([s, T.ones(1, 2)]),
        T._foreach_lerp([e, s], [e, s], 0.5),
        T._foreach_addcdiv([e, s], [e, s], [e, s + 1]),
    ]


@program()
def prog_fe_noncontiguous_inputs(T: Any) -> Any:
    m = T.tensor(_data(3, 4, seed=13))
    t = m.t()
    ex = T.tensor(_data(1, 4, seed=14)).expand(3, 4)
    st = m[:, ::2]
    xs = [t.clone(), st.clone()]
    T._foreach_mul_(xs, [t, st])
    return [
        T._foreach_add([t, ex, st], 1.0),
        T._foreach_mul([t, ex, st], [t, ex, st]),
        T._foreach_sqrt([t.abs(), st.abs()]),
        T._foreach_norm([t, ex, st]),
        [r.is_contiguous() for r in T._foreach_add([t, st], 1.0)],
        [r.stride() for r in T._foreach_exp([t, st])],
        xs,
        raises(lambda: T._foreach_add_([ex], 1.0)),
    ]


# --- reductions -----------------------------------------------------------------------------


@program()
def prog_fe_norm_orders_and_dtypes(T: Any) -> Any:
    a, b = _xs(T, (5,), (2, 3), seed=15)
    out = {}
    for p in (0, 1, 2, 3, 2.5, float("inf"), -float("inf"), -1):
        out[str(p)] = T._foreach_norm([a, b], p)
    out["f64"] = T._foreach_norm([a, b], 2, dtype=T.float64)
    out["f64_inf"] = T._foreach_norm([a, b], float("inf"), dtype=T.float64)
    out["half"] = T._foreach_norm([a.half(), b.double()])
    out["complex"] = T._foreach_norm([a + 1j * a, b])
    out["int"] = raises(lambda: T._foreach_norm([a.long()]))
    out["int_dtype"] = raises(lambda: T._foreach_norm([a], 2, dtype=T.int64))
    out["tensor_ord"] = T._foreach_norm([a, b], T.tensor(3.0))
    out["mixed_dtype_down"] = raises(lambda: T._foreach_norm([a.double()], 2, dtype=T.float32))
    return out


@program()
def prog_fe_max_and_powsum(T: Any) -> Any:
    a, b = _xs(T, (5,), (2, 3), seed=16)
    i = T.tensor([3, -7, 2])
    return [
        T._foreach_max([a, b, i]),
        T._foreach_max([T.tensor([float("nan"), 1.0]), a]),
        raises(lambda: T._foreach_max([a + 0j])),
        raises(lambda: T._foreach_max([T.empty(0, 3)])),
        T._foreach_max([T.tensor([True, False])]),
        T._foreach_powsum([a, b], 2),
        T._foreach_powsum([a, b], 3),
        T._foreach_powsum([a, b], 1),
        T._foreach_powsum([a, b], 0.5),
        T._foreach_powsum([a, b], 2, dtype=T.float64),
    ]


@program()
def prog_fe_norm_large_values(T: Any) -> Any:
    # torch's test_foreach_l2_large_value_input: values around sqrt(finfo.max)
    out = {}
    for dt in (T.float32, T.float16, T.bfloat16, T.float64):
        scale = T.finfo(dt).max ** 0.5
        x = (T.tensor(np.linspace(1, 9, 10) * scale, dtype=dt)).requires_grad_()
        n = T._foreach_norm([x, x[:3]])
        out[str(dt)] = (
            n,
            T._foreach_norm([x], 1),
            T._foreach_norm([x], float("inf")),
            T._foreach_norm([x], dtype=T.float64),
            T.linalg.vector_norm(x),
            T.autograd.grad(n[0], x),
        )
    return out


@program()
def prog_fe_mm(T: Any) -> Any:
    x1, x2 = _xs(T, (2, 3), (4, 2), seed=17)
    y1, y2 = _xs(T, (3, 2), (2, 1), seed=19)
    return [
        T._foreach_mm([x1, x2], [y1, y2]),
        raises(lambda: T._foreach_mm([x1], [x2])),
        raises(lambda: T._foreach_mm([x1, x2], [y1])),
    ]


# --- lerp, addcmul, addcdiv, copy_ ------------------------------------------------------------


@program()
def prog_fe_lerp_forms(T: Any) -> Any:
    a, b = _xs(T, (3,), (2, 2), seed=21)
    c, d = _xs(T, (3,), (2, 2), seed=23)
    return [
        T._foreach_lerp([a, b], [c, d], 0.25),
        T._foreach_lerp([a, b], [c, d], [0.25, 0.75]),
        T._foreach_lerp([a, b], [c, d], [c.sigmoid(), d.sigmoid()]),
        T._foreach_lerp([a, b], [c, d], T.tensor(0.5)),
        T._foreach_lerp([a, b], [c, d], 2),
        raises(lambda: T._foreach_lerp([a], [c.double()], 0.5)),
        raises(lambda: T._foreach_lerp([a], [c], [c.double()])),
        raises(lambda: T._foreach_lerp([a.long()], [c.long()], 0.5)),
        T._foreach_lerp_([a.clone(), b.clone()], [c, d], [0.1, 0.9]),
        raises(lambda: T._foreach_lerp([a, b], [c, d], T.tensor([0.1, 0.2]))),
    ]


@program()
def prog_fe_addcmul_addcdiv_forms(T: Any) -> Any:
    a, b = _xs(T, (3,), (2, 2), seed=25)
    c, d = _xs(T, (3,), (2, 2), seed=27)
    e, f = c.abs() + 0.5, d.abs() + 0.5
    out = {}
    for op in ("addcmul", "addcdiv"):
        fn = getattr(T, f"_foreach_{op}")
        out[op] = [
            fn([a, b], [c, d], [e, f]),
            fn([a, b], [c, d], [e, f], 0.5),
            fn([a, b], [c, d], [e, f], [2, -1.5]),
            fn([a, b], [c, d], [e, f], T.tensor([2.0, -1.5])),
            fn([a, b], [c, d], [e, f], T.tensor([2, 3])),
            raises(lambda fn=fn: fn([a, b], [c, d], [e, f], T.tensor(2.0))),
            raises(lambda fn=fn: fn([a, b], [c, d], [e, f], T.tensor([1.0, 2.0, 3.0]))),
            raises(lambda fn=fn: fn([a, b], [c, d], [e, f], [1.0])),
            getattr(T, f"_foreach_{op}_")(
                [a.clone(), b.clone()], [c, d], [e, f], T.tensor([2.0, 3.0])
            ),
        ]
    i = T.tensor([4, 6])
    out["int_div"] = raises(lambda: T._foreach_addcdiv([i], [i], [i]))
    out["int_mul"] = T._foreach_addcmul([i], [i], [i], 2)
    out["int_mul_float_value"] = raises(lambda: T._foreach_addcmul([i], [i], [i], 0.5))
    return out


@program()
def prog_fe_copy_between_dtypes(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=29)
    dst = [T.zeros(3), T.zeros(2, dtype=T.float64), T.zeros(3, dtype=T.int64)]
    r = T._foreach_copy_(dst, [a, b.half(), a * 3])
    bc = [T.zeros(2, 3)]
    T._foreach_copy_(bc, [a])
    return (
        r is dst,
        dst,
        [t._version for t in dst],
        bc,
        raises(lambda: T._foreach_copy_([T.zeros(3)], [a + 1j])),
    )


# --- autograd through the out-of-place forms ------------------------------------------------


@program()
def prog_fe_grad_fn_names_binary(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=31, rg=True)
    c, d = _xs(T, (3,), (2,), seed=33)
    s = T.tensor(2.0, requires_grad=True)
    out = {}
    for op in ("add", "sub", "mul", "div", "clamp_min", "clamp_max", "maximum", "minimum", "pow"):
        fn = getattr(T, f"_foreach_{op}")
        out[op] = [
            _node(fn([a, b], 0.5)),
            _node(fn([a, b], [0.5, 1.5])),
            _node(fn([a, b], [c, d])),
            _node(fn([a, b], T.tensor(2.0))),
        ]
    out["add_t"] = _node(T._foreach_add([a, b], s, alpha=2))
    out["mul_t"] = _node(T._foreach_mul([a, b], s))
    out["div_t"] = _node(T._foreach_div([c, d], s))
    out["pow_base"] = _node(T._foreach_pow(2.0, [a, b]))
    return out


@program()
def prog_fe_grad_fn_names_unary_reduce(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=35, rg=True)
    out = {op: _node(getattr(T, f"_foreach_{op}")([a, b])) for op in [*_UNARY, "clone"]}
    out["norm"] = _node(T._foreach_norm([a, b]))
    out["norm_inf"] = _node(T._foreach_norm([a, b], float("inf"), dtype=T.float64))
    out["max"] = _node(T._foreach_max([a, b]))
    out["lerp_s"] = _node(T._foreach_lerp([a, b], [b.sum() * a, a.sum() * b], 0.5))
    out["lerp_sl"] = _node(T._foreach_lerp([a, b], [a, b], [0.5, 0.1]))
    out["lerp_l"] = _node(T._foreach_lerp([a, b], [a, b], [a, b]))
    out["addcmul"] = _node(T._foreach_addcmul([a, b], [a, b], [a, b]))
    out["addcdiv_sl"] = _node(T._foreach_addcdiv([a, b], [a, b], [a, b], [1.0, 2.0]))
    out["addcmul_t"] = _node(T._foreach_addcmul([a, b], [a, b], [a, b], T.tensor([1.0, 2.0])))
    out["powsum"] = _node(T._foreach_powsum([a, b], 2))
    return out


@program()
def prog_fe_next_functions_layout(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=37, rg=True)
    c, d = _xs(T, (3,), (2,), seed=39)
    s = T.tensor(2.0, requires_grad=True)
    return [
        T._foreach_add([a, b], [c, d])[0].grad_fn,
        T._foreach_add([c, d], [a, b])[0].grad_fn,
        T._foreach_add([c, b], [a, d])[1].grad_fn,
        T._foreach_mul([a, b], s)[0].grad_fn,
        T._foreach_mul([c, d], s)[1].grad_fn,
        T._foreach_addcmul([a, b], [a * 2, b * 2], [c, d])[0].grad_fn,
        T._foreach_lerp([a, b], [c, d], [a, b])[0].grad_fn,
        T._foreach_exp([a.clone(), b])[1].grad_fn,
    ]


@program()
def prog_fe_mixed_requires_grad_outputs(T: Any) -> Any:
    a = T.tensor(_data(3, seed=41), requires_grad=True)
    d = T.tensor(_data(2, seed=42))
    r = T._foreach_mul([a, d], 3.0)
    out = [observe(T, t) for t in r]
    r[0].sum().backward()
    with T.no_grad():
        q = T._foreach_mul([a, d], 3.0)
    return out, a.grad, [observe(T, t) for t in q]


@program()
def prog_fe_backward_values_binary(T: Any) -> Any:
    out = {}
    for op in ("add", "sub", "mul", "div", "pow"):
        for form in ("scalar", "scalars", "list", "tensor"):
            a, b = _xs(T, (3,), (2, 2), seed=43, rg=True)
            c, d = _xs(T, (3,), (2, 2), seed=45, rg=True)
            a2, b2 = (a.abs() + 0.5, b.abs() + 0.5) if op == "pow" else (a, b)
            s = T.tensor(1.5, requires_grad=True)
            fn = getattr(T, f"_foreach_{op}")
            if form == "scalar":
                r = fn([a2, b2], 1.5)
            elif form == "scalars":
                r = fn([a2, b2], [1.5, -0.5])
            elif form == "list":
                r = fn([a2, b2], [c, d])
            elif op in ("add", "mul", "div"):
                r = fn([a2, b2], s) if op != "add" else fn([a2, b2], s, alpha=-2)
            else:
                continue
            # the Tensor overload with a shared tensor requiring grad: torch's backward fails
            err = raises(lambda r=r: (r[0].sum() * 2 + (r[1] * r[1]).sum()).backward())
            out[f"{op}_{form}"] = (r, err, _grads([a, b, c, d, s]))
    a, b = _xs(T, (3,), (2, 2), seed=44, rg=True)
    r = T._foreach_mul([a, b], T.tensor(1.5))
    (r[0].sum() * 2 + (r[1] * r[1]).sum()).backward()
    out["mul_tensor_no_grad"] = (r, _grads([a, b]))
    return out


@program()
def prog_fe_backward_values_unary(T: Any) -> Any:
    out = {}
    for op in _UNARY:
        a, b = _xs(T, (4,), (2, 2), seed=47, rg=True)
        a2, b2 = a.sigmoid() * 0.9 + 0.05, b.sigmoid() * 0.9 + 0.05  # in (0, 1): acos, log...
        r = getattr(T, f"_foreach_{op}")([a2, b2])
        (r[0].sum() + (r[1] * 2).sum()).backward()
        out[op] = _grads([a, b])
    return out


@program()
def prog_fe_backward_reductions_and_ternary(T: Any) -> Any:
    a, b = _xs(T, (4,), (2, 3), seed=49, rg=True)
    c, d = _xs(T, (4,), (2, 3), seed=51, rg=True)
    out = {}
    for p in (2, 1, float("inf"), 3):
        r = T._foreach_norm([a, b], p)
        (r[0] + 2 * r[1]).backward()
        out[f"norm{p}"] = _grads([a, b])
        a.grad = b.grad = None
    r = T._foreach_max([a, b])
    (r[0] - r[1]).backward()
    out["max"] = _grads([a, b])
    a.grad = b.grad = None
    r = T._foreach_lerp([a, b], [c, d], [c.sigmoid(), d.sigmoid()])
    (r[0].sum() + r[1].pow(2).sum()).backward()
    out["lerp"] = _grads([a, b, c, d])
    for t in (a, b, c, d):
        t.grad = None
    r = T._foreach_addcdiv([a, b], [c, d], [c.exp(), d.exp()], [0.5, 2])
    (r[0].sum() + r[1].pow(2).sum()).backward()
    out["addcdiv"] = _grads([a, b, c, d])
    return out


@program()
def prog_fe_maximum_tie_gradients(T: Any) -> Any:
    a = T.tensor([0.0, 1.0, -1.0, 0.5], requires_grad=True)
    b = T.tensor([0.0, 2.0, -1.0, 0.5], requires_grad=True)
    out = {}
    for op in ("maximum", "minimum", "clamp_min", "clamp_max"):
        fn = getattr(T, f"_foreach_{op}")
        for form, arg in (("scalar", 0.5), ("scalars", [0.0]), ("list", [b])):
            a.grad = b.grad = None
            r = fn([a], arg)
            r[0].backward(T.tensor([1.0, 2.0, 3.0, 4.0]))
            out[f"{op}_{form}"] = (r, a.grad, b.grad)
    return out


@program()
def prog_fe_double_backward(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=53, rg=True)
    r = T._foreach_mul([a, b], [a, b])
    e = T._foreach_exp(r)
    y = e[0].sum() + e[1].sum()
    ga, gb = T.autograd.grad(y, [a, b], create_graph=True)
    (ga.sum() + gb.pow(2).sum()).backward()
    n = T._foreach_norm([a, b])
    gn = T.autograd.grad(n[0] + n[1], [a, b], create_graph=True)
    return ga, gb, a.grad, b.grad, gn, gn[0].grad_fn is not None


@program()
def prog_fe_gradcheck_and_gradgradcheck(T: Any) -> Any:
    def inputs(seed: int) -> Any:
        return tuple(
            (T.tensor(_data(3, seed=seed + k), dtype=T.float64).abs() + 0.5).requires_grad_()
            for k in range(4)
        )

    fns = {
        "mul_list": lambda a, b, c, d: T._foreach_mul([a, b], [c, d]),
        "div_list": lambda a, b, c, d: T._foreach_div([a, b], [c, d]),
        "pow_list": lambda a, b, c, d: T._foreach_pow([a, b], [c, d]),
        "pow_base": lambda a, b, c, d: T._foreach_pow(1.5, [a, b * c]),
        "lerp_list": lambda a, b, c, d: T._foreach_lerp([a, b], [c, d], [a.sigmoid(), d / 4]),
        "addcdiv": lambda a, b, c, d: T._foreach_addcdiv([a, b], [c, d], [d, c], [0.5, 2]),
        "norm": lambda a, b, c, d: T._foreach_norm([a * c, b], 3),
        "unary": lambda a, b, c, d: (
            *T._foreach_log([a, b]),
            *T._foreach_sigmoid([c]),
            *T._foreach_rsqrt([d]),
        ),
        "max": lambda a, b, c, d: T._foreach_max([a * 2, b + c]),
    }
    out = {}
    for k, (name, fn) in enumerate(fns.items()):
        xs = inputs(800 + 10 * k)
        out[name] = (
            T.autograd.gradcheck(fn, xs),
            T.autograd.gradcheck(fn, xs, fast_mode=True),
            T.autograd.gradgradcheck(fn, xs) if name != "max" else None,
        )
    return out


@program()
def prog_fe_partial_outputs_and_retain(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=55, rg=True)
    r = T._foreach_exp([a, b])
    r[1].sum().backward(retain_graph=True)
    first = _grads([a, b])
    r[0].sum().backward()
    second = _grads([a, b])
    err = raises(lambda: r[1].sum().backward())
    q = T._foreach_add([a, b], 1.0)
    q[0].sum().backward()
    e2 = raises(lambda: q[0].sum().backward())  # torch's node saves self: it raises
    n = T._foreach_neg([a, b])
    n[0].sum().backward()
    n[0].sum().backward()  # neg saves nothing
    lp = T._foreach_lerp([a, b], [b.sum() * a, a.sum() * b], [0.5, 0.25])
    lp[1].sum().backward()
    e3 = raises(lambda: lp[1].sum().backward())
    return first, second, err, e2, e3, a.grad, b.grad


@program()
def prog_fe_saved_tensor_version_errors(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=57, rg=True)
    x, y = a * 1, b * 1
    r = T._foreach_mul([x, y], [x, y])
    x.add_(1)
    e1 = raises(lambda: r[0].sum().backward())
    x, y = a * 1, b * 1
    r = T._foreach_exp([x, y])
    x.add_(1)  # exp saves its result, not its input
    r[1].sum().backward()
    r2 = T._foreach_sqrt([a * 1, b * 1])
    r2[0].mul_(2)
    e2 = raises(lambda: r2[1].sum().backward())
    return e1, _grads([a, b]), e2, r2[0].grad_fn


@program()
def prog_fe_saved_output_version_error_names_the_op(T: Any) -> Any:
    a = T.tensor(_data(3, seed=58), requires_grad=True)
    r = T._foreach_sqrt([a * 1 + 4])
    r[0].mul_(2)
    return raises(lambda: r[0].sum().backward())


@program()
def prog_fe_hooks_and_retain_grad_on_outputs(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=59, rg=True)
    r = T._foreach_mul([a, b], 2.0)
    r[0].retain_grad()
    seen = []
    r[1].register_hook(lambda g: seen.append(g.clone()) or g * 10)
    node_seen = []
    r[0].grad_fn.register_hook(lambda gi, go: node_seen.append((len(gi), len(go))))
    (r[0].sum() + r[1].sum()).backward()
    return r[0].grad, seen, a.grad, b.grad, node_seen, r[0].grad_fn.next_functions


@program()
def prog_fe_grad_fn_call_directly(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=61, rg=True)
    r = T._foreach_mul([a, b], 3.0)
    g = r[0].grad_fn
    return g(T.ones(3), T.ones(2)), g(T.ones(3), None), raises(lambda: g(T.ones(3)))


@program()
def prog_fe_outputs_are_fresh(T: Any) -> Any:
    a = T.tensor([1.0, 2.0])
    i = T.tensor([1, 2])
    r = T._foreach_round([i])
    r2 = T._foreach_trunc([i])
    r3 = T._foreach_clone([a])
    r[0].add_(5)
    r2[0].add_(5)
    r3[0].add_(5)
    return i, a, r, r2, r3, [t._base is None for t in (*r, *r2, *r3)]


@program()
def prog_fe_no_grad_and_inference(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=63, rg=True)
    with T.no_grad():
        r = T._foreach_exp([a, b])
    with T.inference_mode():
        q = T._foreach_add([a, b], 1.0)
    return [observe(T, t) for t in r], [observe(T, t) for t in q], [t.is_inference() for t in q]


@program()
def prog_fe_autograd_not_implemented(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=65, rg=True)
    r = T._foreach_addcmul([a, b], [a, b], [a, b], T.tensor([1.0, 2.0]))
    e1 = raises(lambda: r[0].sum().backward())
    p = T._foreach_powsum([a, b], 2)
    e2 = raises(lambda: p[1].backward())
    return r, e1, p, e2, type(r[0].grad_fn).__name__


# --- in-place forms: leaves, versions, graphs -------------------------------------------------


@program()
def prog_fe_inplace_on_leaves_requiring_grad(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=67, rg=True)
    c = T.tensor(_data(3, seed=68))
    out = [
        raises(lambda: T._foreach_add_([a, b], 1.0)),
        raises(lambda: T._foreach_mul_([c, a], 2.0)),
        c,
        raises(lambda: T._foreach_exp_([b])),
        raises(lambda: T._foreach_zero_([a])),
        raises(lambda: T._foreach_copy_([a], [c])),
        raises(lambda: T._foreach_lerp_([a], [c], 0.5)),
    ]
    with T.no_grad():
        T._foreach_add_([a, b], 1.0)
        T._foreach_lerp_([a], [c], [0.5])
    out += [a, b, a._version, b._version, a.is_leaf, a.grad_fn]
    return out


def _inplace_calls(T: Any, xs: Any, ys: Any) -> dict[str, Any]:
    """Every in-place foreach op, called on `xs` with `ys` as its other tensors."""
    calls: dict[str, Any] = {}
    for op in _UNARY:
        calls[op] = lambda o=op: getattr(T, f"_foreach_{o}_")(xs)
    calls["zero"] = lambda: T._foreach_zero_(xs)
    for op in ("add", "sub", "mul", "div", "clamp_min", "clamp_max", "maximum", "minimum", "pow"):
        fn = getattr(T, f"_foreach_{op}_")
        calls[op + "_scalar"] = lambda fn=fn: fn(xs, 0.5)
        calls[op + "_scalars"] = lambda fn=fn: fn(xs, [0.5, 2.0])
        calls[op + "_list"] = lambda fn=fn: fn(xs, ys)
    calls["mul_tensor"] = lambda: T._foreach_mul_(xs, T.tensor(1.5))
    calls["div_tensor"] = lambda: T._foreach_div_(xs, T.tensor(1.5))
    calls["add_tensor"] = lambda: T._foreach_add_(xs, T.tensor(1.5), alpha=2)
    calls["lerp_scalar"] = lambda: T._foreach_lerp_(xs, ys, 0.25)
    calls["lerp_scalars"] = lambda: T._foreach_lerp_(xs, ys, [0.25, 0.5])
    calls["lerp_list"] = lambda: T._foreach_lerp_(xs, ys, ys)
    calls["addcmul"] = lambda: T._foreach_addcmul_(xs, ys, ys, 0.5)
    calls["addcdiv_scalars"] = lambda: T._foreach_addcdiv_(xs, ys, ys, [0.5, 2])
    calls["addcdiv_tensor"] = lambda: T._foreach_addcdiv_(xs, ys, ys, T.tensor([0.5, 2]))
    calls["copy"] = lambda: T._foreach_copy_(xs, ys)
    return calls


@program()
def prog_fe_inplace_leaf_check_every_op(T: Any) -> Any:
    # torch's test_inplace_foreach_leaf_check_and_grad_fn: a leaf requiring grad anywhere in
    # the list raises before any tensor changes; on non-leaves each changed tensor gets the
    # per-element op's node, the others none
    out = {}
    ys = [T.tensor([0.5, 1.5]), T.tensor([2.0, 0.25])]
    for name in _inplace_calls(T, [], ys):
        a, b = T.tensor([0.3, 0.6]), T.tensor([0.9, 0.2])
        leaf = [a.clone().requires_grad_(), b.clone()]
        e1 = raises(_inplace_calls(T, leaf, ys)[name])
        leaf2 = [a.clone(), b.clone().requires_grad_()]
        e2 = raises(_inplace_calls(T, leaf2, ys)[name])
        w = a.clone().requires_grad_()
        xs = [w * 1, b.clone()]
        r = raises(_inplace_calls(T, xs, ys)[name])
        out[name] = (e1, leaf, e2, leaf2[0], type(r).__name__, [x.grad_fn for x in xs], xs)
    return out


@program()
def prog_fe_inplace_not_implemented_nodes(T: Any) -> Any:
    # the in-place overloads without a derivative formula: each changed tensor gets its own
    # NotImplemented node (edges: itself and every other tensor of the call)
    out = {}
    ys = [T.tensor([0.5, 1.5], requires_grad=True), T.tensor([2.0, 0.25])]
    calls = {
        "maximum_scalar": lambda xs: T._foreach_maximum_(xs, 0.5),
        "minimum_scalars": lambda xs: T._foreach_minimum_(xs, [0.5, 1.0]),
        "maximum_list": lambda xs: T._foreach_maximum_(xs, ys),
        "copy": lambda xs: T._foreach_copy_(xs, ys),
        "addcmul_tensor": lambda xs: T._foreach_addcmul_(xs, ys, ys, T.tensor([0.5, 2.0])),
        "addcdiv_tensor": lambda xs: T._foreach_addcdiv_(xs, ys, ys, T.tensor([0.5, 2.0])),
    }
    for name, call in calls.items():
        w = T.tensor([0.3, 0.6], requires_grad=True)
        base = T.zeros(2, 2)
        xs = [w * 1, base[1]]
        call(xs)
        err = raises(lambda xs=xs: (xs[0].sum() + xs[1].sum()).backward())
        out[name] = ([x.grad_fn for x in xs], base.grad_fn, err, w.grad, xs)
    return out


@program()
def prog_fe_inplace_on_non_leaves_graph(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=69, rg=True)
    c, d = _xs(T, (3,), (2,), seed=71)
    x, y = a * 1, b * 1
    T._foreach_add_([x, y], 1.0)
    n1 = (x.grad_fn, y.grad_fn, x.grad_fn is y.grad_fn, x._version)
    T._foreach_mul_([x, y], [c, d])
    T._foreach_addcmul_([x, y], [x * 1, y * 1], [c, d], [0.5, 2])
    T._foreach_exp_([x, y])
    z = c.clone()
    T._foreach_add_([z], [a])
    (x.sum() + y.sum() + z.sum()).backward()
    return n1, x.grad_fn, z.grad_fn, x._version, _grads([a, b])


@program()
def prog_fe_inplace_views_and_versions(T: Any) -> Any:
    base = T.zeros(2, 3)
    rows = list(base.unbind(0))
    T._foreach_add_([base[0], base[1]], [1.0, 2.0])
    v = [base._version]
    T._foreach_mul_([base[:, 0], base[:, 1]], 3.0)
    v.append(base._version)
    T._foreach_zero_([base[1:]])
    v.append(base._version)
    return base, v, [t._version for t in rows]


@program()
def prog_fe_inplace_through_view_autograd(T: Any) -> Any:
    a = T.tensor(_data(2, 3, seed=73), requires_grad=True)
    x = a * 1
    T._foreach_mul_([x[0], x[1]], [2.0, 3.0])
    T._foreach_sigmoid_([x[:, 1]])
    x.sum().backward()
    return x, x.grad_fn, a.grad


# --- autograd on exotic inputs ----------------------------------------------------------------


@program()
def prog_fe_complex_autograd(T: Any) -> Any:
    z = T.tensor([1 + 2j, -0.5 + 0.25j], requires_grad=True)
    w = T.tensor([0.5 - 1j, 2 + 0j], requires_grad=True)
    r = T._foreach_mul([z], [w])
    e = T._foreach_exp(r)
    n = T._foreach_norm([e[0], z])
    (n[0] + n[1]).backward()
    return r, e, n, z.grad, w.grad


@program()
def prog_fe_same_tensor_twice(T: Any) -> Any:
    a = T.tensor(_data(3, seed=75), requires_grad=True)
    r = T._foreach_mul([a, a], [a, 2.0 * a])
    (r[0].sum() + r[1].sum()).backward()
    xs = [a.detach().clone()]
    xs2 = xs * 2
    T._foreach_add_(xs2, 1.0)
    return r, a.grad, xs, r[0].grad_fn.next_functions


@program()
def prog_fe_broadcasting_in_lists(T: Any) -> Any:
    a = T.tensor(_data(2, 3, seed=77), requires_grad=True)
    b = T.tensor(_data(3, seed=78), requires_grad=True)
    r = T._foreach_mul([a], [b])
    r2 = T._foreach_add([b], [a])
    (r[0].sum() + r2[0].sum()).backward()
    return (
        r,
        r2,
        a.grad,
        b.grad,
        raises(lambda: T._foreach_add_([b.detach().clone()], [a.detach()])),
    )


@program()
def prog_fe_float16_bfloat16(T: Any) -> Any:
    a, b = _xs(T, (4,), (3,), seed=79)
    h, bf = a.half(), b.bfloat16()
    return [
        T._foreach_add([h, bf], 1.0 / 3),
        T._foreach_mul([h, bf], [h, bf]),
        T._foreach_exp([h, bf]),
        T._foreach_norm([h, bf]),
        T._foreach_norm([h, bf], dtype=T.float32),
        T._foreach_lerp([h, bf], [h * 2, bf * 2], 0.3),
        T._foreach_addcdiv([h, bf], [h, bf], [h.abs() + 1, bf.abs() + 1], [0.1, 0.2]),
        T._foreach_max([h, bf]),
        T._foreach_sigmoid([h, bf]),
    ]


# --- keywords, forward AD, anomaly mode, vmap -----------------------------------------------


@program()
def prog_fe_keyword_names_of_overloads(T: Any) -> Any:
    a, b = _xs(T, (3,), (2,), seed=601)
    return [
        T._foreach_add([a, b], scalar=2.0),
        T._foreach_add([a, b], scalars=[1.0, 2.0]),
        T._foreach_add([a, b], other=[b.sum(), a.sum()], alpha=2),
        T._foreach_mul([a, b], scalars=[2.0, 3.0]),
        T._foreach_mul([a, b], other=T.tensor(2.0)),
        T._foreach_clamp_min([a, b], scalar=0.0),
        T._foreach_pow([a.abs(), b.abs()], exponent=2),
        T._foreach_pow(self=2.0, exponent=[a, b]),
        T._foreach_lerp([a, b], [b.sum() * a, b * 2], weight=0.3),
        T._foreach_lerp([a, b], tensors1=[a * 2, b * 2], weights=[a.sigmoid(), b.sigmoid()]),
        T._foreach_addcmul([a, b], [a, b], [a, b], value=2),
        T._foreach_addcmul([a, b], [a, b], [a, b], scalars=[2.0, 0.5]),
        T._foreach_addcdiv([a, b], [a, b], [a.exp(), b.exp()], scalars=T.tensor([1.0, 2.0])),
        T._foreach_norm([a, b], ord=1, dtype=T.float64),
        T._foreach_copy_([a.clone()], src=[b.sum().expand(3)], non_blocking=True),
        raises(lambda: T._foreach_exp([a], 1)),
        raises(lambda: T._foreach_exp([a], x=1)),
        raises(lambda: T._foreach_max([a], 1)),
        raises(lambda: T._foreach_norm([a], "fro")),
        raises(lambda: T._foreach_norm([a], 2, T.float64, 3)),
        raises(lambda: T._foreach_add([a], [a], beta=2)),
        raises(lambda: T._foreach_mul([a], [a], alpha=2)),
        raises(lambda: T._foreach_add([a], 1.0, alpha=2)),
        raises(lambda: T._foreach_add([a], None)),
        raises(lambda: T._foreach_add([a], "x")),
        raises(lambda: T._foreach_mul_([a.clone()], "x")),
        raises(lambda: T._foreach_pow("x", [a])),
        raises(lambda: T._foreach_pow_([a.clone()], "x")),
        raises(lambda: T._foreach_lerp([a], [a], "x")),
        raises(lambda: T._foreach_addcmul([a], [a], [a], [a])),
        raises(lambda: T._foreach_sub([a], T.tensor(1.0, requires_grad=True))),
        raises(lambda: T._foreach_maximum([a], T.tensor([2.0]))),
        raises(lambda: T._foreach_lerp([a], [a], T.tensor(0.5, requires_grad=True))),
        raises(lambda: T._foreach_sub([a], [1.0], alpha=2)),
        # missing arguments: torch's parser errors
        raises(lambda: T._foreach_add([a])),
        raises(lambda: T._foreach_add_([a])),
        raises(lambda: T._foreach_mul([a])),
        raises(lambda: T._foreach_pow([a])),
        raises(lambda: T._foreach_maximum([a])),
        raises(lambda: T._foreach_lerp([a], [a])),
        raises(lambda: T._foreach_addcmul([a], [a])),
        raises(lambda: T._foreach_addcdiv_([a], [a])),
        raises(lambda: T._foreach_copy_([a])),
        raises(lambda: T._foreach_mm([a])),
        raises(lambda: T._foreach_exp()),
        raises(lambda: T._foreach_norm()),
        raises(lambda: T._foreach_add()),
    ]


@program()
def prog_fe_integer_bool_complex_edge_cases(T: Any) -> Any:
    i = T.tensor([3, -2, 0])
    m = T.tensor([True, False])
    z = T.tensor([1 + 2j, 0.5 - 1j])
    a = T.tensor([1.5, -2.0, 0.5])
    return [
        raises(lambda: T._foreach_add([i], [i], alpha=0.5)),
        T._foreach_add([i], [i], alpha=2),
        raises(lambda: T._foreach_sub([m], [m], alpha=1)),
        T._foreach_add([m], [m], alpha=True),
        T._foreach_div([i], 0),
        T._foreach_div([i], [i]),
        T._foreach_pow(0, [a]),
        T._foreach_pow(-2.0, [a]),
        T._foreach_pow([i], [i.abs()]),
        raises(lambda: T._foreach_abs_([z.clone()])),
        T._foreach_exp_([z.clone()]),
        raises(lambda: T._foreach_sign([z])),
        T._foreach_lgamma([i]),
        T._foreach_clamp_min([a], True),
        T._foreach_clamp_min([a], float("nan")),
        T._foreach_clamp_max([i], 0.5),
        raises(lambda: T._foreach_clamp_min([m], 0)),
        T._foreach_maximum([i], [a]),
        T._foreach_maximum([m], [m]),
        raises(lambda: T._foreach_minimum([z], [z])),
        raises(lambda: T._foreach_maximum([a, z], [a, z])),
        raises(lambda: T._foreach_norm([m])),
        T._foreach_norm([a], 0.0),
        raises(lambda: T._foreach_norm([a], dtype=T.float16)),
        raises(lambda: T._foreach_powsum([i])),
        raises(lambda: T._foreach_powsum([m])),
        T._foreach_powsum([a], -1),
        T._foreach_powsum([a], float("inf")),
        T._foreach_mm([i.reshape(1, 3)], [i.reshape(3, 1)]),
        raises(lambda: T._foreach_mm([a], [a])),
        T._foreach_sqrt([i.to(T.uint8)]),
        T._foreach_reciprocal([i]),
        raises(lambda: T._foreach_sigmoid_([i.clone()])),
        T._foreach_neg_([i.to(T.uint8)]),
        raises(lambda: T._foreach_frac([i])),
        T._foreach_trunc([a.half()]),
        T._foreach_add([a.half(), a.bfloat16()], 1e-4),
        T._foreach_mul([a.half()], 1e5),
        T._foreach_div([a], [T.zeros(3)]),
        T._foreach_zero_([z.clone()]),
        T._foreach_clone([z, m, i]),
    ]


@program()
def prog_fe_forward_ad(T: Any) -> Any:
    import importlib

    fwAD = importlib.import_module(T.__name__ + ".autograd.forward_ad")
    a = T.tensor(_data(3, seed=611))
    t = T.tensor(_data(3, seed=612))

    def fw(f: Any, x0: Any = a, t0: Any = t) -> Any:
        with fwAD.dual_level():
            x = fwAD.make_dual(x0, t0)
            out = f(x)
            return [fwAD.unpack_dual(o).tangent for o in out]

    def inplace() -> Any:
        with fwAD.dual_level():
            x = fwAD.make_dual(a.clone(), t)
            T._foreach_mul_([x], 3.0)
            T._foreach_add_([x], [x * x])
            return fwAD.unpack_dual(x).tangent

    return [
        fw(lambda x: T._foreach_exp([x, x * 2])),
        fw(lambda x: T._foreach_mul([x], [x])),
        fw(lambda x: T._foreach_lerp([x], [x.sin()], 0.25)),
        fw(lambda x: T._foreach_addcdiv([x], [x], [x.exp()], [0.5])),
        fw(lambda x: T._foreach_add([x], 2.0)),
        fw(lambda x: T._foreach_max([x])),
        raises(lambda: fw(lambda x: T._foreach_norm([x]))),
        raises(lambda: fw(lambda x: T._foreach_norm([x.reshape(3, 1)], 1))),
        fw(lambda x: T._foreach_norm([x.sum()])),
        raises(lambda: fw(lambda x: T._foreach_powsum([x]))),
        raises(lambda: fw(lambda x: T._foreach_mm([x.reshape(1, 3)], [x.reshape(3, 1)]))),
        inplace(),
    ]


@program()
def prog_fe_forward_ad_output_tangent_is_its_own(T: Any) -> Any:
    # an op whose formula passes the tangent through (add of a number) gives its output a
    # tangent of its own: changing the input's in place leaves the output's alone
    import importlib

    fwAD = importlib.import_module(T.__name__ + ".autograd.forward_ad")
    t = T.tensor([1.0, 2.0, 3.0])
    with fwAD.dual_level():
        x = fwAD.make_dual(T.tensor([0.5, -1.0, 2.0]), t)
        ys = [x + 2.0, x * 1, x - 1, T._foreach_add([x], 1.0)[0], x.clone(), x.view(3)]
        same = [fwAD.unpack_dual(y).tangent is t for y in ys]
        x.mul_(3.0)
        tangents = [fwAD.unpack_dual(y).tangent for y in ys]
    return same, tangents, t


@program()
def prog_fe_anomaly_mode_trace(T: Any) -> Any:
    import warnings

    x = T.tensor([-1.0, 4.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with T.autograd.detect_anomaly():
            y = T._foreach_sqrt([x, x * 1 + 5])
            err = raises(lambda: (y[0].sum() + y[1].sum()).backward())
    return err, x.grad, [str(i.message).split(".")[0] for i in w]


@program()
def prog_fe_vmap_and_func_grad(T: Any) -> Any:
    return [
        raises(lambda: T.func.vmap(lambda v: T._foreach_exp([v])[0])(T.ones(2, 3))),
        raises(lambda: T.func.vmap(lambda v: T._foreach_add([v], 1.0)[0])(T.ones(2, 3))),
        raises(lambda: T.func.vmap(lambda v: T._foreach_mul([v], [v])[0])(T.ones(2, 3))),
        raises(lambda: T.func.vmap(lambda v: T._foreach_lerp([v], [v], [v])[0])(T.ones(2, 3))),
        raises(lambda: T.func.vmap(lambda v: T._foreach_pow(2.0, [v])[0])(T.ones(2, 3))),
        raises(lambda: T.func.vmap(lambda v: T._foreach_norm([v])[0])(T.ones(2, 3))),
        raises(
            lambda: T.func.vmap(lambda v: T._foreach_addcmul([v], [v], [v], T.ones(1))[0])(
                T.ones(2, 3)
            )
        ),
        raises(lambda: T.func.vmap(lambda v: T._foreach_zero_([v])[0])(T.ones(2, 3))),
        T.func.grad(lambda v: T._foreach_exp([v])[0].sum())(T.tensor([0.5, 1.0, 2.0])),
        T.func.grad(lambda v: T._foreach_norm([v, v * 2])[1])(T.tensor([0.5, 1.0, 2.0])),
    ]


@program()
def prog_fe_torch_function_subclass_and_mode(T: Any) -> Any:
    import importlib

    overrides = importlib.import_module(T.__name__ + ".overrides")

    seen: list[str] = []

    class Sub(T.Tensor):
        @classmethod
        def __torch_function__(
            cls, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            seen.append(getattr(func, "__name__", str(func)))
            return super().__torch_function__(func, types, args, kwargs or {})

    class Mode(overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[str] = []

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.seen.append(getattr(func, "__name__", str(func)))
            return func(*args, **(kwargs or {}))

    a = T.ones(2).as_subclass(Sub)
    b = T.ones(2)
    out = {
        "add": [type(t).__name__ for t in T._foreach_add([b, a], 1.0)],
        "exp": [type(t).__name__ for t in T._foreach_exp([b, a])],
        "norm": T._foreach_norm([b, a]),
        "inplace": T._foreach_mul_([a.clone(), b.clone()], 2.0),
        "plain": [type(t).__name__ for t in T._foreach_add([b], 1.0)],
        "param": type(T._foreach_add([T.nn.Parameter(T.ones(2))], 1.0)[0]).__name__,
    }
    seen_sub = list(seen)
    with Mode() as m:
        T._foreach_add([b], 1.0)
        T._foreach_lerp_([b.clone()], [b], 0.5)
        T._foreach_norm([b])
    return out, seen_sub, m.seen


@program()
def prog_fe_max_ties_and_norm_at_zero_gradients(T: Any) -> Any:
    x = T.tensor([1.0, 3.0, 3.0], requires_grad=True)
    z = T.zeros(3, requires_grad=True)
    r = T._foreach_max([x, z])
    (r[0] + r[1]).backward()
    n = T._foreach_norm([x, z])
    gx, gz = T.autograd.grad(n[0] + n[1], [x, z])
    ninf = T._foreach_norm([x, z], float("inf"))
    gi = T.autograd.grad(ninf[0] + ninf[1], [x, z])
    return r, x.grad, z.grad, gx, gz, gi


# --- optimizers: the foreach / fused / capturable / differentiable flags ---------------------

_OPTIMS = {
    "SGD": {"lr": 0.1, "momentum": 0.9},
    "Adam": {"lr": 0.1},
    "AdamW": {"lr": 0.1},
    "Adagrad": {"lr": 0.1},
    "RMSprop": {"lr": 0.01},
    "Adadelta": {"lr": 1.0},
    "Adamax": {"lr": 0.1},
    "NAdam": {"lr": 0.1},
    "RAdam": {"lr": 0.1},
    "ASGD": {"lr": 0.1},
    "Rprop": {"lr": 0.1},
    "Adafactor": {"lr": 0.1},
}


def _opt_run(T: Any, name: str, kw: dict[str, Any], steps: int = 3, dtype: Any = None) -> Any:
    """Parameters after `steps` steps of optimizer `name` (three parameters, fixed grads)."""
    ps = [T.nn.Parameter(t) for t in _xs(T, (3,), (2, 3), (4,), seed=101, dtype=dtype)]
    opt = getattr(T.optim, name)(ps, **kw)
    for k in range(steps):
        for i, p in enumerate(ps):
            g = T.tensor(_data(*p.shape, seed=200 + 10 * k + i))
            p.grad = g.to(p.dtype)
        opt.step()
    return [p.detach() for p in ps], opt


def _same_bits(xs: Any, ys: Any) -> bool:
    return all(
        bool((x == y).all()) or bool(((x != x) & (y != y)).all())
        for x, y in zip(xs, ys, strict=True)
    )


@program()
def prog_fe_optim_flag_combinations(T: Any) -> Any:
    out = {}
    for name, base in _OPTIMS.items():
        row = {}
        for label, flags in (
            ("fused", {"fused": True}),
            ("fused_foreach", {"fused": True, "foreach": True}),
            ("fused_differentiable", {"fused": True, "differentiable": True}),
            ("foreach_differentiable", {"foreach": True, "differentiable": True}),
            ("capturable", {"capturable": True}),
            ("capturable_foreach", {"capturable": True, "foreach": True}),
            ("foreach_false_fused_false", {"foreach": False, "fused": False}),
        ):
            row[label] = raises(lambda n=name, f=flags, b=base: _opt_run(T, n, {**b, **f}, 1)[0])
        out[name] = row
    return out


@program()
def prog_fe_optim_defaults_record_flags(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    out = {}
    for name, base in _OPTIMS.items():
        opt = getattr(T.optim, name)([p], **base)
        out[name] = {
            k: opt.defaults.get(k, "absent")
            for k in ("foreach", "fused", "capturable", "differentiable", "maximize")
        }
        out[name + "_group"] = {k: opt.param_groups[0].get(k, "absent") for k in ("foreach",)}
    return out


@program()
def prog_fe_optim_foreach_matches_single_tensor_bits(T: Any) -> Any:
    out = {}
    for name, base in _OPTIMS.items():
        if name == "Adafactor":
            continue  # prog_fe_optim_adafactor_foreach_bits
        single, _ = _opt_run(T, name, {**base, "foreach": False}, 4)
        multi, _ = _opt_run(T, name, {**base, "foreach": True}, 4)
        out[name] = (_same_bits(single, multi), multi)
    return out


@program()
def prog_fe_optim_foreach_options_match_single_tensor(T: Any) -> Any:
    cases = {
        "sgd_nesterov_wd": (
            "SGD",
            {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
        ),
        "sgd_dampening_max": (
            "SGD",
            {"lr": 0.1, "momentum": 0.9, "dampening": 0.5, "maximize": True},
        ),
        "adam_amsgrad_wd": ("Adam", {"lr": 0.1, "amsgrad": True, "weight_decay": 0.1}),
        "adam_max": ("Adam", {"lr": 0.1, "maximize": True}),
        "adamw_amsgrad": ("AdamW", {"lr": 0.1, "amsgrad": True}),
        "adagrad_decay": ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1}),
        "rmsprop_centered": ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True}),
        "adadelta_wd": ("Adadelta", {"lr": 1.0, "weight_decay": 0.1}),
        "adamax_wd": ("Adamax", {"lr": 0.1, "weight_decay": 0.1}),
        "nadam_decoupled": (
            "NAdam",
            {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True},
        ),
        "radam_decoupled": (
            "RAdam",
            {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True},
        ),
        "radam_wd": ("RAdam", {"lr": 0.1, "weight_decay": 0.1}),
        "asgd_t0": ("ASGD", {"lr": 0.1, "weight_decay": 0.1, "t0": 1}),
        "rprop_max": ("Rprop", {"lr": 0.1, "maximize": True}),
    }
    out = {}
    for label, (name, kw) in cases.items():
        single, _ = _opt_run(T, name, {**kw, "foreach": False}, 5)
        multi, _ = _opt_run(T, name, {**kw, "foreach": True}, 5)
        out[label] = (_same_bits(single, multi), multi)
    return out


@program()
def prog_fe_optim_foreach_multi_tensor_paths_long_runs(T: Any) -> Any:
    # RAdam past its rectification threshold, NAdam/RAdam/ASGD with maximize and weight decay,
    # ASGD once averaging starts: foreach=True against foreach=False, and the values
    cases = {
        "radam_10": ("RAdam", {"lr": 0.01}, 10),
        "radam_max_wd": ("RAdam", {"lr": 0.01, "maximize": True, "weight_decay": 0.1}, 8),
        "nadam_max_decoupled": (
            "NAdam",
            {"lr": 0.01, "maximize": True, "weight_decay": 0.1, "decoupled_weight_decay": True},
            6,
        ),
        "asgd_max_wd": ("ASGD", {"lr": 0.05, "maximize": True, "weight_decay": 0.1}, 6),
        "asgd_average": ("ASGD", {"lr": 0.05, "t0": 2, "lambd": 0.01, "alpha": 0.5}, 8),
    }
    out = {}
    for label, (name, kw, steps) in cases.items():
        single, _ = _opt_run(T, name, {**kw, "foreach": False}, steps)
        multi, opt = _opt_run(T, name, {**kw, "foreach": True}, steps)
        st = opt.state_dict()["state"][1]
        out[label] = (_same_bits(single, multi), multi, st)
    return out


@program()
def prog_fe_optim_foreach_noncontiguous_params_and_grads(T: Any) -> Any:
    out = {}
    for name, base in _OPTIMS.items():
        res = []
        for fe in (False, True):
            w = T.nn.Parameter(T.tensor(_data(3, 2, seed=701)).t())
            v = T.nn.Parameter(T.tensor(_data(4, seed=702)))
            opt = getattr(T.optim, name)([w, v], foreach=fe, **base)
            for k in range(3):
                w.grad = T.tensor(_data(3, 2, seed=710 + k)).t()
                v.grad = T.tensor(_data(1, seed=720 + k)).expand(4)
                opt.step()
            res.append([w.detach(), v.detach(), w.is_contiguous()])
        out[name] = (res, _same_bits(res[0][:2], res[1][:2]))
    return out


@program()
def prog_fe_optim_foreach_float64(T: Any) -> Any:
    out = {}
    for name in ("SGD", "Adam", "AdamW", "RMSprop", "NAdam", "RAdam"):
        base = _OPTIMS[name]
        for dt in (T.float64,):
            single, _ = _opt_run(T, name, {**base, "foreach": False}, 3, dtype=dt)
            multi, _ = _opt_run(T, name, {**base, "foreach": True}, 3, dtype=dt)
            out[f"{name}_{dt}"] = (_same_bits(single, multi), multi)
    return out


@program()
def prog_fe_optim_fused_cpu(T: Any) -> Any:
    out = {}
    for name in ("SGD", "Adam", "AdamW", "Adagrad"):
        base = _OPTIMS[name]
        fused, _ = _opt_run(T, name, {**base, "fused": True}, 3)
        out[name] = fused
        out[name + "_int"] = raises(
            lambda n=name, b=base: _opt_run(T, n, {**b, "fused": True}, 1, dtype=T.int64)
        )
        out[name + "_half"] = _opt_run(T, name, {**base, "fused": True}, 2, dtype=T.float16)[0]
    out["rmsprop"] = raises(lambda: T.optim.RMSprop([T.nn.Parameter(T.ones(2))], fused=True))
    return out


@program(
    xfail="torch's CPU fused SGD/AdamW kernels (vectorised body, scalar tail) round differently "
    "from its single-tensor update; shadowgrad's fused=True runs the single-tensor arithmetic"
)
def prog_fe_optim_fused_bits_against_single_tensor(T: Any) -> Any:
    out = {}
    for name in ("SGD", "Adam", "AdamW", "Adagrad"):
        base = _OPTIMS[name]
        single, _ = _opt_run(T, name, {**base, "foreach": False}, 3)
        fused, _ = _opt_run(T, name, {**base, "fused": True}, 3)
        out[name] = _same_bits(single, fused)
    return out


@program()
def prog_fe_optim_foreach_half_bits(T: Any) -> Any:
    """torch's in-place _foreach_mul_ rounds the number to float16 first (SGD's momentum,
    AdamW's decay) and its single-tensor mul_ does not."""
    out = {}
    for name in ("SGD", "AdamW"):
        base = _OPTIMS[name]
        single, _ = _opt_run(T, name, {**base, "foreach": False}, 3, dtype=T.float16)
        multi, _ = _opt_run(T, name, {**base, "foreach": True}, 3, dtype=T.float16)
        out[name] = _same_bits(single, multi)
    return out


@program()
def prog_fe_optim_adafactor_foreach_bits(T: Any) -> Any:
    out = {}
    for label, kw in (
        ("plain", {"lr": 0.1}),
        ("wd", {"lr": 0.1, "weight_decay": 0.1}),
        ("max", {"lr": 0.01, "maximize": True}),
    ):
        single, _ = _opt_run(T, "Adafactor", {**kw, "foreach": False}, 4)
        multi, _ = _opt_run(T, "Adafactor", {**kw, "foreach": True}, 4)
        out[label] = (_same_bits(single, multi), multi)
    return out


@program(
    xfail="torch's float32 sqrt kernel (vectorised, not correctly rounded) is 1 ulp off "
    "numpy's on some elements, so shadowgrad's single-tensor NAdam denominators differ from "
    "torch's there and its foreach=False and foreach=True agree bit for bit where torch's differ"
)
def prog_fe_optim_nadam_weight_decay_foreach_bits(T: Any) -> Any:
    out = {}
    for label, kw in (
        ("wd", {"lr": 0.1, "weight_decay": 0.1, "momentum_decay": 0.01}),
        ("max_wd", {"lr": 0.01, "maximize": True, "weight_decay": 0.1}),
    ):
        steps = 5 if label == "wd" else 6
        single, _ = _opt_run(T, "NAdam", {**kw, "foreach": False}, steps)
        multi, _ = _opt_run(T, "NAdam", {**kw, "foreach": True}, steps)
        out[label] = _same_bits(single, multi)
    return out


@program()
def prog_fe_optim_foreach_state_and_grads_untouched(T: Any) -> Any:
    out = {}
    for name, base in _OPTIMS.items():
        _, opt = _opt_run(T, name, {**base, "foreach": True}, 2)
        st = opt.state_dict()["state"][0]
        out[name] = {k: v for k, v in st.items() if k != "step"}
        out[name + "_step"] = st.get("step")
        out[name + "_grad"] = opt.param_groups[0]["params"][0].grad
    return out


@program()
def prog_fe_optim_foreach_none_grads_and_mixed_dtypes(T: Any) -> Any:
    out = {}
    for name in ("SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "NAdam", "RAdam", "Adamax"):
        a = T.nn.Parameter(T.tensor(_data(3, seed=301)))
        b = T.nn.Parameter(T.tensor(_data(2, seed=302)).double())
        c = T.nn.Parameter(T.tensor(_data(2, seed=303)))
        opt = getattr(T.optim, name)([a, b, c], foreach=True, **_OPTIMS[name])
        a.grad = T.ones(3)
        b.grad = T.full((2,), 0.5, dtype=T.float64)
        opt.step()
        c.grad = T.ones(2)
        b.grad = None
        opt.step()
        out[name] = ([a, b, c], sorted(len(v) for v in opt.state.values()))
    return out


@program()
def prog_fe_optim_foreach_complex_params(T: Any) -> Any:
    out = {}
    for name in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "NAdam", "RAdam", "Adamax"):
        res = []
        for fe in (False, True):
            z = T.nn.Parameter(T.tensor([1 + 2j, -0.5 + 0.25j]))
            opt = getattr(T.optim, name)([z], foreach=fe, **_OPTIMS[name])
            for k in range(3):
                z.grad = T.tensor([0.5 - 1j * k, 0.25 + 0.5j])
                opt.step()
            res.append(z.detach())
        out[name] = (res, _same_bits([res[0]], [res[1]]))
    return out


@program()
def prog_fe_optim_differentiable_sgd_grad_to_hyper(T: Any) -> Any:
    p0 = T.tensor(_data(4, seed=401), dtype=T.float64, requires_grad=True)
    g = T.tensor(_data(4, seed=402), dtype=T.float64, requires_grad=True)
    buf = T.tensor(_data(4, seed=403), dtype=T.float64, requires_grad=True)
    lr = T.tensor(0.1, dtype=T.float64, requires_grad=True)
    p = p0.clone()
    opt = T.optim.SGD([p], lr=lr, momentum=0.9, differentiable=True)
    p.grad = g
    opt.state[p]["momentum_buffer"] = buf.clone()
    opt.step()
    out = p * p
    grads = T.autograd.grad(out.sum(), [p0, g, buf, lr], allow_unused=True)
    return p, p.grad_fn, grads, opt.state[p]["momentum_buffer"]


@program()
def prog_fe_optim_differentiable_adam_gradcheck(T: Any) -> Any:
    def step(p: Any, grad: Any, exp_avg: Any, exp_avg_sq: Any) -> Any:
        p = p.clone()
        p.grad = grad
        opt = T.optim.Adam([p], lr=0.5, differentiable=True)
        st = opt.state[p]
        st["step"] = T.tensor(1.0, dtype=T.float64)
        st["exp_avg"] = exp_avg.clone()
        st["exp_avg_sq"] = exp_avg_sq.clone()
        opt.step()
        return p, st["exp_avg"], st["exp_avg_sq"]

    args = [
        T.tensor(_data(3, seed=410 + k), dtype=T.float64).abs().requires_grad_() for k in range(4)
    ]
    res = step(*args)
    gc = T.autograd.gradcheck(step, tuple(args))
    return res, [r.grad_fn is not None for r in res], gc


@program()
def prog_fe_optim_differentiable_requires_no_grad_state(T: Any) -> Any:
    out = {}
    for name in (
        "SGD",
        "Adam",
        "AdamW",
        "RMSprop",
        "Adagrad",
        "NAdam",
        "RAdam",
        "Adamax",
        "Adadelta",
        "ASGD",
        "Rprop",
    ):
        w = T.nn.Parameter(T.tensor(_data(3, seed=420)))
        opt = getattr(T.optim, name)([w], differentiable=True, **_OPTIMS[name])
        w.grad = T.ones(3)
        out[name] = raises(lambda o=opt: o.step())
        x = T.tensor(_data(3, seed=421), requires_grad=True)
        v = x.clone()
        opt2 = getattr(T.optim, name)([v], differentiable=True, **_OPTIMS[name])
        v.grad = T.ones(3)
        with T.enable_grad():
            r = raises(lambda o=opt2: o.step())
        out[name + "_nonleaf"] = (r, v.grad_fn is not None, v.detach())
    return out


@program()
def prog_fe_optim_differentiable_every_optimizer(T: Any) -> Any:
    cfg = {
        "SGD": {"momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
        "Adam": {"amsgrad": True, "weight_decay": 0.1},
        "AdamW": {},
        "Adagrad": {"lr_decay": 0.1},
        "RMSprop": {"momentum": 0.5, "centered": True},
        "Adadelta": {"weight_decay": 0.1},
        "Adamax": {"weight_decay": 0.1},
        "NAdam": {"decoupled_weight_decay": True, "weight_decay": 0.1},
        "RAdam": {},
        "ASGD": {"t0": 0},
        "Rprop": {},
    }
    out = {}
    for name, kw in cfg.items():

        def go(name: str = name, kw: dict[str, Any] = kw) -> Any:
            p0 = T.tensor(np.linspace(0.5, 1.5, 4), dtype=T.float64, requires_grad=True)
            g = T.tensor(np.linspace(-1, 1, 4), dtype=T.float64, requires_grad=True)
            lr = T.tensor(0.05, dtype=T.float64, requires_grad=True)
            p = p0.clone()
            opt = getattr(T.optim, name)([p], lr=lr, differentiable=True, **kw)
            for k in range(2):
                p.grad = g * (k + 1)
                opt.step()
            grads = T.autograd.grad((p * p).sum(), [p0, g, lr], allow_unused=True)
            return p.detach(), p.grad_fn.name(), grads

        out[name] = raises(go)
    return out


@program()
def prog_fe_optim_tensor_lr_with_foreach_and_fused(T: Any) -> Any:
    out = {}
    for name in _OPTIMS:
        row = {}
        for label, kw in (
            ("foreach", {"foreach": True}),
            ("plain", {}),
            ("fused", {"fused": True}),
        ):
            row[label] = raises(
                lambda n=name, k=kw: _opt_run(T, n, {"lr": T.tensor(0.01), **k}, 2)[0]
            )
        row["1d"] = raises(lambda n=name: _opt_run(T, n, {"lr": T.tensor([0.01])}, 1)[0])
        out[name] = row
    return out


@program()
def prog_fe_optim_repr_and_state_dict_keep_flags(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    out = {}
    for name in [*_OPTIMS, "SparseAdam", "LBFGS"]:
        kw = {"foreach": True} if name not in ("SparseAdam", "LBFGS") else {}
        opt = getattr(T.optim, name)([p], lr=0.1, **kw)
        sd = opt.state_dict()
        opt2 = getattr(T.optim, name)([p], lr=0.1)
        opt2.load_state_dict(sd)
        out[name] = (repr(opt), opt2.param_groups[0].get("foreach"), opt2.defaults.get("foreach"))
    return out


@program()
def prog_fe_user_lion_optimizer_with_foreach_ops(T: Any) -> Any:
    # a user optimizer written with torch._foreach_* (Lion), as third-party code does
    class Lion(T.optim.Optimizer):
        def __init__(
            self, params: Any, lr: float = 1e-2, betas: Any = (0.9, 0.99), wd: float = 0.1
        ):
            super().__init__(params, {"lr": lr, "betas": betas, "weight_decay": wd})

        @T.no_grad()
        def step(self, closure: Any = None) -> Any:
            for group in self.param_groups:
                ps = [p for p in group["params"] if p.grad is not None]
                grads = [p.grad for p in ps]
                avgs = []
                for p in ps:
                    st = self.state[p]
                    if "exp_avg" not in st:
                        st["exp_avg"] = T.zeros_like(p)
                    avgs.append(st["exp_avg"])
                b1, b2 = group["betas"]
                updates = T._foreach_mul(avgs, b1)
                T._foreach_add_(updates, grads, alpha=1 - b1)
                T._foreach_sign_(updates)
                T._foreach_mul_(ps, 1 - group["lr"] * group["weight_decay"])
                T._foreach_add_(ps, updates, alpha=-group["lr"])
                T._foreach_lerp_(avgs, grads, 1 - b2)
            return None

    model = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1))
    with T.no_grad():
        for k, q in enumerate(model.parameters()):
            q.copy_(T.tensor(_data(*q.shape, seed=960 + k)))
    opt = Lion(model.parameters())
    x = T.tensor(_data(8, 3, seed=970))
    y = T.tensor(_data(8, 1, seed=971))
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return (
        losses,
        [q.detach() for q in model.parameters()],
        [q._version for q in model.parameters()],
    )


@program()
def prog_fe_many_tensors(T: Any) -> Any:
    xs = [T.full((2,), float(k)) for k in range(300)]
    ws = [T.full((2,), 0.5 * k, requires_grad=True) for k in range(300)]
    r = T._foreach_mul(ws, xs)
    T.stack(list(r)).sum().backward()
    T._foreach_add_(xs, 1.0)
    return (
        r[-1],
        r[0].grad_fn is r[-1].grad_fn,
        len(r[0].grad_fn.next_functions),
        ws[7].grad,
        xs[-1],
        T._foreach_norm(xs)[-1],
    )


# --- gradient clipping with foreach -----------------------------------------------------------


@program()
def prog_fe_clip_grad_norm_foreach(T: Any) -> Any:
    out = {}
    for fe in (None, False, True):
        for norm in (2.0, 1.0, float("inf"), 3.0, 0.0):
            ps = [T.nn.Parameter(t) for t in _xs(T, (3,), (2, 2), seed=501)]
            for i, p in enumerate(ps):
                p.grad = T.tensor(_data(*p.shape, seed=510 + i)) * 4
            n = T.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=norm, foreach=fe)
            out[f"{fe}_{norm}"] = (n, [p.grad for p in ps])
    return out


@program()
def prog_fe_clip_grad_norm_foreach_edge_cases(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(3))
    q = T.nn.Parameter(T.ones(2, dtype=T.float64))
    out = {}
    out["no_grads"] = T.nn.utils.clip_grad_norm_([p, q], 1.0, foreach=True)
    p.grad = T.tensor([float("nan"), 1.0, 1.0])
    q.grad = T.ones(2, dtype=T.float64)
    out["nonfinite"] = raises(
        lambda: T.nn.utils.clip_grad_norm_([p, q], 1.0, foreach=True, error_if_nonfinite=True)
    )
    out["nonfinite_ok"] = (T.nn.utils.clip_grad_norm_([p, q], 1.0, foreach=True), p.grad, q.grad)
    p.grad = T.ones(3) * 3
    q.grad = T.ones(2, dtype=T.float64) * 4
    out["mixed_dtypes"] = (T.nn.utils.clip_grad_norm_([p, q], 1.0, foreach=True), p.grad, q.grad)
    out["single_tensor"] = T.nn.utils.clip_grad_norm_(p, 0.5, foreach=True)
    out["value"] = (T.nn.utils.clip_grad_value_([p, q], 0.1, foreach=True), p.grad, q.grad)
    out["empty"] = T.nn.utils.clip_grad_norm_([], 1.0, foreach=True)
    return out


@program()
def prog_fe_get_total_norm_and_clip_grads_with_norm(T: Any) -> Any:
    a, b = _xs(T, (3,), (2, 2), seed=521)
    out = {}
    for fe in (None, True, False):
        out[f"total_{fe}"] = [
            T.nn.utils.get_total_norm([a, b], p, foreach=fe) for p in (2.0, 1.0, float("inf"))
        ]
    out["single"] = T.nn.utils.get_total_norm(a, 2.0)
    out["empty"] = T.nn.utils.get_total_norm([], 2.0)
    out["none_entries"] = raises(lambda: T.nn.utils.get_total_norm([a, None], 2.0))
    out["nonfinite"] = raises(
        lambda: T.nn.utils.get_total_norm([a, a / 0], 2.0, error_if_nonfinite=True)
    )
    out["half_double"] = T.nn.utils.get_total_norm([a.half(), b.double()], 2.0, foreach=True)
    ps = [T.nn.Parameter(t) for t in _xs(T, (3,), (2, 2), seed=531)]
    for i, p in enumerate(ps):
        p.grad = T.tensor(_data(*p.shape, seed=540 + i))
    total = T.nn.utils.get_total_norm([p.grad for p in ps], 2.0)
    r = T.nn.utils.clip_grads_with_norm_(ps, 0.5, total, foreach=True)
    out["clip"] = (r, total, [p.grad for p in ps], [p.grad._version for p in ps])
    r2 = T.nn.utils.clip_grads_with_norm_(ps, 100.0, T.tensor(1.0), foreach=True)
    out["no_clip"] = (r2, [p.grad for p in ps])
    return out


@program()
def prog_fe_clip_grad_norm_mixed_dtypes(T: Any) -> Any:
    # the total norm's dtype is the promotion of the norms' (torch stacks them); float16 and
    # bfloat16 norms accumulate in float32; integer tensors are refused
    out = {}
    for fe in (None, True, False):
        for norm in (2.0, 1.0, float("inf"), 0.5, -1.0, 3):
            ps = [
                T.nn.Parameter(T.tensor(_data(3, seed=980 + k)).to(dt))
                for k, dt in enumerate((T.float32, T.float16, T.bfloat16, T.float64))
            ]
            for p in ps:
                p.grad = T.ones_like(p) * 3
            n = T.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=norm, foreach=fe)
            out[f"{fe}_{norm}"] = (n, [p.grad for p in ps])
    half = [T.ones(3, dtype=T.float16) * 300, T.ones(2, dtype=T.bfloat16) / 3]
    out["half_bf16"] = T.nn.utils.get_total_norm(half, 2.0)
    out["int"] = raises(lambda: T.nn.utils.get_total_norm([T.ones(2, dtype=T.int64)], foreach=True))
    out["int_single"] = raises(lambda: T.nn.utils.get_total_norm([T.ones(2, dtype=T.int64)]))
    out["bool"] = raises(lambda: T.nn.utils.get_total_norm([T.ones(2, dtype=T.bool)]))
    out["complex"] = T.nn.utils.get_total_norm([T.ones(2) + 1j, T.ones(2, dtype=T.float64)])
    return out


@program()
def prog_fe_clip_grad_norm_requires_grad_grads(T: Any) -> Any:
    # grads that carry a graph (create_graph=True): clipping runs under no_grad
    w = T.nn.Parameter(T.tensor(_data(3, seed=551)))
    (w.pow(3).sum()).backward(create_graph=True)
    n = T.nn.utils.clip_grad_norm_([w], 0.5, foreach=True)
    return n, w.grad, w.grad.requires_grad, w.grad.grad_fn


# --- the AMP foreach kernels ------------------------------------------------------------------


@program()
def prog_fe_amp_non_finite_check_and_unscale(T: Any) -> Any:
    fn = T._amp_foreach_non_finite_check_and_unscale_
    g = [
        T.tensor([1.0, 2.0, float("inf")]),
        T.tensor([4.0, 5.0]),
        T.tensor([2.0, 4.0, 1 / 3], dtype=T.float16),
        T.tensor([1.0, 2.0, 1 / 3], dtype=T.bfloat16),
        T.tensor([1.0, 2.0], dtype=T.float64),
        T.ones(2, 3).t(),
    ]
    fi = T.zeros(1)
    r = fn(g, fi, T.full((1,), 1 / 3))
    g2 = [T.tensor([1.0, float("nan")])]
    fi2 = T.zeros(())
    fn(g2, fi2, T.ones(()))
    x = T.ones(2, requires_grad=True)
    y = x * 2
    fn([y], T.zeros(1), T.full((1,), 0.5))
    return [
        r,
        g,
        fi,
        g2,
        fi2,
        [t._version for t in g],
        fi._version,
        fn([], T.zeros(1), T.ones(1)),
        raises(lambda: fn([x], T.zeros(1), T.ones(1))),
        (y, y.grad_fn, y._version),
        raises(lambda: fn([T.ones(2)], T.zeros(2), T.ones(1))),
        raises(lambda: fn([T.ones(2)], T.zeros(1), T.ones(2))),
        raises(lambda: fn([T.ones(2)], T.zeros(1, dtype=T.float64), T.ones(1))),
        raises(lambda: fn([T.ones(2)], T.zeros(1), T.ones(1, dtype=T.float64))),
        raises(lambda: fn([T.ones(2, dtype=T.int64)], T.zeros(1), T.ones(1))),
    ]


@program()
def prog_fe_amp_update_scale(T: Any) -> Any:
    fn = T._amp_update_scale_
    out = []
    for fi_v in (0.0, 1.0):
        for gt in (0, 1):
            s = T.full((1,), 1024.0)
            t = T.full((1,), gt, dtype=T.int32)
            r = fn(s, t, T.full((1,), fi_v), 2.0, 0.5, 2)
            out.append((r is s, s, t, s._version))
    s = T.full((1,), 3e38)
    t = T.full((1,), 1, dtype=T.int32)
    out.append((fn(s, t, T.zeros(1), 2.0, 0.5, 2), t))
    i32 = T.zeros(1, dtype=T.int32)
    out += [
        raises(lambda: fn(T.ones(1), T.zeros(1), T.zeros(1), 2.0, 0.5, 2)),
        raises(lambda: fn(T.ones(1, dtype=T.float64), i32, T.zeros(1), 2.0, 0.5, 2)),
        raises(lambda: fn(T.ones(2), i32, T.zeros(1), 2.0, 0.5, 2)),
        raises(lambda: fn(T.ones(1), T.zeros(2, dtype=T.int32), T.zeros(1), 2.0, 0.5, 2)),
        raises(lambda: fn(T.ones(1), i32, T.zeros(2), 2.0, 0.5, 2)),
        raises(lambda: fn(T.ones(1), i32, T.zeros(1, dtype=T.float64), 2.0, 0.5, 2)),
        raises(lambda: fn(T.ones(1), T.zeros(1, dtype=T.int64), T.zeros(1), 2.0, 0.5, 2)),
    ]
    return out


@program()
def prog_fe_grad_scaler_with_foreach_optimizers(T: Any) -> Any:
    out = {}
    for name in ("SGD", "Adam", "AdamW"):
        for fe in (False, True):
            lin = T.nn.Linear(3, 2)
            with T.no_grad():
                lin.weight.copy_(T.tensor(_data(2, 3, seed=951)))
                lin.bias.copy_(T.tensor(_data(2, seed=952)))
            opt = getattr(T.optim, name)(lin.parameters(), foreach=fe, **_OPTIMS[name])
            scaler = T.amp.GradScaler("cpu", init_scale=2.0**10, growth_interval=2)
            x = T.tensor(_data(4, 3, seed=953))
            for k in range(4):
                opt.zero_grad()
                loss = lin(x).pow(2).sum() * (1e38 if k == 1 else 1.0)
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            out[f"{name}_{fe}"] = (
                lin.weight.detach(),
                scaler.get_scale(),
                scaler._get_growth_tracker(),
            )
    return out


# --- torch.utils._foreach_utils -------------------------------------------------------------


@program()
def prog_fe_foreach_utils_grouping(T: Any) -> Any:
    import importlib

    fu = importlib.import_module(T.__name__ + ".utils._foreach_utils")
    a = T.ones(2)
    b = T.ones(2, dtype=T.float64)
    c = T.zeros(3)
    d = T.ones(1, dtype=T.int64)
    g = fu._group_tensors_by_device_and_dtype
    r1 = g([[a, b, c, d], [a * 2, None, c * 2, d]], with_indices=True)
    r2 = g([[a, b, c], []])
    return (
        [(str(k[0]), k[1], v) for k, v in r1.items()],
        [(str(k[0]), k[1], v) for k, v in r2.items()],
        r1[(a.device, T.float32)][0][0][0] is a,
        raises(lambda: g([[a, None]])),
        raises(lambda: g([[a, b], [a]])),
        raises(lambda: g([])),
        fu._get_foreach_kernels_supported_devices(),
        fu._get_fused_kernels_supported_devices(),
        fu._device_has_foreach_support(a.device),
        fu._has_foreach_support([a, None], a.device),
        fu._has_foreach_support([T.nn.Parameter(a)], a.device),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
