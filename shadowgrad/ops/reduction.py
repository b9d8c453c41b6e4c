"""Reductions and scans: sum, mean, prod, max/min, amax/amin, argmax/argmin, var/std, norms,
logsumexp, cumsum/cumprod, all/any, nansum/nanmean, count_nonzero, and sum_to_size.

The index-selecting reductions (max/min over a dim, and sort, topk, kthvalue, median, mode in
sorting.py) pick their indices with numpy first and pass them to the op as a plain attribute,
so that the backward formula can read them: it scatters the gradient to the selected indices
(torch's value_selecting_reduction_backward).
"""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _grad_mode
from .._numpy_compat import skipped_by_warnings
from .._tensor import Tensor, _make
from ..autograd.forward_ad import LINEAR
from . import _fmath as _fm
from ._util import expand_array, shape_str, wrap_dim, wrap_dims
from .registry import defop
from .shape import int_arg, int_checked

_GM = _grad_mode.STATE


# --- dims and shapes ------------------------------------------------------------------------


def _axes(dim: Any, ndim: int) -> tuple[int, ...]:
    """The numpy axes a reduction over `dim` covers (None or an empty list: every dim)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    try:
        dims = wrap_dims(dim, ndim)
    except TypeError:
        if isinstance(dim, (tuple, list)) and dim and type(dim[0]) is bool:
            from .._signatures import reraise_op_frame

            reraise_op_frame()  # a bool first: torch's parser reads no int list
            raise  # (the op's own translation, if any)
        if isinstance(dim, np.integer):  # a numpy integer: an int dim, as torch's parser reads it
            dims = wrap_dims(int(dim), ndim)
        elif not (isinstance(dim, Tensor) and dim.ndim == 0 and dim._data.dtype.kind in "iu"):
            raise
        else:
            dims = wrap_dims(int(dim._data), ndim)  # a 0-dim integer tensor is an int dim
    return dims if ndim else ()


def _unsq(t: Tensor, axes: tuple[int, ...], keepdim: bool) -> Tensor:
    """Give a reduced tensor its reduced dims back (as size 1)."""
    if not keepdim:
        for d in sorted(axes):
            t = t.unsqueeze(d)
    return t


def _restore_dims(
    grad: Tensor, shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool
) -> Tensor:
    """Bring a reduced gradient back to the input's rank, then broadcast it."""
    return _unsq(grad, dims, keepdim).expand(shape)


def _restore_dims_raw(
    grad: np.ndarray, shape: tuple[int, ...], dims: tuple[int, ...], keepdim: bool
) -> np.ndarray:
    """_restore_dims on arrays (raw backward)."""
    if not keepdim and dims:
        n = len(shape)
        grad = np.expand_dims(grad, tuple(sorted(d % n for d in dims)))
    return expand_array(grad, shape)


def _reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> list[int]:
    if keepdim:
        return [1 if i in axes else s for i, s in enumerate(shape)]
    return [s for i, s in enumerate(shape) if i not in axes]


def _given_dims(dim: Any, axes: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    """The dims a reduction's node saves: as given (torch's `_saved_dim` of a negative one
    reads 2**64 + dim), else (a 0-d integer tensor, an empty list: every dim, a 0-d input) the
    wrapped axes. Formulas that unsqueeze by them take _nonneg's."""
    if ndim and type(dim) is int:
        return (dim,)
    if ndim and type(dim) in (tuple, list) and dim and builtins.all(type(d) is int for d in dim):
        return tuple(dim)
    return axes


def _nonneg(dim: Any, ndim: int) -> Any:
    """Given dims (see _given_dims) wrapped: what _unsq's sorted unsqueezes need."""
    if dim is None or not ndim:
        return dim
    return tuple(d + ndim if d < 0 else d for d in dim)


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    n = 1
    for d in axes:
        n *= shape[d]
    return n


def _const(arr: Any) -> Tensor:
    return _make(np.asarray(arr))


def _check_nonempty(
    name: str, shape: tuple[int, ...], axes: tuple[int, ...], dim: Any = None
) -> None:
    if (dim is None or (isinstance(dim, (tuple, list)) and not dim)) and 0 in shape:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument."
        )
    given = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    shown = given if len(given) == len(axes) else axes  # torch names the dim as it was given
    for d, g in zip(axes, shown, strict=True):
        if shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {g} to have non-zero size.")


# --- gather / scatter along a dim (kernels of the index-selecting reductions' backward) -------


def _take_fwd(
    self: np.ndarray, dim: int, index: np.ndarray, squeeze: bool, self_sym_sizes: Any
) -> np.ndarray:
    if self.ndim == 0:
        return self.copy()
    r = np.take_along_axis(self, index, dim)
    return r.squeeze(dim) if squeeze else r


def _put_fwd(src: np.ndarray, dim: int, index: np.ndarray, squeeze: bool, sizes: Any) -> np.ndarray:
    if len(sizes) == 0:
        return src.reshape(()).copy()
    out = np.zeros(sizes, src.dtype)
    np.put_along_axis(out, index, np.expand_dims(src, dim) if squeeze else src, dim)
    return out


# Indices along a dim are unique in every use here (a permutation, top-k, one index per slice),
# so a put (not an accumulate) is exact, and the pair is each other's adjoint.
_take_along = defop(
    "_take_along_dim",
    "_TakeAlongDimBackward",
    _take_fwd,
    dtype="keep",
    self=lambda grad, dim, index, squeeze, self_sym_sizes: _put_along(
        grad, dim, index, squeeze, self_sym_sizes
    ),
    jvp=LINEAR,
)
_put_along = defop(
    "_value_selecting_reduction_backward",
    "_ValueSelectingReductionBackward",
    _put_fwd,
    dtype="keep",
    src=lambda grad, dim, index, squeeze, sizes: _take_along(grad, dim, index, squeeze, sizes),
    jvp=LINEAR,
)


def _flip(t: Tensor, dim: int) -> Tensor:
    """torch.flip along one dim, as torch's cumsum/cumprod backward formulas call it (their
    double-backward graphs hold FlipBackward0 nodes)."""
    from .shape import _flip as flip_dims

    return flip_dims(t, (dim,)) if t.ndim else t


def _keepdim_indices(indices: np.ndarray, dim: int, keepdim: bool, sizes: Any) -> np.ndarray:
    """The indices output of a selecting op with its reduced dim kept (size 1); `sizes` is the
    input's shape (a 0-d input has 0-d indices)."""
    return indices if keepdim or not sizes else np.expand_dims(indices, dim)


def _selecting_fwd(
    self: np.ndarray, dim: int, indices: np.ndarray, keepdim: bool, self_sym_sizes: Any
) -> tuple[np.ndarray, np.ndarray]:
    # `indices` is the indices output itself (its dim squeezed unless keepdim), which torch's
    # node saves under that name: MaxBackward0._saved_indices, SortBackward0._saved_indices
    if self.ndim == 0:
        return self.copy(), np.zeros((), np.int64)
    v = np.take_along_axis(self, _keepdim_indices(indices, dim, keepdim, self.shape), dim)
    if not keepdim:
        v = v.squeeze(dim)
    return v, indices.astype(np.int64)  # a copy: the output is not the saved array


def _dim_as_given(dim: Any, d: int) -> int:
    """The dim a selecting op's node saves: as given (torch's `_saved_dim` of a negative one
    reads 2**64 + dim), else (a 0-d integer tensor, ...) the wrapped one, d. The formulas take
    either (numpy's axes and unsqueeze count a negative dim from the end)."""
    return dim if type(dim) is int else d


def _select(op: Any, input: Any, dim: int, idx: np.ndarray, keepdim: bool, sizes: Any) -> Any:
    """Run a `_defselect` op with `idx` computed keepdim-shaped (argmax(..., keepdims=True))."""
    if not keepdim and idx.ndim:
        idx = idx.squeeze(dim)
    return op(input, dim, idx, keepdim, sizes)


def _value_selecting_backward(
    grad: Tensor, dim: int, indices: np.ndarray, keepdim: bool, sizes: Any
) -> Tensor:
    """torch's value_selecting_reduction_backward: the gradient scattered into zeros at the
    picked indices (its double-backward graph holds ScatterBackward0)."""
    if not _GM.grad:  # first order: no graph to shape, one numpy put
        return _put_along(
            grad, dim, _keepdim_indices(indices, dim, keepdim, sizes), not keepdim, sizes
        )
    from .indexing import scatter

    zeros = _make(np.zeros(sizes, grad._data.dtype))
    if not keepdim and len(sizes):
        return scatter(zeros, dim, _make(np.expand_dims(indices, dim)), grad.unsqueeze(dim))
    return scatter(zeros, dim, _make(np.asarray(indices)), grad)


def _defselect(name: str, grad_fn: str) -> Any:
    """An op returning (values, indices) picked at the given indices (keepdim=True shaped)."""
    return defop(
        name,
        grad_fn,
        _selecting_fwd,
        dtype="keep",
        n_outputs=2,
        diff_outputs=(0,),
        self=lambda grads, dim, indices, keepdim, self_sym_sizes: _value_selecting_backward(
            grads[0], dim, indices, keepdim, self_sym_sizes
        ),
        # torch's gather_with_keepdimed_indices: the tangent at the picked indices
        jvp=lambda self_t, dim, indices, keepdim, self_sym_sizes: (
            _take_along(
                self_t,
                dim,
                _keepdim_indices(indices, dim, keepdim, self_sym_sizes),
                not keepdim,
                self_sym_sizes,
            ),
            None,
        ),
    )


# --- sum and mean ---------------------------------------------------------------------------


def _sum_all_fwd(self: np.ndarray, self_sym_sizes: tuple[int, ...], dtype: Any) -> np.ndarray:
    if self.dtype == np.float16:
        return _half_sum(self, None, False, dtype)
    return np.asanyarray(np.add.reduce(self, axis=None, dtype=dtype))  # Note [Sum warnings]


# Note [Sum warnings]: np.sum runs its ufunc from numpy's own module, where shadowgrad's warning
# filter (Note [Floating-point warning filter] in _dtype.py) does not reach: inf + -inf would
# warn "invalid value encountered in reduce". np.add.reduce is called from this module.
def _half_sum(self: np.ndarray, dim: Any, keepdim: bool, dtype: Any) -> np.ndarray:
    """torch accumulates a float16 sum in float32 and rounds once (numpy adds rows in float16
    along a strided axis)."""
    r = np.add.reduce(self, axis=dim, dtype=np.float32, keepdims=keepdim)
    return np.asanyarray(r.astype(np.float16 if dtype is None else dtype))


_sum_all = defop(
    "sum",
    "SumBackward0",
    _sum_all_fwd,
    dtype="keep",
    self=lambda grad, self_sym_sizes: grad.expand(self_sym_sizes),
    raw={"self": lambda grad, self_sym_sizes: expand_array(grad, self_sym_sizes)},
    jvp=LINEAR,
    complex=True,
)


def _sum_dim_fwd(
    self: np.ndarray, dim: tuple[int, ...], keepdim: bool, self_sym_sizes: Any, dtype: Any
) -> np.ndarray:
    if self.dtype == np.float16:
        return _half_sum(self, dim, keepdim, dtype)
    return np.asanyarray(np.add.reduce(self, axis=dim, dtype=dtype, keepdims=keepdim))


