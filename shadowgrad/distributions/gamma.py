"""Mirrors `torch.distributions.Gamma`."""

from __future__ import annotations

from numbers import Number
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from ._gamma_grad import igamma, standard_gamma
from .exp_family import ExponentialFamily
from .utils import broadcast_all, finfo

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    """Gamma distribution with shape ``concentration`` and inverse scale ``rate``; samples are
    reparameterized by the implicit gradient of the gamma draw."""

    arg_constraints: ClassVar[dict] = {
        "concentration": constraints.positive,
        "rate": constraints.positive,
    }
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration: Any, rate: Any, validate_args: bool | None = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalar = isinstance(concentration, Number) and isinstance(rate, Number)
        batch_shape = torch.Size() if scalar else self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gamma:
        shapes = {"concentration": (), "rate": ()}
        return self._expand_params(Gamma, batch_shape, _instance, shapes)

    @property
    def mean(self) -> Any:
        return self.concentration / self.rate

    @property
    def mode(self) -> Any:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Any:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=float(finfo(value.dtype).tiny))  # not recorded by autograd
        return value

    def cdf(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return igamma(self.concentration, self.rate * value)

    def log_prob(self, value: Any) -> Any:
        value = torch.as_tensor(value, dtype=self.rate.dtype)
        if self._validate_args:
            self._validate_sample(value)
        return (
            torch.xlogy(self.concentration, self.rate)
            + torch.xlogy(self.concentration - 1, value)
            - self.rate * value
            - torch.lgamma(self.concentration)
        )

    def entropy(self) -> Any:
        c = self.concentration
        return c - torch.log(self.rate) + torch.lgamma(c) + (1.0 - c) * torch.digamma(c)

    @property
    def _natural_params(self) -> tuple:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        return torch.lgamma(x + 1) + (x + 1) * torch.log(-y.reciprocal())
