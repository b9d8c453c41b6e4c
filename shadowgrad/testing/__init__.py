"""Mirrors `torch.testing`: `assert_close` (and the deprecated `assert_allclose`), with torch's
default tolerances, comparison rules and failure messages, and `make_tensor`.

`assert_close` compares shadowgrad tensors, numpy arrays, Python numbers, None, and sequences
and mappings of them (recursively). Tensors are compared attribute by attribute (shape, layout
and strides when asked, dtype) and then value by value with `|actual - expected| <= atol + rtol
* |expected|`; a failure names the mismatched count, the greatest absolute and relative
differences and where they are, as torch's message does.
"""

from __future__ import annotations

import cmath
import collections.abc
import contextlib
import math
import re
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor

__all__ = ["assert_allclose", "assert_close", "make_tensor"]

# dtype -> (rtol, atol); any other dtype compares for equality
_TOLERANCES = {
    D.float16: (1e-3, 1e-5),
    D.bfloat16: (1.6e-2, 1e-5),
    D.float32: (1.3e-6, 1e-5),
    D.float64: (1e-7, 1e-7),
    D.complex64: (1.3e-6, 1e-5),
    D.complex128: (1e-7, 1e-7),
}
_ALLCLOSE_TOLERANCES = {D.float16: (1e-3, 1e-3), D.float32: (1e-4, 1e-5), D.float64: (1e-5, 1e-8)}
_NUMBER_TOLERANCES = {int: (0.0, 0.0), float: (1e-7, 1e-7), complex: (1e-7, 1e-7)}


class _Mismatch(Exception):
    """A failed comparison: the exception type torch raises and its message."""

    def __init__(self, kind: type[Exception], msg: str) -> None:
        super().__init__(msg)
        self.kind = kind
        self.msg = msg


def _diff_msg(kind: str, diff: Any, idx: Any, tol: float, equality: bool) -> str:
    msg = (
        f"{kind.title()} difference: {diff}"
        if idx is None
        else (f"Greatest {kind} difference: {diff} at index {idx}")
    )
    if not equality:
        msg += f" (up to {tol} allowed)"
    return msg + "\n"


def _mismatch_msg(
    what: str, extra: str, abs_diff: Any, abs_idx: Any, atol: float, rel_diff: Any, rel_idx: Any,
    rtol: float,
) -> str:  # fmt: skip
    equality = rtol == 0 and atol == 0
    msg = f"{what} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += _diff_msg("absolute", abs_diff, abs_idx, atol, equality)
    msg += _diff_msg("relative", rel_diff, rel_idx, rtol, equality)
    return msg.strip()


