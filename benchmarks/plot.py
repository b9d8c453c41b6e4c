"""Plot benchmark ratios against their targets: `python -m benchmarks.plot A.json [B.json ...] -o
docs/performance-ratios.png` (one bar per run and workload; needs matplotlib)."""

from __future__ import annotations

import argparse
import json

# the targets: median ratio shadowgrad/torch, one thread each
TARGETS = {"W1": 0.6, "W2": 1.0, "W3": 0.9, "W4": 1.0, "W5": 0.5, "W6": 1.1, "W7": 1.5, "W8": 1.0}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", nargs="+", help="JSON files written by `python -m benchmarks --json`")
    ap.add_argument("-o", "--output", default="performance-ratios.png")
    args = ap.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = []
    for path in args.runs:
        with open(path) as f:
            recs = [r for r in json.load(f) if r.get("threads", r.get("torch_threads", 1)) == 1]
        runs.append({r["workload"].split()[0]: r["ratio"] for r in recs})
    names = [w for w in TARGETS if any(w in r for r in runs)]
    width = 0.8 / len(runs)
    fig, ax = plt.subplots(figsize=(8, 4))
    for k, run in enumerate(runs):
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(names))]
        ax.bar(xs, [run.get(w, 0.0) for w in names], width, label=f"run {k + 1}")
    for i, w in enumerate(names):
        ax.plot([i - 0.45, i + 0.45], [TARGETS[w]] * 2, color="black", lw=2)
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("time (memory for W6): shadowgrad / torch")
    ax.set_title("Median ratio per workload (black bar: target; below 1: shadowgrad ahead)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
