"""The less common losses and distances of torch.nn.functional, and its in-place activations.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`.
Most are compositions of basic ops, written as torch's ATen or Python code composes them so
that the recorded nodes match; soft_margin_loss, multi_margin_loss and multilabel_margin_loss
have their own nodes, as in torch.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _creation as C
from .. import _dtype as D
from .. import _grad_mode
from .._tensor import Tensor, _make
from ..autograd.forward_ad import LOSS
from ..ops import nn_ctc
from ..ops import nn_ops as K
from ..ops import pointwise as P
from ..ops.registry import _SAVED_LAZY, defop, saved_array
from ..ops.shape_extra import _no_derivative
from . import functional as F

__all__ = [
    "celu_",
    "cosine_embedding_loss",
    "ctc_loss",
    "elu_",
    "gaussian_nll_loss",
    "hardtanh_",
    "hinge_embedding_loss",
    "leaky_relu_",
    "margin_ranking_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "pdist",
    "poisson_nll_loss",
    "selu_",
    "soft_margin_loss",
    "threshold_",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]


def _scalar_minus(s: float, x: Tensor) -> Tensor:
    # ATen's C++ `number - tensor` fills a tensor with the number and subtracts (SubBackward0)
    return C.full_like(x, s) - x


def _broadcast_shape(a: Tensor, b: Tensor) -> tuple[int, ...]:
    """The broadcast shape of two tensors, or torch's error naming the first mismatch."""
    try:
        return tuple(np.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    except ValueError:
        n = max(a.ndim, b.ndim)
        sa, sb = (1,) * (n - a.ndim) + tuple(a.shape), (1,) * (n - b.ndim) + tuple(b.shape)
        i = max(k for k in range(n) if sa[k] != sb[k] and 1 not in (sa[k], sb[k]))
        raise RuntimeError(
            f"The size of tensor a ({sa[i]}) must match the size of tensor b ({sb[i]}) at "
            f"non-singleton dimension {i}"
        ) from None


def _size_list(t: Tensor) -> str:
    return str(list(t.shape))


# --- margin and embedding losses ------------------------------------------------------------


def _check_margin(fn: str, margin: Any, pos: int) -> None:
    """torch's argument parser reads `margin` as a float: a number (bool, numpy's too) or a
    tensor; anything else is its TypeError."""
    if type(margin) in (float, int) or isinstance(margin, (numbers.Real, np.number, Tensor)):
        return
    raise TypeError(
        f"{fn}(): argument 'margin' (position {pos}) must be float, not {type(margin).__name__}"
    )


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.margin_ranking_loss`."""
    _check_margin("margin_ranking_loss", margin, 4)
    r = F._reduction(size_average, reduce, reduction)
    for t in (input1, input2, target):
        if not isinstance(t, Tensor):  # torch reads input1.dim() != input2.dim() first
            raise F._no_attribute(t, "dim")
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} "
        )
    prod = -target * (input1 - input2)
    # torch's margin is a double: an integer product becomes floating
    shifted = P.add_scalar(prod, margin) if prod.dtype.is_floating_point else prod + float(margin)
    out = shifted.clamp_min(0)
    return F._apply_reduction(out, r)


def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.hinge_embedding_loss`."""
    _check_margin("hinge_embedding_loss", margin, 3)
    r = F._reduction(size_average, reduce, reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        F._check_tensors("hinge_embedding_loss", ("input", "target"), input, target)
    zeros = C.zeros_like(input)
    margin_clamp = _scalar_minus(margin, input).clamp_min(0)
    out_margin = P.where(target != 1, margin_clamp, zeros)
    out_self = P.where(target != -1, input, zeros)
    return F._apply_reduction(out_margin + out_self, r)


def _soft_margin_np(self: np.ndarray, target: np.ndarray, reduction: int) -> np.ndarray:
    with np.errstate(over="ignore"):
        loss = np.log1p(np.exp(-target * self))
    return K._reduce_np(loss.astype(self.dtype, copy=False), reduction)


def _np_soft_margin_bw(grad_output, self, target, reduction):
    # torch's soft_margin_loss_backward: -norm * target * z / (1 + z) * grad, z = exp(-target * x)
    # (torch's order: target * z, times -norm, over 1 + z, times grad)
    dt = np.result_type(self, target)
    norm = dt.type(-(1.0 / max(self.size, 1) if reduction == 1 else 1.0))
    with np.errstate(over="ignore", invalid="ignore"):
        z = K._fm.exp(-target * self)
        r = target * z * norm / (z + dt.type(1)) * grad_output
    return np.asarray(r).astype(self.dtype, copy=False)


def _soft_margin_dd(grad: Tensor, self: Tensor, target: Tensor, reduction: int) -> Tensor:
    # torch's soft_margin_loss_double_backward
    z = P.exp(self * -target)
    zplus1 = P.add_scalar(z, 1)
    g = grad * (target * target) * z / (zplus1 * zplus1)
    return K._div_scalar(g, self.numel()) if reduction == 1 else g


# soft_margin_loss's backward is an op of its own, as in torch (SoftMarginLossBackwardBackward0)
_soft_margin_bw = defop(
    "soft_margin_loss_backward",
    "SoftMarginLossBackwardBackward0",
    _np_soft_margin_bw,
    nondiff=("target",),
    jvp=_no_derivative("soft_margin_loss_backward")[1],  # torch's has no forward derivative
    grad_output=lambda grad, grad_output, self, target, reduction: K._loss_bw_grad_output(
        _soft_margin_bw, grad, grad_output, self, target, reduction
    ),
    self=lambda grad, grad_output, self, target, reduction: _soft_margin_dd(
        grad * grad_output, self, target, reduction
    ),
)

_soft_margin_op = defop(
    "soft_margin_loss",
    "SoftMarginLossBackward0",
    _soft_margin_np,
    nondiff=("target",),
    self=lambda grad, self, target, reduction: _soft_margin_bw(grad, self, target, reduction),
    jvp=LOSS,
)


def soft_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.soft_margin_loss`."""
    r = F._reduction(size_average, reduce, reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        F._check_tensors("soft_margin_loss", ("input", "target"), input, target)
    if target.requires_grad and _grad_mode.STATE.grad:
        raise RuntimeError(
            "The function 'soft_margin_loss' is not differentiable with respect to argument "
            "'target'. This input cannot have requires_grad True."
        )
    shape = _broadcast_shape(input, target)
    if tuple(input.shape) != shape:
        input = input.expand(tuple(shape))
    if not input.dtype.is_floating_point and not input.dtype.is_complex:
        res = D.promote_types(input.dtype, target.dtype)
        if not res.is_floating_point:
            res = D.get_default_dtype()
        raise RuntimeError(
            f"result type {res._short} can't be cast to the desired output type "
            f"{input.dtype._short}"
        )
    if target.dtype is not input.dtype:  # torch's result has the input's dtype
        target = target.to(input.dtype)
    return _soft_margin_op(input, target.expand(tuple(shape)), r)


def multilabel_soft_margin_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.multilabel_soft_margin_loss`."""
    if size_average is not None or reduce is not None:
        reduction = {0: "none", 1: "mean", 2: "sum"}[F._reduction(size_average, reduce, "mean")]
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    if input.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.cosine_embedding_loss`."""
    _check_margin("cosine_embedding_loss", margin, 4)
    r = F._reduction(size_average, reduce, reduction)
    if not (
        isinstance(input1, Tensor) and isinstance(input2, Tensor) and isinstance(target, Tensor)
    ):
        names = ("input1", "input2", "target")
        F._check_tensors("cosine_embedding_loss", names, input1, input2, target)
    td = target.ndim
    if td not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if (input1.ndim, input2.ndim) != (td + 1, td + 1):
        raise RuntimeError(
            f"{td}D target tensor expects {td + 1}D input tensors, but found inputs with sizes "
            f"{_size_list(input1)} and {_size_list(input2)}."
        )
    eps = 1e-12  # keeps the denominator off zero, as torch
    prod_sum = (input1 * input2).sum(td)
    mag1 = P.add_scalar((input1 * input1).sum(td), eps)
    mag2 = P.add_scalar((input2 * input2).sum(td), eps)
    cos = prod_sum / P.sqrt(mag1 * mag2)
    zeros = C.zeros_like(cos)
    pos = _scalar_minus(1, cos)
    neg = P.sub_scalar(cos, margin).clamp_min(0)
    out = P.where(target == 1, pos, zeros) + P.where(target == -1, neg, zeros)
    return F._apply_reduction(out, r)


# --- triplet losses -------------------------------------------------------------------------


def _check_triplet_dims(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    a, p, n = anchor.ndim, positive.ndim, negative.ndim
    if not a == p == n:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {a}D, positive {p}D, and negative {n}D inputs"
        )


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.triplet_margin_loss`."""
    r = F._reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not (
        isinstance(anchor, Tensor) and isinstance(positive, Tensor) and isinstance(negative, Tensor)
    ):
        names = ("anchor", "positive", "negative")
        F._check_tensors("triplet_margin_loss", names, anchor, positive, negative)
    _check_triplet_dims(anchor, positive, negative)
    dist_pos = F.pairwise_distance(anchor, positive, p, eps)
    dist_neg = F.pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = P.minimum(dist_neg, F.pairwise_distance(positive, negative, p, eps))
    out = (P.add_scalar(dist_pos, margin) - dist_neg).clamp_min(0)
    return F._apply_reduction(out, r)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.triplet_margin_with_distance_loss`."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    dist = F.pairwise_distance if distance_function is None else distance_function
    dist_pos = dist(anchor, positive)
    dist_neg = dist(anchor, negative)
    if swap:
        dist_neg = P.minimum(dist_neg, dist(positive, negative))
    loss = P.clamp_min(margin + dist_pos - dist_neg, 0)
    return F._apply_reduction(loss, F._REDUCTIONS[reduction])


# --- connectionist temporal classification ----------------------------------------------------


_CTC_SIGNATURES = tuple(
    (
        f"Tensor log_probs, Tensor targets, {kind} input_lengths, {kind} target_lengths, int "
        "blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False",
        tensors,
    )
    for kind, tensors in (("tuple of ints", (0, 1)), ("Tensor", (0, 1, 2, 3)))
)


def _int_list(v: Any) -> bool:
    """A value torch's parser takes for a `tuple of ints` parameter."""
    return isinstance(v, (list, tuple)) and all(
        isinstance(e, (int, np.integer)) and not isinstance(e, bool) for e in v
    )


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Tensor,
    target_lengths: Tensor,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Tensor:
    """Mirrors `torch.nn.functional.ctc_loss` (the kernel is in ops/nn_ctc.py)."""
    r = F._reduction(None, None, reduction)
    if not (
        isinstance(log_probs, Tensor)
        and isinstance(targets, Tensor)
        and (
            (isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor))
            or (_int_list(input_lengths) and _int_list(target_lengths))
        )
    ):
        args = (log_probs, targets, input_lengths, target_lengths, blank, r, zero_infinity)
        raise F._invalid_combination("ctc_loss", _CTC_SIGNATURES, 7, *args)
    return nn_ctc.ctc_loss(
        log_probs, targets, input_lengths, target_lengths, blank, r, zero_infinity
    )


# --- likelihood losses ----------------------------------------------------------------------


def poisson_nll_loss(
    input: Tensor,
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average: bool | None = None,
    eps: float = 1e-8,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.poisson_nll_loss`."""
    if reduction == "elementwise_mean" and size_average is None and reduce is None:
        raise ValueError(f"{reduction} is not a valid value for reduction")  # its own check
    r = F._reduction(size_average, reduce, reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        F._check_tensors("poisson_nll_loss", ("input", "target"), input, target)
    if log_input:
        t_in = target * input  # formed first, as torch's C++ does (the gradients' order)
        loss = P.exp(input) - t_in
    else:
        loss = input - target * P.log(P.add_scalar(input, eps))
    if full:
        # Stirling's approximation of log(target!), only where target > 1
        two_pi_t = P._mul_scalar(target, 2 * math.pi)
        stirling = target * P.log(target) - target + P._mul_scalar(P.log(two_pi_t), 0.5)
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return F._apply_reduction(loss, r)


def gaussian_nll_loss(
    input: Tensor,
    target: Tensor,
    var: Tensor | float,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.gaussian_nll_loss`."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * C.ones_like(input)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (
            input.ndim == var.ndim
            and sum(v for i, v in zip(input.shape, var.shape, strict=True) if i != v) == 1
        ):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (P.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return F._apply_reduction(loss, F._REDUCTIONS[reduction])


# --- multi-class margin losses (their own nodes) --------------------------------------------


def _check_long(target: Tensor) -> None:
    if target.dtype is not D.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._short}")


def _check_input_2d(input: Tensor) -> None:
    nd = input.ndim
    if not (nd == 0 or (nd in (1, 2) and input.shape[-1] != 0)):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{_size_list(input)}"
        )


def _frames(input: Tensor) -> tuple[int, int]:
    """(samples, classes) of a 0-d, 1-d or 2-d input."""
    if input.ndim == 2:
        return input.shape[0], input.shape[1]
    return 1, (input.shape[0] if input.ndim else 1)


def _multi_margin_terms(x: np.ndarray, y: np.ndarray, p: int, margin: float, w: Any) -> Any:
    """Per-(sample, class) hinge terms max(0, margin - x[y] + x[d]) for d != y, and their
    weights (weight[y] / classes), on the input reshaped to (samples, classes)."""
    n, c = x.shape
    xy = x[np.arange(n), y][:, None]
    z = margin - xy + x
    z[np.arange(n), y] = 0
    z = np.maximum(z, 0)
    scale = (w[y] if w is not None else np.ones(n, x.dtype))[:, None] / c
    return z, scale.astype(x.dtype, copy=False)


def _mm_shape(self: np.ndarray, reduction: int) -> tuple[int, ...]:
    if reduction:
        return ()
    return (self.shape[0],) if self.ndim == 2 else ()


def _multi_margin_np(self, target, p, margin, weight, reduction):
    n, c = self.shape if self.ndim == 2 else (1, self.size)
    z, scale = _multi_margin_terms(self.reshape(n, c), target.reshape(n), p, margin, weight)
    per = ((z if p == 1 else z * z) * scale).sum(1).astype(self.dtype, copy=False)
    if reduction == 0:
        return per.reshape(_mm_shape(self, 0))
    return K._reduce_np(per, reduction)


def _multi_margin_grad(grad, self, target, p, margin, weight, reduction):
    x, g = self._data, grad._data
    n, c = x.shape if x.ndim == 2 else (1, x.size)
    w = weight._data if weight is not None else None
    z, scale = _multi_margin_terms(x.reshape(n, c), target._data.reshape(n), p, margin, w)
    h = ((z > 0) if p == 1 else 2 * z) * scale
    h[np.arange(n), target._data.reshape(n)] = -h.sum(1)
    gs = g.reshape(n, 1) if reduction == 0 else g / (n if reduction == 1 else 1)
    out = _make((h * gs).astype(x.dtype, copy=False).reshape(x.shape))
    return P.no_derivative(out, (grad, self), "multi_margin_loss_backward")


_multi_margin_op = defop(
    "multi_margin_loss",
    "MultiMarginLossBackward0",
    lambda self, target, p, margin, weight, reduction: _multi_margin_np(
        self, target, p, margin, weight, reduction
    ),
    nondiff=("target", "weight"),
    dtype="keep",
    self=_multi_margin_grad,
    jvp=LOSS,
)


def multi_margin_loss(
    input: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.multi_margin_loss`.

    Differences: backward of its backward raises (not implemented), as in torch."""
    r = F._reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        F._check_tensors("multi_margin_loss", ("input", "target"), input, target)
    _check_input_2d(input)
    n, c = _frames(input)
    if (target.ndim > 1 or (input.ndim == 2 and target.ndim != 1)) or target.numel() != n:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{n}], but got "
            f"{_size_list(target)}. Input has shape {_size_list(input)}."
        )
    if weight is not None and weight.numel() != c:
        raise RuntimeError(f"inconsistent weight size, expected {c} but got {_size_list(weight)}")
    _check_long(target)
    if input.dtype not in (D.float32, D.float64):  # (no float16/bfloat16 kernel either)
        raise NotImplementedError(
            f"\"multi_margin_loss_cpu_kernel\" not implemented for '{input.dtype._short}'"
        )
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype._short} but found {weight.dtype._short}"
        )
    t = target._data
    if ((t < 0) | (t >= c)).any():
        raise RuntimeError("target out of range")
    return _multi_margin_op(input, target, p, margin, weight, r)


