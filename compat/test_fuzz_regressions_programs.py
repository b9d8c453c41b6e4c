"""Regressions found by the random-program fuzzer (compat/fuzz.py): each program is a shrunk
mismatch between torch and shadowgrad, written as a `prog(T)` and run through
test_realistic_programs_3's harness (values, dtypes, grad_fn, errors and warnings compared).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import observe, raises

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


@program()
def prog_fz_backward_inputs_checks_outputs_first(T: Any) -> Any:
    """backward(inputs=...) checks the outputs before it retains the inputs' grads: an output
    that does not require grad is the error, not the input."""
    a = T.tensor(-2.0)
    b = T.tensor(1.0, requires_grad=True)
    return (
        raises(lambda: a.sum().backward(inputs=[a])),
        raises(lambda: a.backward(inputs=[b])),
        raises(lambda: (b * 2).backward(inputs=[a])),
        raises(lambda: a.backward(inputs=[3])),
        raises(lambda: (b * 2).backward(inputs=[3])),
        observe(T, b),
        a.retains_grad,
    )


@program()
def prog_fz_grad_assignment_checks_dtype_before_size(T: Any) -> Any:
    """Assigning .grad checks the dtype (against grad_dtype) before the size."""
    out = []
    for g in (T.ones(1, dtype=T.float64), T.ones(2, dtype=T.float64), T.ones(1)):
        for x in (T.tensor(1.0), T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0])[0]):

            def assign(x: Any = x, g: Any = g) -> Any:
                x.grad = g
                return x.grad

            out.append(raises(assign))
    return out


@program()
def prog_fz_slice_of_0d_tensor(T: Any) -> Any:
    """A lone slice of a 0-d tensor is refused as a slice (read and write); other index forms
    keep their own errors."""
    x = T.tensor(-2.0, requires_grad=True)
    out = {}
    for name, k in (
        ("from1", slice(1, None)),
        ("all", slice(None)),
        ("step", slice(None, None, 2)),
        ("ellipsis_slice", (Ellipsis, slice(None))),
        ("int", 0),
        ("none_slice", (None, slice(1, None))),
    ):

        def write(k: Any = k) -> Any:
            y = x.detach().clone()
            y[k] = 1.0
            return y

        out[name] = (raises(lambda k=k: x[k]), raises(write))
    y = x.detach().clone()
    out["inplace_through_slice"] = raises(lambda: y[1:].mul_(2))
    return out, observe(T, y)


@program()
def prog_fz_index_ops_refuse_self_as_source(T: Any) -> Any:
    """index_add_, index_copy_, scatter_ and scatter_add_ refuse self as their source (any
    overlap, a full one included); add_ and copy_ take it. The argument checks and the leaf
    check come first; an empty self is refused too."""

    def f(op: Any, x: Any = None) -> Any:
        y = T.tensor([1.0, 2.0, 3.0]) if x is None else x
        return raises(lambda: op(y)), y

    i0 = T.tensor([0, 1, 2])
    return {
        "index_add": f(lambda y: y.index_add_(0, i0, y)),
        "index_add_alpha": f(lambda y: y.index_add_(0, i0, y, alpha=2)),
        "index_copy": f(lambda y: y.index_copy_(0, i0, y)),
        "scatter": f(lambda y: y.scatter_(0, i0, y)),
        "scatter_add": f(lambda y: y.scatter_add_(0, i0, y)),
        "scatter_value": f(lambda y: y.scatter_(0, i0, 2.0)),
        "add": f(lambda y: y.add_(y)),
        "copy": f(lambda y: y.copy_(y)),
        "0d": f(lambda y: y.index_add_(0, T.tensor([0]), y), T.tensor(1.0)),
        "empty": f(lambda y: y.index_add_(0, T.tensor([], dtype=T.long), y), T.zeros(0)),
        "bad_dim": f(lambda y: y.index_add_(5, i0, y)),
        "bad_index": f(lambda y: y.index_add_(0, i0.float(), y)),
        "bad_count": f(lambda y: y.index_add_(0, T.tensor([0]), y)),
        "bad_dtype": f(lambda y: y.index_add_(0, i0, y.double())),
        "scatter_bad_dim": f(lambda y: y.scatter_(3, i0, y)),
        "leaf": f(lambda y: y.index_add_(0, i0, y), T.ones(3, requires_grad=True)),
    }


@program()
def prog_fz_index_select_of_0d_tensor(T: Any) -> Any:
    """index_select of a 0-d tensor is its IndexSelectBackward0 node, also in double backward
    (IndexAddBackward0)."""
    x = T.tensor(2.0, requires_grad=True)
    y = x.index_select(0, T.tensor([0]))
    z = x.index_select(-1, T.tensor(0))
    (g,) = T.autograd.grad(y * x, x, create_graph=True)
    (gg,) = T.autograd.grad(g, x)
    return (
        y,
        z,
        g,
        gg,
        raises(lambda: x.index_select(0, T.tensor([0, 0]))),
        T.tensor(3).index_select(0, T.tensor([0])),
        T.tensor(2j, requires_grad=True).index_select(0, T.tensor([0])),
    )


@program()
def prog_fz_size_methods_without_sizes(T: Any) -> Any:
    """permute, expand, repeat, reshape, new_ones/new_zeros/new_empty and resize_ called with
    no sizes are torch's parser errors (a missing argument), even for a 0-d tensor."""
    out = {}
    for shape in ((2, 3), ()):
        x = T.ones(shape)
        for name in ("permute", "expand", "repeat", "reshape", "new_ones", "new_zeros",
                     "new_empty", "resize_"):  # fmt: skip
            out[name, shape] = raises(lambda n=name, x=x: getattr(x, n)())
        out["permute_fn", shape] = raises(lambda x=x: T.permute(x))
    s = T.ones(())
    return out, s.permute(()), s.expand(()), s.reshape(()), s.new_ones(size=()), s.repeat(())


