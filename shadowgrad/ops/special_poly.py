"""The orthogonal polynomials of torch.special (Chebyshev T/U/V/W and their shifted forms,
Hermite H and He, Laguerre L, Legendre P: never recorded, as in torch), and the number-theoretic
and pointwise extras: gcd, lcm, nextafter, ldexp, frexp, float_power, deg2rad, rad2deg, the
in-place comparisons (eq_, lt_, ...), and dist, inner, vdot, addr.
"""

from __future__ import annotations

import math
import warnings
from functools import partial
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from ..autograd.forward_ad import ELEMENTWISE
from ._util import autograd_checks_first, shape_str
from .pointwise import (
    _invalid_combination,
    _mul_scalar,
    _need_tensor,
    _not_for,
    _out,
    _unary_out,
    defop,
    exp2,
    tensor_binary,
)
from .pointwise import pow as _pow
from .reduction import _norm_backward, _vector_norm_fwd, _vector_norm_t
from .registry import result_type_of
from .sorting import _structseq, return_types
from .special import _apply_inplace, _not_half, _not_recorded

# --- orthogonal polynomials -----------------------------------------------------------------
# Each follows torch's kernel: n is truncated to an integer (nan and inf count as negative),
# n < 0 gives 0, the values at the interval's ends are exact, and for Chebyshev polynomials
# of large n inside the interval torch switches from the three-term recurrence to the
# trigonometric form. Everything is computed in the result's dtype, as torch does.


def _recurrence(n: np.ndarray, p: Any, q: Any, step: Any) -> Any:
    """q_n of q_{k+1} = step(k, q_k, q_{k-1}) from q_0 = p, q_1 = q, per element's n >= 1."""
    top = int(n.max()) if n.size else 0
    for k in range(1, top):
        r = step(k, q, p)
        live = n > k
        p, q = np.where(live, q, p), np.where(live, r, q)
    return q


def _poly_eval(n: np.ndarray, x: Any, first: Any, step: Any) -> Any:
    one = np.ones_like(x)
    r = _recurrence(np.maximum(n, 1), one, first, step)
    return np.where(n == 0, one, r)


def _cheb_step(t: Any) -> Any:
    return lambda k, q, p: (t + t) * q - p


def _np_cheb(kind: str, shifted: bool, x: Any, n: Any) -> Any:
    t = x + x - 1 if shifted else x
    one = np.ones_like(x)
    first = {"t": t, "u": t + t, "v": t + t - 1, "w": t + t + 1}[kind]
    r = _poly_eval(n, x, first, _cheb_step(t))
    big = n > (4 if shifted and kind == "w" else 6 if shifted or kind == "t" else 8)
    with np.errstate(all="ignore"):
        a = np.arccos(t)
        nf = n.astype(x.dtype)
        odd = n % 2 == 1
        alt = np.where(odd, -one, one)
        if kind == "t":
            trig = np.cos(nf * a)
        elif kind == "u":
            sa = np.sin(a)
            trig = np.where(sa != 0, np.sin((nf + 1) * a) / sa, (nf + 1) * np.cos((nf + 1) * a) / t)
        elif kind == "v":
            trig = np.where(
                np.sin(a / 2) != 1, np.cos((nf + 0.5) * a) / np.cos(a / 2), alt * (nf + nf + 1)
            )
        else:
            end = alt if shifted else np.where(t > 0, nf + nf + 1, alt)
            trig = np.where(np.cos(a / 2) != 1, np.sin((nf + 0.5) * a) / np.sin(a / 2), end)
    r = np.where(big & (np.abs(t) < 1), trig, r)
    # the exact ends: t = 1 and t = -1 (x = 1 and x = 0 when shifted)
    hi = {"t": one, "u": nf + 1, "v": one, "w": nf + nf + 1}[kind]
    lo = {"t": alt, "u": alt * (nf + 1), "v": alt * (nf + nf + 1), "w": alt}[kind]
    if shifted:
        r = np.where(x == 0, lo, np.where(x == 1, hi, r))
    else:
        r = np.where(x == -1, lo, np.where(x == 1, hi, r))
    return r


