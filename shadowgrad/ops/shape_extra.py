"""More shape and indexing ops: repeat_interleave, unique, unfold, splits, the cumulative
max/min and logcumsumexp scans, aminmax, scatter-style copies, index builders, ...

Where torch builds an op from other ops (repeat_interleave, hsplit, cartesian_prod, trapezoid)
it is built here from the same ops, so the recorded nodes are torch's; ops with their own
torch node are declared with `defop`.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from .. import _creation, _grad_mode
from .. import _dtype as D
from .._tensor import Tensor, _make
from ..autograd.forward_ad import LINEAR
from . import shape as S
from ._util import shape_str, wrap_dim
from .indexing import _gather, _scatter_add, _zeros, index_select
from .inplace import make_inplace
from .reduction import _amax_backward
from .registry import deflistop, defop
from .rounding import _not_implemented
from .sorting import return_types

# --- repeat_interleave ------------------------------------------------------------------------


def _repeats_index(repeats: np.ndarray, output_size: int | None) -> np.ndarray:
    """torch.repeat_interleave(repeats): each position i repeated repeats[i] times."""
    if repeats.size and repeats.min() < 0:
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and int(repeats.sum()) != output_size:
        raise RuntimeError("allocated size does not match required size")
    return np.repeat(np.arange(repeats.size, dtype=np.int64), repeats)


def _int_repeats(t: Tensor, what: str) -> np.ndarray:
    a = t._data
    if a.dtype.kind not in "iu":
        raise NotImplementedError(f"\"{what}\" not implemented for '{D._FROM_NP[a.dtype]._short}'")
    return a.astype(np.int64)


def _repeat_interleave_error(
    method: bool, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> TypeError:
    """torch's parser error for repeats that are neither an int nor a Tensor (a float, a
    list), or a dim that is no int."""
    tail = "int dim = None, *, int output_size = None"
    if method:
        lines = f" * (Tensor repeats, {tail})\n * (int repeats, {tail})\n"
    else:
        lines = (
            f" * (Tensor input, Tensor repeats, {tail})\n * (Tensor repeats, *, int output_size "
            "= None)\n"
        )
        if len(args) == 3 and not kwargs:  # the one overload taking three: each marked
            marked = ", ".join(
                f"!{type(a).__name__}!" if i else "Tensor" for i, a in enumerate(args)
            )
            lines += (
                f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            )
        lines += f" * (Tensor input, int repeats, {tail})\n"
    got = S.parser_got(args, kwargs, method)
    return TypeError(
        f"repeat_interleave() received an invalid combination of arguments - got ({got}), but "
        f"expected one of:\n{lines}"
    )


def _repeat_interleave_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Tensor.repeat_interleave: torch's parser error in the method's wording."""

    def is_int(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    reps = args[0] if args else kwargs.get("repeats")
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    size = kwargs.get("output_size")
    if not (isinstance(reps, Tensor) or is_int(reps)) or not (dim is None or is_int(dim)):
        raise _repeat_interleave_error(True, args, kwargs)
    if not (size is None or is_int(size)):
        raise _repeat_interleave_error(True, args, kwargs)
    return repeat_interleave(self, *args, **kwargs)


def repeat_interleave(
    input: Tensor,
    repeats: Any = None,
    dim: int | None = None,
    *,
    output_size: int | None = None,
) -> Tensor:
    """Mirrors `torch.repeat_interleave`: an int repeat records unsqueeze/expand/clone/view as
    torch's does; a tensor of repeats is one index_select; a lone tensor gives the indices."""
    if repeats is None:  # torch.repeat_interleave(repeats)
        if input._data.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        idx = _repeats_index(_int_repeats(input, "repeat_interleave_cpu"), output_size)
        return _make(idx.astype(input._data.dtype))
    x = S.flatten(input) if dim is None else input
    d = 0 if dim is None else wrap_dim(dim, input.ndim)
    if isinstance(repeats, Tensor):
        r = repeats._data
        if r.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        n = x._data.shape[d] if x.ndim else None
        if n is None:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if r.size == 1:
            r = np.broadcast_to(r.reshape(1), (n,))
        elif r.shape[0] != n:
            raise RuntimeError(
                "repeats must have the same size as input along dim, but got "
                f"repeats.size(0) = {r.shape[0]} and input.size({d}) = {n}"
            )
        idx = _repeats_index(_int_repeats(_make(r), "repeat_interleave_cpu"), output_size)
        return index_select(x, d, _make(idx))
    if isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer)):
        args = (input, repeats) if dim is None else (input, repeats, dim)
        raise _repeat_interleave_error(False, args, {})
    reps = int(repeats)
    if reps < 0:
        raise RuntimeError("Repeats must be non-negative")
    u = S.unsqueeze(x, d + 1)
    shape = list(u._data.shape)
    shape[d + 1] = reps
    if output_size is not None:
        want = x._data.shape[d] * reps
        if output_size != want:
            raise RuntimeError(
                f"repeat_interleave: Invalid output_size, expected {want} but got {output_size}"
            )
    e = S.clone(S.expand(u, tuple(shape)))
    return S.flatten(e, d, d + 1)


# --- unique, unique_consecutive -------------------------------------------------------------

_NO_JVP = (
    "Trying to use forward AD with {} that does not support it because it has not been "
    "implemented yet.\nPlease file an issue to PyTorch at "
    "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can "
    "prioritize its implementation or submit a PR adding the implementation to derivatives.yaml"
)


def _no_derivative(aten: str) -> tuple[Any, Any]:
    """A formula and a forward-AD rule that raise torch's errors for an op without either."""

    def formula(grads: Any) -> Tensor:
        raise NotImplementedError(f"the derivative for '{aten}' is not implemented.")

    def rule(self_t: Any) -> Any:
        raise NotImplementedError(_NO_JVP.format(aten))

    return formula, rule


def _runs(rows: np.ndarray) -> np.ndarray:
    """Where each run of equal consecutive rows starts (NaN never equals NaN, as in torch)."""
    if rows.shape[0] == 0:
        return np.zeros(0, bool)
    new = np.ones(rows.shape[0], bool)
    ne = rows[1:] != rows[:-1]
    new[1:] = ne.reshape(ne.shape[0], math.prod(ne.shape[1:])).any(axis=1)
    return new


def _consecutive_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first row of each run, each row's run number and each run's length."""
    new = _runs(rows)
    inverse = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, rows.shape[0]))
    return rows[starts], inverse.astype(np.int64), counts.astype(np.int64)


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted distinct rows (lexicographic, NaN last and never merged), with inverse, counts."""
    n = rows.shape[0]
    flat = rows.reshape(n, math.prod(rows.shape[1:]))
    order = np.lexsort(flat.T[::-1]) if flat.shape[1] else np.arange(n)
    out, inv_sorted, counts = _consecutive_rows(rows[order])
    inverse = np.empty(n, np.int64)
    inverse[order] = inv_sorted
    return out, inverse, counts


def _unique2_fwd(
    self: np.ndarray, sorted: bool, return_inverse: bool, return_counts: bool
) -> tuple[np.ndarray, ...]:
    # torch's CPU unique sorts whatever `sorted` says
    out, inverse, counts = _unique_rows(self.reshape(-1))
    return out, inverse.reshape(self.shape), counts


def _unique_dim_fwd(
    self: np.ndarray, dim: int, sorted: bool, return_inverse: bool, return_counts: bool
) -> tuple[np.ndarray, ...]:
    out, inverse, counts = _unique_rows(np.moveaxis(self, dim, 0))
    return np.moveaxis(out, 0, dim), inverse, counts  # torch's result is moved back, a view


def _unique_consecutive_fwd(
    self: np.ndarray, return_inverse: bool, return_counts: bool, dim: int | None
) -> tuple[np.ndarray, ...]:
    if dim is None:
        out, inverse, counts = _consecutive_rows(self.reshape(-1))
        return out, inverse.reshape(self.shape), counts
    out, inverse, counts = _consecutive_rows(np.moveaxis(self, dim, 0))
    return np.moveaxis(out, 0, dim), inverse, counts


def _defunique(name: str, grad_fn: str, fwd: Any) -> Any:
    formula, rule = _no_derivative(name)
    return defop(
        name, grad_fn, fwd, dtype="keep", n_outputs=3, diff_outputs=(0,), jvp=rule, self=formula
    )


_unique2 = _defunique("_unique2", "Unique2Backward0", _unique2_fwd)
_unique_dim = _defunique("unique_dim", "UniqueDimBackward0", _unique_dim_fwd)
_unique_consecutive = _defunique(
    "unique_consecutive", "UniqueConsecutiveBackward0", _unique_consecutive_fwd
)


def _unique_dim_arg(input: Tensor, dim: int) -> int:
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, input.ndim)
    shape = input._data.shape
    if 0 in shape and shape[d] != 0:
        raise RuntimeError(
            "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"
        )
    return d


def _unique_not_complex(input: Tensor, dim: int | None) -> None:
    """torch's unique kernels have no complex version."""
    if input.dtype.is_complex:
        kernel = "unique" if dim is None else "unique_dim"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")


def _pick(res: Any, return_inverse: bool, return_counts: bool) -> Any:
    out, inverse, counts = res
    if return_inverse and return_counts:
        return out, inverse, counts
    if return_inverse:
        return out, inverse
    if return_counts:
        return out, counts
    return out