@program()
def prog_fz_materialized_grads_require_grad_with_create_graph(T: Any) -> Any:
    """materialize_grads: an unused input's zeros require grad under create_graph (a leaf)."""
    x = T.tensor(2.0, requires_grad=True)
    y = T.tensor([1.0, 2.0], requires_grad=True)
    a = T.autograd.grad(x * 2, [x, y], create_graph=True, materialize_grads=True)
    b = T.autograd.grad(x * 2, [x, y], materialize_grads=True)
    c = T.autograd.grad(
        x * 2, [x, y], T.ones(3), create_graph=True, materialize_grads=True, is_grads_batched=True
    )
    return a, [t.is_leaf for t in a], b, c


@program(
    xfail="a normal tensor computed from an inference tensor outside inference mode: torch's "
    "kernels that write their result through an in-place op (sum, mean, clone, cumsum, sort, "
    "max along a dim, logsumexp, std) bump its _version to 1 or 2; shadowgrad's stays 0"
)
def prog_fz_inference_input_bumps_result_version(T: Any) -> Any:
    with T.inference_mode():
        a = T.tensor(2.0)
        b = T.tensor([1.0, 2.0])
    out = {}
    for name, f in (
        ("sum", lambda: a.sum(0)),
        ("mean", lambda: b.mean(0)),
        ("clone", lambda: a.clone()),
        ("cumsum", lambda: a.cumsum(0)),
        ("max", lambda: b.max(0)[0]),
        ("exp", lambda: a.exp()),
        ("add", lambda: a + 1),
    ):
        r = f()
        out[name] = (r._version, r.is_inference())
    return out


