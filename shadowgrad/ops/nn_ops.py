"""Op family: nn_ops, the ops behind `torch.nn.functional` that have their own backward nodes.

Each op is declared once with its numpy forward; its formulas are written in shadowgrad ops
(often the adjoint op: im2col/col2im, a gather/scatter pair, constant_pad_nd with negated pads),
so that double backward works. The public functions live in `shadowgrad.nn.functional`
(`_functional_impl` below holds those that are more than a call of one op).
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import _dtype as D
from .. import _grad_mode
from .._creation import ones_like, zeros_like
from .._tensor import Tensor, _make
from ..autograd.forward_ad import ELEMENTWISE, LINEAR, LOSS, ZeroTerm, _plus, add_terms
from . import _fmath as _fm
from . import _specfun
from . import pointwise as P
from ._accumulate import add_at
from .registry import (
    _SAVED_HIDDEN,
    _SAVED_LAZY,
    _SAVED_RENAMED,
    HOOKED_EXTRA,
    NODE_NAMES,
    _as_uint64,
    defop,
    saved_array,
)

_where = P.where
_select = P.select


def _f16(fn: Any) -> Any:
    """`fn` on arrays, with float16 operands computed in float32 and the result rounded once to
    float16, as torch's CPU kernels run float16 in float32 (its opmath type). Other dtypes go
    straight through (one attribute read on the first argument)."""

    @functools.wraps(fn)  # the registry reads the forward's parameter names
    def run(*args: Any) -> Any:
        if getattr(args[0], "dtype", None) != np.float16:
            return fn(*args)
        up = [
            a.astype(np.float32) if isinstance(a, np.ndarray) and a.dtype == np.float16 else a
            for a in args
        ]
        return np.asarray(fn(*up)).astype(np.float16)

    return run


def _np_gelu_any(x: np.ndarray, approximate: str) -> np.ndarray:
    if x.dtype == D.LD:  # bfloat16: in float, as torch's kernel (erf reaches -1 there)
        return D.round_bf16(_np_gelu(x.astype(np.float32), approximate))
    return _np_gelu(x, approximate).astype(x.dtype, copy=False)


def _zeros_like(t: Tensor) -> Tensor:
    return t * 0


def _keep_op(name: str, node: str) -> Any:
    return defop(
        name,
        node,
        lambda grad_input, self: grad_input,
        dtype="keep",
        grad_input=lambda grad: grad,
        self=lambda grad: grad * 0,
        jvp=LINEAR,
    )


_keep = _keep_op("_nn_backward_reads_self", "NnBackwardReadsSelfBackward0")
# backward kernels declared under torch's own node names (see _dep)
_KEEP_NAMED: dict[str, Any] = {}


def _dep(g: Tensor, self: Tensor, node: str | None = None) -> Tensor:
    """Record that a backward result read `self`, as torch's backward kernels do.

    Under create_graph, torch's `*_backward(grad, self, ...)` nodes make a grad require grad
    whenever self does, even where its derivative wrt self is zero; the second-order graph
    then exists (with zero grads), as it does in torch. `node`: torch's name for that
    backward's node, where one is declared in _KEEP_NAMED.
    """
    from .. import _grad_mode

    if _grad_mode.STATE.grad and self._rg and not g._rg:
        return (_keep if node is None else _KEEP_NAMED[node])(g, self)
    return g


# --- ops that other families may provide: use theirs when present ---------------------------

_LAZY: dict[str, Any] = {}


def _lazy(name: str, grad_fn: str, make: Any) -> Any:
    """A private op declared on first use, unless another family already declared `grad_fn`."""
    fn = _LAZY.get(name)
    if fn is None:
        owner = NODE_NAMES.get(grad_fn)
        if owner is not None and owner != name:
            from .registry import REGISTRY

            op = REGISTRY[owner]
            fn = _LAZY[name] = lambda *a: _run_registered(op, a)
        else:
            fn = _LAZY[name] = make()
    return fn


def _run_registered(op: Any, args: tuple[Any, ...]) -> Any:
    from .registry import _run

    return _run(op, args)


def _abs(x: Tensor) -> Tensor:
    import shadowgrad

    f = getattr(shadowgrad, "abs", None)
    if f is not None:
        return f(x)
    return _lazy(
        "abs",
        "AbsBackward0",
        lambda: defop(
            "abs",
            "AbsBackward0",
            lambda self: np.abs(self),
            dtype="keep",
            self=lambda grad, self: grad * _sign(self),  # sign: 0 at 0, as torch, jvp=ELEMENTWISE
        ),
    )(x)


def _vn_t(self: Tensor, p: float, dim: int, keepdim: bool, self_t: Tensor, r: Tensor) -> Tensor:
    from .reduction import _vector_norm_t

    return _vector_norm_t(self, p, (dim,), keepdim, self_t, r)


def _sign(x: Tensor) -> Tensor:
    return (x > 0).to(x.dtype) - (x < 0).to(x.dtype)


def _div_scalar(x: Tensor, s: float) -> Tensor:
    """x / python number, recorded as torch's div.Scalar (DivBackward1)."""
    return _lazy(
        "div.Scalar",
        "DivBackward1",
        lambda: defop(
            "div.Scalar",
            "DivBackward1",
            lambda self, other: np.true_divide(self, other).astype(self.dtype, copy=False),
            dtype="keep",
            # torch's grad / other with other a Scalar: div.Scalar again under create_graph
            self=lambda grad, other: (
                _div_scalar(grad, other) if _grad_mode.STATE.grad else grad / other
            ),
            jvp=ELEMENTWISE,
            complex=True,  # linear in self, a real number: the same formula for complex
        ),
    )(x, s)


