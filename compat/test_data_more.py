"""utils.data extras against torch: StackDataset, ChainDataset, WeightedRandomSampler,
get_worker_info."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad
import shadowgrad.utils.data

from .test_data import _plain

LIBS = [torch, shadowgrad]


def _same(prog):
    assert prog(shadowgrad) == prog(torch)


def _error(fn):
    got = []
    for lib in LIBS:
        with pytest.raises(Exception) as info:
            fn(lib)
        got.append((type(info.value).__name__, str(info.value)))
    assert got[0] == got[1]


def _range_stream(T, lo, hi):
    class Stream(T.utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(lo, hi))

        def __len__(self):
            return hi - lo

    return Stream()


@pytest.mark.parametrize("batch_size", [None, 1, 3])
@pytest.mark.parametrize("named", [False, True])
def test_stack_dataset_matches_torch(batch_size, named):
    def prog(T):
        a = T.utils.data.TensorDataset(T.arange(10.0).reshape(5, 2))
        b = [i * 10 for i in range(5)]
        c = T.utils.data.Subset(T.utils.data.TensorDataset(T.arange(8)), [7, 1, 3, 5, 0])
        ds = (
            T.utils.data.StackDataset(a=a, b=b, c=c)
            if named
            else T.utils.data.StackDataset(a, b, c)
        )
        dl = T.utils.data.DataLoader(ds, batch_size=batch_size)
        return len(ds), _plain(ds[2]), _plain(ds.__getitems__([4, 0])), [_plain(x) for x in dl]

    _same(prog)


def test_stack_dataset_errors():
    _error(lambda T: T.utils.data.StackDataset())
    _error(lambda T: T.utils.data.StackDataset([1, 2], b=[1, 2]))
    _error(lambda T: T.utils.data.StackDataset([1, 2], [1]))
    _error(lambda T: T.utils.data.StackDataset(a=[1, 2], b=[1]))


def test_chain_dataset_matches_torch():
    def prog(T):
        s1, s2 = _range_stream(T, 0, 3), _range_stream(T, 10, 12)
        chain = T.utils.data.ChainDataset([s1, s2])
        added = s1 + s2
        dl = T.utils.data.DataLoader(chain, batch_size=2)
        return (
            list(chain),
            len(chain),
            type(added).__name__,
            list(added),
            [_plain(b) for b in dl],
            type(T.utils.data.TensorDataset(T.zeros(2)).__add__([1])).__name__,
        )

    _same(prog)
    _error(lambda T: list(T.utils.data.ChainDataset([[1, 2]])))
    _error(lambda T: len(T.utils.data.ChainDataset([[1, 2]])))


def test_weighted_random_sampler():
    def prog(T):
        s = T.utils.data.WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 6)
        t = T.utils.data.WeightedRandomSampler(T.tensor([1.0, 0.0, 2.0]), 2, replacement=False)
        drawn = list(s)
        distinct = list(t)
        return (
            len(s),
            str(s.weights.dtype),
            s.weights.tolist(),
            s.replacement,
            set(drawn) <= {1, 3},
            len(drawn),
            all(isinstance(i, int) for i in drawn),
            sorted(distinct),
        )

    _same(prog)
    # A draw follows the weights: index 3 about three times as often as index 1.
    shadowgrad.manual_seed(0)
    draws = np.array(list(shadowgrad.utils.data.WeightedRandomSampler([0, 1, 0, 3], 4000)))
    assert set(np.unique(draws)) == {1, 3}
    assert 0.70 < (draws == 3).mean() < 0.80
    g1 = shadowgrad.Generator().manual_seed(3)
    g2 = shadowgrad.Generator().manual_seed(3)
    w = [1.0, 2.0, 3.0]
    assert list(shadowgrad.utils.data.WeightedRandomSampler(w, 20, generator=g1)) == list(
        shadowgrad.utils.data.WeightedRandomSampler(w, 20, generator=g2)
    )


def test_weighted_random_sampler_errors():
    W = lambda T: T.utils.data.WeightedRandomSampler  # noqa: E731
    for bad in (0, -1, True, 2.0):
        _error(lambda T, bad=bad: W(T)([1.0, 2.0], bad))
    _error(lambda T: W(T)([1.0, 2.0], 2, replacement=1))
    _error(lambda T: W(T)([[1.0, 2.0]], 2))


def test_get_worker_info_in_main_process():
    _same(lambda T: T.utils.data.get_worker_info())

    def prog(T):
        class Probe(T.utils.data.Dataset):
            def __getitem__(self, i):
                return T.utils.data.get_worker_info() is None

            def __len__(self):
                return 2

        return [_plain(b) for b in T.utils.data.DataLoader(Probe(), batch_size=None)]

    _same(prog)