_sum_dim = defop(
    "sum.dim_IntList",
    "SumBackward1",
    _sum_dim_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, dim, keepdim, self_sym_sizes: _restore_dims(
        grad, self_sym_sizes, dim, keepdim
    ),
    raw={
        "self": lambda grad, dim, keepdim, self_sym_sizes: _restore_dims_raw(
            grad, self_sym_sizes, dim, keepdim
        )
    },
    jvp=LINEAR,
    complex=True,
)


def _mean_all_fwd(
    self: np.ndarray, self_sym_sizes: Any, self_sym_numel: int, dtype: Any = None
) -> np.ndarray:
    if dtype is not None:  # mean(dtype=): computed on the input cast to it, one node
        self = _mean_cast(self, dtype)
    return np.asanyarray(np.mean(self) if self.size else np.array(np.nan, self.dtype), self.dtype)


def _mean_cast(a: np.ndarray, dtype: Any) -> np.ndarray:
    return (a.real if a.dtype.kind == "c" and np.dtype(dtype).kind != "c" else a).astype(dtype)


def _div_count(grad: Tensor, count: int) -> Tensor:
    """mean's backward divides by the count with div.Scalar (torch's DivBackward1)."""
    from .nn_ops import _div_scalar

    return _div_scalar(grad, count)


_mean_all = defop(
    "mean",
    "MeanBackward0",
    _mean_all_fwd,
    dtype="keep",
    self=lambda grad, self_sym_sizes, self_sym_numel: _div_count(
        grad.expand(self_sym_sizes), self_sym_numel
    ),
    raw={
        "self": lambda grad, self_sym_sizes, self_sym_numel: (
            expand_array(grad, self_sym_sizes) / self_sym_numel
        )
    },
    jvp=LINEAR,
    complex=True,
)


def _mean_dim_fwd(
    self: np.ndarray,
    dim: tuple[int, ...],
    keepdim: bool,
    self_sym_sizes: Any,
    count: int,
    dtype: Any = None,
) -> np.ndarray:
    if dtype is not None:
        self = _mean_cast(self, dtype)
    if count == 0:
        return np.full(_reduced_shape(self.shape, dim, keepdim), np.nan, self.dtype)
    return np.asanyarray(np.mean(self, axis=dim, keepdims=keepdim), self.dtype)


_mean_dim = defop(
    "mean.dim",
    "MeanBackward1",
    _mean_dim_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, dim, keepdim, self_sym_sizes, count: _div_count(
        _restore_dims(grad, self_sym_sizes, dim, keepdim), count
    ),
    raw={
        "self": lambda grad, dim, keepdim, self_sym_sizes, count: (
            _restore_dims_raw(grad, self_sym_sizes, dim, keepdim) / count
        )
    },
    jvp=LINEAR,
    complex=True,
)


def _dtype_given(dtype: Any, name: str) -> D.dtype:
    """A `dtype=` that is not a torch.dtype: the Python type torch's parser reads as one (float:
    float64, ...), or the parser's TypeError."""
    from .._creation import dtype_arg

    return dtype_arg(name, dtype)


def _sum_dtype(input: Tensor, dtype: D.dtype | None, name: str = "sum") -> Any:
    if dtype is not None:
        if type(dtype) is not D.dtype:
            dtype = _dtype_given(dtype, name)
        if dtype is D.bool_ and name != "sum":  # cumsum's, cumprod's kernels have no bool
            raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
        if input._rg and _GM.grad and not (dtype.is_floating_point or dtype.is_complex):
            # an integer result cannot require grad: torch's autograd refuses to record it
            raise RuntimeError(f"Autograd not support dtype: {dtype._short}")
        return dtype._np
    if input.dtype._cat < 2:
        return np.int64
    return None


class _Unset:
    """A parameter left out (torch's parser tells that from any value given). `method`: the
    default of the Tensor method's copy of the function (`_method_form`), as torch words its
    parser's errors for the method apart from the function's."""

    __slots__ = ("method",)

    def __init__(self, method: bool) -> None:
        self.method = method

    def __repr__(self) -> str:
        return "<not given>"


# `dim` not given: torch's full-reduction overload (SumBackward0, MeanBackward0). An explicit
# dim=None selects the dim overload, which reduces every dim but keeps them under keepdim and
# records SumBackward1 / MeanBackward1. The full-reduction overload takes no keepdim: given one
# without a dim, torch's parser refuses the call (`_no_dim_error`).
_ALL_DIMS: Any = _Unset(False)
_ALL_DIMS_M: Any = _Unset(True)
_NO_KEEPDIM: Any = _Unset(False)


def _method_form(fn: Any) -> Any:
    """A copy of fn whose `dim` default is the method's (`_ALL_DIMS_M`), for Tensor's method."""
    import types

    new = types.FunctionType(
        fn.__code__,
        fn.__globals__,
        fn.__name__,
        tuple(_ALL_DIMS_M if d is _ALL_DIMS else d for d in fn.__defaults__),
        fn.__closure__,
    )
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__qualname__ = fn.__qualname__
    new.__annotations__ = fn.__annotations__
    return new


# torch's overloads of the reductions whose full-reduction form takes no keepdim, as its parser
# lists them: (function form, method form), each overload (its signature, fewest and most
# arguments). The last one of each takes the dim.
_SUM_M = (
    ("*, torch.dtype dtype = None", 0, 1),
    ("tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None", 1, 3),
)
_DIM_F = (
    "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
    "Tensor out = None",
    2,
    5,
)
_OVERLOADS: dict[str, tuple[tuple[tuple[str, int, int], ...], ...]] = {
    "sum": ((("Tensor input, *, torch.dtype dtype = None", 1, 2), _DIM_F), _SUM_M),
    "mean": (
        (("Tensor input, *, torch.dtype dtype = None, Tensor out = None", 1, 3), _DIM_F),
        _SUM_M,
    ),
    "prod": (
        (
            ("Tensor input, *, torch.dtype dtype = None", 1, 2),
            (_DIM_F[0].replace("tuple of ints dim", "int dim"), 2, 5),
        ),
        (
            ("*, torch.dtype dtype = None", 0, 1),
            ("int dim, bool keepdim = False, *, torch.dtype dtype = None", 1, 3),
        ),
    ),
    **{
        n: (
            (
                ("Tensor input, *, Tensor out = None", 1, 2),
                ("Tensor input, Tensor other, *, Tensor out = None", 2, 3),
                (
                    "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None",
                    2,
                    4,
                ),
            ),
            (("", 0, 0), ("Tensor other", 1, 1), ("int dim, bool keepdim = False", 1, 2)),
        )
        for n in ("max", "min")
    },
}


def _type_desc(v: Any) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, D.dtype):
        return "torch.dtype"
    return type(v).__name__


def _no_dim_error(name: str, method: bool, kwargs: dict[str, Any]) -> TypeError:
    """torch's argument-parser error for a reduction given keywords (keepdim=, ...) but no dim
    (`x.sum(keepdim=True)`): where only the dim overload takes that many arguments, the missing
    dim; else every overload, each that takes as many arguments followed by the keywords it
    lacks (format_invalid_args, with its dict's order of the keywords: the reverse of the
    call's)."""
    overloads = _OVERLOADS[name][method]
    n = len(kwargs) + (not method)
    plausible = [o for o in overloads if o[1] <= n <= o[2]]
    if len(plausible) == 1 and plausible[0] is overloads[-1]:
        return TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    kw = list(reversed(kwargs.items()))
    got = "".join(f"{k}={_type_desc(v)}, " for k, v in kw)
    got = f"Tensor, {got[:-2]}" if not method else got
    lines = []
    for sig, _, _ in overloads:
        lines.append(f" * ({sig})\n")
        params = sig.split(", ")
        if n == len(params):  # _argcountMatch; the keywords among its last len(kw) "names"
            names = [
                p[p.rfind(" ") + 1 :] for p in params[builtins.max(len(params) - len(kw), 0) :]
            ]
            bad = [k for k, _ in kw if k not in names]
            if bad:
                lines.append(
                    "      didn't match because some of the keywords were incorrect: "
                    f"{', '.join(bad)}\n"
                )
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
        "of:\n" + "".join(lines)
    )


def _given(keepdim: Any, **kw: Any) -> dict[str, Any]:
    """The keywords a call without a dim gave: keepdim, then those not at their default."""
    return {"keepdim": keepdim, **{k: v for k, v in kw.items() if v is not None}}


