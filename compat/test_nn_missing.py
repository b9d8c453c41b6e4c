"""nn pieces beyond the core, against torch: grid_sample and affine_grid, embedding_bag and
EmbeddingBag.

Each program is written once, takes the library as its argument, and runs from the same numpy
inputs; values, dtypes, gradients, grad_fn names and errors must agree.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from .nn_helpers import LIBS, _both, _cotangent, _errors, _np

# --- grid_sample / affine_grid ------------------------------------------------------------

_rng = np.random.default_rng(0)
_GS_CASES = [
    (nd, dt, mode, pad, al)
    for nd in (2, 3)
    for dt in (np.float64, np.float32)
    for mode, pad, al in itertools.product(
        ("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection"), (True, False)
    )
    if not (nd == 3 and mode == "bicubic")
]


@pytest.mark.parametrize(("nd", "dt", "mode", "pad", "align"), _GS_CASES)
def test_grid_sample_matches_torch(nd, dt, mode, pad, align):
    r = np.random.default_rng(nd)
    x = r.standard_normal((2, 3, *(4, 5, 3)[:nd])).astype(dt)
    g = r.uniform(-1.4, 1.4, (2, *(3, 2, 4)[:nd], nd)).astype(dt)
    g[0, 0, 0] = -1.0  # corners and exact pixel centres
    g[0, 0, 1] = 1.0

    def prog(T):
        xi = T.tensor(x, requires_grad=True)
        gi = T.tensor(g, requires_grad=True)
        y = T.nn.functional.grid_sample(xi, gi, mode=mode, padding_mode=pad, align_corners=align)
        (y * _cotangent(T, y)).sum().backward()
        return {"y": _np(y), "x.grad": _np(xi.grad), "g.grad": _np(gi.grad), "fn": y.grad_fn.name()}

    _both(prog, 1e-9 if dt == np.float64 else 2e-4)


def test_grid_sample_empty_batch_and_channels():
    for shape, gshape in (((0, 2, 3, 4), (0, 2, 3, 2)), ((1, 0, 3, 4), (1, 2, 3, 2))):
        x = _rng.standard_normal(shape)
        g = _rng.uniform(-1, 1, gshape)
        _both(
            lambda T, x=x, g=g: {
                "y": _np(T.nn.functional.grid_sample(T.tensor(x), T.tensor(g), align_corners=True))
            }
        )


def test_grid_sample_warns_without_align_corners():
    x, g = _rng.standard_normal((1, 1, 2, 2)), _rng.uniform(-1, 1, (1, 2, 2, 2))
    msgs = []
    for T in LIBS:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            T.nn.functional.grid_sample(T.tensor(x), T.tensor(g))
        msgs.append([str(m.message) for m in w])
    assert msgs[0] == msgs[1] and len(msgs[0]) == 1


@pytest.mark.parametrize(
    ("xs", "gs", "kw"),
    [
        ((1, 2, 3, 4), (1, 2, 3, 3), {}),
        ((1, 2, 3, 4), (2, 2, 3, 2), {}),
        ((1, 2, 3, 4), (1, 2, 3, 2, 2), {}),
        ((1, 2, 3, 3, 3), (1, 2, 3, 2, 3), {"mode": "bicubic"}),
        ((1, 2, 0, 3), (1, 2, 3, 2), {}),
        ((1, 2, 3, 4), (1, 2, 3, 2), {"mode": "linear"}),
        ((1, 2, 3, 4), (1, 2, 3, 2), {"padding_mode": "circular"}),
    ],
)
def test_grid_sample_errors(xs, gs, kw):
    x, g = np.zeros(xs), np.zeros(gs)
    _errors(
        lambda T: T.nn.functional.grid_sample(T.tensor(x), T.tensor(g), align_corners=True, **kw)
    )


def test_grid_sample_dtype_errors():
    x, g = np.zeros((1, 1, 2, 2)), np.zeros((1, 2, 2, 2))
    _errors(
        lambda T: T.nn.functional.grid_sample(T.tensor(x).float(), T.tensor(g), align_corners=True)
    )
    _errors(lambda T: T.grid_sampler(T.tensor(x).long(), T.tensor(g).long(), 0, 0, False))


@pytest.mark.parametrize("align", [True, False])
@pytest.mark.parametrize("size", [(2, 1, 3, 4), (2, 3, 1, 5), (2, 1, 2, 3, 4)])
def test_affine_grid_matches_torch(size, align):
    d = len(size) - 2
    th = _rng.standard_normal((2, d, d + 1))

    def prog(T):
        t = T.tensor(th, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = T.nn.functional.affine_grid(t, size, align_corners=align)
        (a * _cotangent(T, a)).sum().backward()
        return {"a": _np(a), "t.grad": _np(t.grad), "fn": a.grad_fn.name()}

    _both(prog, 1e-12)


def test_affine_grid_then_grid_sample_float32():
    th = np.array([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]]], np.float32)
    x = _rng.standard_normal((1, 2, 5, 6)).astype(np.float32)

    def prog(T):
        t = T.tensor(th, requires_grad=True)
        a = T.nn.functional.affine_grid(t, (1, 2, 4, 3), align_corners=False)
        y = T.nn.functional.grid_sample(T.tensor(x), a, align_corners=False)
        (y * _cotangent(T, y)).sum().backward()
        return {"y": _np(y), "t.grad": _np(t.grad), "a.dtype": str(a.dtype)}

    _both(prog, 1e-5)


@pytest.mark.parametrize(
    ("shape", "size"),
    [
        ((2, 2, 3), (2, 1, 3)),
        ((2, 3, 3), (2, 1, 3, 4)),
        ((2, 2, 3), (2, 1, 0, 4)),
        ((1, 3, 4), (1, 1, 2, 3, 4, 5)),
    ],
)
def test_affine_grid_errors(shape, size):
    th = np.zeros(shape)
    _errors(lambda T: T.nn.functional.affine_grid(T.tensor(th), size, align_corners=False))
    _errors(lambda T: T.nn.functional.affine_grid(T.tensor(th).long(), size, align_corners=False))


# --- embedding_bag / EmbeddingBag ---------------------------------------------------------

_EB_IDX = np.array([0, 2, 2, 5, 1, 3, 2, 4])
_EB_OFF = np.array([0, 3, 3, 6])
_EB_CASES = [
    (mode, pad, last, psw, sgf)
    for mode in ("sum", "mean", "max")
    for pad in (None, 2)
    for last in (False, True)
    for psw in ((False, True) if mode == "sum" else (False,))
    for sgf in ((False, True) if mode != "max" else (False,))
]


@pytest.mark.parametrize(("mode", "pad", "last", "psw", "sgf"), _EB_CASES)
def test_embedding_bag_matches_torch(mode, pad, last, psw, sgf):
    r = np.random.default_rng(1)
    w0, p0 = r.standard_normal((6, 3)), r.uniform(0.5, 2, 8)
    w0[4, 1] = w0[2, 1]  # a tie for max

    def prog(T):
        w = T.tensor(w0, requires_grad=True)
        p = T.tensor(p0, requires_grad=True) if psw else None
        y = T.nn.functional.embedding_bag(
            T.tensor(_EB_IDX),
            w,
            T.tensor(_EB_OFF),
            mode=mode,
            padding_idx=pad,
            include_last_offset=last,
            per_sample_weights=p,
            scale_grad_by_freq=sgf,
        )
        (y * _cotangent(T, y)).sum().backward()
        return {
            "y": _np(y),
            "w.grad": _np(w.grad),
            "p.grad": _np(p) if p is None else _np(p.grad),
            "fn": y.grad_fn.name(),
        }

    _both(prog, 1e-12)


def test_embedding_bag_2d_input_and_double_backward_errors():
    r = np.random.default_rng(2)
    w0, idx = r.standard_normal((5, 4)).astype(np.float32), np.array([[0, 1, 4], [3, 3, 2]])

    def prog(T):
        w = T.tensor(w0, requires_grad=True)
        p = T.tensor(np.ones((2, 3), np.float32), requires_grad=True)
        y = T.nn.functional.embedding_bag(T.tensor(idx), w, mode="sum", per_sample_weights=p)
        gw, gp = T.autograd.grad((y * _cotangent(T, y)).sum(), (w, p), create_graph=True)
        errs = []
        for g in (gw, gp):
            try:
                g.sum().backward()
            except Exception as e:
                errs.append(f"{type(e).__name__}: {e}")
        return {"y": _np(y), "gw": _np(gw), "gp": _np(gp), "gw.fn": gw.grad_fn.name(), "errs": errs}

    _both(prog, 1e-5)


@pytest.mark.parametrize(
    "call",
    [
        lambda T, w: T.nn.functional.embedding_bag(T.tensor([[0, 1]]), w, T.tensor([0])),
        lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 1]), w),
        lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 1]), w, T.tensor([0]), mode="x"),
        lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 7]), w, T.tensor([0])),
        lambda T, w: T.nn.functional.embedding_bag(
            T.tensor([0, 1]), w, T.tensor([0]), per_sample_weights=T.ones(2)
        ),
        lambda T, w: T.nn.functional.embedding_bag(
            T.tensor([0, 1]), w, T.tensor([0]), mode="max", scale_grad_by_freq=True
        ),
    ],
)
def test_embedding_bag_errors(call):
    w0 = np.zeros((5, 2), np.float32)
    _errors(lambda T: call(T, T.tensor(w0)))


def test_embedding_bag_module_matches_torch():
    w0 = np.random.default_rng(3).standard_normal((7, 3)).astype(np.float32)

    def prog(T):
        T.manual_seed(0)
        m = T.nn.EmbeddingBag(7, 3, mode="max", padding_idx=-2)
        m2 = T.nn.EmbeddingBag.from_pretrained(T.tensor(w0), mode="sum", max_norm=1.0)
        m3 = T.nn.EmbeddingBag(4, 2, norm_type=1.0, scale_grad_by_freq=True)
        with T.no_grad():
            m.weight.copy_(T.tensor(w0))
        y = m(T.tensor([0, 5, 6, 1]), T.tensor([0, 2]))
        y.sum().backward()
        y2 = m2(T.tensor([[0, 1], [1, 6]]))
        return {
            "repr": repr(m) + repr(m2) + repr(m3),
            "y": _np(y),
            "g": _np(m.weight.grad),
            "y2": _np(y2),
            "w2": _np(m2.weight),
            "frozen": m2.weight.requires_grad,
            "keys": list(m.state_dict()),
            "pad": m.padding_idx,
            "pad_row": _np(T.nn.EmbeddingBag(5, 2, padding_idx=1).weight[1]),
        }

    _both(prog, 1e-6)


# --- gumbel_softmax -----------------------------------------------------------------------


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_properties_and_straight_through(hard):
    logits0 = np.random.default_rng(4).standard_normal((5, 4))

    def prog(T):
        x = T.tensor(logits0, requires_grad=True)
        y = T.nn.functional.gumbel_softmax(x, tau=0.5, hard=hard, dim=0)
        sums = y.detach().sum(0).numpy()
        onehot = bool(((y.detach() == 0) | (y.detach() == 1)).all()) if hard else None
        y.backward(T.ones_like(y))  # softmax's gradient of a constant cotangent is 0
        return {
            "shape": tuple(y.shape),
            "dtype": str(y.dtype),
            "sums": sums,
            "onehot": onehot,
            "g": np.abs(x.grad.numpy()).max() < 1e-12,
            "fn": y.grad_fn.name(),
        }

    _both(prog, 1e-12)


def test_gumbel_softmax_hard_gradient_is_the_soft_samples():
    logits0 = np.random.default_rng(5).standard_normal((3, 6))
    w = np.arange(18.0).reshape(3, 6)
    for T in LIBS:
        T.manual_seed(0)
        x = T.tensor(logits0, requires_grad=True)
        y = T.nn.functional.gumbel_softmax(x, hard=True)
        (y * T.tensor(w)).sum().backward()
        g_hard = x.grad.clone()
        T.manual_seed(0)
        x2 = T.tensor(logits0, requires_grad=True)
        y2 = T.nn.functional.gumbel_softmax(x2, hard=False)
        (y2 * T.tensor(w)).sum().backward()
        np.testing.assert_allclose(g_hard.numpy(), x2.grad.numpy(), rtol=1e-12)
        assert (y.detach().argmax(-1) == y2.detach().argmax(-1)).all()
