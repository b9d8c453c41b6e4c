"""Engines: the libraries a program is run on, and how one run is observed.

An Engine names a library module (torch or shadowgrad) and the settings it runs under. Any two
engines can be compared: torch vs shadowgrad is the conformance check; torch vs
`torch-float64` (torch with float64 as the default dtype) is the precision-escalation oracle
that tells a real difference from float32 rounding.

`run(engine, prog)` runs `prog(T)` once and returns an Outcome of plain, picklable data: the
program's observations normalized (tensors become TensorObs, grad_fn nodes their graph), the
exception it raised (type and normalized message), and the warnings it issued. Nothing in an
Outcome refers back to the library, so outcomes cross process boundaries and go into reports.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ENGINES",
    "Engine",
    "ErrorObs",
    "NodeObs",
    "Outcome",
    "TensorObs",
    "get_engine",
    "graph",
    "normalize",
    "normalize_message",
    "observe",
    "raises",
    "run",
]


@dataclass(frozen=True)
class Engine:
    """A library and the settings one run uses."""

    name: str
    module_name: str
    default_dtype: str | None = None  # e.g. "float64": the precision-escalation engine
    description: str = ""

    @property
    def precise(self) -> bool:
        return self.default_dtype == "float64"

    def module(self) -> Any:
        mod = importlib.import_module(self.module_name)
        if self.module_name == "torch":
            _settle_torch(mod)
        return mod

    @contextlib.contextmanager
    def session(self) -> Iterator[Any]:
        """The module, with this engine's settings applied for the duration of one run."""
        T = self.module()
        old = T.get_default_dtype()
        dist = T.distributions.Distribution
        dist.set_default_validate_args(__debug__)  # the default (see below), whatever ran before
        if self.default_dtype is not None:
            T.set_default_dtype(getattr(T, self.default_dtype))
        try:
            yield T
        finally:
            # the process-wide settings a program may change as a function call (each
            # library's constructor of these context managers sets the state): the defaults.
            # Distributions' argument validation too: torch turns it off for the rest of the
            # process when anything first loads its compiler (dynamo's TorchPatcher), which a
            # test outside the harness may do in this worker; programs must not depend on that
            T.set_default_dtype(old)
            T.set_grad_enabled(True)
            T.autograd.enforce_grad_layout_policy(True)
            dist.set_default_validate_args(__debug__)


def _settle_torch(torch: Any) -> None:
    """Do once, quietly, what torch does lazily on first use and warns about while doing it, so
    that no program sees it depending on what ran before it in the process: the first forward-AD
    call (make_dual) loads torch's jvp decompositions, which issues 18 `torch.jit.script is
    deprecated` DeprecationWarnings."""
    load = getattr(getattr(torch.autograd, "forward_ad", None), "_maybe_load_decompositions", None)
    if load is not None and not getattr(_settle_torch, "done", False):
        _settle_torch.done = True  # type: ignore[attr-defined]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            load()


ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (
        Engine("torch", "torch", description="the reference, PyTorch on CPU"),
        Engine("shadowgrad", "shadowgrad", description="the engine under test"),
        Engine(
            "torch-float64",
            "torch",
            default_dtype="float64",
            description="torch with float64 default dtype: separates rounding from real bugs",
        ),
        Engine("shadowgrad-float64", "shadowgrad", default_dtype="float64"),
    )
}


def get_engine(name: str) -> Engine:
    try:
        return ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}") from None


# --------------------------------------------------------------------------------------------
# Normalized observations
# --------------------------------------------------------------------------------------------

_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$", re.S)
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# a c10::Error torch re-wraps (unflatten's "got an unexpected error") carries its C++ backtrace
_CPP_BACKTRACE = re.compile(r"\nException raised from .*", re.S)
# anomaly mode's warning ends with a Python traceback, which differs by engine and file
_TRACEBACK = re.compile(
    r"(Traceback of forward call that (?:caused the error|induced the previous calculation):).*",
    re.S,
)


# shadowgrad explains these errors beyond torch's text, on lines after torch's message (torch's
# own messages here are one line): compare torch's part only.
_EXPLAINED = (
    "one of the variables needed for gradient computation has been modified by an inplace",
    "Function '",
)


def normalize_message(msg: str) -> str:
    """Strip torch's C++ suffix `(Triggered internally at …)`, C++ backtraces, tracebacks and
    addresses, and shadowgrad's explanation lines after the errors it explains (see
    `_EXPLAINED`)."""
    msg = _TRACEBACK.sub(r"\1 …", _TRIGGERED.sub("", _CPP_BACKTRACE.sub("", str(msg))))
    if msg.startswith(_EXPLAINED):
        msg = msg.split("\n", 1)[0]
    return _ADDRESS.sub("0x…", msg).rstrip()


@dataclass(frozen=True)
class ErrorObs:
    """An exception: its type name and normalized message."""

    type: str
    message: str
    # the public name the engine lacks, when that is why it raised (not compared)
    missing: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, e: BaseException) -> ErrorObs:
        msg = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], str) else str(e)
        return cls(type(e).__name__, normalize_message(msg), _missing_api(e))

    def __str__(self) -> str:
        return f"{self.type}: {self.message}"


@dataclass(frozen=True)
class NodeObs:
    """A grad_fn node: its class name and its next_functions, recursively (depth-limited)."""

    name: str
    next: tuple[tuple[NodeObs | None, int], ...] | None  # None: not expanded (depth limit)

    def __str__(self) -> str:
        if not self.next:
            return self.name
        inner = ", ".join(f"{n if n is not None else 'None'}:{nr}" for n, nr in self.next)
        return f"{self.name}({inner})"


