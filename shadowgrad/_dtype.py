"""dtype objects with torch's names, the default dtype, and torch's type promotion.

Mirrors `torch.dtype`, `torch.get_default_dtype`, `torch.promote_types` and `torch.result_type`.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np

__all__ = [
    "dtype",
    "get_default_dtype",
    "promote_types",
    "round_bf16",
    "set_default_dtype",
]


class dtype:
    """A tensor element type. Mirrors `torch.dtype`."""

    __slots__ = (
        "_cat",
        "_legacy",
        "_name",
        "_np",
        "_short",
        "is_complex",
        "is_floating_point",
        "is_signed",
        "itemsize",
    )

    def __init__(self, name: str, np_dtype: type, cat: int, legacy: str, short: str) -> None:
        self._name = name
        self._np = np.dtype(np_dtype)
        # Category order used by promotion: bool < integer < floating < complex.
        self._cat = cat
        self._legacy = legacy
        self._short = short
        self.is_floating_point = cat == 2
        self.is_complex = cat == 3
        self.is_signed = name not in ("uint8", "bool", "uint16", "uint32", "uint64")
        self.itemsize = self._np.itemsize

    def __repr__(self) -> str:
        return "torch." + self._name

    def __reduce__(self) -> str:
        return self._name

    def to_complex(self) -> dtype:
        """Differences: float16's is complex64 (shadowgrad has no complex32)."""
        if self._cat < 2:
            raise RuntimeError(f"Unknown Complex ScalarType for {self._short}")
        return {float16: complex64, float32: complex64, float64: complex128}.get(
            self, complex64 if self is bfloat16 else self
        )

    def to_real(self) -> dtype:
        return {complex64: float32, complex128: float64}.get(self, self)


# Note [bfloat16 storage]
# numpy has no bfloat16. A bfloat16 tensor's array is np.longdouble (x86-64: 80-bit extended
# precision, 16 bytes; no other dtype uses it), so the dtype propagates through numpy's ufuncs,
# reductions, indexing and shape ops by itself, and _FROM_NP maps it back. Its values are kept
# rounded to bfloat16 (round_bf16: the float32 value rounded to nearest even, as torch rounds
# its float32 results) wherever a bfloat16 array is made: factories and tensor() (_finish),
# casts (_to_copy), the op runner (registry._run: the fast paths send longdouble there), the
# in-place writers and gradient accumulation. `itemsize` reads torch's 2. Where longdouble is
# float64 (Windows, macOS arm64) bfloat16 is not registered: torch.bfloat16 does not exist.
HAS_BF16 = np.dtype(np.longdouble) != np.dtype(np.float64) and np.finfo(np.longdouble).nmant > 52
LD = np.dtype(np.longdouble)


class _BF16Info:
    """np.finfo's fields for bfloat16 (np.finfo of its storage would read longdouble's)."""

    bits, nmant, precision, resolution = 16, 7, 2, 0.01
    eps = 2.0**-7
    max = float.fromhex("0x1.fep127")
    min = -max
    tiny = smallest_normal = 2.0**-126
    dtype = LD


def np_finfo(d: Any) -> Any:
    """np.finfo(d), bfloat16's limits for its longdouble storage (Note [bfloat16 storage])."""
    d = np.dtype(d)
    return _BF16Info if d == LD else np.finfo(d)


class _Seen:
    """Whether a bfloat16 value was ever made (round_bf16 ran): code that would otherwise
    check every tensor for bfloat16 (the optimizers' steps) checks this first."""

    bf16 = False


SEEN = _Seen()


def round_bf16(a: Any) -> np.ndarray:
    """a's values rounded to bfloat16 (through float32, nearest even; nan stays nan, inf inf),
    as a longdouble array."""
    SEEN.bf16 = True
    with np.errstate(all="ignore"):
        f = np.asarray(a, np.float32)
    # elementwise on f's own strides (a view of the same item size), so the result keeps its
    # memory order, as torch's casts do
    scalar = f.ndim == 0
    if scalar:
        f = f.reshape(1)  # (ufuncs give 0-d operands numpy scalars)
    u = f.view(np.uint32)
    r = (u + (np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))) & np.uint32(0xFFFF0000)
    nan = np.isnan(f)
    if nan.any():
        r[nan] = (u[nan] | np.uint32(0x00400000)) & np.uint32(0xFFFF0000)
    out = r.view(np.float32).astype(LD)
    return out.reshape(()) if scalar else out