def _np_hermite_h(x: Any, n: Any) -> Any:
    return _poly_eval(n, x, x + x, lambda k, q, p: (x + x) * q - (k + k) * p)


def _np_hermite_he(x: Any, n: Any) -> Any:
    return _poly_eval(n, x, x, lambda k, q, p: x * q - k * p)


def _np_laguerre(x: Any, n: Any) -> Any:
    r = _poly_eval(n, x, 1 - x, lambda k, q, p: (((k + k) + (1 - x)) * q - k * p) / (k + 1))
    return np.where(x == 0, np.ones_like(x), r)


def _np_legendre(x: Any, n: Any) -> Any:
    r = _poly_eval(n, x, x, lambda k, q, p: ((k + k + 1) * x * q - k * p) / (k + 1))
    one = np.ones_like(x)
    return np.where(x == 1, one, np.where(x == -1, np.where(n % 2 == 1, -one, one), r))


def _poly_kernel(name: str, fn: Any) -> Any:
    def forward(x: Any, n: Any) -> np.ndarray:
        dt = np.result_type(x, n)
        x, n = np.asarray(x, dt), np.asarray(n, dt)
        for a in (x, n):
            _not_for(f"{name}_cpu", a, "c")
            _not_half(f"{name}_cpu", a)
        x, n = np.broadcast_arrays(x, n)
        with np.errstate(all="ignore"):
            # torch casts n to int64: truncation, and nan, inf and overflow become negative
            ok = np.abs(n) < 2.0**62
            ni = np.where(ok, np.trunc(np.where(ok, n, -1)), -1).astype(np.int64)
            r = fn(x, np.maximum(ni, 0))
            return np.where(ni < 0, np.zeros_like(x), r).astype(dt, copy=False)

    return forward


_POLY_KERNELS: dict[str, Any] = {
    **{f"chebyshev_polynomial_{k}": partial(_np_cheb, k, False) for k in "tuvw"},
    **{f"shifted_chebyshev_polynomial_{k}": partial(_np_cheb, k, True) for k in "tuvw"},
    "hermite_polynomial_h": _np_hermite_h,
    "hermite_polynomial_he": _np_hermite_he,
    "laguerre_polynomial_l": _np_laguerre,
    "legendre_polynomial_p": _np_legendre,
}
_POLY_SIGS = (
    "Tensor x, Tensor n, *, Tensor out = None",
    "Number x, Tensor n, *, Tensor out = None",
    "Tensor x, Number n, *, Tensor out = None",
)


def _poly_fn(name: str, fn: Any) -> Any:
    op = defop(
        f"special_{name}",
        _not_recorded(name),
        _poly_kernel(name, fn),
        dtype="float",
        nondiff=("x", "n"),
    )

    def poly(x: Any, n: Any, *, out: Tensor | None = None) -> Tensor:
        if not isinstance(x, Tensor) and not isinstance(n, Tensor):
            raise _invalid_combination(f"special_{name}", (x, n), _POLY_SIGS)
        return _out(op(x, n), out, f"special_{name}")

    poly.__name__ = name
    poly.__doc__ = f"Mirrors `torch.special.{name}`."
    return poly


POLYNOMIALS: dict[str, Any] = {name: _poly_fn(name, fn) for name, fn in _POLY_KERNELS.items()}


# --- deg2rad, rad2deg -----------------------------------------------------------------------


def _angle_kernel(name: str, factor: float) -> Any:
    def forward(self: np.ndarray) -> np.ndarray:
        if self.dtype.kind == "c":
            raise RuntimeError(f"{name} is not supported for complex tensors.")
        return self * self.dtype.type(factor)

    return forward


_DEG2RAD = math.pi / 180.0
_RAD2DEG = 180.0 / math.pi
deg2rad = defop(
    "deg2rad",
    "Deg2RadBackward0",
    _angle_kernel("deg2rad", _DEG2RAD),
    dtype="float",
    self=lambda grad: _mul_scalar(grad, _DEG2RAD),  # torch's mul.Scalar (MulBackward1)
    jvp=ELEMENTWISE,
)
rad2deg = defop(
    "rad2deg",
    "Rad2DegBackward0",
    _angle_kernel("rad2deg", _RAD2DEG),
    dtype="float",
    self=lambda grad: _mul_scalar(grad, _RAD2DEG),
    jvp=ELEMENTWISE,
)


# --- float_power, ldexp, frexp --------------------------------------------------------------

_FLOAT_POWER_SIGS = (
    "Tensor input, Tensor exponent, *, Tensor out = None",
    "Number self, Tensor exponent, *, Tensor out = None",
    "Tensor input, Number exponent, *, Tensor out = None",
)


def _float_power_dtype(input: Any, exponent: Any) -> D.dtype:
    complex_ = any(
        (isinstance(v, Tensor) and v.dtype.is_complex) or isinstance(v, complex)
        for v in (input, exponent)
    )
    return D.complex128 if complex_ else D.float64


def _as(v: Any, dt: D.dtype) -> Any:
    if isinstance(v, Tensor):
        return v if v.dtype is dt else v.to(dt)
    return complex(v) if dt.is_complex else float(v)


