"""`torch.nn.DataParallel` and `torch.nn.parallel.data_parallel` as torch has them on a machine
without an accelerator (shadowgrad's only kind): the wrapper holds the module as `module` (so
its state_dict keys take the `module.` prefix) and its forward calls the module; the
functional form cannot tell a device type."""

from __future__ import annotations

from typing import Any

from ..modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


class DataParallel(Module):
    """Mirrors `torch.nn.DataParallel` without an accelerator: no device ids, the module is
    called as is."""

    def __init__(
        self,
        module: Any,
        device_ids: Any = None,
        output_device: Any = None,
        dim: int = 0,
    ) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list[int] = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


def data_parallel(
    module: Any,
    inputs: Any,
    device_ids: Any = None,
    output_device: Any = None,
    dim: int = 0,
    module_kwargs: Any = None,
) -> Any:
    """Mirrors `torch.nn.parallel.data_parallel`: without an accelerator torch cannot determine
    a device type."""
    raise RuntimeError("device type could not be determined")
