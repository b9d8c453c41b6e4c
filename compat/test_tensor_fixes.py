"""Small Tensor behaviours against torch: copy_'s shape errors, the scalar-conversion warning.

Each case runs once per library in a fresh state; the result, or the exception type and
message, and the warnings must be the same.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _outcome(fn: Callable[[Any], Any], T: Any) -> tuple[str, Any, int]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            kind, val = "ok", fn(T)
        except Exception as e:  # the comparison is the point
            kind, val = type(e).__name__, str(e)
    return kind, val, len(w)


COPY_SHAPES = [
    ((3,), (2, 3)), ((1, 3), (2, 3)), ((2, 3), (4,)), ((2, 3, 5), (7, 5)), ((2, 3), (2, 4)),
    ((5,), (3,)), ((2, 3), (3,)), ((2, 3), ()), ((2, 1), (2, 3)),
]  # fmt: skip


@pytest.mark.parametrize(("dst", "src"), COPY_SHAPES)
def test_copy_shapes(dst: tuple[int, ...], src: tuple[int, ...]) -> None:
    def run(T: Any) -> Any:
        return tuple(T.zeros(dst).copy_(T.ones(src)).shape)

    a, b = (_outcome(run, T) for T in LIBS)
    assert a == b


_SCALAR_WARNING = """
import sys, warnings
import {lib} as T
x = T.ones(1, requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with T.no_grad():
        float(x); complex(x)
    quiet = len(w)
    int(x); x.item(); bool(x)
    before = len(w)
    complex(x); float(x); float(x)
print(quiet, before, len(w))
"""


FACTORIES = {
    "ones()": lambda T: T.ones(),
    "zeros()": lambda T: T.zeros(),
    "empty()": lambda T: T.empty(),
    "rand()": lambda T: T.rand(),
    "randn()": lambda T: T.randn(),
    "ones(())": lambda T: tuple(T.ones(()).shape),
    "zeros(size=())": lambda T: tuple(T.zeros(size=()).shape),
    "ones(size=[2, 3])": lambda T: tuple(T.ones(size=[2, 3]).shape),
    "rand(size=(2,))": lambda T: tuple(T.rand(size=(2,)).shape),
    "ones(2, size=3)": lambda T: T.ones(2, size=3),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_factory_sizes(name: str) -> None:
    a, b = (_outcome(FACTORIES[name], T) for T in LIBS)
    assert a == b


def test_scalar_conversion_warns_once_with_grad_mode_on() -> None:
    # once per process: each library runs in its own interpreter
    outs = [
        subprocess.run(
            [sys.executable, "-c", _SCALAR_WARNING.format(lib=T.__name__)],
            capture_output=True, text=True, check=True,
        ).stdout
        for T in LIBS
    ]  # fmt: skip
    assert outs[0] == outs[1], outs


CONSTRUCTION = {
    "uint8 wraps negatives": lambda T: T.tensor([1, -1, -129], dtype=T.uint8).tolist(),
    "uint8 overflow": lambda T: T.tensor([256], dtype=T.uint8),
    "int8 overflow": lambda T: T.tensor([1, 128], dtype=T.int8),
    "int8 underflow": lambda T: T.tensor([-129], dtype=T.int8),
    "int32 from float overflow": lambda T: T.tensor([1e10], dtype=T.int32),
    "int32 from floats": lambda T: T.tensor([1.7, -2.9], dtype=T.int32).tolist(),
    "int64 overflow": lambda T: T.tensor([2**63], dtype=T.int64),
    "big int inferred": lambda T: T.tensor([2**70]),
    "bool from ints": lambda T: T.tensor([-1, 0, 300], dtype=T.bool).tolist(),
    "float16 overflow is inf": lambda T: T.tensor([2.0**40], dtype=T.float16).tolist(),
    "ragged dim 1": lambda T: T.tensor([[1, 2], [3]]),
    "ragged longer": lambda T: T.tensor([[1, 2], [3, 4, 5]]),
    "ragged dim 2": lambda T: T.tensor([[[1], [2]], [[3], [4, 5]]]),
    "scalar where a sequence is": lambda T: T.tensor([[1, 2], 3]),
    "sequence where an int is": lambda T: T.tensor([1, [2]]),
    "sequence where a float is": lambda T: T.tensor([1.0, [2]]),
    "string": lambda T: T.tensor("a"),
    "empty then full": lambda T: T.tensor([[1], []]),
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTION))
def test_tensor_construction_matches_torch(name: str) -> None:
    a, b = (_outcome(CONSTRUCTION[name], T) for T in LIBS)
    assert a == b


def test_type_takes_legacy_classes() -> None:
    def run(T: Any) -> Any:
        x = T.ones(2)
        return [str(x.type(c).dtype) for c in (T.DoubleTensor, T.LongTensor, T.HalfTensor)] + [
            x.type("torch.IntTensor").type(),
            x.type(),
        ]

    a, b = (_outcome(run, T) for T in LIBS)
    assert a == b


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linspace_is_torch_bit_for_bit(dtype: str) -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        s, e = (float(v) for v in rng.uniform(-10, 10, 2))
        n = int(rng.integers(2, 300))
        a = torch.linspace(s, e, n, dtype=getattr(torch, dtype)).numpy()
        b = shadowgrad.linspace(s, e, n, dtype=getattr(shadowgrad, dtype)).numpy()
        np.testing.assert_array_equal(a, b)


EMPTY_STRIDES = {
    "zeros(0)": lambda T: T.zeros(0),
    "zeros(0, 3)": lambda T: T.zeros(0, 3),
    "zeros(3, 0)": lambda T: T.zeros(3, 0),
    "zeros(2, 0, 4)": lambda T: T.zeros(2, 0, 4),
    "slice to empty": lambda T: T.ones(2, 3)[:, :0],
    "tensor([])": lambda T: T.tensor([]),
    "arange(0)": lambda T: T.arange(0),
    "op on empty": lambda T: T.zeros(0, 3) * 2,
}


@pytest.mark.parametrize("name", sorted(EMPTY_STRIDES))
def test_empty_tensor_strides(name: str) -> None:
    a, b = (EMPTY_STRIDES[name](T) for T in LIBS)
    assert a.stride() == b.stride()
    assert a.is_contiguous() == b.is_contiguous()


FIRST_ARGS = {
    "exp(1.5)": lambda T: T.exp(1.5),
    "sum([1, 2])": lambda T: T.sum([1.0, 2.0]),
    "matmul(None, x)": lambda T: T.matmul(None, T.ones(2)),
    "relu(2)": lambda T: T.relu(2),
    "special.expit(0.5)": lambda T: T.special.expit(0.5),
    "special.bessel_j0(1.0)": lambda T: T.special.bessel_j0(1.0),
    "linalg.det(1.0)": lambda T: T.linalg.det(1.0),
    "linalg.inv([[1.0]])": lambda T: T.linalg.inv([[1.0]]),
    "exp(tensor) still works": lambda T: T.exp(T.zeros(2)).tolist(),
    "exp(input=tensor)": lambda T: T.exp(input=T.zeros(2)).tolist(),
}


@pytest.mark.parametrize("name", sorted(FIRST_ARGS))
def test_functions_refuse_a_non_tensor_first_argument(name: str) -> None:
    a, b = (_outcome(FIRST_ARGS[name], T) for T in LIBS)
    assert a == b


def test_the_tensor_first_lists_match_torch() -> None:
    # shadowgrad/_signatures.py was read from torch: every listed function still reports that
    # message in torch, with that name and parameter
    from shadowgrad import _signatures as S

    for prefix, ns in (("", torch), ("special.", torch.special), ("linalg.", torch.linalg)):
        for key, (reported, param) in S._entries(prefix):
            fn = getattr(ns, key[len(prefix) :])
            with pytest.raises(TypeError) as e, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(1.5)
            assert str(e.value) == (
                f"{reported}(): argument '{param}' (position 1) must be Tensor, not float"
            ), key


FORMATS = {
    "reprs": lambda T: [
        repr(T.strided),
        repr(T.channels_last),
        repr(T.contiguous_format),
        repr(T.preserve_format),
        repr(T.ones(1).layout),
        repr(T.sparse_coo),
    ],
    "constants": lambda T: [T.pi, T.e, T.inf, str(T.nan), T.newaxis],
    "contiguous channels_last": lambda T: (
        lambda y: (y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=T.channels_last))
    )(T.ones(2, 3, 4, 5).contiguous(memory_format=T.channels_last)),
    "to channels_last": lambda T: T.ones(2, 3, 4, 5).to(memory_format=T.channels_last).stride(),
    "to dtype and channels_last": lambda T: (lambda y: (y.stride(), str(y.dtype)))(
        T.ones(2, 3, 4, 5).to(T.float64, memory_format=T.channels_last)
    ),
    "clone channels_last": lambda T: (
        T.ones(2, 3, 4, 5).clone(memory_format=T.channels_last).stride()
    ),
    "channels_last_3d": lambda T: (
        T.ones(1, 2, 3, 4, 5).contiguous(memory_format=T.channels_last_3d).stride()
    ),
    "op keeps the layout": lambda T: (
        T.ones(2, 3, 4, 5).contiguous(memory_format=T.channels_last) * 2
    ).stride(),
    "back to contiguous": lambda T: (
        T.ones(2, 3, 4, 5).contiguous(memory_format=T.channels_last).contiguous().stride()
    ),
    "already channels_last": lambda T: (lambda y: y.contiguous(memory_format=T.channels_last) is y)(
        T.ones(2, 3, 4, 5).contiguous(memory_format=T.channels_last)
    ),
    "wrong rank": lambda T: T.ones(2, 3).contiguous(memory_format=T.channels_last),
    "is_contiguous preserve": lambda T: T.ones(2).is_contiguous(memory_format=T.preserve_format),
    "grad through": lambda T: (
        lambda x: (
            (x.contiguous(memory_format=T.channels_last) * T.arange(24.0).view(1, 2, 3, 4))
            .sum()
            .backward(),
            x.grad.tolist(),
            x.contiguous(memory_format=T.channels_last).grad_fn.name(),
        )[1:]
    )(T.ones(1, 2, 3, 4, requires_grad=True)),
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_layouts_memory_formats_and_constants(name: str) -> None:
    a, b = (_outcome(FORMATS[name], T) for T in LIBS)
    assert a == b


_LAYOUT_INPUTS = {
    "transposed": lambda T: T.ones(3, 4).t(),
    "sliced": lambda T: T.ones(4, 6)[:, ::2],
    "transposed and sliced": lambda T: T.ones(6, 4).t()[:, ::2],
    "permuted": lambda T: T.ones(2, 3, 4).permute(2, 0, 1),
    "expanded": lambda T: T.ones(3, 1, 4).expand(3, 5, 4),
}
_LAYOUT_MAKERS = {
    "clone": lambda T, t: t.clone(),
    "zeros_like": lambda T, t: T.zeros_like(t),
    "empty_like": lambda T, t: T.empty_like(t),
    "ones_like": lambda T, t: T.ones_like(t),
    "full_like": lambda T, t: T.full_like(t, 2.0),
    "rand_like": lambda T, t: T.rand_like(t),
    "contiguous_format": lambda T, t: T.zeros_like(t, memory_format=T.contiguous_format),
}


@pytest.mark.parametrize("maker", sorted(_LAYOUT_MAKERS))
@pytest.mark.parametrize("inp", sorted(_LAYOUT_INPUTS))
def test_preserve_format_keeps_a_dense_inputs_strides(maker: str, inp: str) -> None:
    a, b = (_LAYOUT_MAKERS[maker](T, _LAYOUT_INPUTS[inp](T)) for T in LIBS)
    assert a.stride() == b.stride()
    assert a.is_contiguous() == b.is_contiguous()