def float_power(input: Any, exponent: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.float_power`: pow computed in float64 (complex128 for complex operands)."""
    try:
        if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
            raise _invalid_combination("float_power", (input, exponent), _FLOAT_POWER_SIGS)
        dt = _float_power_dtype(input, exponent)
        if out is not None and out.dtype is not dt:
            raise RuntimeError(
                f"the output given to float_power has dtype {out.dtype._short} but the operation's "
                f"result requires dtype {dt._short}"
            )
        return _out(_pow(_as(input, dt), _as(exponent, dt)), out, "float_power")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("float_power", (exponent,), {})
        raise


def _float_power_fn_(self: Tensor, exponent: Any) -> Tensor:
    return _pow(self, _as(exponent, self.dtype))


def float_power_(self: Tensor, exponent: Any) -> Tensor:
    """Mirrors `Tensor.float_power_`: self must already have the result's dtype."""
    dt = _float_power_dtype(self, exponent)
    if self.dtype is not dt:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {self.dtype._short} but the operation's "
            f"result requires dtype {dt._short}"
        )
    return _apply_inplace(_float_power_fn_, self, exponent)


def _np_ldexp(self: np.ndarray, other: np.ndarray, dtype: Any) -> np.ndarray:
    self = self.astype(dtype, copy=False)
    with np.errstate(all="ignore"):
        if other.dtype.kind in "iub" and self.dtype.kind != "c":  # exact: ldexp(0, 2000) is 0
            e = np.clip(other.astype(np.int64), -(2**31), 2**31 - 1).astype(np.int32)
            return np.ldexp(self, e)
        # torch's self * pow(2, other): the power in the exponent's float dtype (a float16
        # exponent rounds 2 ** 1.5 to float16), the product in the result's
        pdt = other.dtype if other.dtype.kind in "fc" else D.get_default_dtype()._np
        p = np.power(pdt.type(2), other.astype(pdt, copy=False))
        return np.asarray(np.multiply(self, p)).astype(dtype, copy=False)


_LN2 = math.log(2.0)


def _ldexp_self_complex(grad: Tensor, other: Tensor) -> Tensor:
    if other.dtype.is_complex:
        return grad * _pow(2.0, other).conj()
    return grad * _pow(2, other)  # a real power of two


def _ldexp_other_complex(grad: Tensor, self: Tensor, other: Tensor) -> Tensor:
    """A complex self's gradient for its exponent: torch's formula gives the real exponent a
    complex gradient, which its engine refuses."""
    if other.dtype.is_complex:
        return grad * self.conj() * _LN2 * _pow(2.0, other).conj()
    raise RuntimeError(
        "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to "
        "be true, but got false.  (Could this error message be improved?  If so, please report "
        "an enhancement request to PyTorch.)"
    )


# torch's grads are pow(2, other): an integer power for an integer exponent (2 ** -3 is 0)
_ldexp = defop(
    "ldexp.Tensor",
    "LdexpBackward0",
    _np_ldexp,
    dtype="keep",
    self=lambda grad, other: grad * _pow(2, other),
    other=lambda grad, self, other: grad * self * _LN2 * _pow(2.0, other),
    jvp=ELEMENTWISE,
    complex={"self": _ldexp_self_complex, "other": _ldexp_other_complex},
)


def ldexp(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.ldexp` (input * 2 ** other)."""
    _need_tensor("ldexp", input, "input", 1)
    _need_tensor("ldexp", other)
    dt = result_type_of([input, other])
    if dt._cat < 2:
        dt = D.get_default_dtype()
    if out is not None and dt._cat > out.dtype._cat:  # torch's composite names itself
        raise RuntimeError(f"ldexp can't be cast to the desired output type {out.dtype._short}")
    if input.dtype._cat == 2 and other.dtype._cat < 2:
        return _ldexp_exp_kernel(input, other, dt, out)
    r = _ldexp(input, other, dt._np)
    o = other._data
    if out is None and o.ndim > 1 and not o.flags.c_contiguous and type(o) is np.ndarray:
        # torch's composite: input * pow(2., other), whose power is contiguous (pow.Scalar)
        from .._formats import iterator_result

        r._data = iterator_result(r._data, [input._data, np.empty(o.shape, np.int8)])
    return _out(r, out, "ldexp")


def _ldexp_exp_kernel(input: Tensor, other: Tensor, dt: D.dtype, out: Tensor | None) -> Tensor:
    """torch's own kernel for a real floating input and an integer exponent: no Bool exponent,
    and, without out=, its result is made input-shaped first, so an exponent that broadcasts
    it larger gets the out= resize warning."""
    if other.dtype is D.bool_:
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")
    r = _ldexp(input, other, dt._np)
    if out is None and input._data.size and r._data.shape != input._data.shape:
        warnings.warn(
            "An output with one or more elements was resized since it had shape "
            f"{shape_str(input._data.shape)}, which does not match the required output shape "
            f"{shape_str(r._data.shape)}. This behavior is deprecated, and in a future "
            "PyTorch release outputs will not be resized unless they have zero elements. You "
            "can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
            "with t.resize_(0).",
            UserWarning,
            stacklevel=3,
        )
    return _out(r, out, "ldexp")


def _np_frexp(self: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if self.dtype.kind not in "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(self)
    return m, e.astype(np.int32, copy=False)


_frexp = defop(
    "frexp.Tensor",
    "FrexpBackward0",
    _np_frexp,
    dtype="keep",
    n_outputs=2,
    diff_outputs=(0,),
    self=lambda grads, result1: grads[0] / exp2(result1),
    jvp=lambda self_t, result: (self_t / exp2(result[1]), None),
)
return_types.frexp = _structseq("frexp", ("mantissa", "exponent"))  # type: ignore[attr-defined]


def frexp(input: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.frexp`: (mantissa, exponent) with input = mantissa * 2 ** exponent."""
    r = return_types.frexp(_frexp(input))  # type: ignore[attr-defined]
    if out is None:
        return r
    if out[0].dtype is not input.dtype:
        raise RuntimeError(
            f"torch.frexp() expects mantissa to have dtype {D.CPP_NAMES[input.dtype]} but got "
            f"{D.CPP_NAMES[out[0].dtype]}"
        )
    if out[1].dtype is not D.int32:
        raise RuntimeError(
            f"torch.frexp() expects exponent to have int dtype but got {D.CPP_NAMES[out[1].dtype]}"
        )
    return return_types.frexp(  # type: ignore[attr-defined]
        (_out(r[0], out[0], "frexp"), _out(r[1], out[1], "frexp"))
    )


# --- in-place comparisons -------------------------------------------------------------------
# `x.eq_(y)` writes 0/1 in x's dtype; torch records it (EqBackward0 for a number, EqBackward1
# for a tensor) with zero grads for both operands.


def _zero_grad(grad: Tensor) -> Tensor:
    from .._creation import zeros_like

    return zeros_like(grad)


def _compare_ops(name: str, ufunc: Any) -> tuple[Any, Any]:
    def forward(self: np.ndarray, other: Any) -> np.ndarray:
        o = np.asarray(other)
        if name not in ("eq", "ne") and "c" in (self.dtype.kind, o.dtype.kind):
            # an ordering has no complex kernel; torch names the promoted dtype (a number or
            # a 0-d operand takes self's precision)
            if self.dtype.kind == "c":
                dt = D._FROM_NP[self.dtype]
            elif o.ndim:
                dt = D.promote_types(D._FROM_NP[self.dtype], D._FROM_NP[o.dtype])
            else:
                dt = D.complex128 if self.dtype == np.float64 else D.complex64
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dt._short}'")
        return ufunc(self, other).astype(self.dtype)

    title = name.capitalize()
    scalar = defop(
        f"{name}_.Scalar",
        f"{title}Backward0",
        forward,
        dtype="keep",
        nondiff=("other",),
        self=_zero_grad,
        jvp=ELEMENTWISE,
    )
    tensor = defop(
        f"{name}_.Tensor",
        f"{title}Backward1",
        forward,
        dtype="keep",
        self=_zero_grad,
        other=_zero_grad,
        jvp=ELEMENTWISE,
    )
    return scalar, tensor


