"""LazyModuleMixin: modules whose parameter shapes come from their first input. Mirrors
`torch.nn.modules.lazy`.

torch does not re-export LazyModuleMixin from `torch.nn`, so `__all__` here is empty (the
package re-exports every name a layer file lists).
"""

from __future__ import annotations

from typing import Any

from ..._grad_mode import no_grad
from ..parameter import is_lazy

__all__: list[str] = []


class LazyModuleMixin:
    """Mirrors `torch.nn.modules.lazy.LazyModuleMixin`: a forward pre-hook runs
    `initialize_parameters` on the first call, then the module becomes `cls_to_become`; loading
    a state dict materializes uninitialized tensors with the loaded shapes."""

    cls_to_become: type | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)  # type: ignore[attr-defined]
        self._initialize_hook = self.register_forward_pre_hook(  # type: ignore[attr-defined]
            self._infer_parameters, with_kwargs=True
        )

    def _save_to_state_dict(
        self, destination: dict[str, Any], prefix: str, keep_vars: bool
    ) -> None:
        # as Module's, but uninitialized tensors are saved as they are (detach refuses them)
        skip = self._non_persistent_buffers_set  # type: ignore[attr-defined]
        for name, t in [*self._parameters.items(), *self._buffers.items()]:  # type: ignore[attr-defined]
            if t is not None and not (name in self._buffers and name in skip):  # type: ignore[attr-defined]
                destination[prefix + name] = t if keep_vars or is_lazy(t) else t.detach()

    def _lazy_load_hook(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: Any,
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        tensors = [*self._parameters.items(), *self._buffers.items()]  # type: ignore[attr-defined]
        for name, t in tensors:
            key = prefix + name
            if t is not None and key in state_dict and is_lazy(t):
                loaded = state_dict[key]
                if not is_lazy(loaded):
                    with no_grad():
                        t.materialize(loaded.shape)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Materialize the uninitialized tensors from the first input; each lazy class
        defines it."""
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer of this module (not its children) is uninitialized."""
        tensors = [*self._parameters.values(), *self._buffers.values()]  # type: ignore[attr-defined]
        return any(is_lazy(t) for t in tensors)

    def _infer_parameters(self, module: Any, args: Any, kwargs: Any = None) -> None:
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")  # type: ignore[attr-defined]
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become
