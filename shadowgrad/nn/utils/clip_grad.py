"""Gradient clipping. Mirrors `torch.nn.utils.clip_grad`."""

from __future__ import annotations

import functools
import math
import types
import warnings
from collections.abc import Iterable

import numpy as np

from ... import _dtype as D
from ..._creation import from_numpy, tensor
from ..._grad_mode import no_grad
from ..._tensor import Tensor

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
]


def _vector_norm(a: np.ndarray, p: float) -> np.ndarray:
    # Computed in the tensor's own dtype, as torch.linalg.vector_norm does (float16 and
    # bfloat16 accumulate in float32 and round the norm once, as torch's kernel).
    if a.dtype == np.float16 or a.dtype is D.LD:
        with np.errstate(over="ignore"):
            r = _vector_norm(a.astype(np.float32), p)
        return r.astype(np.float16) if a.dtype == np.float16 else D.round_bf16(r)
    a = np.abs(a)
    if p == math.inf:
        return a.max(initial=0).astype(a.dtype)  # type: ignore[no-any-return]
    if p == -math.inf:
        return a.min().astype(a.dtype)  # type: ignore[no-any-return]
    if p == 0:
        return np.asarray((a != 0).sum(), dtype=a.dtype)
    if p == 1:
        return np.asarray(a.sum(), dtype=a.dtype)
    if p == 2:
        return np.sqrt(np.asarray((a * a).sum(), dtype=a.dtype))  # type: ignore[no-any-return]
    return np.asarray(np.power((a**p).sum(), 1.0 / p), dtype=a.dtype)


def get_total_norm(
    tensors: Tensor | Iterable[Tensor],
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """The norm of the norms of `tensors`. Mirrors `torch.nn.utils.get_total_norm`."""
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return tensor(0.0)
    try:
        norms = [_norm_of(t, norm_type) for t in tensors]
    except AttributeError:
        # torch groups the tensors by device and dtype first, which refuses a None
        for i, t in enumerate(tensors):
            if t is None:
                raise RuntimeError(
                    "Tensors of the first list of nested Tensor lists are supposed to be defined "
                    f"but the {i}-th Tensor is not."
                ) from None
        raise
    # torch stacks the norms, promoting their dtypes (float16 with bfloat16 is float32)
    dt = functools.reduce(D.promote_types, [D._FROM_NP[n.dtype] for n in norms])._np
    total = _vector_norm(np.stack([n.astype(dt) for n in norms]), norm_type)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return from_numpy(_bf16(np.asarray(total)))


def _norm_of(t: Tensor, p: float) -> np.ndarray:
    if not (t.is_floating_point() or t.is_complex()):
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{t.dtype._short}"
        )
    a = t._data
    if type(a) is not np.ndarray and t.is_sparse:
        from ...sparse._ops import not_on_sparse

        raise not_on_sparse("linalg_vector_norm")
    return _vector_norm(a, p)


def _bf16(a: np.ndarray) -> np.ndarray:
    """A bfloat16 norm (a longdouble array, Note [bfloat16 storage]) rounded, as torch's."""
    return D.round_bf16(a) if a.dtype is D.LD else a


def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Scale gradients so their total norm is at most max_norm. Mirrors
    `torch.nn.utils.clip_grad_norm_`."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn(
                "`parameters` is an empty generator, no gradient clipping will occur.",
                stacklevel=2,
            )
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grads_with_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    total_norm: Tensor,
    foreach: bool | None = None,
) -> None:
    """Scale the gradients by max_norm / (total_norm + 1e-6) when that is below 1. Mirrors
    `torch.nn.utils.clip_grads_with_norm_`."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return
    coef = float(max_norm) / (total_norm + 1e-6)
    c = coef._data
    coef_clamped = from_numpy(np.asarray(np.minimum(c, np.asarray(1.0, dtype=c.dtype))))
    with no_grad():
        for g in grads:
            g.mul_(coef_clamped)


def clip_grad_norm(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Deprecated alias of clip_grad_norm_. Mirrors `torch.nn.utils.clip_grad_norm`."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(
    parameters: Tensor | Iterable[Tensor], clip_value: float, foreach: bool | None = None
) -> None:
    """Clamp each gradient to [-clip_value, clip_value].

    Mirrors `torch.nn.utils.clip_grad_value_`.
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:  # torch's _group_tensors_by_device_and_dtype refuses an empty list
        raise RuntimeError(
            "Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this "
            "error message be improved?  If so, please report an enhancement request to "
            "PyTorch.)"
        )
    if any(g.dtype.is_complex for g in grads):  # before any gradient is clipped, as torch
        raise NotImplementedError("clamp is not supported for complex types")
    with no_grad():
        for g in grads:
            a = g.detach()._data
            if type(a) is not np.ndarray and g.is_sparse:
                from ...sparse._ops import not_on_sparse

                # torch's foreach path (the default) fails in _foreach_clamp_min_, its loop
                # (foreach=False) in clamp_
                raise not_on_sparse("clamp_" if foreach is False else "clamp_min_")
            g.copy_(from_numpy(np.clip(a, -clip_value, clip_value).astype(a.dtype)))
