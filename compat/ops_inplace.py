"""Op database entries for the in-place variants (`Tensor.op_`).

Each entry runs the op on a non-leaf copy of its input (`y = x * 1; y.op_(...)`), so the harness
compares values, dtype, the grad_fn torch records for the in-place node (5.10), backward and
double backward through the rebased graph. Samples marked `_view=True` run the op on a strided
view of a non-leaf base instead, and return the base too (CopySlices / AsStridedBackward0, 5.14).

Every call also checks the in-place variant against its out-of-place op within the library
(`_consistent`): it returns self, bumps the version, keeps self's dtype and shape, and holds the
values of `ref(before, *args)` cast to self's dtype. A mismatch raises `InplaceMismatch` in
shadowgrad and `ReferenceMismatch` in torch (a wrong check), so the harness reports either.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .opdb import ENTRIES, OpEntry, Sample, register, tensor_arg
from .ops_linalg import addbmm_samples, addmm_samples, addmv_samples, baddbmm_samples
from .ops_pointwise import _UNARY, _addc_samples, _clamp_samples, _lerp_samples

NAN, INF = math.nan, math.inf


class InplaceMismatch(AssertionError):
    """shadowgrad's `op_` differs from its own out-of-place op."""


class ReferenceMismatch(AssertionError):
    """torch's `op_` differs from its out-of-place op: the consistency check itself is wrong."""


def _fail(T: Any, msg: str) -> None:
    raise (ReferenceMismatch if T.__name__ == "torch" else InplaceMismatch)(msg)


def _np(t: Any) -> np.ndarray:
    return np.array(t.detach().numpy(force=True), copy=True)


def _consistent(T: Any, name: str, y: Any, out: Any, before: Any, version: int, expect: Any):
    if out is not y:
        _fail(T, f"{name} did not return self")
    if y._version <= version:
        _fail(T, f"{name} did not bump the version counter ({y._version})")
    if expect is None:
        return
    if tuple(expect.shape) != tuple(before.shape):
        _fail(T, f"{name}: out-of-place shape {tuple(expect.shape)} != {tuple(before.shape)}")
    if y.dtype != before.dtype:
        _fail(T, f"{name} changed the dtype to {y.dtype}")
    a, b = _np(y), _np(expect.to(before.dtype))
    if a.dtype.kind in "fc" and T.__name__ == "torch":
        # torch's in-place and out-of-place kernels may round differently (addmm_: 1 ulp)
        eps = np.finfo(a.dtype).eps
        same = np.allclose(a, b, rtol=8 * eps, atol=8 * eps, equal_nan=True)
    else:  # shadowgrad computes an in-place op with its out-of-place op: bitwise equal
        same = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if not same:
        _fail(T, f"{name}: in-place {a.tolist()} != out-of-place {b.tolist()}")


def _method_ref(name: str) -> Callable[..., Any]:
    return lambda T, t, *a, **k: getattr(t, name)(*a, **k)


def inplace(name: str, ref: Callable[..., Any] | str | None = "method") -> Callable[..., Any]:
    """The entry op for `Tensor.<name>`: run it on `x * 1` (or a view) and check consistency."""
    if ref == "method":
        ref = _method_ref(name[:-1])

    def op(T: Any, x: Any, *args: Any, _view: bool = False, **kwargs: Any) -> Any:
        if _view:
            # a strided view (every other element) of a non-leaf base
            base = T.stack([x * 1, x * 2], -1)
            y = base[..., 0]
        else:
            base, y = None, x * 1
        before = y.detach().clone()
        version = y._version
        out = getattr(y, name)(*args, **kwargs)
        expect = None
        if ref is not None:
            with T.no_grad():
                expect = ref(T, before, *args, **kwargs)  # type: ignore[operator]
        _consistent(T, name, y, out, before, version, expect)
        return out if base is None else (out, base)

    return op