bool_ = dtype("bool", np.bool_, 0, "torch.BoolTensor", "Bool")
uint8 = dtype("uint8", np.uint8, 1, "torch.ByteTensor", "Byte")
int8 = dtype("int8", np.int8, 1, "torch.CharTensor", "Char")
int16 = dtype("int16", np.int16, 1, "torch.ShortTensor", "Short")
int32 = dtype("int32", np.int32, 1, "torch.IntTensor", "Int")
int64 = dtype("int64", np.int64, 1, "torch.LongTensor", "Long")
float16 = dtype("float16", np.float16, 2, "torch.HalfTensor", "Half")
float32 = dtype("float32", np.float32, 2, "torch.FloatTensor", "Float")
float64 = dtype("float64", np.float64, 2, "torch.DoubleTensor", "Double")
complex64 = dtype("complex64", np.complex64, 3, "torch.ComplexFloatTensor", "ComplexFloat")
complex128 = dtype("complex128", np.complex128, 3, "torch.ComplexDoubleTensor", "ComplexDouble")
# Note [Barebones unsigned types]
# torch's uint16/32/64 exist for storage and interchange: creation, casts, comparisons, bit
# views and a few kernels. Promotion with any other integer, bool or complex dtype is an error,
# with a floating dtype gives it (promote_types). torch lacks CPU kernels for much arithmetic on
# them (add, neg, max, pow, ...); shadowgrad computes those with numpy's unsigned arithmetic.
uint16 = dtype("uint16", np.uint16, 1, "torch.UInt16Tensor", "UInt16")
uint32 = dtype("uint32", np.uint32, 1, "torch.UInt32Tensor", "UInt32")
uint64 = dtype("uint64", np.uint64, 1, "torch.UInt64Tensor", "UInt64")
BAREBONES_UNSIGNED = frozenset((uint16, uint32, uint64))
bfloat16 = dtype("bfloat16", np.longdouble, 2, "torch.BFloat16Tensor", "BFloat16")
bfloat16.itemsize = 2  # torch's (its array's longdouble takes 16 bytes)

ALL_DTYPES = (
    bool_,
    uint8,
    int8,
    int16,
    int32,
    int64,
    float16,
    float32,
    float64,
    complex64,
    complex128,
    uint16,
    uint32,
    uint64,
) + ((bfloat16,) if HAS_BF16 else ())
_FROM_NP = {d._np: d for d in ALL_DTYPES}
# C++ spelling used in some torch messages ("'double'", "'long int'").
CPP_NAMES = {
    float16: "c10::Half",
    float32: "float",
    float64: "double",
    int64: "long int",
    int32: "int",
    int16: "short int",
    int8: "signed char",
    uint8: "unsigned char",
    uint16: "unsigned short",
    uint32: "unsigned int",
    uint64: "unsigned long",
    bool_: "bool",
    complex64: "c10::complex<float>",
    complex128: "c10::complex<double>",
    bfloat16: "c10::BFloat16",
}


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The shadowgrad dtype for a numpy dtype; raises TypeError for unsupported ones."""
    try:
        d = _FROM_NP[np_dtype]
        if d is not bfloat16:
            return d
        raise KeyError  # a numpy longdouble array: numpy's own, not a bfloat16 tensor's
    except KeyError:
        d = _FROM_NP.get(np.dtype(np_dtype))
        if d is None or d is bfloat16:
            raise TypeError(
                f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The "
                "only supported types are: float64, float32, float16, complex64, complex128, "
                "int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool."
            ) from None
        return d


class _DefaultDtype:
    value: dtype = float32


_default = _DefaultDtype()


def get_default_dtype() -> dtype:
    """Mirrors `torch.get_default_dtype`."""
    return _default.value


def set_default_dtype(d: dtype) -> None:
    """Mirrors `torch.set_default_dtype`."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        what = "" if isinstance(d, dtype) else "invalid dtype object: "
        raise TypeError(f"{what}only floating-point types are supported as the default type")
    _default.value = d
    _promote_cache.clear()


