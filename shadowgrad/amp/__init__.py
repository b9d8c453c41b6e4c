"""Mirrors `torch.amp`: `GradScaler` (complete on the cpu device) and `autocast`.

shadowgrad computes in the dtypes it is given. `autocast` therefore runs disabled: for the
cuda device (as torch on a machine without CUDA does, with torch's warning) and when asked
with `enabled=False`. Asked to cast on the cpu it raises rather than compute in other dtypes
than torch would (shadowgrad has no bfloat16, torch's cpu autocast dtype).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import _grad_mode
from .._tensor import Tensor, _make

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available"]

_DEVICE_TYPES = (
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
    "vulkan, mps, meta, hpu, mtia, privateuseone"
)


def _check_device_type(device_type: Any) -> str:
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    base = device_type.split(":")[0]
    if base not in _DEVICE_TYPES.split(", "):
        raise RuntimeError(
            f"Expected one of {_DEVICE_TYPES} device type at start of device string: {device_type}"
        )
    return base


def is_autocast_available(device_type: str) -> bool:
    """Mirrors `torch.amp.is_autocast_available`: shadowgrad casts on no device."""
    _check_device_type(device_type)
    return False


class autocast:
    """Mirrors `torch.autocast` / `torch.amp.autocast`, always disabled (see the module)."""

    def __init__(
        self,
        device_type: str,
        dtype: Any = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        self.device = _check_device_type(device_type)
        self.fast_dtype = dtype
        if enabled and self.device == "cuda":
            warnings.warn(
                "CUDA is not available or torch_xla is imported. Disabling autocast.",
                UserWarning,
                stacklevel=2,
            )
            enabled = False
        if enabled:
            raise RuntimeError(
                f"shadowgrad does not implement autocast on the {self.device} device: it "
                "computes in the dtypes it is given. Use enabled=False, or cast the model "
                "and inputs explicitly."
            )
        self._enabled = False

    def __enter__(self) -> autocast:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def __call__(self, fn: Any) -> Any:
        import functools

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)

        return wrapper


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Mirrors `torch.is_autocast_enabled`: autocast never casts in shadowgrad."""
    if device_type is not None:
        _check_device_type(device_type)
    return False


def custom_fwd(fwd: Any = None, *, device_type: str = "cuda", cast_inputs: Any = None) -> Any:
    """Mirrors `torch.amp.custom_fwd`: with autocast always off, the forward runs as written."""
    if fwd is None:
        return lambda f: custom_fwd(f, device_type=device_type, cast_inputs=cast_inputs)
    return fwd


def custom_bwd(bwd: Any = None, *, device_type: str = "cuda") -> Any:
    """Mirrors `torch.amp.custom_bwd`."""
    if bwd is None:
        return lambda f: custom_bwd(f, device_type=device_type)
    return bwd


_READY, _UNSCALED, _STEPPED = 0, 1, 2


class GradScaler:
    """Mirrors `torch.amp.GradScaler`.

    On the cpu device it scales, unscales, skips steps with non-finite gradients and adapts
    its scale exactly as torch's does (the scale is a float32 tensor). For cuda, which
    shadowgrad has not, it disables itself with torch's warning and every method passes
    through.
    """

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = enabled
        if self._enabled and device == "cuda":
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                UserWarning,
                stacklevel=2,
            )
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale: np.ndarray | None = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker: int | None = None
            self._per_optimizer: dict[int, dict[str, Any]] = {}

    # --- scaling ----------------------------------------------------------------------------
    def _lazy_init(self) -> None:
        self._scale = np.asarray(self._init_scale, np.float32)
        self._growth_tracker = self._init_growth_tracker

    def scale(self, outputs: Any) -> Any:
        """Multiply a loss (or tensors nested in lists and tuples) by the scale."""
        if not self._enabled:
            return outputs
        if self._scale is None:
            self._lazy_init()
        if isinstance(outputs, Tensor):
            return outputs * _make(self._scale.copy())
        if isinstance(outputs, (list, tuple)):
            scaled = [self.scale(o) for o in outputs]
            return type(outputs)(scaled) if isinstance(outputs, tuple) else scaled
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer: Any) -> dict[str, Any]:
        return self._per_optimizer.setdefault(id(optimizer), {"stage": _READY, "found": 0.0})

    def unscale_(self, optimizer: Any) -> None:
        """Divide the optimizer's gradients by the scale in place, noting non-finite ones."""
        if not self._enabled:
            return
        if self._scale is None:
            raise AssertionError("Attempted unscale_ but _scale is None.  " + _NO_SCALE)
        st = self._state(optimizer)
        if st["stage"] == _UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if st["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv = np.asarray(1.0, np.float64) / self._scale.astype(np.float64)
        inv32 = inv.astype(np.float32)
        found = 0.0
        with _grad_mode.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    g = p.grad
                    if g is None:
                        continue
                    if g.dtype.is_floating_point and g.dtype.itemsize == 2:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    a = g._data
                    if not np.isfinite(a).all():
                        found = 1.0
                    g.mul_(_make(inv32.astype(a.dtype)))
        st["found"] = found
        st["stage"] = _UNSCALED

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscale (if not done yet), then step unless a gradient was inf or NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        if self._scale is None:
            raise AssertionError("Attempted step but _scale is None.  " + _NO_SCALE)
        st = self._state(optimizer)
        if st["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if st["stage"] == _READY:
            self.unscale_(optimizer)
        retval = None
        if not st["found"]:
            retval = optimizer.step(*args, **kwargs)
        st["stage"] = _STEPPED
        return retval

    def update(self, new_scale: Any = None) -> None:
        """Back off after a non-finite gradient, grow after growth_interval clean steps."""
        if not self._enabled:
            return
        if self._scale is None:
            raise AssertionError("Attempted update but _scale is None.  " + _NO_SCALE)
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale = np.asarray(new_scale, np.float32)
            else:
                if not (isinstance(new_scale, Tensor) and new_scale.numel() == 1):
                    raise AssertionError(
                        "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                        "torch.FloatTensor with requires_grad=False."
                    )
                self._scale = np.asarray(new_scale._data, np.float32).reshape(())
        else:
            found = [st["found"] for st in self._per_optimizer.values()]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            assert self._growth_tracker is not None
            if sum(found) > 0:
                self._scale = (self._scale * np.float32(self._backoff_factor)).astype(np.float32)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    grown = self._scale * np.float32(self._growth_factor)
                    if np.isfinite(grown):
                        self._scale = grown.astype(np.float32)
                    self._growth_tracker = 0
        self._per_optimizer = {}

    # --- settings and state -----------------------------------------------------------------
    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale)

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def is_enabled(self) -> bool:
        return self._enabled

    def _get_growth_tracker(self) -> int:
        if self._growth_tracker is None:
            return self._init_growth_tracker
        return self._growth_tracker

    def state_dict(self) -> dict[str, Any]:
        if not self._enabled:
            return {}
        return {
            "scale": self.get_scale(),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._get_growth_tracker(),
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a disabled "
                "instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale = np.asarray(state_dict["scale"], np.float32)
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker = state_dict["_growth_tracker"]


_NO_SCALE = (
    "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the "
    "iteration."
)
