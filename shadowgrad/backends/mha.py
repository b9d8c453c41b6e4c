"""Mirrors `torch.backends.mha`: the switch for the inference fast path of MultiheadAttention
and TransformerEncoderLayer (see Note [Inference fast path] in nn/modules/attention.py)."""

from __future__ import annotations

_is_fastpath_enabled: bool = True


def get_fastpath_enabled() -> bool:
    """Mirrors `torch.backends.mha.get_fastpath_enabled`."""
    return _is_fastpath_enabled


def set_fastpath_enabled(value: bool) -> None:
    """Mirrors `torch.backends.mha.set_fastpath_enabled`."""
    global _is_fastpath_enabled
    _is_fastpath_enabled = value