@program()
def prog_fz_saved_hooks_unpack_each_value_once(T: Any) -> Any:
    """Under saved_tensors_hooks a node's backward unpacks each saved value once, in the order
    they were packed (inputs by name, then outputs), whichever gradients it computes: not once
    per formula that reads it. With retain_graph, a second backward unpacks them again."""
    ops = {
        "div": lambda a, b: a / b,
        "rdiv": lambda a, b: b / a,
        "pow": lambda a, b: a**b,
        "atan2": lambda a, b: T.atan2(a, b),
        "maximum": lambda a, b: T.maximum(a, b),
        "mul_max": lambda a, b: (a * b).max(),
        "index": lambda a, b: a[T.tensor([0, 0])] * b,
        "sort": lambda a, b: a.sort()[0] + b,
        "softmax": lambda a, b: T.softmax(a * b, 0),
        "where": lambda a, b: T.where(a > 0, a, b),
    }
    out = {}
    for name, f in ops.items():
        for b_only in (False, True):
            log: list[Any] = []
            a = T.tensor([-2.0, 1.0], requires_grad=not b_only)
            b = T.tensor([3.0], requires_grad=True)
            with T.autograd.graph.saved_tensors_hooks(
                lambda t, log=log: (log.append(("pack", tuple(t.shape))), t)[1],
                lambda t, log=log: (log.append(("unpack", tuple(t.shape))), t)[1],
            ):
                v = f(a, b)
            log.append("backward")
            v.sum().backward(retain_graph=True)
            log.append("again")
            v.sum().backward()
            out[name, b_only] = log, a.grad, b.grad
    return out


@program()
def prog_fz_inplace_result_may_not_grow_rank(T: Any) -> Any:
    """An in-place op whose broadcast result has more dims than self (a [1] operand into a 0-d
    self, [1, 3] into [3]) is refused, with or without grad, under no_grad too; nothing is
    written."""
    ops = {
        "add_": lambda a, b: a.add_(b),
        "mul_": lambda a, b: a.mul_(b),
        "copy_": lambda a, b: a.copy_(b),
        "masked_fill_": lambda a, b: a.masked_fill_(b > 0, 1.0),
        "pow_": lambda a, b: a.pow_(b),
        "iadd": lambda a, b: a.__iadd__(b),
        "addcmul_": lambda a, b: a.addcmul_(b, b),
        "atan2_": lambda a, b: a.atan2_(b),
        "logical_and_": lambda a, b: a.logical_and_(b),
        "clamp_": lambda a, b: a.clamp_(min=b),
    }
    out = {}
    for name, f in ops.items():
        for mode in ("grad", "plain", "no_grad"):
            for sa, sb in (((), (1,)), ((3,), (1, 3)), ((3,), (2, 1, 1)), ((2, 3), (3,))):

                def run(f: Any = f, mode: str = mode, sa: Any = sa, sb: Any = sb) -> Any:
                    a = T.ones(sa, requires_grad=mode == "grad").clone()
                    b = T.ones(sb) * 3
                    if mode == "no_grad":
                        with T.no_grad():
                            r = raises(lambda: f(a, b))
                    else:
                        r = raises(lambda: f(a, b))
                    return r, a

                out[name, mode, sa, sb] = run()
    return out


@program()
def prog_fz_index_put_checks_indices_before_dtypes(T: Any) -> Any:
    """index_put_ checks the number of indices and their shapes (a mask's, broadcasting) before
    the values' dtype; the dtype before the bounds."""
    v64 = T.tensor(3.0, dtype=T.float64)
    cases = {
        "0d": lambda: T.tensor(2.0, dtype=T.float64).index_put_((T.tensor([0]),), T.tensor(3.0)),
        "too_many": lambda: T.ones(2).index_put_((T.tensor([0]), T.tensor([0])), v64),
        "function": lambda: T.index_put(T.ones(2), (T.tensor([0]), T.tensor([0])), v64),
        "mask_shape": lambda: T.ones(2).index_put_((T.tensor([True, False, True]),), v64),
        "broadcast": lambda: T.ones(2, 2).index_put_((T.tensor([0, 1]), T.tensor([0, 1, 0])), v64),
        "float_index": lambda: T.ones(2).index_put_((T.tensor([0.5]),), v64),
        "bounds": lambda: T.ones(2).index_put_((T.tensor([5]),), v64),
        "ok": lambda: T.ones(2).index_put_((T.tensor([1]),), T.tensor(3.0)),
    }
    return {k: raises(f) for k, f in cases.items()}


