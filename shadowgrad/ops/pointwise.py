"""Pointwise ops: arithmetic, unary math (trig, hyperbolic, erf family, logit), binary math
(atan2, hypot, logaddexp, xlogy, copysign, maximum/fmax, lerp, addcmul/addcdiv), clamp,
masked_fill, activations, comparisons, predicates, logical and bitwise ops.

Each op is declared once with its forward and one formula per differentiable input, written in
shadowgrad ops so double backward works. Broadcast gradients are reduced by the engine.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _rng_kernels as _rk
from .._tensor import Tensor, _make
from ..autograd import forward_ad as _fwad
from ..autograd.forward_ad import ELEMENTWISE, LINEAR, _plus
from ..autograd.graph import VersionCounter
from . import _fmath as _fm
from . import _specfun
from ._util import autograd_checks_first
from .registry import ARRAY_OUT as _ARRAY_OUT  # a 0-d array, not a scalar: Note [0-d results]
from .registry import defop, infer_size, result_type_of, show_saved

_FW = _fwad._STATE

# --- forward-mode rules (torch's `result:` formulas of derivatives.yaml) ---------------------
# A rule reads forward parameters, `result` and `<input>_t` tangents (None when an input has
# none); ELEMENTWISE reuses the backward formulas with the tangent as the gradient (torch's
# auto_element_wise), LINEAR applies the op to the tangents (auto_linear).


def _tz(t: Tensor | None, like: Any) -> Any:
    """A tangent, or zeros where the input has none (torch materializes them as zeros)."""
    if t is not None:
        return t
    return _zeros_like(like) if isinstance(like, Tensor) else 0.0


def _scaled(t: Tensor | None, alpha: Any) -> Tensor | None:
    """torch's maybe_multiply: t * alpha, skipped when alpha is 1."""
    if t is None or alpha is None or alpha == 1:
        return t
    return t * alpha


def _add_t(self_t: Any, other_t: Any, alpha: Any) -> Any:
    return _plus(self_t, _scaled(other_t, alpha))


def _sub_t(self_t: Any, other_t: Any, alpha: Any) -> Any:
    if other_t is None:
        return self_t
    other_t = _scaled(other_t, alpha)
    return -other_t if self_t is None else self_t - other_t


def _rsub_t(self_t: Any, other_t: Any, alpha: Any) -> Any:
    return _plus(None if self_t is None else -_scaled(self_t, alpha), other_t)


def _mul_t(self: Any, other: Any, self_t: Any, other_t: Any) -> Any:
    # torch's other_t * self_p + self_t * other_p, zero terms included (Note [Zero tangents])
    Z = _fwad.ZeroTerm
    return _fwad.add_terms(
        Z(lambda z: z * self, other, self) if other_t is None else other_t * self,
        Z(lambda z: z * other, self, other) if self_t is None else self_t * other,
    )


def _div_t(self: Any, self_t: Any, other_t: Any, other: Any, result: Any) -> Any:
    # (self_t - other_t * result) / other, zero terms included (Note [Zero tangents])
    Z = _fwad.ZeroTerm
    num = _fwad.add_terms(
        Z(lambda z: z, self, ()) if self_t is None else self_t,
        Z(lambda z: -(z * result), other, result) if other_t is None else -(other_t * result),
    )
    return num / other


def _tanh_bw_t(grad_output: Any, output: Any, grad_output_t: Any, output_t: Any) -> Any:
    a = None if grad_output_t is None else _tanh_bw(grad_output_t, output)
    return _plus(a, None if output_t is None else output_t * (-2 * output * grad_output))


def _sigmoid_bw_t(grad_output: Any, output: Any, grad_output_t: Any, output_t: Any) -> Any:
    a = None if grad_output_t is None else _sigmoid_bw(grad_output_t, output)
    return _plus(a, None if output_t is None else output_t * grad_output * (-2 * output + 1))


def _threshold_bw_t(grad_output: Any, self: Any, threshold: Any, grad_output_t: Any) -> Any:
    if grad_output_t is None:
        return _zeros_like(self)
    return _threshold_bw(grad_output_t, self, threshold)


def _atan2_t(self: Any, other: Any, self_t: Any, other_t: Any) -> Any:
    # (-self * other_t + other * self_t) / (self^2 + other^2): nan at the origin, as torch's
    num = _plus(
        None if other_t is None else -self * other_t, None if self_t is None else other * self_t
    )
    return num / (pow(self, 2) + pow(other, 2))


def _hypot_t(self: Any, other: Any, result: Any, self_t: Any, other_t: Any) -> Any:
    return _plus(
        None if self_t is None else self_t * self / result,
        None if other_t is None else other_t * other / result,
    )


def _max_min_t(self: Any, other: Any, result: Any, self_t: Any, other_t: Any, pick: Any) -> Any:
    # other_t + w * (self_t - other_t), w = 0.5 at ties, 1 where self is picked (0 at a NaN)
    st, ot = _tz(self_t, self), _tz(other_t, other)
    w = _where(self == other, 0.5, pick.to(result.dtype))
    return ot + w * (st - ot)


def _fmax_fmin_t(self: Any, other: Any, result: Any, self_t: Any, other_t: Any, pick: Any) -> Any:
    # other_t + (pick | isnan(other)) * (self_t - other_t)
    st, ot = _tz(self_t, self), _tz(other_t, other)
    return ot + (pick | isnan(other)).to(result.dtype) * (st - ot)


def _lerp_t(self: Any, end: Any, weight: Any, self_t: Any, end_t: Any, weight_t: Any) -> Any:
    r = None
    if self_t is not None or end_t is not None:
        r = _lerp_tensor(_tz(self_t, self), _tz(end_t, end), weight)
    return _plus(r, None if weight_t is None else weight_t * (end - self))


def _addcdiv_t(
    tensor1: Any, tensor2: Any, value: Any, self_t: Any, tensor1_t: Any, tensor2_t: Any
) -> Any:
    # self_t + value * (tensor1_t / tensor2) - value * (tensor2_t * (tensor1 / tensor2) / tensor2)
    r = _plus(self_t, None if tensor1_t is None else _scaled(tensor1_t / tensor2, value))
    if tensor2_t is not None:
        d = _scaled(tensor2_t * (tensor1 / tensor2) / tensor2, value)
        r = -d if r is None else r - d
    return r


def _masked_fill_t(self: Any, mask: Any, value: Any, self_t: Any, value_t: Any) -> Any:
    return _masked_fill_tensor(_tz(self_t, self), mask, _tz(value_t, value))


def _clamp_tensor_t(
    self: Any, min: Any, max: Any, self_t: Any, min_t: Any, max_t: Any, result: Any
) -> Any:
    # torch's clamp_jvp: the tangent of whichever operand the result came from
    st = _tz(self_t, self)
    if min is not None and max is not None:
        mt, xt = _tz(min_t, min), _tz(max_t, max)
        return _where(min > max, xt, _where(self < min, mt, _where(self > max, xt, st)))
    if min is not None:
        return _where(self > min, st, _tz(min_t, min))
    if max is not None:
        return _where(self < max, st, _tz(max_t, max))
    return st


# --- binary arithmetic --------------------------------------------------------------------


def _add_scaled(self: np.ndarray, other: Any, alpha: Any) -> np.ndarray:
    if self.dtype == np.bool_:  # torch's bool add: self or (other and alpha)
        return np.logical_or(self, np.logical_and(other, bool(alpha)))
    if self.dtype == np.float16 and (type(alpha) is float or type(alpha) is int):
        alpha = _half_number(alpha)
        return _reduced_add_scaled(self, other, alpha, self + alpha * other)
    elif self.dtype is D.LD and not isinstance(alpha, complex):
        # bfloat16: alpha converted to it
        alpha = D.round_bf16(alpha)
        return _reduced_add_scaled(self, other, alpha, self + D.round_bf16(alpha * other))
    if (
        self.dtype == np.float32
        and (type(alpha) is float or type(alpha) is int)
        and type(self) is np.ndarray  # (not a sparse tensor's array)
        and type(other) is np.ndarray
        and other.dtype == np.float32
    ):
        # torch's float32 add(alpha=): alpha as float, self + alpha * other one fused
        # multiply-add (its vectorized and scalar loops alike; the float products are exact in
        # float64)
        g = np.float64
        return (self.astype(g) + g(np.float32(alpha)) * np.asarray(other, g)).astype(np.float32)
    return self + alpha * other


def _vector_lanes_merge(self: np.ndarray, fused: Any, scalar: Any) -> Any:
    """`fused` where torch's vectorized loop writes (contiguous operands: each parallel chunk
    but its last length % width elements), `scalar` (its scalar loop's values) elsewhere."""
    n = np.size(scalar)
    if n < _VEC_WIDTH or not self.flags.c_contiguous:
        return scalar
    fused = np.asarray(fused).reshape(-1)
    out = np.array(scalar, dtype=np.asarray(scalar).dtype).reshape(-1)
    for start, stop in _parallel_chunks(n):
        stop = start + (stop - start) // _VEC_WIDTH * _VEC_WIDTH
        out[start:stop] = fused[start:stop]
    return out.reshape(np.shape(scalar))


def _reduced_add_scaled(self: np.ndarray, other: Any, alpha: Any, scalar: np.ndarray) -> Any:
    """torch's add(alpha=) on float16 / bfloat16 (alpha already converted to the dtype):
    `scalar` is its scalar loop's result (the product rounded to the dtype, then the sum); its
    vectorized loop (Vectorized<Half/BFloat16>, two float vectors a step) computes
    self + alpha * other in float and rounds once. The vectorized loop runs where the operands
    are contiguous: over each parallel chunk of the elements but its last (length % width),
    which the scalar loop finishes. Other layouts keep the scalar loop's values."""
    n = scalar.size
    if n < _VEC_WIDTH or not (
        self.flags.c_contiguous
        and (np.ndim(other) == 0 or (np.shape(other) == self.shape and other.flags.c_contiguous))
    ):
        return scalar
    if self.dtype == np.float16:
        f = np.float32
        fused = (self.astype(f) + np.float32(alpha) * np.asarray(other, dtype=f)).astype(self.dtype)
    else:
        fused = D.round_bf16(self + alpha * other)
    return _vector_lanes_merge(self, fused, scalar)


def _parallel_chunks(n: int) -> list[tuple[int, int]]:
    """The ranges at::parallel_for gives its threads over n elements (GRAIN_SIZE 32768): one
    below the grain or with one thread, else get_num_threads() equal chunks."""
    from .. import _runtime

    threads = _runtime.get_num_threads()
    if n < 32768 or threads == 1:
        return [(0, n)]
    tasks = min(threads, -(-n // 32768))
    size = -(-n // tasks)
    return [(s, min(n, s + size)) for s in range(0, n, size)]


def _vec_width() -> int:
    """Elements per step of torch's vectorized float16/bfloat16 CPU loops: two float vectors,
    of 16 lanes where torch runs AVX-512 (the SKX feature set), else 8 (nn_ops._vector_lanes)."""
    try:
        features = np._core._multiarray_umath.__cpu_features__  # type: ignore[attr-defined]
    except AttributeError:
        return 32
    return 32 if features.get("AVX512_SKX") else 16


_VEC_WIDTH = _vec_width()


def _half_number(v: float) -> float:
    """A Python float as c10 converts it to float16: through float (two roundings)."""
    return float(np.float16(np.float32(v)))


_add = defop(
    "add.Tensor",
    "AddBackward0",
    lambda self, other, alpha: (
        np.add(self, other, out=_ARRAY_OUT) if alpha == 1 else _add_scaled(self, other, alpha)
    ),
    self=lambda grad: grad,
    other=lambda grad, alpha: grad if alpha == 1 else grad * alpha,
    raw=True,
    scalar_array=True,
    ufunc=np.add,
    jvp=_add_t,
    complex={"other": lambda grad, alpha: grad if alpha == 1 else grad * alpha.conjugate()},
)
_sub = defop(
    "sub.Tensor",
    "SubBackward0",
    lambda self, other, alpha: (
        np.subtract(self, other)
        if alpha == 1
        else _add_scaled(self, other, -alpha)
        if self.dtype is D.LD or self.dtype == np.float16 or self.dtype == np.float32
        else self - alpha * other
    ),
    self=lambda grad: grad,
    other=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha,
    raw=True,
    scalar_array=True,
    ufunc=np.subtract,
    jvp=_sub_t,
    complex={"other": lambda grad, alpha: -grad if alpha == 1 else grad * -alpha.conjugate()},
)
_rsub = defop(
    "rsub.Scalar",
    "RsubBackward1",
    lambda self, other, alpha: np.subtract(other, self) if alpha == 1 else other - alpha * self,
    nondiff=("other",),
    self=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha,
    raw=True,
    scalar_array=True,
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, alpha: -grad if alpha == 1 else grad * -alpha.conjugate()},
)
_rsub_tensor = defop(
    "rsub.Tensor",
    "RsubBackward0",
    lambda self, other, alpha: np.subtract(other, self) if alpha == 1 else other - alpha * self,
    self=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha,
    other=lambda grad: grad,
    raw=True,
    jvp=_rsub_t,
    complex={"self": lambda grad, alpha: -grad if alpha == 1 else grad * -alpha.conjugate()},
)
# add.Scalar / sub.Scalar: what ATen's C++ `tensor + number` records inside composites (one
# edge; torch's Python `tensor + number` records add.Tensor). For float tensors: the number is
# a weak scalar and the result keeps self's dtype.
add_scalar = defop(
    "add.Scalar",
    "AddBackward1",
    lambda self, other: np.add(self, other).astype(self.dtype, copy=False),
    dtype="keep",
    self=lambda grad: grad,
    jvp=ELEMENTWISE,
    complex=True,
)
sub_scalar = defop(
    "sub.Scalar",
    "SubBackward1",
    lambda self, other: np.subtract(self, other).astype(self.dtype, copy=False),
    dtype="keep",
    self=lambda grad: grad,
    jvp=ELEMENTWISE,
    complex=True,
)
_mul = defop(
    "mul.Tensor",
    "MulBackward0",
    lambda self, other: np.multiply(self, other, out=_ARRAY_OUT),
    self=lambda grad, other: grad * other,
    other=lambda grad, self: grad * self,
    raw=True,
    scalar_array=True,
    ufunc=np.multiply,
    jvp=_mul_t,
    complex={
        "self": lambda grad, other: grad * conj(other),
        "other": lambda grad, self: grad * conj(self),
    },
)


def _div_other_grad(grad: Tensor, self: Tensor, other: Tensor) -> Tensor:
    # torch's div_tensor_other_backward: -grad * ((self / other) / other), inf at other == 0;
    # its compiled product evaluates the right operand first (the order of the nodes it
    # records under create_graph)
    q = (self / other) / other
    return -grad * q


def _div_other_grad_complex(grad: Tensor, self: Tensor, other: Tensor) -> Tensor:
    q = conj((self / other) / other)
    return -grad * q


_div = defop(
    "div.Tensor",
    "DivBackward0",
    lambda self, other: np.true_divide(self, other),
    dtype="float",
    self=lambda grad, other: grad / other,
    other=_div_other_grad,
    raw=True,
    scalar_array=True,
    ufunc=np.true_divide,
    jvp=_div_t,
    complex={
        "self": lambda grad, other: grad / conj(other),
        "other": _div_other_grad_complex,
    },
)
# x ** scalar: the exponent is a saved Python number; x**0 has grad 0 everywhere (torch).
_pow_scalar = defop(
    "pow.Tensor_Scalar",
    "PowBackward0",
    lambda self, exponent: _np_pow_scalar(self, exponent),
    dtype="keep",
    self=lambda grad, self, exponent: _pow_scalar_grad(grad, self, exponent),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self, exponent: _pow_scalar_grad_complex(grad, self, exponent)},
)


# torch's pow by a Python number on floats: 0.5, 2, 3, -0.5, -1 and -2 are computed as sqrt,
# x*x, x*x*x, 1/sqrt, 1/x and 1/(x*x) (numpy's own fast paths cover 0.5, 2 and -1); the others
# go to pow. The values differ from pow in the last bit, and at -0 and -inf for -0.5.
_POW_SPECIAL: dict[Any, Any] = {
    3: lambda x: x * x * x,
    -0.5: lambda x: 1 / np.sqrt(x),
    -2: lambda x: 1 / (x * x),
}


_POW_SPECIAL_COMPLEX: dict[Any, Any] = {
    0.5: np.sqrt,
    -0.5: lambda x: np.reciprocal(np.sqrt(x)),
    -1: np.reciprocal,
}


def _np_pow_scalar(self: np.ndarray, exponent: Any) -> np.ndarray:
    if self.dtype is D.LD and type(exponent) in (int, float):
        # bfloat16: torch's kernel takes the exponent as a bfloat16, and squares in bfloat16
        r = D.round_bf16
        if exponent == 3:
            return r(self * self) * self
        if exponent == -2:
            return 1 / r(self * self)
        if exponent not in _POW_SPECIAL:
            exponent = float(r(exponent))
    k = self.dtype.kind
    if type(exponent) in (int, float):
        if k == "f":
            f = _POW_SPECIAL.get(exponent)
            if f is not None:
                if type(self) is not np.ndarray and getattr(self, "_sg_sparse", False):
                    from ..sparse._array import coalesced

                    self = coalesced(self)  # torch's sparse pow coalesces first
                return np.asanyarray(f(self)).astype(self.dtype, copy=False)
        elif k == "c":
            # torch's complex pow by 0.5, -0.5 and -1 runs its sqrt, rsqrt and reciprocal
            # kernels (sqrt(inf) is inf + 0j); 0 and 1 fill ones and copy
            f = _POW_SPECIAL_COMPLEX.get(exponent)
            if f is not None:
                with np.errstate(all="ignore"):
                    return np.asanyarray(f(self)).astype(self.dtype, copy=False)
            if exponent not in (0, 1):
                return _complex_zero_base(self, exponent, _fm.power(self, exponent))
    elif k == "c":
        return _complex_zero_base(self, exponent, _fm.power(self, exponent))
    if k == "f" and self.dtype == np.float16 and type(exponent) is float:
        exponent = _half_number(exponent)  # (the special exponents above read exactly)
    return _fm.power(self, exponent)


def _complex_zero_base(self: Any, exponent: Any, r: Any) -> Any:
    """torch's complex pow is exp(y log x): at a zero or non-finite base (or exponent) that is
    nan for 0 ** 0 and inf ** 0 and inf + nanj for 0 ** -1, where numpy's power special-cases
    1 and nan."""
    if getattr(r, "dtype", None) is None or r.dtype.kind != "c":
        return r
    x = np.asarray(self, r.dtype)
    y = np.asarray(exponent, r.dtype)
    odd = (x == 0) | ~np.isfinite(x) | ~np.isfinite(y)
    if not odd.any():
        return r
    with np.errstate(all="ignore"):
        return np.where(odd, np.exp(y * np.log(x)), r).astype(r.dtype)


def _np_pow(self: np.ndarray, exponent: Any) -> np.ndarray:
    if self.dtype.kind in "iu":
        e = np.asarray(exponent)
        if e.dtype.kind == "i" and (e < 0).any():
            # torch's integer pow: x ** -n is 1 for x == 1, +-1 for x == -1, else 0 (numpy raises)
            r = np.power(self, np.maximum(e, 0))
            neg_one = np.where(e % 2 == 0, 1, -1)
            small = np.where(self == 1, 1, np.where(self == -1, neg_one, 0))
            return np.where(e < 0, small, r).astype(r.dtype, copy=False)
    r = _complex_zero_base(self, exponent, _fm.power(self, exponent))
    if r.dtype.kind == "f" and self.dtype.kind == "f":
        e = np.asarray(exponent)
        half = e == 0.5
        if half.any():
            # numpy computes a broadcast exponent of 0.5 as sqrt; torch's tensor pow is C's
            # pow there, which gives +inf at -inf and +0 at -0 (fuzzer find)
            r = np.where(half & (self == -np.inf), np.inf, r)
            r = np.where(half & (self == 0), 0.0, r).astype(r.dtype, copy=False)
    return r


_pow_tensor = defop(
    "pow.Tensor_Tensor",
    "PowBackward1",
    _np_pow,
    self=lambda grad, self, exponent: _pow_scalar_grad(grad, self, exponent),
    exponent=lambda grad, self, exponent, result: _pow_exponent_grad(grad, self, exponent, result),
    jvp=ELEMENTWISE,
    complex={
        "self": lambda grad, self, exponent: _pow_self_grad_complex(grad, self, exponent),
        "exponent": lambda grad, self, exponent, result: _pow_exponent_grad_complex(
            grad, self, exponent, result
        ),
    },
)


def _np_pow_number_base(self: Any, exponent: np.ndarray) -> np.ndarray:
    out = _np_pow(self, exponent)
    # torch's pow.Scalar sets up its result with no strides given: contiguous, whatever the
    # exponent's layout
    if type(out) is np.ndarray and not out.flags.c_contiguous:
        return np.ascontiguousarray(out)
    return out


_pow_scalar_base = defop(
    "pow.Scalar",
    "PowBackward2",
    _np_pow_number_base,
    nondiff=("self",),
    exponent=lambda grad, self, exponent, result: _pow_number_base_grad(
        grad, self, exponent, result
    ),
    jvp=ELEMENTWISE,
    complex={
        "exponent": lambda grad, self, exponent, result: _pow_exponent_grad_complex(
            grad, self, exponent, result
        )
    },
)


def _np_mul_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    if self.dtype == np.float16:  # torch's opmath: the number as float, one rounding to half
        return np.multiply(self, other, dtype=np.float32).astype(np.float16)
    return np.multiply(self, other)


# mul by a Python number inside formulas: torch's mul.Scalar overload, a node with one edge
_mul_scalar = defop(
    "mul.Scalar",
    "MulBackward1",
    _np_mul_scalar,
    dtype="keep",
    self=lambda grad, other: _mul_scalar(grad, other),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, other: _mul_scalar(grad, other.conjugate())},
)


