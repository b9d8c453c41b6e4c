"""Activation checkpointing: checkpoint and checkpoint_sequential. Mirrors
`torch.utils.checkpoint`.

Two variants, as in torch. The reentrant one (`use_reentrant=True`, still torch's default when
the argument is left out, with a warning) is a custom Function, `CheckpointFunction`: its forward
runs the function under no_grad, and its backward runs it again with grad enabled and calls
`autograd.backward` on the recomputed outputs (a backward inside the backward). The non-reentrant
one runs the function normally but under saved-tensor hooks that keep only a placeholder for
each saved tensor; the first unpack in a backward runs the function again under recording hooks
and hands out the recomputed tensors. See Note [Checkpoint recomputation].

Differences: `debug=True` adds no operator log to errors; selective checkpointing
(`create_selective_checkpoint_contexts`) and device states other than the CPU RNG are not
provided.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import _grad_mode
from .._random import get_rng_state, set_rng_state
from .._tensor import Tensor
from ..autograd import engine as _engine
from ..autograd.function import Function
from ..autograd.saved_hooks import saved_tensors_hooks
from ._pytree import tree_map  # noqa: F401  (torch's checkpoint module has it)

__all__ = [
    "CheckpointError",
    "CheckpointFunction",
    "check_backward_validity",
    "checkpoint",
    "checkpoint_sequential",
    "detach_variable",
    "noop_context_fn",
    "set_checkpoint_debug_enabled",
    "set_checkpoint_early_stop",
]

_DEBUG_TIP = (
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint\u2011debug mode globally.\n\n"
    "If this error occurs under torch.compile with automatic_dynamic_shapes enabled,\n"
    "it may be because the recomputation selected a different compiled graph than the\n"
    "forward pass (e.g., a dynamic graph instead of the original static graph).\n"
    "To fix this, either:\n"
    "  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as\n"
    "    dynamic upfront, avoiding the static-to-dynamic transition.\n"
    "  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache\n"
    "    reordering, which can change which graph is checked first between forward\n"
    "    and recompute.\n"
    "See https://github.com/pytorch/pytorch/issues/166926 for more details and\n"
    "workaround examples.\n"
)
_NOT_VALID = (
    "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing "
    "an `inputs` parameter to .backward(). To resolve this error, you can either set "
    "use_reentrant=False, or call .backward() without passing the `inputs` argument."
)
_PASS_REENTRANT = (
    "the use_reentrant parameter should be passed explicitly. {when} use_reentrant=False is "
    "recommended, but if you need to preserve the current default behavior, you can pass "
    "use_reentrant=True. Refer to docs for more details on the differences between the two "
    "variants."
)
_DETERMINISM_CHECKS = ("default", "none")


class CheckpointError(RuntimeError):
    """Raised when a recomputation differs from the forward. Mirrors
    `torch.utils.checkpoint.CheckpointError`."""


def noop_context_fn() -> tuple[Any, Any]:
    """Mirrors `torch.utils.checkpoint.noop_context_fn`."""
    return contextlib.nullcontext(), contextlib.nullcontext()


class _Flags:
    early_stop: bool | None = None
    debug: bool | None = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool) -> Iterator[None]:
    """Whether recomputation stops once every saved tensor is back. Mirrors
    `torch.utils.checkpoint.set_checkpoint_early_stop`."""
    prev = _Flags.early_stop
    _Flags.early_stop = enable
    try:
        yield
    finally:
        _Flags.early_stop = prev


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None) -> Iterator[None]:
    """Mirrors `torch.utils.checkpoint.set_checkpoint_debug_enabled` (accepted; see the module's
    Differences)."""
    prev = _Flags.debug
    _Flags.debug = enabled
    try:
        yield
    finally:
        _Flags.debug = prev


def detach_variable(inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Detached copies that keep requires_grad. Mirrors
    `torch.utils.checkpoint.detach_variable`."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            "Only tuple of tensors is supported. Got Unsupported input type: "
            f"{type(inputs).__name__}"
        )
    out = []
    for inp in inputs:
        if isinstance(inp, Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs: Iterable[Any]) -> None:
    """Warn when no tensor input requires grad. Mirrors
    `torch.utils.checkpoint.check_backward_validity`."""
    if not any(x.requires_grad for x in inputs if isinstance(x, Tensor)):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2
        )


@contextlib.contextmanager
def _forked_rng(state: Tensor | None) -> Iterator[None]:
    """Run with the RNG set to `state` (None: untouched), then put the current stream back, as
    torch's fork_rng does: a recomputation draws the forward's numbers (the same dropout mask)
    and leaves the caller's stream where it was."""
    if state is None:
        yield
        return
    current = get_rng_state()
    set_rng_state(state)
    try:
        yield
    finally:
        set_rng_state(current)


