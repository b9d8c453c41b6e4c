"""Op database entries for shadowgrad/ops/aten_legacy.py: the deprecated norms, the generic
torch.convolution and the grid samplers by dimension.

The norms are sampled over every dim choice of their overloads (norm_except_dim's first, last,
middle and -1), p = 0, 1, 2, 3, a zero slice (the 2-norm's 0 gradient), complex input, and bad
dims and dtypes; convolution over 1-3 spatial dims, transposed with output_padding (including
output_padding >= stride, allowed below the dilation), groups, and each of torch's argument
checks; the grid samplers over every interpolation and padding code.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg
from .ops_linalg import DECOMP_REASON, DECOMP_TOL

t = tensor_arg


def _rng() -> np.random.Generator:
    return np.random.default_rng(77)


def _quiet(fn: Any) -> Any:
    """The op without torch's once-per-process deprecation warnings."""

    def op(T: Any, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(T, *args, **kwargs)

    return op


# --- norms -------------------------------------------------------------------------------------


def nuclear_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    return [
        Sample((t(n((3, 4))),), name="matrix"),
        Sample((t(n((3, 4))), True), name="keepdim overload"),
        Sample((t(n((2, 3, 4))),), {"keepdim": True}, name="batched, keepdim"),
        Sample((t(n((2, 3, 4))), (0, 2)), name="dim"),
        Sample((t(n((2, 3, 4))), (2, 0), True), name="dim reversed, keepdim"),
        Sample((t(n((2, 3, 4))), (0, 1, 2)), name="three dims (error)"),
        Sample((t(n((2, 3, 4))), (1, 1)), name="same dim (error)"),
        Sample((t(n(3)),), name="1-d (error)"),
        Sample((t(np.arange(9).reshape(3, 3)),), name="integer (error)"),
    ]


def frobenius_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    x = n((2, 3, 4))
    z = x.copy()
    z[1] = 0
    return [
        Sample((t(x), (0, 1)), name="two dims"),
        Sample((t(x), 2), name="int dim"),
        Sample((t(x), [1], True), name="keepdim"),
        Sample((t(x), ()), name="every dim"),
        Sample((t(z), (1, 2)), name="a zero slice"),
        Sample((t(x), (0, 1, 2)), name="three dims (error)"),
        Sample((t(x), (0, 0)), name="repeated dim (error)"),
        Sample((t(x), (3,)), name="dim out of range (error)"),
        Sample((t(np.arange(6).reshape(2, 3)), (0,)), name="integer (error)"),
    ]


def norm_except_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    x = n((2, 3, 4))
    out = [Sample((t(x), p, d), name=f"pow {p}, dim {d}") for p in (2, 3) for d in (0, 1, 2, -1)]
    z = x.copy()
    z[:, 1] = 0
    out += [
        Sample((t(x),), name="defaults"),
        Sample((t(x), 1, -2), name="pow 1, dim -2"),
        Sample((t(x), 0, 1), name="pow 0"),
        Sample((t(z), 2, 1), name="a zero slice"),
        Sample((t(x[0], layout="transposed"), 2, 0), name="non-contiguous"),
        Sample((t(x[0, 0]), 2, 0), name="1-d"),
        Sample((t(np.array(3.0)), 2, -1), name="0-d, dim -1"),
        Sample((t(np.array(3.0)), 2, 0), name="0-d, dim 0 (error)"),
        Sample((t(x), 2, 5), name="dim out of range (error)"),
        Sample((t(x), 1.5, 1), name="float pow (error)"),
    ]
    return out


def complex_norm_samples(dtype: str) -> list[Sample]:
    r = _rng()
    cx = np.complex64 if dtype == "float32" else np.complex128
    x = (r.standard_normal((2, 3)) + 1j * r.standard_normal((2, 3))).astype(cx)
    return [Sample((t(x),), name="complex")]


def native_norm_samples(dtype: str) -> list[Sample]:
    x = _rng().standard_normal((2, 3))
    return [
        Sample((t(x),), name="dense (error)"),
        Sample((t(x), 2, [1], False, None), name="dim overload, dense (error)"),
    ]


# --- convolution -------------------------------------------------------------------------------


def conv_samples(dtype: str) -> list[Sample]:
    n = _rng().standard_normal
    x2, w2, b6 = n((2, 4, 6, 6)), n((6, 2, 3, 3)), n(6)
    x1, x3 = n((2, 4, 7)), n((1, 4, 4, 5, 3))
    wt2 = n((4, 3, 3, 3))

    def c(x, w, b, s, p, d, tr, op, g, name):
        return Sample((t(x), t(w), None if b is None else t(b), s, p, d, tr, op, g), name=name)

    return [
        c(x2, w2, b6, [1], [0], [1], False, [0], 2, "2-d, groups"),
        c(x2, w2, b6, (2, 1), (1, 0), (1, 2), False, (0, 0), 2, "2-d, per-dim lists"),
        c(x2, w2, None, [1], [1], [1], False, [1], 2, "no bias, output_padding ignored"),
        c(x1, n((3, 4, 2)), n(3), [2], [1], [1], False, [0], 1, "1-d"),
        c(x1, n((4, 3, 2)), n(6), [2], [1], [1], True, [1], 2, "1-d transposed"),
        c(x2, wt2, n(6), [2], [1], [1], True, [1], 2, "2-d transposed"),
        c(x2, wt2, None, [2, 1], [1, 0], [1, 2], True, [1, 1], 2,
          "transposed, output_padding >= stride"),
        c(x3, n((2, 4, 2, 2, 2)), None, [1], [1], [1], False, [0], 1, "3-d"),
        c(x3, n((4, 2, 2, 2, 2)), n(4), [2, 1, 1], [1, 0, 0], [1], True, [1, 0, 0], 2,
          "3-d transposed"),
        c(x2, w2, None, [1, 1, 1], [0], [1], False, [0], 2, "stride length (error)"),
        c(x2, w2, None, [1], [0], [1], False, [0], 1, "channels (error)"),
        c(x2, w2, b6[:5], [1], [0], [1], False, [0], 2, "bias size (error)"),
        c(x2, w2, None, [0], [0], [1], False, [0], 2, "stride 0 (error)"),
        c(x2, w2, None, [1], [-1], [1], False, [0], 2, "negative padding (error)"),
        c(x2, w2, None, [1], [0], [1], False, [0], 0, "groups 0 (error)"),
        c(x2[:, :, :2, :2], w2, None, [1], [0], [1], False, [0], 2, "kernel too big (error)"),
        c(x2, w2, None, [1], [0], [1], True, [0], 2, "transposed channels (error)"),
        c(x2, wt2, None, [2], [1], [1], True, [2], 2, "output_padding (error)"),
        c(x2, n((5, 3, 3, 3)), None, [2], [1], [1], True, [1], 2, "groups divide (error)"),
        c(x2[0], w2, None, [1], [0], [1], False, [0], 2, "unbatched (error)"),
        c(x2, b6, None, [1], [0], [1], False, [0], 2, "1-d weight (error)"),
        c(x2, w2, None, 1, [0], [1], False, [0], 2, "int stride (error)"),
    ]  # fmt: skip


# --- grid samplers -----------------------------------------------------------------------------


def grid2_samples(dtype: str) -> list[Sample]:
    r = _rng()
    x, g = r.standard_normal((2, 2, 3, 4)), r.uniform(-1.2, 1.2, (2, 3, 2, 2))
    out = [
        Sample((t(x), t(g), m, p, a), name=f"mode {m}, padding {p}, {a}")
        for m in (0, 1, 2)
        for p in (0, 1, 2)
        for a in (False, True)
    ]
    out += [
        Sample((t(x), t(g[:1]), 0, 0, False), name="batch (error)"),
        Sample((t(x), t(g[..., :1]), 0, 0, False), name="grid size (error)"),
        Sample((t(x[None]), t(g[None]), 0, 0, False), name="5-d (error)"),
        Sample((t(x), t(g), 0.0, 0, False), name="float mode (error)"),
        Sample((t(x), t(g), 0, 0, 1), name="int align_corners (error)"),
    ]
    return out


def grid3_samples(dtype: str) -> list[Sample]:
    r = _rng()
    x, g = r.standard_normal((1, 2, 3, 2, 4)), r.uniform(-1.2, 1.2, (1, 2, 2, 2, 3))
    out = [
        Sample((t(x), t(g), m, p, a), name=f"mode {m}, padding {p}, {a}")
        for m in (0, 1)
        for p in (0, 1, 2)
        for a in (False, True)
    ]
    out += [
        Sample((t(x), t(g), 2, 0, False), name="bicubic (error)"),
        Sample((t(x[0]), t(g[0, ..., :2]), 0, 0, False), name="4-d (error)"),
    ]
    return out


register(
    OpEntry("nuclear_norm", _quiet(lambda T, *a, **k: T.nuclear_norm(*a, **k)), nuclear_samples,
            tolerances=DECOMP_TOL, tolerance_reason=DECOMP_REASON),
    OpEntry("nuclear_norm complex", _quiet(lambda T, *a: T.nuclear_norm(*a)),
            complex_norm_samples, supports_grad=False, tolerances=DECOMP_TOL,
            tolerance_reason="SVD; complex SVD gradients are not implemented in shadowgrad"),
    OpEntry("frobenius_norm", _quiet(lambda T, *a, **k: T.frobenius_norm(*a, **k)),
            frobenius_samples),
    OpEntry("frobenius_norm complex", _quiet(lambda T, x: T.frobenius_norm(x, (0, 1))),
            complex_norm_samples),
    OpEntry("norm_except_dim", lambda T, *a: T.norm_except_dim(*a), norm_except_samples),
    OpEntry("norm_except_dim complex", lambda T, x: T.norm_except_dim(x, 2, 1),
            complex_norm_samples),
    OpEntry("native_norm", lambda T, *a: T.native_norm(*a), native_norm_samples),
    OpEntry("Tensor.is_distributed", lambda T, x: T.tensor(x.is_distributed()),
            lambda dtype: native_norm_samples(dtype)[:1], supports_grad=False),
    OpEntry("convolution", lambda T, *a: T.convolution(*a), conv_samples),
    OpEntry("grid_sampler_2d", lambda T, *a: T.grid_sampler_2d(*a), grid2_samples,
            supports_gradgrad=False),  # torch has GridSampler2DBackwardBackward0's formulas
    OpEntry("grid_sampler_3d", lambda T, *a: T.grid_sampler_3d(*a), grid3_samples,
            supports_gradgrad=False),  # as grid_sampler_2d: no double backward in shadowgrad
)  # fmt: skip
