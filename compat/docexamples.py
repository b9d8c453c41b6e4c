"""torch's own docstring examples as differential programs.

Nearly every public torch function, Tensor method, nn module, optimizer and scheduler documents
itself with `>>>` examples. They are ordinary user code, written by torch's authors to show how
each name behaves, so they make a conformance suite that nobody here wrote: each docstring's
examples become one program, run statement by statement on torch and on shadowgrad (with
`import torch...` inside the example redirected to shadowgrad), and every expression's value,
its printed form (`repr`, the line the documentation shows), every error and every warning are
compared.

Which examples take part is decided by running them on torch (`python -m compat.docexamples
--select` rewrites `docexamples_selected.txt`): an example is left out when torch itself cannot
run it here (a name the example never defines, a file, an accelerator, a compiler or a sparse or
quantized layout), when two runs of it on torch differ (unseeded randomness, timings, object
addresses), or when it takes torch more than three seconds. Every example starts from
`torch.manual_seed(0)`; shadowgrad reproduces torch's random streams, so `torch.randn` examples
compare values too.
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import importlib
import io
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .engines import ErrorObs, TensorObs, normalize

# the namespaces whose public names' docstrings are read, and the short prefix of their programs
NAMESPACES: tuple[tuple[str, str], ...] = (
    ("torch", "torch"),
    ("torch.Tensor", "Tensor"),
    ("torch.nn", "nn"),
    ("torch.nn.functional", "F"),
    ("torch.nn.init", "init"),
    ("torch.nn.utils", "nnutils"),
    ("torch.nn.utils.rnn", "rnn"),
    ("torch.nn.utils.parametrize", "parametrize"),
    ("torch.nn.utils.prune", "prune"),
    ("torch.linalg", "linalg"),
    ("torch.special", "special"),
    ("torch.fft", "fft"),
    ("torch.autograd", "autograd"),
    ("torch.autograd.functional", "autograd_functional"),
    ("torch.autograd.graph", "autograd_graph"),
    ("torch.autograd.forward_ad", "forward_ad"),
    ("torch.func", "func"),
    ("torch.distributions", "distributions"),
    ("torch.optim", "optim"),
    ("torch.optim.lr_scheduler", "lr_scheduler"),
    ("torch.utils.data", "data"),
    ("torch.utils.checkpoint", "checkpoint"),
    ("torch.testing", "testing"),
    ("torch.random", "random"),
)

SELECTED = Path(__file__).with_name("docexamples_selected.txt")

# examples about what a CPU numpy engine does not mean (see compat/surface.py's OUT_OF_SCOPE)
_OUT_OF_SCOPE = re.compile(
    r"cuda|mps|xpu|device=['\"](?!cpu)|torch\.compile|jit|sparse|to_sparse|quantiz|onnx|"
    r"torch\.fx|export|nested|named_tensor|refine_names|rename\(|align_to|dlpack|"
    r"from_file|\.pt['\"]|\.pth['\"]|open\(|DataParallel|torch\.distributed|profiler|"
    r"\bstorage\(|untyped_storage|Storage\b|pin_memory|share_memory|tensorboard|hub\.|Stream|"
    r"Event\(|num_workers|"
    r"multiprocessing|input\(|sleep\("
)
# examples whose results are rounding noise (a residual near 0, or an `allclose` of one), or
# about the machine and compiler rather than values: left out, each with its reason
LEFT_OUT: dict[str, str] = {
    "doc_torch_cholesky_inverse": "prints dist(inverse, cholesky_inverse) of an ill-conditioned "
    "matrix: rounding noise",
    "doc_linalg_solve": "`allclose(A @ x, b)` at float32: True or False with the rounding noise",
    "doc_fft_hfft2": "`allclose(roundtrip, T)` at float32: torch's own answer is False",
    "doc_fft_hfftn": "`allclose(roundtrip, T)` at float32: torch's own answer is False",
    "doc_torch_set_flush_denormal": "the CPU's denormal flushing (numpy keeps denormals)",
    "doc_autograd_graph_region_activation_memory_budget": "a torch.compile feature",
    "doc_func_linearize": "torch warns from its FX tracer (a torch internal)",
    "doc_Tensor_new_empty_strided": "prints uninitialized memory",
}

# errors that mean torch itself cannot run an example here
_BROKEN = (NameError, ImportError, FileNotFoundError, OSError, SyntaxError, NotImplementedError)
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def parse(doc: str) -> list[str]:
    """The `>>>` statements of a docstring (with their `...` continuation lines), in order."""
    stmts: list[str] = []
    cur: list[str] | None = None
    for line in doc.splitlines():
        s = line.lstrip()
        if s.startswith(">>>"):
            if cur is not None:
                stmts.append("\n".join(cur))
            cur = [s[4:] if s.startswith(">>> ") else s[3:]]
        elif s.startswith("...") and cur is not None:
            cur.append(s[4:] if s.startswith("... ") else s[3:])
        elif cur is not None:
            stmts.append("\n".join(cur))
            cur = None
    if cur is not None:
        stmts.append("\n".join(cur))
    # a `# xdoctest: +SKIP` line marks what torch's own doctest run skips
    return [s for s in stmts if s.strip() and "xdoctest" not in s and "doctest:" not in s]


def _owner(path: str) -> Any:
    import torch

    return torch.Tensor if path == "torch.Tensor" else importlib.import_module(path)


def collect() -> dict[str, tuple[str, list[str]]]:
    """Program name -> (namespace, statements), for every docstring with examples (each
    docstring once)."""
    out: dict[str, tuple[str, list[str]]] = {}
    seen: set[str] = set()
    for path, short in NAMESPACES:
        owner = _owner(path)
        for name in sorted(dir(owner)):
            if name.startswith("_"):
                continue
            try:
                v = getattr(owner, name)
            except Exception:  # a lazy attribute that fails to load
                continue
            doc = getattr(v, "__doc__", None)
            if not isinstance(doc, str) or ">>>" not in doc or doc in seen:
                continue
            if path != "torch.Tensor" and not (getattr(v, "__module__", "") or "").startswith(
                "torch"
            ):
                continue
            seen.add(doc)
            stmts = parse(doc)
            if stmts:
                out[f"doc_{short}_{name}"] = (path, stmts)
    for path, short in NAMESPACES:  # then the methods each class defines (Module.apply, ...)
        owner = _owner(path)
        if path == "torch.Tensor":
            continue
        for name in sorted(dir(owner)):
            cls = getattr(owner, name, None) if not name.startswith("_") else None
            if not isinstance(cls, type) or not cls.__module__.startswith("torch"):
                continue
            for meth, v in sorted(vars(cls).items()):
                doc = getattr(v, "__doc__", None)
                if meth.startswith("_") or not isinstance(doc, str) or ">>>" not in doc:
                    continue
                if doc in seen:
                    continue
                seen.add(doc)
                stmts = parse(doc)
                if stmts:
                    out[f"doc_{short}_{name}_{meth}"] = (path, stmts)
    return out


def _importer(T: Any) -> Callable[..., Any]:
    """`__import__` for an example: `torch` and its submodules are the engine's."""
    real = builtins.__import__
    if T.__name__ == "torch":
        return real
    top = T.__name__

    def imp(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            name = top + name[5:]
        return real(name, globals, locals, fromlist, level)

    return imp


class Shown:
    """What the documentation shows for a value (its repr), compared where it is meaningful:
    when both libraries computed bit-identical values (`key`), their printed forms must be the
    same text; when the values differ within tolerance, the printed forms are not compared
    (the last printed digit may follow the last bit), the values are, by the harness."""

    __slots__ = ("key", "text")

    def __init__(self, text: str, key: str) -> None:
        self.text = text
        self.key = key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shown):
            return NotImplemented
        return self.key != other.key or self.text == other.text

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return self.text


