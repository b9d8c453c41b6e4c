"""The update of an optimizer built with `differentiable=True`. Mirrors torch's single-tensor
updates (`_single_tensor_sgd`, `_single_tensor_adam`, ...) op for op, on tensors, with grad
mode on as torch's `_use_grad_for_differentiable` sets it: the step is recorded by autograd,
so a parameter that is not a leaf gets the update's grad_fn (AddcdivBackward0, ...) and
gradients flow back to what made it and its gradient; a leaf that requires grad raises
torch's in-place error. The plain (differentiable=False) updates run on the arrays instead
(Note [Optimizer arithmetic] in optimizer.py).
"""

from __future__ import annotations

from typing import Any

from .._creation import as_tensor
from .._grad_mode import set_grad_enabled
from .._tensor import Tensor
from ..ops.pointwise import maximum, square, view_as_complex, view_as_real
from ..ops.reduction import amax
from ..ops.shape import cat
from ._single_tensor import capturable_error, params_with_grad

__all__ = [
    "adadelta",
    "adagrad",
    "adam",
    "adamax",
    "asgd",
    "nadam",
    "radam",
    "rmsprop",
    "rprop",
    "sgd",
]


def _real(t: Tensor) -> Tensor:
    return view_as_real(t) if t.is_complex() else t


def _scalar(v: Any) -> Any:
    """torch's _to_scalar: a 1-element tensor hyper-parameter of more than 0 dims squeezed."""
    if isinstance(v, Tensor) and v.dim() != 0:
        return v.squeeze()
    return v


def _no_foreach(group: dict[str, Any], todo: list[Any], always: bool = False) -> None:
    """torch's multi-tensor updates refuse differentiable=True (after the group's state is
    made; some before checking that any parameter has a grad)."""
    if group.get("foreach") and (todo or always):
        raise AssertionError("_foreach ops don't support autograd")


def _grad_mode(opt: Any) -> set_grad_enabled:
    """torch's `_use_grad_for_differentiable`: grad mode follows the optimizer's defaults, not
    the group's flag (a group loaded from a differentiable optimizer's state dict into a plain
    one steps under no_grad)."""
    return set_grad_enabled(bool(opt.defaults.get("differentiable")))


def _requires_grad(v: Any) -> bool:
    return isinstance(v, Tensor) and v.requires_grad


def _step_requires_grad(state: dict[str, Any]) -> None:
    if state["step"].requires_grad:
        raise RuntimeError("`requires_grad` is not supported for `step` in differentiable mode")


def sgd(opt: Any, group: dict[str, Any]) -> None:
    """torch's `_single_tensor_sgd` (momentum buffers kept in the state)."""
    lr = _scalar(group["lr"])
    wd = group["weight_decay"]
    momentum = group["momentum"]
    dampening = group["dampening"]
    params = [p for p in group["params"] if p.grad is not None]
    # read before the update and stored after it, as torch (see sgd.py)
    bufs = [opt.state[p].get("momentum_buffer") for p in params] if momentum != 0 else []
    with _grad_mode(opt):
        for i, param in enumerate(params):
            grad = _directed_grad(param, group)
            if wd != 0:
                if isinstance(wd, Tensor) and wd.requires_grad:
                    grad = grad.addcmul_(param.clone(), wd)
                else:
                    grad = grad.add(param, alpha=wd)
            if momentum != 0:
                buf = bufs[i]
                if buf is None:
                    buf = bufs[i] = grad.detach().clone()
                else:
                    buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
            if isinstance(lr, Tensor) and lr.requires_grad:
                param.addcmul_(grad, lr, value=-1)
            else:
                param.add_(grad, alpha=-lr)
    for p, buf in zip(params, bufs, strict=False):
        opt.state[p]["momentum_buffer"] = buf