@dataclass
class TensorObs:
    """Everything observable about a tensor, without the library."""

    value: np.ndarray
    dtype: str
    shape: tuple[int, ...]
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None
    extra: dict[str, Any] = field(default_factory=dict)  # observe(): _version, grad, ...

    def __str__(self) -> str:
        v = np.array2string(self.value, precision=6, threshold=20)
        gf = f", grad_fn={self.grad_fn}" if self.grad_fn else ""
        rg = ", requires_grad=True" if self.requires_grad and not self.grad_fn else ""
        return f"tensor({v}, dtype={self.dtype}{gf}{rg})"


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "_version") or type(x).__name__ in ("Tensor", "Parameter")


def _is_node(x: Any) -> bool:
    return hasattr(x, "next_functions") and callable(getattr(x, "name", None))


def _array(t: Any) -> np.ndarray:
    t = t.detach()
    if str(t.dtype).endswith("bfloat16"):
        t = t.float()
    return np.array(t.numpy(force=True), copy=True)  # force: torch's ZeroTensor grads


def _dtype_name(d: Any) -> str:
    return str(d).removeprefix("torch.")


def graph(node: Any, depth: int = 6) -> NodeObs | None:
    """A grad_fn node as a NodeObs: class names and next_functions, `depth` levels deep."""
    if node is None:
        return None
    if depth <= 0:
        return NodeObs(type(node).__name__, None)
    nxt = tuple((graph(n, depth - 1), int(nr)) for n, nr in node.next_functions)
    return NodeObs(type(node).__name__, nxt)


def _tensor_obs(t: Any) -> TensorObs:
    gf = t.grad_fn
    return TensorObs(
        value=_array(t),
        dtype=_dtype_name(t.dtype),
        shape=tuple(int(s) for s in t.shape),
        requires_grad=bool(t.requires_grad),
        is_leaf=bool(t.is_leaf),
        grad_fn=type(gf).__name__ if gf is not None else None,
    )


def normalize(x: Any) -> Any:
    """A program's return value as plain data (see the module docstring)."""
    if x is None or isinstance(x, (bool, int, float, complex, str, ErrorObs, TensorObs)):
        return x
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.copy()
    if _is_tensor(x):
        return _tensor_obs(x)
    if _is_node(x):
        return graph(x)
    if isinstance(x, dict):
        return {str(k): normalize(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        # torch.Size is a tuple subclass; a Size and a tuple of the same ints compare equal
        return [normalize(v) for v in x]
    tn = type(x).__name__
    if tn == "dtype" or tn.endswith("dtype"):
        return "dtype:" + _dtype_name(x)
    if tn == "device":
        return f"device:{x}"
    return f"<{tn}>"


def observe(T: Any, t: Any) -> dict[str, Any]:
    """Record a tensor's autograd state: value, dtype, shape, requires_grad, is_leaf, grad_fn
    name, _version and `.grad` (None or the tensor). Reading .grad here issues no warning."""
    if t is None:
        return {"tensor": None}
    obs: dict[str, Any] = {"tensor": _tensor_obs(t)}
    try:
        obs["_version"] = int(t._version)
    except RuntimeError as e:  # inference tensors track no version
        obs["_version"] = ErrorObs.of(e)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = t.grad
    obs["grad"] = None if g is None else _tensor_obs(g)
    obs["retains_grad"] = bool(t.retains_grad)
    return obs


def raises(fn: Callable[[], Any]) -> Any:
    """Call fn(); return its result, or an ErrorObs if it raised."""
    try:
        return fn()
    except Exception as e:
        return ErrorObs.of(e)


# --------------------------------------------------------------------------------------------
# One run
# --------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one engine's run of a program showed."""

    engine: str
    result: Any = None  # normalized return value
    error: ErrorObs | None = None  # exception escaping the program
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (category, message)
    missing_api: str | None = None  # the attribute the engine lacks, if that is why it failed


_MISSING = re.compile(
    r"^(?:module '(?:shadowgrad|torch)[\w.]*' has no attribute '(\w+)'"
    r"|type object '(?:Tensor|Parameter)' has no attribute '(\w+)'"
    r"|'(?:Tensor|Parameter)' object has no attribute '(\w+)'"
    r"|'Tensor' object does not support item (assignment)"
    r"|cannot import name '(\w+)' from 'shadowgrad"
    r"|unsupported operand type\(s\) for (\S+): 'Tensor' and 'Tensor')"
)


def _missing_api(e: BaseException) -> str | None:
    """The public name an engine lacks, if that is why it raised (an op not written yet)."""
    if not isinstance(e, (AttributeError, TypeError, ImportError)):
        return None
    m = _MISSING.match(str(e))
    if m is None:
        return None
    name = next(g for g in m.groups() if g)
    return "Tensor.__setitem__" if name == "assignment" else name


def run(engine: Engine, prog: Callable[[Any], Any]) -> Outcome:
    """Run prog(T) on one engine and observe it."""
    out = Outcome(engine.name)
    with engine.session() as T, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out.result = normalize(prog(T))
        except Exception as e:
            out.error = ErrorObs.of(e)
            out.missing_api = out.error.missing
    out.warnings = [(w.category.__name__, normalize_message(str(w.message))) for w in caught]
    return out
