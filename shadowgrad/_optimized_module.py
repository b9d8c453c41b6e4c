"""Mirrors `torch._dynamo.eval_frame.OptimizedModule`: what `torch.compile(module)` returns.

shadowgrad has no compiler, so the wrapper only keeps torch's structure: the original module
registered as its submodule `_orig_mod` (state_dict keys and parameter names carry the
`_orig_mod.` prefix that nanoGPT's checkpoint loading strips), attribute reads and writes
forwarded to it, and `training` mirrored. Calling it calls the original module (its hooks run
too, as torch's do).
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Any

from .nn.modules.module import Module


class OptimizedModule(Module):
    """Mirrors `torch._dynamo.eval_frame.OptimizedModule`."""

    _opt_mod_attributes = frozenset(
        {
            "_orig_mod",
            "dynamo_ctx",
            "_torchdynamo_orig_callable",
            "_torchdynamo_wrapper_id",
            "get_compiler_config",
            "forward",
            "_forward",
            "__dict__",
            "named_children_walk",
            "_super_module_initialized",
        }
    )

    def __init__(self, mod: Module) -> None:
        object.__setattr__(self, "_orig_mod", mod)  # read by attribute access from here on
        self._super_module_initialized = False
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod  # registered as the submodule
        self.forward = mod.__call__

    def __len__(self) -> int:
        if isinstance(self._orig_mod, Sized):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __reduce__(self) -> Any:
        return (self.__class__, (self._orig_mod,))

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("forward", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__ = state
        self.forward = self._orig_mod.__call__

    @property  # type: ignore[override]
    def training(self) -> bool:
        return self._orig_mod.training  # type: ignore[no-any-return]

    @training.setter
    def training(self, value: bool) -> None:
        if self.__dict__.get("_super_module_initialized"):
            self._orig_mod.training = value

    def __getattr__(self, name: str) -> Any:
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name: str) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __dir__(self) -> list[str]:
        orig = self._orig_mod.__dir__()
        return orig + [a for a in super().__dir__() if a not in orig]


OptimizedModule.__module__ = "torch._dynamo.eval_frame"
