"""Forward-mode rules of the view, shape, indexing, sorting, in-place and linear-algebra ops:
each op declares one (`jvp=` beside its defop), and
each rule's tangent equals the reverse-mode Jacobian times the tangent (float64).

The J·v cases call the ops with several dual inputs at once, and fail if the op fell back to
the VJP of the VJP instead of running its own rule.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import forward_ad as fwAD
from shadowgrad.autograd.functional import jacobian
from shadowgrad.ops import registry
from shadowgrad.ops import shape as S
from shadowgrad.ops.indexing import _index_put_impl

MODULES = (
    "shadowgrad.ops.shape",
    "shadowgrad.ops.linalg",
    "shadowgrad.ops.indexing",
    "shadowgrad.ops.sorting",
    "shadowgrad.ops.views",
    "shadowgrad.ops.inplace",
)


def _ours() -> list[str]:
    return sorted(n for n, op in registry.REGISTRY.items() if op.forward.__module__ in MODULES)


def test_every_op_of_these_modules_declares_a_jvp_rule() -> None:
    ops = _ours()
    assert len(ops) >= 70  # the families are registered (guards against an empty check)
    missing = [n for n in ops if registry.REGISTRY[n].jvp is None]
    assert not missing, f"ops without a forward-mode rule (they use the VJP of the VJP): {missing}"


# --- J·v cases -------------------------------------------------------------------------------

I = np.eye(3)  # noqa: E741
IDX = sg.tensor([2, 0])
IDX2 = sg.tensor([[2, 0], [1, 2]])
MASK = sg.tensor([[True, False, True], [False, True, False]])


def _spd(b: Any) -> Any:
    return b @ b.mT + sg.tensor(3 * I)


# name (the REGISTRY name, "/variant" optional) -> (function, input shapes)
CASES: dict[str, tuple[Callable[..., Any], tuple[tuple[int, ...], ...]]] = {
    # shape and views
    "view": (lambda x: x.view(6), ((2, 3),)),
    "_unsafe_view": (lambda x: x.t().reshape(6), ((2, 3),)),
    "_reshape_alias": (lambda x: x[:, ::2].reshape(2, 2, 1), ((2, 4),)),
    "alias": (lambda x: S._alias(x), ((2, 3),)),
    "expand": (lambda x: x.expand(2, 3, 4), ((3, 1),)),
    "unsqueeze": (lambda x: x.unsqueeze(1), ((2, 3),)),
    "squeeze": (lambda x: x.squeeze(), ((1, 3, 1),)),
    "squeeze.dim": (lambda x: x.squeeze(2), ((1, 3, 1),)),
    "squeeze.dims": (lambda x: x.squeeze((0, 2)), ((1, 3, 1),)),
    "t": (lambda x: x.t(), ((2, 3),)),
    "transpose.int": (lambda x: x.transpose(0, 2), ((2, 3, 4),)),
    "squeeze_": (lambda x: (x * 1).squeeze_(), ((1, 3, 1),)),
    "squeeze_.dim": (lambda x: (x * 1).squeeze_(0), ((1, 3, 1),)),
    "squeeze_.dims": (lambda x: (x * 1).squeeze_((0, 2)), ((1, 3, 1),)),
    "unsqueeze_": (lambda x: (x * 1).unsqueeze_(0), ((2, 3),)),
    "t_": (lambda x: (x * 1).t_(), ((2, 3),)),
    "transpose_": (lambda x: (x * 1).transpose_(0, 2), ((2, 3, 4),)),
    "permute": (lambda x: x.permute(2, 0, 1), ((2, 3, 4),)),
    "select_backward": (lambda g: S._select_backward(g, (2, 3), 0, 1), ((3,),)),
    "select.int": (lambda x: x.select(1, 2), ((2, 3),)),
    "slice_backward": (lambda g: S._slice_backward(g, (2, 5), 1, 1, 5, 2), ((2, 2),)),
    "slice.Tensor": (lambda x: x[:, 1::2], ((2, 5),)),
    "clone": (lambda x: x.clone(), ((2, 3),)),
    "_to_copy": (lambda x: x.to(sg.float32), ((2, 3),)),
    "unbind.int": (lambda x: x.unbind(1), ((2, 3),)),
    "as_strided": (lambda x: x.as_strided((3, 2), (1, 2), 1), ((2, 4),)),
    "as_strided_": (lambda x: (x * 1).as_strided_((3, 2), (1, 2), 1), ((2, 4),)),
    "repeat": (lambda x: x.repeat(2, 1, 2), ((2, 3),)),
    "flip": (lambda x: x.flip(0, 1), ((2, 3),)),
    "rot90": (lambda x: x.rot90(1, (0, 1)), ((2, 3),)),
    "roll": (lambda x: x.roll((1, -1), (0, 1)), ((2, 3),)),
    "split.Tensor": (lambda x: x.split(2, 1), ((2, 5),)),
    "split_with_sizes": (lambda x: x.split([1, 4], 1), ((2, 5),)),
    "diagonal_backward": (lambda g: S._diagonal_backward(g, (3, 4), 1, 0, 1), ((3,),)),
    "diagonal": (lambda x: x.diagonal(-1, 2, 0), ((3, 2, 4),)),
    "diagonal_copy": (lambda x: sg.diag(x, 1), ((3, 4),)),
    "diag_embed": (lambda x: sg.diag_embed(x, -1), ((2, 3),)),
    "tril": (lambda x: sg.tril(x, -1), ((3, 4),)),
    "triu": (lambda x: sg.triu(x, 1), ((3, 4),)),
    "cat": (lambda x, y: sg.cat([x, y.exp()], 1), ((2, 3), (2, 1))),
    "stack": (lambda x, y: sg.stack([x, y], 1), ((2, 3), (2, 3))),
    # in place
    "zero": (lambda x: (x * 1).zero_(), ((2, 3),)),
    "fill.Scalar": (lambda x: (x * 1).fill_(2.0), ((2, 3),)),
    "fill.Tensor": (lambda x, v: (x * 1).fill_(v), ((2, 3), ())),
    "copy_": (lambda x, y: (x * 1).copy_(y), ((2, 3), (3,))),
    # indexing
    "index_put": (lambda x, v: x.index_put((IDX,), v), ((3, 2), (2, 2))),
    "index_put/accumulate": (
        lambda x, v: x.index_put((sg.tensor([1, 1]),), v, accumulate=True),
        ((3, 2), (2, 2)),
    ),
    # index's backward writes with it (IndexPutImplBackward0): reached only from a gradient
    "_index_put_impl": (
        lambda x, v: _index_put_impl(x, (np.array([1, 1]),), v, True),
        ((3, 2), (2, 2)),
    ),
    "index.Tensor": (lambda x: x[sg.tensor([1, 0, 1]), 1:], ((2, 3),)),
    "gather": (lambda x: x.gather(1, IDX2), ((2, 3),)),
    "scatter_add": (lambda x, s: x.scatter_add(1, IDX2, s), ((2, 3), (2, 2))),
    "scatter.src": (lambda x, s: x.scatter(1, IDX2, s), ((2, 3), (2, 2))),
    "scatter_reduce.two/sum": (
        lambda x, s: x.scatter_reduce(1, IDX2, s, "sum"),
        ((2, 3), (2, 2)),
    ),
    "scatter_reduce.two/mean": (
        lambda x, s: x.scatter_reduce(1, IDX2, s, "mean", include_self=False),
        ((2, 3), (2, 2)),
    ),
    "scatter_reduce.two/amax": (
        lambda x, s: x.scatter_reduce(1, IDX2, s, "amax"),
        ((2, 3), (2, 2)),
    ),
    "scatter_reduce.two/amin": (
        lambda x, s: x.scatter_reduce(1, IDX2, s, "amin", include_self=False),
        ((2, 3), (2, 2)),
    ),
    "scatter.value": (lambda x: x.scatter(1, IDX2, 5.0), ((2, 3),)),
    "index_select": (lambda x: x.index_select(1, IDX), ((2, 3),)),
    "index_add": (lambda x, s: x.index_add(1, IDX, s, alpha=2.0), ((2, 3), (2, 2))),
    "index_fill.int_Scalar": (lambda x: x.index_fill(1, IDX, 3.0), ((2, 3),)),
    "index_fill.int_Tensor": (lambda x, v: x.index_fill(1, IDX, v), ((2, 3), ())),
    "index_copy": (lambda x, s: x.index_copy(1, IDX, s), ((2, 3), (2, 2))),
    "masked_scatter": (lambda x, s: x.masked_scatter(MASK, s), ((2, 3), (4,))),
    "masked_select": (lambda x: x.masked_select(MASK), ((2, 3),)),
    "take": (lambda x: sg.take(x, sg.tensor([[5, 0], [2, 2]])), ((2, 3),)),
    # sorting
    "median": (lambda x: x.median(), ((3, 3),)),
    "nanmedian": (lambda x: x.nanmedian(), ((2, 3),)),
    # linear algebra
    "mm": (lambda a, b: sg.mm(a, b), ((2, 3), (3, 4))),
    "mv": (lambda a, b: sg.mv(a, b), ((2, 3), (3,))),
    "dot": (lambda a, b: sg.dot(a, b), ((3,), (3,))),
    "bmm": (lambda a, b: sg.bmm(a, b), ((2, 2, 3), (2, 3, 4))),
    "addmm": (lambda c, a, b: sg.addmm(c, a, b, beta=0.5, alpha=2.0), ((2, 4), (2, 3), (3, 4))),
    "addmv": (lambda c, a, b: sg.addmv(c, a, b, beta=2.0), ((2,), (2, 3), (3,))),
    "baddbmm": (lambda c, a, b: sg.baddbmm(c, a, b, alpha=3.0), ((2, 1, 4), (2, 2, 3), (2, 3, 4))),
    "addbmm": (lambda c, a, b: sg.addbmm(c, a, b, beta=0.0), ((2, 4), (2, 2, 3), (2, 3, 4))),
    "trace": (lambda x: sg.trace(x), ((3, 4),)),
    "linalg_inv_ex": (lambda a: sg.linalg.inv(a + sg.tensor(3 * I)), ((2, 3, 3),)),
    "linalg_det": (lambda a: sg.linalg.det(a), ((2, 3, 3),)),
    "linalg_slogdet": (lambda a: sg.linalg.slogdet(a), ((3, 3),)),
    "linalg_solve_ex": (lambda a, b: sg.linalg.solve(a, b), ((3, 3), (3, 2))),
    "linalg_solve_ex/vector": (lambda a, b: sg.linalg.solve(a, b), ((2, 3, 3), (2, 3))),
    "linalg_solve_ex/right": (lambda a, b: sg.linalg.solve(a, b, left=False), ((3, 3), (2, 3))),
    "linalg_cholesky_ex": (lambda b: sg.linalg.cholesky(_spd(b)), ((2, 3, 3),)),
    "linalg_cholesky_ex/upper": (lambda b: sg.linalg.cholesky(_spd(b), upper=True), ((3, 3),)),
    "linalg_qr": (lambda a: sg.linalg.qr(a), ((4, 3),)),
    "linalg_qr/wide": (lambda a: sg.linalg.qr(a), ((2, 3, 5),)),
    "linalg_qr/complete square": (lambda a: sg.linalg.qr(a, mode="complete"), ((3, 3),)),
    "linalg_svd": (lambda a: sg.linalg.svd(a, full_matrices=False), ((4, 3),)),
    "linalg_svd/wide batched": (lambda a: sg.linalg.svd(a, full_matrices=False), ((2, 2, 4),)),
    "linalg_svd/svdvals": (lambda a: sg.linalg.svdvals(a), ((3, 5),)),
    "linalg_eigh": (lambda b: sg.linalg.eigh(b + b.mT), ((2, 3, 3),)),
    "linalg_eigh/upper": (lambda b: sg.linalg.eigh(b + b.mT, UPLO="U"), ((4, 4),)),
    "linalg_cross": (lambda a, b: sg.linalg.cross(a, b), ((2, 3), (1, 3))),
}
LIST_OPS = ("cat", "stack")  # deflistop: forward_ad.propagate_list, no REGISTRY entry


def test_every_op_of_these_modules_has_a_jvp_case() -> None:
    from shadowgrad.autograd.forward_ad import NO_FORWARD_AD

    covered = {name.split("/")[0] for name in CASES}
    ours = set(_ours()) - set(NO_FORWARD_AD)  # those raise torch's error (see the program file)
    assert ours <= covered, sorted(ours - covered)


def _floats(out: Any) -> tuple[Any, ...]:
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(o for o in outs if o.dtype.is_floating_point)


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_equals_reverse_mode_jacobian_times_v(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    f, shapes = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    xs = tuple(sg.tensor(rng.standard_normal(s)) for s in shapes)
    vs = tuple(rng.standard_normal(s) for s in shapes)

    propagated: list[str] = []
    fallback: list[str] = []
    propagate, generic = fwAD.propagate, fwAD._generic_jvp

    def spy_propagate(op: Any, *args: Any) -> None:
        propagated.append(op.name)
        propagate(op, *args)

    def spy_generic(op: Any, *args: Any) -> Any:
        fallback.append(op.name)
        return generic(op, *args)

    monkeypatch.setattr(fwAD, "propagate", spy_propagate)
    monkeypatch.setattr(fwAD, "_generic_jvp", spy_generic)
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x, sg.tensor(v)) for x, v in zip(xs, vs, strict=True)]
        outs = _floats(f(*duals))
        tangents = [fwAD.unpack_dual(o).tangent for o in outs]
    monkeypatch.undo()

    op = name.split("/")[0]
    if op not in LIST_OPS:
        assert op in propagated, f"{op} did not run under forward AD: {propagated}"
    ours = set(_ours())
    assert not [n for n in fallback if n in ours], f"fell back to the VJP of the VJP: {fallback}"

    J = jacobian(lambda *a: _floats(f(*a)), xs)
    for k, (o, t) in enumerate(zip(_floats(f(*xs)), tangents, strict=True)):
        expected = sum(
            J[k][i].numpy().reshape(o.numel(), -1) @ v.reshape(-1) for i, v in enumerate(vs)
        )
        assert t is not None, f"output {k} has no tangent"
        assert t.shape == o.shape and t.dtype == o.dtype
        tol = 1e-5 if o.dtype == sg.float32 else 1e-9
        np.testing.assert_allclose(
            t.numpy().reshape(-1), expected, rtol=tol, atol=tol, err_msg=f"output {k}"
        )
