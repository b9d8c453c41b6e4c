"""Reductions, scans, sorting and selection: gradients (first and second order) and tie rules."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as torch
from shadowgrad.autograd import gradcheck, gradgradcheck


def _leaf(a: Any) -> torch.Tensor:
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def _rand(*shape: int, low: float = -2.0, high: float = 2.0, seed: int = 0) -> torch.Tensor:
    return _leaf(np.random.default_rng(seed).uniform(low, high, shape))


def _distinct(*shape: int, seed: int = 0) -> torch.Tensor:
    """Well-separated values, so that finite differences never cross a tie."""
    n = int(np.prod(shape))
    # no zeros and no |x| ties either: |x| and the inf-norm have kinks there
    v = np.random.default_rng(seed).permutation(n).astype(np.float64) * 0.5 - n / 4 + 0.3
    return _leaf(v.reshape(shape))


def _check(fn: Any, *inputs: torch.Tensor) -> None:
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


# --- gradcheck / gradgradcheck of each differentiable reduction --------------------------------

DIMS = [
    {},
    {"dim": 1},
    {"dim": -1, "keepdim": True},
    {"dim": (0, 2)},
    {"dim": (2, 0), "keepdim": True},
]


@pytest.mark.parametrize(
    "fn",
    [
        lambda t: t.sum(),
        lambda t: torch.sum(t, (0, 1)),
    ],
)
def test_gradgradcheck_0d_grad_output(fn: Any) -> None:
    assert gradgradcheck(fn, (_leaf([[1.0, 2.0], [3.0, 4.0]]),))


@pytest.mark.parametrize("kw", DIMS)
@pytest.mark.parametrize(
    "name",
    ["sum", "mean", "nansum", "var", "std", "logsumexp", "amax", "amin", "norm"],
)
def test_reduction_grads_over_dims(name: str, kw: dict[str, Any]) -> None:
    x = _distinct(2, 3, 4)
    fn = getattr(torch, name)
    if name == "logsumexp" and "dim" not in kw:
        kw = {"dim": (0, 1, 2)}
    if name in ("amax", "amin") and "dim" not in kw:
        kw = {}
    _check(lambda t: fn(t, **kw), x)


@pytest.mark.parametrize("kw", [{}, {"dim": 1}, {"dim": 0, "keepdim": True}])
@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
def test_var_mean_grads(name: str, kw: dict[str, Any]) -> None:
    _check(lambda t: getattr(torch, name)(t, **kw), _rand(3, 4))


@pytest.mark.parametrize("correction", [0, 1, 2])
def test_var_std_correction_grads(correction: int) -> None:
    x = _rand(3, 5)
    _check(lambda t: torch.var(t, 1, correction=correction), x)
    _check(lambda t: torch.std(t, 0, keepdim=True, correction=correction), x)


@pytest.mark.parametrize(
    "kw",
    [
        {"p": 2},
        {"p": 1, "dim": 1},
        {"p": 3, "dim": 0, "keepdim": True},
        {"p": 1.5},
        {"p": 0.5},
        {"p": float("inf"), "dim": 1},
        {"p": -float("inf")},
        {"p": "fro", "dim": (0, 1)},
    ],
)
def test_norm_grads(kw: dict[str, Any]) -> None:
    _check(lambda t: torch.norm(t, **kw), _distinct(3, 4))


@pytest.mark.parametrize("kw", [{}, {"dim": 0}, {"dim": 1, "keepdim": True}])
def test_prod_grads(kw: dict[str, Any]) -> None:
    _check(lambda t: torch.prod(t, **kw), _rand(3, 4, low=0.5, high=1.5))


@pytest.mark.parametrize(
    "values", [[0.0, 2.0, 3.0], [0.0, 2.0, 0.0], [[0.0, 2.0, 3.0], [1.0, 0.0, 0.0]]]
)
def test_prod_with_zeros_grads(values: Any) -> None:
    x = _leaf(values)
    _check(lambda t: torch.prod(t), x)
    _check(lambda t: torch.prod(t, -1), x)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_cumprod_grads(dim: int) -> None:
    _check(lambda t: torch.cumsum(t, dim), _rand(3, 4))
    _check(lambda t: torch.cumprod(t, dim), _rand(3, 4, low=0.5, high=1.5))


def test_cumprod_with_zeros_grads() -> None:
    x = _leaf([[2.0, 0.0, 3.0, 0.0], [0.0, 1.5, 2.0, -1.0]])
    _check(lambda t: torch.cumprod(t, 1), x)


@pytest.mark.parametrize("name", ["max", "min", "median", "nanmedian", "mode"])
def test_index_selecting_grads(name: str) -> None:
    x = _distinct(3, 5)
    fn = getattr(torch, name)
    _check(lambda t: fn(t, 1)[0], x)
    _check(lambda t: fn(t, 0, True)[0], x)


def test_sort_topk_kthvalue_grads() -> None:
    x = _distinct(3, 5)
    _check(lambda t: torch.sort(t, 1, descending=True)[0], x)
    _check(lambda t: torch.topk(t, 3, dim=0, largest=False)[0], _distinct(4, 3))
    _check(lambda t: torch.kthvalue(t, 2, 1)[0], x)
    _check(lambda t: torch.max(t), x)
    _check(lambda t: torch.median(t), x)


def test_scalar_and_empty_inputs() -> None:
    s = _leaf(1.5)
    for fn in (torch.prod, lambda t: torch.cumprod(t, 0), lambda t: torch.max(t, 0)[0]):
        assert gradcheck(fn, (s,))
    e = _leaf(np.zeros((0, 3)))
    assert torch.sum(e).item() == 0.0
    assert np.isnan(torch.mean(e).item())
    torch.mean(e).backward()
    assert e.grad is not None and tuple(e.grad.shape) == (0, 3)


# --- properties (Hypothesis) ---------------------------------------------------------------------


@st.composite
def _array_and_dims(draw: Any) -> tuple[np.ndarray, tuple[int, ...]]:
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    dims = draw(st.lists(st.integers(0, len(shape) - 1), unique=True, min_size=1))
    data = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(data).uniform(-2, 2, shape), tuple(dims)


@given(_array_and_dims(), st.booleans())
def test_sum_mean_var_match_numpy(ad: tuple[np.ndarray, tuple[int, ...]], keepdim: bool) -> None:
    a, dims = ad
    x = torch.tensor(a)
    np.testing.assert_allclose(torch.sum(x, dims, keepdim).numpy(), a.sum(dims, keepdims=keepdim))
    np.testing.assert_allclose(torch.mean(x, dims, keepdim).numpy(), a.mean(dims, keepdims=keepdim))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = torch.var(x, dims, keepdim=keepdim, correction=0).numpy()
    np.testing.assert_allclose(v, a.var(dims, keepdims=keepdim), atol=1e-12)


@given(_array_and_dims(), st.booleans())
def test_amax_grad_sums_to_one_per_slice(
    ad: tuple[np.ndarray, tuple[int, ...]], keepdim: bool
) -> None:
    a, dims = ad
    a = np.round(a)  # many ties
    x = torch.tensor(a, requires_grad=True)
    torch.amax(x, dims, keepdim).sum().backward()
    g = x.grad.numpy()
    np.testing.assert_allclose(g.sum(dims), np.ones_like(a.max(dims)))
    assert np.all((g == 0) | (a == a.max(dims, keepdims=True)))


@given(_array_and_dims(), st.booleans())
def test_gradgradcheck_sum_amax_dims(ad: tuple[np.ndarray, tuple[int, ...]], keepdim: bool) -> None:
    a, dims = ad
    n = a.size
    x = _leaf((np.random.default_rng(0).permutation(n) * 0.5).reshape(a.shape))
    _check(lambda t: torch.logsumexp(t, dims, keepdim), x)
    _check(lambda t: torch.amax(t, dims, keepdim), x)


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=12), st.booleans())
def test_sort_is_stable_and_a_permutation(vals: list[int], descending: bool) -> None:
    x = torch.tensor(np.array(vals, dtype=np.float64))
    v, i = torch.sort(x, descending=descending, stable=True)
    idx = i.numpy()
    assert sorted(idx.tolist()) == list(range(len(vals)))
    np.testing.assert_array_equal(v.numpy(), np.array(vals, dtype=np.float64)[idx])
    key = [(-a if descending else a, k) for k, a in enumerate(vals)]
    assert idx.tolist() == [k for _, k in sorted(key)]


# --- ties, kinks and torch's edge cases -----------------------------------------------------------


def _grad(fn: Any, values: Any) -> np.ndarray:
    x = _leaf(values)
    fn(x).backward()
    return x.grad.numpy()


def test_full_max_min_split_ties_evenly() -> None:
    np.testing.assert_allclose(_grad(lambda t: t.max(), [1.0, 3.0, 3.0]), [0, 0.5, 0.5])
    np.testing.assert_allclose(_grad(lambda t: t.min(), [1.0, 1.0, 3.0]), [0.5, 0.5, 0])
    np.testing.assert_allclose(_grad(lambda t: t.amax(0), [1.0, 3.0, 3.0]), [0, 0.5, 0.5])


def test_max_with_nan_sends_grad_to_nan() -> None:
    np.testing.assert_array_equal(_grad(lambda t: t.max(), [1.0, float("nan"), 3.0]), [0, 1, 0])


def test_max_dim_grad_goes_to_first_tie() -> None:
    np.testing.assert_array_equal(_grad(lambda t: t.max(0)[0], [1.0, 3.0, 3.0]), [0, 1, 0])
    r = torch.max(torch.tensor([[1.0, 3.0, 3.0]]), 1)
    assert r.indices.tolist() == [1]
    assert type(r).__name__ == "max" and r._fields == ("values", "indices")
    assert repr(r).startswith("torch.return_types.max(\nvalues=tensor([3.]),\nindices=")


def test_median_rules() -> None:
    np.testing.assert_allclose(_grad(lambda t: t.median(), [2.0, 2.0, 2.0]), [1 / 3] * 3)
    np.testing.assert_array_equal(_grad(lambda t: t.median(), [1.0, 2.0, 3.0, 4.0]), [0, 1, 0, 0])
    assert torch.median(torch.tensor([1.0, 2.0, 3.0, 4.0])).item() == 2.0


def test_prod_and_cumprod_with_zeros() -> None:
    np.testing.assert_array_equal(_grad(lambda t: t.prod(), [0.0, 2.0, 3.0]), [6, 0, 0])
    np.testing.assert_array_equal(_grad(lambda t: t.prod(), [0.0, 2.0, 0.0]), [0, 0, 0])
    np.testing.assert_array_equal(_grad(lambda t: t.cumprod(0).sum(), [2.0, 0.0, 3.0]), [1, 8, 0])


def test_std_of_equal_values_has_zero_grad() -> None:
    np.testing.assert_array_equal(_grad(lambda t: t.std(), [2.0, 2.0, 2.0]), [0, 0, 0])


def test_std_single_element_warns_and_is_nan() -> None:
    x = _leaf([1.5])
    with pytest.warns(UserWarning, match=r"std\(\): degrees of freedom is <= 0"):
        y = x.std()
    assert np.isnan(y.item())
    y.backward()
    assert np.isnan(x.grad.numpy()).all()


def test_norm_at_zero_and_inf_ties() -> None:
    np.testing.assert_array_equal(_grad(lambda t: t.norm(), [0.0, 0.0]), [0, 0])
    np.testing.assert_array_equal(_grad(lambda t: t.norm(1), [0.0, 0.0]), [0, 0])
    np.testing.assert_allclose(
        _grad(lambda t: t.norm(float("inf")), [3.0, -3.0, 1.0]), [0.5, -0.5, 0]
    )


def test_logsumexp_is_stable() -> None:
    x = torch.tensor([1000.0, 1000.0], dtype=torch.float64)
    np.testing.assert_allclose(torch.logsumexp(x, 0).item(), 1000 + np.log(2))
    assert torch.logsumexp(torch.tensor([-np.inf, -np.inf]), 0).item() == -np.inf


def test_integer_dtype_rules() -> None:
    i = torch.tensor([1, 2, 3], dtype=torch.int32)
    assert torch.sum(i).dtype is torch.int64
    assert torch.prod(i).dtype is torch.int64
    assert torch.cumsum(torch.tensor([True, False]), 0).dtype is torch.int64
    assert torch.all(torch.tensor([1, 2], dtype=torch.uint8)).dtype is torch.uint8
    assert torch.argmax(i).dtype is torch.int64
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        torch.mean(i)


def test_errors() -> None:
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified"):
        torch.max(torch.zeros(0))
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.sum(torch.zeros(2, 3), 2)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(torch.zeros(3), 4)


def test_inputs_are_not_modified() -> None:
    a = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    x = torch.tensor(a.copy(), requires_grad=True)
    for fn in (torch.sort, torch.median, torch.kthvalue):
        out = fn(x, 1) if fn is not torch.kthvalue else fn(x, 2, 1)
        out[0].sum().backward()
    torch.cumprod(x, 1).sum().backward()
    np.testing.assert_array_equal(x.detach().numpy(), a)


def test_equal_compares_shape_and_values_not_dtype() -> None:
    assert torch.equal(torch.ones(2), torch.ones(2))
    assert not torch.equal(torch.ones(2), torch.ones(3))
    assert torch.equal(torch.ones(2), torch.ones(2, dtype=torch.int64))
    assert not torch.tensor([1.0, 2.0]).equal(torch.tensor([1.0, 3.0]))


def test_allclose_tolerances_nan_dtype_and_broadcast_errors() -> None:
    assert torch.allclose(torch.ones(2), torch.ones(2) + 1e-9)
    assert not torch.allclose(torch.ones(2), torch.ones(2) + 1e-3)
    nan = torch.tensor([1.0, float("nan")])
    assert not torch.allclose(nan, nan)
    assert torch.allclose(nan, nan, equal_nan=True)
    assert torch.ones(2).allclose(torch.ones(2))
    with pytest.raises(RuntimeError, match=r"^Float did not match Double$"):
        torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        torch.allclose(torch.ones(2), torch.ones(3))