def _pow_scalar_grad(grad: Tensor, self: Tensor, exponent: Any) -> Tensor:
    if isinstance(exponent, Tensor):
        # base grad where the exponent is 0 is 0, as in torch's pow_backward_self
        g = grad * (exponent * pow(self, sub_scalar(exponent, 1)))  # C++ `exponent - 1`
        return where(exponent == 0, 0.0, g)
    if exponent == 0:
        return grad * 0
    # torch multiplies by the Python exponent with mul.Scalar (MulBackward1: one edge)
    return grad * _mul_scalar(pow(self, exponent - 1), exponent)


def _pow_scalar_grad_complex(grad: Tensor, self: Tensor, exponent: Any) -> Tensor:
    if exponent == 0:
        return grad * 0
    return grad * conj(_mul_scalar(pow(self, exponent - 1), exponent))


def _pow_exponent_grad(grad: Tensor, self: Tensor, exponent: Tensor, result: Tensor) -> Tensor:
    # d/dy x**y = x**y * log(x), masked to 0 where x == 0 and y >= 0 (torch's
    # pow_backward_exponent), so 0**y has a finite exponent grad. The mask multiplies grad, as
    # in torch, so a NaN grad stays NaN in double backward.
    return grad * where((self == 0) & (exponent >= 0), 0.0, result * log(self))


def _pow_number_base_grad(grad: Tensor, self: Any, exponent: Tensor, result: Tensor) -> Tensor:
    # pow(number, tensor): torch's `result * log(base)` (mul.Scalar), masked only for base 0
    base = float(self._data if isinstance(self, Tensor) else self)
    lg = -math.inf if base == 0 else math.log(base) if base > 0 else math.nan
    if base != 0:
        return grad * _mul_scalar(result, lg)
    return grad * where(exponent >= 0, 0.0, _mul_scalar(result, lg))


def _pow_self_grad_complex(grad: Tensor, self: Tensor, exponent: Tensor) -> Tensor:
    # torch's pow_backward_self: grad * (exponent * self**(exponent - 1)).conj(), 0 where
    # the exponent is 0
    return where(exponent == 0, 0.0, grad * conj(exponent * pow(self, exponent - 1)))


def _pow_exponent_grad_complex(grad: Tensor, self: Any, exponent: Tensor, result: Tensor) -> Tensor:
    # torch's pow_backward_exponent: grad * (result * log(self)).conj(), masked to 0 where
    # self == 0 and the exponent is real and >= 0
    if not isinstance(self, Tensor):
        from .._creation import tensor

        self = tensor(self, dtype=result.dtype)
    nonneg = exponent.real >= 0 if exponent.is_complex() else exponent >= 0
    if exponent.is_complex():
        nonneg = nonneg & (exponent.imag == 0)
    return grad * where((self == 0) & nonneg, 0.0, conj(result * log(self.to(result.dtype))))


def _scalar_arg(value: Tensor, name: str, arg: str) -> Any:
    """A Tensor given for a Scalar argument, as torch's parser takes it: a 0-dim tensor that
    does not require grad stands for its value; any other is refused."""
    if value.dim() != 0 or value.requires_grad:
        raise TypeError(f"{name}(): argument '{arg}' must be Number, not Tensor")
    return value.item()


def _alpha_check(input: Any, other: Any, alpha: Any, name: str) -> Any:
    """torch's alpha_check on the result dtype of add/sub (an int alpha always passes); the
    alpha to use. A Tensor alpha is a Scalar argument as torch's parser takes one: a 0-dim
    tensor that does not require grad gives its value, any other raises its TypeError (an
    in-place call is named as the out-of-place one)."""
    if isinstance(alpha, Tensor):
        alpha = _scalar_arg(alpha, name, "alpha")
        if type(alpha) is int:
            return alpha
    elif not isinstance(alpha, _NUMBER):  # torch's parser: a Scalar argument
        from .._signatures import _type_name

        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {_type_name(alpha)}")
    dt = result_type_of([input, other])
    if type(alpha) is bool and dt is not D.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dt._cat < 2 and isinstance(alpha, (float, complex, np.floating, np.complexfloating)):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    if dt._cat != 3 and isinstance(alpha, (complex, np.complexfloating)):
        raise RuntimeError(
            "For non-complex input tensors, argument alpha must not be a complex number."
        )
    D.check_scalar_fits(alpha, dt)  # the kernel converts alpha to the result dtype, checked
    return alpha


_NUMBER = (bool, int, float, complex, np.generic)


def _number_input(input: Any, name: str) -> None:
    """torch's parser on a function form's `input` that is not a Tensor (the ops take a
    number there, for shadowgrad's own callers): anything else is refused as torch does."""
    if not isinstance(input, _NUMBER):
        from .._signatures import not_tensor

        raise not_tensor(name, "input", 1, input)


def add(input: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.add`."""
    if type(alpha) is not int:
        alpha = _alpha_check(input, other, alpha, "add")
    if not isinstance(input, Tensor):
        _number_input(input, "add")
        return _add(other, input, alpha) if alpha == 1 else _add(_wrap(input), other, alpha)
    r = _add(input, other, alpha)
    if alpha != 1:  # AddBackward0's _saved_alpha where the node does not hold it
        show_saved(r, alpha=alpha)
    return _out(r, out, "add", input, other)


def sub(input: Any, other: Any, *, alpha: Any = 1, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.sub`."""
    _check_bool_sub(input, other)
    if type(alpha) is not int:
        alpha = _alpha_check(input, other, alpha, "sub")
    r = _sub(input, other, alpha)
    if alpha != 1:  # SubBackward0's _saved_alpha where the node does not hold it
        show_saved(r, alpha=alpha)
    return _out(r, out, "sub", input, other)


subtract = sub


def rsub(input: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """Mirrors `torch.rsub`: other - alpha * input."""
    _check_bool_sub(input, other)
    if type(alpha) is not int:
        alpha = _alpha_check(input, other, alpha, "rsub")
    if isinstance(other, Tensor):
        r = _rsub_tensor(input, other, alpha)
        if alpha != 1:  # RsubBackward0's _saved_alpha where the node does not hold it
            show_saved(r, alpha=alpha)
        return r
    return _rsub(input, other, alpha)


def positive(input: Tensor) -> Tensor:
    """Mirrors `torch.positive`: returns input itself."""
    if input.dtype is D.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def mul(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.mul`."""
    if not isinstance(input, Tensor):
        _number_input(input, "mul")
        input, other = other, input
    return _out(_mul(input, other), out, "mul", input, other)


multiply = mul


def div(
    input: Any, other: Any, *, rounding_mode: str | None = None, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.div`."""
    if rounding_mode is None:
        if not isinstance(input, Tensor):
            _number_input(input, "div")
            return mul(reciprocal(other), input)
        return _out(_div(input, other), out, "div", input, other)
    if rounding_mode.__class__ is not str:  # torch's parser: a str (the listing of div's three)
        from .._signatures import reraise_as_called

        given = (other, rounding_mode, out)
        reraise_as_called("R.div", ("other", "rounding_mode", "out"), given, self=input)
    return _out(_div_rounded(input, other, rounding_mode), out, "div", input, other)


divide = div
true_divide = div


def pow(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.pow`."""
    if isinstance(exponent, np.generic):  # a wrapped number, as torch reads it (its parser
        # reads a numpy bool as a float)
        exponent = float(exponent) if isinstance(exponent, np.bool_) else exponent.item()
    D.check_int_scalar(exponent)
    D.check_int_scalar(input)
    if not isinstance(input, Tensor):
        return _out(_pow_scalar_base(input, exponent), out, "pow", input, exponent)
    if isinstance(exponent, Tensor):
        if input.dtype is D.bool_ and exponent.dtype is D.bool_:
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        return _out(_pow_tensor(input, exponent), out, "pow", input, exponent)
    if exponent is None:
        _pow_refused(exponent)
    try:
        dt = result_type_of([input, exponent])
    except TypeError:  # a str, a list: torch's parser refuses it first
        _pow_refused(exponent)
        raise
    if dt is D.bool_:  # a bool power: torch fills ones (False) or copies (True), in bool
        r = input._data.copy() if exponent else np.ones(input._data.shape, np.bool_)
        return _out(_make(r), out, "pow", input, exponent)
    if dt._cat == 1 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if dt is not D.float32 and dt is not D.float64:
        D.check_scalar_fits(exponent, dt)  # 1e5 ** a float16: c10's overflow error
    x = input
    if input.dtype is not dt and not (dt.is_complex and input.dtype in (D.float32, D.float64)):
        x = input.to(dt)  # torch's PowBackward0 takes a real self with a complex exponent
    return _out(_pow_scalar(x, exponent), out, "pow", input, exponent)


def _pow_refused(exponent: Any) -> None:
    from .._signatures import reraise

    reraise("pow", (exponent,), {})


def square(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.square` (recorded as PowBackward0, as in torch)."""
    if input.dtype is D.bool_:
        input = input.to(D.int64)
    return pow(input, 2, out=out)


def _wrap(v: Any) -> Tensor:
    from .._creation import tensor

    return tensor(v)


def _check_bool_sub(a: Any, b: Any) -> None:
    if (
        (isinstance(a, Tensor) and a.dtype is D.bool_)
        or (isinstance(b, Tensor) and b.dtype is D.bool_)
        or isinstance(a, bool)
        or isinstance(b, bool)
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


def out_autograd_error(name: str) -> str:
    return (
        f"{name}(): functions with out=... arguments don't support automatic "
        "differentiation, but one of the arguments requires grad."
    )


def cast_error_first(out: Tensor | None, *operands: Any) -> None:
    """On a kernel's dtype refusal with out= given: torch checks the out tensor's dtype first
    (canCast, as _out does) and reports that instead of the kernel's error."""
    if out is not None:
        dt = result_type_of(list(operands))
        if dt._cat > out.dtype._cat:
            raise RuntimeError(
                f"result type {dt._short} can't be cast to the desired output type "
                f"{out.dtype._short}"
            ) from None


def tensor_binary(name: str, op: Any, input: Tensor, other: Any, out: Tensor | None) -> Any:
    """A binary op whose other operand torch's parser takes as a Tensor only (hypot, logaddexp,
    nextafter, igamma, ...): that check, the op, and on its dtype refusal with out= given, the
    out dtype's error first. The caller hands the result to _out itself (its warnings count
    frames)."""
    _need_tensor(name, other)
    try:
        return op(input, other)
    except NotImplementedError:
        cast_error_first(out, input, other)
        raise


def keep_dtype_out(input: Tensor, out: Tensor, name: str) -> None:
    """torch's error for an out= tensor of another dtype than a dtype-keeping kernel's (abs,
    round): after the autograd check, where a cast would be allowed."""
    from .. import _grad_mode

    if _grad_mode.STATE.grad and (input._rg or out._rg):
        raise RuntimeError(out_autograd_error(name))
    raise RuntimeError(f"Found dtype {out.dtype._short} but expected {input.dtype._short}")


def _no_forward_ad_out(result: Tensor, out: Tensor, name: str) -> None:
    """torch's out= kernels have no forward-AD formula: a dual operand (or out) raises."""
    if _fwad._get_tangent(result) is not None or _fwad._get_tangent(out) is not None:
        raise NotImplementedError(
            f"Trying to use forward AD with {name}_out that does not support it because it is "
            "an out= function"
        )


def _out(result: Tensor, out: Tensor | None, name: str | None, *inputs: Any) -> Tensor:
    """Write `result` into a user-given `out=` tensor, with torch's autograd restriction (named
    by the op torch runs; None for the functions torch does not check). inputs: the operands
    an `out` partially overlapping is refused (TensorIterator's check)."""
    if out is None:
        return result
    from .. import _grad_mode

    if _FW.active and name is not None:
        _no_forward_ad_out(result, out, name)
    if name is not None and _grad_mode.STATE.grad and (result._rg or out._rg):
        raise RuntimeError(out_autograd_error(name))
    if inputs and out._vc is not None:
        from .inplace import check_out_overlap_inputs

        check_out_overlap_inputs(out, inputs)
    if result.dtype._cat > out.dtype._cat:  # torch's canCast: no float into int, ...
        raise RuntimeError(
            f"result type {result.dtype._short} can't be cast to the desired output type "
            f"{out.dtype._short}"
        )
    from .shape import check_out_overlap, resize_out

    check_out_overlap(out)
    return resize_out(result, out)


# --- unary math ---------------------------------------------------------------------------

neg = defop(
    "neg",
    "NegBackward0",
    lambda self: np.negative(self),
    dtype="keep",
    self=lambda grad: -grad,
    raw=True,
    jvp=ELEMENTWISE,
    complex=True,
)
exp = defop(
    "exp",
    "ExpBackward0",
    lambda self: _fm.exp(self),
    dtype="float",
    self=lambda grad, result: grad * result,
    raw=True,
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: grad * conj(result)},
)
log = defop(
    "log",
    "LogBackward0",
    lambda self: _fm.log(self),
    dtype="float",
    self=lambda grad, self: grad / self,
    raw=True,
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad / conj(self)},
)
reciprocal = defop(
    "reciprocal",
    "ReciprocalBackward0",
    lambda self: np.reciprocal(self),
    dtype="float",
    self=lambda grad, result: -grad * (result * result),
    raw=True,
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: -grad * conj(result * result)},
)
tanh = defop(
    "tanh",
    "TanhBackward0",
    lambda self: _fm.tanh(self),
    dtype="float",
    self=lambda grad, result: _tanh_backward(grad, result),
    raw={"self": lambda grad, result: _np_tanh_bw(grad, result)},
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: _tanh_backward(grad, conj(result))},
)
sigmoid = defop(
    "sigmoid",
    "SigmoidBackward0",
    lambda self: _np_sigmoid(self),
    dtype="float",
    self=lambda grad, result: _sigmoid_backward(grad, result),
    raw={"self": lambda grad, result: grad * (1 - result) * result},  # torch's order
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: _sigmoid_backward(grad, conj(result))},
)


def _bool_relu() -> Any:
    raise RuntimeError("Boolean inputs not supported for relu")


# relu: grad is zeroed where result <= 0 (so 0 at 0, and 1 at NaN, as torch's threshold_backward)
relu = defop(
    "relu",
    "ReluBackward0",
    # 0 first: numpy returns the second operand on a tie, so -0.0 stays -0.0 (torch's max)
    lambda self: (
        np.maximum(0, _no_clamp(self), dtype=self.dtype) if self.dtype != np.bool_ else _bool_relu()
    ),
    dtype="keep",
    self=lambda grad, result: _threshold_backward(grad, result, 0),
    raw={"self": lambda grad, result: _np_threshold_backward(grad, result, 0)},
    jvp=ELEMENTWISE,
)

_tanh_bw = defop(
    "tanh_backward",
    "TanhBackwardBackward0",
    lambda grad_output, output: _np_tanh_bw(grad_output, output),
    # torch's formulas (derivatives.yaml), so the graph under create_graph has its nodes
    grad_output=lambda grad, output: _tanh_bw(grad, output),
    output=lambda grad, grad_output, output: grad * (_mul_scalar(output, -2) * grad_output),
    jvp=_tanh_bw_t,
    complex={
        "grad_output": lambda grad, output: grad * conj(1 - output * output),
        "output": lambda grad, grad_output, output: -2 * grad * conj(grad_output * output),
    },
)
_sigmoid_bw = defop(
    "sigmoid_backward",
    "SigmoidBackwardBackward0",
    lambda grad_output, output: grad_output * (1 - output) * output,  # torch's order
    grad_output=lambda grad, output: _sigmoid_bw(grad, output),
    output=lambda grad, grad_output, output: (
        grad * grad_output * add_scalar(_mul_scalar(output, -2), 1)
    ),
    jvp=_sigmoid_bw_t,
    complex={
        "grad_output": lambda grad, output: grad * conj(output * (1 - output)),
        "output": lambda grad, grad_output, output: grad * conj(grad_output * (1 - 2 * output)),
    },
)


