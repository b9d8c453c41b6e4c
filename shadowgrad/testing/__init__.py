"""Mirrors `torch.testing`: `assert_close` (and the deprecated `assert_allclose`), with torch's
default tolerances, comparison rules and failure messages, and `make_tensor`.

`assert_close` compares shadowgrad tensors, numpy arrays, Python numbers, None, and sequences
and mappings of them (recursively). Tensors are compared attribute by attribute (shape, layout
and strides when asked, dtype) and then value by value with `|actual - expected| <= atol + rtol
* |expected|`; a failure names the mismatched count, the greatest absolute and relative
differences and where they are, as torch's message does.
"""

from __future__ import annotations

import collections.abc
import math
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor

__all__ = ["assert_allclose", "assert_close", "make_tensor"]

# dtype -> (rtol, atol); any other dtype compares for equality
_TOLERANCES = {
    D.float16: (1e-3, 1e-5),
    D.float32: (1.3e-6, 1e-5),
    D.float64: (1e-7, 1e-7),
    D.complex64: (1.3e-6, 1e-5),
    D.complex128: (1e-7, 1e-7),
}
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
    """torch.isclose: equal (infinities included), or within atol + rtol * |e|; NaNs match
    each other only with equal_nan."""
    with np.errstate(invalid="ignore", over="ignore"):
        eq = a == e
        if a.dtype.kind in "biu" or (rtol == 0 and atol == 0):
            out = eq
        else:
            finite = np.isfinite(a) & np.isfinite(e)
            out = eq | (finite & (np.abs(a - e) <= atol + rtol * np.abs(e)))
        if equal_nan and a.dtype.kind in "fc":
            out = out | (np.isnan(a) & np.isnan(e))
    return out


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
        else:
            rel = diff / np.abs(ef)
    rel[okf] = 0

    def greatest(v: np.ndarray) -> tuple[Any, Any]:
        nans = np.flatnonzero(np.isnan(v)) if v.dtype.kind == "f" else ()
        i = int(nans[0]) if len(nans) else int(np.argmax(v))
        return v[i].item(), tuple(int(k) for k in np.unravel_index(i, a.shape))

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
    ok = _close(a, e, rtol, atol, opts["equal_nan"])
    if ok.all():
        return
    if a.ndim == 0:
        raise _Mismatch(AssertionError, _scalar_msg(a.item(), e.item(), rtol, atol))
    raise _Mismatch(AssertionError, _tensor_msg(a, e, ok, rtol, atol))


def _compare_numbers(actual: Any, expected: Any, opts: dict[str, Any]) -> None:
    ta, te = type(actual), type(expected)
    if opts["check_dtype"] and ta is not te:
        raise _Mismatch(AssertionError, f"The (d)types do not match: {ta} != {te}.")
    key = complex if complex in (ta, te) else float if float in (ta, te) else int
    r0, a0 = _NUMBER_TOLERANCES[key]
    rtol, atol = (r0, a0) if opts["rtol"] is None else (opts["rtol"], opts["atol"])
    ok = _close(np.asarray(actual), np.asarray(expected), rtol, atol, opts["equal_nan"])
    if not ok.all():
        raise _Mismatch(AssertionError, _scalar_msg(actual, expected, rtol, atol))


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.ndarray)