@program()
def prog_fz_copy_checks_overlap_before_shape(T: Any) -> Any:
    """copy_ from a view of the same memory: the overlap is refused before the shapes are
    compared (torch's TensorIterator order)."""
    out = []
    for f in (
        lambda v: v.copy_(v.t()),
        lambda v: v.copy_(v[:, :2]),
        lambda v: v[:, 1:].copy_(v[:, :2]),
        lambda v: v[:, 1:].copy_(v[:, :1]),
        lambda v: v.copy_(v[0]),
        lambda v: v.t().copy_(v),
        lambda v: v[:, :1].copy_(v[:, 1:]),
    ):
        v = T.tensor([[1.0, 2.0, 3.0]])
        out.append((raises(lambda f=f, v=v: f(v)), v.clone()))
    return out


@program()
def prog_fz_expanded_inplace_overlap_before_shape(T: Any) -> Any:
    """An in-place op on an expanded tensor with an operand of the wrong shape: torch's
    TensorIterator refuses the internal overlap before it compares shapes."""
    x = T.tensor(-2.0)
    return (
        raises(lambda: x.expand(2).clamp_(min=T.tensor([1.0, 2.0, 3.0]))),
        raises(lambda: x.expand(2).add_(T.ones(3))),
        raises(lambda: x.expand(2).add_(1)),
    )


@program()
def prog_fz_int_index_of_0d_tensor(T: Any) -> Any:
    """An integer index of a 0-d tensor other than 0 is out of bounds of a size-0 dimension;
    0 itself is the 'invalid index of a 0-dim tensor' error; a bool indexes."""
    x = T.tensor(2.0)
    out = {}
    for k in (0, 1, -1, 2, np.int64(3), np.int64(0), True, False):

        def write(k: Any = k) -> Any:
            y = x.clone()
            y[k] = 1.0
            return y

        out[repr(k)] = (raises(lambda k=k: x[k]), raises(write))
    return out


@program()
def prog_fz_inplace_autograd_checks_before_arguments(T: Any) -> Any:
    """A leaf that requires grad (or a view of one) fails an in-place op's autograd check
    before the op checks its arguments (index count, dims, shapes, random parameters)."""
    cases = {
        "index_put_0d": lambda a: a.index_put_((T.tensor([0]),), T.tensor(3.0)),
        "index_put_two": lambda a: a.index_put_((T.tensor([0]), T.tensor([0])), T.tensor(3.0)),
        "index_put_dtype": lambda a: a.index_put_((T.tensor([0]),), T.tensor(3.0).double()),
        "index_put_bounds": lambda a: a.index_put_((T.tensor([7]),), T.tensor(3.0)),
        "index_add_self_dim": lambda a: a.index_add_(5, T.tensor([0]), a),
        "copy_shape": lambda a: a.copy_(T.ones(5)),
        "fill_dims": lambda a: a.fill_(T.ones(2)),
        "squeeze_": lambda a: a.squeeze_(4),
        "unsqueeze_": lambda a: a.unsqueeze_(5),
        "transpose_": lambda a: a.transpose_(0, 4),
        "uniform_": lambda a: a.uniform_(2, 1),
        "normal_": lambda a: a.normal_(0, -1),
        "exponential_": lambda a: a.exponential_(-1),
        "geometric_": lambda a: a.geometric_(2.0),
        "index_fill_": lambda a: a.index_fill_(3, T.tensor([0]), 1.0),
        "add_shape": lambda a: a.add_(T.ones(5)),
    }
    out = {}
    for name, f in cases.items():
        for shape in ((2,), ()):
            for view in (False, True):
                for grad in (True, False):
                    a = T.ones(shape, requires_grad=grad)
                    if view:
                        a = a[...] if shape == () else a[:]
                    out[name, shape, view, grad] = raises(lambda f=f, a=a: f(a))
    return out


