"""Muon. Mirrors `torch.optim.Muon` (torch's single-tensor update; see
Note [Optimizer arithmetic]).

Muon orthogonalizes each 2-D update with a quintic Newton-Schulz iteration that torch runs in
bfloat16. numpy has no bfloat16, so the iteration runs on float32 arrays rounded to bfloat16
(round to nearest even) after every operation, as torch's CPU kernels round their float32
results: the norm and the division, each matrix product and each addmm (accumulated in float32
and rounded once). Torch's float32 products sum in another order, so an element occasionally
lands one bfloat16 step away (2**-8 relative), and the step that uses it then differs by
lr * 2**-8 at most.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import le
from typing import Any

import numpy as np

from .._creation import zeros_like
from .._grad_mode import no_grad
from .._tensor import Tensor
from .optimizer import Optimizer, arr, fma, lerp, write_param

__all__ = ["Muon"]

# Keller Jordan's coefficients and defaults, as torch's
EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _bf16(a: Any) -> np.ndarray:
    """float32 values rounded to bfloat16 (nearest even), kept in float32; a float64 value is
    rounded to float32 first, as torch converts it."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out)


def _zeropower_via_newtonschulz(
    grad: np.ndarray, ns_coefficients: tuple[float, float, float], ns_steps: int, eps: float
) -> np.ndarray:
    """torch's Newton-Schulz orthogonalization of a 2-D gradient, in emulated bfloat16."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = (np.float32(v) for v in ns_coefficients)
    x = _bf16(grad)
    tall = grad.shape[0] > grad.shape[1]
    if tall:
        x = x.T
    norm = _bf16(np.sqrt(np.sum(x * x, dtype=np.float32)))
    x = _bf16(x / max(norm, _bf16(eps)))
    for _ in range(ns_steps):
        gram = _bf16(x @ x.T)
        update = _bf16(b * gram + c * (gram @ gram))  # torch.addmm(gram, gram, gram, b, c)
        x = _bf16(a * x + update @ x)  # torch.addmm(x, update, x, beta=a)
    return x.T if tall else x


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape: Any) -> float:
    """torch's learning-rate scaling for the update's shape (A, B)."""
    A, B = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, A / B))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(A, B))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    """Mirrors `torch.optim.Muon`. Differences: the bfloat16 Newton-Schulz iteration is
    emulated in float32 (see the module docstring)."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        weight_decay: float = 0.1,
        momentum: float = 0.95,
        nesterov: bool = True,
        ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B, DEFAULT_C),
        eps: float = EPS,
        ns_steps: int = DEFAULT_NS_STEPS,
        adjust_lr_fn: str | None = None,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not le(0.0, lr):
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not le(0.0, momentum):
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not le(0.0, weight_decay):
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {
            "lr": lr,
            "weight_decay": weight_decay,
            "momentum": momentum,
            "nesterov": nesterov,
            "ns_coefficients": ns_coefficients,
            "eps": eps,
            "ns_steps": ns_steps,
            "adjust_lr_fn": adjust_lr_fn,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(
                        "Muon only supports 2D parameters whereas we found a parameter with "
                        f"size: {p.size()}"
                    )

    def _init_group(self, group: dict[str, Any]) -> list[tuple[Tensor, Tensor]]:
        """(param, momentum buffer) for each parameter with a grad; torch's checks first."""
        out = []
        for p in group["params"]:
            if p.grad is None:
                continue
            if p.is_complex():
                raise RuntimeError("Muon does not support complex parameters")
            if p.grad.is_sparse:
                raise RuntimeError("Muon does not support sparse gradients")
            state = self.state[p]
            if "momentum_buffer" not in state:
                state["momentum_buffer"] = zeros_like(p.grad)
            out.append((p, state["momentum_buffer"]))
        return out

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Muon.step`."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            lr = float(group["lr"])
            wd = group["weight_decay"]
            momentum = group["momentum"]
            for p, buf in self._init_group(group):
                grad = arr(p.grad)
                if grad.ndim != 2:
                    raise ValueError("Param gradient must be a 2D matrix")
                b = arr(buf)
                b[...] = lerp(b, grad, 1 - momentum)
                update = lerp(grad, b, momentum) if group["nesterov"] else b
                ortho = _zeropower_via_newtonschulz(
                    update, group["ns_coefficients"], group["ns_steps"], group["eps"]
                )
                adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], p.shape)
                with no_grad():
                    p.mul_(1 - lr * wd)
                param = arr(p)
                # torch: param.add_(update, alpha=-adjusted_lr), the bfloat16 update cast up
                write_param(p, fma(-adjusted_lr, ortho.astype(param.dtype), param))
        return loss