def unique(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """Mirrors `torch.unique` (always sorted, as torch's CPU kernel; NaNs are all distinct)."""
    if (
        (sorted is not True and sorted is not False)
        or (return_inverse is not False and return_inverse is not True)
        or (return_counts is not False and return_counts is not True)
        or (dim is not None and type(dim) is not int)
    ):  # torch's unique passes them on by keyword (the dim second): its parser's error
        from .._signatures import reraise

        flags = {"sorted": sorted, "return_inverse": return_inverse, "return_counts": return_counts}
        if dim is None:
            reraise("unique.flags", (), flags)  # (torch.unique's wrapper: not under _unique2)
        reraise("unique_dim", (dim,), flags, False, (input,))
    _unique_not_complex(input, dim)
    if dim is None:
        res = _unique2(input, bool(sorted), bool(return_inverse), bool(return_counts))
    else:
        d = _unique_dim_arg(input, dim)
        res = _unique_dim(input, d, bool(sorted), bool(return_inverse), bool(return_counts))
    return _pick(res, return_inverse, return_counts)


def unique_consecutive(
    input: Tensor,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """Mirrors `torch.unique_consecutive`."""
    if (
        (return_inverse is not False and return_inverse is not True)
        or (return_counts is not False and return_counts is not True)
        or (dim is not None and type(dim) is not int)
    ):  # torch's Python passes them on by keyword: its parser's error
        from .._signatures import reraise

        kw = {"return_inverse": return_inverse, "return_counts": return_counts, "dim": dim}
        reraise("unique_consecutive", (), kw)
    _unique_not_complex(input, dim)
    d = None if dim is None else _unique_dim_arg(input, dim)
    res = _unique_consecutive(input, bool(return_inverse), bool(return_counts), d)
    return _pick(res, return_inverse, return_counts)


# --- unfold -------------------------------------------------------------------------------------


def _unfold_fwd(
    self: np.ndarray, dim: int, size: int, step: int, self_sym_sizes: Any
) -> np.ndarray:
    if self.ndim == 0:
        return np.lib.stride_tricks.as_strided(self, (size,), (self.itemsize,))
    shape = list(self.shape)
    strides = list(self.strides)
    shape[dim] = (shape[dim] - size) // step + 1
    strides[dim] *= step
    return np.lib.stride_tricks.as_strided(
        self, (*shape, size), (*strides, self.strides[dim]), writeable=self.flags.writeable
    )


def _unfold_bw_fwd(
    grad: np.ndarray, input_sizes: tuple[int, ...], dim: int, size: int, step: int
) -> np.ndarray:
    out = np.zeros(input_sizes, grad.dtype)
    if not input_sizes:
        if size:
            out[...] = grad[0]
        return out
    m = grad.shape[dim]
    idx: list[Any] = [slice(None)] * len(input_sizes)
    for k in range(size):  # each window offset: its elements are distinct, so += is exact
        idx[dim] = slice(k, k + step * (m - 1) + 1, step)
        out[tuple(idx)] += grad[..., k]
    return out


_unfold_backward = defop(
    "unfold_backward",
    "UnfoldBackwardBackward0",
    _unfold_bw_fwd,
    dtype="keep",
    jvp=LINEAR,
    grad=lambda grad, input_sizes, dim, size, step: _unfold(
        grad, dim, size, step, tuple(input_sizes)
    ),
    complex=True,
)
_unfold = defop(
    "unfold",
    "UnfoldBackward0",
    _unfold_fwd,
    dtype="keep",
    view=True,
    jvp=LINEAR,
    self=lambda grad, dim, size, step, self_sym_sizes: _unfold_backward(
        grad, self_sym_sizes, dim % max(len(self_sym_sizes), 1), size, step
    ),
    complex=True,
)


def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """Mirrors `torch.Tensor.unfold`: a view of the windows of `size` every `step` along a dim."""
    if (
        type(dimension) is not int
        or type(size) is not int
        or type(step) is not int
        or not -(2**63) <= step < 2**63
    ):  # a bool, a float, a step past int64
        from .._signatures import reraise

        reraise("unfold", (dimension, size, step), {})  # a bool, a float: the parser's error
    d = wrap_dim(dimension, self.ndim)
    n = self._data.shape[d] if self.ndim else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    dim = dimension if type(dimension) is int else d  # saved as given, as torch's node saves it
    return _unfold(self, dim, int(size), int(step), tuple(self._data.shape))


# --- split_with_sizes, hsplit / vsplit / dsplit --------------------------------------------------


def split_with_sizes(input: Tensor, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Mirrors `torch.split_with_sizes`."""
    try:
        if input.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        d = wrap_dim(dim, input.ndim)
        sizes = tuple(int(s) for s in split_sizes)
        if any(s < 0 for s in sizes):
            raise RuntimeError(
                "split_with_sizes expects split_sizes have only non-negative entries, but got "
                f"split_sizes={shape_str(sizes)}"
            )
        return S.split(input, list(sizes), dim if type(dim) is int else d)  # dim saved as given
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("split_with_sizes", (split_sizes, dim), {})
        raise


def _dir_split(name: str, min_dim: int, dim: int, input: Tensor, sections: Any) -> Any:
    nd = input.ndim
    if nd < min_dim:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dim} dimension, but got a tensor "
            f"with {nd} dimensions!"
        )
    if isinstance(sections, Tensor) or not isinstance(sections, (int, list, tuple)):
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, "
            f"{type(sections).__name__})"
        )
    if isinstance(sections, int):
        n = input._data.shape[dim]
        if sections == 0 or n % sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                f"dimension {n} is not divisible by the split_size {sections}!"
            )
    return S.tensor_split(input, sections, dim)


def hsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Mirrors `torch.hsplit`: tensor_split along dim 1 (dim 0 for a vector)."""
    return _dir_split("hsplit", 1, 1 if input.ndim > 1 else 0, input, indices_or_sections)


def vsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Mirrors `torch.vsplit`: tensor_split along dim 0."""
    return _dir_split("vsplit", 2, 0, input, indices_or_sections)


def dsplit(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:
    """Mirrors `torch.dsplit`: tensor_split along dim 2."""
    return _dir_split("dsplit", 3, 2, input, indices_or_sections)


def _dir_split_method(name: str, fn: Any) -> Any:
    def method(self: Tensor, *indices: Any) -> tuple[Tensor, ...]:
        # the sections or indices as one argument, or the indices as varargs (x.hsplit(1, 2)),
        # as torch's parser reads a tuple of ints
        try:
            if len(indices) == 1:
                return fn(self, indices[0])
            if not indices or not all(type(i) is int for i in indices):
                raise TypeError(name)  # torch's parser error below
            return fn(self, list(indices))
        except Exception:
            from .._signatures import reraise

            reraise(name, indices, {})
            raise

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Mirrors `Tensor.{name}`."
    return method


# --- cummax, cummin, logcumsumexp -----------------------------------------------------------


def _cum_extreme(x: np.ndarray, dim: int, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    """Running max (min) and the index it came from: a tie or a NaN takes the later index, and
    a NaN, once seen, stays (torch's rule).

    Vectorized: position k takes over exactly where x[k] equals the running extreme (or is
    NaN; np.maximum.accumulate keeps a NaN once seen), so the index is the running maximum of
    those positions, and the value is x at that index (-0.0 after 0.0 included, as torch's
    `cur >= prev` keeps the later one)."""
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    n = x.shape[dim]
    if n == 0:
        return x.copy(), np.zeros(x.shape, np.int64)
    run = (np.maximum if largest else np.minimum).accumulate(x, axis=dim)
    takes = x == run
    if x.dtype.kind == "f":
        takes |= np.isnan(x)
    shape = [1] * x.ndim
    shape[dim] = n
    pos = np.where(takes, np.arange(n, dtype=np.int64).reshape(shape), 0)
    idx = np.maximum.accumulate(pos, axis=dim)
    return np.take_along_axis(x, idx, axis=dim), idx


def _cum_extreme_bw(grad: Tensor, self: Tensor, dim: int, indices: np.ndarray) -> Tensor:
    # torch's cummaxmin_backward: zeros.scatter_add(dim, indices, grad); an empty input is
    # returned as its own gradient, as torch does
    if self._data.size == 0:
        return self
    if self.ndim == 0:
        return grad
    return _scatter_add(_zeros(self._data.shape, grad), dim % self.ndim, indices, grad)


def _defcum(name: str, grad_fn: str) -> Any:
    return defop(
        name,
        grad_fn,
        lambda self, dim, indices, values, self_sym_sizes: (values, indices),
        dtype="keep",
        n_outputs=2,
        diff_outputs=(0,),
        self=lambda grads, self, dim, indices: _cum_extreme_bw(grads[0], self, dim, indices),
        jvp=lambda self_t, dim, indices, self_sym_sizes: (
            _gather(self_t, dim % len(self_sym_sizes), indices, self_sym_sizes)
            if self_sym_sizes
            else self_t,
            None,
        ),
    )


_cummax = _defcum("cummax", "CummaxBackward0")
_cummin = _defcum("cummin", "CumminBackward0")


def _cum(name: str, input: Tensor, dim: int) -> Any:
    if type(dim) is not int:  # a bool, a float: torch's parser refuses them
        from .._signatures import reraise

        reraise(name, (dim,), {})
    x = input._data
    if x.dtype.kind == "c" and x.size:  # (an empty input: no kernel runs)
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{input.dtype._short}'")
    d = wrap_dim(dim, input.ndim)
    values, indices = _cum_extreme(x, d, name == "cummax")
    if not x.flags.c_contiguous:  # torch's results are contiguous (Note [Result layout])
        values, indices = np.array(values, order="C"), np.array(indices, order="C")
    op = _cummax if name == "cummax" else _cummin
    dim = dim if type(dim) is int else d  # saved as given, as torch's node saves it
    return getattr(return_types, name)(op(input, dim, indices, values, tuple(x.shape)))


def cummax(input: Tensor, dim: int) -> Any:
    """Mirrors `torch.cummax`: (values, indices) of the running maximum along dim."""
    return _cum("cummax", input, dim)


def cummin(input: Tensor, dim: int) -> Any:
    """Mirrors `torch.cummin`: (values, indices) of the running minimum along dim."""
    return _cum("cummin", input, dim)


def _logcumsumexp_fwd(self: np.ndarray, dim: int) -> np.ndarray:
    if self.ndim == 0:
        return self.copy()
    if self.dtype.kind == "c":  # torch's scan: r_i = log_add_exp(x_i, r_(i-1)), r_(-1) = -inf
        from .pointwise import _np_logaddexp_complex

        x = np.moveaxis(self, dim, 0)
        out = np.empty_like(x)
        acc = np.full(x.shape[1:], complex(-np.inf, 0.0), x.dtype)
        for i in range(x.shape[0]):
            acc = out[i] = _np_logaddexp_complex(x[i], acc)
        return np.moveaxis(out, 0, dim)
    with np.errstate(invalid="ignore"):
        return np.logaddexp.accumulate(self, axis=dim)


def _rev_logcumsumexp(t: Tensor, dim: int) -> Tensor:
    return S.flip(logcumsumexp(S.flip(t, dim), dim), dim)


def _logcumsumexp_backward(grad: Tensor, self: Tensor, result: Tensor, dim: int) -> Tensor:
    """The gradient summed in log space, positive and negative parts apart, so that nothing
    overflows: grad_i = sum_{j>=i} grad_j * exp(self_i - result_j)."""
    from .pointwise import where

    if grad.ndim == 0 or grad._data.size == 0:
        return grad
    if grad.dtype.is_complex:  # torch's: one log-space sum, no sign split, conjugated
        out = (_rev_logcumsumexp(grad.conj().log() - result, dim) + self).exp()
        return out.conj()
    lowest = _make(np.asarray(D.np_finfo(grad._data.dtype).min, grad._data.dtype))
    log_abs = grad.abs().log()
    pos = where(grad > 0, log_abs, lowest)
    neg = where(grad < 0, log_abs, lowest)
    out_pos = (_rev_logcumsumexp(pos - result, dim) + self).exp()
    out_neg = (_rev_logcumsumexp(neg - result, dim) + self).exp()
    return out_pos - out_neg


def _logcumsumexp_jvp(self: Tensor, self_t: Tensor, dim: int, result: Tensor) -> Tensor:
    # d result_i = sum_{j<=i} self_t_j * exp(self_j - result_i), scaled by the max for range
    from .reduction import cumsum

    if self.ndim == 0:
        return self_t
    x = self._data
    m = np.where(np.isfinite(x), x, 0).max(axis=dim, keepdims=True) if x.size else 0
    w = (self - _make(np.asarray(m, x.dtype))).exp()
    scale = (_make(np.asarray(m, x.dtype)) - result).exp()
    return cumsum(w * self_t, dim) * scale


_logcumsumexp = defop(
    "logcumsumexp",
    "LogcumsumexpBackward0",
    _logcumsumexp_fwd,
    contiguous=True,
    dtype="keep",
    self=lambda grad, self, result, dim: _logcumsumexp_backward(grad, self, result, dim),
    jvp=lambda self, self_t, dim, result: _logcumsumexp_jvp(self, self_t, dim, result),
    complex=True,  # the backward above conjugates for a complex input, as torch's
)


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """Mirrors `torch.logcumsumexp`."""
    if type(dim) is not int:  # a bool, a float: torch's parser refuses them
        from .._signatures import reraise

        reraise("logcumsumexp", (dim,), {})
    if input._data.dtype.kind not in "fc":
        raise NotImplementedError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{input.dtype._short}'"
        )
    d = wrap_dim(dim, input.ndim)
    return _logcumsumexp(input, dim if type(dim) is int else d)  # saved as given, as torch's


# --- aminmax --------------------------------------------------------------------------------


def _aminmax_bw(grads: Any, self: Tensor, min: Tensor, max: Tensor, dim: Any, keepdim: bool) -> Any:
    # ties share each gradient evenly, as amin/amax (torch's scale_grad_by_count)
    axes = tuple(range(self.ndim)) if dim is None else (dim,)
    if self.ndim == 0:
        return grads[0] + grads[1]
    return _amax_backward(grads[0], self, min, axes, keepdim) + _amax_backward(
        grads[1], self, max, axes, keepdim
    )


def _aminmax_fwd(self: np.ndarray, dim: Any, keepdim: bool) -> tuple[np.ndarray, np.ndarray]:
    if self.ndim == 0:
        return self.copy(), self.copy()
    return (
        np.asarray(np.amin(self, axis=dim, keepdims=keepdim)),
        np.asarray(np.amax(self, axis=dim, keepdims=keepdim)),
    )


_aminmax = defop(
    "aminmax",
    "AminmaxBackward0",
    _aminmax_fwd,
    contiguous=True,
    dtype="keep",
    n_outputs=2,
    self=lambda grads, self, dim, keepdim, result, result1: _aminmax_bw(
        grads, self, result, result1, dim, keepdim
    ),
    jvp=lambda self, self_t, dim, keepdim, result: _aminmax_jvp(
        self, self_t, dim, keepdim, *result
    ),
)


def _aminmax_jvp(
    self: Tensor, self_t: Tensor, dim: Any, keepdim: bool, min: Tensor, max: Tensor
) -> Any:
    from .reduction import _amax_t

    if self.ndim == 0:
        return self_t, self_t
    axes = tuple(range(self.ndim)) if dim is None else (dim,)
    return _amax_t(self, self_t, min, axes, keepdim), _amax_t(self, self_t, max, axes, keepdim)


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> Any:
    """Mirrors `torch.aminmax`: (min, max) in one node."""
    if dim.__class__ is bool:  # torch's parser takes no bool for an int dim
        from .._signatures import reraise_op_frame

        reraise_op_frame(1)
    x = input._data
    if x.dtype.kind == "c":
        raise NotImplementedError(f"\"aminmax_cpu\" not implemented for '{input.dtype._short}'")
    d = None if dim is None else wrap_dim(dim, input.ndim)
    if d is None and x.size == 0:
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
            "identity."
        )
    if d is not None and x.ndim and x.shape[d] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    return return_types.aminmax(_aminmax(input, d, bool(keepdim)))


# --- select_scatter, slice_scatter, diagonal_scatter, narrow_copy ------------------------------


def _embed(self: np.ndarray, src: np.ndarray, region: Any) -> np.ndarray:
    """A *_scatter op's result: a copy of self with src written into one region of it."""
    out = self.copy()
    region(out)[...] = src
    return out


def _select_region(a: np.ndarray, dim: int, index: int) -> np.ndarray:
    return a[(*(slice(None),) * dim, index, Ellipsis)]


def _slice_region(a: np.ndarray, dim: int, start: int, end: int, step: int) -> np.ndarray:
    return a[(*(slice(None),) * dim, slice(start, end, step))]


def _diag_region(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    return S._diag_view(a, offset, dim1, dim2)


def _zeros_of(region: Any, grad: Tensor, *args: Any) -> Tensor:
    """Zeros shaped like the region of grad (the src of the self formula)."""
    return _make(np.zeros(region(grad._data, *args).shape, grad._data.dtype))


_select_scatter = defop(
    "select_scatter",
    "SelectScatterBackward0",
    lambda self, src, dim, index: _embed(self, src, lambda a: _select_region(a, dim, index)),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, dim, index: _select_scatter(
        grad, _zeros_of(_select_region, grad, dim, index), dim, index
    ),
    src=lambda grad, dim, index: S.select(grad, dim, index),
)
_slice_scatter = defop(
    "slice_scatter",
    "SliceScatterBackward0",
    lambda self, src, dim, start, end, step: _embed(
        self, src, lambda a: _slice_region(a, dim, start, end, step)
    ),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, dim, start, end, step: _slice_scatter(
        grad, _zeros_of(_slice_region, grad, dim, start, end, step), dim, start, end, step
    ),
    src=lambda grad, dim, start, end, step: S._slice(
        grad, dim, start, end, step, tuple(grad._data.shape)
    ),
)
_diagonal_scatter = defop(
    "diagonal_scatter",
    "DiagonalScatterBackward0",
    lambda self, src, offset, dim1, dim2: _embed(
        self, src, lambda a: _diag_region(a, offset, dim1, dim2)
    ),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, offset, dim1, dim2: _diagonal_scatter(
        grad, _zeros_of(_diag_region, grad, offset, dim1, dim2), offset, dim1, dim2
    ),
    src=lambda grad, offset, dim1, dim2: S.diagonal(grad, offset, dim1, dim2),
    complex=True,  # linear
)


def _no_complex_autograd(name: str, *ts: Tensor) -> None:
    """torch's forward refusal for ops without complex autograd (select_scatter's and
    slice_scatter's: diagonal_scatter has it)."""
    from .. import _grad_mode

    if _grad_mode.STATE.grad and any(t._rg for t in ts) and ts[0].dtype.is_complex:
        raise RuntimeError(
            f"{name} does not support automatic differentiation for outputs with complex dtype."
        )


def _check_src(src: Tensor, region: np.ndarray) -> None:
    if tuple(src._data.shape) != region.shape:
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{shape_str(src._data.shape)}, slice size = {shape_str(region.shape)}"
        )


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """Mirrors `torch.select_scatter`: a copy of input with src at input.select(dim, index)."""
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, input.ndim)
    n = input._data.shape[d]
    if not -n <= index < n:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"{shape_str(input._data.shape)} at dimension {d}"
        )
    i = int(index) % n
    _check_src(src, _select_region(input._data, d, i))
    _no_complex_autograd("select_scatter", input, src)
    return _select_scatter(input, src, d, i)


def slice_scatter(
    input: Tensor,
    src: Tensor,
    dim: int = 0,
    start: int | None = None,
    end: int | None = None,
    step: int = 1,
) -> Tensor:
    """Mirrors `torch.slice_scatter`: a copy of input with src at input[start:end:step] on dim."""
    if dim.__class__ is bool:  # torch's parser takes no bool for an int dim
        from .._signatures import reraise_op_frame

        reraise_op_frame(1)
    try:
        d = wrap_dim(dim, input.ndim)
        if step <= 0:
            raise RuntimeError("slice step must be positive")
        n = input._data.shape[d] if input.ndim else 1
        lo, hi, _ = slice(start, end, step).indices(n)
        hi = max(hi, lo)
        _check_src(src, _slice_region(input._data, d, lo, hi, step))
        _no_complex_autograd("slice_scatter", input, src)
        return _slice_scatter(input, src, d, lo, hi, int(step))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("slice_scatter", (src, dim, start, end, step), {})
        raise


def diagonal_scatter(
    input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1
) -> Tensor:
    """Mirrors `torch.diagonal_scatter`: a copy of input with src on a diagonal."""
    try:
        d1, d2 = S._diag_dims(input.ndim, dim1, dim2)
        _check_src(src, _diag_region(input._data, int(offset), d1, d2))
        return _diagonal_scatter(input, src, int(offset), d1, d2)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("diagonal_scatter", (src, offset, dim1, dim2), {})
        raise


def _as_strided_scatter_fwd(
    self: np.ndarray, src: np.ndarray, idx: np.ndarray, mask: np.ndarray
) -> np.ndarray:
    out = np.array(self, order="C")
    hit = idx >= 0
    out.reshape(-1)[idx[hit]] = src[hit]
    return out


def _as_strided_scatter_jvp(self_t: Any, src_t: Any, idx: np.ndarray, mask: np.ndarray) -> Any:
    from .. import zeros

    self_t = zeros(mask.shape) if self_t is None else self_t
    src_t = zeros(idx.shape) if src_t is None else src_t
    return _as_strided_scatter(self_t, src_t, idx, mask)


# idx: for each element of src, the C-order index of the output element it lands on (-1 where
# it lands in the clone's storage outside any element); mask: the output elements written
_as_strided_scatter = defop(
    "as_strided_scatter",
    "AsStridedScatterBackward0",
    _as_strided_scatter_fwd,
    jvp=_as_strided_scatter_jvp,
    # torch's as_strided_scatter_backward keeps grad on the written positions, not off them
    self=lambda grad, mask: grad.masked_fill(_make(~mask), 0),
    src=lambda grad, idx: S.as_strided_pick(grad, idx),
)


def as_strided_scatter(
    input: Tensor, src: Tensor, size: Any, stride: Any, storage_offset: int | None = None
) -> Tensor:
    """Mirrors `torch.as_strided_scatter`: a clone of input (its strides and offset kept) with
    src written through as_strided(size, stride, storage_offset) of the clone."""
    if input.requires_grad and not input.is_contiguous():
        raise RuntimeError(
            "!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at "
            '"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a '
            "bug to PyTorch. as_strided_scatter is currently only supported for contiguous inputs"
        )
    with _grad_mode.no_grad():  # torch checks the geometry against input's own storage
        region = S.as_strided(input, size, stride, storage_offset)._data
    _check_src(src, region)
    shape = input._data.shape
    base = input.storage_offset()  # the clone keeps input's strides and storage offset
    own = np.asarray(base, np.int64)
    for n, st in zip(shape, input.stride(), strict=True):
        own = np.add.outer(own, np.arange(n, dtype=np.int64) * st)
    pos = np.asarray(base if storage_offset is None else storage_offset, np.int64)
    for n, st in zip(region.shape, stride, strict=True):
        pos = np.add.outer(pos, np.arange(n, dtype=np.int64) * int(st))
    inv = np.full(int(max(own.max(initial=0), pos.max(initial=0))) + 1, -1, np.int64)
    inv[own.reshape(-1)] = np.arange(own.size, dtype=np.int64)
    idx = inv[pos]
    mask = np.zeros(shape, bool)
    mask.reshape(-1)[idx[idx >= 0]] = True
    return _as_strided_scatter(input, src, idx, mask)


def _narrow_copy_fwd(self: np.ndarray, dim: int, start: int, length: int) -> np.ndarray:
    dim %= self.ndim  # saved as given (torch's _saved_dim)
    lo = start + self.shape[dim] if start < 0 else start
    return _slice_region(self, dim, lo, lo + length, 1).copy()


_narrow_copy = defop(
    "narrow_copy",
    "NarrowCopyBackward0",
    lambda self, dim, start, length, self_sym_sizes: _narrow_copy_fwd(self, dim, start, length),
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, dim, start, length, self_sym_sizes: _narrow_copy_bw(
        grad, self_sym_sizes, dim, start, length
    ),
    complex=True,  # linear: the formula holds for complex tensors as written
)


def _narrow_copy_bw(grad: Tensor, sizes: Any, dim: int, start: int, length: int) -> Tensor:
    # torch saves start as given: a negative start whose end wraps to 0 slices nothing, and its
    # backward fails as torch's does
    dim %= len(sizes)
    n = sizes[dim]
    lo, hi, _ = slice(start, start + length).indices(n)
    if max(hi - lo, 0) != length:
        raise RuntimeError(
            f"The size of tensor a ({max(hi - lo, 0)}) must match the size of tensor b "
            f"({length}) at non-singleton dimension {dim}"
        )
    return S._slice_backward(grad, sizes, dim, lo, hi, 1)


def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """Mirrors `torch.narrow_copy`: narrow, as a new contiguous tensor."""
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, input.ndim)
    n = input._data.shape[d]
    if not -n <= start <= n:
        raise IndexError(
            f"start out of range (expected to be in range of [{-n}, {n}], but got {start})"
        )
    lo = start % n if start < 0 else start
    if length < 0 or lo + length > n:
        raise RuntimeError(f"start ({lo}) + length ({length}) exceeds dimension size ({n}).")
    dim = dim if type(dim) is int else d  # saved as given, as torch's node saves it
    return _narrow_copy(input, dim, int(start), int(length), tuple(input._data.shape))


# --- diagflat, block_diag, cartesian_prod, combinations -------------------------------------


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """Mirrors `torch.diagflat`: the flattened input on a diagonal (as torch: contiguous, view,
    diag_embed)."""
    return S.diag(S.view(S.contiguous(input), -1), offset)


def _block_diag_fwd(tensors: list[np.ndarray], shapes: Any, sizes: Any) -> Any:
    rows = sum(s[0] for s in shapes)
    cols = sum(s[1] for s in shapes)
    dt = tensors[0].dtype if tensors else np.float32
    out = np.zeros((rows, cols), dt)
    r = c = 0
    for t, (h, w) in zip(tensors, shapes, strict=True):
        out[r : r + h, c : c + w] = t.reshape(h, w)
        r, c = r + h, c + w
    return out


def _block_diag_grads(grad: Tensor, shapes: Any, sizes: Any) -> list[Tensor]:
    out = []
    r = c = 0
    for (h, w), size in zip(shapes, sizes, strict=True):
        g = S.narrow(S.narrow(grad, 0, r, h), 1, c, w)
        out.append(S.reshape(g, size))
        r, c = r + h, c + w
    return out


_block_diag = deflistop(
    "block_diag",
    "BlockDiagBackward0",
    _block_diag_fwd,
    tensors=lambda grad, shapes, sizes: _block_diag_grads(grad, shapes, sizes),
    complex=True,  # linear: slices of the gradient
)


def block_diag(*tensors: Tensor) -> Tensor:
    """Mirrors `torch.block_diag`: the inputs (0-d, 1-d as a row, 2-d) as diagonal blocks."""
    try:
        shapes = []
        for i, t in enumerate(tensors):
            nd = t.ndim
            if nd > 2:
                raise RuntimeError(
                    "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                    f"{i} has {nd} dimensions"
                )
            sh = t._data.shape
            shapes.append((1, 1) if nd == 0 else (1, sh[0]) if nd == 1 else (sh[0], sh[1]))
        if not tensors:
            return _make(np.zeros((1, 0), D.get_default_dtype()._np))
        return _block_diag(
            list(tensors), tuple(shapes), tuple(tuple(t._data.shape) for t in tensors)
        )
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise_tensor_list

        reraise_tensor_list(tensors)
        raise


def _vectors(tensors: Any) -> list[Tensor]:
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {shape_str(t._data.shape)}")
    return list(tensors)


def _meshgrid_ij(ts: list[Tensor]) -> list[Tensor]:
    """torch.meshgrid(indexing="ij") as torch records it: a view, then an expand, per tensor."""
    if not ts:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if any(t.dtype is not ts[0].dtype for t in ts):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    sizes = tuple(t._data.shape[0] for t in ts)
    out = []
    for i, t in enumerate(ts):
        shape = [1] * len(ts)
        shape[i] = -1
        out.append(S.expand(S.view(t, tuple(shape)), sizes))
    return out


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Mirrors `torch.cartesian_prod`: meshgrid, flatten each grid, stack as columns."""
    try:
        ts = _vectors(tensors)
        if len(ts) == 1:
            return ts[0]
        return S.stack([S.flatten(g) for g in _meshgrid_ij(ts)], 1)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise_tensor_list

        reraise_tensor_list(tensors)
        raise


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """Mirrors `torch.combinations`: index grids masked to increasing (non-decreasing) tuples,
    as torch records it (meshgrid, masked_select per grid, stack)."""
    from .indexing import masked_select

    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {shape_str(input._data.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _make(np.zeros(0, input._data.dtype))
    n = input._data.shape[0]
    idx = np.indices((n,) * r)
    mask = np.ones((n,) * r, bool)
    for a, b in itertools.pairwise(idx):
        mask &= (a <= b) if with_replacement else (a < b)
    m = _make(mask)
    return S.stack([masked_select(g, m) for g in _meshgrid_ij([input] * r)], 1)


def row_stack(tensors: Any, *, out: Any = None) -> Tensor:
    """Mirrors `torch.row_stack` (an alias of vstack)."""
    return S._vstack(tensors, "row_stack")


# --- tril_indices, triu_indices ---------------------------------------------------------------


def _tri_indices(name: str, lower: bool, row: int, col: int, offset: int, dtype: Any) -> Tensor:
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    dt = D.int64 if dtype is None else dtype
    if dt._np.kind not in "iu":
        raise NotImplementedError(f"\"{name}\" not implemented for '{dt._short}'")
    i, j = np.indices((row, col)).reshape(2, -1)
    keep = (j - i <= offset) if lower else (j - i >= offset)
    return _make(np.stack([i[keep], j[keep]]).astype(dt._np))


def tril_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None, **kw: Any
) -> Tensor:
    """Mirrors `torch.tril_indices`: the (row, col) coordinates of a lower triangle."""
    return _tri_indices("tril_indices", True, row, col, offset, dtype)


def triu_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None, **kw: Any
) -> Tensor:
    """Mirrors `torch.triu_indices`: the (row, col) coordinates of an upper triangle."""
    return _tri_indices("triu_indices", False, row, col, offset, dtype)


# --- trapezoid, trapz, cumulative_trapezoid ----------------------------------------------------


def _trapz_dim(name: str, y: Tensor, x: Tensor | None, dim: int) -> int:
    if y.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    for what, t in (("y", y), ("x", x)):
        if t is not None and t.dtype is D.bool_:
            raise RuntimeError(
                f"{name}: received a bool input for `{what}`, but bool is not supported"
            )
    return wrap_dim(dim, y.ndim)


def _spacing(name: str, y: Tensor, x: Tensor, d: int) -> Tensor:
    """x's differences along d, x first viewed to line up with y as torch does."""
    if x.ndim == 1:
        if x._data.shape[0] != y._data.shape[d]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y.ndim
        shape[d] = x._data.shape[0]
        x = S.view(x, tuple(shape))
    elif x.ndim < y.ndim:
        x = S.view(x, (1,) * (y.ndim - x.ndim) + tuple(x._data.shape))
    n = x._data.shape[d]
    return S.narrow(x, d, min(1, n), max(n - 1, 0)) - S.narrow(x, d, 0, max(n - 1, 0))


def _pair_sums(y: Tensor, d: int) -> Tensor:
    n = y._data.shape[d]
    return S.narrow(y, d, min(1, n), max(n - 1, 0)) + S.narrow(y, d, 0, max(n - 1, 0))


def _number(dx: Any) -> Any:
    return dx.item() if isinstance(dx, Tensor) else dx


def _times(t: Tensor, c: Any) -> Tensor:
    """t * a Python number as torch's composites record it (mul.Scalar, MulBackward1)."""
    from .pointwise import _mul_scalar

    return _mul_scalar(t, c) if t._data.dtype.kind in "fc" else t * c


def _half(t: Tensor) -> Tensor:
    """t / 2 as torch's composites record it (div.Scalar, DivBackward1)."""
    from .nn_ops import _div_scalar

    return _div_scalar(t, 2.0) if t._data.dtype.kind in "fc" else t / 2.0


def trapezoid(y: Tensor, x: Tensor | None = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """Mirrors `torch.trapezoid`, recorded as torch's formula records it."""
    if x is not None and dx is not None:
        raise TypeError(
            "trapezoid() received an invalid combination of arguments - got (Tensor, Tensor, "
            f"dx={type(dx).__name__})"
        )
    d = _trapz_dim("trapezoid", y, x, dim)
    if y._data.shape[d] == 0:  # torch returns fresh zeros, outside the graph
        shape = tuple(s for k, s in enumerate(y._data.shape) if k != d)
        return _make(np.zeros(shape, y._data.dtype))
    if x is None:
        step = 1 if dx is None else _number(dx)
        ends = S.select(y, d, 0) + S.select(y, d, -1)
        return _times(y.sum(d) - _times(ends, 0.5), step)
    return _half((_pair_sums(y, d) * _spacing("trapezoid", y, x, d)).sum(d))


def trapz(y: Tensor, x: Tensor | None = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """Mirrors `torch.trapz` (an alias of trapezoid)."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(
    y: Tensor, x: Tensor | None = None, *, dx: Any = None, dim: int = -1
) -> Tensor:
    """Mirrors `torch.cumulative_trapezoid`, recorded as torch's formula records it."""
    from .reduction import cumsum

    if x is not None and dx is not None:
        raise TypeError(
            "cumulative_trapezoid() received an invalid combination of arguments - got "
            f"(Tensor, Tensor, dx={type(dx).__name__})"
        )
    if y.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _trapz_dim("cumulative_trapezoid", y, x, dim)
    if x is None:
        step = 1 if dx is None else _number(dx)
        return cumsum(_times(_pair_sums(y, d), step / 2.0), d)
    return _half(cumsum(_pair_sums(y, d) * _spacing("cumulative_trapezoid", y, x, d), d))


# --- searchsorted, bucketize -----------------------------------------------------------------


def _bound(seq: np.ndarray, vals: np.ndarray, right: bool) -> np.ndarray:
    """Row-wise binary search as torch's kernel runs it (rows of seq against rows of vals):
    NaN compares false, so a NaN boundary sends the search right, unlike numpy's."""
    low = np.zeros(vals.shape, np.int64)
    high = np.full(vals.shape, seq.shape[1], np.int64)
    with np.errstate(invalid="ignore"):
        while True:
            active = low < high
            if not active.any():
                return low
            mid = (low + high) // 2
            mv = np.take_along_axis(seq, np.minimum(mid, max(seq.shape[1] - 1, 0)), 1)
            go_right = ~(mv > vals) if right else ~(mv >= vals)
            low = np.where(active & go_right, mid + 1, low)
            high = np.where(active & ~go_right, mid, high)


def _search(seq: Tensor, values: Any, out_int32: bool, right: bool, sorter: Any) -> Tensor:
    v = values._data if isinstance(values, Tensor) else np.asarray(values)
    b = seq._data
    if b.dtype == np.bool_ and v.dtype == np.bool_:  # (their common type: no bool kernel)
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    if b.dtype.kind == "c" or v.dtype.kind == "c":
        name = D._FROM_NP[b.dtype if b.dtype.kind == "c" else v.dtype]._short
        raise NotImplementedError(f"\"searchsorted_out_cpu\" not implemented for '{name}'")
    if sorter is not None and sorter._data.shape != b.shape:
        raise RuntimeError(
            "torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
            f"tensor {shape_str(b.shape)}and got sorter tensor {shape_str(sorter._data.shape)}"
        )
    if b.ndim == 0:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
            "dimension"
        )
    if b.ndim > 1 and b.shape[:-1] != v.shape[:-1]:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {shape_str(b.shape)} and input value tensor {shape_str(v.shape)}"
        )
    if sorter is not None:
        if sorter._data.dtype != np.int64:
            raise RuntimeError(
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                f"{sorter.dtype._short}"
            )
        if sorter._data.size and (sorter._data.min() < 0 or sorter._data.max() >= b.shape[-1]):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        b = np.take_along_axis(b, sorter._data, -1)
    n = b.shape[-1]
    rows = b.reshape(-1, n) if b.ndim > 1 else b.reshape(1, n)
    vals = v.reshape(rows.shape[0], -1) if b.ndim > 1 else v.reshape(1, -1)
    out = _bound(rows, vals, right).reshape(v.shape)
    return _make(out.astype(np.int32 if out_int32 else np.int64))


def searchsorted(
    sorted_sequence: Tensor,
    input: Any,
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: Tensor | None = None,
    out: Any = None,
) -> Tensor:
    """Mirrors `torch.searchsorted` (never differentiable)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(
                f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
            )
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of "
                "left while right was True"
            )
        right = side == "right"
    return _search(sorted_sequence, input, out_int32, right, sorter)


def bucketize(
    input: Any, boundaries: Tensor, *, out_int32: bool = False, right: bool = False, out: Any = None
) -> Tensor:
    """Mirrors `torch.bucketize` (never differentiable)."""
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return _search(boundaries, input, out_int32, right, None)


# --- meshgrid, broadcast_shapes ---------------------------------------------------------------

_MESHGRID_WARNING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."
)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Mirrors `torch.meshgrid`: each output a view of one input, expanded (for 'xy' the first
    two grid dims are swapped, as torch lays them out)."""
    try:
        from .._tensor import warn_once

        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            tensors = tuple(tensors[0])
        if indexing is None:
            warn_once("meshgrid", _MESHGRID_WARNING)
            indexing = "ij"
        if indexing not in ("ij", "xy"):
            raise RuntimeError(
                f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
            )
        ts = list(tensors)
        for t in ts:
            if t.ndim > 1:
                raise RuntimeError(
                    "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                    f"{shape_str(t._data.shape)}"
                )
        if not ts:
            raise RuntimeError("meshgrid expects a non-empty TensorList")
        if any(t.dtype is not ts[0].dtype for t in ts):
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        pos = list(range(len(ts)))
        if indexing == "xy" and len(ts) >= 2:
            pos[0], pos[1] = 1, 0
        sizes = [0] * len(ts)
        for i, t in enumerate(ts):
            sizes[pos[i]] = t._data.size
        out = []
        for i, t in enumerate(ts):
            shape = [1] * len(ts)
            shape[pos[i]] = -1
            out.append(S.expand(S.view(t, tuple(shape)), tuple(sizes)))
        return tuple(out)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise_tensor_list

        reraise_tensor_list(
            tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
        )
        raise


def broadcast_shapes(*shapes: Any) -> Any:
    """Mirrors `torch.broadcast_shapes`."""
    from .._size import Size

    given = [(s,) if isinstance(s, (int, np.integer)) else s for s in shapes if s is not None]
    for s in given:
        if not isinstance(s, (tuple, list)):
            raise RuntimeError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}"
            )
    common = [1] * max((len(s) for s in given), default=0)
    for k, s in enumerate(given):
        for i in range(-1, -1 - len(s), -1):
            if s[i] == common[i]:
                continue
            if common[i] == 1:
                if s[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = s[i]
            elif s[i] != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {s[i]} at {i}! Mismatching "
                    f"argument at index {k} had {s}; but expected shape should be broadcastable "
                    f"to {common}"
                )
    return Size(common)


