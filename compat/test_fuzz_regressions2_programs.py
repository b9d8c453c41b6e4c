"""Regressions found by the random-program fuzzer (compat/fuzz.py), third round, and the
families its findings belong to: each program is a shrunk mismatch between torch and shadowgrad
(or a sibling of one), written as a `prog(T)` and run through test_realistic_programs_3's harness
(values, dtypes, grad_fn, errors and warnings compared).
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import observe, raises

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


# --- TensorIterator: the operands' shapes before their dtypes ----------------------------------


@program()
def prog_fz2_int_lerp_inplace_shape_before_kernel(T: Any) -> Any:
    """`x_int[0].lerp_(y, 0.5)` with shapes that do not broadcast (found by the main job):
    torch's TensorIterator reports the shapes before the missing integer kernel; lerp's own
    check of end's dtype still comes first."""
    x = T.tensor([[1, 2, 3], [4, 5, 6]])
    out = []
    for y in (T.tensor([1, 2]), T.tensor([True, False]), T.tensor([1.0, 2.0]), T.tensor([7])):
        out.append(raises(lambda y=y: x[0].lerp_(y, 0.5)))
        out.append(raises(lambda y=y: x[0].lerp_(y, y)))
        out.append(raises(lambda y=y: T.tensor(2).lerp_(y, 0.5)))
        out.append(raises(lambda y=y: T.lerp(x[0], y, 0.5)))
    b = T.tensor([True, False, True])
    out.append(raises(lambda: b.lerp_(T.tensor([True, False]), 0.5)))
    out.append(raises(lambda: T.lerp(b, T.tensor([True, False]), 0.5)))
    return out, observe(T, x)


@program()
def prog_fz2_addcmul_addcdiv_int_shapes_first(T: Any) -> Any:
    """addcmul/addcdiv on integer and bool tensors with operands of the wrong shape."""
    b, i = T.tensor([True, False, True]), T.tensor([1, 2, 3])
    b2, i2 = T.tensor([True, False]), T.tensor([1, 2])
    return (
        raises(lambda: b.clone().addcmul_(b2, b2)),
        raises(lambda: T.addcmul(b, b2, b2)),
        raises(lambda: T.addcmul(b, b, b)),
        raises(lambda: T.tensor(True).addcmul_(b, b)),
        raises(lambda: i.clone().addcdiv_(i2, i2)),  # addcdiv's integer error comes first
        raises(lambda: i.clone().addcmul_(i2, i2, value=0.5)),
        raises(lambda: i.clone().addcmul_(i, i, value=0.5)),
        raises(lambda: T.tensor(1).addcmul_(i, i)),
    )


@program()
def prog_fz2_inplace_binary_shape_before_dtype(T: Any) -> Any:
    """In-place binary ops whose dtypes fail (no kernel, a result type that can't be cast back,
    a float alpha, an integer division by zero) on operands of the wrong shape: the shape error,
    whether the operands do not broadcast or self is smaller than their broadcast."""
    xs = {
        "i64": T.tensor([1, 2, 3]),
        "i64_0d": T.tensor(2),
        "bool": T.tensor([True, False, True]),
        "f32": T.tensor([1.0, 2.0, 3.0]),
        "i32": T.tensor([1, 2, 3], dtype=T.int32),
    }
    ys = {
        "f32": T.tensor([1.0, 2.0]),
        "i64": T.tensor([1, 2]),
        "bool": T.tensor([True, False]),
        "c64": T.ones(2, dtype=T.complex64),
        "f32_23": T.ones(2, 3),
        "bool_3": T.tensor([True, False, True]),
    }
    ops = {
        "hypot_": lambda x, y: x.hypot_(y),
        "fmod_": lambda x, y: x.fmod_(y),
        "remainder_": lambda x, y: x.remainder_(y),
        "div_": lambda x, y: x.div_(y),
        "div_floor_": lambda x, y: x.div_(y, rounding_mode="floor"),
        "floor_divide_": lambda x, y: x.floor_divide_(y),
        "add_alpha": lambda x, y: x.add_(y, alpha=0.5),
        "atan2_": lambda x, y: x.atan2_(y),
        "copysign_": lambda x, y: x.copysign_(y),
        "xlogy_": lambda x, y: x.xlogy_(y),
        "nextafter_": lambda x, y: x.nextafter_(y),
        "bitwise_and_": lambda x, y: x.bitwise_and_(y),
        "iand": lambda x, y: x.__iand__(y),
        "ilshift": lambda x, y: x.__ilshift__(y),
        "lt_": lambda x, y: x.lt_(y),
        "clamp_": lambda x, y: x.clamp_(min=y),
        "clamp_both": lambda x, y: x.clamp_(y, y),
        "pow_": lambda x, y: x.pow_(y),
        "ldexp_": lambda x, y: x.ldexp_(y),
    }
    out = {}
    for on, op in ops.items():
        for xn, x in xs.items():
            for yn, y in ys.items():
                out[on, xn, yn] = raises(lambda op=op, x=x, y=y: op(x.clone(), y))
    return out


@program()
def prog_fz2_out_of_place_shape_before_kernel(T: Any) -> Any:
    """Out-of-place TensorIterator ops on dtypes without a kernel and operands that do not
    broadcast: the shape error (logaddexp of a complex operand was numpy's ValueError)."""
    i3, i2 = T.tensor([1, 2, 3]), T.tensor([1, 2])
    out = []
    for a, b in ((i3, i2), (i3.bool(), i2), (i3.float(), T.ones(2, dtype=T.complex64))):
        out.append(raises(lambda a=a, b=b: T.logaddexp(a, b)))
        out.append(raises(lambda a=a, b=b: T.logaddexp2(a, b)))
        out.append(raises(lambda a=a, b=b: T.hypot(a, b)))
        out.append(raises(lambda a=a, b=b: T.nextafter(a, b)))
        out.append(raises(lambda a=a, b=b: T.addcmul(a, b, b)))
    out.append(raises(lambda: T.logaddexp(i3.float(), T.ones(3, dtype=T.complex64))))
    return out


