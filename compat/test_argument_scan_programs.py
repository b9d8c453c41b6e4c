"""Wrong calls found by a systematic scan of torch's argument parser (each parameter of the
torch functions and Tensor methods given a wrong type, one at a time: a str, a float or a bool
for an int, a str or an int for a bool flag, a list, a numpy array or None for a Tensor, an int
past int64; an extra positional argument, an unknown keyword, a missing argument). Each program
makes a family of such calls, in method and function form, by position and by keyword (torch's
error names the position only for an argument given positionally, counted without self in the
method form), next to a valid call whose values, grad_fn and gradients are compared too. The
programs register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _spd(T: Any, rg: bool = True) -> Any:
    """A symmetric positive-definite 3x3 matrix (cholesky's input)."""
    a = _data(3, 3, seed=5)
    return T.tensor(a @ a.T + 3 * np.eye(3), requires_grad=rg)


# --- a keyword argument's error names no position (method form) -------------------------------


@program()
def prog_arg_method_keyword_int_no_position(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = x.diagonal(offset=1) * 2 + x.tril(diagonal=-1).sum()
    y.sum().backward()
    return (
        raises(lambda: x.diagonal(offset="a")),
        raises(lambda: x.diagonal("a")),
        raises(lambda: x.diagonal(0, dim1="a")),
        raises(lambda: x.diagonal(0, 0, dim2=1.5)),
        raises(lambda: x.tril(diagonal=1.5)),
        raises(lambda: x.tril(1.5)),
        raises(lambda: x.triu(diagonal=None)),
        raises(lambda: x.flatten(start_dim="a")),
        raises(lambda: x.flatten(0, end_dim=[1])),
        raises(lambda: T.diagonal(x, offset="a")),
        raises(lambda: T.tril(x, diagonal="a")),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_arg_method_keyword_tensor_no_position(T: Any) -> Any:
    a = _x(T, 2, 3)
    b = _x(T, 3, 2, seed=1)
    out = a.matmul(b)
    out.sum().backward()
    return (
        raises(lambda: a.matmul(other=[1.0])),
        raises(lambda: a.matmul([1.0])),
        raises(lambda: T.matmul(a, None)),
        raises(lambda: T.matmul(a, other="a")),
        raises(lambda: T.matmul(None, b)),
        out,
        out.grad_fn,
        a.grad,
        b.grad,
    )


# --- add/sub/mul/div: None, lists and strings for a Tensor ------------------------------------


def _binary_family(name: str) -> None:
    def prog(T: Any) -> Any:
        a = _x(T, 2, 3)
        b = _x(T, 2, 3, seed=1)
        m = getattr(a, name)
        f = getattr(T, name)
        out = f(a, b) + m(2.0)
        out.sum().backward()
        return (
            [raises(lambda v=v: m(v)) for v in (None, "a", [1.0], np.ones(3))],
            [raises(lambda v=v: m(other=v)) for v in (None, "a", (1.0,))],
            [raises(lambda v=v: f(a, v)) for v in (None, "a", [1.0])],
            [raises(lambda v=v: f(v, b)) for v in (None, "a", [1.0], np.ones(3))],
            raises(lambda: f(a, other=None)),
            out,
            out.grad_fn,
            a.grad,
            b.grad,
        )

    prog.__name__ = prog.__qualname__ = f"prog_arg_{name}_non_tensor_operands"
    program()(prog)


for _name in ("add", "sub", "mul", "div"):
    _binary_family(_name)


@program()
def prog_arg_inplace_binary_non_tensor(T: Any) -> Any:
    a = _x(T, 2, 3, rg=False)
    out = []
    for name in ("add_", "sub_", "mul_", "div_"):
        m = getattr(a, name)
        out.append([raises(lambda v=v, m=m: m(v)) for v in (None, "a", [1.0])])
        out.append(raises(lambda m=m: m(other=None)))
    return out, a


@program()
def prog_arg_alpha_must_be_number(T: Any) -> Any:
    a = _x(T, 2, 3)
    b = _x(T, 2, 3, seed=1)
    y = T.add(a, b, alpha=2) - b.sub(a, alpha=0.5)
    y.sum().backward()
    c = _x(T, 2, 3, rg=False)
    return (
        [raises(lambda v=v: a.add(b, alpha=v)) for v in ("a", None, [1], (2,))],
        [raises(lambda v=v: T.sub(a, b, alpha=v)) for v in ("a", None, [1])],
        raises(lambda: c.add_(b.detach(), alpha="a")),
        raises(lambda: c.sub_(b.detach(), alpha=None)),
        c,
        y,
        y.grad_fn,
        a.grad,
        b.grad,
    )


@program()
def prog_arg_add_none_first(T: Any) -> Any:
    x = _x(T, 3)
    return (
        raises(lambda: T.add(None, 1)),
        raises(lambda: T.add(None, x)),
        raises(lambda: T.mul(None, 2)),
        raises(lambda: T.div("a", x)),
        raises(lambda: T.sub([1.0], x)),
        T.add(x, 1),
    )


# (keep last) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
