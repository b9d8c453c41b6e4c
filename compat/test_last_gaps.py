"""Differential tests of the last gaps: the removed linear-algebra functions and torch.qr,
torch.cond / torch.while_loop run eagerly, torch.nn's parameter re-exports, and the
Hermitian n-dimensional FFTs. Each program runs on torch and shadowgrad from the same inputs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import shadowgrad  # noqa: E402

LIBS = (torch, shadowgrad)
RNG = np.random.default_rng(7)
A = RNG.standard_normal((4, 3))
SQ = RNG.standard_normal((3, 3))


def _np(t):
    return t.detach().resolve_conj().numpy()


def _error(fn):
    out = []
    for T in LIBS:
        with pytest.raises(Exception) as info:
            fn(T)
        out.append((type(info.value).__name__, str(info.value)))
    return out


# --- removed linear algebra ---------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda T, a: T.solve(a, a),
        lambda T, a: T.lstsq(a, a),
        lambda T, a: T.eig(a),
        lambda T, a: T.eig(a, True),
        lambda T, a: T.symeig(a, eigenvectors=True),
        lambda T, a: T.matrix_rank(a),
        lambda T, a: a.solve(a),
        lambda T, a: a.lstsq(a),
        lambda T, a: a.eig(),
        lambda T, a: a.symeig(True),
        lambda T, a: T.solve(a),
        lambda T, a: T.lstsq(),
    ],
)
def test_removed_linalg_raises(call):
    torch_err, ours = _error(lambda T: call(T, T.tensor(SQ)))
    assert ours == torch_err


@pytest.mark.parametrize("some", [True, False, None])
def test_qr(some):
    res = []
    for T in LIBS:
        a = T.tensor(A.T if some is False else A, requires_grad=True)  # complete: m <= n
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = T.qr(a) if some is None else T.qr(a, some)
            out2 = a.qr() if some is None else a.qr(some)
        (out.Q.sum() + 2 * out.R.sum() + out2.Q.mean()).backward()
        res.append((out, a.grad, type(out).__name__, type(out.Q.grad_fn).__name__))
    (t, tg, tn, tf), (s, sg, sn, sf) = res
    assert (tn, tf) == (sn, sf)
    for x, y in zip(t, s, strict=True):
        assert x.shape == y.shape
        np.testing.assert_allclose(_np(y), _np(x), atol=1e-10)
    np.testing.assert_allclose(_np(sg), _np(tg), atol=1e-10)


def test_qr_warning_and_errors():
    msgs = []
    for T in LIBS:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            T.qr(T.tensor(A))
        msgs.append([str(x.message) for x in w if "torch.qr" in str(x.message)])
    if msgs[0] and msgs[1]:  # warned once per process: only comparable on a first call
        assert msgs[1][0] == msgs[0][0].split(" (Triggered internally")[0]
    assert (
        _error(lambda T: T.qr(T.tensor(A), "r"))[1] == _error(lambda T: T.qr(T.tensor(A), "r"))[0]
    )
    t_err, s_err = _error(lambda T: T.qr(T.ones(3)))
    assert s_err == t_err


# --- cond / while_loop ----------------------------------------------------------------------


@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("tensor_pred", [True, False])
def test_cond_values_and_grads(sign, tensor_pred):
    x0 = RNG.standard_normal(5)
    res = []
    for T in LIBS:
        x = T.tensor(np.abs(x0) * sign, requires_grad=True)
        y = T.tensor(x0)
        pred = (x.sum() > 0) if tensor_pred else bool(sign > 0)
        out = T.cond(pred, lambda a, b: a.sin() * b, lambda a, b: a.exp() + b, (x, y))
        out.sum().backward()
        res.append((_np(out), _np(x.grad)))
    np.testing.assert_allclose(res[1][0], res[0][0])
    np.testing.assert_allclose(res[1][1], res[0][1])


@pytest.mark.parametrize(
    "args",
    [
        lambda T: (T.tensor([1.0, 2.0]), abs, abs, (T.ones(2),)),
        lambda T: ("a", abs, abs, (T.ones(2),)),
        lambda T: (T.tensor(True), 1, abs, (T.ones(2),)),
        lambda T: (T.tensor(True), abs, abs, T.ones(2)),
        lambda T: (T.tensor(True), abs, abs, (T.ones(2), 1)),
    ],
)
def test_cond_errors(args):
    t_err, s_err = _error(lambda T: T.cond(*args(T)))
    assert s_err == t_err


def test_while_loop():
    x0 = RNG.standard_normal(3)
    res = []
    for T in LIBS:
        x = T.tensor(x0, requires_grad=True)
        i, out = T.while_loop(
            lambda i, a: i < 3, lambda i, a: (i + 1, a * 2 + a.sin()), (T.tensor(0), x)
        )
        out.sum().backward()
        res.append((int(i), _np(out), _np(x.grad)))
    assert res[1][0] == res[0][0]
    np.testing.assert_allclose(res[1][1], res[0][1])
    np.testing.assert_allclose(res[1][2], res[0][2])


def test_while_loop_errors():
    t_err, s_err = _error(lambda T: T.while_loop(1, abs, (T.ones(1),)))
    assert s_err == t_err


# --- torch.nn parameter re-exports ----------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        None,
        {},
        {"dtype": "D"},
        {"device": "cpu", "factory_kwargs": {"dtype": "D"}},
        {"bias": True},
        {"dtype": "D", "factory_kwargs": {"dtype": "D"}},
    ],
)
def test_factory_kwargs(kwargs):
    out = []
    for T in LIBS:
        kw = None if kwargs is None else {k: v for k, v in kwargs.items()}
        if kw is not None:
            for k, v in list(kw.items()):
                if v == "D":
                    kw[k] = T.float64
                if isinstance(v, dict):
                    kw[k] = {kk: T.float64 for kk in v}
        try:
            r = T.nn.factory_kwargs(kw)
            out.append(sorted((k, str(v)) for k, v in r.items()))
        except TypeError as e:
            out.append(("TypeError", str(e)))
    assert out[1] == out[0]


def test_uninitialized_reexported():
    assert shadowgrad.nn.UninitializedParameter is shadowgrad.nn.parameter.UninitializedParameter
    assert shadowgrad.nn.UninitializedBuffer is shadowgrad.nn.parameter.UninitializedBuffer
    for T in LIBS:
        p = T.nn.UninitializedParameter()
        assert isinstance(p, T.nn.Parameter)


# --- hfft2 / ihfft2 / hfftn / ihfftn --------------------------------------------------------

FFT_CASES = [
    {},
    {"s": (3, 6)},
    {"dim": (0, 2)},
    {"s": (4, -1), "dim": (1, 2)},
    {"norm": "ortho"},
    {"norm": "forward"},
]


# the n-d forms also over one dim; the inverse (ihfft) forms take real input only
_HFFT_PARAMS = [
    (name, kw, cplx)
    for name in ("hfft2", "ihfft2", "hfftn", "ihfftn")
    for kw in (*FFT_CASES, *(() if name.endswith("2") else ({"dim": -1}, {"s": (5,), "dim": (1,)})))
    for cplx in ((False,) if name.startswith("i") else (False, True))
]


@pytest.mark.parametrize(("name", "kw", "cplx"), _HFFT_PARAMS)
def test_hermitian_ffts(name, kw, cplx):
    rng = np.random.default_rng(11)
    a = rng.standard_normal((2, 3, 5)) + (1j * rng.standard_normal((2, 3, 5)) if cplx else 0)
    res = []
    for T in LIBS:
        x = T.tensor(a, requires_grad=True)
        out = getattr(T.fft, name)(x, **kw)
        w = T.tensor(np.random.default_rng(1).standard_normal(tuple(out.shape)))
        (out.real * w).sum().backward()
        res.append((out, x.grad))
    (t, tg), (s, sg) = res
    assert s.shape == t.shape and str(s.dtype) == str(t.dtype)
    assert type(s.grad_fn).__name__ == type(t.grad_fn).__name__
    np.testing.assert_allclose(_np(s), _np(t), atol=1e-10)
    np.testing.assert_allclose(_np(sg), _np(tg), atol=1e-10)


@pytest.mark.parametrize(
    "call",
    [
        lambda T: T.fft.ihfftn(T.ones(3, 4, dtype=T.complex64)),
        lambda T: T.fft.ihfft2(T.ones(3, 4, dtype=T.complex64)),
        lambda T: T.fft.hfftn(T.ones(3, 1)),
        lambda T: T.fft.hfft2(T.ones(3, 4), norm="bad"),
    ],
)
def test_hermitian_fft_errors(call):
    t_err, s_err = _error(call)
    assert s_err == t_err
