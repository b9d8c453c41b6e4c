"""Section 12: broadcasting gradients, grad dtypes, type promotion."""

from __future__ import annotations

from typing import Any

from ..engines import observe, raises
from . import program


@program("12.1")
def prog_broadcast_grads_reduce_to_input_shape(T: Any) -> Any:
    a = T.ones(3, 1, requires_grad=True)
    b = T.ones(1, 4, requires_grad=True)
    c = T.ones(4, requires_grad=True)
    s = T.tensor(2.0, requires_grad=True)
    o = T.ones(1, requires_grad=True)
    (a * b + c * s + o).sum().backward()
    return {k: observe(T, v) for k, v in dict(a=a, b=b, c=c, s=s, o=o).items()}


@program("12.2")
def prog_grad_dtype_is_input_dtype(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    d = T.ones(2, dtype=T.float64, requires_grad=True)
    y = x * d
    (y.sum()).backward()
    f = T.ones(2, dtype=T.float64, requires_grad=True)
    f.float().sum().backward()
    return {"y": y, "x": observe(T, x), "d": observe(T, d), "f": observe(T, f)}


@program("12.3")
def prog_default_dtypes(T: Any) -> Any:
    import numpy as np

    return {
        "float": T.tensor(1.0).dtype,
        "int": T.tensor(1).dtype,
        "bool": T.tensor(True).dtype,
        "complex": T.tensor(1j).dtype,
        "ones": T.ones(2).dtype,
        "arange_f": T.arange(3.0).dtype,
        "arange_i": T.arange(3).dtype,
        "numpy": T.tensor(np.array([1.0])).dtype,
        "default": T.get_default_dtype(),
        "bad_default": raises(lambda: T.set_default_dtype(T.int64)),
    }


@program("12.3")
def prog_set_default_dtype_float64(T: Any) -> Any:
    T.set_default_dtype(T.float64)
    try:
        return {"float": T.tensor(1.0).dtype, "int*float": (T.tensor([1]) * 2.5).dtype}
    finally:
        T.set_default_dtype(T.float32)


@program("12.4")
def prog_tensor_scalar_promotion(T: Any) -> Any:
    i64 = T.tensor([1, 2])
    i32 = T.tensor([1, 2], dtype=T.int32)
    f32 = T.tensor([1.0, 2.0])
    f64 = T.tensor([1.0, 2.0], dtype=T.float64)
    return {
        "i64*2.5": i64 * 2.5,
        "i64*i": i64 * 3,
        "i32+5": i32 + 5,
        "f32+1.": f32 + 1.0,
        "f64+1.": f64 + 1.0,
        "f32*1j": (f32 * 1j).dtype,
    }


@program("12.5")
def prog_tensor_tensor_promotion(T: Any) -> Any:
    def d(a: Any, b: Any) -> Any:
        return (a + b).dtype

    f16 = T.ones(2, dtype=T.float16)
    f32 = T.ones(2)
    f64 = T.ones(2, dtype=T.float64)
    i64 = T.ones(2, dtype=T.long)
    return {
        "f32+f64": d(f32, f64),
        "i32+i64": d(T.ones(2, dtype=T.int32), i64),
        "u8+i8": d(T.ones(2, dtype=T.uint8), T.ones(2, dtype=T.int8)),
        "int+bool": d(i64, T.ones(2, dtype=T.bool)),
        "bool+bool": T.tensor([True]) + T.tensor([True]),
        "f32+f64_0d": d(f32, T.tensor(1.0, dtype=T.float64)),
        "f16+f32_0d": d(f16, T.tensor(1.0)),
        "i64+f32_0d": d(i64, T.tensor(1.0)),
        "i64+f64_0d": d(i64, T.tensor(1.0, dtype=T.float64)),
        "0d+0d": d(T.tensor(1.0), T.tensor(1.0, dtype=T.float64)),
    }


@program("12.6")
def prog_division_and_float_only_ops(T: Any) -> Any:
    i = T.tensor([1, 2])
    return {
        "true_div": i / T.tensor([2, 2]),
        "exp": i.exp(),
        "sqrt": i.sqrt(),
        "pow_half": i**0.5,
        "cmp": i > 1,
        "neg_int_pow": raises(lambda: i**-1),
    }


@program("12.6")
def prog_int_tensor_to_negative_int_tensor_power(T: Any) -> Any:
    return T.tensor([1, 2, 3]) ** T.tensor([-1, -1, -1])


@program("12.6")
def prog_floor_division_of_ints(T: Any) -> Any:
    return T.tensor([1, 2]) // T.tensor([2, 2])


@program("12.7")
def prog_reductions_on_ints(T: Any) -> Any:
    return {
        "sum_i32": T.ones(2, dtype=T.int32).sum(),
        "sum_bool": T.ones(2, dtype=T.bool).sum(),
        "mean_int": raises(lambda: T.tensor([1, 2]).mean()),
        "mean_dtype": T.tensor([1, 2]).mean(dtype=T.float64),
    }


@program("12.8")
def prog_inplace_cannot_promote(T: Any) -> Any:
    f = T.ones(2)
    f.add_(T.ones(2, dtype=T.float64))
    return {"int_add_float": raises(lambda: T.tensor([1, 2]).add_(1.5)), "f": f}


@program("12.9")
def prog_bool_negation(T: Any) -> Any:
    return raises(lambda: -T.tensor([True, False]))


@program("12.10")
def prog_float_op_with_int_tensor(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    i = T.tensor([3, 4])
    y = x * i
    y.sum().backward()
    return {"y": y, "graph": y.grad_fn, "x.grad": x.grad}


@program("12.11")
def prog_numpy_scalar_interop(T: Any) -> Any:
    import numpy as np

    x = T.tensor([1.0, 2.0], requires_grad=True)
    return {
        "np*t": np.float64(2.0) * x,
        "t*np": x * np.float64(2.0),
        "ndarray*t": raises(lambda: np.ones(2) * x),
        "t+list": raises(lambda: x + [1.0]),  # noqa: RUF005 - tensor + list must raise
    }


@program(
    "12.1",
)
def prog_broadcast_error_message(T: Any) -> Any:
    return raises(lambda: T.ones(3) + T.ones(0))


@program("12.5")
def prog_matmul_checks_shapes_before_dtypes(T: Any) -> Any:
    # torch's matmul folds or batches first; mm, mv and bmm check shapes, then dtypes (the
    # fuzzer found the dtype error reported first)
    d = T.ones(2, 3, dtype=T.float64)
    cases = {
        "3d@2d": lambda: d.unsqueeze(0) @ T.ones(1, 3),
        "3d@2d dtype": lambda: d.unsqueeze(0) @ T.ones(3, 2),
        "3d@3d": lambda: d.unsqueeze(0) @ T.ones(1, 1, 3),
        "3d@3d dtype": lambda: d.unsqueeze(0) @ T.ones(1, 3, 2),
        "3d@1d": lambda: d.unsqueeze(0) @ T.ones(2),
        "3d@1d dtype": lambda: d.unsqueeze(0) @ T.ones(3),
        "1d@3d": lambda: T.ones(3, dtype=T.float64) @ T.ones(1, 2, 2),
        "4d@2d": lambda: d.reshape(1, 1, 2, 3) @ T.ones(1, 3),
        "2d@3d": lambda: d @ T.ones(2, 2, 2),
        "4d@3d batch": lambda: T.ones(2, 2, 2, 3, dtype=T.float64) @ T.ones(3, 3, 2),
    }
    return {k: raises(f) for k, f in cases.items()}
