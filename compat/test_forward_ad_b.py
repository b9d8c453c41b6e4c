"""Differential programs for forward-mode AD, part B: the rules of the view, shape, indexing,
in-place and linear-algebra ops, where the op database's samples do not reach (several dual
inputs at once, in-place ops on views, factorization errors).

Each program is written once as `prog(T)` against the torch API and runs on torch and on
shadowgrad; the observations must match (see compat/test_extension.py for `observe`).
"""

from __future__ import annotations

from typing import Any

import pytest

from .program_set import ProgramSet
from .test_extension import assert_same, forward_ad, observe, raises

torch = pytest.importorskip("torch")
import shadowgrad  # noqa: E402

_SET = ProgramSet()
PROGRAMS = _SET.programs
program = _SET.program


def tangent_of(fw: Any, y: Any) -> Any:
    t = fw.unpack_dual(y).tangent
    return None if t is None else t.detach()


def _dual(T: Any, fw: Any, values: list[Any], tangent: list[Any]) -> Any:
    return fw.make_dual(T.tensor(values, dtype=T.float64), T.tensor(tangent, dtype=T.float64))


# --- in-place ops on views ----------------------------------------------------------------


@program
def inplace_on_a_view_of_a_recorded_dual(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0, 3.0], dtype=T.float64, requires_grad=True)
    with fw.dual_level():
        y = fw.make_dual(x, T.tensor([1.0, 2.0, 3.0], dtype=T.float64)) * 1
        v = y[1:]
        v.mul_(3)
        w = y * 1
        w.mul_(2)
        return {
            "view": tangent_of(fw, v),
            "base": tangent_of(fw, y),
            "whole": tangent_of(fw, w),
            "grad_fn": type(y.grad_fn).__name__,
        }


