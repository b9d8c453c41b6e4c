"""Op database entries for the resampling ops (shadowgrad/ops/resample.py): the upsampling
kernels behind nn.functional.interpolate, the pixel and channel shuffles, rms_norm and
local_response_norm; conv_tbc and fractional max pooling."""

from __future__ import annotations

from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg


def F(T: Any) -> Any:
    return T.nn.functional


def _r() -> np.random.Generator:
    return np.random.default_rng(0)


def _interp_samples(shape: tuple[int, ...], aligned: bool):
    def samples(dtype: str) -> list[Sample]:
        r = _r()
        x = r.standard_normal(shape)
        n = len(shape) - 2
        out = [
            Sample((tensor_arg(x),), {"scale_factor": 2}, name="x2"),
            Sample((tensor_arg(x),), {"scale_factor": 1.6}, name="x1.6"),
            Sample((tensor_arg(x),), {"size": (3,) * n}, name="size"),
            Sample((tensor_arg(x),), {"scale_factor": 0.5}, name="down"),
            Sample((tensor_arg(x),), {"size": 1}, name="size 1"),
            Sample((tensor_arg(x[:0]),), {"scale_factor": 2}, name="empty batch"),
            Sample(
                (tensor_arg(x, layout="transposed"),), {"scale_factor": 1.5}, name="non-contiguous"
            ),
            Sample((tensor_arg(x[:, :0]),), {"size": 3}, name="no channels: error"),
            Sample((tensor_arg(x),), {"size": 0}, name="size 0: error"),
            Sample((tensor_arg(x[0, 0]),), {"size": 3}, name="too few dims: error"),
        ]
        if aligned:
            out.append(
                Sample((tensor_arg(x),), {"size": 5, "align_corners": True}, name="align_corners")
            )
        return out

    return samples


def _interp(mode: str) -> Any:
    return lambda T, x, **k: F(T).interpolate(x, mode=mode, **k)


_INTERP = [
    ("nearest", (2, 3, 4), False),
    ("nearest", (2, 2, 3, 4), False),
    ("nearest", (1, 2, 2, 3, 2), False),
    ("nearest-exact", (2, 2, 3, 4), False),
    ("linear", (2, 3, 4), True),
    ("bilinear", (2, 2, 3, 4), True),
    ("bicubic", (2, 2, 3, 4), True),
    ("trilinear", (1, 2, 2, 3, 2), True),
]


def _interp_aa(mode: str) -> Any:
    return lambda T, x, **k: F(T).interpolate(x, mode=mode, antialias=True, **k)


register(
    *(
        OpEntry(
            f"nn.functional.interpolate_{mode}_antialias",
            _interp_aa(mode),
            _interp_samples((2, 2, 5, 4), True),
            covers=("nn.functional.interpolate",),
        )
        for mode in ("bilinear", "bicubic")
    )
)
register(
    *(
        OpEntry(
            f"nn.functional.interpolate_{mode}_{len(shape) - 2}d",
            _interp(mode),
            _interp_samples(shape, aligned),
            covers=("nn.functional.interpolate",),
        )
        for mode, shape, aligned in _INTERP
    )
)


def _shuffle_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 8, 3, 2))
    return [
        Sample((tensor_arg(x), 2), name="4-d"),
        Sample((tensor_arg(x[0]), 2), name="3-d"),
        Sample((tensor_arg(x.reshape(1, 2, 8, 3, 2)), 2), name="5-d"),
        Sample((tensor_arg(x[:0]), 2), name="empty"),
        Sample((tensor_arg(x, layout="transposed"), 2), name="non-contiguous"),
        Sample((tensor_arg(x), 1), name="factor 1"),
        Sample((tensor_arg(x[:, :6]), 2), name="channels: error"),
        Sample((tensor_arg(x[0, 0]), 2), name="2-d: error"),
        Sample((tensor_arg(np.array(1.0)), 2), name="0-d: error"),
    ]


def _unshuffle_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 4, 6))
    return [
        Sample((tensor_arg(x), 2), name="4-d"),
        Sample((tensor_arg(x[0]), 2), name="3-d"),
        Sample((tensor_arg(x[:0]), 2), name="empty"),
        Sample((tensor_arg(x, layout="transposed"), 2), name="non-contiguous"),
        Sample((tensor_arg(x), 3), name="height: error"),
        Sample((tensor_arg(x), 0), name="factor 0: error"),
    ]


def _channel_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 6, 3, 2))
    return [
        Sample((tensor_arg(x), 2), name="4-d"),
        Sample((tensor_arg(x[..., 0]), 3), name="3-d"),
        Sample((tensor_arg(x[:0]), 2), name="empty"),
        Sample((tensor_arg(x, layout="transposed"), 3), name="non-contiguous"),
        Sample((tensor_arg(x), 1), name="groups 1"),
        Sample((tensor_arg(x), 4), name="not divisible: error"),
        Sample((tensor_arg(x[0, 0]), 2), name="2-d: error"),
        Sample((tensor_arg(np.array(1.0)), 2), name="0-d: error"),
    ]


