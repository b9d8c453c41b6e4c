"""Thread-local grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode.

Mirrors `torch.autograd.grad_mode`. Each thread starts with grad enabled and inference mode off,
whatever the spawning thread had (torch's behaviour). Anomaly mode is process-global and lives
in `shadowgrad.autograd.anomaly_mode`.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import threading
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "enable_grad",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "set_grad_enabled",
]


# Note [Grad mode in a context variable]
# Every op reads grad mode (whether to record) and inference mode (the new tensor's flag). A
# threading.local attribute read costs about 540 instructions, two of them 6% of a scalar op's
# forward; a ContextVar's get costs about 120, and one read gives both flags: the variable
# holds one of four shared, read-only `Mode` objects. A new thread starts with an empty context,
# so with grad enabled and inference mode off, as each thread does in torch. The one difference
# from torch's thread-local flags: asyncio tasks run in copies of the context, so a task's
# `no_grad()` does not leak into other tasks interleaved on the same thread.
class Mode:
    """One combination of the grad-mode and inference-mode flags (shared, never modified).

    `enabled` is grad mode as `is_grad_enabled` reports it; `grad` is whether ops record a
    graph: never in inference mode, even where enable_grad turned grad mode back on inside it
    (torch's InferenceMode keeps autograd off whatever the grad mode)."""

    __slots__ = ("enabled", "grad", "inference")

    def __init__(self, grad: bool, inference: bool) -> None:
        self.enabled = grad
        self.grad = grad and not inference
        self.inference = inference

    def __repr__(self) -> str:
        return f"Mode(grad={self.enabled}, inference={self.inference})"


_MODES = {(g, i): Mode(g, i) for g in (False, True) for i in (False, True)}
_MODE: contextvars.ContextVar[Mode] = contextvars.ContextVar(
    "shadowgrad_grad_mode", default=_MODES[(True, False)]
)
# the hot path's read: `m = mode()`, then `m.grad` and `m.inference`
mode = _MODE.get
_set_mode = _MODE.set


class _State:
    """The current context's flags as attributes (reads and writes go to the context variable)."""

    __slots__ = ()

    @property
    def grad(self) -> bool:
        return mode().grad

    @grad.setter
    def grad(self, value: bool) -> None:
        _set_mode(_MODES[(bool(value), mode().inference)])

    @property
    def inference(self) -> bool:
        return mode().inference

    @inference.setter
    def inference(self, value: bool) -> None:
        _set_mode(_MODES[(mode().enabled, bool(value))])


STATE = _State()


def is_grad_enabled() -> bool:
    """Mirrors `torch.is_grad_enabled`."""
    return mode().enabled


def is_inference_mode_enabled() -> bool:
    """Mirrors `torch.is_inference_mode_enabled`."""
    return mode().inference


def _set_grad(mode_: bool) -> None:
    STATE.grad = mode_


class _DecoratorContextManager:
    """A context manager that also decorates functions and generator functions."""

    def __call__(self, func: F) -> F:
        if inspect.isclass(func):
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You "
                "should only decorate functions or methods. To preserve the current behavior of "
                "class decoration, you can directly decorate the `__init__` method and nothing "
                "else.",
                FutureWarning,
                stacklevel=2,
            )
            cls = func
            func = lambda *args, **kwargs: cls(*args, **kwargs)  # type: ignore[assignment]  # noqa: E731
        factory = self.clone

        if inspect.isgeneratorfunction(func):

            @functools.wraps(func)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
                gen = func(*args, **kwargs)
                with factory():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        with factory():
                            gen.close()
                        raise
                    except BaseException as e:
                        with factory():
                            response = gen.throw(e)
                    else:
                        try:
                            with factory():
                                response = gen.send(request)
                        except StopIteration as stop:
                            return stop.value

            return gen_wrapper  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with factory():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def clone(self) -> _DecoratorContextManager:
        return self.__class__()

    def __enter__(self) -> None:
        raise NotImplementedError

    def __exit__(self, *exc: object) -> None:
        raise NotImplementedError


