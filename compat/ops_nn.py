"""Op database entries for torch.nn.functional."""

from __future__ import annotations

from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg


def F(T: Any) -> Any:
    return T.nn.functional


def _r() -> np.random.Generator:
    return np.random.default_rng(0)


def act_samples(kinks: tuple[float, ...] = (), scale: float = 2.0, big: bool = False):
    def samples(dtype: str) -> list[Sample]:
        r = _r()
        out = [
            Sample((tensor_arg(r.uniform(-scale, scale, (3, 4))),), name="2-d"),
            Sample((tensor_arg(np.array(r.uniform(-scale, scale))),), name="0-d"),
            Sample((tensor_arg(r.uniform(-scale, scale, (0, 3))),), name="empty"),
            Sample(
                (tensor_arg(r.uniform(-scale, scale, (4, 3)), layout="transposed"),),
                name="non-contiguous",
            ),
        ]
        if kinks:
            out.append(Sample((tensor_arg(np.array(kinks)),), name="kinks"))
        if big:
            out.append(Sample((tensor_arg(np.array([-1e4, -50.0, 50.0, 1e4])),), name="1e4"))
        return out

    return samples


def _with(samples: Any, **kwargs: Any) -> Any:
    def s(dtype: str) -> list[Sample]:
        return [Sample(x.args, {**x.kwargs, **kwargs}, x.name) for x in samples(dtype)]

    return s


register(
    OpEntry(
        "nn.functional.relu",
        lambda T, x: F(T).relu(x),
        act_samples((0.0, -1.0, 1.0)),
    ),
    OpEntry(
        "nn.functional.leaky_relu",
        lambda T, x, **k: F(T).leaky_relu(x, 0.1, **k),
        act_samples((0.0, -1.0, 1.0)),
    ),
    OpEntry("nn.functional.elu", lambda T, x: F(T).elu(x, 0.7), act_samples((0.0,), big=True)),
    OpEntry("nn.functional.selu", lambda T, x: F(T).selu(x), act_samples((0.0,), big=True)),
    OpEntry("nn.functional.celu", lambda T, x: F(T).celu(x, 1.5), act_samples((0.0,))),
    OpEntry("nn.functional.gelu", lambda T, x: F(T).gelu(x), act_samples((0.0,), 4.0)),
    OpEntry(
        "nn.functional.gelu_tanh",
        lambda T, x: F(T).gelu(x, approximate="tanh"),
        act_samples((0.0,), 4.0),
    ),
    OpEntry("nn.functional.silu", lambda T, x: F(T).silu(x), act_samples((0.0,), 4.0, big=True)),
    OpEntry("nn.functional.mish", lambda T, x: F(T).mish(x), act_samples((0.0,), 4.0)),
    OpEntry(
        "nn.functional.softplus",
        lambda T, x: F(T).softplus(x),
        act_samples((0.0, 20.0, 21.0), 4.0, big=True),
    ),
    OpEntry(
        "nn.functional.softplus_beta",
        lambda T, x: F(T).softplus(x, beta=2.0, threshold=3.0),
        act_samples((0.0, 1.5, 1.6), 4.0),
    ),
    OpEntry(
        "nn.functional.hardtanh",
        lambda T, x: F(T).hardtanh(x),
        act_samples((-1.0, 0.0, 1.0, 2.0, -2.0)),
    ),
    OpEntry(
        "nn.functional.hardtanh_bounds",
        lambda T, x: F(T).hardtanh(x, -0.5, 0.25),
        act_samples((-0.5, 0.0, 0.25)),
    ),
    OpEntry("nn.functional.relu6", lambda T, x: F(T).relu6(x), act_samples((0.0, 6.0, 7.0), 8.0)),
    OpEntry(
        "nn.functional.hardsigmoid",
        lambda T, x: F(T).hardsigmoid(x),
        act_samples((-3.0, 0.0, 3.0), 5.0),
    ),
    OpEntry(
        "nn.functional.hardswish",
        lambda T, x: F(T).hardswish(x),
        act_samples((-3.0, 0.0, 3.0), 5.0),
        xfails={},
    ),
    OpEntry(
        "nn.functional.logsigmoid",
        lambda T, x: F(T).logsigmoid(x),
        act_samples((0.0,), 4.0, big=True),
    ),
    OpEntry("nn.functional.softsign", lambda T, x: F(T).softsign(x), act_samples((0.0,))),
    OpEntry("nn.functional.tanhshrink", lambda T, x: F(T).tanhshrink(x), act_samples()),
    OpEntry(
        "nn.functional.hardshrink",
        lambda T, x: F(T).hardshrink(x, 0.5),
        act_samples((-0.5, 0.0, 0.5, -0.0)),
    ),
    OpEntry(
        "nn.functional.softshrink",
        lambda T, x: F(T).softshrink(x, 0.5),
        act_samples((-0.5, 0.0, 0.5, -0.0)),
    ),
    OpEntry(
        "nn.functional.threshold",
        lambda T, x: F(T).threshold(x, 0.5, -2.0),
        act_samples((0.5, 0.0, 1.0)),
    ),
)


def _glu_samples(dtype: str) -> list[Sample]:
    r = _r()
    return [
        Sample((tensor_arg(r.standard_normal((3, 4))),), name="last dim"),
        Sample((tensor_arg(r.standard_normal((4, 3))),), {"dim": 0}, name="dim 0"),
        Sample((tensor_arg(r.standard_normal((2, 3))),), name="odd: error"),
    ]


def _prelu_samples(dtype: str) -> list[Sample]:
    r = _r()
    return [
        Sample(
            (tensor_arg(r.standard_normal((2, 3, 4))), tensor_arg(np.array([0.25, -0.5, 2.0]))),
            name="per channel",
        ),
        Sample(
            (tensor_arg(np.array([[0.0, -1.0, 2.0]])), tensor_arg(np.array([0.25]))),
            name="shared, kink",
        ),
        Sample((tensor_arg(r.standard_normal(5)), tensor_arg(np.array([0.1]))), name="1-d"),
    ]


