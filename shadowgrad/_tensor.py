"""Tensor: a numpy array plus autograd metadata. Mirrors `torch.Tensor`.

The class is thin: autograd state lives here, math lives in `shadowgrad.ops`, whose families
install their methods on Tensor at import (see `ops.install_methods`).
"""

from __future__ import annotations

import copy as _copy
import re
import warnings
import weakref
from typing import Any

import numpy as np

from . import _dtype as D
from . import _grad_mode
from . import autograd as _autograd
from ._size import Size
from .autograd.anomaly_mode import _STATE as _ANOMALY
from .autograd.graph import (
    AccumulateGrad,
    HookDict,
    NoGradViewEdge,
    RemovableHandle,
    VersionCounter,
)

_STATE = _grad_mode.STATE
_mode = _grad_mode.mode  # Note [Grad mode in a context variable]

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
NOT_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)

_warned_once: set[str] = set()
# the messages warn_once has issued: a test harness comparing warnings with torch's can leave
# out these, which either library may have issued already, earlier in the process
once_messages: set[str] = set()


def warn_once(
    key: str, message: str, category: type[Warning] = UserWarning, stacklevel: int = 3
) -> None:
    """Warn once per process, as torch's C++ TORCH_WARN_ONCE does."""
    if key in _warned_once:
        return
    _warned_once.add(key)
    once_messages.add(message)
    warnings.warn(message, category, stacklevel=stacklevel)


# Storages (root numpy arrays, by id, weakly held) marked by share_memory_()
_SHARED: dict[int, Any] = {}


def _storage_root(a: Any) -> Any:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _inf_writable(t: Any) -> bool:
    """An inference tensor's `.data` or `.detach()`: torch lets in-place ops write it outside
    inference mode (they skip the ADInplaceOrView check); a view of it is checked again."""
    x = t._x
    return x is not None and x.inf_writable


class _Extra:
    """Rarely used per-tensor state, created on first use to keep tensors small."""

    __slots__ = (
        "custom_view",
        "grad_dtype",
        "hooks",
        "inf_writable",
        "multi_view",
        "nograd_plain",
        "nograd_view",
        "post_acc_hooks",
        "retains_grad",
        "view_fn",
    )

    def __init__(self) -> None:
        self.hooks: HookDict | None = None
        self.post_acc_hooks: HookDict | None = None
        self.retains_grad = False
        self.multi_view: str | None = None
        self.view_fn: Any = None
        self.grad_dtype: Any = False  # False: the tensor's own dtype
        self.nograd_view = False  # a view made under no_grad (True) or in inference mode
        self.nograd_plain = False  # ... of a tensor that required no grad (ops/views.track_view)
        self.custom_view: str | None = None  # a view output of this custom Function (5.18)
        self.inf_writable = False  # an inference tensor's .data/.detach(): see _check_inplace


# torch's device types, in the order its error lists them, and its device-string grammar
_DEVICE_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
    "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)  # fmt: skip
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9]\d*|0))?")


def _parse_device(s: str, index: int | None) -> tuple[str, int | None]:
    """torch's checks of a device string (c10::Device's parser)."""
    if index is not None and ":" in s:
        raise RuntimeError(
            "type (string) must not include an index because index was passed explicitly: " + s
        )
    if not s:
        raise RuntimeError("Device string must not be empty")
    m = _DEVICE_STRING.fullmatch(s)
    if m is None:
        raise RuntimeError(f"Invalid device string: '{s}'")
    if m[1] not in _DEVICE_TYPES:
        raise RuntimeError(
            f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
            f"{m[1]}"
        )
    return m[1], int(m[2]) if m[2] is not None else index


_NO_ARG: Any = object()


