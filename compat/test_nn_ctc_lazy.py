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

from .nn_helpers import LIBS, _both, _cotangent, _errors, _np, _same

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
        (g,) = T.autograd.grad(y, lp, _cotangent(T, y, 1))
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
        (g,) = T.autograd.grad(y, lp, _cotangent(T, y, 1))
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


# --- lazy modules --------------------------------------------------------------------------

_LAZY = [
    ("LazyLinear", (3,), {}, (2, 5)),
    ("LazyLinear", (3,), {"bias": False}, (4, 2, 5)),
    ("LazyConv1d", (4, 3), {"padding": 1}, (2, 3, 6)),
    ("LazyConv1d", (4, 3), {"groups": 2}, (6, 7)),
    ("LazyConv2d", (4, 3), {"stride": 2, "bias": False}, (2, 3, 6, 6)),
    ("LazyConv3d", (2, 2), {}, (1, 3, 4, 4, 4)),
    ("LazyConvTranspose1d", (4, 3), {"groups": 2}, (2, 6, 5)),
    ("LazyConvTranspose2d", (2, 3), {"output_padding": 1, "stride": 2}, (2, 3, 4, 4)),
    ("LazyConvTranspose3d", (2, 2), {}, (1, 3, 3, 3, 3)),
    ("LazyBatchNorm1d", (), {}, (4, 3)),
    ("LazyBatchNorm1d", (), {"affine": False}, (4, 3, 5)),
    ("LazyBatchNorm2d", (), {"momentum": None}, (2, 3, 4, 4)),
    ("LazyBatchNorm3d", (), {"track_running_stats": False}, (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", (), {}, (2, 3, 5)),
    ("LazyInstanceNorm2d", (), {"affine": False, "track_running_stats": False}, (2, 3, 4, 4)),
    ("LazyInstanceNorm3d", (), {}, (1, 3, 2, 2, 2)),
]


def _show(v):
    return repr(v) if type(v).__name__.startswith("Uninitialized") else tuple(v.shape)


@pytest.mark.parametrize("k", range(len(_LAZY)))
def test_lazy_module(k):
    name, args, kw, shape = _LAZY[k]
    x_np = _rng.standard_normal(shape).astype(np.float32)
    mods = []

    def prog(T):
        m = getattr(T.nn, name)(*args, **kw)
        out = {"repr0": repr(m), "lazy": m.has_uninitialized_params()}
        out["sd0"] = str({key: _show(v) for key, v in m.state_dict().items()})
        with T.no_grad():
            m(T.tensor(x_np))  # materializes with the default init
        out.update(type=type(m).__name__, repr=repr(m))
        out["sd"] = str({key: _show(v) for key, v in m.state_dict().items()})
        out["hooks"] = len(m._forward_pre_hooks)
        mods.append(m)
        return out

    _both(prog)
    ref, sg = mods
    # the default init draws from the same distributions: every value within torch's bounds
    for (key, a), b in zip(ref.state_dict().items(), sg.state_dict().values(), strict=True):
        bound = float(a.abs().max()) if "weight" in key or "bias" in key else None
        if bound is not None and a.numel() > 1 and key.endswith(("weight", "bias")):
            fan_in = np.prod(a.shape[1:]) if a.ndim > 1 else None
            if fan_in:
                assert float(b.abs().max()) <= 1 / np.sqrt(fan_in) + 1e-6
    sg.load_state_dict({key: shadowgrad.tensor(v.numpy()) for key, v in ref.state_dict().items()})

    def run(T, m):
        x = T.tensor(x_np, requires_grad=True)
        y = m(x)
        y.backward(_cotangent(T, y, 1))
        grads = {n: _np(p.grad) for n, p in m.named_parameters()}
        return {"y": _np(y), "gx": _np(x.grad), **grads, "fn": y.grad_fn.name()}

    a, b = run(torch, ref), run(shadowgrad, sg)
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], str):
            assert a[key] == b[key]
        else:
            _same(a[key], b[key], 1e-4)


def test_lazy_load_state_dict_and_errors():
    w = _rng.standard_normal((3, 2)).astype(np.float32)

    def prog(T):
        m = T.nn.LazyLinear(3)
        m.load_state_dict({"weight": T.tensor(w), "bias": T.zeros(3)})
        out = {"repr": repr(m), "type": type(m).__name__, "w": _np(m.weight)}
        y = m(T.ones(4, 2))
        out.update(type1=type(m).__name__, repr1=repr(m), y=_np(y))
        return out

    _both(prog)
    _errors(lambda T: T.nn.LazyConv2d(4, 3)(T.ones(3, 4)))
    _errors(lambda T: T.nn.LazyConv2d(4, 3, groups=2)(T.ones(1, 3, 4, 4)))
    _errors(lambda T: T.nn.LazyBatchNorm2d()(T.ones(3, 4)))


_UNINIT_USES = [
    lambda p: p + 1,
    lambda p: 2 * p,
    lambda p: -p,
    lambda p: p.shape,
    lambda p: p.numel(),
    lambda p: p.sum(),
    lambda p: p.t(),
    lambda p: p.detach(),
    lambda p: p.requires_grad_(False),
]


@pytest.mark.parametrize("cls", ["UninitializedParameter", "UninitializedBuffer"])
def test_uninitialized_tensors(cls):
    def prog(T):
        p = getattr(T.nn.parameter, cls)()
        out = {"repr": repr(p), "str": str(p), "rg": p.requires_grad, "dtype": str(p.dtype)}
        out.update(lazy=T.nn.parameter.is_lazy(p), size=tuple(p.size()))
        for i, use in enumerate(_UNINIT_USES):
            with pytest.raises(Exception) as e:
                use(p)
            out[f"err{i}"] = f"{type(e.value).__name__}: {e.value}"
        p.materialize((2, 3))
        out.update(type=type(p).__name__, shape=tuple(p.shape), rg1=p.requires_grad)
        q = getattr(T.nn.parameter, cls)(dtype=T.float64)
        q.materialize(4)
        out.update(qdtype=str(q.dtype), qshape=tuple(q.shape), lazy1=T.nn.parameter.is_lazy(q))
        return out

    _both(prog)