register(
    OpEntry("nn.functional.glu", lambda T, x, **k: F(T).glu(x, **k), _glu_samples),
    OpEntry("nn.functional.prelu", lambda T, x, w: F(T).prelu(x, w), _prelu_samples),
)


def _softmax_samples(dtype: str) -> list[Sample]:
    r = _r()
    return [
        Sample((tensor_arg(r.standard_normal((3, 4))), 1), name="dim 1"),
        Sample((tensor_arg(r.standard_normal((3, 4))), 0), name="dim 0"),
        Sample((tensor_arg(r.standard_normal((2, 3, 4))), -1), name="3-d last"),
        Sample((tensor_arg(np.array(1.5)), 0), name="0-d"),
        Sample((tensor_arg(np.zeros((0, 3))), 1), name="empty"),
        Sample((tensor_arg(r.standard_normal((4, 3)), layout="transposed"), 1), name="non-contig"),
        Sample((tensor_arg(np.array([[1e4, -1e4, 0.0], [1e4, 1e4, 9999.0]])), 1), name="1e4"),
        Sample((tensor_arg(np.array([[2.0, 2.0, 2.0]])), 1), name="ties"),
        Sample((tensor_arg(r.standard_normal((3, 4))), 2), name="bad dim: error"),
        Sample((tensor_arg(r.standard_normal((3, 4))), 1), {"dtype": "float64"}, name="dtype="),
    ]


def _sm(name: str) -> Any:
    def op(T: Any, x: Any, dim: int, dtype: Any = None) -> Any:
        return getattr(F(T), name)(x, dim, dtype=getattr(T, dtype) if dtype else None)

    return op


register(
    OpEntry("nn.functional.softmax", _sm("softmax"), _softmax_samples),
    OpEntry("nn.functional.log_softmax", _sm("log_softmax"), _softmax_samples),
    OpEntry("nn.functional.softmin", _sm("softmin"), _softmax_samples),
)


def _dropout_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4))
    return [
        Sample((tensor_arg(x),), {"p": 0.0}, name="p=0"),
        Sample((tensor_arg(x),), {"p": 0.5, "training": False}, name="eval"),
        Sample((tensor_arg(x),), {"p": 1.0}, name="p=1"),
        Sample((tensor_arg(x),), {"p": 1.5}, name="bad p: error"),
    ]


def _dropout_op(T: Any, x: Any, **k: Any) -> Any:
    y = F(T).dropout(x, **k)
    return y, y is x


register(OpEntry("nn.functional.dropout", _dropout_op, _dropout_samples))


def _linear_samples(dtype: str) -> list[Sample]:
    r = _r()
    w = r.standard_normal((5, 4))
    b = r.standard_normal(5)
    return [
        Sample((tensor_arg(r.standard_normal((3, 4))), tensor_arg(w), tensor_arg(b)), name="2-d"),
        Sample((tensor_arg(r.standard_normal((3, 4))), tensor_arg(w)), name="no bias"),
        Sample(
            (tensor_arg(r.standard_normal((3, 4)), False), tensor_arg(w), tensor_arg(b)),
            name="input without grad",
        ),
        Sample(
            (tensor_arg(r.standard_normal((2, 3, 4))), tensor_arg(w), tensor_arg(b)), name="3-d"
        ),
        Sample((tensor_arg(r.standard_normal((2, 3, 4))), tensor_arg(w)), name="3-d no bias"),
        Sample((tensor_arg(r.standard_normal(4)), tensor_arg(w), tensor_arg(b)), name="1-d"),
        Sample((tensor_arg(r.standard_normal((3, 3))), tensor_arg(w), tensor_arg(b)), name="error"),
    ]


register(
    OpEntry("nn.functional.linear", lambda T, *a: F(T).linear(*a), _linear_samples),
    OpEntry(
        "nn.functional.linear_1d_nobias",
        lambda T, x, w: F(T).linear(x, w),
        # torch squeezes the mm result in place: SqueezeBackward4 (squeeze_.dim)
        lambda d: [Sample((tensor_arg(_r().standard_normal(4)), tensor_arg(np.ones((5, 4)))))],
    ),
)


def _conv2d_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 4, 6, 5))
    w = r.standard_normal((6, 4, 3, 2))
    b = r.standard_normal(6)
    wg = r.standard_normal((6, 2, 3, 3))
    return [
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(b)), name="basic"),
        Sample((tensor_arg(x), tensor_arg(w)), {"stride": 2, "padding": 1}, name="stride pad"),
        Sample(
            (tensor_arg(x), tensor_arg(w), tensor_arg(b)),
            {"stride": (2, 1), "padding": (2, 1), "dilation": (2, 1)},
            name="dilation",
        ),
        Sample(
            (tensor_arg(x), tensor_arg(wg), tensor_arg(b)),
            {"groups": 2, "padding": 1},
            name="groups",
        ),
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(b)), {"padding": "same"}, name="same"),
        Sample((tensor_arg(x), tensor_arg(w)), {"padding": "valid"}, name="valid"),
        Sample((tensor_arg(x[0]), tensor_arg(w), tensor_arg(b)), name="unbatched"),
        Sample((tensor_arg(x, False), tensor_arg(w), tensor_arg(b)), name="input no grad"),
        Sample((tensor_arg(x[:, :3]), tensor_arg(w)), name="channels: error"),
    ]


def _conv1d_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 4, 7))
    w = r.standard_normal((3, 4, 3))
    return [
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(r.standard_normal(3))), name="basic"),
        Sample(
            (tensor_arg(x), tensor_arg(w)),
            {"stride": 2, "padding": 2, "dilation": 2},
            name="stride pad dil",
        ),
        Sample(
            (tensor_arg(x), tensor_arg(r.standard_normal((4, 2, 2)))),
            {"groups": 2, "padding": "same"},
            name="groups same even kernel",
        ),
    ]


def _convt_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 4, 3, 4))
    w = r.standard_normal((4, 3, 3, 2))
    return [
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(r.standard_normal(3))), name="basic"),
        Sample(
            (tensor_arg(x), tensor_arg(w)),
            {"stride": 2, "padding": 1, "output_padding": 1},
            name="stride pad outpad",
        ),
        Sample(
            (tensor_arg(x), tensor_arg(r.standard_normal((4, 2, 2, 2)))),
            {"groups": 2, "dilation": 2},
            name="groups dilation",
        ),
    ]


