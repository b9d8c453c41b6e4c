"""Run the workloads in torch and shadowgrad in one process, interleaved, and print ratios.

    python -m benchmarks [--repeat N] [--threads 1 2] [-k SUBSTRING] [--json FILE] [--quick]

Each repetition times torch, then shadowgrad, then torch again..., so that machine load
affects both alike. Both libraries get the same number of threads: torch's intra-op pool and
numpy's BLAS pool (through threadpoolctl). Reported: median, min and max milliseconds, and the
ratio of medians shadowgrad/torch (below 1 means shadowgrad is faster). W6 measures peak
memory of a W4 step (tracemalloc for shadowgrad's numpy allocations, torch's profiler for its
CPU allocator), W9 the wall time of the full conformance run.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any

from .workloads import WORKLOADS, w4_large_mlp


def _time(step: Any) -> float:
    gc.collect()
    t = time.perf_counter()
    step()
    return (time.perf_counter() - t) * 1e3


def bench(name: str, make: Any, torch: Any, sg: Any, repeat: int) -> dict[str, Any]:
    steps = {"torch": make(torch), "shadowgrad": make(sg)}
    for s in steps.values():  # warm up
        s()
    times: dict[str, list[float]] = {"torch": [], "shadowgrad": []}
    for _ in range(repeat):
        for lib in ("torch", "shadowgrad"):
            times[lib].append(_time(steps[lib]))
    rec: dict[str, Any] = {"workload": name}
    for lib, ts in times.items():
        rec[f"{lib}_ms"] = statistics.median(ts)
        rec[f"{lib}_min_ms"] = min(ts)
        rec[f"{lib}_max_ms"] = max(ts)
    rec["ratio"] = rec["shadowgrad_ms"] / rec["torch_ms"]
    return rec


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_w4(torch: Any, sg: Any) -> dict[str, Any]:
    """W6: peak memory of one W4 step."""
    step = w4_large_mlp(sg)
    step()
    gc.collect()
    tracemalloc.start()
    step()
    _, peak_sg = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    step_t = w4_large_mlp(torch)
    step_t()
    torch_peak = _torch_peak(torch, step_t)
    return {
        "workload": "W6 memory (peak bytes of a W4 step)",
        "torch_ms": torch_peak / 2**20,
        "shadowgrad_ms": peak_sg / 2**20,
        "ratio": (peak_sg / torch_peak) if torch_peak else float("nan"),
        "unit": "MiB (torch: CPU allocator peak via the profiler; shadowgrad: tracemalloc)",
    }


def _torch_peak(torch: Any, step: Any) -> float:
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        step()
    peak = 0
    cur = 0
    events = sorted(
        (e for e in prof.events() if getattr(e, "cpu_memory_usage", 0)),
        key=lambda e: e.time_range.start,
    )
    for e in events:
        cur += e.cpu_memory_usage
        peak = max(peak, cur)
    return float(peak)


def conformance_wall() -> dict[str, Any]:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compat", "--no-progress"], check=False)
    return {
        "workload": "W9 full conformance run (python -m compat)",
        "torch_ms": float("nan"),
        "shadowgrad_ms": (time.perf_counter() - t) * 1e3,
        "ratio": float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--threads", type=int, nargs="+", default=[1])
    p.add_argument("-k", default="")
    p.add_argument("--json", default=None)
    p.add_argument("--quick", action="store_true", help="small W5 and fewer repeats")
    p.add_argument("--memory", action="store_true", help="also run W6 (memory)")
    p.add_argument("--conformance", action="store_true", help="also run W9 (wall time)")
    args = p.parse_args(argv)

    import torch

    import shadowgrad as sg

    records = []
    for threads in args.threads:
        # Same thread count for both: torch's intra-op pool, numpy's BLAS pool.
        torch.set_num_threads(threads)
        _blas_threads(threads)
        for name, make in WORKLOADS.items():
            if args.k and args.k not in name:
                continue
            if args.quick and name.startswith("W5"):
                from .workloads import w5_depth

                def make(T: Any) -> Any:
                    return w5_depth(T, 100_000)

            rep = 3 if args.quick or name.startswith(("W2", "W4", "W5")) else args.repeat
            try:
                rec = bench(name, make, torch, sg, rep)
            except Exception as e:  # a workload needing a missing feature
                rec = {"workload": name, "error": f"{type(e).__name__}: {e}"}
            rec["torch_threads"] = threads
            records.append(rec)
            _print(rec)
    if args.memory:
        rec = memory_w4(torch, sg)
        records.append(rec)
        _print(rec)
    if args.conformance:
        rec = conformance_wall()
        records.append(rec)
        _print(rec)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=2)
    return 0


def _blas_threads(n: int) -> None:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # the env var set in benchmarks/__init__ still applies
        return
    threadpool_limits(limits=n, user_api="blas")


def _print(rec: dict[str, Any]) -> None:
    if "error" in rec:
        print(f"{rec['workload']:<52} error: {rec['error']}")
        return
    extra = ""
    if "torch_min_ms" in rec:
        extra = (
            f"  (torch {rec['torch_min_ms']:.2f}-{rec['torch_max_ms']:.2f}, "
            f"shadowgrad {rec['shadowgrad_min_ms']:.2f}-{rec['shadowgrad_max_ms']:.2f})"
        )
    print(
        f"{rec['workload']:<52} torch {rec['torch_ms']:9.2f}  shadowgrad "
        f"{rec['shadowgrad_ms']:9.2f}  ratio {rec['ratio']:.2f}{extra}",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