def _checkpoint_valid() -> bool:
    # torch marks a graph task that only computes some inputs' grads (autograd.grad,
    # backward(inputs=...)) and every backward nested in it; the reentrant backward cannot tell
    # its inner backward which grads are wanted
    return not _engine._RUN.partial


# --- use_reentrant=True ---------------------------------------------------------------------


class CheckpointFunction(Function):
    """The reentrant checkpoint, a custom Function (node `CheckpointFunctionBackward`). Mirrors
    `torch.utils.checkpoint.CheckpointFunction`."""

    @staticmethod
    def forward(
        ctx: Any, run_function: Callable[..., Any], preserve_rng_state: bool, *args: Any
    ) -> Any:
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.fwd_cpu_state = get_rng_state() if preserve_rng_state else None
        # tensors go through save_for_backward (version checks); the rest stay in place
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_indices))
        with _grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple[Any, ...]:
        from ..autograd import backward as autograd_backward

        if not _checkpoint_valid():
            raise RuntimeError(_NOT_VALID)
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors, strict=True):
            inputs[i] = t
        detached = detach_variable(tuple(inputs))
        with _forked_rng(ctx.fwd_cpu_state), _grad_mode.enable_grad():
            outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [
            (o, g)
            for o, g in zip(outputs, grads)  # noqa: B905 (non-tensor outputs have no grad)
            if isinstance(o, Tensor) and o.requires_grad
        ]
        if not pairs:
            raise RuntimeError(
                "none of output has requires_grad=True, this checkpoint() is not necessary"
            )
        autograd_backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *(x.grad if isinstance(x, Tensor) else None for x in detached))


# --- use_reentrant=False --------------------------------------------------------------------

# Note [Checkpoint recomputation]
# In the forward, the pack hook stores a `_Holder` (its position among the saved tensors, and
# the tensor's shape, dtype and device for the determinism check) instead of the tensor. The
# first unpack of a holder in a backward reruns the function (RNG restored, grad enabled) under
# recording hooks that store the k-th saved tensor, detached, for the k-th holder, and stops as
# soon as the last one is recorded (early stop). The recomputed tensors serve every unpack of
# that backward (the current backward is told apart by the engine's callback list, which each
# run_backward makes afresh) and are dropped when it ends; another backward through a retained
# graph recomputes. An unpack outside any backward (`grad_fn._saved_self`) recomputes each time.


class _StopRecomputation(Exception):
    """Ends a recomputation once every saved tensor is back (control flow only)."""


class _Holder:
    __slots__ = ("frame", "idx")

    def __init__(self, frame: _Frame, idx: int) -> None:
        self.frame = frame
        self.idx = idx


def _metadata(x: Tensor) -> dict[str, Any]:
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