register(
    OpEntry("nn.functional.conv2d", lambda T, *a, **k: F(T).conv2d(*a, **k), _conv2d_samples),
    OpEntry("nn.functional.conv1d", lambda T, *a, **k: F(T).conv1d(*a, **k), _conv1d_samples),
    OpEntry(
        "nn.functional.conv_transpose2d",
        lambda T, *a, **k: F(T).conv_transpose2d(*a, **k),
        _convt_samples,
    ),
    OpEntry(
        "nn.functional.conv_transpose1d",
        lambda T, *a, **k: F(T).conv_transpose1d(*a, **k),
        lambda d: [
            Sample(
                (
                    tensor_arg(_r().standard_normal((2, 4, 5))),
                    tensor_arg(_r().standard_normal((4, 3, 3))),
                ),
                {"stride": 2, "padding": 1},
            )
        ],
    ),
)


def _pool_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 7, 6))
    ties = np.array([[[[1.0, 1.0, 0.0], [1.0, 2.0, 2.0], [0.0, 2.0, 2.0]]]])
    return [
        Sample((tensor_arg(x), 2), name="k2"),
        Sample((tensor_arg(x), 3), {"stride": 2, "padding": 1}, name="stride pad"),
        Sample((tensor_arg(x), (3, 2)), {"stride": 2, "ceil_mode": True}, name="ceil"),
        Sample((tensor_arg(x), 3), {"stride": 2, "padding": 1, "ceil_mode": True}, name="ceil pad"),
        Sample((tensor_arg(x[0]), 2), name="unbatched"),
        Sample((tensor_arg(ties), 2), {"stride": 1}, name="ties"),
        Sample((tensor_arg(x), 2), {"padding": 2}, name="pad too big: error"),
    ]


def _maxpool_dil(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 7, 6))
    return [
        Sample((tensor_arg(x), 2), {"dilation": 2, "return_indices": True}, name="dil idx"),
        Sample((tensor_arg(x), 3), {"dilation": (1, 2), "padding": 1}, name="dil pad"),
    ]


def _avg_extra(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 7, 6))
    return [
        Sample(
            (tensor_arg(x), 3),
            {"stride": 2, "padding": 1, "count_include_pad": False},
            name="exclude pad",
        ),
        Sample(
            (tensor_arg(x), 3),
            {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False},
            name="ceil exclude",
        ),
        Sample((tensor_arg(x), 2), {"divisor_override": 3}, name="divisor"),
    ]


def _p1_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 7))
    return [
        Sample((tensor_arg(x), 2), name="k2"),
        Sample((tensor_arg(x), 3), {"stride": 2, "padding": 1}, name="stride pad"),
    ]


def _adaptive_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 7, 6))
    return [
        Sample((tensor_arg(x), 1), name="1"),
        Sample((tensor_arg(x), (3, 4)), name="3x4"),
        Sample((tensor_arg(x), (7, None)), name="None"),
        Sample((tensor_arg(x[0]), 2), name="unbatched"),
    ]


register(
    OpEntry(
        "nn.functional.max_pool2d",
        lambda T, *a, **k: F(T).max_pool2d(*a, **k),
        lambda d: _pool_samples(d) + _maxpool_dil(d),
    ),
    OpEntry(
        "nn.functional.avg_pool2d",
        lambda T, *a, **k: F(T).avg_pool2d(*a, **k),
        lambda d: _pool_samples(d) + _avg_extra(d),
    ),
    OpEntry("nn.functional.max_pool1d", lambda T, *a, **k: F(T).max_pool1d(*a, **k), _p1_samples),
    OpEntry("nn.functional.avg_pool1d", lambda T, *a, **k: F(T).avg_pool1d(*a, **k), _p1_samples),
    OpEntry(
        "nn.functional.adaptive_avg_pool2d",
        lambda T, *a: F(T).adaptive_avg_pool2d(*a),
        _adaptive_samples,
    ),
    OpEntry(
        "nn.functional.adaptive_max_pool2d",
        lambda T, *a: F(T).adaptive_max_pool2d(*a, return_indices=True),
        _adaptive_samples,
    ),
)


def _ln_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4, 5))
    return [
        Sample((tensor_arg(x), (5,)), name="last dim"),
        Sample(
            (
                tensor_arg(x),
                (4, 5),
                tensor_arg(r.standard_normal((4, 5))),
                tensor_arg(r.standard_normal((4, 5))),
            ),
            name="affine 2 dims",
        ),
        Sample((tensor_arg(x), [5], tensor_arg(r.standard_normal(5))), name="weight only"),
        Sample((tensor_arg(x * 1e4), (5,)), name="1e4"),
        Sample((tensor_arg(x), (4,)), name="bad shape: error"),
    ]


def _bn_op(T: Any, x: Any, w: Any, b: Any, training: bool) -> Any:
    c = x.shape[1]
    rm = T.tensor(np.linspace(-0.5, 0.5, c), dtype=x.dtype)
    rv = T.tensor(np.linspace(0.5, 2.0, c), dtype=x.dtype)
    y = F(T).batch_norm(x, rm, rv, w, b, training=training, momentum=0.3)
    return y, rm, rv


def _bn_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((4, 3, 2, 5))
    w, b = r.standard_normal(3), r.standard_normal(3)
    return [
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(b), True), name="train"),
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(b), False), name="eval"),
        Sample((tensor_arg(x[:, :, 0, 0]), None, None, True), name="2-d no affine"),
        Sample((tensor_arg(x[:, :, 0]), tensor_arg(w), None, False), name="3-d eval"),
        Sample((tensor_arg(x[:1, :, 0, 0]), None, None, True), name="one value: error"),
    ]


def _gn_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 6, 3, 2))
    return [
        Sample(
            (tensor_arg(x), 3, tensor_arg(r.standard_normal(6)), tensor_arg(r.standard_normal(6))),
            name="affine",
        ),
        Sample((tensor_arg(x[:, :, 0]), 2), name="3-d"),
        Sample((tensor_arg(x), 4), name="not divisible: error"),
    ]


