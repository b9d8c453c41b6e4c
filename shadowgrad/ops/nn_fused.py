"""Fused nn kernels: the ops torch's nn functions record as one node each.

Torch computes some nn functions with one kernel whose backward is one node, where a
composition from public ops would record many: `F.bilinear` (`_trilinear`, TrilinearBackward0),
`F.scaled_dot_product_attention` (the CPU flash kernel, or the math backend's `_safe_softmax`)
and the float32 LSTM (`mkldnn_rnn_layer`, one node per layer and direction). Each is declared
here once, with its numpy forward and its formulas, and called by `shadowgrad.nn` (and
`torch.lstm`); none is a public function, so this module is not an op family.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _formats as _fmt
from .._creation import zeros_like
from .._tensor import _make, warn_once
from ..autograd.forward_ad import _plus
from . import nn_ops as K
from . import pointwise as P
from .registry import _SAVED_LAZY, defop

# --- _trilinear (F.bilinear) ------------------------------------------------------------------


def _trilinear_np(
    i1: Any, i2: Any, i3: Any, expand1: Any, expand2: Any, expand3: Any, sumdim: Any
) -> np.ndarray:
    """The product of the three inputs, each unsqueezed at its expand dims, summed over
    sumdim (the summed dims removed), as torch's `_trilinear`."""
    n = i1.ndim + len(expand1)
    letters = "abcdefghijklmnopqrstuvwxyz"[:n]

    def subs(expand: Any) -> str:
        return "".join(c for d, c in enumerate(letters) if d not in expand)

    out = "".join(c for d, c in enumerate(letters) if d not in sumdim)
    r = np.einsum(f"{subs(expand1)},{subs(expand2)},{subs(expand3)}->{out}", i1, i2, i3)
    # torch's result is contiguous (einsum's follows its operands' layout)
    return np.asarray(r, dtype=np.result_type(i1, i2, i3), order="C")


trilinear = defop(
    "_trilinear",
    "TrilinearBackward0",
    lambda i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim: _trilinear_np(
        i1, i2, i3, expand1, expand2, expand3, sumdim
    ),
    # torch's _trilinear_backward: each input's gradient is _trilinear again, with the
    # gradient in its place (its summed dims expanded) and its own dims summed
    i1=lambda grad, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim: trilinear(
        grad, i2, i3, sumdim, expand2, expand3, expand1, unroll_dim
    ),
    i2=lambda grad, i1, i3, expand1, expand2, expand3, sumdim, unroll_dim: trilinear(
        i1, grad, i3, expand1, sumdim, expand3, expand2, unroll_dim
    ),
    i3=lambda grad, i1, i2, expand1, expand2, expand3, sumdim, unroll_dim: trilinear(
        i1, i2, grad, expand1, expand2, sumdim, expand3, unroll_dim
    ),
    jvp=lambda i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim, i1_t, i2_t, i3_t: _plus(
        _plus(
            None
            if i1_t is None
            else trilinear(i1_t, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim),
            None
            if i2_t is None
            else trilinear(i1, i2_t, i3, expand1, expand2, expand3, sumdim, unroll_dim),
        ),
        None
        if i3_t is None
        else trilinear(i1, i2, i3_t, expand1, expand2, expand3, sumdim, unroll_dim),
    ),
)


def _bilinear_checks(input1: Any, input2: Any, weight: Any, bias: Any) -> None:
    ts = [("input1", input1), ("input2", input2), ("weight", weight)]
    ts += [("bias", bias)] if bias is not None else []
    if len({t.dtype for _, t in ts}) > 1:
        got = ", ".join(f"{n}: {D.CPP_NAMES.get(t.dtype, t.dtype)}" for n, t in ts)
        raise RuntimeError(f"All tensors must have the same dtype, got {got}")
    n1, n2 = input1.dim(), input2.dim()
    if n1 != n2:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {n1} and {n2}")
    for i in range(n1 - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {i}: got "
                f"{input1.shape[i]} and {input2.shape[i]}"
            )
    from ._util import size_at

    for k, x in ((1, input1), (2, input2)):  # torch reads weight.size(k), then x.size(-1)
        ws = size_at(tuple(weight.shape), k)
        xs = size_at(tuple(x.shape), -1)
        if xs != ws:
            raise RuntimeError(
                f"bilinear(): input{k} size does not match weight size: got {xs} but expected {ws}"
            )
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but "
            f"expected {weight.shape[0]}"
        )
    if weight.dim() != 3:  # (more dims: _trilinear's check)
        raise RuntimeError("number of dimensions must match")


def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Any:
    """torch's at::bilinear after its checks: both inputs flattened to rows, one _trilinear,
    the result viewed back (ViewBackward0), then the bias added (AddBackward0)."""
    _bilinear_checks(input1, input2, weight, bias)
    if input1.dtype is D.bool_:
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    out_shape = (*tuple(input1.shape)[:-1], weight.shape[0])
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    out = trilinear(x1, weight, x2, (1, 3), (0,), (1, 2), (2, 3), 1).reshape(out_shape)
    return out + bias if bias is not None else out


# --- one backward shared by several formulas ----------------------------------------------------
# Note [Shared backward]: a fused kernel's backward computes every input's gradient at once,
# while the registry calls one formula per input, in order, with the same `grads` object. The
# first formula computes them all and leaves them here for the others of the same call.
_SHARED = threading.local()


def _shared(grads: Any, compute: Any) -> Any:
    last = getattr(_SHARED, "last", None)
    if last is not None and last[0] is grads:
        return last[1]
    r = compute()
    _SHARED.last = (grads, r)
    return r


# --- _scaled_dot_product_flash_attention_for_cpu (F.scaled_dot_product_attention) ---------------

_FLASH = "_scaled_dot_product_flash_attention_for_cpu"