def _scalar_msg(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = math.inf if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg(
        "Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol, rel_diff,
        None, rtol,
    )  # fmt: skip


def _close(a: np.ndarray, e: np.ndarray, rtol: float, atol: float, equal_nan: bool) -> np.ndarray:
    """torch.isclose: equal (infinities included), or a finite |a - e| within
    atol + |rtol * e|; NaNs match each other only with equal_nan. Integers and booleans are
    compared as torch compares them, without wrapping around."""
    with np.errstate(invalid="ignore", over="ignore"):
        close = a == e
        if equal_nan and a.dtype.kind in "fc":
            close = close | (np.isnan(a) & np.isnan(e))
        if rtol == 0 and atol == 0:
            return close
        if a.dtype.kind in "biu":
            a, e = a.astype(np.float64), e.astype(np.float64)
        if a.dtype == np.float16:  # torch's half ops: float32 math, each result rounded
            f32, f16 = np.float32, np.float16
            allowed = (f32(atol) + np.abs((f32(rtol) * e.astype(f32)).astype(f16))).astype(f16)
            actual = np.abs((a.astype(f32) - e.astype(f32)).astype(f16))
        elif a.dtype == D.LD:  # bfloat16's: the same, each result rounded to bfloat16
            r, f32 = D.round_bf16, np.float32
            allowed = r(f32(atol) + np.abs(r(f32(rtol) * e.astype(f32))))
            actual = np.abs(r(a - e))
        else:
            allowed = atol + np.abs(rtol * e)
            actual = np.abs(a - e)
        return close | (np.isfinite(actual) & (actual <= allowed))


def _tensor_msg(a: np.ndarray, e: np.ndarray, ok: np.ndarray, rtol: float, atol: float) -> str:
    n = ok.size
    bad = n - int(ok.sum())
    extra = f"Mismatched elements: {bad} / {n} ({bad / n:.1%})"
    af, ef, okf = a.ravel(), e.ravel(), ok.ravel()
    integral = af.dtype.kind in "biu"
    if integral:
        af, ef = af.astype(np.int64), ef.astype(np.int64)
    with np.errstate(all="ignore"):
        diff = np.abs(af - ef)
        diff[okf] = 0
        if integral:  # torch's true division of integers: in the default float dtype
            f = D.get_default_dtype()._np
            rel = diff.astype(f) / np.abs(ef).astype(f)
        elif af.dtype == D.LD:  # bfloat16: torch's ops in it, each result rounded
            diff = D.round_bf16(diff)
            rel = D.round_bf16(diff / np.abs(ef))
        else:
            rel = diff / np.abs(ef)
    rel[okf] = 0

    def greatest(v: np.ndarray) -> tuple[Any, Any]:
        nans = np.flatnonzero(np.isnan(v)) if v.dtype.kind == "f" else ()
        i = int(nans[0]) if len(nans) else int(np.argmax(v))
        x = float(v[i]) if v.dtype == D.LD else v[i].item()
        return x, tuple(int(k) for k in np.unravel_index(i, a.shape))

    (d, di), (r, ri) = greatest(diff), greatest(rel)
    return _mismatch_msg("Tensor-likes", extra, d, di, atol, r, ri, rtol)


def _tolerances(dtypes: list[Any], rtol: Any, atol: Any) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
            f"{'rtol' if rtol is None else 'atol'}."
        )
    if rtol is not None:
        return rtol, atol
    pairs = [_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _as_tensor_like(x: Any) -> tuple[np.ndarray, Any] | None:
    if isinstance(x, Tensor):
        return x._data, x.dtype
    if isinstance(x, np.ndarray):
        return x, D.from_numpy_dtype(x.dtype)
    return None


def _compare_tensors(actual: Any, expected: Any, opts: dict[str, Any]) -> None:
    a, adt = actual
    e, edt = expected
    if a.shape != e.shape:
        from .._size import Size

        raise _Mismatch(
            AssertionError,
            f"The values for attribute 'shape' do not match: {Size(a.shape)} != {Size(e.shape)}.",
        )
    if opts["check_stride"] and a.size > 1:
        sa = tuple(s // a.itemsize for s in a.strides)
        se = tuple(s // e.itemsize for s in e.strides)
        if sa != se:
            raise _Mismatch(
                AssertionError, f"The values for attribute 'stride()' do not match: {sa} != {se}."
            )
    if opts["check_dtype"] and adt is not edt:
        raise _Mismatch(
            AssertionError, f"The values for attribute 'dtype' do not match: {adt} != {edt}."
        )
    rtol, atol = _tolerances([adt, edt], opts["rtol"], opts["atol"])
    if adt is not edt:
        common = D.promote_types(adt, edt)
        a, e = a.astype(common._np), e.astype(common._np)
    if rtol < 0 or atol < 0:
        which = "rtol" if rtol < 0 else "atol"
        value = rtol if rtol < 0 else atol
        raise _NegativeTolerance(f"{which} must be greater than or equal to zero, but got {value}")
    ok = _close(a, e, rtol, atol, opts["equal_nan"])
    if ok.all():
        return
    if a.ndim == 0:
        raise _Mismatch(AssertionError, _scalar_msg(a.item(), e.item(), rtol, atol))
    raise _Mismatch(AssertionError, _tensor_msg(a, e, ok, rtol, atol))


def _compare_numbers(actual: Any, expected: Any, opts: dict[str, Any]) -> None:
    """torch's NumberPair.compare."""
    ta, te = type(actual), type(expected)
    if opts["check_dtype"] and ta is not te:
        raise _Mismatch(AssertionError, f"The (d)types do not match: {ta} != {te}.")
    if opts["rtol"] is None:
        pairs = [_NUMBER_TOLERANCES[t] for t in (ta, te)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    else:
        rtol, atol = opts["rtol"], opts["atol"]
    if actual == expected:
        return
    if opts["equal_nan"] and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_msg(actual, expected, rtol, atol))


def _torch_type(x: Any) -> str:
    """type(x) as torch's messages print it (shadowgrad's classes under torch's names)."""
    return re.sub(r"^<class 'shadowgrad\b", "<class 'torch", str(type(x)))


def _item_str(where: tuple[Any, ...]) -> str:
    return "".join(str([item]) for item in where)


def _unexpected(pair: str, actual: Any, expected: Any, where: tuple[Any, ...]) -> RuntimeError:
    return RuntimeError(
        f"Originating a {pair}() at item {_item_str(where)} with\n\n"
        f"{type(actual).__name__}(): {actual}\n\nand\n\n"
        f"{type(expected).__name__}(): {expected}\n\n"
        "resulted in the unexpected exception above. If you are a user and see this message "
        "during normal operation please file an issue at https://github.com/pytorch/pytorch/"
        "issues. If you are a developer and working on the comparison functions, please except "
        "the previous error and raise an expressive `ErrorMeta` instead."
    )


_NUMBERS = (int, float, complex, np.number)


def _originate(
    actual: Any, expected: Any, opts: dict[str, Any], where: tuple[Any, ...], pairs: list
) -> None:
    """torch's originate_pairs: walk sequences and mappings (raising their structural
    mismatches at once) and collect the leaf pairs, each tagged with how it compares."""
    try:
        if _is_seq(actual) and _is_seq(expected):
            if len(actual) != len(expected):
                raise _Mismatch(
                    AssertionError,
                    f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                )
            for i in range(len(actual)):
                _originate(actual[i], expected[i], opts, (*where, i), pairs)
            return
        if isinstance(actual, collections.abc.Mapping) and isinstance(
            expected, collections.abc.Mapping
        ):
            ka, ke = set(actual.keys()), set(expected.keys())
            if ka != ke:
                raise _Mismatch(
                    AssertionError,
                    "The keys of the mappings do not match:\n"
                    f"Missing keys in the actual mapping: {sorted(ke - ka)}\n"
                    f"Additional keys in the actual mapping: {sorted(ka - ke)}",
                )
            keys: Any = ka
            with contextlib.suppress(Exception):
                keys = sorted(keys)
            for k in keys:
                _originate(actual[k], expected[k], opts, (*where, k), pairs)
            return
    except _Mismatch as m:
        if not hasattr(m, "where"):
            m.where = where
        raise
    if actual is None or expected is None:
        pairs.append(("none", actual, expected, where, None))
    elif isinstance(actual, (bool, np.bool_)) and isinstance(expected, (bool, np.bool_)):
        pairs.append(("bool", bool(actual), bool(expected), where, None))
    elif isinstance(actual, _NUMBERS) and isinstance(expected, _NUMBERS):
        a, e = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
        if type(a) not in _NUMBER_TOLERANCES or type(e) not in _NUMBER_TOLERANCES:
            raise _unexpected("NumberPair", a, e, where)  # a bool against a number, as torch
        pairs.append(("number", a, e, where, None))
    else:
        ta, te = _as_tensor_like(actual), _as_tensor_like(expected)
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if (
            ta is None
            or te is None
            or not related
            or (opts["allow_subclasses"] is False and type(actual) is not type(expected))
        ):
            m = _Mismatch(
                TypeError,
                f"No comparison pair was able to handle inputs of type {_torch_type(actual)} "
                f"and {_torch_type(expected)}.",
            )
            m.where = where
            raise m
        pairs.append(("tensor", ta, te, where, (actual, expected)))


def _compare_pair(kind: str, actual: Any, expected: Any, opts: dict[str, Any]) -> None:
    if kind == "none":
        if not (actual is None and expected is None):
            raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}")
    elif kind == "bool":
        if actual is not expected:
            raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}")
    elif kind == "number":
        _compare_numbers(actual, expected, opts)
    else:
        _compare_tensors(actual, expected, opts)


def _is_seq(x: Any) -> bool:
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _error(m: _Mismatch, msg: Any = None) -> Exception:
    """torch's ErrorMeta.to_error: a str msg replaces the message; otherwise the item's
    location is appended and a callable msg is applied to the result."""
    if not isinstance(msg, str):
        text = m.msg
        where = getattr(m, "where", ())
        if where:
            text += f"\n\nThe failure occurred for item {_item_str(where)}"
        msg = msg(text) if callable(msg) else text
    return m.kind(msg)


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: Any = None,
) -> None:
    """Mirrors `torch.testing.assert_close`: the pairs are collected first (structure and type
    errors raised then, without `msg`), then compared in order; the first failure is raised,
    with `msg` applied."""
    __tracebackhide__ = True
    if (rtol is None) != (atol is None):
        _tolerances([D.float64], rtol, atol)  # raises torch's pairing error
    opts = {
        "allow_subclasses": allow_subclasses,
        "rtol": rtol,
        "atol": atol,
        "equal_nan": equal_nan,
        "check_dtype": check_dtype,
        "check_stride": check_stride,
        "check_device": check_device,
        "check_layout": check_layout,
    }
    pairs: list[Any] = []
    try:
        _originate(actual, expected, opts, (), pairs)
    except _Mismatch as m:
        raise _error(m) from None
    for kind, a, e, where, originals in pairs:
        try:
            _compare_pair(kind, a, e, opts)
        except _Mismatch as m:
            m.where = where
            raise _error(m, msg) from None
        except _NegativeTolerance as err:
            raise RuntimeError(_crash_msg(originals, where, opts)) from err