register(
    OpEntry("nn.functional.layer_norm", lambda T, *a: F(T).layer_norm(*a), _ln_samples),
    OpEntry("nn.functional.batch_norm", _bn_op, _bn_samples),
    OpEntry("nn.functional.group_norm", lambda T, *a: F(T).group_norm(*a), _gn_samples),
    OpEntry(
        "nn.functional.instance_norm",
        lambda T, x: F(T).instance_norm(x),
        lambda d: [Sample((tensor_arg(_r().standard_normal((2, 3, 4))),))],
    ),
)


def _emb_samples(dtype: str) -> list[Sample]:
    r = _r()
    w = r.standard_normal((5, 3))
    idx = np.array([[0, 2, 4], [2, 2, 1]])
    return [
        Sample((tensor_arg(idx), tensor_arg(w)), name="basic, repeats"),
        Sample((tensor_arg(idx), tensor_arg(w)), {"padding_idx": 2}, name="padding_idx"),
        Sample((tensor_arg(idx), tensor_arg(w)), {"padding_idx": -1}, name="negative padding"),
        Sample((tensor_arg(idx), tensor_arg(w)), {"scale_grad_by_freq": True}, name="freq"),
        Sample((tensor_arg(np.array(3)), tensor_arg(w)), name="0-d index"),
        Sample((tensor_arg(np.array([5])), tensor_arg(w)), name="out of range: error"),
    ]


def _emb_max_norm(T: Any, idx: Any, w: Any) -> Any:
    w2 = w.detach().clone()
    y = F(T).embedding(idx, w2, max_norm=1.0)
    return y, w2


def _one_hot_samples(dtype: str) -> list[Sample]:
    return [
        Sample((tensor_arg(np.array([0, 3, 1])),), name="infer"),
        Sample((tensor_arg(np.array([[0, 1], [2, 0]])), 5), name="num_classes"),
        Sample((tensor_arg(np.array([0, 3])), 2), name="too large: error"),
        Sample((tensor_arg(np.array([-1, 0])),), name="negative: error"),
        Sample((tensor_arg(np.zeros(0, np.int64)),), name="empty: error"),
    ]


register(
    OpEntry("nn.functional.embedding", lambda T, *a, **k: F(T).embedding(*a, **k), _emb_samples),
    OpEntry(
        "nn.functional.embedding_max_norm",
        _emb_max_norm,
        lambda d: [
            Sample((tensor_arg(np.array([0, 2, 2])), tensor_arg(_r().standard_normal((4, 3)) * 2)))
        ],
        supports_grad=False,
    ),
    OpEntry(
        "nn.functional.one_hot",
        lambda T, *a: F(T).one_hot(*a),
        _one_hot_samples,
        supports_grad=False,
    ),
)


def _pad_samples(dtype: str) -> list[Sample]:
    r = _r()
    x3 = r.standard_normal((2, 3, 4))
    x4 = r.standard_normal((2, 2, 3, 4))
    x5 = r.standard_normal((1, 2, 3, 3, 4))
    out = [
        Sample((tensor_arg(x3), (1, 2)), name="constant 1d"),
        Sample((tensor_arg(x4), (1, 2, 0, 1)), {"value": 1.5}, name="constant value"),
        Sample((tensor_arg(x4), (-1, 2, 1, -1)), name="constant negative"),
        Sample((tensor_arg(x4), (1, 1, 1, 1, 1, 1, 1, 1, 1, 1)), name="too long: error"),
        Sample((tensor_arg(x4), (1,)), name="odd: error"),
    ]
    for mode in ("reflect", "replicate", "circular"):
        out += [
            Sample((tensor_arg(x3), (1, 2)), {"mode": mode}, name=f"{mode} 1d"),
            Sample((tensor_arg(x4), (1, 2, 2, 0)), {"mode": mode}, name=f"{mode} 2d"),
            Sample((tensor_arg(x5), (1, 1, 2, 1, 0, 1)), {"mode": mode}, name=f"{mode} 3d"),
        ]
    out.append(Sample((tensor_arg(x3), (4, 0)), {"mode": "reflect"}, name="reflect: error"))
    return out


register(
    OpEntry(
        "nn.functional.pad",
        lambda T, *a, **k: F(T).pad(*a, **k),
        _pad_samples,
    ),
)


# --- losses -------------------------------------------------------------------------------


def _pair_loss_samples(dtype: str) -> list[Sample]:
    r = _r()
    a, b = r.standard_normal((3, 4)), r.standard_normal((3, 4))
    out = []
    for red in ("mean", "sum", "none"):
        out.append(Sample((tensor_arg(a), tensor_arg(b)), {"reduction": red}, name=red))
    out += [
        Sample((tensor_arg(a), tensor_arg(a.copy())), name="equal (kink)"),
        Sample((tensor_arg(a), tensor_arg(b, False)), name="target no grad"),
        Sample((tensor_arg(np.array(1.5)), tensor_arg(np.array(-0.5))), name="0-d"),
        Sample((tensor_arg(np.zeros((0, 2))), tensor_arg(np.zeros((0, 2)))), name="empty"),
        Sample((tensor_arg(a), tensor_arg(b, layout="transposed")), name="non-contig"),
        Sample((tensor_arg(a), tensor_arg(b[:1])), name="broadcast (warns)"),
        Sample((tensor_arg(a), tensor_arg(b)), {"reduction": "avg"}, name="bad reduction: error"),
    ]
    return out


def _near_samples(bound: float) -> Any:
    def s(dtype: str) -> list[Sample]:
        a = np.array([0.0, bound, -bound, 2 * bound, -0.5 * bound, 3.0])
        return [
            *_pair_loss_samples(dtype),
            Sample((tensor_arg(a), tensor_arg(np.zeros(6))), name="at the bounds"),
        ]

    return s