def sum(
    input: Tensor,
    dim: Any = _ALL_DIMS,
    keepdim: bool = _NO_KEEPDIM,
    *,
    dtype: D.dtype | None = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.sum`."""
    if keepdim is not _NO_KEEPDIM and dim.__class__ is _Unset:
        raise _no_dim_error("sum", dim.method, _given(keepdim, dtype=dtype, out=out))
    if out is not None:
        return _sum_out(input, dim, keepdim, dtype, out)
    try:
        npd = _sum_dtype(input, dtype)
    except TypeError:  # a dtype that is no dtype
        _dtype_parser_error("sum", dim, keepdim, dtype)
        raise
    shape = tuple(input._data.shape)
    if dim.__class__ is _Unset:
        return _sum_all(input, shape, npd)
    try:
        axes = _axes(dim, input.ndim)
    except TypeError:  # a str or a float dim: torch's parser refuses it first
        _dim_parser_error("sum", dim, keepdim)
        raise
    if keepdim is _NO_KEEPDIM:
        keepdim = False
    elif keepdim is not True and keepdim is not False:
        _dim_parser_error("sum", dim, keepdim)
    return _sum_dim(input, axes, keepdim, shape, npd)


def _dtype_parser_error(name: str, dim: Any, keepdim: Any, dtype: Any) -> None:
    """sum's or mean's dtype= that is no dtype, with no dim: torch's listing of both
    overloads (with a dim, the dtype's own error is torch's)."""
    if dim.__class__ is _Unset and keepdim is _NO_KEEPDIM:
        from .._signatures import reraise

        reraise(name, (), {"dtype": dtype})


def _dim_parser_error(name: str, dim: Any, keepdim: Any) -> None:
    """A reduction's dim that is no int nor sequence of ints, or a keepdim that is not a
    bool: torch's argument-parser error (the method form's; the function's wrapper words its
    own), raised when its parser refuses them."""
    from .._signatures import reraise

    reraise(name, (dim,) if keepdim is _NO_KEEPDIM else (dim, keepdim), {})


def _sum_out(input: Tensor, dim: Any, keepdim: bool, dtype: Any, out: Tensor) -> Tensor:
    """sum(..., out=): computed in out's dtype (unless dtype= is given), then written into it."""
    from .. import _grad_mode
    from .shape import resize_out

    if _grad_mode.STATE.grad and (input._rg or out._rg):
        raise RuntimeError(
            "sum(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    return resize_out(sum(input, dim, keepdim, dtype=dtype or out.dtype), out, "sum")


def _prod_out(input: Tensor, dim: Any, keepdim: bool, dtype: Any, out: Tensor) -> Tensor:
    """prod(..., dim, out=): torch's full product takes no out (its parser's error)."""
    from .shape import resize_out

    if dim is None:
        raise TypeError(
            "prod() received an invalid combination of arguments - got (Tensor, out=Tensor), "
            "but expected one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor "
            "input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = "
            "None)\n"
        )
    if _GM.grad and (input._rg or out._rg):
        raise RuntimeError(
            "prod(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    return resize_out(prod(input, dim, keepdim, dtype=dtype or out.dtype), out, "prod")


def _mean_check(name: str, input: Tensor, dtype: D.dtype | None) -> Tensor:
    if dtype is not None:
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(
                f"{name}(): could not infer output dtype. Optional dtype must be either a "
                f"floating point or complex dtype. Got: {dtype._short}"
            )
        return input.to(dtype)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {input.dtype._short}"
        )
    return input


def mean(
    input: Tensor,
    dim: Any = _ALL_DIMS,
    keepdim: bool = _NO_KEEPDIM,
    *,
    dtype: D.dtype | None = None,
) -> Tensor:
    """Mirrors `torch.mean`."""
    if keepdim is not _NO_KEEPDIM and dim.__class__ is _Unset:
        raise _no_dim_error("mean", dim.method, _given(keepdim, dtype=dtype))
    try:
        npd = _mean_dtype("mean", input, dtype)
    except TypeError:  # a dtype that is no dtype
        _dtype_parser_error("mean", dim, keepdim, dtype)
        raise
    shape = tuple(input._data.shape)
    if dim.__class__ is _Unset:
        if npd is None:
            return _mean_all(input, shape, int(input._data.size))
        return _mean_all(input, shape, int(input._data.size), npd)
    try:
        axes = _axes(dim, input.ndim)
    except TypeError:  # a str or a float dim: torch's parser refuses it first
        _dim_parser_error("mean", dim, keepdim)
        raise
    if keepdim is _NO_KEEPDIM:
        keepdim = False
    elif keepdim is not True and keepdim is not False:
        _dim_parser_error("mean", dim, keepdim)
    if npd is None:
        return _mean_dim(input, axes, keepdim, shape, _count(shape, axes))
    return _mean_dim(input, axes, keepdim, shape, _count(shape, axes), npd)


def _mean_dtype(name: str, input: Tensor, dtype: D.dtype | None) -> Any:
    """mean's dtype= as its kernel's computation dtype (None: the input's): torch's mean
    records one MeanBackward node on the input itself, no cast node; a complex input read
    as a real dtype warns as a copy does."""
    if dtype is None:
        _mean_check(name, input, None)
        return None
    if type(dtype) is not D.dtype:
        dtype = _dtype_given(dtype, name)
    if not (dtype.is_floating_point or dtype.is_complex):
        _mean_check(name, input, dtype)  # raises
    if dtype is input.dtype:
        return None
    if input.dtype.is_complex and not dtype.is_complex:
        from .shape import warn_complex_to_real

        warn_complex_to_real()
    return dtype._np


def sum_to_size(input: Tensor, *size: Any) -> Tensor:
    """Sum broadcast dimensions away. Mirrors `torch.Tensor.sum_to_size`."""
    if not size:  # (an empty tuple is a size; nothing is torch's parser error)
        raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
    try:
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            size = tuple(size[0])
        shape = input._data.shape
        if not size:  # torch's sum_to: an empty size sums everything, a 0-d input too
            return sum(input)
        if tuple(size) == tuple(shape):
            return input
        lead = len(shape) - len(size)
        if lead < 0 or builtins.any(
            s != 1 and s != g for s, g in zip(size, shape[lead:], strict=True)
        ):
            raise RuntimeError(
                f"size {{{shape_str(size)}}} is not expandable to size {{{shape_str(shape)}}}."
            )
        dims = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1
        )
        r = input
        if dims:  # (an integer or bool input sums to int64, as sum's)
            r = _sum_dim(input, dims, True, tuple(shape), _sum_dtype(input, None))
        if lead:
            r = r.reshape(size)
        return r
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("sum_to_size", size, {})
        raise


def _all_if_none(dim: Any, sizes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(range(len(sizes))) if dim is None else dim


def _nansum_fwd(
    self: np.ndarray, dim: tuple[int, ...], keepdim: bool, self_sym_sizes: Any, dtype: Any
) -> np.ndarray:
    return np.asarray(np.nansum(self, axis=dim, keepdims=keepdim, dtype=dtype))


_nansum = defop(
    "nansum",
    "NansumBackward0",
    _nansum_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, keepdim, self_sym_sizes: (
        _restore_dims(grad, self_sym_sizes, _all_if_none(dim, self_sym_sizes), keepdim)
        * _const(~np.isnan(self._data))
    ),
    jvp=lambda self, dim, keepdim, self_sym_sizes, dtype, self_t: _nansum(
        _nan_zeroed(self, self_t), dim, keepdim, self_sym_sizes, dtype
    ),
)


def nansum(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.nansum`."""
    if (keepdim is not False and keepdim is not True) or dim.__class__ is bool:
        _dim_parser_error("nansum", dim, keepdim)  # torch's parser refuses them
    if input.dtype.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if dtype is not None:
        if type(dtype) is not D.dtype:
            dtype = _dtype_given(dtype, "nansum")
        if dtype.is_complex:  # the kernel's dispatch on the result type
            raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{dtype._short}'")
    shape = tuple(input._data.shape)
    # no dim: saved as None, as torch's _saved_dim
    axes = None if dim is None else _axes(dim, input.ndim)
    return _nansum(input, axes, keepdim, shape, _sum_dtype(input, dtype))


def nanmean(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: D.dtype | None = None
) -> Tensor:
    """Mirrors `torch.nanmean` (nansum divided by the count of non-NaN values)."""
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got "
            f"{input.dtype._short}"
        )
    if dtype is not None and type(dtype) is not D.dtype:
        dtype = _dtype_given(dtype, "nanmean")
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        _mean_check("nanmean", input, dtype)
    axes = _axes(dim, input.ndim)
    count = np.sum(~np.isnan(input._data), axis=axes, keepdims=keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / _const(np.asarray(count, np.int64))


# --- prod ------------------------------------------------------------------------------------


def _prod_all_fwd(self: np.ndarray, dtype: Any) -> np.ndarray:
    return np.asanyarray(np.multiply.reduce(self, axis=None, dtype=dtype))  # Note [Sum warnings]


def _prod_dim_fwd(self: np.ndarray, dim: int, keepdim: bool, dtype: Any) -> np.ndarray:
    if self.ndim == 0:
        return np.asarray(self, dtype=dtype)
    return np.asanyarray(np.multiply.reduce(self, axis=dim, keepdims=keepdim, dtype=dtype))


def _prod_safe_zeros(grad: Tensor, inp: Tensor, dim: int) -> Tensor:
    """grad times the product of every other element along `dim`, built from exclusive
    cumulative products so that zeros are exact and the result stays differentiable."""
    from .shape import cat

    n = inp._data.shape[dim]
    if n == 0:
        return grad.expand(inp.shape)
    ones_shape = list(inp._data.shape)
    ones_shape[dim] = 1
    ones = _const(np.ones(ones_shape, inp._data.dtype))
    left = cumprod(cat([ones, inp.narrow(dim, 0, n - 1)], dim), dim)
    rev = _flip(inp.narrow(dim, 1, n - 1), dim)
    right = _flip(cumprod(cat([ones, rev], dim), dim), dim)
    return grad * (left * right)


def _prod_backward_all(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    if self.ndim == 0:
        return grad
    zeros = int(np.count_nonzero(self._data == 0))
    if zeros == 0:
        return grad * (result / self)
    if not _GM.grad and zeros > 1:
        return _const(np.zeros(self._data.shape, self._data.dtype))
    return _prod_safe_zeros(grad, self.reshape(-1), 0).view(self.shape)


def _prod_backward_dim(
    grad: Tensor, self: Tensor, result: Tensor, dim: int, keepdim: bool
) -> Tensor:
    if dim < 0:  # as given
        dim += builtins.max(self.ndim, 1)
    if self.ndim == 0:
        return grad
    if not keepdim:
        grad = grad.unsqueeze(dim)
        result = result.unsqueeze(dim)
    if not np.any(self._data == 0):
        return grad * (result / self)
    return _prod_safe_zeros(grad, self, dim)


_prod_all = defop(
    "prod",
    "ProdBackward0",
    _prod_all_fwd,
    dtype="keep",
    self=lambda grad, self, result: _prod_backward_all(grad, self, result),
    jvp=lambda self, self_t, result: _prod_t(self, self_t, result, None, False),
    # the derivative is a polynomial with real coefficients: its conjugate is itself at conj(x)
    complex={
        "self": lambda grad, self, result: _prod_backward_all(grad, self.conj(), result.conj())
    },
)
_prod_dim = defop(
    "prod.dim_int",
    "ProdBackward1",
    _prod_dim_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, result, dim, keepdim: _prod_backward_dim(
        grad, self, result, dim, keepdim
    ),
    jvp=lambda self, dim, keepdim, self_t, result: _prod_t(self, self_t, result, dim, keepdim),
    complex={
        "self": lambda grad, self, result, dim, keepdim: _prod_backward_dim(
            grad, self.conj(), result.conj(), dim, keepdim
        )
    },
)


def prod(
    input: Tensor,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: D.dtype | None = None,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.prod` (out= with a dim only: computed in out's dtype, as sum's)."""
    if out is not None:
        return _prod_out(input, dim, keepdim, dtype, out)
    npd = _sum_dtype(input, dtype)
    if dim is None:
        return _prod_all(input, npd)
    if type(dim) is not int or (keepdim is not False and keepdim is not True):
        from .._signatures import reraise

        reraise("prod", (dim, keepdim) if keepdim is not False else (dim,), {})
        dim = int(dim)  # a numpy integer, a 0-d integer tensor: the int the parser reads
    if not isinstance(dim, int):
        raise TypeError(
            "prod(): argument 'dim' (position 2) must be int, not " + type(dim).__name__
        )
    wrap_dim(dim, input.ndim)  # checked; saved as given (ProdBackward1._saved_dim)
    return _prod_dim(input, dim, keepdim, npd)


# --- scans -----------------------------------------------------------------------------------


def _cumsum_fwd(self: np.ndarray, dim: int, dtype: Any) -> np.ndarray:
    if self.ndim == 0:
        return np.asarray(self, dtype=dtype if dtype is not None else self.dtype).copy()
    if self.dtype == np.float16 and dtype in (None, np.float16):
        # torch's scan accumulates a half in float (its acc type), rounding each output
        r = np.add.accumulate(self, axis=dim, dtype=np.float32)
        return _no_negative_zero(self, r.astype(np.float16, order="C"), dim)
    # torch's scans write a contiguous result whatever the input's layout; the ufunc's
    # accumulate from this module, not np.cumsum (Note [Sum warnings]: inf - inf is quiet)
    r = np.asanyarray(np.add.accumulate(self, axis=dim, dtype=dtype), order="C")  # (ndim>0)
    return _no_negative_zero(self, r, dim)


def _no_negative_zero(self: np.ndarray, r: np.ndarray, dim: int) -> np.ndarray:
    """torch's scan starts its sum at +0, so a leading run of -0.s sums to 0. (numpy's
    accumulate starts from the first element); only a -0. first entry can start such a run."""
    if r.dtype.kind == "f" and self.dtype.kind == "f" and self.shape[dim]:
        first = np.take(self, 0, axis=dim)
        if ((first == 0) & np.signbit(first)).any():
            r += 0.0
    return r


def _cumsum_backward(grad: Tensor, dim: int) -> Tensor:
    # torch's reversed_cumsum: flip, cumsum, flip
    if grad._data.size <= 1 or grad._data.shape[dim] == 1:
        return grad
    return _flip(cumsum(_flip(grad, dim), dim), dim)


_cumsum = defop(
    "cumsum",
    "CumsumBackward0",
    _cumsum_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, dim: _cumsum_backward(grad, dim),
    jvp=LINEAR,
    complex=True,
)


def _cumprod_fwd(self: np.ndarray, dim: int, dtype: Any) -> np.ndarray:
    if self.ndim == 0:
        return np.asarray(self, dtype=dtype if dtype is not None else self.dtype).copy()
    if self.dtype == np.float16 and dtype in (None, np.float16):
        r = np.multiply.accumulate(self, axis=dim, dtype=np.float32)
        return r.astype(np.float16, order="C")
    return np.asanyarray(np.multiply.accumulate(self, axis=dim, dtype=dtype), order="C")


def _cumprod_backward(grad: Tensor, self: Tensor, dim: int, result: Tensor) -> Tensor:
    from .shape import cat, select

    if self._data.size <= 1 or self._data.shape[dim] == 1:
        return grad
    if not np.any(self._data == 0):  # torch's order: output * grad
        return _cumsum_backward(result * grad, dim) / self
    if not _GM.grad:  # first order: torch's O(n) masked formula (its NaN handling included)
        return _make(_cumprod_backward_zeros(grad._data, self._data, dim, result._data))
    # With zeros, under create_graph: torch's O(n^2) differentiable algorithm, each slice
    # written into zeros in place (CopySlices). For each k the gradient is
    # sum_{j>=k} grad_j * prod_{i<=j, i!=k} x_i.
    n = self._data.shape[dim]
    ones_shape = list(self._data.shape)
    ones_shape[dim] = 1
    ones = _const(np.ones(ones_shape, grad._data.dtype))
    out = _make(np.zeros(self._data.shape, grad._data.dtype))
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(self.narrow(dim, 1, n - 1), dim)], dim)
        elif k == n - 1:
            omitted = prod(self.narrow(dim, 0, k), dim, True)
        else:
            until = prod(self.narrow(dim, 0, k), dim, True)
            after = cumprod(self.narrow(dim, k + 1, n - k - 1), dim)
            omitted = cat([until, until.expand_as(after) * after], dim)
        select(out, dim, k).copy_(sum(grad.narrow(dim, k, n - k) * omitted, dim))
    return out


