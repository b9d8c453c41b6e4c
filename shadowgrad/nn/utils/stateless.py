"""functional_call (deprecated here in favour of torch.func) and the context manager behind it.
Mirrors `torch.nn.utils.stateless`."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

from ..._tensor import Tensor
from ..modules.module import Module

__all__ = ["functional_call"]


@contextlib.contextmanager
def _reparametrize_module(
    module: Module,
    parameters_and_buffers: dict[str, Tensor],
    tie_weights: bool = False,
    strict: bool = False,
    stack_weights: bool = False,
) -> Iterator[None]:
    """Inside the block, `module`'s named parameters, buffers and tensor attributes are the given
    tensors; afterwards the originals are back, and the values the module held at the end are
    written into `parameters_and_buffers`. Mirrors torch's private
    `torch.nn.utils.stateless._reparametrize_module`."""
    from ...func import _check_keys, _swap_all, _untie

    values = _untie(module, parameters_and_buffers) if tie_weights else parameters_and_buffers
    if strict:
        _check_keys(module, values)
    originals: dict[str, Any] = {}
    try:
        originals = _swap_all(module, values)
        yield
    finally:
        if stack_weights:
            originals = dict(reversed(originals.items()))
        now = _swap_all(module, originals)
        parameters_and_buffers.update({k: now[k] for k in parameters_and_buffers if k in now})


def _functional_call(
    module: Module,
    parameters_and_buffers: dict[str, Tensor],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """functional_call without the deprecation warning. Mirrors torch's private
    `torch.nn.utils.stateless._functional_call`."""
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(
        module, parameters_and_buffers, tie_weights=tie_weights, strict=strict
    ):
        return module(*args, **kwargs)


def functional_call(
    module: Module,
    parameters_and_buffers: dict[str, Tensor],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Call `module` with some parameters and buffers replaced. Mirrors
    `torch.nn.utils.stateless.functional_call` (deprecated there, with the same FutureWarning)."""
    from ... import func

    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` instead "
        "which is a drop-in replacement.",
        FutureWarning,
        stacklevel=2,
    )
    return func.functional_call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )
