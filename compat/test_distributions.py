"""torch.distributions against torch: the same programs, from the same numpy inputs, through
both libraries; values, gradients, grad_fn names, shapes, reprs and error messages."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)
RNG = np.random.default_rng(0)

P3 = np.array([0.2, 0.5, 0.3])
PB = np.array([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
LOGITS = RNG.normal(size=(2, 3))
SPD = np.array([[2.0, 0.3, 0.1], [0.3, 1.5, -0.2], [0.1, -0.2, 1.0]])
TRIL = np.linalg.cholesky(SPD)

# name -> (constructor(T, *params), parameter arrays, a value in the support)
CASES = {
    "Normal": (
        lambda T, a, b: T.distributions.Normal(a, b),
        [RNG.normal(size=3), np.array([0.5, 1.0, 2.0])],
        RNG.normal(size=(2, 3)),
    ),
    "Uniform": (
        lambda T, a, b: T.distributions.Uniform(a, b),
        [np.array([-1.0, 0.0]), np.array([1.0, 3.0])],
        np.array([0.5, 2.0]),
    ),
    "Bernoulli-probs": (
        lambda T, p: T.distributions.Bernoulli(probs=p),
        [np.array([0.2, 0.7, 0.5])],
        np.array([1.0, 0.0, 1.0]),
    ),
    "Bernoulli-logits": (
        lambda T, lg: T.distributions.Bernoulli(logits=lg),
        [np.array([-1.0, 0.3, 2.0])],
        np.array([1.0, 0.0, 1.0]),
    ),
    "Categorical-probs": (
        lambda T, p: T.distributions.Categorical(probs=p),
        [PB],
        np.array([2, 0]),
    ),
    "Categorical-logits": (
        lambda T, lg: T.distributions.Categorical(logits=lg),
        [LOGITS],
        np.array([[1, 2], [0, 1], [2, 2]]),
    ),
    "OneHotCategorical": (
        lambda T, p: T.distributions.OneHotCategorical(probs=p),
        [PB],
        np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]),
    ),
    "OneHotCategorical-logits": (
        lambda T, lg: T.distributions.OneHotCategorical(logits=lg),
        [LOGITS],
        np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]),
    ),
    "MVN-cov": (
        lambda T, m, c: T.distributions.MultivariateNormal(m, covariance_matrix=c),
        [RNG.normal(size=3), SPD],
        RNG.normal(size=(4, 3)),
    ),
    "MVN-prec": (
        lambda T, m, c: T.distributions.MultivariateNormal(m, precision_matrix=c),
        [RNG.normal(size=(2, 3)), SPD],
        RNG.normal(size=(2, 3)),
    ),
    "MVN-tril": (
        lambda T, m, c: T.distributions.MultivariateNormal(m, scale_tril=c),
        [RNG.normal(size=3), TRIL],
        RNG.normal(size=(4, 3)),
    ),
    "Independent": (
        lambda T, a, b: T.distributions.Independent(T.distributions.Normal(a, b), 1),
        [RNG.normal(size=(2, 3)), np.full((2, 3), 0.7)],
        RNG.normal(size=(2, 3)),
    ),
    "Beta": (
        lambda T, a, b: T.distributions.Beta(a, b),
        [np.array([0.5, 2.0, 3.0]), np.array([1.5, 0.7, 3.0])],
        np.array([0.3, 0.9, 0.5]),
    ),
    "Gamma": (
        lambda T, a, b: T.distributions.Gamma(a, b),
        [np.array([0.5, 2.0, 3.0]), np.array([1.5, 0.7, 3.0])],
        np.array([0.3, 2.9, 0.5]),
    ),
    "Dirichlet": (
        lambda T, a: T.distributions.Dirichlet(a),
        [np.array([[0.5, 2.0, 3.0], [1.0, 1.0, 4.0]])],
        PB,
    ),
    "Dirichlet-small": (lambda T, a: T.distributions.Dirichlet(a), [np.array([0.5, 0.2, 0.9])], P3),
    "Exponential": (
        lambda T, r: T.distributions.Exponential(r),
        [np.array([0.5, 2.0])],
        np.array([[0.3, 1.2], [0.0, 4.0]]),
    ),
    "Laplace": (
        lambda T, a, b: T.distributions.Laplace(a, b),
        [RNG.normal(size=3), np.array([0.5, 1.0, 2.0])],
        RNG.normal(size=3),
    ),
    "Poisson": (
        lambda T, r: T.distributions.Poisson(r),
        [np.array([0.5, 2.0, 7.0])],
        np.array([0.0, 3.0, 6.0]),
    ),
    "Binomial": (
        lambda T, p: T.distributions.Binomial(5, probs=p),
        [np.array([0.2, 0.5, 0.9])],
        np.array([0.0, 3.0, 5.0]),
    ),
    "Binomial-logits": (
        lambda T, lg: T.distributions.Binomial(
            T.tensor([3.0, 7.0, 10.0], dtype=T.float64), logits=lg
        ),
        [np.array([-1.0, 0.0, 2.0])],
        np.array([1.0, 7.0, 4.0]),
    ),
    "Geometric": (
        lambda T, p: T.distributions.Geometric(probs=p),
        [np.array([0.2, 0.5, 1.0])],
        np.array([3.0, 0.0, 0.0]),
    ),
    "Geometric-logits": (
        lambda T, lg: T.distributions.Geometric(logits=lg),
        [np.array([-1.0, 0.5])],
        np.array([3.0, 1.0]),
    ),
}


def _build(T, name, grad=True, cases=None):
    """The case ``name`` of ``cases`` (this file's CASES by default) built in library ``T``."""
    ctor, params, _ = (CASES if cases is None else cases)[name]
    ts = [T.tensor(p, requires_grad=grad) for p in params]
    return ctor(T, *ts), ts


def _close(a, b, rtol=1e-6, atol=1e-8):
    b = b.detach().numpy() if hasattr(b, "detach") else np.asarray(b)
    a = a.detach().numpy() if hasattr(a, "detach") else np.asarray(a)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_allclose(b, a, rtol=rtol, atol=atol, equal_nan=True)


def _compare_fn(name, fn, arg=None, rtol=1e-6, cases=None):
    """Run ``fn(dist, value)`` in both libraries; compare value, grad_fn and param grads
    (of the finite entries)."""
    outs = []
    for T in LIBS:
        d, ts = _build(T, name, cases=cases)
        v = None if arg is None else T.tensor(arg)
        try:
            out = fn(d, v)
        except NotImplementedError:
            outs.append(None)
            continue
        g = None
        if out.requires_grad:
            try:
                g = T.autograd.grad(out[out.isfinite()].sum(), ts, allow_unused=True)
            except NotImplementedError as e:
                g = str(e)
        outs.append((out, g))
    ref, got = outs
    assert (ref is None) == (got is None)
    if ref is None:
        return
    _close(ref[0], got[0], rtol=rtol)
    assert str(ref[0].dtype) == str(got[0].dtype)
    name_of = lambda o: o.grad_fn.name() if o.grad_fn is not None else None  # noqa: E731
    if name_of(ref[0]) != "IgammaBackward0":  # ours: AddBackward0 (see gamma.cdf)
        assert name_of(ref[0]) == name_of(got[0])
    assert (ref[1] is None) == (got[1] is None)
    if isinstance(ref[1], str):
        assert ref[1] == got[1]
    elif ref[1] is not None:
        for a, b in zip(ref[1], got[1], strict=True):
            assert (a is None) == (b is None)
            if a is not None:
                _close(a, b, rtol=rtol)


def _check_shapes_repr_flags(name, cases):
    (dt, _), (ds, _) = (_build(T, name, cases=cases) for T in LIBS)
    assert tuple(dt.batch_shape) == tuple(ds.batch_shape)
    assert tuple(dt.event_shape) == tuple(ds.event_shape)
    assert repr(dt) == repr(ds)
    assert repr(dt.support) == repr(ds.support)
    assert dt.support.event_dim == ds.support.event_dim
    assert dt.support.is_discrete == ds.support.is_discrete
    assert dt.has_enumerate_support == ds.has_enumerate_support
    assert dt.has_rsample == ds.has_rsample
    assert sorted(dt.arg_constraints) == sorted(ds.arg_constraints)
    for k in dt.arg_constraints:
        assert repr(dt.arg_constraints[k]) == repr(ds.arg_constraints[k])


def _check_sample_shapes(name, cases):
    shadowgrad.manual_seed(0)
    for T in LIBS:
        d, _ = _build(T, name, cases=cases)
        for shape in [(), (5,), (2, 4)]:
            s = d.sample(shape)
            assert tuple(s.shape) == shape + tuple(d.batch_shape) + tuple(d.event_shape)
            assert not s.requires_grad
            assert bool(d.support.check(s).all())
    ref, got = (_build(T, name, cases=cases)[0].sample() for T in LIBS)
    assert str(ref.dtype) == str(got.dtype)


def _check_expand(name, cases):
    for T in LIBS:
        d, _ = _build(T, name, cases=cases)
        e = d.expand((4, *tuple(d.batch_shape)))
        assert tuple(e.batch_shape) == (4, *tuple(d.batch_shape))
        assert tuple(e.event_shape) == tuple(d.event_shape)
        assert type(e) is type(d)
        assert tuple(e.sample().shape) == (4, *tuple(d.batch_shape), *tuple(d.event_shape))
    v = cases[name][2]
    d, _ = _build(torch, name, cases=cases)
    while v.ndim > len(d.batch_shape) + len(d.event_shape):
        v = v[0]
    _compare_fn(
        name,
        lambda d, v: d.expand((4, *tuple(d.batch_shape))).log_prob(v),
        v[None],
        cases=cases,
    )


@pytest.mark.parametrize("name", list(CASES))
def test_shapes_repr_flags(name):
    _check_shapes_repr_flags(name, CASES)


@pytest.mark.parametrize("prop", ["mean", "mode", "variance", "stddev"])
@pytest.mark.parametrize("name", list(CASES))
def test_moments(name, prop):
    _compare_fn(
        name,
        lambda d, v: getattr(d, prop).to(
            torch.float64 if isinstance(d, torch.distributions.Distribution) else shadowgrad.float64
        ),
    )


@pytest.mark.parametrize("name", list(CASES))
def test_log_prob(name):
    _compare_fn(name, lambda d, v: d.log_prob(v), CASES[name][2])


@pytest.mark.parametrize("name", list(CASES))
def test_entropy_perplexity(name):
    _compare_fn(name, lambda d, v: d.entropy())
    _compare_fn(name, lambda d, v: d.perplexity())


@pytest.mark.parametrize("name", ["Normal", "Uniform", "Exponential", "Laplace"])
def test_cdf_icdf(name):
    value = CASES[name][2]
    _compare_fn(name, lambda d, v: d.cdf(v), value)
    q = np.full(np.broadcast(value, CASES[name][1][0]).shape, 0.3)
    _compare_fn(name, lambda d, v: d.icdf(v), q)


@pytest.mark.parametrize("name", list(CASES))
def test_sample_shapes_and_support(name):
    _check_sample_shapes(name, CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_expand(name):
    _check_expand(name, CASES)


@pytest.mark.parametrize(
    "name",
    [n for n in CASES if "Bernoulli" in n or "Categorical" in n or "Binomial" in n],
)
def test_enumerate_support(name):
    for expand in (True, False):
        _compare_fn(
            name,
            lambda d, v, expand=expand: d.enumerate_support(expand).to(
                torch.float64
                if isinstance(d, torch.distributions.Distribution)
                else shadowgrad.float64
            ),
        )


# --- rsample: the same noise through both libraries ----------------------------------------


def _rsample_grads(T, name, noise_fn):
    d, ts = _build(T, name)
    x = noise_fn(T, d)
    return x, T.autograd.grad((x * x).sum(), ts)


@pytest.mark.parametrize("name", ["Normal", "MVN-cov", "MVN-prec", "MVN-tril", "Independent"])
def test_rsample_normal_noise(name, monkeypatch):
    d, _ = _build(torch, name)
    eps = RNG.normal(size=(5, *tuple(d.batch_shape), *tuple(d.event_shape)))
    for T, mod in ((torch, torch.distributions), (shadowgrad, shadowgrad.distributions)):
        fake = lambda shape, dtype, device=None, T=T: T.tensor(eps, dtype=dtype)  # noqa: E731
        monkeypatch.setattr(mod.normal, "_standard_normal", fake)
        monkeypatch.setattr(mod.multivariate_normal, "_standard_normal", fake)
    (xt, gt), (xs, gs) = (_rsample_grads(T, name, lambda T, d: d.rsample((5,))) for T in LIBS)
    _close(xt, xs)
    assert xt.grad_fn.name() == xs.grad_fn.name()
    for a, b in zip(gt, gs, strict=False):
        _close(a, b)


def test_rsample_uniform_noise(monkeypatch):
    u = RNG.random(size=(5, 2))
    monkeypatch.setattr(torch, "rand", lambda shape, dtype=None, device=None: torch.tensor(u))
    monkeypatch.setattr(shadowgrad, "rand", lambda shape, dtype=None: shadowgrad.tensor(u))
    (xt, gt), (xs, gs) = (_rsample_grads(T, "Uniform", lambda T, d: d.rsample((5,))) for T in LIBS)
    _close(xt, xs)
    assert xt.grad_fn.name() == xs.grad_fn.name()
    for a, b in zip(gt, gs, strict=False):
        _close(a, b)


def test_rsample_exponential_laplace_recovered_noise():
    # shadowgrad draws x; recover the noise and push it through torch's own pathway.
    shadowgrad.manual_seed(3)
    d, (rate,) = _build(shadowgrad, "Exponential")
    x = d.rsample((6,))
    assert x.grad_fn.name() == "DivBackward0"
    (g,) = shadowgrad.autograd.grad((x * x).sum(), [rate])
    e = (x * rate).detach().numpy()
    rt = torch.tensor(CASES["Exponential"][1][0], requires_grad=True)
    xt = torch.tensor(e) / rt
    (gt,) = torch.autograd.grad((xt * xt).sum(), [rt])
    _close(xt, x)
    _close(gt, g)

    d, (loc, scale) = _build(shadowgrad, "Laplace")
    x = d.rsample((6,))
    (gl, gsc) = shadowgrad.autograd.grad((x * x).sum(), [loc, scale])
    z = ((x - loc) / scale).detach().numpy()  # = -sign(u) log1p(-|u|)
    lt, st = (torch.tensor(p, requires_grad=True) for p in CASES["Laplace"][1])
    xt = lt + st * torch.tensor(z)
    gtl, gts = torch.autograd.grad((xt * xt).sum(), [lt, st])
    _close(gtl, gl)
    _close(gts, gsc)
    assert x.grad_fn.name() == "SubBackward0"


def test_straight_through_rsample():
    shadowgrad.manual_seed(1)
    for T in LIBS:
        p = T.tensor(PB, requires_grad=True)
        d = T.distributions.OneHotCategoricalStraightThrough(probs=p)
        s = d.rsample((4,))
        assert tuple(s.shape) == (4, 2, 3) and s.grad_fn.name() == "AddBackward0"
        (g,) = T.autograd.grad((s * T.arange(3.0, dtype=T.float64)).sum(), [p])
        # the gradient only depends on probs' normalization, not the drawn sample
        if T is torch:
            ref = g
        else:
            _close(ref, g)


# --- KL divergence -------------------------------------------------------------------------

KL_PAIRS = [
    (
        "Normal",
        [RNG.normal(size=3), np.array([0.5, 1.0, 2.0])],
        [RNG.normal(size=3), np.array([1.5, 0.3, 1.0])],
    ),
    ("Categorical-probs", [PB], [np.array([[0.3, 0.3, 0.4], [0.5, 0.0, 0.5]])]),
    ("Categorical-logits", [LOGITS], [RNG.normal(size=(2, 3))]),
    ("OneHotCategorical", [PB], [np.array([[0.3, 0.3, 0.4], [0.5, 0.2, 0.3]])]),
    ("Bernoulli-probs", [np.array([0.2, 0.7, 0.0])], [np.array([0.5, 0.1, 0.3])]),
    ("Bernoulli-logits", [np.array([-1.0, 0.3, 2.0])], [np.array([0.5, 0.1, -3.0])]),
    ("MVN-cov", [RNG.normal(size=3), SPD], [RNG.normal(size=3), SPD + np.eye(3)]),
    ("MVN-tril", [RNG.normal(size=3), TRIL], [RNG.normal(size=3), TRIL * 0.5]),
    (
        "Beta",
        [np.array([0.5, 2.0]), np.array([1.5, 0.7])],
        [np.array([1.0, 3.0]), np.array([2.0, 0.4])],
    ),
    (
        "Gamma",
        [np.array([0.5, 2.0]), np.array([1.5, 0.7])],
        [np.array([1.0, 3.0]), np.array([2.0, 0.4])],
    ),
    ("Dirichlet", [np.array([0.5, 2.0, 3.0])], [np.array([1.0, 1.0, 0.2])]),
    (
        "Uniform",
        [np.array([-1.0, 0.0]), np.array([1.0, 3.0])],
        [np.array([-2.0, 0.5]), np.array([1.5, 3.0])],
    ),
    ("Exponential", [np.array([0.5, 2.0])], [np.array([1.5, 0.2])]),
    (
        "Laplace",
        [RNG.normal(size=3), np.array([0.5, 1.0, 2.0])],
        [RNG.normal(size=3), np.array([1.5, 0.3, 1.0])],
    ),
    (
        "Independent",
        [RNG.normal(size=(2, 3)), np.full((2, 3), 0.7)],
        [RNG.normal(size=(2, 3)), np.full((2, 3), 1.3)],
    ),
    ("Poisson", [np.array([0.5, 2.0])], [np.array([1.5, 0.2])]),
    ("Geometric", [np.array([0.2, 0.5])], [np.array([0.6, 0.1])]),
    ("Binomial", [np.array([0.2, 0.5])], [np.array([0.6, 0.1])]),
]


@pytest.mark.parametrize("name,pp,qp", KL_PAIRS, ids=[k[0] for k in KL_PAIRS])
def test_kl_divergence(name, pp, qp):
    ctor = CASES[name][0]
    outs = []
    for T in LIBS:
        ps = [T.tensor(a, requires_grad=True) for a in pp]
        qs = [T.tensor(a, requires_grad=True) for a in qp]
        kl = T.distributions.kl_divergence(ctor(T, *ps), ctor(T, *qs))
        outs.append((kl, T.autograd.grad(kl[kl.isfinite()].sum(), ps + qs, allow_unused=True)))
    (kt, gt), (ks, gs) = outs
    _close(kt, ks)
    assert kt.grad_fn.name() == ks.grad_fn.name()
    for a, b in zip(gt, gs, strict=False):
        assert (a is None) == (b is None)
        if a is not None:
            _close(a, b)


def test_kl_unregistered_and_register():
    for T in LIBS:
        D = T.distributions
        with pytest.raises(NotImplementedError) as e:
            D.kl_divergence(D.Categorical(T.ones(2)), D.Normal(0.0, 1.0))
        assert str(e.value) == (
            "No KL(p || q) is implemented for p type Categorical and q type Normal"
        )

        class MyNormal(D.Normal):
            pass

        @D.register_kl(MyNormal, D.Normal)
        def _kl(p, q, T=T):
            return T.zeros(())

        assert float(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0))) == 0.0
        # subclasses fall back to the parent's registration
        assert float(D.kl_divergence(D.Normal(0.0, 1.0), MyNormal(0.0, 1.0))) == 0.0