def _cumprod_backward_zeros(g: np.ndarray, x: np.ndarray, dim: int, y: np.ndarray) -> np.ndarray:
    """torch's cumprod_backward without grad mode, for an input holding zeros: before the
    first zero, the reversed cumsum of output * grad over the input; at the first zero, the
    product before it times the grad-weighted cumprod up to the second zero; 0 after it."""
    w = y * g
    zeros_seen = np.cumsum(x == 0, axis=dim)
    before = zeros_seen == 0
    out = np.zeros(x.shape, g.dtype)
    with np.errstate(all="ignore"):
        rev = np.flip(np.cumsum(np.flip(np.where(before, w, 0), dim), axis=dim), dim) / x
    out[before] = rev[before]
    first = zeros_seen == 1
    idx = np.argmax(first, axis=dim, keepdims=True)  # torch's max: the first True, else 0
    at_zero = np.zeros(x.shape, bool)
    np.put_along_axis(at_zero, idx, True, dim)
    at_zero &= first
    between = first & ~at_zero
    with np.errstate(all="ignore"):
        tail = np.cumprod(np.where(between, x, 1), axis=dim) * np.where(first, g, 0)
        head = np.take_along_axis(y, np.maximum(idx - 1, 0), dim)
        head = np.where(idx == 0, 1, head).astype(g.dtype, copy=False)
        val = np.sum(tail, axis=dim, keepdims=True) * head
    out[at_zero] = np.broadcast_to(val, x.shape)[at_zero]
    return out


_cumprod = defop(
    "cumprod",
    "CumprodBackward0",
    _cumprod_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, result: _cumprod_backward(grad, self, dim, result),
    jvp=lambda self, dim, self_t, result: _cumprod_t(self, self_t, dim, result),
    complex={  # torch's cumprod_backward runs on input.conj() and output.conj()
        "self": lambda grad, self, dim, result: _cumprod_backward(
            grad, self.conj(), dim, result.conj()
        )
    },
)


_NO_DIM: Any = object()


def _missing_dim(name: str) -> None:
    raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')


def _cumulative(name: str, op: Any, input: Tensor, dim: Any, dtype: D.dtype | None) -> Tensor:
    """cumsum's and cumprod's argument handling around their op."""
    if dim is _NO_DIM:
        _missing_dim(name)
    try:
        if type(dim) is not int:  # a bool: torch's parser refuses it too
            _dim_parser_error(name, dim, _NO_KEEPDIM)
        d = wrap_dim(dim, input.ndim)  # torch's node saves the dim as given (_saved_dim)
        return op(input, _dim_as_given(dim, d), _sum_dtype(input, dtype, name))
    except Exception:  # torch's parser refuses a dim that is not an int first
        from .._signatures import reraise

        reraise(name, (dim,), {})
        raise


def cumsum(input: Tensor, dim: int = _NO_DIM, *, dtype: D.dtype | None = None) -> Tensor:
    """Mirrors `torch.cumsum`."""
    return _cumulative("cumsum", _cumsum, input, dim, dtype)


def cumprod(input: Tensor, dim: int = _NO_DIM, *, dtype: D.dtype | None = None) -> Tensor:
    """Mirrors `torch.cumprod`."""
    return _cumulative("cumprod", _cumprod, input, dim, dtype)


