"""Mixed-dtype operands of the matrix products: torch's error type, wording and check order.

Each product checks dtypes at its own point among its shape checks (addmm before any shape,
addmv and bmm after, baddbmm between its input's shape and its batches'), with its own message.
Every combination of float32/float64 over (input, mat1, mat2), with good and bad shapes.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

pytest.importorskip("torch")

import torch

import shadowgrad

from .engines import raises

# name -> (function, shapes of its operands); operand k gets dtype k of a combination (the
# two-operand products take the last two)
CASES: dict[str, tuple[str, tuple[tuple[int, ...], ...]]] = {
    "addmm": ("addmm", ((2, 4), (2, 3), (3, 4))),
    "addmm_bad_input": ("addmm", ((2, 5), (2, 3), (3, 4))),
    "addmm_bad_mats": ("addmm", ((2, 4), (2, 3), (2, 4))),
    "addmm_vector": ("addmm", ((2, 4), (3,), (3, 4))),
    "baddbmm": ("baddbmm", ((2, 2, 4), (2, 2, 3), (2, 3, 4))),
    "baddbmm_bad_input": ("baddbmm", ((2, 2, 5), (2, 2, 3), (2, 3, 4))),
    "baddbmm_bad_batch": ("baddbmm", ((2, 2, 4), (2, 2, 3), (2, 2, 4))),
    "addbmm": ("addbmm", ((2, 4), (2, 2, 3), (2, 3, 4))),
    "addbmm_bad_input": ("addbmm", ((2, 5), (2, 2, 3), (2, 3, 4))),
    "addmv": ("addmv", ((2,), (2, 3), (3,))),
    "addmv_bad": ("addmv", ((5,), (2, 3), (3,))),
    "bmm": ("bmm", ((2, 2, 3), (2, 3, 4))),
    "bmm_bad": ("bmm", ((2, 2, 3), (2, 2, 4))),
    "mm": ("mm", ((2, 3), (3, 4))),
    "matmul_batched": ("matmul", ((5, 2, 3), (3, 4))),
    "linear": ("linear", ((2, 3), (4, 3), (4,))),
    "linear_3d": ("linear", ((5, 2, 3), (4, 3), (4,))),
    "linear_no_bias": ("linear", ((2, 3), (4, 3))),
}


def _call(T: Any, case: str, dtypes: list[Any]) -> Any:
    fn, shapes = CASES[case]
    if fn == "linear":  # (input, weight, bias): the bias takes the first dtype, as addmm's input
        order = (1, 2, 0)[: len(shapes)]
        args = [T.ones(*sh, dtype=dtypes[k]) for sh, k in zip(shapes, order, strict=True)]
        return T.nn.functional.linear(*args)
    dts = dtypes[3 - len(shapes) :]
    args = [T.ones(*sh, dtype=d) for sh, d in zip(shapes, dts, strict=True)]
    return getattr(T, fn)(*args)


def _outcome(T: Any, case: str, combo: str) -> Any:
    names = {"f": "float32", "d": "float64", "l": "int64"}
    dtypes = [getattr(T, names[c]) for c in combo]
    r = raises(lambda: _call(T, case, dtypes))
    return r if not hasattr(r, "shape") else ("ok", tuple(r.shape), str(r.dtype))


COMBOS = ["".join(c) for c in itertools.product("fd", repeat=3)] + ["lff", "fll", "ffl"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_dtype_error_matches_torch(case: str) -> None:
    for combo in COMBOS:
        t, s = _outcome(torch, case, combo), _outcome(shadowgrad, case, combo)
        assert str(s) == str(t), f"{case} with dtypes {combo}: torch {t}, shadowgrad {s}"
