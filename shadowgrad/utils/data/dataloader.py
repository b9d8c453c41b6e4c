"""DataLoader and default_collate. Mirrors `torch.utils.data.dataloader`.

Workers (num_workers > 0) run in the main process, one after another, each with what torch's
worker process has: its own copy of the dataset (a shallow copy, where torch's process holds a
forked or pickled one), its torch, `random` and numpy random states seeded as torch seeds them,
`get_worker_info()`, `worker_init_fn`, and torch's round-robin hand-out of batches (an
IterableDataset is iterated once per worker). The batches and their random draws are torch's;
what differs is only what needs another process: a worker's exception is re-raised with torch's
"Caught ... in DataLoader worker process N" header but this process's traceback, and a dataset
object that a worker mutates in place (beyond rebinding its attributes) is shared.
"""

from __future__ import annotations

import copy
import os
import random
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

import numpy as np

from ... import _dtype
from ..._random import Generator
from ._utils import fetch as _fetch
from ._utils import worker as _worker
from ._utils.collate import default_collate, default_convert
from ._utils.worker import WorkerInfo, _generate_state, get_worker_info
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]


class _DatasetKind:
    """Mirrors `torch.utils.data.dataloader._DatasetKind`."""

    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(
        kind: int, dataset: Any, auto_collation: bool, collate_fn: Any, drop_last: bool
    ) -> Any:
        if kind == _DatasetKind.Map:
            return _fetch._MapDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)
        return _fetch._IterableDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    """An IterableDataset's sampler: None forever. Mirrors torch's (a DataLoader over an
    IterableDataset has it as `.sampler`, batched by a BatchSampler when batch_size is set)."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


_T_co = TypeVar("_T_co", covariant=True)


class DataLoader(Generic[_T_co]):
    """Iterate over a dataset in (optionally shuffled) batches. Mirrors
    `torch.utils.data.DataLoader`."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Any = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Any = None,
        multiprocessing_context: Any = None,
        generator: Generator | None = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable "
                "multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing.let "
                "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        self.in_order = in_order
        self.dataset = dataset
        self.num_workers = num_workers
        self.multiprocessing_context = multiprocessing_context  # checked as torch's setter does
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            if shuffle not in {False, None}:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, but "
                    f"got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, but "
                    f"got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                    f"but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None:  # torch's default samplers
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler: Sampler | None = sampler
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self._iterator: _MultiProcessingDataLoaderIter | None = None
        self._IterableDataset_len_called: int | None = None
        self._initialized = True
        self.check_worker_number_rationality()

    def check_worker_number_rationality(self) -> None:
        """Mirrors `torch.utils.data.DataLoader.check_worker_number_rationality`: warn when
        more workers are asked for than this process has CPUs."""
        if not self.num_workers:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        suggest = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if suggest is not None and self.num_workers <= suggest:
            return
        if suggest is not None:
            cpuset = "" if cpuset_checked else " (`cpuset` is not taken into account)"
            suggested = (
                f"Our suggested max number of worker in current system is {suggest}{cpuset}, "
                "which is smaller than what this DataLoader is going to create."
            )
        else:
            suggested = (
                "DataLoader is not able to compute a suggested max number of worker in current "
                "system."
            )
        warnings.warn(
            f"This DataLoader will create {self.num_workers} worker processes in total. "
            f"{suggested} Please be aware that excessive worker creation might get DataLoader "
            "running slow or even freeze, lower the worker number to avoid potential "
            "slowness/freeze if necessary.",
            stacklevel=2,
        )

    def __setattr__(self, attr: str, val: Any) -> None:
        if self.__dict__.get("_initialized") and attr in _FROZEN:
            raise ValueError(
                f"{attr} attribute should not be set after {self.__class__.__name__} is initialized"
            )
        super().__setattr__(attr, val)

    @property
    def multiprocessing_context(self) -> Any:
        """Mirrors `DataLoader.multiprocessing_context`: None or a multiprocessing context (a
        start method's name becomes its context). The workers run in this process; the
        context is only checked and kept."""
        return self.__dict__["_multiprocessing_context"]

    @multiprocessing_context.setter
    def multiprocessing_context(self, ctx: Any) -> None:
        import multiprocessing
        from multiprocessing.context import BaseContext

        if ctx is not None:
            if self.num_workers <= 0:
                raise ValueError(
                    "multiprocessing_context can only be used with multi-process loading "
                    f"(num_workers > 0), but got num_workers={self.num_workers}"
                )
            if isinstance(ctx, str):
                methods = multiprocessing.get_all_start_methods()
                if ctx not in methods:
                    raise ValueError(
                        "multiprocessing_context option should specify a valid start method in "
                        f"{methods!r}, but got multiprocessing_context={ctx!r}"
                    )
                ctx = multiprocessing.get_context(ctx)
            if not isinstance(ctx, BaseContext):
                raise TypeError(
                    "multiprocessing_context option should be a valid context object or a "
                    f"string specifying the start method, but got multiprocessing_context={ctx}"
                )
        self.__dict__["_multiprocessing_context"] = ctx

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        """torch's: what the iterator draws indices from, the batch sampler when batching."""
        return self.batch_sampler if self._auto_collation else self.sampler

    @property
    def _dataset_kind(self) -> int:
        return _DatasetKind.Iterable if self._is_iterable else _DatasetKind.Map

    def __iter__(self) -> Iterator[Any]:
        # torch's _BaseDataLoaderIter draws the workers' base seed as it is created, before the
        # sampler draws anything: the same word here keeps the generator in step with torch's
        from ..._creation import empty

        if self.persistent_workers and self.num_workers > 0 and self._iterator is not None:
            self._iterator._reset(self)  # torch reuses the iterator and its workers
            return self._iterator
        if self.num_workers > 0:
            self.check_worker_number_rationality()
        if self.pin_memory and self.pin_memory_device:
            warnings.warn(
                "pin_memory_device is deprecated, the current accelerator will be used as the "
                f"device,ignore pin_memory_device='{self.pin_memory_device}'.",
                stacklevel=2,
            )
        if self.pin_memory:  # torch's iterator, with no accelerator: nothing is pinned
            warnings.warn(
                "'pin_memory' argument is set as true but no accelerator is found, then device "
                "pinned memory won't be used.",
                stacklevel=2,
            )
        # as torch's _BaseDataLoaderIter: the index sampler's iterator first (a sampler whose
        # __iter__ draws at once draws before the seed), then the seed
        sampler_iter = iter(self._index_sampler)
        base_seed = int(empty((), dtype=_dtype.int64).random_(generator=self.generator).item())
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self, sampler_iter, base_seed)
        it = _MultiProcessingDataLoaderIter(self, base_seed)
        if self.persistent_workers:
            self._iterator = it
        return it

    def __len__(self) -> int:
        if self._is_iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                from math import ceil

                length = (
                    length // self.batch_size if self.drop_last else ceil(length / self.batch_size)
                )
            return length
        return len(self._index_sampler)


_FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class _BaseDataLoaderIter:
    """The iterator a DataLoader returns (torch's class names): the batches, the index
    sampler's length, and torch's warning when an IterableDataset yields more than its
    reported length."""

    def __init__(self, loader: DataLoader, base_seed: int) -> None:
        # torch's iterator attributes (read by user code: _num_yielded, _base_seed, ...)
        self._loader = loader
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._base_seed = base_seed
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0
        self._num_workers = loader.num_workers
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def __iter__(self) -> _BaseDataLoaderIter:
        return self

    def _next_data(self) -> Any:
        raise NotImplementedError

    def __next__(self) -> Any:
        batch = self._next_data()
        self._num_yielded += 1
        if (
            self._loader._is_iterable
            and self._IterableDataset_len_called is not None
            and self._num_yielded > self._IterableDataset_len_called
        ):
            msg = (
                f"Length of IterableDataset {self._loader.dataset} was reported to be "
                f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                f"{self._num_yielded} samples have been fetched. "
            )
            if self._num_workers > 0:
                msg += (
                    "For multiprocessing data-loading, this could be caused by not properly "
                    "configuring the IterableDataset replica at each worker. Please see "
                    "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset "
                    "for examples."
                )
            warnings.warn(msg, stacklevel=2)
        return batch

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self) -> Any:
        # torch's, its message a tuple (the format string and the class name) as torch's is
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """Mirrors torch's iterator for num_workers=0 and its fetchers (torch's
    _utils/fetch.py): the sampler's iterator and an IterableDataset's iterator are taken as
    the loader's iterator is made; a map-style batch is fetched with the dataset's
    `__getitems__` when it has one."""

    def __init__(self, loader: DataLoader, sampler_iter: Iterator[Any], base_seed: int) -> None:
        super().__init__(loader, base_seed)
        if loader.timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._sampler_iter = sampler_iter
        self._dataset_fetcher = _DatasetKind.create_fetcher(
            self._dataset_kind,
            self._dataset,
            self._auto_collation,
            self._collate_fn,
            self._drop_last,
        )

    def _next_data(self) -> Any:
        return self._dataset_fetcher.fetch(next(self._sampler_iter))