def adam(opt: Any, group: dict[str, Any]) -> None:
    """torch's `_single_tensor_adam` under differentiable=True (AdamW through the group's
    decoupled_weight_decay)."""
    beta1, beta2 = (_scalar(b) for b in group["betas"])
    lr = _scalar(group["lr"])
    wd = group["weight_decay"]
    eps = group["eps"]
    amsgrad = group["amsgrad"]
    todo = []
    for p in group["params"]:
        if p.grad is None:
            continue
        if p.grad.is_sparse:
            raise RuntimeError(
                "Adam does not support sparse gradients, please consider SparseAdam instead"
            )
        state = opt._init_state(p, group)
        _step_requires_grad(state)
        todo.append((p, state))
    _no_foreach(group, todo)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            exp_avg = state["exp_avg"]
            exp_avg_sq = state["exp_avg_sq"]
            step_t = state["step"]
            step_t += 1
            if wd != 0:
                if group["decoupled_weight_decay"]:
                    param.mul_(1 - lr * wd)
                elif isinstance(wd, Tensor) and wd.requires_grad:
                    grad = grad.addcmul_(param.clone(), wd)
                else:
                    grad = grad.add(param, alpha=wd)
            max_sq = state.get("max_exp_avg_sq")
            if param.is_complex():
                grad, exp_avg, exp_avg_sq = _real(grad), _real(exp_avg), _real(exp_avg_sq)
                if amsgrad:
                    max_sq = _real(max_sq)
                param = _real(param)
            exp_avg.lerp_(grad, 1 - beta1)
            if isinstance(beta2, Tensor) and beta2.requires_grad:
                exp_avg_sq.lerp_(square(grad), weight=1 - beta2)
            else:
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=float(1 - beta2))
            b1_step = step_t.clone() if _requires_grad(beta1) else step_t
            b2_step = step_t.clone() if _requires_grad(beta2) else step_t
            bias_correction1 = 1 - beta1**b1_step
            bias_correction2 = 1 - beta2**b2_step
            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()
            bias_correction2_sqrt = bias_correction2.sqrt()
            if amsgrad:
                max_sq.copy_(maximum(max_sq.clone(), exp_avg_sq))
                sq = max_sq
            else:
                sq = exp_avg_sq
            denom = (sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)
            param.addcdiv_(exp_avg.clone(), denom)


def rmsprop(opt: Any, group: dict[str, Any]) -> None:
    """torch's `_single_tensor_rmsprop` under differentiable=True."""
    lr = _scalar(group["lr"])
    alpha = group["alpha"]
    eps = group["eps"]
    wd = group["weight_decay"]
    momentum = group["momentum"]
    todo = []
    for p in group["params"]:
        if p.grad is None:
            continue
        if p.grad.is_sparse:
            raise RuntimeError("RMSprop does not support sparse gradients")
        state = opt.state[p]
        if len(state) == 0:
            opt._init_state(p, state, group)
        _step_requires_grad(state)
        todo.append((p, state))
    _no_foreach(group, todo)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            square_avg = state["square_avg"]
            state["step"] += 1
            if wd != 0:
                grad = grad.add(param, alpha=wd)
            is_complex = param.is_complex()
            if is_complex:
                param, grad, square_avg = _real(param), _real(grad), _real(square_avg)
            square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
            if group["centered"]:
                grad_avg = _real(state["grad_avg"])
                grad_avg.lerp_(grad, 1 - alpha)
                avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
            else:
                avg = square_avg.sqrt()
            avg = avg.add(eps)
            if momentum > 0:
                buf = _real(state["momentum_buffer"])
                buf.mul_(momentum).addcdiv_(grad, avg)
                param.add_(buf, alpha=-lr)
            else:
                param.addcdiv_(grad, avg, value=-lr)


