"""Mirrors `torch.distributions.StudentT`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Student's t with ``df`` degrees of freedom, location ``loc`` and scale ``scale``."""

    arg_constraints: ClassVar[dict] = {
        "df": constraints.positive,
        "loc": constraints.real,
        "scale": constraints.positive,
    }
    support = constraints.real
    has_rsample = True

    def __init__(
        self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: bool | None = None
    ) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> StudentT:
        shapes = {"df": (), "loc": (), "scale": ()}
        new = self._expand_params(StudentT, batch_shape, _instance, shapes)
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Any:
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def variance(self) -> Any:
        m = self.df.clone()
        big = self.df > 2
        m[big] = self.scale[big].pow(2) * self.df[big] / (self.df[big] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        x = _standard_normal(shape, dtype=self.df.dtype)
        z = self._chi2.rsample(sample_shape)
        y = x * torch.rsqrt(z / self.df)
        return self.loc + self.scale * y

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (
            self.scale.log()
            + 0.5 * self.df.log()
            + 0.5 * math.log(math.pi)
            + torch.lgamma(0.5 * self.df)
            - torch.lgamma(0.5 * (self.df + 1.0))
        )
        return -0.5 * (self.df + 1.0) * torch.log1p(y**2.0 / self.df) - z

    def entropy(self) -> Any:
        df = self.df
        lbeta = torch.lgamma(0.5 * df) + math.lgamma(0.5) - torch.lgamma(0.5 * (df + 1))
        return (
            self.scale.log()
            + 0.5 * (df + 1) * (torch.digamma(0.5 * (df + 1)) - torch.digamma(0.5 * df))
            + 0.5 * df.log()
            + lbeta
        )
