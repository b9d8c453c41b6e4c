"""Running an optimizer on other parameters and state for a while. Mirrors
`torch.optim.swap_in_optimizer_params_and_state`."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from .._tensor import Tensor
from .optimizer import Optimizer

__all__ = ["swap_in_optimizer_params_and_state"]

_NAME = "swap_in_optimizer_params_and_state"
_PACKED = f"{_NAME} requires optimizer.state_dict()-style "


def _check_state(state: Any) -> dict[Any, Any]:
    """`state` maps packed parameter ids to per-parameter dicts."""
    if not isinstance(state, dict):
        raise RuntimeError(
            f"{_NAME} requires swapin_optim_state['state'] to be a dict mapping packed parameter "
            f"ids to per-param state dicts, got {type(state).__name__}."
        )
    if any(isinstance(k, Tensor) for k in state):
        raise RuntimeError(_PACKED + "state keyed by packed parameter ids.")
    if any(isinstance(k, int) and not isinstance(v, dict) for k, v in state.items()):
        raise RuntimeError(
            f"{_NAME} requires per-parameter optimizer state entries to be dictionaries."
        )
    return state


def _check_groups(optimizer: Optimizer, groups: Any) -> list[dict[str, Any]]:
    if not isinstance(groups, list):
        raise RuntimeError(
            f"{_NAME} requires swapin_optim_state['param_groups'] to be a list of param-group "
            f"dicts, got {type(groups).__name__}."
        )
    if len(groups) != len(optimizer.param_groups):
        raise RuntimeError(
            "swapin_optim_state has a different number of parameter groups than the live optimizer."
        )
    return groups


def _check_group(idx: int, live: dict[str, Any], given: Any) -> list[int]:
    """One swap-in group against its live group: its packed parameter ids."""
    if not isinstance(given, dict):
        raise RuntimeError(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = given.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise RuntimeError(
            _PACKED + "param_groups[*]['params'] entries keyed by packed parameter ids."
        )
    if len(live["params"]) != len(ids):
        raise RuntimeError(
            f"swapin_optim_state param group {idx} has a different number of params than the "
            "live optimizer param group."
        )
    only_given = [k for k in given if k not in live]
    only_live = [k for k in live if k not in given]
    if only_given or only_live:
        raise RuntimeError(
            _PACKED + "param group keys to exactly match the live optimizer group keys for "
            f"group {idx}. Keys only in swap-in: {only_given}. Keys only in live: {only_live}."
        )
    return ids


def _prepare(
    optimizer: Optimizer, params: dict[str, Tensor], optim_state: Any
) -> tuple[dict[Any, Any], list[tuple[dict[str, Any], dict[str, Any], list[Tensor]]]]:
    """Validate the swap-in state; pair each live group with its swap-in group and tensors."""
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = _check_state(optim_state.get("state"))
    groups = _check_groups(optimizer, optim_state.get("param_groups"))
    flat = list(params.values())
    offset = 0
    seen: set[int] = set()
    pairs = []
    for idx, (live, given) in enumerate(zip(optimizer.param_groups, groups, strict=True)):
        ids = _check_group(idx, live, given)
        seen.update(ids)
        end = offset + len(ids)
        if end > len(flat):
            raise RuntimeError(
                f"{_NAME} requires the explicit parameter state to match optimizer.param_groups "
                "ordering."
            )
        pairs.append((live, given, flat[offset:end]))
        offset = end
    extra = [k for k in state if k not in seen]
    if extra:
        raise RuntimeError(
            f"{_NAME} requires swapin_optim_state['state'] to be keyed only by packed parameter "
            f"ids from param_groups[*]['params']; got extra keys {extra!r}."
        )
    return state, pairs


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(
    optimizer: Optimizer,
    swapin_parameters: dict[str, Tensor],
    swapin_optim_state: dict[str, Any],
) -> Iterator[None]:
    """Mirrors `torch.optim.swap_in_optimizer_params_and_state`: inside the context the
    optimizer's groups hold the given parameters (in param_groups order) and the given
    state_dict's hyperparameters, and its state is that state_dict's, keyed by those
    parameters; on exit the live groups and state come back. In-place changes to the given
    state's tensors stay; new entries do not."""
    state, pairs = _prepare(optimizer, swapin_parameters, swapin_optim_state)
    live_state = optimizer.state
    # shallow copies: the restored groups keep their own `params` list objects
    snapshots = [dict(g) for g in optimizer.param_groups]
    try:
        swapped: defaultdict[Tensor, Any] = defaultdict(dict)
        for live, given, tensors in pairs:
            live["params"] = tensors
            for key, value in given.items():
                if key != "params":
                    live[key] = value
            for p, pid in zip(tensors, given["params"], strict=True):
                swapped[p] = dict(state.get(pid, {}))
        optimizer.state = swapped
        yield
    finally:
        for group, snap in zip(optimizer.param_groups, snapshots, strict=True):
            group.clear()
            group.update(snap)
        optimizer.state = live_state
