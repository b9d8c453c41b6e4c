"""The regularized incomplete gamma function, and the reparameterized gradients of gamma and
Dirichlet draws as torch computes them (its standard_gamma_grad_one and dirichlet_grad_one
approximations, in float64 numpy)."""

from __future__ import annotations

from typing import Any

import numpy as np

import shadowgrad as torch
from shadowgrad.autograd.function import once_differentiable
from shadowgrad.ops.registry import defop
from shadowgrad.ops.special import _lgamma64

from .utils import _sampler

_EPS = 1e-16
_MAX_ITER = 20000


def _series_p(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n)); for x < a + 1."""
    term = np.ones_like(a)
    total = np.ones_like(a)
    ap = a.copy()
    for _ in range(_MAX_ITER):
        ap = ap + 1
        term = term * x / ap
        total = total + term
        if np.all(np.abs(term) <= np.abs(total) * _EPS):
            break
    with np.errstate(divide="ignore"):
        return total * np.exp(a * np.log(x) - x - _lgamma64(a + 1))


def _cf_q(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Q(a, x) by the Legendre continued fraction (modified Lentz); for x >= a + 1."""
    tiny = 1e-300
    b = x + 1 - a
    c = np.full_like(a, 1 / tiny)
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1) <= 4 * _EPS):
            break
    return np.exp(a * np.log(x) - x - _lgamma64(a)) * h


