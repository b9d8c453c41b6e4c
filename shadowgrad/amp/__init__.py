"""Mirrors `torch.amp`: `GradScaler` (complete on the cpu device) and `autocast`.

`autocast("cpu")` casts as torch's CPU autocast does (default dtype bfloat16): the ops of its
lower-precision list (mm, bmm, matmul, addmm, baddbmm, addbmm, linear, the convolutions, prelu)
run on their floating inputs cast to the autocast dtype (float64 ones are left alone), the
losses and the other ops of its float32 list on float32 inputs; a leaf that requires grad is
cast once per region (torch's cast cache). Differences: the public functions cast (the
`torch.*` and `torch.nn.functional.*` attributes and the Tensor methods, swapped in while a
region is on), so a reference to one taken before the region, and shadowgrad's own internal
calls, do not. For cuda (as torch on a machine without CUDA) autocast disables itself with
torch's warning.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _grad_mode
from .._tensor import Tensor, _make

__all__ = [
    "GradScaler",
    "autocast",
    "clear_autocast_cache",
    "custom_bwd",
    "custom_fwd",
    "get_autocast_dtype",
    "is_autocast_available",
    "is_autocast_cache_enabled",
    "is_autocast_enabled",
    "set_autocast_cache_enabled",
    "set_autocast_dtype",
    "set_autocast_enabled",
]

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
    """Mirrors `torch.amp.is_autocast_available`: the cpu device only."""
    return _check_device_type(device_type) == "cpu"


class _AutocastState:
    """The cpu device's autocast switches, torch's thread-global ones."""

    enabled = False
    dtype: Any = None  # bfloat16 (set below)
    cache_enabled = True
    nesting = 0
    inside = False  # an autocast op is running: the ops it calls are not cast again
    cache: dict[int, tuple[Tensor, Tensor]] = {}  # noqa: RUF012
    patched: list[tuple[Any, str, Any]] = []  # noqa: RUF012


_AC = _AutocastState()
_AC.dtype = D.bfloat16 if D.HAS_BF16 else D.float16


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Mirrors `torch.is_autocast_enabled` (without an argument, cuda's: off)."""
    if device_type is None:
        return False
    return _check_device_type(device_type) == "cpu" and _AC.enabled


def get_autocast_dtype(device_type: str) -> Any:
    """Mirrors `torch.get_autocast_dtype`."""
    return _AC.dtype if _check_device_type(device_type) == "cpu" else D.float16


def set_autocast_dtype(device_type: str, dtype: Any) -> None:
    """Mirrors `torch.set_autocast_dtype`."""
    if _check_device_type(device_type) == "cpu":
        _AC.dtype = dtype


def set_autocast_enabled(device_type: Any, enabled: Any = None) -> None:
    """Mirrors `torch.set_autocast_enabled(device_type, enabled)` (the one-argument form sets
    cuda's, which shadowgrad has not)."""
    if enabled is None or _check_device_type(device_type) != "cpu":
        return
    _AC.enabled = bool(enabled)
    if _AC.enabled:
        _install()


def is_autocast_cache_enabled() -> bool:
    """Mirrors `torch.is_autocast_cache_enabled`."""
    return _AC.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Mirrors `torch.set_autocast_cache_enabled`."""
    _AC.cache_enabled = bool(enabled)


def clear_autocast_cache() -> None:
    """Mirrors `torch.clear_autocast_cache`."""
    _AC.cache.clear()


def _cast(v: Any, dt: Any) -> Any:
    """torch's cached_cast: a floating tensor other than float64 cast to dt (a leaf that
    requires grad once per region while the cache is on)."""
    if not isinstance(v, Tensor):
        if isinstance(v, (list, tuple)) and any(isinstance(e, Tensor) for e in v):
            return type(v)(_cast(e, dt) for e in v)
        return v
    if v.dtype is dt or not v.dtype.is_floating_point or v.dtype is D.float64:
        return v
    cacheable = _AC.cache_enabled and v.is_leaf and v.requires_grad
    if cacheable:
        hit = _AC.cache.get(id(v))
        if hit is not None and hit[0] is v and hit[1].dtype is dt:
            return hit[1]
    out = v.to(dt)
    if cacheable:
        _AC.cache[id(v)] = (v, out)
    return out


def _wrap(fn: Any, low: bool) -> Any:
    """fn with its tensor arguments cast by autocast's policy (low: the lower precision)."""
    import functools

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        if not _AC.enabled or _AC.inside:
            return fn(*args, **kwargs)
        dt = _AC.dtype if low else D.float32
        args = tuple(_cast(a, dt) for a in args)
        kwargs = {k: _cast(v, dt) for k, v in kwargs.items()}
        _AC.inside = True
        try:
            return fn(*args, **kwargs)
        finally:
            _AC.inside = False

    return run


