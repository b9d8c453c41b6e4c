"""Optimizer base class. Mirrors `torch.optim.Optimizer`.

Note [Optimizer arithmetic]: each optimizer runs torch's single-tensor (foreach=False) update,
the one torch uses on CPU, with the same operations in the same order and dtype, on the numpy
arrays behind the tensors; the parameter is written with a public in-place op under no_grad so
its version counter moves as in torch. Scalars (lr, betas, ...) are Python floats, which numpy
rounds to the array dtype as torch rounds scalar arguments.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from copy import deepcopy
from itertools import chain
from typing import Any

import numpy as np

from .. import _dtype
from .._creation import from_numpy
from .._grad_mode import enable_grad, no_grad
from .._tensor import Tensor
from ..autograd.graph import HookDict, RemovableHandle

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()

_global_pre_hooks = HookDict()
_global_post_hooks = HookDict()


def register_optimizer_step_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.optim.optimizer.register_optimizer_step_pre_hook`."""
    h = RemovableHandle(_global_pre_hooks)
    _global_pre_hooks[h.id] = hook
    return h


def register_optimizer_step_post_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Mirrors `torch.optim.optimizer.register_optimizer_step_post_hook`."""
    h = RemovableHandle(_global_post_hooks)
    _global_post_hooks[h.id] = hook
    return h


def _register(hooks: Any, hook: Callable[..., Any], prepend: bool) -> RemovableHandle:
    """Add hook to an optimizer's hook dict (first when prepend) and return its handle."""
    h = RemovableHandle(hooks)
    if prepend:
        rest = list(hooks.items())
        hooks.clear()
        hooks[h.id] = hook
        hooks.update(rest)
    else:
        hooks[h.id] = hook
    return h


def check_fused(fused: Any, foreach: Any, differentiable: bool) -> None:
    """The checks torch's fused-capable optimizers (Adam, AdamW, SGD, Adagrad) make after
    building their groups. shadowgrad runs the single-tensor update whatever the flag says
    (Note [Optimizer arithmetic])."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def check_fused_param(opt: Any, group: dict[str, Any], once: bool) -> None:
    """torch's `_device_dtype_check_for_fused` on the group's parameters with a grad: fused
    kernels take floating-point parameters only. With `once` (SGD, Adagrad) only the first
    such parameter of the optimizer's first fused step is checked, as torch's
    `_need_device_dtype_check_for_fused` flag does."""
    for p in group["params"]:
        if p.grad is None:
            continue
        if once:
            if not getattr(opt, "_need_device_dtype_check_for_fused", True):
                return
            opt._need_device_dtype_check_for_fused = False
        fused_dtype_check(p)
        if once:
            return


def fused_dtype_check(p: Tensor) -> None:
    if not p.is_floating_point():
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of supported "
            "devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'] but "
            f"{p.dtype} and cpu"
        )


def _typename(obj: Any) -> str:
    from ..nn.modules.module import typename

    return typename(obj)


def _round_bf16_state(opt: Any) -> None:
    """The bfloat16 parameters and states an update wrote, rounded to bfloat16 (Note [bfloat16
    storage]): the optimizers' numpy arithmetic on them is in longdouble."""
    ld = _dtype.LD
    for group in opt.param_groups:
        for p in group["params"]:
            st = opt.state.get(p)
            for t in (p, *(st.values() if isinstance(st, dict) else ())):
                if isinstance(t, Tensor) and t._data.dtype is ld and t._data.size:
                    d = t._data
                    r = _dtype.round_bf16(d)
                    if (r != d).any():
                        d[...] = r


