"""Datasets and data loaders. Mirrors `torch.utils.data`."""

from __future__ import annotations
