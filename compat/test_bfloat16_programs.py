"""Realistic programs on torch.bfloat16: creation and casts (round to nearest even), type
promotion with every dtype and with Python numbers, arithmetic, reductions, activations and
losses, autograd (bfloat16 gradients, mixed-precision graphs, double backward), in-place ops,
indexing, printing, `torch.finfo`, save/load, the modules' `.bfloat16()`, training a small MLP
in bfloat16, autocast, and the errors torch gives for bfloat16. Values that must be bit-exact
are returned as float32 tensors or Python floats (bfloat16 values are exact in both). The
programs register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

import io
import pickle
import warnings
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _bf(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), dtype=T.bfloat16, requires_grad=rg)


def _bits(t: Any) -> Any:
    """t's values, exactly (a bfloat16 value is exact in float32)."""
    return t.detach().float()


# --- creation --------------------------------------------------------------------------------


@program()
def prog_bf_tensor_rounds_to_nearest_even(T: Any) -> Any:
    vals = [1 / 3, 0.1, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -(1 + 2**-8), 255.5, 257.0]
    x = T.tensor(vals, dtype=T.bfloat16)
    return x.dtype, _bits(x), x.tolist(), [type(v).__name__ for v in x.tolist()]


@program()
def prog_bf_tensor_special_values(T: Any) -> Any:
    vals = [float("inf"), -float("inf"), float("nan"), -0.0, 0.0, 1e39, -1e39, 3.4e38, 3.38e38]
    x = T.tensor(vals, dtype=T.bfloat16)
    tiny = T.tensor([1e-38, 1e-39, 1e-40, 1e-45, 9.2e-41], dtype=T.bfloat16)
    return _bits(x), x.isnan(), x.isinf(), T.signbit(x), _bits(tiny), (tiny > 0).tolist()


@program()
def prog_bf_tensor_from_ints_bools_and_numpy(T: Any) -> Any:
    a = T.tensor([1, 2, 255, 257, 65535, -129], dtype=T.bfloat16)
    b = T.tensor([True, False], dtype=T.bfloat16)
    c = T.tensor(np.array([0.1, 1 / 3], np.float64), dtype=T.bfloat16)
    d = T.tensor(np.float32(0.1), dtype=T.bfloat16)
    e = T.as_tensor([1.5, 2.7], dtype=T.bfloat16)
    return _bits(a), _bits(b), _bits(c), _bits(d), _bits(e), d.shape, d.item()


@program()
def prog_bf_factories(T: Any) -> Any:
    bf = T.bfloat16
    return (
        T.ones(2, 3, dtype=bf),
        T.zeros(0, 3, dtype=bf),
        T.full((2,), 0.1, dtype=bf).tolist(),
        raises(lambda: T.full((2,), 1e39, dtype=bf)),
        T.full((2,), 3.3e38, dtype=bf).tolist(),
        T.empty(2, 0, dtype=bf).shape,
        T.eye(3, dtype=bf),
        T.arange(0, 1, 0.1, dtype=bf).tolist(),
        T.arange(250, 260, dtype=bf).tolist(),
        T.linspace(0, 1, 7, dtype=bf).tolist(),
        T.linspace(-3, 5, 11, dtype=bf).tolist(),
        T.logspace(0, 2, 5, dtype=bf).tolist(),
        T.scalar_tensor(0.1, dtype=bf).tolist(),
    )


@program()
def prog_bf_like_and_new_factories(T: Any) -> Any:
    x = _bf(T, 2, 3)
    return (
        T.zeros_like(x).dtype,
        T.ones_like(x),
        T.full_like(x, 1 / 3).tolist(),
        x.new_ones(2),
        x.new_full((2,), 0.3).tolist(),
        x.new_tensor([0.1, 0.2]).tolist(),
        x.new_zeros(1, 2).dtype,
        T.empty_like(x).dtype,
        T.full_like(T.ones(2), 0.1, dtype=T.bfloat16).tolist(),
    )


@program()
def prog_bf_requires_grad_leaf(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], dtype=T.bfloat16, requires_grad=True)
    y = T.ones(2, dtype=T.bfloat16, requires_grad=True)
    z = T.zeros(3, dtype=T.bfloat16).requires_grad_()
    return x, y, z, x.is_leaf, raises(lambda: T.ones(2, dtype=T.int64, requires_grad=True))


@program()
def prog_bf_random_factories_shapes(T: Any) -> Any:
    T.manual_seed(0)
    a = T.rand(3, 4, dtype=T.bfloat16)
    b = T.randn(5, dtype=T.bfloat16)
    c = T.randint(0, 10, (4,), dtype=T.bfloat16)
    d = T.empty(6, dtype=T.bfloat16).uniform_(-1, 1)
    # values rounded to bfloat16: exactly representable
    exact = [bool((t.float().bfloat16().float() == t.float()).all()) for t in (a, b, c, d)]
    return [t.dtype for t in (a, b, c, d)], [t.shape for t in (a, b, c, d)], exact


# --- casts -----------------------------------------------------------------------------------


@program()
def prog_bf_cast_from_float32_ties(T: Any) -> Any:
    f = T.tensor(
        [1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-9, 2 - 2**-9, 3.3895313892515355e38, 3.39e38, 1e-42],
        dtype=T.float32,
    )
    return (
        _bits(f.bfloat16()),
        _bits(f.to(T.bfloat16)),
        _bits(f.to(dtype=T.bfloat16)),
        _bits(f.type(T.bfloat16)),
    )


@program()
def prog_bf_cast_to_other_dtypes(T: Any) -> Any:
    x = T.tensor([-2.7, -0.5, 0.0, 0.5, 1.5, 2.5, 300.2], dtype=T.bfloat16)
    return (
        x.float(),
        x.double(),
        x.half(),
        x.long(),
        x.int(),
        x.short(),
        x.bool(),
        x.to(T.complex64),
        x.to(T.complex128),
        x.abs().byte(),
        x.char(),
    )


@program()
def prog_bf_cast_half_overflow_and_back(T: Any) -> Any:
    x = T.tensor([70000.0, 1e-8, 65504.0, -1e30], dtype=T.bfloat16)
    h = x.half()
    return h, x.half().bfloat16(), T.tensor([65504.0, 6e-8], dtype=T.float16).bfloat16()


@program()
def prog_bf_legacy_type_strings(T: Any) -> Any:
    x = T.ones(2)
    y = x.type(T.BFloat16Tensor)
    z = x.type("torch.BFloat16Tensor")
    return (
        y.dtype,
        z.dtype,
        y.type(),
        isinstance(y, T.BFloat16Tensor),
        isinstance(x, T.BFloat16Tensor),
        T.BFloat16Tensor([1.5, 0.1]).tolist(),
        T.BFloat16Tensor(2, 3).shape,
        y.type_as(T.ones(1)).dtype,
        T.ones(1).type_as(y).dtype,
    )


@program()
def prog_bf_dtype_attributes(T: Any) -> Any:
    bf = T.bfloat16
    return (
        str(bf),
        repr(bf),
        bf.is_floating_point,
        bf.is_complex,
        bf.is_signed,
        bf.itemsize,
        bf.to_complex(),
        bf.to_real(),
        bf == T.bfloat16,
        bf != T.float16,
        pickle.loads(pickle.dumps(bf)) is bf,
        hash(bf) == hash(T.bfloat16),
    )


