"""Neural network modules. Mirrors `torch.nn`."""

from __future__ import annotations

from . import functional
