"""Views and in-place ops, after torch's test/test_view_ops.py and the view and in-place tests of
test/test_autograd.py: what every view op returns (`_base`, `_is_view()`, stride(),
storage_offset(), is_contiguous()), views of views sharing the root base, writes through a view
seen by the base and the other views, version counters shared by a base and its views,
`detach()` / `.data`, in-place ops on views of tensors requiring grad (CopySlices,
AsStridedBackward0, the base's gradient, double backward), views made under no_grad or in
inference mode, the multi-output-view and leaf-view errors, overlap errors (an expanded tensor
written to, an operand or `out=` partially overlapping the written-to tensor, the deprecated
index_put_ / masked_fill_ / index_fill_ on expanded tensors), unsafe_split / unsafe_chunk,
resize_ / set_ on views, contiguous() / clone(memory_format=...), view's errors and reshape's
copy-or-view choice, hooks and retain_grad on views modified in place. The programs register
into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch
and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _ar(T: Any, *shape: int) -> Any:
    """arange(n) shaped, float32: values that show which element went where."""
    n = 1
    for s in shape:
        n *= s
    return T.arange(float(n)).reshape(*shape)


def _geo(t: Any) -> Any:
    """What torch's view tests check of a tensor: its geometry and view metadata."""
    return (
        tuple(t.shape),
        t.stride(),
        t.storage_offset(),
        t.is_contiguous(),
        t._is_view(),
        t._version,
    )


def _views(base: Any, views: dict[str, Any]) -> Any:
    """Each view's geometry, whether its _base is `base`, and its values."""
    return {k: (_geo(v), v._base is base, v) for k, v in views.items()}


# --- geometry of every view op ---------------------------------------------------------------


@program()
def prog_vi_transpose_permute_movedim_geometry(T: Any) -> Any:
    x = _ar(T, 2, 3, 4)
    return _views(
        x,
        {
            "t01": x.transpose(0, 1),
            "t_neg": x.transpose(-1, -3),
            "same": x.transpose(1, 1),
            "perm": x.permute(2, 0, 1),
            "perm_neg": x.permute(-1, -2, -3),
            "perm_id": x.permute(0, 1, 2),
            "movedim": x.movedim(0, -1),
            "movedim_seq": x.movedim((0, 1), (2, 0)),
            "moveaxis": x.moveaxis(-1, 0),
            "swapaxes": x.swapaxes(0, 2),
            "swapdims": x.swapdims(1, 2),
            "mT": x.mT,
        },
    )


@program()
def prog_vi_t_T_H_mT_mH_adjoint_geometry(T: Any) -> Any:
    m = _ar(T, 2, 3)
    z = T.tensor([[1 + 2j, 3 - 1j], [0.5j, 2.0]])
    one = T.arange(3.0)
    out = _views(m, {"t": m.t(), "T": m.T, "H": m.H, "mT": m.mT, "mH": m.mH, "adj": m.adjoint()})
    out["1d_t"] = (_geo(one.t()), one.t()._base is one)
    out["complex"] = (z.mH.is_conj(), z.H.is_conj(), z.mT.is_conj(), _geo(z.mH), z.adjoint())
    out["errors"] = (
        raises(lambda: one.mT),
        raises(lambda: one.mH),
        raises(lambda: _ar(T, 2, 2, 2).H),
        raises(lambda: _ar(T, 2, 2, 2).t()),
    )
    return out


@program()
def prog_vi_select_narrow_slice_geometry(T: Any) -> Any:
    x = _ar(T, 3, 4, 5)
    return _views(
        x,
        {
            "select": x.select(1, 2),
            "select_neg": x.select(-1, -1),
            "int_index": x[1],
            "narrow": x.narrow(2, 1, 3),
            "narrow_neg_start": x.narrow(1, -2, 2),
            "step2": x[:, ::2],
            "step3_offset": x[1:, 1::3, 2:],
            "mixed": x[2, 1:3, ::4],
            "ellipsis": x[..., 1],
            "none": x[None, :, None, 1],
            "colon": x[:],
        },
    )


@program()
def prog_vi_diagonal_geometry(T: Any) -> Any:
    x = _ar(T, 3, 4, 5)
    out = _views(
        x,
        {
            "d": x.diagonal(),
            "off1": x.diagonal(1),
            "off_neg": x.diagonal(-1, 1, 2),
            "dims20": x.diagonal(0, 2, 0),
            "past_end": x.diagonal(7, 1, 2),
            "fn": T.diagonal(x, offset=2, dim1=-1, dim2=-2),
        },
    )
    out["errors"] = (
        raises(lambda: x.diagonal(0, 1, 1)),
        raises(lambda: x.diagonal(0, 0, 3)),
        raises(lambda: x.diagonal(0, -1, 2)),
    )
    return out


@program()
def prog_vi_unfold_geometry_and_errors(T: Any) -> Any:
    x = _ar(T, 2, 7)
    out = _views(
        x,
        {
            "u": x.unfold(1, 3, 2),
            "u_step1": x.unfold(1, 2, 1),
            "u_dim0": x.unfold(0, 2, 1),
            "u_size0": x.unfold(1, 0, 3),
            "u_full": x.unfold(1, 7, 7),
            "u_of_t": x.t().unfold(0, 3, 3),
            "u_0d": T.tensor(5.0).unfold(0, 1, 1),
        },
    )
    out["errors"] = (
        raises(lambda: x.unfold(1, 8, 1)),
        raises(lambda: x.unfold(1, 2, 0)),
        raises(lambda: x.unfold(1, 2, -1)),
        raises(lambda: x.unfold(2, 1, 1)),
        raises(lambda: T.tensor(5.0).unfold(0, 2, 1)),
    )
    return out


@program()
def prog_vi_unbind_split_chunk_geometry(T: Any) -> Any:
    x = _ar(T, 3, 5)
    out = {}
    for name, parts in (
        ("unbind0", x.unbind(0)),
        ("unbind1", x.unbind(1)),
        ("split2", x.split(2, 1)),
        ("split_sizes", x.split([1, 4], 1)),
        ("split_with_sizes", x.split_with_sizes([2, 3], 1)),
        ("chunk", x.chunk(2, 1)),
        ("chunk_more", x.chunk(6, 0)),
        ("tensor_split", x.tensor_split(3, 1)),
        ("tensor_split_idx", x.tensor_split([1, 4], 1)),
        ("hsplit", x.hsplit([2])),
        ("vsplit", x.vsplit(3)),
    ):
        out[name] = [(_geo(p), p._base is x, p) for p in parts]
    return out


@program()
def prog_vi_split_chunk_unbind_errors(T: Any) -> Any:
    x = _ar(T, 3, 4)
    return (
        raises(lambda: x.split(0, 1)),
        raises(lambda: x.split(-1, 1)),
        raises(lambda: x.split([1, 2], 1)),
        raises(lambda: x.split([1, -1, 4], 1)),
        raises(lambda: x.split_with_sizes([5], 1)),
        raises(lambda: x.chunk(0)),
        raises(lambda: x.chunk(-2, 1)),
        raises(lambda: x.unbind(2)),
        raises(lambda: T.tensor(1.0).unbind()),
        raises(lambda: T.tensor(1.0).split(1)),
        [p.shape for p in T.zeros(0, 3).split(2)],
        [p.shape for p in T.zeros(5, 0).split(0, 1)],
        [p.shape for p in T.zeros(5).chunk(4)],
        [p.shape for p in T.zeros(0).chunk(3)],
    )


@program()
def prog_vi_squeeze_unsqueeze_flatten_unflatten_geometry(T: Any) -> Any:
    x = _ar(T, 2, 1, 3, 1)
    y = _ar(T, 2, 3, 4)
    out = _views(
        x,
        {
            "sq": x.squeeze(),
            "sq1": x.squeeze(1),
            "sq_noop": x.squeeze(0),
            "sq_tuple": x.squeeze((1, 3)),
            "sq_neg": x.squeeze(-1),
            "unsq0": x.unsqueeze(0),
            "unsq_end": x.unsqueeze(4),
            "unsq_neg": x.unsqueeze(-2),
        },
    )
    out["flat"] = _views(
        y,
        {
            "flatten": y.flatten(),
            "flatten1": y.flatten(1),
            "flatten_same": y.flatten(1, 1),
            "unflatten": y.unflatten(2, (2, 2)),
            "unflatten_infer": y.unflatten(-1, (-1, 2)),
            "unflatten_1": y.unflatten(0, (2, 1)),
            "ravel": y.ravel(),
        },
    )
    out["copies"] = (
        y.t_() if False else y.transpose(0, 2).flatten()._is_view(),
        y.transpose(0, 2).ravel()._is_view(),
        y[:, ::2].flatten(1)._is_view(),
        T.tensor(3.0).flatten()._is_view(),
        _geo(T.tensor(3.0).flatten()),
    )
    out["errors"] = (
        raises(lambda: y.unflatten(2, (3, -1))),
        raises(lambda: y.unflatten(2, ())),
        raises(lambda: y.flatten(2, 0)),
        raises(lambda: y.squeeze(3)),
        raises(lambda: y.unsqueeze(4)),
        raises(lambda: y.unsqueeze(-5)),
    )
    return out


@program()
def prog_vi_expand_geometry_and_errors(T: Any) -> Any:
    x = _ar(T, 3, 1)
    out = _views(
        x,
        {
            "e": x.expand(3, 4),
            "e_lead": x.expand(2, 3, 4),
            "e_keep": x.expand(-1, 2),
            "e_same": x.expand(3, 1),
            "expand_as": x.expand_as(T.zeros(2, 3, 5)),
            "bcast": T.broadcast_to(x, (3, 2)),
        },
    )
    out["e_of_slice"] = _geo(_ar(T, 4, 3)[:, :1].expand(4, 5))
    out["errors"] = (
        raises(lambda: x.expand(4, 4)),
        raises(lambda: x.expand(4)),
        raises(lambda: x.expand(-1, -1, 2)),
        raises(lambda: x.expand(3, -2)),
        raises(lambda: x.expand(3, 0)),
    )
    return out


@program()
def prog_vi_view_and_reshape_geometry(T: Any) -> Any:
    x = _ar(T, 2, 3, 4)
    out = _views(
        x,
        {
            "view": x.view(6, 4),
            "view_infer": x.view(-1, 2),
            "view_as": x.view_as(T.zeros(4, 6)),
            "view_size": x.view(T.Size([24])),
            "reshape_view": x.reshape(4, 6),
            "reshape_as": x.reshape_as(T.zeros(3, 8)),
            "view_0d": x[0, 0, :1].view(()),
            "view_1": T.tensor(2.0).view(1, 1),
        },
    )
    # views of a transposed tensor that merge or split compatible dims only
    t = x.transpose(1, 2)  # (2, 4, 3)
    out["t_views"] = (_geo(t.view(2, 4, 3)), _geo(t.reshape(2, 12)), _geo(t.unflatten(1, (2, 2))))
    out["t_view_split"] = _geo(x.permute(1, 0, 2).view(3, 2, 2, 2))
    return out


@program()
def prog_vi_view_error_wording(T: Any) -> Any:
    x = _ar(T, 2, 3, 4)
    return (
        raises(lambda: x.transpose(0, 1).view(-1)),
        raises(lambda: x.transpose(1, 2).view(2, 12)),
        raises(lambda: x[:, ::2].view(-1)),
        raises(lambda: x.view(5, -1)),
        raises(lambda: x.view(-1, -1)),
        raises(lambda: x.view(2, -2, 4)),
        raises(lambda: x.view(0, -1)),
        raises(lambda: x.view(7)),
        raises(lambda: x.view(2.0, 12)),
        raises(lambda: x.view((2, 12), 1)),
        raises(lambda: x.reshape(5, -1)),
        raises(lambda: T.zeros(0, 3).view(-1, 0)),
        T.zeros(0, 3).view(-1, 6).shape,
    )