def _np_norm(x: np.ndarray, p: float, dim: int, keepdim: bool) -> np.ndarray:
    a = np.abs(x)
    if p == 2:
        r = np.sqrt(np.sum(a * a, axis=dim, keepdims=keepdim))
    elif p == math.inf:
        r = np.max(a, axis=dim, keepdims=keepdim, initial=0)
    elif p == -math.inf:
        r = np.min(a, axis=dim, keepdims=keepdim)
    elif p == 0:
        r = np.sum(a != 0, axis=dim, keepdims=keepdim)
    elif p == 1:
        r = np.sum(a, axis=dim, keepdims=keepdim)
    else:
        r = np.sum(a**p, axis=dim, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(r, dtype=x.dtype)


def _norm_backward(grad: Tensor, self: Tensor, p: float, dim: int, keepdim: bool, result: Tensor):
    # torch's norm_backward: 0 where the norm is 0; ties of the inf-norm share the grad
    if not keepdim:
        grad = grad.unsqueeze(dim)
        result = result.unsqueeze(dim)
    if p == 0:
        return self * 0
    from .rounding import sgn

    # torch's formulas, in its order (the double-backward graphs follow them)
    if p == 1:
        return sgn(self) * grad
    if p == 2:
        return grad * P.masked_fill(self / result, result == 0, 0)
    if math.isinf(p):
        a = _abs(self)
        mask = (a == result).to(self.dtype)
        return grad * _sign(self) * mask / mask.sum(dim, keepdim=True)
    scaled = self * _abs(self).pow(p - 2) if p >= 2 else sgn(self) * _abs(self).pow(p - 1)
    return scaled * P.masked_fill(grad / result.pow(p - 1), result == 0, 0)


def _norm(x: Tensor, p: float, dim: int, keepdim: bool) -> Tensor:
    """torch.norm(x, p, dim, keepdim) (NormBackward1)."""
    return _lazy(
        "norm.ScalarOpt_dim",
        "NormBackward1",
        lambda: defop(
            "norm.ScalarOpt_dim",
            "NormBackward1",
            lambda self, p, dim, keepdim: _np_norm(self, p, dim, keepdim),
            dtype="keep",
            contiguous=True,
            self=_norm_backward,
            jvp=lambda self, p, dim, keepdim, self_t, result: _vn_t(
                self, p, dim, keepdim, self_t, result
            ),
        ),
    )(x, float(p), dim, keepdim)


def _vector_norm(x: Tensor, dim: int) -> Tensor:
    """linalg.vector_norm(x, 2, dim, keepdim=True) (LinalgVectorNormBackward0)."""
    return _lazy(
        "linalg_vector_norm",
        "LinalgVectorNormBackward0",
        lambda: defop(
            "linalg_vector_norm",
            "LinalgVectorNormBackward0",
            lambda self, ord, dim, keepdim: _np_norm(self, ord, dim, keepdim),
            contiguous=True,
            dtype="keep",
            self=lambda grad, self, ord, dim, keepdim, result: _norm_backward(
                grad, self, ord, dim, keepdim, result
            ),
            jvp=lambda self, ord, dim, keepdim, self_t, result: _vn_t(
                self, ord, dim, keepdim, self_t, result
            ),
        ),
    )(x, 2.0, dim, True)


def _addmm(bias: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    import shadowgrad

    f = getattr(shadowgrad, "addmm", None)
    if f is not None:
        return f(bias, mat1, mat2)
    return _lazy(
        "addmm",
        "AddmmBackward0",
        lambda: defop(
            "addmm",
            "AddmmBackward0",
            lambda self, mat1, mat2: np.add(np.matmul(mat1, mat2), self),
            self=lambda grad: grad,
            mat1=lambda grad, mat2: grad.mm(mat2.t()),
            mat2=lambda grad, mat1: mat1.t().mm(grad),
            jvp=lambda mat1, mat2, self_t, mat1_t, mat2_t: _plus(
                _plus(self_t, None if mat1_t is None else mat1_t.mm(mat2)),
                None if mat2_t is None else mat1.mm(mat2_t),
            ),
        ),
    )(bias, mat1, mat2)


# --- forward-mode rules (torch's `result:` formulas) ---------------------------------------


def _conv_t(
    input: Tensor,
    weight: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
    input_t: Any,
    weight_t: Any,
    bias_t: Any,
    result: Tensor,
) -> Any:
    # torch's convolution_jvp: conv(input_t, weight) + conv(input, weight_t) + bias_t, zero
    # terms included (Note [Zero tangents] in forward_ad)
    rest = (stride, padding, dilation, transposed, output_padding, groups)
    r = add_terms(
        ZeroTerm(lambda z: convolution_op(z, weight, None, *rest), input, weight)
        if input_t is None
        else convolution_op(input_t, weight, None, *rest),
        ZeroTerm(lambda z: convolution_op(input, z, None, *rest), weight, input)
        if weight_t is None
        else convolution_op(input, weight_t, None, *rest),
    )
    if bias_t is not None:
        r = _plus(r, bias_t.reshape([-1] + [1] * (result.ndim - 2)))
    return r


def _prelu_t(self: Tensor, weight: Tensor, self_t: Any, weight_t: Any) -> Tensor:
    # where(self >= 0, self_t, weight * self_t + weight_t * self)
    shape = _prelu_shape(self, weight)
    st = P._tz(self_t, self)
    w_t = None if weight_t is None else weight_t.reshape(shape) * self
    neg = _plus(weight.reshape(shape) * st, w_t)
    return _where(self >= 0, st, neg)


def _log_softmax_t(self: Tensor, dim: int, self_t: Tensor) -> Tensor:
    from .reduction import _logsumexp_t

    if self.ndim == 0:
        return self_t - self_t  # a single element: log_softmax is 0
    return self_t - _logsumexp_t(self, self_t, (dim,), True)


def _glu_t(self: Tensor, dim: int, self_t: Tensor, result: Tensor) -> Tensor:
    # torch's glu_jvp: da * sigmoid(b) + result * (db - sigmoid(b) * db)
    n = self.shape[dim] // 2
    sig_b = P.sigmoid(self.narrow(dim, n, n))
    da, db = self_t.narrow(dim, 0, n), self_t.narrow(dim, n, n)
    return da * sig_b + result * (db - sig_b * db)


# --- activations --------------------------------------------------------------------------


def _np_erf(x: np.ndarray) -> np.ndarray:
    if type(x) is not np.ndarray and getattr(x, "_sg_sparse", False):
        from ..sparse._ops import not_on_sparse

        raise not_on_sparse("gelu")  # (gelu's erf of a sparse tensor: torch has no kernel)
    return _specfun.erf(x).astype(x.dtype, copy=False)


_SQRT_2PI = math.sqrt(2 * math.pi)
_K_TANH = math.sqrt(2 / math.pi)
_C_TANH = 0.044715


def _fma32(a: np.ndarray, b: Any, c: Any) -> np.ndarray:
    """a * b + c rounded once to float32, as an FMA instruction (the float64 product of float32
    numbers is exact): GCC contracts torch's vectorized `a * b + c` into one."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


_F32_3K = np.float32(3) * np.float32(_C_TANH)


def _np_gelu_tanh_grad32(x: np.ndarray) -> np.ndarray:
    # torch's float32 kernel with GCC's contractions (98% equal bit for bit with tanh rounded
    # once; Note [float32 transcendentals])
    one, half, k = np.float32(1), np.float32(0.5), np.float32(_K_TANH)
    x_sq = x * x
    t = _fm.tanh(k * _fma32(x * x_sq, np.float32(_C_TANH), x))
    left_derivative = half * (one + t)
    right_derivative = (half * x) * _fma32(-t, t, 1.0) * (k * _fma32(x_sq, _F32_3K, 1.0))
    return left_derivative + right_derivative


def _np_gelu_grad(x: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        if x.dtype == np.float32:
            # large arrays too: x ** 3 (np.power) took 4.5 ms on 256x256, torch's x * x * x
            # 0.1 ms, and matched torch's gradient on 52% of elements instead of 79%
            return _np_gelu_tanh_grad32(x)
        u = _K_TANH * (x + _C_TANH * (x * x * x))
        t = np.tanh(u)
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _K_TANH * (1 + 3 * _C_TANH * x * x)
    return 0.5 * (1 + _np_erf(x / math.sqrt(2))) + x * np.exp(-0.5 * x * x) / _SQRT_2PI


def _np_gelu(x: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        if x.dtype == np.float32:
            # torch's float32 kernel, x + kappa * x**3 as one FMA (99% equal bit for bit with
            # tanh rounded once, Note [float32 transcendentals])
            u = np.float32(_K_TANH) * _fma32(x * x * x, np.float32(_C_TANH), x)
            return np.float32(0.5) * x * (np.float32(1) + _fm.tanh(u))
        return 0.5 * x * (1 + np.tanh(_K_TANH * (x + _C_TANH * (x * x * x))))
    return 0.5 * x * (1 + _np_erf(x / math.sqrt(2)))


def _gelu_tanh_second(x: Tensor) -> Tensor:
    """torch's gelu_double_backward for approximate='tanh', term by term (its numbers are
    mul.Scalar / add.Scalar, its `1 - t` and `1 / t` Tensor ops with a wrapped number)."""
    ms = P._mul_scalar
    one = x.new_ones(())
    inner = ms(x + ms(P.pow(x, 3), _C_TANH), _K_TANH)
    tanh_inner = P.tanh(inner)
    sech_inner = one / P.cosh(inner)
    f = ms(x, 0.5)
    g = one - tanh_inner * tanh_inner
    h = ms(P.add_scalar(ms(x, 3 * _C_TANH) * x, 1), _K_TANH)
    f_prime_gh = ms(g, 0.5) * h
    g_prime = ms(sech_inner, 2) * (-sech_inner * tanh_inner) * h
    g_prime_fh = f * h * g_prime
    h_prime = ms(ms(x, 6 * _C_TANH), _K_TANH)
    h_prime_fg = f * g * h_prime
    # left derivative f_prime_gh, right f_prime_gh + g_prime_fh + h_prime_fg
    return ms(f_prime_gh, 2) + g_prime_fh + h_prime_fg


def _gelu_second(x: Tensor, approximate: str) -> Tensor:
    if approximate == "tanh":
        return _gelu_tanh_second(x)
    # torch's gelu_double_backward: pdf = kBeta * exp(-0.5 * x^2), 2 * pdf - x^2 * pdf (the
    # numbers are mul.Scalar in its C++: MulBackward1)
    x_sq = x * x
    pdf = P._mul_scalar(P.exp(P._mul_scalar(x_sq, -0.5)), 1 / _SQRT_2PI)
    return P._mul_scalar(pdf, 2) - x_sq * pdf


_gelu_backward = defop(
    "gelu_backward",
    "GeluBackwardBackward0",
    _f16(
        lambda grad_output, self, approximate: (
            grad_output * _np_gelu_grad(self, approximate)
        ).astype(self.dtype, copy=False)
    ),
    grad_output=lambda grad, self, approximate: _gelu_backward(grad, self, approximate),
    self=lambda grad, grad_output, self, approximate: (
        grad * grad_output * _gelu_second(self, approximate)
    ),
    jvp=ELEMENTWISE,
)
gelu_op = defop(
    "gelu",
    "GeluBackward0",
    _f16(lambda self, approximate: _np_gelu_any(self, approximate)),
    dtype="keep",
    self=lambda grad, self, approximate: _gelu_backward(grad, self, approximate),
    jvp=ELEMENTWISE,
)


# Raw (array) first-order backward formulas of the piecewise activations (Note [Raw
# backward]): one numpy where each, instead of Tensor ops and their dispatch.
def _np_leaky(x: np.ndarray, slope: float) -> np.ndarray:
    """x where x > 0, else x * slope: for 0 < slope <= 1 that is max(x, x * slope) (NaN and
    signed zeros included), one cheap pass instead of a where over a random mask."""
    if x.dtype.kind == "f" and 0 < slope <= 1:
        y = x * slope
        return np.maximum(x, y, out=y) if type(y) is np.ndarray else np.maximum(x, y)
    return np.where(x > 0, x, x * slope).astype(x.dtype, copy=False)


def _np_leaky_bw(grad: np.ndarray, self: np.ndarray, slope: float) -> np.ndarray:
    return _select(self > 0, grad, grad * slope).astype(grad.dtype, copy=False)


def _np_band_bw(grad: Any, self: Any, lo: float, hi: float, scale: Any) -> np.ndarray:
    """grad (times `scale`) where lo < self < hi, else 0 (hardtanh, relu6, hardsigmoid)."""
    g = grad if scale is None else grad * grad.dtype.type(scale)
    inside = self > lo
    inside &= self < hi
    return _select(inside, g, 0).astype(grad.dtype, copy=False)


def _np_hardswish_bw(grad: np.ndarray, self: np.ndarray) -> np.ndarray:
    """torch's kernel: 0 where x <= -3, grad * (x / 3 + 1/2) where x < 3, else grad. Its
    vectorized loop tests x >= 3 for the last branch instead, so a NaN x gives NaN there and
    grad only in the scalar tail: the last n % (2 vectors) elements of a contiguous run."""
    # np.where, not _select: these masks are nearly all true or all false in practice, where
    # numpy's branches predict well (select pays its four passes regardless)
    mid = np.where(self < 3, grad * (self / 3 + 0.5), grad)
    out = np.where(self <= -3, 0, mid).astype(grad.dtype, copy=False)
    if self.dtype.kind == "f" and self.dtype.itemsize in (4, 8) and out.shape == self.shape:
        nan = np.isnan(self)
        if nan.any():
            # the vectorized part: n - n % (2 vectors of _LANES float32 or _LANES / 2 float64)
            chunk = _LANES * 8 // self.dtype.itemsize
            flat = np.flatnonzero(nan)
            flat = flat[flat < self.size - self.size % chunk]
            if flat.size:
                out[np.unravel_index(flat, out.shape)] = np.nan
    return out


# Note [Activation backward ops]
# torch's piecewise activations differentiate through backward kernels of their own
# (leaky_relu_backward, hardtanh_backward, hardswish_backward, log_sigmoid_backward): under
# create_graph the gradient's node is that kernel's (LeakyReluBackwardBackward0, ...), with an
# edge to the incoming grad and one to self, even where the derivative wrt self is zero
# (torch's zeros_like(grad)): backward then reaches self's leaf with a zero grad, not None.
_leaky_bw = defop(
    "leaky_relu_backward",
    "LeakyReluBackwardBackward0",
    lambda grad_output, self, negative_slope: _np_leaky_bw(grad_output, self, negative_slope),
    dtype="keep",
    grad_output=lambda grad, self, negative_slope: _leaky_bw(grad, self, negative_slope),
    self=lambda grad: _zeros(grad),
    jvp=ELEMENTWISE,
)

# leaky_relu: at 0 the grad is the negative slope (the test is self > 0), as torch
leaky_relu_op = defop(
    "leaky_relu",
    "LeakyReluBackward0",
    lambda self, negative_slope: _np_leaky(self, negative_slope),
    dtype="keep",
    self=lambda grad, self, negative_slope: _leaky_bw(grad, self, negative_slope),
    raw={"self": lambda grad, self, negative_slope: _np_leaky_bw(grad, self, negative_slope)},
    jvp=ELEMENTWISE,
)


def _np_elu(x: np.ndarray, alpha: float, scale: float, input_scale: float) -> np.ndarray:
    neg = _fm.expm1(np.minimum(x, 0) * input_scale) * (alpha * scale)
    return _select(x > 0, x * scale, neg).astype(x.dtype, copy=False)


def _np_elu_bw(grad: Any, self: Any, alpha: float, scale: float, input_scale: float) -> Any:
    # torch's kernel: grad * input_scale * (alpha * scale) * exp(x * input_scale) where x <= 0,
    # with SLEEF's expf on float32 (equal bit for bit, Note [float32 transcendentals])
    ex = _fm.sleef_expf if _fm.small32(self) else np.exp
    neg = (
        grad * input_scale * self.dtype.type(alpha * scale) * ex(np.minimum(self, 0) * input_scale)
    )
    return _select(self > 0, grad * scale, neg).astype(grad.dtype, copy=False)


def _np_elu_result_bw(grad_output: Any, result: Any, alpha: float, scale: float, iscale: float):
    # torch's kernel with is_result (elu_/celu_): grad * input_scale * (result + alpha * scale)
    # where result <= 0, grad * scale elsewhere
    neg = grad_output * iscale * (result + alpha * scale)
    return np.where(result > 0, grad_output * scale, neg).astype(grad_output.dtype, copy=False)


def _elu_dd_self(grad, grad_output, self, alpha, scale, input_scale, is_result):
    # torch's elu_double_backward, 0 where self (or the result) >= 0 (at 0 too)
    neg = (self < 0).to(grad.dtype)
    g = P._mul_scalar(grad * grad_output, input_scale)  # C++ `* input_scale`: mul.Scalar
    if is_result:
        return g * neg
    return _elu_bw(g, self, alpha, scale, input_scale, False) * neg


# elu's backward is an op of its own, as in torch (EluBackwardBackward0); `self` is the result
# for the in-place elu_/celu_ (torch's is_result)
_elu_bw = defop(
    "elu_backward",
    "EluBackwardBackward0",
    lambda grad_output, self, alpha, scale, input_scale, is_result: (
        _np_elu_result_bw if is_result else _np_elu_bw
    )(grad_output, self, alpha, scale, input_scale),
    dtype="keep",
    grad_output=lambda grad, self, alpha, scale, input_scale, is_result: _elu_bw(
        grad, self, alpha, scale, input_scale, is_result
    ),
    self=_elu_dd_self,
    jvp=ELEMENTWISE,
)
elu_op = defop(
    "elu",
    "EluBackward0",
    lambda self, alpha, scale, input_scale: _np_elu(self, alpha, scale, input_scale),
    dtype="keep",
    self=lambda grad, self, alpha, scale, input_scale: _elu_bw(
        grad, self, alpha, scale, input_scale, False
    ),
    raw={
        "self": lambda grad, self, alpha, scale, input_scale: _np_elu_bw(
            grad, self, alpha, scale, input_scale
        )
    },
    jvp=ELEMENTWISE,
)
celu_op = defop(
    "celu",
    "CeluBackward0",
    lambda self, alpha: _np_elu(self, alpha, 1.0, 1.0 / alpha),
    dtype="keep",
    # torch's formula: elu_backward(grad, alpha, 1, 1.0 / alpha.toFloat(), ...): the input scale
    # of the backward is 1 over alpha rounded to float32, whatever the dtype
    self=lambda grad, self, alpha: _elu_bw(
        grad, self, alpha, 1.0, 1.0 / float(np.float32(alpha)), False
    ),
    jvp=ELEMENTWISE,
)


def _silu_grad(grad: Tensor, self: Tensor) -> Tensor:
    s = P.sigmoid(self)
    # torch's formula's order of products; its C++ `1 + t` is add.Scalar (AddBackward1) and
    # `1 - s` fills a fresh tensor with 1 and subtracts s from it (SubBackward0)
    return grad * s * P.add_scalar(self * ((zeros_like(s) + 1) - s), 1)


def _np_silu(x: np.ndarray) -> np.ndarray:
    if _fm.small32(x):
        # torch's float32 kernel, x / (1 + exp(-x)) with SLEEF's expf: equal bit for bit
        return x / (np.float32(1) + _fm.sleef_expf(-x))
    s = P._np_sigmoid(x)
    if s.dtype == x.dtype and type(s) is np.ndarray:
        return np.multiply(x, s, out=s)
    return (x * s).astype(x.dtype, copy=False)


def _np_silu_bw(grad: np.ndarray, self: np.ndarray) -> np.ndarray:
    if _fm.small32(self) and grad.dtype == self.dtype:
        # torch's float32 kernel: its sigmoid, then 1 + x * (1 - s) as one fused multiply-add
        # (exact in float64; equal bit for bit, Note [float32 transcendentals])
        one = np.float32(1)
        s = one / (one + _fm.sleef_expf(-self))
        return grad * s * (self.astype(np.float64) * (one - s) + 1).astype(np.float32)
    s = P._np_sigmoid(self)
    t = 1 - s
    if type(t) is not np.ndarray or t.shape != s.shape:
        return grad * s * (1 + self * (1 - s))
    t *= self  # fresh arrays, the same operations in the same order
    t += 1
    gs = grad * s
    if gs.shape == t.shape and gs.dtype == np.result_type(gs, t):
        gs *= t
        return gs
    return gs * t


silu_op = defop(
    "silu",
    "SiluBackward0",
    _f16(lambda self: _np_silu(self)),
    dtype="keep",
    self=_silu_grad,
    raw={"self": _f16(_np_silu_bw)},
    jvp=ELEMENTWISE,
)


def _np_softplus(x: np.ndarray, beta: float, threshold: float) -> np.ndarray:
    bx = x * beta
    if _fm.small32(x):
        # torch's float32 kernel, log1p(exp(x * beta)) / beta with SLEEF's expf (99.9% equal
        # bit for bit, Note [float32 transcendentals])
        with np.errstate(all="ignore"):
            soft = _fm.log1p(_fm.sleef_expf(bx)) / beta
        return _select(bx > threshold, x, soft).astype(x.dtype, copy=False)
    soft = (np.maximum(bx, 0) + np.log1p(np.exp(-np.abs(bx)))) / beta
    return _select(bx > threshold, x, soft).astype(x.dtype, copy=False)


def _np_softplus_bw(grad: np.ndarray, self: np.ndarray, beta: float, threshold: float) -> Any:
    bx = self * beta
    if _fm.small32(self) and grad.dtype == self.dtype:
        # torch's float32 kernel: z = exp(x * beta), grad * z / (z + 1), with SLEEF's expf
        # (equal bit for bit, Note [float32 transcendentals])
        z = _fm.sleef_expf(bx)
        with np.errstate(all="ignore"):
            return _select(bx > threshold, grad, grad * z / (z + 1))
    return _select(bx > threshold, grad, grad * P._np_sigmoid(bx)).astype(grad.dtype, copy=False)


def _softplus_double(grad: Tensor, self: Tensor, beta: Any, threshold: Any) -> Tensor:
    # torch's softplus_double_backward: 0 where beta * x >= threshold (the linear branch)
    x = P._mul_scalar(self, beta)
    mask = (x < threshold).to(grad.dtype)
    return P._mul_scalar(P._sigmoid_backward(grad, P.sigmoid(x)) * mask, beta)


# softplus's backward is an op of its own, as in torch (SoftplusBackwardBackward0)
_softplus_bw = defop(
    "softplus_backward",
    "SoftplusBackwardBackward0",
    _f16(
        lambda grad_output, self, beta, threshold: _np_softplus_bw(
            grad_output, self, beta, threshold
        )
    ),
    dtype="keep",
    grad_output=lambda grad, self, beta, threshold: _softplus_bw(grad, self, beta, threshold),
    self=lambda grad, grad_output, self, beta, threshold: _softplus_double(
        grad * grad_output, self, beta, threshold
    ),
    jvp=ELEMENTWISE,
)
softplus_op = defop(
    "softplus",
    "SoftplusBackward0",
    _f16(lambda self, beta, threshold: _np_softplus(self, beta, threshold)),
    dtype="keep",
    self=lambda grad, self, beta, threshold: _softplus_bw(grad, self, beta, threshold),
    raw={"self": _f16(_np_softplus_bw)},
    jvp=ELEMENTWISE,
)


threshold_op = defop(
    "threshold",
    "ThresholdBackward0",
    lambda self, threshold, value: _select(self > threshold, self, value).astype(
        self.dtype, copy=False
    ),
    dtype="keep",
    self=lambda grad, self, threshold: P._threshold_bw(grad, self, threshold),
    jvp=ELEMENTWISE,
)


def _mish_grad(grad: Tensor, self: Tensor) -> Tensor:
    # torch's infinitely_differentiable_mish_backward, in its order (the graph follows it)
    s = P.sigmoid(self)
    t = P.tanh(P.log1p(P.exp(self)))
    return grad * (t + self * s * ((zeros_like(t) + 1) - t * t))


def _np_mish_bw(grad: np.ndarray, self: np.ndarray) -> np.ndarray:
    if _fm.small32(self) and grad.dtype == self.dtype:
        # torch's float32 kernel: SLEEF's expf, then t + x * s * (1 - t * t) as two FMAs (99.6%
        # equal bit for bit, Note [float32 transcendentals])
        one = np.float32(1)
        with np.errstate(all="ignore"):
            s = one / (one + _fm.sleef_expf(-self))
            t = _fm.tanh(_fm.log1p(_fm.sleef_expf(self)))
        return grad * _fma32(self * s, _fma32(-t, t, 1.0), t)
    t = np.tanh(_np_softplus(self, 1.0, 20.0))
    return grad * (t + self * (1 - t * t) * P._np_sigmoid(self))


def _np_mish(x: np.ndarray) -> np.ndarray:
    if _fm.small32(x):
        # torch's float32 kernel, x * tanh(log1p(exp(x))) with SLEEF's expf (99% equal bit
        # for bit, Note [float32 transcendentals])
        with np.errstate(all="ignore"):
            return x * _fm.tanh(_fm.log1p(_fm.sleef_expf(x)))
    return (x * np.tanh(_np_softplus(x, 1.0, 20.0))).astype(x.dtype, copy=False)


mish_op = defop(
    "mish",
    "MishBackward0",
    _f16(lambda self: _np_mish(self)),
    dtype="keep",
    self=_mish_grad,
    raw={"self": _f16(_np_mish_bw)},
    jvp=ELEMENTWISE,
)

# hardtanh: the grad is 0 at the bounds themselves (bounds excluded), as torch
# --- hardshrink, softshrink ---------------------------------------------------------------
# torch's kernels: hardshrink keeps a where it is outside [-lambd, lambd] (nan included);
# softshrink moves it toward 0 by lambd there, else gives a * 0 (so -0 for a negative a, nan
# for nan). Both backward ops zero the gradient inside [-lambd, lambd] and have their own
# nodes under create_graph, as in torch.


def _inside(self: np.ndarray, lambd: Any) -> np.ndarray:
    return (self >= -lambd) & (self <= lambd)


def _np_shrink_backward(grad_output: np.ndarray, self: np.ndarray, lambd: Any) -> np.ndarray:
    return _select(_inside(self, lambd), np.zeros((), grad_output.dtype), grad_output)


def _np_softshrink(self: np.ndarray, lambd: Any) -> np.ndarray:
    lam = np.asarray(lambd, self.dtype)
    out = _select(self > lam, self - lam, _select(self < -lam, self + lam, self * 0))
    return out.astype(self.dtype, copy=False)


def _shrink_pair(name: str, grad_fn: str, forward: Any) -> Any:
    backward_op = defop(
        name + "_backward",
        grad_fn.replace("Backward0", "BackwardBackward0"),
        lambda grad_output, self, lambd: _np_shrink_backward(grad_output, self, lambd),
        grad_output=lambda grad, self, lambd: backward_op(grad, self, lambd),
        self=lambda grad: _zeros(grad),
        jvp=lambda self, lambd, grad_output_t: (
            None if grad_output_t is None else backward_op(grad_output_t, self, lambd)
        ),
    )
    return defop(
        name,
        grad_fn,
        forward,
        dtype="keep",
        self=lambda grad, self, lambd: backward_op(grad, self, lambd),
        raw={"self": lambda grad, self, lambd: _np_shrink_backward(grad, self, lambd)},
        jvp=ELEMENTWISE,
    )


def _zeros(t: Tensor) -> Tensor:
    return _make(np.zeros(t._data.shape, t._data.dtype))


hardshrink_op = _shrink_pair(
    "hardshrink",
    "HardshrinkBackward0",
    lambda self, lambd: _select(_inside(self, lambd), np.zeros((), self.dtype), self),
)
softshrink_op = _shrink_pair("softshrink", "SoftshrinkBackward0", _np_softshrink)

# hardtanh's backward kernel (Note [Activation backward ops])
_hardtanh_bw = defop(
    "hardtanh_backward",
    "HardtanhBackwardBackward0",
    lambda grad_output, self, min_val, max_val: _np_band_bw(
        grad_output, self, min_val, max_val, None
    ),
    dtype="keep",
    grad_output=lambda grad, self, min_val, max_val: _hardtanh_bw(grad, self, min_val, max_val),
    self=lambda grad: _zeros(grad),
    jvp=ELEMENTWISE,
)
hardtanh_op = defop(
    "hardtanh",
    "HardtanhBackward0",
    lambda self, min_val, max_val: np.clip(self, min_val, max_val).astype(self.dtype, copy=False),
    dtype="keep",
    self=lambda grad, self, min_val, max_val: _hardtanh_bw(grad, self, min_val, max_val),
    raw={
        "self": lambda grad, self, min_val, max_val: _np_band_bw(grad, self, min_val, max_val, None)
    },
    jvp=ELEMENTWISE,
)
hardsigmoid_op = defop(
    "hardsigmoid",
    "HardsigmoidBackward0",
    # torch's kernel: min(max(x + 3, 0), 6) / 6
    lambda self: (np.clip(self + 3, 0, 6) / 6).astype(self.dtype, copy=False),
    dtype="keep",
    # torch's hardsigmoid_backward has no derivative: a NotImplemented node under create_graph
    self=lambda grad, self: P.no_derivative(
        _make(_np_band_bw(grad._data, self._data, -3, 3, np.float32(1) / 6)),
        (grad, self),
        "hardsigmoid_backward",
    ),
    # torch's kernel multiplies by 1.0f / 6.0f, a float32 sixth for float64 too
    raw={"self": lambda grad, self: _np_band_bw(grad, self, -3, 3, np.float32(1) / 6)},
    jvp=ELEMENTWISE,
)
# hardswish's backward kernel (Note [Activation backward ops]); torch's double backward
# for self: grad * grad_output / 3 on (-3, 3), else 0
_hardswish_bw = defop(
    "hardswish_backward",
    "HardswishBackwardBackward0",
    _f16(lambda grad_output, self: _np_hardswish_bw(grad_output, self)),
    dtype="keep",
    grad_output=lambda grad, self: _hardswish_bw(grad, self),
    self=lambda grad, grad_output, self: _where(  # C++ `/ 3.0`: div.Scalar
        (self > -3) & (self < 3), _div_scalar(grad * grad_output, 3.0), 0.0
    ),
    jvp=ELEMENTWISE,
)
hardswish_op = defop(
    "hardswish",
    "HardswishBackward0",
    _f16(lambda self: (self * np.clip(self + 3, 0, 6) / 6).astype(self.dtype, copy=False)),
    dtype="keep",
    # torch: 0 up to -3 (included), x/3 + 1/2 on (-3, 3), 1 from 3 on
    self=lambda grad, self: _hardswish_bw(grad, self),
    raw={"self": _f16(_np_hardswish_bw)},
    jvp=ELEMENTWISE,
)


def _np_logsigmoid(x: np.ndarray) -> np.ndarray:
    if _fm.small32(x):
        # torch's float32 kernel with SLEEF's expf (99.9% equal bit for bit, Note [float32
        # transcendentals])
        return np.minimum(x, 0) - _fm.log1p(_fm.sleef_expf(-np.abs(x)))
    return (np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))).astype(x.dtype, copy=False)


def _np_logsigmoid_bw(grad: np.ndarray, self: np.ndarray) -> np.ndarray:
    if _fm.small32(self) and grad.dtype == self.dtype:
        # torch's float32 kernel: z = exp(-|x|) (SLEEF's expf), then (1 - z / (1 + z)) * grad
        # where x < 0, (0 + z / (1 + z)) * grad elsewhere (equal bit for bit, Note [float32
        # transcendentals])
        one = np.float32(1)
        z = _fm.sleef_expf(-np.abs(self))
        neg = self < 0
        r = np.where(neg, one, np.float32(0)) - np.where(neg, one, -one) * (z / (one + z))
        return r * grad
    return grad * P._np_sigmoid(-self)


def _logsigmoid_double(grad: Tensor, self: Tensor) -> Tensor:
    z = P.sigmoid(self)  # torch's log_sigmoid_double_backward: grad * (z - 1) * z
    return grad * P.sub_scalar(z, 1) * z  # (C++ `z - 1`: sub.Scalar, SubBackward1)


# log_sigmoid's backward kernel (Note [Activation backward ops])
_logsigmoid_bw = defop(
    "log_sigmoid_backward",
    "LogSigmoidBackwardBackward0",
    _f16(lambda grad_output, self: _np_logsigmoid_bw(grad_output, self)),
    dtype="keep",
    grad_output=lambda grad, self: _logsigmoid_bw(grad, self),
    self=lambda grad, grad_output, self: _logsigmoid_double(grad * grad_output, self),
    jvp=ELEMENTWISE,
)
logsigmoid_op = defop(
    "log_sigmoid",
    "LogSigmoidBackward0",
    _f16(lambda self: _np_logsigmoid(self)),
    contiguous=True,
    dtype="keep",
    self=lambda grad, self: _logsigmoid_bw(grad, self),
    raw={"self": _f16(_np_logsigmoid_bw)},
    jvp=ELEMENTWISE,
)
# torch's im2col saves the input's last two sizes, not a pair (F.unfold)
_SAVED_LAZY["Im2ColBackward0"] = {
    "self_sym_argsize_minus_1": lambda node: node.saved_map()["input_size"][-1],
    "self_sym_argsize_minus_2": lambda node: node.saved_map()["input_size"][-2],
}
_SAVED_HIDDEN["Im2ColBackward0"] = frozenset(("input_size",))
_SAVED_HIDDEN["Col2ImBackward0"] = frozenset(("output_size",))  # col2im's backward: no sizes
# norm.ScalarOpt_dim takes an int list: NormBackward1._saved_dim is a tuple
_SAVED_LAZY["NormBackward1"] = {
    "dim": lambda node: _as_uint64(
        (node.saved_map()["dim"],)
        if type(node.saved_map()["dim"]) is int
        else node.saved_map()["dim"]
    )
}
# torch's log_sigmoid_forward also returns the buffer its backward reads, exp(-|self|)
_SAVED_LAZY["LogSigmoidBackward0"] = {
    "buffer": lambda node: _make(np.exp(-np.abs(saved_array(node, "self"))))
}


def _halves(self: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    dim %= self.ndim
    h = self.shape[dim] // 2
    pre = (slice(None),) * dim
    return self[(*pre, slice(0, h))], self[(*pre, slice(h, 2 * h))]


def _glu_fwd(self: np.ndarray, dim: int) -> np.ndarray:
    a, b = _halves(self, dim)
    s = P._np_sigmoid(b)
    if type(s) is np.ndarray and s.dtype == self.dtype:
        return np.multiply(a, s, out=s)
    return (a * s).astype(self.dtype, copy=False)


def _np_glu_bw(grad: np.ndarray, self: np.ndarray, dim: int) -> np.ndarray:
    """glu_backward on arrays (torch's kernel's order), written into one output
    instead of concatenated (Note [Raw backward])."""
    a, b = _halves(self, dim)
    s = P._np_sigmoid(b)
    dt = np.result_type(grad, s)
    if s.shape != np.broadcast_shapes(np.shape(grad), s.shape) or dt.kind != "f":
        ga = grad * s
        return np.concatenate([ga, ga * a * (1 - s)], dim)
    out = np.empty(self.shape, dt)
    ga, gb = _halves(out, dim)
    np.multiply(grad, s, out=ga)
    np.multiply(ga, a, out=gb)
    np.subtract(1, s, out=s)
    gb *= s
    return out


def _glu_dd_self(grad: Tensor, grad_output: Tensor, self: Tensor, dim: int) -> Tensor:
    # torch's glu_double_backward, in its order
    from .shape import cat, narrow

    h = self.shape[dim] // 2
    a, b = narrow(self, dim, 0, h), narrow(self, dim, h, h)
    sig = P.sigmoid(b)
    one_sub = (zeros_like(sig) + 1) - sig
    sig_one_sub = sig * one_sub
    gg_a, gg_b = narrow(grad, dim, 0, h), narrow(grad, dim, h, h)
    gg_b_a = gg_b * a
    gi_a = gg_b * grad_output * sig_one_sub
    second = sig_one_sub * one_sub - sig * sig_one_sub
    gi_b = gg_b_a * grad_output * second + gg_a * grad_output * sig_one_sub
    return cat([gi_a, gi_b], dim)


def _glu_dd_grad_output(grad: Tensor, self: Tensor, dim: int) -> Tensor:
    # torch's glu_double_backward_grad_output
    from .shape import narrow

    h = self.shape[dim] // 2
    sizes = list(self.shape)
    sizes[dim] = h
    ones = zeros_like(narrow(self, dim, 0, h).detach()) + 1
    tmp = grad * _glu_bw(ones, self, dim)
    return narrow(tmp, dim, 0, h) + narrow(tmp, dim, h, h)


# glu's backward is an op of its own, as in torch (GluBackwardBackward0)
_glu_bw = defop(
    "glu_backward",
    "GluBackwardBackward0",
    lambda grad_output, self, dim: _np_glu_bw(grad_output, self, dim),
    dtype="keep",
    grad_output=lambda grad, self, dim: _glu_dd_grad_output(grad, self, dim),
    self=_glu_dd_self,
)


glu_op = defop(
    "glu",
    "GluBackward0",
    _glu_fwd,
    dtype="keep",
    self=lambda grad, self, dim: _glu_bw(grad, self, dim),
    raw={"self": lambda grad, self, dim: _np_glu_bw(grad, self, dim)},
    jvp=_glu_t,
)


def _prelu_shape(self: Any, weight: Any) -> tuple[int, ...]:
    shape = [1] * self.ndim
    n = math.prod(weight.shape)
    if self.ndim >= 2 and n > 1:
        shape[1] = n
    elif self.ndim == 1 and n > 1:
        shape[0] = n
    return tuple(shape)


def _prelu_weight_grad(grad: Tensor, self: Tensor, weight: Tensor) -> Tensor:
    return _prelu_sum_to(_where(self < 0, grad * self, 0.0), self, weight)


def _prelu_sum_to(g: Tensor, self: Tensor, weight: Tensor) -> Tensor:
    """The weight's full-shape gradient summed to the weight's shape."""
    if weight.ndim == self.ndim:
        # prelu_op's broadcastable weight (1, C, 1, ...): the full-shape grad summed to the
        # weight's shape as torch's engine does (sum_to: SumBackward1 with keepdim)
        dims = [i for i in range(self.ndim) if weight.shape[i] == 1 and g.shape[i] != 1]
        return g.sum(dims, keepdim=True) if dims else g
    if weight.numel() == 1:
        return g.sum().reshape(weight.shape)
    axis = 1 if self.ndim >= 2 else 0
    dims = tuple(i for i in range(self.ndim) if i != axis)
    return (g.sum(dims) if dims else g).reshape(weight.shape)


def _prelu_input_grad(grad: Tensor, self: Tensor, weight: Tensor) -> Tensor:
    w = weight.reshape(_prelu_shape(self, weight))
    w = _where(self < 0, w, w.detach())  # torch's double backward masks x < 0 for the weight
    return _dep(_where(self > 0, grad, grad * w), self)


def _prelu_fused(k: int, grad: Tensor, self: Tensor, weight: Tensor) -> Tensor:
    """Formula k of PreluKernelBackward0: under grad mode, output k of one
    PreluKernelBackwardBackward0 node (Note [Fused backward nodes] in nn_fused.py), the
    weight's summed to its shape."""
    if not _grad_mode.STATE.grad:
        return (_prelu_input_grad if k == 0 else _prelu_weight_grad)(grad, self, weight)
    from .nn_fused import prelu_grads

    g = prelu_grads(k, grad, self, weight)
    return g if k == 0 else _prelu_sum_to(g, self, weight)


_prelu_kernel_op = defop(
    "_prelu_kernel",
    "PreluKernelBackward0",
    lambda self, weight: np.where(
        self > 0, self, self * weight.reshape(_prelu_shape(self, weight))
    ).astype(self.dtype, copy=False),
    self=lambda grad, self, weight: _prelu_fused(0, grad, self, weight),
    weight=lambda grad, self, weight: _prelu_fused(1, grad, self, weight),
    jvp=_prelu_t,
)


def prelu_op(self: Tensor, weight: Tensor) -> Tensor:
    """torch's at::prelu: its checks, then the weight reshaped (a view: ViewBackward0) to
    broadcast over self, (1, C, 1, ...) with self's number of dimensions, then _prelu_kernel."""
    if self.dtype is not weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {self.dtype._short} and "
            f"{weight.dtype._short}"
        )
    n = weight.numel()
    if n != 1:
        if self.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        ch = self.shape[1] if self.ndim > 1 else 1  # a 1-d input has one channel
        if ch != n:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers "
                f"= {n} and channel size = {ch}."
            )
    if weight.ndim > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    if self.ndim != weight.ndim:
        shape = [1] * self.ndim
        if self.ndim > 1:
            shape[1] = n
        weight = weight.reshape(shape)
    if not self.dtype.is_floating_point:  # the kernel has no integer or complex version
        raise NotImplementedError(f"\"prelu_cpu\" not implemented for '{self.dtype._short}'")
    return _prelu_kernel_op(self, weight)


