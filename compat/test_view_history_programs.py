"""Programs on views of tensors that require no grad: their creation meta and their history.

torch gives every view made under no_grad (or in inference mode) the NO_GRAD_MODE (or
INFERENCE_MODE) creation meta, whether its base requires grad or not: an in-place op on such a
view that autograd would record (another operand requires grad, or the view itself was made to)
raises, and so does reading it once its base was given a history in place. A view made in grad
mode of a tensor without history starts to require grad, through an AsStridedBackward0 node,
when an in-place op recorded on its base (or on another view of it) gives the base a history:
torch's test_autograd.test_inplace_on_view_modify_base. Each program returns what it sees and
the harness compares it with torch's.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


def _name(t: Any) -> Any:
    gf = t.grad_fn
    return None if gf is None else gf.name()


def _state(t: Any) -> Any:
    return t.requires_grad, t.is_leaf, _name(t)


# --- views made under no_grad of a tensor without history ----------------------------------


@program()
def prog_vh_nograd_view_inplace_with_grad_operand(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    r = raises(lambda: v.add_(w))
    return r, _state(v), x._version


@program()
def prog_vh_nograd_view_inplace_without_grad_operand(T: Any) -> Any:
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    v.add_(1)
    return _state(v), x, x._version


@program()
def prog_vh_nograd_view_of_view_inherits(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    u = v[:2]
    return raises(lambda: u.add_(w[:2])), _state(u), u._is_view()


@program()
def prog_vh_nograd_view_copy_and_setitem(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(2, 3)
    with T.no_grad():
        v = x[0]
        u = x[1]
    return raises(lambda: v.copy_(w)), raises(lambda: u.__setitem__(0, w[0])), x


@program()
def prog_vh_nograd_view_index_add_and_foreach(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(2, 3)
    with T.no_grad():
        v = x[0]
    a = raises(lambda: v.index_add_(0, T.tensor([0]), w[:1]))
    b = raises(lambda: T._foreach_add_([v], [w]))
    return a, b, x


@program()
def prog_vh_nograd_multi_view_message(T: Any) -> Any:
    # made under no_grad, a multi-output view's creation meta is NO_GRAD_MODE; made in grad mode
    # of a tensor without history, MULTI_OUTPUT_NODE (the message has no node to name)
    w = T.ones(3, requires_grad=True)
    x = T.zeros(2, 3)
    with T.no_grad():
        a, _ = x.unbind()
    b, _ = x.unbind()
    c, _ = x.split(1)
    return raises(lambda: a.mul_(w)), raises(lambda: b.mul_(w)), raises(lambda: c.mul_(w))


@program()
def prog_vh_nograd_view_requires_grad_then_inplace(T: Any) -> Any:
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    v.requires_grad_()
    info = _state(v)
    return info, raises(lambda: v.add_(1))


@program()
def prog_vh_nograd_view_requires_grad_backward(T: Any) -> Any:
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    v.requires_grad_()
    (v * T.tensor([1.0, 2.0, 3.0])).sum().backward()
    return v.grad, x.grad, x.requires_grad


@program()
def prog_vh_nograd_view_base_modified_with_grad(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    x.add_(w)
    return (
        v.requires_grad,
        raises(lambda: v.grad_fn),
        raises(lambda: v * 2),
        raises(lambda: v.add_(1)),
        _name(x),
    )


@program()
def prog_vh_nograd_view_base_modified_without_grad(T: Any) -> Any:
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    x.add_(1)
    with T.no_grad():
        x.mul_(2)
    return _state(v), v, v._version


@program()
def prog_vh_nograd_view_inplace_inside_no_grad(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(3)
    with T.no_grad():
        v = x[:]
    with T.no_grad():
        v.add_(w)
    return _state(v), x.requires_grad, x


@program()
def prog_vh_inference_view_inplace_in_normal_mode(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(3)
    with T.inference_mode():
        v = x[:]
    y = T.zeros(3)
    with T.inference_mode():
        u = y[:]
    y.add_(w)
    return raises(lambda: v.add_(w)), u.requires_grad, v.is_inference()


@program()
def prog_vh_nograd_view_then_grad_view_then_inplace(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(2, 3)
    with T.no_grad():
        v = x[0]
    u = v.unsqueeze(0)
    return raises(lambda: u.mul_(w)), _state(u)


@program()
def prog_vh_gradient_views_from_backward(T: Any) -> Any:
    # autograd.grad's results were made in no-grad mode (backward without create_graph)
    w = T.ones(3, requires_grad=True)
    g = T.autograd.grad((w * 2).sum(), w)[0]
    g2 = T.autograd.grad((w * 2).sum(), w)[0]
    h = g2.add_(w)
    return g, _name(h), h.requires_grad


# --- views made in grad mode of a tensor that is then given a history in place ----------------


def _grads_through(T: Any, x: Any, v: Any, w: Any) -> Any:
    g = T.autograd.grad((v * T.arange(3.0)).sum(), w, allow_unused=True, retain_graph=True)
    return v.requires_grad, _name(v), v.is_leaf, g


@program()
def prog_vh_view_follows_base_add(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    x = T.zeros(2, 3)
    v = x[1]
    before = _state(v)
    x.add_(w)
    return before, _grads_through(T, x, v, w)


@program()
def prog_vh_view_follows_base_setitem_index_put_foreach(T: Any) -> Any:
    w = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = []
    for how in range(3):
        x = T.zeros(2, 3)
        v = x[1]
        if how == 0:
            x[1] = w
        elif how == 1:
            x.index_put_((T.tensor([1]),), w.unsqueeze(0))
        else:
            T._foreach_add_([x], [w])
        out.append(_grads_through(T, x, v, w))
    return out


@program()
def prog_vh_view_follows_base_sibling_view_inplace(T: Any) -> Any:
    # an in-place op on one view gives the base a CopySlices history: its other views follow
    w = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = T.zeros(2, 3)
    a = x[0]
    b = x[1]
    whole = x.t()
    a.copy_(w * 2)
    return (
        _grads_through(T, x, b, w),
        _grads_through(T, x, a, w),
        _name(whole),
        T.autograd.grad(whole.sum(), w)[0],
    )


@program()
def prog_vh_view_follows_base_custom_function_mark_dirty(T: Any) -> Any:
    class AddInPlace(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, w: Any) -> Any:
            x.add_(w)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g, g.sum(0)

    w = T.ones(3, requires_grad=True)
    x = T.zeros(2, 3)
    v = x[1]
    AddInPlace.apply(x, w)
    return _grads_through(T, x, v, w)


@program()
def prog_vh_view_follows_base_masked_scatter_clamp_scatter_add(T: Any) -> Any:
    w = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    out = []
    for how in range(3):
        x = T.zeros(2, 3)
        v = x[1]
        if how == 0:
            x.masked_scatter_(T.ones(2, 3, dtype=T.bool), w.expand(2, 3))
        elif how == 1:
            x.clamp_(min=w)
        else:
            x.scatter_add_(0, T.zeros(1, 3, dtype=T.long), w.unsqueeze(0))
        out.append(_grads_through(T, x, v, w))
    return out


@program()
def prog_vh_view_follows_base_many_views(T: Any) -> Any:
    w = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = T.zeros(3)
    parts = [x[i] for i in range(3)]
    strided = x[::2]
    x.copy_(w * w)
    grads = [T.autograd.grad(p, w, retain_graph=True)[0] for p in parts]
    return [_name(p) for p in parts], grads, _name(strided), T.autograd.grad(strided.sum(), w)[0]


@program()
def prog_vh_view_follows_base_later_inplace_on_base(T: Any) -> Any:
    w = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = T.zeros(3)
    v = x[:2]
    x.add_(w)
    x.mul_(w)
    return _name(v), T.autograd.grad(v.sum(), w)[0]


@program()
def prog_vh_view_follows_base_non_float_and_detached(T: Any) -> Any:
    w = T.ones(2, 3, requires_grad=True)
    x = T.zeros(2, 3)
    iv = x.view(T.int32)
    dv = x.detach()[0]
    d = T.zeros(2, 3)
    d_view = d[0]
    d_alias = d.detach()
    d_alias.mul_(w)
    x.add_(w)
    return iv.requires_grad, dv.requires_grad, d_view.requires_grad, d.requires_grad


@program()
def prog_vh_view_follows_base_gradcheck(T: Any) -> Any:
    # torch's test_inplace_on_view_modify_base
    r = T.ones(1, dtype=T.float64, requires_grad=True)

    def fn(r: Any) -> Any:
        x = T.ones(5, dtype=T.float64)
        v = x.select(0, 1)
        assert not v.requires_grad and v.grad_fn is None
        x.add_(r)
        assert v.requires_grad
        return v

    return T.autograd.gradcheck(fn, [r]), T.autograd.gradgradcheck(fn, [r]), fn(r)


@program()
def prog_vh_view_follows_base_training_buffer(T: Any) -> Any:
    # a preallocated buffer whose view is read after the buffer is filled from parameters
    p = T.tensor([0.5, -1.0, 2.0, 3.0], requires_grad=True)
    q = T.tensor([2.0, 1.0], requires_grad=True)
    buf = T.zeros(4)
    head = buf[:2]
    buf.copy_(p * 3)
    loss = (head * q).sum() + buf.sum()
    loss.backward()
    return p.grad, q.grad, _name(head)


# --- views made before their base was made to require grad -----------------------------------


@program()
def prog_vh_base_requires_grad_after_view(T: Any) -> Any:
    x = T.zeros(3)
    v = x[:2]
    x.requires_grad_()
    u = v[:1]
    y = v * 2
    return _state(v), y.requires_grad, _name(y), _state(u), raises(lambda: v.add_(1))


@program()
def prog_vh_base_requires_grad_after_view_backward(T: Any) -> Any:
    # the view requires grad through its base but has no edge of its own: nothing reaches x
    x = T.zeros(3)
    v = x[:2]
    x.requires_grad_()
    g = T.autograd.grad((v * 2).sum(), x, allow_unused=True)
    (v * 3).sum().backward()
    return g, x.grad


@program()
def prog_vh_base_requires_grad_then_changed_under_no_grad(T: Any) -> Any:
    # the base changed since: the view's node is regenerated on the base, which now gets grads
    x = T.zeros(3)
    v = x[:2]
    w = T.zeros(3)
    u = w[1:]
    x.requires_grad_()
    w.requires_grad = True
    with T.no_grad():
        x.add_(1)
        u.mul_(2)
    info = _name(v), _name(u)
    (v * 2).sum().backward()
    (u * 5).sum().backward()
    return info, x.grad, w.grad


@program()
def prog_vh_base_requires_grad_nograd_view_and_detached(T: Any) -> Any:
    x = T.zeros(3)
    with T.no_grad():
        v = x[:2]
    d = x.detach()
    dv = d[:1]
    x.requires_grad = True
    info = v.requires_grad, _name(v), (v * 2).requires_grad, dv.requires_grad
    x.requires_grad_(False)
    return info, v.requires_grad, raises(lambda: v.add_(T.ones(2, requires_grad=True)))


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