def logsumexp(input: Tensor, dim: Any = _NO_DIM, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.logsumexp` (stable: the max is subtracted first)."""
    if dim is _NO_DIM:
        _missing_dim("logsumexp")
    if (keepdim is not False and keepdim is not True) or dim.__class__ in (bool, float, str):
        _dim_parser_error("logsumexp", dim, keepdim)  # torch's parser refuses them
    if dim is None:
        _dim_parser_error("logsumexp", dim, keepdim)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        input = input.to(D.get_default_dtype())
    if (
        not keepdim
        and input.ndim
        and input._data.size
        and isinstance(dim, (tuple, list))
        and not dim
    ):
        # torch reduces every dim with keepdim, then fails to squeeze into its 0-d output
        raise RuntimeError(
            f"output with shape [] doesn't match the broadcast shape {shape_str((1,) * input.ndim)}"
        )
    return _logsumexp(input, _axes(dim, input.ndim), keepdim)


def _logsumexp_fwd(self: np.ndarray, dim: tuple[int, ...], keepdim: bool) -> np.ndarray:
    if self.size == 0:
        return np.full(_reduced_shape(self.shape, dim, keepdim), -np.inf, self.dtype)
    m = np.amax(self, axis=dim, keepdims=True)
    m = np.where(np.isinf(m), 0, m).astype(self.dtype, copy=False)
    if self.dtype is D.LD:  # torch's composite in bfloat16: each op's result rounded
        r = D.round_bf16
        s = r(np.log(r(np.sum(r(np.exp(r(self - m))), axis=dim, keepdims=True)))) + m
        return s if keepdim else s.reshape(_reduced_shape(self.shape, dim, False))
    # exp and log as torch's float32 kernels round them (Note [float32 transcendentals])
    s = _fm.log(np.sum(_fm.exp(self - m), axis=dim, keepdims=True)) + m
    return s if keepdim else s.reshape(_reduced_shape(self.shape, dim, False))


_logsumexp = defop(
    "logsumexp",
    "LogsumexpBackward0",
    _logsumexp_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, keepdim, result: (
        _unsq(grad, dim, keepdim) * (self - _unsq(result, dim, keepdim)).exp()
    ),
    jvp=lambda self, dim, keepdim, self_t: _logsumexp_t(self, self_t, dim, keepdim),
    complex={
        "self": lambda grad, self, dim, keepdim, result: (
            _unsq(grad, dim, keepdim) * (self - _unsq(result, dim, keepdim)).exp().conj()
        )
    },
)


def _sum_over(t: Tensor, dim: tuple[int, ...] | None, keepdim: bool) -> Tensor:
    """t summed over `dim` (None: every dim)."""
    if t.ndim == 0:
        return t
    axes = tuple(range(t.ndim)) if dim is None else dim
    return _sum_dim(t, axes, keepdim, tuple(t._data.shape), None)


def _nan_zeroed(self: Tensor, self_t: Tensor) -> Tensor:
    from .pointwise import isnan, where

    return where(isnan(self), 0.0, self_t)


def _logsumexp_t(self: Tensor, self_t: Tensor, dim: tuple[int, ...], keepdim: bool) -> Tensor:
    # torch's logsumexp_jvp: sum(exp(x - amax) * t) / sum(exp(x - amax))
    e = (self - _amax(self, dim, True)).exp() if self._data.size else self.exp()
    return _sum_over(e * self_t, dim, keepdim) / _sum_over(e, dim, keepdim)


def _prod_t(self: Tensor, self_t: Tensor, result: Tensor, dim: Any, keepdim: bool) -> Tensor:
    # (prod_backward(ones, self, result) * self_t).sum(dim, keepdim)
    from .._creation import ones_like

    if dim is None:
        return (_prod_backward_all(ones_like(result), self, result) * self_t).sum()
    g = _prod_backward_dim(ones_like(result), self, result, dim, keepdim)
    return _sum_over(g * self_t, (dim,), keepdim)


def _cumprod_t(self: Tensor, self_t: Tensor, dim: int, result: Tensor) -> Tensor:
    # result * cumsum(self_t / self) without zeros; with zeros, for each k the products that
    # leave x_k out: sum_{k <= j} t_k * prod_{i <= j, i != k} x_i
    from .pointwise import where

    x = self._data
    if x.size <= 1 or x.ndim == 0:
        return self_t
    if not np.any(x == 0):
        return result * cumsum(self_t / self, dim)
    n = x.shape[dim]
    pos = np.arange(n).reshape([n if i == dim else 1 for i in range(x.ndim)])
    out = None
    for k in range(n):
        others = cumprod(where(_const(pos == k), 1.0, self), dim)
        term = self_t.narrow(dim, k, 1) * others * _const((pos >= k).astype(x.dtype))
        out = term if out is None else out + term
    assert out is not None
    return out


def _evenly_read_t(self: Tensor, self_t: Tensor, result: Tensor) -> Tensor:
    # torch's evenly_read_jvp: the mean tangent of the elements equal to the result
    mask = self == result
    return (mask * self_t).sum() / mask.sum()


def _amax_t(self: Tensor, self_t: Tensor, result: Tensor, dim: Any, keepdim: bool) -> Tensor:
    # torch's amaxamin_jvp: where(x == result, t, 0).sum(dim) / count
    from .pointwise import where

    mask = self == (result if keepdim else _unsq(result, dim, False))
    return _sum_over(where(mask, self_t, 0.0), dim, keepdim) / _sum_over(mask, dim, keepdim)


def _var_t(self: Tensor, self_t: Tensor, dim: Any, correction: float, keepdim: bool) -> Tensor:
    # var_backward(self_t, self, dim, correction, keepdim=True).sum(dim, keepdim); for complex
    # self, torch's var_jvp takes the real part of var_backward(self_t.conj(), ...)
    dim = _nonneg(dim, self.ndim)
    if self.is_complex():
        from .pointwise import conj

        t = _sum_over(_var_backward(conj(self_t), self, dim, correction, True), dim, keepdim)
        return t.real
    return _sum_over(_var_backward(self_t, self, dim, correction, True), dim, keepdim)


def _std_t(
    self: Tensor, self_t: Tensor, dim: Any, correction: float, keepdim: bool, result: Tensor
) -> Tensor:
    from .pointwise import masked_fill

    v = _var_t(self, self_t, dim, correction, keepdim)
    return masked_fill(v / (2.0 * result), result == 0, 0)


def _mean_t(self_t: Tensor, dim: Any, keepdim: bool) -> Tensor:
    return _mean_backward_free(self_t, dim, keepdim)


def _mean_backward_free(t: Tensor, dim: Any, keepdim: bool) -> Tensor:
    if t.ndim == 0:
        return t
    axes = tuple(range(t.ndim)) if dim is None else dim
    return _mean_dim(t, axes, keepdim, tuple(t._data.shape), _count(tuple(t._data.shape), axes))


# --- max, min, amax, amin, argmax, argmin ----------------------------------------------------


def _evenly_distribute(grad: Tensor, self: Tensor, result: Tensor) -> Tensor:
    # ties share the gradient evenly; a NaN result sends it to the NaN elements
    # torch's CPU form: zeros masked_fill_ed with grad / count (MaskedFillBackward1)
    x = self._data
    mask = np.isnan(x) if np.isnan(result._data) else x == result._data
    if not _GM.grad:  # first order: no graph to shape
        return grad * _const((mask / np.count_nonzero(mask)).astype(x.dtype, copy=False))
    count = _make(np.asarray(np.count_nonzero(mask), np.int64))
    return _make(np.zeros(x.shape, grad._data.dtype)).masked_fill_(_make(mask), grad / count)


def _amax_backward(
    grad: Tensor, self: Tensor, result: Tensor, dim: tuple[int, ...], keepdim: bool
) -> Tensor:
    # ties share the gradient evenly (torch's scale_grad_by_count)
    r = result._data if keepdim else np.expand_dims(result._data, dim)
    mask = (self._data == r).astype(self._data.dtype)
    return (_unsq(grad, dim, keepdim) / _const(mask.sum(axis=dim, keepdims=True))) * _const(mask)


def _full_fwd(fn: Any) -> Any:
    return lambda self: np.asanyarray(fn(self))


def _amax_fwd(fn: Any) -> Any:
    return lambda self, dim, keepdim: np.asanyarray(fn(self, axis=dim, keepdims=keepdim))


_max_all = defop(
    "max",
    "MaxBackward1",
    _full_fwd(np.max),
    dtype="keep",
    self=lambda grad, self, result: _evenly_distribute(grad, self, result),
    jvp=_evenly_read_t,
)
_min_all = defop(
    "min",
    "MinBackward1",
    _full_fwd(np.min),
    dtype="keep",
    self=lambda grad, self, result: _evenly_distribute(grad, self, result),
    jvp=_evenly_read_t,
)
_amax = defop(
    "amax",
    "AmaxBackward0",
    _amax_fwd(np.amax),
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, keepdim, result: _amax_backward(grad, self, result, dim, keepdim),
    jvp=lambda self, dim, keepdim, self_t, result: _amax_t(self, self_t, result, dim, keepdim),
)
_amin = defop(
    "amin",
    "AminBackward0",
    _amax_fwd(np.amin),
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, keepdim, result: _amax_backward(grad, self, result, dim, keepdim),
    jvp=lambda self, dim, keepdim, self_t, result: _amax_t(self, self_t, result, dim, keepdim),
)
_max_dim = _defselect("max.dim", "MaxBackward0")
_min_dim = _defselect("min.dim", "MinBackward0")


def _return_type(name: str) -> Any:
    from .sorting import return_types

    return getattr(return_types, name)


def _minmax(name: str, input: Tensor, dim: Any, keepdim: bool, other: Any) -> Any:
    import shadowgrad

    if isinstance(dim, Tensor) or isinstance(other, Tensor):
        o = dim if isinstance(dim, Tensor) else other
        return getattr(shadowgrad, "maximum" if name == "max" else "minimum")(input, o)
    x = input._data
    if x.dtype.kind == "c":
        if dim is None:
            raise NotImplementedError(f"\"{name}_all\" not implemented for '{input.dtype._short}'")
        d = wrap_dim(dim, input.ndim)
        if x.ndim and x.shape[d] == 0:  # torch checks the reduced dim first
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        raise RuntimeError(f"{name}(): does not support complex input")
    if dim is None:
        if x.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return (_max_all if name == "max" else _min_all)(input)
    if type(dim) is not int or (keepdim is not False and keepdim is not True):
        # a bool or a float dim, a keepdim not a bool: torch's parser refuses them
        _dim_parser_error(name, dim, _NO_KEEPDIM if keepdim is False else keepdim)
    d = wrap_dim(dim, input.ndim)
    if x.ndim == 0:
        idx = np.zeros((), np.int64)
    else:
        if x.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        idx = (np.argmax if name == "max" else np.argmin)(x, axis=d, keepdims=True)
    op = _max_dim if name == "max" else _min_dim
    return _return_type(name)(
        _select(op, input, _dim_as_given(dim, d), idx, keepdim, tuple(x.shape))
    )


# max/min's dim not given: torch's parser takes no dim=None (its full reduction has no dim)
_NO_MINMAX_DIM: Any = _Unset(False)


def max(
    input: Tensor, dim: Any = _NO_MINMAX_DIM, keepdim: bool = False, *, other: Any = None
) -> Any:
    """Mirrors `torch.max`: full reduction, (values, indices) over a dim, or `maximum`."""
    if dim is _NO_MINMAX_DIM:
        return _minmax("max", input, None, keepdim, other)
    if dim is None:
        _dim_none_error("max", keepdim)
    return _minmax("max", input, dim, keepdim, other)


def min(
    input: Tensor, dim: Any = _NO_MINMAX_DIM, keepdim: bool = False, *, other: Any = None
) -> Any:
    """Mirrors `torch.min`: full reduction, (values, indices) over a dim, or `minimum`."""
    if dim is _NO_MINMAX_DIM:
        return _minmax("min", input, None, keepdim, other)
    if dim is None:
        _dim_none_error("min", keepdim)
    return _minmax("min", input, dim, keepdim, other)


def _dim_none_error(name: str, keepdim: Any) -> None:
    """An explicit dim=None where torch's parser takes an int only: its error."""
    _dim_parser_error(name, None, _NO_KEEPDIM if keepdim is False else keepdim)
    raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")


def amax(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """Mirrors `torch.amax`."""
    if (keepdim is not False and keepdim is not True) or dim.__class__ in (bool, float, str):
        _dim_parser_error("amax", dim, keepdim)  # torch's parser refuses them
    axes = _axes(dim, input.ndim)
    _check_nonempty("amax", tuple(input._data.shape), axes, dim)
    if input._data.size:  # (an empty input: no kernel runs)
        _no_complex("max_values_cpu", input)
    return _amax(input, axes, keepdim)


def amin(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """Mirrors `torch.amin`."""
    if (keepdim is not False and keepdim is not True) or dim.__class__ in (bool, float, str):
        _dim_parser_error("amin", dim, keepdim)  # torch's parser refuses them
    axes = _axes(dim, input.ndim)
    _check_nonempty("amin", tuple(input._data.shape), axes, dim)
    if input._data.size:  # (an empty input: no kernel runs)
        _no_complex("min_values_cpu", input)
    return _amin(input, axes, keepdim)


def _no_complex(kernel: str, input: Tensor) -> None:
    if input._data.dtype.kind == "c":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")


def _arg(name: str, fn: Any, input: Tensor, dim: Any, keepdim: bool) -> Tensor:
    x = input._data
    if x.dtype.kind in "cb":
        kind = "complex" if x.dtype.kind == "c" else "bool"
        raise RuntimeError(f"{name}(): does not support {kind} input")
    if keepdim is not False and keepdim is not True:  # torch's parser takes a bool only
        from .._signatures import reraise

        reraise(name, (dim, keepdim), {})
    if dim is not None and type(dim) is not int:  # x.argmax((0, 1)): torch's parser error
        dim = int_arg(name, "dim", 2, dim)
    if dim is None:
        if x.size == 0:
            raise IndexError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
            )
        r = np.asanyarray(fn(x.reshape(-1)), np.int64)
        return _make(r.reshape((1,) * x.ndim) if keepdim else r)
    d = wrap_dim(dim, input.ndim)
    if x.ndim == 0:
        return _make(np.zeros((), np.int64))
    if x.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return _make(np.asanyarray(fn(x, axis=d, keepdims=keepdim), np.int64))


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.argmax` (the first maximal index; NaN counts as maximal)."""
    return _arg("argmax", np.argmax, input, dim, keepdim)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.argmin` (the first minimal index; NaN counts as minimal)."""
    return _arg("argmin", np.argmin, input, dim, keepdim)


# --- var, std, var_mean, std_mean -------------------------------------------------------------


def _var_fwd(
    self: np.ndarray, dim: tuple[int, ...] | None, correction: float, keepdim: bool
) -> np.ndarray:
    # dim None: a full reduction (its backward differs from dims that cover every dim)
    dim = tuple(range(self.ndim)) if dim is None else dim
    correction = 1 if correction is None else correction  # not given (see _var_args)
    n = _count(self.shape, dim)
    m = np.mean(self, axis=dim, keepdims=True) if n else np.full((), np.nan, self.dtype)
    dev = self - m
    ss = np.sum(
        (dev * dev.conj()).real if self.dtype.kind == "c" else dev * dev, axis=dim, keepdims=keepdim
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asanyarray(ss / builtins.max(0, n - correction), dtype=ss.dtype)


def _var_backward(
    grad: Tensor, self: Tensor, dim: tuple[int, ...] | None, correction: float, keepdim: bool
) -> Tensor:
    # torch's var_backward: (2 / dof) * grad * (self - mean), the number multiplied with
    # mul.Scalar (MulBackward1); grad gets its reduced dims back only for a dim reduction of
    # a tensor of more than one dim (else it broadcasts)
    from .pointwise import _mul_scalar

    shape = tuple(self._data.shape)
    correction = 1 if correction is None else correction  # not given (see _var_args)
    dim = _nonneg(dim, self.ndim)  # as given (see _given_dims)
    if dim is None or self.ndim == 0:
        dof = self._data.size - correction
        mu = self.mean()
        if dof <= 0:
            # 2 / dof is inf: nan where self equals its mean (inf * 0), inf elsewhere
            fill = np.where(self._data == mu._data, np.nan, np.inf).astype(self._data.dtype)
            return grad * _const(fill)
        return _mul_scalar(grad, 2.0 / dof) * (self - mu)
    if not keepdim and self.ndim > 1:
        grad = _unsq(grad, dim, False)
    with np.errstate(divide="ignore"):
        scale = np.float64(2.0) / np.float64(_count(shape, dim) - correction)
    return _mul_scalar(grad, float(scale)) * (self - self.mean(dim, True))


def _std_backward(
    grad: Tensor,
    self: Tensor,
    result: Tensor,
    dim: tuple[int, ...],
    correction: float,
    keepdim: bool,
) -> Tensor:
    from .pointwise import _mul_scalar, masked_fill

    # std of equal values (result 0) has grad 0: torch's (grad / (result * 2)).masked_fill_
    g = masked_fill(grad / _mul_scalar(result, 2), _const(result._data == 0), 0)
    return _var_backward(g, self, dim, correction, keepdim)


def _mean_backward(
    grad: Tensor, self: Tensor, dim: tuple[int, ...] | None, keepdim: bool
) -> Tensor:
    from .nn_ops import _div_scalar

    shape = tuple(self._data.shape)
    dim = tuple(range(self.ndim)) if dim is None else dim
    # torch's mean_backward: sum_backward(grad) / n, a div.Scalar (DivBackward1)
    return _div_scalar(
        _restore_dims(grad, shape, dim, keepdim), builtins.max(_count(shape, dim), 1)
    )


_var = defop(
    "var.correction",
    "VarBackward0",
    _var_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, correction, keepdim: _var_backward(
        grad, self, dim, correction, keepdim
    ),
    jvp=_var_t,
    complex=True,  # torch's var_backward needs no conjugate: 2/dof * grad * (self - mean)
)
_std = defop(
    "std.correction",
    "StdBackward0",
    lambda self, dim, correction, keepdim: np.sqrt(_var_fwd(self, dim, correction, keepdim)),
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, dim, correction, keepdim, result: _std_backward(
        grad, self, result, dim, correction, keepdim
    ),
    jvp=_std_t,
    complex=True,
)


def _defined_sum(grads: Any, first: Any, second: Any) -> Tensor:
    """torch's var_mean/std_mean backward: each output's term where its gradient is defined
    (an unused output's is skipped, not added as zeros), summed."""
    undefined = getattr(grads, "undefined", ())
    if 1 in undefined:
        return first(grads[0])
    if 0 in undefined:
        return second(grads[1])
    return first(grads[0]) + second(grads[1])


def _var_mean_fwd(
    self: np.ndarray, dim: tuple[int, ...] | None, correction: float, keepdim: bool
) -> tuple[np.ndarray, np.ndarray]:
    ax = tuple(range(self.ndim)) if dim is None else dim
    m = _mean_dim_fwd(self, ax, keepdim, None, _count(self.shape, ax))
    return _var_fwd(self, dim, correction, keepdim), m


def _std_mean_fwd(
    self: np.ndarray, dim: tuple[int, ...] | None, correction: float, keepdim: bool
) -> tuple[np.ndarray, np.ndarray]:
    v, m = _var_mean_fwd(self, dim, correction, keepdim)
    return np.sqrt(v), m


_var_mean = defop(
    "var_mean.correction",
    "VarMeanBackward0",
    _var_mean_fwd,
    contiguous=True,
    dtype="keep",
    n_outputs=2,
    self=lambda grads, self, dim, correction, keepdim: _defined_sum(
        grads,
        lambda g: _var_backward(g, self, dim, correction, keepdim),
        lambda g: _mean_backward(g, self, _nonneg(dim, self.ndim), keepdim),
    ),
    jvp=lambda self, self_t, dim, correction, keepdim: (
        _var_t(self, self_t, dim, correction, keepdim),
        _mean_t(self_t, dim, keepdim),
    ),
    complex=True,
)
_std_mean = defop(
    "std_mean.correction",
    "StdMeanBackward0",
    _std_mean_fwd,
    contiguous=True,
    dtype="keep",
    n_outputs=2,
    self=lambda grads, self, dim, correction, keepdim, result: _defined_sum(
        grads,
        lambda g: _std_backward(g, self, result, dim, correction, keepdim),
        lambda g: _mean_backward(g, self, _nonneg(dim, self.ndim), keepdim),
    ),
    jvp=lambda self, self_t, dim, correction, keepdim, result: (
        _std_t(self, self_t, dim, correction, keepdim, result[0]),
        _mean_t(self_t, dim, keepdim),
    ),
    complex=True,
)


_VAR_SIGS = (
    # torch's three overloads of var/std/var_mean/std_mean as its parser lists them: the
    # signature, var's and std's out= (the function's), and the parameter counts (method;
    # function; function of the _mean forms), where an out= the listing does not show counts
    (
        "tuple of ints dim, bool unbiased = True, bool keepdim = False",
        ", *, Tensor out = None",
        3,
        5,
        4,
    ),
    (
        "tuple of ints dim = None, *, Number correction = None, bool keepdim = False",
        ", Tensor out = None",
        4,
        5,
        5,
    ),
    ("bool unbiased = True", "", 1, 2, 2),
)


def _var_parser_error(
    name: str, method: bool, input: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> TypeError:
    """torch's parser error for unbiased beside correction, or unbiased=None."""
    from .shape import parser_got

    n = len(args) + len(kwargs) + (not method)
    bad = ", ".join(k for k in reversed(kwargs) if k != "dim")
    lines = ""
    for sig, out, cm, cf, cfm in _VAR_SIGS:
        if method:
            lines += f" * ({sig})\n"
        else:
            lines += f" * (Tensor input, {sig}{'' if name.endswith('_mean') else out})\n"
        count = cm if method else (cfm if name.endswith("_mean") else cf)
        if count == n and bad:
            lines += f"      didn't match because some of the keywords were incorrect: {bad}\n"
        elif count == n and not kwargs:  # torch marks every argument of the positional call
            marked = ", ".join(f"!{type(a).__name__}!" for a in args)
            marked = marked if method else f"Tensor, {marked}"
            lines += (
                f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            )
    got = parser_got(args if method else (input, *args), kwargs, method)
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{lines}"
    )


def _var_checked(name: str, fn: Any, method: bool) -> Any:
    """fn, refusing unbiased beside correction (and unbiased=None) with torch's parser error."""

    @skipped_by_warnings  # Note [Wrapper frames and warnings]: var's warning names the caller
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) > 1:
            unb = args[1] if len(args) > 1 else kwargs.get("unbiased", False)
            given = len(args) > 1 or "unbiased" in kwargs
            if unb is None or (given and "correction" in kwargs):
                raise _var_parser_error(name, method, input, args, kwargs)
            keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
            if (unb.__class__ is not bool and unb is not False) or keep.__class__ is not bool:
                from .._signatures import parser_error  # a flag not a bool: torch's listing

                err = parser_error(name, args if method else (input, *args), kwargs, method)
                if err is not None:
                    raise err
        return fn(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = fn.__doc__
    call.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    return call


def _var_args(
    name: str, input: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any
) -> tuple[tuple[int, ...] | None, float]:
    if isinstance(dim, bool):  # the legacy overload var(input, unbiased)
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments")
    if correction is None and (unbiased is not None or dim is not None):
        # torch's overload with `unbiased` (the only one when a dim is given): 1 or 0. With
        # neither, its correction overload saves None (_saved_correction), which reads as 1
        correction = 1 if unbiased is None or unbiased else 0
    elif isinstance(correction, Tensor):  # a Number argument: torch reads the tensor's value
        correction = correction.item()
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            f"{name} only support floating point and complex dtypes"
            if name.endswith("_mean")
            else "std and var only support floating point and complex dtypes"
        )
    axes = _axes(dim, input.ndim)
    # torch's reduction factor: input numel over output numel (0 when the output is empty)
    shape = tuple(input._data.shape)
    out_numel = _count(shape, tuple(i for i in range(len(shape)) if i not in axes))
    n = input._data.size // builtins.max(out_numel, 1)
    if n - (1 if correction is None else correction) <= 0:
        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=3,
        )
    return (None if dim is None else _given_dims(dim, axes, input.ndim)), correction


