"""Section 14: gradients at kinks, ties, domain edges and empty tensors.

These programs compare values only (`warnings=False`); whether an engine warns at these points
(numpy's RuntimeWarnings) is the one concern of `prog_no_numpy_warnings_at_edges`.
"""

from __future__ import annotations

from typing import Any

from . import program


def _grad(T: Any, f: Any, values: Any) -> Any:
    x = T.tensor(values, requires_grad=True)
    f(x).sum().backward()
    return x.grad


@program("14.1", warnings=False)
def prog_relu_at_zero_and_nan(T: Any) -> Any:
    return _grad(T, lambda x: x.relu(), [-1.0, 0.0, 1.0, float("nan")])


@program("14.2", warnings=False)
def prog_abs_sign_and_rounding_at_zero(T: Any) -> Any:
    v = [-1.5, 0.0, 0.5, 2.0]
    return {
        "abs": _grad(T, lambda x: x.abs(), v),
        "sign": _grad(T, lambda x: x.sign(), v),
        "floor": _grad(T, lambda x: x.floor(), v),
        "round": _grad(T, lambda x: x.round(), v),
        "frac": _grad(T, lambda x: x.frac(), v),
    }


@program("14.3", warnings=False)
def prog_clamp_bounds_included(T: Any) -> Any:
    v = [-1.0, 0.0, 0.5, 1.0, 2.0]
    return {
        "clamp": _grad(T, lambda x: x.clamp(0, 1), v),
        "clamp11": _grad(T, lambda x: x.clamp(1, 1), v),
        "clamp_min": _grad(T, lambda x: x.clamp_min(0), v),
    }


@program("14.3", warnings=False)
def prog_hardtanh_bounds_excluded(T: Any) -> Any:
    return _grad(T, lambda x: T.nn.functional.hardtanh(x), [-1.0, 0.0, 1.0, 2.0])


@program("14.4", warnings=False)
def prog_leaky_relu_and_elu_at_zero(T: Any) -> Any:
    F = T.nn.functional
    return {
        "leaky": _grad(T, lambda x: F.leaky_relu(x, 0.1), [0.0, -1.0, 1.0]),
        "elu": _grad(T, lambda x: F.elu(x), [0.0, -1.0, 1.0]),
    }


@program("14.5", warnings=False)
def prog_full_reduction_max_ties_split(T: Any) -> Any:
    return {
        "max": _grad(T, lambda x: x.max(), [1.0, 3.0, 3.0]),
        "min": _grad(T, lambda x: x.min(), [1.0, 1.0, 3.0]),
        "amax": _grad(T, lambda x: x.amax(0), [1.0, 3.0, 3.0]),
    }


@program("14.5", warnings=False)
def prog_dim_max_tie_goes_to_one_index(T: Any) -> Any:
    return _grad(T, lambda x: x.max(0).values, [1.0, 3.0, 3.0])


@program("14.6", warnings=False)
def prog_maximum_ties_split(T: Any) -> Any:
    a = T.tensor([1.0, 2.0, float("nan")], requires_grad=True)
    b = T.tensor([1.0, 3.0, 1.0], requires_grad=True)
    T.maximum(a, b).sum().backward()
    return {"a": a.grad, "b": b.grad}


@program("14.7", warnings=False)
def prog_pow_at_zero(T: Any) -> Any:
    v = [0.0, 1.0, -1.0]
    return {
        "sq": _grad(T, lambda x: x**2, v),
        "p0": _grad(T, lambda x: x**0, v),
        "p1": _grad(T, lambda x: x**1, v),
        "half": _grad(T, lambda x: x**0.5, v),
        "inv": _grad(T, lambda x: x**-1, v),
    }


@program("14.7", warnings=False)
def prog_pow_tensor_exponent_at_zero_base(T: Any) -> Any:
    b = T.tensor([0.0, 0.0, -1.0, 2.0], requires_grad=True)
    e = T.tensor([2.0, 0.0, 2.0, 3.0], requires_grad=True)
    (b**e).sum().backward()
    x = T.tensor([1.0, 0.0, -1.0], requires_grad=True)
    (2**x).sum().backward()
    y = T.tensor([1.0, 0.0, -1.0], requires_grad=True)
    (0**y).sum().backward()
    return {"b": b.grad, "e": e.grad, "2**x": x.grad, "0**y": y.grad}


