"""Activation modules. Mirrors `torch.nn.modules.activation` (MultiheadAttention lives in
transformer.py)."""

from __future__ import annotations

import warnings
from typing import Any

from ... import _creation
from ..._signatures import not_tensor
from ..._tensor import Tensor
from .. import functional as F
from ..parameter import Parameter
from .module import Module

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "SELU",
    "Hardshrink",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "Mish",
    "PReLU",
    "RReLU",
    "ReLU",
    "ReLU6",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softmax2d",
    "Softmin",
    "Softplus",
    "Softshrink",
    "Softsign",
    "Tanh",
    "Tanhshrink",
    "Threshold",
]


def _inplace_str(inplace: bool) -> str:
    return ", inplace=True" if inplace else ""


class _Inplace(Module):
    """An activation whose only option is `inplace`; its repr shows it only when set."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ReLU(_Inplace):
    """Mirrors `torch.nn.ReLU`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)


class SELU(_Inplace):
    """Mirrors `torch.nn.SELU`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.selu(input, self.inplace)


class SiLU(_Inplace):
    """Mirrors `torch.nn.SiLU`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input, inplace=self.inplace)


class Mish(_Inplace):
    """Mirrors `torch.nn.Mish`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.mish(input, inplace=self.inplace)


class Hardsigmoid(_Inplace):
    """Mirrors `torch.nn.Hardsigmoid`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:  # torch's Hardsigmoid has none: its repr never shows inplace
        return ""


class Hardswish(_Inplace):
    """Mirrors `torch.nn.Hardswish`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardswish(input, self.inplace)

    def extra_repr(self) -> str:  # torch's Hardswish has none: its repr never shows inplace
        return ""


class Threshold(Module):
    """Mirrors `torch.nn.Threshold`."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}{_inplace_str(self.inplace)}"


class Hardtanh(Module):
    """Mirrors `torch.nn.Hardtanh`."""

    def __init__(
        self,
        min_val: float = -1.0,
        max_val: float = 1.0,
        inplace: bool = False,
        min_value: float | None = None,
        max_value: float | None = None,
    ) -> None:
        super().__init__()
        if min_value is not None:
            warnings.warn(
                "keyword argument `min_value` is deprecated and renamed to `min_val`",
                FutureWarning,
                stacklevel=2,
            )
            min_val = min_value
        if max_value is not None:
            warnings.warn(
                "keyword argument `max_value` is deprecated and renamed to `max_val`",
                FutureWarning,
                stacklevel=2,
            )
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})"
            )

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self.inplace)}"


class ReLU6(Hardtanh):
    """Mirrors `torch.nn.ReLU6` (a Hardtanh from 0 to 6, as in torch)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """Mirrors `torch.nn.Sigmoid`."""

    def forward(self, input: Tensor) -> Tensor:
        if not isinstance(input, Tensor):  # torch.sigmoid's argument parser
            raise not_tensor("sigmoid", "input", 1, input)
        return input.sigmoid()


class Tanh(Module):
    """Mirrors `torch.nn.Tanh`."""

    def forward(self, input: Tensor) -> Tensor:
        if not isinstance(input, Tensor):  # torch.tanh's argument parser
            raise not_tensor("tanh", "input", 1, input)
        return input.tanh()


class LogSigmoid(Module):
    """Mirrors `torch.nn.LogSigmoid`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class Softsign(Module):
    """Mirrors `torch.nn.Softsign`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class Tanhshrink(Module):
    """Mirrors `torch.nn.Tanhshrink`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class ELU(Module):
    """Mirrors `torch.nn.ELU`."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_str(self.inplace)}"


class CELU(ELU):
    """Mirrors `torch.nn.CELU`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha, self.inplace)


class GELU(Module):
    """Mirrors `torch.nn.GELU`."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class LeakyReLU(Module):
    """Mirrors `torch.nn.LeakyReLU`."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{_inplace_str(self.inplace)}"


class RReLU(Module):
    """Mirrors `torch.nn.RReLU`."""

    def __init__(
        self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False
    ) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}{_inplace_str(self.inplace)}"


class Softplus(Module):
    """Mirrors `torch.nn.Softplus`."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class _Shrink(Module):
    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Hardshrink(_Shrink):
    """Mirrors `torch.nn.Hardshrink`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.hardshrink(input, self.lambd)


class Softshrink(_Shrink):
    """Mirrors `torch.nn.Softshrink`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softshrink(input, self.lambd)


class _DimModule(Module):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_DimModule):
    """Mirrors `torch.nn.Softmax`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim)


class Softmax2d(Module):
    """Mirrors `torch.nn.Softmax2d`: a softmax over the channels of each location."""

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead"
            )
        return F.softmax(input, -3, _stacklevel=5)


class Softmin(_DimModule):
    """Mirrors `torch.nn.Softmin`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim)


class LogSoftmax(_DimModule):
    """Mirrors `torch.nn.LogSoftmax`."""

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim)


class GLU(Module):
    """Mirrors `torch.nn.GLU`."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """Mirrors `torch.nn.PReLU`."""

    def __init__(
        self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None
    ) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(_creation.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        from .. import init as nn_init

        nn_init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
