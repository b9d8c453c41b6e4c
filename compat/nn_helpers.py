"""Comparison helpers shared by the torch.nn differential tests (test_nn_*.py).

A program is written once, takes the library (torch or shadowgrad) as its argument, and is run
with both; these helpers turn the results into numpy and compare them, or compare the errors
the two raise.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _np(v):
    """A tensor's values as numpy (a view), None kept as None."""
    return None if v is None else v.detach().numpy()


def _np_copy(t):
    """A tensor's values as a numpy copy."""
    return t.detach().numpy().copy()


def _same(a, b, tol):
    assert (a is None) == (b is None)
    if a is None:
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def _both(prog, tol=1e-6):
    """Run ``prog(T)`` with both libraries; its dicts of arrays and plain values must agree."""
    outs = [prog(T) for T in LIBS]
    assert outs[0].keys() == outs[1].keys()
    for k in outs[0]:
        a, b = outs[0][k], outs[1][k]
        if isinstance(a, np.ndarray) or a is None:
            _same(a, b, tol)
        else:
            assert a == b, k


def _errors(fn):
    """``fn(T)`` must raise with both libraries: the same exception type and message."""
    got = []
    for T in LIBS:
        with pytest.raises(Exception) as e:
            fn(T)
        got.append((type(e.value).__name__, str(e.value)))
    assert got[0] == got[1]


def _error(fn):
    """(type name, message) of what ``fn()`` raises with warnings silenced, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
    except Exception as e:  # the type and message are what is compared
        return type(e).__name__, str(e)
    return None


def _cotangent(T, y, shift=0):
    """A fixed cotangent shaped and typed as ``y``: cos(i + shift) at flat position i."""
    return T.tensor(np.cos(np.arange(y.numel()) + shift).reshape(tuple(y.shape))).to(y.dtype)
