"""The benchmark workloads, each written once against the torch API (T is torch or shadowgrad).

Each workload is a factory: `make(T)` builds inputs and models once (untimed) and returns the
step function that is timed (forward plus backward, and an optimizer step where the workload
has one). Models are built from the same numpy weights in both libraries.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

Step = Callable[[], Any]


def _chain(T: Any, n: int, length: int = 200) -> Step:
    x0 = np.linspace(-1, 1, n, dtype=np.float32)

    def step() -> None:
        x = T.tensor(x0, requires_grad=True)
        y = x
        for i in range(length):
            y = y * 1.0001 + 0.1
            if i % 50 == 0:
                y = y.tanh()
            if i % 70 == 0:
                y = y.exp() * 0.5
        y.sum().backward()

    return step


def w1_per_op(T: Any) -> Step:
    """W1: 200 elementwise ops on 8 elements, then sum().backward()."""
    return _chain(T, 8)


def w2_bandwidth(T: Any) -> Step:
    """W2: the W1 chain on 1,000,000 elements."""
    return _chain(T, 1_000_000)


def _linear_weights(sizes: list[int], seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        bound = 1 / np.sqrt(fan_in)
        w = rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32)
        b = rng.uniform(-bound, bound, fan_out).astype(np.float32)
        out.append((w, b))
    return out


def _mlp(T: Any, sizes: list[int]) -> Any:
    layers: list[Any] = []
    for i, (w, b) in enumerate(_linear_weights(sizes)):
        lin = T.nn.Linear(w.shape[1], w.shape[0])
        with T.no_grad():
            lin.weight.copy_(T.tensor(w))
            lin.bias.copy_(T.tensor(b))
        layers.append(lin)
        if i < len(sizes) - 2:
            layers.append(T.nn.ReLU())
    return T.nn.Sequential(*layers)


def _mlp_step(T: Any, sizes: list[int], batch: int) -> Step:
    rng = np.random.default_rng(1)
    model = _mlp(T, sizes)
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    x = T.tensor(rng.standard_normal((batch, sizes[0])).astype(np.float32))
    y = T.tensor(rng.integers(0, sizes[-1], batch))

    def step() -> None:
        opt.zero_grad()
        loss = T.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

    return step


def w3_small_mlp(T: Any) -> Step:
    """W3: batch 64, 784-256-10, ReLU, cross_entropy, SGD step."""
    return _mlp_step(T, [784, 256, 10], 64)


def w4_large_mlp(T: Any) -> Step:
    """W4: batch 512, 1024-2048-2048-10."""
    return _mlp_step(T, [1024, 2048, 2048, 10], 512)


def w5_depth(T: Any, n: int = 1_000_000) -> Step:
    """W5: a chain of 1,000,000 scalar ops, then backward."""

    def step() -> None:
        x = T.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.0000001
        y.backward()

    return step


def w7_conv(T: Any) -> Step:
    """W7: batch 32 of 1x28x28, Conv2d(1,16,3) -> ReLU -> MaxPool2d(2) -> Linear -> CE."""
    rng = np.random.default_rng(2)
    conv = T.nn.Conv2d(1, 16, 3)
    lin = T.nn.Linear(16 * 13 * 13, 10)
    with T.no_grad():
        conv.weight.copy_(T.tensor(rng.uniform(-0.3, 0.3, (16, 1, 3, 3)).astype(np.float32)))
        conv.bias.copy_(T.tensor(rng.uniform(-0.3, 0.3, 16).astype(np.float32)))
        lin.weight.copy_(T.tensor(rng.uniform(-0.02, 0.02, (10, 2704)).astype(np.float32)))
        lin.bias.copy_(T.tensor(rng.uniform(-0.02, 0.02, 10).astype(np.float32)))
    params = [*conv.parameters(), *lin.parameters()]
    opt = T.optim.SGD(params, lr=0.01)
    x = T.tensor(rng.standard_normal((32, 1, 28, 28)).astype(np.float32))
    y = T.tensor(rng.integers(0, 10, 32))
    F = T.nn.functional

    def step() -> None:
        opt.zero_grad()
        h = F.max_pool2d(F.relu(conv(x)), 2)
        loss = F.cross_entropy(lin(h.flatten(1)), y)
        loss.backward()
        opt.step()

    return step


def w8_inference(T: Any) -> Step:
    """W8: W4's forward under no_grad."""
    rng = np.random.default_rng(3)
    model = _mlp(T, [1024, 2048, 2048, 10])
    x = T.tensor(rng.standard_normal((512, 1024)).astype(np.float32))

    def step() -> None:
        with T.no_grad():
            model(x)

    return step


WORKLOADS: dict[str, Callable[[Any], Step]] = {
    "W1 per-op overhead (200 ops x 8 elements)": w1_per_op,
    "W2 bandwidth (200 ops x 1e6 elements)": w2_bandwidth,
    "W3 small MLP step (784-256-10, batch 64)": w3_small_mlp,
    "W4 large MLP step (1024-2048-2048-10, batch 512)": w4_large_mlp,
    "W5 depth (1e6 scalar ops)": w5_depth,
    "W7 conv step (batch 32, 1x28x28)": w7_conv,
    "W8 no-grad inference (W4 forward)": w8_inference,
}