@program()
def prog_vi_view_dtype_geometry(T: Any) -> Any:
    x = _ar(T, 2, 4)
    out = _views(
        x,
        {
            "i32": x.view(T.int32),
            "u8": x.view(T.uint8),
            "f16": x.view(T.float16),
            "f64": x.view(T.float64),
            "t_i32": x.t().view(T.int32),
        },
    )
    out["errors"] = (
        raises(lambda: x.t().view(T.float64)),
        raises(lambda: x.t().view(T.int8)),
        raises(lambda: x[:, :1].view(T.float64)),
        raises(lambda: x[:, 1:].view(T.float64)),
        raises(lambda: T.tensor(1.0).view(T.float64)),
    )
    return out


@program()
def prog_vi_view_as_real_complex_geometry(T: Any) -> Any:
    z = T.tensor([[1 + 2j, 3 - 1j, 0.5j], [2.0, -1j, 4 + 4j]])
    r = T.view_as_real(z)
    out = _views(
        z,
        {
            "real_view": r,
            "of_t": T.view_as_real(z.t()),
            "of_col": T.view_as_real(z[:, 1]),
            "real": z.real,
            "imag": z.imag,
            "back": T.view_as_complex(r),
        },
    )
    out["back_base"] = T.view_as_complex(r)._base is z
    out["complex_of_slice"] = _geo(T.view_as_complex(r[1:]))
    out["f64"] = (T.view_as_real(z.to(T.complex128)).dtype, T.view_as_complex(r.double()).dtype)
    return out


@program()
def prog_vi_view_as_complex_errors(T: Any) -> Any:
    r = _ar(T, 3, 2)
    return (
        raises(lambda: T.view_as_complex(r[:, :1])),
        raises(lambda: T.view_as_complex(r.t())),
        raises(lambda: T.view_as_complex(_ar(T, 4, 2)[::2])),
        raises(lambda: T.view_as_complex(T.zeros(7)[1:].view(3, 2))),
        raises(lambda: T.view_as_complex(T.zeros(3, 2, dtype=T.int32))),
        raises(lambda: T.view_as_complex(T.tensor(1.0))),
        raises(lambda: T.view_as_real(r)),
        raises(lambda: T.view_as_real(T.zeros(2, dtype=T.int64))),
        T.view_as_complex(_ar(T, 2, 2, 2).transpose(0, 1)),
    )


@program()
def prog_vi_as_strided_geometry_and_errors(T: Any) -> Any:
    x = _ar(T, 4, 4)
    v = x[1:]
    out = _views(
        x,
        {
            "a": x.as_strided((2, 2), (1, 2)),
            "a_off": x.as_strided((2, 3), (4, 1), 5),
            "a_of_view_keeps_offset": v.as_strided((2, 2), (1, 2)),
            "a_of_view_off0": v.as_strided((2, 2), (1, 2), 0),
            "a_overlap": x.as_strided((3, 3), (1, 1)),
            "a_stride0": x.as_strided((2, 3), (0, 1)),
            "a_empty": x.as_strided((0, 3), (100, 1)),
            "fn": T.as_strided(x, (2,), (5,), 1),
        },
    )
    out["errors"] = (
        raises(lambda: x.as_strided((5, 5), (4, 1))),
        raises(lambda: x.as_strided((2,), (-1,))),
        raises(lambda: x.as_strided((2, 2), (1,))),
        raises(lambda: x.as_strided((2,), (1,), -1)),
        raises(lambda: x.as_strided((0,), (1,), -2)),
        raises(lambda: x.as_strided((2,), (1,), 15)),
        raises(lambda: x.as_strided((2,), (-1,), -1)),
    )
    return out


@program()
def prog_vi_alias_and_getitem_views(T: Any) -> Any:
    x = _ar(T, 2, 3)
    out = _views(
        x,
        {
            "alias": T.alias_copy(x) if False else x.view_as(x),
            "ellipsis": x[...],
            "none_ell": x[None, ...],
            "bool_true": x[True],
            "neg_int": x[-1],
            "int_tensor_0d": x[T.tensor(1)],
        },
    )
    out["copies"] = (
        x[[1]]._is_view(),
        x[T.tensor([0, 1])]._is_view(),
        x[x > 2]._is_view(),
        x[False]._is_view(),
        x[False].shape,
    )
    out["same_object"] = (x[...] is x, x.view_as(x) is x, x.contiguous() is x)
    out["errors"] = (
        raises(lambda: x[::-1]),
        raises(lambda: x[:, ::0]),
        raises(lambda: x[..., ...]),
        raises(lambda: x[0, 0, 0]),
        raises(lambda: x[1.5]),
        raises(lambda: x[2]),
        raises(lambda: x[:, -4]),
        raises(lambda: x["a"]),
    )
    return out


# --- views of views, data sharing, version counters -------------------------------------------


@program()
def prog_vi_views_of_views_share_root_base(T: Any) -> Any:
    x = _ar(T, 4, 6)
    a = x[1:]
    b = a.t()
    c = b[::2, 1:]
    d = c.unsqueeze(0).expand(2, -1, -1)
    e = d[1].diagonal()
    chain = [a, b, c, d, e]
    return (
        [(v._base is x, _geo(v)) for v in chain],
        x._base is None,
        x._is_view(),
        e,
    )


@program()
def prog_vi_writes_through_views_seen_everywhere(T: Any) -> Any:
    x = T.zeros(3, 4)
    row = x[1]
    col = x[:, 2]
    diag = x.diagonal()
    tv = x.t()
    flat = x.view(-1)
    row.fill_(1.0)
    col.add_(10.0)
    diag.mul_(-1.0)
    tv[3, 0] = 7.0
    flat[::5] += 0.5
    x.unfold(1, 2, 2)[2, 1, 0] = 99.0
    return x, row, col, diag, tv, flat, [v._version for v in (x, row, col, diag, tv, flat)]


@program()
def prog_vi_version_counter_shared_by_base_and_views(T: Any) -> Any:
    x = T.zeros(4)
    v1 = x[:2]
    v2 = x.view(2, 2)
    d = x.detach()
    dv = d[1:]
    vers = [(x._version, v1._version, v2._version, d._version, dv._version)]
    v1.add_(1)
    vers.append((x._version, v1._version, v2._version, d._version, dv._version))
    dv.zero_()
    vers.append((x._version, v1._version, v2._version, d._version, dv._version))
    x.copy_(T.ones(4))
    vers.append((x._version, v1._version, v2._version, d._version, dv._version))
    v3 = x[3:]  # made after the writes: reads the shared count
    vers.append(v3._version)
    y = x + 0  # out of place: a new counter
    vers.append(y._version)
    return vers


@program()
def prog_vi_data_and_detach_version_semantics(T: Any) -> Any:
    w = _x(T, 3)
    da = w.data
    de = w.detach()
    out = [(da._is_view(), de._is_view(), da._base is None, de._base is None)]
    da.add_(1.0)  # .data: the values change, the version of w does not
    out.append((w._version, da._version, de._version))
    de.mul_(2.0)  # detach(): shares the version counter
    out.append((w._version, da._version, de._version))
    out.append((w.requires_grad, de.requires_grad, da.requires_grad, de.is_leaf, da.is_leaf))
    y = (w * w).sum()
    de.add_(1.0)  # modifies what MulBackward0 saved
    out.append(raises(lambda: y.backward()))
    w.grad = None
    z = (w * w).sum()
    w.data.add_(1.0)  # .data: undetected, the gradient uses the new values
    z.backward()
    out.append(w.grad)
    return out, w


@program()
def prog_vi_detach_of_view_and_view_of_detach(T: Any) -> Any:
    x = _x(T, 2, 3)
    b = x * 1
    v = b[0]
    dv = v.detach()
    vd = b.detach()[0]
    out = (
        (dv._is_view(), dv._base is None, dv.requires_grad, dv.storage_offset()),
        (vd._is_view(), vd._base is b, vd.requires_grad, vd.storage_offset()),
    )
    dv.fill_(5.0)
    vd.mul_(2.0)
    return out, b, b._version, v._version, raises(lambda: v.detach_())


@program()
def prog_vi_storage_sharing_and_data_ptr(T: Any) -> Any:
    x = _ar(T, 3, 4)
    v = x[1:, 2:]
    t = x.t()
    e = x[:1].expand(5, 4)
    c = x.clone()
    return (
        v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
        v.data_ptr() - x.data_ptr(),
        t.data_ptr() == x.data_ptr(),
        e.data_ptr() == x.data_ptr(),
        c.data_ptr() == x.data_ptr(),
        v.untyped_storage().nbytes(),
        e.untyped_storage().nbytes(),
        x.is_set_to(x),
        v.is_set_to(x),
        x.view(12).is_set_to(x) if False else None,
    )


# --- in-place ops on views of tensors requiring grad -------------------------------------------


@program()
def prog_vi_inplace_on_view_copyslices_and_asstrided(T: Any) -> Any:
    a = _x(T, 3, 4)
    b = a * 2
    v = b[1]
    v.mul_(3.0)
    names = (type(b.grad_fn).__name__, type(v.grad_fn).__name__)
    b.sum().backward()
    return names, b.grad_fn, v.grad_fn, a.grad, b._version, v._version


@program()
def prog_vi_inplace_on_every_view_kind_grads(T: Any) -> Any:
    out = {}
    for name, mk in (
        ("t", lambda b: b.t()),
        ("transpose", lambda b: b.transpose(0, 1)),
        ("diag", lambda b: b.diagonal()),
        ("narrow", lambda b: b.narrow(1, 1, 2)),
        ("select", lambda b: b.select(0, 2)),
        ("step", lambda b: b[::2, ::3]),
        ("unsqueeze", lambda b: b.unsqueeze(1)),
        ("view", lambda b: b.view(-1)),
        ("expand_sel", lambda b: b[:1].expand(3, 4)[1]),
        ("unfold", lambda b: b.unfold(1, 2, 2)),
        ("as_strided", lambda b: b.as_strided((2, 2), (1, 4), 1)),
        ("permute", lambda b: b.permute(1, 0)),
        ("movedim", lambda b: b.movedim(0, 1)),
        ("squeeze", lambda b: b[:1].squeeze(0)),
        ("flatten", lambda b: b.flatten()),
        ("unflatten", lambda b: b.unflatten(1, (2, 2))),
        ("real", lambda b: b[0]),
    ):
        a = _x(T, 3, 4, seed=3)
        b = a.clone()
        v = mk(b)
        v.mul_(v.detach() + 2)
        (b * T.arange(12.0).view(3, 4)).sum().backward()
        out[name] = (v.grad_fn, b.grad_fn, a.grad, b)
    return out


@program()
def prog_vi_inplace_on_view_of_view_double_backward(T: Any) -> Any:
    a = _x(T, 4, 3, seed=5)
    b = a * a
    v = b[1:].t()[1]
    v.mul_(a[0])
    y = (b**2).sum()
    (g,) = T.autograd.grad(y, a, create_graph=True)
    (gg,) = T.autograd.grad(g.sum(), a)
    return v.grad_fn, b.grad_fn, g, gg


@program()
def prog_vi_inplace_on_view_with_operand_requiring_grad(T: Any) -> Any:
    base = T.zeros(2, 3)  # no grad
    w = _x(T, 3, seed=2)
    v = base[1]
    v.add_(w * 2)  # the base now requires grad through CopySlices
    out = (base.requires_grad, base.grad_fn, v.grad_fn, base.is_leaf, v.is_leaf)
    (base * T.tensor([[1.0], [2.0]])).sum().backward()
    return out, w.grad, base


@program()
def prog_vi_setitem_on_views_records_copyslices(T: Any) -> Any:
    a = _x(T, 3, 4, seed=7)
    b = a.clone()
    b[0] = 0.0
    b[1:, ::2] = a[:2, 1::2] * 3
    b[:, 3] += 1
    b[b.detach() > 1] = 5.0
    b.sum().backward()
    return b, b.grad_fn, a.grad


