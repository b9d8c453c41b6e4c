"""Random numbers: torch's CPU generator (mt19937) with its seeding and state, and the
factories rand, randn, randint, randperm and their *_like.

The values are torch's bit for bit: numpy's MT19937 is the same engine, seeded by the same
init_genrand, and every draw goes through torch's CPU kernels (_rng_kernels.py), so that after
`manual_seed(s)` a program draws what it draws under torch and leaves the generator where torch
leaves it. The state tensor has torch's layout (CPUGeneratorImplState, 5056 bytes), so a state
saved by one library restores in the other.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from . import _dtype as D
from . import _rng_kernels as K
from ._creation import _finish, _size, size_arg
from ._formats import like_layout
from ._signatures import factory_options
from ._tensor import Tensor, _make, check_device

_DEFAULT_SEED = 67280421310721  # c10::detail::default_rng_seed_val
_MT_N = 624
# torch's CPUGeneratorImplState: the legacy THGeneratorState (its normal_x and normal_rho are
# dummies) followed by the float normal cache, with C's padding
_STATE = np.dtype(
    [
        ("the_initial_seed", "<u8"),
        ("left", "<i4"),
        ("seeded", "<i4"),
        ("next", "<u8"),
        ("state", "<u8", (_MT_N,)),
        ("normal_x", "<f8"),
        ("normal_y", "<f8"),
        ("normal_rho", "<f8"),
        ("normal_is_valid", "<i4"),
        ("pad0", "<i4"),
        ("next_float_normal_sample", "<f4"),
        ("is_next_float_normal_sample_valid", "u1"),
        ("pad1", "u1", (3,)),
    ]
)
_STATE_SIZE = _STATE.itemsize  # 5056


def _init_genrand(seed: int) -> np.ndarray:
    """mt19937's init_genrand: the 624-word key for a 32-bit seed."""
    key = [seed]
    for i in range(1, _MT_N):
        key.append((1812433253 * (key[-1] ^ (key[-1] >> 30)) + i) & 0xFFFFFFFF)
    return np.array(key, np.uint32)