def _viewed(samples: Callable[[str], list[Sample]], k: int = 1) -> Callable[[str], list[Sample]]:
    """The samples, plus the first k of them run on a view of a non-leaf base."""

    def fn(dtype: str) -> list[Sample]:
        out = list(samples(dtype))
        for s in out[:k]:
            out.append(
                Sample(s.args, {**s.kwargs, "_view": True}, name=f"{s.name or 'first'} view")
            )
        return out

    return fn


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def _arr(*v: float) -> np.ndarray:
    return np.array(v, dtype=np.float64)


def _unary(low: float, high: float, edges: tuple[float, ...]) -> Callable[[str], list[Sample]]:
    def samples(dtype: str) -> list[Sample]:
        r = _rng()
        out = [
            Sample((tensor_arg(r.uniform(low, high, (3, 4))),), name="2-d"),
            Sample((tensor_arg(np.array(r.uniform(low, high))),), name="0-d"),
            Sample((tensor_arg(r.uniform(low, high, (0, 3))),), name="empty"),
            Sample(
                (tensor_arg(r.uniform(low, high, (4, 3)), layout="transposed"),),
                name="non-contiguous",
            ),
            Sample(
                (tensor_arg(r.uniform(low, high, (2, 3)), requires_grad=False),), name="no grad"
            ),
        ]
        if edges:
            out.append(Sample((tensor_arg(_arr(*edges)),), name="edges"))
        return out

    return _viewed(samples)


def _binary(
    low: float = -2.0,
    high: float = 2.0,
    olow: float | None = None,
    ohigh: float | None = None,
    scalar: Any = 1.5,
    edges: tuple[tuple[float, ...], tuple[float, ...]] | None = None,
    int_error: bool = True,
) -> Callable[[str], list[Sample]]:
    """Pairs where self has the broadcast shape, plus the in-place broadcast and cast errors."""
    olow = low if olow is None else olow
    ohigh = high if ohigh is None else ohigh

    def samples(dtype: str) -> list[Sample]:
        r = _rng()

        def a(*shape: int, rg: bool = True, layout: str = "contiguous") -> Any:
            return tensor_arg(r.uniform(low, high, shape), rg, layout)

        def b(*shape: int, rg: bool = True) -> Any:
            return tensor_arg(r.uniform(olow, ohigh, shape), rg)

        out = [
            Sample((a(3, 4), b(3, 4)), name="same shape"),
            Sample((a(3, 4), b(4)), name="other broadcast"),
            Sample((a(3, 4), b(3, 1)), name="other broadcast column"),
            Sample((a(2, 3), tensor_arg(np.array(r.uniform(olow, ohigh)))), name="0-d other"),
            Sample((tensor_arg(np.array(r.uniform(low, high))), b()), name="0-d self and other"),
            Sample((a(0, 3), b(1, 3)), name="empty"),
            Sample((a(2, 3, layout="transposed"), b(2, 3)), name="non-contiguous self"),
            Sample((a(2, 3), b(2, 3, rg=False)), name="other without grad"),
            Sample((a(2, 3, rg=False), b(2, 3)), name="self without grad"),
            Sample((a(1, 3), b(2, 3)), name="self cannot broadcast (error)"),
            Sample((tensor_arg(np.array(r.uniform(low, high))), b(2)), name="0-d self (error)"),
        ]
        if scalar is not None:
            out.append(Sample((a(2, 3), scalar), name="python scalar"))
        if edges is not None:
            out.append(
                Sample((tensor_arg(_arr(*edges[0])), tensor_arg(_arr(*edges[1]))), name="edges")
            )
        if int_error:
            out.append(
                Sample(
                    (tensor_arg(np.array([1, 2, 3])), b(3)), name="int self, float other (error)"
                )
            )
        return out

    return _viewed(samples)


def _fixed(*samples: Sample) -> Callable[[str], list[Sample]]:
    return lambda dtype: list(samples)


# --- unary --------------------------------------------------------------------------------

