"""In-place ops: one mechanism that turns any out-of-place op into its `op_` variant.

An in-place op checks torch's leaf rules, computes the out-of-place result, writes it into the
tensor's storage, bumps the shared version counter and, when autograd records it, makes the op's
node the tensor's new grad_fn (so `y.add_(1)` gives `AddBackward0`, as in torch).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _grad_mode
from .._tensor import Tensor, _inf_writable, _make
from ..autograd import forward_ad as _fwad
from ..autograd.graph import move_retained, resave, saved_of

_GM = _grad_mode.STATE
_INFERENCE = _grad_mode.STATE  # the same thread-local state holds the inference flag
no_grad = _grad_mode.no_grad
_FW = _fwad._STATE

OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


_LD = D.LD


def can_cast(src: D.dtype, dst: D.dtype) -> bool:
    """torch's canCast: no complex -> real, float -> integral, or non-bool -> bool."""
    if src.is_complex and not dst.is_complex:
        return False
    if src.is_floating_point and dst._cat < 2:
        return False
    return not (src is not D.bool_ and dst is D.bool_)


# In-place ops torch still runs on expanded (internally overlapping) memory, with a
# deprecation warning: fn -> the name its warning gives (None: the caller warned already).
EXPANDED: dict[Callable[..., Tensor], str | None] = {}


def warn_expanded(name: str) -> None:
    """torch's deprecation warning for index_put_ / masked_fill_ / index_fill_ on an expanded
    tensor."""
    import warnings

    example = "tensor[indices] = tensor" if name == "index_put_" else "tensor[mask] = scalar"
    warnings.warn(
        f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor before "
        f"performing this operation. This also applies to advanced indexing e.g. {example}",
        UserWarning,
        stacklevel=4,
    )


def _write_changed(alias: np.ndarray, target: np.ndarray, value: np.ndarray) -> None:
    """Write into expanded memory only the elements the op changed (an indexed write touches
    only its positions, in order: the last write to shared memory wins, as torch's kernel)."""
    value = np.broadcast_to(value, target.shape).astype(target.dtype)
    same = value == target
    if value.dtype.kind in "fc":
        same |= np.isnan(value) & np.isnan(target)
    changed = ~same
    alias[changed] = value[changed]


def write(self: Tensor, value: np.ndarray, fill: Any = None) -> None:
    """Copy value into self's storage (broadcasting), with torch's cast rule. fill: the op
    (those that write one value, and EXPANDED's, may write expanded memory)."""
    src = D._FROM_NP[value.dtype]
    dst = D._FROM_NP[self._data.dtype]
    if not can_cast(src, dst):
        if value.shape != self._data.shape:  # torch's shape check comes first
            try:
                shape = np.broadcast_shapes(self._data.shape, value.shape)
            except ValueError:
                shape = value.shape
            if shape != self._data.shape:
                raise RuntimeError(
                    f"output with shape {list(self._data.shape)} doesn't match the broadcast "
                    f"shape {list(shape)}"
                )
        raise RuntimeError(
            f"result type {src._short} can't be cast to the desired output type {dst._short}"
        )
    target = self._data
    if target.size == 0:
        if value.shape != target.shape:  # nothing to write, but torch's shape check holds
            try:
                shape = np.broadcast_shapes(target.shape, value.shape)
            except ValueError:
                shape = value.shape
            if shape != target.shape:
                raise RuntimeError(
                    f"output with shape {list(target.shape)} doesn't match the broadcast "
                    f"shape {list(shape)}"
                )
        return
    if not target.flags.writeable:
        if getattr(target, "_sg_sparse", False):
            from ..sparse._array import write_sparse

            write_sparse(target, value, fill)  # a sparse tensor's in-place op: its new entries
            return
        alias = _writable_alias(target)
        if 0 in target.strides and target.size > 1:
            flat = value.reshape(-1)
            if fill in _FILLS and flat.size and alias is not None:
                alias[...] = flat[0]  # torch allows zero_/fill_ on overlapping memory
                return
            if fill in EXPANDED:
                name = EXPANDED[fill]
                if name is not None:
                    warn_expanded(name)
                if alias is not None:
                    if target.dtype is _LD:
                        value = D.round_bf16(value)
                    _write_changed(alias, target, value)
                    return
            raise RuntimeError(OVERLAP)
        if alias is None:
            raise RuntimeError(
                "the tensor's storage is read-only (it was created from a read-only array)"
            )
        target = alias
    if target.dtype is _LD:
        value = D.round_bf16(value)  # Note [bfloat16 storage]
    if value.ndim > target.ndim:  # numpy drops leading 1s ([1] into []); torch refuses them
        raise RuntimeError(
            f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
            f"{list(np.broadcast_shapes(self._data.shape, value.shape))}"
        )
    try:
        np.copyto(target, value, casting="unsafe")
    except RuntimeWarning:
        pass  # an overflow warning made an error: the copy is done (Note [Floating-point warnings])
    except ValueError as e:
        raise RuntimeError(
            f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
            f"{list(np.broadcast_shapes(self._data.shape, value.shape))}"
        ) from e


