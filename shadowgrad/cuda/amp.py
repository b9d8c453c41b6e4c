"""Mirrors the deprecated `torch.cuda.amp`: `GradScaler` and `autocast` for the cuda device,
which warn that they are deprecated and then disable themselves as torch's CPU build does."""

from __future__ import annotations

import warnings
from typing import Any

from .. import amp as _amp

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd"]


class GradScaler(_amp.GradScaler):
    """Mirrors `torch.cuda.amp.GradScaler`: `torch.amp.GradScaler("cuda", ...)`."""

    def __init__(
        self,
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
            "`torch.amp.GradScaler('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(
            "cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled
        )


class autocast(_amp.autocast):
    """Mirrors `torch.cuda.amp.autocast`: `torch.amp.autocast("cuda", ...)`."""

    def __init__(self, enabled: bool = True, dtype: Any = None, cache_enabled: bool = True) -> None:
        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
            "`torch.amp.autocast('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


def custom_fwd(fwd: Any = None, *, cast_inputs: Any = None) -> Any:
    """Mirrors `torch.cuda.amp.custom_fwd`."""
    return _amp.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd: Any = None) -> Any:
    """Mirrors `torch.cuda.amp.custom_bwd`."""
    return _amp.custom_bwd(bwd, device_type="cuda")