@program()
def prog_vi_view_grad_fn_regenerated_after_base_inplace(T: Any) -> Any:
    a = _x(T, 2, 3, seed=1)
    b = a * 1
    v = b[0]
    w = b.t()
    d = b.diagonal()
    before = (v.grad_fn, w.grad_fn, d.grad_fn)
    b.add_(1.0)
    after = (v.grad_fn, w.grad_fn, d.grad_fn)
    (v.sum() + w[2].sum() * 2 + d.sum() * 3).backward()
    return before, after, a.grad


@program()
def prog_vi_inplace_through_base_then_view_used(T: Any) -> Any:
    a = _x(T, 4, seed=9)
    b = a.clone()
    v = b[1:3]
    b.mul_(2)
    y = (v * v).sum()
    y.backward()
    return v.grad_fn, a.grad, v._version, b._version


@program()
def prog_vi_view_saved_then_base_modified_errors(T: Any) -> Any:
    a = _x(T, 3, seed=2)
    b = a.clone()
    v = b[:2]
    y = v.exp()  # saves its result
    z = v * v  # saves the view
    b.zero_()
    return (
        raises(lambda: y.sum().backward(retain_graph=True)),
        raises(lambda: z.sum().backward()),
        v._version,
    )


# --- multi-output views, leaf views, no_grad and inference_mode views -----------------------


@program()
def prog_vi_multi_output_view_inplace_errors(T: Any) -> Any:
    a = _x(T, 4, 6, seed=4)
    out = {}
    for name, mk in (
        ("unbind", lambda b: b.unbind(0)),
        ("split", lambda b: b.split(2, 1)),
        ("chunk", lambda b: b.chunk(3, 1)),
        ("split_with_sizes", lambda b: b.split_with_sizes([1, 5], 1)),
        ("tensor_split", lambda b: b.tensor_split(2, 1)),
        ("hsplit", lambda b: b.hsplit(2)),
        ("iter", lambda b: list(b)),
    ):
        b = a * 1
        parts = mk(b)
        out[name] = (
            raises(lambda p=parts: p[0].mul_(2)),
            raises(lambda p=parts: p[-1].zero_()),
            raises(lambda p=parts: p[0].__setitem__(0, 1.0)),
            parts[0].grad_fn,
        )
    return out


@program()
def prog_vi_multi_output_view_of_view_and_no_grad(T: Any) -> Any:
    a = _x(T, 3, 4, seed=6)
    b = a * 1
    p = b.unbind(0)[1]
    out = [raises(lambda: p[1:].add_(1)), raises(lambda: p.view(2, 2).add_(1))]
    c = a * 1
    with T.no_grad():
        q = c.split(2, 1)[0]
    out.append(raises(lambda: q.mul_(2)))
    with T.no_grad():
        q.mul_(2)  # under no_grad: allowed
    out.append((c, q._version))
    d = a.detach().clone()
    parts = d.unbind(0)
    parts[0].add_(1)  # no grad anywhere: allowed
    out.append(d)
    return out


@program()
def prog_vi_unsafe_split_and_chunk_allow_inplace(T: Any) -> Any:
    a = _x(T, 6, seed=8)
    b = a * 1
    parts = b.unsafe_split(2)
    chunks = (a * 1).unsafe_chunk(3)
    sizes = T.unsafe_split_with_sizes(a * 1, [1, 5])
    geo = [(_geo(p), p._base is b) for p in parts]
    names = [p.grad_fn for p in (*parts, *chunks, *sizes)]
    parts[0].mul_(3)
    chunks[1].add_(1)
    (parts[0].sum() + parts[1].sum() + chunks[1].sum() * 2 + sizes[1].sum()).backward()
    return geo, names, parts[0].grad_fn, b.grad_fn, a.grad


@program()
def prog_vi_leaf_view_inplace_errors(T: Any) -> Any:
    a = _x(T, 2, 3, seed=1)
    out = []
    for mk in (
        lambda: a[0],
        lambda: a.t(),
        lambda: a.view(-1),
        lambda: a.diagonal(),
        lambda: a.expand(2, 2, 3)[0],
        lambda: a.unbind(0)[0],
        lambda: a.split(1)[1],
        lambda: a.unsafe_split(1)[0],
    ):
        v = mk()
        out.append(
            (
                raises(lambda v=v: v.add_(1)),
                raises(lambda v=v: v.copy_(T.zeros(v.shape))),
                raises(lambda v=v: v.__setitem__(..., 1.0)),
                v.grad_fn,
                v.is_leaf,
            )
        )
    out.append(raises(lambda: a.add_(1)))
    with T.no_grad():
        a[0].add_(1)
    out.append((a, a._version, a.grad_fn))
    return out


@program()
def prog_vi_view_of_leaf_made_in_no_grad(T: Any) -> Any:
    a = _x(T, 2, 3, seed=3)
    with T.no_grad():
        v = a[0]
        w = a.t()
    out = [(v.requires_grad, v.grad_fn, v.is_leaf, v._is_view(), v._base is a)]
    out.append(raises(lambda: v.mul_(2)))
    out.append(raises(lambda: w.zero_()))
    b = a * 1
    with T.no_grad():
        u = b[1]
    out.append((u.requires_grad, u.grad_fn, u.is_leaf))
    out.append(raises(lambda: u.mul_(2)))
    return out


@program()
def prog_vi_no_grad_view_base_modified_then_read(T: Any) -> Any:
    a = _x(T, 3, seed=4)
    b = a * 2
    with T.no_grad():
        v = b[:2]
    b.add_(1)
    return (
        raises(lambda: v.grad_fn),
        raises(lambda: v * 2),
        raises(lambda: v.is_leaf),
        v.requires_grad,
        v.detach(),
    )


@program()
def prog_vi_inference_mode_views(T: Any) -> Any:
    a = T.ones(2, 3)
    with T.inference_mode():
        i = T.ones(2, 3)
        iv = i[0]
        av = a[1]  # a view of a normal tensor made in inference mode
        av2 = a.t()
    out = [
        (i.is_inference(), iv.is_inference(), av.is_inference(), av._is_view(), av._base is a),
        raises(lambda: iv.add_(1)),
        raises(lambda: av.add_(1)),
        raises(lambda: av2.mul_(2)),
        raises(lambda: iv._version),
        raises(lambda: av._version),
    ]
    with T.inference_mode():
        iv.add_(1)  # fine inside
        av.add_(1)
    out.append((i.tolist(), a, a._version))
    out.append(raises(lambda: i.view(3, 2).add_(1)))
    out.append(raises(lambda: i.t().mul_(2)))
    return out


@program()
def prog_vi_inference_mode_view_of_requires_grad(T: Any) -> Any:
    w = _x(T, 2, 3, seed=5)
    b = w * 2
    with T.inference_mode():
        v = b[0]
    out = [(v.requires_grad, v.grad_fn, v.is_inference(), v._is_view())]
    out.append(raises(lambda: v.add_(1)))
    with T.inference_mode():
        out.append(raises(lambda: v.add_(1) is v))
    out.append((b.detach(), v.tolist(), raises(lambda: b.grad_fn), raises(lambda: v.grad_fn)))
    return out


# --- overlap errors and the expanded-tensor deprecations --------------------------------------


@program()
def prog_vi_expanded_inplace_overlap_errors(T: Any) -> Any:
    x = T.zeros(3)
    e = x.expand(2, 3)
    return (
        raises(lambda: e.add_(1)),
        raises(lambda: e.mul_(2)),
        raises(lambda: e.copy_(T.ones(2, 3))),
        raises(lambda: e.exp_()),
        raises(lambda: e.clamp_(0, 1)),
        raises(lambda: e.relu_()),
        raises(lambda: e.addcmul_(T.ones(3), T.ones(3))),
        raises(lambda: e.lerp_(T.ones(3), 0.5)),
        raises(lambda: e[:, 1].copy_(T.ones(2))),
        raises(lambda: e[:, 1].add_(1)),
        raises(lambda: T.add(x, 1, out=e)),
        x,
        x._version,
    )


@program()
def prog_vi_expanded_fills_are_allowed(T: Any) -> Any:
    x = T.zeros(3)
    e = x.expand(2, 3)
    e.fill_(2.0)
    r1 = x.clone()
    e.zero_()
    r2 = x.clone()
    e[0].fill_(4.0)  # one row: no overlap within it
    r3 = x.clone()
    e[0].add_(1)
    return r1, r2, r3, x, x._version, e._version


@program()
def prog_vi_expanded_fill_on_view_requiring_grad(T: Any) -> Any:
    a = _x(T, 3, seed=2)
    b = a.clone()
    v = b.expand(2, 3)
    v.fill_(1.5)
    out = (b, v.grad_fn, b.grad_fn)
    # the backward copies the fill's gradient into the expanded view: refused
    e1 = raises(lambda: b.sum().backward())
    c = a.clone()
    c.expand(4, 3).zero_()
    e2 = raises(lambda: (c * 2).sum().backward())
    d = a.clone()
    d.expand(4, 3)[0].fill_(2.0)  # one row: no overlap
    d.sum().backward()
    return out, e1, e2, a.grad, c, d