def _np_tanh_bw(grad: np.ndarray, output: np.ndarray) -> np.ndarray:
    if _fm.small32(output) and grad.dtype == output.dtype:
        # torch's float32 kernel computes 1 - y * y as one fused multiply-add: exact in float64
        # (equal bit for bit; Note [float32 transcendentals])
        return grad * (1 - np.square(output, dtype=np.float64)).astype(np.float32)
    return grad * (1 - output * output)


def _np_threshold_backward(grad: np.ndarray, self: np.ndarray, threshold: Any) -> np.ndarray:
    """grad where self > threshold (and where self is NaN), else 0.

    A multiply by the mask is several times faster than np.where on a random mask; where the
    gradient is not finite, 0 * inf would give nan, so np.where decides there (torch writes 0).
    """
    keep = ~(self <= threshold)
    if np.isfinite(grad).all():
        return grad * keep
    return np.where(keep, grad, 0).astype(grad.dtype, copy=False)


_threshold_bw = defop(
    "threshold_backward",
    "ThresholdBackwardBackward0",
    lambda grad_output, self, threshold: _np_threshold_backward(grad_output, self, threshold),
    grad_output=lambda grad, self, threshold: _threshold_backward(grad, self, threshold),
    self=lambda grad: _zeros_like(grad),  # torch's zeros_like(grad): no graph of its own
    jvp=_threshold_bw_t,
)


def _tanh_backward(grad: Tensor, result: Tensor) -> Tensor:
    return _tanh_bw(grad, result)


def _sigmoid_backward(grad: Tensor, result: Tensor) -> Tensor:
    return _sigmoid_bw(grad, result)


def _threshold_backward(grad: Tensor, result: Tensor, threshold: float) -> Tensor:
    return _threshold_bw(grad, result, threshold)


# Note [Selecting by bit masks]
# np.where over a random mask branches per element: on 256x256 float32 it takes ~500 us, a
# multiply ~30 us. `select` gives np.where's result (same dtype, same bits, NaN and -0.0
# included) for a real floating result by integer arithmetic on the bit patterns instead:
# k = -mask as integers of the float's width (all ones where true), then b ^ ((a ^ b) & k),
# four passes without a branch (~50-85 us). Small arrays keep np.where (its fixed cost is
# lower, and ufuncs return scalars for 0-d operands).
_SELECT_MIN = 4096
_BITS = {2: np.int16, 4: np.int32, 8: np.int64}


def select(mask: Any, a: Any, b: Any) -> Any:
    """np.where(mask, a, b) (mask a bool array; a, b arrays or numbers), faster on large
    random masks; a new array, never one of the inputs. Note [Selecting by bit masks]."""
    if type(mask) is not np.ndarray or mask.size < _SELECT_MIN or mask.dtype != np.bool_:
        return np.where(mask, a, b)
    dt = np.result_type(a, b)
    it = _BITS.get(dt.itemsize) if dt.kind == "f" else None
    if it is None:
        return np.where(mask, a, b)
    ai = np.asarray(a, dt).view(it)
    k = np.negative(mask.view(np.int8), dtype=it)
    if type(b) in (int, float) and b == 0 and math.copysign(1.0, b) > 0:
        # +0.0 is all zero bits: a & k
        if k.shape == np.broadcast_shapes(k.shape, ai.shape):
            k &= ai
            return k.view(dt)
        return (k & ai).view(dt)
    bi = np.asarray(b, dt).view(it)
    t = np.bitwise_xor(ai, bi)
    if k.shape == np.broadcast_shapes(k.shape, t.shape):
        k &= t
    else:
        k = k & t
    k ^= bi
    return k.view(dt)


def _np_sigmoid(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":  # the stable form below compares and takes |x|: real only
        return 1 / (1 + np.exp(-x))
    if _fm.small32(x):
        # torch's float32 kernel, 1 / (1 + exp(-x)) with SLEEF's expf: equal bit for bit
        # (Note [float32 transcendentals])
        one = np.float32(1)
        return one / (one + _fm.sleef_expf(-x))
    # stable for large |x|: exp is only taken of non-positive numbers; 1 / (1 + e) where
    # x >= 0, else e / (1 + e). The numerator is max(e, x >= 0): 1 or e (e <= 1; NaN kept),
    # the same bits as a where without its cost (Note [Selecting by bit masks]).
    e = np.abs(x)
    if type(e) is not np.ndarray or e.dtype.kind != "f":
        e = np.exp(-np.abs(x))
        return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)
    np.negative(e, out=e)
    np.exp(e, out=e)
    d = e + 1
    np.maximum(e, x >= 0, out=e)
    np.divide(e, d, out=e)
    return e


# --- comparisons and masks used by formulas (non-differentiable outputs) --------------------
# torch records no node for an out-of-place comparison, so these take no torch node name: the
# in-place comparisons (special.py) record torch's EqBackward0, EqBackward1, ...

_eq = defop(
    "eq.Tensor",
    "EqNotRecorded",
    lambda self, other: np.equal(self, other),
    nondiff=("self", "other"),
)
_ne = defop(
    "ne.Tensor",
    "NeNotRecorded",
    lambda self, other: np.not_equal(self, other),
    nondiff=("self", "other"),
)


def _ordered(name: str, ufunc: Any, self: np.ndarray, other: Any) -> np.ndarray:
    """An ordering comparison: torch has no kernel for complex operands."""
    if self.dtype.kind == "c" or getattr(other, "dtype", self.dtype).kind == "c":
        dt = np.result_type(self, other)
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{D._FROM_NP[dt]._short}'")
    return ufunc(self, other)


_lt = defop(
    "lt.Tensor",
    "LtNotRecorded",
    lambda self, other: _ordered("lt", np.less, self, other),
    nondiff=("self", "other"),
)
_le = defop(
    "le.Tensor",
    "LeNotRecorded",
    lambda self, other: _ordered("le", np.less_equal, self, other),
    nondiff=("self", "other"),
)
_gt = defop(
    "gt.Tensor",
    "GtNotRecorded",
    lambda self, other: _ordered("gt", np.greater, self, other),
    nondiff=("self", "other"),
)
_ge = defop(
    "ge.Tensor",
    "GeNotRecorded",
    lambda self, other: _ordered("ge", np.greater_equal, self, other),
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
    if other is None:
        raise _compare_type_error("eq", other, method=False)
    return _eq(input, other)


def ne(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.ne`."""
    if other is None:
        raise _compare_type_error("ne", other, method=False)
    return _ne(input, other)


def lt(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.lt`."""
    if other is None:
        raise _compare_type_error("lt", other, method=False)
    return _lt(input, other)


def le(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.le`."""
    if other is None:
        raise _compare_type_error("le", other, method=False)
    return _le(input, other)


def gt(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.gt`."""
    if other is None:
        raise _compare_type_error("gt", other, method=False)
    return _gt(input, other)


def ge(input: Tensor, other: Any) -> Tensor:
    """Mirrors `torch.ge`."""
    if other is None:
        raise _compare_type_error("ge", other, method=False)
    return _ge(input, other)


def _compare_type_error(fn: str, other: Any, method: bool) -> TypeError:
    """torch's parser error for a comparison's `other` that is neither a Tensor nor a number
    (None, a str): the method form says why each overload refused it."""
    got = type(other).__name__
    if not method:
        return TypeError(
            f"{fn}() received an invalid combination of arguments - got (Tensor, {got}), but "
            "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, Number other, *, Tensor out = None)\n"
        )
    why = f"\n      didn't match because some of the arguments have invalid types: (!{got}!)"
    return TypeError(
        f"{fn}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n * (Tensor other){why}\n * (Number other){why}\n"
    )


def _compare_method(fn: str, op: Any) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        if other is None or isinstance(other, str):
            raise _compare_type_error(fn, other, method=True)
        return op(self, other)  # type: ignore[no-any-return]

    method.__name__ = method.__qualname__ = fn
    return method


def bitwise_not(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.bitwise_not`."""
    if input.dtype._cat >= 2:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{input.dtype._short}'")
    return _out(_invert(input), out, "bitwise_not", input)


# where: the untaken branch still receives a zero grad through its own formula (torch's NaN trap)
_where = defop(
    "where.self",
    "WhereBackward0",
    lambda condition, self, other: select(condition, self, other),
    nondiff=("condition",),
    unpromoted=("condition",),
    self=lambda grad, condition: _where(condition, grad, 0.0),
    other=lambda grad, condition: _where(condition, 0.0, grad),
    jvp=LINEAR,
    complex=True,
)


def _may_overflow(v: Any) -> bool:
    """Whether a Python number could overflow some dtype (beyond int8's and float16's range)."""
    t = v.__class__
    return (t is int and not -128 <= v <= 127) or (t is float and not abs(v) <= 65504.0)


def _check_where_scalars(input: Any, other: Any) -> None:
    """where's Number operands must fit the result dtype (c10's overflow error; a Half's
    value is not checked: it becomes inf)."""
    dt = result_type_of([input, other])
    for v in (input, other):
        if not isinstance(v, Tensor) and dt is not D.float16:
            D.check_scalar_fits(v, dt)


_NUMBER_OR_TENSOR = (Tensor, bool, int, float, complex, np.generic)
_NOT_GIVEN: Any = object()


def _where_type_error(args: tuple[Any, ...], method: bool) -> TypeError:
    """torch's parser error for where's arguments, in the function's or the method's form."""

    def kind(v: Any) -> str:
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__

    def marked(expect: tuple[str, ...]) -> str:
        def ok(v: Any, e: str) -> bool:  # (torch marks a Python number even for a Number)
            return e == "Tensor" and isinstance(v, Tensor)

        return ", ".join(
            k if ok(v, e) else f"!{k}!"
            for v, e, k in zip(args, expect, map(kind, args), strict=True)
        )

    got = ", ".join(map(kind, args))
    why = "\n      didn't match because some of the arguments have invalid types: ({})"
    if method:
        sigs = [
            ("Tensor condition, Tensor other", ("Tensor", "Tensor")),
            ("Tensor condition, Number other", ("Tensor", "Number")),
        ]
        lines = "".join(
            f"\n * ({s})" + (why.format(marked(e)) if len(args) == 2 else "") for s, e in sigs
        )
    else:
        sigs3 = [
            ("Tensor condition, Number self, Tensor other", ("Tensor", "Number", "Tensor")),
            ("Tensor condition, Tensor input, Number other", ("Tensor", "Tensor", "Number")),
            ("Tensor condition, Number self, Number other", ("Tensor", "Number", "Number")),
        ]
        lines = (
            "\n * (Tensor condition)\n * (Tensor condition, Tensor input, Tensor other, *, "
            "Tensor out = None)"
        )
        lines += "".join(
            f"\n * ({s})" + (why.format(marked(e)) if len(args) == 3 else "") for s, e in sigs3
        )
    return TypeError(
        f"where() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:{lines}\n"
    )


def where(condition: Tensor, input: Any = _NOT_GIVEN, other: Any = _NOT_GIVEN) -> Any:
    """Mirrors `torch.where`."""
    if input is _NOT_GIVEN and other is _NOT_GIVEN:
        from .indexing import nonzero

        return nonzero(condition, as_tuple=True)
    if not (
        isinstance(condition, Tensor)
        and isinstance(input, _NUMBER_OR_TENSOR)
        and isinstance(other, _NUMBER_OR_TENSOR)
    ):
        given = tuple(a for a in (condition, input, other) if a is not _NOT_GIVEN)
        raise _where_type_error(given, method=False)
    if _may_overflow(input) or _may_overflow(other):  # a big number: must fit the result
        _check_where_scalars(input, other)
    if condition.dtype is not D.bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype._short}"
        )
    if input.__class__ is complex or other.__class__ is complex:
        input, other = _where_complex_scalar(input, other)
    return _where(condition, input, other)


def _where_complex_scalar(input: Any, other: Any) -> tuple[Any, Any]:
    """torch's where with a Scalar operand casts the tensor one to the result type first
    (`self.to(result_type)`): a real tensor with a complex number records ToCopyBackward0, which
    takes the real part of the complex gradient (WhereBackward0 does not)."""
    from .registry import result_type_of

    if isinstance(input, Tensor) and not isinstance(other, Tensor):
        input = input.to(result_type_of([input, other]))
    elif isinstance(other, Tensor) and not isinstance(input, Tensor):
        other = other.to(result_type_of([input, other]))
    return input, other


# --- more unary math ----------------------------------------------------------------------
# Forwards run under np.errstate: torch returns inf/nan silently where numpy would warn.


def _quiet(fn: Any) -> Any:
    def forward(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args)

    forward.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    return forward


def _half_in_float(fn: Any) -> Any:
    """Compute float16 in float32 and round once, as torch's CPU kernels do for half."""

    def forward(self: np.ndarray, *rest: Any) -> Any:
        if self.dtype == np.float16:
            rest = tuple(r.astype(np.float32) if isinstance(r, np.ndarray) else r for r in rest)
            return fn(self.astype(np.float32), *rest).astype(np.float16)
        return fn(self, *rest)

    forward.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    return forward


def _no_complex(kernel: str, a: np.ndarray, *rest: Any) -> np.ndarray:
    """torch's dispatch error when a kernel has no complex version (any operand complex, the
    promoted dtype named); returns a otherwise."""
    if a.dtype.kind == "c" or any(np.asarray(r).dtype.kind == "c" for r in rest):
        dt = D._FROM_NP[np.result_type(a, *rest)]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")
    return a


def _not_for(kernel: str, a: np.ndarray, kinds: str) -> None:
    """torch's dispatch error for a dtype that a kernel is not compiled for."""
    if a.dtype.kind in kinds:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{D._FROM_NP[a.dtype]._short}'"
        )


def _sign(t: Tensor) -> Tensor:
    # torch's abs formula reads self.sgn() (SgnBackward0; sign's values for real tensors)
    from .rounding import sgn

    return sgn(t)


def _complex_sgn(t: Tensor) -> Tensor:
    """torch's sgn of a complex tensor, z / |z| (0 at 0): abs's complex gradient."""
    a = abs(t)
    zero = a == 0
    return where(zero, 0.0, t / where(zero, 1.0, a))


def _np_abs(self: np.ndarray) -> np.ndarray:
    _not_for("abs_cpu", self, "b")
    if self.dtype.kind == "c":  # torch's |z| is hypot(re, im); numpy's cabs rounds differently
        return np.hypot(self.real, self.imag)
    return np.abs(self)


_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)

# abs at 0 has grad 0: torch's grad * sgn(self)
abs = defop(
    "abs",
    "AbsBackward0",
    _np_abs,
    dtype="keep",
    self=lambda grad, self: grad * _sign(self),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * _sign(self)},  # sgn: SgnBackward0 as torch's
)
exp2 = defop(
    "exp2",
    "Exp2Backward0",
    _quiet(lambda self: _fm.exp2(self)),
    dtype="float",
    self=lambda grad, result: _mul_scalar(grad * result, _LN2),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: _mul_scalar(grad * conj(result), _LN2)},
)
expm1 = defop(
    "expm1",
    "Expm1Backward0",
    _quiet(lambda self: _fm.expm1(self)),
    dtype="float",
    self=lambda grad, result: grad * add_scalar(result, 1),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: grad * conj(add_scalar(result, 1))},
)
log2 = defop(
    "log2",
    "Log2Backward0",
    _quiet(lambda self: _fm.log2(self)),
    dtype="float",
    self=lambda grad, self: grad / _mul_scalar(self, _LN2),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad / conj(_mul_scalar(self, _LN2))},
)
log10 = defop(
    "log10",
    "Log10Backward0",
    _quiet(lambda self: _fm.log10(self)),
    dtype="float",
    self=lambda grad, self: grad / _mul_scalar(self, _LN10),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad / conj(_mul_scalar(self, _LN10))},
)
log1p = defop(
    "log1p",
    "Log1PBackward0",
    _quiet(lambda self: _fm.log1p(self)),
    dtype="float",
    self=lambda grad, self: grad / add_scalar(self, 1),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad / conj(add_scalar(self, 1))},
)
# sqrt at 0 has grad inf (grad / (2 * 0)), as in torch
sqrt = defop(
    "sqrt",
    "SqrtBackward0",
    _quiet(lambda self: np.sqrt(self)),
    dtype="float",
    self=lambda grad, result: grad / _mul_scalar(result, 2),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: grad / conj(_mul_scalar(result, 2))},
)
rsqrt = defop(
    "rsqrt",
    "RsqrtBackward0",
    _quiet(lambda self: np.reciprocal(np.sqrt(self))),
    dtype="float",
    # C++ `-0.5 * grad` is mul.Scalar (MulBackward1) in torch's formula
    self=lambda grad, result: _mul_scalar(grad, -0.5) * pow(result, 3),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: _mul_scalar(grad, -0.5) * conj(pow(result, 3))},
)
sin = defop(
    "sin",
    "SinBackward0",
    _quiet(lambda self: _fm.sin(self)),
    dtype="float",
    self=lambda grad, self: grad * cos(self),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(cos(self))},
)
cos = defop(
    "cos",
    "CosBackward0",
    _quiet(lambda self: _fm.cos(self)),
    dtype="float",
    self=lambda grad, self: grad * -sin(self),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(-sin(self))},
)
tan = defop(
    "tan",
    "TanBackward0",
    _quiet(lambda self: _fm.tan(self)),
    dtype="float",
    self=lambda grad, result: grad * add_scalar(pow(result, 2), 1),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, result: grad * conj(add_scalar(pow(result, 2), 1))},
)
asin = defop(
    "asin",
    "AsinBackward0",
    _quiet(lambda self: _fm.arcsin(self)),
    dtype="float",
    self=lambda grad, self: grad * rsqrt(add_scalar(-self * self, 1)),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(rsqrt(add_scalar(-self * self, 1)))},
)
acos = defop(
    "acos",
    "AcosBackward0",
    _quiet(lambda self: _fm.arccos(self)),
    dtype="float",
    self=lambda grad, self: grad * -rsqrt(add_scalar(-self * self, 1)),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(-rsqrt(add_scalar(-self * self, 1)))},
)
atan = defop(
    "atan",
    "AtanBackward0",
    _quiet(lambda self: _fm.arctan(self)),
    dtype="float",
    self=lambda grad, self: grad / add_scalar(self * self, 1),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad / conj(add_scalar(self * self, 1))},
)
sinh = defop(
    "sinh",
    "SinhBackward0",
    _quiet(lambda self: _fm.sinh(self)),
    dtype="float",
    self=lambda grad, self: grad * cosh(self),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(cosh(self))},
)
cosh = defop(
    "cosh",
    "CoshBackward0",
    _quiet(lambda self: _fm.cosh(self)),
    dtype="float",
    self=lambda grad, self: grad * sinh(self),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(sinh(self))},
)
asinh = defop(
    "asinh",
    "AsinhBackward0",
    _quiet(lambda self: np.arcsinh(self)),
    dtype="float",
    self=lambda grad, self: grad * rsqrt(add_scalar(pow(self, 2), 1)),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(rsqrt(add_scalar(pow(self, 2), 1)))},
)
acosh = defop(
    "acosh",
    "AcoshBackward0",
    _quiet(lambda self: np.arccosh(self)),
    dtype="float",
    self=lambda grad, self: grad * rsqrt(sub_scalar(self * self, 1)),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad * conj(rsqrt(self + 1) * rsqrt(self - 1))},
)
atanh = defop(
    "atanh",
    "AtanhBackward0",
    _quiet(lambda self: _fm.arctanh(self)),
    dtype="float",
    self=lambda grad, self: grad / _number_minus(1, pow(self, 2)),
    jvp=ELEMENTWISE,
    complex={"self": lambda grad, self: grad / conj(_number_minus(1, pow(self, 2)))},
)


