"""Op-level sweep: common ops and layers, forward plus backward, torch and shadowgrad side by side.

    python -m benchmarks.ops [-k SUBSTRING] [--size N] [--json FILE]

Each op runs on an N x N float32 input (N = 256 by default; `x` any sign, `p` positive), its
output summed and backpropagated. Both libraries get one thread (torch's intra-op pool, numpy's
BLAS pool). Each measurement is the best of three interleaved rounds; the table is sorted by
ratio shadowgrad/torch, worst first, so that the ops to look at next come first. The workloads
of issue #8 (python -m benchmarks) measure whole training steps; this sweep finds the ops whose
kernels are far from torch's.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

N = 256


def _setitem(x: Any) -> Any:
    y = x * 1
    y[:, 10:20] = 0
    return y


# name -> f(T, x, p): an op of x (any sign) and p (positive), both N x N and requiring grad
OPS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "exp": lambda T, x, p: x.exp(),
    "log": lambda T, x, p: p.log(),
    "tanh": lambda T, x, p: x.tanh(),
    "sigmoid": lambda T, x, p: x.sigmoid(),
    "sin": lambda T, x, p: x.sin(),
    "sqrt": lambda T, x, p: p.sqrt(),
    "pow3": lambda T, x, p: x.pow(3),
    "powt": lambda T, x, p: p.pow(x),
    "abs": lambda T, x, p: x.abs(),
    "clamp": lambda T, x, p: x.clamp(-0.5, 0.5),
    "erf": lambda T, x, p: T.erf(x),
    "erfinv": lambda T, x, p: T.erfinv(x.tanh() * 0.9),
    "lgamma": lambda T, x, p: T.lgamma(p),
    "digamma": lambda T, x, p: T.digamma(p),
    "atan2": lambda T, x, p: T.atan2(x, p),
    "div": lambda T, x, p: x / p,
    "where": lambda T, x, p: T.where(x > 0, x, p),
    "maximum": lambda T, x, p: T.maximum(x, p),
    "sum": lambda T, x, p: x.sum(),
    "mean1": lambda T, x, p: x.mean(1),
    "var": lambda T, x, p: x.var(1),
    "std": lambda T, x, p: x.std(),
    "norm": lambda T, x, p: x.norm(dim=1),
    "max1": lambda T, x, p: x.max(1).values,
    "amax": lambda T, x, p: x.amax(1),
    "logsumexp": lambda T, x, p: x.logsumexp(1),
    "prod": lambda T, x, p: (p * 0.01 + 1).prod(1),
    "cumsum": lambda T, x, p: x.cumsum(1),
    "cumprod": lambda T, x, p: (p * 0.01 + 1).cumprod(1),
    "cat": lambda T, x, p: T.cat([x, p], 1),
    "stack": lambda T, x, p: T.stack([x, p]),
    "transpose_c": lambda T, x, p: x.t().contiguous(),
    "flip": lambda T, x, p: x.flip(0),
    "roll": lambda T, x, p: x.roll(3, 1),
    "repeat": lambda T, x, p: x.repeat(2, 2),
    "index": lambda T, x, p: x[T.arange(0, N, 2)],
    "bool_index": lambda T, x, p: x[x > 0],
    "masked_fill": lambda T, x, p: x.masked_fill(x > 0, 0.0),
    "tril": lambda T, x, p: x.tril(),
    "diag": lambda T, x, p: x.diagonal(),
    "unfold": lambda T, x, p: x.unfold(1, 8, 4),
    "setitem": lambda T, x, p: _setitem(x),
    "inv": lambda T, x, p: T.linalg.inv(x[:64, :64] + 10 * T.eye(64)),
    "det": lambda T, x, p: T.linalg.det(x[:64, :64] * 0.1 + T.eye(64)),
    "solve": lambda T, x, p: T.linalg.solve(x[:64, :64] + 10 * T.eye(64), p[:64]),
    "cholesky": lambda T, x, p: T.linalg.cholesky(x[:64, :64] @ x[:64, :64].T + T.eye(64)),
    "qr": lambda T, x, p: T.linalg.qr(x[:, :64])[0],
    "svd": lambda T, x, p: T.linalg.svd(x[:64, :64])[1],
    "eigh": lambda T, x, p: T.linalg.eigh(x[:64, :64] + x[:64, :64].T)[0],
    "matrix_norm": lambda T, x, p: T.linalg.matrix_norm(x),
    "softmax": lambda T, x, p: x.softmax(1),
    "log_softmax": lambda T, x, p: x.log_softmax(1),
    "gelu": lambda T, x, p: T.nn.functional.gelu(x),
    "gelu_tanh": lambda T, x, p: T.nn.functional.gelu(x, approximate="tanh"),
    "silu": lambda T, x, p: T.nn.functional.silu(x),
    "elu": lambda T, x, p: T.nn.functional.elu(x),
    "leaky_relu": lambda T, x, p: T.nn.functional.leaky_relu(x),
    "softplus": lambda T, x, p: T.nn.functional.softplus(x),
    "mish": lambda T, x, p: T.nn.functional.mish(x),
    "hardswish": lambda T, x, p: T.nn.functional.hardswish(x),
    "layer_norm": lambda T, x, p: T.nn.functional.layer_norm(x, (N,)),
    "group_norm": lambda T, x, p: T.nn.functional.group_norm(x.reshape(16, 16, 16, 16), 4),
    "batch_norm": lambda T, x, p: T.nn.functional.batch_norm(x, None, None, training=True),
    "instance_norm": lambda T, x, p: T.nn.functional.instance_norm(x.reshape(16, 16, 16, 16)),
    "normalize": lambda T, x, p: T.nn.functional.normalize(x),
    "dropout": lambda T, x, p: T.nn.functional.dropout(x, 0.3),
    "embedding": lambda T, x, p: T.nn.functional.embedding(T.arange(N).remainder(100), x),
    "conv1d": lambda T, x, p: T.nn.functional.conv1d(
        x.reshape(16, 16, 256), p[:32, :48].reshape(32, 16, 3)
    ),
    "conv2d": lambda T, x, p: T.nn.functional.conv2d(
        x.reshape(16, 16, 16, 16), p[:32, :144].reshape(32, 16, 3, 3), padding=1
    ),
    "conv_transpose2d": lambda T, x, p: T.nn.functional.conv_transpose2d(
        x.reshape(16, 16, 16, 16), p[:16, :72].reshape(16, 8, 3, 3), stride=2
    ),
    "max_pool2d": lambda T, x, p: T.nn.functional.max_pool2d(x.reshape(16, 16, 16, 16), 2),
    "max_pool2d_3s2": lambda T, x, p: T.nn.functional.max_pool2d(
        x.reshape(16, 16, 16, 16), 3, 2, 1
    ),
    "avg_pool2d": lambda T, x, p: T.nn.functional.avg_pool2d(x.reshape(16, 16, 16, 16), 2),
    "adaptive_avg": lambda T, x, p: T.nn.functional.adaptive_avg_pool2d(
        x.reshape(16, 16, 16, 16), 1
    ),
    "adaptive_max": lambda T, x, p: T.nn.functional.adaptive_max_pool2d(
        x.reshape(16, 16, 16, 16), 3
    ),
    "interp_nearest": lambda T, x, p: T.nn.functional.interpolate(
        x.reshape(16, 16, 16, 16), scale_factor=2
    ),
    "interp_bilinear": lambda T, x, p: T.nn.functional.interpolate(
        x.reshape(16, 16, 16, 16), scale_factor=2, mode="bilinear"
    ),
    "pad_reflect": lambda T, x, p: T.nn.functional.pad(
        x.reshape(16, 16, 16, 16), (2, 2, 2, 2), mode="reflect"
    ),
    "pad_replicate": lambda T, x, p: T.nn.functional.pad(
        x.reshape(16, 16, 16, 16), (2, 2, 2, 2), mode="replicate"
    ),
    "cross_entropy": lambda T, x, p: T.nn.functional.cross_entropy(x, T.arange(N).remainder(N)),
    "nll": lambda T, x, p: T.nn.functional.nll_loss(x, T.arange(N)),
    "bce": lambda T, x, p: T.nn.functional.binary_cross_entropy(x.sigmoid(), (p > 1).float()),
    "bce_logits": lambda T, x, p: T.nn.functional.binary_cross_entropy_with_logits(
        x, (p > 1).float()
    ),
    "mse": lambda T, x, p: T.nn.functional.mse_loss(x, p),
    "l1": lambda T, x, p: T.nn.functional.l1_loss(x, p),
    "smooth_l1": lambda T, x, p: T.nn.functional.smooth_l1_loss(x, p),
    "huber": lambda T, x, p: T.nn.functional.huber_loss(x, p),
    "kl_div": lambda T, x, p: T.nn.functional.kl_div(
        x.log_softmax(1), p.softmax(1), reduction="batchmean"
    ),
    "cosine_sim": lambda T, x, p: T.nn.functional.cosine_similarity(x, p),
    "pairwise": lambda T, x, p: T.nn.functional.pairwise_distance(x, p),
    "cdist": lambda T, x, p: T.cdist(x[:64], p[:64]),
    "fold": lambda T, x, p: T.nn.functional.fold(
        x.reshape(16, 16, 256)[:, :, :225].reshape(16, 16, 225), (16, 16), 2
    ),
    "unfold_nn": lambda T, x, p: T.nn.functional.unfold(x.reshape(16, 16, 16, 16), 3),
    "pixel_shuffle": lambda T, x, p: T.nn.functional.pixel_shuffle(x.reshape(16, 16, 16, 16), 2),
    "sort": lambda T, x, p: x.sort(1).values,
    "argsort": lambda T, x, p: x.argsort(1).float(),
    "kthvalue": lambda T, x, p: x.kthvalue(5, 1).values,
    "median": lambda T, x, p: x.median(1).values,
    "cummax": lambda T, x, p: x.cummax(1).values,
    "einsum": lambda T, x, p: T.einsum("ij,jk->ik", x, p),
    "bmm": lambda T, x, p: T.bmm(x.reshape(16, 64, 64), p.reshape(16, 64, 64)),
    "matmul": lambda T, x, p: x @ p,
    "outer": lambda T, x, p: T.outer(x[0], p[0]),
    "kron": lambda T, x, p: T.kron(x[:16, :16], p[:16, :16]),
    "histc": lambda T, x, p: T.histc(x.detach(), 50).sum() + x.sum(),
    "gather": lambda T, x, p: x.gather(1, T.arange(N).remainder(7).reshape(N, 1).expand(N, 16)),
    "scatter_add": lambda T, x, p: T.zeros(N, N).scatter_add(
        1, T.arange(N).remainder(7).reshape(N, 1).expand(N, 16), x[:, :16]
    ),
    "index_add": lambda T, x, p: T.zeros(N, N).index_add(0, T.arange(N).remainder(50), x),
    "index_put_acc": lambda T, x, p: T.zeros(N, N).index_put(
        (T.arange(N).remainder(50),), x, accumulate=True
    ),
    "masked_select": lambda T, x, p: x.masked_select(x > 0),
    "nonzero_idx": lambda T, x, p: x[(x > 0).nonzero(as_tuple=True)],
    "trace": lambda T, x, p: x.trace(),
    "clamp_min": lambda T, x, p: x.clamp_min(0),
    "hardtanh": lambda T, x, p: T.nn.functional.hardtanh(x),
    "relu6": lambda T, x, p: T.nn.functional.relu6(x),
    "logsigmoid": lambda T, x, p: T.nn.functional.logsigmoid(x),
    "softsign": lambda T, x, p: T.nn.functional.softsign(x),
    "glu": lambda T, x, p: T.nn.functional.glu(x),
    "lerp": lambda T, x, p: T.lerp(x, p, 0.3),
    "addcmul": lambda T, x, p: T.addcmul(x, x, p),
    "xlogy": lambda T, x, p: T.xlogy(p, p),
    "polar_abs": lambda T, x, p: T.atan(x),
}


def _step(T: Any, fn: Callable[..., Any], X: np.ndarray, P: np.ndarray) -> Callable[[], None]:
    T.manual_seed(0)
    x = T.tensor(X, requires_grad=True)
    p = T.tensor(P, requires_grad=True)

    def run() -> None:
        out = fn(T, x, p)
        if out.requires_grad:
            out.sum().backward()

    return run


def sweep(
    torch: Any, sg: Any, k: str = "", rounds: int = 3, calibrate: bool = True
) -> list[dict[str, Any]]:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((N, N)).astype(np.float32)
    P = (np.abs(rng.standard_normal((N, N))) + 0.5).astype(np.float32)
    records = []
    for name, fn in OPS.items():
        if k and k not in name:
            continue
        try:
            steps = (_step(torch, fn, X, P), _step(sg, fn, X, P))
            for s in steps:
                s()
        except Exception as e:
            records.append({"op": name, "error": f"{type(e).__name__}: {e}"})
            continue
        t = time.perf_counter()
        steps[0]()
        n = max(1, min(200, int(0.02 / max(time.perf_counter() - t, 1e-6)))) if calibrate else 1
        best = [float("inf"), float("inf")]
        for _ in range(rounds):
            for i, s in enumerate(steps):
                t = time.perf_counter()
                for _ in range(n):
                    s()
                best[i] = min(best[i], (time.perf_counter() - t) / n * 1e3)
        records.append(
            {"op": name, "torch_ms": best[0], "shadowgrad_ms": best[1], "ratio": best[1] / best[0]}
        )
    return records


def main(argv: list[str] | None = None) -> int:
    global N
    p = argparse.ArgumentParser(prog="python -m benchmarks.ops")
    p.add_argument("-k", default="")
    p.add_argument("--size", type=int, default=N)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    N = args.size
    import torch

    import shadowgrad as sg

    from .__main__ import _blas_threads

    torch.set_num_threads(1)
    _blas_threads(1)
    warnings.simplefilter("ignore")
    records = sweep(torch, sg, args.k)
    ok = sorted((r for r in records if "error" not in r), key=lambda r: -r["ratio"])
    for r in ok:
        print(
            f"{r['op']:<18} torch {r['torch_ms']:9.3f} ms  shadowgrad {r['shadowgrad_ms']:9.3f} ms"
            f"  ratio {r['ratio']:6.2f}"
        )
    for r in records:
        if "error" in r:
            print(f"{r['op']:<18} error: {r['error']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
