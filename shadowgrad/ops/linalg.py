"""Linear algebra: matrix products (mm, mv, dot, bmm, matmul decomposed as torch decomposes it,
addmm and friends, einsum, tensordot, kron, trace) and torch.linalg's factorizations (inv, det,
slogdet, solve, cholesky, qr, svd, eigh), with torch's backward formulas (FunctionsManual.cpp)
written in shadowgrad ops so that double backward works.

The public `torch.linalg` namespace (and the norms) is in `shadowgrad/linalg/__init__.py`.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any

import numpy as np

from .. import _dtype as _dt
from .._dtype import check_scalar_fits
from .._formats import contiguous_format
from .._tensor import Tensor, _make, warn_once
from ..autograd.forward_ad import BILINEAR, LINEAR, ZeroTerm, add_terms
from ..autograd.graph import resave
from ..overrides import _STATE as _TF
from ._util import shape_str, size_at, wrap_dim
from .pointwise import _out
from .registry import (
    _SAVED_HIDDEN,
    _SAVED_LAZY,
    _SAVED_RENAMED,
    check_inference_saved,
    defop,
    infer_size,
    saved_array,
)
from .shape import cat, diag_embed, stack


def _flip(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a @ b is faster as (b.T @ a.T).T: OpenBLAS (numpy's BLAS) computes a Linear's
    product x @ w.T up to 2x slower than its transpose w @ x.T when x has few rows and fewer
    than w (torch's MKL has no such gap). Measured with the copy back to row-major, one
    thread: 16 rows 0.64 of the time, 64 rows 0.80-0.87, 128 rows 0.90-1.01, 256 rows and
    more 1.09-1.19 (the copy then costs more than the product saves). A small matrix b (under
    8192 elements: 32x16, 64x64) gains nothing from the flip, and its extra copy cost 20-40%."""
    return (
        1 < a.shape[0] <= 64
        and b.size >= 8192
        and a.shape[0] < b.shape[1]
        and a.dtype.kind == "f"
        and a.flags.c_contiguous
        and b.flags.f_contiguous
        and not b.flags.c_contiguous
    )


def _mm_fwd(self: np.ndarray, mat2: np.ndarray) -> np.ndarray:
    if self.ndim == 2 and mat2.ndim == 2 and _flip(self, mat2):
        # torch's result is row-major: the copy keeps strides (and .view()) as torch's
        return np.ascontiguousarray(np.matmul(mat2.T, self.T).T)
    return np.matmul(self, mat2)


mm_op = defop(
    "mm",
    "MmBackward0",
    _mm_fwd,
    jvp=BILINEAR,
    self=lambda grad, mat2, self_sym_strides: _mm_mat1_grad(grad, mat2, self_sym_strides, 1),
    mat2=lambda grad, self, mat2_sym_strides: _mm_mat2_grad(grad, self, mat2_sym_strides, 1),
    raw={
        "self": lambda grad, mat2, self_sym_strides: _mm_mat1_raw(grad, mat2, self_sym_strides, 1),
        "mat2": lambda grad, self, mat2_sym_strides: _mm_mat2_raw(grad, self, mat2_sym_strides, 1),
    },
    complex={
        "self": lambda grad, mat2, self_sym_strides: _mm_mat1_grad(
            grad, mat2.conj(), self_sym_strides, 1
        ),
        "mat2": lambda grad, self, mat2_sym_strides: _mm_mat2_grad(
            grad, self.conj(), mat2_sym_strides, 1
        ),
    },
)
mv_op = defop(
    "mv",
    "MvBackward0",
    lambda self, vec: np.matmul(self, vec),
    jvp=BILINEAR,
    # torch's grad.ger(vec): outer's grad.reshape(-1, 1) * vec (MulBackward0)
    self=lambda grad, vec: grad.reshape(grad.shape[0], 1) * vec,
    vec=lambda grad, self: self.t().mv(grad),
    complex={
        "self": lambda grad, vec: grad.reshape(grad.shape[0], 1) * vec.conj(),
        "vec": lambda grad, self: self.conj().t().mv(grad),
    },
)
dot_op = defop(
    "dot",
    "DotBackward0",
    # + 0: torch's dot sums from +0, so a lone -0 product gives +0 (numpy's dot keeps -0)
    lambda self, tensor: np.asarray(np.dot(self, tensor) + 0),
    jvp=BILINEAR,
    self=lambda grad, tensor: grad * tensor,
    tensor=lambda grad, self: grad * self,
    complex={
        "self": lambda grad, tensor: grad * tensor.conj(),
        "tensor": lambda grad, self: grad * self.conj(),
    },
)
bmm_op = defop(
    "bmm",
    "BmmBackward0",
    lambda self, mat2: np.matmul(self, mat2),
    jvp=BILINEAR,
    self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2)),
    mat2=lambda grad, self: self.transpose(1, 2).bmm(grad),
    complex={
        "self": lambda grad, mat2: grad.bmm(mat2.transpose(1, 2).conj()),
        "mat2": lambda grad, self: self.transpose(1, 2).conj().bmm(grad),
    },
)


