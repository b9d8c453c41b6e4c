"""Transformer, its encoder and decoder stacks and layers. Mirrors `torch.nn.modules.transformer`.

Torch's inference fast paths (`_transformer_encoder_layer_fwd`, nested tensors) run here as the
composed path, with the fast path's values (see Note [Inference fast path] in attention.py).
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

from ..._creation import arange, full
from ..._grad_mode import is_grad_enabled
from ..._tensor import Tensor, warn_once
from ...backends import mha as _mha_backend
from ...ops.shape import triu
from ...overrides import unwrapped
from .. import functional as F
from .. import init
from .activation import GELU, ReLU
from .attention import MultiheadAttention, _canonical_mask, _fused_args_ok, _none_or_dtype
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
]


def _generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
    return triu(full((sz, sz), float("-inf"), dtype=dtype), diagonal=1)


def _get_seq_len(src: Tensor, batch_first: bool) -> int:
    size = src.size()
    if len(size) == 2:
        return size[0]  # type: ignore[no-any-return]
    return size[1 if batch_first else 0]  # type: ignore[no-any-return]


def _get_clones(module: Module, N: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(N)])


def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(
    mask: Tensor | None, is_causal: bool | None = None, size: int | None = None
) -> bool:
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal = _generate_square_subsequent_mask(sz, dtype=mask.dtype)
        make_causal = mask.size() == causal.size() and bool((mask == causal).all())
    return make_causal


class TransformerEncoderLayer(Module):
    """Self-attention then feed-forward, each with residual and LayerNorm.

    Mirrors `torch.nn.TransformerEncoderLayer`.
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **fk
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **fk)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **fk)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        act = unwrapped(activation)  # (F.relu wrapped for __torch_function__: the same relu)
        if act is unwrapped(F.relu) or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif act is unwrapped(F.gelu) or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask,
            "src_key_padding_mask",
            _none_or_dtype(src_mask),
            "src_mask",
            src.dtype,
        )
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype, False)
        if not self.training and self._fast_path(src):
            return self._fused_forward(src, src_mask, src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if not hasattr(self, "activation"):  # (torch's: layers pickled before it existed)
            self.activation = F.relu

    def _fast_path(self, src: Tensor) -> bool:
        """Whether torch's forward takes `_transformer_encoder_layer_fwd` (its conditions)."""
        attn = self.self_attn
        if not (
            _mha_backend.get_fastpath_enabled()
            and src.dim() == 3
            and attn.batch_first
            and attn.in_proj_bias is not None
            and attn._qkv_same_embed_dim
            and self.activation_relu_or_gelu
            and self.norm1.eps == self.norm2.eps
            and attn.num_heads % 2 == 0
        ):
            return False
        if any(m._forward_hooks or m._forward_pre_hooks for m in self.modules()):
            return False
        args = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight)
        args += (attn.out_proj.bias, self.norm1.weight, self.norm1.bias, self.norm2.weight)
        args += (self.norm2.bias, self.linear1.weight, self.linear1.bias, self.linear2.weight)
        return _fused_args_ok((*args, self.linear2.bias))

    def _fused_forward(self, src: Tensor, mask: Tensor | None, kpm: Tensor | None) -> Tensor:
        """torch's fused layer: masks merged and read as bool (is_causal ignored), softmax
        masked, exact relu or gelu, no dropout. See Note [Inference fast path]."""
        merged, mask_type = self.self_attn.merge_masks(mask, kpm, src)
        act = F.gelu if self.activation_relu_or_gelu == 2 else F.relu

        def sa(x: Tensor) -> Tensor:
            return self.self_attn._native(x, merged, mask_type, False, True)[0]

        def ff(x: Tensor) -> Tensor:
            return self.linear2(act(self.linear1(x)))  # type: ignore[no-any-return]

        if self.norm_first:
            x = src + sa(self.norm1(src))
            return x + ff(self.norm2(x))  # type: ignore[no-any-return]
        x = self.norm1(src + sa(src))
        return self.norm2(x + ff(x))  # type: ignore[no-any-return]

    def _sa_block(
        self,
        x: Tensor,
        attn_mask: Tensor | None,
        key_padding_mask: Tensor | None,
        is_causal: bool = False,
    ) -> Tensor:
        x = self.self_attn(
            x,
            x,
            x,
            attn_mask=attn_mask,
            key_padding_mask=key_padding_mask,
            need_weights=False,
            is_causal=is_causal,
        )[0]
        return self.dropout1(x)  # type: ignore[no-any-return]

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)  # type: ignore[no-any-return]


