"""torch's legacy tensor types and constructors (`torch.FloatTensor`, `torch.LongTensor`, ...),
and namespace helpers that need the whole package built first (`torch.vmap`, the default
device)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype as D
from ._creation import tensor, zeros
from ._size import Size
from ._tensor import Tensor, warn_once
from .func import vmap

# torch's legacy constructors make cpu tensors whatever the default device (_device.factory's
# wrapper left out)
tensor, zeros = tensor.__wrapped__, zeros.__wrapped__

__all__: list[str] = [
    "BoolTensor",
    "ByteTensor",
    "CharTensor",
    "DoubleTensor",
    "FloatTensor",
    "HalfTensor",
    "IntTensor",
    "LongTensor",
    "ShortTensor",
    "cond",
    "eig",
    "get_default_device",
    "get_device",
    "is_distributed",
    "lstsq",
    "matrix_rank",
    "qr",
    "set_default_device",
    "set_default_tensor_type",
    "solve",
    "spmm",
    "symeig",
    "vmap",
    "while_loop",
]


def _options(d: D.dtype) -> str:
    return (
        f"TensorOptions(dtype={D.CPP_NAMES[d]}, device=cpu, layout=Strided, requires_grad=false "
        "(default), pinned_memory=false (default), memory_format=(nullopt))"
    )


def _tname(v: Any) -> str:
    t = type(v)
    return f"torch.{t.__name__}" if t.__module__.startswith("shadowgrad") else t.__name__


class tensortype(type):
    """Metaclass of the legacy types: `isinstance(x, torch.FloatTensor)` holds exactly when x
    is a float32 tensor, as torch's `torch.tensortype` decides it."""

    dtype: D.dtype

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __subclasscheck__(cls, sub: Any) -> bool:
        return sub is cls

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"

    __module__ = "torch"

    def __call__(cls, *args: Any, device: Any = None, **kwargs: Any) -> Tensor:
        if kwargs:
            _bad_keyword(args, kwargs)
        return _construct(cls.dtype, args, device=device)


def _bad_keyword(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    bad = next(iter(kwargs))
    why = f"\n      didn't match because some of the keywords were incorrect: {bad}"
    # torch says why overloads refused the keyword as its parser matched them: with no
    # positional argument the one-argument ones, with one the first, with two the last two
    got = f"{', '.join(map(_tname, args))}, {bad}={_tname(kwargs[bad])}"
    if not args:
        got = f"{bad}={_tname(kwargs[bad])}, "
    marks = ((1, 2), (0,), (3, 4), ())[min(len(args), 3)]
    sigs = (
        "*, torch.device device = None",
        "torch.Storage storage",
        "Tensor other",
        "tuple of ints size, *, torch.device device = None",
        "object data, *, torch.device device = None",
    )
    lines = "".join(f"\n * ({s})" + (why if k in marks else "") for k, s in enumerate(sigs))
    raise TypeError(
        f"new() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:{lines}\n"
    )


LEGACY_DEVICE = (
    "Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is not "
    "supported.  Use torch.tensor(...) or torch.as_tensor(...) instead."
)


def _qualname(v: Any) -> str:
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _construct(
    d: D.dtype, args: tuple[Any, ...], *, device: Any = None, any_tensor: bool = False
) -> Tensor:
    """torch's legacy constructors: `torch.FloatTensor(...)`, and `torch.Tensor(...)` with
    the default dtype (`any_tensor`: it aliases a tensor of any dtype)."""
    if not args:
        return zeros(0, dtype=d)
    if len(args) == 1:
        a = args[0]
        if isinstance(a, Tensor):
            if device is not None:
                raise RuntimeError(LEGACY_DEVICE)
            if a.dtype is not d and not any_tensor:
                raise TypeError(f"expected {_options(d)} (got {_options(a.dtype)})")
            from .ops.shape import _alias

            return _alias(a)  # torch's alias(): a view, differentiable (AliasBackward0)
        if isinstance(a, Size):
            return zeros(tuple(a), dtype=d)
        if isinstance(a, str):
            raise TypeError("new(): invalid data type 'str'")
        if isinstance(a, (bool, float, complex, np.bool_, np.floating, np.complexfloating)):
            raise TypeError(f"new(): data must be a sequence (got {_qualname(a)})")
        if not isinstance(a, (int, np.integer)):
            try:
                return tensor(a, dtype=d)
            except OverflowError:  # out-of-range ints wrap, as in torch
                return tensor(a).to(d)
    for i, s in enumerate(args):
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)):
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {_qualname(s)}"'
            )
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: "
                f"[{', '.join(map(str, args))}]"
            )
    return zeros(*[int(s) for s in args], dtype=d)  # torch leaves the memory uninitialized


