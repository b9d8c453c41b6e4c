"""RAdam. Mirrors `torch.optim.RAdam` (single-tensor update; see Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from . import _differentiable
from ._single_tensor import (
    check_betas,
    check_lr,
    check_nonneg,
    decay,
    float_betas,
    grads,
    reduced_moments,
    scalar,
    tick,
    upgrade_groups,
)
from .optimizer import Optimizer, arr, fma, lerp, num, write_param

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """Mirrors `torch.optim.RAdam`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        check_nonneg(eps, "epsilon")
        check_betas(betas)
        check_nonneg(weight_decay, "weight_decay")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Any, state: dict[str, Any]) -> None:
        state["step"] = scalar(0.0)
        state["exp_avg"] = zeros_like(p)
        state["exp_avg_sq"] = zeros_like(p)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {
                "foreach": None,
                "maximize": False,
                "differentiable": False,
                "decoupled_weight_decay": False,
                "capturable": False,
            },
            ("step",),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.RAdam.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["differentiable"]:
                _differentiable.radam(self, group, self._init_state)
                continue
            beta1, beta2 = float_betas(group)
            lr = float(group["lr"])
            wd = num(group["weight_decay"])
            for p, state, grad, param in grads(self, group, self._init_state):
                step = tick(state)
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, step, lr, wd, beta1, beta2)
                    continue
                param, grad = decay(group, lr, wd, param, grad)
                exp_avg = arr(state["exp_avg"])
                exp_avg_sq = arr(state["exp_avg_sq"])
                exp_avg[...] = lerp(exp_avg, grad, 1 - beta1)
                exp_avg_sq[...] = fma((1 - beta2) * grad, grad, exp_avg_sq * beta2)
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                if group["foreach"]:
                    write_param(p, _multi_tensor_update(group, step, param, exp_avg, exp_avg_sq))
                    continue
                update = exp_avg / bias_correction1 * lr
                # length of the approximated SMA; the variance is tractable once it exceeds 5
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
                if rho_t > 5.0:
                    adaptive = (bias_correction2**0.5) / (np.sqrt(exp_avg_sq) + num(group["eps"]))
                    rect = (
                        (rho_t - 4)
                        * (rho_t - 2)
                        * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
                    ) ** 0.5
                    update = update * adaptive * rect
                write_param(p, param - update)
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], step: float, lr: float, wd: Any,
    beta1: float, beta2: float,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array update above rounds once per fused expression): the decay, `lerp_`,
    `mul_(beta2).addcmul_`, then the single-tensor `param.add_(exp_avg / bc1 * lr *
    adaptive_lr * rect, alpha=-1)` or the multi-tensor `addcmul_(exp_avg, buffer)` of
    buffer = 1 / ((sqrt(v) + eps) / step_size) + unrectified step size, whose in-place
    `_foreach_mul_` rounds beta2 (and AdamW's decay factor) to the dtype first."""
    foreach = group["foreach"]
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    eps = num(group["eps"])

    with no_grad():
        reduced_moments(p, state, group, lr, wd, beta1, beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        rect = (
            ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            if rho_t > 5
            else 0
        )
        if foreach:
            unrect_step_size = (lr * (0 if rect > 0 else 1.0) / bias_correction1) * -1
            step_size = (bias_correction2**0.5) * (lr * rect / bias_correction1) * -1
            buffer = exp_avg_sq.sqrt().add_(eps).div_(step_size).reciprocal_()
            p.addcmul_(exp_avg, buffer.add_(unrect_step_size))
            return
        update = exp_avg / bias_correction1 * lr
        if rho_t > 5.0:
            update = update * ((bias_correction2**0.5) / exp_avg_sq.sqrt().add_(eps)) * rect
        p.add_(update, alpha=-1.0)


def _multi_tensor_update(
    group: dict[str, Any], step: float, param: Any, exp_avg: Any, exp_avg_sq: Any
) -> Any:
    """The new parameter as torch's multi-tensor RAdam (foreach=True) computes it: one
    `addcmul(param, exp_avg, buffer)` with buffer = 1 / ((sqrt(v) + eps) / step_size) +
    unrectified step size, in that order of roundings."""
    beta1, beta2 = float_betas(group)
    lr = float(group["lr"])
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2**step) / (1 - beta2**step)
    rect = (
        ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        if rho_t > 5
        else 0
    )
    bc1 = 1 - beta1**step
    unrect_step_size = (lr * (0 if rect > 0 else 1.0) / bc1) * -1
    step_size = ((1 - beta2**step) ** 0.5) * (lr * rect / bc1) * -1
    with np.errstate(divide="ignore"):
        buffer = np.reciprocal((np.sqrt(exp_avg_sq) + num(group["eps"])) / step_size)
    buffer += unrect_step_size
    return fma(exp_avg, buffer, param)