def _crash_msg(originals: Any, where: tuple[Any, ...], opts: dict[str, Any]) -> str:
    """torch's report of a comparison that raised (isclose's negative-tolerance error)."""
    from .. import as_tensor

    a, e = (x if isinstance(x, Tensor) else as_tensor(x) for x in originals)
    rtol, atol = _tolerances([a.dtype, e.dtype], opts["rtol"], opts["atol"])
    fields = [
        ("id", where), ("actual", a), ("expected", e), ("rtol", rtol), ("atol", atol),
        ("equal_nan", opts["equal_nan"]), ("check_device", opts["check_device"]),
        ("check_dtype", opts["check_dtype"]), ("check_layout", opts["check_layout"]),
        ("check_stride", opts["check_stride"]),
    ]  # fmt: skip
    body = "\n".join(f"    {name}={value!s}," for name, value in fields)
    return (
        f"Comparing\n\nTensorLikePair(\n{body}\n)\n\nresulted in the unexpected exception "
        "above. If you are a user and see this message during normal operation please file an "
        "issue at https://github.com/pytorch/pytorch/issues. If you are a developer and working "
        "on the comparison functions, please except the previous error and raise an expressive "
        "`ErrorMeta` instead."
    )


class _NegativeTolerance(RuntimeError):
    """torch.isclose's error for a negative rtol or atol."""


