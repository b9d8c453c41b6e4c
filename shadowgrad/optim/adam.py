"""Adam. Mirrors `torch.optim.Adam` (single-tensor update; see Note [Optimizer arithmetic])."""

from __future__ import annotations

from collections.abc import Callable
from operator import le
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from ..ops.pointwise import maximum
from . import _differentiable
from ._single_tensor import (
    capturable_error,
    check_betas,
    check_nonneg,
    decay,
    float_betas,
    reduced_moments,
    scalar,
    upgrade_groups,
)
from .optimizer import (
    Optimizer,
    arr,
    blocks,
    check_fused,
    fma,
    fused_dtype_check,
    lerp,
    num,
    write_param,
)

__all__ = ["Adam"]


class Adam(Optimizer):
    """Mirrors `torch.optim.Adam`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True"
                )
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        if not le(0.0, lr):
            raise ValueError(f"Invalid learning rate: {lr}")
        check_nonneg(eps, "epsilon")
        check_betas(betas)
        check_nonneg(weight_decay, "weight_decay")
        b0, b1 = betas[0], betas[1]
        if not (
            (isinstance(b0, float) and isinstance(b1, float))
            or (isinstance(b0, Tensor) and isinstance(b1, Tensor))
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, b in enumerate((b0, b1)):
            if isinstance(b, Tensor):
                if not capturable and foreach:
                    raise ValueError(
                        f"betas[{i}] as a Tensor is not supported for capturable=False and "
                        "foreach=True"
                    )
                if b.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        # torch's _to_scalar: a 1-element tensor of more than 0 dims is squeezed
        betas = tuple(b.squeeze() if isinstance(b, Tensor) and b.dim() != 0 else b for b in betas)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        check_fused(fused, foreach, differentiable)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            group.setdefault("fused", None)
        upgrade_groups(self, {}, ("step",), fused_dtype=True)

    def _init_state(self, p: Any, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[p]
        if len(state) == 0:
            if group["fused"]:
                fused_dtype_check(p)
            state["step"] = scalar(0.0, group["fused"])
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        return state  # type: ignore[no-any-return]

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Adam.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            if group["capturable"]:
                capturable_error(self, group, lambda p, _s, g=group: self._init_state(p, g))
            if group["fused"]:  # torch's _init_group checks every parameter before any update
                for p in group["params"]:
                    if p.grad is not None:
                        self._init_state(p, group)
            if group["differentiable"]:
                _differentiable.adam(self, group)
                continue
            beta1, beta2 = float_betas(group)
            lr = float(group["lr"])
            wd = num(group["weight_decay"])
            eps = num(group["eps"])
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError(
                        "Adam does not support sparse gradients, please consider SparseAdam instead"
                    )
                state = self._init_state(p, group)
                grad = arr(p.grad)
                param = arr(p)
                if group["maximize"]:
                    grad = -grad
                with no_grad():
                    state["step"].add_(1)
                step = state["step"].item()
                if p.dtype is _F16 or p.dtype is _BF16:
                    _reduced_update(p, state, group, step, lr, wd, eps, beta1, beta2)
                    continue
                param, grad = decay(group, lr, wd, param, grad)
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                step_size = lr / bias_correction1
                bias_correction2_sqrt = bias_correction2**0.5
                arrays = [grad, param, arr(state["exp_avg"]), arr(state["exp_avg_sq"])]
                if group["amsgrad"]:
                    arrays.append(arr(state["max_exp_avg_sq"]))
                # written in place, block by block (Note [Blocked updates]); an inference tensor
                # goes through copy_, which raises torch's error for it
                dst = np.empty_like(param) if p.is_inference() else arr(p)
                for g, prm, exp_avg, exp_avg_sq, *ms, out in blocks(*arrays, dst):
                    _adam_block(g, prm, exp_avg, exp_avg_sq, ms, out, beta1, beta2, eps,
                                step_size, bias_correction2_sqrt)  # fmt: skip
                if p.is_inference():
                    write_param(p, dst)
                else:
                    p._bump()  # the in-place write, as torch's addcdiv_
        return loss


_F16, _BF16 = _dtype.float16, _dtype.bfloat16


def _reduced_update(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], step: float, lr: float, wd: Any,
    eps: Any, beta1: float, beta2: float,
) -> None:  # fmt: skip
    """A float16/bfloat16 parameter's update as torch's ops compute it, each rounded to the
    dtype (the blocked array update rounds once per fused expression): the decay,
    `exp_avg.lerp_`, `exp_avg_sq.mul_(beta2).addcmul_`, the amsgrad maximum,
    `denom = (v.sqrt() / bias_correction2_sqrt).add_(eps)` and
    `param.addcdiv_(exp_avg, denom, value=-step_size)`; the multi-tensor update's in-place
    `_foreach_mul_` rounds beta2 (and AdamW's decay factor) to the dtype first."""
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]

    with no_grad():
        reduced_moments(p, state, group, lr, wd, beta1, beta2)
        v = exp_avg_sq
        if group["amsgrad"]:
            v = state["max_exp_avg_sq"]
            v.copy_(maximum(v, exp_avg_sq))
        denom = (v.sqrt() / ((1 - beta2**step) ** 0.5)).add_(eps)
        p.addcdiv_(exp_avg, denom, value=(lr / (1 - beta1**step)) * -1)


def _adam_block(
    g: np.ndarray,
    prm: np.ndarray,
    exp_avg: np.ndarray,
    exp_avg_sq: np.ndarray,
    ms: list[np.ndarray],
    out: np.ndarray,
    beta1: float,
    beta2: float,
    eps: float,
    step_size: float,
    bias_correction2_sqrt: float,
) -> None:
    """torch's single-tensor Adam update on one block, in place (Note [Blocked updates]):

        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)

    with lerp's and addcmul's fused multiply-add as `fma` computes it (Note [Optimizer
    arithmetic]), each result rounded once into its array."""
    lerp(exp_avg, g, 1 - beta1, out=exp_avg)
    fma((1 - beta2) * g, g, exp_avg_sq * beta2, out=exp_avg_sq)
    if ms:
        np.maximum(ms[0], exp_avg_sq, out=ms[0])
        denom = np.sqrt(ms[0])
    else:
        denom = np.sqrt(exp_avg_sq)
    np.divide(denom, bias_correction2_sqrt, out=denom)
    np.add(denom, eps, out=denom)
    u = np.multiply(exp_avg, -step_size)
    np.divide(u, denom, out=u)
    np.add(prm, u, out=out)
