"""More torch.distributions against torch: transforms, the constraint registry,
TransformedDistribution and the families built on it, the heavier-tailed and compound families,
reparameterized gamma draws and the cross-family KL pairs. The same programs, from the same
numpy inputs, run through both libraries."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad
from compat import test_distributions as base
from compat.test_distributions import LIBS, _close, _err

RNG = np.random.default_rng(1)
POS3 = np.array([0.5, 1.5, 3.0])
SIMPLEX4 = np.array([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.4, 0.1]])


def _tf(T, *parts):
    """A TransformedDistribution of a float64 Normal through ``parts(T)``."""
    return lambda T_, a, b: T_.distributions.TransformedDistribution(
        T_.distributions.Normal(a, b), parts[0](T_)
    )


CASES = {
    "LogNormal": (
        lambda T, a, b: T.distributions.LogNormal(a, b),
        [RNG.normal(size=3), POS3],
        np.array([0.4, 1.3, 5.0]),
    ),
    "Gumbel": (
        lambda T, a, b: T.distributions.Gumbel(a, b),
        [RNG.normal(size=3), POS3],
        RNG.normal(size=(2, 3)),
    ),
    "HalfNormal": (
        lambda T, s: T.distributions.HalfNormal(s),
        [POS3],
        np.array([0.2, 0.0, 4.0]),
    ),
    "HalfCauchy": (
        lambda T, s: T.distributions.HalfCauchy(s),
        [POS3],
        np.array([0.2, 0.0, 4.0]),
    ),
    "Weibull": (
        lambda T, s, c: T.distributions.Weibull(s, c),
        [POS3, np.array([0.7, 1.0, 2.5])],
        np.array([0.3, 1.0, 2.0]),
    ),
    "Kumaraswamy": (
        lambda T, a, b: T.distributions.Kumaraswamy(a, b),
        [np.array([0.5, 2.0, 3.0]), np.array([1.5, 0.7, 3.0])],
        np.array([0.3, 0.9, 0.5]),
    ),
    "Pareto": (
        lambda T, s, a: T.distributions.Pareto(s, a),
        [POS3, np.array([0.7, 2.5, 4.0])],
        np.array([0.6, 2.0, 3.5]),
    ),
    "LogisticNormal": (
        lambda T, a, b: T.distributions.LogisticNormal(a, b),
        [RNG.normal(size=(2, 3)), np.full((2, 3), 0.8)],
        SIMPLEX4,
    ),
    "RelaxedBernoulli": (
        lambda T, p: T.distributions.RelaxedBernoulli(T.tensor(0.7, dtype=T.float64), probs=p),
        [np.array([0.2, 0.6, 0.9])],
        np.array([0.1, 0.5, 0.99]),
    ),
    "RelaxedBernoulli-logits": (
        lambda T, lg: T.distributions.RelaxedBernoulli(
            T.tensor([0.5, 2.0, 1.0], dtype=T.float64), logits=lg
        ),
        [np.array([-1.0, 0.3, 2.0])],
        np.array([0.1, 0.5, 0.99]),
    ),
    "RelaxedOneHotCategorical": (
        lambda T, p: T.distributions.RelaxedOneHotCategorical(
            T.tensor(0.6, dtype=T.float64), probs=p
        ),
        [SIMPLEX4],
        SIMPLEX4[::-1].copy(),
    ),
    "Cauchy": (
        lambda T, a, b: T.distributions.Cauchy(a, b),
        [RNG.normal(size=3), POS3],
        RNG.normal(size=(2, 3)),
    ),
    "Chi2": (
        lambda T, df: T.distributions.Chi2(df),
        [np.array([0.5, 3.0, 7.0])],
        np.array([0.3, 2.9, 5.0]),
    ),
    "StudentT": (
        lambda T, df, a, b: T.distributions.StudentT(df, a, b),
        [np.array([0.7, 1.5, 5.0]), RNG.normal(size=3), POS3],
        RNG.normal(size=(2, 3)),
    ),
    "FisherSnedecor": (
        lambda T, a, b: T.distributions.FisherSnedecor(a, b),
        [np.array([1.5, 3.0, 7.0]), np.array([1.0, 4.5, 9.0])],
        np.array([0.3, 2.9, 5.0]),
    ),
    "Transformed-affine-tanh": (
        lambda T, a, b: T.distributions.TransformedDistribution(
            T.distributions.Normal(a, b),
            [T.distributions.AffineTransform(0.5, -2.0), T.distributions.TanhTransform()],
        ),
        [RNG.normal(size=3), POS3],
        np.array([-0.5, 0.1, 0.9]),
    ),
    "Transformed-stickbreaking": (
        lambda T, a, b: T.distributions.TransformedDistribution(
            T.distributions.Normal(a, b), T.distributions.StickBreakingTransform()
        ),
        [RNG.normal(size=(2, 3)), np.full((2, 3), 0.8)],
        SIMPLEX4,
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


@pytest.mark.parametrize("name", list(CASES))
def test_cdf_icdf(name):
    value = CASES[name][2]
    _compare_fn(name, lambda d, v: d.cdf(v), value)
    d, _ = _build(torch, name)
    q = np.full(tuple(d.batch_shape) + tuple(d.event_shape), 0.3)
    _compare_fn(name, lambda d, v: d.icdf(v), q)


@pytest.mark.parametrize("name", list(CASES))
def test_sample_shapes_and_support(name):
    base._check_sample_shapes(name, CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_expand(name):
    base._check_expand(name, CASES)


def _patch_noise(monkeypatch, u, z, e):
    """Feed the same uniform, normal and exponential noise to both libraries."""
    for T in LIBS:
        mod = T.distributions
        monkeypatch.setattr(T, "rand", lambda shape, dtype=None, device=None, T=T: T.tensor(u))
        fake = lambda shape, dtype, device=None, T=T: T.tensor(z, dtype=dtype)  # noqa: E731
        monkeypatch.setattr(mod.normal, "_standard_normal", fake)
        monkeypatch.setattr(
            mod.Exponential, "rsample", lambda self, s=(), T=T: T.tensor(e) / self.rate
        )
        monkeypatch.setattr(
            mod.Cauchy,
            "rsample",
            lambda self, s=(), T=T: self.loc + T.tan(np.pi * (T.tensor(u) - 0.5)) * self.scale,
        )


@pytest.mark.parametrize(
    "name", [n for n in CASES if n not in ("Cauchy", "Chi2", "StudentT", "FisherSnedecor")]
)
def test_rsample_same_noise(name, monkeypatch):
    d, _ = _build(torch, name)
    if not d.has_rsample:
        return
    base = d.base_dist if hasattr(d, "base_dist") else d
    while hasattr(base, "base_dist"):
        base = base.base_dist
    shape = (5, *tuple(base.batch_shape), *tuple(base.event_shape))
    u = RNG.uniform(0.05, 0.95, size=shape)
    _patch_noise(monkeypatch, u, RNG.normal(size=shape), RNG.exponential(size=shape))
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


# --- transforms ----------------------------------------------------------------------------

X23 = RNG.normal(size=(2, 3))
Y_POS = np.abs(RNG.normal(size=(2, 3))) + 0.1
Y_UNIT = RNG.uniform(0.05, 0.95, size=(2, 3))

# name -> (factory(T), x in the domain, y in the codomain)
TRANSFORMS = {
    "Exp": (lambda T: T.distributions.ExpTransform(), X23, Y_POS),
    "Affine": (lambda T: T.distributions.AffineTransform(1.5, -2.0), X23, X23),
    "Affine-tensor": (
        lambda T: T.distributions.AffineTransform(T.tensor([0.5, 1.0, -1.0]), T.tensor(POS3)),
        X23,
        X23,
    ),
    "Affine-event": (
        lambda T: T.distributions.AffineTransform(0.5, T.tensor(POS3), event_dim=1),
        X23,
        X23,
    ),
    "Sigmoid": (lambda T: T.distributions.SigmoidTransform(), X23, Y_UNIT),
    "Softplus": (lambda T: T.distributions.SoftplusTransform(), X23, Y_POS),
    "Tanh": (lambda T: T.distributions.TanhTransform(), X23 * 10, Y_UNIT * 2 - 1),
    "Power": (lambda T: T.distributions.PowerTransform(T.tensor(POS3)), Y_POS, Y_POS),
    "Power-neg": (lambda T: T.distributions.PowerTransform(-0.5), Y_POS, Y_POS),
    "Abs": (lambda T: T.distributions.AbsTransform(), X23, Y_POS),
    "Softmax": (lambda T: T.distributions.SoftmaxTransform(), X23, SIMPLEX4[:, :3] / 0.9),
    "StickBreaking": (lambda T: T.distributions.StickBreakingTransform(), X23, SIMPLEX4),
    "LowerCholesky": (
        lambda T: T.distributions.LowerCholeskyTransform(),
        RNG.normal(size=(2, 3, 3)),
        np.tril(RNG.uniform(0.5, 1.0, size=(2, 3, 3))),
    ),
    "PositiveDefinite": (
        lambda T: T.distributions.PositiveDefiniteTransform(),
        RNG.normal(size=(2, 3, 3)),
        np.array([[[2.0, 0.3, 0.1], [0.3, 1.5, -0.2], [0.1, -0.2, 1.0]]] * 2),
    ),
    "Independent": (
        lambda T: T.distributions.IndependentTransform(T.distributions.ExpTransform(), 1),
        X23,
        Y_POS,
    ),
    "Reshape": (
        lambda T: T.distributions.ReshapeTransform((3,), (3, 1)),
        X23,
        X23[..., None],
    ),
    "Compose": (
        lambda T: T.distributions.ComposeTransform(
            [
                T.distributions.AffineTransform(0.3, 2.0),
                T.distributions.ExpTransform(),
                T.distributions.PowerTransform(2.0),
            ]
        ),
        X23,
        Y_POS,
    ),
    "Compose-event": (
        lambda T: T.distributions.ComposeTransform(
            [T.distributions.ExpTransform(), T.distributions.StickBreakingTransform()]
        ),
        X23,
        SIMPLEX4,
    ),
    "Inverse-Exp": (lambda T: T.distributions.ExpTransform().inv, Y_POS, X23),
    "Identity": (lambda T: T.distributions.transforms.identity_transform, X23, X23),
    "Cat": (
        lambda T: T.distributions.CatTransform(
            [T.distributions.ExpTransform(), T.distributions.SigmoidTransform()], 1, [2, 1]
        ),
        X23,
        np.concatenate([Y_POS[:, :2], Y_UNIT[:, :1]], 1),
    ),
    "Stack": (
        lambda T: T.distributions.StackTransform(
            [T.distributions.ExpTransform(), T.distributions.TanhTransform()], 0
        ),
        X23,
        np.stack([Y_POS[0], Y_UNIT[0]]),
    ),
}


def _same(fn):
    """Compare ``fn(T)`` (a tensor, a value, or an exception) across libraries."""
    outs = []
    for T in LIBS:
        try:
            outs.append(("ok", fn(T)))
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    (kt, rt), (ks, rs) = outs
    assert kt == ks, (outs, fn)
    if kt != "ok":
        assert rt == rs
    elif hasattr(rt, "detach"):
        _close(rt, rs)
        assert str(rt.dtype) == str(rs.dtype)
    else:
        assert rt == rs or repr(rt) == repr(rs), (rt, rs)
    return outs


@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_transform(name):
    make, x, y = TRANSFORMS[name]
    _same(lambda T: repr(make(T)))
    _same(lambda T: repr(make(T).domain))
    _same(lambda T: repr(make(T).codomain))
    _same(lambda T: (make(T).domain.event_dim, make(T).codomain.event_dim))
    _same(lambda T: make(T).bijective)
    _same(lambda T: make(T).event_dim)
    _same(lambda T: make(T).sign * 1)
    _same(lambda T: tuple(make(T).forward_shape(torch.Size(x.shape))))
    _same(lambda T: tuple(make(T).inverse_shape(torch.Size(y.shape))))
    _same(lambda T: repr(make(T).inv))
    _same(lambda T: make(T) == make(T))
    for inv in (False, True):
        arg = y if inv else x
        for T_name in ("call", "ladj"):
            grads = []
            for T in LIBS:
                t = make(T)
                t = t.inv if inv else t
                a = T.tensor(arg, requires_grad=True)
                try:
                    out = t(a) if T_name == "call" else t.log_abs_det_jacobian(a, t(a))
                except NotImplementedError:
                    grads.append(None)
                    continue
                g = None
                if out.requires_grad and out.grad_fn is not None:
                    g = T.autograd.grad((out * out).sum(), [a])[0]
                grads.append((out, g, out.grad_fn and out.grad_fn.name()))
            assert (grads[0] is None) == (grads[1] is None), (name, inv, T_name)
            if grads[0] is not None:
                (ot, gt, nt), (os_, gs, ns) = grads
                _close(ot, os_)
                assert nt == ns, (name, inv, T_name)
                assert (gt is None) == (gs is None)
                if gt is not None:
                    _close(gt, gs)


def test_transform_cache_and_with_cache():
    for T in LIBS:
        D = T.distributions
        t = D.ExpTransform(cache_size=1)
        x = T.tensor(X23)
        y = t(x)
        assert t(x) is y and t.inv(y) is x
        assert D.ExpTransform().with_cache().inv(D.ExpTransform().with_cache()(x)) is not x
        c = D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 2.0)], cache_size=1)
        assert c.parts[1]._cache_size == 1
        assert c.inv.inv is c
        assert t.inv.inv is t
    _same(lambda T: T.distributions.ExpTransform(cache_size=2))
    _same(lambda T: T.distributions.AffineTransform(0.0, 1.0).with_cache(1)._cache_size)
    _same(lambda T: T.distributions.ReshapeTransform((2, 3), (5,)))
    _same(lambda T: T.distributions.ReshapeTransform((2, 3), (6,)).forward_shape((3, 3)))
    _same(lambda T: T.distributions.ReshapeTransform((2, 3), (6,)).forward_shape((3,)))
    _same(lambda T: T.distributions.StickBreakingTransform().forward_shape(()))
    _same(lambda T: T.distributions.SigmoidTransform().event_dim)
    _same(lambda T: T.distributions.ComposeTransform([T.distributions.ExpTransform()]).event_dim)
    _same(lambda T: T.distributions.Transform().sign)
    _same(lambda T: T.distributions.StackTransform([T.distributions.ExpTransform()])(T.ones(2)))
    _same(lambda T: T.distributions.CatTransform([T.distributions.ExpTransform()])(T.ones(2, 1)))
    _same(lambda T: T.distributions.CatTransform([T.distributions.ExpTransform()], 2)(T.ones(2)))
    _same(lambda T: T.distributions.CatTransform([T.distributions.ExpTransform()], 0, [1, 2]))
    _same(lambda T: T.distributions.CatTransform([3]))


CONSTRAINTS = {
    "real": lambda C: C.real,
    "positive": lambda C: C.positive,
    "nonnegative": lambda C: C.nonnegative,
    "greater_than": lambda C: C.greater_than(2.0),
    "greater_than_eq": lambda C: C.greater_than_eq(-1.0),
    "less_than": lambda C: C.less_than(3.0),
    "unit_interval": lambda C: C.unit_interval,
    "interval": lambda C: C.interval(-1.0, 2.0),
    "half_open": lambda C: C.half_open_interval(0.0, 5.0),
    "simplex": lambda C: C.simplex,
    "real_vector": lambda C: C.real_vector,
    "independent": lambda C: C.independent(C.positive, 1),
    "lower_cholesky": lambda C: C.lower_cholesky,
    "positive_definite": lambda C: C.positive_definite,
    "integer": lambda C: C.nonnegative_integer,
    "cat": lambda C: C.cat([C.positive, C.unit_interval], 1, [2, 1]),
    "stack": lambda C: C.stack([C.positive, C.real], 0),
}


@pytest.mark.parametrize("reg", ["biject_to", "transform_to"])
@pytest.mark.parametrize("cname", list(CONSTRAINTS))
def test_constraint_registry(cname, reg):
    def get(T):
        return getattr(T.distributions, reg)(CONSTRAINTS[cname](T.distributions.constraints))

    outs = _same(lambda T: repr(get(T)))
    if outs[0][0] != "ok":
        return
    x = RNG.normal(size=(2, 3, 3)) if "cholesky" in cname or "definite" in cname else X23
    for T in LIBS:
        y = get(T)(T.tensor(x))
        assert bool(CONSTRAINTS[cname](T.distributions.constraints).check(y).all())
    _same(lambda T: get(T)(T.tensor(x)))
    _same(lambda T: get(T).log_abs_det_jacobian(T.tensor(x), get(T)(T.tensor(x))))


def test_registry_register_errors():
    _same(lambda T: T.distributions.biject_to.register(int, lambda c: None))
    for T in LIBS:
        C = T.distributions.constraints

        class MyC(C.Constraint):
            pass

        with pytest.raises(NotImplementedError, match="Cannot transform MyC constraints"):
            T.distributions.biject_to(MyC())


# --- errors --------------------------------------------------------------------------------

ERRORS = {
    "td-transforms-type": lambda T: T.distributions.TransformedDistribution(
        T.distributions.Normal(0.0, 1.0), 3
    ),
    "td-transforms-list": lambda T: T.distributions.TransformedDistribution(
        T.distributions.Normal(0.0, 1.0), [3]
    ),
    "td-too-small": lambda T: T.distributions.TransformedDistribution(
        T.distributions.Normal(0.0, 1.0), T.distributions.StickBreakingTransform()
    ),
    "lognormal-support": lambda T: T.distributions.LogNormal(0.0, 1.0).log_prob(T.tensor(-1.0)),
    "lognormal-scale": lambda T: T.distributions.LogNormal(0.0, T.tensor(-1.0)),
    "halfnormal-scale": lambda T: T.distributions.HalfNormal(T.tensor([-1.0])),
    "halfnormal-value": lambda T: T.distributions.HalfNormal(1.0).log_prob(T.tensor(-1.0)),
    "pareto-support": lambda T: T.distributions.Pareto(2.0, 1.0).log_prob(T.tensor(1.0)),
    "weibull-conc": lambda T: T.distributions.Weibull(1.0, T.tensor(-1.0)),
    "gumbel-scale": lambda T: T.distributions.Gumbel(0.0, T.tensor(0.0)),
    "kumaraswamy-value": lambda T: T.distributions.Kumaraswamy(1.0, 1.0).log_prob(T.tensor(1.5)),
    "cauchy-scale": lambda T: T.distributions.Cauchy(0.0, T.tensor(-2.0)),
    "relaxed-none": lambda T: T.distributions.RelaxedBernoulli(T.tensor(1.0)),
    "relaxed-value": lambda T: T.distributions.RelaxedBernoulli(
        T.tensor(1.0), T.tensor(0.3)
    ).log_prob(T.tensor(2.0)),
    "logisticnormal-value": lambda T: T.distributions.LogisticNormal(
        T.zeros(2), T.ones(2)
    ).log_prob(T.tensor([0.5, 0.6, 0.2])),
}


@pytest.mark.parametrize("key", list(ERRORS))
def test_errors_match_torch(key):
    ref = _err(lambda: ERRORS[key](torch))
    got = _err(lambda: ERRORS[key](shadowgrad))
    assert ref is not None
    assert got == ref


# --- reparameterized gamma -----------------------------------------------------------------


def test_standard_gamma_grad_matches_torch():
    from shadowgrad.distributions._gamma_grad import standard_gamma_grad

    a = np.concatenate([RNG.uniform(0.05, 3, 300), RNG.uniform(3, 300, 300), [0.01, 1e3, 5e3]])
    x = np.maximum(RNG.standard_gamma(a), 1e-300)
    ref = torch._standard_gamma_grad(torch.tensor(a), torch.tensor(x)).numpy()
    # torch's own derivative is an approximation (relative error ~1e-4)
    np.testing.assert_allclose(standard_gamma_grad(a, x), ref, rtol=5e-4)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_gamma_rsample_gradient(dtype):
    shadowgrad.manual_seed(4)
    conc = np.array([0.3, 1.0, 2.5, 40.0])
    rate = np.array([1.5, 0.7, 2.0, 0.1])
    w = np.random.default_rng(7).normal(size=(6, 4))  # its own generator: any test order
    c = shadowgrad.tensor(conc, dtype=getattr(shadowgrad, dtype), requires_grad=True)
    r = shadowgrad.tensor(rate, dtype=getattr(shadowgrad, dtype), requires_grad=True)
    x = shadowgrad.distributions.Gamma(c, r).rsample((6,))
    assert x.grad_fn.name() == "DivBackward0" and str(x.dtype) == f"torch.{dtype}"
    gc, gr = shadowgrad.autograd.grad((x * shadowgrad.tensor(w)).sum(), [c, r])
    # the same draws through torch's own gradient of the standard gamma draw
    ct = torch.tensor(conc, dtype=getattr(torch, dtype), requires_grad=True)
    rt = torch.tensor(rate, dtype=getattr(torch, dtype), requires_grad=True)
    std = torch.tensor(x.detach().numpy()) * rt.detach()
    dstd = torch._standard_gamma_grad(ct.detach().expand(6, 4), std)
    xt = (std + (ct - ct.detach()) * dstd) / rt
    gct, grt = torch.autograd.grad((xt * torch.tensor(w, dtype=xt.dtype)).sum(), [ct, rt])
    # torch's gradient of the draw is itself an approximation (about 1e-4 relative); in
    # float32 the six weighted terms of each sum also cancel, so allow an absolute error at
    # the scale of the largest term
    rtol = 1e-3 if dtype == "float64" else 2e-3
    atol = 1e-6 if dtype == "float64" else 2e-3 * float(np.abs(gct.numpy()).max())
    _close(gct, gc, rtol=rtol, atol=atol)
    _close(grt, gr, rtol=rtol, atol=atol)


def _mc_grad(T, make, f, n):
    """d/dparams of a Monte Carlo mean of f(rsample)."""
    d, ps = make(T)
    x = d.rsample((n,))
    return T.autograd.grad(f(x).mean(0).sum(), ps, allow_unused=True)


@pytest.mark.parametrize("family", ["Gamma", "Beta", "Dirichlet", "Chi2", "StudentT", "F"])
def test_rsample_gradient_expectation(family):
    """The reparameterized gradient of E[f(X)] agrees with the exact gradient from torch."""
    shadowgrad.manual_seed(2)

    def make(T):
        D = T.distributions
        if family == "Gamma":
            ps = [
                T.tensor([0.7, 3.0], requires_grad=True),
                T.tensor([2.0, 0.5], requires_grad=True),
            ]
            return D.Gamma(*ps), ps
        if family == "Beta":
            ps = [
                T.tensor([0.7, 3.0], requires_grad=True),
                T.tensor([2.0, 1.5], requires_grad=True),
            ]
            return D.Beta(*ps), ps
        if family == "Dirichlet":
            ps = [T.tensor([0.7, 3.0, 1.2], requires_grad=True)]
            return D.Dirichlet(*ps), ps
        if family == "Chi2":
            ps = [T.tensor([3.0, 7.0], requires_grad=True)]
            return D.Chi2(*ps), ps
        if family == "StudentT":
            ps = [T.tensor([5.0, 9.0], requires_grad=True), T.tensor([0.5, -1.0])]
            ps.append(T.tensor([1.5, 0.7], requires_grad=True))
            return D.StudentT(*ps), [ps[0], ps[2]]
        ps = [T.tensor([6.0, 9.0], requires_grad=True), T.tensor([10.0, 14.0], requires_grad=True)]
        return D.FisherSnedecor(*ps), ps

    d, ps = make(torch)
    # E[x + x^2] = mean + variance + mean^2
    if family == "F":  # heavy tails: the second moment's estimate is too noisy
        exact = torch.autograd.grad(d.mean.sum(), ps, allow_unused=True)
        got = _mc_grad(shadowgrad, make, lambda x: x, 10000)
    else:
        exact = torch.autograd.grad((d.mean + d.variance + d.mean.pow(2)).sum(), ps)
        got = _mc_grad(shadowgrad, make, lambda x: x + x.pow(2), 10000)
    for a, b in zip(exact, got, strict=True):
        a = torch.zeros(2) if a is None else a
        b = shadowgrad.zeros(a.shape) if b is None else b
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=0.1, atol=0.03)


def test_gamma_cdf():
    value = np.array([0.3, 2.9, 0.5, 40.0])
    outs = []
    for T in LIBS:
        c = T.tensor([0.5, 2.0, 3.0, 30.0], requires_grad=True)
        r = T.tensor([1.5, 0.7, 3.0, 1.0], dtype=T.float64)
        v = T.tensor(value, requires_grad=True)
        d = T.distributions.Gamma(c.double(), r)
        cdf = d.cdf(v)
        outs.append((cdf, T.autograd.grad(cdf.sum(), [v], retain_graph=True)[0]))
        with pytest.raises(
            RuntimeError, match=r"the derivative for 'igamma: input' is not implemented\."
        ):
            T.autograd.grad(cdf.sum(), [c])
    _close(outs[0][0], outs[1][0], rtol=1e-9)
    _close(outs[0][1], outs[1][1], rtol=1e-9)


# --- cross-family KL -----------------------------------------------------------------------

_P = {
    "Exponential": lambda T: T.distributions.Exponential(T.tensor([0.5, 2.0], requires_grad=True)),
    "Gamma": lambda T: T.distributions.Gamma(
        T.tensor([0.7, 3.0], requires_grad=True), T.tensor([2.0, 0.5], requires_grad=True)
    ),
    "Beta": lambda T: T.distributions.Beta(
        T.tensor([0.7, 3.0], requires_grad=True), T.tensor([2.0, 1.5], requires_grad=True)
    ),
    "Laplace": lambda T: T.distributions.Laplace(
        T.tensor([0.3, -1.0], requires_grad=True), T.tensor([2.0, 0.5], requires_grad=True)
    ),
    "Uniform": lambda T: T.distributions.Uniform(
        T.tensor([0.1, -1.0], requires_grad=True), T.tensor([0.7, 2.0], requires_grad=True)
    ),
    "Normal": lambda T: T.distributions.Normal(
        T.tensor([0.3, -1.0], requires_grad=True), T.tensor([2.0, 0.5], requires_grad=True)
    ),
    "Uniform-wide": lambda T: T.distributions.Uniform(
        T.tensor([-0.5, 0.0], requires_grad=True), T.tensor([1.0, 3.0], requires_grad=True)
    ),
}
CROSS_KL = [
    ("Exponential", "Gamma"),
    ("Gamma", "Exponential"),
    ("Beta", "Exponential"),
    ("Beta", "Gamma"),
    ("Exponential", "Normal"),
    ("Gamma", "Normal"),
    ("Beta", "Normal"),
    ("Laplace", "Normal"),
    ("Uniform", "Normal"),
    ("Uniform", "Exponential"),
    ("Uniform-wide", "Exponential"),
    ("Beta", "Uniform"),
    ("Beta", "Uniform-wide"),
]


@pytest.mark.parametrize("pn,qn", CROSS_KL)
def test_cross_family_kl(pn, qn):
    outs = []
    for T in LIBS:
        p, q = _P[pn](T), _P[qn](T)
        params = [v for d in (p, q) for v in vars(d).values() if isinstance(v, T.Tensor)]
        params = [v for v in params if v.is_leaf and v.requires_grad]
        if isinstance(p, T.distributions.Beta):
            params = [p._dirichlet.concentration]
        kl = T.distributions.kl_divergence(p, q)
        fin = kl[kl.isfinite()]
        g = T.autograd.grad(fin.sum(), params, allow_unused=True) if fin.numel() else None
        outs.append((kl, g))
    (kt, gt), (ks, gs) = outs
    _close(kt, ks, rtol=1e-5)
    assert (gt is None) == (gs is None)
    for a, b in zip(gt or (), gs or (), strict=True):
        if a is None or b is None:
            assert (b is None or not b.abs().sum()) and (a is None or not a.abs().sum())
        else:
            _close(a, b, rtol=1e-5, atol=1e-7)
