"""Small helpers shared by the op families: dim wrapping and argument checks."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np


def wrap_dim(dim: int, ndim: int) -> int:
    """Torch's dim wrapping, with its IndexError for out-of-range dims."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        if type(dim) is int and not -(2**63) <= dim < 2**63:  # torch's parser cannot read it
            raise ValueError("Overflow when unpacking long long")
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n if ndim else 0


def size_at(shape: tuple[int, ...], dim: int) -> int:
    """ATen's `Tensor::size(dim)`: a 0-d tensor has no size to read (its IndexError names the
    dim as given), otherwise the dim is wrapped with wrap_dim's error."""
    if not shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return shape[wrap_dim(dim, len(shape))]


def wrap_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(ndim))
    if type(dim) is int:  # (a bool is no dim: iterating it raises, for the parser's error)
        return (wrap_dim(dim, ndim),)
    out = tuple(wrap_dim(d, ndim) for d in dim)
    if out and type(dim[0]) is bool:
        # torch's parser reads an int list by its first element: a bool there is no int (the
        # op's own parser error, from its TypeError path)
        raise TypeError("a bool is not a dim")
    if len(set(out)) != len(out):
        raise RuntimeError(f"dim {out[0]} appears multiple times in the list of dims")
    return out


def shape_str(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def expand_array(a: Any, size: Any) -> Any:
    """`a` expanded to `size` as torch's expand aliases it: a writable view when nothing is
    repeated, else a read-only broadcast view (writing into it is torch's overlap error)."""
    if a.size == math.prod(size):
        return a.reshape(size)
    if not a.ndim:  # a reduction's gradient: np.broadcast_to's view, built at a quarter the cost
        size = tuple(size)
        out = type(a)(size, a.dtype, a, 0, (0,) * len(size))  # (a meta array stays meta)
        out.flags.writeable = False
        return out
    return np.broadcast_to(a, size)


def autograd_checks_first(method: Callable[..., Any]) -> Callable[..., Any]:
    """An in-place method whose own argument checks come before apply_inplace: torch's
    autograd layer checks self first (a leaf, or a view of one, that requires grad; an
    inference tensor), then the kernel its arguments, so an argument error on such a self is
    the autograd one. Only the error path pays (the argument parser's TypeErrors come first in
    torch too)."""

    @functools.wraps(method)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except (RuntimeError, IndexError, ValueError):
            check = getattr(self, "_check_inplace", None)
            if check is not None:
                check()
                x = self._x
                if self._rg and x is not None and x.multi_view and self._base is not None:
                    # a multi-output view (unbind's, split's) that autograd would record
                    from .._grad_mode import is_grad_enabled
                    from .views import check_view_inplace

                    if is_grad_enabled():
                        check_view_inplace(self, self._base)
            raise

    return checked