class _Frame:
    def __init__(
        self,
        run: Callable[[], Any],
        rng_state: Tensor | None,
        recompute_context: Any,
        check: bool,
        early_stop: bool,
    ) -> None:
        self.run = run
        self.rng_state = rng_state
        self.recompute_context = recompute_context
        self.check = check
        self.early_stop = early_stop
        self.metas: list[dict[str, Any] | None] = []
        self.backward: Any = None  # the engine's callback list of the backward values serve
        self.values: list[Tensor] | None = None
        self.inputs: list[Any] = []  # the tensor arguments, saved (torch's save_inputs)

    def save_inputs(self, args: tuple[Any, ...]) -> None:
        """torch's frame saves the tensor arguments as saved tensors: one modified in place
        before backward fails the recomputation with the in-place error."""
        from ..autograd.graph import SavedTensor

        self.inputs = [SavedTensor(a) for a in args if isinstance(a, Tensor)]

    def pack(self, x: Tensor) -> _Holder:
        self.metas.append(_metadata(x) if self.check else None)
        return _Holder(self, len(self.metas) - 1)

    def unpack(self, h: _Holder) -> Tensor:
        current = _engine._RUN.callbacks
        if current is None:
            return self.recompute()[h.idx]
        if self.values is None or self.backward is not current:
            self.values = self.recompute()
            self.backward = current
            _engine.queue_callback(self.clear)
        return self.values[h.idx]

    def clear(self) -> None:
        self.values = None
        self.backward = None

    def recompute(self) -> list[Tensor]:
        for saved in self.inputs:
            saved.unpack()  # the version check
        n = len(self.metas)
        got: list[Tensor] = []

        def record(x: Tensor) -> Tensor:
            x = x.detach() if x.requires_grad else x
            if len(got) >= n:
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    f"than during the original forward pass.\n{_DEBUG_TIP}"
                )
            got.append(x)
            if self.early_stop and len(got) == n:
                raise _StopRecomputation
            return x

        # early stop ends the recomputation by an exception that passes through the user's
        # recompute context (torch's recompute_fn runs the function inside it)
        with (
            contextlib.suppress(_StopRecomputation),
            _forked_rng(self.rng_state),
            _grad_mode.enable_grad(),
            saved_tensors_hooks(record, _identity),
            self.recompute_context,
        ):
            self.run()
        if len(got) != n:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                f"original forward and recomputation.\nNumber of tensors saved during forward: "
                f"{n}\nNumber of tensors saved during recomputation: {len(got)}.\n{_DEBUG_TIP}"
            )
        if self.check:
            self._check_metadata(got)
        return got

    def _check_metadata(self, got: list[Tensor]) -> None:
        bad = ""
        for i, (meta, x) in enumerate(zip(self.metas, got, strict=True)):
            now = _metadata(x)
            if meta != now:
                bad += (
                    f"tensor at position {i}:\nsaved metadata: {meta}\nrecomputed metadata: {now}\n"
                )
        if bad:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{bad}.\n{_DEBUG_TIP}"
            )


def _identity(x: Any) -> Any:
    return x


def _unpack(h: _Holder) -> Tensor:
    return h.frame.unpack(h)


def _checkpoint_without_reentrant(
    function: Callable[..., Any],
    preserve: bool,
    context_fn: Callable[[], tuple[Any, Any]],
    determinism_check: str,
    early_stop: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(
            f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, but got "
            f"{determinism_check}"
        )
    forward_context, recompute_context = context_fn()
    frame = _Frame(
        lambda: function(*args, **kwargs),
        get_rng_state() if preserve else None,
        recompute_context,
        determinism_check == "default",
        early_stop if _Flags.early_stop is None else _Flags.early_stop,
    )
    if _grad_mode.is_grad_enabled():
        frame.save_inputs(args)
    with forward_context, saved_tensors_hooks(frame.pack, _unpack):
        return function(*args, **kwargs)


def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable[[], tuple[Any, Any]] = noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs: Any,
) -> Any:
    """Run `function(*args, **kwargs)` without keeping its activations; the backward recomputes
    them. Mirrors `torch.utils.checkpoint.checkpoint`."""
    if use_reentrant is None:
        when = "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
        warnings.warn(
            "torch.utils.checkpoint: " + _PASS_REENTRANT.format(when=when + "exception."),
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(
        function, preserve, context_fn, determinism_check, early_stop, args, kwargs
    )


def checkpoint_sequential(
    functions: Any, segments: int, input: Any, use_reentrant: bool | None = None, **kwargs: Any
) -> Any:
    """Run a sequence of functions in `segments` chunks, checkpointing all but the last.
    Mirrors `torch.utils.checkpoint.checkpoint_sequential`."""
    from ..nn import Sequential

    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: "
            + _PASS_REENTRANT.format(
                when="In version 2.9 we will raise an exception if use_reentrant is not passed."
            ),
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def segment(start: int, stop: int) -> Callable[[Any], Any]:
        def run(x: Any) -> Any:
            for fn in functions[start:stop]:
                x = fn(x)
            return x

        return run

    size = len(functions) // segments
    stop = 0
    for start in range(0, size * (segments - 1), size):
        stop = start + size
        input = checkpoint(
            segment(start, stop), input, use_reentrant=use_reentrant, preserve_rng_state=preserve
        )
    return segment(stop, len(functions))(input)
