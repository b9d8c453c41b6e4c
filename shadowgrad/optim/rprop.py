"""Rprop. Mirrors `torch.optim.Rprop` (single-tensor update; see Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import full_like, zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from . import _differentiable
from ._single_tensor import check_lr, grads, scalar, tick, upgrade_groups
from .optimizer import Optimizer, arr, fma, num, write_param

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Mirrors `torch.optim.Rprop`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
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
            ("step",),
        )

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Rprop.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            etaminus, etaplus = (num(e) for e in group["etas"])
            size_min, size_max = (num(e) for e in group["step_sizes"])

            def init(p: Any, state: dict[str, Any], lr_arg: Any = group["lr"]) -> None:
                # torch's full_like(grad, lr): a tensor lr is a Scalar argument there
                if isinstance(lr_arg, Tensor) and lr_arg.requires_grad:
                    raise TypeError(
                        "full_like(): argument 'fill_value' (position 2) must be Number, not Tensor"
                    )
                lr = float(lr_arg)
                state["step"] = scalar(0.0)
                state["prev"] = zeros_like(p)
                # a complex parameter's real and imaginary parts step independently
                state["step_size"] = full_like(p.grad, complex(lr, lr) if p.is_complex() else lr)

            if group["differentiable"]:
                _differentiable.rprop(self, group, init)
                continue
            for p, state, grad, param in grads(self, group, init):
                tick(state)
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, etaminus, etaplus, size_min, size_max)
                    continue
                prev = arr(state["prev"])
                step_size = arr(state["step_size"])
                # grow the step where the gradient kept its sign, shrink it where it flipped
                # (and skip that update), keep it after a zero or a nan (torch's sign of nan is 0)
                sign = _sign(grad * prev)
                flipped = sign < 0
                sign[sign > 0] = etaplus
                sign[flipped] = etaminus
                sign[sign == 0] = 1
                step_size[...] = np.clip(step_size * sign, size_min, size_max)
                grad = np.where(flipped, np.zeros_like(grad), grad)
                write_param(p, fma(-_sign(grad), step_size, param))
                prev[...] = grad
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], etaminus: Any, etaplus: Any,
    size_min: Any, size_max: Any,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, in the dtype: the
    signs take etaplus and etaminus rounded to it (and a flip is then found by comparing with
    etaminus in the dtype), `step_size.mul_(sign).clamp_(...)`, the flipped grads zeroed,
    `param.addcmul_(grad.sign(), step_size, value=-1)`; the multi-tensor update computes the
    same values."""
    prev, step_size = state["prev"], state["step_size"]
    if p.numel() == 0:
        return  # (nothing to update; the masked writes below would warn on its 0-stride arrays)
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(size_min, size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        p.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)


def _sign(a: np.ndarray) -> np.ndarray:
    """torch.sign: as numpy's, but 0 for nan."""
    s = np.sign(a)
    if s.dtype.kind == "f":
        s[np.isnan(s)] = 0
    return s
