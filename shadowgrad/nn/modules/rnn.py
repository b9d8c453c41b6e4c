"""RNN, LSTM, GRU and their cells. Mirrors `torch.nn.modules.rnn`.

Torch runs these through `_VF.lstm`, ...: a float32 LSTM without projections on dense input
runs its oneDNN layers, one node each (ops/nn_fused.py, Note [oneDNN LSTM]); everything else
composes each time step from public ops (linear, sigmoid, tanh, stack, cat) following torch's
cell formulas and gate order.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from ... import _dtype as D
from ..._creation import empty, zeros
from ..._tensor import Tensor
from ...ops.nn_fused import mkldnn_lstm, use_mkldnn_lstm
from ...ops.shape import cat, stack
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]


# --- one time step (torch's ATen cell formulas, gates in torch's order) -------------------
# `gi` is the input projection W_ih x + b_ih, computed for all steps at once as torch does.
# Operands in torch's order (linear_hh(h) first) and unsafe_chunk, so the graphs match.


def _tanh_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    return (F.linear(h, w_hh, b_hh) + gi).tanh()  # torch: linear_hh(h).add_(gi)


def _relu_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    return (F.linear(h, w_hh, b_hh) + gi).relu()


def _gru_step(gi: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    i_r, i_z, i_n = gi.unsafe_chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).unsafe_chunk(3, 1)
    r = (h_r + i_r).sigmoid()
    z = (h_z + i_z).sigmoid()
    n = (i_n + h_n * r).tanh()  # torch's n gate: r scales W_hn h + b_hn, not h
    return (h - n) * z + n


def _lstm_step(
    gi: Tensor, hc: tuple[Tensor, Tensor], w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None
) -> tuple[Tensor, Tensor]:
    h, c = hc
    i, f, g, o = (F.linear(h, w_hh, b_hh) + gi).unsafe_chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


_STEPS = {"RNN_TANH": _tanh_step, "RNN_RELU": _relu_step, "GRU": _gru_step}

# Note [Packed recurrence]
# A PackedSequence holds, step by step, the rows of the sequences still running at that step,
# longest sequences first, so the batch only shrinks. Going forward, the rows that end at a step
# are set aside as their final states and the rest go on; the final state is those pieces put
# back in batch order. Going backward, the batch grows: rows whose sequences start (from their
# end) join from the initial state. Torch's packed kernels run the same schedule, so the final
# states cover only each sequence's valid steps.


def _rows(h: Any, start: int, stop: int) -> Any:
    """Rows start:stop of a hidden state (an LSTM's (h, c) pair too)."""
    if isinstance(h, tuple):
        return h[0][start:stop], h[1][start:stop]
    return h[start:stop]


def _join(parts: list[Any]) -> Any:
    if isinstance(parts[0], tuple):
        return cat([p[0] for p in parts], 0), cat([p[1] for p in parts], 0)
    return cat(parts, 0)


class RNNBase(Module):
    """Base class of RNN, LSTM and GRU. Mirrors `torch.nn.RNNBase`."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_args(dropout, num_layers, bias, batch_first, input_size, hidden_size, proj_size)
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}.get(mode)
        if gate_size is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size *= hidden_size
        num_directions = 2 if bidirectional else 1
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for name, shape in zip(names, shapes, strict=True):
                    setattr(self, name, Parameter(empty(shape, device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def __setstate__(self, d: dict[str, Any]) -> None:
        """Mirrors `torch.nn.RNNBase.__setstate__`: pickles of older torch versions."""
        super().__setstate__(d)
        if "all_weights" in d:
            self._all_weights = d["all_weights"]
        if "proj_size" not in d:  # (LSTMs saved before proj_size existed)
            self.proj_size = 0
        if not isinstance(self._all_weights[0][0], str):  # (weights saved, not their names)
            self._flat_weights_names = []
            self._all_weights = []
            for layer in range(self.num_layers):
                for direction in range(2 if self.bidirectional else 1):
                    suffix = "_reverse" if direction == 1 else ""
                    w = ["weight_ih_l{}{}", "weight_hh_l{}{}", "bias_ih_l{}{}", "bias_hh_l{}{}"]
                    w = [x.format(layer, suffix) for x in [*w, "weight_hr_l{}{}"]]
                    if self.bias:
                        names = w if self.proj_size > 0 else w[:4]
                        self._all_weights += [names]
                        self._flat_weights_names.extend(names)
                    elif self.proj_size > 0:  # (torch's nesting, kept)
                        self._all_weights += [w[:2], w[-1:]]
                        self._flat_weights_names.extend([*w[:2], w[-1:]])  # type: ignore[list-item]
                    else:
                        self._all_weights += [w[:2]]
                        self._flat_weights_names.extend(w[:2])

    @property
    def _flat_weights(self) -> list[Tensor | None]:
        return [getattr(self, n, None) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """Mirrors `torch.nn.RNNBase.all_weights`."""
        return [[getattr(self, w) for w in ws] for ws in self._all_weights]

    def flatten_parameters(self) -> None:
        """Mirrors `torch.nn.RNNBase.flatten_parameters` (a no-op off cuDNN, as in torch)."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes: Any) -> None:
        wdt = self._flat_weights[0].dtype  # type: ignore[union-attr]
        if input.dtype != wdt:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({wdt}). "
                f"Convert input: input.to({wdt}), or convert model: model.to({input.dtype})"
            )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(
                f"input must have {expected_input_dim} dimensions, got {input.dim()}"
            )
        if self.input_size != input.size(-1):
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Any) -> tuple[int, int, int]:
        mini_batch = _mini_batch(self, input, batch_sizes)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(
        self,
        hx: Tensor,
        expected_hidden_size: tuple[int, int, int],
        msg: str = "Expected hidden size {}, got {}",
    ) -> None:
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx: Any, permutation: Any) -> Any:
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # --- the recurrence -------------------------------------------------------------------
    def _run(
        self, input: Tensor, hx: Any, batch_sizes: list[int] | None = None
    ) -> tuple[Tensor, list[Any]]:
        """Run every layer and direction; hx is per (layer, dir).

        `input` is time-major (or batch-first) padded, or, with `batch_sizes`, the data of a
        PackedSequence: then each step runs only the sequences still going at that step.
        """
        if batch_sizes is None and self.batch_first:
            input = input.transpose(0, 1)
        if batch_sizes is None and input.size(0) == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        num_directions = 2 if self.bidirectional else 1
        n_w = len(self._all_weights[0])
        flat = self._flat_weights
        finals: list[Any] = []
        x = input
        for layer in range(self.num_layers):
            outs = []
            for d in range(num_directions):
                k = layer * num_directions + d
                ws = flat[k * n_w : (k + 1) * n_w]
                gi = F.linear(x, ws[0], ws[2] if self.bias else None)  # type: ignore[arg-type]
                out, h = self._direction(gi, hx[k], ws, batch_sizes, d == 1)
                outs.append(out)
                finals.append(h)
            x = outs[0] if num_directions == 1 else cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        if batch_sizes is None and self.batch_first:
            # torch turns RNN and GRU outputs back in place (transpose_), LSTM's not
            x = x.transpose(0, 1) if self.mode == "LSTM" else x.transpose_(0, 1)
        return x, finals

    def _direction(
        self, gi: Tensor, h0: Any, ws: list[Any], batch_sizes: list[int] | None, reverse: bool
    ) -> tuple[Tensor, Any]:
        """One layer in one direction over the input projections `gi` of every step.

        See Note [Packed recurrence] for `batch_sizes`.
        """
        w_hh = ws[1]
        b_hh = ws[3] if self.bias else None
        w_hr = ws[-1] if self.proj_size > 0 else None
        step = _STEPS.get(self.mode)
        if batch_sizes is None:
            steps, sizes = gi.unbind(0), None
        else:
            # torch's packed layers take each step's rows with narrow (SliceBackward0)
            offsets = [sum(batch_sizes[:t]) for t in range(len(batch_sizes))]
            steps = tuple(gi.narrow(0, o, n) for o, n in zip(offsets, batch_sizes, strict=True))
            sizes = batch_sizes
        order = range(len(steps) - 1, -1, -1) if reverse else range(len(steps))
        h, done = h0, []
        live = 0 if sizes is None else sizes[order[0]]
        if sizes is not None and reverse:
            h = _rows(h0, 0, live)
        ys: list[Any] = [None] * len(steps)
        for t in order:
            if sizes is not None and sizes[t] < live:
                done.append(_rows(h, sizes[t], live))
                h, live = _rows(h, 0, sizes[t]), sizes[t]
            elif sizes is not None and sizes[t] > live:
                h, live = _join([h, _rows(h0, live, sizes[t])]), sizes[t]
            if step is None:
                h = _lstm_step(steps[t], h, w_hh, b_hh, w_hr)
                ys[t] = h[0]
            else:
                h = step(steps[t], h, w_hh, b_hh)
                ys[t] = h
        if sizes is None:
            return stack(ys, 0), h
        if not reverse:
            h = _join([h, *done[::-1]])
        return cat(ys, 0), h

    def _prepare(self, input: Any, name: str) -> tuple[Tensor, bool, int]:
        if input.dim() not in (2, 3):
            raise ValueError(
                f"{name}: Expected input to be 2D or 3D, got {input.dim()}D "
                + ("tensor instead" if name == "RNN" else "instead")
            )
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        return input, is_batched, batch_dim

    def _zeros(self, input: Tensor, size: int, batch: int | None = None) -> Tensor:
        if batch is None:
            batch = input.size(0) if self.batch_first else input.size(1)
        n = self.num_layers * (2 if self.bidirectional else 1)
        return zeros(n, batch, size, dtype=input.dtype)

    def _forward_single(self, input: Any, hx: Tensor | None, name: str) -> Any:
        """RNN and GRU: one hidden state."""
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._zeros(data, self.hidden_size, int(batch_sizes[0]))
            else:
                hx = self.permute_hidden(hx, sorted_indices)
            self.check_forward_args(data, hx, batch_sizes)
            _check_flat(self, 3)
            sizes = [int(b) for b in batch_sizes.tolist()]
            output, finals = self._run(data, hx.unbind(0), sizes)
            packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return packed, self.permute_hidden(stack(finals, 0), unsorted_indices)
        input, is_batched, batch_dim = self._prepare(input, name)
        if not is_batched and hx is not None:
            if hx.dim() != 2:
                raise RuntimeError(
                    f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                )
            hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(
                f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
            )
        if hx is None:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx, None)
        _check_flat(self, 2)
        output, finals = self._run(input, hx.unbind(0))
        hidden = stack(finals, 0)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