def _flash_scores(q: Any, k: Any, is_causal: Any, attn_mask: Any, scale: Any) -> Any:
    """Scaled scores q k^T (k's heads repeated for grouped-query attention), causal positions
    and the mask applied, in the computation dtype."""
    group = q.shape[1] // k.shape[1]
    if group > 1:
        k = np.repeat(k, group, axis=1)
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * q.dtype.type(scale)
    if is_causal:  # top-left aligned, as torch's kernel: query i sees keys 0..i
        # torch's kernel masks before scaling: a negative scale turns the -inf into +inf
        L, S = s.shape[-2:]
        s = np.where(np.tril(np.ones((L, S), bool)), s, -np.inf if scale >= 0 else np.inf)
    if attn_mask is not None:
        s = s + attn_mask.astype(s.dtype)
    return s


def _acc(a: Any) -> Any:
    # torch's CPU kernels accumulate half and bfloat16 in float
    return a.astype(np.float32) if _low(a.dtype) else a


def _low(dt: Any) -> bool:
    """float16 or bfloat16 (a longdouble array, Note [bfloat16 storage])."""
    return dt.itemsize < 4 or dt == np.longdouble


def _flash_forward(
    query: Any, key: Any, value: Any, dropout_p: Any, is_causal: Any, attn_mask: Any, scale: Any
) -> tuple[np.ndarray, np.ndarray]:
    q, k, v = _acc(query), _acc(key), _acc(value)
    sc = 1.0 / np.sqrt(q.shape[-1]) if scale is None else scale
    s = _flash_scores(q, k, is_causal, attn_mask, sc)
    m = s.max(axis=-1, keepdims=True) if s.shape[-1] else np.full((*s.shape[:-1], 1), -np.inf)
    m = np.where(m == -np.inf, 0, m).astype(s.dtype)  # fully masked rows: 0, as torch's kernel
    p = np.exp(s - m)
    total = p.sum(-1, keepdims=True)
    total = np.where(total == 0, 1, total).astype(s.dtype)
    group = q.shape[1] // v.shape[1]
    if query.dtype == np.longdouble:
        # bfloat16: the kernel's probabilities go to the second product rounded to bfloat16,
        # unnormalized; the product is divided by the (float) sum
        pv = np.matmul(
            D.round_bf16(p).astype(np.float32), v if group == 1 else np.repeat(v, group, axis=1)
        )
        out = pv / total
    else:
        out = np.matmul(p / total, np.repeat(v, group, axis=1) if group > 1 else v)
    lse = (m + np.log(total))[..., 0]
    return out.astype(query.dtype), lse.astype(np.float32 if _low(query.dtype) else q.dtype)


