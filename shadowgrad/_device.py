"""Devices beyond the tensor: the default device (`torch.set_default_device`, `with
torch.device(...)`) and meta tensors (`device="meta"`). See docs/design.md, "Meta tensors and
the default device".

Design (issue #8: ordinary CPU tensors pay nothing):

- A meta tensor is an ordinary Tensor whose array is a `MetaArray`, an ndarray subclass. numpy
  carries the subclass through ufuncs, reductions, views and (through `__array_function__`) its
  other functions, so an op on a meta tensor computes on the (meaningless) values and its result
  is meta again, with the shape, dtype and strides the op gives; autograd records and runs the
  same way. Nothing on the common path reads the flag: `Tensor.device`, `repr`, `item`, `tolist`,
  `numpy` and the op results that are not a plain ndarray (registry's existing rare branch) do.
- The factory functions (`torch.zeros`, `torch.empty`, ...; `nn` modules build their parameters
  with them) are wrapped once at import: the wrapper runs the function as it is unless a device
  keyword is given or a default device other than the cpu is set, then makes the result meta (or
  plain, for `empty_like(meta, device="cpu")`).
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import numpy as np

from ._tensor import CPU, Tensor, device

NO_DATA = "Cannot copy out of meta tensor; no data!"
NO_ITEM = "Tensor.item() cannot be called on meta tensors"
NO_NUMPY = (
    "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
    "memory first."
)
META = device("meta")


NONZERO = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
    "correct data-independent implementation does not exist. This implementation returns a fake "
    "value, assuming all elements of the tensor are non-zero. To enable this registration, please "
    "set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True."
)


def _no_kernel(name: str) -> str:
    return (
        f"aten::{name}: attempted to run this operator with Meta tensors, but there was no fake "
        "impl or Meta kernel registered. You may have run into this message while using an "
        "operator with PT2 compilation APIs (torch.compile/torch.export); in order to use this "
        "operator with those APIs you'll need to add a fake impl. Please see the following for "
        "next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html"
    )


class MetaArray(np.ndarray):
    """A meta tensor's array (see the module docstring): its values mean nothing."""

    __array_priority__ = 2000.0  # numpy's result of a meta and a plain operand is meta

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        refused = _DATA_DEPENDENT.get(func)
        if refused is not None:  # a result that depends on the values: torch refuses
            raise refused[0](refused[1])
        return _rewrap(super().__array_function__(func, types, args, kwargs))

    def __getitem__(self, key: Any) -> Any:
        r = super().__getitem__(key)
        return r if isinstance(r, np.ndarray) else np.asarray(r).view(MetaArray)

    def nonzero(self) -> Any:
        raise NotImplementedError(NONZERO)

    def item(self, *args: Any) -> Any:
        raise RuntimeError(NO_ITEM)  # Tensor.item, and any op reading a value (allclose)


_DATA_DEPENDENT: dict[Any, tuple[type[Exception], str]] = {
    np.nonzero: (NotImplementedError, NONZERO),
    np.flatnonzero: (NotImplementedError, NONZERO),
    np.argwhere: (NotImplementedError, NONZERO),
    np.unique: (NotImplementedError, _no_kernel("_unique2")),
    np.array_equal: (NotImplementedError, _no_kernel("equal")),
    np.allclose: (RuntimeError, NO_ITEM),
}


def _rewrap(r: Any) -> Any:
    if type(r) is np.ndarray:
        return r.view(MetaArray)
    if type(r) is tuple or type(r) is list:
        return type(r)(_rewrap(e) for e in r)
    if isinstance(r, np.generic):
        return np.asarray(r).view(MetaArray)
    return r


def is_meta(t: Tensor) -> bool:
    return type(t._data) is MetaArray


def to_meta(t: Tensor) -> Tensor:
    if type(t._data) is not MetaArray:
        t._data = t._data.view(MetaArray)
    return t


def check_mixed(out: Any, args: Any) -> None:
    """An op's result came out meta: torch refuses a cpu operand beside a meta one (a cpu
    0-dim tensor is a scalar, allowed anywhere); the device expected is the first other
    tensor's."""
    expected = None
    for a in args:
        items = a if type(a) is list or type(a) is tuple else (a,)
        for t in items:
            if not isinstance(t, Tensor):
                continue
            kind = "meta" if type(t._data) is MetaArray else "cpu"
            if kind == "cpu" and t._data.ndim == 0:
                continue
            if expected is None:
                expected = kind
            elif kind != expected:
                raise RuntimeError(
                    f"Tensor on device {kind} is not on the expected device {expected}!"
                )