class _Stop:
    """A worker's answer once its IterableDataset replica is exhausted (torch's
    _IterableDatasetStopIteration)."""


class _Worker:
    """One of torch's worker processes, run in this one: its dataset copy, its random states
    (torch's default generator, `random`'s and numpy's, seeded as torch's _worker_loop seeds
    them) and its WorkerInfo, swapped in while its code runs."""

    def __init__(self, loader: DataLoader, wid: int, base_seed: int) -> None:
        from ..._random import Generator

        self.id = wid
        try:
            dataset = copy.copy(loader.dataset)
        except Exception:
            dataset = loader.dataset
        self.dataset = dataset
        seed = base_seed + wid
        self.gen_state = vars(Generator().manual_seed(seed)).copy()
        rs = random.Random(seed)
        self.py_state = rs.getstate()
        self.np_state = np.random.RandomState(_generate_state(base_seed, wid)).get_state()
        self.info = WorkerInfo(id=wid, num_workers=loader.num_workers, seed=seed, dataset=dataset)
        self.loader = loader
        self.init_error: BaseException | None = None
        self.fetcher: Any = None
        self.ended = False
        try:
            if loader.worker_init_fn is not None:
                self.run(loader.worker_init_fn, wid)
            self.run(self._new_fetcher)
        except Exception as e:
            self.init_error = e

    def _new_fetcher(self) -> None:
        """torch's _DatasetKind.create_fetcher: an IterableDataset replica is iterated from
        here."""
        self.fetcher = iter(self.dataset) if self.loader._is_iterable else None
        self.ended = False

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call fn in this worker: its random states and WorkerInfo in place, the main
        process's put back after."""
        from ..._random import default_generator

        main_gen = vars(default_generator).copy()
        main_py = random.getstate()
        main_np = np.random.get_state()
        main_info = _worker._worker_info
        vars(default_generator).clear()
        vars(default_generator).update(self.gen_state)
        random.setstate(self.py_state)
        np.random.set_state(self.np_state)
        _worker._worker_info = self.info
        try:
            return fn(*args)
        finally:
            self.gen_state = vars(default_generator).copy()
            self.py_state = random.getstate()
            self.np_state = np.random.get_state()
            vars(default_generator).clear()
            vars(default_generator).update(main_gen)
            random.setstate(main_py)
            np.random.set_state(main_np)
            _worker._worker_info = main_info

    def fetch(self, index: Any) -> Any:
        """torch's fetchers: a batch (or sample) for `index`, or _Stop once an IterableDataset
        replica runs out."""
        loader = self.loader
        if loader._is_iterable:
            if self.ended:
                return _Stop()
            if loader.batch_size is None:
                try:
                    return loader.collate_fn(next(self.fetcher))
                except StopIteration:
                    self.ended = True
                    return _Stop()
            data = []
            for _ in range(loader.batch_size):
                try:
                    data.append(next(self.fetcher))
                except StopIteration:
                    self.ended = True
                    break
            if not data or (loader.drop_last and len(data) < loader.batch_size):
                return _Stop()
            return loader.collate_fn(data)
        if loader._auto_collation:
            getitems = getattr(self.dataset, "__getitems__", None)
            items = getitems(index) if callable(getitems) else [self.dataset[i] for i in index]
            return loader.collate_fn(items)
        return loader.collate_fn(self.dataset[index])

    def task(self, index: Any) -> Any:
        if self.init_error is not None:
            e, self.init_error = self.init_error, None
            _reraise(e, self.id)
        try:
            return self.run(self.fetch, index)
        except Exception as e:
            _reraise(e, self.id)


