"""Realistic programs: the linear-algebra and complex gaps found across this session's files.
The BLAS-like ops (addmm, addmv, addr, baddbmm, addbmm) on integer, bool, half and complex
tensors with float, bool and complex beta/alpha; torch.cross without dim; complex gradients of
renorm, logaddexp and logcumsumexp; the pointwise ops, activations and losses torch refuses for
complex inputs; vector_norm, matrix_norm, linalg.norm, torch.norm and torch.dist on complex and
integer inputs with dtype= and out=, and their error messages. The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and on
shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _gc

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _c(T: Any, *shape: int, seed: int = 0, rg: bool = False, dt: str = "complex128") -> Any:
    """A complex tensor of fixed values (the same for both libraries)."""
    r = np.random.default_rng(seed)
    v = r.standard_normal(shape) + 1j * r.standard_normal(shape)
    return T.tensor(v, dtype=getattr(T, dt), requires_grad=rg)


def _f(T: Any, *shape: int, seed: int = 0, rg: bool = False, dt: str = "float32") -> Any:
    return T.tensor(_data(*shape, seed=seed), dtype=getattr(T, dt), requires_grad=rg)


def _i(T: Any, *shape: int, dt: str = "int64", lo: int = -3, hi: int = 4, seed: int = 0) -> Any:
    v = np.random.default_rng(seed).integers(lo, hi, shape)
    return T.tensor(v, dtype=getattr(T, dt))


# --- 1. torch.cross without dim ------------------------------------------------------------


@program(warnings=False)  # torch warns once a process: which program sees it depends on order
def prog_lgp_cross_without_dim_needs_a_size3_dim(T: Any) -> Any:
    return {
        "no3": raises(lambda: T.cross(T.ones(2, 4), T.ones(2, 4))),
        "no3_1d": raises(lambda: T.cross(T.ones(4), T.ones(4))),
        "linalg": raises(lambda: T.linalg.cross(T.ones(2, 4), T.ones(2, 4))),
        "explicit": raises(lambda: T.cross(T.ones(3, 4), T.ones(3, 4), dim=1)),
    }


@program(warnings=False)
def prog_lgp_cross_default_dim_is_inputs_own(T: Any) -> Any:
    # the first size-3 dim of input's own shape, not of the broadcast shape
    a = T.arange(3.0).reshape(1, 3).requires_grad_()
    b = T.arange(9.0).reshape(3, 3)
    y = T.cross(a, b)
    y.pow(2).sum().backward()
    return {
        "y": y,
        "grad": a.grad,
        "fn": y.grad_fn.name(),
        "swapped": raises(lambda: T.cross(b, a.detach())),  # dim 0 of b: 3 against 1
        "mismatch": raises(lambda: T.cross(T.ones(3, 3), T.ones(2, 3))),
        "len": raises(lambda: T.cross(T.ones(3, 4), T.ones(4, 4))),
    }


@program(warnings=False)
def prog_lgp_cross_complex_torque_grad(T: Any) -> Any:
    r = _c(T, 2, 3, rg=True)
    f = _c(T, 2, 3, seed=1, rg=True)
    tau = T.cross(r, f)
    (tau.abs() ** 2).sum().backward()
    return tau, r.grad, f.grad, tau.grad_fn.name()


# --- 2. addmm and friends: scalars read in the tensors' type ---------------------------------


@program()
def prog_lgp_addmm_integer_counts_truncate_float_scalars(T: Any) -> Any:
    # co-occurrence counts kept in int64: torch truncates beta/alpha to integers
    x = _i(T, 3, 4, lo=0, hi=3)
    bias = _i(T, 3, 3, lo=0, hi=2, seed=1)
    return {
        "ab": T.addmm(bias, x, x.t(), beta=2.5, alpha=1.5),
        "neg": T.addmm(bias, x, x.t(), beta=-2.5, alpha=0.5),
        "bool_beta": T.addmm(bias, x, x.t(), beta=True),
        "bool_alpha": T.addmm(bias, x, x.t(), alpha=False),
        "cplx_real": T.addmm(bias, x, x.t(), alpha=2 + 0j),
        "zero_float": T.addmm(bias, x, x.t(), beta=0.0),
    }


@program()
def prog_lgp_addmm_int32_and_uint8_wrap(T: Any) -> Any:
    a = _i(T, 2, 2, dt="int32")
    u = T.ones(2, 2, dtype=T.uint8)
    return {
        "i32": T.addmm(a, a, a, beta=-2.5, alpha=0.5),
        "u8_neg": T.addmm(u, u, u, beta=-1),
        "u8_big": raises(lambda: T.addmm(u, u, u, alpha=300)),
        "u8_255": T.addmm(u, u, u, alpha=255),
        "i8": T.addmm(a.to(T.int8), a.to(T.int8), a.to(T.int8), alpha=1.9),
    }


@program()
def prog_lgp_addmm_integer_inplace_and_out(T: Any) -> Any:
    a = _i(T, 2, 3)
    m = _i(T, 2, 4, seed=1)
    n = _i(T, 4, 3, seed=2)
    b = a.clone()
    b.addmm_(m, n, beta=0.5, alpha=2.7)
    o = T.empty(2, 3, dtype=T.int64)
    T.addmm(a, m, n, beta=3.9, alpha=-1.2, out=o)
    o2 = T.empty(0, dtype=T.int64)
    T.addmv(a[:, 0], m[:, :3], n[0], beta=1.5, out=o2)
    return {"inplace": b, "out": o, "addmv_out": o2}


@program()
def prog_lgp_addmv_baddbmm_addbmm_integer_scalars(T: Any) -> Any:
    m = _i(T, 3, 4)
    v = _i(T, 4, seed=1)
    b1 = _i(T, 2, 3, 4, seed=2)
    b2 = _i(T, 2, 4, 2, seed=3)
    return {
        "addmv": T.addmv(_i(T, 3, seed=4), m, v, beta=2.5, alpha=1.5),
        "baddbmm": T.baddbmm(_i(T, 2, 3, 2, seed=5), b1, b2, beta=1.9, alpha=-1.9),
        "addbmm": T.addbmm(_i(T, 3, 2, seed=6), b1, b2, beta=0.5, alpha=3.5),
        "method": _i(T, 3, 2).baddbmm(b1[:1].expand(1, 3, 4), b2[:1], alpha=2.2),
    }


@program()
def prog_lgp_blas_complex_scalar_needs_complex_tensors(T: Any) -> Any:
    f = T.ones(2, 2)
    i = T.ones(2, 2, dtype=T.int64)
    c = T.ones(2, 2, dtype=T.complex64)
    return {
        "int": raises(lambda: T.addmm(i, i, i, beta=1j)),
        "float": raises(lambda: T.addmm(f, f, f, alpha=1 + 2j)),
        "double": raises(lambda: T.addmv(f[0].double(), f.double(), f[0].double(), beta=1j)),
        "u8": raises(lambda: T.baddbmm(i[None].byte(), i[None].byte(), i[None].byte(), beta=1j)),
        "cplx": T.addmm(c, c, c, beta=1j, alpha=2 - 1j),
        "real_part_only": T.addmm(f, f, f, beta=2 + 0j),
    }


@program()
def prog_lgp_blas_bool_tensors_not_implemented(T: Any) -> Any:
    b = T.ones(2, 2, dtype=T.bool)
    return {
        "addmm": raises(lambda: T.addmm(b, b, b)),
        "addmv": raises(lambda: T.addmv(b[0], b, b[0], beta=0.5)),
        "baddbmm": raises(lambda: T.baddbmm(b[None], b[None], b[None])),
        "addbmm": raises(lambda: T.addbmm(b, b[None], b[None], alpha=2)),
        "addr": T.addr(b, b[0], b[1], beta=2, alpha=0),
        "addr_false": T.addr(b, b[0], b[1], beta=False),
    }


@program()
def prog_lgp_addr_scalar_rules(T: Any) -> Any:
    i = _i(T, 2, 3)
    v1, v2 = _i(T, 2, seed=1), _i(T, 3, seed=2)
    f = T.ones(2, 3)
    c = T.ones(2, 3, dtype=T.complex64)
    return {
        "int_float": raises(lambda: T.addr(i, v1, v2, beta=2.5)),
        "int_cplx": raises(lambda: T.addr(i, v1, v2, alpha=2 + 0j)),
        "int_bool": raises(lambda: T.addr(i, v1, v2, beta=True)),
        "float_bool": raises(lambda: T.addr(f, f[:, 0], f[0], alpha=False)),
        "cplx_bool": raises(lambda: T.addr(c, c[:, 0], c[0], beta=True)),
        "float_cplx": raises(lambda: T.addr(f, f[:, 0], f[0], beta=1j)),
        "float_cplx_real": T.addr(f, f[:, 0], f[0], alpha=2 + 0j),
        "u8_neg": T.addr(i.byte(), v1.byte(), v2.byte(), beta=-1),
        "inplace": i.clone().addr_(v1, v2, beta=-2, alpha=3),
        "inplace_bad": raises(lambda: i.clone().addr_(v1, v2, alpha=True)),
    }


@program()
def prog_lgp_addmm_float_grads_with_bool_and_complex_real_scalars(T: Any) -> Any:
    x = _f(T, 3, 4, rg=True)
    w = _f(T, 4, 2, seed=1, rg=True)
    b = _f(T, 2, seed=2, rg=True)
    y = T.addmm(b, x, w, beta=True, alpha=2)
    y.sum().backward()

    def bw(op: str, **kw: Any) -> Any:
        # a real-valued complex scalar: the forward reads its real part, but the backward
        # multiplies by the complex scalar, and a complex gradient for a real input is an error
        xx, ww, bb = (t.detach().requires_grad_() for t in (x, w, b))
        if op == "addmm":
            z = T.addmm(bb, xx, ww, **kw)
        elif op == "addmv":
            z = T.addmv(bb, ww.t(), xx[0], **kw)
        else:
            z = T.addr(xx[:2, :2], bb, ww[0], **kw)
        return z, raises(lambda: z.sum().backward()), xx.grad, ww.grad, bb.grad

    return {
        "y": y,
        "grads": (x.grad, w.grad, b.grad),
        "fn": y.grad_fn.name(),
        "beta": bw("addmm", beta=2 + 0j),
        "alpha": bw("addmm", alpha=-1 + 0j),
        "one": bw("addmm", beta=1 + 0j),
        "addmv": bw("addmv", alpha=3 + 0j),
        "addr": bw("addr", alpha=2 + 0j),
        "addr_shape": raises(lambda: T.addr(x[:, 0], x[0], w[0])),
        "addmm_rank": raises(lambda: T.addmm(T.ones(2, 3, 2), x, w)),
    }


@program()
def prog_lgp_half_addmv_and_addmm_scalars(T: Any) -> Any:
    m = _f(T, 3, 4, dt="float16")
    v = _f(T, 4, seed=1, dt="float16")
    return {
        "addmv": T.addmv(_f(T, 3, seed=2, dt="float16"), m, v, beta=2.5, alpha=-1.5),
        "addmm": T.addmm(_f(T, 3, 1, seed=3, dt="float16"), m, m.t(), alpha=0.3),
        "addmv_big": raises(lambda: T.addmv(v[:3], m, v, beta=1e40)),
        "addmm_big": raises(lambda: T.addmm(m, m, m.t()[:4, :4], beta=1e40)),
    }


@program()
def prog_lgp_complex_linear_layer_by_addmm(T: Any) -> Any:
    x = _c(T, 4, 3, rg=True)
    w = _c(T, 3, 2, seed=1, rg=True)
    b = _c(T, 2, seed=2, rg=True)
    y = T.addmm(b, x, w, beta=0.5j, alpha=1 - 1j)
    (y.real**2 + y.imag).sum().backward()
    return y, x.grad, w.grad, b.grad


# --- 3. renorm: complex gradients -------------------------------------------------------------


@program()
def prog_lgp_renorm_complex_embedding_rows(T: Any) -> Any:
    out = {}
    for p in (1.0, 2.0, 3.0, float("inf")):
        x = _c(T, 3, 4, rg=True)
        y = T.renorm(x, p, 0, 1.5)
        (y.abs() ** 2 + y.real).sum().backward()
        out[str(p)] = (y, x.grad, y.grad_fn.name())
    return out


@program()
def prog_lgp_renorm_complex_dim1_and_complex64(T: Any) -> Any:
    x = _c(T, 3, 4, rg=True)
    y = x.renorm(2, 1, 1.0)
    (y * T.arange(4.0)).real.sum().backward()
    z = _c(T, 3, 4, seed=3, dt="complex64", rg=True)
    w = z.renorm(3, 0, 0.5)
    w.abs().sum().backward()
    return y, x.grad, w, z.grad


@program()
def prog_lgp_renorm_complex_gradcheck(T: Any) -> Any:
    x = _c(T, 2, 3, rg=True)
    return {
        "gc2": _gc(lambda: T.autograd.gradcheck(lambda a: T.renorm(a, 2, 1, 1.0), (x,))),
        "gc3": _gc(lambda: T.autograd.gradcheck(lambda a: T.renorm(a, 3, 0, 0.5), (x,))),
        "ggc": _gc(lambda: T.autograd.gradgradcheck(lambda a: T.renorm(a, 2, 0, 0.7), (x,))),
    }


@program(warnings=False)  # torch's first forward-AD formula may warn from its jit internals
def prog_lgp_renorm_complex_forward_ad(T: Any) -> Any:
    fa = T.autograd.forward_ad
    x, t = _c(T, 2, 3), _c(T, 2, 3, seed=1)
    with fa.dual_level():
        y = T.renorm(fa.make_dual(x, t), 2, 0, 1.0)
        return fa.unpack_dual(y).tangent


@program()
def prog_lgp_renorm_errors(T: Any) -> Any:
    return {
        "int": raises(lambda: T.renorm(T.ones(2, 2, dtype=T.int64), 2, 0, 1)),
        "1d": raises(lambda: T.renorm(T.ones(3, dtype=T.complex64), 2, 0, 1)),
        "neg_p": raises(lambda: T.renorm(T.ones(2, 2, dtype=T.complex64), -1, 0, 1)),
        "under": T.renorm(_c(T, 2, 2) * 0.01, 2, 0, 1.0),
    }


# --- 4. complex inputs torch refuses ----------------------------------------------------------


@program()
def prog_lgp_xlogy_complex_refused(T: Any) -> Any:
    c = _c(T, 3, dt="complex64")
    f = T.ones(3)
    return {
        "tt": raises(lambda: T.xlogy(c, c)),
        "ts": raises(lambda: T.xlogy(c, 2.0)),
        "st": raises(lambda: T.xlogy(2.0, c)),
        "mixed": raises(lambda: T.xlogy(f, c)),
        "special": raises(lambda: T.special.xlogy(c, f)),
        "method": raises(lambda: c.xlogy(f)),
        "inplace": raises(lambda: c.clone().xlogy_(f)),
        "scalar_cplx": raises(lambda: T.xlogy(f, 1j)),
        "real": T.xlogy(f * 2, f * 3),
    }


@program()
def prog_lgp_erf_family_complex_refused(T: Any) -> Any:
    c = _c(T, 3, dt="complex64")
    return {
        "erf": raises(lambda: T.erf(c)),
        "erfc": raises(lambda: T.erfc(c)),
        "erfinv": raises(lambda: T.erfinv(c)),
        "special_erf": raises(lambda: T.special.erf(c)),
        "ndtr": raises(lambda: T.special.ndtr(c)),
        "logit": raises(lambda: T.logit(c)),
        "logit_eps": raises(lambda: T.logit(c, 1e-3)),
        "frac": raises(lambda: T.frac(c)),
        "erf_inplace": raises(lambda: c.clone().erf_()),
    }


@program()
def prog_lgp_binary_ops_complex_refused(T: Any) -> Any:
    c = _c(T, 3, dt="complex64")
    d = _c(T, 3, seed=1, dt="complex128")
    f = T.ones(3)
    out = {}
    for name in ("fmod", "remainder", "atan2", "hypot", "copysign", "logaddexp2", "floor_divide"):
        fn = getattr(T, name)
        out[name] = (
            raises(lambda fn=fn: fn(c, c)),
            raises(lambda fn=fn: fn(f, d)),
            raises(lambda fn=fn: fn(d, f)),
        )
    out["fmod_s"] = raises(lambda: T.fmod(c, 2.0))
    out["rem_s"] = raises(lambda: T.remainder(c, 2))
    out["copysign_s"] = raises(lambda: T.copysign(c, -1.0))
    out["div_floor"] = raises(lambda: T.div(c, 2.0, rounding_mode="floor"))
    out["div_trunc"] = raises(lambda: T.div(f, c, rounding_mode="trunc"))
    out["mod_op"] = raises(lambda: c % 2)
    out["floordiv_op"] = raises(lambda: c // 2)
    out["true_div"] = T.div(c, c)
    return out


@program()
def prog_lgp_clamp_family_complex_refused(T: Any) -> Any:
    c = _c(T, 3, dt="complex64")
    f = T.ones(3)
    return {
        "clamp": raises(lambda: T.clamp(c, min=0.0)),
        "clamp_min": raises(lambda: T.clamp_min(c, 1.0)),
        "clamp_max": raises(lambda: c.clamp_max(1.0)),
        "clamp_max_": raises(lambda: c.clone().clamp_max_(1.0)),
        "clamp_min_t": raises(lambda: T.clamp_min(f, c)),
        "clamp_max_t": raises(lambda: T.clamp_max(c, f)),
        "clamp_t_min": raises(lambda: T.clamp(f, c)),
        "clamp_t_max": raises(lambda: T.clamp(f, None, c)),
        "clamp_t_both": raises(lambda: T.clamp(f, c, c)),
        "relu": raises(lambda: T.relu(c)),
        "relu_": raises(lambda: c.clone().relu_()),
        "F_relu": raises(lambda: T.nn.functional.relu(c)),
        "module": raises(lambda: T.nn.ReLU()(c)),
        "real": T.clamp_min(f * -1, f * 0.5),
    }


@program()
def prog_lgp_isinf_family_and_unique_complex(T: Any) -> Any:
    inf = float("inf")
    c = T.tensor([complex(inf, 0), 1 + 1j, 1 + 1j, complex(0, -inf)])
    return {
        "isinf": T.isinf(c),
        "isposinf": raises(lambda: T.isposinf(c)),
        "isneginf": raises(lambda: T.isneginf(c)),
        "isfinite": T.isfinite(c),
        "unique": raises(lambda: T.unique(c)),
        "unique_counts": raises(lambda: c.unique(return_counts=True)),
        "unique_dim": raises(lambda: T.unique(c[None], dim=1)),
        "consecutive": raises(lambda: T.unique_consecutive(c)),
        "consecutive_dim": raises(lambda: T.unique_consecutive(c[None], dim=1)),
        "real_unique": T.unique(c.real),
    }


@program()
def prog_lgp_histc_unsupported_dtypes(T: Any) -> Any:
    c = _c(T, 4, dt="complex64")
    return {
        "cplx": raises(lambda: T.histc(c)),
        "cplx_range": raises(lambda: T.histc(c, bins=3, min=0, max=1)),
        "int": raises(lambda: T.histc(T.arange(4))),
        "int_range": raises(lambda: T.histc(T.arange(4), 2, 0, 3)),
        "bool": raises(lambda: T.histc(T.ones(3, dtype=T.bool))),
        "float": T.histc(T.arange(4.0), 2),
    }


@program()
def prog_lgp_losses_complex_refused(T: Any) -> Any:
    F = T.nn.functional
    c = _c(T, 3, dt="complex64")
    f = T.ones(3)
    i = T.ones(3, dtype=T.int64)
    out = {}
    for name in ("mse_loss", "smooth_l1_loss", "huber_loss"):
        fn = getattr(F, name)
        out[name] = [
            raises(lambda fn=fn, a=a, b=b: fn(a, b))
            for a, b in ((c, c), (f, c), (c, f), (i, i), (i, c), (i, f * 0.5), (f, i))
        ]
    out["mse_module"] = raises(lambda: T.nn.MSELoss()(c, c))
    out["l1"] = F.l1_loss(c, c * 2)
    return out


@program()
def prog_lgp_complex_model_fit_hits_mse_refusal(T: Any) -> Any:
    # a user fits a complex linear model and reaches for mse_loss: torch refuses; |e|^2 works
    x = _c(T, 5, 2)
    w = _c(T, 2, 1, seed=1, rg=True)
    target = _c(T, 5, 1, seed=2)
    pred = x @ w
    err = raises(lambda: T.nn.functional.mse_loss(pred, target))
    loss = (pred - target).abs().pow(2).mean()
    loss.backward()
    return err, loss, w.grad


@program()
def prog_lgp_logaddexp_complex_values_and_grads(T: Any) -> Any:
    a = _c(T, 4, rg=True)
    b = _c(T, 4, seed=1, rg=True)
    y = T.logaddexp(a, b)
    (y.real.sum() + y.imag.pow(2).sum()).backward()
    return y, a.grad, b.grad, y.grad_fn.name()


@program()
def prog_lgp_logaddexp_complex_special_values(T: Any) -> Any:
    inf, nan = float("inf"), float("nan")
    a = T.tensor([complex(inf, 1), complex(-inf, 1), complex(nan, 0), 1 + 1j, complex(inf, 0)])
    b = T.tensor([complex(inf, 2), complex(-inf, 3), 1 + 0j, complex(0, nan), 1 + 0j])
    return {
        "special": T.logaddexp(a, b),
        "mixed": T.logaddexp(T.tensor([1.0, 2.0]), T.tensor([1j, 2 + 1j])),
        "c64": T.logaddexp(_c(T, 3, dt="complex64"), _c(T, 3, seed=2, dt="complex64")),
        "tie": T.logaddexp(T.tensor([1 + 3j]), T.tensor([1 - 3j])),
    }


@program(warnings=False)  # torch's first forward-AD formula may warn from its jit internals
def prog_lgp_logaddexp_complex_gradcheck_and_forward_ad(T: Any) -> Any:
    fa = T.autograd.forward_ad
    a, b = _c(T, 3, rg=True), _c(T, 3, seed=1, rg=True)
    gc = _gc(lambda: T.autograd.gradcheck(T.logaddexp, (a, b)))
    ggc = _gc(lambda: T.autograd.gradgradcheck(T.logaddexp, (a[:2], b[:2])))
    with fa.dual_level():
        y = T.logaddexp(fa.make_dual(a.detach(), _c(T, 3, seed=3)), b.detach())
        tan = fa.unpack_dual(y).tangent
    return gc, ggc, tan


@program()
def prog_lgp_logcumsumexp_complex(T: Any) -> Any:
    a = _c(T, 4, 3, rg=True)
    y = T.logcumsumexp(a, 0)
    y.abs().sum().backward()
    b = _c(T, 2, 5, seed=1, rg=True)
    z = b.logcumsumexp(1)
    (z.real * 2 + z.imag).sum().backward()
    return y, a.grad, y.grad_fn.name(), z, b.grad


@program()
def prog_lgp_logcumsumexp_complex_special_and_gradcheck(T: Any) -> Any:
    inf = float("inf")
    s = T.tensor([complex(-inf, 1), 1 + 1j, complex(inf, 0), 2 + 0j])
    a = _c(T, 3, rg=True)
    return {
        "special": T.logcumsumexp(s, 0),
        "c64": T.logcumsumexp(_c(T, 6, dt="complex64"), 0),
        "gc": _gc(lambda: T.autograd.gradcheck(lambda x: T.logcumsumexp(x, 0), (a,))),
        "int": raises(lambda: T.logcumsumexp(T.arange(3), 0)),
    }


@program()
def prog_lgp_logsumexp_complex_attention_scores(T: Any) -> Any:
    s = _c(T, 2, 3, rg=True)
    lse = T.logsumexp(s, 1)
    lse.abs().sum().backward()
    return lse, s.grad


@program()
def prog_lgp_complex_ops_that_do_work(T: Any) -> Any:
    c = _c(T, 3, rg=True)
    ys = {
        "sgn": c.sgn(),
        "angle": c.angle(),
        "sinc": T.sinc(c),
        "rsqrt": c.rsqrt(),
        "log1p": c.log1p(),
        "sigmoid": c.sigmoid(),
        "tanh": c.tanh(),
    }
    total = sum((v.abs().sum() for v in ys.values()), T.zeros(()))
    total.backward()
    return ys, c.grad


# --- 5. norms on complex and integer inputs ---------------------------------------------------


@program()
def prog_lgp_vector_norm_complex_orders_and_grads(T: Any) -> Any:
    out = {}
    for o in (0, 1, 2, 3, -1, float("inf"), -float("inf"), 0.5):
        x = _c(T, 2, 3, rg=True)
        n = T.linalg.vector_norm(x, o, dim=1)
        if o != 0:
            n.sum().backward()
        out[str(o)] = (n, x.grad, n.grad_fn.name())
    return out


@program()
def prog_lgp_vector_norm_dtype_rules(T: Any) -> Any:
    c = _c(T, 2, 3, dt="complex64")
    f = _f(T, 2, 3)
    i = _i(T, 2, 3)
    vn = T.linalg.vector_norm
    return {
        "c128": vn(c, dtype=T.complex128),
        "c_f64": raises(lambda: vn(c, dtype=T.float64)),
        "c_f32": raises(lambda: vn(c, dtype=T.float32)),
        "f_c": raises(lambda: vn(f, dtype=T.complex64)),
        "f_f16": raises(lambda: vn(f, dtype=T.float16)),
        "f64_f32": raises(lambda: vn(f.double(), dtype=T.float32)),
        "f_f64": vn(f, dtype=T.float64),
        "f_int": raises(lambda: vn(f, dtype=T.int64)),
        "int": raises(lambda: vn(i)),
        "int_f32": raises(lambda: vn(i, dtype=T.float32)),
        "int_int": raises(lambda: vn(i, dtype=T.int64)),
        "bool": raises(lambda: vn(i > 0)),
        "c_dim_keep": vn(c, 1, dim=0, keepdim=True, dtype=T.complex128),
    }


@program()
def prog_lgp_vector_norm_ord_argument_errors(T: Any) -> Any:
    f = _f(T, 3)
    vn = T.linalg.vector_norm
    return {
        "cplx": raises(lambda: vn(f, 1j)),
        "cplx_int_input": raises(lambda: vn(T.arange(3), 1j)),
        "cplx_before_dtype": raises(lambda: vn(f, 1j, dtype=T.int64)),
        "cplx_empty": raises(lambda: vn(T.empty(0), 1j)),
        "empty_inf_dtype": raises(lambda: vn(T.empty(0), float("inf"), dtype=T.complex64)),
        "str": raises(lambda: vn(f, "fro")),
        "str_int": raises(lambda: vn(T.arange(3), "fro")),
        "huge": raises(lambda: vn(f, 2**70)),
        "dist_cplx": raises(lambda: T.dist(f, f, 1j)),
        "norm_cplx": raises(lambda: T.norm(f, 1j)),
    }


@program()
def prog_lgp_vector_norm_out_dtype_is_exact(T: Any) -> Any:
    c = _c(T, 2, 3, dt="complex64")
    f = _f(T, 2, 3)
    o = T.empty(0)
    T.linalg.vector_norm(c, out=o)
    return {
        "ok": o,
        "cplx_out": raises(lambda: T.linalg.vector_norm(c, out=T.empty(0, dtype=T.complex64))),
        "f64_out": raises(lambda: T.linalg.vector_norm(c, out=T.empty(0, dtype=T.float64))),
        "norm_out": raises(lambda: T.norm(f, out=T.empty(0, dtype=T.float64))),
        "norm_p_out": raises(lambda: T.norm(f, 1, dim=1, out=T.empty(0, dtype=T.float64))),
        "norm_cplx_out": raises(lambda: T.norm(c, out=T.empty(0, dtype=T.complex64))),
        "norm_nuc_out": raises(lambda: T.norm(f, "nuc", out=T.empty(0, dtype=T.float64))),
    }


@program()
def prog_lgp_half_norms_accumulate_in_float(T: Any) -> Any:
    h = T.full((3,), 300.0, dtype=T.float16)
    return {
        "vn": T.linalg.vector_norm(h),
        "vn3": T.linalg.vector_norm(h / 10, 3),
        "vn1_inf": T.linalg.vector_norm(T.full((3000,), 30.0, dtype=T.float16), 1),
        "fro": T.linalg.matrix_norm(T.full((3, 3), 300.0, dtype=T.float16)),
        "norm": T.norm(h),
        "dist": T.dist(h, T.zeros(3, dtype=T.float16)),
    }


@program()
def prog_lgp_matrix_norm_complex_orders(T: Any) -> Any:
    out = {}
    for o in ("fro", "nuc", 2, -2, 1, -1, float("inf"), -float("inf")):
        a = _c(T, 3, 3, rg=True)
        n = T.linalg.matrix_norm(a, o)
        n.backward()
        out[str(o)] = (n, a.grad, n.grad_fn.name())
    return out


@program()
def prog_lgp_matrix_norm_check_order(T: Any) -> Any:
    mn = T.linalg.matrix_norm
    i = _i(T, 2, 2)
    f = _f(T, 2, 2)
    c = _c(T, 2, 2, dt="complex64")
    return {
        "int": raises(lambda: mn(i)),
        "int_nuc": raises(lambda: mn(i, "nuc")),
        "int_dtype": raises(lambda: mn(i, dtype=T.float32)),
        "int_bad_ord": raises(lambda: mn(i, 3)),
        "int_bad_str": raises(lambda: mn(i, "abc")),
        "float_ord": raises(lambda: mn(f, 3.0)),
        "frac_ord": raises(lambda: mn(f, 2.5)),
        "1d_int": raises(lambda: mn(T.ones(2, dtype=T.int64))),
        "int_same_dims": raises(lambda: mn(i, dim=(0, 0))),
        "same_dims_dtype": raises(lambda: mn(f, dim=(0, 0), dtype=T.int64)),
        "dtype_int": raises(lambda: mn(f, dtype=T.int64)),
        "c_f64": raises(lambda: mn(c, dtype=T.float64)),
        "c_1_f64": raises(lambda: mn(c, 1, dtype=T.float64)),
        "f_c": raises(lambda: mn(f, dtype=T.complex64)),
        "narrow": raises(lambda: mn(c.to(T.complex128), dtype=T.complex64)),
        "c128": mn(c, "nuc", dtype=T.complex128),
        "c128_2": mn(c, 2, dtype=T.complex128),
    }


@program()
def prog_lgp_matrix_norm_out_and_half(T: Any) -> Any:
    mn = T.linalg.matrix_norm
    f = _f(T, 2, 2)
    h = f.half()
    return {
        "out_f64": raises(lambda: mn(f, out=T.empty(0, dtype=T.float64))),
        "out_c": raises(lambda: mn(f.to(T.complex64), out=T.empty(0, dtype=T.complex64))),
        "out_2": raises(lambda: mn(f, 2, out=T.empty(0, dtype=T.float64))),
        "out_nuc": raises(lambda: mn(f, "nuc", out=T.empty(0, dtype=T.float64))),
        "half_nuc": raises(lambda: mn(h, "nuc")),
        "half_2": raises(lambda: mn(h, 2)),
        "half_m2": raises(lambda: mn(h, -2)),
        "half_2_dtype": raises(lambda: mn(h, 2, dtype=T.float32)),
        "half_fro": mn(h),
        "half_1": mn(h, 1),
        "half_inf": mn(h, float("inf")),
    }


@program()
def prog_lgp_linalg_norm_dispatch_and_errors(T: Any) -> Any:
    ln = T.linalg.norm
    c = _c(T, 2, 3, dt="complex64")
    x3 = T.ones(2, 2, 2)
    return {
        "c": ln(c),
        "c_fro": ln(c, "fro"),
        "c_nuc": ln(c, "nuc"),
        "c_2": ln(c, 2),
        "c_2_1d": ln(c[0], 2),
        "c_dtype": ln(c, dtype=T.complex128),
        "c_dtype_f": raises(lambda: ln(c, dtype=T.float64)),
        "c_ord_dtype": ln(c, 1, dtype=T.complex128),
        "int": raises(lambda: ln(T.ones(2, 2, dtype=T.int64))),
        "int_ord": raises(lambda: ln(T.ones(2, 2, dtype=T.int64), 1)),
        "dim3": raises(lambda: ln(x3, 2, dim=(0, 1, 2))),
        "dim3_none": raises(lambda: ln(x3, dim=(0, 1, 2))),
        "dim3_str": raises(lambda: ln(x3, "fro", dim=(0, 1, 2))),
        "dim0": raises(lambda: ln(x3, dim=())),
        "str_3d": raises(lambda: ln(x3, "fro")),
        "ord_3d": raises(lambda: ln(x3, 2)),
        "str_1d": raises(lambda: ln(T.ones(2), "fro")),
        "3d_all": ln(x3),
        "neg_dims": ln(T.ones(2, 3, 4), 1, dim=(-1, 0)),
        "str_dim1": raises(lambda: ln(T.ones(2, 3, 4), "fro", dim=1)),
    }


@program()
def prog_lgp_linalg_norm_out_dtype(T: Any) -> Any:
    ln = T.linalg.norm
    f = T.ones(2, 2)
    o = T.empty(0)
    ln(f, out=o)
    return {
        "ok": o,
        "f64": raises(lambda: ln(f, out=T.empty(0, dtype=T.float64))),
        "c": raises(lambda: ln(f.to(T.complex64), out=T.empty(0, dtype=T.complex64))),
        "vec": raises(lambda: ln(T.ones(3), out=T.empty(0, dtype=T.float64))),
        "vec_ord": raises(lambda: ln(T.ones(3), 1, out=T.empty(0, dtype=T.float64))),
        "dim1": raises(lambda: ln(f, dim=1, out=T.empty(0, dtype=T.float64))),
        "3d": raises(lambda: ln(T.ones(2, 2, 2), out=T.empty(0, dtype=T.float64))),
    }


@program()
def prog_lgp_torch_norm_complex_and_integer(T: Any) -> Any:
    c = _c(T, 2, 3, dt="complex64")
    i = _i(T, 2, 3)
    f = _f(T, 2, 3)
    return {
        "c": T.norm(c),
        "c_p1": T.norm(c, 1),
        "c_inf": T.norm(c, float("inf")),
        "c_fro_dim": T.norm(c, "fro", dim=1),
        "c_nuc": T.norm(c, "nuc"),
        "c_dtype": T.norm(c, dtype=T.complex128),
        "c_dtype_f": raises(lambda: T.norm(c, dtype=T.float64)),
        "c_dim_dtype": T.norm(c, 2, dim=1, dtype=T.complex128),
        "meth": c.norm(),
        "meth_p0": c.norm(p=0),
        "int": raises(lambda: T.norm(i)),
        "int_p": raises(lambda: T.norm(i, 2, dim=1)),
        "int_dtype": raises(lambda: T.norm(i, dtype=T.float32)),
        "int_nuc": raises(lambda: T.norm(i, "nuc")),
        "bool": raises(lambda: T.norm(i > 0)),
        "f_dtype_c": raises(lambda: T.norm(f, dtype=T.complex64)),
        "f_nuc_dtype": T.norm(f, "nuc", dtype=T.float64),
        "bad_str": raises(lambda: T.norm(f, "abc")),
        "fro_3dims": raises(lambda: T.norm(T.ones(2, 2, 2), "fro", dim=(0, 1, 2))),
    }


@program()
def prog_lgp_complex_grad_clipping_by_norm(T: Any) -> Any:
    # clip a complex parameter's gradient by its norm, as clip_grad_norm_ does for real ones
    w = _c(T, 3, 3, rg=True)
    x = _c(T, 3, seed=1)
    loss = (w @ x).abs().pow(2).sum()
    loss.backward()
    g = w.grad
    total = T.linalg.vector_norm(g, 2)
    coef = T.clamp(1.0 / (total + 1e-6), max=1.0)
    with T.no_grad():
        w -= 0.1 * g * coef
    return total, coef, w, T.nn.utils.clip_grad_norm_([w], 0.5)


@program()
def prog_lgp_dist_complex_and_mixed(T: Any) -> Any:
    a = _c(T, 2, 3, dt="complex64", rg=True)
    b = _c(T, 2, 3, seed=1, dt="complex64")
    d = T.dist(a, b)
    d.backward()
    return {
        "d": d,
        "grad": a.grad,
        "fn": d.grad_fn.name(),
        "p1": T.dist(a, b, 1),
        "pinf": T.dist(a, b, float("inf")),
        "p0": T.dist(a, b, 0),
        "cf": T.dist(a.detach(), T.ones(2, 3)),
        "c128": T.dist(a.detach(), b.to(T.complex128)),
        "bcast": T.dist(a.detach(), b[0]),
    }


@program()
def prog_lgp_dist_errors_in_torch_order(T: Any) -> Any:
    b = T.ones(3, dtype=T.bool)
    i = T.ones(3, dtype=T.int64)
    f = T.ones(3)
    return {
        "bool": raises(lambda: T.dist(b, b)),
        "bool_f": raises(lambda: T.dist(b, f)),
        "f_bool": raises(lambda: T.dist(f, b)),
        "int": raises(lambda: T.dist(i, i)),
        "int_f": T.dist(i, f * 0.5),
        "f_int": T.dist(f * 3, i, 1),
        "int_bool": raises(lambda: T.dist(i, b)),
        "huge_p": raises(lambda: T.dist(f, f, 2**70)),
        "str_p": raises(lambda: T.dist(f, f, "fro")),
        "int_cplx_p": raises(lambda: T.dist(i, i, 1j)),
        "shape": raises(lambda: T.dist(f, T.ones(2))),
        "f64": T.dist(f, f.double() * 2),
    }


@program()
def prog_lgp_dist_grad_through_mixed_dtypes(T: Any) -> Any:
    a = T.ones(3, requires_grad=True)
    d = T.dist(a, T.arange(3), 3)
    d.backward()
    return d, a.grad, d.grad_fn.name()


@program()
def prog_lgp_cdist_complex_refused(T: Any) -> Any:
    x = _f(T, 2, 2)
    c = x.to(T.complex64)
    return {
        "x1": raises(lambda: T.cdist(c, x)),
        "x2": raises(lambda: T.cdist(x, c)),
        "both": raises(lambda: T.cdist(c, c)),
        "dtype": raises(lambda: T.cdist(x.double(), x)),
        "pdist": T.nn.functional.pdist(x),
    }


@program()
def prog_lgp_norm_of_complex_spectrum(T: Any) -> Any:
    # the energy of a signal's spectrum equals its time-domain energy (Parseval), with grads
    x = _f(T, 8, dt="float64", rg=True)
    spec = T.fft.fft(x)
    e_freq = T.linalg.vector_norm(spec) ** 2 / 8
    e_time = T.linalg.vector_norm(x) ** 2
    (e_freq - e_time).backward()
    return e_freq, e_time, x.grad


@program()
def prog_lgp_complex_renorm_then_norm_pipeline(T: Any) -> Any:
    emb = _c(T, 5, 4, rg=True)
    idx = T.tensor([0, 2, 4, 2])
    rows = emb[idx]
    clipped = rows.renorm(2, 0, 1.0)
    n = T.linalg.vector_norm(clipped, dim=1)
    n.sum().backward()
    return clipped, n, emb.grad


@program()
def prog_lgp_integer_scores_matrix_then_norm_error(T: Any) -> Any:
    # integer features through addmm stay integer; norms on them need a float cast
    x = _i(T, 4, 3, lo=0, hi=5)
    w = _i(T, 3, 2, lo=-2, hi=3, seed=1)
    s = T.addmm(T.zeros(2, dtype=T.int64), x, w, alpha=0.5)
    return {
        "s": s,
        "norm_err": raises(lambda: T.linalg.norm(s)),
        "norm_float": T.linalg.norm(s.float()),
        "vn_dtype_err": raises(lambda: T.linalg.vector_norm(s, dtype=T.float64)),
    }


# --- neighbours: bool kernels, half vander, complex covariance ------------------------------


@program()
def prog_lgp_bool_matrices_have_no_trace_or_cross(T: Any) -> Any:
    b = T.eye(3, dtype=T.bool)
    return {
        "trace": raises(lambda: T.trace(b)),
        "trace_int": T.trace(b.long()),
        "cross": raises(lambda: T.linalg.cross(b, b)),
        "cross_int": T.linalg.cross(b.long(), b.long().flip(0)),
        "mm": raises(lambda: T.mm(b, b)),
        "dot": raises(lambda: T.dot(b[0], b[1])),
        "kron": T.kron(b[:2, :2], b[:2, :2]),
    }


@program()
def prog_lgp_vander_dtypes(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0])
    return {
        "f32": T.linalg.vander(x),
        "int": T.linalg.vander(x.long(), N=4),
        "cplx": T.linalg.vander(x.to(T.complex64) * 1j),
        "half": raises(lambda: T.linalg.vander(x.half())),
        "bool": raises(lambda: T.linalg.vander(x > 1)),
    }


@program()
def prog_lgp_complex_covariance_and_correlation(T: Any) -> Any:
    x = _c(T, 3, 5, rg=True)
    c = T.cov(x)
    r = T.corrcoef(x)
    (c.abs().sum() + r.real.sum()).backward()
    return {
        "cov": c,
        "hermitian": T.allclose(c, c.mH),
        "corr": r,
        "grad": x.grad,
        "weighted": T.cov(x.detach(), fweights=T.tensor([1, 2, 1, 1, 3])),
        "real_cov_fn": T.cov(_f(T, 2, 4, rg=True)).grad_fn.name(),
        "ones": T.corrcoef(T.ones(2, 3, dtype=T.complex64)),
    }


@program()
def prog_lgp_clip_grads_of_complex_parameters(T: Any) -> Any:
    p = _c(T, 3, rg=True)
    q = _f(T, 2, rg=True)
    ((p * _c(T, 3, seed=1)).abs().sum() + q.pow(2).sum()).backward()
    total = T.nn.utils.clip_grad_norm_([p, q], 1.0)
    after_norm = (p.grad.clone(), q.grad.clone())
    err = raises(lambda: T.nn.utils.clip_grad_value_([q, p], 0.1))
    return total, after_norm, err, q.grad, p.grad


@program()
def prog_lgp_logaddexp_and_xlogy_integer_inputs(T: Any) -> Any:
    i = T.arange(3)
    b = i > 0
    return {
        "lae_int": raises(lambda: T.logaddexp(i, i)),
        "lae_bool": raises(lambda: T.logaddexp(b, b)),
        "lae_int_c": T.logaddexp(i, i.to(T.complex64)),
        "lae2_int": raises(lambda: T.logaddexp2(i, i)),
        "lae_half": T.logaddexp(i.half(), i.half() * 2),
        "xlogy_int": T.xlogy(i, i * 2),
        "xlogy_bool": T.xlogy(b, b),
        "xlogy_int_c": raises(lambda: T.xlogy(i, i.to(T.complex128))),
    }


@program()
def prog_lgp_renorm_half_and_argument_errors(T: Any) -> Any:
    h = T.full((2, 3), 300.0, dtype=T.float16)
    return {
        "half": T.renorm(h, 2, 0, 1.0),
        "maxnorm_neg": raises(lambda: T.renorm(T.ones(2, 3), 2, 0, -1.0)),
        "p0": raises(lambda: T.renorm(T.ones(2, 3), 0, 0, 1.0)),
        "dim_oob": raises(lambda: T.renorm(T.ones(2, 3), 2, 2, 1.0)),
        "inplace_c": _c(T, 2, 3).renorm_(1, 1, 0.5),
    }


@program()
def prog_lgp_torch_norm_string_orders_with_dims(T: Any) -> Any:
    x = _c(T, 2, 3, 4, dt="complex64")
    return {
        "fro_dim_int": T.norm(x, "fro", dim=1),
        "fro_dim2": T.norm(x, "fro", dim=(0, 2), keepdim=True),
        "nuc_dim2": T.norm(x, "nuc", dim=(0, 2)),
        "nuc_dim_int": raises(lambda: T.norm(x, "nuc", dim=1)),
        "bad_str_dim": raises(lambda: T.norm(x, "abc", dim=1)),
        "p_none": T.norm(x, None),
        "inf_int": raises(lambda: T.norm(T.arange(3), float("inf"))),
    }


@program()
def prog_lgp_complex_matrix_norm_batched_grads(T: Any) -> Any:
    a = _c(T, 2, 3, 3, rg=True)
    n1 = T.linalg.matrix_norm(a, "nuc")
    b = _c(T, 3, 2, 3, seed=1, rg=True)
    n2 = T.linalg.matrix_norm(b, 2, dim=(0, 2))
    (n1.sum() + n2.sum()).backward()
    return n1, n2, a.grad, b.grad, T.linalg.matrix_norm(b.detach(), -2, dim=(2, 0), keepdim=True)


@program()
def prog_lgp_complex_norms_with_dtype_grads(T: Any) -> Any:
    x = _c(T, 3, dt="complex64", rg=True)
    n = T.linalg.norm(x, dtype=T.complex128)
    m = T.norm(x, 3, dtype=T.complex128)
    (n + m).backward()
    return n, m, x.grad, n.grad_fn.name()


@program()
def prog_lgp_complex_matrix_functions_values(T: Any) -> Any:
    a = _c(T, 3, 3)
    return {
        "cond": T.linalg.cond(a),
        "cond_fro": T.linalg.cond(a, "fro"),
        "rank": T.linalg.matrix_rank(a),
        "slogdet": T.linalg.slogdet(a),
        "nuclear": T.nuclear_norm(a),
        "frob": T.frobenius_norm(a, (0, 1)),
        "cond_int": raises(lambda: T.linalg.cond(T.eye(3, dtype=T.int64))),
        "rank_int": raises(lambda: T.linalg.matrix_rank(T.eye(3, dtype=T.int64))),
        "det_int": raises(lambda: T.linalg.det(T.eye(3, dtype=T.int64))),
        "nuclear_int": raises(lambda: T.nuclear_norm(T.eye(3, dtype=T.int64))),
    }


@program()
def prog_lgp_complex_distances_and_normalize(T: Any) -> Any:
    a = _c(T, 2, 3, rg=True)
    b = _c(T, 2, 3, seed=1)
    F = T.nn.functional
    u = F.normalize(a, dim=1)
    d = F.pairwise_distance(a, b)
    (u.abs().sum() + d.sum()).backward()
    return {
        "u": u,
        "d": d,
        "cos": raises(lambda: F.cosine_similarity(a.detach(), b)),
        "pdist": raises(lambda: F.pdist(_c(T, 3, 2))),
        "grad": a.grad,
    }


@program()
def prog_lgp_inplace_real_self_complex_operand_cast_first(T: Any) -> Any:
    f = T.ones(3)
    c = _c(T, 3, dt="complex64")
    out = {}
    for m in ("fmod_", "remainder_", "hypot_", "copysign_", "atan2_", "xlogy_", "floor_divide_"):
        out[m] = (
            raises(lambda m=m: getattr(f.clone(), m)(c)),
            raises(lambda m=m: getattr(c.clone(), m)(c)),
        )
    out["div_floor"] = raises(lambda: f.clone().div_(c, rounding_mode="floor"))
    out["div_trunc_c"] = raises(lambda: c.clone().div_(c, rounding_mode="trunc"))
    out["double"] = raises(lambda: f.double().fmod_(c))
    out["mul_"] = raises(lambda: f.clone().mul_(c))
    out["f_ok"] = f.clone().fmod_(f * 0.7)
    return out


@program()
def prog_lgp_rounding_and_lerp_scalars(T: Any) -> Any:
    c = _c(T, 3, dt="complex64")
    f = _f(T, 3)
    return {
        "round": raises(lambda: T.round(c)),
        "special_round": raises(lambda: T.special.round(c)),
        "round_dec": raises(lambda: T.round(c, decimals=1)),
        "round_dec0": raises(lambda: T.round(c, decimals=0)),
        "round_": raises(lambda: c.clone().round_()),
        "lerp_cw": raises(lambda: T.lerp(f, f * 2, 0.5j)),
        "lerp_big": raises(lambda: T.lerp(f, f * 2, 1e300)),
        "lerp_half_big": T.lerp(f.half(), f.half() * 2, 1e10),
        "lerp_c": T.lerp(c, c * 2, 0.25),
        "lerp_c_cw": T.lerp(c, c * 2, 0.25j),
    }


@program()
def prog_lgp_batched_cooccurrence_counts_with_baddbmm(T: Any) -> Any:
    # one-hot token windows per document, counted in int64 with a decayed prior (beta truncates)
    onehot = T.nn.functional.one_hot(T.tensor([[0, 2, 1, 2], [3, 3, 0, 1]]), 4)
    prior = T.ones(2, 4, 4, dtype=T.int64) * 3
    counts = T.baddbmm(prior, onehot.transpose(1, 2), onehot, beta=0.9, alpha=2)
    total = T.addbmm(T.zeros(4, 4, dtype=T.int64), onehot.transpose(1, 2), onehot, beta=0.5)
    return (
        counts,
        total,
        counts.dtype,
        raises(lambda: T.baddbmm(prior.bool(), onehot.bool().mT, onehot.bool())),
    )


@program()
def prog_lgp_half_model_grad_norm_monitoring(T: Any) -> Any:
    # a float16 layer's gradient norm, as a training loop logs it: accumulated in float32
    lin = T.nn.Linear(4, 3).half()
    with T.no_grad():
        lin.weight.copy_(T.tensor(_data(3, 4, seed=1) * 40).half())
        lin.bias.fill_(0.5)
    x = T.tensor(_data(8, 4, seed=2) * 10).half()
    lin(x).float().pow(2).sum().backward()
    norms = [T.linalg.vector_norm(p.grad) for p in lin.parameters()]
    return norms, T.linalg.vector_norm(T.stack(norms).float()), lin.weight.grad.norm()


@program()
def prog_lgp_complex_signal_log_domain_accumulation(T: Any) -> Any:
    # log-domain sums of complex phasors: logcumsumexp and logaddexp agree with log(cumsum(exp))
    leaf = _c(T, 6, rg=True)
    z = leaf * 0.5
    direct = T.log(T.cumsum(T.exp(z), 0))
    scan = T.logcumsumexp(z, 0)
    pair = T.logaddexp(z[:-1], z[1:])
    (scan.real.sum() + pair.imag.sum()).backward()
    return {
        "scan": scan,
        "direct_close": T.allclose(T.exp(scan), T.exp(direct)),
        "pair": pair,
        "grad": leaf.grad,
        "nonleaf_grad": z.grad,  # None, with torch's warning
    }


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
