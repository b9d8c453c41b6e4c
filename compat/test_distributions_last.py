"""The last torch.distributions families against torch: Multinomial, MixtureSameFamily,
LowRankMultivariateNormal, NegativeBinomial, ContinuousBernoulli, InverseGamma, VonMises and
the remaining KL pairs. The same programs, from the same numpy inputs, through both
libraries."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad
from compat import test_distributions as base
from compat.test_distributions import LIBS, _close, _err

RNG = np.random.default_rng(2)
POS3 = np.array([0.5, 1.5, 3.0])
PB = np.array([[0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])


def _mixture(T, logits, loc, scale):
    D = T.distributions
    return D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(loc, scale))


def _mixture_mvn(T, logits, loc, scale):
    D = T.distributions
    comp = D.Independent(D.Normal(loc, scale), 1)
    return D.MixtureSameFamily(D.Categorical(logits=logits), comp)


CASES = {
    "Multinomial": (
        lambda T, p: T.distributions.Multinomial(4, probs=p),
        [PB],
        np.array([[1.0, 3.0, 0.0], [0.0, 2.0, 2.0]]),
    ),
    "Multinomial-logits": (
        lambda T, lg: T.distributions.Multinomial(3, logits=lg),
        [RNG.normal(size=(2, 3))],
        np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 3.0]]),
    ),
    "MixtureSameFamily": (
        _mixture,
        [RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)), np.full((2, 3), 0.8)],
        RNG.normal(size=(4, 2)),
    ),
    "MixtureSameFamily-event": (
        _mixture_mvn,
        [RNG.normal(size=3), RNG.normal(size=(3, 2)), np.full((3, 2), 1.3)],
        RNG.normal(size=(4, 2)),
    ),
    "LowRankMVN": (
        lambda T, m, W, D: T.distributions.LowRankMultivariateNormal(m, W, D),
        [RNG.normal(size=(2, 3)), RNG.normal(size=(3, 2)), POS3],
        RNG.normal(size=(4, 2, 3)),
    ),
    "NegativeBinomial": (
        lambda T, n, p: T.distributions.NegativeBinomial(n, probs=p),
        [np.array([1.5, 3.0, 7.0]), np.array([0.2, 0.5, 0.8])],
        np.array([0.0, 3.0, 12.0]),
    ),
    "NegativeBinomial-logits": (
        lambda T, lg: T.distributions.NegativeBinomial(
            T.tensor([2.0, 5.0, 0.5], dtype=T.float64), logits=lg
        ),
        [np.array([-1.0, 0.3, 2.0])],
        np.array([1.0, 0.0, 4.0]),
    ),
    "ContinuousBernoulli": (
        lambda T, p: T.distributions.ContinuousBernoulli(probs=p),
        [np.array([0.2, 0.4995, 0.5, 0.9])],
        np.array([0.3, 0.9, 0.1, 0.6]),
    ),
    "ContinuousBernoulli-logits": (
        lambda T, lg: T.distributions.ContinuousBernoulli(logits=lg),
        [np.array([-1.5, 0.001, 2.0])],
        np.array([0.3, 0.9, 0.6]),
    ),
    "InverseGamma": (
        lambda T, a, b: T.distributions.InverseGamma(a, b),
        [np.array([0.5, 2.5, 4.0]), np.array([1.5, 0.7, 3.0])],
        np.array([0.3, 2.9, 0.5]),
    ),
    "VonMises": (
        lambda T, a, k: T.distributions.VonMises(a, k),
        [np.array([0.3, -2.0, 1.0, 0.0]), np.array([0.5, 2.0, 5.0, 1e-3])],
        np.array([1.0, -3.0, 0.9, 2.5]),
    ),
    # float32: torch's log_prob/icdf compare concentration with a float32 zero, which raises
    # "Double did not match Float" for float64 parameters (ours works in both)
    "GeneralizedPareto": (
        lambda T, a, s, c: T.distributions.GeneralizedPareto(a, s, c),
        [
            np.array([0.0, 1.0, -0.5, 0.2], dtype=np.float32),
            np.array([1.0, 0.5, 2.0, 1.5], dtype=np.float32),
            np.array([0.3, -0.4, 0.0, 0.7], dtype=np.float32),
        ],
        np.array([0.5, 1.2, 3.0, 0.9], dtype=np.float32),
    ),
}


def _build(T, name, grad=True):
    return base._build(T, name, grad, cases=CASES)


def _compare_fn(name, fn, arg=None, rtol=1e-6):
    base._compare_fn(name, fn, arg, rtol, cases=CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_shapes_repr_flags(name):
    base._check_shapes_repr_flags(name, CASES)


@pytest.mark.parametrize("prop", ["mean", "mode", "variance", "stddev"])
@pytest.mark.parametrize("name", list(CASES))
def test_moments(name, prop):
    _compare_fn(name, lambda d, v: getattr(d, prop) * 1)


@pytest.mark.parametrize("name", list(CASES))
def test_log_prob(name):
    _compare_fn(name, lambda d, v: d.log_prob(v), CASES[name][2])


@pytest.mark.parametrize("name", list(CASES))
def test_entropy(name):
    _compare_fn(name, lambda d, v: d.entropy())


@pytest.mark.parametrize(
    "name", ["ContinuousBernoulli", "ContinuousBernoulli-logits", "GeneralizedPareto"]
)
def test_cdf_icdf(name):
    _compare_fn(name, lambda d, v: d.cdf(v), CASES[name][2])
    _compare_fn(name, lambda d, v: d.icdf(v), CASES[name][2])


def test_mixture_cdf():
    _compare_fn("MixtureSameFamily", lambda d, v: d.cdf(v), CASES["MixtureSameFamily"][2])


@pytest.mark.parametrize("name", list(CASES))
def test_sample_shapes_and_support(name):
    base._check_sample_shapes(name, CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_expand(name):
    base._check_expand(name, CASES)


def test_multinomial_sample_counts():
    shadowgrad.manual_seed(0)
    d = shadowgrad.distributions.Multinomial(7, probs=shadowgrad.tensor(PB))
    s = d.sample((100,))
    assert bool((s.sum(-1) == 7).all())
    assert str(s.dtype) == "torch.float64"


def test_lowrank_matrices():
    for attr in ("covariance_matrix", "precision_matrix", "scale_tril"):
        _compare_fn("LowRankMVN", lambda d, v, a=attr: getattr(d, a) * 1)


def _patch_noise(monkeypatch, u, z):
    """Feed the same uniforms and normals (``z`` cut to the requested shape) to both."""
    for T in LIBS:

        def fake(shape, dtype, device=None, T=T):
            return T.tensor(z[tuple(slice(0, n) for n in shape)], dtype=dtype)

        monkeypatch.setattr(T, "rand", lambda shape, dtype=None, device=None, T=T: T.tensor(u))
        monkeypatch.setattr(T.distributions.lowrank_multivariate_normal, "_standard_normal", fake)


@pytest.mark.parametrize(
    "name",
    ["LowRankMVN", "ContinuousBernoulli", "ContinuousBernoulli-logits", "GeneralizedPareto"],
)
def test_rsample_same_noise(name, monkeypatch):
    d, _ = _build(torch, name)
    shape = (5, *tuple(d.batch_shape), *tuple(d.event_shape))
    _patch_noise(monkeypatch, RNG.uniform(0.05, 0.95, size=shape), RNG.normal(size=shape))
    outs = []
    for T in LIBS:
        d, ts = _build(T, name)
        x = d.rsample((5,))
        outs.append((x, T.autograd.grad((x * x).sum(), ts)))
    (xt, gt), (xs, gs) = outs
    _close(xt, xs)
    assert xt.grad_fn.name() == xs.grad_fn.name()
    for a, b in zip(gt, gs, strict=True):
        _close(a, b)


def test_vonmises_sample_statistics():
    shadowgrad.manual_seed(0)
    d = shadowgrad.distributions.VonMises(
        shadowgrad.tensor([0.5, -2.0]), shadowgrad.tensor([4.0, 0.5])
    )
    s = d.sample((20000,))
    assert str(s.dtype) == "torch.float32"
    assert bool(((s >= -np.pi) & (s < np.pi)).all())
    ref = torch.distributions.VonMises(torch.tensor([0.5, -2.0]), torch.tensor([4.0, 0.5]))
    mean_dir = np.angle(np.exp(1j * s.numpy()).mean(0))
    np.testing.assert_allclose(mean_dir, ref.mean.numpy(), atol=0.1)
    circ_var = 1 - np.abs(np.exp(1j * s.numpy()).mean(0))
    np.testing.assert_allclose(circ_var, ref.variance.numpy(), atol=0.03)


def test_generalized_pareto_survival():
    v = CASES["GeneralizedPareto"][2]
    _compare_fn("GeneralizedPareto", lambda d, x: d.log_survival_function(x), v, rtol=1e-5)
    _compare_fn("GeneralizedPareto", lambda d, x: d.log_cdf(x), v, rtol=1e-5)  # float32


def test_gradcheck_log_probs():
    D = shadowgrad.distributions
    dbl = dict(dtype=shadowgrad.float64, requires_grad=True)
    W = shadowgrad.tensor(RNG.normal(size=(3, 2)), **dbl)
    cd = shadowgrad.tensor(POS3, **dbl)
    x = shadowgrad.tensor(RNG.normal(size=(2, 3)), dtype=shadowgrad.float64)
    assert shadowgrad.autograd.gradcheck(
        lambda W, cd: D.LowRankMultivariateNormal(x.new_zeros(3), W, cd).log_prob(x), (W, cd)
    )
    k = shadowgrad.tensor([0.5, 2.0, 5.0], **dbl)
    assert shadowgrad.autograd.gradcheck(lambda k: D.VonMises(x.new_zeros(3), k).log_prob(x), (k,))
    p = shadowgrad.tensor([0.2, 0.7, 0.4], **dbl)
    assert shadowgrad.autograd.gradcheck(
        lambda p: D.ContinuousBernoulli(probs=p).log_prob(x.sigmoid()), (p,)
    )


def _lowrank(T, n):
    return T.distributions.LowRankMultivariateNormal(T.zeros(n), T.ones(n, 1), T.ones(n))


def _mvn(T, n):
    return T.distributions.MultivariateNormal(T.zeros(n), scale_tril=T.eye(n))


# --- errors ------------------------------------------------------------------------------

ERRORS = {
    "multinomial-count": lambda T: T.distributions.Multinomial(
        T.tensor(3), probs=T.tensor([0.5, 0.5])
    ),
    "multinomial-both": lambda T: T.distributions.Multinomial(
        3, probs=T.tensor([0.5, 0.5]), logits=T.tensor([0.0, 0.0])
    ),
    "mixture-not-categorical": lambda T: T.distributions.MixtureSameFamily(
        T.distributions.Normal(0.0, 1.0), T.distributions.Normal(T.zeros(3), T.ones(3))
    ),
    "mixture-not-dist": lambda T: T.distributions.MixtureSameFamily(
        T.distributions.Categorical(logits=T.zeros(3)), 3
    ),
    "mixture-k": lambda T: T.distributions.MixtureSameFamily(
        T.distributions.Categorical(logits=T.zeros(2)),
        T.distributions.Normal(T.zeros(3), T.ones(3)),
    ),
    "mixture-batch": lambda T: T.distributions.MixtureSameFamily(
        T.distributions.Categorical(logits=T.zeros(2, 3)),
        T.distributions.Normal(T.zeros(4, 3), T.ones(4, 3)),
    ),
    "lowrank-loc": lambda T: T.distributions.LowRankMultivariateNormal(
        T.tensor(0.0), T.ones(3, 1), T.ones(3)
    ),
    "lowrank-factor-dim": lambda T: T.distributions.LowRankMultivariateNormal(
        T.zeros(3), T.ones(3), T.ones(3)
    ),
    "lowrank-factor": lambda T: T.distributions.LowRankMultivariateNormal(
        T.zeros(3), T.ones(2, 1), T.ones(3)
    ),
    "lowrank-diag": lambda T: T.distributions.LowRankMultivariateNormal(
        T.zeros(3), T.ones(3, 1), T.ones(2)
    ),
    "lowrank-batch": lambda T: T.distributions.LowRankMultivariateNormal(
        T.zeros(2, 3), T.ones(4, 3, 1), T.ones(3)
    ),
    "negbin-probs": lambda T: T.distributions.NegativeBinomial(
        T.tensor([2.0]), probs=T.tensor([1.0])
    ),
    "negbin-value": lambda T: T.distributions.NegativeBinomial(
        T.tensor([2.0]), probs=T.tensor([0.5])
    ).log_prob(T.tensor([0.5])),
    "contbern-probs": lambda T: T.distributions.ContinuousBernoulli(
        probs=T.tensor([1.5]), validate_args=False
    ),
    "contbern-value": lambda T: T.distributions.ContinuousBernoulli(probs=T.tensor([0.3])).log_prob(
        T.tensor([1.5])
    ),
    "invgamma-rate": lambda T: T.distributions.InverseGamma(T.tensor([1.0]), T.tensor([-1.0])),
    "vonmises-conc": lambda T: T.distributions.VonMises(T.tensor([1.0]), T.tensor([0.0])),
    "kl-lowrank-lowrank": lambda T: T.distributions.kl_divergence(_lowrank(T, 3), _lowrank(T, 2)),
    "kl-mvn-lowrank": lambda T: T.distributions.kl_divergence(_mvn(T, 3), _lowrank(T, 2)),
    "kl-lowrank-mvn": lambda T: T.distributions.kl_divergence(_lowrank(T, 3), _mvn(T, 2)),
    "kl-transformed": lambda T: T.distributions.kl_divergence(
        T.distributions.LogNormal(0.0, 1.0),
        T.distributions.TransformedDistribution(
            T.distributions.Normal(0.0, 1.0), T.distributions.SigmoidTransform()
        ),
    ),
}


@pytest.mark.parametrize("key", list(ERRORS))
def test_errors_match_torch(key):
    ref, got = _err(lambda: ERRORS[key](torch)), _err(lambda: ERRORS[key](shadowgrad))
    assert ref == got


# --- KL divergence: every pair torch registers, from the same leaves ---------------------


_LEAVES: list = []  # the leaves made by the factories of the pair being run


def _leaf(T, *values):
    leaf = T.tensor(np.array(values, dtype=np.float64), requires_grad=True)
    _LEAVES.append(leaf)
    return leaf


KL_FAMILIES = {
    "Bernoulli": lambda T: T.distributions.Bernoulli(_leaf(T, 0.3, 0.8)),
    "Beta": lambda T: T.distributions.Beta(_leaf(T, 0.7, 3.0), _leaf(T, 2.0, 1.5)),
    "Binomial": lambda T: T.distributions.Binomial(4, _leaf(T, 0.3, 0.6)),
    "Categorical": lambda T: T.distributions.Categorical(_leaf(T, [0.2, 0.8], [0.5, 0.5])),
    "Cauchy": lambda T: T.distributions.Cauchy(_leaf(T, 0.3, -1.0), _leaf(T, 2.0, 0.5)),
    "ContinuousBernoulli": lambda T: T.distributions.ContinuousBernoulli(_leaf(T, 0.3, 0.8)),
    "Dirichlet": lambda T: T.distributions.Dirichlet(_leaf(T, [0.5, 2.0], [1.0, 3.0])),
    "Exponential": lambda T: T.distributions.Exponential(_leaf(T, 0.5, 2.0)),
    "Gamma": lambda T: T.distributions.Gamma(_leaf(T, 0.7, 3.0), _leaf(T, 2.0, 0.5)),
    "Geometric": lambda T: T.distributions.Geometric(_leaf(T, 0.3, 0.6)),
    "Gumbel": lambda T: T.distributions.Gumbel(_leaf(T, 0.3, -1.0), _leaf(T, 2.0, 0.5)),
    "HalfNormal": lambda T: T.distributions.HalfNormal(_leaf(T, 2.0, 0.5)),
    "Independent": lambda T: T.distributions.Independent(
        T.distributions.Normal(_leaf(T, [0.3, 1.0]), _leaf(T, [2.0, 0.5])), 1
    ),
    "Laplace": lambda T: T.distributions.Laplace(_leaf(T, 0.3, -1.0), _leaf(T, 2.0, 0.5)),
    "LowRankMultivariateNormal": lambda T: T.distributions.LowRankMultivariateNormal(
        _leaf(T, [0.3, -1.0, 0.5]), _leaf(T, [1.0, 0.2], [0.1, -0.5], [0.7, 0.3]), _leaf(T, 1, 2, 3)
    ),
    "MultivariateNormal": lambda T: T.distributions.MultivariateNormal(
        _leaf(T, [0.1, -0.5, 1.0]),
        scale_tril=_leaf(T, [1.0, 0, 0], [0.3, 1.2, 0], [-0.2, 0.1, 0.8]),
    ),
    "Normal": lambda T: T.distributions.Normal(_leaf(T, 0.3, -1.0), _leaf(T, 2.0, 0.5)),
    "OneHotCategorical": lambda T: T.distributions.OneHotCategorical(
        _leaf(T, [0.2, 0.8], [0.5, 0.5])
    ),
    "Pareto": lambda T: T.distributions.Pareto(_leaf(T, 0.05, 0.5), _leaf(T, 3.0, 1.5)),
    "Poisson": lambda T: T.distributions.Poisson(_leaf(T, 0.5, 2.0)),
    "TransformedDistribution": lambda T: T.distributions.LogNormal(
        _leaf(T, 0.3, -1.0), _leaf(T, 2.0, 0.5)
    ),
    "Uniform": lambda T: T.distributions.Uniform(_leaf(T, 0.1, 0.3), _leaf(T, 0.7, 2.0)),
}
# a second member of each family, for p and q of the same type
KL_OTHER = {
    "ContinuousBernoulli": lambda T: T.distributions.ContinuousBernoulli(
        logits=_leaf(T, 1.5, -0.2)
    ),
    "Pareto": lambda T: T.distributions.Pareto(_leaf(T, 0.1, 0.2), _leaf(T, 2.5, 0.7)),
    "TransformedDistribution": lambda T: T.distributions.LogNormal(
        _leaf(T, -0.3, 1.0), _leaf(T, 1.0, 1.5)
    ),
    "LowRankMultivariateNormal": lambda T: T.distributions.LowRankMultivariateNormal(
        _leaf(T, [0.0, 1.0, 0.2]), _leaf(T, [0.4], [-1.0], [0.6]), _leaf(T, 0.5, 1.0, 2.0)
    ),
    "Uniform": lambda T: T.distributions.Uniform(_leaf(T, -0.5, 0.0), _leaf(T, 1.0, 3.0)),
}
KL_PAIRS = sorted(
    {
        (a.__name__, b.__name__)
        for a, b in torch.distributions.kl._KL_REGISTRY
        if a.__name__ in KL_FAMILIES and b.__name__ in KL_FAMILIES
    }
)


def _kl_run(T, pn, qn):
    """KL(p || q) for the pair, and the gradients of its finite entries w.r.t. every leaf."""
    _LEAVES.clear()
    p = KL_FAMILIES[pn](T)
    q = (KL_OTHER.get(qn, KL_FAMILIES[qn]) if pn == qn else KL_FAMILIES[qn])(T)
    kl = T.distributions.kl_divergence(p, q)
    finite = kl[kl.isfinite()]
    grads = None
    if kl.requires_grad and finite.numel():
        grads = T.autograd.grad(finite.sum(), list(_LEAVES), allow_unused=True)
    return kl, grads


@pytest.mark.parametrize("pn,qn", KL_PAIRS)
def test_kl_pairs(pn, qn):
    outs = []
    for T in LIBS:
        try:
            outs.append(_kl_run(T, pn, qn))
        except NotImplementedError:
            outs.append(None)
    ref, got = outs
    assert (ref is None) == (got is None)
    if ref is None:
        return
    (kt, gt), (ks, gs) = ref, got
    _close(kt, ks, rtol=1e-6)
    assert str(kt.dtype) == str(ks.dtype)
    assert kt.requires_grad == ks.requires_grad
    assert (gt is None) == (gs is None)
    for a, b in zip(gt or (), gs or (), strict=True):
        if a is None or b is None:  # unused: ours may give None where torch gives zeros
            assert (a is None or not a.abs().sum()) and (b is None or not b.abs().sum())
        else:
            _close(a, b, rtol=1e-6, atol=1e-9)