@program()
def prog_bf_tensor_size_queries(T: Any) -> Any:
    x = _bf(T, 3, 4)
    return (
        x.element_size(),
        x.nbytes,
        x.itemsize,
        x.is_floating_point(),
        x.is_complex(),
        x.is_signed(),
        x.stride(),
        x.t().stride(),
        x[:, 1:].stride(),
        x.numel(),
        x.dim(),
        x.untyped_storage().nbytes(),
    )


@program()
def prog_bf_finfo(T: Any) -> Any:
    fi = T.finfo(T.bfloat16)
    return (
        fi.bits,
        fi.eps,
        fi.max,
        fi.min,
        fi.tiny,
        fi.smallest_normal,
        fi.resolution,
        fi.dtype,
        repr(fi),
        fi == T.finfo(T.bfloat16),
        fi == T.finfo(T.float16),
        raises(lambda: T.iinfo(T.bfloat16)),
    )


# --- type promotion --------------------------------------------------------------------------


@program()
def prog_bf_promote_types_table(T: Any) -> Any:
    bf = T.bfloat16
    others = [
        T.bool, T.uint8, T.int8, T.int16, T.int32, T.int64, T.float16, T.float32, T.float64,
        T.complex64, T.complex128, bf,
    ]  # fmt: skip
    return [(T.promote_types(bf, o), T.promote_types(o, bf)) for o in others]


@program()
def prog_bf_result_type_with_numbers(T: Any) -> Any:
    x = _bf(T, 3)
    z = T.tensor(1.0, dtype=T.bfloat16)
    return (
        T.result_type(x, 1),
        T.result_type(x, 1.5),
        T.result_type(x, 1j),
        T.result_type(x, True),
        T.result_type(x, T.tensor(1.0)),
        T.result_type(x, T.tensor([1.0])),
        T.result_type(z, T.tensor([1], dtype=T.int32)),
        T.result_type(z, T.tensor([1.0], dtype=T.float16)),
        T.result_type(T.tensor([1], dtype=T.int8), z),
        T.result_type(2.5, z),
        T.can_cast(T.bfloat16, T.float16),
        T.can_cast(T.bfloat16, T.int32),
        T.can_cast(T.int64, T.bfloat16),
    )


@program()
def prog_bf_binary_with_every_dtype(T: Any) -> Any:
    x = T.tensor([1.5, -2.25, 3.0], dtype=T.bfloat16)
    out = {}
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                 "float64", "complex64", "complex128"):  # fmt: skip
        d = getattr(T, name)
        o = T.tensor([1, 0, 2], dtype=d)
        out[name] = (x + o, o * x, x - o if name != "bool" else None)
    return out