def _reraise(e: BaseException, wid: int) -> None:
    """torch's ExceptionWrapper.reraise: the worker's exception type, with a message naming the
    worker and carrying the original traceback."""
    where = f"in DataLoader worker process {wid}"
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    msg: str = f"Caught {type(e).__name__} {where}.\nOriginal {tb}"
    if type(e) is KeyError:
        msg = _KeyErrorMessage(msg)  # str(KeyError) is its argument's repr: this one's is itself
    elif getattr(type(e), "message", None):
        raise type(e)(message=msg)  # type: ignore[call-arg]
    try:
        err = type(e)(msg)
    except Exception:
        raise RuntimeError(msg) from None
    raise err from None


class _KeyErrorMessage(str):
    """torch._utils.KeyErrorMessage: a str whose repr is itself."""

    __slots__ = ()

    def __repr__(self) -> str:
        return self


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Mirrors torch's iterator for num_workers > 0, its workers run in this process: index
    batches are handed out round-robin to the workers still active, prefetch_factor per worker
    ahead, and batches come back in the order they were handed out."""

    def __init__(self, loader: DataLoader, base_seed: int) -> None:
        super().__init__(loader, base_seed)
        n = loader.num_workers
        self._workers = [_Worker(loader, w, base_seed) for w in range(n)]
        self._reset(loader, first_iter=True)

    def _reset(self, loader: DataLoader, first_iter: bool = False) -> None:
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._sampler_iter = _index_iter(loader)
        self._status = [True] * len(self._workers)
        self._cycle = 0
        self._tasks: deque[tuple[_Worker, Any]] = deque()
        if not first_iter:  # persistent workers: torch's _ResumeIteration
            for w in self._workers:
                w.run(w._new_fetcher)
        for _ in range((self._loader.prefetch_factor or 0) * len(self._workers)):
            self._try_put_index()

    def _try_put_index(self) -> None:
        try:
            index = next(self._sampler_iter)
        except StopIteration:
            return
        n = len(self._workers)
        for _ in range(n):  # the next active worker, if any
            w = self._cycle
            self._cycle = (self._cycle + 1) % n
            if self._status[w]:
                self._tasks.append((self._workers[w], index))
                return

    def _next_data(self) -> Any:
        while self._tasks:
            worker, index = self._tasks.popleft()
            if not self._status[worker.id]:
                continue  # handed to a worker whose replica ran out: never answered
            data = worker.task(index)
            if isinstance(data, _Stop):
                self._status[worker.id] = False
                self._try_put_index()
                continue
            self._try_put_index()
            return data
        raise StopIteration


def _index_iter(loader: DataLoader) -> Iterator[Any]:
    """torch's iter(_index_sampler): index batches as the batch sampler yields them, single
    indices, or (IterableDataset) _InfiniteConstantSampler's endless Nones, batched."""
    return iter(loader._index_sampler)