def _writable_alias(view: np.ndarray) -> np.ndarray | None:
    """A writable view of the memory a read-only numpy view aliases, or None when that memory
    is read-only on purpose.

    numpy makes broadcast views (torch's expand) read-only; torch's expanded tensors are
    writable views, so an in-place op on one element of an expanded gradient writes through to
    the memory it shares. Memory stays protected when its owner is read-only itself (a user's
    read-only array) or is not a numpy array (torch's memory behind the bridge's `from_torch`).
    """
    root = view
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root is view or root.base is not None or not root.flags.writeable:
        return None
    if view.dtype != root.dtype:
        return None
    if root.flags.c_contiguous:
        flat = root.reshape(-1)
    elif root.flags.f_contiguous:
        flat = root.reshape(-1, order="F")
    else:
        return None
    start = view.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if start % root.itemsize:
        return None
    return np.lib.stride_tricks.as_strided(
        flat[start // root.itemsize :], view.shape, view.strides, writeable=True
    )


# Out-of-place ops whose in-place form, with grad off, can write straight into the tensor's
# memory (an optimizer's `p.add_(g, alpha=-lr)`): fn -> into(self, args, kwargs), which returns
# False to let the general path (compute, then copy in) handle the call.
NOGRAD_INTO: dict[Callable[..., Tensor], Callable[..., bool]] = {}


# Binary ops without a complex kernel: on a real self with a complex operand, torch's in-place
# form fails its result-type cast check before the kernel's dtype error.
# Kernels that refuse some dtypes: the in-place form checks first that the tensor operands'
# promoted dtype casts to self's (int.gcd_(float) is the cast error, not gcd's kernel's).
_CAST_ANY = {"gcd", "lcm", "hypot", "nextafter", "igamma", "igammac", "ldexp"}
_CAST_FIRST = {
    *("fmod", "remainder", "hypot", "copysign", "atan2", "xlogy", "floor_divide", "div"),
    *("logaddexp2", "true_divide", "divide", "arctan2"),
    *_CAST_ANY,
}


def _cast_first(fn: Callable[..., Tensor], self: Tensor, args: tuple[Any, ...]) -> None:
    if self.dtype.is_complex:
        if getattr(fn, "__name__", "") == "abs":  # torch's abs_ refuses before the cast check
            if self._rg:
                self._check_inplace()  # (after torch's autograd layer: a grad leaf's error)
            raise RuntimeError("In-place abs is not supported for complex tensors.")
        return
    name = getattr(fn, "__name__", "").rstrip("_")
    if name not in _CAST_FIRST:
        return
    if name in _CAST_ANY:
        from .registry import result_type_of

        dt = result_type_of([self, *(a for a in args if isinstance(a, Tensor))])
        if name == "ldexp" and dt._cat < 2:
            dt = D.get_default_dtype()
        if dt._cat > self.dtype._cat:
            # ldexp's composite names itself on a non-float self
            named = name == "ldexp" and self.dtype._cat < 2
            what = "ldexp" if named else f"result type {dt._short}"
            raise RuntimeError(
                f"{what} can't be cast to the desired output type {self.dtype._short}"
            )
    others = [a for a in args if isinstance(a, Tensor) and a.dtype.is_complex]
    if others or any(isinstance(a, complex) for a in args):
        src = D.promote_types(self.dtype, others[0].dtype) if others else D.complex64
        if self.dtype is D.float64 and src is D.complex64:
            src = D.complex128
        raise RuntimeError(
            f"result type {src._short} can't be cast to the desired output type {self.dtype._short}"
        )


# Ops torch computes with TensorIterator: it checks the operands' shapes (and the written-to
# tensor's) before their dtypes and before the kernel runs (its dtype dispatch, integer division
# by zero): the error of a call that fails both ways is the shape's. By the out-of-place op's name.
_ITERATOR_OPS = frozenset(
    (
        "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide",
        "floor_divide", "pow", "fmod", "remainder", "atan2", "arctan2", "hypot", "nextafter",
        "copysign", "xlogy", "ldexp", "lerp", "addcmul", "addcdiv", "clamp", "clip", "clamp_min",
        "clamp_max", "heaviside", "igamma", "igammac", "gcd", "lcm", "bitwise_and", "bitwise_or",
        "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "logical_and", "logical_or",
        "logical_xor", "eq", "ne", "lt", "le", "gt", "ge", "special_xlog1py", "special_zeta",
    )
)  # fmt: skip
_DTYPE_ERRORS = re.compile(
    r"\"\w+\" not implemented for '|result type \w+ can't be cast to the desired output type |For "
    r"integral input tensors, argument alpha|Boolean alpha only supported|ZeroDivisionError$"
)


# torch's structured in-place matmuls (addmm_, addmv_, baddbmm_): the result's shape, from the
# other operands, must be self's ("Bad in-place call"); self is never expanded to it
_STRUCTURED_MM = frozenset(("addmm", "addmv", "baddbmm"))
_SELF_SHAPE_ERRORS = re.compile(r"output with shape |The expanded size |expand\(")


def _structured_mm_shape(name: str, self: Tensor, args: tuple[Any, ...], e: Exception) -> None:
    if not _SELF_SHAPE_ERRORS.match(str(e)) or len(args) < 2:
        return
    if name == "baddbmm" and not str(e).startswith("output with shape"):
        return  # its meta expands self to the result's shape first
    a, b = args[0]._data.shape, args[1]._data.shape
    if name == "addmm":
        shape: tuple[int, ...] = (a[0], b[1])
    elif name == "addmv":
        shape = (a[0],)
    else:
        shape = (a[0], a[1], b[2])
    if shape != self._data.shape:
        raise RuntimeError(
            f"Bad in-place call: input tensor size {list(self._data.shape)} and output tensor "
            f"size {list(shape)} should match"
        ) from None


def shapes_first(
    fn: Any, self: Tensor, args: tuple[Any, ...], kwargs: dict[str, Any], e: Exception
) -> None:
    """An in-place TensorIterator op that failed on a dtype: torch's shape error instead, when
    the operands do not broadcast or their broadcast shape is not self's (error path only)."""
    name = getattr(fn, "__name__", "").rstrip("_")
    if name in _STRUCTURED_MM:
        _structured_mm_shape(name, self, args, e)
        return
    if name not in _ITERATOR_OPS:
        return
    msg = str(e)
    dtype_error = _DTYPE_ERRORS.match(msg)
    if dtype_error or msg.startswith(("The size of tensor a ", "output with shape ")):
        a = self._data
        if a.size and any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape, strict=True)):
            raise RuntimeError(OVERLAP) from None  # (an expanded self) checked before shapes
    if not dtype_error:
        return
    shape = self._data.shape
    for a in (*args, *kwargs.values()):
        if isinstance(a, Tensor):
            shape = infer_size(shape, a._data.shape)
    if shape != self._data.shape:
        raise RuntimeError(
            f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
            f"{list(shape)}"
        ) from None
    if "alpha" in str(e) and args:  # add's alpha is checked after the result type's cast
        from .registry import result_type_of

        dt = result_type_of([self, args[0]])
        if not can_cast(dt, self.dtype):
            raise RuntimeError(
                f"result type {dt._short} can't be cast to the desired output type "
                f"{self.dtype._short}"
            ) from None


