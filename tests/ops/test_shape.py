"""Shape ops: first and second derivatives by finite differences, and shape properties."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck


def _x(*shape: int) -> sg.Tensor:
    return sg.tensor(np.random.default_rng(1).standard_normal(shape)).requires_grad_()


CASES: list[tuple[str, Callable[[Any], Any], tuple[int, ...]]] = [
    ("unflatten", lambda x: x.unflatten(1, (2, 2)), (3, 4)),
    ("movedim", lambda x: sg.movedim(x, (0, 1), (2, 0)), (2, 3, 4)),
    ("repeat", lambda x: x.repeat(2, 1, 3), (2, 3)),
    ("repeat zero", lambda x: x.repeat(0, 2), (2, 3)),
    ("tile", lambda x: sg.tile(x, (2,)), (2, 3)),
    ("flip", lambda x: sg.flip(x, (0, 1)), (2, 3)),
    ("roll", lambda x: sg.roll(x, (1, -2), (0, 1)), (2, 3)),
    ("roll flat", lambda x: sg.roll(x, 4), (2, 3)),
    ("split", lambda x: x.split(2, 1), (2, 5)),
    ("split sizes", lambda x: x.split([1, 0, 4], 1), (2, 5)),
    ("chunk", lambda x: x.chunk(3, 0), (5, 2)),
    ("tensor_split", lambda x: sg.tensor_split(x, [1, 3], 1), (2, 5)),
    ("diagonal", lambda x: sg.diagonal(x, 1, 0, 2), (3, 2, 4)),
    ("diagonal negative", lambda x: x.diagonal(-1), (3, 4)),
    ("diag vector", lambda x: sg.diag(x, 1), (3,)),
    ("diag matrix", lambda x: sg.diag(x, -1), (3, 4)),
    ("diag_embed", lambda x: sg.diag_embed(x, 1, 0, 2), (2, 3)),
    ("tril", lambda x: sg.tril(x, -1), (2, 3, 3)),
    ("triu", lambda x: sg.triu(x, 1), (3, 4)),
    ("as_strided overlapping", lambda x: sg.as_strided(x, (3, 3), (1, 1)), (3, 4)),
    ("as_strided offset", lambda x: sg.as_strided(x, (2,), (3,), 1), (3, 4)),
    ("broadcast_to", lambda x: sg.broadcast_to(x, (2, 3, 4)), (3, 1)),
    ("broadcast_tensors", lambda x: sg.broadcast_tensors(x, sg.ones(2, 1)), (3,)),
    ("atleast_3d", lambda x: sg.atleast_3d(x), (3,)),
    ("ravel transposed", lambda x: sg.ravel(x.t()), (2, 3)),
    ("hstack", lambda x: sg.hstack([x, x * 2]), (2, 3)),
    ("vstack", lambda x: sg.vstack([x, x]), (3,)),
    ("dstack", lambda x: sg.dstack([x, x]), (2, 2)),
    ("column_stack", lambda x: sg.column_stack([x, x]), (3,)),
    ("reshape strided", lambda x: x[:, ::2].reshape(-1), (2, 4)),
    ("cat skips empty", lambda x: sg.cat([x, sg.zeros(0, dtype=sg.float64)]), (3,)),
]


@pytest.mark.parametrize("name,fn,shape", CASES, ids=[c[0] for c in CASES])
def test_shape_op_first_and_second_derivatives(name: str, fn: Any, shape: Any) -> None:
    x = _x(*shape)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_split_outputs_are_views_that_refuse_inplace() -> None:
    y = _x(4) * 1
    a, b = y.split(2)
    assert a._is_view() and a._base is y
    with pytest.raises(RuntimeError, match="Output 1 of Split is a view"):
        b.mul_(2)
    with pytest.raises(RuntimeError, match="Output 0 of SplitWithSizes is a view"):
        y.split([1, 3])[0].add_(1)


def test_diagonal_is_a_writable_view() -> None:
    a = sg.zeros(3, 3)
    a.diagonal().fill_(1.0)
    assert a.tolist() == np.eye(3).tolist()
    assert a._version == 1


def test_repeat_grad_sums_copies() -> None:
    x = _x(2)
    x.repeat(3, 2).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_errors() -> None:
    with pytest.raises(RuntimeError, match="Number of dimensions of repeat dims"):
        sg.ones(2, 3).repeat(2)
    with pytest.raises(RuntimeError, match="split_with_sizes expects split_sizes to sum"):
        sg.ones(3).split([1, 1])
    with pytest.raises(RuntimeError, match="chunk expects `chunks` to be greater than 0"):
        sg.ones(3).chunk(0)
    with pytest.raises(RuntimeError, match="shifts and dimensions must align"):
        sg.ones(3).roll((1, 2), 0)
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2"):
        sg.ones(3).tril()
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 12"):
        sg.as_strided(sg.zeros(3), (4,), (1,))


@given(
    shape=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    reps=st.lists(st.integers(0, 3), min_size=3, max_size=4),
)
def test_repeat_matches_numpy_tile(shape: list[int], reps: list[int]) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    assert np.array_equal(sg.tensor(a).repeat(*reps).numpy(), np.tile(a, reps))


@given(n=st.integers(0, 9), size=st.integers(1, 4))
def test_split_pieces_cover_the_input(n: int, size: int) -> None:
    x = sg.arange(float(n))
    parts = x.split(size)
    assert sum(p.shape[0] for p in parts) == n
    assert all(p.shape[0] <= size for p in parts)
    assert np.array_equal(np.concatenate([p.numpy() for p in parts]), x.numpy())