def _inplace_not_implemented(name: str) -> Any:
    def formula(grad: Tensor) -> Tensor:
        raise NotImplementedError(
            f"the derivative for 'inplace version of {name}' is not implemented."
        )

    return formula


def _inplace_no_jvp(name: str) -> Any:
    def rule(self_t: Tensor) -> Tensor:
        raise NotImplementedError(
            f"Trying to use forward AD with {name}_ that does not support it because it has not "
            "been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation."
        )

    return rule


# torch records acosh_/asinh_/atanh_ with their own nodes, whose backward is not implemented
_INPLACE_ONLY = {
    name: defop(
        f"{name}_",
        f"{name.capitalize()}Backward1",
        fwd.op.forward,
        dtype="float",
        self=_inplace_not_implemented(name),
        jvp=_inplace_no_jvp(name),
    )
    for name, fwd in (("asinh", asinh), ("acosh", acosh), ("atanh", atanh))
}

# numpy has no erf: _specfun's vectorized float64 erf/erfc (fdlibm's algorithm, within 1-2 ulp).
# Float32 and float16 inputs are computed in float64 and rounded once.
_ERF = _specfun.erf
_ERFC = _specfun.erfc


def _np_elementwise(fn: Any, x: np.ndarray) -> np.ndarray:
    if type(x) is not np.ndarray and getattr(x, "_sg_sparse", False):
        return _sparse_values(fn, x, "erf" if fn is _ERF else "erfc")
    return np.asarray(fn(x.astype(np.float64, copy=False)), dtype=np.float64).astype(x.dtype)


def _sparse_values(fn: Any, x: Any, name: str) -> Any:
    """A special function of a sparse tensor (sparse/_ops.py): on its values where it keeps
    zeros (torch's sparse kernels), else torch's dispatcher error."""
    from ..sparse._ops import map_values

    return map_values(lambda v: _np_elementwise(fn, v), x, name)


def _np_erfinv(self: np.ndarray) -> np.ndarray:
    # within 1 ulp of torch's (MKL's vdErfInv) on all of (-1, 1); torch's scalar calc_erfinv
    # (a rational guess and two Newton steps) is far off next to +-1
    _not_for("erfinv_vml_cpu", self, "c")
    if type(self) is not np.ndarray and getattr(self, "_sg_sparse", False):
        return _sparse_values(_np_erfinv, self, "erfinv")
    return _specfun.erfinv_accurate(self.astype(np.float64)).astype(self.dtype)


erf = defop(
    "erf",
    "ErfBackward0",
    lambda self: _np_elementwise(_ERF, _no_complex("erf_vml_cpu", self)),
    dtype="float",
    self=lambda grad, self: _mul_scalar(exp(-pow(self, 2)), _TWO_OVER_SQRT_PI) * grad,
    jvp=ELEMENTWISE,
)
erfc = defop(
    "erfc",
    "ErfcBackward0",
    lambda self: _np_elementwise(_ERFC, _no_complex("erfc_vml_cpu", self)),
    dtype="float",
    self=lambda grad, self: _mul_scalar(exp(-pow(self, 2)), -_TWO_OVER_SQRT_PI) * grad,
    jvp=ELEMENTWISE,
)
# torch's formula recomputes erfinv(self) instead of reading the result
erfinv = defop(
    "erfinv",
    "ErfinvBackward0",
    _np_erfinv,
    dtype="float",
    self=lambda grad, self: _mul_scalar(exp(pow(erfinv(self), 2)), _HALF_SQRT_PI) * grad,
    jvp=ELEMENTWISE,
)


@_quiet
def _np_logit(self: np.ndarray, eps: Any) -> np.ndarray:
    _not_for("logit_cpu", self, "c")
    # torch's kernel: x < lo ? lo : x > hi ? hi : x (lo wins when eps > 0.5)
    x = self
    if eps is not None and eps >= 0:
        lo, hi = eps, 1 - eps
        if self.dtype is D.LD:  # bfloat16: the bounds are bfloat16 values
            lo = float(D.round_bf16(eps))
            hi = float(D.round_bf16(1 - lo))
        x = np.where(self < lo, lo, np.where(self > hi, hi, self)).astype(self.dtype)
    if x.dtype is D.LD:  # bfloat16: each operation of torch's kernel rounded
        r = D.round_bf16
        return np.log(r(x / r(1 - x)))
    return np.log(x / (1 - x))


def _logit_backward(grad: Tensor, self: Tensor, eps: Any) -> Tensor:
    # torch's infinitely_differentiable_logit_backward: outside [eps, 1 - eps] the grad is 0
    # (nan outside [0, 1] without eps); the bounds themselves keep the formula
    g = grad / (self * _number_minus(1, self))
    if eps is None or eps < 0:
        return _where((self >= 0) & (self <= 1), g, math.nan)
    return _where((self >= eps) & (self <= 1 - eps), g, 0.0)


_logit = defop(
    "logit", "LogitBackward0", _np_logit, dtype="float", self=_logit_backward, jvp=ELEMENTWISE
)


def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.logit`."""
    return _out(_logit(input, eps), out, "logit", input)


# --- binary math --------------------------------------------------------------------------


def _atan2_recip(self: Tensor, other: Tensor) -> Tensor:
    # at the origin 1 / (x^2 + y^2) is inf; torch masks it to 0, so the grads are 0 and -0.
    r = reciprocal(self * self + other * other)
    return masked_fill(r, isinf(r), 0)


_atan2 = defop(
    "atan2",
    "Atan2Backward0",
    _quiet(lambda self, other: np.arctan2(_no_complex("atan2_cpu", self, other), other)),
    dtype="float",
    self=lambda grad, self, other: grad * other * _atan2_recip(self, other),
    other=lambda grad, self, other: grad * -self * _atan2_recip(self, other),
    jvp=_atan2_t,
)
_hypot = defop(
    "hypot",
    "HypotBackward0",
    _quiet(lambda self, other: _hypot_forward(self, other)),
    self=lambda grad, self, result: grad * self / result,
    other=lambda grad, other, result: grad * other / result,
    jvp=_hypot_t,
)


def _hypot_forward(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("hypot_cpu", self, "biuc")
    return np.hypot(self, other)


def _np_logaddexp_complex(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """torch's complex _log_add_exp_helper: max + log1p(exp(min - max)), min and max by the
    real part (y the min on a tie); nan where either is nan; where both real parts are the same
    infinity, min for -inf and log(exp(min) + exp(max)) for +inf."""
    x, y = np.broadcast_arrays(*np.asarray(np.broadcast_arrays(x, y)).astype(np.result_type(x, y)))
    x_lt = x.real < y.real
    lo, hi = np.where(x_lt, x, y), np.where(x_lt, y, x)
    with np.errstate(all="ignore"):
        r = np.log1p(np.exp(lo - hi)) + hi
        same_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        if same_inf.any():
            r = np.where(same_inf & (lo.real < 0), lo, r)
            r = np.where(same_inf & (lo.real > 0), np.log(np.exp(lo) + np.exp(hi)), r)
    nan = np.isnan(x) | np.isnan(y)  # numpy: a nan real or imaginary part
    return np.where(nan, complex(np.nan, np.nan), r).astype(r.dtype, copy=False)


@_half_in_float
def _np_logaddexp(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("logaddexp_cpu", self, "biu")
    if self.dtype.kind == "c" or getattr(other, "dtype", self.dtype).kind == "c":
        return _np_logaddexp_complex(self, other)
    # numpy's logaddexp is torch's: max + log1p(exp(-|a - b|)), and inf where a == b == inf
    return np.logaddexp(self, other)


@_half_in_float
def _np_logaddexp2(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("logaddexp2_cpu", self, "biuc")
    return np.logaddexp2(self, other)


_logaddexp = defop(
    "logaddexp",
    "LogaddexpBackward0",
    _quiet(_np_logaddexp),
    self=lambda grad, self, other: grad / add_scalar(exp(other - self), 1),
    other=lambda grad, self, other: grad / add_scalar(exp(self - other), 1),
    jvp=ELEMENTWISE,
    complex={  # torch's: the derivatives conjugated
        "self": lambda grad, self, other: grad / conj(add_scalar(exp(other - self), 1)),
        "other": lambda grad, self, other: grad / conj(add_scalar(exp(self - other), 1)),
    },
)
_logaddexp2 = defop(
    "logaddexp2",
    "Logaddexp2Backward0",
    _quiet(_np_logaddexp2),
    self=lambda grad, self, other: grad / add_scalar(pow(2, other - self), 1),
    other=lambda grad, self, other: grad / add_scalar(pow(2, self - other), 1),
    jvp=ELEMENTWISE,
)


@_quiet
def _np_xlogy(self: np.ndarray, other: Any) -> np.ndarray:
    # torch: nan if y is nan, else 0 where x == 0 (even for y == 0), else x * log(y)
    _no_complex("xlogy_cpu", self, other)
    if self.dtype == np.float16 and type(other) is float:
        other = _half_number(other)
    other = np.asarray(other, self.dtype)  # a Python scalar from the fast path
    # (bfloat16: the log rounded before the product, as torch's)
    r = self * (D.round_bf16(np.log(other)) if self.dtype is D.LD else np.log(other))
    r = np.where(self == 0, 0, r)
    return np.where(np.isnan(other), np.nan, r).astype(r.dtype, copy=False)


def _xlogy_self_grad(grad: Tensor, self: Tensor, other: Any) -> Tensor:
    return masked_fill(xlogy(grad, other), (self == 0) & (other <= 0), 0)


_xlogy = defop(
    "xlogy.Tensor",
    "XlogyBackward0",
    _np_xlogy,
    dtype="float",
    self=_xlogy_self_grad,
    other=lambda grad, self, other: grad * self / other,
    jvp=ELEMENTWISE,
)
_xlogy_scalar_self = defop(
    "xlogy.Scalar_Self",
    "XlogyBackward1",
    _np_xlogy,
    dtype="float",
    nondiff=("self",),
    other=lambda grad, self, other: grad * self / other,
    jvp=ELEMENTWISE,
)
_xlogy_scalar_other = defop(
    "xlogy.Scalar_Other",
    "XlogyBackward2",
    _np_xlogy,
    dtype="float",
    nondiff=("other",),
    self=_xlogy_self_grad,
    jvp=ELEMENTWISE,
)


def _copysign_self_grad(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    # torch's copysign_tensor_self_backward: result / self, masked to 0 where self == 0
    return grad * masked_fill(result / self, self == 0, 0)


def _zeros_like(t: Tensor) -> Tensor:
    from .._creation import zeros_like

    return zeros_like(t)


_copysign = defop(
    "copysign.Tensor",
    "CopysignBackward0",
    _quiet(lambda self, other: np.copysign(_no_complex("copysign_cpu", self, other), other)),
    dtype="float",
    self=_copysign_self_grad,
    # torch's zeros_like(other) keeps other's metadata, not other: nothing saved, no version
    # check (the engine sums the zeros to other's shape)
    other=lambda grad: _zeros_like(grad),
    # torch's result: reads self's tangent only (other's is ignored: no tangent without self_t)
    jvp=lambda self, self_t, result: (
        None if self_t is None else _copysign_self_grad(self_t, self, result)
    ),
)
_copysign_scalar = defop(
    "copysign.Scalar",
    "CopysignBackward1",
    _quiet(lambda self, other: np.copysign(_no_complex("copysign_cpu", self, other), other)),
    dtype="float",
    nondiff=("other",),
    self=_copysign_self_grad,
    jvp=ELEMENTWISE,
)


def _maximum_grad(grad: Tensor, self: Tensor, other: Tensor, lose: Tensor) -> Tensor:
    # ties split the grad 0.5/0.5; a NaN on either side gives both inputs the full grad
    from .nn_ops import _div_scalar  # torch's grad / 2: div.Scalar (DivBackward1)

    return masked_fill(_where(self == other, _div_scalar(grad, 2), grad), lose, 0)


_maximum = defop(
    "maximum",
    "MaximumBackward0",
    lambda self, other: np.maximum(self, other),
    self=lambda grad, self, other: _maximum_grad(grad, self, other, self < other),
    other=lambda grad, self, other: _maximum_grad(grad, self, other, self > other),
    jvp=lambda self, other, result, self_t, other_t: _max_min_t(
        self, other, result, self_t, other_t, self > other
    ),
)
_minimum = defop(
    "minimum",
    "MinimumBackward0",
    lambda self, other: np.minimum(self, other),
    self=lambda grad, self, other: _maximum_grad(grad, self, other, self > other),
    other=lambda grad, self, other: _maximum_grad(grad, self, other, self < other),
    jvp=lambda self, other, result, self_t, other_t: _max_min_t(
        self, other, result, self_t, other_t, self < other
    ),
)
# fmax/fmin: ties go to self; a NaN operand loses to the number
_fmax = defop(
    "fmax",
    "FmaxBackward0",
    lambda self, other: np.fmax(self, other),
    self=lambda grad, self, other: masked_fill(
        grad, logical_not((self >= other) | isnan(other)), 0
    ),
    other=lambda grad, self, other: masked_fill(grad, (self >= other) | isnan(other), 0),
    jvp=lambda self, other, result, self_t, other_t: _fmax_fmin_t(
        self, other, result, self_t, other_t, self > other
    ),
)
_fmin = defop(
    "fmin",
    "FminBackward0",
    lambda self, other: np.fmin(self, other),
    self=lambda grad, self, other: masked_fill(
        grad, logical_not((self <= other) | isnan(other)), 0
    ),
    other=lambda grad, self, other: masked_fill(grad, (self <= other) | isnan(other), 0),
    jvp=lambda self, other, result, self_t, other_t: _fmax_fmin_t(
        self, other, result, self_t, other_t, self <= other
    ),
)


def _cj(v: Any) -> Any:
    """The conjugate of a formula's tensor or Python number."""
    return conj(v) if isinstance(v, Tensor) else (v.conjugate() if isinstance(v, complex) else v)


def _number(v: Any) -> Any:
    """A saved number as a formula's Python number (Note [Saved numbers])."""
    return v.item() if isinstance(v, Tensor) else v


@_half_in_float
def _np_lerp(self: np.ndarray, end: np.ndarray, weight: Any) -> np.ndarray:
    # torch's lerp: from whichever end is nearer to the weight (exact at weight 0 and 1)
    if self.dtype == np.float32 or self.dtype is D.LD:
        return _float_lerp(self, end, weight)
    w = np.asarray(weight, self.dtype)
    d = end - self
    return np.where(np.abs(w) < 0.5, self + w * d, end - d * (1 - w)).astype(self.dtype)


def _float_lerp(self: np.ndarray, end: np.ndarray, weight: Any) -> np.ndarray:
    """torch's float32 (and float16/bfloat16, in float) lerp kernel: end - self rounded to
    float, then `self + w * d` or `end - d * (1 - w)` as one fused multiply-add (its vectorized
    and scalar loops alike), so rounded once; computed here in float64, where the float
    products are exact."""
    f, g = np.float32, np.float64
    s, e = self.astype(f), np.asarray(end).astype(f)
    w = np.asarray(weight).astype(f)
    d = (e - s).astype(g)
    r = np.where(
        np.abs(w) < 0.5, s.astype(g) + w.astype(g) * d, e.astype(g) - d * (f(1) - w).astype(g)
    ).astype(f)
    return r if self.dtype == np.float32 else D.round_bf16(r)


_lerp_scalar = defop(
    "lerp.Scalar",
    "LerpBackward0",
    _np_lerp,
    dtype="keep",
    # torch's `grad * (1 - weight.toDouble())` and `grad * weight`: mul.Scalar (MulBackward1)
    self=lambda grad, weight: _mul_scalar(grad, 1 - float(_number(weight))),
    end=lambda grad, weight: _mul_scalar(grad, _number(weight)),
    jvp=LINEAR,
    complex={
        "self": lambda grad, weight: grad * _cj(1 - weight),
        "end": lambda grad, weight: grad * _cj(weight),
    },
)
_lerp_tensor = defop(
    "lerp.Tensor",
    "LerpBackward1",
    _np_lerp,
    dtype="keep",
    self=lambda grad, weight: grad * _number_minus(1, weight),
    end=lambda grad, weight: grad * weight,
    weight=lambda grad, self, end: grad * (end - self),
    jvp=_lerp_t,
    complex={
        "self": lambda grad, weight: grad * conj(_number_minus(1, weight)),
        "end": lambda grad, weight: grad * conj(weight),
        "weight": lambda grad, self, end: grad * conj(end - self),
    },
)


def _number_minus(value: Any, t: Tensor) -> Tensor:
    """ATen's C++ `number - tensor` inside formulas (SubBackward0, the number's edge None)."""
    filled = _make(np.full(t._data.shape, value, t._data.dtype))
    _check_bool_sub(filled, t)  # lerp's 0-d bool weight: torch's bool subtraction error
    return _sub(filled, t, 1)


def _number_over(value: Any, t: Tensor) -> Tensor:
    """ATen's C++ `number / tensor` inside formulas: the number filled into a tensor like t,
    then divided (DivBackward0, the filled operand's edge None)."""
    return _div(_make(np.full(t._data.shape, value, t._data.dtype)), t)


@_half_in_float
def _np_addcmul(self: np.ndarray, tensor1: np.ndarray, tensor2: np.ndarray, value: Any) -> Any:
    _not_for("addcmul_cpu_out", self, "b")
    if (
        self.dtype == np.float32
        and type(value) in (float, int)
        and all(type(a) is np.ndarray and a.dtype == np.float32 for a in (self, tensor1, tensor2))
    ):
        # torch's float kernel: (value * tensor1) rounded, then one fused multiply-add with
        # tensor2 onto self (the float products are exact in float64)
        g = np.float64
        t = (np.float32(value) * tensor1).astype(g)
        return (self.astype(g) + t * tensor2.astype(g)).astype(np.float32)
    return self + np.asarray(value, self.dtype) * tensor1 * tensor2


@_half_in_float
def _np_addcdiv(self: np.ndarray, tensor1: np.ndarray, tensor2: np.ndarray, value: Any) -> Any:
    with np.errstate(all="ignore"):
        return self + np.asarray(value, self.dtype) * tensor1 / tensor2


_addcmul = defop(
    "addcmul",
    "AddcmulBackward0",
    _np_addcmul,
    self=lambda grad: grad,
    tensor1=lambda grad, tensor2, value: grad * _mul_scalar(tensor2, value),
    tensor2=lambda grad, tensor1, value: grad * _mul_scalar(tensor1, value),
    jvp=ELEMENTWISE,
    complex={
        "self": lambda grad: grad,
        "tensor1": lambda grad, tensor2, value: grad * conj(tensor2 * value),
        "tensor2": lambda grad, tensor1, value: grad * conj(tensor1 * value),
    },
)
_addcdiv = defop(
    "addcdiv",
    "AddcdivBackward0",
    _np_addcdiv,
    self=lambda grad: grad,
    # torch's C++ `value / tensor2` (DivBackward0 of a filled tensor) and `value * tensor1`
    # (mul.Scalar)
    tensor1=lambda grad, tensor2, value: grad * _number_over(value, tensor2),
    tensor2=lambda grad, tensor1, tensor2, value: (
        -grad * (_mul_scalar(tensor1, value) / (tensor2 * tensor2))
    ),
    jvp=_addcdiv_t,
    complex={
        "self": lambda grad: grad,
        "tensor1": lambda grad, tensor2, value: grad * conj(_number_over(value, tensor2)),
        "tensor2": lambda grad, tensor1, tensor2, value: (
            -grad * conj(_mul_scalar(tensor1, value) / (tensor2 * tensor2))
        ),
    },
)

ADDCDIV_INT = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
    "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
    "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all "
    "dtypes."
)


def _np_nan_to_num(self: np.ndarray, nan: Any, posinf: Any, neginf: Any) -> np.ndarray:
    if self.dtype.kind not in "fc":
        return self.copy()
    fi = D.np_finfo(self.dtype)
    with np.errstate(over="ignore"):  # a value beyond the dtype becomes inf, as torch's cast
        return np.nan_to_num(
            self,
            nan=nan,
            posinf=fi.max if posinf is None else posinf,
            neginf=fi.min if neginf is None else neginf,
        )


_nan_to_num = defop(
    "nan_to_num",
    "NanToNumBackward0",
    _np_nan_to_num,
    dtype="keep",
    self=lambda grad, self: grad * isfinite(self),
    jvp=ELEMENTWISE,
)


def _np_masked_fill(self: np.ndarray, mask: np.ndarray, value: Any) -> np.ndarray:
    return np.where(mask, value, self).astype(self.dtype, copy=False)


_masked_fill = defop(
    "masked_fill.Scalar",
    "MaskedFillBackward0",
    _np_masked_fill,
    contiguous=True,
    dtype="keep",
    nondiff=("mask",),
    broadcast_order=(1, 0),
    self=lambda grad, mask: masked_fill(grad, mask, 0),
    jvp=ELEMENTWISE,
    complex=True,
)
_masked_fill_tensor = defop(
    "masked_fill.Tensor",
    "MaskedFillBackward1",
    _np_masked_fill,
    contiguous=True,
    dtype="keep",
    nondiff=("mask",),
    broadcast_order=(1, 0),
    self=lambda grad, mask: masked_fill(grad, mask, 0),
    value=lambda grad, mask: _where(mask, grad, 0).sum(),
    jvp=_masked_fill_t,
    complex=True,
)


# --- clamp --------------------------------------------------------------------------------


def _np_clamp(self: np.ndarray, min: Any, max: Any) -> np.ndarray:
    r = self
    # the bound first: numpy returns the second operand on a tie, and torch keeps self there
    # (clamp(-0.0, min=0) is -0.0)
    if min is not None:
        r = np.maximum(min, r)
    if max is not None:
        r = np.minimum(max, r)
    return r.copy() if r is self else r


def _clamp_mask(self: Tensor, min: Any, max: Any) -> Tensor:
    # the bounds are inside: grad passes where min <= self <= max (NaN self gets 0)
    if min is not None and max is not None:
        return (self >= min) & (self <= max)
    return self >= min if min is not None else self <= max


def _clamp_min_grad(grad: Tensor, self: Tensor, min: Tensor, max: Any) -> Tensor:
    if max is None:
        return _where(self < min, grad, 0.0)
    return _where((self < min) & (min < max), grad, 0.0)


def _clamp_max_grad(grad: Tensor, self: Tensor, min: Any, max: Tensor) -> Tensor:
    if min is None:
        return _where(self > max, grad, 0.0)
    return _where((self > max) | (max < min), grad, 0.0)


_clamp = defop(
    "clamp",
    "ClampBackward1",
    _np_clamp,
    nondiff=("min", "max"),
    self=lambda grad, self, min, max: _where(_clamp_mask(self, min, max), grad, 0.0),
    jvp=ELEMENTWISE,
)
_clamp_tensor = defop(
    "clamp.Tensor",
    "ClampBackward0",
    _np_clamp,
    self=lambda grad, self, min, max: _where(_clamp_mask(self, min, max), grad, 0.0),
    min=_clamp_min_grad,
    max=_clamp_max_grad,
    jvp=_clamp_tensor_t,
)
_clamp_min = defop(
    "clamp_min",
    "ClampMinBackward0",
    lambda self, min: np.maximum(min, self),
    nondiff=("min",),
    self=lambda grad, self, min: _where(self >= min, grad, 0.0),
    jvp=ELEMENTWISE,
)
_clamp_min_tensor = defop(
    "clamp_min.Tensor",
    "ClampMinBackward1",
    lambda self, min: np.maximum(min, self),
    self=lambda grad, self, min: _where(self >= min, grad, 0.0),
    min=lambda grad, self, min: _where(self < min, grad, 0.0),
    jvp=lambda self, min, self_t, min_t: _where(self >= min, _tz(self_t, self), _tz(min_t, min)),
)
_clamp_max = defop(
    "clamp_max",
    "ClampMaxBackward0",
    lambda self, max: np.minimum(max, self),
    nondiff=("max",),
    self=lambda grad, self, max: _where(self <= max, grad, 0.0),
    jvp=ELEMENTWISE,
)
_clamp_max_tensor = defop(
    "clamp_max.Tensor",
    "ClampMaxBackward1",
    lambda self, max: np.minimum(max, self),
    self=lambda grad, self, max: _where(self <= max, grad, 0.0),
    max=lambda grad, self, max: _where(self > max, grad, 0.0),
    jvp=lambda self, max, self_t, max_t: _where(self <= max, _tz(self_t, self), _tz(max_t, max)),
)


def clamp(input: Tensor, min: Any = None, max: Any = None, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.clamp` (scalar bounds: ClampBackward1; tensor bounds: ClampBackward0)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if input._data.dtype.kind == "c":
        from .registry import check_inference_saved

        tensors = isinstance(min, Tensor) or isinstance(max, Tensor)
        # torch's autograd kernel saves (packs) its inputs before clamp's dtype check
        check_inference_saved(_clamp_tensor if tensors else _clamp, (input, min, max))
        raise NotImplementedError("clamp is not supported for complex types")
    # a Number with a Tensor: torch's parser reads a 0-d tensor as a Number (not one requiring
    # grad)
    if (
        (isinstance(min, Tensor) or isinstance(max, Tensor))
        and not (isinstance(min, Tensor | None) and isinstance(max, Tensor | None))
        and all(not b._data.ndim and not b._rg for b in (min, max) if isinstance(b, Tensor))
    ):
        min, max = (b.item() if isinstance(b, Tensor) else b for b in (min, max))
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if not isinstance(min, Tensor | None) or not isinstance(max, Tensor | None):
            raise _invalid_combination(
                "clamp",
                (input, min, max),
                (
                    "Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None",
                    "Tensor input, Number min = None, Number max = None, *, Tensor out = None",
                ),
            )
        # torch's kernel: clamp with both bounds, else maximum or minimum
        bounds = [t._data for t in (min, max) if t is not None]
        kernel = (
            "clamp_cpu" if len(bounds) == 2 else "maximum_cpu" if max is None else "minimum_cpu"
        )
        _no_complex(kernel, input._data, *bounds)
        if len(bounds) == 2 and result_type_of([input, min, max]) is D.bool_:
            infer_size(infer_size(input._data.shape, bounds[0].shape), bounds[1].shape)
            raise NotImplementedError("\"clamp_cpu\" not implemented for 'Bool'")
        r = _clamp_tensor(input, min, max)
    else:
        kernel = "clamp_max" if min is None else "clamp_min" if max is None else "clamp"
        _check_clamp_scalars(input, kernel, min, max)
        r = _clamp(input, min, max)
    return _out(r, out, "clamp", input, min, max)