@program("14.8", warnings=False)
def prog_log_and_division_at_zero(T: Any) -> Any:
    v = [0.0, -1.0, 2.0]
    return {
        "log": _grad(T, lambda x: x.log(), v),
        "recip": _grad(T, lambda x: 1 / x, v),
        "div0": _grad(T, lambda x: x / 0, v),
        "exp100": _grad(T, lambda x: x.exp(), [100.0]),
        "sqrt": _grad(T, lambda x: x.sqrt(), [0.0, 4.0]),
    }


@program("14.9", warnings=False)
def prog_norm_at_zero(T: Any) -> Any:
    return {
        "2": _grad(T, lambda x: x.norm(), [0.0, 0.0]),
        "1": _grad(T, lambda x: x.norm(1), [0.0, 0.0]),
        "inf": _grad(T, lambda x: x.norm(float("inf")), [3.0, -3.0, 1.0]),
    }


@program("14.10", warnings=False)
def prog_where_nan_trap(T: Any) -> Any:
    return {
        "sqrt": _grad(T, lambda x: T.where(x > 0, x.sqrt(), 0.0), [0.0, 4.0]),
        "log": _grad(T, lambda x: T.where(x > 0, x.log(), x), [0.0, 4.0]),
    }


@program("14.11", warnings=False)
def prog_std_of_equal_values(T: Any) -> Any:
    return _grad(T, lambda x: x.std(), [2.0, 2.0, 2.0])


@program("14.12", warnings=False)
def prog_prod_with_zeros(T: Any) -> Any:
    return {
        "one": _grad(T, lambda x: x.prod(), [0.0, 2.0, 3.0]),
        "two": _grad(T, lambda x: x.prod(), [0.0, 2.0, 0.0]),
        "cumprod": _grad(T, lambda x: x.cumprod(0), [2.0, 0.0, 3.0]),
    }


@program("14.13", warnings=False)
def prog_duplicate_indices_accumulate(T: Any) -> Any:
    return _grad(T, lambda x: x[T.tensor([0, 0, 1])], [1.0, 2.0, 3.0])


@program("14.14", warnings=False)
def prog_empty_reductions(T: Any) -> Any:
    a = T.ones(0, requires_grad=True)
    m = a.mean()
    m.backward()
    b = T.ones(0, requires_grad=True)
    b.sum().backward()
    return {"mean": m, "a": a.grad, "b": b.grad}


@program("14.15", warnings=False)
def prog_softmax_and_losses(T: Any) -> Any:
    F = T.nn.functional
    return {
        "softmax": _grad(T, lambda x: x.softmax(0), [1.0, 2.0]),
        "log_softmax": _grad(T, lambda x: x.log_softmax(0), [1.0, 2.0]),
        "mse": _grad(T, lambda x: F.mse_loss(x, T.zeros(2)), [1.0, 2.0]),
    }


@program("14.16", warnings=False)
def prog_atan2_at_origin(T: Any) -> Any:
    y = T.tensor([0.0], requires_grad=True)
    x = T.tensor([0.0], requires_grad=True)
    T.atan2(y, x).sum().backward()
    return {"y": y.grad, "x": x.grad}


@program("14.x", warnings=False)
def prog_tanh_sigmoid_saturation(T: Any) -> Any:
    v = [-100.0, -20.0, 0.0, 20.0, 100.0]
    return {
        "tanh": _grad(T, lambda x: x.tanh(), v),
        "sigmoid": _grad(T, lambda x: x.sigmoid(), v),
        "exp_neg": _grad(T, lambda x: (-x).exp(), [-100.0, 100.0]),
    }


@program("14.x")
def prog_no_numpy_warnings_at_edges(T: Any) -> Any:
    x = T.tensor([0.0, -1.0, 100.0], requires_grad=True)
    (x.log() + 1 / x + x**0.5 + x.exp() * 0).sum().backward()
    return x.grad