def var(
    input: Tensor,
    dim: Any = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> Tensor:
    """Mirrors `torch.var` (with `correction`, and the legacy `unbiased` overloads)."""
    axes, c = _var_args("var", input, dim, unbiased, keepdim, correction)
    return _var(input, axes, c, keepdim)


def std(
    input: Tensor,
    dim: Any = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> Tensor:
    """Mirrors `torch.std` (with `correction`, and the legacy `unbiased` overloads)."""
    axes, c = _var_args("std", input, dim, unbiased, keepdim, correction)
    return _std(input, axes, c, keepdim)


def var_mean(
    input: Tensor,
    dim: Any = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.var_mean`."""
    axes, c = _var_args("var_mean", input, dim, unbiased, keepdim, correction)
    return _var_mean(input, axes, c, keepdim)


def std_mean(
    input: Tensor,
    dim: Any = None,
    unbiased: bool | None = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.std_mean`."""
    axes, c = _var_args("std_mean", input, dim, unbiased, keepdim, correction)
    return _std_mean(input, axes, c, keepdim)


# --- norms -----------------------------------------------------------------------------------


def _vector_norm_fwd(
    self: np.ndarray, ord: float, dim: tuple[int, ...], keepdim: bool, dtype: Any = None
) -> np.ndarray:
    if dtype is not None:  # dtype=: the norm of the input cast to it, one node (as torch's)
        self = self.astype(dtype)
    if self.dtype == np.float16:  # torch accumulates in float32 and rounds the norm once
        return _vector_norm_fwd(self.astype(np.float32), ord, dim, keepdim).astype(np.float16)
    if self.dtype is D.LD:  # bfloat16: the same, overflowing where float32 does (torch's inf)
        with np.errstate(over="ignore"):
            return D.round_bf16(_vector_norm_fwd(self.astype(np.float32), ord, dim, keepdim))
    if dim is None:  # dim=None (saved as None, as torch's _saved_dim): every dim
        dim = tuple(range(self.ndim))
    a = np.abs(self)
    if ord == 2:
        r = np.sqrt(np.sum(a * a, axis=dim, keepdims=keepdim))
    elif ord == 1:
        r = np.sum(a, axis=dim, keepdims=keepdim)
    elif ord == np.inf:
        r = np.amax(a, axis=dim, keepdims=keepdim)
    elif ord == -np.inf:
        r = np.amin(a, axis=dim, keepdims=keepdim)
    elif ord == 0:
        r = np.sum(a != 0, axis=dim, keepdims=keepdim)
    else:
        with np.errstate(divide="ignore"):
            r = np.power(np.sum(np.power(a, ord), axis=dim, keepdims=keepdim), 1.0 / ord)
    return np.asanyarray(r, dtype=a.dtype)


def _sgn(self: Tensor) -> Tensor:
    """torch's norm formulas read self.sgn(): SgnBackward0 in the graph (a zero gradient for real
    inputs, so double backward returns zeros, not nothing; sgn's own for complex ones)."""
    from .rounding import sgn

    return sgn(self)


def _norm_backward(
    grad: Tensor,
    self: Tensor,
    ord: float,
    norm: Tensor,
    dim: tuple[int, ...],
    keepdim: bool,
    is_complex: bool = False,
) -> Tensor | None:
    from .pointwise import masked_fill

    x = self._data
    dim = _nonneg(dim, self.ndim)  # as given (see _given_dims)
    if not keepdim and self.ndim != 0 and dim is not None:  # dim=None: a 0-d norm broadcasts
        grad = _unsq(grad, dim, False)
        norm = _unsq(norm, dim, False)
    p = float(ord)
    if p == 0.0:
        return None  # torch returns an undefined gradient
    sgn = _sgn(self)
    if p == 1.0:
        return sgn * grad
    zero_norm = _const(norm._data == 0)
    if p == 2.0:
        # the zero vector has grad 0, not nan
        return grad * masked_fill(self / norm, zero_norm, 0)
    if np.isinf(p):
        # ties share the gradient evenly; NaNs count as the extremum
        a = np.abs(x)
        mask = ((a == norm._data) | np.isnan(a)).astype(x.dtype)
        return sgn * ((grad / _const(mask.sum(axis=dim, keepdims=True))) * _const(mask))
    absx = self.abs()
    if p < 1.0:
        scaled = sgn * masked_fill(absx.pow(p - 1), _const(x == 0), 0)
        return scaled * grad * norm.pow(1 - p)
    scaled = sgn * absx.pow(p - 1) if p < 2.0 else self * absx.pow(p - 2)
    return scaled * masked_fill(grad / norm.pow(p - 1), zero_norm, 0)


def _vector_norm_t(
    self: Tensor, ord: float, dim: tuple[int, ...], keepdim: bool, self_t: Tensor, result: Tensor
) -> Tensor:
    """torch's norm_jvp; for complex inputs the products with the tangent are real(conj(a) * t),
    the derivative of the real-valued norm along t."""
    from .._creation import zeros_like
    from .pointwise import isnan, masked_fill

    p = float(ord)
    norm = result
    dim = _nonneg(dim, self.ndim)
    if p == 0.0:
        return zeros_like(norm)
    if self.is_complex():

        def dot(a: Tensor, t: Tensor) -> Tensor:
            return (a.conj() * t).real

    else:

        def dot(a: Tensor, t: Tensor) -> Tensor:
            return a * t

    sgn = _sgn(self)
    if p == 1.0:
        return _sum_over(dot(sgn, self_t), dim, keepdim)
    if p == 2.0:
        return masked_fill(_sum_over(dot(self, self_t), dim, keepdim) / norm, norm == 0, 0)
    if np.isinf(p):
        if not keepdim and self.ndim != 0 and dim is not None:
            norm = _unsq(norm, dim, False)
        is_max = ((self.abs() == norm) | (isnan(self) & isnan(norm))).to(norm.dtype)
        nb = _sum_over(is_max, dim, True) if self.ndim != 0 else is_max
        return _sum_over(dot(sgn, self_t) * is_max / nb, dim, keepdim)
    absx = self.abs()
    if p < 1.0:
        s = _sum_over(masked_fill(absx.pow(p - 1), self == 0, 0) * dot(sgn, self_t), dim, keepdim)
        return s * norm.pow(1 - p)
    if p < 2.0:
        s = _sum_over(absx.pow(p - 1) * dot(sgn, self_t), dim, keepdim)
    else:
        s = _sum_over(absx.pow(p - 2) * dot(self, self_t), dim, keepdim)
    return masked_fill(s / norm.pow(p - 1), norm == 0, 0)


_vector_norm = defop(
    "linalg_vector_norm",
    "LinalgVectorNormBackward0",
    _vector_norm_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, ord, dim, keepdim, result: _norm_backward(
        grad, self, ord, result, dim, keepdim
    ),
    jvp=_vector_norm_t,
    complex={
        "self": lambda grad, self, ord, dim, keepdim, result: _norm_backward(
            grad, self, ord, result, dim, keepdim, True
        )
    },
)


def linalg_vector_norm(
    x: Tensor,
    ord: Any = 2,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: D.dtype | None = None,
) -> Tensor:
    """Mirrors `torch.linalg.vector_norm`: torch's checks in its order (the parser's on ord,
    the input's type, a complex ord, an empty reduction without identity, then dtype=)."""
    if not isinstance(ord, (int, float, complex)) and not hasattr(ord, "__float__"):
        raise TypeError(
            "linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
            f"{type(ord).__name__}"
        )
    D.check_int_scalar(ord)
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {x.dtype._short}"
        )
    if isinstance(ord, complex):
        raise RuntimeError(
            "linalg.vector_norm: Expected a non-complex scalar as the order of norm."
        )
    axes = _axes(dim, x.ndim)
    if (ord < 0 or np.isinf(ord)) and x._data.size == 0:
        shape = tuple(x._data.shape)
        o = f"{float(ord):g}"
        if dim is None:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {o} norm on an empty tensor because "
                "the operation does not have an identity"
            )
        for d in axes:
            if shape[d] == 0:
                raise RuntimeError(
                    f"linalg.vector_norm cannot compute the {o} norm on the dimension {d}"
                    "because this dimension is empty and the operation does not have an identity"
                )
    check_norm_dtype(dtype, x.dtype, "linalg.vector_norm")
    o = ord if type(ord) is int else float(ord)  # an int order stays an int (_saved_ord)
    d = None if dim is None else _given_dims(dim, axes, x.ndim)
    if dtype is not None and dtype is not x.dtype:
        return _vector_norm(x, o, d, keepdim, dtype._np)
    return _vector_norm(x, o, d, keepdim)


def check_norm_dtype(dtype: D.dtype | None, self_dtype: D.dtype, name: str) -> None:
    """torch's check_linalg_norm_dtype: dtype= floating or complex, of the input's kind, and
    no narrower than the input."""
    if dtype is None:
        return
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            f"{name}: dtype should be floating point or complex, but got {dtype._short}"
        )
    if dtype.is_complex != self_dtype.is_complex:
        kind = "complex" if self_dtype.is_complex else "real"
        raise RuntimeError(
            f"{name}: dtype should be {kind} for {kind} inputs, but got {dtype._short}"
        )
    if D.promote_types(self_dtype, dtype) is not dtype:
        raise RuntimeError(
            f"{name}: the dtype of the input ({self_dtype._short}) should be convertible without "
            f"narrowing to the specified dtype ({dtype._short})"
        )


