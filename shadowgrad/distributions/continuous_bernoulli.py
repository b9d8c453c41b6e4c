"""Mirrors `torch.distributions.ContinuousBernoulli`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import shadowgrad as torch
from shadowgrad.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .exp_family import ExponentialFamily
from .utils import (
    _set_binary_param,
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """Continuous Bernoulli on [0, 1]: density proportional to ``p^x (1-p)^(1-x)``. Near
    ``probs == 0.5`` (inside ``lims``) closed forms are replaced by Taylor expansions."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(
        self,
        probs: Any = None,
        logits: Any = None,
        lims: tuple = (0.499, 0.501),
        validate_args: bool | None = None,
    ) -> None:
        batch_shape = _set_binary_param(self, probs, logits)
        if probs is not None:
            if (
                validate_args is not None
                and not self.arg_constraints["probs"].check(self.probs).all()
            ):
                raise ValueError("The parameter probs has invalid values")
            self.probs = self._param = clamp_probs(self.probs)
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> ContinuousBernoulli:
        shapes = {"probs": (), "logits": ()}
        new = self._expand_params(ContinuousBernoulli, batch_shape, _instance, shapes)
        new._lims = self._lims
        return new

    @lazy_property
    def logits(self) -> Any:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self) -> Any:
        return self._param.size()

    def _outside_unstable_region(self) -> Any:
        return torch.max(torch.le(self.probs, self._lims[0]), torch.gt(self.probs, self._lims[1]))

    def _cut_probs(self) -> Any:
        """``probs``, with the values inside the unstable region moved to its lower edge."""
        return torch.where(
            self._outside_unstable_region(),
            self.probs,
            self._lims[0] * torch.ones_like(self.probs),
        )

    def _cont_bern_log_norm(self) -> Any:
        p = self._cut_probs()
        below = torch.where(torch.le(p, 0.5), p, torch.zeros_like(p))
        above = torch.where(torch.ge(p, 0.5), p, torch.ones_like(p))
        # C(p) = 2 atanh(1 - 2p) / (1 - 2p), written with logs on each side of 1/2
        log_norm = torch.log(torch.abs(torch.log1p(-p) - torch.log(p))) - torch.where(
            torch.le(p, 0.5), torch.log1p(-2.0 * below), torch.log(2.0 * above - 1.0)
        )
        x = torch.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return torch.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Any:
        p = self._cut_probs()
        mus = p / (2.0 * p - 1.0) + 1.0 / (torch.log1p(-p) - torch.log(p))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * torch.pow(x, 2)) * x
        return torch.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self) -> Any:
        return torch.sqrt(self.variance)

    @property
    def variance(self) -> Any:
        p = self._cut_probs()
        vars_ = p * (p - 1.0) / torch.pow(1.0 - 2.0 * p, 2) + 1.0 / torch.pow(
            torch.log1p(-p) - torch.log(p), 2
        )
        x = torch.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return torch.where(self._outside_unstable_region(), vars_, taylor)

    def sample(self, sample_shape: Any = ()) -> Any:
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        with torch.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape: Any = ()) -> Any:
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype)
        return self.icdf(u)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = binary_cross_entropy_with_logits(logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        p = self._cut_probs()
        cdfs = (torch.pow(p, value) * torch.pow(1.0 - p, 1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        inside = torch.where(self._outside_unstable_region(), cdfs, value)
        return torch.where(
            torch.le(value, 0.0),
            torch.zeros_like(value),
            torch.where(torch.ge(value, 1.0), torch.ones_like(value), inside),
        )

    def icdf(self, value: Any) -> Any:
        p = self._cut_probs()
        closed = (torch.log1p(-p + value * (2.0 * p - 1.0)) - torch.log1p(-p)) / (
            torch.log(p) - torch.log1p(-p)
        )
        return torch.where(self._outside_unstable_region(), closed, value)

    def entropy(self) -> Any:
        log_q = torch.log1p(-self.probs)
        log_p = torch.log(self.probs)
        return self.mean * (log_q - log_p) - self._cont_bern_log_norm() - log_q

    @property
    def _natural_params(self) -> tuple:
        return (self.logits,)

    def _log_normalizer(self, x: Any) -> Any:
        lo, hi = self._lims[0] - 0.5, self._lims[1] - 0.5
        outside = torch.max(torch.le(x, lo), torch.gt(x, hi))
        cut = torch.where(outside, x, lo * torch.ones_like(x))
        log_norm = torch.log(torch.abs(torch.special.expm1(cut))) - torch.log(torch.abs(cut))
        taylor = 0.5 * x + torch.pow(x, 2) / 24.0 - torch.pow(x, 4) / 2880.0
        return torch.where(outside, log_norm, taylor)
