"""Fused nn kernels: the ops torch's nn functions record as one node each.

Torch computes some nn functions with one kernel whose backward is one node, where a
composition from public ops would record many: `F.bilinear` (`_trilinear`, TrilinearBackward0).
It is declared here once, with its numpy forward and its formulas, and called by
`shadowgrad.nn.functional`; it is not a public function, so this module is not an op family.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from ..autograd.forward_ad import _plus
from .registry import defop

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
    return np.asarray(r, dtype=np.result_type(i1, i2, i3))


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
    if weight.dim() != 3:
        w = weight.dim()
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-w}, {w - 1}], but got 2)"
        )
    for k, x in ((1, input1), (2, input2)):
        if x.shape[-1] != weight.shape[k]:
            raise RuntimeError(
                f"bilinear(): input{k} size does not match weight size: got {x.shape[-1]} but "
                f"expected {weight.shape[k]}"
            )
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but "
            f"expected {weight.shape[0]}"
        )


def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Any:
    """torch's at::bilinear after its checks: both inputs flattened to rows, one _trilinear,
    the result viewed back (ViewBackward0), then the bias added (AddBackward0)."""
    _bilinear_checks(input1, input2, weight, bias)
    out_shape = (*tuple(input1.shape)[:-1], weight.shape[0])
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    out = trilinear(x1, weight, x2, (1, 3), (0,), (1, 2), (2, 3), 1).reshape(out_shape)
    return out + bias if bias is not None else out
