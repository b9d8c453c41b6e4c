"""KL divergence between distributions, dispatched on both types. Mirrors
`torch.distributions.kl`."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from functools import total_ordering
from typing import Any

import shadowgrad as torch
from shadowgrad.nn.functional import softplus

from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .independent import Independent
from .laplace import Laplace
from .lowrank_multivariate_normal import (
    LowRankMultivariateNormal,
    _batch_lowrank_logdet,
    _batch_lowrank_mahalanobis,
)
from .multivariate_normal import MultivariateNormal, _batch_mahalanobis
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .pareto import Pareto
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import _broadcast_shapes, _sum_rightmost, euler_constant

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY: dict = {}  # (type_p, type_q) -> function
_KL_MEMOIZE: dict = {}  # (type(p), type(q)) -> the function dispatch chose


def register_kl(type_p: type, type_q: type) -> Callable:
    """Decorator registering a pairwise function as ``kl_divergence(p, q)`` for these types."""
    if not isinstance(type_p, type) and issubclass(type_p, Distribution):
        raise TypeError(f"Expected type_p to be a Distribution subclass but got {type_p}")
    if not isinstance(type_q, type) and issubclass(type_q, Distribution):
        raise TypeError(f"Expected type_q to be a Distribution subclass but got {type_q}")

    def decorator(fun: Callable) -> Callable:
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()
        return fun

    return decorator


@total_ordering
class _Match:
    """Orders registered type pairs lexicographically by subclass specificity."""

    __slots__ = ["types"]

    def __init__(self, *types: type) -> None:
        self.types = types

    def __eq__(self, other: Any) -> bool:
        return self.types == other.types

    def __le__(self, other: Any) -> bool:
        for x, y in zip(self.types, other.types, strict=False):
            if not issubclass(x, y):
                return False
            if x is not y:
                break
        return True


def _dispatch_kl(type_p: type, type_q: type) -> Any:
    matches = [
        (sp, sq) for sp, sq in _KL_REGISTRY if issubclass(type_p, sp) and issubclass(type_q, sq)
    ]
    if not matches:
        return NotImplemented
    left_p, left_q = min(_Match(*m) for m in matches).types
    right_q, right_p = min(_Match(*reversed(m)) for m in matches).types
    left_fun = _KL_REGISTRY[left_p, left_q]
    right_fun = _KL_REGISTRY[right_p, right_q]
    if left_fun is not right_fun:
        warnings.warn(
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
            f"Please register_kl({left_p.__name__}, {right_q.__name__})",
            RuntimeWarning,
            stacklevel=2,
        )
    return left_fun


def kl_divergence(p: Distribution, q: Distribution) -> Any:
    """KL(p || q), batched over the batch shape."""
    key = (type(p), type(q))
    if key not in _KL_MEMOIZE:
        _KL_MEMOIZE[key] = _dispatch_kl(*key)
    fun = _KL_MEMOIZE[key]
    if fun is NotImplemented:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {p.__class__.__name__} and "
            f"q type {q.__class__.__name__}"
        )
    return fun(p, q)


def _infinite_like(tensor: Any) -> Any:
    return torch.full_like(tensor, math.inf)


def _batch_trace_XXT(bmat: Any) -> Any:
    """Trace of ``X @ X.mT`` for a batch of matrices: the sum of squared entries."""
    m, n = bmat.size(-2), bmat.size(-1)
    return bmat.reshape(-1, m * n).pow(2).sum(-1).reshape(bmat.shape[:-2])


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p: Any, q: Any) -> Any:
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Any, q: Any) -> Any:
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * torch.digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * torch.digamma(p.concentration0)
    t5 = (sum_q - sum_p) * torch.digamma(sum_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p: Any, q: Any) -> Any:
    if (p.total_count < q.total_count).any():
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    inf_idxs = p.total_count > q.total_count
    kl[inf_idxs] = _infinite_like(kl[inf_idxs])
    return kl


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p: Any, q: Any) -> Any:
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Any, q: Any) -> Any:
    sum_p = p.concentration.sum(-1)
    sum_q = q.concentration.sum(-1)
    t1 = sum_p.lgamma() - sum_q.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p: Any, q: Any) -> Any:
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p: Any, q: Any) -> Any:
    # Bregman divergence of the log normalizer between the natural parameters
    if type(p) is not type(q):
        raise NotImplementedError(
            "The cross KL-divergence between different exponential families cannot "
            + " " * 28
            + "be computed using Bregman divergences"
        )
    p_nparams = [n.detach().requires_grad_() for n in p._natural_params]
    q_nparams = q._natural_params
    lg_normal = p._log_normalizer(*p_nparams)
    gradients = torch.autograd.grad(lg_normal.sum(), p_nparams, create_graph=True)
    result = q._log_normalizer(*q_nparams) - lg_normal
    for pnp, qnp, g in zip(p_nparams, q_nparams, gradients, strict=False):
        result = result - _sum_rightmost((qnp - pnp) * g, len(q.event_shape))
    return result


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p: Any, q: Any) -> Any:
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = torch.lgamma(q.concentration) - torch.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * torch.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p: Any, q: Any) -> Any:
    return -p.entropy() - torch.log1p(-q.probs) / p.probs - q.logits


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p: Any, q: Any) -> Any:
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * torch.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p: Any, q: Any) -> Any:
    if p.event_shape != q.event_shape:
        raise ValueError(
            "KL-divergence between two Multivariate Normals with                         "
            " different event shapes cannot be computed"
        )
    Lp, Lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = Lq.diagonal(dim1=-2, dim2=-1).log().sum(-1) - Lp.diagonal(
        dim1=-2, dim2=-1
    ).log().sum(-1)
    batch = _broadcast_shapes(Lq.shape[:-2], Lp.shape[:-2])
    n = p.event_shape[0]
    q_scale_tril = Lq.expand((*batch, n, n))
    p_scale_tril = Lp.expand((*batch, n, n))
    term2 = _batch_trace_XXT(torch.linalg.solve_triangular(q_scale_tril, p_scale_tril, upper=False))
    term3 = _batch_mahalanobis(Lq, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(Normal, Normal)
def _kl_normal_normal(p: Any, q: Any) -> Any:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p: Any, q: Any) -> Any:
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p: Any, q: Any) -> Any:
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p: Any, q: Any) -> Any:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


@register_kl(Independent, Independent)
def _kl_independent_independent(p: Any, q: Any) -> Any:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    result = kl_divergence(p.base_dist, q.base_dist)
    return _sum_rightmost(result, p.reinterpreted_batch_ndims)


# --- cross-family pairs: KL = -H(p) - E_p[log q], with p's moments in closed form -------------


def _normal_cross(p: Any, q: Any, mean: Any, second: Any) -> Any:
    """-H(p) - E_p[log Normal(q)], from p's mean and second moment."""
    var_q = q.scale.pow(2)
    sq = second - 2 * q.loc * mean + q.loc.pow(2)  # E[(x - loc_q)^2]
    return -p.entropy() + torch.log(q.scale) + 0.5 * math.log(2 * math.pi) + sq / (2 * var_q)


