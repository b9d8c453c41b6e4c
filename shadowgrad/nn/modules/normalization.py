"""BatchNorm1d/2d/3d, InstanceNorm1d/2d/3d, LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm.
Mirrors `torch.nn.modules.batchnorm`, `torch.nn.modules.instancenorm` and
`torch.nn.modules.normalization`."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from ... import _dtype
from ..._creation import empty, ones, tensor, zeros
from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ...autograd import Function
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "CrossMapLRN2d",
    "GroupNorm",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LayerNorm",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
    "LocalResponseNorm",
    "RMSNorm",
    "SyncBatchNorm",
]


class _NormBase(Module):
    _version = 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(empty(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, device=device, dtype=dtype))
            self.register_buffer(
                "num_batches_tracked", tensor(0, dtype=_dtype.int64, device=device)
            )
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (
            "{num_features}, eps={eps}, momentum={momentum}, affine={affine}, bias={use_bias}, "
            "track_running_stats={track_running_stats}".format(
                **self.__dict__, use_bias=self.bias is not None
            )
        )

    def _load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        version = local_metadata.get("version")
        if (version is None or version < 2) and self.track_running_stats:
            # Checkpoints from before num_batches_tracked existed load with a zero count.
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = (
                    self.num_batches_tracked
                    if self.num_batches_tracked is not None
                    else tensor(0, dtype=_dtype.int64)
                )
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )


class _BatchNorm(_NormBase):
    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        exponential_average_factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:
                exponential_average_factor = 1.0 / float(self.num_batches_tracked)
            else:
                exponential_average_factor = self.momentum
        bn_training = (
            True if self.training else (self.running_mean is None and self.running_var is None)
        )
        use_stats = not self.training or self.track_running_stats
        if bn_training and use_stats and self.running_mean is not None:
            from ... import func as _func

            # torch's batching rule refuses to update unbatched running stats in place from a
            # batched input (vmap over a model in train mode, the ensembling tutorial's trap)
            if _func.unbatched_in_vmap(self.running_mean, self.running_var):
                raise RuntimeError(_func.BATCH_NORM_UNBATCHED_STATS)
        return F.batch_norm(
            input,
            self.running_mean if use_stats else None,
            self.running_var if use_stats else None,
            self.weight,
            self.bias,
            bn_training,
            exponential_average_factor,
            self.eps,
        )


class BatchNorm1d(_BatchNorm):
    """Mirrors `torch.nn.BatchNorm1d`."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Mirrors `torch.nn.BatchNorm2d`."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Mirrors `torch.nn.BatchNorm3d`."""

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    """Mirrors `torch.nn.SyncBatchNorm`. Without an initialized process group (shadowgrad has
    none) torch's layer computes plain batch norm over the local batch, which this does."""

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group: Any | None = None,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def _check_non_zero_input_channels(self, input: Tensor) -> None:
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    def forward(self, input: Tensor) -> Tensor:
        # torch syncs only under an initialized process group; otherwise it falls back to
        # F.batch_norm exactly as _BatchNorm.forward does
        self._check_input_dim(input)
        self._check_non_zero_input_channels(input)
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        """Mirrors `torch.nn.SyncBatchNorm.convert_sync_batchnorm`: every BatchNorm*D layer
        becomes a SyncBatchNorm sharing its parameters and buffers."""
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
                bias=module.bias is not None,
            )
            if module.affine:
                with no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
            if hasattr(module, "qconfig"):
                module_output.qconfig = module.qconfig
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return module_output


class _InstanceNorm(_NormBase):
    _no_batch_dim = 0  # the input's dims without a batch dim (channels and spatial)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )

    def _check_input_dim(self, input: Tensor) -> None:
        n = self._no_batch_dim
        if input.dim() not in (n, n + 1):
            raise ValueError(f"expected {n}D or {n + 1}D input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input: Tensor) -> Tensor:
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def _load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        version = local_metadata.get("version")
        if version is None and not self.track_running_stats:
            keys = [prefix + n for n in ("running_mean", "running_var") if prefix + n in state_dict]
            if keys:
                klass = self.__class__.__name__
                names = " and ".join(f'"{k}"' for k in keys)
                error_msgs.append(
                    f"Unexpected running stats buffer(s) {names} for {klass} with "
                    "track_running_stats=False. If state_dict is a checkpoint saved before 0.4.0, "
                    f"this may be expected because {klass} does not track running stats by "
                    "default since 0.4.0. Please remove these keys from state_dict. If the "
                    "running stats are actually needed, instead set track_running_stats=True in "
                    f"{klass} to enable them. See the documentation of {klass} for details."
                )
                for k in keys:
                    state_dict.pop(k)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.size(feature_dim)}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can silence "
                "this warning by not passing in num_features, which is not used because "
                "affine=False",
                stacklevel=2,
            )
        if input.dim() == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Mirrors `torch.nn.InstanceNorm1d`."""

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Mirrors `torch.nn.InstanceNorm2d`."""

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Mirrors `torch.nn.InstanceNorm3d`."""

    _no_batch_dim = 4


class LayerNorm(Module):
    """Mirrors `torch.nn.LayerNorm`."""

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            "{normalized_shape}, eps={eps}, "
            "elementwise_affine={elementwise_affine}, bias={use_bias}".format(
                **self.__dict__, use_bias=self.bias is not None
            )
        )


class GroupNorm(Module):
    """Mirrors `torch.nn.GroupNorm`."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(empty(num_channels, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(num_channels, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None
        )