@program
def setitem_and_copy_into_views(T: Any) -> Any:
    fw = forward_ad(T)
    x = T.tensor([1.0, 2.0, 3.0], dtype=T.float64, requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(x, T.tensor([1.0, 2.0, 4.0], dtype=T.float64))
        z = d.clone()
        z[0] = d[1] * 5
        w = T.zeros(3, dtype=T.float64)
        w[1:].copy_(d[:2])
        m = T.zeros(2, 3, dtype=T.float64)
        m[:, 1] = d[:2]
        return {
            "setitem": tangent_of(fw, z),
            "copy": tangent_of(fw, w),
            "column": tangent_of(fw, m),
        }


@program
def inplace_view_ops_on_duals(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        out = {}
        for name, f in (
            ("squeeze_", lambda t: t.squeeze_(0)),
            ("unsqueeze_", lambda t: t.unsqueeze_(-1)),
            ("t_", lambda t: t.squeeze_(0).t_()),
            ("transpose_", lambda t: t.transpose_(0, 2)),
        ):
            d = _dual(T, fw, [[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]) * 1
            r = f(d)
            out[name] = (r is d, tuple(d.shape), tangent_of(fw, d))
        return out


# --- ops linear in several inputs jointly -------------------------------------------------


@program
def scatters_with_two_dual_inputs(T: Any) -> Any:
    fw = forward_ad(T)
    idx = T.tensor([2, 0])
    with fw.dual_level():
        out = {}
        for accumulate in (False, True):
            a = _dual(T, fw, [1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
            v = _dual(T, fw, [10.0, 20.0], [-1.0, -2.0])
            out[f"index_put {accumulate}"] = tangent_of(
                fw, a.index_put((T.tensor([1, 1]),), v, accumulate=accumulate)
            )
        a = _dual(T, fw, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
        s = _dual(T, fw, [[7.0, 8.0], [9.0, 10.0]], [[3.0, 4.0], [5.0, 6.0]])
        two = T.tensor([[2, 0], [1, 2]])
        out["scatter"] = tangent_of(fw, a.scatter(1, two, s))
        out["scatter_add"] = tangent_of(fw, a.scatter_add(1, two, s))
        out["scatter value"] = tangent_of(fw, a.scatter(1, two, 5.0))
        out["index_add"] = tangent_of(fw, a.index_add(1, idx, s, alpha=2.0))
        out["index_copy"] = tangent_of(fw, a.index_copy(1, idx, s))
        val = _dual(T, fw, 3.0, 7.0)
        out["index_fill tensor"] = tangent_of(fw, a.index_fill(1, idx, val))
        out["index_fill scalar"] = tangent_of(fw, a.index_fill(1, idx, 3.0))
        mask = T.tensor([[True, False, True], [False, True, False]])
        src = _dual(T, fw, [1.0, 2.0, 3.0, 4.0], [9.0, 8.0, 7.0, 6.0])
        out["masked_scatter"] = tangent_of(fw, a.masked_scatter(mask, src))
        out["plain self"] = tangent_of(fw, T.zeros(2, 3, dtype=T.float64).scatter(1, two, s))
        return out


@program
def fill_zero_and_copy_tangents(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = _dual(T, fw, [1.0, float("nan")], [float("nan"), 2.0]) * 1
        e = _dual(T, fw, [1.0, 2.0], [3.0, 4.0]) * 1
        f = _dual(T, fw, [[1.0, 2.0], [3.0, 4.0]], [[1.0, 1.0], [1.0, 1.0]]) * 1
        g = T.zeros(2, 2)
        return {
            "zero_": tangent_of(fw, d.zero_()),
            "fill_ number": tangent_of(fw, e.fill_(3.0)),
            "fill_ dual": tangent_of(fw, T.zeros(2, dtype=T.float64).fill_(_dual(T, fw, 1.0, 5.0))),
            "copy_ broadcast": tangent_of(fw, f.copy_(_dual(T, fw, [5.0, 6.0], [7.0, 8.0]))),
            "copy_ cast": tangent_of(fw, g.copy_(_dual(T, fw, [[1.0, 2.0]], [[0.5, 0.25]]))),
            "copy_ plain source": tangent_of(fw, e.copy_(T.ones(2, dtype=T.float64))),
        }


@program
def median_tangent_reads_the_ties(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = _dual(T, fw, [1.0, 2.0, 2.0, 5.0, 2.0], [1.0, 2.0, 3.0, 4.0, 5.0])
        n = _dual(T, fw, [1.0, float("nan"), 3.0], [1.0, 2.0, 3.0])
        return {
            "median": tangent_of(fw, d.median()),
            "nanmedian": tangent_of(fw, d.nanmedian()),
            "median nan": tangent_of(fw, n.median()),
            "nanmedian nan": tangent_of(fw, n.nanmedian()),
        }


@program
def as_strided_of_a_dual(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        d = _dual(T, fw, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        return {
            "windows": tangent_of(fw, d.as_strided((3, 2), (1, 1))),
            "offset": tangent_of(fw, d.as_strided((2, 2), (2, 1), 1)),
        }


# --- factorizations -------------------------------------------------------------------------


@program
def qr_forward_ad_errors(T: Any) -> Any:
    fw = forward_ad(T)
    with fw.dual_level():
        tall = _dual(
            T, fw, [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
        )
        return {
            "r": raises(lambda: T.linalg.qr(tall, mode="r")),
            "complete tall": raises(lambda: T.linalg.qr(tall, mode="complete")),
        }


@program
def factorizations_of_one_dual(T: Any) -> Any:
    fw = forward_ad(T)
    a = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]
    ta = [[0.3, -0.1, 0.2], [0.5, 0.1, -0.4], [0.2, 0.7, 0.05]]
    with fw.dual_level():
        d = _dual(T, fw, a, ta)
        L, V = T.linalg.eigh(d)
        U, S, Vh = T.linalg.svd(d[:, :2], full_matrices=True)
        sign, logabs = T.linalg.slogdet(d)
        return {
            # eigenvectors and singular vectors up to sign: compare sign-invariant products
            "eigh L": tangent_of(fw, L),
            "eigh V V^T": tangent_of(fw, V @ V.mT),
            "eigh V diag V^T": tangent_of(fw, (V * L) @ V.mT),
            "svd S": tangent_of(fw, S),
            "svd U[:, :2] S Vh": tangent_of(fw, (U[:, :2] * S) @ Vh),
            "svd U's extra column": tangent_of(fw, U)[:, 2:],
            "cholesky": tangent_of(fw, T.linalg.cholesky(d, upper=True)),
            "det": tangent_of(fw, T.linalg.det(d)),
            "sign": T.zeros((), dtype=T.float64) + tangent_of(fw, sign),  # torch: a ZeroTensor
            "logabs": tangent_of(fw, logabs),
            "inv": tangent_of(fw, T.linalg.inv(d)),
        }


@program
def solve_rejects_a_vector_b_with_left_false(T: Any) -> Any:
    # not forward AD: the one solve case that the jvp rule's vector branch must not meet
    a = T.eye(3, dtype=T.float64) * 2
    return {
        "vector": raises(lambda: T.linalg.solve(a, T.ones(3, dtype=T.float64), left=False)),
        "batched vector": raises(
            lambda: T.linalg.solve(a.expand(2, 3, 3), T.ones(2, 3, dtype=T.float64), left=False)
        ),
        "matrix": T.linalg.solve(a, T.ones(2, 3, dtype=T.float64), left=False),
        "left vector": T.linalg.solve(a, T.ones(3, dtype=T.float64)),
    }


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    _SET.check(name, observe, assert_same, torch, shadowgrad)
