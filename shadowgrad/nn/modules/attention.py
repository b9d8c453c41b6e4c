"""MultiheadAttention and its functional form. Mirrors torch's `MultiheadAttention`
(`torch.nn.modules.activation`) and `torch.nn.functional.multi_head_attention_forward`.

Note [Inference fast path]
Torch takes a fused path (`_native_multi_head_attention`, `_transformer_encoder_layer_fwd`) in
some inference settings (eval, nothing needing grad, batch_first self-attention, ...). Its
values are the composed path's except in these ways, which shadowgrad reproduces by running
the composed path differently when torch's conditions hold (MultiheadAttention._native):
- the masks go through merge_masks (its view errors) and the kernel reads the merged mask as
  bool, nonzero meaning masked: an encoder layer's float mask (allowed there) masks fully
  wherever it is nonzero, it adds nothing;
- a query row whose keys are all masked comes out NaN (its masked softmax, where
  scaled_dot_product_attention gives zeros);
- the is_causal hint is ignored (only the masks count);
- the kernel's checks replace the composed path's (mask shapes, "passed-in embed_dim");
- an encoder layer's activation is exact relu or gelu (GELU(approximate="tanh") runs exact).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from ... import _dtype as D
from ..._creation import empty, zeros, zeros_like
from ..._grad_mode import is_grad_enabled
from ..._tensor import Tensor
from ...backends import mha as _mha_backend
from ...ops.linalg import baddbmm, bmm
from ...ops.shape import cat
from ...overrides import has_torch_function
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["MultiheadAttention", "NonDynamicallyQuantizableLinear", "multi_head_attention_forward"]


def _fused_args_ok(args: tuple[Any, ...]) -> bool:
    """torch's last fast-path conditions: no __torch_function__ and nothing needing grad."""
    if has_torch_function(args):
        return False
    return not (is_grad_enabled() and any(t is not None and t.requires_grad for t in args))


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's out_proj. Mirrors `torch.nn.modules.linear`'s class of that name."""


def _canonical_mask(
    mask: Tensor | None,
    mask_name: str,
    other_type: Any,
    other_name: str,
    target_type: Any,
    check_other: bool = True,
) -> Tensor | None:
    """A bool mask becomes an additive float mask (-inf where True). Mirrors torch's helper."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask.dtype is not D.bool_ and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(
            f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type "
            "for both instead.",
            stacklevel=3,
        )
    if not is_float:
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input: Tensor | None) -> Any:
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _mha_shape_check(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    key_padding_mask: Tensor | None,
    attn_mask: Tensor | None,
    num_heads: int,
) -> bool:
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                f"{key.dim()}-D and {value.dim()}-D tensors respectively"
            )
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                f"found {key_padding_mask.dim()}-D tensor instead"
            )
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError(
                "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                f"found {attn_mask.dim()}-D tensor instead"
            )
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                f"{key.dim()}-D and {value.dim()}-D tensors respectively"
            )
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                f"but found {key_padding_mask.dim()}-D tensor instead"
            )
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError(
                    "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                    f"but found {attn_mask.dim()}-D tensor instead"
                )
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected_shape:
                    raise AssertionError(
                        f"Expected `attn_mask` shape to be {expected_shape} but got "
                        f"{attn_mask.shape}"
                    )
        return False
    raise AssertionError(
        "query should be unbatched 2D or batched 3D tensor but received "
        f"{query.dim()}-D query tensor"
    )


