"""Saved-tensor hooks and multi-grad hooks.

Mirrors `torch.autograd.graph.saved_tensors_hooks`, `save_on_cpu`,
`disable_saved_tensors_hooks` and `register_multi_grad_hook`. The hook stack is thread-local,
as torch's is; `current_hooks()` gives the innermost (pack, unpack) pair, which `SavedTensor`
applies when a forward op saves a tensor (see graph.py).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .. import _grad_mode
from .graph import RemovableHandle

__all__ = [
    "allow_mutation_on_saved_tensors",
    "current_hooks",
    "disable_saved_tensors_hooks",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
]


# The active (pack, unpack) pairs, innermost last, as an immutable tuple in a context variable:
# each recorded op asks whether any is active, and a ContextVar read costs a quarter of a
# threading.local attribute's (Note [Grad mode in a context variable] in _grad_mode.py). A new
# thread starts with none, as in torch, where they are thread-local.
_STACK: contextvars.ContextVar[tuple[tuple[Callable[..., Any], Callable[..., Any]], ...]] = (
    contextvars.ContextVar("shadowgrad_saved_tensors_hooks", default=())
)
_DISABLED: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "shadowgrad_saved_tensors_hooks_disabled", default=None
)
stack = _STACK.get  # the hot path's read: a tuple, empty when no hooks are active


class _State:
    """The current context's hook stack and disabling message as attributes."""

    __slots__ = ()

    @property
    def stack(self) -> tuple[tuple[Callable[..., Any], Callable[..., Any]], ...]:
        return _STACK.get()

    @property
    def disabled(self) -> str | None:
        return _DISABLED.get()

    @disabled.setter
    def disabled(self, message: str | None) -> None:
        _DISABLED.set(message)


_STATE = _State()


def current_hooks() -> tuple[Callable[..., Any], Callable[..., Any]] | None:
    """The innermost (pack, unpack) pair, or None."""
    s = _STATE.stack
    return s[-1] if s else None


PACK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
    "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
    "Please open an issue if you need to perform in-place operations on the input to a pack hook."
)


def run_pack(pack_hook: Callable[..., Any], tensor: Any) -> Any:
    """pack_hook(tensor) with grad mode off; like torch's SavedVariable, a hook that modifies
    its input in place (bumps its version counter) is an error."""
    vc = tensor._vc
    before = 0 if vc is None else vc.v
    with _grad_mode.no_grad():
        packed = pack_hook(tensor)
    vc = tensor._vc
    if (0 if vc is None else vc.v) != before:
        raise RuntimeError(PACK_INPLACE)
    return packed


def pack(tensor: Any) -> Any:
    """Run the innermost pack hook on tensor (grad mode off); returns (packed, unpack)."""
    pack_hook, unpack_hook = _STATE.stack[-1]
    return run_pack(pack_hook, tensor), unpack_hook


