"""Differential programs: torch.distributions, torch.fft and torch.func. Drawn from torch's
test/distributions/test_distributions.py, test/test_spectral_ops.py,
test/functorch/test_eager_transforms.py and test_vmap.py, and from user code (VAEs with
Normal.rsample and kl_divergence, policy gradients with Categorical, mixtures, Independent and
TransformedDistribution, validate_args errors; fft sizes, norms and gradients; grad, vjp, jvp,
jacrev/jacfwd, hessian, vmap, functional_call). The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and on
shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _pos(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    a = np.abs(_data(*shape, seed=seed)) + 0.5
    return T.tensor(a.astype(np.float32), requires_grad=rg)


# --- distributions: validation errors --------------------------------------------------------


@program()
def prog_dff_normal_validate_args_messages(T: Any) -> Any:
    D = T.distributions
    return (
        raises(lambda: D.Normal(T.tensor([0.0, float("nan")]), 1.0, validate_args=True)),
        raises(lambda: D.Normal(0.0, T.tensor([1.0, -1.0]), validate_args=True)),
        raises(lambda: D.Normal(0.0, 0.0, validate_args=True)),
        raises(lambda: D.Uniform(1.0, 0.0, validate_args=True)),
        raises(lambda: D.Bernoulli(probs=1.5, validate_args=True)),
        raises(lambda: D.Bernoulli(probs=0.5, logits=0.0)),
        raises(lambda: D.Bernoulli()),
        raises(lambda: D.Categorical(probs=T.tensor([0.5, -0.1]), validate_args=True)),
        raises(lambda: D.Categorical(probs=T.tensor(0.5))),
        raises(lambda: D.Exponential(T.tensor([-1.0]), validate_args=True)),
        raises(lambda: D.Gamma(T.tensor([1.0]), T.tensor([0.0]), validate_args=True)),
        raises(lambda: D.Beta(T.tensor([0.0]), T.tensor([1.0]), validate_args=True)),
        raises(lambda: D.Poisson(T.tensor([-1.0]), validate_args=True)),
    )


@program()
def prog_dff_log_prob_out_of_support(T: Any) -> Any:
    D = T.distributions
    out = {}
    for name, d, v in (
        ("exp", D.Exponential(T.tensor([1.0]), validate_args=True), T.tensor([-1.0])),
        ("uni", D.Uniform(0.0, 1.0, validate_args=True), T.tensor(2.0)),
        ("bern", D.Bernoulli(0.3, validate_args=True), T.tensor(0.5)),
        ("cat", D.Categorical(T.tensor([0.2, 0.8]), validate_args=True), T.tensor(2)),
        ("pois", D.Poisson(T.tensor(2.0), validate_args=True), T.tensor(1.5)),
        ("beta", D.Beta(T.tensor(2.0), T.tensor(2.0), validate_args=True), T.tensor(1.5)),
        ("gamma", D.Gamma(T.tensor(2.0), T.tensor(2.0), validate_args=True), T.tensor(-1.0)),
    ):
        out[name] = raises(lambda d=d, v=v: d.log_prob(v))
    # without validation the value goes through
    out["uni_novalid"] = D.Uniform(0.0, 1.0, validate_args=False).log_prob(T.tensor(2.0))
    out["exp_novalid"] = D.Exponential(T.tensor([1.0]), validate_args=False).log_prob(
        T.tensor([-1.0])
    )
    out["bern_novalid"] = D.Bernoulli(0.3, validate_args=False).log_prob(T.tensor(0.5))
    return out


@program()
def prog_dff_log_prob_shape_mismatch_errors(T: Any) -> Any:
    D = T.distributions
    n = D.Normal(T.zeros(3), T.ones(3), validate_args=True)
    mvn = D.MultivariateNormal(T.zeros(2), T.eye(2), validate_args=True)
    return (
        raises(lambda: n.log_prob(T.zeros(2))),
        raises(lambda: n.log_prob(T.zeros(4, 2))),
        n.log_prob(T.zeros(4, 1)).shape,
        raises(lambda: mvn.log_prob(T.zeros(3))),
        raises(lambda: n.log_prob([0.0, 0.0, 0.0])),
        mvn.log_prob(T.zeros(5, 2)).shape,
    )


@program()
def prog_dff_set_default_validate_args(T: Any) -> Any:
    D = T.distributions
    prev = D.Distribution._validate_args
    try:
        D.Distribution.set_default_validate_args(False)
        n = D.Normal(0.0, -1.0)
        a = n.scale
        D.Distribution.set_default_validate_args(True)
        b = raises(lambda: D.Normal(0.0, -1.0))
        c = raises(lambda: D.Distribution.set_default_validate_args(1))
    finally:
        D.Distribution.set_default_validate_args(prev)
    return a, b, c


# --- distributions: shapes, sampling, rsample --------------------------------------------------


@program()
def prog_dff_sample_shapes_batch_event(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(0)
    n = D.Normal(T.zeros(3, 1), T.ones(2))
    mvn = D.MultivariateNormal(T.zeros(4, 2), T.eye(2))
    dirich = D.Dirichlet(T.ones(3, 5))
    cat = D.Categorical(logits=T.zeros(2, 4))
    out = []
    for d in (n, mvn, dirich, cat):
        s = d.sample((5, 2))
        out.append((d.batch_shape, d.event_shape, s.shape, s.dtype, d.log_prob(s).shape))
        out.append(d.sample().shape)
        out.append(d.sample(T.Size([3])).shape)
    out.append(raises(lambda: n.sample(3)))
    return out


@program()
def prog_dff_rsample_vs_sample_grads(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(1)
    loc = _x(T, 3)
    scale = _pos(T, 3, seed=1)
    d = D.Normal(loc, scale)
    r = d.rsample((2,))
    s = d.sample((2,))
    r.sum().backward()
    cat = D.Categorical(logits=_x(T, 4, seed=2))
    return (
        r,
        r.grad_fn,
        s.requires_grad,
        s.grad_fn,
        loc.grad,
        scale.grad,
        d.has_rsample,
        cat.has_rsample,
        raises(lambda: cat.rsample()),
        D.Bernoulli(0.5).has_rsample,
        D.Gamma(1.0, 1.0).has_rsample,
    )


@program()
def prog_dff_vae_rsample_kl(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(3)
    enc = _seeded(T, T.nn.Linear(4, 6), 1)
    dec = _seeded(T, T.nn.Linear(3, 4), 2)
    x = T.tensor(_data(5, 4))
    h = enc(x)
    mu, logvar = h[:, :3], h[:, 3:]
    q = D.Normal(mu, T.exp(0.5 * logvar))
    p = D.Normal(T.zeros_like(mu), T.ones_like(mu))
    z = q.rsample()
    recon = dec(z)
    kl = D.kl_divergence(q, p).sum(-1).mean()
    loss = T.nn.functional.mse_loss(recon, x) + kl
    loss.backward()
    return loss, kl, kl.grad_fn, enc.weight.grad, dec.bias.grad


@program()
def prog_dff_policy_gradient_categorical(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(4)
    pol = _seeded(T, T.nn.Linear(3, 4), 7)
    obs = T.tensor(_data(6, 3, seed=3))
    dist = D.Categorical(logits=pol(obs))
    a = dist.sample()
    rew = T.tensor(_data(6, seed=4))
    loss = -(dist.log_prob(a) * rew).mean() - 0.01 * dist.entropy().mean()
    loss.backward()
    return a, a.dtype, dist.probs, dist.logits, loss, pol.weight.grad, dist.entropy().grad_fn


@program()
def prog_dff_categorical_edges(T: Any) -> Any:
    D = T.distributions
    c = D.Categorical(probs=T.tensor([0.0, 0.3, 0.7]))
    c2 = D.Categorical(probs=T.tensor([[1.0, 2.0], [3.0, 1.0]]))
    return (
        c.entropy(),
        c.log_prob(T.tensor([0, 1, 2])),
        c.logits,
        c2.probs,
        c2.mean,
        c2.variance,
        c.mode,
        c2.enumerate_support(),
        c2.enumerate_support(expand=False),
        c.support,
        c.param_shape,
        c2.param_shape,
        c.log_prob(T.tensor([[0], [2]])),
    )


@program()
def prog_dff_enumerate_support(T: Any) -> Any:
    D = T.distributions
    b = D.Bernoulli(T.tensor([0.2, 0.6]))
    oh = D.OneHotCategorical(T.tensor([0.2, 0.3, 0.5]))
    bi = D.Binomial(3, T.tensor([0.5, 0.25]))
    return (
        b.enumerate_support(),
        b.enumerate_support(expand=False),
        oh.enumerate_support(),
        bi.enumerate_support(),
        bi.enumerate_support(expand=False).shape,
        raises(lambda: D.Normal(0.0, 1.0).enumerate_support()),
        b.has_enumerate_support,
        raises(lambda: D.Binomial(T.tensor([2, 3]), 0.5).enumerate_support()),
    )


@program()
def prog_dff_expand(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(5)
    n = D.Normal(T.tensor([0.0, 1.0]), T.tensor([1.0, 2.0]))
    e = n.expand(T.Size([3, 2]))
    c = D.Categorical(T.tensor([0.25, 0.75])).expand((4,))
    mvn = D.MultivariateNormal(T.zeros(2), T.eye(2)).expand((3,))
    return (
        e.batch_shape,
        e.sample().shape,
        e.log_prob(T.zeros(3, 2)),
        e.loc,
        c.batch_shape,
        c.sample(),
        c.probs,
        mvn.batch_shape,
        mvn.sample().shape,
        raises(lambda: n.expand((3,))),
        raises(lambda: D.Normal(0.0, 1.0).expand((2,)).expand((3, 1))),
    )


@program()
def prog_dff_cdf_icdf(T: Any) -> Any:
    D = T.distributions
    v = T.tensor([-1.0, 0.0, 0.5, 2.0])
    p = T.tensor([0.0, 0.1, 0.5, 1.0])
    loc = _x(T, 1)
    n = D.Normal(loc, 2.0)
    c = n.cdf(v)
    ic = n.icdf(p)
    (c.sum() + ic[1:3].sum()).backward()
    out = [c, ic, loc.grad, c.grad_fn]
    for d in (D.Exponential(2.0), D.Uniform(-1.0, 1.0), D.Laplace(0.0, 1.0), D.Cauchy(0.0, 1.0)):
        out.append(d.cdf(T.tensor([0.25, 0.5])))
        out.append(d.icdf(T.tensor([0.25, 0.5])))
    out.append(raises(lambda: D.Gamma(1.0, 1.0).icdf(T.tensor(0.5))))
    out.append(raises(lambda: D.Poisson(1.0).cdf(T.tensor(0.5))))
    out.append(raises(lambda: D.Uniform(0.0, 1.0, validate_args=True).cdf(T.tensor(2.0))))
    return out


@program()
def prog_dff_independent(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(6)
    base = D.Normal(_x(T, 3, 2), T.ones(3, 2))
    ind = D.Independent(base, 1)
    s = ind.rsample((4,))
    lp = ind.log_prob(s)
    ent = ind.entropy()
    kl = D.kl_divergence(ind, D.Independent(D.Normal(T.zeros(3, 2), T.ones(3, 2)), 1))
    return (
        ind.batch_shape,
        ind.event_shape,
        lp.shape,
        ent,
        kl,
        kl.grad_fn,
        repr(ind),
        raises(lambda: D.Independent(base, 3)),
        D.Independent(base, 2).event_shape,
        ind.mean,
        ind.support,
        ind.has_rsample,
    )


@program()
def prog_dff_transformed_distribution(T: Any) -> Any:
    D = T.distributions
    tr = D.transforms
    T.manual_seed(7)
    base = D.Normal(T.zeros(3), T.ones(3))
    ln = D.TransformedDistribution(base, [tr.ExpTransform()])
    aff = D.TransformedDistribution(base, tr.AffineTransform(loc=1.0, scale=2.0))
    sig = D.TransformedDistribution(base, [tr.SigmoidTransform(), tr.AffineTransform(0.0, 3.0)])
    s = ln.sample((2,))
    return (
        s,
        ln.log_prob(s),
        aff.log_prob(T.tensor([1.0, 0.0, 3.0])),
        aff.cdf(T.tensor([1.0, 0.0, 3.0])),
        aff.icdf(T.tensor([0.5, 0.1, 0.9])),
        sig.rsample().shape,
        sig.support,
        ln.support,
        raises(lambda: ln.mean),
        raises(lambda: ln.entropy()),
        D.LogNormal(0.0, 1.0).log_prob(T.tensor([0.5, 2.0])),
        D.LogNormal(0.0, 1.0).mean,
    )


@program()
def prog_dff_transforms_inverse_and_logdet(T: Any) -> Any:
    tr = T.distributions.transforms
    x = T.tensor([-1.0, 0.0, 2.0])
    out = []
    for t in (
        tr.ExpTransform(),
        tr.SigmoidTransform(),
        tr.TanhTransform(),
        tr.AffineTransform(1.0, -2.0),
        tr.PowerTransform(2.0),
        tr.SoftplusTransform(),
        tr.ExpTransform().inv,
        tr.ComposeTransform([tr.ExpTransform(), tr.AffineTransform(0.0, 2.0)]),
    ):
        xi = x.abs() + 0.1 if isinstance(t, (tr.PowerTransform, tr._InverseTransform)) else x
        y = t(xi)
        out.append((y, t.inv(y), t.log_abs_det_jacobian(xi, y), t.sign if t.bijective else None))
    st = tr.StickBreakingTransform()
    y = st(x)
    out.append((y, st.inv(y), st.log_abs_det_jacobian(x, y), st.forward_shape((3,))))
    sm = tr.SoftmaxTransform()
    out.append((sm(x), raises(lambda: sm.log_abs_det_jacobian(x, sm(x)))))
    out.append(raises(lambda: tr.AbsTransform().inv(T.tensor(1.0))))
    return out


@program()
def prog_dff_mixture_same_family(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(8)
    logits = _x(T, 3)
    loc = _x(T, 3, seed=1)
    mix = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(loc, T.ones(3)))
    v = T.tensor([0.0, 1.0, -2.0])
    lp = mix.log_prob(v)
    lp.sum().backward()
    return (
        mix.sample((4,)),
        lp,
        mix.mean,
        mix.variance,
        mix.cdf(v),
        logits.grad,
        loc.grad,
        mix.batch_shape,
        mix.event_shape,
        raises(lambda: D.MixtureSameFamily(D.Categorical(T.ones(2)), D.Normal(T.zeros(3), 1.0))),
        raises(lambda: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(T.zeros(3), 1.0))),
        raises(lambda: mix.rsample()),
    )


@program()
def prog_dff_kl_divergence_pairs(T: Any) -> Any:
    D = T.distributions
    p1 = _pos(T, 3, seed=1)
    out = {
        "bern": D.kl_divergence(D.Bernoulli(T.tensor([0.3, 0.0])), D.Bernoulli(0.5)),
        "cat": D.kl_divergence(
            D.Categorical(T.tensor([0.5, 0.5, 0.0])), D.Categorical(T.tensor([0.2, 0.3, 0.5]))
        ),
        "cat_inf": D.kl_divergence(
            D.Categorical(T.tensor([0.5, 0.5])), D.Categorical(T.tensor([1.0, 0.0]))
        ),
        "unif_norm": D.kl_divergence(D.Uniform(0.0, 1.0), D.Normal(0.0, 1.0)),
        "norm_unif": D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0)),
        "unif_unif": D.kl_divergence(D.Uniform(0.0, 2.0), D.Uniform(0.5, 1.0)),
        "gamma": D.kl_divergence(D.Gamma(p1, 1.0), D.Gamma(2.0, p1)),
        "beta": D.kl_divergence(D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)),
        "exp": D.kl_divergence(D.Exponential(p1), D.Gamma(1.0, 2.0)),
        "mvn": D.kl_divergence(
            D.MultivariateNormal(T.zeros(2), T.eye(2)),
            D.MultivariateNormal(T.ones(2), 2 * T.eye(2)),
        ),
        "dirich": D.kl_divergence(D.Dirichlet(T.ones(3)), D.Dirichlet(p1)),
        "lap": D.kl_divergence(D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)),
        "pois": D.kl_divergence(D.Poisson(2.0), D.Poisson(3.0)),
        "missing": raises(lambda: D.kl_divergence(D.Poisson(2.0), D.Normal(0.0, 1.0))),
    }
    out["gamma"].sum().backward()
    out["p1_grad"] = p1.grad
    return out


@program()
def prog_dff_kl_cross_family_formulas(T: Any) -> Any:
    # the pairs torch writes with its own formulas: values, grad_fn graphs and gradients
    D = T.distributions

    made: list[Any] = []

    def r(*v: float) -> Any:
        made.append(T.tensor(list(v), requires_grad=True))
        return made[-1]

    ps = {
        "beta": lambda: D.Beta(r(1.5, 2.0), r(2.5, 0.7)),
        "cb": lambda: D.ContinuousBernoulli(r(0.3, 0.6)),
        "exp": lambda: D.Exponential(r(1.5, 2.0)),
        "gamma": lambda: D.Gamma(r(1.5, 2.0), r(0.5, 3.0)),
        "laplace": lambda: D.Laplace(r(0.3, 0.6), r(1.5, 2.0)),
        "normal": lambda: D.Normal(r(0.3, 0.6), r(1.5, 2.0)),
        "pareto": lambda: D.Pareto(r(1.5, 2.0), r(0.5, 3.0)),
        "uniform": lambda: D.Uniform(r(0.1, 0.2), r(0.9, 0.8)),
        "uniform_neg": lambda: D.Uniform(r(-0.5, 0.2), r(0.5, 1.5)),
        "gumbel": lambda: D.Gumbel(r(0.3, 0.6), r(1.5, 2.0)),
    }
    pairs = [
        ("beta", "gamma"), ("beta", "normal"), ("beta", "exp"), ("cb", "cb"), ("cb", "normal"),
        ("exp", "gamma"), ("exp", "normal"), ("gamma", "exp"), ("gamma", "gumbel"),
        ("gamma", "normal"), ("laplace", "normal"), ("normal", "gumbel"), ("pareto", "pareto"),
        ("uniform", "beta"), ("uniform", "cb"), ("uniform", "exp"), ("uniform", "gamma"),
        ("uniform", "normal"), ("uniform", "pareto"), ("uniform_neg", "gamma"),
        ("uniform_neg", "beta"), ("uniform_neg", "exp"), ("pareto", "exp"), ("pareto", "normal"),
    ]  # fmt: skip
    out = {}
    for a, b in pairs:
        made.clear()
        k = D.kl_divergence(ps[a](), ps[b]())
        grads = T.autograd.grad(k[k.isfinite()].sum(), made, allow_unused=True)
        out[f"{a}|{b}"] = (k, k.grad_fn, grads)
    return out


@program()
def prog_dff_register_kl(T: Any) -> Any:
    D = T.distributions

    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _kl(p: Any, q: Any) -> Any:
        return (p.loc - q.loc).abs()

    return (
        D.kl_divergence(MyNormal(1.0, 1.0), D.Normal(0.0, 1.0)),
        D.kl_divergence(D.Normal(1.0, 1.0), MyNormal(0.0, 1.0)),
        raises(lambda: D.register_kl(int, D.Normal)),
    )


@program()
def prog_dff_entropy_mean_variance_table(T: Any) -> Any:
    D = T.distributions
    out = {}
    for name, d in (
        ("normal", D.Normal(1.0, 2.0)),
        ("exp", D.Exponential(T.tensor([0.5, 2.0]))),
        ("gamma", D.Gamma(T.tensor([2.0, 0.5]), 3.0)),
        ("beta", D.Beta(T.tensor([2.0, 0.5]), 3.0)),
        ("lap", D.Laplace(0.0, 2.0)),
        ("gumbel", D.Gumbel(1.0, 2.0)),
        ("halfnorm", D.HalfNormal(2.0)),
        ("halfcauchy", D.HalfCauchy(2.0)),
        ("studentT", D.StudentT(T.tensor([0.5, 1.5, 3.0]))),
        ("geom", D.Geometric(T.tensor([0.25, 1.0]))),
        ("pois", D.Poisson(T.tensor([0.0, 3.0]))),
        ("binom", D.Binomial(5, T.tensor([0.0, 0.3, 1.0]))),
        ("chi2", D.Chi2(T.tensor([1.0, 4.0]))),
        ("pareto", D.Pareto(1.0, T.tensor([0.5, 1.5, 3.0]))),
        ("weibull", D.Weibull(1.0, 2.0)),
        ("cauchy", D.Cauchy(0.0, 1.0)),
        ("lognormal", D.LogNormal(0.0, 0.5)),
        ("fisher", D.FisherSnedecor(T.tensor([3.0]), T.tensor([1.0, 3.0, 5.0]))),
    ):
        vals = []
        for attr in ("mean", "mode", "variance", "stddev", "entropy"):
            r = raises(lambda d=d, a=attr: getattr(d, a)() if a == "entropy" else getattr(d, a))
            vals.append(r)
        out[name] = vals
    return out


@program()
def prog_dff_bernoulli_logits_probs_grad(T: Any) -> Any:
    D = T.distributions
    logits = _x(T, 4)
    b = D.Bernoulli(logits=logits)
    v = T.tensor([0.0, 1.0, 1.0, 0.0])
    lp = b.log_prob(v)
    (lp.sum() + b.entropy().sum()).backward()
    b2 = D.Bernoulli(probs=T.tensor([0.0, 1.0]))
    return (
        lp,
        lp.grad_fn,
        logits.grad,
        b.probs,
        b2.logits,
        b2.log_prob(T.tensor([0.0, 1.0])),
        b2.log_prob(T.tensor([1.0, 0.0])),
        b2.entropy(),
        b.mode,
        D.Bernoulli(0.5).mode,
    )


@program()
def prog_dff_lowrank_mvn_rank_one_with_grads(T: Any) -> Any:
    # a rank-1 cov_factor: the capacitance matrix is 1x1, and torch's
    # `K.view(-1, m * m)[:, :: m + 1] += 1` copies that slice into itself
    D = T.distributions
    T.manual_seed(11)
    loc = _x(T, 2)
    cf = _x(T, 2, 1, seed=1)
    cd = _pos(T, 2, seed=2)
    d = D.LowRankMultivariateNormal(loc, cf, cd)
    s = d.rsample((3,))
    lp = d.log_prob(T.tensor([[0.5, -1.0]]))
    ent = d.entropy()
    kl = D.kl_divergence(d, D.MultivariateNormal(T.zeros(2), T.eye(2)))
    (lp.sum() + ent + kl + s.sum()).backward()
    k = T.ones(2, 3, 3)
    k.view(-1, 9)[:, ::4] += 1
    k1 = T.ones(1, 1)
    k1.view(-1, 1)[:, ::2] += 1
    return s, lp, ent, kl, loc.grad, cf.grad, cd.grad, d.covariance_matrix, k, k1


@program()
def prog_dff_mvn_parametrizations(T: Any) -> Any:
    D = T.distributions
    cov = T.tensor([[2.0, 0.5], [0.5, 1.0]])
    a = D.MultivariateNormal(T.zeros(2), covariance_matrix=cov)
    b = D.MultivariateNormal(T.zeros(2), precision_matrix=T.linalg.inv(cov))
    c = D.MultivariateNormal(T.zeros(2), scale_tril=T.linalg.cholesky(cov))
    v = T.tensor([[0.5, -1.0], [0.0, 0.0]])
    return (
        a.log_prob(v),
        b.log_prob(v),
        c.log_prob(v),
        a.entropy(),
        b.covariance_matrix,
        c.precision_matrix,
        a.variance,
        raises(lambda: D.MultivariateNormal(T.zeros(2))),
        raises(lambda: D.MultivariateNormal(T.zeros(2), cov, scale_tril=cov)),
        raises(lambda: D.MultivariateNormal(T.zeros(2), T.ones(2))),
        raises(
            lambda: D.MultivariateNormal(
                T.zeros(2), T.tensor([[1.0, 2.0], [2.0, 1.0]]), validate_args=True
            )
        ),
        raises(lambda: D.MultivariateNormal(T.tensor(0.0), T.eye(1))),
    )


@program()
def prog_dff_constraints_checks(T: Any) -> Any:
    C = T.distributions.constraints
    x = T.tensor([-1.0, 0.0, 0.5, 1.0, float("inf"), float("nan")])
    out = {}
    for name in (
        "real",
        "positive",
        "nonnegative",
        "unit_interval",
        "boolean",
        "nonnegative_integer",
        "positive_integer",
        "integer_interval",
    ):
        c = getattr(C, name)
        if name == "integer_interval":
            c = c(0, 1)
        out[name] = (c.check(x), str(c), c.is_discrete, c.event_dim)
    out["interval"] = C.interval(0.0, 1.0).check(x)
    out["half_open"] = C.half_open_interval(0.0, 1.0).check(x)
    out["gt"] = C.greater_than(0.5).check(x)
    out["simplex"] = C.simplex.check(T.tensor([[0.5, 0.5], [0.2, 0.3]]))
    out["lower_chol"] = C.lower_cholesky.check(T.tensor([[1.0, 0.0], [2.0, 1.0]]))
    out["pd"] = C.positive_definite.check(T.eye(2))
    out["indep"] = C.independent(C.positive, 1).check(T.tensor([[1.0, 2.0], [1.0, -1.0]]))
    out["dep"] = raises(lambda: C.dependent.check(x))
    return out


@program()
def prog_dff_biject_to_and_transform_to(T: Any) -> Any:
    D = T.distributions
    C = D.constraints
    x = T.tensor([-1.0, 0.5, 2.0])
    out = []
    for c in (C.positive, C.unit_interval, C.interval(-2.0, 3.0), C.greater_than(1.0), C.simplex):
        t = D.transform_to(c)
        y = t(x)
        out.append((type(t).__name__, y, t.inv(y)))
    out.append(type(D.biject_to(C.simplex)).__name__)
    out.append(raises(lambda: D.biject_to(C.boolean)))
    return out


@program()
def prog_dff_one_hot_and_multinomial(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(9)
    oh = D.OneHotCategorical(logits=T.tensor([0.0, 1.0, 2.0]))
    s = oh.sample((3,))
    m = D.Multinomial(5, probs=T.tensor([0.2, 0.3, 0.5]))
    ms = m.sample((2,))
    return (
        s,
        oh.log_prob(s),
        oh.entropy(),
        oh.mode,
        ms,
        ms.dtype,
        m.log_prob(ms),
        m.mean,
        m.variance,
        raises(lambda: D.Multinomial(T.tensor(5), probs=T.tensor([0.5, 0.5]))),
        raises(lambda: D.Multinomial(5, T.tensor([0.5, 0.5])).entropy()),
        D.Multinomial(probs=T.tensor([0.5, 0.5])).log_prob(T.tensor([1.0, 0.0])),
    )


@program()
def prog_dff_discrete_log_probs(T: Any) -> Any:
    D = T.distributions
    k = T.tensor([0.0, 1.0, 3.0])
    return (
        D.Poisson(T.tensor(0.0)).log_prob(k),
        D.Poisson(T.tensor(2.0)).log_prob(k),
        D.Geometric(T.tensor(0.3)).log_prob(k),
        D.Geometric(T.tensor(1.0)).log_prob(k),
        D.Binomial(3, T.tensor(0.0)).log_prob(k),
        D.Binomial(3, T.tensor(1.0)).log_prob(k),
        D.NegativeBinomial(3.0, T.tensor(0.4)).log_prob(k),
        D.NegativeBinomial(3.0, logits=T.tensor(0.4)).mean,
        D.Binomial(T.tensor([3.0, 5.0]), logits=T.tensor([0.0, 1.0])).log_prob(k[:2]),
    )


@program()
def prog_dff_dirichlet_beta_grads(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(10)
    conc = _pos(T, 3)
    d = D.Dirichlet(conc)
    s = d.rsample()
    lp = d.log_prob(T.tensor([0.2, 0.3, 0.5]))
    (lp + s[0]).backward()
    a = _pos(T, 2, seed=3)
    b = D.Beta(a[0], a[1])
    bs = b.rsample((3,))
    bs.sum().backward()
    return s, lp, conc.grad, bs, a.grad, d.mean, d.mode, d.variance, d.entropy()


@program()
def prog_dff_reparameterized_gamma_dirichlet_branches(T: Any) -> Any:
    # every branch of torch's gamma and Dirichlet gradient approximations: small draws, large
    # concentrations (saddle point), and the rational fits in between
    D = T.distributions
    T.manual_seed(12)
    alpha = T.tensor([0.05, 0.5, 1.0, 3.0, 7.5, 9.0, 40.0, 200.0], requires_grad=True)
    g = D.Gamma(alpha, 2.0).rsample((4,))
    g.sum().backward()
    conc = T.tensor(
        [[0.1, 0.2, 0.3], [1.0, 2.0, 3.0], [8.0, 9.0, 30.0], [50.0, 0.5, 60.0]],
        requires_grad=True,
    )
    x = D.Dirichlet(conc).rsample((3,))
    w = T.tensor([1.0, -2.0, 0.5])
    (x * w).sum().backward()
    a = T.tensor([0.3, 7.0, 20.0], requires_grad=True)
    b = T.tensor([0.4, 9.0, 2.0], requires_grad=True)
    y = D.Beta(a, b).rsample((5,))
    y.pow(2).sum().backward()
    c64 = T.tensor([2.0, 3.0], dtype=T.float64, requires_grad=True)
    z = D.Dirichlet(c64).rsample()
    z[0].backward()
    return g, alpha.grad, x, x.grad_fn, conc.grad, y, a.grad, b.grad, z, c64.grad


@program()
def prog_dff_distribution_repr_and_params(T: Any) -> Any:
    D = T.distributions
    return (
        repr(D.Normal(T.tensor([0.0, 1.0]), 1.0)),
        repr(D.Categorical(T.ones(3))),
        repr(D.Bernoulli(logits=T.zeros(2))),
        repr(D.Uniform(0.0, 1.0)),
        repr(D.MultivariateNormal(T.zeros(2), T.eye(2))),
        D.Normal.arg_constraints,
        D.Uniform(0.0, 1.0).arg_constraints,
        D.Normal(0.0, 1.0).support,
        D.Uniform(0.0, 1.0).support,
        D.Binomial(3, 0.5).support,
    )


@program()
def prog_dff_scalar_python_params_dtypes(T: Any) -> Any:
    D = T.distributions
    n = D.Normal(0, 1)
    n64 = D.Normal(T.tensor(0.0, dtype=T.float64), 1)
    return (
        n.loc.dtype,
        n.sample().dtype,
        n64.sample().dtype,
        n64.log_prob(T.tensor(0.5)).dtype,
        D.Bernoulli(0.3).sample().dtype,
        D.Categorical(T.ones(3, dtype=T.float64)).sample().dtype,
        D.Poisson(2).sample().dtype,
        D.Normal(0.0, 1.0).batch_shape,
        raises(lambda: D.Normal(T.tensor([1, 2]), 1.0).log_prob(T.tensor(0.5))),
    )


# --- fft -----------------------------------------------------------------------------------


@program()
def prog_dff_fft_n_dim_norm(T: Any) -> Any:
    x = T.tensor(_data(3, 5))
    out = []
    for norm in (None, "backward", "ortho", "forward"):
        out.append(T.fft.fft(x, norm=norm))
        out.append(T.fft.ifft(x, n=7, dim=0, norm=norm))
        out.append(T.fft.rfft(x, n=4, norm=norm))
        out.append(T.fft.irfft(T.fft.rfft(x), n=5, norm=norm))
        out.append(T.fft.hfft(x, norm=norm))
        out.append(T.fft.ihfft(x, norm=norm))
    out.append(raises(lambda: T.fft.fft(x, norm="bogus")))
    return out


@program()
def prog_dff_fft_dtypes(T: Any) -> Any:
    out = []
    for dt in (T.float32, T.float64, T.int64, T.bool, T.complex64, T.complex128, T.int8):
        x = T.arange(6).to(dt) if dt != T.bool else T.tensor([True, False, True])
        out.append(raises(lambda x=x: T.fft.fft(x)))
        out.append(raises(lambda x=x: T.fft.rfft(x)))
        out.append(raises(lambda x=x: T.fft.irfft(x)))
        out.append(raises(lambda x=x: T.fft.hfft(x)))
    return out


@program()
def prog_dff_fft_errors(T: Any) -> Any:
    x = T.tensor(_data(4))
    return (
        raises(lambda: T.fft.fft(x, n=0)),
        raises(lambda: T.fft.fft(x, n=-1)),
        raises(lambda: T.fft.rfft(x, n=-1)),
        raises(lambda: T.fft.irfft(x, n=-1)),
        raises(lambda: T.fft.ihfft(x, n=-2)),
        T.fft.fftn(T.ones(3, 4), s=(-1, 2)),
        raises(lambda: T.fft.fftn(T.ones(3, 4), s=(-2, 2))),
        raises(lambda: T.fft.fft(x, dim=1)),
        raises(lambda: T.fft.fft(T.tensor(1.0))),
        raises(lambda: T.fft.fft(T.zeros(0))),
        raises(lambda: T.fft.irfft(T.zeros(1, dtype=T.complex64))),
        raises(lambda: T.fft.fft2(x)),
        raises(lambda: T.fft.fftn(x, s=(2, 2))),
        raises(lambda: T.fft.fftn(x, s=(2,), dim=(0, 0))),
        raises(lambda: T.fft.rfftn(T.zeros(2, 2), dim=(0, 0))),
        raises(lambda: T.fft.fftn(T.zeros(2, 2), s=(3,), dim=(0, 1))),
        raises(lambda: T.fft.rfft(T.zeros(3, dtype=T.complex64))),
        raises(lambda: T.fft.ihfft(T.zeros(3, dtype=T.complex64))),
        raises(lambda: T.fft.rfft2(T.zeros(2, 2, dtype=T.complex64))),
        raises(lambda: T.fft.rfftn(T.zeros(2, 2, dtype=T.complex64), dim=(0,))),
        raises(lambda: T.fft.ihfft2(T.zeros(2, 2, dtype=T.complex64))),
        raises(lambda: T.fft.fftn(T.tensor(2.0), dim=0)),
        raises(lambda: T.fft.fft2(T.tensor(2.0))),
        T.fft.fftn(T.tensor(2.0)),
    )


@program()
def prog_dff_fft_multi_dim(T: Any) -> Any:
    x = T.tensor(_data(2, 3, 4))
    return (
        T.fft.fft2(x),
        T.fft.ifft2(x, s=(5, 3)),
        T.fft.fftn(x, dim=(0, 2)),
        T.fft.fftn(x, s=(2, 2)),
        T.fft.rfft2(x),
        T.fft.irfft2(T.fft.rfft2(x), s=(3, 4)),
        T.fft.rfftn(x, s=(3, 5, 3)),
        T.fft.irfftn(T.fft.rfftn(x)),
        T.fft.hfft2(x.to(T.complex64)),
        T.fft.ihfft2(x),
        T.fft.hfftn(x.to(T.complex64), s=(2, 3, 5)),
        T.fft.ihfftn(x, dim=(-1,)),
        T.fft.fftn(x, dim=()),
        T.fft.fftn(x, s=(-1, 3)),
    )


@program()
def prog_dff_fft_gradients(T: Any) -> Any:
    x = _x(T, 2, 5)
    w = T.tensor(_data(2, 5, seed=1))
    out = []
    y1 = T.fft.fft(x, n=6, norm="ortho")
    y2 = T.fft.rfft(x, n=4)
    y3 = T.fft.irfft(y2, n=7)
    y4 = T.fft.hfft(x, n=6, norm="forward")
    loss = y1.abs().sum() + y2.real.sum() + (y3**2).sum() + y4.sum()
    loss.backward()
    out += [y1.grad_fn, y2.grad_fn, y3.grad_fn, y4.grad_fn, x.grad]
    z = (x.to(T.complex64) * (1 + 2j)).detach().requires_grad_(True)
    f = T.fft.ifft2(z, s=(3, 4))
    (f * w[:, None, :4].sum(0).to(T.complex64)).real.sum().backward()
    out += [f.grad_fn, z.grad]
    r = _x(T, 3, 4, seed=2)
    g = T.fft.rfft2(r)
    g.abs().pow(2).sum().backward()
    out += [g.grad_fn, r.grad]
    return out


@program()
def prog_dff_fft_double_backward(T: Any) -> Any:
    x = _x(T, 6)
    y = T.fft.rfft(x)
    s = (y.abs() ** 2).sum()
    (g,) = T.autograd.grad(s, x, create_graph=True)
    g.sum().backward()
    return s, g, g.grad_fn, x.grad


@program()
def prog_dff_fftshift_fftfreq(T: Any) -> Any:
    x = T.arange(10).reshape(2, 5)
    return (
        T.fft.fftshift(x),
        T.fft.ifftshift(x),
        T.fft.fftshift(x, dim=1),
        T.fft.fftshift(x, dim=(0,)),
        T.fft.ifftshift(T.fft.fftshift(x)),
        T.fft.fftfreq(5),
        T.fft.fftfreq(6, d=0.5),
        T.fft.rfftfreq(5),
        T.fft.rfftfreq(6, 2.0),
        T.fft.fftfreq(4, dtype=T.float64),
        T.fft.rfftfreq(4, dtype=T.float16),
        T.fft.fftfreq(0),
        T.fft.rfftfreq(0),
        T.fft.rfftfreq(-1),
        T.fft.fftfreq(5, d=0.0),
        T.fft.fftfreq(7, 0.3, dtype=T.float16),
        T.fft.rfftfreq(9, 3.7, dtype=T.float16),
        raises(lambda: T.fft.fftfreq(4, dtype=T.int64)),
        raises(lambda: T.fft.rfftfreq(4, dtype=T.bool)),
        raises(lambda: T.fft.fftfreq(4, dtype=T.complex64)),
        raises(lambda: T.fft.fftfreq(-1)),
        raises(lambda: T.fft.rfftfreq(-4)),
        T.fft.fftfreq(3, requires_grad=True).requires_grad,
        T.fft.fftshift(T.fft.fftfreq(5)),
    )


@program()
def prog_dff_fft_noncontiguous_and_out(T: Any) -> Any:
    x = T.tensor(_data(4, 6))
    xt = x.t()
    xs = x[:, ::2]
    xe = T.tensor(_data(6)).expand(3, 6)
    out = T.empty(0, dtype=T.complex64)
    r = T.fft.fft(xt, out=out)
    return (
        T.fft.fft(xt),
        T.fft.rfft(xs, dim=0),
        T.fft.fft(xe),
        r is out,
        out,
        raises(lambda: T.fft.fft(x, out=T.empty(0))),
        raises(lambda: T.fft.rfft(x, out=T.empty(0))),
        raises(lambda: T.fft.irfft(x, out=T.empty(0, dtype=T.complex64))),
        T.fft.irfft(x.to(T.complex64), out=T.empty(0, dtype=T.float64)),
        T.fft.ifft(x, out=T.empty(4, 6, dtype=T.complex64)).is_conj(),
        T.fft.rfft2(x, out=T.empty(2, dtype=T.complex64)).shape,
        raises(lambda: T.fft.fft(x.requires_grad_(), out=T.empty(0, dtype=T.complex64))),
        raises(lambda: T.fft.irfft(x.to(T.complex64), out=T.empty(0))),
        T.fft.fft(x.to(T.float64)).dtype,
        raises(lambda: T.fft.rfft(x.half()[:, :4])),
    )


@program()
def prog_dff_fft_half_sizes(T: Any) -> Any:
    x = T.tensor(_data(6)).half()
    return (
        raises(lambda: T.fft.fft(x)),
        raises(lambda: T.fft.rfft(x[:5])),
        raises(lambda: T.fft.ihfft(x)),
        raises(lambda: T.fft.hfft(x.to(T.float32)[:4].half())),
    )


@program()
def prog_dff_stft_istft_roundtrip(T: Any) -> Any:
    x = T.tensor(_data(64))
    w = T.hann_window(16)
    s = T.stft(x, 16, hop_length=4, window=w, return_complex=True)
    y = T.istft(s, 16, hop_length=4, window=w, length=64)
    return (
        s.shape,
        s,
        y,
        raises(lambda: T.stft(x, 16)),
        raises(lambda: T.stft(x, 128, return_complex=True)),
        T.stft(x, 16, return_complex=True, center=False).shape,
    )


# --- torch.func -------------------------------------------------------------------------------


@program()
def prog_dff_func_grad_argnums_has_aux(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(3))
    y = T.tensor(_data(3, seed=1))

    def f(a: Any, b: Any) -> Any:
        return (a.sin() * b).sum(), {"aux": a.cos()}

    g0, aux = func.grad(f, has_aux=True)(x, y)
    g01 = func.grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, 1))(x, y)
    g1 = func.grad(lambda a, b: (a * b.exp()).sum(), argnums=1)(x, y)
    (gv, v) = func.grad_and_value(lambda a: (a**3).sum())(x)
    (gva, (va, auxa)) = func.grad_and_value(lambda a: ((a**2).sum(), a + 1), has_aux=True)(x)
    return g0, aux, g01, g1, gv, v, gva, va, auxa


@program()
def prog_dff_func_grad_errors(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(3))
    return (
        raises(lambda: func.grad(lambda a: a * 2)(x)),
        raises(lambda: func.grad(lambda a: a.sum(), argnums=1)(x)),
        raises(lambda: func.grad(lambda a: a.sum(), argnums=-2)(x)),
        raises(lambda: func.grad(lambda a: a.sum(), argnums=1.0)(x)),
        raises(lambda: func.grad(lambda a: a.sum(), argnums=())(x)),
        raises(lambda: func.grad(lambda a: (a.sum(), 1, 2), has_aux=True)(x)),
        raises(lambda: func.grad(lambda a: a.sum().long())(x)),
        raises(lambda: func.grad(lambda a: 3.0)(x)),
        raises(lambda: func.grad(lambda a: a.sum())(3.0)),
        raises(lambda: func.grad(lambda a: a.sum())(x.long())),
        func.grad(lambda a: a.sum(), argnums=-1)(x),
    )


@program()
def prog_dff_func_grad_nested_and_non_tensor_args(T: Any) -> Any:
    func = T.func
    x = T.tensor(2.0)
    g2 = func.grad(func.grad(lambda a: a**4))(x)
    g3 = func.grad(func.grad(func.grad(lambda a: a.sin())))(x)
    gd = func.grad(lambda d: (d["a"] * d["b"]).sum())({"a": T.ones(2), "b": T.arange(2.0)})
    gt = func.grad(lambda t, k: (t[0] * t[1] * k).sum())((T.ones(2), T.full((2,), 3.0)), 2)
    return g2, g3, gd, gt


def _warm_jvp(T: Any) -> None:
    """torch's first jvp in a process warns (its own lazy torch.jit.script setup): run one
    silently first, so a program sees only what its own calls warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        T.func.jvp(lambda a: a.sin(), (T.ones(1),), (T.ones(1),))


