"""Packed and padded variable-length sequences. Mirrors `torch.nn.utils.rnn`.

Packing is one op with torch's grad_fn (PackPaddedSequenceBackward0); padding is built as torch
builds it, from a filled tensor and slice copies (CopySlices), so graphs show the same nodes.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any, NamedTuple

import numpy as np

from ... import _dtype as D
from ..._creation import arange, as_tensor, empty_like, tensor
from ..._tensor import Tensor
from ...ops.registry import defop
from ...ops.sorting import sort

__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pack_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpack_sequence",
    "unpad_sequence",
]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def _bind(t: Tensor | None, fn: Any) -> Any:
    return None if t is None else fn(t)


class PackedSequence(PackedSequence_):
    """The packed steps of a batch of sequences. Mirrors `torch.nn.utils.rnn.PackedSequence`.

    Differences: `pin_memory` fails as on torch's CPU build (there is no pinned memory here).
    """

    def __new__(
        cls,
        data: Any,
        batch_sizes: Tensor | None = None,
        sorted_indices: Tensor | None = None,
        unsorted_indices: Tensor | None = None,
    ) -> PackedSequence:
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            # torch checks the device of what it takes for a tensor (a list has none)
            if not isinstance(batch_sizes, Tensor):
                raise AttributeError(
                    f"'{type(batch_sizes).__name__}' object has no attribute 'device'"
                )
        else:
            # the `PackedSequence((data, batch_sizes))` form; it ignores unsorted_indices' inverse
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """Converts `data` (batch_sizes stays an int64 CPU tensor, as in torch); returns self when
        `data` is unchanged."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self

        def move(t: Tensor) -> Tensor:
            return t.to(data.device)

        return type(self)(
            data,
            self.batch_sizes,
            _bind(self.sorted_indices, move),
            _bind(self.unsorted_indices, move),
        )

    def cuda(self, *args: Any, **kwargs: Any) -> PackedSequence:
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args: Any, **kwargs: Any) -> PackedSequence:
        return self.to(*args, **kwargs)

    def double(self) -> PackedSequence:
        return self.to(dtype=D.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=D.float32)

    def half(self) -> PackedSequence:
        return self.to(dtype=D.float16)

    def long(self) -> PackedSequence:
        return self.to(dtype=D.int64)

    def int(self) -> PackedSequence:
        return self.to(dtype=D.int32)

    def short(self) -> PackedSequence:
        return self.to(dtype=D.int16)

    def char(self) -> PackedSequence:
        return self.to(dtype=D.int8)

    def byte(self) -> PackedSequence:
        return self.to(dtype=D.uint8)

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda

    def pin_memory(self) -> PackedSequence:
        """Mirrors `PackedSequence.pin_memory`: data.pin_memory(), torch's error on the CPU
        build (no accelerator)."""
        data = self.data.pin_memory()
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def is_pinned(self) -> bool:
        # Tensor has no pinned memory, so this is what torch's CPU build answers
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """Mirrors `torch.nn.utils.rnn.invert_permutation`."""
    if permutation is None:
        return None
    if not isinstance(permutation, Tensor):  # torch's empty_like(permutation) refuses it
        raise TypeError(
            "empty_like(): argument 'input' (position 1) must be Tensor, not "
            f"{type(permutation).__name__}"
        )
    out = empty_like(permutation)
    return out.scatter_(0, permutation, arange(permutation.numel()))


# --- packing: one op, as torch's _pack_padded_sequence ------------------------------------
# `rows` lists, step by step, the rows of the time-major input flattened to (T * B, *) that the
# packed data holds, so the forward is a gather and the backward the matching scatter.


def _pack_fwd(
    input: np.ndarray, rows: tuple[int, ...], batch_sizes: tuple[int, ...], batch_first: bool
) -> tuple[np.ndarray, np.ndarray]:
    x = np.swapaxes(input, 0, 1) if batch_first else input
    data = x.reshape((-1, *x.shape[2:]))[list(rows)]
    return data, np.array(batch_sizes, dtype=np.int64)


def _pack_bwd(
    grad: Tensor, input_sizes: tuple[int, ...], batch_sizes: Tensor, batch_first: bool
) -> Tensor:
    # torch's _pack_padded_sequence_backward, composite: each step's rows copied into a zero
    # time-major gradient (its graph under create_graph: one CopySlices per step); a length
    # past the padded size selects past the end (torch's IndexError)
    size = list(input_sizes)
    if batch_first:
        size[0], size[1] = size[1], size[0]
    grad_input = grad.new_zeros(size)
    sizes = batch_sizes.tolist()
    if grad.requires_grad:  # (create_graph: torch's graph)
        offset = 0
        for i, n in enumerate(sizes):
            grad_input.select(0, i)[:n].copy_(grad[offset : offset + n])
            offset += n
    else:  # the same values in one scatter
        if len(sizes) > size[0]:
            grad_input.select(0, size[0])  # (torch's IndexError)
        rows = tensor([t * size[1] + b for t, n in enumerate(sizes) for b in range(n)])
        flat = grad_input.view(size[0] * size[1], *size[2:]).index_copy(0, rows, grad)
        grad_input = flat.view(size)
    return grad_input.transpose(0, 1) if batch_first else grad_input


