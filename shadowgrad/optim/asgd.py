"""ASGD. Mirrors `torch.optim.ASGD` (single-tensor update; see Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _dtype
from .._creation import as_tensor, zeros_like
from .._grad_mode import no_grad
from . import _differentiable
from ._single_tensor import check_lr, check_nonneg, grads, scalar, tick, upgrade_groups
from .optimizer import Optimizer, arr, fma, num, write_param

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Mirrors `torch.optim.ASGD`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_lr(lr)
        check_nonneg(weight_decay, "weight_decay")
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {"foreach": None, "maximize": False, "differentiable": False, "capturable": False},
            ("step", "eta", "mu"),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.ASGD.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            lr = float(num(group["lr"]))  # (a tensor lr of differentiable=True: no warning)
            lambd, alpha, t0, wd = (
                num(group["lambd"]),
                num(group["alpha"]),
                num(group["t0"]),
                num(group["weight_decay"]),
            )

            def init(p: Any, state: dict[str, Any], lr: float = lr) -> None:
                state["step"] = scalar(0.0)
                state["eta"] = scalar(lr)
                state["mu"] = scalar(1.0)
                state["ax"] = zeros_like(p)

            if group["differentiable"]:
                _differentiable.asgd(self, group, init)
                continue
            for p, state, grad, param in grads(self, group, init):
                step = tick(state)
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, lambd, wd)
                elif group["foreach"]:
                    _multi_tensor_update(p, state, grad, param, lambd, wd)
                else:
                    _single_tensor_update(p, state, grad, param, lambd, wd)
                # torch rounds both through a default-dtype tensor, whatever the state's dtype
                with no_grad():
                    # (torch's multi-tensor ASGD computes eta on the float32 step tensor)
                    t = state["step"] if group["foreach"] else step
                    state["eta"].copy_(as_tensor(lr / ((1 + lambd * lr * t) ** alpha)))
                    state["mu"].copy_(as_tensor(1 / max(1, step - t0)))
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Any, state: dict[str, Any], group: dict[str, Any], lambd: float, wd: float
) -> None:
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array updates below round once per fused expression): torch's single-tensor
    `param.mul_(1 - lambd * eta).add_(grad, alpha=-eta)` and `ax.add_(param.sub(ax).mul_(mu))`
    (a copy while mu is 1), or its multi-tensor `addcmul_` of `grad + wd * param + lambd *
    param` by eta and of `param - ax` by mu."""
    ax, eta, mu = state["ax"], state["eta"], state["mu"]
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        if group["foreach"]:
            p.addcmul_(grad.add(p, alpha=lambd), eta, value=-1)
            ax.addcmul_(p.sub(ax), mu)
            return
        e = eta.item()
        p.mul_(1 - lambd * e).add_(grad, alpha=-e)
        if mu.item() != 1:
            ax.add_(p.sub(ax).mul_(mu))
        else:
            ax.copy_(p)


def _single_tensor_update(
    p: Any, state: dict[str, Any], grad: Any, param: Any, lambd: float, wd: float
) -> None:
    if wd != 0:
        grad = fma(wd, param, grad)
    eta = float(state["eta"].item())
    param = fma(-eta, grad, param * (1 - lambd * eta))
    write_param(p, param)
    ax = arr(state["ax"])
    mu = float(state["mu"].item())
    # the running average only starts once step exceeds t0 (mu < 1)
    ax[...] = ax + (param - ax) * mu if mu != 1 else param


def _multi_tensor_update(
    p: Any, state: dict[str, Any], grad: Any, param: Any, lambd: float, wd: float
) -> None:
    """torch's multi-tensor ASGD (foreach=True): the decay folded into the gradient
    (`grad + wd * param + lambd * param`), the parameter moved by one addcmul with eta, the
    average by one addcmul with mu, even at mu == 1."""
    inter = fma(lambd, param, fma(wd, param, grad) if wd != 0 else grad)
    eta = arr(state["eta"])
    param = fma(-inter, eta, param)
    write_param(p, param)
    ax = arr(state["ax"])
    ax[...] = fma(param - ax, arr(state["mu"]), ax)