def _multilabel_terms(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hinge terms max(0, 1 - x[j] + x[i]) for each target class j (a (samples, classes,
    classes) array, zero where j is not a target or i is) and the is-target mask."""
    n, c = x.shape
    # the targets of a sample are its leading entries up to the first -1
    valid = np.cumprod(y != -1, axis=1).astype(bool)
    is_target = np.zeros((n, c), bool)
    rows = np.repeat(np.arange(n), c)[valid.ravel()]
    is_target[rows, y[valid]] = True
    z = np.maximum(1 - x[:, :, None] + x[:, None, :], 0)
    z = z * (is_target[:, :, None] & ~is_target[:, None, :])
    return z.astype(x.dtype, copy=False), is_target


def _multilabel_np(self, target, reduction):
    n, c = self.shape if self.ndim == 2 else (1, self.size)
    z, _ = _multilabel_terms(self.reshape(n, c), target.reshape(n, c))
    per = (z.sum((1, 2)) / c).astype(self.dtype, copy=False)
    if reduction == 0:
        return per.reshape(_mm_shape(self, 0))
    return K._reduce_np(per, reduction)


def _multilabel_grad(grad, self, target, reduction):
    x, g = self._data, grad._data
    n, c = x.shape if x.ndim == 2 else (1, x.size)
    z, _ = _multilabel_terms(x.reshape(n, c), target._data.reshape(n, c))
    h = (z > 0).astype(x.dtype) / c  # [sample, j (target), i (non-target)]
    gx = h.sum(1) - h.sum(2)
    gs = g.reshape(n, 1) if reduction == 0 else g / (n if reduction == 1 else 1)
    out = _make((gx * gs).astype(x.dtype, copy=False).reshape(x.shape))
    return P.no_derivative(out, (grad, self), "multilabel_margin_loss_backward")


_multilabel_op = defop(
    "multilabel_margin_loss",
    "MultilabelMarginLossBackward0",
    _multilabel_np,
    nondiff=("target",),
    dtype="keep",
    self=_multilabel_grad,
    jvp=LOSS,
)


def _is_target(node: Any) -> Tensor:
    """torch's multilabel_margin_loss_forward's is_target output, which its node saves: 1 where
    a class is among the sample's targets (those before its first -1)."""
    x, t = saved_array(node, "self"), saved_array(node, "target")
    t2 = t.reshape(-1, t.shape[-1] if t.ndim else 1)
    out = np.zeros(t2.shape, x.dtype)
    for r, row in enumerate(t2):
        for j in row:
            if j < 0:
                break
            out[r, j] = 1
    return _make(out.reshape(t.shape))


_SAVED_LAZY["MultilabelMarginLossBackward0"] = {"is_target": _is_target}


def multilabel_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Mirrors `torch.nn.functional.multilabel_margin_loss`.

    Differences: backward of its backward raises (not implemented), as in torch."""
    r = F._reduction(size_average, reduce, reduction)
    if not (isinstance(input, Tensor) and isinstance(target, Tensor)):
        F._check_tensors("multilabel_margin_loss", ("input", "target"), input, target)
    _check_input_2d(input)
    n, c = _frames(input)
    ok = target.ndim == 2 and tuple(target.shape) == (n, c)
    if input.ndim < 2:
        ok = target.ndim <= 1 and target.numel() == c
    if not ok:
        raise RuntimeError(
            f"inconsistent target size: {_size_list(target)} for input of size: {_size_list(input)}"
        )
    _check_long(target)
    if input.dtype not in (D.float32, D.float64):  # (no float16/bfloat16 kernel either)
        raise NotImplementedError(
            '"multilabel_margin_loss_forward_out_frame" not implemented for '
            f"'{input.dtype._short}'"
        )
    t = target._data
    if ((t < -1) | (t >= c)).any():
        raise RuntimeError("argument #2 'target' is out of range")
    return _multilabel_op(input, target, r)


# --- pdist ----------------------------------------------------------------------------------


def _pairs(n: int) -> tuple[Tensor, Tensor]:
    i, j = np.triu_indices(n, 1)
    return _make(i.astype(np.int64)), _make(j.astype(np.int64))


def _pdist_np(self: np.ndarray, p: float) -> np.ndarray:
    i, j = np.triu_indices(self.shape[0], 1)
    return K._np_norm(self[i] - self[j], p, 1, False)


def _pdist_grad(grad: Tensor, self: Tensor, p: float, result: Tensor) -> Tensor:
    # torch's _pdist_backward: 0 where a difference or the distance is 0; the inf-norm sends
    # the full grad to every tied maximum
    i, j = _pairs(self.shape[0])
    diff = self[i] - self[j]
    d = result.unsqueeze(1)
    s = K._sign(diff)
    if p == 0:
        g = diff * 0
    elif p == 1:
        g = s
    elif math.isinf(p):
        g = s * (K._abs(diff) == d).to(diff.dtype)
    else:
        g = P.where((diff == 0) | (d == 0), 0.0, s * K._abs(diff) ** (p - 1) / d ** (p - 1))
    g = g * grad.unsqueeze(1)
    return C.zeros_like(self).index_add(0, i, g).index_add(0, j, -g)


def _pdist_bw_np(grad_output: Any, self: Any, p: float, pdist: Any) -> np.ndarray:
    with _grad_mode.no_grad():
        return _pdist_grad(_make(grad_output), _make(self), p, _make(pdist))._data


def _pdist_no_formula(grad: Tensor) -> Tensor:
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


# torch's _pdist_backward: under create_graph the gradient is its node (edges: grad, self and
# the distances), without a derivative: backward through it raises
_pdist_bw = defop(
    "_pdist_backward",
    "PdistBackwardBackward0",
    _pdist_bw_np,
    dtype="keep",
    jvp=_no_derivative("_pdist_backward")[1],
    grad_output=_pdist_no_formula,
    self=_pdist_no_formula,
    pdist=_pdist_no_formula,
)


def _pdist_formula(grad: Tensor, self: Tensor, p: float, result: Tensor) -> Tensor:
    if _grad_mode.STATE.grad:
        return _pdist_bw(grad, self, p, result)
    return _pdist_grad(grad, self, p, result)


_pdist_op = defop(
    "_pdist_forward",
    "PdistBackward0",
    _pdist_np,
    dtype="keep",
    self=_pdist_formula,
)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """Mirrors `torch.nn.functional.pdist`."""
    if not isinstance(input, Tensor):
        raise F._not_tensor("pdist", "input", 1, input)
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input.dtype not in (D.float32, D.float64):
        raise NotImplementedError(f"\"pdist\" not implemented for '{input.dtype._short}'")
    return _pdist_op(input, float(p))


# --- in-place activations (the same nodes as inplace=True) -----------------------------------


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """Mirrors `torch.nn.functional.elu_`."""
    return F.elu(input, alpha, True)


def selu_(input: Tensor) -> Tensor:
    """Mirrors `torch.nn.functional.selu_`."""
    return F.selu(input, True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """Mirrors `torch.nn.functional.celu_`."""
    return F.celu(input, alpha, True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """Mirrors `torch.nn.functional.leaky_relu_`."""
    return F.leaky_relu(input, negative_slope, True)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """Mirrors `torch.nn.functional.hardtanh_` (native in torch: its parser's errors)."""
    if (min_val.__class__ is not float and min_val.__class__ is not int) or (
        max_val.__class__ is not float and max_val.__class__ is not int
    ):
        from .._signatures import reraise_as_called

        names = ("input", "min_val", "max_val")
        reraise_as_called("F.hardtanh_", names, (input, min_val, max_val), False)
    return F._hardtanh(input, min_val, max_val, True)  # (limits the wrong way round: clamped)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """Mirrors `torch.nn.functional.threshold_`."""
    return F.threshold(input, threshold, value, True)
