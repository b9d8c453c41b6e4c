"""Realistic programs: the mistakes users make and ask about (PyTorch forums, Stack Overflow
style). Calling backward twice, in-place writes to leaves and to tensors saved for backward,
`.numpy()` / `.item()` misuse, dtype and shape mismatches in losses, matmul, Linear, cat and
view, reductions given keepdim but no dim, forgotten zero_grad, optimizers over non-leaves,
`.grad` of non-leaves, torch.tensor(tensor), out= warnings, save/load of views, inference
tensors. Each program returns the values and gradients it gets along with the error (type and
message) or warning torch gives. The programs register into test_realistic_programs_3's set and
run through its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it
returns, raises or warns is compared.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- reductions given keepdim but no dim -----------------------------------------------------


@program()
def prog_mis_sum_keepdim_without_dim(T: Any) -> Any:
    x = _x(T, 2, 3)
    out = {}
    for name in ("sum", "mean", "prod", "max", "min", "median", "nanmedian"):
        out[name] = (
            raises(lambda n=name: getattr(T, n)(x, keepdim=True)),
            raises(lambda n=name: getattr(x, n)(keepdim=True)),
            raises(lambda n=name: getattr(x, n)(keepdim=False)),
        )
    # what the user meant: every dim reduced, kept as size 1
    y = x.sum(dim=(0, 1), keepdim=True) + x.mean(dim=None, keepdim=True)
    y.sum().backward()
    return out, y, y.grad_fn, x.grad


@program()
def prog_mis_reduction_keepdim_and_dtype_without_dim(T: Any) -> Any:
    x = _x(T, 2, 3, seed=1, rg=False)
    return (
        raises(lambda: T.sum(x, keepdim=True, dtype=T.float64)),
        raises(lambda: x.sum(keepdim=True, dtype=T.float64)),
        raises(lambda: x.mean(keepdim=True, dtype=T.float64)),
        raises(lambda: T.prod(x, keepdim=False, dtype=T.float64)),
        raises(lambda: T.sum(x, keepdim=True, out=T.empty(()))),
        raises(lambda: T.max(x, keepdim=True, out=T.empty(()))),
        raises(lambda: T.sum(x.long(), keepdim=True)),
        raises(lambda: T.mean(x.long(), keepdim=True)),
        # reductions whose full form takes keepdim, and those needing a dim
        T.amax(x, keepdim=True),
        x.std(keepdim=True),
        T.any(x > 0, keepdim=True),
        T.nansum(x, keepdim=True),
        raises(lambda: x.logsumexp()),
        raises(lambda: T.logsumexp(x, keepdim=True)),
        x.logsumexp(1, keepdim=True),
    )


# --- warnings point at the user's line ------------------------------------------------------


def _where_warned(fn: Any) -> list[Any]:
    """fn's warnings: category, message head, and the line each names (this file's line of the
    call, relative to fn's own first line; None elsewhere)."""
    first = fn.__code__.co_firstlineno
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [
        (
            r.category.__name__,
            str(r.message)[:40],
            r.lineno - first if r.filename == __file__ else None,
        )
        for r in w
    ]


@program()
def prog_mis_out_resize_warning_names_callers_line(T: Any) -> Any:
    x = _x(T, 3, rg=False)
    return (
        _where_warned(lambda: T.exp(x, out=T.empty(2))),
        _where_warned(lambda: T.add(x, x, out=T.empty(2))),
        _where_warned(lambda: T.sum(x, 0, out=T.empty(2))),
        _where_warned(lambda: T.cumsum(x, 0, out=T.empty(2))),
        _where_warned(lambda: T.sort(x, out=(T.empty(2), T.empty(2, dtype=T.long)))),
        _where_warned(lambda: T.logsumexp(x, 0, out=T.empty(2))),
        _where_warned(lambda: T.ger(x, x, out=T.empty(3, 3))),
    )


@program()
def prog_mis_std_of_one_element_warns_at_call(T: Any) -> Any:
    one = _x(T, 1, seed=2)
    s = None

    def f() -> None:
        nonlocal s
        s = T.std(one, 0)

    got = (
        _where_warned(f),
        _where_warned(lambda: one.var()),
        _where_warned(lambda: T.var(one.detach(), out=T.empty(()))),
        raises(lambda: T.var(one, out=T.empty(()))),  # out= with a tensor requiring grad
        _where_warned(lambda: T.std_mean(one)),
    )
    return got, s


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