@program()
def prog_fz2_expanded_self_overlap_before_dtype(T: Any) -> Any:
    """`v0.expand(2).div_(v0)` on an integer tensor (found by a campaign): TensorIterator refuses
    the expanded (internally overlapping) written-to tensor before the result type's cast, the
    kernel's dtype and the shapes; a one-element expand is no overlap."""
    i, x = T.tensor(-2), T.tensor(-2.0)
    return (
        raises(lambda: i.expand(2).div_(i)),
        raises(lambda: i.expand(2).lerp_(i, 0.5)),
        raises(lambda: i.expand(2).add_(1.5)),
        raises(lambda: i.expand(2, 2).hypot_(i)),
        raises(lambda: x.expand(2).hypot_(T.ones(2))),
        raises(lambda: x.expand(2, 2).mul_(T.ones(3))),
        raises(lambda: x.expand(2).copy_(T.ones(3))),
        raises(lambda: x.expand(1).add_(T.ones(3))),
        raises(lambda: i.expand(1).div_(i)),
        raises(lambda: T.tensor([True]).expand(3).bitwise_and_(T.tensor(2))),
    )


@program()
def prog_fz2_keyword_operand_partial_overlap(T: Any) -> Any:
    """An operand given by keyword (clamp_'s min/max) that partly overlaps the written-to tensor
    is refused as a positional one is, before the shapes (`x[0].clamp_(min=x)`, found by the
    main job); a full overlap is fine."""
    x, y = T.ones(2, 3), T.arange(4.0)
    return (
        raises(lambda: x[0].clamp_(min=x)),
        raises(lambda: y[:3].clamp_(min=y[1:])),
        raises(lambda: y[:3].clamp_(max=y[1:])),
        y[:3].clamp_(max=y[:3]),
        raises(lambda: y[:3].add_(y[1:], alpha=2)),
        observe(T, y),
    )


# --- matrix products of 0-d and low-rank tensors: the sizes torch reads first --------------


@program()
def prog_fz2_mv_of_0d_tensors(T: Any) -> Any:
    """`torch.mv` of 0-d tensors (found by the main job): torch allocates the result from
    self.size(0) before addmv's dimension check, so a 0-d matrix is an IndexError."""
    a, v = T.tensor(1.0, requires_grad=True), T.tensor(2.0)
    shapes = ((), (2,), (2, 2), (2, 2, 2), (0,))
    out = {}
    for sa in shapes:
        for sb in shapes:
            m, w = T.ones(sa), T.ones(sb)
            out["mv", sa, sb] = raises(lambda m=m, w=w: T.mv(m, w))
            out["method", sa, sb] = raises(lambda m=m, w=w: m.mv(w))
    out["grad"] = raises(lambda: T.mv(a, v))
    out["addmv_0d_self"] = raises(lambda: T.addmv(T.tensor(1.0), T.ones(2, 2), T.ones(0)))
    out["addmv_0d_ok"] = T.addmv(T.tensor(1.0), T.ones(2, 2), T.ones(2))
    return out


@program()
def prog_fz2_matrix_products_of_0d_tensors(T: Any) -> Any:
    """The rest of the family with 0-d (and too-low-rank) operands: dot, mm, bmm, outer, ger,
    addmv, addmm, addr, baddbmm and addbmm (the last two read batch sizes before any check),
    linalg.cross and tensordot."""
    z = T.tensor(2.0)
    shapes = ((), (2,), (2, 2), (2, 2, 2), (0,))
    out: dict[Any, Any] = {}
    for sa in shapes:
        a = T.ones(sa)
        out["dot", sa] = raises(lambda a=a: T.dot(a, z))
        out["mm", sa] = raises(lambda a=a: T.mm(a, z))
        out["bmm", sa] = raises(lambda a=a: T.bmm(z, a))
        out["outer", sa] = raises(lambda a=a: T.outer(a, z))
        out["ger", sa] = raises(lambda a=a: T.ger(z, a))
        out["cross", sa] = raises(lambda a=a: T.linalg.cross(a, a))
        out["td0", sa] = raises(lambda a=a: T.tensordot(a, z, dims=0))
        out["td0r", sa] = raises(lambda a=a: T.tensordot(z, a, dims=0))
        for sb in shapes:
            b = T.ones(sb)
            for sc in shapes:
                c = T.ones(sc)
                out["baddbmm", sa, sb, sc] = raises(lambda a=a, b=b, c=c: T.baddbmm(a, b, c))
                out["addbmm", sa, sb, sc] = raises(lambda a=a, b=b, c=c: T.addbmm(a, b, c))
                out["addmv", sa, sb, sc] = raises(lambda a=a, b=b, c=c: T.addmv(a, b, c))
                out["addr", sa, sb, sc] = raises(lambda a=a, b=b, c=c: T.addr(a, b, c))
    return out


