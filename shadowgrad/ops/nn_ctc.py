"""The connectionist temporal classification loss: `torch.ctc_loss` and its `_ctc_loss` kernel.

The forward runs the log-space alpha recursion over the blank-extended target, the backward
the beta recursion, both in float64. As torch's CPU kernel does, the gradient with respect to
log_probs is `exp(log_probs) - posterior` (the gradient through an implied log_softmax), zero
past each sample's input length, NaN for a sample whose loss is infinite, and zero for it when
zero_infinity is set.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _creation as C
from .. import _dtype as D
from .._tensor import Tensor, _make
from . import pointwise as P
from .pointwise import _invalid_combination
from .registry import defop
from .shape_extra import _NO_JVP

_WHERE = " (while checking arguments for ctc_loss_allocate_outputs)"
_SIGS = (
    "Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
    "target_lengths, int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = "
    "False",
    "Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank = "
    "0, int reduction = at::Reduction::Mean, bool zero_infinity = False",
)


def _lse(*xs: np.ndarray) -> np.ndarray:
    """log(sum(exp)) of same-shaped arrays, -inf where all are -inf."""
    m = np.maximum.reduce(xs)
    safe = np.where(np.isneginf(m), 0.0, m)
    s = sum(np.exp(x - safe) for x in xs)
    with np.errstate(divide="ignore"):
        return np.where(np.isneginf(m), -np.inf, safe + np.log(s))


def _extended(lp: np.ndarray, target: np.ndarray, blank: int) -> tuple[Any, Any, Any]:
    """The blank-extended labels, their log-probs per frame, and where a skip of two is allowed
    (a label position whose label differs from the one two back)."""
    ext = np.full(2 * target.size + 1, blank, np.int64)
    ext[1::2] = target
    skip = np.zeros(ext.size, bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    return ext, lp[:, ext], skip


def _shift(a: np.ndarray, k: int, forward: bool) -> np.ndarray:
    out = np.full_like(a, -np.inf)
    if forward:
        out[k:] = a[: a.size - k]
    else:
        out[: a.size - k] = a[k:]
    return out


def _alphas(e: np.ndarray, skip: np.ndarray) -> np.ndarray:
    alpha = np.full(e.shape, -np.inf)
    alpha[0, :2] = e[0, :2]
    for t in range(1, e.shape[0]):
        prev = alpha[t - 1]
        two = np.where(skip, _shift(prev, 2, True), -np.inf)
        alpha[t] = _lse(prev, _shift(prev, 1, True), two) + e[t]
    return alpha


def _betas(e: np.ndarray, skip: np.ndarray) -> np.ndarray:
    beta = np.full(e.shape, -np.inf)
    beta[-1, -2:] = e[-1, -2:]
    skip_from = np.zeros(skip.size, bool)
    skip_from[:-2] = skip[2:]  # s may jump to s + 2 when s + 2 allows a skip
    for t in range(e.shape[0] - 2, -1, -1):
        nxt = beta[t + 1]
        two = np.where(skip_from, _shift(nxt, 2, False), -np.inf)
        beta[t] = _lse(nxt, _shift(nxt, 1, False), two) + e[t]
    return beta


def _samples(lp: np.ndarray, targets: np.ndarray, target_lengths: tuple[int, ...]) -> Any:
    """Per sample: its (T_max, C) float64 log-probs and its target labels."""
    pos = 0
    for b, n in enumerate(target_lengths):
        if targets.ndim == 1:
            tgt, pos = targets[pos : pos + n], pos + n
        else:
            tgt = targets[b, :n]
        yield lp[:, b].astype(np.float64), tgt.astype(np.int64)


def _nll(e: np.ndarray, alpha: np.ndarray, n_in: int) -> float:
    if n_in == 0:
        return -0.0 if e.shape[1] == 1 else np.inf
    last = alpha[n_in - 1]
    return float(-(_lse(last[-1], last[-2]) if last.size > 1 else last[-1]))


def _ctc_forward(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    out = np.empty(len(input_lengths), np.float64)
    for b, (lp, tgt) in enumerate(_samples(log_probs, targets, target_lengths)):
        n_in = input_lengths[b]
        _, e, skip = _extended(lp, tgt, blank)
        e = e[:n_in]
        out[b] = _nll(e, _alphas(e, skip) if n_in else e, n_in)
    return out.astype(log_probs.dtype)


def _ctc_backward_np(grad, log_probs, targets, input_lengths, target_lengths, nll, blank, zi):
    out = np.zeros(log_probs.shape, np.float64)
    for b, (lp, tgt) in enumerate(_samples(log_probs, targets, target_lengths)):
        n_in, loss = input_lengths[b], float(nll[b])
        if n_in == 0 or (zi and np.isinf(loss)):
            continue
        ext, e, skip = _extended(lp, tgt, blank)
        e = e[:n_in]
        ab = _alphas(e, skip) + _betas(e, skip)
        lcab = np.full((n_in, lp.shape[1]), -np.inf)
        for c in np.unique(ext):
            lcab[:, c] = _lse(*ab[:, ext == c].T)
        with np.errstate(invalid="ignore", over="ignore"):
            post = np.exp(lcab + loss - lp[:n_in])
        out[:n_in, b] = (np.exp(lp[:n_in]) - post) * float(grad[b])
    return out.astype(grad.dtype)


def _ctc_grad(
    grad, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity, result
):
    g = _ctc_backward_np(
        grad._data,
        log_probs._data,
        targets._data,
        input_lengths,
        target_lengths,
        result._data,
        blank,
        zero_infinity,
    )
    # torch records its _ctc_loss_backward kernel without a derivative
    return P.no_derivative(_make(g), (grad, log_probs, result), "_ctc_loss_backward")


def _ctc_jvp(log_probs_t: Any) -> Any:
    raise NotImplementedError(_NO_JVP.format("_ctc_loss"))


_ctc_loss = defop(
    "_ctc_loss",
    "CtcLossBackward0",
    _ctc_forward,
    nondiff=("targets",),
    dtype="keep",
    jvp=_ctc_jvp,
    log_probs=_ctc_grad,
)


def _lengths(v: Any, name: str) -> tuple[int, ...]:
    if isinstance(v, Tensor):
        if v.dtype.is_floating_point or v.is_complex():
            raise RuntimeError(f"{name} must be integral")
        return tuple(int(x) for x in v._data.reshape(-1))
    return tuple(int(x) for x in v)


def _check(lp: Tensor, targets: Tensor, il: tuple, tl: tuple, blank: int) -> None:
    if lp.ndim != 3:
        raise RuntimeError(
            f"Expected 3-dimensional tensor, but got {lp.ndim}-dimensional tensor for argument "
            f"#1 'log_probs'{_WHERE}"
        )
    batch, n_labels = lp.shape[1], lp.shape[2]
    if not 0 <= blank < n_labels:
        raise RuntimeError("blank must be in label range")
    if len(il) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for n in tl:
        if n < 0:
            raise RuntimeError(
                f"Expected target_lengths to have value at least 0, but got value {n}{_WHERE}"
            )
    arg = "for argument #2 'targets'"
    want = sum(tl) if targets.ndim == 1 else batch
    if targets.shape[0] != want:
        raise RuntimeError(
            f"Expected tensor to have size {want} at dimension 0, but got size "
            f"{targets.shape[0]} {arg}{_WHERE}"
        )
    if targets.ndim != 1 and targets.shape[1] < max(tl, default=0):
        raise RuntimeError(
            f"Expected tensor to have size at least {max(tl)} at dimension 1, but got size "
            f"{targets.shape[1]} {arg}{_WHERE}"
        )
    for n in il:
        if n < 0:
            raise RuntimeError(
                f"Expected input_lengths to have value at least 0, but got value {n}{_WHERE}"
            )
        if n > lp.shape[0]:
            raise RuntimeError(
                f"Expected input_lengths to have value at most {lp.shape[0]}, but got value "
                f"{n}{_WHERE}"
            )


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Any,
    target_lengths: Any,
    blank: int = 0,
    reduction: int = 0,
    zero_infinity: bool = False,
) -> Tensor:
    """Mirrors `torch.ctc_loss` (reduction as an int: 0 none, 1 mean, 2 sum; unreduced by
    default, as torch's binding)."""
    args = (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
    tensors = isinstance(input_lengths, Tensor), isinstance(target_lengths, Tensor)
    seqs = [isinstance(v, (list, tuple)) for v in (input_lengths, target_lengths)]
    if not (all(tensors) or all(seqs)) or not isinstance(reduction, int):
        raise _invalid_combination("ctc_loss", args, _SIGS)
    il, tl = _lengths(input_lengths, "input_lengths"), _lengths(target_lengths, "target_lengths")
    batched = log_probs.ndim == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    _check(lp, targets, il, tl, blank)
    if lp.dtype not in (D.float32, D.float64):
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{lp.dtype._short}'")
    res = _ctc_loss(lp, targets.to(D.int64), il, tl, int(blank), bool(zero_infinity))
    if zero_infinity:
        res = P.where(res == float("inf"), C.zeros((), dtype=res.dtype), res)
    if reduction == 1:
        lengths = C.tensor(tl, dtype=res.dtype).clamp_min(1)
        return (res / lengths).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)


METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {"ctc_loss": ctc_loss}
