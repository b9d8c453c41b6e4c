"""Differential programs for views and in-place ops (semantics sections 5 and 14.13).

Each program is written once against the torch API, run on torch and on shadowgrad, and returns
what it observed (values, gradients, grad_fn names, versions, view flags, error messages).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import shadowgrad

torch = pytest.importorskip("torch")


def gf(t: Any) -> Any:
    return None if t.grad_fn is None else t.grad_fn.name()


def err(fn: Callable[[], Any]) -> str:
    try:
        fn()
    except Exception as e:  # the programs compare exception types and messages
        return f"{type(e).__name__}: {e}"
    return "no error"


def obs(v: Any) -> Any:
    if hasattr(v, "detach"):
        return ("tensor", str(v.dtype), np.round(v.detach().numpy().astype(float), 5).tolist())
    if isinstance(v, (list, tuple)):
        return [obs(x) for x in v]
    return v


def leaf(T: Any, values: Any = (1.0, 2.0, 3.0)) -> Any:
    return T.tensor(list(values), requires_grad=True)


# --- 5.1, 5.10-5.15: versions, view metadata, CopySlices and the rebase ------------------------


def prog_version_counter(T: Any) -> list[Any]:
    a = T.zeros(3)
    v = a[1:]
    d = a.detach()
    out = [a._version, v._version]
    a.add_(1)
    v.mul_(2)
    d[0] = 5.0
    a[1:] += 1
    out += [a._version, v._version, d._version, a, v._is_view(), d._is_view(), a.data._is_view()]
    return out


def prog_view_metadata(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    v = y[1:]
    w = v[:1]
    return [v._is_view(), v._base is y, w._base is y, y._base is None, gf(v), gf(w), v.is_leaf]


def prog_inplace_on_view_rebase(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    v = y[1:]
    v.mul_(10)
    out = [gf(y), gf(v), y._version, v._version, type(y.grad_fn).__name__, y.is_leaf]
    y.sum().backward()
    return [*out, x.grad]


def prog_nested_views(T: Any) -> list[Any]:
    x = leaf(T, (1.0, 2.0, 3.0, 4.0))
    y = x.view(2, 2) * 1
    v = y[1]
    w = v[1:]
    w.mul_(3)
    out = [gf(y), gf(w), y]
    (y * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    return [*out, x.grad]


def prog_view_of_view_transposed(T: Any) -> list[Any]:
    x = T.arange(6.0).reshape(2, 3).requires_grad_()
    y = x * 1
    v = y.t()[1:]
    v.add_(v * 2)
    out = [gf(y), gf(v), y]
    y.pow(2).sum().backward()
    return [*out, x.grad]


def prog_setitem_names(T: Any) -> list[Any]:
    x = leaf(T)
    out = []
    for index in (0, slice(1, None), Ellipsis, slice(None), None, [0, 1], "mask", "t0"):
        y = x * 2
        i = y > 3 if index == "mask" else T.tensor(1) if index == "t0" else index
        y[i] = 5.0
        out.append((gf(y), y._version))
    return out


def prog_setitem_grads(T: Any) -> list[Any]:
    x = leaf(T)
    out = []
    y = x * 2
    y[0] = x[2] * 3
    y.sum().backward()
    out.append(x.grad)
    x.grad = None
    y = (x * 1).unsqueeze(0).repeat(2, 1)
    y[:, 1:] = T.tensor([7.0, 8.0])
    y.sum().backward()
    out.append(x.grad)
    return out


def prog_plain_base_gets_grad(T: Any) -> list[Any]:
    x = leaf(T)
    a = T.zeros(3)
    a.add_(x)
    b = T.zeros(3)
    b[0] = x[0]
    base = T.zeros(3)
    view = base[0:2]
    base[0:2].copy_(x[0:2] * 2)
    out = [a.requires_grad, a.is_leaf, gf(a), b.requires_grad, gf(b), base.requires_grad]
    out += [gf(base), base.is_leaf]
    base.sum().backward()
    return [*out, x.grad, view._is_view()]


def prog_duplicate_indices(T: Any) -> list[Any]:
    x = leaf(T)
    x[[0, 0, 1]].sum().backward()
    g1 = x.grad.clone()
    x.grad = None
    a = T.zeros(3)
    a[[0, 0]] = x[:2]
    a.sum().backward()
    g2 = x.grad.clone()
    x.grad = None
    y = x * 2
    y[[0, 0]] = T.tensor(5.0)
    y.sum().backward()
    x.grad = x.grad
    return [g1, g2, x.grad]


def prog_exp_on_view_saves_result(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 1
    y[1:].exp_()
    y.sum().backward()
    return [x.grad, gf(y)]


def prog_double_backward_through_copyslices(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 1
    y[1:].mul_(x[:2])
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (g2,) = T.autograd.grad((g * g).sum(), x)
    return [g, g2]


def prog_index_put_accumulate(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 1
    y.index_put_((T.tensor([0, 0]),), T.tensor([1.0, 2.0]), accumulate=True)
    v = x * 3
    z = T.zeros(3).index_put((T.tensor([2, 2]),), v[:2], accumulate=True)
    (y.sum() + z.sum()).backward()
    return [y, z, gf(y), gf(z), x.grad]


def prog_inplace_index_ops_on_view(T: Any) -> list[Any]:
    x = leaf(T, (1.0, 2.0, 3.0, 4.0))
    y = x.view(2, 2) * 1
    y[1].index_add_(0, T.tensor([0, 0]), x[:2] * 2)
    y[0].scatter_(0, T.tensor([1]), x[3:] * 5)
    out = [gf(y), y]
    y.sum().backward()
    return [*out, x.grad]


# --- 5.6, 5.7, 5.16, 5.17: errors ----------------------------------------------------------


def prog_errors(T: Any) -> list[Any]:
    x = leaf(T)

    def setitem(t: Any, i: Any, v: Any) -> None:
        t[i] = v

    y = x * 2
    a, _b, _c = y.unbind()
    s = y.split([1, 2])
    ch = y.chunk(3)
    sp = y.split(1)
    z = T.zeros(3)
    p, _q, _r = z.unbind()
    return [
        err(lambda: setitem(x, 0, 1.0)),
        err(lambda: setitem(x, [0], 1.0)),
        err(lambda: x[0:2].mul_(2)),
        err(lambda: x.view(3).mul_(2)),
        err(lambda: a.mul_(2)),
        err(lambda: a[...].mul_(2)),
        err(lambda: s[1].mul_(2)),
        err(lambda: ch[1].add_(1)),
        err(lambda: sp[0].add_(1)),
        err(lambda: p.mul_(2)),
        err(lambda: p.add_(x[0])),
        err(lambda: x[1:].detach_()),
        err(lambda: setitem(y, 0, "a")),
        err(lambda: setitem(y, slice(0, 2), T.ones(3))),
        err(lambda: setitem(y, [0, 1], T.ones(3))),
        err(lambda: y.index_put_((T.tensor([0]),), T.ones(1, dtype=T.float64))),
    ]


def prog_no_grad_inplace_on_view(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    v = y[1:]
    with T.no_grad():
        v.mul_(10)
    out = [y._version, gf(y)]
    y.sum().backward()
    return [*out, x.grad]


# --- 5.14: views made before an in-place op on their base -------------------------------------


def prog_stale_view_grad_fn(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    old = y[:2]
    y[1:].mul_(10)
    return [gf(old)]


def prog_stale_view_gradient(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    old = y[:2]
    y[1:].mul_(10)
    old.sum().backward()
    return [x.grad]


def prog_stale_view_base_inplace(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    old = y[:2]
    y.mul_(3)
    out = [gf(old)]
    old.sum().backward()
    return [*out, x.grad]


def prog_no_grad_view_inplace_error(T: Any) -> list[Any]:
    x = leaf(T)
    y = x * 2
    with T.no_grad():
        v = y[1:]
    return [v.requires_grad, err(lambda: v.mul_(2))]


def prog_base_is_itself_a_view(T: Any) -> list[Any]:
    x = leaf(T, (1.0, 2.0, 3.0, 4.0))
    y = (x * 1).view(2, 2)  # y is a view of the product: modifying y[1] rebases y too
    y[1].mul_(3)
    out = [gf(y)]
    y.sum().backward()
    return [*out, x.grad]


PROGRAMS = [
    prog_version_counter,
    prog_view_metadata,
    prog_inplace_on_view_rebase,
    prog_nested_views,
    prog_view_of_view_transposed,
    prog_setitem_names,
    prog_setitem_grads,
    prog_plain_base_gets_grad,
    prog_duplicate_indices,
    prog_exp_on_view_saves_result,
    prog_double_backward_through_copyslices,
    prog_index_put_accumulate,
    prog_inplace_index_ops_on_view,
    prog_errors,
    prog_no_grad_inplace_on_view,
    # a view made under no_grad of a grad-requiring base (5.17)
    prog_no_grad_view_inplace_error,
    # a view's grad_fn regenerated after an in-place op on its base (5.14)
    prog_stale_view_grad_fn,
    prog_stale_view_gradient,
    prog_stale_view_base_inplace,
    prog_base_is_itself_a_view,
]


def _compare(prog: Callable[[Any], list[Any]]) -> None:
    expected = obs(prog(torch))
    got = obs(prog(shadowgrad))
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g == e, f"{prog.__name__} observation {i}: shadowgrad {g!r} vs torch {e!r}"


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__)
def test_view_program_matches_torch(prog: Callable[[Any], list[Any]]) -> None:
    _compare(prog)
