"""Pointwise ops: arithmetic, unary math, activations.

Each op is declared once with its forward and one formula per differentiable input, written in
shadowgrad ops so double backward works. Broadcast gradients are reduced by the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from .registry import defop, result_type_of

# --- binary arithmetic --------------------------------------------------------------------

_add = defop(
    "add.Tensor",
    "AddBackward0",
    lambda self, other, alpha: np.add(self, other) if alpha == 1 else self + alpha * other,
    self=lambda grad: grad,
    other=lambda grad, alpha: grad if alpha == 1 else grad * alpha,
)
_sub = defop(
    "sub.Tensor",
    "SubBackward0",
    lambda self, other, alpha: np.subtract(self, other) if alpha == 1 else self - alpha * other,
    self=lambda grad: grad,
    other=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha,
)
_rsub = defop(
    "rsub.Scalar",
    "RsubBackward1",
    lambda self, other, alpha: np.subtract(other, self) if alpha == 1 else other - alpha * self,
    nondiff=("other",),
    self=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha,
)
_mul = defop(
    "mul.Tensor",
    "MulBackward0",
    lambda self, other: np.multiply(self, other),
    self=lambda grad, other: grad * other,
    other=lambda grad, self: grad * self,
)
_div = defop(
    "div.Tensor",
    "DivBackward0",
    lambda self, other: np.true_divide(self, other),
    dtype="float",
    self=lambda grad, other: grad / other,
    other=lambda grad, self, other: -grad * self / (other * other),
)
# x ** scalar: the exponent is a saved Python number; x**0 has grad 0 everywhere (torch).
_pow_scalar = defop(
    "pow.Tensor_Scalar",
    "PowBackward0",
    lambda self, exponent: np.power(self, exponent),
    dtype="keep",
    self=lambda grad, self, exponent: _pow_scalar_grad(grad, self, exponent),
)
_pow_tensor = defop(
    "pow.Tensor_Tensor",
    "PowBackward1",
    lambda self, exponent: np.power(self, exponent),
    self=lambda grad, self, exponent: _pow_scalar_grad(grad, self, exponent),
    exponent=lambda grad, self, exponent, result: _pow_exponent_grad(grad, self, exponent, result),
)
_pow_scalar_base = defop(
    "pow.Scalar",
    "PowBackward2",
    lambda self, exponent: np.power(self, exponent),
    nondiff=("self",),
    exponent=lambda grad, self, exponent, result: _pow_exponent_grad(grad, self, exponent, result),
)


def _pow_scalar_grad(grad: Tensor, self: Tensor, exponent: Any) -> Tensor:
    if isinstance(exponent, Tensor):
        # base grad where the exponent is 0 is 0, as in torch's pow_backward_self
        g = grad * exponent * pow(self, exponent - 1)
        return where(exponent == 0, 0.0, g)
    if exponent == 0:
        return grad * 0
    return grad * (exponent * pow(self, exponent - 1))


def _pow_exponent_grad(grad: Tensor, self: Tensor, exponent: Tensor, result: Tensor) -> Tensor:
    # d/dy x**y = x**y * log(x), masked to 0 where x == 0 and y >= 0 (torch's
    # pow_backward_exponent), so 0**y has a finite exponent grad.
    g = grad * (result * log(self))
    return where((self == 0) & (exponent >= 0), 0.0, g)


def add(input: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.add`."""
    if not isinstance(input, Tensor):
        return _add(other, input, alpha) if alpha == 1 else _add(_wrap(input), other, alpha)
    return _out(_add(input, other, alpha), out, "add")


