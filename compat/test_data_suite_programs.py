"""torch.utils.data against torch, from torch's own tests (test/test_dataloader.py,
test/test_data_utils) and the torch.utils.data docs: the datasets (TensorDataset, ConcatDataset,
Subset, StackDataset, ChainDataset, IterableDataset), the DataLoader's options (batch_size,
shuffle with a seeded generator or the default one, drop_last, batch_size=None, sampler and
batch_sampler exclusivity, collate_fn, pin_memory, timeout, lengths, iterating twice), the
samplers (exact indices from seeded generators), default_collate / default_convert over every
kind of sample (and the `_utils.collate` extension point the docs show), random_split, and the
exact errors and warnings for bad arguments. The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and on
shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import collections
import pickle
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _kinds(x: Any) -> Any:
    """The container types of a batch, recursively (the harness compares a namedtuple, a
    tuple and a list alike)."""
    if isinstance(x, dict):
        return (type(x).__name__, {k: _kinds(v) for k, v in x.items()})
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_kinds(v) for v in x])
    return type(x).__name__


def _all(dl: Any) -> Any:
    """Every batch of a loader, with its container types."""
    out = [b for b in dl]
    return out, [_kinds(b) for b in out]


def _it(T: Any, n: int, *, length: int | None = None, start: int = 0) -> Any:
    """An IterableDataset over range(start, start + n), with __len__ when `length` is given."""

    class Stream(T.utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(start, start + n))

        def __repr__(self):
            return "Stream"

    if length is not None:
        Stream.__len__ = lambda self: length  # type: ignore[method-assign]
    return Stream()


Pair = collections.namedtuple("Pair", ["a", "b"])


# --- TensorDataset -----------------------------------------------------------------------------


@program()
def prog_dls_tensor_dataset_index_forms(T: Any) -> Any:
    D = T.utils.data
    x = T.arange(12.0).reshape(6, 2)
    y = T.arange(6)
    ds = D.TensorDataset(x, y)
    return (
        len(ds),
        ds[0],
        ds[-1],
        ds[1:4],
        ds[[0, 5, 2]],
        ds[T.tensor([1, 3])],
        ds[T.tensor(2)],
        ds[y > 3],
        raises(lambda: ds[6]),
        raises(lambda: ds[-7]),
        type(ds.tensors).__name__,
    )


@program()
def prog_dls_tensor_dataset_construction_errors(T: Any) -> Any:
    D = T.utils.data
    return (
        raises(lambda: D.TensorDataset()),
        raises(lambda: D.TensorDataset(T.tensor(1.0))),
        raises(lambda: D.TensorDataset(T.ones(3), T.ones(2, 3))),
        raises(lambda: D.TensorDataset(T.ones(3), T.tensor(2.0))),
        len(D.TensorDataset(T.ones(3, 2), T.ones(3, 0), T.ones(3, 4, 5))),
        len(D.TensorDataset(T.empty(0, 4))),
    )


@program()
def prog_dls_tensor_dataset_keeps_views_and_grad(T: Any) -> Any:
    D = T.utils.data
    w = T.tensor(np.arange(8.0, dtype=np.float32).reshape(4, 2), requires_grad=True)
    x = w * 2
    ds = D.TensorDataset(x.t(), T.ones(2))
    a, b = ds[1]
    (a.sum() * 3).backward()
    batch = next(iter(D.DataLoader(D.TensorDataset(x), batch_size=3)))
    return a, a.grad_fn, b, w.grad, batch, batch[0].grad_fn, ds.tensors[0] is x.t()


@program()
def prog_dls_tensor_dataset_empty_loader(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.empty(0, 3), T.empty(0, dtype=T.long))
    dl = D.DataLoader(ds, batch_size=4)
    return (
        len(dl),
        list(dl),
        list(D.DataLoader(ds, batch_size=None)),
        raises(lambda: D.DataLoader(ds, shuffle=True)),
        raises(lambda: D.RandomSampler(ds)),
        list(D.SequentialSampler(ds)),
        len(D.BatchSampler(D.SequentialSampler(ds), 2, False)),
    )


# --- ConcatDataset -----------------------------------------------------------------------------


@program()
def prog_dls_concat_dataset_indexing(T: Any) -> Any:
    D = T.utils.data
    a = D.TensorDataset(T.arange(3))
    b = [10, 11]
    c = D.TensorDataset(T.arange(20, 24))
    cd = D.ConcatDataset([a, b, c])
    return (
        len(cd),
        cd.cumulative_sizes,
        [cd[i] for i in range(len(cd))],
        [cd[-i] for i in range(1, len(cd) + 1)],
        raises(lambda: cd[-10]),
        raises(lambda: cd[9]),
        raises(lambda: cd[100]),
        type(cd.datasets).__name__,
    )


@program()
def prog_dls_concat_dataset_with_empty_parts(T: Any) -> Any:
    D = T.utils.data
    cd = D.ConcatDataset([[], [1, 2], [], [], [3], []])
    return (
        len(cd),
        cd.cumulative_sizes,
        [cd[i] for i in range(3)],
        cd[-1],
        raises(lambda: cd[3]),
        list(D.DataLoader(cd, batch_size=2)),
    )


@program()
def prog_dls_concat_dataset_cumsum_and_deprecated_alias(T: Any) -> Any:
    D = T.utils.data
    cd = D.ConcatDataset([range(3), range(5)])
    return (
        D.ConcatDataset.cumsum([range(2), [], "abc"]),
        cd.cumsum([[1], [2, 3]]),
        cd.cummulative_sizes,
    )


@program()
def prog_dls_concat_dataset_errors(T: Any) -> Any:
    D = T.utils.data
    return (
        raises(lambda: D.ConcatDataset([])),
        raises(lambda: D.ConcatDataset(iter([]))),
        raises(lambda: D.ConcatDataset([range(2), _it(T, 2)])),
        raises(lambda: D.ConcatDataset([range(2), 5])),
        len(D.ConcatDataset(x for x in ([1], [2, 3]))),
    )


@program()
def prog_dls_dataset_add_operators(T: Any) -> Any:
    D = T.utils.data
    a = D.TensorDataset(T.arange(2))
    b = D.TensorDataset(T.arange(5, 8))
    s = a + b
    s3 = a + b + a
    it = _it(T, 2) + _it(T, 3, start=10)
    mixed = _it(T, 2) + a
    return (
        type(s).__name__,
        len(s),
        type(s3).__name__,
        len(s3.datasets),
        type(s3.datasets[0]).__name__,
        [s3[i] for i in range(len(s3))],
        type(it).__name__,
        list(it),
        type(mixed).__name__,
        raises(lambda: list(mixed)),
        raises(lambda: a + [1, 2]),  # noqa: RUF005 (Dataset + list)
        raises(lambda: [1, 2] + a),  # noqa: RUF005 (list + Dataset)
    )


# --- Dataset / IterableDataset bases -----------------------------------------------------------


@program()
def prog_dls_dataset_base_class_contract(T: Any) -> Any:
    D = T.utils.data
    d = D.Dataset()

    class NoIter(D.IterableDataset):
        pass

    return (
        raises(lambda: d[0]),
        raises(lambda: len(d)),
        raises(lambda: D.IterableDataset()),
        raises(lambda: NoIter()),
        hasattr(D.Dataset, "__len__"),
        hasattr(D.Dataset, "__getitems__"),
        hasattr(D.IterableDataset, "__len__"),
        issubclass(D.IterableDataset, D.Dataset),
        isinstance(_it(T, 1), collections.abc.Iterable),
        D.Dataset[int].__name__ if hasattr(D.Dataset[int], "__name__") else "alias",
    )


@program()
def prog_dls_iterable_dataset_without_len(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 5)
    dl = D.DataLoader(ds, batch_size=2)
    return (
        raises(lambda: len(ds)),
        raises(lambda: len(dl)),
        list(dl),
        list(D.DataLoader(ds, batch_size=2, drop_last=True)),
        list(D.DataLoader(ds, batch_size=None)),
        list(D.DataLoader(ds)),
    )


@program()
def prog_dls_iterable_dataset_len_reported(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 7, length=7)
    return (
        len(D.DataLoader(ds)),
        len(D.DataLoader(ds, batch_size=3)),
        len(D.DataLoader(ds, batch_size=3, drop_last=True)),
        len(D.DataLoader(ds, batch_size=None)),
        len(D.DataLoader(ds, batch_size=7)),
        len(D.DataLoader(ds, batch_size=8, drop_last=True)),
    )


@program()
def prog_dls_iterable_dataset_overlong_warns_each_extra_batch(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 6, length=3)
    dl = D.DataLoader(ds, batch_size=2)
    n = len(dl)
    got = list(dl)
    dl2 = D.DataLoader(ds, batch_size=None)
    n2 = len(dl2)
    got2 = list(dl2)
    # no len() taken: no warning
    got3 = list(D.DataLoader(ds, batch_size=1))
    return n, got, n2, got2, got3


@program()
def prog_dls_iterable_dataset_loader_samplers(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(_it(T, 4), batch_size=3)
    dl_none = D.DataLoader(_it(T, 4), batch_size=None)
    return (
        type(dl.sampler).__name__,
        type(dl.batch_sampler).__name__,
        dl.batch_sampler.batch_size if dl.batch_sampler is not None else None,
        type(dl.batch_sampler.sampler).__name__ if dl.batch_sampler is not None else None,
        type(dl_none.sampler).__name__,
        dl_none.batch_sampler,
        dl.collate_fn.__name__,
        dl_none.collate_fn.__name__,
        raises(lambda: len(dl.sampler)),
        raises(lambda: len(iter(dl))),
        raises(lambda: len(iter(dl_none))),
    )


@program()
def prog_dls_iterable_dataset_iter_is_called_eagerly(T: Any) -> Any:
    D = T.utils.data
    calls = []

    class Loud(D.IterableDataset):
        def __iter__(self):
            calls.append("iter")
            return iter([1, 2, 3])

    class Broken(D.IterableDataset):
        def __iter__(self):
            raise RuntimeError("no stream today")

    dl = D.DataLoader(Loud(), batch_size=2)
    it = iter(dl)
    before = list(calls)
    first = next(it)
    r = raises(lambda: iter(D.DataLoader(Broken())))
    return before, first, list(it), calls, r


@program()
def prog_dls_iterable_dataset_stops_after_exhaustion(T: Any) -> Any:
    D = T.utils.data

    class Restarting(D.IterableDataset):
        """An iterator that resumes after raising StopIteration once."""

        def __iter__(self):
            return self

        def __init__(self):
            self.i = 0

        def __next__(self):
            self.i += 1
            if self.i == 3:
                raise StopIteration
            if self.i > 6:
                raise StopIteration
            return self.i

    ds = Restarting()
    it = iter(D.DataLoader(ds, batch_size=None))
    a = list(it)
    b = raises(lambda: next(it))
    it2 = iter(D.DataLoader(ds, batch_size=2))
    return a, b, list(it2), ds.i


@program()
def prog_dls_chain_dataset(T: Any) -> Any:
    D = T.utils.data
    c = D.ChainDataset([_it(T, 2, length=2), _it(T, 3, length=3, start=10)])
    bad = D.ChainDataset([_it(T, 2), [1, 2]])
    nolen = D.ChainDataset([_it(T, 2, length=2), _it(T, 3)])
    gen_chain = D.ChainDataset(d for d in [_it(T, 2), _it(T, 1)])
    return (
        list(c),
        len(c),
        list(D.DataLoader(c, batch_size=2)),
        raises(lambda: list(bad)),
        raises(lambda: len(bad)),
        raises(lambda: len(nolen)),
        list(gen_chain),
        list(gen_chain),
        list(D.ChainDataset([])),
        len(D.ChainDataset([])),
    )


# --- Subset ------------------------------------------------------------------------------------


@program()
def prog_dls_subset_indexing(T: Any) -> Any:
    D = T.utils.data
    base = D.TensorDataset(T.arange(10) * 10)
    s = D.Subset(base, [7, 2, 9, 2])
    ss = D.Subset(s, [3, 0])
    return (
        len(s),
        s[0],
        s[-1],
        s[[0, 1]],
        ss[0],
        ss[1],
        s.__getitems__([1, 3]),
        ss.__getitems__([0, 1]),
        raises(lambda: s[4]),
        list(D.DataLoader(ss, batch_size=2)),
    )


@program()
def prog_dls_subset_slicing(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.tensor([1, 2, 3, 4, 5]))
    sub = D.Subset(ds, [0, 1, 2, 3, 4])
    subsub = D.Subset(sub, [4, 3, 2, 1, 0])
    s1, s2 = D.random_split(ds, [3, 2], generator=T.Generator().manual_seed(1))
    return (
        sub[:],
        sub[1:2],
        sub[0:-1:2],
        subsub[:],
        subsub[0:2],
        subsub[::-2],
        s1[:],
        s1[0:-1:2],
        s2[:],
        raises(lambda: D.Subset(list(range(10)), [5, 6])[:]),
    )


@program()
def prog_dls_stack_dataset_getitems_from_tensor_data(T: Any) -> Any:
    D = T.utils.data

    class GetItems(D.Dataset):
        def __init__(self, shorten=False):
            self.data = T.arange(4.0) * 10
            self.shorten = shorten

        def __getitem__(self, item):
            return self.data[item]

        def __getitems__(self, items):
            out = self.data[items]
            return out[:-1] if self.shorten else out

        def __len__(self):
            return 4

    src = D.StackDataset(GetItems(), [1, 2, 3, 4])
    named = D.StackDataset(t=GetItems(), l=[1, 2, 3, 4])
    return (
        src.__getitems__([0, 1, 2, 3]),
        named.__getitems__([3, 0]),
        raises(lambda: src.__getitems__([0, 4])),
        raises(lambda: D.StackDataset(GetItems(True), [1, 2, 3, 4]).__getitems__([0, 1, 2, 3])),
        list(D.DataLoader(src, batch_size=3)),
    )


@program()
def prog_dls_subset_index_types(T: Any) -> Any:
    D = T.utils.data
    data = list(range(100, 110))
    s_range = D.Subset(data, range(2, 8, 2))
    s_tensor = D.Subset(data, T.tensor([5, 1]))
    s_np = D.Subset(data, np.array([3, 4]))
    return (
        [s_range[i] for i in range(len(s_range))],
        s_tensor[0],
        s_tensor[1],
        len(s_tensor),
        s_np[1],
        list(D.DataLoader(s_tensor, batch_size=2)),
        list(D.DataLoader(s_np, batch_size=None)),
    )


@program()
def prog_dls_subset_subclass_must_override_getitems(T: Any) -> Any:
    D = T.utils.data

    class Doubled(D.Subset):
        def __getitem__(self, idx):
            return 2 * self.dataset[self.indices[idx]]

    class DoubledOk(D.Subset):
        def __getitem__(self, idx):
            return 2 * self.dataset[self.indices[idx]]

        def __getitems__(self, indices):
            return [self.__getitem__(i) for i in indices]

    class OnlyGetitems(D.Subset):
        def __getitems__(self, indices):
            return [-self.dataset[self.indices[i]] for i in indices]

    ok = DoubledOk([1, 2, 3], [2, 0])
    og = OnlyGetitems([1, 2, 3], [1])
    return (
        raises(lambda: Doubled([1, 2, 3], [0])),
        list(D.DataLoader(ok, batch_size=2)),
        og[0],
        list(D.DataLoader(og, batch_size=1)),
    )


@program()
def prog_dls_getitems_batched_fetch_is_used(T: Any) -> Any:
    D = T.utils.data
    calls = []

    class Batched(D.Dataset):
        def __getitem__(self, i):
            calls.append(("item", i))
            return i

        def __getitems__(self, idx):
            calls.append(("items", list(idx)))
            return [i * 100 for i in idx]

        def __len__(self):
            return 5

    class NoneGetitems(D.Dataset):
        __getitems__ = None

        def __getitem__(self, i):
            return -i

        def __len__(self):
            return 3

    a = list(D.DataLoader(Batched(), batch_size=2))
    b = list(D.DataLoader(Batched(), batch_size=None))
    c = list(D.DataLoader(D.Subset(Batched(), [4, 0, 1]), batch_size=3))
    d = list(D.DataLoader(NoneGetitems(), batch_size=2))
    return a, b, c, d, calls


@program()
def prog_dls_getitems_wrong_length_is_passed_through(T: Any) -> Any:
    D = T.utils.data

    class Short(D.Dataset):
        def __getitem__(self, i):
            return i

        def __getitems__(self, idx):
            return [idx[0]]

        def __len__(self):
            return 4

    st = D.StackDataset(Short(), list(range(4)))
    return (
        list(D.DataLoader(Short(), batch_size=3)),
        raises(lambda: list(D.DataLoader(st, batch_size=3))),
        raises(lambda: st.__getitems__([0, 1])),
        st[2],
    )


# --- StackDataset ------------------------------------------------------------------------------


@program()
def prog_dls_stack_dataset_tuple_and_dict(T: Any) -> Any:
    D = T.utils.data
    a = D.TensorDataset(T.arange(6.0).reshape(3, 2))
    b = ["x", "y", "z"]
    st = D.StackDataset(a, b)
    sd = D.StackDataset(img=a, label=b)
    return (
        st[1],
        _kinds(st[1]),
        sd[2],
        st.__getitems__([2, 0]),
        _kinds(st.__getitems__([2, 0])),
        sd.__getitems__([1]),
        _all(D.DataLoader(st, batch_size=2)),
        _all(D.DataLoader(sd, batch_size=2)),
        type(st.datasets).__name__,
        type(sd.datasets).__name__,
        len(sd),
    )


@program()
def prog_dls_stack_dataset_errors(T: Any) -> Any:
    D = T.utils.data
    return (
        raises(lambda: D.StackDataset()),
        raises(lambda: D.StackDataset([1], x=[2])),
        raises(lambda: D.StackDataset([1, 2], [3])),
        raises(lambda: D.StackDataset(x=[1, 2], y=[3])),
        raises(lambda: D.StackDataset(_it(T, 2))),
        raises(lambda: D.StackDataset(5)),
        len(D.StackDataset([], [])),
    )


# --- samplers ----------------------------------------------------------------------------------


@program()
def prog_dls_sequential_sampler(T: Any) -> Any:
    D = T.utils.data
    s = D.SequentialSampler([5, 6, 7])
    data = [1, 2]
    live = D.SequentialSampler(data)
    n0 = len(live)
    data.append(3)
    return list(s), len(s), n0, list(live), len(live), list(D.SequentialSampler(range(0)))


@program()
def prog_dls_random_sampler_seeded_exact(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(42)
    s = D.RandomSampler(range(10), generator=g)
    first = list(s)
    second = list(s)
    rep = list(D.RandomSampler(range(7), True, 70, generator=T.Generator().manual_seed(1)))
    more = list(D.RandomSampler(range(4), num_samples=11, generator=T.Generator().manual_seed(2)))
    fewer = list(D.RandomSampler(range(9), num_samples=3, generator=T.Generator().manual_seed(3)))
    return first, second, rep, more, fewer, len(s), g.initial_seed(), T.rand(2, generator=g)


@program()
def prog_dls_random_sampler_default_generator_exact(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(123)
    s = D.RandomSampler(list(range(12)))
    a = list(s)
    b = list(s)
    c = list(D.RandomSampler(range(5), replacement=True, num_samples=40))
    return a, b, c, T.rand(3)


@program()
def prog_dls_random_sampler_exact_counts_and_chunks(T: Any) -> Any:
    D = T.utils.data
    out = []
    for n, k in ((3, 32), (3, 33), (3, 64), (1, 5), (6, 31)):
        g = T.Generator().manual_seed(n * 100 + k)
        out.append(list(D.RandomSampler(range(n), True, k, g)))
    g = T.Generator().manual_seed(9)
    out.append(list(D.RandomSampler(range(1), generator=g)))
    return out


@program()
def prog_dls_random_sampler_arguments(T: Any) -> Any:
    D = T.utils.data
    s = D.RandomSampler(range(5), num_samples=True)
    return (
        raises(lambda: D.RandomSampler(range(3), replacement=1)),
        raises(lambda: D.RandomSampler(range(3), replacement=None)),
        raises(lambda: D.RandomSampler(range(3), num_samples=0)),
        raises(lambda: D.RandomSampler(range(3), num_samples=-2)),
        raises(lambda: D.RandomSampler(range(3), num_samples=2.0)),
        raises(lambda: D.RandomSampler(range(3), num_samples="3")),
        raises(lambda: D.RandomSampler([])),
        raises(lambda: D.RandomSampler([], replacement=True, num_samples=3)),
        s.num_samples,
        len(s),
        D.RandomSampler(range(4)).num_samples,
        D.RandomSampler(range(4)).replacement,
        D.RandomSampler(range(4)).generator,
    )


@program()
def prog_dls_random_sampler_num_samples_follows_data(T: Any) -> Any:
    D = T.utils.data
    data = [0, 1, 2]
    s = D.RandomSampler(data, generator=T.Generator().manual_seed(0))
    n0 = s.num_samples
    data.extend([3, 4])
    return n0, s.num_samples, len(s), list(s), raises(lambda: setattr(s, "num_samples", 2))


@program()
def prog_dls_subset_random_sampler(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(5)
    s = D.SubsetRandomSampler([10, 20, 30, 40, 50], generator=g)
    a, b = list(s), list(s)
    T.manual_seed(8)
    c = list(D.SubsetRandomSampler(range(3, 9)))
    t = list(D.SubsetRandomSampler(T.tensor([7, 8, 9]), generator=T.Generator().manual_seed(1)))
    return a, b, c, t, len(s), list(D.SubsetRandomSampler([])), T.rand(2)


@program()
def prog_dls_weighted_sampler_exact(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(3)
    w = D.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 10, generator=g)
    a = list(w)
    b = list(D.WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, False, g))
    T.manual_seed(11)
    c = list(D.WeightedRandomSampler(T.tensor([1.0, 0.0, 2.0]), 7))
    d = list(D.WeightedRandomSampler(np.array([3, 1, 1]), 2, replacement=False))
    return a, b, c, d, w.weights, len(w), w.num_samples, w.replacement


@program()
def prog_dls_weighted_sampler_weights_conversion(T: Any) -> Any:
    D = T.utils.data
    t = T.tensor([1.0, 2.0], requires_grad=True)
    return (
        D.WeightedRandomSampler([1, 2, 3], 1).weights,
        D.WeightedRandomSampler((0.5, True), 1).weights,
        D.WeightedRandomSampler(T.tensor([1, 2], dtype=T.int32), 1).weights,
        raises(lambda: D.WeightedRandomSampler(t, 1).weights),
        D.WeightedRandomSampler(t.detach(), 1).weights,
        raises(lambda: D.WeightedRandomSampler(2.0, 1)),
        raises(lambda: D.WeightedRandomSampler([], 1)),
        raises(lambda: D.WeightedRandomSampler([[1.0], [2.0]], 1)),
        raises(lambda: D.WeightedRandomSampler(["a"], 1)),
    )


@program()
def prog_dls_weighted_sampler_argument_errors(T: Any) -> Any:
    D = T.utils.data
    return (
        raises(lambda: D.WeightedRandomSampler([1.0], 0)),
        raises(lambda: D.WeightedRandomSampler([1.0], True)),
        raises(lambda: D.WeightedRandomSampler([1.0], 1.0)),
        raises(lambda: D.WeightedRandomSampler([1.0], None)),
        raises(lambda: D.WeightedRandomSampler([1.0], -1)),
        raises(lambda: D.WeightedRandomSampler([1.0], 1, replacement="yes")),
        raises(lambda: D.WeightedRandomSampler([1.0], 1, replacement=1)),
    )


@program()
def prog_dls_weighted_sampler_multinomial_errors_when_iterated(T: Any) -> Any:
    D = T.utils.data
    return (
        raises(lambda: list(D.WeightedRandomSampler([1.0, 2.0], 3, replacement=False))),
        raises(lambda: list(D.WeightedRandomSampler([1.0, -2.0], 1))),
        raises(lambda: list(D.WeightedRandomSampler([0.0, 0.0], 1))),
        raises(lambda: list(D.WeightedRandomSampler([float("nan"), 1.0], 1))),
        raises(lambda: list(D.WeightedRandomSampler([float("inf"), 1.0], 1))),
        raises(lambda: list(D.WeightedRandomSampler([], 1))),
        raises(
            lambda: list(
                D.WeightedRandomSampler([1.0, 0.0, 2.0], 3, False, T.Generator().manual_seed(0))
            )
        ),
        list(D.WeightedRandomSampler([1.0, 0.0, 2.0], 2, False, T.Generator().manual_seed(0))),
    )


@program()
def prog_dls_batch_sampler_iteration(T: Any) -> Any:
    D = T.utils.data
    out = []
    for n in (0, 1, 5, 6, 7):
        for bs in (1, 3, 6, 10):
            for drop in (False, True):
                b = D.BatchSampler(range(n), bs, drop)
                out.append((n, bs, drop, list(b), len(b)))
    return out


@program()
def prog_dls_batch_sampler_arguments(T: Any) -> Any:
    D = T.utils.data
    return (
        raises(lambda: D.BatchSampler(range(3), 0, False)),
        raises(lambda: D.BatchSampler(range(3), -1, False)),
        raises(lambda: D.BatchSampler(range(3), True, False)),
        raises(lambda: D.BatchSampler(range(3), 2.0, False)),
        raises(lambda: D.BatchSampler(range(3), None, False)),
        raises(lambda: D.BatchSampler(range(3), 2, None)),
        raises(lambda: D.BatchSampler(range(3), 2, 0)),
        raises(lambda: D.BatchSampler(range(3), 2, "True")),
        raises(lambda: D.BatchSampler(range(3), 2)),
        D.BatchSampler(range(3), batch_size=2, drop_last=True).batch_size,
    )


@program()
def prog_dls_batch_sampler_over_iterables(T: Any) -> Any:
    D = T.utils.data

    def gen():
        yield from (4, 1, 3, 0, 2)

    b = D.BatchSampler(gen(), 2, False)
    once = list(b)
    twice = list(b)
    tb = list(D.BatchSampler(T.tensor([3, 1, 2]), 2, False))
    rs = D.BatchSampler(D.RandomSampler(range(7), generator=T.Generator().manual_seed(4)), 3, True)
    return (
        once,
        twice,
        raises(lambda: len(b)),
        tb,
        list(rs),
        len(rs),
        list(D.BatchSampler("abcde", 2, False)),
        list(D.BatchSampler({3: "a", 1: "b"}, 5, False)),
    )


@program()
def prog_dls_samplers_interleaved_iterators_reseeded(T: Any) -> Any:
    D = T.utils.data
    weights = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    ds = list(range(8))
    out = []
    for sampler in (
        D.RandomSampler(ds, num_samples=5, replacement=True),
        D.RandomSampler(ds, replacement=False),
        D.WeightedRandomSampler(weights, num_samples=5, replacement=True),
        D.WeightedRandomSampler(weights, num_samples=5, replacement=False),
        D.SubsetRandomSampler(range(10)),
    ):
        T.manual_seed(0)
        l1 = list(sampler) + list(sampler)
        its = (iter(sampler), iter(sampler))
        ls = ([], [])
        for idx in range(len(sampler)):
            for i in range(2):
                if idx == 0:
                    T.manual_seed(0)
                ls[i].append(next(its[i]))
        out.append((l1, ls))
    return out


@program()
def prog_dls_sampler_base_and_subclasses(T: Any) -> Any:
    D = T.utils.data

    class Evens(D.Sampler[int]):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(0, self.n, 2))

        def __len__(self):
            return (self.n + 1) // 2

    class NoLen(D.Sampler):
        def __iter__(self):
            yield from (2, 0)

    ds = list("abcdef")
    return (
        raises(lambda: iter(D.Sampler())),
        raises(lambda: len(D.Sampler())),
        raises(lambda: D.Sampler(ds)),
        list(D.DataLoader(ds, sampler=Evens(6), batch_size=2)),
        len(D.DataLoader(ds, sampler=Evens(5), batch_size=2)),
        list(D.DataLoader(ds, sampler=NoLen(), batch_size=None)),
        raises(lambda: len(D.DataLoader(ds, sampler=NoLen()))),
        D.Sampler[int] is not None,
    )


# --- DataLoader: batching ----------------------------------------------------------------------


@program()
def prog_dls_loader_lengths_sweep(T: Any) -> Any:
    D = T.utils.data
    out = []
    for n in (0, 1, 4, 5, 9):
        ds = D.TensorDataset(T.arange(n))
        for bs in (1, 2, 5, None):
            for drop in (False, True) if bs is not None else (False,):
                dl = D.DataLoader(ds, batch_size=bs, drop_last=drop)
                batches = list(dl)
                out.append((n, bs, drop, len(dl), len(batches), [b[0].shape for b in batches]))
    return out


@program()
def prog_dls_loader_over_python_lists(T: Any) -> Any:
    D = T.utils.data
    return (
        _all(D.DataLoader([1, 2, 3, 4, 5], batch_size=2)),
        _all(D.DataLoader([1.5, 2.5, 3.0], batch_size=2)),
        _all(D.DataLoader([True, False, True], batch_size=3)),
        _all(D.DataLoader(["a", "bb", "c"], batch_size=2)),
        _all(D.DataLoader([(1, "x"), (2, "y")], batch_size=2)),
        _all(D.DataLoader([[1, 2], [3, 4], [5, 6]], batch_size=2)),
        _all(D.DataLoader([{"k": 1}, {"k": 2}], batch_size=2)),
        _all(D.DataLoader(range(5), batch_size=3)),
        _all(D.DataLoader("hello", batch_size=2)),
    )


@program()
def prog_dls_loader_batch_size_none_converts(T: Any) -> Any:
    D = T.utils.data
    data = [
        np.array([1.0, 2.0], dtype=np.float32),
        (np.int64(3), "s"),
        {"a": np.zeros(2, dtype=np.uint8), "b": [np.float16(1.5)]},
        Pair(np.bool_(True), 4),
        5,
        T.ones(2),
    ]
    dl = D.DataLoader(data, batch_size=None)
    return _all(dl), len(dl), dl.collate_fn.__name__, dl.batch_sampler, type(dl.sampler).__name__


@program()
def prog_dls_loader_over_tensor_directly(T: Any) -> Any:
    D = T.utils.data
    x = T.arange(10.0).reshape(5, 2)
    return (
        list(D.DataLoader(x, batch_size=2)),
        list(D.DataLoader(x, batch_size=None)),
        list(D.DataLoader(T.arange(3), batch_size=2)),
        len(D.DataLoader(x, batch_size=4)),
        raises(lambda: list(D.DataLoader(T.tensor(3.0), batch_size=2))),
    )


@program()
def prog_dls_loader_iterate_twice_and_interleaved(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(list(range(7)), batch_size=3)
    a, b = list(dl), list(dl)
    i1, i2 = iter(dl), iter(dl)
    inter = [next(i1), next(i2), next(i1), next(i1), next(i2)]
    return a, b, inter, raises(lambda: next(i1)), len(i2), type(i2).__name__


@program()
def prog_dls_loader_attributes(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(6))
    dl = D.DataLoader(ds, batch_size=4, drop_last=True)
    dn = D.DataLoader(ds, batch_size=None, shuffle=True)
    return (
        dl.batch_size,
        dl.drop_last,
        dl.num_workers,
        dl.pin_memory,
        dl.timeout,
        dl.worker_init_fn,
        dl.prefetch_factor,
        dl.persistent_workers,
        dl.pin_memory_device,
        dl.in_order,
        dl.generator,
        dl.multiprocessing_context,
        type(dl.sampler).__name__,
        type(dl.batch_sampler).__name__,
        dl.batch_sampler.drop_last,
        dl.batch_sampler.sampler is dl.sampler,
        dl.collate_fn.__name__,
        dl.dataset is ds,
        type(dn.sampler).__name__,
        dn.batch_sampler,
        dn.batch_size,
        dn.collate_fn.__name__,
        dn.sampler.generator,
    )


@program()
def prog_dls_loader_setattr_after_init(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(list(range(4)), batch_size=2)
    out = []
    for name, val in (
        ("batch_size", 3),
        ("batch_sampler", None),
        ("sampler", None),
        ("drop_last", True),
        ("dataset", [1]),
        ("persistent_workers", True),
    ):
        out.append(raises(lambda n=name, v=val: setattr(dl, n, v)))
    dl.collate_fn = lambda b: sum(b)
    dl.num_workers = 0
    dl.pin_memory = False
    return out, list(dl), raises(lambda: delattr(dl, "batch_size")), "batch_size" in vars(dl)


@program()
def prog_dls_loader_iterator_attributes(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(7))
    T.manual_seed(3)
    dl = D.DataLoader(ds, batch_size=3, shuffle=True, drop_last=True)
    it = iter(dl)
    next(it)
    itn = iter(D.DataLoader(ds, batch_size=None))
    g = T.Generator().manual_seed(1)
    itw = iter(D.DataLoader(ds, batch_size=2, num_workers=2, generator=g))
    return (
        it._num_yielded,
        it._base_seed,
        it._dataset is ds,
        it._auto_collation,
        it._drop_last,
        it._index_sampler is dl.batch_sampler,
        it._timeout,
        it._persistent_workers,
        it._collate_fn is dl.collate_fn,
        it._dataset_kind,
        itn._auto_collation,
        itn._index_sampler is not None,
        itw._base_seed,
        itw._num_yielded,
        next(itw),
        itw._num_yielded,
    )


@program()
def prog_dls_loader_pickle_iterator_refused(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader([1, 2, 3], batch_size=2)
    it = iter(dl)
    return raises(lambda: pickle.dumps(it)), next(it)


@program()
def prog_dls_loader_timeout_without_workers(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader([1, 2], timeout=1.5)
    return dl.timeout, raises(lambda: iter(dl)), raises(lambda: list(dl)), raises(lambda: len(dl))


@program()
def prog_dls_loader_option_errors(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(4))
    return (
        raises(lambda: D.DataLoader(ds, num_workers=-1)),
        raises(lambda: D.DataLoader(ds, timeout=-0.5)),
        raises(lambda: D.DataLoader(ds, prefetch_factor=2)),
        raises(lambda: D.DataLoader(ds, prefetch_factor=0)),
        raises(lambda: D.DataLoader(ds, persistent_workers=True)),
        raises(lambda: D.DataLoader(ds, batch_size=0)),
        raises(lambda: D.DataLoader(ds, batch_size=-1)),
        raises(lambda: D.DataLoader(ds, batch_size=2.0)),
        raises(lambda: D.DataLoader(ds, batch_size=True)),
        raises(lambda: D.DataLoader(ds, drop_last=1)),
        raises(lambda: D.DataLoader(ds, batch_size=None, drop_last=True)),
        raises(lambda: D.DataLoader(ds, multiprocessing_context="spawn")),
        raises(lambda: D.DataLoader(ds, batch_size="2")),
    )


@program()
def prog_dls_loader_sampler_exclusivity(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(6))
    bs = D.BatchSampler(D.SequentialSampler(ds), 2, False)
    return (
        raises(lambda: D.DataLoader(ds, sampler=[0, 1], shuffle=True)),
        raises(lambda: D.DataLoader(ds, sampler=[0, 1], shuffle="yes")),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, batch_size=2)),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, batch_size=None)),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, shuffle=True)),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, sampler=[0])),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, drop_last=True)),
        raises(lambda: D.DataLoader(ds, batch_sampler=bs, sampler=[0], shuffle=True)),
        list(D.DataLoader(ds, batch_sampler=bs, shuffle=False, drop_last=False, batch_size=1)),
        list(D.DataLoader(ds, sampler=[5, 0], shuffle=False)),
        list(D.DataLoader(ds, sampler=[5, 0], shuffle=None, batch_size=None)),
        D.DataLoader(ds, batch_sampler=bs).batch_size,
        D.DataLoader(ds, batch_sampler=bs).drop_last,
        D.DataLoader(ds, batch_sampler=bs).sampler.__class__.__name__,
    )


@program()
def prog_dls_loader_iterable_dataset_option_errors(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 3)
    return (
        raises(lambda: D.DataLoader(ds, shuffle=True)),
        raises(lambda: D.DataLoader(ds, shuffle="no")),
        raises(lambda: D.DataLoader(ds, shuffle=0)),
        raises(lambda: D.DataLoader(ds, sampler=[0, 1])),
        raises(lambda: D.DataLoader(ds, batch_sampler=[[0]])),
        raises(lambda: D.DataLoader(ds, sampler=[0], shuffle=True)),
        raises(lambda: D.DataLoader(ds, batch_size=None, drop_last=True)),
        list(D.DataLoader(ds, shuffle=False)),
        list(D.DataLoader(ds, shuffle=None, batch_size=2, drop_last=True)),
    )


@program()
def prog_dls_loader_custom_batch_sampler_lists(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(10.0), T.arange(10))
    dl = D.DataLoader(ds, batch_sampler=[[9, 0], [3], [4, 4, 4]])
    gen = D.DataLoader(ds, batch_sampler=([i, i + 1] for i in range(0, 6, 3)))
    tensor_batches = D.DataLoader(ds, batch_sampler=[T.tensor([1, 2]), (5, 6)])
    return (
        list(dl),
        len(dl),
        list(gen),
        list(gen),
        raises(lambda: len(gen)),
        list(tensor_batches),
        dl.sampler.__class__.__name__,
    )


@program()
def prog_dls_loader_pin_memory_flag(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(4.0))
    dl = D.DataLoader(ds, batch_size=2, pin_memory=True)
    batches = list(dl)
    dev = D.DataLoader(ds, batch_size=2, pin_memory=True, pin_memory_device="cpu")
    unpinned = D.DataLoader(ds, batch_size=2, pin_memory_device="cuda")
    return (
        batches,
        [b[0].is_pinned() for b in batches],
        list(dev),
        list(unpinned),
        dl.pin_memory,
        dev.pin_memory_device,
    )


@program()
def prog_dls_loader_collate_fn_variants(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(5.0), T.arange(5))
    ident = D.DataLoader(ds, batch_size=2, collate_fn=lambda b: b)
    per_sample = D.DataLoader(ds, batch_size=None, collate_fn=lambda s: (s[1], s[0] * 2))
    conv = D.DataLoader(ds, batch_size=2, collate_fn=D.default_convert)
    coll = D.DataLoader(ds, batch_size=None, collate_fn=D.default_collate)
    return (
        _all(ident),
        _all(per_sample),
        _all(conv),
        raises(lambda: list(coll)),
        list(D.DataLoader([[1, 2], [3, 4]], batch_size=None, collate_fn=D.default_collate)),
    )


@program()
def prog_dls_loader_collate_error_surfaces(T: Any) -> Any:
    D = T.utils.data

    def bad(batch):
        raise KeyError("missing")

    return (
        raises(lambda: list(D.DataLoader([1, 2], collate_fn=bad))),
        raises(lambda: list(D.DataLoader([[1, 2], [3]], batch_size=2))),
        raises(lambda: list(D.DataLoader([T.ones(2), T.ones(3)], batch_size=2))),
        raises(lambda: list(D.DataLoader([None, None], batch_size=2))),
        list(D.DataLoader([None, None], batch_size=None)),
    )


@program()
def prog_dls_loader_dataset_index_errors(T: Any) -> Any:
    D = T.utils.data

    class Liar(D.Dataset):
        def __getitem__(self, i):
            if i >= 3:
                raise IndexError(f"index {i} out of range")
            return i

        def __len__(self):
            return 5

    dl = D.DataLoader(Liar(), batch_size=2)
    it = iter(dl)
    first = next(it)
    return first, raises(lambda: next(it)), raises(lambda: next(it)), len(dl)


# --- DataLoader: shuffling order ---------------------------------------------------------------


@program()
def prog_dls_shuffle_generator_exact_order(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(17))
    g = T.Generator().manual_seed(2024)
    dl = D.DataLoader(ds, batch_size=4, shuffle=True, generator=g)
    e1 = [b[0].tolist() for b in dl]
    e2 = [b[0].tolist() for b in dl]
    state_draw = T.randint(100, (3,), generator=g)
    return e1, e2, state_draw


@program()
def prog_dls_shuffle_default_generator_exact_order(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(13))
    T.manual_seed(0)
    dl = D.DataLoader(ds, batch_size=5, shuffle=True)
    e1 = list(dl)
    e2 = list(dl)
    after = T.rand(2)
    T.manual_seed(0)
    again = list(dl)
    return e1, e2, after, again


@program()
def prog_dls_shuffle_drop_last_and_batch_size_none(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(10))
    T.manual_seed(31)
    a = list(D.DataLoader(ds, batch_size=3, shuffle=True, drop_last=True))
    b = list(D.DataLoader(ds, batch_size=None, shuffle=True))
    g = T.Generator().manual_seed(31)
    c = list(D.DataLoader(ds, batch_size=None, shuffle=True, generator=g))
    return a, b, c, T.rand(1)


@program()
def prog_dls_unshuffled_loader_still_draws_a_seed(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(5)
    list(D.DataLoader(list(range(4)), batch_size=2))
    a = T.rand(2)
    T.manual_seed(5)
    it = iter(D.DataLoader(list(range(4)), batch_size=2))
    b = T.rand(2)
    T.manual_seed(5)
    D.DataLoader(list(range(4)), batch_size=2)
    c = T.rand(2)
    g = T.Generator().manual_seed(1)
    iter(D.DataLoader(list(range(4)), generator=g))
    return a, b, c, T.rand(1, generator=g), next(it)


@program()
def prog_dls_eager_custom_sampler_draw_order(T: Any) -> Any:
    D = T.utils.data

    class Perm(D.Sampler[int]):
        """A sampler whose __iter__ draws its permutation at once (not a generator)."""

        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(T.randperm(self.n).tolist())

        def __len__(self):
            return self.n

    class PermBatches(D.Sampler):
        def __iter__(self):
            p = T.randperm(6).tolist()
            return iter([p[:3], p[3:]])

        def __len__(self):
            return 2

    ds = list(range(100, 106))
    T.manual_seed(3)
    a = list(D.DataLoader(ds, sampler=Perm(6), batch_size=None))
    T.manual_seed(3)
    b = list(D.DataLoader(ds, batch_sampler=PermBatches()))
    T.manual_seed(3)
    c = list(D.DataLoader(ds, sampler=Perm(6), batch_size=4))
    T.manual_seed(3)
    d = list(D.DataLoader(ds, sampler=Perm(6), batch_size=4, num_workers=2))
    T.manual_seed(3)
    e = list(D.DataLoader(ds, batch_sampler=PermBatches(), num_workers=2))
    return a, b, c, d, e, T.rand(1)


@program()
def prog_dls_unseeded_generator_objects_are_deterministic(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator()
    return (
        g.initial_seed(),
        list(D.DataLoader(list(range(10)), batch_size=4, shuffle=True, generator=T.Generator())),
        [p.indices for p in D.random_split(range(8), [3, 5], generator=T.Generator())],
        list(D.RandomSampler(range(6), generator=T.Generator())),
        list(D.SubsetRandomSampler([5, 6, 7], generator=T.Generator())),
        list(D.WeightedRandomSampler([1.0, 2.0, 3.0], 4, generator=T.Generator())),
    )


@program()
def prog_dls_shuffle_with_replacement_sampler(T: Any) -> Any:
    D = T.utils.data
    ds = list("abcdefg")
    g = T.Generator().manual_seed(77)
    s = D.RandomSampler(ds, replacement=True, num_samples=45, generator=g)
    dl = D.DataLoader(ds, sampler=s, batch_size=8)
    return list(dl), len(dl)


@program()
def prog_dls_loader_generator_reused_across_loaders(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(10)
    a = D.DataLoader(list(range(6)), batch_size=6, shuffle=True, generator=g)
    b = D.DataLoader(list(range(6)), batch_size=6, shuffle=True, generator=g)
    return list(a), list(b), list(a), g.initial_seed()


# --- default_collate ---------------------------------------------------------------------------


@program()
def prog_dls_collate_tensors_dtypes_and_layouts(T: Any) -> Any:
    c = T.utils.data.default_collate
    x = T.arange(6.0).reshape(2, 3)
    return (
        c([T.tensor(1), T.tensor(2)]),
        c([T.ones(2, dtype=T.float16), T.zeros(2, dtype=T.float16)]),
        c([T.tensor([True]), T.tensor([False])]),
        c([T.tensor([1 + 2j]), T.tensor([3j])]),
        c([x.t(), x.t() + 1]),
        c([T.ones(3).expand(2, 3), T.zeros(2, 3)]),
        c([x[:, ::2], x[:, 1:]]),
        c([T.empty(0, 2), T.empty(0, 2)]),
        c([T.ones(2, dtype=T.uint8)]),
        c([T.tensor(1), T.tensor(2.5)]),
        c([T.ones(2, dtype=T.int32), T.ones(2, dtype=T.int64)]),
    )


@program()
def prog_dls_collate_tensors_keep_autograd(T: Any) -> Any:
    c = T.utils.data.default_collate
    w = T.tensor(np.arange(4.0, dtype=np.float32), requires_grad=True)
    out = c([w * 2, w.exp()])
    out.sum().backward()
    p = T.nn.Parameter(T.ones(2))
    op = c([p, p])
    return out, out.grad_fn, w.grad, op, op.grad_fn, type(op).__name__


@program()
def prog_dls_collate_tensor_errors(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        raises(lambda: c([T.ones(2), T.ones(3)])),
        raises(lambda: c([T.ones(2, 3), T.ones(3, 2)])),
        raises(lambda: c([T.ones(2), 1])),
        raises(lambda: c([T.ones(2), [1.0, 2.0]])),
        raises(lambda: c([T.ones(2), np.ones(2)])),
        raises(lambda: c([T.tensor(1.0), T.ones(1)])),
        raises(lambda: c([])),
        raises(lambda: c(())),
    )


@program()
def prog_dls_collate_numbers(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        c([1, 2, 3]),
        c([1.0, 2.0]),
        c([True, False]),
        c([1, 2.5]),
        c([2.5, 1]),
        c([True, 2]),
        c([1, True]),
        c([2**40, 1]),
        raises(lambda: c([2**70, 1])),
        raises(lambda: c([1, "a"])),
        raises(lambda: c([1 + 2j, 3j])),
        raises(lambda: c([None])),
        c([float("nan"), float("inf")]),
    )


@program()
def prog_dls_collate_number_subclasses(T: Any) -> Any:
    import enum

    c = T.utils.data.default_collate

    class Color(enum.IntEnum):
        RED = 1
        BLUE = 2

    class MyFloat(float):
        pass

    class MyStr(str):
        pass

    return (
        c([Color.RED, Color.BLUE]),
        c([MyFloat(1.5), MyFloat(2.0)]),
        c([MyStr("a"), MyStr("b")]),
        _kinds(c([MyStr("a"), MyStr("b")])),
        c([b"ab", b"c"]),
    )


@program()
def prog_dls_collate_numpy_arrays(T: Any) -> Any:
    c = T.utils.data.default_collate
    out = []
    for dt in (np.float32, np.float64, np.float16, np.int8, np.uint8, np.int32, np.int64):
        out.append(c([np.arange(3, dtype=dt), np.ones(3, dtype=dt)]))
    out.append(c([np.array([True, False]), np.array([False, False])]))
    out.append(c([np.array([1 + 1j], dtype=np.complex64)] * 2))
    out.append(c([np.array(2.5), np.array(1.0)]))
    out.append(c([np.arange(6.0).reshape(2, 3).T, np.zeros((3, 2))]))
    out.append(c([np.ones((0, 2)), np.ones((0, 2))]))
    return out


@program()
def prog_dls_collate_numpy_errors(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        raises(lambda: c([np.array(["a", "b"]), np.array(["c", "d"])])),
        raises(lambda: c([np.array([b"a"]), np.array([b"b"])])),
        raises(lambda: c([np.array([1, None], dtype=object)] * 2)),
        raises(lambda: c([np.array([{}], dtype=object)])),
        raises(lambda: c([np.ones(2), np.ones(3)])),
        raises(lambda: c([np.ones(2), np.ones(2, dtype=np.float32)])),
    )


@program()
def prog_dls_collate_numpy_unsigned_wide_arrays(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        c([np.ones(2, dtype=np.uint16)] * 2),
        c([np.uint32(7), np.uint32(8)]),
        T.utils.data.default_convert(np.arange(3, dtype=np.uint64)),
    )


@program()
def prog_dls_collate_given_an_ndarray_batch(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        c(np.array(["a", "b", "c"])),
        type(c(np.array(["a", "b", "c"]))).__name__,
        raises(lambda: c(np.array([[["a", "b", "c"]]]))),
        raises(lambda: c(np.array([object(), object()]))),
        raises(lambda: c(np.array([[[object(), object()]]]))),
        c(np.arange(3)),
        c(np.arange(6.0).reshape(3, 2)),
        raises(lambda: c(T.arange(4).reshape(2, 2))),
        c((1, 2, 3)),
    )


@program()
def prog_dls_numpy_scalar_datasets_legacy_types(T: Any) -> Any:
    D = T.utils.data

    class ScalarDataset(D.Dataset):
        def __init__(self, dtype):
            self.dtype = dtype

        def __getitem__(self, i):
            return self.dtype()

        def __len__(self):
            return 4

    dtypes = {
        np.float64: T.DoubleTensor,
        np.float32: T.FloatTensor,
        np.float16: T.HalfTensor,
        np.int64: T.LongTensor,
        np.int32: T.IntTensor,
        np.int16: T.ShortTensor,
        np.int8: T.CharTensor,
        np.uint8: T.ByteTensor,
    }
    out = []
    for dt, tt in dtypes.items():
        batch = next(iter(D.DataLoader(ScalarDataset(dt), batch_size=2)))
        out.append((batch, isinstance(batch, tt), batch.type()))
    shared = (
        T.zeros(1).is_shared(),
        D.default_collate([T.zeros(1)]).is_shared(),
        D.default_collate([np.zeros(1)]).is_shared(),
    )
    return out, shared


@program()
def prog_dls_collate_numpy_scalars(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        c([np.float32(1.5), np.float32(2)]),
        c([np.float64(1.5), np.float64(2)]),
        c([np.int32(1), np.int32(2)]),
        c([np.int64(1), np.int64(2)]),
        c([np.bool_(True), np.bool_(False)]),
        c([np.float16(0.5)]),
        c([np.uint8(200), np.uint8(3)]),
        c([np.float32(1.5), np.float64(2.0)]),
        c([np.int64(1), 2]),
        c([np.str_("a"), np.str_("b")]),
        _kinds(c([np.str_("a"), np.str_("b")])),
        c([np.bytes_(b"a"), np.bytes_(b"b")]),
        c([np.complex64(1j), np.complex64(2)]),
    )


@program()
def prog_dls_collate_strings_and_bytes(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        c(["a", "bc", ""]),
        _kinds(c(("a", "b"))),
        c([b"x", b"y"]),
        c([("a", 1), ("b", 2)]),
        c([["a", "b"], ["c", "d"]]),
        raises(lambda: c([["a"], ["c", "d"]])),
    )


@program()
def prog_dls_collate_mappings(T: Any) -> Any:
    c = T.utils.data.default_collate
    plain = c([{"a": 1, "b": T.ones(2)}, {"a": 2, "b": T.zeros(2)}])
    od = c([collections.OrderedDict(z=1.0, a=2.0), collections.OrderedDict(z=3.0, a=4.0)])
    nested = c([{"x": {"y": [1, 2]}}, {"x": {"y": [3, 4]}}])
    return (
        plain,
        _kinds(plain),
        od,
        _kinds(od),
        list(od.keys()),
        nested,
        _kinds(nested),
        raises(lambda: c([{"a": 1}, {"b": 2}])),
        c([{"a": 1}, {"a": 2, "b": 3}]),
        c([{}, {}]),
        c([{1: "x", (2, 3): "y"}, {1: "z", (2, 3): "w"}]),
    )


@program()
def prog_dls_collate_mapping_subclasses(T: Any) -> Any:
    c = T.utils.data.default_collate

    class Tagged(dict):
        def __init__(self, *args, tag="t", **kw):
            super().__init__(*args, **kw)
            self.tag = tag

    class RO(collections.abc.Mapping):
        def __init__(self, d):
            self._d = dict(d)

        def __getitem__(self, k):
            return self._d[k]

        def __iter__(self):
            return iter(self._d)

        def __len__(self):
            return len(self._d)

    dd = c([collections.defaultdict(int, a=1), collections.defaultdict(int, a=2)])
    tg = c([Tagged({"v": 1.0}, tag="first"), Tagged({"v": 2.0}, tag="second")])
    ro = c([RO({"q": 1}), RO({"q": 2})])
    return (
        type(dd).__name__,
        dd,
        dd.default_factory.__name__ if hasattr(dd, "default_factory") else None,
        type(tg).__name__,
        tg,
        getattr(tg, "tag", None),
        type(ro).__name__,
        dict(ro),
    )


@program()
def prog_dls_collate_namedtuples(T: Any) -> Any:
    c = T.utils.data.default_collate
    P3 = collections.namedtuple("P3", "x y z")
    a = c([Pair(1, 2.0), Pair(3, 4.0)])
    b = c([Pair(T.ones(2), "s"), Pair(T.zeros(2), "t")])
    n = c([Pair([1, 2], {"k": 1}), Pair([3, 4], {"k": 2})])
    return (
        type(a).__name__,
        a,
        type(b).__name__,
        b,
        _kinds(n),
        n,
        c([P3(1, 2, 3)]),
        raises(lambda: c([Pair(1, 2), (3, 4)])),
        raises(lambda: c([Pair(1, 2), P3(1, 2, 3)])),
    )


@program()
def prog_dls_collate_sequences(T: Any) -> Any:
    c = T.utils.data.default_collate

    class Tagged(list):
        tag = "cls"

    class Frozen(collections.abc.Sequence):
        def __init__(self, *v):
            self.v = v

        def __getitem__(self, i):
            return self.v[i]

        def __len__(self):
            return len(self.v)

    return (
        _kinds(c([[1, 2], [3, 4]])),
        c([[1, 2], [3, 4]]),
        _kinds(c([(1, 2), (3, 4)])),
        _kinds(c([[[1], [2]], [[3], [4]]])),
        c([[[1], [2]], [[3], [4]]]),
        _kinds(c([Tagged([1, 2]), Tagged([3, 4])])),
        _kinds(c([range(2), range(2)])),
        c([range(2), range(5, 7)]),
        _kinds(c([Frozen(1, 2), Frozen(3, 4)])),
        c([[], []]),
        _kinds(c([[], []])),
        c([(), ()]),
        raises(lambda: c([[1, 2], [3]])),
        raises(lambda: c([[1], [2, 3]])),
        raises(lambda: c([(1,), [2, 3]])),
        c([[1, 2], (3, 4)]),
    )


@program()
def prog_dls_collate_mixed_nested_sample(T: Any) -> Any:
    c = T.utils.data.default_collate
    samples = [
        {
            "img": np.full((2, 2), i, dtype=np.float32),
            "label": i,
            "meta": {"name": f"n{i}", "scale": 0.5 * i, "ids": [i, i + 1]},
            "pair": Pair(T.tensor([i]), i % 2 == 0),
        }
        for i in range(3)
    ]
    out = c(samples)
    return out, _kinds(out)


@program()
def prog_dls_collate_unsupported_types(T: Any) -> Any:
    c = T.utils.data.default_collate

    class Box:
        pass

    return (
        raises(lambda: c([Box(), Box()])),
        raises(lambda: c([object()])),
        raises(lambda: c([{1, 2}, {3, 4}])),
        raises(lambda: c([None, None])),
        raises(lambda: c([slice(1), slice(2)])),
        raises(lambda: c([[Box()], [Box()]])),
        raises(lambda: c([{"k": None}])),
    )


@program()
def prog_dls_collate_fn_map_extension(T: Any) -> Any:
    from importlib import import_module

    coll = import_module(T.__name__ + ".utils.data._utils.collate")

    def collate_tensor_fn(batch, *, collate_fn_map=None):
        return T.cat(batch, 0)

    class Box:
        def __init__(self, v):
            self.v = v

    def collate_box(batch, *, collate_fn_map=None):
        return sum(b.v for b in batch)

    custom = coll.collate(
        [{"t": T.ones(2), "b": Box(1)}, {"t": T.zeros(2), "b": Box(2)}],
        collate_fn_map={T.Tensor: collate_tensor_fn, Box: collate_box},
    )
    no_map = raises(lambda: coll.collate([1, 2]))
    empty_map = raises(lambda: coll.collate([1, 2], collate_fn_map={}))
    keys = sorted(
        str(k.__name__ if isinstance(k, type) else tuple(t.__name__ for t in k))
        for k in coll.default_collate_fn_map
    )
    ints = coll.collate_int_fn([1, 2])
    floats = coll.collate_float_fn([1, 2])
    strs = coll.collate_str_fn(["a"])
    return custom, no_map, empty_map, keys, ints, floats, strs, coll.default_collate_err_msg_format


@program()
def prog_dls_collate_fn_map_extended_default(T: Any) -> Any:
    from importlib import import_module

    coll = import_module(T.__name__ + ".utils.data._utils.collate")
    D = T.utils.data

    class Box:
        def __init__(self, v):
            self.v = v

    def collate_box(batch, *, collate_fn_map=None):
        return [b.v * 10 for b in batch]

    before = raises(lambda: D.default_collate([Box(1), Box(2)]))
    coll.default_collate_fn_map[Box] = collate_box
    try:
        after = D.default_collate([Box(1), Box(2)])
        loader = list(D.DataLoader([(Box(1), 1), (Box(2), 2)], batch_size=2))
    finally:
        del coll.default_collate_fn_map[Box]
    return before, after, loader, raises(lambda: D.default_collate([Box(1)]))


# --- default_convert ---------------------------------------------------------------------------


@program()
def prog_dls_default_convert(T: Any) -> Any:
    cv = T.utils.data.default_convert
    items = [
        np.arange(3, dtype=np.int16),
        np.float32(2.5),
        np.int64(4),
        np.bool_(False),
        (np.ones(2), "s"),
        Pair(np.zeros(1), 3),
        {"a": np.ones(1), "b": [np.float64(1.0), 2]},
        np.array(["a", "b"]),
        np.array([1, None], dtype=object),
        np.str_("z"),
        "plain",
        b"bytes",
        3,
        2.5,
        None,
        T.ones(2),
        [np.ones(1), (np.zeros(1),)],
    ]
    out = [cv(x) for x in items]
    return out, [_kinds(o) for o in out]


@program()
def prog_dls_default_convert_containers(T: Any) -> Any:
    cv = T.utils.data.default_convert

    class Tagged(list):
        tag = "cls"

    od = cv(collections.OrderedDict(b=np.ones(1), a=np.zeros(1)))
    dd = cv(collections.defaultdict(list, k=np.ones(1)))
    tg = cv(Tagged([np.ones(1)]))
    rg = cv(range(3))
    return (
        type(od).__name__,
        list(od),
        od,
        type(dd).__name__,
        dd,
        type(tg).__name__,
        tg,
        type(rg).__name__,
        rg,
        cv([]),
        cv(()),
        cv({}),
    )


@program()
def prog_dls_default_convert_shares_memory(T: Any) -> Any:
    cv = T.utils.data.default_convert
    a = np.arange(4.0)
    t = cv(a)
    a[0] = 100.0
    b = np.arange(3, dtype=np.float32)
    batch = T.utils.data.default_collate([b, b])
    b[1] = -1.0
    return t, batch, t.dtype, cv(np.float64(1.0)).shape


# --- random_split ------------------------------------------------------------------------------


@program()
def prog_dls_random_split_lengths_exact(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(42)
    parts = D.random_split(range(10), [3, 7], generator=g)
    parts2 = D.random_split(range(10), (5, 0, 5), generator=g)
    return (
        [p.indices for p in parts],
        [list(p) for p in parts],
        [p.indices for p in parts2],
        [type(p).__name__ for p in parts],
        parts[0].dataset == range(10),
        T.rand(1, generator=g),
    )


@program()
def prog_dls_random_split_fractions_exact(T: Any) -> Any:
    D = T.utils.data
    out = []
    for n, fr in (
        (10, [0.5, 0.5]),
        (10, [0.33, 0.33, 0.34]),
        (7, [0.5, 0.5]),
        (5, [0.2, 0.2, 0.2, 0.2, 0.2]),
        (11, [0.1, 0.9]),
        (3, [1.0]),
        (2, [0.25, 0.25, 0.25, 0.25]),
    ):
        g = T.Generator().manual_seed(n)
        out.append([p.indices for p in D.random_split(range(n), fr, generator=g)])
    return out


@program()
def prog_dls_random_split_default_generator(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(9)
    a = [p.indices for p in D.random_split(list("abcdefgh"), [2, 6])]
    b = [p.indices for p in D.random_split(list("abcdefgh"), [0.25, 0.75])]
    return a, b, T.rand(2)


@program()
def prog_dls_random_split_generator_none(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(4)
    a = [p.indices for p in D.random_split(range(6), [3, 3], generator=None)]
    return a, T.rand(1)


@program()
def prog_dls_random_split_warnings_and_errors(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(0)
    return (
        [p.indices for p in D.random_split(range(2), [0.5, 0.5, 0.0], generator=g)],
        [p.indices for p in D.random_split(range(1), [0.5, 0.5], generator=g)],
        raises(lambda: D.random_split(range(5), [2, 2])),
        raises(lambda: D.random_split(range(5), [2, 4])),
        raises(lambda: D.random_split(range(5), [1.2, -0.2])),
        raises(lambda: D.random_split(range(5), [-0.5, 1.5])),
        raises(lambda: D.random_split(range(5), [0.5, 0.6])),
        raises(lambda: D.random_split(range(5), [0.3, 0.3])),
        raises(lambda: D.random_split(range(5), [2.5, 2.5])),
        raises(lambda: D.random_split(range(5), [])),
        [p.indices for p in D.random_split([], [], generator=g)],
        raises(lambda: D.random_split(range(4), [4.0, 0.0], generator=g)),
    )


@program()
def prog_dls_randperm_size_argument_types(T: Any) -> Any:
    g = T.Generator().manual_seed(0)
    return (
        T.randperm(T.tensor(5), generator=g),
        T.randperm(np.int64(4), generator=g),
        T.randperm(T.tensor([3]), generator=g),
        raises(lambda: T.randperm(4.0)),
        raises(lambda: T.randperm(4.0, generator=g)),
        raises(lambda: T.randperm(4.0, dtype=T.int32)),
        raises(lambda: T.randperm(T.tensor(4.0))),
        raises(lambda: T.randperm(True)),
        raises(lambda: T.randperm(None)),
        raises(lambda: T.randperm("3")),
        raises(lambda: T.utils.data.random_split(range(5), [2.5, 2.5])),
    )


@program()
def prog_dls_generator_argument_must_be_a_generator(T: Any) -> Any:
    D = T.utils.data
    t = T.empty(())
    return (
        raises(lambda: list(D.DataLoader(list(range(4)), shuffle=True, generator=42))),
        raises(lambda: list(D.DataLoader(list(range(4)), generator=42))),
        raises(lambda: list(D.RandomSampler(range(4), generator=42))),
        raises(lambda: list(D.RandomSampler(range(4), True, 3, generator=42))),
        raises(lambda: list(D.SubsetRandomSampler(range(4), generator=42))),
        raises(lambda: list(D.WeightedRandomSampler([1.0, 2.0], 2, generator=42))),
        raises(lambda: D.random_split(range(4), [2, 2], generator=42)),
        raises(lambda: t.random_(generator=5)),
        raises(lambda: t.random_(10, generator=5)),
        raises(lambda: t.random_(0, 10, generator=5)),
        raises(lambda: t.random_(generator="a")),
        raises(lambda: T.randperm(4, generator=5)),
        raises(lambda: T.multinomial(T.ones(2), 1, generator=5)),
        raises(lambda: T.randint(4, (2,), generator=5)),
        raises(lambda: T.randint(0, 4, (2,), generator=5)),
        T.multinomial(T.ones(2), 1, True, generator=None).shape,
    )


@program()
def prog_dls_multinomial_without_categories(T: Any) -> Any:
    return (
        raises(lambda: T.multinomial(T.empty(0), 1, True)),
        raises(lambda: T.multinomial(T.empty(0, dtype=T.float64), 2, True)),
        raises(lambda: T.multinomial(T.empty(0), 1)),
        raises(lambda: T.multinomial(T.empty(3, 0), 1, True)),
        raises(lambda: T.multinomial(T.empty(3, 0), 2, True)),
        T.multinomial(T.empty(0, 0), 1, True),
        T.multinomial(T.empty(0, 4), 2, True),
        T.multinomial(T.empty(0, 4), 2),
    )


@program()
def prog_dls_random_split_of_datasets(T: Any) -> Any:
    D = T.utils.data
    ds = D.TensorDataset(T.arange(8.0), T.arange(8) % 3)
    g = T.Generator().manual_seed(12)
    train, val = D.random_split(ds, [0.75, 0.25], generator=g)
    dl = D.DataLoader(train, batch_size=4, shuffle=True, generator=g)
    return (
        len(train),
        len(val),
        val[0],
        train[1],
        list(dl),
        list(D.DataLoader(val, batch_size=None)),
        train.dataset is ds,
    )


@program()
def prog_dls_random_split_length_types(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(1)
    return (
        [p.indices for p in D.random_split(range(4), [np.int64(1), np.int64(3)], generator=g)],
        [p.indices for p in D.random_split(range(4), T.tensor([2, 2]), generator=g)],
        [p.indices for p in D.random_split(range(4), [True, 3], generator=g)],
        raises(lambda: D.random_split(range(4), ["1", "3"])),
        raises(lambda: D.random_split(5, [1, 4])),
    )


# --- workers (run in-process by shadowgrad, in processes by torch) ----------------------------


@program()
def prog_dls_workers_map_dataset_order_and_seeds(T: Any) -> Any:
    D = T.utils.data

    class Seeds(D.Dataset):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            info = D.get_worker_info()
            return i, info.id, info.num_workers, T.initial_seed() - info.seed

    T.manual_seed(21)
    dl = D.DataLoader(Seeds(), batch_size=2, num_workers=2)
    out = list(dl)
    return out, len(dl), T.rand(1)


@program()
def prog_dls_workers_shuffle_matches_single_process(T: Any) -> Any:
    D = T.utils.data
    ds = list(range(11))
    T.manual_seed(2)
    one = list(D.DataLoader(ds, batch_size=3, shuffle=True, num_workers=0))
    T.manual_seed(2)
    two = list(D.DataLoader(ds, batch_size=3, shuffle=True, num_workers=2))
    g = T.Generator().manual_seed(5)
    three = list(D.DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, generator=g))
    return one, two, three, T.rand(1), T.rand(1, generator=g)


@program()
def prog_dls_workers_random_draws_inside_workers(T: Any) -> Any:
    import random

    D = T.utils.data

    class Noisy(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return T.rand(1).item(), random.random(), float(np.random.rand())

    g = T.Generator().manual_seed(99)
    dl = D.DataLoader(Noisy(), batch_size=2, num_workers=2, generator=g)
    return list(dl), list(dl)


@program()
def prog_dls_workers_init_fn_and_worker_info(T: Any) -> Any:
    D = T.utils.data
    log = []

    def init(wid):
        info = D.get_worker_info()
        log.append((wid, info.id, info.num_workers, type(info.dataset).__name__))
        info.dataset.offset = 100 * (wid + 1)

    class Offset(D.Dataset):
        offset = 0

        def __len__(self):
            return 4

        def __getitem__(self, i):
            return i + self.offset

    ds = Offset()
    out = list(D.DataLoader(ds, batch_size=1, num_workers=2, worker_init_fn=init))
    return out, ds.offset, D.get_worker_info()


@program()
def prog_dls_workers_iterable_dataset_sharding(T: Any) -> Any:
    D = T.utils.data

    class Sharded(D.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            info = D.get_worker_info()
            if info is None:
                return iter(range(self.n))
            return iter(range(info.id, self.n, info.num_workers))

    unsharded = _it(T, 5)
    return (
        list(D.DataLoader(Sharded(9), batch_size=2, num_workers=2)),
        list(D.DataLoader(Sharded(9), batch_size=None, num_workers=3)),
        list(D.DataLoader(Sharded(5), batch_size=2, num_workers=2, drop_last=True)),
        list(D.DataLoader(unsharded, batch_size=2, num_workers=2)),
    )


@program()
def prog_dls_workers_iterable_len_warning_mentions_workers(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 3, length=3)
    dl = D.DataLoader(ds, batch_size=None, num_workers=2)
    n = len(dl)
    return n, list(dl)


@program()
def prog_dls_workers_exception_is_wrapped(T: Any) -> Any:
    D = T.utils.data

    class Bad(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            if i == 2:
                raise ValueError("bad sample 2")
            return i

    def init(wid):
        raise KeyError("no such key")

    def first_line(fn):
        try:
            fn()
        except Exception as e:
            return type(e).__name__, str(e).splitlines()[0]
        return None

    # a worker_init_fn's error is the first task's answer (torch's workers then exit at once;
    # an error in a worker's fetch keeps the workers up until the iterator is collected)
    return (
        first_line(lambda: list(D.DataLoader(Bad(), num_workers=1, worker_init_fn=init))),
        raises(lambda: list(D.DataLoader(Bad(), batch_size=1, num_workers=0))),
    )


@program()
def prog_dls_workers_persistent_reuse(T: Any) -> Any:
    D = T.utils.data

    def init(wid):
        T.manual_seed(1000 + wid)  # the worker's own generator: not the main process's

    T.manual_seed(17)
    dl = D.DataLoader(
        list(range(6)),
        batch_size=2,
        shuffle=True,
        num_workers=2,
        persistent_workers=True,
        worker_init_fn=init,
    )
    e1, e2 = list(dl), list(dl)
    it1 = iter(dl)
    it2 = iter(dl)

    class Sharded(D.IterableDataset):
        def __iter__(self):
            info = D.get_worker_info()
            yield from range(info.id, 7, info.num_workers)

    di = D.DataLoader(Sharded(), batch_size=2, num_workers=2, persistent_workers=True)
    return e1, e2, it1 is it2, dl.prefetch_factor, T.rand(2), list(di), list(di)


@program()
def prog_dls_workers_epoch_abandoned_midway(T: Any) -> Any:
    D = T.utils.data
    out = []
    for persistent in (False, True):
        T.manual_seed(41)
        dl = D.DataLoader(
            list(range(10)),
            batch_size=2,
            shuffle=True,
            num_workers=2,
            persistent_workers=persistent,
        )
        for b in dl:
            first = b
            break
        out.append((first, list(dl), T.rand(1)))
    T.manual_seed(41)
    dl0 = D.DataLoader(list(range(10)), batch_size=2, shuffle=True)
    it = iter(dl0)
    partial = next(it)
    out.append((partial, list(dl0), list(it), T.rand(1)))
    return out


@program()
def prog_dls_workers_argument_checks(T: Any) -> Any:
    import multiprocessing

    D = T.utils.data
    ds = list(range(4))
    dl = D.DataLoader(ds, num_workers=1, multiprocessing_context="fork")
    return (
        type(dl.multiprocessing_context).__name__,
        raises(lambda: D.DataLoader(ds, num_workers=1, multiprocessing_context="nope")),
        raises(lambda: D.DataLoader(ds, num_workers=1, multiprocessing_context=3)),
        D.DataLoader(ds, num_workers=2).prefetch_factor,
        D.DataLoader(ds, num_workers=2, prefetch_factor=0).prefetch_factor,
        raises(lambda: D.DataLoader(ds, num_workers=2, prefetch_factor=-1)),
        type(
            D.DataLoader(
                ds, num_workers=1, multiprocessing_context=multiprocessing.get_context("spawn")
            ).multiprocessing_context
        ).__name__,
        list(D.DataLoader(ds, num_workers=1, timeout=5.0)),
    )


@program()
def prog_dls_workers_batch_size_none_and_collate(T: Any) -> Any:
    D = T.utils.data
    data = [(np.float32(i), [i, i]) for i in range(5)]
    return (
        _all(D.DataLoader(data, batch_size=None, num_workers=2)),
        _all(D.DataLoader(data, batch_size=2, num_workers=2, collate_fn=lambda b: len(b))),
        _all(D.DataLoader(data, batch_sampler=[[4, 0], [1]], num_workers=2)),
    )


@program()
def prog_dls_workers_docs_reproducibility_recipe(T: Any) -> Any:
    import random

    D = T.utils.data

    def seed_worker(worker_id):
        worker_seed = T.initial_seed() % 2**32
        np.random.seed(worker_seed)
        random.seed(worker_seed)

    class Augment(D.Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            return i, np.random.randint(0, 1000), random.randint(0, 1000), T.randint(1000, ())

    g = T.Generator()
    g.manual_seed(0)
    dl = D.DataLoader(
        Augment(),
        batch_size=2,
        num_workers=2,
        worker_init_fn=seed_worker,
        generator=g,
        shuffle=True,
    )
    return list(dl), list(dl)


@program()
def prog_dls_workers_docs_iterable_range_split(T: Any) -> Any:
    import math

    D = T.utils.data

    class MyIterableDataset(D.IterableDataset):
        def __init__(self, start, end):
            super().__init__()
            assert end > start, "this example code only works with end >= start"
            self.start = start
            self.end = end

        def __iter__(self):
            return iter(range(self.start, self.end))

    def worker_init_fn(worker_id):
        worker_info = D.get_worker_info()
        dataset = worker_info.dataset
        overall_start = dataset.start
        overall_end = dataset.end
        per_worker = math.ceil((overall_end - overall_start) / float(worker_info.num_workers))
        dataset.start = overall_start + worker_info.id * per_worker
        dataset.end = min(dataset.start + per_worker, overall_end)

    ds = MyIterableDataset(start=3, end=7)
    return (
        list(D.DataLoader(ds, num_workers=0)),
        list(D.DataLoader(ds, num_workers=2)),
        list(D.DataLoader(ds, num_workers=2, worker_init_fn=worker_init_fn)),
        list(D.DataLoader(ds, num_workers=3, worker_init_fn=worker_init_fn, batch_size=2)),
        (ds.start, ds.end),
    )


@program()
def prog_dls_workers_pin_memory_and_len(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(list(range(5)), batch_size=2, num_workers=2, pin_memory=True)
    it = iter(dl)
    return len(it), list(it), type(it).__name__


@program()
def prog_dls_workers_worker_specific_iterable_sizes(T: Any) -> Any:
    D = T.utils.data

    class WorkerSpecific(D.IterableDataset):
        def __init__(self, sizes):
            self.sizes = sizes

        def __iter__(self):
            info = D.get_worker_info()
            return iter(range(self.sizes[info.id]))

        def __len__(self):
            return sum(self.sizes)

    out = []
    for prefetch in (2, 3):
        ds = WorkerSpecific([0, 4, 20])
        kw = {"num_workers": 3, "prefetch_factor": prefetch}
        out.append(list(D.DataLoader(ds, batch_size=None, **kw)))
        out.append(list(D.DataLoader(ds, batch_size=7, **kw)))
        out.append(list(D.DataLoader(ds, batch_size=7, drop_last=True, **kw)))
        out.append(len(D.DataLoader(ds, batch_size=7, **kw)))
    return out


@program()
def prog_dls_workers_unsharded_iterable_warns_after_len(T: Any) -> Any:
    D = T.utils.data

    class Counting(D.IterableDataset):
        def __iter__(self):
            return iter(range(6))

        def __len__(self):
            return 6

        def __repr__(self):
            return "Counting(6)"

    dl = D.DataLoader(Counting(), num_workers=2)
    it = iter(dl)
    before = [next(it) for _ in range(12)]  # len() not taken: no warning
    n = len(dl)
    it = iter(dl)
    after = [next(it) for _ in range(8)]
    return before, n, after


@program()
def prog_dls_workers_multi_epoch_worker_ids(T: Any) -> Any:
    D = T.utils.data

    class WorkerIds(D.Dataset):
        def __len__(self):
            return 12

        def __getitem__(self, i):
            return D.get_worker_info().id

    dl = D.DataLoader(WorkerIds(), batch_size=3, num_workers=2)
    return [list(dl) for _ in range(2)]


# --- DistributedSampler ------------------------------------------------------------------------


@program()
def prog_dls_distributed_sampler_shares(T: Any) -> Any:
    D = T.utils.data
    from importlib import import_module

    DS = import_module(T.__name__ + ".utils.data.distributed").DistributedSampler
    out = []
    for n, reps, drop, shuffle in (
        (10, 3, False, True),
        (10, 3, True, True),
        (5, 4, False, False),
        (2, 4, False, True),
        (8, 4, True, False),
    ):
        for rank in range(reps):
            s = DS(list(range(n)), num_replicas=reps, rank=rank, shuffle=shuffle, drop_last=drop)
            s.set_epoch(3)
            out.append((rank, list(s), len(s), s.total_size))
    data = T.IntTensor(range(9))
    scanned = []
    for i in range(4):
        s = DS(data, 4, i)
        scanned += list(D.DataLoader(data, batch_size=2, drop_last=True, sampler=s))
    return (
        out,
        scanned,
        raises(lambda: DS(data, 3, 3)),
        raises(lambda: DS([1], num_replicas=2, rank=2)),
        raises(lambda: DS([1], num_replicas=2, rank=-1)),
        raises(lambda: DS([1])),
        D.DistributedSampler is DS,
    )


@program()
def prog_dls_distributed_sampler_in_loader_epochs(T: Any) -> Any:
    D = T.utils.data
    s = D.DistributedSampler(range(9), num_replicas=2, rank=1, seed=4)
    dl = D.DataLoader(list(range(9)), batch_size=2, sampler=s)
    epochs = []
    for e in range(3):
        s.set_epoch(e)
        epochs.append(list(dl))
    return epochs, len(dl), raises(lambda: D.DataLoader(list(range(9)), sampler=s, shuffle=True))


# --- more datasets and loaders -----------------------------------------------------------------


@program()
def prog_dls_iterable_dataset_yielding_structures(T: Any) -> Any:
    D = T.utils.data

    class Records(D.IterableDataset):
        def __iter__(self):
            for i in range(5):
                yield {"x": T.full((2,), float(i)), "y": i, "tag": f"r{i}", "np": np.int32(i)}

    return (
        _all(D.DataLoader(Records(), batch_size=2)),
        _all(D.DataLoader(Records(), batch_size=None)),
        _all(D.DataLoader(Records(), batch_size=10, drop_last=True)),
        _all(D.DataLoader(Records(), batch_size=10)),
    )


@program()
def prog_dls_iterable_dataset_len_warning_resets_per_epoch(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 4, length=2)
    dl = D.DataLoader(ds, batch_size=None)
    a = list(dl)  # len() not taken yet: no warning
    n = len(dl)
    b = list(dl)
    c = list(dl)
    return a, n, b, c


@program()
def prog_dls_loader_sampler_without_len(T: Any) -> Any:
    D = T.utils.data

    def gen_sampler():
        yield from (3, 1, 2)

    dl = D.DataLoader(list("abcd"), sampler=gen_sampler(), batch_size=2)
    return (
        list(dl),
        list(dl),
        raises(lambda: len(dl)),
        raises(lambda: len(D.DataLoader(list("abcd"), sampler=iter([0]), batch_size=None))),
        list(D.DataLoader(list("abcd"), sampler={2: 0, 0: 1}, batch_size=None)),
        len(D.DataLoader(list("abcd"), sampler=range(3), batch_size=2)),
    )


@program()
def prog_dls_loader_collate_fn_changed_after_iter(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader([1, 2, 3, 4], batch_size=2)
    it = iter(dl)
    first = next(it)
    dl.collate_fn = lambda b: ["custom", *b]
    rest = list(it)
    return first, rest, list(dl)


@program()
def prog_dls_loader_index_types_reach_dataset(T: Any) -> Any:
    D = T.utils.data
    seen = []

    class Spy(D.Dataset):
        def __getitem__(self, i):
            seen.append(type(i).__name__)
            return 0

        def __len__(self):
            return 3

    class SpyBatch(Spy):
        def __getitems__(self, idx):
            seen.append(("batch", type(idx).__name__))
            return [0 for _ in idx]

    list(D.DataLoader(Spy(), batch_size=2))
    list(D.DataLoader(Spy(), batch_size=None))
    list(D.DataLoader(Spy(), batch_size=None, shuffle=True))
    list(D.DataLoader(Spy(), batch_sampler=[(0, 1), T.tensor([2])]))
    list(D.DataLoader(SpyBatch(), batch_sampler=[(0, 1), range(2)]))
    list(D.DataLoader(SpyBatch(), batch_size=2))
    list(D.DataLoader(Spy(), sampler=T.tensor([1, 0]), batch_size=None))
    return seen


@program()
def prog_dls_loader_len_follows_dataset_growth(T: Any) -> Any:
    D = T.utils.data
    data = [1, 2, 3]
    dl = D.DataLoader(data, batch_size=2)
    n0 = len(dl)
    data.extend([4, 5, 6])
    return n0, len(dl), list(dl)


@program()
def prog_dls_subset_and_concat_compositions(T: Any) -> Any:
    D = T.utils.data
    a = D.TensorDataset(T.arange(5))
    b = D.TensorDataset(T.arange(100, 103))
    cat = a + b
    sub = D.Subset(cat, [7, 0, 5, 4])
    parts = D.random_split(sub, [1, 3], generator=T.Generator().manual_seed(3))
    return (
        [sub[i] for i in range(4)],
        sub[-1],
        [[p[i] for i in range(len(p))] for p in parts],
        list(D.DataLoader(parts[1], batch_size=2)),
        list(D.DataLoader(D.ConcatDataset([sub, a]), batch_size=4)),
    )


@program()
def prog_dls_stack_dataset_of_subsets_batched(T: Any) -> Any:
    D = T.utils.data
    calls = []

    class Rec(D.Dataset):
        def __getitem__(self, i):
            calls.append(i)
            return float(i)

        def __len__(self):
            return 6

    base = D.TensorDataset(T.arange(6) * 3)
    st = D.StackDataset(D.Subset(base, [5, 4, 3]), D.Subset(Rec(), [0, 2, 4]))
    sd = D.StackDataset(a=D.Subset(base, [1, 2, 3]), b=[7, 8, 9])
    return list(D.DataLoader(st, batch_size=2)), list(D.DataLoader(sd, batch_size=3)), calls


@program()
def prog_dls_collate_tuples_and_sizes(T: Any) -> Any:
    c = T.utils.data.default_collate
    return (
        c([T.Size([2, 3]), T.Size([4, 5])]),
        _kinds(c([T.Size([2, 3]), T.Size([4, 5])])),
        c([(T.ones(1), 1.0, "a"), (T.zeros(1), 2.0, "b")]),
        c([[{"k": 1}], [{"k": 2}]]),
        c([([1, 2], (3,)), ([4, 5], (6,))]),
        raises(lambda: c([(1, 2), (3,)])),
    )


@program()
def prog_dls_collate_numpy_object_and_misc(T: Any) -> Any:
    c = T.utils.data.default_collate
    cv = T.utils.data.default_convert
    return (
        raises(lambda: c([np.array(1, dtype=object), np.array(2, dtype=object)])),
        raises(lambda: c([np.datetime64("2020-01-01"), np.datetime64("2020-01-02")])),
        raises(lambda: c([np.void(b"ab"), np.void(b"cd")])),
        cv(np.array(["x"], dtype=object)),
        raises(lambda: cv(np.bytes_(b"ab"))),
        cv(np.str_("s")),
        type(cv(np.ma.masked_array([1, 2]))).__name__,
        type(cv(np.matrix([[1, 2]]))).__name__,
    )


@program()
def prog_dls_random_sampler_with_replacement_generator_stream(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(8)
    s = D.RandomSampler(range(5), replacement=True, num_samples=37, generator=g)
    a, b = list(s), list(s)
    partial = iter(s)
    first3 = [next(partial) for _ in range(3)]
    after = T.randint(10, (2,), generator=g)
    return a, b, first3, after


@program()
def prog_dls_weighted_sampler_large_draws(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(13)
    w = T.tensor([0.05, 0.5, 0.0, 2.0, 1e-3, 0.3], dtype=T.float64)
    rep = list(D.WeightedRandomSampler(w, 200, True, g))
    norep = list(D.WeightedRandomSampler(w, 5, False, g))
    one = list(D.WeightedRandomSampler(w, 1, True, g))
    return T.tensor(rep), norep, one, T.bincount(T.tensor(rep), minlength=6)


@program()
def prog_dls_batch_sampler_drop_last_consumes_sampler(T: Any) -> Any:
    D = T.utils.data
    pulled = []

    class Counting(D.Sampler[int]):
        def __iter__(self):
            for i in range(5):
                pulled.append(i)
                yield i

        def __len__(self):
            return 5

    bs = D.BatchSampler(Counting(), 2, drop_last=True)
    it = iter(bs)
    first = next(it)
    snapshot = list(pulled)
    rest = list(it)
    return first, snapshot, rest, pulled, len(bs)


@program()
def prog_dls_getitems_returning_a_tensor(T: Any) -> Any:
    D = T.utils.data

    class FastRows(D.Dataset):
        """The speed trick: a whole batch fetched by one indexing."""

        def __init__(self):
            self.x = T.arange(12.0).reshape(6, 2)

        def __len__(self):
            return 6

        def __getitem__(self, i):
            return self.x[i]

        def __getitems__(self, idx):
            return self.x[idx]

    ident = D.DataLoader(FastRows(), batch_size=4, collate_fn=lambda b: b)
    return (
        list(ident),
        raises(lambda: list(D.DataLoader(FastRows(), batch_size=4))),
        list(D.DataLoader(FastRows(), batch_size=None)),
        list(D.DataLoader(FastRows(), batch_size=4, collate_fn=lambda b: b * 2)),
    )


@program()
def prog_dls_random_sampler_empty_source_iterated(T: Any) -> Any:
    D = T.utils.data
    s = D.RandomSampler([], replacement=True, num_samples=3)
    s2 = D.RandomSampler([], num_samples=2)
    return raises(lambda: list(s)), len(s), raises(lambda: list(s2)), len(s2)


@program()
def prog_dls_too_many_workers_warns(T: Any) -> Any:
    D = T.utils.data
    dl = D.DataLoader(list(range(2)), num_workers=512)
    return dl.num_workers, dl.prefetch_factor


@program()
def prog_dls_module_aliases(T: Any) -> Any:
    import inspect
    from importlib import import_module

    D = T.utils.data
    coll = import_module(T.__name__ + ".utils.data._utils.collate")
    dlm = import_module(T.__name__ + ".utils.data.dataloader")
    return (
        coll.default_collate is D.default_collate,
        coll.default_convert is D.default_convert,
        dlm.default_collate is D.default_collate,
        dlm.get_worker_info is D.get_worker_info,
        inspect.signature(D.random_split).parameters["generator"].default is T.default_generator,
        D.DataLoader(list(range(3))).collate_fn is D.default_convert,
        D.DataLoader(list(range(3)), batch_size=2).collate_fn is coll.default_collate,
        D.DataLoader(list(range(3)), batch_size=None).collate_fn is coll.default_convert,
    )


@program()
def prog_dls_utils_modules_and_fetchers(T: Any) -> Any:
    from importlib import import_module

    D = T.utils.data
    u = import_module(T.__name__ + ".utils.data._utils")
    fetch = import_module(T.__name__ + ".utils.data._utils.fetch")
    worker = import_module(T.__name__ + ".utils.data._utils.worker")
    dlm = import_module(T.__name__ + ".utils.data.dataloader")
    ds = D.TensorDataset(T.arange(6.0))
    m = fetch._MapDatasetFetcher(ds, True, D.default_collate, False)
    m1 = fetch._MapDatasetFetcher(ds, False, D.default_convert, False)
    it = dlm._DatasetKind.create_fetcher(dlm._DatasetKind.Iterable, _it(T, 5), True, list, True)
    return (
        u.MP_STATUS_CHECK_INTERVAL,
        u.IS_WINDOWS,
        worker.get_worker_info is D.get_worker_info,
        worker.get_worker_info(),
        worker.WorkerInfo.__name__,
        [f.name for f in __import__("dataclasses").fields(worker.WorkerInfo)],
        m.fetch([4, 0]),
        m1.fetch(2),
        it.fetch([None, None]),
        it.fetch([None, None]),
        raises(lambda: it.fetch([None, None])),
        it.ended,
        (dlm._DatasetKind.Map, dlm._DatasetKind.Iterable),
    )


@program()
def prog_dls_worker_info_is_frozen(T: Any) -> Any:
    D = T.utils.data

    class Probe(D.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            info = D.get_worker_info()
            try:
                info.id = 7
            except Exception as e:
                err = (type(e).__name__, str(e))
            return info.id, info.num_workers, info.rng, info.worker_method, err

        def __repr__(self):
            return "Probe()"

    return list(D.DataLoader(Probe(), batch_size=None, num_workers=1))


@program()
def prog_dls_collate_numpy_memmap(T: Any) -> Any:
    import os
    import tempfile

    c = T.utils.data.default_collate
    cv = T.utils.data.default_convert
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.bin")
        m = np.memmap(path, dtype=np.float32, mode="w+", shape=(3, 2))
        m[:] = np.arange(6, dtype=np.float32).reshape(3, 2)
        out = c([m[0], m[2]]), c([m, m]), cv(m).clone(), type(cv(m)).__name__
        del m
    return out


@program()
def prog_dls_worker_info_in_iterable_iter_single_process(T: Any) -> Any:
    D = T.utils.data
    seen = []

    class Probe(D.IterableDataset):
        def __iter__(self):
            seen.append(D.get_worker_info())
            yield from range(3)

    dl = D.DataLoader(Probe(), batch_size=2)
    it = iter(dl)
    return seen, list(it), seen


@program()
def prog_dls_random_split_empty_dataset(T: Any) -> Any:
    D = T.utils.data
    g = T.Generator().manual_seed(0)
    parts = D.random_split([], [0.5, 0.5], generator=g)
    parts2 = D.random_split(range(3), [0.3, 0.3, 0.4], generator=g)
    return (
        [len(p) for p in parts],
        [p.indices for p in parts2],
        raises(lambda: D.random_split([], [1])),
        [p.indices for p in D.random_split([], [0], generator=g)],
    )


@program()
def prog_dls_dict_and_mapping_datasets(T: Any) -> Any:
    D = T.utils.data
    data = {0: "zero", 1: "one", 2: "two"}
    arr = np.arange(8, dtype=np.float64).reshape(4, 2)
    return (
        list(D.DataLoader(data, batch_size=2)),
        list(D.DataLoader(arr, batch_size=3)),
        _all(D.DataLoader(arr, batch_size=None)),
        list(D.DataLoader(D.Subset(arr, [3, 1]), batch_size=2)),
    )


@program()
def prog_dls_collate_tensor_subclass_and_views(T: Any) -> Any:
    c = T.utils.data.default_collate
    base = T.arange(12.0).reshape(3, 4)
    rows = [base[i] for i in range(3)]
    out = c(rows)
    out[0, 0] = 100.0  # a copy: the rows are not written
    p = T.nn.Parameter(T.ones(2))
    return out, base, c([p, T.zeros(2)]).grad_fn, c([base.t()[0], base.t()[1]]), out.is_contiguous()


@program()
def prog_dls_iterable_dataset_fewer_than_len_no_warning(T: Any) -> Any:
    D = T.utils.data
    ds = _it(T, 2, length=5)
    dl = D.DataLoader(ds, batch_size=2)
    return len(dl), list(dl), len(D.DataLoader(ds, batch_size=2, drop_last=True))


# --- whole programs ----------------------------------------------------------------------------


@program()
def prog_dls_user_train_loop_with_split_and_shuffle(T: Any) -> Any:
    D = T.utils.data
    T.manual_seed(0)
    X = T.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(12, 2))
    y = (X[:, 0] * 2 - X[:, 1]).unsqueeze(1)
    train, val = D.random_split(D.TensorDataset(X, y), [0.75, 0.25])
    model = T.nn.Linear(2, 1)
    with T.no_grad():
        model.weight.fill_(0.1)
        model.bias.zero_()
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(2):
        for xb, yb in D.DataLoader(train, batch_size=4, shuffle=True):
            opt.zero_grad()
            loss = T.nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.detach())
    with T.no_grad():
        val_loss = sum(
            T.nn.functional.mse_loss(model(xb), yb, reduction="sum")
            for xb, yb in D.DataLoader(val, batch_size=2)
        )
    return losses, val_loss, model.weight, [p.indices for p in (train, val)]


@program()
def prog_dls_user_weighted_sampler_for_imbalance(T: Any) -> Any:
    D = T.utils.data
    labels = T.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2])
    counts = T.bincount(labels)
    weights = 1.0 / counts[labels].double()
    g = T.Generator().manual_seed(6)
    sampler = D.WeightedRandomSampler(weights, num_samples=len(weights) * 2, generator=g)
    ds = D.TensorDataset(T.arange(9), labels)
    dl = D.DataLoader(ds, batch_size=6, sampler=sampler)
    seen = T.cat([b[1] for b in dl])
    return list(dl), T.bincount(seen, minlength=3), sampler.weights


@program()
def prog_dls_user_variable_length_pad_collate(T: Any) -> Any:
    D = T.utils.data
    seqs = [T.arange(1, n + 1) for n in (3, 1, 4, 2)]

    def pad_collate(batch):
        lengths = T.tensor([len(s) for s in batch])
        padded = T.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=-1)
        return padded, lengths

    dl = D.DataLoader(seqs, batch_size=3, collate_fn=pad_collate)
    return list(dl), raises(lambda: list(D.DataLoader(seqs, batch_size=2)))


@program()
def prog_dls_user_iterable_worker_info_single_process(T: Any) -> Any:
    D = T.utils.data
    seen = []

    class Sharded(D.IterableDataset):
        def __iter__(self):
            info = D.get_worker_info()
            seen.append(info)
            return iter(range(4))

    return list(D.DataLoader(Sharded(), batch_size=3)), seen, D.get_worker_info()


@program()
def prog_dls_user_dataset_returning_dict_of_numpy(T: Any) -> Any:
    D = T.utils.data

    class Images(D.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            rng = np.random.default_rng(i)
            return {
                "image": rng.standard_normal((1, 2, 2)).astype(np.float32),
                "label": np.int64(i % 2),
                "weight": float(i) / 4,
                "id": f"img{i}",
            }

    g = T.Generator().manual_seed(8)
    dl = D.DataLoader(Images(), batch_size=2, shuffle=True, generator=g, drop_last=True)
    out = list(dl)
    return out, _kinds(out), len(dl)


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
