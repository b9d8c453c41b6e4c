"""Mirrors `torch.utils.data._utils`: the collate functions (`_utils.collate`), whose
`collate(batch, collate_fn_map=...)` and `default_collate_fn_map` are the documented way to
extend default_collate."""

from __future__ import annotations

from . import collate

__all__ = ["collate"]
