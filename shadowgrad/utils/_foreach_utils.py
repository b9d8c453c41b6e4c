"""Mirrors `torch.utils._foreach_utils`: the helpers torch's optimizers and clip_grad_norm_ use
to decide on, and to group tensors for, the foreach kernels."""

from __future__ import annotations

from typing import Any, TypeAlias

from .._grad_mode import no_grad
from .._tensor import Tensor

__all__: list[str] = []

TensorListList: TypeAlias = list[list[Tensor | None]]
Indices: TypeAlias = list[int]
_foreach_supported_types = [Tensor]


def _get_foreach_kernels_supported_devices() -> list[str]:
    r"""Return the device type list that supports foreach kernels."""
    return ["cuda", "xpu", "mtia", "privateuseone"]


def _get_fused_kernels_supported_devices() -> list[str]:
    r"""Return the device type list that supports fused kernels in optimizer."""
    return ["mps", "cuda", "xpu", "hpu", "cpu", "mtia", "privateuseone"]


def _check(ok: bool, cond: str) -> None:
    if not ok:
        raise RuntimeError(
            f"Expected {cond} to be true, but got false.  (Could this error message be improved?  "
            "If so, please report an enhancement request to PyTorch.)"
        )


@no_grad()
def _group_tensors_by_device_and_dtype(
    tensorlistlist: TensorListList, with_indices: bool = False
) -> dict[tuple[Any, Any], tuple[TensorListList, Indices]]:
    """torch's C++ `_group_tensors_by_device_and_dtype`: the lists' i-th tensors grouped by the
    device and dtype of the first list's (which may hold no None), each group with the indices
    it came from when `with_indices`. Lists after the first may be empty."""
    _check(len(tensorlistlist) > 0, "!nested_tensorlist.empty()")
    n = len(tensorlistlist[0])
    _check(
        all(len(tl) in (n, 0) for tl in tensorlistlist),
        "std::all_of( nested_tensorlist.cbegin(), nested_tensorlist.cend(), [&](const auto& "
        "tensorlist) -> bool { return tensorlist.size() == num_tensors || tensorlist.size() == "
        "0; })",
    )
    groups: dict[tuple[Any, Any], tuple[TensorListList, Indices]] = {}
    for i, t in enumerate(tensorlistlist[0]):
        if t is None:
            raise RuntimeError(
                "Tensors of the first list of nested Tensor lists are supposed to be defined but "
                f"the {i}-th Tensor is not."
            )
        key = (t.device, t.dtype)
        g = groups.get(key)
        if g is None:
            g = groups[key] = ([[] for _ in tensorlistlist], [])
        for lst, tl in zip(g[0], tensorlistlist, strict=True):
            if tl:
                lst.append(tl[i])
        if with_indices:
            g[1].append(i)
    # torch's result comes from an unordered_map: the groups in reverse order of first sight
    return dict(reversed(groups.items()))


def _device_has_foreach_support(device: Any) -> bool:
    return device.type in [*_get_foreach_kernels_supported_devices(), "cpu"]


def _has_foreach_support(tensors: list[Tensor], device: Any) -> bool:
    return _device_has_foreach_support(device) and all(
        t is None or type(t) in _foreach_supported_types for t in tensors
    )
