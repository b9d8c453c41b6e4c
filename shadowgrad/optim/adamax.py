"""Adamax. Mirrors `torch.optim.Adamax` (single-tensor update; see Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import tensor, zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from ..ops.pointwise import maximum
from . import _differentiable
from ._single_tensor import (
    check_betas,
    check_lr,
    check_nonneg,
    float_betas,
    grads,
    scalar,
    tick,
    upgrade_groups,
)
from .optimizer import Optimizer, arr, fma, lerp, num, write_param

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Mirrors `torch.optim.Adamax`."""

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
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
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Any, state: dict[str, Any]) -> None:
        state["step"] = scalar(0.0)
        state["exp_avg"] = zeros_like(p)
        state["exp_inf"] = zeros_like(p)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {"foreach": None, "maximize": False, "differentiable": False, "capturable": False},
            ("step",),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Adamax.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["differentiable"]:
                _differentiable.adamax(self, group, self._init_state)
                continue
            beta1, beta2 = float_betas(group)
            lr = float(group["lr"])
            wd = num(group["weight_decay"])
            for p, state, grad, param in grads(self, group, self._init_state):
                step = tick(state)
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, step, lr, wd, beta1, beta2)
                    continue
                if wd != 0:
                    grad = fma(wd, param, grad)
                exp_avg = arr(state["exp_avg"])
                exp_inf = arr(state["exp_inf"])
                exp_avg[...] = lerp(exp_avg, grad, 1 - beta1)
                exp_inf[...] = np.maximum(exp_inf * beta2, np.abs(grad) + num(group["eps"]))
                clr = lr / (1 - beta1**step)
                write_param(p, param + ((-clr) * exp_avg) / exp_inf)
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], step: float, lr: float, wd: Any,
    beta1: float, beta2: float,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array update above rounds once per fused expression): `exp_avg.lerp_`,
    `maximum(exp_inf.mul_(beta2), grad.abs().add_(eps))` and
    `param.addcdiv_(exp_avg, exp_inf, value=-clr)`; the multi-tensor update's in-place
    `_foreach_mul_` rounds beta2 to the dtype first."""
    exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
    b2 = tensor(beta2, dtype=_dtype.float32).to(p.dtype).item() if group["foreach"] else beta2
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_inf.copy_(maximum(exp_inf.mul_(b2), grad.abs().add_(num(group["eps"]))))
        p.addcdiv_(exp_avg, exp_inf, value=(lr / (1 - beta1**step)) * -1)