# torch's node saves batch_first, the input's sizes and its second output, batch_sizes (so a
# second backward through it finds them freed)
_pack_padded = defop(
    "_pack_padded_sequence",
    "PackPaddedSequenceBackward0",
    lambda input, input_sym_sizes, rows, batch_sizes, batch_first: _pack_fwd(
        input, rows, batch_sizes, batch_first
    ),
    dtype="keep",
    n_outputs=2,
    diff_outputs=(0,),
    input=lambda grads, input_sym_sizes, batch_first, result1: _pack_bwd(
        grads[0], input_sym_sizes, result1, batch_first
    ),
)


def _check_lengths(input: Tensor, lengths: Tensor, batch_first: bool) -> list[int]:
    if lengths.dim() != 1:
        raise RuntimeError(
            "'lengths' argument should be a 1D CPU int64 tensor, but got "
            f"{lengths.dim()}D cpu Long tensor"
        )
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    batch = input.size(0 if batch_first else 1)
    lens = [int(v) for v in lengths.tolist()]
    if len(lens) != batch:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} "
            f"(batch_size={batch})"
        )
    if lens[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    if any(a < b for a, b in pairwise(lens)):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
            "sidestep this requirement if you do not need ONNX exportability."
        )
    return lens


def pack_padded_sequence(
    input: Tensor,
    lengths: Tensor | list[int],
    batch_first: bool = False,
    enforce_sorted: bool = True,
) -> PackedSequence:
    """Mirrors `torch.nn.utils.rnn.pack_padded_sequence`."""
    if isinstance(lengths, Tensor):
        lengths = lengths.to(dtype=D.int64)
    else:
        lengths = as_tensor(lengths, dtype=D.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    lens = _check_lengths(input, lengths, batch_first)
    batch = len(lens)
    steps = int(input.size(1 if batch_first else 0))
    batch_sizes = [sum(1 for n in lens if n > t) for t in range(lens[0])]
    # a length past the padded size packs only the steps that exist, as torch's kernel does
    rows = tuple(t * batch + b for t, n in enumerate(batch_sizes[:steps]) for b in range(n))
    data, sizes = _pack_padded(input, tuple(input.shape), rows, tuple(batch_sizes), batch_first)
    return PackedSequence(data, sizes, sorted_indices, None)


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.nn.utils.rnn.pad_packed_sequence`."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_seq_length}"
            )
        if isinstance(total_length, (bool, float)) or not hasattr(total_length, "__index__"):
            raise TypeError(
                "_pad_packed_sequence(): argument 'total_length' (position 5) must be int, not "
                f"{type(total_length).__name__}"
            )
        max_seq_length = total_length
    padded, lengths = _pad_packed(
        sequence.data, sequence.batch_sizes, padding_value, max_seq_length
    )
    if batch_first:
        padded = padded.transpose(0, 1)
    unsorted = sequence.unsorted_indices
    if unsorted is None:
        return padded, lengths
    return padded.index_select(0 if batch_first else 1, unsorted), lengths[unsorted]


def _pad_packed(
    data: Tensor, batch_sizes: Tensor, padding_value: float, total: int
) -> tuple[Tensor, Tensor]:
    """Time-major padded output and lengths; one slice copy per run of equal batch sizes."""
    sizes = [int(b) for b in batch_sizes.tolist()]
    rest = tuple(data.shape[1:])
    out = data.new_full((total, sizes[0], *rest), padding_value)
    lengths = [0] * sizes[0]
    offset, start = 0, 0
    for t in range(1, len(sizes) + 1):
        if t < len(sizes) and sizes[t] == sizes[start]:
            continue
        b = sizes[start]
        n = b * (t - start)
        out[start:t, :b].copy_(data[offset : offset + n].view(t - start, b, *rest))
        nxt = sizes[t] if t < len(sizes) else 0
        lengths[nxt:b] = [t] * (b - nxt)
        offset, start = offset + n, t
    return out, tensor(lengths, dtype=D.int64)


def pad_sequence(
    sequences: Tensor | list[Tensor],
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    """Mirrors `torch.nn.utils.rnn.pad_sequence`."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(
            "pad_sequence: Expected iterable for input sequences, but got arg of type: "
            f"{type(sequences)}"
        )
    seqs = tuple(sequences)
    if not seqs:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    if seqs[0].dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    longest = max(s.size(0) for s in seqs)
    rest = tuple(seqs[0].shape[1:])
    shape = (len(seqs), longest, *rest) if batch_first else (longest, len(seqs), *rest)
    out = seqs[0].new_full(shape, padding_value)
    for i, s in enumerate(seqs):
        n = s.size(0)
        start = longest - n if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, n).copy_(s)
        else:
            out.narrow(0, start, n).select(1, i).copy_(s)
    return out


def unpad_sequence(
    padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False
) -> list[Tensor]:
    """Mirrors `torch.nn.utils.rnn.unpad_sequence` (which, as torch's, transposes a time-major
    `padded_sequences` in place)."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < n] for seq, n in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Mirrors `torch.nn.utils.rnn.pack_sequence`."""
    lengths = as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Mirrors `torch.nn.utils.rnn.unpack_sequence`."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
