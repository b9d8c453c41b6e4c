"""Random numbers: manual_seed, Generator, rand, randn, randint, randperm, and *_like.

Mirrors torch's API; the streams come from numpy's PCG64, so values differ from torch's
(bitwise parity with torch's generator is not a goal).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype as D
from ._creation import _finish, _size, size_arg
from ._formats import like_layout
from ._tensor import Tensor, check_device


class Generator:
    """A random number generator. Mirrors `torch.Generator`."""

    def __init__(self, device: Any = "cpu") -> None:
        self._seed = 67280421310721
        self._rng = np.random.Generator(np.random.PCG64(self._seed))

    def manual_seed(self, seed: int) -> Generator:
        self._seed = int(seed)
        self._rng = np.random.Generator(np.random.PCG64(self._seed & ((1 << 64) - 1)))
        return self

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy % (1 << 63))  # type: ignore[operator]
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Tensor:
        import pickle

        raw = np.frombuffer(pickle.dumps(self._rng.bit_generator.state), dtype=np.uint8)
        from ._tensor import _make

        return _make(raw.copy())

    def set_state(self, state: Tensor) -> Generator:
        import pickle

        st = pickle.loads(state._data.tobytes())
        self._rng.bit_generator.state = st
        return self

    @property
    def device(self) -> Any:
        from ._tensor import CPU

        return CPU


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Mirrors `torch.manual_seed`."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Mirrors `torch.seed`."""
    return default_generator.seed()


def initial_seed() -> int:
    """Mirrors `torch.initial_seed`."""
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """Mirrors `torch.get_rng_state`."""
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    """Mirrors `torch.set_rng_state`."""
    default_generator.set_state(new_state)


def _rng(generator: Generator | None) -> np.random.Generator:
    if _VMAP.randomness == "error":
        from .func import RANDOM_IN_VMAP

        raise RuntimeError(RANDOM_IN_VMAP)
    return (generator or default_generator)._rng


class _NoVmap:
    randomness = None


_VMAP: Any = _NoVmap  # func.VMAP once shadowgrad.func is imported (see func.py)


def _float_dtype(dtype: D.dtype | None, name: str) -> D.dtype:
    d = dtype or D.get_default_dtype()
    if not (d.is_floating_point or d.is_complex):
        raise RuntimeError(f"\"{name}\" not implemented for '{d._short}'")
    return d


def rand(
    *args: Any,
    size: Any = None,
    generator: Generator | None = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Uniform on [0, 1). Mirrors `torch.rand`."""
    check_device(device)
    d = _float_dtype(dtype, "check_uniform_bounds")
    arr = (
        _rng(generator).random(_size(size_arg("rand", args, size)), dtype=np.float64).astype(d._np)
    )
    return _finish(arr, requires_grad)


def randn(
    *args: Any,
    size: Any = None,
    generator: Generator | None = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Standard normal. Mirrors `torch.randn`."""
    check_device(device)
    d = _float_dtype(dtype, "normal_kernel_cpu")
    arr = _rng(generator).standard_normal(_size(size_arg("randn", args, size))).astype(d._np)
    return _finish(arr, requires_grad)


def randint(
    *args: Any,
    generator: Generator | None = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    size: Any = None,
) -> Tensor:
    """Mirrors `torch.randint(low=0, high, size)`."""
    check_device(device)
    if size is not None:
        args = (*args, size)
    if len(args) == 2:
        low, high, shape = 0, args[0], args[1]
    elif len(args) == 3:
        low, high, shape = args
    else:
        raise TypeError("randint() received an invalid combination of arguments")
    if high <= low:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    d = dtype or D.int64
    arr = _rng(generator).integers(low, high, _size((tuple(shape),)), dtype=np.int64)
    return _finish(arr.astype(d._np), requires_grad)


def randperm(
    n: int,
    *,
    generator: Generator | None = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Mirrors `torch.randperm`."""
    check_device(device)
    d = dtype or D.int64
    return _finish(_rng(generator).permutation(n).astype(d._np), requires_grad)


def rand_like(
    input: Tensor,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.rand_like`."""
    return like_layout(
        rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad),
        input,
        memory_format,
    )


def randn_like(
    input: Tensor,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.randn_like`."""
    return like_layout(
        randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad),
        input,
        memory_format,
    )


def randint_like(
    input: Tensor,
    low: int = 0,
    high: int | None = None,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.randint_like`."""
    if high is None:
        low, high = 0, low
    return like_layout(
        randint(low, high, tuple(input.shape), dtype=dtype or input.dtype), input, memory_format
    )