@program()
def prog_dff_func_vjp_jvp(T: Any) -> Any:
    func = T.func
    _warm_jvp(T)
    x = T.tensor(_data(3))
    v = T.tensor(_data(3, seed=1))
    out, vjp_fn = func.vjp(lambda a: a.sin() * 2, x)
    (vx,) = vjp_fn(v)
    out2, vjp_fn2, aux = func.vjp(lambda a: (a.exp(), a.sum()), x, has_aux=True)
    jo, jt = func.jvp(lambda a: a.sin() * a.flip(0), (x,), (v,))
    jo2, jt2, jaux = func.jvp(lambda a, b: (a * b, a - b), (x, v), (v, x), has_aux=True)
    return (
        out,
        vx,
        out2,
        vjp_fn2(T.ones(3)),
        aux,
        jo,
        jt,
        jo2,
        jt2,
        jaux,
        raises(lambda: vjp_fn(T.ones(4))),
        raises(lambda: func.jvp(lambda a: a, (x,), (T.ones(4),))),
        raises(lambda: func.jvp(lambda a: a, x, (v,))),
        raises(lambda: func.jvp(lambda a: a, (x,), (v.double(),))),
        raises(lambda: func.jvp(lambda a, b: a, (x, x), (v,))),
    )


@program()
def prog_dff_func_jacrev_jacfwd(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(3))
    y = T.tensor(_data(2, seed=1))

    def f(a: Any, b: Any) -> Any:
        return T.outer(a.sin(), b).sum(0) + b.exp()

    _warm_jvp(T)
    return (
        func.jacrev(f)(x, y),
        func.jacrev(f, argnums=(0, 1))(x, y),
        func.jacfwd(f, argnums=(0, 1))(x, y),
        func.jacrev(f, argnums=1, chunk_size=1)(x, y),
        func.jacrev(lambda a: a.sin())(T.tensor(1.5)),
        func.jacrev(lambda a: (a.sin(), {"k": a * 2}))(x),
        func.jacfwd(lambda a: a.outer(a))(x).shape,
        func.jacrev(lambda a: (a.sum(), a.cos()), has_aux=True)(x),
        raises(lambda: func.jacrev(f, chunk_size=0)(x, y)),
        raises(lambda: func.jacrev(f, argnums=2)(x, y)),
        raises(lambda: func.jacfwd(lambda a: a.long())(x)),
        func.hessian(lambda a: (a**3).sum())(x),
        func.hessian(lambda a, b: (a * b.sum()).pow(2).sum(), argnums=(0, 1))(x, y),
    )


@program()
def prog_dff_func_vmap_in_out_dims(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(4, 3))
    y = T.tensor(_data(3, 4, seed=1))
    return (
        func.vmap(T.dot)(x, y.t()),
        func.vmap(T.dot, in_dims=(0, 1))(x, y),
        func.vmap(lambda a, b: a * b, in_dims=(0, None))(x, y[:, 0]),
        func.vmap(lambda a: a.sum(), in_dims=1)(x),
        func.vmap(lambda a: a * 2, out_dims=1)(x),
        func.vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(x),
        func.vmap(func.vmap(lambda a: a**2))(x),
        func.vmap(func.vmap(lambda a, b: a + b, in_dims=(None, 0)), in_dims=(0, None))(
            x[:, 0], y[0]
        ),
        func.vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
            {"a": x, "b": T.ones(3)}
        ),
        func.vmap(lambda a: a.sum(), chunk_size=2)(x),
        func.vmap(lambda a: a * 2, in_dims=-1)(x),
    )


@program()
def prog_dff_func_vmap_errors(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(4, 3))
    return (
        raises(lambda: func.vmap(lambda a: a)(T.tensor(1.0))),
        raises(lambda: func.vmap(lambda a, b: a + b)(x, T.ones(5, 3))),
        raises(lambda: func.vmap(lambda a: a, in_dims=2)(x)),
        raises(lambda: func.vmap(lambda a: a, in_dims=(0, 0))(x)),
        raises(lambda: func.vmap(lambda a: a, in_dims=None)(x)),
        raises(lambda: func.vmap(lambda a: a)(3.0)),
        raises(lambda: func.vmap(lambda a: 3.0)(x)),
        raises(lambda: func.vmap(lambda a: a, out_dims=(0, 0))(x)),
        raises(lambda: func.vmap(lambda a: a, chunk_size=0)(x)),
        raises(lambda: func.vmap(lambda a: a.item())(x[:, 0])),
        raises(lambda: func.vmap(lambda a: float(a))(x[:, 0])),
        raises(lambda: func.vmap(lambda a, b: a * int(b))(x[:, 0], T.arange(4))),
        func.vmap(lambda a, k: a * k.item(), in_dims=(0, None))(x, T.tensor(2.0)),
        raises(lambda: func.vmap(lambda a: a)()),
        raises(lambda: func.vmap(lambda a: a, in_dims="x")(x)),
        raises(lambda: func.vmap(lambda a: a, out_dims="a")(x)),
        raises(lambda: func.vmap(lambda a: (a, a), out_dims=(0, 1.5))(x)),
        raises(lambda: func.vmap(lambda a: a, out_dims=1.5)()),
        raises(lambda: func.vmap(lambda a: a, out_dims=[0])(x)),
    )


