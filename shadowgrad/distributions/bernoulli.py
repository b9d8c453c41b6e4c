"""Mirrors `torch.distributions.Bernoulli`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import shadowgrad as torch
from shadowgrad.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .exp_family import ExponentialFamily
from .utils import (
    _BinaryProbsLogits,
    _enumerate_values,
    _set_binary_param,
    broadcast_all,
)

__all__ = ["Bernoulli"]


class Bernoulli(_BinaryProbsLogits, ExponentialFamily):
    """Bernoulli distribution on {0, 1}, parameterized by ``probs`` or ``logits``."""

    arg_constraints: ClassVar[dict] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        batch_shape = _set_binary_param(self, probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Bernoulli:
        shapes = {"probs": (), "logits": ()}
        return self._expand_params(Bernoulli, batch_shape, _instance, shapes)

    @property
    def mean(self) -> Any:
        return self.probs

    @property
    def mode(self) -> Any:
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self) -> Any:
        return self.probs * (1 - self.probs)

    @property
    def param_shape(self) -> Any:
        return self._param.size()

    def sample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Any:
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand: bool = True) -> Any:
        values = torch.arange(2, dtype=self._param.dtype)
        return _enumerate_values(values, self._batch_shape, expand)

    @property
    def _natural_params(self) -> tuple:
        return (torch.logit(self.probs),)

    def _log_normalizer(self, x: Any) -> Any:
        return torch.log1p(torch.exp(x))