def _in_projection_packed(
    q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None
) -> tuple[Tensor, Tensor, Tensor]:
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = F.linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2)
            proj = proj.contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = F.linear(k, w_kv, b_kv)
        kv = kv.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return F.linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _in_projection(
    q: Tensor, k: Tensor, v: Tensor, w_q: Any, w_k: Any, w_v: Any, b_q: Any, b_k: Any, b_v: Any
) -> tuple[Tensor, Tensor, Tensor]:
    """torch's _in_projection: the separate weights' and biases' shapes checked, in its order."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for what, w, shape in (
        ("query", w_q, (Eq, Eq)),
        ("key", w_k, (Eq, Ek)),
        ("value", w_v, (Eq, Ev)),
    ):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {what} weights shape of {shape}, but got {w.shape}")
    for what, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (Eq,):
            raise AssertionError(f"expecting {what} bias shape of {(Eq,)}, but got {b.shape}")
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _static(name: str, static: Tensor | None, t: Tensor, bh: int, head_dim: int) -> Tensor:
    """The projected key or value as (bsz * heads, len, head_dim), or the caller's static one
    (checked as torch checks it; torch still runs the projection it replaces)."""
    if static is None:
        return t.view(t.shape[0], bh, head_dim).transpose(0, 1)
    if static.size(0) != bh:
        raise AssertionError(f"expecting static_{name}.size(0) of {bh}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(
            f"expecting static_{name}.size(2) of {head_dim}, but got {static.size(2)}"
        )
    return static


def _check_mask_shape(attn_mask: Tensor, tgt_len: int, src_len: int, bh: int) -> Tensor:
    if attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(
                f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                f"{(tgt_len, src_len)}."
            )
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if tuple(attn_mask.shape) != (bh, tgt_len, src_len):
            raise RuntimeError(
                f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                f"{(bh, tgt_len, src_len)}."
            )
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Tensor | None,
    in_proj_bias: Tensor | None,
    bias_k: Tensor | None,
    bias_v: Tensor | None,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias: Tensor | None,
    training: bool = True,
    key_padding_mask: Tensor | None = None,
    need_weights: bool = True,
    attn_mask: Tensor | None = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Tensor | None = None,
    k_proj_weight: Tensor | None = None,
    v_proj_weight: Tensor | None = None,
    static_k: Tensor | None = None,
    static_v: Tensor | None = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """Mirrors `torch.nn.functional.multi_head_attention_forward`."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask = _canonical_mask(
        key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask", query.dtype
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
            "method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                f"{value.shape[:2]}"
            )
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(
                    f"use_separate_proj_weight is True but {name}_proj_weight is None"
                )
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(
            query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v
        )
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    src_len = key.shape[0]
    if attn_mask is not None:
        attn_mask = _check_mask_shape(attn_mask, tgt_len, src_len, bsz * num_heads)
    if bias_k is not None and bias_v is not None:
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _static("k", static_k, k, bsz * num_heads, head_dim)
    v = _static("v", static_v, v, bsz * num_heads, head_dim)
    if add_zero_attn:
        zshape = (bsz * num_heads, 1, head_dim)
        k = cat([k, zeros(zshape, dtype=k.dtype)], dim=1)
        v = cat([v, zeros(zshape, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(
                f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                f"{key_padding_mask.shape[0]}"
            )
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(
                f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                f"{key_padding_mask.shape[1]}"
            )
        key_padding_mask = (
            key_padding_mask.view(bsz, 1, 1, src_len)
            .expand(-1, num_heads, -1, -1)
            .reshape(bsz * num_heads, 1, src_len)
        )
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        if attn_mask is not None:
            w = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            w = bmm(q_scaled, k.transpose(-2, -1))
        w = F.softmax(w, dim=-1)
        if dropout_p > 0.0:
            w = F.dropout(w, p=dropout_p)
        out = bmm(w, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = F.linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        w = w.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            w = w.mean(dim=1)
        if not is_batched:
            out, w = out.squeeze(1), w.squeeze(0)
        return out, w
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = F.linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not is_batched:
        out = out.squeeze(1)
    return out, None


class MultiheadAttention(Module):
    """Mirrors `torch.nn.MultiheadAttention`.

    Torch's inference fast path runs as the composed path with its values: see
    Note [Inference fast path].
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                f"num_heads={num_heads} instead"
            )
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(empty((embed_dim, embed_dim), **fk))
            self.k_proj_weight = Parameter(empty((embed_dim, self.kdim), **fk))
            self.v_proj_weight = Parameter(empty((embed_dim, self.vdim), **fk))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(empty((3 * embed_dim, embed_dim), **fk))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, **fk))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **fk)
        if add_bias_kv:
            self.bias_k = Parameter(empty((1, 1, embed_dim), **fk))
            self.bias_v = Parameter(empty((1, 1, embed_dim), **fk))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        is_batched = query.dim() == 3
        # torch's fused inference path differs only given masks, is_causal or a wrong width
        fused = (
            not self.training
            and (
                attn_mask is not None
                or key_padding_mask is not None
                or is_causal
                or query.shape[-1] != self.embed_dim
                or query.numel() == 0
            )
            and self._fast_path(query, key, value, attn_mask, key_padding_mask)
        )
        key_padding_mask = _canonical_mask(
            key_padding_mask,
            "key_padding_mask",
            _none_or_dtype(attn_mask),
            "attn_mask",
            query.dtype,
        )
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if fused:
            merged, mask_type = self.merge_masks(attn_mask, key_padding_mask, query)
            return self._native(query, merged, mask_type, need_weights, average_attn_weights)
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = multi_head_attention_forward(
            query,
            key,
            value,
            self.embed_dim,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.bias_k,
            self.bias_v,
            self.add_zero_attn,
            self.dropout,
            self.out_proj.weight,
            self.out_proj.bias,
            training=self.training,
            key_padding_mask=key_padding_mask,
            need_weights=need_weights,
            attn_mask=attn_mask,
            use_separate_proj_weight=separate,
            q_proj_weight=self.q_proj_weight if separate else None,
            k_proj_weight=self.k_proj_weight if separate else None,
            v_proj_weight=self.v_proj_weight if separate else None,
            average_attn_weights=average_attn_weights,
            is_causal=is_causal,
        )
        if self.batch_first and is_batched:
            out = out.transpose(1, 0)
        return out, weights

    def _native(
        self, x: Tensor, merged: Tensor | None, mask_type: int | None, need: bool, average: bool
    ) -> tuple[Tensor, Tensor | None]:
        """torch's `_native_multi_head_attention` of batch_first self-attention `x` given
        merge_masks' mask: its checks, its mask read as bool (nonzero: masked) and its masked
        softmax, run as the composed path with weights. See Note [Inference fast path]."""
        if x.shape[-1] != self.embed_dim:
            raise RuntimeError(
                f"passed-in embed_dim {self.embed_dim} didn't match last dim of query {x.shape[2]}"
            )
        attn_mask = kpm = None
        need = need and x.numel() > 0  # (an empty input: no weights)
        if merged is not None:
            mask = merged if merged.dtype is D.bool_ else merged != 0
            b, n, h = x.shape[0], x.shape[1], self.num_heads
            if mask.dim() != 2:
                mask_type = 2
            if mask_type == 2:
                if tuple(mask.shape) != (b, h, n, n):
                    raise RuntimeError("For mask_type == 2 mask shape should match input shape")
                attn_mask = mask.reshape(b * h, n, n)
            else:
                if mask.shape[0] != b or mask.shape[1] != n:
                    raise RuntimeError("For mask_type == 1 mask shape should be (B, L)")
                kpm = mask
        t = x.transpose(1, 0)
        out, weights = multi_head_attention_forward(
            t, t, t, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            None, None, False, 0.0, self.out_proj.weight, self.out_proj.bias, training=False,
            key_padding_mask=kpm, need_weights=need or merged is not None, attn_mask=attn_mask,
            average_attn_weights=average,
        )  # fmt: skip
        return out.transpose(1, 0), weights if need else None

    def __setstate__(self, state: dict[str, Any]) -> None:
        # torch's: MultiheadAttention pickled by v1.1.0 lacks _qkv_same_embed_dim
        if "_qkv_same_embed_dim" not in state:
            state["_qkv_same_embed_dim"] = True
        super().__setstate__(state)

    def _fast_path(self, query: Any, key: Any, value: Any, attn_mask: Any, kpm: Any) -> bool:
        """Whether torch's forward takes `_native_multi_head_attention` (its conditions)."""
        if (attn_mask is not None and attn_mask.is_floating_point()) or (
            kpm is not None and kpm.is_floating_point()
        ):
            return False
        w, b = self.in_proj_weight, self.in_proj_bias
        if not (
            _mha_backend.get_fastpath_enabled()
            and query.dim() == 3
            and query is key
            and key is value
            and w is not None
            and b is not None
            and query.dtype == b.dtype
            and query.dtype == w.dtype
            and self.num_heads % 2 == 0
            and self.batch_first
            and self.bias_k is None
            and self.bias_v is None
            and not self.add_zero_attn
            and self._qkv_same_embed_dim
        ):
            return False
        return _fused_args_ok((query, w, b, self.out_proj.weight, self.out_proj.bias))

    def merge_masks(
        self, attn_mask: Tensor | None, key_padding_mask: Tensor | None, query: Tensor
    ) -> tuple[Tensor | None, int | None]:
        """Mirrors `torch.nn.MultiheadAttention.merge_masks`."""
        mask_type: int | None = None
        merged: Tensor | None = None
        if key_padding_mask is not None:
            mask_type = 1
            merged = key_padding_mask
        if attn_mask is not None:
            batch_size, seq_len, _ = query.shape
            mask_type = 2
            if attn_mask.dim() == 3:
                expanded = attn_mask.view(batch_size, -1, seq_len, seq_len)
            else:
                expanded = attn_mask.view(1, 1, seq_len, seq_len).expand(
                    batch_size, self.num_heads, -1, -1
                )
            merged = expanded
            if key_padding_mask is not None:
                merged = expanded + key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                    -1, self.num_heads, -1, -1
                )
        return merged, mask_type