register(
    OpEntry(
        "nn.functional.mse_loss", lambda T, *a, **k: F(T).mse_loss(*a, **k), _pair_loss_samples
    ),
    OpEntry(
        "nn.functional.l1_loss",
        lambda T, *a, **k: F(T).l1_loss(*a, **k),
        _pair_loss_samples,
        # torch's second derivative of abs is a ZeroTensor, which checks.to_numpy cannot read
        supports_gradgrad=False,
    ),
    OpEntry(
        "nn.functional.smooth_l1_loss",
        lambda T, *a, **k: F(T).smooth_l1_loss(*a, beta=0.5, **k),
        _near_samples(0.5),
    ),
    OpEntry(
        "nn.functional.smooth_l1_loss_beta0",
        lambda T, *a, **k: F(T).smooth_l1_loss(*a, beta=0.0, **k),
        _pair_loss_samples,
        supports_gradgrad=False,  # l1: torch's second derivative is a ZeroTensor (see l1_loss)
    ),
    OpEntry(
        "nn.functional.huber_loss",
        lambda T, *a, **k: F(T).huber_loss(*a, delta=0.7, **k),
        _near_samples(0.7),
    ),
)


def _bce_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.uniform(0.05, 0.95, (3, 4))
    t = r.uniform(0, 1, (3, 4))
    w = r.uniform(0.5, 2, (4,))
    out = [
        Sample((tensor_arg(x), tensor_arg(t)), {"reduction": red}, name=red)
        for red in ("mean", "sum", "none")
    ]
    out += [
        Sample((tensor_arg(x), tensor_arg(t, False), tensor_arg(w, False)), name="weight"),
        Sample((tensor_arg(x), tensor_arg(t[:1])), name="size mismatch: error"),
        Sample((tensor_arg(x + 1), tensor_arg(t)), name="out of [0,1]: error"),
    ]
    return out


def _bce_logits_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((3, 4)) * 3
    t = r.uniform(0, 1, (3, 4))
    w = r.uniform(0.5, 2, (4,))
    out = [
        Sample((tensor_arg(x), tensor_arg(t)), {"reduction": red}, name=red)
        for red in ("mean", "sum", "none")
    ]
    out += [
        Sample(
            (tensor_arg(x), tensor_arg(t), tensor_arg(w, False)),
            {"pos_weight": tensor_arg(r.uniform(0.5, 3, (4,)), False)},
            name="weights",
        ),
        Sample(
            (tensor_arg(np.array([-1e4, 1e4, 0.0])), tensor_arg(np.array([1.0, 0.0, 0.5]))),
            name="1e4",
        ),
        Sample((tensor_arg(x), tensor_arg(t[:1])), name="size mismatch: error"),
    ]
    return out


def _bce_clamp_samples(dtype: str) -> list[Sample]:
    x, t = np.array([0.0, 1.0, 0.5]), np.array([1.0, 0.0, 0.5])
    return [Sample((tensor_arg(x), tensor_arg(t, False)), name="log clamp at 0 and 1")]


register(
    OpEntry(
        "nn.functional.binary_cross_entropy_clamped",
        lambda T, *a, **k: F(T).binary_cross_entropy(*a, **k),
        _bce_clamp_samples,
        # at x = 0 or 1 torch's double backward divides by (x + 1e-12)^2 (1e23), ours by 1e-12
        supports_gradgrad=False,
    ),
    OpEntry(
        "nn.functional.binary_cross_entropy",
        lambda T, *a, **k: F(T).binary_cross_entropy(*a, **k),
        _bce_samples,
    ),
    OpEntry(
        "nn.functional.binary_cross_entropy_with_logits",
        lambda T, *a, **k: F(T).binary_cross_entropy_with_logits(*a, **k),
        _bce_logits_samples,
    ),
)


def _nll_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((4, 3))
    t = np.array([0, 2, 1, 2])
    w = np.array([0.5, 2.0, 1.0])
    out = [
        Sample((tensor_arg(x), tensor_arg(t)), {"reduction": red}, name=red)
        for red in ("mean", "sum", "none")
    ]
    for red in ("mean", "none"):
        out.append(
            Sample(
                (tensor_arg(x), tensor_arg(t), tensor_arg(w, False)),
                {"reduction": red, "ignore_index": 2},
                name=f"weight ignore {red}",
            )
        )
    out += [
        Sample(
            (tensor_arg(r.standard_normal((2, 3, 4, 2))), tensor_arg(r.integers(0, 3, (2, 4, 2)))),
            name="k-d",
        ),
        Sample(
            (tensor_arg(r.standard_normal((2, 3, 4))), tensor_arg(r.integers(0, 3, (2, 4)))),
            {"reduction": "none"},
            name="k-d none",
        ),
        Sample((tensor_arg(r.standard_normal(3)), tensor_arg(np.array(1))), name="unbatched"),
        Sample(
            (tensor_arg(x), tensor_arg(np.array([2, 2, 2, 2]))),
            {"ignore_index": 2},
            name="all ignored",
        ),
        Sample((tensor_arg(x), tensor_arg(np.array([0, 3, 1, 2]))), name="out of bounds: error"),
        Sample((tensor_arg(x), tensor_arg(t[:3])), name="batch mismatch: error"),
        Sample((tensor_arg(x), tensor_arg(t.astype(float), False)), name="float target: error"),
        Sample((tensor_arg(x, layout="transposed"), tensor_arg(t)), name="non-contig"),
    ]
    return out


def _ce_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((4, 3))
    t = np.array([0, 2, 1, 2])
    w = np.array([0.5, 2.0, 1.0])
    p = r.uniform(0, 1, (4, 3))
    p /= p.sum(1, keepdims=True)
    out = _nll_samples(dtype)[:-3]
    for ls in (0.0, 0.2):
        for red in ("mean", "sum", "none"):
            out.append(
                Sample(
                    (tensor_arg(x), tensor_arg(p, False)),
                    {"reduction": red, "label_smoothing": ls},
                    name=f"probs {red} {ls}",
                )
            )
            out.append(
                Sample(
                    (tensor_arg(x), tensor_arg(t), tensor_arg(w, False)),
                    {"reduction": red, "label_smoothing": 0.2, "ignore_index": 1},
                    name=f"smoothing {red}",
                )
            )
    out += [
        Sample((tensor_arg(x), tensor_arg(t)), {"label_smoothing": 0.1}, name="smoothing"),
        Sample((tensor_arg(x), tensor_arg(p, False), tensor_arg(w, False)), name="probs weight"),
        Sample((tensor_arg(np.array([[1e4, -1e4, 0.0]])), tensor_arg(np.array([1]))), name="1e4"),
        Sample(
            (tensor_arg(np.array([[1.0, 2.0], [0.5, 0.5]])), tensor_arg(np.array([0, 1]))),
            name="semantics 14.15",
        ),
    ]
    return out


