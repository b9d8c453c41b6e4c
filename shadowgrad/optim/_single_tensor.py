"""Pieces shared by the optimizers written after Adam: argument checks, torch's group gathering
(sparse check and lazy state creation before any parameter moves) and the step counter.
See Note [Optimizer arithmetic] in optimizer.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import le
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import tensor
from .._grad_mode import no_grad
from .._tensor import Tensor
from .optimizer import Optimizer, arr, fma

__all__ = [
    "capturable_error",
    "check_betas",
    "check_lr",
    "check_nonneg",
    "decay",
    "float_betas",
    "grads",
    "params_with_grad",
    "scalar",
    "tick",
    "upgrade_groups",
]


def check_lr(lr: Any) -> None:
    # torch writes `0.0 <= lr`: with le(0.0, lr) a None or a str fails with that comparison's
    # TypeError, operands in torch's order (so do the other optimizers' checks)
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not le(0.0, lr):
        raise ValueError(f"Invalid learning rate: {lr}")


def check_nonneg(value: Any, what: str) -> None:
    """torch's "Invalid <what> value: <value>" check for a setting that must be >= 0."""
    if not le(0.0, value):
        raise ValueError(f"Invalid {what} value: {value}")


def check_betas(betas: Any) -> None:
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")


def float_betas(group: dict[str, Any]) -> tuple[float, float]:
    """The group's betas as numbers: each may be a Tensor (given so, or set by a scheduler
    that cycles momentum: OneCycleLR and CyclicLR write a float beta1 beside a Tensor beta2)."""
    beta1, beta2 = group["betas"]
    if type(beta1) is not float:
        beta1 = float(beta1)
    if type(beta2) is not float:
        beta2 = float(beta2)
    return beta1, beta2


def decay(
    group: dict[str, Any], lr: float, wd: float, param: np.ndarray, grad: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Weight decay `wd` ahead of an Adam-family update, as the new (param, grad): none at 0;
    under the group's `decoupled_weight_decay` the parameter scaled by 1 - lr * wd (AdamW's
    form), else wd * param added to the gradient."""
    if wd != 0:
        if group["decoupled_weight_decay"]:
            param = param * (1 - lr * wd)
        else:
            grad = fma(wd, param, grad)
    return param, grad


def scalar_dtype(fused: Any = None) -> Any:
    """torch.optim.optimizer._get_scalar_dtype: the dtype of 0-dim state values; float64 when
    the default dtype is float64 (not for fused steps), float32 otherwise."""
    if not fused and _dtype.get_default_dtype() is _dtype.float64:
        return _dtype.float64
    return _dtype.float32


def scalar(value: float, fused: Any = None) -> Tensor:
    """A 0-dim state value (torch keeps `step`, `mu_product`, ... as such tensors), of
    `scalar_dtype()`."""
    return tensor(value, dtype=scalar_dtype(fused))


def upgrade_groups(
    opt: Optimizer,
    defaults: dict[str, Any],
    keys: tuple[str, ...] = ("step",),
    fused_dtype: bool = False,
) -> None:
    """torch's `__setstate__` of the optimizers that keep a `step` tensor (run by
    load_state_dict and unpickling): each group gains the settings added since older versions
    (`defaults`), and a per-parameter counter saved as a number (the format before `step`
    became a tensor) becomes a 0-dim tensor of the scalar dtype (a fused group's float32 when
    `fused_dtype`)."""
    for group in opt.param_groups:
        for key, value in defaults.items():
            group.setdefault(key, value)
        fused = group.get("fused") if fused_dtype else None
        for p in group["params"]:
            p_state = opt.state.get(p, [])
            if len(p_state) == 0:
                continue
            for key in keys:
                if not isinstance(p_state[key], Tensor):
                    p_state[key] = tensor(float(p_state[key]), dtype=scalar_dtype(fused))


def tick(state: dict[str, Any]) -> float:
    """Advance the float32 `step` counter in place and return its value."""
    with no_grad():
        state["step"].add_(1)
    return float(state["step"].item())


def params_with_grad(
    opt: Optimizer, group: dict[str, Any], init: Callable[[Tensor, dict[str, Any]], None]
) -> list[tuple[Tensor, dict[str, Any]]]:
    """The group's parameters that have a grad, each with its state (created by `init` on
    first use). Raises torch's sparse-gradient error before any parameter is updated."""
    out = []
    for p in group["params"]:
        if p.grad is None:
            continue
        if p.grad.is_sparse:
            raise RuntimeError(f"{type(opt).__name__} does not support sparse gradients")
        state = opt.state[p]
        if len(state) == 0:
            init(p, state)
        out.append((p, state))
    return out


