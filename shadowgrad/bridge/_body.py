"""Re-running a custom torch Function's forward body on shadowgrad tensors.

The body calls torch functions on what it takes for torch tensors; given shadowgrad tensors,
those calls dispatch to shadowgrad through `Tensor.__torch_function__`, so shadowgrad records
the graph and can differentiate the body. A body that leaves the tensor world (`.item()`,
`.numpy()`, `.detach()`, a torch function shadowgrad lacks, compiled code) is *opaque*.
"""

from __future__ import annotations

import threading
from typing import Any

from .._tensor import Tensor

__all__ = ["Opaque", "StubCtx", "run_body", "uses_setup_context"]

# Methods through which values leave the graph: a body calling one on a tensor that requires
# grad is opaque (shadowgrad would differentiate a constant in its place).
_ESCAPES = ("item", "tolist", "numpy", "detach", "__float__", "__int__", "__array__")
_LOCK = threading.RLock()


class Opaque(Exception):
    """The forward body cannot be differentiated by shadowgrad."""


class StubCtx:
    """A stand-in for `ctx` that accepts what a forward body does with it."""

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad
        self.to_save: tuple[Any, ...] = ()
        self.dirty_tensors: tuple[Any, ...] = ()
        self.non_differentiable: tuple[Any, ...] = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        self.to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        pass

    def mark_dirty(self, *tensors: Any) -> None:
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        return self.to_save


def uses_setup_context(fn_cls: Any) -> bool:
    from torch.autograd.function import _SingleLevelFunction

    return fn_cls.setup_context is not _SingleLevelFunction.setup_context


def _escape_guard(name: str, orig: Any, hits: list[str]) -> Any:
    def guarded(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if self._rg:
            hits.append(name)
        return orig(self, *args, **kwargs)

    return guarded


def run_body(fn_cls: Any, args: tuple[Any, ...], needs: tuple[bool, ...]) -> tuple[Any, ...]:
    """Run `fn_cls.forward` on `args` (shadowgrad tensors); return its outputs as a tuple.

    Raises Opaque when the body leaves shadowgrad or returns something other than tensors.
    """
    import shadowgrad

    ctx = StubCtx(needs)
    hits: list[str] = []
    with _LOCK:
        saved = {n: Tensor.__dict__[n] for n in _ESCAPES if n in Tensor.__dict__}
        for n, f in saved.items():
            setattr(Tensor, n, _escape_guard(n, f, hits))
        try:
            with shadowgrad.enable_grad():
                if uses_setup_context(fn_cls):
                    out = fn_cls.forward(*args)
                else:
                    out = fn_cls.forward(ctx, *args)
        except Opaque:
            raise
        except Exception as e:
            raise Opaque(f"{type(e).__name__}: {e}") from e
        finally:
            for n, f in saved.items():
                setattr(Tensor, n, f)
    if hits:
        raise Opaque(f"the forward calls .{hits[0]}() on a tensor that requires grad")
    outs = out if isinstance(out, tuple) else (out,)
    for o in outs:
        if o is not None and not isinstance(o, (Tensor, int, float, bool)):
            raise Opaque(f"the forward returned a {type(o).__module__}.{type(o).__name__}")
    return outs
