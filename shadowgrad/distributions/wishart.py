"""Mirrors `torch.distributions.Wishart`."""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import shadowgrad as torch

from . import constraints
from .chi2 import Chi2
from .exp_family import ExponentialFamily
from .multivariate_normal import _precision_to_scale_tril
from .utils import lazy_property

__all__ = ["Wishart"]

_log_2 = math.log(2)


def _mvdigamma(x: Any, p: int) -> Any:
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    return torch.digamma(
        x.unsqueeze(-1) - torch.arange(p, dtype=x.dtype).div(2).expand((*x.shape, -1))
    ).sum(-1)


def _clamp_above_eps(x: Any) -> Any:
    return x.clamp(min=float(torch.finfo(x.dtype).eps))


class Wishart(ExponentialFamily):
    """Wishart distribution over positive definite matrices, with ``df`` degrees of freedom
    and one of ``covariance_matrix``, ``precision_matrix`` or ``scale_tril``.

    ``rsample`` is torch's Bartlett decomposition, including its check-and-redraw pass: torch
    tests the samples with ``positive_definite.check`` and treats the *valid* ones as singular,
    so each draw warns "Singular sample detected." and is drawn a second time; shadowgrad
    does the same so that the random stream and the warnings agree with torch."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self) -> dict:
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self,
        df: Any,
        covariance_matrix: Any = None,
        precision_matrix: Any = None,
        scale_tril: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        given = [m is not None for m in (covariance_matrix, scale_tril, precision_matrix)]
        if sum(given) != 1:
            raise AssertionError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        if isinstance(df, numbers.Number):
            batch_shape = torch.Size(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype)
        else:
            batch_shape = torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]

        if self.df.le(event_shape[-1] - 1).any():
            raise ValueError(
                f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}."
            )

        matrix_shape = (*batch_shape, -1, -1)
        if scale_tril is not None:
            self.scale_tril = param.expand(matrix_shape)
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(matrix_shape)
        else:
            self.precision_matrix = param.expand(matrix_shape)

        if self.df.lt(event_shape[-1]).any():
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for "
                "ndim - 1 < df < ndim.",
                stacklevel=2,
            )

        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]

        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self._dist_chi2 = self._bartlett_chi2(batch_shape)

    def _bartlett_chi2(self, batch_shape: Any) -> Chi2:
        # the squared diagonal of the Bartlett factor: chi2 with df, df - 1, ..., df - p + 1
        p = self._event_shape[-1]
        steps = torch.arange(p, dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(df=self.df.unsqueeze(-1) - steps.expand((*batch_shape, -1)))

    def expand(self, batch_shape: Any, _instance: Any = None) -> Wishart:
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = torch.Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(cov_shape))
        ExponentialFamily.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._dist_chi2 = new._bartlett_chi2(batch_shape)
        new._validate_args = self._validate_args
        return new

    def _matrix_shape(self) -> Any:
        return self._batch_shape + self._event_shape

    @lazy_property
    def scale_tril(self) -> Any:
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        return (L @ L.transpose(-2, -1)).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        identity = torch.eye(self._event_shape[-1], dtype=L.dtype)
        return torch.cholesky_solve(identity, L).expand(self._matrix_shape())

    def _df_matrix(self) -> Any:
        return self.df.view((*self._batch_shape, 1, 1))

    @property
    def mean(self) -> Any:
        return self._df_matrix() * self.covariance_matrix

    @property
    def mode(self) -> Any:
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view((*self._batch_shape, 1, 1)) * self.covariance_matrix

    @property
    def variance(self) -> Any:
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        return self._df_matrix() * (V.pow(2) + torch.einsum("...i,...j->...ij", diag_V, diag_V))

    def _bartlett_sampling(self, sample_shape: Any = ()) -> Any:
        p = self._event_shape[-1]
        noise = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt()).diag_embed(
            dim1=-2, dim2=-1
        )
        i, j = torch.tril_indices(p, p, offset=-1)
        noise[..., i, j] = torch.randn(
            torch.Size(sample_shape) + self._batch_shape + (p * (p - 1) // 2,),
            dtype=noise.dtype,
        )
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape: Any = (), max_try_correction: Any = None) -> Any:
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = torch.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)

        # torch's numerical-stability pass, kept as torch has it (see the class docstring)
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = sample_new
                is_singular_new = ~self.support.check(sample_new)
                if self._batch_shape:
                    is_singular_new = is_singular_new.amax(self._batch_dims)
                is_singular[is_singular.clone()] = is_singular_new
                if not is_singular.any():
                    break
        return sample

    def _half_log_det(self) -> Any:
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        return (
            -nu * (p * _log_2 / 2 + self._half_log_det())
            - torch.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
            - torch.cholesky_solve(value, self._unbroadcasted_scale_tril)
            .diagonal(dim1=-2, dim2=-1)
            .sum(dim=-1)
            / 2
        )

    def entropy(self) -> Any:
        nu = self.df
        p = self._event_shape[-1]
        return (
            (p + 1) * (p * _log_2 / 2 + self._half_log_det())
            + torch.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )

    @property
    def _natural_params(self) -> tuple:
        nu = self.df
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (nu - p - 1) / 2

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (
            -torch.linalg.slogdet(-2 * x).logabsdet + _log_2 * p
        ) + torch.mvlgamma(y + (p + 1) / 2, p=p)
