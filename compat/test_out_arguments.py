"""`out=` on torch's functions, against torch: the result written into the given tensor (or each
of a tuple's), resized as torch resizes it (with its warning for a non-empty out), cast where
torch casts, returned as that tensor (a `<name>_out` return type for tuples), and torch's
autograd refusal, with the name of the op torch runs, when an argument requires grad.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import shadowgrad

torch = pytest.importorskip("torch")


def _cases(T: Any) -> dict[str, tuple[Callable[[], tuple[Any, ...]], Callable[[], Any]]]:
    """name -> (the function's positional arguments, the out argument), built fresh per call."""
    rng = np.random.default_rng(0)
    xa = rng.standard_normal((3, 4)).astype(np.float32)
    va = rng.standard_normal(4).astype(np.float32)
    m3 = rng.standard_normal((2, 3, 4)).astype(np.float32)
    m4 = rng.standard_normal((2, 4, 5)).astype(np.float32)

    def x() -> Any:
        return T.tensor(xa)

    def v() -> Any:
        return T.tensor(va)

    def e(dt: Any = None) -> Any:
        return T.empty(0, dtype=dt)

    def idx() -> Any:
        return T.tensor([[0, 1, 2], [1, 1, 0], [2, 0, 0]])

    def vi() -> Any:
        return (e(), e(T.long))

    b = T.bool
    return {
        "all": (lambda: (x() > 0,), lambda: e(b)),
        "any": (lambda: (x() > 0, 1), lambda: e(b)),
        "amax": (lambda: (x(), 1), e),
        "amin": (lambda: (x(), 0), e),
        "aminmax": (lambda: (x(),), lambda: (e(), e())),
        "angle": (lambda: (x(),), e),
        "bmm": (lambda: (T.tensor(m3), T.tensor(m4)), e),
        "ceil": (lambda: (x(),), e),
        "cummax": (lambda: (x(), 1), vi),
        "cummin": (lambda: (x(), 0), vi),
        "cumprod": (lambda: (x(), 1), e),
        "cumsum": (lambda: (x(), 0), e),
        "diff": (lambda: (x(),), e),
        "dot": (lambda: (v(), v()), e),
        "eq": (lambda: (x(), 0.5), lambda: e(b)),
        "exp": (lambda: (x(),), e),
        "fix": (lambda: (x(),), e),
        "floor": (lambda: (x(),), e),
        "frac": (lambda: (x(),), e),
        "gather": (lambda: (x(), 1, idx()), e),
        "ge": (lambda: (x(), 0), lambda: e(b)),
        "ger": (lambda: (v(), v()), e),
        "greater": (lambda: (x(), 0), lambda: e(b)),
        "gt": (lambda: (x(), v()), lambda: e(b)),
        "index_select": (lambda: (x(), 1, T.tensor([0, 2])), e),
        "kron": (lambda: (x(), x()), e),
        "kthvalue": (lambda: (x(), 2), vi),
        "le": (lambda: (x(), 0), lambda: e(b)),
        "less_equal": (lambda: (x(), 0), lambda: e(b)),
        "log": (lambda: (x().abs(),), e),
        "logcumsumexp": (lambda: (x(), 1), e),
        "logsumexp": (lambda: (x(), 1), e),
        "lt": (lambda: (x(), 0), lambda: e(b)),
        "masked_select": (lambda: (x(), x() > 0), e),
        "mean": (lambda: (x(), 1), e),
        "median": (lambda: (x(), 1), vi),
        "mode": (lambda: (x(), 1), vi),
        "msort": (lambda: (x(),), e),
        "mv": (lambda: (x(), v()), e),
        "nanmean": (lambda: (x(), 0), e),
        "nanmedian": (lambda: (x(), 1), vi),
        "narrow_copy": (lambda: (x(), 1, 1, 2), e),
        "ne": (lambda: (x(), 0), lambda: e(b)),
        "neg": (lambda: (x(),), e),
        "negative": (lambda: (x(),), e),
        "not_equal": (lambda: (x(), 0), lambda: e(b)),
        "outer": (lambda: (v(), v()), e),
        "reciprocal": (lambda: (x(),), e),
        "sgn": (lambda: (x(),), e),
        "sigmoid": (lambda: (x(),), e),
        "sign": (lambda: (x(),), e),
        "sort": (lambda: (x(), 1), vi),
        "std": (lambda: (x(), 1), e),
        "take_along_dim": (lambda: (x(), idx(), 1), e),
        "tanh": (lambda: (x(),), e),
        "topk": (lambda: (x(), 2), vi),
        "trunc": (lambda: (x(),), e),
        "var": (lambda: (x(), 0), e),
        "where": (lambda: (x() > 0, x(), -x()), e),
    }


_NAMES = sorted(_cases(torch))


def _observe(T: Any, name: str, grad: bool = False, out_of: Any = None) -> Any:
    """Call T.<name>(*args, out=...): what it returns, wrote, raised and warned, as plain data."""
    args_f, out_f = _cases(T)[name]
    args = args_f()
    if grad:
        args = tuple(
            a.detach().requires_grad_() if isinstance(a, T.Tensor) and a.is_floating_point() else a
            for a in args
        )
    out = out_of(T) if out_of is not None else out_f()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = getattr(T, name)(*args, out=out)
        except Exception as exc:
            return ("raised", type(exc).__name__, str(exc))
    outs = out if isinstance(out, tuple) else (out,)
    rs = r if isinstance(r, tuple) else (r,)
    return {
        "same objects": [a is b for a, b in zip(outs, rs, strict=True)],
        "type": type(r).__name__,
        "values": [(str(t.dtype), tuple(t.shape), t.detach().numpy().copy()) for t in outs],
        "warnings": [str(x.message)[:60] for x in w],
    }


def _compare(a: Any, b: Any) -> None:
    if isinstance(a, tuple):
        assert a == b
        return
    assert {k: a[k] for k in ("same objects", "type", "warnings")} == {
        k: b[k] for k in ("same objects", "type", "warnings")
    }
    for (da, sa, va), (db, sb, vb) in zip(a["values"], b["values"], strict=True):
        assert (da.split(".")[-1], sa) == (db.split(".")[-1], sb)
        np.testing.assert_allclose(vb, va, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", _NAMES)
def test_out_matches_torch(name: str) -> None:
    _compare(_observe(torch, name), _observe(shadowgrad, name))


@pytest.mark.parametrize("name", _NAMES)
def test_out_with_an_input_requiring_grad(name: str) -> None:
    """torch refuses (naming the op it runs), except for results that cannot require grad."""
    _compare(_observe(torch, name, grad=True), _observe(shadowgrad, name, grad=True))


@pytest.mark.parametrize("name", ["exp", "cumsum", "sort", "eq", "mean"])
def test_out_resized_with_warning(name: str) -> None:
    def out_of(T: Any) -> Any:
        o = _cases(T)[name][1]()
        return (
            tuple(T.ones(5, dtype=t.dtype) for t in o)
            if isinstance(o, tuple)
            else (T.ones(5, dtype=o.dtype))
        )

    _compare(_observe(torch, name, out_of=out_of), _observe(shadowgrad, name, out_of=out_of))


@pytest.mark.parametrize(
    ("name", "dtype"), [("exp", "int64"), ("mean", "int64"), ("eq", "float32"), ("sort", None)]
)
def test_out_dtype_rules(name: str, dtype: str | None) -> None:
    """A result that cannot be cast to out's dtype raises; a bool result casts into float."""

    def out_of(T: Any) -> Any:
        if dtype is None:  # sort's indices into a float tensor
            return (T.empty(0), T.empty(0))
        return T.empty(0, dtype=getattr(T, dtype))

    _compare(_observe(torch, name, out_of=out_of), _observe(shadowgrad, name, out_of=out_of))


def test_where_out_requires_tensor_operands() -> None:
    def run(T: Any) -> Any:
        x = T.ones(3)
        try:
            T.where(x > 0, x, 0.0, out=T.empty(0))
        except TypeError as exc:
            return str(exc)
        return None

    assert run(torch) == run(shadowgrad)