register(
    OpEntry("nn.functional.nll_loss", lambda T, *a, **k: F(T).nll_loss(*a, **k), _nll_samples),
    OpEntry(
        "nn.functional.cross_entropy",
        lambda T, *a, **k: F(T).cross_entropy(*a, **k),
        _ce_samples,
    ),
)


def _kl_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = np.log(r.uniform(0.1, 1, (3, 4)))
    t = r.uniform(0, 1, (3, 4))
    t[0, 0] = 0.0
    out = [
        Sample((tensor_arg(x), tensor_arg(t, False)), {"reduction": red}, name=red)
        for red in ("sum", "none", "batchmean", "mean")
    ]
    out += [
        Sample(
            (tensor_arg(x), tensor_arg(np.log(t + 0.1))),
            {"reduction": "batchmean", "log_target": True},
            name="log_target",
        ),
        Sample((tensor_arg(x), tensor_arg(t + 0.1)), {"reduction": "sum"}, name="target grad"),
    ]
    return out


register(
    OpEntry("nn.functional.kl_div", lambda T, *a, **k: F(T).kl_div(*a, **k), _kl_samples),
)


def _dist_samples(dtype: str) -> list[Sample]:
    r = _r()
    a, b = r.standard_normal((3, 4)), r.standard_normal((3, 4))
    return [
        Sample((tensor_arg(a), tensor_arg(b)), name="2-d"),
        Sample((tensor_arg(a), tensor_arg(b[:1])), name="broadcast"),
        Sample(
            (tensor_arg(r.standard_normal(4)), tensor_arg(r.standard_normal(4))),
            {"dim": 0},
            name="1-d",
        ),
        Sample((tensor_arg(a), tensor_arg(b)), {"dim": 0}, name="dim 0"),
    ]


def _pd_samples(dtype: str) -> list[Sample]:
    r = _r()
    a, b = r.standard_normal((3, 4)), r.standard_normal((3, 4))
    return [
        Sample((tensor_arg(a), tensor_arg(b)), name="p=2"),
        Sample((tensor_arg(a), tensor_arg(b)), {"p": 3.0}, name="p=3"),
        Sample((tensor_arg(a), tensor_arg(b[:1])), name="broadcast"),
    ]


def _normalize_samples(dtype: str) -> list[Sample]:
    r = _r()
    a = r.standard_normal((3, 4))
    return [
        Sample((tensor_arg(a),), name="default"),
        Sample((tensor_arg(a),), {"p": 1.0, "dim": 0}, name="p=1 dim 0"),
        Sample((tensor_arg(np.array([[0.0, 0.0], [1.0, 2.0]])),), name="zero row"),
    ]


register(
    OpEntry(
        "nn.functional.cosine_similarity",
        lambda T, *a, **k: F(T).cosine_similarity(*a, **k),
        _dist_samples,
    ),
    OpEntry(
        "nn.functional.pairwise_distance",
        lambda T, *a, **k: F(T).pairwise_distance(*a, **k),
        _pd_samples,
    ),
    OpEntry(
        "nn.functional.pairwise_distance_p1",
        lambda T, *a, **k: F(T).pairwise_distance(*a, p=1.0, keepdim=True),
        lambda d: _pd_samples(d)[:1],
        # torch's second derivative of sgn is a ZeroTensor, which checks.to_numpy cannot read
        supports_gradgrad=False,
    ),
    OpEntry(
        "nn.functional.normalize",
        lambda T, *a, **k: F(T).normalize(*a, **k),
        _normalize_samples,
    ),
)


def _sdpa_op(T: Any, q: Any, k: Any, v: Any, mask: Any = None, **kw: Any) -> Any:
    if mask is not None and mask.dtype == T.int64:
        mask = mask.bool()
    return F(T).scaled_dot_product_attention(q, k, v, mask, **kw)


def _sdpa_samples(dtype: str) -> list[Sample]:
    r = _r()
    q, k, v = (r.standard_normal((2, 3, 4)) for _ in range(3))
    k5, v5 = r.standard_normal((2, 5, 4)), r.standard_normal((2, 5, 2))
    bmask = np.array([[1, 0, 1, 1, 0], [1, 1, 1, 1, 1], [0, 0, 0, 0, 1]])
    return [
        Sample((tensor_arg(q), tensor_arg(k), tensor_arg(v)), name="basic"),
        Sample((tensor_arg(q), tensor_arg(k), tensor_arg(v)), {"is_causal": True}, name="causal"),
        Sample(
            (tensor_arg(q), tensor_arg(k5), tensor_arg(v5), tensor_arg(bmask)), name="bool mask"
        ),
        Sample(
            (
                tensor_arg(q),
                tensor_arg(k5),
                tensor_arg(v5),
                tensor_arg(r.standard_normal((3, 5)), False),
            ),
            {"scale": 0.3},
            name="float mask",
        ),
        Sample(
            (
                tensor_arg(r.standard_normal((2, 2, 3, 4))),
                tensor_arg(r.standard_normal((2, 2, 3, 4))),
                tensor_arg(r.standard_normal((2, 2, 3, 4))),
            ),
            name="4-d",
        ),
        Sample(
            (
                tensor_arg(r.standard_normal((2, 4, 3, 4))),
                tensor_arg(r.standard_normal((2, 2, 5, 4))),
                tensor_arg(r.standard_normal((2, 2, 5, 4))),
                tensor_arg(np.stack([bmask, bmask[::-1]])[:, None]),
            ),
            {"enable_gqa": True},
            name="4-d grouped heads, bool mask (flash)",
        ),
        Sample(
            (
                tensor_arg(r.standard_normal((1, 2, 4, 3))),
                tensor_arg(r.standard_normal((1, 2, 3, 3))),
                tensor_arg(r.standard_normal((1, 2, 3, 3))),
            ),
            {"is_causal": True, "scale": 0.7},
            name="4-d causal, more queries than keys (flash)",
        ),
        Sample(
            (
                tensor_arg(r.standard_normal((2, 2, 3, 4))),
                tensor_arg(r.standard_normal((2, 2, 5, 4))),
                tensor_arg(r.standard_normal((2, 2, 5, 4))),
                tensor_arg(r.standard_normal((3, 5))),
            ),
            name="4-d float mask with grad (math)",
        ),
    ]


