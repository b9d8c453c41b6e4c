"""Programs from torch's test/nn/ files (test_convolution.py, test_pooling.py,
test_embedding.py, test_dropout.py, test_packed_sequence.py, test_lazy_modules.py,
test_multihead_attention.py, test_init.py, test_pruning.py): the CPU, non-cudnn corners those
files check. Convolution padding='same'/'valid' with dilation and even kernels, groups,
transposed output_padding errors, empty batches and zero channels, channels_last, double
backward, padding modes; pooling ceil_mode edge windows, unpool round trips, adaptive sizes that
do not divide, LPPool, fractional max pool with given samples, avg_pool's count_include_pad and
divisor_override, -inf/nan windows and empty inputs; Embedding max_norm, padding_idx and
EmbeddingBag; dropout variants; PackedSequence; lazy modules; MultiheadAttention masks and
options; init's fan computations and errors. The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and
on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _error_head(fn: Any) -> Any:
    """fn's error type and its message up to a printed set."""
    try:
        return fn()
    except Exception as e:
        return type(e).__name__, str(e).split("{")[0]


# --- convolution (test_convolution.py) --------------------------------------------------------


@program()
def prog_nnf_conv1d_same_even_kernel_dilation(T: Any) -> Any:
    out = []
    for k, d in ((2, 1), (4, 1), (2, 3), (3, 2)):
        x = _x(T, 2, 2, 9, seed=k)
        w = _x(T, 3, 2, k, seed=d + 10)
        y = T.nn.functional.conv1d(x, w, padding="same", dilation=d)
        y.pow(2).sum().backward()
        out.append((y, y.grad_fn, x.grad, w.grad))
    return out


@program()
def prog_nnf_conv2d_same_valid_strided_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 5, 6, rg=False)
    w = _x(T, 2, 2, 2, 3, seed=1, rg=False)
    return (
        F.conv2d(x, w, padding="valid"),
        F.conv2d(x, w, padding="same", dilation=(2, 1)),
        raises(lambda: F.conv2d(x, w, padding="same", stride=2)),
        raises(lambda: F.conv2d(x, w, padding="bogus")),
        raises(lambda: T.nn.Conv2d(2, 2, 3, padding="same", stride=2)),
        raises(lambda: T.nn.Conv2d(2, 2, 3, padding="foo")),
        raises(lambda: F.conv2d(x, w, padding=(1,))),
    )


@program()
def prog_nnf_conv3d_same_dilation_grad(T: Any) -> Any:
    x = _x(T, 1, 1, 4, 5, 3)
    w = _x(T, 2, 1, 2, 3, 2, seed=2)
    y = T.nn.functional.conv3d(x, w, padding="same", dilation=(1, 2, 2))
    y.sum().backward()
    return y, x.grad, w.grad


@program()
def prog_nnf_conv_module_same_padding_modes(T: Any) -> Any:
    out = []
    for mode in ("zeros", "reflect", "replicate", "circular"):
        T.manual_seed(0)
        m = _seeded(T, T.nn.Conv1d(2, 2, 4, padding="same", padding_mode=mode, dilation=2), 3)
        x = _x(T, 1, 2, 10, seed=4)
        y = m(x)
        y.sum().backward()
        out.append((y, x.grad, m.weight.grad, m._reversed_padding_repeated_twice))
    return out


@program()
def prog_nnf_conv2d_padding_modes_grads(T: Any) -> Any:
    out = []
    for mode in ("reflect", "replicate", "circular"):
        m = _seeded(T, T.nn.Conv2d(1, 2, (3, 2), padding=(1, 2), padding_mode=mode), 5)
        x = _x(T, 1, 1, 4, 4, seed=6)
        y = m(x)
        (y * y).sum().backward()
        out.append((y, y.grad_fn, x.grad, m.weight.grad, repr(m)))
    return out


@program()
def prog_nnf_conv_padding_mode_errors(T: Any) -> Any:
    nn = T.nn
    return (
        # (torch prints its modes as a Python set: their order follows the process's str hash)
        _error_head(lambda: nn.Conv2d(1, 1, 3, padding_mode="bogus")),
        raises(lambda: nn.ConvTranspose2d(1, 1, 3, padding_mode="reflect")),
        raises(lambda: repr(nn.Conv2d(1, 1, 3, groups=0))),
        raises(lambda: repr(nn.Conv2d(3, 4, 3, groups=2))),
        raises(lambda: repr(nn.Conv2d(4, 3, 3, groups=2))),
        raises(lambda: repr(nn.Conv1d(2, 2, 0))),
        raises(lambda: repr(nn.Conv2d(2, 2, 3, padding=-1))),
    )


@program()
def prog_nnf_conv_groups_grads(T: Any) -> Any:
    out = []
    for g in (1, 2, 4):
        x = _x(T, 2, 4, 5, seed=g)
        w = _x(T, 4, 4 // g, 3, seed=g + 1)
        b = _x(T, 4, seed=g + 2)
        y = T.nn.functional.conv1d(x, w, b, groups=g, stride=2, padding=1)
        y.sum().backward()
        out.append((y, x.grad, w.grad, b.grad))
    return out


@program()
def prog_nnf_conv_depthwise_multiplier(T: Any) -> Any:
    x = _x(T, 1, 2, 5, 5)
    w = _x(T, 6, 1, 3, 3, seed=1)
    y = T.nn.functional.conv2d(x, w, groups=2, padding=1, dilation=1)
    (y**2).mean().backward()
    return y, x.grad, w.grad


@program()
def prog_nnf_conv_empty_batch_and_zero_channels(T: Any) -> Any:
    F = T.nn.functional
    out = []
    x = _x(T, 0, 2, 5, 5)
    w = _x(T, 3, 2, 3, 3, seed=1)
    y = F.conv2d(x, w, padding=1)
    y.sum().backward()
    out.append((y.shape, x.grad.shape, w.grad))
    m = _seeded(T, T.nn.Conv1d(2, 3, 2), 2)
    e = T.zeros(0, 2, 4, requires_grad=True)
    r = m(e)
    r.sum().backward()
    out.append((r.shape, m.weight.grad, m.bias.grad))
    out.append(raises(lambda: F.conv2d(T.zeros(2, 2, 0, 4), w)))
    out.append(raises(lambda: repr(T.nn.Conv2d(0, 2, 3))))
    return out


@program()
def prog_nnf_conv_input_too_small_and_shape_errors(T: Any) -> Any:
    F = T.nn.functional
    w = T.ones(1, 1, 3, 3)
    return (
        raises(lambda: F.conv2d(T.ones(1, 1, 2, 2), w)),
        raises(lambda: F.conv2d(T.ones(1, 2, 4, 4), w)),
        raises(lambda: F.conv2d(T.ones(1, 1, 4), w)),
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2), stride=0)),
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2), padding=-1)),
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2), dilation=0)),
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2), bias=T.ones(2))),
        raises(lambda: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2).double())),
        raises(lambda: F.conv1d(T.ones(1, 1, 4, dtype=T.long), T.ones(1, 1, 2, dtype=T.long))),
    )


@program()
def prog_nnf_conv_unbatched_inputs(T: Any) -> Any:
    m1 = _seeded(T, T.nn.Conv1d(2, 3, 2), 1)
    m2 = _seeded(T, T.nn.Conv2d(2, 3, 2), 2)
    mt = _seeded(T, T.nn.ConvTranspose1d(2, 3, 2, stride=2), 3)
    x1 = _x(T, 2, 5)
    x2 = _x(T, 2, 3, 4, seed=1)
    a, b, c = m1(x1), m2(x2), mt(x1)
    (a.sum() + b.sum() + c.sum()).backward()
    return a, b, c, x1.grad, x2.grad, raises(lambda: m2(T.ones(4)))


@program()
def prog_nnf_conv_transpose_output_padding(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 3, 3)
    w = _x(T, 2, 3, 3, 3, seed=1)
    y = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)
    y.sum().backward()
    return (
        y,
        y.grad_fn,
        x.grad,
        w.grad,
        raises(lambda: F.conv_transpose2d(x, w, stride=2, output_padding=2)),
        raises(lambda: F.conv_transpose2d(x, w, stride=1, output_padding=1)),
        F.conv_transpose2d(x, w, stride=2, dilation=2, output_padding=1).shape,
    )


@program()
def prog_nnf_conv_transpose_output_size(T: Any) -> Any:
    m = _seeded(T, T.nn.ConvTranspose2d(2, 1, 3, stride=2, padding=1), 4)
    x = _x(T, 1, 2, 3, 3, seed=2)
    out = [m(x, output_size=(s, s)).shape for s in (5, 6)]
    out.append(m(x, output_size=[1, 1, 6, 5]).shape)
    out.append(raises(lambda: m(x, output_size=(8, 8))))
    out.append(raises(lambda: m(x, output_size=(4, 4))))
    out.append(raises(lambda: m(x, output_size=(5,))))
    return out


@program()
def prog_nnf_conv_transpose_groups_dilation(T: Any) -> Any:
    x = _x(T, 2, 4, 3)
    w = _x(T, 4, 3, 2, seed=1)
    b = _x(T, 6, seed=2)
    y = T.nn.functional.conv_transpose1d(x, w, b, stride=3, padding=1, groups=2, dilation=2)
    (y * y).sum().backward()
    return y, x.grad, w.grad, b.grad


@program()
def prog_nnf_conv_transpose3d_grads(T: Any) -> Any:
    m = _seeded(T, T.nn.ConvTranspose3d(1, 2, (2, 1, 2), stride=(1, 2, 2), padding=(0, 0, 1)), 9)
    x = _x(T, 1, 1, 2, 3, 2)
    y = m(x)
    y.sum().backward()
    return y, y.grad_fn, x.grad, m.weight.grad, m.bias.grad


@program()
def prog_nnf_conv_double_backward(T: Any) -> Any:
    x = T.tensor(_data(1, 2, 5, 5).astype(np.float64), requires_grad=True)
    w = T.tensor(_data(2, 1, 3, 3, seed=1).astype(np.float64), requires_grad=True)
    y = T.nn.functional.conv2d(x, w, stride=2, padding=1, groups=2)
    (gx, gw) = T.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)
    (gx.sum() + (gw * gw).sum()).backward()
    # values only: the grads' node is ConvolutionBackwardBackward0 in torch (a known xfail in
    # test_realistic_programs_5, prog_conv_double_backward_node_name)
    return y, gx.detach(), gw.detach(), x.grad, w.grad


