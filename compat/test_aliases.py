"""Differential tests of torch's top-level spellings of existing ops (shadowgrad/ops/aliases.py):
the same program runs with torch and shadowgrad from the same numpy inputs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import shadowgrad  # noqa: E402
from shadowgrad.ops import aliases  # noqa: E402

LIBS = (torch, shadowgrad)
X = np.random.default_rng(3).uniform(0.1, 0.9, (2, 3, 4))


def _run(fn):
    """fn(T) for both libraries: (result, None) or (None, (exception type name, message))."""
    out = []
    for T in LIBS:
        try:
            out.append((fn(T), None))
        except Exception as e:  # compared below
            out.append((None, (type(e).__name__, str(e))))
    return out


def _np(t):
    return t.detach().numpy().copy()


def _same(fn):
    (a, ea), (b, eb) = _run(fn)
    assert ea == eb
    if ea is None:
        if isinstance(a, tuple):
            for u, v in zip(a, b, strict=True):
                if hasattr(u, "shape"):
                    np.testing.assert_allclose(_np(u), _np(v), rtol=1e-6, atol=1e-6)
                else:
                    assert u == v
        elif hasattr(a, "shape"):
            np.testing.assert_allclose(_np(a), _np(b), rtol=1e-6, atol=1e-6)
        else:
            assert a == b
    return a, b


INPLACE = [n for n in aliases._METHOD_FUNCTIONS if n.endswith("_") and n != "detach_"]
ARGS = {"clamp_": (0.2, 0.5), "clamp_min_": (0.5,), "clamp_max_": (0.5,), "clip_": (0.2, 0.5),
        "fill_": (2.0,), "ldexp_": "t", "xlogy_": "t", "addmv_": "mv"}  # fmt: skip


def _args(T, name):
    a = ARGS.get(name, ())
    if a == "t":
        return (T.tensor(X[0] + 1),)
    if a == "mv":
        return (T.tensor(X[0]), T.tensor(X[0, 0]))
    return a


@pytest.mark.parametrize("name", INPLACE)
def test_inplace_function_is_the_method(name):
    def prog(T):
        src = X[0, 0] if name == "addmv_" else X
        x = T.tensor(src, requires_grad=True)
        y = x * 1
        v = y._version
        out = getattr(T, name)(y, *_args(T, name))
        assert out is y and y._version > v
        fn = y.grad_fn.name() if y.grad_fn is not None else None
        return y, fn

    _same(prog)


@pytest.mark.parametrize("name", ["relu_", "exp_", "clamp_", "clamp_min_", "zero_", "fill_"])
def test_inplace_function_errors(name):
    _same(lambda T: getattr(T, name)(1))
    _same(lambda T: getattr(T, name)())
    # in-place on a leaf that requires grad
    _same(lambda T: getattr(T, name)(T.ones(2, requires_grad=True), *_args(T, name)))


def test_detach_functions():
    def prog(T):
        x = T.tensor(X, requires_grad=True)
        d = T.detach(x * 2)
        y = x * 2
        T.detach_(y)
        return d.requires_grad, y.requires_grad, y.grad_fn, T.detach(x).is_leaf

    _same(prog)
    _same(lambda T: T.detach_(T.ones(2, requires_grad=True)[:1]))


@pytest.mark.parametrize(
    "name",
    ["dropout_", "alpha_dropout", "alpha_dropout_", "feature_dropout", "feature_dropout_",
     "feature_alpha_dropout", "feature_alpha_dropout_"],
)  # fmt: skip
def test_dropouts_deterministic_cases(name):
    def prog(T):
        x = T.tensor(X, requires_grad=True) * 1
        f = getattr(T, name)
        same = f(x, 0.5, False) is x, f(x, 0.0, True) is x
        z = f(x * 1, 1.0, True)
        return same, z, z.grad_fn.name()

    _same(prog)
    _same(lambda T: getattr(T, name)(T.tensor(X), 1.5, True))
    _same(lambda T: getattr(T, name)(T.tensor(X), -0.5, False))


@pytest.mark.parametrize("name", ["feature_dropout", "feature_alpha_dropout"])
def test_feature_dropout_masks_whole_channels(name):
    shadowgrad.manual_seed(0)
    x = shadowgrad.ones(8, 16, 5)
    y = getattr(shadowgrad, name)(x, 0.5, True).numpy()
    assert (y == y[:, :, :1]).all()  # one mask value per (sample, channel)
    assert len(np.unique(y)) == 2
    _same(lambda T: getattr(T, name)(T.ones(3), 0.5, True))
    _same(lambda T: getattr(T, name)(T.ones(3), 0.5, False))


def test_dropout_grad_fn_names_in_training():
    for name in ("dropout_", "alpha_dropout", "feature_dropout", "feature_alpha_dropout_"):
        _same(lambda T, n=name: getattr(T, n)(T.ones(2, 3, 4, requires_grad=True) * 1, 0.3, True)
              .grad_fn.name())  # fmt: skip


def test_activations():
    v = np.array([-2.0, -0.5, 0.0, 0.7])
    for call in (
        lambda T: T.selu_(T.tensor(v, requires_grad=True) * 1),
        lambda T: T.celu_(T.tensor(v, requires_grad=True) * 1, 0.5),
        lambda T: T.threshold_(T.tensor(v, requires_grad=True) * 1, 0.1, 9.0),
        lambda T: T.rrelu(T.tensor(v, requires_grad=True), 0.1, 0.3, False, None),
        lambda T: T.rrelu_(T.tensor(v, requires_grad=True) * 1, 0.1, 0.3),
    ):
        a, b = _same(call)
        assert a.grad_fn.name() == b.grad_fn.name()


def test_loss_reductions_default_unreduced():
    x, y = np.random.default_rng(0).standard_normal((2, 3))
    s = np.array([1.0, -1.0, 1.0])
    for call in (
        lambda T: T.kl_div(T.tensor(x), T.tensor(y)),
        lambda T: T.kl_div(T.tensor(x), T.tensor(y), 1),
        lambda T: T.kl_div(T.tensor(x), T.tensor(y), 2, log_target=True),
        lambda T: T.margin_ranking_loss(T.tensor(x), T.tensor(y), T.tensor(s)),
        lambda T: T.hinge_embedding_loss(T.tensor(x), T.tensor(s), 0.5, 2),
        lambda T: T.binary_cross_entropy_with_logits(T.tensor(x), T.tensor(abs(y) / 3)),
        lambda T: T.poisson_nll_loss(T.tensor(x), T.tensor(abs(y)), True, False, 1e-8, 1),
    ):
        _same(call)


def test_norms_positional_signatures():
    rng = np.random.default_rng(1)
    x, (w, b, rm, rv) = rng.standard_normal((4, 3, 2)), rng.standard_normal((4, 3))
    rv = abs(rv) + 0.5

    def prog(T):
        m, v = T.tensor(rm), T.tensor(rv)
        out = T.batch_norm(T.tensor(x), T.tensor(w), T.tensor(b), m, v, True, 0.2, 1e-5, False)
        inst = T.instance_norm(T.tensor(x), None, None, None, None, True, 0.1, 1e-5, False)
        return out, m, v, inst, out.grad_fn

    _same(prog)


def test_pooling_and_padding():
    x = np.random.default_rng(2).permutation(2 * 3 * 8).reshape(2, 3, 8).astype(np.float64)
    _same(lambda T: T.max_pool1d_with_indices(T.tensor(x), 3, [], 1))
    _same(lambda T: T.adaptive_max_pool1d(T.tensor(x), 3))
    _same(lambda T: T.max_pool3d(T.tensor(x[None]), 2, []))
    _same(lambda T: T.constant_pad_nd(T.tensor(x), [2, -1], 7.0))
    _same(lambda T: T.pdist(T.tensor(x[0]), 3.0))


def test_chain_matmul_warns_once_and_matches():
    rng = np.random.default_rng(4)
    a, b, c = rng.standard_normal((2, 3)), rng.standard_normal((3, 5)), rng.standard_normal((5, 2))
    aliases._CHAIN_WARNED = False
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        shadowgrad.chain_matmul(*(shadowgrad.tensor(m) for m in (a, b, c)))
        shadowgrad.chain_matmul(shadowgrad.tensor(a), shadowgrad.tensor(b))
    assert len(w) == 1 and "torch.chain_matmul is deprecated" in str(w[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(lambda T: T.chain_matmul(*(T.tensor(m) for m in (a, b, c))))
        _same(lambda T: T.chain_matmul(T.tensor(a, requires_grad=True)).grad_fn.name())
        _same(lambda T: T.chain_matmul(T.tensor(a), T.tensor(b[0])))
        _same(lambda T: T.chain_matmul())


def test_neg_bit_and_is_cpu():
    _same(lambda T: (T.is_neg(T.ones(2)), T.ones(2).is_neg(), T.ones(2).is_cpu))
    _same(lambda T: (lambda t: T.resolve_neg(t) is t and t.resolve_neg() is t)(T.ones(2)))