class device:
    """Mirrors `torch.device`; only the CPU exists."""

    __slots__ = ("_index", "_type")

    def __init__(self, type: Any = _NO_ARG, index: Any = None, /, **kwargs: Any) -> None:
        if kwargs:  # torch's parser: `type` and `index` by keyword too (no position then)
            bad = next((k for k in kwargs if k not in ("type", "index")), None)
            if bad is not None:
                raise TypeError(f"device() got an unexpected keyword argument '{bad}'")
            type = kwargs.get("type", type)
            index = kwargs.get("index", index)
        if type is _NO_ARG or type is None:
            _device_arg_error(type)
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            where = "" if "index" in kwargs else " (position 2)"
            raise TypeError(
                f"device(): argument 'index'{where} must be int, not {index.__class__.__name__}"
            )
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            if type < 0:
                raise RuntimeError("Device index must not be negative")
            # torch: an ordinal names the current accelerator, and the CPU build has none
            raise RuntimeError("Cannot access accelerator device when none is available.")
        elif isinstance(type, str):
            type, index = _parse_device(type, index)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self._type = type
        self._index = index

    # read-only, as torch's
    type = property(lambda self: self._type, lambda self, v: _read_only("type"))
    index = property(lambda self: self._index, lambda self, v: _read_only("index"))

    def __lt__(self, other: Any) -> bool:
        raise TypeError("comparison not implemented")

    __le__ = __gt__ = __ge__ = __lt__

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        # torch compares devices only: torch.device("cpu") == "cpu" is False
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self) -> Any:
        return (device, (self.type,) if self.index is None else (self.type, self.index))

    def __enter__(self) -> device:
        """`with torch.device(d):` d is the default device of the factories inside."""
        from . import _device

        _device.enter(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        from . import _device

        _device.exit_()


def _read_only(name: str) -> None:
    raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")


def _device_arg_error(arg: Any) -> None:
    got = "" if arg is _NO_ARG else "NoneType"
    why = (
        ""
        if arg is _NO_ARG
        else "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
    )
    raise TypeError(
        f"device() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n * (torch.device device)\n{why} * (str type, int index = -1)\n"
    )


CPU = device("cpu")


def check_device(dev: Any) -> None:
    if dev is None:
        return
    d = dev if isinstance(dev, device) else device(dev)
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if d.type == "xpu":
        raise AssertionError("Torch not compiled with XPU enabled")
    if d.type not in ("cpu", "meta"):
        # torch's CPU build has no backend for the other device types
        raise RuntimeError(f"PyTorch is not linked with support for {d.type} devices")


def _refresh_view(t: Tensor) -> None:
    """A view's grad_fn regenerated after an in-place op on its base (see ops/views.py)."""
    from .ops.views import refresh_view

    refresh_view(t)


def _sync_view(t: Tensor) -> None:
    """Bring a view's grad_fn up to date before it is read (grad_fn, is_leaf, a graph edge), as
    torch's grad_fn() does: regenerated after its base changed in place, or refused for a view
    made under no_grad."""
    if t._grad_fn is not None:
        _refresh_view(t)
    elif t._x is not None:
        _check_nograd_view(t)


def _set_not_implemented(self: Tensor, source: Any) -> None:
    """set_ recorded by autograd: torch's NotImplemented node, an edge for self and one for a
    Tensor source (None where it does not require grad); its backward raises."""
    from ._foreach import _NotImplementedNode

    ins = [self, source] if isinstance(source, Tensor) else [self]
    node = _NotImplementedNode(tuple(t._edge() if t._rg else None for t in ins))
    node._in_meta = tuple((t._data.shape, t.dtype) if t._rg else None for t in ins)
    node._nout = 1
    node._what = "set_"
    self._grad_fn = node
    self._rg = True
    self._nr = 0


def _check_nograd_view(t: Tensor) -> None:
    """A view made under no_grad of a tensor requiring grad has no grad_fn of its own; once its
    base (or another view of it) was modified in place, torch can't make one and refuses to
    read it (grad_fn, is_leaf, any op using the view)."""
    if t._x.nograd_view and t._base._rg:
        vc = t._vc
        if vc is not None and vc.v != getattr(t, "_vv", vc.v):
            if t._x.nograd_view == "base":
                # made in grad mode before its base required grad (ops/views.views_follow_leaf),
                # and the base has changed since: torch regenerates its node on the base
                from .ops.views import set_as_strided_grad_fn

                t._x.nograd_view = False
                set_as_strided_grad_fn(t, t._base)
                return
            from .ops.views import nograd_view_message

            raise RuntimeError(nograd_view_message(t._x.nograd_view, rebase=True, view=t))


def _sparse_layout(t: Tensor) -> str | None:
    """A sparse tensor's layout ("coo", "csr": sparse/_array.py), None for others; read only
    after a `type(t._data) is not np.ndarray` test."""
    d = t._data
    if not getattr(d, "_sg_sparse", False):
        return None
    return "csr" if d._csr else "coo"


def _sparse_numpy_error(t: Tensor) -> str:
    kind = "Sparse" if _sparse_layout(t) == "coo" else "SparseCsr"
    return f"can't convert {kind} layout tensor to numpy. Use Tensor.to_dense() first."


def _make(
    data: np.ndarray,
    requires_grad: bool = False,
    grad_fn: Any = None,
    output_nr: int = 0,
    vc: VersionCounter | None = None,
) -> Tensor:
    """Wrap an ndarray without copying. The hot path of every op."""
    t = object.__new__(Tensor)
    t._data = data
    t._rg = requires_grad
    t._grad_fn = grad_fn
    t._grad = None
    t._vc = vc
    t._nr = output_nr
    t._base = None
    t._acc = None
    t._x = None
    t._inf = _mode().inference
    return t


# inside torch.func.vmap: the ids of the tensors func's mapped slices and what it derived from
# them (func.py's batch tracker sets it and raises VMAP_ITEM for their .item(), float(), ...)
VMAP_SLICES: set[int] | None = None
VMAP_ITEM = (
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
    ".item() on a Tensor, please try to rewrite what you're doing with other operations. If "
    "error is occurring somewhere inside PyTorch internals, please file a bug report."
)


class Tensor:
    """A multi-dimensional array that records operations for autograd. Mirrors `torch.Tensor`."""

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_acc",
        "_base",
        "_data",
        "_grad",
        "_grad_fn",
        "_inf",
        "_nr",
        "_rg",
        "_vc",
        "_vv",  # views only: the version the view's grad_fn was made at (unset otherwise)
        "_x",
    )
    __array_priority__ = 1000  # so numpy defers `ndarray * Tensor` to us
    _sg_proto = False  # True on a user subclass taking part in __torch_function__ (overrides.py)

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        # Legacy constructor: torch.Tensor([1, 2]) -> float32 data; torch.Tensor(2, 3) -> empty.
        from ._creation import _legacy_new

        return _legacy_new(cls, *args, **kwargs)

    # --- autograd metadata ---------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        rg = self._rg
        if rg and self._grad_fn is None and self._base is not None:
            x = self._x
            if x is not None and x.nograd_view and not x.nograd_plain:
                # a view made under no_grad (or in inference mode) of a tensor that requires
                # grad has no node: as torch's, it requires grad while its base does
                return bool(self._base.requires_grad)
        return rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value is not True and value is not False:
            raise RuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None:
            if value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError(NOT_LEAF_REQUIRES_GRAD)
        if value and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        if value and self._inf and not _STATE.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed."
            )
        if not value and self._rg and self._acc is not None:
            self._extra()  # (see requires_grad_)
        self._rg = bool(value)
        if value and self._vc is not None and self._vc.views and self._base is None:
            from .ops.views import views_follow_leaf

            views_follow_leaf(self)

    @requires_grad.deleter
    def requires_grad(self) -> None:
        raise RuntimeError("requires_grad must be a bool")

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Mirrors `torch.Tensor.requires_grad_`."""
        if not isinstance(requires_grad, bool):
            raise TypeError(
                "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                f"{type(requires_grad).__name__}"
            )
        if _grad_mode.TRANSFORMS.depth:  # inside torch.func transforms: the user's call refused
            from .func import REQUIRES_GRAD_IN_TRANSFORM, called_by_user

            if called_by_user(1):
                raise RuntimeError(REQUIRES_GRAD_IN_TRANSFORM)
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(NOT_LEAF_REQUIRES_GRAD)
            return self
        if requires_grad and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._inf and not _STATE.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed."
            )
        if not requires_grad and self._rg and self._acc is not None:
            # a graph may lead here: the engine's general path, which checks it, accumulates
            # nothing into a leaf that stopped requiring grad (engine._accumulate)
            self._extra()
        self._rg = requires_grad
        if requires_grad and self._vc is not None and self._vc.views and self._base is None:
            from .ops.views import views_follow_leaf

            views_follow_leaf(self)  # its views require grad through it now
        return self

    @property
    def volatile(self) -> bool:
        """Legacy: always False, with torch's warning."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value: Any) -> None:
        warnings.warn(
            "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
            stacklevel=2,
        )

    @property
    def is_leaf(self) -> bool:
        if self._base is not None:
            _sync_view(self)
        return self._grad_fn is None

    @property
    def grad_fn(self) -> Any:
        if self._base is not None:
            _sync_view(self)
        return self._grad_fn

    @property
    def output_nr(self) -> int:
        return self._nr

    @property
    def retains_grad(self) -> bool:
        return self._x is not None and self._x.retains_grad

    def _extra(self) -> _Extra:
        x = self._x
        if x is None:
            x = self._x = _Extra()
        return x

    @property
    def _backward_hooks(self) -> Any:
        """The hooks register_hook gave this tensor, by handle id (an OrderedDict, as
        torch's), or None if it never had one."""
        gf = self._grad_fn
        if gf is not None:
            d = gf._tensor_prehooks
            return None if d is None else d.get(self._nr)
        return None if self._x is None else self._x.hooks

    @_backward_hooks.setter
    def _backward_hooks(self, value: Any) -> None:
        if value is not None and not isinstance(value, HookDict):
            value = HookDict(value)
        gf = self._grad_fn
        if gf is None:
            if value is not None or self._x is not None:
                self._extra().hooks = value
            return
        d = gf._tensor_prehooks
        if value is not None:
            if d is None:
                d = gf._tensor_prehooks = {}
            d[self._nr] = value
        elif d is not None:
            d.pop(self._nr, None)

    @property
    def _post_accumulate_grad_hooks(self) -> Any:
        """The hooks register_post_accumulate_grad_hook gave this leaf (torch's attribute)."""
        return None if self._x is None else self._x.post_acc_hooks

    @_post_accumulate_grad_hooks.setter
    def _post_accumulate_grad_hooks(self, value: Any) -> None:
        if value is not None and not isinstance(value, HookDict):
            value = HookDict(value)
        if value is not None or self._x is not None:
            self._extra().post_acc_hooks = value

    @property
    def grad(self) -> Tensor | None:
        g = self._grad
        # torch's TensorBase::grad(): warns for a non-leaf that neither retains nor has a grad
        x = self._x
        if g is None and self._grad_fn is not None and not (x is not None and x.retains_grad):
            warnings.warn(NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return g

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    "assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            # torch checks the dtype before the size
            gd = self.grad_dtype if self._grad_fn is None else self.dtype
            if gd is not None and value.dtype is not gd:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{D.CPP_NAMES[value.dtype]}' "
                    f"to a tensor with grad_dtype '{gd._short}'. The gradient must match the "
                    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                    "its gradient may break downstream systems that assume they match."
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def grad_dtype(self) -> D.dtype | None:
        if self._grad_fn is not None:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        gd = self._x.grad_dtype if self._x is not None else False
        return self.dtype if gd is False else gd

    @grad_dtype.setter
    def grad_dtype(self, value: D.dtype | None) -> None:
        old = self.grad  # torch reads the gradient first (the non-leaf .grad warning)
        if self._grad_fn is not None:
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, D.dtype):
            raise RuntimeError(
                f"grad_dtype must be a torch.dtype or None, but got {type(value).__name__}"
            )
        if value is not None and old is not None and old.dtype is not value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{value._short}' because there is already a gradient "
                f"with dtype '{D.CPP_NAMES[old.dtype]}'. Please clear the gradient (.grad = None) "
                "before changing grad_dtype, or ensure the new grad_dtype matches the existing "
                "gradient's dtype."
            )
        self._extra().grad_dtype = value

    def retain_grad(self) -> None:
        """Keep `.grad` for this non-leaf after backward. Mirrors `torch.Tensor.retain_grad`."""
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None:
            return
        x = self._extra()
        if x.retains_grad:
            return
        x.retains_grad = True
        node = self._grad_fn
        if node._retains is None:
            node._retains = {}
        node._retains[self._nr] = weakref.ref(self)

    def _edge(self) -> tuple[Any, int]:
        """The graph edge gradients for this tensor flow into."""
        if self._base is not None:
            _sync_view(self)
        gf = self._grad_fn
        if gf is not None:
            return (gf, self._nr)
        acc = self._acc() if self._acc is not None else None
        if acc is None:
            x = self._x
            if self._base is not None and x is not None and x.nograd_view and not x.nograd_plain:
                # a view made under no_grad of a tensor that requires grad: it requires grad
                # but has no gradient edge in torch (nothing accumulates into it)
                return (NoGradViewEdge(), 0)
            acc = AccumulateGrad(self)
            self._acc = weakref.ref(acc)
        return (acc, 0)

    def register_hook(self, hook: Any) -> RemovableHandle:
        """Mirrors `torch.Tensor.register_hook`."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            return self._grad_fn._add_tensor_prehook(self._nr, hook)
        x = self._extra()
        if x.hooks is None:
            x.hooks = HookDict()
        h = RemovableHandle(x.hooks)
        x.hooks[h.id] = hook
        return h

    def register_post_accumulate_grad_hook(self, hook: Any) -> RemovableHandle:
        """Mirrors `torch.Tensor.register_post_accumulate_grad_hook`."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        x = self._extra()
        if x.post_acc_hooks is None:
            x.post_acc_hooks = HookDict()
        h = RemovableHandle(x.post_acc_hooks)
        x.post_acc_hooks[h.id] = hook
        return h

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """Mirrors `torch.Tensor.backward`."""
        _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        """A new leaf sharing storage and version counter. Mirrors `torch.Tensor.detach`."""
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        t = _make(self._data, False, None, 0, vc)
        t._inf = self._inf
        if self._inf:  # (an inference tensor tracks no version: the detached one its own)
            t._vc = None
            t._extra().inf_writable = True
        return t

    def module_load(self, other: Tensor, assign: bool = False) -> Tensor:
        """What nn.Module.load_state_dict swaps into this parameter or buffer when
        torch.__future__'s swap_module_params_on_conversion is on. Mirrors
        `torch.Tensor.module_load`."""
        if assign:
            return other.detach()
        return self.copy_(other).detach()

    def detach_(self) -> Tensor:
        """Mirrors `torch.Tensor.detach_`."""
        if _STATE.inference:  # torch's detach_ is an autograd kernel, which inference mode skips
            return self
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        from .autograd import forward_ad

        if forward_ad._STATE.tangents:
            forward_ad._drop_tangent(self)  # torch's detach_ drops the forward-AD tangent too
        self._grad_fn = None
        self._rg = False
        self._nr = 0
        return self

    @property
    def data(self) -> Tensor:
        t = _make(self._data, False, None, 0, None)
        t._inf = self._inf
        if self._inf:
            t._extra().inf_writable = True
        if type(self._vc) is not VersionCounter and self._vc is not None:
            from .ops.views import alias_counter  # memory with conj/negative views

            t._vc = alias_counter(self._vc)
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._rg and not (value.dtype.is_floating_point or value.dtype.is_complex):
            raise RuntimeError(
                "data set to a tensor that requires gradients must be floating point or complex "
                "dtype"
            )
        self._data = value._data

    @data.deleter
    def data(self) -> None:
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    @property
    def _version(self) -> int:
        if self._inf and not _inf_writable(self):
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._vc is None else self._vc.v

    def _bump(self) -> None:
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        vc.v += 1
        if _ANOMALY.enabled:
            from .autograd.explain import user_site

            vc.site = user_site()

    def _is_view(self) -> bool:
        return self._base is not None

    def is_inference(self) -> bool:
        return self._inf

    # --- array metadata ------------------------------------------------------------------
    @property
    def dtype(self) -> D.dtype:
        return D._FROM_NP[self._data.dtype]

    @property
    def shape(self) -> Size:
        return tuple.__new__(Size, self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return tuple.__new__(Size, self._data.shape)
        return self._data.shape[self._size_dim(dim)]

    def _size_dim(self, dim: Any, fn: str = "size") -> int:
        """dim wrapped as size(dim)/stride(dim) wrap it: a 0-d tensor has no dim at all."""
        from .ops._util import wrap_dim

        if type(dim) is not int and (type(dim) is bool or not hasattr(dim, "__index__")):
            raise TypeError(
                f"{fn}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}"
            )
        if not self._data.ndim and isinstance(dim, int):
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return wrap_dim(dim, self._data.ndim)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return 2 if self._data.dtype is D.LD else int(self._data.itemsize)

    @property
    def itemsize(self) -> int:
        return self.element_size()

    @property
    def nbytes(self) -> int:
        if type(self._data) is not np.ndarray and _sparse_layout(self):
            raise RuntimeError(
                "nbytes is not defined for sparse tensors.  If you want the size of the "
                "constituent tensors, add the nbytes of the indices and values.  If you want the "
                "size of the  equivalent dense tensor, multiply numel() by element_size()"
            )
        return self._data.size * self.element_size()

    def stride(self, dim: int | None = None) -> Any:
        d = self._data
        if type(d) is not np.ndarray and _sparse_layout(self) == "csr":
            raise RuntimeError("Sparse CSR tensors do not have strides")
        if d.size == 0 and d.ndim and not any(d.strides):
            # numpy gives a new empty array zero strides; torch gives the contiguous ones
            st: tuple[int, ...] = ()
            n = 1
            for s in reversed(d.shape):
                st = (n, *st)
                n *= max(s, 1)
        else:
            st = tuple(s // d.itemsize for s in d.strides)
        return st if dim is None else st[self._size_dim(dim, "stride")]

    def is_contiguous(self, *, memory_format: Any = None) -> bool:
        if memory_format is None:
            return bool(self._data.flags.c_contiguous)
        from ._formats import has_format
        from ._formats import memory_format as format_type

        if not isinstance(memory_format, format_type):
            raise TypeError(
                "is_contiguous(): argument 'memory_format' must be torch.memory_format, not "
                f"{type(memory_format).__name__}"
            )
        try:
            return has_format(self._data, memory_format)
        except RuntimeError:
            return False  # torch: channels_last of a tensor not 4-D (5-D for _3d) is just False

    def data_ptr(self) -> int:
        if type(self._vc) is not VersionCounter and self._vc is not None:
            from .ops.views import shadow_of  # a conj/negative view: its base's memory

            sh = shadow_of(self)
            if sh is not None:
                return int(sh.__array_interface__["data"][0])
        if type(self._data) is not np.ndarray and self.is_meta:
            return self.storage_offset() * self._data.itemsize  # no memory: offsets from 0
        if type(self._data) is not np.ndarray and _sparse_layout(self):
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        return int(self._data.__array_interface__["data"][0])

    def const_data_ptr(self) -> int:
        """Mirrors `torch.Tensor.const_data_ptr` (data_ptr, for reading)."""
        return self.data_ptr()

    def storage_offset(self) -> int:
        """Mirrors `torch.Tensor.storage_offset`: in elements, from the start of the memory
        it shares (the numpy root, as untyped_storage(): a detached or loaded view counts from
        its storage too, not only an autograd view from its _base)."""
        from ._storage import UntypedStorage

        # an autograd view's storage is its base's (as_strided views hide their numpy root)
        owner = self._base if self._base is not None else self
        storage = UntypedStorage._of(owner._data)
        start = storage.data_ptr()
        if type(self._data) is not np.ndarray and self.is_meta:  # (data_ptr() is 0)
            return (self._data.__array_interface__["data"][0] - start) // self._data.itemsize
        d = self.data_ptr() - start
        if owner is not self and not 0 <= d <= storage.nbytes():
            # a view given other memory by set_ (still a view of its base, as in torch)
            d = self.data_ptr() - UntypedStorage._of(self._data).data_ptr()
        return d // self._data.itemsize

    def is_signed(self) -> bool:
        """Mirrors `torch.Tensor.is_signed`."""
        return self._data.dtype.kind not in "ub"

    def is_same_size(self, other: Tensor) -> bool:
        """Mirrors `torch.Tensor.is_same_size`."""
        if not isinstance(other, Tensor):
            raise TypeError(
                "is_same_size(): argument 'other' (position 1) must be Tensor, not "
                f"{type(other).__name__}"
            )
        return self._data.shape == other._data.shape

    def is_nonzero(self) -> bool:
        """Mirrors `torch.Tensor.is_nonzero`."""
        n = self._data.size
        if n != 1:
            which = "no values" if n == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {which} is ambiguous")
        return bool(self._data.reshape(()) != 0)

    def untyped_storage(self) -> Any:
        """Mirrors `torch.Tensor.untyped_storage`: the bytes this tensor and its views share."""
        from ._storage import UntypedStorage

        if type(self._data) is not np.ndarray and _sparse_layout(self):
            kind = "Sparse" if self.is_sparse else "SparseCsr"
            raise NotImplementedError(f"Cannot access storage of {kind}TensorImpl")

        if type(self._vc) is not VersionCounter and self._vc is not None:
            from .ops.views import shadow_of  # a conj/negative view: its base's bytes

            sh = shadow_of(self)
            if sh is not None:
                return UntypedStorage._of(sh)
        return UntypedStorage._of(self._data)

    def storage(self) -> Any:
        """Mirrors the deprecated `torch.Tensor.storage`: a TypedStorage in self's dtype (with
        torch's deprecation warning, once)."""
        from ._storage import TypedStorage, UntypedStorage, warn_typed_storage_removal

        warn_typed_storage_removal()
        return TypedStorage(UntypedStorage._of(self._data), self.dtype)

    @property
    def device(self) -> device:
        if type(self._data) is not np.ndarray:
            from ._device import META, MetaArray

            if type(self._data) is MetaArray:
                return META
        return CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_sparse(self) -> bool:
        return type(self._data) is not np.ndarray and _sparse_layout(self) == "coo"

    @property
    def is_sparse_csr(self) -> bool:
        return type(self._data) is not np.ndarray and _sparse_layout(self) == "csr"

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_meta(self) -> bool:
        return type(self._data) is not np.ndarray and self.device.type == "meta"

    # the other backends' flags: never set on a CPU build (is_cpu: ops/aliases.py)
    is_mps = is_xpu = is_mkldnn = is_vulkan = is_ipu = is_nested = is_mtia = property(
        lambda self: False
    )

    @property
    def layout(self) -> Any:
        from ._formats import sparse_coo, sparse_csr, strided

        if type(self._data) is not np.ndarray and _sparse_layout(self):
            return sparse_coo if self.is_sparse else sparse_csr
        return strided

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        return self.dtype.is_complex

    def get_device(self) -> int:
        return -1

    def cpu(self) -> Tensor:
        if type(self._data) is not np.ndarray and self.is_meta:
            from ._device import NO_DATA

            raise NotImplementedError(NO_DATA)
        return self

    def cuda(self, *args: Any, **kwargs: Any) -> Tensor:
        """Mirrors `torch.Tensor.cuda` on torch's CPU build: its argument and device errors,
        then no CUDA."""
        from ._to_args import accelerator_error

        raise accelerator_error("cuda", args, kwargs)

    def xpu(self, *args: Any, **kwargs: Any) -> Tensor:
        """Mirrors `torch.Tensor.xpu` on torch's CPU build (see cuda)."""
        from ._to_args import accelerator_error

        raise accelerator_error("xpu", args, kwargs)

    def ipu(self, *args: Any, **kwargs: Any) -> Tensor:
        """Mirrors `torch.Tensor.ipu` on torch's CPU build (see cuda)."""
        from ._to_args import accelerator_error

        raise accelerator_error("ipu", args, kwargs)

    def mtia(self, *args: Any, **kwargs: Any) -> Tensor:
        """Mirrors `torch.Tensor.mtia` on torch's CPU build (see cuda)."""
        from ._to_args import accelerator_error

        raise accelerator_error("mtia", args, kwargs)

    def is_pinned(self, device: Any = None) -> bool:
        """Mirrors `torch.Tensor.is_pinned`: nothing is pinned without an accelerator."""
        return False

    def pin_memory(self, device: Any = None) -> Tensor:
        """Mirrors `torch.Tensor.pin_memory` on torch's CPU build (no accelerator)."""
        if type(self._data) is not np.ndarray and self.is_meta:
            raise RuntimeError(
                f"cannot pin 'Meta{self.dtype._legacy.split('.')[-1][:-6]}Type' only dense CPU "
                "tensors can be pinned"
            )
        raise RuntimeError("Cannot access accelerator device when none is available.")

    def share_memory_(self) -> Tensor:
        """Mirrors `torch.Tensor.share_memory_`: nothing moves here (one process), but the
        storage is marked, so this tensor and every tensor sharing its memory (views, detach)
        report is_shared() as torch's do."""
        root = _storage_root(self._data)
        key = id(root)
        _SHARED[key] = weakref.ref(root, lambda _r, k=key: _SHARED.pop(k, None))
        return self

    def is_shared(self) -> bool:
        """Mirrors `torch.Tensor.is_shared`: whether share_memory_() marked this storage."""
        root = _storage_root(self._data)
        r = _SHARED.get(id(root))
        return r is not None and r() is root

    def set_(
        self, source: Any = None, storage_offset: Any = None, size: Any = None, stride: Any = None
    ) -> Tensor:
        """Mirrors `torch.Tensor.set_`: self made to share source's memory (a tensor's, or a
        storage's from storage_offset with size and stride); set_() leaves it empty.

        Differences: a size reaching past the storage raises torch's error for a storage it
        can't resize (torch grows a resizable storage)."""
        from ._storage import UntypedStorage

        is_storage = isinstance(source, UntypedStorage) or type(source).__name__ == "TypedStorage"
        if (
            (source is None and storage_offset is not None)
            or not (source is None or isinstance(source, Tensor) or is_storage)
            or ((storage_offset is None) != (size is None))
        ):
            got = ", ".join(
                "torch.storage.UntypedStorage"
                if isinstance(a, UntypedStorage)
                else type(a).__name__
                for a in (source, storage_offset, size, stride)
                if a is not None
            )
            # one wrong argument: torch says why each one-argument overload refused it
            why = (
                f"\n      didn't match because some of the arguments have invalid types: (!{got}!)"
                if "," not in got
                else ""
            )
            raise TypeError(
                f"set_() received an invalid combination of arguments - got ({got}), but "
                f"expected one of:\n * (){why}\n * (torch.Storage source){why}\n * "
                "(torch.Storage source, int storage_offset, tuple of ints size, tuple of ints "
                f"stride = None)\n * (Tensor source){why}\n * (Tensor source, int "
                "storage_offset, tuple of ints size, tuple of ints stride = None)\n"
            )
        dt = self._data.dtype
        if isinstance(source, Tensor) and source._data.dtype != dt:  # (before the leaf check)
            raise RuntimeError(
                f"Could not set tensor of type {D.CPP_NAMES[source.dtype]} to a tensor of type "
                f"{D.CPP_NAMES[self.dtype]}"
            )
        self._check_inplace()
        if source is None:
            data = np.empty(0, dt)
        elif isinstance(source, Tensor) and storage_offset is None:
            data = source._data[...]
        else:
            root = (
                UntypedStorage._of(source._data)._arr
                if isinstance(source, Tensor)
                else (
                    source.untyped_storage()._arr
                    if not isinstance(source, UntypedStorage)
                    else source._arr
                )
            )
            flat = np.ascontiguousarray(root).reshape(-1).view(np.uint8)
            if root.size and not np.shares_memory(flat, root):
                raise RuntimeError("set_: the storage is not contiguous memory")  # not in torch
            count = flat.size // dt.itemsize
            off = 0 if storage_offset is None else int(storage_offset)
            shape = (count - off,) if size is None else tuple(int(v) for v in size)
            if stride is None:
                st, n = [], 1
                for v in reversed(shape):
                    st.insert(0, n)
                    n *= v
            else:
                st = [int(v) for v in stride]
            need = (
                off + sum((v - 1) * k for v, k in zip(shape, st, strict=False)) + 1
                if all(shape)
                else off
            )
            if off < 0 or need > count:
                raise RuntimeError("Trying to resize storage that is not resizable")
            # over the storage's bytes, so that its numpy root stays the storage's
            strides = tuple(k * dt.itemsize for k in st)
            data = np.ndarray(shape, dt, buffer=flat, offset=off * dt.itemsize, strides=strides)
        src_rg = isinstance(source, Tensor) and source._rg
        if (self._rg or src_rg) and _STATE.grad:
            _set_not_implemented(self, source)
        self._data = data
        self._bump()
        return self

    def _has_tangent(self) -> bool:
        """Whether forward AD is on and self is a dual tensor."""
        from .autograd import forward_ad

        return forward_ad._STATE.active and forward_ad._get_tangent(self) is not None

    def as_strided_(self, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:
        """Mirrors `torch.Tensor.as_strided_`: self restrided over its own storage (from its
        storage offset unless given); recorded as AsStridedBackward1 on a tensor with a
        grad_fn."""
        if (self._grad_fn is not None and _STATE.grad) or self._has_tangent():
            from .ops.shape import as_strided_recorded

            return as_strided_recorded(self, size, stride, storage_offset)
        off = self.storage_offset() if storage_offset is None else storage_offset
        with _grad_mode.no_grad():
            self.as_strided(size, stride, off)  # type: ignore[attr-defined] # torch's checks
        return self.set_(self.untyped_storage(), off, size, stride)

    def type(self, dtype: Any = None, non_blocking: bool = False) -> Any:
        if dtype is None:
            if type(self._data) is not np.ndarray and self.is_meta:
                return self.dtype._legacy.replace("torch.", "torch.meta.")
            if type(self._data) is not np.ndarray and _sparse_layout(self) == "coo":
                return self.dtype._legacy.replace("torch.", "torch.sparse.")
            if type(self._data) is not np.ndarray and _sparse_layout(self):
                raise RuntimeError("Unimplemented backend SparseCsrCPU")
            return self.dtype._legacy
        if getattr(dtype, "is_cuda", False) is True or (
            isinstance(dtype, str) and dtype.startswith("torch.cuda.")
        ):
            from .cuda import NO_CUDA_LIBRARY

            raise RuntimeError(NO_CUDA_LIBRARY)  # a legacy CUDA type, on a CPU build
        if isinstance(dtype, str):
            for d in D.ALL_DTYPES:
                if d._legacy == dtype:
                    dtype = d
                    break
            else:
                raise ValueError(f"invalid type: '{dtype}'")
        elif not isinstance(dtype, Tensor) and isinstance(getattr(dtype, "dtype", None), D.dtype):
            dtype = dtype.dtype  # a legacy type: torch.DoubleTensor (a tensor is not one)
        elif dtype is Tensor:  # torch.Tensor: the default tensor type
            dtype = D.get_default_dtype()
        elif isinstance(dtype, type):  # torch reads another class by its C name
            mod = "numpy." if dtype.__module__ == "numpy" else ""
            raise ValueError(f"invalid type: '{mod}{dtype.__name__}'")
        elif not isinstance(dtype, D.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    # --- conversion to Python and numpy --------------------------------------------------
    def item(self) -> Any:
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        if self._data.dtype is D.LD:  # a bfloat16 value: a Python float, as torch's
            return float(self._data.reshape(()))
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        if type(self._data) is not np.ndarray and self.is_meta:
            from ._device import NO_DATA

            raise NotImplementedError(NO_DATA)
        if self._data.dtype is D.LD:  # bfloat16: Python floats (longdouble's tolist keeps it)
            return self._data.astype(np.float64).tolist()
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        if force is not False and force is not True:  # torch's parser takes a bool only
            raise TypeError(f"numpy(): argument 'force' must be bool, not {type(force).__name__}")
        if self._rg and not force and _STATE.grad:  # torch checks it with grad mode on only
            if type(self._data) is not np.ndarray and _sparse_layout(self):
                raise TypeError(_sparse_numpy_error(self))
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        if self._data.dtype is D.LD:
            raise TypeError("Got unsupported ScalarType BFloat16")
        if type(self._data) is not np.ndarray and self.is_meta:
            from ._device import NO_NUMPY

            raise TypeError(NO_NUMPY)
        if type(self._data) is not np.ndarray and _sparse_layout(self):
            raise TypeError(_sparse_numpy_error(self))
        if not force and type(self._vc) is not VersionCounter and self._vc is not None:
            from .ops.views import is_conj, is_neg

            for bit, test in (("conjugate", is_conj), ("negative", is_neg)):
                if test(self):
                    fix = "resolve_conj" if bit == "conjugate" else "resolve_neg"
                    raise RuntimeError(
                        f"Can't call numpy() on Tensor that has {bit} bit set. Use "
                        f"tensor.{fix}().numpy() instead."
                    )
        return self._data

    def __array__(self, dtype: Any = None) -> np.ndarray:
        # no `copy` parameter, as torch's: numpy 2 then warns for np.array(t, copy=...) and
        # refuses np.asarray(t, copy=False), as it does for torch's tensors
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __array_wrap__(self, array: np.ndarray) -> Tensor:  # type: ignore[override]
        """Wrap a numpy function's result on tensors back into a tensor (`np.sin(t)`,
        `t * ndarray`), as torch does: bool results become uint8 tensors, and the result
        shares the array's memory. The one-argument signature is torch's own, so numpy warns
        (DeprecationWarning) where it warns for torch's tensors."""
        from ._creation import from_numpy

        if array.dtype == bool:
            array = array.astype("uint8")
        return from_numpy(array)

    def _warn_scalar(self) -> None:
        # torch warns once per process (float and complex share the warning), only with grad
        # mode on
        if self._rg and _STATE.grad:
            warn_once(
                "float",
                "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                "behavior.\nConsider using tensor.detach() first.",
                stacklevel=4,
            )

    def __float__(self) -> float:
        self._warn_scalar()
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.dtype.is_complex or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __complex__(self) -> complex:
        self._warn_scalar()
        return complex(self._scalar("complex"))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            if self._data.size == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()).item())

    def _scalar(self, kind: str) -> Any:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        v = self._data.reshape(()).item()
        if kind in ("int", "float") and type(v) is complex:
            if v.imag != 0:  # c10's checked conversion of a complex to a real type
                name = "int64_t" if kind == "int" else "double"
                raise RuntimeError(f"value cannot be converted to type {name} without overflow")
            v = v.real
        return v

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __reversed__(self) -> Tensor:
        """Mirrors `torch.Tensor.__reversed__`: the tensor flipped along dim 0 (a 0-d tensor
        is its own reverse)."""
        if self._data.ndim == 0:
            return self
        return self.flip(0)  # type: ignore[attr-defined, no-any-return]

    def __iter__(self) -> Any:
        if self.dim() == 0:  # (torch asks dim(): a TorchFunctionMode sees it)
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # type: ignore[attr-defined]

    def __contains__(self, element: Any) -> bool:
        """Mirrors `torch.Tensor.__contains__`: any element equal, for a tensor or a number."""
        import numbers

        if isinstance(element, (Tensor, numbers.Number)):
            return bool((element == self).any().item())  # type: ignore[attr-defined]
        raise RuntimeError(
            "Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
            f"{type(element)}."
        )

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0 and type(self) is Tensor and type(self._data) is np.ndarray:
            return format(self._data.item(), spec)  # (a meta tensor's: object's format)
        if spec:
            raise TypeError(f"unsupported format string passed to {type(self).__name__}.__format__")
        return str(self)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        from ._tensor_str import format_tensor

        if type(self._data) is not np.ndarray:
            if self.is_meta:
                from ._device import meta_repr

                return meta_repr(self)
            if _sparse_layout(self):
                from .sparse._repr import sparse_repr

                return sparse_repr(self)

        extras = []
        try:
            gf = self.grad_fn
            name = None if gf is None else type(gf).__name__
            if name == "CppFunction":  # torch shows a C++-only node by its own name
                name = gf.name().rsplit("::", 1)[-1]
        except RuntimeError:
            name = "Invalid"  # torch's repr of a view whose grad_fn can't be made
        if name is not None:
            extras.append(f"grad_fn=<{name}>")
        elif self._rg:
            extras.append("requires_grad=True")
        from .autograd import forward_ad

        if forward_ad._STATE.level >= 0 and forward_ad._STATE.enabled:
            tangent = forward_ad._get_tangent(self)
            if tangent is not None:
                extras.append(f"tangent={tangent}")  # f-string: a 0-d tangent shows its item
        from .nn.parameter import Parameter

        t = type(self)
        plain = t is Tensor or t is Parameter
        # torch shows a subclass by its name, a subclass of Parameter inside Parameter(...)
        text = format_tensor(
            self._data,
            self.dtype._name,
            D.get_default_dtype()._name,
            extras,
            "tensor(" if plain else t.__name__ + "(",
        )
        return text if plain or not isinstance(self, Parameter) else f"Parameter({text})"

    __str__ = __repr__

    # --- copying and pickling ------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        if self._grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment.  If you were attempting to deepcopy a module, "
                "this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        if id(self) in memo:
            return memo[id(self)]  # type: ignore[no-any-return]
        if type(self) is not Tensor and not type(self).__module__.startswith("shadowgrad."):
            _check_new_empty(self)
        new = object.__new__(type(self))
        for s in Tensor.__slots__:
            if s not in ("__dict__", "__weakref__") and hasattr(self, s):
                setattr(new, s, getattr(self, s))
        if type(self._data) is not np.ndarray and _sparse_layout(self):
            if self._data._csr:
                raise NotImplementedError("Cannot access storage of SparseCsrTensorImpl")
            new._data = self._data.copy()  # a sparse tensor: its indices and values copied
            new._vc = new._acc = new._base = new._x = None
            memo[id(self)] = new
            if self._grad is not None:
                new._grad = _copy.deepcopy(self._grad, memo)
            new.__dict__.update(_copy.deepcopy(self.__dict__, memo))
            return new
        # as torch's: tensors sharing a storage share one copy of it, with their own layout
        root = _storage_root(self._data)
        copies = memo.setdefault("shadowgrad storages", {})  # type: ignore[call-overload]
        if id(root) not in copies:
            copies[id(root)] = (root, root.copy())  # the root kept alive as long as the memo
        data = _in_storage(self._data, root, copies[id(root)][1])
        new._data = self._data.copy() if data is None else data
        if type(self._data) is not np.ndarray and type(new._data) is np.ndarray:
            new._data = new._data.view(type(self._data))  # a meta tensor's copy is meta
        new._vc = None
        new._bump()  # torch's copy is set_ to the new storage: version 1
        new._inf = _mode().inference  # (an inference tensor's copy is a normal one outside)
        new._acc = None
        new._base = None
        new._x = None
        memo[id(self)] = new
        if self._grad is not None:
            new._grad = _copy.deepcopy(self._grad, memo)
        new.__dict__.update(_copy.deepcopy(self.__dict__, memo))
        return new

    def __reduce_ex__(self, proto: int) -> Any:
        warn_if_has_hooks(self)
        d = self._data
        if type(d) is not np.ndarray and _sparse_layout(self):  # the indices and values, pickled
            return (_rebuild, (type(self), d.copy(), self._rg, self.__dict__))
        root = _storage_root(d)
        if root.flags.c_contiguous and root.dtype.kind != "O":
            # torch pickles the storage with the view's offset and strides
            off = d.__array_interface__["data"][0] - root.__array_interface__["data"][0]
            layout = (off, d.shape, d.strides, d.dtype.str)
            return (_rebuild_strided, (type(self), root.copy(), layout, self._rg, self.__dict__))
        return (_rebuild, (type(self), d.copy(), self._rg, self.__dict__))

    # --- in-place helpers shared by the ops ----------------------------------------------
    def _check_inplace(self) -> None:
        """Raise torch's errors for in-place ops on grad-requiring leaves or their views."""
        if self._inf and not _STATE.inference and not _inf_writable(self):
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
                "make a clone to get a normal tensor before doing inplace update.See "
                "https://github.com/pytorch/rfcs/pull/17 for more details."
            )
        if not _STATE.grad:
            return
        x = self._x
        if x is not None:
            if x.nograd_view and self._rg and x.nograd_view != "base":  # (one that does not
                # require grad: views.py's check_view_inplace, once another operand does)
                from .ops.views import CUSTOM_VIEW, NO_GRAD_VIEW, nograd_view_message

                if x.custom_view:  # returned by a custom Function applied under no_grad
                    raise RuntimeError(NO_GRAD_VIEW + " " + CUSTOM_VIEW)
                raise RuntimeError(nograd_view_message(x.nograd_view, view=self))
            if x.custom_view and self._rg:
                from .ops.views import check_view_inplace

                check_view_inplace(self, self._base)
        if self._rg:
            # torch's check_inplace: a view whose base is a leaf first (the base need not
            # require grad: a leaf view made by requires_grad_() on a view says so too)
            base = self._base
            if base is not None and base._grad_fn is None:
                # torch's handle_view_on_rebase first: a view of a custom Function's or a
                # multi-view op's output says so
                from .ops.views import check_view_inplace

                check_view_inplace(self, base)
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation."
                )
            if self._grad_fn is None:
                raise RuntimeError(
                    "a leaf Variable that requires grad is being used in an in-place operation."
                )

    # --- the __torch_function__ protocol (overrides.py) and torch interop (bridge/) --------
    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        from . import overrides

        if overrides._from_real_torch(func):  # real torch calling with shadowgrad tensors
            from .bridge.interop import torch_function

            return torch_function(func, types, args, kwargs)
        return overrides.default_torch_function(cls, func, types, args, kwargs)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__module__.startswith("shadowgrad."):
            from . import overrides

            overrides.install(cls)  # a user subclass: Tensor methods dispatch on it

    def _is_param_mark(self) -> bool:
        d = self.__dict__
        return bool(d.get("_is_param", False)) if d else False

    def as_subclass(self, cls: Any) -> Any:
        """Mirrors `torch.Tensor.as_subclass`: an alias of self (sharing its data and autograd
        history) of type cls."""
        _check_subclass(cls)
        from ._creation import _retype
        from .ops.shape import _alias

        return _retype(_alias(self), cls)

    @staticmethod
    def _make_subclass(cls: Any, data: Any, require_grad: bool = False, **kwargs: Any) -> Any:
        """Mirrors `torch.Tensor._make_subclass`: a leaf of type cls sharing data's storage and
        version counter."""
        from ._creation import FLOAT_ONLY, _retype

        if not isinstance(data, Tensor):
            raise TypeError(
                f"_make_subclass(): argument 'data' (position 2) must be Tensor, not "
                f"{type(data).__name__}"
            )
        _check_subclass(cls)
        t = _retype(data.detach(), cls)
        if require_grad:
            if not (t.dtype.is_floating_point or t.dtype.is_complex):
                raise RuntimeError(FLOAT_ONLY)
            t._rg = True
        return t

    def _check_dlpack(self) -> None:
        """torch's refusals to export a tensor through DLPack."""
        if self._rg:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        if type(self._vc) is not VersionCounter and self._vc is not None:
            from .ops.views import is_conj

            if is_conj(self):
                raise BufferError("Can't export tensors with the conjugate bit set")

    def __dlpack__(self, *, stream: Any = -1, **kwargs: Any) -> Any:
        self._check_dlpack()
        if self._data.dtype is D.LD:  # Note [bfloat16 storage]: not bfloat16 bits
            raise BufferError("shadowgrad's bfloat16 tensors cannot be exported through DLPack")
        return self._data.__dlpack__(**kwargs)  # (a CPU array: no stream to wait for)

    def __dlpack_device__(self) -> tuple[Any, int]:
        from .utils.dlpack import DLDeviceType

        return (DLDeviceType.kDLCPU, 0)


