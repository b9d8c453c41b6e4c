"""The identity Function and helper behind full module backward hooks.

Mirrors `torch.nn.modules._functions.BackwardHookFunction` and `torch.utils.hooks.BackwardHook`:
a module's tensor inputs and outputs pass through an identity custom Function, whose node hooks
see (and may replace) the gradients with respect to the module's outputs and inputs.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..._creation import zeros
from ..._grad_mode import is_grad_enabled
from ..._tensor import Tensor
from ...autograd.function import Function

__all__ = ["BackwardHook", "BackwardHookFunction"]


class BackwardHookFunction(Function):
    """Identity over its tensor arguments. Mirrors torch's class of that name."""

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        # torch returns `args` as-is (the outputs become views of the inputs). shadowgrad replaces
        # the custom grad_fn of such a view by AsStridedBackward0 when its base has a grad_fn,
        # and ignores mark_non_differentiable on it, so return detached aliases instead.
        outs = tuple(arg.detach() for arg in args)
        ctx.mark_non_differentiable(
            *[o for o, arg in zip(outs, args, strict=True) if not arg.requires_grad]
        )
        views = set()
        for nr, (o, arg) in enumerate(zip(outs, args, strict=True)):
            if arg.requires_grad:
                # torch's outputs are views made inside a custom Function: modifying one in
                # place (an inplace ReLU inside the hooked module, `out += x` after it) raises
                o._extra().custom_view = "BackwardHookFunction"
                views.add(nr)
        # and so does modifying a view of one (torch's creation meta passes on to views of
        # views: ops/views.custom_view_name)
        ctx._custom_views = views
        return outs

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Any:
        return args


NO_INPUT_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See "
    "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
    "#torch.nn.Module.register_full_backward_hook for more details."
)


class BackwardHook:
    """Sets up one module call's full backward hooks. Mirrors `torch.utils.hooks.BackwardHook`."""

    def __init__(self, module: Any, user_hooks: list[Any], user_pre_hooks: list[Any]) -> None:
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs: Any = None
        self.n_outputs = -1
        self.output_tensors_index: list[int] | None = None
        self.n_inputs = -1
        self.input_tensors_index: list[int] | None = None
        self._non_diff_inputs: list[Any] = []

    @staticmethod
    def _pack_with_none(indices: Any, values: Any, size: int) -> tuple[Any, ...]:
        res: list[Any] = [None] * size
        for idx, val in zip(indices, values, strict=True):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices: Any, values: Any) -> tuple[Any, ...]:
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn: Any) -> None:
        def hook(grad_input: Any, _: Any) -> Any:
            if self.grad_outputs is None:
                # the output hook did not run: this module's outputs got no gradient
                return None
            grad_input = list(grad_input)
            for k, shape, dt in self._non_diff_inputs:
                # torch's node hook sees the materialized zero grads of the inputs that don't
                # require grad; shadowgrad's engine has already dropped them to None
                grad_input[k] = zeros(shape, dtype=dt)
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError(
                        "Backward hook returned an invalid number of grad_input, got "
                        f"{len(out)}, but expected {len(res)}"
                    )
                res = out
            self.grad_outputs = None
            out = list(self._unpack_none(self.input_tensors_index, res))
            for k, _, _ in self._non_diff_inputs:
                # the engine gave None there (see above) and takes back no value in its place
                out[k] = None
            return tuple(out)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn: Any, args: Any) -> tuple[Any, list[int] | None]:
        tensors_idx = []
        tensors = []
        requires_grad = False
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensors_idx.append(i)
                tensors.append(arg)
                requires_grad |= arg.requires_grad
        if not (requires_grad and is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        if len(new_tensors) == 0:
            raise RuntimeError(
                "Cannot set Module backward hook for a Module with no input Tensors."
            )
        grad_fns = [
            t.grad_fn
            for t in new_tensors
            if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"
        ]
        if not grad_fns:
            raise RuntimeError(
                "Error while setting up backward hooks. Please open an issue with a code sample "
                "to reproduce this."
            )
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors, strict=True):
            arg_list[idx] = val
        out = tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)
        return out, tensors_idx

    def setup_input_hook(self, args: Any) -> Any:
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        if input_idx is not None:
            tensors = [args[i] for i in input_idx]
            self._non_diff_inputs = [
                (k, tuple(t.shape), t.dtype) for k, t in enumerate(tensors) if not t.requires_grad
            ]
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def _output_hook(self, _: Any, grad_output: Any) -> Any:
        self.grad_outputs = self._pack_with_none(
            self.output_tensors_index, grad_output, self.n_outputs
        )
        if self.user_pre_hooks:
            expected_len = len(self.grad_outputs)
            for user_pre_hook in self.user_pre_hooks:
                new = user_pre_hook(self.module, self.grad_outputs)
                if new is None:
                    continue
                if len(new) != expected_len:
                    raise RuntimeError(
                        "Backward pre hook returned an invalid number of grad_output, got "
                        f"{len(new)}, but expected {expected_len}"
                    )
                self.grad_outputs = new
        local_grad_outputs = self.grad_outputs
        if self.input_tensors_index is None:
            warnings.warn(NO_INPUT_GRAD, stacklevel=2)
            grad_inputs = self._pack_with_none([], [], self.n_inputs)
            for user_hook in self.user_hooks:
                res = user_hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (
                    isinstance(res, tuple) and all(el is None for el in res)
                ):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should always "
                        "return None or None for all gradients."
                    )
            self.grad_outputs = None
        if local_grad_outputs is not None:
            return tuple(local_grad_outputs[i] for i in self.output_tensors_index)  # type: ignore[union-attr]
        return None

    def setup_output_hook(self, args: Any) -> Any:
        def fn(grad_fn: Any) -> None:
            grad_fn.register_hook(self._output_hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, output_idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]