def mm(input: Tensor, mat2: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.mm`."""
    try:
        if out is not None:
            return _write_out(mm(input, mat2), out, "mm", (input, mat2))
        if input.ndim != 2 or mat2.ndim != 2:
            check_inference_saved(mm_op, (input, mat2))  # torch saves before the kernel checks
            raise RuntimeError(f"{'self' if input.ndim != 2 else 'mat2'} must be a matrix")
        a, b = input._data.shape, mat2._data.shape
        if a[1] != b[0]:
            check_inference_saved(mm_op, (input, mat2))  # torch saves before the kernel checks
            if type(input._data) is not np.ndarray and input.is_sparse:
                raise RuntimeError(
                    f"addmm: Argument #3 (dense): Expected dim 0 size {a[1]}, got {b[0]}"
                )
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})"
            )
        _same_dtype(input, mat2)
        if input._data.dtype == np.bool_ and input._data.size and mat2._data.size:
            # (torch's kernel returns zeros before its dtype dispatch when an operand is empty)
            raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
        return mm_op(input, mat2)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("mm", (mat2,), {})
        raise


def _lout(
    result: Tensor,
    out: Tensor | None,
    name: str | None,
    check: str = "exact",
    fname: str = "",
    what: str = "result",
) -> Tensor:
    """_out for a linear-algebra function's out=, with its own dtype check after the autograd
    one (named by the op torch runs). check: "exact" (the structured kernels' "Expected out
    tensor to have dtype ..."), "cast" (a composite's "<fname>: Expected result to be safely
    castable ..."), "cast+exact" (both, in that order), "scalar" (solve_triangular's); name
    None: a composite that copies its result into out (differentiably: CopyBackwards)."""
    if out is None:
        return result
    from .. import _grad_mode
    from .._dtype import CPP_NAMES
    from .pointwise import out_autograd_error

    if name is not None and _grad_mode.STATE.grad and (result._rg or out._rg):
        raise RuntimeError(out_autograd_error(name))
    if name is None and _grad_mode.STATE.grad and result._rg:
        from .shape import resize_out

        if result._data.dtype == out._data.dtype or result.dtype._cat <= out.dtype._cat:
            if out._data.shape != result._data.shape:
                resize_out(result.detach(), out)  # the resize (and its warning): no new version
                out._vc.v -= 1  # type: ignore[union-attr]
            return out.copy_(result)
    r, o = result.dtype, out.dtype
    if r is not o:
        if "cast" in check and (r._cat > o._cat):
            raise RuntimeError(
                f"{fname}: Expected {what} to be safely castable from {r._short} dtype, but got "
                f"{what} with dtype {o._short}"
            )
        if "exact" in check:
            raise RuntimeError(
                f"Expected out tensor to have dtype {CPP_NAMES[r]}, but got {CPP_NAMES[o]} instead"
            )
        if check == "scalar":
            raise RuntimeError(f"expected scalar type {r._short} but found {o._short}")
    return _out(result, out, None)


def _louts(outs: Any, out: Any, name: str, order: Any = None) -> Any:
    """A factorization's results written into its out= tuple: torch's autograd check over all
    of them first (named by the op torch runs), then each out's exact dtype, in `order` (the
    kernel's: the outputs' own order unless given)."""
    if out is None:
        return outs
    from .. import _grad_mode
    from .pointwise import out_autograd_error

    if _grad_mode.STATE.grad and any(t._rg for t in (*outs, *out)):
        raise RuntimeError(out_autograd_error(name))
    written = list(out)
    for k in order or range(len(outs)):
        written[k] = _lout(outs[k], out[k], None)
    return tuple(written)


def _write_out(result: Tensor, out: Tensor, name: str, args: tuple[Tensor, ...]) -> Tensor:
    """Write a matrix product into a user-given `out=` tensor, with torch's checks: no autograd,
    the result's dtype, and a resize warning when a non-empty `out` has the wrong shape."""
    from .. import _grad_mode
    from .._dtype import CPP_NAMES
    from .shape import resize_out

    if _grad_mode.STATE.grad and (out._rg or any(a._rg for a in args)):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if out.dtype is not result.dtype:
        raise RuntimeError(
            f"Expected out tensor to have dtype {CPP_NAMES[result.dtype]}, but got "
            f"{CPP_NAMES[out.dtype]} instead"
        )
    return resize_out(result, out, "mm" if name == "matmul" else name)  # matmul runs mm_out


def _same_dtype(a: Tensor, b: Tensor) -> None:
    if a.dtype is not b.dtype:
        from .._dtype import CPP_NAMES

        if type(a._data) is not np.ndarray and a.is_sparse:  # torch's sparse addmm kernel
            raise RuntimeError(f"expected scalar type {a.dtype._short} but found {b.dtype._short}")
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {CPP_NAMES[a.dtype]} != "
            f"{CPP_NAMES[b.dtype]}"
        )


def mv(input: Tensor, vec: Tensor) -> Tensor:
    """Mirrors `torch.mv`."""
    try:
        if input.ndim != 2 or vec.ndim != 1:
            check_inference_saved(mv_op, (input, vec))  # torch saves before the kernel checks
            size_at(input._data.shape, 0)  # torch's result: empty(self.size(0)), then addmv
            raise RuntimeError(
                f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}"
            )
        if input._data.shape[1] != vec._data.shape[0]:
            check_inference_saved(mv_op, (input, vec))
            raise RuntimeError(
                f"size mismatch, got input ({input._data.shape[0]}), mat "
                f"({input._data.shape[0]}x{input._data.shape[1]}), vec ({vec._data.shape[0]})"
            )
        if input.dtype is not vec.dtype:
            # torch runs mv as addmv(result, mat, vec); result takes vec's dtype
            v, m = vec.dtype._short, input.dtype._short
            raise RuntimeError(
                f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
            )
        if input._data.dtype == np.bool_ and input._data.size:
            raise NotImplementedError("\"addmv_impl_cpu\" not implemented for 'Bool'")  # (see mm)
        return mv_op(input, vec)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("mv", (vec,), {})
        raise


def dot(input: Tensor, tensor: Tensor) -> Tensor:
    """Mirrors `torch.dot`."""
    try:
        if (
            input.dtype is not tensor.dtype
            or input.ndim != 1
            or tensor.ndim != 1
            or input._data.shape != tensor._data.shape
        ):
            check_inference_saved(dot_op, (input, tensor))  # torch saves before these checks
        if input.ndim != 1 or tensor.ndim != 1:
            raise RuntimeError(
                f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors"
            )
        if input.dtype is not tensor.dtype:
            raise RuntimeError(
                "dot : expected both vectors to have same dtype, "
                f"but found {input.dtype._short} and "
                f"{tensor.dtype._short}"
            )
        n1, n2 = input._data.shape[0], tensor._data.shape[0]
        if n1 != n2:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{n1}] and src [{n2}] to have the same "
                f"number of elements, but got {n1} and {n2} elements respectively"
            )
        if input._data.dtype == np.bool_:
            raise NotImplementedError("\"dot\" not implemented for 'Bool'")
        return dot_op(input, tensor)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("dot", (tensor,), {})
        raise


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    """Mirrors `torch.bmm`."""
    try:
        if input.ndim != 3 or mat2.ndim != 3:
            check_inference_saved(bmm_op, (input, mat2))  # saved before the kernel's checks
            raise RuntimeError(f"batch{1 if input.ndim != 3 else 2} must be a 3D tensor")
        a, b = input._data.shape, mat2._data.shape
        if a[0] != b[0] or a[2] != b[1]:
            check_inference_saved(bmm_op, (input, mat2))
            raise RuntimeError(
                "Expected size for first two dimensions of batch2 "
                f"tensor to be: [{a[0]}, {a[2]}] but "
                f"got: [{b[0]}, {b[1]}]."
            )
        _check_scalar_type(input, mat2)
        if input._data.dtype == np.bool_ and input._data.size and mat2._data.size:
            raise NotImplementedError("\"bmm\" not implemented for 'Bool'")  # (see mm)
        return bmm_op(input, mat2)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("bmm", (mat2,), {})
        raise


def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.matmul`, decomposed into mm/mv/dot/bmm nodes as torch's _matmul_impl."""
    if out is not None:
        return _write_out(matmul(input, other), out, "matmul", (input, other))
    if type(other) is not Tensor and getattr(other, "_sg_proto", False) and not _TF.level:
        from ..overrides import dispatch_op

        return dispatch_op("matmul", (input, other))  # param @ subclass: its __torch_function__
    if not isinstance(other, Tensor) or not isinstance(input, Tensor):
        from .._signatures import not_tensor_as_called

        raise not_tensor_as_called("matmul", "other", 1, other)
    da, db = input.ndim, other.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        # torch squeezes the row in place: SqueezeBackward4
        from .shape import squeeze_

        return squeeze_(mm(input.unsqueeze(0), other), 0)
    if da == 2 and db == 2:
        return mm(input, other)
    if da == 3 and db == 3:
        # a batch of one against a real batch is a matrix against that batch
        a0, b0 = input._data.shape[0], other._data.shape[0]
        if input._data.shape[2] != other._data.shape[1]:
            return _batched(input, other)  # torch's bmm error, on the broadcast batch
        if a0 == 1 and b0 != 1:
            return matmul(input.squeeze(0), other)
        if b0 == 1 and a0 != 1:
            return matmul(input, other.squeeze(0))
    if _should_fold(input, other):
        return _folded(input, other)
    return _batched(input, other)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """torch's should_fold: fold the larger (>= 3-D) operand's batch into mm/mv rows when the
    smaller operand requires grad, or when the fold needs no copy (and the first is not 2-D)."""
    da, db = a.ndim, b.ndim
    if da >= db:
        big, small, transposed = a, b, False
    else:
        big, small, transposed = b, a, True
    if not (big.ndim >= 3 and small.ndim <= 2):
        return False
    if small._rg:
        return True
    if da == 2:
        return False
    arr = big._data
    if arr.size == 0:
        return True
    shape = list(arr.shape)
    strides = [s // arr.itemsize for s in arr.strides]
    if transposed:
        shape[-2:] = shape[:-3:-1]
        strides[-2:] = strides[:-3:-1]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _folded(a: Tensor, b: Tensor) -> Tensor:
    transpose = b.ndim > a.ndim
    if transpose:
        t1 = b.mT
        t2 = a.t() if a.ndim == 2 else a
    else:
        t1, t2 = a, b
    # torch checks the folded product's shapes (in mm/mv) before its dtypes
    if t1._data.shape[-1] == t2._data.shape[0]:
        if t2.ndim == 1 and t1.dtype is not t2.dtype:
            v, m = t2.dtype._short, t1.dtype._short
            raise RuntimeError(
                f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
            )
        _same_dtype(t1, t2)
    sizes = tuple(t1._data.shape)
    shape = sizes[:-1]
    folded = t1.reshape(math.prod(shape), sizes[-1])
    if t2.ndim == 2:
        out = _unsafe(mm(folded, t2), (*shape, t2._data.shape[1]))
        return out.mT.contiguous() if transpose else out
    return _unsafe(mv(folded, t2), shape)


def _unsafe(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    from .shape import _unsafe_view

    return _unsafe_view(t, tuple(shape), tuple(t._data.shape))


def _batched(a: Tensor, b: Tensor) -> Tensor:
    a2 = a.unsqueeze(0) if a.ndim == 1 else a
    b2 = b.unsqueeze(-1) if b.ndim == 1 else b
    n, k = a2._data.shape[-2:]
    k2, m = b2._data.shape[-2:]
    batch = infer_size(a2._data.shape[:-2], b2._data.shape[:-2])
    if k != k2:  # torch's bmm of the broadcast batches, folded into one
        check_inference_saved(bmm_op, (a, b))  # torch saves before the kernel checks
        nb = math.prod(batch)
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{nb}, {k}] but "
            f"got: [{nb}, {k2}]."
        )
    if a.dtype is not b.dtype:  # after the shapes, as torch's bmm checks
        raise RuntimeError(f"expected scalar type {a.dtype._short} but found {b.dtype._short}")
    nb = math.prod(batch) if batch else 1
    ae = a2.expand(*batch, n, k).reshape(nb, n, k)
    be = b2.expand(*batch, k, m).reshape(nb, k, m)
    out = bmm(ae, be)
    if b.ndim == 1:
        out = out.squeeze(-1)
    shape: tuple[int, ...] = (*batch, n, m)
    if a.ndim == 1:
        shape = (*batch, m)
    elif b.ndim == 1:
        shape = (*batch, n)
    return _unsafe(out, shape)


def _matmul_method(self: Tensor, other: Any) -> Any:
    # torch's Tensor.__matmul__ turns the argument parser's TypeError into NotImplemented, so
    # that Python reports "unsupported operand type(s) for @"
    if not isinstance(other, Tensor):
        return NotImplemented
    return matmul(self, other)


def _rmatmul(self: Tensor, other: Any) -> Any:
    if not isinstance(other, Tensor):
        return NotImplemented
    return matmul(other, self)


# --- helpers shared by the formulas ---------------------------------------------------------
# Formulas build diagonals, triangles and identities by multiplying with constant masks, so they
# stay differentiable (double backward) with nothing but mul/sum/matmul.


def _const(arr: np.ndarray) -> Tensor:
    return _make(arr)


def _eye(n: int, like: Tensor, m: int | None = None) -> Tensor:
    return _make(np.eye(n, n if m is None else m, dtype=like._data.dtype))


def _mT(t: Tensor) -> Tensor:
    return t.transpose(-2, -1)


def _mH(t: Tensor) -> Tensor:
    """The conjugate transpose (torch's mH): the transpose of a real matrix. The formulas that
    torch writes with mH hold for complex inputs with it (Note [Complex gradients])."""
    t = t.transpose(-2, -1)
    return t.conj() if t._data.dtype.kind == "c" else t


def _conj(t: Tensor) -> Tensor:
    """t.conj() for a complex tensor, t itself for a real one."""
    return t.conj() if t._data.dtype.kind == "c" else t


def _diag(t: Tensor) -> Tensor:
    """The diagonal of a batch of square matrices."""
    return (t * _eye(t._data.shape[-1], t)).sum(-1)


def _diag_embed(v: Tensor) -> Tensor:
    return v.unsqueeze(-1) * _eye(v._data.shape[-1], v)


def _tril(t: Tensor, k: int = 0) -> Tensor:
    """torch's tril (TrilBackward0 in a double-backward graph, 0 above the band even where t
    is inf/nan)."""
    return t.tril(k)


def _triu(t: Tensor, k: int = 0) -> Tensor:
    return t.triu(k)


def _col_major(strides: tuple[int, ...], rows: int) -> bool:
    """torch's test in mm_mat1_backward/mm_mat2_backward: an input stored column by column."""
    return strides[0] == 1 and strides[1] == rows


# torch's mm_mat1_backward / mm_mat2_backward: a gradient comes out in its input's layout, so a
# column-major input (a Linear's weight.t()) gets a gradient whose transpose is contiguous, and
# the weight keeps it without a copy. The raw forms are the same products on arrays.
def _mm_mat1_grad(grad: Tensor, mat2: Tensor, strides: Any, alpha: Any) -> Tensor:
    if _col_major(strides, grad.shape[0]):
        return _scale(mat2.mm(grad.t()).t(), alpha)
    return _scale(grad.mm(mat2.t()), alpha)


def _mm_mat2_grad(grad: Tensor, mat1: Tensor, strides: Any, alpha: Any) -> Tensor:
    if _col_major(strides, mat1.shape[1]):
        return _scale(grad.t().mm(mat1).t(), alpha)
    return _scale(mat1.t().mm(grad), alpha)


def _mm_mat1_raw(grad: np.ndarray, mat2: np.ndarray, strides: Any, alpha: Any) -> np.ndarray:
    if _col_major(strides, grad.shape[0]):
        return _scale(np.matmul(mat2, grad.T).T, alpha)
    return _scale(np.matmul(grad, mat2.T), alpha)


def _mm_mat2_raw(grad: np.ndarray, mat1: np.ndarray, strides: Any, alpha: Any) -> np.ndarray:
    if _col_major(strides, mat1.shape[1]):
        return _scale(np.matmul(grad.T, mat1).T, alpha)
    return _scale(np.matmul(mat1.T, grad), alpha)


def _conj_number(s: Any) -> Any:
    """A Python number's (or a saved 0-d array's) conjugate: complex formulas' alpha and beta."""
    return s.conjugate() if s is not None else s


def _scale(grad: Tensor, s: Any) -> Tensor:
    # torch's maybe_multiply: a factor of 1 leaves the gradient untouched
    if isinstance(s, complex) and np.dtype(getattr(grad, "_data", grad).dtype).kind != "c":
        # a real input's gradient times a complex scalar (1 + 0j included): complex, which
        # torch's engine refuses
        from ..autograd.function import _COMPLEX_GRAD_CHECK

        raise RuntimeError(_COMPLEX_GRAD_CHECK)
    if s == 1:
        return grad
    if type(grad) is np.ndarray:
        if grad.dtype == np.float16:  # torch's opmath: the number as float, one rounding
            return np.multiply(grad, s, dtype=np.float32).astype(np.float16)
        return grad * s
    from .pointwise import _mul_scalar

    # the Scalar's mul (mul.Scalar, MulBackward1 in a double-backward graph); a saved number
    # reaches a Tensor formula as a 0-d Tensor (Note [Saved numbers])
    return _mul_scalar(grad, s.item() if isinstance(s, Tensor) else s)


def _expand_check(shape: tuple[int, ...], target: tuple[int, ...], dt: Any = None) -> None:
    """torch's expand of a bias to the product's shape; with dt, a bias of more dims than the
    product raises expand's own error."""
    lead = len(target) - len(shape)
    if lead < 0 and dt is not None:
        from .shape import expand_rank_error

        raise expand_rank_error(dt, shape, target)
    bad = lead < 0
    for i, s in reversed(list(enumerate(shape))):  # torch's expand checks the last dim first
        if not bad and s != 1 and s != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing "
                f"size ({s}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{shape_str(target)}.  Tensor sizes: {shape_str(shape)}"
            )
    if bad:
        raise RuntimeError(
            f"The expanded size of the tensor ({len(target)}) must be greater or equal to the "
            f"number of dimensions ({len(shape)})"
        )


# --- outer, addmm, addmv, baddbmm, addbmm, trace, kron, tensordot ---------------------------


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """Mirrors `torch.outer` (recorded as torch records it: a view, then a multiply)."""
    try:
        if input.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D")
        if vec2.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.ndim}-D")
        return input.reshape(-1, 1) * vec2
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("outer", (vec2,), {})
        raise