# --- softmax ------------------------------------------------------------------------------


def _row_max(x: np.ndarray, dim: int) -> np.ndarray:
    """max over `dim`, keepdims. numpy reduces a short contiguous last axis one row at a time
    (a (512, 10) max costs ~60 us); over the transposed copy it is one pass per class (~4 us).
    max is exact, so both give the same values."""
    if dim == x.ndim - 1 and x.ndim == 2 and x.shape[1] <= 32 and x.shape[0] >= 4 * x.shape[1]:
        return np.maximum.reduce(np.ascontiguousarray(x.T), axis=0)[:, None]
    return np.maximum.reduce(x, axis=dim, keepdims=True)


def _row_sum(x: np.ndarray, dim: int) -> np.ndarray:
    """sum over `dim`, keepdims; a 2-d float32/float64 array's last axis as a product with
    ones (one BLAS call, ~5x faster than numpy's row-wise reduction for short rows; summed
    from zero as torch's kernel does)."""
    if dim == x.ndim - 1 and x.ndim == 2 and x.dtype.char in "fd" and x.shape[1] > 1:
        return (x @ np.ones(x.shape[1], x.dtype))[:, None]
    return np.add.reduce(x, axis=dim, keepdims=True)


def _np_softmax(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    if x.ndim == 0:  # x - x: nan for inf, -inf and nan, as torch's kernel
        z = x - x
        return z if log else np.exp(z)
    if dim < 0:  # the op saves the dim as given (SoftmaxBackward0._saved_dim)
        dim += x.ndim
    if x.size == 0:
        return x.copy()
    # torch subtracts the row's maximum whatever it is: a row holding +inf (inf - inf) or only
    # -inf (-inf + inf) is nan throughout, as in torch's kernel
    z = x - _row_max(x, dim)
    if _fm.small32(x):
        return _softmax32(z, dim, log)
    if log and x.dtype is D.LD and dim % x.ndim == x.ndim - 1:
        # torch's bfloat16 kernel over the last dim rounds the sum and its log to bfloat16
        s = D.round_bf16(_row_sum(np.exp(z), dim))
        return z - D.round_bf16(np.log(s))
    if log:
        s = _row_sum(np.exp(z), dim)
        np.log(s, out=s)
        np.subtract(z, s, out=z)  # z is this call's own temporary
        return z
    e = np.exp(z, out=z)
    return np.divide(e, _row_sum(e, dim), out=e)


def _softmax32(z: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """torch's float32 kernels on x - max: exp, torch's order of summation, then e * (1 / sum)
    or (x - max) - log(sum) over the last dim, e / sum or (x - max) - log(sum) over another.

    The last-dim kernel takes SLEEF's expf throughout; the other one vectorizes over the
    trailing dims a vector at a time and calls the scalar (correctly rounded) expf on the
    rest. With these, softmax equals torch's bit for bit on the last dim and on >= 98% of
    elements elsewhere (Note [float32 transcendentals])."""
    dim %= z.ndim
    last = dim == z.ndim - 1
    if last:
        e = _fm.sleef_expf(z)
        s = _lane_sum(e)
    else:
        inner = math.prod(z.shape[dim + 1 :])
        v = inner - inner % _LANES
        zz = z.reshape(-1, z.shape[dim], inner)
        e = np.empty_like(zz)
        e[..., :v] = _fm.sleef_expf(zz[..., :v])
        e[..., v:] = _fm.exp(zz[..., v:])
        e = e.reshape(z.shape)
        s = _seq_sum(e, dim)
    if log:
        return z - _fm.log(s)
    return e * (np.float32(1) / s) if last else e / s


def _seq_sum(x: np.ndarray, dim: int) -> np.ndarray:
    """Sum over `dim` (keepdim) from first to last element: numpy's reduce may sum pairwise."""
    return np.add.accumulate(x, axis=dim).take([-1], axis=dim)


def _vector_lanes() -> int:
    """float32 lanes of torch's vectorized CPU kernels: 16 where it runs AVX-512 (the SKX
    feature set, as torch's cpuinfo check), else 8 (AVX2)."""
    try:
        features = np._core._multiarray_umath.__cpu_features__  # type: ignore[attr-defined]
    except AttributeError:
        return 16
    return 16 if features.get("AVX512_SKX") else 8


_LANES = _vector_lanes()


def _lane_sum(x: np.ndarray) -> np.ndarray:
    """Sum over the last axis (keepdim) in the order of torch's vec::reduce_all: one running
    sum per vector lane (a row shorter than a vector is summed left to right), then a halving
    tree across the lanes."""
    n, lanes = x.shape[-1], _LANES
    if n < lanes:
        return _seq_sum(x, -1)
    full = n - n % lanes
    # a reduction over an axis other than the last adds row after row (numpy sums pairwise
    # only along the innermost axis): each lane's running sum, left to right
    acc = np.add.reduce(x[..., :full].reshape(*x.shape[:-1], full // lanes, lanes), axis=-2)
    if full < n:
        acc[..., : n - full] += x[..., full:]
    h = lanes
    while h > 1:
        h //= 2
        acc = acc[..., :h] + acc[..., h : 2 * h]
    return acc


def _sum_keep(t: Tensor, dim: int) -> Tensor:
    return t if t.ndim == 0 else t.sum(dim, keepdim=True)


def _softmax_bw_sum(x: np.ndarray, dim: int) -> np.ndarray:
    """The sum over `dim` (keepdim) in softmax's backward; a small float32 one in the order of
    torch's kernel (Note [float32 transcendentals])."""
    if x.ndim == 0:
        return x
    if dim < 0:  # saved as given
        dim += x.ndim
    if _fm.small32(x):
        return _lane_sum(x) if dim % x.ndim == x.ndim - 1 else _seq_sum(x, dim)
    return _row_sum(x, dim)


def _softmax_bw(grad: np.ndarray, result: np.ndarray, dim: int) -> np.ndarray:
    """result * (grad - sum(grad * result)). Over a dim other than the last, torch's float32
    kernel accumulates grad * result with one FMA per element along the dim (GCC's contraction);
    a small float32 one here too, for dims of up to 32 (equal bit for bit; Note [float32
    transcendentals])."""
    if (
        grad.ndim
        and _fm.small32(result)
        and grad.dtype == result.dtype
        and dim % grad.ndim != grad.ndim - 1
        and grad.shape[dim] <= 32  # a Python loop over the dim: bounded cost
    ):
        g, r = np.moveaxis(grad, dim, 0), np.moveaxis(result, dim, 0)
        acc = np.zeros(g.shape[1:], np.float32)
        for i in range(g.shape[0]):
            acc = _fma32(g[i], r[i], acc)
        return result * (grad - np.expand_dims(acc, dim))
    return result * (grad - _softmax_bw_sum(grad * result, dim))


def _log_softmax_bw(grad: np.ndarray, result: np.ndarray, dim: int) -> np.ndarray:
    """grad - exp(result) * sum(grad). A small float32 one as torch's kernel computes it, with
    SLEEF's expf and one fused multiply-add (equal bit for bit on the last dim and dim 0; Note
    [float32 transcendentals])."""
    if _fm.small32(result) and grad.dtype == result.dtype:
        e = _fm.sleef_expf(result).astype(np.float64)
        return (grad - e * _softmax_bw_sum(grad, dim)).astype(np.float32)
    return grad - np.exp(result) * _softmax_bw_sum(grad, dim)


# softmax's and log_softmax's backward are ops of their own, as in torch, so that double
# backward shows torch's nodes (SoftmaxBackwardDataBackward0, ...). Their `output` formulas are
# torch's softmax_double_backward and log_softmax's from derivatives.yaml.
def _softmax_bw_data_t(
    grad_output: Tensor, output: Tensor, dim: int, grad_output_t: Any, output_t: Any
) -> Any:
    a = None if grad_output_t is None else _softmax_bw_data(grad_output_t, output, dim)
    if output_t is None:
        return a
    b = output_t * (grad_output - _sum_keep(grad_output * output, dim))
    return _plus(a, b - output * _sum_keep(grad_output * output_t, dim))


def _log_softmax_bw_data_t(
    grad_output: Tensor, output: Tensor, dim: int, grad_output_t: Any, output_t: Any
) -> Any:
    a = None if grad_output_t is None else _log_softmax_bw_data(grad_output_t, output, dim)
    if output_t is None:
        return a
    return _plus(a, -(P.exp(output) * output_t) * _sum_keep(grad_output, dim))


_softmax_bw_data = defop(
    "_softmax_backward_data",
    "SoftmaxBackwardDataBackward0",
    _f16(lambda grad_output, output, dim: _softmax_bw(grad_output, output, dim)),
    dtype="keep",
    grad_output=lambda grad, output, dim: _softmax_bw_data(grad, output, dim),
    output=lambda grad, grad_output, output, dim: (
        grad_output * grad
        - _sum_keep(output * grad_output, dim) * grad
        - grad_output * _sum_keep(output * grad, dim)
    ),
    jvp=_softmax_bw_data_t,
)
_log_softmax_bw_data = defop(
    "_log_softmax_backward_data",
    "LogSoftmaxBackwardDataBackward0",
    _f16(lambda grad_output, output, dim: _log_softmax_bw(grad_output, output, dim)),
    dtype="keep",
    grad_output=lambda grad, output, dim: grad - _sum_keep(grad * P.exp(output), dim),
    output=lambda grad, grad_output, output, dim: (
        -_sum_keep(grad_output, dim) * P.exp(output) * grad
    ),
    jvp=_log_softmax_bw_data_t,
)


softmax_op = defop(
    "_softmax",
    "SoftmaxBackward0",
    _f16(lambda self, dim: _np_softmax(self, dim, False)),
    contiguous=True,
    dtype="keep",
    self=lambda grad, result, dim: _softmax_bw_data(grad, result, dim),
    raw={"self": _f16(lambda grad, result, dim: _softmax_bw(grad, result, dim))},
    jvp=lambda self, dim, self_t, result: result * _log_softmax_t(self, dim, self_t),
)
log_softmax_op = defop(
    "_log_softmax",
    "LogSoftmaxBackward0",
    _f16(lambda self, dim: _np_softmax(self, dim, True)),
    contiguous=True,
    dtype="keep",
    self=lambda grad, result, dim: _log_softmax_bw_data(grad, result, dim),
    raw={"self": _f16(lambda grad, result, dim: _log_softmax_bw(grad, result, dim))},
    jvp=_log_softmax_t,
)


# --- im2col / col2im (unfold / fold), the kernels of convolution ------------------------------


def _np_windows(x: np.ndarray, k: Any, d: Any, s: Any, out: Any) -> np.ndarray:
    """A (..., *k, *out) strided view of the windows of x (..., *spatial), n = len(k) dims."""
    n = len(k)
    st = x.strides[-n:]
    shape = (*x.shape[:-n], *k, *out)
    strides = (
        *x.strides[:-n],
        *(st[i] * d[i] for i in range(n)),
        *(st[i] * s[i] for i in range(n)),
    )
    return as_strided(x, shape, strides, writeable=False, subok=True)  # (meta stays meta)


def _out_size(n: int, k: int, s: int, p: int, d: int) -> int:
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


def _np_im2col(x: np.ndarray, k: Any, d: Any, p: Any, s: Any) -> tuple[np.ndarray, tuple]:
    """(N, C, *spatial) -> windows (N, C, *k, *out), over len(k) spatial dims."""
    n = len(k)
    sp = x.shape[-n:]
    out = tuple(_out_size(sp[i], k[i], s[i], p[i], d[i]) for i in range(n))
    if any(p):
        x = np.pad(x, [(0, 0)] * (x.ndim - n) + [(q, q) for q in p])
    return _np_windows(x, k, d, s, out), out


def _offsets(k: Any) -> Any:
    """Every offset of an n-d window, in window (row-major) order."""
    return itertools.product(*(range(a) for a in k))


def _np_col2im(cols: np.ndarray, size: Any, k: Any, d: Any, p: Any, s: Any) -> np.ndarray:
    """Adjoint of _np_im2col: cols (N, C, *k, *out) summed into (N, C, *size)."""
    n = len(k)
    o = cols.shape[-n:]
    out = np.zeros((*cols.shape[: -2 * n], *(size[i] + 2 * p[i] for i in range(n))), cols.dtype)
    for off in _offsets(k):
        sl = tuple(
            slice(off[i] * d[i], off[i] * d[i] + s[i] * (o[i] - 1) + 1, s[i]) for i in range(n)
        )
        out[(..., *sl)] += cols[(..., *off) + (slice(None),) * n]
    if not any(p) and all(out.shape[-n + i] == size[i] for i in range(n)):
        return out
    # torch's col2im writes a fresh contiguous result (not a view into the padded sums)
    return np.ascontiguousarray(out[(..., *(slice(p[i], p[i] + size[i]) for i in range(n)))])


def _im2col_fwd(
    self: np.ndarray, input_size: Any, kernel_size: Any, dilation: Any, padding: Any, stride: Any
):
    if self.ndim == 3:  # unbatched (C, H, W), as torch's im2col takes it
        return _im2col_fwd(self[None], input_size, kernel_size, dilation, padding, stride)[0]
    w, out = _np_im2col(self, kernel_size, dilation, padding, stride)
    n, c = self.shape[:2]
    return w.reshape(n, c * math.prod(kernel_size), math.prod(out))


def _col2im_fwd(
    self: np.ndarray, output_size: Any, kernel_size: Any, dilation: Any, padding: Any, stride: Any
):
    if self.ndim == 2:  # unbatched (C * prod(k), L), as torch's col2im takes it
        return _col2im_fwd(self[None], output_size, kernel_size, dilation, padding, stride)[0]
    k, d, p, s = kernel_size, dilation, padding, stride
    o = [_out_size(output_size[i], k[i], s[i], p[i], d[i]) for i in range(len(k))]
    cols = self.reshape(self.shape[0], self.shape[1] // math.prod(k), *k, *o)
    return _np_col2im(cols, output_size, k, d, p, s)


im2col_op = defop(
    "im2col",
    "Im2ColBackward0",
    _im2col_fwd,
    dtype="keep",
    self=lambda grad, input_size, kernel_size, dilation, padding, stride: col2im_op(
        grad, input_size, kernel_size, dilation, padding, stride
    ),
    jvp=LINEAR,
)
col2im_op = defop(
    "col2im",
    "Col2ImBackward0",
    _col2im_fwd,
    dtype="keep",
    self=lambda grad, output_size, kernel_size, dilation, padding, stride: im2col_op(
        grad, output_size, kernel_size, dilation, padding, stride
    ),
    jvp=LINEAR,
)


# --- convolution --------------------------------------------------------------------------
# One op for conv1d/2d/3d and their transposes (torch's `convolution`), over len(stride) spatial
# dims. 1-d convolutions run as 2-d ones over a height of 1. The formulas are the two transposed
# convolutions, written with im2col/col2im and matmul so that double backward works.


def _as4d(x: Any) -> Any:
    return x.reshape(x.shape[0], x.shape[1], 1, x.shape[2]) if x.ndim == 3 else x


def _conv_fwd(
    input: np.ndarray,
    weight: np.ndarray,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    transposed: bool,
    output_padding: Any,
    groups: int,
) -> np.ndarray:
    if transposed and input.dtype == np.float16:  # torch's kernel: float32, rounded once
        f = np.float32
        b = None if bias is None else bias.astype(f)
        args = (stride, padding, dilation, transposed, output_padding, groups)
        return _conv_fwd(input.astype(f), weight.astype(f), b, *args).astype(np.float16)
    one_d = input.ndim == 3
    x, w = _as4d(input), _as4d(weight)
    n = x.shape[0]
    g = groups
    k = w.shape[2:]
    if not transposed and x.shape[1] == 0:
        # torch's empty-input backend: no input channels give no output channels (not c_out
        # channels of bias), over the spatial size the window arithmetic gives
        sp = tuple(
            _out_size(x.shape[2 + i], k[i], stride[i], padding[i], dilation[i])
            for i in range(len(k))
        )
        out = np.zeros((n, 0, *sp), input.dtype)
        return out.reshape(n, 0, sp[-1]) if one_d else out
    if not transposed:
        win, out_sp = _np_im2col(x, k, dilation, padding, stride)
        cols = win.reshape(n, g, x.shape[1] // g * math.prod(k), math.prod(out_sp))
        wr = w.reshape(g, w.shape[0] // g, -1)
        if x.dtype == np.float16 and bias is not None:
            # torch adds the bias to the float32 sums and rounds once (as float16 addmm)
            from .linalg import half_matmul_float

            out = half_matmul_float(wr, cols).reshape(n, w.shape[0], *out_sp)
            out += bias.astype(np.float32).reshape(1, -1, *(1,) * len(k))
            out = out.astype(np.float16)
            return out.reshape(out.shape[0], out.shape[1], out.shape[-1]) if one_d else out
        out = np.matmul(wr, cols).reshape(n, w.shape[0], *out_sp)
    else:
        c_in = x.shape[1]
        xr = x.reshape(n, g, c_in // g, math.prod(x.shape[2:]))
        wr = w.reshape(g, c_in // g, -1)
        cols = np.matmul(wr.transpose(0, 2, 1), xr)  # (n, g, c_out/g * prod(k), prod(in))
        size = _transposed_size(x.shape[2:], k, stride, padding, dilation, output_padding)
        cols = cols.reshape(n, w.shape[1] * g, *k, *x.shape[2:])
        out = _np_col2im(cols, size, k, dilation, padding, stride)
        if type(input) is not np.ndarray:
            out = out.view(type(input))  # (a meta input's result is meta)
    if bias is not None:
        out = out + bias.reshape(1, -1, *(1,) * len(k))
    out = out.astype(input.dtype, copy=False)
    return out.reshape(out.shape[0], out.shape[1], out.shape[-1]) if one_d else out


def _transposed_size(hw: Any, k: Any, s: Any, p: Any, d: Any, op: Any) -> tuple[int, ...]:
    return tuple(
        (hw[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op[i] + 1 for i in range(len(k))
    )


def _t4(t: Tensor) -> Tensor:
    return t.unsqueeze(2) if t.ndim == 3 else t


def _back3(t: Tensor, like: Tensor) -> Tensor:
    return t.squeeze(2) if like.ndim == 3 else t


def _conv_x_grad(
    grad: Tensor,
    input: Tensor,
    weight: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> Tensor:
    """grad of a (non-transposed) convolution wrt its input: a transposed convolution."""
    g4, w4 = _t4(grad), _t4(weight)
    n, c_out = g4.shape[:2]
    L = math.prod(g4.shape[2:])
    k = tuple(w4.shape[2:])
    gr = g4.reshape(n, groups, c_out // groups, L)
    wr = w4.reshape(groups, c_out // groups, -1).transpose(1, 2)
    cols = (wr @ gr).reshape(n, w4.shape[1] * groups * math.prod(k), L)
    size = tuple(_t4(input).shape[2:])
    return _dep(_back3(col2im_op(cols, size, k, dilation, padding, stride), input), weight)


def _conv_w_grad(
    grad: Tensor,
    input: Tensor,
    weight: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> Tensor:
    g4, x4, w4 = _t4(grad), _t4(input), _t4(weight)
    n, c_out = g4.shape[:2]
    L = math.prod(g4.shape[2:])
    k = tuple(w4.shape[2:])
    cols = im2col_op(x4, tuple(x4.shape[2:]), k, dilation, padding, stride)
    cols = cols.reshape(n, groups, x4.shape[1] // groups * math.prod(k), L)
    gr = g4.reshape(n, groups, c_out // groups, L)
    gw = (gr @ cols.transpose(2, 3)).sum(0)
    return _dep(gw.reshape(weight.shape), weight)


def _convt_cols(grad: Tensor, input: Tensor, weight: Tensor, stride, padding, dilation, groups):
    """The windows of grad at each input position, (n, groups, c_out/g * prod(k), prod(in))."""
    g4, x4, w4 = _t4(grad), _t4(input), _t4(weight)
    k = tuple(w4.shape[2:])
    cols = im2col_op(g4, tuple(g4.shape[2:]), k, dilation, padding, stride)
    c = g4.shape[1] // groups * math.prod(k)
    in_sp = tuple(x4.shape[2:])
    sp = tuple(
        _out_size(g4.shape[2 + i], k[i], stride[i], padding[i], dilation[i]) for i in range(len(k))
    )
    if sp != in_sp:
        # output_padding >= stride (allowed below the dilation): grad's last positions lie past
        # every input position's window, and im2col finds windows there; keep the input's
        cols = cols.reshape(x4.shape[0], -1, *sp)[(Ellipsis, *(slice(0, n) for n in in_sp))]
    return cols.reshape(x4.shape[0], groups, c, math.prod(in_sp)), x4


def _convt_x_grad(
    grad: Tensor,
    input: Tensor,
    weight: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> Tensor:
    """grad of a transposed convolution wrt its input: a convolution of grad."""
    cols, x4 = _convt_cols(grad, input, weight, stride, padding, dilation, groups)
    wr = _t4(weight).reshape(groups, x4.shape[1] // groups, -1)
    return _dep(_back3((wr @ cols).reshape(x4.shape), input), weight)


def _convt_w_grad(
    grad: Tensor,
    input: Tensor,
    weight: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> Tensor:
    cols, x4 = _convt_cols(grad, input, weight, stride, padding, dilation, groups)
    n, c_in = x4.shape[:2]
    xr = x4.reshape(n, groups, c_in // groups, cols.shape[-1])
    gw = (xr @ cols.transpose(2, 3)).sum(0)
    return _dep(gw.reshape(weight.shape), weight)


def _conv_input_formula(
    grad, input, weight, stride, padding, dilation, transposed, output_padding, groups
):
    # output_padding: unused (the shapes say it), but saved as torch's node does
    if not transposed and input.shape[1] == 0:  # (the empty forward above)
        return input.new_zeros(input.shape)
    f = _convt_x_grad if transposed else _conv_x_grad
    return _conv_grad_in_float(f, grad, input, weight, stride, padding, dilation, groups)


def _conv_weight_formula(
    grad, input, weight, stride, padding, dilation, transposed, output_padding, groups
):
    if not transposed and input.shape[1] == 0:
        return weight.new_zeros(weight.shape)
    f = _convt_w_grad if transposed else _conv_w_grad
    return _conv_grad_in_float(f, grad, input, weight, stride, padding, dilation, groups)


def _conv_grad_in_float(f: Any, grad: Tensor, input: Tensor, weight: Tensor, *args: Any) -> Tensor:
    """A float16 convolution's gradient as torch's CPU kernel forms it: in float32, rounded
    once (the column sums and their overlaps would otherwise each round to float16)."""
    if grad.dtype is not D.float16:
        return f(grad, input, weight, *args)
    return f(grad.float(), input.float(), weight.float(), *args).half()


def _conv_bias_formula(grad: Tensor, weight: Tensor, transposed: bool, groups: int) -> Tensor:
    if grad.shape[1] == 0 and not transposed and weight.shape[0]:  # no input channels
        return grad.new_zeros((weight.shape[0],))
    return grad.sum((0, *range(2, grad.ndim)))


def _conv_fused(k: int, plain: Any) -> Any:
    """Formula k of ConvolutionBackward0: under grad mode, output k of one
    ConvolutionBackwardBackward0 node (Note [Fused backward nodes] in nn_fused.py)."""

    def formula(grad, input, weight, stride, padding, dilation, transposed, output_padding, groups):
        if not transposed and any(output_padding):
            # a non-transposed convolution given output_padding: only torch's double backward
            # of a transposed one runs it, and torch's backward kernel refuses it
            op = output_padding[len(output_padding) - (input.ndim - 2) :]
            raise RuntimeError(
                "output_padding is not supported for non-transposed convolutions; got: "
                + " ".join(str(v) for v in op)
            )
        if _grad_mode.STATE.grad:
            from .nn_fused import conv_grads

            args = (stride, padding, dilation, transposed, output_padding, groups)
            return conv_grads(k, grad, input, weight, *args)
        if k == 2:
            return plain(grad, weight, transposed, groups)
        args = (stride, padding, dilation, transposed, output_padding, groups)
        return plain(grad, input, weight, *args)

    return formula


convolution_op = defop(
    "convolution",
    "ConvolutionBackward0",
    _conv_fwd,
    input=_conv_fused(0, _conv_input_formula),
    weight=_conv_fused(1, _conv_weight_formula),
    bias=_conv_fused(2, _conv_bias_formula),
    jvp=_conv_t,
)


def _conv_param(name: str) -> Any:
    """A conv1d's stride, padding, ...: one int each, as given (F.conv1d runs the 2-d kernel)."""

    def read(node: Any) -> Any:
        v = node.saved_map()[name]
        meta = node._in_meta
        nd = next((len(m[0]) for m in meta[:2] if m is not None), None) if meta else None
        if nd is None:  # neither input nor weight requires grad: the weight's own rank
            w = saved_array(node, "weight")
            nd = None if w is None else w.ndim
        return v[1:] if nd == 3 and len(v) == 2 else v

    return read


def _conv_bias_sizes(node: Any) -> tuple[int, ...]:
    """torch's bias_sym_sizes_opt: the bias's sizes, (0,) without a bias (a bias that requires
    no grad is not known to the node: read as none)."""
    meta = node._in_meta
    m = meta[2] if meta is not None and len(meta) > 2 else None
    return (0,) if m is None else tuple(m[0])


_SAVED_LAZY["ConvolutionBackward0"] = {
    "stride": _conv_param("stride"),
    "padding": _conv_param("padding"),
    "dilation": _conv_param("dilation"),
    "output_padding": _conv_param("output_padding"),
    "bias_sym_sizes_opt": _conv_bias_sizes,
}


# --- pooling ------------------------------------------------------------------------------
# max pooling: the forward finds each window's first maximum (torch's tie rule) in numpy and
# the op gathers at those flat indices; its backward scatters (adds) the grad back.


def _flat_indices(indices: np.ndarray, sizes: Any, nd: int) -> tuple[np.ndarray, int]:
    """Pooling indices (into each plane of the last nd dims) as indices into the flattened input,
    and the input's size."""
    plane = math.prod(int(v) for v in sizes[-nd:])
    b = math.prod(indices.shape[:-nd])
    offs = (np.arange(b, dtype=np.int64) * plane).reshape(*indices.shape[:-nd], *(1,) * nd)
    return indices + offs, b * plane


def _pool_double_backward(grad: Tensor, indices: Tensor, nd: int) -> Tensor:
    """torch's max_pool_double_backward: the grad (viewed with its last nd dims as one)
    gathered at the indices, viewed as the indices."""
    if indices.numel() == 0:
        return grad.new_zeros(indices.shape)
    size = (*indices.shape[: indices.ndim - nd], -1)
    return grad.contiguous().view(size).gather(-1, indices.view(size)).view(indices.shape)


def _gather_pair(name: str, grad_fn: str, nd: int = 2) -> Any:
    """The op gathering self at pooling indices over nd spatial dims, and its adjoint scatter."""

    def gather_fwd(self: np.ndarray, indices: np.ndarray, self_sym_sizes: Any) -> np.ndarray:
        # one flat take: 2-3x faster than take_along_axis's broadcast index arrays
        return np.take(self.reshape(-1), _flat_indices(indices, self_sym_sizes, nd)[0])

    def scatter_fwd(grad_output: np.ndarray, indices: np.ndarray, self_sym_sizes: Any):
        flat, n = _flat_indices(indices, self_sym_sizes, nd)
        # added in the gradient's dtype, in output order, as torch's kernel adds (`np.add.at` is
        # several times faster than a float64 bincount since numpy 2); 0 + -0 gives +0 as torch
        r = np.zeros(n, grad_output.dtype)
        np.add.at(r, flat.ravel(), grad_output.ravel())
        return r.reshape(self_sym_sizes)

    # torch's *_backward(grad_output, self, ..., indices) has an edge to self (its derivative:
    # zeros_like(self))
    scatter = defop(
        name + "_backward",
        grad_fn.replace("Backward0", "BackwardBackward0"),
        lambda grad_output, self, indices, self_sym_sizes: scatter_fwd(
            grad_output, indices, self_sym_sizes
        ),
        dtype="keep",
        nondiff=("indices",),
        grad_output=lambda grad, indices: _pool_double_backward(grad, indices, nd),
        self=lambda self: zeros_like(self),
        jvp=LINEAR,
    )
    gather = defop(
        name,
        grad_fn,
        gather_fwd,
        dtype="keep",
        nondiff=("indices",),
        self=lambda grad, self, indices, self_sym_sizes: scatter(
            grad, self, indices, self_sym_sizes
        ),
        jvp=LINEAR,  # torch: gather(self_t.flatten(-2), -1, indices.flatten(-2))
    )
    return gather


max_pool2d_op = _gather_pair("max_pool2d_with_indices", "MaxPool2DWithIndicesBackward0")
max_pool3d_op = _gather_pair("max_pool3d_with_indices", "MaxPool3DWithIndicesBackward0", 3)
adaptive_max_pool2d_op = _gather_pair("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0")
adaptive_max_pool3d_op = _gather_pair("adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", 3)
for _node in (
    "MaxPool2DWithIndicesBackward0",
    "MaxPool3DWithIndicesBackward0",
    "AdaptiveMaxPool2DBackward0",
    "AdaptiveMaxPool3DBackward0",
):
    # torch's node saves the indices output as result1 (and the pooling's arguments: see
    # F.max_pool2d's show_saved), not the input's sizes
    _SAVED_RENAMED[_node] = {"result1": "indices"}
    _SAVED_HIDDEN[_node] = frozenset(("self_sym_sizes",))


def _unpool_fwd(self: np.ndarray, indices: np.ndarray, size: Any) -> np.ndarray:
    nd = len(size)
    out = np.zeros((*self.shape[:-nd], *size), self.dtype)
    flat, _ = _flat_indices(indices, out.shape, nd)
    out.reshape(-1)[flat.ravel()] = self.ravel()
    return out


def _unpool_op(nd: int) -> Any:
    return defop(
        f"max_unpool{nd}d",
        f"MaxUnpool{nd}DBackward0",
        _unpool_fwd,
        dtype="keep",
        nondiff=("indices",),
        # torch: the grad's plane gathered at the indices, viewed as the input
        self=lambda grad, indices: (
            grad.flatten(-nd).gather(-1, indices.flatten(-nd)).view(tuple(indices.shape))
        ),
        jvp=LINEAR,
    )


max_unpool2d_op, max_unpool3d_op = _unpool_op(2), _unpool_op(3)


def unpool_check(x: np.ndarray, indices: np.ndarray, size: Any) -> None:
    """torch's max_unpool index check: every index inside the output plane."""
    plane = math.prod(size)
    bad = indices[(indices < 0) | (indices >= plane)]
    if bad.size:
        dims = "x".join(str(v) for v in size)
        raise RuntimeError(
            f"Found an invalid max index: {int(bad.ravel()[0])} (output volumes are of size {dims})"
        )


def max_pool_indices(x: np.ndarray, k: Any, s: Any, p: Any, d: Any, ceil_mode: bool) -> np.ndarray:
    """Flat (row-major over the last len(k) dims) index of each window's first maximum."""
    nd = len(k)
    sp = x.shape[-nd:]
    out = [pool_out_size(sp[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(nd)]
    if all(v == 1 for v in d) and not any(p) and tuple(k) == tuple(s) and not ceil_mode:
        return _tiled_max_indices(x, k, out)
    need = [(out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 for i in range(nd)]
    pad = [(0, 0)] * (x.ndim - nd) + [(p[i], max(need[i] - sp[i] - p[i], 0)) for i in range(nd)]
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = np.pad(x, pad, constant_values=fill)
    win = _np_windows(xp, k, d, s, out)
    win = win.reshape(*x.shape[:-nd], math.prod(k), *out)
    ax = -nd - 1
    arg = np.argmax(win, axis=ax)
    nan = np.isnan(win).any(axis=ax) if x.dtype.kind == "f" else None
    if nan is not None and nan.any():
        # torch's kernel takes a NaN whenever it meets one: the last NaN of the window wins
        kk = win.shape[ax]
        last_nan = kk - 1 - np.argmax(np.flip(np.isnan(win), axis=ax), axis=ax)
        arg = np.where(nan, last_nan, arg)
    arg = _first_valid_if_padding(arg, x, xp, pad, k, d, s, out)
    flat = np.zeros(arg.shape, np.int64)
    for i, ki in enumerate(np.unravel_index(arg, tuple(k))):
        pos = np.arange(out[i]).reshape((-1,) + (1,) * (nd - 1 - i)) * s[i] - p[i] + ki * d[i]
        flat = flat * sp[i] + pos
    return flat


max_pool2d_indices = max_pool_indices


def _first_valid_if_padding(arg, x, xp, pad, k, d, s, out) -> np.ndarray:
    """arg with each window whose maximum fell on the padding (every value in it the fill:
    -inf, or an integer type's lowest) moved to the window's first real element, as torch's
    kernel starts each window's index there and only moves it on a strictly greater value."""
    nd = len(k)
    if not any(q for w in pad[-nd:] for q in w):
        return arg
    m = np.zeros(xp.shape[-nd:], bool)
    m[tuple(slice(w[0], w[0] + n) for w, n in zip(pad[-nd:], x.shape[-nd:], strict=True))] = True
    mw = _np_windows(m, k, d, s, out).reshape(math.prod(k), *out)
    on_pad = ~np.take_along_axis(mw[None], arg.reshape(-1, 1, *out), axis=1).reshape(arg.shape)
    if not on_pad.any():
        return arg
    return np.where(on_pad, np.argmax(mw, axis=0), arg)


def _tiled_max_indices(x: np.ndarray, k: Any, out: Any) -> np.ndarray:
    """max_pool_indices for non-overlapping windows (kernel == stride, no padding).

    Each window offset is a strided slice of x. Without NaN: the maximum over the slices, then
    the first offset that holds it (torch's tie rule: a later value wins only if strictly
    greater). With NaN, one pass per
    offset in window order (torch's kernel: `val > maxval || isnan(val)`, the last NaN wins).
    """
    nd = len(k)
    sp = x.shape[-nd:]
    strides = [math.prod(sp[i + 1 :]) for i in range(nd)]
    offsets = list(_offsets(k))
    views = [
        x[(..., *(slice(off[i], off[i] + out[i] * k[i], k[i]) for i in range(nd)))]
        for off in offsets
    ]
    offs = [sum(off[i] * strides[i] for i in range(nd)) for off in offsets]
    base = np.zeros((1,) * nd, np.int64)
    for i in range(nd):
        base = base + np.arange(out[i]).reshape((-1,) + (1,) * (nd - 1 - i)) * (k[i] * strides[i])
    if x.dtype.kind == "f" and bool(np.isnan(x).any()):
        idx = np.empty(views[0].shape, np.int64)
        best = views[0].copy()
        idx[...] = offs[0]
        for v, off in zip(views[1:], offs[1:], strict=True):
            upd = (v > best) | np.isnan(v)
            np.copyto(best, v, where=upd)
            np.copyto(idx, off, where=upd)
    else:
        m = views[0]
        for v in views[1:]:
            m = np.maximum(m, v)
        # the first offset holding the maximum, as the number of offsets before it that miss it
        # (counted in uint8, then looked up): 2.6x faster than a masked copy per offset
        code = np.zeros(m.shape, np.uint8 if len(offs) <= 256 else np.int64)
        missing = np.ones(m.shape, np.bool_)
        for v in views[:-1]:
            np.logical_and(missing, v != m, out=missing)
            code += missing
        idx = np.asarray(offs, np.int64).take(code)
    idx += base
    return idx


def pool_out_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    num = n + 2 * p - d * (k - 1) - 1
    o = (-(-num // s) if ceil_mode else num // s) + 1
    if ceil_mode and (o - 1) * s >= n + p:
        o -= 1
    return o


@_f16  # torch sums a float16 window in float32 and rounds once
def _avg_pool_fwd(
    self: np.ndarray, div: np.ndarray, k: Any, s: Any, p: Any, out: Any
) -> np.ndarray:
    nd = len(k)
    sp = self.shape[-nd:]
    need = [(out[i] - 1) * s[i] + k[i] for i in range(nd)]
    pad = [(0, 0)] * (self.ndim - nd) + [(p[i], max(need[i] - sp[i] - p[i], 0)) for i in range(nd)]
    win = _np_windows(np.pad(self, pad), k, (1,) * nd, s, out)
    # as torch's kernel: each window summed in order, then divided, in the dtype
    every = (slice(None),) * nd
    offs = list(_offsets(k))
    acc = win[(..., *offs[0], *every)].copy()
    for off in offs[1:]:
        acc += win[(..., *off, *every)]
    return (acc / div.astype(acc.dtype)).astype(self.dtype, copy=False)


def _avg_pool_bw_fwd(
    grad_output: np.ndarray, div: np.ndarray, k: Any, s: Any, p: Any, size: Any
) -> np.ndarray:
    nd = len(k)
    o = grad_output.shape[-nd:]
    # each output's share, divided in float32 at least and rounded to the dtype
    g = (grad_output / div.astype(np.promote_types(grad_output.dtype, np.float32))).astype(
        grad_output.dtype, copy=False
    )
    sp = size[-nd:]
    full = [max((o[i] - 1) * s[i] + k[i], sp[i] + p[i]) + p[i] for i in range(nd)]
    out = np.zeros((*grad_output.shape[:-nd], *full), grad_output.dtype)
    # torch's kernel adds each output's share into its window, outputs in order, rounding
    # each sum to the dtype: an input position gets its shares last kernel offset first
    for off in reversed(list(_offsets(k))):
        out[(..., *(slice(a, a + s[i] * (o[i] - 1) + 1, s[i]) for i, a in enumerate(off)))] += g
    crop = tuple(slice(p[i], p[i] + sp[i]) for i in range(nd))
    return out[(..., *crop)].astype(grad_output.dtype, copy=False)


def _avg_pool_ops(nd: int) -> tuple[Any, Any]:
    """avg_pool{nd}d and its backward, each the other's adjoint."""
    name = f"avg_pool{nd}d"
    node = f"AvgPool{nd}DBackward0"
    # torch's avg_pool_backward has an edge to self (its derivative: zeros_like(self))
    bw = defop(
        name + "_backward",
        node.replace("Backward0", "BackwardBackward0"),
        lambda grad_output, self, div, k, s, p: _avg_pool_bw_fwd(
            grad_output, div, k, s, p, self.shape
        ),
        dtype="keep",
        grad_output=lambda grad, div, k, s, p: fw(grad, div, k, s, p, div.shape),
        self=lambda self: zeros_like(self),
        jvp=LINEAR,
    )
    fw = defop(
        name,
        node,
        _avg_pool_fwd,
        dtype="keep",
        self=lambda grad, self, div, k, s, p: bw(grad, self, div, k, s, p),
        jvp=LINEAR,
    )
    return fw, bw


avg_pool2d_op, avg_pool2d_backward_op = _avg_pool_ops(2)
avg_pool3d_op, avg_pool3d_backward_op = _avg_pool_ops(3)


def avg_pool_divisor_nd(
    sizes: Any, k: Any, s: Any, p: Any, out: Any, count_include_pad: bool, divisor_override: Any
) -> np.ndarray:
    """torch's per-window divisor, an array of the output's spatial shape."""
    if divisor_override:
        return np.full(tuple(out), float(divisor_override))
    r = np.ones(())
    for i, n in enumerate(sizes):
        start = np.arange(out[i]) * s[i] - p[i]
        end = np.minimum(start + k[i], n + p[i])
        size = end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0)
        r = np.multiply.outer(r, size)
    return r.astype(np.float64)


def avg_pool_divisor(
    H: int, W: int, k: Any, s: Any, p: Any, out: Any, count_include_pad: bool, divisor_override: Any
) -> np.ndarray:
    return avg_pool_divisor_nd((H, W), k, s, p, out, count_include_pad, divisor_override)


def adaptive_matrix(n: int, o: int) -> np.ndarray:
    """(o, n) averaging matrix of torch's adaptive windows [floor(i*n/o), ceil((i+1)*n/o))."""
    m = np.zeros((o, n))
    for i in range(o):
        a = (i * n) // o
        b = -(-((i + 1) * n) // o)
        m[i, a:b] = 1.0 / (b - a)
    return m


def _adaptive_avg_fwd(self: np.ndarray, mh: np.ndarray, mw: np.ndarray) -> np.ndarray:
    return np.matmul(np.matmul(mh, self), mw.T).astype(self.dtype, copy=False)


def _adaptive_avg_bw_fwd(grad_output: np.ndarray, mh: np.ndarray, mw: np.ndarray) -> np.ndarray:
    dt = grad_output.dtype
    return np.matmul(np.matmul(mh.T.astype(dt), grad_output), mw.astype(dt))


# torch's _adaptive_avg_pool{2,3}d_backward(grad_output, self): an edge to self too (its
# derivative: zeros_like(self))
_adaptive2_bw = defop(
    "_adaptive_avg_pool2d_backward",
    "AdaptiveAvgPool2DBackwardBackward0",
    lambda grad_output, self, mh, mw: _adaptive_avg_bw_fwd(grad_output, mh, mw),
    dtype="keep",
    grad_output=lambda grad, mh, mw: adaptive_avg_pool2d_op(grad, mh, mw),
    self=lambda self: zeros_like(self),
    jvp=LINEAR,
)
adaptive_avg_pool2d_op = defop(
    "_adaptive_avg_pool2d",
    "AdaptiveAvgPool2DBackward0",
    _adaptive_avg_fwd,
    dtype="keep",
    self=lambda grad, self, mh, mw: _adaptive2_bw(grad, self, mh, mw),
    jvp=LINEAR,
)
# torch's adaptive average pools save self alone; these hold their averaging matrices too
_SAVED_HIDDEN["AdaptiveAvgPool2DBackward0"] = frozenset(("mh", "mw"))
_SAVED_HIDDEN["AdaptiveAvgPool3DBackward0"] = frozenset(("md", "mh", "mw"))
# avg_pool2d's node holds its plan (k, s, p, div); F.avg_pool2d shows torch's arguments
_SAVED_HIDDEN["AvgPool2DBackward0"] = frozenset(("k", "s", "p", "div"))


def _adaptive3_fwd(self: np.ndarray, md: np.ndarray, mh: np.ndarray, mw: np.ndarray):
    return np.einsum("...dhw,ad,bh,cw->...abc", self, md, mh, mw).astype(self.dtype, copy=False)


def _adaptive3_bw_fwd(grad_output: np.ndarray, md: np.ndarray, mh: np.ndarray, mw: np.ndarray):
    return _adaptive3_fwd(grad_output, md.T, mh.T, mw.T)


_adaptive3_bw = defop(
    "_adaptive_avg_pool3d_backward",
    "AdaptiveAvgPool3DBackwardBackward0",
    lambda grad_output, self, md, mh, mw: _adaptive3_bw_fwd(grad_output, md, mh, mw),
    dtype="keep",
    grad_output=lambda grad, md, mh, mw: adaptive_avg_pool3d_op(grad, md, mh, mw),
    self=lambda self: zeros_like(self),
    jvp=LINEAR,
)
adaptive_avg_pool3d_op = defop(
    "_adaptive_avg_pool3d",
    "AdaptiveAvgPool3DBackward0",
    _adaptive3_fwd,
    dtype="keep",
    self=lambda grad, self, md, mh, mw: _adaptive3_bw(grad, self, md, mh, mw),
    jvp=LINEAR,
)


# --- normalization ------------------------------------------------------------------------


def _stats(x: Tensor, axes: tuple[int, ...], eps: float) -> tuple[Tensor, Tensor]:
    mu = x.mean(axes, keepdim=True)
    xc = x - mu
    rstd = ((xc * xc).mean(axes, keepdim=True) + eps) ** -0.5
    return xc * rstd, rstd


def _np_normalize(x: np.ndarray, axes: tuple[int, ...], eps: float) -> np.ndarray:
    mu = x.mean(axis=axes, keepdims=True)
    xc = x - mu
    sq = xc * xc
    var = sq.mean(axis=axes, keepdims=True)
    s = np.sqrt(var + eps)
    if type(xc) is np.ndarray and xc.dtype == np.result_type(xc, s) and xc.shape == sq.shape:
        np.divide(xc, s, out=xc)  # xc is ours: the same quotient, one array fewer
        return xc
    return xc / s


def _norm_input_grad(g: Tensor, xhat: Tensor, rstd: Tensor, axes: tuple[int, ...]) -> Tensor:
    return rstd * (g - g.mean(axes, keepdim=True) - xhat * (g * xhat).mean(axes, keepdim=True))


# Raw (array) backward formulas of layer and group norm (Note [Raw backward]): _stats and
# _norm_input_grad above, operation for operation on arrays (the same numpy calls as the Tensor
# ops' forwards, so the same bits), with fresh temporaries updated in place.
def _np_mean(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    return np.asarray(np.mean(x, axis=axes, keepdims=True), x.dtype)


def _np_stats(x: np.ndarray, axes: tuple[int, ...], eps: Any) -> tuple[np.ndarray, np.ndarray]:
    xc = x - _np_mean(x, axes)
    sq = xc * xc
    v = _np_mean(sq, axes)
    v += eps
    rstd = P._np_pow_scalar(v, -0.5)
    xc *= rstd
    return xc, rstd


def _np_norm_input_grad(
    g: np.ndarray, xhat: np.ndarray, rstd: np.ndarray, axes: tuple[int, ...]
) -> np.ndarray:
    gx = g * xhat
    m2 = _np_mean(gx, axes)
    np.multiply(xhat, m2, out=gx)
    d = g - _np_mean(g, axes)
    d -= gx
    np.multiply(rstd, d, out=d)
    return d


def _np_ln_input(grad, input, normalized_shape, weight, eps):
    if input.dtype == np.float16:  # torch's kernel accumulates float16 in float32
        w = None if weight is None else weight.astype(np.float32)
        g = _np_ln_input(
            grad.astype(np.float32), input.astype(np.float32), normalized_shape, w, eps
        )
        return g.astype(np.float16)
    axes = _ln_axes(input, normalized_shape)
    xhat, rstd = _np_stats(input, axes, eps)
    g = grad * weight if weight is not None else grad
    return _np_norm_input_grad(g, xhat, rstd, axes)


def _np_ln_weight(grad, input, normalized_shape, eps):
    if input.dtype == np.float16:  # in float32; the engine casts to the weight's dtype
        return _np_ln_weight(
            grad.astype(np.float32), input.astype(np.float32), normalized_shape, eps
        )
    axes = _ln_axes(input, normalized_shape)
    xhat, _ = _np_stats(input, axes, eps)
    lead = tuple(range(input.ndim - len(axes)))
    xhat *= grad
    return np.asarray(np.sum(xhat, axis=lead)) if lead else xhat


def _np_sum_lead(grad: np.ndarray, k: int) -> np.ndarray:
    lead = tuple(range(grad.ndim - k))
    return np.asarray(np.sum(grad, axis=lead)) if lead else grad


# Note [Norm tangents]
# torch's layer_norm_jvp, batch_norm_jvp and group_norm_jvp read the mean and rstd saved by the
# forward (outputs 1 and 2 of native_*_norm). Layer and batch norm's backward drops the gradients
# of those outputs, so their tangents depend on the input only through `input - mean` (the rules
# hold the statistics as constants); group norm's backward takes them, so its statistics stay
# differentiable. A missing input tangent is zeros, as torch's efficient zero tensor: the tangent
# still reads the input and weight, which get zero gradients rather than None.


def _const_stats(x: np.ndarray, axes: tuple[int, ...], eps: float) -> tuple[Tensor, Tensor]:
    """The mean and rstd over `axes` (keepdim), as constants; see Note [Norm tangents]."""
    mu = x.mean(axis=axes, keepdims=True)
    xc = x - mu
    rstd = 1 / np.sqrt((xc * xc).mean(axis=axes, keepdims=True) + eps)
    return _make(mu.astype(x.dtype, copy=False)), _make(rstd.astype(x.dtype, copy=False))


def _normalized_t(xc: Tensor, input_t: Tensor, rstd: Tensor, axes: tuple[int, ...]) -> Tensor:
    """torch's _norm_jvp: the tangent of xc * rstd, where xc = input - mean over `axes`."""
    tc = input_t - input_t.mean(axes, keepdim=True)
    rstd_t = -(rstd**3) * (tc * xc).mean(axes, keepdim=True)
    return tc * rstd + xc * rstd_t


def _affine_t(xhat_t: Tensor, xhat: Any, weight: Any, weight_t: Any, bias_t: Any) -> Tensor:
    """torch's _affine_jvp: the tangent of xhat * weight + bias (weight and bias broadcastable).

    `xhat` is a callable giving the normalized input, called only when weight has a tangent.
    """
    t = xhat_t if weight is None else xhat_t * weight
    if weight_t is not None:
        t = t + xhat() * weight_t
    return t if bias_t is None else t + bias_t


def _ln_axes(x: Any, normalized_shape: Any) -> tuple[int, ...]:
    return tuple(range(x.ndim - len(normalized_shape), x.ndim))


def _ln_fwd(input: np.ndarray, normalized_shape: Any, weight: Any, bias: Any, eps: float):
    if input.size == 0:
        return input.copy()
    if input.dtype == np.float16:
        # torch's CPU kernel computes a float16 layer norm in float32 and rounds once
        w, b = (None if t is None else t.astype(np.float32) for t in (weight, bias))
        return _ln_fwd(input.astype(np.float32), normalized_shape, w, b, eps).astype(np.float16)
    y = _np_normalize(input, _ln_axes(input, normalized_shape), eps)
    if weight is not None:
        y = _inplace(np.multiply, y, weight)
    if bias is not None:
        y = _inplace(np.add, y, bias)
    return y.astype(input.dtype, copy=False)


def _inplace(uf: np.ufunc, y: np.ndarray, other: Any) -> np.ndarray:
    """uf(y, other), into y (a fresh array of ours) where the result fits it."""
    if (
        type(y) is np.ndarray
        and y.dtype == np.result_type(y, other)
        and y.shape == np.broadcast_shapes(y.shape, np.shape(other))
    ):
        return uf(y, other, out=y)
    return uf(y, other)


def _ln_input(
    grad: Tensor, input: Tensor, normalized_shape: Any, weight: Any, eps: float
) -> Tensor:
    axes = _ln_axes(input, normalized_shape)
    xhat, rstd = _stats(input, axes, eps)
    g = grad * weight if weight is not None else grad
    return _norm_input_grad(g, xhat, rstd, axes)


def _ln_weight(grad: Tensor, input: Tensor, normalized_shape: Any, eps: float) -> Tensor:
    axes = _ln_axes(input, normalized_shape)
    xhat, _ = _stats(input, axes, eps)
    lead = tuple(range(input.ndim - len(axes)))
    r = grad * xhat
    return r.sum(lead) if lead else r


def _ln_bias(grad: Tensor, normalized_shape: Any) -> Tensor:
    lead = tuple(range(grad.ndim - len(normalized_shape)))
    return grad.sum(lead) if lead else grad


def _ln_t(input, normalized_shape, weight, eps, input_t, weight_t, bias_t):
    # torch's layer_norm_jvp; see Note [Norm tangents]
    if input_t is None or input._data.size == 0:
        input_t = zeros_like(input)
        if input._data.size == 0:
            return input_t
    axes = _ln_axes(input, normalized_shape)
    mean, rstd = _const_stats(input._data, axes, eps)
    xc = input - mean
    xhat_t = _normalized_t(xc, input_t, rstd, axes)
    return _affine_t(xhat_t, lambda: xc * rstd, weight, weight_t, bias_t)


def _ln_hooked(args: tuple[Any, ...], saved: dict[str, Any]) -> list[Any]:
    """The mean and rstd torch's NativeLayerNormBackward0 saves (see HOOKED_EXTRA)."""
    x = args[0]._data
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    mean, rstd = _const_stats(x, _ln_axes(x, args[1]), args[4])
    return [mean, rstd]


def _bn_hooked(args: tuple[Any, ...], saved: dict[str, Any]) -> list[Any]:
    """What torch's NativeBatchNormBackward0 saves besides input and weight (see HOOKED_EXTRA):
    training, the batch's mean and invstd; in eval, the running mean and variance (shadowgrad
    holds the running invstd: the variance is recovered from it) and two empty outputs."""
    mean, invstd, training, eps = args[3], args[4], args[5], args[6]
    if training:
        return [mean, invstd]
    dt = args[0]._data.dtype
    var = (1 / (invstd.astype(np.float64) ** 2) - eps).astype(invstd.dtype)
    return [mean, var, np.empty(0, dt), np.empty(0, dt)]


def _gn_hooked(args: tuple[Any, ...], saved: dict[str, Any]) -> list[Any]:
    """The per-group mean and rstd outputs torch's NativeGroupNormBackward0 saves."""
    x = args[0]._data
    g = x.reshape(x.shape[0], args[3], -1)
    mean, rstd = _const_stats(g, (2,), args[4])
    out = [mean.reshape(x.shape[0], args[3]), rstd.reshape(x.shape[0], args[3])]
    for t in out:
        t._rg = args[0]._rg  # differentiable outputs of the node, as torch's
    return out


HOOKED_EXTRA.update(
    native_layer_norm=_ln_hooked, native_batch_norm=_bn_hooked, native_group_norm=_gn_hooked
)


# What torch's norm nodes save and show (`_saved_result1`, `_saved_running_var`, ...) where
# shadowgrad's hold something else (or nothing: the statistics are recomputed in backward),
# read lazily from what the node holds (registry._SAVED_LAZY): nothing is saved for them.
def _stat(hooked: Any, names: tuple[str, ...], k: int, output: bool = False) -> Any:
    """A reader of output `k` of hooked(saved values by `names`; "=name": a non-tensor); a
    differentiable `output` of the node (group norm's mean and rstd) reads as torch's does."""

    def read(node: Any) -> Any:
        args = [saved_array(node, n) if n[0] != "=" else node.saved_map()[n[1:]] for n in names]
        if output:
            return _make(np.asarray(hooked(args)[k]), True, node, k + 1)
        return _make(np.asarray(hooked(args)[k]))

    return read


def _ln_stats(args: list[Any]) -> list[Any]:
    x, normalized_shape, eps = args
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    mean, rstd = _const_stats(x, _ln_axes(x, normalized_shape), eps)
    return [mean._data, rstd._data]


def _gn_stats(args: list[Any]) -> list[Any]:
    x, num_groups, eps = args
    mean, rstd = _const_stats(x.reshape(x.shape[0], num_groups, -1), (2,), eps)
    return [mean._data.reshape(x.shape[0], num_groups), rstd._data.reshape(x.shape[0], -1)]


def _bn_stats(args: list[Any]) -> list[Any]:
    """save_mean and save_invstd in training (empty in eval), then the running mean and var:
    eval's (the invstd held is the running one's); none in training (not held)."""
    x, mean, invstd, training, eps = args
    if not training:
        var = (1 / (invstd.astype(np.float64) ** 2) - eps).astype(invstd.dtype)
        return [np.empty(0, x.dtype), np.empty(0, x.dtype), mean, var]
    if mean is None:  # not held when the weight needs no gradient: the batch's
        mean = x.mean(axis=_bn_axes(x)).astype(invstd.dtype)
    return [mean, invstd, None, None]


def _bn_running(k: int) -> Any:
    """Eval: the running statistic the node computed with; training: the running buffer
    F.batch_norm updated (held as `_running`), None without one."""
    read = _stat(_bn_stats, ("input", "mean", "invstd", "=training", "=eps"), k)

    def running(node: Any) -> Any:
        saved = node.saved_map()
        if not saved["training"]:
            return read(node)
        buffers = saved.get("_running")
        if buffers is None:
            return None
        saved_array(node, "input")  # freed by backward: torch's error
        return buffers[k - 2]

    return running


_LN = ("input", "=normalized_shape", "=eps")
_GN = ("input", "=num_groups", "=eps")
_BN = ("input", "mean", "invstd", "=training", "=eps")
_SAVED_LAZY.update(
    NativeLayerNormBackward0={
        "result1": _stat(_ln_stats, _LN, 0),
        "result2": _stat(_ln_stats, _LN, 1),
    },
    NativeGroupNormBackward0={
        "result1": _stat(_gn_stats, _GN, 0, True),
        "result2": _stat(_gn_stats, _GN, 1, True),
        "N": lambda node: node._in_meta[0][0][0],
        "C": lambda node: node._in_meta[0][0][1],
        "HxW": lambda node: math.prod(node._in_meta[0][0][2:]),
    },
    NativeBatchNormBackward0={
        "result1": _stat(_bn_stats, _BN, 0),
        "result2": _stat(_bn_stats, _BN, 1),
        "running_mean": _bn_running(2),
        "running_var": _bn_running(3),
    },
)
_SAVED_HIDDEN.update(
    NativeLayerNormBackward0=frozenset(("eps",)),
    NativeBatchNormBackward0=frozenset(("mean", "invstd")),
)
_SAVED_RENAMED["NativeGroupNormBackward0"] = {"group": "num_groups"}


def _ln_fused(k: int) -> Any:
    """Formula k of NativeLayerNormBackward0: under grad mode, output k of one
    NativeLayerNormBackwardBackward0 node (Note [Fused backward nodes] in nn_fused.py)."""

    def formula(grad, input, normalized_shape, weight, bias, eps):
        if _grad_mode.STATE.grad:
            from .nn_fused import ln_grads

            return ln_grads(k, grad, input, normalized_shape, weight, bias, eps)
        if k == 0:
            return _ln_input(grad, input, normalized_shape, weight, eps)
        if k == 1:
            return _ln_weight(grad, input, normalized_shape, eps)
        return _ln_bias(grad, normalized_shape)

    return formula


layer_norm_op = defop(
    "native_layer_norm",
    "NativeLayerNormBackward0",
    _ln_fwd,
    dtype="keep",
    input=_ln_fused(0),
    weight=_ln_fused(1),
    bias=_ln_fused(2),
    raw={
        "input": _np_ln_input,
        "weight": _np_ln_weight,
        "bias": lambda grad, normalized_shape: _np_sum_lead(
            grad.astype(np.float32) if grad.dtype == np.float16 else grad, len(normalized_shape)
        ),
    },
    jvp=_ln_t,
)


def _ch_shape(x: Any) -> tuple[int, ...]:
    return (1, -1) + (1,) * (x.ndim - 2)


def _bn_axes(x: Any) -> tuple[int, ...]:
    return (0, *range(2, x.ndim))


def _bn_fwd(input, weight, bias, mean, invstd, training, eps):
    y = (input - mean.reshape(_ch_shape(input))) * invstd.reshape(_ch_shape(input))
    if weight is not None:
        y = y * weight.reshape(_ch_shape(input))
    if bias is not None:
        y = y + bias.reshape(_ch_shape(input))
    return y.astype(input.dtype, copy=False)


def _bn_input(grad, input, weight, invstd, training, eps):
    g = grad * weight.reshape(_ch_shape(input)) if weight is not None else grad
    if not training:
        return g * _make(invstd.reshape(_ch_shape(input)).astype(input._data.dtype))
    axes = _bn_axes(input)
    xhat, rstd = _stats(input, axes, eps)
    return _norm_input_grad(g, xhat, rstd, axes)


def _bn_weight(grad, input, mean, invstd, training, eps):
    if training:
        xhat, _ = _stats(input, _bn_axes(input), eps)
    else:
        sh = _ch_shape(input)
        dt = input._data.dtype
        xhat = (input - _make(mean.reshape(sh).astype(dt))) * _make(invstd.reshape(sh).astype(dt))
    return (grad * xhat).sum(_bn_axes(input))


def _bn_t(input, weight, mean, invstd, training, eps, input_t, weight_t, bias_t):
    # torch's batch_norm_jvp: `mean` and `invstd` are the batch's statistics when training (the
    # saved ones, see Note [Norm tangents]), the running ones in eval; constants either way
    sh = _ch_shape(input)
    dt = input._data.dtype
    mean_p = _make(np.asarray(mean).reshape(sh).astype(dt, copy=False))
    invstd_p = _make(np.asarray(invstd).reshape(sh).astype(dt, copy=False))
    if input_t is None:
        input_t = zeros_like(input)
    xc = input - mean_p
    if training:
        xhat_t = _normalized_t(xc, input_t, invstd_p, _bn_axes(input))
    else:
        xhat_t = input_t * invstd_p
        if weight is not None and weight_t is None:
            # torch's zero weight tangent multiplies xhat: the input gets a zero gradient
            weight_t = zeros_like(weight)
    return _affine_t(
        xhat_t,
        lambda: xc * invstd_p,
        None if weight is None else weight.reshape(sh),
        None if weight_t is None else weight_t.reshape(sh),
        None if bias_t is None else bias_t.reshape(sh),
    )


def _bn_mixed(grad: Tensor, stat: Any) -> bool:
    """torch's mixed-dtype kernel: a float16 input (and gradient) with float32 parameters and
    statistics (`stat`, the mean or invstd the forward used)."""
    return grad._data.dtype == np.float16 and np.asarray(stat).dtype == np.float32


def _bn_fused(k: int) -> Any:
    """Formula k of NativeBatchNormBackward0: under grad mode, output k of one
    NativeBatchNormBackwardBackward0 node (Note [Fused backward nodes] in nn_fused.py)."""

    def formula(grad, input, weight, mean, invstd, training, eps):
        mixed = _bn_mixed(grad, invstd)
        if _grad_mode.STATE.grad and not mixed:
            from .nn_fused import bn_grads

            return bn_grads(k, grad, input, weight, mean, invstd, training, eps)
        if mixed:
            grad, input = grad.float(), input.float()
        if k == 0:
            r = _bn_input(grad, input, weight, invstd, training, eps)
            return r.half() if mixed else r
        if k == 1:
            return _bn_weight(grad, input, mean, invstd, training, eps)
        return grad.sum(_bn_axes(grad))

    return formula


# "keep": the caller passes one dtype throughout, except in torch's mixed-dtype case (a float16
# input with float32 parameters and statistics), computed in float32 with a float16 result
batch_norm_op = defop(
    "native_batch_norm",
    "NativeBatchNormBackward0",
    _bn_fwd,
    dtype="keep",
    input=_bn_fused(0),
    weight=_bn_fused(1),
    bias=_bn_fused(2),
    jvp=_bn_t,
)


def _gn_fwd(input, weight, bias, num_groups, eps):
    n = input.shape[0]
    if input.size == 0:
        return input.copy()
    y = _np_normalize(input.reshape(n, num_groups, -1), (2,), eps).reshape(input.shape)
    if weight is not None:
        y = y * weight.reshape(_ch_shape(input))
    if bias is not None:
        y = y + bias.reshape(_ch_shape(input))
    return y.astype(input.dtype, copy=False)


def _gn_xhat(input: Tensor, num_groups: int, eps: float) -> tuple[Tensor, Tensor]:
    return _stats(input.reshape(input.shape[0], num_groups, -1), (2,), eps)


def _gn_input(grad, input, weight, num_groups, eps):
    g = grad * weight.reshape(_ch_shape(input)) if weight is not None else grad
    xhat, rstd = _gn_xhat(input, num_groups, eps)
    g = g.reshape(xhat.shape)
    return _norm_input_grad(g, xhat, rstd, (2,)).reshape(input.shape)


def _gn_weight(grad, input, num_groups, eps):
    xhat, _ = _gn_xhat(input, num_groups, eps)
    return (grad * xhat.reshape(input.shape)).sum(_bn_axes(input))


def _gn_t(input, weight, num_groups, eps, input_t, weight_t, bias_t):
    # torch's group_norm_jvp, a training batch norm over (N, groups, -1), with differentiable
    # statistics (see Note [Norm tangents])
    if input_t is None or input._data.size == 0:
        input_t = zeros_like(input)
        if input._data.size == 0:
            return input_t
    shape = input.shape
    x = input.reshape(shape[0], num_groups, -1)
    xc = x - x.mean(2, keepdim=True)
    rstd = ((xc * xc).mean(2, keepdim=True) + eps) ** -0.5
    xhat_t = _normalized_t(xc, input_t.reshape(x.shape), rstd, (2,)).reshape(shape)
    sh = _ch_shape(input)
    return _affine_t(
        xhat_t,
        lambda: (xc * rstd).reshape(shape),
        None if weight is None else weight.reshape(sh),
        None if weight_t is None else weight_t.reshape(sh),
        None if bias_t is None else bias_t.reshape(sh),
    )


def _np_gn_xhat(input: np.ndarray, num_groups: int, eps: Any):
    return _np_stats(input.reshape(input.shape[0], num_groups, -1), (2,), eps)


def _np_gn_input(grad, input, weight, num_groups, eps):
    g = grad * weight.reshape(_ch_shape(input)) if weight is not None else grad
    xhat, rstd = _np_gn_xhat(input, num_groups, eps)
    g = g.reshape(xhat.shape)
    return _np_norm_input_grad(g, xhat, rstd, (2,)).reshape(input.shape)


def _np_gn_weight(grad, input, num_groups, eps):
    xhat, _ = _np_gn_xhat(input, num_groups, eps)
    xhat = xhat.reshape(input.shape)
    xhat *= grad
    return np.asarray(np.sum(xhat, axis=_bn_axes(input)))


# Note [Group norm under create_graph]
# torch's NativeGroupNormBackward0 runs infinitely_differentiable_native_group_norm_backward
# when grad mode is on: the three gradients composed from the per-group sums of grad and
# grad * x and the forward's mean and rstd OUTPUTS, whose own gradients go back into the
# forward node (var_mean_backward). shadowgrad's node has one output: the statistics come from
# a node of their own with torch's name and formulas (_gn_stats_op), made first so that it
# runs after the formulas' nodes, as torch's forward node does.


def _np_gn_stats_fwd(input, weight, bias, num_groups, eps):
    x = input.astype(np.float32) if input.dtype == np.float16 else input
    n = x.shape[0]
    g = x.reshape(n, num_groups, math.prod(x.shape[1:]) // num_groups)
    mean = g.mean(axis=2)
    xc = g - mean[..., None]
    rstd = 1 / np.sqrt((xc * xc).mean(axis=2) + eps)
    # outputs 1 and 2, as the forward's (its output 0 is not needed here)
    dt = input.dtype
    return np.empty(0, dt), mean.astype(dt, copy=False), rstd.astype(dt, copy=False)


def _gn_stats_input(grads, input, num_groups, result2):
    # torch's branch for the mean and rstd outputs' gradients (grad_output undefined):
    # var_mean_backward(dvar, dmean, X, {2, 3}, 0, keepdim=True), dvar = -0.5 * rstd^3 * drstd
    dmean, drstd = grads[1], grads[2]
    n, g = input.shape[0], num_groups
    x = input.reshape(n, g, input.shape[1] // g, math.prod(input.shape[2:]))
    rstd = result2.reshape(n, g, 1, 1)
    rstd_cube = rstd * rstd * rstd
    dvar = P._mul_scalar(rstd_cube, -0.5) * drstd.view(n, g, 1, 1)
    count = x.shape[2] * x.shape[3]
    gvar = P._mul_scalar(dvar, 2.0 / count) * (x - x.mean((2, 3), keepdim=True))
    gmean = _div_scalar(dmean.view(n, g, 1, 1).expand(*x.shape), count)
    return (gvar + gmean).reshape_as(input)


_gn_stats_op = defop(
    "native_group_norm",
    "NativeGroupNormBackward0",
    _np_gn_stats_fwd,
    dtype="keep",
    n_outputs=3,
    diff_outputs=(1, 2),
    input=_gn_stats_input,
    weight=lambda grads: None,
    bias=lambda grads: None,
)


def _gn_infinitely_differentiable(grad, input, weight, num_groups, eps):
    """torch's infinitely_differentiable_native_group_norm_backward for grad_output alone."""
    # (the node reads no bias: torch's saves none)
    _, mean, rstd = _gn_stats_op(input, weight, None, num_groups, eps)
    n, c = input.shape[:2]
    g = num_groups
    d = c // g
    hxw = math.prod(input.shape[2:])
    s = 1.0 / (d * hxw)
    x = input.reshape(n, g, d, hxw)
    mean_t = mean.reshape(n, g, 1, 1)
    rstd_t = rstd.reshape(n, g, 1, 1)
    dy = grad.reshape(n, g, d, hxw)
    ds = (dy * x).sum(3).unsqueeze_(-1)
    db = dy.sum(3).unsqueeze_(-1)
    gamma = None if weight is None else weight.reshape(1, g, d, 1)
    rstd_cube = rstd_t * rstd_t * rstd_t
    a = rstd_t if gamma is None else rstd_t * gamma
    b = (ds.sum(2) if gamma is None else (ds * gamma).sum(2)).unsqueeze_(-2)
    cc = (db.sum(2) if gamma is None else (db * gamma).sum(2)).unsqueeze_(-2)
    b = P._mul_scalar((cc * mean_t - b) * rstd_cube, s)
    cc = -b * mean_t - P._mul_scalar(cc * rstd_t, s)
    dx = (a * dy + b * x + cc).reshape_as(input)
    if weight is None:
        return dx, None, None
    dgamma = ((ds - db * mean_t) * rstd_t).sum(0).reshape_as(weight)
    dbeta = db.sum(0).reshape_as(weight)
    return dx, dgamma, dbeta


def _gn_grads(k: int) -> Any:
    def f(grad, input, weight, num_groups, eps):
        from .nn_fused import _key, _shared_by, _versions

        if grad._data.dtype == np.float16:
            return (
                _gn_input(grad, input, weight, num_groups, eps),
                _gn_weight(grad, input, num_groups, eps),
                grad.sum(_bn_axes(grad)),
            )[k]
        return _shared_by(
            (grad, *_key(grad, input, weight)),
            (num_groups, eps, _versions(grad, input, weight)),
            k,
            lambda: _gn_infinitely_differentiable(grad, input, weight, num_groups, eps),
        )

    return f


group_norm_op = defop(
    "native_group_norm",
    "NativeGroupNormBackward0",
    _gn_fwd,
    input=_gn_grads(0),
    weight=_gn_grads(1),
    bias=_gn_grads(2),
    raw={
        "input": _np_gn_input,
        "weight": _np_gn_weight,
        "bias": lambda grad: np.asarray(np.sum(grad, axis=_bn_axes(grad))),
    },
    jvp=_gn_t,
)


# --- embedding ----------------------------------------------------------------------------


def _embedding_bw_fwd(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    d = grad_output.shape[-1]
    idx = indices.ravel()
    g = grad_output.reshape(-1, d)
    out = np.zeros((num_weights, d), grad_output.dtype)
    add_at(out, idx, g)  # np.add.at's bits, in rounds (Note [Accumulation in rounds])
    if scale_grad_by_freq:
        counts = np.bincount(idx, minlength=num_weights)
        out /= np.maximum(counts, 1).reshape(-1, 1)
    if padding_idx is not None and padding_idx >= 0:
        out[padding_idx] = 0
    return out


def _embedding_bw_adjoint(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """torch's embedding_dense_double_backward: the grad's rows at the indices, the padding
    index's zeroed in place, viewed as indices' shape + (-1,). Not scaled by frequency: torch
    leaves that to the first backward."""
    g = grad.index_select(0, indices.reshape(-1))
    if padding_idx is not None and padding_idx >= 0:
        g = g.masked_fill_((indices == padding_idx).reshape(-1, 1), 0)
    return g.view(*indices.shape, -1)


embedding_backward_op = defop(
    "embedding_dense_backward",
    "EmbeddingDenseBackwardBackward0",
    _embedding_bw_fwd,
    dtype="keep",
    nondiff=("indices",),
    grad_output=_embedding_bw_adjoint,
    jvp=LINEAR,
)
# embedding(weight, indices, ...): torch's argument order; the rest is saved for the backward
embedding_op = defop(
    "embedding",
    "EmbeddingBackward0",
    lambda weight, indices, num_weights, padding_idx, scale_grad_by_freq: weight[indices],
    dtype="keep",
    nondiff=("indices",),
    weight=lambda grad, indices, num_weights, padding_idx, scale_grad_by_freq: (
        embedding_backward_op(grad, indices, num_weights, padding_idx, scale_grad_by_freq)
    ),
    jvp=LINEAR,
)


_SAVED_RENAMED["EmbeddingBackward0"] = {"weight_sym_argsize_0": "num_weights"}
_SAVED_LAZY["EmbeddingBackward0"] = {"sparse": lambda node: False}  # a dense gradient


# --- padding ------------------------------------------------------------------------------


def _np_constant_pad(self: np.ndarray, pad: Any, value: Any) -> np.ndarray:
    k = len(pad) // 2
    sl = [slice(None)] * self.ndim
    widths = [(0, 0)] * self.ndim
    for i in range(k):
        ax = self.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        n = self.shape[ax]
        sl[ax] = slice(max(-lo, 0), n - max(-hi, 0))
        widths[ax] = (max(lo, 0), max(hi, 0))
    x = self[tuple(sl)]
    return np.pad(x, widths, constant_values=value)


constant_pad_op = defop(
    "constant_pad_nd",
    "ConstantPadNdBackward0",
    _np_constant_pad,
    dtype="keep",
    # the adjoint of padding is cropping: constant_pad_nd with the negated pads
    self=lambda grad, pad: constant_pad_op(grad, tuple(-p for p in pad), 0),
    jvp=lambda pad, self_t: constant_pad_op(self_t, pad, 0),
    complex=True,
)


def _pad_index(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    i = np.arange(-lo, n + hi)
    if mode == "replicate":
        return np.clip(i, 0, n - 1)
    i = np.abs(i)
    return np.where(i >= n, 2 * (n - 1) - i, i)


def _index_pad_fwd(self: np.ndarray, idx: Any) -> np.ndarray:
    return self[(Ellipsis, *np.ix_(*idx))]


# Note [Padding backward by slices]
# The backward of reflect/replicate padding adds each padded position's gradient into the
# input position it read: np.add.at over the index grid adds them one element at a time, in
# row-major order of the output (~2 ms for 16x16x20x20). The same sums in the same order by
# slices: in each padded dim, output position o is the r-th reader of its input position (its
# rank r); for each combination of ranks, taken in lexicographic order, every input position
# gets at most one gradient, from runs of outputs that read runs of inputs (step +1 or -1).
# So each input position receives its gradients in row-major order of their outputs, as
# add.at adds them (bit for bit), with a few strided slice adds instead.
_PAD_RUNS: dict[tuple[int, ...], list[list[tuple[slice, slice]]]] = {}


def _pad_runs(idx: tuple[int, ...]) -> list[list[tuple[slice, slice]]]:
    """Per rank, (output slice, input slice) runs of the padded dim's index `idx`."""
    runs = _PAD_RUNS.get(idx)
    if runs is not None:
        return runs
    count: dict[int, int] = {}
    by_rank: list[list[int]] = []
    for o, t in enumerate(idx):
        r = count.get(t, 0)
        count[t] = r + 1
        if r == len(by_rank):
            by_rank.append([])
        by_rank[r].append(o)
    runs = []
    for outs in by_rank:
        rr = []
        i = 0
        while i < len(outs):
            j, step = i + 1, 0
            while j < len(outs) and outs[j] == outs[j - 1] + 1:
                s = idx[outs[j]] - idx[outs[j - 1]]
                if s not in (1, -1) or step not in (0, s):
                    break
                step = s
                j += 1
            t0, t1, step = idx[outs[i]], idx[outs[j - 1]], step or 1
            stop = t1 + step
            rr.append(
                (slice(outs[i], outs[j - 1] + 1), slice(t0, stop if stop >= 0 else None, step))
            )
            i = j
        runs.append(rr)
    if len(_PAD_RUNS) < 256:
        _PAD_RUNS[idx] = runs
    return runs


def _index_pad_bw_fwd(grad_output: np.ndarray, idx: Any, self_sym_sizes: Any) -> np.ndarray:
    out = np.zeros(self_sym_sizes, grad_output.dtype)
    runs = [_pad_runs(tuple(i.tolist())) for i in idx]
    if math.prod(sum(len(r) for r in rd) for rd in runs) > 64:
        np.add.at(out, (Ellipsis, *np.ix_(*idx)), grad_output)
        return out
    # Note [Padding backward by slices]
    for ranks in itertools.product(*[range(len(rd)) for rd in runs]):
        for pieces in itertools.product(*[rd[r] for rd, r in zip(runs, ranks, strict=True)]):
            dst = out[(Ellipsis, *(p[1] for p in pieces))]
            dst += grad_output[(Ellipsis, *(p[0] for p in pieces))]
    return out


def _pad_pair(mode: str, k: int) -> Any:
    base = {"reflect": "ReflectionPad", "replicate": "ReplicationPad"}[mode]
    aten = {"reflect": "reflection_pad", "replicate": "replication_pad"}[mode] + f"{k}d"
    # torch's *_pad*d_backward(grad_output, self, padding): an edge to self too (its
    # derivative: zeros_like(self))
    back = defop(
        aten + "_backward",
        f"{base}{k}DBackwardBackward0",
        lambda grad_output, self, idx: _index_pad_bw_fwd(grad_output, idx, self.shape),
        dtype="keep",
        grad_output=lambda grad, idx: fwd(grad, idx, None),
        self=lambda self: zeros_like(self),
        jvp=LINEAR,
        complex=True,
    )
    _SAVED_HIDDEN[f"{base}{k}DBackward0"] = frozenset(("idx", "self_sym_sizes"))  # padding: F.pad
    fwd = defop(
        aten,
        f"{base}{k}DBackward0",
        lambda self, idx, self_sym_sizes: _index_pad_fwd(self, idx),
        dtype="keep",
        self=lambda grad, self, idx, self_sym_sizes: back(grad, self, idx),
        jvp=LINEAR,
        complex=True,
    )
    return fwd


index_pad_ops = {(m, k): _pad_pair(m, k) for m in ("reflect", "replicate") for k in (1, 2, 3)}


# --- losses -------------------------------------------------------------------------------


def _reduce_np(x: np.ndarray, reduction: int) -> np.ndarray:
    if reduction == 1:
        return np.asanyarray(x.mean() if x.size else np.nan, x.dtype)
    if reduction == 2:
        return np.asanyarray(x.sum(), x.dtype)
    return x


def _reduce_grad(grad: Tensor, like: Tensor, reduction: int) -> Tensor:
    """The incoming grad of a reduced loss, spread to the elementwise loss's shape."""
    if reduction == 1:
        return grad.expand(like.shape) / max(like.numel(), 1)
    if reduction == 2:
        return grad.expand(like.shape)
    return grad


def _np_mse_bw(grad: np.ndarray, a: np.ndarray, b: np.ndarray, reduction: int) -> np.ndarray:
    """torch's mse_loss_backward on arrays: (a - b) * norm * grad, norm = 2 / numel for a mean
    (rounded to the input's dtype, as a scalar argument is) and 2 otherwise."""
    d = np.subtract(a, b)
    norm = 2.0 / max(a.size, 1) if reduction == 1 else 2.0
    d *= d.dtype.type(norm)
    d *= grad
    return d


def _loss_norm(grad: Tensor, like: Tensor, reduction: int) -> Tensor:
    """torch's *_loss_double_backward tail: a mean divides by the input's numel."""
    return _div_scalar(grad, like.numel()) if reduction == 1 else grad


def _loss_bw_grad_output(bw: Any, grad: Tensor, grad_output: Tensor, *args: Any) -> Tensor:
    """torch's *_loss_double_backward_grad_output: the loss's backward again, with grad (a
    reduced loss: with ones, times grad, summed; mse's and smooth_l1's: with grad, summed)."""
    reduction = args[2]
    if reduction == 0:
        return bw(grad, *args)
    if bw is _mse_bw or bw is _smooth_l1_bw:
        return bw(grad, *args).sum_to_size(grad_output.shape)
    return (bw(ones_like(grad_output), *args) * grad).sum()


# Note [Loss backward ops]
# torch's mse/smooth_l1/huber losses differentiate through backward kernels of their own: under
# create_graph the gradient's node is MseLossBackwardBackward0 (...), with edges to the
# incoming grad, self and target, and its own double-backward formulas.
_mse_bw = defop(
    "mse_loss_backward",
    "MseLossBackwardBackward0",
    lambda grad_output, self, target, reduction: _np_mse_bw(
        grad_output, self, target, reduction
    ).astype(self.dtype, copy=False),  # torch's kernel writes into empty_like(self)
    dtype="keep",
    grad_output=lambda grad, grad_output, self, target, reduction: _loss_bw_grad_output(
        _mse_bw, grad, grad_output, self, target, reduction
    ),
    # C++ `* 2`: mul.Scalar (MulBackward1)
    self=lambda grad, grad_output, self, reduction: _loss_norm(
        P._mul_scalar(grad * grad_output, 2), self, reduction
    ),
    target=lambda grad, grad_output, target, reduction: (
        -_loss_norm(P._mul_scalar(grad * grad_output, 2), target, reduction)
    ),
)

mse_loss_op = defop(
    "mse_loss",
    "MseLossBackward0",
    lambda self, target, reduction: _reduce_np((self - target) ** 2, reduction),
    self=lambda grad, self, target, reduction: _mse_bw(grad, self, target, reduction),
    target=lambda grad, self, target, reduction: _mse_bw(grad, target, self, reduction),
    raw={
        "self": lambda grad, self, target, reduction: _np_mse_bw(grad, self, target, reduction),
        "target": lambda grad, self, target, reduction: _np_mse_bw(grad, target, self, reduction),
    },
    jvp=LOSS,
)


def _smooth_l1_np(self, target, reduction, beta):
    d = np.abs(self - target)
    return _reduce_np(_select(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def _np_piecewise_loss_bw(
    grad: np.ndarray, a: np.ndarray, b: np.ndarray, reduction: int, bound: float, huber: bool
) -> np.ndarray:
    """torch's smooth_l1_loss_backward / huber_loss_backward kernels on arrays, x = a - b:
    -norm * grad (times delta for huber) where x <= -bound, norm * grad (times delta) where
    x >= bound, norm * x * grad (x / beta * norm * grad for smooth_l1) between."""
    x = np.subtract(a, b)
    t = x.dtype.type
    norm = t(1.0 / max(a.size, 1) if reduction == 1 else 1.0)
    ng = norm * grad
    # the orders that equal torch's vectorized kernels most often (huber: all elements;
    # smooth_l1: all with reduction='none', ~75% with a mean)
    fresh = type(x) is np.ndarray and x.dtype.kind == "f" and np.result_type(x, ng) == x.dtype
    fresh = fresh and x.shape == np.broadcast_shapes(x.shape, np.shape(ng))
    if fresh and bound > 0 and (not huber or norm == 1):
        # the inner formula clipped to [-1, 1] (x / beta) or [-delta, delta] (x): outside it
        # the same bits as +-outer (a product with +-1, or grad * delta), without a where
        if huber:
            np.clip(x, -bound, bound, out=x)
        else:
            x /= t(bound)
            np.clip(x, -1, 1, out=x)
        x *= ng
        return x
    outer = ng * t(bound) if huber else ng
    if fresh and bound > 0:
        # huber with a mean: one select, outer times sign(x) (+-1 there: the same bits as
        # +-outer) where |x| >= delta (NaN: the inner formula, as the two tests give)
        out_at = np.abs(x) >= bound
        signed = np.sign(x)
        signed *= outer
        x *= norm
        x *= grad
        return _select(out_at, signed, x)
    inner = norm * x * grad if huber else x / t(bound) * ng
    out = _select(x <= -bound, -outer, _select(x >= bound, outer, inner))
    return out.astype(x.dtype, copy=False)


def _smooth_l1_dd(grad, self, target, reduction, beta):
    # torch's smooth_l1_loss_double_backward: grad / beta inside |d| < beta, 0 for beta == 0
    if beta == 0:
        return zeros_like(grad)
    inside = (P.abs(self - target) < beta).to(grad.dtype)
    return _loss_norm(_div_scalar(grad * inside, beta), self, reduction)  # C++ `/ beta`


_smooth_l1_bw = defop(
    "smooth_l1_loss_backward",
    "SmoothL1LossBackwardBackward0",
    lambda grad_output, self, target, reduction, beta: _np_piecewise_loss_bw(
        grad_output, self, target, reduction, beta, False
    ).astype(self.dtype, copy=False),  # torch's kernel writes into empty_like(self)
    dtype="keep",
    grad_output=lambda grad, grad_output, self, target, reduction, beta: _loss_bw_grad_output(
        _smooth_l1_bw, grad, grad_output, self, target, reduction, beta
    ),
    self=lambda grad, grad_output, self, target, reduction, beta: _smooth_l1_dd(
        grad * grad_output, self, target, reduction, beta
    ),
    target=lambda grad, grad_output, self, target, reduction, beta: (
        -_smooth_l1_dd(grad * grad_output, self, target, reduction, beta)
    ),
)

smooth_l1_loss_op = defop(
    "smooth_l1_loss",
    "SmoothL1LossBackward0",
    _smooth_l1_np,
    self=lambda grad, self, target, reduction, beta: _smooth_l1_bw(
        grad, self, target, reduction, beta
    ),
    target=lambda grad, self, target, reduction, beta: _smooth_l1_bw(
        grad, target, self, reduction, beta
    ),
    raw={
        "self": lambda grad, self, target, reduction, beta: _np_piecewise_loss_bw(
            grad, self, target, reduction, beta, False
        ),
        "target": lambda grad, self, target, reduction, beta: (
            -_np_piecewise_loss_bw(grad, self, target, reduction, beta, False)
        ),
    },
    jvp=LOSS,
)


def _huber_np(self, target, reduction, delta):
    # dtype="keep": torch computes in the common dtype and writes the input's
    d = np.abs(self - target)
    out = _reduce_np(_select(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)
    return out if out.dtype == self.dtype else np.asarray(out).astype(self.dtype)


def _huber_same_dtypes(self: Any, target: Any) -> None:
    """torch's huber_loss_backward kernel takes one dtype (TensorIterator's all-same check)."""
    if self.dtype != target.dtype:
        found, expected = (D.from_numpy_dtype(np.dtype(t.dtype))._short for t in (target, self))
        raise RuntimeError(f"Found dtype {found} but expected {expected}")


def _np_huber_bw(grad, self, target, reduction, delta):
    _huber_same_dtypes(self, target)
    return _np_piecewise_loss_bw(grad, self, target, reduction, delta, True)


def _huber_dd(grad, self, target, reduction, delta):
    # torch's huber_loss_double_backward: grad inside |d| < delta
    inside = (P.abs(self - target) < delta).to(grad.dtype)
    return _loss_norm(grad * inside, self, reduction)


_huber_bw = defop(
    "huber_loss_backward",
    "HuberLossBackwardBackward0",
    lambda grad_output, self, target, reduction, delta: _np_huber_bw(
        grad_output, self, target, reduction, delta
    ),
    dtype="keep",
    grad_output=lambda grad, grad_output, self, target, reduction, delta: _loss_bw_grad_output(
        _huber_bw, grad, grad_output, self, target, reduction, delta
    ),
    self=lambda grad, grad_output, self, target, reduction, delta: _huber_dd(
        grad * grad_output, self, target, reduction, delta
    ),
    target=lambda grad, grad_output, self, target, reduction, delta: (
        -_huber_dd(grad * grad_output, self, target, reduction, delta)
    ),
)

huber_loss_op = defop(
    "huber_loss",
    "HuberLossBackward0",
    _huber_np,
    dtype="keep",
    self=lambda grad, self, target, reduction, delta: _huber_bw(
        grad, self, target, reduction, delta
    ),
    target=lambda grad, self, target, reduction, delta: _huber_bw(
        grad, target, self, reduction, delta
    ),
    raw={
        "self": _np_huber_bw,
        "target": lambda grad, self, target, reduction, delta: (
            -_np_huber_bw(grad, self, target, reduction, delta)
        ),
    },
    jvp=LOSS,
)


def _bce_np(self, target, weight, reduction):
    with np.errstate(divide="ignore", invalid="ignore"):
        l1 = np.maximum(np.log(self), -100)
        l0 = np.maximum(np.log1p(-self), -100)
    loss = -(target * l1 + (1 - target) * l0)
    if weight is not None:
        loss = loss * weight
    return _reduce_np(loss.astype(self.dtype, copy=False), reduction)


def _np_bce_bw(grad_output, self, target, weight, reduction):
    # torch's kernel: grad * (x - t) / max((1 - x) * x, 1e-12), times weight, over numel
    with np.errstate(divide="ignore", invalid="ignore"):
        den = np.maximum((1 - self) * self, self.dtype.type(1e-12))
        r = grad_output * (self - target) / den
    if weight is not None:
        r = r * weight
    if reduction == 1:
        r = r / self.dtype.type(max(self.size, 1))
    return np.asarray(r).astype(self.dtype, copy=False)


def _bce_eps_den(self: Tensor) -> Tensor:
    return P.add_scalar(self, 1e-12) * P.add_scalar((zeros_like(self) + 1) - self, 1e-12)


def _bce_dd_self(grad, grad_output, self, target, weight, reduction):
    # torch's binary_cross_entropy_double_backward
    a, b = P.add_scalar(self, 1e-12), P.add_scalar((zeros_like(self) + 1) - self, 1e-12)
    g = (self * self - 2 * self * target + target) / (a.pow(2) * b.pow(2))
    g = g * (grad * grad_output)
    if weight is not None:
        g = g * weight
    return _div_scalar(g, self.numel()) if reduction == 1 else g


def _bce_dd_grad_output(grad, self, target, weight, reduction):
    # torch's binary_cross_entropy_double_backward_grad_output
    g = (self - target) / _bce_eps_den(self) * grad
    if weight is not None:
        g = g * weight
    if reduction == 1:  # divided, then summed, as torch's
        return _div_scalar(g, self.numel()).sum()
    return g.sum() if reduction == 2 else g


def _bce_dd_target(grad, grad_output, self, weight, reduction):
    # torch's binary_cross_entropy_double_backward_target
    r = -grad * grad_output
    if weight is not None:
        r = r * weight
    # (1 - self) * self, clamped in place under no_grad: the clamp is not recorded, the
    # product is (third order flows through it), as torch's
    den = ((zeros_like(self) + 1) - self) * self
    with _grad_mode.no_grad():
        den.clamp_min_(1e-12)
    r = r / den
    return _div_scalar(r, self.numel()) if reduction == 1 else r


# binary_cross_entropy's backward is an op of its own, as in torch (Note [Loss backward ops])
_bce_bw = defop(
    "binary_cross_entropy_backward",
    "BinaryCrossEntropyBackwardBackward0",
    _np_bce_bw,
    nondiff=("weight",),
    grad_output=lambda grad, self, target, weight, reduction: _bce_dd_grad_output(
        grad, self, target, weight, reduction
    ),
    self=_bce_dd_self,
    target=_bce_dd_target,
)


def _bce_self(grad, self, target, weight, reduction):
    return _bce_bw(grad, self, target, weight, reduction)


def _bce_target(grad, self, target, weight, reduction):
    # torch's binary_cross_entropy_target_backward: -logit(self) * grad, times weight, over numel
    r = -P.logit(self) * grad
    if weight is not None:
        r = r * weight
    return _div_scalar(r, target.numel()) if reduction == 1 else r


bce_op = defop(
    "binary_cross_entropy",
    "BinaryCrossEntropyBackward0",
    _bce_np,
    nondiff=("weight",),
    self=_bce_self,
    target=_bce_target,
    jvp=LOSS,
)


def _np_logsig(x: np.ndarray) -> np.ndarray:
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def _bce_logits_np(self, target, weight, pos_weight, reduction):
    lw = 1 if pos_weight is None else (pos_weight - 1) * target + 1
    loss = (1 - target) * self - lw * _np_logsig(self)
    if weight is not None:
        loss = loss * weight
    return _reduce_np(loss.astype(self.dtype, copy=False), reduction)


def _bce_logits_self(grad, self, target, weight, pos_weight, reduction):
    # torch's binary_cross_entropy_with_logits_backward, in its order (the graph follows it)
    if pos_weight is not None:
        t = pos_weight * target
        r = (P.add_scalar(t, 1) - target) * P.sigmoid(self) - t
    else:
        r = P.sigmoid(self) - target
    r = r * grad
    if weight is not None:
        r = r * weight
    return _div_scalar(r, self.numel()) if reduction == 1 else r


def _bce_logits_target(grad, self, weight, pos_weight, reduction):
    # torch's binary_cross_entropy_with_logits_target_backward
    r = -self if pos_weight is None else logsigmoid_op(-self) - logsigmoid_op(self) * pos_weight
    r = r * grad
    if weight is not None:
        r = r * weight
    return _div_scalar(r, self.numel()) if reduction == 1 else r


bce_logits_op = defop(
    "binary_cross_entropy_with_logits",
    "BinaryCrossEntropyWithLogitsBackward0",
    _bce_logits_np,
    nondiff=("weight", "pos_weight"),
    self=_bce_logits_self,
    target=_bce_logits_target,
    jvp=LOSS,
)


_ADD = np.add.reduce
_F64 = np.float64
_ARANGES: dict[int, np.ndarray] = {}


def _arange(n: int) -> np.ndarray:
    """np.arange(n), kept for the row counts of batches (read-only: shared)."""
    a = _ARANGES.get(n)
    if a is None:
        a = np.arange(n)
        a.flags.writeable = False
        if len(_ARANGES) < 64:
            _ARANGES[n] = a
    return a


def nll_coef(
    shape: tuple[int, ...],
    target: np.ndarray,
    weight: Any,
    ignore_index: int,
    reduction: int,
    dtype: Any = _F64,
) -> np.ndarray:
    """d(loss)/d(input) for a unit grad, as an array shaped like the input (N, C, ...); the
    common case's is made in `dtype` (its entries are -1 or -1/N rounded once, as the float64
    array's cast would round them), every other in float64."""
    c = shape[1] if len(shape) >= 2 else shape[0]
    if len(shape) == 2 and weight is None and reduction and not (target == ignore_index).any():
        # the common case (see _nll_fwd): -1 (or -1/N for the mean) at each row's target
        n = shape[0]
        coef = np.zeros(shape, dtype)
        coef[_arange(n), target] = -1.0 / n if reduction == 1 else -1.0
        return coef
    t = target if len(shape) >= 2 else target.reshape(1)
    valid = t != ignore_index
    tc = np.where(valid, t, 0)
    w = np.ones(c) if weight is None else np.asarray(weight, np.float64)
    wt = w[tc] * valid
    coef = np.zeros((t.shape[0], c, *t.shape[1:]))
    np.put_along_axis(coef, tc[:, None], -wt[:, None], axis=1)
    if reduction == 1:
        total = wt.sum()
        # all targets ignored: the loss is nan (0/0) but the grad stays 0, as torch
        coef = coef / total if total else coef
    return coef.reshape(shape)


def _nll_fwd(self, target, weight, reduction, ignore_index):
    """Each target's input value picked (a gather, so another class's -inf or nan does not
    leak in), weighted, then reduced; accumulated in float64 as torch's CPU kernel does."""
    if self.size == 0:
        if self.ndim < 2:
            return np.asarray(0.0, self.dtype)
        lead = (self.shape[0], *self.shape[2:])
        if reduction == 0:
            return np.zeros(lead, self.dtype)
        return np.asarray(np.nan if reduction == 1 else 0.0, self.dtype)
    if self.ndim == 2 and weight is None and reduction and not (target == ignore_index).any():
        # the common case (a batch of rows, no class weights, nothing ignored), in fewer
        # numpy calls: the same float64 sums as below
        # 0 - sum: torch's accumulator starts at +0, so a zero loss is 0., not -0.
        total = 0.0 - _ADD(self[_arange(self.shape[0]), target], dtype=_F64)
        if reduction == 1:
            total = total / self.shape[0]
        return np.asarray(total, self.dtype)
    x, t = (self, target) if self.ndim >= 2 else (self.reshape(1, -1), target.reshape(1))
    valid = t != ignore_index
    tc = np.where(valid, t, 0)
    if x.ndim == 2:  # (N, C): fancy indexing is much faster than take_along_axis
        picked = x[np.arange(x.shape[0]), tc].astype(np.float64)
    else:
        picked = np.take_along_axis(x, np.expand_dims(tc, 1), axis=1)[:, 0].astype(np.float64)
    wt = valid.astype(np.float64)
    if weight is not None:
        wt = wt * np.asarray(weight, np.float64)[tc]
    with np.errstate(invalid="ignore"):
        per = np.where(valid, -picked * wt, 0.0)
        if reduction == 0:
            # a fresh contiguous result, whatever the target's layout (torch's kernel)
            return per.astype(self.dtype, order="C").reshape(per.shape if self.ndim >= 2 else ())
        total = per.sum() + 0.0  # (torch's sum of -0.s is 0.)
        if reduction == 1:
            total = total / wt.sum()  # nan when every target is ignored, as torch
    return np.asarray(total, self.dtype)


def _nll_self(grad, self, target, weight, reduction, ignore_index):
    if _grad_mode.STATE.grad:
        # torch's nll_loss_backward (nll_loss2d_backward for 4-d inputs): one node, edges to
        # the grad and self, whose double backward is nll_loss of the grad's gradient
        bw = _nll_backward[self.ndim == 4]
        return bw(grad, self, target, weight, reduction, ignore_index)
    w = None if weight is None else weight._data
    coef = nll_coef(tuple(self.shape), target._data, w, ignore_index, reduction)
    coef = _make(coef.astype(self._data.dtype))
    if reduction == 0 and self.ndim >= 2:
        grad = grad.unsqueeze(1)
    return coef * grad


def _nll_bw_fwd(grad_output, self, target, weight, reduction, ignore_index):
    g = _nll_self_raw(grad_output, self, target, weight, reduction, ignore_index)
    return np.array(np.broadcast_to(g, self.shape), dtype=self.dtype)


def _nll_bw_op(name: str, node: str) -> Any:
    return defop(
        name,
        node,
        _nll_bw_fwd,
        dtype="keep",
        nondiff=("target", "weight"),
        # linear in grad_output; self gives only the shape and dtype
        jvp=LINEAR,
        grad_output=lambda grad, target, weight, reduction, ignore_index: _nll_ops[grad.ndim == 4](
            grad, target, weight, reduction, ignore_index
        ),
        self=lambda grad: zeros_like(grad),
    )


_nll_backward = (
    _nll_bw_op("nll_loss_backward", "NllLossBackwardBackward0"),
    _nll_bw_op("nll_loss2d_backward", "NllLoss2DBackwardBackward0"),
)


def _nll_self_raw(grad, self, target, weight, reduction, ignore_index):
    coef = nll_coef(self.shape, target, weight, ignore_index, reduction, self.dtype)
    if coef.dtype != self.dtype:
        coef = coef.astype(self.dtype)
    if reduction == 0 and self.ndim >= 2:
        grad = np.expand_dims(grad, 1)
    elif grad.ndim == 0 and grad.dtype == coef.dtype and grad == 1:
        return coef  # a unit gradient (loss.backward()): coef * 1 is coef, bit for bit
    return coef * grad


def _nll_hooked(args: tuple[Any, ...], saved: dict[str, Any]) -> list[Any]:
    """The 0-d total_weight output torch's NllLossBackward0 saves (see HOOKED_EXTRA): the
    summed weight of the targets not ignored."""
    x, target, weight, _, ignore_index = args
    t = getattr(target, "_data", target)
    valid = np.asarray(t) != ignore_index
    w = getattr(weight, "_data", weight)
    if w is None:
        total = valid.sum()
    else:
        total = np.where(valid, np.asarray(w)[np.where(valid, t, 0)], 0).sum()
    return [np.asarray(total, x._data.dtype)]


HOOKED_EXTRA.update(nll_loss=_nll_hooked, nll_loss2d=_nll_hooked)


nll_loss_op = defop(
    "nll_loss",
    "NllLossBackward0",
    _nll_fwd,
    contiguous=True,
    dtype="keep",
    nondiff=("target", "weight"),
    self=_nll_self,
    raw={"self": _nll_self_raw},
    jvp=LINEAR,
)
nll_loss2d_op = defop(
    "nll_loss2d",
    "NllLoss2DBackward0",
    _nll_fwd,
    dtype="keep",
    nondiff=("target", "weight"),
    self=_nll_self,
    jvp=LINEAR,
)


def _nll_total_weight(node: Any) -> Tensor:
    """torch's nll_loss total_weight output, which its node saves: the summed weight of the
    targets not ignored (each weighs 1 without a weight), 0 for reduction='none'."""
    saved = node.saved_map()
    self, target = saved_array(node, "self"), saved_array(node, "target")
    weight = saved_array(node, "weight")
    if saved["reduction"] == 0:
        return _make(np.zeros((), self.dtype))
    keep = target != saved["ignore_index"]
    if weight is None:
        total = np.count_nonzero(keep)
    else:
        total = np.sum(weight.astype(np.float64)[np.where(keep, target, 0)] * keep)
    return _make(np.asarray(total, self.dtype))


_nll_ops = (nll_loss_op, nll_loss2d_op)

_SAVED_LAZY["NllLossBackward0"] = _SAVED_LAZY["NllLoss2DBackward0"] = {
    "total_weight": _nll_total_weight
}


def _functional(name: str) -> Any:
    """torch.<name>, the same function as torch.nn.functional.<name> (loaded after this family)."""

    def fn(*args: Any, **kwargs: Any) -> Any:
        from ..nn import functional

        return getattr(functional, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`."
    return fn


METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {n: _functional(n) for n in ("conv3d", "conv_transpose3d")}
