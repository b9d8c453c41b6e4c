"""Shadow-mode overhead on a small MLP training step (`python -m benchmarks.shadow_overhead`).

Times one training step (forward, cross-entropy, backward, SGD step) of a small MLP in plain
torch and inside `shadowgrad.bridge.shadow()`, interleaved, and prints the ratio of medians.
The target is at most 5x.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any


def _setup(width: int, depth: int, batch: int) -> tuple[Any, ...]:
    import torch
    import torch.nn.functional as F
    from torch import nn

    torch.manual_seed(0)
    layers: list[Any] = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(width, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(batch, width)
    y = torch.randint(0, 10, (batch,))

    def step() -> None:
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()

    return (step,)


def main(argv: list[str] | None = None) -> float:
    from shadowgrad.bridge import shadow

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument(
        "--leaf-check",
        choices=("auto", "always"),
        default="auto",
        help="shadow()'s leaf_check: 'always' adds an end-to-end leaf comparison per backward",
    )
    a = p.parse_args(argv)
    import torch

    torch.set_num_threads(1)  # small ops: threads only add noise on a shared machine
    (step,) = _setup(a.width, a.depth, a.batch)
    plain, shadowed = [], []
    for _ in range(3):  # warm up both paths
        step()
        with shadow(leaf_check=a.leaf_check):
            step()
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        step()
        plain.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        with shadow(leaf_check=a.leaf_check) as report:
            step()
        shadowed.append(time.perf_counter() - t0)
        assert report.ok, str(report)
    mp, ms = statistics.median(plain), statistics.median(shadowed)
    ratio = ms / mp
    print(
        f"MLP {a.depth}x{a.width}, batch {a.batch}, leaf_check={a.leaf_check}: "
        f"torch {mp * 1e3:.3f} ms, "
        f"shadow {ms * 1e3:.3f} ms, overhead {ratio:.2f}x (target <= 5x)"
    )
    return ratio


if __name__ == "__main__":
    main()
