"""Mirrors `torch.nn.modules.channelshuffle`."""

from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module

__all__: list[str] = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Mirrors `torch.nn.ChannelShuffle`."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