# --- cdist ------------------------------------------------------------------------------------


def _cdist_fwd(x1: np.ndarray, x2: np.ndarray, p: float, compute_mode: Any) -> np.ndarray:
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    with np.errstate(all="ignore"):
        if p == 0:
            out = (diff != 0).sum(-1).astype(x1.dtype)
        elif p == 1:
            out = diff.sum(-1)
        elif p == 2:
            out = np.sqrt((diff * diff).sum(-1))
        elif np.isinf(p):
            out = diff.max(-1, initial=0)
        else:
            out = (diff**p).sum(-1) ** (1.0 / p)
    return np.ascontiguousarray(out, dtype=x1.dtype)


def _cdist_bw_fwd(
    grad: np.ndarray, x1: np.ndarray, x2: np.ndarray, p: float, cdist: np.ndarray
) -> np.ndarray:
    """torch's _cdist_backward: the gradient of x1 (subgradient 0 where a distance is 0)."""
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    g = grad[..., None]
    dist = cdist[..., None]
    with np.errstate(all="ignore"):
        if p == 0:
            per = np.zeros_like(diff)
        elif p == 1:
            per = np.sign(diff) * g
        elif p == 2:
            per = np.where(dist == 0, 0, diff * g / dist)
        elif np.isinf(p):
            per = np.sign(diff) * (np.abs(diff) == dist) * g
        elif p < 2:
            per = np.sign(diff) * np.abs(diff) ** (p - 1) * g / dist ** (p - 1)
            per = np.where((dist == 0) | ((diff == 0) & (p < 1)), 0, per)
        else:
            per = np.where(dist == 0, 0, diff * np.abs(diff) ** (p - 2) * g / dist ** (p - 1))
    out = per.sum(-2)
    return np.ascontiguousarray(np.broadcast_to(out, x1.shape) if out.ndim < x1.ndim else out)