def _gamma_cross(p: Any, q: Any, mean: Any, mean_log: Any) -> Any:
    """-H(p) - E_p[log Gamma(q)], from p's mean and mean log."""
    c, r = q.concentration, q.rate
    return -p.entropy() - c * r.log() + c.lgamma() - (c - 1) * mean_log + r * mean


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p: Any, q: Any) -> Any:
    ratio = q.rate / p.rate
    t1 = -q.concentration * torch.log(ratio)
    return (
        t1
        + ratio
        + q.concentration.lgamma()
        + q.concentration * euler_constant
        - (1 + euler_constant)
    )


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p: Any, q: Any) -> Any:
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p: Any, q: Any) -> Any:
    mean = p.concentration1 / (p.concentration1 + p.concentration0)
    return -p.entropy() - q.rate.log() + q.rate * mean


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p: Any, q: Any) -> Any:
    c1, c0 = p.concentration1, p.concentration0
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (c1.digamma() - (c1 + c0).digamma())
    t4 = q.rate * c1 / (c1 + c0)
    return -p.entropy() + t2 - t3 + t4


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p: Any, q: Any) -> Any:
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * torch.log(rate_sqr * var_normal * 2 * math.pi)
    t2 = rate_sqr.reciprocal()
    t3 = q.loc / p.rate
    t4 = q.loc.pow(2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p: Any, q: Any) -> Any:
    c = p.concentration
    var_normal = q.scale.pow(2)
    beta_sqr = p.rate.pow(2)
    t1 = 0.5 * torch.log(beta_sqr * var_normal * 2 * math.pi) - c - c.lgamma()
    t2 = 0.5 * (c.pow(2) + c) / beta_sqr
    t3 = q.loc * c / p.rate
    t4 = 0.5 * q.loc.pow(2)
    return t1 + (c - 1) * c.digamma() + (t2 - t3 + t4) / var_normal


