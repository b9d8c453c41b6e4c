"""`torch.func.rearrange`: einops-style rearrangement ("b h w c -> b (c h w)") of a tensor.

torch's parses the pattern (functorch.einops, after einops' own parser), binds each named axis
to a first-class dim and reorders them; its result is the input's `as_strided` view with the
axes in the right-hand side's order, reshaped to the grouped output shape (a view, an alias or
a copy as `reshape` decides), then summed over any unnamed axis `1` of the left-hand side. This
module does the same with ordinary ops, and raises torch's errors and warnings: the parser's
ValueErrors and the binding's DimensionBindErrors, with torch's wording.
"""

from __future__ import annotations

import functools
import keyword
import math
import warnings
from typing import Any

__all__ = ["DimensionBindError", "rearrange"]

_ELLIPSIS = "\u2026"  # "..." once parsed: a single character


class DimensionBindError(Exception):
    """Mirrors `functorch.dim.DimensionBindError`: an axis size that cannot be bound."""


class _Anon:
    """An unnamed axis `1` of the left-hand side (each one distinct)."""

    __slots__ = ()


class _Expr:
    """One side of a pattern: `composition` is a list of groups (lists of axis names, `[]` for
    an unnamed `1`) and the ellipsis (a string)."""

    def __init__(self, expression: str) -> None:
        self.has_ellipsis = False
        self.ellipsis_in_group: bool | None = None
        self.identifiers: set[Any] = set()
        self.non_unitary_anon = False
        self.composition: list[Any] = []
        if "." in expression:
            if "..." not in expression:
                raise ValueError("Expression may contain dots only inside ellipsis (...)")
            if expression.count("...") != 1 or expression.count(".") != 3:
                raise ValueError(
                    "Expression may contain dots only inside ellipsis (...); only one ellipsis "
                    "for tensor "
                )
            expression = expression.replace("...", _ELLIPSIS)
            self.has_ellipsis = True
        group: list[Any] | None = None

        def add(name: str) -> None:
            if name in self.identifiers:
                raise ValueError(f"Indexing expression contains duplicate dimension '{name}'")
            if name == _ELLIPSIS:
                self.identifiers.add(_ELLIPSIS)
                if group is None:
                    self.composition.append(_ELLIPSIS)
                    self.ellipsis_in_group = False
                else:
                    group.append(_ELLIPSIS)
                    self.ellipsis_in_group = True
                return
            number = name.isdecimal()
            if number and int(name) == 1:
                if group is None:  # a `1` inside brackets changes nothing
                    self.composition.append([])
                return
            valid, reason = _check_axis_name(name)
            if not (number or valid):
                raise ValueError(f"Invalid axis identifier: {name}\n{reason}")
            if number:
                if int(name) < 1:
                    raise ValueError(f"Anonymous axis should have positive length, not {int(name)}")
                self.non_unitary_anon = True
                axis: Any = object()  # einops' AnonymousAxis: never equal to another
            else:
                axis = name
            self.identifiers.add(axis)
            if group is None:
                self.composition.append([axis])
            else:
                group.append(axis)

        current: str | None = None
        for char in expression:
            if char in "() ":
                if current is not None:
                    add(current)
                current = None
                if char == "(":
                    if group is not None:
                        raise ValueError(
                            "Axis composition is one-level (brackets inside brackets not allowed)"
                        )
                    group = []
                elif char == ")":
                    if group is None:
                        raise ValueError("Brackets are not balanced")
                    self.composition.append(group)
                    group = None
            elif char.isalnum() or char in ("_", _ELLIPSIS):
                current = char if current is None else current + char
            else:
                raise ValueError(f"Unknown character '{char}'")
        if group is not None:
            raise ValueError(f"Imbalanced parentheses in expression: '{expression}'")
        if current is not None:
            add(current)


def _check_axis_name(name: str) -> tuple[bool, str]:
    if not name.isidentifier():
        return False, "not a valid python identifier"
    if name[0] == "_" or name[-1] == "_":
        return False, "axis name should should not start or end with underscore"
    if keyword.iskeyword(name):
        warnings.warn(
            f"It is discouraged to use axes names that are keywords: {name}",
            RuntimeWarning,
            stacklevel=2,
        )
    if name == "axis":
        warnings.warn(
            "It is discouraged to use 'axis' as an axis name and will raise an error in future",
            FutureWarning,
            stacklevel=2,
        )
    return True, ""


