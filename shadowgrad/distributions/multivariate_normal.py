"""Mirrors `torch.distributions.MultivariateNormal`."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import shadowgrad as torch

from . import constraints
from .distribution import Distribution
from .utils import _broadcast_shapes, _standard_normal, lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat: Any, bvec: Any) -> Any:
    """Batched matrix-vector product with broadcasting."""
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL: Any, bx: Any) -> Any:
    """Squared Mahalanobis norm ``x^T (L L^T)^{-1} x`` for lower-triangular ``L``, as torch
    computes it: bx's batch dims regrouped so that one batched triangular solve against the
    flattened bL covers them (the same reshape/permute nodes as torch's)."""
    n = bx.size(-1)
    bx_batch_shape = bx.shape[:-1]
    bx_batch_dims = len(bx_batch_shape)
    bl_batch_dims = bL.dim() - 2
    outer = bx_batch_dims - bl_batch_dims
    old_dims = outer + bl_batch_dims
    new_dims = outer + 2 * bl_batch_dims
    new_shape = tuple(bx.shape[:outer])
    for sl, sx in zip(bL.shape[:-2], bx.shape[outer:-1], strict=False):
        new_shape += (sx // sl, sl)
    bx = bx.reshape((*new_shape, n))
    perm = (
        list(range(outer))
        + list(range(outer, new_dims, 2))
        + list(range(outer + 1, new_dims, 2))
        + [new_dims]
    )
    bx = bx.permute(perm)
    flat_l = bL.reshape(-1, n, n)
    flat_x = bx.reshape(-1, flat_l.size(0), n)
    m_swap = (
        torch.linalg.solve_triangular(flat_l, flat_x.permute(1, 2, 0), upper=False).pow(2).sum(-2)
    )
    permuted = m_swap.t().reshape(bx.shape[:-1])
    inv = list(range(outer))
    for i in range(bl_batch_dims):
        inv += [outer + i, old_dims + i]
    return permuted.permute(inv).reshape(bx_batch_shape)


def _precision_to_scale_tril(P: Any) -> Any:
    """Lower Cholesky factor of ``P^{-1}``, through the Cholesky factor of the flipped ``P``."""
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    Id = torch.eye(P.shape[-1], dtype=P.dtype)
    return torch.linalg.solve_triangular(L_inv, Id, upper=False)


class MultivariateNormal(Distribution):
    """Multivariate normal with mean ``loc`` and one of ``covariance_matrix``,
    ``precision_matrix`` or ``scale_tril``."""

    arg_constraints: ClassVar[dict] = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        loc: Any,
        covariance_matrix: Any = None,
        precision_matrix: Any = None,
        scale_tril: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m is not None for m in (covariance_matrix, scale_tril, precision_matrix)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        for name, label, matrix in (
            ("scale_tril", "scale_tril matrix", scale_tril),
            ("covariance_matrix", "covariance_matrix", covariance_matrix),
            ("precision_matrix", "precision_matrix", precision_matrix),
        ):
            if matrix is None:
                continue
            if matrix.dim() < 2:
                raise ValueError(
                    f"{label} must be at least two-dimensional, "
                    "with optional leading batch dimensions"
                )
            batch_shape = _broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
            setattr(self, name, matrix.expand((*batch_shape, -1, -1)))
        self.loc = loc.expand((*batch_shape, -1))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def expand(self, batch_shape: Any, _instance: Any = None) -> MultivariateNormal:
        ev = tuple(self.event_shape)
        shapes = {
            "loc": ev,
            "covariance_matrix": ev + ev,
            "scale_tril": ev + ev,
            "precision_matrix": ev + ev,
        }
        new = self._expand_params(MultivariateNormal, batch_shape, _instance, shapes)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        return new

    def _matrix_shape(self) -> Any:
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self) -> Any:
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        Id = torch.eye(L.shape[-1], dtype=L.dtype)
        L_inv = torch.linalg.solve_triangular(L, Id, upper=False)
        return torch.matmul(L_inv.mT, L_inv).expand(self._matrix_shape())

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def variance(self) -> Any:
        L = self._unbroadcasted_scale_tril
        return L.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self) -> Any:
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        k = self._event_shape[0]
        return -0.5 * (k * math.log(2 * math.pi) + M) - self._half_log_det()

    def entropy(self) -> Any:
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        if len(self._batch_shape) == 0:
            return H
        return H.expand(self._batch_shape)
