"""Adadelta. Mirrors `torch.optim.Adadelta` (single-tensor update; see
Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._creation import zeros_like
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