@program()
def prog_bf_binary_with_python_numbers(T: Any) -> Any:
    x = T.tensor([1.0, 256.0, 3.0, -0.5], dtype=T.bfloat16)
    return (
        _bits(x + 2**-9),
        _bits(x + 1.0000001),
        _bits(x - 1.0000001),
        _bits(1.0000001 - x),
        _bits(x * 1.00390625),
        _bits(x / 0.99609375),
        _bits(x * 2),
        _bits(x + True),
        (x * 1j).dtype,
        (x + 1j),
        _bits(x**2),
        _bits(2**x),
        _bits(x // 0.3),
        _bits(x % 0.3),
        T.tensor(1.0, dtype=T.bfloat16) + 2**-9,
    )


@program()
def prog_bf_zero_dim_and_dimensioned_mix(T: Any) -> Any:
    x = _bf(T, 3)
    f0 = T.tensor(0.1)
    f1 = T.tensor([0.1, 0.2, 0.3])
    b0 = T.tensor(0.1, dtype=T.bfloat16)
    return (
        x + f0,
        x + f1,
        f1 * b0,
        T.tensor([1, 2]) * b0,
        x * T.tensor(3),
        b0 + T.tensor(2.0, dtype=T.float16),
    )


@program()
def prog_bf_mixed_half_bf16(T: Any) -> Any:
    a = T.tensor([1.0, 1 / 3, 1000.0], dtype=T.bfloat16)
    h = T.tensor([1.0, 1 / 3, 1000.0], dtype=T.float16)
    return a + h, a * h, T.cat([a, h]), T.stack([a, h]), T.where(a > 2, a, h), T.maximum(a, h)


# --- arithmetic ------------------------------------------------------------------------------


@program()
def prog_bf_elementwise_unary(T: Any) -> Any:
    x = T.tensor([-2.5, -0.3, 0.0, 0.7, 1.9, 4.1], dtype=T.bfloat16)
    p = x.abs() + 0.1
    on_x = ("abs", "neg", "exp", "sin", "cos", "tanh", "sigmoid", "floor", "ceil", "round",
            "trunc", "sign", "square", "exp2", "expm1", "erf", "frac", "atan")  # fmt: skip
    on_p = ("sqrt", "log", "log2", "log10", "log1p", "rsqrt", "reciprocal", "lgamma", "digamma")
    return {n: getattr(T, n)(x) for n in on_x} | {n: getattr(T, n)(p) for n in on_p}


@program()
def prog_bf_elementwise_binary(T: Any) -> Any:
    a = _bf(T, 4, seed=1) * 3
    b = _bf(T, 4, seed=2) + 4
    return (
        a + b, a - b, a * b, a / b, T.pow(b, a.clamp(-2, 2)), T.atan2(a, b), T.fmod(a, b),
        T.remainder(a, b), T.floor_divide(a, b), T.maximum(a, b), T.minimum(a, b),
        T.hypot(a, b), T.copysign(b, a), a.div(b, rounding_mode="floor"),
        a.div(b, rounding_mode="trunc"),
    )  # fmt: skip


@program()
def prog_bf_ternary_and_clamp(T: Any) -> Any:
    a = _bf(T, 5, seed=3)
    b = _bf(T, 5, seed=4)
    c = _bf(T, 5, seed=5)
    return (
        T.addcmul(a, b, c, value=0.1),
        T.addcdiv(a, b, c.abs() + 1, value=0.3),
        T.lerp(a, b, 0.3),
        T.lerp(a, b, c.sigmoid()),
        a.clamp(-0.5, 0.5),
        a.clamp(min=b),
        T.where(a > 0, a, 0.1),
        T.where(a > 0, a, b.float()),
        a.masked_fill(a < 0, 0.1),
    )


@program()
def prog_bf_comparisons_and_tests(T: Any) -> Any:
    a = T.tensor([1.0, 1.0039, float("nan"), float("inf"), -0.0], dtype=T.bfloat16)
    b = T.tensor([1.0, 1.0, float("nan"), float("inf"), 0.0], dtype=T.bfloat16)
    return (
        a == b, a != b, a < b, a >= 1, a == 1.0039, T.isclose(a, b), T.equal(a, b),
        T.allclose(a[:2], b[:2]), T.isfinite(a), T.isnan(a), a.isreal(), T.nan_to_num(a),
        T.nan_to_num(a, posinf=1e39),
    )  # fmt: skip


# --- reductions ------------------------------------------------------------------------------


@program()
def prog_bf_sum_accumulates_in_float(T: Any) -> Any:
    x = T.full((1000,), 0.1, dtype=T.bfloat16)
    y = T.ones(4096, dtype=T.bfloat16)
    return (
        _bits(x.sum()),
        _bits(x.mean()),
        _bits(y.sum()),
        _bits(y.cumsum(0)[-3:]),
        x.sum(dtype=T.float32),
        _bits(T.ones(300, 300, dtype=T.bfloat16).sum(1)[:3]),
        x.sum().dtype,
        T.ones(3, dtype=T.int32).sum(dtype=T.bfloat16),
    )


@program()
def prog_bf_reductions(T: Any) -> Any:
    x = _bf(T, 4, 6, seed=7)
    return (
        x.sum(1), x.mean(0), x.prod(1), x.amax(1), x.amin(0), x.max(), x.min(1), x.argmax(1),
        x.argmin(), x.std(1), x.var(0), x.norm(), x.norm(dim=1), x.logsumexp(1), x.median(1),
        x.cumsum(1), x.cumprod(0), x.sort(1), x.topk(2, 1), x.nansum(),
        x.abs().sum(0, keepdim=True), T.count_nonzero(x > 0), x.any(), x.all(),
    )  # fmt: skip


@program()
def prog_bf_reductions_empty(T: Any) -> Any:
    e = T.zeros(0, 3, dtype=T.bfloat16)
    return (
        e.sum(0), e.sum(), e.mean(0), e.prod(0), raises(lambda: e.max()), e.amax(1),
        raises(lambda: e.amax(0)), e.logsumexp(0), raises(lambda: e.argmax()),
    )  # fmt: skip


@program()
def prog_bf_softmax_family(T: Any) -> Any:
    x = _bf(T, 3, 5, seed=8) * 4
    F = T.nn.functional
    return (
        x.softmax(1), x.log_softmax(1), F.softmax(x, 0), F.log_softmax(x, dim=-1), F.softmin(x, 1),
        x.softmax(1, dtype=T.float32), x.softmax(1).sum(1), T.softmax(x.float(), 1).bfloat16(),
    )  # fmt: skip


@program()
def prog_bf_accumulating_index_ops(T: Any) -> Any:
    # index_add_ and index_put_(accumulate=True) add one element at a time in bfloat16 (the
    # sum of 300 x 0.1 stalls at 32); scatter_add and sum accumulate in float
    z = T.zeros(3, dtype=T.bfloat16)
    i = T.tensor([0] * 300 + [2] * 5)
    v = T.full((305,), 0.1, dtype=T.bfloat16)
    m = T.zeros(2, 3, dtype=T.bfloat16)
    return (
        _bits(z.clone().index_add_(0, i, v)),
        _bits(z.clone().index_put_((i,), v, accumulate=True)),
        _bits(z.clone().scatter_add_(0, i, v)),
        _bits(z.clone().scatter_reduce_(0, i, v, "sum")),
        _bits(z.clone().index_add(0, i, v, alpha=3)),
        _bits(m.index_add(1, T.tensor([1, 1, 1, 1]), T.full((2, 4), 1 / 3, dtype=T.bfloat16))),
        _bits(v.sum()),
        _bits(T.zeros(1, dtype=T.bfloat16).index_add_(0, i[:1], v[:1])),
    )


@program()
def prog_bf_logsumexp_rounds_like_torch(T: Any) -> Any:
    y = T.arange(200, dtype=T.bfloat16) / 7
    z = _bf(T, 6, 9, seed=55) * 5
    return (
        _bits(y.logsumexp(0)),
        _bits(z.logsumexp(1)),
        _bits(z.logsumexp(0, keepdim=True)),
        _bits(T.logsumexp(z, (0, 1))),
        _bits(T.tensor([float("inf"), 1.0], dtype=T.bfloat16).logsumexp(0)),
        _bits(T.full((3,), -float("inf"), dtype=T.bfloat16).logsumexp(0)),
    )


@program()
def prog_bf_log_softmax_last_dim_rounding(T: Any) -> Any:
    T.manual_seed(0)
    xs = [(T.randn(8, n) * 4).bfloat16() for n in (5, 16, 37, 100)]
    F = T.nn.functional
    return (
        [_bits(x.log_softmax(1)) for x in xs],
        [_bits(x.softmax(1)) for x in xs],
        [_bits(x.log_softmax(0)) for x in xs],
        _bits(F.cross_entropy(xs[1], T.arange(8))),
        _bits(F.log_softmax(xs[0].reshape(2, 4, 5, 1), 2)),
    )


@program()
def prog_bf_pow_exponent_rounding(T: Any) -> Any:
    # a Python exponent (or base) is converted to bfloat16 first; x**3 and x**-2 square in it
    x = T.tensor(np.abs(_data(40, seed=67)) * 3 + 0.5, dtype=T.bfloat16)
    return {
        str(e): _bits(x**e) for e in (1.7, 0.3, 2.5, -1.3, 3.0, 0.5, 2.0, -2.0, -1, 3, 2, 4)
    } | {
        "rpow": _bits(2.3**x),
        "tensor_exp": _bits(x ** (x / 3)),
        "pow_": _bits(x.clone().pow_(1.7)),
    }


@program()
def prog_bf_unary_kernels_bits(T: Any) -> Any:
    F = T.nn.functional
    z = _bf(T, 60, seed=68) * 3
    u = T.tensor(np.random.default_rng(69).random(60) * 0.9 + 0.05, dtype=T.bfloat16)
    w = T.tensor(np.random.default_rng(70).random(60) * 3, dtype=T.bfloat16)
    return (
        _bits(u.logit()),
        _bits(u.logit(eps=0.1)),
        _bits(T.xlogy(u, w)),
        _bits(T.sinc(T.arange(-4, 5, dtype=T.bfloat16) / 2)),
        _bits(T.sinc(z)),
        F.gelu(z),
        _bits(F.gelu(z[z > -3])),
        _bits(F.gelu(z, approximate="tanh")),
        _bits(F.silu(z)),
        _bits(F.mish(z)),
        _bits(F.softplus(z)),
    )


@program()
def prog_bf_batch_norm(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(6, 40, seed=71) * 3, dtype=T.bfloat16)
    rm = T.zeros(40, dtype=T.bfloat16)
    rv = T.ones(40, dtype=T.bfloat16)
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.1)
    bn = _seeded(T, T.nn.BatchNorm1d(40), 72).bfloat16()
    bn.running_mean.copy_(T.tensor(_data(40, seed=73) * 0.1))
    bn.running_var.copy_(T.tensor(np.abs(_data(40, seed=74)) + 0.5))
    bn.eval()
    z = bn(x)
    return y, rm, rv, z, z.grad_fn, bn.running_var


@program(
    xfail="torch's bfloat16 batch-norm statistics kernel gives an invstd about 1% off the "
    "float variance's on some channels (1 bfloat16 ulp of the saved invstd); shadowgrad rounds "
    "the exactly computed one, so outputs near 0 differ beyond tolerance"
)
def prog_bf_batch_norm_train_affine(T: Any) -> Any:
    x = T.tensor(_data(6, 40, seed=71) * 3, dtype=T.bfloat16)
    bn = _seeded(T, T.nn.BatchNorm1d(40), 72).bfloat16()
    return bn(x), bn.running_mean, bn.running_var


# --- activations and losses ------------------------------------------------------------------


@program()
def prog_bf_activations_with_grad(T: Any) -> Any:
    F = T.nn.functional
    out = {}
    names = ("relu", "gelu", "silu", "elu", "selu", "softplus", "leaky_relu", "hardtanh", "mish",
             "logsigmoid", "tanh", "sigmoid", "hardswish", "relu6", "celu")  # fmt: skip
    for name in names:
        x = _bf(T, 6, seed=9, rg=True)
        y = getattr(F, name)(x * 2)
        y.sum().backward()
        out[name] = (y, y.grad_fn, x.grad)
    return out


@program()
def prog_bf_gelu_tanh_and_dropout_eval(T: Any) -> Any:
    F = T.nn.functional
    x = _bf(T, 8, seed=10, rg=True)
    y = F.gelu(x, approximate="tanh")
    y.sum().backward()
    return y, x.grad, F.dropout(x, 0.5, training=False), F.dropout(x, 0.0).dtype