def regularized_gamma_p(a: Any, x: Any) -> np.ndarray:
    """P(a, x), the regularized lower incomplete gamma function, elementwise in float64."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.zeros(a.shape)
    lo = (x < a + 1) & (x > 0)
    hi = (x >= a + 1) & (x > 0)
    if lo.any():
        out[lo] = _series_p(a[lo], x[lo])
    if hi.any():
        out[hi] = 1 - _cf_q(a[hi], x[hi])
    out[np.isinf(x) & (x > 0)] = 1.0
    out[np.isnan(a) | np.isnan(x)] = np.nan
    return out


# --- torch's reparameterized gradients (aten/native/Distributions.h), elementwise in float64 ---


def _digamma(x: np.ndarray) -> np.ndarray:
    from shadowgrad.ops.special import _digamma64

    return _digamma64(np.asarray(x, np.float64))


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """torch's standard_gamma_grad_one: d x / d alpha for x ~ Gamma(alpha, 1) by a Taylor
    series for small x, Rice's saddle point expansion for large alpha, and a bivariate rational
    approximation otherwise."""
    alpha, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(x, np.float64))
    out = np.zeros(alpha.shape)
    with np.errstate(all="ignore"):
        small = x < 0.8
        if small.any():
            a, v = alpha[small], x[small]
            numer = np.ones_like(a)
            denom = a.copy()
            s1 = numer / denom
            s2 = numer / (denom * denom)
            for i in range(1, 6):
                numer = numer * (-v / i)
                denom = denom + 1
                s1 = s1 + numer / denom
                s2 = s2 + numer / (denom * denom)
            pow_x_alpha = v**a
            pdf = v ** (a - 1) * np.exp(-v)
            cdf = pow_x_alpha * s1
            cdf_alpha = (np.log(v) - _digamma(a)) * cdf - pow_x_alpha * s2
            r = -cdf_alpha / pdf
            out[small] = np.where(np.isnan(r), 0.0, r)
        big = ~small & (alpha > 8.0)
        if big.any():
            a, v = alpha[big], x[big]
            near = (0.9 * a <= v) & (v <= 1.1 * a)
            numer_1 = 1 + 24 * a * (1 + 12 * a)
            numer_2 = (
                1440 * (a * a) + 6 * v * (53 - 120 * v) - 65 * v * v / a + a * (107 + 3600 * v)
            )
            near_val = numer_1 * numer_2 / (1244160 * (a * a) * (a * a))
            den = np.sqrt(8 * a)
            term2 = den / (a - v)
            term3 = (v - a - a * np.log(v / a)) ** -1.5
            term23 = np.where(v < a, term2 - term3, term2 + term3)
            term1 = np.log(v / a) * term23 - np.sqrt(2 / a) * (a + v) / ((a - v) * (a - v))
            stirling = 1 + 1 / (12 * a) * (1 + 1 / (24 * a))
            far_val = -stirling * (v * term1) / den
            out[big] = np.where(near, near_val, far_val)
        mid = ~small & ~(alpha > 8.0)
        if mid.any():
            a, v = alpha[mid], x[mid]
            u = np.log(v / a)
            lv = np.log(a)
            coef_v = [
                _GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)
            ]
            p = coef_v[0] + lv * (coef_v[1] + lv * (coef_v[2] + lv * coef_v[3]))
            q = coef_v[4] + lv * (coef_v[5] + lv * (coef_v[6] + lv * coef_v[7]))
            out[mid] = np.exp(p / q)
    return out


_GAMMA_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343,
     1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
     0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
     0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07),
)  # fmt: skip


def _beta_grad_alpha_small(x: np.ndarray, alpha: np.ndarray, beta: np.ndarray) -> np.ndarray:
    factor = _digamma(alpha) - _digamma(alpha + beta) - np.log(x)
    numer = np.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((i - beta) * x / i)
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    r = x * (1 - x) ** -beta * series
    return np.where(np.isnan(r), 0.0, r)


def _beta_grad_beta_small(x: np.ndarray, alpha: np.ndarray, beta: np.ndarray) -> np.ndarray:
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer = np.ones_like(x)
    betas = np.ones_like(x)
    dbetas = np.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / i)
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    r = -((1 - x) ** (1 - beta)) * series
    return np.where(np.isnan(r), 0.0, r)


def _beta_grad_alpha_mid(x: np.ndarray, alpha: np.ndarray, beta: np.ndarray) -> np.ndarray:
    total = alpha + beta
    mean = alpha / total
    std = np.sqrt(alpha * beta / (total + 1)) / total
    near = (mean - 0.1 * std <= x) & (x <= mean + 0.1 * std)
    b2 = beta * beta
    poly = 47 * x * b2 * b2 + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * b2 * beta + alpha * (
            3 * (59 + 180 * beta - 90 * x) * b2 + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))  # fmt: skip
    pre_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    pre_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    near_val = pre_num / (1 - x) * poly / pre_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * b2
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (np.sqrt(2 * alpha / beta) * total**1.5 * axbx * axbx)
    term2 = 0.5 * np.log(alpha / (total * x))
    term3 = np.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    base = beta * np.log(beta / (total * (1 - x))) + alpha * np.log(alpha / (total * x))
    term4 = base**-1.5
    far_val = stirling * prefactor * (term1 + term2 * (term3 + np.where(x < mean, term4, -term4)))
    return np.where(near, near_val, far_val)


_DIRICHLET_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]],
])  # fmt: skip


def dirichlet_grad(x: Any, alpha: Any, total: Any) -> np.ndarray:
    """torch's _dirichlet_grad (dirichlet_grad_one): the reparameterized gradient of a Beta(alpha,
    total - alpha) draw x in alpha, scaled by 1 / (1 - x)."""
    x, alpha, total = np.broadcast_arrays(
        np.asarray(x, np.float64), np.asarray(alpha, np.float64), np.asarray(total, np.float64)
    )
    beta = total - alpha
    boundary = total * x * (1 - x)
    out = np.zeros(x.shape)
    with np.errstate(all="ignore"):
        near0 = (x <= 0.5) & (boundary < 2.5)
        near1 = ~near0 & (x >= 0.5) & (boundary < 0.75)
        mid = ~near0 & ~near1 & (alpha > 6) & (beta > 6)
        rest = ~near0 & ~near1 & ~mid
        if near0.any():
            out[near0] = _beta_grad_alpha_small(x[near0], alpha[near0], beta[near0])
        if near1.any():
            out[near1] = -_beta_grad_beta_small(1 - x[near1], beta[near1], alpha[near1])
        if mid.any():
            out[mid] = _beta_grad_alpha_mid(x[mid], alpha[mid], beta[mid])
        if rest.any():
            v, a, t, b = x[rest], alpha[rest], total[rest], beta[rest]
            u = np.log(v)
            la = np.log(a) - u
            lb = np.log(t) - la
            p = np.zeros_like(v)
            q = np.zeros_like(v)
            pow_u = (np.ones_like(v), u, u * u)
            pow_a = (np.ones_like(v), la, la * la)
            c = _DIRICHLET_C
            for i in range(3):
                for j in range(3):
                    ua = pow_u[i] * pow_a[j]
                    cp, cq = c[0][i][j], c[1][i][j]
                    p = p + ua * (cp[0] + lb * (cp[1] + lb * (cp[2] + lb * cp[3])))
                    q = q + ua * (cq[0] + lb * (cq[1] + lb * (cq[2] + lb * cq[3])))
            approx = v * (_digamma(t) - _digamma(a)) / b
            out[rest] = p / q * approx
    return out


def _np_standard_gamma(self: np.ndarray) -> np.ndarray:
    return np.asarray(_sampler("standard_gamma", self)).astype(self.dtype, copy=False)


def _sgg_not_implemented(grad: Any) -> Any:
    raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


# torch._standard_gamma_grad: d draw / d alpha (not differentiable itself)
_standard_gamma_grad = defop(
    "_standard_gamma_grad",
    "StandardGammaGradBackward0",
    lambda self, output: standard_gamma_grad(self, output).astype(self.dtype, copy=False),
    dtype="keep",
    nondiff=("output",),
    self=_sgg_not_implemented,
)


def _standard_gamma_backward(grad: Any, self: Any, result: Any) -> Any:
    return grad * _standard_gamma_grad(self, result)


# torch._standard_gamma: Gamma(alpha, 1) draws, differentiable in alpha by implicit
# reparameterization (StandardGammaBackward0)
_standard_gamma = defop(
    "_standard_gamma",
    "StandardGammaBackward0",
    _np_standard_gamma,
    dtype="keep",
    self=_standard_gamma_backward,
)


def standard_gamma(alpha: Any) -> Any:
    """Reparameterized Gamma(alpha, 1) draws (torch._standard_gamma)."""
    return _standard_gamma(alpha)


class _Dirichlet(torch.autograd.Function):
    """Dirichlet draws (torch._sample_dirichlet's), differentiated as torch's _Dirichlet: each
    component as the marginal Beta(alpha_k, total - alpha_k) draw (_dirichlet_grad), projected
    onto the simplex."""

    @staticmethod
    def forward(ctx: Any, concentration: Any) -> Any:
        a = concentration.detach().numpy()
        _, x = _sampler("dirichlet", a)
        out = torch.tensor(x)
        ctx.save_for_backward(out, concentration)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, grad: Any) -> Any:
        x, concentration = ctx.saved_tensors
        c = concentration.detach().numpy()
        xd = x.detach().numpy()
        total = np.broadcast_to(c.sum(-1, keepdims=True), c.shape)
        d = torch.tensor(dirichlet_grad(xd, c, total).astype(xd.dtype))
        return d * (grad - (x * grad).sum(-1, True))


class _Igamma(torch.autograd.Function):
    """P(alpha, x), differentiable in x (alpha is passed detached)."""

    @staticmethod
    def forward(ctx: Any, alpha: Any, x: Any) -> Any:
        a, v = alpha.detach().numpy(), x.detach().numpy()
        ctx.save_for_backward(alpha, x)
        return torch.tensor(regularized_gamma_p(a, v).astype(np.result_type(a, v)))

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        alpha, x = ctx.saved_tensors
        log_pdf = (alpha - 1) * torch.log(x) - x - torch.lgamma(alpha)
        return None, grad * log_pdf.exp()


class _NoAlphaGrad(torch.autograd.Function):
    """Zeros that fail in backward: torch has no derivative of igamma in alpha."""

    @staticmethod
    def forward(ctx: Any, alpha: Any) -> Any:
        return torch.zeros_like(alpha)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise NotImplementedError("the derivative for 'igamma: input' is not implemented.")


def igamma(alpha: Any, x: Any) -> Any:
    """The regularized lower incomplete gamma function (torch.special.gammainc)."""
    alpha, x = torch.broadcast_tensors(alpha, x)
    out = _Igamma.apply(alpha.detach(), x)
    if alpha.requires_grad and torch.is_grad_enabled():
        out = out + _NoAlphaGrad.apply(alpha)
    return out