def _compare(actual: Any, expected: Any, opts: dict[str, Any], where: str) -> None:
    try:
        if actual is None or expected is None:
            if actual is not expected:
                raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}")
            return
        ta, te = _as_tensor_like(actual), _as_tensor_like(expected)
        if ta is not None and te is not None:
            if type(actual) is not type(expected) and opts["allow_subclasses"] is False:
                raise _Mismatch(
                    AssertionError,
                    f"The types do not match: {type(actual)} != {type(expected)}.",
                )
            if isinstance(actual, Tensor) == isinstance(expected, Tensor):
                _compare_tensors(ta, te, opts)
                return
        elif _is_number(actual) and _is_number(expected):
            _compare_numbers(actual, expected, opts)
            return
        elif _is_seq(actual) and _is_seq(expected):
            if len(actual) != len(expected):
                raise _Mismatch(
                    AssertionError,
                    f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                )
            for i, (x, y) in enumerate(zip(actual, expected, strict=True)):
                _compare(x, y, opts, f"{where}[{i}]")
            return
        elif isinstance(actual, collections.abc.Mapping) and isinstance(
            expected, collections.abc.Mapping
        ):
            ka, ke = set(actual), set(expected)
            if ka != ke:
                raise _Mismatch(
                    AssertionError,
                    "The keys of the mappings do not match:\n"
                    f"Missing keys in the actual mapping: {sorted(ke - ka)}\n"
                    f"Additional keys in the actual mapping: {sorted(ka - ke)}",
                )
            for k in actual:
                _compare(actual[k], expected[k], opts, f"{where}[{k!r}]")
            return
        raise _Mismatch(
            TypeError,
            f"No comparison pair was able to handle inputs of type {type(actual)} and "
            f"{type(expected)}.",
        )
    except _Mismatch as m:
        if where and not getattr(m, "located", False):
            m.msg += f"\n\nThe failure occurred for item {where}"
            m.located = True  # type: ignore[attr-defined]
        raise


def _is_seq(x: Any) -> bool:
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


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
    """Mirrors `torch.testing.assert_close`."""
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
    }
    try:
        _compare(actual, expected, opts, "")
    except _Mismatch as m:
        text = m.msg
        if m.kind is AssertionError and msg is not None:
            text = msg(text) if callable(msg) else msg
        raise m.kind(text) from None


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
    if rtol is None and atol is None:
        rtol, atol = _tolerances([actual.dtype, expected.dtype], None, None)
    assert_close(
        actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
        check_dtype=False, check_stride=False, msg=msg or None,
    )  # fmt: skip


def make_tensor(
    *shape: Any,
    dtype: Any,
    device: Any = None,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Mirrors `torch.testing.make_tensor`: values drawn uniformly from [low, high) (defaults
    -9, 9; bool: 0 or 1; unsigned from 0) with torch's draws: randint for integral and bool
    dtypes, uniform_ (on view_as_real for complex) for floating ones."""
    from .. import _random
    from .._tensor import _make

    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    shape = tuple(shape)
    if low is not None and high is not None and low > high:
        raise ValueError(f"`low` must be less than or equal to `high`, but got {low} > {high}")
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError("make_tensor: requires_grad must be False for integral dtype")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice as wide, every other element kept (offset 1, as torch)
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is D.bool_ or not (dtype.is_floating_point or dtype.is_complex):
        if dtype is D.bool_:
            lowest, top = 0, 2
            lo, hi = 0 if low is None else low, 2 if high is None else high
        else:
            info = np.iinfo(dtype._np)
            lowest, top = int(info.min), int(info.max) + (dtype is not D.int64)
            lo, hi = -9 if low is None else low, 10 if high is None else high
        lo, hi = math.ceil(min(max(lo, lowest), top)), math.ceil(min(max(hi, lowest), top))
        out = _random.randint(lo, hi, shape, dtype=dtype)
    else:
        info = np.finfo(dtype.to_real()._np)
        lo, hi = -9.0 if low is None else low, 9.0 if high is None else high
        lo = min(max(lo, float(info.min)), float(info.max))
        hi = min(max(hi, float(info.min)), float(info.max))
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
    data = out._data
    if noncontiguous:
        data = data[..., 1::2]
    if exclude_zero:  # in place, on the kept elements, as torch's
        floating = dtype.is_floating_point or dtype.is_complex
        data[data == 0] = np.finfo(dtype.to_real()._np).tiny if floating else 1
    out = _make(data)
    if requires_grad:
        out.requires_grad_(True)
    return out
