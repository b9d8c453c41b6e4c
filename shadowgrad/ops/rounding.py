"""Rounding and integer-division ops: floor, ceil, round, trunc, frac, sign, div with a rounding
mode, floor_divide, remainder, fmod.

Rounding has a zero gradient almost everywhere, and torch says so explicitly (`zeros_like(grad)`)
rather than leaving the inputs out of the graph. `floor_divide` and `remainder(Scalar, Tensor)`
have no derivative at all in torch: their outputs get a `NotImplemented` node whose backward
raises (see Note [NotImplemented nodes]).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _grad_mode
from .._creation import zeros_like
from .._tensor import Tensor
from ..autograd import forward_ad as _fwad
from ..autograd.forward_ad import ELEMENTWISE
from ..autograd.graph import ACC_SEQ, Node
from . import pointwise as P
from .inplace import make_inplace, make_iop
from .pointwise import (
    _binop_check,
    _half_in_float,
    _not_for,
    _out,
    defop,  # registry.defop with torch's broadcast error
)

_GM = _grad_mode.STATE
_FW = _fwad._STATE
_UNSET: Any = object()


def _zero_grad(grad: Tensor) -> Tensor:
    # torch's `zeros_like(grad)`: not `grad * 0`, which would turn an inf grad into nan
    return zeros_like(grad)


# --- rounding -----------------------------------------------------------------------------


def _np_round_like(fn: Any, kernel: str) -> Any:
    # torch's round has no complex kernel; floor, ceil and trunc refuse complex by name
    bad = "bc" if kernel.startswith("round") else "b"

    def forward(self: np.ndarray) -> np.ndarray:
        _not_for(kernel, self, bad)
        if self.dtype.kind == "c":
            raise NotImplementedError(f"{kernel.split('_')[0]} is not supported for complex inputs")
        if self.dtype.kind in "iu":
            return self.copy()
        return fn(self)

    return forward


floor = defop(
    "floor",
    "FloorBackward0",
    _np_round_like(np.floor, "floor_vml_cpu"),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
ceil = defop(
    "ceil",
    "CeilBackward0",
    _np_round_like(np.ceil, "ceil_vml_cpu"),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
trunc = defop(
    "trunc",
    "TruncBackward0",
    _np_round_like(np.trunc, "trunc_vml_cpu"),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
# np.rint rounds half to even, as torch's nearbyint does
_round = defop(
    "round",
    "RoundBackward0",
    _np_round_like(np.rint, "round_vml_cpu"),
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)


@_half_in_float
def _np_round_decimals(self: np.ndarray, decimals: int) -> np.ndarray:
    # no integer or complex kernel (decimals=0 dispatches to the plain round's)
    _not_for("round_vml_cpu" if decimals == 0 else "round_cpu", self, "biuc")
    # torch scales by 10**|decimals| in the tensor's dtype, rounds half to even and scales back
    if decimals >= 0:
        f = np.asarray(10.0**decimals, self.dtype)
        return np.rint(self * f) / f
    f = np.asarray(10.0**-decimals, self.dtype)
    return np.rint(self / f) * f


_round_decimals = defop(
    "round.decimals",
    "RoundBackward1",
    _np_round_decimals,
    dtype="keep",
    self=lambda grad: _zero_grad(grad),
    jvp=ELEMENTWISE,
)


def _np_frac(self: np.ndarray) -> np.ndarray:
    _not_for("frac_cpu", self, "biuc")
    with np.errstate(invalid="ignore"):  # frac(inf) is nan, silently as in torch
        return self - np.trunc(self)


frac = defop(
    "frac", "FracBackward0", _np_frac, dtype="keep", self=lambda grad: grad, jvp=ELEMENTWISE
)


def _np_sign(self: np.ndarray) -> np.ndarray:
    if self.dtype.kind == "c":
        raise NotImplementedError(
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
            "torch.sgn instead."
        )
    if self.dtype == np.bool_:
        return self.copy()
    if self.dtype.kind in "iu":
        return np.sign(self)
    if type(self) is not np.ndarray and getattr(self, "_sg_sparse", False):
        from ..sparse._ops import map_values

        return map_values(_np_sign, self, "sign")  # torch's sparse sign: on the values
    # torch's (0 < x) - (x < 0): sign(nan) is 0, unlike np.sign
    return (self > 0).astype(self.dtype) - (self < 0).astype(self.dtype)


sign = defop("sign", "SignBackward0", _np_sign, dtype="keep", self=_zero_grad, jvp=ELEMENTWISE)


def _np_sgn(self: np.ndarray) -> np.ndarray:
    """sign for real inputs; z / |z| for complex ones, 0 at 0."""
    if self.dtype.kind != "c":
        return _np_sign(self)
    a = np.abs(self)
    zero = a == 0
    with np.errstate(invalid="ignore"):  # inf / inf is nan, silently as in torch
        out = np.asarray(self / np.where(zero, 1, a).astype(a.dtype, copy=False))
    out[zero] = 0  # (an array even for a 0-d input, whose quotient numpy makes a scalar)
    return out


def _sgn_backward(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    """torch's sgn_backward for complex z: (g - conj(g) sgn(z)^2) / (2 |z|), 0 at z = 0 (the
    conjugate Wirtinger gradient of z / |z|)."""
    a = P.abs(self)
    g = (grad - (result * result) * P.conj(grad)) / P._mul_scalar(a, 2.0)
    return P.masked_fill(g, a == 0, 0)  # torch's masked_fill_ (MaskedFillBackward0)


def _sgn_t(self: Tensor, self_t: Tensor, result: Tensor) -> Tensor:
    """torch's sgn jvp: (t - sgn(z)^2 conj(t)) / (2 |z|), 0 at z = 0; zero for real inputs."""
    if not self.is_complex():
        return zeros_like(self_t)
    a = P.abs(self)
    zero = a == 0
    return P.where(
        zero, 0.0, (self_t - result * result * P.conj(self_t)) / (2 * P.where(zero, 1.0, a))
    )


