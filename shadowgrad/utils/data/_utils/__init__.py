"""Mirrors `torch.utils.data._utils`: the collate functions (`_utils.collate`, whose
`collate(batch, collate_fn_map=...)` and `default_collate_fn_map` are the documented way to
extend default_collate), the worker's side (`_utils.worker`: WorkerInfo, get_worker_info) and
the dataset fetchers (`_utils.fetch`), with torch's module constants."""

from __future__ import annotations

import sys

IS_WINDOWS = sys.platform == "win32"
MP_STATUS_CHECK_INTERVAL = 5.0
HAS_NUMPY = True  # shadowgrad is built on numpy

from . import collate, fetch, worker  # noqa: E402 (torch's order: constants, then modules)

__all__ = ["HAS_NUMPY", "IS_WINDOWS", "MP_STATUS_CHECK_INTERVAL", "collate", "fetch", "worker"]