@program()
def prog_fz_index_ops_overlap_after_argument_checks(T: Any) -> Any:
    """index_add_, scatter_, index_put_, put_ check their arguments (shapes, dims, index dtype)
    before they refuse a source overlapping self through another view; index_copy_ checks only
    the dim first."""
    cases = {
        "add_0d": lambda v: v[0].index_add_(0, T.tensor([0]), v),
        "add_expanded": lambda v: v[0].expand(2).index_add_(0, T.tensor([0]), v[0]),
        "add_view": lambda v: v[:1].index_add_(0, T.tensor([0]), v[:1]),
        "add_float_index": lambda v: v[:2].index_add_(0, T.tensor([0.0, 1.0]), v[1:]),
        "add_alpha": lambda v: v[:2].index_add_(0, T.tensor([0, 1]), v[1:], alpha=2),
        "copy": lambda v: v[:2].index_copy_(0, T.tensor([0, 1]), v[1:]),
        "copy_count": lambda v: v[:2].index_copy_(0, T.tensor([0, 1, 2]), v[1:]),
        "copy_dim": lambda v: v[:2].index_copy_(3, T.tensor([0, 1, 2]), v[1:]),
        "copy_self_count": lambda v: v.index_copy_(0, T.tensor([0, 1, 2, 3]), v),
        "copy_self_dim": lambda v: v.index_copy_(2, T.tensor([0, 1, 2, 3]), v),
        "add_self_count": lambda v: v.index_add_(0, T.tensor([0, 1, 2, 3]), v),
        "scatter": lambda v: v[:2].scatter_(0, T.tensor([0, 1]), v[1:]),
        "scatter_add_dim": lambda v: v[:2].scatter_add_(5, T.tensor([0, 1]), v[1:]),
        "index_put": lambda v: v[:2].index_put_((T.tensor([0, 1]),), v[1:]),
        "put": lambda v: v[:2].put_(T.tensor([0, 1]), v[1:]),
    }
    out = {}
    for name, f in cases.items():
        v = T.tensor([1.0, 2.0, 3.0])
        out[name] = (raises(lambda f=f, v=v: f(v)), v)
    return out


@program()
def prog_fz_saved_hooks_pack_inputs_of_a_failing_op(T: Any) -> Any:
    """torch's autograd kernels save (so pack) their inputs before the kernel runs: an op that
    then fails on its shapes has called the pack hook for them."""
    log: list[Any] = []
    a = T.ones(2, requires_grad=True)
    b = T.ones(3, requires_grad=True)
    m = T.zeros(0, 3, requires_grad=True)
    c = T.ones(3)
    ops = (
        lambda: a * b,
        lambda: m @ m,
        lambda: T.mm(m, m),
        lambda: a / b,
        lambda: a.log() + b,
        lambda: T.atan2(a, b),
        lambda: a * c,
        lambda: c * a,
        lambda: a.pow(b),
        lambda: T.maximum(a, b),
        lambda: a.dot(b),
        lambda: m.mv(a),
        lambda: T.where(a > 0, a, b),
    )
    with T.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(("pack", tuple(t.shape))), t)[1], lambda t: t
    ):
        for f in ops:
            log.append(raises(f))
        with T.no_grad():
            log.append(raises(lambda: a * b))
    return log


@program()
def prog_fz_no_grad_view_has_no_gradient_edge(T: Any) -> Any:
    """A view made under no_grad of a tensor that requires grad requires grad but has no
    gradient edge: ops on it record (None, 0), nothing accumulates into it or its base,
    backward from it is 'does not require grad', autograd.grad finds it unused; cat, stack and
    two-input ops with it in any position."""
    v0 = T.tensor([-2.0, 1.0], requires_grad=True)
    with T.no_grad():
        v1 = v0.view_as(v0)
        v2 = v0[0]
        v3 = v0[:1]
    s = (v1 * 2).sum()
    out: dict[str, Any] = {
        "meta": (v1.requires_grad, v1.is_leaf, v1.grad_fn, v1._is_view()),
        "next": s.grad_fn.next_functions[0][0].next_functions,
        "backward": raises(lambda: s.backward(retain_graph=True)),
        "grad_view": raises(lambda: T.autograd.grad(s, v1)),
        "grad_base": raises(lambda: T.autograd.grad(s, v0)),
        "from_view": raises(lambda: v2.backward()),
        "grad_of_view": raises(lambda: T.autograd.grad(v2, v2)),
        "retain_grad": (raises(lambda: v1.retain_grad()), v1.retains_grad),
    }
    c = T.cat([v3, v0])
    st = T.stack([v3, v3])
    z = v3.expand(3).sum() + v3.exp().sum() + (v3 @ v3) + v3.max() + (v3 * v3).sum()
    z = z + (v0[:1] * v3).sum()
    out["graphs"] = (c.grad_fn.next_functions, st.grad_fn.next_functions)
    c.sum().backward()
    st.sum().backward()
    z.backward()
    out["grads"] = (v0.grad, v1.grad, v3.grad)
    out["unused"] = T.autograd.grad((v3 * v3 * v0[:1]).sum(), [v0, v3], allow_unused=True)
    return out