def adagrad(opt: Any, group: dict[str, Any]) -> None:
    """torch's `_single_tensor_adagrad` under differentiable=True (dense gradients)."""
    lr = _scalar(group["lr"])
    wd = group["weight_decay"]
    params = [p for p in group["params"] if p.grad is not None]  # torch's _init_group
    _no_foreach(group, params, always=True)
    with _grad_mode(opt):
        for param in params:
            state = opt.state[param]
            step_t = state["step"]
            step_t += 1
            step = float(step_t.item())
            grad = _directed_grad(param, group)
            if wd != 0:
                grad = grad.add(param, alpha=wd)
            clr = lr / (1 + (step - 1) * group["lr_decay"])
            state_sum = state["sum"]
            if param.is_complex():
                grad, state_sum, param = _real(grad), _real(state_sum), _real(param)
            state_sum.addcmul_(grad, grad, value=1)
            std = state_sum.sqrt() + group["eps"]
            param.addcdiv_(grad, std, value=-clr)


def _directed_grad(param: Tensor, group: dict[str, Any]) -> Tensor:
    """The gradient the update descends: negated under maximize."""
    return param.grad if not group["maximize"] else -param.grad


def _weight_decay(param: Tensor, grad: Tensor, lr: Any, wd: Any, group: dict[str, Any]) -> Any:
    """NAdam's and RAdam's weight decay: decoupled (the parameter shrinks in place) or L2 (added
    to the gradient)."""
    if wd != 0:
        if group["decoupled_weight_decay"]:
            param.mul_(1 - lr * wd)
        else:
            grad = grad.add(param, alpha=wd)
    return grad


def _todo(opt: Any, group: dict[str, Any], init: Any) -> list[tuple[Tensor, dict[str, Any]]]:
    """The group's parameters with a grad and their state (created by `init`), after torch's
    capturable-device and sparse-gradient checks."""
    if group.get("capturable"):
        capturable_error(opt, group, init)
    return params_with_grad(opt, group, init)


def adamax(opt: Any, group: dict[str, Any], init: Any) -> None:
    """torch's `_single_tensor_adamax` under differentiable=True."""
    beta1, beta2 = group["betas"]
    lr = _scalar(group["lr"])
    eps, wd = group["eps"], group["weight_decay"]
    todo = _todo(opt, group, init)
    _no_foreach(group, todo, always=True)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
            step_t = state["step"]
            step_t += 1
            if wd != 0:
                grad = grad.add(param, alpha=wd)
            if param.is_complex():
                param, grad, exp_avg, exp_inf = (_real(t) for t in (param, grad, exp_avg, exp_inf))
            exp_avg.lerp_(grad, 1 - beta1)
            norm_buf = cat(
                [exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0
            )
            exp_inf.copy_(amax(norm_buf, 0, keepdim=False))
            clr = lr / (1 - beta1 ** float(step_t.item()))
            param.addcdiv_(exp_avg, exp_inf, value=-clr)


def nadam(opt: Any, group: dict[str, Any], init: Any) -> None:
    """torch's `_single_tensor_nadam` under differentiable=True."""
    beta1, beta2 = group["betas"]
    lr = _scalar(group["lr"])
    eps, wd, psi = group["eps"], group["weight_decay"], group["momentum_decay"]
    todo = _todo(opt, group, init)
    _no_foreach(group, todo)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            mu_product = state["mu_product"]
            step_t = state["step"]
            if param.is_complex():
                param, grad, exp_avg, exp_avg_sq = map(_real, (param, grad, exp_avg, exp_avg_sq))
            step_t += 1
            step = float(step_t.item())
            bias_correction2 = 1 - beta2**step
            grad = _weight_decay(param, grad, lr, wd, group)
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * psi)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * psi)))
            mu_product *= mu
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            denom = exp_avg_sq.div(bias_correction2).sqrt().add(eps)
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            param.addcdiv_(grad, denom)
            param.addcdiv_(exp_avg, denom)


