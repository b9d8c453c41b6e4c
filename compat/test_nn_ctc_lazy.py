"""CTC loss, the lazy modules and adaptive log-softmax, against torch.

Each program is written once, takes the library as its argument, and runs from the same numpy
inputs (and, for modules, the same weights); values, dtypes, gradients, grad_fn names and errors
must agree.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _np(v):
    return None if v is None else v.detach().numpy()


def _same(a, b, tol):
    assert (a is None) == (b is None)
    if a is None:
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def _both(prog, tol=1e-6):
    outs = [prog(T) for T in LIBS]
    assert outs[0].keys() == outs[1].keys()
    for k in outs[0]:
        a, b = outs[0][k], outs[1][k]
        if isinstance(a, np.ndarray) or a is None:
            _same(a, b, tol)
        else:
            assert a == b, k


def _errors(fn):
    got = []
    for T in LIBS:
        with pytest.raises(Exception) as e:
            fn(T)
        got.append((type(e.value).__name__, str(e.value)))
    assert got[0] == got[1]


def _cotangent(T, y):
    return T.tensor(np.cos(np.arange(y.numel()) + 1.0).reshape(tuple(y.shape))).to(y.dtype)


# --- CTC loss ------------------------------------------------------------------------------

_rng = np.random.default_rng(0)


def _log_probs(shape, normalized=True, dtype=np.float32):
    x = _rng.standard_normal(shape)
    if normalized:
        x = x - np.log(np.exp(x).sum(-1, keepdims=True))
    return x.astype(dtype)


# (input lengths, padded targets, target lengths): repeated labels, a shorter sample, an
# impossible alignment (3 frames cannot hold 1,1,2 which needs 4), empty targets
_CASES = [
    ([6, 6], [[1, 1, 2], [2, 3, 0]], [3, 2]),
    ([6, 4], [[1, 2, 2], [3, 3, 3]], [3, 2]),
    ([3, 5], [[1, 1, 2], [2, 3, 1]], [3, 3]),
    ([6, 2], [[1, 2, 3], [0, 0, 0]], [2, 0]),
    ([0, 6], [[0, 0, 0], [1, 3, 3]], [0, 3]),
]


@pytest.mark.parametrize("case", range(len(_CASES)))
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
@pytest.mark.parametrize("form", ["padded", "concat", "tensors"])
def test_ctc_loss(case, reduction, zero_infinity, form):
    il, tg, tl = _CASES[case]
    lp_np = _log_probs((6, 2, 4))
    blank = 0 if case % 2 == 0 else 3
    tg_np = np.array(tg) if blank == 0 else np.where(np.array(tg) == 3, 0, np.array(tg))

    def prog(T):
        lp = T.tensor(lp_np, requires_grad=True)
        if form == "concat":
            targets = T.tensor(np.concatenate([tg_np[b, :n] for b, n in enumerate(tl)]))
        else:
            targets = T.tensor(tg_np)
        lens = (T.tensor(il), T.tensor(tl)) if form == "tensors" else (il, tuple(tl))
        y = T.nn.functional.ctc_loss(
            lp, targets, *lens, blank=blank, reduction=reduction, zero_infinity=zero_infinity
        )
        (g,) = T.autograd.grad(y, lp, _cotangent(T, y))
        return {"y": _np(y), "g": _np(g), "fn": y.grad_fn.name()}

    _both(prog, 1e-5)


def test_ctc_loss_float64_unnormalized_and_module():
    # torch's gradient is exp(log_probs) - posterior, whatever log_probs holds
    lp_np = _log_probs((7, 3, 5), normalized=False, dtype=np.float64)
    tg_np = np.array([1, 2, 2, 4, 3, 3, 3, 1])

    def prog(T):
        lp = T.tensor(lp_np, requires_grad=True)
        m = T.nn.CTCLoss(blank=0, reduction="sum")
        y = m(lp, T.tensor(tg_np), T.tensor([7, 6, 5]), T.tensor([3, 3, 2]))
        y.backward()
        return {"y": _np(y), "g": _np(lp.grad), "fn": y.grad_fn.name(), "repr": repr(m)}

    _both(prog, 1e-10)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_ctc_loss_unbatched(reduction):
    lp_np = _log_probs((5, 4))

    def prog(T):
        lp = T.tensor(lp_np, requires_grad=True)
        y = T.nn.functional.ctc_loss(lp, T.tensor([[1, 1, 3]]), [5], [3], reduction=reduction)
        (g,) = T.autograd.grad(y, lp, _cotangent(T, y))
        return {"y": _np(y), "g": _np(g), "fn": y.grad_fn.name()}

    _both(prog, 1e-5)


def test_ctc_loss_top_level_and_double_backward():
    lp_np = _log_probs((4, 2, 3))

    def prog(T):
        lp = T.tensor(lp_np, requires_grad=True)
        tg = T.tensor([[1, 2], [2, 2]])
        out = {"none": _np(T.ctc_loss(lp, tg, [4, 4], [2, 2]))}
        out["mean"] = _np(T.ctc_loss(lp, tg.float(), [4, 3], [2, 1], 0, 1, False))
        y = T.nn.functional.ctc_loss(lp, tg, [4, 4], [2, 2])
        (g,) = T.autograd.grad(y, lp, create_graph=True)
        out["g"] = _np(g)
        out["gfn"] = type(g.grad_fn).__name__
        with pytest.raises(RuntimeError) as e:
            g.sum().backward()
        out["err"] = str(e.value)
        return out

    _both(prog)


_BAD_CTC = [
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [7, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3, 3], [4, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3, 3], [2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3, 3], [2, 2], blank=4),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3, 3], [2, 2], blank=-1),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [-1, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3, 3], [-1, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, T.tensor([3.0, 3]), T.tensor([2, 2])),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, T.tensor([3, 3]), T.tensor([2.0, 2])),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [3, 3], [2, 2], reduction="foo"),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, T.tensor([1, 2, 3]), [3, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg[:1], [3, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp[0, 0], tg, [3, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp.half(), tg, [3, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp.long(), tg, [3, 3], [2, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp[:, 0], tg[0], [3], [2]),
]


@pytest.mark.parametrize("k", range(len(_BAD_CTC)))
def test_ctc_loss_errors(k):
    lp_np = _log_probs((3, 2, 4))
    _errors(lambda T: _BAD_CTC[k](T, T.tensor(lp_np), T.tensor([[1, 1, 2], [2, 3, 0]])))


def test_ctc_loss_argument_types():
    # torch's message also lists why each overload did not match; the first line agrees
    lp = [T.tensor(_log_probs((3, 2, 4))) for T in LIBS]
    for T, x in zip(LIBS, lp, strict=True):
        tg = T.tensor([[1, 2], [1, 1]])
        for args in ([3, 3], [2, 2], 0, "mean"), (T.tensor([3, 3]), [2, 2]), (3, 2):
            with pytest.raises(TypeError, match=r"ctc_loss\(\) received an invalid combination"):
                T.ctc_loss(x, tg, *args)


def test_ctc_loss_forward_ad_error():
    lp_np = _log_probs((3, 2, 4), dtype=np.float64)

    def fn(T):
        with T.autograd.forward_ad.dual_level():
            d = T.autograd.forward_ad.make_dual(T.tensor(lp_np), T.tensor(lp_np))
            T.nn.functional.ctc_loss(d, T.tensor([[1, 2], [1, 1]]), [3, 3], [2, 2])

    _errors(fn)