def _compare_inplace(name: str, ufunc: Any) -> Any:
    scalar, tensor = _compare_ops(name, ufunc)

    def method(self: Tensor, other: Any) -> Tensor:
        return _apply_inplace(tensor if isinstance(other, Tensor) else scalar, self, other)

    method.__name__ = f"{name}_"
    method.__doc__ = f"Mirrors `Tensor.{name}_`."
    return method


_COMPARE_INPLACE = {
    name: _compare_inplace(name, ufunc)
    for name, ufunc in (
        ("eq", np.equal),
        ("ne", np.not_equal),
        ("lt", np.less),
        ("le", np.less_equal),
        ("gt", np.greater),
        ("ge", np.greater_equal),
    )
}
_COMPARE_ALIASES = {
    "greater_": "gt",
    "greater_equal_": "ge",
    "less_": "lt",
    "less_equal_": "le",
    "not_equal_": "ne",
}

# --- gcd, lcm, nextafter --------------------------------------------------------------------


def _int_kernel(name: str, ufunc: Any) -> Any:
    def forward(self: np.ndarray, other: np.ndarray) -> np.ndarray:
        dt = np.result_type(self, other)
        if dt.kind not in "iu":
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{D.from_numpy_dtype(dt)._short}'"
            )
        return ufunc(self, other)

    # integer-only and never differentiable: torch records no node
    op = defop(name, f"{name.capitalize()}NotRecorded", forward, nondiff=("self", "other"))

    def fn(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        return _out(tensor_binary(name, op, input, other, out), out, name)

    fn.__name__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`."
    return fn


gcd = _int_kernel("gcd", np.gcd)
lcm = _int_kernel("lcm", np.lcm)


def _np_nextafter(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    if self.dtype.kind != "f":
        raise NotImplementedError(
            f"\"nextafter_cpu\" not implemented for '{D.from_numpy_dtype(self.dtype)._short}'"
        )
    return np.nextafter(self, other)


# torch passes the gradient to self where self != other (0 where they are equal) and gives
# other a zero gradient
_nextafter = defop(
    "nextafter",
    "NextafterBackward0",
    _np_nextafter,
    self=lambda grad, self, other: grad * (self != other),
    other=_zero_grad,
    jvp=lambda self, other, self_t: None if self_t is None else self_t * (self != other),
)


def nextafter(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.nextafter`."""
    return _out(tensor_binary("nextafter", _nextafter, input, other, out), out, "nextafter")


# --- dist, inner, vdot, addr ----------------------------------------------------------------


def _np_dist(self: np.ndarray, other: np.ndarray, p: float) -> np.ndarray:
    d = np.subtract(self, other)
    real = np.empty(0, self.dtype).real.dtype  # a complex dist is real, as torch's
    return np.asarray(_vector_norm_fwd(d, p, tuple(range(d.ndim)), False), real)


def _dist_grad(grad: Tensor, self: Tensor, other: Tensor, p: float, result: Tensor) -> Any:
    d = self - other
    return _norm_backward(grad, d, p, result, tuple(range(d.ndim)), False, d.is_complex())


def _dist_other_grad(grad: Tensor, self: Tensor, other: Tensor, p: float, result: Tensor):
    g = _dist_grad(grad, self, other, p, result)
    return None if g is None else -g


_dist = defop(
    "dist",
    "DistBackward0",
    _np_dist,
    self=_dist_grad,
    other=_dist_other_grad,
    complex=True,  # torch's norm_backward of self - other
    jvp=lambda self, other, p, self_t, other_t, result: _vector_norm_t(
        self - other,
        p,
        tuple(range(max(self.ndim, other.ndim))),
        False,
        _tangent_diff(self, other, self_t, other_t),
        result,
    ),
)


def _tangent_diff(self: Tensor, other: Tensor, self_t: Any, other_t: Any) -> Tensor:
    from .._creation import zeros_like

    zero = zeros_like(self - other)
    return zero + (0 if self_t is None else self_t) - (0 if other_t is None else other_t)


def dist(input: Tensor, other: Tensor, p: Any = 2) -> Tensor:
    """Mirrors `torch.dist`: the p-norm of input - other."""
    _need_tensor("dist", other)
    if isinstance(p, bool) or not isinstance(p, (int, float, complex)):
        raise TypeError(f"dist(): argument 'p' (position 3) must be Number, not {type(p).__name__}")
    D.check_int_scalar(p)
    # torch's norm(self - other, p): the subtraction's errors (bool operands, shapes) first,
    # then norm's on the difference's dtype and on p
    if input.dtype is D.bool_ or other.dtype is D.bool_:
        input - other  # raises torch's bool-subtraction error
    try:
        np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        input - other  # raises torch's size-mismatch error
    dt = result_type_of([input, other])
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(
            f"norm(): input dtype should be either floating point or complex. Got {dt._short} "
            "instead."
        )
    if isinstance(p, complex):
        raise RuntimeError(
            "linalg.vector_norm: Expected a non-complex scalar as the order of norm."
        )
    return _dist(input, other, p if type(p) is int else float(p))  # torch's node saves the Scalar


def inner(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.inner`: a product for a 0-d operand, else a contraction of the last dims
    (for two vectors torch's tensordot takes a dot: ViewBackward0 of DotBackward0)."""
    try:
        from .linalg import dot, tensordot

        if input.ndim == 0 or other.ndim == 0:
            return _out(input * other, out, "inner")
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(
                "inner() the last dimension must match on both input tensors but got shapes "
                f"{list(input.shape)} and {list(other.shape)}"
            )
        if input.ndim == 1 and other.ndim == 1:
            if input.dtype is not other.dtype:  # torch's tensordot check (dot words it otherwise)
                raise RuntimeError("both inputs should have same dtype")
            return _out(dot(input.permute(0), other.permute(0)).view(()), out, "inner")
        return tensordot(input, other, ([-1], [-1]), out=out)  # its out= checks, as torch's
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("inner", (other,), {})
        raise


_vdot = defop(
    "vdot",
    "VdotBackward0",
    lambda self, other: np.asarray(np.vdot(self, other) + 0),
    dtype="keep",
    self=lambda grad, other: grad.conj() * other,
    other=lambda grad, self: grad * self,
    complex=True,  # torch's formulas, conjugates included
    jvp=lambda self, other, self_t, other_t: _sum_terms(
        None if self_t is None else (self_t.conj() * other).sum(),
        None if other_t is None else (self.conj() * other_t).sum(),
    ),
)


def _sum_terms(a: Any, b: Any) -> Any:
    return b if a is None else a if b is None else a + b


def vdot(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.vdot`: sum(conj(input) * other) of two vectors."""
    try:
        from .linalg import dot

        dot(input.detach(), other.detach())  # torch's checks: 1-d, same dtype, same length
        return _out(_vdot(input, other), out, "vdot")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("vdot", (other,), {})
        raise


def _scale(grad: Tensor, s: Any) -> Tensor:
    from .linalg import _scale

    return _scale(grad, s)


def _np_addr(self: np.ndarray, vec1: np.ndarray, vec2: np.ndarray, beta: Any, alpha: Any):
    if self.dtype.kind != "c":  # a real kernel reads a complex scalar's real part
        beta = beta.real if isinstance(beta, complex) else beta
        alpha = alpha.real if isinstance(alpha, complex) else alpha
    prod = np.multiply.outer(vec1, vec2)
    if self.dtype == np.bool_:
        r = (prod & bool(alpha)) | (self & bool(beta))
    else:
        prod = prod if alpha == 1 else prod * alpha
        r = prod if beta == 0 else prod + (self if beta == 1 else self * beta)
    return np.broadcast_to(r, prod.shape).astype(self.dtype, copy=True)


def _addr_t(
    self: Tensor,
    vec1: Tensor,
    vec2: Tensor,
    beta: Any,
    alpha: Any,
    self_t: Any,
    vec1_t: Any,
    vec2_t: Any,
) -> Any:
    from .linalg import outer

    r = None if self_t is None or beta == 0 else self_t * beta
    if vec1_t is not None:
        r = _sum_terms(r, outer(vec1_t, vec2) * alpha)
    if vec2_t is not None:
        r = _sum_terms(r, outer(vec1, vec2_t) * alpha)
    return r


_addr = defop(
    "addr",
    "AddrBackward0",
    _np_addr,
    self=lambda grad, beta: _scale(grad, beta),
    vec1=lambda grad, vec2, alpha: _scale(grad.mv(vec2), alpha),
    vec2=lambda grad, vec1, alpha: _scale(grad.t().mv(vec1), alpha),
    jvp=_addr_t,
    complex={  # torch's: conjugated factors and scalars (Note [Complex gradients])
        "self": lambda grad, beta: grad if beta == 1 else grad * beta.conjugate(),
        "vec1": lambda grad, vec2, alpha: (
            grad.mv(vec2.conj()) if alpha == 1 else grad.mv(vec2.conj()) * alpha.conjugate()
        ),
        "vec2": lambda grad, vec1, alpha: (
            grad.t().mv(vec1.conj()) if alpha == 1 else grad.t().mv(vec1.conj()) * alpha.conjugate()
        ),
    },
)


def _check_addr(input: Tensor, vec1: Tensor, vec2: Tensor, beta: Any, alpha: Any) -> Any:
    """addr's checks, in torch's order; returns beta and alpha as the kernel reads them."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    dt = result_type_of([input, vec1, vec2])
    if dt._cat < 2:
        for name, v in (("beta", beta), ("alpha", alpha)):
            if isinstance(v, (float, complex)):
                raise RuntimeError(
                    f"For integral input tensors, argument {name} must not be a floating point "
                    "number."
                )
    from .linalg import _expand_check

    # torch's expand of input to the outer product's shape (its last mismatch reported)
    _expand_check(tuple(input.shape), (vec1.shape[0], vec2.shape[0]), input.dtype)
    out = []
    for name, v in (("beta", beta), ("alpha", alpha)):  # the kernel's conversions
        if type(v) is bool and dt is not D.bool_:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if isinstance(v, (int, float, complex)) and dt is not D.bool_:
            D.check_scalar_fits(v, dt)
            # wrapped into an integer type, as the kernel's cast (a real-valued complex scalar
            # stays complex for floats: see linalg._blas_scalars)
            if dt._cat == 1:
                v = np.array(int(v.real if isinstance(v, complex) else v)).astype(dt._np).item()
        out.append(v)
    return out


def addr(
    input: Tensor,
    vec1: Tensor,
    vec2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.addr`: beta * input + alpha * outer(vec1, vec2)."""
    beta, alpha = _check_addr(input, vec1, vec2, beta, alpha)
    return _out(_addr(input, vec1, vec2, beta, alpha), out, "addr")


def _addr_fn_(self: Tensor, vec1: Tensor, vec2: Tensor, beta: Any, alpha: Any) -> Tensor:
    return _addr(self, vec1, vec2, beta, alpha)


@autograd_checks_first  # torch's autograd layer checks self before addr_'s own checks
def addr_(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """Mirrors `Tensor.addr_`: torch checks the vectors' dims, then self's (written in place, it
    is not expanded), then the sizes."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if isinstance(v, Tensor) and v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    if isinstance(vec1, Tensor) and isinstance(vec2, Tensor) and self.ndim != 2:
        raise RuntimeError(f"2D tensor expected, got {self.ndim}D tensor for input")
    if self.ndim == 2 and tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
        raise RuntimeError(
            f"size mismatch, input: {list(self.shape)}, v1: {list(vec1.shape)}, v2: "
            f"{list(vec2.shape)}"
        )
    beta, alpha = _check_addr(self, vec1, vec2, beta, alpha)
    return _apply_inplace(_addr_fn_, self, vec1, vec2, beta, alpha)


# --- exports --------------------------------------------------------------------------------

_UNARY = {"deg2rad": deg2rad, "rad2deg": rad2deg}
FUNCTIONS: dict[str, Any] = {
    **{name: _unary_out(op, name) for name, op in _UNARY.items()},
    "float_power": float_power,
    "ldexp": ldexp,
    "frexp": frexp,
    "gcd": gcd,
    "lcm": lcm,
    "nextafter": nextafter,
    "dist": dist,
    "inner": inner,
    "vdot": vdot,
    "addr": addr,
}
METHODS: dict[str, Any] = {
    **_UNARY,
    "float_power": float_power,
    "float_power_": float_power_,
    "ldexp": ldexp,
    "frexp": frexp,
    "gcd": gcd,
    "lcm": lcm,
    "nextafter": nextafter,
    "dist": dist,
    "inner": inner,
    "vdot": vdot,
    "addr": addr,
    "addr_": addr_,
}


def _inplace_methods() -> dict[str, Any]:
    from .inplace import make_inplace

    m = {name + "_": make_inplace(op) for name, op in _UNARY.items()}
    for name in ("ldexp", "gcd", "lcm", "nextafter"):
        m[name + "_"] = make_inplace(FUNCTIONS[name])
    m.update({name + "_": fn for name, fn in _COMPARE_INPLACE.items()})
    m.update({alias: _COMPARE_INPLACE[name] for alias, name in _COMPARE_ALIASES.items()})
    return m


METHODS.update(_inplace_methods())
FUNCTIONS["gcd_"], FUNCTIONS["lcm_"] = METHODS["gcd_"], METHODS["lcm_"]
