"""The optimizers' updates for sparse gradients (torch's single-tensor code paths for a
gradient whose layout is sparse_coo): SGD, Adagrad and SparseAdam."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._grad_mode import no_grad
from .._tensor import Tensor, _make
from ._array import SparseArray, coalesced


def is_sparse_grad(p: Tensor) -> bool:
    g = p._grad
    return g is not None and type(g._data) is SparseArray


def sgd_step(
    p: Tensor, buf: Any, lr: float, wd: Any, momentum: Any, dampening: Any, nesterov: bool,
    maximize: bool,
) -> Any:  # fmt: skip
    """torch's _single_tensor_sgd for one parameter with a sparse gradient; returns the
    momentum buffer (a sparse tensor, as torch's clone of the gradient)."""
    with no_grad():
        grad = p._grad if not maximize else -p._grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)  # torch refuses add(sparse, dense)
        if momentum != 0:
            if buf is None:
                buf = grad.clone().detach()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        p.add_(grad, alpha=-lr)
    return buf


def _grad_arrays(p: Tensor, maximize: bool) -> tuple[np.ndarray, np.ndarray]:
    g = coalesced(p._grad._data)
    v = -g._v if maximize else g._v
    return g._i, v


def adagrad_step(p: Tensor, state_sum: Tensor, clr: float, eps: float, maximize: bool) -> None:
    """torch's _single_tensor_adagrad's sparse branch."""
    idx, v = _grad_arrays(p, maximize)
    if not idx.shape[1]:
        return
    where = tuple(idx)
    s = state_sum._data
    s[where] += v * v
    std = np.sqrt(s[where]) + np.asarray(eps, s.dtype)
    d = p._data
    d[where] += np.asarray(-clr, d.dtype) * (v / std)
    state_sum._bump()
    p._bump()


def sparse_adam_step(
    p: Tensor, state: dict[str, Any], lr: float, beta1: float, beta2: float, eps: float,
    maximize: bool,
) -> None:  # fmt: skip
    """torch's _functional.sparse_adam for one parameter."""
    idx, gv = _grad_arrays(p, maximize)
    if gv.size == 0:
        return
    step = state["step"]
    where = tuple(idx)
    dt = gv.dtype.type
    ea = state["exp_avg"]._data
    eas = state["exp_avg_sq"]._data
    old = ea[where]
    upd = (gv - old) * dt(1 - beta1)
    ea[where] += upd
    old2 = eas[where]
    upd2 = (gv**2 - old2) * dt(1 - beta2)
    eas[where] += upd2
    numer = upd + old
    denom = np.sqrt(upd2 + old2) + dt(eps)
    bc1 = 1 - beta1**step
    bc2 = 1 - beta2**step
    step_size = lr * math.sqrt(bc2) / bc1
    d = p._data
    d[where] += dt(-step_size) * (numer / denom)
    state["exp_avg"]._bump()
    state["exp_avg_sq"]._bump()
    p._bump()


def zeros_like(p: Tensor) -> Tensor:
    return _make(np.zeros_like(p._data))
