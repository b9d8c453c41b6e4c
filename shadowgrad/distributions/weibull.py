"""Mirrors `torch.distributions.Weibull`."""

from __future__ import annotations

from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .utils import broadcast_all, euler_constant

__all__ = ["Weibull"]


class Weibull(TransformedDistribution):
    """Two-parameter Weibull: scale * E ** (1 / concentration) for E ~ Exponential(1)."""

    arg_constraints: ClassVar[dict] = {
        "scale": constraints.positive,
        "concentration": constraints.positive,
    }
    support = constraints.positive

    def __init__(self, scale: Any, concentration: Any, validate_args: bool | None = None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(torch.ones_like(self.scale), validate_args=validate_args)
        super().__init__(base, self._transforms(), validate_args=validate_args)

    def _transforms(self) -> list:
        return [
            PowerTransform(exponent=self.concentration_reciprocal),
            AffineTransform(loc=0, scale=self.scale),
        ]

    def expand(self, batch_shape: Any, _instance: Any = None) -> Weibull:
        new = self._get_checked_instance(Weibull, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        base = self.base_dist.expand(batch_shape)
        TransformedDistribution.__init__(new, base, new._transforms(), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Any:
        return self.scale * torch.exp(torch.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self) -> Any:
        c = self.concentration
        return self.scale * ((c - 1) / c) ** c.reciprocal()

    @property
    def variance(self) -> Any:
        r = self.concentration_reciprocal
        return self.scale.pow(2) * (
            torch.exp(torch.lgamma(1 + 2 * r)) - torch.exp(2 * torch.lgamma(1 + r))
        )

    def entropy(self) -> Any:
        r = self.concentration_reciprocal
        return euler_constant * (1 - r) + torch.log(self.scale * r) + 1
