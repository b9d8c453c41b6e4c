"""Mirrors `torch.cpu`: the cpu as a device module (`torch.get_device_module("cpu")`), with the
no-op stream and synchronization calls device-generic code makes."""

from __future__ import annotations

from typing import Any

from . import amp

__all__ = [
    "Stream",
    "StreamContext",
    "amp",
    "current_device",
    "current_stream",
    "device_count",
    "is_available",
    "is_initialized",
    "set_device",
    "stream",
    "synchronize",
]


def is_available() -> bool:
    """Mirrors `torch.cpu.is_available`: always True."""
    return True


def is_initialized() -> bool:
    """Mirrors `torch.cpu.is_initialized`: always True."""
    return True


def device_count() -> int:
    """Mirrors `torch.cpu.device_count`: 1."""
    return 1


def current_device() -> str:
    """Mirrors `torch.cpu.current_device`: the string "cpu"."""
    return "cpu"


def set_device(device: Any) -> None:
    """Mirrors `torch.cpu.set_device`: a no-op."""


def synchronize(device: Any = None) -> None:
    """Mirrors `torch.cpu.synchronize`: the cpu runs eagerly, nothing to wait for."""


class Stream:
    """Mirrors `torch.cpu.Stream`: N.B. a no-op stream, as torch's."""

    def __init__(self, priority: int = -1) -> None:
        pass

    def wait_stream(self, stream: Any) -> None:
        pass

    def record_event(self) -> None:
        pass

    def wait_event(self, event: Any) -> None:
        pass


_DEFAULT_STREAM = Stream()


def current_stream(device: Any = None) -> Stream:
    """Mirrors `torch.cpu.current_stream`."""
    return _DEFAULT_STREAM


class StreamContext:
    """Mirrors `torch.cpu.StreamContext`: a no-op."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: Any) -> None:
        pass


def stream(stream: Any) -> StreamContext:
    """Mirrors `torch.cpu.stream`."""
    return StreamContext(stream)
