"""LinearCrossEntropyLoss and its chunking options. Mirrors `torch.nn.LinearCrossEntropyLoss`
and `torch.nn.LinearCrossEntropyOptions`."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import shadowgrad as _sg

from ..._tensor import Tensor
from .. import functional as F
from .linear import Linear
from .loss import _WeightedLoss

__all__ = ["LinearCrossEntropyLoss", "LinearCrossEntropyOptions"]

# torch's "auto" picks on CPU are for half-precision inputs; other dtypes use the fallback
_AUTO_FALLBACK = ("compact", "aspect_ratio:2")


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    """Mirrors `torch.nn.LinearCrossEntropyOptions`: opting in to the chunked
    linear_cross_entropy. The chunk size is resolved (and checked) as torch resolves it; the
    computation itself runs in one chunk (see nn/_functional_linear_ce.py)."""

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: Any = None

    def __post_init__(self) -> None:
        if self.acc_policy not in {"auto", "accurate", "balanced", "compact"}:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method is not None and self.chunking_method != "auto":
            name, sep, factor = self.chunking_method.partition(":")
            if not sep:
                factor = "1"
            if not (name == "aspect_ratio" and factor.isdigit() and int(factor) > 0):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        size = self.batch_chunk_size
        if not (size is None or (isinstance(size, int) and size > 0)):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {size!r}")
        if self.acc_dtype is not None and self.acc_dtype not in (
            _sg.float16,
            _sg.float32,
            _sg.float64,
        ):
            raise ValueError(
                "acc_dtype must be one of {None, torch.float16, torch.bfloat16, torch.float32, "
                f"torch.float64}}, got {self.acc_dtype!r}. Pass acc_dtype=None to let the op "
                "pick automatically."
            )

    @staticmethod
    def _chunk_size(method: str, num_batches: int, in_features: int, num_classes: int) -> int:
        factor = int(method.split(":", 1)[1]) if ":" in method else 1
        target = -(-num_batches // -(-num_classes // in_features))
        return min((1 << (target - 1).bit_length()) // factor, num_batches)

    def _adjust(
        self, num_batches: int, in_features: int, num_classes: int, dtype: Any, device: Any = None
    ) -> LinearCrossEntropyOptions:
        """torch's resolution of the "auto" settings for one call (raises torch's error when
        batch_chunk_size and chunking_method disagree)."""
        policy, method = self.acc_policy, self.chunking_method
        if method == "auto" and self.batch_chunk_size is not None:
            method = None
        if policy == "auto":
            policy = _AUTO_FALLBACK[0]
        if method == "auto":
            method = _AUTO_FALLBACK[1]
        size = (
            num_batches
            if self.batch_chunk_size is None
            else min(self.batch_chunk_size, num_batches)
        )
        if method is not None:
            size = self._chunk_size(method, num_batches, in_features, num_classes)
            if self.batch_chunk_size is not None and self.batch_chunk_size != size:
                raise ValueError(
                    f"batch_chunk_size (={self.batch_chunk_size}) and chunking_method "
                    f"('{method}') give different chunk sizes ({self.batch_chunk_size} vs "
                    f"{size}); pass only one."
                )
        acc = dtype if self.acc_dtype is None else self.acc_dtype
        return dataclasses.replace(
            self,
            acc_policy=policy,
            chunking_method=method,
            batch_chunk_size=max(1, size),
            acc_dtype=acc,
        )


class LinearCrossEntropyLoss(_WeightedLoss):
    """Mirrors `torch.nn.LinearCrossEntropyLoss`: a Linear layer (weight stored flat, as
    (num_classes * prod(out_features), in_features)) followed by cross entropy."""

    def __init__(
        self,
        in_features: int,
        num_classes: int,
        *,
        out_features: tuple[int, ...] = (),
        bias: bool = False,
        device: Any = None,
        dtype: Any = None,
        reduction: str = "mean",
        weight: Tensor | None = None,
        ignore_index: int | None = None,
        label_smoothing: float = 0.0,
        options: LinearCrossEntropyOptions | None = None,
    ) -> None:
        if weight is not None and weight.shape != (num_classes,):
            raise RuntimeError(
                f"expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}"
            )
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(
                f"expected label_smoothing to be in range [0, 1], got {label_smoothing}"
            )
        super().__init__(weight=weight, size_average=None, reduce=None, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.linear = Linear(
            in_features,
            math.prod(out_features, start=num_classes),
            bias=bias,
            device=device,
            dtype=dtype,
        )
        self.options = options

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        weight = self.linear.weight.reshape(
            (self.num_classes, *self.out_features, self.linear.in_features)
        )
        bias = self.linear.bias
        if bias is not None:
            bias = bias.reshape((self.num_classes, *self.out_features))
        return F.linear_cross_entropy(
            input,
            weight,
            target,
            linear_bias=bias,
            weight=self.weight,
            reduction=self.reduction,
            ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing,
            options=self.options,
        )

    def extra_repr(self) -> str:
        return (
            f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
            f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
            f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
            f"label_smoothing={self.label_smoothing}, options={self.options}"
        )
