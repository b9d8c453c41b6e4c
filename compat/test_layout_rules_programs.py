"""Programs on the dtype and memory layout of elementwise results: `where`'s bool condition
takes no part in type promotion (its values alone decide the dtype, Python numbers included),
and results follow torch's TensorIterator layout rules over transposed, permuted,
channels-last, sliced and mixed-layout operands. Each program returns values, dtypes, strides
and gradients, compared with torch's by the harness.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


@program()
def prog_lr_where_condition_not_promoted(T: Any) -> Any:
    c = T.tensor([True, False, True])
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.where(c, a, T.tensor(5, dtype=T.int16))
    saved = y.grad_fn._saved_condition
    y.sum().backward()
    out = [y, saved, saved.dtype, a.grad]
    u8 = T.tensor([1, 2, 3], dtype=T.uint8)
    i8 = T.tensor([1, 2, 3], dtype=T.int8)
    h = T.tensor([1, 2, 3], dtype=T.float16)
    for x, z in (
        (u8, T.tensor(-1)),
        (i8, 300.5),
        (T.tensor(1.5, dtype=T.float64), h),
        (2, 3.5),
        (True, False),
        (u8, i8),
        (h, T.tensor([1.0, 2.0, 3.0], dtype=T.float64)),
        (T.tensor([1, 2, 3], dtype=T.uint16), T.tensor([4, 5, 6], dtype=T.uint16)),
        (T.tensor([1, 2, 3], dtype=T.uint32), 7),
    ):
        r = T.where(c, x, z)
        out.append((r, r.dtype))
    out.append(raises(lambda: T.where(c, T.tensor([1, 2, 3], dtype=T.uint16), i8)))
    out.append(raises(lambda: T.where(c.int(), a, 0.0)))
    return out


@program()
def prog_lr_where_large_masks(T: Any) -> Any:
    g = T.Generator().manual_seed(0)
    x = T.randn(70, 80, generator=g, requires_grad=True)
    m = T.rand(70, 80, generator=g) > 0.4
    nz = T.tensor(-0.0)
    y = T.where(m, x, nz) + T.where(~m, x.double(), float("nan")).nan_to_num(0.0)
    y.sum().backward()
    half = T.where(m, x.half(), T.zeros((), dtype=T.float16))
    return y, y.dtype, x.grad, half, T.where(m, x.detach().t().t(), x.detach().t().t() * 2)


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