def _check_subclass(cls: Any) -> None:
    """torch's checks of the class as_subclass and _make_subclass make an instance of."""
    if not isinstance(cls, type):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if not issubclass(cls, Tensor):
        raise TypeError(
            "Creating a Tensor subclass from a class that does not inherit from Tensor is not "
            "possible. Make sure your class inherits from Tensor."
        )


def _check_new_empty(t: Tensor) -> None:
    """torch's deepcopy of a user subclass: its new_empty must give that subclass."""
    if type(t.new_empty([])) is not type(t):
        raise RuntimeError(
            "The default implementation of __deepcopy__() for non-wrapper subclasses only works "
            "for subclass types that implement new_empty() and for which that function returns "
            "another instance of the same subclass. You should either properly implement "
            "new_empty() for your subclass or override __deepcopy__() if it is intended behavior "
            "for new_empty() to return an instance of a different type."
        )


def warn_if_has_hooks(t: Tensor) -> None:
    """torch's warning when pickling or saving a tensor with backward hooks, which are lost
    (a hook marked with `__torch_unserializable__` is left out)."""
    x = t._x
    hooks = None if x is None else x.hooks
    if not hooks:
        return
    for hook in hooks.values():
        if not hasattr(hook, "__torch_unserializable__"):
            warnings.warn(
                f"backward hook {hook!r} on tensor will not be serialized.  If this is "
                "expected, you can decorate the function with "
                "@torch.utils.hooks.unserializable_hook to suppress this warning",
                UserWarning,
                stacklevel=4,
            )