@functools.lru_cache(256)  # as torch's: a pattern's warnings are given once
def _plan(ndim: int, pattern: str, **axes_lengths: int) -> Any:
    """The parsed pattern for an ndim-dimensional input: (left dims per input dim, right dims
    per output dim, unnamed left dims, given lengths), each dim an index `d{i}`; None for the
    identity on a 0-d tensor."""
    try:
        left_str, right_str = pattern.split("->")
    except ValueError:
        raise ValueError("Pattern must contain a single '->' separator") from None
    if _ELLIPSIS in axes_lengths:
        raise ValueError(f"'{_ELLIPSIS}' is not an allowed axis identifier")
    left, right = _Expr(left_str), _Expr(right_str)
    if not left.has_ellipsis and right.has_ellipsis:
        raise ValueError(f"Ellipsis found in right side, but not left side of a pattern {pattern}")
    if left.has_ellipsis and left.ellipsis_in_group:
        raise ValueError(f"Ellipsis is parenthesis in the left side is not allowed: {pattern}")
    for length in axes_lengths.values():
        if type(length) is not int:
            raise TypeError(f"rearrange axis lengths must be integers, got: {type(length)}")
    if left.non_unitary_anon or right.non_unitary_anon:
        raise ValueError("rearrange only supports unnamed axes of size 1")
    difference = left.identifiers ^ right.identifiers
    if difference:
        raise ValueError(
            "Identifiers only on one side of rearrange expression (should be on both): "
            f"{difference}"
        )
    unmatched = axes_lengths.keys() - left.identifiers
    if unmatched:
        raise ValueError(f"Identifiers not found in rearrange expression: {unmatched}")

    n_anon = sum(not group for group in left.composition)
    if left.has_ellipsis:
        n_ellipsis = ndim - (len(left.composition) - 1)
        n_named = len(left.identifiers) - 1
        if (pattern_ndim := n_anon + n_named) > ndim:
            raise ValueError(
                f"Number of dimensions in pattern ({pattern_ndim}) must be less than or equal "
                f"to the number of dimensions in the tensor ({ndim})"
            )
    else:
        n_ellipsis = 0
        n_named = len(left.identifiers)
        if (pattern_ndim := len(left.composition)) != ndim:
            raise ValueError(
                f"Number of dimensions in pattern ({pattern_ndim}) must be equal to the number "
                f"of dimensions in the tensor ({ndim})"
            )
    if n_named + n_ellipsis + n_anon == 0:
        return None
    dim_of: dict[Any, tuple[int, ...]] = {}
    anon: list[int] = []
    left_dims: list[tuple[int, ...]] = []
    i = 0
    for group in left.composition:
        if group == _ELLIPSIS:
            dim_of[_ELLIPSIS] = tuple(range(i, i + n_ellipsis))
            left_dims.extend((d,) for d in dim_of[_ELLIPSIS])
            i += n_ellipsis
            continue
        dims = []
        for name in group:
            dim_of[name] = (i,)
            dims.append(i)
            i += 1
        if not group:
            anon.append(i)
            dims.append(i)
            i += 1
        left_dims.append(tuple(dims))
    right_dims: list[tuple[int, ...]] = []
    for group in right.composition:
        if group == _ELLIPSIS:
            right_dims.extend((d,) for d in dim_of[_ELLIPSIS])
        else:
            right_dims.append(tuple(d for name in group for d in dim_of[name]))
    given = tuple((dim_of[name][0], length) for name, length in axes_lengths.items())
    return i, tuple(left_dims), tuple(right_dims), tuple(anon), given


def _bind(size: int, stride: int, pack: tuple[int, ...], sizes: list[Any], strides: list[int]):
    """functorch.dim's binding of a pack of dims to one input dim: at most one unknown size,
    inferred; then each dim's stride within the input dim."""
    prod = 1
    for k, d in enumerate(pack):
        if sizes[d] is None:
            for e in pack[k + 1 :]:
                if sizes[e] is None:
                    raise DimensionBindError(
                        f"cannot infer the sizes of two dimensions at once d{d} and d{e}"
                    )
                prod *= sizes[e]
            if size % prod != 0:
                shown = tuple("?" if sizes[e] is None else sizes[e] for e in pack)
                raise DimensionBindError(
                    "inferred dimension does not evenly fit into larger dimension: "
                    f"{size} vs {shown}"
                )
            sizes[d] = size // prod
            prod = size
            break
        prod *= sizes[d]
    if prod != size:
        names = ", ".join(f"d{e}" for e in pack)
        shown = f"({names},)" if len(pack) == 1 else f"({names})"
        raise DimensionBindError(
            f"Dimension sizes to do not match ({size} != {prod}) when matching dimension pack "
            f"{shown}"
        )
    current = stride
    for d in reversed(pack):
        strides[d] = current
        current *= sizes[d]


def rearrange(tensor: Any, pattern: str, **axes_lengths: int) -> Any:
    """Mirrors `torch.func.rearrange`: einops' rearrange (transpose, reshape, squeeze,
    unsqueeze, stack and concatenate by pattern); a sequence of tensors is stacked first.

    >>> rearrange(torch.randn(32, 30, 40, 3), "b h w c -> b (c h w)").shape
    torch.Size([32, 3600])
    """
    from . import _tensor, stack

    if not isinstance(tensor, _tensor.Tensor):
        tensor = stack(tensor)
    plan = _plan(tensor.ndim, pattern, **axes_lengths)
    if plan is None:
        return tensor
    n, left_dims, right_dims, anon, given = plan
    sizes: list[Any] = [None] * n
    strides = [0] * n
    for d, length in given:
        sizes[d] = None if length == -1 else length  # functorch.dim's size -1: unbound
    if len(left_dims) == 1 and len(left_dims[0]) > 1:
        # torch indexes a 1-d tensor with the group's dims as a tuple: read as that many indices
        raise ValueError(
            f"at least {len(left_dims[0])} indices were supplied but the tensor only has 1 "
            "dimensions"
        )
    for pack, size, stride in zip(left_dims, tensor.shape, tensor.stride(), strict=True):
        _bind(size, stride, pack, sizes, strides)
    # torch's first-class dims view the input (as_strided, axes in the left-hand side's
    # order), then view that in the output's order when it differs
    offset = tensor.storage_offset()
    view = tensor.as_strided(sizes, strides, offset)
    if anon and len(anon) + len(right_dims) > tensor.ndim:
        # functorch.dim's sum over the unnamed axes fails when the output has new axes `1`
        raise AssertionError(
            f"Tensor has {len(anon) + len(right_dims)} dimensions but {tensor.ndim} levels provided"
        )
    order = [*anon, *(d for group in right_dims for d in group)]
    if order != list(range(n)):
        view = view.as_strided([sizes[d] for d in order], [strides[d] for d in order], offset)
    shape = [sizes[d] for d in anon] + [math.prod(sizes[d] for d in g) for g in right_dims]
    out = view.reshape(shape)
    return out.sum(tuple(range(len(anon))), keepdim=False) if anon else out