_DOMAINS = {name: (lo, hi, edges) for name, (lo, hi), edges in _UNARY}
_DOMAINS.update(
    {
        "exp": (-2, 2, (0.0, 100.0, -INF)),
        "log": (0.1, 3, (0.0, -1.0, 1.0, INF)),
        "reciprocal": (0.5, 2, (0.0, -0.0, INF)),
        "tanh": (-2, 2, (0.0, 30.0, -INF)),
        "sigmoid": (-2, 2, (0.0, 50.0, -50.0)),
        "relu": (-2, 2, (0.0, -1.0, 1.0, NAN)),
        "neg": (-2, 2, (0.0, -0.0)),
        "square": (-2, 2, (0.0, -3.0)),
        "fix": _DOMAINS["trunc"],
    }
)
# aliases share their op's domain
_ALIASES = {
    "absolute": "abs",
    "arccos": "acos",
    "arccosh": "acosh",
    "arcsin": "asin",
    "arcsinh": "asinh",
    "arctan": "atan",
    "arctanh": "atanh",
    "negative": "neg",
}
_UNARY_INPLACE = sorted({*_DOMAINS, *_ALIASES})

for _n in _UNARY_INPLACE:
    _lo, _hi, _edges = _DOMAINS[_ALIASES.get(_n, _n)]
    register(OpEntry(f"Tensor.{_n}_", inplace(f"{_n}_"), _unary(_lo, _hi, _edges)))

# --- binary -------------------------------------------------------------------------------

_ARITH = _binary(edges=((0.0, -0.0, 1.0, INF), (0.0, 2.0, -0.0, 1.0)))
_DIVISION = _binary(0.5, 6.0, 0.5, 3.0, scalar=2.0, edges=((5.0, -5.0, 0.0), (3.0, 3.0, 2.0)))


def _with(base: Callable[[str], list[Sample]], *extra: Sample) -> Callable[[str], list[Sample]]:
    return lambda dtype: [*base(dtype), *extra]


def _t(*v: float, rg: bool = True) -> Any:
    return tensor_arg(_arr(*v), rg)


def _i(*v: int) -> Any:
    return tensor_arg(np.array(v, dtype=np.int64))


_BINARY: dict[str, Callable[[str], list[Sample]]] = {
    "add_": _with(
        _ARITH,
        Sample((_t(1.0, 2.0), _t(3.0, -1.0)), {"alpha": 2.5}, name="alpha"),
        Sample((_i(1, 2), _i(3, 4)), {"alpha": 2}, name="int alpha"),
        Sample((_t(1.0, 2.0), 2), {"alpha": -1}, name="scalar alpha"),
    ),
    "sub_": _with(
        _ARITH,
        Sample((_t(1.0, 2.0), _t(3.0, -1.0)), {"alpha": 0.5}, name="alpha"),
        Sample((_i(5, 2), _i(3, 4)), name="int"),
    ),
    "mul_": _with(_ARITH, Sample((_i(5, 2), _i(3, -4)), name="int")),
    "div_": _with(
        _binary(0.5, 2.0, scalar=2.0, edges=((1.0, 0.0, -1.0, 0.0), (0.0, 0.0, 0.0, 2.0))),
        Sample((_t(7.0, -7.0, 7.5), _t(2.0, 2.0, -2.0)), {"rounding_mode": "trunc"}, name="trunc"),
        Sample((_t(7.0, -7.0, 7.5), _t(2.0, 2.0, -2.0)), {"rounding_mode": "floor"}, name="floor"),
        Sample((_i(7, -7), _i(2, 2)), name="int true division (error)"),
        Sample((_i(7, -7), _i(2, 2)), {"rounding_mode": "floor"}, name="int floor"),
    ),
    "pow_": _with(
        _binary(0.5, 2.0, scalar=2.0, edges=((0.0, 0.0, 2.0, -1.0), (0.0, 2.0, 0.0, 0.5))),
        Sample((_t(0.0, 1.5, -2.0), 0), name="exponent 0"),
        Sample((_t(0.0, 1.5, 4.0), 0.5), name="exponent 0.5"),
        Sample((_t(0.0, 1.5, -2.0), -1), name="exponent -1"),
        Sample((_i(1, 2, 3), -1), name="int to negative int (error)"),
        Sample((_i(1, 2, 3), _i(-1, -1, 2)), name="int to negative int tensor"),
        Sample((_i(1, 2, 3), 2), name="int squared"),
    ),
    "atan2_": _binary(edges=((0.0, 0.0, -0.0, 1.0), (0.0, -0.0, 0.0, 0.0))),
    "copysign_": _with(
        _binary(scalar=-0.0, edges=((1.0, -2.0, 0.0, -0.0), (-1.0, 2.0, -1.0, 1.0))),
        Sample((_t(1.0, -2.0), 3.0), name="positive scalar"),
    ),
    "hypot_": _binary(edges=((0.0, 3.0, INF), (0.0, 4.0, 1.0))),
    "xlogy_": _binary(
        0.0, 2.0, 0.1, 3.0, scalar=2.0, edges=((0.0, 0.0, 1.0, NAN), (0.0, NAN, 0.0, 1.0))
    ),
    "clamp_min_": _binary(edges=((0.0, 1.0, -1.0, NAN), (0.0, 0.0, 0.0, 0.0))),
    "clamp_max_": _binary(edges=((0.0, 1.0, -1.0, NAN), (0.0, 0.0, 0.0, 0.0))),
    "fmod_": _DIVISION,
    "remainder_": _DIVISION,
    "floor_divide_": _DIVISION,
}
_BINARY["subtract_"] = _BINARY["sub_"]
_BINARY["multiply_"] = _BINARY["mul_"]
_BINARY["divide_"] = _BINARY["div_"]
_BINARY["true_divide_"] = _binary(0.5, 2.0, scalar=2.0)
_BINARY["arctan2_"] = _BINARY["atan2_"]