# what torch's capturable-device assertion names, per optimizer: (single-tensor text, its
# device list includes xla, foreach text, foreach list includes xla)
_STATE_STEPS = "params and state_steps"
_CAPTURABLE = {
    "Adam": (_STATE_STEPS, True, _STATE_STEPS, False),
    "AdamW": (_STATE_STEPS, True, _STATE_STEPS, False),
    "Adamax": (_STATE_STEPS, True, _STATE_STEPS, False),
    "RAdam": (_STATE_STEPS, True, _STATE_STEPS, False),
    "NAdam": (
        "params, mu_products and state_steps",
        True,
        "params, mu_products, and state_steps",
        False,
    ),
    "ASGD": (
        "params, mus, etas, and state_steps",
        True,
        "params, mus, etas, and state_steps",
        False,
    ),
    "Adadelta": (_STATE_STEPS, False, _STATE_STEPS, False),
    "RMSprop": (_STATE_STEPS, True, _STATE_STEPS, True),
    "Rprop": (_STATE_STEPS, True, _STATE_STEPS, True),
}


def capturable_error(
    opt: Optimizer, group: dict[str, Any], init: Callable[[Tensor, dict[str, Any]], None]
) -> None:
    """torch's step under capturable=True on CPU: the group's state is created, then the
    update asserts its tensors are on a capturable device (CPU never is). Nothing is raised
    when no parameter of the group has a grad."""
    if not params_with_grad(opt, group, init):
        return
    spec = next(_CAPTURABLE[c.__name__] for c in type(opt).__mro__ if c.__name__ in _CAPTURABLE)
    foreach = group.get("foreach") and not group.get("differentiable")
    what, xla = (spec[2], spec[3]) if foreach else (spec[0], spec[1])
    devices = ["cuda", "xpu", "hpu", "privateuseone"] + (["xla"] if xla else [])
    raise AssertionError(f"If capturable=True, {what} must be on supported devices: {devices}.")


def grads(
    opt: Optimizer, group: dict[str, Any], init: Callable[[Tensor, dict[str, Any]], None]
) -> Iterator[tuple[Tensor, dict[str, Any], np.ndarray, np.ndarray]]:
    """(param, state, grad array, param array) for each parameter with a grad, the grad
    negated under `maximize`."""
    if group.get("capturable"):
        capturable_error(opt, group, init)
    for p, state in params_with_grad(opt, group, init):
        grad = arr(p.grad)
        yield p, state, (-grad if group["maximize"] else grad), arr(p)


def reduced_moments(
    p: Tensor, state: dict[str, Any], group: dict[str, Any], lr: float, wd: Any,
    beta1: float, beta2: float,
) -> Tensor:  # fmt: skip
    """The Adam family's float16/bfloat16 update up to its moments, each of torch's ops rounded
    to the dtype: the weight decay (decoupled: `p.mul_(1 - lr * wd)`, else
    `grad.add(p, alpha=wd)`), `exp_avg.lerp_(grad, 1 - beta1)` and
    `exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)`; the multi-tensor update's
    in-place `_foreach_mul_` rounds beta2 and the decay factor to the dtype first. Returns the
    gradient the rest of the update reads (maximize and the coupled decay applied). Runs under
    the caller's no_grad."""

    def in_dtype(v: Any) -> Any:
        return tensor(v, dtype=_dtype.float32).to(p.dtype).item() if group["foreach"] else v

    grad = -p.grad if group["maximize"] else p.grad
    if wd != 0:
        if group["decoupled_weight_decay"]:
            p.mul_(in_dtype(1 - lr * wd))
        else:
            grad = grad.add(p, alpha=wd)
    state["exp_avg"].lerp_(grad, 1 - beta1)
    state["exp_avg_sq"].mul_(in_dtype(beta2)).addcmul_(grad, grad, value=1 - beta2)
    return grad
