"""Anomaly detection: detect_anomaly and set_detect_anomaly.

Mirrors `torch.autograd.anomaly_mode`. Unlike grad mode, anomaly mode is process-global, as in
torch (a thread sees the mode the main thread set).
"""

from __future__ import annotations

import warnings


class _Anomaly:
    enabled = False
    check_nan = True
    # the node whose backward is running, in anomaly mode: a node recorded then (create_graph)
    # keeps it as its parent, whose forward trace torch's error warning adds ("Previous
    # calculation was induced by ...")
    parent = None


_STATE = _Anomaly()


def _set(enabled: bool, check_nan: bool) -> None:
    """torch's set_anomaly_enabled binding: both arguments must be bools."""
    for i, (name, v) in enumerate((("enabled", enabled), ("check_nan", check_nan))):
        if not isinstance(v, bool):
            raise TypeError(
                f"set_anomaly_enabled(): argument '{name}' (position {i + 1}) must be bool, not "
                f"{type(v).__name__}"
            )
    _STATE.enabled = enabled
    _STATE.check_nan = check_nan


def is_anomaly_enabled() -> bool:
    """Mirrors `torch.is_anomaly_enabled`."""
    return _STATE.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Mirrors `torch.is_anomaly_check_nan_enabled`."""
    return _STATE.check_nan


class detect_anomaly:
    """Context manager enabling anomaly detection. Mirrors `torch.autograd.detect_anomaly`.

    Like torch's, it is not a decorator.
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = _STATE.enabled
        self.check_nan = check_nan
        self.prev_check_nan = _STATE.check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should "
            "only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )

    def __enter__(self) -> None:
        _set(True, self.check_nan)

    def __exit__(self, *exc: object) -> None:
        _STATE.enabled = self.prev
        _STATE.check_nan = self.prev_check_nan


class set_detect_anomaly:
    """Set anomaly detection on or off now. Mirrors `torch.autograd.set_detect_anomaly`."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = _STATE.enabled
        self.prev_check_nan = _STATE.check_nan
        _set(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _STATE.enabled = self.prev
        _STATE.check_nan = self.prev_check_nan
