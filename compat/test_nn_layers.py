"""Resampling, normalization and shuffle layers of torch.nn against torch.

Each program is written once against the torch API and run with both libraries: values,
gradients, double-backward graphs, grad_fn names, errors, warnings, reprs and state dicts.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad

from .nn_helpers import _error, _np_copy

rng = np.random.default_rng(0)


def _run(T, fn, x, dtype):
    t = T.tensor(x.astype(dtype), requires_grad=True)
    y = fn(T, t)
    g = np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)).astype(dtype)
    y.backward(T.tensor(g))
    return _np_copy(y), _np_copy(t.grad), y.grad_fn.name(), tuple(y.stride())


# --- interpolate: every mode, size and scale form, align_corners, recompute -----------------
_SIZES = [
    {"scale_factor": 2},
    {"scale_factor": 1.7},
    {"scale_factor": 0.6},
    {"scale_factor": 2.1},  # size doubles, scale does not: torch's nearest shortcuts differ
    {"scale_factor": 1.1},  # size unchanged, scale given
    {"scale_factor": 1.7, "recompute_scale_factor": True},
    {"size": 1},
]
_ALIGNED = [{"scale_factor": 1.7}, {"size": 7}, {"size": 1}, {"scale_factor": 0.6}]
_MODES = {
    3: ["nearest", "nearest-exact", "linear", "area"],
    4: ["nearest", "nearest-exact", "bilinear", "bicubic", "area"],
    5: ["nearest", "nearest-exact", "trilinear"],
}
INTERP_CASES = []
for _n, _modes in _MODES.items():
    for _m in _modes:
        _kws = [*_SIZES, {"size": tuple(range(3, 3 + _n - 2))}]
        if _m not in ("nearest", "nearest-exact", "area"):
            _kws += [{**k, "align_corners": True} for k in _ALIGNED]
        if _m in ("bilinear", "bicubic"):
            _kws += [{**k, "antialias": True} for k in [*_SIZES, *_ALIGNED]]
        for _kw in _kws:
            INTERP_CASES.append(pytest.param(_n, _m, _kw, id=f"{_n}d-{_m}-{_kw}"))


@pytest.mark.parametrize(("n", "mode", "kw"), INTERP_CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_interpolate_matches_torch(n, mode, kw, dtype):
    x = rng.standard_normal((2, 3, *range(4, 4 + n - 2)))
    kw = {k: (tuple(v) if k == "size" and isinstance(v, tuple) else v) for k, v in kw.items()}

    def fn(T, t):
        return T.nn.functional.interpolate(t, mode=mode, **kw)

    a, b = _run(torch, fn, x, dtype), _run(shadowgrad, fn, x, dtype)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    assert a[0].shape == b[0].shape
    np.testing.assert_allclose(b[0], a[0], atol=tol)
    np.testing.assert_allclose(b[1], a[1], atol=10 * tol)
    assert b[2:] == a[2:]


@pytest.mark.parametrize(
    ("mode", "shape"),
    [
        ("nearest", (1, 2, 5)),
        ("nearest", (1, 2, 3, 4)),
        ("nearest-exact", (1, 2, 3, 4)),
        ("linear", (1, 2, 5)),
        ("bilinear", (1, 2, 3, 4)),
        ("bicubic", (1, 2, 3, 4)),
        ("trilinear", (1, 1, 2, 3, 2)),
        ("bilinear-aa", (1, 2, 5, 4)),
        ("bicubic-aa", (1, 2, 5, 4)),
    ],
)
def test_interpolate_double_backward_matches_torch(mode, shape):
    x = rng.standard_normal(shape)

    def prog(T):
        t = T.tensor(x, requires_grad=True)
        m, aa = mode.removesuffix("-aa"), mode.endswith("-aa")
        y = T.nn.functional.interpolate(t, scale_factor=0.7 if aa else 1.5, mode=m, antialias=aa)
        go = T.tensor(rng_go(y.shape), requires_grad=True)
        (g,) = T.autograd.grad(y, t, go, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), go)
        return g.grad_fn.name(), _np_copy(g), _np_copy(gg)

    def rng_go(shape):
        return np.linspace(-1, 2, int(np.prod(shape))).reshape(tuple(shape))

    a, b = prog(torch), prog(shadowgrad)
    assert a[0] == b[0]
    np.testing.assert_allclose(b[1], a[1], atol=1e-12)
    np.testing.assert_allclose(b[2], a[2], atol=1e-12)


def test_interpolate_gradcheck_float64():
    x = shadowgrad.tensor(rng.standard_normal((1, 2, 3, 4)), requires_grad=True)
    for mode in ("bilinear", "bicubic", "nearest"):
        assert shadowgrad.autograd.gradcheck(
            lambda t, m=mode: shadowgrad.nn.functional.interpolate(t, size=(5, 3), mode=m), (x,)
        )
        assert shadowgrad.autograd.gradgradcheck(
            lambda t, m=mode: shadowgrad.nn.functional.interpolate(t, size=(5, 3), mode=m), (x,)
        )


def test_interpolate_other_dtypes_and_layouts_match_torch():
    x = rng.standard_normal((2, 3, 4, 5))

    def prog(T):
        out = []
        h = T.tensor(x.astype(np.float16))
        out.append(_np_copy(T.nn.functional.interpolate(h, scale_factor=1.5, mode="bilinear")))
        out.append(_np_copy(T.nn.functional.interpolate(h, size=(3, 7), mode="nearest")))
        u = T.tensor((np.abs(x) * 40).astype(np.uint8))
        out.append(_np_copy(T.nn.functional.interpolate(u, scale_factor=1.5)))
        out.append(_np_copy(T.nn.functional.interpolate(u, size=(7, 3), mode="nearest-exact")))
        nc = T.tensor(x).transpose(2, 3)
        out.append(_np_copy(T.nn.functional.interpolate(nc, size=(3, 3), mode="bicubic")))
        e = T.zeros(0, 3, 4, 4, requires_grad=True)
        y = T.nn.functional.interpolate(e, size=3, mode="bilinear")
        out.append((tuple(y.shape), y.grad_fn.name()))
        return out

    a, b = prog(torch), prog(shadowgrad)
    for u, v in zip(a[:-1], b[:-1], strict=True):
        assert u.dtype == v.dtype
        np.testing.assert_allclose(v.astype(np.float64), u.astype(np.float64), atol=2e-3)
    assert a[-1] == b[-1]


INTERP_ERRORS = [
    lambda T, x: T.nn.functional.interpolate(x[0], scale_factor=2, mode="bilinear"),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, mode="linear"),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, mode="trilinear"),
    lambda T, x: T.nn.functional.interpolate(x.unsqueeze(0), scale_factor=2, mode="bilinear"),
    lambda T, x: T.nn.functional.interpolate(x[0, 0], scale_factor=2),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, mode="foo"),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, size=3),
    lambda T, x: T.nn.functional.interpolate(x),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=(2, 3, 4)),
    lambda T, x: T.nn.functional.interpolate(x, size=(2, 3, 4)),
    lambda T, x: T.nn.functional.interpolate(x, size=[3.0, 2]),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, align_corners=True),
    lambda T, x: T.nn.functional.interpolate(x, size=3, mode="area", align_corners=False),
    lambda T, x: T.nn.functional.interpolate(
        x, size=3, mode="bilinear", recompute_scale_factor=True
    ),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, antialias=True),
    lambda T, x: T.nn.functional.interpolate(x[0], scale_factor=2, mode="linear", antialias=True),
    lambda T, x: T.nn.functional.interpolate(x, size=0),
    lambda T, x: T.nn.functional.interpolate(x[0], size=0, mode="linear"),
    lambda T, x: T.nn.functional.interpolate(x.unsqueeze(0), size=0, mode="trilinear"),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=-1.0, mode="bicubic"),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=0.1),
    lambda T, x: T.nn.functional.interpolate(x[:, :0], size=3, mode="bilinear"),
    lambda T, x: T.nn.functional.interpolate(x[:, :, :0, :0], size=3),
    lambda T, x: T.nn.functional.interpolate(x.long(), scale_factor=2),
    lambda T, x: T.nn.functional.interpolate(x[0].long(), scale_factor=2),
    lambda T, x: T.nn.functional.interpolate(x[0].bool(), scale_factor=2, mode="linear"),
    lambda T, x: T.nn.functional.interpolate(x.int(), scale_factor=2, mode="bicubic"),
    lambda T, x: T.nn.functional.interpolate(x.long(), scale_factor=2, mode="bilinear"),
    lambda T, x: T.nn.functional.interpolate(x[0].to(T.uint8), scale_factor=2, mode="linear"),
    lambda T, x: T.nn.Upsample(scale_factor=2, mode="bilinear")(x[0]),
    lambda T, x: T.nn.functional.interpolate(x.half(), size=3, mode="bicubic", antialias=True),
    lambda T, x: T.nn.functional.interpolate(x.long(), size=3, mode="bilinear", antialias=True),
    lambda T, x: T.nn.functional.interpolate(x, size=0, mode="bilinear", antialias=True),
]


@pytest.mark.parametrize("case", INTERP_ERRORS)
def test_interpolate_errors_match_torch(case):
    x = rng.standard_normal((2, 3, 4, 5))
    expected = _error(lambda: case(torch, torch.tensor(x)))
    assert expected is not None
    assert _error(lambda: case(shadowgrad, shadowgrad.tensor(x))) == expected


@pytest.mark.parametrize(
    "call",
    [
        lambda T, x: T.nn.functional.upsample(x, scale_factor=2),
        lambda T, x: T.nn.functional.upsample(x, size=(3, 7), mode="bilinear"),
        lambda T, x: T.nn.functional.upsample_nearest(x, scale_factor=2),
        lambda T, x: T.nn.functional.upsample_bilinear(x, size=(5, 6)),
        lambda T, x: T.nn.UpsamplingNearest2d(scale_factor=2)(x),
        lambda T, x: T.nn.UpsamplingBilinear2d(size=(3, 7))(x),
        lambda T, x: T.nn.Upsample(size=(3, 7), mode="bicubic", align_corners=True)(x),
    ],
)
def test_upsample_wrappers_values_and_warnings_match_torch(call):
    x = rng.standard_normal((1, 2, 4, 5))

    def prog(T):
        t = T.tensor(x, requires_grad=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y = call(T, t)
        y.sum().backward()
        msgs = [(m.category.__name__, str(m.message), m.filename) for m in w]
        return _np_copy(y), _np_copy(t.grad), y.grad_fn.name(), msgs

    a, b = prog(torch), prog(shadowgrad)
    np.testing.assert_allclose(b[0], a[0], atol=1e-12)
    np.testing.assert_allclose(b[1], a[1], atol=1e-12)
    assert b[2] == a[2]
    assert [m[:2] for m in b[3]] == [m[:2] for m in a[3]]
    assert all(m[2] == __file__ for m in b[3])


# --- pixel and channel shuffles ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("fn", "shape"),
    [
        (lambda T, t: T.nn.functional.pixel_shuffle(t, 2), (2, 8, 3, 2)),
        (lambda T, t: T.pixel_shuffle(t, 3), (9, 2, 1)),
        (lambda T, t: T.nn.functional.pixel_shuffle(t, 2), (2, 1, 4, 3, 2)),
        (lambda T, t: T.nn.functional.pixel_shuffle(t, 1), (2, 3, 4)),
        (lambda T, t: T.nn.functional.pixel_unshuffle(t, 2), (2, 3, 4, 6)),
        (lambda T, t: T.pixel_unshuffle(t, 3), (1, 3, 6)),
        (lambda T, t: T.nn.functional.channel_shuffle(t, 2), (2, 6, 3, 2)),
        (lambda T, t: T.channel_shuffle(t, 3), (2, 6, 3)),
        (lambda T, t: T.nn.functional.channel_shuffle(t, 1), (2, 6, 3)),
        (lambda T, t: T.nn.PixelShuffle(2)(t), (1, 4, 2, 3)),
        (lambda T, t: T.nn.PixelUnshuffle(2)(t), (1, 1, 2, 4)),
        (lambda T, t: T.nn.ChannelShuffle(2)(t), (1, 4, 2, 3)),
        (lambda T, t: T.nn.functional.pixel_shuffle(t.transpose(-1, -2), 2), (2, 8, 3, 2)),
    ],
)
def test_shuffles_match_torch(fn, shape):
    x = rng.standard_normal(shape)

    def prog(T):
        t = T.tensor(x, requires_grad=True)
        y = fn(T, t)
        go = T.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)), requires_grad=True)
        (g,) = T.autograd.grad(y, t, go, create_graph=True)
        return (
            _np_copy(y),
            y.grad_fn.name(),
            tuple(y.stride()),
            y._is_view(),
            _np_copy(g),
            g.grad_fn.name(),
        )

    a, b = prog(torch), prog(shadowgrad)
    np.testing.assert_array_equal(b[0], a[0])
    np.testing.assert_array_equal(b[4], a[4])
    assert (b[1], b[2], b[3], b[5]) == (a[1], a[2], a[3], a[5])


def test_native_channel_shuffle_has_no_derivative_as_in_torch():
    x = rng.standard_normal((2, 4, 3))

    def prog(T):
        t = T.tensor(x, requires_grad=True)
        y = T.nn.functional.native_channel_shuffle(t, 2)
        return _np_copy(y), y.requires_grad, y.grad_fn.name(), _error(lambda: y.sum().backward())

    a, b = prog(torch), prog(shadowgrad)
    np.testing.assert_array_equal(b[0], a[0])
    assert b[1:] == a[1:]


SHUFFLE_ERRORS = [
    lambda T, x: T.nn.functional.pixel_shuffle(x, 2),
    lambda T, x: T.nn.functional.pixel_shuffle(x[0, 0], 2),
    lambda T, x: T.nn.functional.pixel_shuffle(x, 0),
    lambda T, x: T.nn.functional.pixel_shuffle(x, -2),
    lambda T, x: T.nn.functional.pixel_unshuffle(x, 3),
    lambda T, x: T.nn.functional.pixel_unshuffle(x[..., :3], 2),
    lambda T, x: T.nn.functional.pixel_unshuffle(x[0, 0], 2),
    lambda T, x: T.nn.functional.pixel_unshuffle(x, 0),
    lambda T, x: T.nn.functional.channel_shuffle(x[0, 0], 2),
    lambda T, x: T.nn.functional.channel_shuffle(x, 2),
    lambda T, x: T.nn.functional.channel_shuffle(x, 0),
    lambda T, x: T.nn.functional.channel_shuffle(x, -1),
    lambda T, x: T.nn.functional.native_channel_shuffle(x, 2),
    lambda T, x: T.nn.functional.native_channel_shuffle(x[0, 0], 2),
    lambda T, x: T.nn.PixelShuffle(2)(x),
    lambda T, x: T.nn.ChannelShuffle(2)(x),
]


@pytest.mark.parametrize("case", SHUFFLE_ERRORS)
def test_shuffle_errors_match_torch(case):
    x = rng.standard_normal((2, 3, 4, 4))
    expected = _error(lambda: case(torch, torch.tensor(x)))
    assert expected is not None
    assert _error(lambda: case(shadowgrad, shadowgrad.tensor(x))) == expected


# --- rms_norm and local_response_norm ---------------------------------------------------------
def _graph(fn, depth=0):
    if fn is None:
        return []
    out = [(depth, fn.name())]
    for f, _ in fn.next_functions:
        out += _graph(f, depth + 1)
    return out


@pytest.mark.parametrize(
    ("fn", "shape", "dtype"),
    [
        (lambda T, t: T.nn.functional.rms_norm(t, (4,)), (3, 4), np.float64),
        (lambda T, t: T.nn.functional.rms_norm(t, [2, 4], eps=1e-3), (3, 2, 4), np.float32),
        (
            lambda T, t: T.rms_norm(t, (4,), T.linspace(0.5, 2, 4, dtype=t.dtype)),
            (3, 4),
            np.float64,
        ),
        (lambda T, t: T.nn.functional.rms_norm(t, (4,)), (0, 4), np.float64),
        (lambda T, t: T.nn.functional.rms_norm(t, (4,)), (3, 4), np.float16),
        (
            lambda T, t: T.nn.functional.rms_norm(t, (4,), T.linspace(0.5, 2, 4)),
            (3, 4),
            np.float16,
        ),
        (lambda T, t: T.nn.functional.local_response_norm(t, 2), (2, 5, 3), np.float64),
        (
            lambda T, t: T.nn.functional.local_response_norm(t, 3, 0.1, 0.5, 2.0),
            (2, 5, 3, 2),
            np.float64,
        ),
        (lambda T, t: T.nn.functional.local_response_norm(t, 4), (1, 6, 2, 2, 3), np.float32),
        (lambda T, t: T.nn.functional.local_response_norm(t, 2), (0, 5, 3), np.float64),
    ],
)
def test_norms_match_torch(fn, shape, dtype):
    x = rng.standard_normal(shape).astype(dtype)

    def prog(T):
        t = T.tensor(x, requires_grad=True)
        y = fn(T, t)
        if y.numel():
            y.backward(T.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape))).to(y.dtype))
        grad = _np_copy(t.grad) if t.grad is not None else None
        return _np_copy(y), y.dtype, _graph(y.grad_fn)[:1], grad

    a, b = prog(torch), prog(shadowgrad)
    tol = 2e-3 if dtype == np.float16 else 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(b[0].astype(np.float64), a[0].astype(np.float64), atol=tol)
    assert str(b[1]) == str(a[1]) and b[2] == a[2]
    if a[3] is not None:
        np.testing.assert_allclose(b[3].astype(np.float64), a[3].astype(np.float64), atol=tol * 10)


def test_rms_norm_graph_matches_torch():
    x = rng.standard_normal((3, 4))

    def prog(T):
        t = T.tensor(x, requires_grad=True)
        w = T.tensor(np.linspace(0.5, 2, 4), requires_grad=True)
        y = T.nn.functional.rms_norm(t, (4,), w)
        go = T.ones_like(y, requires_grad=True)
        g = T.autograd.grad(y, (t, w), go, create_graph=True)
        gg = T.autograd.grad(sum((v * v).sum() for v in g), (t, w, go))
        return _graph(y.grad_fn), [_np_copy(v) for v in g], [_np_copy(v) for v in gg]

    a, b = prog(torch), prog(shadowgrad)
    assert b[0] == a[0]
    for u, v in zip(a[1] + a[2], b[1] + b[2], strict=True):
        np.testing.assert_allclose(v, u, atol=1e-10)


NORM_ERRORS = [
    lambda T, x: T.nn.functional.rms_norm(x, (4,)),
    lambda T, x: T.nn.functional.rms_norm(x, (2, 3), T.ones(3)),
    lambda T, x: T.nn.functional.rms_norm(x, 3),
    lambda T, x: T.nn.functional.rms_norm(x, ()),
    lambda T, x: T.nn.functional.rms_norm(x.long(), (3,)),
    lambda T, x: T.nn.functional.local_response_norm(x, 2),
    lambda T, x: T.nn.RMSNorm(4)(x),
    lambda T, x: T.nn.LocalResponseNorm(2)(x[0]),
    lambda T, x: T.nn.InstanceNorm1d(3)(x[0, 0]),
    lambda T, x: T.nn.InstanceNorm2d(3)(x),
    lambda T, x: T.nn.InstanceNorm3d(3)(x),
    lambda T, x: T.nn.InstanceNorm1d(4, affine=True)(x.unsqueeze(0)),
    lambda T, x: T.nn.InstanceNorm1d(3, affine=True)(x.unsqueeze(0)),
    lambda T, x: T.nn.BatchNorm3d(3)(x.unsqueeze(0)),
]


@pytest.mark.parametrize("case", NORM_ERRORS)
def test_norm_errors_match_torch(case):
    x = rng.standard_normal((2, 3))
    expected = _error(lambda: case(torch, torch.tensor(x)))
    assert expected is not None
    assert _error(lambda: case(shadowgrad, shadowgrad.tensor(x))) == expected


def test_norm_warnings_match_torch():
    x = rng.standard_normal((2, 4, 3))

    def prog(T):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y = T.nn.functional.rms_norm(T.tensor(x, dtype=T.float32), (3,), T.ones(3).double())
            z = T.nn.InstanceNorm1d(3)(T.tensor(x))
        # torch warns about the dtype mismatch once per process: keep only the others
        w = [m for m in w if "Mismatch dtype" not in str(m.message)]
        msgs = [(m.category.__name__, str(m.message).split(" (Triggered")[0]) for m in w]
        return y.dtype, _np_copy(z), msgs

    a, b = prog(torch), prog(shadowgrad)
    assert str(b[0]) == str(a[0])
    np.testing.assert_allclose(b[1], a[1], atol=1e-12)
    assert b[2] == a[2]


# --- modules: reprs, parameters, state dicts, forward and backward ------------------------------
REPR_CASES = [
    lambda T: T.nn.Upsample(scale_factor=2),
    lambda T: T.nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True),
    lambda T: T.nn.Upsample(scale_factor=(2, 3)),
    lambda T: T.nn.Upsample(size=5),
    lambda T: T.nn.UpsamplingNearest2d(scale_factor=2),
    lambda T: T.nn.UpsamplingBilinear2d(size=4),
    lambda T: T.nn.RMSNorm(4),
    lambda T: T.nn.RMSNorm([2, 3], eps=1e-3, elementwise_affine=False),
    lambda T: T.nn.InstanceNorm1d(3),
    lambda T: T.nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
    lambda T: T.nn.InstanceNorm3d(2, eps=1e-3, momentum=0.2, bias=False, affine=True),
    lambda T: T.nn.BatchNorm3d(4),
    lambda T: T.nn.LocalResponseNorm(2),
    lambda T: T.nn.LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2.0),
    lambda T: T.nn.PixelShuffle(2),
    lambda T: T.nn.PixelUnshuffle(3),
    lambda T: T.nn.ChannelShuffle(2),
    lambda T: T.nn.Fold(output_size=(4, 5), kernel_size=2),
    lambda T: T.nn.Fold((4, 5), (2, 3), dilation=1, padding=1, stride=(1, 2)),
    lambda T: T.nn.Unfold(kernel_size=(2, 3)),
    lambda T: T.nn.Unfold(2, dilation=2, padding=1, stride=2),
]


@pytest.mark.parametrize("make", REPR_CASES)
def test_module_repr_and_state_match_torch(make):
    tm, sm = make(torch), make(shadowgrad)
    assert repr(sm) == repr(tm)
    assert list(sm.state_dict()) == list(tm.state_dict())
    for k, v in tm.state_dict().items():
        np.testing.assert_array_equal(_np_copy(sm.state_dict()[k]), _np_copy(v))
        assert str(sm.state_dict()[k].dtype) == str(v.dtype)
    assert [n for n, _ in sm.named_parameters()] == [n for n, _ in tm.named_parameters()]


LAYER_CASES = [
    ("upsample", lambda T: T.nn.Upsample(scale_factor=2), (2, 3, 4)),
    ("upsample_bicubic", lambda T: T.nn.Upsample((5, 3), mode="bicubic"), (1, 2, 3, 4)),
    ("upsample_area", lambda T: T.nn.Upsample(scale_factor=0.5, mode="area"), (1, 2, 4, 4)),
    (
        "upsample_trilinear",
        lambda T: T.nn.Upsample(scale_factor=1.5, mode="trilinear"),
        (1, 1, 2, 3, 2),
    ),
    ("upsampling_nearest2d", lambda T: T.nn.UpsamplingNearest2d(size=(5, 7)), (1, 2, 3, 4)),
    ("upsampling_bilinear2d", lambda T: T.nn.UpsamplingBilinear2d(scale_factor=2), (1, 2, 3, 4)),
    ("rmsnorm", lambda T: T.nn.RMSNorm(4), (3, 4)),
    ("rmsnorm_2d", lambda T: T.nn.RMSNorm((2, 4), eps=1e-2), (3, 2, 4)),
    ("rmsnorm_no_affine", lambda T: T.nn.RMSNorm(4, elementwise_affine=False), (3, 4)),
    ("instancenorm1d", lambda T: T.nn.InstanceNorm1d(3), (2, 3, 5)),
    ("instancenorm1d_unbatched", lambda T: T.nn.InstanceNorm1d(3, affine=True), (3, 5)),
    ("instancenorm2d", lambda T: T.nn.InstanceNorm2d(3, affine=True), (2, 3, 2, 3)),
    (
        "instancenorm2d_stats",
        lambda T: T.nn.InstanceNorm2d(3, track_running_stats=True),
        (2, 3, 2, 3),
    ),
    ("instancenorm3d", lambda T: T.nn.InstanceNorm3d(2, affine=True), (2, 2, 2, 2, 3)),
    ("batchnorm3d", lambda T: T.nn.BatchNorm3d(2), (3, 2, 2, 1, 2)),
    ("lrn", lambda T: T.nn.LocalResponseNorm(2), (2, 5, 3, 3)),
    ("pixelshuffle", lambda T: T.nn.PixelShuffle(2), (1, 8, 2, 3)),
    ("pixelunshuffle", lambda T: T.nn.PixelUnshuffle(2), (1, 2, 4, 2)),
    ("channelshuffle", lambda T: T.nn.ChannelShuffle(3), (2, 6, 2)),
    ("fold", lambda T: T.nn.Fold((4, 5), 2), (2, 12, 12)),
    ("fold_strided", lambda T: T.nn.Fold((5, 5), (2, 3), padding=1, stride=2), (1, 6, 9)),
    ("unfold", lambda T: T.nn.Unfold((2, 3), padding=1), (2, 3, 4, 5)),
]


@pytest.mark.parametrize(("name", "make", "shape"), LAYER_CASES, ids=[c[0] for c in LAYER_CASES])
def test_layer_forward_backward_matches_torch(name, make, shape):
    x = rng.standard_normal(shape).astype(np.float32)

    def prog(T, mod):
        t = T.tensor(x, requires_grad=True)
        outs = []
        for _ in range(2):
            y = mod(t)
            g = np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)).astype(np.float32)
            y.backward(T.tensor(g))
            outs.append(_np_copy(y))
        mod.eval()
        outs.append(_np_copy(mod(t)))
        grads = {n: _np_copy(p.grad) for n, p in mod.named_parameters()}
        sd = {k: _np_copy(v) for k, v in mod.state_dict().items()}
        return outs, y.grad_fn.name(), grads, _np_copy(t.grad), sd

    tm, sm = make(torch), make(shadowgrad)
    sm.load_state_dict({k: shadowgrad.tensor(_np_copy(v)) for k, v in tm.state_dict().items()})
    a, b = prog(torch, tm), prog(shadowgrad, sm)
    for u, v in zip(a[0], b[0], strict=True):
        np.testing.assert_allclose(v, u, rtol=1e-5, atol=1e-5)
    assert b[1] == a[1]
    assert list(b[2]) == list(a[2])
    for k in a[2]:
        np.testing.assert_allclose(b[2][k], a[2][k], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(b[3], a[3], rtol=1e-4, atol=1e-4)
    assert list(b[4]) == list(a[4])
    for k in a[4]:
        np.testing.assert_allclose(b[4][k], a[4][k], rtol=1e-5, atol=1e-5)


def test_instance_norm_state_dict_rules_match_torch():
    def prog(T, versioned):
        m = T.nn.InstanceNorm1d(3)
        sd = m.state_dict()
        sd["running_mean"], sd["running_var"] = T.zeros(3), T.ones(3)
        if not versioned:
            sd = dict(sd)  # no metadata: a checkpoint from before 0.4.0
        return _error(lambda: m.load_state_dict(sd)), _error(
            lambda: str(m.load_state_dict(sd, False))
        )

    for versioned in (True, False):
        assert prog(shadowgrad, versioned) == prog(torch, versioned)