def _step_with_hooks(step: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # as torch's profile_hook_step, the hooks' `args` include the optimizer itself, and a
        # pre hook's new args replace all of step's
        self = args[0]
        for pre_hook in chain(_global_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(
                        f"{step} must return None or a tuple of (new_args, new_kwargs), but got "
                        f"{result}."
                    )
        # the update's own arithmetic computes inf and nan silently, as torch's does, even
        # where warnings are errors (Note [Floating-point warnings] in ops/registry.py); a
        # closure runs under the caller's numpy settings (_run_closure)
        outer = np.geterr()
        with np.errstate(all="ignore"):
            self._outer_errstate = outer
            out = step(*args, **kwargs)
        if _dtype.SEEN.bf16:
            _round_bf16_state(self)
        for post_hook in chain(
            self._optimizer_step_post_hooks.values(), _global_post_hooks.values()
        ):
            post_hook(self, args, kwargs)
        return out

    wrapper._hooked = True  # type: ignore[attr-defined]
    return wrapper


def arr(t: Tensor) -> np.ndarray:
    """The ndarray behind a tensor (shared, not copied). A complex tensor's is its real view
    (shape `(..., 2)`): torch's optimizers update complex parameters, their gradients and
    states through `torch.view_as_real`. A 0-d tensor's is a 1-element view of shape (1,):
    numpy's arithmetic on 0-d arrays gives scalars, which `out=`, item assignment and
    `from_numpy` reject (a scalar parameter, as in torch's dynamic-net example)."""
    a = t._data  # (bfloat16's too, which numpy() refuses)
    if a.dtype.kind == "c":
        a = a[..., None].view(a.real.dtype)
    elif a.ndim == 0:
        a = a.reshape(1)
    return a


def like(value: np.ndarray, t: Tensor) -> np.ndarray:
    """An array computed on `arr(t)` in t's own layout: a real view of a complex tensor's
    values (shape `(..., 2)`) becomes complex again, a 0-d tensor's (1,) array 0-d again."""
    value = np.asanyarray(value)  # (a meta tensor's array stays one)
    if value.dtype.kind != "c" and t.is_complex():
        return np.ascontiguousarray(value).view(t.detach().numpy().dtype)[..., 0]
    if value.shape == (1,) and t.dim() == 0:
        return value.reshape(())
    return value


def num(value: Any) -> Any:
    """A hyper-parameter as a number: a 0-dim tensor given for one (torch's kernels take it as
    a Scalar) gives its value."""
    return value.item() if isinstance(value, Tensor) else value


def write_param(param: Tensor, value: np.ndarray) -> None:
    """Store a new value into a parameter in place. See Note [Optimizer arithmetic]."""
    with no_grad():
        param.copy_(from_numpy(like(value, param)))


def fma(a: Any, b: np.ndarray, c: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """a * b + c rounded once, as torch's vectorised CPU kernels compute `add(alpha=)`,
    `addcmul` and `lerp`. Exact for float32 (the product is exact in float64); other dtypes
    round twice. With `out` (which may be c), the result is written there, rounded once."""
    dt = c.dtype
    if dt == np.float32:
        # asarray: for 0-d operands (a scalar parameter) numpy returns a scalar, not an array
        t = np.asarray(np.multiply(np.asarray(a, dtype=dt), b, dtype=np.float64))
        np.add(t, c, out=t)
        if out is None:
            return t.astype(dt)
        np.copyto(out, t, casting="same_kind")
        return out
    if dt == np.float16:
        # torch's CPU kernels compute half in float32 (its opmath type), rounding once; the
        # product of two halves is exact in float32
        f = np.float32
        r = (np.asarray(a, dtype=f) * np.asarray(b, dtype=f) + c.astype(f)).astype(dt)
    elif dt is _dtype.LD:  # bfloat16 (Note [bfloat16 storage]): computed in float, rounded
        r = _dtype.round_bf16(np.asarray(a, dtype=dt) * b + c)
    else:
        r = np.asarray(a, dtype=dt) * b + c
    if out is None:
        return r  # type: ignore[no-any-return]
    out[...] = r
    return out


def lerp(
    start: np.ndarray, end: np.ndarray, weight: float, out: np.ndarray | None = None
) -> np.ndarray:
    """torch.lerp with a scalar weight (torch's formula, fused as in its CPU kernel); written
    into `out` (which may be start) when given."""
    w = np.asarray(weight, dtype=start.dtype)
    if abs(float(w)) < 0.5:
        return fma(w, end - start, start, out)
    return fma(w - np.asarray(1, dtype=start.dtype), end - start, end, out)


# Note [Blocked updates]: an optimizer's elementwise update (Adam's dozen numpy passes, several
# through float64 for torch's fused rounding) runs on blocks of this many elements: each pass's
# temporaries then stay in cache and are reused by the allocator, instead of fresh
# parameter-sized arrays (page faults and memory traffic on every pass). Elementwise, so the
# values are the same bits.
BLOCK = 1 << 14


def blocks(*arrays: np.ndarray) -> Any:
    """Same-shape arrays as tuples of flat slices of at most BLOCK elements (the whole arrays at
    once when they are small or one is not C-contiguous). The last array may be written."""
    n = arrays[0].size
    if n <= BLOCK or not all(a.flags.c_contiguous and a.shape == arrays[0].shape for a in arrays):
        yield arrays
        return
    flat = [a.reshape(-1) for a in arrays]
    for i in range(0, n, BLOCK):
        yield tuple(f[i : i + BLOCK] for f in flat)


class Optimizer:
    """Base class for optimizers. Mirrors `torch.optim.Optimizer`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_hooked", False):
            cls.step = _step_with_hooks(step)  # type: ignore[method-assign]

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: dict[int, Callable[..., Any]] = HookDict()
        self._optimizer_step_post_hooks: dict[int, Callable[..., Any]] = HookDict()
        self._optimizer_state_dict_pre_hooks: dict[int, Callable[..., Any]] = HookDict()
        self._optimizer_state_dict_post_hooks: dict[int, Callable[..., Any]] = HookDict()
        self._optimizer_load_state_dict_pre_hooks: dict[int, Callable[..., Any]] = HookDict()
        self._optimizer_load_state_dict_post_hooks: dict[int, Callable[..., Any]] = HookDict()
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got " + _typename(params)
            )
        self.state: defaultdict[Any, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self) -> dict[str, Any]:
        return {
            "defaults": self.defaults,
            "state": self.state,
            "param_groups": self.param_groups,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            if name not in self.__dict__:
                self.__dict__[name] = HookDict()
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.optim.Optimizer.register_step_pre_hook`."""
        h = RemovableHandle(self._optimizer_step_pre_hooks)  # type: ignore[arg-type]
        self._optimizer_step_pre_hooks[h.id] = hook
        return h

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Mirrors `torch.optim.Optimizer.register_step_post_hook`."""
        h = RemovableHandle(self._optimizer_step_post_hooks)  # type: ignore[arg-type]
        self._optimizer_step_post_hooks[h.id] = hook
        return h

    def register_state_dict_pre_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.optim.Optimizer.register_state_dict_pre_hook`: `hook(optimizer)` runs
        before `state_dict()` builds the dict."""
        return _register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.optim.Optimizer.register_state_dict_post_hook`: `hook(optimizer,
        state_dict)` may return a new state dict."""
        return _register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.optim.Optimizer.register_load_state_dict_pre_hook`: `hook(optimizer,
        state_dict)` may return the state dict to load instead."""
        return _register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Mirrors `torch.optim.Optimizer.register_load_state_dict_post_hook`: `hook(optimizer)`
        runs after `load_state_dict()`."""
        return _register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    def state_dict(self) -> dict[str, Any]:
        """Mirrors `torch.optim.Optimizer.state_dict`: parameters become integer indices."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {
                    id(p): i
                    for i, p in enumerate(group["params"], start_index)
                    if id(p) not in param_mappings
                }
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (param_mappings[id(k)] if isinstance(k, Tensor) else k): v
            for k, v in self.state.items()
        }
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(
        param: Tensor, value: Tensor, param_id: int, param_groups: Any, key: Any = None
    ) -> Tensor:
        if key == "step":
            # a fused or capturable group's step is float32 (the groups being loaded say)
            if param_groups is None:
                raise AssertionError("Expected param_groups to be set")
            group = next((g for g in param_groups if param_id in g["params"]), {})
            if group.get("capturable", False) or group.get("fused", False):
                return value.to(dtype=_dtype.float32)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Mirrors `torch.optim.Optimizer.load_state_dict`."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens, strict=True)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
                strict=True,
            )
        )

        def _cast(param: Tensor, value: Any, param_id: Any = None, key: Any = None) -> Any:
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, state_dict["param_groups"], key
                )
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, key=k) for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, str):
                return type(value)(_cast(param, v, param_id=param_id) for v in value)  # type: ignore[call-arg]
            return value

        state: defaultdict[Any, Any] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k)
            else:
                state[k] = v

        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups, strict=True)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Mirrors `torch.optim.Optimizer.zero_grad`."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Mirrors `torch.optim.Optimizer.step`."""
        raise NotImplementedError

    def _run_closure(self, closure: Callable[[], Any] | None) -> Any:
        if closure is None:
            return None
        with np.errstate(**getattr(self, "_outer_errstate", np.geterr())), enable_grad():
            return closure()

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Mirrors `torch.optim.Optimizer.add_param_group`."""
        if not isinstance(param_group, dict):
            # type(x) as torch prints it: shadowgrad's classes under torch's names
            cls = re.sub(r"^<class 'shadowgrad\b", "<class 'torch", str(type(param_group)))
            raise TypeError(f"param_group must be a dict, but got {cls}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        tensors = []
        names = []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are "
                    "missing"
                )
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _typename(param)
                )
            if not self.defaults.get("differentiable", None) and not (
                param.is_leaf or param.retains_grad
            ):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter "
                    + name
                )
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this "
                "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information",
                stacklevel=3,
            )
        param_set: set[int] = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. cannot add param "
                    f"group {txt} to the optimizer"
                )
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)
