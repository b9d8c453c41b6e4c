"""Forward-mode rules of native_layer_norm, native_batch_norm and native_group_norm (no torch).

Each rule's tangent equals reverse mode's J·v (the double-backward trick) in float64, for several
shapes, with and without affine parameters, batch norm in training and eval, and every subset of
the inputs carrying a tangent. The tangents are differentiable: exactly in the tangents and the
weight, and in the input as torch's are (see Note [Norm tangents] in shadowgrad/ops/nn_ops.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import forward_ad as fwAD
from shadowgrad.ops.registry import REGISTRY

F = sg.nn.functional
RM = np.linspace(-0.5, 0.5, 4)
RV = np.linspace(0.5, 2.0, 4)


def _ln(normalized_shape: tuple[int, ...]) -> Callable[..., Any]:
    return lambda x, w, b: F.layer_norm(x, normalized_shape, w, b)


def _bn(training: bool) -> Callable[..., Any]:
    def f(x: Any, w: Any, b: Any) -> Any:
        c = x.shape[1]
        rm, rv = sg.tensor(RM[:c], dtype=x.dtype), sg.tensor(RV[:c], dtype=x.dtype)
        return F.batch_norm(x, rm, rv, w, b, training=training)

    return f


def _gn(groups: int) -> Callable[..., Any]:
    return lambda x, w, b: F.group_norm(x, groups, w, b)


# (id, op, input shape, shape of weight and bias)
CASES = [
    ("ln-last", _ln((5,)), (3, 4, 5), (5,)),
    ("ln-two-dims", _ln((4, 5)), (3, 4, 5), (4, 5)),
    ("ln-1d", _ln((6,)), (6,), (6,)),
    ("bn-train-4d", _bn(True), (4, 3, 2, 5), (3,)),
    ("bn-train-2d", _bn(True), (5, 4), (4,)),
    ("bn-train-3d", _bn(True), (3, 2, 4), (2,)),
    ("bn-eval-4d", _bn(False), (4, 3, 2, 5), (3,)),
    ("bn-eval-2d", _bn(False), (5, 4), (4,)),
    ("gn-4d", _gn(3), (2, 6, 3, 2), (6,)),
    ("gn-3d", _gn(2), (2, 4, 5), (4,)),
    ("gn-one-group", _gn(1), (3, 4), (4,)),
    ("gn-instance", _gn(4), (2, 4, 3), (4,)),
]
# which of (input, weight, bias) carry a tangent: every non-empty subset
MASKS = [m for m in itertools.product((False, True), repeat=3) if any(m)]


def _params(cases: list[Any], masks: list[Any]) -> list[Any]:
    out = []
    for (cid, op, shape, pshape), (affine, mask) in itertools.product(
        cases, [(False, (True, False, False))] + [(True, m) for m in masks]
    ):
        name = f"{cid}-{'affine' if affine else 'plain'}-" + "".join(
            c for c, on in zip("xwb", mask, strict=True) if on
        )
        out.append(pytest.param(op, shape, pshape, affine, mask, id=name))
    return out


def _inputs(shape: Any, pshape: Any, affine: bool, seed: int = 0) -> tuple[Any, ...]:
    r = np.random.default_rng(seed)
    x = r.standard_normal(shape)
    w = r.standard_normal(pshape) if affine else None
    b = r.standard_normal(pshape) if affine else None
    return x, w, b


def _tangents(prims: tuple[Any, ...], mask: Any, seed: int = 1) -> list[Any]:
    r = np.random.default_rng(seed)
    return [
        r.standard_normal(p.shape) if on and p is not None else None
        for p, on in zip(prims, mask, strict=True)
    ]


def _t(a: Any, rg: bool = False) -> Any:
    return None if a is None else sg.tensor(a, dtype=sg.float64, requires_grad=rg)


def _forward_tangent(op: Any, prims: tuple[Any, ...], tans: list[Any]) -> Any:
    with fwAD.dual_level():
        duals = [p if t is None else fwAD.make_dual(p, t) for p, t in zip(prims, tans, strict=True)]
        return fwAD.unpack_dual(op(*duals)).tangent


def _reverse_jv(op: Any, prims: tuple[Any, ...], tans: list[Any], create_graph: bool) -> Any:
    """J·v by the double-backward trick, over the inputs that carry a tangent."""
    which = [i for i, t in enumerate(tans) if t is not None]

    def f(*xs: Any) -> Any:
        args = list(prims)
        for i, x in zip(which, xs, strict=True):
            args[i] = x
        return op(*args)

    _, jv = sg.autograd.functional.jvp(
        f, tuple(prims[i] for i in which), tuple(tans[i] for i in which), create_graph
    )
    return jv


@pytest.mark.parametrize(("op", "shape", "pshape", "affine", "mask"), _params(CASES, MASKS))
def test_tangent_equals_reverse_mode_jvp(op, shape, pshape, affine, mask) -> None:
    x, w, b = _inputs(shape, pshape, affine)
    prims = (_t(x), _t(w), _t(b))
    tans = [_t(a) for a in _tangents(prims, mask)]
    if all(t is None for t in tans):
        pytest.skip("no tangent on this sample")
    got = _forward_tangent(op, prims, tans)
    expected = _reverse_jv(op, prims, tans, create_graph=False)
    assert got is not None
    assert got.dtype == sg.float64
    assert tuple(got.shape) == tuple(shape)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-9, atol=1e-10)


def test_the_three_ops_have_rules_of_their_own() -> None:
    # the VJP-of-VJP fallback would give the same values: make sure the rules are what runs
    for name in ("native_layer_norm", "native_batch_norm", "native_group_norm"):
        assert callable(REGISTRY[name].jvp), name


@pytest.mark.parametrize(
    ("op", "shape", "pshape", "affine", "mask"),
    _params(CASES, [(True, True, True), (True, False, False), (False, True, True)]),
)
def test_tangent_is_differentiable_in_tangents_and_weight(op, shape, pshape, affine, mask) -> None:
    """The tangent is linear in the tangents (its gradient there is the VJP), and its gradient
    in the weight is the exact mixed second derivative (the weight is not in the statistics)."""
    x, w, b = _inputs(shape, pshape, affine)
    prims = (_t(x), _t(w, affine), _t(b, affine))
    tans = [_t(a, True) for a in _tangents(prims, mask)]
    u = sg.tensor(np.random.default_rng(2).standard_normal(shape))
    t = _forward_tangent(op, prims, tans)
    wrt = [v for v in tans if v is not None] + ([prims[1]] if affine else [])
    got = sg.autograd.grad((t * u).sum(), wrt, allow_unused=True)

    exact_jv = _reverse_jv(op, prims, tans, create_graph=True)
    expected = sg.autograd.grad((exact_jv * u).sum(), wrt, allow_unused=True)
    assert got[0] is not None
    for g, e in zip(got, expected, strict=True):
        # None where J·v does not depend on it; torch's rule reads zeros there (a zero gradient)
        e = np.zeros(g.shape) if e is None else e.numpy()
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-8, atol=1e-10)


def _input_grad_of_tangent(op: Any, shape: Any, pshape: Any, mask: Any) -> tuple[Any, Any]:
    x, w, b = _inputs(shape, pshape, True)
    prims = (_t(x, True), _t(w), _t(b))
    tans = [_t(a) for a in _tangents(prims, mask)]
    u = sg.tensor(np.random.default_rng(2).standard_normal(shape))
    t = _forward_tangent(op, prims, tans)
    (got,) = sg.autograd.grad((t * u).sum(), prims[0])
    exact = _reverse_jv(op, prims, tans, create_graph=True)
    (full,) = sg.autograd.grad((exact * u).sum(), prims[0])
    return got, full


@pytest.mark.parametrize("groups", [1, 2, 4])
def test_group_norm_tangent_is_exactly_differentiable_in_the_input(groups: int) -> None:
    # torch's group norm backward takes the gradients of its saved mean and rstd
    got, full = _input_grad_of_tangent(_gn(groups), (2, 4, 3), (4,), (True, True, True))
    np.testing.assert_allclose(got.numpy(), full.numpy(), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize(
    ("op", "shape", "pshape", "axes"),
    [
        pytest.param(_ln((5,)), (3, 4, 5), (5,), (2,), id="layer"),
        pytest.param(_ln((4, 5)), (3, 4, 5), (4, 5), (1, 2), id="layer-two-dims"),
        pytest.param(_bn(True), (4, 3, 2), (3,), (0, 2), id="batch-train"),
    ],
)
def test_layer_and_batch_norm_tangents_hold_the_statistics_fixed(op, shape, pshape, axes) -> None:
    """torch's backward drops the gradients of the saved mean and rstd: the tangent's gradient
    in the input is the exact one of J·v with the statistics held at their values."""
    got, full = _input_grad_of_tangent(op, shape, pshape, (True, False, False))
    x, w, _ = _inputs(shape, pshape, True)
    v = _tangents((x, None, None), (True, False, False))[0]
    xs = _t(x, True)
    mean = xs.mean(axes, keepdim=True)
    var = ((xs - mean) ** 2).mean(axes, keepdim=True)
    mean, rstd = mean.detach(), ((var + 1e-5) ** -0.5).detach()
    vs = _t(v)
    vc = vs - vs.mean(axes, keepdim=True)
    jv = vc * rstd - (xs - mean) * rstd**3 * (vc * (xs - mean)).mean(axes, keepdim=True)
    # batch norm's weight is per channel (dim 1), layer norm's covers the normalized dims
    wb = _t(w).reshape((1, -1) + (1,) * (len(shape) - 2)) if axes[0] == 0 else _t(w)
    u = sg.tensor(np.random.default_rng(2).standard_normal(shape))
    (fixed,) = sg.autograd.grad((jv * wb * u).sum(), xs)
    np.testing.assert_allclose(got.numpy(), fixed.numpy(), rtol=1e-8, atol=1e-10)
    # and that differs from the fully differentiated J·v (so the check above can fail)
    assert not np.allclose(got.numpy(), full.numpy(), rtol=1e-3, atol=1e-6)


def test_missing_input_tangent_still_reads_input_and_weight() -> None:
    # torch materializes the input's missing tangent as zeros: input and weight get zero
    # gradients through it, not None
    x, w, b = _inputs((3, 4, 5), (5,), True)
    prims = (_t(x, True), _t(w, True), _t(b))
    t = _forward_tangent(_ln((5,)), prims, [None, None, _t(b)])
    assert t.requires_grad
    gx, gw = sg.autograd.grad(t.sum(), prims[:2])
    assert not np.any(gx.numpy()) and not np.any(gw.numpy())


def test_eval_batch_norm_tangent_reads_input_only_through_the_weight() -> None:
    x, w, _ = _inputs((4, 3, 2), (3,), True)
    plain = _forward_tangent(_bn(False), (_t(x, True), None, None), [_t(x), None, None])
    assert not plain.requires_grad  # running statistics: linear in the input
    xs, ws = _t(x, True), _t(w, True)
    t = _forward_tangent(_bn(False), (xs, ws, None), [_t(x), None, None])
    gx, gw = sg.autograd.grad(t.sum(), (xs, ws))
    assert not np.any(gx.numpy())  # torch's zero weight tangent multiplies xhat
    assert np.any(gw.numpy())


@pytest.mark.parametrize(
    ("op", "pshape", "view"),
    [
        pytest.param(_ln((5,)), (5,), (5,), id="layer"),
        pytest.param(_gn(2), (4,), (1, 4, 1), id="group"),
        pytest.param(_bn(True), (4,), (1, 4, 1), id="batch"),
    ],
)
def test_bias_only_tangent_covers_the_output(op: Any, pshape: Any, view: Any) -> None:
    shape = (3, 4, 5)
    x, w, b = _inputs(shape, pshape, True)
    bt = np.random.default_rng(3).standard_normal(pshape)
    t = _forward_tangent(op, (_t(x), _t(w), _t(b)), [None, None, _t(bt)])
    assert tuple(t.shape) == shape
    np.testing.assert_array_equal(t.numpy(), np.broadcast_to(bt.reshape(view), shape))


def test_float32_tangents_stay_float32() -> None:
    x = sg.tensor(np.random.default_rng(0).standard_normal((4, 3, 2)), dtype=sg.float32)
    for op in (_ln((2,)), _bn(True), _bn(False), _gn(3)):
        assert _forward_tangent(op, (x, None, None), [sg.ones_like(x), None, None]).dtype == (
            sg.float32
        )


@pytest.mark.parametrize(
    ("op", "shape"),
    [(_ln((4,)), (0, 4)), (_ln((0,)), (3, 0)), (_gn(2), (0, 4, 2)), (_gn(2), (2, 4, 0))],
)
def test_empty_inputs_get_empty_tangents(op: Any, shape: Any) -> None:
    x = sg.zeros(shape, dtype=sg.float64)
    t = _forward_tangent(op, (x, None, None), [sg.ones_like(x), None, None])
    assert tuple(t.shape) == shape
