"""Tensor-API test-suite programs: the behaviours torch's test/test_torch.py (TestTorch,
TestTorchDeviceType) and test/test_serialization.py pin down for Tensor methods, written as
small programs of our own: attributes (size/stride/contiguity/element sizes, T/mT/H/mH),
new_* constructors, type()/type_as/to() overloads, copy_ broadcasting and casting, Python
protocol methods (__bool__/__int__/__float__/__index__/__len__/__iter__/__contains__/__hash__),
item/tolist, numpy() and from_numpy, repr/str, set_/resize_/storage sharing, deepcopy/pickle,
save/load, requires_grad_, apply_/map_, fill_/zero_, masked_fill, where, clamp, nan_to_num, the
in-place random samplers' argument checks and register_hook errors. Each `prog(T)` runs on
torch and on shadowgrad and everything it returns, raises or warns is compared by
test_realistic_programs_3's harness.
"""

from __future__ import annotations

import copy
import io
import pickle
import warnings
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import normalize_message, raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _tn(x: Any) -> Any:
    """x's Python type name with its value (ints, floats, bools and complexes must agree)."""
    return (type(x).__name__, x)


def _warned(fn: Any) -> Any:
    """(fn()'s result or its error, the messages of the warnings it issued)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = raises(fn)
    return r, [(i.category.__name__, normalize_message(str(i.message))) for i in w]


# --- attributes --------------------------------------------------------------------------------


@program()
def prog_tts_size_stride_dim_errors(T: Any) -> Any:
    x = _t(T, 2, 3, 4)
    return (
        x.size(),
        x.size(-1),
        x.size(0),
        raises(lambda: x.size(3)),
        raises(lambda: x.size(-4)),
        x.stride(),
        x.stride(-1),
        raises(lambda: x.stride(3)),
        raises(lambda: T.tensor(1.0).size(0)),
        raises(lambda: T.tensor(1.0).stride(0)),
        T.tensor(1.0).size(),
        T.tensor(1.0).stride(),
        T.tensor(1.0).size(-1) if False else raises(lambda: T.tensor(1.0).size(-1)),
        _tn(x.dim()),
        _tn(x.ndim),
        _tn(x.numel()),
        _tn(x.nelement()),
        x.ndimension(),
        type(x.size()).__name__,
        type(x.shape).__name__,
        raises(lambda: x.size("a")),
    )


@program()
def prog_tts_element_size_itemsize_nbytes(T: Any) -> Any:
    out = {}
    for d in (
        T.bool,
        T.uint8,
        T.int8,
        T.int16,
        T.int32,
        T.int64,
        T.float16,
        T.float32,
        T.float64,
        T.complex64,
        T.complex128,
    ):
        x = T.zeros(2, 3, dtype=d)
        out[str(d)] = (x.element_size(), x.itemsize, x.nbytes, x[:, 1:].nbytes, d.itemsize)
    out["empty"] = T.empty(0, 5).nbytes
    out["expanded"] = T.zeros(1, 3).expand(4, 3).nbytes
    return out


@program()
def prog_tts_contiguity_and_memory_format(T: Any) -> Any:
    x = T.arange(24.0).reshape(1, 2, 3, 4)
    cl = x.contiguous(memory_format=T.channels_last)
    t = x.transpose(2, 3)
    return (
        x.is_contiguous(),
        x.is_contiguous(memory_format=T.channels_last),
        cl.is_contiguous(),
        cl.is_contiguous(memory_format=T.channels_last),
        cl.stride(),
        t.is_contiguous(),
        t.stride(),
        t.contiguous().stride(),
        x[:, :, :, ::2].is_contiguous(),
        x[:, :, :, ::2].stride(),
        x[:, :, :, ::2].storage_offset(),
        x[0, 1].storage_offset(),
        x[..., 1:].storage_offset(),
        T.empty(0, 3).is_contiguous(),
        T.empty(3, 1).t().is_contiguous(),
        T.zeros(3).expand(2, 3).is_contiguous(),
        T.zeros(3).expand(2, 3).stride(),
        raises(lambda: x.reshape(2, 3, 4).is_contiguous(memory_format=T.channels_last)),
        raises(lambda: T.zeros(2, 3).contiguous(memory_format=T.channels_last)),
        x.clone(memory_format=T.channels_last).stride(),
        t.clone().stride(),
        t.clone(memory_format=T.preserve_format).stride(),
        t.clone(memory_format=T.contiguous_format).stride(),
        cl.clone().stride(),
    )


@program()
def prog_tts_device_layout_leaf_attributes(T: Any) -> Any:
    x = _t(T, 2, 3, rg=True)
    y = x * 2
    return (
        x.device,
        str(x.device),
        x.device.type,
        x.device.index,
        x.is_cpu,
        x.is_cuda,
        str(x.layout),
        x.is_sparse,
        x.is_quantized,
        x.is_meta,
        x.is_complex(),
        x.is_floating_point(),
        T.zeros(2, dtype=T.int32).is_signed(),
        T.zeros(2, dtype=T.uint8).is_signed(),
        T.zeros(2, dtype=T.bool).is_signed(),
        x.is_leaf,
        y.is_leaf,
        x.detach().is_leaf,
        y.detach().is_leaf,
        x.grad_fn,
        y.grad_fn,
        x.requires_grad,
        y.detach().requires_grad,
        x.get_device(),
        x.is_inference(),
        x.is_conj(),
        x.is_neg(),
        x.is_shared(),
        x.data_ptr() == x.untyped_storage().data_ptr(),
        x[1].data_ptr() - x.data_ptr(),
    )


@program()
def prog_tts_transpose_properties_on_wrong_dims(T: Any) -> Any:
    v = T.arange(3.0)
    s = T.tensor(2.0)
    m = T.arange(6.0).reshape(2, 3)
    b = T.arange(24.0).reshape(2, 3, 4)
    c = T.tensor([[1 + 2j, 3j], [4.0, 5 - 1j]])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        vt = v.T
        st = s.T
        bt = b.T
    return (
        vt,
        st,
        bt.shape,
        [normalize_message(str(i.message)) for i in w],
        m.T,
        m.mT,
        b.mT.shape,
        raises(lambda: v.mT),
        raises(lambda: s.mT),
        raises(lambda: v.mH),
        raises(lambda: v.H),
        raises(lambda: b.H),
        s.H,
        m.H,
        c.H,
        c.mH,
        T.zeros(2, 3, 4, dtype=T.complex64).mH.shape,
        raises(lambda: v.adjoint()),
        m.adjoint(),
        raises(lambda: m.t_() if False else b.t()),
        raises(lambda: b.t_()),
        s.t(),
        v.t(),
    )


# --- new_* -------------------------------------------------------------------------------------


@program()
def prog_tts_new_constructors_inherit_dtype(T: Any) -> Any:
    x = T.zeros(2, dtype=T.float64, requires_grad=True)
    i = T.zeros(2, dtype=T.int16)
    return (
        x.new_zeros(3),
        x.new_zeros((2, 2)),
        x.new_zeros([2, 1], dtype=T.int32),
        x.new_ones(2, 2),
        x.new_full((2,), 7),
        i.new_full((2,), 7),
        i.new_full((2,), 2.5),
        x.new_full((2,), True),
        x.new_empty(0, 3).shape,
        x.new_empty((2, 3)).dtype,
        x.new_zeros(2).requires_grad,
        x.new_zeros(2, requires_grad=True).requires_grad,
        x.new_tensor([1, 2]),
        i.new_tensor([1.5, 2]),
        x.new_tensor([1, 2], dtype=T.int8),
        x.new_tensor(3),
        i.new_tensor(True),
        x.new_ones(()),
        raises(lambda: x.new_zeros(-1)),
        raises(lambda: x.new_full((2,), "a")),
        raises(lambda: x.new_ones(2, 3.0)),
        raises(lambda: i.new_zeros(2, requires_grad=True)),
        x.new_empty_strided((2, 3), (1, 2)).stride(),
    )


@program()
def prog_tts_new_tensor_from_tensor_warns_and_copies(T: Any) -> Any:
    x = T.ones(3)
    src = T.arange(3.0, requires_grad=True)
    r, w = _warned(lambda: x.new_tensor(src))
    r2, w2 = _warned(lambda: T.tensor(src))
    r3, w3 = _warned(lambda: T.as_tensor(src))
    r[0] = 10.0 if not r.requires_grad else r[0]
    return r, w, r.requires_grad, r.is_leaf, src, r2, w2, r3 is src, w3


# --- type() / type_as / to() -------------------------------------------------------------------


@program()
def prog_tts_type_strings_and_casts(T: Any) -> Any:
    x = T.tensor([1.5, -2.5, 0.0])
    return (
        x.type(),
        x.double().type(),
        x.half().type(),
        x.int().type(),
        x.long().type(),
        x.short().type(),
        x.char().type(),
        x.byte().type(),
        x.bool().type(),
        x.cfloat().type(),
        x.cdouble().type(),
        x.type(T.int32),
        x.type("torch.DoubleTensor"),
        x.type("torch.LongTensor"),
        raises(lambda: x.type("torch.NoSuchTensor")),
        raises(lambda: x.type("float")),
        x.type(T.float32) is x,
        x.type("torch.FloatTensor") is x,
        x.type_as(T.zeros(1, dtype=T.int8)),
        x.type_as(x) is x,
        raises(lambda: x.type_as(1)),
        x.type(T.DoubleTensor),
    )


@program()
def prog_tts_to_overloads(T: Any) -> Any:
    x = T.tensor([1.25, 2.5], requires_grad=True)
    o = T.zeros(1, dtype=T.float64)
    y = x.to(T.float64)
    return (
        y,
        y.grad_fn,
        x.to(T.float32) is x,
        x.to("cpu") is x,
        x.to(T.device("cpu")) is x,
        x.to("cpu", T.float64).dtype,
        x.to(o).dtype,
        x.to(o, copy=True).dtype,
        x.to(T.float32, copy=True) is x,
        x.to(dtype=T.int32),
        x.to(device="cpu", dtype=T.float16),
        x.to(T.float32, non_blocking=True) is x,
        x.to(memory_format=T.contiguous_format) is x,
        raises(lambda: x.to("nope")),
        raises(lambda: x.to(1.5)),
        raises(lambda: x.to(T.float32, T.float64)),
        raises(lambda: x.to()),
        x.to(T.complex64).dtype,
        x.to(T.complex64).grad_fn,
        T.zeros(2, 2).t().to(T.float64).stride(),
    )


# --- copy_ -------------------------------------------------------------------------------------


@program()
def prog_tts_copy_broadcast_dtype_and_errors(T: Any) -> Any:
    a = T.zeros(2, 3)
    a.copy_(T.tensor([1, 2, 3]))
    b = T.zeros(2, 3, dtype=T.int32)
    b.copy_(T.tensor([[1.7], [-2.7]]))
    c = T.zeros(3, dtype=T.bool)
    c.copy_(T.tensor([0.0, 0.1, -2.0]))
    d = T.zeros(2)
    return (
        a,
        a._version,
        b,
        c,
        raises(lambda: d.copy_(T.zeros(3))),
        raises(lambda: d.copy_(T.zeros(2, 2))),
        raises(lambda: T.zeros(1).copy_(T.zeros(2))),
        raises(lambda: d.copy_(2.0)),
        raises(lambda: T.zeros(1).expand(3).copy_(T.ones(3))),
        d.copy_(T.zeros(())),
        T.empty(0).copy_(T.empty(0)),
        T.empty(0, 2).copy_(T.empty(2)),
    )


@program()
def prog_tts_copy_complex_to_real_warns(T: Any) -> Any:
    d = T.zeros(2)
    r, w = _warned(lambda: d.copy_(T.tensor([1 + 2j, 3 - 1j])))
    i = T.zeros(2, dtype=T.int64)
    r2, w2 = _warned(lambda: i.copy_(T.tensor([1.5 + 2j, 3 - 1j])))
    r3, w3 = _warned(lambda: T.zeros(2, dtype=T.complex64).copy_(T.tensor([1.5, 2.0])))
    r4, w4 = _warned(lambda: T.tensor([1 + 2j]).to(T.float32))
    r5, w5 = _warned(lambda: T.tensor([1 + 2j]).float())
    return r, w, r2, w2, r3, w3, r4, w4, r5, w5


@program()
def prog_tts_copy_grad_flows_to_source_and_destination(T: Any) -> Any:
    src = _t(T, 3, seed=1, rg=True)
    base = _t(T, 2, 3, seed=2, rg=True)
    dst = base * 1
    dst.copy_(src)
    (dst * T.tensor([[1.0], [2.0]])).sum().backward()
    s64 = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    d32 = T.zeros(2, requires_grad=True).clone()
    d32.copy_(s64)
    d32.sum().backward()
    return dst.grad_fn, src.grad, base.grad, d32.grad_fn, s64.grad


@program()
def prog_tts_copy_into_leaf_requiring_grad(T: Any) -> Any:
    x = T.zeros(2, requires_grad=True)
    e = raises(lambda: x.copy_(T.ones(2)))
    with T.no_grad():
        x.copy_(T.ones(2))
    return e, x, x._version, x.is_leaf, x.grad_fn


# --- Python protocol methods -------------------------------------------------------------------


@program()
def prog_tts_bool_int_float_index_conversions(T: Any) -> Any:
    return (
        raises(lambda: bool(T.tensor([1, 2]))),
        raises(lambda: bool(T.tensor([]))),
        bool(T.tensor([0.0])),
        bool(T.tensor([[3]])),
        bool(T.tensor(float("nan"))),
        raises(lambda: int(T.tensor([1, 2]))),
        _tn(int(T.tensor([[-2.7]]))),
        _tn(int(T.tensor(True))),
        raises(lambda: int(T.tensor(float("nan")))),
        raises(lambda: int(T.tensor(float("inf")))),
        raises(lambda: float(T.tensor([1.0, 2.0]))),
        _tn(float(T.tensor(3))),
        raises(lambda: float(T.tensor(1 + 2j))),
        _tn(complex(T.tensor(1.5))),
        raises(lambda: int(T.tensor(1 + 2j))),
        _tn(T.tensor(5).__index__()),
        raises(lambda: T.tensor(5.0).__index__()),
        raises(lambda: T.tensor([5]).__index__()),
        raises(lambda: [1, 2, 3][T.tensor(1.0)]),
        [1, 2, 3][T.tensor(1)],
        raises(lambda: range(T.tensor([2, 3]))),
        list(range(T.tensor(3))),
        raises(lambda: hex(T.tensor(1.0))),
        hex(T.tensor(255)),
        _tn(T.tensor(True).__index__()),
    )


@program()
def prog_tts_len_iter_contains(T: Any) -> Any:
    s = T.tensor(3.0)
    m = T.arange(6).reshape(2, 3)
    it = list(m)
    return (
        raises(lambda: len(s)),
        len(m),
        len(T.empty(0, 4)),
        raises(lambda: iter(s)),
        raises(lambda: list(s)),
        it,
        [r.is_contiguous() for r in it],
        list(T.empty(0, 2)),
        3 in m,
        7 in m,
        T.tensor(4) in m,
        raises(lambda: T.tensor([1, 2]) in m),
        T.tensor([1, 2, 3]) in m,
        raises(lambda: "a" in m),
        raises(lambda: [1, 2] in m),
        raises(lambda: None in m),
        2.0 in m.float(),
        float("nan") in T.tensor([float("nan")]),
        True in T.tensor([True, False]),
    )


@program()
def prog_tts_hash_and_eq_with_none(T: Any) -> Any:
    a = T.ones(2)
    b = T.ones(2)
    s = {a, b}
    d = {a: 1}
    return (
        len(s),
        d[a],
        hash(a) == id(a),
        a == None,  # noqa: E711
        a != None,  # noqa: E711
        raises(lambda: a < None),
        raises(lambda: a + None),
        a.__eq__(None),
        a.__eq__("x"),
        raises(lambda: a == "x"),
        raises(lambda: a == [1.0, 1.0]),
        a == (1.0, 1.0) if False else raises(lambda: a == (1.0, 1.0)),
        a.eq(1),
        raises(lambda: a.eq(None)),
    )


# --- item / tolist -----------------------------------------------------------------------------


@program()
def prog_tts_item_and_tolist_types(T: Any) -> Any:
    out = {}
    for d in (
        T.bool,
        T.uint8,
        T.int8,
        T.int32,
        T.int64,
        T.float16,
        T.float32,
        T.float64,
        T.complex64,
    ):
        x = T.tensor([[1, 0], [3, 2]]).to(d)
        out[str(d)] = (
            _tn(x[1, 0].item()),
            [[type(v).__name__ for v in r] for r in x.tolist()],
            x.tolist(),
            x[0, 0].tolist(),
            type(x[0, 0].tolist()).__name__,
        )
    out["err"] = (
        raises(lambda: T.tensor([1, 2]).item()),
        raises(lambda: T.empty(0).item()),
        T.tensor([[[2.5]]]).item(),
        T.empty(0, 2).tolist(),
        T.empty(2, 0).tolist(),
        T.tensor(0.1, dtype=T.float32).item(),
        T.tensor(0.1, dtype=T.float16).item(),
        T.tensor(float("-inf")).item(),
        T.tensor([1.0], requires_grad=True).item(),
        T.tensor([1.0], requires_grad=True).tolist(),
    )
    return out


# --- numpy() / from_numpy ----------------------------------------------------------------------


@program()
def prog_tts_numpy_errors_and_sharing(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    y = T.zeros(3)
    n = y.numpy()
    n[0] = 5.0
    c = T.tensor([1 + 1j]).conj()
    return (
        raises(lambda: x.numpy()),
        raises(lambda: (x * 2).numpy()),
        x.numpy(force=True),
        x.detach().numpy(),
        y,
        n.dtype.name,
        c.resolve_conj().numpy(),
        T.zeros(2, 3).t().numpy().strides,
        T.zeros(2, 3)[:, 1:].numpy().strides,
        T.tensor(True).numpy().dtype.name,
        T.tensor(2).numpy().shape,
        np.asarray(T.ones(2, dtype=T.float16)).dtype.name,
        raises(lambda: np.asarray(T.ones(2, requires_grad=True))),
    )


@program()
def prog_tts_from_numpy_sharing_and_warnings(T: Any) -> Any:
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    t = T.from_numpy(a)
    a[0, 0] = 100.0
    t[1, 1] = -1.0
    ro = np.arange(3.0)
    ro.flags.writeable = False
    r, w = _warned(lambda: T.from_numpy(ro))
    r2, w2 = _warned(lambda: T.as_tensor(ro))
    r3, w3 = _warned(lambda: T.tensor(ro))
    return (
        t,
        a,
        t.dtype,
        r,
        [c for c, _ in w],
        [m[:80] for _, m in w],
        r2,
        len(w2),
        r3,
        w3,
        raises(lambda: T.from_numpy(np.array(["a"]))),
        raises(lambda: T.from_numpy([1, 2])),
        raises(lambda: T.from_numpy(np.arange(4.0)[::-1])),
        T.from_numpy(np.arange(6.0).reshape(2, 3).T).stride(),
        T.from_numpy(np.arange(6.0)[::2]).stride(),
        T.from_numpy(np.zeros((2, 0))).shape,
        T.from_numpy(np.array(3, dtype=np.int16)),
        raises(lambda: T.from_numpy(np.array([1], dtype=np.object_))),
        T.from_numpy(np.array([True])).dtype,
    )


@program()
def prog_tts_conj_bit_views(T: Any) -> Any:
    c = T.tensor([[1 + 2j, 3j], [4.0, 5 - 1j]])
    return c.conj().is_conj(), c.H.is_conj(), raises(lambda: c.conj().numpy())


@program()
def prog_tts_masked_fill_inplace_mask_too_big(T: Any) -> Any:
    x = T.zeros(2, 3)
    return raises(lambda: x.masked_fill_(T.ones(3, 3, dtype=T.bool), 1.0)), x


@program(
    xfail="Tensor methods raise the function form's argument errors: Python's arity message "
    "counts self ('clone() takes 1 positional argument but 2 were given'; torch: 'takes 0 "
    "positional arguments but 1 was given'), and clamp's parser error lists the function's "
    "overloads (with input) instead of the method's"
)
def prog_tts_method_form_argument_errors(T: Any) -> Any:
    x = T.zeros(2, 3)
    return (
        raises(lambda: x.clone(T.contiguous_format)),
        raises(lambda: x.contiguous(T.channels_last)),
        raises(lambda: x.uniform_(0, 1, 2)),
        raises(lambda: x.clamp(T.tensor([0.0]), 1.0)),
        raises(lambda: x.numpy(1)),
        raises(lambda: x.item(1)),
    )


# --- repr / str ------------------------------------------------------------------------------


@program()
def prog_tts_repr_dtypes_and_grad_fn(T: Any) -> Any:
    x = T.tensor([1.5, -2.0], requires_grad=True)
    return [
        repr(T.tensor([1, 2])),
        repr(T.tensor([1, 2], dtype=T.int32)),
        repr(T.tensor([1.0, 2.0], dtype=T.float64)),
        repr(T.tensor([1.0, 2.0], dtype=T.float16)),
        repr(T.tensor([True, False])),
        repr(T.tensor([1 + 2j, -1.5j])),
        repr(T.tensor([1 + 2j], dtype=T.complex128)),
        repr(T.tensor([], dtype=T.int8)),
        repr(T.empty(0, 3)),
        repr(T.empty(2, 0, dtype=T.float64)),
        repr(T.tensor(3)),
        repr(T.tensor(3.0, dtype=T.float64)),
        repr(x),
        repr(x * 2),
        repr(x.sum()),
        repr(x[0]),
        repr(x.detach()),
        str(x.mean()),
        repr(T.nn.Parameter(T.ones(2))),
        repr(T.tensor([float("nan"), float("inf"), -float("inf"), 1.0])),
        repr(T.tensor([1e-10, 1e10])),
        repr(T.tensor([123456789.0])),
        repr(T.tensor([0.1, 0.25], dtype=T.float64)),
        repr(T.arange(2000)),
        repr(T.zeros(2, 3, dtype=T.uint8)),
        repr(T.tensor([1.0]).to(T.float64).requires_grad_()),
    ]


# --- set_ / resize_ / storage ------------------------------------------------------------------


@program()
def prog_tts_set_and_storage_sharing(T: Any) -> Any:
    a = T.arange(6.0)
    b = T.empty(0)
    b.set_(a)
    b[0] = 100.0
    c = T.empty(0)
    c.set_(a.untyped_storage(), 1, (2, 2), (1, 2))
    d = T.empty(3)
    d.set_()
    return (
        a,
        b,
        b.shape,
        c,
        c.storage_offset(),
        c.stride(),
        d.shape,
        d.numel(),
        a.untyped_storage().nbytes(),
        a[2:].untyped_storage().nbytes(),
        a[2:].untyped_storage().data_ptr() == a.untyped_storage().data_ptr(),
        raises(lambda: T.empty(0).set_(T.zeros(2, dtype=T.int32))),
        raises(lambda: T.zeros(2, requires_grad=True).set_(a)),
        len(a.untyped_storage()),
        a.storage_offset(),
    )


@program()
def prog_tts_resize_and_resize_as(T: Any) -> Any:
    a = T.arange(6.0)
    a.resize_(2, 3)
    b = T.arange(4.0)
    b.resize_(2)
    c = T.zeros(2, 2)
    c.resize_as_(T.ones(3, 1))
    e = T.tensor([1.0, 2.0])
    return (
        a,
        a.shape,
        b,
        c.shape,
        raises(lambda: T.ones(2, requires_grad=True).resize_(3)),
        raises(lambda: T.zeros(2).resize_(-1)),
        raises(lambda: T.zeros(2, 3)[:, 1].resize_(6).shape),
        raises(lambda: T.zeros(2).resize_(2, 1.0)),
        e.resize_(2, 1).shape,
        e.resize_(0).shape,
        e.resize_(0).numel(),
        raises(lambda: T.zeros(2, 3).t().resize_as_(T.zeros(3, 2), memory_format=T.channels_last)),
        T.zeros(1, 2, 3, 4).resize_(1, 2, 3, 4, memory_format=T.channels_last).stride(),
    )


# --- deepcopy / pickle -------------------------------------------------------------------------


@program()
def prog_tts_deepcopy_leaf_with_grad_and_non_leaf_error(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    y = copy.deepcopy(x)
    nl = x * 2
    shared = [x, x]
    dup = copy.deepcopy(shared)
    v = x.detach()[1:]
    vv = copy.deepcopy([x.detach(), v])
    vv[1][0] = 50.0
    return (
        y,
        y.grad,
        y.requires_grad,
        y.is_leaf,
        y is x,
        raises(lambda: copy.deepcopy(nl)),
        dup[0] is dup[1],
        vv[0],
        copy.copy(x) is x if False else type(copy.copy(x)).__name__,
        copy.deepcopy(T.nn.Parameter(T.ones(2))).__class__.__name__,
    )


@program()
def prog_tts_pickle_round_trip(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    y = pickle.loads(pickle.dumps(x))
    p = pickle.loads(pickle.dumps(T.nn.Parameter(T.ones(2))))
    i = pickle.loads(pickle.dumps(T.arange(6).reshape(2, 3).t()))
    return (
        y,
        y.grad,
        y.requires_grad,
        type(p).__name__,
        p.requires_grad,
        i,
        i.stride(),
        raises(lambda: pickle.dumps(x * 2)),
    )


# --- save / load -------------------------------------------------------------------------------


@program()
def prog_tts_save_load_dict_and_shared_views(T: Any) -> Any:
    base = T.arange(8.0)
    v1 = base[2:6]
    v2 = base.view(2, 4)
    buf = io.BytesIO()
    T.save({"base": base, "v1": v1, "v2": v2, "n": 3, "l": [T.tensor(1)]}, buf)
    buf.seek(0)
    d = T.load(buf)
    d["base"][3] = -7.0
    return (
        sorted(d),
        d["v1"],
        d["v2"],
        d["v1"].storage_offset(),
        d["v2"].stride(),
        d["n"],
        d["l"],
        d["v1"].untyped_storage().data_ptr() == d["base"].untyped_storage().data_ptr(),
    )


@program()
def prog_tts_save_load_requires_grad_and_dtypes(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2, dtype=T.float64))
    x = T.tensor([1.0], requires_grad=True)
    ts = [T.tensor([1, 0], dtype=d) for d in (T.bool, T.uint8, T.int16, T.float16, T.complex64)]
    buf = io.BytesIO()
    T.save([p, x, ts, T.empty(0, 3), T.tensor(5)], buf)
    buf.seek(0)
    q, y, us, e, s = T.load(buf, weights_only=True)
    return (
        type(q).__name__,
        q.requires_grad,
        y.requires_grad,
        y.is_leaf,
        us,
        e.shape,
        s,
        raises(lambda: T.save(x * 2, io.BytesIO())),
    )


@program()
def prog_tts_load_weights_only_rejects_arbitrary_objects(T: Any) -> Any:
    class Thing:
        pass

    buf = io.BytesIO()
    r = raises(lambda: T.save({"t": Thing()}, buf))
    return type(r).__name__


# --- requires_grad_ / apply_ / map_ / fill_ / zero_ ----------------------------------------------


@program()
def prog_tts_requires_grad_on_non_float(T: Any) -> Any:
    return (
        raises(lambda: T.tensor([1, 2]).requires_grad_()),
        raises(lambda: T.tensor([True]).requires_grad_(True)),
        T.tensor([1, 2]).requires_grad_(False).requires_grad,
        raises(lambda: T.tensor([1, 2], requires_grad=True)),
        raises(lambda: T.zeros(2, dtype=T.int32, requires_grad=True)),
        raises(lambda: T.arange(3, requires_grad=True)),
        T.tensor([1j]).requires_grad_().requires_grad,
        T.tensor([1.0], dtype=T.float16).requires_grad_().requires_grad,
        raises(lambda: setattr(T.tensor([1]), "requires_grad", True)),
        raises(lambda: (T.ones(2, requires_grad=True) * 2).requires_grad_(False)),
        (T.ones(2, requires_grad=True) * 2).requires_grad_(True).requires_grad,
        raises(lambda: T.ones(2).requires_grad_("yes")),
    )


@program()
def prog_tts_apply_and_map(T: Any) -> Any:
    a = T.tensor([1.0, -2.0, 3.0])
    r = a.apply_(lambda v: v * 10)
    b = T.tensor([1, 2, 3])
    b.apply_(lambda v: v + 0.7)
    c = T.tensor([1.0, 2.0, 3.0])
    c.map_(T.tensor([10.0, 20.0, 30.0]), lambda u, v: u * v + 1)
    d = T.zeros(2, 3)
    d.map_(T.tensor([1.0, 2.0, 3.0]), lambda u, v: v)
    g = T.ones(2, requires_grad=True)
    return (
        r is a,
        a,
        b,
        c,
        d,
        raises(lambda: g.apply_(lambda v: v)),
        raises(lambda: T.zeros(3).map_(T.zeros(2), lambda u, v: u)),
        raises(lambda: T.zeros(3).apply_(lambda v: "x")),
        raises(lambda: T.zeros(3).apply_(1)),
    )


@program()
def prog_tts_fill_and_zero(T: Any) -> Any:
    a = T.zeros(2, 3)
    a.fill_(2.5)
    i = T.zeros(3, dtype=T.int32)
    i.fill_(2.9)
    b = T.zeros(3, dtype=T.bool)
    b.fill_(3)
    x = T.ones(3, requires_grad=True)
    y = x * 1
    y.fill_(T.tensor(4.0, requires_grad=True))
    z = x * 1
    z.zero_()
    z.sum().backward()
    v = T.arange(6.0).reshape(2, 3)
    v[:, 1].fill_(-1)
    return (
        a,
        i,
        b,
        y,
        y.grad_fn,
        z.grad_fn,
        x.grad,
        v,
        raises(lambda: a.fill_(T.tensor([1.0, 2.0]))),
        raises(lambda: x.fill_(1.0)),
        raises(lambda: x.zero_()),
        T.zeros(2, dtype=T.uint8).fill_(-1),
        raises(lambda: T.zeros(2, dtype=T.int8).fill_(1e30)),
        T.zeros(2, dtype=T.complex64).fill_(1 + 2j),
        raises(lambda: T.zeros(2).fill_(1 + 2j)),
        raises(lambda: T.zeros(2).fill_("a")),
        T.zeros(1).expand(3).fill_(2.0)
        if False
        else raises(lambda: T.zeros(1).expand(3).fill_(2.0)),
    )


# --- masked_fill / where / clamp / nan_to_num ----------------------------------------------------


@program()
def prog_tts_masked_fill_value_errors(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    m = T.tensor([True, False, True])
    g = T.arange(3.0, requires_grad=True)
    v = T.tensor(5.0, requires_grad=True)
    y = g.masked_fill(m, v)
    y.sum().backward()
    return (
        x.masked_fill(m, -1),
        x.masked_fill(m, T.tensor(9.0)),
        raises(lambda: x.masked_fill(m, T.tensor([1.0, 2.0, 3.0]))),
        raises(lambda: x.masked_fill(m.float(), 1.0)),
        raises(lambda: x.masked_fill(m.long(), 1.0)),
        raises(lambda: x.masked_fill(T.tensor([True, False]), 1.0)),
        x.masked_fill(T.ones(2, 1, dtype=T.bool), 2),
        T.zeros(3, dtype=T.int64).masked_fill(m, 2.7),
        raises(lambda: T.zeros(3, dtype=T.int64).masked_fill(m, T.tensor(2.7))),
        raises(lambda: x.masked_fill(m, T.tensor([2.0]))),
        T.zeros(3).masked_fill(m, T.tensor(2, dtype=T.int64)),
        T.zeros(3, dtype=T.bool).masked_fill(m, 1),
        y,
        y.grad_fn,
        g.grad,
        v.grad,
        x.masked_fill(m, float("nan")),
    )


@program()
def prog_tts_where_with_scalars(T: Any) -> Any:
    c = T.tensor([True, False, True])
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.where(c, x, 0.0)
    y.sum().backward()
    i = T.tensor([1, 2, 3])
    return (
        y,
        y.grad_fn,
        x.grad,
        T.where(c, 1, 0),
        T.where(c, 1.0, 0),
        T.where(c, 1, 0.5),
        T.where(c, i, 2.5),
        raises(lambda: T.where(c, i.to(T.int8), 300)),
        T.where(c, i.to(T.int8), 100),
        T.where(c, T.tensor(1.0, dtype=T.float64), T.zeros(3)),
        T.where(c, True, False),
        T.where(c, 1j, 0),
        raises(lambda: T.where(c.float(), 1, 0)),
        raises(lambda: T.where(c.long(), x, 0.0)),
        T.where(c),
        T.where(T.tensor([[0, 1], [2, 0]])),
        c.where(c, 5),
        raises(lambda: T.where(T.tensor([True, False]), x, 0.0)),
        T.where(T.tensor(True), T.zeros(0), 1.0),
        x.where(c, T.tensor(7.0)),
    )


@program()
def prog_tts_clamp_with_tensor_bounds(T: Any) -> Any:
    x = T.tensor([-3.0, -0.5, 0.5, 3.0, float("nan")], requires_grad=True)
    lo = T.tensor([-1.0, 0.0, 0.0, 1.0, 0.0], requires_grad=True)
    hi = T.tensor(2.0, requires_grad=True)
    y = x.clamp(lo, hi)
    y.sum().backward()
    i = T.tensor([1, 5, 9])
    return (
        y,
        y.grad_fn,
        x.grad,
        lo.grad,
        hi.grad,
        T.clamp(i, min=T.tensor([2.0])),
        T.clamp(i, 2.5, 6),
        T.clamp(i, max=4),
        raises(lambda: T.clamp(i)),
        raises(lambda: T.clamp(x.detach(), min=T.tensor([0.0, 1.0]))),
        T.clamp(x.detach(), min=3.0, max=1.0),
        T.clamp(x.detach(), min=T.tensor(3.0), max=T.tensor(1.0)),
        raises(lambda: T.clamp(T.tensor([1 + 1j]), 0, 1)),
        T.clamp(T.tensor([True, False]), min=True)
        if False
        else raises(lambda: T.clamp(T.tensor([True, False]), min=True)),
        T.clamp(i.to(T.uint8), min=-5, max=300)
        if False
        else raises(lambda: T.clamp(i.to(T.uint8), min=-5, max=300)),
        x.detach().clamp(min=float("nan")),
        x.detach().clamp_min(0.0),
        x.detach().clamp_max(T.tensor(0.0)),
        x.detach().clip(-1, 1),
        raises(lambda: x.clamp_(0, 1)),
    )


@program()
def prog_tts_nan_to_num_variants(T: Any) -> Any:
    x = T.tensor([float("nan"), float("inf"), -float("inf"), 1.5], requires_grad=True)
    y = x.nan_to_num()
    y.sum().backward()
    h = T.tensor([float("nan"), float("inf"), -float("inf")], dtype=T.float16)
    c = T.tensor([complex(float("nan"), float("inf")), complex(-float("inf"), 1.0)])
    i = T.tensor([1, 2])
    return (
        y,
        y.grad_fn,
        x.grad,
        x.detach().nan_to_num(nan=0.5, posinf=9.0, neginf=-9.0),
        x.detach().nan_to_num(posinf=1e40),
        h.nan_to_num(),
        c.nan_to_num(),
        c.nan_to_num(nan=1.0, posinf=2.0),
        i.nan_to_num(),
        i.nan_to_num(nan=5.0),
        T.tensor([True]).nan_to_num(),
        T.nan_to_num(x.detach().double(), neginf=1e300),
        raises(lambda: x.nan_to_num_()),
        T.empty(0).nan_to_num(),
    )


# --- random in-place samplers argument checks ----------------------------------------------------


@program()
def prog_tts_random_inplace_argument_checks(T: Any) -> Any:
    x = T.zeros(3)
    return (
        raises(lambda: x.uniform_(1.0, 0.0)),
        raises(lambda: x.uniform_(0.0, float("inf"))),
        raises(lambda: T.zeros(3, dtype=T.int64).uniform_()),
        raises(lambda: x.normal_(0.0, -1.0)),
        raises(lambda: T.zeros(3, dtype=T.int64).normal_()),
        raises(lambda: x.bernoulli_(1.5)),
        raises(lambda: x.bernoulli_(-0.1)),
        raises(lambda: x.bernoulli_(T.tensor([0.5, 2.0, 0.1]))),
        raises(lambda: x.exponential_(-1.0)),
        raises(lambda: x.exponential_(0.0)),
        raises(lambda: x.geometric_(0.0)),
        raises(lambda: x.geometric_(1.5)),
        raises(lambda: x.cauchy_(0.0, -1.0)),
        raises(lambda: x.log_normal_(0.0, -1.0)),
        raises(lambda: x.random_(5, 2)),
        raises(lambda: T.zeros(3, dtype=T.uint8).random_(-1, 5)),
        raises(lambda: T.zeros(3, dtype=T.bool).random_(0, 3)),
        raises(lambda: T.zeros(3, requires_grad=True).uniform_()),
        raises(lambda: T.zeros(3, requires_grad=True).normal_()),
        x.uniform_(2.0, 2.0),
        x.normal_(1.0, 0.0),
        x.bernoulli_(1.0),
        x.bernoulli_(0.0),
        T.zeros(2, dtype=T.int32).bernoulli_(1.0),
        T.zeros(0).normal_(),
        raises(lambda: T.bernoulli(T.tensor([0.5, 1.5]))),
        raises(lambda: T.bernoulli(T.tensor([1, 0]))),
        raises(lambda: T.normal(T.zeros(2), T.tensor([1.0, -1.0]))),
        raises(lambda: T.normal(0.0, -1.0, size=(2,))),
    )


# --- register_hook -------------------------------------------------------------------------------


@program()
def prog_tts_register_hook_errors(T: Any) -> Any:
    x = T.ones(2)
    g = T.ones(2, requires_grad=True)
    return (
        raises(lambda: x.register_hook(lambda g: g)),
        raises(lambda: T.tensor([1]).register_hook(lambda g: g)),
        raises(lambda: x.register_post_accumulate_grad_hook(lambda t: None)),
        raises(lambda: (g * 2).register_post_accumulate_grad_hook(lambda t: None)),
        type(g.register_hook(lambda gr: gr)).__name__,
        raises(lambda: x.retain_grad()),
        g.retain_grad(),
        g.retains_grad,
    )


# --- more attributes and conversions ------------------------------------------------------------


@program()
def prog_tts_scalar_conversions_of_extreme_values(T: Any) -> Any:
    big = T.tensor(2**62)
    return (
        _tn(int(big)),
        _tn(float(big)),
        _tn(big.item()),
        _tn(T.tensor(-0.0).item()),
        T.tensor([-0.0, 0.0]).tolist(),
        _tn(T.tensor(255, dtype=T.uint8).item()),
        _tn(T.tensor(-1).to(T.uint8).item()),
        _tn(T.tensor(65504.0, dtype=T.float16).item()),
        _tn(T.tensor(1e-8, dtype=T.float16).item()),
        _tn(T.tensor(1 / 3, dtype=T.float32).item()),
        _tn(T.tensor(True).item()),
        _tn(T.tensor(1.5 + 0j).item()),
        _tn(int(T.tensor(-2.9))),
        _tn(int(T.tensor(2.9, dtype=T.float16))),
        raises(lambda: int(T.tensor(float("-inf")))),
        _tn(float(T.tensor(2**63 - 1))),
        _tn(bool(T.tensor(-0.0))),
        _tn(bool(T.tensor(0.0 + 1j))),
        _tn(complex(T.tensor(3))),
        _tn(T.tensor(7, dtype=T.int8).__index__()),
        _tn(operator_index(T.tensor(3, dtype=T.uint8))),
    )


def operator_index(x: Any) -> Any:
    import operator

    return operator.index(x)


@program()
def prog_tts_format_and_fstrings(T: Any) -> Any:
    s = T.tensor(3.14159)
    i = T.tensor(7)
    v = T.tensor([1.0, 2.0])
    return (
        f"{s:.2f}",
        f"{i:03d}",
        f"{s}",
        f"{v}",
        format(T.tensor(True)),
        raises(lambda: f"{v:.2f}"),
        f"{T.tensor(1.5, requires_grad=True):.1f}",
        "%.3f" % s,  # noqa: UP031 - the %-operator converts the tensor itself
        "%d" % i,  # noqa: UP031
        raises(lambda: "%d" % v),  # noqa: UP031
        str(T.tensor(2.5, dtype=T.float64)),
        "{:>8}".format(str(i)),  # noqa: UP032
    )


@program()
def prog_tts_requires_grad_setter_and_leaf_rules(T: Any) -> Any:
    x = T.ones(2)
    x.requires_grad = True
    y = x * 2
    e1 = raises(lambda: setattr(y, "requires_grad", False))
    e2 = raises(lambda: setattr(y, "requires_grad", True))
    z = y.detach()
    z.requires_grad_()
    w = T.ones(2, requires_grad=True)
    with T.no_grad():
        nw = w * 2
    return (
        x.requires_grad,
        x.is_leaf,
        e1,
        e2,
        y.requires_grad,
        z.is_leaf,
        z.requires_grad,
        nw.requires_grad,
        nw.is_leaf,
        nw.grad_fn,
        raises(lambda: setattr(x, "requires_grad", 1)),
        raises(lambda: setattr(x, "is_leaf", True)),
        raises(lambda: setattr(x, "grad_fn", None)),
        raises(lambda: setattr(x, "shape", (1, 2))),
        raises(lambda: setattr(x, "dtype", T.float64)),
        raises(lambda: setattr(x, "ndim", 3)),
    )


@program()
def prog_tts_grad_attribute_assignment_checks(T: Any) -> Any:
    x = T.ones(2, 3, requires_grad=True)
    out = [
        raises(lambda: setattr(x, "grad", T.ones(3, 2))),
        raises(lambda: setattr(x, "grad", T.ones(2, 3, dtype=T.float64))),
        raises(lambda: setattr(x, "grad", T.ones(2, 3, dtype=T.int64))),
        raises(lambda: setattr(x, "grad", [1.0])),
        raises(lambda: setattr(x, "grad", x)),
    ]
    x.grad = T.full((2, 3), 2.0)
    g = x.grad
    (x * 3).sum().backward()
    out.append((g is x.grad, x.grad))
    x.grad = None
    out.append(x.grad)
    del x.grad
    out.append(x.grad)
    return out


@program()
def prog_tts_data_attribute_swaps(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    v0 = x._version
    x.data = T.tensor([5.0, 6.0, 7.0])
    d = x.data
    d[0] = -1.0
    y = (x * 2).sum()
    y.backward()
    return (
        x,
        x.shape,
        x._version - v0,
        d.requires_grad,
        d.is_leaf,
        x.grad,
        raises(lambda: setattr(x, "data", [1.0])),
        type(x.data).__name__,
        x.data.data_ptr() == x.data_ptr(),
    )


@program()
def prog_tts_detach_and_detach_inplace(T: Any) -> Any:
    x = T.arange(4.0, requires_grad=True)
    y = x * 2
    d = y.detach()
    d[0] = 100.0
    v = y[1:]
    e = raises(lambda: v.detach_())
    z = x * 3
    z.detach_()
    return (
        y,
        d,
        d._version,
        y._version,
        e,
        z.requires_grad,
        z.grad_fn,
        z.is_leaf,
        raises(lambda: x.detach_()),
        x.detach().requires_grad,
        x.detach() is x,
    )


@program()
def prog_tts_version_counter_of_views_and_ops(T: Any) -> Any:
    a = T.zeros(3, 4)
    v = a[1]
    t = a.t()
    r = a.reshape(12)
    before = (a._version, v._version, t._version, r._version)
    v.add_(1)
    t[0, 0] = 5.0
    a.mul_(2)
    c = a.clone()
    d = a.detach()
    d.zero_()
    return (
        before,
        (a._version, v._version, t._version, r._version),
        c._version,
        d._version,
        a,
        a.contiguous() is a,
        t.contiguous() is t,
        t.contiguous()._version,
    )


@program()
def prog_tts_clone_preserves_layout(T: Any) -> Any:
    x = T.arange(24.0).reshape(2, 3, 4)
    p = x.permute(2, 0, 1)
    e = T.zeros(3, 1).expand(3, 4)
    s = x[:, ::2, 1:]
    cl = x.reshape(1, 2, 3, 4).contiguous(memory_format=T.channels_last)
    return (
        p.clone().stride(),
        e.clone().stride(),
        s.clone().stride(),
        cl.clone().stride(),
        cl.clone(memory_format=T.contiguous_format).stride(),
        p.clone(memory_format=T.contiguous_format).stride(),
        p.clone().is_contiguous(),
        T.empty_strided((2, 3), (1, 2)).clone().stride(),
        raises(lambda: x.clone(memory_format=T.channels_last)),
        x.clone().data_ptr() != x.data_ptr(),
    )


@program()
def prog_tts_clone_gradients(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = x.clone()
    c.mul_(3)
    c.sum().backward()
    y = T.tensor([1.0, 2.0], requires_grad=True)
    yc = y.clone(memory_format=T.preserve_format)
    return c, c.grad_fn, x.grad, yc.grad_fn, yc.requires_grad, yc.is_leaf


@program()
def prog_tts_contiguous_on_various_layouts(T: Any) -> Any:
    x = T.arange(6.0, requires_grad=True)
    m = x.view(2, 3).t()
    c = m.contiguous()
    (c * T.arange(6.0).view(3, 2)).sum().backward()
    z = T.zeros(2, 3)
    return (
        c,
        c.grad_fn,
        c.stride(),
        x.grad,
        z.contiguous() is z,
        z.t().contiguous().stride(),
        T.zeros(1, 4).t().contiguous().stride(),
        T.zeros(4, 1).t().is_contiguous(),
        T.zeros(2, 0, 3).transpose(0, 2).is_contiguous(),
        raises(lambda: z.contiguous(memory_format=T.preserve_format)),
    )


@program()
def prog_tts_to_other_tensor_and_copy_semantics(T: Any) -> Any:
    x = T.tensor([1.7, -2.2], requires_grad=True)
    y = x.to(T.zeros(1, dtype=T.int32))
    z = x.to(T.zeros(1, dtype=T.float64), non_blocking=True)
    w = x.to(x)
    c = x.to(x, copy=True)
    h = x.half()
    h.sum().backward()
    return (
        y,
        y.grad_fn,
        z.grad_fn,
        w is x,
        c is x,
        c.grad_fn,
        x.grad,
        x.double().grad_fn,
        x.float() is x,
        x.to(T.float16).to(T.float32),
        raises(lambda: x.to(T.zeros(1), T.float64)),
        raises(lambda: x.to(dtype="float64")),
        raises(lambda: x.to(device=T.float64)),
        x.to("cpu", copy=True) is x,
        x.cpu() is x,
    )


@program()
def prog_tts_cast_methods_on_integer_and_bool(T: Any) -> Any:
    f = T.tensor([-1.7, 0.2, 2.9, 300.5])
    return (
        f.long(),
        f.int(),
        f.short(),
        f.char(),
        f.byte(),
        f.bool(),
        f.to(T.uint8),
        T.tensor([True, False]).float(),
        T.tensor([True, False]).long(),
        T.tensor([1, 0, -3]).bool(),
        T.tensor([1e10]).int() if False else T.tensor([1e5]).short(),
        T.tensor([2.5, -2.5, 3.5]).long(),
        T.tensor([float("nan")]).bool(),
        T.tensor([1 + 0j, 0j]).bool(),
        T.tensor([70000]).to(T.int16),
        T.tensor([-1]).to(T.uint8),
    )


# --- new_* / factory edge cases ----------------------------------------------------------------


@program()
def prog_tts_new_methods_keep_layout_not_grad(T: Any) -> Any:
    x = T.zeros(2, 3, dtype=T.float16).t()
    p = T.nn.Parameter(T.ones(2))
    return (
        x.new_zeros(2, 3).stride(),
        x.new_ones(x.shape).shape,
        x.new_empty(x.size()).dtype,
        x.new_full(x.shape, 1.5),
        type(p.new_zeros(2)).__name__,
        p.new_zeros(2).requires_grad,
        type(p.new_tensor([1.0])).__name__,
        p.new_tensor([1.0]).requires_grad,
        type(p.clone()).__name__,
        type(p.detach()).__name__,
        type(p * 1).__name__,
        type(p.data).__name__,
        x.new_zeros(()).shape,
        x.new_zeros([]).shape,
        x.new_tensor([]).shape,
        x.new_tensor([[]]).shape,
    )


@program()
def prog_tts_legacy_new_and_tensor_constructor(T: Any) -> Any:
    x = T.zeros(2, dtype=T.float64)
    return (
        x.new(3).shape,
        x.new(3).dtype,
        x.new([1, 2]),
        x.new().shape,
        x.new(2, 3).shape,
        T.Tensor([1, 2]).dtype,
        T.Tensor(2, 3).shape,
        T.Tensor().shape,
        T.LongTensor([1.7, 2]),
        T.FloatTensor([[1, 2]]),
        T.DoubleTensor(2).dtype,
        T.BoolTensor([1, 0]),
        raises(lambda: T.Tensor([1, 2], dtype=T.float64)),
        raises(lambda: T.Tensor("abc")),
        raises(lambda: T.LongTensor(T.zeros(2))),
        T.FloatTensor(T.zeros(2)).dtype,
        raises(lambda: x.new(T.zeros(2))),
    )


# --- more protocol methods -----------------------------------------------------------------------


@program()
def prog_tts_reversed_abs_neg_pos_invert(T: Any) -> Any:
    i = T.tensor([1, -2, 3])
    b = T.tensor([True, False])
    f = T.tensor([1.5, -0.0, float("nan")])
    return (
        list(reversed(i)) if False else [int(v) for v in reversed(i)],
        abs(i),
        -i,
        +i,
        ~i,
        ~b,
        raises(lambda: ~f),
        raises(lambda: -b),
        abs(f),
        -f,
        abs(T.tensor([3 + 4j])),
        abs(T.tensor([-128], dtype=T.int8)),
        -T.tensor([0], dtype=T.uint8),
        -T.tensor([1], dtype=T.uint8),
        raises(lambda: abs(b)),
    )


@program()
def prog_tts_reflected_operators_with_numbers(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 4.0], requires_grad=True)
    i = T.tensor([1, 2, 4])
    r = 2**x
    r.sum().backward()
    return (
        r,
        r.grad_fn,
        x.grad,
        2 - x,
        (2 - x).grad_fn,
        1 / x,
        (1 / x).grad_fn,
        7 // i,
        7 % i,
        -7 % i,
        2**i,
        raises(lambda: 2 ** (-i)),
        i**-1 if False else raises(lambda: i ** (-1)),
        1 << i,
        raises(lambda: 1.5 << i),
        3 & i,
        raises(lambda: 3.0 & i),
        True ^ (i > 1),
        5 @ i if False else raises(lambda: 5 @ i),
        divmod(7, 2) if False else raises(lambda: divmod(i, 2)),
    )


@program()
def prog_tts_inplace_operators_dtype_rules(T: Any) -> Any:
    i = T.tensor([1, 2, 3])
    ident = id(i)
    i += 2
    i *= 3
    out = [i, id(i) == ident]
    for op in ("__iadd__", "__isub__", "__imul__", "__itruediv__"):
        j = T.tensor([1, 2, 3])
        out.append(raises(lambda j=j, op=op: getattr(j, op)(1.5)))
    j = T.tensor([4, 5, 6])
    j //= 2
    out.append(j)
    b = T.tensor([True, False])
    out.append(raises(lambda: b.__iadd__(1)))
    b |= T.tensor([False, True])
    out.append(b)
    f = T.tensor([1.0, 2.0])
    f += T.tensor([1, 1])
    f **= 2
    out.append(f)
    out.append(raises(lambda: f.__iadd__(T.tensor([1j, 1j]))))
    out.append(raises(lambda: f.__iadd__(T.ones(2, 2))))
    h = T.tensor([1.0], dtype=T.float16)
    h += T.tensor([1.0], dtype=T.float64)
    out.append(h)
    out.append(raises(lambda: f.__iand__(1)))
    return out


@program()
def prog_tts_getitem_basic_forms(T: Any) -> Any:
    x = T.arange(24).reshape(2, 3, 4)
    return (
        x[None].shape,
        x[..., None].shape,
        x[:, None, ..., 1].shape,
        x[True].shape,
        x[False].shape,
        x[1, ..., -1],
        x[-1:, ::2, ::-1] if False else raises(lambda: x[-1:, ::2, ::-1]),
        x[0, 0, 0].shape,
        x[..., ...] if False else raises(lambda: x[..., ...]),
        raises(lambda: x[0, 0, 0, 0]),
        raises(lambda: x[2]),
        raises(lambda: x[-3]),
        raises(lambda: x[1.0]),
        raises(lambda: x["a"]),
        x[T.tensor(1)].shape,
        x[T.tensor([1])].shape,
        raises(lambda: x[T.tensor(1.0)]),
        x[[0, 1], [1, 2]].shape,
        x[(0, 1)].shape,
        x[1:100].shape,
        x[5:].shape,
        x[:, 3:1].shape,
        raises(lambda: x[::0]),
    )


@program()
def prog_tts_setitem_forms_and_broadcast(T: Any) -> Any:
    x = T.zeros(2, 3)
    x[0] = 1
    x[1, :2] = T.tensor([5.0, 6.0])
    x[:, -1] = T.tensor(9.0)
    x[x > 5] = -1.0
    y = T.zeros(3, dtype=T.int64)
    y[0] = 2.9
    y[1] = True
    y[2] = T.tensor(7.9)
    z = T.zeros(2, 2)
    return (
        x,
        y,
        raises(lambda: z.__setitem__(0, T.ones(3))),
        raises(lambda: z.__setitem__(0, "a")),
        raises(lambda: z.__setitem__(0, [1.0, 2.0, 3.0])),
        raises(lambda: z.__setitem__(0, 1 + 2j)),
        raises(lambda: y.__setitem__(0, float("nan"))),
        raises(lambda: T.zeros(2, dtype=T.uint8).__setitem__(0, 256)),
        raises(lambda: T.zeros(2, dtype=T.int8).__setitem__(0, -129)),
        raises(lambda: z.__setitem__(0, [7.0, 8.0])),
        z,
        x._version,
    )


@program()
def prog_tts_setitem_on_leaf_and_views_autograd(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    e = raises(lambda: x.__setitem__(0, 2.0))
    y = x * 1
    y[0] = 5.0
    y[1:] *= 2
    y.sum().backward()
    w = T.ones(3, requires_grad=True)
    v = T.zeros(4)
    v[1:] = w
    v.sum().backward()
    return e, y, y.grad_fn, x.grad, v.grad_fn, w.grad


# --- numpy interop --------------------------------------------------------------------------------


@program()
def prog_tts_array_protocol_dtypes(T: Any) -> Any:
    x = T.tensor([1.5, -2.5])
    return (
        np.asarray(x).dtype.name,
        np.asarray(x, dtype=np.int32),
        np.array(x, dtype=np.float64).dtype.name,
        np.asarray(T.tensor([True])).dtype.name,
        np.asarray(T.tensor(3)).shape,
        np.asarray(x.t()).strides if False else np.asarray(T.zeros(2, 3).t()).strides,
        np.float64(2.0) * T.ones(2),
        (np.float64(2.0) * T.ones(2)).dtype,
        (np.int64(2) + T.ones(2, dtype=T.int32)).dtype,
        (T.ones(2, dtype=T.float16) * np.float32(2)).dtype,
        T.tensor(np.float64(1.0)).dtype,
        T.tensor(np.int16(3)).dtype,
        T.tensor([np.float32(1), np.float32(2)]).dtype,
        T.tensor(np.array([1, 2], dtype=np.int8)).dtype,
        T.as_tensor(np.array([1.0]), dtype=T.float16),
        T.tensor(np.bool_(True)).dtype,
        T.tensor([np.int64(1), 2.5]).dtype,
    )


@program()
def prog_tts_from_numpy_negative_strides_and_memory(T: Any) -> Any:
    a = np.arange(6.0)
    r = a[::-1]
    t = T.as_tensor(a[::2])
    a[0] = 99.0
    u = T.tensor(a)
    a[2] = -1.0
    return (
        raises(lambda: T.from_numpy(r)),
        raises(lambda: T.as_tensor(r)),
        raises(lambda: T.tensor(r)),
        T.tensor(r.copy()),
        t,
        u,
        T.as_tensor(a, dtype=T.float32)[0],
        T.from_numpy(np.float64(3.0)) if False else raises(lambda: T.from_numpy(np.float64(3.0))),
        T.from_numpy(np.array(2.5)).shape,
        T.from_numpy(np.ones((2, 3), order="F")).stride(),
        raises(lambda: T.from_numpy(np.array([1.0], dtype=">f8"))),
    )


@program()
def prog_tts_numpy_shares_and_resolves(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    n = x.numpy()
    n[0, 0] = 50.0
    t = x.t().numpy()
    x[1, 2] = -5.0
    v = x[:, 1]
    nv = v.numpy()
    return (
        x,
        t,
        nv,
        nv.flags.writeable,
        T.tensor([1, 2]).numpy().dtype.name,
        raises(lambda: T.ones(2, requires_grad=True).t().numpy()),
        T.ones(2).expand(3, 2).numpy().strides,
        x.numpy(force=False) is n if False else np.shares_memory(x.numpy(), n),
    )


# --- repr / str -----------------------------------------------------------------------------------


@program()
def prog_tts_repr_large_and_summarized(T: Any) -> Any:
    return [
        repr(T.arange(1001.0)),
        repr(T.arange(30).reshape(3, 10)),
        repr(T.arange(2000).reshape(2, 1000)),
        repr(T.zeros(2, 3, 4)),
        repr(T.ones(1, 1, 1, 2)),
        repr(T.tensor([[1e-5, 1.0], [100.0, 1e6]])),
        repr(T.tensor([1.0, 2.0]) * 1e-20),
        repr(T.tensor([0.5, 2.0], dtype=T.float16)),
        repr(T.tensor([1, -1], dtype=T.int8)),
        repr(T.tensor([[True], [False]])),
        repr(T.tensor([1.0, -1.0]) / 3),
        repr(T.tensor(float("nan"))),
        repr(T.tensor([1e100, 1.0], dtype=T.float64)),
        repr(T.tensor([2 + 3j, -1e-8j], dtype=T.complex64)),
        repr(T.empty(0, 2, 0)),
    ]


@program()
def prog_tts_repr_autograd_decorations(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.view(2, 1)
    with T.no_grad():
        n = x * 2
    with T.inference_mode():
        inf = T.ones(2)
    return [
        repr(x.t() if False else x[0]),
        repr(y),
        repr(x.exp()),
        repr(x.sum(0)),
        repr(x.unsqueeze(0).expand(2, 2)),
        repr(x.to(T.float64)),
        repr(n),
        repr(inf),
        repr(T.nn.Parameter(T.zeros(2), requires_grad=False)),
        repr(T.nn.Parameter(T.zeros(2, dtype=T.float64))),
        repr(x.abs().max()),
        repr(x[None]),
        str(x),
        repr(T.tensor([1.5], dtype=T.float64, requires_grad=True)),
    ]


@program()
def prog_tts_set_printoptions_effects(T: Any) -> Any:
    x = T.tensor([1.123456789, 2.0, 1e-3])
    out = [repr(x)]
    T.set_printoptions(precision=2)
    try:
        out.append(repr(x))
        T.set_printoptions(sci_mode=True)
        out.append(repr(x))
        T.set_printoptions(threshold=3, edgeitems=1)
        out.append(repr(T.arange(10)))
        T.set_printoptions(linewidth=20)
        out.append(repr(T.arange(12.0)))
        T.set_printoptions(profile="short")
        out.append(repr(x))
    finally:
        T.set_printoptions(profile="default")
        T.set_printoptions(sci_mode=None)
    out.append(repr(x))
    return out


# --- storage / set_ more --------------------------------------------------------------------------


@program()
def prog_tts_untyped_storage_views_and_sizes(T: Any) -> Any:
    x = T.arange(12.0).reshape(3, 4)
    s = x.untyped_storage()
    v = x[1:, 2:]
    return (
        s.nbytes(),
        s.size(),
        len(s),
        v.untyped_storage().nbytes(),
        v.untyped_storage().data_ptr() == s.data_ptr(),
        v.storage_offset(),
        x.t().storage_offset(),
        x.view(-1)[5:].storage_offset(),
        x.view(T.int32).untyped_storage().nbytes(),
        x.view(T.int32).shape,
        T.zeros(3, dtype=T.int8).untyped_storage().nbytes(),
        T.empty(0).untyped_storage().nbytes(),
        s.element_size(),
        s.device,
        x.clone().untyped_storage().data_ptr() == s.data_ptr(),
        x.detach().untyped_storage().data_ptr() == s.data_ptr(),
        x.reshape(12).untyped_storage().data_ptr() == s.data_ptr(),
        x.t().reshape(12).untyped_storage().data_ptr() == s.data_ptr(),
    )


@program()
def prog_tts_is_set_to_and_same_storage(T: Any) -> Any:
    a = T.arange(4.0)
    b = T.empty(0).set_(a)
    return (
        b.is_set_to(a),
        a.is_set_to(b),
        a[1:].is_set_to(a),
        a.view(4).is_set_to(a),
        a.view(2, 2).is_set_to(a),
        T.empty(0).is_set_to(T.empty(0)),
        a.is_set_to(a),
    )


@program()
def prog_tts_set_with_storage_then_grad_and_version(T: Any) -> Any:
    base = T.arange(8.0)
    t = T.zeros(2, requires_grad=True)
    with T.no_grad():
        t.set_(base.untyped_storage(), 2, (2, 3), (3, 1))
    y = (t * 2).sum()
    y.backward()
    base[2] = 100.0
    return t, t.shape, t.stride(), t.storage_offset(), t.grad, t.requires_grad, t.is_leaf


# --- serialization --------------------------------------------------------------------------------


def _round_trip(T: Any, obj: Any, **kw: Any) -> Any:
    buf = io.BytesIO()
    T.save(obj, buf)
    buf.seek(0)
    return T.load(buf, **kw)


@program()
def prog_tts_save_load_preserves_strides_and_offsets(T: Any) -> Any:
    x = T.arange(24.0).reshape(2, 3, 4)
    d = _round_trip(
        T, {"p": x.permute(2, 0, 1), "s": x[:, 1:, ::2], "e": T.ones(3, 1).expand(3, 4)}
    )
    return (
        d["p"].stride(),
        d["p"].storage_offset(),
        d["s"].stride(),
        d["s"].storage_offset(),
        d["s"],
        d["e"].stride(),
        d["e"],
        d["p"].untyped_storage().nbytes(),
    )


@program()
def prog_tts_save_load_state_dict_and_module(T: Any) -> Any:
    m = T.nn.Linear(3, 2)
    with T.no_grad():
        m.weight.copy_(T.arange(6.0).reshape(2, 3))
        m.bias.fill_(0.5)
    sd = _round_trip(T, m.state_dict())
    m2 = T.nn.Linear(3, 2)
    r = m2.load_state_dict(sd)
    return (
        list(sd),
        type(sd).__name__,
        sd["weight"],
        sd["weight"].requires_grad,
        str(r),
        m2.weight,
        m2.bias,
    )


@program()
def prog_tts_save_load_python_containers_and_scalars(T: Any) -> Any:
    obj = {
        "t": (T.tensor(1), T.tensor([1.5])),
        "l": [1, 2.5, "s", None, True],
        "nested": {"a": {"b": T.zeros(2, dtype=T.int16)}},
        "dtype": T.float64,
        "size": T.Size([2, 3]),
        "dev": T.device("cpu"),
    }
    d = _round_trip(T, obj)
    return (
        d["t"],
        type(d["t"]).__name__,
        d["l"],
        d["nested"]["a"]["b"],
        d["dtype"],
        d["size"],
        type(d["size"]).__name__,
        d["dev"],
    )


@program()
def prog_tts_save_load_file_paths_and_errors(T: Any) -> Any:
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as td:
        p = os.path.join(td, "x.pt")
        T.save(T.arange(3), p)
        a = T.load(p)
        b = T.load(p, map_location="cpu")
        c = T.load(p, map_location=T.device("cpu"))
        e1 = raises(lambda: T.load(os.path.join(td, "missing.pt")))
        with open(os.path.join(td, "junk.pt"), "wb") as f:
            f.write(b"not a checkpoint")
        e2 = type(raises(lambda: T.load(os.path.join(td, "junk.pt")))).__name__
    return a, b, c, type(e1).__name__, getattr(e1, "type", None), e2


@program()
def prog_tts_save_load_shared_storage_between_entries(T: Any) -> Any:
    w = T.arange(6.0)
    d = _round_trip(T, [w, w.view(2, 3), w[3:], w])
    d[0][0] = -1.0
    d[2][0] = -4.0
    return d[1], d[0] is d[3], d[2].storage_offset(), d[0]


@program()
def prog_tts_pickle_preserves_parameter_and_shared(T: Any) -> Any:
    p = T.nn.Parameter(T.arange(4.0))
    v = T.arange(4.0)
    lst = pickle.loads(pickle.dumps([p, v, v[1:], v]))
    lst[1][1] = 100.0
    return (
        type(lst[0]).__name__,
        lst[0].requires_grad,
        lst[1] is lst[3],
        lst[2],
        lst[2].storage_offset(),
        pickle.loads(pickle.dumps(T.tensor(3.0))).shape,
        pickle.loads(pickle.dumps(T.zeros(0, 2))).shape,
        pickle.loads(pickle.dumps(T.tensor([True]))).dtype,
    )


@program()
def prog_tts_deepcopy_memo_and_parameters(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    p.grad = T.full((2,), 3.0)
    q = copy.deepcopy(p)
    x = T.arange(4.0)
    y = x.view(2, 2)
    cx, cy = copy.deepcopy((x, y))
    cx[0] = 9.0
    m = T.nn.Linear(2, 2)
    m2 = copy.deepcopy(m)
    return (
        type(q).__name__,
        q.requires_grad,
        q.grad,
        q.grad is p.grad,
        cy,
        m2.weight is m.weight,
        m2.weight.data_ptr() == m.weight.data_ptr(),
        T.equal(m2.weight, m.weight),
        copy.copy(p) is p if False else type(copy.copy(p)).__name__,
    )


# --- requires_grad / hooks more -------------------------------------------------------------------


@program()
def prog_tts_retain_grad_and_hooks_on_leaves_and_views(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    z = y.view(2, 1)
    z.retain_grad()
    seen = []
    h = z.register_hook(lambda g: seen.append(g.shape))
    (z**2).sum().backward()
    h.remove()
    return y.grad, z.grad, seen, x.retains_grad, y.retains_grad, raises(lambda: x.retain_grad())


@program()
def prog_tts_register_hook_return_values(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    x.register_hook(lambda g: None)
    (x * 3).sum().backward()
    y = T.tensor([1.0], requires_grad=True)
    y.register_hook(lambda g: T.ones(2))
    e = raises(lambda: (y * 2).sum().backward())
    w = T.tensor([1.0], requires_grad=True)
    w.register_hook(lambda g: g.double())
    e2 = raises(lambda: (w * 2).sum().backward())
    return x.grad, e, e2, w.grad


# --- fill / zero / masked_fill more ---------------------------------------------------------------


@program()
def prog_tts_fill_with_tensor_values_and_grads(T: Any) -> Any:
    v = T.tensor(2.0, requires_grad=True)
    x = T.zeros(3, requires_grad=True)
    y = x.clone()
    y.fill_(v)
    (y * T.tensor([1.0, 2.0, 3.0])).sum().backward()
    i = T.zeros(2, dtype=T.int32)
    i.fill_(T.tensor(3.7))
    c = T.zeros(2)
    c.fill_(T.tensor(1 + 2j))
    return (
        y,
        y.grad_fn,
        v.grad,
        x.grad,
        i,
        c,
        raises(lambda: T.zeros(2).fill_(T.tensor([1.0]))),
        T.zeros(2).fill_(T.tensor(5, dtype=T.int64)),
        T.zeros(2, dtype=T.bool).fill_(T.tensor(0.5)),
        T.empty(0).fill_(3.0),
        T.zeros(2, 2).t().fill_(1.0).stride(),
    )


@program()
def prog_tts_zero_on_views_and_expanded(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    x[:, 1].zero_()
    e = T.ones(1, 3).expand(2, 3)
    g = T.arange(3.0, requires_grad=True)
    y = g * 1
    y[1:].zero_()
    y.sum().backward()
    return x, raises(lambda: e.zero_()), raises(lambda: e.fill_(2.0)), y, g.grad, y.grad_fn


@program()
def prog_tts_masked_fill_broadcast_and_dtypes(T: Any) -> Any:
    x = T.arange(6).reshape(2, 3)
    m = T.tensor([[True], [False]])
    return (
        x.masked_fill(m, 100),
        raises(lambda: x.masked_fill(m, 1.5)) if False else x.masked_fill(m, 1.5),
        raises(lambda: x.masked_fill(m, 1e20)),
        raises(lambda: x.masked_fill(m, float("nan"))),
        x.float().masked_fill(m, float("-inf")),
        T.zeros(2, 3, dtype=T.uint8).masked_fill(m, -1)
        if False
        else raises(lambda: T.zeros(2, 3, dtype=T.uint8).masked_fill(m, 256)),
        x.masked_fill(T.zeros(3, dtype=T.bool), 5),
        x.masked_fill(T.tensor(True), 0),
        T.zeros(0, 3).masked_fill(T.tensor([True, False, True]), 1.0).shape,
        x.clone().masked_fill_(m, 7),
        raises(lambda: T.ones(3).masked_fill_(T.ones(2, 3, dtype=T.bool), 0.0)),
        x.masked_fill(m, T.tensor(2.5)),
        x.float().masked_fill(m, T.tensor(3, dtype=T.int64)),
    )


@program()
def prog_tts_masked_fill_value_gradients(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = T.tensor(10.0, requires_grad=True)
    m = T.tensor([[True, False], [False, True]])
    y = x.masked_fill(m, v)
    (y * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    z = x.detach().clone().requires_grad_()
    w = z * 1
    w.masked_fill_(m, 0.0)
    w.sum().backward()
    return y, y.grad_fn, x.grad, v.grad, w.grad_fn, z.grad


# --- where / clamp more ---------------------------------------------------------------------------


@program()
def prog_tts_where_broadcasting_and_promotion(T: Any) -> Any:
    c = T.tensor([[True], [False]])
    a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = T.tensor(5.0, dtype=T.float64, requires_grad=True)
    y = T.where(c, a, b)
    y.sum().backward()
    return (
        y,
        y.dtype,
        y.grad_fn,
        a.grad,
        b.grad,
        T.where(c, T.tensor([1], dtype=T.int8), T.tensor([2], dtype=T.int16)).dtype,
        T.where(c, T.tensor([1], dtype=T.uint8), -1).dtype,
        T.where(c, T.tensor([1.0], dtype=T.float16), 2.0).dtype,
        T.where(c, 1, T.tensor([2.0], dtype=T.float16)).dtype,
        T.where(c, True, T.tensor([2])).dtype,
        raises(lambda: T.where(T.tensor([True, False, True]), T.ones(2), 0.0)),
        raises(lambda: T.where(c, "a", 0)),
        raises(lambda: T.where(c, None, 1.0)),
        raises(lambda: T.where(c, a)),
        T.where(T.tensor([], dtype=T.bool), 1.0, 0.0).shape,
    )


@program()
def prog_tts_where_out_and_inplace(T: Any) -> Any:
    c = T.tensor([True, False, True])
    x = T.tensor([1.0, 2.0, 3.0])
    o = T.empty(3)
    r = T.where(c, x, T.zeros(3), out=o)
    i = T.empty(3, dtype=T.int64)
    return (
        r is o,
        o,
        raises(lambda: T.where(c, x, T.zeros(3), out=i)),
        x.clone().where(c, 0.0) if False else x.where(c, 0.0),
        raises(lambda: T.where(c, x, 0.0, out=T.empty(2, 2))),
    )


@program()
def prog_tts_clamp_gradient_at_bounds_and_inplace(T: Any) -> Any:
    x = T.tensor([-1.0, 0.0, 0.5, 1.0, 2.0], requires_grad=True)
    y = x.clamp(0.0, 1.0)
    y.sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    lo = T.tensor([0.0, 0.0, 0.5, 1.0, 3.0], requires_grad=True)
    y2 = T.clamp(x, min=lo)
    y2.sum().backward()
    z = x.detach().clone()
    z.clamp_(max=0.5)
    w = x * 1
    w.clamp_(min=0.25)
    return (
        y.grad_fn,
        g1,
        y2.grad_fn,
        x.grad,
        lo.grad,
        z,
        w,
        w.grad_fn,
        T.clamp(x.detach(), min=T.tensor(0.5), max=T.tensor([0.0, 1.0, 2.0, 3.0, 4.0])),
        x.detach().clamp(max=T.tensor([0.0])),
        raises(lambda: T.clamp(x.detach(), T.tensor([0.0]), 1.0)),
        x.detach().clamp(T.tensor(0.5), 1.0),
        x.detach().clamp(min=float("-inf"), max=float("inf")),
        T.clip(x.detach(), max=0),
        T.clamp(T.tensor([1, 2, 3]), T.tensor([2.5]), None),
        T.clamp(T.tensor([1, 2, 3], dtype=T.int16), max=T.tensor(2)).dtype,
    )


@program()
def prog_tts_nan_to_num_out_and_inplace(T: Any) -> Any:
    x = T.tensor([float("nan"), float("inf"), -float("inf"), 2.0])
    o = T.empty(4)
    r = T.nan_to_num(x, out=o)
    y = x.clone()
    y.nan_to_num_(nan=-1.0)
    g = T.tensor([float("nan"), 1.0], requires_grad=True)
    h = g * 1
    h.nan_to_num_()
    h.sum().backward()
    return (
        r is o,
        o,
        y,
        raises(lambda: T.nan_to_num(x, out=T.empty(4, dtype=T.int64))),
        h.grad_fn,
        g.grad,
        raises(lambda: x.nan_to_num(nan="a")),
        x.nan_to_num(nan=T.tensor(1.0).item()),
        raises(lambda: x.nan_to_num(nan=T.tensor(1.0))),
        x.to(T.float16).nan_to_num(posinf=70000.0),
    )


# --- random in-place samplers more ---------------------------------------------------------------


@program()
def prog_tts_random_inplace_types_and_shapes(T: Any) -> Any:
    T.manual_seed(0)
    x = T.empty(3, 2)
    r = x.uniform_()
    i = T.zeros(5, dtype=T.int64)
    i.random_(3, 4)
    b = T.zeros(4, dtype=T.bool)
    b.random_(1, 2)
    u = T.zeros(3, dtype=T.uint8)
    u.random_(7, 8)
    f = T.zeros(3)
    f.random_(5, 6)
    return (
        r is x,
        x.shape,
        bool(((x >= 0) & (x < 1)).all()),
        i,
        b,
        u,
        f,
        raises(lambda: T.zeros(2).random_(0)),
        raises(lambda: T.zeros(2, dtype=T.int8).random_(0, 200)),
        raises(lambda: T.zeros(2).random_(2**25, 2**25 + 1))
        if False
        else T.zeros(2).random_(2**20, 2**20 + 1),
        T.zeros(2, dtype=T.float64).exponential_(1.0).shape,
        T.zeros(0).uniform_().shape,
        raises(lambda: T.zeros(2).random_(1.5, 3)),
    )


@program()
def prog_tts_bernoulli_inplace_with_tensor_p(T: Any) -> Any:
    x = T.zeros(4)
    x.bernoulli_(T.tensor([0.0, 1.0, 0.0, 1.0]))
    i = T.zeros(2, 2, dtype=T.int64)
    i.bernoulli_(T.ones(2))
    return (
        x,
        i,
        raises(lambda: T.zeros(3).bernoulli_(T.ones(2))),
        raises(lambda: T.zeros(2).bernoulli_(T.tensor([0.5, float("nan")]))),
        raises(lambda: T.zeros(2).bernoulli_(T.tensor([1, 0]))),
        T.bernoulli(T.tensor([0.0, 1.0])),
        T.bernoulli(T.tensor([0.0, 1.0]), p=1.0) if False else T.bernoulli(T.zeros(2), 1.0),
        raises(lambda: T.bernoulli(T.tensor([0.0, 1.0]), p=2.0)),
        raises(lambda: T.zeros(2, requires_grad=True).bernoulli_(0.5)),
        T.bernoulli(T.ones(2, requires_grad=True)).requires_grad,
    )


# --- Python builtins over tensors -----------------------------------------------------------------


@program()
def prog_tts_builtins_round_floor_sum_max_sorted(T: Any) -> Any:
    import math

    x = T.tensor([3.0, -1.5, 2.25])
    s = T.tensor(2.5)
    return (
        raises(lambda: round(s)),
        raises(lambda: round(T.tensor(2.567), 1)),
        math.floor(s),
        type(math.floor(s)).__name__,
        math.ceil(T.tensor(-1.5)),
        raises(lambda: math.trunc(T.tensor(-1.5))),
        raises(lambda: math.floor(x)),
        sum(x),
        type(sum(x)).__name__,
        max(x),
        min(T.tensor([4, 1, 3])),
        sorted(T.tensor([3, 1, 2])),
        [type(v).__name__ for v in sorted(T.tensor([3, 1, 2]))],
        any(T.tensor([0, 0, 1])),
        all(T.tensor([1.0, 2.0])),
        raises(lambda: any(T.tensor([[0, 1], [1, 0]]))),
        math.isclose(T.tensor(0.1), 0.1, rel_tol=1e-6),
        math.sqrt(T.tensor(4.0)),
        divmod(T.tensor(7), 2) if False else raises(lambda: divmod(T.tensor(7), 2)),
    )


@program()
def prog_tts_iteration_makes_unbind_views(T: Any) -> Any:
    x = T.arange(6.0).reshape(3, 2).requires_grad_()
    rows = list(x)
    (rows[0] * 1 + rows[2] * 2).sum().backward()
    y = T.arange(4.0)
    items = [v for v in y]
    y[0] = 10.0
    return (
        [r.grad_fn for r in rows],
        [r._version for r in rows],
        x.grad,
        items[0],
        items[0]._base is y if False else items[0].is_contiguous(),
        [tuple(r.shape) for r in rows],
        next(iter(T.tensor([[1, 2]]))).stride(),
        list(zip(T.tensor([1, 2]), T.tensor([3, 4]), strict=True)),
        dict(enumerate(T.tensor([5, 6]))),
    )


@program()
def prog_tts_size_object_behaviour(T: Any) -> Any:
    s = T.zeros(2, 3, 4).shape
    return (
        s,
        repr(s),
        str(s),
        s.numel(),
        T.Size([]).numel(),
        s[1:],
        type(s[1:]).__name__,
        type(s[0]).__name__,
        s + (5,),  # noqa: RUF005 - Size.__add__ itself
        type(s + (5,)).__name__,  # noqa: RUF005
        (1,) + s,  # noqa: RUF005
        type((1,) + s).__name__,  # noqa: RUF005
        s == (2, 3, 4),
        s == [2, 3, 4],
        s == T.Size([2, 3, 4]),
        len(s),
        list(reversed(s)),
        s.count(3) if False else s.index(4),
        T.Size([T.tensor(2), 3]),
        raises(lambda: T.Size([2.5])),
        raises(lambda: T.Size(["a"])),
        raises(lambda: T.Size([T.tensor([1, 2])])),
        s * 2,
        type(s * 2).__name__,
        hash(s) == hash((2, 3, 4)),
    )


@program()
def prog_tts_dtype_objects_and_info(T: Any) -> Any:
    out = {}
    for d in (
        T.bool,
        T.uint8,
        T.int8,
        T.int16,
        T.int32,
        T.int64,
        T.float16,
        T.float32,
        T.float64,
        T.complex64,
        T.complex128,
    ):
        out[str(d)] = (
            repr(d),
            d.is_floating_point,
            d.is_complex,
            d.is_signed,
            d.itemsize,
            d.to_real(),
            raises(lambda d=d: d.to_complex()) if d is not T.float16 else None,
        )
    out["finfo"] = (
        T.finfo(T.float32).eps,
        T.finfo(T.float16).max,
        T.finfo(T.float64).tiny,
        T.finfo().dtype,
        T.finfo(T.complex64).dtype,
        T.finfo(T.float32).bits,
        T.finfo(T.float16).resolution,
        raises(lambda: T.finfo(T.int32)),
    )
    out["iinfo"] = (
        T.iinfo(T.int8).min,
        T.iinfo(T.uint8).max,
        T.iinfo(T.int64).bits,
        T.iinfo(T.int32).dtype,
        raises(lambda: T.iinfo(T.float32)),
        raises(lambda: T.iinfo(T.bool)),
    )
    out["misc"] = (
        T.float32 == T.float,
        T.float64 is T.double,
        T.int64 is T.long,
        T.float16 is T.half,
        T.complex64 is T.cfloat,
        T.get_default_dtype(),
        T.is_floating_point(T.zeros(1)),
        T.is_complex(T.zeros(1)),
        raises(lambda: T.is_floating_point(1.0)),
        T.is_tensor(T.zeros(1)),
        T.is_tensor([1]),
        T.is_storage(T.zeros(1).untyped_storage()),
        T.numel(T.zeros(2, 3)),
    )
    return out


@program()
def prog_tts_default_dtype_changes(T: Any) -> Any:
    out = []
    T.set_default_dtype(T.float64)
    try:
        out.append(
            (T.tensor([1.0]).dtype, T.zeros(1).dtype, T.tensor(1j).dtype, T.arange(1.0).dtype)
        )
        out.append((T.ones(1) + 1.5).dtype)
        out.append((T.tensor([1]) * 1.5).dtype)
        out.append(repr(T.tensor([1.5])))
        out.append(repr(T.tensor([1.5], dtype=T.float32)))
        out.append(T.Tensor([1]).dtype)
        out.append(raises(lambda: T.set_default_dtype(T.int64)))
        out.append(raises(lambda: T.set_default_dtype(T.float16)) if False else None)
    finally:
        T.set_default_dtype(T.float32)
    out.append(T.tensor([1.0]).dtype)
    out.append(raises(lambda: T.set_default_dtype("float64")))
    return out


# --- view(dtype), element sizes -------------------------------------------------------------------


@program()
def prog_tts_view_as_other_dtype(T: Any) -> Any:
    x = T.tensor([1.0, -2.0, 0.5, 4.0])
    i = x.view(T.int32)
    i[0] = 0
    h = x.view(T.float16)
    b = x.view(T.uint8)
    return (
        i,
        x,
        h.shape,
        b.shape,
        b.stride(),
        x.view(T.complex64),
        x.view(T.float32) is x,
        x.view(T.float32)._base is x if False else x.view(T.float32).data_ptr() == x.data_ptr(),
        raises(lambda: x[::2].view(T.float16)),
        raises(lambda: T.zeros(3, dtype=T.int8).view(T.int32)),
        T.zeros(2, 4, dtype=T.int8).view(T.int32).shape,
        T.zeros(4, 2, dtype=T.int8).t().view(T.int16)
        if False
        else raises(lambda: T.zeros(4, 2, dtype=T.int8).t().view(T.int16)),
        raises(lambda: T.tensor(1.0).view(T.float16)),
        T.tensor(1.0).view(T.int32),
        raises(lambda: T.ones(2, requires_grad=True).view(T.int32)),
        T.ones(2, requires_grad=True).view(T.float32).grad_fn,
    )


@program()
def prog_tts_storage_typed_and_deprecation(T: Any) -> Any:
    x = T.arange(4.0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s = x.storage()
    return (
        [normalize_message(str(i.message))[:70] for i in w],
        s.size() if hasattr(s, "size") else None,
        s.tolist() if hasattr(s, "tolist") else None,
        s.dtype if hasattr(s, "dtype") else None,
        len(s),
        s[1],
        type(s).__name__,
    )


# --- device / cuda errors on a CPU build ----------------------------------------------------------


@program()
def prog_tts_cuda_requests_on_cpu_build(T: Any) -> Any:
    x = T.ones(2)
    return (
        raises(lambda: x.cuda()),
        raises(lambda: x.to("cuda")),
        raises(lambda: x.to("cuda:0")),
        raises(lambda: T.zeros(2, device="cuda")),
        raises(lambda: x.type("torch.cuda.FloatTensor")),
        raises(lambda: x.to("mps")),
        raises(lambda: x.to("gpu")),
        raises(lambda: x.to("cpu:1")) if False else x.to("cpu:0").device,
        T.cuda.is_available(),
        T.device("cuda", 1),
        T.device("cuda:1").index,
        raises(lambda: T.device("cuda", -1)),
        raises(lambda: T.device(5))
        if False
        else T.device(0)
        if False
        else T.device("cpu") == "cpu",
        x.device == T.device("cpu"),
        x.device == "cpu",
        x.is_pinned(),
    )


# --- copy_ more -----------------------------------------------------------------------------------


@program()
def prog_tts_copy_from_non_tensors_and_self_overlap(T: Any) -> Any:
    x = T.arange(6.0)
    y = T.zeros(3)
    y.copy_(x[::2])
    z = T.arange(5.0)
    z[1:].copy_(z[:-1].clone())
    w = T.arange(4.0)
    return (
        y,
        z,
        raises(lambda: y.copy_(np.ones(3))),
        raises(lambda: y.copy_([1.0, 2.0, 3.0])),
        raises(lambda: y.copy_(None)),
        y.copy_(True),
        raises(lambda: w[1:].copy_(w[:-1])),
        w.copy_(w),
        T.zeros(2, 2).copy_(T.tensor([[1, 2], [3, 4]]).t()),
        T.zeros(2, dtype=T.float16).copy_(T.tensor([70000.0, 1e-8])),
        T.zeros(2, dtype=T.int8).copy_(T.tensor([200, -200])),
        T.zeros(2, dtype=T.uint8).copy_(T.tensor([-1.5, 300.7]))
        if False
        else T.zeros(2, dtype=T.uint8).copy_(T.tensor([-1, 300])),
    )


@program()
def prog_tts_copy_non_blocking_and_version(T: Any) -> Any:
    x = T.zeros(3)
    v0 = x._version
    r = x.copy_(T.ones(3), non_blocking=True)
    x.copy_(T.ones(3), True)
    return r is x, x._version - v0, raises(lambda: x.copy_(T.ones(3), foo=True))


# --- tolist / item on non-contiguous and odd shapes -----------------------------------------------


@program()
def prog_tts_tolist_layouts(T: Any) -> Any:
    x = T.arange(12).reshape(3, 4)
    return (
        x.t().tolist(),
        x[:, ::2].tolist(),
        x[None, :, None, 1].tolist(),
        T.zeros(2, 0, 3).tolist(),
        T.zeros(0, 2).tolist(),
        T.tensor(5).tolist(),
        T.ones(1, 1, 1).tolist(),
        T.tensor([[1 + 2j]]).tolist(),
        T.tensor([0.1], dtype=T.float16).tolist(),
        T.tensor([1.0], dtype=T.float64).tolist(),
        T.ones(3).expand(2, 3).tolist(),
        T.tensor([float("nan")]).tolist()[0] != T.tensor([float("nan")]).tolist()[0],
    )


# --- requires_grad_ and factories' requires_grad --------------------------------------------------


@program()
def prog_tts_factories_requires_grad_flags(T: Any) -> Any:
    return (
        T.zeros(2, requires_grad=True).is_leaf,
        T.ones(2, requires_grad=True).grad_fn,
        T.full((2,), 1.5, requires_grad=True).requires_grad,
        raises(lambda: T.full((2,), 1, requires_grad=True)),
        raises(lambda: T.ones(2, dtype=T.int64, requires_grad=True)),
        T.arange(3.0, requires_grad=True).requires_grad,
        T.linspace(0, 1, 3, requires_grad=True).is_leaf,
        T.eye(2, requires_grad=True).requires_grad,
        T.empty(2, requires_grad=True).requires_grad,
        T.rand(2, requires_grad=True).is_leaf,
        T.zeros_like(T.ones(2), requires_grad=True).requires_grad,
        T.tensor([1.0], requires_grad=True).grad,
        raises(lambda: T.tensor([True], requires_grad=True)),
        raises(lambda: T.zeros_like(T.ones(2, dtype=T.int32), requires_grad=True)),
        T.as_tensor([1.0, 2.0]).requires_grad,
        T.scalar_tensor(2, requires_grad=True).dtype,
    )


# --- deepcopy / pickle with hooks and attributes --------------------------------------------------


@program()
def prog_tts_deepcopy_keeps_python_attributes(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    x.tag = "weights"
    x.meta = {"k": [1, 2]}
    y = copy.deepcopy(x)
    y.meta["k"].append(3)
    p = pickle.loads(pickle.dumps(x))
    return (
        y.tag,
        x.meta,
        y.meta,
        p.tag,
        p.meta,
        hasattr(x.detach(), "tag"),
        hasattr(x.clone(), "tag"),
        hasattr(x[0], "tag"),
    )


@program()
def prog_tts_deepcopy_inside_no_grad_and_inference(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    with T.no_grad():
        y = copy.deepcopy(x)
    with T.inference_mode():
        i = T.ones(2)
    c = copy.deepcopy(i)
    return y.requires_grad, y.is_leaf, c.is_inference(), raises(lambda: c.add_(1)), c


@program()
def prog_tts_pickle_integer_complex_and_empty(T: Any) -> Any:
    out = []
    for t in (
        T.tensor([1, -2], dtype=T.int8),
        T.tensor([1 + 2j]),
        T.tensor([0.5], dtype=T.float16),
        T.empty(0, 3, dtype=T.int64),
        T.tensor(True),
        T.zeros(2, 3).t()[1:],
    ):
        u = pickle.loads(pickle.dumps(t, protocol=2))
        out.append((u, u.dtype, u.shape, u.stride(), u.storage_offset()))
    return out


# --- save / load more -----------------------------------------------------------------------------


@program()
def prog_tts_save_load_pathlib_and_protocol(T: Any) -> Any:
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as td:
        p = pathlib.Path(td) / "a.pt"
        T.save({"x": T.arange(3.0)}, p, pickle_protocol=4)
        a = raises(lambda: T.load(p))
        with open(p, "rb") as f:
            b = raises(lambda: T.load(f, weights_only=True))
        c = T.load(p, weights_only=False)
        T.save({"y": T.ones(1)}, p, pickle_protocol=3)
        d = T.load(p)
        sz = p.stat().st_size > 0
    return a, b, c, d, sz


@program()
def prog_tts_load_map_location_forms(T: Any) -> Any:
    buf = io.BytesIO()
    T.save([T.ones(2), T.zeros(1, dtype=T.int64)], buf)
    out = []
    for loc in ("cpu", T.device("cpu"), {"cpu": "cpu"}, lambda s, loc: s, None):
        buf.seek(0)
        r = T.load(buf, map_location=loc)
        out.append([(t.dtype, t.device, t.tolist()) for t in r])
    return out


@program()
def prog_tts_save_load_grad_and_hooks_not_saved(T: Any) -> Any:
    x = T.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    x.register_hook(lambda g: g)
    buf = io.BytesIO()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        T.save(x, buf)
    buf.seek(0)
    y = T.load(buf)
    return (
        y,
        y.grad,
        y.requires_grad,
        y.is_leaf,
        [normalize_message(str(i.message))[:80] for i in w],
    )


@program()
def prog_tts_save_load_views_into_dict_keep_sharing_after_inplace(T: Any) -> Any:
    base = T.zeros(2, 3)
    d = _round_trip(T, {"row": base[1], "col": base[:, 2], "all": base})
    d["all"].fill_(1.0)
    d["row"].add_(1.0)
    return d["all"], d["col"], d["row"], d["col"].stride()


@program()
def prog_tts_weights_only_load_rejects_and_allows(T: Any) -> Any:
    buf = io.BytesIO()
    T.save({"a": T.ones(1), "od": __import__("collections").OrderedDict(b=1)}, buf)
    buf.seek(0)
    ok = T.load(buf, weights_only=True)
    buf2 = io.BytesIO()
    T.save({"f": np.float64(1.0)}, buf2)
    buf2.seek(0)
    r = raises(lambda: T.load(buf2, weights_only=True))
    return ok, type(ok["od"]).__name__, type(r).__name__, getattr(r, "type", None)


# --- where / masked_fill on special values --------------------------------------------------------


@program()
def prog_tts_where_nan_gradients_trap(T: Any) -> Any:
    x = T.tensor([0.0, 1.0, 4.0], requires_grad=True)
    y = T.where(x > 0, x.sqrt(), T.zeros(3))
    y.sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    z = T.where(x > 0, x, 1.0).sqrt()
    z.sum().backward()
    return y, g1, z, x.grad


@program()
def prog_tts_masked_fill_special_values(T: Any) -> Any:
    x = T.tensor([1.0, 2.0, 3.0])
    m = T.tensor([True, False, True])
    return (
        x.masked_fill(m, float("inf")),
        x.masked_fill(m, -float("inf")).softmax(0),
        x.to(T.float16).masked_fill(m, 1e5)
        if False
        else raises(lambda: x.to(T.float16).masked_fill(m, 1e5)),
        x.to(T.float16).masked_fill(m, -65504.0),
        T.tensor([1 + 1j]).masked_fill(T.tensor([True]), 2j),
        raises(lambda: x.masked_fill(m, 1j)),
        T.zeros(3, dtype=T.bool).masked_fill(m, True),
        raises(lambda: T.zeros(3, dtype=T.bool).masked_fill(m, 2))
        if False
        else T.zeros(3, dtype=T.bool).masked_fill(m, 2),
        x.masked_fill(m, T.tensor(float("nan"))),
    )


# --- clamp / nan_to_num dtypes --------------------------------------------------------------------


@program()
def prog_tts_clamp_dtype_results(T: Any) -> Any:
    i = T.tensor([1, 5, 9])
    h = T.tensor([1.0, 5.0], dtype=T.float16)
    return (
        T.clamp(i, 2, 6).dtype,
        T.clamp(i, 2.5, 6).dtype,
        T.clamp(i, T.tensor(2), T.tensor(6)).dtype,
        T.clamp(i, T.tensor(2.5), None).dtype,
        T.clamp(i, min=T.tensor([2.5])).dtype,
        T.clamp(h, 2, 3).dtype,
        T.clamp(h, T.tensor(2.0), None).dtype,
        T.clamp(h, T.tensor([2.0]), None).dtype,
        T.clamp(i.to(T.uint8), 2, 250),
        raises(lambda: T.clamp(h, 1e6, None)),
        T.clamp(h, 70000.0, None) if False else raises(lambda: T.clamp(h, 70000.0, None)),
        raises(lambda: i.clamp_(2.5, 3)),
        i.clone().clamp_(T.tensor(2), T.tensor(3)),
        raises(lambda: i.clone().clamp_(T.tensor(2.5), None)),
    )


@program()
def prog_tts_nan_to_num_integer_and_default_limits(T: Any) -> Any:
    f = T.tensor([float("inf"), -float("inf"), float("nan")])
    return (
        f.nan_to_num(),
        f.double().nan_to_num(),
        f.half().nan_to_num(),
        f.nan_to_num(nan=1e40),
        f.nan_to_num(neginf=0, posinf=1),
        T.tensor([1, 2], dtype=T.int8).nan_to_num(nan=1e10),
        T.tensor([True]).nan_to_num(posinf=5.0),
        f.nan_to_num(True, False, True),
    )


# --- backward() from the Tensor API ---------------------------------------------------------------


@program()
def prog_tts_backward_argument_errors(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    return (
        raises(lambda: y.backward()),
        raises(lambda: y.backward(T.ones(3))),
        raises(lambda: y.backward(T.ones(2, dtype=T.float64))) if False else None,
        raises(lambda: T.ones(2).sum().backward()),
        raises(lambda: y.sum().backward(T.ones(1))),
        raises(lambda: y.backward([1.0, 1.0])),
        raises(lambda: y.sum().backward(2.0)),
        raises(lambda: y.backward(T.ones(2), inputs=[])),
        raises(lambda: y.sum().backward(inputs=[y.detach()])),
    )


@program()
def prog_tts_backward_gradient_shapes_and_dtypes(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).backward(T.tensor([1.0, 0.5]))
    g1 = x.grad.clone()
    (x * 3).backward(T.tensor(1.0).expand(2))
    g2 = x.grad.clone()
    z = T.tensor(2.0, requires_grad=True)
    (z * z).backward(T.tensor(3.0))
    w = T.tensor([1.0, 2.0], requires_grad=True)
    (w * 2).sum().backward(T.tensor(1.0, dtype=T.float64))
    return g1, g2, z.grad, w.grad, w.grad.dtype


@program()
def prog_tts_grad_access_on_non_leaf_warns(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.sum().backward()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        g = y.grad
        gx = x.grad
        d = x.detach().grad
    return g, gx, d, [normalize_message(str(i.message))[:90] for i in w]


# --- as_strided / empty_strided -------------------------------------------------------------------


@program()
def prog_tts_as_strided_bounds_and_views(T: Any) -> Any:
    x = T.arange(8.0)
    v = x.as_strided((2, 2), (1, 2), 1)
    v[0, 0] = -1.0
    return (
        v,
        x,
        v.stride(),
        v.storage_offset(),
        raises(lambda: x.as_strided((3, 3), (3, 1))),
        raises(lambda: x.as_strided((2,), (1,), 7)),
        raises(lambda: x.as_strided((2,), (-1,))),
        raises(lambda: x.as_strided((2, 2), (1,))),
        x.as_strided((0, 5), (1, 1), 100).shape if False else x.as_strided((0, 5), (1, 1)).shape,
        x[2:].as_strided((2,), (1,)),
        x[2:].as_strided((2,), (1,), 0),
        T.empty_strided((2, 3), (1, 2)).stride(),
        T.empty_strided((2, 3), (3, 1), dtype=T.int64).dtype,
        raises(lambda: T.empty_strided((2, 3), (1,))),
        raises(lambda: T.empty_strided((2, -3), (1, 1))),
    )


@program()
def prog_tts_as_strided_autograd(T: Any) -> Any:
    x = T.arange(6.0, requires_grad=True)
    y = x.as_strided((2, 2), (2, 1), 1)
    (y * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    z = T.arange(4.0, requires_grad=True)
    o = z.as_strided((3,), (1,))
    o.sum().backward()
    return y, y.grad_fn, x.grad, z.grad, o.grad_fn


# --- memory format via to() -----------------------------------------------------------------------


@program()
def prog_tts_to_memory_format(T: Any) -> Any:
    x = T.arange(24.0).reshape(1, 2, 3, 4)
    y = x.to(memory_format=T.channels_last)
    z = x.to(T.float64, memory_format=T.channels_last)
    return (
        y.stride(),
        y.is_contiguous(memory_format=T.channels_last),
        z.stride(),
        z.dtype,
        x.to(memory_format=T.contiguous_format) is x,
        y.to(memory_format=T.preserve_format) is y,
        y.to(T.float64).stride(),
        y.clone().stride(),
        (y + 1).stride(),
        raises(lambda: T.zeros(2, 3).to(memory_format=T.channels_last)),
        raises(lambda: x.to(memory_format=T.channels_last_3d)),
        T.zeros(1, 2, 3, 4, 5).to(memory_format=T.channels_last_3d).stride(),
        y.contiguous().stride(),
        y.float() is y,
    )


# --- share_memory_ / pin_memory -------------------------------------------------------------------


@program()
def prog_tts_share_and_pin_memory(T: Any) -> Any:
    x = T.ones(3)
    r = x.share_memory_()
    return (
        r is x,
        x.is_shared(),
        x[1:].is_shared(),
        T.ones(2).is_shared(),
        x.is_pinned(),
        raises(lambda: x.pin_memory()),
        x.clone().is_shared(),
    )


# --- is_nonzero / is_same_size / dim_order --------------------------------------------------------


@program()
def prog_tts_small_predicates(T: Any) -> Any:
    x = T.zeros(2, 3)
    return (
        raises(lambda: x.is_nonzero()),
        raises(lambda: T.tensor([]).is_nonzero()),
        T.tensor([0.0]).is_nonzero(),
        T.tensor(float("nan")).is_nonzero(),
        T.tensor(1j).is_nonzero(),
        T.tensor([[True]]).is_nonzero(),
        x.is_same_size(T.ones(2, 3)),
        x.is_same_size(T.ones(3, 2)),
        raises(lambda: x.is_same_size([2, 3])),
        x.dim_order(),
        x.t().dim_order(),
        T.zeros(1, 2, 3, 4).contiguous(memory_format=T.channels_last).dim_order(),
        T.tensor(1.0).dim_order(),
        x.is_floating_point(),
        T.zeros(1, dtype=T.int8).is_signed(),
        x.is_set_to(x),
        x.is_complex(),
    )


# --- repr of special values -----------------------------------------------------------------------


@program()
def prog_tts_repr_special_values(T: Any) -> Any:
    return [
        repr(T.tensor([-0.0, 0.0])),
        repr(T.tensor([float("nan"), 1.5])),
        repr(T.tensor([complex(float("nan"), 1.0), complex(1.0, float("inf"))])),
        repr(T.tensor([2**62, -(2**62)])),
        repr(T.tensor(True)),
        repr(T.tensor([1.0e-45, 3.4e38])),
        repr(T.tensor([100000.0, 1.0])),
        repr(T.tensor([123.456, 0.001])),
        repr(T.tensor([1, 2], dtype=T.uint8)),
        repr(T.tensor([-1.5, 2.25], dtype=T.float16)),
        repr(T.tensor([[1.0, 2.0]], dtype=T.float64).t()),
        repr(T.tensor(-0.0)),
        repr(T.tensor(1e-7)),
        repr(T.tensor([1e-7, 1.0])),
        repr(T.tensor([0.1 + 0.2j], dtype=T.complex128)),
    ]


# --- tensor() construction from tensors -----------------------------------------------------------


@program()
def prog_tts_tensor_from_lists_of_tensors(T: Any) -> Any:
    a = T.tensor(1.5, requires_grad=True)
    b = T.tensor(2.5)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        t = T.tensor([a, b])
    return (
        t,
        t.requires_grad,
        [normalize_message(str(i.message))[:60] for i in w],
        T.tensor([T.tensor(1), T.tensor(2)]).dtype,
        T.tensor([T.tensor(1), 2.5]).dtype,
        raises(lambda: T.tensor([T.tensor([1, 2]), T.tensor([3, 4])])),
        T.tensor([[T.tensor(1.0)]]).shape,
        raises(lambda: T.tensor([T.ones(2), 1.0])),
        T.as_tensor([T.tensor(1.0), T.tensor(2.0)]),
        T.tensor((T.tensor(True), T.tensor(False))).dtype,
    )


@program()
def prog_tts_new_tensor_requires_grad_and_dtype(T: Any) -> Any:
    x = T.zeros(2, dtype=T.float64)
    y = x.new_tensor([1, 2], requires_grad=True)
    return (
        y,
        y.is_leaf,
        y.requires_grad,
        raises(lambda: x.new_tensor([1, 2], dtype=T.int64, requires_grad=True)),
        x.new_tensor(np.array([1, 2], dtype=np.int32)).dtype,
        x.new_tensor(np.array([1, 2], dtype=np.int32), dtype=None).dtype,
        x.new_tensor(True).dtype,
        x.new_tensor([]).dtype,
        raises(lambda: x.new_tensor("abc")),
        raises(lambda: x.new_tensor([1, [2]])),
    )


# --- apply_ / map_ / map2_ ------------------------------------------------------------------------


@program()
def prog_tts_apply_on_views_and_map2(T: Any) -> Any:
    x = T.arange(6.0).reshape(2, 3)
    x.t().apply_(lambda v: v * 2)
    y = T.arange(6.0).reshape(2, 3)
    y[:, 1].apply_(lambda v: -v)
    z = T.ones(3)
    z.map2_(T.tensor([1.0, 2.0, 3.0]), T.tensor([10.0, 20.0, 30.0]), lambda a, b, c: a + b * c)
    c = T.tensor([1 + 1j])
    return (
        x,
        y,
        z,
        raises(lambda: c.apply_(lambda v: v * 2)),
        raises(lambda: T.ones(3).map2_(T.ones(2), T.ones(3), lambda a, b, c: a)),
        raises(lambda: T.ones(3).map_(T.ones(3, dtype=T.float64), lambda a, b: a)),
        T.tensor([True, False]).apply_(lambda v: not v),
    )


@program()
def prog_tts_reversed_is_flip(T: Any) -> Any:
    x = T.arange(6.0).reshape(3, 2).requires_grad_()
    r = reversed(x)
    (r * T.arange(6.0).reshape(3, 2)).sum().backward()
    return (
        r,
        r.grad_fn,
        x.grad,
        type(reversed(T.tensor([1, 2]))).__name__,
        reversed(T.tensor(3.0)),
        list(reversed(T.tensor([1, 2, 3]))),
        reversed(T.empty(0, 2)).shape,
    )


@program()
def prog_tts_integer_division_and_shift_edges(T: Any) -> Any:
    i = T.tensor([5, -7, 3])
    f = T.tensor([1.5, -2.0])
    return (
        raises(lambda: i % 0),
        raises(lambda: i // 0),
        raises(lambda: i % T.tensor([0, 1, 2])),
        raises(lambda: i // T.tensor([1, 0, 1])),
        f // 0,
        f % 0,
        i / 0,
        i << -1,
        i << 64,
        i >> 70,
        1 << T.tensor([62, 63, 64]),
        i**2.5,
        2.5**i,
        raises(lambda: T.tensor([2]) ** T.tensor([-1])),
        i == np.array([5, 0, 3]),
        f == np.float32(1.5),
        i.__rsub__(1),
        i.__rtruediv__(2),
        i.__rfloordiv__(11),
        i.__rmod__(11),
        i.__rpow__(2),
        i @ i,
        f @ f,
        T.tensor(2) @ T.tensor(3) if False else raises(lambda: T.tensor(2) @ T.tensor(3)),
        raises(lambda: divmod(7, T.tensor(2))),
        abs(T.tensor(-3, dtype=T.uint8)) if False else abs(T.tensor(3, dtype=T.uint8)),
        raises(lambda: i.__xor__(1.5)),
        i & True,
        T.tensor([True]) + T.tensor([True]),
        raises(lambda: T.tensor([True]) - T.tensor([True])),
        T.tensor([True]) * 3,
        T.tensor([1], dtype=T.uint8) - 2,
        T.tensor([200], dtype=T.uint8) + 100,
        T.tensor([100], dtype=T.int8) * 2,
    )


@program()
def prog_tts_memory_format_and_type_argument_types(T: Any) -> Any:
    x = T.zeros(2, 2)
    return (
        raises(lambda: x.type(1)),
        raises(lambda: x.type([1])),
        raises(lambda: x.clone(memory_format=1)),
        raises(lambda: T.clone(x, memory_format="x")),
        raises(lambda: x.is_contiguous(memory_format=1)),
        x.is_contiguous(memory_format=T.contiguous_format),
        x.clone(memory_format=T.preserve_format).stride(),
    )


@program()
def prog_tts_as_strided_inplace(T: Any) -> Any:
    z = T.arange(6.0)
    v0 = z._version
    r = z.as_strided_((2,), (2,), 1)
    w = T.arange(6.0)[2:]
    w.as_strided_((2,), (1,))
    return (
        r is z,
        z,
        z._version - v0,
        z.storage_offset(),
        z.stride(),
        w,
        w.storage_offset(),
        raises(lambda: T.arange(6.0).as_strided_((7,), (1,))),
        raises(lambda: T.zeros(2, requires_grad=True).as_strided_((1,), (1,))),
    )


@program()
def prog_tts_save_load_bad_file_objects(T: Any) -> Any:
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as td:
        missing_dir = os.path.join(td, "nope", "x.pt")
        e1 = raises(lambda: T.save(T.ones(1), missing_dir))
    return (
        raises(lambda: T.save(T.ones(1), 5)),
        raises(lambda: T.load(5)),
        raises(lambda: T.load(io.BytesIO(b""))),
        type(e1).__name__,
        getattr(e1, "type", None),
        raises(lambda: T.save(lambda: 1, io.BytesIO())).__class__.__name__,
    )


@program()
def prog_tts_save_load_python_values_round_trip(T: Any) -> Any:
    values = [
        T.float16,
        T.Size([1, 2]),
        {1, 2},
        b"xy",
        1 + 2j,
        slice(1, 2),
        range(3),
        T.device("cpu"),
        {"k": (1, [2, {"z": None}])},
        {(1, 2): 3},
        2**70,
        True,
        T.nn.Parameter(T.ones(1), requires_grad=False),
    ]
    out = []
    for v in values:
        r = raises(lambda v=v: _round_trip(T, v))
        out.append((type(r).__name__, r))
    return out


@program()
def prog_tts_backend_flags_and_dim_argument_types(T: Any) -> Any:
    x = T.zeros(2, 3)
    flags = ("is_cpu", "is_cuda", "is_mps", "is_xpu", "is_mkldnn", "is_vulkan", "is_ipu")
    more = ("is_sparse", "is_sparse_csr", "is_nested", "is_mtia", "is_meta", "is_quantized")
    return (
        {f: getattr(x, f) for f in flags + more},
        raises(lambda: setattr(x, "is_mps", True)),
        raises(lambda: x.size(True)),
        raises(lambda: x.stride(False)),
        raises(lambda: x.size(1.0)),
        x.size(np.int64(1)),
        x.size(T.tensor(1)),
        x.size(dim=-1),
        x.stride(dim=0),
        x.size(dim=None),
        x.output_nr,
    )


@program()
def prog_tts_post_accumulate_grad_hook_return_values(T: Any) -> Any:
    out = []
    for ret in (5, "a", T.ones(2), None):
        x = T.ones(2, requires_grad=True)
        x.register_post_accumulate_grad_hook(lambda t, r=ret: r)
        out.append((raises(lambda x=x: (x * 3).sum().backward()), x.grad))
    log = []
    y = T.ones(2, requires_grad=True)
    y.register_post_accumulate_grad_hook(lambda t: log.append(t.grad.clone()))
    (y * 3).sum().backward()
    (y * 3).sum().backward()
    z = T.ones(2, requires_grad=True)
    z.register_post_accumulate_grad_hook(lambda t: [t.grad.zero_(), None][1])
    (z * 3).sum().backward()
    return out, log, y.grad, z.grad


@program()
def prog_tts_random_inplace_argument_types(T: Any) -> Any:
    x = T.zeros(2)
    return (
        raises(lambda: x.random_(from_=0, to=3)),
        x.random_(to=3).shape,
        x.random_(**{"from": 1, "to": 3}).shape,
        raises(lambda: x.random_(1, foo=3)),
        raises(lambda: x.random_(None)),
        raises(lambda: x.random_(None, 3)),
        x.random_(0, None).shape,
        raises(lambda: x.uniform_("a")),
        raises(lambda: x.uniform_(0, None)),
        x.uniform_(T.tensor(0.5), T.tensor(0.5)),
        raises(lambda: x.normal_(None)),
        raises(lambda: x.normal_(0, T.tensor([1.0, 2.0]))),
        raises(lambda: x.normal_(0, float("nan"))),
        x.normal_(T.tensor(3.0), 0.0),
        raises(lambda: x.exponential_("a")),
        raises(lambda: x.bernoulli_("a")),
        raises(lambda: x.bernoulli_(None)),
    )


@program()
def prog_tts_deepcopy_and_pickle_layout_details(T: Any) -> Any:
    x = T.arange(6.0)
    v = x.view(2, 3)
    pair = copy.deepcopy([x, v])
    pair[0][0] = 50.0
    t = T.ones(1, requires_grad=True)
    t.grad = T.ones(1) * 3
    a = T.ones(2, requires_grad=True)
    with T.no_grad():
        b = a[0]
    return (
        copy.deepcopy(v)._base is None,
        pair[1],
        pair[1]._is_view(),
        copy.deepcopy(x[2:]).storage_offset(),
        copy.deepcopy(x[2:]).untyped_storage().nbytes(),
        pickle.loads(pickle.dumps(x[2:])).untyped_storage().nbytes(),
        copy.deepcopy(T.ones(1).expand(3)).stride(),
        raises(lambda: copy.deepcopy(T.ones(2, requires_grad=True)[0])),
        copy.deepcopy(b).requires_grad,
        pickle.loads(pickle.dumps(t)).grad,
        copy.deepcopy(t).grad,
        copy.deepcopy(t).grad is t.grad,
        [u._version for u in copy.deepcopy([x, v])],
    )


@program()
def prog_tts_python_types_as_dtypes(T: Any) -> Any:
    class Foo:
        pass

    x = T.zeros(2, dtype=T.int64)
    return (
        x.new_zeros(2, dtype=float).dtype,
        x.new_ones(2, dtype=int).dtype,
        x.new_empty(2, dtype=bool).dtype,
        x.new_full((2,), 1, dtype=complex),
        x.new_tensor([1], dtype=float),
        x.new_empty_strided((2,), (1,), dtype=float).dtype,
        raises(lambda: x.new_zeros(2, dtype=str)),
        raises(lambda: x.new_zeros(2, dtype="float")),
        raises(lambda: x.new_full((2,), 1.5, dtype=int))
        if False
        else x.new_full((2,), 1.5, dtype=int),
        raises(lambda: x.type(float)),
        raises(lambda: x.type(int)),
        x.type(T.Tensor),
        raises(lambda: x.type(Foo)),
        raises(lambda: x.type(np.float64)),
        raises(lambda: x.type(T.nn.Parameter)),
        x.to(float).dtype,
        x.to(bool).dtype,
        x.to(complex).dtype,
    )


@program()
def prog_tts_zero_dim_tensors_as_python_ints(T: Any) -> Any:
    x = T.arange(6).reshape(2, 3)
    i = T.tensor(1)
    return (
        T.arange(5)[i : T.tensor(3)],
        raises(lambda: T.arange(5)[T.tensor(1.0) : 3]),
        T.arange(5)[:: T.tensor(2)],
        [0] * T.tensor(3),
        "abc"[T.tensor(0)],
        np.zeros(T.tensor(3)).shape,
        T.zeros(T.tensor(3)).shape,
        T.zeros((T.tensor(2), 3)).shape,
        x.view(T.tensor(6)).shape,
        x.sum(T.tensor(1)),
        x.transpose(T.tensor(0), 1).shape,
        x.unsqueeze(T.tensor(0)).shape,
        x[i, T.tensor(2)],
        x.narrow(1, i, 2).shape,
        x.select(0, i),
        x.roll(i, 1),
        x.roll(T.tensor(-1)),
        raises(lambda: x.roll(T.tensor(1.0), 1)),
        x.roll(T.tensor([1]), 1),
        x.permute(T.tensor(1), 0).shape,
        hex(T.tensor(-3)),
        bin(T.tensor(5, dtype=T.uint8)),
    )


@program()
def prog_tts_containment_and_equality_protocols(T: Any) -> Any:
    x = T.ones(2)
    return (
        1j in T.tensor([1j]),
        True in T.tensor([1, 0]),
        np.float32(1) in T.tensor([1.0]),
        T.tensor(1) in T.tensor([[1, 2]]),
        T.tensor([[1, 2]]) in T.tensor([[1, 2], [3, 4]]),
        raises(lambda: T.tensor([[1, 2, 3]]) in T.tensor([[1, 2], [3, 4]])),
        T.tensor([]) in T.tensor([1.0]),
        1 in T.tensor([]),
        raises(lambda: (1,) in T.tensor([1])),
        x != None,  # noqa: E711
        x.__ne__(None),
        raises(lambda: x == "a"),
        raises(lambda: x == object()),
        raises(lambda: x == T.ones(3)),
        x.equal(T.ones(3)),
        x.equal(T.ones(2, dtype=T.float64)),
        raises(lambda: x.equal(1)),
        raises(lambda: T.equal(x, 1)),
        raises(lambda: T.equal(1, x)),
        raises(lambda: x.equal(None)),
        T.equal(x, T.ones(2, dtype=T.int64)),
        raises(lambda: x.allclose(T.ones(2, dtype=T.float64))),
        T.tensor([float("nan")]).equal(T.tensor([float("nan")])),
        T.tensor([float("nan")]).allclose(T.tensor([float("nan")]), equal_nan=True),
    )


@program()
def prog_tts_sampler_generator_and_parameter_types(T: Any) -> Any:
    x = T.zeros(2)
    g = T.Generator().manual_seed(0)
    return (
        raises(lambda: x.uniform_(generator=1)),
        raises(lambda: x.normal_(generator=1)),
        raises(lambda: x.exponential_(generator=1)),
        raises(lambda: x.cauchy_(generator=1)),
        raises(lambda: x.log_normal_(generator=1)),
        raises(lambda: x.geometric_(0.5, generator=1)),
        raises(lambda: x.cauchy_("a")),
        raises(lambda: x.log_normal_(0, None)),
        raises(lambda: x.geometric_("a")),
        x.geometric_(T.tensor(0.5)).shape,
        x.uniform_(generator=g).shape,
        x.cauchy_(0, T.tensor(1.0), generator=g).shape,
        x.geometric_(0.5, generator=g).shape,
    )


@program()
def prog_tts_apply_result_conversions(T: Any) -> Any:
    def ap(dtype: Any, value: Any) -> Any:
        return raises(lambda: T.zeros(2, dtype=dtype).apply_(lambda v: value))

    return (
        ap(T.int64, 2.7),
        ap(T.bool, 5),
        ap(T.uint8, -1),
        ap(T.uint8, -255),
        ap(T.uint8, -256),
        ap(T.uint8, 256),
        ap(T.int8, 300),
        ap(T.int64, 2**63),
        ap(T.int64, -(2**63)),
        ap(T.int32, 2.0**40),
        ap(T.int32, T.tensor([7])),
        ap(T.int32, T.tensor([7, 8])),
        ap(T.float32, T.tensor(3.0)),
        ap(T.float32, None),
        ap(T.float32, 1j),
        ap(T.float32, [1]),
        ap(T.float16, 70000.0),
        ap(T.complex64, 1 + 2j),
        ap(T.bool, 2.5),
    )


@program()
def prog_tts_resize_keeps_storage_and_counts_versions(T: Any) -> Any:
    x = T.arange(6.0)
    v0 = x._version
    x.resize_(6)
    same = x._version - v0
    x.resize_(2)
    x.resize_(6)
    y = T.arange(6.0)
    w = y.view(2, 3)
    y.resize_(3)
    z = T.arange(6.0)[2:]
    z.resize_(2)
    t = T.arange(6.0).view(2, 3).t()
    t.resize_(6)
    return x, same, x._version - v0, y, w, z, z.storage_offset(), t, t.is_contiguous()


@program()
def prog_tts_numpy_scalars_as_fill_values(T: Any) -> Any:
    m = T.tensor([True, False])
    return (
        raises(lambda: T.zeros(2, dtype=T.int8).fill_(np.int64(300))),
        T.zeros(2, dtype=T.int8).fill_(np.int8(100)),
        T.zeros(2, dtype=T.uint8).fill_(np.int64(-1)),
        raises(lambda: T.zeros(2).fill_(np.float64(1e300))),
        T.zeros(2, dtype=T.int32).fill_(np.float32(2.5)),
        raises(lambda: T.zeros(2, dtype=T.int32).fill_(np.float64("nan"))),
        raises(lambda: T.full((2,), np.int64(300), dtype=T.int8)),
        raises(lambda: T.zeros(2, dtype=T.int8).masked_fill(m, np.int64(300))),
        T.zeros(2).fill_(np.bool_(True)),
        raises(lambda: T.zeros(2, dtype=T.int8).new_full((2,), np.int64(300))),
        T.zeros(2).fill_(np.float64(2.5)),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