def sub(input: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.sub`."""
    _check_bool_sub(input, other)
    return _out(_sub(input, other, alpha), out, "sub")


subtract = sub


def rsub(input: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """Mirrors `torch.rsub`: other - alpha * input."""
    return _rsub(input, other, alpha)


def mul(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.mul`."""
    if not isinstance(input, Tensor):
        input, other = other, input
    return _out(_mul(input, other), out, "mul")


multiply = mul


def div(
    input: Any, other: Any, *, rounding_mode: str | None = None, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.div`."""
    if rounding_mode is None:
        if not isinstance(input, Tensor):
            return mul(reciprocal(other), input)
        return _out(_div(input, other), out, "div")
    return _out(_div_rounded(input, other, rounding_mode), out, "div")


divide = div
true_divide = div


def pow(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.pow`."""
    if not isinstance(input, Tensor):
        return _out(_pow_scalar_base(input, exponent), out, "pow")
    if isinstance(exponent, Tensor):
        return _out(_pow_tensor(input, exponent), out, "pow")
    dt = result_type_of([input, exponent])
    if dt._cat == 1 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    x = input if input.dtype is dt else input.to(dt)
    return _out(_pow_scalar(x, exponent), out, "pow")


def square(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.square` (recorded as PowBackward0, as in torch)."""
    if input.dtype is D.bool_:
        input = input.to(D.int64)
    return pow(input, 2, out=out)


def _wrap(v: Any) -> Tensor:
    from .._creation import tensor

    return tensor(v)


def _check_bool_sub(a: Any, b: Any) -> None:
    if (isinstance(a, Tensor) and a.dtype is D.bool_) or (
        isinstance(b, Tensor) and b.dtype is D.bool_
    ):
        other_bool = (not isinstance(b, Tensor) and isinstance(b, bool)) or (
            isinstance(b, Tensor) and b.dtype is D.bool_
        )
        if isinstance(a, Tensor) and a.dtype is D.bool_ and other_bool:
            raise RuntimeError(
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                "`^` or `logical_xor()` operator instead."
            )
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def _out(result: Tensor, out: Tensor | None, name: str) -> Tensor:
    """Write `result` into a user-given `out=` tensor, with torch's autograd restriction."""
    if out is None:
        return result
    from .. import _grad_mode

    if _grad_mode.STATE.grad and (result._rg or out._rg):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if out._data.shape != result._data.shape:
        out._data = np.empty(result._data.shape, out._data.dtype)
    np.copyto(out._data, result._data, casting="unsafe")
    out._bump()
    return out


# --- unary math ---------------------------------------------------------------------------

neg = defop(
    "neg", "NegBackward0", lambda self: np.negative(self), dtype="keep", self=lambda grad: -grad
)
exp = defop(
    "exp",
    "ExpBackward0",
    lambda self: np.exp(self),
    dtype="float",
    self=lambda grad, result: grad * result,
)
log = defop(
    "log",
    "LogBackward0",
    lambda self: np.log(self),
    dtype="float",
    self=lambda grad, self: grad / self,
)
reciprocal = defop(
    "reciprocal",
    "ReciprocalBackward0",
    lambda self: np.reciprocal(self),
    dtype="float",
    self=lambda grad, result: -grad * (result * result),
)
tanh = defop(
    "tanh",
    "TanhBackward0",
    lambda self: np.tanh(self),
    dtype="float",
    self=lambda grad, result: _tanh_backward(grad, result),
)
sigmoid = defop(
    "sigmoid",
    "SigmoidBackward0",
    lambda self: _np_sigmoid(self),
    dtype="float",
    self=lambda grad, result: _sigmoid_backward(grad, result),
)
# relu: grad is zeroed where result <= 0 (so 0 at 0, and 1 at NaN, as torch's threshold_backward)
relu = defop(
    "relu",
    "ReluBackward0",
    lambda self: np.maximum(self, 0, dtype=self.dtype) if self.dtype != np.bool_ else self,
    dtype="keep",
    self=lambda grad, result: _threshold_backward(grad, result, 0),
)

_tanh_bw = defop(
    "tanh_backward",
    "TanhBackwardBackward0",
    lambda grad_output, output: grad_output * (1 - output * output),
    grad_output=lambda grad, output: grad * (1 - output * output),
    output=lambda grad, grad_output, output: -2 * grad * grad_output * output,
)
_sigmoid_bw = defop(
    "sigmoid_backward",
    "SigmoidBackwardBackward0",
    lambda grad_output, output: grad_output * (output * (1 - output)),
    grad_output=lambda grad, output: grad * (output * (1 - output)),
    output=lambda grad, grad_output, output: grad * grad_output * (1 - 2 * output),
)
_threshold_bw = defop(
    "threshold_backward",
    "ThresholdBackwardBackward0",
    lambda grad_output, self, threshold: np.where(self <= threshold, 0, grad_output).astype(
        grad_output.dtype, copy=False
    ),
    grad_output=lambda grad, self, threshold: _threshold_backward(grad, self, threshold),
    self=lambda grad: grad * 0,
)


def _tanh_backward(grad: Tensor, result: Tensor) -> Tensor:
    return _tanh_bw(grad, result)


def _sigmoid_backward(grad: Tensor, result: Tensor) -> Tensor:
    return _sigmoid_bw(grad, result)


def _threshold_backward(grad: Tensor, result: Tensor, threshold: float) -> Tensor:
    return _threshold_bw(grad, result, threshold)


def _np_sigmoid(x: np.ndarray) -> np.ndarray:
    # stable for large |x|: exp is only taken of non-positive numbers
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


# --- comparisons and masks used by formulas (non-differentiable outputs) --------------------

_eq = defop(
    "eq.Tensor", "EqBackward0", lambda self, other: np.equal(self, other), nondiff=("self", "other")
)
_ne = defop(
    "ne.Tensor",
    "NeBackward0",
    lambda self, other: np.not_equal(self, other),
    nondiff=("self", "other"),
)
_lt = defop(
    "lt.Tensor", "LtBackward0", lambda self, other: np.less(self, other), nondiff=("self", "other")
)
_le = defop(
    "le.Tensor",
    "LeBackward0",
    lambda self, other: np.less_equal(self, other),
    nondiff=("self", "other"),
)
_gt = defop(
    "gt.Tensor",
    "GtBackward0",
    lambda self, other: np.greater(self, other),
    nondiff=("self", "other"),
)
_ge = defop(
    "ge.Tensor",
    "GeBackward0",
    lambda self, other: np.greater_equal(self, other),
    nondiff=("self", "other"),
)
isinf = defop(
    "isinf", "IsinfBackward0", lambda self: np.isinf(self), dtype="keep", nondiff=("self",)
)
isnan = defop(
    "isnan", "IsnanBackward0", lambda self: np.isnan(self), dtype="keep", nondiff=("self",)
)
_logical_and = defop(
    "bitwise_and",
    "BitwiseAndBackward0",
    lambda self, other: np.bitwise_and(self, other),
    nondiff=("self", "other"),
)
_logical_or = defop(
    "bitwise_or",
    "BitwiseOrBackward0",
    lambda self, other: np.bitwise_or(self, other),
    nondiff=("self", "other"),
)
_logical_xor = defop(
    "bitwise_xor",
    "BitwiseXorBackward0",
    lambda self, other: np.bitwise_xor(self, other),
    nondiff=("self", "other"),
)
_invert = defop(
    "bitwise_not",
    "BitwiseNotBackward0",
    lambda self: np.invert(self),
    dtype="keep",
    nondiff=("self",),
)


def eq(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.eq`."""
    return _eq(input, other)


def ne(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.ne`."""
    return _ne(input, other)


def lt(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.lt`."""
    return _lt(input, other)


def le(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.le`."""
    return _le(input, other)


def gt(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.gt`."""
    return _gt(input, other)


def ge(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.ge`."""
    return _ge(input, other)


def bitwise_not(input: Tensor) -> Tensor:
    """Mirrors `torch.bitwise_not`."""
    if input.dtype.is_floating_point:
        raise RuntimeError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return _invert(input)


# where: the untaken branch still receives a zero grad through its own formula (torch's NaN trap)
_where = defop(
    "where.self",
    "WhereBackward0",
    lambda condition, self, other: np.where(condition, self, other),
    nondiff=("condition",),
    self=lambda grad, condition: _where(condition, grad, 0.0),
    other=lambda grad, condition: _where(condition, 0.0, grad),
)


def where(condition: Tensor, input: Any = None, other: Any = None) -> Any:
    """Mirrors `torch.where`."""
    if input is None and other is None:
        from .indexing import nonzero

        return nonzero(condition, as_tuple=True)
    if condition.dtype is not D.bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype._short}"
        )
    return _where(condition, input, other)


# --- Tensor methods -----------------------------------------------------------------------


def _radd(self: Tensor, other: Any) -> Tensor:
    return _add(self, other, 1)


def _rsub_method(self: Tensor, other: Any) -> Tensor:
    _check_bool_sub(self, other)
    return _rsub(self, other, 1)


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return mul(reciprocal(self), other)


def _rpow(self: Tensor, other: Any) -> Tensor:
    return _pow_scalar_base(other, self)


def _neg_method(self: Tensor) -> Tensor:
    if self.dtype is D.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return neg(self)


def _binop_check(fn: Any) -> Any:
    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, bool, int, float, complex, np.generic)):
            return NotImplemented
        return fn(self, other)

    method.__name__ = fn.__name__
    return method