@program()
def prog_fz2_structured_inplace_matmul_self_shape(T: Any) -> Any:
    """addmm_/addmv_/baddbmm_ write a result whose shape comes from the other operands: a self
    of another shape is torch's "Bad in-place call" (baddbmm_ expands self first); addr_ checks
    the vectors, then that self is 2-D."""
    shapes = ((), (2,), (2, 2), (2, 2, 2), (0,))
    out: dict[Any, Any] = {}
    for sa in shapes:
        for sb in shapes:
            for sc in shapes:

                def run(name: str, sa: Any = sa, sb: Any = sb, sc: Any = sc) -> Any:
                    return getattr(T.ones(sa), name)(T.ones(sb), T.ones(sc))

                for name in ("addmm_", "addmv_", "baddbmm_", "addr_"):
                    out[name, sa, sb, sc] = raises(lambda name=name, run=run: run(name))
    x = T.ones(2, 2, requires_grad=True)
    y = x * 1
    out["recorded"] = y.addmm_(T.ones(2, 2), T.ones(2, 2), beta=0.5)
    out["grad_fn"] = y.grad_fn
    return out


@program()
def prog_fz2_linear_paths_and_their_checks(T: Any) -> Any:
    """F.linear takes torch's paths: addmm for a 2-D input, one flattened addmm for a contiguous
    input with a bias of one dim (after squeezing), else matmul then the bias added in place; so
    a dtype mismatch is addmm's error before its shape error (`linear(f64[1], f32[3, 2],
    f32[3])`, found by a campaign), an empty batch flattens, a 0-d bias is added in place."""
    out: dict[Any, Any] = {}
    xs = ((1,), (2,), (2, 3), (2, 1, 2), (0,), (0, 2), (3, 0, 2))
    dts = (("float64", "float32"), ("float64", "float64"), ("int64", "float32"))
    for xs_ in xs:
        for ws in ((3, 2), (2,), (1, 2)):
            for bs in (None, (3,), (), (1,), (1, 3)):
                for xd, wd in dts:
                    x, w = T.ones(xs_, dtype=getattr(T, xd)), T.ones(ws, dtype=getattr(T, wd))
                    b = None if bs is None else T.ones(bs)
                    key = (xs_, ws, bs, xd, wd)
                    out[key] = raises(lambda x=x, w=w, b=b: T.nn.functional.linear(x, w, b))
    x = T.tensor([1.0, -2.0], requires_grad=True)
    b = T.tensor(0.5, requires_grad=True)
    y = T.nn.functional.linear(x, T.ones(3, 2), b)
    z = T.nn.functional.linear(x.expand(2, 2).t(), T.ones(3, 2), T.ones(3))
    (y.sum() + z.sum()).backward()
    out["graph"] = (observe(T, y), y.grad_fn.next_functions[0][0], z.grad_fn, x.grad, b.grad)
    return out


@program()
def prog_fz2_complex_conv_checks_parameter_types_first(T: Any) -> Any:
    """A complex input to conv1d/conv_transpose1d: torch's complex_convolution checks that the
    weight and bias have its type before any shape check (found by a campaign)."""
    F = T.nn.functional
    x = T.ones(1, 1, 3, dtype=T.complex64)
    out = []
    for w, b in (
        (T.ones(1, 1, 2), None),
        (T.ones(1, 1, 5), None),
        (T.ones(1, 1), None),
        (T.ones(1, 1, 2, dtype=T.complex128), None),
        (T.ones(1, 1, 2, dtype=T.complex64), T.ones(1)),
        (T.ones(2, 3, 2, dtype=T.complex64), None),
    ):
        out.append(raises(lambda w=w, b=b: F.conv1d(x, w, b)))
        out.append(raises(lambda w=w, b=b: F.conv_transpose1d(x, w, b)))
        out.append(raises(lambda w=w, b=b: F.conv1d(x[0], w, b)))
    out.append(raises(lambda: F.conv1d(T.ones(3, dtype=T.complex64), T.ones(1, 1, 2))))
    out.append(raises(lambda: F.conv2d(T.ones(1, 1, 2, 2, dtype=T.complex64), T.ones(1, 1, 3, 3))))
    return out


@program()
def prog_fz2_pooling_kernel_names_and_sizes(T: Any) -> Any:
    """max_pool1d of an input that requires grad goes through max_pool2d (its dtype error names
    that kernel; under no_grad, max_pool1d_impl); adaptive_max_pool1d checks its own empty dims;
    a negative adaptive max-pool size is torch's allocation error (was numpy's ValueError)."""
    F = T.nn.functional
    c = T.ones(1, 1, 3, dtype=T.complex64, requires_grad=True)
    out = [raises(lambda: F.max_pool1d(c, 2)), raises(lambda: F.max_pool1d(c.detach(), 2))]
    with T.no_grad():
        out.append(raises(lambda: F.max_pool1d(c, 2)))
    out.append(raises(lambda: F.max_pool1d(T.ones(1, 1, 3, dtype=T.long), 2)))
    for shape in ((1, 0, 3), (0, 1, 3), (1, 3, 0), (0, 3), (3, 0)):
        for size in (2, -1, 0):
            x = T.ones(shape)
            out.append(raises(lambda x=x, size=size: F.adaptive_max_pool1d(x, size)))
    for f in (
        lambda: F.adaptive_max_pool2d(T.ones(1, 2, 3), (1, -1)),
        lambda: F.adaptive_max_pool2d(T.ones(1, 2, 3), -1),
        lambda: F.adaptive_max_pool2d(T.ones(1, 2, 3, dtype=T.long), -1),
        lambda: F.adaptive_max_pool3d(T.ones(1, 2, 3, 3), -1),
        lambda: F.adaptive_avg_pool1d(T.ones(1, 2, 3), -1),
    ):
        out.append(raises(f))
    return out