def _cdist_bw_not_implemented(grad: Any) -> Tensor:
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


_cdist_backward = defop(
    "_cdist_backward",
    "CdistBackwardBackward0",
    _cdist_bw_fwd,
    dtype="keep",
    jvp=_no_derivative("_cdist_backward")[1],
    grad=_cdist_bw_not_implemented,
    x1=_cdist_bw_not_implemented,
    x2=_cdist_bw_not_implemented,
    cdist=_cdist_bw_not_implemented,
)


def _mT(t: Tensor) -> Tensor:
    return S.contiguous(S.transpose(t, -1, -2))


_cdist = defop(
    "_cdist_forward",
    "CdistBackward0",
    _cdist_fwd,
    dtype="keep",
    jvp=_no_derivative("_cdist_forward")[1],
    x1=lambda grad, x1, x2, p, result: _cdist_backward(S.contiguous(grad), x1, x2, p, result),
    x2=lambda grad, x1, x2, p, result: _cdist_backward(_mT(grad), x2, x1, p, _mT(result)),
)


def _euclidean_fwd(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    # torch's matrix-product form: |a|^2 - 2 a.b + |b|^2, clamped at 0 before the root
    n1 = (x1 * x1).sum(-1, keepdims=True)
    n2 = (x2 * x2).sum(-1, keepdims=True)
    sq = n1 - 2 * (x1 @ np.swapaxes(x2, -1, -2)) + np.swapaxes(n2, -1, -2)
    return np.sqrt(np.maximum(sq, 0)).astype(x1.dtype)


def _euclidean_ratio(grad: Tensor, result: Tensor) -> Tensor:
    return (grad / result).masked_fill(result == 0, 0)


_euclidean_dist = defop(
    "_euclidean_dist",
    "EuclideanDistBackward0",
    _euclidean_fwd,
    dtype="keep",
    jvp=_no_derivative("_euclidean_dist")[1],
    x1=lambda grad, x1, x2, result: (
        x1 * _euclidean_ratio(grad, result).sum(-1, keepdim=True)
        - _euclidean_ratio(grad, result).matmul(x2)
    ),
    x2=lambda grad, x1, x2, result: (
        x2 * S.unsqueeze(_euclidean_ratio(grad, result).sum(-2), -1)
        - S.transpose(_euclidean_ratio(grad, result), -1, -2).matmul(x1)
    ),
)

_CDIST_MODES = {
    "use_mm_for_euclid_dist_if_necessary": 0,
    "use_mm_for_euclid_dist": 1,
    "donot_use_mm_for_euclid_dist": 2,
}


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str | None = None) -> Tensor:
    """Mirrors `torch.cdist`, with torch's choice of the matrix-product path for p=2 (its own
    EuclideanDistBackward0 node) and the direct kernel (CdistBackward0) otherwise."""
    if compute_mode is None:
        compute_mode = "use_mm_for_euclid_dist_if_necessary"
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _CDIST_MODES[compute_mode]
    if not (isinstance(x1, Tensor) and isinstance(x2, Tensor)):  # torch's _VF.cdist parser
        from .._signatures import check_tensors

        check_tensors("cdist", ("x1", "x2"), x1, x2)
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.ndim}D")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:  # complex included: torch has no complex cdist
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: {t.dtype._short}"
            )
    c1, c2 = x1._data.shape[-1], x2._data.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype._short} but found {x2.dtype._short}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    r1, r2 = x1._data.shape[-2], x2._data.shape[-2]
    batch = tuple(broadcast_shapes(x1._data.shape[:-2], x2._data.shape[:-2]))
    out_shape = (*batch, r1, r2)
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        n = math.prod(batch)
        if n == 1:
            dist = _euclidean_dist(x1, x2)
        else:
            e1 = S.reshape(S.expand(x1, (*batch, r1, c1)), (n, r1, c1))
            e2 = S.reshape(S.expand(x2, (*batch, r2, c2)), (n, r2, c2))
            dist = _euclidean_dist(e1, e2)
        return S.view(dist, out_shape)
    if x1.dtype.itemsize == 2 and r1 and r2 and c1 and math.prod(batch):
        # torch's cdist kernel has no half or bfloat16 version (the matmul path above does)
        raise NotImplementedError(f"\"cdist\" not implemented for '{x1.dtype._short}'")
    return _cdist(x1, x2, float(p), mode)


