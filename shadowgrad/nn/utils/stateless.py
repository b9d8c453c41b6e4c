"""functional_call (deprecated here in favour of torch.func). Mirrors
`torch.nn.utils.stateless`."""

from __future__ import annotations

import warnings
from typing import Any

from ..._tensor import Tensor
from ..modules.module import Module

__all__ = ["functional_call"]


def functional_call(
    module: Module,
    parameters_and_buffers: dict[str, Tensor],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Call `module` with some parameters and buffers replaced. Mirrors
    `torch.nn.utils.stateless.functional_call` (deprecated there, with the same FutureWarning)."""
    from ... import func

    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` instead "
        "which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    return func.functional_call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )
