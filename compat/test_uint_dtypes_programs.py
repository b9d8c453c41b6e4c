"""Programs on torch's "barebones" unsigned dtypes, uint16, uint32 and uint64: they exist for
storage and interchange (numpy arrays, checkpoints, bit views), support creation, casts,
comparisons and a few kernels, and refuse promotion with any other integer or bool dtype.
Each program returns what it gets and the harness compares it with torch's. Kernels torch lacks
for them ("add_stub" not implemented for 'UInt32') are not reproduced: shadowgrad computes
those (docs/semantics.md).
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program

_NAMES = ("uint16", "uint32", "uint64")


def _dts(T: Any) -> list[Any]:
    return [getattr(T, n) for n in _NAMES]


@program()
def prog_uin_dtype_objects(T: Any) -> Any:
    out = []
    for d in _dts(T):
        info = T.iinfo(d)
        out.append(
            (
                repr(d),
                str(d),
                d.is_signed,
                d.itemsize,
                d.is_floating_point,
                d.is_complex,
                (info.min, info.max, info.bits, str(info.dtype)),
                raises(lambda d=d: d.to_complex()),
                d.to_real(),
                d == getattr(T, d.__repr__().split(".")[1]),
            )
        )
    return out


@program()
def prog_uin_creation_and_printing(T: Any) -> Any:
    out = []
    for d in _dts(T):
        x = T.tensor([0, 1, 250, 65535], dtype=d)
        out.append(
            (
                x,
                repr(x),
                str(T.zeros(2, 3, dtype=d)),
                T.ones(3, dtype=d),
                T.full((2,), 7, dtype=d),
                T.empty(2, dtype=d).fill_(9),
                x.type(),
                x.element_size(),
                x.is_signed(),
                x.is_floating_point(),
                x.tolist(),
                x[3].item(),
                T.zeros(2, dtype=d).new_zeros(3).dtype,
                T.empty_like(x).dtype,
                T.zeros_like(x),
                T.ones(2, dtype=d).new_tensor([3]).dtype,
            )
        )
    return out


@program()
def prog_uin_out_of_range_values(T: Any) -> Any:
    U16, U32, U64 = _dts(T)
    return (
        T.tensor([-1], dtype=U16),
        T.tensor([-1], dtype=U32),
        raises(lambda: T.tensor([-1], dtype=U64)),
        raises(lambda: T.tensor([2**64], dtype=U64)),
        T.tensor([2**63 + 5, 2**64 - 1], dtype=U64).tolist(),
        repr(T.tensor([2**64 - 1], dtype=U64)),
        raises(lambda: T.tensor([2**16], dtype=U16)),
        raises(lambda: T.tensor([2**32], dtype=U32)),
        T.full((1,), -1, dtype=U64),
        T.ones(1, dtype=U64).fill_(-1),
        raises(lambda: T.full((1,), 2**32, dtype=U32)),
        raises(lambda: T.ones(2, dtype=U32).fill_(2**32)),
        T.tensor([1.5, 2.9], dtype=U16),
        T.tensor([True, False], dtype=U32),
        T.tensor([70000]).to(U16),
    )


@program()
def prog_uin_promotion_rules(T: Any) -> Any:
    out = []
    others = [T.bool, T.uint8, T.int8, T.int16, T.int32, T.int64]
    floats = [T.float16, T.float32, T.float64]
    for d in _dts(T):
        row = [T.promote_types(d, d)]
        row += [raises(lambda d=d, o=o: T.promote_types(d, o)) for o in others]
        row += [raises(lambda d=d, o=o: T.promote_types(o, d)) for o in others]
        row += [T.promote_types(d, f) for f in floats] + [T.promote_types(f, d) for f in floats]
        row.append(raises(lambda d=d: T.promote_types(d, T.complex64)))
        row += [raises(lambda d=d, o=o: T.promote_types(d, o)) for o in _dts(T) if o is not d]
        out.append(row)
    return out


@program()
def prog_uin_result_type_with_scalars_and_0d(T: Any) -> Any:
    out = []
    for d in _dts(T):
        x = T.ones(2, dtype=d)
        out.append(
            (
                T.result_type(x, 1),
                T.result_type(x, 1.5),
                T.result_type(x, T.tensor(1)),  # a 0-d integer tensor does not promote
                T.result_type(T.tensor(1, dtype=d), T.ones(2, dtype=T.int16)),
                raises(lambda x=x: T.result_type(x, T.ones(2, dtype=T.int64))),
                raises(lambda d=d: T.result_type(T.tensor(1, dtype=d), T.tensor(1, T.int16))),
            )
        )
    return out


@program()
def prog_uin_supported_kernels(T: Any) -> Any:
    out = []
    for d in _dts(T):
        x = T.tensor([3, 1, 2], dtype=d)
        out.append(
            (
                x * 3,
                x * x,
                x / 2,
                x * T.ones(3),
                x & 1,
                x | T.tensor([4, 4, 4], dtype=d),
                x == 2,
                x.eq(T.tensor([3, 0, 2], dtype=d)),
                x.sum(),
                x.sum().dtype,
                x.cumsum(0),
                x.prod(),
                x.sort(),
                x.unique(),
                x.any(),
                x.all(),
                x.isnan(),
                x.equal(T.tensor([3, 1, 2], dtype=d)),
                T.allclose(x, x),
            )
        )
    return out


@program()
def prog_uin_promotion_errors_in_ops(T: Any) -> Any:
    out = []
    for d in _dts(T):
        x = T.ones(2, dtype=d)
        out.append(
            (
                raises(lambda x=x: x * T.ones(2, dtype=T.int32)),
                raises(lambda x=x: x.eq(T.ones(2, dtype=T.int64))),
                raises(lambda x=x: x > T.ones(2, dtype=T.int64)),
                raises(lambda x=x: T.cat([x, T.ones(1, dtype=T.uint8)])),
                raises(lambda x=x: x.mean()),
                raises(lambda x=x: x.requires_grad_()),
                raises(lambda d=d: T.ones(2, dtype=d, requires_grad=True)),
            )
        )
    return out


@program()
def prog_uin_shape_ops_and_indexing(T: Any) -> Any:
    out = []
    for d in _dts(T):
        x = T.tensor([[1, 2, 3], [4, 5, 6]], dtype=d)
        m = T.tensor([True, False, True])
        out.append(
            (
                T.cat([x, x]),
                T.stack([x[0], x[1]]),
                x.view(3, 2),
                x.t(),
                x[1:, ::2],
                x[:, T.tensor([2, 0])],
                x.clone(),
                x.repeat(1, 2),
                x.expand(2, 2, 3).shape,
                x[0].where(m, 0),
                x.reshape(-1).contiguous().stride(),
                x.to(T.uint8),
                x.float(),
                x.double(),
                x.bool(),
                x.char(),
                x.to(T.float16),
            )
        )
    return out


@program()
def prog_uin_bit_views(T: Any) -> Any:
    U16, U32, U64 = _dts(T)
    return (
        T.tensor([1, -1], dtype=T.int16).view(U16),
        T.tensor([-2], dtype=T.int32).view(U32),
        T.tensor([-3], dtype=T.int64).view(U64),
        T.ones(2, dtype=T.int32).view(U16),
        T.tensor([65535, 1], dtype=U16).view(T.int16),
        T.tensor([1.0], dtype=T.float32).view(U32),
        T.tensor([1.0], dtype=T.float64).view(U64),
        T.tensor([0x3F80], dtype=U16).view(T.float16),
        T.tensor([4, 5, 6, 7], dtype=T.uint8).view(U32),
    )


@program()
def prog_uin_numpy_round_trip(T: Any) -> Any:
    out = []
    for name in _NAMES:
        a = np.array([0, 7, np.iinfo(name).max], dtype=name)
        t = T.from_numpy(a)
        t2 = T.tensor(a)
        t3 = T.as_tensor(a)
        b = t.numpy()
        out.append(
            (t, t.dtype, t2.dtype, t3.dtype, b.dtype.name, b.tolist(), np.asarray(t2).dtype.name)
        )
    return out


@program()
def prog_uin_save_load(T: Any) -> Any:
    buf = io.BytesIO()
    data = {n: T.tensor([1, 2, 3], dtype=d) for n, d in zip(_NAMES, _dts(T), strict=True)}
    data["big"] = T.tensor([2**64 - 1], dtype=T.uint64)
    T.save(data, buf)
    buf.seek(0)
    back = T.load(buf)
    return {k: (v, v.dtype) for k, v in back.items()}


@program()
def prog_uin_checkpoint_dtype_table(T: Any) -> Any:
    # the table a safetensors-style loader builds at import time
    table = {
        "BOOL": T.bool,
        "U8": T.uint8,
        "U16": T.uint16,
        "U32": T.uint32,
        "U64": T.uint64,
        "I64": T.int64,
        "F16": T.float16,
        "F32": T.float32,
    }
    raw = np.arange(6, dtype=np.uint32).tobytes()
    t = T.frombuffer(bytearray(raw), dtype=table["U32"])
    return {k: str(v) for k, v in table.items()}, t, t.dtype, t.view(T.int32)


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