for _n, _s in sorted(_BINARY.items()):
    register(OpEntry(f"Tensor.{_n}", inplace(_n), _s))


# --- more arguments -------------------------------------------------------------------------


def _logit_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((tensor_arg(r.uniform(0.05, 0.95, (3, 4))),), name="2-d"),
        Sample((_t(0.0, 0.2, 0.5, 0.8, 1.0, 1.5, -0.1), 0.2), name="eps"),
        Sample((_t(0.0, 0.5, 1.0, 1.5),), name="edges, no eps"),
        Sample((tensor_arg(np.array(0.3)),), {"eps": 0.1}, name="0-d"),
        Sample(
            (tensor_arg(r.uniform(0.05, 0.95, (3, 2)), layout="transposed"),), name="transposed"
        ),
    ]


def _round_samples(dtype: str) -> list[Sample]:
    v = _t(1.25, 0.5, 1.5, 2.5, -2.5, -2.675, 0.0, 1234.5678)
    return [
        Sample((v,), name="half to even"),
        Sample((v,), {"decimals": 1}, name="decimals 1"),
        Sample((v,), {"decimals": -1}, name="decimals -1"),
        Sample((_i(1, 25),), {"decimals": 1}, name="int decimals (error)"),
    ]


def _nan_to_num_samples(dtype: str) -> list[Sample]:
    v = _t(NAN, INF, -INF, 2.0)
    return [
        Sample((v,), name="defaults"),
        Sample((v,), {"nan": 1.0, "posinf": 5.0, "neginf": -5.0}, name="values"),
        Sample((v, 3.0), name="positional nan"),
        Sample((_i(1, -2),), name="int"),
    ]


_MORE: dict[str, tuple[Callable[[str], list[Sample]], Any]] = {
    "lerp_": (_viewed(_lerp_samples), "method"),
    "addcmul_": (_viewed(_addc_samples), "method"),
    "addcdiv_": (_viewed(_addc_samples), "method"),
    "clip_": (_viewed(_clamp_samples), "method"),
    "logit_": (_logit_samples, "method"),
    "nan_to_num_": (_nan_to_num_samples, "method"),
    "addmv_": (_viewed(addmv_samples), "method"),
    # torch's addbmm_ resizes a broadcast self ([4] -> [2, 4]) instead of raising: left out
    "addbmm_": (
        lambda dt: [x for x in addbmm_samples(dt) if x.name != "broadcast input"],
        "method",
    ),
    "baddbmm_": (baddbmm_samples, "method"),
}