@program()
def prog_fz2_norms_of_low_rank_and_complex_inputs(T: Any) -> Any:
    """batch_norm in training of a 1-D input without running stats reads size(1) (IndexError);
    rms_norm runs on complex inputs and computes bfloat16 in float32 (ToCopyBackward0);
    pairwise_distance of 0-d tensors reduces their one element (was numpy's AxisError)."""
    F = T.nn.functional
    out: list[Any] = []
    for shape in ((3,), (), (2,), (0,)):
        for training in (True, False):
            for rm in (None, T.zeros(3)):
                rv = None if rm is None else T.ones(3)
                x = T.ones(shape)
                out.append(
                    raises(
                        lambda x=x, rm=rm, rv=rv, t=training: F.batch_norm(x, rm, rv, training=t)
                    )
                )
    xb = T.tensor([[1.0, -2.0, 0.5]], dtype=T.bfloat16, requires_grad=True)
    yb = F.rms_norm(xb, (3,), T.ones(3, dtype=T.bfloat16))
    yb.sum().backward()
    xc = T.tensor([[1.0 + 1j, -2.0, 0.5j]], dtype=T.complex64, requires_grad=True)
    yc = F.rms_norm(xc, (3,))
    yc.abs().sum().backward()
    out += [yb, yb.grad_fn, xb.grad, yc, yc.grad_fn, xc.grad]
    out.append(raises(lambda: F.rms_norm(T.ones(1, 3, dtype=T.long), (3,))))
    x = T.tensor(-2.0, requires_grad=True)
    for keepdim in (False, True):
        for p in (2.0, 1.0, 3.0, float("inf"), 0.0):
            d = F.pairwise_distance(x, T.tensor(1.0), p=p, keepdim=keepdim)
            out.append((d, d.grad_fn))
    F.pairwise_distance(x, T.tensor(1.0)).backward()
    out += [x.grad, F.pairwise_distance(T.tensor(1.0), T.ones(3))]
    return out


@program()
def prog_fz2_logical_inplace_is_not_differentiable(T: Any) -> Any:
    """logical_and_/or_/xor_/not_ run as their out= form, which autograd does not see: a leaf
    that requires grad may be written (found by a campaign); its version still counts."""
    x = T.tensor([-2.0, 0.0], requires_grad=True)
    y = x.logical_and_(x)
    z = x * 2
    z.logical_not_()
    v = x[0]
    v.logical_or_(T.tensor(True))
    w = T.tensor([1.0, 0.0], requires_grad=True)
    w.logical_xor_(T.tensor([True, True]))
    return (
        y is x,
        observe(T, x),
        observe(T, z),
        observe(T, v),
        observe(T, w),
        raises(lambda: x.logical_xor_(1)),
        raises(lambda: x.logical_xor_(T.ones(3))),
        raises(lambda: x.eq_(x)),
    )


@program()
def prog_fz2_empty_tensor_is_no_overlap(T: Any) -> Any:
    """A tensor with no elements never overlaps itself, whatever its strides: the shape or
    dtype error (found by campaigns: `v.copy_(v.t())`, `v.bitwise_and_(v)` on a (0, 3) tensor)."""
    v = T.zeros((0, 3))
    return (
        raises(lambda: v.permute(1, 0).add_(v)),
        raises(lambda: v.bitwise_and_(v)),
        raises(lambda: v.copy_(v.t())),
        raises(lambda: T.zeros(0, 3).expand(2, 0, 3).add_(T.ones(3, 1))),
        T.zeros(0, 3).expand(2, 0, 3).add_(1),
    )


@program()
def prog_fz2_bfloat16_conv_type_names(T: Any) -> Any:
    """bfloat16 has no legacy type name: CPUBFloat16Type in conv's (oneDNN path) and
    embedding's type errors (found by a campaign)."""
    F = T.nn.functional
    return (
        raises(lambda: F.conv1d(T.ones(1, 1, 3, dtype=T.bfloat16), T.ones(2, 1, 1))),
        raises(lambda: F.conv1d(T.ones(1, 1, 3), T.ones(2, 1, 1, dtype=T.bfloat16))),
        raises(lambda: F.conv2d(T.ones(1, 1, 3, 3, dtype=T.bfloat16), T.ones(2, 1, 1, 1))),
        raises(lambda: F.embedding(T.ones(2, dtype=T.bfloat16), T.ones(3, 2))),
        raises(lambda: F.conv1d(T.ones(1, 1, 3, dtype=T.float16), T.ones(2, 1, 1))),
    )


@program()
def prog_fz2_take_along_dim_wraps_indices(T: Any) -> Any:
    """take_along_dim with a dim reads each index modulo the size of that dim (floor remainder:
    -1 is the last; found by a campaign), and along an empty dim divides by zero; without a dim
    the indices are gather's, checked."""
    x = T.arange(12.0).reshape(3, 4).requires_grad_()
    out: list[Any] = []
    for v in (3, 4, 5, -4, -7, 100):
        out.append(T.take_along_dim(x, T.full((1, 4), v), 0))
        out.append(T.take_along_dim(x, T.full((3, 1), v), 1))
    y = T.take_along_dim(x, T.tensor([[-1]]), 1)
    y.sum().backward()
    out += [y, y.grad_fn, x.grad]
    for i in (
        T.zeros(1, 3, dtype=T.long),
        T.zeros(0, 3, dtype=T.long),
        T.zeros(1, 2, dtype=T.long),
    ):
        out.append(raises(lambda i=i: T.take_along_dim(T.ones(0, 3), i, 0)))
    out.append(raises(lambda: T.take_along_dim(x, T.tensor([-1, -13]))))
    return out


