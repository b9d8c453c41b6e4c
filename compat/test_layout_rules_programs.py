"""Programs on the dtype and memory layout of elementwise results: `where`'s bool condition
takes no part in type promotion (its values alone decide the dtype, Python numbers included),
and results follow torch's TensorIterator layout rules over transposed, permuted,
channels-last, sliced and mixed-layout operands. Each program returns values, dtypes, strides
and gradients, compared with torch's by the harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


@program()
def prog_lr_where_condition_not_promoted(T: Any) -> Any:
    c = T.tensor([True, False, True])
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.where(c, a, T.tensor(5, dtype=T.int16))
    saved = y.grad_fn._saved_condition
    y.sum().backward()
    out = [y, saved, saved.dtype, a.grad]
    u8 = T.tensor([1, 2, 3], dtype=T.uint8)
    i8 = T.tensor([1, 2, 3], dtype=T.int8)
    h = T.tensor([1, 2, 3], dtype=T.float16)
    for x, z in (
        (u8, T.tensor(-1)),
        (i8, 300.5),
        (T.tensor(1.5, dtype=T.float64), h),
        (2, 3.5),
        (True, False),
        (u8, i8),
        (h, T.tensor([1.0, 2.0, 3.0], dtype=T.float64)),
        (T.tensor([1, 2, 3], dtype=T.uint16), T.tensor([4, 5, 6], dtype=T.uint16)),
        (T.tensor([1, 2, 3], dtype=T.uint32), 7),
    ):
        r = T.where(c, x, z)
        out.append((r, r.dtype))
    out.append(raises(lambda: T.where(c, T.tensor([1, 2, 3], dtype=T.uint16), i8)))
    out.append(raises(lambda: T.where(c.int(), a, 0.0)))
    return out


@program()
def prog_lr_where_large_masks(T: Any) -> Any:
    g = T.Generator().manual_seed(0)
    x = T.randn(70, 80, generator=g, requires_grad=True)
    m = T.rand(70, 80, generator=g) > 0.4
    nz = T.tensor(-0.0)
    y = T.where(m, x, nz) + T.where(~m, x.double(), float("nan")).nan_to_num(0.0)
    y.sum().backward()
    half = T.where(m, x.half(), T.zeros((), dtype=T.float16))
    return y, y.dtype, x.grad, half, T.where(m, x.detach().t().t(), x.detach().t().t() * 2)


def _layouts(T: Any) -> dict[str, Any]:
    base = T.arange(2 * 3 * 4 * 5, dtype=T.float32).reshape(2, 3, 4, 5) / 60 - 0.9
    return {
        "contiguous": base,
        "transposed": base.transpose(1, 3),
        "permuted": base.permute(3, 1, 0, 2),
        "channels_last": base.contiguous(memory_format=T.channels_last),
        "sliced": base[:, :, ::2],
        "sliced_t": base.transpose(0, 2)[::2],
    }


def _layout_of(t: Any) -> Any:
    return tuple(t.shape), t.stride(), t.is_contiguous()


@program()
def prog_lr_unary_kernels_follow_input_layout(T: Any) -> Any:
    """Series and blocked kernels (erf, lgamma, digamma, gelu, torch.special) lay their result
    out as their input, as TensorIterator does; composite ones (mvlgamma) are contiguous."""
    F = T.nn.functional
    sp = T.special
    fns = {
        "erf": T.erf, "erfc": T.erfc, "erfinv": lambda x: T.erfinv(x * 0.9),
        "lgamma": T.lgamma, "digamma": T.digamma, "polygamma1": lambda x: T.polygamma(1, x),
        "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
        "i0": T.i0, "sinc": T.sinc, "logit": lambda x: T.logit(x.abs() * 0.5),
        "nan_to_num": T.nan_to_num, "erfcx": sp.erfcx, "log_ndtr": sp.log_ndtr,
        "ndtri": lambda x: sp.ndtri(x.abs() * 0.5), "i1": sp.i1, "i0e": sp.i0e,
        "bessel_j0": sp.bessel_j0, "entr": sp.entr, "xlog1py": lambda x: sp.xlog1py(2.0, x),
        "zeta": lambda x: sp.zeta(x.abs() + 1.5, 2.0), "xlogy": lambda x: T.xlogy(x, 3.0),
        "mvlgamma": lambda x: T.mvlgamma(x.abs() + 2, 2),
    }  # fmt: skip
    out = {}
    for ln, x in _layouts(T).items():
        for name, fn in fns.items():
            y = fn(x)
            out[ln, name] = (_layout_of(y), y)
    return out


@program()
def prog_lr_sort_follows_input_layout(T: Any) -> Any:
    out = {}
    for ln, x in _layouts(T).items():
        v, i = x.sort(1)
        v2, i2 = T.sort(x, dim=-1, descending=True, stable=True)
        out[ln] = (_layout_of(v), _layout_of(i), _layout_of(v2), _layout_of(i2), v, i2)
    return out


@program()
def prog_lr_binary_mixed_layouts(T: Any) -> Any:
    """Two operands of different layouts: the first whose strides decide gives the result's
    layout (TensorIterator), where numpy would fall back to row-major order."""
    ls = _layouts(T)
    out = {}
    for na, a in ls.items():
        for nb, b in ls.items():
            if a.shape != b.shape:
                continue
            b2 = b * 0.5 + 0.25
            for op in ("add", "sub", "mul", "div", "maximum", "atan2", "pow", "lt"):
                r = getattr(T, op)(a, b2.abs() if op == "pow" else b2)
                out[na, nb, op] = _layout_of(r)
            out[na, nb, "values"] = a * b2 - a / (b2.abs() + 1)
    return out


@program()
def prog_lr_broadcast_operands(T: Any) -> Any:
    ls = _layouts(T)
    out = {}
    for ln, x in ls.items():
        row = x[:, :, :1]  # broadcast along dim 2
        col = x[..., :1]  # along the last dim
        out[ln] = (
            _layout_of(x + row),
            _layout_of(row + x),
            _layout_of(col * x),
            _layout_of(x - x.sum(1, keepdim=True)),
            _layout_of(x.mean((2, 3), keepdim=True) / x),
            _layout_of(T.addcmul(x, row, col, value=0.5)),
            _layout_of(T.addcdiv(col, x, x.abs() + 1)),
            _layout_of(T.lerp(x, row, 0.3)),
            _layout_of(T.lerp(row, x, col.sigmoid())),
            _layout_of(T.where(x > 0, row, x)),
            _layout_of(T.clamp(x, min=row, max=row + 1)),
            T.addcmul(x, row, col, value=0.5),
        )
    return out


@program()
def prog_lr_layout_through_autograd(T: Any) -> Any:
    """Gradients of mixed-layout ops keep their values; the results' layouts decide whether
    view() works, as in torch."""
    ls = _layouts(T)
    out = {}
    for ln in ("transposed", "channels_last", "sliced"):
        x = ls[ln].detach().requires_grad_()
        c = ls[ln].detach().contiguous().requires_grad_()
        y = T.erf(x) * c + T.lgamma(x.abs() + 1) - F_gelu(T, c + x)
        y.sum().backward()
        z = x + c
        out[ln] = (
            _layout_of(y),
            raises(lambda z=z: z.view(-1).shape),
            z.reshape(-1)[:5],
            x.grad,
            c.grad,
        )
    return out


def F_gelu(T: Any, x: Any) -> Any:
    return T.nn.functional.gelu(x)


@program()
def prog_lr_clone_like_results(T: Any) -> Any:
    """Ops torch computes on a preserve_format clone of their first input keep a dense
    input's strides; masked ops clone contiguous."""
    out = {}
    for ln, x in _layouts(T).items():
        x2 = x[0, 0] if ln != "sliced_t" else x[0, :, 0]
        m2 = x2 > 0
        idx = T.tensor([0, 1])
        out[ln] = (
            _layout_of(x2.index_fill(1, idx, -1.0)),
            _layout_of(x2.index_put((idx - idx.min(),), T.tensor(5.0))),
            _layout_of(x2.select_scatter(T.zeros(x2.shape[1]), 0, 1)),
            _layout_of(x2.slice_scatter(T.zeros(x2.shape[0], 1), 1, 0, 1)),
            _layout_of(x2.diagonal_scatter(T.zeros(min(x2.shape)))),
            _layout_of(x2.masked_fill(m2, 0.0)),
            _layout_of(x2.masked_scatter(m2, T.ones(x2.numel()))),
            _layout_of(T.addr(x2, T.ones(x2.shape[0]), T.ones(x2.shape[1]))),
            _layout_of(x2.isreal()),
            x2.index_fill(1, idx, -1.0),
            x2.masked_scatter(m2, T.arange(float(x2.numel()))),
        )
    return out


