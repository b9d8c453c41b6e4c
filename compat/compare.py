"""Compare two engines' outcomes: a structured list of differences.

What is compared: every value (with a tolerance per dtype, kept below as data with its reason),
shapes, dtypes, requires_grad, is_leaf, `.grad` None versus a tensor, grad_fn names and the
next_functions structure, hook call order (programs return their hook log), warnings (category
and message, torch's "(Triggered internally at …)" suffix stripped) and exceptions (type and
normalized message).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .engines import ErrorObs, NodeObs, Outcome, TensorObs

__all__ = ["OP_TOLERANCES", "TOLERANCES", "Difference", "Tolerance", "compare", "tolerance"]


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float
    reason: str


# Note [Tolerance policy]
# Tolerances are data: one default per dtype, and per-op overrides, each with the reason it is
# what it is. torch and shadowgrad compute in different orders (numpy's pairwise sums, SIMD vs
# scalar transcendental functions), so results may differ by a few ulps per operation; the
# defaults allow about 100 ulps of the dtype relative error plus an absolute floor for values
# that cancel to ~0. Widen per op only with a reason that explains the conditioning.
TOLERANCES: dict[str, Tolerance] = {
    "float64": Tolerance(1e-7, 1e-7, "~5e5 ulp: numpy and ATen differ in summation order"),
    "float32": Tolerance(1.3e-5, 1e-5, "~100 ulp (eps 1.19e-7): same as torch.testing"),
    "float16": Tolerance(1e-3, 1e-3, "~1 ulp (eps 9.8e-4): torch computes in float32 then rounds"),
    "bfloat16": Tolerance(1.6e-2, 1e-5, "~2 ulp (eps 7.8e-3), torch.testing's default"),
    "complex64": Tolerance(1.3e-5, 1e-5, "as float32"),
    "complex128": Tolerance(1e-7, 1e-7, "as float64"),
    "python": Tolerance(1.3e-5, 1e-5, "Python floats usually come from float32 tensors (.item())"),
}

# (op name, dtype) -> Tolerance. Family files may also set OpEntry.tolerances directly.
OP_TOLERANCES: dict[tuple[str, str], Tolerance] = {
    ("pow", "float32"): Tolerance(
        2e-5, 1e-5, "x**y = exp(y log x): its condition number grows with |y log x|"
    ),
}


def tolerance(dtype: str, op: str | None = None) -> Tolerance:
    if op is not None and (op, dtype) in OP_TOLERANCES:
        return OP_TOLERANCES[(op, dtype)]
    return TOLERANCES.get(dtype, TOLERANCES["float32"])


@dataclass(frozen=True)
class Difference:
    path: str  # where in the observations: "x.grad", "result['y']", "warnings[0]"
    what: str  # "value", "dtype", "shape", "requires_grad", "is_leaf", "grad_fn", "error", ...
    a: str
    b: str
    detail: str = ""

    def render(self, a_name: str = "torch", b_name: str = "shadowgrad") -> str:
        d = f" ({self.detail})" if self.detail else ""
        return (
            f"{self.path}: {self.what} differs{d}\n"
            f"    {a_name:>10}: {self.a}\n    {b_name:>10}: {self.b}"
        )


class _Differ:
    def __init__(self, loose_dtypes: bool, tol: Tolerance | None) -> None:
        self.diffs: list[Difference] = []
        self.loose = loose_dtypes
        self.tol = tol

    def add(self, path: str, what: str, a: Any, b: Any, detail: str = "") -> None:
        self.diffs.append(Difference(path or "result", what, _short(a), _short(b), detail))

    def values(self, path: str, a: np.ndarray, b: np.ndarray, dtype: str) -> None:
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            self.add(path, "shape", a.shape, b.shape)
            return
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            t = self.tol or tolerance(dtype)
            if a.size and not np.allclose(b, a, rtol=t.rtol, atol=t.atol, equal_nan=True):
                d = np.abs(a.astype(np.complex128) - b.astype(np.complex128))
                d = np.where(np.isnan(d), np.inf, d)
                i = np.unravel_index(np.argmax(d), d.shape) if d.ndim else ()
                self.add(
                    path,
                    "value",
                    _short(a),
                    _short(b),
                    f"max |diff| {d[i]:.3g} at index {tuple(int(k) for k in i)}: "
                    f"{a[i]!r} vs {b[i]!r}; rtol={t.rtol:g}, atol={t.atol:g}",
                )
        elif not np.array_equal(a, b):
            self.add(path, "value", a, b)

    def tensor(self, path: str, a: TensorObs, b: TensorObs) -> None:
        if a.dtype != b.dtype and not (self.loose and _same_kind(a.dtype, b.dtype)):
            self.add(path, "dtype", a.dtype, b.dtype)
        if a.shape != b.shape:
            self.add(path, "shape", a.shape, b.shape)
        else:
            dt = a.dtype if not self.loose else _widest(a.dtype, b.dtype, narrow=True)
            self.values(path, a.value, b.value, dt)
        for f in ("requires_grad", "is_leaf", "grad_fn"):
            va, vb = getattr(a, f), getattr(b, f)
            if va != vb:
                self.add(f"{path}.{f}", f, va, vb)
        self.any(path, a.extra, b.extra)

    def any(self, path: str, a: Any, b: Any) -> None:
        ta, tb = _kind(a), _kind(b)
        if ta != tb:
            self.add(path, "type", _describe(a), _describe(b))
            return
        if ta == "tensor":
            self.tensor(path, a, b)
        elif ta == "dict":
            for k in a.keys() | b.keys():
                p = f"{path}.{k}" if path else k
                if k not in a or k not in b:
                    self.add(p, "missing key", "present" if k in a else "absent",
                             "present" if k in b else "absent")  # fmt: skip
                else:
                    self.any(p, a[k], b[k])
        elif ta == "list":
            if len(a) != len(b):
                self.add(path, "length", f"{len(a)}: {_short(a)}", f"{len(b)}: {_short(b)}")
            else:
                for i, (x, y) in enumerate(zip(a, b, strict=True)):
                    self.any(f"{path}[{i}]", x, y)
        elif ta == "array":
            self.values(path, a, b, str(a.dtype))
        elif ta in ("float", "complex"):
            self.values(path, np.asarray(a), np.asarray(b), "python")
        elif ta == "error":
            if (a.missing is None) != (b.missing is None) and a.type != b.type:
                self.add(path, "missing API", a, b, f"lacks {a.missing or b.missing}")
            elif a.type != b.type:
                self.add(path, "exception type", a, b)
            elif a.message != b.message:
                self.add(path, "exception message", a.message, b.message, _first_diff(a, b))
        elif ta == "node":
            if a != b:
                self.add(path, "grad_fn graph", a, b)
        elif a != b:
            self.add(path, "value", a, b)


def _first_diff(a: ErrorObs, b: ErrorObs) -> str:
    x, y = a.message, b.message
    i = next((k for k, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
    return f"first difference at character {i}: {x[i : i + 30]!r} vs {y[i : i + 30]!r}"


def _kind(x: Any) -> str:
    if isinstance(x, TensorObs):
        return "tensor"
    if isinstance(x, ErrorObs):
        return "error"
    if isinstance(x, NodeObs):
        return "node"
    if isinstance(x, dict):
        return "dict"
    if isinstance(x, list):
        return "list"
    if isinstance(x, np.ndarray):
        return "array"
    if x is None:
        return "None"
    return type(x).__name__


def _describe(x: Any) -> str:
    if isinstance(x, TensorObs):
        return f"a tensor {x}"
    return "None" if x is None else f"{_kind(x)} {_short(x)}"


def _short(x: Any, n: int = 300) -> str:
    s = str(x) if isinstance(x, (TensorObs, ErrorObs, NodeObs, str)) else repr(x)
    if isinstance(x, np.ndarray):
        s = np.array2string(x, precision=6, threshold=20)
    return s if len(s) <= n else s[: n - 1] + "…"


_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _same_kind(a: str, b: str) -> bool:
    return (a in _FLOATS and b in _FLOATS) or (a.startswith("complex") and b.startswith("complex"))


def _widest(a: str, b: str, narrow: bool = False) -> str:
    if a in _FLOATS and b in _FLOATS:
        i, j = _FLOATS.index(a), _FLOATS.index(b)
        return _FLOATS[min(i, j) if narrow else max(i, j)]
    return a


def compare(
    a: Outcome,
    b: Outcome,
    *,
    tol: Tolerance | None = None,
    loose_dtypes: bool = False,
    compare_warnings: bool = True,
) -> list[Difference]:
    """The differences between two outcomes of the same program (empty when they agree).

    Args:
        tol: one tolerance for every value (default: per dtype, from TOLERANCES).
        loose_dtypes: floating dtypes of different widths are equal and values compare at the
            narrower width's tolerance (for the precision-escalation engines).
    """
    d = _Differ(loose_dtypes, tol)
    if (a.error is None) != (b.error is None):
        missing = (a.error or b.error).missing  # type: ignore[union-attr]
        d.add(
            "program",
            "missing API" if missing else "outcome",
            f"raised {a.error}" if a.error else "returned normally",
            f"raised {b.error}" if b.error else "returned normally",
            f"lacks {missing}" if missing else "",
        )
    elif a.error is not None:
        d.any("program raised", a.error, b.error)
    if a.error is None and b.error is None:
        d.any("", a.result, b.result)
    if compare_warnings:
        d.any("warnings", _not_once(a.warnings), _not_once(b.warnings))
    return d.diffs


def _not_once(ws: list[Any]) -> list[Any]:
    """The warnings but those torch and shadowgrad issue once per process (TORCH_WARN_ONCE):
    whether a program sees one depends on what ran before it in the process, in each library
    apart. Their text is checked where a fresh process runs them."""
    try:
        from shadowgrad._tensor import once_messages
    except ImportError:  # pragma: no cover - shadowgrad is this harness's own package
        once_messages = set()
    return [
        list(w)
        for w in ws
        if w[1] not in once_messages and not str(w[1]).startswith(_ONCE_PREFIXES)
    ]


# once-per-process warnings whose text carries the call's values (sizes, strides), so that the
# first one's text does not match the next
_ONCE_PREFIXES = ("grad and param do not obey the gradient layout contract",)