class no_grad(_DecoratorContextManager):
    """Disable gradient recording. Mirrors `torch.no_grad` (usable bare as a decorator)."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if cls is no_grad and orig_func is not None:
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = _MODE.get().enabled
        STATE.grad = False

    def __exit__(self, *exc: object) -> None:
        STATE.grad = self.prev


class enable_grad(_DecoratorContextManager):
    """Enable gradient recording. Mirrors `torch.enable_grad`."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if cls is enable_grad and orig_func is not None:
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = _MODE.get().enabled
        STATE.grad = True

    def __exit__(self, *exc: object) -> None:
        STATE.grad = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode now; restore the previous mode on exit. Mirrors `torch.set_grad_enabled`."""

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                f"not {type(mode).__name__}"
            )
        self.prev = _MODE.get().enabled
        self.mode = mode
        STATE.grad = mode

    def __call__(self, orig_func: F) -> F:
        STATE.grad = self.prev
        return super().__call__(orig_func)

    def __enter__(self) -> None:
        STATE.grad = self.mode

    def __exit__(self, *exc: object) -> None:
        STATE.grad = self.prev

    def clone(self) -> set_grad_enabled:
        return self.__class__(self.mode)

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


class inference_mode(_DecoratorContextManager):
    """Disable grad and mark new tensors as inference tensors. Mirrors `torch.inference_mode`."""

    def __new__(cls, mode: Any = True) -> Any:
        if cls is inference_mode and not isinstance(mode, bool):  # torch: any other decorates
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode
        self.prev = _MODES[(True, False)]

    def __enter__(self) -> None:
        self.prev = mode()
        # torch's InferenceMode(false) guard also turns grad mode back on
        _set_mode(_MODES[(False, True)] if self.mode else _MODES[(True, False)])

    def __exit__(self, *exc: object) -> None:
        _set_mode(self.prev)

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)


class _unsafe_preserve_version_counter(_DecoratorContextManager):
    """Restore the tensors' version counters on exit, hiding in-place changes from autograd.
    Mirrors `torch.autograd.grad_mode._unsafe_preserve_version_counter`."""

    def __init__(self, tensors: Any) -> None:
        from ._tensor import Tensor

        self.tensors = (tensors,) if isinstance(tensors, Tensor) else tensors
        if not isinstance(self.tensors, tuple):
            raise AssertionError("Expected tensors to be a tuple")
        self.prev_versions = tuple(t._version for t in self.tensors)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        from .autograd.graph import VersionCounter

        for t, v in zip(self.tensors, self.prev_versions, strict=True):
            if t._vc is None:
                t._vc = VersionCounter()
            t._vc.v = v


_VIEW_REPLAY = [False]


class _force_original_view_tracking(_DecoratorContextManager):
    """Whether autograd always replays views (a flag only: shadowgrad regenerates a modified
    view's grad_fn one way). Mirrors `torch.autograd.grad_mode._force_original_view_tracking`."""

    def __init__(self, mode: bool) -> None:
        self.prev = _VIEW_REPLAY[0]
        self.mode = mode
        _VIEW_REPLAY[0] = mode

    def __call__(self, orig_func: F) -> F:
        _VIEW_REPLAY[0] = self.prev
        return super().__call__(orig_func)

    def __enter__(self) -> None:
        _VIEW_REPLAY[0] = self.mode

    def __exit__(self, *exc: object) -> None:
        _VIEW_REPLAY[0] = self.prev

    def clone(self) -> _force_original_view_tracking:
        return self.__class__(self.mode)


class _GradLayout(threading.local):
    """Whether a leaf's new .grad obeys the gradient layout contract: per thread, as torch's
    (a new thread enforces it), read by autograd.engine on its copying and warning paths only."""

    enforce = True


GRAD_LAYOUT = _GradLayout()


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Mirrors `torch.autograd.enforce_grad_layout_policy`: with False, a leaf's first gradient
    is kept whatever its layout when nothing else holds it (not copied into the leaf's
    strides), and the "do not obey the gradient layout contract" warning is not given. Set on
    construction, as torch's, so it also works called as a function."""

    def __init__(self, enable: bool = True) -> None:
        self.prev = GRAD_LAYOUT.enforce
        GRAD_LAYOUT.enforce = bool(enable)
        self.mode = enable

    def __call__(self, orig_func: F) -> F:
        GRAD_LAYOUT.enforce = self.prev
        return super().__call__(orig_func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        GRAD_LAYOUT.enforce = self.prev

    def clone(self) -> enforce_grad_layout_policy:
        return self.__class__(self.mode)


def __getattr__(name: str) -> Any:
    # torch.autograd.grad_mode.set_multithreading_enabled lives in shadowgrad.autograd, which
    # imports this module
    if name == "set_multithreading_enabled":
        from .autograd import set_multithreading_enabled

        return set_multithreading_enabled
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _TransformState:
    __slots__ = ("depth",)

    def __init__(self) -> None:
        self.depth = 0


# How many torch.func transforms are running: inside one, `.backward()` raises BACKWARD_INSIDE
TRANSFORMS = _TransformState()
BACKWARD_INSIDE = (
    "backward() called inside a functorch transform. This is not supported, please use "
    "functorch.grad or functorch.vjp instead or call backward() outside of functorch transforms."
)