def _legacy_type(name: str, d: D.dtype) -> Any:
    # not a subclass of Tensor, as in torch: only isinstance is special
    return tensortype(name, (), {"dtype": d, "__module__": "torch", "is_sparse": False})


FloatTensor = _legacy_type("FloatTensor", D.float32)
DoubleTensor = _legacy_type("DoubleTensor", D.float64)
HalfTensor = _legacy_type("HalfTensor", D.float16)
LongTensor = _legacy_type("LongTensor", D.int64)
IntTensor = _legacy_type("IntTensor", D.int32)
ShortTensor = _legacy_type("ShortTensor", D.int16)
CharTensor = _legacy_type("CharTensor", D.int8)
ByteTensor = _legacy_type("ByteTensor", D.uint8)
BoolTensor = _legacy_type("BoolTensor", D.bool_)
if D.HAS_BF16:
    BFloat16Tensor = _legacy_type("BFloat16Tensor", D.bfloat16)
    __all__.append("BFloat16Tensor")

# --- default device (_device.py: the factories read it) ----------------------------------------

from ._device import get_default_device, set_default_device  # noqa: E402


def get_device(input: Tensor) -> int:
    """Mirrors `torch.get_device`: -1, the CPU's device index."""
    return input.get_device()


def is_distributed(input: Tensor) -> bool:
    """Mirrors `torch.is_distributed`: False (no distributed tensors)."""
    return False


# --- default tensor type ----------------------------------------------------------------------

_FLOAT_ONLY = "only floating-point types are supported as the default type"


def set_default_tensor_type(t: Any, /) -> None:
    """Mirrors `torch.set_default_tensor_type` (deprecated in torch): a floating legacy type,
    or its name ("torch.DoubleTensor"), sets the default dtype."""
    warn_once(
        "set_default_tensor_type",
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
    )
    if isinstance(t, str):
        t = _import_dotted_name(t)
    if not isinstance(t, tensortype):
        raise TypeError(f"invalid type object: {_FLOAT_ONLY}")
    if not t.dtype.is_floating_point:
        raise TypeError(_FLOAT_ONLY)
    D.set_default_dtype(t.dtype)


def _import_dotted_name(name: str) -> Any:
    """torch._utils._import_dotted_name, with the `torch.` prefix meaning this package."""
    import importlib

    import shadowgrad

    parts = name.split(".")
    if parts[0] == "torch":
        if len(parts) > 2 and parts[1] == "cuda":
            raise TypeError(f"type {name} not available. Torch not compiled with CUDA enabled.")
        obj: Any = shadowgrad
    else:
        obj = importlib.import_module(parts[0])
    for part in parts[1:]:
        obj = getattr(obj, part)
    return obj


# --- removed linear algebra (torch._linalg_utils) ---------------------------------------------

_REMOVED = "This function was deprecated since version 1.9 and is now removed."
_SOLVE = (
    f"{_REMOVED} `torch.solve` is deprecated in favor of `torch.linalg.solve`. "
    "`torch.linalg.solve` has its arguments reversed and does not return the LU factorization."
    "\n\nTo get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` or "
    "`torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\n"
    "X = torch.linalg.solve(A, B)"
)
_LSTSQ = (
    f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
    "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition in "
    "the returned tuple (although it returns other information about the problem).\n\n"
    "To get the QR decomposition consider using `torch.linalg.qr`.\n\n"
    "The returned solution in `torch.lstsq` stored the residuals of the solution in the last "
    "m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals "
    "are in the field 'residuals' of the returned named tuple.\n\n"
    "The unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\n"
    "should be replaced with:\nX = torch.linalg.lstsq(A, B).solution"
)
_EIG = (
    f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
    "rather than real tensors mimicking complex tensors.\n\n"
    "L, _ = torch.eig(A) should be replaced with:\nL_complex = torch.linalg.eigvals(A)\n\n"
    "and\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
    "L_complex, V_complex = torch.linalg.eig(A)"
)
_SYMEIG = (
    f"{_REMOVED} The default behavior has changed from using the upper triangular portion of "
    "the matrix by default to using the lower triangular portion.\n\n"
    "L, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
    "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\n"
    "L, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n"
    "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"
)
_MATRIX_RANK = (
    f"{_REMOVED}\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
    "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."
)


