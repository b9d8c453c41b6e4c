"""Mirrors `torch.distributions.Gumbel`."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant, finfo

__all__ = ["Gumbel"]


class Gumbel(TransformedDistribution):
    """Gumbel (type-I extreme value) distribution: loc - scale * log(-log U)."""

    arg_constraints: ClassVar[dict] = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        fi = finfo(self.loc.dtype)
        tiny, top = float(fi.tiny), 1 - float(fi.eps)
        if isinstance(loc, Number) and isinstance(scale, Number):
            base = Uniform(tiny, top, validate_args=validate_args)
        else:
            base = Uniform(
                torch.full_like(self.loc, tiny),
                torch.full_like(self.loc, top),
                validate_args=validate_args,
            )
        transforms = [
            ExpTransform().inv,
            AffineTransform(loc=0, scale=-torch.ones_like(self.scale)),
            ExpTransform().inv,
            AffineTransform(loc=self.loc, scale=-self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gumbel:
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self) -> Any:
        return self.loc + self.scale * euler_constant

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def stddev(self) -> Any:
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self) -> Any:
        return self.stddev.pow(2)

    def entropy(self) -> Any:
        return self.scale.log() + (1 + euler_constant)