@program()
def prog_dff_func_vmap_randomness(T: Any) -> Any:
    func = T.func
    x = T.ones(3, 2)
    T.manual_seed(0)
    a = raises(lambda: func.vmap(lambda t: t + T.rand(2))(x))
    T.manual_seed(0)
    b = func.vmap(lambda t: t * 0 + T.rand(()), randomness="same")(x)
    c = raises(lambda: func.vmap(lambda t: t, randomness="bogus")(x))
    return a, b.shape, b[0] == b[1], c


@program()
def prog_dff_func_functional_call(T: Any) -> Any:
    func = T.func
    m = _seeded(T, T.nn.Linear(3, 2), 1)
    x = T.tensor(_data(4, 3))
    params = {k: v.detach() * 2 for k, v in m.named_parameters()}
    out = func.functional_call(m, params, (x,))
    out_partial = func.functional_call(m, {"bias": T.zeros(2)}, x)
    two = func.functional_call(m, ({"weight": T.ones(2, 3)}, {"bias": T.ones(2)}), (x,))
    return (
        out,
        out_partial,
        two,
        m.weight,
        raises(lambda: func.functional_call(m, {"bias": T.zeros(2)}, (x,), strict=True)),
        raises(lambda: func.functional_call(m, {"nope": T.zeros(2), **params}, (x,), strict=True)),
        raises(lambda: func.functional_call(m, ({"bias": T.zeros(2)}, {"bias": T.ones(2)}), x)),
        func.functional_call(m, params, args=(), kwargs={"input": x}),
    )


