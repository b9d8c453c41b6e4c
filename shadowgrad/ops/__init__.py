"""The op families. Each module declares its ops once (see registry.py) and lists its public
functions (FUNCTIONS, exported as `shadowgrad.<name>`) and Tensor methods (METHODS).
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _creation, _grad_mode
from .._numpy_compat import skipped_by_warnings
from .._tensor import Tensor
from . import (
    aliases,
    aten_legacy,
    indexing,
    inplace,
    linalg,
    linalg_extra,
    nn_ctc,
    nn_ops,
    pointwise,
    reduction,
    resample,
    rounding,
    shape,
    shape_extra,
    sorting,
    special,
    special_bessel,
    special_poly,
    spectral,
    statistics,
    views,
)
from .registry import REGISTRY

FAMILIES = [
    pointwise,
    rounding,
    reduction,
    sorting,
    shape,
    indexing,
    views,
    linalg,
    nn_ops,
    special,
    special_bessel,
    special_poly,
    shape_extra,
    resample,
    linalg_extra,
    aliases,
    nn_ctc,
    statistics,
    spectral,
    aten_legacy,
]


# torch functions that take out= where the family's function does not; the name torch's
# autograd error gives (that of the op it runs), and whether it makes that check at all
_OUT_NAMES = {
    **{n: n for n in (
        "amax", "amin", "aminmax", "angle", "argmax", "argmin", "bmm", "ceil", "cummax",
        "cummin", "cumprod", "max", "min",
        "cumsum", "dot", "exp", "floor", "frac", "gather", "index_select", "kthvalue", "log",
        "logcumsumexp", "logsumexp", "masked_select", "mean", "median", "mode", "mv",
        "nanmedian", "narrow_copy", "neg", "reciprocal", "sgn", "sigmoid", "sign", "sort",
        "std", "tanh", "topk", "trunc", "var", "where")},
    "fix": "trunc", "negative": "neg", "msort": "sort", "nanmean": "nansum", "diff": "sub",
    "take_along_dim": "gather",
    "ger": "mul", "kron": "mul", "outer": "mul",
    **{n: None for n in (
        "all", "any", "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
        "less_equal", "not_equal", "diag", "conj_physical")},
}  # fmt: skip


# out= functions refusing any overlap of out with an input, the input itself included
_OUT_NO_OVERLAP = frozenset(("gather", "index_select", "take_along_dim", "masked_select"))
# out= functions whose kernels torch runs without refusing an `out` that partially overlaps
# an input (reductions, matrix products)
_OUT_OVERLAP_UNCHECKED = frozenset(
    (
        *("amax", "amin", "argmax", "argmin", "cummax", "cummin", "logsumexp", "mean"),
        *("median", "nanmedian", "narrow_copy", "std", "var", "nanmean", "all", "any"),
        *("diag", "bmm", "dot", "mv"),
    )
)


def _with_out(fn: Any, public: str, name: str | None) -> Any:
    """`fn` taking torch's out=: the result (each of a tuple's) copied into the out tensor."""
    from .inplace import check_out_overlap_inputs
    from .pointwise import _out, out_autograd_error
    from .shape import check_out_overlap

    hook = _OUT_HOOKS.get(public)

    def write_out(args: tuple[Any, ...], result: Any, out: Any) -> Any:
        # a frame the warnings count, in with_out's place: resize_out's names the caller's line
        # from _out (or from resize), the hook's from here
        if hook is not None:
            hook(args, result, out)
        if isinstance(result, Tensor):
            if public in _OUT_NO_OVERLAP and isinstance(out, Tensor):
                check_out_overlap_inputs(out, args, True)
            return _out(result, out, name, *(() if public in _OUT_OVERLAP_UNCHECKED else args))
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{public}(): argument 'out' must be tuple of Tensors")
        if name and _grad_mode.STATE.grad and any(r._rg for r in result):
            raise RuntimeError(out_autograd_error(name))
        for k, (r, o) in enumerate(zip(result, out, strict=True)):
            if r.dtype is not o.dtype:
                raise RuntimeError(_out_dtype_error(public, k, r.dtype, o.dtype))
        for o in out:
            check_out_overlap(o)
            if public not in _OUT_OVERLAP_UNCHECKED and o._vc is not None:
                check_out_overlap_inputs(o, args)
        outs = []
        for r, o in zip(result, out, strict=True):  # (no comprehension: a frame in 3.11)
            outs.append(resize(r, o))
        out_type = getattr(sorting.return_types, type(result).__name__ + "_out", tuple)
        return out_type(outs)

    # Note [Wrapper frames and warnings]: fn's warnings name the caller's line through this frame
    @skipped_by_warnings
    def with_out(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        # torch's autograd kernel refuses out= with an input requiring grad before the op runs
        # (before its warnings and its errors)
        if (
            out is not None
            and name
            and _grad_mode.STATE.grad
            and any(isinstance(a, Tensor) and a._rg for a in (*args, *kwargs.values()))
        ):
            raise RuntimeError(out_autograd_error(name))
        if out is not None and "keepdim" in kwargs and "dim" not in kwargs and len(args) == 1:
            no_dim = getattr(fn, "no_dim_error", None)  # max/min: the parser error names out=
            if no_dim is not None:
                raise no_dim({**kwargs, "out": out})
        result = fn(*args, **kwargs)
        if out is None:
            return result
        return write_out(args, result, out)

    with_out.__name__ = public
    with_out.__qualname__ = fn.__qualname__
    with_out.__doc__ = fn.__doc__
    with_out.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    return with_out


def resize(result: Tensor, out: Tensor) -> Tensor:
    """resize_out from a frame as deep as _out's (its warning's stacklevel counts on one)."""
    from .shape import resize_out

    return resize_out(result, out)


def _where_out_args(args: tuple[Any, ...], result: Any, out: Any) -> None:
    """torch.where's out= overload takes tensors only (the plain call takes numbers too), and
    an out tensor of exactly the result's dtype."""
    if len(args) == 3:
        for i, a in ((1, "input"), (2, "other")):
            if not isinstance(args[i], Tensor):
                raise TypeError(
                    f"where(): argument '{a}' (position {i + 1}) must be Tensor, not "
                    f"{type(args[i]).__name__}"
                )
    if isinstance(out, Tensor) and isinstance(result, Tensor) and out.dtype is not result.dtype:
        raise RuntimeError(
            f"Expected out type to be {result.dtype._short} but got {out.dtype._short}"
        )