def solve(input: Tensor, A: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.solve`: removed in torch 1.9; raises with torch's pointer to its
    replacement."""
    raise RuntimeError(_SOLVE)


def lstsq(input: Tensor, A: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.lstsq` (removed; raises)."""
    raise RuntimeError(_LSTSQ)


def eig(self: Tensor, eigenvectors: bool = False, *, e: Any = None, v: Any = None) -> Any:
    """Mirrors `torch.eig` (removed; raises)."""
    raise RuntimeError(_EIG)


def _symeig(input: Any, eigenvectors: bool = False, upper: bool = True, *, out: Any = None) -> Any:
    """Mirrors `torch.symeig` (removed; raises)."""
    raise RuntimeError(_SYMEIG)


symeig = _symeig  # torch's function keeps its private name


def matrix_rank(input: Any, tol: Any = None, symmetric: bool = False, *, out: Any = None) -> Any:
    """Mirrors `torch.matrix_rank` (removed; raises)."""
    raise RuntimeError(_MATRIX_RANK)


def qr(input: Tensor, some: bool = True, *, out: Any = None) -> Any:
    """Mirrors the deprecated `torch.qr`: `torch.linalg.qr` with mode 'reduced' when `some`,
    else 'complete', and torch's one-time deprecation warning."""
    from .ops.linalg import _return_type
    from .ops.linalg import qr as linalg_qr

    if not isinstance(some, bool):
        raise TypeError(
            f"qr(): argument 'some' (position 2) must be bool, not {type(some).__name__}"
        )
    warn_once(
        "torch.qr",
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string "
        "parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
        "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')",
    )
    res = linalg_qr(input, "reduced" if some else "complete")
    if out is not None:
        for o, r in zip(out, res, strict=True):
            o.resize_(r.shape).copy_(r)
        return _return_type("qr", ("Q", "R"), tuple(out))
    return _return_type("qr", ("Q", "R"), tuple(res))


def _tensor_solve(self: Tensor, other: Tensor) -> Any:
    return solve(self, other)


def _tensor_lstsq(self: Tensor, other: Tensor) -> Any:
    return lstsq(self, other)


def _tensor_eig(self: Tensor, eigenvectors: bool = False) -> Any:
    return eig(self, eigenvectors=eigenvectors)


def _tensor_symeig(self: Tensor, eigenvectors: bool = False) -> Any:
    return _symeig(self, eigenvectors=eigenvectors)


def _tensor_qr(self: Tensor, some: bool = True) -> Any:
    return qr(self, some)


for _name, _fn in (
    ("solve", _tensor_solve),
    ("lstsq", _tensor_lstsq),
    ("eig", _tensor_eig),
    ("symeig", _tensor_symeig),
    ("qr", _tensor_qr),
):
    if not hasattr(Tensor, _name):
        _fn.__name__ = _fn.__qualname__ = _name
        setattr(Tensor, _name, _fn)
del _name, _fn


# --- control flow (torch.cond, torch.while_loop) run eagerly ----------------------------------


def _leaves(tree: Any) -> list[Any]:
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _leaves(t)]
    if isinstance(tree, dict):
        return [x for t in tree.values() for x in _leaves(t)]
    return [tree]


def cond(pred: Any, true_fn: Any, false_fn: Any, operands: Any = ()) -> Any:
    """Mirrors `torch.cond` outside compilation: runs the branch `pred` selects on `operands`,
    so gradients flow through that branch only."""
    if isinstance(pred, (bool, int, float)):
        return true_fn(*operands) if pred else false_fn(*operands)
    if not isinstance(pred, Tensor):
        raise RuntimeError(f"Expected pred to be bool or tensor, but got {pred}.")
    if pred.numel() != 1:
        raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
    if not callable(true_fn) or not callable(false_fn):
        raise RuntimeError("Expect both branches to be callable.")
    if not isinstance(operands, (tuple, list)) or any(
        not isinstance(t, Tensor) for t in _leaves(operands)
    ):
        raise RuntimeError(
            "Expect operands to be a tuple of possibly nested dict/list/tuple that only "
            f"consists of tensor leaves, but got {operands}."
        )
    return true_fn(*operands) if bool(pred.item()) else false_fn(*operands)


def while_loop(cond_fn: Any, body_fn: Any, carried_inputs: Any) -> Any:
    """Mirrors `torch.while_loop` outside compilation: applies `body_fn` while `cond_fn` holds
    and returns the final carried values as a tuple."""
    if not callable(cond_fn) or not callable(body_fn):
        raise RuntimeError("Expect cond_fn and body_fn to be callable.")
    if any(
        isinstance(t, bool) or not isinstance(t, (Tensor, int)) for t in _leaves(carried_inputs)
    ):
        raise RuntimeError(
            "Expect carried_inputs to be a tuple of possibly nested dict/list/tuple that only"
            f"consists of tensor or int leaves, but got {carried_inputs}."
        )
    carried = tuple(carried_inputs)
    while True:
        c = cond_fn(*carried)
        if not bool(c.item() if isinstance(c, Tensor) else c):
            return carried
        out = body_fn(*carried)
        carried = tuple(out) if isinstance(out, (tuple, list)) else (out,)


def spmm(*args: Any, **kwargs: Any) -> Tensor:
    """`torch.spmm` of strided tensors, which is `torch.mm` (its arguments, out=, MmBackward0
    and errors); sparse layouts do not exist here."""
    from . import mm

    return mm(*args, **kwargs)