@program()
def prog_dff_func_functional_call_tied(T: Any) -> Any:
    func = T.func

    class Tied(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = T.nn.Linear(2, 2, bias=False)
            self.b = T.nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight

        def forward(self, x: Any) -> Any:
            return self.b(self.a(x))

    m = _seeded(T, Tied(), 2)
    x = T.tensor(_data(1, 2))
    w = T.eye(2) * 3
    return (
        func.functional_call(m, {"a.weight": w}, (x,)),
        func.functional_call(m, {"a.weight": w}, (x,), tie_weights=False),
        raises(lambda: func.functional_call(m, {"a.weight": w, "b.weight": T.eye(2)}, (x,))),
        func.functional_call(m, {"a.weight": w, "b.weight": w}, (x,)),
    )


@program()
def prog_dff_func_stack_module_state_and_ensembles(T: Any) -> Any:
    func = T.func
    models = [_seeded(T, T.nn.Linear(3, 2), i) for i in range(3)]
    params, buffers = func.stack_module_state(models)
    x = T.tensor(_data(5, 3))
    base = models[0]

    def call(p: Any, b: Any, xx: Any) -> Any:
        return func.functional_call(base, (p, b), (xx,))

    out = func.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
    return (
        sorted(params),
        params["weight"].shape,
        params["weight"].requires_grad,
        params["weight"].is_leaf,
        out.shape,
        # values only: vmap's per-sample run ends in StackBackward0 (see the xfail of
        # func_functional_call_and_stack)
        out.detach(),
        raises(lambda: func.stack_module_state([])),
        raises(lambda: func.stack_module_state([models[0], T.nn.Linear(3, 3)])),
    )


@program(warnings=False)  # torch's fx tracing warns about its own get_attr nodes
def prog_dff_func_linearize(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(3))
    out, jvp_fn = func.linearize(lambda a: a.sin() * a, x)
    t = T.tensor(_data(3, seed=1))
    return out, jvp_fn(t), raises(lambda: jvp_fn(T.ones(4)))


@program()
def prog_dff_func_per_sample_grads(T: Any) -> Any:
    func = T.func
    m = _seeded(T, T.nn.Linear(3, 1), 5)
    params = {k: v.detach() for k, v in m.named_parameters()}
    x = T.tensor(_data(4, 3))
    y = T.tensor(_data(4, 1, seed=1))

    def loss(p: Any, xi: Any, yi: Any) -> Any:
        pred = func.functional_call(m, p, (xi.unsqueeze(0),))
        return T.nn.functional.mse_loss(pred, yi.unsqueeze(0))

    g = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, x, y)
    return g["weight"], g["bias"]


# --- more distributions ---------------------------------------------------------------------


@program()
def prog_dff_normal_special_values(T: Any) -> Any:
    D = T.distributions
    n = D.Normal(T.tensor([0.0, 1.0, -2.0], dtype=T.float64), T.tensor([1.0, 0.5, 3.0]))
    v = T.tensor([float("inf"), float("-inf"), float("nan")])
    nv = D.Normal(n.loc, n.scale, validate_args=False)
    return (
        raises(lambda: n.log_prob(v)),
        nv.log_prob(v),
        nv.cdf(v),
        n.icdf(T.tensor([0.0, 1.0, 0.5])),
        n.entropy(),
        n.log_prob(T.tensor(0.0)).dtype,
        n.perplexity(),
        D.Normal(0.0, 1.0).log_prob(T.tensor([1e30, -1e30])),
        raises(lambda: D.Normal(0.0, 1.0, validate_args=True).log_prob(3.0)),
        D.Normal(0.0, 1.0, validate_args=False).log_prob(T.tensor(3)),
    )


@program()
def prog_dff_categorical_neg_inf_logits(T: Any) -> Any:
    D = T.distributions
    logits = T.tensor([[0.0, float("-inf"), 1.0], [2.0, 2.0, float("-inf")]], requires_grad=True)
    c = D.Categorical(logits=logits)
    ent = c.entropy()
    lp = c.log_prob(T.tensor([0, 1]))
    ent.sum().backward()
    T.manual_seed(13)
    return c.probs, c.logits, ent, lp, logits.grad, c.sample((4,)), c.mode