def _fill_samples(dtype: str) -> list[Sample]:
    r = _rng()
    x = r.uniform(-2, 2, (3, 4))
    return [
        Sample((tensor_arg(x), 1.5), name="scalar"),
        Sample((tensor_arg(x), tensor_arg(np.array(-2.0))), name="0-d tensor value"),
        Sample(
            (tensor_arg(x, requires_grad=False), tensor_arg(np.array(-2.0))),
            name="0-d tensor value, self without grad",
        ),
        Sample((tensor_arg(x), tensor_arg(_arr(1.0, 2.0))), name="1-d value (error)"),
        Sample((tensor_arg(np.array(0.5)), 3), name="0-d self, int value"),
        Sample((tensor_arg(np.zeros((0, 2))), 1.0), name="empty"),
        Sample((tensor_arg(x, layout="transposed"), 2.0), name="non-contiguous"),
        Sample((_i(1, 2), 2.7), name="int self, float value"),
        Sample((tensor_arg(x), 1.5), {"_view": True}, name="view"),
    ]


def _copy_samples(dtype: str) -> list[Sample]:
    r = _rng()
    x = r.uniform(-2, 2, (3, 4))
    return [
        Sample((tensor_arg(x), tensor_arg(r.uniform(-2, 2, (3, 4)))), name="same shape"),
        Sample((tensor_arg(x), tensor_arg(r.uniform(-2, 2, (4,)))), name="broadcast src"),
        Sample((tensor_arg(x), tensor_arg(np.array(0.5))), name="0-d src"),
        Sample(
            (tensor_arg(x, requires_grad=False), tensor_arg(r.uniform(-2, 2, (3, 4)))),
            name="self without grad",
        ),
        Sample(
            (tensor_arg(x), tensor_arg(r.uniform(-2, 2, (3, 4)), requires_grad=False)),
            name="src without grad",
        ),
        Sample((tensor_arg(x), _i(1, 2, 3, 4)), name="int src"),
        Sample((_i(1, 2), _t(1.7, -2.5)), name="float into int"),
        Sample((tensor_arg(x), tensor_arg(r.uniform(-2, 2, (2, 4)))), name="bad shape (error)"),
        Sample((tensor_arg(x, layout="transposed"), tensor_arg(x)), name="non-contiguous"),
        Sample((tensor_arg(x), tensor_arg(x * 2)), {"_view": True}, name="view"),
    ]


def _zero_samples(dtype: str) -> list[Sample]:
    return _unary(-2, 2, (NAN, INF))(dtype)


def _fill_ref(T: Any, t: Any, value: Any) -> Any:
    return T.full_like(t, value.item() if hasattr(value, "item") else value)


def _copy_ref(T: Any, t: Any, src: Any) -> Any:
    if not isinstance(src, T.Tensor):
        return T.full_like(t, src)
    return src.expand_as(t).to(t.dtype)


_MORE.update(
    {
        "fill_": (_fill_samples, _fill_ref),
        "copy_": (_copy_samples, _copy_ref),
        "zero_": (_zero_samples, lambda T, t: T.zeros_like(t)),
    }
)
for _n, (_s, _ref) in sorted(_MORE.items()):
    register(OpEntry(f"Tensor.{_n}", inplace(_n, _ref), _s))

# clamp_ (ops_pointwise.py) and addmm_ (ops_linalg.py) have entries; these add the consistency check
register(
    OpEntry("Tensor.clamp_ consistency", inplace("clamp_"), _viewed(_clamp_samples)),
    OpEntry("Tensor.addmm_ consistency", inplace("addmm_"), _viewed(addmm_samples)),
    OpEntry("Tensor.round_ decimals", inplace("round_"), _viewed(_round_samples)),
    OpEntry(
        "Tensor.copy_ python scalar",
        inplace("copy_", _copy_ref),
        _fixed(
            Sample((_t(1.0, 2.0), 2.5), name="float"),
            Sample((_t(1.0, 2.0, rg=False), 3), name="int, self without grad"),
        ),
    ),
)

# --- in-place view ops: self takes the view's shape and strides ----------------------------