class saved_tensors_hooks:
    """Pack/unpack hooks for tensors saved for backward. Mirrors torch's.

    Only the innermost pair applies; while one is active, saved tensors skip version checks.
    """

    def __init__(self, pack_hook: Callable[..., Any], unpack_hook: Callable[..., Any]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        if not (callable(self.pack_hook) and callable(self.unpack_hook)):
            raise TypeError(  # torch's pybind argument check
                "_push_saved_tensors_default_hooks(): incompatible function arguments. The "
                "following argument types are supported:\n    1. (arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked "
                f"with: {self.pack_hook!r}, {self.unpack_hook!r}"
            )
        if _STATE.disabled is not None:
            raise RuntimeError(_STATE.disabled)
        _STACK.set((*_STACK.get(), (self.pack_hook, self.unpack_hook)))
        return self

    def __exit__(self, *args: object) -> None:
        _STACK.set(_STACK.get()[:-1])


class save_on_cpu(saved_tensors_hooks):
    """Save tensors as CPU copies (on CPU: plain copies). Mirrors torch's."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Any) -> Any:
            return (tensor.device, tensor.detach().clone())

        def unpack_from_cpu(packed: Any) -> Any:
            return packed[1]

        super().__init__(pack_to_cpu, unpack_from_cpu)


class _AllowMutationOnSavedContext:
    """The state of one allow_mutation_on_saved_tensors context: the tensors saved under it."""

    def __init__(self) -> None:
        self.original: dict[int, Any] = {}

    def clear(self) -> None:
        self.original.clear()


_MUTATION_ENABLED = [False]
_OUTSIDE = (
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
    "in which the graph was originally recorded."
)


@contextlib.contextmanager
def allow_mutation_on_saved_tensors() -> Iterator[_AllowMutationOnSavedContext]:
    """Tensors saved for backward may be modified in place: backward uses their values at the
    time they were saved. Mirrors `torch.autograd.graph.allow_mutation_on_saved_tensors`.

    Differences: torch clones a saved tensor when an in-place op is about to modify it; here
    each one is copied when it is saved (the same values, more memory), and backward gets the
    tensor itself back while it is unmodified, the copy otherwise, as in torch.
    """
    ctx = _AllowMutationOnSavedContext()

    def pack_hook(tensor: Any) -> Any:
        key = len(ctx.original)
        ctx.original[key] = (tensor, tensor._version, tensor.detach().clone())
        return key

    def unpack_hook(key: Any) -> Any:
        if not _MUTATION_ENABLED[0] or key not in ctx.original:
            raise AssertionError(_OUTSIDE)
        tensor, version, copy = ctx.original[key]
        return tensor if tensor._version == version else copy

    with saved_tensors_hooks(pack_hook, unpack_hook):
        try:
            if _MUTATION_ENABLED[0]:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _MUTATION_ENABLED[0] = True
            yield ctx
        finally:
            ctx.clear()
            _MUTATION_ENABLED[0] = False


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Make entering saved_tensors_hooks raise RuntimeError(error_message). Mirrors torch's
    (a context manager that also decorates); entering it while hooks are active raises that
    error at once."""
    prev = _STATE.disabled
    try:
        _STATE.disabled = error_message
        if _STACK.get():
            raise RuntimeError(error_message)
        yield
    finally:
        _STATE.disabled = prev


class _MultiHandle(RemovableHandle):
    def __init__(self, handles: list[Any]) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()


def register_multi_grad_hook(
    tensors: Sequence[Any], fn: Callable[..., Any], *, mode: str = "all"
) -> RemovableHandle:
    """Call fn once per backward with the grads of tensors. Mirrors torch's.

    mode "all": fn(grads) once the grads of all the tensors that backward reaches are computed,
    a list with one grad per tensor (None for those not reached). mode "any": fn(grad) with the
    first grad computed in each backward.
    """
    from .engine import queue_callback

    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = list(tensors)
    if mode == "any":
        state = {"fired": False}

        def reset() -> None:
            state["fired"] = False

        def any_hook(grad: Any) -> None:
            if not state["fired"]:
                state["fired"] = True
                queue_callback(reset)
                fn(grad)

        return _MultiHandle([t.register_hook(any_hook) for t in tensors if t.requires_grad])

    for t in tensors:  # torch's _get_grad_fn_or_grad_acc, for each tensor first
        if not t.requires_grad:
            raise AssertionError("Expected gradient function to be set")
    from .engine import current_task_id, will_execute

    # as torch's: the first hook to fire in a backward counts the tensors' nodes that backward
    # executes, and fn runs inside the hook that completes that count, with the grads so far
    nodes = [t._edge()[0] for t in tensors]
    count: dict[int, int] = {}
    buffer: dict[int, list[Any]] = {}
    nb_calls: list[int] = [0]

    def make(i: int) -> Callable[[Any], None]:
        def hook(grad: Any) -> None:
            tid = current_task_id()
            cur = count.get(tid, 0)
            count[tid] = cur + 1
            buf = buffer.setdefault(tid, [None] * len(tensors))
            if cur == 0:
                nb_calls[0] = sum(map(will_execute, nodes))
            buf[i] = grad
            if cur == nb_calls[0] - 1:
                del count[tid], buffer[tid]
                fn(buf)

        return hook

    return _MultiHandle(
        [t.register_hook(make(i)) for i, t in enumerate(tensors) if t.requires_grad]
    )
