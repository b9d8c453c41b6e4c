"""Fetching a batch (or sample) from a dataset for an index (or index batch). Mirrors
`torch.utils.data._utils.fetch`: the DataLoader's iterators fetch through these."""

from __future__ import annotations

from typing import Any


class _BaseDatasetFetcher:
    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Any, drop_last: bool):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, possibly_batched_index: Any) -> Any:
        raise NotImplementedError


class _IterableDatasetFetcher(_BaseDatasetFetcher):
    """An IterableDataset's: iter() taken at once; batches of len(index) items, the last one
    kept unless drop_last; unbatched, next() is called again after StopIteration."""

    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Any, drop_last: bool):
        super().__init__(dataset, auto_collation, collate_fn, drop_last)
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index: Any) -> Any:
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if not data or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


class _MapDatasetFetcher(_BaseDatasetFetcher):
    """A map-style dataset's: a batch through the dataset's __getitems__ when it has one."""

    def fetch(self, possibly_batched_index: Any) -> Any:
        if self.auto_collation:
            if hasattr(self.dataset, "__getitems__") and self.dataset.__getitems__:
                data = self.dataset.__getitems__(possibly_batched_index)
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)