@program()
def prog_bf_losses(T: Any) -> Any:
    F = T.nn.functional
    x = _bf(T, 4, 5, seed=11, rg=True)
    t = _bf(T, 4, 5, seed=12)
    y = T.tensor([0, 4, 2, 1])
    out = {
        "mse": F.mse_loss(x, t),
        "l1": F.l1_loss(x, t),
        "smooth_l1": F.smooth_l1_loss(x, t),
        "huber": F.huber_loss(x, t, delta=0.5),
        "ce": F.cross_entropy(x, y),
        "ce_ls": F.cross_entropy(x, y, label_smoothing=0.1),
        "nll": F.nll_loss(x.log_softmax(1), y),
        "bce_logits": F.binary_cross_entropy_with_logits(x, t.sigmoid()),
        "bce": F.binary_cross_entropy(x.sigmoid(), t.sigmoid()),
        "kl": F.kl_div(x.log_softmax(1), t.softmax(1), reduction="batchmean"),
    }
    grads = {}
    for k, v in out.items():
        x.grad = None
        v.backward(retain_graph=True)
        grads[k] = x.grad
    return out, grads, {k: v.grad_fn for k, v in out.items()}


@program()
def prog_bf_cross_entropy_mixed_target_dtype(T: Any) -> Any:
    F = T.nn.functional
    x = _bf(T, 3, 4, seed=13)
    return (
        raises(lambda: F.cross_entropy(x, T.tensor([0, 1, 2]).bfloat16())),
        F.cross_entropy(x, _bf(T, 3, 4, seed=14).softmax(1)),
        raises(lambda: F.mse_loss(x, x.float())),
        raises(lambda: F.cross_entropy(x, x.float().softmax(1))),
    )


@program()
def prog_bf_normalization_forward(T: Any) -> Any:
    F = T.nn.functional
    x = _bf(T, 2, 3, 4, seed=15, rg=True)
    w = _bf(T, 4, seed=53, rg=True)
    b = _bf(T, 4, seed=54, rg=True)
    y = F.layer_norm(x, (4,), w, b)
    return (
        y, y.grad_fn, F.layer_norm(x, (3, 4)), F.normalize(x.detach(), dim=-1),
        F.group_norm(x.detach().reshape(2, 4, 3), 2), F.rms_norm(x.detach(), (4,)),
    )  # fmt: skip


@program(
    xfail="torch's bfloat16 LayerNorm backward kernel sums dgamma and dbeta row by row, each "
    "partial sum rounded to bfloat16, and forms dx with its own roundings; shadowgrad "
    "computes the backward in extended precision and rounds once (1-8 ulp apart)"
)
def prog_bf_layer_norm_backward(T: Any) -> Any:
    x = _bf(T, 2, 3, 4, seed=15, rg=True)
    w = T.ones(4, dtype=T.bfloat16, requires_grad=True)
    b = T.zeros(4, dtype=T.bfloat16, requires_grad=True)
    y = T.nn.functional.layer_norm(x, (4,), w, b)
    (y * _bf(T, 2, 3, 4, seed=16)).sum().backward()
    return x.grad, w.grad, b.grad


@program()
def prog_bf_embedding_and_one_hot(T: Any) -> Any:
    F = T.nn.functional
    w = _bf(T, 5, 3, seed=17, rg=True)
    idx = T.tensor([[0, 2], [4, 2]])
    e = F.embedding(idx, w)
    e.sum().backward()
    return e, e.grad_fn, w.grad, F.one_hot(idx, 5).bfloat16().sum(0)


# --- autograd --------------------------------------------------------------------------------


@program()
def prog_bf_backward_grad_dtypes(T: Any) -> Any:
    x = _bf(T, 3, seed=18, rg=True)
    y = (x * x + x.exp()).sum()
    y.backward()
    return y, y.grad_fn, x.grad, x.grad.dtype, x.grad.requires_grad


@program()
def prog_bf_mixed_precision_graph(T: Any) -> Any:
    w = T.tensor(_data(3, seed=19), requires_grad=True)  # float32 master weight
    x = _bf(T, 3, seed=20)
    y = (w.bfloat16() * x).sum()
    z = y.float() * 2
    z.backward()
    return y, z, y.grad_fn, w.grad, w.grad.dtype, z.grad_fn.next_functions[0][0]


@program()
def prog_bf_bf16_leaf_through_float32(T: Any) -> Any:
    x = _bf(T, 4, seed=21, rg=True)
    y = (x.float() * 0.1).exp().sum()
    y.backward()
    g1 = x.grad.clone()
    y2 = (x.double() ** 2).sum()
    y2.backward()
    return y, g1, x.grad, x.grad.dtype


@program()
def prog_bf_grad_accumulation_rounds(T: Any) -> Any:
    x = T.ones(3, dtype=T.bfloat16, requires_grad=True)
    for k in range(5):
        (x * (0.1 + 0.01 * k)).sum().backward()
    a = _bits(x.grad)
    x.grad = None
    (x * 256).sum().backward()
    (x * 1).sum().backward()
    return a, _bits(x.grad), x.grad._version if hasattr(x.grad, "_version") else None


@program()
def prog_bf_autograd_grad_and_double_backward(T: Any) -> Any:
    x = _bf(T, 3, seed=22, rg=True)
    y = (x**3).sum()
    (g,) = T.autograd.grad(y, x, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), x)
    return g, g.grad_fn, gg, gg.dtype


@program()
def prog_bf_retain_grad_and_hooks(T: Any) -> Any:
    log = []
    x = _bf(T, 3, seed=23, rg=True)
    h = x * 3
    h.retain_grad()
    h.register_hook(lambda g: log.append(("h", g.dtype)))
    x.register_hook(lambda g: log.append(("x", g.dtype)) or g * 0.1)
    (h.tanh()).sum().backward()
    return h.grad, x.grad, log


@program()
def prog_bf_matmul_family_with_grad(T: Any) -> Any:
    a = _bf(T, 3, 4, seed=24, rg=True)
    b = _bf(T, 4, 5, seed=25, rg=True)
    v = _bf(T, 4, seed=26, rg=True)
    out = {
        "mm": a @ b,
        "mv": a @ v,
        "dot": v @ v,
        "mm_t": b.t() @ a.t(),
        "bmm": T.bmm(a.unsqueeze(0).expand(2, 3, 4), b.unsqueeze(0).expand(2, 4, 5)),
        "addmm": T.addmm(_bf(T, 5, seed=27), a, b, beta=0.5, alpha=2),
        "einsum": T.einsum("ij,jk->ik", a, b),
    }
    s = sum(o.float().sum() for o in out.values())
    s.backward()
    return out, {k: o.grad_fn for k, o in out.items()}, a.grad, b.grad, v.grad


@program()
def prog_bf_matmul_large_k_rounds_once(T: Any) -> Any:
    a = T.full((2, 512), 0.1, dtype=T.bfloat16)
    b = T.full((512, 2), 1 / 3, dtype=T.bfloat16)
    return _bits(a @ b), _bits((a @ b).sum()), raises(lambda: a @ b.float())


@program()
def prog_bf_linear_module(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(4, 3), 28).to(T.bfloat16)
    x = _bf(T, 2, 4, seed=29)
    y = lin(x)
    y.sum().backward()
    return (
        y,
        y.grad_fn,
        lin.weight.grad,
        lin.bias.grad,
        lin.weight.dtype,
        raises(lambda: lin(x.float())),
    )


