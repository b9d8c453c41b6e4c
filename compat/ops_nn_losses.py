"""Op database entries for the margin, embedding, triplet and likelihood losses and pdist
(shadowgrad/nn/_functional_losses.py); compat/test_nn_losses.py runs them and adds whole
recorded graphs, error and warning messages and the modules."""

from __future__ import annotations

import math

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg

_R = np.random.default_rng(7)
A, B, N = (_R.standard_normal((3, 4)) for _ in range(3))
SIGN = np.array([1.0, -1.0, 1.0])
SIGN2 = np.sign(_R.standard_normal((3, 4)))
CLS = np.array([0, 3, 1])
ML = np.array([[0, 1, -1, 2], [3, -1, 0, 0], [1, 2, 3, 0]])


def F(T):
    return T.nn.functional


def _reds(*args, **kw):
    return [Sample(args, {**kw, "reduction": r}, name=r) for r in ("mean", "sum", "none")]


def _t(v, rg=True, layout="contiguous"):
    return tensor_arg(np.asarray(v), rg, layout)


def _margin_ranking(dtype):
    x, y = A[:, 0], B[:, 0]
    return [
        *_reds(_t(x), _t(y), _t(SIGN, False)),
        Sample((_t(x), _t(y), _t(SIGN)), {"margin": 0.3}, name="target grad, margin"),
        Sample((_t(x), _t(x.copy()), _t(SIGN, False)), name="kink at the margin"),
        Sample((_t(1.5), _t(-0.5), _t(-1.0, False)), name="0-d"),
        Sample((_t(np.zeros(0)), _t(np.zeros(0)), _t(np.zeros(0), False)), name="empty"),
        Sample((_t(A), _t(B, layout="transposed"), _t(SIGN2, False)), name="non-contig 2-d"),
        Sample((_t(A), _t(B[:1]), _t(SIGN2[:, :1], False)), name="broadcast"),
        Sample((_t(A), _t(B), _t(SIGN, False)), name="dims differ: error"),
        Sample((_t(x), _t(y), _t(SIGN, False)), {"reduction": "avg"}, name="bad reduction"),
    ]


def _hinge(dtype):
    return [
        *_reds(_t(A), _t(SIGN2, False)),
        Sample((_t(A), _t(SIGN2, False)), {"margin": 0.5}, name="margin"),
        Sample(
            (_t(np.array([1.0, 0.0, -1.0])), _t(np.array([-1.0, -1.0, 1.0]), False)), name="kinks"
        ),
        Sample((_t(A), _t(np.array([1.0, 2.0, -1.0, 0.0]), False)), name="other targets"),
        Sample((_t(0.3), _t(-1.0, False)), name="0-d"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2)), False)), name="empty"),
        Sample((_t(A, layout="transposed"), _t(SIGN2, False)), name="non-contig"),
        Sample((_t(A), _t(np.ones(3), False)), name="bad broadcast: error"),
    ]


def _soft_margin(dtype):
    return [
        *_reds(_t(A), _t(SIGN2, False)),
        Sample((_t(0.3), _t(-1.0, False)), name="0-d"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2)), False)), name="empty"),
        Sample((_t(A, layout="sliced"), _t(SIGN2, False)), name="non-contig"),
        Sample((_t(A), _t(SIGN2[0], False)), name="broadcast target"),
        Sample((_t(A), _t(np.ones(3), False)), name="bad broadcast: error"),
    ]


def _ml_soft_margin(dtype):
    y = (SIGN2 > 0).astype(float)
    return [
        *_reds(_t(A), _t(y, False)),
        Sample((_t(A), _t(y)), {"weight": _t(np.array([1.0, 2.0, 0.5, 0.0]))}, name="weight"),
        Sample((_t(A[0]), _t(y[0], False)), name="1-d"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2)), False)), name="empty"),
        Sample((_t(A, layout="transposed"), _t(y, False)), name="non-contig"),
        Sample((_t(A), _t(y[:1], False)), name="broadcast target"),
        Sample((_t(0.5), _t(1.0, False)), name="0-d: error"),
        Sample((_t(A), _t(y, False)), {"reduction": "avg"}, name="bad reduction: error"),
    ]