@program()
def prog_dff_relaxed_distributions(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(14)
    temp = T.tensor(0.5)
    logits = _x(T, 3)
    rb = D.RelaxedBernoulli(temp, logits=logits)
    s = rb.rsample((2,))
    ro = D.RelaxedOneHotCategorical(temp, logits=logits)
    so = ro.rsample()
    (s.sum() + so[0] + rb.log_prob(s).sum() + ro.log_prob(so)).backward()
    return s, so, rb.log_prob(s), ro.log_prob(so), logits.grad, rb.temperature, ro.support


@program()
def prog_dff_more_cdf_icdf_and_sampling(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(15)
    v = T.tensor([0.1, 0.5, 2.0])
    q = T.tensor([0.1, 0.5, 0.9])
    out = {}
    for name, d in (
        ("halfnormal", D.HalfNormal(2.0)),
        ("halfcauchy", D.HalfCauchy(1.5)),
        ("lognormal", D.LogNormal(0.0, 0.5)),
        ("gumbel", D.Gumbel(0.0, 2.0)),
        ("weibull", D.Weibull(1.5, 2.0)),
        ("pareto", D.Pareto(0.05, 2.0)),
        ("kumaraswamy", D.Kumaraswamy(2.0, 3.0)),
    ):
        out[name] = (
            raises(lambda d=d: d.cdf(v)),
            raises(lambda d=d: d.icdf(q)),
            raises(lambda d=d: d.log_prob(v)),
            d.sample((2,)),
        )
    return out


@program()
def prog_dff_discrete_sampling(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(16)
    return (
        D.Binomial(T.tensor([5.0, 10.0]), T.tensor([0.3, 0.9])).sample((3,)),
        D.Poisson(T.tensor([0.5, 4.0, 30.0])).sample((2,)),
        D.Geometric(T.tensor([0.2, 0.7])).sample((3,)),
        D.NegativeBinomial(T.tensor(3.0), T.tensor(0.4)).sample((4,)),
        D.Bernoulli(logits=T.tensor([-1.0, 2.0])).sample((2,)),
        D.Multinomial(4, logits=T.tensor([0.0, 1.0, -1.0])).sample(),
        D.Categorical(T.tensor([0.1, 0.2, 0.7])).sample((2, 3)),
    )


@program()
def prog_dff_validate_args_message_shapes(T: Any) -> Any:
    D = T.distributions
    ones = T.ones(3)
    return (
        raises(
            lambda: D.Normal(T.tensor([1.0, 2.0]), T.tensor([[-1.0], [1.0]]), validate_args=True)
        ),
        raises(lambda: D.Exponential(T.tensor([[1.0, -2.0]]), validate_args=True)),
        raises(lambda: D.Dirichlet(T.tensor([1.0, 0.0]), validate_args=True)),
        raises(lambda: D.Dirichlet(T.tensor(1.0))),
        raises(
            lambda: D.MultivariateNormal(T.zeros(2), scale_tril=T.ones(2, 2), validate_args=True)
        ),
        raises(lambda: D.Binomial(T.tensor(-1.0), 0.5, validate_args=True)),
        raises(lambda: D.Categorical(logits=T.tensor([float("nan"), 0.0]), validate_args=True)),
        raises(
            lambda: D.OneHotCategorical(T.tensor([0.5, 0.5]), validate_args=True).log_prob(
                T.tensor([1.0, 1.0])
            )
        ),
        raises(lambda: D.Dirichlet(ones, validate_args=True).log_prob(T.tensor([0.5, 0.5, 0.5]))),
    )


@program()
def prog_dff_independent_and_transformed_expand(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(17)
    ind = D.Independent(D.Normal(T.zeros(2), T.ones(2)), 1).expand((3,))
    td = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.ExpTransform()]).expand((2,))
    ind0 = D.Independent(D.Normal(T.zeros(2), T.ones(2)), 0)
    return (
        ind.batch_shape,
        ind.event_shape,
        ind.sample().shape,
        ind.log_prob(T.zeros(3, 2)),
        td.batch_shape,
        td.sample(),
        ind0.event_shape,
        ind0.log_prob(T.zeros(2)),
        raises(lambda: D.kl_divergence(ind0, D.Independent(D.Normal(T.zeros(2), 1.0), 1))),
    )


@program()
def prog_dff_stick_breaking_transformed_log_prob(T: Any) -> Any:
    D = T.distributions
    tr = D.transforms
    base = D.Normal(_x(T, 2), T.ones(2))
    ind = D.Independent(base, 1)
    td = D.TransformedDistribution(ind, tr.StickBreakingTransform())
    y = T.tensor([0.2, 0.3, 0.5])
    lp = td.log_prob(y)
    lp.backward()
    ld = D.LogisticNormal(T.zeros(2), T.ones(2))
    return lp, td.event_shape, td.support, base.loc.grad, ld.log_prob(y), ld.sample().shape


@program()
def prog_dff_mvn_rsample_grads(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(18)
    loc = _x(T, 2)
    a = T.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
    d = D.MultivariateNormal(loc, scale_tril=a)
    s = d.rsample((3,))
    lp = d.log_prob(s.detach())
    (s.sum() + lp.sum() + d.entropy()).backward()
    return s, lp, loc.grad, a.grad, d.mean, d.mode, d.stddev


@program()
def prog_dff_von_mises(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(19)
    vm = D.VonMises(T.tensor([0.0, 1.0]), T.tensor([0.5, 4.0]))
    return vm.sample((3,)), vm.log_prob(T.tensor([0.3, -2.0])), vm.mean, vm.variance, vm.mode


# --- more fft -------------------------------------------------------------------------------


@program()
def prog_dff_fft_conj_and_int_inputs(T: Any) -> Any:
    z = T.tensor(_data(5)) + 1j * T.tensor(_data(5, seed=1))
    zc = z.conj()
    return (
        T.fft.fft(zc),
        T.fft.ifft(zc, n=3),
        T.fft.fftn(T.arange(6).reshape(2, 3)),
        T.fft.rfft(T.arange(5)),
        T.fft.fft(T.tensor([True, False, True])),
        T.fft.rfft(T.arange(4, dtype=T.float64)).dtype,
        T.fft.irfft(T.arange(4, dtype=T.float64)).dtype,
        T.fft.hfft(T.arange(4)).dtype,
        T.fft.ihfft(T.arange(4, dtype=T.float64)),
    )


@program()
def prog_dff_fft_multi_dim_gradients(T: Any) -> Any:
    x = _x(T, 3, 4)
    a = T.fft.ifftn(x, s=(4, 5))
    b = T.fft.irfft2(T.fft.rfft2(x), s=(3, 5))
    c = T.fft.hfft2(x.to(T.complex64), s=(2, 6))
    d = T.fft.ihfftn(x, s=(2, 3))
    loss = a.abs().sum() + b.sum() + c.pow(2).sum() + d.real.sum() - d.imag.sum()
    loss.backward()
    return a.grad_fn, b.grad_fn, c.grad_fn, d.grad_fn, loss, x.grad


@program()
def prog_dff_fftshift_gradients(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = T.fft.fftshift(x, dim=(-1, 0)) * T.arange(12.0).reshape(3, 4)
    z = T.fft.ifftshift(y, dim=-2)
    z.sum().backward()
    return (
        y,
        z,
        z.grad_fn,
        x.grad,
        raises(lambda: T.fft.fftshift(T.tensor(3.0))),
        raises(lambda: T.fft.fftshift(x, dim=2)),
        raises(lambda: T.fft.ifftshift(x, dim=(-3,))),
        raises(lambda: T.fft.fftshift(T.tensor(1.0), dim=0)),
    )


@program()
def prog_dff_stft_variants(T: Any) -> Any:
    x = _x(T, 40)
    w = T.hamming_window(8)
    s1 = T.stft(x, 8, hop_length=2, window=w, center=False, return_complex=True)
    s2 = T.stft(x, 8, window=w, onesided=False, return_complex=True, normalized=True)
    s3 = T.stft(x.to(T.complex64), 8, window=w, return_complex=True)
    y = T.istft(s2, 8, window=w, onesided=False, normalized=True, length=40)
    (s1.abs().sum() + y.sum()).backward()
    return (
        s1.shape,
        s2.shape,
        s3.shape,
        s1,
        y,
        x.grad,
        raises(lambda: T.stft(x.to(T.complex64), 8, window=w, onesided=True, return_complex=True)),
    )


# --- more torch.func ------------------------------------------------------------------------


@program()
def prog_dff_func_grad_under_no_grad_and_nonscalar(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(3))
    with T.no_grad():
        g = func.grad(lambda a: (a**2).sum())(x)
    _warm_jvp(T)
    with T.inference_mode():
        xi = T.ones(3)
        gi = (
            raises(lambda: func.grad(lambda a: (a**2).sum())(T.ones(2))),
            func.vjp(lambda a: a * 2, xi)[1](T.ones(3)),
            func.jacrev(lambda a: a.sin())(xi),
            func.jacfwd(lambda a: a.sin())(xi),
            func.hessian(lambda a: a.sin().sum())(xi),
            func.jvp(lambda a: a.sin(), (xi,), (xi,)),
            func.vmap(func.grad(lambda a: a.sin().sum()))(T.ones(2, 3)),
        )
    return (
        g,
        gi,
        raises(lambda: func.grad(lambda a: a.sum(0, keepdim=True))(x)),
        raises(lambda: func.grad(lambda a: T.ones(()))(x)),
        func.grad(lambda a: (a * 0).sum())(x),
        raises(lambda: func.grad(lambda a: a.sum().to(T.complex64))(x)),
    )


@program()
def prog_dff_func_vmap_kwargs_and_none_out(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(4, 3))

    def f(a: Any, scale: float = 1.0, bias: Any = None) -> Any:
        return a * scale + (0 if bias is None else bias)

    return (
        func.vmap(f)(x, scale=2.0),
        func.vmap(f)(x, bias=T.ones(3)),
        func.vmap(lambda a: (a.sum(), T.ones(2)), out_dims=(0, None))(x),
        func.vmap(lambda a: a.sum(), in_dims=0)(T.zeros(0, 3)),
        func.vmap(lambda a: a.t(), in_dims=2)(T.tensor(_data(2, 3, 4))).shape,
        func.vmap(lambda a, b: a @ b)(T.tensor(_data(3, 2, 2)), T.tensor(_data(3, 2, 2, seed=1))),
        raises(lambda: func.vmap(lambda a: (a, a), out_dims=(0, 2))(x)),
    )


@program()
def prog_dff_func_jac_structures(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(2))
    y = T.tensor(_data(3, seed=1))

    def f(a: Any, b: Any) -> Any:
        return (a * b[:2], b.sum() * a.sum())

    jr = func.jacrev(f, argnums=(0, 1))(x, y)
    jf = func.jacfwd(f, argnums=(0, 1))(x, y)
    jd = func.jacrev(lambda d: d["u"] * d["v"])({"u": x, "v": y[:2]})
    return jr, jf, jd, func.jacrev(func.jacrev(lambda a: a.pow(3).sum()))(x)


@program()
def prog_dff_func_vjp_multi_and_hessian_model(T: Any) -> Any:
    func = T.func
    _warm_jvp(T)
    x = T.tensor(_data(3))
    y = T.tensor(_data(3, seed=1))
    out, fn = func.vjp(lambda a, b: (a * b, (a - b).sum()), x, y)
    ct = fn((T.ones(3), T.tensor(2.0)))
    m = _seeded(T, T.nn.Linear(3, 1), 9)
    params = {k: v.detach() for k, v in m.named_parameters()}
    inp = T.tensor(_data(2, 3, seed=2))

    def loss(p: Any) -> Any:
        return func.functional_call(m, p, (inp,)).pow(2).sum()

    h = func.hessian(loss)(params)
    return out, ct, h["weight"]["weight"], h["bias"]["weight"], raises(lambda: fn((T.ones(3),)))


@program()
def prog_dff_func_jvp_tuple_outputs(T: Any) -> Any:
    func = T.func
    _warm_jvp(T)
    x = T.tensor(_data(3))
    t = T.tensor(_data(3, seed=1))
    o, tan = func.jvp(lambda a: (a.exp(), a.sum(), {"k": a * 3}), (x,), (t,))
    return (
        o,
        tan,
        raises(lambda: func.jvp(lambda a: 3.0, (x,), (t,))),
        raises(lambda: func.jvp(lambda a: a, [x], [t])),
    )


@program()
def prog_dff_func_vmap_randomness_different(T: Any) -> Any:
    func = T.func
    x = T.zeros(3, 2)
    T.manual_seed(1)
    d = func.vmap(lambda a: a + T.randn(2), randomness="different")(x)
    T.manual_seed(1)
    s = func.vmap(lambda a: a + T.randn(2), randomness="same")(x)
    T.manual_seed(2)
    dr = func.vmap(lambda a: T.nn.functional.dropout(a + 1, 0.5), randomness="different")(x)
    return (
        d.shape,
        s[0] == s[2],
        dr.shape,
        raises(lambda: func.vmap(lambda a: T.nn.functional.dropout(a, 0.5))(x)),
    )


@program()
def prog_dff_structured_transforms(T: Any) -> Any:
    tr = T.distributions.transforms
    x = T.tensor(_data(2, 6))
    cat = tr.CatTransform([tr.ExpTransform(), tr.SigmoidTransform()], dim=1, lengths=[2, 4])
    stk = tr.StackTransform([tr.ExpTransform(), tr.TanhTransform()], dim=0)
    rs = tr.ReshapeTransform((6,), (2, 3))
    ind = tr.IndependentTransform(tr.ExpTransform(), 1)
    cc = tr.CorrCholeskyTransform()
    v = T.tensor(_data(3, seed=3))
    L = cc(v)
    return (
        cat(x),
        cat.log_abs_det_jacobian(x, cat(x)),
        stk(x),
        stk.inv(stk(x)),
        rs(x),
        rs.inv(rs(x)).shape,
        rs.log_abs_det_jacobian(x, rs(x)),
        ind.log_abs_det_jacobian(x, ind(x)),
        ind.event_dim,
        L,
        cc.inv(L),
        cc.log_abs_det_jacobian(v, L),
        raises(lambda: rs(T.zeros(5))),
        raises(lambda: tr.ReshapeTransform((6,), (4, 2))),
        repr(tr.AffineTransform(1.0, 2.0)),
        tr.ExpTransform() == tr.ExpTransform(),
        tr.AffineTransform(0.0, 1.0) == tr.AffineTransform(0.0, 1.0),
    )


@program()
def prog_dff_affine_negative_scale_cdf(T: Any) -> Any:
    D = T.distributions
    tr = D.transforms
    base = D.Uniform(0.0, 1.0)
    td = D.TransformedDistribution(base, tr.AffineTransform(2.0, -3.0))
    v = T.tensor([-0.5, 0.0, 1.5])
    return (
        td.cdf(v),
        td.icdf(T.tensor([0.1, 0.5])),
        td.log_prob(v),
        td.support,
        raises(
            lambda: D.TransformedDistribution(
                D.Normal(0.0, 1.0), tr.AffineTransform(0.0, 0.0)
            ).log_prob(T.tensor(0.0))
        ),
    )


@program()
def prog_dff_mixture_of_mvn(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(20)
    locs = _x(T, 3, 2)
    mix = D.MixtureSameFamily(
        D.Categorical(logits=T.zeros(3)),
        D.MultivariateNormal(locs, T.eye(2).expand(3, 2, 2)),
    )
    v = T.tensor([[0.0, 0.5], [1.0, -1.0]])
    lp = mix.log_prob(v)
    lp.sum().backward()
    return (
        mix.sample((2,)),
        lp,
        locs.grad,
        mix.event_shape,
        mix.mean,
        mix.variance,
        raises(lambda: mix.cdf(v)),
    )


@program()
def prog_dff_wishart_lkj(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(21)
    w = D.Wishart(T.tensor(4.0), covariance_matrix=T.eye(2))
    s = w.sample()
    lkj = D.LKJCholesky(3, T.tensor(2.0))
    L = lkj.sample()
    return (
        s,
        w.log_prob(s),
        w.mean,
        w.variance,
        w.entropy(),
        L,
        lkj.log_prob(L),
        raises(lambda: D.Wishart(T.tensor(0.5), covariance_matrix=T.eye(2), validate_args=True)),
        raises(lambda: D.LKJCholesky(1, 1.0)),
    )


@program()
def prog_dff_func_functional_call_buffers(T: Any) -> Any:
    func = T.func
    bn = T.nn.BatchNorm1d(3)
    x = T.tensor(_data(4, 3))
    bufs = {"running_mean": T.ones(3), "running_var": T.full((3,), 2.0)}
    out = func.functional_call(bn, bufs, (x,))
    bn.eval()
    out_eval = func.functional_call(bn, bufs, (x,))
    return (
        out,
        out_eval,
        bufs["running_mean"],
        bn.running_mean,
        bn.num_batches_tracked,
    )


@program()
def prog_dff_func_jacrev_chunks_and_kwargs(T: Any) -> Any:
    func = T.func
    x = T.tensor(_data(5))

    def f(a: Any) -> Any:
        return a.sin().cumsum(0)

    return (
        func.jacrev(f, chunk_size=2)(x),
        func.jacrev(f, chunk_size=10)(x),
        func.vmap(lambda a: a * 2, chunk_size=3)(T.tensor(_data(7, 2))),
        raises(lambda: func.grad(lambda a, k=1.0: (a * k).sum())(x, k=2.0)),
        func.grad(lambda a, k=1.0: (a * k).sum())(x, k=3.0),
        raises(lambda: func.jacrev(f, chunk_size=-1)(x)),
    )


@program()
def prog_dff_fft_norm_roundtrips_odd(T: Any) -> Any:
    x = T.tensor(_data(7, seed=4), dtype=T.float64)
    out = []
    for norm in ("backward", "ortho", "forward"):
        out.append(T.fft.ifft(T.fft.fft(x, norm=norm), norm=norm).real)
        out.append(T.fft.irfft(T.fft.rfft(x, norm=norm), n=7, norm=norm))
        out.append(T.fft.ihfft(T.fft.hfft(x[:4], n=7, norm=norm), norm=norm))
        out.append(T.fft.irfftn(T.fft.rfftn(x.reshape(1, 7), norm=norm), s=(1, 7), norm=norm))
    out.append(T.fft.irfft(T.fft.rfft(x)))  # the default n loses the odd length
    return out


@program()
def prog_dff_mvn_log_prob_batched_values(T: Any) -> Any:
    # torch's _batch_mahalanobis regroups the value's batch dims around one triangular solve
    D = T.distributions
    loc = _x(T, 3, 2)
    L = T.tensor([[1.0, 0.0], [0.5, 2.0]], requires_grad=True)
    d = D.MultivariateNormal(loc, scale_tril=L)
    v = T.tensor(_data(4, 3, 2, seed=5))
    lp = d.log_prob(v)
    lp.sum().backward()
    cf = T.tensor(_data(3, 2, 1, seed=6), requires_grad=True)
    lr = D.LowRankMultivariateNormal(loc.detach(), cf, T.ones(3, 2))
    lq = lr.log_prob(v)
    lq.sum().backward()
    return lp, lp.grad_fn, loc.grad, L.grad, lq, cf.grad


@program()
def prog_dff_lowrank_mvn_log_prob_graph(T: Any) -> Any:
    D = T.distributions
    cf = T.tensor(_data(3, 2, 1, seed=6), requires_grad=True)
    lr = D.LowRankMultivariateNormal(T.zeros(3, 2), cf, T.ones(3, 2))
    return lr.log_prob(T.tensor(_data(4, 3, 2, seed=5))).grad_fn


@program()
def prog_dff_gamma_dirichlet_double_backward(T: Any) -> Any:
    # _standard_gamma records StandardGammaBackward0 whose gradient is _standard_gamma_grad (not
    # differentiable); _Dirichlet's backward is once_differentiable
    D = T.distributions
    T.manual_seed(22)
    a = T.tensor([0.5, 2.0], requires_grad=True)
    s = D.Gamma(a, 1.0).rsample((2,))
    (g,) = T.autograd.grad(s.sum(), a, create_graph=True)
    c = T.tensor([0.5, 2.0, 1.0], requires_grad=True)
    x = D.Dirichlet(c).rsample()
    (gd,) = T.autograd.grad(x[0], c, create_graph=True)
    chi = D.Chi2(T.tensor([3.0], requires_grad=True)).rsample()
    return (
        s,
        s.grad_fn,
        g,
        g.grad_fn,
        raises(lambda: g.sum().backward()),
        x.grad_fn,
        gd,
        gd.requires_grad,
        raises(lambda: gd.sum().backward()),
        chi.grad_fn,
    )


@program(
    xfail="autograd.grad of gammainc(a, x) with respect to x alone raises igamma's "
    "not-implemented input derivative when a requires grad too: the engine runs every "
    "formula of a needed node for each input that requires grad, torch only the needed edges "
    "(why Gamma.cdf still goes through its own _Igamma node, not IgammaBackward0)"
)
def prog_dff_gammainc_grad_of_x_only(T: Any) -> Any:
    a = T.tensor([1.5, 2.0], requires_grad=True)
    x = T.tensor([0.3, 0.9], requires_grad=True)
    y = T.special.gammainc(a, x)
    return T.autograd.grad(y.sum(), x, retain_graph=True), raises(lambda: y.sum().backward())


@program()
def prog_dff_distribution_constructor_errors(T: Any) -> Any:
    D = T.distributions
    t = T.tensor
    cases = {
        "uniform_eq": lambda: D.Uniform(t(1.0), t(1.0)),
        "cat_2d_neg": lambda: D.Categorical(t([[0.5, -0.5]])),
        "binom_bad_count": lambda: D.Binomial(t(2.5), t(0.5)),
        "geom_p0": lambda: D.Geometric(t(0.0)),
        "geom_p1_entropy": lambda: D.Geometric(t(1.0)).entropy(),
        "mvn_nonsym": lambda: D.MultivariateNormal(T.zeros(2), t([[1.0, 0.5], [0.0, 1.0]])),
        "mvn_shape": lambda: D.MultivariateNormal(T.zeros(3), T.eye(2)),
        "lowrank_shape": lambda: D.LowRankMultivariateNormal(T.zeros(2), T.ones(3, 1), T.ones(2)),
        "lowrank_1d": lambda: D.LowRankMultivariateNormal(T.zeros(2), T.ones(2), T.ones(2)),
        "studentT_df0": lambda: D.StudentT(t(0.0)),
        "vonmises_neg": lambda: D.VonMises(t(0.0), t(-1.0)),
        "multinom_wrong_count": lambda: D.Multinomial(2, t([0.5, 0.5])).log_prob(t([1.0, 0.0])),
        "cat_lp_float": lambda: D.Categorical(t([0.5, 0.5])).log_prob(t(0.5)),
        "binom_lp_neg": lambda: D.Binomial(3, t(0.5)).log_prob(t(-1.0)),
        "td_bad_transform": lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), [1]),
        "relaxed_temp_neg": lambda: D.RelaxedBernoulli(t(-1.0), t(0.5)),
        "cb_probs_bad": lambda: D.ContinuousBernoulli(t(1.5)),
        "wishart_df_small": lambda: D.Wishart(t(0.5), T.eye(2)),
        "sample_shape_bad": lambda: D.Normal(0.0, 1.0).sample("a"),
        "gpd_bad": lambda: D.GeneralizedPareto(t(0.0), t(-1.0), t(0.1)),
        "nb_count_neg": lambda: D.NegativeBinomial(t(-1.0), t(0.5)),
    }
    return {k: raises(f) for k, f in cases.items()}


@program()
def prog_dff_func_api_errors(T: Any) -> Any:
    F = T.func
    x = T.ones(3)
    y = T.ones(2)
    cases = {
        "vjp_nontensor_out": lambda: F.vjp(lambda a: 3.0, x),
        "vjp_aux_bad": lambda: F.vjp(lambda a: a, x, has_aux=True),
        "vjp_ct_structure": lambda: F.vjp(lambda a: (a, a), x)[1](x),
        "vjp_ct_dtype": lambda: F.vjp(lambda a: a, x)[1](x.double()),
        "vjp_nontensor_primal": lambda: F.vjp(lambda a: a, 3.0),
        "jvp_tangent_not_tuple": lambda: F.jvp(lambda a: a, (x,), x),
        "jvp_nontensor_primal": lambda: F.jvp(lambda a: a, (3.0,), (1.0,)),
        "jacrev_nontensor_out": lambda: F.jacrev(lambda a: 3.0)(x),
        "jacrev_argnums_dup": lambda: F.jacrev(lambda a, b: a, argnums=(0, 0))(x, y),
        "jacrev_int_input": lambda: F.jacrev(lambda a: a * 2)(T.arange(3)),
        "grad_int_input": lambda: F.grad(lambda a: a.sum())(T.arange(3)),
        "hessian_nonscalar": lambda: F.hessian(lambda a: a)(x),
        "vmap_in_dims_list": lambda: F.vmap(lambda a: a, in_dims=[0])(x),
        "vmap_out_dims_range": lambda: F.vmap(lambda a: a, out_dims=3)(T.ones(2, 3)),
        "vmap_dict_in_dims_bad": lambda: F.vmap(lambda d: d["a"], in_dims=({"b": 0},))({"a": x}),
        "call_args_list": lambda: F.functional_call(T.nn.Linear(3, 1), {}, [T.ones(3)]),
    }
    _warm_jvp(T)
    return {k: raises(f) for k, f in cases.items()}


@program()
def prog_dff_transform_shapes_and_broadcast_errors(T: Any) -> Any:
    D = T.distributions
    tr = D.transforms
    aff = tr.AffineTransform(1.0, T.tensor([2.0, -1.0]), event_dim=1)
    pw = tr.PowerTransform(T.tensor([2.0, 3.0]))
    return (
        aff.forward_shape((5, 2)),
        pw.inverse_shape((4, 2)),
        tr.StickBreakingTransform().inverse_shape((3, 4)),
        tr.ReshapeTransform((4,), (2, 2)).forward_shape((3, 4)),
        raises(lambda: aff.forward_shape((3, 4))),
        raises(lambda: pw.inverse_shape((3,))),
        raises(lambda: D.MultivariateNormal(T.zeros(3, 2), T.eye(2).expand(2, 2, 2))),
        raises(lambda: tr.ReshapeTransform((4,), (2, 2)).forward_shape((3, 5))),
    )


@program()
def prog_dff_func_vmap_pytree_out_dims(T: Any) -> Any:
    func = T.func
    x = T.arange(6.0).reshape(2, 3)
    y = T.arange(4.0).reshape(2, 2)

    def f(a: Any) -> Any:
        return {"u": a, "v": (a, a.sum())}

    return (
        func.vmap(f, out_dims={"u": 1, "v": (0, 0)})(x),
        func.vmap(f, out_dims={"u": 1, "v": 0})(x),
        raises(lambda: func.vmap(f, out_dims={"u": 1})(x)),
        raises(lambda: func.vmap(f, out_dims={"u": "a", "v": 0})(x)),
        func.vmap(lambda t: t[0] + t[1].sum(), in_dims=((0, None),))((x, y)),
        func.vmap(lambda a: [a, a * 2], out_dims=[1, 0])(x),
        func.vmap(func.vmap(lambda a: a * 2, out_dims=0), out_dims=1)(x),
        raises(lambda: func.vmap(lambda t: t[0], in_dims=((0, 0),))((x, T.ones(3)))),
    )


@program()
def prog_dff_moments_modes_and_edges(T: Any) -> Any:
    D = T.distributions
    t = T.tensor
    T.manual_seed(3)
    cases = {
        "sample_list": lambda: D.Normal(0.0, 1.0).sample([2, 3]).shape,
        "sample_Size": lambda: D.Normal(T.zeros(2), 1.0).sample(T.Size([4])).shape,
        "rsample_expanded": lambda: D.Normal(t([0.0, 1.0]), t([1.0, 2.0])).expand((3, 2)).rsample(),
        "lp_broadcast": lambda: D.Normal(T.zeros(2), 1.0).log_prob(T.zeros(5, 1)),
        "ind_cat_entropy": lambda: D.Independent(D.Categorical(T.ones(2, 3)), 1).entropy(),
        "td_exp_cdf": lambda: D.TransformedDistribution(
            D.Normal(0.0, 1.0), [D.transforms.ExpTransform()]
        ).cdf(t([0.5, 2.0])),
        "td_neg_aff_cdf": lambda: D.TransformedDistribution(
            D.Normal(0.0, 1.0), [D.transforms.AffineTransform(0.0, -1.0)]
        ).cdf(t([0.5, 2.0])),
        "enum_expanded": lambda: D.Categorical(T.ones(3)).expand((2,)).enumerate_support(),
        "cat_unnorm_zero": lambda: D.Categorical(t([0.0, 2.0, 6.0])).sample((5,)),
        "binom_zero_count": lambda: D.Binomial(0, t(0.3)).log_prob(t(0.0)),
        "binom_sample_zero": lambda: D.Binomial(t([0.0, 3.0]), t([0.5, 0.5])).sample(),
        "pois_lp_zero_rate": lambda: D.Poisson(t([0.0, 0.0])).log_prob(t([0.0, 1.0])),
        "geom_mean_var": lambda: (
            D.Geometric(t([0.25])).mean,
            D.Geometric(t([0.25])).variance,
            D.Geometric(t([0.25])).mode,
        ),
        "nb_mode": lambda: D.NegativeBinomial(t([3.0, 0.5]), t([0.4, 0.4])).mode,
        "binom_mode": lambda: D.Binomial(t([3.0, 4.0]), t([0.5, 0.25])).mode,
        "pois_mode": lambda: D.Poisson(t([2.5, 3.0])).mode,
        "beta_mode": lambda: D.Beta(t([0.5, 2.0, 1.0]), t([0.5, 3.0, 1.0])).mode,
        "gamma_mode": lambda: D.Gamma(t([0.5, 2.0]), t([1.0, 2.0])).mode,
        "dir_mode": lambda: D.Dirichlet(t([[0.5, 0.5], [2.0, 3.0]])).mode,
        "mvn_entropy_batch": lambda: D.MultivariateNormal(T.zeros(3, 2), T.eye(2)).entropy(),
        "lowrank_var": lambda: (
            D.LowRankMultivariateNormal(T.zeros(2), T.ones(2, 1), T.ones(2)).variance
        ),
        "weibull_mode": lambda: D.Weibull(t([1.0, 2.0]), t([0.5, 3.0])).mode,
        "studentT_mean_var": lambda: (
            D.StudentT(t([0.5, 1.5, 3.0])).mean,
            D.StudentT(t([0.5, 1.5, 3.0])).variance,
        ),
        "halfcauchy_lp_neg": lambda: D.HalfCauchy(1.0, validate_args=False).log_prob(
            t([-1.0, 1.0])
        ),
        "halfnormal_lp_neg": lambda: D.HalfNormal(1.0, validate_args=False).log_prob(
            t([-1.0, 1.0])
        ),
        "uniform_lp_out": lambda: D.Uniform(0.0, 1.0, validate_args=False).log_prob(
            t([-1.0, 0.5, 1.0])
        ),
        "uniform_cdf_out": lambda: D.Uniform(0.0, 1.0, validate_args=False).cdf(
            t([-1.0, 0.5, 2.0])
        ),
        "exp_cdf_neg": lambda: D.Exponential(1.0, validate_args=False).cdf(t([-1.0, 0.5])),
        "lap_icdf_edges": lambda: D.Laplace(0.0, 1.0).icdf(t([0.0, 1.0])),
        "cauchy_icdf_edges": lambda: D.Cauchy(0.0, 1.0).icdf(t([0.0, 1.0])),
        "normal_icdf_edges": lambda: D.Normal(0.0, 1.0).icdf(t([0.0, 1.0])),
        "cb_mean_half": lambda: D.ContinuousBernoulli(t([0.5, 0.499, 0.2])).mean,
        "cb_var_half": lambda: D.ContinuousBernoulli(t([0.5, 0.499, 0.2])).variance,
        "cb_entropy": lambda: D.ContinuousBernoulli(t([0.5, 0.499, 0.2])).entropy(),
        "cb_cdf": lambda: D.ContinuousBernoulli(t([0.5, 0.2])).cdf(t([0.3, 0.3])),
        "cb_icdf": lambda: D.ContinuousBernoulli(t([0.5, 0.2])).icdf(t([0.3, 0.3])),
        "cb_sample": lambda: D.ContinuousBernoulli(t([0.5, 0.2])).rsample((2,)),
        "vm_entropy": lambda: D.VonMises(t(0.0), t(2.0)).entropy(),
        "kum_mean_var": lambda: (
            D.Kumaraswamy(t(2.0), t(3.0)).mean,
            D.Kumaraswamy(t(2.0), t(3.0)).variance,
            D.Kumaraswamy(t(2.0), t(3.0)).entropy(),
        ),
        "gpd_stats": lambda: (
            D.GeneralizedPareto(t(0.0), t(1.0), t([0.2, 0.6, -0.3])).mean,
            D.GeneralizedPareto(t(0.0), t(1.0), t([0.2, 0.6, -0.3])).variance,
            D.GeneralizedPareto(t(0.0), t(1.0), t([0.2, 0.6, -0.3])).entropy(),
            D.GeneralizedPareto(t(0.0), t(1.0), t([0.2, -0.3])).icdf(t([0.5, 0.5])),
        ),
    }
    return {k: raises(f) for k, f in cases.items()}


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
