"""Mirrors `torch.distributions.Kumaraswamy`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _moments(a: Any, b: Any, n: int) -> Any:
    """E[X ** n] = b * B(1 + n / a, b)."""
    arg1 = 1 + n / a
    log_value = torch.lgamma(arg1) + torch.lgamma(b) - torch.lgamma(arg1 + b)
    return b * torch.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """Kumaraswamy distribution on (0, 1): (1 - U ** (1 / c0)) ** (1 / c1)."""

    arg_constraints: ClassVar[dict] = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(
        self, concentration1: Any, concentration0: Any, validate_args: bool | None = None
    ) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        c0 = self.concentration0
        base = Uniform(torch.full_like(c0, 0), torch.full_like(c0, 1), validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=c0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Kumaraswamy:
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self) -> Any:
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Any:
        c1, c0 = self.concentration1, self.concentration0
        log_mode = c0.reciprocal() * (-c0).log1p() - (-c0 * c1).log1p()
        log_mode[(c0 < 1) | (c1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self) -> Any:
        c1, c0 = self.concentration1, self.concentration0
        return _moments(c1, c0, 2) - torch.pow(self.mean, 2)

    def entropy(self) -> Any:
        c1, c0 = self.concentration1, self.concentration0
        t1 = 1 - c1.reciprocal()
        t0 = 1 - c0.reciprocal()
        h0 = torch.digamma(c0 + 1) + euler_constant
        return t0 + t1 * h0 - torch.log(c1) - torch.log(c0)
