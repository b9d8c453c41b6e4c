"""Indexing ops: finite-difference gradients (first and second order) and index semantics."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck


def _x(*shape: int) -> sg.Tensor:
    return sg.tensor(np.random.default_rng(2).standard_normal(shape)).requires_grad_()


I = sg.tensor  # noqa: E741 - short name for index tensors in the table below

CASES: list[tuple[str, Any, tuple[tuple[int, ...], ...]]] = [
    ("getitem basic", lambda x: x[1:, None, 0], ((3, 4),)),
    ("getitem list dup", lambda x: x[[0, 0, 2]], ((3, 4),)),
    ("getitem separated", lambda x: x[[0, 1], :, [1, 0]], ((2, 3, 2),)),
    ("getitem mask", lambda x: x[x.detach() > 0], ((3, 4),)),
    ("setitem basic", lambda x, v: _set(x, (slice(1, None), 1), v), ((3, 4), (2,))),
    ("setitem advanced", lambda x, v: _set(x, ([2, 0],), v), ((3, 4), (4,))),
    ("gather", lambda x: sg.gather(x, 1, I([[0, 0], [3, 1], [2, 2]])), ((3, 4),)),
    ("scatter src", lambda x, s: sg.scatter(x, 0, I([[0, 1], [2, 2]]), s), ((3, 4), (2, 2))),
    ("scatter value", lambda x: sg.scatter(x, 1, I([[0], [3]]), 2.0), ((3, 4),)),
    ("scatter_add", lambda x, s: sg.scatter_add(x, 0, I([[0, 0], [2, 0]]), s), ((3, 4), (2, 2))),
    ("index_select", lambda x: sg.index_select(x, 1, I([3, 0, 3])), ((3, 4),)),
    ("index_add", lambda x, s: sg.index_add(x, 0, I([2, 2]), s, alpha=3), ((3, 4), (2, 4))),
    ("index_copy", lambda x, s: sg.index_copy(x, 1, I([3, 0]), s), ((3, 4), (3, 2))),
    ("index_fill", lambda x, v: sg.index_fill(x, 1, I([1]), v.sum()), ((3, 4), (2,))),
    ("index_put", lambda x, v: sg.index_put(x, (I([0, 2]), I([1, 1])), v), ((3, 4), (2,))),
    (
        "index_put acc",
        lambda x, v: sg.index_put(x, (I([0, 0]),), v, accumulate=True),
        ((3, 4), (4,)),
    ),
    ("masked_select", lambda x: sg.masked_select(x, I([True, False, True, True])), ((3, 4),)),
    (
        "masked_scatter",
        lambda x, s: sg.masked_scatter(x, I([[True, False], [False, True]]), s),
        ((2, 2), (3,)),
    ),
    ("take", lambda x: sg.take(x, I([[0, 11], [5, 5]])), ((3, 4),)),
    ("take_along_dim", lambda x: sg.take_along_dim(x, I([[1], [0], [3]]), 1), ((3, 4),)),
]


def _set(x: sg.Tensor, index: Any, v: sg.Tensor) -> sg.Tensor:
    y = x * 1
    y[index] = v
    return y


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_indexing_op_first_and_second_derivatives(name: str, fn: Any, shapes: Any) -> None:
    inputs = tuple(_x(*s) for s in shapes)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_duplicate_indices_accumulate_in_getitem_and_not_in_setitem() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x[[0, 0, 1]].sum().backward()
    assert x.grad.tolist() == [2.0, 1.0, 0.0]
    x.grad = None
    a = sg.zeros(3)
    a[[0, 0]] = x[:2]
    a.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 0.0]


def test_setitem_node_names() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y[0] = 5.0
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    y = x * 2
    y[y > 3] = 0.0
    assert type(y.grad_fn).__name__ == "IndexPutBackward0"
    assert y._version == 1


def test_getitem_basic_indices_are_views() -> None:
    y = sg.arange(12.0).reshape(3, 4)
    assert y[1]._is_view() and y[:, 1:]._is_view() and y[None]._is_view()
    assert not y[[0, 1]]._is_view()
    y[1][2] = 100.0
    assert y[1, 2].item() == 100.0


def test_index_errors() -> None:
    y = sg.zeros(2, 3)
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 2"):
        y[5]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        y[0, 0, 0]
    with pytest.raises(IndexError, match="The shape of the mask"):
        y[sg.tensor([True, False, True])]
    with pytest.raises(RuntimeError, match="Index put requires the source and destination"):
        y.index_put_((sg.tensor([0]),), sg.ones(1, dtype=sg.float64))
    with pytest.raises(RuntimeError, match="out of bounds for dimension 0 with size 2"):
        sg.gather(y, 0, sg.tensor([[2]]))
    with pytest.raises(IndexError, match="out of range: tried to access index 6"):
        sg.take(y, sg.tensor([6]))


@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    data=st.data(),
)
def test_getitem_matches_numpy(shape: list[int], data: Any) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    idx = []
    for n in shape:
        kind = data.draw(st.sampled_from(["int", "slice", "list", "none"]))
        if kind == "int":
            idx.append(data.draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            idx.append(slice(data.draw(st.integers(-n, n)), None, data.draw(st.integers(1, 2))))
        elif kind == "list":
            idx.append(data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))
        else:  # None inserts a dim and consumes none: this dim gets a full slice
            idx.extend([None, slice(None)])
    lists = [i for i in idx if isinstance(i, list)]
    try:
        np.broadcast_shapes(*(np.shape(i) for i in lists))
    except ValueError:
        assume(False)  # index lists that do not broadcast raise in both libraries
    # torch applies ints, slices and None first (select/slice/unsqueeze), then the advanced
    # indices on the remaining dims; numpy would treat an int as an advanced index too.
    basic = tuple(slice(None) if isinstance(i, list) else i for i in idx)
    stage1 = a[basic]
    advanced: list[Any] = []
    for i in idx:
        if isinstance(i, list):
            advanced.append(np.array(i))
        elif i is None or isinstance(i, slice):
            advanced.append(slice(None))
    expected = stage1[tuple(advanced)] if lists else stage1
    sg_idx = tuple(sg.tensor(i) if isinstance(i, list) else i for i in idx)
    assert np.array_equal(sg.tensor(a)[sg_idx].numpy(), expected)


@given(n=st.integers(1, 6), data=st.data())
def test_gather_scatter_add_are_adjoint(n: int, data: Any) -> None:
    # <gather(x, idx), g> == <x, scatter_add(0, idx, g)>
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5)))
    x = np.random.default_rng(n).standard_normal(n)
    g = np.random.default_rng(n + 1).standard_normal(idx.size)
    lhs = float((sg.gather(sg.tensor(x), 0, sg.tensor(idx)).numpy() * g).sum())
    sc = sg.scatter_add(sg.zeros(n, dtype=sg.float64), 0, sg.tensor(idx), sg.tensor(g))
    assert np.isclose(lhs, float((x * sc.numpy()).sum()))
