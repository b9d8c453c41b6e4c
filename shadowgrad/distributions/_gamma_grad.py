"""The regularized incomplete gamma function and the implicit reparameterization gradient of
gamma draws, in float64 numpy: d sample / d alpha = -(dP(alpha, x) / d alpha) / pdf(x; alpha),
with P differentiated by Richardson-extrapolated central differences on the side (P or Q = 1 - P)
that is computed with relative accuracy."""

from __future__ import annotations

from typing import Any

import numpy as np

import shadowgrad as torch
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


def _d_da(fn: Any, a: np.ndarray, x: np.ndarray) -> np.ndarray:
    h = 1e-3 * np.maximum(a, 1e-2) if a.size else a

    def central(step: np.ndarray) -> np.ndarray:
        return (fn(a + step, x) - fn(a - step, x)) / (2 * step)

    return (4 * central(h / 2) - central(h)) / 3


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d x / d alpha for x ~ Gamma(alpha, 1), holding the draw's quantile fixed."""
    a = np.asarray(alpha, np.float64)
    x = np.asarray(x, np.float64)
    a, x = np.broadcast_arrays(a, x)
    dp = np.zeros(a.shape)
    lo = x < a + 1
    hi = ~lo
    # a small step keeps each side on its own branch; alpha - step must stay positive
    if lo.any():
        dp[lo] = _d_da(_series_p, a[lo], x[lo])
    if hi.any():
        dp[hi] = -_d_da(_cf_q, a[hi], x[hi])
    log_pdf = (a - 1) * np.log(x) - x - _lgamma64(a)
    return -dp / np.exp(log_pdf)


class _StandardGamma(torch.autograd.Function):
    """Gamma(alpha, 1) draws, differentiable in alpha by implicit reparameterization."""

    @staticmethod
    def forward(ctx: Any, alpha: Any) -> Any:
        a = alpha.detach().numpy()
        x = torch.tensor(_sampler("standard_gamma", a))
        ctx.save_for_backward(alpha, x)
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        alpha, x = ctx.saved_tensors
        d = standard_gamma_grad(alpha.detach().numpy(), x.detach().numpy())
        return grad * torch.tensor(d.astype(x.detach().numpy().dtype))


def standard_gamma(alpha: Any) -> Any:
    """Reparameterized Gamma(alpha, 1) draws (torch._standard_gamma)."""
    return _StandardGamma.apply(alpha)


class _Dirichlet(torch.autograd.Function):
    """Dirichlet draws as normalized reparameterized gamma draws.

    The gradient flows through the gamma draws (an exact reparameterization, but not torch's
    marginal-Beta formula, so single-sample gradients differ from torch's; expectations agree)."""

    @staticmethod
    def forward(ctx: Any, concentration: Any) -> Any:
        a = concentration.detach().numpy()
        g, x = _sampler("dirichlet", a)  # torch._sample_dirichlet's draws
        total = g.sum(-1, keepdims=True)
        ctx.gamma_grad = standard_gamma_grad(a, g) / total  # d x_k / d g_k scale, times dg/da
        out = torch.tensor(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        (x,) = ctx.saved_tensors
        scale = torch.tensor(ctx.gamma_grad.astype(x.detach().numpy().dtype))
        return (grad - (grad * x).sum(-1, True)) * scale


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