def apply_inplace(fn: Callable[..., Tensor], self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Run `fn(self, *args)` and store the result in self, recording the op like torch."""
    try:
        _cast_first(fn, self, args)
        if self._inf and not _INFERENCE.inference and not _inf_writable(self):
            # torch's quirk: the kernel has written the result when the inference check raises
            with no_grad():
                write(self, fn(self, *args, **kwargs)._data)
        self._check_inplace()
        if self._vc is not None and (args or kwargs):  # self has views: an operand may overlap
            check_operand_overlap(fn, self, args, kwargs)
        if not _GM.grad:
            fast = NOGRAD_INTO.get(fn)
            if fast is not None and not _FW.active and fast(self, args, kwargs):
                self._bump()
                return self
            r = fn(self, *args, **kwargs)
            write(self, r._data, fn)
            self._bump()
            if _FW.active:
                _set_result_tangent(self, r)
            return self
        others_rg = any(isinstance(a, Tensor) and a._rg for a in args) or any(
            isinstance(a, Tensor) and a._rg for a in kwargs.values()
        )
        if not self._rg and not others_rg:
            r = fn(self, *args, **kwargs)
            write(self, r._data, fn)
            self._bump()
            if _FW.active:
                _set_result_tangent(self, r)
            return self
        if self._base is not None:
            from .views import inplace_on_view

            return inplace_on_view(fn, self, args, kwargs)
        # Snapshot self so the node can keep the pre-modification value if its formulas need it.
        snap = _make(self._data.copy(), self._rg, self._grad_fn, self._nr)
        snap._acc = self._acc
        fw = _FW.active
        if fw:
            _fwad._set_tangent(snap, _fwad._get_tangent(self))
        r = fn(snap, *args, **kwargs)
        write(self, r._data, fn)
        self._bump()
        if fw:
            _set_result_tangent(self, r)
        node = r._grad_fn
        if node is not None:
            rebase(self, node, r)
            if snap._rg:
                _save_original_self(node, snap)
        return self
    except (RuntimeError, NotImplementedError) as e:
        shapes_first(fn, self, args, kwargs, e)
        raise


def _save_original_self(node: Any, snap: Tensor) -> None:
    """An in-place op whose backward reads self's old value: torch saves `original_self =
    self.clone()`, recorded, so a double-backward graph reaches self's old node through
    CloneBackward0 (the op's own input edge stays self's old node)."""
    op = getattr(node, "_op", None)
    if op is None:
        return
    saved = saved_of(node)
    name = op.params[0]
    if isinstance(saved, dict) and name in saved:
        from .shape import clone

        resave(node, name, clone(snap), is_output=False)


def _set_result_tangent(self: Tensor, r: Tensor) -> None:
    """Forward AD: self's tangent becomes the in-place result's (written into the old one; for
    a view without one, into a view of its base's tangent, so that the base's changes too)."""
    t = _fwad._get_tangent(r)
    if t is None:
        return
    old = _fwad._get_tangent(self)
    if old is None and self._base is not None:
        from .views import tangent_view

        old = tangent_view(self)
    if old is not None and old.shape == t.shape:
        np.copyto(old._data, t._data, casting="unsafe")
    else:
        _fwad._set_tangent(self, t)


def rebase(self: Tensor, node: Any, r: Tensor) -> None:
    """Make node (the in-place op's) self's grad_fn; saved outputs now refer to self."""
    if self._grad_fn is None and self._rg:
        # a leaf that requires grad never gets here: _check_inplace raised already
        raise AssertionError("in-place on a grad-requiring leaf")
    move_retained(self, node, 0)  # the retained grad is the grad of the new version
    self._grad_fn = node
    self._rg = True
    self._nr = 0
    resave(node, "result", self)
    vc = self._vc
    if vc is not None and vc.views:
        from .views import views_follow_base

        views_follow_base(self)


_POSITION = re.compile(r"\(position (\d+)\)")


def make_inplace(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """The `op_` method for an out-of-place op."""

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        try:
            return apply_inplace(fn, self, *args, **kwargs)
        except TypeError as e:
            # the argument parser's errors name the in-place form and, as for any method,
            # count positions after self (`add_(): argument 'other' (position 1) must be
            # Tensor, not str`)
            msg = str(e)
            if e.args == (msg,) and msg.startswith(prefix[:-10] + " received an invalid"):
                e.args = (method.__name__ + msg[len(method.__name__) - 1 :],)  # (a listing)
            elif e.args == (msg,) and msg.startswith(prefix):
                msg = method.__name__ + msg[len(method.__name__) - 1 :]
                if not getattr(e, "_sg_as_called", False):  # (counted as the call gave them)
                    msg = _POSITION.sub(lambda m: f"(position {int(m[1]) - 1})", msg, 1)
                e.args = (msg,)
            raise

    method.__name__ = getattr(fn, "__name__", "op") + "_"
    prefix = getattr(fn, "__name__", "op") + "(): argument"
    method.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    method._forwards = True  # type: ignore[attr-defined] # its arguments, unchanged, to fn
    return method


def make_iop(fn: Callable[..., Tensor]) -> Callable[..., Any]:
    """An augmented operator (`__iadd__`): in place, NotImplemented for unsupported operands."""

    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, bool, int, float, complex, np.generic)):
            return NotImplemented
        return apply_inplace(fn, self, other)

    return method