@program()
def prog_fz_chunk_of_empty_dim_is_split_with_sizes(T: Any) -> Any:
    """chunk of a dimension of size 0 is torch's split_with_sizes (SplitWithSizesBackward0, its
    multi-view error naming SplitWithSizes), giving `chunks` empty pieces."""
    z = T.zeros(0, 2, requires_grad=True)
    cs = z.chunk(3)
    node = cs[0].grad_fn
    err = raises(lambda: z.clone().chunk(2)[0].mul_(2))
    (cs[0].sum() + cs[2].sum()).backward()
    return (
        len(cs),
        [c.grad_fn for c in cs],
        node._saved_split_sizes,
        node._saved_dim,
        err,
        z.grad,
        [c.shape for c in T.zeros(0, 3).chunk(3, 1)],
        [c.grad_fn for c in T.zeros(4, requires_grad=True).chunk(3)],
    )


@program()
def prog_fz_setitem_of_expanded_from_its_own_memory(T: Any) -> Any:
    """Setting an expanded tensor's slice from the memory it expands (the value expands to the
    very same view) is torch's copy_ early exit: no overlap error, a version bump; another value
    is refused."""
    out = []
    v0 = T.tensor([-2.0])
    e = v0.expand(2, 1)
    out.append((raises(lambda: e.__setitem__((slice(None), 0), v0)), v0._version, e._version))
    v1 = T.tensor([-2.0, 3.0])
    e1 = v1.expand(2, 2)
    out.append(raises(lambda: e1.__setitem__((slice(None),), v1)))
    out.append(raises(lambda: e1.__setitem__((slice(None),), v1.flip(0))))
    out.append(raises(lambda: e1.__setitem__(0, v1)))
    return out, v0, v1, v1._version


@program()
def prog_fz_inplace_on_empty_checks_the_broadcast(T: Any) -> Any:
    """An in-place op on an empty tensor writes nothing but still refuses a result shape that
    differs from self's, with and without grad mode."""
    cases = (
        lambda v: v.unsqueeze(-1).add_(v),
        lambda v: v.add_(T.ones(2, 0)),
        lambda v: v.add_(T.ones(1)),
        lambda v: v.mul_(T.ones(3)),
        lambda v: v.copy_(T.ones(1, 0)),
        lambda v: v.unsqueeze(0).add_(T.ones(3, 1, 0)),
        lambda v: v.add_(T.ones(0, 0)),
        lambda v: v.zero_(),
    )
    out = []
    for f in cases:
        for no_grad in (False, True):
            v = T.zeros(0)
            if no_grad:
                with T.no_grad():
                    out.append(raises(lambda f=f, v=v: f(v)))
            else:
                out.append(raises(lambda f=f, v=v: f(v)))
            out.append(v._version)
    return out


@program()
def prog_fz_softmax_of_0d_special_values(T: Any) -> Any:
    """softmax and log_softmax of a 0-d tensor subtract it from itself first, as torch's kernel:
    inf, -inf and nan give nan; the gradient of a finite one is 0."""
    out = []
    for v in (float("inf"), float("-inf"), float("nan"), 1.0, -3.0):
        for dt in (T.float32, T.float64, T.float16, T.bfloat16):
            x = T.tensor(v, dtype=dt)
            out.append((x.softmax(-1), x.log_softmax(0), x.softmax(0, dtype=T.float64)))
    x = T.tensor(2.0, requires_grad=True)
    (g,) = T.autograd.grad(x.softmax(0), x)
    (h,) = T.autograd.grad(x.log_softmax(0), x)
    return out, g, h


