"""Thread-local grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode.

Mirrors `torch.autograd.grad_mode`. Each thread starts with grad enabled and inference mode off,
whatever the spawning thread had (torch's behaviour). Anomaly mode is process-global and lives
in `shadowgrad.autograd.anomaly_mode`.
"""

from __future__ import annotations

import functools
import inspect
import threading
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


class _State(threading.local):
    def __init__(self) -> None:
        self.grad = True
        self.inference = False


STATE = _State()


def is_grad_enabled() -> bool:
    """Mirrors `torch.is_grad_enabled`."""
    return STATE.grad


def is_inference_mode_enabled() -> bool:
    """Mirrors `torch.is_inference_mode_enabled`."""
    return STATE.inference


def _set_grad(mode: bool) -> None:
    STATE.grad = mode


class _DecoratorContextManager:
    """A context manager that also decorates functions and generator functions."""

    def __call__(self, func: F) -> F:
        if inspect.isclass(func):
            raise RuntimeError("Cannot decorate classes; it is ambiguous")
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
        if cls is no_grad and orig_func is not None and callable(orig_func):
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = STATE.grad
        STATE.grad = False

    def __exit__(self, *exc: object) -> None:
        STATE.grad = self.prev


class enable_grad(_DecoratorContextManager):
    """Enable gradient recording. Mirrors `torch.enable_grad`."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if cls is enable_grad and orig_func is not None and callable(orig_func):
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = STATE.grad
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
        self.prev = STATE.grad
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
        if cls is inference_mode and not isinstance(mode, bool) and callable(mode):
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode
        self.prev_grad = True
        self.prev_inf = False

    def __enter__(self) -> None:
        self.prev_grad = STATE.grad
        self.prev_inf = STATE.inference
        if self.mode:
            STATE.grad = False
            STATE.inference = True
        else:
            # torch's InferenceMode(false) guard also turns grad mode back on
            STATE.grad = True
            STATE.inference = False

    def __exit__(self, *exc: object) -> None:
        STATE.grad = self.prev_grad
        STATE.inference = self.prev_inf

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)


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