# --- ops that only exist in place ---------------------------------------------------------
from .registry import defop, infer_size  # noqa: E402


def _zero_t(self: Tensor) -> Tensor:
    # forward AD: a tangent of exact zeros (not self_t * 0, which keeps NaN), as torch's
    return _make(np.zeros_like(self._data))


_zero = defop(
    "zero",
    "ZeroBackward0",
    lambda self: np.zeros_like(self),
    dtype="keep",
    jvp=lambda self: _zero_t(self),
    self=lambda grad: grad * 0,
    complex=True,  # linear
)


def _full_like(self: np.ndarray, value: Any) -> np.ndarray:
    if type(value) is int and self.dtype.kind in "iu":
        # a negative int into an unsigned type wraps, as torch's conversion (fill_ checked it)
        value = D.wrapped_int(value, self.dtype)
    return np.full_like(self, value)


_fill = defop(
    "fill.Scalar",
    "FillBackward2",
    _full_like,
    dtype="keep",
    jvp=lambda self: _zero_t(self),
    self=lambda grad: grad * 0,
    complex=True,  # linear
)
_fill_tensor = defop(
    "fill.Tensor",
    "FillBackward3",
    lambda self, value: np.full_like(self, value),
    dtype="keep",
    jvp=lambda self, value_t: (
        _zero_t(self) if value_t is None else _fill_tensor(_zero_t(self), value_t)
    ),
    self=lambda grad: grad * 0,
    value=lambda grad: grad.sum(),
    complex=True,  # linear
)
# copy_: also the node of a first .grad accumulated under create_graph (torch's CopyBackwards)
_copy = defop(
    "copy_",
    "CopyBackwards",
    lambda self, src: np.broadcast_to(src, self.shape).astype(self.dtype),
    dtype="keep",
    jvp=lambda self, src_t: _zero_t(self) if src_t is None else _copy(_zero_t(self), src_t),
    self=lambda grad: grad * 0,
    src=lambda grad: grad,
    complex=True,  # linear: the formulas hold for complex tensors as written
)
# a C++-only node in torch: name() carries the namespace (the class name stays CopyBackwards)
_copy.op.node_cls._cpp_name = "torch::autograd::CopyBackwards"  # type: ignore[attr-defined]