def _div_rounded(input: Any, other: Any, rounding_mode: str) -> Tensor:
    from . import rounding

    return rounding.div_rounded(input, other, rounding_mode)


METHODS = {
    "add": add,
    "sub": sub,
    "subtract": sub,
    "mul": mul,
    "multiply": mul,
    "div": div,
    "divide": div,
    "true_divide": div,
    "pow": pow,
    "square": square,
    "neg": _neg_method,
    "negative": _neg_method,
    "exp": exp,
    "log": log,
    "reciprocal": reciprocal,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "eq": eq,
    "ne": ne,
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "isinf": isinf,
    "isnan": isnan,
    "bitwise_not": bitwise_not,
    "__add__": _binop_check(_radd),
    "__radd__": _binop_check(_radd),
    "__sub__": _binop_check(lambda s, o: sub(s, o)),
    "__rsub__": _binop_check(_rsub_method),
    "__mul__": _binop_check(lambda s, o: _mul(s, o)),
    "__rmul__": _binop_check(lambda s, o: _mul(s, o)),
    "__truediv__": _binop_check(lambda s, o: _div(s, o)),
    "__rtruediv__": _binop_check(_rtruediv),
    "__pow__": _binop_check(pow),
    "__rpow__": _binop_check(_rpow),
    "__neg__": _neg_method,
    "__pos__": lambda self: self,
    "__eq__": _binop_check(eq),
    "__ne__": _binop_check(ne),
    "__lt__": _binop_check(lt),
    "__le__": _binop_check(le),
    "__gt__": _binop_check(gt),
    "__ge__": _binop_check(ge),
    "__and__": _binop_check(lambda s, o: _logical_and(s, o)),
    "__or__": _binop_check(lambda s, o: _logical_or(s, o)),
    "__xor__": _binop_check(lambda s, o: _logical_xor(s, o)),
    "__rand__": _binop_check(lambda s, o: _logical_and(s, o)),
    "__ror__": _binop_check(lambda s, o: _logical_or(s, o)),
    "__rxor__": _binop_check(lambda s, o: _logical_xor(s, o)),
    "__invert__": bitwise_not,
}

FUNCTIONS = {
    "add": add,
    "sub": sub,
    "subtract": sub,
    "rsub": rsub,
    "mul": mul,
    "multiply": mul,
    "div": div,
    "divide": div,
    "true_divide": div,
    "pow": pow,
    "square": square,
    "neg": neg,
    "negative": neg,
    "exp": exp,
    "log": log,
    "reciprocal": reciprocal,
    "tanh": tanh,
    "sigmoid": sigmoid,
    "relu": relu,
    "eq": eq,
    "ne": ne,
    "lt": lt,
    "le": le,
    "gt": gt,
    "ge": ge,
    "greater": gt,
    "less": lt,
    "isinf": isinf,
    "isnan": isnan,
    "where": where,
    "bitwise_not": bitwise_not,
}
