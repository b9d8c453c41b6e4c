"""Op database entries for shape and view ops (shadowgrad/ops/shape.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg


def _r() -> np.random.Generator:
    return np.random.default_rng(7)


def _std(shape: tuple[int, ...] = (2, 3, 4)) -> list[Sample]:
    """A 3-d input, its non-contiguous layouts, and an empty one; args are added per entry."""
    r = _r()
    return [
        Sample((tensor_arg(r.standard_normal(shape)),), name="3-d"),
        Sample((tensor_arg(r.standard_normal(shape), layout="transposed"),), name="transposed"),
        Sample((tensor_arg(r.standard_normal(shape), layout="sliced"),), name="sliced"),
    ]


def samples_with(
    *calls: tuple[tuple[Any, ...], dict[str, Any]] | tuple[Any, ...],
    shape: tuple[int, ...] = (2, 3, 4),
    extra: Callable[[], list[Sample]] | None = None,
) -> Callable[[str], list[Sample]]:
    """Every layout of a `shape` input, called with each (args, kwargs) in calls."""

    def samples(dtype: str) -> list[Sample]:
        out = []
        for base in _std(shape):
            for c in calls:
                args, kwargs = (c, {}) if not (len(c) == 2 and isinstance(c[1], dict)) else c
                out.append(
                    Sample((*base.args, *args), dict(kwargs), name=f"{base.name} {args} {kwargs}")
                )
        if extra is not None:
            out.extend(extra())
        return out

    return samples


def _one(value: Any, *args: Any, name: str = "", **kwargs: Any) -> Sample:
    return Sample((tensor_arg(np.asarray(value, dtype=np.float64)), *args), kwargs, name=name)


def _zero_d() -> list[Sample]:
    return [_one(1.5, name="0-d")]


def _zero_d_unsqueeze() -> list[Sample]:
    return [_one(1.5, 0, name="0-d"), _one(1.5, -1, name="0-d, -1")]


register(
    OpEntry(
        "unflatten",
        lambda T, x, d, s: T.unflatten(x, d, s),
        samples_with(((2, (2, 2)), {}), ((-2, (3, 1)), {}), ((1, (-1, 1)), {})),
    ),
    OpEntry(
        "movedim",
        lambda T, x, s, d: T.movedim(x, s, d),
        samples_with(((0, 2), {}), (((0, 1), (2, 0)), {}), ((-1, -1), {})),
        covers=("moveaxis",),
    ),
    OpEntry(
        "Tensor.repeat",
        lambda T, x, *r: x.repeat(*r),
        samples_with(((2, 1, 3), {}), ((1, 2, 1, 2), {}), ((1, 0, 1), {}), ((2,), {})),
    ),
    OpEntry(
        "tile",
        lambda T, x, r: T.tile(x, r),
        samples_with(((2,), {}), (((2, 1, 1, 2),), {}), (((1, 1, 1),), {})),
    ),
    OpEntry(
        "flip",
        lambda T, x, d: T.flip(x, d),
        samples_with((((0, 2),), {}), (((-1,),), {}), (((),), {})),
    ),
    OpEntry(
        "roll",
        lambda T, x, *a: T.roll(x, *a),
        samples_with(((1, 2), {}), (((1, -1), (0, 2)), {}), ((5,), {}), ((-7, 1), {})),
    ),
    OpEntry(
        "split",
        lambda T, x, s, d: T.split(x, s, d),
        samples_with(((2, 2), {}), (([1, 3], -1), {}), ((3, 1), {}), (([0, 2, 1], 1), {})),
    ),
    OpEntry(
        "chunk",
        lambda T, x, c, d: T.chunk(x, c, d),
        samples_with(((2, 2), {}), ((3, 1), {}), ((5, 0), {})),
    ),
    OpEntry(
        "tensor_split",
        lambda T, x, s, d: T.tensor_split(x, s, d),
        samples_with(((3, 2), {}), (([1, 3], 2), {}), (([1, -1, 5], 1), {})),
    ),
    OpEntry(
        "diagonal",
        lambda T, x, *a: T.diagonal(x, *a),
        samples_with(((0, 1, 2), {}), ((1, 0, 2), {}), ((-1, -1, 1), {}), ((5, 0, 1), {})),
    ),
    OpEntry(
        "diag_embed",
        lambda T, x, *a: T.diag_embed(x, *a),
        samples_with(((), {}), ((1,), {}), ((-2, 0, 2), {}), shape=(2, 3)),
    ),
    OpEntry(
        "diag",
        lambda T, x, *a: T.diag(x, *a),
        samples_with(
            ((), {}),
            ((1,), {}),
            ((-2,), {}),
            shape=(3, 4),
            extra=lambda: [
                _one([1.0, 2.0, 3.0], name="vector"),
                _one([1.0, 2.0], -1, name="vector, below"),
            ],
        ),
    ),
    OpEntry(
        "tril",
        lambda T, x, *a: T.tril(x, *a),
        samples_with(((), {}), ((1,), {}), ((-1,), {})),
    ),
    OpEntry(
        "triu",
        lambda T, x, *a: T.triu(x, *a),
        samples_with(((), {}), ((1,), {}), ((-5,), {})),
    ),
    OpEntry(
        "as_strided",
        lambda T, x, *a: T.as_strided(x.contiguous() * 1, *a),
        samples_with(
            (((2, 2), (1, 2)), {}),
            (((3, 3), (1, 1)), {}),  # overlapping windows: gradients accumulate
            (((2,), (3,), 1), {}),
            shape=(3, 4),
        ),
    ),
    OpEntry(
        "broadcast_to",
        lambda T, x, s: T.broadcast_to(x, s),
        samples_with(
            (((2, 2, 3, 4),), {}),
            (((-1, 3, 4),), {}),
            extra=lambda: [_one(2.0, (3, 2), name="0-d")],
        ),
    ),
    OpEntry(
        "broadcast_tensors",
        lambda T, a, b: T.broadcast_tensors(a, b),
        lambda dtype: [
            Sample(
                (tensor_arg(_r().standard_normal((3, 1))), tensor_arg(_r().standard_normal(4))),
                name="both expand",
            ),
            Sample(
                (tensor_arg(_r().standard_normal((2, 3))), tensor_arg(_r().standard_normal(3))),
                name="one as is",
            ),
        ],
    ),
    OpEntry(
        "atleast_3d",
        lambda T, *x: T.atleast_3d(*x),
        lambda dtype: [
            _one(1.0, name="0-d"),
            _one([1.0, 2.0], name="1-d"),
            _one([[1.0, 2.0]], name="2-d"),
            Sample((tensor_arg(np.ones(2)), tensor_arg(np.ones((2, 2)))), name="several"),
        ],
        covers=("atleast_1d", "atleast_2d"),
    ),
    OpEntry(
        "atleast_2d",
        lambda T, *x: T.atleast_2d(*x),
        lambda dtype: [_one(1.0, name="0-d"), _one([1.0, 2.0], name="1-d")],
    ),
    OpEntry("ravel", lambda T, x: T.ravel(x), samples_with(((), {}), extra=_zero_d)),
    OpEntry(
        "hstack",
        lambda T, a, b: T.hstack([a, b]),
        lambda dtype: [
            Sample((tensor_arg(np.ones(2)), tensor_arg(np.arange(3.0))), name="1-d"),
            Sample((tensor_arg(np.ones((2, 1))), tensor_arg(np.ones((2, 3)))), name="2-d"),
        ],
    ),
    OpEntry(
        "vstack",
        lambda T, a, b: T.vstack([a, b]),
        lambda dtype: [
            Sample((tensor_arg(np.ones(2)), tensor_arg(np.arange(2.0))), name="1-d"),
            Sample((tensor_arg(np.array(1.0)), tensor_arg(np.array(2.0))), name="0-d"),
        ],
    ),
    OpEntry(
        "dstack",
        lambda T, a, b: T.dstack([a, b]),
        lambda dtype: [
            Sample((tensor_arg(np.ones((2, 2))), tensor_arg(np.arange(4.0).reshape(2, 2))))
        ],
    ),
    OpEntry(
        "column_stack",
        lambda T, a, b: T.column_stack([a, b]),
        lambda dtype: [Sample((tensor_arg(np.ones(2)), tensor_arg(np.ones((2, 3)))))],
    ),
    # ops that existed before: grad_fn names, edge cases and errors
    OpEntry(
        "unsqueeze",
        lambda T, x, d: T.unsqueeze(x, d),
        samples_with(((0,), {}), ((-1,), {}), ((3,), {}), ((5,), {}), extra=_zero_d_unsqueeze),
        covers=("Tensor.unsqueeze",),
    ),
    OpEntry(
        "clone",
        lambda T, x: (T.clone(x), x.clone(), x.contiguous()),
        samples_with(((), {})),
        covers=("Tensor.clone", "Tensor.contiguous"),
    ),
    OpEntry(
        "Tensor.view_as",
        lambda T, x: (
            x.contiguous().view_as(T.ones(4, 6)),
            x.reshape_as(T.ones(24)),
            x[:1].expand_as(T.ones(3, 3, 4)),
        ),
        samples_with(((), {})),
        covers=("Tensor.reshape_as", "Tensor.expand_as"),
    ),
    OpEntry(
        "Tensor.to",
        lambda T, x: (x.to(T.float64), x.to(T.float32), x.type_as(T.ones(1)), x.double()),
        samples_with(((), {})),
        covers=("Tensor.type_as", "Tensor.double", "Tensor.float"),
    ),
    OpEntry(
        "Tensor.half",
        lambda T, x: x.half().float(),
        samples_with(((), {})),
        tolerances={"float32": (1e-3, 1e-3), "float64": (1e-3, 1e-3)},
        tolerance_reason="a round trip through float16",
    ),
    OpEntry(
        "Tensor.bfloat16",
        lambda T, x: x.bfloat16().float(),
        samples_with(((), {})),
        tolerances={"float32": (8e-3, 1e-3), "float64": (8e-3, 1e-3)},
        tolerance_reason="a round trip through bfloat16 (8 significant bits)",
    ),
    OpEntry(
        "squeeze",
        lambda T, x, *a: T.squeeze(x, *a),
        lambda dtype: [
            _one(np.ones((1, 2, 1)), name="all"),
            _one(np.ones((1, 2, 1)), 0, name="dim"),
            _one(np.ones((1, 2, 1)), 1, name="dim not 1"),
            _one(np.ones((1, 2, 1)), (0, 2), name="dims"),
            _one(2.0, 0, name="0-d"),
            _one(np.ones((1, 2)), 3, name="dim out of range"),
        ],
    ),
    OpEntry(
        "flatten",
        lambda T, x, *a: T.flatten(x, *a),
        samples_with(((), {}), ((1,), {}), ((0, 1), {}), ((1, 1), {}), ((2, 1), {}), extra=_zero_d),
    ),
    OpEntry(
        "Tensor.view",
        lambda T, x, *s: x.view(*s),
        samples_with(((6, 4), {}), ((-1,), {}), ((4, -1, 2), {}), ((5, -1), {})),
    ),
    OpEntry(
        "reshape",
        lambda T, x, s: T.reshape(x, s),
        samples_with((((6, 4),), {}), (((-1,),), {}), (((-1, -1),), {})),
    ),
    OpEntry(
        "Tensor.expand",
        lambda T, x, *s: x.expand(*s),
        lambda dtype: [
            _one(np.ones((3, 1)), 2, 3, 4, name="broadcast"),
            _one(np.ones((3, 1)), -1, 2, name="-1"),
            _one(1.0, 2, name="0-d"),
            _one(np.ones((3, 2)), 3, 4, name="mismatch"),
        ],
    ),
    OpEntry(
        "permute",
        lambda T, x, d: T.permute(x, d),
        samples_with((((2, 0, 1),), {}), (((-1, 0, 1),), {}), (((0, 0, 1),), {})),
    ),
    OpEntry(
        "transpose",
        lambda T, x, a, b: T.transpose(x, a, b),
        samples_with(((0, 2), {}), ((-1, 1), {}), ((1, 1), {})),
    ),
    OpEntry(  # transpose under numpy's parameter names
        "swapaxes",
        lambda T, x, a, b: T.swapaxes(x, axis0=a, axis1=b),
        samples_with(((0, 2), {}), ((-1, 1), {})),
        covers=("swapdims", "Tensor.swapaxes", "Tensor.swapdims"),
    ),
    OpEntry(
        "Tensor.T",
        lambda T, x: x.T,
        lambda dtype: [_one(np.ones((2, 3)), name="2-d")],
    ),
    OpEntry(
        "Tensor.mT",
        lambda T, x: x.mT,
        samples_with(((), {})),
    ),
    OpEntry(
        "adjoint",
        lambda T, x: T.adjoint(x),
        samples_with(((), {})),
        covers=("Tensor.adjoint", "Tensor.mH"),
    ),
    OpEntry(
        "Tensor.H",
        lambda T, x: x.H,
        lambda dtype: [_one(np.ones((2, 3)), name="2-d"), _one(np.ones((2, 2, 2)), name="3-d")],
    ),
    OpEntry(
        "fliplr",
        lambda T, x: T.fliplr(x),
        samples_with(((), {}), extra=lambda: [_one([1.0, 2.0], name="1-d (error)")]),
        covers=("Tensor.fliplr",),
    ),
    OpEntry(
        "flipud",
        lambda T, x: T.flipud(x),
        samples_with(((), {}), extra=lambda: [_one(1.0, name="0-d (error)")]),
        covers=("Tensor.flipud",),
    ),
    OpEntry(
        "t",
        lambda T, x: T.t(x),
        lambda dtype: [_one(np.ones((2, 3))), _one([1.0, 2.0], name="1-d"), _one(1.0, name="0-d")],
    ),
    OpEntry(
        "narrow",
        lambda T, x, *a: T.narrow(x, *a),
        samples_with(((1, 1, 2), {}), ((-1, 0, 4), {}), ((0, 1, 0), {})),
    ),
    OpEntry(
        "select",
        lambda T, x, d, i: T.select(x, d, i),
        samples_with(((0, 1), {}), ((-1, -1), {}), ((1, 3), {})),
    ),
    OpEntry(
        "unbind",
        lambda T, x, *d: T.unbind(x, *d),
        samples_with(((), {}), ((2,), {}), ((-2,), {})),
    ),
    OpEntry(
        "cat",
        lambda T, a, b, d: T.cat([a, b], d),
        lambda dtype: [
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((1, 3))), 0), name="dim 0"),
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((2, 1))), -1), name="dim -1"),
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros(0)), 1), name="legacy empty"),
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((2, 2))), 0), name="mismatch"),
        ],
    ),
    OpEntry(
        "concat",
        lambda T, a, b, d: T.concat((a, b), d),
        lambda dtype: [
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((2, 1))), -1), name="dim -1"),
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((2, 2))), 0), name="mismatch"),
        ],
    ),
    OpEntry(
        "concatenate",
        lambda T, a, b, d: T.concatenate([a, b], d),
        lambda dtype: [
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((1, 3))), 0), name="dim 0"),
        ],
    ),
    OpEntry(
        "stack",
        lambda T, a, b, d: T.stack([a, b], d),
        lambda dtype: [
            Sample((tensor_arg(np.ones((2, 3))), tensor_arg(np.zeros((2, 3))), 1), name="dim 1"),
            Sample((tensor_arg(np.array(1.0)), tensor_arg(np.array(2.0)), 0), name="0-d"),
        ],
    ),
)


def _diff_samples(dtype: str) -> list[Sample]:
    r = np.random.default_rng(7)
    x = r.uniform(-2, 2, (3, 4))
    return [
        *samples_with(((), {}), ((), {"n": 2}), ((), {"dim": 0}), ((), {"n": 9}))(dtype),
        Sample((tensor_arg(x),), {"prepend": tensor_arg(r.uniform(-1, 1, (3, 2)))}, name="prepend"),
        Sample(
            (tensor_arg(x), 1, 0), {"append": tensor_arg(r.uniform(-1, 1, (1, 4)))}, name="append"
        ),
        Sample((tensor_arg(x),), {"n": 0}, name="n 0"),
        Sample((tensor_arg(np.array(1.0)),), name="0-d (error)"),
    ]


register(
    OpEntry(
        "diff",
        lambda T, x, *a, **k: T.diff(x, *a, **k),
        _diff_samples,
        covers=("Tensor.diff",),
    )
)


register(
    OpEntry(
        "rot90",
        lambda T, x, *a: T.rot90(x, *a),
        samples_with(
            ((), {}),
            ((2, (0, 1)), {}),
            ((3, (1, 2)), {}),
            ((-1, (2, 0)), {}),
            ((0, (0, 1)), {}),
            ((5, (-1, -2)), {}),
            ((1, (0, 0)), {}),
        ),
        covers=("Tensor.rot90",),
    )
)
