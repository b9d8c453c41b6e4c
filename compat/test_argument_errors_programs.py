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


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
