"""Weight normalization as a forward pre-hook (the deprecated form). Mirrors
`torch.nn.utils.weight_norm`.

Also holds the weight-norm kernel both forms share: torch's fused `_weight_norm_interface`
(grad_fn WeightNormInterfaceBackward0), used when the norm is taken over every dim but the first
or the last, and the composite `v * (g / norm_except_dim(v))` otherwise.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..._tensor import Tensor
from ...ops.registry import defop
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]


def _other_dims(ndim: int, dim: int) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i != dim)


def _sum_except(x: Tensor, dim: int) -> Tensor:
    axes = _other_dims(x.ndim, dim)
    return x.sum(dim=axes, keepdim=True) if axes else x


def _interface_fwd(v: np.ndarray, g: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    norms = np.sqrt((v * v).sum(axis=_other_dims(v.ndim, dim), keepdims=True)).astype(v.dtype)
    return v * (g / norms), norms


# The formulas read the norms from the second output, which is not differentiable: as in torch,
# the double backward treats them as constants (so torch's gradgradcheck of _weight_norm fails,
# and so does ours, with the same values).
def _interface_v(grads: Any, v: Tensor, g: Tensor, dim: int, result1: Tensor) -> Tensor:
    grad, norms = grads[0], result1
    return (g / norms) * (grad - v * (_sum_except(grad * v, dim) / (norms * norms)))


def _interface_g(grads: Any, v: Tensor, dim: int, result1: Tensor) -> Tensor:
    return _sum_except(grads[0] * v, dim) / result1


def _interface_jvp(v: Tensor, g: Tensor, v_t: Any, g_t: Any, dim: int, result: Any) -> Any:
    norms = result[1]
    out = 0
    if v_t is not None:
        scale = g / norms
        out = scale * v_t - v * (scale * _sum_except(v * v_t, dim) / (norms * norms))
    if g_t is not None:
        out = out + v * (g_t / norms)
    return out, None


_weight_norm_interface = defop(
    "_weight_norm_interface",
    "WeightNormInterfaceBackward0",
    _interface_fwd,
    n_outputs=2,
    diff_outputs=(0,),
    v=_interface_v,
    g=_interface_g,
    jvp=_interface_jvp,
)


def _norm_except_dim(v: Tensor, dim: int) -> Tensor:
    # torch.norm_except_dim(v, 2, dim), its graph included (a middle dim: transposed to the
    # front and back, its out-of-range error from that transpose; dim=-1: the whole norm)
    from ...ops.aten_legacy import norm_except_dim

    return norm_except_dim(v, 2, dim)


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """Mirrors `torch._weight_norm`."""
    if dim == 0 or dim == v.ndim - 1:
        return _weight_norm_interface(v, g, dim)[0]  # type: ignore[no-any-return]
    return v * (g / _norm_except_dim(v, dim))


class WeightNorm:
    """The forward pre-hook that recomputes `name` from `name_g` and `name_v`. Mirrors
    `torch.nn.utils.weight_norm.WeightNorm`."""

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> WeightNorm:
        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of "
            "`torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=3,
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Split `name` into a magnitude `name_g` and a direction `name_v`. Mirrors
    `torch.nn.utils.weight_norm` (deprecated there, with the same FutureWarning)."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Mirrors `torch.nn.utils.remove_weight_norm`."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
