"""RMSprop. Mirrors `torch.optim.RMSprop` (single-tensor implementation; see
Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from operator import le
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import tensor, zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from . import _differentiable
from ._single_tensor import capturable_error, scalar, upgrade_groups
from .optimizer import Optimizer, arr, fma, lerp, num, write_param

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """Mirrors `torch.optim.RMSprop`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not le(0.0, lr):
            raise ValueError(f"Invalid learning rate: {lr}")
        if not le(0.0, eps):
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not le(0.0, momentum):
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not le(0.0, weight_decay):
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not le(0.0, alpha):
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Any, state: dict[str, Any], group: dict[str, Any]) -> None:
        state["step"] = scalar(0.0)
        state["square_avg"] = zeros_like(p)
        if group["momentum"] > 0:
            state["momentum_buffer"] = zeros_like(p)
        if group["centered"]:
            state["grad_avg"] = zeros_like(p)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        upgrade_groups(
            self,
            {
                "momentum": 0,
                "centered": False,
                "foreach": None,
                "maximize": False,
                "differentiable": False,
                "capturable": False,
            },
            ("step",),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.RMSprop.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group.get("capturable"):
                capturable_error(self, group, lambda p, st, g=group: self._init_state(p, st, g))
            if group["differentiable"]:
                _differentiable.rmsprop(self, group)
                continue
            lr = float(group["lr"])
            alpha = num(group["alpha"])
            eps = num(group["eps"])
            wd = num(group["weight_decay"])
            momentum = num(group["momentum"])
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError("RMSprop does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    self._init_state(p, state, group)
                with no_grad():
                    state["step"].add_(1)
                grad = arr(p.grad)
                param = arr(p)
                if group["maximize"]:
                    grad = -grad
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, lr, alpha, eps, wd, momentum)
                    continue
                if wd != 0:
                    grad = fma(wd, param, grad)
                square_avg = arr(state["square_avg"])
                square_avg[...] = fma((1 - alpha) * grad, grad, square_avg * alpha)
                if group["centered"]:
                    grad_avg = arr(state["grad_avg"])
                    grad_avg[...] = lerp(grad_avg, grad, 1 - alpha)
                    avg = np.sqrt(fma((-1) * grad_avg, grad_avg, square_avg))
                else:
                    avg = np.sqrt(square_avg)
                avg += eps
                if momentum > 0:
                    buf = arr(state["momentum_buffer"])
                    buf *= momentum
                    buf += (1 * grad) / avg
                    write_param(p, fma(-lr, buf, param))
                else:
                    write_param(p, param + ((-lr) * grad) / avg)
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], lr: float, alpha: Any, eps: Any,
    wd: Any, momentum: Any,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array update above rounds once per fused expression): the single-tensor
    `square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)`, the centered grad_avg's
    `lerp_` and `square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()`, `add_(eps)`, the
    momentum buffer's `mul_(momentum).addcdiv_(grad, avg)` and the parameter's add or
    addcdiv with -lr. The multi-tensor update (foreach=True) is the same but for its in-place
    `_foreach_mul_`, which rounds alpha and the momentum to the dtype first."""
    foreach = group["foreach"]

    def in_dtype(v: Any) -> Any:
        return tensor(v, dtype=_dtype.float32).to(p.dtype).item() if foreach else v

    square_avg = state["square_avg"]
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        square_avg.mul_(in_dtype(alpha)).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf.mul_(in_dtype(momentum)).addcdiv_(grad, avg)
            p.add_(buf, alpha=-lr)
        else:
            p.addcdiv_(grad, avg, value=-lr)
