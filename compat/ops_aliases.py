"""Op database entries for torch's top-level spellings of existing ops (shadowgrad/ops/aliases.py):
the in-place functions (`torch.relu_(x)`, run on the samples of `Tensor.relu_`), the nn
functionals torch also exports with its own positional signatures (`torch.batch_norm`,
`torch.kl_div` with an int reduction, ...) and `torch.chain_matmul`."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import numpy as np

from shadowgrad.ops.aliases import _METHOD_FUNCTIONS

from .opdb import ENTRIES, OpEntry, Sample, register, tensor_arg
from .ops_inplace import InplaceMismatch, ReferenceMismatch
from .ops_shape import samples_with

_R = np.random.default_rng(11)


def _t(v: Any, rg: bool = True, layout: str = "contiguous") -> Any:
    return tensor_arg(np.asarray(v, dtype=np.float64), rg, layout)


def _rand(*shape: int) -> np.ndarray:
    return _R.standard_normal(shape)


# --- torch.<op>_(x, ...) on the samples of Tensor.<op>_ -------------------------------------


def _load_families() -> None:
    """Register the other families first: the Tensor.<op>_ entries reused here live in them."""
    import compat

    for m in pkgutil.iter_modules(compat.__path__):
        if m.name.startswith("ops_") and m.name != "ops_aliases":
            importlib.import_module(f"compat.{m.name}")


_load_families()
_INPLACE = [n for n in _METHOD_FUNCTIONS if n.endswith("_") and n != "detach_"]


def _top_inplace(name: str) -> Any:
    """`torch.<name>(y, ...)` on a non-leaf copy (or a strided view of a non-leaf base)."""

    def op(T: Any, x: Any, *args: Any, _view: bool = False, **kwargs: Any) -> Any:
        if _view:
            base = T.stack([x * 1, x * 2], -1)
            y = base[..., 0]
        else:
            base, y = None, x * 1
        version = y._version
        out = getattr(T, name)(y, *args, **kwargs)
        if out is not y or y._version <= version:
            err = ReferenceMismatch if T.__name__ == "torch" else InplaceMismatch
            raise err(f"torch.{name} did not return its input or bump its version")
        return out if base is None else (out, base)

    return op


for _n in _INPLACE:
    _e = ENTRIES[f"Tensor.{_n}"]
    register(
        OpEntry(
            f"torch.{_n}",
            _top_inplace(_n),
            _e.samples,
            dtypes=_e.dtypes,
            supports_grad=_e.supports_grad,
            supports_gradgrad=_e.supports_gradgrad,
            tolerances=_e.tolerances,
            tolerance_reason=_e.tolerance_reason,
            xfails=_e.xfails,
            status_parity=_e.status_parity,
        )
    )


def _detach(T: Any, x: Any, inplace: bool) -> Any:
    y = x * 2
    d = T.detach_(y) if inplace else T.detach(y)
    return (d * x).sum() + (y * 0 if inplace else y).sum()


def _detach_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_t(_rand(3, 4)),), name="2-d"),
        Sample((_t(1.5),), name="0-d"),
        Sample((_t(_rand(3, 4), False),), name="no grad"),
    ]


def _resolve_neg(T: Any, x: Any) -> Any:
    # a real tensor has no negative bit: resolve_neg gives it back, is_neg is False
    r = T.resolve_neg(x)
    if T.is_neg(x) or x.is_neg() or r.is_neg() or r is not x or x.is_cpu is not True:
        raise AssertionError("is_neg/resolve_neg/is_cpu on a plain tensor")
    return x.resolve_neg() * 2


register(
    OpEntry("detach", lambda T, x: _detach(T, x, False), _detach_samples),
    OpEntry(
        "detach_",
        lambda T, x: _detach(T, x, True),
        _detach_samples,
    ),
    OpEntry(
        "resolve_neg",
        _resolve_neg,
        _detach_samples,
        covers=("Tensor.resolve_neg", "is_neg", "Tensor.is_neg", "Tensor.is_cpu"),
    ),
)


# --- activations ----------------------------------------------------------------------------


def _act_samples(dtype: str) -> list[Sample]:
    x = np.array([-2.0, -0.5, 0.0, 0.3, 1.5])
    return [
        Sample((_t(x),), name="1-d with 0"),
        Sample((_t(_rand(3, 4), layout="transposed"),), name="non-contiguous"),
        Sample((_t(np.zeros((0, 2))),), name="empty"),
    ]


def _inplace_fn(name: str) -> Any:
    return lambda T, x, *a, **k: getattr(T, name)(x * 1, *a, **k)


def _with(extra: tuple[Any, ...], **kw: Any) -> Any:
    return lambda dtype: [
        Sample(s.args + extra, {**s.kwargs, **kw}, s.name) for s in _act_samples(dtype)
    ]


register(
    OpEntry("torch.selu_", _inplace_fn("selu_"), _act_samples),
    OpEntry("torch.celu_", _inplace_fn("celu_"), _with((0.7,))),
    OpEntry("torch.threshold_", _inplace_fn("threshold_"), _with((0.1, -3.0))),
    # in evaluation mode the slope is fixed: (lower + upper) / 2
    OpEntry("torch.rrelu", lambda T, x, *a: T.rrelu(x, *a), _with((0.1, 0.3, False, None))),
    OpEntry("torch.rrelu_", _inplace_fn("rrelu_"), _with((0.1, 0.3))),
)


# --- dropout (random masks differ: only the deterministic cases compare) ------------------

_DROPOUTS = [
    f"{f}{a}dropout{i}"
    for f in ("", "feature_")
    for a in ("", "alpha_")
    for i in ("", "_")
    if (f, a, i) != ("", "", "")
]


def _dropout_samples(dtype: str) -> list[Sample]:
    x = _rand(2, 3, 4)
    return [
        Sample((_t(x), 0.5, False), name="eval: identity"),
        Sample((_t(x), 0.0, True), name="p=0: identity"),
        Sample((_t(x), 1.0, True), name="p=1: all dropped"),
        Sample((_t(x), 1.5, True), name="bad p: error"),
        Sample((_t(x), -0.1, False), name="bad p in eval: error"),
        Sample((_t(x[0, 0]), 0.5, True), name="1-d"),
    ]


def _dropout_op(name: str) -> Any:
    def op(T: Any, x: Any, p: float, train: bool) -> Any:
        y = x * 1 if name.endswith("_") else x
        return getattr(T, name)(y, p, train)

    return op


for _n in _DROPOUTS:
    # "1-d" draws a mask: only its error (feature variants) or shape is comparable
    register(
        OpEntry(
            f"torch.{_n}",
            _dropout_op(_n),
            (lambda d: _dropout_samples(d)[:-1]) if "feature" not in _n else _dropout_samples,
            status_parity=False,
        )
    )


# --- normalization, linear, padding ---------------------------------------------------------


def _batch_norm_samples(dtype: str) -> list[Sample]:
    x, w, b = _rand(4, 3, 2), _rand(3), _rand(3)
    rm, rv = _rand(3), np.abs(_rand(3)) + 0.5
    return [
        Sample((_t(x), _t(w), _t(b), _t(rm, False), _t(rv, False), False, 0.1, 1e-5, True),
               name="eval, running stats"),
        Sample((_t(x), _t(w), _t(b), None, None, True, 0.1, 1e-5, False), name="train"),
        Sample((_t(x), None, None, _t(rm, False), _t(rv, False), True, 0.3, 1e-3, True),
               name="train, updates running stats"),
    ]  # fmt: skip


def _instance_norm_samples(dtype: str) -> list[Sample]:
    x, w, b = _rand(2, 3, 4), _rand(3), _rand(3)
    return [
        Sample((_t(x), _t(w), _t(b), None, None, True, 0.1, 1e-5, True), name="affine"),
        Sample((_t(x), None, None, None, None, True, 0.1, 1e-5, False), name="plain"),
    ]


def _bilinear_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_t(_rand(4, 3)), _t(_rand(4, 2)), _t(_rand(5, 3, 2)), _t(_rand(5)))),
        Sample((_t(_rand(4, 3)), _t(_rand(4, 2)), _t(_rand(5, 3, 2))), name="no bias"),
        Sample((_t(_rand(4, 3)), _t(_rand(4, 2)), _t(_rand(5, 2, 2))), name="bad weight: error"),
    ]


def _pad_samples(dtype: str) -> list[Sample]:
    x = _rand(2, 3, 4)
    return [
        Sample((_t(x), [1, 2])),
        Sample((_t(x), [1, 0, 0, 2], 1.5), name="2 dims, value"),
        Sample((_t(x), (-1, 1, 2, -1)), name="negative pads crop"),
        Sample((_t(x), [1, 2, 3]), name="odd length: error"),
    ]


register(
    OpEntry("torch.batch_norm", lambda T, *a: T.batch_norm(*a), _batch_norm_samples),
    OpEntry("torch.instance_norm", lambda T, *a: T.instance_norm(*a), _instance_norm_samples),
    OpEntry(
        "torch.bilinear",
        lambda T, *a: T.bilinear(*a),
        _bilinear_samples,
    ),
    OpEntry("torch.constant_pad_nd", lambda T, *a: T.constant_pad_nd(*a), _pad_samples),
)


# --- losses with torch's int reductions ---------------------------------------------------


def _reds(*args: Any, **kw: Any) -> list[Sample]:
    return [Sample((*args, r), kw, name=f"reduction {r}") for r in (0, 1, 2)]


def _bce_samples(dtype: str) -> list[Sample]:
    x, y = _rand(3, 4), _R.uniform(0, 1, (3, 4))
    w, pw = np.abs(_rand(4)), np.abs(_rand(4))
    return [
        *_reds(_t(x), _t(y), None, None),
        Sample((_t(x), _t(y), _t(w, False), _t(pw, False)), name="weights"),
    ]


def _pair_loss_samples(dtype: str) -> list[Sample]:
    x, y, s = _rand(3), _rand(3), np.array([1.0, -1.0, 1.0])
    return [*_reds(_t(x), _t(y), _t(s, False), 0.2), Sample((_t(x), _t(y), _t(s, False)))]


def _cos_samples(dtype: str) -> list[Sample]:
    x, y, s = _rand(3, 4), _rand(3, 4), np.array([1.0, -1.0, 1.0])
    return [*_reds(_t(x), _t(y), _t(s, False), 0.1), Sample((_t(x), _t(y), _t(s, False)))]


def _hinge_samples(dtype: str) -> list[Sample]:
    x, s = _rand(3, 4), np.sign(_rand(3, 4))
    return [*_reds(_t(x), _t(s, False), 0.5), Sample((_t(x), _t(s, False)))]


def _kl_samples(dtype: str) -> list[Sample]:
    x, y = np.log(_R.uniform(0.1, 1, (3, 4))), _R.uniform(0.1, 1, (3, 4))
    return [
        *_reds(_t(x), _t(y)),
        Sample((_t(x), _t(np.log(y))), {"log_target": True}, name="log target"),
        Sample((_t(x), _t(y), 5), name="other int: unreduced"),
    ]


def _poisson_samples(dtype: str) -> list[Sample]:
    x, y = _rand(3, 4), _R.poisson(2.0, (3, 4)).astype(np.float64)
    return [
        *_reds(_t(x), _t(y, False), True, False, 1e-8),
        Sample((_t(np.abs(x)), _t(y), False, True, 1e-6, 1), name="rate input, full"),
    ]


def _triplet_samples(dtype: str) -> list[Sample]:
    a, p, n = _rand(3, 4), _rand(3, 4), _rand(3, 4)
    return [
        Sample((_t(a), _t(p), _t(n))),
        Sample((_t(a), _t(p), _t(n), 0.5, 1.0, 1e-6, True, 2), name="swap, p=1, sum"),
        Sample((_t(a), _t(p), _t(n), 1.0, 2.0, 1e-6, False, 0), name="none"),
    ]


register(
    OpEntry(
        "torch.binary_cross_entropy_with_logits",
        lambda T, *a: T.binary_cross_entropy_with_logits(*a),
        _bce_samples,
    ),
    OpEntry("torch.cosine_embedding_loss", lambda T, *a: T.cosine_embedding_loss(*a), _cos_samples),
    OpEntry(
        "torch.margin_ranking_loss", lambda T, *a: T.margin_ranking_loss(*a), _pair_loss_samples
    ),
    OpEntry("torch.hinge_embedding_loss", lambda T, *a: T.hinge_embedding_loss(*a), _hinge_samples),
    OpEntry("torch.kl_div", lambda T, *a, **k: T.kl_div(*a, **k), _kl_samples),
    OpEntry("torch.poisson_nll_loss", lambda T, *a: T.poisson_nll_loss(*a), _poisson_samples),
    OpEntry("torch.triplet_margin_loss", lambda T, *a: T.triplet_margin_loss(*a), _triplet_samples),
    OpEntry(
        "torch.pdist",
        lambda T, *a: T.pdist(*a),
        lambda d: [
            Sample((_t(_rand(4, 3)),)),
            Sample((_t(_rand(4, 3)), 1.0), name="p=1"),
            Sample((_t(_rand(3)),), name="1-d: error"),
        ],
    ),
)


# --- pooling --------------------------------------------------------------------------------


def _pool3d_samples(dtype: str) -> list[Sample]:
    x = _R.permutation(2 * 4 * 4 * 4).reshape(1, 2, 4, 4, 4).astype(np.float64)
    return [
        Sample((_t(x), 2)),
        Sample((_t(x), [2, 2, 2], [], 0, 1, False), name="stride=[] is the kernel"),
        Sample((_t(x[0]), 3, 2, 1, 1, True), name="unbatched, ceil"),
    ]


def _pool1d_samples(dtype: str) -> list[Sample]:
    x = _R.permutation(2 * 3 * 7).reshape(2, 3, 7).astype(np.float64)
    return [
        Sample((_t(x), 2)),
        Sample((_t(x), 3, [], 1, 1, True), name="stride=[], padding, ceil"),
        Sample((_t(x), 2, 1, 0, 2), name="dilation"),
    ]


register(
    OpEntry("torch.max_pool3d", lambda T, *a: T.max_pool3d(*a), _pool3d_samples),
    OpEntry(
        "torch.max_pool1d_with_indices",
        lambda T, *a: T.max_pool1d_with_indices(*a),
        _pool1d_samples,
    ),
    OpEntry(
        "torch.adaptive_max_pool1d",
        lambda T, *a: T.adaptive_max_pool1d(*a),
        lambda d: [
            Sample((_t(_R.permutation(42).reshape(2, 3, 7).astype(np.float64)), 3)),
            Sample((_t(_R.permutation(7).reshape(1, 7).astype(np.float64)), [2]), name="2-d"),
        ],
    ),
)


# --- chain_matmul ---------------------------------------------------------------------------


def _chain_samples(dtype: str) -> list[Sample]:
    a, b, c = _rand(2, 3), _rand(3, 4), _rand(4, 2)
    return [
        Sample((_t(a),), name="one: a clone"),
        Sample((_t(a), _t(b)), name="two"),
        Sample((_t(a), _t(b), _t(c)), name="three"),
        Sample((_t(a), _t(b[0])), name="1-d: error"),
        Sample((_t(a), _t(a)), name="shapes: error"),
    ]


def _chain(T: Any, *ms: Any) -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the deprecation warning: see the tests
        return T.chain_matmul(*ms)


register(OpEntry("torch.chain_matmul", _chain, _chain_samples))


# --- torch.fill, the view ops' copies and the unsafe splits -----------------------------------


def _fill_samples(dtype: str) -> list[Sample]:
    x = _rand(3, 4)
    return [
        Sample((_t(x), 2.5), name="number"),
        Sample((_t(x, layout="transposed"), _t(0.7)), name="0-d tensor value"),
        Sample((_t(x), _t(0.7, False)), name="value without grad"),
        Sample((_t(1.5), -1), name="0-d input"),
        Sample((_t(x), _t(x[0])), name="1-d value (error)"),
    ]


def _copy_samples(*cases: tuple[tuple[Any, ...], dict[str, Any], str], shape=(3, 4)) -> Any:
    def samples(dtype: str) -> list[Sample]:
        x = _rand(*shape)
        out = [Sample((_t(x), *a), k, name) for a, k, name in cases]
        a, k, name = cases[0]
        out.append(Sample((_t(x, layout="transposed"), *a), k, name + ", non-contiguous"))
        return out

    return samples


def _multi(fn: Any) -> Any:
    return lambda T, x, *a, **k: tuple(fn(T)(x, *a, **k))


_COPY_SAMPLES = {
    "view_copy": _copy_samples(((12,), {}, "flat"), (([2, -1],), {}, "inferred"),
                               (((5,),), {}, "bad size (error)")),
    "expand_copy": _copy_samples((((2, 3, 4),), {}, "leading dim"), (((2, -1, 4),), {}, "-1"),
                                 (((3, 5),), {}, "bad size (error)"), shape=(1, 4)),
    "permute_copy": _copy_samples((((1, 0),), {}, "swap"), (((0, 0),), {}, "duplicate (error)")),
    "t_copy": _copy_samples(((), {}, "2-d")),
    "unsqueeze_copy": _copy_samples(((-1,), {}, "last"), ((0,), {}, "first")),
    "squeeze_copy": _copy_samples(((), {}, "all"), ((1,), {}, "dim"), (((0, 2),), {}, "dims"),
                                  shape=(1, 3, 1)),
    "transpose_copy": _copy_samples(((0, -1), {}, "swap")),
    "diagonal_copy": _copy_samples(((1,), {}, "offset 1"), ((0, 1, 0), {}, "swapped dims")),
    "select_copy": _copy_samples(((1, -1), {}, "last"), ((1, 4), {}, "out of range (error)")),
    "slice_copy": _copy_samples(((1, -3, 100, 2), {}, "step 2"), ((), {}, "defaults"),
                                ((0, 0, 2, 0), {}, "step 0 (error)")),
    "alias_copy": _copy_samples(((), {}, "2-d")),
    "as_strided_copy": _copy_samples((((2, 2), (1, 3), 1), {}, "overlapping windows"),
                                     (((3,), (5,)), {}, "own offset"),
                                     (((4,), (5,)), {}, "out of bounds (error)")),
}  # fmt: skip
_MULTI_COPY_SAMPLES = {
    "split_copy": _copy_samples(((3, 1), {}, "size 3"), ((-1,), {}, "negative (error)")),
    "split_with_sizes_copy": _copy_samples((([1, 3], 1), {}, "sizes"),
                                           (([1, 2], 1), {}, "bad sum (error)")),
    "unbind_copy": _copy_samples(((1,), {}, "dim 1")),
    "unsafe_split": _copy_samples(((2,), {}, "size 2"), ((3, 1), {}, "dim 1")),
    "unsafe_split_with_sizes": _copy_samples((([2, 1],), {}, "sizes")),
    "unsafe_chunk": _copy_samples(((3, 1), {}, "3 chunks"), ((0,), {}, "0 chunks (error)")),
}  # fmt: skip


def _view_as_real_copy_samples(dtype: str) -> list[Sample]:
    x = _rand(3, 4)
    return [
        Sample((_t(x),), name="complex of the input"),
        Sample((_t(x, layout="transposed"),), name="non-contiguous"),
    ]


def _view_as_complex_copy_samples(dtype: str) -> list[Sample]:
    return [
        Sample((_t(_rand(3, 2), False),), name="pairs"),
        Sample((_t(_rand(3, 2)),), name="requiring grad (error)"),
        Sample((_t(_rand(3, 3), False),), name="last dim 3 (error)"),
    ]


def _unfold_copy_samples(dtype: str) -> list[Sample]:
    x = _rand(3, 5)
    return [
        Sample((_t(x), 1, 2, 2), name="windows"),
        Sample((_t(x, layout="transposed"), 0, 2, 1), name="non-contiguous"),
        Sample((_t(x), 1, 7, 1), name="too large (error)"),
    ]


register(
    OpEntry("fill", lambda T, x, v: T.fill(x, v), _fill_samples),
    OpEntry(
        "view_as_real_copy",
        lambda T, x: T.view_as_real_copy(T.complex(x, x * 2)),
        _view_as_real_copy_samples,
    ),
    OpEntry(
        "view_as_complex_copy",
        lambda T, x: T.view_as_complex_copy(x),
        _view_as_complex_copy_samples,
    ),
    *(
        OpEntry(n, lambda T, x, *a, _n=n, **k: getattr(T, _n)(x, *a, **k), s)
        for n, s in _COPY_SAMPLES.items()
    ),
    *(
        OpEntry(
            n,
            _multi(lambda T, _n=n: getattr(T, _n)),
            s,
            covers=((f"Tensor.{n}",) if n.startswith("unsafe") else ()),
        )
        for n, s in _MULTI_COPY_SAMPLES.items()
    ),
    OpEntry("unfold_copy", lambda T, x, *a: T.unfold_copy(x, *a), _unfold_copy_samples),
)


# --- non-differentiable: storage resizes, Python callables, raw factories -------------------


def _plain(shape: tuple[int, ...] = (2, 3)) -> Any:
    return _t(np.arange(float(np.prod(shape))).reshape(shape), False)


def _samples(*samples: Sample) -> Any:
    return lambda dtype: list(samples)


def _fresh(T: Any, x: Any) -> Any:
    return x.detach().clone()


register(
    OpEntry(
        "Tensor.resize_",
        # the elements a grown tensor gains are uninitialized memory in torch: compare the
        # ones it keeps
        lambda T, x, *s: _fresh(T, x).resize_(*s).reshape(-1)[: x.numel()],
        _samples(
            Sample((_plain(), 3, 2), name="same count"),
            Sample((_plain(), 2), name="shrink"),
            Sample((_plain(), [4, 2]), name="grow"),
            Sample((_plain(), -1), name="negative (error)"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "resize_as_",
        lambda T, x, y: T.resize_as_(_fresh(T, x), y),
        _samples(
            Sample((_plain(), _plain((3,))), name="shrink"),
            Sample((_plain(), 3), name="not a tensor (error)"),
        ),
        supports_grad=False,
        covers=("Tensor.resize_as_",),
    ),
    OpEntry(
        "Tensor.resize",
        lambda T, x, *s: x.resize(*s),
        _samples(
            Sample((_t(_rand(2, 3)), 3, 2), name="same count"),
            Sample((_t(_rand(2, 3)), 4), name="other count (error)"),
        ),
        covers=("Tensor.resize_as",),
    ),
    OpEntry(
        "Tensor.apply_",
        lambda T, x, f: _fresh(T, x).apply_(f),
        _samples(
            Sample((_plain(), lambda v: v * v - 1), name="square"),
            Sample((_plain(), 3), name="not callable (error)"),
            Sample((_t(_rand(2, 3)), abs), name="requires grad (error)"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "Tensor.map_",
        lambda T, x, y, f: _fresh(T, x).map_(y, f),
        _samples(
            Sample((_plain(), _plain((3,)), lambda a, b: a * b), name="broadcast"),
            Sample((_plain(), _plain((2,)), lambda a, b: a), name="bad shape (error)"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "Tensor.map2_",
        lambda T, x, y, z, f: _fresh(T, x).map2_(y, z, f),
        _samples(
            Sample((_plain(), _plain((3,)), _plain((2, 1)), lambda a, b, c: a + b * c), name="3"),
            Sample((_plain(), _plain((3,)), 2, lambda a, b, c: a), name="not a tensor (error)"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "detach_copy",
        lambda T, x: T.detach_copy(x),
        _samples(Sample((_t(_rand(2, 3), layout="transposed"),), name="transposed")),
        supports_grad=False,  # torch records NotImplemented: backward raises
    ),
    OpEntry(
        "empty_strided",
        lambda T, size, stride: T.empty_strided(size, stride).fill_(1.5),
        _samples(
            Sample(((2, 3), (1, 2)), name="column-major"),
            Sample(((2, 3), (1,)), name="rank mismatch (error)"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "frombuffer",
        lambda T, data, **k: T.frombuffer(bytearray(data), dtype=T.int16, **k),
        _samples(
            Sample((b"\x01\x00\x02\x00\x03\x00",), {"count": 2, "offset": 2}, name="count"),
            Sample((b"\x01\x00\x02",), name="odd length (error)"),
        ),
        supports_grad=False,
    ),
    OpEntry(
        "embedding_renorm_",
        lambda T, w, i, m, n: T.embedding_renorm_(_fresh(T, w), i, m, n),
        _samples(
            Sample((_t(_rand(4, 3) * 3, False), tensor_arg(np.array([0, 2, 2]), False), 1.5, 2.0)),
            Sample(
                (_t(_rand(4, 3), False), tensor_arg(np.array([7]), False), 1.0, 1.0),
                name="out of range (error)",
            ),
        ),
        supports_grad=False,
    ),
)


# --- recurrent cells and layers ---------------------------------------------------------------

_GATES = {"rnn_tanh": 1, "rnn_relu": 1, "gru": 3, "lstm": 4}


def _cell_samples(name: str) -> Any:
    k = _GATES[name]

    def samples(dtype: str) -> list[Sample]:
        x, h, c = _t(_rand(3, 4)), _t(_rand(3, 5)), _t(_rand(3, 5))
        w = [_t(_rand(5 * k, 4)), _t(_rand(5 * k, 5)), _t(_rand(5 * k)), _t(_rand(5 * k))]
        hx = [h, c] if k == 4 else h
        return [
            Sample((x, hx, *w), name="biases"),
            Sample((x, hx, w[0], w[1]), name="no biases"),
            Sample((x, hx, w[0], w[1], w[2], None), name="input bias only"),
        ]

    return samples


def _layer_samples(name: str) -> Any:
    k = _GATES[name]

    def weights(layers: int, dirs: int, bias: bool) -> list[Any]:
        out = []
        for layer in range(layers):
            for _ in range(dirs):
                out += [_t(_rand(5 * k, 4 if layer == 0 else 5 * dirs)), _t(_rand(5 * k, 5))]
                out += [_t(_rand(5 * k)), _t(_rand(5 * k))] if bias else []
        return out

    def hidden(n: int, batch: int = 3) -> Any:
        h = _t(_rand(n, batch, 5))
        return [h, _t(_rand(n, batch, 5))] if k == 4 else h

    def samples(dtype: str) -> list[Sample]:
        return [
            Sample((_t(_rand(4, 3, 4)), hidden(1), weights(1, 1, True), True, 1, 0.0, True,
                    False, False), name="one layer"),
            Sample((_t(_rand(3, 4, 4)), hidden(4), weights(2, 2, True), True, 2, 0.0, False,
                    True, True), name="2 layers, bidirectional, batch first"),
            Sample((_t(_rand(4, 3, 4)), hidden(1), weights(1, 1, False), False, 1, 0.0, True,
                    False, False), name="no biases"),
            Sample((_t(_rand(6, 4)), tensor_arg(np.array([3, 2, 1]), False), hidden(2),
                    weights(1, 2, True), True, 1, 0.0, True, True), name="packed"),
        ]  # fmt: skip

    return samples


for _n in _GATES:
    register(
        OpEntry(f"{_n}_cell", lambda T, *a, _n=_n: getattr(T, f"{_n}_cell")(*a), _cell_samples(_n)),
        OpEntry(
            _n,
            lambda T, *a, _n=_n: getattr(T, _n)(*a),
            _layer_samples(_n),
            tolerances={"float32": (1e-4, 1e-4)},
            tolerance_reason="float32 sums over the steps round differently from torch's (whose "
            "MKL sums also vary with the buffers' alignment): outputs reach 1e2, and one near zero "
            "keeps an absolute rounding error of a few 1e-5",
        ),
    )


# --- torch.native_* ---------------------------------------------------------------------------


def _native_norm_samples(dtype: str) -> list[Sample]:
    return [Sample((_t(_rand(2, 4, 3)), _t(_rand(4)), _t(_rand(4))), name="3-d")]


def _stats(r: Any) -> Any:
    # the outputs with their statistics detached (torch's carry no gradient, or an unusable one)
    return (r[0], *(t.detach() for t in r[1:]))


register(
    OpEntry(
        "native_layer_norm",
        lambda T, x, w, b: _stats(T.native_layer_norm(x, [3], w[:3], b[1:],
                                                      1e-5)),
        _native_norm_samples,
    ),
    OpEntry(
        "native_batch_norm",
        lambda T, x, w, b: _stats(T.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)),
        _native_norm_samples,
    ),
    OpEntry(
        "native_group_norm",
        lambda T, x, w, b: _stats(T.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5)),
        _native_norm_samples,
    ),
    OpEntry(
        "native_dropout",
        lambda T, x, w, b: T.native_dropout(x, 0.5, False),
        _native_norm_samples,
    ),
)  # fmt: skip


# --- Tensor.cfloat / Tensor.cdouble: ToCopyBackward0 into complex (checked through abs) -----

register(
    OpEntry(
        "Tensor.cfloat",
        lambda T, x: (x.cfloat() * (1 - 2j)).abs(),
        samples_with(((), {})),
        tolerances={"float64": (1e-5, 1e-4)},
        tolerance_reason="complex64 rounding of a float64 input (its second grad is ~1e-5 noise)",
    ),
    OpEntry(
        "Tensor.cdouble",
        lambda T, x: (x.cdouble() * (1 - 2j)).abs(),
        samples_with(((), {})),
    ),
)


# --- Tensor.new, Tensor.dim_order, Tensor.is_set_to: forward values and errors ---------------


def _new_samples(dtype: str) -> list[Sample]:
    x = _t(_rand(2, 3), False)
    return [
        Sample((x,), name="new()"),
        Sample((x, [[1.5, 2.0], [3.0, 4.0]]), name="data"),
        Sample((x, 2, 0), name="sizes"),
        Sample((x, 2.5), name="float data (error)"),
        Sample((x, 1, "a"), name="bad size (error)"),
        Sample((x, _t(_rand(2), False)), name="other tensor (alias; error in float32)"),
    ]


def _new(T: Any, x: Any, *args: Any) -> Any:
    r = x.new(*args)
    return r.zero_() if args and isinstance(args[0], int) else r  # uninitialised memory


def _layout_samples(dtype: str) -> list[Sample]:
    x = _rand(2, 3, 4)
    return [
        Sample((_t(x, False, layout),), {"ambiguity_check": check}, name=f"{layout} {check}")
        for layout in ("contiguous", "transposed", "sliced")
        for check in (False, True, "bad")
    ]


register(
    OpEntry("Tensor.new", _new, _new_samples, supports_grad=False),
    OpEntry(
        "Tensor.dim_order",
        lambda T, x, **k: T.tensor(x.dim_order(**k)),
        _layout_samples,
        supports_grad=False,
    ),
    OpEntry(
        "Tensor.is_set_to",
        lambda T, x, **k: T.tensor(
            [x.is_set_to(x), x.is_set_to(x[:]), x.is_set_to(x.clone()), x.is_set_to(x[1:])]
        ),
        lambda dtype: [Sample((_t(_rand(3, 4), False, lay),)) for lay in ("contiguous", "sliced")],
        supports_grad=False,
    ),
)