@program()
def prog_fz2_func_transforms_under_inference_mode(T: Any) -> Any:
    """torch.func transforms called under inference mode differentiate outside it, and the
    level that called them sees grad mode off: results without a graph, not inference tensors;
    inference cotangents and tangents are fine (found by a campaign: vjp raised)."""
    v0 = T.tensor(-2.0, requires_grad=True)
    out = {}
    for name, ctx in (("no_grad", T.no_grad), ("inference", T.inference_mode)):
        with ctx():
            g = T.func.grad(lambda t: (t * t).sum())(v0)
            y, fn = T.func.vjp(T.mul, v0, v0)
            r = fn(T.ones_like(y))
            j = T.func.jacrev(T.tanh)(v0)
            jv = T.func.jvp(T.exp, (v0,), (T.ones_like(v0),))
            jv2 = T.func.jvp(T.exp, (T.ones(2),), (T.ones(2),))
        out[name] = [observe(T, t) for t in (g, y, *r, j, *jv, *jv2)]
    return out


@program(
    xfail="torch.func.vmap of a function of a tensor that requires grad: torch runs the "
    "function once on a batched tensor, so the result's grad_fn is the function's own "
    "(SumBackward1, MulBackward0); shadowgrad's vmap calls the function per sample and stacks "
    "the results (StackBackward0), with the same values and gradients (shadowgrad/func.py vmap)"
)
def prog_fz2_vmap_result_grad_fn(T: Any) -> Any:
    x = T.tensor([[-2.0, 1.0]], requires_grad=True)
    return T.func.vmap(T.sum)(x).grad_fn, T.func.vmap(lambda t: t * 2, in_dims=-1)(x).grad_fn


@program()
def prog_fz2_scatter_checks_dtypes_before_shapes(T: Any) -> Any:
    """scatter_/scatter_add_/scatter_reduce_ check the index's dtype, then src's against self's,
    before the index's rank and sizes (found by a campaign)."""
    x, s = T.tensor(-2.0), T.ones(2, 3, dtype=T.float64)
    i = T.zeros(2, 3, dtype=T.long)
    return [
        raises(f)
        for f in (
            lambda: x.clone().scatter_(0, i, s),
            lambda: T.scatter(x, 0, i, s),
            lambda: T.zeros(3).scatter_(0, i, s),
            lambda: T.zeros(3).scatter_add_(0, i, s),
            lambda: T.zeros(3).scatter_(0, i.float(), s),
            lambda: x.clone().scatter_(0, i, 1.0),
            lambda: T.zeros(3).scatter_reduce_(0, i, s, "sum"),
            lambda: T.zeros(3).scatter_(5, i, s),
            lambda: T.zeros(3).scatter_(0, T.zeros(2, dtype=T.long), T.ones(2, dtype=T.float64)),
        )
    ]


@program()
def prog_fz2_empty_inputs_skip_the_kernel_dtype(T: Any) -> Any:
    """torch's kernels return before their dtype dispatch on empty inputs: softmax of an empty
    integer tensor, a bool mm/mv/bmm/einsum with an empty operand, amin/amax/cummax of empty
    complex tensors; an empty reduced dim is max's and median's error before the dtype's; a
    bool or integer cross_entropy names nll_loss's kernel (found by campaigns)."""
    F = T.nn.functional
    out: dict[Any, Any] = {}
    for dt in (T.bool, T.int64, T.complex64, T.int32):
        for shape in ((0,), (0, 3), (3, 0)):
            x = T.zeros(shape, dtype=dt)
            out["softmax", dt, shape] = raises(lambda x=x: x.softmax(-1))
            out["log_softmax", dt, shape] = raises(lambda x=x: F.log_softmax(x, 0))
            out["amin", dt, shape] = raises(lambda x=x: x.amin(-1, keepdim=True))
            out["amax0", dt, shape] = raises(lambda x=x: x.amax(0))
            out["cummax", dt, shape] = raises(lambda x=x: x.cummax(0))
            out["max", dt, shape] = raises(lambda x=x: x.max(-1))
            out["median", dt, shape] = raises(lambda x=x: x.median(-1))
            out["einsum", dt, shape] = raises(
                lambda x=x: T.einsum("i,i->", x.flatten(), x.flatten())
            )
            out["ce", dt, shape] = raises(
                lambda x=x: F.cross_entropy(x, T.zeros(x.shape[:1], dtype=T.long))
            )
    z = T.zeros(2, 0, dtype=T.bool)
    out["mm"] = raises(lambda: T.mm(z, T.zeros(0, 2, dtype=T.bool)))
    out["mv"] = raises(lambda: T.mv(z, T.zeros(0, dtype=T.bool)))
    out["bmm"] = raises(lambda: T.bmm(z[None], T.zeros(1, 0, 2, dtype=T.bool)))
    out["mm_nonempty"] = raises(
        lambda: T.mm(T.ones(2, 2, dtype=T.bool), T.ones(2, 2, dtype=T.bool))
    )
    return out


@program()
def prog_fz2_checks_before_a_complex_refusal(T: Any) -> Any:
    """nan_to_num of a complex tensor requiring grad saves (packs) its input before refusing;
    clamp_/clip_ of a complex tensor refuse it before an operand overlap (not clamp_min_);
    index_put_ of a tensor into itself is refused before its indices are read, empty or not
    (found by campaigns)."""
    log: list[Any] = []
    v = T.tensor(-2.0, dtype=T.complex64, requires_grad=True)
    hooks = T.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(("pack", tuple(t.shape), t.dtype)), t)[1], lambda t: t
    )
    with hooks:
        out: list[Any] = [raises(lambda: v.nan_to_num())]
    c = T.tensor([-2.0], dtype=T.complex64)
    for f in (
        lambda: c[0].clamp_(c, c),
        lambda: c[0].clamp_(min=c),
        lambda: c[0].clamp_min_(c),
        lambda: c[0].clip_(c, c),
        lambda: c.clamp_(None, None),
        lambda: T.tensor([1.0 + 0j], requires_grad=True).clamp_(0, 1),
    ):
        out.append(raises(f))
    for shape, rg in (((0,), False), ((3,), False), ((3,), True)):
        for f in (
            lambda w: w.__setitem__(T.tensor([0, 0]), w),
            lambda w: w.index_put_((T.tensor([0, 0]),), w),
            lambda w: w.__setitem__([0], w),
            lambda w: w.index_put_((T.tensor([5]),), w, True),
            lambda w: w.__setitem__((T.tensor([0.5]),), w),
            lambda w: w.__setitem__(w > 0, w),
            lambda w: w.__setitem__(slice(None), w),
        ):
            w = T.zeros(shape, requires_grad=rg)
            out.append(raises(lambda f=f, w=w: f(w)))
    return out, log