@register_kl(Beta, Normal)
def _kl_beta_normal(p: Any, q: Any) -> Any:
    total = p.concentration1 + p.concentration0
    e_beta = p.concentration1 / total
    var_normal = q.scale.pow(2)
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    t3 = (e_beta * (1 - e_beta) / (total + 1) + e_beta.pow(2)) * 0.5
    t4 = q.loc * e_beta
    t5 = q.loc.pow(2) * 0.5
    return -p.entropy() + t2 + (t3 - t4 + t5) / var_normal


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p: Any, q: Any) -> Any:
    var_normal = q.scale.pow(2)
    ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * torch.log(2 * ratio / math.pi)
    t2 = 0.5 * p.loc.pow(2)
    t3 = p.loc * q.loc
    t4 = 0.5 * q.loc.pow(2)
    return -t1 + ratio + (t2 - t3 + t4) / var_normal - 1


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p: Any, q: Any) -> Any:
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t2 = width.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p: Any, q: Any) -> Any:
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    result[p.low < q.support.lower_bound] = math.inf
    return result


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p: Any, q: Any) -> Any:
    result = -p.entropy() + (q.high - q.low).log()
    result[(q.low > p.support.lower_bound) | (q.high < p.support.upper_bound)] = math.inf
    return result


# --- the remaining pairs torch registers ---------------------------------------------------


def _x_log_x(t: Any) -> Any:
    return torch.special.xlogy(t, t)  # 0 at 0, as torch's


def _inf_where(result: Any, mask: Any) -> Any:
    result[mask] = math.inf
    return result


def _infinite_kl(p: Any, q: Any) -> Any:
    """q has no mass where p has some: the KL is infinite everywhere."""
    return _infinite_like(p.mean)


for _p, _qs in (
    (Beta, (Pareto,)),
    (ContinuousBernoulli, (Pareto,)),
    (Exponential, (Beta, ContinuousBernoulli, Pareto, Uniform)),
    (Gamma, (Beta, ContinuousBernoulli, Pareto, Uniform)),
    (Gumbel, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform)),
    (Laplace, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform)),
    (Normal, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform)),
    (Pareto, (Beta, ContinuousBernoulli, Uniform)),
    (Poisson, (Bernoulli, Binomial)),
):
    for _q in _qs:
        register_kl(_p, _q)(_infinite_kl)


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p: Any, q: Any) -> Any:
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p: Any, q: Any) -> Any:
    num = (p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)
    return num.log() - (4 * p.scale * q.scale).log()


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p: Any, q: Any) -> Any:
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p: Any, q: Any) -> Any:
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


# ContinuousBernoulli: log p(x) = x logits + log(1 - probs) + log C(probs)


def _cb_cross(q: Any, mean: Any) -> Any:
    """-E_p[log ContinuousBernoulli(q)] from p's mean."""
    return -mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_cb_cb(p: Any, q: Any) -> Any:
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + torch.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - torch.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_cb(p: Any, q: Any) -> Any:
    return -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_cb(p: Any, q: Any) -> Any:
    result = -p.entropy() - p.mean * q.logits - torch.log1p(-q.probs) - q._cont_bern_log_norm()
    outside = torch.max(
        torch.ge(p.high, q.support.upper_bound), torch.le(p.low, q.support.lower_bound)
    )
    return torch.where(outside, torch.ones_like(result) * math.inf, result)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_cb_exponential(p: Any, q: Any) -> Any:
    return -p.entropy() - torch.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_cb_normal(p: Any, q: Any) -> Any:
    t2 = 0.5 * (math.log(2.0 * math.pi) + torch.square(q.loc / q.scale)) + torch.log(q.scale)
    t3 = (p.variance + torch.square(p.mean) - 2.0 * q.loc * p.mean) / (2.0 * torch.square(q.scale))
    return -p.entropy() + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_cb_uniform(p: Any, q: Any) -> Any:
    result = -p.entropy() + (q.high - q.low).log()
    outside = torch.max(torch.ge(q.low, 0.0), torch.le(q.high, 1.0))
    return torch.where(outside, torch.ones_like(result) * math.inf, result)


