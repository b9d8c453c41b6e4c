"""Differential tests of the statistics family and the legacy tensor types against torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad as sg

_R = np.random.default_rng(3)
_X = _R.standard_normal((3, 5))


def _chain(fn):
    names = []
    while fn is not None:
        names.append(fn.name())
        nxt = [f for f, _ in fn.next_functions if f is not None]
        fn = nxt[0] if nxt else None
    return names


@pytest.mark.parametrize("interp", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (None, True), (0, False), (1, True)])
@pytest.mark.parametrize("nan", [False, True])
def test_quantile_values_grads_and_graph(interp, dim, keepdim, nan):
    x = _X.copy()
    if nan:
        x[0, 1] = np.nan
    q = np.array([0.0, 0.3, 1.0])
    res = []
    for T in (torch, sg):
        a = T.tensor(x, requires_grad=True)
        fn = T.nanquantile if nan else T.quantile
        y = fn(a, T.tensor(q), dim, keepdim, interpolation=interp)
        (g,) = T.autograd.grad(y.nansum(), a)
        res.append((y.detach().numpy(), g.numpy(), _chain(y.grad_fn)))
    np.testing.assert_allclose(res[0][0], res[1][0], equal_nan=True)
    np.testing.assert_allclose(res[0][1], res[1][1])
    assert res[0][2] == res[1][2]


def test_quantile_scalar_q_method_and_errors():
    for T in (torch, sg):
        assert T.tensor(_X).quantile(0.4, 1).shape == (3,)
    np.testing.assert_allclose(
        sg.tensor(_X).quantile(0.4, 1).numpy(), torch.tensor(_X).quantile(0.4, 1).numpy()
    )
    for call in (
        lambda T: T.quantile(T.tensor(_X), 1.5),
        lambda T: T.quantile(T.tensor([1, 2]), 0.5),
        lambda T: T.quantile(T.tensor(_X), T.tensor([0.5], dtype=T.float32)),
        lambda T: T.quantile(T.tensor(_X), 0.5, interpolation="cubic"),
        lambda T: T.quantile(T.tensor(_X), T.tensor([[0.5]], dtype=T.float64)),
    ):
        with pytest.raises(RuntimeError) as te:
            call(torch)
        with pytest.raises(RuntimeError) as se:
            call(sg)
        assert str(te.value) == str(se.value)


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"correction": 0},
        {"fweights": "f"},
        {"aweights": "a"},
        {"fweights": "f", "aweights": "a"},
    ],
)
def test_cov_corrcoef(kw):
    f, w = np.array([1, 2, 0, 1, 3]), _R.random(5)
    res = []
    for T in (torch, sg):
        a = T.tensor(_X, requires_grad=True)
        k = {
            n: (T.tensor(f) if v == "f" else T.tensor(w) if v == "a" else v) for n, v in kw.items()
        }
        c = T.cov(a, **k)
        r = T.corrcoef(a)
        (g,) = T.autograd.grad((c * c).sum() + r.sum(), a)
        res.append((c.detach().numpy(), r.detach().numpy(), g.numpy(), c.grad_fn.name()))
    for u, v in zip(res[0][:3], res[1][:3], strict=True):
        np.testing.assert_allclose(u, v, rtol=1e-10, atol=1e-12)
    assert res[0][3] == res[1][3]


def test_cov_errors_and_warning():
    x = _X
    for bad in ({"fweights": [1.0] * 5}, {"fweights": [1, -1, 1, 1, 1]}, {"aweights": [1] * 5}):
        msgs = []
        for T in (torch, sg):
            k = {n: T.tensor(v) for n, v in bad.items()}
            with pytest.raises(RuntimeError) as e:
                T.cov(T.tensor(x), **k)
            msgs.append(str(e.value))
        assert msgs[0] == msgs[1]
    with pytest.warns(UserWarning, match="degrees of freedom"):
        sg.cov(sg.tensor(x[:, :1]))


@pytest.mark.parametrize("edge", [1, 2])
@pytest.mark.parametrize("spacing", ["none", "scalar", "list", "coords"])
def test_gradient(edge, spacing):
    res = []
    for T in (torch, sg):
        a = T.tensor(_X, requires_grad=True)
        k = {
            "none": {},
            "scalar": {"spacing": 2.0, "dim": 1},
            "list": {"spacing": [2.0, 0.5]},
            "coords": {"spacing": (T.tensor([0.0, 1, 3]), T.tensor([0.0, 1, 2, 5, 5.5]))},
        }[spacing]
        out = T.gradient(a, edge_order=edge, **k)
        (g,) = T.autograd.grad(sum((o * o).sum() for o in out), a)
        res.append(([o.detach().numpy() for o in out], g.numpy(), [o.grad_fn.name() for o in out]))
    for u, v in zip(res[0][0], res[1][0], strict=True):
        np.testing.assert_allclose(u, v)
    np.testing.assert_allclose(res[0][1], res[1][1])
    assert res[0][2] == res[1][2]


def test_angle_real():
    x = np.array([-1.0, 0.0, 2.0, np.nan, -0.0, -np.inf])
    ys = []
    for T in (torch, sg):
        a = T.tensor(x, requires_grad=True)
        y = T.angle(a)
        y.sum().backward()
        ys.append((y.detach().numpy(), a.grad.numpy(), y.grad_fn.name()))
        ys.append((T.tensor([1, -2, 0]).angle().numpy(), str(T.tensor([1]).angle().dtype)))
    np.testing.assert_array_equal(ys[0][0], ys[2][0])
    np.testing.assert_array_equal(ys[0][1], ys[2][1])
    assert ys[0][2] == ys[2][2]
    np.testing.assert_array_equal(ys[1][0], ys[3][0])
    assert ys[1][1] == ys[3][1]


@pytest.mark.parametrize(
    "name", ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]
)
@pytest.mark.parametrize("n", [0, 1, 2, 7, 8])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows(name, n, periodic):
    a = getattr(torch, name)(n, periodic, dtype=torch.float64)
    b = getattr(sg, name)(n, periodic, dtype=sg.float64, requires_grad=True)
    np.testing.assert_allclose(a.numpy(), b.detach().numpy(), atol=1e-12)
    assert b.requires_grad and b.is_leaf and str(b.dtype) == str(a.dtype)
    assert str(getattr(sg, name)(n).dtype) == str(getattr(torch, name)(n).dtype)
    with pytest.raises(RuntimeError) as te:
        getattr(torch, name)(4, dtype=torch.int64)
    with pytest.raises(RuntimeError) as se:
        getattr(sg, name)(4, dtype=sg.int64)
    assert str(te.value) == str(se.value)


def test_predicates_can_cast_device_vmap():
    for T in (torch, sg):
        assert T.is_complex(T.zeros(2)) is False and T.is_signed(T.zeros(1, dtype=T.uint8)) is False
        assert T.is_same_size(T.zeros(2), T.ones(2)) and T.is_nonzero(T.tensor([2]))
    ds = ["bool", "uint8", "int32", "float16", "float64"]
    for a in ds:
        for b in ds:
            assert sg.can_cast(getattr(sg, a), getattr(sg, b)) == torch.can_cast(
                getattr(torch, a), getattr(torch, b)
            )
    assert sg.vmap is sg.func.vmap
    assert repr(sg.get_default_device()) == repr(torch.get_default_device())
    sg.set_default_device("cuda")
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        sg.get_default_device()
    sg.set_default_device(None)
    assert str(sg.get_default_device()) == "cpu"


@pytest.mark.parametrize(
    "name", ["Float", "Double", "Half", "Long", "Int", "Short", "Char", "Byte", "Bool"]
)
def test_legacy_types(name):
    tt, st = getattr(torch, name + "Tensor"), getattr(sg, name + "Tensor")
    for args in (([1, 2],), (2, 3), (torch.Size([2]),), ()):
        sargs = tuple(sg.Size(a) if isinstance(a, torch.Size) else a for a in args)
        a, b = tt(*args), st(*sargs)
        assert str(a.dtype) == str(b.dtype) and tuple(a.shape) == tuple(b.shape)
        if args and isinstance(args[0], list):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert isinstance(b, st) and b.type() == a.type()
    assert isinstance(sg.zeros(1, dtype=sg.float64), sg.FloatTensor) is False
    assert repr(st) == repr(tt) and st.__name__ == tt.__name__
    assert issubclass(st, sg.Tensor) == issubclass(tt, torch.Tensor)
    for bad in (("a",), (2.5,), (2, "a"), (-1,)):
        with pytest.raises(Exception) as te:
            tt(*bad)
        with pytest.raises(Exception) as se:
            st(*bad)
        assert type(te.value) is type(se.value) and str(te.value) == str(se.value)


def test_random_samplers():
    sg.manual_seed(0)
    rate = sg.tensor([0.0, 1.0, 30.0] * 200, requires_grad=True)
    p = sg.poisson(rate)
    assert p.grad_fn.name() == "PoissonBackward0" and p.dtype == sg.float32
    d = p.detach().numpy().reshape(200, 3)
    assert (d[:, 0] == 0).all() and (d == np.round(d)).all() and abs(d[:, 2].mean() - 30) < 2
    p.sum().backward()
    assert (rate.grad.numpy() == 0).all()
    c = sg.tensor([5.0, 10.0] * 100, requires_grad=True)
    b = sg.binomial(c, sg.tensor([0.3, 1.0] * 100))
    assert b.grad_fn.name() == "torch::autograd::NotImplemented"
    bd = b.detach().numpy().reshape(100, 2)
    assert (bd[:, 1] == 10).all() and (bd[:, 0] >= 0).all() and (bd[:, 0] <= 5).all()
    with pytest.raises(RuntimeError, match="derivative for aten::binomial is not implemented"):
        b.sum().backward()
    g = sg.zeros(2000).geometric_(0.25).numpy()
    assert g.min() >= 1 and (g == np.round(g)).all() and abs(g.mean() - 4) < 0.4
    ln = sg.zeros(2000, dtype=sg.float64).log_normal_(0.5, 0.25).numpy()
    assert (ln > 0).all() and abs(np.log(ln).mean() - 0.5) < 0.05
    ca = sg.zeros(2001, dtype=sg.float64).cauchy_(2.0, 0.5).numpy()
    assert abs(np.median(ca) - 2.0) < 0.1
    leaf = sg.zeros(3, requires_grad=True)
    assert leaf.clone().cauchy_().grad_fn.name() == "CauchyBackward0"
    for T in (torch, sg):
        with pytest.raises(NotImplementedError):
            T.poisson(T.tensor([1, 2]))
        with pytest.raises(ValueError):
            T.binomial(T.tensor([1, 2]), T.tensor([0.5, 0.5]))
        with pytest.raises(RuntimeError):
            T.zeros(3, dtype=T.int64).cauchy_()


def _outcome(fn):
    out = []
    for T in (torch, sg):
        try:
            out.append(fn(T))
        except Exception as e:  # compared below
            out.append((type(e).__name__, str(e)))
    return out


def test_histogram_records_not_implemented_nodes_like_torch():
    x = _R.standard_normal(12).astype(np.float32)
    for T in (torch, sg):
        a = T.tensor(x, requires_grad=True)
        b = T.tensor([-2.0, 0.0, 0.5, 2.0], requires_grad=True)
        for r, aten in (
            (T.histogram(a, 3), "histogram"),
            (a.histogram(b), "histogram"),
            (T.histogramdd(a.reshape(6, 2), 2), "_histogramdd_from_bin_cts"),
        ):
            assert r.hist.requires_grad and type(r).__name__ in ("histogram", "histogramdd")
            with pytest.raises(RuntimeError, match=f"derivative for aten::{aten} is not"):
                r.hist.sum().backward()
        b0 = b.detach()
        r = T.histogramdd(a.reshape(6, 2).detach(), [b0, b0])
        assert r.bin_edges[0] is b0 and not r.hist.requires_grad  # the given bins themselves
        assert type(r.bin_edges) is tuple


def test_histogram_dtype_errors_and_bad_range_argument():
    x = _R.standard_normal(6)
    calls = (
        lambda T: T.histogram(T.tensor(x, dtype=T.float32), 3, weight=T.ones(6, dtype=T.float64)),
        lambda T: T.histogram(T.tensor(x, dtype=T.float32), T.tensor([0.0, 1.0]).double()),
        lambda T: T.histogram(T.tensor(x), T.tensor([0.0, 1.0]).double(), range=(0.0, 1.0)),
        lambda T: T.histogramdd(T.tensor(x).reshape(3, 2), [T.tensor([0.0, 1.0])] * 2),
    )
    for call in calls:
        a, b = _outcome(call)
        assert isinstance(a[0], str) and a == b


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_histogram_matches_numpy_edges_and_counts(dtype):
    x = _R.standard_normal(1000)
    res = [T.histogram(T.tensor(x, dtype=getattr(T, dtype)), 13) for T in (torch, sg)]
    for u, v in zip(res[0], res[1], strict=True):
        np.testing.assert_array_equal(u.numpy(), v.numpy())
        assert u.dtype.is_floating_point and str(u.dtype)[6:] == str(v.dtype).split(".")[-1]