@program()
def prog_bf_conv2d(T: Any) -> Any:
    conv = _seeded(T, T.nn.Conv2d(2, 3, 3, padding=1), 30).bfloat16()
    x = _bf(T, 1, 2, 5, 5, seed=31, rg=True)
    y = conv(x)
    y.sum().backward()
    return y, y.grad_fn, x.grad, conv.weight.grad, conv.bias.grad


@program()
def prog_bf_pooling_and_interpolate(T: Any) -> Any:
    F = T.nn.functional
    x = _bf(T, 1, 2, 4, 4, seed=32, rg=True)
    y = F.max_pool2d(x, 2) + F.avg_pool2d(x, 2) + F.adaptive_avg_pool2d(x, 2)
    y.sum().backward()
    z = F.interpolate(x.detach(), scale_factor=2, mode="nearest")
    return y, y.grad_fn, x.grad, z.shape, z.dtype


# --- in-place, indexing ----------------------------------------------------------------------


@program()
def prog_bf_inplace_ops_round(T: Any) -> Any:
    x = T.ones(4, dtype=T.bfloat16)
    x.add_(2**-9)
    a = _bits(x)
    x.mul_(1.0039)
    b = _bits(x)
    x.add_(T.tensor([0.1, 0.2, 0.3, 0.4]))  # a float32 operand, cast back into bfloat16
    c = _bits(x)
    x.div_(3).sub_(0.001).clamp_(max=0.4).abs_()
    x.addcmul_(x, x, value=0.3)
    return a, b, c, _bits(x), x._version, x.dtype


@program()
def prog_bf_inplace_add_alpha_rounds(T: Any) -> Any:
    p = T.tensor([0.267578125, 1.0, 256.0], dtype=T.bfloat16)
    g = T.tensor([1.8984375, 1.0, 1.0], dtype=T.bfloat16)
    with T.no_grad():
        p.add_(g, alpha=-0.1)
    q = T.tensor([256.0], dtype=T.bfloat16).add(T.tensor([1.0], dtype=T.bfloat16), alpha=1.0000001)
    r = T.tensor([0.267578125], dtype=T.bfloat16).sub(
        T.tensor([1.8984375], dtype=T.bfloat16), alpha=0.1
    )
    return _bits(p), _bits(q), _bits(r)


@program()
def prog_bf_copy_fill_zero(T: Any) -> Any:
    x = T.zeros(3, dtype=T.bfloat16)
    x.copy_(T.tensor([0.1, 1 / 3, 1e39]))
    a = _bits(x)
    x.fill_(0.1)
    b = _bits(x)
    x.fill_(T.tensor(1 / 3))
    c = _bits(x)
    f = T.zeros(3)
    f.copy_(T.tensor([0.1, 0.2, 0.3], dtype=T.bfloat16))
    i = T.zeros(3, dtype=T.int64)
    i.copy_(T.tensor([1.7, -2.5, 300.1], dtype=T.bfloat16))
    return a, b, c, f, i, x.zero_(), raises(lambda: x.fill_(1e39)), x._version


@program()
def prog_bf_setitem_and_index_put(T: Any) -> Any:
    x = T.zeros(2, 4, dtype=T.bfloat16)
    x[0, 1] = 0.1
    x[1] = T.tensor([1 / 3, 2 / 3, 1.0, 4 / 3])
    x[:, 3] = T.tensor(0.7, dtype=T.float64)
    x[x > 0.5] = 0.3
    e = raises(lambda: x.index_put_((T.tensor([0]), T.tensor([0])), T.tensor([0.9])))
    x.index_put_((T.tensor([0]), T.tensor([0])), T.tensor([0.9], dtype=T.bfloat16))
    y = T.zeros(5, dtype=T.bfloat16)
    y.index_add_(0, T.tensor([0, 0, 2]), T.tensor([0.1, 0.1, 0.2], dtype=T.bfloat16))
    z = T.zeros(5, dtype=T.bfloat16).scatter_add(
        0, T.tensor([1, 1]), T.tensor([1 / 3, 1 / 3], dtype=T.bfloat16)
    )
    return _bits(x), _bits(y), _bits(z), x._version, e


@program()
def prog_bf_indexing_ops(T: Any) -> Any:
    x = _bf(T, 4, 5, seed=33, rg=True)
    idx = T.tensor([3, 0, 3])
    out = (
        x[1:3, ::2],
        x[idx],
        x[x > 0],
        x.gather(1, T.tensor([[0, 4]] * 4)),
        x.index_select(1, idx),
        x.masked_select(x < 0),
        T.take(x, T.tensor([0, 19])),
        x.t().contiguous().view(-1)[:4],
        x.flip(0)[0],
        x.roll(1, 1)[0],
    )
    sum(o.float().sum() for o in out).backward()
    return out, [o.grad_fn for o in out], x.grad


@program()
def prog_bf_shape_ops(T: Any) -> Any:
    x = _bf(T, 2, 3, 4, seed=34)
    return (
        x.reshape(6, 4), x.permute(2, 0, 1).contiguous(), x.transpose(0, 2).is_contiguous(),
        T.cat([x, x], 1).shape, T.stack([x, x]).dtype, x.unbind(0)[1], x.chunk(2, 2)[1],
        x.split([1, 2], 1)[1], x.expand(3, 2, 3, 4).sum(0), x.repeat(1, 2, 1).shape,
        x.unsqueeze(1).squeeze(), x.flatten(1), x.unfold(2, 2, 2).shape, T.tril(x[0]),
    )  # fmt: skip


@program()
def prog_bf_cat_with_other_dtypes(T: Any) -> Any:
    b = T.tensor([1 / 3, 0.1], dtype=T.bfloat16)
    return (
        T.cat([b, T.tensor([1 / 3])]),
        T.cat([b, T.tensor([3, 257])]),
        T.cat([T.tensor([257, 3]), b]),
        T.stack([b, T.tensor([True, False])]),
        T.cat([b, T.tensor([1j, 2])]),
    )


@program()
def prog_bf_views_share_memory(T: Any) -> Any:
    x = T.zeros(2, 3, dtype=T.bfloat16)
    v = x[0]
    v.add_(0.1)
    t = x.t()
    t[2, 1] = 1 / 3
    f = x.view(-1)
    f[1] = 257
    return _bits(x), v._version, x._version, v._base is x


@program()
def prog_bf_view_as_other_dtype_reads_bits(T: Any) -> Any:
    # the bytes reinterpreted (shadowgrad copies them: a bfloat16 array is longdouble)
    x = T.tensor([[1.0, -2.5, 1 / 3, float("inf")]], dtype=T.bfloat16)
    h = T.tensor([1.0, -2.0, 0.1], dtype=T.float16)
    return (
        x.view(T.int16),
        x.view(T.float16),
        x.view(T.uint8),
        x.view(T.float32),
        x.view(T.int64),
        h.view(T.bfloat16),
        T.tensor([16256, -16384], dtype=T.int16).view(T.bfloat16),
        T.tensor([1.5, 2.0]).view(T.bfloat16),
        raises(lambda: x[:, :3].view(T.float32)),
        raises(lambda: T.tensor(1.0, dtype=T.bfloat16).view(T.float32)),
    )


@program()
def prog_bf_sort_unique_search(T: Any) -> Any:
    x = T.tensor([3.0, 1.0039, 1.0, float("nan"), -0.0, 0.0, 1.0], dtype=T.bfloat16)
    return (
        x.sort(), x.argsort(stable=True), T.unique(x), T.unique(x, return_counts=True),
        x.msort(), T.searchsorted(x[:3].sort().values, T.tensor([1.001], dtype=T.bfloat16)),
        T.bucketize(x[:3], T.tensor([0.5, 2.0], dtype=T.bfloat16)), x.nanmedian(),
        T.isin(x, T.tensor([1.0])),
    )  # fmt: skip


