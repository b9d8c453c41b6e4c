"""Adafactor. Mirrors `torch.optim.Adafactor` (single-tensor update, written with shadowgrad
tensor ops as torch writes it, so its norms and means reduce as torch's do)."""

from __future__ import annotations

from collections.abc import Callable
from operator import ge, le
from typing import Any

import numpy as np

from .._creation import zeros, zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from ._single_tensor import params_with_grad, scalar, tick, upgrade_groups
from .optimizer import Optimizer, arr, fma, write_param

__all__ = ["Adafactor"]


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


class Adafactor(Optimizer):
    """Mirrors `torch.optim.Adafactor`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        _check(le(0.0, lr), f"Learning rate should be >= 0 but is: {lr}")
        _check(ge(0.0, beta2_decay), f"beta2_decay should be <= 0 but is: {beta2_decay}")
        _check(eps[0] is None or le(0.0, eps[0]), f"epsilon1 should be >= 0 but is: {eps[0]}")
        _check(le(0.0, eps[1]), f"epsilon2 should be >= 0 but is: {eps[1]}")
        _check(le(1.0, d), f"Clipping threshold d should be >= 1 but is: {d}")
        _check(le(0.0, weight_decay), f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Any, state: dict[str, Any]) -> None:
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        state["step"] = scalar(0.0)
        grad = p.grad
        if grad.dim() > 1:
            # factored second moment: one value per row and one per column
            state["row_var"] = zeros(*grad.shape[:-1], 1, dtype=grad.dtype)
            state["col_var"] = zeros(*grad.shape[:-2], 1, grad.shape[-1], dtype=grad.dtype)
        else:
            state["variance"] = zeros_like(grad)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(self, {"foreach": None}, ("step",))

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Adafactor.step`."""
        loss = self._run_closure(closure)
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None and p.is_complex():
                        raise RuntimeError("Adafactor does not support complex parameters")
                for p, state in params_with_grad(self, group, self._init_state):
                    self._update(p, state, group)
        return loss

    @staticmethod
    def _update(param: Tensor, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr = float(group["lr"])
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = float(np.finfo(arr(param).dtype).eps)
        grad = -param.grad if group["maximize"] else param.grad
        step = tick(state)
        weight = step ** group["beta2_decay"]  # 1 - beta2_t
        rho_t = min(lr, 1 / (step**0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
        if group["weight_decay"] != 0:
            param.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(grad.norm(dim=-1, keepdim=True).square_().div_(grad.size(-1)), weight)
            col_var.lerp_(grad.norm(dim=-2, keepdim=True).square_().div_(grad.size(-2)), weight)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, weight)
            var_estimate = state["variance"].clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        if group["foreach"]:
            # torch's multi-tensor Adafactor scales the update, then adds it (two roundings)
            update.mul_(-alpha / denom)
            param.add_(update)
        else:
            # torch's add_(alpha=) rounds once (Note [Optimizer arithmetic])
            write_param(param, fma(-alpha / denom, arr(update), arr(param)))