def default_complex() -> dtype:
    return complex128 if _default.value is float64 else complex64


_promote_cache: dict[tuple[dtype, dtype], dtype] = {}


def promote_types(a: dtype, b: dtype) -> dtype:
    """Mirrors `torch.promote_types`: the smallest dtype both can be cast to safely."""
    if a is b:
        return a
    key = (a, b)
    r = _promote_cache.get(key)
    if r is not None:
        return r
    for pos, v in ((1, a), (2, b)):
        if type(v) is not dtype:  # torch's argument parser
            raise TypeError(
                f"promote_types(): argument 'type{pos}' (position {pos}) must be torch.dtype, "
                f"not {type(v).__name__}"
            )
    ca, cb = a._cat, b._cat
    if a in BAREBONES_UNSIGNED or b in BAREBONES_UNSIGNED:
        # Note [Barebones unsigned types]: torch promotes uint16/32/64 with a floating dtype
        # only (not complex, not another integer, not bool)
        if ca == 2 or cb == 2:
            r = a if ca == 2 else b
            _promote_cache[key] = r
            return r
        raise RuntimeError(
            "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
            f"{a._short} and {b._short}"
        )
    if ca == 3 or cb == 3:
        # complex wins; its width is the wider of the two value types
        wa = a.itemsize // (2 if ca == 3 else 1) if ca >= 2 else 0
        wb = b.itemsize // (2 if cb == 3 else 1) if cb >= 2 else 0
        r = complex128 if max(wa, wb) >= 8 else complex64
    elif ca == 2 and cb == 2:
        # bfloat16 and float16 (the same size): neither holds the other
        r = float32 if a.itemsize == b.itemsize else a if a.itemsize > b.itemsize else b
    elif ca == 2:
        r = a  # any float beats any integer, whatever the integer's width (unlike numpy)
    elif cb == 2:
        r = b
    else:
        r = _FROM_NP[np.promote_types(a._np, b._np)]
    _promote_cache[key] = r
    return r


def scalar_dtype(value: object) -> dtype:
    """The dtype torch gives a wrapped Python scalar (the default dtype for floats)."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return _default.value
    if isinstance(value, complex):
        return default_complex()
    # numpy scalars are wrapped numbers too: np.float64(2.0) * float32 tensor stays float32;
    # torch's parser reads a numpy bool (no Python bool subclass) as a float
    if isinstance(value, np.bool_):
        return _default.value
    if isinstance(value, np.integer):
        return int64
    if isinstance(value, np.floating):
        return _default.value
    if isinstance(value, np.complexfloating):
        return default_complex()
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


def combine_categories(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """Torch's rule for merging promotion priority classes (dimensioned > 0-d > scalar)."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher._cat == 3:
        return higher
    if lower._cat == 3:
        return higher.to_complex() if higher._cat == 2 else lower
    if higher._cat == 2:
        return higher
    if higher is bool_ or lower._cat == 2:
        return promote_types(higher, lower)
    return higher


# Note [Floating-point warning filter]: torch computes inf and nan silently; numpy warns
# ("overflow encountered in exp"). shadowgrad ignores the RuntimeWarnings numpy issues from its
# own modules with one warnings filter, FP_FILTER. A program that adds filters after import
# (`warnings.simplefilter("always")`, pytest's per-test filters, catch_warnings(record=True))
# puts them in front of it; the op runners then put FP_FILTER back in front (front_filter)
# before they compute. The check is an identity test on the first filter (about 60 ns), where
# np.errstate around every op costs 1.5-4 us and slows the ufuncs under it. Only warnings whose
# code location is a shadowgrad module are affected; the caller's own warnings are untouched.
FP_FILTER = ("ignore", None, RuntimeWarning, re.compile(r"shadowgrad\."), 0)


