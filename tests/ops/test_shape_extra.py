"""Extra shape, scan and counting ops: derivatives by finite differences, results checked
against independent numpy computations, and torch's error messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck


def _x(*shape: int) -> sg.Tensor:
    return sg.tensor(np.random.default_rng(3).standard_normal(shape)).requires_grad_()


CASES: list[tuple[str, Callable[[Any], Any], tuple[int, ...]]] = [
    ("repeat_interleave int", lambda x: x.repeat_interleave(2, dim=1), (2, 3)),
    ("repeat_interleave flat", lambda x: sg.repeat_interleave(x.t(), 3), (2, 3)),
    ("repeat_interleave tensor", lambda x: x.repeat_interleave(sg.tensor([0, 2, 1]), 1), (2, 3)),
    ("unfold", lambda x: x.unfold(1, 3, 1), (2, 5)),
    ("unfold step", lambda x: x.unfold(0, 2, 3), (7, 2)),
    ("split_with_sizes", lambda x: sg.split_with_sizes(x, [1, 0, 3], 1), (2, 4)),
    ("hsplit", lambda x: sg.hsplit(x, [1, 3]), (2, 4)),
    ("cummax", lambda x: sg.cummax(x, 1).values, (3, 4)),
    ("cummin", lambda x: x.cummin(0)[0], (3, 4)),
    ("logcumsumexp", lambda x: sg.logcumsumexp(x, 1), (3, 4)),
    ("logcumsumexp large", lambda x: sg.logcumsumexp(x * 40, 0), (3, 4)),
    ("aminmax", lambda x: sg.aminmax(x, dim=1), (3, 4)),
    ("aminmax all", lambda x: sg.aminmax(x), (3, 4)),
    ("select_scatter", lambda x: sg.select_scatter(x, x[1] * 2, 0, 0), (3, 4)),
    ("slice_scatter", lambda x: x.slice_scatter(x[:, :2] ** 2, 1, 1, None, 2), (3, 4)),
    ("diagonal_scatter", lambda x: sg.diagonal_scatter(x, x[0, :3].exp(), 1), (3, 4)),
    ("narrow_copy", lambda x: sg.narrow_copy(x, 1, -3, 2), (3, 4)),
    ("diagflat", lambda x: sg.diagflat(x.t(), -1), (2, 3)),
    ("block_diag", lambda x: sg.block_diag(x, x[0], x[0, 0]), (2, 3)),
    ("cartesian_prod", lambda x: sg.cartesian_prod(x[0], x[1, :2]), (2, 3)),
    ("combinations", lambda x: sg.combinations(x, 3, with_replacement=True), (4,)),
    ("trapezoid", lambda x: sg.trapezoid(x, dx=0.5), (3, 4)),
    ("trapezoid x", lambda x: sg.trapezoid(x, x[0] ** 2), (3, 4)),
    ("cumulative_trapezoid", lambda x: sg.cumulative_trapezoid(x, dim=0), (3, 4)),
    ("renorm rows", lambda x: x.renorm(2, 0, 1.0), (3, 4)),
    ("renorm p3 cols", lambda x: sg.renorm(x * 2, 3, -1, 0.8), (3, 4)),
    ("renorm p1 under limit", lambda x: x.renorm(1, 1, 100.0), (3, 4)),
]


@pytest.mark.parametrize("name,fn,shape", CASES, ids=[c[0] for c in CASES])
def test_first_and_second_derivatives(name: str, fn: Any, shape: Any) -> None:
    x = _x(*shape)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_repeat_interleave_matches_numpy_repeat() -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = sg.tensor(a)
    np.testing.assert_array_equal(x.repeat_interleave(2).numpy(), np.repeat(a, 2))
    np.testing.assert_array_equal(
        x.repeat_interleave(sg.tensor([1, 0, 2]), dim=0).numpy(), np.repeat(a, [1, 0, 2], 0)
    )
    np.testing.assert_array_equal(
        sg.repeat_interleave(sg.tensor([2, 0, 1])).numpy(), np.repeat([0, 1, 2], [2, 0, 1])
    )


def test_unique_matches_numpy_unique() -> None:
    a = np.array([[3, 1, 2], [3, 1, 2], [0, 7, 1]])
    out, inv, counts = sg.unique(sg.tensor(a), return_inverse=True, return_counts=True)
    e_out, e_inv, e_counts = np.unique(a, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(out.numpy(), e_out)
    np.testing.assert_array_equal(inv.numpy(), e_inv.reshape(a.shape))
    np.testing.assert_array_equal(counts.numpy(), e_counts)
    rows, rinv = sg.unique(sg.tensor(a), dim=0, return_inverse=True)
    np.testing.assert_array_equal(rows.numpy(), np.unique(a, axis=0))
    np.testing.assert_array_equal(rows.numpy()[rinv.numpy()], a)


def test_unique_has_no_derivative() -> None:
    y = sg.unique(_x(4))
    assert y.grad_fn.name() == "Unique2Backward0"
    with pytest.raises(NotImplementedError, match="the derivative for '_unique2' is not"):
        y.sum().backward()


def test_unique_consecutive_runs() -> None:
    out, inv, counts = sg.unique_consecutive(
        sg.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=True, return_counts=True
    )
    assert out.tolist() == [1, 2, 3, 1, 2]
    assert inv.tolist() == [0, 0, 1, 1, 2, 3, 3, 4]
    assert counts.tolist() == [2, 2, 1, 2, 1]


def test_unfold_is_a_view_sharing_the_version_counter() -> None:
    x = _x(6) * 1
    u = x.unfold(0, 2, 2)
    assert u._base is x
    u.mul_(2)
    assert x._version == 1
    assert u.grad_fn.name() == "AsStridedBackward0"
    np.testing.assert_array_equal(u.detach().numpy().ravel(), x.detach().numpy())


def test_cummax_ties_and_nan_take_the_later_index() -> None:
    v, i = sg.cummax(sg.tensor([3.0, 1.0, 3.0, float("nan"), 5.0, float("nan")]), 0)
    assert i.tolist() == [0, 0, 2, 3, 3, 5]
    v, i = sg.cummin(sg.tensor([2, 1, 1, 3]), 0)
    assert v.tolist() == [2, 1, 1, 1] and i.tolist() == [0, 1, 2, 2]


def test_logcumsumexp_matches_numpy() -> None:
    a = np.random.default_rng(0).standard_normal((3, 4))
    expected = np.log(np.cumsum(np.exp(a), axis=1))
    np.testing.assert_allclose(sg.logcumsumexp(sg.tensor(a), 1).numpy(), expected, rtol=1e-12)


def test_aminmax_ties_share_the_gradient() -> None:
    x = sg.tensor([1.0, 1.0, 3.0, 3.0], requires_grad=True)
    mn, mx = sg.aminmax(x)
    (mn + 10 * mx).backward()
    assert x.grad.tolist() == [0.5, 0.5, 5.0, 5.0]
    assert mn.grad_fn is mx.grad_fn and mn.grad_fn.name() == "AminmaxBackward0"


def test_index_builders_match_numpy() -> None:
    got = sg.tril_indices(4, 3, -1).numpy()
    np.testing.assert_array_equal(got, np.stack(np.tril_indices(4, -1, 3)))
    got = sg.triu_indices(3, 5, 2, dtype=sg.int32)
    assert got.dtype is sg.int32
    np.testing.assert_array_equal(got.numpy(), np.stack(np.triu_indices(3, 2, 5)))
    v = sg.tensor([1.0, 2.0, 3.0])
    pairs = [tuple(r) for r in sg.combinations(v).tolist()]
    assert pairs == [(1.0, 2.0), (1.0, 3.0), (2.0, 3.0)]
    assert sg.cartesian_prod(v, v[:2]).tolist() == [[a, b] for a in [1, 2, 3] for b in [1, 2]]


def test_trapezoid_matches_numpy() -> None:
    y = np.random.default_rng(2).standard_normal((3, 5))
    x = np.array([0.0, 0.5, 2.0, 2.5, 4.0])
    np.testing.assert_allclose(sg.trapezoid(sg.tensor(y), sg.tensor(x)).numpy(), np.trapezoid(y, x))
    np.testing.assert_allclose(
        sg.trapz(sg.tensor(y), dx=0.3, dim=0).numpy(), np.trapezoid(y, dx=0.3, axis=0)
    )
    steps = (y[:, 1:] + y[:, :-1]) * np.diff(x) / 2
    np.testing.assert_allclose(
        sg.cumulative_trapezoid(sg.tensor(y), sg.tensor(x)).numpy(), np.cumsum(steps, axis=1)
    )


def test_searchsorted_matches_numpy_without_nan() -> None:
    seq = np.array([1.0, 2.0, 2.0, 3.0, 7.0])
    vals = np.array([[0.0, 2.0, 2.5], [3.0, 9.0, 7.0]])
    for side in ("left", "right"):
        got = sg.searchsorted(sg.tensor(seq), sg.tensor(vals), side=side).numpy()
        np.testing.assert_array_equal(got, np.searchsorted(seq, vals, side=side))
    got = sg.bucketize(sg.tensor(vals), sg.tensor(seq), right=True).numpy()
    np.testing.assert_array_equal(got, np.searchsorted(seq, vals, side="right"))


def test_scatter_copies_leave_the_input_alone() -> None:
    x = sg.zeros(2, 3)
    y = sg.select_scatter(x, sg.ones(3), 0, 1)
    assert x.tolist() == [[0.0] * 3] * 2 and y.tolist() == [[0.0] * 3, [1.0] * 3]


@pytest.mark.parametrize(
    "fn,exc,msg",
    [
        (lambda: _x(3).repeat_interleave(-1), RuntimeError, "Repeats must be non-negative"),
        (
            lambda: _x(3, 2).repeat_interleave(sg.tensor([1, 2]), dim=0),
            RuntimeError,
            "repeats must have the same size as input along dim, but got repeats.size(0) = 2 "
            "and input.size(0) = 3",
        ),
        (
            lambda: sg.repeat_interleave(sg.tensor([[1]])),
            RuntimeError,
            "repeat_interleave only accept 1D vector as repeat",
        ),
        (
            lambda: _x(3, 4).unfold(1, 5, 1),
            RuntimeError,
            "maximum size for tensor at dimension 1 is 4 but size is 5",
        ),
        (lambda: _x(3, 4).unfold(1, 2, 0), RuntimeError, "step is 0 but must be > 0"),
        (
            lambda: sg.hsplit(_x(3, 4), 3),
            RuntimeError,
            "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 "
            "is not divisible by the split_size 3!",
        ),
        (
            lambda: sg.vsplit(_x(3), 1),
            RuntimeError,
            "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 "
            "dimensions!",
        ),
        (
            lambda: sg.unique(sg.zeros(0, 3), dim=1),
            RuntimeError,
            "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied",
        ),
        (
            lambda: sg.select_scatter(sg.zeros(3, 4), sg.zeros(3), 0, 1),
            RuntimeError,
            "expected src to have a size equal to the slice of self. src size = [3], slice size "
            "= [4]",
        ),
        (
            lambda: sg.narrow_copy(sg.zeros(3, 4), 1, 3, 2),
            RuntimeError,
            "start (3) + length (2) exceeds dimension size (4).",
        ),
        (
            lambda: sg.block_diag(sg.zeros(1, 1, 1)),
            RuntimeError,
            "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 has 3 "
            "dimensions",
        ),
        (lambda: sg.tril_indices(-1, 3), RuntimeError, "row must be non-negative, got-1"),
        (
            lambda: sg.combinations(sg.zeros(3), -1),
            RuntimeError,
            "Expect a non-negative number, but got -1",
        ),
        (
            lambda: sg.aminmax(sg.zeros(0)),
            RuntimeError,
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
            "identity.",
        ),
        (
            lambda: sg.logcumsumexp(sg.tensor([1, 2]), 0),
            NotImplementedError,
            "\"logcumsumexp_out_cpu\" not implemented for 'Long'",
        ),
    ],
)
def test_errors_match_torch(fn: Any, exc: type, msg: str) -> None:
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == msg


CDIST_CASES = [
    ("cdist p=2", lambda a, b: sg.cdist(a, b)),
    ("cdist p=1", lambda a, b: sg.cdist(a, b, p=1.0)),
    ("cdist p=3", lambda a, b: sg.cdist(a, b, p=3.0)),
    ("cdist p=0.5", lambda a, b: sg.cdist(a, b, p=0.5)),
    ("cdist mm", lambda a, b: sg.cdist(a, b, compute_mode="use_mm_for_euclid_dist")),
]


@pytest.mark.parametrize("name,fn", CDIST_CASES, ids=[c[0] for c in CDIST_CASES])
def test_cdist_first_derivatives(name: str, fn: Any) -> None:
    a, b = _x(2, 3, 4), sg.tensor(np.random.default_rng(5).standard_normal((2, 5, 4)))
    assert gradcheck(fn, (a, b.requires_grad_()))


def test_cdist_matches_numpy_distances() -> None:
    a = np.random.default_rng(1).standard_normal((4, 3))
    b = np.random.default_rng(2).standard_normal((30, 3))
    want = np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1))
    for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
        got = sg.cdist(sg.tensor(a), sg.tensor(b), compute_mode=mode).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-10)


def test_cdist_mm_path_double_backward() -> None:
    a = _x(3, 4)
    b = sg.tensor(np.random.default_rng(8).standard_normal((30, 4)), requires_grad=True)
    assert gradgradcheck(lambda x, y: sg.cdist(x, y), (a, b))


def test_meshgrid_views_and_warning() -> None:
    a, b = _x(3), _x(4)
    with pytest.warns(UserWarning, match="pass the indexing argument"):
        sg.meshgrid(sg.tensor([1.0]), sg.tensor([2.0]))
    ga, gb = sg.meshgrid(a, b, indexing="xy")
    np.testing.assert_array_equal(
        ga.detach().numpy(), np.meshgrid(a.detach().numpy(), b.detach().numpy())[0]
    )
    assert ga.stride() == (0, 1) and gb.stride() == (1, 0)
    assert gradcheck(lambda x, y: sg.meshgrid(x, y, indexing="ij"), (a, b))


def test_broadcast_shapes() -> None:
    assert sg.broadcast_shapes((2, 1), (3, 1, 4), 4, ()) == (3, 2, 4)
    with pytest.raises(RuntimeError, match="Attempting to broadcast a dimension of length 3"):
        sg.broadcast_shapes((2,), (3,))


def test_counting_ops_match_numpy() -> None:
    x = np.array([1, 3, 3, 0])
    np.testing.assert_array_equal(
        sg.bincount(sg.tensor(x), minlength=6).numpy(), np.bincount(x, minlength=6)
    )
    v = np.random.default_rng(0).standard_normal(100)
    np.testing.assert_array_equal(sg.histc(sg.tensor(v), 5).numpy(), np.histogram(v, 5)[0])
    np.testing.assert_array_equal(
        sg.isin(sg.tensor(x), sg.tensor([3, 0])).numpy(), np.isin(x, [3, 0])
    )


INDEX_CASES = [
    ("put", lambda x, s: x.put(sg.tensor([0, 5, 2]), s)),
    ("put accumulate", lambda x, s: sg.put(x, sg.tensor([0, 5, 0]), s, accumulate=True)),
    ("index_reduce prod", lambda x, s: x.index_reduce(1, sg.tensor([0, 2, 0]), s.t(), "prod")),
    ("index_reduce mean", lambda x, s: x.index_reduce(1, sg.tensor([1, 1, 0]), s.t(), "mean")),
    (
        "index_reduce amax",
        lambda x, s: x.index_reduce(1, sg.tensor([2, 0, 0]), s.t(), "amax", include_self=False),
    ),
]


@pytest.mark.parametrize("name,fn", INDEX_CASES, ids=[c[0] for c in INDEX_CASES])
def test_index_writes_first_and_second_derivatives(name: str, fn: Any) -> None:
    x = _x(2, 3)
    s = sg.tensor(np.random.default_rng(9).standard_normal(3)).requires_grad_()
    s2 = sg.tensor(np.random.default_rng(9).standard_normal((3, 2))).requires_grad_()
    src = s2 if "index_reduce" in name else s
    assert gradcheck(fn, (x, src))
    assert gradgradcheck(fn, (x, src))


def test_fill_diagonal_wrap_and_gradient() -> None:
    a = _x(7, 3)
    b = a * 1
    b.fill_diagonal_(0.0, wrap=True)
    want = np.zeros((7, 3), bool)
    want[[0, 1, 2, 4, 5, 6], [0, 1, 2, 0, 1, 2]] = True
    np.testing.assert_array_equal(b.detach().numpy() == 0, want)
    b.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), (~want).astype(float))


def test_unravel_index_and_vander_match_numpy() -> None:
    idx = np.array([4, 1, 5])
    got = sg.unravel_index(sg.tensor(idx), (2, 3))
    for g, w in zip(got, np.unravel_index(idx, (2, 3)), strict=True):
        np.testing.assert_array_equal(g.numpy(), w)
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(sg.vander(sg.tensor(x), 4).numpy(), np.vander(x, 4))
    np.testing.assert_array_equal(
        sg.vander(sg.tensor(x), increasing=True).numpy(), np.vander(x, increasing=True)
    )
