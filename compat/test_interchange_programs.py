"""Programs on memory interchange: DLPack (`torch.from_dlpack`, `Tensor.__dlpack__`,
`torch.utils.dlpack`) and `torch.utils.swap_tensors`' weak-reference checks. Each program returns
what it sees and the harness compares it with torch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


@program()
def prog_ic_from_dlpack_numpy_shares_memory(T: Any) -> Any:
    a = np.arange(4.0)
    t = T.from_dlpack(a)
    t[0] = 9
    h = T.from_dlpack(np.ones(2, dtype=np.float16))
    s = T.from_dlpack(np.ones(6)[::2])
    return a.tolist(), t.dtype, h.dtype, s.stride(), T.from_dlpack(np.array([True, False])).dtype


@program()
def prog_ic_from_dlpack_tensor_own_version_counter(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    y = T.from_dlpack(x)
    same = y.data_ptr() == x.data_ptr()
    x.add_(1)
    sl = T.from_dlpack(x[:, 1:])
    row = T.from_dlpack(x[1])
    return (
        same,
        y._version,
        x._version,
        y._base is None,
        y,
        sl.stride(),
        sl.storage_offset(),
        row.untyped_storage().nbytes(),
        T.from_dlpack(x.t()).stride(),
    )


@program()
def prog_ic_from_dlpack_options_and_shapes(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    c = T.from_dlpack(x, copy=True)
    return (
        c.data_ptr() == x.data_ptr(),
        T.from_dlpack(x, device="cpu").shape,
        raises(lambda: T.from_dlpack(x, device="meta")),
        T.from_dlpack(T.tensor(1.0)).shape,
        T.from_dlpack(T.empty(0, 3)).shape,
        T.from_dlpack(T.ones(2, dtype=T.bfloat16)).dtype,
    )


@program()
def prog_ic_dlpack_refusals(T: Any) -> Any:
    r = T.ones(2, requires_grad=True)
    z = T.tensor([1 + 2j]).conj()
    return (
        raises(lambda: r.__dlpack__()),
        raises(lambda: T.from_dlpack(r)),
        raises(lambda: z.__dlpack__()),
        raises(lambda: T.from_dlpack(z)),
        raises(lambda: T.from_dlpack([1, 2])),
        raises(lambda: T.from_dlpack(3)),
    )


@program()
def prog_ic_utils_dlpack_capsules(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    r = T.ones(2, requires_grad=True)
    cap = T.utils.dlpack.to_dlpack(x)
    back = T.utils.dlpack.from_dlpack(cap)
    back[0, 0] = 5
    from_rg = T.from_dlpack(T.utils.dlpack.to_dlpack(r))
    return (
        type(cap).__name__,
        x[0, 0].item(),
        raises(lambda: T.from_dlpack(cap)),
        from_rg.requires_grad,
        T.utils.dlpack.from_dlpack(x).shape,
        type(x.__dlpack__(max_version=(1, 0))).__name__,
        x.__dlpack_device__(),
        int(T.utils.dlpack.DLDeviceType.kDLCPU),
    )


@program()
def prog_ic_swap_tensors_views_and_weakrefs(T: Any) -> Any:
    import weakref

    x = T.zeros(2, 3)
    a, b = x[0], x[1]
    a.fill_(1)
    swapped = T.utils.swap_tensors(a, b)
    c = T.ones(3) * 2
    keep = weakref.ref(c)
    p = T.ones(3, requires_grad=True)
    q = p * 2
    q.retain_grad()
    return (
        swapped,
        a,
        b,
        a._base is x,
        raises(lambda: T.utils.swap_tensors(c, T.ones(3))),
        keep() is c,
        raises(lambda: T.utils.swap_tensors(q, T.zeros(3))),
    )


@program()
def prog_ic_small_exports(T: Any) -> Any:
    calls: list[str] = []

    class Logged(T.Tensor):
        @classmethod
        def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            calls.append(getattr(func, "__name__", "?"))
            return super().__torch_function__(func, types, args, kwargs or {})

    s = T.ones(2).as_subclass(Logged)
    with T.DisableTorchFunctionSubclass():
        a = s + 1
    with T.DisableTorchFunction():
        b = s * 2
    x = T.zeros(4)
    y = T.as_strided_(x, (2,), (2,))
    try:
        T.nn.functional.assert_int_or_pair([1, 2, 3], "kernel_size", "{} must be int or pair")
        msg = None
    except AssertionError as e:
        msg = str(e)
    return (
        type(a).__name__,
        type(b).__name__,
        calls,
        y is x,
        x.shape,
        x.stride(),
        msg,
        T.func.debug_unwrap(x) is x,
        [issubclass(e, RuntimeError) for e in (T.OutOfMemoryError, T.AcceleratorError)],
        [issubclass(e, RuntimeError) for e in (T.FatalError, T.JITException)],
        T.JITException is T.jit.Error,
        T.to_dlpack is T.utils.dlpack.to_dlpack or callable(T.to_dlpack),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
