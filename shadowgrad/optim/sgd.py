"""SGD. Mirrors `torch.optim.SGD` (single-tensor update; see Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import from_numpy, tensor
from .._grad_mode import no_grad
from .._tensor import Tensor
from ..autograd.forward_ad import _STATE as _FW
from . import _differentiable
from .optimizer import Optimizer, arr, check_fused, check_fused_param, fma, like, num

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum. Mirrors `torch.optim.SGD`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            self._need_device_dtype_check_for_fused = True
        check_fused(fused, foreach, differentiable)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.SGD.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["fused"]:
                check_fused_param(self, group, once=True)
                _fused_kernel_check(group)
            if group["differentiable"]:
                _differentiable.sgd(self, group)
                continue
            lr = float(group["lr"])
            wd = num(group["weight_decay"])
            momentum = num(group["momentum"])
            dampening = num(group["dampening"])
            # torch's foreach SGD adds the nesterov term into the gradients themselves
            # (`_foreach_add_(device_grads, bufs, alpha=momentum)`) when neither maximize nor
            # weight decay has replaced them by new tensors: p.grad changes in place
            grad_in_place = (
                group["foreach"] and group["nesterov"] and not group["maximize"] and wd == 0
            )
            if momentum == 0 and wd == 0 and not group["maximize"] and not _FW.active:
                # plain SGD (a training loop's default): each update is `p.add_(p.grad,
                # alpha=-lr)` on the tensors themselves, the same kernel as below without the
                # per-parameter array round trip (0-d and complex ones take the general path)
                _plain_step(group["params"], -lr)
                continue
            params = [p for p in group["params"] if p.grad is not None]
            # as torch, the buffers are read before the update and stored after it (a parameter
            # listed twice starts two buffers on its first step, the last one kept)
            bufs = [self.state[p].get("momentum_buffer") for p in params] if momentum else []
            had = [b is not None for b in bufs] if group["foreach"] else bufs
            for i, p in enumerate(params):
                grad = arr(p.grad)
                if type(grad) is not np.ndarray and getattr(grad, "_sg_sparse", False):
                    from ..sparse._optim import sgd_step

                    buf = sgd_step(
                        p, bufs[i] if bufs else None, lr, wd, momentum, dampening,
                        group["nesterov"], group["maximize"],
                    )  # fmt: skip
                    if bufs:
                        bufs[i] = buf
                    continue
                if p.dtype is _F16 or p.dtype is _BF16:
                    buf = _reduced_step(p, bufs, had, i, params, group, lr, wd, momentum, dampening)
                    if bufs:
                        bufs[i] = buf
                    continue
                param = arr(p)
                if group["maximize"]:
                    grad = -grad
                if wd != 0:
                    grad = fma(wd, param, grad)
                if momentum != 0:
                    buf = bufs[i]
                    if buf is None:
                        buf = bufs[i] = from_numpy(like(grad.copy(), p))
                    else:
                        b = arr(buf)
                        b[...] = fma(1 - dampening, grad, b * momentum)
                    grad = fma(momentum, arr(buf), grad) if group["nesterov"] else arr(buf)
                    if grad_in_place:
                        with no_grad():
                            p.grad.copy_(from_numpy(like(grad, p.grad)))
                # torch: param.add_(grad, alpha=-lr). Its CPU kernel fuses the multiply-add;
                # numpy rounds twice, within one ulp of torch per step (see fma for exactness,
                # which costs four float64 passes over every parameter)
                with no_grad():
                    p.add_(from_numpy(like(grad, p)), alpha=-lr)
            for p, buf in zip(params, bufs, strict=False):
                self.state[p]["momentum_buffer"] = buf
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_step(
    p: Tensor, bufs: list[Any], had: list[Any], i: int, params: list[Tensor],
    group: dict[str, Any], lr: float, wd: Any, momentum: Any, dampening: Any,
) -> Any:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the array arithmetic above rounds once per fused expression): the momentum buffer's
    `mul_(momentum).add_(grad, alpha=1 - dampening)`, where the multi-tensor update's
    `_foreach_mul_` (when every buffer of the parameter's dtype exists) first rounds the
    momentum to the dtype (`had`: which buffers existed before this step). Returns the
    buffer."""
    foreach = group["foreach"]
    with no_grad():
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)
        buf = None
        if momentum != 0:
            buf = bufs[i]
            if buf is None:
                buf = grad.clone().detach()
            else:
                m = momentum
                if foreach and all(
                    h for h, q in zip(had, params, strict=True) if q.dtype == p.dtype
                ):
                    m = tensor(momentum, dtype=_dtype.float32).to(p.dtype).item()
                buf.mul_(m).add_(grad, alpha=1 - dampening)
            if not group["nesterov"]:
                grad = buf
            elif foreach and grad is p.grad:  # torch's _foreach_add_ into the grads themselves
                grad.add_(buf, alpha=momentum)
            else:
                grad = grad.add(buf, alpha=momentum)
        p.add_(grad, alpha=-lr)
    return buf


def _plain_step(params: list[Tensor], alpha: float) -> None:
    with no_grad():
        for p in params:
            g = p.grad
            if g is None:
                continue
            d = p._data
            if d.ndim and d.dtype.kind != "c":
                p.add_(g, alpha=alpha)
            else:
                p.add_(from_numpy(like(arr(g), p)), alpha=alpha)


def _fused_kernel_check(group: dict[str, Any]) -> None:
    """torch's fused SGD kernel is not implemented for complex parameters (it raises when it
    reaches their dtype; here before the group's update)."""
    for p in group["params"]:
        if p.grad is not None and p.is_complex():
            name = "ComplexFloat" if p.dtype.itemsize == 8 else "ComplexDouble"
            raise NotImplementedError(f"\"fused_sgd_kernel\" not implemented for '{name}'")
