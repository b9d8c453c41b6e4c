"""Pointwise and rounding ops: first and second derivatives, subgradients at kinks and ties,
properties of the integer-division family, and torch's error messages (written out here)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import shadowgrad as torch
from shadowgrad.autograd import gradcheck, gradgradcheck


def _t(lo: float, hi: float, shape: tuple[int, ...] = (2, 3), seed: int = 0) -> torch.Tensor:
    a = np.random.default_rng(seed).uniform(lo, hi, shape)
    return torch.tensor(a, dtype=torch.float64, requires_grad=True)


def _away_from_ints(shape: tuple[int, ...] = (2, 3), seed: int = 0) -> torch.Tensor:
    # values in (k + 0.1, k + 0.4) and their negatives: no rounding step within eps
    r = np.random.default_rng(seed)
    a = r.integers(-3, 3, shape) + r.uniform(0.1, 0.4, shape)
    return torch.tensor(a, dtype=torch.float64, requires_grad=True)


# name -> (function, input makers); inputs keep clear of kinks so finite differences are valid
CASES: dict[str, tuple[Callable[..., Any], tuple[Callable[[], Any], ...]]] = {
    "abs": (torch.abs, (lambda: _t(0.2, 2) * torch.tensor([1.0, -1.0, 1.0]).double(),)),
    "exp2": (torch.exp2, (lambda: _t(-2, 2),)),
    "expm1": (torch.expm1, (lambda: _t(-2, 2),)),
    "log2": (torch.log2, (lambda: _t(0.2, 3),)),
    "log10": (torch.log10, (lambda: _t(0.2, 3),)),
    "log1p": (torch.log1p, (lambda: _t(-0.8, 3),)),
    "sqrt": (torch.sqrt, (lambda: _t(0.2, 3),)),
    "rsqrt": (torch.rsqrt, (lambda: _t(0.2, 3),)),
    "sin": (torch.sin, (lambda: _t(-3, 3),)),
    "cos": (torch.cos, (lambda: _t(-3, 3),)),
    "tan": (torch.tan, (lambda: _t(-1.2, 1.2),)),
    "asin": (torch.asin, (lambda: _t(-0.9, 0.9),)),
    "acos": (torch.acos, (lambda: _t(-0.9, 0.9),)),
    "atan": (torch.atan, (lambda: _t(-3, 3),)),
    "sinh": (torch.sinh, (lambda: _t(-2, 2),)),
    "cosh": (torch.cosh, (lambda: _t(-2, 2),)),
    "asinh": (torch.asinh, (lambda: _t(-3, 3),)),
    "acosh": (torch.acosh, (lambda: _t(1.2, 3),)),
    "atanh": (torch.atanh, (lambda: _t(-0.9, 0.9),)),
    "logit": (torch.logit, (lambda: _t(0.1, 0.9),)),
    "logit eps": (lambda x: torch.logit(x, 0.05), (lambda: _t(0.1, 0.9),)),
    "erf": (torch.erf, (lambda: _t(-2, 2),)),
    "erfc": (torch.erfc, (lambda: _t(-2, 2),)),
    "erfinv": (torch.erfinv, (lambda: _t(-0.9, 0.9),)),
    "floor": (torch.floor, (_away_from_ints,)),
    "ceil": (torch.ceil, (_away_from_ints,)),
    "round": (torch.round, (_away_from_ints,)),
    "round decimals": (lambda x: torch.round(x, decimals=0), (_away_from_ints,)),
    "trunc": (torch.trunc, (_away_from_ints,)),
    "frac": (torch.frac, (_away_from_ints,)),
    "sign": (torch.sign, (_away_from_ints,)),
    "nan_to_num": (torch.nan_to_num, (lambda: _t(-2, 2),)),
    "clamp": (lambda x: torch.clamp(x, -0.5, 0.5), (_away_from_ints,)),
    "clamp min": (lambda x: torch.clamp(x, min=0.05), (_away_from_ints,)),
    "clamp tensor": (
        torch.clamp,
        (_away_from_ints, lambda: _t(-0.05, 0.05, (3,)), lambda: _t(0.9, 1.0, (2, 1))),
    ),
    "clamp_min": (lambda x: torch.clamp_min(x, 0.05), (_away_from_ints,)),
    "clamp_min tensor": (torch.clamp_min, (_away_from_ints, lambda: _t(-0.05, 0.05, (3,)))),
    "clamp_max": (lambda x: torch.clamp_max(x, 0.05), (_away_from_ints,)),
    "clamp_max tensor": (torch.clamp_max, (_away_from_ints, lambda: _t(-0.05, 0.05, (3,)))),
    "atan2": (torch.atan2, (lambda: _t(-2, 2), lambda: _t(-2, 2, (3,), seed=1))),
    "hypot": (torch.hypot, (lambda: _t(0.5, 2), lambda: _t(-2, -0.5, (2, 1), seed=1))),
    "logaddexp": (torch.logaddexp, (lambda: _t(-2, 2), lambda: _t(-2, 2, seed=1))),
    "logaddexp2": (torch.logaddexp2, (lambda: _t(-2, 2), lambda: _t(-2, 2, (3,), seed=1))),
    "maximum": (torch.maximum, (lambda: _t(-2, 2), lambda: _t(-2, 2, (3,), seed=1))),
    "minimum": (torch.minimum, (lambda: _t(-2, 2), lambda: _t(-2, 2, (3,), seed=1))),
    "fmax": (torch.fmax, (lambda: _t(-2, 2), lambda: _t(-2, 2, seed=1))),
    "fmin": (torch.fmin, (lambda: _t(-2, 2), lambda: _t(-2, 2, seed=1))),
    "xlogy": (torch.xlogy, (lambda: _t(0.2, 2), lambda: _t(0.2, 2, (3,), seed=1))),
    "xlogy scalar self": (lambda y: torch.xlogy(2.0, y), (lambda: _t(0.2, 2),)),
    "xlogy scalar other": (lambda x: torch.xlogy(x, 3.0), (lambda: _t(-2, 2),)),
    "copysign": (torch.copysign, (lambda: _t(0.2, 2), lambda: _t(-1, 1, seed=1))),
    "copysign scalar": (lambda x: torch.copysign(x, -1.0), (lambda: _t(-2, 2),)),
    "lerp": (lambda a, b: torch.lerp(a, b, 0.3), (lambda: _t(-2, 2), lambda: _t(-2, 2, (3,), 1))),
    "lerp tensor": (
        torch.lerp,
        (lambda: _t(-2, 2), lambda: _t(-2, 2, seed=1), lambda: _t(-0.5, 1.5, (3,), seed=2)),
    ),
    "addcmul": (
        lambda a, b, c: torch.addcmul(a, b, c, value=0.7),
        (lambda: _t(-2, 2), lambda: _t(-2, 2, (2, 1), 1), lambda: _t(-2, 2, (3,), 2)),
    ),
    "addcdiv": (
        lambda a, b, c: torch.addcdiv(a, b, c, value=-1.5),
        (lambda: _t(-2, 2, (3,)), lambda: _t(-2, 2, seed=1), lambda: _t(0.5, 2, seed=2)),
    ),
    "masked_fill": (
        lambda x: torch.masked_fill(x, torch.tensor([True, False, True]), 2.0),
        (lambda: _t(-2, 2),),
    ),
    "masked_fill tensor value": (
        lambda x, v: x.masked_fill(torch.tensor([[True], [False]]), v),
        (lambda: _t(-2, 2), lambda: _t(-2, 2, ())),
    ),
    "remainder": (torch.remainder, (lambda: _t(0.1, 0.9), lambda: _t(1.5, 2.5, (3,), 1))),
    "remainder scalar": (lambda x: torch.remainder(x, 1.5), (lambda: _t(0.1, 1.4),)),
    "fmod": (torch.fmod, (lambda: _t(-0.9, 0.9), lambda: _t(1.5, 2.5, (3,), 1))),
    "fmod scalar": (lambda x: torch.fmod(x, -1.5), (lambda: _t(-1.4, 1.4),)),
    "div floor": (
        lambda a, b: torch.div(a, b, rounding_mode="floor"),
        (lambda: _t(0.1, 0.9), lambda: _t(1.5, 2.5, seed=1)),
    ),
    "div trunc": (
        lambda a, b: torch.div(a, b, rounding_mode="trunc"),
        (lambda: _t(-0.9, 0.9), lambda: _t(1.5, 2.5, seed=1)),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck(name: str) -> None:
    fn, makers = CASES[name]
    inputs = tuple(m() for m in makers)
    leaves = tuple(i.detach().requires_grad_(True) for i in inputs)
    assert gradcheck(fn, leaves)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradgradcheck(name: str) -> None:
    fn, makers = CASES[name]
    leaves = tuple(m().detach().requires_grad_(True) for m in makers)
    assert gradgradcheck(fn, leaves)


@pytest.mark.parametrize("name", sorted(CASES))
def test_inputs_unchanged(name: str) -> None:
    fn, makers = CASES[name]
    leaves = tuple(m().detach().requires_grad_(True) for m in makers)
    before = [x.detach().numpy().copy() for x in leaves]
    out = fn(*leaves)
    torch.autograd.grad(out.sum(), leaves, allow_unused=True)
    for x, b in zip(leaves, before, strict=True):
        np.testing.assert_array_equal(x.detach().numpy(), b)


# --- subgradients at kinks and ties (values from torch-semantics.md section 14) ------------


def _grad(fn: Callable[..., Any], *values: Any) -> list[list[float]]:
    xs = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in values]
    gs = torch.autograd.grad(fn(*xs).sum(), xs)
    return [g.tolist() for g in gs]


def test_abs_and_rounding_grads_at_kinks() -> None:
    assert _grad(torch.abs, [0.0, -0.0, -2.0]) == [[0.0, 0.0, -1.0]]
    for fn in (torch.sign, torch.floor, torch.ceil, torch.round, torch.trunc):
        assert _grad(fn, [0.0, 0.5, 1.0, -1.5]) == [[0.0, 0.0, 0.0, 0.0]]
    assert _grad(torch.frac, [0.0, 1.5, -2.0]) == [[1.0, 1.0, 1.0]]
    assert _grad(lambda x: torch.fmod(x, 2.0), [0.0, 2.0, -3.0]) == [[1.0, 1.0, 1.0]]
    assert _grad(lambda x: torch.remainder(x, 2.0), [0.0, 2.0, -3.0]) == [[1.0, 1.0, 1.0]]


def test_clamp_includes_its_bounds() -> None:
    x = [-1.0, 0.0, 0.5, 1.0, 2.0]
    assert _grad(lambda t: t.clamp(0, 1), x) == [[0.0, 1.0, 1.0, 1.0, 0.0]]
    assert _grad(lambda t: t.clamp(1, 1), x) == [[0.0, 0.0, 0.0, 1.0, 0.0]]
    assert _grad(lambda t: t.clamp_min(0), [0.0]) == [[1.0]]
    assert _grad(lambda t: t.clamp(0.0, 1.0), [math.nan]) == [[0.0]]


def test_clamp_tensor_bounds_split_the_grad() -> None:
    # self gets the grad inside [min, max]; min below it; max above it or wherever min > max
    gx, gmin, gmax = _grad(
        torch.clamp, [-1.0, 0.0, 0.5, 1.0, 2.0, 0.5], [0.0] * 5 + [1.0], [1.0] * 5 + [0.0]
    )
    assert gx == [0.0, 1.0, 1.0, 1.0, 0.0, 0.0]
    assert gmin == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert gmax == [0.0, 0.0, 0.0, 0.0, 1.0, 1.0]


def test_maximum_minimum_split_ties_and_pass_nan() -> None:
    a, b = [1.0, 2.0, math.nan], [1.0, 1.0, 1.0]
    assert _grad(torch.maximum, a, b) == [[0.5, 1.0, 1.0], [0.5, 0.0, 1.0]]
    assert _grad(torch.minimum, a, b) == [[0.5, 0.0, 1.0], [0.5, 1.0, 1.0]]
    # fmax/fmin: a tie goes to the first input, a NaN operand loses to the number
    assert _grad(torch.fmax, a, b) == [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def test_atan2_at_the_origin_and_sqrt_at_zero() -> None:
    gy, gx = _grad(torch.atan2, [0.0], [0.0])
    assert gy == [0.0] and gx == [0.0]
    assert math.copysign(1.0, gx[0]) == -1.0  # -0.
    assert _grad(torch.sqrt, [0.0]) == [[math.inf]]


def test_xlogy_is_zero_where_x_is_zero() -> None:
    out = torch.xlogy(torch.tensor([0.0, 0.0, 1.0]), torch.tensor([0.0, 2.0, math.nan]))
    assert out.tolist()[:2] == [0.0, 0.0] and math.isnan(out.tolist()[2])
    gx, gy = _grad(torch.xlogy, [0.0, 2.0], [0.0, 3.0])
    assert gx == [0.0, math.log(3.0)]
    assert math.isnan(gy[0]) and gy[1] == 2.0 / 3.0  # x / y, not masked


@given(
    hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=4), elements=st.integers(-3, 3)),
    hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=4), elements=st.integers(-3, 3)),
)
def test_maximum_grads_sum_to_one(a: np.ndarray, b: np.ndarray) -> None:
    # integers make ties frequent; however they fall, each output's unit grad is shared out
    # between the two inputs in full, so the grads (summed over broadcasting) add up to numel
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return
    ta = torch.tensor(a, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    for fn in (torch.maximum, torch.minimum, torch.fmax, torch.fmin):
        ga, gb = torch.autograd.grad(fn(ta, tb).sum(), (ta, tb))
        assert ga.shape == ta.shape and gb.shape == tb.shape
        assert ga.sum().item() + gb.sum().item() == math.prod(shape)
        assert set(ga.numpy().ravel().tolist() + gb.numpy().ravel().tolist()) <= set(
            np.arange(0, 2 * math.prod(shape) + 1) / 2
        )


# --- integer division family: properties -------------------------------------------------

_ints = st.integers(-50, 50)
_nonzero = st.integers(-9, 9).filter(lambda v: v != 0)


@given(st.lists(_ints, min_size=1, max_size=6), _nonzero)
def test_floor_divide_and_remainder_identity_for_ints(a: list[int], b: int) -> None:
    t = torch.tensor(a)
    q, r = t // b, t % b
    assert q.dtype is torch.int64 and r.dtype is torch.int64
    np.testing.assert_array_equal(q.numpy() * b + r.numpy(), np.array(a))
    # remainder takes the divisor's sign, fmod the dividend's; both are smaller than |b|
    assert all(v == 0 or (v > 0) == (b > 0) for v in r.tolist())
    f = torch.fmod(t, b).tolist()
    assert all(v == 0 or (v > 0) == (x > 0) for v, x in zip(f, a, strict=True))
    assert all(abs(v) < abs(b) for v in r.tolist() + f)
    trunc = torch.div(t, b, rounding_mode="trunc").tolist()
    assert trunc == [int(x / b) for x in a]


@given(
    st.lists(st.floats(-1e6, 1e6, allow_subnormal=False), min_size=1, max_size=6),
    st.floats(0.25, 100).flatmap(lambda v: st.sampled_from([v, -v])),
)
def test_float_floor_divide_and_remainder_agree(a: list[float], b: float) -> None:
    t = torch.tensor(a, dtype=torch.float64)
    q = torch.floor_divide(t, b).numpy()
    r = torch.remainder(t, b).numpy()
    np.testing.assert_allclose(q * b + r, np.array(a), rtol=1e-9, atol=1e-6)
    assert np.all((r == 0) | (np.sign(r) == np.sign(b)))
    assert np.all(np.abs(r) <= abs(b))


@given(hnp.arrays(np.float64, st.integers(0, 8), elements=st.floats(-5, 5)), st.floats(-2, 0))
def test_clamp_output_lies_within_bounds(a: np.ndarray, lo: float) -> None:
    out = torch.clamp(torch.tensor(a), lo, lo + 1).numpy()
    assert np.all((out >= lo) & (out <= lo + 1))
    np.testing.assert_array_equal(out, np.minimum(np.maximum(a, lo), lo + 1))


def test_round_is_half_to_even_and_scales_by_decimals() -> None:
    x = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5])
    assert torch.round(x).tolist() == [0.0, 2.0, 2.0, -0.0, -2.0]
    assert torch.round(torch.tensor([1234.5678]), decimals=-2).tolist() == [1200.0]
    assert torch.round(torch.tensor([0.125], dtype=torch.float64), decimals=2).tolist() == [0.12]


def test_erf_family_matches_math() -> None:
    v = [-3.0, -0.5, 0.0, 0.3, 2.0, 6.0]
    x = torch.tensor(v, dtype=torch.float64)
    np.testing.assert_allclose(torch.erf(x).numpy(), [math.erf(a) for a in v], rtol=1e-15)
    np.testing.assert_allclose(torch.erfc(x).numpy(), [math.erfc(a) for a in v], rtol=1e-15)
    y = torch.tensor([-0.999, -0.5, 0.0, 0.3, 0.7, 0.9999], dtype=torch.float64)
    np.testing.assert_allclose(torch.erf(torch.erfinv(y)).numpy(), y.numpy(), rtol=1e-14)
    assert torch.erfinv(torch.tensor([1.0, -1.0])).tolist() == [math.inf, -math.inf]
    assert math.isnan(torch.erfinv(torch.tensor(1.5)).item())


def test_sign_of_nan_is_zero() -> None:
    assert torch.sign(torch.tensor([math.nan, -2.0, 0.0])).tolist() == [0.0, -1.0, 0.0]


def test_logaddexp_is_stable() -> None:
    x = torch.tensor([1000.0, -1000.0, math.inf], dtype=torch.float64)
    y = torch.tensor([1000.0, -1000.0, math.inf], dtype=torch.float64)
    out = torch.logaddexp(x, y).tolist()
    assert out == [1000.0 + math.log(2.0), -1000.0 + math.log(2.0), math.inf]


def test_dtypes() -> None:
    i = torch.tensor([3, -2])
    assert torch.sqrt(i).dtype is torch.float32
    assert torch.floor(i).dtype is torch.int64
    assert (i // 2).dtype is torch.int64
    assert (i % 2.5).dtype is torch.float32
    assert torch.clamp(i, 0.5, 1.5).dtype is torch.float32
    assert torch.sign(torch.tensor([True])).dtype is torch.bool
    assert torch.isfinite(i).dtype is torch.bool
    assert torch.logical_and(i, torch.tensor([1.0, 0.0])).tolist() == [True, False]
    assert (i & 6).tolist() == [2, 6]


# --- non-differentiable outputs and graph nodes ------------------------------------------


def test_floor_divide_records_a_not_implemented_node() -> None:
    x = torch.tensor([1.5, -2.5], requires_grad=True)
    y = x // 2
    assert y.requires_grad
    assert type(y.grad_fn).__name__ == "NotImplemented"
    assert y.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match=r"^derivative for aten::floor_divide is not "):
        y.sum().backward()
    z = 2 % x
    with pytest.raises(RuntimeError, match=r"^derivative for aten::remainder is not implemented$"):
        z.sum().backward()


def test_grad_fn_names() -> None:
    x = torch.tensor([0.3, 0.6], requires_grad=True)
    names = {
        "ClampBackward1": x.clamp(0, 1),
        "ClampBackward0": x.clamp(min=x * 0),
        "ClampMinBackward0": x.clamp_min(0.1),
        "ClampMinBackward1": x.clamp_min(x * 0),
        "RoundBackward0": x.round(),
        "RoundBackward1": x.round(decimals=0),
        "DivBackward2": x.div(2, rounding_mode="floor"),
        "MaskedFillBackward0": x.masked_fill(x > 0.5, 0.0),
        "MaskedFillBackward1": x.masked_fill(x > 0.5, x[0]),
        "LerpBackward0": torch.lerp(x, x * 2, 0.5),
        "LerpBackward1": torch.lerp(x, x * 2, x),
        "XlogyBackward1": torch.xlogy(2.0, x),
        "XlogyBackward2": torch.xlogy(x, 2.0),
        "RemainderBackward0": x % 2,
        "FmodBackward1": x.fmod(x + 1),
        "CopysignBackward1": x.copysign(-1.0),
    }
    for name, t in names.items():
        assert type(t.grad_fn).__name__ == name
    assert not torch.isclose(x, x).requires_grad
    assert not x.signbit().requires_grad


def test_in_place_variants_record_their_op() -> None:
    x = torch.tensor([0.3, -0.6], requires_grad=True)
    y = x * 1
    assert y.clamp_(0, 1) is y
    assert type(y.grad_fn).__name__ == "ClampBackward1" and y._version == 1
    z = x * 1
    z.masked_fill_(torch.tensor([True, False]), 0.0)
    assert type(z.grad_fn).__name__ == "MaskedFillBackward0"
    (g,) = torch.autograd.grad((y + z).sum(), x)
    assert g.tolist() == [1.0, 1.0]
    i = torch.tensor([7, -7])
    i //= 2
    assert i.tolist() == [3, -4]
    i %= 3
    assert i.tolist() == [0, 2]
    i |= 4
    assert i.tolist() == [4, 6]


# --- error messages (torch 2.13's wording) ------------------------------------------------


def _raises(exc: type[Exception], message: str, fn: Callable[[], Any]) -> None:
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == message


def test_dtype_dispatch_errors() -> None:
    b = torch.tensor([True, False])
    i = torch.tensor([1, 2])
    f = torch.tensor([1.0, 2.0])
    _raises(NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'", lambda: b.abs())
    _raises(NotImplementedError, "\"floor_vml_cpu\" not implemented for 'Bool'", b.floor)
    _raises(NotImplementedError, "\"frac_cpu\" not implemented for 'Long'", i.frac)
    _raises(
        NotImplementedError, "\"round_cpu\" not implemented for 'Long'", lambda: i.round(decimals=1)
    )
    _raises(NotImplementedError, "\"hypot_cpu\" not implemented for 'Long'", lambda: i.hypot(i))
    _raises(
        NotImplementedError,
        "\"lerp_kernel_scalar\" not implemented for 'Long'",
        lambda: i.lerp(i, 0.5),
    )
    _raises(NotImplementedError, "\"bitwise_and_cpu\" not implemented for 'Float'", lambda: f & f)
    _raises(NotImplementedError, "\"bitwise_not_cpu\" not implemented for 'Float'", f.bitwise_not)
    _raises(
        TypeError,
        "~ (operator.invert) is only implemented on integer and Boolean-type tensors",
        lambda: ~f,
    )
    _raises(NotImplementedError, "\"div_floor_cpu\" not implemented for 'Bool'", lambda: b // b)


def test_division_errors() -> None:
    i = torch.tensor([1, 2])
    _raises(RuntimeError, "ZeroDivisionError", lambda: i // torch.tensor([1, 0]))
    _raises(RuntimeError, "ZeroDivisionError", lambda: i % 0)
    _raises(RuntimeError, "ZeroDivisionError", lambda: torch.div(i, 0, rounding_mode="trunc"))
    _raises(
        RuntimeError,
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'bad'",
        lambda: torch.div(i, 2, rounding_mode="bad"),
    )
    # float division by zero is not an error
    assert torch.tensor([1.0, -1.0]).div(0.0, rounding_mode="floor").tolist() == [
        math.inf,
        -math.inf,
    ]


def test_argument_errors() -> None:
    f = torch.tensor([1.0, 2.0])
    i = torch.tensor([1, 2])
    _raises(
        RuntimeError,
        "torch.clamp: At least one of 'min' or 'max' must not be None",
        lambda: f.clamp(),
    )
    _raises(
        RuntimeError,
        "masked_fill_ only supports boolean masks, but got mask with dtype long int",
        lambda: f.masked_fill(i, 1.0),
    )
    _raises(
        RuntimeError,
        "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 "
        "dimension(s).",
        lambda: f.masked_fill(torch.tensor([True, False]), f),
    )
    _raises(
        RuntimeError,
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
        "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
        "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
        "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
        "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
        "for all dtypes.",
        lambda: torch.addcdiv(i, i, i),
    )
    _raises(
        RuntimeError,
        "expected dtype float for `end` but got dtype double",
        lambda: torch.lerp(f, f.double(), 0.5),
    )
    _raises(
        RuntimeError,
        "expected dtype float for `weight` but got dtype double",
        lambda: torch.lerp(f, f, f.double()),
    )
    _raises(RuntimeError, "Long did not match Float", lambda: torch.isclose(i, f))
    _raises(
        RuntimeError,
        "rtol must be greater than or equal to zero, but got -1",
        lambda: torch.isclose(f, f, rtol=-1),
    )
    _raises(
        TypeError,
        "maximum(): argument 'other' (position 2) must be Tensor, not int",
        lambda: torch.maximum(f, 1),
    )
    _raises(
        TypeError,
        "logical_and(): argument 'other' (position 2) must be Tensor, not int",
        lambda: torch.logical_and(f, 1),
    )
    _raises(
        RuntimeError,
        "output with shape [2] doesn't match the broadcast shape [2, 2]",
        lambda: f.clone().masked_fill_(torch.tensor([[True], [False]]), 3.0),
    )


def test_out_argument() -> None:
    x = torch.tensor([0.25, 4.0])
    out = torch.empty(2)
    assert torch.sqrt(x, out=out) is out
    assert out.tolist() == [0.5, 2.0]
    _raises(
        RuntimeError,
        "sqrt(): functions with out=... arguments don't support automatic differentiation, but "
        "one of the arguments requires grad.",
        lambda: torch.sqrt(x.requires_grad_(), out=out),
    )


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_number_operands_give_numpys_weak_scalar_results_bit_for_bit(dtype: Any) -> None:
    # Note [Number operands]: a Python number reaches the ufunc as a 0-d array of the tensor's
    # dtype; the values must equal numpy's own weak-scalar arithmetic exactly, sign of zero,
    # NaN and overflow included. Except float16 mul and true division, which read the number
    # in float and round the float32 result once, as torch's kernels do (Note [Numbers in
    # float] in registry.py)
    def in_float(op: Any, a: Any, b: Any) -> Any:
        if dtype is not np.float16:
            return op(a, b)
        wide = [np.float32(v) if np.ndim(v) == 0 else v.astype(np.float32) for v in (a, b)]
        return op(*wide).astype(np.float16)

    rng = np.random.default_rng(0)
    data = np.concatenate(
        [rng.standard_normal(16) * 100, [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 6e4]]
    ).astype(dtype)
    numbers = [0.1, -0.0, 0.0, 1.0001, 3, -7, 2**52 + 1, 1e300, float("nan"), 1e-320]
    x = torch.tensor(data)
    with np.errstate(all="ignore"):
        for v in numbers:
            for got, want in [
                (x + v, np.add(data, v)),
                (x - v, np.subtract(data, v)),
                (v - x, np.subtract(v, data)),
                (x * v, in_float(np.multiply, data, v)),
                (x / v if v else x / 1.5, in_float(np.true_divide, data, v if v else 1.5)),
            ]:
                g = got.numpy()
                assert g.dtype == want.dtype
                np.testing.assert_array_equal(g, want)
                np.testing.assert_array_equal(np.signbit(g), np.signbit(want))