# torch's CPU autocast lists (autocast_mode.cpp), by the names of the public functions: the ops
# cast to the lower precision and those cast to float32
_LOW_TORCH = ("mm", "bmm", "matmul", "addmm", "baddbmm", "addbmm", "conv1d", "conv2d", "conv3d",
              "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu",
              "conv_tbc")  # fmt: skip
_LOW_TENSOR = ("mm", "bmm", "matmul", "__matmul__", "__rmatmul__", "addmm", "baddbmm", "addbmm")
_LOW_F = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
          "conv_transpose3d", "prelu", "scaled_dot_product_attention")  # fmt: skip
_FP32_TORCH = ("prod", "quantile", "nanquantile", "stft", "cdist", "trace", "polar",
               "cholesky", "cholesky_inverse", "cholesky_solve", "inverse", "lu_solve",
               "pinverse", "orgqr", "ormqr")  # fmt: skip
_FP32_F = ("avg_pool3d", "max_pool3d", "adaptive_avg_pool3d", "grid_sample", "max_unpool2d",
           "max_unpool3d", "binary_cross_entropy", "mse_loss", "cosine_embedding_loss",
           "nll_loss", "hinge_embedding_loss", "poisson_nll_loss", "smooth_l1_loss",
           "cross_entropy", "l1_loss", "huber_loss", "margin_ranking_loss", "soft_margin_loss",
           "triplet_margin_loss", "multi_margin_loss", "ctc_loss", "kl_div",
           "multilabel_margin_loss", "binary_cross_entropy_with_logits")  # fmt: skip


def _install() -> None:
    """Swap the listed public functions for casting ones (put back when no region is on)."""
    if _AC.patched:
        return
    import shadowgrad as torch

    F = torch.nn.functional
    for owner, names, low in (
        (torch, _LOW_TORCH, True),
        (Tensor, _LOW_TENSOR, True),
        (F, _LOW_F, True),
        (torch, _FP32_TORCH, False),
        (F, _FP32_F, False),
    ):
        for name in names:
            fn = owner.__dict__.get(name)
            if fn is None:
                continue
            _AC.patched.append((owner, name, fn))
            setattr(owner, name, _wrap(fn, low))


def _uninstall() -> None:
    for owner, name, fn in reversed(_AC.patched):
        setattr(owner, name, fn)
    _AC.patched.clear()


class autocast:
    """Mirrors `torch.autocast` / `torch.amp.autocast` (see the module: the cpu device casts,
    cuda disables itself)."""

    def __init__(
        self,
        device_type: str,
        dtype: Any = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        self.device = _check_device_type(device_type)
        self.fast_dtype = get_autocast_dtype(self.device) if dtype is None else dtype
        self._cache = _AC.cache_enabled if cache_enabled is None else bool(cache_enabled)
        if enabled and self.device == "cuda":
            warnings.warn(
                "CUDA is not available or torch_xla is imported. Disabling autocast.",
                UserWarning,
                stacklevel=2,
            )
            enabled = False
        supported = (D.float16, D.bfloat16) if D.HAS_BF16 else (D.float16,)
        if enabled and self.device == "cpu" and self.fast_dtype not in supported:
            warnings.warn(
                "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                UserWarning,
                stacklevel=2,
            )
            enabled = False
        if enabled and self.device != "cpu":
            raise RuntimeError(
                f"shadowgrad does not implement autocast on the {self.device} device: it "
                "computes in the dtypes it is given. Use enabled=False, or cast the model "
                "and inputs explicitly."
            )
        self._enabled = bool(enabled)

    def __enter__(self) -> autocast:
        if self.device != "cpu":
            _AC.nesting += 1  # torch's nesting count is one for every device
            return self
        self._prev = (_AC.enabled, _AC.dtype, _AC.cache_enabled)
        _AC.enabled = self._enabled
        _AC.dtype = self.fast_dtype
        _AC.cache_enabled = self._cache
        _AC.nesting += 1
        if self._enabled:
            _install()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.device != "cpu":
            _AC.nesting -= 1
            if _AC.nesting == 0:
                _AC.cache.clear()
            return None
        _AC.nesting -= 1
        if _AC.nesting == 0:
            _AC.cache.clear()  # torch empties the cast cache as the outermost region ends
        _AC.enabled, _AC.dtype, _AC.cache_enabled = self._prev
        if not _AC.enabled and _AC.nesting == 0:
            _uninstall()
        return None

    def __call__(self, fn: Any) -> Any:
        import functools

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)

        return wrapper


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
