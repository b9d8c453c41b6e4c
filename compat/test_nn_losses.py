"""The margin, embedding, triplet and likelihood losses, pdist and their modules, against torch.

Each functional gets op-database entries run by the harness (forward, backward, double
backward, grad_fn names, errors); the tests below add whole recorded graphs, exact error and
warning messages, and the modules' reprs and values.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad

from .checks import run_entry
from .graphs import _walk
from .nn_helpers import _error
from .ops_nn_losses import CLS, ENTRIES, ML, SIGN, SIGN2, A, B, F, N

LIBS = [torch, shadowgrad]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_op_entry_matches_torch(entry):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = run_entry(entry, torch, shadowgrad)
    failed = [f"{r.check} [{r.dtype}, {r.sample}]: {r.message}" for r in results if not r.ok]
    assert not failed, "\n".join(failed)
    assert any(r.check == "error" for r in results) or entry.name == "soft_margin_loss_"


def _graph_rows(fn):
    outs = []
    for T in LIBS:
        xs = [T.tensor(v, requires_grad=True) for v in (A, B, np.abs(N) + 0.1)]
        outs.append(fn(T, *xs))
    return _walk(outs[0].grad_fn, outs[1].grad_fn)


GRAPHS = {
    "margin_ranking": lambda T, x, y, z: F(T).margin_ranking_loss(x[:, 0], y[:, 0], z[:, 0]),
    "hinge": lambda T, x, y, z: F(T).hinge_embedding_loss(x, T.tensor(SIGN2), reduction="sum"),
    "soft_margin": lambda T, x, y, z: F(T).soft_margin_loss(x, T.tensor(SIGN2)),
    "ml_soft_margin": lambda T, x, y, z: F(T).multilabel_soft_margin_loss(x, y, weight=z[0]),
    "cos_emb": lambda T, x, y, z: F(T).cosine_embedding_loss(x, y, T.tensor(SIGN), margin=0.1),
    "triplet_swap": lambda T, x, y, z: F(T).triplet_margin_loss(x, y, z, swap=True),
    "triplet_dist": lambda T, x, y, z: F(T).triplet_margin_with_distance_loss(x, y, z, swap=True),
    "poisson_full": lambda T, x, y, z: F(T).poisson_nll_loss(x, z, full=True),
    "poisson_rate": lambda T, x, y, z: F(T).poisson_nll_loss(z, y, log_input=False, full=True),
    "gaussian_full": lambda T, x, y, z: F(T).gaussian_nll_loss(x, y, z, full=True),
    "gaussian_float": lambda T, x, y, z: F(T).gaussian_nll_loss(x, y, 0.5, reduction="none"),
    "multi_margin": lambda T, x, y, z: F(T).multi_margin_loss(x, T.tensor(CLS)),
    "ml_margin": lambda T, x, y, z: F(T).multilabel_margin_loss(x, T.tensor(ML)),
    "pdist": lambda T, x, y, z: F(T).pdist(x),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_recorded_graph_matches_torch(name):
    rows = _graph_rows(GRAPHS[name])
    assert not [r for r in rows if r[3]], rows


def _long(T, v):
    return T.tensor(np.asarray(v))


ERRORS = [
    lambda T: F(T).margin_ranking_loss(T.ones(3, 4), T.ones(3, 4), T.ones(3)),
    lambda T: F(T).margin_ranking_loss(T.ones(3), T.ones(4), T.ones(3)),
    lambda T: F(T).hinge_embedding_loss(T.ones(3, 4), T.ones(3), reduction="x"),
    lambda T: F(T).soft_margin_loss(T.ones(3, 4), T.ones(3)),
    lambda T: F(T).soft_margin_loss(T.ones(3, dtype=T.int64), T.ones(3, dtype=T.int64)),
    lambda T: F(T).soft_margin_loss(T.ones(3), T.ones(3, requires_grad=True)),
    lambda T: F(T).multilabel_soft_margin_loss(T.ones(3, 2), T.ones(3, 2), reduction="x"),
    lambda T: F(T).multilabel_soft_margin_loss(T.tensor(1.0), T.tensor(1.0)),
    lambda T: F(T).cosine_embedding_loss(T.ones(3, 4), T.ones(3, 4), T.ones(3, 4)),
    lambda T: F(T).cosine_embedding_loss(T.ones(3, 4), T.ones(3, 4), T.ones(())),
    lambda T: F(T).cosine_embedding_loss(T.ones(4), T.ones(4), T.ones(3)),
    lambda T: F(T).triplet_margin_loss(T.ones(3, 4), T.ones(3, 4), T.ones(4)),
    lambda T: F(T).triplet_margin_loss(T.ones(3, 4), T.ones(3, 4), T.ones(3, 4), margin=0),
    lambda T: F(T).triplet_margin_with_distance_loss(T.ones(3), T.ones(3), T.ones(1, 3)),
    lambda T: F(T).triplet_margin_with_distance_loss(T.ones(3), T.ones(3), T.ones(3), margin=0),
    lambda T: F(T).triplet_margin_with_distance_loss(T.ones(3), T.ones(3), T.ones(3), reduction=""),
    lambda T: F(T).poisson_nll_loss(T.ones(3), T.ones(3), reduction="avg"),
    lambda T: F(T).gaussian_nll_loss(T.ones(3, 4), T.ones(3, 4), T.ones(2)),
    lambda T: F(T).gaussian_nll_loss(T.ones(3, 4), T.ones(3, 4), -1.0),
    lambda T: F(T).gaussian_nll_loss(T.ones(3, 4), T.ones(3, 4), -T.ones(3, 4)),
    lambda T: F(T).gaussian_nll_loss(T.ones(3, 4), T.ones(3, 4), T.ones(3, 4), reduction="x"),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [0, 1, 5])),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [-1, 1, 2])),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [0, 1])),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [[0, 1, 1]])),
    lambda T: F(T).multi_margin_loss(T.ones(4), _long(T, [1, 2])),
    lambda T: F(T).multi_margin_loss(T.ones(()), _long(T, [1, 2])),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), T.tensor([0.0, 1, 1])),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [0, 1, 1]).int()),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [0, 1, 1]), p=3),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [0, 1, 1]), weight=T.ones(3)),
    lambda T: F(T).multi_margin_loss(T.ones(3, 4), _long(T, [0, 1, 1]), weight=T.ones(1, 4)),
    lambda T: F(T).multi_margin_loss(
        T.ones(3, 4), _long(T, [0, 1, 1]), weight=T.ones(4, dtype=T.float64)
    ),
    lambda T: F(T).multi_margin_loss(T.zeros(3, 0), _long(T, [0, 1, 1])),
    lambda T: F(T).multi_margin_loss(T.zeros(2, 3, 4), _long(T, [1, 1])),
    lambda T: F(T).multi_margin_loss(T.zeros(2, 4, dtype=T.int64), _long(T, [1, 1])),
    lambda T: F(T).multilabel_margin_loss(T.ones(3, 4), _long(T, [0, 1, 1])),
    lambda T: F(T).multilabel_margin_loss(T.ones(4), _long(T, [[1, 2, 3, 0]])),
    lambda T: F(T).multilabel_margin_loss(T.ones(3, 4), T.full((3, 4), 5)),
    lambda T: F(T).multilabel_margin_loss(T.ones(3, 4), T.full((3, 4), -2)),
    lambda T: F(T).multilabel_margin_loss(T.ones(3, 4), T.full((3, 4), 1.0)),
    lambda T: F(T).multilabel_margin_loss(T.ones(3, 4), T.zeros(3, 4, dtype=T.int32)),
    lambda T: F(T).multilabel_margin_loss(T.ones(2, 0), T.zeros(2, 0, dtype=T.int64)),
    lambda T: F(T).multilabel_margin_loss(T.ones(3, 4).long(), T.zeros(3, 4, dtype=T.int64)),
    lambda T: F(T).pdist(T.ones(2, 2, 2)),
    lambda T: F(T).pdist(T.ones(2, 2, dtype=T.int64)),
    lambda T: F(T).pdist(T.ones(2, 2), p=-1),
    lambda T: T.nn.MultiMarginLoss(p=3),
    lambda T: T.nn.MultiMarginLoss(weight=T.ones(2, 2)),
    lambda T: T.nn.TripletMarginLoss(margin=0),
    lambda T: T.nn.TripletMarginWithDistanceLoss(margin=-1),
]


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_torch(case):
    expected = _error(lambda: case(torch))
    assert expected is not None
    assert _error(lambda: case(shadowgrad)) == expected


def test_backward_of_backward_raises_like_torch():
    def prog(T, fn):
        x = T.tensor(A, requires_grad=True)
        (g,) = T.autograd.grad(fn(T, x), x, create_graph=True)
        name = g.grad_fn.name().rsplit("::", 1)[-1]
        try:
            g.sum().backward()
        except RuntimeError as e:
            return name, str(e)
        return name, None

    for fn in (GRAPHS["multi_margin"], GRAPHS["ml_margin"]):
        t, s = (
            prog(torch, lambda T, x, fn=fn: fn(T, x, x, x)),
            prog(shadowgrad, lambda T, x, fn=fn: fn(T, x, x, x)),
        )
        assert s == t


def _warns(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [(x.category.__name__, str(x.message)) for x in w]


@pytest.mark.parametrize(
    "call",
    [
        lambda T: F(T).margin_ranking_loss(T.ones(3), T.ones(3), T.ones(3), size_average=False),
        lambda T: F(T).hinge_embedding_loss(T.ones(3), T.ones(3), reduce=False),
        lambda T: F(T).soft_margin_loss(T.ones(3), T.ones(3), size_average=True),
        lambda T: F(T).multilabel_soft_margin_loss(T.ones(2, 3), T.ones(2, 3), reduce=False),
        lambda T: F(T).poisson_nll_loss(T.ones(3), T.ones(3), size_average=False),
        lambda T: F(T).multi_margin_loss(T.ones(2, 3), _long(T, [0, 1]), reduce=True),
        lambda T: F(T).triplet_margin_loss(T.ones(2, 3), T.ones(2, 3), T.ones(2, 3), reduce=False),
        lambda T: T.nn.SoftMarginLoss(size_average=False),
        lambda T: F(T).soft_margin_loss(T.ones(3, 2), T.ones(2)),
        lambda T: F(T).poisson_nll_loss(T.ones(3, 2), T.ones(2)),
    ],
)
def test_warnings_match_torch(call):
    assert _warns(lambda: call(shadowgrad)) == _warns(lambda: call(torch))


# --- modules --------------------------------------------------------------------------------

REPRS = [
    lambda T: T.nn.MarginRankingLoss(0.5),
    lambda T: T.nn.HingeEmbeddingLoss(margin=2.0, reduction="sum"),
    lambda T: T.nn.SoftMarginLoss(),
    lambda T: T.nn.MultiLabelSoftMarginLoss(weight=T.ones(3)),
    lambda T: T.nn.CosineEmbeddingLoss(),
    lambda T: T.nn.TripletMarginLoss(margin=0.5, swap=True),
    lambda T: T.nn.TripletMarginWithDistanceLoss(distance_function=T.nn.PairwiseDistance()),
    lambda T: T.nn.TripletMarginWithDistanceLoss(),
    lambda T: T.nn.PoissonNLLLoss(log_input=False),
    lambda T: T.nn.GaussianNLLLoss(full=True),
    lambda T: T.nn.MultiMarginLoss(p=2, weight=T.ones(4)),
    lambda T: T.nn.MultiLabelMarginLoss(),
    lambda T: T.nn.NLLLoss2d(),
    lambda T: T.nn.CosineSimilarity(dim=0),
    lambda T: T.nn.PairwiseDistance(p=1.0, keepdim=True),
]


@pytest.mark.parametrize("make", REPRS)
def test_module_repr_and_state_match_torch(make):
    t, s = make(torch), make(shadowgrad)
    assert repr(s) == repr(t)
    assert list(s.state_dict()) == list(t.state_dict())
    skip = {"training"}
    attrs = {k: v for k, v in vars(t).items() if not k.startswith("_") and k not in skip}
    for k, v in attrs.items():
        sv = getattr(s, k)
        assert type(sv).__name__ == type(v).__name__ or v is None, k
        if isinstance(v, (int, float, str, bool)):
            assert sv == v, k


MODULES = [
    (
        "margin_ranking",
        lambda T: T.nn.MarginRankingLoss(0.2),
        lambda T, x: (x[0], x[1], T.tensor(SIGN2[0])),
    ),
    (
        "hinge",
        lambda T: T.nn.HingeEmbeddingLoss(reduction="none"),
        lambda T, x: (x, T.tensor(SIGN2)),
    ),
    (
        "soft_margin",
        lambda T: T.nn.SoftMarginLoss(reduction="sum"),
        lambda T, x: (x, T.tensor(SIGN2)),
    ),
    (
        "ml_soft",
        lambda T: T.nn.MultiLabelSoftMarginLoss(weight=T.tensor([1.0, 2, 0, 1])),
        lambda T, x: (x, T.tensor((SIGN2 > 0) * 1.0)),
    ),
    (
        "cos_emb",
        lambda T: T.nn.CosineEmbeddingLoss(0.1),
        lambda T, x: (x, x.flip(0), T.tensor(SIGN)),
    ),
    ("triplet", lambda T: T.nn.TripletMarginLoss(p=1.0), lambda T, x: (x, x.flip(0), x.flip(1))),
    (
        "triplet_dist",
        lambda T: T.nn.TripletMarginWithDistanceLoss(
            distance_function=T.nn.CosineSimilarity(), swap=True
        ),
        lambda T, x: (x, x.flip(0), x.flip(1)),
    ),
    (
        "poisson",
        lambda T: T.nn.PoissonNLLLoss(full=True),
        lambda T, x: (x, T.tensor(np.abs(B) * 3)),
    ),
    ("gaussian", lambda T: T.nn.GaussianNLLLoss(), lambda T, x: (x, T.tensor(B), T.ones(3, 1))),
    ("multi_margin", lambda T: T.nn.MultiMarginLoss(margin=0.5), lambda T, x: (x, T.tensor(CLS))),
    ("ml_margin", lambda T: T.nn.MultiLabelMarginLoss(), lambda T, x: (x, T.tensor(ML))),
    (
        "nll2d",
        lambda T: T.nn.NLLLoss2d(),
        lambda T, x: (x.view(1, 3, 2, 2), T.tensor([[[0, 1], [2, 1]]])),
    ),
    ("cos_sim", lambda T: T.nn.CosineSimilarity(0), lambda T, x: (x, x.flip(1))),
    ("pairwise", lambda T: T.nn.PairwiseDistance(3.0, keepdim=True), lambda T, x: (x, x.flip(1))),
]


@pytest.mark.parametrize(("name", "make", "args"), MODULES, ids=[m[0] for m in MODULES])
def test_module_values_match_torch(name, make, args):
    def prog(T):
        x = T.tensor(A, requires_grad=True)
        out = make(T)(*args(T, x))
        out.sum().backward()
        return out.detach().numpy(), x.grad.numpy(), out.grad_fn.name()

    (to, tg, tn), (so, sg, sn) = prog(torch), prog(shadowgrad)
    np.testing.assert_allclose(so, to, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sg, tg, rtol=1e-10, atol=1e-12)
    assert sn == tn


INPLACE = [
    pytest.param("elu_", (0.5,), id="elu_"),
    pytest.param("selu_", (), id="selu_"),
    pytest.param("celu_", (2.0,), id="celu_"),
    pytest.param("leaky_relu_", (0.2,), id="leaky_relu_"),
    pytest.param("hardtanh_", (-0.5, 0.5), id="hardtanh_"),
    pytest.param("threshold_", (0.1, 2.0), id="threshold_"),
]
INPLACE_VALUES = [(p.values[0], p.values[1]) for p in INPLACE]


def _inplace_prog(T, name, args):
    leaf = T.tensor(np.array([-1.5, -0.5, 0.0, 0.1, 0.3, 2.0]), requires_grad=True)
    x = leaf * 1
    out = getattr(F(T), name)(x, *args)
    out.backward(T.arange(6.0, dtype=T.float64))
    plain = T.tensor(np.array([-1.0, 3.0]))
    getattr(F(T), name)(plain, *args)
    values = (out.detach().numpy(), leaf.grad.numpy(), plain.numpy())
    return (out is x, out.grad_fn.name(), x._version), values


@pytest.mark.parametrize(("name", "args"), INPLACE_VALUES, ids=[v[0] for v in INPLACE_VALUES])
def test_inplace_activation_values_match_torch(name, args):
    (_, t), (_, s) = _inplace_prog(torch, name, args), _inplace_prog(shadowgrad, name, args)
    for a, b in zip(s, t, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize(("name", "args"), INPLACE)
def test_inplace_activation_records_like_torch(name, args):
    assert _inplace_prog(shadowgrad, name, args)[0] == _inplace_prog(torch, name, args)[0]


def test_softmax2d_matches_torch():
    def prog(T):
        x = T.tensor(A.reshape(1, 3, 2, 2), requires_grad=True)
        m = T.nn.Softmax2d()
        out = m(x)
        out.backward(T.tensor(B.reshape(1, 3, 2, 2)))
        y = m(T.tensor(A.reshape(3, 2, 2)))
        return repr(m), out.grad_fn.name(), out.detach().numpy(), x.grad.numpy(), y.numpy()

    t, s = prog(torch), prog(shadowgrad)
    assert s[:2] == t[:2]
    for a, b in zip(s[2:], t[2:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert _error(lambda: shadowgrad.nn.Softmax2d()(shadowgrad.ones(3, 3))) == _error(
        lambda: torch.nn.Softmax2d()(torch.ones(3, 3))
    )


def test_float32_values_match_torch():
    def prog(T):
        x = T.tensor(A.astype(np.float32), requires_grad=True)
        out = [
            F(T).soft_margin_loss(x, T.tensor(SIGN2.astype(np.float32))),
            F(T).multi_margin_loss(x, T.tensor(CLS), p=2),
            F(T).multilabel_margin_loss(x, T.tensor(ML)),
            F(T).pdist(x),
            F(T).poisson_nll_loss(x, x.detach().abs()),
        ]
        sum(o.sum() for o in out).backward()
        return [(o.dtype, o.detach().numpy()) for o in out], x.grad.numpy()

    (to, tg), (so, sg) = prog(torch), prog(shadowgrad)
    for (td, tv), (sd, sv) in zip(to, so, strict=True):
        assert str(sd) == str(td)
        np.testing.assert_allclose(sv, tv, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sg, tg, rtol=1e-5, atol=1e-6)
