"""Switches for behaviours that will change. Mirrors `torch.__future__`: how nn.Module's
conversions (`.to()`, `.double()`, ...) update parameters: in place with `param.data = new`
(the default), as new Parameter objects (overwrite), or by swap_tensors (swap), which
load_state_dict also uses."""

from __future__ import annotations

__all__ = [
    "get_overwrite_module_params_on_conversion",
    "get_swap_module_params_on_conversion",
    "set_overwrite_module_params_on_conversion",
    "set_swap_module_params_on_conversion",
]

_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Mirrors `torch.__future__.set_overwrite_module_params_on_conversion`."""
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    """Mirrors `torch.__future__.get_overwrite_module_params_on_conversion`."""
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Mirrors `torch.__future__.set_swap_module_params_on_conversion`."""
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    """Mirrors `torch.__future__.get_swap_module_params_on_conversion`."""
    return _swap_module_params_on_conversion