class RMSNorm(Module):
    """Mirrors `torch.nn.RMSNorm`."""

    def __init__(
        self,
        normalized_shape: Any,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(
            **self.__dict__
        )


class LocalResponseNorm(Module):
    """Mirrors `torch.nn.LocalResponseNorm`."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


def _lrn_scale(x: np.ndarray, size: int, alpha: float, k: float) -> np.ndarray:
    """k + alpha / size * the running sum of squares over channels, updated channel by channel
    as torch's legacy CrossMapLRN2d does (its window keeps channel 0 one step too long)."""
    sq = x * x
    c_n = x.shape[1]
    pre = int((size - 1) / 2 + 1)
    scale = np.zeros_like(x)
    for c in range(min(pre, c_n)):
        scale[:, 0] += sq[:, c]
    for c in range(1, c_n):
        scale[:, c] = scale[:, c - 1]
        if c < c_n - pre + 1:
            scale[:, c] += sq[:, c + pre - 1]
        if c > pre:
            scale[:, c] -= sq[:, c - pre]
    return scale * (alpha / size) + k


def _lrn_grad(g: np.ndarray, x: np.ndarray, out: np.ndarray, scale: np.ndarray, ctx: Any):
    size = ctx.size
    gi = scale ** (-ctx.beta) * g
    n, c_n = x.shape[:2]
    lead = int(size - (size - 1) / 2)
    padded = np.zeros((n, c_n + size - 1, *x.shape[2:]), x.dtype)
    padded[:, lead : lead + c_n] = g * out / scale
    acc = padded[:, : size - 1].sum(1)
    coef = 2 * ctx.alpha * ctx.beta / size
    for c in range(c_n):
        acc += padded[:, c + size - 1]
        gi[:, c] += -coef * x[:, c] * acc
        acc -= padded[:, c]
    return gi


def _cross_map_lrn2d_function() -> Any:
    class CrossMapLRN2d(Function):  # torch's legacy kernel, grad_fn CrossMapLRN2dBackward
        @staticmethod
        def forward(ctx: Any, input: Tensor, size: int, alpha=1e-4, beta=0.75, k=1) -> Tensor:
            ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
            if input.dim() != 4:
                raise ValueError(
                    f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead."
                )
            x = input.detach().numpy()
            ctx.scale = _lrn_scale(x, size, alpha, k)
            output = tensor(ctx.scale ** (-beta) * x)
            ctx.save_for_backward(input, output)
            return output

        @staticmethod
        def backward(ctx: Any, grad_output: Tensor) -> Any:
            input, output = ctx.saved_tensors
            arrays = (t.detach().numpy() for t in (grad_output, input, output))
            return tensor(_lrn_grad(*arrays, ctx.scale, ctx)), None, None, None, None

    return CrossMapLRN2d


_cross_map_lrn2d = _cross_map_lrn2d_function()


class CrossMapLRN2d(Module):
    """Mirrors `torch.nn.CrossMapLRN2d` (4-d input only; first-order gradients)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


# --- lazy batch and instance norms ------------------------------------------------------------


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """num_features comes from the first input. Mirrors torch's `_LazyNormBase`."""

    def __init__(
        self,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=_dtype.int64)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        names = ("weight", "bias") * self.affine + ("running_mean", "running_var") * bool(
            self.track_running_stats
        )
        for name in names:
            if getattr(self, name) is not None:  # bias=False: no bias
                getattr(self, name).materialize((self.num_features,))
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """A BatchNorm1d whose num_features comes from its first input. Mirrors
    `torch.nn.LazyBatchNorm1d`."""

    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm1d whose num_features comes from its first input. Mirrors
    `torch.nn.LazyInstanceNorm1d`."""

    cls_to_become = InstanceNorm1d
    _no_batch_dim = 2


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """A BatchNorm2d whose num_features comes from its first input. Mirrors
    `torch.nn.LazyBatchNorm2d`."""

    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm2d whose num_features comes from its first input. Mirrors
    `torch.nn.LazyInstanceNorm2d`."""

    cls_to_become = InstanceNorm2d
    _no_batch_dim = 3


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """A BatchNorm3d whose num_features comes from its first input. Mirrors
    `torch.nn.LazyBatchNorm3d`."""

    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """An InstanceNorm3d whose num_features comes from its first input. Mirrors
    `torch.nn.LazyInstanceNorm3d`."""

    cls_to_become = InstanceNorm3d
    _no_batch_dim = 4