# Gumbel


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p: Any, q: Any) -> Any:
    ratio = p.scale / q.scale
    a, b = q.loc / q.scale, p.loc / q.scale
    t3 = torch.exp(a + (1 + ratio).lgamma() - b)
    return -ratio.log() - a + b + ratio * euler_constant + t3 - (1 + euler_constant)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p: Any, q: Any) -> Any:
    prod = p.rate * q.scale
    a = q.loc / q.scale
    return prod.log() - 1 - a + torch.exp(a) * prod / (prod + 1) + prod.reciprocal()


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p: Any, q: Any) -> Any:
    c = p.concentration
    prod = p.rate * q.scale
    a = q.loc / q.scale
    t1 = (c - 1) * c.digamma() - c.lgamma() - c
    t2 = prod.log() + c / prod
    t3 = torch.exp(a) * (1 + prod.reciprocal()).pow(-c) - a
    return t1 + t2 + t3


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p: Any, q: Any) -> Any:
    ratio = p.scale / q.scale
    t1 = (ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * euler_constant - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (euler_constant + 1)


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p: Any, q: Any) -> Any:
    m = p.loc / q.scale
    v = (p.scale / q.scale).pow(2)
    a = q.loc / q.scale
    t1 = v.log() * 0.5
    t2 = m - a
    t3 = torch.exp(-m + 0.5 * v + a)
    return -t1 + t2 + t3 - (0.5 * (1 + math.log(2 * math.pi)))


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p: Any, q: Any) -> Any:
    c = q.scale / (p.high - p.low)
    hi, lo = (p.high - q.loc) / q.scale, (p.low - q.loc) / q.scale
    return c.log() + 0.5 * (hi + lo) - c * (torch.exp(-hi) - torch.exp(-lo))


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p: Any, q: Any) -> Any:
    diff = p.loc - q.loc
    z = diff / p.scale
    t2 = math.sqrt(2 / math.pi) * p.scale * torch.exp(-0.5 * z.pow(2))
    t3 = diff * torch.erf(math.sqrt(0.5) * z)
    return -torch.log(p.scale / q.scale) + (t2 + t3) / q.scale - 0.5 * (1 + math.log(0.5 * math.pi))


# Pareto


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p: Any, q: Any) -> Any:
    alpha_ratio = q.alpha / p.alpha
    t1 = q.alpha * (p.scale / q.scale).log()
    t2 = -alpha_ratio.log()
    result = t1 + t2 + alpha_ratio - 1
    return _inf_where(result, p.support.lower_bound < q.support.lower_bound)


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p: Any, q: Any) -> Any:
    prod = p.scale * q.rate
    t3 = p.alpha * prod / (p.alpha - 1)
    result = (p.alpha / prod).log() - p.alpha.reciprocal() + t3 - 1
    return _inf_where(result, p.alpha <= 1)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p: Any, q: Any) -> Any:
    mean_log = p.scale.log() + p.alpha.reciprocal()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    result = p.alpha.log() - mean_log + t2 + (1 - q.concentration) * mean_log + t4 - 1
    return _inf_where(result, p.alpha <= 1)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p: Any, q: Any) -> Any:
    two_var = 2 * q.scale.pow(2)
    common = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t3 = p.alpha * common.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common - q.loc).pow(2)
    result = t1 - p.alpha.reciprocal() + (t3 + t4) / two_var - 1
    return _inf_where(result, p.alpha <= 2)


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p: Any, q: Any) -> Any:
    width = p.high - p.low
    a, b = q.concentration1, q.concentration0
    t1 = torch.log(width)
    t2 = (a - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (b - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = a.lgamma() + b.lgamma() - (a + b).lgamma()
    result = t3 + t4 - t1 - t2
    return _inf_where(result, (p.high > q.support.upper_bound) | (p.low < q.support.lower_bound))


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p: Any, q: Any) -> Any:
    width = p.high - p.low
    c = q.concentration
    t1 = width.log()
    t2 = c.lgamma() - c * q.rate.log()
    t3 = (1 - c) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t4 = q.rate * (p.high + p.low) / 2
    result = -t1 + t2 + t3 + t4
    return _inf_where(result, p.low < q.support.lower_bound)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p: Any, q: Any) -> Any:
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = t2 * (q.alpha + 1) - t1
    return _inf_where(result, p.low < q.support.lower_bound)


