"""Formatting of tensors for ``repr``/``str``, matching PyTorch byte for byte.

This module works on plain numpy arrays and never imports torch.  The caller
passes the tensor's values, the torch dtype name and any trailing keyword
strings (``requires_grad=True``, ``grad_fn=<...>``); :func:`format_tensor`
returns the full ``tensor(...)`` text exactly as ``repr(torch_tensor)`` would.

The print options mirror ``torch.set_printoptions`` / ``torch.get_printoptions``
and live in the module-level dict ``_PRINT_OPTS``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["format_tensor", "get_printoptions", "printoptions", "set_printoptions"]

# ---------------------------------------------------------------------------
# Print options
# ---------------------------------------------------------------------------

_DEFAULT_OPTS: dict[str, Any] = {
    "precision": 4,
    "threshold": 1000,
    "edgeitems": 3,
    "linewidth": 80,
    "sci_mode": None,
}

_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

_PRINT_OPTS: dict[str, Any] = dict(_DEFAULT_OPTS)


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set options for printing tensors (same semantics as ``torch.set_printoptions``).

    As in torch, ``profile`` is applied first and explicit arguments override
    it; ``sci_mode`` is always assigned, so omitting it resets it to ``None``.
    An unknown profile name is silently ignored, like torch does.
    """
    if profile is not None and profile in _PROFILES:
        _PRINT_OPTS.update(_PROFILES[profile])
    if precision is not None:
        _PRINT_OPTS["precision"] = precision
    if threshold is not None:
        _PRINT_OPTS["threshold"] = threshold
    if edgeitems is not None:
        _PRINT_OPTS["edgeitems"] = edgeitems
    if linewidth is not None:
        _PRINT_OPTS["linewidth"] = linewidth
    _PRINT_OPTS["sci_mode"] = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current print options as a dict usable as ``set_printoptions(**opts)``."""
    return {key: _PRINT_OPTS[key] for key in _DEFAULT_OPTS}


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Context manager that temporarily changes the print options."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# ---------------------------------------------------------------------------
# dtype helpers
# ---------------------------------------------------------------------------

_DTYPE_ALIASES = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
    "cfloat": "complex64",
    "cdouble": "complex128",
    "chalf": "complex32",
}


def _canonical_dtype_name(name: str) -> str:
    name = str(name)
    if name.startswith("torch."):
        name = name[len("torch.") :]
    return _DTYPE_ALIASES.get(name, name)


def _value_kind(dtype_name: str, data: np.ndarray) -> str:
    """Return 'c' (complex), 'f' (floating), 'b' (bool) or 'i' (integer)."""
    if dtype_name.startswith("complex"):
        return "c"
    if dtype_name.startswith(("float", "bfloat")):
        return "f"
    if dtype_name == "bool":
        return "b"
    if dtype_name.startswith(("int", "uint")):
        return "i"
    kind = data.dtype.kind
    if kind == "c":
        return "c"
    if kind == "f":
        return "f"
    if kind == "b":
        return "b"
    return "i"


def _prepare(data: np.ndarray, kind: str) -> np.ndarray:
    """Convert ``data`` to a numpy dtype whose ``tolist`` yields the right Python type."""
    if kind == "c":
        return data if data.dtype.kind == "c" else data.astype(np.complex128)
    if kind == "f":
        return data if data.dtype.kind == "f" else data.astype(np.float64)
    if kind == "b":
        return data if data.dtype.kind == "b" else data.astype(np.bool_)
    if data.dtype.kind in "iu":
        return data
    return data.astype(np.int64)


# ---------------------------------------------------------------------------
# Element formatting
# ---------------------------------------------------------------------------


class _Formatter:
    """Decides a common width/notation for all (summarised) values of a tensor."""

    def __init__(self, values: np.ndarray, floating: bool, opts: dict[str, Any]) -> None:
        self.floating = floating
        self.precision = opts["precision"]
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = values.reshape(-1)
        if not floating:
            for value in np.unique(flat).tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            # Nothing to infer from: integer mode, fixed notation, width 1.
            return

        magnitudes = np.abs(finite).astype(np.float64)
        lo = magnitudes.min()
        hi = magnitudes.max()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))

        sci_opt = opts["sci_mode"]
        if sci_opt is None:
            with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                ratio = hi / lo
            self.sci_mode = bool(ratio > 1000.0 or hi > 1.0e8 or lo < 1.0e-4)
        else:
            self.sci_mode = bool(sci_opt)

        distinct = np.unique(finite).tolist()
        if self.sci_mode:
            spec = f".{self.precision}e"
            extra = 0
        elif self.int_mode:
            spec = ".0f"
            extra = 1  # room for the trailing "."
        else:
            spec = f".{self.precision}f"
            extra = 0
        for value in distinct:
            self.max_width = max(self.max_width, len(format(value, spec)) + extra)

    def width(self) -> int:
        return self.max_width

    def format(self, value: Any) -> str:
        if self.floating:
            if self.sci_mode:
                text = format(value, f"{self.max_width}.{self.precision}e")
            elif self.int_mode:
                text = format(value, ".0f")
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = format(value, f".{self.precision}f")
        else:
            text = f"{value}"
        return text.rjust(self.max_width)


class _ElementPrinter:
    """Formats a single Python scalar (real or complex) with one or two formatters."""

    def __init__(self, real: _Formatter, imag: _Formatter | None = None) -> None:
        self.real = real
        self.imag = imag

    def width(self) -> int:
        """Length of one element plus the ", " separator."""
        length = self.real.width() + 2
        if self.imag is not None:
            length += self.imag.width() + 1
        return length

    def __call__(self, value: Any) -> str:
        if self.imag is None:
            return self.real.format(value)
        real_text = self.real.format(value.real)
        imag_text = (self.imag.format(value.imag) + "j").lstrip()
        if imag_text[0] in "+-":
            return real_text + imag_text
        return real_text + "+" + imag_text


# ---------------------------------------------------------------------------
# Summarisation and layout
# ---------------------------------------------------------------------------


def _summarized_values(arr: np.ndarray, edgeitems: int) -> np.ndarray:
    """Flat array of the values that will actually be shown when summarising."""
    if arr.ndim == 0:
        return arr.reshape(-1)
    if arr.ndim == 1:
        if arr.shape[0] > 2 * edgeitems:
            # Note: with edgeitems == 0, ``arr[-0:]`` is the whole array (as in torch).
            return np.concatenate((arr[:edgeitems], arr[-edgeitems:]))
        return arr
    if not edgeitems:
        return arr.reshape(-1)[:0]
    n = arr.shape[0]
    if n > 2 * edgeitems:
        rows = list(range(edgeitems)) + list(range(n - edgeitems, n))
    else:
        rows = list(range(n))
    return np.concatenate([_summarized_values(arr[i], edgeitems) for i in rows])


def _vector_str(
    arr: np.ndarray, indent: int, summarize: bool, printer: _ElementPrinter, opts: dict[str, Any]
) -> str:
    edgeitems = opts["edgeitems"]
    per_line = max(1, math.floor((opts["linewidth"] - indent) / printer.width()))

    if summarize and not edgeitems:
        items = ["..."]
    elif summarize and arr.shape[0] > 2 * edgeitems:
        items = (
            [printer(v) for v in arr[:edgeitems].tolist()]
            + [" ..."]
            + [printer(v) for v in arr[-edgeitems:].tolist()]
        )
    else:
        items = [printer(v) for v in arr.tolist()]

    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(
    arr: np.ndarray, indent: int, summarize: bool, printer: _ElementPrinter, opts: dict[str, Any]
) -> str:
    if arr.ndim == 0:
        return printer(arr.item())
    if arr.ndim == 1:
        return _vector_str(arr, indent, summarize, printer, opts)

    edgeitems = opts["edgeitems"]
    n = arr.shape[0]
    if summarize and n > 2 * edgeitems:
        parts = (
            [_nested_str(arr[i], indent + 1, summarize, printer, opts) for i in range(edgeitems)]
            + ["..."]
            + [
                _nested_str(arr[i], indent + 1, summarize, printer, opts)
                for i in range(n - edgeitems, n)
            ]
        )
    else:
        parts = [_nested_str(arr[i], indent + 1, summarize, printer, opts) for i in range(n)]
    separator = "," + "\n" * (arr.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _body_str(arr: np.ndarray, kind: str, indent: int, opts: dict[str, Any]) -> str:
    """The bracketed contents of a non-empty tensor."""
    summarize = arr.size > opts["threshold"]
    edgeitems = opts["edgeitems"]

    def values_for_formatter(part: np.ndarray) -> np.ndarray:
        return _summarized_values(part, edgeitems) if summarize else part.reshape(-1)

    if kind == "c":
        real = _Formatter(values_for_formatter(arr.real), True, opts)
        imag = _Formatter(values_for_formatter(arr.imag), True, opts)
        printer = _ElementPrinter(real, imag)
    else:
        printer = _ElementPrinter(_Formatter(values_for_formatter(arr), kind == "f", opts))
    return _nested_str(arr, indent, summarize, printer, opts)


def _add_suffixes(text: str, suffixes: Sequence[str], indent: int, linewidth: int) -> str:
    pieces = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            last_line_len += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


# ---------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------


def format_tensor(
    data: np.ndarray,
    dtype_name: str,
    default_dtype_name: str = "float32",
    extras: Sequence[str] = (),
    prefix: str = "tensor(",
) -> str:
    """Format ``data`` exactly as ``repr`` of the equivalent torch tensor.

    Args:
        data: the tensor's values (any shape, including 0-d and empty).
        dtype_name: torch dtype name without ``torch.`` (``"float32"``, ``"int64"``...).
        default_dtype_name: the current default floating dtype (``"float32"``/``"float64"``).
        extras: trailing keyword strings, appended in order after the dtype suffix,
            e.g. ``["requires_grad=True"]`` or ``["grad_fn=<AddBackward0>"]``.
        prefix: text opening the repr; its length sets the continuation indentation.
    """
    opts = _PRINT_OPTS
    arr = np.asarray(data)
    dtype_name = _canonical_dtype_name(dtype_name)
    default_dtype_name = _canonical_dtype_name(default_dtype_name)
    kind = _value_kind(dtype_name, arr)
    arr = _prepare(arr, kind)
    indent = len(prefix)
    dtype_suffix = "dtype=torch." + dtype_name
    shape_text = str(tuple(int(d) for d in arr.shape))

    suffixes: list[str] = []
    if arr.size == 0:
        # Explicit shape unless it is (0,), and the dtype for anything but the default float.
        if arr.ndim != 1:
            suffixes.append("size=" + shape_text)
        if dtype_name != default_dtype_name:
            suffixes.append(dtype_suffix)
        body = "[]"
    else:
        if not opts["edgeitems"]:
            suffixes.append("size=" + shape_text)
        implicit = (
            default_dtype_name,
            "complex128" if default_dtype_name == "float64" else "complex64",
            "int64",
            "bool",
        )
        if dtype_name not in implicit:
            suffixes.append(dtype_suffix)
        body = _body_str(arr, kind, indent, opts)

    suffixes.extend(extras)
    return _add_suffixes(prefix + body, suffixes, indent, opts["linewidth"])