def _ger_out_warning(args: tuple[Any, ...], result: Any, out: Any) -> None:
    """torch's ger_out (not ger) warns that ger is deprecated."""
    warnings.warn(
        "torch.ger is deprecated and will be removed in a future PyTorch release. Use "
        "torch.outer instead.",
        UserWarning,
        stacklevel=3,
    )


def _same_dtype_out(args: tuple[Any, ...], result: Any, out: Any) -> None:
    """torch's unary kernels that keep the input's dtype (neg, floor, sign, ...) take an out
    tensor of that dtype only: no cast, not even to a wider float."""
    if isinstance(out, Tensor) and isinstance(result, Tensor) and out.dtype is not result.dtype:
        raise RuntimeError(f"Found dtype {out.dtype._short} but expected {result.dtype._short}")


def _long_out(args: tuple[Any, ...], result: Any, out: Any) -> None:
    """argmax/argmin's out= must be an int64 tensor: torch's kernel casts into no other."""
    from .._dtype import CPP_NAMES

    if isinstance(out, Tensor) and out.dtype is not result.dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype {CPP_NAMES[result.dtype]}, but got "
            f"{CPP_NAMES[out.dtype]} instead"
        )


# what a function checks or warns only when given out=
_OUT_HOOKS = {
    "where": _where_out_args,
    "argmax": _long_out,
    "argmin": _long_out,
    "ger": _ger_out_warning,
    **dict.fromkeys(
        (
            "neg",
            "negative",
            "floor",
            "ceil",
            "trunc",
            "fix",
            "frac",
            "sign",
            "sgn",
            "conj_physical",
        ),
        _same_dtype_out,
    ),
}