def _rms_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4, 5))
    w = r.standard_normal(5)
    return [
        Sample((tensor_arg(x), (5,)), name="last dim"),
        Sample((tensor_arg(x), (4, 5), tensor_arg(r.standard_normal((4, 5)))), name="weight 2-d"),
        Sample((tensor_arg(x[:, 0]), [5], tensor_arg(w), 1e-3), name="2-d, eps"),
        Sample((tensor_arg(x[:0]), (5,), tensor_arg(w)), name="empty"),
        Sample((tensor_arg(x, layout="transposed"), (3,)), name="non-contiguous"),
        Sample((tensor_arg(x[0, 0, :1]), (1,)), name="one element"),
        Sample((tensor_arg(x), (4,)), name="bad shape: error"),
        Sample((tensor_arg(x), (5,), tensor_arg(w[:4])), name="bad weight: error"),
        Sample((tensor_arg(np.array(1.5)), ()), name="0-d: error"),
    ]


def _lrn_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 5, 3, 2))
    return [
        Sample((tensor_arg(x[..., 0]), 2), name="3-d"),
        Sample((tensor_arg(x), 3, 0.1, 0.5, 2.0), name="4-d"),
        Sample((tensor_arg(x.reshape(1, 2, 5, 3, 2)), 2), name="5-d"),
        Sample((tensor_arg(x[:0]), 2), name="empty"),
        Sample((tensor_arg(x, layout="transposed"), 4), name="non-contiguous"),
        Sample((tensor_arg(x[0, 0]), 2), name="2-d: error"),
    ]


register(
    OpEntry(
        "pixel_shuffle",
        lambda T, *a: T.pixel_shuffle(*a),
        _shuffle_samples,
        covers=("nn.functional.pixel_shuffle",),
    ),
    OpEntry(
        "pixel_unshuffle",
        lambda T, *a: T.pixel_unshuffle(*a),
        _unshuffle_samples,
        covers=("nn.functional.pixel_unshuffle",),
    ),
    OpEntry(
        "channel_shuffle",
        lambda T, *a: T.channel_shuffle(*a),
        _channel_samples,
        covers=("nn.functional.channel_shuffle",),
    ),
    OpEntry(
        "native_channel_shuffle",
        lambda T, *a: T.native_channel_shuffle(*a),
        _channel_samples,
        supports_grad=False,  # torch records a NotImplemented node: backward raises
        supports_gradgrad=False,
        covers=("nn.functional.native_channel_shuffle",),
    ),
    OpEntry(
        "rms_norm",
        lambda T, *a: T.rms_norm(*a),
        _rms_samples,
        covers=("nn.functional.rms_norm",),
    ),
    OpEntry(
        "nn.functional.local_response_norm",
        lambda T, *a: F(T).local_response_norm(*a),
        _lrn_samples,
    ),
)


def _grid_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 2, 3, 4))
    g = r.uniform(-1.2, 1.2, (2, 3, 2, 2))
    x3 = r.standard_normal((1, 2, 3, 2, 4))
    g3 = r.uniform(-1.2, 1.2, (1, 2, 2, 2, 3))
    out = [
        Sample(
            (tensor_arg(x), tensor_arg(g)),
            {"mode": m, "padding_mode": p, "align_corners": a},
            name=f"{m} {p} {a}",
        )
        for m in ("bilinear", "bicubic")
        for p, a in (("zeros", False), ("border", True), ("reflection", False))
    ]
    out += [
        Sample((tensor_arg(x3), tensor_arg(g3)), {"align_corners": True}, name="3-d"),
        Sample(
            (tensor_arg(x3), tensor_arg(g3)),
            {"padding_mode": "reflection", "align_corners": False},
            name="3-d reflection",
        ),
        Sample((tensor_arg(x[:0]), tensor_arg(g[:0])), {"align_corners": True}, name="empty"),
        Sample((tensor_arg(x), tensor_arg(g[:1])), {"align_corners": True}, name="batch: error"),
        Sample((tensor_arg(x3), tensor_arg(g3)), {"mode": "bicubic"}, name="bicubic 3-d: error"),
    ]
    return out


def _affine_samples(dtype: str) -> list[Sample]:
    r = _r()
    th = r.standard_normal((2, 2, 3))
    th3 = r.standard_normal((1, 3, 4))
    return [
        Sample((tensor_arg(th), (2, 1, 3, 4)), {"align_corners": False}, name="2-d"),
        Sample((tensor_arg(th), (2, 3, 2, 5)), {"align_corners": True}, name="2-d aligned"),
        Sample((tensor_arg(th3), (1, 1, 2, 3, 2)), {"align_corners": False}, name="3-d"),
        Sample((tensor_arg(th), (2, 1, 0, 4)), {"align_corners": False}, name="empty: error"),
        Sample((tensor_arg(th3), (1, 1, 2, 3)), {"align_corners": False}, name="shape: error"),
    ]