def inplace_view(name: str) -> Callable[..., Any]:
    """`y.<name>(...)` on `x * 1` (or on a view): self changes shape, keeps its storage."""

    def op(T: Any, x: Any, *args: Any, _view: bool = False) -> Any:
        y = x[...] * 1 if not _view else (x * 1)[...]
        expect = getattr(y.detach(), name[:-1])(*args)
        version = y._version
        out = getattr(y, name)(*args)
        if out is not y or y._version <= version or tuple(y.shape) != tuple(expect.shape):
            _fail(T, f"{name}: self {tuple(y.shape)}, version {y._version}")
        if y.stride() != expect.stride() or not np.array_equal(_np(y), _np(expect)):
            _fail(T, f"{name}: strides {y.stride()} != {expect.stride()} or values differ")
        return out

    return op


def _scan_dim_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((tensor_arg(r.uniform(0.5, 1.5, (3, 4))), 1), name="dim 1"),
        Sample((tensor_arg(r.uniform(0.5, 1.5, (3, 4))), 0), name="dim 0"),
        Sample((tensor_arg(r.uniform(0.5, 1.5, (2, 3, 2))), -1), name="3-d, dim -1"),
    ]


def _triangle_samples(dtype: str) -> list[Sample]:
    r = _rng()
    return [
        Sample((tensor_arg(r.uniform(-1, 1, (3, 4))),), name="2-d"),
        Sample((tensor_arg(r.uniform(-1, 1, (4, 3))), 1), name="diagonal 1"),
        Sample((tensor_arg(r.uniform(-1, 1, (2, 3, 3))), -1), name="batch, diagonal -1"),
    ]


register(
    OpEntry("Tensor.cumsum_", inplace("cumsum_"), _viewed(_scan_dim_samples)),
    OpEntry("Tensor.cumprod_", inplace("cumprod_"), _viewed(_scan_dim_samples)),
    OpEntry("Tensor.tril_", inplace("tril_"), _viewed(_triangle_samples)),
    OpEntry("Tensor.triu_", inplace("triu_"), _viewed(_triangle_samples)),
)


def _view_samples(*calls: tuple[tuple[int, ...], tuple[Any, ...], str]) -> Callable:
    def samples(dtype: str) -> list[Sample]:
        r = _rng()
        out = []
        for shape, args, name in calls:
            out.append(Sample((tensor_arg(r.standard_normal(shape)), *args), name=name))
        s = out[0]
        out.append(Sample(s.args, {"_view": True}, name=f"{s.name} on a view"))
        out.append(
            Sample((tensor_arg(r.standard_normal(calls[0][0]), False), *s.args[1:]), name="no grad")
        )
        return out

    return samples


register(
    OpEntry(
        "Tensor.squeeze_",
        inplace_view("squeeze_"),
        _view_samples(
            ((1, 3, 1), (), "all"),
            ((1, 3), (0,), "dim"),
            ((1, 3), (-1,), "dim of size 3"),
            ((1, 3, 1), ((0, 2),), "dims"),
            ((), (), "0-d"),
            ((), (0,), "0-d dim"),
            ((1, 0), (0,), "empty"),
            ((1, 3), (2,), "dim out of range (error)"),
        ),
    ),
    OpEntry(
        "Tensor.unsqueeze_",
        inplace_view("unsqueeze_"),
        _view_samples(
            ((2, 3), (0,), "front"),
            ((2, 3), (-1,), "back"),
            ((), (0,), "0-d"),
            ((2, 3), (3,), "out of range (error)"),
        ),
    ),
    OpEntry(
        "Tensor.t_",
        inplace_view("t_"),
        _view_samples(((2, 3), (), "2-d"), ((3,), (), "1-d"), ((2, 2, 2), (), "3-d (error)")),
    ),
    OpEntry(
        "Tensor.transpose_",
        inplace_view("transpose_"),
        _view_samples(
            ((2, 3, 4), (0, 2), "3-d"),
            ((2, 3), (-1, 0), "negative dim"),
            ((2, 3), (1, 1), "same dim"),
        ),
    ),
    OpEntry(
        "Tensor.swapaxes_",
        inplace_view("swapaxes_"),
        _view_samples(((2, 3, 4), (0, 2), "3-d"), ((2, 3), (-1, 0), "negative dim")),
        covers=("Tensor.swapdims_",),
    ),
)

