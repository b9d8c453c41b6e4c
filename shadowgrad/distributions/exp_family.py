"""Mirrors `torch.distributions.ExponentialFamily`."""

from __future__ import annotations

from typing import Any

import shadowgrad as torch

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base class of exponential-family distributions; entropy from the log normalizer."""

    @property
    def _natural_params(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Any) -> Any:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self) -> Any:
        # entropy = F(theta) - <theta, grad F(theta)> - E[k(x)] (a Bregman identity)
        result: Any = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for p, g in zip(nparams, gradients, strict=False):
            result = result - (p * g).reshape((*self._batch_shape, -1)).sum(-1)
        return result