# --- isin, bincount, histc --------------------------------------------------------------------

_ISIN_SIGNATURES = (
    " * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = "
    "False, Tensor out = None)\n"
    " * (Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = "
    "False, Tensor out = None)\n"
    " * (Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = "
    "False, Tensor out = None)\n"
)


def _isin_array(v: Any) -> np.ndarray:
    if isinstance(v, Tensor):
        return v._data
    return np.asarray(v, D.scalar_dtype(v)._np)


def isin(
    elements: Any,
    test_elements: Any,
    *,
    assume_unique: bool = False,
    invert: bool = False,
    out: Any = None,
) -> Tensor:
    """Mirrors `torch.isin` (a number may stand for either side; never differentiable)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError(
            "isin() received an invalid combination of arguments - got "
            f"({type(elements).__name__}, {type(test_elements).__name__}), but expected one "
            f"of:\n{_ISIN_SIGNATURES}"
        )
    a, b = _isin_array(elements), _isin_array(test_elements)
    for arr in (a, b):
        if arr.dtype.kind in "bc":
            raise RuntimeError(
                f"Unsupported input type encountered for isin(): {D._FROM_NP[arr.dtype]._short}"
            )
    if isinstance(test_elements, Tensor) and b.ndim > 1 and a.size and b.size:
        _isin_flat_view(a, b)
    res = np.isin(a, b, assume_unique=bool(assume_unique), invert=bool(invert))
    return _make(np.asarray(res, bool).reshape(a.shape))


def _isin_flat_view(a: np.ndarray, b: np.ndarray) -> None:
    """torch's brute-force isin kernel (few test elements: fewer than 10 * numel ** 0.145)
    flattens the test elements with view(-1), which a layout no flat view describes refuses."""
    if b.size >= int(10.0 * math.pow(float(a.size), 0.145)) or b.flags.c_contiguous:
        return
    v = b.view()
    try:
        v.shape = (-1,)
    except AttributeError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Mirrors `torch.bincount`: int64 counts, or sums of weights (float64 unless the weights
    are float32); a weighted count is recorded without a derivative, as torch records it."""
    if type(minlength) is not int:  # a float, a bool: torch's parser refuses them
        from .._signatures import reraise

        reraise("bincount", (weights, minlength), {})
    try:
        from .rounding import _not_implemented

        x = input._data
        if x.dtype.kind not in "iu":
            raise NotImplementedError(
                f"\"bincount_cpu\" not implemented for '{input.dtype._short}'"
            )
        if minlength < 0:
            raise RuntimeError("minlength should be >= 0")
        if x.ndim != 1 or (x.size and x.min() < 0):
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        if weights is not None and (weights.ndim != 1 or weights._data.shape[0] != x.shape[0]):
            raise RuntimeError("weights should be 1-d and have the same length as input")
        n = max(int(x.max()) + 1 if x.size else 0, int(minlength))
        if weights is None:
            return _make(np.bincount(x.astype(np.int64), minlength=n).astype(np.int64))
        w = weights._data
        dt = np.float32 if w.dtype == np.float32 else np.float64
        res = np.bincount(x.astype(np.int64), weights=w.astype(np.float64), minlength=n)
        return _not_implemented(_make(res.astype(dt)), (input, weights), "bincount")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("bincount", (weights, minlength), {})
        raise