def _in_storage(data: np.ndarray, root: np.ndarray, new_root: np.ndarray) -> np.ndarray | None:
    """data's layout (byte offset and strides into root) over new_root, a copy of root; None
    when it can't be rebuilt so (a root not in one contiguous block)."""
    if not (root.flags.c_contiguous and new_root.flags.c_contiguous):
        return None
    off = data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    try:
        buf = new_root.reshape(-1).view(np.uint8)
        return np.ndarray(data.shape, data.dtype, buffer=buf, offset=off, strides=data.strides)
    except (ValueError, TypeError):
        return None


def _rebuild_strided(
    cls: type, root: np.ndarray, layout: Any, requires_grad: bool, state: dict[str, Any]
) -> Tensor:
    """Unpickle a tensor: its layout (byte offset, shape, byte strides, dtype) over its storage."""
    off, shape, strides, dt = layout
    buf = root.reshape(-1).view(np.uint8)
    data = np.ndarray(shape, np.dtype(dt), buffer=buf, offset=off, strides=strides)
    return _rebuild(cls, data, requires_grad, state)


def _rebuild(cls: type, data: np.ndarray, requires_grad: bool, state: dict[str, Any]) -> Tensor:
    t = _make(data, False)
    if cls is not Tensor:
        t2 = object.__new__(cls)
        for s in Tensor.__slots__:
            if s not in ("__dict__", "__weakref__") and hasattr(t, s):
                setattr(t2, s, getattr(t, s))
        t = t2
    t._rg = requires_grad
    t.__dict__.update(state)
    t._bump()  # torch rebuilds a tensor by set_ to its storage: version 1
    return t


