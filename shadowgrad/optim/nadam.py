"""NAdam. Mirrors `torch.optim.NAdam` (single-tensor update; see Note [Optimizer arithmetic])."""

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

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """Mirrors `torch.optim.NAdam`."""

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
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
        check_nonneg(momentum_decay, "momentum_decay")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Any, state: dict[str, Any]) -> None:
        state["step"] = scalar(0.0)
        state["mu_product"] = scalar(1.0)
        state["exp_avg"] = zeros_like(p)
        state["exp_avg_sq"] = zeros_like(p)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {
                "maximize": False,
                "foreach": None,
                "capturable": False,
                "differentiable": False,
                "decoupled_weight_decay": False,
            },
            ("step", "mu_product"),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.NAdam.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["differentiable"]:
                _differentiable.nadam(self, group, self._init_state)
                continue
            beta1, beta2 = float_betas(group)
            lr = float(group["lr"])
            wd = num(group["weight_decay"])
            psi = num(group["momentum_decay"])
            for p, state, grad, param in grads(self, group, self._init_state):
                step = tick(state)
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, step, lr, wd, beta1, beta2, psi)
                    continue
                bias_correction2 = 1 - beta2**step
                param, grad = decay(group, lr, wd, param, grad)
                # momentum schedule: mu_t for this step, mu_{t+1} for the look-ahead term
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * psi)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * psi)))
                with no_grad():
                    state["mu_product"].mul_(mu)
                mu_product = float(state["mu_product"].item())
                mu_product_next = mu_product * mu_next
                exp_avg = arr(state["exp_avg"])
                exp_avg_sq = arr(state["exp_avg_sq"])
                exp_avg[...] = lerp(exp_avg, grad, 1 - beta1)
                exp_avg_sq[...] = fma((1 - beta2) * grad, grad, exp_avg_sq * beta2)
                if group["foreach"]:
                    # torch's multi-tensor NAdam: sqrt(v) / sqrt(bias_correction2)
                    denom = np.sqrt(exp_avg_sq) / bias_correction2**0.5 + num(group["eps"])
                else:
                    denom = np.sqrt(exp_avg_sq / bias_correction2) + num(group["eps"])
                param = param + ((-lr * (1.0 - mu) / (1.0 - mu_product)) * grad) / denom
                coef = (-lr * mu_next) / (1.0 - mu_product_next)
                write_param(p, param + (coef * exp_avg) / denom)
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], step: float, lr: float, wd: Any,
    beta1: float, beta2: float, psi: Any,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array update above rounds once per fused expression): the decay, `lerp_`,
    `mul_(beta2).addcmul_`, the single-tensor `denom = exp_avg_sq.div(bc2).sqrt().add_(eps)`
    (multi-tensor: `sqrt(exp_avg_sq)` divided by sqrt(bc2), then eps, and its in-place
    `_foreach_mul_` rounding beta2 and the decay factor to the dtype), then the two addcdiv_
    of grad and exp_avg by denom."""
    foreach = group["foreach"]
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    eps = num(group["eps"])

    bias_correction2 = 1 - beta2**step
    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * psi)))
    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * psi)))
    with no_grad():
        state["mu_product"].mul_(mu)
        mu_product = float(state["mu_product"].item())
        grad = reduced_moments(p, state, group, lr, wd, beta1, beta2)
        if foreach:
            denom = exp_avg_sq.sqrt().div_(bias_correction2**0.5).add_(eps)
        else:
            denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        p.addcdiv_(grad, denom, value=(lr * (1.0 - mu) / (1.0 - mu_product)) * -1)
        p.addcdiv_(exp_avg, denom, value=(lr * mu_next / (1.0 - mu_product * mu_next)) * -1)