def zero_(self: Tensor) -> Tensor:
    """Mirrors `torch.Tensor.zero_`."""
    return apply_inplace(_zero, self)


def fill_(self: Tensor, value: Any) -> Tensor:
    """Mirrors `torch.Tensor.fill_`."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            self._check_inplace()  # torch's autograd layer checks self first
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        if value.dtype.is_complex and not self.dtype.is_complex:
            value = value.real  # torch's fill_ drops the imaginary part silently
        return apply_inplace(_fill_tensor, self, value)
    if not isinstance(value, (bool, int, float, complex, np.generic)):
        why = (
            "\n      didn't match because some of the arguments have invalid types: "
            f"(!{type(value).__name__}!)"
        )
        raise TypeError(
            f"fill_() received an invalid combination of arguments - got "
            f"({type(value).__name__}), but expected one of:\n * (Tensor value){why}\n * "
            f"(Number value){why}\n"
        )
    D.check_scalar_fits(value, self.dtype)
    return apply_inplace(_fill, self, value)


def copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """Mirrors `torch.Tensor.copy_`."""
    if non_blocking is not False and non_blocking is not True:  # torch's parser: a bool only
        from .._signatures import reraise

        reraise("copy_", (src, non_blocking), {})
    if isinstance(src, (bool, int, float, complex, np.generic)):
        # torch accepts a number: a 0-d source, cast freely (2.7 into an int tensor gives 2)
        src = _make(np.asarray(src))
    if not isinstance(src, Tensor):
        t = type(src)  # its C name: numpy's types name their module
        name = f"numpy.{t.__name__}" if t.__module__ == "numpy" else t.__name__
        raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not {name}")
    try:
        # torch's TensorIterator checks the overlap before the shapes
        if src is not self and (self._data.base is not None or src._data.base is not None):
            _check_partial_overlap(self._data, src._data)  # (a view may overlap the other)
        shape = infer_size(self._data.shape, src._data.shape)  # torch's mismatch error
        if shape != self._data.shape:
            raise RuntimeError(
                f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                f"{list(shape)}"
            )
    except RuntimeError as e:
        self._check_inplace()  # torch's autograd layer checks self first
        a = self._data
        if (
            str(e).startswith(("The size of tensor a ", "output with shape "))
            and a.size
            and any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape, strict=True))
        ):
            raise RuntimeError(OVERLAP) from None  # (an expanded self) checked before shapes
        raise
    if src._data.dtype.kind == "c" and self._data.dtype.kind != "c":
        from .shape import warn_complex_to_real

        warn_complex_to_real()
    return apply_inplace(_copy_cast, self, src)


PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)


def _dense(a: np.ndarray) -> bool:
    """torch's is_non_overlapping_and_dense: the elements fill one block, in some dim order."""
    expected = a.itemsize
    for st, n in sorted((st, n) for st, n in zip(a.strides, a.shape, strict=True) if n != 1):
        if st != expected:
            return False
        expected *= n
    return True