@program()
def prog_bf_nn_init_and_dropout(T: Any) -> Any:
    T.manual_seed(3)
    w = T.empty(4, 5, dtype=T.bfloat16)
    out = []
    for init in (
        lambda t: T.nn.init.normal_(t, 0, 0.1),
        lambda t: T.nn.init.uniform_(t, -0.3, 0.3),
        T.nn.init.xavier_uniform_,
        T.nn.init.kaiming_normal_,
        lambda t: T.nn.init.constant_(t, 0.1),
        T.nn.init.trunc_normal_,
    ):
        out.append(_bits(init(w)))
    x = T.ones(3, 8, dtype=T.bfloat16, requires_grad=True)
    y = T.nn.functional.dropout(x, 0.3)
    y.sum().backward()
    return out, _bits(y), x.grad, y.grad_fn


@program()
def prog_bf_testing_assert_close(T: Any) -> Any:
    a = T.tensor([1.0, 2.0, 100.0], dtype=T.bfloat16)
    b = a * 1.01
    c = a * 1.03
    return (
        raises(lambda: T.testing.assert_close(a, b)),
        raises(lambda: T.testing.assert_close(a, c)),
        raises(lambda: T.testing.assert_close(a, a.float())),
        raises(lambda: T.testing.assert_close(a, a.float(), check_dtype=False)),
        T.allclose(a, c, rtol=0.05),
        T.isclose(a, b),
    )


@program()
def prog_bf_integer_conversions_through_float(T: Any) -> Any:
    big = [2**32 + 2**24 + 1, 2**24 + 1, -(2**40) - 1, 65537, 2**63 - 1]
    x = T.tensor(big, dtype=T.bfloat16)
    i = T.tensor(big, dtype=T.int64)
    return (
        _bits(x),
        _bits(i.bfloat16()),
        _bits(T.tensor(2**32 + 2**24 + 1, dtype=T.bfloat16)),
        _bits(T.full((1,), 2**24 + 1, dtype=T.bfloat16)),
        _bits(i.to(T.bfloat16) + 1),
        T.tensor([255.6, -1.5, 3.99], dtype=T.bfloat16).to(T.uint8),
        T.tensor([127.9, -128.5], dtype=T.bfloat16).to(T.int8),
        T.tensor([0.5, -0.5, 1e-30], dtype=T.bfloat16).bool(),
    )


@program()
def prog_bf_division_by_zero_and_special(T: Any) -> Any:
    x = T.tensor([1.0, -1.0, 0.0, float("inf")], dtype=T.bfloat16)
    return (
        _bits(x / 0),
        _bits(x // 0),
        _bits(x % 0),
        _bits(T.fmod(x, 0.0)),
        _bits(x.reciprocal()),
        _bits(x.log()),
        _bits(x.sqrt()),
        _bits(x**-1),
        _bits(x.pow(0)),
        _bits(T.tensor([-8.0], dtype=T.bfloat16) ** (1 / 3)),
        _bits(x.exp()),
        _bits(T.tensor([88.8, 89.0, -100.0], dtype=T.bfloat16).exp()),
    )


@program()
def prog_bf_masked_fill_and_scalar_overflow(T: Any) -> Any:
    x = T.zeros(3, dtype=T.bfloat16)
    m = T.tensor([True, False, True])
    return (
        _bits(x.masked_fill(m, 1 / 3)),
        raises(lambda: x.masked_fill(m, 1e39)),
        _bits(x.masked_fill(m, T.tensor(0.1))),
        _bits(x.masked_fill(m, float("inf"))),
        _bits(T.where(m, x, 1 / 3)),
        raises(lambda: x.fill_(-1e39)),
        _bits(x.clamp(min=1 / 3)),
        _bits(x.index_fill(0, T.tensor([1]), 0.1)),
    )


@program()
def prog_bf_pooling_and_upsampling_values(T: Any) -> Any:
    F = T.nn.functional
    x = _bf(T, 1, 1, 6, 6, seed=56)
    return (
        _bits(F.avg_pool2d(x, 3)),
        _bits(F.avg_pool2d(x, 2, ceil_mode=True, count_include_pad=False, padding=1)),
        _bits(F.adaptive_avg_pool2d(x, 4)),
        _bits(F.max_pool2d(x, 2, return_indices=True)[0]),
        _bits(F.interpolate(x, size=(4, 4), mode="bilinear", align_corners=False)),
        _bits(F.interpolate(x, scale_factor=2, mode="nearest")),
        _bits(F.pad(x, (1, 1), value=0.1)),
    )


@program()
def prog_bf_rnn_and_attention(T: Any) -> Any:
    F = T.nn.functional
    q = _bf(T, 1, 2, 4, 8, seed=57, rg=True)
    k = _bf(T, 1, 2, 4, 8, seed=58)
    v = _bf(T, 1, 2, 4, 8, seed=59)
    a = F.scaled_dot_product_attention(q, k, v)
    m = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    gru = _seeded(T, T.nn.GRUCell(3, 4), 60).bfloat16()
    h = gru(_bf(T, 2, 3, seed=61))
    return _bits(a), a.grad_fn, _bits(m), h, h.grad_fn


@program(
    xfail="torch's bfloat16 CPU flash-attention backward rounds its intermediate products to "
    "bfloat16; shadowgrad's computes them in float and rounds the gradients once (an ulp "
    "apart on some elements)"
)
def prog_bf_attention_backward(T: Any) -> Any:
    q = _bf(T, 1, 2, 4, 8, seed=57, rg=True)
    k = _bf(T, 1, 2, 4, 8, seed=58)
    v = _bf(T, 1, 2, 4, 8, seed=59)
    T.nn.functional.scaled_dot_product_attention(q, k, v).sum().backward()
    return q.grad


@program()
def prog_bf_lstm_through_onednn(T: Any) -> Any:
    # torch runs a bfloat16 LSTM through oneDNN as a float32 one (MkldnnRnnLayerBackward0)
    x = _bf(T, 2, 5, 8, seed=75, rg=True)
    lstm = _seeded(T, T.nn.LSTM(8, 4, batch_first=True), 76).to(T.bfloat16)
    out, (h, c) = lstm(x)
    out.sum().backward()
    return (
        out.grad_fn,
        h.grad_fn,
        (out.dtype, h.dtype, c.dtype, x.grad.dtype, lstm.weight_ih_l0.grad.dtype),
        raises(lambda: lstm(x, (T.zeros(1, 2, 4), T.zeros(1, 2, 4)))),
        raises(lambda: lstm(x, (T.zeros(1, 2, 4, dtype=T.float64),) * 2)),
        lstm(x.detach(), (T.zeros(1, 2, 4, dtype=T.bfloat16),) * 2)[0].shape,
    )


@program(
    xfail="oneDNN's bfloat16 LSTM: shadowgrad runs its gates in float32 on the bfloat16 "
    "operands with one bfloat16 bias, which matches torch on most elements but not all (an "
    "output near 0 after cancellation differs by 2e-4, 15%)"
)
def prog_bf_lstm_values(T: Any) -> Any:
    x = _bf(T, 2, 5, 8, seed=75)
    lstm = _seeded(T, T.nn.LSTM(8, 4, batch_first=True), 76).to(T.bfloat16)
    out, (h, c) = lstm(x)
    return out, h, c


@program()
def prog_bf_autocast_training_step(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)), 62)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    x = T.tensor(_data(6, 4, seed=63))
    y = T.tensor([0, 1, 2, 0, 1, 2])
    out = []
    for _ in range(3):
        opt.zero_grad()
        with T.autocast("cpu"):
            logits = m(x)
            loss = nn.functional.cross_entropy(logits, y)
            mse = nn.functional.mse_loss(logits, T.zeros_like(logits))
            sm = logits.softmax(-1)
        loss.backward()
        opt.step()
        out.append((logits.dtype, loss.dtype, mse.dtype, sm.dtype, loss))
    return out, [p.detach() for p in m.parameters()], [p.grad.dtype for p in m.parameters()]


