"""The last torch.nn layers against torch: AdaptiveLogSoftmaxWithLoss, fractional max pooling,
multi_head_attention_forward, conv_tbc, CrossMapLRN2d and the deprecated Container.

Each program takes the library as its argument and runs from the same numpy inputs (and, for
modules, the same weights); values, dtypes, gradients, grad_fn names, reprs and errors must
agree.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import shadowgrad

from .nn_helpers import LIBS, _both, _cotangent, _errors, _np

_rng = np.random.default_rng(0)


def _copy_params(T, module, arrays):
    with T.no_grad():
        for p, a in zip(module.parameters(), arrays, strict=True):
            p.copy_(T.tensor(a))


# --- AdaptiveLogSoftmaxWithLoss --------------------------------------------------------------


def _asm(T, head_bias=True, dtype=None):
    T.manual_seed(0)
    m = T.nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10, 15], div_value=2.0, head_bias=head_bias)
    if dtype is not None:
        m = m.to(dtype)
    shapes = [tuple(p.shape) for p in m.parameters()]
    _copy_params(T, m, [np.random.default_rng(1).standard_normal(s) for s in shapes])
    return m


@pytest.mark.parametrize("head_bias", [True, False])
def test_adaptive_forward_backward(head_bias):
    x = _rng.standard_normal((7, 8)).astype(np.float32)
    target = np.array([0, 5, 12, 3, 19, 7, 16])

    def prog(T):
        m = _asm(T, head_bias)
        xt = T.tensor(x, requires_grad=True)
        out = m(xt, T.tensor(target))
        (out.output * _cotangent(T, out.output, 1)).sum().backward(retain_graph=True)
        out.loss.backward()
        r = {
            "type": type(out).__name__,
            "fields": out._fields,
            "output": _np(out.output),
            "loss": _np(out.loss),
            "fn": (out.output.grad_fn.name(), out.loss.grad_fn.name()),
            "x.grad": _np(xt.grad),
            "repr": repr(m),
            "keys": list(m.state_dict()),
            "attrs": (m.shortlist_size, m.n_clusters, m.head_size, m.cutoffs),
        }
        for name, p in m.named_parameters():
            r[name] = _np(p.grad)
        return r

    _both(prog, 1e-5)


def test_adaptive_unbatched_log_prob_predict():
    x = _rng.standard_normal((6, 8))

    def prog(T):
        m = _asm(T, dtype=T.float64)
        xt = T.tensor(x, requires_grad=True)
        one = m(xt[2], T.tensor(13))
        lp = m.log_prob(xt)
        lp.backward(_cotangent(T, lp, 1))
        head_only = m.predict(T.zeros(3, 8, dtype=T.float64))
        return {
            "one": _np(one.output),
            "one.fn": one.output.grad_fn.name(),
            "one.loss": _np(one.loss),
            "log_prob": _np(lp),
            "lp.fn": lp.grad_fn.name(),
            "x.grad": _np(xt.grad),
            "predict": _np(m.predict(xt)),
            "predict0": _np(head_only),
            "argmax": _np(lp.argmax(1)),
        }

    _both(prog, 1e-10)


def test_adaptive_predict_mixed_rows():
    # rows where the head prefers the shortlist and rows where it prefers a cluster
    def prog(T):
        m = T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3], div_value=1.0).double()
        w = np.zeros((4, 4))
        w[3, 0], w[0, 1] = 5.0, 5.0
        _copy_params(T, m, [w, np.eye(4)[:, :4], np.arange(28.0).reshape(7, 4) / 10])
        x = T.tensor([[1.0, 0, 0, 0], [0, 1.0, 0, 0], [1.0, 0, 0, 1.0]], dtype=T.float64)
        return {"predict": _np(m.predict(x)), "lp": _np(m.log_prob(x).argmax(1))}

    _both(prog)


def test_adaptive_errors():
    x = np.zeros((3, 8), np.float32)
    for cutoffs in ([], [5, 4], [0, 5], [4, 20], [4, 4], [4.5]):
        _errors(lambda T, c=cutoffs: T.nn.AdaptiveLogSoftmaxWithLoss(8, 20, c))
    for xi, ti in (
        (x, [0, 1]),
        (x[None], [0, 1, 2]),
        (x, 3),
        (x, [[0, 1, 2]]),
        (x, [0, 1, 20]),
        (x, [-1, 1, 2]),
    ):
        _errors(lambda T, xi=xi, ti=ti: _asm(T)(T.tensor(xi), T.tensor(ti)))


# --- fractional max pooling ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "shape", "kernel", "kw", "dtype"),
    [
        (2, (2, 3, 9, 8), (2, 3), {"output_size": (4, 5)}, np.float32),
        (2, (3, 9, 8), 2, {"output_ratio": (0.5, 0.7)}, np.float64),
        (3, (2, 2, 7, 8, 9), (2, 3, 2), {"output_size": (3, 4, 5)}, np.float32),
        (3, (2, 7, 8, 6), 2, {"output_ratio": 0.5}, np.float64),
        (2, (2, 6, 5, 4), 2, {"output_ratio": 0.75}, np.float64),
    ],
)
def test_fractional_module_matches(n, shape, kernel, kw, dtype):
    x = _rng.standard_normal(shape).astype(dtype)
    x.reshape(-1)[::7] = x.reshape(-1)[3]  # ties: the first maximum wins
    batch = shape[0] if len(shape) == n + 2 else 1
    u = _rng.random((batch, shape[-n - 1], n)).astype(dtype)

    def prog(T):
        cls = getattr(T.nn, f"FractionalMaxPool{n}d")
        m = cls(kernel, return_indices=True, _random_samples=T.tensor(u), **kw)
        xt = T.tensor(x, requires_grad=True)
        y, idx = m(xt)
        g = T.autograd.grad(y, xt, _cotangent(T, y, 1), create_graph=True)[0]
        f = getattr(T.nn.functional, f"fractional_max_pool{n}d")
        kw2 = {"output_size": m.output_size, "output_ratio": m.output_ratio}
        y2 = f(xt, kernel, _random_samples=T.tensor(u), **kw2)
        return {
            "y": _np(y),
            "idx": _np(idx),
            "fn": y.grad_fn.name(),
            "grad": _np(g),
            "y2": _np(y2),
            "repr": repr(m),
            "keys": list(m.state_dict()),
            "attrs": (m.kernel_size, m.output_size, m.output_ratio, m.return_indices),
        }

    _both(prog, 0)


def test_fractional_double_backward_and_gradcheck():
    x = _rng.standard_normal((1, 2, 6, 7))
    u = _rng.random((1, 2, 2))

    def prog(T):
        xt = T.tensor(x, requires_grad=True)
        y = T.nn.functional.fractional_max_pool2d(xt, 2, 3, _random_samples=T.tensor(u))
        v = T.ones_like(y, requires_grad=True)
        g = T.autograd.grad(y, xt, v, create_graph=True)[0]
        gv = T.autograd.grad(g, v, _cotangent(T, g, 1))[0]
        return {"g": _np(g), "gv": _np(gv)}

    _both(prog, 0)
    x3 = shadowgrad.tensor(_rng.standard_normal((1, 2, 5, 6, 5)), requires_grad=True)
    u3 = shadowgrad.tensor(_rng.random((1, 2, 3)))

    def f3(t):
        return shadowgrad.nn.functional.fractional_max_pool3d(t, 2, 3, _random_samples=u3)

    assert shadowgrad.autograd.gradcheck(f3, (x3,))
    assert shadowgrad.autograd.gradgradcheck(f3, (x3,))


def test_fractional_random_samples_drawn():
    # without _random_samples the samples come from the generator: the same shape and windows
    for T in LIBS:
        T.manual_seed(3)
        y = T.nn.FractionalMaxPool2d(2, output_ratio=0.5)(T.randn(2, 3, 8, 8))
        assert tuple(y.shape) == (2, 3, 4, 4)
        y = T.nn.functional.fractional_max_pool3d(T.randn(3, 8, 8, 6), 2, output_size=(4, 3, 2))
        assert tuple(y.shape) == (3, 4, 3, 2)


def test_fractional_errors():
    x = np.zeros((2, 3, 7, 6), np.float32)
    x3 = np.zeros((2, 3, 5, 6, 7), np.float32)
    u, u3 = np.zeros((2, 3, 2), np.float32), np.zeros((2, 3, 3), np.float32)
    cases2 = [
        (x, 2, {"output_size": (7, 6)}, u),
        (x, 2, {"output_size": (6, 8)}, u),
        (x, (2, 2, 2), {"output_size": 3}, u),
        (x, 2, {"output_size": (3, 3, 3)}, u),
        (x, [2], {"output_size": 3}, u),
        (x, 2, {"output_size": 3}, u[:, :, :1]),
        (x, 2, {"output_size": 3}, u[:1]),
        (x, 2, {"output_size": 3}, u[:, :2]),
        (x, 2, {"output_size": 3}, u[0]),
        (x, 2, {"output_size": 3}, u.astype(np.float64)),
        (x[0, 0], 2, {"output_size": 3}, None),
        (x[:, :0], 2, {"output_size": 3}, None),
        (x, 2, {"output_ratio": 0.5}, u),
        (x, 2, {"output_ratio": (0.5, 0.5, 0.5)}, u),
        (x, 2, {}, u),
        (x, 2, {"output_size": (-1, 3)}, u),
        (x.astype(np.int64), 2, {"output_size": 3}, u.astype(np.int64)),
    ]
    for xi, k, kw, ui in cases2:

        def call(T, xi=xi, k=k, kw=kw, ui=ui):
            s = None if ui is None else T.tensor(ui)
            return T.nn.functional.fractional_max_pool2d(T.tensor(xi), k, _random_samples=s, **kw)

        _errors(call)
    cases3 = [
        (x3, 2, {"output_size": (4, 3, 3)}, u3),
        (x3, 2, {"output_size": (3, 6, 3)}, u3),
        (x3, 2, {"output_size": (3, 3, 7)}, u3),
        (x3, (2, 2), {"output_size": 3}, u3),
        (x3, 2, {"output_size": (3, 3)}, u3),
        (x3, 2, {"output_size": 3}, u3[..., :2]),
        (x3[0, 0], 2, {"output_size": 3}, None),
        (x3, 2, {}, u3),
    ]
    for xi, k, kw, ui in cases3:

        def call3(T, xi=xi, k=k, kw=kw, ui=ui):
            s = None if ui is None else T.tensor(ui)
            return T.nn.functional.fractional_max_pool3d(T.tensor(xi), k, _random_samples=s, **kw)

        _errors(call3)
    for n in (2, 3):
        for args, kw in (
            ((3,), {}),
            ((3,), {"output_size": 2, "output_ratio": 0.5}),
            ((3,), {"output_ratio": 1.5}),
            ((3,), {"output_ratio": (0.5,) * (n - 1) + (1,)}),
            ((0,), {"output_size": 2}),
            (((2, 0, 2)[:n],), {"output_size": 2}),
        ):
            if n == 2 and args[0] in (0, (2, 0)):
                continue  # torch's 2-d module does not check the kernel
            _errors(lambda T, n=n, a=args, k=kw: getattr(T.nn, f"FractionalMaxPool{n}d")(*a, **k))


# --- multi_head_attention_forward, conv_tbc -------------------------------------------------


def test_multi_head_attention_forward():
    e, h, L, S, B = 8, 2, 3, 4, 2
    arrays = {
        "q": _rng.standard_normal((L, B, e)),
        "k": _rng.standard_normal((S, B, e)),
        "v": _rng.standard_normal((S, B, e)),
        "w_in": _rng.standard_normal((3 * e, e)) / 3,
        "b_in": _rng.standard_normal(3 * e),
        "w_out": _rng.standard_normal((e, e)) / 3,
        "b_out": _rng.standard_normal(e),
    }
    mask = np.array([[False, False, True, False], [False, False, False, False]])

    def prog(T):
        t = {k: T.tensor(a, requires_grad=True) for k, a in arrays.items()}
        out, w = T.nn.functional.multi_head_attention_forward(
            t["q"], t["k"], t["v"], e, h, t["w_in"], t["b_in"], None, None, False, 0.0,
            t["w_out"], t["b_out"], training=False, key_padding_mask=T.tensor(mask),
        )  # fmt: skip
        out.backward(_cotangent(T, out, 1))
        r = {"out": _np(out), "w": _np(w), "fn": out.grad_fn.name()}
        r.update({k: _np(v.grad) for k, v in t.items()})
        return r

    _both(prog, 1e-10)


def test_conv_tbc_no_forward_ad_and_gradcheck():
    x, w, b = (_rng.standard_normal(s) for s in ((6, 2, 3), (3, 3, 4), (4,)))
    tangents = [_rng.standard_normal(a.shape) for a in (x, w, b)]

    def prog(T):
        import importlib

        fwAD = importlib.import_module(f"{T.__name__}.autograd.forward_ad")
        with fwAD.dual_level():
            duals = [
                fwAD.make_dual(T.tensor(a), T.tensor(t))
                for a, t in zip((x, w, b), tangents, strict=True)
            ]
            return T.conv_tbc(*duals, 1)

    _errors(prog)
    ts = [shadowgrad.tensor(a, requires_grad=True) for a in (x, w, b)]
    for pad in (0, 2, -1):

        def f(*a, pad=pad):
            return shadowgrad.conv_tbc(*a, pad)

        assert shadowgrad.autograd.gradcheck(f, ts)
        assert shadowgrad.autograd.gradgradcheck(f, ts)
    assert shadowgrad.nn.functional.conv_tbc is shadowgrad.conv_tbc


def test_conv_tbc_dtypes():
    x, w, b = (_rng.standard_normal(s) for s in ((6, 2, 3), (3, 3, 4), (4,)))
    for dx, dw, db in ((np.float64, np.float64, np.float32), (np.float32, np.float32, np.float64)):

        def prog(T, dx=dx, dw=dw, db=db):
            y = T.conv_tbc(T.tensor(x.astype(dx)), T.tensor(w.astype(dw)), T.tensor(b.astype(db)))
            return {"y": _np(y)}

        _both(prog, 1e-6)
    _both(
        lambda T: {"y": _np(T.conv_tbc(*(T.tensor((a * 3).astype(np.int64)) for a in (x, w, b))))}
    )
    _errors(lambda T: T.conv_tbc(T.tensor(x), T.tensor(w.astype(np.float32)), T.tensor(b)))
    _errors(lambda T: T.conv_tbc(T.tensor(x), T.tensor(w), T.tensor(b), 1.5))
    _errors(lambda T: T.conv_tbc(T.tensor(x), T.tensor(w[0]), T.tensor(b)))
    _errors(lambda T: T.conv_tbc(T.tensor(x), T.tensor(w), T.tensor(b[None])))


# --- CrossMapLRN2d, Container ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "size", "dtype"),
    [((2, 7, 3, 4), 5, np.float32), ((1, 3, 2, 2), 3, np.float64), ((2, 6, 2, 3), 2, np.float64)],
)
def test_cross_map_lrn2d(shape, size, dtype):
    x = _rng.standard_normal(shape).astype(dtype)

    def prog(T):
        m = T.nn.CrossMapLRN2d(size, alpha=0.1, beta=0.6, k=1.5)
        xt = T.tensor(x, requires_grad=True)
        y = m(xt)
        y.backward(_cotangent(T, y, 1))
        d = T.nn.CrossMapLRN2d(3)
        return {
            "y": _np(y),
            "grad": _np(xt.grad),
            "fn": y.grad_fn.name(),
            "repr": (repr(m), repr(d)),
            "keys": list(m.state_dict()),
        }

    _both(prog, 1e-6 if dtype == np.float32 else 1e-12)
    _errors(lambda T: T.nn.CrossMapLRN2d(3)(T.tensor(x[0])))


def test_container_deprecated():
    got = []
    for T in LIBS:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            c = T.nn.Container(a=T.nn.Linear(2, 3), b=T.nn.ReLU())

            class Sub(T.nn.Container):
                pass

            Sub()
        got.append(
            (
                repr(c),
                list(c.state_dict()),
                [(x.category.__name__, str(x.message), x.filename == __file__) for x in w],
            )
        )
    assert got[0] == got[1]
    assert len(got[0][2]) == 2