@program()
def prog_fz2_zero_dim_inputs_of_nn_and_shape_ops(T: Any) -> Any:
    """0-d inputs where torch reads a size first: unflatten (its wrapped c10 error, the backtrace
    the harness drops), bilinear (weight.size(k), then input.size(-1); a 4-d weight is
    _trilinear's error), cross_entropy (class dim 1); found by campaigns."""
    F = T.nn.functional
    v = T.tensor(-2.0)
    out: list[Any] = [
        raises(lambda: v.unflatten(0, (1, -1))),
        raises(lambda: v.unflatten(-1, (1,))),
        raises(lambda: v.unflatten(-1, ())),
        raises(lambda: v.unflatten(2, (1,))),
    ]
    for a, b, w in (
        ((), (), ()),
        ((2,), (2,), ()),
        ((2,), (2,), (2,)),
        ((), (2,), (1, 2, 2)),
        ((), (), (1, 2, 2)),
        ((2,), (2,), (1, 2)),
        ((2,), (2,), (1, 2, 3)),
        ((2,), (2,), (1, 2, 2, 2)),
        ((1, 2), (1, 3), (1, 2, 2)),
    ):
        out.append(raises(lambda a=a, b=b, w=w: F.bilinear(T.ones(a), T.ones(b), T.ones(w))))
    for t in (T.tensor(-2.0), T.zeros(0), T.tensor(0), T.tensor([0])):
        out.append(raises(lambda t=t: F.cross_entropy(v, t)))
    return out


@program()
def prog_fz2_index_error_names_the_index_position(T: Any) -> Any:
    """An integer index out of bounds is reported at its position in the index tuple, not at
    the dim it selects (`x[..., 5]` of a 3-d tensor: dimension 1; found by a campaign)."""
    x, e = T.zeros(2, 2, 2), T.zeros(0)
    return [
        raises(f)
        for f in (
            lambda: x[..., 5],
            lambda: x[:, ..., 5],
            lambda: x[None, :, 5],
            lambda: x[0, ..., 5],
            lambda: x[..., 5, :],
            lambda: e[None, ..., 0],
            lambda: e[None, None, ..., 0],
            lambda: T.zeros(2, 0)[..., None, 0],
            lambda: T.zeros(2, 2)[None, True, ..., 5],
            lambda: x[5],
        )
    ]


@program()
def prog_fz2_inplace_view_and_fill_checks(T: Any) -> Any:
    """t_ of a view of a leaf that requires grad: the autograd check before t_'s dims; fill_ of
    a 0-d tensor sharing memory with self reads it as a number (no overlap error: `v.unsqueeze(0)
    [...] = v`); clamp of a complex tensor requiring grad packs its inputs before refusing (all
    found by campaigns)."""
    x = T.ones(3, 1, requires_grad=True)
    out: list[Any] = [
        raises(lambda: x.unsqueeze(0).t_()),
        raises(lambda: x.detach().unsqueeze(0).t_()),
    ]
    v = T.tensor(-2.0)
    v.unsqueeze(0)[...] = v
    w = T.arange(3.0)
    w[1:].fill_(w[0])
    out += [v, w]
    log: list[Any] = []
    c = T.tensor([-2.0], dtype=T.complex64, requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(("pack", tuple(t.shape), t.dtype)), t)[1], lambda t: t
    ):
        for f in (
            lambda: c.clamp(min=-0.5, max=1.0),
            lambda: c.clamp(min=c),
            lambda: c.clamp(c, c),
            lambda: T.clamp(c, T.tensor([1.0])),
        ):
            out.append(raises(f))
    return out, log


@program()
def prog_fz2_own_values_and_autograd_first(T: Any) -> Any:
    """put_ of a tensor into itself: torch's overlap error after the argument checks, before the
    bounds; an advanced setitem of a view of a grad leaf: the autograd error before the value's
    shape; an in-place op's argument error on a multi-output view that autograd would record:
    the multi-view error; one_hot's result has version 2 (zeros, then two in-place writes);
    found by campaigns."""
    out: list[Any] = []
    for f in (
        lambda w: w.put_(T.tensor([0]), w),
        lambda w: w.put_(T.tensor([0.5]), w),
        lambda w: w.put_(T.tensor([0, 1]), w),
        lambda w: w.put_(T.tensor([5]), w),
        lambda w: w.put_(T.tensor([0]), w, accumulate=True),
    ):
        for shape in ((), (0,), (1,)):
            w = T.zeros(shape)
            out.append(raises(lambda f=f, w=w: f(w)))
    for shape in ((3,), (), (0,)):
        for f in (
            lambda w: w.__setitem__([0], w),
            lambda w: w.__setitem__(T.tensor([0]), w),
            lambda w: w.__setitem__(T.tensor([0, 0]), w),
        ):
            w = T.full(shape, -2.0)
            out.append(raises(lambda f=f, w=w: f(w)))
    v0 = T.tensor([-2.0, -2.0, -2.0], requires_grad=True)

    def setitem() -> None:
        v0[::2][T.tensor([0, 0])] = v0

    out.append(raises(setitem))
    v1 = T.tensor([-2.0], requires_grad=True).exp()
    for f in (
        lambda: v1.unbind(0)[0].index_put_((T.tensor([0]),), T.tensor(3.0)),
        lambda: v1.split(1)[0].index_put_((T.tensor([5]),), T.tensor(3.0)),
        lambda: v1.unbind(0)[0].unsqueeze_(3),
        lambda: v1.detach().unbind(0)[0].index_put_((T.tensor([0]),), T.tensor(3.0)),
    ):
        out.append(raises(f))
    for x in (T.tensor(2), T.tensor([1, 0]), T.tensor([[1], [0]])):
        out.append(observe(T, T.nn.functional.one_hot(x)))
    out.append(observe(T, T.nn.functional.one_hot(T.zeros(0, dtype=T.long), 3)))
    return out


