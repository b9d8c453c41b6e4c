"""Mirrors `torch.distributions.LKJCholesky`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

import shadowgrad as torch

from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """LKJ distribution over lower Cholesky factors ``L`` of ``dim x dim`` correlation matrices,
    with density of ``L L^T`` proportional to ``det(L L^T) ** (concentration - 1)``.

    Sampling is the vectorised onion method torch uses: a Beta draw per row for the squared
    norm of its off-diagonal part, then a normal draw normalised onto the sphere for its
    direction (so the random stream is consumed as torch consumes it)."""

    arg_constraints: ClassVar[dict] = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(
        self, dim: int, concentration: Any = 1.0, validate_args: bool | None = None
    ) -> None:
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            )
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = torch.Size((dim, dim))
        # Beta parameters of the squared row norms, one per row (Sec. 3.2 of the onion method)
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LKJCholesky:
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = torch.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))  # noqa: RUF005 (torch.Size)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape: Any = ()) -> Any:
        # the first row's 0 / 0 is overwritten below; torch computes it silently
        with torch.no_grad(), np.errstate(invalid="ignore"):
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u_normal = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
            u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
            u_hypersphere[..., 0, :].fill_(0.0)
            w = torch.sqrt(y) * u_hypersphere
            eps = float(torch.finfo(w.dtype).tiny)
            diag_elems = torch.clamp(1 - torch.sum(w**2, dim=-1), min=eps).sqrt()
            w += torch.diag_embed(diag_elems)
        return w

    def log_prob(self, value: Any) -> Any:
        # density of L: prod_i L_ii ** (2 (concentration - 1) + dim - i), i = 2..dim
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = torch.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalize_term = pi_constant + numerator - denominator
        return unnormalized_log_pdf - normalize_term
