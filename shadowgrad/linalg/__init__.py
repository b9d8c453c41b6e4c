"""torch.linalg: linear algebra functions. Mirrors `torch.linalg`."""

from __future__ import annotations