def _check_flat(rnn: RNNBase, arg: int) -> None:
    """torch's parser reading the weights list (argument `arg` of _VF.rnn_tanh/gru/lstm: 3
    after a packed input's batch_sizes): a weight set to None is no Tensor."""
    for i, w in enumerate(rnn._flat_weights):
        if w is None:
            raise TypeError(f"expected Tensor as element {i} in argument {arg}, but got NoneType")


def _mini_batch(rnn: RNNBase, input: Tensor, batch_sizes: Any) -> int:
    if batch_sizes is not None:
        return int(batch_sizes[0])
    return input.size(0) if rnn.batch_first else input.size(1)


def _check_args(
    dropout: Any,
    num_layers: int,
    bias: Any,
    batch_first: Any,
    input_size: Any,
    hidden_size: Any,
    proj_size: int,
) -> None:
    if (
        not isinstance(dropout, numbers.Number)
        or not 0 <= dropout <= 1  # type: ignore[operator]
        or isinstance(dropout, bool)
    ):
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the probability of an "
            "element being zeroed"
        )
    if dropout > 0 and num_layers == 1:  # type: ignore[operator]
        warnings.warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
            f"expects num_layers greater than 1, but got dropout={dropout} and "
            f"num_layers={num_layers}",
            stacklevel=4,
        )
    if not isinstance(bias, bool):
        raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
    if not isinstance(batch_first, bool):
        raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
    if not isinstance(input_size, int):
        raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNN(RNNBase):
    """Elman RNN with tanh or relu. Mirrors `torch.nn.RNN`.

    Differences: composed from public ops (torch's output grad_fn is a fused kernel's).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._forward_single(input, hx, "RNN")  # type: ignore[no-any-return]


class GRU(RNNBase):
    """Mirrors `torch.nn.GRU` (gates r, z, n; n = tanh(W_in x + b_in + r * (W_hn h + b_hn))).

    Differences: composed from public ops (torch's output grad_fn is a fused kernel's).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._forward_single(input, hx, "GRU")  # type: ignore[no-any-return]