# the ops (besides the elementwise ufuncs) whose meta kernel checks its operands' devices, with
# the order torch reads them in (the first is the device expected)
_CHECKED = {"addmm": (1, 2, 0), "cat": (0,), "stack": (0,), "where": (0, 1, 2)}


def result(out: Any, args: Any, op: Any = None) -> Any:
    """registry's rare branch: an op's result that is not a plain ndarray."""
    if isinstance(out, MetaArray):
        if op is None or op.ufunc is not None:
            check_mixed(out, args)
        else:
            order = _CHECKED.get(op.name.split(".")[0])
            if order is not None:
                check_mixed(out, [args[i] for i in order if i < len(args)])
        return out
    if getattr(out, "_sg_sparse", False):
        return out  # a sparse tensor's array (sparse/_array.py)
    return np.asarray(out)


# --- the default device ----------------------------------------------------------------------


class _State:
    dev: device | None = None  # torch.get_default_device's answer when not the cpu
    stack: list[device | None] = []  # noqa: RUF012 - `with torch.device(...)` saves here


STATE = _State()


def _as_device(d: Any) -> device:
    return d if isinstance(d, device) else device(d)


def set_default_device(dev: Any) -> None:
    """Mirrors `torch.set_default_device`."""
    if dev is None:
        STATE.dev = None
        return
    d = _as_device(dev)
    STATE.dev = None if d == CPU else d


def get_default_device() -> device:
    """Mirrors `torch.get_default_device`."""
    d = STATE.dev
    if d is None:
        return CPU
    if d.type == "cuda":
        from ._tensor import check_device

        check_device(d)
    return d


def enter(d: device) -> None:
    STATE.stack.append(STATE.dev)
    STATE.dev = None if d == CPU else d
    _MODE_MARK.append(d)


def exit_() -> None:
    STATE.dev = STATE.stack.pop() if STATE.stack else None
    if _MODE_MARK:
        _MODE_MARK.pop()


_MODE_MARK: list[Any] = []  # the devices entered with `with torch.device(...)` (a mode, in torch)


def _target(dev: Any) -> str:
    return (dev if isinstance(dev, device) else device(dev)).type


def _finish(out: Any, kind: str) -> Any:
    if isinstance(out, Tensor):
        if kind == "meta":
            to_meta(out)
        elif type(out._data) is MetaArray:
            out._data = out._data.view(np.ndarray)
    return out


def factory(fn: Any) -> Any:
    """fn (a factory taking device=): its result on the device asked or the default device."""
    state = STATE

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if state.dev is None and "device" not in kwargs:
            return fn(*args, **kwargs)
        dev = kwargs.get("device")
        if dev is None:
            dev = state.dev
            if dev is None:
                return fn(*args, **kwargs)
            kwargs["device"] = dev
        elif not isinstance(dev, (device, str, int)):
            _bad_device(fn.__name__, dev)
        kind = _target(dev)
        if kind == "meta" and fn.__name__ in _RANDOM_FACTORIES:
            with keep_rng(kwargs.get("generator")):
                return _finish(fn(*args, **kwargs), kind)
        out = fn(*args, **kwargs)  # the device's own errors (cuda, a bad string) come from fn
        return _finish(out, kind)

    return _skip(wrapper)


def like(fn: Any) -> Any:
    """fn (a `*_like` function or a `Tensor.new_*` method): on its tensor's device unless
    device= is given."""

    random = fn.__name__ in _RANDOM_FACTORIES

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        dev = kwargs.get("device")
        if dev is None:
            src = args[0] if args else kwargs.get("input", kwargs.get("self"))
            if not (isinstance(src, Tensor) and type(src._data) is MetaArray):
                return fn(*args, **kwargs)  # a cpu tensor's: as it is
            kind = "meta"
        else:
            if not isinstance(dev, (device, str, int)):
                _bad_device(fn.__name__, dev)
                return fn(*args, **kwargs)  # its own error: the listing of its overloads
            kind = _target(dev)
        if kind == "meta" and random:
            with keep_rng(kwargs.get("generator")):
                return _finish(fn(*args, **kwargs), kind)
        return _finish(fn(*args, **kwargs), kind)

    return _skip(wrapper)


# the factories with one overload (besides names=): torch's parser names the device argument
_ONE_OVERLOAD = frozenset(
    (
        *("zeros", "ones", "empty", "full", "tensor", "zeros_like", "ones_like", "empty_like"),
        *("full_like", "randint_like", "new_zeros", "new_ones"),
        *("new_empty", "new_full"),
    )
)