# --- errors and validation -----------------------------------------------------------------


def _err(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


ERRORS = {
    "normal-scale": lambda T: T.distributions.Normal(T.zeros(3), -T.ones(3)),
    "normal-nan-loc": lambda T: T.distributions.Normal(T.tensor([float("nan")]), 1.0),
    "normal-value": lambda T: T.distributions.Normal(T.zeros(3), T.ones(3)).log_prob(
        T.tensor([float("nan")] * 3)
    ),
    "normal-not-tensor": lambda T: T.distributions.Normal(0.0, 1.0).log_prob(1.0),
    "normal-broadcast": lambda T: T.distributions.Normal(T.zeros(3), 1.0).log_prob(T.zeros(2)),
    "uniform-bounds": lambda T: T.distributions.Uniform(T.tensor([1.0]), T.tensor([0.0])),
    "uniform-support": lambda T: T.distributions.Uniform(0.0, 1.0).log_prob(T.tensor(2.0)),
    "bern-both": lambda T: T.distributions.Bernoulli(0.3, logits=0.1),
    "bern-none": lambda T: T.distributions.Bernoulli(),
    "bern-probs": lambda T: T.distributions.Bernoulli(T.tensor([1.5])),
    "bern-value": lambda T: T.distributions.Bernoulli(0.3).log_prob(T.tensor(0.5)),
    "cat-0d": lambda T: T.distributions.Categorical(T.tensor(1.0)),
    "cat-0d-logits": lambda T: T.distributions.Categorical(logits=T.tensor(1.0)),
    "cat-simplex": lambda T: T.distributions.Categorical(T.tensor([-0.5, 1.5])),
    "cat-value": lambda T: T.distributions.Categorical(T.ones(3)).log_prob(T.tensor(3)),
    "onehot-value": lambda T: T.distributions.OneHotCategorical(T.ones(3)).log_prob(
        T.tensor([1.0, 1.0, 0.0])
    ),
    "onehot-event": lambda T: T.distributions.OneHotCategorical(T.ones(3)).log_prob(
        T.tensor([1.0, 0.0])
    ),
    "mvn-none": lambda T: T.distributions.MultivariateNormal(T.zeros(2)),
    "mvn-two": lambda T: T.distributions.MultivariateNormal(
        T.zeros(2), T.eye(2), scale_tril=T.eye(2)
    ),
    "mvn-loc0d": lambda T: T.distributions.MultivariateNormal(T.tensor(0.0), T.eye(2)),
    "mvn-cov1d": lambda T: T.distributions.MultivariateNormal(T.zeros(2), T.ones(2)),
    "mvn-tril1d": lambda T: T.distributions.MultivariateNormal(T.zeros(2), scale_tril=T.ones(2)),
    "mvn-prec1d": lambda T: T.distributions.MultivariateNormal(
        T.zeros(2), precision_matrix=T.ones(2)
    ),
    "mvn-notpd": lambda T: T.distributions.MultivariateNormal(
        T.zeros(2), T.tensor([[1.0, 2.0], [2.0, 1.0]])
    ),
    "mvn-tril-bad": lambda T: T.distributions.MultivariateNormal(
        T.zeros(2), scale_tril=T.tensor([[1.0, 1.0], [0.0, 1.0]])
    ),
    "independent-ndims": lambda T: T.distributions.Independent(
        T.distributions.Normal(T.zeros(3), 1.0), 2
    ),
    "beta-neg": lambda T: T.distributions.Beta(T.tensor([-1.0]), T.tensor([1.0])),
    "gamma-neg": lambda T: T.distributions.Gamma(T.tensor([1.0]), T.tensor([0.0])),
    "gamma-value": lambda T: T.distributions.Gamma(1.0, 1.0).log_prob(T.tensor(-1.0)),
    "dirichlet-0d": lambda T: T.distributions.Dirichlet(T.tensor(1.0)),
    "dirichlet-value": lambda T: T.distributions.Dirichlet(T.ones(3)).log_prob(
        T.tensor([0.5, 0.5, 0.5])
    ),
    "exp-neg": lambda T: T.distributions.Exponential(T.tensor([-1.0])),
    "poisson-value": lambda T: T.distributions.Poisson(T.tensor([1.0])).log_prob(T.tensor([1.5])),
    "binomial-value": lambda T: T.distributions.Binomial(3, T.tensor([0.5])).log_prob(
        T.tensor([4.0])
    ),
    "binomial-count": lambda T: T.distributions.Binomial(T.tensor([1.5]), T.tensor([0.5])),
    "binomial-entropy": lambda T: T.distributions.Binomial(
        T.tensor([1.0, 2.0]), T.tensor([0.5, 0.5])
    ).entropy(),
    "geometric-zero": lambda T: T.distributions.Geometric(T.tensor([0.0, 0.5])),
    "laplace-scale": lambda T: T.distributions.Laplace(0.0, T.tensor([0.0])),
    "kl-cross-expfamily": lambda T: T.distributions.kl_divergence(
        T.distributions.Bernoulli(0.3), T.distributions.Normal(0.0, 1.0)
    ),
    "kl-ind-ndims": lambda T: T.distributions.kl_divergence(
        T.distributions.Independent(T.distributions.Normal(T.zeros(2, 3), 1.0), 1),
        T.distributions.Independent(T.distributions.Normal(T.zeros(2, 3), 1.0), 2),
    ),
    "kl-binomial-count": lambda T: T.distributions.kl_divergence(
        T.distributions.Binomial(2, T.tensor([0.5])), T.distributions.Binomial(3, T.tensor([0.5]))
    ),
    "set-default-bad": lambda T: T.distributions.Distribution.set_default_validate_args(2),
    "broadcast-bad": lambda T: T.distributions.Normal("a", 1.0),
}


@pytest.mark.parametrize("key", list(ERRORS))
def test_errors_match_torch(key):
    ref = _err(lambda: ERRORS[key](torch))
    got = _err(lambda: ERRORS[key](shadowgrad))
    assert ref is not None
    assert got == ref


def test_validate_args_switches():
    for T in LIBS:
        D = T.distributions
        d = D.Normal(T.zeros(1), -T.ones(1), validate_args=False)  # no error
        assert not d._validate_args
        try:
            D.Distribution.set_default_validate_args(False)
            D.Normal(T.zeros(1), -T.ones(1))
            D.Bernoulli(0.3).log_prob(T.tensor(0.5))
        finally:
            D.Distribution.set_default_validate_args(True)
        e = d.expand((3,))
        assert not e._validate_args


def test_lazy_params_and_kwargs():
    for T in LIBS:
        p = T.tensor([0.2, 0.3, 0.5], dtype=T.float64, requires_grad=True)
        d = T.distributions.Categorical(probs=p * 2)
        assert d.logits.grad_fn.name() == "LogBackward0"
        b = T.distributions.Bernoulli(logits=T.tensor([0.0, 1.0], requires_grad=True))
        assert b.probs.grad_fn.name() == "SigmoidBackward0"
        assert "probs" in b.__dict__
        n = T.distributions.Normal(T.zeros(2), 1.0)
        assert n.scale.shape == (2,) and str(n.scale.dtype) == "torch.float32"
        assert tuple(T.distributions.Normal(0.0, 1.0).sample().shape) == ()


def test_training_step_matches():
    """A REINFORCE-style loss through Categorical and a Gaussian policy."""
    acts = np.array([0, 2, 1, 2])
    adv = RNG.normal(size=4)
    W = RNG.normal(size=(3, 3))
    x = RNG.normal(size=(4, 3))
    grads = []
    for T in LIBS:
        w = T.tensor(W, requires_grad=True)
        logits = T.tensor(x) @ w
        pi = T.distributions.Categorical(logits=logits)
        g = T.distributions.Normal(logits[:, 0], logits[:, 1].exp())
        loss = -(pi.log_prob(T.tensor(acts)) * T.tensor(adv)).mean() - 0.01 * pi.entropy().mean()
        loss = loss - g.log_prob(T.tensor(adv)).mean()
        loss.backward()
        grads.append((loss, w.grad))
    _close(grads[0][0], grads[1][0])
    _close(grads[0][1], grads[1][1])


def test_constraints_checks():
    vals = np.array([[-1.0, 0.0, 0.5, 1.0, 2.0, float("nan")]])
    for cname, c in [
        ("real", lambda C: C.real),
        ("positive", lambda C: C.positive),
        ("nonnegative", lambda C: C.nonnegative),
        ("unit_interval", lambda C: C.unit_interval),
        ("boolean", lambda C: C.boolean),
        ("integer_interval", lambda C: C.integer_interval(0, 1)),
        ("greater_than", lambda C: C.greater_than(0.5)),
        ("greater_than_eq", lambda C: C.greater_than_eq(0.5)),
        ("less_than", lambda C: C.less_than(0.5)),
        ("interval", lambda C: C.interval(0.0, 1.0)),
        ("half_open", lambda C: C.half_open_interval(0.0, 1.0)),
        ("nonneg_int", lambda C: C.nonnegative_integer),
        ("positive_int", lambda C: C.positive_integer),
        ("simplex", lambda C: C.simplex),
        ("real_vector", lambda C: C.real_vector),
        ("one_hot", lambda C: C.one_hot),
    ]:
        ct, cs = c(torch.distributions.constraints), c(shadowgrad.distributions.constraints)
        assert repr(ct) == repr(cs), cname
        assert ct.event_dim == cs.event_dim and ct.is_discrete == cs.is_discrete
        _close(ct.check(torch.tensor(vals)).double(), cs.check(shadowgrad.tensor(vals)).double())
    for m in [SPD, -SPD, TRIL, np.array([[1.0, 2.0], [0.0, 1.0]])]:
        for cname in [
            "positive_definite",
            "lower_cholesky",
            "symmetric",
            "square",
            "lower_triangular",
            "positive_semidefinite",
        ]:
            ct = getattr(torch.distributions.constraints, cname)
            cs = getattr(shadowgrad.distributions.constraints, cname)
            assert repr(ct) == repr(cs)
            assert bool(ct.check(torch.tensor(m))) == bool(cs.check(shadowgrad.tensor(m))), cname
    assert (
        shadowgrad.distributions.constraints.is_dependent(
            shadowgrad.distributions.Uniform(0.0, 1.0).support
        )
        is False
    )
    assert math.isfinite(1.0)