@program()
def prog_bf_autocast_casts_and_cache(T: Any) -> Any:
    w = T.tensor(_data(3, 3, seed=64), requires_grad=True)
    x = T.tensor(_data(3, 3, seed=65))
    d = T.tensor(_data(3, 3, seed=66), dtype=T.float64)
    with T.autocast("cpu"):
        a = w @ x
        b = T.mm(w, x)
        c = x.matmul(w)
        e = (d @ d).dtype
        f = raises(lambda: T.mm(x, d))
        g = T.addmm(x, w, x)
        h = T.conv2d(x.reshape(1, 1, 3, 3), w.reshape(1, 1, 3, 3)).dtype
        i = T.bmm(w.unsqueeze(0), x.unsqueeze(0)).dtype
        j = (x.bfloat16() + x).dtype
        k = T.prod(x.bfloat16()).dtype
        inner = T.is_autocast_enabled("cpu"), T.is_autocast_enabled()
    (a.sum() + b.sum() + c.sum()).backward()
    return a, b, c, e, f, g, h, i, j, k, inner, w.grad, a.grad_fn.next_functions


@program()
def prog_bf_autocast_nesting_and_decorator(T: Any) -> Any:
    x = T.ones(2, 2)

    @T.autocast("cpu")
    def f(t: Any) -> Any:
        return (t @ t).dtype

    out = [f(x), (x @ x).dtype]
    with T.autocast("cpu"):
        with T.autocast("cpu", enabled=False):
            out.append((x @ x).dtype)
            out.append(T.is_autocast_enabled("cpu"))
        out.append((x @ x).dtype)
        with T.autocast("cpu", dtype=T.float16):
            out.append((x @ x).dtype)
            out.append(T.get_autocast_dtype("cpu"))
        out.append(T.get_autocast_dtype("cpu"))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with T.autocast("cpu", dtype=T.float32):
            out.append((x @ x).dtype)
            out.append(T.is_autocast_enabled("cpu"))
    out.append([str(i.message) for i in w])
    out.append(T.amp.is_autocast_available("cpu"))
    return out


# --- printing --------------------------------------------------------------------------------


@program()
def prog_bf_repr(T: Any) -> Any:
    bf = T.bfloat16
    return [
        repr(T.tensor([1.0, 2.5], dtype=bf)),
        repr(T.tensor([1.0, 2.0], dtype=bf)),
        repr(T.tensor(1 / 3, dtype=bf)),
        repr(T.tensor([1e-5, 1e5, 1 / 3], dtype=bf)),
        repr(T.tensor([float("nan"), float("inf"), -1.0], dtype=bf)),
        repr(T.tensor([], dtype=bf)),
        repr(T.zeros(0, 2, dtype=bf)),
        repr(T.tensor([1.0], dtype=bf, requires_grad=True)),
        repr(T.tensor([1.0], dtype=bf, requires_grad=True) * 2),
        repr(T.arange(12, dtype=bf).reshape(3, 4) / 7),
        repr(T.tensor([3.38e38, 1e-38], dtype=bf)),
        str(T.tensor([123456.0, 7.0], dtype=bf)),
        repr(T.ones(2, dtype=bf).to(T.float32)),
    ]


@program()
def prog_bf_repr_default_dtype_and_printoptions(T: Any) -> Any:
    x = T.tensor([1 / 3, 2 / 3], dtype=T.bfloat16)
    T.set_printoptions(precision=2)
    try:
        a = repr(x)
    finally:
        T.set_printoptions(profile="default")
    return a, repr(x), format(T.tensor(0.1, dtype=T.bfloat16).item(), ".10f"), f"{x[0]}"


@program()
def prog_bf_item_tolist_python_types(T: Any) -> Any:
    x = T.tensor([[0.1, 1 / 3], [257.0, -1e-3]], dtype=T.bfloat16)
    v = x[0, 0]
    return (
        x.tolist(),
        v.item(),
        type(v.item()).__name__,
        float(v),
        int(x[1, 0]),
        bool(v),
        complex(v),
        type(x.tolist()[0][0]).__name__,
        v.tolist(),
        round(x[0, 1].item(), 10),
        raises(lambda: x.__index__()),
    )


# --- numpy, save/load ------------------------------------------------------------------------


@program()
def prog_bf_numpy_refused(T: Any) -> Any:
    x = T.ones(2, dtype=T.bfloat16)
    return (
        raises(lambda: x.numpy()),
        raises(lambda: np.asarray(x)),
        raises(lambda: x.detach().numpy(force=True)),
        x.float().numpy(),
        raises(lambda: T.from_numpy(np.ones(2, np.longdouble))),
        raises(lambda: T.tensor(np.ones(2, np.longdouble))),
    )


@program()
def prog_bf_save_load_round_trip(T: Any) -> Any:
    x = _bf(T, 3, seed=35, rg=True)
    lin = _seeded(T, T.nn.Linear(2, 2), 36).bfloat16()
    buf = io.BytesIO()
    T.save({"x": x, "v": x.detach()[1:], "sd": lin.state_dict()}, buf)
    buf.seek(0)
    d = T.load(buf)
    return d["x"], d["v"], d["sd"]["weight"], d["sd"]["bias"].dtype, d["x"].requires_grad


@program()
def prog_bf_deepcopy_clone_detach(T: Any) -> Any:
    import copy

    x = _bf(T, 3, seed=37, rg=True)
    c = copy.deepcopy(x)
    return c, x.clone(), x.clone().grad_fn, x.detach(), x.data.dtype, T.clone(x).dtype


# --- modules and training --------------------------------------------------------------------


@program()
def prog_bf_module_to_bfloat16(T: Any) -> Any:
    m = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.LayerNorm(4), T.nn.Linear(4, 2)), 38)
    m.bfloat16()
    dts = [p.dtype for p in m.parameters()]
    m.float()
    dts2 = [p.dtype for p in m.parameters()]
    m.to(T.bfloat16)
    bn = T.nn.BatchNorm1d(3).to(T.bfloat16)
    emb = T.nn.Embedding(3, 2).to(dtype=T.bfloat16)
    return (
        dts,
        dts2,
        [p.dtype for p in m.parameters()],
        [b.dtype for b in bn.buffers()],
        emb.weight.dtype,
    )


def _mlp(T: Any) -> Any:
    return _seeded(
        T, T.nn.Sequential(T.nn.Linear(4, 8), T.nn.ReLU(), T.nn.Linear(8, 3)), 39
    ).bfloat16()


@program()
def prog_bf_mlp_sgd_training(T: Any) -> Any:
    m = _mlp(T)
    opt = T.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    x = _bf(T, 16, 4, seed=40)
    y = T.tensor(np.random.default_rng(41).integers(0, 3, 16))
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = T.nn.functional.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return (
        losses,
        [p.detach() for p in m.parameters()],
        opt.state_dict()["state"][0]["momentum_buffer"].dtype,
    )