@program("14.1", warnings=False)
def prog_nll_loss_ignores_other_classes_infinities(T: Any) -> Any:
    # the loss reads only each target's log-probability: -inf (or nan) elsewhere stays out
    F = T.nn.functional
    x = T.tensor([[float("-inf"), 0.0, 1.0], [1.0, float("nan"), 2.0]], requires_grad=True)
    t = T.tensor([1, 2])
    out = {r: F.nll_loss(x, t, reduction=r) for r in ("mean", "sum", "none")}
    out["ignored"] = F.nll_loss(x, T.tensor([1, -100]))
    out["mean"].backward()
    out["grad"] = x.grad
    return out


@program("14.1", warnings=False)
def prog_relu_and_clamp_keep_negative_zero(T: Any) -> Any:
    # torch's max keeps self on a tie: -0.0 stays -0.0, which 1/x shows (found by the fuzzer)
    x = T.tensor([-0.0, 0.0, -1.0, 2.0])
    return {
        "relu": 1 / T.relu(x),
        "relu_": 1 / x.clone().relu_(),
        "clamp": 1 / T.clamp(x, min=0.0),
        "clamp_max": 1 / T.clamp(-x, max=0.0),
        "clamp_min": 1 / T.clamp_min(x, 0.0),
    }


@program("14.1", warnings=False)
def prog_python_numbers_out_of_a_dtypes_range(T: Any) -> Any:
    # fill_, full and setitem check a Python number against the dtype (torch's checked_convert,
    # its message naming the C++ type); arithmetic wraps an int into an integer tensor's type
    # (numpy raised OverflowError for both)
    from ..engines import raises

    out: dict[str, Any] = {}
    for dt in ("float32", "float16", "int32", "int8", "uint8", "int64", "complex64", "bool"):
        for v in (1e300, 1e5, 300, -129, 2**40, float("inf"), float("nan"), -1):

            def fill(dt: str = dt, v: Any = v) -> Any:
                return T.zeros(2, dtype=getattr(T, dt)).fill_(v)

            def setitem(dt: str = dt, v: Any = v) -> Any:
                b = T.zeros(2, dtype=getattr(T, dt))
                b[0] = v
                return b

            def full(dt: str = dt, v: Any = v) -> Any:
                return T.full((2,), v, dtype=getattr(T, dt))

            for name, f in (("fill_", fill), ("setitem", setitem), ("full", full)):
                out[f"{name} {dt} {v!r}"] = raises(f)
    i8 = T.tensor([5, -5], dtype=T.int8)
    out["int8 + 300"] = i8 + 300
    out["uint8 - 1"] = T.tensor([0, 3], dtype=T.uint8) - 1
    out["int32 * 2**40"] = T.tensor([1, 3], dtype=T.int32) * 2**40
    out["int8 add_ 300"] = i8.clone().add_(300)
    return out


@program("14.1", warnings=False)
def prog_softmax_rows_with_infinities(T: Any) -> Any:
    # torch subtracts the row maximum whatever it is: +inf anywhere, or only -inf, gives a row
    # of nan (shadowgrad replaced an infinite maximum by 0 and gave 0 beside the nans)
    inf = float("inf")
    nan = float("nan")
    rows = [[-inf, -inf], [inf, 1.0], [-inf, 1.0], [nan, 1.0], [inf, -inf], [1e30, -1e30, inf]]
    return {str(r): (T.softmax(T.tensor(r), 0), T.log_softmax(T.tensor(r), 0)) for r in rows}


@program("14.1", warnings=False)
def prog_pow_special_exponents_at_special_values(T: Any) -> Any:
    # torch computes pow by 0.5, -0.5, 2, 3, -1, -2 as sqrt, rsqrt, ... (signs at -0, nan at
    # -inf), but a tensor exponent with C's pow (+inf at -inf, +0 at -0); fuzzer find
    inf = float("inf")
    x = T.tensor([-inf, -0.0, 0.0, 4.0, -4.0, inf, 1.5])
    out = {f"scalar {e}": x**e for e in (0.5, -0.5, 3, -2, -1, 2, 1.5)}
    out["0-d tensor 0.5"] = x ** T.tensor(0.5)
    out["1-element 0.5"] = x ** T.tensor([0.5])
    out["float64 0.5"] = x.double() ** T.tensor(0.5, dtype=T.float64)
    return out