@program()
def prog_fz_index_select_of_empty_self(T: Any) -> Any:
    """index_select of a tensor of 2+ dims that is empty along the indexed dim, with indices:
    torch's 'self indexing axis dim should be positive'; a 1-d one: out of range."""
    cases = (
        lambda: T.zeros(0).index_select(0, T.tensor([0])),
        lambda: T.zeros(0, 3).index_select(1, T.tensor([5])),
        lambda: T.zeros(0, 3).index_select(0, T.tensor([0])),
        lambda: T.zeros(2, 0).index_select(1, T.tensor([0])),
        lambda: T.zeros(0, 0).index_select(1, T.tensor([], dtype=T.long)),
        lambda: T.zeros(2, 0, 2).index_select(1, T.tensor([0])),
    )
    return [raises(f) for f in cases]


@program()
def prog_fz_multi_output_view_of_no_grad_view(T: Any) -> Any:
    """A multi-output view (unbind, split, chunk) made in grad mode of a view made under no_grad
    is a multi-output view: modifying it in place is the multi-view error (torch's
    propagate_creation_meta); one of an inference-mode view stays an inference-mode view, and a
    plain view of either keeps the no_grad / inference creation."""
    out = []
    for mode in ("no_grad", "inference"):
        for op in (
            lambda v: v.unbind(0)[0],
            lambda v: v.split(1)[0],
            lambda v: v.chunk(1)[0],
            lambda v: v[0],
            lambda v: v.unbind(0)[0][...],
        ):
            v0 = T.tensor([-2.0, 1.0], requires_grad=True)
            if mode == "no_grad":
                with T.no_grad():
                    v1 = v0.expand_as(v0)
            else:
                with T.inference_mode():
                    v1 = v0.expand_as(v0)
            w = op(v1)
            out.append(raises(lambda w=w: w.mul_(2)))
            with T.no_grad():
                w2 = op(v0)
            out.append(raises(lambda w2=w2: w2.mul_(2)))
    return out


@program()
def prog_fz_leaf_that_stopped_requiring_grad_accumulates_nothing(T: Any) -> Any:
    """A leaf set to requires_grad=False after the graph was built: backward runs its tensor
    hook and post-accumulate hook but adds nothing to .grad; set back to True before backward,
    it accumulates again. The other leaves are unaffected."""
    out: list[Any] = []
    for how in ("method", "attr", "again"):
        v0 = T.tensor(-2.0, requires_grad=True)
        v1 = v0.exp()
        w = T.ones(2, requires_grad=True)
        y = (w * v0).sum()
        v0.register_hook(lambda g: out.append(("hook", g.clone())))
        v0.register_post_accumulate_grad_hook(
            lambda p: out.append(("post", None if p.grad is None else p.grad.clone()))
        )
        if how == "attr":
            v0.requires_grad = False
        else:
            v0.requires_grad_(False)
        if how == "again":
            v0.requires_grad_(True)
        v1.sum().backward()
        out.append(v0.grad)
        y.backward()
        out.append((v0.grad, w.grad, v0.requires_grad))
    return out