def norm(
    input: Tensor,
    p: Any = "fro",
    dim: Any = None,
    keepdim: bool = False,
    out: Tensor | None = None,
    dtype: D.dtype | None = None,
) -> Tensor:
    """Mirrors `torch.norm`: vector norms here, matrix norms ('nuc', 'fro' over >2 dims)
    through `shadowgrad.linalg.matrix_norm`."""
    try:
        if isinstance(p, str):
            if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
                r = linalg_vector_norm(input, 2, dim, keepdim, dtype=dtype)
            else:
                import shadowgrad

                if p not in ("fro", "nuc"):
                    raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
                d = dim if dim is not None else list(range(input.ndim))
                d = [d] if isinstance(d, int) else d
                r = shadowgrad.linalg.matrix_norm(input, p, d, keepdim, dtype=dtype)
        else:
            r = linalg_vector_norm(input, 2.0 if p is None else p, dim, keepdim, dtype=dtype)
    except TypeError:  # a dim torch's Python hands to linalg_vector_norm by position
        from .._signatures import parser_error

        if not isinstance(p, str) or (p == "fro" and hasattr(dim, "__len__")):
            args = (input, 2 if isinstance(p, str) or p is None else p, dim, keepdim)
            err = parser_error("N.linalg_vector_norm", args, {}, False)
            if err is not None:
                raise err from None
        raise
    if out is not None:
        from .pointwise import _out

        if p == "nuc" and r.dtype is not out.dtype:
            raise RuntimeError(  # torch's matrix_norm out= check
                f"linalg.matrix_norm expected out tensor dtype {r.dtype._short} but got: "
                f"{out.dtype._short}"
            )
        check_out_dtype(r, out)
        return _out(r, out, "norm")
    return r


def check_out_dtype(r: Tensor, out: Tensor | None) -> None:
    """A structured kernel's out= check: out must have the result's dtype exactly."""
    if out is not None and out.dtype is not r.dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype {D.CPP_NAMES[r.dtype]}, but got "
            f"{D.CPP_NAMES[out.dtype]} instead"
        )


# --- boolean and counting reductions ----------------------------------------------------------


def _logical(name: str, fn: Any, input: Tensor, dim: Any, keepdim: bool) -> Tensor:
    x = input._data
    if isinstance(dim, (tuple, list)) and not dim:  # dim=(): no dim reduced, each element
        r = x.astype(bool)
        return _make(r.astype(np.uint8) if x.dtype == np.uint8 else r)
    r = np.asanyarray(fn(x, axis=_axes(dim, x.ndim), keepdims=keepdim))
    if not x.flags.c_contiguous:  # torch's result is contiguous (Note [Result layout])
        r = np.array(r, order="C")
    return _make(r.astype(np.uint8) if x.dtype == np.uint8 else r)


