"""torch.nn.functional.linear_cross_entropy: a linear layer and cross entropy in one call.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`.
Without `options` it is torch's reference path, `cross_entropy(linear(input, W, b), target)`,
so the graph is the same ops'. With `options` (a LinearCrossEntropyOptions) torch runs a
chunked custom op that computes the gradients during the forward; it is reproduced here as one
autograd Function with torch's node name: backward scales the stored gradients by the
incoming one, a second backward needs `allow_retain_graph`, and there is no double backward.
Differences: the chunked op's batch chunks do not change the arithmetic here (one chunk).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

import shadowgrad as _sg

from .._tensor import Tensor
from ..autograd import Function
from . import functional as F

__all__ = ["linear_cross_entropy"]

_TWICE = (
    "linear_cross_entropy chunked backward called twice; retain_graph=True / double backward "
    "are not supported."
)


def _check(input: Tensor, linear_weight: Tensor, linear_bias: Tensor | None) -> tuple[Any, ...]:
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(
            f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}"
        )
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), got "
            f"{input.shape[-1]} and {linear_weight.shape[-1]}, respectively"
        )
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(
            f"expected linear_bias shape {(num_classes, *out_features)}, got "
            f"{tuple(linear_bias.shape)}"
        )
    if out_features and not batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(input.shape)}"
        )
    return batches, in_features, num_classes, out_features


# --- the chunked op ----------------------------------------------------------------------------


def _rows(
    x: np.ndarray, w: np.ndarray, b: Any, target: np.ndarray, weight: Any, ignore_index: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: the weighted loss, the class weight (0 where ignored), softmax - one-hot."""
    logits = x @ w.T
    if b is not None:
        logits = logits + b
    mask = target == ignore_index
    t = np.where(mask, 0, target)
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    lse = (np.log(s) + m)[:, 0]
    rows = np.arange(len(t))
    nll = lse - logits[rows, t]
    wt = np.ones(len(t), x.dtype) if weight is None else weight[t].astype(x.dtype)
    wt = np.where(mask, 0, wt).astype(x.dtype)
    dlogits = e / s
    dlogits[rows, t] -= 1
    return (wt * nll).astype(x.dtype), wt, dlogits.astype(x.dtype)


def _grads(
    x: np.ndarray, w: np.ndarray, dlogits: np.ndarray, coef: np.ndarray, need: tuple[bool, ...]
) -> tuple[Any, Any, Any]:
    d = dlogits * coef[:, None]
    gi = d @ w if need[0] else None
    gw = d.T @ x if need[1] else None
    gb = d.sum(axis=0) if need[2] else None
    return gi, gw, gb


def _arrays(*ts: Any) -> list[Any]:
    return [None if t is None else t.detach().numpy() for t in ts]


class GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_default(Function):
    """torch's chunked linear_cross_entropy op for reduction 'mean' and 'sum' (named as torch's
    custom op, so the node is `...defaultBackward`)."""

    @staticmethod
    def forward(
        ctx: Any,
        input: Tensor,
        linear_weight: Tensor,
        target: Tensor,
        linear_bias: Tensor | None,
        weight: Tensor | None,
        reduction: str,
        ignore_index: int,
        allow_retain_graph: bool,
        need: tuple[bool, bool, bool],
    ) -> Tensor:
        x, w, t, b, cw = _arrays(input, linear_weight, target, linear_bias, weight)
        loss, wt, dlogits = _rows(x, w, b, t, cw, ignore_index)
        total = loss.sum(dtype=x.dtype)
        coef = wt
        if reduction == "mean":
            d = wt.sum(dtype=x.dtype)
            total = total / d if d != 0 else np.asarray(np.nan, x.dtype)
            coef = wt / d if d != 0 else np.full_like(wt, np.nan)
        gi, gw, gb = _grads(x, w, dlogits, coef.astype(x.dtype), need)
        ctx.allow_retain_graph = allow_retain_graph
        ctx.stored = [gi, gw, gb]
        return _sg.tensor(np.asarray(total, x.dtype))

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> tuple[Any, ...]:
        stored = ctx.stored
        if not ctx.allow_retain_graph:
            if all(g is None for g in stored):
                raise RuntimeError(_TWICE)
            ctx.stored = [None, None, None]
        gi, gw, gb = (None if g is None else grad_output * _sg.from_numpy(g) for g in stored)
        return gi, gw, None, gb, None, None, None, None, None


class GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_no_reduction_default(
    Function
):
    """torch's chunked op for reduction 'none': backward recomputes the gradients with the
    per-row incoming gradient."""

    @staticmethod
    def forward(
        ctx: Any,
        input: Tensor,
        linear_weight: Tensor,
        target: Tensor,
        linear_bias: Tensor | None,
        weight: Tensor | None,
        ignore_index: int,
    ) -> Tensor:
        x, w, t, b, cw = _arrays(input, linear_weight, target, linear_bias, weight)
        loss, _, _ = _rows(x, w, b, t, cw, ignore_index)
        ctx.arrays = (x, w, t, b, cw)
        ctx.ignore_index = ignore_index
        return _sg.from_numpy(loss)

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> tuple[Any, ...]:
        x, w, t, b, cw = ctx.arrays
        need = ctx.needs_input_grad
        _, wt, dlogits = _rows(x, w, b, t, cw, ctx.ignore_index)
        coef = (wt * grad_output.detach().numpy()).astype(x.dtype)
        gi, gw, gb = _grads(x, w, dlogits, coef, (need[0], need[1], b is not None and need[3]))
        gi, gw, gb = (None if g is None else _sg.from_numpy(g) for g in (gi, gw, gb))
        return gi, gw, None, gb, None, None


def _chunked(
    input: Tensor,
    linear_weight: Tensor,
    target: Tensor,
    linear_bias: Tensor | None,
    weight: Tensor | None,
    reduction: str,
    ignore_index: int,
    options: Any,
) -> Tensor:
    batched = input.dim() == 2
    if not batched:
        input, target = input.unsqueeze(0), target.unsqueeze(0)
    options._adjust(input.shape[0], input.shape[1], linear_weight.shape[0], input.dtype)
    if reduction == "none":
        op = GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_no_reduction_default
        result = op.apply(input, linear_weight, target, linear_bias, weight, ignore_index)
    else:
        on = _sg.is_grad_enabled()
        need = (
            input.requires_grad and on,
            linear_weight.requires_grad and on,
            linear_bias is not None and linear_bias.requires_grad and on,
        )
        result = GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_default.apply(
            input,
            linear_weight,
            target,
            linear_bias,
            weight,
            reduction,
            ignore_index,
            options.allow_retain_graph,
            need,
        )
    return result if batched else result.squeeze(0)


def linear_cross_entropy(
    input: Tensor,
    linear_weight: Tensor,
    target: Tensor,
    *,
    linear_bias: Tensor | None = None,
    weight: Tensor | None = None,
    reduction: str = "mean",
    ignore_index: int | None = None,
    label_smoothing: float = 0.0,
    options: Any = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.linear_cross_entropy`."""
    batches, in_features, num_classes, out_features = _check(input, linear_weight, linear_bias)
    logits_shape = (*batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    chunkable = (
        not out_features
        and reduction in ("mean", "sum", "none")
        and label_smoothing == 0.0
        and target.dtype == _sg.int64
    )
    if options is not None and not chunkable:
        bias_shape = tuple(linear_bias.shape) if linear_bias is not None else None
        warnings.warn(
            "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
            "{'mean','sum','none'}, label_smoothing == 0, target.dtype == int64, out_features "
            f"== (). Got reduction={reduction!r}, label_smoothing={label_smoothing}, "
            f"target.dtype={target.dtype}, out_features={out_features}, tracing=False, "
            f"linear_bias.shape={bias_shape}.",
            stacklevel=2,
        )
    if options is not None and chunkable:
        return _chunked(
            input, linear_weight, target, linear_bias, weight, reduction, ignore_index, options
        )
    if out_features:
        rows = math.prod(out_features) * num_classes
        linear_weight = linear_weight.reshape((rows, in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(rows)
    logits = F.linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return F.cross_entropy(
        logits,
        target,
        weight=weight,
        reduction=reduction,
        ignore_index=ignore_index,
        label_smoothing=label_smoothing,
    )