class LSTM(RNNBase):
    """Mirrors `torch.nn.LSTM` (gates i, f, g, o; optional proj_size): float32 without
    projections on dense input runs torch's oneDNN layers (See Note [oneDNN LSTM]), the rest
    torch's composed cells."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes: Any) -> tuple[int, int, int]:
        mini_batch = _mini_batch(self, input, batch_sizes)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0],
            self.get_expected_hidden_size(input, batch_sizes),
            "Expected hidden[0] size {}, got {}",
        )
        self.check_hidden_size(
            hidden[1],
            self.get_expected_cell_size(input, batch_sizes),
            "Expected hidden[1] size {}, got {}",
        )

    def permute_hidden(self, hx: Any, permutation: Any) -> Any:
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input: Any, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Any, Any]:
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._lstm_zeros(data, int(batch_sizes[0]))
                _check_flat(self, 3)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
                _check_flat(self, 3)
                _check_packed_lstm_batch(hx, int(batch_sizes[0]))
            sizes = [int(b) for b in batch_sizes.tolist()]
            _check_two_states(hx)
            output, finals = self._run(data, _layer_states(hx), sizes)
            packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return packed, self.permute_hidden(_stack_states(finals), unsorted_indices)
        input, is_batched, batch_dim = self._prepare(input, "LSTM")
        if hx is None:
            hx = self._lstm_zeros(input, None)
        elif is_batched:
            if hx[0].dim() != 3 or hx[1].dim() != 3:
                raise RuntimeError(
                    "For batched 3-D input, hx and cx should also be 3-D but got "
                    f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                )
        else:
            if hx[0].dim() != 2 or hx[1].dim() != 2:
                raise RuntimeError(
                    "For unbatched 2-D input, hx and cx should also be 2-D but got "
                    f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                )
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        _check_flat(self, 2)
        _check_two_states(hx)
        if use_mkldnn_lstm(input, self.proj_size, False):  # See Note [oneDNN LSTM]
            if hx[0].dtype is not input.dtype or hx[1].dtype is not input.dtype:
                _check_mkldnn_states(hx, input.dtype)
            output, h_n, c_n = mkldnn_lstm(
                input, hx[0], hx[1], self._flat_weights, self.bias, self.num_layers,
                self.dropout, self.training, self.bidirectional, self.batch_first,
            )  # fmt: skip
        else:
            output, finals = self._run(input, _layer_states(hx))
            h_n, c_n = _stack_states(finals)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)

    def _lstm_zeros(self, input: Tensor, batch: int | None) -> tuple[Tensor, Tensor]:
        real = self.proj_size if self.proj_size > 0 else self.hidden_size
        return self._zeros(input, real, batch), self._zeros(input, self.hidden_size, batch)


def _check_packed_lstm_batch(hx: tuple[Tensor, Tensor], batch: int) -> None:
    # torch checks a packed input's LSTM states only inside its kernel, whose broadcast error
    # names the h rows first, then the c rows (or the batch when those agree); it reads both
    # states' dim 2 first (the projection test), torch's IndexError for a state under 3-D
    hx[0].size(2), hx[1].size(2)
    h, c = hx[0].size(1), hx[1].size(1)
    if h != c or h != batch:
        raise RuntimeError(
            f"The size of tensor a ({h}) must match the size of tensor b "
            f"({c if h != c else batch}) at non-singleton dimension 0"
        )


def _layer_states(hx: tuple[Tensor, Tensor]) -> list[tuple[Tensor, Tensor]]:
    return list(zip(hx[0].unbind(0), hx[1].unbind(0), strict=True))


def _stack_states(finals: list[Any]) -> tuple[Tensor, Tensor]:
    return stack([f[0] for f in finals], 0), stack([f[1] for f in finals], 0)


# --- cells --------------------------------------------------------------------------------


class RNNCellBase(Module):
    """Base class of the cells. Mirrors `torch.nn.RNNCellBase`."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        g = num_chunks * hidden_size
        self.weight_ih = Parameter(empty((g, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(empty((g, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(g, device=device, dtype=dtype))
            self.bias_hh = Parameter(empty(g, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batch(self, input: Tensor, hx: Any, name: str, what: str = "hidden") -> Any:
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched

    def _op(self) -> str:
        """The name of torch's _VF cell function this cell calls."""
        name = type(self).__name__
        if name == "RNNCell":
            return f"rnn_{self.nonlinearity}_cell"
        return "gru_cell" if name == "GRUCell" else "lstm_cell"

    def _gi(self, input: Tensor, *hxs: Tensor) -> Tensor:
        """The input projection, after torch's cell checks (check_rnn_cell_forward_input and
        check_rnn_cell_forward_hidden in RNN.cpp) of the batched input and hidden states."""
        for name, pos, w in (("w_ih", 3, self.weight_ih), ("w_hh", 4, self.weight_hh)):
            if not isinstance(w, Tensor):  # torch's parser, reading _VF's <cell>'s arguments
                raise TypeError(
                    f"{self._op()}(): argument '{name}' (position {pos}) must be Tensor, not "
                    f"{type(w).__name__}"
                )
        n, size = input.shape
        if size != self.weight_ih.shape[1]:
            raise RuntimeError(
                f"input has inconsistent input_size: got {size} expected {self.weight_ih.shape[1]}"
            )
        hidden = self.weight_hh.shape[1]
        for label, h in enumerate(hxs):
            if h.shape[0] != n:
                raise RuntimeError(
                    f"Input batch size {n} doesn't match hidden{label} batch size {h.shape[0]}"
                )
            if h.shape[1] != hidden:
                raise RuntimeError(
                    f"hidden{label} has inconsistent hidden_size: got {h.shape[1]}, expected "
                    f"{hidden}"
                )
        return F.linear(input, self.weight_ih, self.bias_ih)


class RNNCell(RNNCellBase):
    """Mirrors `torch.nn.RNNCell`.

    Differences: composed from public ops (torch's output grad_fn is a fused kernel's).
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._batch(input, hx, "RNNCell")
        if self.nonlinearity == "tanh":
            step = _tanh_step
        elif self.nonlinearity == "relu":
            step = _relu_step
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = step(self._gi(input, hx), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


class GRUCell(RNNCellBase):
    """Mirrors `torch.nn.GRUCell`.

    Differences: composed from public ops (torch's output grad_fn is a fused kernel's).
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._batch(input, hx, "GRUCell")
        ret = _gru_step(self._gi(input, hx), hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)


def _check_two_states(hx: Any) -> None:
    if len(hx) != 2:  # torch's _VF.lstm
        raise RuntimeError("lstm expects two hidden states")


def _check_mkldnn_states(hx: Any, dtype: Any = D.float32) -> None:
    """oneDNN's refusals of an LSTM's hidden states of another dtype than its input's: a dtype
    it has no mapping for, then no primitive for the mix."""
    dts = [h.dtype for h in hx]
    mapped = (D.float32, D.float16) + ((D.bfloat16,) if D.HAS_BF16 else ())
    if any(dt not in mapped for dt in dts):
        raise RuntimeError("get_mkldnn_dtype: unsupported data type")
    if any(dt is not dtype for dt in dts):
        raise RuntimeError(
            "could not create a primitive descriptor for the LSTM forward propagation primitive. "
            "Run workload with environment variable ONEDNN_VERBOSE=all to get additional "
            "diagnostic information."
        )


class LSTMCell(RNNCellBase):
    """Mirrors `torch.nn.LSTMCell`.

    Differences: composed from public ops (torch's output grad_fn is a fused kernel's).
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, Tensor]:
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(
                        f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead"
                    )
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            z = zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (z, z)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        elif not isinstance(hx, (tuple, list)):
            raise TypeError(  # torch's _VF.lstm_cell argument parser
                "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                f"{type(hx).__name__}"
            )
        h, c = _lstm_step(self._gi(input, *hx), hx, self.weight_hh, self.bias_hh, None)
        if not is_batched:
            return h.squeeze(0), c.squeeze(0)
        return h, c