def _range_str(v: float, from_data: bool) -> str:
    # torch prints a NaN bound it computed by reducing the data as C's "-nan"
    if np.isnan(v):
        return "-nan" if from_data else "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:g}"


def histc(input: Tensor, bins: int = 100, min: Any = 0, max: Any = 0, *, out: Any = None) -> Tensor:
    """Mirrors `torch.histc`: equal-width bins over [min, max] (the data's range when both are
    0), values outside ignored, the last bin closed; never differentiable."""
    x = input._data
    if x.dtype.kind != "f":
        # torch's kernels, in its order: the range (aminmax, complex only fails it when it is
        # taken from the data), the bin edges (linspace: no bool), then the histogram
        kernel = "histogram_cpu"
        if x.dtype.kind == "b":
            kernel = "linspace_cpu"
        elif x.dtype.kind == "c" and min == max:
            kernel = "aminmax_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._short}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    lo, hi = float(min), float(max)
    from_data = lo == hi and x.size > 0
    if from_data:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi and np.isinf(lo):  # torch widens an infinite range by one float step
        lo = float(np.nextafter(x.dtype.type(lo), x.dtype.type(-np.inf)))
        hi = float(np.nextafter(x.dtype.type(hi), x.dtype.type(np.inf)))
    elif lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        reduced = from_data and x.size > 1  # a NaN one element holds is printed as it is
        raise RuntimeError(
            f"torch.histc: range of [{_range_str(lo, reduced)}, {_range_str(hi, reduced)}] "
            "is not finite"
        )
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    flat = x.reshape(-1)
    lo_t, hi_t = x.dtype.type(lo), x.dtype.type(hi)
    keep = flat[(flat >= lo_t) & (flat <= hi_t)]
    with np.errstate(all="ignore"):
        pos = ((keep - lo_t) * x.dtype.type(bins) / (hi_t - lo_t)).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    return _make(np.bincount(pos, minlength=bins).astype(x.dtype))


# --- put, fill_diagonal_, index_reduce ----------------------------------------------------------


def _put_fwd(self: np.ndarray, index: np.ndarray, source: np.ndarray, accumulate: bool) -> Any:
    out = self.copy()
    flat = out.reshape(-1)  # a view: out is a fresh contiguous copy
    if accumulate:
        np.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)  # a repeated index: the last write wins
    return out


def _put_self_grad(grad: Tensor, index: np.ndarray, acc: bool) -> Tensor:
    # the written positions get no gradient (zeros put there; index has source's numel)
    if acc:
        return grad
    return _put(grad, index, _make(np.zeros(index.shape, grad._data.dtype)), False)


def _take_flat(grad: Tensor, index: np.ndarray) -> Tensor:
    from .indexing import take

    return take(grad, _make(index))


_put = defop(
    "put",
    "PutBackward0",
    _put_fwd,
    dtype="keep",
    self=lambda grad, index, accumulate: _put_self_grad(grad, index, accumulate),
    source=lambda grad, index, source: S.reshape(
        _take_flat(grad, index), tuple(source._data.shape)
    ),
    jvp=lambda self, self_t, index, source, source_t, accumulate: _put(
        self_t if self_t is not None else _zeros(self._data.shape, self),
        index,
        source_t if source_t is not None else _zeros(source._data.shape, source),
        accumulate,
    ),
    complex=True,  # linear in self and source: the same formulas for complex tensors
)


def _put_method() -> Any:
    """put_: a source that is self itself (a full overlap, even when empty) is refused after
    the arguments' checks, as index_add_'s (indexing._refuse_self_operand)."""
    method = make_inplace(put)

    def put_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if any(a is self for a in args[1:2]) or kwargs.get("source") is self:
            from .indexing import _refuse_self_operand
            from .inplace import PARTIAL_OVERLAP

            try:
                _refuse_self_operand(put, self, args, kwargs)
            except (IndexError, RuntimeError) as e:
                if str(e).startswith("out of range:"):  # its kernel's bounds come later
                    raise RuntimeError(PARTIAL_OVERLAP) from None
                raise
        return method(self, *args, **kwargs)

    put_.__name__ = put_.__qualname__ = method.__name__
    put_.__wrapped__ = method.__wrapped__  # type: ignore[attr-defined]
    put_._forwards = True  # type: ignore[attr-defined]
    return put_


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """Mirrors `torch.put`: source written (or added) at flat indices of a copy of input."""
    a = index._data
    if a.dtype != np.int64:
        raise RuntimeError(
            f"put_(): Expected a long tensor for index, but got {index.dtype._short}"
        )
    if input.dtype is not source.dtype:
        raise RuntimeError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{input.dtype._short} and source.dtype = {source.dtype._short}"
        )
    if a.size != source._data.size:
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source._data.size}, index.numel() = {a.size}"
        )
    n = input._data.size
    if a.size and (a.max() >= n or a.min() < -n):
        if n == 0:
            raise IndexError("put_(): Tried to put elements into an empty tensor")
        bad = a[(a >= n) | (a < -n)].flat[0]
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    return _put(input, np.where(a < 0, a + n, a), source, bool(accumulate))


