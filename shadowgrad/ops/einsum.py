"""torch.einsum, computed as torch computes it, so that its graph has torch's nodes.

torch's einsum (aten's Linear.cpp) aligns every operand to one label order (the output's labels,
then the contracted ones): repeated labels become diagonals, missing labels size-1 dims, then
one permute. It then contracts the operands left to right, each pair as a permute, a reshape to
3-d, a bmm, a view and a permute back (torch's sumproduct_pair), summing early the dims no other
operand still has. The values are those of any other order of sums up to rounding; the graph
(PermuteBackward0, ViewBackward0, BmmBackward0, SumBackward1, UnsqueezeBackward0, ...) is
torch's only this way.
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor

__all__ = ["einsum"]

_LETTERS = 26
_TOTAL = 2 * _LETTERS
_ELLIPSIS = _TOTAL


def _subscript(c: str) -> int:
    """A label [A-Za-z] as torch numbers it: upper case first."""
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + _LETTERS


def _label(s: int) -> str:
    return chr(ord("A") + s) if s < _LETTERS else chr(ord("a") + s - _LETTERS)


def _sublist_label(n: Any) -> str:
    """torch.einsum's sublist format: an int in [0, 52) or Ellipsis per dim."""
    if n is Ellipsis:
        return "..."
    if isinstance(n, int) and 0 <= n < _LETTERS:
        return chr(ord("A") + n)
    if isinstance(n, int) and _LETTERS <= n < _TOTAL:
        return chr(ord("a") + n - _LETTERS)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def einsum(*args: Any) -> Tensor:
    """Mirrors `torch.einsum`: an equation and operands (or one list of them), or the sublist
    format `einsum(op1, sublist1, op2, sublist2, ..., [sublist_out])`."""
    if len(args) < 2:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, or at least "
            "one operand and its subscripts list"
        )
    if isinstance(args[0], Tensor):
        equation = ",".join("".join(_sublist_label(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(_sublist_label(s) for s in args[-1])
            operands = list(args[:-1:2])
        else:
            operands = list(args[::2])
    else:
        equation = args[0]
        operands = list(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    if not isinstance(equation, str):
        raise TypeError(
            f"einsum(): argument 'equation' (position 1) must be str, not {type(equation).__name__}"
        )
    for k, op in enumerate(operands):
        if not isinstance(op, Tensor):
            raise TypeError(
                f"expected Tensor as element {k} in argument 1, but got {type(op).__name__}"
            )
    return _einsum(equation, operands)


def _parse_inputs(lhs: str, operands: list[Tensor]) -> list[list[int]]:
    num_ops = len(operands)
    labels: list[list[int]] = [[] for _ in range(max(num_ops, 1))]
    cur = 0
    ell_seen = False
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_seen:
                raise RuntimeError(
                    f"einsum(): found '.' for operand {cur} for which an ellipsis was already found"
                )
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(
                    f"einsum(): found '.' for operand {cur} that is not part of any ellipsis"
                )
            i += 2
            labels[cur].append(_ELLIPSIS)
            ell_seen = True
        elif c == ",":
            cur += 1
            if cur >= num_ops:
                raise RuntimeError(
                    "einsum(): fewer operands were provided than specified in the equation"
                )
            ell_seen = False
        else:
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {i} in the equation string, "
                    "subscripts must be in [a-zA-Z]"
                )
            labels[cur].append(_subscript(c))
        i += 1
    if cur != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return labels


def _einsum(equation: str, operands: list[Tensor]) -> Tensor:
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = _parse_inputs(lhs, operands)

    # label counts, and how many dims the widest ellipsis covers
    count = [0] * _TOTAL
    ell_num_dim = 0
    for k, (op, labels) in enumerate(zip(operands, op_labels, strict=True)):
        nd = op.ndim
        n = len(labels)
        has_ell = _ELLIPSIS in labels
        if has_ell:
            n -= 1
            ell_num_dim = max(ell_num_dim, nd - n)
        for s in labels:
            if s != _ELLIPSIS:
                count[s] += 1
        if (n > nd) if has_ell else (n != nd):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({n}) "
                + (
                    "is more than the number of dimensions ("
                    if has_ell
                    else "does not match the number of dimensions ("
                )
                + f"{nd}) for operand {k}"
                + ("" if has_ell else " and no ellipsis was given")
            )

    # each label's place in the aligned order: the output's labels, then the contracted ones
    place = [-1] * _TOTAL
    pos = 0
    ell_index = 0
    ell_in_output = False
    if arrow < 0:
        pos = ell_num_dim  # the implicit output: the ellipsis, then labels seen once
        ell_in_output = True
        for s in range(_TOTAL):
            if count[s] == 1:
                place[s] = pos
                pos += 1
    else:
        rhs = equation[arrow + 2 :]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError(
                        "einsum(): found '.' for output but an ellipsis (...) was already found"
                    )
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError(
                        "einsum(): found '.' for output that is not part of any ellipsis (...)"
                    )
                i += 2
                ell_index = pos
                pos += ell_num_dim
                ell_in_output = True
            else:
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(
                        f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the "
                        "equation string, subscripts must be in [a-zA-Z]"
                    )
                s = _subscript(c)
                if count[s] == 0 or place[s] != -1:
                    raise RuntimeError(
                        f"einsum(): output subscript {c}"
                        + (
                            " appears more than once in the output"
                            if place[s] > -1
                            else " does not appear in the equation for any input operand"
                        )
                    )
                place[s] = pos
                pos += 1
            i += 1
    out_num_dim = pos
    if not ell_in_output:
        ell_index = pos
        pos += ell_num_dim
    for s in range(_TOTAL):
        if count[s] > 0 and place[s] == -1:
            place[s] = pos
            pos += 1
    perm_index = pos

    # align each operand: diagonals for repeated labels, size-1 dims for missing ones, a permute
    label_size = [1] * _TOTAL
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops: list[Tensor] = []
    for k, (op, labels) in enumerate(zip(operands, op_labels, strict=True)):
        perm = [-1] * perm_index
        dim = 0
        for s in labels:
            if s == _ELLIPSIS:
                ndim = operands[k].ndim - (len(labels) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = op.shape[dim]
                    if size != 1:
                        if ell_sizes[j] != 1 and ell_sizes[j] != size:
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand "
                                f"{k}has size {size} which does not broadcast with previously "
                                f"seen ellipsis with size {ell_sizes[j]} for the respective "
                                "dimension"
                            )
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    perm[ell_index + j] = dim
                    dim += 1
            elif perm[place[s]] == -1:
                size = op.shape[dim]
                if size != 1:
                    if label_size[s] != 1 and label_size[s] != size:
                        raise RuntimeError(
                            f"einsum(): subscript {_label(s)} has size {size} for operand {k} "
                            f"which does not broadcast with previously seen size {label_size[s]}"
                        )
                    label_size[s] = size
                    dim_counts[place[s]] += 1
                perm[place[s]] = dim
                dim += 1
            else:
                prev = perm[place[s]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(
                        f"einsum(): subscript {_label(s)} is repeated for operand {k} but the "
                        f"sizes don't match, {op.shape[dim]} != {op.shape[prev]}"
                    )
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for p, v in enumerate(perm):
            if v == -1:
                op = op.unsqueeze(dim)
                perm[p] = dim
                dim += 1
        ops.append(op.permute(perm))

    # contract left to right
    while len(ops) > 1:
        a = ops.pop(0)
        b = ops.pop(0)
        sum_dims: list[int] = []
        a_sum: list[int] = []
        b_sum: list[int] = []
        for d in range(out_num_dim, perm_index):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, True)
        if b_sum:
            b = b.sum(b_sum, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    if perm_index - out_num_dim > 0:
        if len(operands) > 1:
            # the contracted dims are size 1 by now: dropped with a view
            sizes = list(ops[0].shape)
            del sizes[out_num_dim:perm_index]
            return ops[0].view(sizes)
        return ops[0].sum(list(range(out_num_dim, perm_index)))
    return ops[0]


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list[int]) -> Tensor:
    """(left * right).sum(sum_dims, keepdim=True) for aligned operands, as one bmm."""
    if not sum_dims:
        return left * right
    dim = left.ndim
    summed = set(sum_dims)
    lro: list[int] = []
    lo: list[int] = []
    ro: list[int] = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl = left.shape[i] != 1
        sr = right.shape[i] != 1
        if i in summed:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = [
        *(left.shape[d] for d in lro),
        *(left.shape[d] for d in lo),
        *(1 for _ in sum_dims),
        *(right.shape[d] for d in ro),
    ]
    lperm = [*lro, *lo, *sum_dims, *ro]
    rperm = [*lro, *sum_dims, *ro, *lo]
    operm = [-1] * len(out_size)
    for i, d in enumerate([*lro, *lo, *sum_dims, *ro]):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return left.bmm(right).view(out_size).permute(operm)
