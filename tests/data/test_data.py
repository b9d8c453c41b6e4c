"""utils.data without torch: batching, collation, shuffling, splitting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.utils.data import (
    DataLoader,
    Dataset,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)


@given(n=st.integers(1, 30), bs=st.integers(1, 7), drop_last=st.booleans())
def test_batches_cover_the_dataset_in_order(n, bs, drop_last):
    ds = TensorDataset(sg.arange(n), sg.arange(n) * 2)
    dl = DataLoader(ds, batch_size=bs, drop_last=drop_last)
    batches = list(dl)
    assert len(batches) == len(dl) == (n // bs if drop_last else -(-n // bs))
    flat = [i for x, _ in batches for i in x.tolist()]
    assert flat == list(range(len(flat)))
    assert all(len(x) == bs for x, _ in batches[: n // bs])


@given(n=st.integers(1, 30), seed=st.integers(0, 100))
def test_shuffle_is_a_permutation_fixed_by_the_generator(n, seed):
    ds = TensorDataset(sg.arange(n))

    def order():
        g = sg.Generator().manual_seed(seed)
        return [
            i
            for (x,) in DataLoader(ds, batch_size=4, shuffle=True, generator=g)
            for i in x.tolist()
        ]

    a = order()
    assert sorted(a) == list(range(n)) and order() == a


def test_default_collate_structures():
    batch = [({"a": 1, "b": [1.5, sg.ones(2)]}, "x"), ({"a": 2, "b": [2.5, sg.zeros(2)]}, "y")]
    out = default_collate(batch)
    assert isinstance(out, list) and list(out[1]) == ["x", "y"]
    assert out[0]["a"].tolist() == [1, 2] and out[0]["a"].dtype is sg.int64
    assert out[0]["b"][0].dtype is sg.float64
    assert out[0]["b"][1].tolist() == [[1.0, 1.0], [0.0, 0.0]]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])


def test_custom_dataset_and_subset_and_random_split():
    class Squares(Dataset):
        def __len__(self):
            return 10

        def __getitem__(self, i):
            return i * i

    sub = Subset(Squares(), [3, 1])
    assert [sub[0], sub[1]] == [9, 1]
    parts = random_split(Squares(), [0.5, 0.5], generator=sg.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [5, 5]
    assert sorted(parts[0].indices + parts[1].indices) == list(range(10))
    assert next(iter(DataLoader(Squares(), batch_size=3))).tolist() == [0, 1, 4]
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(Squares(), [3, 3])
