"""Helpers shared by the distributions. Mirrors `torch.distributions.utils`."""

from __future__ import annotations

import numbers
from functools import update_wrapper
from typing import Any

import numpy as np

import shadowgrad as torch

__all__ = [
    "broadcast_all",
    "clamp_probs",
    "lazy_property",
    "logits_to_probs",
    "probs_to_logits",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]

euler_constant = 0.57721566490153286060  # Euler Mascheroni Constant


def broadcast_all(*values: Any) -> tuple:
    """Broadcast numbers and tensors together; numbers take the first tensor's dtype."""
    if not all(isinstance(v, (torch.Tensor, numbers.Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, "
            "torch.Tensor or objects implementing __torch_function__."
        )
    if not all(isinstance(v, torch.Tensor) for v in values):
        dtype = torch.get_default_dtype()
        for v in values:
            if isinstance(v, torch.Tensor):
                dtype = v.dtype
                break
        values = tuple(
            v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype) for v in values
        )
    return torch.broadcast_tensors(*values)


def finfo(dtype: Any) -> Any:
    """numpy's finfo for a shadowgrad float dtype (eps, tiny, max, min match torch.finfo)."""
    return np.finfo(torch.empty(0, dtype=dtype).numpy().dtype)


def _standard_normal(shape: Any, dtype: Any, device: Any = None) -> Any:
    return torch.randn(shape, dtype=dtype)


def _sum_rightmost(value: Any, dim: int) -> Any:
    """Sum out the ``dim`` rightmost dimensions of ``value``."""
    if dim == 0:
        return value
    required_shape = (*tuple(value.shape[: value.dim() - dim]), -1)
    return value.reshape(required_shape).sum(-1)


def logits_to_probs(logits: Any, is_binary: bool = False) -> Any:
    """Sigmoid of binary logits, or softmax over the last dim of categorical logits."""
    if is_binary:
        return torch.sigmoid(logits)
    return torch.nn.functional.softmax(logits, dim=-1)


def clamp_probs(probs: Any) -> Any:
    """Clamp probabilities into ``[eps, 1 - eps]`` of their dtype."""
    eps = float(finfo(probs.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Any:
    """Log-odds of binary probabilities, or log-probabilities of categorical ones."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """Computes an attribute on first access (with grad enabled), then caches it on the
    instance."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)  # type: ignore[arg-type]

    def __get__(self, instance: Any, obj_type: Any = None) -> Any:
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _BinaryProbsLogits:
    """``probs`` and ``logits`` of a binary-event family, each built lazily from the other."""

    @lazy_property
    def logits(self) -> Any:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        return logits_to_probs(self.logits, is_binary=True)


def _set_binary_param(dist: Any, probs: Any, logits: Any) -> Any:
    """Store exactly one of ``probs``/``logits`` on ``dist`` (and as ``_param``); the batch
    shape: empty for a Python number, else the parameter's shape."""
    _one_of_probs_logits(probs, logits)
    name, value = ("probs", probs) if probs is not None else ("logits", logits)
    (param,) = broadcast_all(value)
    setattr(dist, name, param)
    dist._param = param
    return torch.Size() if isinstance(value, numbers.Number) else param.size()


class _RelaxedParams:
    """``temperature``, ``logits`` and ``probs`` of a relaxed family, read from its base."""

    @property
    def temperature(self) -> Any:
        return self.base_dist.temperature

    @property
    def logits(self) -> Any:
        return self.base_dist.logits

    @property
    def probs(self) -> Any:
        return self.base_dist.probs


def tril_matrix_to_vec(mat: Any, diag: int = 0) -> Any:
    """The lower triangle (offset ``diag``) of the last two dims, as a vector, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = torch.arange(n)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]


def vec_to_tril_matrix(vec: Any, diag: int = 0) -> Any:
    """Inverse of `tril_matrix_to_vec`: fill the lower triangle of a square matrix."""
    n = (
        -(1 + 2 * diag)
        + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5
    ) / 2
    eps = float(finfo(vec.dtype).eps)
    if round(n) - n > eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            + "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros((*tuple(vec.shape[:-1]), n, n))
    arange = torch.arange(n)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat


def _sampler(name: str, *arrays: np.ndarray) -> np.ndarray:
    """torch's per-element sampler `name` (standard_gamma, dirichlet) on the default
    generator: the draws torch's _standard_gamma and _sample_dirichlet make."""
    from .. import _random, _rng_samplers

    return getattr(_rng_samplers, name)(_random._gen(None), *arrays)  # type: ignore[no-any-return]


def _one_of_probs_logits(probs: Any, logits: Any) -> None:
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _enumerate_values(values: Any, batch_shape: Any, expand: bool, tail: tuple = ()) -> Any:
    """Lay out support values ``(n, *tail)`` as ``(n, 1, ..., 1, *tail)``, expanded over the
    batch when ``expand``."""
    n = values.shape[0]
    values = values.view((n,) + (1,) * len(batch_shape) + tail)
    if expand:
        values = values.expand((n, *tuple(batch_shape), *tail))
    return values


def _broadcast_shapes(*shapes: Any) -> Any:
    """The broadcast of several shapes (torch.broadcast_shapes)."""
    return torch.Size(torch.broadcast_shapes(*shapes))  # torch's error for a mismatch


def _standard_gamma(concentration: Any) -> Any:
    """Gamma(concentration, 1) draws, no grad (torch._standard_gamma)."""
    return torch.tensor(_sampler("standard_gamma", concentration.detach().numpy()))
