"""API surface coverage: which of torch's public names shadowgrad has, namespace by namespace.

The conformance report checks what shadowgrad computes; this part counts what it offers. For
each namespace (torch, torch.Tensor, torch.nn, torch.nn.functional, ...) it lists torch's public
callables and classes, drops those no CPU numpy engine can mean (accelerator backends,
quantization, sparse layouts, compiler internals: `OUT_OF_SCOPE`), and reports how many of the
rest shadowgrad has and which it lacks.
"""

from __future__ import annotations

import importlib
import re
import types
from typing import Any

NAMESPACES = (
    "",
    "Tensor",
    "nn",
    "nn.functional",
    "nn.init",
    "nn.utils",
    "linalg",
    "special",
    "optim",
    "optim.lr_scheduler",
    "autograd",
    "autograd.functional",
    "func",
    "distributions",
    "fft",
    "utils.data",
    "testing",
    "cuda",
    "amp",
)

# names that belong to accelerators, quantization, sparse/nested layouts, compilers, tracing,
# distributed or storage internals, or typing helpers re-exported by torch's modules
OUT_OF_SCOPE = re.compile(
    r"cuda|cudnn|miopen|mkldnn|fbgemm|xpu|mps|mtia|ipu|xla|vulkan|hpu|maia|hip|privateuse|"
    r"quantiz|q_|qscheme|int_repr|dequantize|sparse|coo|csr|csc|bsr|bsc|nested|"
    r"jit|compile|dynamo|fx|onnx|export|script|trace|sym_|Sym|_dispatch|storage|"
    r"Storage|pin_memory|share_memory|record_stream|ipc|fork|wait|set_flush_denormal|"
    r"autocast|DataParallel|DistributedSampler|SyncBatchNorm|"
    r"^(Any|Callable|Optional|Union|List|Dict|Tuple|Sequence|Iterable|Iterator|TypeVar|"
    r"Literal|TYPE_CHECKING|Generic|Protocol|NamedTuple|ParamSpec|TypeAlias|Self|cast|"
    r"overload|override|deprecated|annotations|partial|wraps|warn|contextmanager|"
    r"dataclass|abc|math|sys|os|warnings|functools|itertools|collections|inspect|typing|"
    r"torch|builtins|Tensor|Parameter|Module|Optimizer)$"
)


def _resolve(root: Any, path: str) -> Any:
    obj = root
    for part in path.split(".") if path else ():
        obj = getattr(obj, part, None)
        if obj is None:
            try:
                obj = importlib.import_module(f"{root.__name__}.{path}")
            except ImportError:
                return None
            break
    return obj


def _public(ns: Any) -> set[str]:
    out = set()
    for name in dir(ns):
        if name.startswith("_") or OUT_OF_SCOPE.search(name):
            continue
        try:
            v = getattr(ns, name)
        except Exception:  # a lazy attribute that fails to load is not part of the surface
            continue
        if isinstance(v, types.ModuleType) or type(v).__name__ == "pybind11_type":
            continue  # submodules; the TorchScript IR classes
        mod = getattr(v, "__module__", None) or ""
        if not isinstance(ns, type) and (not mod.startswith("torch") or "._utils" in mod):
            continue  # helpers torch's modules import from the standard library
        if callable(v) or isinstance(v, property) or type(v).__name__ == "getset_descriptor":
            out.add(name)
    return out


def surface() -> list[dict[str, Any]]:
    """One row per namespace: torch's in-scope names, how many shadowgrad has, which not."""
    import torch

    import shadowgrad

    rows = []
    for path in NAMESPACES:
        t = _resolve(torch, path)
        s = _resolve(shadowgrad, path)
        if t is None:
            continue
        names = _public(t)
        have = {n for n in names if s is not None and hasattr(s, n)}
        rows.append(
            {
                "namespace": "torch" + (f".{path}" if path else ""),
                "names": len(names),
                "present": len(have),
                "missing": sorted(names - have),
            }
        )
    return rows


def surface_text(rows: list[dict[str, Any]]) -> str:
    w = max(len(r["namespace"]) for r in rows) + 2
    out = ["\nAPI surface (torch's public names in scope for a CPU engine)"]
    out.append(f"{'':<{w}}{'names':>8}{'present':>9}{'missing':>9}{'share':>8}")
    tot = [0, 0]
    for r in rows:
        n, p = r["names"], r["present"]
        tot[0] += n
        tot[1] += p
        out.append(f"{r['namespace']:<{w}}{n:>8}{p:>9}{n - p:>9}{p / max(n, 1):>8.0%}")
    out.append(f"{'all':<{w}}{tot[0]:>8}{tot[1]:>9}{tot[0] - tot[1]:>9}{tot[1] / tot[0]:>8.0%}")
    return "\n".join(out)


def surface_markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["", "## API surface", "",
             "torch's public names in scope for a CPU engine, and whether shadowgrad has them.",
             "", "| namespace | names | present | share |", "|---|---|---|---|"]  # fmt: skip
    for r in rows:
        lines.append(
            f"| {r['namespace']} | {r['names']} | {r['present']} | "
            f"{r['present'] / max(r['names'], 1):.0%} |"
        )
    for r in rows:
        if r["missing"]:
            lines += ["", f"### Missing in {r['namespace']} ({len(r['missing'])})", "",
                      ", ".join(f"`{n}`" for n in r["missing"])]  # fmt: skip
    return "\n".join(lines) + "\n"