def _cos_emb(dtype):
    return [
        *_reds(_t(A), _t(B), _t(SIGN, False)),
        Sample(
            (_t(A), _t(B), _t(np.array([1.0, -1.0, 0.0]), False)), {"margin": 0.2}, name="margin"
        ),
        Sample(
            (_t(A), _t(-A), _t(np.array([-1.0, -1.0, 1.0]), False)), {"margin": -1.0}, name="kink"
        ),
        Sample((_t(A[0]), _t(B[0]), _t(-1.0, False)), name="0-d target"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2))), _t(np.zeros(0), False)), name="empty"),
        Sample((_t(A, layout="transposed"), _t(B), _t(SIGN, False)), name="non-contig"),
        Sample((_t(A), _t(B[:1]), _t(SIGN, False)), name="broadcast"),
        Sample((_t(A), _t(B), _t(SIGN2, False)), name="2-d target: error"),
        Sample((_t(A[0]), _t(B[0]), _t(SIGN, False)), name="dims: error"),
    ]


def _triplet(dtype):
    return [
        *_reds(_t(A), _t(B), _t(N)),
        Sample((_t(A), _t(B), _t(N)), {"swap": True, "p": 1.0, "margin": 0.5}, name="swap p=1"),
        Sample((_t(A), _t(B), _t(N)), {"p": 3.0, "eps": 0.0}, name="p=3"),
        Sample((_t(A[0]), _t(B[0]), _t(N[0])), name="1-d"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2))), _t(np.zeros((0, 2)))), name="empty"),
        Sample((_t(A, layout="transposed"), _t(B), _t(N)), name="non-contig"),
        Sample((_t(A), _t(B[:1]), _t(N)), name="broadcast"),
        Sample((_t(A), _t(B), _t(N[0])), name="dims: error"),
        Sample((_t(A), _t(B), _t(N)), {"margin": 0.0}, name="margin 0: error"),
    ]


def _triplet_dist(dtype):
    return [
        *_reds(_t(A), _t(B), _t(N)),
        Sample((_t(A), _t(B), _t(N)), {"swap": True, "margin": 0.5}, name="swap"),
        Sample((_t(A[0]), _t(B[0]), _t(N[0])), name="1-d"),
        Sample((_t(A), _t(B[:1]), _t(N)), name="broadcast"),
        Sample((_t(A), _t(B), _t(N[0])), name="dims: error"),
        Sample((_t(A), _t(B), _t(N)), {"margin": -1.0}, name="margin: error"),
        Sample((_t(A), _t(B), _t(N)), {"reduction": "x"}, name="bad reduction: error"),
    ]


def _cosine_distance(T):
    return lambda x, y: 1.0 - F(T).cosine_similarity(x, y)


def _poisson(dtype):
    cnt = np.array([[0.0, 1.0, 2.0, 5.0], [3.0, 0.5, 1.5, 10.0], [0.0, 0.0, 4.0, 1.0]])
    return [
        *_reds(_t(A), _t(cnt, False)),
        Sample((_t(A), _t(cnt)), {"full": True}, name="full, target grad"),
        Sample((_t(np.abs(A) + 0.1), _t(cnt)), {"log_input": False}, name="rate input"),
        Sample((_t(np.abs(A)), _t(cnt, False)), {"log_input": False, "full": True, "eps": 0.1}),
        Sample((_t(0.5), _t(3.0)), name="0-d"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2)))), name="empty"),
        Sample((_t(A, layout="transposed"), _t(cnt)), name="non-contig"),
        Sample((_t(A), _t(cnt[0])), name="broadcast"),
        Sample((_t(A), _t(cnt)), {"reduction": "x"}, name="bad reduction: error"),
    ]