def all(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.all` (bool result; uint8 stays uint8)."""
    if keepdim.__class__ is not bool:
        _logical_parse("all", input, dim, keepdim)
    try:
        return _logical("all", np.all, input, dim, keepdim)
    except TypeError:  # a dim torch's parser refuses: its error
        _logical_parse("all", input, dim, keepdim)
        raise


def any(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Mirrors `torch.any` (bool result; uint8 stays uint8)."""
    if keepdim.__class__ is not bool:
        _logical_parse("any", input, dim, keepdim)
    try:
        return _logical("any", np.any, input, dim, keepdim)
    except TypeError:  # a dim torch's parser refuses: its error
        _logical_parse("any", input, dim, keepdim)
        raise


def _logical_parse(name: str, input: Tensor, dim: Any, keepdim: Any) -> None:
    """torch's parser error for all/any's arguments as the call gave them (the function form's
    wrapper words it again from its own arguments)."""
    from .._signatures import _type_name, reraise_as_called

    reraise_as_called(name, ("dim", "keepdim"), (dim, keepdim), self=input, depth=1)
    if keepdim.__class__ is not bool:  # (the parser takes a bool only)
        raise TypeError(f"{name}(): argument 'keepdim' must be bool, not {_type_name(keepdim)}")


def hash_tensor(input: Tensor, dim: Any = None, *, keepdim: bool = False, mode: int = 0) -> Tensor:
    """Mirrors `torch.hash_tensor`: the xor of the elements' bits, each read as a 64-bit float
    (floating dtypes) or a 64-bit integer, as uint64."""
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    x = input._data
    if x.dtype.kind == "c":
        raise NotImplementedError(f"\"xor_sum_cpu\" not implemented for '{input.dtype._short}'")
    axes = _axes(dim, x.ndim)
    if x.size == 0 and (dim is None or (isinstance(dim, (tuple, list)) and not dim)):
        raise RuntimeError(
            "hash_tensor: Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument."
        )
    for d in axes:
        if x.shape[d] == 0:
            raise IndexError(f"hash_tensor: Expected reduction dim {d} to have non-zero size.")
    bits = np.asarray(x, np.float64 if x.dtype.kind == "f" else np.int64).view(np.uint64)
    return _make(np.asarray(np.bitwise_xor.reduce(bits, axis=axes, keepdims=keepdim)))


def _count_nonzero_error(
    method: bool, input: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> TypeError:
    """torch's parser error for count_nonzero given a keyword it lacks (`keepdim=`)."""
    from .shape import parser_got

    head = "" if method else "Tensor input, "
    n = len(args) + len(kwargs) + (not method)
    bad = ", ".join(k for k in reversed(kwargs) if k != "dim")
    lines = ""
    for sig in (f"{head}int dim = None", f"{head}tuple of ints dim"):
        lines += f" * ({sig})\n"
        if n == 1 + (not method):  # one argument besides input, as each overload takes
            lines += f"      didn't match because some of the keywords were incorrect: {bad}\n"
    got = parser_got(args if method else (input, *args), kwargs, method)
    return TypeError(
        f"count_nonzero() received an invalid combination of arguments - got ({got}), but "
        f"expected one of:\n{lines}"
    )


def _count_nonzero_checked(method: bool) -> Any:
    """count_nonzero, refusing keywords other than dim with torch's parser error."""

    @skipped_by_warnings  # Note [Wrapper frames and warnings]
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs and builtins.any(k != "dim" for k in kwargs):
            raise _count_nonzero_error(method, input, args, kwargs)
        return count_nonzero(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = "count_nonzero"
    call.__doc__ = count_nonzero.__doc__
    call.__wrapped__ = count_nonzero  # type: ignore[attr-defined] # its parameters
    return call


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """Mirrors `torch.count_nonzero`."""
    x = input._data
    return _make(np.asarray(np.count_nonzero(x, axis=_axes(dim, x.ndim)), np.int64))


def _bad_dim(v: Any) -> bool:
    return isinstance(v, (tuple, list, float, str))


def _arg_desc(v: Any) -> str:
    if isinstance(v, (tuple, list)):
        kinds = ", ".join(type(x).__name__ for x in v)
        return f"{type(v).__name__} of " + (f"[{kinds}]" if isinstance(v, list) else f"({kinds})")
    return type(v).__name__


def _prod_none_dim_error(method: bool, positional: bool) -> TypeError:
    """torch's parser error for prod(None) / prod(dim=None): prod's dim overload takes an int."""
    got = "NoneType" if positional else "dim=NoneType"
    if method:
        got += "" if positional else ", "
        sigs = (
            " * (*, torch.dtype dtype = None)\n"
            " * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n"
        )
    else:
        got = f"Tensor, {got}"
        sigs = (
            " * (Tensor input, *, torch.dtype dtype = None)\n"
            " * (Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)\n"
        )
    return TypeError(
        f"prod() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n{sigs}"
    )


def _max_keyword_dim_error(name: str, method: bool, dim: Any) -> TypeError:
    """torch's parser error for max/min given `dim=` of no int (`x.max(dim=(0, 1))`)."""
    tn = type(dim).__name__
    if method:
        bad = "      didn't match because some of the keywords were incorrect: dim\n"
        got = f"dim={tn}, "
        sigs = f" * ()\n{bad} * (Tensor other)\n{bad} * (int dim, bool keepdim = False)\n"
    else:
        got = f"Tensor, dim={tn}"
        sigs = (
            " * (Tensor input, *, Tensor out = None)\n"
            " * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)\n"
        )
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{sigs}"
    )


def _parser_checked(name: str, fn: Any, method: bool) -> Any:
    """torch's argument-parser error for a dim that is no int (`x.max((0, 1))`), in the method's
    or the function's wording; the other calls go straight to fn."""
    reduce_ = name == "prod"

    def error(v: Any) -> TypeError:
        tn = type(v).__name__
        if method:
            if reduce_:
                sigs = [
                    " * (*, torch.dtype dtype = None)\n",
                    " * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n",
                ]
            else:
                bad = (
                    f"      didn't match because some of the arguments have invalid types: "
                    f"(!{_arg_desc(v)}!)\n"
                )
                sigs = [
                    " * ()\n",
                    bad,
                    " * (Tensor other)\n",
                    bad,
                    " * (int dim, bool keepdim = False)\n",
                ]
            got = tn
        else:
            if reduce_:
                sigs = [
                    " * (Tensor input, *, torch.dtype dtype = None)\n",
                    " * (Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = "
                    "None, Tensor out = None)\n",
                ]
            else:
                sigs = [
                    " * (Tensor input, *, Tensor out = None)\n",
                    " * (Tensor input, Tensor other, *, Tensor out = None)\n",
                    " * (Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out "
                    "= None)\n",
                ]
            got = f"Tensor, {tn}"
        return TypeError(
            f"{name}() received an invalid combination of arguments - got ({got}), but expected "
            "one of:\n" + "".join(sigs)
        )  # fmt: skip

    def call(input: Any, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs and _bad_dim(args[0]):
            raise error(args[0])
        if reduce_ and method and "out" in kwargs:  # the method takes no out=
            raise TypeError("prod() got an unexpected keyword argument 'out'")
        if reduce_ and ((args[:1] == (None,) and len(args) == 1) or kwargs == {"dim": None}):
            raise _prod_none_dim_error(method, bool(args))
        if reduce_ and len(args) > 1 and args[0] is None:  # prod(None, True): the dim overload's
            raise TypeError(
                f"prod(): argument 'dim' (position {1 + (not method)}) must be int, not NoneType"
            )
        if not reduce_ and (len(kwargs) == 1 and not args and _bad_dim(kwargs.get("dim"))):
            raise _max_keyword_dim_error(name, method, kwargs["dim"])
        if not reduce_ and method and len(args) == 3 and not kwargs:  # x.max(1, True, True)
            from .shape import parser_got

            raise TypeError(
                f"{name}() received an invalid combination of arguments - got "
                f"({parser_got(args, {}, True)}), but expected one of:\n * ()\n * (Tensor "
                "other)\n * (int dim, bool keepdim = False)\n"
            )
        if kwargs and not args and "keepdim" in kwargs and "dim" not in kwargs:
            given = {k: v for k, v in kwargs.items() if v is not None or k == "keepdim"}
            raise _no_dim_error(name, method, given)
        return fn(input, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = fn.__doc__
    call.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    if not reduce_:  # for ops/__init__'s out= wrapper, which takes out= before this sees it
        call.no_dim_error = lambda given: _no_dim_error(name, method, given)  # type: ignore[attr-defined]
    return call


METHODS = {
    "sum": _method_form(sum),
    "mean": _method_form(mean),
    "sum_to_size": sum_to_size,
    "nansum": nansum,
    "nanmean": nanmean,
    "prod": _parser_checked("prod", prod, True),
    "cumsum": cumsum,
    "cumprod": cumprod,
    "logsumexp": logsumexp,
    "max": _parser_checked("max", max, True),
    "min": _parser_checked("min", min, True),
    "amax": amax,
    "amin": amin,
    "argmax": int_checked("argmax", argmax, "dim", none_ok=True),
    "argmin": int_checked("argmin", argmin, "dim", none_ok=True),
    "var": _var_checked("var", var, True),
    "std": _var_checked("std", std, True),
    "norm": norm,
    "all": all,
    "any": any,
    "count_nonzero": _count_nonzero_checked(True),
}
FUNCTIONS = {
    "sum": sum,
    "mean": mean,
    "nansum": nansum,
    "nanmean": nanmean,
    "prod": _parser_checked("prod", prod, False),
    "cumsum": cumsum,
    "cumprod": cumprod,
    "logsumexp": logsumexp,
    "max": _parser_checked("max", max, False),
    "min": _parser_checked("min", min, False),
    "amax": amax,
    "amin": amin,
    "argmax": argmax,
    "argmin": argmin,
    "var": _var_checked("var", var, False),
    "std": _var_checked("std", std, False),
    "var_mean": _var_checked("var_mean", var_mean, False),
    "std_mean": _var_checked("std_mean", std_mean, False),
    "norm": norm,
    "_linalg_vector_norm": linalg_vector_norm,
    "all": all,
    "any": any,
    "count_nonzero": _count_nonzero_checked(False),
}


def _equal_other(other: Any, pos: int) -> None:
    if not isinstance(other, Tensor):
        raise TypeError(
            f"equal(): argument 'other' (position {pos}) must be Tensor, not {type(other).__name__}"
        )


def _equal_method(self: Tensor, other: Tensor) -> bool:
    """Mirrors `torch.Tensor.equal` (its parser counts other as position 1)."""
    _equal_other(other, 1)
    return equal(self, other)


def equal(input: Tensor, other: Tensor) -> bool:
    """True if both have the same size and elements. Mirrors `torch.equal`."""
    _equal_other(other, 2)
    if input._data.shape != other._data.shape:
        return False
    return bool(np.array_equal(input._data, other._data))


def allclose(
    input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """|input - other| <= atol + rtol * |other| everywhere. Mirrors `torch.allclose`."""
    try:
        if equal_nan is not False and equal_nan is not True:  # torch's parser: a bool only
            raise TypeError("equal_nan")  # (the parser's error, from the except below)
        if input.dtype is not other.dtype:
            raise RuntimeError(f"{input.dtype._short} did not match {other.dtype._short}")
        from .pointwise import isclose
        from .registry import infer_size

        infer_size(tuple(input._data.shape), tuple(other._data.shape))  # torch's broadcast error
        # torch's allclose is isclose(...).all(): its rtol/atol checks, in the tensors' dtype
        close = isclose(input, other, rtol=rtol, atol=atol, equal_nan=equal_nan)
        return bool(close._data.all().item())  # (a meta tensor's item() refuses, as torch's)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("allclose", (other, rtol, atol, equal_nan), {})
        raise


METHODS["equal"] = _equal_method
FUNCTIONS["equal"] = equal
METHODS["hash_tensor"] = FUNCTIONS["hash_tensor"] = hash_tensor
METHODS["allclose"] = allclose
FUNCTIONS["allclose"] = allclose


def _in_place_scans() -> dict[str, Any]:
    from .inplace import make_inplace

    def scan_(fn: Any) -> Any:
        method = make_inplace(fn)

        def scan(self: Tensor, dim: int = _NO_DIM, *, dtype: D.dtype | None = None) -> Tensor:
            if dim is _NO_DIM:
                _missing_dim(method.__name__)
            if dtype is not None and dtype is not self.dtype:
                raise RuntimeError(
                    f"Bad in-place call: input tensor dtype {D.CPP_NAMES[self.dtype]} and output "
                    f"tensor dtype {D.CPP_NAMES[dtype]} should match"
                )
            return method(self, dim)

        scan.__name__ = scan.__qualname__ = method.__name__
        return scan

    return {"cumsum_": scan_(cumsum), "cumprod_": scan_(cumprod)}


METHODS.update(_in_place_scans())