def _check_partial_overlap(a: np.ndarray, b: np.ndarray) -> None:
    """torch's assert_no_partial_overlap: two dense tensors whose memory ranges overlap without
    being the same range with the same strides (a tensor copied into itself shifted, or
    transposed, is refused)."""
    if not a.size or not b.size or not np.may_share_memory(a, b):
        return
    if not (_dense(a) and _dense(b)):
        return
    sa, sb = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    if (sa, a.nbytes) == (sb, b.nbytes):
        if a.strides == b.strides:
            return
    elif not (sa < sb + b.nbytes and sb < sa + a.nbytes):
        return
    raise RuntimeError(PARTIAL_OVERLAP)


# in-place ops torch runs without an overlap check of their operands (matmuls and the ops that
# read a tensor operand as a number), and those that refuse any overlap, a full one included
# (assert_no_overlap): by name
_OVERLAP_UNCHECKED = frozenset(
    (
        *("addmm", "addmv", "addr", "addbmm", "baddbmm", "masked_scatter", "masked_fill"),
        *("index_fill", "fill"),  # (fill_ of a 0-d tensor reads it as a number)
    )
)
_OVERLAP_ANY = frozenset(
    ("index_copy", "index_add", "_scatter_inplace_fn", "scatter_add", "put", "index_put")
)