register(
    OpEntry(
        "nn.functional.grid_sample",
        lambda T, *a, **k: F(T).grid_sample(*a, **k),
        _grid_samples,
        supports_gradgrad=False,  # torch has GridSampler2DBackwardBackward0's formulas; we don't
        covers=("grid_sampler",),
    ),
    OpEntry(
        "nn.functional.affine_grid",
        lambda T, *a, **k: F(T).affine_grid(*a, **k),
        _affine_samples,
        covers=("affine_grid_generator",),
    ),
)


def _bag_samples(dtype: str) -> list[Sample]:
    r = _r()
    w = r.standard_normal((6, 3))
    idx = np.array([0, 2, 2, 5, 1, 3, 2, 4])
    off = np.array([0, 3, 3, 6])
    return [
        Sample((tensor_arg(idx), tensor_arg(w), tensor_arg(off)), {"mode": m}, name=m)
        for m in ("sum", "mean", "max")
    ] + [
        Sample(
            (tensor_arg(idx.reshape(2, 4)), tensor_arg(w)),
            {"mode": "sum", "padding_idx": 2},
            name="2-d, padding",
        ),
        Sample(  # torch's float32 and float64 kernels disagree when offsets[-1] < len(input)
            (tensor_arg(idx), tensor_arg(w), tensor_arg(np.array([0, 3, 3, 8]))),
            {"mode": "mean", "include_last_offset": True},
            name="last offset",
        ),
        Sample((tensor_arg(idx), tensor_arg(w)), {}, name="no offsets: error"),
    ]


register(
    OpEntry(
        "nn.functional.embedding_bag",
        lambda T, *a, **k: F(T).embedding_bag(*a, **k),
        _bag_samples,
        supports_gradgrad=False,  # torch's _embedding_bag_backward has no derivative either
        covers=("embedding_bag",),
    ),
)


def _tbc_samples(dtype: str) -> list[Sample]:
    r = _r()
    x, w, b = r.standard_normal((6, 2, 3)), r.standard_normal((3, 3, 4)), r.standard_normal(4)
    args = (tensor_arg(x), tensor_arg(w), tensor_arg(b))
    return [
        Sample(args, name="no pad"),
        Sample((*args, 1), name="pad 1"),
        Sample((*args, 4), name="pad past the kernel"),
        Sample((*args, -1), name="negative pad"),
        Sample((tensor_arg(x[:, :0]), *args[1:]), name="empty batch"),
        Sample((tensor_arg(x, layout="transposed"), *args[1:], 1), name="non-contiguous"),
        Sample((args[0], tensor_arg(w[:, :2]), args[2]), name="channels: error"),
        Sample((tensor_arg(x[0]), *args[1:]), name="2-d: error"),
        Sample((*args[:2], tensor_arg(b[:3])), name="bias: error"),
        Sample((*args, -3), name="negative size: error"),
    ]


def _fractional_samples(n: int):
    def samples(dtype: str) -> list[Sample]:
        r = _r()
        x = r.standard_normal((2, 3, 7, 8, 6)[: n + 2])
        u = r.random((2, 3, n))

        def su(v: np.ndarray) -> Any:
            return tensor_arg(v, requires_grad=False)

        out = [
            Sample((tensor_arg(x), 2), {"output_size": 3, "_random_samples": su(u)}, name="size"),
            Sample(
                (tensor_arg(x), (3, 2, 2)[:n]),
                {"output_ratio": 0.5, "_random_samples": su(u)},
                name="ratio",
            ),
            Sample(
                (tensor_arg(x[0]), 2),
                {"output_size": (4, 5, 3)[:n], "_random_samples": su(u[:1])},
                name="unbatched",
            ),
            Sample(
                (tensor_arg(x), 1),
                {"output_size": x.shape[2:], "_random_samples": su(u)},
                name="kernel 1",
            ),
            Sample(
                (tensor_arg(x, layout="transposed"), 2),
                {"output_size": 2, "return_indices": True, "_random_samples": su(u)},
                name="non-contiguous, indices",
            ),
            Sample(
                (tensor_arg(x), 2), {"output_size": 7, "_random_samples": su(u)}, name="pool: error"
            ),
            Sample(
                (tensor_arg(x), 2),
                {"output_size": 3, "_random_samples": su(u[:1])},
                name="samples: error",
            ),
        ]
        return out

    return samples


register(
    OpEntry(
        "conv_tbc",
        lambda T, *a: T.conv_tbc(*a),
        _tbc_samples,
        covers=("nn.functional.conv_tbc",),
        tolerances={"float32": (1e-5, 1e-5)},
        tolerance_reason="float32 sums over kernel taps in another order than torch's addmm",
    ),
    *(
        OpEntry(
            f"nn.functional.fractional_max_pool{n}d",
            lambda T, *a, _n=n, **k: getattr(F(T), f"fractional_max_pool{_n}d")(*a, **k),
            _fractional_samples(n),
            covers=(f"nn.functional.fractional_max_pool{n}d_with_indices",),
        )
        for n in (2, 3)
    ),
)