# --- random fills: the draws differ from torch's, so their statistics are compared ----------
# Each op returns `out * 0` (grad flows through the fill's zero-grad node) and a bool tensor of
# checks on the draws (range, mean, spread over 4000 draws: each check is > 6 sigma wide).


def _stats(v: np.ndarray, name: str, args: tuple[Any, ...]) -> list[bool]:
    big = v.size >= 1000
    if name == "uniform_":
        a, b = (args + (0.0, 1.0)[len(args) :])[:2]
        ok = [bool(np.all((v >= a) & (v < b)))]
        return ok + ([abs(v.mean() - (a + b) / 2) < 0.03 * (b - a)] if big else [])
    if name == "normal_":
        m, s = (args + (0.0, 1.0)[len(args) :])[:2]
        return [bool(abs(v.mean() - m) < 0.1 * s), bool(abs(v.std() - s) < 0.1 * s)] if big else []
    if name == "bernoulli_":
        p = args[0] if args else 0.5
        ok = [bool(np.all((v == 0) | (v == 1)))]
        return ok + ([bool(abs(v.mean() - p) < 0.05)] if big else [])
    if name == "exponential_":
        lam = args[0] if args else 1.0
        ok = [bool(np.all(v >= 0))]
        return ok + ([bool(abs(v.mean() - 1 / lam) < 0.1 / lam)] if big else [])
    if not args:
        return [bool(np.all((v >= 0) & (v == np.floor(v))))]
    lo, hi = (0, args[0]) if len(args) == 1 else args
    return [bool(np.all((v >= lo) & (v < hi) & (v == np.floor(v))))]


_FILL_NODES = {
    "uniform_": "UniformBackward0",
    "normal_": "NormalBackward0",
    "bernoulli_": "BernoulliBackward2",
    "exponential_": "ExponentialBackward0",
    "random_": "RandomBackward0",
}
_RANDOM_NODES = ("RandomBackward2", "RandomBackward1", "RandomBackward0")


def random_fill(name: str) -> Callable[..., Any]:
    def op(T: Any, x: Any, *args: Any) -> Any:
        y = x * 1
        out = getattr(y, name)(*args)
        node = type(out.grad_fn).__name__ if out.grad_fn is not None else None
        want = _RANDOM_NODES[min(len(args), 2)] if name == "random_" else _FILL_NODES[name]
        if x.requires_grad and node != want:
            _fail(T, f"{name} recorded {node}")
        return out * 0, T.tensor(_stats(_np(out), name, args), dtype=T.bool)

    return op


def _fill_stat_samples(*argsets: tuple[Any, ...], ints: bool = False) -> Callable:
    def samples(dtype: str) -> list[Sample]:
        out = [Sample((tensor_arg(np.zeros(4000)), *a), name=f"args {a}") for a in argsets]
        out += [
            Sample((tensor_arg(np.zeros((20, 30)), layout="transposed"), *argsets[0]), name="2-d"),
            Sample((tensor_arg(np.array(0.0)), *argsets[0]), name="0-d"),
            Sample((tensor_arg(np.zeros((0, 3))), *argsets[0]), name="empty"),
            Sample((tensor_arg(np.zeros(5), False), *argsets[0]), name="no grad"),
            Sample((tensor_arg(np.zeros(5, np.int64)), *argsets[0]), name="int self"),
        ]
        return out

    return samples