def _check_clamp_scalars(input: Tensor, kernel: str, *bounds: Any) -> None:
    """torch's clamp with Number bounds: no Bool kernel, and each bound must fit the result
    dtype (`clamp(uint8, max=300)`: c10's overflow error)."""
    given = [b for b in bounds if b is not None]
    if input._data.dtype.kind == "f" and all(
        b.__class__ in (float, int) and -65504.0 <= b <= 65504.0 for b in given
    ):
        return  # a float tensor with modest Python numbers: nothing to refuse (the common call)
    if not all(isinstance(b, _NUMBER) for b in given):  # a str, a list: torch's parser error
        from .._signatures import reraise

        if len(bounds) == 1:  # clamp_min, clamp_max: their own one bound
            reraise(kernel, bounds, {})
        else:
            reraise("clamp", bounds if bounds[1] is not None else bounds[:1], {})
    dt = result_type_of([input, *given])
    if dt is D.bool_:
        raise NotImplementedError(f"\"{kernel}_scalar_cpu\" not implemented for 'Bool'")
    for b in given:
        D.check_scalar_fits(b, dt)


def _clamp_bound_error(name: str, input: Any, bound: Any) -> None:
    """clamp_min/clamp_max given no Tensor input: torch's parser listing of both overloads."""
    from .._signatures import reraise

    reraise(name, (bound,), {}, False, (input,))
    raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor")


def _no_clamp(a: np.ndarray) -> np.ndarray:
    """torch's clamp family (relu included) refuses complex inputs."""
    if a.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    return a


