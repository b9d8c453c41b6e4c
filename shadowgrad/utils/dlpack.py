"""DLPack interchange. Mirrors `torch.utils.dlpack`."""

from __future__ import annotations

import enum
from typing import Any

from .._creation import from_dlpack

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (dlpack.h), as torch.utils.dlpack.DLDeviceType."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


def to_dlpack(tensor: Any) -> Any:
    """A DLPack capsule of the tensor's memory. Mirrors `torch.utils.dlpack.to_dlpack`, which,
    unlike `Tensor.__dlpack__`, exports a tensor that requires grad."""
    from .._tensor import _make

    t = tensor
    if t.requires_grad:
        t = _make(t._data)
    # a versioned capsule: numpy imports an unversioned one read-only (a capsule from torch's
    # to_dlpack gives a tensor whose writes raise)
    return t.__dlpack__(max_version=(1, 0))