# for real inputs sgn is sign, and its gradient is zero; the formula reads self and result only
# for complex inputs (see Note [Complex gradients])
sgn = defop(
    "sgn",
    "SgnBackward0",
    _np_sgn,
    dtype="keep",
    self=lambda grad, self, result: _zero_grad(grad),
    jvp=_sgn_t,
    complex={"self": _sgn_backward},
)


def round(input: Tensor, *, decimals: int = _UNSET, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.round` (`decimals` given, even 0, records RoundBackward1 as torch does)."""
    if out is not None and out.dtype is not input.dtype:  # the kernel keeps the dtype: no cast
        P.keep_dtype_out(input, out, "round")
    if decimals is _UNSET:
        return _out(_round(input), out, "round", input)
    if decimals.__class__ is not int:  # torch's parser takes an int only
        from .._signatures import reraise_as_called

        reraise_as_called("round", ("decimals",), (decimals,), self=input)
    return _out(_round_decimals(input, decimals), out, "round", input)


# --- division with rounding, remainder, fmod ---------------------------------------------


def _int_zero_check(other: Any) -> None:
    if not np.all(other):
        raise RuntimeError("ZeroDivisionError")


@_half_in_float
def _np_div_floor(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("div_floor_cpu", self, "bc")
    if self.dtype.kind in "iu":
        _int_zero_check(other)
        return np.floor_divide(self, other)
    # numpy's floor_divide is torch's div_floor algorithm (fmod, then correct; x/0 gives x/0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.floor_divide(self, other)


def _np_div_trunc(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("div_trunc_cpu", self, "bc")
    if self.dtype.kind in "iu":
        _int_zero_check(other)
        # C division: exact, since self - fmod(self, other) is a multiple of other
        return (self - np.fmod(self, other)) // other
    with np.errstate(divide="ignore", invalid="ignore"):
        if self.dtype == np.float16 and not isinstance(other, np.ndarray):
            # a number divisor: torch's kernel divides in float (the number read in float) and
            # truncates before rounding to float16
            q = np.true_divide(self.astype(np.float32), np.float32(other))
            return np.trunc(q).astype(np.float16)
        # torch rounds the quotient to the dtype (float16 included) before truncating it
        return np.trunc(np.true_divide(self, other))


def _number_in_half(fn: Any) -> Any:
    """A Python-number operand of a float16 tensor rounded to float16 first: torch's remainder
    and fmod kernels read it in the tensor's dtype (div_floor and mul read it in float)."""

    def forward(self: np.ndarray, other: Any) -> Any:
        if self.dtype == np.float16 and not isinstance(other, np.ndarray):
            other = np.float16(np.float32(other))  # through float, as c10 converts it
        return fn(self, other)

    return forward


@_number_in_half
@_half_in_float
def _np_remainder(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("remainder_cpu", self, "bc")
    if self.dtype.kind in "iu":
        _int_zero_check(other)
        return np.remainder(self, other)
    # torch: fmod, then add other where the signs differ (so -3 % 3 is -0., as in torch)
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.fmod(self, other)
        fix = (m != 0) & ((other < 0) != (m < 0))
        return np.where(fix, m + other, m).astype(m.dtype, copy=False)


@_number_in_half
@_half_in_float
def _np_fmod(self: np.ndarray, other: np.ndarray) -> np.ndarray:
    _not_for("fmod_cpu", self, "bc")
    if self.dtype.kind in "iu":
        _int_zero_check(other)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(self, other)


# div(rounding_mode=...) is recorded (DivBackward2) but its gradient is zero, as in torch
_div_mode = defop(
    "div.Tensor_mode",
    "DivBackward2",
    lambda self, other, rounding_mode: (
        _np_div_trunc(self, other) if rounding_mode == "trunc" else _np_div_floor(self, other)
    ),
    self=lambda grad: grad * 0,
    other=lambda grad: grad * 0,
    jvp=lambda result: zeros_like(result),
)
_floor_divide = defop(
    "floor_divide", "FloorDivideBackward0", _np_div_floor, nondiff=("self", "other")
)


def _rounded_remainder_t(mode: str) -> Any:
    """torch's `self_t - other_t * self_p.div(other_p, rounding_mode=mode)` (fmod: trunc,
    remainder: floor), zero terms included (Note [Zero tangents] in forward_ad)."""

    def rule(self: Any, other: Any, self_t: Any, other_t: Any) -> Any:
        Z = _fwad.ZeroTerm
        return _fwad.add_terms(
            Z(lambda z: z, self, ()) if self_t is None else self_t,
            Z(lambda z: z * div_rounded(self, other, mode), other, (self, other))
            if other_t is None
            else other_t * div_rounded(self, other, mode),
            sub=True,
        )

    return rule


_remainder = defop(
    "remainder.Tensor",
    "RemainderBackward1",
    _np_remainder,
    self=lambda grad: grad,
    other=lambda grad, self, other: -grad * div_rounded(self, other, "floor"),
    jvp=_rounded_remainder_t("floor"),
)
_remainder_scalar = defop(
    "remainder.Scalar",
    "RemainderBackward0",
    _np_remainder,
    nondiff=("other",),
    self=lambda grad: grad,
    jvp=ELEMENTWISE,
)
_remainder_rscalar = defop(
    "remainder.Scalar_Tensor",
    "RemainderScalarTensorBackward",
    _np_remainder,
    nondiff=("self", "other"),
)
_fmod = defop(
    "fmod.Tensor",
    "FmodBackward1",
    _np_fmod,
    self=lambda grad: grad,
    other=lambda grad, self, other: -grad * div_rounded(self, other, "trunc"),
    jvp=_rounded_remainder_t("trunc"),
)
_fmod_scalar = defop(
    "fmod.Scalar",
    "FmodBackward0",
    _np_fmod,
    nondiff=("other",),
    self=lambda grad: grad,
    jvp=ELEMENTWISE,
)


# Note [NotImplemented nodes]
# torch records ops that have no derivative formula (floor_divide, remainder(Scalar, Tensor))
# with a `torch::autograd::NotImplemented` node: the output requires grad and has a grad_fn, and
# only running backward through it raises. Its edges are those of the tensor inputs.
class _NotImplementedBase(Node):
    __slots__ = ("_aten",)
    _cpp_name = "torch::autograd::NotImplemented"

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise RuntimeError(f"derivative for aten::{self._aten} is not implemented")


_NotImplementedNode = type(
    "NotImplemented", (_NotImplementedBase,), {"__slots__": (), "__module__": "builtins"}
)


class _NotImplementedOutputsBase(_NotImplementedBase):
    """The NotImplemented node of an op with several differentiable outputs (one node)."""

    __slots__ = ("_nout",)

    @property
    def num_outputs(self) -> int:  # type: ignore[override]
        return self._nout


_NotImplementedOutputsNode = type(
    "NotImplemented", (_NotImplementedOutputsBase,), {"__slots__": (), "__module__": "builtins"}
)


NO_FORWARD_AD = "Trying to use forward AD with aten::{} that does not support it."


def _not_implemented(result: Tensor, inputs: tuple[Any, ...], aten: str) -> Tensor:
    """Attach a NotImplemented node to result when grad mode records it (torch's node has an
    edge for each input that requires grad, and no other); torch's error when an input
    carries a forward-AD tangent."""
    if _FW.active:
        for a in inputs:
            if isinstance(a, Tensor) and _fwad._get_tangent(a) is not None:
                raise NotImplementedError(NO_FORWARD_AD.format(aten))
    if not _GM.grad or result._data.dtype.kind not in "fc":
        return result
    ts = [a for a in inputs if isinstance(a, Tensor) and a._rg]
    if not ts:
        return result
    node = _NotImplementedNode(tuple(t._edge() for t in ts))
    node._seq = ACC_SEQ  # torch's NotImplemented node has sequence_nr UINT64_MAX: runs first
    node._in_meta = tuple((t._data.shape, D._FROM_NP[t._data.dtype]) for t in ts)
    node._aten = aten
    result._rg = True
    result._grad_fn = node
    result._nr = 0
    return result


def not_implemented_outputs(
    results: tuple[Tensor, ...], inputs: tuple[Any, ...], aten: str
) -> tuple[Tensor, ...]:
    """`_not_implemented` for an op with several outputs: torch records one NotImplemented
    node whose outputs they are (output_nr 0, 1, ...)."""
    if len(results) == 1:
        return (_not_implemented(results[0], inputs, aten),)
    if _FW.active:
        for a in inputs:
            if isinstance(a, Tensor) and _fwad._get_tangent(a) is not None:
                raise NotImplementedError(NO_FORWARD_AD.format(aten))
    ts = [a for a in inputs if isinstance(a, Tensor) and a._rg]
    if not _GM.grad or not ts:
        return results
    node = _NotImplementedOutputsNode(tuple(t._edge() for t in ts))
    node._seq = ACC_SEQ
    node._in_meta = tuple((t._data.shape, D._FROM_NP[t._data.dtype]) for t in ts)
    node._aten = aten
    node._nout = len(results)
    for i, r in enumerate(results):
        if r._data.dtype.kind in "fc":
            r._rg = True
            r._grad_fn = node
            r._nr = i
    return results


def _check_mode(rounding_mode: Any) -> None:
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'"
        )


def div_rounded(input: Any, other: Any, rounding_mode: Any) -> Tensor:
    """`torch.div` with rounding_mode 'trunc' or 'floor' (called by pointwise.div)."""
    _check_mode(rounding_mode)
    return _div_mode(input, other, rounding_mode)


def floor_divide(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.floor_divide` (not differentiable: see Note [NotImplemented nodes])."""
    r = _not_implemented(_floor_divide(input, other), (input, other), "floor_divide")
    return _out(r, out, "floor_divide", input, other)


def remainder(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.remainder` (Python's modulus: the result has the divisor's sign)."""
    try:
        if not isinstance(input, Tensor):
            r = _not_implemented(_remainder_rscalar(input, other), (other,), "remainder")
        elif isinstance(other, Tensor):
            r = _remainder(input, other)
        else:
            r = _remainder_scalar(input, other)
        return _out(r, out, "remainder", input, other)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("remainder", (other,), {})
        raise


def fmod(input: Tensor, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.fmod` (C's fmod: the result has the dividend's sign)."""
    try:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"fmod() received an invalid combination of arguments - got "
                f"({type(input).__name__}, {type(other).__name__}), but expected one of:\n"
                " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                " * (Tensor input, Number other, *, Tensor out = None)\n"
            )
        r = _fmod(input, other) if isinstance(other, Tensor) else _fmod_scalar(input, other)
        return _out(r, out, "fmod", input, other)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("fmod", (other,), {})
        raise


def _rfloordiv(self: Tensor, other: Any) -> Tensor:
    return _not_implemented(_floor_divide(other, self), (self,), "floor_divide")


def _rmod(self: Tensor, other: Any) -> Tensor:
    return remainder(other, self)


_INPLACE = {
    name: make_inplace(fn)
    for name, fn in {
        "floor": floor,
        "ceil": ceil,
        "trunc": trunc,
        "fix": trunc,
        "round": round,
        "frac": frac,
        "sign": sign,
        "sgn": sgn,
        "floor_divide": floor_divide,
        "remainder": remainder,
        "fmod": fmod,
    }.items()
}

METHODS: dict[str, Any] = {
    "floor": floor,
    "ceil": ceil,
    "trunc": trunc,
    "fix": trunc,
    "round": round,
    "frac": frac,
    "sign": sign,
    "sgn": sgn,
    "floor_divide": floor_divide,
    "remainder": remainder,
    "fmod": fmod,
    **{name + "_": fn for name, fn in _INPLACE.items()},
    "__floordiv__": _binop_check(floor_divide),
    "__rfloordiv__": _binop_check(_rfloordiv),
    "__mod__": _binop_check(remainder),
    "__rmod__": _binop_check(_rmod),
    "__ifloordiv__": make_iop(floor_divide),
    "__imod__": make_iop(remainder),
}

FUNCTIONS: dict[str, Any] = {
    "floor": floor,
    "ceil": ceil,
    "trunc": trunc,
    "fix": trunc,
    "round": round,
    "frac": frac,
    "sign": sign,
    "sgn": sgn,
    "floor_divide": floor_divide,
    "remainder": remainder,
    "fmod": fmod,
}
