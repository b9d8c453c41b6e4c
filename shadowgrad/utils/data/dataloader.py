"""DataLoader and default_collate. Mirrors `torch.utils.data.dataloader` (single process).

Differences: num_workers > 0 runs in the main process (the batches are the same).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ... import _dtype
from ..._creation import as_tensor, tensor
from ..._random import Generator
from ..._tensor import Tensor
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]


def get_worker_info() -> None:
    """Mirrors `torch.utils.data.get_worker_info`: None outside a worker process, and shadowgrad
    loads every batch in the main process (see Differences above)."""
    return None


_np_str_obj_array_pattern = re.compile(r"[SaUO]")

_COLLATE_ERR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


def default_convert(data: Any) -> Any:
    """Turn numpy arrays into tensors, recursively. Mirrors
    `torch.utils.data.default_convert`."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray):
        if data.dtype.kind in "SaUO":
            return data
        return as_tensor(data)
    if isinstance(data, np.generic) and data.dtype.kind not in "SaUO":
        return as_tensor(data)
    if isinstance(data, Mapping):
        try:
            return type(data)({key: default_convert(data[key]) for key in data})  # type: ignore[call-arg]
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        try:
            return type(data)([default_convert(d) for d in data])  # type: ignore[call-arg]
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def default_collate(batch: Any) -> Any:
    """Stack a list of samples into a batch. Mirrors `torch.utils.data.default_collate`."""
    import shadowgrad as torch

    elem = batch[0]
    if isinstance(elem, Tensor):
        return torch.stack(list(batch), 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "SaUO":  # arrays of strings or objects: torch names the dtype
            raise TypeError(_COLLATE_ERR.format(elem.dtype.str))
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, np.generic) and elem.dtype.kind not in "SaUO":
        return tensor(np.array(batch))
    if isinstance(elem, bool):
        return tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, Mapping):
        try:
            return type(elem)({key: default_collate([d[key] for d in batch]) for key in elem})  # type: ignore[call-arg]
        except TypeError:
            return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(samples) for samples in zip(*batch, strict=True)))
    if isinstance(elem, Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch, strict=True))
        if isinstance(elem, tuple):
            return [default_collate(samples) for samples in transposed]
        try:
            return type(elem)([default_collate(samples) for samples in transposed])  # type: ignore[call-arg]
        except TypeError:
            return [default_collate(samples) for samples in transposed]
    raise TypeError(_COLLATE_ERR.format(type(elem)))


class DataLoader:
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
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError(
                "multiprocessing_context can only be used with multi-process loading "
                f"(num_workers > 0), but got num_workers={num_workers}"
            )
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self.dataset = dataset
        self.num_workers = num_workers
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
        if sampler is None and not self._is_iterable:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if shuffle
                else SequentialSampler(dataset)
            )
        if batch_size is not None and batch_sampler is None and not self._is_iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler: Sampler | None = sampler
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self._initialized = True

    def __setattr__(self, attr: str, val: Any) -> None:
        if self.__dict__.get("_initialized") and attr in _FROZEN:
            raise ValueError(
                f"{attr} attribute should not be set after {self.__class__.__name__} is initialized"
            )
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None or (self._is_iterable and self.batch_size is not None)

    def _fetch(self, indices: list[int]) -> list[Any]:
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(indices)  # type: ignore[no-any-return]
        return [self.dataset[i] for i in indices]

    def __iter__(self) -> Iterator[Any]:
        # torch's _BaseDataLoaderIter draws the workers' base seed as it is created, before the
        # sampler draws anything: the same word here keeps the generator in step with torch's
        from ..._creation import empty

        empty((), dtype=_dtype.int64).random_(generator=self.generator)
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
        cls = (
            _SingleProcessDataLoaderIter
            if self.num_workers == 0
            else _MultiProcessingDataLoaderIter
        )
        return cls(self, self._batches())

    def _batches(self) -> Iterator[Any]:
        if self._is_iterable:
            yield from self._iter_iterable()
            return
        if self._auto_collation:
            for indices in self.batch_sampler:
                yield self.collate_fn(self._fetch(list(indices)))
        else:
            for index in self.sampler:  # type: ignore[union-attr]
                yield self.collate_fn(self.dataset[index])

    def _iter_iterable(self) -> Iterator[Any]:
        it = iter(self.dataset)
        if self.batch_size is None:
            for item in it:
                yield self.collate_fn(item)
            return
        batch: list[Any] = []
        for item in it:
            batch.append(item)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._is_iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                from math import ceil

                length = (
                    length // self.batch_size if self.drop_last else ceil(length / self.batch_size)
                )
            return length
        if self._auto_collation:
            return len(self.batch_sampler)
        return len(self.sampler)  # type: ignore[arg-type]


_FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class _BaseDataLoaderIter:
    """The iterator a DataLoader returns (torch's class names): the batches, and the loader's
    length."""

    def __init__(self, loader: DataLoader, batches: Iterator[Any]) -> None:
        self._loader = loader
        self._batches = batches
        self._num_yielded = 0

    def __iter__(self) -> _BaseDataLoaderIter:
        return self

    def __next__(self) -> Any:
        batch = next(self._batches)
        self._num_yielded += 1
        return batch

    def __len__(self) -> int:
        return len(self._loader)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """Mirrors torch's iterator for num_workers=0."""


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """torch's iterator class for num_workers > 0; here the batches are loaded in the main
    process (see the module docstring)."""