# torch's read-only tensor attributes: assigning one is an AttributeError in torch's words
_READ_ONLY = (
    "is_leaf", "grad_fn", "output_nr", "retains_grad", "_version", "dtype", "shape", "ndim",
    "itemsize", "nbytes", "device", "is_cuda", "is_sparse", "is_quantized", "is_meta", "layout",
    "T", "mT", "H", "mH", "is_cpu", "is_mps", "is_xpu", "is_mkldnn", "is_vulkan", "is_ipu",
    "is_sparse_csr", "is_nested", "is_mtia",
)  # fmt: skip


def seal_properties() -> None:
    """Give each read-only property (once every family installed its own) torch's error on
    assignment instead of Python's "property ... has no setter"."""

    def refuse(name: str) -> Any:
        def fset(self: Tensor, value: Any = None) -> None:
            raise AttributeError(
                f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable"
            )

        return fset

    for name in _READ_ONLY:
        p = Tensor.__dict__.get(name)
        if isinstance(p, property) and p.fset is None:
            # deleting one is refused in the same words
            fdel = p.fdel if p.fdel is not None else refuse(name)
            setattr(Tensor, name, property(p.fget, refuse(name), fdel, p.__doc__))


def _install() -> None:
    from .autograd import engine as _engine
    from .autograd import graph as _graph

    _graph._make = _make
    _engine._tmake = _make
    _autograd._Tensor = Tensor
    _autograd._make = _make
    _autograd._warn_once = warn_once


_install()
