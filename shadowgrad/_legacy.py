"""torch's legacy tensor types and constructors (`torch.FloatTensor`, `torch.LongTensor`, ...)."""

from __future__ import annotations

__all__: list[str] = []