@program(
    xfail="`v[mask] = v` with a one-element v: torch runs masked_fill_ (the value read as a "
    "number, no overlap check) for some shapes and index_put_ (its overlap error) for others "
    "(a 0-d self, a 0-d mask); shadowgrad's index_put_ path refuses every full overlap "
    "(shadowgrad/ops/indexing.py setitem)"
)
def prog_fz2_masked_setitem_of_itself(T: Any) -> Any:
    out = []
    for shape in ((1,), (1, 1)):
        v = T.full(shape, -2.0)
        out.append(raises(lambda v=v: v.__setitem__(v > 0, v)))
    return out


@program()
def prog_fz2_inplace_on_data_of_inference_tensor(T: Any) -> Any:
    """`.data` and `.detach()` of an inference tensor may be written in place outside inference
    mode (torch skips their ADInplaceOrView check); the tensor itself and views of those may
    not (found by a campaign)."""
    out = []
    with T.inference_mode():
        w = T.ones(2)
    for f in (
        lambda: w.mul_(2),
        lambda: w.data.data.add_(1),
        lambda: w.detach()[0].add_(1),
        lambda: w.data.__setitem__(0, 5.0),
        lambda: w.detach().t_(),
        lambda: w.data.copy_(T.full((2,), 3.0)),
    ):
        out.append(raises(lambda f=f: (f(), None)[1]))  # (the error, or None)
    out.append(w.tolist())
    with T.inference_mode():
        v = T.ones(2)
    v.data.mul_(2)
    v.detach().add_(1)
    return out, v.tolist(), v.data.is_inference(), v.detach().is_inference()


@program()
def prog_fz2_addr_autograd_first_and_bfloat16_hook_type(T: Any) -> Any:
    """addr_ on a leaf that requires grad: the autograd error before addr_'s own checks; a hook
    changing a bfloat16 gradient's type names it CPUBFloat16Type (found by the main job's
    campaign)."""
    v0 = T.tensor(-2.0, requires_grad=True)
    out = [
        raises(f)
        for f in (
            lambda: v0.addr_(v0, v0),
            lambda: T.ones(2, 2, requires_grad=True).addr_(T.ones(3), T.ones(2)),
            lambda: T.ones(2, 2).addr_(T.ones(()), T.ones(2)),
            lambda: T.ones(2).addr_(T.ones(2), T.ones(2)),
        )
    ]
    x = T.ones(2, dtype=T.bfloat16, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g.double())
    out.append(raises(lambda: y.sum().backward()))
    return out


@program()
def prog_fz2_complex_backward_with_saved_tensor_hooks(T: Any) -> Any:
    """The backward of a complex op whose saved tensors went through saved_tensors_hooks (abs of
    a complex tensor: shadowgrad raised a TypeError; found by the main job's campaign)."""
    log: list[Any] = []
    v0 = T.tensor(-2.0, dtype=T.complex64, requires_grad=True)
    with T.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(("pack", t.dtype)), t)[1],
        lambda t: (log.append(("unpack", t.dtype)), t)[1],
    ):
        v1 = v0.abs()
        v2 = (v0 * v0).sum().abs()
        v3 = v0.exp()
    v0.retain_grad()
    v1.sum().backward()
    v2.backward()
    v3.real.backward()
    return v0.grad, log


# --- other argument-check orders ------------------------------------------------------------


@program()
def prog_fz2_masked_scatter_check_order(T: Any) -> Any:
    """masked_scatter_ checks source's dtype, then expands the mask to self, then counts; the
    out-of-place form broadcasts mask and self first."""
    x, m = T.tensor([1, 2, 3]), T.tensor([True, True, True])
    m2 = T.tensor([True, True])
    out = [
        raises(lambda: T.masked_scatter(x, m, T.ones(2))),
        raises(lambda: x.clone().masked_scatter_(m, T.ones(2))),
        raises(lambda: x.clone().masked_scatter_(m, T.ones(2, dtype=T.long))),
        raises(lambda: x.clone().masked_scatter_(m2, T.ones(2))),
        raises(lambda: x.clone().masked_scatter_(m2, T.ones(2, dtype=T.long))),
        raises(lambda: T.masked_scatter(x, m2, T.ones(2))),
        raises(lambda: T.tensor(1).masked_scatter_(m, T.ones(5, dtype=T.long))),
        raises(lambda: T.tensor(1).masked_scatter_(m, T.ones(5))),
        raises(lambda: T.tensor(1).masked_scatter_(m.long(), T.ones(5))),
        T.masked_scatter(T.tensor(1), m, T.ones(5, dtype=T.long)),
        T.ones(2, 3).masked_scatter_(T.tensor([True, False, True]), T.arange(6.0)),
    ]
    leaf = T.ones(3, requires_grad=True)
    out.append(raises(lambda: leaf.masked_scatter_(m, T.ones(3, dtype=T.float64))))
    y = leaf * 2
    y.masked_scatter_(T.tensor([False, True, False]), T.tensor([5.0]))
    y.sum().backward()
    return out, y, y.grad_fn, leaf.grad