def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """Mirrors `torch.Tensor.fill_diagonal_`: fills a strided view of the main diagonal (and,
    with wrap, of its repeats down a tall matrix), so autograd records CopySlices as torch's."""
    if (wrap is not False and wrap is not True) or not isinstance(
        fill_value, (bool, int, float, complex, np.generic, Tensor)
    ):  # torch's parser: a bool wrap, a Number fill_value
        from .._signatures import reraise

        reraise("fill_diagonal_", (fill_value, wrap), {})
    nd = self.ndim
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = self._data.shape
    if nd > 2 and any(s != shape[0] for s in shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    strides = self.stride()
    step = sum(strides)
    size = min(shape)
    offset = self.storage_offset()
    S.as_strided(self, (size,), (step,), offset).fill_(fill_value)
    h, w = shape[0], shape[1]
    if wrap and nd == 2 and h > w + 1:
        extra = (self._data.size + w) // (w + 1) - size
        start = offset + strides[0] * (w + 1)
        S.as_strided(self, (extra,), (step,), start).fill_(fill_value)
    return self


_INDEX_REDUCES = ("prod", "mean", "amax", "amin")


def _index_reduce_fwd(
    self: np.ndarray,
    dim: int,
    index: np.ndarray,
    source: np.ndarray,
    reduce: str,
    include_self: bool,
) -> np.ndarray:
    from .indexing import _scatter_reduce_fwd

    return _scatter_reduce_fwd(self, dim, index, source, reduce, include_self)


def _index_reduce_grad(want_source: bool) -> Any:
    from .indexing import _scatter_reduce_grads

    def formula(
        grad: Tensor,
        self: Tensor,
        dim: int,
        index: np.ndarray,
        source: Tensor,
        reduce: str,
        include_self: bool,
        result: Tensor,
    ) -> Tensor:
        return _scatter_reduce_grads(
            grad, self, dim, index, source, reduce, include_self, result, want_source
        )

    return formula


_index_reduce = defop(
    "index_reduce",
    "IndexReduceBackward0",
    _index_reduce_fwd,
    dtype="keep",
    jvp=_no_derivative("index_reduce")[1],
    self=_index_reduce_grad(False),
    source=_index_reduce_grad(True),
)


def index_reduce(
    input: Tensor,
    dim: int,
    index: Tensor,
    source: Tensor,
    reduce: str,
    *,
    include_self: bool = True,
) -> Tensor:
    """Mirrors `torch.index_reduce`: source's slices along dim reduced into input's slices
    named by index; computed as a scatter_reduce over the index spread along dim."""
    from .._tensor import warn_once

    warn_once("index_reduce", "index_reduce() is in beta and the API may change at any time.")
    if reduce not in _INDEX_REDUCES:
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    d = wrap_dim(dim, input.ndim)
    a = index._data
    if a.ndim > 1:
        raise IndexError(
            "index_reduce_(): Index is supposed to be a vector, but got dim: "
            f"{a.ndim} with type: {index.dtype._short} and size: {shape_str(a.shape)}"
        )
    if a.dtype not in (np.int32, np.int64):
        raise RuntimeError(
            f"index_reduce_(): Expected dtype int32/int64 for index but got: {index.dtype._short}"
        )
    if input.dtype is not source.dtype:
        raise RuntimeError(
            f"index_reduce_(): self ({input.dtype._short}) and source ({source.dtype._short}) "
            "must have the same scalar type"
        )
    xs, ss = input._data.shape, source._data.shape
    if input.ndim and (
        len(xs) != len(ss)
        or any(x != y for k, (x, y) in enumerate(zip(xs, ss, strict=False)) if k != d)
    ):
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {shape_str(xs)} source.shape = {shape_str(ss)}"
        )
    m = ss[d] if source.ndim else 1
    if a.size != m:
        raise RuntimeError(
            f"index_reduce_(): Number of indices ({a.size}) should be equal to source.size(dim): "
            f"({m}), for dim: {d}"
        )
    n = xs[d] if input.ndim else 1
    if a.size and (a.max() >= n or a.min() < -n):
        raise IndexError("index out of range in self")
    if input.dtype is D.bool_:  # (no bool kernel, including self or not)
        kernel = "index_func_" if include_self else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    a = np.where(a < 0, a + n, a).astype(np.int64)
    shape = [1] * max(source.ndim, 1)
    shape[d] = a.size
    spread = np.ascontiguousarray(np.broadcast_to(a.reshape(shape), ss or (a.size,)))
    return _index_reduce(input, d, spread, source, reduce, bool(include_self))


# --- unravel_index, vander --------------------------------------------------------------------