def _flash_backward_arrays(
    grad: Any, query: Any, key: Any, value: Any, out: Any, lse: Any, is_causal: Any,
    attn_mask: Any, scale: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """torch's flash backward: P from the saved logsumexp, dS = P (dP - rowsum(dO O))."""
    q, k, v, do, o = (_acc(a) for a in (query, key, value, grad, out))
    sc = 1.0 / np.sqrt(q.shape[-1]) if scale is None else scale
    group = q.shape[1] // k.shape[1]
    s = _flash_scores(q, k, is_causal, attn_mask, sc)
    p = np.exp(s - lse.astype(s.dtype)[..., None])
    vr = np.repeat(v, group, axis=1) if group > 1 else v
    kr = np.repeat(k, group, axis=1) if group > 1 else k
    dv = np.matmul(np.swapaxes(p, -1, -2), do)
    dp = np.matmul(do, np.swapaxes(vr, -1, -2))
    ds = p * (dp - (do * o).sum(-1, keepdims=True))
    dq = np.matmul(ds, kr) * q.dtype.type(sc)
    dk = np.matmul(np.swapaxes(ds, -1, -2), q) * q.dtype.type(sc)
    if group > 1:  # each key/value head's gradient sums over the query heads sharing it
        b, h = dk.shape[:2]
        dk = dk.reshape(b, h // group, group, *dk.shape[2:]).sum(2)
        dv = dv.reshape(b, h // group, group, *dv.shape[2:]).sum(2)
    return dq.astype(query.dtype), dk.astype(key.dtype), dv.astype(value.dtype)


def _flash_grads(
    grads: Any, query: Any, key: Any, value: Any, result: Any, result1: Any, is_causal: Any,
    attn_mask: Any, scale: Any
) -> tuple[Any, Any, Any]:  # fmt: skip
    def compute() -> tuple[Any, Any, Any]:
        from .rounding import not_implemented_outputs

        mask = None if attn_mask is None else attn_mask._data
        arrays = _flash_backward_arrays(
            grads[0]._data, query._data, key._data, value._data, result._data, result1._data,
            is_causal, mask, scale,
        )  # fmt: skip
        # torch's backward kernel has no derivative: under create_graph the gradients carry a
        # NotImplemented node (Note [NotImplemented nodes]) whose backward raises
        inputs = (grads[0], query, key, value, result, result1, attn_mask)
        aten = _FLASH + "_backward"
        # one node for the three gradients (their output_nr 0, 1, 2), as torch's
        return not_implemented_outputs(tuple(_make(a) for a in arrays), inputs, aten)

    return _shared(grads, compute)  # type: ignore[no-any-return]


def _flash_jvp(query: Any, key: Any, value: Any, is_causal: Any, attn_mask: Any, scale: Any,
               query_t: Any, key_t: Any, value_t: Any) -> Any:  # fmt: skip
    """Forward mode, composed from Tensor ops (torch's kernel has none; see flash_attention)."""
    group = query.shape[1] // key.shape[1]

    def heads(t: Any) -> Any:
        return t.repeat_interleave(group, 1) if group > 1 and t is not None else t

    k, v, k_t, v_t = heads(key), heads(value), heads(key_t), heads(value_t)
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    mask = None if attn_mask is None else attn_mask._data
    s = _make(_flash_scores(query._data, k._data, is_causal, mask, sc))
    p = s.softmax(-1).nan_to_num(0.0)
    s_t = None
    if query_t is not None:
        s_t = query_t.matmul(k.transpose(-1, -2)) * sc
    if k_t is not None:
        s_t = _plus(s_t, query.matmul(k_t.transpose(-1, -2)) * sc)
    out_t = None
    if s_t is not None:
        p_t = p * (s_t - (p * s_t).sum(-1, keepdim=True))
        out_t = p_t.matmul(v)
    if v_t is not None:
        out_t = _plus(out_t, p.matmul(v_t))
    return out_t, None


def _flash_formula(i: int) -> Any:
    # reads dropout_p only so that it is saved, as torch's node saves it
    def formula(
        grads: Any, query: Any, key: Any, value: Any, result: Any, result1: Any,
        dropout_p: Any, is_causal: Any, attn_mask: Any, scale: Any
    ) -> Any:  # fmt: skip
        return _flash_grads(grads, query, key, value, result, result1, is_causal, attn_mask, scale)[
            i
        ]

    return formula


flash_attention = defop(
    _FLASH,
    "ScaledDotProductFlashAttentionForCpuBackward0",
    _flash_forward,
    nondiff=("attn_mask",),
    n_outputs=2,
    diff_outputs=(0,),
    query=_flash_formula(0),
    key=_flash_formula(1),
    value=_flash_formula(2),
    jvp=lambda query, key, value, is_causal, attn_mask, scale, query_t, key_t, value_t: _flash_jvp(
        query, key, value, is_causal, attn_mask, scale, query_t, key_t, value_t
    ),
)


# --- _safe_softmax (the math backend of F.scaled_dot_product_attention) -------------------------


def _all_masked(self: Any, dim: int) -> Any:
    return np.all(self == -np.inf, axis=dim, keepdims=True)


def _np_safe_softmax(self: Any, dim: int) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # rows of -inf: nan, replaced below
        out = K._np_softmax(self, dim, False)
    rows = _all_masked(self, dim)
    return np.where(rows, 0, out).astype(out.dtype) if rows.any() else out


def _safe_softmax_t(self: Any, dim: int, self_t: Any, result: Any) -> Any:
    t = result * K._log_softmax_t(self, dim, self_t)
    rows = _all_masked(self._data, dim)
    return P.where(_make(rows), 0.0, t) if rows.any() else t


# torch's _safe_softmax: softmax whose rows of -inf give 0, not nan (its gradient there is 0,
# since the result is)
safe_softmax = defop(
    "_safe_softmax",
    "SafeSoftmaxBackward0",
    _np_safe_softmax,
    contiguous=True,
    dtype="keep",
    # torch's formula is softmax's backward kernel (SoftmaxBackwardDataBackward0 under
    # create_graph): result * (grad - sum(grad * result)), 0 on the rows of -inf
    self=lambda grad, result, dim: K._softmax_bw_data(grad, result, dim),
    jvp=lambda self, dim, self_t, result: _safe_softmax_t(self, dim, self_t, result),
)


# --- mkldnn_rnn_layer (torch's float32 LSTM on CPU) ---------------------------------------------
# Note [oneDNN LSTM]: torch runs a float32 LSTM without projections on dense (not packed) input
# through oneDNN: one `mkldnn_rnn_layer` per layer and direction, each one node
# (MkldnnRnnLayerBackward0) with edges for input, weight_ih, weight_hh, the two biases (zeros
# without edges when the LSTM has none), and the layer's h0 and c0 (`hx[k]`, SelectBackward0).
# Other dtypes, projections and packed input take torch's composed cells (nn/modules/rnn.py).


def _sig(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _lstm_layer_steps(x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, h: Any, c: Any,
                      reverse: bool) -> tuple[np.ndarray, list[Any]]:  # fmt: skip
    """The layer over time-major x: its outputs and, per step in the order run, (t, h_prev,
    c_prev, i, f, g, o, c)."""
    gi = np.matmul(x, w_ih.T) + b_ih
    out = np.empty((x.shape[0], x.shape[1], w_hh.shape[1]), x.dtype)
    steps = []
    for t in range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0]):
        i, f, g, o = np.split(gi[t] + (np.matmul(h, w_hh.T) + b_hh), 4, -1)
        i, f, g, o = _sig(i), _sig(f), np.tanh(g), _sig(o)
        c_new = f * c + i * g
        steps.append((t, h, c, i, f, g, o, c_new))
        h, c = o * np.tanh(c_new), c_new
        out[t] = h
    return out, steps


def _rnn_layer_forward(
    input: Any, weight0: Any, weight1: Any, weight2: Any, weight3: Any, hx_: Any, cx_: Any,
    reverse: Any, batch_sizes: Any, mode: Any, hidden_size: Any, num_layers: Any,
    has_biases: Any, bidirectional: Any, batch_first: Any, train: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    if input.dtype == np.longdouble:
        # bfloat16 (oneDNN's bf16 LSTM): float32 arithmetic on the bfloat16 operands, the two
        # biases summed into one bfloat16 bias; the outputs rounded (by the op runner)
        f = np.float32
        b = D.round_bf16(weight2 + weight3).astype(f)
        out, steps = _lstm_layer_steps(
            input.astype(f), weight0.astype(f), weight1.astype(f), b, np.zeros_like(b),
            hx_.astype(f), cx_.astype(f), reverse,
        )  # fmt: skip
        last = steps[-1]
        hy = last[6] * np.tanh(last[7])
        ld = input.dtype
        return out.astype(ld), hy.astype(ld), last[7].astype(ld), np.empty(0, ld)
    out, steps = _lstm_layer_steps(input, weight0, weight1, weight2, weight3, hx_, cx_, reverse)
    last = steps[-1]
    hy = last[6] * np.tanh(last[7])
    # torch's fourth output is oneDNN's workspace, only ever read by its backward
    return out, hy.astype(input.dtype), last[7].astype(input.dtype), np.empty(0, input.dtype)


def _rnn_layer_backward_arrays(grads: Any, x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any,
                               h0: Any, c0: Any, reverse: bool) -> list[np.ndarray]:  # fmt: skip
    """Backpropagation through time over the recomputed steps: the seven inputs' gradients."""
    dout, dh, dc = grads
    _, steps = _lstm_layer_steps(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse)
    dgates = np.empty((x.shape[0], x.shape[1], w_ih.shape[0]), x.dtype)
    dw_hh = np.zeros_like(w_hh)
    for t, h_prev, c_prev, i, f, g, o, c in reversed(steps):
        dh = dh + dout[t]
        tc = np.tanh(c)
        dc = dc + dh * o * (1 - tc * tc)
        dgate = np.concatenate(
            [dc * g * i * (1 - i), dc * c_prev * f * (1 - f), dc * i * (1 - g * g),
             dh * tc * o * (1 - o)], -1,
        )  # fmt: skip
        dgates[t] = dgate
        dw_hh += np.matmul(dgate.T, h_prev)
        dh, dc = np.matmul(dgate, w_hh), dc * f
    db = dgates.sum((0, 1))
    dx = np.matmul(dgates, w_ih)
    dw_ih = np.einsum("tbg,tbi->gi", dgates, x)
    return [dx, dw_ih, dw_hh, db, db.copy(), dh, dc]


def _lstm_layer_tensors(x: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, h: Any, c: Any,
                        reverse: bool) -> tuple[Any, Any, Any]:  # fmt: skip
    """The same layer in Tensor ops, for a backward that is itself differentiable."""
    from .shape import stack

    gi = x.matmul(w_ih.t()) + b_ih
    outs: list[Any] = [None] * x.shape[0]
    for t in range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0]):
        i, f, g, o = (gi[t] + (h.matmul(w_hh.t()) + b_hh)).chunk(4, -1)
        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
        h = o.sigmoid() * c.tanh()
        outs[t] = h
    return stack(outs, 0), h, c


def _rnn_layer_grads(grads: Any, ins: tuple[Any, ...], reverse: bool) -> Any:
    def compute() -> list[Any]:
        from .. import _grad_mode
        from ..autograd import grad as autograd_grad

        if not _grad_mode.STATE.grad:
            arrays = [g._data for g in grads[:3]]
            return [_make(a) for a in _rnn_layer_backward_arrays(
                arrays, *(t._data for t in ins), reverse)]  # fmt: skip
        # create_graph: the gradients of the layer recomputed from the saved inputs, as
        # torch's mkldnn_rnn_layer_differentiable_backward
        wanted = [k for k, t in enumerate(ins) if t.requires_grad]
        outs = _lstm_layer_tensors(*ins, reverse)
        got = autograd_grad(
            outs, [ins[k] for k in wanted], list(grads[:3]), create_graph=True,
            allow_unused=True,
        )  # fmt: skip
        r: list[Any] = [None] * len(ins)
        for k, g in zip(wanted, got, strict=True):
            r[k] = g if g is not None else ins[k] * 0
        return r

    return _shared(grads, compute)


_RNN_INPUTS = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_")


def _rnn_layer_formula(k: int) -> Any:
    # reads every saved value of torch's node, so that the same ones are saved
    def formula(
        grads: Any, input: Any, weight0: Any, weight1: Any, weight2: Any, weight3: Any,
        hx_: Any, cx_: Any, reverse: Any, batch_sizes: Any, mode: Any, hidden_size: Any,
        num_layers: Any, has_biases: Any, bidirectional: Any, batch_first: Any, train: Any,
        result: Any, result1: Any, result2: Any, result3: Any,
    ) -> Any:  # fmt: skip
        ins = (input, weight0, weight1, weight2, weight3, hx_, cx_)
        return _rnn_layer_grads(grads, ins, bool(reverse))[k]

    return formula


rnn_layer = defop(
    "mkldnn_rnn_layer",
    "MkldnnRnnLayerBackward0",
    _rnn_layer_forward,
    n_outputs=4,
    diff_outputs=(0, 1, 2),
    **{n: _rnn_layer_formula(k) for k, n in enumerate(_RNN_INPUTS)},  # type: ignore[arg-type]
)


_BF16 = D.bfloat16 if D.HAS_BF16 else None


def use_mkldnn_lstm(input: Any, proj_size: int, packed: bool) -> bool:
    """Whether torch runs this LSTM through oneDNN (See Note [oneDNN LSTM])."""
    from ..backends import mkldnn

    ok = input.dtype is D.float32 or input.dtype is _BF16
    if not (bool(mkldnn.enabled) and ok and input.numel() != 0):
        return False
    if packed:
        return False
    if proj_size:
        warn_once(
            "lstm.onednn_projections",
            "LSTM with projections is not supported with oneDNN. Using default implementation.",
        )
        return False
    return True


def mkldnn_lstm(
    input: Any, hx: Any, cx: Any, params: list[Any], has_biases: bool, num_layers: int,
    dropout_p: float, train: bool, bidirectional: bool, batch_first: bool,
) -> tuple[Any, Any, Any]:  # fmt: skip
    """torch's mkldnn_rnn: per layer and direction one mkldnn_rnn_layer, directions joined
    with cat, dropout between layers; returns (output, h_n, c_n)."""
    from .._creation import zeros
    from ..nn.functional import dropout
    from .shape import cat, stack

    if batch_first:
        input = input.transpose(0, 1)
    input, hx, cx = input.contiguous(), hx.contiguous(), cx.contiguous()
    hidden = cx.shape[-1]
    per = 4 if has_biases else 2
    dirs = 2 if bidirectional else 1
    hys, cys = [], []
    layer_input = input
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w = params[k * per : (k + 1) * per]
            if has_biases:
                b0, b1 = w[2], w[3]
            else:
                b0 = b1 = zeros(4 * hidden, dtype=input.dtype)
            out, hy, cy, _ = rnn_layer(
                layer_input, w[0], w[1], b0, b1, hx[k], cx[k], d == 1, (), 2, hidden,
                num_layers, has_biases, bidirectional, batch_first, train,
            )  # fmt: skip
            outs.append(out)
            hys.append(hy)
            cys.append(cy)
        layer_input = outs[0] if dirs == 1 else cat(outs, -1)
        if dropout_p != 0 and train and layer < num_layers - 1:
            layer_input = dropout(layer_input, dropout_p, True)
    output = layer_input.transpose(0, 1) if batch_first else layer_input
    return output, stack(hys, 0), stack(cys, 0)


# --- convolution_backward (create_graph through a convolution) ----------------------------------
# Note [Fused backward nodes]: torch's backward formulas for convolution, layer norm and batch
# norm each call one backward kernel for every input's gradient, so under create_graph the
# gradients of input, weight and bias are the outputs of ONE node (ConvolutionBackwardBackward0,
# ...), with edges to the incoming grad, the input and the weight, and that node's formulas are
# torch's double backward. The first-order formulas call these ops only when grad mode is on
# (create_graph, or a backward formula called by hand); a plain backward keeps its own path.
# The formulas of one node run one after the other with the same `grad`: the first computes
# every output and the others take theirs (_shared_by, keyed on the grad and the saved inputs,
# since one grad object can reach two nodes: `conv1(x) + conv2(x)`).


def _shared_by(key: tuple[Any, ...], params: Any, k: int, compute: Any) -> Any:
    """Output k of compute(), computed once for the formulas of one node's call: the call is
    known by `key` (objects, compared by identity) and `params` (compared by value). A node
    calls each of its formulas once (in torch's order, OpDef.formula_order), so a request for
    an output already taken is a new call (the same grad tensor given again, other inputs
    asked for)."""
    last = getattr(_SHARED, "by", None)
    if (
        last is not None
        and k not in last[3]
        and len(last[0]) == len(key)
        and all(a is b for a, b in zip(last[0], key, strict=True))
        and last[1] == params
    ):
        taken = last[3] | {k}
        # every output taken: nothing more to share (and nothing kept alive)
        _SHARED.by = None if len(taken) == len(last[2]) else (last[0], last[1], last[2], taken)
        return last[2][k]
    r = compute()
    _SHARED.by = None if len(r) == 1 else (key, params, r, frozenset((k,)))
    return r[k]


def _key(*ts: Any) -> tuple[Any, ...]:
    """What tells one node's call from another's for _shared_by: each tensor's data, node and
    requires_grad (a detached copy of the same data is another call)."""
    r: list[Any] = []
    for t in ts:
        r += (None, None, None) if t is None else (t._data, t._grad_fn, t._rg)
    return tuple(r)


def _versions(*ts: Any) -> tuple[Any, ...]:
    """The tensors' version counters' values (compared by value: data changed in place is
    another call)."""
    return tuple(None if t is None else 0 if t._vc is None else t._vc.v for t in ts)


def _spatial(params: Any, x: Any) -> tuple[int, ...]:
    """The entries of a convolution parameter for x's spatial dims (conv1d passes two, the
    first for a unit dim)."""
    return tuple(params)[len(params) - (x.ndim - 2) :]


def _conv_backward_fwd(grad_output, input, weight, stride, padding, dilation, transposed,
                       output_padding, groups):  # fmt: skip
    from .. import _grad_mode

    with _grad_mode.no_grad():
        g, x, w = _make(grad_output), _make(input), _make(weight)
        args = (stride, padding, dilation, transposed, output_padding, groups)
        gi = K._conv_input_formula(g, x, w, *args)
        gw = K._conv_weight_formula(g, x, w, *args)
        gb = K._conv_bias_formula(g, w, transposed, groups)
    # torch's kernel writes each gradient into a fresh tensor, channels-last for a 2-d
    # convolution of which an operand suggests that format (as the forward's result)
    cl = input.ndim == 4 and any(_fmt.suggested(a) is _fmt.channels_last for a in (input, weight))
    fmt = _fmt.channels_last if cl else _fmt.contiguous_format
    return (
        _fmt.relayout(gi._data, fmt),
        _fmt.relayout(gw._data, fmt),
        np.ascontiguousarray(gb._data),
    )


def _narrow_to(t: Any, like: Any) -> Any:
    """torch's narrowing of a double-backward term to `like`'s spatial sizes."""
    for d in range(2, t.ndim):
        if t.shape[d] > like.shape[d]:
            t = t.narrow(d, 0, like.shape[d])
    return t


def _cbb_grad_output(grads, input, weight, grad_output, stride, padding, dilation, transposed,
                     output_padding, groups):  # fmt: skip
    """torch's _convolution_double_backward, ggO = conv(ggI, w) + conv(x, ggW) + ggb."""
    ggI, ggW, ggb = grads
    und = grads.undefined
    args = (stride, padding, dilation, transposed, output_padding, groups)
    ggO = None  # None: undefined (no term), as torch's; an empty input gives no conv terms
    if 0 not in und and input.numel():
        ggO = K.convolution_op(ggI, weight, None, *args)
    if 1 not in und and input.numel():
        t = K.convolution_op(input, ggW, None, *args)
        ggO = t if ggO is None else ggO + t
    if 2 not in und:
        shape = [1] * grad_output.ndim
        shape[1] = ggb.shape[0]
        t = ggb.contiguous().view(shape).expand(tuple(grad_output.shape))
        ggO = t if ggO is None else ggO + t
    return ggO


def _cbb_input(grads, grad_output, input, weight, stride, padding, dilation, transposed,
               output_padding, groups):  # fmt: skip
    """gI: the convolution of the incoming grad with ggW, in the other direction."""
    ggW = grads[1]
    if 1 in grads.undefined or input.numel() == 0:
        return None
    if transposed:
        gI = K.convolution_op(
            grad_output, ggW, None, stride, padding, dilation, False, output_padding, groups
        )
        return _narrow_to(gI, input)
    # the transposed convolution's output_padding that gives back the input's size
    s, p, d = (_spatial(v, input) for v in (stride, padding, dilation))
    k, o, n = weight.shape[2:], grad_output.shape[2:], input.shape[2:]
    op = [n[i] - ((o[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + 1) for i in range(len(k))]
    op = [0] * (len(stride) - len(op)) + op
    return K.convolution_op(
        grad_output, ggW, None, stride, padding, dilation, True, tuple(op), groups
    )


def _cbb_weight(grads, grad_output, input, weight, stride, padding, dilation, transposed,
                output_padding, groups):  # fmt: skip
    """gW: the convolution of ggI with the incoming grad over the batch (both transposed),
    stride and dilation swapped, group by group."""
    from .shape import cat

    ggI = grads[0]
    if 0 in grads.undefined or input.numel() == 0:
        return None
    gOt, ggIt = grad_output.transpose(0, 1), ggI.transpose(0, 1)

    def conv(a: Any, b: Any) -> Any:
        if transposed:
            a, b = b, a
        return K.convolution_op(a, b, None, dilation, padding, stride, False, output_padding, 1)

    if groups == 1:
        gWt = conv(ggIt, gOt)
    else:
        ni, no = ggIt.shape[0] // groups, gOt.shape[0] // groups
        gWt = cat(
            [conv(ggIt.narrow(0, ni * g, ni), gOt.narrow(0, no * g, no)) for g in range(groups)],
            1,
        )
    return _narrow_to(gWt.transpose(0, 1), weight)


def _conv_backward_t(grad_output, input, weight, stride, padding, dilation, transposed,
                     output_padding, groups, grad_output_t, input_t, weight_t):  # fmt: skip
    """The tangents of the three gradients: bilinear, the input's in (grad, weight), the
    weight's in (grad, input), the bias's linear in grad."""
    args = (stride, padding, dilation, transposed, output_padding, groups)
    gi = gw = gb = None
    if grad_output_t is not None:
        gi, gw, gb = conv_backward(grad_output_t, input, weight, *args)
    if input_t is not None:
        gw = _plus(gw, conv_backward(grad_output, input_t, weight, *args)[1])
    if weight_t is not None:
        gi = _plus(gi, conv_backward(grad_output, input, weight_t, *args)[0])
    return gi, gw, gb


conv_backward = defop(
    "convolution_backward",
    "ConvolutionBackwardBackward0",
    _conv_backward_fwd,
    dtype="keep",
    n_outputs=3,
    grad_output=_cbb_grad_output,
    input=_cbb_input,
    weight=_cbb_weight,
    jvp=_conv_backward_t,
)


# conv1d runs the 2-d kernel: its node shows one int per parameter, as ConvolutionBackward0's
_SAVED_LAZY["ConvolutionBackwardBackward0"] = {
    n: K._conv_param(n) for n in ("stride", "padding", "dilation", "output_padding")
}


def conv_grads(k, grad, input, weight, stride, padding, dilation, transposed, output_padding,
               groups):  # fmt: skip
    """Output k of one convolution_backward node, for formula k of a ConvolutionBackward0
    under grad mode (See Note [Fused backward nodes])."""
    args = (stride, padding, dilation, transposed, output_padding, groups)
    return _shared_by(
        (grad, *_key(grad, input, weight)), (args, _versions(grad, input, weight)), k,
        lambda: conv_backward(grad, input, weight, *args),
    )  # fmt: skip


# --- native_layer_norm_backward (create_graph through a layer norm) -----------------------------


def _ln_backward_fwd(grad_out, input, mean, rstd, weight, bias, normalized_shape, eps):
    """The three gradients of a layer norm, as its first-order backward computes them."""
    gi = K._np_ln_input(grad_out, input, normalized_shape, weight, eps)
    g = grad_out.astype(np.float32) if grad_out.dtype == np.float16 else grad_out
    n = len(normalized_shape)
    gw = K._np_ln_weight(grad_out, input, normalized_shape, eps)
    gb = K._np_sum_lead(g, n)
    dt = input.dtype if weight is None else weight.dtype
    gw, gb = (np.ascontiguousarray(np.asarray(a).astype(dt, copy=False)) for a in (gw, gb))
    return np.ascontiguousarray(gi), gw, gb


def _ln_double_backward(grads, grad_out, input, mean, rstd, weight, normalized_shape):
    """torch's layer_norm_double_backward: (gI, gG, ggO) from the gradients (ggI, ggG, ggB) of
    the layer norm's three gradients, over the input viewed as (M, N)."""
    from .._creation import ones

    ggI, ggG, ggB = grads
    und = grads.undefined
    shape = tuple(input.shape)
    axis = input.ndim - len(normalized_shape)
    M, N = math.prod(shape[:axis]), math.prod(shape[axis:])
    x = input.reshape(M, N)
    gO = grad_out.reshape(M, N)
    affine = weight is not None
    if affine:
        gamma = weight.reshape(1, N)
        ggG_e = ggG.reshape(1, N) if 1 not in und else None
        ggB_e = ggB.reshape(1, N) if 2 not in und else None
    else:
        gamma = ones(1, dtype=input.dtype)
        ggG_e = ggB_e = None
    ggI_e = ggI.reshape(M, N) if 0 not in und else None
    mu = mean.reshape(M, 1).to(input.dtype)
    x_mu = x - mu
    s12 = rstd.reshape(M, 1).to(input.dtype)
    s1 = s12.pow(2)
    s32 = s12.pow(3)
    x_mu_s32 = x_mu * s32
    gI = None
    if ggI_e is not None:
        gxhat = gO * gamma
        gxhat_mu_sum = (gxhat * x_mu).sum(1, True)
        gxhat_sum = gxhat.sum(1, True)
        ggI_sum = ggI_e.sum(1, True)
        ggI_mu_sum = (ggI_e * x_mu).sum(1, True)
        all_sub = (
            (ggI_sum * gxhat_sum).div(N)
            - (ggI_e * gxhat).sum(1, True)
            + (s1 * gxhat_mu_sum * ggI_mu_sum).mul(3.0 / N)
        )
        gI0 = (x_mu_s32 * all_sub).div(N)
        gI1 = (ggI_mu_sum * s32).div(N) * (gxhat_sum.div(N) - gxhat)
        gI2 = (gxhat_mu_sum * s32).div(N) * (ggI_sum.div(N) - ggI_e)
        gI = gI0 + gI1 + gI2
    if ggG_e is not None:
        t0 = gO * ggG_e * s12
        t1 = (s12 * (gO * ggG_e).sum(1, True)).div(-N)
        t2 = (x_mu_s32 * (gO * ggG_e * x_mu).sum(1, True)).div(-N)
        term = t0 + t1 + t2
        gI = term if gI is None else gI + term
    if gI is not None:
        gI = gI.reshape_as(input)

    def first_bwd(g: Any, gam: Any) -> Any:
        h0 = (gam * s12).div(N)
        h1 = (N * g) - g.sum(1, True) - x_mu.mul(s1) * (g * x_mu).sum(1, True)
        return h0 * h1

    gG = None
    if affine and ggI_e is not None:
        gG = (gO * first_bwd(ggI_e, ones((), dtype=s12.dtype))).sum(0).reshape_as(weight)
    ggO = None
    if ggI_e is not None:
        ggO = first_bwd(ggI_e, gamma)
    if ggG_e is not None:
        term = ggG_e * x_mu * s12
        ggO = term if ggO is None else ggO + term
    if ggB_e is not None:
        ggO = ggB_e if ggO is None else ggO + ggB_e
    if ggO is not None:
        ggO = ggO.expand(M, N).reshape_as(input)
    return gI, gG, ggO


def _lnbb(k: int) -> Any:
    def formula(grads, grad_out, input, mean, rstd, weight, normalized_shape):
        return _shared(
            grads,
            lambda: _ln_double_backward(
                grads, grad_out, input, mean, rstd, weight, normalized_shape
            ),
        )[k]

    return formula


ln_backward = defop(
    "native_layer_norm_backward",
    "NativeLayerNormBackwardBackward0",
    _ln_backward_fwd,
    dtype="keep",
    n_outputs=3,
    grad_out=_lnbb(2),
    input=_lnbb(0),
    # torch's node has edges to mean, rstd and bias, without derivatives (mean and rstd never
    # require grad; bias's sizes only are read)
    mean=lambda: None,
    rstd=lambda: None,
    weight=_lnbb(1),
    bias=lambda: None,
)


def ln_grads(k, grad, input, normalized_shape, weight, bias, eps):  # fmt: skip
    """Output k of one native_layer_norm_backward node, for formula k of a
    NativeLayerNormBackward0 under grad mode (See Note [Fused backward nodes])."""
    key = (grad, *_key(grad, input, weight, bias))

    def compute() -> Any:
        x = input._data
        if x.dtype == np.float16:
            x = x.astype(np.float32)
        mean, rstd = K._const_stats(x, K._ln_axes(x, normalized_shape), eps)
        return ln_backward(grad, input, mean, rstd, weight, bias, normalized_shape, eps)

    params = (tuple(normalized_shape), eps, _versions(grad, input, weight, bias))
    return _shared_by(key, params, k, compute)


# --- native_batch_norm_backward (create_graph through a batch norm) -----------------------------


def _bn_backward_fwd(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd,
                     train, eps):  # fmt: skip
    """The three gradients of a batch norm, as its first-order backward computes them."""
    from .. import _grad_mode

    with _grad_mode.no_grad():
        g, x = _make(grad_out), _make(input)
        w = None if weight is None else _make(weight)
        gi = K._bn_input(g, x, w, save_invstd, train, eps)
        gw = K._bn_weight(g, x, save_mean, save_invstd, train, eps)
        gb = g.sum(K._bn_axes(g))
    return tuple(np.ascontiguousarray(t._data) for t in (gi, gw, gb))


def _bn_double_backward(grads, grad_out, input, weight, mean, invstd, training):
    """torch's batchnorm_double_backward: (gI, gG, ggO) from the gradients (ggI, ggG, ggB) of
    the batch norm's three gradients; mean and invstd are the batch's (training) or the
    running ones (eval), constants."""
    from .._creation import ones

    ggI, ggG, ggB = grads
    und = grads.undefined
    nd = input.ndim

    def expand1(t: Any) -> Any:
        while t.ndim < nd - 1:
            t = t.unsqueeze(1)
        return t.expand_as(input)

    def unsqueeze1(t: Any) -> Any:
        while t.ndim < nd - 1:
            t = t.unsqueeze(1)
        return t.unsqueeze(0) if t.ndim == nd - 1 else t

    def sum1(t: Any, keepdim: bool = True) -> Any:
        r = t.sum(0, keepdim)
        for d in range(r.ndim - 1, 1 if keepdim else 0, -1):
            r = r.sum(d, keepdim)
        return r

    affine = weight is not None
    dt = input._data.dtype
    if affine:
        gamma = expand1(weight)
        ggG_e = expand1(ggG) if 1 not in und else None
        ggB_e = expand1(ggB) if 2 not in und else None
    else:
        gamma = ones((), dtype=input.dtype)
        ggG_e = ggB_e = None
    ggI = ggI if 0 not in und else None
    M = input.shape[0] * math.prod(input.shape[2:])
    mu = unsqueeze1(_make(np.asarray(mean).astype(dt)))
    x_mu = input - mu
    s12 = unsqueeze1(_make(np.asarray(invstd).astype(dt)))
    s1 = s12.pow(2)
    s32 = s12.pow(3)
    x_mu_s32 = x_mu * s32
    gO = grad_out
    gOinmu_sum = sum1(gO * x_mu)
    gO_sum = sum1(gO)
    gI = None
    if ggI is not None and training:
        ggI_sum = sum1(ggI)
        ggIinmu_sum = sum1(ggI * x_mu)
        all_sub = (
            (ggI_sum * gO_sum).div(M)
            - sum1(gO * ggI)
            + (s1 * gOinmu_sum * ggIinmu_sum).mul(3.0 / M)
        )
        gI0 = (x_mu_s32 * all_sub).div(M)
        gI1 = (ggIinmu_sum * s32).div(M) * (gO_sum.div(M) - gO)
        gI2 = (gOinmu_sum * s32).div(M) * (ggI_sum.div(M) - ggI)
        gI = gamma * (gI0 + gI1 + gI2)
    if ggG_e is not None:
        if training:
            t0 = gO * s12
            t1 = (s12 * gO_sum).div(-M)
            t2 = (x_mu_s32 * sum1(gO * x_mu)).div(-M)
            term = ggG_e * (t0 + t1 + t2)
        else:
            term = ggG_e * s12 * gO
        gI = term if gI is None else gI + term

    def first_bwd(g: Any, gam: Any) -> Any:
        h0 = (gam * s12).div(M)
        h1 = (M * g) - sum1(g) - x_mu.mul(s1) * sum1(g * x_mu)
        return h0 * h1

    gG = None
    if affine and ggI is not None:
        if training:
            gG = sum1(ggI * first_bwd(gO, ones((), dtype=s12.dtype)), False)
        else:
            gG = sum1(ggI * gO * s12, False)
    ggO = None
    if ggI is not None:
        ggO = first_bwd(ggI, gamma) if training else ggI * s12 * gamma
    if ggG_e is not None:
        term = ggG_e * x_mu * s12
        ggO = term if ggO is None else ggO + term
    if ggB_e is not None:
        ggO = ggB_e if ggO is None else ggO + ggB_e
    return gI, gG, ggO


def _bnbb(k: int) -> Any:
    # reads every value torch's node saves, so that the same ones are saved
    def formula(grads, grad_out, input, weight, running_mean, running_var, save_mean,
                save_invstd, train, eps):  # fmt: skip
        return _shared(
            grads,
            lambda: _bn_double_backward(
                grads, grad_out, input, weight, save_mean, save_invstd, train
            ),
        )[k]

    return formula


bn_backward = defop(
    "native_batch_norm_backward",
    "NativeBatchNormBackwardBackward0",
    _bn_backward_fwd,
    dtype="keep",
    n_outputs=3,
    grad_out=_bnbb(2),
    input=_bnbb(0),
    weight=_bnbb(1),
    # edges without derivatives, as torch's (running statistics never require grad)
    running_mean=lambda: None,
    running_var=lambda: None,
)


def bn_grads(k, grad, input, weight, mean, invstd, training, eps):  # fmt: skip
    """Output k of one native_batch_norm_backward node, for formula k of a
    NativeBatchNormBackward0 under grad mode (See Note [Fused backward nodes])."""
    key = (grad, *_key(grad, input, weight), mean, invstd)
    return _shared_by(
        key, (training, eps, _versions(grad, input, weight)), k,
        lambda: bn_backward(grad, input, weight, None, None, mean, invstd, training, eps),
    )  # fmt: skip


# --- _prelu_kernel_backward (create_graph through prelu) ----------------------------------------


def _prelu_backward_fwd(grad_output: Any, self: Any, weight: Any) -> tuple[Any, Any]:
    """torch's _prelu_kernel_backward: the input's gradient and the weight's, the latter over
    the broadcast shape (the engine sums it to the weight's)."""
    pos = self > 0
    gi = np.where(pos, grad_output, grad_output * weight).astype(self.dtype, copy=False)
    gw = np.where(pos, 0, grad_output * self).astype(self.dtype, copy=False)
    return gi, gw


def _zero0(like: Any) -> Any:
    from .._creation import zeros

    return zeros((), dtype=like.dtype)


def _prelu_bb_grad_output(grads: Any, self: Any, weight: Any) -> Any:
    und = grads.undefined
    g0 = None if 0 in und else grads[0]
    g1 = None if 1 in und else grads[1]
    nonneg = self >= 0
    if g0 is None:
        return P.where(nonneg, _zero0(self), g1 * self)
    if g1 is None:
        return P.where(nonneg, g0, g0 * weight)
    return P.where(nonneg, g0, g0 * weight + g1 * self)


def _prelu_bb_input(grads: Any, grad_output: Any, self: Any) -> Any:
    if 1 in grads.undefined:
        return zeros_like(self)
    return P.where(self >= 0, _zero0(self), grad_output * grads[1])


def _prelu_bb_weight(grads: Any, grad_output: Any, self: Any) -> Any:
    if 0 in grads.undefined:
        return zeros_like(self)
    return P.where(self >= 0, _zero0(self), grad_output * grads[0])


prelu_backward = defop(
    "_prelu_kernel_backward",
    "PreluKernelBackwardBackward0",
    _prelu_backward_fwd,
    dtype="keep",
    n_outputs=2,
    grad_output=_prelu_bb_grad_output,
    self=_prelu_bb_input,
    weight=_prelu_bb_weight,
)


def prelu_grads(k: int, grad: Any, self: Any, weight: Any) -> Any:
    """Output k of one _prelu_kernel_backward node, for formula k of a PreluKernelBackward0
    under grad mode (See Note [Fused backward nodes])."""
    return _shared_by(
        (grad, *_key(grad, self, weight)),
        _versions(grad, self, weight),
        k,
        lambda: prelu_backward(grad, self, weight),
    )