def _bad_device(name: str, dev: Any) -> None:
    """A device= that is no device, str nor int (3.5, a list): torch's parser error, where
    the factory has one overload (the others' listings: the factory's own error)."""
    if name in _ONE_OVERLOAD:
        from ._signatures import _type_name

        raise TypeError(f"{name}(): argument 'device' must be torch.device, not {_type_name(dev)}")


def _skip(fn: Any) -> Any:
    from ._numpy_compat import skipped_by_warnings

    return skipped_by_warnings(fn)


def move(t: Tensor, dev: Any, dtype: Any, copy: bool) -> Tensor | None:
    """Tensor.to's device part: None when the device is t's own (the dtype part decides)."""
    d = dev if isinstance(dev, device) else device(dev) if isinstance(dev, str) else None
    kind = d.type if d is not None else "cpu"
    src = "meta" if type(t._data) is MetaArray else "cpu"
    if kind == src:
        if d is not None and d.index is not None and kind == "cpu":
            from .ops.shape import _to_copy  # torch: 'cpu:0' is not self's device: a copy

            return _to_copy(t, dtype or t.dtype)
        return None
    if src == "meta":
        raise NotImplementedError(NO_DATA)
    from .ops.shape import _to_copy

    out = _to_copy(t, dtype or t.dtype)
    return to_meta(out)


def meta_repr(t: Tensor) -> str:
    """torch's repr of a meta tensor: no values; its device, size and dtype."""
    from . import _dtype as D
    from ._tensor_str import _PRINT_OPTS, _add_suffixes

    suffixes = ["device='meta'", f"size={tuple(t.shape)}"]
    if t.dtype is not D.get_default_dtype():
        suffixes.append(f"dtype={t.dtype}")
    gf = t.grad_fn
    if gf is not None:
        suffixes.append(f"grad_fn=<{type(gf).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes("tensor(...", suffixes, 7, _PRINT_OPTS["linewidth"])  # type: ignore[no-any-return]


def get_device_module(device: Any = None) -> Any:
    """Mirrors `torch.get_device_module`: the module of a device type (`torch.cpu` when none is
    given: no accelerator)."""
    import shadowgrad

    from ._tensor import device as _dev

    if isinstance(device, _dev):
        name = device.type
    elif isinstance(device, str):
        name = _dev(device).type
    elif device is None:
        name = "cpu"
    else:
        raise RuntimeError(f"Invalid value of device '{device}', expect torch.device, str, or None")
    module = getattr(shadowgrad, name, None)
    if module is None or not isinstance(module, type(shadowgrad)):
        raise RuntimeError(
            f"Device '{name}' does not have a corresponding module registered as 'torch.{name}'."
        )
    return module


_TO_EMPTY = (
    " Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving module "
    "from meta to a different device."
)


def module_to(module: Any, dev: Any, dtype: Any, to: bool = True) -> Any:
    """Module.to(dev) / Module.cpu() where a parameter or buffer changes device (to or from the
    meta device): each converted, as torch's `_apply`; None when none changes device."""
    kind = _target(dev) if not isinstance(dev, (int, np.integer)) else "cpu"
    tensors = [*module.parameters(), *module.buffers()]
    if not any((type(t._data) is MetaArray) != (kind == "meta") for t in tensors):
        return None
    if kind != "meta":
        raise NotImplementedError(NO_DATA + (_TO_EMPTY if to else ""))

    def convert(t: Tensor) -> Tensor:
        dt = dtype if dtype is not None and (t.is_floating_point() or t.is_complex()) else None
        return t.to(dev, dt) if dt is not None else t.to(dev)

    return module._apply(convert)


@contextlib.contextmanager
def keep_rng(generator: Any = None) -> Any:
    """Sampling a meta tensor draws nothing in torch: the generator's state is put back."""
    from ._random import _gen

    g = _gen(generator if isinstance(generator, _generator_type()) else None)
    state = g.get_state()
    try:
        yield
    finally:
        g.set_state(state)


def _generator_type() -> Any:
    from ._random import Generator

    return Generator


def no_draw(fn: Any) -> Any:
    """An in-place sampling forward `fn(self, ..., generator)`: on a meta array, run with the
    generator's state kept (torch's meta kernels draw nothing)."""

    @functools.wraps(fn)
    def run(self: Any, *rest: Any) -> Any:
        if type(self) is np.ndarray:
            return fn(self, *rest)
        with keep_rng(rest[-1] if rest else None):
            return fn(self, *rest)

    return run


_RANDOM_FACTORIES = frozenset(
    ("rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like")
)
