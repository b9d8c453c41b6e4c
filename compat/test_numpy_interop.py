"""numpy functions and operators applied to tensors: the result's type, dtype and values, and
the warnings, as torch gives them.

torch's tensors define `__array__` and a one-argument `__array_wrap__`: a numpy ufunc on a tensor
(`np.sin(t)`, `t * ndarray`, `np.greater(t, 0)`) computes in numpy and wraps the result back into
a tensor (bool results as uint8), and numpy 2 warns that the signature is deprecated. A tensor
compared with `==` to an ndarray compares as tensors; other operators either defer to numpy or
raise TypeError. An operand of a type no op takes gets torch's argument-parser TypeError (the
function form's wording: the method form's positions differ).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

import shadowgrad


def _x(T: Any) -> Any:
    return T.tensor([1.0, 2.0])


CASES: dict[str, Callable[[Any], Any]] = {
    "sin": lambda T: np.sin(_x(T)),
    "sqrt": lambda T: np.sqrt(_x(T)),
    "abs": lambda T: np.abs(_x(T)),
    "add_number": lambda T: np.add(_x(T), 1),
    "greater_bool_as_uint8": lambda T: np.greater(_x(T), 0),
    "isnan_bool_as_uint8": lambda T: np.isnan(_x(T)),
    "maximum_ndarray": lambda T: np.maximum(_x(T), np.ones(2)),
    "argmax_0d": lambda T: np.argmax(_x(T)),
    "sum_axis_kwarg": lambda T: np.sum(_x(T)),
    "mean_axis_kwarg": lambda T: np.mean(_x(T)),
    "concatenate": lambda T: np.concatenate([_x(T), _x(T)]),
    "where": lambda T: np.where(_x(T) > 1, _x(T), 0),
    "tensor_mul_ndarray": lambda T: _x(T) * np.ones(2),
    "tensor_add_ndarray": lambda T: _x(T) + np.ones(2),
    "tensor_sub_ndarray": lambda T: _x(T) - np.ones(2),
    "tensor_div_ndarray": lambda T: _x(T) / np.full(2, 2.0),
    "tensor_pow_ndarray": lambda T: _x(T) ** np.full(2, 2.0),
    "ndarray_mul_tensor": lambda T: np.ones(2) * _x(T),
    "ndarray_div_tensor": lambda T: np.ones(2) / _x(T),
    "tensor_lt_ndarray": lambda T: _x(T) < np.ones(2),
    "tensor_eq_ndarray": lambda T: _x(T) == np.ones(2),
    "ndarray_eq_tensor": lambda T: np.ones(2) == _x(T),
    "tensor_eq_int_ndarray": lambda T: _x(T) == np.ones(2, dtype=np.int64),
    "tensor_eq_ndarray_broadcast": lambda T: _x(T) == np.ones((3, 2)),
    "tensor_eq_ndarray_bad_shape": lambda T: _x(T) == np.ones(3),
    "tensor_eq_0d_ndarray": lambda T: _x(T) == np.array(1.0),
    "tensor_ne_ndarray": lambda T: _x(T) != np.ones(2),
    "tensor_eq_list": lambda T: _x(T) == [1.0, 2.0],
    "tensor_eq_none": lambda T: _x(T) == None,  # noqa: E711
    "eq_function_ndarray": lambda T: T.eq(_x(T), np.ones(2)),
    "lt_function_string": lambda T: T.lt(_x(T), "a"),
    "add_function_string": lambda T: T.add(_x(T), "a"),
    "mul_function_list": lambda T: T.mul(_x(T), [1.0, 2.0]),
    "sub_function_ndarray": lambda T: T.sub(_x(T), np.ones(2)),
    "none_div_tensor": lambda T: None / _x(T),
    "number_div_tensor": lambda T: 2.0 / _x(T),
    "numpy_scalar_mul": lambda T: np.float64(2.0) * _x(T),
    "numpy_int_mul": lambda T: _x(T) * np.int64(2),
    "requires_grad_ufunc": lambda T: np.sin(T.ones(2, requires_grad=True)),
}


def _outcome(T: Any, case: str) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = CASES[case](T)
            if isinstance(r, (torch.Tensor, shadowgrad.Tensor)):
                out: Any = ("tensor", str(r.dtype).split(".")[-1], r.tolist())
            else:
                value = r.tolist() if hasattr(r, "tolist") else r
                out = (type(r).__name__, str(getattr(r, "dtype", "")), value)
        except Exception as e:  # the exception is the outcome compared
            out = ("raises", type(e).__name__, str(e))
    return out, sorted(type(w.message).__name__ for w in caught)


@pytest.mark.parametrize("case", sorted(CASES))
def test_numpy_on_tensors_matches_torch(case: str) -> None:
    assert _outcome(shadowgrad, case) == _outcome(torch, case)
