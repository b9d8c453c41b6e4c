"""Op database entries for the first ops of the engine core."""

from __future__ import annotations

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg


def _rng(dtype: str) -> np.random.Generator:
    return np.random.default_rng(0)


def unary_samples(low: float = -2.0, high: float = 2.0, kinks: tuple[float, ...] = ()):
    def samples(dtype: str) -> list[Sample]:
        r = _rng(dtype)
        out = [
            Sample((tensor_arg(r.uniform(low, high, (3, 4))),), name="2-d"),
            Sample((tensor_arg(np.array(r.uniform(low, high))),), name="0-d"),
            Sample((tensor_arg(r.uniform(low, high, (0, 3))),), name="empty"),
            Sample(
                (tensor_arg(r.uniform(low, high, (4, 3)), layout="transposed"),),
                name="non-contiguous",
            ),
        ]
        if kinks:
            out.append(Sample((tensor_arg(np.array(kinks)),), name="kinks"))
        return out

    return samples


def binary_samples(low: float = -2.0, high: float = 2.0):
    def samples(dtype: str) -> list[Sample]:
        r = _rng(dtype)
        return [
            Sample(
                (
                    tensor_arg(r.uniform(low, high, (3, 4))),
                    tensor_arg(r.uniform(low, high, (3, 4))),
                ),
                name="same shape",
            ),
            Sample(
                (
                    tensor_arg(r.uniform(low, high, (3, 1))),
                    tensor_arg(r.uniform(low, high, (1, 4))),
                ),
                name="broadcast",
            ),
            Sample(
                (
                    tensor_arg(r.uniform(low, high, (2, 3))),
                    tensor_arg(np.array(r.uniform(low, high))),
                ),
                name="0-d other",
            ),
            Sample((tensor_arg(r.uniform(low, high, (2, 3))), 1.5), name="python scalar"),
            Sample(
                (
                    tensor_arg(r.uniform(low, high, (2, 3))),
                    tensor_arg(r.uniform(low, high, (2, 3)), requires_grad=False),
                ),
                name="other without grad",
            ),
        ]

    return samples


register(
    OpEntry("add", lambda T, a, b: T.add(a, b), binary_samples()),
    OpEntry("sub", lambda T, a, b: T.sub(a, b), binary_samples()),
    OpEntry("mul", lambda T, a, b: T.mul(a, b), binary_samples()),
    OpEntry("div", lambda T, a, b: T.div(a, b), binary_samples(0.5, 2.0)),
    OpEntry("pow", lambda T, a, b: T.pow(a, b), binary_samples(0.5, 2.0)),
    OpEntry("exp", lambda T, a: T.exp(a), unary_samples()),
    OpEntry("log", lambda T, a: T.log(a), unary_samples(0.1, 3.0)),
    OpEntry("tanh", lambda T, a: T.tanh(a), unary_samples()),
    OpEntry("sigmoid", lambda T, a: T.sigmoid(a), unary_samples()),
    OpEntry("relu", lambda T, a: T.relu(a), unary_samples(kinks=(0.0, -1.0, 1.0))),
    OpEntry("neg", lambda T, a: T.neg(a), unary_samples()),
    OpEntry("reciprocal", lambda T, a: T.reciprocal(a), unary_samples(0.5, 2.0)),
)