def assert_allclose(
    actual: Any,
    expected: Any,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = True,
    msg: str = "",
) -> None:
    """Mirrors the deprecated `torch.testing.assert_allclose` (a FutureWarning, then
    `assert_close` without the dtype check, NaNs equal)."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
        "future release. Please use `torch.testing.assert_close()` instead. You can find "
        "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, Tensor):
        from .. import tensor

        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        from .. import tensor

        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:  # assert_allclose's own defaults
        pairs = [_ALLCLOSE_TOLERANCES.get(d, (0.0, 0.0)) for d in (actual.dtype, expected.dtype)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    assert_close(
        actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
        check_dtype=False, check_stride=False, msg=msg or None,
    )  # fmt: skip


def _modify_low_high(
    low: float | None, high: float | None, dtype: Any, *, lowest_inclusive: float,
    highest_exclusive: float, default_low: float, default_high: float,
) -> tuple[Any, Any]:  # fmt: skip
    """torch's modify_low_high: defaults, NaN / order / range checks, clamping (and ceiling
    for integral dtypes)."""
    low = low if low is not None else default_low
    high = high if high is not None else default_high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
    elif low == high and (dtype.is_floating_point or dtype.is_complex):
        warnings.warn(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
            "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
            FutureWarning,
            stacklevel=3,
        )
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest_inclusive or low >= highest_exclusive:
        raise ValueError(
            f"The value interval specified by `low` and `high` is [{low}, {high}), but {dtype} "
            f"only supports [{lowest_inclusive}, {highest_exclusive})"
        )
    low = min(max(low, lowest_inclusive), highest_exclusive)
    high = min(max(high, lowest_inclusive), highest_exclusive)
    if not (dtype.is_floating_point or dtype.is_complex):
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(
    *shape: Any,
    dtype: Any,
    device: Any,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.testing.make_tensor`, step by step: values drawn uniformly from
    [low, high) (defaults -9, 9; bool: 0 or 1; unsigned from 0) with torch's draws: randint for
    integral and bool dtypes, uniform_ (on view_as_real for complex) for floating ones."""
    from .. import _random
    from .._tensor import _make

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            "The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
            f"{noncontiguous=} and {memory_format=}"
        )
    floating = dtype.is_floating_point or dtype.is_complex
    if requires_grad and not floating:
        raise ValueError(
            "`requires_grad=True` is not supported for boolean and integral dtypes, but got "
            f"{dtype=}"
        )
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice as wide, every other element kept (offset 1, as torch)
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is D.bool_:
        lo, hi = _modify_low_high(
            low, high, dtype, lowest_inclusive=0, highest_exclusive=2, default_low=0,
            default_high=2,
        )  # fmt: skip
        out = _random.randint(lo, hi, shape, dtype=dtype)
    elif not floating:
        info = np.iinfo(dtype._np)
        lo, hi = _modify_low_high(
            low, high, dtype, lowest_inclusive=int(info.min),
            highest_exclusive=int(info.max) + (dtype is not D.int64), default_low=-9,
            default_high=10,
        )  # fmt: skip
        out = _random.randint(lo, hi, shape, dtype=dtype)
    else:
        info = D.np_finfo(dtype.to_real()._np)
        lo, hi = _modify_low_high(
            low, high, dtype, lowest_inclusive=float(info.min),
            highest_exclusive=float(info.max), default_low=-9, default_high=9,
        )  # fmt: skip
        out = _make(np.zeros(shape, dtype._np))
        # torch's view_as_real: (..., 2), the real and imaginary parts in memory order (numpy
        # can't view a 0-d complex array as real, so through a trailing axis of 1)
        real = out
        if dtype.is_complex:
            real = _make(out._data.reshape((*out._data.shape, 1)).view(dtype.to_real()._np))
        if hi - lo >= float(info.max):
            real.uniform_(lo / 2, hi / 2).mul_(2)
        else:
            real.uniform_(lo, hi)
        if dtype.is_complex:
            out = _make(real._data.view(dtype._np).reshape(out._data.shape))
    if noncontiguous:
        out = out[..., 1::2]
    elif memory_format is not None:
        out = out.clone(memory_format=memory_format)
    if exclude_zero:  # in place, on the kept elements, as torch's
        out[out == 0] = D.np_finfo(dtype.to_real()._np).tiny if floating else 1
    if floating:
        out.requires_grad = requires_grad
    return out