def front_filter() -> None:
    """Put FP_FILTER first in warnings.filters (see Note [Floating-point warning filter])."""
    filters = warnings.filters
    if FP_FILTER in filters:
        filters.remove(FP_FILTER)
    filters.insert(0, FP_FILTER)
    mutated = getattr(warnings, "_filters_mutated", None) or getattr(
        warnings, "_filters_mutated_lock_held", None
    )
    if mutated is not None:
        mutated()


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """fn(*args, **kwargs) with numpy's floating-point warnings off."""
    with np.errstate(all="ignore"):
        return fn(*args, **kwargs)


def quietly(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """fn(*args, **kwargs), computed again with numpy's floating-point warnings off if a warning
    made an error stops it: torch casts 1e300 to float32 as inf silently (Note [Floating-point
    warnings] in ops/registry.py). For computations into fresh arrays only."""
    try:
        return fn(*args, **kwargs)
    except RuntimeWarning:
        return quiet(fn, *args, **kwargs)


def wrapped_int(value: int, np_dtype: Any) -> np.ndarray:
    """A Python int in an integer dtype, wrapped as torch's conversion wraps it (-1 into uint8
    is 255), where numpy raises OverflowError."""
    if value >= 1 << 63:  # torch reads a Python int up to 2**64 - 1 as uint64's bits
        value -= 1 << 64
    return np.asarray(np.asarray(value, np.int64).astype(np_dtype))


# torch's checked_convert: a Python number filled into a tensor (fill_, full, setitem) must fit
# the dtype; the message names the C++ type
_OVERFLOW_NAMES = {
    float16: "c10::Half",
    float32: "float",
    float64: "double",
    complex64: "c10::complex<float>",
    bfloat16: "c10::BFloat16",
    int8: "int8_t",
    uint8: "uint8_t",
    int16: "int16_t",
    int32: "int",
    int64: "int64_t",
    uint16: "uint16_t",
    uint32: "uint32_t",
    uint64: "uint64_t",
}


def check_int_scalar(value: Any) -> None:
    """torch reads a Python int operand as an int64 or a uint64 Scalar: beyond both it raises."""
    if type(value) is int and not -(1 << 63) <= value < (1 << 64):
        # torch tries int64, then uint64, whose conversion refuses a negative int first
        raise OverflowError(
            "can't convert negative int to unsigned" if value < 0 else "int too big to convert"
        )


def check_scalar_fits(value: Any, dt: dtype) -> None:
    """Raise torch's overflow error when a Python number does not fit dt (c10's overflows:
    a float outside the finite range, a nan or inf into an integer type, an integer outside the
    range; unsigned types take a negative integer down to -max and wrap it)."""
    if isinstance(value, np.generic):  # a numpy scalar: its Python value, as torch reads it
        value = value.item()
    check_int_scalar(value)
    name = _OVERFLOW_NAMES.get(dt)
    if name is None or type(value) is bool or not isinstance(value, (int, float, complex)):
        return
    if (
        isinstance(value, complex) and value.imag != 0 and dt._cat != 3
    ):  # c10: a complex into a real type
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    if dt._cat == 1:
        if isinstance(value, complex):
            return
        info = np.iinfo(dt._np)
        if isinstance(value, float):
            bad = value != value or value < (0 if info.min == 0 else info.min) or value > info.max
        elif info.min == 0:
            bad = value > info.max or (value < 0 and -value > info.max)
        else:
            bad = value < info.min or value > info.max
    else:
        x = value.real if isinstance(value, complex) else value
        try:
            x = float(x)
        except OverflowError:
            return  # an int beyond float: torch's own unpacking error comes first
        limit = float(np.finfo(np.float32 if dt is complex64 or dt is bfloat16 else dt._np).max)
        bad = x == x and abs(x) != float("inf") and abs(x) > limit
    if bad:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
