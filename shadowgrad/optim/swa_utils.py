"""Stochastic Weight Averaging and EMA. Mirrors `torch.optim.swa_utils`.

AveragedModel, SWALR, update_bn and the averaging-function factories, as torch's on the cpu: the
default equal-weight average updates each parameter with `avg + (p - avg) / (n + 1)` (torch's
per-tensor path, since its foreach kernels are not used on the cpu), a `multi_avg_fn` receives
the parameters grouped by dtype.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

from .._grad_mode import no_grad
from .._tensor import Tensor
from ..nn.modules.module import Module
from .lr_scheduler import LRScheduler, _format_param
from .optimizer import Optimizer

__all__ = [
    "SWALR",
    "AveragedModel",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )


def _is_float(t: Tensor) -> bool:
    return t.dtype.is_floating_point or t.dtype.is_complex


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    """EMA over lists of parameters, in place. Mirrors torch's."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param_list: Any, current_param_list: Any, _: Any) -> None:
        if _is_float(ema_param_list[0]):
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.lerp_(p_model, 1 - decay)  # torch's _foreach_lerp_
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    """Equal-weight average over lists of parameters, in place. Mirrors torch's."""

    @no_grad()
    def swa_update(averaged_param_list: Any, current_param_list: Any, num_averaged: Any) -> None:
        if _is_float(averaged_param_list[0]):
            w = 1 / (num_averaged + 1)
            for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True):
                p_avg.lerp_(p_model, w)  # torch's _foreach_lerp_
        else:
            for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True):
                diff = p_model - p_avg
                if isinstance(num_averaged, Tensor):
                    p_avg.addcdiv_(diff, num_averaged + 1)
                else:
                    p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., Tensor]:
    """EMA of one parameter. Mirrors torch's."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[..., Tensor]:
    """Equal-weight average of one parameter. Mirrors torch's."""

    @no_grad()
    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


def _group_by_dtype(a: list[Tensor], b: list[Tensor]) -> list[tuple[list[Tensor], list[Tensor]]]:
    groups: dict[Any, tuple[list[Tensor], list[Tensor]]] = {}
    for x, y in zip(a, b, strict=True):
        g = groups.setdefault(x.dtype, ([], []))
        g[0].append(x)
        g[1].append(y)
    return list(groups.values())


class AveragedModel(Module):
    """A running average (SWA, or EMA with an averaging function) of a model's parameters.
    Mirrors `torch.optim.swa_utils.AveragedModel`."""

    def __init__(
        self,
        model: Module,
        device: Any = None,
        avg_fn: Callable[..., Tensor] | None = None,
        multi_avg_fn: Callable[..., None] | None = None,
        use_buffers: bool = False,
    ) -> None:
        from .. import long, tensor

        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", tensor(0, dtype=long))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        self_param = (
            itertools.chain(self.module.parameters(), self.module.buffers())
            if self.use_buffers
            else self.parameters()
        )
        model_param = (
            itertools.chain(model.parameters(), model.buffers())
            if self.use_buffers
            else model.parameters()
        )
        self_detached: list[Tensor] = []
        model_detached: list[Tensor] = []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param, strict=False):
            p_model_ = p_model.detach()
            self_detached.append(p_averaged.detach())
            model_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                for self_params, model_params in _group_by_dtype(self_detached, model_detached):
                    if self.multi_avg_fn:
                        self.multi_avg_fn(self_params, model_params, self.n_averaged)
                    else:
                        avg_fn = get_swa_avg_fn()
                        for p_averaged, p_model in zip(self_params, model_params, strict=True):
                            p_averaged.copy_(avg_fn(p_averaged, p_model, self.n_averaged))
            else:
                for p_averaged, p_model in zip(self_detached, model_detached, strict=True):
                    p_averaged.detach().copy_(
                        self.avg_fn(p_averaged.detach(), p_model, self.n_averaged)
                    )
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


@no_grad()
def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recompute the BatchNorm running statistics with one pass over `loader`. Mirrors torch's."""
    from ..nn.modules.normalization import _BatchNorm

    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for bn_module in momenta:
        bn_module.momentum = momenta[bn_module]
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's learning rate to its `swa_lr`. Mirrors
    `torch.optim.swa_utils.SWALR`."""

    def __init__(
        self,
        optimizer: Optimizer,
        swa_lr: float,
        anneal_epochs: int = 10,
        anneal_strategy: str = "cos",
        last_epoch: int = -1,
    ) -> None:
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[Any]:
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use "
                "`get_last_lr()`.",
                UserWarning,
                stacklevel=2,
            )
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs, strict=True)
        ]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        if anneal_strategy == "cos":
            self.anneal_func = self._cosine_anneal
        else:
            self.anneal_func = self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        return {
            key: value
            for key, value in self.__dict__.items()
            if key not in ("optimizer", "anneal_func")
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