def _gaussian(dtype):
    v = np.abs(N) + 0.1
    return [
        *_reds(_t(A), _t(B), _t(v)),
        Sample((_t(A), _t(B), _t(v[:, 0])), {"full": True}, name="homoscedastic, full"),
        Sample((_t(A), _t(B, False), _t(v[:, :1])), name="one var per row"),
        Sample((_t(A), _t(B), _t(np.zeros((3, 4)))), {"eps": 0.5}, name="clamped var"),
        Sample((_t(A), _t(B), 0.5), name="float var"),
        Sample((_t(A, layout="transposed"), _t(B), _t(v)), name="non-contig"),
        Sample((_t(np.zeros((0, 2))), _t(np.zeros((0, 2))), _t(np.ones((0, 2)))), name="empty"),
        Sample((_t(A), _t(B), _t(-v)), name="negative var: error"),
        Sample((_t(A), _t(B), -1.0), name="negative float var: error"),
        Sample((_t(A), _t(B), _t(np.ones(3))), name="var size: error"),
        Sample((_t(A), _t(B), _t(v)), {"reduction": "x"}, name="bad reduction: error"),
    ]


def _multi_margin(dtype):
    w = np.array([1.0, 0.5, 2.0, 0.0])
    tie = np.array([[1.0, 0.0, 2.0, 1.0]])
    return [
        *_reds(_t(A), _t(CLS, False)),
        Sample((_t(A), _t(CLS, False)), {"p": 2, "margin": 0.5}, name="p=2"),
        Sample((_t(A), _t(CLS, False), 1, 1.0, _t(w, False)), name="weight"),
        Sample((_t(tie), _t(np.array([0]), False)), name="at the margin"),
        Sample((_t(A[0]), _t(np.array(2), False)), {"reduction": "none"}, name="1-d"),
        Sample((_t(1.5), _t(np.array(0), False)), {"reduction": "none"}, name="0-d"),
        Sample(
            (_t(np.zeros((0, 3))), _t(np.zeros(0, np.int64), False)),
            {"reduction": "none"},  # torch reduces an empty batch into uninitialized memory
            name="empty batch",
        ),
        Sample((_t(A, layout="transposed"), _t(CLS, False)), name="non-contig"),
        Sample((_t(A), _t(np.array([0, 4, 1]), False)), name="target range: error"),
        Sample((_t(A), _t(CLS[:2], False)), name="target size: error"),
        Sample((_t(A), _t(CLS, False)), {"p": 3}, name="p: error"),
    ]


def _ml_margin(dtype):
    return [
        *_reds(_t(A), _t(ML, False)),
        Sample((_t(A[0]), _t(ML[0], False)), {"reduction": "none"}, name="1-d"),
        Sample((_t(np.array([[1.0, 0.0, 2.0]])), _t(np.array([[0, -1, 2]]), False)), name="tie"),
        Sample((_t(A), _t(np.full((3, 4), -1), False)), name="no targets"),
        Sample(
            (_t(np.zeros((0, 3))), _t(np.zeros((0, 3), np.int64), False)),
            {"reduction": "none"},  # torch reduces an empty batch into uninitialized memory
            name="empty",
        ),
        Sample((_t(A, layout="transposed"), _t(ML, False)), name="non-contig"),
        Sample((_t(A), _t(ML[:, :3], False)), name="target size: error"),
        Sample((_t(A), _t(np.full((3, 4), 4), False)), name="target range: error"),
    ]


def _pdist(dtype):
    dup = np.array([[0.0, 1.0], [0.0, 1.0], [2.0, 3.0], [1.0, -1.0]])
    return [
        Sample((_t(A),), name="p=2"),
        *[Sample((_t(A),), {"p": p}, name=f"p={p}") for p in (0.0, 0.5, 1.0, 3.0, math.inf)],
        Sample((_t(dup),), name="equal rows"),
        Sample((_t(dup),), {"p": math.inf}, name="inf-norm ties"),
        Sample((_t(np.ones((1, 3))),), name="one row"),
        Sample((_t(np.zeros((0, 3)), False),), name="empty (torch crashes in its backward)"),
        Sample((_t(A, layout="transposed"),), name="non-contig"),
        Sample((_t(A[0]),), name="1-d: error"),
        Sample((_t(A),), {"p": -1.0}, name="negative p: error"),
    ]


