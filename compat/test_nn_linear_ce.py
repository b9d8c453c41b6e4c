"""torch.nn.LinearCrossEntropyLoss, torch.nn.LinearCrossEntropyOptions and the chunked
linear_cross_entropy's autograd behaviour against torch: module outputs and parameter grads,
parameters and repr, options validation, the fallback warning, repeated and double backward."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import shadowgrad  # noqa: E402


def _err(fn: Any) -> Any:
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


def _module(T: Any, init: dict[str, np.ndarray], *args: Any, **kw: Any) -> Any:
    m = T.nn.LinearCrossEntropyLoss(*args, **kw)
    with T.no_grad():
        for name, p in m.named_parameters():
            p.copy_(T.tensor(init[name], dtype=p.dtype))
    return m


def _init(in_features: int, rows: int, bias: bool) -> dict[str, np.ndarray]:
    r = np.random.default_rng(rows)
    out = {"linear.weight": r.standard_normal((rows, in_features))}
    if bias:
        out["linear.bias"] = r.standard_normal(rows)
    return out


MODULE_CASES = {
    "indices": ((4, 6), {}, "idx"),
    "bias, sum": ((4, 6), {"bias": True, "reduction": "sum"}, "idx"),
    "weight, ignore_index": ((4, 6), {"weight": "w", "ignore_index": 2}, "idx"),
    "label smoothing, none": ((4, 6), {"label_smoothing": 0.3, "reduction": "none"}, "idx"),
    "probabilities": ((4, 6), {"bias": True}, "probs"),
    "K-dimensional": ((4, 6), {"out_features": (2, 3), "bias": True}, "kidx"),
    "K-dimensional probabilities": ((4, 6), {"out_features": (3,)}, "kprobs"),
    "chunked": ((4, 6), {"bias": True, "options": "o"}, "idx"),
    "chunked none": ((4, 6), {"reduction": "none", "options": "o"}, "idx"),
    "unbatched": ((4, 6), {"bias": True}, "one"),
}


def _target(T: Any, kind: str) -> Any:
    r = np.random.default_rng(11)
    if kind == "idx":
        return T.tensor(np.array([0, 5, 2, 2, 4]))
    if kind == "probs":
        return T.tensor(r.dirichlet(np.ones(6), 5))
    if kind == "kidx":
        return T.tensor(r.integers(0, 6, (5, 2, 3)))
    if kind == "kprobs":
        return T.tensor(r.dirichlet(np.ones(6), (5, 3)).transpose(0, 2, 1).copy())
    return T.tensor(np.array(3))


@pytest.mark.parametrize("case", sorted(MODULE_CASES))
def test_module_matches_torch(case: str) -> None:
    (fin, classes), kw, kind = MODULE_CASES[case]
    rows = classes * int(np.prod(kw.get("out_features", ())))
    init = _init(fin, rows, kw.get("bias", False))

    def run(T: Any) -> Any:
        k = {**kw, "dtype": T.float64}
        if k.get("weight") == "w":
            k["weight"] = T.tensor(np.linspace(0.5, 2, classes))
        if k.get("options") == "o":
            k["options"] = T.nn.LinearCrossEntropyOptions()
        m = _module(T, init, fin, classes, **k)
        x = T.tensor(np.random.default_rng(5).standard_normal((5, fin)))
        if kind == "one":
            x = x[0]
        x.requires_grad_()
        y = m(x, _target(T, kind))
        y.sum().backward()
        grads = {n: p.grad.numpy() for n, p in m.named_parameters()}
        names = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_buffers()]
        return y.detach().numpy(), x.grad.numpy(), grads, names, type(y.grad_fn).__name__, repr(m)

    t, s = run(torch), run(shadowgrad)
    np.testing.assert_allclose(s[0], t[0], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(s[1], t[1], rtol=1e-6, atol=1e-7)
    assert t[2].keys() == s[2].keys()
    for k in t[2]:
        np.testing.assert_allclose(s[2][k], t[2][k], rtol=1e-6, atol=1e-7)
    assert t[3:] == s[3:]


MODULE_ERRORS = {
    "weight shape": lambda T: T.nn.LinearCrossEntropyLoss(3, 4, weight=T.ones(3)),
    "label smoothing": lambda T: T.nn.LinearCrossEntropyLoss(3, 4, label_smoothing=1.5),
    "acc_policy": lambda T: T.nn.LinearCrossEntropyOptions(acc_policy="fast"),
    "chunking_method": lambda T: T.nn.LinearCrossEntropyOptions(chunking_method="rows:2"),
    "chunking factor": lambda T: T.nn.LinearCrossEntropyOptions(chunking_method="aspect_ratio:0"),
    "batch_chunk_size": lambda T: T.nn.LinearCrossEntropyOptions(batch_chunk_size=0),
    "acc_dtype": lambda T: T.nn.LinearCrossEntropyOptions(acc_dtype=T.int32),
    "frozen": lambda T: setattr(T.nn.LinearCrossEntropyOptions(), "allow_retain_graph", True),
}


@pytest.mark.parametrize("case", sorted(MODULE_ERRORS))
def test_errors_match_torch(case: str) -> None:
    t, s = _err(lambda: MODULE_ERRORS[case](torch)), _err(lambda: MODULE_ERRORS[case](shadowgrad))
    assert t is not None and t[0] == s[0]
    if case not in ("frozen", "acc_dtype"):  # Python's wording; torch names bfloat16 too
        assert t == s


def test_options_repr_and_adjust_match_torch() -> None:
    def run(T: Any) -> Any:
        o = T.nn.LinearCrossEntropyOptions(chunking_method="aspect_ratio:2")
        a = o._adjust(num_batches=40, in_features=8, num_classes=50, dtype=T.float32)
        return repr(o), a.batch_chunk_size, a.acc_policy, a.chunking_method, str(a.acc_dtype)

    assert run(torch) == run(shadowgrad)


def _chunked(T: Any, allow: bool, reduction: str = "mean") -> tuple[Any, Any]:
    r = np.random.default_rng(1)
    x = T.tensor(r.standard_normal((4, 3)), requires_grad=True)
    w = T.tensor(r.standard_normal((5, 3)), requires_grad=True)
    opts = T.nn.LinearCrossEntropyOptions(allow_retain_graph=allow)
    y = T.nn.functional.linear_cross_entropy(
        x, w, T.tensor([0, 4, 1, 3]), options=opts, reduction=reduction
    )
    return y if reduction != "none" else y.sum(), (x, w)


@pytest.mark.parametrize("allow", [False, True])
def test_chunked_second_backward_matches_torch(allow: bool) -> None:
    def run(T: Any) -> Any:
        y, (x, _) = _chunked(T, allow)
        y.backward(retain_graph=True)
        first = x.grad.numpy().copy()
        second = _err(lambda: y.backward())
        return first, second, x.grad.numpy()

    t, s = run(torch), run(shadowgrad)
    np.testing.assert_allclose(s[0], t[0], rtol=1e-7)
    assert t[1] == s[1]
    np.testing.assert_allclose(s[2], t[2], rtol=1e-7)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_chunked_double_backward_matches_torch(reduction: str) -> None:
    def run(T: Any) -> Any:
        y, (x, w) = _chunked(T, True, reduction)
        (gx,) = T.autograd.grad(y, x, create_graph=True)
        return gx.requires_grad, _err(lambda: T.autograd.grad(gx.sum(), w, allow_unused=True))

    assert run(torch) == run(shadowgrad)


def test_fallback_warning_matches_torch() -> None:
    def run(T: Any) -> Any:
        x, w = T.ones(2, 3), T.ones(4, 3)
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            T.nn.functional.linear_cross_entropy(
                x,
                w,
                T.tensor([0, 1]),
                label_smoothing=0.1,
                options=T.nn.LinearCrossEntropyOptions(),
            )
        return [(type(r.message).__name__, str(r.message)) for r in rec]

    assert run(torch) == run(shadowgrad)