register(
    OpEntry(
        "Tensor.uniform_",
        random_fill("uniform_"),
        _fill_stat_samples((), (-1.0, 3.0), (2.0, 2.0)),
    ),
    OpEntry(
        "Tensor.uniform_ bad range",
        random_fill("uniform_"),
        _fixed(Sample((tensor_arg(np.zeros(3)), 1.0, 0.0), name="from > to (error)")),
    ),
    OpEntry("Tensor.normal_", random_fill("normal_"), _fill_stat_samples((), (2.0, 0.5))),
    OpEntry(
        "Tensor.normal_ bad std",
        random_fill("normal_"),
        _fixed(Sample((tensor_arg(np.zeros(3)), 0.0, -1.0), name="std < 0 (error)")),
    ),
    OpEntry(
        "Tensor.bernoulli_",
        random_fill("bernoulli_"),
        _fill_stat_samples((), (0.3,), (0.0,), (1.0,)),
    ),
    OpEntry(
        "Tensor.bernoulli_ bad p",
        random_fill("bernoulli_"),
        _fixed(Sample((tensor_arg(np.zeros(3)), 1.5), name="p > 1 (error)")),
    ),
    OpEntry("Tensor.exponential_", random_fill("exponential_"), _fill_stat_samples((), (4.0,))),
    OpEntry("Tensor.random_", random_fill("random_"), _fill_stat_samples((10,), (-3, 5), ())),
)
# A random fill draws again when re-run with grad off, and its op asserts the recorded node.
for _name in ("uniform_", "normal_", "bernoulli_", "exponential_", "random_"):
    ENTRIES[f"Tensor.{_name}"].status_parity = False


def _normal_fn(T: Any, mean: Any, std: Any) -> Any:
    out = T.normal(mean, std)
    v = _np(out)
    ok = [bool(abs(v.mean() - 1.0) < 0.1), bool(abs(v.std() - 0.5) < 0.1)]
    return out * 0, T.tensor(ok)


def _bernoulli_fn(T: Any, p: Any) -> Any:
    out = T.bernoulli(p)
    v, pv = _np(out), _np(p)
    ok = [bool(np.all((v == 0) | (v == 1))), bool(np.all(v[pv == 0] == 0))]
    ok.append(bool(np.all(v[pv == 1] == 1)))
    ok.append(bool(abs(v.mean() - pv.mean()) < 0.05))
    return out * 0, T.tensor(ok)


def _multinomial_fn(T: Any, p: Any, n: int, replacement: bool) -> Any:
    out = T.multinomial(p, n, replacement)
    v, pv = _np(out), _np(p).reshape(-1, _np(p).shape[-1])
    rows = v.reshape(-1, n)
    ok = [all(np.all(pv[i][r] > 0) for i, r in enumerate(rows))]
    if not replacement:
        ok.append(all(len(set(r.tolist())) == n for r in rows))
    return out * 0, T.tensor(ok)  # the indices differ from torch's: shape and dtype only


_N = 4000
register(
    OpEntry(
        "normal",
        _normal_fn,
        _fixed(
            Sample((tensor_arg(np.ones(_N)), tensor_arg(np.full(_N, 0.5))), name="tensors"),
            Sample((tensor_arg(np.ones(_N)), 0.5), name="tensor mean"),
            Sample((1.0, tensor_arg(np.full(_N, 0.5))), name="tensor std"),
            Sample((tensor_arg(np.ones((_N, 1))), tensor_arg(np.full(2, 0.5))), name="broadcast"),
        ),
    ),
    OpEntry(
        "bernoulli",
        _bernoulli_fn,
        _fixed(
            Sample((tensor_arg(np.full(_N, 0.3)),), name="p 0.3"),
            Sample((tensor_arg(np.tile(_arr(0.0, 1.0, 0.5), 1000)),), name="0, 1 and 0.5"),
            Sample((tensor_arg(np.full((40, 50), 0.7), layout="transposed"),), name="2-d"),
        ),
    ),
    OpEntry(
        "multinomial",
        _multinomial_fn,
        _fixed(
            Sample((tensor_arg(_arr(0.1, 0.0, 0.5, 0.4)), 3, False), name="no replacement"),
            Sample((tensor_arg(_arr(0.1, 0.0, 0.5, 0.4)), 50, True), name="replacement"),
            Sample((tensor_arg(np.array([[1.0, 0, 2], [0, 3.0, 1]])), 2, False), name="2-d"),
            Sample((tensor_arg(_arr(0.5, 0.5)), 3, False), name="too many (error)"),
            Sample((tensor_arg(_arr(0.5, -0.5)), 1, True), name="negative (error)"),
        ),
        supports_grad=False,
    ),
)