class Generator:
    """torch's CPU random number generator (mt19937). Mirrors `torch.Generator`."""

    def __init__(self, device: Any = "cpu") -> None:
        check_device(device)
        self._mt = np.random.MT19937(0)
        self._reseed(_DEFAULT_SEED)

    def _reseed(self, seed: int) -> None:
        self._seed = seed
        # torch's mt19937 keeps the low 32 bits (init_genrand); the full seed is reported back
        legacy = getattr(self._mt, "_legacy_seeding", None)
        if legacy is not None:  # numpy's RandomState seeding: init_genrand, in C
            legacy(seed & 0xFFFFFFFF)
        else:
            state = {"key": _init_genrand(seed & 0xFFFFFFFF), "pos": _MT_N}
            self._mt.state = {"bit_generator": "MT19937", "state": state}
        self._fresh = True  # torch's left=1, next=0: no word drawn since seeding
        self._normal: float | None = None  # next_double_normal_sample
        self._float_normal: float | None = None  # next_float_normal_sample (kept, not drawn)

    def _draw(self, n: int) -> np.ndarray:
        """n raw 32-bit words of the engine (uint64 holding values below 2**32)."""
        if n:
            self._fresh = False
        return self._mt.random_raw(n)

    def manual_seed(self, seed: int) -> Generator:
        """Mirrors `torch.Generator.manual_seed`: the seed as uint64 (negative ones wrap)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -(1 << 63) <= seed < 1 << 64:
            raise ValueError("Overflow when unpacking long long")
        self._reseed(seed % (1 << 64))
        return self

    def seed(self) -> int:
        """Mirrors `torch.Generator.seed`: a non-deterministic 64-bit seed."""
        s = int.from_bytes(os.urandom(8), "little")
        self._reseed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def __repr__(self) -> str:  # a notebook's echo of `g = Generator().manual_seed(...)`
        return f"<torch._C.Generator object at {id(self):#x}>"

    def get_state(self) -> Tensor:
        """Mirrors `torch.Generator.get_state`: a uint8 tensor in torch's layout."""
        mt = self._mt.state["state"]
        rec = np.zeros((), _STATE)
        rec["the_initial_seed"] = self._seed
        rec["seeded"] = 1
        pos = int(mt["pos"])
        rec["left"], rec["next"] = (1, 0) if self._fresh else (_MT_N + 1 - pos, pos)
        rec["state"] = mt["key"]
        if self._normal is not None:
            rec["normal_y"], rec["normal_is_valid"] = self._normal, 1
        if self._float_normal is not None:
            rec["next_float_normal_sample"] = self._float_normal
            rec["is_next_float_normal_sample_valid"] = 1
        return _make(np.frombuffer(rec.tobytes(), np.uint8).copy())

    def set_state(self, new_state: Tensor) -> Generator:
        """Mirrors `torch.Generator.set_state`."""
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        raw = new_state._data
        if raw.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if raw.size != _STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input "
                f"RNG state size to be {raw.size}"
            )
        rec = np.frombuffer(np.ascontiguousarray(raw).tobytes(), _STATE)[0]
        left, nxt = int(rec["left"]), int(rec["next"])
        if not (rec["seeded"] and 0 < left <= _MT_N and nxt <= _MT_N):
            raise RuntimeError("Invalid mt19937 state")
        key = (rec["state"] & 0xFFFFFFFF).astype(np.uint32)
        # torch regenerates when `left` runs out; numpy when `pos` reaches 624
        pos = _MT_N if left == 1 else nxt
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._seed = int(rec["the_initial_seed"])
        self._fresh = left == 1 and nxt == 0
        self._normal = float(rec["normal_y"]) if rec["normal_is_valid"] else None
        valid = rec["is_next_float_normal_sample_valid"]
        self._float_normal = float(rec["next_float_normal_sample"]) if valid else None
        return self

    def clone_state(self) -> Generator:
        """Mirrors `torch.Generator.clone_state`."""
        return Generator().set_state(self.get_state())

    def get_offset(self) -> int:
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset: int) -> Generator:
        raise RuntimeError("CPU Generator does not use offset")

    @property
    def device(self) -> Any:
        from ._tensor import CPU

        return CPU

    def __reduce__(self) -> Any:
        return (Generator, ("cpu",), (self._seed, None, self.get_state()))

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.set_state(state[2])


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Mirrors `torch.manual_seed`."""
    return default_generator.manual_seed(int(seed))


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


def _gen(generator: Generator | None) -> Generator:
    """The generator a random function draws from (vmap's 'error' mode forbids any)."""
    if _VMAP.randomness == "error":
        from .func import RANDOM_IN_VMAP

        raise RuntimeError(RANDOM_IN_VMAP)
    return generator if generator is not None else default_generator


class _NoVmap:
    randomness = None


_VMAP: Any = _NoVmap  # func.VMAP once shadowgrad.func is imported (see func.py)


def _float_dtype(dtype: D.dtype | None, name: str) -> D.dtype:
    d = dtype or D.get_default_dtype()
    if not (d.is_floating_point or d.is_complex):
        # torch's dispatch error for a kernel with no integer version
        raise NotImplementedError(f"\"{name}\" not implemented for '{d._short}'")
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
    if (
        (dtype is not None and dtype.__class__ is not D.dtype)
        or (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        dtype = factory_options("rand", args, dtype, device, pin_memory, requires_grad)
    check_device(device)
    d = _float_dtype(dtype or (out.dtype if out is not None else None), "check_uniform_bounds")
    shape = _size(size_arg("rand", args, size))
    arr = K.uniform(_gen(generator), _numel(shape), np.dtype(d._np), 0.0, 1.0)
    if out is not None:
        return _into_out(arr.reshape(shape), out)
    return _finish(arr.reshape(shape), requires_grad)


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
    if (
        (dtype is not None and dtype.__class__ is not D.dtype)
        or (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        dtype = factory_options("randn", args, dtype, device, pin_memory, requires_grad)
    check_device(device)
    d = _float_dtype(dtype or (out.dtype if out is not None else None), "normal_kernel_cpu")
    shape = _size(size_arg("randn", args, size))
    arr = K.normal(_gen(generator), _numel(shape), np.dtype(d._np), 0.0, 1.0, True)
    if out is not None:
        return _into_out(arr.reshape(shape), out)
    return _finish(arr.reshape(shape), requires_grad)


def _into_out(arr: np.ndarray, out: Tensor) -> Tensor:
    """A factory's out=: resized (silently, as torch's factories resize_) and written."""
    if out._data.shape != arr.shape:
        out._data = np.empty(arr.shape, out._data.dtype)
    np.copyto(out._data, arr, casting="unsafe")
    out._bump()
    return out


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def randint(
    *args: Any,
    generator: Generator | None = None,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    size: Any = None,
    low: Any = None,
    high: Any = None,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.randint(low=0, high, size)`: `empty(size).random_(low, high)`."""
    if (
        (dtype is not None and dtype.__class__ is not D.dtype)
        or (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        dtype = factory_options("randint", args, dtype, device, pin_memory, requires_grad)
    if generator is not None and not isinstance(generator, Generator):
        kw = (generator, out, dtype, layout, device, requires_grad, size, low, high)
        names = ("generator", "out", "dtype", "layout", "device", "requires_grad", "size")
        given = [(k, v) for k, v in zip((*names, "low", "high"), kw, strict=True)]
        given = [(k, v) for k, v in given if v is not None and v is not False]
        raise _combination_error("randint", args, given, _RANDINT_SIGS)
    check_device(device)
    shape = size if size is not None else args[-1] if len(args) in (2, 3) else ()
    if (
        (shape.__class__ is not tuple and shape.__class__ is not list)
        or not all(v.__class__ is int for v in shape)
        or any(v.__class__ is int and not -(2**63) <= v < 2**63 for v in args)
    ):  # torch's parser: ints, and a tuple of ints
        from ._signatures import parser_error

        kw = {"size": size, "low": low, "high": high, "generator": generator, "out": out}
        kw.update(dtype=dtype, layout=layout, device=device)
        given = {k: v for k, v in kw.items() if v is not None}
        if requires_grad is not False:
            given["requires_grad"] = requires_grad
        err = parser_error("randint", args, given, False)
        if err is not None:
            raise err
    if low is not None and high is None:
        raise TypeError('randint() missing 2 required positional argument: "high", "size"')
    if low is not None:
        args = (low, *args)
    if high is not None:
        args = (*args, high)
    if size is not None:
        args = (*args, size)
    if len(args) == 2:
        low, high, shape = 0, args[0], args[1]
    elif len(args) == 3:
        low, high, shape = args
    else:
        shape = None
    if isinstance(shape, int) and len(args) == 2:
        raise TypeError("randint(): argument 'size' (position 2) must be tuple of ints, not int")
    if not (shape is None or isinstance(shape, int) or _int_bounds(low, high)):
        from ._signatures import _type_name

        if len(args) == 2:
            raise TypeError(
                f"randint(): argument 'high' (position 1) must be int, not {_type_name(high)}"
            )
        names = ("generator", "out", "dtype", "layout", "device")
        kw = zip(names, (generator, out, dtype, layout, device), strict=True)
        given = [(k, v) for k, v in kw if v is not None]
        if requires_grad:
            given.append(("requires_grad", requires_grad))
        raise _combination_error("randint", args, given, _RANDINT_SIGS)
    if shape is None or isinstance(shape, int):
        got = ", ".join(type(a).__name__ for a in args)
        tail = (
            "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
            "torch.device device = None, bool pin_memory = False, bool requires_grad = False)"
        )
        overloads = "".join(
            f" * ({params}, *, {gen}{tail}\n"
            for params in ("int high, tuple of ints size", "int low, int high, tuple of ints size")
            for gen in ("torch.Generator generator, ", "")
        )
        raise TypeError(
            f"randint() received an invalid combination of arguments - got ({got}), but "
            f"expected one of:\n{overloads}"
        )
    d = dtype or (out.dtype if out is not None else D.int64)
    arr = np.empty(_size((tuple(shape),)), d._np)
    arr[...] = random_values(_gen(generator), arr, int(low), int(high))
    if out is not None:
        return _into_out(arr, out)
    return _finish(arr, requires_grad)


def _int_bounds(low: Any, high: Any) -> bool:
    """Whether torch's parser takes randint's bounds as ints (not a float, not a bool)."""
    if type(low) is int and type(high) is int:
        return True
    from ._signatures import _is_index

    return _is_index(low) and _is_index(high)


def random_values(g: Generator, like: np.ndarray, low: int, high: int | None) -> np.ndarray:
    """random_(low, high) of torch's random_from_to_impl for an array like `like`: bounds
    checked and, for floating dtypes, moved to castable values; high=None is the dtype's top."""
    dt = like.dtype
    name = D.CPP_NAMES[D._FROM_NP[dt]]
    if dt.kind == "c":
        raise RuntimeError(
            "check_random_bounds handles only integral, floating-point and boolean types"
        )
    if high is not None and low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    if high is None and low == -(1 << 63):
        if dt == np.float16:
            raise NotImplementedError(
                "\"random_full_64_bits_range_kernel_cpu\" not implemented for 'Half'"
            )
        if dt not in (np.int64, np.float64, np.float32):
            raise RuntimeError(
                "random_full_64_bits_range_kernel_cpu handles only int64, double, float and "
                "bfloat16"
            )
        return K.place(K.random_full(g, like.size, dt), like)
    if dt.kind == "f":
        low, high = K.float_bounds(dt, low, high)
        if low >= high:
            raise RuntimeError(
                "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                f"but got from={low} >= to={high}"
            )
        fi = D.np_finfo(dt)
        lo_ok, hi_ok = float(fi.min), float(fi.max)
    elif dt == np.bool_:
        lo_ok, hi_ok = 0, 1
        high = 2 if high is None else high
    else:
        ii = np.iinfo(dt)
        lo_ok, hi_ok = int(ii.min), int(ii.max)
        high = hi_ok + 1 if high is None else high
    if not lo_ok <= low <= hi_ok:
        raise RuntimeError(f"from is out of bounds for {name}")
    if not lo_ok <= high - 1 <= hi_ok:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")
    return K.place(K.random_from_to(g, like.size, dt, low, high), like)


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
    if (
        (dtype is not None and dtype.__class__ is not D.dtype)
        or (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        dtype = factory_options("randperm", (n,), dtype, device, pin_memory, requires_grad)
    if type(n) is not int or (generator is not None and not isinstance(generator, Generator)):
        n = _randperm_n(n, generator, out, dtype, layout, device, requires_grad, pin_memory)
    check_device(device)
    d = dtype or (out.dtype if out is not None else D.int64)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if d is D.bool_ or d.is_complex:
        raise NotImplementedError(f"\"randperm\" not implemented for '{d._short}'")
    _check_randperm_n(n, d)
    arr = K.cast(K.randperm(_gen(generator), n), np.dtype(d._np))
    if out is not None:
        return _into_out(arr, out)
    return _finish(arr, requires_grad)


_RANDINT_SIGS = tuple(
    f"{params}, *, {gen}Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
    "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False"
    for params in ("int high, tuple of ints size", "int low, int high, tuple of ints size")
    for gen in ("torch.Generator generator, ", "")
)
_RANDPERM_SIGS = (
    "int n, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False",
    "int n, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False",
)


def _randperm_n(n: Any, *kw_values: Any) -> int:
    """randperm's n when not a plain int, or its generator when not a Generator: what torch's
    argument parser takes as an int (an integer scalar, a one-element integer tensor), else
    its TypeError, naming the argument or, when keywords were given, listing the overloads
    (`random_split(ds, [2.5, 2.5])`, `RandomSampler(ds, generator=42)`)."""
    import operator

    names = ("generator", "out", "dtype", "layout", "device", "requires_grad", "pin_memory")
    given = [(k, v) for k, v in zip(names, kw_values, strict=True) if v not in (None, False)]
    bad_generator = kw_values[0] is not None and not isinstance(kw_values[0], Generator)
    if not bad_generator and not isinstance(n, (bool, np.bool_)):
        try:
            return operator.index(n)
        except TypeError:
            pass
    if not given:
        raise TypeError(
            f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}"
        )
    raise _combination_error("randperm", (n,), given, _RANDPERM_SIGS)


def _arg_kind(v: Any) -> str:
    """A value's type as torch's argument parser names it."""
    if isinstance(v, Generator):
        return "torch._C.Generator"
    if isinstance(v, D.dtype):
        return "torch.dtype"
    name = type(v).__name__
    return f"torch.{name}" if name in ("layout", "device") else name


def _combination_error(
    fn: str, args: tuple[Any, ...], given: list[tuple[str, Any]], sigs: tuple[str, ...]
) -> TypeError:
    """torch's "invalid combination of arguments" TypeError: the positional arguments' types,
    then the keywords (with a trailing ", " when there are no positional ones)."""
    kws = [f"{k}={_arg_kind(v)}" for k, v in given]
    pos = [type(a).__name__ for a in args]
    got = ", ".join(pos + kws) if pos else "".join(f"{k}, " for k in kws)
    lines = [
        f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:"
    ]
    lines += [f" * ({sig})" for sig in sigs]
    return TypeError("\n".join(lines) + "\n")


_FLOAT_TOPS = {D.float16: (2049, "2049", "Half"), D.float32: (2**24 + 1, "2^24+1", "Float")}
_FLOAT_TOPS[D.float64] = (2**53 + 1, "2^53+1", "Double")
_INT_NAMES = {D.int8: "int8_t", D.uint8: "uint8_t", D.int16: "int16_t", D.int32: "int"}


def _check_randperm_n(n: int, d: D.dtype) -> None:
    """randperm's check that every value 0..n-1 is exact in the dtype."""
    if d in _FLOAT_TOPS:
        top, text, name = _FLOAT_TOPS[d]
        if n > top:
            raise RuntimeError(f"n cannot be greater than {text} for {name} type.")
    elif d in _INT_NAMES and n - 1 > np.iinfo(d._np).max:
        raise RuntimeError(f"value cannot be converted to type {_INT_NAMES[d]} without overflow")


def _like(input: Tensor, dtype: D.dtype | None, memory_format: Any) -> np.ndarray:
    """empty_like(input): an array laid out as torch lays the result out."""
    d = dtype or input.dtype
    return like_layout(_make(np.empty(input._data.shape, d._np)), input, memory_format)._data


def rand_like(
    input: Tensor,
    *,
    generator: Generator | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.rand_like`."""
    if (
        (dtype is not None and dtype.__class__ is not D.dtype)
        or (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        dtype = factory_options("rand_like", (input,), dtype, device, pin_memory, requires_grad)
    _float_dtype(dtype or input.dtype, "check_uniform_bounds")
    arr = _like(input, dtype, memory_format)
    arr[...] = K.place(K.uniform(_gen(generator), arr.size, arr.dtype, 0.0, 1.0), arr)
    return _finish(arr, requires_grad)


def randn_like(
    input: Tensor,
    *,
    generator: Generator | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
    pin_memory: bool | None = False,
) -> Tensor:
    """Mirrors `torch.randn_like`."""
    if (
        (dtype is not None and dtype.__class__ is not D.dtype)
        or (device is not None and device.__class__ is not str)
        or pin_memory is not False
        or requires_grad.__class__ is not bool
    ):  # (a rare branch) torch's listing of the overloads for a keyword of the wrong type
        dtype = factory_options("randn_like", (input,), dtype, device, pin_memory, requires_grad)
    _float_dtype(dtype or input.dtype, "normal_kernel_cpu")
    arr = _like(input, dtype, memory_format)
    vals = K.normal(_gen(generator), arr.size, arr.dtype, 0.0, 1.0, arr.flags.c_contiguous)
    arr[...] = K.place(vals, arr)
    return _finish(arr, requires_grad)


def randint_like(
    input: Tensor,
    low: int = 0,
    high: int | None = None,
    *,
    generator: Generator | None = None,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.randint_like`."""
    if high is None:
        low, high = 0, low
    arr = _like(input, dtype, memory_format)
    arr[...] = random_values(_gen(generator), arr, int(low), int(high))
    return _finish(arr, requires_grad)


def _on_devices() -> None:
    """The factories on the device asked or the default device (see _creation._on_devices)."""
    from . import _device

    g = globals()
    for name in ("rand", "randn", "randint", "randperm"):
        g[name] = _device.factory(g[name])
    for name in ("rand_like", "randn_like", "randint_like"):
        g[name] = _device.like(g[name])


_on_devices()
