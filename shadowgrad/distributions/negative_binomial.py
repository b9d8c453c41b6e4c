"""Mirrors `torch.distributions.NegativeBinomial`."""

from __future__ import annotations

from typing import Any, ClassVar

import shadowgrad as torch
from shadowgrad.nn.functional import logsigmoid

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import (
    _BinaryProbsLogits,
    _one_of_probs_logits,
    broadcast_all,
    lazy_property,
)

__all__ = ["NegativeBinomial"]


class NegativeBinomial(_BinaryProbsLogits, Distribution):
    """Number of successes before ``total_count`` failures of Bernoulli(``probs``) trials."""

    arg_constraints: ClassVar[dict] = {
        "total_count": constraints.greater_than_eq(0),
        "probs": constraints.half_open_interval(0.0, 1.0),
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(
        self,
        total_count: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        _one_of_probs_logits(probs, logits)
        name, value = ("probs", probs) if probs is not None else ("logits", logits)
        total_count, param = broadcast_all(total_count, value)
        self.total_count = total_count.type_as(param)
        setattr(self, name, param)
        self._param = param
        super().__init__(param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> NegativeBinomial:
        shapes = {"total_count": (), "probs": (), "logits": ()}
        return self._expand_params(NegativeBinomial, batch_shape, _instance, shapes)

    @property
    def mean(self) -> Any:
        return self.total_count * torch.exp(self.logits)

    @property
    def mode(self) -> Any:
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Any:
        return self.mean / torch.sigmoid(-self.logits)

    @property
    def param_shape(self) -> Any:
        return self._param.size()

    @lazy_property
    def _gamma(self) -> Gamma:
        rate = torch.exp(-self.logits)
        return Gamma(concentration=self.total_count, rate=rate, validate_args=False)

    def sample(self, sample_shape: Any = ()) -> Any:
        with torch.no_grad():
            rate = self._gamma.sample(sample_shape=sample_shape)
            return torch.poisson(rate)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        unnormalized = n * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        # log of the binomial coefficient C(n + k - 1, k); zero when n + k == 0
        log_norm = -torch.lgamma(n + value) + torch.lgamma(1.0 + value) + torch.lgamma(n)
        log_norm = log_norm.masked_fill(n + value == 0.0, 0.0)
        return unnormalized - log_norm