@program()
def prog_fz2_index_add_dtype_names(T: Any) -> Any:
    """index_add_/index_copy_ name source's dtype as torch prints it (ComplexFloat, BFloat16)."""
    out = []
    for dt in (T.complex64, T.bfloat16, T.float16, T.int64, T.bool):
        s = T.ones(1, dtype=dt)
        out.append(raises(lambda s=s: T.zeros(3).index_add_(0, T.tensor([0]), s)))
        out.append(raises(lambda s=s: T.zeros(3).index_copy_(0, T.tensor([0]), s)))
        out.append(raises(lambda s=s: T.zeros(3, dtype=T.int32).index_add_(0, T.tensor([0]), s)))
    return out


@program()
def prog_fz2_zero_dim_slice_step_first(T: Any) -> Any:
    # found by the main job's campaign: a negative step is refused before the 0-d slice error
    x = T.tensor(2.0)
    out = []
    for k in (slice(None, None, -1), slice(None, None, 0), slice(None, None, 2), slice(1, None)):
        out.append(raises(lambda k=k: x[k]))
        out.append(raises(lambda k=k: x.__setitem__(k, 1.0)))
    return out


@program()
def prog_fz2_mask_setitem_autograd_check_first(T: Any) -> Any:
    # found by the main job's campaign: index_put_'s mask check runs after the autograd layer
    v0 = T.tensor([-2.0, -2.0, -2.0], requires_grad=True)
    x = T.zeros(1, 3)
    out = [
        raises(lambda: v0.unsqueeze(0).__setitem__(v0 > 0, v0.clone())),
        raises(lambda: v0.__setitem__(T.tensor([True, False]), 1.0)),
        raises(lambda: x.__setitem__(T.tensor([True, False, True]), 1.0)),
        raises(lambda: (v0 * 1).unsqueeze(0).__setitem__(v0 > 0, 5.0)),
    ]
    with T.no_grad():
        out.append(raises(lambda: v0.unsqueeze(0).__setitem__(v0 > 0, v0.clone())))
    return out


@program()
def prog_fz2_index_copy_checks_then_overlap(T: Any) -> Any:
    # found by the main job's campaign: index_copy_'s meta checks (shapes, dtype) come before
    # the overlap check, the number of indices and their bounds after it; an overlap of tensors
    # that are not dense is not refused (torch's "too hard")
    v = T.zeros(4, 3)
    w = T.zeros(2, 3)
    return [
        raises(lambda: v[:2].index_copy_(0, T.tensor([0, 1]), v[1:])),
        raises(lambda: v[:2].index_copy_(0, T.tensor([0, 1, 2]), v[1:])),
        raises(lambda: v[:2].index_copy_(3, T.tensor([0, 1, 2]), v[1:])),
        raises(lambda: w.narrow(-1, 1, 1).index_copy_(0, T.tensor([0]), w)),
        raises(lambda: w.narrow(-1, 1, 1).index_copy_(0, T.tensor([0, 1]), w)),
        raises(lambda: w.narrow(-1, 1, 1).index_copy_(0, T.tensor([0, 1]), w[:, :1])),
        raises(lambda: w[:1].index_copy_(0, T.tensor([0]), w[1:, :2])),
        raises(lambda: w[:1].index_copy_(0, T.tensor([0]), w[1:].double())),
        w,
    ]


@program()
def prog_fz2_bmm_inference_operand_before_dims(T: Any) -> Any:
    # found by the main job's campaign: bmm saves its inputs (refusing an inference tensor)
    # before its kernel checks their dimensions
    v0 = T.tensor(-2.0, requires_grad=True)
    with T.inference_mode():
        v2 = v0.exp()
        b3 = T.ones(2, 2, 2)
    out = [
        raises(lambda: T.bmm(v0, v2)),
        raises(lambda: T.bmm(T.ones(2, 2, 2, requires_grad=True), v2)),
        raises(lambda: T.bmm(T.ones(2, 2, 2, requires_grad=True), T.ones(2, 2))),
        raises(lambda: T.bmm(b3, T.ones(2, 2, 2, requires_grad=True))),
        raises(lambda: T.bmm(T.ones(2, 2), b3)),
    ]
    with T.no_grad():
        out.append(raises(lambda: T.bmm(v0, v2)))
    return out


@program()
def prog_fz2_expand_rank_error_type_names(T: Any) -> Any:
    # found by the main job's campaign: c10 names the types without a legacy tensor class
    # CPU<Scalar>Type in expand's error (bfloat16, uint16/32/64, bool, complex)
    out = []
    for dt in (T.bfloat16, T.float16, T.uint16, T.uint32, T.uint64, T.int8, T.uint8,
               T.float32, T.float64, T.int16, T.int32, T.int64, T.bool, T.complex64):  # fmt: skip
        out.append(raises(lambda dt=dt: T.ones(3, 1, dtype=dt).expand(3)))
    return out


@program()
def prog_fz2_complex_abs_inplace_leaf_first(T: Any) -> Any:
    # found by the main job's campaign: abs_ of a complex leaf that requires grad raises the
    # leaf error first (torch's autograd layer), the complex refusal otherwise
    x = T.tensor([1 + 1j], requires_grad=True)
    y = T.tensor([1 + 1j])
    with T.inference_mode():
        z = T.tensor([1 + 1j])
    out = [raises(lambda: x.abs_()), raises(lambda: (x * 1).abs_()), raises(lambda: y.abs_())]
    with T.no_grad():
        out.append(raises(lambda: x.abs_()))
    out.append(raises(lambda: z.abs_()))
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