@program()
def prog_nnf_conv_transpose_double_backward(T: Any) -> Any:
    x = T.tensor(_data(1, 1, 3, 3).astype(np.float64), requires_grad=True)
    w = T.tensor(_data(1, 2, 2, 2, seed=1).astype(np.float64), requires_grad=True)
    y = T.nn.functional.conv_transpose2d(x, w, stride=2)
    (gx,) = T.autograd.grad((y**3).sum(), (x,), create_graph=True)
    gx.sum().backward()
    return gx.detach(), x.grad, w.grad


@program()
def prog_nnf_conv_channels_last(T: Any) -> Any:
    m = _seeded(T, T.nn.Conv2d(3, 4, 2), 3)
    x = _x(T, 2, 3, 4, 4, rg=False).to(memory_format=T.channels_last).requires_grad_()
    y = m(x)
    y.sum().backward()
    m2 = _seeded(T, T.nn.Conv2d(3, 4, 2), 3).to(memory_format=T.channels_last)
    y2 = m2(_x(T, 2, 3, 4, 4, rg=False))
    return (
        y,
        x.grad,
        x.is_contiguous(memory_format=T.channels_last),
        y.is_contiguous(memory_format=T.channels_last),
        x.grad.is_contiguous(memory_format=T.channels_last),
        m2.weight.is_contiguous(memory_format=T.channels_last),
        y2.is_contiguous(memory_format=T.channels_last),
        y2,
    )


@program()
def prog_nnf_conv_noncontiguous_inputs(T: Any) -> Any:
    x = _x(T, 2, 5, 6, 3, rg=False).permute(0, 3, 1, 2).requires_grad_()
    w = _x(T, 3, 2, 2, 3, seed=1, rg=False).transpose(0, 1).requires_grad_()
    y = T.nn.functional.conv2d(x, w)
    y.sum().backward()
    x2 = _x(T, 1, 2, 10, seed=2)
    y2 = T.nn.functional.conv1d(x2[:, :, ::2], T.ones(1, 2, 2).expand(3, 2, 2))
    y2.sum().backward()
    return y, x.grad, w.grad, y2, x2.grad


@program()
def prog_nnf_conv_1x1_and_large_kernel(T: Any) -> Any:
    x = _x(T, 2, 3, 4, 4)
    w = _x(T, 5, 3, 1, 1, seed=1)
    y = T.nn.functional.conv2d(x, w)
    w2 = _x(T, 2, 3, 4, 4, seed=2)
    y2 = T.nn.functional.conv2d(x, w2)
    (y.sum() + y2.sum()).backward()
    return y, y2, x.grad, w.grad, w2.grad


@program()
def prog_nnf_conv_dtypes(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(1, 2, 5).astype(np.float64))
    w = T.tensor(_data(1, 2, 2, seed=1).astype(np.float64))
    out = [F.conv1d(x, w), F.conv1d(x, w).dtype]
    out.append(F.conv1d(x.half().float(), w.float()).dtype)
    out.append(raises(lambda: F.conv1d(x, w.float())))
    out.append(raises(lambda: F.conv1d(x.float(), w.float(), bias=T.ones(1, dtype=T.float64))))
    out.append(F.conv1d(x.to(T.complex128), w.to(T.complex128)))
    return out


@program()
def prog_nnf_conv_tbc(T: Any) -> Any:
    x = _x(T, 5, 2, 3)
    w = _x(T, 2, 3, 4, seed=1)
    b = _x(T, 4, seed=2)
    y = T.conv_tbc(x, w, b, 1)
    y.sum().backward()
    return y, y.grad_fn, x.grad, w.grad, b.grad


@program()
def prog_nnf_conv_module_attributes_and_repr(T: Any) -> Any:
    ms = [
        T.nn.Conv2d(2, 4, (2, 3), stride=(1, 2), padding="same" if False else 1, bias=False),
        T.nn.Conv1d(2, 2, 3, padding="same", dilation=2, groups=2),
        T.nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1, groups=2),
        T.nn.Conv3d(1, 1, 1, padding="valid"),
    ]
    return [
        (repr(m), m.padding, m.kernel_size, m.stride, m.weight.shape, m.output_padding) for m in ms
    ]


# --- pooling (test_pooling.py) ----------------------------------------------------------------


@program()
def prog_nnf_maxpool_ceil_mode_edge_windows(T: Any) -> Any:
    F = T.nn.functional
    out = []
    for k, s, p in ((2, 2, 0), (3, 2, 1), (2, 3, 1), (3, 3, 0)):
        x = _x(T, 1, 1, 5, 6, seed=k + s)
        y, i = F.max_pool2d(x, k, s, p, ceil_mode=True, return_indices=True)
        y.sum().backward()
        out.append((y, i, x.grad))
    x1 = _x(T, 1, 1, 7)
    out.append(F.max_pool1d(x1, 2, 3, 1, ceil_mode=True))
    out.append(F.max_pool1d(x1, 3, 2, 0, dilation=2, ceil_mode=True))
    return out


@program()
def prog_nnf_avgpool_ceil_mode_and_count_include_pad(T: Any) -> Any:
    F = T.nn.functional
    out = []
    for cip in (True, False):
        for ceil in (True, False):
            x = _x(T, 1, 2, 5, 5, seed=int(cip) + 2 * int(ceil))
            y = F.avg_pool2d(x, 3, 2, 1, ceil_mode=ceil, count_include_pad=cip)
            y.sum().backward()
            out.append((y, x.grad))
    x1 = _x(T, 1, 1, 6)
    out.append(F.avg_pool1d(x1, 4, 3, 2, ceil_mode=True, count_include_pad=False))
    out.append(F.avg_pool1d(x1, 4, 3, 2, ceil_mode=True, count_include_pad=True))
    return out


@program()
def prog_nnf_avgpool_divisor_override(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 4, 5)
    y = F.avg_pool2d(x, 2, 1, 1, divisor_override=3)
    y.sum().backward()
    x3 = _x(T, 1, 1, 3, 3, 4, seed=1)
    y3 = F.avg_pool3d(x3, 2, 2, 1, ceil_mode=True, divisor_override=5)
    y3.sum().backward()
    return (
        y,
        x.grad,
        y3,
        x3.grad,
        raises(lambda: F.avg_pool2d(x, 2, divisor_override=0)),
        raises(lambda: F.avg_pool3d(x3, 2, divisor_override=0)),
        repr(T.nn.AvgPool2d(2, divisor_override=2)),
    )


@program()
def prog_nnf_avgpool_pad_errors(T: Any) -> Any:
    F = T.nn.functional
    x = T.ones(1, 1, 4, 4)
    return (
        raises(lambda: F.avg_pool2d(x, 2, padding=2)),
        raises(lambda: F.avg_pool1d(x[0], 3, padding=2)),
        raises(lambda: F.avg_pool3d(x[None], 2, padding=2)),
        raises(lambda: F.max_pool2d(x, 2, padding=2)),
        raises(lambda: F.max_pool1d(x[0], 2, stride=0)),
        raises(lambda: F.avg_pool2d(x, 0)),
        raises(lambda: F.avg_pool2d(x, 5)),
        raises(lambda: F.max_pool2d(x, 5)),
        raises(lambda: F.max_pool2d(x, 2, dilation=0)),
    )


@program()
def prog_nnf_maxpool_inf_nan_windows(T: Any) -> Any:
    F = T.nn.functional
    inf, nan = float("inf"), float("nan")
    x = T.tensor([[[[-inf, -inf, 1.0, nan], [-inf, -inf, 2.0, 3.0], [nan, 0.0, -inf, inf]]]])
    x.requires_grad_()
    y, i = F.max_pool2d(x, 2, 1, return_indices=True)
    y.sum().backward()
    x1 = T.full((1, 1, 5), -inf, requires_grad=True)
    y1 = F.max_pool1d(x1, 2, padding=1)
    y1.sum().backward()
    am = F.adaptive_max_pool2d(x.detach(), (2, 2), return_indices=True)
    return y, i, x.grad, y1, x1.grad, am


@program()
def prog_nnf_maxpool_empty_inputs(T: Any) -> Any:
    F = T.nn.functional
    out = [
        F.max_pool2d(T.ones(0, 2, 4, 4), 2).shape,
        F.avg_pool2d(T.ones(0, 2, 4, 4), 2).shape,
        F.adaptive_avg_pool2d(T.ones(0, 2, 4, 4), 2).shape,
        F.adaptive_max_pool1d(T.ones(0, 2, 4), 2)[0].shape if False else None,
        raises(lambda: F.max_pool2d(T.ones(1, 0, 4, 4), 2)),
        raises(lambda: F.max_pool2d(T.ones(1, 2, 0, 4), 2)),
        raises(lambda: F.avg_pool2d(T.ones(1, 2, 0, 4), 2)),
        raises(lambda: F.adaptive_avg_pool2d(T.ones(1, 2, 0, 4), 2)),
        raises(lambda: F.adaptive_max_pool2d(T.ones(1, 2, 0, 4), 2)),
        raises(lambda: F.max_pool1d(T.ones(1, 2, 0), 2)),
        raises(lambda: F.max_pool3d(T.ones(2, 0, 2, 2), 1)),
    ]
    return out