def check_operand_overlap(
    fn: Callable[..., Tensor],
    self: Tensor,
    args: tuple[Any, ...],
    kwargs: dict[str, Any] | None = None,
) -> None:
    """torch's TensorIterator refuses an operand that partially overlaps the written-to tensor
    (x[:3].add_(x[1:4]), x[0].clamp_(min=x)); only called when self has views (a version
    counter), and it checks the operands sharing that counter."""
    vc = self._vc
    for a in (*args, *kwargs.values()) if kwargs else args:
        if isinstance(a, Tensor) and a._vc is vc and a is not self:
            name = getattr(fn, "__name__", "").rstrip("_")
            if name in _OVERLAP_UNCHECKED:
                return
            if (
                name in _OVERLAP_ANY
                and a._data.size
                and np.may_share_memory(self._data, a._data)
                and _dense(self._data)  # (torch's overlap status of a tensor that is not
                and _dense(a._data)  # dense is "too hard": it does not refuse it)
            ):
                if name == "index_copy":  # its meta checks, then the overlap, then the bounds
                    from .indexing import index_copy_meta

                    index_copy_meta(self, *args)
                else:
                    with no_grad():  # the kernel checks its arguments (shapes, dims) first
                        fn(self.detach().clone(), *args, **(kwargs or {}))
                raise RuntimeError(PARTIAL_OVERLAP)
            _check_partial_overlap(self._data, a._data)


def check_out_overlap_inputs(out: Tensor, inputs: Any, full: bool = False) -> None:
    """An `out=` tensor partially overlapping one of the inputs: torch's TensorIterator error;
    full: any overlap, the input itself included (assert_no_overlap: gather, cat, ...)."""
    vc = out._vc
    if vc is None:
        return
    for a in inputs:
        if isinstance(a, Tensor) and a._vc is vc and (full or a is not out):
            if full and _dense(out._data) and _dense(a._data) and _shares(out._data, a._data):
                raise RuntimeError(PARTIAL_OVERLAP)
            _check_partial_overlap(out._data, a._data)


def _shares(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(a.size and b.size and np.may_share_memory(a, b))


def _copy_cast(self: Tensor, src: Tensor) -> Tensor:
    # copy_ casts freely (float -> int included), unlike other in-place ops
    return _copy(self, src)


# ops that write one value everywhere: torch allows them on overlapping (expanded) memory
# (fill_ of a number; fill_ of a tensor, and setitem's fill, refuse it)
_FILLS = frozenset((_zero, _fill))


def copy_grad(grad: Tensor) -> Tensor:
    from .._creation import zeros_like

    return _copy(zeros_like(grad), grad)


def _as_out_form(method: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """An in-place op torch runs as its out= form (logical_and_: logical_and_out(self, self,
    other)), which autograd does not see: a leaf that requires grad may be written."""

    def inplace(self: Tensor, *args: Any) -> Tensor:
        with no_grad():
            return method(self, *args)

    inplace.__name__ = inplace.__qualname__ = method.__name__
    inplace.__wrapped__ = method  # type: ignore[attr-defined]
    return inplace


def build_methods() -> dict[str, Any]:
    from . import pointwise as P

    m: dict[str, Any] = {}
    for name in (
        "add",
        "sub",
        "mul",
        "div",
        "pow",
        "exp",
        "log",
        "reciprocal",
        "tanh",
        "sigmoid",
        "relu",
        "square",
    ):
        m[name + "_"] = make_inplace(P.METHODS[name])
    m["neg_"] = make_inplace(P.METHODS["neg"])
    for name in ("logical_and", "logical_or", "logical_xor", "logical_not"):
        m[name + "_"] = _as_out_form(make_inplace(getattr(P, name)))
    m["negative_"] = m["neg_"]
    m["subtract_"] = m["sub_"]
    m["multiply_"] = m["mul_"]
    m["divide_"] = m["div_"]
    m["true_divide_"] = m["div_"]
    m["zero_"] = zero_
    m["fill_"] = fill_
    m["copy_"] = copy_
    m["__iadd__"] = make_iop(P.METHODS["add"])
    m["__isub__"] = make_iop(P.METHODS["sub"])
    m["__imul__"] = make_iop(P.METHODS["mul"])
    m["__itruediv__"] = make_iop(P.METHODS["div"])
    m["__ipow__"] = make_iop(P.METHODS["pow"])
    return m