def half_matmul_float(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The float32 sums torch's CPU kernels form for a float16 (batched) matmul a @ b, before
    rounding: each dot product summed over k in order. Products of float16 values are exact
    in float32."""
    f = np.float32
    a, b = a.astype(f), b.astype(f)
    shape = (*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1])
    acc = np.zeros(shape, f)
    term = np.empty_like(acc)
    for i in range(a.shape[-1]):
        np.add(acc, np.multiply(a[..., :, i, None], b[..., None, i, :], out=term), out=acc)
    return acc


def _addmm_half(self: Any, mat1: Any, mat2: Any, beta: Any, alpha: Any) -> np.ndarray:
    """float16 addmm as torch's CPU kernel: each dot product summed over k in order in float32,
    scaled and added to the scaled bias there, and rounded to float16 once. (numpy's float16
    matmul sums the same way but rounds the product before the bias could be added.)"""
    f = np.float32
    if mat2.ndim == 1:  # addmv's matrix-vector product
        acc = half_matmul_float(mat1, mat2[:, None])[:, 0]
    else:
        acc = half_matmul_float(mat1, mat2)
    if alpha != 1:
        acc *= f(alpha)
    bias = np.asarray(self, f) if beta == 1 else np.asarray(self, f) * f(beta)
    return np.add(bias, acc).astype(np.float16)


def _addmm_fwd(self: Any, mat1: Any, mat2: Any, beta: Any, alpha: Any) -> np.ndarray:
    if mat1.dtype.kind != "c":  # a real kernel reads a complex scalar's real part (see
        beta, alpha = _real(beta), _real(alpha)  # _blas_scalars); the backward keeps it
    if mat1.dtype == np.float16 and mat1.ndim == 2 and beta != 0:
        return _addmm_half(self, mat1, mat2, beta, alpha)
    if (
        alpha == 1
        and beta == 1
        and mat1.ndim == 2
        and mat2.ndim == 2
        and self.dtype == mat1.dtype
        and self.ndim <= 2
        and _flip(mat1, mat2)
    ):
        # the bias added while the transposed product is copied to row-major (see _flip)
        prod_t = np.matmul(mat2.T, mat1.T)
        out = np.empty((prod_t.shape[1], prod_t.shape[0]), prod_t.dtype)
        return np.add(prod_t.T, self, out=out)
    prod = np.matmul(mat1, mat2)
    if alpha != 1:
        prod = prod * alpha
    if beta == 0:  # torch ignores input entirely (nan and inf included) when beta is 0
        return np.broadcast_to(prod, prod.shape).astype(prod.dtype, copy=True)
    s = self if beta == 1 else self * beta
    if type(prod) is np.ndarray and s.dtype == prod.dtype and s.ndim <= prod.ndim:
        # the bias added into the fresh product (same sums as s + prod, one array fewer)
        return np.add(prod, s, out=prod)
    return s + prod


def _plus(a: Any, b: Any) -> Any:
    if a is None:
        return b
    return a if b is None else a + b


def _addmm_jvp(prod: Any) -> Any:
    """torch's maybe_multiply(self_t, beta) + maybe_multiply(mat1_t @ mat2, alpha) +
    maybe_multiply(mat1 @ mat2_t, alpha), `prod` the op's product; a missing tangent is a zero
    term, recorded when its primal factor requires grad (Note [Zero tangents])."""

    def rule(
        mat1: Any, mat2: Any, beta: Any, alpha: Any, self_t: Any, mat1_t: Any, mat2_t: Any
    ) -> Any:
        def term(a: Any, b: Any) -> Any:
            return _scale(prod(a, b), alpha)

        t1 = (
            term(mat1_t, mat2)
            if mat1_t is not None
            else ZeroTerm(lambda z: term(z, mat2), mat1, mat2)
        )
        t2 = (
            term(mat1, mat2_t)
            if mat2_t is not None
            else ZeroTerm(lambda z: term(mat1, z), mat2, mat1)
        )
        # summed in torch's order: (self term + mat1 term) + mat2 term
        return add_terms(add_terms(None if self_t is None else _scale(self_t, beta), t1), t2)

    return rule


_addmm = defop(
    "addmm",
    "AddmmBackward0",
    _addmm_fwd,
    jvp=_addmm_jvp(lambda a, b: mm_op(a, b)),
    self=lambda grad, beta: _scale(grad, beta),
    mat1=lambda grad, mat2, alpha, mat1_sym_strides: _mm_mat1_grad(
        grad, mat2, mat1_sym_strides, alpha
    ),
    mat2=lambda grad, mat1, alpha, mat2_sym_strides: _mm_mat2_grad(
        grad, mat1, mat2_sym_strides, alpha
    ),
    raw={
        "self": lambda grad, beta: _scale(grad, beta),
        "mat1": lambda grad, mat2, alpha, mat1_sym_strides: _mm_mat1_raw(
            grad, mat2, mat1_sym_strides, alpha
        ),
        "mat2": lambda grad, mat1, alpha, mat2_sym_strides: _mm_mat2_raw(
            grad, mat1, mat2_sym_strides, alpha
        ),
    },
    complex={
        "self": lambda grad, beta: _scale(grad, _conj_number(beta)),
        "mat1": lambda grad, mat2, alpha, mat1_sym_strides: _mm_mat1_grad(
            grad, mat2.conj(), mat1_sym_strides, _conj_number(alpha)
        ),
        "mat2": lambda grad, mat1, alpha, mat2_sym_strides: _mm_mat2_grad(
            grad, mat1.conj(), mat2_sym_strides, _conj_number(alpha)
        ),
    },
)
_addmv = defop(
    "addmv",
    "AddmvBackward0",
    _addmm_fwd,
    jvp=_addmm_jvp(lambda a, b: mv_op(a, b)),
    self=lambda grad, beta: _scale(grad, beta),
    # torch's grad.ger(vec) (outer: a MulBackward0), times alpha
    mat1=lambda grad, mat2, alpha: _scale(grad.reshape(grad.shape[0], 1) * mat2, alpha),
    mat2=lambda grad, mat1, alpha: _scale(mat1.t().mv(grad), alpha),
    complex={  # torch's: the conjugated factors and scalars (Note [Complex gradients])
        "self": lambda grad, beta: _scale(grad, _conj_number(beta)),
        "mat1": lambda grad, mat2, alpha: _scale(
            grad.reshape(grad.shape[0], 1) * mat2.conj(), _conj_number(alpha)
        ),
        "mat2": lambda grad, mat1, alpha: _scale(mat1.conj().t().mv(grad), _conj_number(alpha)),
    },
)
_baddbmm = defop(
    "baddbmm",
    "BaddbmmBackward0",
    _addmm_fwd,
    jvp=_addmm_jvp(lambda a, b: bmm_op(a, b)),
    self=lambda grad, beta: _scale(grad, beta),
    mat1=lambda grad, mat2, alpha: _scale(grad.bmm(mat2.transpose(1, 2)), alpha),
    mat2=lambda grad, mat1, alpha: _scale(mat1.transpose(1, 2).bmm(grad), alpha),
    complex={
        "self": lambda grad, beta: _scale(grad, _conj_number(beta)),
        "mat1": lambda grad, mat2, alpha: _scale(
            grad.bmm(mat2.transpose(1, 2).conj()), _conj_number(alpha)
        ),
        "mat2": lambda grad, mat1, alpha: _scale(
            mat1.transpose(1, 2).conj().bmm(grad), _conj_number(alpha)
        ),
    },
)


def _addbmm_fwd(self: Any, mat1: Any, mat2: Any, beta: Any, alpha: Any) -> np.ndarray:
    return _addmm_fwd(
        self,
        mat1.transpose(1, 0, 2).reshape(mat1.shape[1], -1),
        mat2.reshape(-1, mat2.shape[2]),
        beta,
        alpha,
    )


def _addbmm_grad_b1(grad: Tensor, mat2: Tensor, alpha: Any) -> Tensor:
    b = mat2._data.shape[0]
    g = grad.unsqueeze(0).expand(b, *grad._data.shape)
    return _scale(g.bmm(mat2.transpose(1, 2)), alpha)


def _addbmm_grad_b2(grad: Tensor, mat1: Tensor, alpha: Any) -> Tensor:
    b = mat1._data.shape[0]
    g = grad.unsqueeze(0).expand(b, *grad._data.shape)
    return _scale(mat1.transpose(1, 2).bmm(g), alpha)


_addbmm = defop(
    "addbmm",
    "AddbmmBackward0",
    _addbmm_fwd,
    jvp=_addmm_jvp(lambda a, b: bmm_op(a, b).sum(0)),
    self=lambda grad, beta: _scale(grad, beta),
    mat1=_addbmm_grad_b1,
    mat2=_addbmm_grad_b2,
    complex={
        "self": lambda grad, beta: _scale(grad, _conj_number(beta)),
        "mat1": lambda grad, mat2, alpha: _addbmm_grad_b1(grad, mat2.conj(), _conj_number(alpha)),
        "mat2": lambda grad, mat1, alpha: _addbmm_grad_b2(grad, mat1.conj(), _conj_number(alpha)),
    },
)


def _check_add_dtypes(input: Tensor, mat1: Tensor, mat2: Tensor) -> None:
    """addmm's and addbmm's dtype checks, in torch's order."""
    for name, a in (("self", input), ("mat1", mat1)):
        if a.dtype is not mat2.dtype:
            raise RuntimeError(
                f"{name} and mat2 must have the same dtype, but got {a.dtype._short} and "
                f"{mat2.dtype._short}"
            )


def _real(v: Any) -> Any:
    return v.real if isinstance(v, complex) else v


_BOOL_KERNELS = {"addmm": "addmm_impl_cpu_", "addmv": "addmv_impl_cpu", "baddbmm": "baddbmm"}


def _blas_scalars(op: str, dt: Any, beta: Any, alpha: Any) -> tuple[Any, Any]:
    """beta and alpha as torch's BLAS-like kernels read them: bool tensors refused, each scalar
    converted to the tensors' type (a float truncated toward zero and wrapped for an integer
    type, a complex one with an imaginary part refused for a real type). A real-valued complex
    scalar stays complex for a floating type: the forward reads its real part, but torch's
    backward multiplies by it, and a complex gradient for a real input is an error there."""
    if dt is _dt.bool_:
        raise NotImplementedError(f"\"{_BOOL_KERNELS[op]}\" not implemented for 'Bool'")
    out = []
    for v in (beta, alpha):
        if not isinstance(v, (bool, int, float, complex)) and isinstance(v, Tensor):
            v = v.item()  # a Number given as a 0-d Tensor: torch reads its value
        if isinstance(v, (bool, int, float, complex)):
            # a float16 matrix-matrix kernel reads its scalars in float (its opmath type)
            check_scalar_fits(v, _dt.float32 if dt is _dt.float16 and op != "addmv" else dt)
            if dt._cat == 1:
                v = np.array(int(v.real if isinstance(v, complex) else v)).astype(dt._np).item()
            if type(v) is bool:
                v = int(v)
        elif not isinstance(v, (Tensor, np.generic)):  # torch's parser takes a Number only
            from .._signatures import _type_name

            name = "beta" if len(out) == 0 else "alpha"
            raise TypeError(f"{op}(): argument '{name}' must be Number, not {_type_name(v)}")
        out.append(v)
    return out[0], out[1]


def _check_scalar_type(a: Tensor, b: Tensor) -> None:
    """bmm's dtype check (and baddbmm's for its batches)."""
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype._short} but found {b.dtype._short}")


