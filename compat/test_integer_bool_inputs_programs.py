"""Programs giving integer and bool tensors to ops that torch has no kernel for them, or checks
in a particular order: the error (type and message) torch raises, or its result where it has one.
Found by running the op database's samples with their float inputs turned into int64 and bool
ones on both libraries. The programs register into test_realistic_programs_3's set and run
through its harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


def _b(T: Any) -> Any:
    return T.tensor([[True, False, True], [False, True, True]])


def _l(T: Any) -> Any:
    return T.tensor([[1, -2, 3], [4, 0, -6]])


@program()
def prog_ib_activations_refuse_bool(T: Any) -> Any:
    F = T.nn.functional
    b, i = _b(T), _l(T)
    return (
        raises(lambda: T.relu(b)),
        raises(lambda: F.relu(b)),
        raises(lambda: b.relu()),
        raises(lambda: F.relu6(b)),
        raises(lambda: F.hardtanh(b)),
        raises(lambda: F.threshold(b, 0.5, 0.0)),
        T.relu(i),
        F.relu6(i),
        F.hardtanh(i, -2, 2),
        F.threshold(i, 1, 9),
    )


@program()
def prog_ib_matrix_kernels_refuse_bool(T: Any) -> Any:
    F = T.nn.functional
    b = _b(T)
    w = T.ones(2, 3, dtype=T.bool)
    return (
        raises(lambda: F.linear(b, w)),
        raises(lambda: F.linear(b, w, T.tensor([True, False]))),
        raises(lambda: T.mm(b, b.t())),
        raises(lambda: T.bilinear(b, b, T.ones(2, 3, 3, dtype=T.bool))),
        raises(lambda: T.rnn_tanh_cell(b, b[:, :2], w, T.ones(2, 2, dtype=T.bool))),
        raises(
            lambda: T.gru_cell(b, b[:, :2], T.ones(6, 3, dtype=T.bool), T.ones(6, 2, dtype=T.bool))
        ),
        raises(
            lambda: T.lstm_cell(
                b, [b[:, :2], b[:, :2]], T.ones(8, 3, dtype=T.bool), T.ones(8, 2, dtype=T.bool)
            )
        ),
        F.linear(_l(T), T.ones(2, 3, dtype=T.long), T.tensor([1, 2])),
    )


@program()
def prog_ib_convolutions_refuse_bool(T: Any) -> Any:
    x = T.ones(1, 2, 3, 3, dtype=T.bool)
    w = T.ones(2, 2, 1, 1, dtype=T.bool)
    return (
        raises(lambda: T.convolution(x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)),
        raises(lambda: T.nn.functional.conv2d(x, w)),
        raises(
            lambda: T.conv_tbc(
                T.ones(3, 2, 2, dtype=T.bool),
                T.ones(1, 2, 2, dtype=T.bool),
                T.ones(2, dtype=T.bool),
            )
        ),
        T.convolution(x.long(), w.long(), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
    )


@program()
def prog_ib_pooling_integer_and_bool(T: Any) -> Any:
    F = T.nn.functional
    x3 = T.arange(8).reshape(1, 1, 2, 2, 2)
    return (
        raises(lambda: F.max_pool3d(x3.bool(), 2)),
        F.max_pool3d(x3, 2),
        raises(lambda: F.adaptive_max_pool3d(x3, 1)),
        raises(lambda: F.adaptive_max_pool3d(x3.bool(), 1)),
        raises(lambda: F.adaptive_max_pool3d(x3.int(), 1)),
        F.adaptive_max_pool3d(x3.half(), 1),
        raises(lambda: F.adaptive_max_pool2d(x3[0], 1)),
    )


@program()
def prog_ib_special_and_search_refuse_bool(T: Any) -> Any:
    b = _b(T)
    return (
        raises(lambda: T.mvlgamma(b, 1)),
        raises(lambda: T.special.multigammaln(b, 1)),
        raises(lambda: T.searchsorted(T.tensor([False, True]), b)),
        raises(lambda: T.bucketize(b, T.tensor([False, True]))),
        raises(lambda: T.searchsorted(T.tensor([0, 1]), b)),
        T.searchsorted(T.tensor([0, 1, 5]), _l(T)),
        T.searchsorted(T.tensor([False, True]), T.tensor([0, 1])),
        T.bucketize(b, T.tensor([0, 1])),
        raises(lambda: -b),
    )


@program()
def prog_ib_dropout_integer_inputs(T: Any) -> Any:
    i = _l(T)
    return (
        raises(lambda: T.native_dropout(i, 0.5, True)),
        raises(lambda: T.native_dropout(i, 0.5, None)),
        T.native_dropout(i, 0.5, False),
        T.native_dropout(_b(T), 0.5, False),
        raises(lambda: T.native_dropout(_b(T), 0.5, True)),
    )


@program()
def prog_ib_check_order_glu_smooth_l1(T: Any) -> Any:
    F = T.nn.functional
    i = _l(T)
    return (
        raises(lambda: F.glu(i)),  # odd: the halving check comes first
        raises(lambda: F.glu(T.ones(2, 4, dtype=T.long))),
        raises(lambda: F.smooth_l1_loss(i, i, beta=0.0)),  # l1_loss: its mean refuses
        F.smooth_l1_loss(i, i * 2, beta=0.0, reduction="sum"),
        F.smooth_l1_loss(i, i * 2, beta=0.0, reduction="none"),
        raises(lambda: F.smooth_l1_loss(i, i, beta=1.0)),
        raises(lambda: F.smooth_l1_loss(_b(T), _b(T), beta=0.0)),
    )


@program()
def prog_ib_random_fills_refuse_integers(T: Any) -> Any:
    T.manual_seed(0)
    return (
        raises(lambda: T.normal(T.ones(3, dtype=T.long), T.ones(3, dtype=T.long))),
        raises(lambda: T.normal(T.ones(3, dtype=T.long), 1.0)),
        raises(lambda: T.normal(1.0, T.ones(3, dtype=T.long))),
        raises(lambda: T.normal(T.ones(3, dtype=T.bool), 1.0)),
        raises(lambda: T.normal(T.ones(3, dtype=T.long), T.ones(3))),
        T.normal(T.ones(3), T.ones(3, dtype=T.long)).dtype,
        raises(lambda: T.ones(3, dtype=T.long).uniform_(1, 0)),
        raises(lambda: T.ones(3, dtype=T.bool).uniform_(1, 0)),
        raises(lambda: T.ones(3, dtype=T.long).uniform_()),
        raises(lambda: T.ones(3, dtype=T.long).normal_(0, -1)),
    )


@program()
def prog_ib_embedding_max_norm_integer_weight(T: Any) -> Any:
    F = T.nn.functional
    w = T.ones(3, 2, dtype=T.long)
    idx = T.tensor([0])
    return (
        raises(lambda: F.embedding(idx, w, max_norm=1.0)),
        raises(lambda: T.embedding_renorm_(w, idx, 1.0, 2.0)),
        raises(lambda: F.embedding(idx, w.bool(), max_norm=1.0)),
        F.embedding(idx, w),
        w,
    )


@program()
def prog_ib_half_precision_kernels_missing(T: Any) -> Any:
    # float16/bfloat16 inputs where torch's CPU kernels are float32/float64 only
    F = T.nn.functional
    out = []
    for dt in (T.float16, T.bfloat16):
        x = (T.arange(12.0).reshape(3, 4) / 7).to(dt)
        out.append(
            (
                raises(lambda x=x: F.multi_margin_loss(x, T.tensor([0, 1, 2]))),
                raises(lambda x=x: F.multilabel_margin_loss(x, T.zeros(3, 4, dtype=T.long))),
                raises(lambda x=x: F.pdist(x)),
                raises(lambda x=x: T.pdist(x)),
            )
        )
    x = T.arange(12.0).reshape(3, 4) / 7
    return out, raises(lambda: T.polar(x.bfloat16(), x.bfloat16())), F.pdist(x)


@program()
def prog_ib_integer_convolutions(T: Any) -> Any:
    # every integer dtype has torch's plain kernel; dilated and transposed ones take int64 only
    F = T.nn.functional
    out = []
    for dt in (T.int8, T.int16, T.uint8, T.int32, T.int64):
        x = T.arange(50).reshape(1, 2, 5, 5).to(dt) % 3
        w = T.ones(3, 2, 3, 3, dtype=dt)
        out.append(
            (
                F.conv2d(x, w),
                raises(lambda x=x, w=w: F.conv2d(x, w, dilation=2)),
                raises(lambda x=x, w=w: F.conv2d(x, w, dilation=(1, 2))),
                raises(lambda x=x, w=w: F.conv_transpose2d(x, w.transpose(0, 1))),
                raises(lambda x=x, w=w: F.conv3d(x.unsqueeze(2), w.unsqueeze(2), dilation=2)),
                raises(
                    lambda x=x, w=w: T.convolution(
                        x, w, None, [1, 1], [0, 0], [2, 2], False, [0, 0], 1
                    )
                ),
            )
        )
    return out


@program()
def prog_ib_integer_cells_sums_and_limits(T: Any) -> Any:
    F = T.nn.functional
    i32 = [T.ones(2, 3, dtype=T.int32), T.ones(2, 4, dtype=T.int32)]
    w = [T.ones(4, 3, dtype=T.int32), T.ones(4, 4, dtype=T.int32)]
    u = T.tensor([[1, 2, 3], [4, 5, 6]], dtype=T.uint8)
    return (
        T.rnn_tanh_cell(*i32, *w).dtype,
        T.rnn_relu_cell(*i32, *w),
        raises(lambda: T.embedding_renorm_(T.ones(4, 3, dtype=T.long), T.tensor([7]), 1.0, 2.0)),
        u.sum_to_size(1, 3),
        u.sum_to_size(3),
        T.ones(2, 3, dtype=T.int16).sum_to_size(1, 3),
        raises(lambda: F.hardtanh(u)),
        F.hardtanh(u, 0, 5),
        F.relu6(u),
    )


@program()
def prog_ib_index_reduce_refuses_bool(T: Any) -> Any:
    import warnings

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "index_reduce() is in beta ..." (once per process)
        for red in ("prod", "mean", "amax", "amin"):
            for inc in (True, False):
                b = T.ones(3, dtype=T.bool)
                src = T.tensor([True, False])
                out.append(
                    raises(
                        lambda b=b, s=src, r=red, i=inc: b.index_reduce(
                            0, T.tensor([0, 1]), s, r, include_self=i
                        )
                    )
                )
        x = T.ones(3, dtype=T.int32)
        out.append(x.index_reduce(0, T.tensor([0, 2]), T.tensor([4, 5], dtype=T.int32), "amax"))
    return out


@program()
def prog_ib_complex_inputs_without_kernels(T: Any) -> Any:
    F = T.nn.functional
    c = T.ones(1, 2, 4, 4, dtype=T.complex64)
    return (
        raises(lambda: F.max_pool2d(c, 2)),
        raises(lambda: F.max_pool1d(c[0], 2)),
        raises(lambda: F.max_pool2d(c, 2, return_indices=True)),
        raises(lambda: F.max_pool3d(c.unsqueeze(2).expand(1, 2, 2, 4, 4), 2)),
        raises(lambda: F.adaptive_max_pool3d(c.unsqueeze(2), 1)),
        raises(lambda: T.searchsorted(T.tensor([0.0, 1.0]), T.tensor([0.5 + 1j]))),
        raises(lambda: T.searchsorted(T.tensor([0.0, 1.0], dtype=T.complex64), T.tensor([0.5]))),
        raises(lambda: T.bucketize(T.tensor([0.5 + 1j]), T.tensor([0.0, 1.0]))),
        raises(
            lambda: T.segment_reduce(T.ones(4, dtype=T.complex64), "sum", lengths=T.tensor([2, 2]))
        ),
        F.max_pool2d(c.real, 2),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