@program()
def prog_bf_mlp_adam_training(T: Any) -> Any:
    m = _mlp(T)
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    x = _bf(T, 16, 4, seed=42)
    y = _bf(T, 16, 3, seed=43)
    losses = []
    for _ in range(4):
        opt.zero_grad()
        loss = T.nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    st = opt.state[m[0].weight]
    return losses, [p.detach() for p in m.parameters()], st["exp_avg"], st["exp_avg_sq"], st["step"]


def _bf16_optimizer_run(T: Any, names: tuple[str, ...]) -> Any:
    out = {}
    for name in names:
        p = T.tensor(np.linspace(-1, 1, 7).astype(np.float32), dtype=T.bfloat16, requires_grad=True)
        kw = {} if name == "Adadelta" else {"lr": 0.1}
        opt = getattr(T.optim, name)([p], **kw)
        for k in range(3):
            opt.zero_grad()
            (p * p * (k + 1) + p).sum().backward()
            opt.step()
        state = {k: v for k, v in opt.state[p].items() if k != "step"}
        out[name] = (p.detach(), state)
    return out


@program()
def prog_bf_optimizers_steps(T: Any) -> Any:
    names = ("Adam", "AdamW", "Adagrad", "NAdam", "Adamax", "Adadelta", "ASGD", "Adafactor")
    return _bf16_optimizer_run(T, names)


@program()
def prog_bf_optimizers_rounding_each_operation(T: Any) -> Any:
    """torch's RMSprop, RAdam and Rprop steps on bfloat16 round every operation (and their
    factors, such as Rprop's etaplus 1.2, to bfloat16)."""
    return _bf16_optimizer_run(T, ("RMSprop", "RAdam", "Rprop"))


@program()
def prog_bf_adamw_weight_decay(T: Any) -> Any:
    p = _bf(T, 5, seed=44, rg=True)
    opt = T.optim.AdamW([p], lr=0.1, weight_decay=0.1)
    for k in range(3):
        opt.zero_grad()
        (p * p * (k + 1)).sum().backward()
        opt.step()
    return p.detach(), opt.state[p]["exp_avg"].dtype


@program()
def prog_bf_grad_clipping(T: Any) -> Any:
    m = _mlp(T)
    x = _bf(T, 4, 4, seed=45)
    m(x).pow(2).sum().backward()
    n = T.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
    T.nn.utils.clip_grad_value_(m.parameters(), 0.01)
    return n, n.dtype, [p.grad for p in m.parameters()]


@program()
def prog_bf_mixed_precision_master_weights(T: Any) -> Any:
    master = _seeded(T, T.nn.Linear(4, 2), 46)
    opt = T.optim.SGD(master.parameters(), lr=0.1)
    x = _bf(T, 8, 4, seed=47)
    for _ in range(3):
        opt.zero_grad()
        w = master.weight.bfloat16()
        b = master.bias.bfloat16()
        out = T.nn.functional.linear(x, w, b)
        out.float().pow(2).mean().backward()
        opt.step()
    return master.weight.detach(), master.weight.grad.dtype, out.grad_fn


# --- autocast --------------------------------------------------------------------------------


@program()
def prog_bf_autocast_cpu_default_dtype(T: Any) -> Any:
    with T.autocast("cpu") as ac:
        inside = (T.get_autocast_dtype("cpu"), T.is_autocast_enabled("cpu"))
    return inside, getattr(ac, "fast_dtype", None), T.get_autocast_dtype("cpu")


@program()
def prog_bf_autocast_cpu_linear_and_matmul(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(4, 3), 48)
    x = T.tensor(_data(2, 4, seed=49))
    with T.autocast("cpu"):
        y = lin(x)
        z = x @ x.t()
        r = T.relu(x)
        s = y.float().sum()
    s.backward()
    return y, z, r.dtype, y.grad_fn, lin.weight.grad, lin.weight.grad.dtype


@program()
def prog_bf_autocast_disabled_and_float16(T: Any) -> Any:
    x = T.tensor(_data(2, 2, seed=50))
    with T.autocast("cpu", enabled=False):
        a = (x @ x).dtype
    with T.autocast("cpu", dtype=T.float16):
        b = (x @ x).dtype
    with T.autocast("cpu", dtype=T.bfloat16):
        c = T.mm(x, x)
        with T.autocast("cpu", enabled=False):
            d = T.mm(x, x).dtype
    return a, b, c, d


# --- errors ----------------------------------------------------------------------------------


@program()
def prog_bf_linalg_and_fft_errors(T: Any) -> Any:
    a = _bf(T, 3, 3, seed=51) + T.eye(3, dtype=T.bfloat16) * 3
    return (
        raises(lambda: T.linalg.inv(a)),
        raises(lambda: T.linalg.det(a)),
        raises(lambda: T.linalg.solve(a, a[:, :1])),
        raises(lambda: T.linalg.cholesky(a @ a.t())),
        raises(lambda: T.linalg.qr(a)),
        raises(lambda: T.linalg.svd(a)),
        raises(lambda: T.linalg.eigh(a)),
        raises(lambda: T.fft.fft(a)),
        raises(lambda: T.fft.rfft(a)),
        raises(lambda: T.cdist(a, a)),
        raises(lambda: T.cdist(a.half(), a.half(), p=1)),
        T.cdist(a[:0], a),
        T.cdist(T.ones(30, 3, dtype=T.bfloat16), T.ones(30, 3, dtype=T.bfloat16)).shape,
        T.linalg.vector_norm(a),
        T.linalg.matrix_norm(a),
        T.trace(a),
        T.diag(a),
    )


@program()
def prog_bf_inplace_dtype_errors(T: Any) -> Any:
    x = T.ones(2, dtype=T.bfloat16)
    i = T.ones(2, dtype=T.int64)
    return (
        raises(lambda: i.add_(x)),
        raises(lambda: i.mul_(T.tensor(0.5, dtype=T.bfloat16))),
        raises(lambda: x.add_(T.ones(2, dtype=T.complex64))),
        x.add_(T.ones(2, dtype=T.float64)).dtype,
        x.add_(T.tensor([1, 2])).dtype,
        raises(lambda: T.ones(2, dtype=T.bool).add_(x)),
        raises(lambda: x.lerp(T.ones(2), 0.5)),
        raises(lambda: T.addcmul(x, x.float(), x)),
    )


@program()
def prog_bf_set_default_dtype(T: Any) -> Any:
    def run() -> Any:
        T.set_default_dtype(T.bfloat16)
        try:
            return T.tensor([1 / 3]).dtype, T.ones(1).dtype, (T.ones(1, dtype=T.int64) * 0.5).dtype
        finally:
            T.set_default_dtype(T.float32)

    return raises(run), T.get_default_dtype()


@program()
def prog_bf_out_arguments(T: Any) -> Any:
    x = _bf(T, 3, seed=52)
    out = T.empty(3, dtype=T.bfloat16)
    T.add(x, 0.1, out=out)
    o2 = T.empty(3)
    T.mul(x, 3, out=o2)
    o3 = T.empty(0, dtype=T.bfloat16)
    T.exp(x, out=o3)
    return _bits(out), o2, o3, raises(lambda: T.add(x, 1, out=T.empty(3, dtype=T.int64)))


@program()
def prog_bf_warnings_and_misc(T: Any) -> Any:
    x = T.ones(2, dtype=T.bfloat16, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = x.to(T.complex64)
        z = T.tensor(x)
    return y, z.dtype, z.requires_grad, [str(i.message)[:50] for i in w]


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