def _digest(x: Any, h: Any) -> None:
    """Feed a normalized value's exact contents to a hash (arrays by their bytes)."""
    if isinstance(x, np.ndarray):
        h.update(f"{x.dtype}{x.shape}".encode())
        h.update(np.ascontiguousarray(x).tobytes())
    elif isinstance(x, TensorObs):
        h.update(f"{x.dtype}{x.shape}{x.requires_grad}{x.grad_fn}".encode())
        _digest(x.value, h)
    elif isinstance(x, dict):
        for k, v in x.items():
            h.update(repr(k).encode())
            _digest(v, h)
    elif isinstance(x, list):
        h.update(b"[")
        for v in x:
            _digest(v, h)
        h.update(b"]")
    else:
        h.update(repr(x).encode())


def _shown(v: Any, plain: Any) -> Shown | None:
    """The printed form of a value whose repr names no address (see Shown)."""
    if v is None or (callable(v) and not hasattr(v, "parameters")):
        return None
    try:
        r = repr(v)
    except Exception as e:  # a repr that raises is itself a behaviour
        r = f"repr raised {type(e).__name__}"
    if _ADDRESS.search(r):
        return None
    h = hashlib.sha1()
    _digest(plain, h)
    return Shown(r, h.hexdigest())


def _context(T: Any, owner: str) -> dict[str, Any]:
    """The names an example may use without importing them, as torch's documentation build
    provides them: torch, nn, F, math, numpy, and the public names of the example's own module
    (`vjp` in torch.autograd.functional's examples) and that module itself (`prune`)."""
    import math

    import numpy

    ns: dict[str, Any] = {"torch": T, "nn": T.nn, "F": T.nn.functional, "math": math}
    ns.update(np=numpy, numpy=numpy, itertools=importlib.import_module("itertools"))
    ns["functools"] = importlib.import_module("functools")
    if owner in ("torch", "torch.Tensor"):
        return ns
    try:
        mod = importlib.import_module(T.__name__ + owner[5:])
    except ImportError:
        return ns
    ns[owner.rsplit(".", 1)[1]] = mod
    for k in dir(mod):
        if not k.startswith("_") and k not in ns:
            ns[k] = getattr(mod, k)
    return ns