@program()
def prog_nnf_max_unpool_round_trips(T: Any) -> Any:
    F = T.nn.functional
    out = []
    x = _x(T, 1, 2, 5, 5)
    y, i = F.max_pool2d(x, 2, 2, return_indices=True)
    u = F.max_unpool2d(y, i, 2, 2, output_size=x.shape[-2:])
    u.sum().backward()
    # one plane: torch's kernel runs planes in parallel, the index it names is a race's
    out += [u, x.grad, raises(lambda: F.max_unpool2d(y[:, :1], i[:, :1], 2, 2))]
    x1 = _x(T, 2, 1, 7, seed=1)
    y1, i1 = F.max_pool1d(x1, 3, 2, 1, return_indices=True)
    u1 = T.nn.MaxUnpool1d(3, 2, 1)(y1, i1, output_size=[2, 1, 7])
    out += [u1, T.nn.MaxUnpool1d(3, 2, 1)(y1, i1).shape]
    x3 = _x(T, 1, 1, 4, 4, 4, seed=2)
    y3, i3 = F.max_pool3d(x3, 2, return_indices=True)
    u3 = F.max_unpool3d(y3, i3, 2)
    u3.sum().backward()
    out += [u3, x3.grad, u3.grad_fn]
    out.append(raises(lambda: F.max_unpool2d(y, i, 2, 2, output_size=(9, 9))))
    out.append(raises(lambda: F.max_unpool2d(y, i.float(), 2)))
    out.append(raises(lambda: F.max_unpool2d(y, i[..., :1], 2)))
    return out


@program()
def prog_nnf_max_unpool_invalid_indices(T: Any) -> Any:
    F = T.nn.functional
    y = T.ones(1, 1, 2, 2)
    i = T.tensor([[[[0, 1], [2, 99]]]])
    return (
        raises(lambda: F.max_unpool2d(y, i, 2)),
        raises(lambda: F.max_unpool1d(T.ones(1, 1, 2), T.tensor([[[0, -1]]]), 2)),
        F.max_unpool1d(T.ones(1, 1, 2), T.tensor([[[3, 3]]]), 2),
    )


@program()
def prog_nnf_adaptive_pool_non_divisible(T: Any) -> Any:
    F = T.nn.functional
    out = []
    x = _x(T, 1, 2, 7, 5)
    for size in ((3, 2), (4, None), (None, 3), 5, (1, 1), (7, 5), (10, 9)):
        a = F.adaptive_avg_pool2d(x, size)
        m, idx = F.adaptive_max_pool2d(x, size, return_indices=True)
        out.append((a, m, idx))
    (a.sum() + m.sum()).backward()
    out.append(x.grad)
    x1 = _x(T, 2, 3, 11, seed=1)
    y1 = F.adaptive_avg_pool1d(x1, 4) + F.adaptive_max_pool1d(x1, 4)
    y1.sum().backward()
    out += [y1, x1.grad]
    x3 = _x(T, 1, 1, 5, 3, 4, seed=2)
    out.append(F.adaptive_avg_pool3d(x3, (2, 2, 3)))
    out.append(F.adaptive_max_pool3d(x3, (3, 2, None)))
    return out


@program()
def prog_nnf_adaptive_pool_errors(T: Any) -> Any:
    F = T.nn.functional
    x = T.ones(1, 2, 4, 4)
    return (
        raises(lambda: F.adaptive_avg_pool2d(x, (2, 2, 2))),
        raises(lambda: F.adaptive_avg_pool2d(x, -1)),
        raises(lambda: F.adaptive_max_pool2d(x, (0, 2))),
        raises(lambda: F.adaptive_avg_pool1d(x, 2)),
        raises(lambda: F.adaptive_max_pool1d(x[0], (2, 2))),
        raises(lambda: F.adaptive_avg_pool3d(x, 2)),
        F.adaptive_avg_pool2d(x, (0, 2)).shape,
    )


@program()
def prog_nnf_lppool(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 6, 5)
    out = []
    for p in (1, 2, 3.0, float("inf")):
        y = F.lp_pool2d(x, p, (2, 3), stride=2)
        out.append(y)
    x.grad = None
    y = F.lp_pool2d(x.abs(), 2, 2, ceil_mode=True)
    y.sum().backward()
    out += [y, x.grad]
    x1 = _x(T, 2, 3, 7, seed=1)
    y1 = T.nn.LPPool1d(1.5, 3, stride=2)(x1.abs() + 0.1)
    y1.sum().backward()
    out += [y1, x1.grad, repr(T.nn.LPPool2d(2, 3, ceil_mode=True))]
    x3 = _x(T, 1, 1, 4, 4, 4, seed=2)
    out.append(F.lp_pool3d(x3, 2, 2))
    return out


@program()
def prog_nnf_lppool_zero_window_grad(T: Any) -> Any:
    x = T.zeros(1, 1, 4, requires_grad=True)
    y = T.nn.functional.lp_pool1d(x, 2, 2)
    y.sum().backward()
    return y, x.grad


@program()
def prog_nnf_fractional_max_pool_given_samples(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 2, 7, 6)
    s = T.tensor([[[0.1, 0.9], [0.5, 0.3]], [[0.0, 0.99], [0.7, 0.2]]])
    y, i = F.fractional_max_pool2d(x, 2, output_size=(4, 3), return_indices=True, _random_samples=s)
    y.sum().backward()
    y2 = raises(lambda: F.fractional_max_pool2d(x, (3, 2), output_ratio=0.5, _random_samples=s))
    y2b = F.fractional_max_pool2d(x, (3, 2), output_ratio=(0.5, 0.5), _random_samples=s)
    m = T.nn.FractionalMaxPool2d(2, output_size=3, _random_samples=s)
    x3 = _x(T, 1, 1, 5, 5, 5, seed=1)
    s3 = T.tensor([[[0.2, 0.6, 0.4]]])
    y3 = F.fractional_max_pool3d(x3, 2, output_size=3, _random_samples=s3)
    y3.sum().backward()
    return y, i, x.grad, y2, y2b, m(x), y3, x3.grad, y.grad_fn, y3.grad_fn


@program()
def prog_nnf_fractional_max_pool_errors(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    x = T.ones(1, 1, 4, 4)
    return (
        raises(lambda: nn.FractionalMaxPool2d(2)),
        raises(lambda: nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5)),
        raises(lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5)),
        raises(lambda: nn.FractionalMaxPool3d(2, output_ratio=0)),
        raises(lambda: F.fractional_max_pool2d(x, 3, output_size=3)),
        raises(
            lambda: F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=T.ones(1, 1, 3))
        ),
    )


@program()
def prog_nnf_maxpool_dilation_indices_grad(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 1, 7, 7)
    y, i = F.max_pool2d(x, 3, 2, 1, dilation=2, return_indices=True)
    y.sum().backward()
    x3 = _x(T, 1, 1, 5, 5, 5, seed=1)
    y3, i3 = F.max_pool3d(x3, 2, 2, 1, dilation=(1, 2, 1), return_indices=True, ceil_mode=True)
    y3.sum().backward()
    return y, i, x.grad, y3, i3, x3.grad, y.grad_fn, y3.grad_fn