def unravel_index(indices: Any, shape: Any) -> tuple[Tensor, ...]:
    """Mirrors `torch.unravel_index`: coordinates of flat indices (wrapped into range, as
    torch's floor-divide-and-remainder computes them)."""
    if not isinstance(indices, Tensor):
        raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'is_complex'")
    if indices.dtype.is_floating_point or indices.dtype.is_complex or indices.dtype is D.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    elif not isinstance(shape, (tuple, list)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    for s in shape:
        if not isinstance(s, (int, np.integer)):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(s)}")
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if 0 in shape:
        raise RuntimeError("ZeroDivisionError")
    coefs = np.cumprod((*shape[1:], 1)[::-1])[::-1].astype(np.int64)
    a = indices._data.astype(np.int64)[..., None]
    res = np.floor_divide(a, coefs) % np.array(shape, np.int64)
    idx = indices._data
    if idx.ndim > 1 and not idx.flags.c_contiguous and type(idx) is np.ndarray:
        # torch's (Python) unravel_index: indices.unsqueeze(-1) (stride 1) floor-divided by
        # the coefficients, laid out by TensorIterator over the two
        from .._formats import iterator_result

        st = (*(s // idx.itemsize for s in idx.strides), 1)
        unsq = np.lib.stride_tricks.as_strided(np.empty(1, np.int8), a.shape, st)
        res = iterator_result(res, [unsq, coefs])
    else:
        res = np.ascontiguousarray(res)
    return S.unbind(_make(res), -1)


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """Mirrors `torch.vander`, recorded as torch builds it: ones, the column x copied into
    the columns after the first, their cumulative product copied back, then a flip."""
    from .reduction import cumprod

    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x._data.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dt = D.promote_types(x.dtype, D.int64)
    out = _make(np.zeros((x._data.shape[0], n), dt._np))
    if n:
        out.fill_(1)  # torch fills an empty tensor: one version bump its saved slices count
    if n > 1:
        S.narrow(out, 1, 1, n - 1).copy_(S.unsqueeze(x, 1))
        S.narrow(out, 1, 1, n - 1).copy_(cumprod(S.narrow(out, 1, 1, n - 1), 1))
    return out if increasing else S.flip(out, (1,))


# --- exports --------------------------------------------------------------------------------

_BOTH = {
    "repeat_interleave": repeat_interleave,
    "unique": unique,
    "unique_consecutive": unique_consecutive,
    "split_with_sizes": split_with_sizes,
    "hsplit": hsplit,
    "vsplit": vsplit,
    "dsplit": dsplit,
    "cummax": cummax,
    "cummin": cummin,
    "logcumsumexp": logcumsumexp,
    "aminmax": aminmax,
    "bincount": bincount,
    "histc": histc,
    "put": put,
    "index_reduce": index_reduce,
}
_BOTH.update(
    {
        "select_scatter": select_scatter,
        "slice_scatter": slice_scatter,
        "diagonal_scatter": diagonal_scatter,
        "narrow_copy": narrow_copy,
        "diagflat": diagflat,
    }
)
# --- renorm ------------------------------------------------------------------------------------

_RENORM_EPS = 1e-7


def _renorm_parts(self: Tensor, p: float, dim: int) -> tuple[Tensor, Tensor, tuple[int, ...]]:
    """The p-norm of each slice along dim (kept as a dim) and the over-the-limit factor's
    ingredients: (norm, 1 / (norm + eps), reduced dims)."""
    from .reduction import _vector_norm

    dims = tuple(d for d in range(self.ndim) if d != dim)
    norm = _vector_norm(self, float(p), dims, True)
    return norm, (norm + _RENORM_EPS).reciprocal(), dims


def _renorm_fwd(self: np.ndarray, p: float, dim: int, maxnorm: float) -> np.ndarray:
    from .reduction import _vector_norm_fwd

    dims = tuple(d for d in range(self.ndim) if d != dim)
    norm = _vector_norm_fwd(self, float(p), dims, True)
    factor = np.where(norm > maxnorm, maxnorm / (norm + _RENORM_EPS), 1.0).astype(self.dtype)
    return self * factor


def _renorm_backward(grad: Tensor, self: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    # result = self * maxnorm / (norm + eps) on slices over the limit: the product rule, with the
    # norm's derivative applied to sum(grad * self) over the slice
    from .pointwise import where
    from .reduction import _norm_backward, _sum_over

    norm, inv, dims = _renorm_parts(self, p, dim)
    factor = inv * maxnorm
    # torch's renorm_backward: the real part of conj(self) * grad for a complex input (the norm
    # is real), which is grad * self for a real one
    gs = (self.conj() * grad).real if self.dtype.is_complex else grad * self
    nb = _norm_backward(_sum_over(gs, dims, True), self, p, norm, dims, True, self.dtype.is_complex)
    return where(norm > maxnorm, factor * grad - (factor * inv) * nb, grad)


def _renorm_t(self: Tensor, p: float, dim: int, maxnorm: float, self_t: Tensor) -> Tensor:
    from .pointwise import where
    from .reduction import _vector_norm_t

    norm, inv, dims = _renorm_parts(self, p, dim)
    factor = inv * maxnorm
    norm_t = _vector_norm_t(self, float(p), dims, True, self_t, norm)
    return where(norm > maxnorm, factor * self_t - (factor * inv) * norm_t * self, self_t)


_renorm = defop(
    "renorm",
    "RenormBackward0",
    _renorm_fwd,
    contiguous=True,
    dtype="keep",
    jvp=_renorm_t,
    self=_renorm_backward,
    complex=True,  # the backward above takes conj(self) for a complex input, as torch's
)


def renorm(input: Tensor, p: float, dim: int, maxnorm: float, *, out: Any = None) -> Tensor:
    """Mirrors `torch.renorm`: each slice along dim whose p-norm exceeds maxnorm is scaled to
    maxnorm (by maxnorm / (norm + 1e-7), as torch)."""
    if dim.__class__ is bool:  # torch's parser takes no bool for an int dim
        from .._signatures import reraise_op_frame

        reraise_op_frame(1)
    if input.ndim <= 1:
        raise RuntimeError(
            f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions"
        )
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    d = wrap_dim(dim, input.ndim)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {input.dtype._short}"
        )
    # an int p or maxnorm stays an int: torch's node saves the Scalar given (_saved_p)
    p, maxnorm = (v if type(v) is int else float(v) for v in (p, maxnorm))
    r = _renorm(input, p, d, maxnorm)
    if out is not None:
        from .pointwise import _out

        return _out(r, out, "renorm")
    return r


renorm_ = make_inplace(renorm)


def embedding_renorm_(input: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """Mirrors `torch.embedding_renorm_`: the rows at indices whose norm_type-norm exceeds
    max_norm are scaled in place to max_norm / (norm + 1e-7) of it.

    Differences: on a non-leaf that requires grad it is not recorded (torch records an
    EmbeddingRenormBackward0 node whose backward is not implemented)."""
    if indices.dtype not in (D.int64, D.int32):
        raise RuntimeError(
            "Expected tensor for argument #2 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {indices.type()} instead (while checking arguments for "
            "embedding_renorm_)"
        )
    if input._rg and input._grad_fn is None and _grad_mode.STATE.grad:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    w = input._data
    for i in np.unique(indices._data.reshape(-1)):
        i = int(i)
        if not -w.shape[0] <= i < w.shape[0]:
            raise IndexError(
                f"select(): index {i} out of range for tensor of size {shape_str(w.shape)} at "
                "dimension 0"
            )
        if w.dtype.kind in "biu":  # torch's kernel takes each selected row's norm
            raise RuntimeError(
                "norm(): input dtype should be either floating point or complex. Got "
                f"{input.dtype._short} instead."
            )
        row = w[i]
        norm = float(np.linalg.norm(row.reshape(-1).astype(np.float64), ord=norm_type))
        if norm > max_norm:
            row *= max_norm / (norm + _RENORM_EPS)
    input._bump()
    return input


# --- segment_reduce, nonzero_static, empty_permuted ----------------------------------------

_SEGMENT_REDUCES = {"sum": "sum", "mean": "mean", "max": "amax", "min": "amin", "prod": "prod"}


def _segment_masks(lengths: np.ndarray, n: int) -> np.ndarray:
    """(L, S, N) bool: position n of leading row l lies in segment s."""
    lens = lengths.reshape(-1, lengths.shape[-1]).astype(np.int64)
    ends = np.cumsum(lens, -1)
    pos = np.arange(n)
    return (pos >= (ends - lens)[..., None]) & (pos < ends[..., None])


def _segment_fwd(data: np.ndarray, reduce: str, lengths: np.ndarray, axis: int, initial: Any):
    m = _segment_masks(lengths, data.shape[axis])
    lead, rest = data.shape[:axis], data.shape[axis + 1 :]
    x = data.reshape(m.shape[0], 1, data.shape[axis], -1)  # (L, 1, N, R)
    mk = m[..., None]
    init = initial is not None
    with np.errstate(all="ignore"):
        if reduce in ("sum", "mean"):
            out = np.where(mk, x, 0).sum(2) + (initial if init else 0)
            if reduce == "mean":
                cnt = m.sum(-1)[..., None]
                out = np.where(cnt == 0, initial if init else np.nan, out / cnt)
        elif reduce == "prod":
            out = np.where(mk, x, 1).prod(2) * (initial if init else 1)
        else:
            fill = -np.inf if reduce == "max" else np.inf
            pick = np.max if reduce == "max" else np.min
            out = pick(np.where(mk, x, fill), 2)
            if init:
                out = (np.maximum if reduce == "max" else np.minimum)(out, initial)
    return out.astype(data.dtype).reshape(*lead, m.shape[1], *rest)


def _segment_bw(grad: Tensor, data: Tensor, result: Tensor, reduce: str, lengths: Any, axis: int,
                initial: Any) -> Tensor:  # fmt: skip
    x, g, r = data._data, grad._data, result._data
    m = _segment_masks(lengths, x.shape[axis]).astype(x.dtype)  # (L, S, N)
    xr = x.reshape(m.shape[0], x.shape[axis], -1)  # (L, N, R)
    gr, rr = g.reshape(m.shape[0], m.shape[1], -1), r.reshape(m.shape[0], m.shape[1], -1)
    mt = np.swapaxes(m, 1, 2)
    with np.errstate(all="ignore"):
        if reduce == "sum":
            out = mt @ gr
        elif reduce == "mean":
            cnt = m.sum(-1)[..., None]
            out = mt @ np.where(cnt == 0, 0, gr / np.where(cnt == 0, 1, cnt))
        elif reduce in ("max", "min"):
            hit = (xr == mt @ np.where(np.isfinite(rr), rr, 0)) & (mt.sum(-1)[..., None] > 0)
            cnt = m @ hit
            out = hit * (mt @ (gr / np.where(cnt == 0, 1, cnt)))
        else:
            zero = xr == 0
            zeros = m @ zero
            base = np.where(zero, 1, xr)
            others = np.where(m.astype(bool)[..., None], base[:, None], 1).prod(2)
            others = others * (initial if initial is not None else 1)  # product of the non-zeros
            back = mt @ (gr * others)
            one_zero = (mt @ (zeros == 1)) > 0
            none_zero = (mt @ (zeros == 0)) > 0
            out = np.where(zero, np.where(one_zero, back, 0), np.where(none_zero, back / base, 0))
    res = _make(np.ascontiguousarray(out.reshape(x.shape).astype(x.dtype)))
    return _not_implemented(res, (grad, data, result), "_segment_reduce_backward")


_segment_reduce = defop(
    "segment_reduce",
    "SegmentReduceBackward0",
    _segment_fwd,
    contiguous=True,
    dtype="keep",
    jvp=_no_derivative("segment_reduce")[1],
    data=_segment_bw,
)


def segment_reduce(
    data: Tensor,
    reduce: str,
    *,
    lengths: Tensor | None = None,
    indices: Tensor | None = None,
    offsets: Tensor | None = None,
    axis: int = 0,
    unsafe: bool = False,
    initial: Any = None,
) -> Tensor:
    """Mirrors `torch.segment_reduce`: data reduced along axis over consecutive segments given
    by lengths or offsets (SegmentReduceBackward0; its backward has no derivative, as torch's)."""
    if reduce not in _SEGMENT_REDUCES:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    axis = wrap_dim(axis, data.ndim)
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    if lengths is not None:
        lens = _int_repeats(lengths, "_segment_reduce_lengths_cpu_kernel1")
    else:
        off = _int_repeats(offsets, "_segment_reduce_offsets_cpu_kernel1")
        lens = off[..., 1:] - off[..., :-1]
    if data._data.dtype.kind != "f":
        name = data.dtype._short
        raise NotImplementedError(f"\"_segment_reduce_cpu\" not implemented for '{name}'")
    if axis != lens.ndim - 1:
        raise RuntimeError(
            f"segment_reduce(): Expected axis to be the last dimension of lengths but got {axis}."
        )
    if not unsafe:
        if lens.size and lens.min() < 0:
            raise RuntimeError("lengths contains negative value!")
        if (lens.sum(-1) != data.shape[axis]).any():
            raise RuntimeError(
                "segment_reduce(): Expected all rows of lengths along axis to sum to "
                "data.size(lengths.dim()-1) when !unsafe."
            )
    return _segment_reduce(data, reduce, lens, axis, initial)


def nonzero_static(input: Tensor, *args: Any, size: int, fill_value: int = -1) -> Tensor:
    """Mirrors `torch.nonzero_static`: nonzero's indices cut or padded to size rows."""
    if args:
        raise TypeError(
            f"nonzero_static() takes from 2 to 1 positional arguments but {len(args) + 1} were "
            "given"
        )
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    a = input._data
    idx = np.argwhere(a.reshape(1) if a.ndim == 0 else a).astype(np.int64)
    if a.ndim == 0:
        idx = idx[:, :0]
    out = np.full((size, a.ndim), fill_value, np.int64)
    k = min(size, idx.shape[0])
    out[:k] = idx[:k]
    return _make(out)


def empty_permuted(
    size: Any,
    physical_layout: Any,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Mirrors `torch.empty_permuted`: a tensor of size whose memory holds its dims in the
    order physical_layout (outermost first); zero-filled."""
    size, order = [int(s) for s in size], [int(p) for p in physical_layout]
    n = len(size)
    if len(order) != n:
        raise RuntimeError(
            "Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {n} is not equal to len(physical_layout) = {len(order)}"
        )
    seen = set()
    for i, p in enumerate(order):
        if not 0 <= p < n:
            raise RuntimeError(
                f"Dimension out of range (expected to be between 0 and {n - 1}, but got {p} at "
                f"index {i}).  NB: negative dims not currently supported; file an issue if you "
                "want it."
            )
        if p in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(p)
    d = dtype or D.get_default_dtype()
    phys = np.zeros([size[p] for p in order], d._np).transpose(np.argsort(order))
    return _creation._finish(phys, requires_grad)


_repeat_interleave_method.__wrapped__ = repeat_interleave  # type: ignore[attr-defined]
METHODS: dict[str, Any] = {
    "renorm": renorm,
    "renorm_": renorm_,
    **_BOTH,
    "repeat_interleave": _repeat_interleave_method,
    "hsplit": _dir_split_method("hsplit", hsplit),
    "vsplit": _dir_split_method("vsplit", vsplit),
    "dsplit": _dir_split_method("dsplit", dsplit),
    "unfold": unfold,
    "put_": _put_method(),
    "index_reduce_": make_inplace(index_reduce),
    "fill_diagonal_": fill_diagonal_,
    "as_strided_scatter": as_strided_scatter,
    "nonzero_static": nonzero_static,
}
FUNCTIONS: dict[str, Any] = {
    "segment_reduce": segment_reduce,
    "nonzero_static": nonzero_static,
    "empty_permuted": empty_permuted,
    "renorm": renorm,
    "embedding_renorm_": embedding_renorm_,
    **_BOTH,
    "block_diag": block_diag,
    "cartesian_prod": cartesian_prod,
    "combinations": combinations,
    "row_stack": row_stack,
    "searchsorted": searchsorted,
    "bucketize": bucketize,
    "trapezoid": trapezoid,
    "trapz": trapz,
    "cumulative_trapezoid": cumulative_trapezoid,
    "tril_indices": tril_indices,
    "triu_indices": triu_indices,
    "meshgrid": meshgrid,
    "broadcast_shapes": broadcast_shapes,
    "cdist": cdist,
    "as_strided_scatter": as_strided_scatter,
    "isin": isin,
    "unravel_index": unravel_index,
    "vander": vander,
    "logspace": _creation.logspace,
    "scalar_tensor": _creation.scalar_tensor,
    "range": _creation.range,
    "empty_strided": _creation.empty_strided,
    "frombuffer": _creation.frombuffer,
    "from_file": _creation.from_file,
}
