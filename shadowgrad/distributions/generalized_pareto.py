"""Mirrors `torch.distributions.GeneralizedPareto`."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """Generalized Pareto with ``loc``, ``scale`` and shape ``concentration`` (xi); xi == 0
    is the exponential limit."""

    arg_constraints: ClassVar[dict] = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(
        self, loc: Any, scale: Any, concentration: Any, validate_args: bool | None = None
    ) -> None:
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        scalar = all(isinstance(v, Number) for v in (loc, scale, concentration))
        batch_shape = torch.Size() if scalar else self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> GeneralizedPareto:
        shapes = {"loc": (), "scale": (), "concentration": ()}
        return self._expand_params(GeneralizedPareto, batch_shape, _instance, shapes)

    def _safe_concentration(self) -> tuple:
        """(where xi is ~0, xi with those entries replaced by 1)."""
        xi = self.concentration
        eq_zero = torch.isclose(xi, torch.zeros_like(xi))
        return eq_zero, torch.where(eq_zero, torch.ones_like(xi), xi)

    def _z(self, x: Any) -> Any:
        return (x - self.loc) / self.scale

    def rsample(self, sample_shape: Any = ()) -> Any:
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype)
        return self.icdf(u)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, xi = self._safe_concentration()
        y = 1 / xi + torch.ones_like(z)
        nonzero = torch.where(y == 0, y, y * torch.log1p(xi * z))
        return -self.scale.log() - torch.where(eq_zero, z, nonzero)

    def log_survival_function(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, xi = self._safe_concentration()
        return torch.where(eq_zero, -z, -torch.log1p(xi * z) / xi)

    def log_cdf(self, value: Any) -> Any:
        return torch.log1p(-torch.exp(self.log_survival_function(value)))

    def cdf(self, value: Any) -> Any:
        return torch.exp(self.log_cdf(value))

    def icdf(self, value: Any) -> Any:
        eq_zero, xi = self._safe_concentration()
        logu = torch.log1p(-value)
        nonzero = self.loc + self.scale / xi * torch.expm1(-xi * logu)
        return torch.where(eq_zero, self.loc - self.scale * logu, nonzero)

    @property
    def mean(self) -> Any:
        valid = self.concentration < 1
        xi = torch.where(valid, self.concentration, 0.5)
        return torch.where(valid, self.loc + self.scale / (1 - xi), math.nan)

    @property
    def variance(self) -> Any:
        valid = self.concentration < 0.5
        xi = torch.where(valid, self.concentration, 0.25)
        value = self.scale**2 / ((1 - xi) ** 2 * (1 - 2 * xi))
        return torch.where(valid, value, math.nan)

    def entropy(self) -> Any:
        return torch.broadcast_to(torch.log(self.scale) + self.concentration + 1, self._batch_shape)

    @property
    def mode(self) -> Any:
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        xi = self.concentration
        upper = torch.where(xi < 0, self.loc - self.scale / xi, math.inf)
        return constraints.interval(self.loc, upper)
