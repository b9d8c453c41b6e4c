"""How much of W5 is Python's cyclic garbage collector: `python -m benchmarks.gc_share`.

Runs W5's step (a chain of `n` scalar ops, then backward) as the benchmark builds it, in torch
and in shadowgrad, once with the collector on (as benchmarked) and once with it disabled (a
diagnostic only: shadowgrad never changes the process's collector), and prints the wall time,
the collections of each generation and the time spent in them (`gc.callbacks`). Both libraries
are imported, as in `python -m benchmarks`, so a full collection also walks torch's objects.
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

from .workloads import w5_depth


def _measure(step: Any, collect: bool) -> tuple[float, dict[int, int], dict[int, float]]:
    count = {0: 0, 1: 0, 2: 0}
    spent = {0: 0.0, 1: 0.0, 2: 0.0}
    start = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            start[0] = time.perf_counter()
        else:
            g = info["generation"]
            count[g] += 1
            spent[g] += time.perf_counter() - start[0]

    gc.collect()
    if not collect:
        gc.disable()
    gc.callbacks.append(callback)
    try:
        t = time.perf_counter()
        step()
        wall = time.perf_counter() - t
    finally:
        gc.callbacks.remove(callback)
        gc.enable()
    return wall, count, spent


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1_000_000, help="ops in the chain (W5: 1e6)")
    args = ap.parse_args(argv)
    import torch

    import shadowgrad

    torch.set_num_threads(1)
    for lib in (shadowgrad, torch):
        step = w5_depth(lib, args.n)
        for collect in (True, False):
            wall, count, spent = _measure(step, collect)
            times = ", ".join(f"gen {g}: {count[g]} in {spent[g]:.2f} s" for g in count)
            state = "gc on " if collect else "gc off"
            print(f"{lib.__name__:10s} {state} {wall:6.2f} s  ({times})", flush=True)
    gc.collect()
    t = time.perf_counter()
    gc.collect()
    print(
        f"one full collection of this process's {len(gc.get_objects())} objects, no graph: "
        f"{time.perf_counter() - t:.3f} s"
    )


if __name__ == "__main__":
    main()