def clamp_min(input: Tensor, min: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.clamp_min`."""
    if not isinstance(input, Tensor):
        _clamp_bound_error("clamp_min", input, min)
    if isinstance(min, Tensor):  # torch's maximum kernel
        _no_complex("maximum_cpu", input._data, min._data)
    _no_clamp(input._data)
    if not isinstance(min, Tensor):
        _check_clamp_scalars(input, "clamp_min", min)
    r = _clamp_min_tensor(input, min) if isinstance(min, Tensor) else _clamp_min(input, min)
    return _out(r, out, "clamp_min", input, min)


def clamp_max(input: Tensor, max: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.clamp_max`."""
    if not isinstance(input, Tensor):
        _clamp_bound_error("clamp_max", input, max)
    if isinstance(max, Tensor):  # torch's minimum kernel
        _no_complex("minimum_cpu", input._data, max._data)
    _no_clamp(input._data)
    if not isinstance(max, Tensor):
        _check_clamp_scalars(input, "clamp_max", max)
    r = _clamp_max_tensor(input, max) if isinstance(max, Tensor) else _clamp_max(input, max)
    return _out(r, out, "clamp_max", input, max)


# --- public functions of the binary ops ---------------------------------------------------


def _need_tensor(fn: str, v: Any, name: str = "other", pos: int = 2) -> None:
    if not isinstance(v, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(v).__name__}"
        )


def _invalid_combination(fn: str, args: tuple[Any, ...], sigs: tuple[str, ...]) -> TypeError:
    got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args)
    lines = "".join(f" * ({s})\n" for s in sigs)
    return TypeError(
        f"{fn}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n{lines}"
    )


def atan2(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.atan2`."""
    _need_tensor("atan2", other)
    return _out(_atan2(input, other), out, "atan2", input, other)


def hypot(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.hypot`."""
    return _out(tensor_binary("hypot", _hypot, input, other, out), out, "hypot", input, other)


def logaddexp(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.logaddexp`."""
    return _out(
        tensor_binary("logaddexp", _logaddexp, input, other, out), out, "logaddexp", input, other
    )


def logaddexp2(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.logaddexp2`."""
    return _out(
        tensor_binary("logaddexp2", _logaddexp2, input, other, out), out, "logaddexp2", input, other
    )


def _no_complex_binary(name: str, input: Tensor, other: Tensor) -> None:
    if input._data.dtype.kind == "c" or other._data.dtype.kind == "c":
        raise RuntimeError(f"{name} not implemented for complex tensors.")


def maximum(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.maximum`."""
    _need_tensor("maximum", other)
    _no_complex_binary("maximum", input, other)
    return _out(_maximum(input, other), out, "maximum", input, other)


def minimum(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.minimum`."""
    _need_tensor("minimum", other)
    _no_complex_binary("minimum", input, other)
    return _out(_minimum(input, other), out, "minimum", input, other)


def fmax(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.fmax`."""
    _need_tensor("fmax", other)
    _no_complex_binary("fmax", input, other)
    return _out(_fmax(input, other), out, "fmax", input, other)


def fmin(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.fmin`."""
    _need_tensor("fmin", other)
    _no_complex_binary("fmin", input, other)
    return _out(_fmin(input, other), out, "fmin", input, other)


_XLOGY_SIGS = (
    "Tensor input, Tensor other, *, Tensor out = None",
    "Number self, Tensor other, *, Tensor out = None",
    "Tensor input, Number other, *, Tensor out = None",
)


def xlogy(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.xlogy` (0 where input is 0, even where other is 0)."""
    if isinstance(input, Tensor):
        r = _xlogy(input, other) if isinstance(other, Tensor) else _xlogy_scalar_other(input, other)
    elif isinstance(other, Tensor):
        r = _xlogy_scalar_self(input, other)
    else:
        raise _invalid_combination("xlogy", (input, other), _XLOGY_SIGS)
    return _out(r, out, "xlogy", input, other)


def copysign(input: Tensor, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.copysign`."""
    if not isinstance(input, Tensor):
        raise _invalid_combination(
            "copysign",
            (input, other),
            (
                "Tensor input, Tensor other, *, Tensor out = None",
                "Tensor input, Number other, *, Tensor out = None",
            ),
        )
    r = _copysign(input, other) if isinstance(other, Tensor) else _copysign_scalar(input, other)
    return _out(r, out, "copysign", input, other)


def lerp(input: Tensor, end: Tensor, weight: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.lerp`."""
    try:
        if not isinstance(end, Tensor):
            raise _invalid_combination(
                "lerp",
                (input, end, weight),
                (
                    "Tensor input, Tensor end, Tensor weight, *, Tensor out = None",
                    "Tensor input, Tensor end, Number weight, *, Tensor out = None",
                ),
            )
        wt = isinstance(weight, Tensor)
        dt = input.dtype
        # torch checks the operands' dtypes first; a 0-d weight is exempt: a scalar operand that
        # takes part in the result dtype (an int input with a float64 0-d weight is float64)
        for name, t in (("end", end), ("weight", weight if wt and weight.ndim else None)):
            if t is not None and t.dtype is not dt:
                raise RuntimeError(
                    f"expected dtype {D.CPP_NAMES[dt]} for `{name}` but got dtype "
                    f"{D.CPP_NAMES[t.dtype]}"
                )
        if wt and not weight.ndim:
            dt = result_type_of([input, end, weight])
        if not wt and dt._cat == 2:  # the scalar weight is read in the input's opmath type
            D.check_scalar_fits(weight, D.float32 if dt is D.float16 else dt)
        if dt._cat < 2:
            shape = infer_size(input._data.shape, end._data.shape)  # TensorIterator's first
            if wt:
                infer_size(shape, weight._data.shape)
            kernel = "lerp_kernel_tensor" if wt else "lerp_kernel_scalar"
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")
        if dt is not input.dtype:
            input, end = input.to(dt), end.to(dt)
        r = _lerp_tensor(input, end, weight) if wt else _lerp_scalar(input, end, weight)
        return _out(r, out, "lerp", input, end, weight)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("lerp", (end, weight), {})
        raise


def _addc_value(name: str, value: Any) -> Any:
    """addcmul/addcdiv's keyword-only value: a Number (a 0-d Tensor's read), else torch's
    parser error."""
    if isinstance(value, Tensor):
        return _scalar_arg(value, name, "value")
    if not isinstance(value, (bool, int, float, complex, np.generic)):
        from .._signatures import _type_name

        raise TypeError(f"{name}(): argument 'value' must be Number, not {_type_name(value)}")
    return value


def addcmul(
    input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.addcmul`: input + value * tensor1 * tensor2."""
    _need_tensor("addcmul", tensor2, "tensor2", 3)
    if value.__class__ is not int and value.__class__ is not float:
        value = _addc_value("addcmul", value)
    try:
        r = _addcmul(input, tensor1, tensor2, value)
    except (AttributeError, TypeError):  # a non-Tensor input or tensor1: torch's parser
        if not (isinstance(input, Tensor) and isinstance(tensor1, Tensor)):
            _addc_parser_error("addcmul", input, tensor1, tensor2, value)
        raise
    return _out(r, out, "addcmul", input, tensor1, tensor2)


def addcdiv(
    input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.addcdiv`: input + value * tensor1 / tensor2."""
    _need_tensor("addcdiv", tensor2, "tensor2", 3)
    if value.__class__ is not int and value.__class__ is not float:
        value = _addc_value("addcdiv", value)
    if not (isinstance(input, Tensor) and isinstance(tensor1, Tensor)):  # torch's parser
        _addc_parser_error("addcdiv", input, tensor1, tensor2, value)
    if tensor1.dtype._cat < 2 and tensor2.dtype._cat < 2:
        raise RuntimeError(ADDCDIV_INT)
    return _out(_addcdiv(input, tensor1, tensor2, value), out, "addcdiv", input, tensor1, tensor2)


def _addc_parser_error(name: str, *values: Any) -> None:
    """addcmul/addcdiv given a non-Tensor input or tensor1: torch's parser error, the method
    form's positions without self."""
    from .._signatures import reraise_as_called

    names = ("tensor1", "tensor2", "value")
    reraise_as_called(name, names, values[1:], True, values[0], 1)
    _need_tensor(name, values[0], "input", 1)
    _need_tensor(name, values[1], "tensor1", 2)


def nan_to_num(
    input: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.nan_to_num`."""
    if input.is_complex() and input.requires_grad and _grad_state().grad:
        from .registry import check_inference_saved

        check_inference_saved(_nan_to_num, (input, nan, posinf, neginf))  # saved, then refused
        raise RuntimeError(
            "nan_to_num does not support automatic differentiation for outputs with complex dtype."
        )
    if nan is None:
        nan = 0.0  # torch's nan is optional: None means 0
    for k, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        # a number (bool is an int), None, or a 0-d tensor (its value)
        if not (
            v is None
            or isinstance(v, (int, float, np.number))
            or (isinstance(v, Tensor) and not v._data.ndim)
        ):
            raise TypeError(f"nan_to_num(): argument '{k}' must be float, not {type(v).__name__}")
    if isinstance(nan, Tensor) or isinstance(posinf, Tensor) or isinstance(neginf, Tensor):
        nan, posinf, neginf = (
            v.item() if isinstance(v, Tensor) else v for v in (nan, posinf, neginf)
        )
    if out is not None and out.dtype is not input.dtype:
        raise RuntimeError(
            f"nan_to_num: dtype of out: {out.dtype._short} should be same as input: "
            f"{input.dtype._short}"
        )
    return _out(_nan_to_num(input, nan, posinf, neginf), out, "nan_to_num", input)


def _grad_state() -> Any:
    from .. import _grad_mode

    return _grad_mode.STATE


def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:
    """Mirrors `torch.masked_fill` (a tensor value must be 0-d: MaskedFillBackward1)."""
    if not isinstance(mask, Tensor) or not isinstance(value, (Tensor, *_NUMBER)):
        from .._signatures import reraise

        reraise("masked_fill", (mask, value), {})  # a list, a str, None: torch's parser error
    if mask.dtype is not D.bool_:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{D.CPP_NAMES[mask.dtype]}"
        )
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        if value.dtype.is_complex and not input.dtype.is_complex:
            D.check_scalar_fits(complex(value._data), input.dtype)  # torch's item() check
        return _masked_fill_tensor(input, mask, value)
    D.check_scalar_fits(value, input.dtype)
    return _masked_fill(input, mask, value)


# --- predicates and logical ops (non-differentiable, bool results) -----------------------


def isfinite(input: Tensor) -> Tensor:
    """Mirrors `torch.isfinite`."""
    return _make(np.isfinite(input._data))


def isposinf(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.isposinf`."""
    a = input._data
    if a.dtype.kind == "c":
        raise RuntimeError("isposinf does not support complex inputs.")
    r = np.isposinf(a) if a.dtype.kind in "fc" else np.zeros(a.shape, np.bool_)
    return _out(_make(r), out, "isposinf", input)


def isneginf(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.isneginf`."""
    a = input._data
    if a.dtype.kind == "c":
        raise RuntimeError("isneginf does not support complex inputs.")
    r = np.isneginf(a) if a.dtype.kind in "fc" else np.zeros(a.shape, np.bool_)
    return _out(_make(r), out, "isneginf", input)


def isreal(input: Tensor) -> Tensor:
    """Mirrors `torch.isreal`."""
    a = input._data
    if a.dtype.kind == "c":
        return _make(np.isreal(a))
    from .._formats import preserve_result  # torch's ones_like(self, kBool)

    return _make(preserve_result(np.ones(a.shape, np.bool_), a))


def signbit(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.signbit`."""
    a = input._data
    if a.dtype.kind == "c":
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    if out is not None and out.dtype is not D.bool_:
        raise RuntimeError("signbit does not support non-boolean outputs.")
    r = np.zeros(a.shape, np.bool_) if a.dtype == np.bool_ else np.signbit(a)
    return _out(_make(r), out, "signbit", input)


def isclose(
    input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    """Mirrors `torch.isclose`: |input - other| <= atol + rtol * |other|, or equal."""
    _need_tensor("isclose", other)
    if equal_nan is not False and equal_nan is not True:  # torch's parser takes a bool only
        from .._signatures import reraise

        reraise("isclose", (other, rtol, atol, equal_nan), {})
    if type(rtol) is not float or type(atol) is not float:  # a str, None: the parser's error
        from .._signatures import reraise

        reraise("isclose", (other, rtol, atol, equal_nan), {})
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{input.dtype._short} did not match {other.dtype._short}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {_num(rtol)}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {_num(atol)}")
    a, b = input._data, other._data
    close = a == b
    if a.dtype == np.bool_:
        return _make(close)
    with np.errstate(all="ignore"):
        if equal_nan and a.dtype.kind in "fc":
            close = close | (np.isnan(a) & np.isnan(b))
        if rtol != 0 or atol != 0:
            ft = a.dtype if a.dtype.kind in "fc" else D.get_default_dtype()._np
            allowed = atol + np.abs(rtol * b.astype(ft))
            actual = np.abs(a.astype(ft) - b.astype(ft))
            close = close | (np.isfinite(actual) & (actual <= allowed))
    return _make(np.asanyarray(close))


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


def _logical(np_fn: Any, fn_name: str) -> Any:
    def op(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        _need_tensor(fn_name, other)
        try:
            r = np_fn(input._data, other._data)
        except ValueError as e:  # torch's broadcast error, not numpy's
            from .registry import _broadcast_error

            raise _broadcast_error(e, [input._data, other._data]) from None
        return _out(_make(np.asarray(r)), out, fn_name, input, other)

    op.__name__ = fn_name
    op.__doc__ = f"Mirrors `torch.{fn_name}`."
    return op


logical_and = _logical(np.logical_and, "logical_and")
logical_or = _logical(np.logical_or, "logical_or")
logical_xor = _logical(np.logical_xor, "logical_xor")


def logical_not(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.logical_not`."""
    return _out(_make(np.logical_not(input._data)), out, "logical_not", input)


def _bitwise(op: Any, fn_name: str) -> Any:
    def fn(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
        try:
            dt = result_type_of([input, other])
            if dt._cat >= 2:
                if isinstance(input, Tensor) and isinstance(other, Tensor):
                    infer_size(input.shape, other.shape)  # torch's shape error comes first
                cast_error_first(out, input, other)
                raise NotImplementedError(f"\"{fn_name}_cpu\" not implemented for '{dt._short}'")
            if not isinstance(input, Tensor):
                input, other = other, input
            return _out(op(input, other), out, fn_name, input, other)
        except Exception:  # torch's parser refuses the arguments first
            from .._signatures import reraise

            reraise(fn_name, (other,), {})
            raise

    fn.__name__ = fn_name
    fn.__doc__ = f"Mirrors `torch.{fn_name}`."
    return fn


bitwise_and = _bitwise(_logical_and, "bitwise_and")
bitwise_or = _bitwise(_logical_or, "bitwise_or")
bitwise_xor = _bitwise(_logical_xor, "bitwise_xor")


# --- bit shifts ---------------------------------------------------------------------------
# torch shifts in the promoted integer dtype; a count outside [0, bits) gives 0 (left) or the
# sign fill (right: -1 for a negative value), and a left shift wraps around as unsigned.


def _wrap_int(v: Any, dt: np.dtype) -> np.ndarray:
    """A Python number as a 0-d array of dt, wrapped into it as torch casts a Scalar."""
    return np.asarray(np.asarray(int(v) & 0xFFFFFFFFFFFFFFFF, np.uint64).astype(dt))


def _shift_operands(self: Any, other: Any) -> tuple[np.ndarray, np.ndarray]:
    # a Python int arrives unchanged on the fast path: it takes the tensor's dtype
    if not isinstance(self, np.ndarray):
        self = _wrap_int(self, other.dtype)
    if not isinstance(other, np.ndarray):
        other = _wrap_int(other, self.dtype)
    return self, other


def _np_lshift(self: Any, other: Any) -> np.ndarray:
    a, b = _shift_operands(self, other)
    dt = a.dtype
    u = np.dtype(f"u{dt.itemsize}")
    ok = (b >= 0) & (b < dt.itemsize * 8)
    shifted = np.left_shift(a.astype(u), np.where(ok, b, 0).astype(u)).astype(dt)
    return np.asarray(np.where(ok, shifted, 0).astype(dt, copy=False))


def _np_rshift(self: Any, other: Any) -> np.ndarray:
    a, b = _shift_operands(self, other)
    dt = a.dtype
    ok = (b >= 0) & (b < dt.itemsize * 8)
    shifted = np.right_shift(a, np.where(ok, b, 0).astype(dt))
    return np.asarray(np.where(ok, shifted, np.where(a < 0, -1, 0)).astype(dt, copy=False))


# integer-only: never differentiable (a float operand is an error), so no formula and no jvp
_lshift = defop(
    "bitwise_left_shift.Tensor",
    "BitwiseLeftShiftBackward0",
    _np_lshift,
    nondiff=("self", "other"),
)
_rshift = defop(
    "bitwise_right_shift.Tensor",
    "BitwiseRightShiftBackward0",
    _np_rshift,
    nondiff=("self", "other"),
)


def _shift(op: Any, fn_name: str, kernel: str) -> Any:
    def fn(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
        if not isinstance(input, Tensor) and not isinstance(other, Tensor):
            got = f"!{type(input).__name__}!, !{type(other).__name__}!"
            raise _invalid_combination(
                fn_name,
                (input, other),
                (
                    "Tensor input, Tensor other, *, Tensor out = None",
                    "Number self, Tensor other)\n      didn't match because some of the arguments "
                    f"have invalid types: ({got}",
                    "Tensor input, Number other, *, Tensor out = None",
                ),
            )
        try:
            dt = result_type_of([input, other])
            if dt._cat >= 2 or dt is D.bool_:
                cast_error_first(out, input, other)
                raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{dt._short}'")
            return _out(op(input, other), out, fn_name, input, other)
        except Exception:  # torch's parser refuses the arguments first
            from .._signatures import reraise

            reraise(fn_name, (other,), {})
            raise

    fn.__name__ = fn_name
    fn.__doc__ = f"Mirrors `torch.{fn_name}`."
    return fn


bitwise_left_shift = _shift(_lshift, "bitwise_left_shift", "lshift")
bitwise_right_shift = _shift(_rshift, "bitwise_right_shift", "rshift")


def _check_result_cast(self: Tensor, other: Any) -> None:
    """An in-place op's result dtype must cast to self's (checked before the kernel runs)."""
    from .inplace import can_cast

    dt = result_type_of([self, other])
    if not can_cast(dt, self.dtype):
        raise RuntimeError(
            f"result type {dt._short} can't be cast to the desired output type {self.dtype._short}"
        )


def _cast_checked_inplace(fn: Any) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        from .inplace import apply_inplace, shapes_first

        try:
            _check_result_cast(self, other)
        except RuntimeError as e:
            shapes_first(fn, self, (other,), {}, e)  # torch checks the shapes first
            raise
        return apply_inplace(fn, self, other)

    method.__name__ = fn.__name__ + "_"
    return method


def _cast_checked_iop(fn: Any) -> Any:
    inplace = _cast_checked_inplace(fn)

    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, bool, int, float, complex, np.generic)):
            return NotImplemented
        return inplace(self, other)

    return method


def _reflected(fn: Any) -> Any:
    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, bool, int, float, complex, np.generic)):
            return NotImplemented
        return fn(other, self)

    return method


# --- heaviside: no derivative in torch ------------------------------------------------------


def _np_heaviside(self: np.ndarray, values: np.ndarray) -> np.ndarray:
    # NaN input gives 0, as torch's kernel (`x == 0 ? values : x > 0`)
    return np.asarray(np.where(self == 0, values, self > 0).astype(self.dtype, copy=False))


_heaviside = defop(
    "heaviside",
    "HeavisideBackward0",
    _np_heaviside,
    dtype="keep",
    nondiff=("self", "values"),
)


def no_derivative(result: Tensor, inputs: tuple[Any, ...], aten: str) -> Tensor:
    """An op torch records without a derivative: a NotImplemented node when autograd records it
    (backward through it raises), and torch's error when an input carries a forward-AD tangent."""
    from .rounding import _not_implemented

    return _not_implemented(result, inputs, aten)


_HEAVISIDE_DTYPES = "heaviside is not yet implemented for tensors with different dtypes."


def _heaviside_checked(input: Tensor, values: Tensor, aten: str) -> Tensor:
    if input.is_complex() or values.is_complex():
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input._data.dtype != values._data.dtype:
        raise RuntimeError(_HEAVISIDE_DTYPES)
    return no_derivative(_heaviside(input, values), (input, values), aten)


def heaviside(input: Tensor, values: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.heaviside` (not differentiable: backward through it raises)."""
    _need_tensor("heaviside", input, "input", 1)
    _need_tensor("heaviside", values, "values", 2)
    if out is not None and out._data.dtype.kind == "c":
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if out is not None and out._data.dtype != input._data.dtype:
        raise RuntimeError(_HEAVISIDE_DTYPES)
    return _out(_heaviside_checked(input, values, "heaviside"), out, "heaviside", input, values)


def _heaviside_method(self: Tensor, values: Tensor) -> Tensor:
    _need_tensor("heaviside", values, "values", 1)
    return _heaviside_checked(self, values, "heaviside")


def _heaviside_inplace_fn(self: Tensor, values: Tensor) -> Tensor:
    return _heaviside_checked(self, values, "heaviside_")


def heaviside_(self: Tensor, values: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.heaviside_`."""
    from .inplace import apply_inplace

    _need_tensor("heaviside_", values, "values", 1)
    return apply_inplace(_heaviside_inplace_fn, self, values)


def _invert_method(self: Tensor) -> Tensor:
    if self.dtype._cat >= 2:
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return _invert(self)


def _unary_out(op: Any, name: str) -> Any:
    def fn(input: Tensor, *, out: Tensor | None = None) -> Tensor:
        if (
            out is not None
            and name == "abs"
            and out.dtype is not input.dtype
            and (out.dtype.is_complex or not input.dtype.is_complex)
        ):  # abs keeps the dtype: no cast into out (a complex input's real result may cast)
            keep_dtype_out(input, out, name)
        return _out(op(input), out, name, input)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`."
    return fn


_UNARY = {
    "abs": abs,
    "exp2": exp2,
    "expm1": expm1,
    "log2": log2,
    "log10": log10,
    "log1p": log1p,
    "sqrt": sqrt,
    "rsqrt": rsqrt,
    "sin": sin,
    "cos": cos,
    "tan": tan,
    "asin": asin,
    "acos": acos,
    "atan": atan,
    "sinh": sinh,
    "cosh": cosh,
    "asinh": asinh,
    "acosh": acosh,
    "atanh": atanh,
    "erf": erf,
    "erfc": erfc,
    "erfinv": erfinv,
}
_UNARY_FUNCTIONS = {name: _unary_out(op, name) for name, op in _UNARY.items()}
_ALIASES = {
    "absolute": "abs",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "clip": "clamp",
}
_MORE = {
    "logit": logit,
    "atan2": atan2,
    "hypot": hypot,
    "logaddexp": logaddexp,
    "logaddexp2": logaddexp2,
    "maximum": maximum,
    "minimum": minimum,
    "fmax": fmax,
    "fmin": fmin,
    "xlogy": xlogy,
    "copysign": copysign,
    "lerp": lerp,
    "addcmul": addcmul,
    "addcdiv": addcdiv,
    "nan_to_num": nan_to_num,
    "masked_fill": masked_fill,
    "clamp": clamp,
    "clamp_min": clamp_min,
    "clamp_max": clamp_max,
    "isfinite": isfinite,
    "isposinf": isposinf,
    "isneginf": isneginf,
    "isreal": isreal,
    "signbit": signbit,
    "isclose": isclose,
    "logical_and": logical_and,
    "logical_or": logical_or,
    "logical_xor": logical_xor,
    "logical_not": logical_not,
    "bitwise_and": bitwise_and,
    "bitwise_or": bitwise_or,
    "bitwise_xor": bitwise_xor,
    "bitwise_left_shift": bitwise_left_shift,
    "bitwise_right_shift": bitwise_right_shift,
    "heaviside": heaviside,
}


def _self_first_broadcast(method: Any) -> Any:
    """An in-place op whose broadcast error names self first (its TensorIterator's operand
    order), where the out-of-place op names the mask first."""

    def inplace(self: Tensor, mask: Any, value: Any) -> Tensor:
        try:
            return method(self, mask, value)
        except RuntimeError as e:
            if isinstance(mask, Tensor) and str(e).startswith("The size of tensor a"):
                from .registry import infer_size

                infer_size(tuple(self._data.shape), tuple(mask._data.shape))
            raise

    inplace.__name__ = inplace.__qualname__ = method.__name__
    inplace.__doc__ = method.__doc__
    inplace.__wrapped__ = method  # type: ignore[attr-defined]
    return inplace


# in-place variants torch has (Tensor methods only)
_INPLACE_NAMES = (
    *_UNARY,
    "logit",
    "atan2",
    "hypot",
    "xlogy",
    "copysign",
    "lerp",
    "addcmul",
    "addcdiv",
    "nan_to_num",
    "masked_fill",
    "clamp",
    "clamp_min",
    "clamp_max",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
)


def _scalar_bounds_checked(method: Any) -> Any:
    """clamp_ with Number bounds: torch's cast check names self's dtype by its C++ type
    ('long int'); Tensor bounds go through the common in-place check ('Long')."""

    def checked(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if (
            complex_first
            and self._data.dtype.kind == "c"
            and any(b is not None for b in (*args, *kwargs.values()))
        ):
            self._check_inplace()  # torch's autograd layer checks first, then clamp's dtype
            raise NotImplementedError("clamp is not supported for complex types")
        if self.dtype._cat < 2:  # an integral or bool self: a float bound can't cast back
            bounds = [*args, *kwargs.values()]
            if not any(isinstance(b, Tensor) for b in bounds):
                from .inplace import can_cast

                dt = result_type_of([self, *(b for b in bounds if b is not None)])
                if not can_cast(dt, self.dtype):
                    raise RuntimeError(
                        f"result type {dt._short} can't be cast to the desired output type "
                        f"{D.CPP_NAMES[self.dtype]}"
                    )
        return method(self, *args, **kwargs)

    complex_first = method.__name__ in ("clamp_", "clip_")  # (before any overlap check)
    checked.__name__ = checked.__qualname__ = method.__name__
    return checked


def _more_methods() -> dict[str, Any]:
    from .inplace import EXPANDED, NOGRAD_INTO, make_inplace, make_iop

    m: dict[str, Any] = {**_UNARY, **_MORE}
    NOGRAD_INTO[add] = _add_into
    EXPANDED[masked_fill] = "masked_fill_"  # torch warns and writes expanded memory
    for alias, name in _ALIASES.items():
        m[alias] = m[name]
    inplace = {name + "_": make_inplace(m[name]) for name in _INPLACE_NAMES}
    for name, op in _INPLACE_ONLY.items():
        inplace[name + "_"] = make_inplace(op)
    for alias, name in _ALIASES.items():
        inplace[alias + "_"] = inplace[name + "_"]
    m.update(inplace)
    m["masked_fill_"] = _self_first_broadcast(m["masked_fill_"])
    for name in ("clamp_", "clamp_min_", "clamp_max_", "clip_"):
        m[name] = _scalar_bounds_checked(m[name])
    m["bitwise_not_"] = make_inplace(bitwise_not)
    m["__abs__"] = abs
    m["__and__"] = _binop_check(bitwise_and)
    m["__or__"] = _binop_check(bitwise_or)
    m["__xor__"] = _binop_check(bitwise_xor)
    m["__rand__"] = _binop_check(bitwise_and)
    m["__ror__"] = _binop_check(bitwise_or)
    m["__rxor__"] = _binop_check(bitwise_xor)
    m["__invert__"] = _invert_method
    # the result dtype must cast to self's before the kernel's dtype check (`int &= 1.5`)
    for name, fn in (("and", bitwise_and), ("or", bitwise_or), ("xor", bitwise_xor)):
        m[f"bitwise_{name}_"] = _cast_checked_inplace(fn)
        m[f"__i{name}__"] = _cast_checked_iop(fn)
    m["__div__"] = METHODS["__truediv__"]
    m["__rdiv__"] = METHODS["__rtruediv__"]
    m["__idiv__"] = make_iop(div)
    m["heaviside"] = _heaviside_method
    m["heaviside_"] = heaviside_
    m["bitwise_left_shift_"] = _cast_checked_inplace(bitwise_left_shift)
    m["bitwise_right_shift_"] = _cast_checked_inplace(bitwise_right_shift)
    m["__lshift__"] = _binop_check(bitwise_left_shift)
    m["__rshift__"] = _binop_check(bitwise_right_shift)
    m["__rlshift__"] = _reflected(bitwise_left_shift)
    m["__rrshift__"] = _reflected(bitwise_right_shift)
    m["__ilshift__"] = _cast_checked_iop(bitwise_left_shift)
    m["__irshift__"] = _cast_checked_iop(bitwise_right_shift)
    return m


# --- random fills (nn.init's in-place draws) -----------------------------------------------
# Their nodes pass a zero grad (torch: zeros_like(grad)): the draws do not depend on the input.
# The values are torch's: each kernel draws in the order torch writes the tensor (its memory
# order) and rounds as torch's CPU kernel does (see _rng_kernels.py).


def _gen(generator: Any) -> Any:
    from .._random import _gen as gen

    return gen(generator)


def _zero_grad(grad: Tensor) -> Tensor:
    return _zeros_like(grad)


def _need_float(a: np.ndarray, kernel: str) -> None:
    _not_for(kernel, a, "biu")


def _np_uniform(self: np.ndarray, low: float, high: float, generator: Any) -> np.ndarray:
    _need_float(self, "check_uniform_bounds")
    return _rk.place(_rk.uniform(_gen(generator), self.size, self.dtype, low, high), self)


def _np_normal(self: np.ndarray, mean: float, std: float, generator: Any) -> np.ndarray:
    _need_float(self, "normal_kernel_cpu")
    drawn = _rk.normal(_gen(generator), self.size, self.dtype, mean, std, self.flags.c_contiguous)
    return _rk.place(drawn, self)


def _np_bernoulli(self: np.ndarray, p: Any, generator: Any) -> np.ndarray:
    """bernoulli_(p) into an array like self: p a float or an array broadcast to self."""
    g = _gen(generator)
    if self.dtype.kind == "c":
        tensor_p = isinstance(p, np.ndarray)
        _not_for(f"bernoulli_{'tensor_cpu_self' if tensor_p else 'scalar_cpu'}_", self, "c")
    if isinstance(p, np.ndarray):
        _not_for("bernoulli_tensor_cpu_p_", p, "biuc")
        if not np.logical_and(p >= 0, p <= 1).all():  # NaN fails too, as torch's check
            raise RuntimeError(
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                "message be improved?  If so, please report an enhancement request to PyTorch.)"
            )
        drawn = _rk.bernoulli_tensor(g, _rk.in_order_of(np.broadcast_to(p, self.shape), self))
    else:
        drawn = _rk.bernoulli_scalar(g, self.size, p)
    return _rk.place(_rk.cast(drawn, self.dtype), self)


def _np_exponential(self: np.ndarray, lambd: float, generator: Any) -> np.ndarray:
    if self.dtype.kind not in "fc":
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {D._FROM_NP[self.dtype]._short}"
        )
    drawn = _rk.exponential(_gen(generator), self.size, lambd)
    return _rk.place(_rk.cast(drawn, self.dtype), self)


def _np_random(self: np.ndarray, low: Any, high: Any, generator: Any) -> np.ndarray:
    from .._random import random_values

    g = _gen(generator)
    if low is not None:
        return random_values(g, self, int(low), None if high is None else int(high))
    _not_for("random_kernel_cpu", self, "c")
    return _rk.place(_rk.random_default(g, self.size, self.dtype), self)


def _meta_no_draw(fn: Any) -> Any:
    from .._device import no_draw

    return no_draw(fn)  # a meta tensor's sampling draws nothing (torch's meta kernels)


_uniform = defop(
    "uniform",
    "UniformBackward0",
    _meta_no_draw(_np_uniform),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
_normal_fill = defop(
    "normal",
    "NormalBackward0",
    _meta_no_draw(_np_normal),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
_bernoulli_fill = defop(
    "bernoulli.float",
    "BernoulliBackward2",
    _meta_no_draw(_np_bernoulli),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
_exponential = defop(
    "exponential",
    "ExponentialBackward0",
    _meta_no_draw(_np_exponential),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
# random_(from, to), random_(to) and random_() are three overloads with their own nodes
_random_fill = defop(
    "random.from", "RandomBackward0", _np_random, dtype="keep", self=_zero_grad, jvp=ELEMENTWISE
)
_random_to = defop(
    "random.to", "RandomBackward1", _np_random, dtype="keep", self=_zero_grad, jvp=ELEMENTWISE
)
_random_all = defop(
    "random",
    "RandomBackward2",
    _meta_no_draw(_np_random),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)


def _float_arg(fn: str, name: str, pos: int, v: Any) -> Any:
    """A float parameter of a sampler: a number (a 0-d tensor's value), or torch's TypeError."""
    if isinstance(v, (int, float, np.number)):
        return v
    if isinstance(v, Tensor) and not v._data.ndim:
        return v._data.item()
    raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be float, not {_tname(v)}")


def check_generator(fn: str, generator: Any) -> None:
    """A sampler's `generator=` must be a torch.Generator (torch's parser error)."""
    from .._random import Generator

    if not isinstance(generator, Generator):
        raise TypeError(
            f"{fn}(): argument 'generator' must be torch.Generator, not {_tname(generator)}"
        )


def _tname(v: Any) -> str:
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


@autograd_checks_first
def uniform_(self: Tensor, from_: float = 0, to: float = 1, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.uniform_` (the keyword `from` is `from_` here)."""
    from .inplace import apply_inplace

    if generator is not None:
        check_generator("uniform_", generator)
    if type(from_) is not float or type(to) is not float:
        from_ = _float_arg("uniform_", "from", 1, from_)
        to = _float_arg("uniform_", "to", 2, to)
    _need_float(self._data, "check_uniform_bounds")  # (before the range check, as torch's)
    if from_ > to:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={_num(from_)} > "
            f"to={_num(to)}"
        )
    if self._data.dtype.kind in "fc":
        real = D.np_finfo(self._data.dtype)
        name = D.CPP_NAMES[D._FROM_NP[self._data.dtype]]
        for label, v in (("from", from_), ("to", to)):
            if not float(real.min) <= v <= float(real.max):
                raise RuntimeError(f"{label} is out of bounds for {name}")
    return apply_inplace(_uniform, self, from_, to, generator)


@autograd_checks_first
def normal_(self: Tensor, mean: float = 0, std: float = 1, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.normal_`."""
    from .inplace import apply_inplace

    if generator is not None:
        check_generator("normal_", generator)
    if type(mean) is not float or type(std) is not float:
        mean = _float_arg("normal_", "mean", 1, mean)
        std = _float_arg("normal_", "std", 2, std)
    if not std >= 0:  # (nan too)
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    return apply_inplace(_normal_fill, self, mean, std, generator)


@autograd_checks_first
def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.bernoulli_`: a double uniform below a float p; a tensor p's own
    dtype decides (float64: double uniforms, else float ones)."""
    from .inplace import apply_inplace

    if isinstance(p, Tensor):
        if p._data.shape != self._data.shape:
            p.expand(self._data.shape)  # type: ignore[attr-defined] # torch's expand error
        p = p._data
    elif not isinstance(p, (int, float, np.number)):
        raise TypeError(
            f"bernoulli_() received an invalid combination of arguments - got ({_tname(p)}), "
            "but expected one of:\n * (Tensor p, *, torch.Generator generator = None)\n * "
            "(float p = 0.5, *, torch.Generator generator = None)\n"
        )
    elif not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_num(p)}")
    return apply_inplace(_bernoulli_fill, self, p, generator)


@autograd_checks_first
def exponential_(self: Tensor, lambd: float = 1, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.exponential_`."""
    from .inplace import apply_inplace

    if generator is not None:
        check_generator("exponential_", generator)
    if type(lambd) is not float:
        lambd = _float_arg("exponential_", "lambd", 1, lambd)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_num(lambd)}")
    return apply_inplace(_exponential, self, lambd, generator)


@autograd_checks_first
def random_(self: Tensor, *args: Any, generator: Any = None, **kwargs: Any) -> Tensor:
    """Mirrors `torch.Tensor.random_` (`random_(to)`, `random_(from, to)`, `random_()`)."""
    from .inplace import apply_inplace

    if generator is not None:
        _check_random_generator(args, kwargs, generator)
    if kwargs:
        bad = [k for k in kwargs if k not in ("from", "to")]
        if bad:
            raise _random_keyword_error(args, kwargs, bad)
        args = (*args, *(kwargs[k] for k in ("from", "to") if k in kwargs))
    if args and args[0] is None:  # (to may be None only after a from)
        raise _random_type_error(args)
    if not all(
        a is None or (isinstance(a, (int, np.integer)) and a is not True and a is not False)
        for a in args
    ):
        raise _random_type_error(args)
    op = (_random_all, _random_to, _random_fill)[min(len(args), 2)]
    if len(args) == 0:
        low = high = None
    elif len(args) == 1:
        low, high = 0, args[0]
    else:
        low, high = args[0], args[1]
    return apply_inplace(op, self, low, high, generator)


def _check_random_generator(args: tuple[Any, ...], kwargs: dict[str, Any], generator: Any) -> None:
    """random_'s generator must be a torch.Generator: torch's parser errors otherwise (a
    DataLoader given `generator=42` draws its base seed with random_)."""
    from .._random import Generator

    if isinstance(generator, Generator) or kwargs:
        return
    if len(args) == 2:
        check_generator("random_", generator)
    got = f"generator={_tname(generator)}, "  # torch's trailing ", " after keywords alone
    why = ""
    if args:
        got = ", ".join([*(type(a).__name__ for a in args), f"generator={_tname(generator)}"])
        why = "\n      didn't match because some of the keywords were incorrect: generator"
    raise TypeError(
        f"random_() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n * (*, torch.Generator generator = None){why}\n * (int from, int to, *, "
        "torch.Generator generator = None)\n * (int to, *, torch.Generator generator = None)\n"
    )


def _random_keyword_error(args: tuple[Any, ...], kwargs: dict[str, Any], bad: list[str]) -> Any:
    """torch's parser error for random_'s unknown keywords (the keywords in reverse order)."""
    got = [type(a).__name__ for a in args]
    kws = [f"{k}={type(v).__name__}" for k, v in reversed(kwargs.items())]
    text = "".join(f"{k}, " for k in kws) if not args else ", ".join(got + kws)
    # the generator-only overload takes none of them: each keyword, in reverse order
    wrong = ", ".join(reversed(list(kwargs)))
    why = f"\n      didn't match because some of the keywords were incorrect: {wrong}"
    return TypeError(
        f"random_() received an invalid combination of arguments - got ({text}), but expected "
        f"one of:\n * (*, torch.Generator generator = None){why}\n * (int from, int to, *, "
        "torch.Generator generator = None)\n * (int to, *, torch.Generator generator = None)\n"
    )


def _random_type_error(args: tuple[Any, ...]) -> TypeError:
    """torch's parser error for random_'s bounds that are not ints (random_(1.5, 3))."""
    got = ", ".join(type(a).__name__ for a in args)
    why = (
        "\n      didn't match because some of the arguments have invalid types: "
        f"({', '.join(f'!{type(a).__name__}!' for a in args)})"
        if len(args) == 2
        else ""
    )
    return TypeError(
        f"random_() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n * (*, torch.Generator generator = None){why}\n * (int from, int to, *, "
        "torch.Generator generator = None)\n * (int to, *, torch.Generator generator = None)\n"
    )


def _bernoulli_of(self: np.ndarray, generator: Any) -> np.ndarray:
    # torch.bernoulli(input): a contiguous result of input's dtype, p = input
    return _np_bernoulli(np.empty(self.shape, self.dtype), self, generator)


_bernoulli = defop(
    "bernoulli",
    "BernoulliBackward0",
    _meta_no_draw(_bernoulli_of),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)


def _standard(shape: tuple[int, ...], dtype: np.dtype, std: float, generator: Any) -> np.ndarray:
    """normal_(0, std) of a fresh contiguous array (torch.normal's output)."""
    return _rk.normal(_gen(generator), math.prod(shape), dtype, 0.0, std, True).reshape(shape)


def _normal_tensor_tensor(mean: np.ndarray, std: np.ndarray, generator: Any) -> np.ndarray:
    # torch: out = empty(broadcast shape, mean's dtype).normal_(0, 1); out.mul_(std).add_(mean)
    out = _standard(np.broadcast_shapes(mean.shape, std.shape), mean.dtype, 1.0, generator)
    out = (out * std).astype(mean.dtype, copy=False)
    return (out + mean).astype(mean.dtype, copy=False)


def _normal_tensor_float(mean: np.ndarray, std: float, generator: Any) -> np.ndarray:
    # torch: out = empty_like(mean).normal_(0, std); out.add_(mean)
    return _standard(mean.shape, mean.dtype, std, generator) + mean


def _normal_float_tensor(std: np.ndarray, mean: float, generator: Any) -> np.ndarray:
    # torch: out = empty_like(std).normal_(0, 1); out.mul_(std).add_(full({}, mean))
    out = _standard(std.shape, std.dtype, 1.0, generator) * std
    return out + np.asarray(mean).astype(std.dtype)


_normal_tt = defop(
    "normal.Tensor_Tensor",
    "NormalBackward3",
    _normal_tensor_tensor,
    mean=_zero_grad,
    std=_zero_grad,
    jvp=ELEMENTWISE,
)
_normal_tf = defop(
    "normal.Tensor_float",
    "NormalBackward1",
    _normal_tensor_float,
    dtype="keep",
    mean=_zero_grad,
    jvp=ELEMENTWISE,
)
_normal_ft = defop(
    "normal.float_Tensor",
    "NormalBackward2",
    _normal_float_tensor,
    dtype="keep",
    std=_zero_grad,
    jvp=ELEMENTWISE,
)


def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None, out: Any = None) -> Tensor:
    """Mirrors `torch.bernoulli`: 1 with probability input (or p), else 0."""
    if p is not None:
        from .._creation import empty

        return bernoulli_(empty(tuple(input.shape), dtype=input.dtype), p, generator=generator)
    return _out(_bernoulli(input, generator), out, "bernoulli")


def normal(
    mean: Any,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    out: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.normal`."""
    mt, st = isinstance(mean, Tensor), isinstance(std, Tensor)
    if size is not None and (mt or st):
        raise _normal_combination(mean, std, size, generator, out, dtype, requires_grad)
    if st and std._data.size and bool((std._data < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    # the result takes mean's dtype (std's when mean is a number): no integer kernel
    _need_float((mean if mt else std)._data if mt or st else np.empty(0), "normal_kernel_cpu")
    if mt and st:
        if mean._data.shape != std._data.shape:
            from .registry import infer_size

            infer_size(mean._data.shape, std._data.shape)  # torch's mismatch error
        r = _normal_tt(mean, std, generator)
    elif mt:
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
        r = _normal_tf(mean, std, generator)
    elif st:
        r = _normal_ft(std, mean, generator)
    else:
        from .._creation import empty

        if size is None or isinstance(size, int):
            raise _normal_combination(mean, std, size, generator, out, dtype, requires_grad)
        r = normal_(empty(size, dtype=dtype), mean, std, generator=generator)
        r.requires_grad_(requires_grad)
    return _out(r, out, "normal")


_NORMAL_SIGS = (
    "Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None",
    "Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None",
    "float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None",
    "float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out "
    "= None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
    "bool pin_memory = False, bool requires_grad = False",
)


def _normal_combination(
    mean: Any, std: Any, size: Any, generator: Any, out: Any, dtype: Any, requires_grad: bool
) -> TypeError:
    """torch's parser error for normal's arguments that fit none of its overloads (two
    numbers without a size; a size with a Tensor mean or std), as given positionally."""
    from .._random import _combination_error

    args = (mean, std) if size is None else (mean, std, size)
    names = ("generator", "out", "dtype")
    given = [(k, v) for k, v in zip(names, (generator, out, dtype), strict=True) if v is not None]
    if requires_grad:
        given.append(("requires_grad", requires_grad))
    return _combination_error("normal", args, given, _NORMAL_SIGS)


def multinomial(
    input: Tensor,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Any = None,
    out: Any = None,
) -> Tensor:
    """Mirrors `torch.multinomial`: without replacement (or for one sample) the largest
    p / Exp(1) (torch's Gumbel trick), else a double uniform per sample searched in the row's
    cumulative distribution.

    Differences: categories of probability 0, sampled without replacement once the others
    are exhausted, come in index order (torch's come in its partial sort's order)."""
    if generator is not None:
        check_generator("multinomial", generator)
    if (
        type(num_samples) is not int
        or type(replacement) is not bool
        or not -(2**63) <= num_samples < 2**63
    ):
        _multinomial_parse(num_samples, replacement)
    if out is not None and out.dtype is not D.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {out.dtype._short}")
    p = input._data
    if p.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if p.dtype.kind in "biuc":
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {input.dtype._short}"
        )
    n = p.shape[-1]
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > n:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if n == 0:  # no categories: torch's checks fail on the rows, if there are any
        if p.ndim == 2 and p.shape[0] == 0:
            return _out(_make(np.empty((0, num_samples), np.int64)), out, "multinomial")
        if replacement and num_samples > 1:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has "
            "no identity."
        )
    rows = p.reshape(-1, n)
    if replacement and num_samples > 1:
        _check_multinomial_rows(rows)
    elif (p < 0).any() or not np.isfinite(p).all():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    g = _gen(generator)
    if replacement and num_samples > 1:
        res = _rk.multinomial_with_replacement(g, rows, num_samples)
    else:
        q = _rk.place(_rk.cast(_rk.exponential(g, p.size, 1.0), p.dtype), p)
        score = (p / q).astype(p.dtype, copy=False).reshape(-1, n)
        res = np.argsort(-score, axis=-1, kind="stable")[:, :num_samples]
    res = res.reshape(*p.shape[:-1], num_samples).astype(np.int64)
    return _out(_make(res), out, "multinomial")


def _multinomial_parse(num_samples: Any, replacement: Any, first: int = 2) -> None:
    """torch's parser on multinomial's num_samples (an int) and replacement (a bool), given
    positionally (`first`: num_samples' position, 2 in the function form, 1 in the method's)."""
    from .._signatures import _is_index, _type_name

    if not _is_index(num_samples):
        raise TypeError(
            f"multinomial(): argument 'num_samples' (position {first}) must be int, not "
            f"{_type_name(num_samples)}"
        )
    if type(num_samples) is int and not -(2**63) <= num_samples < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if not isinstance(replacement, bool):
        raise TypeError(
            f"multinomial(): argument 'replacement' (position {first + 1}) must be bool, not "
            f"{_type_name(replacement)}"
        )


def _multinomial_method(
    self: Tensor, num_samples: int, replacement: bool = False, *, generator: Any = None
) -> Tensor:
    """Mirrors `torch.Tensor.multinomial` (no out=; the parser's positions count from 1)."""
    if (
        type(num_samples) is not int
        or type(replacement) is not bool
        or not -(2**63) <= num_samples < 2**63
    ):
        from .._signatures import reraise_as_called

        reraise_as_called("multinomial", ("num_samples", "replacement"), (num_samples, replacement))
        _multinomial_parse(num_samples, replacement, 1)
    return multinomial(self, num_samples, replacement, generator=generator)


# Python's own errors for the method's arguments name it as torch's parser does
_multinomial_method.__name__ = _multinomial_method.__qualname__ = "multinomial"


def _check_multinomial_rows(rows: np.ndarray) -> None:
    """torch's with-replacement kernel checks row by row, entry by entry: a negative or NaN
    entry, an infinite one, then the row's sum."""
    neg = ~(rows >= 0)
    inf = np.isinf(rows)
    bad_row = neg.any(-1) | inf.any(-1) | (rows.sum(-1) <= 0)
    for r in np.flatnonzero(bad_row):
        first = np.flatnonzero(neg[r] | inf[r])
        if first.size:
            what = "< 0" if neg[r, first[0]] else "= infinity or NaN"
            raise RuntimeError(
                f"invalid multinomial distribution (encountering probability entry {what})"
            )
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


_RANDOM_METHODS = {
    "uniform_": uniform_,
    "normal_": normal_,
    "bernoulli_": bernoulli_,
    "exponential_": exponential_,
    "random_": random_,
    "bernoulli": bernoulli,
    "multinomial": _multinomial_method,
}
_RANDOM_FUNCTIONS = {"bernoulli": bernoulli, "normal": normal, "multinomial": multinomial}


# --- Tensor methods -----------------------------------------------------------------------


def _radd(self: Tensor, other: Any) -> Tensor:
    return _add(self, other, 1)


def _rsub_method(self: Tensor, other: Any) -> Tensor:
    _check_bool_sub(self, other)
    return _rsub(self, other, 1)


def _rtruediv_method(self: Tensor, other: Any) -> Any:
    # torch's __rtruediv__ is `self.reciprocal() * other` for any operand, a TypeError becoming
    # NotImplemented: `ndarray / t` then multiplies through numpy (a tensor back from
    # __array_wrap__), `None / t` raises Python's own TypeError
    try:
        return reciprocal(self) * other
    except TypeError:
        return NotImplemented


def _rpow(self: Tensor, other: Any) -> Tensor:
    return _pow_scalar_base(other, self)


def _neg_method(self: Tensor) -> Tensor:
    if self.dtype is D.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return neg(self)


def _add_into(self: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """`self.add_(other, alpha=a)` with grad off, computed into self's memory (no copy back):
    the same float operations as `add`, for a same-shape, same-dtype float tensor."""
    if len(args) != 1 or (kwargs and (len(kwargs) != 1 or "alpha" not in kwargs)):
        return False
    other = args[0]
    alpha = kwargs.get("alpha", 1)
    if not isinstance(other, Tensor) or type(alpha) not in (int, float):
        return False
    d = self._data
    o = other._data
    # float32 and float64 only: float16's and bfloat16's add(alpha=) follow torch's vectorized
    # and scalar loops (_reduced_add_scaled)
    if o.dtype != d.dtype or o.shape != d.shape or d.dtype.char not in "fd":
        return False
    if not d.flags.writeable:
        return False
    # Note [Floating-point warnings] in registry.py: with warnings turned into errors numpy
    # raises after a ufunc has written its result, so an in-place add is done when it raises
    # and only the scaling (into a temporary) is computed again, quietly
    if alpha == 1:
        _add_in_place(d, o)
    elif _axpy(alpha, o, d):
        pass  # one fused pass, as torch's kernel (Note [BLAS axpy] in _blas.py)
    elif d.dtype == np.float32 and d.size < 2 * _CHUNK:
        # torch's kernel fuses self + alpha * other (alpha as float): the float products are
        # exact in float64, so one rounding of the float64 sum is its result (as `add`'s)
        g = np.float64
        np.copyto(d, d.astype(g) + g(np.float32(alpha)) * o.astype(g), casting="same_kind")
    elif d.dtype == np.float16 and not -65504.0 <= alpha <= 65504.0:
        return False  # add's overflow error for an alpha beyond float16 (nothing written yet)
    elif d.size >= 2 * _CHUNK and d.flags.c_contiguous and o.flags.c_contiguous:
        # a large parameter: the scaled gradient one cache-sized block at a time, so the
        # temporary never goes to memory (torch's kernel fuses the two; 4M floats: 3.7 ms ->
        # 2.1 ms, torch 1.5 ms). The same two roundings per element as the direct form.
        fd = d.reshape(-1)
        fo = o.reshape(-1)
        tmp = np.empty(_CHUNK, d.dtype)
        for i in range(0, fd.size, _CHUNK):
            j = min(i + _CHUNK, fd.size)
            _add_in_place(fd[i:j], D.quietly(np.multiply, fo[i:j], alpha, out=tmp[: j - i]))
    else:
        _add_in_place(d, D.quietly(np.multiply, o, alpha))
    return True


from .._blas import axpy as _axpy  # noqa: E402


def _add_in_place(d: np.ndarray, t: np.ndarray) -> None:
    try:  # noqa: SIM105 (a try costs nothing; contextlib.suppress costs a context manager)
        np.add(d, t, out=d)
    except RuntimeWarning:
        pass


_CHUNK = 1 << 16


# The hottest operators call their op directly (one Python frame): torch's operand types are
# tensors and numbers; anything else gets NotImplemented so Python can try the other operand.
_NUMBER_TYPES = frozenset((float, int, bool, complex))


def _add_method(self: Tensor, other: Any) -> Any:
    if type(other) in _NUMBER_TYPES or isinstance(other, (Tensor, np.generic)):
        return _add(self, other, 1)
    return NotImplemented


def _mul_method(self: Tensor, other: Any) -> Any:
    if type(other) in _NUMBER_TYPES or isinstance(other, (Tensor, np.generic)):
        return _mul(self, other)
    return NotImplemented


def _div_method(self: Tensor, other: Any) -> Any:
    if type(other) in _NUMBER_TYPES or isinstance(other, (Tensor, np.generic)):
        return _div(self, other)
    return NotImplemented


def _eq_method(self: Tensor, other: Any) -> Any:
    # torch's Tensor.__eq__ (alone among the operators) takes a numpy array as a tensor
    if isinstance(other, np.ndarray):
        from .._creation import from_numpy

        return eq(self, from_numpy(other))
    if not isinstance(other, (Tensor, bool, int, float, complex, np.generic)):
        return NotImplemented
    return eq(self, other)


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
    "eq": _compare_method("eq", _eq),
    "ne": _compare_method("ne", _ne),
    "lt": _compare_method("lt", _lt),
    "le": _compare_method("le", _le),
    "gt": _compare_method("gt", _gt),
    "ge": _compare_method("ge", _ge),
    "isinf": isinf,
    "isnan": isnan,
    "bitwise_not": bitwise_not,
    "__add__": _add_method,
    "__radd__": _add_method,
    "__sub__": _binop_check(lambda s, o: sub(s, o)),
    "__rsub__": _binop_check(_rsub_method),
    "__mul__": _mul_method,
    "__rmul__": _mul_method,
    "__truediv__": _div_method,
    "__rtruediv__": _rtruediv_method,
    "__pow__": _binop_check(pow),
    "__rpow__": _binop_check(_rpow),
    "__neg__": _neg_method,
    "__pos__": positive,
    "positive": positive,
    "__eq__": _eq_method,
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
    "positive": positive,
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
    "greater": gt,
    "less": lt,
    "isinf": isinf,
    "isnan": isnan,
    "where": where,
    "bitwise_not": bitwise_not,
}


# --- conjugation and the parts of a complex number -------------------------------------
# On real tensors these are torch's identities: conj, conj_physical, resolve_conj and real return
# the tensor itself, imag raises. conj is materialized (is_conj() stays False). real and imag
# are torch's composite, a select of view_as_real (SelectBackward0). See Note [Complex
# gradients] for their formulas.

_conj_physical = defop(
    "conj_physical",
    "ConjPhysicalBackward0",
    lambda self: np.conjugate(self),
    dtype="keep",
    self=lambda grad: conj_physical(grad),
    jvp=LINEAR,
    complex=True,
)
_conj = defop(
    "conj",
    "ConjBackward0",
    lambda self: np.conjugate(self),
    dtype="keep",
    self=lambda grad: conj(grad),
    jvp=LINEAR,
    complex=True,
)

_neg_view_op = defop(
    "_neg_view",
    "NegViewBackward0",
    lambda self: np.negative(self),
    dtype="keep",
    self=lambda grad: grad.neg(),
    jvp=LINEAR,
    complex=True,
)


def complex_np(a: np.ndarray) -> Any:
    """The complex numpy dtype of a real or complex array's precision (float32 -> complex64)."""
    return D._FROM_NP[a.dtype].to_complex()._np


def _np_view_as_real(self: np.ndarray) -> np.ndarray:
    part = self.real  # a view with the complex strides
    return np.lib.stride_tricks.as_strided(part, (*self.shape, 2), (*self.strides, part.itemsize))


def _np_view_as_complex(self: np.ndarray) -> np.ndarray:
    # the last axis is contiguous (view_as_complex checks): numpy reinterprets its pairs
    return self.view(complex_np(self))[..., 0]


_view_as_real = defop(
    "view_as_real",
    "ViewAsRealBackward0",
    _np_view_as_real,
    dtype="keep",
    view=True,
    self=lambda grad: view_as_complex(grad.contiguous()),
    jvp=LINEAR,
    complex=True,
)
_view_as_complex = defop(
    "view_as_complex",
    "ViewAsComplexBackward0",
    _np_view_as_complex,
    dtype="keep",
    view=True,
    self=lambda grad: view_as_real(grad.contiguous()),
    jvp=LINEAR,
    complex=True,
)


def view_as_real(input: Tensor) -> Tensor:
    """Mirrors `torch.view_as_real`."""
    if input._data.dtype.kind != "c":
        raise RuntimeError("view_as_real is only supported for complex tensors")
    from .views import is_conj

    if is_conj(input):
        raise RuntimeError(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
            "conjugate tensor so you can view it as real, use self.resolve_conj(); however, "
            "be warned that the resulting tensor will NOT alias the original."
        )
    return _view_as_real(input)


def view_as_complex(input: Tensor) -> Tensor:
    """Mirrors `torch.view_as_complex`."""
    d = input._data
    if d.dtype not in (np.float32, np.float64):
        raise RuntimeError(
            "view_as_complex is only supported for half, float and double tensors, but got a "
            "tensor "
            f"of scalar type: {input.dtype._short}"
        )
    if d.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if d.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    # torch's strides (in elements): numpy's raw ones of an empty array can be anything
    st = input.stride() if d.size == 0 else tuple(s // d.itemsize for s in d.strides)
    if st[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in st[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _view_as_complex(input)


def _polar_fwd(abs: np.ndarray, angle: np.ndarray) -> np.ndarray:
    cdt = complex_np(abs)
    return (abs * np.cos(angle) + 1j * (abs * np.sin(angle))).astype(cdt)


def _complex_fwd(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    cdt = complex_np(real)
    out = np.empty(infer_size(real.shape, imag.shape), cdt)  # torch's mismatch error
    out.real = real
    out.imag = imag
    return out


# torch.complex / torch.polar: real inputs, a complex output; the engine keeps the real part
# of each formula (handle_r_to_c)
_complex = defop(
    "complex",
    "ComplexBackward0",
    _complex_fwd,
    dtype="keep",
    real=lambda grad: real(grad),
    imag=lambda grad: imag(grad),
    jvp=LINEAR,
    complex=True,
)
_polar = defop(
    "polar",
    "PolarBackward0",
    _polar_fwd,
    dtype="keep",
    # d(r e^{i t})/dr = e^{i t} (torch writes sgn(result), which flips for r < 0) and
    # d/dt = i r e^{i t}: grad times their conjugates
    abs=lambda grad, result: grad * conj(_complex_sgn(result)),
    angle=lambda grad, result: grad * conj(result * 1j),
    # forward mode: the derivatives themselves, not their conjugates
    jvp=lambda abs_t, angle_t, result: _plus(
        None if abs_t is None else abs_t * _complex_sgn(result),
        None if angle_t is None else angle_t * (result * 1j),
    ),
    complex=True,
)


def _check_complex_parts(a: Tensor, b: Tensor) -> None:
    for t in (a, b):
        if t._data.dtype not in (np.float32, np.float64, np.float16):
            raise RuntimeError(
                f"Expected both inputs to be Half, Float or Double tensors but got "
                f"{a.dtype._short} and {b.dtype._short}"
            )
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(
            f"Expected object of scalar type {a.dtype._short} but got scalar type "
            f"{b.dtype._short} for second argument"
        )


def complex_(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.complex` (named so that the builtin `complex` stays usable here)."""
    _check_complex_parts(real, imag)
    return _out(_complex(real, imag), out, "complex")


complex_.__name__ = complex_.__qualname__ = "complex"


def polar(abs: Tensor, angle: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.polar`."""
    _check_complex_parts(abs, angle)
    if abs.dtype is D.float16:  # (complex32 would be its result: no CPU kernel)
        raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
    return _out(_polar(abs, angle), out, "polar")


def conj_physical(input: Tensor) -> Tensor:
    """Mirrors `torch.conj_physical`: the tensor itself when it is real."""
    return _conj_physical(input) if input._data.dtype.kind == "c" else input


def conj(input: Tensor) -> Tensor:
    """Mirrors `torch.conj`: the tensor itself when real; a lazy conjugate view when complex
    (ops/views.py)."""
    if input._data.dtype.kind != "c":
        return input
    from .views import lazy_view

    return lazy_view(input, _conj(input), False)


def resolve_conj(input: Tensor) -> Tensor:
    """Mirrors `torch.resolve_conj`: a materialized copy of a conj view, else the tensor."""
    from .views import is_conj

    return input.clone() if is_conj(input) else input


def _is_conj(self: Tensor) -> bool:
    from .views import is_conj

    return is_conj(self)


def real(input: Tensor) -> Tensor:
    """Mirrors `torch.real`: the tensor itself when real, a view of the real parts if complex."""
    if input._data.dtype.kind != "c":
        return input
    from .shape import select

    if type(input._vc) is not VersionCounter:
        vr = _conj_parts(input)
        if vr is not None:
            return select(vr, -1, 0)
    return select(_view_as_real(input), -1, 0)


def _conj_parts(input: Tensor) -> Tensor | None:
    """For a conj view, torch's view_as_real of its resolved conjugate (x's memory), else
    None: real and imag of a conj view are parts of x, the imaginary one a negative view."""
    from .views import is_conj, lazy_view

    if not is_conj(input):
        return None
    return _view_as_real(lazy_view(input, _conj(input), False))


def imag(input: Tensor) -> Tensor:
    """Mirrors `torch.imag` (torch's error for a real tensor)."""
    if input._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    from .shape import select

    if type(input._vc) is not VersionCounter:
        vr = _conj_parts(input)
        if vr is not None:
            from .views import lazy_view

            return select(lazy_view(vr, _neg_view_op(vr), True), -1, 1)
    return select(_view_as_real(input), -1, 1)


METHODS.update(
    {
        "conj": conj,
        "conj_physical": conj_physical,
        "resolve_conj": resolve_conj,
        "is_conj": _is_conj,
        "real": property(real, lambda self, v: real(self).copy_(v)),
        "imag": property(imag, lambda self, v: imag(self).copy_(v)),
    }
)
FUNCTIONS.update(
    {
        "conj": conj,
        "conj_physical": conj_physical,
        "resolve_conj": resolve_conj,
        "real": real,
        "imag": imag,
        "view_as_real": view_as_real,
        "view_as_complex": view_as_complex,
        "complex": complex_,
        "polar": polar,
    }
)

METHODS.update(_more_methods())
METHODS.update(_RANDOM_METHODS)
FUNCTIONS.update(_RANDOM_FUNCTIONS)
FUNCTIONS.update(_UNARY_FUNCTIONS)
FUNCTIONS.update(_MORE)
FUNCTIONS.update({alias: FUNCTIONS[name] for alias, name in _ALIASES.items()})


def _where_method(self: Tensor, condition: Any, other: Any) -> Any:
    """Mirrors `torch.Tensor.where`: torch.where(condition, self, other)."""
    if not (isinstance(condition, Tensor) and isinstance(other, _NUMBER_OR_TENSOR)):
        raise _where_type_error((condition, other), method=True)
    return where(condition, self, other)


# torch's comparison aliases, and Tensor.where (self is the value where condition holds)
_COMPARISON_ALIASES = {"greater_equal": ge, "less_equal": le, "not_equal": ne}
METHODS.update({"where": _where_method, "greater": gt, "less": lt, **_COMPARISON_ALIASES})
FUNCTIONS.update(_COMPARISON_ALIASES)
