"""Differential tests of nn fixes: recorded nodes of composites and in-place activations,
instance_norm's and the transposed convolutions' checks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad

from .graphs import _walk

LIBS = [torch, shadowgrad]
_R = np.random.default_rng(11)
A, B = _R.standard_normal((3, 4)), _R.standard_normal((3, 4))


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e), str(e)
    return None


def _both(prog):
    return prog(torch), prog(shadowgrad)


def test_pairwise_distance_records_add_scalar():
    def prog(T):
        x = T.tensor(A, requires_grad=True)
        d = T.nn.functional.pairwise_distance(x, T.tensor(B), eps=1e-3)
        d.sum().backward()
        return d.grad_fn, d.detach().numpy(), x.grad.numpy()

    t, s = _both(prog)
    rows = _walk(t[0], s[0])
    assert not [r for r in rows if r[3]], rows
    for a, b in zip(s[1:], t[1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
@pytest.mark.parametrize("other", [0.0, "tensor"])
def test_inplace_comparison_node_names(name, other):
    def prog(T):
        x = T.tensor(A, requires_grad=True) * 1
        o = T.tensor(B) if other == "tensor" else other
        getattr(x, name)(o)
        return x.grad_fn.name()

    t, s = _both(prog)
    assert s == t