def radam(opt: Any, group: dict[str, Any], init: Any) -> None:
    """torch's `_single_tensor_radam` under differentiable=True."""
    beta1, beta2 = group["betas"]
    lr = _scalar(group["lr"])
    eps, wd = group["eps"], group["weight_decay"]
    todo = _todo(opt, group, init)
    _no_foreach(group, todo)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            step_t = state["step"]
            if param.is_complex():
                param, grad, exp_avg, exp_avg_sq = map(_real, (param, grad, exp_avg, exp_avg_sq))
            step_t += 1
            step = float(step_t.item())
            grad = _weight_decay(param, grad, lr, wd, group)
            exp_avg.lerp_(grad, 1 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            bias_corrected_exp_avg = exp_avg / bias_correction1
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
            if rho_t > 5.0:
                rect = (
                    (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
                ) ** 0.5
                adaptive_lr = (bias_correction2**0.5) / exp_avg_sq.sqrt().add(eps)
                param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
            else:
                param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)


def adadelta(opt: Any, group: dict[str, Any], init: Any) -> None:
    """torch's `_single_tensor_adadelta` under differentiable=True."""
    lr = _scalar(group["lr"])
    rho, eps, wd = group["rho"], group["eps"], group["weight_decay"]
    todo = _todo(opt, group, init)
    _no_foreach(group, todo, always=True)
    with _grad_mode(opt):
        for param, state in todo:
            square_avg, acc_delta = state["square_avg"], state["acc_delta"]
            state["step"] += 1
            grad = _directed_grad(param, group)
            if wd != 0:
                grad = grad.add(param, alpha=wd)
            is_complex = param.is_complex()
            if is_complex:
                square_avg, acc_delta, grad = _real(square_avg), _real(acc_delta), _real(grad)
            square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
            std = square_avg.add(eps).sqrt_()
            delta = acc_delta.add(eps).sqrt_().clone()
            delta.div_(std).mul_(grad)
            acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
            if is_complex:
                delta = view_as_complex(delta)
            param.add_(delta, alpha=-lr)


def asgd(opt: Any, group: dict[str, Any], init: Any) -> None:
    """torch's `_single_tensor_asgd` under differentiable=True."""
    lr = _scalar(group["lr"])
    lambd, alpha, t0, wd = group["lambd"], group["alpha"], group["t0"], group["weight_decay"]
    todo = _todo(opt, group, init)
    _no_foreach(group, todo)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
            if param.is_complex():
                grad, param, ax = _real(grad), _real(param), _real(ax)
            step_t += 1
            if wd != 0:
                grad = grad.add(param, alpha=wd)
            eta_value = float(eta.item())
            param.mul_(1 - lambd * eta_value)
            param.add_(grad, alpha=-eta_value)
            if mu.item() != 1:
                ax.add_(param.sub(ax).mul_(mu))
            else:
                ax.copy_(param)
            step = float(step_t.item())
            eta.copy_(as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
            mu.copy_(as_tensor(1 / max(1, step - t0)))


def rprop(opt: Any, group: dict[str, Any], init: Any) -> None:
    """torch's `_single_tensor_rprop` under differentiable=True."""
    etaminus, etaplus = group["etas"]
    size_min, size_max = group["step_sizes"]
    todo = _todo(opt, group, init)
    _no_foreach(group, todo)
    with _grad_mode(opt):
        for param, state in todo:
            grad = _directed_grad(param, group)
            prev, step_size = state["prev"], state["step_size"]
            state["step"] += 1
            if param.is_complex():
                grad, prev, param, step_size = (_real(t) for t in (grad, prev, param, step_size))
            sign = grad.mul(prev.clone()).sign()
            sign[sign.gt(0)] = etaplus
            sign[sign.lt(0)] = etaminus
            sign[sign.eq(0)] = 1
            step_size.mul_(sign).clamp_(size_min, size_max)
            grad = grad.clone()
            grad[sign.eq(etaminus)] = 0
            param.addcmul_(grad.sign(), step_size, value=-1)
            prev.copy_(grad)
