"""Mirrors `torch.utils.model_zoo`: torch.hub's `load_state_dict_from_url` as `load_url`, and its
`tqdm` (torchvision imports both from here)."""

from __future__ import annotations

from ..hub import load_state_dict_from_url as load_url
from ..hub import tqdm

__all__ = ["load_url", "tqdm"]