@program()
def prog_lr_linalg_results_column_major(T: Any) -> Any:
    """LAPACK-backed results come back in batched column-major order (each matrix's transpose
    contiguous), whatever the input's layout, so `view` of them raises as in torch; a
    left=False solve's result is row-major, and lstsq's solution is a view into B's workspace."""
    L = T.linalg
    g = T.Generator().manual_seed(0)
    A = T.rand(3, 3, generator=g, dtype=T.float64) + 3 * T.eye(3, dtype=T.float64)
    S = A @ A.mT
    B = T.rand(3, 2, generator=g, dtype=T.float64)
    R = T.rand(4, 3, generator=g, dtype=T.float64)
    LU, piv = L.lu_factor(A)
    res = {
        "inv": L.inv(A),
        "inv_t": L.inv(A.mT),
        "inv_batched": L.inv(A.expand(2, 3, 3)),
        "inverse": T.inverse(A),
        "cholesky": L.cholesky(S),
        "cholesky_upper": L.cholesky(S, upper=True),
        "torch_cholesky": T.cholesky(S),
        "qr": L.qr(R),
        "qr_complete": L.qr(R, mode="complete"),
        "svd": L.svd(R),
        "svd_reduced": L.svd(R, full_matrices=False),
        "torch_svd": T.svd(R),
        "eigh": L.eigh(S),
        "solve": L.solve(A, B),
        "solve_vector": L.solve(A, B[:, 0]),
        "solve_left_false": L.solve(A, B.mT, left=False),
        "solve_ex": L.solve_ex(A, B),
        "lu_factor": L.lu_factor(A),
        "lu_solve": L.lu_solve(LU, piv, B),
        "lu_solve_left_false": L.lu_solve(LU, piv, B.mT, left=False),
        "lu_solve_adjoint": L.lu_solve(LU, piv, B, adjoint=True),
        "solve_triangular": L.solve_triangular(S.triu(), B, upper=True),
        "solve_triangular_right": L.solve_triangular(S.triu(), B.mT, upper=True, left=False),
        "triangular_solve": T.triangular_solve(B, S.triu()),
        "matrix_power_-1": L.matrix_power(A, -1),
        "tensorinv": L.tensorinv(A, ind=1),
        "lstsq_tall": L.lstsq(R, T.rand(4, 2, generator=g, dtype=T.float64)).solution,
        "lstsq_square": L.lstsq(A, B).solution,
    }
    out = {}
    for k, v in res.items():
        vs = v if isinstance(v, tuple) else (v,)
        out[k] = [_layout_of(t) for t in vs if t.ndim >= 2]
    out["view"] = raises(lambda: L.inv(A).view(-1))
    out["reshape"] = L.inv(A).reshape(-1)
    X = B.clone().requires_grad_()
    M = A.clone().requires_grad_()
    y = L.solve(M, X)
    (y * T.arange(6.0, dtype=T.float64).reshape(3, 2)).sum().backward()
    out["grads"] = (M.grad, X.grad, _layout_of(M.grad), _layout_of(X.grad))
    return out


@program()
def prog_lr_roll_and_bfloat16_casts(T: Any) -> Any:
    """roll keeps channels-last (torch's suggested format) and makes other layouts
    contiguous; a cast to bfloat16 keeps its input's layout, as every other cast does."""
    out = {}
    for ln, x in _layouts(T).items():
        b = x.bfloat16()
        out[ln] = (
            _layout_of(x.roll(1, 0)),
            _layout_of(x.roll((1, 2), (1, 3))),
            _layout_of(x.roll(3)),
            _layout_of(b),
            _layout_of(x.to(T.bfloat16)),
            _layout_of(b + 1),
            b,
            x.roll(1, 0),
        )
    out["0-d"] = T.tensor(1.00390625).bfloat16(), T.tensor(float("nan")).bfloat16()
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
