"""Mirrors `torch.cuda` as torch's CPU build has it: no CUDA device.

The queries answer as torch's CPU build does (`is_available()` is False, `device_count()` 0,
memory counters 0), seeding and cache calls do nothing, and the calls that need a device raise
torch's `AssertionError: Torch not compiled with CUDA enabled`. Programs written as
`device = "cuda" if torch.cuda.is_available() else "cpu"` therefore run on the cpu.
"""

from __future__ import annotations

from typing import Any

from . import amp

__all__ = [
    "BoolTensor",
    "ByteTensor",
    "CharTensor",
    "DoubleTensor",
    "FloatTensor",
    "HalfTensor",
    "IntTensor",
    "LongTensor",
    "ShortTensor",
    "amp",
    "current_device",
    "device_count",
    "empty_cache",
    "get_arch_list",
    "get_device_capability",
    "get_device_name",
    "get_device_properties",
    "get_rng_state",
    "get_rng_state_all",
    "init",
    "initial_seed",
    "is_available",
    "is_bf16_supported",
    "is_initialized",
    "manual_seed",
    "manual_seed_all",
    "max_memory_allocated",
    "max_memory_reserved",
    "mem_get_info",
    "memory_allocated",
    "memory_reserved",
    "seed",
    "seed_all",
    "set_device",
    "set_rng_state",
    "set_rng_state_all",
    "synchronize",
]


def _not_compiled(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("Torch not compiled with CUDA enabled")


# torch's error for a conversion to a CUDA type (`x.type(torch.cuda.FloatTensor)`) on a CPU build
NO_CUDA_LIBRARY = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library."
)


class _cuda_tensortype(type):
    """Metaclass of the legacy CUDA types (`torch.cuda.FloatTensor`, ...): they exist, so
    `dtype = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor` runs, but no tensor is
    an instance of one and constructing one raises torch's CPU-build TypeError."""

    dtype: Any
    is_cuda = True
    is_sparse = False

    def __instancecheck__(cls, obj: Any) -> bool:
        return False

    def __subclasscheck__(cls, sub: Any) -> bool:
        return sub is cls

    def __repr__(cls) -> str:
        return f"<class 'torch.cuda.{cls.__name__}'>"

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"type torch.cuda.{cls.__name__} not available. Torch not compiled with CUDA enabled."
        )


def _cuda_type(name: str, dtype_name: str) -> Any:
    from .. import _dtype as D

    return _cuda_tensortype(name, (), {"dtype": getattr(D, dtype_name), "__module__": "torch.cuda"})


BoolTensor = _cuda_type("BoolTensor", "bool_")
ByteTensor = _cuda_type("ByteTensor", "uint8")
CharTensor = _cuda_type("CharTensor", "int8")
DoubleTensor = _cuda_type("DoubleTensor", "float64")
FloatTensor = _cuda_type("FloatTensor", "float32")
HalfTensor = _cuda_type("HalfTensor", "float16")
IntTensor = _cuda_type("IntTensor", "int32")
LongTensor = _cuda_type("LongTensor", "int64")
ShortTensor = _cuda_type("ShortTensor", "int16")


def is_available() -> bool:
    """Mirrors `torch.cuda.is_available`: False."""
    return False


def device_count() -> int:
    """Mirrors `torch.cuda.device_count`: 0."""
    return 0


def is_initialized() -> bool:
    """Mirrors `torch.cuda.is_initialized`: False."""
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Mirrors `torch.cuda.is_bf16_supported`: False."""
    return False


def get_arch_list() -> list[str]:
    """Mirrors `torch.cuda.get_arch_list`: empty."""
    return []


def manual_seed(seed: int) -> None:
    """Mirrors `torch.cuda.manual_seed`: nothing to seed (torch queues it for a device that
    never comes)."""
    int(seed)


def manual_seed_all(seed: int) -> None:
    """Mirrors `torch.cuda.manual_seed_all`: nothing to seed."""
    int(seed)


def seed() -> None:
    """Mirrors `torch.cuda.seed`: nothing to seed."""


def seed_all() -> None:
    """Mirrors `torch.cuda.seed_all`: nothing to seed."""


def empty_cache() -> None:
    """Mirrors `torch.cuda.empty_cache`: no cache."""


def memory_allocated(device: Any = None) -> int:
    """Mirrors `torch.cuda.memory_allocated`: 0."""
    return 0


def max_memory_allocated(device: Any = None) -> int:
    """Mirrors `torch.cuda.max_memory_allocated`: 0."""
    return 0


def memory_reserved(device: Any = None) -> int:
    """Mirrors `torch.cuda.memory_reserved`: 0."""
    return 0


def max_memory_reserved(device: Any = None) -> int:
    """Mirrors `torch.cuda.max_memory_reserved`: 0."""
    return 0


current_device = _not_compiled
synchronize = _not_compiled
get_device_name = _not_compiled
get_device_capability = _not_compiled
get_device_properties = _not_compiled
get_rng_state = _not_compiled
get_rng_state_all = _not_compiled
set_rng_state = _not_compiled
set_rng_state_all = _not_compiled
initial_seed = _not_compiled
init = _not_compiled
mem_get_info = _not_compiled
set_device = _not_compiled