def addmm(
    input: Tensor,
    mat1: Tensor,
    mat2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.addmm`: beta * input + alpha * (mat1 @ mat2)."""
    try:
        return _addmm_checked(input, mat1, mat2, beta, alpha, out)
    except Exception:  # torch's parser refuses first: its error, where it has one
        from .._signatures import reraise_as_called

        names = ("mat1", "mat2", "beta", "alpha")
        reraise_as_called("addmm", names, (mat1, mat2, beta, alpha), self=input)
        raise


def _addmm_checked(
    input: Tensor, mat1: Tensor, mat2: Tensor, beta: Any, alpha: Any, out: Tensor | None
) -> Tensor:
    _check_add_dtypes(input, mat1, mat2)  # torch checks dtypes before shapes here
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    a, b = mat1._data.shape, mat2._data.shape
    if a[1] != b[0]:
        check_inference_saved(_addmm, (input, mat1, mat2, beta, alpha))
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})"
        )
    _expand_check(tuple(input._data.shape), (a[0], b[1]), input.dtype)
    beta, alpha = _blas_scalars("addmm", mat1.dtype, beta, alpha)
    return _out(_addmm(input, mat1, mat2, beta, alpha), out, "addmm")


def addmv(
    input: Tensor,
    mat: Tensor,
    vec: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.addmv`: beta * input + alpha * (mat @ vec)."""
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}"
        )
    m, n = mat._data.shape
    if n != vec._data.shape[0] or (input.ndim == 1 and input._data.shape[0] not in (1, m)):
        raise RuntimeError(
            f"size mismatch, got input ({size_at(input._data.shape, 0)}), mat "
            f"({m}x{n}), vec ({vec._data.shape[0]})"
        )
    if not (input.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{input.dtype._short}, {mat.dtype._short}, and {vec.dtype._short}"
        )
    beta, alpha = _blas_scalars("addmv", mat.dtype, beta, alpha)
    return _lout(_addmv(input, mat, vec, beta, alpha), out, "addmv")


def _check_batch(b1: Tensor, b2: Tensor) -> None:
    if b1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    a, b = b1._data.shape, b2._data.shape
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] but "
            f"got: [{b[0]}, {b[1]}]."
        )


def baddbmm(
    input: Tensor,
    batch1: Tensor,
    batch2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.baddbmm`: beta * input + alpha * (batch1 @ batch2), batched."""
    a, b = batch1._data.shape, batch2._data.shape
    # torch's order: input expanded to (batch1.size(0), batch1.size(1), batch2.size(2)) (those
    # sizes read first), dtypes, batches, their dtypes
    target = (size_at(a, 0), size_at(a, 1), size_at(b, 2))
    _expand_check(tuple(input._data.shape), target, input.dtype)
    if input.dtype is not batch1.dtype:
        from .._dtype import CPP_NAMES

        raise RuntimeError(
            f"Input dtypes must be the same, got: input {CPP_NAMES[input.dtype]}, batch1: "
            f"{CPP_NAMES[batch1.dtype]}, batch2: {CPP_NAMES[batch2.dtype]}"
        )
    _check_batch(batch1, batch2)
    _check_scalar_type(batch1, batch2)
    beta, alpha = _blas_scalars("baddbmm", batch1.dtype, beta, alpha)
    return _out(_baddbmm(input, batch1, batch2, beta, alpha), out, "baddbmm")


def addbmm(
    input: Tensor,
    batch1: Tensor,
    batch2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.addbmm`: beta * input + alpha * sum_b(batch1[b] @ batch2[b])."""
    a, b = batch1._data.shape, batch2._data.shape
    # torch expands input to (batch1.size(1), batch2.size(2)) before its checks of the batches
    _expand_check(tuple(input._data.shape), (size_at(a, 1), size_at(b, 2)), input.dtype)
    _check_batch(batch1, batch2)
    _check_add_dtypes(input, batch1, batch2)
    beta, alpha = _blas_scalars("addmm", batch1.dtype, beta, alpha)
    return _out(_addbmm(input, batch1, batch2, beta, alpha), out, "addbmm")


def _trace_fwd(self: np.ndarray, self_sym_sizes: Any) -> np.ndarray:
    if self.dtype == np.bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    dt = self.dtype if self.dtype.kind in "fc" else np.int64
    return np.asarray(np.trace(self, dtype=dt))


def _trace_backward(grad: Tensor, sizes: Any) -> Tensor:
    """torch's trace_backward: zeros(n * m).index_fill_(0, arange(0, n * m, m + 1), grad)
    viewed as (n, m) (IndexFillBackward1 and ViewBackward0 in a double-backward graph; the
    in-place fill leaves the gradient at version 2, as torch's)."""
    from .indexing import index_fill

    n, m = sizes
    flat = _make(np.zeros(n * m, grad._data.dtype))
    # the diagonal's min(n, m) positions (torch's arange stops there for a tall matrix too)
    diag = np.arange(0, min(n, m) * (m + 1), m + 1, dtype=np.int64)
    r = index_fill(flat, 0, _make(diag), grad)
    r._bump()
    r._bump()
    return r.view(n, m)


_trace = defop(
    "trace",
    "TraceBackward0",
    _trace_fwd,
    dtype="keep",
    jvp=LINEAR,
    self=lambda grad, self_sym_sizes: _trace_backward(grad, self_sym_sizes),
    complex=True,  # linear
)


def trace(input: Tensor) -> Tensor:
    """Mirrors `torch.trace` (2-D input only; integer inputs give int64)."""
    if input.dtype is _dt.bool_:  # torch's dispatch refuses bool before the shape check
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return _trace(input, tuple(input._data.shape))


def kron(input: Tensor, other: Tensor) -> Tensor:
    """Mirrors `torch.kron`, built as torch builds it (unsafe views around one multiply)."""
    try:
        nd = max(input.ndim, other.ndim)
        pa, pb = nd - input.ndim, nd - other.ndim
        sa, sb = input._data.shape, other._data.shape
        a_shape: list[int] = []
        b_shape: list[int] = []
        out_shape: list[int] = []
        for i in range(nd):
            x = sa[i - pa] if i >= pa else 1
            y = sb[i - pb] if i >= pb else 1
            a_shape += [x, 1]
            b_shape += [1, y]
            out_shape.append(x * y)
        prod = _unsafe(input, tuple(a_shape)) * _unsafe(other, tuple(b_shape))
        return _unsafe(prod, tuple(out_shape))
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("kron", (other,), {})
        raise


def tensordot(a: Tensor, b: Tensor, dims: Any = 2, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.tensordot`: permute, flatten to matrices, one mm, view back."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.ndim or dims > b.ndim:
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da = list(range(-dims, 0))
        db = list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    sa, sb = a._data.shape, b._data.shape
    ca = [wrap_dim(d, a.ndim) for d in da]
    cb = [wrap_dim(d, b.ndim) for d in db]
    for x, y, wx, wy in zip(da, db, ca, cb, strict=True):
        if sa[wx] != sb[wy]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {sa[wx]} in dim {x} "
                f"and second has size {sb[wy]} in dim {y}"
            )
    fa = [i for i in range(a.ndim) if i not in ca]
    fb = [i for i in range(b.ndim) if i not in cb]
    k = math.prod([sa[i] for i in ca])
    p = math.prod([sa[i] for i in fa])
    q = math.prod([sb[i] for i in fb])
    am = a.permute((*fa, *ca)).reshape(p, k)  # (a 0-d tensor: no dims)
    bm = b.permute((*cb, *fb)).reshape(k, q)
    r = mm(am, bm).reshape((*[sa[i] for i in fa], *[sb[i] for i in fb]))
    if out is not None and out.dtype is not r.dtype:
        raise RuntimeError(
            f"tensordot: Expected the output tensor to have dtype {r.dtype._short}, but got an "
            f"output tensor with dtype {out.dtype._short}"
        )
    return _lout(r, out, None, "none")


# --- einsum: see ops/einsum.py ---------------------------------------------------------------

from .einsum import einsum  # noqa: E402

# --- torch.linalg: inverse, determinants, solve -----------------------------------------------


class _LinAlgError(RuntimeError):
    """Mirrors `torch._C._LinAlgError`, public as `torch.linalg.LinAlgError`."""


def _batch_prefix(shape: tuple[int, ...], k: int) -> str:
    return f"(Batch element {k}): " if len(shape) > 2 else ""


def _check_matrix(A: Tensor, fname: str, square: bool = True, late: bool = False) -> Any:
    """torch's checks of a (batch of) matri(ces) A. Where torch lets a dtype through to a
    kernel that lacks it, that kernel's error is raised after the shape checks, or returned
    (for the caller to raise after its own checks) when `late`."""
    if A.ndim < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    dt = A.dtype
    kernel = None
    if not (dt.is_floating_point or dt.is_complex):
        kernel = _INTEGER_KERNELS.get(fname)
        if kernel is None:
            raise RuntimeError(
                f"{fname}: Expected a floating point or complex tensor as input. Got {dt._short}"
            )
    elif dt.itemsize < 4 and dt.is_floating_point:  # (bfloat16's reads 2)
        kernel = _LOW_PRECISION_KERNELS.get(fname)
        if kernel is None:
            raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got {dt._short}")
    m, n = A._data.shape[-2:]
    if square and m != n:
        raise RuntimeError(
            f"{fname}: A must be batches of square matrices, but they are {m} by {n} matrices"
        )
    if kernel is None:
        return None
    # the LAPACK kernel torch dispatches to has no version for this dtype
    if kernel.startswith("This"):
        err: Exception = RuntimeError(kernel)
    else:
        err = NotImplementedError(f"\"{kernel}\" not implemented for '{dt._short}'")
    if late:
        return err
    raise err


# The ops whose float16 input gets past torch's argument checks and fails in the kernel
# (NotImplementedError naming it), and those that fail with their own wording; any other
# linalg function rejects a low-precision dtype up front.
_LOW_PRECISION_KERNELS = {
    "linalg.qr": "geqrf_cpu",
    "linalg.det": "lu_cpu",
    "linalg.solve": "lu_cpu",
    "linalg.svd": "linalg_svd_cpu",
    "linalg.eigh": "linalg_eigh_cpu",
    "linalg.cholesky": "cholesky_cpu",
    "cholesky": "cholesky_cpu",
    "torch.linalg.lstsq": "This function doesn't handle types other than float and double",
    "torch.linalg.lu_solve": "linalg.lu_solve_cpu",
}
# The same for integer and bool inputs: the ops torch checks for a floating dtype only in the
# kernel's dispatch.
_INTEGER_KERNELS = {
    "linalg.eigh": "linalg_eigh_cpu",
    "cholesky": "cholesky_cpu",
    "torch.linalg.lstsq": "This function doesn't handle types other than float and double",
}


def _info(batch: tuple[int, ...]) -> np.ndarray:
    return np.zeros(batch, np.int32)


def _lu_fallback(
    A: np.ndarray, B: np.ndarray, adjoint: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """What LAPACK's getrf + getrs give for a batch with singular matrices: the solution of
    A X = B (A^T X = B when adjoint) by substitution (inf/nan past a zero pivot, no error) and
    getrf's info."""
    from .linalg_extra import _getrf, _lu_solve_np

    LU, piv, info = _getrf(A)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        X = _lu_solve_np(LU, piv, B, adjoint)
    return X.astype(A.dtype, copy=False), info


def _inv_fwd(A: np.ndarray, fname: str | None) -> tuple[np.ndarray, np.ndarray]:
    """The inverse and LAPACK's info; raises torch's error for a singular matrix when fname
    (the function to name) is given, as torch's check_errors does."""
    if A.size == 0:
        return np.empty_like(A), _info(A.shape[:-2])
    try:
        return np.linalg.inv(A), _info(A.shape[:-2])
    except np.linalg.LinAlgError:
        pass
    # numpy's LU met an exact zero pivot; LAPACK's getrf, ordering its sums otherwise, may
    # round it to a tiny nonzero one (torch then returns a huge inverse and info 0)
    eye = np.broadcast_to(np.eye(A.shape[-1], dtype=A.dtype), A.shape)
    X, info = _lu_fallback(A, eye)
    if fname is not None and info.any():
        k = int(np.flatnonzero(info)[0])
        raise _LinAlgError(
            f"{fname}: {_batch_prefix(A.shape, k)}The diagonal element {int(info.flat[k])} is "
            "zero, the inversion could not be completed because the input matrix is singular."
        )
    return X, info


def _inv_grad(grad: Tensor, result: Tensor) -> Tensor:
    rh = _mH(result)
    return -matmul(rh, matmul(grad, rh))


_inv_ex = defop(
    "linalg_inv_ex",
    "LinalgInvExBackward0",
    _inv_fwd,
    n_outputs=2,
    diff_outputs=(0,),
    jvp=lambda A_t, result: (-matmul(result[0], matmul(A_t, result[0])), None),
    A=lambda grads, result: _inv_grad(grads[0], result),
    complex=True,  # written with mH, as torch's
)


def _inv(A: Tensor) -> Tensor:
    return _inv_ex(A, "linalg.inv")[0]


def inv(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.inv`."""
    _check_matrix(A, "linalg.inv")
    return _lout(_inv(A), out, "linalg_inv_ex")


def inv_ex(A: Tensor, *, check_errors: bool = False, out: Any = None) -> Any:
    """Mirrors `torch.linalg.inv_ex`: (inverse, info), inf/nan where A is singular."""
    _check_matrix(A, "linalg.inv")
    outs = _inv_ex(A, "linalg.inv_ex" if check_errors else None)
    outs = _louts(outs, out, "linalg_inv_ex")
    return _return_type("linalg_inv_ex", ("inverse", "info"), outs)


def _det_fwd(A: np.ndarray) -> np.ndarray:
    # numpy's float64 det cast to float32 overflows to inf; a nan input gives nan silently
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(np.linalg.det(A), A.dtype)


def _det_grad(grad: Tensor, result: Tensor, A: Tensor) -> Tensor:
    """torch's linalg_det_backward: grad * conj(det) * A^{-H}, via the SVD where A is
    singular."""
    shape = A._data.shape
    n = shape[-1]
    if A._data.size == 0:
        return _make(np.zeros_like(A._data))
    if n == 1:
        return grad.unsqueeze(-1).unsqueeze(-1).expand(tuple(shape))
    from .. import _grad_mode

    eps = np.finfo(A._data.dtype).eps
    if not _grad_mode.STATE.grad:
        # torch's first-order path: lu_solve with the forward's LU, a zero pivot replaced by eps
        # (where that LU meets an exact zero pivot det is 0, so is the gradient: not the
        # cofactor matrix); det taken from that LU, whose zero pivots are torch's
        return _make(_lu_solve_det(A, grad._data, eps))
    d = diag_embed((grad * _conj(result)).unsqueeze(-1).expand(tuple(shape[:-1]))).mT
    singular = np.abs(result._data) < 100 * eps
    if not singular.any():
        return _solve(_mH(A), d, True, False)
    if singular.all():
        return _det_grad_singular(grad, A)
    # a batch of both kinds: each path sees a harmless stand-in for the matrices it skips
    mask = _make(singular[..., None, None])
    eye = _make(np.broadcast_to(np.eye(n, dtype=A._data.dtype), shape).copy())
    distinct = _make(np.broadcast_to(np.diag(np.arange(1, n + 1)).astype(A._data.dtype), shape))
    from .pointwise import where

    return where(
        mask,
        _det_grad_singular(grad, where(mask, A, distinct)),
        _solve(_mH(where(mask, eye, A)), d, True, False),
    )


def _lu_solve_det(A: Tensor, g: np.ndarray, eps: float | None) -> np.ndarray:
    """A^{-H} diag(g) as torch's slogdet backward solves it without a graph (det's when eps is
    given: A^{-H} diag(g conj(det)), det from the same LU, its zero pivots set to eps): with
    the LU torch's forward computed (of A^T for a contiguous real A, of A otherwise), inf/nan
    past a zero pivot."""
    from .linalg_extra import _getrf, _lu_solve_fwd

    a = A._data
    n = a.shape[-1]
    use_T = A.is_contiguous() and a.dtype.kind != "c"
    LU, piv, _ = _getrf(np.swapaxes(a, -1, -2) if use_T else a)
    diag = np.diagonal(LU, axis1=-2, axis2=-1)
    if eps is not None:
        swaps = (piv != np.arange(1, n + 1, dtype=piv.dtype)).sum(-1)
        g = g * np.conj(np.where(swaps % 2, -1, 1) * diag.prod(-1))
        LU = LU + (np.where(diag == 0, eps, 0)[..., None] * np.eye(n)).astype(LU.dtype)
    d = (g[..., None, None] * np.eye(n)).astype(a.dtype)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _lu_solve_fwd(LU, piv, d, True, not use_T)


def _det_grad_singular(grad: Tensor, A: Tensor) -> Tensor:
    # det A = det U det Vh prod S, whose product rule needs no division
    U, S, Vh = _svd(A, True, None, None)
    alpha = _conj(det(U) * det(Vh)) * grad
    n = S._data.shape[-1]
    cols = [S[..., j] for j in range(n)]
    others = []
    for i in range(n):
        p = alpha
        for j in range(n):
            if j != i:
                p = p * cols[j]
        others.append(p)
    D = stack(others, -1)
    return matmul(U * D.unsqueeze(-2), Vh)


def _det_jvp(A: Tensor, A_t: Tensor, result: Tensor) -> Tensor:
    """<d det / dA, A_t>: det * tr(A^{-1} A_t) where A is invertible, and the SVD product rule
    of the backward formula where it is singular."""
    ones = _make(np.ones(result._data.shape, result._data.dtype))
    # the backward formula gives conj(det) A^{-H}: its conjugate pairs with A_t
    return (_conj(_det_grad(ones, result, A)) * A_t).sum((-2, -1))


_det = defop("linalg_det", "LinalgDetBackward0", _det_fwd, jvp=_det_jvp, A=_det_grad, complex=True)


def det(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.det`."""
    _check_matrix(A, "linalg.det")
    return _lout(_det(A), out, "_linalg_det")


def _det_legacy(input: Tensor) -> Tensor:
    """Mirrors `torch.det` / `Tensor.det` (no out=)."""
    return det(input)


_det_legacy.__name__ = _det_legacy.__qualname__ = "det"  # torch's TypeError for out= names det()


def _slogdet_fwd(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sign, logabs = np.linalg.slogdet(A)
    return np.asarray(sign, A.dtype), np.asarray(logabs, np.finfo(A.dtype).dtype)


def _slogdet_grad(grads: list[Tensor], A: Tensor, result: Tensor) -> Tensor:
    # torch's node saves both outputs (slogdet_backward reads the sign for complex A)
    g = grads[1]
    n = A._data.shape[-1]
    from .. import _grad_mode

    if not _grad_mode.STATE.grad and A._data.size:  # torch's lu_solve with the forward's LU
        return _make(_lu_solve_det(A, g._data, None))
    return _solve(_mT(A), _diag_embed(g.unsqueeze(-1).expand(*g._data.shape, n)), True, False)


def _slogdet_grad_complex(grads: list[Tensor], A: Tensor, result: Tensor) -> Tensor:
    """torch's slogdet_backward for complex A: the sign's gradient enters as
    i Im(grad_sign * conj(sign)), then A^{-H} diag(g)."""
    gs, g = grads
    if gs is not None:
        t = (gs * result.conj()).imag * 1j
        g = t if g is None else g.to(t.dtype) + t
    n = A._data.shape[-1]
    d = _diag_embed(g.unsqueeze(-1).expand(*g._data.shape, n)).to(A.dtype)
    return _solve(_mH(A), d, True, False)


def _slogdet_jvp(A: Tensor, A_t: Tensor, result: tuple[Tensor, Tensor]) -> tuple[Tensor, Tensor]:
    """sign: zero (real inputs); logabsdet: tr(A^{-1} A_t)."""
    sign = result[0]
    return _make(np.zeros_like(sign._data)), _diag(_solve(A, A_t, True, False)).sum(-1)


_slogdet = defop(
    "linalg_slogdet",
    "LinalgSlogdetBackward0",
    _slogdet_fwd,
    n_outputs=2,
    jvp=_slogdet_jvp,
    A=_slogdet_grad,
    complex={"A": _slogdet_grad_complex},
)


def slogdet(A: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.linalg.slogdet`: the named tuple (sign, logabsdet)."""
    _check_matrix(A, "linalg.slogdet")
    outs = _louts(_slogdet(A), out, "_linalg_slogdet")
    return _return_type("linalg_slogdet", ("sign", "logabsdet"), outs)


def slogdet_legacy(input: Tensor, *, out: Any = None) -> Any:
    """Mirrors `torch.slogdet` / `Tensor.slogdet`: linalg.slogdet as the named tuple
    torch.return_types.slogdet."""
    _check_matrix(input, "linalg.slogdet")
    outs = _louts(_slogdet(input), out, "_linalg_slogdet")
    return _return_type("slogdet", ("sign", "logabsdet"), outs)


def logdet(input: Tensor) -> Tensor:
    """Mirrors `torch.logdet`: log(det); nan for a negative real determinant, log(sign) +
    logabsdet for complex input."""
    from .pointwise import where

    _check_matrix(input, "logdet")
    sign, logabs = _slogdet(input)
    if input._data.dtype.kind == "c":  # torch's: the complex log of the determinant
        return sign.log() + logabs
    nan = _make(np.asarray(np.nan, logabs._data.dtype))
    return where(sign == -1, nan, logabs)


def _solve_fwd(
    A: np.ndarray, B: np.ndarray, left: bool, vector: bool, fname: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """X and LAPACK's info; raises torch's error for a singular A when fname is given."""
    if vector:
        B = B[..., None]
    if not left:
        B = np.swapaxes(B, -1, -2)
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    try:
        X, info = np.linalg.solve(A if left else np.swapaxes(A, -1, -2), B), _info(A.shape[:-2])
    except np.linalg.LinAlgError:
        # torch factors A for both AX = B and XA = B (solved with its transpose); the inf/nan
        # pattern past a zero pivot can differ from LAPACK's, which orders its sums otherwise,
        # and a pivot numpy's LU finds exactly zero LAPACK's may round to a tiny nonzero one
        X, info = _lu_fallback(np.broadcast_to(A, (*batch, *A.shape[-2:])), B, not left)
        lead = (0,) * (len(batch) - A.ndim + 2)  # info has A's batch shape
        info = info[(*lead, *(slice(0, 1) if d == 1 else slice(None) for d in A.shape[:-2]))]
        if fname is not None and info.any():
            k = int(np.flatnonzero(info)[0])  # the batch element of A, as torch's info
            raise _LinAlgError(
                f"{fname}: {_batch_prefix(A.shape, k)}The solver failed because the "
                "input matrix is singular."
            ) from None
    if not left:  # row-major, as torch's XA = B solution (and no transposed view of a square
        # array: the engine would keep its base as a leaf's .grad, see _kept_array)
        X = np.ascontiguousarray(np.swapaxes(X, -1, -2))
    return (X[..., 0] if vector else X), info


def _solve_grad_B(grad: Tensor, A: Tensor, left: bool, vector: bool) -> Tensor:
    if vector:  # torch solves for a matrix gX (a column) and squeezes the result
        return _solve(_mH(A), grad.unsqueeze(-1), left, False).squeeze(-1)
    return _solve(_mH(A), grad, left, vector)


def _solve_grad_A(grad: Tensor, A: Tensor, result: Tensor, left: bool, vector: bool) -> Tensor:
    # torch's linalg_solve_backward: gB = A^{-H} gX, gA = -gB X^H (-X^H gB when not left), a
    # vector gX and X taken as columns
    if vector:
        grad, result = grad.unsqueeze(-1), result.unsqueeze(-1)
    gB = _solve(_mH(A), grad, left, False)
    return -matmul(gB, _mH(result)) if left else -matmul(_mH(result), gB)


def _solve_jvp(A: Tensor, left: bool, vector: bool, A_t: Any, B_t: Any, result: Any) -> Any:
    """torch's linalg_solve_jvp: X_t solves A X_t = B_t - A_t X (X_t A = B_t - X A_t); a
    vector B comes with left=True only (solve rejects the other)."""
    rhs = B_t
    if A_t is not None:
        X = result[0]
        if vector:
            AX = matmul(A_t, X.unsqueeze(-1)).squeeze(-1)
        else:
            AX = matmul(A_t, X) if left else matmul(X, A_t)
        rhs = -AX if rhs is None else rhs - AX
    return _solve(A, rhs, left, vector), None


_solve_ex = defop(
    "linalg_solve_ex",
    "LinalgSolveExBackward0",
    _solve_fwd,
    n_outputs=2,
    diff_outputs=(0,),
    jvp=_solve_jvp,
    A=lambda grads, A, result, left, vector: _solve_grad_A(grads[0], A, result, left, vector),
    B=lambda grads, A, left, vector: _solve_grad_B(grads[0], A, left, vector),
    complex=True,  # written with mH, as torch's
)


def _solve(A: Tensor, B: Tensor, left: bool, vector: bool) -> Tensor:
    return _solve_ex(A, B, left, vector, "torch.linalg.solve")[0]


def _check_solve(A: Tensor, B: Tensor, left: bool, fname: str) -> bool:
    """torch's checks of solve's arguments; whether B is a (batch of) vector(s)."""
    _check_matrix(A, fname)
    if A.dtype is not B.dtype:
        raise RuntimeError(
            f"{fname}: Expected A and B to have the same dtype, but found A of type "
            f"{A.dtype._short} and B of type {B.dtype._short} instead"
        )
    sa, sb = A._data.shape, B._data.shape
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and sb == sa[:-1])
    n = sa[-1]
    if vector:
        ok = left and sb[-1] == n  # torch takes no vector B when left=False
        shown = f"{sb[-1]}x1"
    else:
        ok = B.ndim >= 2 and (sb[-2] if left else sb[-1]) == n
        shown = f"{sb[-2]}x{sb[-1]}" if B.ndim >= 2 else f"{sb[-1]}x1"
    if not ok:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"{fname}: Incompatible shapes of A and B for the equation {eq} "
            f"({sa[-2]}x{sa[-1]} and {shown})"
        )
    if not vector and sb[:-2] != sa[:-2]:  # B's batch dims broadcast with A's: torch's error
        infer_size(sb[:-2], sa[:-2])
    return vector


def solve(A: Tensor, B: Tensor, *, left: bool = True, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.solve`: X with AX = B (XA = B when left=False)."""
    if left is not True and left is not False:  # torch's parser takes a bool only
        _parser_check("linalg_solve", {"left": left})
    vector = _check_solve(A, B, left, "linalg.solve")
    return _lout(_solve(A, B, left, vector), out, "_linalg_solve_ex")


def solve_ex(
    A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False, out: Any = None
) -> Any:
    """Mirrors `torch.linalg.solve_ex`: (result, info), inf/nan where A is singular."""
    vector = _check_solve(A, B, left, "linalg.solve")
    outs = _solve_ex(A, B, left, vector, "torch.linalg.solve_ex" if check_errors else None)
    outs = _louts(outs, out, "_linalg_solve_ex")
    return _return_type("linalg_solve_ex", ("result", "info"), outs)


# --- torch.linalg: factorizations -----------------------------------------------------------


def _parser_check(key: str, given: Any) -> None:
    """A flag that is neither True nor False: torch's argument-parser error (given: the
    method form's positional arguments, or the keyword-only flags by name)."""
    from .._signatures import reraise

    if isinstance(given, dict):
        reraise(key, (), given)
    reraise(key, given, {})


def _save_outputs(outs: tuple[Tensor, ...], names: dict[str, int]) -> None:
    """Save more outputs than the first for the formulas.

    The registry saves only the first output (as `result`); the formulas of svd, eigh and qr
    read the others through placeholder parameters, filled in here with saved outputs.
    """
    node = outs[0]._grad_fn
    for name, k in names.items():
        resave(node, name, outs[k])


def _potf2(a: np.ndarray) -> tuple[np.ndarray, int]:
    """LAPACK's left-looking Cholesky of one matrix, stopped as it stops at the first leading
    minor that is not positive-definite: the columns before it factored, the failed diagonal
    entry updated, the rest of A as it was; and info (that minor's order, 0 when none)."""
    L = np.array(a)
    for j in range(L.shape[-1]):
        # LAPACK's potrf reads the diagonal's real part only (A is taken as Hermitian)
        d = L[j, j].real - np.vdot(L[j, :j], L[j, :j]).real
        if not d > 0:
            L[j, j] = d
            return L, j + 1
        L[j, j] = np.sqrt(d)
        L[j + 1 :, j] = (L[j + 1 :, j] - L[j + 1 :, :j] @ L[j, :j].conj()) / L[j, j]
    return L, 0


def _cholesky_fwd(A: np.ndarray, upper: bool, fname: str | None) -> tuple[np.ndarray, np.ndarray]:
    """L (U = L^H when upper) and LAPACK's info; raises torch's error for an input that is not
    positive-definite when fname is given."""
    info = _info(A.shape[:-2])
    if A.size == 0:
        return np.empty_like(A), info
    if upper:  # LAPACK's 'U' reads A's upper triangle: the lower one of A^H
        A = np.swapaxes(A, -1, -2).conj()
    try:
        L = np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        flat = A.reshape(-1, *A.shape[-2:])
        L = np.empty_like(flat)
        codes = info.reshape(-1)
        for k, a in enumerate(flat):
            L[k], codes[k] = _potf2(a)
            if codes[k] and fname is not None:
                raise _LinAlgError(
                    f"{fname}: {_batch_prefix(A.shape, k)}The factorization could not be "
                    "completed because the input is not positive-definite (the leading "
                    f"minor of order {codes[k]} is not positive-definite)."
                ) from None
        L = np.tril(L.reshape(A.shape))
    return (np.swapaxes(L, -1, -2).conj() if upper else L), info


def _cholesky_grad(grad: Tensor, result: Tensor, upper: bool) -> Tensor:
    """torch's cholesky_backward: L^{-H} Phi(L^H gL) L^{-1}, Phi the symmetrised lower part."""
    L = _mH(result) if upper else result
    gL = _mH(grad) if upper else grad
    gA = _tril(matmul(_mH(L), gL))
    from .linalg_extra import _trsm  # torch's linalg_solve_triangular, twice
    from .pointwise import _mul_scalar

    gA = _mul_scalar(gA + _mH(_tril(gA, -1)), 0.5)  # torch's 0.5 * (...): mul.Scalar

    gA = _trsm(_mH(L), gA, True, True, False)  # L^{-H} gA
    return _trsm(L, gA, False, False, False)  # ... L^{-1}


def _cholesky_jvp(A_t: Tensor, result: Tensor, upper: bool) -> Tensor:
    """torch's cholesky_jvp: L_t = L Phi(L^{-1} A_t L^{-H}), Phi the lower part, half diagonal."""
    L = _mT(result) if upper else result
    X = _solve(L, A_t, True, False)  # L^{-1} A_t
    X = _solve(_mT(L), X, False, False)  # ... L^{-H}
    X = _tril(X) - 0.5 * _diag_embed(_diag(X))
    L_t = matmul(L, X)
    return _mT(L_t) if upper else L_t


_cholesky_ex = defop(
    "linalg_cholesky_ex",
    "LinalgCholeskyExBackward0",
    _cholesky_fwd,
    n_outputs=2,
    diff_outputs=(0,),
    jvp=lambda A_t, result, upper: (_cholesky_jvp(A_t, result[0], upper), None),
    A=lambda grads, result, upper: _cholesky_grad(grads[0], result, upper),
    complex=True,  # written with mH, as torch's
)
_cholesky_legacy = defop(
    "cholesky",
    "CholeskyBackward0",
    lambda A, upper, fname: _cholesky_fwd(A, upper, fname)[0],
    jvp=_cholesky_jvp,
    A=_cholesky_grad,
    complex=True,
)


def cholesky(A: Tensor, *, upper: bool = False, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.cholesky`."""
    if upper is not False and upper is not True:  # torch's parser takes a bool only
        _parser_check("linalg_cholesky", {"upper": upper})
    _check_matrix(A, "linalg.cholesky")
    return _lout(_cholesky_ex(A, upper, "linalg.cholesky")[0], out, "linalg_cholesky_ex")


def cholesky_ex(
    A: Tensor, *, upper: bool = False, check_errors: bool = False, out: Any = None
) -> Any:
    """Mirrors `torch.linalg.cholesky_ex`: (L, info); where A is not positive-definite, L holds
    LAPACK's partial factorization."""
    if (upper is not False and upper is not True) or (
        check_errors is not False and check_errors is not True
    ):
        _parser_check("linalg_cholesky_ex", {"upper": upper, "check_errors": check_errors})
    _check_matrix(A, "linalg.cholesky")
    outs = _cholesky_ex(A, upper, "linalg.cholesky_ex" if check_errors else None)
    outs = _louts(outs, out, "linalg_cholesky_ex")
    return _return_type("linalg_cholesky_ex", ("L", "info"), outs)


def cholesky_legacy(input: Tensor, upper: bool = False, *, out: Tensor | None = None) -> Tensor:
    """Mirrors the deprecated `torch.cholesky` (CholeskyBackward0)."""
    if upper is not False and upper is not True:  # torch's parser takes a bool only
        _parser_check("cholesky", (upper,))
    try:
        # torch warns once a process (TORCH_WARN_ONCE)
        warn_once(
            "cholesky_deprecated",
            "torch.cholesky is deprecated in favor of "
            "torch.linalg.cholesky and will be removed in a "
            "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
            "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
            "replaced with\nU = torch.linalg.cholesky(A).mH\nThis "
            "transform will produce equivalent "
            "results for all valid (symmetric positive definite) inputs.",
        )
        _check_matrix(input, "cholesky")
        return _out(_cholesky_legacy(input, upper, "cholesky"), out, "cholesky")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("cholesky", (upper,), {})
        raise


def _qr_fwd(A: np.ndarray, mode: str, R_: Any) -> tuple[np.ndarray, np.ndarray]:
    m, n = A.shape[-2:]
    k = min(m, n)
    batch = A.shape[:-2]
    if A.size == 0:
        qc = m if mode == "complete" else k
        Q = np.broadcast_to(np.eye(m, qc, dtype=A.dtype), (*batch, m, qc)).copy()
        R = np.zeros((*batch, qc if mode == "complete" else k, n), A.dtype)
        return (np.zeros((0,), A.dtype) if mode == "r" else Q), R
    if mode == "r":
        return np.zeros((0,), A.dtype), np.linalg.qr(A, mode="r")
    Q, R = np.linalg.qr(A, mode=mode)
    return Q, R


_QR_R_ONLY = (
    "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
    "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
)


def _qr_grad(grads: list[Tensor], result: Tensor, R_: Tensor, mode: str) -> Tensor:
    """torch's linalg_qr_backward."""
    from .linalg_extra import solve_triangular as _solve_triangular

    if mode == "r":
        raise RuntimeError(_QR_R_ONLY)
    Q, R = result, R_
    gQ, gR = grads
    m, n = Q._data.shape[-2], R._data.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    gA = matmul(gR, _mH(R)) - matmul(_mH(Q), gQ)
    if m >= n:
        sym = _triu(gA)
        sym = sym + _mH(sym)
        sym = sym - 0.5 * _diag_embed(_diag(sym))  # the diagonal's real part halved
        gA = matmul(Q, sym) + gQ
        # X R^H = gA
        return _solve_triangular(_mH(R), gA, upper=False, left=False)
    X = -gA
    skew = X - _mH(X)
    # lower part; the diagonal's imaginary part halved (a real skew matrix's diagonal is 0)
    skew = _tril(skew) - 0.5 * _diag_embed(_diag(skew))
    gA = matmul(Q, skew)
    gA = _solve_triangular(_mH(R[..., :m]), gA, upper=False, left=False)
    from .._creation import zeros

    pad = zeros(*gA._data.shape[:-1], n - m, dtype=gA.dtype)
    return cat([gA, pad], -1) + matmul(Q, gR)


def _qr_jvp(A_t: Tensor, result: tuple[Tensor, Tensor], mode: str) -> tuple[Tensor, Tensor]:
    """torch's linalg_qr_jvp.

    m >= n: with C = Q^H A_t R^{-1} (skew part Q^H Q_t plus upper part R_t R^{-1}), the upper
    part is triu(C + C^H) with its diagonal halved; then R_t = upper R, Q_t = A_t R^{-1} - Q
    upper. m < n: with C = Q^H A_t1 R1^{-1} on the first m columns, the skew part is
    Omega = tril(C, -1) - tril(C, -1)^H; then Q_t = Q Omega and R_t = Q^H A_t - Omega R.
    """
    if mode == "r":
        raise RuntimeError(_QR_R_ONLY)
    Q, R = result
    m, n = A_t._data.shape[-2:]
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    if m >= n:
        dARinv = _solve(R, A_t, False, False)
        C = matmul(_mT(Q), dARinv)
        up = _triu(C + _mT(C))
        up = up - 0.5 * _diag_embed(_diag(up))
        return dARinv - matmul(Q, up), matmul(up, R)
    QhdA = matmul(_mT(Q), A_t)
    C = _solve(R[..., :m], QhdA[..., :m], False, False)
    skew = _tril(C, -1)
    skew = skew - _mT(skew)
    return matmul(Q, skew), QhdA - matmul(skew, R)


_qr = defop(
    "linalg_qr",
    "LinalgQrBackward0",
    _qr_fwd,
    n_outputs=2,
    jvp=_qr_jvp,
    A=_qr_grad,
    complex=True,  # written with mH, as torch's
)


def qr(A: Tensor, mode: str = "reduced", *, out: Any = None) -> Any:
    """Mirrors `torch.linalg.qr`: the named tuple (Q, R)."""
    if A.ndim < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    _check_matrix(A, "linalg.qr", square=False)
    outs = _qr(A, mode, None)
    _save_outputs(outs, {"R_": 1})
    return _return_type("linalg_qr", ("Q", "R"), _louts(outs, out, "linalg_qr"))


def _svd_fwd(A: np.ndarray, full_matrices: bool, S_: Any, Vh_: Any) -> tuple[np.ndarray, ...]:
    m, n = A.shape[-2:]
    k = min(m, n)
    batch = A.shape[:-2]
    real = np.finfo(A.dtype).dtype
    if A.size == 0:
        uc, vr = (m, n) if full_matrices else (k, k)
        U = np.broadcast_to(np.eye(m, uc, dtype=A.dtype), (*batch, m, uc)).copy()
        Vh = np.broadcast_to(np.eye(vr, n, dtype=A.dtype), (*batch, vr, n)).copy()
        return U, np.zeros((*batch, k), real), Vh
    U, S, Vh = _np_svd(A, full_matrices=full_matrices)
    return U, S.astype(real, copy=False), Vh


def _np_svd(A: np.ndarray, **kw: Any) -> Any:
    """np.linalg.svd, with torch's error where LAPACK's gesdd fails on non-finite values."""
    try:
        return np.linalg.svd(A, **kw)
    except np.linalg.LinAlgError:
        flat = A.reshape(-1, *A.shape[-2:])
        for k, a in enumerate(flat):
            try:
                np.linalg.svd(a, **kw)
            except np.linalg.LinAlgError:
                if np.isfinite(a).all():
                    raise
                raise _LinAlgError(
                    f"linalg.svd: {_batch_prefix(A.shape, k)}The algorithm failed to converge "
                    "because the input matrix contained non-finite values."
                ) from None
        raise


def _defined(g: Tensor) -> bool:
    # the registry fills the gradient of an unused output with zeros; torch leaves it undefined
    # and takes a cheaper path that has no 0/0 at repeated singular values or eigenvalues
    return g._rg or bool(g._data.any())


def _svd_grad(
    grads: list[Tensor], result: Tensor, S_: Tensor, Vh_: Tensor, full_matrices: bool
) -> Tensor:
    """torch's svd_backward (written with mH: complex inputs too)."""
    gU, gS, gVh = grads
    U, S, Vh = result, S_, Vh_
    if full_matrices:
        k = S._data.shape[-1]
        U, gU = U[..., :k], gU[..., :k]
        Vh, gVh = Vh[..., :k, :], gVh[..., :k, :]
    m, n = U._data.shape[-2], Vh._data.shape[-1]
    has_u, has_v = _defined(gU), _defined(gVh)
    if not has_u and not has_v:
        if m >= n:
            return matmul(U, gS.unsqueeze(-1) * Vh)
        return matmul(U * gS.unsqueeze(-2), Vh)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + _eye(S._data.shape[-1], S)
    if has_u:
        UhgU = matmul(_mH(U), gU)
        UhgU = UhgU - _mH(UhgU)
    if has_v:
        VhgV = matmul(Vh, _mH(gVh))
        VhgV = VhgV - _mH(VhgV)
    cplx = U._data.dtype.kind == "c"
    if cplx:  # the loss must not depend on the phase of the singular vectors
        zeros = np.zeros(S._data.shape, S._data.dtype)
        imu = _diag(UhgU)._data.imag if has_u else zeros
        imv = _diag(VhgV)._data.imag if has_v else zeros
        if not np.allclose(imu, -imv, rtol=1e-2, atol=1e-2):
            raise RuntimeError(
                "svd_backward: The singular vectors in the complex case are specified up to "
                "multiplication by e^{i phi}. The specified loss function depends on this phase "
                "term, making it ill-defined."
            )
    if has_u and has_v:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif has_u:
        gA = (UhgU / E) * S.unsqueeze(-2)
    else:
        gA = S.unsqueeze(-1) * (VhgV / E)
    gA = gA + _diag_embed(gS)
    if cplx and has_u and has_v:
        gA = gA + _diag_embed(_diag(UhgU) / (2.0 * S))
    if m > n and has_u:
        gA = matmul(U, gA)
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - matmul(U, matmul(_mH(U), gUSinv))
        return matmul(gA, Vh)
    if m < n and has_v:
        gA = matmul(gA, Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - matmul(matmul(SinvgVh, _mH(Vh)), Vh)
        return matmul(U, gA)
    return matmul(U, matmul(gA, Vh)) if m >= n else matmul(matmul(U, gA), Vh)


def _zero_pad(t: Tensor, dim: int, size: int) -> Tensor:
    """t padded with zeros along dim (-1 or -2) to the given size."""
    shape = list(t._data.shape)
    shape[dim] = size - shape[dim]
    return cat([t, _make(np.zeros(shape, t._data.dtype))], dim)


def _svd_jvp(
    A_t: Tensor, result: tuple[Tensor, Tensor, Tensor], full_matrices: bool
) -> tuple[Tensor, Tensor, Tensor]:
    """torch's svd_jvp, with dP = U^H A_t V and E_jk = S_k^2 - S_j^2: S_t = Re diag(dP),
    U_t = U ((dP S + S dP^H) / E) + (I - U U^H) A_t V S^{-1},
    V_t = V ((S dP + dP^H S) / E) + (I - V V^H) A_t^H U S^{-1} (the diagonals of the quotients
    zero), and for complex A the phase i Im diag(dP) / (2S) added to U's columns and taken from
    V's. With full_matrices, the extra columns of U and rows of Vh get zero tangents."""
    U, S, Vh = result
    m, n = A_t._data.shape[-2:]
    k = S._data.shape[-1]
    if full_matrices:
        U, Vh = U[..., :k], Vh[..., :k, :]
    V = _mH(Vh)
    dP = matmul(matmul(_mH(U), A_t), V)
    dS = _diag(dP)
    S2 = S * S
    eye = _eye(k, S)
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye
    off = 1 - eye
    Sr, Sc = S.unsqueeze(-2), S.unsqueeze(-1)
    dPh = _mH(dP)
    dU = matmul(U, (dP * Sr + Sc * dPh) / E * off)
    dV = matmul(V, (Sc * dP + dPh * Sr) / E * off)
    if dS._data.dtype.kind == "c":  # the imaginary part of diag(dP): half turns U, half V
        d = (dS - dS.real) / (2 * Sr)
        dS = dS.real
        dU = dU + U * d
        dV = dV - V * d
    if m > k:
        dU = dU + (matmul(A_t, V) - matmul(U, dP)) / Sr
    if n > k:
        dV = dV + (matmul(_mH(A_t), U) - matmul(V, dPh)) / Sr
    dVh = _mH(dV)
    if full_matrices:
        if m > k:
            dU = _zero_pad(dU, -1, m)
        if n > k:
            dVh = _zero_pad(dVh, -2, n)
    return dU, dS, dVh


_svd_op = defop(
    "linalg_svd",
    "LinalgSvdBackward0",
    _svd_fwd,
    n_outputs=3,
    jvp=_svd_jvp,
    A=_svd_grad,
    complex=True,
)


def _svd(A: Tensor, full_matrices: bool, S_: Any = None, Vh_: Any = None) -> tuple[Tensor, ...]:
    outs = _svd_op(A, full_matrices, None, None)
    _save_outputs(outs, {"S_": 1, "Vh_": 2})
    return outs


def _check_svd_driver(driver: Any) -> None:
    if driver is not None:
        raise RuntimeError(
            "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
            "cuSOLVER backend."
        )


def svd(A: Tensor, full_matrices: bool = True, *, driver: Any = None, out: Any = None) -> Any:
    """Mirrors `torch.linalg.svd`: the named tuple (U, S, Vh)."""
    _check_matrix(A, "linalg.svd", square=False)
    _check_svd_driver(driver)
    outs = _louts(_svd(A, full_matrices), out, "_linalg_svd")
    return _return_type("linalg_svd", ("U", "S", "Vh"), outs)


def svdvals(A: Tensor, *, driver: Any = None, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.svdvals` (the S output of an SVD node, as in torch)."""
    _check_matrix(A, "linalg.svd", square=False)
    _check_svd_driver(driver)
    return _lout(_svd(A, False)[1], out, "_linalg_svd")


def svd_legacy(
    input: Tensor, some: bool = True, compute_uv: bool = True, *, out: Any = None
) -> Any:
    """Mirrors the legacy `torch.svd`: the named tuple (U, S, V), V not transposed."""
    if (some is not True and some is not False) or (
        compute_uv is not True and compute_uv is not False
    ):
        _parser_check("svd", (some, compute_uv))  # torch's parser takes bools only
    _check_matrix(input, "linalg.svd", square=False)
    if not compute_uv:  # torch's: the singular values, and square zero U (m x m), V (n x n)
        *batch, m, n = input._data.shape
        dt = input._data.dtype
        S = _svd(input, False)[1]
        U, V = _make(np.zeros((*batch, m, m), dt)), _make(np.zeros((*batch, n, n), dt))
        return _return_type("svd", ("U", "S", "V"), _louts((U, S, V), out, "_linalg_svd"))
    U, S, Vh = _svd(input, not some)
    return _return_type("svd", ("U", "S", "V"), _louts((U, S, _mH(Vh)), out, "_linalg_svd"))


def _eigh_fwd(A: np.ndarray, UPLO: str, V_: Any) -> tuple[np.ndarray, np.ndarray]:
    real = np.finfo(A.dtype).dtype
    if A.size == 0:
        return np.zeros(A.shape[:-1], real), np.empty_like(A)
    L, V = np.linalg.eigh(A, UPLO=UPLO)
    return L.astype(real, copy=False), V


def _check_eigvec_phase(VhgV: Tensor, name: str) -> None:
    """torch's check in eig's and eigh's backward: complex eigenvectors are defined up to a
    phase e^{i phi}, so a loss that reads it (Im diag(V^H gV) not ~0) has no gradient."""
    im = _diag(VhgV)._data.imag
    if not np.allclose(im, np.zeros_like(im), rtol=1e-2, atol=1e-2):
        raise RuntimeError(
            f"{name}: The eigenvectors in the complex case are specified up to multiplication "
            "by e^{i phi}. The specified loss function depends on this quantity, so it is "
            "ill-defined."
        )


def _eigh_grad(grads: list[Tensor], result: Tensor, V_: Tensor) -> Tensor:
    """torch's linalg_eig_backward for Hermitian inputs (written with mH: complex ones too)."""
    gL, gV = grads
    L, V = result, V_
    if not _defined(gV):
        return matmul(V * gL.unsqueeze(-2), _mH(V))
    VhgV = matmul(_mH(V), gV)
    if V._data.dtype.kind == "c":
        _check_eigvec_phase(VhgV, "linalg_eigh_backward")
    VhgV = 0.5 * (VhgV - _mH(VhgV))
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + _eye(L._data.shape[-1], L)
    gA = VhgV / E
    if _defined(gL):
        gA = gA - _diag_embed(_diag(gA)) + _diag_embed(gL)
    return matmul(V, matmul(gA, _mH(V)))


def _eigh_jvp(A_t: Tensor, result: tuple[Tensor, Tensor]) -> tuple[Tensor, Tensor]:
    """torch's linalg_eig_jvp for Hermitian inputs: with dP = V^H A_t V and E_jk = L_k - L_j,
    L_t = diag(dP) and V_t = V (dP / E), the quotient's diagonal zero."""
    L, V = result
    dP = matmul(matmul(_mH(V), A_t), V)
    eye = _eye(L._data.shape[-1], L)
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye
    dL = _diag(dP)
    if dL._data.dtype.kind == "c":  # a Hermitian tangent's diagonal is real
        dL = dL.real
    return dL, matmul(V, dP / E * (1 - eye))


_eigh = defop(
    "linalg_eigh",
    "LinalgEighBackward0",
    _eigh_fwd,
    n_outputs=2,
    jvp=_eigh_jvp,
    A=_eigh_grad,
    complex=True,
)


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def eigh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Any:
    """Mirrors `torch.linalg.eigh`: the named tuple (eigenvalues, eigenvectors)."""
    _check_matrix(A, "linalg.eigh")
    _check_uplo(UPLO)
    outs = _eigh(A, UPLO.upper(), None)
    _save_outputs(outs, {"V_": 1})
    outs = _louts(outs, out, "_linalg_eigh", (1, 0))  # the eigenvectors' dtype first
    return _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"), outs)


def eigvalsh(A: Tensor, UPLO: str = "L", *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.eigvalsh` (the eigenvalues output of an eigh node, as in torch)."""
    _check_matrix(A, "linalg.eigh")
    _check_uplo(UPLO)
    outs = _eigh(A, UPLO.upper(), None)
    _save_outputs(outs, {"V_": 1})
    return _lout(outs[0], out, "_linalg_eigh")


# --- named tuples ---------------------------------------------------------------------------

_RETURN_TYPES: dict[str, type] = {}


def _return_type(name: str, fields: tuple[str, ...], values: Any) -> Any:
    """A `torch.return_types.<name>` look-alike: a named tuple with torch's repr."""
    cls = _RETURN_TYPES.get(name)
    if cls is None:
        base = namedtuple(name, fields)  # type: ignore[misc]

        def __repr__(self: Any) -> str:
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self, strict=True))
            return f"torch.return_types.{name}(\n{body})"

        cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__})
        cls.__module__ = "torch.return_types"
        _RETURN_TYPES[name] = cls
    return cls(*values)


# --- matrix_power, cross --------------------------------------------------------------------


def _check_power(n: Any, fn: str, pos: int) -> None:
    if isinstance(n, (bool, float)):  # torch's argument parser takes an int only
        raise TypeError(
            f"{fn}(): argument 'n' (position {pos}) must be int, not {type(n).__name__}"
        )


def _matrix_power_legacy(input: Tensor, n: int, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.matrix_power`."""
    _check_power(n, "matrix_power", 2)
    return matrix_power(input, n, out=out)


def _matrix_power_method(self: Tensor, n: int) -> Tensor:
    """Mirrors `Tensor.matrix_power`."""
    try:
        _check_power(n, "matrix_power", 1)
        return matrix_power(self, n)
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise

        reraise("matrix_power", (n,), {})
        raise


def matrix_power(A: Tensor, n: int, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.matrix_power` (repeated squaring, as torch multiplies)."""
    _check_power(n, "linalg_matrix_power", 2)
    if A.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_power: The input tensor A must have at least 2 dimensions."
        )
    r, c = A._data.shape[-2:]
    if r != c:
        raise RuntimeError(
            f"linalg.matrix_power: A must be batches of square matrices, but they are {r} by {c} "
            "matrices"
        )
    if n == 0:
        eye = _make(np.broadcast_to(np.eye(r, dtype=A._data.dtype), A._data.shape).copy())
        if A._rg:  # torch's: a contiguous clone of A overwritten by eye (grad_fn CopyBackwards)
            eye = A.clone(memory_format=contiguous_format).copy_(eye)
        return _lout(eye, out, "matmul", "cast+exact", "matrix_power")
    if n == 1:  # torch's: a contiguous clone
        return _lout(
            A.clone(memory_format=contiguous_format), out, "matmul", "cast+exact", "matrix_power"
        )
    if n < 0:
        A = inv(A)
        n = -n
        if n == 1:
            return _lout(A, out, "matmul", "cast+exact", "matrix_power")
    if n == 2:
        return _lout(matmul(A, A), out, "matmul", "cast+exact", "matrix_power")
    if n == 3:
        return _lout(matmul(matmul(A, A), A), out, "matmul", "cast+exact", "matrix_power")
    z = result = None
    while n > 0:
        z = A if z is None else matmul(z, z)
        if n & 1:
            result = z if result is None else matmul(result, z)
        n >>= 1
    assert result is not None
    return _lout(result, out, "matmul", "cast+exact", "matrix_power")


_cross = defop(
    "linalg_cross",
    "LinalgCrossBackward0",
    lambda self, other, dim: np.cross(self, other, axis=dim),
    contiguous=True,
    jvp=lambda self, other, dim, self_t, other_t: _plus(
        None if self_t is None else _cross(self_t, other, dim),
        None if other_t is None else _cross(self, other_t, dim),
    ),
    self=lambda grad, other, dim: _cross(other, grad, dim),
    other=lambda grad, self, dim: _cross(grad, self, dim),
    complex={  # torch's: the other factor conjugated (Note [Complex gradients])
        "self": lambda grad, other, dim: _cross(other.conj(), grad, dim),
        "other": lambda grad, self, dim: _cross(grad, self.conj(), dim),
    },
)


def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.linalg.cross`."""
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    size_at(input._data.shape, dim)  # torch reads input.size(dim): a 0-d input has none
    d = wrap_dim(dim, input.ndim)
    a, b = input._data.shape[d], other._data.shape[d]
    if a != 3 or b != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {a} and {b}"
        )
    # torch's order: the lengths, then the broadcast, then the dtypes (no promotion)
    shape = infer_size(tuple(input._data.shape), tuple(other._data.shape))
    if input.dtype is not other.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype._short} but found {other.dtype._short}"
        )
    if input.dtype is _dt.bool_:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    return _lout(_cross(input, other, d - len(shape)), out, "linalg_cross")