@program()
def prog_vi_expanded_index_ops_warn_and_write(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.zeros(3)
        out[name] = (raises(lambda: f(x.expand(2, 3))), x, x._version)

    run("index_fill_", lambda e: e.index_fill_(1, T.tensor([1]), 5.0))
    run("index_fill_row", lambda e: e.index_fill_(0, T.tensor([0]), 1.0))
    run("masked_fill_", lambda e: e.masked_fill_(T.tensor([True, False, True]), 5.0))
    run("masked_fill_0d", lambda e: e.masked_fill_(T.tensor(True), 2.0))
    run(
        "masked_fill_tensor",
        lambda e: e.masked_fill_(T.tensor([False, True, False]), T.tensor(3.0)),
    )
    run("index_put_", lambda e: e.index_put_((T.tensor([1]), T.tensor([2])), T.tensor(7.0)))
    run(
        "index_put_last_wins",
        lambda e: e.index_put_((T.tensor([0, 1]), T.tensor([0, 0])), T.tensor([1.0, 2.0])),
    )
    run("setitem_index", lambda e: e.__setitem__(T.tensor([0]), T.tensor([1.0, 2.0, 3.0])))
    run(
        "setitem_mask",
        lambda e: e.__setitem__(T.tensor([[True, False, False], [False, False, True]]), 2.0),
    )
    run("setitem_slice", lambda e: e.__setitem__((slice(None), 1), 4.0))
    run("masked_scatter_", lambda e: e.masked_scatter_(T.ones(2, 3, dtype=T.bool), T.ones(6)))
    run("scatter_", lambda e: e.scatter_(0, T.zeros(1, 3, dtype=T.long), 1.0))
    run("index_copy_", lambda e: e.index_copy_(0, T.tensor([0]), T.ones(1, 3)))
    return out


@program()
def prog_vi_expanded_index_ops_other_dtypes(T: Any) -> Any:
    i = T.zeros(3, dtype=T.int64)
    i.expand(2, 3).masked_fill_(T.tensor(True), 5)
    n = T.full((3,), float("nan"))
    n.expand(2, 3).index_fill_(1, T.tensor([0]), 1.0)
    b = T.zeros(2, dtype=T.bool)
    b.expand(3, 2)[T.tensor([1])] = T.tensor([True, False])
    h = T.zeros(2, dtype=T.float16)
    h.unsqueeze(0).expand(2, 2).index_fill_(1, T.tensor([1]), 1 / 3)
    return i, n, b, h


@program()
def prog_vi_expanded_index_op_on_view_requiring_grad(T: Any) -> Any:
    a = _x(T, 3, seed=6)
    b = a.clone()
    v = b.expand(2, 3)
    out = [
        raises(lambda: v.index_fill_(1, T.tensor([1]), 5.0)),
        raises(lambda: v.masked_fill_(T.tensor([True, False, True]), 7.0)),
        b,
        b.grad_fn,
    ]
    # the backward writes the op's gradient into the expanded view: refused
    out.append(raises(lambda: b.sum().backward()))
    return out


@program()
def prog_vi_inplace_partial_overlap_errors(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.arange(16.0) + 1
        out[name] = (raises(lambda: f(x)), x)

    run("add_", lambda x: x[:4].add_(x[1:5]))
    run("sub_rev", lambda x: x[1:5].sub_(x[:4]))
    run("mul_0d", lambda x: x[:4].mul_(x[0]))
    run("div_", lambda x: x[:4].div_(x[2:6]))
    run("pow_", lambda x: x[:4].pow_(x[1:5]))
    run("atan2_", lambda x: x[:4].atan2_(x[1:5]))
    run("lerp_", lambda x: x[:4].lerp_(x[1:5], 0.5))
    run("addcdiv_", lambda x: x[:4].addcdiv_(x[1:5], x[8:12]))
    run("clamp_min_", lambda x: x[:4].clamp_min_(x[1:5]))
    run("clamp_t", lambda x: x[:4].clamp_(x[1:5], None))
    run("eq_", lambda x: x[:4].eq_(x[1:5]))
    run("logical_and_", lambda x: x[:4].logical_and_(x[1:5]))
    run("transposed", lambda x: x[:4].view(2, 2).add_(x[:4].view(2, 2).t()))
    run("base_and_t", lambda x: x.view(4, 4).add_(x.view(4, 4).t()))
    run("iadd", lambda x: x[:4].__iadd__(x[2:6]))
    return out


@program()
def prog_vi_inplace_full_or_no_overlap_allowed(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.arange(16.0) + 1
        out[name] = (raises(lambda: f(x)), x)

    run("self", lambda x: x.mul_(x))
    run("same_view", lambda x: x[:4].add_(x[:4]))
    run("detached", lambda x: x.mul_(x.detach()))
    run("disjoint", lambda x: x[:4].add_(x[4:8]))
    run("interleaved", lambda x: x[::2].add_(x[1::2]))
    run("masked_fill_0d_value", lambda x: x[:4].masked_fill_(x[:4] > 2, x[1]))
    run("index_fill_0d_value", lambda x: x[:4].index_fill_(0, T.tensor([0]), x[1]))
    run("addmm_", lambda x: x[:4].view(2, 2).addmm_(x[1:5].view(2, 2), x[8:12].view(2, 2)))
    run("addmv_", lambda x: x[:2].addmv_(x[1:5].view(2, 2), x[8:10]))
    run("copy_shifted", lambda x: x[1:5].copy_(x[:4]))
    return out


@program()
def prog_vi_index_ops_refuse_any_overlap(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.arange(8.0) + 1
        out[name] = (raises(lambda: f(x)), x)

    idx2 = T.tensor([0, 1])
    idx4 = T.tensor([0, 1, 2, 3])
    run("index_copy_partial", lambda x: x[:4].index_copy_(0, idx2, x[1:3]))
    run("index_copy_full", lambda x: x[:4].index_copy_(0, idx4, x[:4]))
    run("index_add_partial", lambda x: x[:4].index_add_(0, idx2, x[1:3]))
    run("index_add_full", lambda x: x[:4].index_add_(0, idx4, x[:4]))
    run("scatter_partial", lambda x: x[:4].scatter_(0, idx2, x[1:3]))
    run("scatter_full", lambda x: x[:4].scatter_(0, idx4, x[:4]))
    run("scatter_add_", lambda x: x[:4].scatter_add_(0, idx2, x[1:3]))
    run("index_put_", lambda x: x[:4].index_put_((idx2,), x[1:3]))
    run("index_put_full", lambda x: x[:4].index_put_((idx4,), x[:4]))
    run("setitem_index", lambda x: x[:4].__setitem__(idx2, x[1:3]))
    run("put_", lambda x: x[:4].put_(idx2, x[1:3]))
    run("setitem_slice", lambda x: x[:4].__setitem__(slice(0, 2), x[1:3]))
    return out


@program()
def prog_vi_out_partial_overlap_errors(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.arange(16.0) + 1
        out[name] = (raises(lambda: f(x)), x)

    run("add", lambda x: T.add(x[:4], 1, out=x[1:5]))
    run("add_other", lambda x: T.add(x[8:12], x[:4], alpha=2, out=x[1:5]))
    run("sub", lambda x: T.sub(x[8:12], x[:4], out=x[1:5]))
    run("mul", lambda x: T.mul(x[:4], x[8:12], out=x[1:5]))
    run("div_floor", lambda x: T.div(x[8:12], x[:4], rounding_mode="floor", out=x[1:5]))
    run("pow", lambda x: T.pow(x[:4], 2, out=x[1:5]))
    run("exp", lambda x: T.exp(x[:4], out=x[2:6]))
    run("neg_t", lambda x: T.neg(x[:4].view(2, 2).t(), out=x[:4].view(2, 2)))
    run("sin", lambda x: T.sin(x[:4], out=x[1:5]))
    run("abs", lambda x: T.abs(x[:4], out=x[1:5]))
    run("sigmoid", lambda x: T.sigmoid(x[:4], out=x[1:5]))
    run("clamp", lambda x: T.clamp(x[:4], 1, 2, out=x[1:5]))
    run("maximum", lambda x: T.maximum(x[:4], x[8:12], out=x[1:5]))
    run("atan2", lambda x: T.atan2(x[:4], x[8:12], out=x[1:5]))
    run("where", lambda x: T.where(x[:4] > 1, x[:4], x[8:12], out=x[1:5]))
    run("addcmul", lambda x: T.addcmul(x[:4], x[8:12], x[8:12], out=x[1:5]))
    run("lerp", lambda x: T.lerp(x[:4], x[8:12], 0.5, out=x[1:5]))
    run("fmod", lambda x: T.fmod(x[:4], 3, out=x[1:5]))
    run("remainder", lambda x: T.remainder(x[:4], x[8:12], out=x[1:5]))
    run("floor", lambda x: T.floor(x[:4], out=x[1:5]))
    run("logical_not", lambda x: T.logical_not(x[:4], out=x[1:5]))
    return out


@program()
def prog_vi_out_overlap_other_kernels(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.arange(16.0) + 1
        out[name] = (raises(lambda: f(x)), x)

    run("cat", lambda x: T.cat([x[:2], x[8:10]], out=x[1:5]))
    run("stack", lambda x: T.stack([x[:2], x[8:10]], out=x[1:5].view(2, 2)))
    run("index_select", lambda x: T.index_select(x, 0, T.tensor([1, 2]), out=x[:2]))
    run("gather", lambda x: T.gather(x[:4], 0, T.tensor([1, 2]), out=x[:2]))
    run("cumsum", lambda x: T.cumsum(x[:4], 0, out=x[1:5]))
    run("sort", lambda x: T.sort(x[:4], out=(x[1:5], T.empty(4, dtype=T.long))))
    run("outer", lambda x: T.outer(x[:2], x[8:10], out=x[1:5].view(2, 2)))
    # full overlap (out is the input) and reductions / matmuls: no check
    run("exp_full", lambda x: T.exp(x[:4], out=x[:4]))
    run("add_full", lambda x: T.add(x[:4], x[4:8], out=x[4:8]))
    run("disjoint", lambda x: T.mul(x[:4], 2, out=x[4:8]))
    run("interleaved", lambda x: T.neg(x[1::2], out=x[::2]))
    return out


@program()
def prog_vi_out_expanded_internal_overlap(T: Any) -> Any:
    x = T.zeros(3)
    return (
        raises(lambda: T.add(T.ones(2, 3), 1, out=x.expand(2, 3))),
        raises(lambda: T.exp(T.ones(2, 3), out=x.expand(2, 3))),
        raises(lambda: T.cat([T.ones(1, 3), T.ones(1, 3)], out=x.expand(2, 3))),
        raises(lambda: T.sort(T.ones(2, 3), out=(x.expand(2, 3), T.empty(2, 3, dtype=T.long)))),
        x,
    )


# --- resize_, set_, contiguous, clone ----------------------------------------------------------


@program()
def prog_vi_resize_on_views(T: Any) -> Any:
    x = _ar(T, 6)
    v = x[1:4]
    return (
        raises(lambda: v.resize_(2)),
        raises(lambda: v.resize_(5)),
        raises(lambda: x.view(2, 3).t().resize_(3, 2)),
        raises(lambda: x.view(2, 3).resize_(2, 3).shape),
        x.resize_(2, 2).shape,
        x._version,
        _geo(x),
    )


@program()
def prog_vi_resize_requiring_grad_and_detached(T: Any) -> Any:
    a = _x(T, 3, seed=1)
    d = a.detach()
    return (
        raises(lambda: a.resize_(2)),
        raises(lambda: a.resize_(3).shape),
        raises(lambda: (a * 2).resize_(1)),
        d.resize_(2).shape,
        a.shape,
        raises(lambda: a.resize_as_(T.zeros(2))),
    )


@program()
def prog_vi_set_on_a_view(T: Any) -> Any:
    x = _ar(T, 6)
    v = x[2:]
    src = T.ones(2)
    v.set_(src)
    out = [_geo(v), v._base is x, x, v, x._version, src._version]
    v.add_(1)  # now writes src's memory
    out += [src, x]
    w = x[1:3]
    w.set_()
    out.append((_geo(w), w._base is x))
    return out


@program()
def prog_vi_contiguous_returns_self_or_copy(T: Any) -> Any:
    x = _ar(T, 2, 3)
    t = x.t()
    c = t.contiguous()
    y = _ar(T, 1, 2, 2, 2)
    cl = y.contiguous(memory_format=T.channels_last)
    return (
        x.contiguous() is x,
        x.contiguous(memory_format=T.contiguous_format) is x,
        c is t,
        _geo(c),
        c._base is None,
        c.grad_fn,
        x[:, :1].contiguous() is not None,
        _geo(x[:1].contiguous()),
        x[:1].contiguous() is x[:1],
        _geo(cl),
        cl.contiguous(memory_format=T.channels_last) is cl,
        raises(lambda: x.contiguous(memory_format=T.preserve_format)),
        raises(lambda: x.contiguous(memory_format=T.channels_last)),
    )


@program()
def prog_vi_contiguous_of_view_requiring_grad(T: Any) -> Any:
    a = _x(T, 3, 2, seed=4)
    t = a.t()
    c = t.contiguous()
    same = a.contiguous()
    c.sum().backward()
    return c.grad_fn, same is a, a.grad, _geo(c)


@program()
def prog_vi_clone_memory_formats_strides(T: Any) -> Any:
    x = _ar(T, 1, 2, 3, 4)
    out = {}
    for name, src in (
        ("perm", x.permute(0, 2, 3, 1)),
        ("transpose13", x.transpose(1, 3)),
        ("step", x[:, :, ::2]),
        ("last_step", x[:, :, :, ::2]),
        ("expanded", x.expand(2, 2, 3, 4)),
        ("t_2d", _ar(T, 3, 4).t()),
    ):
        out[name] = [
            (c.stride(), c.is_contiguous(), c.is_contiguous(memory_format=T.channels_last))
            for c in (
                src.clone(),
                src.clone(memory_format=T.preserve_format),
                src.clone(memory_format=T.contiguous_format),
            )
        ]
    out["cl"] = x.clone(memory_format=T.channels_last).stride()
    out["cl3d"] = _ar(T, 1, 2, 2, 2, 2).clone(memory_format=T.channels_last_3d).stride()
    out["cl_err"] = raises(lambda: _ar(T, 2, 3).clone(memory_format=T.channels_last))
    out["like"] = (
        T.empty_like(x.transpose(1, 3)).stride(),
        T.zeros_like(x.permute(0, 2, 3, 1)).stride(),
    )
    return out


@program()
def prog_vi_clone_of_view_is_not_a_view(T: Any) -> Any:
    a = _x(T, 2, 3, seed=7)
    v = a[1]
    c = v.clone()
    c.mul_(2)  # a clone is no view: in place is fine, the leaf untouched
    c.sum().backward()
    return _geo(c), c._base is None, c.grad_fn, a.grad, a


# --- reshape: copy or view ---------------------------------------------------------------------


@program()
def prog_vi_reshape_copy_or_view(T: Any) -> Any:
    x = _ar(T, 2, 3)
    cases = {
        "same": x.reshape(3, 2),
        "t_flat": x.t().reshape(6),
        "t_same_shape": x.t().reshape(3, 2),
        "t_split": x.t().reshape(3, 2, 1),
        "cols": x[:, :2].reshape(4),
        "cols_keep": x[:, 1:].reshape(2, 2),
        "expanded_merge_lead": x.unsqueeze(0).expand(2, 2, 3).reshape(4, 3),
        "expanded_keep": x.unsqueeze(0).expand(2, 2, 3).reshape(2, 6),
        "row": x[:1].reshape(3),
        "t_row": x.t()[:1].reshape(2),
        "0d": T.tensor(2.0).reshape(1),
        "empty": T.zeros(0, 3).reshape(3, 0),
    }
    return {k: (_geo(v), v.data_ptr() == x.data_ptr(), v) for k, v in cases.items()}


@program()
def prog_vi_reshape_grad_fns_copy_vs_view(T: Any) -> Any:
    a = _x(T, 2, 3, seed=9)
    v = a.reshape(3, 2)
    c = a.t().reshape(6)
    f = a.t().flatten()
    r = a.t().ravel()
    (v.sum() + (c * T.arange(6.0)).sum() + f.sum() + r.sum()).backward()
    return v.grad_fn, c.grad_fn, f.grad_fn, r.grad_fn, v._is_view(), c._is_view(), a.grad


# --- hooks and retain_grad on views modified in place ------------------------------------------


@program()
def prog_vi_hook_on_view_then_inplace(T: Any) -> Any:
    a = _x(T, 3, seed=3)
    b = a * 2
    v = b[:2]
    seen = []
    v.register_hook(lambda g: seen.append(("v", g.clone())))
    b.register_hook(lambda g: seen.append(("b", g.clone())))
    v.mul_(3)  # the hook registered before stays with the old grad_fn
    v.register_hook(lambda g: seen.append(("v_after", g.clone())))
    (b * T.tensor([1.0, 2.0, 3.0])).sum().backward()
    return [(n, g) for n, g in seen], a.grad


@program()
def prog_vi_retain_grad_on_view_then_inplace(T: Any) -> Any:
    a = _x(T, 4, seed=5)
    b = a * 3
    v = b[1:3]
    v.retain_grad()
    b.retain_grad()
    v.add_(1)
    w = b[::2]
    w.retain_grad()
    w.mul_(2)
    (b * T.arange(4.0)).sum().backward()
    return v.grad, b.grad, w.grad, a.grad, v.retains_grad, w.retains_grad


@program()
def prog_vi_retain_grad_on_base_then_inplace_through_view(T: Any) -> Any:
    a = _x(T, 2, 2, seed=6)
    b = a * 1
    b.retain_grad()
    b[0].mul_(5)
    b.sum().backward()
    return b.grad, a.grad, b.grad_fn


@program()
def prog_vi_post_accumulate_hook_and_view_of_leaf(T: Any) -> Any:
    a = _x(T, 3, seed=1)
    seen = []
    a.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    v = a[1:]
    (v * v).sum().backward()
    return seen, a.grad, raises(lambda: v.register_post_accumulate_grad_hook(lambda p: None))


# --- more autograd on views: grads w.r.t. views, view inputs to grad, saved views ----------


@program()
def prog_vi_grad_wrt_view_inputs(T: Any) -> Any:
    a = _x(T, 2, 3, seed=2)
    b = a * 1
    v = b[0]
    y = (v * 3).sum() + b.sum()
    gv, gb = T.autograd.grad(y, (v, b), retain_graph=True)
    (ga,) = T.autograd.grad(y, (a,))
    return gv, gb, ga


@program()
def prog_vi_view_of_leaf_grad_layout(T: Any) -> Any:
    a = _x(T, 3, 4, seed=8)
    v = a.t()
    (v * T.arange(12.0).view(4, 3)).sum().backward()
    g = a.grad
    return g, g.stride(), g.is_contiguous(), v.grad_fn


@program()
def prog_vi_expand_grad_sums_and_inplace_after(T: Any) -> Any:
    a = _x(T, 3, 1, seed=4)
    e = a.expand(3, 4)
    y = (e * T.arange(12.0).view(3, 4)).sum()
    y.backward()
    b = a * 1
    be = b.expand(3, 4)
    out = raises(lambda: be.add_(1))
    return a.grad, e.grad_fn, out, be.grad_fn


@program()
def prog_vi_view_as_real_inplace_grad(T: Any) -> Any:
    z = T.tensor([1 + 2j, -1j, 3.0], requires_grad=True)
    w = z * 1
    r = T.view_as_real(w)
    r[:, 0].mul_(2)
    out = (r.grad_fn, w.grad_fn)
    (w.abs() ** 2).sum().backward()
    return out, z.grad, w


@program()
def prog_vi_real_imag_views_inplace_grad(T: Any) -> Any:
    z = T.tensor([1 + 2j, -1j, 3.0], requires_grad=True)
    w = z.clone()
    w.imag.mul_(3)
    w.real.add_(1)
    out = (w.grad_fn, w.real.grad_fn, w.imag.grad_fn)
    T.view_as_real(w).sum().backward()
    return out, z.grad, w


@program()
def prog_vi_view_dtype_inplace_no_grad_only(T: Any) -> Any:
    a = T.ones(2)
    iv = a.view(T.int32)
    iv.add_(1)  # writes the float's bits
    b = _x(T, 2, seed=1) * 1
    return a, iv, a._version, raises(lambda: b.view(T.int32)), raises(lambda: b.view(T.float16))


@program()
def prog_vi_as_strided_inplace_on_overlapping_view(T: Any) -> Any:
    a = _x(T, 5, seed=3)
    b = a.clone()
    v = b.as_strided((2, 2), (1, 1))  # overlapping: b[1] twice
    out = [v.grad_fn, v.is_contiguous()]
    c = a.clone()
    w = c.as_strided((2, 2), (2, 1), 1)  # no overlap
    w.mul_(2)
    c.sum().backward()
    out += [w.grad_fn, c.grad_fn, a.grad]
    return out


@program()
def prog_vi_as_strided_grad_of_overlapping_view(T: Any) -> Any:
    a = _x(T, 5, seed=2)
    v = a.as_strided((3, 3), (1, 1))
    (v * T.arange(9.0).view(3, 3)).sum().backward()
    return a.grad, v.grad_fn


@program()
def prog_vi_diagonal_inplace_fill_and_grad(T: Any) -> Any:
    a = _x(T, 3, 3, seed=6)
    b = a * 1
    b.diagonal().fill_(0)
    b.fill_diagonal_(2.0) if False else None
    c = a * 1
    c.fill_diagonal_(5.0)
    (b.sum() + (c * 2).sum()).backward()
    return b, c, b.grad_fn, c.grad_fn, a.grad


@program()
def prog_vi_unfold_inplace_and_grad(T: Any) -> Any:
    a = _x(T, 6, seed=7)
    b = a * 1
    u = b.unfold(0, 2, 2)
    u[:, 0].mul_(10)
    o = b.unfold(0, 3, 1)  # overlapping windows
    (o * T.arange(12.0).view(4, 3)).sum().backward()
    return b, u.grad_fn, o.grad_fn, a.grad


@program()
def prog_vi_inplace_on_view_then_view_of_base_again(T: Any) -> Any:
    a = _x(T, 4, seed=8)
    b = a * 1
    b[:2].mul_(2)
    b[2:].add_(b[:2] * 1)
    b[1:3].sub_(1)
    b.sum().backward()
    return b, b.grad_fn, a.grad, b._version


@program()
def prog_vi_view_ops_on_inplace_result_chain(T: Any) -> Any:
    a = _x(T, 2, 3, seed=9)
    b = a.clone()
    r = b.t_()
    r2 = b.unsqueeze_(0)
    r3 = b.squeeze_(0)
    r4 = b.transpose_(0, 1)
    out = (r is b, r2 is b, r3 is b, r4 is b, _geo(b), b.grad_fn, b._is_view())
    b.sum().backward()
    return out, a.grad


@program()
def prog_vi_inplace_view_ops_on_views_and_leaves(T: Any) -> Any:
    a = _x(T, 2, 3, seed=1)
    x = _ar(T, 2, 3)
    v = x[0:1]
    v.unsqueeze_(0)
    w = x.t()
    w.t_()
    return (
        raises(lambda: a.t_()),
        raises(lambda: a.unsqueeze_(0)),
        _geo(v),
        v._base is x,
        _geo(w),
        w._base is x,
        raises(lambda: a[0].squeeze_()),
        raises(lambda: a.detach().t_().shape),
    )


@program()
def prog_vi_swapdims_and_as_strided_inplace_variants(T: Any) -> Any:
    x = _ar(T, 2, 3)
    y = x.clone()
    y.swapdims_(0, 1)
    z = x.clone()
    z.swapaxes_(0, 1)
    s = x.clone()
    s.as_strided_((2, 2), (1, 2), 1)
    return _geo(y), y, _geo(z), _geo(s), s


# --- misc data-sharing checks from test_view_ops ----------------------------------------------


@program()
def prog_vi_view_ops_share_data_exhaustive(T: Any) -> Any:
    out = {}
    for name, mk in (
        ("diagonal", lambda t: t.diagonal()),
        ("select", lambda t: t.select(0, 1)),
        ("t", lambda t: t.t()),
        ("T", lambda t: t.T),
        ("mT", lambda t: t.mT),
        ("expand", lambda t: t[0].expand(3, 4)),
        ("unfold", lambda t: t.unfold(1, 2, 1)),
        ("narrow", lambda t: t.narrow(1, 1, 2)),
        ("unbind", lambda t: t.unbind(1)[2]),
        ("split", lambda t: t.split(3, 1)[1]),
        ("chunk", lambda t: t.chunk(2, 0)[1]),
        ("movedim", lambda t: t.movedim(1, 0)),
        ("flatten", lambda t: t.flatten()),
        ("unflatten", lambda t: t.unflatten(1, (2, 2))),
        ("view_dtype", lambda t: t.view(T.int32)),
        ("as_strided", lambda t: t.as_strided((2,), (5,), 1)),
        ("squeeze", lambda t: t.unsqueeze(0).squeeze(0)),
        ("indexing", lambda t: t[1:, None, ::2]),
        ("real", lambda t: t.real),
        ("alias_view_as", lambda t: t.view_as(t)),
    ):
        x = _ar(T, 3, 4)
        v = mk(x)
        x[1, 1] = -100.0  # the base's write shows in the view
        seen = v.clone()
        v.view(-1)[0:1].fill_(55) if v.is_contiguous() else v.reshape(-1).shape
        out[name] = (seen, x, _geo(v))
    return out


@program()
def prog_vi_view_of_expanded_and_zero_stride_views(T: Any) -> Any:
    x = T.arange(3.0)
    e = x.expand(4, 3)
    return (
        _geo(e[1:3]),
        _geo(e.t()),
        _geo(e.view(4, 3, 1)),
        raises(lambda: e.view(12)),
        _geo(e.reshape(12)),
        e.reshape(12)._is_view(),
        _geo(e.unsqueeze(1).expand(4, 2, 3)),
        _geo(e.contiguous()),
        e.is_contiguous(),
        _geo(T.tensor(1.0).expand(2, 2)),
    )


@program(
    xfail="a tensor with no elements keeps no strides or storage offset in shadowgrad (numpy's "
    "empty arrays have arbitrary strides and point at the array's start): x[1:1] and x[10:] "
    "report offset 0 where torch gives 1 and the clamped 6, and empty views report contiguous "
    "strides where torch keeps the base's"
)
def prog_vi_empty_views_geometry(T: Any) -> Any:
    x = T.zeros(0, 3)
    y = T.arange(6.0)
    z = _ar(T, 3, 5)
    return (
        _geo(x.t()),
        _geo(x[:, 1]),
        _geo(x.expand(2, 0, 3)),
        _geo(y[1:1]),
        _geo(y[10:]),
        _geo(y[4:2]),
        _geo(z.narrow(0, 3, 0)),
        [_geo(p) for p in z.split_with_sizes([2, 0, 3], 1)],
        _geo(T.zeros(0).expand(3, 0)),
    )


@program()
def prog_vi_views_in_function_outputs_and_inplace(T: Any) -> Any:
    class Id(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = _x(T, 3, seed=4)
    b = a * 1
    y = Id.apply(b)
    out = (y._is_view(), y._base is b, y.grad_fn)
    out2 = raises(lambda: y.mul_(2))
    return out, out2


@program()
def prog_vi_view_chain_regenerated_node_names(T: Any) -> Any:
    a = _x(T, 3, 4, seed=2)
    b = a * 1
    v1 = b.t()
    v2 = v1[1:]
    v3 = v2.unsqueeze(0)
    b.mul_(2)  # every view's grad_fn is regenerated lazily
    out = (v1.grad_fn, v2.grad_fn, v3.grad_fn)
    v3.add_(1)  # in place on the view of a view: CopySlices on b
    out2 = (b.grad_fn, v3.grad_fn, v1.grad_fn)
    b.sum().backward()
    return out, out2, a.grad


@program()
def prog_vi_select_scatter_family_matches_inplace_on_view(T: Any) -> Any:
    a = _x(T, 3, 4, seed=3)
    src = _x(T, 4, seed=4)
    b = a.clone()
    b[1].copy_(src)
    s = T.select_scatter(a, src, 0, 1)
    sl = T.slice_scatter(a, src.view(1, 4), 0, 2, 3)
    d = T.diagonal_scatter(a, src[:3])
    (b.sum() + s.sum() + sl.sum() + d.sum()).backward()
    return b, s, sl, d, b.grad_fn, s.grad_fn, a.grad, src.grad


@program()
def prog_vi_copy_into_view_dtype_and_broadcast(T: Any) -> Any:
    x = T.zeros(2, 3)
    x[0].copy_(T.tensor([1, 2, 3]))
    x[:, 1].copy_(T.tensor(7.5))
    x.t()[2].copy_(T.tensor([True, False]))
    i = T.zeros(3, dtype=T.int32)
    i[1:].copy_(T.tensor([2.9, -1.7]))
    return (
        x,
        i,
        raises(lambda: x[0].copy_(T.ones(2))),
        raises(lambda: x[0].copy_(T.ones(2, 3))),
        x._version,
    )


@program()
def prog_vi_inplace_dtype_rules_on_views(T: Any) -> Any:
    i = T.arange(6).view(2, 3)
    v = i.t()
    return (
        raises(lambda: v.add_(1.5)),
        raises(lambda: v.mul_(T.tensor([1.0, 2.0]))),
        raises(lambda: v.div_(2)),
        v.add_(T.tensor(2)),
        raises(lambda: i[0].add_(T.ones(2, 3))),
        i,
        i._version,
    )


@program()
def prog_vi_bool_and_half_views(T: Any) -> Any:
    b = T.tensor([[True, False, True], [False, True, False]])
    h = T.arange(6.0, dtype=T.float16).view(2, 3)
    bt = b.t()
    bt[0].logical_not_()
    ht = h.t()[1:]
    ht.mul_(1.5)
    return b, h, _geo(bt), _geo(ht), h.view(T.int16)[0], b.view(T.uint8)


@program()
def prog_vi_complex_views_data_sharing(T: Any) -> Any:
    z = T.zeros(2, 2, dtype=T.complex64)
    r = T.view_as_real(z)
    r[..., 1] = 1.0
    z.real[0] = 3.0
    z.imag.t()[1].add_(2)
    c = T.view_as_complex(r)
    c[1, 1] = 5 - 5j
    return z, r, c, z._version, _geo(z.imag), _geo(r)


@program()
def prog_vi_view_version_after_out_write(T: Any) -> Any:
    x = T.zeros(4)
    v = x[:2]
    T.add(T.ones(2), 1, out=v)
    T.exp(T.zeros(2), out=x[2:])
    r1 = (x._version, v._version)
    T.mul(T.ones(4), 3, out=x)
    return r1, (x._version, v._version), x


@program()
def prog_vi_out_into_view_of_requiring_grad_errors(T: Any) -> Any:
    a = _x(T, 4, seed=1)
    b = a * 1
    return (
        raises(lambda: T.add(T.ones(2), 1, out=b[:2])),
        raises(lambda: T.exp(T.ones(2), out=a[:2])),
        raises(lambda: T.cat([T.ones(1)], out=b[2:3])),
        b,
    )


@program()
def prog_vi_inplace_on_view_in_no_grad_then_backward(T: Any) -> Any:
    a = _x(T, 3, seed=5)
    b = a * 2
    y = b.sum()
    with T.no_grad():
        b[0].mul_(10)  # b's values change, MulBackward0 saved no b
    y.backward()
    c = a.exp()
    z = c.sum() * 1
    w = c * 1  # ExpBackward0 saved c (its result)
    with T.no_grad():
        c[1:].zero_()
    return a.grad, b, raises(lambda: w.sum().backward()), z


@program()
def prog_vi_requires_grad_on_view_errors(T: Any) -> Any:
    a = _x(T, 3, seed=2)
    b = a * 1
    v = b[1:]
    x = T.zeros(3)
    xv = x[1:]
    xv.requires_grad_()  # a view of a non-requiring tensor: becomes a leaf
    return (
        raises(lambda: v.requires_grad_(False)),
        xv.is_leaf,
        xv.requires_grad,
        x.requires_grad,
        xv._is_view(),
        raises(lambda: xv.add_(1)),
    )


@program()
def prog_vi_set_data_on_view_and_base(T: Any) -> Any:
    x = T.zeros(4)
    v = x[1:3]
    v.data = T.ones(5)
    x2 = T.zeros(2, 2)
    t = x2.t()
    x2.data = T.full((3,), 2.0)
    return v, _geo(v), x, t, _geo(t), x2


@program()
def prog_vi_storage_resize_through_view(T: Any) -> Any:
    x = T.arange(4.0)
    v = x[1:]
    s = v.untyped_storage()
    return s.nbytes(), s.size(), v.storage_offset(), v.untyped_storage().data_ptr() == s.data_ptr()


@program()
def prog_vi_tolist_numpy_of_views(T: Any) -> Any:
    x = _ar(T, 3, 4)
    v = x.t()[1:, ::2]
    n = v.numpy()
    n[0, 0] = -1.0  # numpy shares the view's memory
    return x, v.tolist(), n.strides, n.shape


# --- more from test_autograd.py's in-place-on-view tests ---------------------------------------


@program()
def prog_vi_inplace_on_view_saved_output_message(T: Any) -> Any:
    a = _x(T, 3, 3, seed=2)
    x = a.clone()
    y = x.diagonal()
    y.exp_()  # saves its result: the view, whose grad_fn is regenerated
    z = y.sum()
    x[0, 0] = 0.0
    r1 = raises(lambda: z.backward(retain_graph=True))
    b = a.clone()
    w = b[1]
    w.sigmoid_()
    s = (w * 1).sum()
    w.add_(1)  # through the view itself
    return r1, raises(lambda: s.backward()), y.grad_fn, w.grad_fn


@program()
def prog_vi_inplace_on_view_weak_grad_fn(T: Any) -> Any:
    a = T.arange(10.0, requires_grad=True)
    b = a.narrow(0, 0, 2).clone().view(-1)
    b.relu_()
    c = b.clone()
    del b
    c.sum().backward()
    return a.grad, c.grad_fn


@program()
def prog_vi_inplace_on_view_non_contiguous_chain(T: Any) -> Any:
    root = T.ones(2, 3, 2).select(2, 1).t().clone().requires_grad_()
    x = root.clone()
    v1 = x.narrow(0, 0, 1)
    v2 = v1.narrow(1, 1, 1)
    v2.mul_(2)
    x.sum().backward()
    return root.grad, x.grad_fn, v1.grad_fn, v2.grad_fn, _geo(v2)


@program()
def prog_vi_inplace_on_view_gradcheck_and_gradgradcheck(T: Any) -> Any:
    a = T.tensor(_data(3, 3, seed=4).astype("float64"), requires_grad=True)
    w = T.tensor(_data(3, seed=5).astype("float64"), requires_grad=True)

    def fn(a: Any, w: Any) -> Any:
        b = a.clone()
        b.narrow(0, 0, 1).mul_(b.narrow(0, 1, 1) * 2)
        b.t()[2].addcmul_(w, w)
        b.diagonal().div_(w.exp())
        return b

    return (
        T.autograd.gradcheck(fn, (a, w)),
        T.autograd.gradgradcheck(fn, (a, w)),
        fn(a, w),
    )


@program()
def prog_vi_inplace_on_unsafe_split_chain(T: Any) -> Any:
    a = _x(T, 5, seed=6)
    b = a + 1
    s1, s2 = T.unsafe_split(b, 3)
    s1.mul_(s2[:1].exp())
    s1.sum().backward()
    return a.grad, s1.grad_fn, s2.grad_fn, b.grad_fn


@program()
def prog_vi_inplace_on_view_under_no_grad_keeps_graph(T: Any) -> Any:
    x = _x(T, 3, seed=7)
    y = x * 1
    v = y[:2]
    with T.no_grad():
        v.mul_(2)
    out = (y.grad_fn, v.grad_fn, v.requires_grad, y._version)
    y.sum().backward()
    return out, x.grad, y


@program()
def prog_vi_detached_base_modified_view_backward(T: Any) -> Any:
    x = _x(T, 3, seed=8)
    y = x * 2
    v = y[1:]
    d = y.detach()
    d.zero_()  # shares the version counter: MulBackward0 saved no y, v's graph is fine
    v.sum().backward()
    w = x.exp()
    u = w[1:]
    w.detach().mul_(2)
    return x.grad, v, raises(lambda: u.sum().backward()), u.grad_fn


@program()
def prog_vi_t_inplace_then_view_inplace(T: Any) -> Any:
    x = _x(T, 2, 3, seed=9)
    y = x.clone()
    y.t_()
    z = y.t()
    z.mul_(2)
    y.sum().backward()
    return y.grad_fn, z.grad_fn, x.grad, _geo(y), _geo(z)


@program()
def prog_vi_copies_are_not_views(T: Any) -> Any:
    a = _ar(T, 2, 2)
    f = a.flip(0)
    r = a.rot90()
    rl = a.roll(1)
    c = a[[1, 0]]
    m = a[a > 0]
    for t in (f, r, rl, c, m):
        t.add_(100)
    return a, [(t._is_view(), t._base is None, t._version) for t in (f, r, rl, c, m)]


# --- storage of strided views, as_strided_ and the *_copy functions ---------------------------


@program()
def prog_vi_storage_of_as_strided_and_unfold_views(T: Any) -> Any:
    x = T.arange(6.0)
    s = x.as_strided((2,), (2,), 1)
    u = x.unfold(0, 2, 2)
    d = s.detach()
    return (
        s.untyped_storage().nbytes(),
        u.untyped_storage().nbytes(),
        d.untyped_storage().nbytes(),
        s.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
        s.storage_offset(),
        d.storage_offset(),
        u[1].storage_offset(),
        _geo(u.t()),
    )


@program()
def prog_vi_as_strided_inplace_on_views(T: Any) -> Any:
    x = T.arange(6.0)
    s = x.as_strided((2,), (2,), 1)
    s.as_strided_((3,), (1,))  # from its own storage offset
    v = x[2:]
    v.as_strided_((2, 2), (1, 1), 0)
    return _geo(s), s, s._base is x, _geo(v), v, v._base is x, x._version


@program()
def prog_vi_view_copy_functions(T: Any) -> Any:
    a = _x(T, 2, 4, seed=1)
    z = T.tensor([[1 + 2j, 3.0], [-1j, 0.5]], requires_grad=True)
    vr = T.view_as_real_copy(z)
    r = T.view_as_real(z.detach()).clone().requires_grad_()
    vc = T.view_as_complex_copy(r.detach())
    vd = T.view_copy(a, T.int32)
    (vr * T.arange(8.0).view(2, 2, 2)).sum().backward()
    return (
        (_geo(vr), vr.grad_fn, vr._base is None),
        (_geo(vc), vc.grad_fn, vc),
        (_geo(vd), vd.requires_grad, vd.grad_fn, vd.dtype),
        z.grad,
        raises(lambda: T.view_as_complex_copy(r)),
        T.view_as_complex(r).grad_fn,
        raises(lambda: T.view_copy(a.t(), T.float64)),
        raises(lambda: T.view_as_real_copy(a)),
        raises(lambda: T.view_as_complex_copy(a)),
        T.view_copy(a.detach(), (4, 2)),
    )


@program()
def prog_vi_copy_functions_complex_grads(T: Any) -> Any:
    calls = {
        "t_copy": (),
        "view_copy": ((4,),),
        "alias_copy": (),
        "expand_copy": ((2, 2, 2),),
        "diagonal_copy": (),
        "select_copy": (0, 1),
        "unbind_copy": (),
        "split_copy": (1,),
        "unfold_copy": (0, 1, 1),
        "transpose_copy": (0, 1),
        "permute_copy": ((1, 0),),
        "unsqueeze_copy": (0,),
        "slice_copy": (0, 0, 1),
        "as_strided_copy": ((2,), (1,)),
        "narrow_copy": (0, 0, 1),
        "unsafe_split": (1,),
        "unsafe_chunk": (2,),
        "fill": (2.0,),
    }
    out = {}
    for name, args in calls.items():
        z = T.tensor([[1 + 2j, 3.0], [-1j, 0.5]], requires_grad=True)

        def run(name: str = name, args: Any = args, z: Any = z) -> Any:
            o = getattr(T, name)(z, *args)
            o = o[0] if isinstance(o, (tuple, list)) else o
            (o * (1 + 1j)).abs().sum().backward()
            return o.grad_fn, z.grad

        out[name] = raises(run)
    return out


@program()
def prog_vi_as_strided_inplace_recorded_by_autograd(T: Any) -> Any:
    a = T.arange(6.0, requires_grad=True)
    b = a * 1
    r = b.as_strided_((2, 2), (1, 2), 1)
    out = [r is b, b.grad_fn, _geo(b), b._base is None]
    (b * T.arange(4.0).view(2, 2)).sum().backward()
    out.append(a.grad)
    c = T.arange(6.0, requires_grad=True)
    d = c * 1
    v = d[1:]
    v.as_strided_((2,), (2,))  # on a view: from its own storage offset
    out += [v.grad_fn, v._base is d, _geo(v), d.grad_fn, d._version]
    (v * T.tensor([1.0, 10.0])).sum().backward()
    out.append(c.grad)
    out.append(raises(lambda: T.ones(3, requires_grad=True).as_strided_((2,), (1,))))
    return out


@program()
def prog_vi_inplace_view_ops_on_views_requiring_grad(T: Any) -> Any:
    a = T.ones(2, 3, requires_grad=True)
    b = a * 2
    v = b[0]
    v.unsqueeze_(0)
    w = b.t()
    w.t_()
    u = b[:, :1]
    u.squeeze_(1)
    s = b.view(6)
    s.as_strided_((2,), (1,))  # bumps the shared version: the other views' nodes regenerate
    out = [
        (v.grad_fn, _geo(v), v._base is b),
        (w.grad_fn, _geo(w), w._base is b),
        (u.grad_fn, _geo(u)),
        (s.grad_fn, _geo(s)),
    ]
    (b.sum() + v.sum() + w.sum() + u.sum() + s.sum()).backward()
    return out, a.grad


@program()
def prog_vi_as_strided_gradients(T: Any) -> Any:
    def run(x: Any, prepro: Any, size: Any, strides: Any, offset: Any = None) -> Any:
        x = x.to(T.double).detach().requires_grad_()
        y = (prepro(x) if prepro is not None else x).as_strided(size, strides, offset)
        (y * T.arange(float(y.numel()), dtype=T.double).view(y.shape)).sum().backward()
        return y, x.grad, y.grad_fn

    x6 = T.arange(12.0).view(6, 2)
    return [
        run(T.arange(0, 25), lambda x: x.view(5, 5), [3, 3], [6, 2], 2),
        run(T.arange(12.0), None, [1, 2, 1, 5], [0, 5, 100, 1], 2),  # odd stride at size 1
        run(T.arange(5.0), None, [3, 3, 3], [0, 1, 0], 2),  # expand-like
        run(T.arange(5.0), None, [3, 3, 3], [0, 0, 0], 4),
        run(T.arange(5.0), lambda x: x.expand(5, 5), [5, 5], [0, 1], 0),
        run(T.arange(35.0), None, [6, 6], [5, 1], 2),  # overlapping
        run(T.arange(15.0), None, [3, 2], [3, 6], 2),
        run(T.arange(12.0).view(3, 4), None, [4, 3], [1, 4]),  # transpose-like
        run(x6[3:], None, [3, 2], [2, 1], 0),  # reaching outside the input: zero gradient
        run(T.arange(6.0).view(2, 3), lambda x: x.expand(10, 2, 3), [2, 3], [3, 1], 0),
        T.autograd.gradcheck(
            lambda t: t.as_strided([3, 3], [6, 2], 2),
            (T.arange(25.0, dtype=T.double).requires_grad_(),),
        ),
    ]


@program()
def prog_vi_flatten_views_of_odd_strides(T: Any) -> Any:
    t = T.ones(720).as_strided((2, 3, 2, 3, 5, 4), (6, 2, 15, 5, 1, 0))
    v1 = t.flatten(0, 1)
    v2 = v1.flatten(1, 3)
    v3 = v2.flatten(2, 2)
    nv = T.ones(2, 3, 2, 3).transpose(2, 3).flatten(1, 3)
    nt = T.ones(2, 2).T.flatten()
    v1[(0,) * v1.ndim] = 0.0
    return (
        [(_geo(v), v._base is t._base, v3 is v2) for v in (v1, v2, v3)],
        (nv._is_view(), nv.stride(), nt._is_view()),
        t[(0,) * t.ndim],
    )


@program()
def prog_vi_set_real_imag_of_complex(T: Any) -> Any:
    out = []
    for dt in (T.float32, T.float64, T.int32, T.bool, T.complex128, T.float16):
        x = T.arange(4.0).to(T.complex64)
        nr = T.tensor([True, False, True, False]) if dt is T.bool else T.arange(4).to(dt)

        def run(x: Any = x, nr: Any = nr, dt: Any = dt) -> Any:
            x.real = nr * 2 if dt is not T.bool else nr
            x.imag = nr
            return x, x._version

        out.append(raises(run))
    z = T.zeros(3, dtype=T.complex64)
    out.append(raises(lambda: setattr(T.zeros(3), "imag", T.ones(3))))
    z.real[1:] = 5.0
    out.append((z, z.real._is_view(), z.imag._base is z))
    return out


@program()
def prog_vi_unbind_grads_with_some_outputs(T: Any) -> Any:
    stacked = T.arange(12.0, requires_grad=True).view(3, 4)
    outs = stacked.unbind()
    (g1,) = T.autograd.grad(outs[1], stacked, T.ones(4))
    s2 = T.arange(12.0, requires_grad=True)
    x, y, z = s2.view(3, 4).unbind()
    T.autograd.backward([x, y, z], list(T.arange(12.0).view(3, 4).unbind()))
    s3 = T.arange(12.0, dtype=T.double).view(3, 4).requires_grad_()
    return g1, s2.grad, T.autograd.gradcheck(lambda t: t.unbind(), (s3,)), x.grad_fn


@program()
def prog_vi_conj_views_share_memory_inplace(T: Any) -> Any:
    a = T.tensor([[1 + 2j, 3 - 1j], [2j, 1.0]])
    r1 = T.add(a, a.conj())
    a2 = a.clone()
    r2 = a2.add_(a2.conj())
    a3 = a.clone()
    r3 = T.add(a3.conj(), a3.conj(), out=a3)
    a4 = a.clone()
    b4 = a4.conj()
    r4 = raises(lambda: b4.add_(a4.conj()))
    return r1, r2, r3, r4, a4, (T.ones(2).conj() is not None, T.ones(3).conj()._is_view())


@program()
def prog_vi_set_recorded_as_not_implemented(T: Any) -> Any:
    a = _x(T, 2, seed=1)
    b = a * 1
    b.set_()
    out = [(b.grad_fn, b.requires_grad, b.is_leaf, _geo(b))]
    c = a * 1
    c.set_(c.untyped_storage(), 0, (1,), (1,))
    out.append((c.grad_fn, _geo(c)))
    s = _x(T, 3, seed=2) * 1
    x = T.zeros(2)
    x.set_(s)  # a plain tensor given memory of one requiring grad
    out.append((x.grad_fn, x.requires_grad, x, x._version))
    d = a * 1
    d.set_(_x(T, 3, seed=3) * 2)
    out.append((d.grad_fn, raises(lambda: d.sum().backward())))
    e = a * 1
    with T.no_grad():
        e.set_(T.zeros(3))
    out.append((e.grad_fn, e.requires_grad, e))
    out.append(raises(lambda: a.set_(T.zeros(2))))
    return out


@program()
def prog_vi_copy_functions_out_and_contiguity(T: Any) -> Any:
    a = _ar(T, 4, 4, 4, 4).to(memory_format=T.channels_last)
    sl = T.slice_copy(a, 0, 0, 2)
    m = _ar(T, 2, 2)
    dout = T.zeros(2)
    r = T.diagonal_copy(m, out=dout)
    v = T.arange(4.0)
    out = {"slice_copy": (sl.is_contiguous(), sl.stride()), "diag_out": (dout, r is dout)}
    for name, x, args in (
        ("split_copy", v, (2,)),
        ("unbind_copy", v.view(2, 2), ()),
        ("split_with_sizes_copy", v, ([2, 2],)),
    ):
        cases = []
        for o in (
            (T.zeros(2),),
            (T.zeros(2), T.zeros(2)),
            [T.zeros(3), T.zeros(1)],
            (T.zeros(2, dtype=T.int64), T.zeros(2)),
        ):
            cases.append(
                (raises(lambda n=name, x=x, args=args, o=o: getattr(T, n)(x, *args, out=o)), o)
            )
        cases.append(raises(lambda n=name, x=x, args=args: getattr(T, n)(x, *args, out=T.zeros(2))))
        g = T.ones(4, requires_grad=True)
        o2 = (T.zeros(2), T.zeros(2))
        getattr(T, name)(g.view(2, 2) if name == "unbind_copy" else g, *args, out=o2)
        cases.append((o2, o2[0]._version))
        out[name] = cases
    out["unsafe_no_out"] = [
        raises(lambda n=n: getattr(T, n)(v, 2, out=(T.zeros(2), T.zeros(2))))
        for n in ("unsafe_split", "unsafe_chunk")
    ]
    return out


@program()
def prog_vi_old_view_ops_ravel_reshape_expand_narrow(T: Any) -> Any:
    z = T.tensor(123)
    x0 = T.zeros(0, 6)
    y = _ar(T, 4, 4, 4)[:, 0, :]
    s = T.tensor(3.0)
    e = T.tensor([])
    t2 = T.arange(5.0)
    nc = _ar(T, 5, 2, 1, 3)[:, 0]
    n3 = T.tensor([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    a = T.ones(3, 4)
    return {
        "ravel": (
            _geo(z.ravel()),
            _geo(T.ones(10)[::2].ravel()),
            T.ones(10)[::2].ravel()._is_view(),
            _ar(T, 5, 5).ravel()._base is not None,
            _ar(T, 5, 5).t().ravel()._base is None,
        ),
        "empty_reshape": (
            x0.reshape(1, 0, 6, 1, 1).shape,
            x0.data_ptr() == x0.reshape(1, 0, 6, 1, 1).data_ptr(),
            raises(lambda: x0.reshape(0, -1)),
            x0.view(1, 0, 6, 1, 1).shape,
            raises(lambda: e.reshape(1)),
            e.reshape([0, 1]).shape,
            e.reshape([1, -1]).shape,
        ),
        "reshape": (
            raises(lambda: s.reshape(2)),
            s.reshape(-1).shape,
            s.data_ptr() == s.reshape(()).data_ptr(),
            y.reshape(2, 2, 4).data_ptr() == y.data_ptr(),
            y.reshape(-1).data_ptr() == y.data_ptr(),
            raises(lambda: T.ones(3, 3).reshape_as(T.rand(10))),
            raises(lambda: T.ones(3, 3).reshape(-1, -1)),
        ),
        "expand": (
            t2.expand(1, 5).expand(2, 2, 5),
            nc.expand(2, 5, 4, 3).stride(),
            t2.expand(1, 1, 5).stride(),
            t2.unsqueeze(0).unsqueeze(1).stride(),
            raises(lambda: t2.expand(-1, -1)),
            T.zeros(0).expand((0,)).shape,
        ),
        "narrow": (
            n3.narrow(0, T.tensor(0), 1),
            raises(lambda: n3.narrow(0, T.tensor(0.0), 1)),
            raises(lambda: n3.narrow(0, T.tensor([0]), 1)),
            raises(lambda: n3.narrow(0, T.tensor([0, 1]), 1)),
            n3.narrow(-2, -1, 1),
            raises(lambda: n3.narrow(0, T.tensor(5), 1)),
            n3.narrow(0, T.tensor(-1), 1),
        ),
        "atleast": (
            T.atleast_2d(a) is a,
            T.atleast_3d(a)._base is a,
            _geo(T.atleast_3d(a)),
            _geo(T.atleast_1d(T.tensor(1.0))),
            _geo(T.atleast_3d(T.ones(2))),
            [t.shape for t in T.atleast_2d(T.ones(2), T.tensor(1.0))],
        ),
    }


@program()
def prog_vi_views_codegen_view_as_and_unbind_by_mode(T: Any) -> Any:
    def run(grad_mode: bool, requires_grad: bool) -> Any:
        res = []
        with T.set_grad_enabled(grad_mode):
            inp = _x(T, 6, rg=requires_grad)
            out = inp.view_as(inp)
            res.append((out._is_view(), out.requires_grad, out.grad_fn))
            res.append(raises(lambda: out.add_(1) is out))
            parts = inp.unbind()
            res.append((parts[0]._is_view(), parts[0].requires_grad, parts[0].grad_fn))
            res.append(raises(lambda: parts[0].add_(1) is parts[0]))
            nl = _x(T, 6, seed=1, rg=requires_grad).clone()
            res.append(raises(lambda: nl.view_as(nl).add_(1) is not None))
            nparts = nl.unbind()
            res.append(raises(lambda: nparts[0].add_(1) is not None))
            res.append(raises(lambda: nparts[1].zero_() is not None))
        return res

    return {f"{g}-{r}": run(g, r) for g in (True, False) for r in (True, False)}


@program()
def prog_vi_multi_output_views_under_no_grad(T: Any) -> Any:
    a = _x(T, 6, seed=2).clone()
    with T.no_grad():
        c = a.unbind()
    out = [raises(lambda: c[0].mul_(2)), c[0].grad_fn, c[0].requires_grad]
    d = a.split(2)
    with T.no_grad():
        d[0].mul_(2)
    out += [raises(lambda: d[0].grad_fn), a.grad_fn]
    out.append(raises(lambda: d[1].sum().backward()))  # its base was modified in place
    return out, a.detach()


@program()
def prog_vi_custom_function_mark_dirty_on_views(T: Any) -> Any:
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = _x(T, 4, seed=3)
    b = a * 1
    v = b[:2]
    r = Double.apply(v)
    out = [r is v, v.grad_fn, b.grad_fn]
    b.sum().backward()
    out.append(a.grad)
    leaf = _x(T, 4, seed=4)
    lv = leaf[:2]
    out.append(raises(lambda: Double.apply(lv)))
    out.append((leaf.detach(), lv._version))
    out.append(raises(lambda: Double.apply(leaf)))
    plain = T.ones(4)
    out.append(Double.apply(plain[1:3]).grad_fn)
    out.append(plain)
    return out


@program()
def prog_vi_out_is_the_input_refused_or_allowed(T: Any) -> Any:
    out = {}

    def run(name: str, f: Any) -> None:
        x = T.arange(16.0) + 1
        out[name] = (raises(lambda: f(x)), x)

    idx = T.tensor([1, 2, 0, 3])
    long4 = T.zeros(4, dtype=T.long)
    # assert_no_overlap: even out being the input itself is refused
    run("gather", lambda x: T.gather(x[:4], 0, idx, out=x[:4]))
    run("index_select", lambda x: T.index_select(x[:4], 0, idx, out=x[:4]))
    run("take_along_dim", lambda x: T.take_along_dim(x[:4], idx, 0, out=x[:4]))
    run("masked_select", lambda x: T.masked_select(x[:4], x[:4] > 0, out=x[:4]))
    run("cat_one", lambda x: T.cat([x[:4]], out=x[:4]))
    run("stack_one", lambda x: T.stack([x[:2]], out=x[:2].view(1, 2)))
    run("outer_self", lambda x: T.outer(x[:1], x[:1], out=x[:1].view(1, 1)))
    run("diff", lambda x: T.diff(x[:4], out=x[:3]))
    run("max_dim", lambda x: T.max(x[:4].view(2, 2), 0, out=(x[:2], T.zeros(2, dtype=T.long))))
    # TensorIterator ops and sorts: the input itself is fine
    run("exp", lambda x: T.exp(x[:4], out=x[:4]))
    run("cumsum", lambda x: T.cumsum(x[:4], 0, out=x[:4]))
    run("sort", lambda x: T.sort(x[:4], out=(x[:4], long4)))
    run("topk", lambda x: T.topk(x[:4], 4, out=(x[:4], T.zeros(4, dtype=T.long))))
    run("msort", lambda x: T.msort(x[:4], out=x[:4]))
    run("where", lambda x: T.where(x[:4] > 2, x[:4], x[4:8], out=x[:4]))
    run("gather_disjoint", lambda x: T.gather(x[4:8], 0, T.tensor([1, 0]), out=x[:2]))
    run("copy_self", lambda x: x[:4].copy_(x[:4]))
    run("copy_detached", lambda x: x[:4].copy_(x.detach()[:4]))
    return out


@program()
def prog_vi_views_of_no_grad_views_inherit_creation_meta(T: Any) -> Any:
    a = _x(T, 6, seed=5)
    b = a * 1
    v1 = b[1:]
    with T.no_grad():
        v2 = v1[1:]
        w1 = b[:3]
    v3 = v2[1:]  # made in grad mode from a no_grad view: torch names it in its error
    w2 = w1.unsqueeze(0)
    out = [
        raises(lambda: v2.mul_(2)),
        raises(lambda: v3.mul_(2)),
        raises(lambda: w2.mul_(2)),
        (v2.requires_grad, v3.requires_grad, v3._base is b, v3.grad_fn.name(), w2.grad_fn.name()),
    ]
    with T.inference_mode():
        i1 = b[:2]
    i2 = i1[1:]
    out.append(raises(lambda: i2.add_(1)))
    out.append((i2.requires_grad, i2.is_inference(), i2.grad_fn.name()))
    u2 = b.unbind()[0].view(1)
    with T.no_grad():
        u3 = u2.view(1)
    out += [raises(lambda: u2.add_(1)), raises(lambda: u3.add_(1))]
    return out


@program()
def prog_vi_views_of_no_grad_views_after_base_inplace(T: Any) -> Any:
    a = _x(T, 6, seed=6)
    b = a * 1
    with T.no_grad():
        v2 = b[1:]
    v3 = v2[1:]
    v4 = v3.view(2, 2)
    b.add_(1)
    out = [
        raises(lambda: v3.grad_fn),
        raises(lambda: v3 * 2),
        raises(lambda: v4.grad_fn),
        raises(lambda: v2.grad_fn),
        v3.requires_grad,
    ]
    c = a * 1
    with T.inference_mode():
        i1 = c[:4]
    i2 = i1.view(2, 2)
    c.mul_(2)
    out += [raises(lambda: i2.grad_fn), raises(lambda: i2.sum())]
    with T.no_grad():
        l1 = a[1:]
    l2 = l1[:2]  # of a leaf's no_grad view
    out += [raises(lambda: l2.add_(1)), l2.requires_grad, l2.grad_fn.name()]
    d = T.ones(4)
    with T.no_grad():
        dv = d[1:]
    dv[1:].add_(1)  # no grad anywhere: no creation meta
    out.append(d)
    return out


@program()
def prog_vi_no_grad_view_has_no_gradient_edge(T: Any) -> Any:
    a = _x(T, 6, seed=7)
    b = a * 1
    with T.no_grad():
        v = b[1:]
        lv = a[1:]
    y = (v * 2).sum() + (lv * 3).sum()
    y.backward()
    return (v * 2).grad_fn, v[1:].grad_fn, (lv * 2).grad_fn, v.grad, lv.grad, a.grad


@program()
def prog_vi_as_strided_inplace_forward_ad(T: Any) -> Any:
    F = T.autograd.forward_ad
    with F.dual_level():
        x = F.make_dual(T.arange(8.0, dtype=T.float64), T.arange(8.0, dtype=T.float64) * 10)
        y = x * 1
        y.as_strided_((3, 2), (1, 2), 1)
        p, t = F.unpack_dual(y)
        z = F.make_dual(T.arange(8.0, dtype=T.float64), T.ones(8, dtype=T.float64))
        v = z[2:]
        v.as_strided_((2,), (2,))
        return p, t, _geo(y), F.unpack_dual(v).tangent, _geo(v)


@program()
def prog_vi_expanded_index_put_accumulate(T: Any) -> Any:
    out = []
    for idx, v in (
        ((T.tensor([0]),), T.tensor(1.0)),
        ((T.tensor([0, 1]),), T.tensor(1.0)),  # both rows share the memory: both add
        ((T.tensor([0, 1]), T.tensor([2, 2])), T.tensor([1.0, 5.0])),
        ((T.tensor([1, 1]),), T.tensor([[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]])),
    ):
        x = T.zeros(3)
        x.expand(2, 3).index_put_(idx, v, accumulate=True)
        out.append((x, x._version))
    i = T.zeros(3, dtype=T.int64)
    i.expand(2, 3).index_put_((T.tensor([0, 1]),), T.tensor(2), accumulate=True)
    out.append(i)
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