def _out_dtype_error(fn: str, k: int, want: Any, got: Any) -> str:
    """torch's message for a tuple-returning op's out tensor of the wrong dtype (k: which)."""
    from .._dtype import CPP_NAMES

    what = ("values", "indices")[k]
    if fn in ("cummax", "cummin"):
        return f"expected scalar_type {want._short} but found {got._short}"
    if fn == "mode":
        return f"expected scalar type '{want._short}' but got '{got._short}' for {what} output"
    if fn == "kthvalue":
        return (
            "output indices must be of scalar type Long"
            if k
            else ("output values must be of same type as input")
        )
    if fn in ("median", "nanmedian"):
        if k:
            return (
                "Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                f"{got._legacy} instead (while checking arguments for median)"
            )
        return (
            "Expected tensor for 'values' to have the same type as tensor for argument #2 "
            f"'self'; but type {got._legacy} does not equal {want._legacy} (while checking "
            "arguments for median)"
        )
    return f"Expected out tensor to have dtype {CPP_NAMES[want]}, but got {CPP_NAMES[got]} instead"


# methods whose `other` torch's parser takes as a Tensor only: a number is refused naming the
# method and position 1 (the functions count input: position 2)
_TENSOR_OTHER_METHODS = (
    *("atan2", "arctan2", "hypot", "logaddexp", "logaddexp2", "nextafter", "gcd", "lcm"),
    *("igamma", "igammac", "ldexp", "maximum", "minimum", "fmax", "fmin", "logical_and"),
    *("logical_or", "logical_xor"),
)


def _other_must_be_tensor(fn: Any, mname: str) -> Any:
    def method(self: Tensor, other: Any = None, *args: Any, **kwargs: Any) -> Any:
        if other is not None and not isinstance(other, Tensor):
            raise TypeError(
                f"{mname}(): argument 'other' (position 1) must be Tensor, not "
                f"{type(other).__name__}"
            )
        return fn(self, other, *args, **kwargs) if other is not None else fn(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = getattr(fn, "__name__", mname)
    method.__doc__ = fn.__doc__
    method.__wrapped__ = fn  # type: ignore[attr-defined]
    return method


def install_methods() -> dict[str, Any]:
    """Attach every family's Tensor methods; return every family's public functions."""
    functions: dict[str, Any] = {}
    for fam in FAMILIES:
        for name, fn in fam.METHODS.items():
            setattr(Tensor, name, fn)
        functions.update(fam.FUNCTIONS)
    for name, op_name in _OUT_NAMES.items():
        fn = functions.get(name)
        if fn is not None:
            functions[name] = _with_out(fn, name, op_name)
    for name, fn in _creation.new_methods().items():
        setattr(Tensor, name, fn)
    for name, fn in inplace.build_methods().items():
        setattr(Tensor, name, fn)
    for name in _TENSOR_OTHER_METHODS:
        for mname in (name, name + "_"):
            fn = Tensor.__dict__.get(mname)
            if fn is not None:
                setattr(Tensor, mname, _other_must_be_tensor(fn, mname))
    from .._tensor import seal_properties

    seal_properties()
    return functions


def stack_tensors(ts: list[Tensor]) -> Tensor:
    return shape.stack(ts)


__all__ = ["REGISTRY", "install_methods", "stack_tensors"]


# torch.ops' own attributes: the shared libraries load_library loaded
loaded_libraries: set[str] = set()


def load_library(path: str) -> None:
    """Mirrors `torch.ops.load_library`: load a shared library into the process (a torch C++
    extension's kernels do not reach shadowgrad; its registrations need torch's dispatcher)."""
    import ctypes
    import os

    path = os.path.realpath(path)
    try:
        ctypes.CDLL(path)
    except Exception as e:
        raise OSError(f"Could not load this library: {path}") from e
    loaded_libraries.add(path)


def import_module(module: str) -> None:
    """Mirrors `torch.ops.import_module`: import a Python module that registers ops."""
    import importlib

    importlib.import_module(module)


def __getattr__(name: str) -> Any:
    """`torch.ops.<ns>`: a name that is none of this package's modules is an operator
    namespace (torch.library's ops, and `aten`: shadowgrad's functions under torch's op
    names). A submodule not imported yet is imported, as the import system expects."""
    from .._library import dispatch

    ns = dispatch._NAMESPACES.get(name)
    if ns is not None:
        return ns
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    import importlib.util

    if importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    return dispatch.namespace(name)