def _unfold_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 3, 5, 4))
    return [
        Sample((tensor_arg(x), 2), name="k2"),
        Sample(
            (tensor_arg(x), (2, 3)),
            {"dilation": (2, 1), "padding": 1, "stride": 2},
            name="all options",
        ),
    ]


def _fold_samples(dtype: str) -> list[Sample]:
    r = _r()
    return [
        Sample((tensor_arg(r.standard_normal((2, 12, 12))), (5, 4), 2), name="k2"),
        Sample(
            (tensor_arg(r.standard_normal((1, 6, 6))), (5, 4), (1, 2)),
            {"stride": 2, "padding": 1},
            name="stride pad",
        ),
    ]


register(
    OpEntry(
        "nn.functional.scaled_dot_product_attention",
        _sdpa_op,
        _sdpa_samples,
    ),
    OpEntry("nn.functional.unfold", lambda T, *a, **k: F(T).unfold(*a, **k), _unfold_samples),
    OpEntry("nn.functional.fold", lambda T, *a, **k: F(T).fold(*a, **k), _fold_samples),
)


# --- 3-d convolution and pooling, the remaining pooling variants ----------------------------


def _conv3d_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 4, 4, 5, 3))
    w = r.standard_normal((3, 4, 2, 3, 2))
    b = r.standard_normal(3)
    return [
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(b)), name="basic"),
        Sample(
            (tensor_arg(x), tensor_arg(w)),
            {"stride": (2, 1, 2), "padding": 1, "dilation": (1, 2, 1)},
            name="stride pad dilation",
        ),
        Sample(
            (
                tensor_arg(x),
                tensor_arg(r.standard_normal((4, 2, 2, 2, 2))),
                tensor_arg(r.standard_normal(4)),
            ),
            {"groups": 2, "padding": "same"},
            name="groups same even kernel",
        ),
        Sample((tensor_arg(x), tensor_arg(w)), {"padding": "valid"}, name="valid"),
        Sample((tensor_arg(x[0]), tensor_arg(w), tensor_arg(b)), name="unbatched"),
        Sample(
            (tensor_arg(x.transpose(0, 1, 4, 3, 2), layout="transposed"), tensor_arg(w)),
            name="non-contiguous",
        ),
        Sample((tensor_arg(x[:0]), tensor_arg(w)), name="empty batch"),
        Sample((tensor_arg(x[:, :3]), tensor_arg(w)), name="channels: error"),
        Sample((tensor_arg(x[0, 0, 0]), tensor_arg(w)), name="3-d input: error"),
    ]


def _convt3d_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 4, 3, 2, 3))
    w = r.standard_normal((4, 3, 2, 2, 3))
    return [
        Sample((tensor_arg(x), tensor_arg(w), tensor_arg(r.standard_normal(3))), name="basic"),
        Sample(
            (tensor_arg(x), tensor_arg(w)),
            {"stride": 2, "padding": (1, 0, 1), "output_padding": (1, 0, 1)},
            name="stride pad outpad",
        ),
        Sample(
            (tensor_arg(x), tensor_arg(r.standard_normal((4, 2, 2, 1, 2)))),
            {"groups": 2, "dilation": 2},
            name="groups dilation",
        ),
        Sample((tensor_arg(x[0]), tensor_arg(w)), name="unbatched"),
        Sample((tensor_arg(x[0, 0]), tensor_arg(w)), name="3-d input: error"),
    ]


def _pool3d_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 2, 5, 4, 6))
    ties = np.ones((1, 1, 2, 2, 2))
    return [
        Sample((tensor_arg(x), 2), name="k2"),
        Sample((tensor_arg(x), (3, 2, 3)), {"stride": 2, "padding": 1}, name="stride pad"),
        Sample((tensor_arg(x), 2), {"stride": (2, 1, 3), "ceil_mode": True}, name="ceil"),
        Sample((tensor_arg(x[0]), 2), name="unbatched"),
        Sample(
            (tensor_arg(x.transpose(0, 1, 4, 3, 2), layout="transposed"), 2),
            name="non-contiguous",
        ),
        Sample((tensor_arg(x[:0]), 2), name="empty batch"),
        Sample((tensor_arg(ties), 2), {"stride": 1}, name="ties"),
        Sample((tensor_arg(x), 2), {"padding": 2}, name="pad too big: error"),
        Sample((tensor_arg(x[0, 0]), 2), name="3-d input: error"),
        Sample((tensor_arg(x), (2, 2)), name="kernel of 2: error"),
    ]


def _maxpool3d_extra(dtype: str) -> list[Sample]:
    x = _r().standard_normal((2, 2, 5, 4, 6))
    return [
        Sample((tensor_arg(x), 2), {"dilation": 2, "return_indices": True}, name="dil idx"),
        Sample((tensor_arg(x), 3), {"dilation": (1, 2, 1), "padding": 1}, name="dil pad"),
        Sample((tensor_arg(x), 7), name="too small: error"),
    ]


def _avgpool3d_extra(dtype: str) -> list[Sample]:
    x = _r().standard_normal((2, 2, 5, 4, 6))
    return [
        Sample(
            (tensor_arg(x), 3),
            {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False},
            name="ceil exclude",
        ),
        Sample((tensor_arg(x), 2), {"divisor_override": 3}, name="divisor"),
        Sample((tensor_arg(x), 2), {"divisor_override": 0}, name="divisor 0: error"),
    ]


