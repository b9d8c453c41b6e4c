"""Train an MLP and a small CNN on scikit-learn's digits in torch and in shadowgrad, side by side.

Both libraries start from the same weights (torch's initial state_dict, copied through numpy),
see the same batches (a DataLoader with shuffle=False) and run the same optimizer. The script
prints the per-epoch losses of both, checks that every step's loss and the final weights follow
torch within float32 tolerance and that the test accuracies are equal, writes the loss curves
to digits_loss.png, and exits with status 1 if a check fails.

    python examples/digits.py            # 2 models x 5 optimizers x 3 epochs
    python examples/digits.py --quick    # SGD only, one epoch
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import shadowgrad

try:
    import torch
except ImportError:  # pragma: no cover - the comparison needs the reference
    sys.exit("examples/digits.py compares against torch: pip install 'shadowgrad[compat]'")

# Losses are compared step by step. Both libraries round differently in float32 (summation
# order in matmul/conv), and training amplifies those differences a little at each step; over
# 3 epochs (72 steps) the largest loss difference measured is 6e-6 relative (CNN + AdamW, most
# others below 1e-6), so rtol 1e-4 leaves a margin of ~15x while still catching any real
# divergence (a wrong gradient or update rule moves the loss by 1e-3 or more within a few
# steps). Weights near zero under Adam-style updates differ most: max abs difference ~1e-6.
LOSS_RTOL, LOSS_ATOL = 1e-4, 1e-5
WEIGHT_RTOL, WEIGHT_ATOL = 1e-3, 1e-5

OPTIMIZERS: dict[str, Callable[[Any, Any], Any]] = {
    "SGD": lambda T, p: T.optim.SGD(p, lr=0.05, momentum=0.9),
    "Adam": lambda T, p: T.optim.Adam(p, lr=1e-3),
    "AdamW": lambda T, p: T.optim.AdamW(p, lr=1e-3, weight_decay=0.01),
    "RMSprop": lambda T, p: T.optim.RMSprop(p, lr=1e-3),
    "Adagrad": lambda T, p: T.optim.Adagrad(p, lr=0.05),
}


def mlp(T: Any) -> Any:
    nn = T.nn
    return nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))


def cnn(T: Any) -> Any:
    nn = T.nn
    return nn.Sequential(
        nn.Unflatten(1, (1, 8, 8)),
        nn.Conv2d(1, 8, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(8 * 4 * 4, 10),
    )


MODELS = {"MLP": mlp, "CNN": cnn}


def load_data() -> tuple[np.ndarray, ...]:
    from sklearn.datasets import load_digits

    digits = load_digits()  # bundled with scikit-learn: nothing is downloaded
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    n_train = 1500
    return x[:n_train], y[:n_train], x[n_train:], y[n_train:]


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.n, self.t0 = total, label, 0, time.perf_counter()

    def step(self, info: str = "") -> None:
        self.n += 1
        width = 24
        done = width * self.n // self.total
        bar = "#" * done + "." * (width - done)
        dt = time.perf_counter() - self.t0
        sys.stderr.write(f"\r{self.label:<14} [{bar}] {self.n}/{self.total} {dt:5.1f}s {info}")
        if self.n == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def train(
    T: Any, model: Any, opt_name: str, data: tuple[np.ndarray, ...], epochs: int, bar: Progress
) -> tuple[list[float], float]:
    """Train `model` with library T; return the per-step losses and the test accuracy."""
    x_tr, y_tr, x_te, y_te = data
    ds = T.utils.data.TensorDataset(T.tensor(x_tr), T.tensor(y_tr))
    loader = T.utils.data.DataLoader(ds, batch_size=64, shuffle=False)
    opt = OPTIMIZERS[opt_name](T, model.parameters())
    loss_fn = T.nn.CrossEntropyLoss()
    losses = []
    model.train()
    for _ in range(epochs):
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.item())
            bar.step(f"loss {losses[-1]:.4f}")
    model.eval()
    with T.no_grad():
        pred = model(T.tensor(x_te)).argmax(1)
    acc = float((pred == T.tensor(y_te)).float().mean().item())
    return losses, acc


def run_pair(model_name: str, opt_name: str, data: Any, epochs: int) -> dict[str, Any]:
    torch.manual_seed(0)
    tm = MODELS[model_name](torch)
    sm = MODELS[model_name](shadowgrad)
    sm.load_state_dict(
        {k: shadowgrad.tensor(v.detach().numpy().copy()) for k, v in tm.state_dict().items()}
    )
    steps = epochs * -(-len(data[0]) // 64)
    label = f"{model_name}/{opt_name}"
    t_losses, t_acc = train(torch, tm, opt_name, data, epochs, Progress(steps, label + " torch"))
    s_losses, s_acc = train(shadowgrad, sm, opt_name, data, epochs, Progress(steps, label + " sg"))
    t_w = {k: v.detach().numpy() for k, v in tm.state_dict().items()}
    s_w = {k: v.detach().numpy() for k, v in sm.state_dict().items()}
    t_l, s_l = np.array(t_losses), np.array(s_losses)
    w_err = max(float(np.max(np.abs(s_w[k] - t_w[k]))) for k in t_w)
    ok_loss = np.allclose(s_l, t_l, rtol=LOSS_RTOL, atol=LOSS_ATOL)
    ok_w = all(np.allclose(s_w[k], t_w[k], rtol=WEIGHT_RTOL, atol=WEIGHT_ATOL) for k in t_w)
    return {
        "model": model_name,
        "opt": opt_name,
        "torch": t_l,
        "shadowgrad": s_l,
        "acc": (t_acc, s_acc),
        "loss_rel": float(np.max(np.abs(s_l - t_l) / np.abs(t_l))),
        "weight_abs": w_err,
        "ok": bool(ok_loss and ok_w and t_acc == s_acc),
    }


def report(results: list[dict[str, Any]], epochs: int) -> None:
    for r in results:
        print(f"\n{r['model']} + {r['opt']}")
        print(f"  {'epoch':>5}  {'torch loss':>12}  {'shadowgrad loss':>15}")
        per = len(r["torch"]) // epochs
        for e in range(epochs):
            sl = slice(e * per, (e + 1) * per)
            print(
                f"  {e + 1:>5}  {r['torch'][sl].mean():>12.6f}  {r['shadowgrad'][sl].mean():>15.6f}"
            )
        ta, sa = r["acc"]
        print(
            f"  test accuracy: torch {ta:.4f}, shadowgrad {sa:.4f}; max loss rel. diff "
            f"{r['loss_rel']:.1e}, max weight abs. diff {r['weight_abs']:.1e} -> "
            + ("OK" if r["ok"] else "MISMATCH")
        )


def plot(results: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = sorted({r["model"] for r in results}, key=list(MODELS).index)
    opts = sorted({r["opt"] for r in results}, key=list(OPTIMIZERS).index)
    fig, axes = plt.subplots(
        len(models), len(opts), figsize=(3.2 * len(opts), 2.6 * len(models)), squeeze=False
    )
    for r in results:
        ax = axes[models.index(r["model"])][opts.index(r["opt"])]
        ax.plot(r["torch"], label="torch", lw=2.5, alpha=0.5)
        ax.plot(r["shadowgrad"], label="shadowgrad", lw=1, ls="--")
        ax.set_title(f"{r['model']} / {r['opt']}", fontsize=9)
        ax.set_xlabel("step", fontsize=8)
        ax.set_ylabel("loss", fontsize=8)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="SGD only, one epoch")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--plot", default="digits_loss.png", help="output image path")
    args = parser.parse_args(argv)
    epochs = 1 if args.quick else args.epochs
    opts = ["SGD"] if args.quick else list(OPTIMIZERS)
    data = load_data()
    torch.set_num_threads(1)  # the comparison, not speed, is the point; keeps runs repeatable
    results = [run_pair(m, o, data, epochs) for m in MODELS for o in opts]
    report(results, epochs)
    plot(results, args.plot)
    print(f"\nwrote {args.plot}")
    failed = [f"{r['model']}/{r['opt']}" for r in results if not r["ok"]]
    if failed:
        print("FAILED: shadowgrad does not follow torch for " + ", ".join(failed))
        return 1
    print(f"all {len(results)} runs follow torch (loss rtol {LOSS_RTOL}, atol {LOSS_ATOL})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
