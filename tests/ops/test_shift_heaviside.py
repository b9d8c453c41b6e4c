"""Bit shifts and heaviside, checked against Python's integer arithmetic and their definitions."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import forward_ad as fwAD

WIDTHS = {sg.int8: 8, sg.int16: 16, sg.int32: 32, sg.int64: 64, sg.uint8: 8}


def _wrap(v: int, bits: int, signed: bool) -> int:
    v %= 1 << bits
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def _lshift(a: int, b: int, bits: int, signed: bool) -> int:
    return 0 if not 0 <= b < bits else _wrap(a << b, bits, signed)


def _rshift(a: int, b: int, bits: int, signed: bool) -> int:
    if not 0 <= b < bits:
        return -1 if a < 0 else 0
    return a >> b  # Python's >> is arithmetic (floor division by 2**b)


@pytest.mark.parametrize("dtype", list(WIDTHS), ids=str)
def test_shifts_match_integer_arithmetic(dtype: sg.dtype) -> None:
    bits = WIDTHS[dtype]
    signed = dtype is not sg.uint8
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    values = sorted({lo, hi, 0, 1, 3, min(hi, 100), max(lo, -7), -1 if signed else 2})
    counts = sorted(
        {0, 1, bits - 1, bits, bits + 1, 2 * bits, min(hi, 100)} | ({-1} if signed else set())
    )
    pairs = list(itertools.product(values, counts))
    a = sg.tensor([p[0] for p in pairs], dtype=dtype)
    b = sg.tensor([p[1] for p in pairs], dtype=dtype)
    left, right = sg.bitwise_left_shift(a, b), sg.bitwise_right_shift(a, b)
    assert left.dtype is dtype and right.dtype is dtype
    assert left.tolist() == [_lshift(x, y, bits, signed) for x, y in pairs]
    assert right.tolist() == [_rshift(x, y, bits, signed) for x, y in pairs]
    assert (a << b).tolist() == left.tolist() and (a >> b).tolist() == right.tolist()


def test_python_numbers_take_the_tensors_dtype_wrapping() -> None:
    t = sg.tensor([3, -100], dtype=sg.int8)
    assert (t << 2).dtype is sg.int8
    assert (t << 2).tolist() == [_lshift(3, 2, 8, True), _lshift(-100, 2, 8, True)]
    # 300 wraps to 44 in int8: a count past the width
    assert (t << 300).tolist() == [0, 0]
    assert (t >> 300).tolist() == [0, -1]
    # 200 wraps to -56 in int8; reflected operators put the number on the left
    n = sg.tensor([3], dtype=sg.int8)
    assert (200 >> n).tolist() == [_rshift(-56, 3, 8, True)]
    assert (2 << n).tolist() == [16] and (2 << n).dtype is sg.int8
    assert sg.bitwise_left_shift(2, n).tolist() == [16]
    assert (sg.tensor([3], dtype=sg.uint8) << 2**40).tolist() == [3]  # 2**40 wraps to 0


def test_promotion() -> None:
    i8, u8, i64 = sg.int8, sg.uint8, sg.int64
    assert (sg.tensor([3], dtype=i8) << sg.tensor([2])).dtype is i64
    assert (sg.tensor([3], dtype=u8) << sg.tensor([2], dtype=i8)).dtype is sg.int16
    assert (sg.tensor([3], dtype=i8) << sg.tensor(2)).dtype is i8  # a 0-d tensor does not win
    assert (sg.tensor([True]) << 1).dtype is i64
    r = sg.tensor([200], dtype=u8) >> sg.tensor([-1])
    assert r.dtype is i64 and r.tolist() == [0]


@pytest.mark.parametrize(
    "make",
    [
        lambda: sg.tensor([1.5]) << 1,
        lambda: sg.tensor([1]) << 1.5,
        lambda: sg.tensor([True]) >> sg.tensor([True]),
        lambda: 1.5 << sg.tensor([1]),
        lambda: sg.tensor([1.0], requires_grad=True) << 2,
    ],
)
def test_non_integer_results_are_not_implemented(make) -> None:
    with pytest.raises(NotImplementedError, match=r'"[lr]shift_cpu" not implemented for'):
        make()


def test_unsupported_operands_give_type_error() -> None:
    with pytest.raises(TypeError, match="unsupported operand"):
        sg.tensor([1]) << "a"
    with pytest.raises(TypeError, match="invalid combination"):
        sg.bitwise_left_shift(2, 3)


def test_in_place_shifts() -> None:
    y = sg.tensor([1, 2, -3], dtype=sg.int8)
    v = y._version
    y <<= sg.tensor([1, 9, 1])  # int64 counts, cast back into int8
    assert y.dtype is sg.int8 and y.tolist() == [2, 0, -6] and y._version == v + 1
    y >>= 1
    assert y.tolist() == [1, 0, -3]
    assert y.bitwise_left_shift_(2) is y and y.tolist() == [4, 0, -12]
    assert y.bitwise_right_shift_(sg.tensor([2])).tolist() == [1, 0, -3]
    z = sg.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired"):
        z <<= 1.5
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        z.bitwise_right_shift_(sg.tensor([[1], [2]]))


def _heaviside_ref(x: float, v: float) -> float:
    if x == 0:
        return v
    return 1.0 if x > 0 else 0.0  # NaN compares false both ways: 0


def test_heaviside_values() -> None:
    xs = [-1.5, 0.0, -0.0, 2.0, math.nan, math.inf, -math.inf]
    for dtype in (sg.float32, sg.float64):
        r = sg.heaviside(sg.tensor(xs, dtype=dtype), sg.tensor([0.25], dtype=dtype))
        assert r.dtype is dtype
        assert r.tolist() == [_heaviside_ref(x, 0.25) for x in xs]
    r = sg.tensor([-1, 0, 3]).heaviside(sg.tensor([7]))
    assert r.dtype is sg.int64 and r.tolist() == [0, 7, 1]
    b = sg.heaviside(sg.ones(2, 1), sg.tensor([1.0, 2.0, 3.0]))
    assert b.shape == (2, 3)


def test_heaviside_errors() -> None:
    with pytest.raises(RuntimeError, match="different dtypes"):
        sg.heaviside(sg.tensor([0.0]), sg.tensor([1.0], dtype=sg.float64))
    with pytest.raises(RuntimeError, match="complex"):
        sg.heaviside(sg.tensor([1 + 1j]), sg.tensor([1 + 1j]))
    with pytest.raises(TypeError, match=r"argument 'values' \(position 2\) must be Tensor"):
        sg.heaviside(sg.tensor([0.0]), 0.5)
    with pytest.raises(TypeError, match=r"heaviside_\(\): argument 'values' \(position 1\)"):
        sg.tensor([0.0]).heaviside_(0.5)


def test_heaviside_has_no_derivative() -> None:
    x = sg.tensor([0.0, 1.0], requires_grad=True)
    v = sg.tensor([0.5])
    r = sg.heaviside(x, v)
    assert r.requires_grad and type(r.grad_fn).__name__ == "NotImplemented"
    assert len(r.grad_fn.next_functions) == 1  # an edge only for the input requiring grad
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        r.sum().backward()
    y = x.clone()
    y.heaviside_(v)
    assert y.tolist() == [0.5, 1.0]
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside_ is not implemented"):
        y.sum().backward()
    with sg.no_grad():
        assert not sg.heaviside(x, v).requires_grad


def test_heaviside_forward_ad_raises() -> None:
    with fwAD.dual_level():
        d = fwAD.make_dual(sg.tensor([0.0, 1.0]), sg.ones(2))
        with pytest.raises(NotImplementedError, match="aten::heaviside that does not support"):
            sg.heaviside(d, sg.tensor([1.0]))
        with pytest.raises(NotImplementedError, match="aten::heaviside_ that does not support"):
            sg.tensor([0.0, 1.0]).heaviside_(d)
        plain = sg.heaviside(sg.tensor([0.0]), sg.tensor([1.0]))
        assert fwAD.unpack_dual(plain).tangent is None
    assert np.array_equal(plain.numpy(), [1.0])


def test_in_place_bitwise_ops_check_the_result_cast_first() -> None:
    y = sg.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired"):
        y &= 1.5
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired"):
        sg.tensor([True, False]).bitwise_or_(1)
    with pytest.raises(NotImplementedError, match="bitwise_xor_cpu"):
        sg.tensor([1.0]).bitwise_xor_(1)
    z = sg.tensor([1, 2], dtype=sg.int8)
    z ^= sg.tensor([3])  # int64 result cast back into int8
    assert z.dtype is sg.int8 and z.tolist() == [1 ^ 3, 2 ^ 3]
