"""AdaptiveLogSoftmaxWithLoss. Mirrors `torch.nn.modules.adaptive`.

The head scores the shortlist (the most frequent classes) and one logit per tail cluster; a
cluster's log-probabilities are its own log-softmax plus its head log-probability. Built from
public ops, so grad_fn names follow torch's (AddBackward0 on the output, MeanBackward0 on the
loss, CopySlices from log_prob).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from ... import argmax
from ..._tensor import Tensor
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])
_ASMoutput.__module__ = __name__


def _check_cutoffs(cutoffs: list[Any], n_classes: int) -> None:
    if not cutoffs:
        raise ValueError("cutoffs should be a sequence of length larger than 0")
    ordered = cutoffs == sorted(cutoffs) and len(set(cutoffs)) == len(cutoffs)
    in_range = min(cutoffs) > 0 and max(cutoffs) <= n_classes - 1
    if not (ordered and in_range and all(int(c) == c for c in cutoffs)):
        raise ValueError(
            "cutoffs should be a sequence of unique, positive integers sorted in an increasing "
            "order, where each value is between 1 and n_classes-1"
        )


def _check_shapes(input_: Tensor, target_: Tensor) -> None:
    if target_.dim() == 1:
        if input_.size(0) != target_.size(0):
            raise RuntimeError("Input and target should have the same size in the batch dimension.")
        if input_.dim() != 2:
            raise RuntimeError(
                "1D target tensor expects 2D input tensors, but found inputs with size "
                f"{input_.size()}"
            )
    elif target_.dim() == 0:
        if input_.dim() != 1:
            raise RuntimeError(
                "0D target tensor expects 1D input tensors, but found inputs with size "
                f"{input_.size()}"
            )
    else:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")


class AdaptiveLogSoftmaxWithLoss(Module):
    """Mirrors `torch.nn.AdaptiveLogSoftmaxWithLoss`: forward returns (output, loss)."""

    def __init__(
        self,
        in_features: int,
        n_classes: int,
        cutoffs: Sequence[int],
        div_value: float = 4.0,
        head_bias: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        _check_cutoffs(cutoffs, n_classes)
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = [*cutoffs, n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        kw = {"device": device, "dtype": dtype}
        self.head = Linear(in_features, self.head_size, bias=head_bias, **kw)
        self.tail = ModuleList()
        for i, (lo, hi) in enumerate(pairwise(self.cutoffs)):
            hidden = int(in_features // (div_value ** (i + 1)))
            self.tail.append(
                Sequential(
                    Linear(in_features, hidden, bias=False, **kw),
                    Linear(hidden, hi - lo, bias=False, **kw),
                )
            )

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for proj in self.tail:
            for layer in proj:
                layer.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        _check_shapes(input_, target_)
        batched = target_.dim() > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        n = target.size(0)
        output = input.new_zeros(n)
        head_col = target.new_empty(n)  # the head column each row reads
        used = 0
        bounds = [0, *self.cutoffs]
        for i, (lo, hi) in enumerate(pairwise(bounds)):
            mask = (target >= lo) & (target < hi)
            rows = mask.nonzero().squeeze()
            if rows.numel() == 0:
                continue
            if i == 0:
                head_col.index_copy_(0, rows, target[mask])
            else:
                logits = self.tail[i - 1](input.index_select(0, rows))
                head_col.index_fill_(0, rows, self.shortlist_size + i - 1)
                picked = F.log_softmax(logits, dim=1).gather(1, (target[mask] - lo).unsqueeze(1))
                output.index_copy_(0, rows, picked.squeeze(1))
            used += rows.numel()
        if used != n:
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{target.min().item()}, {target.max().item()}] were found. "
            )
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output += head_logprob.gather(1, head_col.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _get_full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = F.log_softmax(head_output, dim=1)
        out[:, : self.shortlist_size] = head_logprob[:, : self.shortlist_size]
        for i, (lo, hi) in enumerate(pairwise(self.cutoffs)):
            cluster = F.log_softmax(self.tail[i](input), dim=1)
            out[:, lo:hi] = cluster + head_logprob[:, self.shortlist_size + i].unsqueeze(1)
        return out

    def log_prob(self, input: Tensor) -> Tensor:
        """Log-probabilities of all n_classes classes, (N, n_classes)."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:
        """The most probable class of each row; the tails run only when the head's best is a
        cluster."""
        head_output = self.head(input)
        output = argmax(head_output, dim=1)
        outside = output >= self.shortlist_size
        if not outside.any():
            return output
        if outside.all():
            return argmax(self._get_full_log_prob(input, head_output), dim=1)
        log_prob = self._get_full_log_prob(input[outside], head_output[outside])
        output[outside] = argmax(log_prob, dim=1)
        return output
