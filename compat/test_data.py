"""utils.data against torch: batching, collation, lengths, shuffling as a permutation."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest
import torch

import shadowgrad
import shadowgrad.utils.data


def _plain(x):
    """Batches as nested Python values with dtype names, comparable across libraries."""
    if hasattr(x, "dtype") and hasattr(x, "tolist"):
        return ("T", str(x.dtype), tuple(x.shape), x.tolist())
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_plain(v) for v in x])
    return x


Point = namedtuple("Point", ["x", "y"])

DATASETS = [
    lambda T: T.utils.data.TensorDataset(T.arange(20.0).reshape(10, 2), T.arange(10)),
    lambda T: [{"a": i, "b": float(i) / 2, "c": T.ones(2) * i, "s": str(i)} for i in range(7)],
    lambda T: [(i, [i, i + 1], np.array([i, 2 * i], dtype=np.float32)) for i in range(5)],
    lambda T: [Point(T.tensor(i), True) for i in range(4)],
    lambda T: T.utils.data.Subset(T.utils.data.TensorDataset(T.arange(10)), [9, 2, 5, 1]),
]


@pytest.mark.parametrize("make", DATASETS)
@pytest.mark.parametrize(
    ("batch_size", "drop_last"), [(1, False), (3, False), (3, True), (None, False)]
)
def test_dataloader_batches_match_torch(make, batch_size, drop_last):
    def prog(T):
        dl = T.utils.data.DataLoader(make(T), batch_size=batch_size, drop_last=drop_last)
        return len(dl), [_plain(b) for b in dl]

    assert prog(shadowgrad) == prog(torch)


def test_shuffle_yields_a_permutation_and_follows_the_generator():
    ds = shadowgrad.utils.data.TensorDataset(shadowgrad.arange(23))

    def order(gen):
        dl = shadowgrad.utils.data.DataLoader(ds, batch_size=4, shuffle=True, generator=gen)
        return [i for (b,) in dl for i in b.tolist()]

    a = order(shadowgrad.Generator().manual_seed(1))
    assert sorted(a) == list(range(23)) and a != list(range(23))
    assert order(shadowgrad.Generator().manual_seed(1)) == a
    shadowgrad.manual_seed(5)
    b = order(None)
    shadowgrad.manual_seed(5)
    assert order(None) == b


def test_dataloader_errors_match_torch():
    def err(fn):
        try:
            fn()
        except Exception as e:
            return type(e).__name__, str(e)
        return None

    cases = [
        lambda T: T.utils.data.DataLoader([1, 2], batch_size=0),
        lambda T: T.utils.data.DataLoader([1, 2], batch_size=None, drop_last=True),
        lambda T: T.utils.data.DataLoader(
            [1, 2], shuffle=True, sampler=T.utils.data.SequentialSampler([1, 2])
        ),
        lambda T: list(T.utils.data.DataLoader([[1, 2], [3]], batch_size=2)),
        lambda T: list(T.utils.data.DataLoader([object(), object()], batch_size=2)),
        lambda T: T.utils.data.TensorDataset(T.ones(2), T.ones(3)),
        lambda T: T.utils.data.random_split(range(5), [2, 2]),
    ]
    for c in cases:
        expected = err(lambda c=c: c(torch))
        assert expected is not None
        got = err(lambda c=c: c(shadowgrad))
        assert got is not None and got[0] == expected[0]
        if "object" not in expected[1]:
            assert got == expected


def test_random_split_sizes_match_torch():
    for lengths in ([3, 7], [0.3, 0.7], [0.33, 0.33, 0.34], [1.0]):
        t = [len(s) for s in torch.utils.data.random_split(range(10), lengths)]
        s = [len(s) for s in shadowgrad.utils.data.random_split(range(10), lengths)]
        assert s == t
    parts = shadowgrad.utils.data.random_split(range(10), [4, 6])
    assert sorted(i for p in parts for i in p) == list(range(10))