@program()
def prog_nnf_pool_double_backward(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor(_data(1, 1, 4, 5).astype(np.float64), requires_grad=True)
    out = []
    for f in (
        lambda t: F.max_pool2d(t, 2, 1),
        lambda t: F.avg_pool2d(t, 3, 1, 1, count_include_pad=False),
        lambda t: F.adaptive_avg_pool2d(t, (3, 2)),
        lambda t: F.adaptive_max_pool2d(t, (3, 2)),
    ):
        (g,) = T.autograd.grad((f(x) ** 2).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad(g.sum(), x)
        out.append((g, g.grad_fn, gg))
    return out


@program()
def prog_nnf_pool_integer_and_half_dtypes(T: Any) -> Any:
    F = T.nn.functional
    xi = T.arange(16).reshape(1, 1, 4, 4)
    return (
        F.max_pool2d(xi, 2),
        raises(lambda: F.avg_pool2d(xi, 2)),
        raises(lambda: F.adaptive_avg_pool2d(xi, 2)),
        raises(lambda: F.max_pool1d(xi[0].to(T.int8), 2)),
        raises(lambda: F.max_pool1d(xi[0].to(T.int16), 2)),
        raises(lambda: F.max_pool1d(xi[0], 2)),
        raises(lambda: F.max_pool1d(xi[0], 2, padding=1)),
        F.avg_pool2d(xi.double(), 2),
        F.max_pool2d(xi.half(), 2),
        raises(lambda: F.max_pool2d(xi.bool(), 2)),
        raises(lambda: F.adaptive_max_pool2d(xi, 2)),
    )


@program()
def prog_nnf_pool_noncontiguous_channels_last(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3, 5, 4, rg=False).to(memory_format=T.channels_last).requires_grad_()
    y = F.max_pool2d(x, 2) + F.avg_pool2d(x, 2)
    y.sum().backward()
    z = F.adaptive_avg_pool2d(x, 3)
    xt = _x(T, 1, 5, 4, 2, seed=1).transpose(1, 3)
    return (
        y,
        x.grad,
        y.is_contiguous(memory_format=T.channels_last),
        z.is_contiguous(memory_format=T.channels_last),
        F.max_pool2d(xt, 2, 1),
        F.avg_pool1d(xt[0], 2),
    )


@program()
def prog_nnf_pool_module_reprs_and_unbatched(T: Any) -> Any:
    nn = T.nn
    ms = [
        nn.MaxPool2d(3, 2, 1, dilation=2, ceil_mode=True),
        nn.AvgPool1d(3, count_include_pad=False),
        nn.AdaptiveMaxPool2d((None, 3), return_indices=True),
        nn.AdaptiveAvgPool3d((2, None, 1)),
        nn.MaxUnpool2d(2),
        nn.LPPool1d(2, 3),
    ]
    x = _x(T, 3, 6, 6, rg=False)
    return [repr(m) for m in ms], ms[0](x), ms[2](x), nn.AvgPool2d(2)(x)


@program()
def prog_nnf_pool_module_errors_through_return_indices(T: Any) -> Any:
    # the modules pass return_indices by keyword: a failing input gets the kernel's error
    nn = T.nn
    F = T.nn.functional
    xi = T.arange(8).reshape(1, 1, 8)
    return (
        raises(lambda: nn.MaxPool1d(2)(xi)),
        raises(lambda: nn.MaxPool1d(2, return_indices=True)(T.ones(1, 0, 4))),
        raises(lambda: nn.MaxPool2d(2)(T.ones(1, 1, 0, 0))),
        raises(lambda: nn.MaxPool3d(2)(T.ones(1, 1, 1, 0, 0))),
        raises(lambda: F.max_pool2d(T.ones(1, 1, 0, 0), 2, None, 0, 1, False, False)),
        raises(lambda: F.max_pool1d(T.ones(1, 1, 4), 2, padding=2, return_indices=False)),
        nn.MaxPool1d(2, return_indices=True)(xi),
        F.max_pool1d(xi.float(), 2),
        raises(lambda: F.max_pool1d(xi.bool(), 2)),
        raises(lambda: F.max_pool1d(xi.to(T.complex64), 2)),
        F.max_pool1d(xi.to(T.uint8), 2, return_indices=True),
    )


@program()
def prog_nnf_max_pool_all_neg_inf_padded_windows(T: Any) -> Any:
    F = T.nn.functional
    ninf = float("-inf")
    out = []
    x1 = T.full((1, 1, 5), ninf, requires_grad=True)
    y1, i1 = F.max_pool1d(x1, 2, padding=1, return_indices=True)
    F.max_pool1d(x1, 2, padding=1).sum().backward()
    out += [y1, i1, x1.grad]
    x2 = T.full((2, 1, 5, 5), ninf, requires_grad=True)
    y2, i2 = F.max_pool2d(x2, 3, 2, 1, dilation=2, ceil_mode=True, return_indices=True)
    y2.sum().backward()
    out += [y2, i2, x2.grad]
    xi = T.full((1, 5, 5), -(2**31), dtype=T.int32)
    out.append(F.max_pool2d(xi, 3, 2, 1, return_indices=True))
    x3 = T.full((1, 1, 3, 3, 3), ninf)
    out.append(F.max_pool3d(x3, 2, 2, 1, return_indices=True)[1])
    return out


@program()
def prog_nnf_conv_zero_input_channels_shape(T: Any) -> Any:
    F = T.nn.functional
    x = T.zeros(2, 0, 5, requires_grad=True)
    w = T.zeros(3, 0, 2, requires_grad=True)
    b = T.ones(3, requires_grad=True)
    y = F.conv1d(x, w, b, padding=1)
    y.sum().backward()
    return y.shape, y.grad_fn, x.grad.shape, w.grad.shape, b.grad


# --- embedding (test_embedding.py) ------------------------------------------------------------


@program()
def prog_nnf_embedding_max_norm_renorms_in_place(T: Any) -> Any:
    emb = _seeded(T, T.nn.Embedding(5, 3, max_norm=0.3), 1)
    with T.no_grad():
        emb.weight.mul_(4)
    v0 = emb.weight._version
    idx = T.tensor([[0, 2], [2, 4]])
    y = emb(idx)
    y.sum().backward()
    return y, y.grad_fn, emb.weight.detach().clone(), emb.weight.grad, emb.weight._version - v0


@program()
def prog_nnf_embedding_max_norm_types(T: Any) -> Any:
    out = []
    for nt in (1.0, 2.0, 3.5, float("inf")):
        w = T.tensor(_data(4, 3, seed=2) * 3)
        y = T.nn.functional.embedding(T.tensor([1, 1, 3]), w, max_norm=1.0, norm_type=nt)
        out.append((y, w))
    w = T.tensor(_data(4, 3, seed=3))
    out.append(T.embedding_renorm_(w, T.tensor([0, 2]), 0.5, 2.0))
    out.append(raises(lambda: T.embedding_renorm_(w.double(), T.tensor([0.0]), 0.5, 2.0)))
    return out


@program()
def prog_nnf_embedding_padding_idx_grads(T: Any) -> Any:
    out = []
    for pi in (0, -1, 2):
        emb = _seeded(T, T.nn.Embedding(4, 2, padding_idx=pi), 3)
        y = emb(T.tensor([[0, 3, 2, 3], [1, 0, 3, 2]]))
        (y * y).sum().backward()
        out.append((emb.padding_idx, y, emb.weight.grad))
    out.append(raises(lambda: repr(T.nn.Embedding(4, 2, padding_idx=4))))
    out.append(raises(lambda: repr(T.nn.Embedding(4, 2, padding_idx=-5))))
    out.append(T.nn.Embedding(4, 2, padding_idx=1).weight[1])
    return out


@program()
def prog_nnf_embedding_functional_errors(T: Any) -> Any:
    F = T.nn.functional
    w = T.ones(4, 2)
    return (
        raises(lambda: F.embedding(T.tensor([1.0]), w)),
        raises(lambda: F.embedding(T.tensor([4]), w)),
        raises(lambda: F.embedding(T.tensor([-1]), w)),
        raises(lambda: F.embedding(T.tensor([1]), w, padding_idx=5)),
        raises(lambda: F.embedding(T.tensor([1]), T.ones(4))),
        F.embedding(T.tensor([1, 2], dtype=T.int32), w),
        F.embedding(T.zeros(0, 3, dtype=T.long), w).shape,
        F.embedding(T.tensor(2), w),
    )


@program()
def prog_nnf_embedding_from_pretrained(T: Any) -> Any:
    w = T.tensor(_data(4, 3))
    e1 = T.nn.Embedding.from_pretrained(w)
    e2 = T.nn.Embedding.from_pretrained(w, freeze=False, padding_idx=1, max_norm=1.0)
    y = e2(T.tensor([1, 2]))
    y.sum().backward()
    return (
        e1.weight.requires_grad,
        e2.weight.requires_grad,
        repr(e2),
        e1(T.tensor([3])),
        y,
        e2.weight.grad,
        raises(lambda: T.nn.Embedding.from_pretrained(T.ones(3))),
        raises(lambda: repr(T.nn.Embedding(3, 2, _weight=T.ones(2, 2)))),
    )


@program()
def prog_nnf_embedding_noncontiguous_and_double_backward(T: Any) -> Any:
    w = T.tensor(_data(3, 5, seed=4).astype(np.float64), requires_grad=True)
    wt = w.t()  # (5, 3), not contiguous
    idx = T.tensor([[0, 4], [4, 4]])
    y = T.nn.functional.embedding(idx, wt)
    (g,) = T.autograd.grad((y**2).sum(), w, create_graph=True)
    g.sum().backward()
    return y, g, w.grad


@program()
def prog_nnf_embedding_bag_modes(T: Any) -> Any:
    out = []
    inp = T.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offsets = T.tensor([0, 4, 4, 6])
    for mode in ("sum", "mean", "max"):
        bag = _seeded(T, T.nn.EmbeddingBag(10, 3, mode=mode), 5)
        y = bag(inp, offsets)
        y.sum().backward()
        out.append((y, y.grad_fn, bag.weight.grad))
    return out


@program()
def prog_nnf_embedding_bag_2d_input_and_errors(T: Any) -> Any:
    bag = _seeded(T, T.nn.EmbeddingBag(6, 2, mode="mean"), 6)
    inp = T.tensor([[0, 2, 5], [1, 1, 3]])
    y = bag(inp)
    return (
        y,
        raises(lambda: bag(inp, T.tensor([0, 1]))),
        raises(lambda: bag(T.tensor([0, 2]))),
        raises(lambda: bag(T.tensor([0, 2]), T.tensor([1]))),
        raises(lambda: bag(T.tensor([0, 2]), T.tensor([[0]]))),
        raises(lambda: bag(T.tensor([0, 7]), T.tensor([0]))),
        raises(lambda: repr(T.nn.EmbeddingBag(4, 2, mode="min"))),
        # (offsets past the input, [0, 3, 1] for 3 indices: torch reads past its buffer there,
        # raising or not from run to run, so that case is not compared)
        raises(lambda: bag(T.ones(1, 2, 3, dtype=T.long))),
    )


@program()
def prog_nnf_embedding_bag_per_sample_weights(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 6, 3)
    psw = T.tensor([0.5, 2.0, -1.0, 1.5, 0.25], requires_grad=True)
    inp = T.tensor([0, 5, 2, 2, 4])
    off = T.tensor([0, 2, 2])
    y = F.embedding_bag(inp, w, off, mode="sum", per_sample_weights=psw)
    y.sum().backward()
    return (
        y,
        w.grad,
        psw.grad,
        raises(lambda: F.embedding_bag(inp, w, off, mode="mean", per_sample_weights=psw)),
        raises(lambda: F.embedding_bag(inp, w, off, mode="sum", per_sample_weights=psw[:3])),
        raises(lambda: F.embedding_bag(inp, w, off, per_sample_weights=psw.double().detach())),
    )


@program()
def prog_nnf_embedding_bag_include_last_offset(T: Any) -> Any:
    out = []
    w = T.tensor(_data(6, 2, seed=7))
    inp = T.tensor([0, 1, 2, 3, 4, 5])
    for mode in ("sum", "mean", "max"):
        out.append(
            T.nn.functional.embedding_bag(
                inp, w, T.tensor([0, 2, 5, 6]), mode=mode, include_last_offset=True
            )
        )
        # (a last offset short of len(input) is outside torch's contract: its modes disagree)
        out.append(
            T.nn.functional.embedding_bag(
                inp, w, T.tensor([0, 2, 2, 6]), mode=mode, include_last_offset=True
            )
        )
    bag = T.nn.EmbeddingBag.from_pretrained(w, mode="sum", include_last_offset=True)
    out.append(bag(inp, T.tensor([0, 3, 6])))
    out.append(repr(bag))
    return out


@program()
def prog_nnf_embedding_bag_padding_idx(T: Any) -> Any:
    out = []
    for mode in ("sum", "mean", "max"):
        bag = _seeded(T, T.nn.EmbeddingBag(5, 2, mode=mode, padding_idx=2), 8)
        y = bag(T.tensor([2, 2, 1, 2, 3, 0]), T.tensor([0, 2, 4]))
        y.sum().backward()
        out.append((y, bag.weight.grad))
    out.append(raises(lambda: repr(T.nn.EmbeddingBag(5, 2, padding_idx=5))))
    return out


@program()
def prog_nnf_embedding_bag_max_norm_and_empty(T: Any) -> Any:
    w = T.tensor(_data(5, 3, seed=9) * 4)
    y = T.nn.functional.embedding_bag(
        T.tensor([0, 1, 1]), w, T.tensor([0, 1]), max_norm=1.0, mode="mean"
    )
    e = T.nn.functional.embedding_bag(T.zeros(0, dtype=T.long), T.ones(3, 2), T.tensor([0, 0]))
    return y, w, e


# --- dropout (test_dropout.py) ----------------------------------------------------------------


@program()
def prog_nnf_dropout_p_zero_one(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    out = []
    for p in (0.0, 1.0):
        y = F.dropout(x, p)
        out.append((y, y.grad_fn))
        y.sum().backward()
        out.append(x.grad.clone())
        x.grad = None
    for f in (F.alpha_dropout, F.feature_alpha_dropout):
        out.append(f(x.detach()[None, :, :, None], 1.0, training=True))
        out.append(f(x.detach()[None, :, :, None], 0.0, training=True))
    out.append(F.dropout2d(x.detach()[None, :, :, None], 1.0))
    out.append(raises(lambda: F.dropout(x, 1.5)))
    out.append(raises(lambda: F.dropout(x, -0.1)))
    out.append(raises(lambda: repr(T.nn.Dropout(2))))
    out.append(raises(lambda: F.alpha_dropout(x, 1.1)))
    return out


@program()
def prog_nnf_dropout_eval_and_inplace(T: Any) -> Any:
    x = _x(T, 2, 3, rg=False)
    m = T.nn.Dropout(0.5, inplace=True)
    m.eval()
    y = m(x)
    a = T.nn.AlphaDropout(0.3).eval()
    f = T.nn.FeatureAlphaDropout(0.3).eval()
    T.manual_seed(0)
    xi = x.clone()
    v = xi._version
    z = T.nn.functional.dropout(xi, 0.0, training=True, inplace=True)
    return (
        y is x,
        y,
        a(x) is x,
        f(x[None, :, :, None]),
        repr(m),
        repr(a),
        z is xi,
        xi._version - v,
        raises(lambda: T.nn.functional.dropout(_x(T, 2), 0.5, inplace=True)),
    )


@program()
def prog_nnf_dropout_nd_shape_warnings(T: Any) -> Any:
    F = T.nn.functional
    out = []
    out.append(F.dropout1d(T.ones(2, 3, 4), 0.0).shape)
    out.append(F.dropout1d(T.ones(3, 4), 0.0).shape)
    out.append(raises(lambda: F.dropout1d(T.ones(2, 3, 4, 5), 0.5)))
    out.append(F.dropout2d(T.ones(2, 3, 4), 0.0).shape)  # warns: 3-D input to dropout2d
    out.append(F.dropout2d(T.ones(2, 3, 4, 5), 0.0).shape)
    out.append(F.dropout2d(T.ones(2, 3, 4, 5, 6), 0.0).shape)  # warns
    out.append(F.dropout3d(T.ones(2, 3, 4, 5), 0.0).shape)
    out.append(F.dropout3d(T.ones(1, 2, 3, 4, 5), 0.0).shape)
    out.append(F.dropout3d(T.ones(3, 4), 0.0).shape)  # warns
    out.append(raises(lambda: F.dropout1d(T.ones(2, 3, 4), 1.5)))
    out.append(raises(lambda: F.dropout2d(T.ones(2, 3, 4, 5), -1.0)))
    return out


@program()
def prog_nnf_dropout_training_statistics(T: Any) -> Any:
    # scale and zero pattern facts independent of the RNG stream
    x = T.ones(400, 50)
    y = T.nn.functional.dropout(x, 0.25)
    vals = sorted({round(float(v), 5) for v in y.unique()})
    z = T.nn.functional.dropout2d(T.ones(3, 200, 2, 2), 0.5)
    per_ch = (z.sum((2, 3)) / 4).unique()
    return vals, sorted(float(v) for v in per_ch), y.dtype, z.dtype


@program()
def prog_nnf_alpha_dropout_statistics(T: Any) -> Any:
    y = T.nn.functional.alpha_dropout(T.zeros(1000, 20), 0.2, training=True)
    vals = sorted({round(float(v), 4) for v in y.unique()})
    f = T.nn.functional.feature_alpha_dropout(T.zeros(10, 100, 3), 0.5, training=True)
    per = f.unique(dim=2)
    return vals, len(vals), per.shape[1], sorted({round(float(v), 4) for v in f.unique()})


@program()
def prog_nnf_dropout_dtypes_and_grad(T: Any) -> Any:
    F = T.nn.functional
    out = []
    for dt in (T.float16, T.float64, T.bfloat16):
        out.append(F.dropout(T.ones(3, dtype=dt), 0.0, training=True).dtype)
    out.append(raises(lambda: F.dropout(T.ones(3, dtype=T.long), 0.5)))
    out.append(F.dropout(T.ones(3, dtype=T.long), 0.5, training=False))
    x = T.ones(4, requires_grad=True)
    y = F.dropout(x, 1.0)
    y.sum().backward()
    out += [y.grad_fn, x.grad, F.dropout(T.ones(3, dtype=T.complex64), 0.0)]
    return out


# --- packed sequences (test_packed_sequence.py) -----------------------------------------------


def _seqs(T: Any, lens: Any, feat: int = 2, seed: int = 0) -> list[Any]:
    return [_x(T, n, feat, seed=seed + i) for i, n in enumerate(lens)]


@program()
def prog_nnf_packed_sequence_attributes_sorted_unsorted(T: Any) -> Any:
    U = T.nn.utils.rnn
    out = []
    for enforce in (True, False):
        seqs = _seqs(T, (4, 3, 1) if enforce else (1, 4, 3))
        p = U.pack_sequence(seqs, enforce_sorted=enforce)
        out.append((p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices, p.is_cuda))
        pad, lens = U.pad_packed_sequence(p, batch_first=True)
        out.append((pad, lens))
        sum(pad.sum() * (i + 1) for i in range(1)).backward()
        out.append([s.grad for s in seqs])
    return out


@program()
def prog_nnf_packed_sequence_enforce_sorted_errors(T: Any) -> Any:
    U = T.nn.utils.rnn
    x = T.zeros(3, 3, 2)
    return (
        raises(lambda: U.pack_padded_sequence(x, [1, 3, 2])),
        raises(lambda: U.pack_padded_sequence(x, T.tensor([1, 3, 2]))),
        raises(lambda: U.pack_sequence(_seqs(T, (1, 2)))),
        raises(lambda: U.pack_padded_sequence(x, [3, 0, 0])),
        raises(lambda: U.pack_padded_sequence(x, [4, 2, 1])),
        raises(lambda: U.pack_padded_sequence(x, [3, 2])),
        raises(lambda: U.pack_padded_sequence(x, [3, 2, 1], batch_first=True).data.shape),
        raises(lambda: U.pack_padded_sequence(x, [3.0, 2.0, 1.0])),
    )


@program()
def prog_nnf_pad_packed_sequence_total_length(T: Any) -> Any:
    U = T.nn.utils.rnn
    seqs = _seqs(T, (3, 2, 2), seed=3)
    p = U.pack_sequence(seqs, enforce_sorted=False)
    out = []
    for tl in (None, 3, 5):
        for bf in (False, True):
            out.append(
                U.pad_packed_sequence(p, batch_first=bf, total_length=tl, padding_value=-1.0)
            )
    out.append(raises(lambda: U.pad_packed_sequence(p, total_length=2)))
    out.append(raises(lambda: U.pad_packed_sequence(p.data)))
    return out


@program()
def prog_nnf_pad_sequence_variants(T: Any) -> Any:
    U = T.nn.utils.rnn
    seqs = [T.tensor([1.0, 2.0]), T.tensor([3.0]), T.tensor([4.0, 5.0, 6.0])]
    out = [
        U.pad_sequence(seqs),
        U.pad_sequence(seqs, batch_first=True, padding_value=-2.0),
        U.pad_sequence(seqs, batch_first=True, padding_side="left"),
        U.pad_sequence([s[:, None].expand(-1, 2) for s in seqs], padding_side="left"),
        raises(lambda: U.pad_sequence(seqs, padding_side="middle")),
        raises(lambda: U.pad_sequence([])),
        raises(lambda: U.pad_sequence([T.ones(2, 3), T.ones(2, 4)])),
        U.pad_sequence([T.ones(0, 2), T.ones(1, 2)], batch_first=True).shape,
    ]
    x = _x(T, 3, 2, seed=5)
    y = U.pad_sequence([x, x[:1]], batch_first=True)
    y.sum().backward()
    return out, y, y.grad_fn, x.grad


@program()
def prog_nnf_packed_sequence_to_and_type_conversions(T: Any) -> Any:
    U = T.nn.utils.rnn
    p = U.pack_sequence(_seqs(T, (3, 1, 2), seed=6), enforce_sorted=False)
    d = p.double()
    h = p.to(T.float16)
    i = p.long()
    same = p.to(T.float32)
    return (
        d.data.dtype,
        h.data,
        i.data.dtype,
        same is p,
        p.to("cpu") is p,
        d.batch_sizes.dtype,
        d.sorted_indices,
        type(d).__name__,
        p.is_pinned(),
        raises(lambda: p.to(T.float32, copy=False, non_blocking=False)),
        [f for f in p._fields],
    )


@program()
def prog_nnf_unpack_and_unpad_round_trip(T: Any) -> Any:
    U = T.nn.utils.rnn
    seqs = _seqs(T, (2, 4, 1), seed=7)
    p = U.pack_sequence(seqs, enforce_sorted=False)
    back = U.unpack_sequence(p)
    pad = U.pad_sequence(seqs, batch_first=True)
    un = U.unpad_sequence(pad, T.tensor([2, 4, 1]), batch_first=True)
    (sum(b.sum() for b in back) + sum((u * 2).sum() for u in un)).backward()
    return back, un, [s.grad for s in seqs]


@program()
def prog_nnf_packed_sequence_through_rnn(T: Any) -> Any:
    U = T.nn.utils.rnn
    T.manual_seed(0)
    rnn = _seeded(T, T.nn.GRU(2, 3, batch_first=True), 11)
    seqs = _seqs(T, (3, 1, 2), seed=8)
    p = U.pack_sequence(seqs, enforce_sorted=False)
    out, h = rnn(p)
    pad, lens = U.pad_packed_sequence(out, batch_first=True, total_length=4)
    (pad.sum() + h.sum()).backward()
    return pad, lens, h, out.unsorted_indices, [s.grad for s in seqs], rnn.weight_hh_l0.grad


@program()
def prog_nnf_packed_sequence_construct_directly(T: Any) -> Any:
    U = T.nn.utils.rnn
    data = _x(T, 5, 2, rg=False)
    p = U.PackedSequence(data, T.tensor([3, 2]))
    q = U.PackedSequence(data, T.tensor([3, 2]), T.tensor([1, 0, 2]))
    return (
        p.sorted_indices,
        p.unsorted_indices,
        q.unsorted_indices,
        U.pad_packed_sequence(q),
        raises(lambda: U.PackedSequence(data, [3, 2])),
        raises(lambda: U.pad_packed_sequence(U.PackedSequence(data, T.tensor([2, 3])))),
    )


# --- lazy modules (test_lazy_modules.py) ------------------------------------------------------


@program()
def prog_nnf_lazy_linear_initialization(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.LazyLinear(3)
    before = (
        type(m).__name__,
        isinstance(m.weight, T.nn.parameter.UninitializedParameter),
        m.has_uninitialized_params(),
        repr(m),
        m.in_features,
    )
    y = m(T.ones(2, 4))
    after = (type(m).__name__, m.in_features, m.weight.shape, m.bias.shape, repr(m))
    return before, after, y.shape, raises(lambda: m.weight.uninitialized_attr)


@program()
def prog_nnf_lazy_uninitialized_parameter_errors(T: Any) -> Any:
    m = T.nn.LazyLinear(3)
    w = m.weight
    return (
        raises(lambda: w.shape),
        raises(lambda: w + 1),
        raises(lambda: w.data.sum()),
        raises(lambda: T.nn.utils.parameters_to_vector(m.parameters())),
        repr(w),
        raises(lambda: m.weight.numel()),
        raises(lambda: T.nn.LazyLinear(0)(T.ones(1, 2)).shape),
    )


@program()
def prog_nnf_lazy_state_dict_load_into_uninitialized(T: Any) -> Any:
    src = _seeded(T, T.nn.Linear(4, 3), 12)
    m = T.nn.LazyLinear(3)
    r = m.load_state_dict(src.state_dict())
    y = m(T.ones(1, 4))
    m2 = T.nn.LazyLinear(3)
    sd = m2.state_dict()
    return (
        str(r),
        type(m).__name__,
        m.weight.shape,
        y,
        sorted(sd),
        type(sd["weight"]).__name__,
        raises(lambda: T.nn.Linear(4, 3).load_state_dict(T.nn.LazyLinear(3).state_dict())),
    )


@program()
def prog_nnf_lazy_conv_and_batchnorm(T: Any) -> Any:
    T.manual_seed(0)
    out = []
    for ctor, shape in (
        (lambda: T.nn.LazyConv1d(2, 3), (1, 4, 5)),
        (lambda: T.nn.LazyConv2d(2, 3, padding=1), (1, 3, 4, 4)),
        (lambda: T.nn.LazyConvTranspose2d(2, 2, stride=2), (1, 3, 2, 2)),
        (lambda: T.nn.LazyBatchNorm1d(), (3, 4)),
        (lambda: T.nn.LazyBatchNorm2d(affine=False), (2, 3, 2, 2)),
        (lambda: T.nn.LazyInstanceNorm1d(affine=True), (2, 3, 4)),
    ):
        m = ctor()
        r0 = repr(m)
        y = m(T.ones(*shape))
        out.append((r0, repr(m), type(m).__name__, y.shape, sorted(m.state_dict())))
    return out


@program()
def prog_nnf_lazy_batchnorm_buffers_and_errors(T: Any) -> Any:
    m = T.nn.LazyBatchNorm1d()
    b = m.running_mean
    out = [
        type(b).__name__,
        raises(lambda: b.shape),
        type(m.num_batches_tracked).__name__,
        m.num_batches_tracked,
    ]
    m(_x(T, 4, 3, rg=False))
    out += [m.running_mean, m.running_var, m.num_batches_tracked, type(m).__name__]
    c = T.nn.LazyConv2d(2, 3)
    out.append(raises(lambda: c(T.ones(3))))
    out.append(raises(lambda: T.nn.LazyConv2d(2, 3, groups=2)(T.ones(1, 3, 4, 4))))
    return out


@program()
def prog_nnf_lazy_module_parametrize_and_copy(T: Any) -> Any:
    import copy

    m = T.nn.Sequential(T.nn.LazyLinear(2), T.nn.ReLU(), T.nn.LazyLinear(1))
    c = copy.deepcopy(m)
    T.manual_seed(1)
    y = m(T.ones(3, 5))
    return (
        repr(c),
        repr(m),
        y.shape,
        sum(p.numel() for p in m.parameters()),
        raises(lambda: sum(p.numel() for p in c.parameters())),
    )


# --- multi-head attention (test_multihead_attention.py) ---------------------------------------


def _mha(T: Any, seed: int = 20, **kw: Any) -> Any:
    return _seeded(T, T.nn.MultiheadAttention(4, 2, **kw), seed)


@program()
def prog_nnf_mha_bool_and_float_masks_agree(T: Any) -> Any:
    m = _mha(T)
    q = _x(T, 3, 2, 4)
    k = _x(T, 5, 2, 4, seed=1)
    bm = T.tensor([[False, True, False, False, True]] * 3)
    fm = T.zeros(3, 5).masked_fill(bm, float("-inf"))
    a, wa = m(q, k, k, attn_mask=bm)
    b, wb = m(q, k, k, attn_mask=fm)
    (a.sum() + b.sum()).backward()
    return a, wa, b, wb, q.grad, k.grad, m.in_proj_weight.grad


@program()
def prog_nnf_mha_key_padding_mask(T: Any) -> Any:
    m = _mha(T, 21)
    q = _x(T, 2, 3, 4)
    kpm = T.tensor([[False, False, True, True], [False, True, False, True], [True] * 3 + [False]])
    kv = _x(T, 4, 3, 4, seed=2)
    a, w = m(q, kv, kv, key_padding_mask=kpm)
    fk = T.zeros(3, 4).masked_fill(kpm, float("-inf"))
    b, _ = m(q, kv, kv, key_padding_mask=fk)
    a.sum().backward()
    return a, w, b, kv.grad


@program()
def prog_nnf_mha_fully_masked_row_gives_nan(T: Any) -> Any:
    m = _mha(T, 22)
    q = _x(T, 2, 1, 4, rg=False)
    mask = T.tensor([[True, True, True], [False, True, False]])
    a, w = m(q, _x(T, 3, 1, 4, rg=False), _x(T, 3, 1, 4, seed=3, rg=False), attn_mask=mask)
    return a, w


@program()
def prog_nnf_mha_need_weights_and_average(T: Any) -> Any:
    m = _mha(T, 23)
    q = _x(T, 3, 2, 4, rg=False)
    out = []
    for nw in (True, False):
        for avg in (True, False):
            a, w = m(q, q, q, need_weights=nw, average_attn_weights=avg)
            out.append((a, w if w is None else (w.shape, w)))
    return out


@program()
def prog_nnf_mha_batch_first_equivalence(T: Any) -> Any:
    m1 = _mha(T, 24)
    m2 = _mha(T, 24, batch_first=True)
    q = _x(T, 3, 2, 4, rg=False)
    k = _x(T, 4, 2, 4, seed=1, rg=False)
    a1, w1 = m1(q, k, k)
    a2, w2 = m2(q.transpose(0, 1), k.transpose(0, 1), k.transpose(0, 1))
    return a1, a2.transpose(0, 1), w1, w2, m2.batch_first


@program()
def prog_nnf_mha_add_bias_kv_zero_attn(T: Any) -> Any:
    out = []
    for bkv, za in ((True, False), (False, True), (True, True)):
        m = _mha(T, 25, add_bias_kv=bkv, add_zero_attn=za)
        q = _x(T, 2, 2, 4)
        kpm = T.tensor([[False, True, False], [False, False, False]])
        am = T.tensor([[False, False, True], [False, False, False]])
        a, w = m(
            q, _x(T, 3, 2, 4, seed=5), _x(T, 3, 2, 4, seed=6), key_padding_mask=kpm, attn_mask=am
        )
        a.sum().backward()
        out.append((a, w, q.grad, m.bias_k.grad if bkv else None))
    return out


@program()
def prog_nnf_mha_kdim_vdim(T: Any) -> Any:
    m = _seeded(T, T.nn.MultiheadAttention(4, 2, kdim=3, vdim=5), 26)
    q = _x(T, 2, 1, 4)
    k = _x(T, 3, 1, 3, seed=1)
    v = _x(T, 3, 1, 5, seed=2)
    a, w = m(q, k, v)
    a.sum().backward()
    names = sorted(n for n, _ in m.named_parameters())
    return (
        a,
        w,
        names,
        m.in_proj_weight,
        m._qkv_same_embed_dim,
        k.grad,
        v.grad,
        m.k_proj_weight.grad,
        raises(lambda: m(q, v, k)),
    )


@program()
def prog_nnf_mha_unbatched_and_3d_masks(T: Any) -> Any:
    m = _mha(T, 27)
    q = _x(T, 3, 4, rg=False)
    a, w = m(q, q, q)
    q3 = _x(T, 3, 2, 4, seed=2, rg=False)
    mask3 = T.zeros(4, 3, 3).masked_fill(T.eye(3, dtype=T.bool)[None].expand(4, 3, 3), -1e4)
    b, wb = m(q3, q3, q3, attn_mask=mask3)
    return (
        a,
        w,
        b,
        wb,
        raises(lambda: m(q3, q3, q3, attn_mask=T.zeros(3, 3, 3))),
        raises(lambda: m(q3, q3, q3, attn_mask=T.zeros(2, 3))),
        raises(lambda: m(q3, q3, q3, key_padding_mask=T.zeros(3, 2, dtype=T.bool))),
        raises(lambda: m(q3, q3[:2], q3)),
    )


@program()
def prog_nnf_mha_mask_type_warnings(T: Any) -> Any:
    m = _mha(T, 28)
    q = _x(T, 2, 2, 4, rg=False)
    kpm = T.tensor([[False, True], [False, False]])
    fm = T.zeros(2, 2)
    a, _ = m(q, q, q, key_padding_mask=kpm, attn_mask=fm)
    return (
        a,
        raises(lambda: m(q, q, q, attn_mask=T.zeros(2, 2, dtype=T.long))),
        raises(lambda: m(q, q, q, key_padding_mask=T.zeros(2, 2, dtype=T.long))),
    )


@program()
def prog_nnf_mha_fast_path_eval_equivalence(T: Any) -> Any:
    m = _mha(T, 29, batch_first=True).eval()
    q = _x(T, 2, 3, 4, rg=False)
    kpm = T.tensor([[False, False, True], [False, False, False]])
    with T.no_grad():
        a, w = m(q, q, q, key_padding_mask=kpm)
        b, _ = m(q, q, q, key_padding_mask=kpm, need_weights=False)
    m.train()
    c, _ = m(q, q, q, key_padding_mask=kpm)
    return (
        a,
        w,
        b,
        c,
        T.allclose(b.masked_fill(kpm[..., None], 0), c.masked_fill(kpm[..., None], 0), atol=1e-6),
    )


@program()
def prog_nnf_mha_is_causal(T: Any) -> Any:
    m = _mha(T, 30)
    q = _x(T, 3, 1, 4, rg=False)
    cm = T.nn.Transformer.generate_square_subsequent_mask(3)
    a, w = m(q, q, q, attn_mask=cm, is_causal=True)
    b, _ = m(q, q, q, attn_mask=cm)
    return a, w, b, cm, raises(lambda: m(q, q, q, is_causal=True))


@program()
def prog_nnf_mha_constructor_errors_and_repr(T: Any) -> Any:
    nn = T.nn
    return (
        raises(lambda: repr(nn.MultiheadAttention(5, 2))),
        raises(lambda: repr(nn.MultiheadAttention(0, 1))),
        raises(lambda: repr(nn.MultiheadAttention(4, 0))),
        repr(nn.MultiheadAttention(4, 2, dropout=0.1, bias=False)),
        nn.MultiheadAttention(4, 2, bias=False).in_proj_bias,
        nn.MultiheadAttention(4, 2).out_proj.bias,
    )


@program()
def prog_nnf_mha_functional_forward(T: Any) -> Any:
    F = T.nn.functional
    m = _mha(T, 31)
    q = _x(T, 2, 1, 4)
    a, w = F.multi_head_attention_forward(
        q,
        q,
        q,
        4,
        2,
        m.in_proj_weight,
        m.in_proj_bias,
        None,
        None,
        False,
        0.0,
        m.out_proj.weight,
        m.out_proj.bias,
        training=False,
        need_weights=True,
    )
    a.sum().backward()
    return a, w, q.grad, a.grad_fn


# --- init (test_init.py) ------------------------------------------------------------------------


@program()
def prog_nnf_init_fan_computations(T: Any) -> Any:
    init = T.nn.init
    out = []
    for shape in ((3, 5), (2, 3, 4), (4, 3, 2, 2), (2, 2, 1, 2, 3), (6, 1, 0)):
        out.append(init._calculate_fan_in_and_fan_out(T.empty(*shape)))
    out.append(raises(lambda: init._calculate_fan_in_and_fan_out(T.empty(3))))
    out.append(raises(lambda: init._calculate_correct_fan(T.empty(3, 4), "fan_avg")))
    out.append(init._calculate_correct_fan(T.empty(3, 4, 2), "fan_out"))
    return out


@program()
def prog_nnf_init_calculate_gain(T: Any) -> Any:
    g = T.nn.init.calculate_gain
    return (
        [g(n) for n in ("linear", "conv1d", "sigmoid", "tanh", "relu", "selu", "conv_transpose2d")],
        g("leaky_relu"),
        g("leaky_relu", 0.2),
        g("leaky_relu", 1),
        raises(lambda: g("leaky_relu", "a")),
        raises(lambda: g("leaky_relu", True)),
        raises(lambda: g("bogus")),
    )


@program()
def prog_nnf_init_distribution_stats_and_errors(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(0)
    w = T.empty(200, 300)
    out = []
    init.xavier_uniform_(w, gain=2.0)
    out.append(bool(w.abs().max() <= 2.0 * math.sqrt(6 / 500) + 1e-6))
    init.kaiming_uniform_(w, a=0.1, mode="fan_out", nonlinearity="leaky_relu")
    out.append(bool(w.abs().max() <= math.sqrt(2 / 1.01) * math.sqrt(3 / 200) + 1e-6))
    init.trunc_normal_(w, mean=1.0, std=2.0, a=-1.0, b=0.5)
    out.append((bool(w.min() >= -1.0), bool(w.max() <= 0.5)))
    out.append(raises(lambda: init.kaiming_normal_(w, mode="fan_x")))
    out.append(raises(lambda: init.xavier_normal_(T.empty(3))))
    out.append(raises(lambda: init.orthogonal_(T.empty(3))))
    out.append(raises(lambda: init.sparse_(T.empty(3, 4, 5), 0.5)))
    out.append(raises(lambda: init.dirac_(T.empty(3, 4))))
    out.append(raises(lambda: init.eye_(T.empty(2, 3, 4))))
    return out


@program()
def prog_nnf_init_deterministic_fills(T: Any) -> Any:
    init = T.nn.init
    w = T.empty(4, 2, 3)
    return (
        init.dirac_(T.empty(4, 2, 3)),
        init.dirac_(T.empty(6, 2, 3, 3), groups=2)[:, :, 1, 1],
        raises(lambda: init.dirac_(T.empty(5, 2, 3), groups=2)),
        init.eye_(T.empty(2, 3)),
        init.constant_(w, 0.5),
        init.ones_(T.empty(2)),
        init.zeros_(T.empty(0, 3)),
        init.eye_(T.empty(2, 3, dtype=T.float64)).dtype,
        init.uniform_(T.empty(0), 1, 2).shape,
    )


@program()
def prog_nnf_init_zero_element_warning_and_grad_mode(T: Any) -> Any:
    init = T.nn.init
    out = []
    for f in (init.xavier_uniform_, init.kaiming_normal_, init.orthogonal_):
        out.append(raises(lambda f=f: f(T.empty(0, 3)).shape))
    p = T.nn.Parameter(T.ones(2, 2))
    r = init.normal_(p)
    out += [r is p, p.grad_fn, p.requires_grad, p._version > 0]
    return out


@program()
def prog_nnf_init_orthogonal_properties(T: Any) -> Any:
    T.manual_seed(0)
    out = []
    for shape in ((3, 5), (5, 3), (2, 3, 2)):
        w = T.nn.init.orthogonal_(T.empty(*shape), gain=2.0)
        f = w.reshape(shape[0], -1)
        g = f @ f.T if shape[0] <= f.shape[1] else f.T @ f
        out.append(T.allclose(g, 4 * T.eye(g.shape[0]), atol=1e-5))
    return out


@program()
def prog_nnf_conv_transpose_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x2, w2 = T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3)
    return (
        raises(lambda: F.conv_transpose1d(T.ones(1, 2, 4), T.ones(2, 2, 3), padding="same")),
        raises(lambda: F.conv_transpose2d(x2, w2, padding="same")),
        raises(
            lambda: F.conv_transpose3d(
                T.ones(1, 2, 3, 3, 3), T.ones(2, 2, 2, 2, 2), padding="valid"
            )
        ),
        raises(lambda: F.conv_transpose1d(T.ones(1, 2, 4), T.ones(2, 2, 3), stride=1.5)),
        raises(lambda: F.conv_transpose2d(x2, w2, groups=1.0)),
        raises(lambda: F.conv_transpose2d(x2, w2, None, 1, 0, 0, 1, 1.0)),
        raises(lambda: F.conv_transpose2d(x2, w2, None, (1, 1.5))),
        raises(lambda: F.conv_transpose2d(x2, w2, output_padding=True)),
        raises(lambda: F.conv_transpose2d(x2, w2, None, [1.0])),
        raises(lambda: F.conv_transpose1d(T.ones(1, 2, 4), T.ones(2, 2, 3), padding=[1.0])),
        raises(lambda: F.conv_transpose2d(x2, w2, stride=(1, 2, 3))),
        F.conv_transpose2d(x2, w2, stride=[2], padding=(1,), output_padding=1).shape,
        F.conv_transpose2d(x2, w2, stride=np.int64(2), groups=T.tensor(1)).shape,
        raises(lambda: T.amax(T.ones(2), dim=[1.0])),
        raises(lambda: T.amax(T.ones(2), [1.0])),
    )


@program()
def prog_nnf_conv_transpose_empty_spatial_and_bool(T: Any) -> Any:
    F = T.nn.functional
    b = T.bool
    return (
        raises(lambda: F.conv_transpose1d(T.ones(1, 2, 0), T.ones(2, 1, 3))),
        raises(lambda: F.conv_transpose1d(T.ones(2, 0), T.ones(2, 2, 3))),
        raises(lambda: F.conv_transpose2d(T.ones(1, 2, 0, 4), T.ones(2, 2, 3, 3))),
        raises(lambda: F.conv_transpose3d(T.ones(1, 2, 0, 4, 4), T.ones(2, 2, 3, 3, 3))),
        F.conv_transpose2d(T.ones(0, 2, 3, 4), T.ones(2, 2, 3, 3)).shape,
        F.conv_transpose1d(T.ones(0, 2, 3), T.ones(2, 1, 3)).shape,
        raises(lambda: F.conv_transpose2d(T.ones(2, 0, 3, 4), T.ones(0, 2, 3, 3))),
        raises(lambda: F.conv1d(T.ones(1, 2, 4, dtype=b), T.ones(2, 2, 3, dtype=b))),
        raises(lambda: F.conv2d(T.ones(1, 2, 4, 4, dtype=b), T.ones(2, 2, 3, 3, dtype=b))),
        raises(lambda: F.conv3d(T.ones(1, 2, 4, 4, 4, dtype=b), T.ones(2, 2, 3, 3, 3, dtype=b))),
        raises(lambda: F.conv_transpose1d(T.ones(1, 2, 4, dtype=b), T.ones(2, 2, 3, dtype=b))),
        raises(
            lambda: F.conv_transpose2d(T.ones(1, 2, 4, 4, dtype=b), T.ones(2, 2, 3, 3, dtype=b))
        ),
        raises(
            lambda: F.conv_transpose3d(
                T.ones(1, 2, 2, 2, 2, dtype=b), T.ones(2, 2, 1, 1, 1, dtype=b)
            )
        ),
        F.conv1d(T.ones(0, 2, 4, dtype=b), T.ones(2, 2, 3, dtype=b)),
        F.conv2d(T.ones(1, 2, 4, 4, dtype=T.uint8), T.ones(2, 2, 3, 3, dtype=T.uint8)),
        F.conv_transpose1d(T.ones(1, 2, 4, dtype=T.int64), T.ones(2, 2, 3, dtype=T.int64)),
    )


@program()
def prog_nnf_pool1d_argument_sizes_and_divisor_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 5, 5, rg=False)
    x4 = T.ones(1, 4, 4)
    return (
        raises(lambda: F.max_pool1d(x, 2, stride=(1, 2))),
        raises(lambda: F.max_pool1d(x, 2, padding=(0, 0))),
        raises(lambda: F.max_pool1d(x, 2, dilation=(1, 1))),
        F.max_pool1d(x, 2, stride=()),
        F.max_pool1d(x, 2, stride=[], return_indices=True),
        raises(lambda: F.max_pool1d(x, (2, 2), return_indices=True)),
        raises(lambda: F.max_pool1d(x, 2, stride=(1, 2), return_indices=True)),
        raises(lambda: F.max_pool1d(x, 2, padding=(), return_indices=True)),
        raises(lambda: F.max_pool1d(x, 2, dilation=(1, 1), return_indices=True)),
        raises(lambda: F.max_pool1d(x, (), return_indices=True)),
        raises(lambda: F.avg_pool2d(x4, 2, divisor_override=2.5)),
        raises(lambda: F.avg_pool2d(x4, 2, divisor_override=True)),
        raises(lambda: F.avg_pool2d(x4, 2, divisor_override=0)),
        raises(lambda: F.avg_pool3d(T.ones(1, 4, 4, 4), 2, divisor_override=2.0)),
        raises(lambda: F.avg_pool3d(T.ones(1, 4, 4, 4), 2, divisor_override=0)),
        F.avg_pool2d(x4, 2, divisor_override=T.tensor(2)),
        F.avg_pool2d(x4, 2, divisor_override=np.int64(3)),
    )


@program()
def prog_nnf_embedding_bag_no_bags_and_padding_idx_range(T: Any) -> Any:
    # sum/mean forward only: torch's backward over no bags, and its max mode, crash
    F = T.nn.functional
    w = T.tensor(_data(4, 2, seed=12))
    i = T.tensor([1, 2, 0, 3])
    e = T.tensor([], dtype=T.long)
    return (
        F.embedding_bag(i, w, T.tensor([0]), include_last_offset=True),
        F.embedding_bag(i, w, e),
        F.embedding_bag(i, w, e, mode="mean"),
        F.embedding_bag(i, w, e, mode="sum", per_sample_weights=T.ones(4)),
        F.embedding_bag(T.tensor([], dtype=T.long), w, e),
        raises(lambda: F.embedding_bag(T.tensor([1, 2]), w, T.tensor([0, 1]), padding_idx=4)),
        raises(lambda: F.embedding_bag(T.tensor([1, 2]), w, T.tensor([0, 1]), padding_idx=-5)),
        F.embedding_bag(T.tensor([1, 2]), w, T.tensor([0, 1]), padding_idx=-4),
        raises(lambda: repr(T.nn.EmbeddingBag(4, 2, padding_idx=4))),
    )


@program()
def prog_nnf_dropout_tensor_p_total_length_type_init_std_message(T: Any) -> Any:
    U = T.nn.utils.rnn
    F = T.nn.functional
    p = U.pack_sequence([T.ones(2), T.ones(1)])
    return (
        raises(lambda: U.pad_packed_sequence(p, total_length=2.5)),
        raises(lambda: U.pad_packed_sequence(p, total_length=1.5)),
        raises(lambda: U.pad_packed_sequence(p, total_length=True)),
        U.pad_packed_sequence(p, total_length=np.int64(3)),
        F.dropout(T.ones(3), p=T.tensor(0.0)),
        F.dropout(T.ones(3), p=T.tensor(1.0)),
        raises(lambda: F.dropout(T.ones(3), p=T.tensor(1.5))),
        raises(lambda: F.dropout(T.ones(3), p=T.tensor([0.5]))),
        raises(lambda: F.dropout(T.ones(3), p=T.tensor([0.5]), inplace=True)),
        raises(lambda: T.nn.init.xavier_normal_(T.ones(2, 3), gain=-1)),
        raises(lambda: T.normal(T.ones(2), -0.1234567891)),
        raises(lambda: T.ones(2).normal_(0, -3.0)),
        raises(lambda: T.ones(2).normal_(0, -1e-9)),
        raises(lambda: T.ones(2).normal_(0, float("nan"))),
    )


@program()
def prog_nnf_adaptive_pool_and_unpool_empty_dims_and_dtypes(T: Any) -> Any:
    F = T.nn.functional
    x = T.ones(0, 2, 3, 3, requires_grad=True)
    y = F.adaptive_max_pool2d(x, 2)
    y.sum().backward()
    li = T.long
    return (
        y.shape,
        y.grad_fn,
        x.grad.shape,
        F.adaptive_max_pool2d(T.ones(0, 2, 3, 3), (3, 2), return_indices=True)[1].shape,
        F.adaptive_max_pool1d(T.ones(0, 2, 3), 2).shape,
        F.adaptive_avg_pool1d(T.ones(2, 0, 3), 2),
        F.adaptive_avg_pool2d(T.ones(2, 0, 3, 3), 2).shape,
        raises(lambda: F.adaptive_avg_pool2d(T.ones(2, 3, 0, 3), 2)),
        raises(lambda: F.adaptive_max_pool2d(T.ones(2, 0, 3, 3), 2)),
        raises(lambda: F.adaptive_avg_pool3d(T.ones(2, 0, 3, 3, 3), 2)),
        raises(
            lambda: F.max_unpool1d(T.ones(1, 1, 2, dtype=T.int32), T.zeros(1, 1, 2, dtype=li), 2)
        ),
        raises(
            lambda: F.max_unpool2d(T.ones(1, 1, 2, 2, dtype=li), T.zeros(1, 1, 2, 2, dtype=li), 2)
        ),
        raises(
            lambda: F.max_unpool3d(
                T.ones(1, 1, 1, 1, 1, dtype=T.uint8), T.zeros(1, 1, 1, 1, 1, dtype=li), 2
            )
        ),
        raises(lambda: F.max_unpool1d(T.ones(1, 0, 2), T.zeros(1, 0, 2, dtype=li), 2)),
        raises(lambda: F.max_unpool2d(T.ones(1, 0, 2, 2), T.zeros(1, 0, 2, 2, dtype=li), 2)),
        raises(lambda: F.max_unpool3d(T.ones(1, 0, 1, 1, 1), T.zeros(1, 0, 1, 1, 1, dtype=li), 2)),
        F.max_unpool2d(T.ones(0, 2, 2), T.zeros(0, 2, 2, dtype=li), 2).shape,
        F.max_unpool2d(T.ones(0, 1, 2, 2), T.zeros(0, 1, 2, 2, dtype=li), 2).shape,
        F.max_unpool2d(T.ones(1, 1, 2, 2, dtype=T.bfloat16), T.zeros(1, 1, 2, 2, dtype=li), 2),
    )


@program()
def prog_nnf_fractional_max_pool_empty_batch(T: Any) -> Any:
    F = T.nn.functional
    x = T.ones(0, 1, 4, 4, requires_grad=True)
    y = F.fractional_max_pool2d(x, 2, output_size=(2, 2), _random_samples=T.ones(0, 1, 2) * 0.5)
    y.sum().backward()
    x3 = T.ones(0, 1, 4, 4, 4, requires_grad=True)
    s3 = T.ones(0, 1, 3) * 0.5
    y3, i3 = F.fractional_max_pool3d(x3, 2, output_size=2, _random_samples=s3, return_indices=True)
    y3.sum().backward()
    return y.shape, y.grad_fn, x.grad.shape, y3.shape, i3.shape, i3.dtype, x3.grad.shape


@program()
def prog_nnf_init_warnings_and_dtypes(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(0)
    return (
        init.trunc_normal_(T.ones(3), mean=10.0, std=1.0, a=-2, b=2).shape,
        raises(lambda: init.trunc_normal_(T.ones(3, dtype=T.long))),
        raises(lambda: init.normal_(T.ones(2, dtype=T.long))),
        raises(lambda: init.uniform_(T.ones(2, dtype=T.long), 0, 10)),
        raises(lambda: init.sparse_(T.ones(0, 4), 0.1)),
        raises(lambda: init.dirac_(T.ones(2, 3, 4, 5, 6, 7))),
        init.orthogonal_(T.ones(2, 3, dtype=T.float64)).dtype,
        raises(lambda: init.orthogonal_(T.ones(2, 3, dtype=T.float16)).dtype),
        init.constant_(T.ones(2, requires_grad=True), 3).grad_fn,
        init.xavier_uniform_(T.ones(2, 3, requires_grad=True)).is_leaf,
        init.calculate_gain("leaky_relu", None),
        init.calculate_gain("leaky_relu", 0),
        raises(lambda: init.calculate_gain("Linear")),
        init._calculate_fan_in_and_fan_out(T.ones(3, 4, 0)),
        init.kaiming_uniform_(T.ones(3, 4, 0)).shape,
        raises(lambda: init.kaiming_uniform_(T.ones(3), mode="fan_out")),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
