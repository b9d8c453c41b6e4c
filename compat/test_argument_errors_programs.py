"""Wrong calls get torch's argument-parser errors: a str, None, a float or a list where torch's
parser wants a Tensor, an int, a bool, a dtype or a tuple of ints; too many positional
arguments, an unknown keyword, a keyword given twice. torch refuses these before the op runs,
with a TypeError in its parser's standard wording (`mm(): argument 'mat2' (position 1) must be
Tensor, not str`, positions counted without self in the method form); each program makes many
such calls on one family of ops, in method and function forms, next to a valid call whose
values, grad_fn and gradients are compared too. The programs register into
test_realistic_programs_3's set and run through its harness.
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


_WRONG = ("abc", None, 1.5, [1.0], (), object)
_NOT_INTS = ("abc", None, [1], (), object)  # (a float for an int: shadowgrad takes it today)


def _wrong_calls(fn: Any, values: tuple[Any, ...] = _WRONG) -> list[Any]:
    """fn(v) for each wrong value v: the error torch gives, or the result."""
    return [raises(lambda v=v: fn(v)) for v in values]


# --- a Tensor where a non-Tensor is given ------------------------------------------------------


def _tensor_family(name: str, shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    def prog(T: Any) -> Any:
        a = _x(T, *shapes[0])
        b = _x(T, *shapes[1], seed=1)
        m = getattr(a, name)
        f = getattr(T, name)
        out = getattr(T, name)(a, b)
        out.sum().backward()
        return (
            _wrong_calls(m),
            _wrong_calls(lambda v: f(a, v)),
            _wrong_calls(lambda v: f(v, b)),
            raises(lambda: m(b, bogus=1)),
            raises(lambda: f(a, b, b, b)),
            out,
            out.grad_fn,
            a.grad,
            b.grad,
        )

    prog.__name__ = prog.__qualname__ = f"prog_arg_{name}_tensor_operand"
    program()(prog)


for _name, _shapes in {
    "mm": ((2, 3), (3, 4)),
    "bmm": ((2, 2, 3), (2, 3, 2)),
    "mv": ((2, 3), (3,)),
    "dot": ((3,), (3,)),
    "vdot": ((3,), (3,)),
    "inner": ((2, 3), (4, 3)),
    "outer": ((3,), (2,)),
    "kron": ((2, 2), (2, 3)),
}.items():
    _tensor_family(_name, _shapes)


def _method_only_family(name: str, shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    def prog(T: Any) -> Any:
        a = _x(T, *shapes[0])
        b = _x(T, *shapes[1], seed=1)
        m = getattr(a, name)
        out = m(b)
        out.sum().backward()
        return (
            _wrong_calls(m),
            out,
            out.grad_fn,
            a.grad,
        )

    prog.__name__ = prog.__qualname__ = f"prog_arg_{name}_other_not_a_tensor"
    program()(prog)


for _name, _shapes in {
    "view_as": ((2, 3), (3, 2)),
    "expand_as": ((1, 3), (2, 3)),
}.items():
    _method_only_family(_name, _shapes)


@program()
def prog_arg_allclose_other_and_tolerances(T: Any) -> Any:
    a = _x(T, 2, 3, rg=False)
    b = a + 1e-9
    return (
        _wrong_calls(a.allclose),
        _wrong_calls(lambda v: T.allclose(a, v)),
        raises(lambda: a.allclose(b, "x")),
        raises(lambda: a.allclose(b, 1e-5, None)),
        raises(lambda: T.allclose(a, b, bogus=1)),
        a.allclose(b),
        T.allclose(a, b, 0, 0),
        a.allclose(b, rtol=1, atol=0, equal_nan=True),
    )


@program()
def prog_arg_masked_select_and_take_along_dim(T: Any) -> Any:
    a = _x(T, 2, 3)
    mask = a > 0
    idx = T.tensor([[0, 2, 1], [1, 1, 0]])
    out = a.masked_select(mask).sum() + a.take_along_dim(idx, 1).sum()
    out.backward()
    return (
        _wrong_calls(a.masked_select),
        _wrong_calls(lambda v: T.masked_select(a, v)),
        _wrong_calls(a.take_along_dim),
        raises(lambda: a.take_along_dim(idx, "1")),
        raises(lambda: a.take_along_dim(idx, 1.0)),
        raises(lambda: T.take_along_dim(a, [0, 1], 1)),
        out,
        a.grad,
    )


# --- an int where a non-int is given ---------------------------------------------------------


@program()
def prog_arg_tril_triu_diagonal_not_an_int(T: Any) -> Any:
    a = _x(T, 3, 3)
    out = a.tril(1) + a.triu(diagonal=-1) + T.tril(a, 0)
    out.sum().backward()
    res = {}
    for name in ("tril", "triu"):
        m, f = getattr(a, name), getattr(T, name)
        res[name] = (
            _wrong_calls(m),
            _wrong_calls(lambda v, f=f: f(a, v)),
            raises(lambda f=f: f(a, 1, 2, 3)),
            raises(lambda m=m: m(1, bogus=2)),
            raises(lambda m=m: m(1, diagonal=2)),
            m(T.tensor(1)),
        )
    return res, out, out.grad_fn, a.grad


@program()
def prog_arg_diag_and_diagonal_offsets(T: Any) -> Any:
    a = _x(T, 3, 3)
    v = _x(T, 3, seed=2)
    out = a.diag(1).sum() + a.diagonal(0, 0, 1).sum() + v.diag_embed(1).sum() + v.diag().sum()
    out.backward()
    return (
        _wrong_calls(a.diag),
        _wrong_calls(lambda d: T.diag(a, d)),
        _wrong_calls(a.diagonal, _NOT_INTS),
        raises(lambda: a.diagonal(0, "a")),
        raises(lambda: a.diagonal(0, 0, 1.0)),
        raises(lambda: T.diagonal(a, 0, None)),
        _wrong_calls(v.diag_embed, _NOT_INTS),
        out,
        a.grad,
        v.grad,
    )


# --- a tuple of ints where something else is given -------------------------------------------


@program()
def prog_arg_expand_and_broadcast_to_sizes(T: Any) -> Any:
    a = _x(T, 1, 3)
    out = a.expand(2, 3).sum() + a.expand((4, 3)).sum() + a.broadcast_to([2, 3]).sum()
    out.backward()
    return (
        _wrong_calls(a.expand),
        _wrong_calls(a.broadcast_to),
        _wrong_calls(lambda s: T.broadcast_to(a, s)),
        raises(lambda: a.expand(2.0, 3)),
        raises(lambda: a.expand([2, "3"])),
        raises(lambda: a.expand(["2", 3])),
        raises(lambda: a.expand(2, None)),
        raises(lambda: a.broadcast_to(2, 3)),
        raises(lambda: a.broadcast_to((2, 3.0))),
        out,
        a.grad,
    )


@program()
def prog_arg_permute_and_repeat_sizes(T: Any) -> Any:
    a = _x(T, 2, 3)
    out = a.permute(1, 0).sum() + a.permute([1, 0]).sum() + a.repeat(2, 1).sum()
    out += T.permute(a, (1, 0)).sum()
    out.backward()
    return (
        _wrong_calls(a.permute),
        _wrong_calls(lambda d: T.permute(a, d)),
        _wrong_calls(a.repeat),
        raises(lambda: a.permute(["a"])),
        raises(lambda: a.permute([0, "a"])),
        raises(lambda: a.permute(0, 1.0)),
        raises(lambda: a.repeat(2.5, 1)),
        raises(lambda: a.repeat([1, None])),
        out,
        a.grad,
    )


@program()
def prog_arg_sum_to_size_sizes(T: Any) -> Any:
    a = _x(T, 2, 3)
    out = a.sum_to_size(1, 3).sum() + a.sum_to_size((2, 1)).sum()
    out.backward()
    return (
        _wrong_calls(a.sum_to_size, ("abc", None, 1.5, object)),
        raises(lambda: a.sum_to_size([1, "3"])),
        out,
        a.grad,
    )


@program()
def prog_arg_split_sizes_not_ints(T: Any) -> Any:
    a = _x(T, 4, 3)
    parts = a.split(2) + a.split([1, 3]) + T.split(a, 1, 1)
    out = sum(p.sum() for p in parts)
    out.backward()
    return (
        _wrong_calls(a.split),
        _wrong_calls(lambda s: T.split(a, s)),
        raises(lambda: a.split(2, "1")),
        raises(lambda: a.split([1, 3], 0.0)),
        raises(lambda: a.split([1.0, 3])),
        raises(lambda: a.split([1, "3"])),
        [p.grad_fn for p in parts],
        out,
        a.grad,
    )


# --- a Tensor or a Number: torch lists both overloads ------------------------------------------


def _number_family(name: str, integer: bool) -> None:
    def prog(T: Any) -> Any:
        if integer:
            a, b = T.tensor([[5, -3, 7], [2, 0, -8]]), T.tensor([1, 2, 3])
        else:
            a, b = _x(T, 2, 3).abs() + 1, _x(T, 3, seed=1).abs() + 1
        m, f = getattr(a, name), getattr(T, name)
        valid = (m(b), f(a, 2), m(3))
        return (
            [raises(lambda v=v: m(v)) for v in ("abc", None, [1.5], object)],
            [raises(lambda v=v: f(a, v)) for v in ("abc", None, [1.5], object)],
            valid,
            [v.grad_fn for v in valid],
        )

    prog.__name__ = prog.__qualname__ = f"prog_arg_{name}_tensor_or_number"
    program()(prog)


for _name, _integer in {
    "fmod": False,
    "remainder": False,
    "float_power": False,
    "bitwise_and": True,
    "bitwise_or": True,
    "bitwise_xor": True,
    "bitwise_left_shift": True,
    "bitwise_right_shift": True,
}.items():
    _number_family(_name, _integer)


@program()
def prog_arg_lerp_end_and_weight(T: Any) -> Any:
    a, b = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    out = a.lerp(b, 0.25) + T.lerp(a, b, T.full((2, 3), 0.5))
    out.sum().backward()
    return (
        raises(lambda: a.lerp("abc", 0.5)),
        raises(lambda: a.lerp(b, "abc")),
        raises(lambda: a.lerp(None, 0.5)),
        raises(lambda: T.lerp(a, "abc", 0.5)),
        out,
        out.grad_fn,
        a.grad,
        b.grad,
    )


# --- the legacy linalg methods: bool, float, int and Tensor parameters -------------------------


def _spd(T: Any) -> Any:
    m = T.tensor(_data(3, 3, seed=4), dtype=T.float64)
    return m @ m.mT + 3 * T.eye(3, dtype=T.float64)


@program()
def prog_arg_linalg_flags_not_bools(T: Any) -> Any:
    a = _spd(T)
    L = T.linalg.cholesky(a)
    b = T.tensor(_data(3, 2, seed=5), dtype=T.float64)
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        return (
            [raises(lambda v=v: a.cholesky(v)) for v in ("abc", None, 1, 1.5, [True])],
            raises(lambda: T.cholesky(a, 1)),
            [raises(lambda v=v: L.cholesky_inverse(v)) for v in ("abc", None, 1, [True])],
            raises(lambda: b.cholesky_solve(L, "abc")),
            raises(lambda: b.triangular_solve(L, "abc")),
            raises(lambda: b.triangular_solve(L, True, 1)),
            raises(lambda: b.triangular_solve(L, True, False, None)),
            # torch.linalg's keyword-only flags
            raises(lambda: T.linalg.cholesky(a, upper="yes")),
            raises(lambda: T.linalg.cholesky_ex(a, check_errors="no")),
            raises(lambda: T.linalg.solve(a, a, left="no")),
            raises(lambda: T.linalg.lu_factor(a, pivot="yes")),
            raises(lambda: T.linalg.lu_factor_ex(a, check_errors=None)),
        )


@program()
def prog_arg_cholesky_solve_factor_not_a_tensor(T: Any) -> Any:
    L = T.linalg.cholesky(_spd(T)).requires_grad_()
    b = T.tensor(_data(3, 2, seed=5), dtype=T.float64, requires_grad=True)
    out = L.cholesky_inverse().sum() + b.cholesky_solve(L).sum() + L.cholesky_inverse(False).sum()
    out.backward()
    return (
        [raises(lambda v=v: b.cholesky_solve(v)) for v in ("abc", None, 1.5, [1.0])],
        raises(lambda: T.cholesky_solve(b, None)),
        raises(lambda: T.cholesky_solve(b, "abc", True)),
        out,
        L.grad,
        b.grad,
    )


@program()
def prog_arg_triangular_solve_matrix_not_a_tensor(T: Any) -> Any:
    A = T.linalg.cholesky(_spd(T)).requires_grad_()
    b = T.tensor(_data(3, 2, seed=6), dtype=T.float64, requires_grad=True)
    X = b.triangular_solve(A, False).solution
    X.sum().backward()
    return (
        [raises(lambda v=v: b.triangular_solve(v)) for v in ("abc", None, 1.5, [1.0])],
        raises(lambda: T.triangular_solve(b, "abc")),
        X,
        A.grad,
        b.grad,
    )


@program()
def prog_arg_pinverse_and_matrix_power(T: Any) -> Any:
    a = T.tensor(_data(3, 3, seed=7), dtype=T.float64, requires_grad=True)
    out = a.pinverse(1e-10).sum() + a.matrix_power(3).sum() + T.matrix_power(a, 0).sum()
    out.backward()
    return (
        [raises(lambda v=v: a.pinverse(v)) for v in ("abc", object)],
        [raises(lambda v=v: a.matrix_power(v)) for v in ("abc", None, 1.5, [2], True)],
        raises(lambda: T.matrix_power(a, "2")),
        raises(lambda: T.pinverse(a, "abc")),
        out,
        a.grad,
    )


@program()
def prog_arg_orgqr_input2_not_a_tensor(T: Any) -> Any:
    a = T.tensor(_data(3, 2, seed=8), dtype=T.float64)
    h, tau = T.geqrf(a)
    q = h.orgqr(tau)
    return (
        [raises(lambda v=v: h.orgqr(v)) for v in ("abc", None, 1.5, [1.0])],
        raises(lambda: T.orgqr(h, "abc")),
        q,
    )


# --- shapes: flatten, split_with_sizes, diagonal_scatter --------------------------------------


@program()
def prog_arg_flatten_dims_not_ints(T: Any) -> Any:
    a = _x(T, 2, 3, 2)
    out = a.flatten(1).sum() + a.flatten(0, 1).sum() + T.flatten(a, end_dim=-2).sum()
    out.backward()
    return (
        [raises(lambda v=v: a.flatten(v)) for v in ("abc", None, 1.5, [1])],
        raises(lambda: a.flatten(0, 1.0)),
        raises(lambda: a.flatten(0, "a")),
        raises(lambda: T.flatten(a, 0.0)),
        raises(lambda: T.flatten(a, 0, None)),
        out,
        a.grad,
    )


@program()
def prog_arg_split_with_sizes_sizes_and_dim(T: Any) -> Any:
    a = _x(T, 4, 3)
    parts = a.split_with_sizes([1, 3]) + T.split_with_sizes(a, [2, 1], 1)
    out = sum(p.sum() for p in parts)
    out.backward()
    return (
        [raises(lambda v=v: a.split_with_sizes(v)) for v in ("abc", None, 1.5, [1.0], 2)],
        raises(lambda: a.split_with_sizes([1, 3], "0")),
        raises(lambda: T.split_with_sizes(a, "abc")),
        [p.grad_fn for p in parts],
        out,
        a.grad,
    )


@program()
def prog_arg_diagonal_scatter_src_and_offsets(T: Any) -> Any:
    a = _x(T, 3, 3)
    src = _x(T, 2, seed=3)
    out = a.diagonal_scatter(src, 1)
    out.sum().backward()
    return (
        [raises(lambda v=v: a.diagonal_scatter(v)) for v in ("abc", None, 1.5, [1.0])],
        raises(lambda: a.diagonal_scatter(src, 1, None)),
        raises(lambda: T.diagonal_scatter(a, "abc")),
        out,
        out.grad_fn,
        a.grad,
        src.grad,
    )


@program()
def prog_arg_slice_scatter_src_and_bounds(T: Any) -> Any:
    a = _x(T, 4, 3)
    src = _x(T, 2, 3, seed=3)
    out = a.slice_scatter(src, 0, 0, 4, 2) + T.slice_scatter(a, src, start=1, end=3)
    out.sum().backward()
    return (
        [raises(lambda v=v: a.slice_scatter(v)) for v in ("abc", None, 1.5, [1.0])],
        raises(lambda: a.slice_scatter(src, "0")),
        raises(lambda: a.slice_scatter(src, 0, "a")),
        raises(lambda: a.slice_scatter(src, 0, 0, 2, 1.5)),
        raises(lambda: T.slice_scatter(a, 1.5)),
        out,
        out.grad_fn,
        a.grad,
        src.grad,
    )


# --- dtype=: a Python type is a dtype to torch's parser ----------------------------------------


@program()
def prog_arg_reduction_dtype_python_types(T: Any) -> Any:
    a = _x(T, 2, 3)
    outs = (
        a.sum(dtype=float),
        a.mean(dtype=float),
        a.nansum(dtype=float),
        a.nanmean(dtype=float),
        a.prod(dtype=float),
        a.cumsum(0, dtype=float),
        a.cumprod(1, dtype=float),
        T.sum(a, 1, dtype=float),
    )
    sum(o.sum() for o in outs).backward()
    return (
        outs,
        T.mean(a.detach(), (0, 1), dtype=complex),
        a.detach().sum(dtype=complex),
        [o.grad_fn for o in outs],
        a.grad,
        raises(lambda: a.sum(dtype=int)),
        raises(lambda: a.cumsum(0, dtype=bool)),
        a.detach().sum(dtype=int),
        a.detach().prod(dtype=bool),
        (a.detach() * 3).cumsum(1, dtype=int),
    )


@program()
def prog_arg_cumsum_cumprod_bool_dtype(T: Any) -> Any:
    a = _x(T, 2, 3)
    i = T.tensor([[1, 0, 2], [0, 3, 1]])
    return (
        raises(lambda: a.cumsum(0, dtype=T.bool)),
        raises(lambda: a.detach().cumsum(1, dtype=T.bool)),
        raises(lambda: a.detach().cumprod(0, dtype=bool)),
        raises(lambda: T.cumsum(i, 0, dtype=T.bool)),
        raises(lambda: T.cumprod(i > 0, 1, dtype=T.bool)),
        (i > 0).cumsum(1),
        (i > 0).cumprod(0),
        i.cumsum(0, dtype=T.float64),
        a.detach().sum(dtype=T.bool),
        a.detach().prod(0, dtype=bool),
    )


@program()
def prog_arg_cumsum_cumprod_dtype_not_a_dtype(T: Any) -> Any:
    a = _x(T, 2, 3, rg=False)
    return (
        [raises(lambda v=v: a.cumsum(0, dtype=v)) for v in ("float32", 1, 1.5, [T.float64])],
        [raises(lambda v=v: a.cumprod(1, dtype=v)) for v in ("float32", 1, object)],
        [raises(lambda v=v: T.cumsum(a, 0, dtype=v)) for v in ("float32", 1)],
        raises(lambda: a.cumsum("0")),
        raises(lambda: a.cumsum(0.0)),
        a.cumsum(dim=1, dtype=T.float64),
    )


# --- torch.* functions: a wrong second argument ----------------------------------------------


def _function_family(name: str, first: Any, valid: Any, wrong: tuple[Any, ...] = ()) -> None:
    wrong = wrong or _WRONG_2

    def prog(T: Any) -> Any:
        a = first(T)
        f = getattr(T, name)
        return (
            [raises(lambda v=v: f(a, v)) for v in wrong],
            raises(lambda: f(a, *valid(T), bogus=1)),
            f(a, *valid(T)),
        )

    prog.__name__ = prog.__qualname__ = f"prog_arg_{name}_second_argument"
    program()(prog)


def _vec(T: Any) -> Any:
    return T.tensor([1.0, 2.0, 3.0])


def _mat(T: Any) -> Any:
    return T.tensor(_data(2, 3, seed=9))


def _batch(T: Any) -> Any:
    return T.tensor(_data(1, 2, 6, seed=10))


_WRONG_2 = ("abc", None, 1.5, [1.0], object)
_NOT_INT_2 = ("abc", None, object)  # (a float for an int: shadowgrad takes it today)
for _name, _first, _valid, *_wrong in (
    ("combinations", _vec, lambda T: (2,)),
    ("complex", _vec, lambda T: (T.tensor([0.5, 1.0, -1.0]),)),
    ("polar", _vec, lambda T: (T.tensor([0.5, 1.0, -1.0]),)),
    ("vander", _vec, lambda T: (2,)),
    ("constant_pad_nd", _mat, lambda T: ([1, 1],)),
    ("diagonal_copy", _mat, lambda T: (1,), _NOT_INT_2),
    ("split_copy", _mat, lambda T: (1,), _NOT_INT_2),
    ("rms_norm", _mat, lambda T: ([3],)),
    ("adaptive_avg_pool1d", _batch, lambda T: (3,), _NOT_INT_2),
    ("avg_pool1d", _batch, lambda T: (2,), _NOT_INT_2),
    ("max_pool1d", _batch, lambda T: (2,), _NOT_INT_2),
    ("cosine_similarity", _mat, lambda T: (T.ones(2, 3),)),
    ("binary_cross_entropy_with_logits", _mat, lambda T: (T.ones(2, 3) / 2,)),
):
    _function_family(_name, _first, _valid, *_wrong)


@program()
def prog_arg_bincount_weights_not_a_tensor(T: Any) -> Any:
    i = T.tensor([0, 1, 1, 3])
    return (
        [raises(lambda v=v: T.bincount(i, v)) for v in ("abc", 1.5, [1.0], object)],
        [raises(lambda v=v: i.bincount(v)) for v in ("abc", 1.5, object)],
        raises(lambda: T.bincount(i, None, "2")),
        T.bincount(i, None, 5),
        i.bincount(T.tensor([0.5, 1.0, 2.0, 4.0])),
    )


@program()
def prog_arg_nn_functional_cosine_similarity(T: Any) -> Any:
    F = T.nn.functional
    a, b = _x(T, 2, 3), _x(T, 2, 3, seed=1)
    out = F.cosine_similarity(a, b, 1, 1e-6)
    out.sum().backward()
    return (
        [raises(lambda v=v: F.cosine_similarity(a, v)) for v in _WRONG_2],
        [raises(lambda v=v: F.cosine_similarity(v, b)) for v in _WRONG_2],
        raises(lambda: F.cosine_similarity(a, b, "1")),
        raises(lambda: F.cosine_similarity(a, b, 1, "eps")),
        out,
        out.grad_fn,
        a.grad,
    )


# --- torch.linalg and torch.special: the parser's errors under their aten names ------------------


def _sq(T: Any, seed: int = 11) -> Any:
    return T.tensor(_data(3, 3, seed=seed), dtype=T.float64) + 3 * T.eye(3, dtype=T.float64)


@program()
def prog_arg_linalg_single_matrix_functions(T: Any) -> Any:
    a = _sq(T).requires_grad_()
    L = T.linalg
    outs = (L.inv(a), L.det(a), L.matrix_exp(a), L.slogdet(a).logabsdet, L.svdvals(a))
    sum(o.sum() for o in outs).backward()
    res = {}
    for name in ("inv", "det", "matrix_exp", "slogdet", "svdvals", "eigvals", "inv_ex"):
        f = getattr(L, name)
        res[name] = (
            raises(lambda f=f: f(a, "abc")),
            raises(lambda f=f: f(a, bogus=1)),
            [raises(lambda f=f, v=v: f(v)) for v in ("abc", None, 1.5, [[1.0]])],
        )
    return res, outs, a.grad


@program()
def prog_arg_linalg_solve_and_lu_families(T: Any) -> Any:
    a = _sq(T).requires_grad_()
    b = T.tensor(_data(3, 2, seed=12), dtype=T.float64, requires_grad=True)
    L = T.linalg
    LU, piv = L.lu_factor(a)
    x = L.solve(a, b) + L.lu_solve(LU, piv, b)
    x.sum().backward()
    return (
        [raises(lambda v=v: L.solve(a, v)) for v in ("abc", None, 1.5, [1.0])],
        raises(lambda: L.solve(a, b, "left")),
        raises(lambda: L.lu_factor(a, True)),
        raises(lambda: L.lu_solve(LU, "abc", b)),
        raises(lambda: L.lu(a, pivot=0)),
        x,
        a.grad,
        b.grad,
    )


@program()
def prog_arg_linalg_cholesky_and_ldl_arguments(T: Any) -> Any:
    a = _spd(T).requires_grad_()
    L = T.linalg
    c = L.cholesky(a, upper=True)
    c.sum().backward()
    return (
        raises(lambda: L.cholesky(a, True)),
        raises(lambda: L.ldl_factor(a, hermitian="h")),
        raises(lambda: L.cholesky(a, bogus=True)),
        c,
        a.grad,
    )


@program()
def prog_arg_linalg_norms_and_products(T: Any) -> Any:
    a = _sq(T).requires_grad_()
    v = T.tensor([1.0, -2.0, 3.0], dtype=T.float64, requires_grad=True)
    L = T.linalg
    out = L.vector_norm(v, 3) + L.vecdot(v, v) + L.matrix_power(a, 2).sum() + L.cross(v, v).sum()
    out.backward()
    return (
        [raises(lambda o=o: L.vector_norm(v, o)) for o in ("fro", None, [2])],
        raises(lambda: L.vector_norm(v, 2, "0")),
        raises(lambda: L.vector_norm(v, 2, 0, "k")),
        raises(lambda: L.vector_norm(v, dtype="float64")),
        raises(lambda: L.vecdot(v, "abc")),
        raises(lambda: L.matrix_power(a, 1.5)),
        raises(lambda: L.matrix_power(a, None)),
        raises(lambda: L.cross(v, [1.0, 2.0, 3.0])),
        raises(lambda: L.cross(v, v, dim="0")),
        raises(lambda: L.householder_product(a, "tau")),
        raises(lambda: L.tensorinv(a, "2")),
        raises(lambda: L.matmul(a, None)),
        out,
        a.grad,
        v.grad,
    )


@program()
def prog_arg_special_functions(T: Any) -> Any:
    x = T.tensor([0.5, 1.5, 3.0], requires_grad=True)
    Sp = T.special
    out = Sp.gammaln(x) + Sp.entr(x) + Sp.erfcx(x) + Sp.expit(x) + Sp.digamma(x)
    out.sum().backward()
    return (
        [raises(lambda v=v: Sp.gammainc(x, v)) for v in ("abc", None, 1.5, [1.0])],
        [raises(lambda v=v: Sp.gammaincc(v, x)) for v in ("abc", None)],
        raises(lambda: Sp.gammaln(x, 2)),
        raises(lambda: Sp.entr(x, bogus=1)),
        raises(lambda: Sp.erfcx("abc")),
        raises(lambda: Sp.bessel_j0(None)),
        raises(lambda: Sp.airy_ai(x, x)),
        raises(lambda: Sp.expit(x, out=x, bogus=1)),
        out,
        x.grad,
    )


# --- Tensors as varargs: "expected Tensor as element i in argument 0" ---------------------------


@program()
def prog_arg_tensor_varargs_with_a_non_tensor(T: Any) -> Any:
    a, b = _x(T, 2), _x(T, 3, seed=1)
    out = T.block_diag(a, b).sum() + T.cartesian_prod(a, b).sum()
    out = out + sum(t.sum() for t in T.broadcast_tensors(a, T.ones(3, 1)))
    out.backward()
    res = {}
    for name in ("broadcast_tensors", "block_diag", "cartesian_prod"):
        f = getattr(T, name)
        res[name] = (
            [raises(lambda f=f, v=v: f(a, v)) for v in ("abc", None, 1.5, 2, [1.0])],
            raises(lambda f=f: f("abc", a)),
        )
    return res, raises(lambda: T.block_diag([a, b])), out, a.grad, b.grad


@program(warnings=False)
def prog_arg_meshgrid_and_chain_matmul_elements(T: Any) -> Any:
    a, b = _x(T, 2), _x(T, 3, seed=1)
    g = T.meshgrid(a, b, indexing="ij")
    m = T.chain_matmul(_x(T, 2, 3, seed=2), _x(T, 3, 2, seed=3))
    (g[0].sum() + g[1].sum() + m.sum()).backward()
    return (
        [raises(lambda v=v: T.meshgrid(a, v, indexing="xy")) for v in ("abc", None, 1.5)],
        raises(lambda: T.meshgrid([a, "abc"], indexing="ij")),
        raises(lambda: T.meshgrid((None, a), indexing="ij")),
        [raises(lambda v=v: T.chain_matmul(m, v)) for v in ("abc", None, [1.0])],
        g,
        m,
        a.grad,
    )


# --- hsplit/vsplit/dsplit: the indices as varargs, or the parser's listing -----------------------


@program()
def prog_arg_dir_split_indices_as_varargs(T: Any) -> Any:
    x = _x(T, 2, 6)
    y = _x(T, 2, 3, 4, seed=1)
    parts = x.hsplit(1, 2) + x.vsplit(1) + y.dsplit(1, 3) + x.hsplit(1, 2, 3, 4, 5, 6, 7)
    out = sum(p.sum() for p in parts)
    out.backward()
    return (
        [tuple(p.shape) for p in parts],
        [p.grad_fn for p in parts],
        x.vsplit(1, 1),
        T.vsplit(x, [1]),
        raises(lambda: x.hsplit()),
        raises(lambda: x.hsplit(1.5, 2)),
        [raises(lambda v=v: x.hsplit(v)) for v in ("abc", None, 1.5, object)],
        [raises(lambda v=v: T.hsplit(x, v)) for v in ("abc", None, 1.5)],
        raises(lambda: T.hsplit(x, 1, 2)),
        raises(lambda: x.dsplit(1, 2)),
        raises(lambda: y.dsplit(5)),
        out,
        x.grad,
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