class TransformerEncoder(Module):
    """A stack of N encoder layers (deep copies of one). Mirrors `torch.nn.TransformerEncoder`.

    Differences: never converts to nested tensors (torch's inference fast path gives the same
    values).
    """

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_sparsity_fast_path(encoder_layer)
        if enable_nested_tensor and why:
            warnings.warn(
                f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why}",
                stacklevel=2,
            )
            self.use_nested_tensor = False

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask,
            "src_key_padding_mask",
            _none_or_dtype(mask),
            "mask",
            src.dtype,
        )
        mask = _canonical_mask(mask, "mask", None, "", src.dtype, False)
        batch_first = self.layers[0].self_attn.batch_first
        nested = self._nested_fast_path(src, mask, src_key_padding_mask)
        causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, batch_first))
        output = src
        if nested:
            # torch runs each row as a nested tensor of its first n positions, n the count the
            # mask keeps (mask_check=False: even from a mask not left-aligned), and pads the
            # result with zeros
            kept = (src_key_padding_mask == 0).sum(1, keepdim=True)  # type: ignore[union-attr]
            src_key_padding_mask = arange(src.shape[1]).unsqueeze(0) >= kept
        for mod in self.layers:
            output = mod(
                output, src_mask=mask, is_causal=causal, src_key_padding_mask=src_key_padding_mask
            )
        if nested:
            output = output.masked_fill(src_key_padding_mask.unsqueeze(-1), 0.0)  # type: ignore[union-attr]
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _nested_fast_path(self, src: Tensor, mask: Any, kpm: Tensor | None) -> bool:
        """Whether torch's inference path through nested tensors applies (same conditions, in
        its order), with the mask checks of its nested-tensor constructors."""
        first = self.layers[0]
        if not _mha_backend.get_fastpath_enabled():
            return False
        use_nested = getattr(self, "use_nested_tensor", False)  # (absent from older pickles)
        if not use_nested or first.training or src.dim() != 3 or kpm is None:
            return False
        mask_check = getattr(self, "mask_check", True)
        if mask_check:
            _check_nested_mask(src, kpm)  # torch's _nested_tensor_from_mask_left_aligned
            keep = (kpm == 0).numpy()
            if (keep[:, 1:] & ~keep[:, :-1]).any():
                return False  # not left-aligned
        if mask is not None or not first.self_attn.batch_first:
            return False
        if is_grad_enabled():
            args = (src, *first.parameters())
            if any(t.requires_grad for t in args):
                return False
        if not mask_check:
            _check_nested_mask(src, kpm)  # torch's _nested_tensor_from_mask
        warn_once(
            "nested_tensor.prototype",
            "The PyTorch API of nested tensors is in prototype stage and will change in the near "
            "future. We recommend specifying layout=torch.jagged when constructing a nested "
            "tensor, as this layout receives active development, has better operator coverage, "
            "and works with torch.compile.",
        )
        return True


def _check_nested_mask(src: Tensor, kpm: Tensor) -> None:
    if kpm.dim() != 2:
        raise RuntimeError("Padding mask should be 2D")
    if tuple(kpm.shape) != tuple(src.shape[:2]):
        raise RuntimeError("Mask size should match input size")


def _why_not_sparsity_fast_path(layer: Any) -> str:
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{name}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (
            f"{name}.self_attn.batch_first was not True"
            "(use batch_first for better inference performance)"
        )
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{name}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{name}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{name}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{name}.norm1.eps was not equal to {name}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{name}.self_attn.num_heads is odd"
    return ""


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the memory, then feed-forward, each with residual and
    LayerNorm. Mirrors `torch.nn.TransformerDecoderLayer`."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        mha = {"dropout": dropout, "batch_first": batch_first, "bias": bias, **fk}
        self.self_attn = MultiheadAttention(d_model, nhead, **mha)
        self.multihead_attn = MultiheadAttention(d_model, nhead, **mha)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **fk)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **fk)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = (
            _get_activation_fn(activation) if isinstance(activation, str) else activation
        )

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        x = tgt
        sa = (tgt_mask, tgt_key_padding_mask, tgt_is_causal)
        mha = (memory, memory_mask, memory_key_padding_mask, memory_is_causal)
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), *sa)
            x = x + self._mha_block(self.norm2(x), *mha)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, *sa))
            x = self.norm2(x + self._mha_block(x, *mha))
            x = self.norm3(x + self._ff_block(x))
        return x

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if not hasattr(self, "activation"):  # (torch's: layers pickled before it existed)
            self.activation = F.relu

    def _attend(self, attn: Module, x: Tensor, mem: Tensor, mask: Any, kpm: Any, causal: bool):
        return attn(
            x, mem, mem, attn_mask=mask, key_padding_mask=kpm, is_causal=causal, need_weights=False
        )[0]

    def _sa_block(
        self, x: Tensor, attn_mask: Any, key_padding_mask: Any, is_causal: bool = False
    ) -> Tensor:
        y = self._attend(self.self_attn, x, x, attn_mask, key_padding_mask, is_causal)
        return self.dropout1(y)  # type: ignore[no-any-return]

    def _mha_block(
        self, x: Tensor, mem: Tensor, attn_mask: Any, key_padding_mask: Any, is_causal: bool = False
    ) -> Tensor:
        y = self._attend(self.multihead_attn, x, mem, attn_mask, key_padding_mask, is_causal)
        return self.dropout2(y)  # type: ignore[no-any-return]

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)  # type: ignore[no-any-return]


class TransformerDecoder(Module):
    """A stack of N decoder layers (deep copies of one). Mirrors `torch.nn.TransformerDecoder`."""

    def __init__(
        self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None
    ) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        output = tgt
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for mod in self.layers:
            output = mod(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=causal,
                memory_is_causal=memory_is_causal,
            )
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder stack and a decoder stack, each closed by a LayerNorm; every weight matrix
    xavier-uniform initialized. Mirrors `torch.nn.Transformer`."""

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = F.relu,
        custom_encoder: Any = None,
        custom_decoder: Any = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps)
        args += (batch_first, norm_first, bias)  # type: ignore[assignment]
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
            layer = TransformerEncoderLayer(*args, **fk)  # type: ignore[arg-type]
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **fk)
            dec = TransformerDecoderLayer(*args, **fk)  # type: ignore[arg-type]
            self.decoder = TransformerDecoder(dec, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        if src.dim() == 3 and src.size(0 if self.batch_first else 1) != tgt.size(
            0 if self.batch_first else 1
        ):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self.decoder(  # type: ignore[no-any-return]
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
        """A float (sz, sz) mask: -inf above the diagonal, 0 elsewhere."""
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