@program()
def prog_fz_custom_function_input_returned_then_base_modified(T: Any) -> Any:
    """A custom Function that returns its input as is gives a view of it; once the input is
    modified in place (under no_grad, in inference mode, or through a detached alias), reading
    the view's grad_fn or differentiating through it is torch's custom-Function view error."""

    class Ident(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    out: list[Any] = []
    for mode in ("no_grad", "inference", "alias"):
        v0 = T.tensor([-2.0, 1.0], requires_grad=True)
        v2 = Ident.apply(v0)
        if mode == "no_grad":
            with T.no_grad():
                v0.mul_(2)
        elif mode == "inference":
            with T.inference_mode():
                v0.mul_(2)
        else:
            v0.detach().mul_(2)
        out.append(
            (
                raises(lambda v2=v2: v2.grad_fn),
                v2._version,
                raises(lambda v2=v2: (v2 * 2).sum().backward()),
                v0.grad,
            )
        )
    v0 = T.tensor([-2.0, 1.0], requires_grad=True)
    (Ident.apply(v0) * 2).sum().backward()
    w0 = T.tensor([-2.0, 1.0])
    w2 = Ident.apply(w0)
    w0.mul_(2)
    return out, v0.grad, w2.grad_fn, w2


@program()
def prog_fz_setitem_0d_value_into_0d_slice_is_copy(T: Any) -> Any:
    """x[...] = value on a 0-d tensor: the slice and a 0-d value have the same size, so torch
    copies (CopyBackwards) where a larger slice is filled (FillBackward3); a complex value
    warns once either way."""
    import warnings

    out: list[Any] = []
    x = T.tensor(-2.0, requires_grad=True)
    for val in (
        2,
        T.tensor(2.0),
        T.tensor(2, dtype=T.int64),
        2.5,
        T.tensor(3.0, requires_grad=True),
    ):
        v1 = x * 1
        v1[...] = val
        out.append((v1.grad_fn, v1._version))
        v1.backward()
        out.append(x.grad)
    y = x * T.ones(2)
    y[...] = 2
    out.append(y.grad_fn)
    for z, k in ((T.zeros(()), ...), (T.zeros(2), 0)):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            z[k] = T.tensor(1 + 2j)
        out.append((z, [str(i.message)[:40] for i in w]))
    return out


@program()
def prog_fz_lone_root_tensor_hooks_run_when_not_needed(T: Any) -> Any:
    """autograd.grad (or backward(inputs=)) from one output that no input depends on: torch's
    lone root edge is the graph root itself, and a node it runs without needing it still calls
    its tensor pre-hooks, so the output's tensor hooks run and a retained grad is filled."""
    log: list[Any] = []
    v0 = T.tensor(-2.0, requires_grad=True)
    v1 = v0.exp()
    v0.register_hook(lambda g: log.append(("h0", g)))
    a = raises(lambda: T.autograd.grad(v0, [v1], grad_outputs=T.ones_like(v0), allow_unused=True))
    v1.retain_grad()
    v1.register_hook(lambda g: log.append(("h1", g)))
    v3 = v0 * 3
    b = raises(lambda: T.autograd.grad(v1, [v3], retain_graph=True, allow_unused=True))
    g1 = v1.grad
    c = raises(lambda: T.autograd.grad([v1, v0 * 2], [v3], allow_unused=True))
    d = raises(lambda: v1.backward(inputs=[v3], retain_graph=True))
    e = raises(lambda: T.autograd.grad(v1, [v3], create_graph=True, allow_unused=True))
    return a, b, g1, c, d, e, v1.grad, v0.grad, log


@program()
def prog_fz_nograd_view_requires_grad_follows_base(T: Any) -> Any:
    """A view made under no_grad (or inference mode) of a tensor that requires grad has no node:
    its requires_grad is its base's, also after the base's flag changes (found by the main
    job's campaign)."""
    out = []
    for inference in (False, True):
        v0 = T.tensor([-2.0, 1.0], requires_grad=True)
        with T.no_grad():
            if inference:
                with T.inference_mode():
                    v1 = v0[0]
            else:
                v1 = v0[0]
        row = [v1.requires_grad, v1.is_leaf]
        v0.requires_grad_(False)
        row.append(v1.requires_grad)
        v0.requires_grad_(True)
        row += [v1.requires_grad, v1.grad_fn]
        out.append(row)
    return out


@program()
def prog_fz_dot_saves_before_its_dtype_check(T: Any) -> Any:
    """dot (and 1-d @ 1-d) saves its inputs for backward before the kernel's checks: a
    dtype mismatch packs through saved_tensors_hooks, and an inference tensor that would be
    saved gives the inference error first (found by the main job's campaign)."""
    log: list[Any] = []
    w = T.tensor([-2.0, 1.0], requires_grad=True)
    with T.inference_mode():
        i64 = T.ones(2, dtype=T.float64)
    out = [raises(lambda: T.dot(i64, w)), raises(lambda: T.dot(w, i64))]
    with T.autograd.graph.saved_tensors_hooks(
        lambda t: (log.append(("pack", tuple(t.shape), t.dtype)), t)[1], lambda t: t
    ):
        for a, b in (
            (T.ones(2, dtype=T.float64), w),
            (T.ones(2, 2), w),
            (T.ones(3), w),
            (T.ones(2, dtype=T.int64), T.ones(2)),
        ):
            out.append((raises(lambda a=a, b=b: T.dot(a, b)), raises(lambda a=a, b=b: a @ b)))
    return out, log


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
