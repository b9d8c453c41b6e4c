"""Adadelta. Mirrors `torch.optim.Adadelta` (single-tensor update; see
Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import tensor, zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from . import _differentiable
from ._single_tensor import check_lr, check_nonneg, grads, scalar, tick, upgrade_groups
from .optimizer import Optimizer, arr, fma, num, write_param

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Mirrors `torch.optim.Adadelta`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_nonneg(eps, "epsilon")
        check_nonneg(weight_decay, "weight_decay")
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Any, state: dict[str, Any]) -> None:
        state["step"] = scalar(0.0)
        state["square_avg"] = zeros_like(p)
        state["acc_delta"] = zeros_like(p)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {"foreach": None, "maximize": False, "differentiable": False, "capturable": False},
            ("step",),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Adadelta.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["differentiable"]:
                _differentiable.adadelta(self, group, self._init_state)
                continue
            lr = float(group["lr"])
            rho, eps, wd = (num(group[k]) for k in ("rho", "eps", "weight_decay"))
            for p, state, grad, param in grads(self, group, self._init_state):
                tick(state)
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, lr, rho, eps, wd)
                    continue
                if wd != 0:
                    grad = fma(wd, param, grad)
                square_avg = arr(state["square_avg"])
                acc_delta = arr(state["acc_delta"])
                square_avg[...] = fma((1 - rho) * grad, grad, square_avg * rho)
                std = np.sqrt(square_avg + eps)
                delta = np.sqrt(acc_delta + eps) / std * grad
                acc_delta[...] = fma((1 - rho) * delta, delta, acc_delta * rho)
                write_param(p, fma(-lr, delta, param))
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], lr: float, rho: Any, eps: Any,
    wd: Any,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array update above rounds once per fused expression):
    `square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)`, `std = square_avg.add(eps)
    .sqrt_()`, `delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)`, the same moving
    average into acc_delta and `param.add_(delta, alpha=-lr)`; the multi-tensor update's
    in-place `_foreach_mul_` rounds rho to the dtype first."""
    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
    r = tensor(rho, dtype=_dtype.float32).to(p.dtype).item() if group["foreach"] else rho
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        square_avg.mul_(r).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
        acc_delta.mul_(r).addcmul_(delta, delta, value=1 - rho)
        p.add_(delta, alpha=-lr)