def cross_legacy(
    input: Tensor, other: Tensor, dim: int | None = None, *, out: Tensor | None = None
) -> Tensor:
    """Mirrors `torch.cross`: without dim, the first dimension of size 3 (deprecated)."""
    if dim is None:
        # torch warns once a process (TORCH_WARN_ONCE)
        warn_once(
            "cross_deprecated",
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass "
            "the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will "
            "change to agree with that of linalg.cross in a future release.",
        )
        # torch's _default_cross_dim: the first size-3 dimension of input's own shape (not the
        # broadcast one), or an error
        dim = next((i for i, s in enumerate(input._data.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return cross(input, other, dim=dim, out=out)


def _inplace(fn: Any) -> Any:
    from .inplace import make_inplace

    return make_inplace(fn)


METHODS = {
    "mm": mm,
    "mv": mv,
    "dot": dot,
    "inner": None,
    "bmm": bmm,
    "matmul": matmul,
    "__matmul__": _matmul_method,
    "__rmatmul__": _rmatmul,
    "outer": outer,
    "ger": outer,
    "addmm": addmm,
    "addmv": addmv,
    "baddbmm": baddbmm,
    "addbmm": addbmm,
    "addmm_": _inplace(addmm),
    "addmv_": _inplace(addmv),
    "baddbmm_": _inplace(baddbmm),
    "addbmm_": _inplace(addbmm),
    "trace": trace,
    "kron": kron,
    "inverse": inv,
    "det": _det_legacy,
    "logdet": logdet,
    "slogdet": slogdet_legacy,
    "cholesky": cholesky_legacy,
    "svd": svd_legacy,
    "matrix_power": _matrix_power_method,
    "cross": cross_legacy,
}
del METHODS["inner"]
FUNCTIONS = {
    "mm": mm,
    "mv": mv,
    "dot": dot,
    "bmm": bmm,
    "matmul": matmul,
    "outer": outer,
    "ger": outer,
    "addmm": addmm,
    "addmv": addmv,
    "baddbmm": baddbmm,
    "addbmm": addbmm,
    "trace": trace,
    "kron": kron,
    "tensordot": tensordot,
    "einsum": einsum,
    "inverse": inv,
    "det": _det_legacy,
    "logdet": logdet,
    "slogdet": slogdet_legacy,
    "cholesky": cholesky_legacy,
    "svd": svd_legacy,
    "matrix_power": _matrix_power_legacy,
    "cross": cross_legacy,
}


# The saved outputs and arguments of the decompositions under torch's names (torch's name:
# this op's), and the names shadowgrad's nodes hold that torch's do not show
_SAVED_RENAMED.update(
    LinalgInvExBackward0={"inverse": "result"},
    LinalgCholeskyExBackward0={"L": "result"},
    LinalgEighBackward0={"eigenvalues": "result", "eigenvectors": "V_"},
    LinalgQrBackward0={"Q": "result", "R": "R_"},
    LinalgSvdBackward0={"U": "result", "S": "S_", "Vh": "Vh_"},
    LinalgSolveTriangularBackward0={"self": "A", "unitriangular": "unit"},
    LinalgLstsqBackward0={"solution": "result"},
    AminmaxBackward0={"min": "result", "max": "result1"},
)
_SAVED_HIDDEN.update(
    LinalgLstsqBackward0=frozenset(("vector",)), LinalgSolveExBackward0=frozenset(("vector",))
)


def _lu_of_A(k: int, transposed: bool = False) -> Any:
    """torch's det, slogdet and solve save the LU factorization (LU, 1-based int32 pivots) they
    computed with, det's and slogdet's of a real A's A.mT; shadowgrad's nodes hold A: its
    LAPACK getrf, computed when read."""

    def read(node: Any) -> Tensor:
        from .linalg_extra import _getrf

        a = saved_array(node, "A")
        if transposed and a.dtype.kind != "c":
            a = np.swapaxes(a, -1, -2)
        return _make(_getrf(a)[k])

    return read


def _slogdet_sign(node: Any) -> Tensor:
    """slogdet's sign output (torch's node saves it): from A, an output of the node."""
    a = saved_array(node, "A")
    return _make(np.asarray(np.linalg.slogdet(a)[0], a.dtype), True, node, 0)


_LU_T = {"LU": _lu_of_A(0, True), "pivots": _lu_of_A(1, True)}
_SAVED_LAZY.update(
    LinalgDetBackward0=dict(_LU_T),
    LinalgSlogdetBackward0={**_LU_T, "sign": _slogdet_sign},
    LinalgSolveExBackward0={"LU": _lu_of_A(0), "pivots": _lu_of_A(1)},
)
_SAVED_HIDDEN["LinalgSlogdetBackward0"] = frozenset(("result",))  # torch's: the sign
# torch's svd saves S's last size (the number of singular values), readable after backward
_SAVED_LAZY["LinalgSvdBackward0"] = {
    "S_sym_argsize_minus_1": lambda node: min(node._in_meta[0][0][-2:])
}