def run_example(T: Any, owner: str, stmts: list[str]) -> list[Any]:
    """Run one docstring's statements in one namespace; each one's value (an expression: its
    plain data and printed form), or its error."""
    bi = dict(vars(builtins))
    bi["__import__"] = _importer(T)
    ns = _context(T, owner)
    ns.update(__builtins__=bi, __name__="__doc_example__")
    T.manual_seed(0)
    default = T.get_default_dtype()  # an example may set it: restored after
    try:
        return _run_statements(stmts, ns)
    finally:
        T.set_default_dtype(default)


def _run_statements(stmts: list[str], ns: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for s in stmts:
        printed = io.StringIO()  # what the statement prints is compared too
        try:
            with contextlib.redirect_stdout(printed):
                try:
                    code = compile(s, "<example>", "eval")
                except SyntaxError:
                    exec(compile(s, "<example>", "exec"), ns)
                    r: Any = "ok"
                else:
                    v = eval(code, ns)
                    plain = normalize(v)
                    r = [plain, _shown(v, plain)]
        except Exception as e:
            r = ErrorObs.of(e)
        text = printed.getvalue()
        out.append([r, _ADDRESS.sub(" at 0x…", text)] if text else r)
    return out


def program(owner: str, stmts: list[str]) -> Callable[[Any], Any]:
    """The whole program of one docstring's examples."""

    def prog(T: Any) -> Any:
        return run_example(T, owner, stmts)

    prog.__source__ = "\n".join(">>> " + s.replace("\n", "\n... ") for s in stmts)  # type: ignore[attr-defined]
    return prog


class _Timeout(BaseException):
    """An example that runs too long (not an Exception: the example's own handlers let it by)."""


def _verdict(name: str, owner: str, stmts: list[str]) -> str:
    """ "ok", or why torch's own run leaves the example out."""
    if _OUT_OF_SCOPE.search("\n".join(stmts)):
        return "out of scope"
    if name in LEFT_OUT:
        return LEFT_OUT[name]

    def alarm(*_: Any) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGPROF, alarm)  # on CPU time: the load does not count
    try:
        return _compare_runs(owner, stmts)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def _compare_runs(owner: str, stmts: list[str]) -> str:
    import warnings

    import torch

    runs = []
    for _ in range(2):
        t = time.process_time()  # the process's own time: the machine's load matters less
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    signal.setitimer(signal.ITIMER_PROF, 10)
                    res = run_example(torch, owner, stmts)
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
        except BaseException as e:
            return f"escapes: {type(e).__name__}"
        if time.process_time() - t > 3.0:
            return "slow"
        for r in res:
            r = r[0] if isinstance(r, list) and len(r) == 2 else r
            if isinstance(r, ErrorObs) and r.type in {c.__name__ for c in _BROKEN}:
                return f"torch: {r}"[:120]
            if isinstance(r, ErrorObs) and "cuda" in r.message.lower():
                return "needs an accelerator"
        runs.append(repr(res))
    return "ok" if runs[0] == runs[1] else "differs between torch runs"


def selected() -> dict[str, tuple[str, list[str]]]:
    """The examples that take part (see the module docstring), by program name."""
    names = set(SELECTED.read_text(encoding="utf-8").split()) if SELECTED.exists() else set()
    return {n: s for n, s in collect().items() if n in names}


def main(argv: list[str]) -> int:
    if argv[:1] != ["--select"]:
        print("usage: python -m compat.docexamples --select", file=sys.stderr)
        return 2
    ok, why = [], {}
    for name, (owner, stmts) in collect().items():
        v = _verdict(name, owner, stmts)
        (ok.append(name) if v == "ok" else why.__setitem__(name, v))
    SELECTED.write_text("\n".join(sorted(ok)) + "\n", encoding="utf-8")
    print(f"{len(ok)} examples selected, {len(why)} left out")
    for n, v in sorted(why.items()):
        print(f"  {n}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
