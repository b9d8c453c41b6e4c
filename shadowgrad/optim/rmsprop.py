"""RMSprop. Mirrors `torch.optim.RMSprop` (single-tensor implementation; see
Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from operator import le
from typing import Any

import numpy as np

from .._creation import zeros_like
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
                if param.dtype == np.float16:
                    _half_step(p, state, grad, param, group, lr, alpha, eps, wd, momentum)
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


def _half_step(
    p: Any,
    state: dict[str, Any],
    grad: np.ndarray,
    param: np.ndarray,
    group: dict[str, Any],
    lr: float,
    alpha: float,
    eps: float,
    wd: float,
    momentum: float,
) -> None:
    """The update of a float16 parameter as torch's CPU kernels compute half: each op in
    float32 (scalars as float32), its result rounded to float16 where torch stores it."""
    f = np.float32

    def r(x: np.ndarray) -> np.ndarray:  # an op's result, stored as half
        return np.asarray(x, dtype=f).astype(np.float16).astype(f)

    g = grad.astype(f)
    prm = param.astype(f)
    if wd != 0:
        g = r(g + f(wd) * prm)
    square_avg = arr(state["square_avg"])
    sq = r(square_avg.astype(f) * f(alpha))
    sq = r(sq + f(1 - alpha) * g * g)
    square_avg[...] = sq
    if group["centered"]:
        grad_avg = arr(state["grad_avg"])
        ga = grad_avg.astype(f)
        w = f(1 - alpha)
        ga = r(ga + w * (g - ga) if abs(w) < 0.5 else g - (g - ga) * (f(1) - w))
        grad_avg[...] = ga
        avg = r(np.sqrt(r(sq - ga * ga)))
    else:
        avg = r(np.sqrt(sq))
    avg = r(avg + f(eps))
    if momentum > 0:
        buf = arr(state["momentum_buffer"])
        b = r(buf.astype(f) * f(momentum))
        b = r(b + g / avg)
        buf[...] = b
        write_param(p, r(prm + f(-lr) * b).astype(np.float16))
    else:
        write_param(p, r(prm + f(-lr) * g / avg).astype(np.float16))