# LowRankMultivariateNormal


def _same_event_shapes(p: Any, q: Any, what: str) -> None:
    if p.event_shape != q.event_shape:
        raise ValueError(
            f"KL-divergence between two {what} with"
            + " " * 26
            + "different event shapes cannot be computed"
        )


def _lowrank_logdet(d: Any) -> Any:
    return _batch_lowrank_logdet(
        d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag, d._capacitance_tril
    )


def _lowrank_terms(p: Any, q: Any) -> tuple:
    """q's Mahalanobis term for ``q.loc - p.loc`` and ``A = L_q^{-1} W_q^T D_q^{-1}``, the
    capacitance solve of the Woodbury form of ``Sigma_q^{-1}``."""
    W, D = q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag
    maha = _batch_lowrank_mahalanobis(W, D, q.loc - p.loc, q._capacitance_tril)
    A = torch.linalg.solve_triangular(q._capacitance_tril, W.mT / D.unsqueeze(-2), upper=False)
    return maha, A


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p: Any, q: Any) -> Any:
    _same_event_shapes(p, q, "Low Rank Multivariate Normals")
    maha, A = _lowrank_terms(p, q)
    pW, pD, qD = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag, q._unbroadcasted_cov_diag
    trace = (
        (pD / qD).sum(-1)
        + _batch_trace_XXT(pW * qD.rsqrt().unsqueeze(-1))
        - _batch_trace_XXT(A * pD.sqrt().unsqueeze(-2))
        - _batch_trace_XXT(A.matmul(pW))
    )
    return 0.5 * (_lowrank_logdet(q) - _lowrank_logdet(p) + trace + maha - p.event_shape[0])


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_mvn_lowrank(p: Any, q: Any) -> Any:
    _same_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    maha, A = _lowrank_terms(p, q)
    L, qD = p._unbroadcasted_scale_tril, q._unbroadcasted_cov_diag
    logdet_p = 2 * L.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    trace = _batch_trace_XXT(L * qD.rsqrt().unsqueeze(-1)) - _batch_trace_XXT(A.matmul(L))
    return 0.5 * (_lowrank_logdet(q) - logdet_p + trace + maha - p.event_shape[0])


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_mvn(p: Any, q: Any) -> Any:
    _same_event_shapes(p, q, "(Low Rank) Multivariate Normals")
    Lq = q._unbroadcasted_scale_tril
    logdet_q = 2 * Lq.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    maha = _batch_mahalanobis(Lq, q.loc - p.loc)
    batch = _broadcast_shapes(Lq.shape[:-2], p._unbroadcasted_cov_factor.shape[:-2])
    n = p.event_shape[0]
    Lq = Lq.expand((*batch, n, n))
    pW = p._unbroadcasted_cov_factor.expand((*batch, n, p.cov_factor.size(-1)))
    pD = torch.diag_embed(p._unbroadcasted_cov_diag.sqrt()).expand((*batch, n, n))
    trace = _batch_trace_XXT(torch.linalg.solve_triangular(Lq, pW, upper=False)) + _batch_trace_XXT(
        torch.linalg.solve_triangular(Lq, pD, upper=False)
    )
    return 0.5 * (logdet_q - _lowrank_logdet(p) + trace + maha - n)
