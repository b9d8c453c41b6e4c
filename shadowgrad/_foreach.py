"""torch's in-place `_foreach_*_` functions (torch._foreach_mul_, ...), which user code such as
a weights EMA (`_foreach_lerp_`, `_foreach_mul_`, `_foreach_add_`) calls under no_grad. Each
applies the one-tensor in-place method element by element (same checks, version bumps and
errors) after torch's list checks, and returns `self`, as torch does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._tensor import Tensor

__all__ = [
    "_foreach_abs_",
    "_foreach_add_",
    "_foreach_addcdiv_",
    "_foreach_addcmul_",
    "_foreach_clamp_max_",
    "_foreach_clamp_min_",
    "_foreach_copy_",
    "_foreach_div_",
    "_foreach_exp_",
    "_foreach_lerp_",
    "_foreach_mul_",
    "_foreach_neg_",
    "_foreach_reciprocal_",
    "_foreach_sign_",
    "_foreach_sqrt_",
    "_foreach_sub_",
    "_foreach_zero_",
]


def _check(self: Sequence[Tensor], *others: Any) -> list[Tensor]:
    ts = list(self)
    if not ts:
        raise RuntimeError("Tensor list must have at least one tensor.")
    for o in others:
        if isinstance(o, (list, tuple)):
            if o and isinstance(o[0], Tensor):
                if len(o) != len(ts):
                    raise RuntimeError(
                        "Tensor lists must have the same number of tensors, "
                        f"got {len(ts)} and {len(o)}"
                    )
            elif len(o) != len(ts):
                raise RuntimeError("Tensor list must have same number of elements as scalar list.")
    return ts


def _nth(o: Any, i: int) -> Any:
    return o[i] if isinstance(o, (list, tuple)) else o


def _binary(method: str) -> Any:
    def fn(self: Sequence[Tensor], other: Any, **kw: Any) -> Any:
        ts = _check(self, other)
        for i, t in enumerate(ts):
            getattr(t, method)(_nth(other, i), **kw)
        return self

    fn.__name__ = fn.__qualname__ = f"_foreach_{method}"
    return fn


def _unary(method: str) -> Any:
    def fn(self: Sequence[Tensor]) -> Any:
        for t in _check(self):
            getattr(t, method)()
        return self

    fn.__name__ = fn.__qualname__ = f"_foreach_{method}"
    return fn


_foreach_add_ = _binary("add_")
_foreach_sub_ = _binary("sub_")
_foreach_mul_ = _binary("mul_")
_foreach_div_ = _binary("div_")
_foreach_clamp_min_ = _binary("clamp_min_")
_foreach_clamp_max_ = _binary("clamp_max_")
_foreach_abs_ = _unary("abs_")
_foreach_exp_ = _unary("exp_")
_foreach_neg_ = _unary("neg_")
_foreach_reciprocal_ = _unary("reciprocal_")
_foreach_sign_ = _unary("sign_")
_foreach_sqrt_ = _unary("sqrt_")
_foreach_zero_ = _unary("zero_")


def _foreach_copy_(
    self: Sequence[Tensor], src: Sequence[Tensor], non_blocking: bool = False
) -> Any:
    for i, t in enumerate(_check(self, src)):
        t.copy_(src[i], non_blocking)
    return self


def _foreach_lerp_(self: Sequence[Tensor], tensors1: Sequence[Tensor], weight: Any) -> Any:
    ts = _check(self, tensors1, weight)
    for i, t in enumerate(ts):
        t.lerp_(tensors1[i], _nth(weight, i))
    return self


def _foreach_addcmul_(
    self: Sequence[Tensor], tensor1: Sequence[Tensor], tensor2: Sequence[Tensor], value: Any = 1
) -> Any:
    ts = _check(self, tensor1, tensor2, value)
    for i, t in enumerate(ts):
        t.addcmul_(tensor1[i], tensor2[i], value=_nth(value, i))
    return self


def _foreach_addcdiv_(
    self: Sequence[Tensor], tensor1: Sequence[Tensor], tensor2: Sequence[Tensor], value: Any = 1
) -> Any:
    ts = _check(self, tensor1, tensor2, value)
    for i, t in enumerate(ts):
        t.addcdiv_(tensor1[i], tensor2[i], value=_nth(value, i))
    return self