def _ctc(dtype):
    # log-probabilities (T=5, N=2, C=4), normalized over the classes as CTC expects
    x = _R.standard_normal((5, 2, 4))
    lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
    tg = np.array([[1, 2, 2], [3, 1, 0]])
    flat = np.array([1, 2, 2, 3, 1])
    il, tl = [5, 4], [3, 2]
    return [
        *[
            Sample((_t(lp), _t(tg, False), il, tl), {"reduction": r}, name=f"padded, {r}")
            for r in ("mean", "sum", "none")
        ],
        Sample((_t(lp), _t(flat, False), il, tl), name="concatenated targets"),
        Sample(
            (_t(lp), _t(tg, False), _t(np.array(il), False), _t(np.array(tl), False)),
            name="length tensors",
        ),
        Sample(
            (_t(lp), _t(np.array([[1, 1, 1]]).repeat(2, 0), False), [2, 2], [3, 3]),
            {"reduction": "none"},
            name="impossible: inf",
        ),
        Sample(
            (_t(lp), _t(np.array([[1, 1, 1]]).repeat(2, 0), False), [2, 2], [3, 3]),
            {"zero_infinity": True},
            name="impossible, zero_infinity",
        ),
        Sample((_t(lp[:, 0]), _t(tg[0], False), [5], [3]), name="unbatched"),
        Sample((_t(lp), _t(tg, False), [5], tl), name="lengths: error"),
    ]


ENTRIES = [
    OpEntry(
        "nn.functional.ctc_loss",
        lambda T, *a, **k: F(T).ctc_loss(*a, **k),
        _ctc,
        supports_gradgrad=False,
        covers=("ctc_loss",),
        xfails={
            "gradcheck": "torch's CTC gradient is exp(log_probs) - posterior, which assumes "
            "normalized log-probabilities; a finite difference leaves them unnormalized"
        },
    ),
    OpEntry(
        "margin_ranking_loss", lambda T, *a, **k: F(T).margin_ranking_loss(*a, **k), _margin_ranking
    ),
    OpEntry("hinge_embedding_loss", lambda T, *a, **k: F(T).hinge_embedding_loss(*a, **k), _hinge),
    OpEntry("soft_margin_loss", lambda T, *a, **k: F(T).soft_margin_loss(*a, **k), _soft_margin),
    OpEntry(
        "multilabel_soft_margin_loss",
        lambda T, *a, **k: F(T).multilabel_soft_margin_loss(*a, **k),
        _ml_soft_margin,
    ),
    OpEntry(
        "cosine_embedding_loss", lambda T, *a, **k: F(T).cosine_embedding_loss(*a, **k), _cos_emb
    ),
    OpEntry("triplet_margin_loss", lambda T, *a, **k: F(T).triplet_margin_loss(*a, **k), _triplet),
    OpEntry(
        "triplet_margin_with_distance_loss",
        lambda T, *a, **k: F(T).triplet_margin_with_distance_loss(*a, **k),
        _triplet_dist,
    ),
    OpEntry(
        "triplet_margin_with_distance_loss_cos",
        lambda T, *a, **k: F(T).triplet_margin_with_distance_loss(
            *a, distance_function=_cosine_distance(T), **k
        ),
        _triplet_dist,
    ),
    OpEntry("poisson_nll_loss", lambda T, *a, **k: F(T).poisson_nll_loss(*a, **k), _poisson),
    OpEntry("gaussian_nll_loss", lambda T, *a, **k: F(T).gaussian_nll_loss(*a, **k), _gaussian),
    # torch's backward of these backwards is not implemented: shadowgrad raises too
    OpEntry("multi_margin_loss", lambda T, *a, **k: F(T).multi_margin_loss(*a, **k), _multi_margin),
    OpEntry(
        "multilabel_margin_loss",
        lambda T, *a, **k: F(T).multilabel_margin_loss(*a, **k),
        _ml_margin,
    ),
    OpEntry("pdist", lambda T, *a, **k: F(T).pdist(*a, **k), _pdist),
]

register(*ENTRIES)