def _adaptive3d_samples(dtype: str) -> list[Sample]:
    r = _r()
    x = r.standard_normal((2, 2, 5, 4, 6))
    return [
        Sample((tensor_arg(x), 1), name="1"),
        Sample((tensor_arg(x), (3, 4, 4)), name="3x4x4"),
        Sample((tensor_arg(x), (2, None, 7)), name="None, upsampling"),
        Sample((tensor_arg(x[0]), 2), name="unbatched"),
        Sample((tensor_arg(x[:0]), 2), name="empty batch"),
        Sample((tensor_arg(x[0, 0]), 2), name="3-d input: error"),
    ]


def _p1_extra(dtype: str) -> list[Sample]:
    x = _r().standard_normal((2, 3, 7))
    return [
        Sample((tensor_arg(x), 3), name="3"),
        Sample((tensor_arg(x[0]), 4), name="unbatched"),
        Sample((tensor_arg(x), 9), name="upsampling"),
        Sample((tensor_arg(x[None]), 2), name="4-d: error"),
    ]


def _unpool_op(T: Any, x: Any, nd: int, k: int, s: Any = None, p: int = 0, size: Any = None):
    f = F(T)
    y, i = getattr(f, f"max_pool{nd}d")(x, k, s, p, return_indices=True)
    return getattr(f, f"max_unpool{nd}d")(y, i, k, s, p, output_size=size)


def _unpool_samples(nd: int) -> Any:
    def samples(dtype: str) -> list[Sample]:
        x = _r().standard_normal((2, 2, *(5, 4, 6)[3 - nd :]))
        return [
            Sample((tensor_arg(x), nd, 2), name="k2"),
            Sample((tensor_arg(x), nd, 3, 2, 1), name="stride pad"),
            Sample((tensor_arg(x[0]), nd, 2), name="unbatched"),
            Sample(
                (tensor_arg(x), nd, 2, None, 0, [v + 1 for v in x.shape[2:]]), name="output_size"
            ),
            Sample((tensor_arg(x), nd, 2, None, 0, [1] * nd), name="bad output_size: error"),
        ]

    return samples


def _lp_samples(nd: int) -> Any:
    def samples(dtype: str) -> list[Sample]:
        x = np.abs(_r().standard_normal((2, 2, *(5, 4, 6)[3 - nd :]))) + 0.1
        return [
            Sample((tensor_arg(x), 2.0, 2), name="p2"),
            Sample((tensor_arg(x), 1.5, 3, 2), {"ceil_mode": True}, name="p1.5 stride ceil"),
            Sample((tensor_arg(x - 0.6), 3.0, 2), name="p3 signed"),
            Sample((tensor_arg(x - 0.6), float("inf"), 2), name="inf"),
            Sample((tensor_arg(x[0]), 2.0, 2), name="unbatched"),
        ]

    return samples


register(
    OpEntry("nn.functional.conv3d", lambda T, *a, **k: F(T).conv3d(*a, **k), _conv3d_samples),
    OpEntry("conv3d", lambda T, *a, **k: T.conv3d(*a, **k), _conv3d_samples),
    OpEntry(
        "nn.functional.conv_transpose3d",
        lambda T, *a, **k: F(T).conv_transpose3d(*a, **k),
        _convt3d_samples,
    ),
    OpEntry("conv_transpose3d", lambda T, *a, **k: T.conv_transpose3d(*a, **k), _convt3d_samples),
    OpEntry(
        "nn.functional.max_pool3d",
        lambda T, *a, **k: F(T).max_pool3d(*a, **k),
        lambda d: _pool3d_samples(d) + _maxpool3d_extra(d),
    ),
    OpEntry(
        "nn.functional.max_pool3d_with_indices",
        lambda T, *a, **k: F(T).max_pool3d_with_indices(*a, **k),
        _pool3d_samples,
    ),
    OpEntry(
        "nn.functional.max_pool2d_with_indices",
        lambda T, *a, **k: F(T).max_pool2d_with_indices(*a, **k),
        _pool_samples,
    ),
    OpEntry(
        "nn.functional.max_pool1d_with_indices",
        lambda T, *a, **k: F(T).max_pool1d_with_indices(*a, **k),
        _p1_samples,
    ),
    OpEntry(
        "nn.functional.avg_pool3d",
        lambda T, *a, **k: F(T).avg_pool3d(*a, **k),
        lambda d: _pool3d_samples(d)[:-1] + _avgpool3d_extra(d),
    ),
    OpEntry(
        "nn.functional.adaptive_avg_pool3d",
        lambda T, *a: F(T).adaptive_avg_pool3d(*a),
        _adaptive3d_samples,
    ),
    OpEntry(
        "nn.functional.adaptive_max_pool3d",
        lambda T, *a: F(T).adaptive_max_pool3d(*a, return_indices=True),
        _adaptive3d_samples,
    ),
    OpEntry(
        "nn.functional.adaptive_max_pool3d_with_indices",
        lambda T, *a: F(T).adaptive_max_pool3d_with_indices(*a),
        _adaptive3d_samples,
    ),
    OpEntry(
        "nn.functional.adaptive_max_pool2d_with_indices",
        lambda T, *a: F(T).adaptive_max_pool2d_with_indices(*a),
        _adaptive_samples,
    ),
    OpEntry(
        "nn.functional.adaptive_max_pool1d",
        lambda T, *a: F(T).adaptive_max_pool1d(*a, return_indices=True),
        _p1_extra,
    ),
    OpEntry(
        "nn.functional.adaptive_max_pool1d_with_indices",
        lambda T, *a: F(T).adaptive_max_pool1d_with_indices(*a),
        _p1_extra,
    ),
    *(OpEntry(f"nn.functional.max_unpool{n}d", _unpool_op, _unpool_samples(n)) for n in (1, 2, 3)),
    *(
        OpEntry(
            f"nn.functional.lp_pool{n}d",
            lambda T, *a, _n=n, **k: getattr(F(T), f"lp_pool{_n}d")(*a, **k),
            _lp_samples(n),
        )
        for n in (1, 2, 3)
    ),
)
