"""Adagrad. Mirrors `torch.optim.Adagrad` (single-tensor implementation; see
Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from operator import le
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import full_like, tensor
from .._grad_mode import no_grad
from .._tensor import Tensor
from . import _differentiable
from ._single_tensor import scalar, upgrade_groups
from .optimizer import Optimizer, arr, check_fused, fma, fused_dtype_check, num, write_param

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Mirrors `torch.optim.Adagrad`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not le(0.0, lr):
            raise ValueError(f"Invalid learning rate: {lr}")
        if not le(0.0, lr_decay):
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not le(0.0, weight_decay):
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not le(0.0, initial_accumulator_value):
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}"
            )
        if not le(0.0, eps):
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        if fused:
            self._need_device_dtype_check_for_fused = True
        check_fused(fused, foreach, differentiable)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, self.state[p], group)

    def _init_state(self, p: Tensor, state: dict[str, Any], group: dict[str, Any]) -> None:
        state["step"] = scalar(0.0, group["fused"])
        # torch starts a complex parameter's accumulator at v + vj: both halves of its real
        # view accumulate from the initial value (the constructor's, for added groups too)
        init = self.defaults["initial_accumulator_value"]
        if p.is_complex():
            init = complex(init, init)
        state["sum"] = full_like(p, init)

    def _init_group(self, group: dict[str, Any]) -> None:
        """torch's _init_group for a group of an added param group or a fused group: the
        fused dtype checks, state for parameters that have none, and the fused kernel's
        refusal of complex parameters."""
        has_complex = False
        for p in group["params"]:
            if p.grad is None:
                continue
            if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                fused_dtype_check(p)
                self._need_device_dtype_check_for_fused = False
            has_complex |= p.is_complex()
            state = self.state[p]
            if len(state) == 0:
                if group["fused"]:
                    fused_dtype_check(p)
                self._init_state(p, state, group)
        if group["fused"] and has_complex:
            raise RuntimeError("`fused` does not support sparse grad or complex param")

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {"foreach": None, "maximize": False, "differentiable": False, "fused": None},
            ("step",),
            fused_dtype=True,
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Adagrad.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["fused"] or any(q not in self.state for q in group["params"]):
                self._init_group(group)
            if group["differentiable"]:
                _differentiable.adagrad(self, group)
                continue
            lr = float(group["lr"])
            wd = num(group["weight_decay"])
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                with no_grad():
                    state["step"].add_(1)
                step = state["step"].item()
                grad = arr(p.grad)
                param = arr(p)
                clr = lr / (1 + (step - 1) * num(group["lr_decay"]))
                if type(grad) is not np.ndarray and p.grad.is_sparse:
                    if wd != 0:
                        raise RuntimeError(
                            "weight_decay option is not compatible with sparse gradients"
                        )
                    from ..sparse._optim import adagrad_step

                    adagrad_step(p, state["sum"], clr, num(group["eps"]), group["maximize"])
                    continue
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state["sum"], group, clr, wd)
                    continue
                if group["maximize"]:
                    grad = -grad
                if wd != 0:
                    grad = fma(wd, param, grad)
                state_sum = arr(state["sum"])
                state_sum[...] = fma(1 * grad, grad, state_sum)
                std = np.sqrt(state_sum) + num(group["eps"])
                write_param(p, param + ((-clr) * grad) / std)
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state_sum: Tensor, group: dict[str, Any], clr: float, wd: Any
) -> None:
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array update above rounds once per fused expression): the sum's
    `addcmul_(grad, grad)`, `std = sum.sqrt().add_(eps)`, then the single-tensor
    `param.addcdiv_(grad, std, value=-clr)` or the multi-tensor `addcdiv_` of the grads times
    -clr (its in-place `_foreach_mul_`, on grads it copied for maximize or weight decay, rounds
    -clr to the dtype first)."""
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(num(group["eps"]))
        if not group["foreach"]:
            p.addcdiv_(grad, std, value=-clr)
            return
        if grad is not p.grad:  # torch's in-place _foreach_mul_ on its own copies
            grad = grad.mul_(tensor(-clr, dtype=_dtype.float32).to(p.dtype).item())
        else:
            grad = grad.mul(-clr)
        p.addcdiv_(grad, std)
