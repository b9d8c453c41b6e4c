"""Mirrors `torch.distributions.HalfNormal` and `torch.distributions.HalfCauchy`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .cauchy import Cauchy
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfCauchy", "HalfNormal"]


class _Folded(TransformedDistribution):
    """|X| for X symmetric about 0 with ``scale``: shared body of HalfNormal and HalfCauchy."""

    arg_constraints: ClassVar[dict] = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        new = self._get_checked_instance(type(self), _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self) -> Any:
        return self.base_dist.scale

    @property
    def mode(self) -> Any:
        return torch.zeros_like(self.scale)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return torch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob: Any) -> Any:
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Any:
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Folded):
    """|X| for X ~ Normal(0, scale)."""

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        base = Normal(0, scale, validate_args=False)
        super().__init__(base, AbsTransform(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self) -> Any:
        return self.scale.pow(2) * (1 - 2 / math.pi)


class HalfCauchy(_Folded):
    """|X| for X ~ Cauchy(0, scale)."""

    def __init__(self, scale: Any, validate_args: bool | None = None) -> None:
        base = Cauchy(0, scale, validate_args=False)
        super().__init__(base, AbsTransform(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def variance(self) -> Any:
        return self.base_dist.variance

    def log_prob(self, value: Any) -> Any:
        value = torch.as_tensor(value, dtype=self.base_dist.scale.dtype)
        return super().log_prob(value)
