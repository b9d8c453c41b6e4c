"""torch.fft: discrete Fourier transforms, differentiable as torch's.

Mirrors `torch.fft`. Every transform is one of torch's three kernels: `_fft_r2c` (a real input,
FftR2CBackward0), `_fft_c2c` (FftC2CBackward0) and `_fft_c2r` (a Hermitian half spectrum to a
real output, FftC2RBackward0). numpy's norm modes are torch's ("backward", "forward", "ortho"),
and the adjoint of a transform is the opposite transform with the dual norm, which is how the
formulas below are written (torch's fft_r2c_backward / fft_c2r_backward). Inputs are resized to
`n`/`s` first (cut with slices, zero-padded with one constant_pad_nd, as torch's
resize_fft_input).

Half-precision transforms are not supported (torch's CPU kernels raise "Unsupported dtype
Half" too).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtype as D
from ._creation import _finish
from ._tensor import Tensor, _make
from .autograd.forward_ad import LINEAR
from .ops.nn_ops import constant_pad_op
from .ops.pointwise import complex_np, conj, conj_physical
from .ops.registry import defop
from .ops.shape import narrow, roll

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "hfft2",
    "hfftn",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "ihfft2",
    "ihfftn",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _r2c_fwd(self: np.ndarray, dim: tuple[int, ...], norm: str, onesided: bool) -> np.ndarray:
    f = np.fft.rfftn if onesided else np.fft.fftn
    return f(self, axes=dim, norm=norm).astype(complex_np(self))


def _c2c_fwd(self: np.ndarray, dim: tuple[int, ...], norm: str, forward: bool) -> np.ndarray:
    f = np.fft.fftn if forward else np.fft.ifftn
    return f(self, axes=dim, norm=norm).astype(self.dtype)


def _c2r_fwd(self: np.ndarray, dim: tuple[int, ...], norm: str, last_dim_size: int) -> np.ndarray:
    s = [self.shape[d] for d in dim[:-1]] + [last_dim_size]
    real = np.float32 if self.dtype == np.complex64 else np.float64
    return np.fft.irfftn(self, s=s, axes=dim, norm=norm).astype(real)


def _r2c_backward(
    grad: Tensor, dim: tuple[int, ...], norm: str, onesided: bool, self_sym_sizes: Any
) -> Tensor:
    # the adjoint of the one-sided transform: the missing half of the spectrum is zero; the
    # engine keeps the real part (the input is real)
    if onesided:
        last = dim[-1]
        missing = self_sym_sizes[last] - grad.shape[last]
        if missing > 0:
            # torch writes the gradient into zeros through a slice (CopySlices)
            shape = list(grad.shape)
            shape[last] = self_sym_sizes[last]
            full = _make(np.zeros(shape, grad._data.dtype))
            full.narrow(last, 0, grad.shape[last]).copy_(grad)
            grad = full
    return _fft_c2c(grad, dim, _DUAL[norm], False)


def _c2r_backward(grad: Tensor, dim: tuple[int, ...], norm: str, last_dim_size: int) -> Tensor:
    g = _r2c(grad, dim, _DUAL[norm], True)
    # the entries between the zero and Nyquist frequencies stand for two of the full spectrum
    double = last_dim_size - g.shape[dim[-1]]
    if double > 0:
        scale = np.ones(g.shape[dim[-1]], grad._data.dtype)
        scale[1 : 1 + double] = 2
        g = g * _make(scale.reshape((-1,) + (1,) * (g.ndim - 1 - dim[-1])))
    return g


_fft_r2c = defop(
    "_fft_r2c",
    "FftR2CBackward0",
    lambda self, dim, norm, onesided, self_sym_sizes: _r2c_fwd(self, dim, norm, onesided),
    dtype="keep",
    self=lambda grad, dim, norm, onesided, self_sym_sizes: _r2c_backward(
        grad, dim, norm, onesided, self_sym_sizes
    ),
    jvp=LINEAR,
    complex=True,
)
_fft_c2c = defop(
    "_fft_c2c",
    "FftC2CBackward0",
    _c2c_fwd,
    dtype="keep",
    self=lambda grad, dim, norm, forward: _fft_c2c(grad, dim, _DUAL[norm], not forward),
    jvp=LINEAR,
    complex=True,
)
_fft_c2r = defop(
    "_fft_c2r",
    "FftC2RBackward0",
    _c2r_fwd,
    dtype="keep",
    self=lambda grad, dim, norm, last_dim_size: _c2r_backward(grad, dim, norm, last_dim_size),
    jvp=LINEAR,
    complex=True,
)


def _r2c(x: Tensor, dim: tuple[int, ...], norm: str, onesided: bool) -> Tensor:
    return _fft_r2c(x, dim, norm, onesided, tuple(x._data.shape))


# --- arguments ---------------------------------------------------------------------------------


def _norm(norm: str | None) -> str:
    if norm is None:
        return "backward"
    if norm not in _DUAL:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _float_input(x: Tensor, name: str) -> Tensor:
    kind = x._data.dtype.kind
    if kind in "biu":
        return x.to(D.get_default_dtype())
    if x._data.dtype == np.float16 or x._data.dtype is D.LD:
        raise RuntimeError(f"Unsupported dtype {x.dtype._short}")
    return x


def _complex_input(x: Tensor, name: str) -> Tensor:
    x = _float_input(x, name)
    return x if x._data.dtype.kind == "c" else x.to(x.dtype.to_complex())


def _resize(x: Tensor, dim: tuple[int, ...], sizes: tuple[int, ...]) -> Tensor:
    """x cut or zero-padded to sizes along dim (torch's resize_fft_input: the cuts are slices,
    the padding one constant_pad_nd over all the dims)."""
    pad = [0] * (2 * x.ndim)
    for d, n in zip(dim, sizes, strict=True):
        have = x.shape[d]
        if n < have:
            x = narrow(x, d, 0, n)
        elif n > have:
            pad[2 * (x.ndim - 1 - d) + 1] = n - have
    return constant_pad_op(x, tuple(pad), 0) if any(pad) else x


def _dims(x: Tensor, s: Any, dim: Any, name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The wrapped dims and the signal sizes of an n-dimensional transform."""
    nd = x.ndim
    if s is not None and len(s) > nd:
        raise RuntimeError(
            f"Got shape with {len(s)} values but input tensor only has {nd} dimensions."
        )
    if dim is None:
        dims = tuple(range(nd)) if s is None else tuple(range(nd - len(s), nd))
    else:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if nd == 0 and dims:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        dims = tuple(d % nd if -nd <= d < nd else _bad_dim(d, nd) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is None:
        sizes = tuple(x.shape[d] for d in dims)
    else:
        if dim is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        keep = not isinstance(s, _OneSize)
        sizes = tuple(
            x.shape[d] if n == -1 and keep else int(n) for d, n in zip(dims, s, strict=True)
        )
    for n in sizes:
        if n <= 0:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _bad_dim(d: int, nd: int) -> int:
    raise IndexError(
        f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, {max(nd, 1) - 1}], "
        f"but got {d})"
    )


class _OneSize(tuple):  # type: ignore[type-arg]
    """A one-dimensional transform's n: -1 is a size (refused), not the n-dim "keep" marker."""


def _one(n: int | None, dim: int) -> tuple[Any, Any]:
    return (None if n is None else _OneSize((n,))), (dim,)


# --- the transforms ----------------------------------------------------------------------------


_KERNEL = {
    "FftR2CBackward0": "_fft_r2c",
    "FftC2CBackward0": "_fft_c2c",
    "FftC2RBackward0": "_fft_c2r",
}


def _write_out(result: Tensor, out: Tensor, name: str) -> Tensor:
    """torch's out= of a transform: a complex (or, for a real result, floating) out tensor,
    no autograd, resized as torch's outputs are."""
    from . import _grad_mode
    from .ops.pointwise import out_autograd_error
    from .ops.shape import resize_out

    if result.is_complex() and not out.is_complex():
        raise RuntimeError(f"{name} expects a complex output tensor, but got {out.dtype._short}")
    if not result.is_complex() and not out.dtype.is_floating_point:
        raise RuntimeError(
            f"{name} expects a floating point output tensor, but got {out.dtype._short}"
        )
    if _grad_mode.STATE.grad and (result.requires_grad or out.requires_grad):
        node = result.grad_fn
        while node is not None and type(node).__name__ not in _KERNEL:
            node = next((f for f, _ in node.next_functions if f is not None), None)
        kernel = _KERNEL.get(type(node).__name__, "_fft_c2c")
        raise RuntimeError(out_autograd_error(kernel))
    return resize_out(result.resolve_conj(), out)


def _with_out(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """fn taking torch's keyword-only `out=`."""

    @functools.wraps(fn)
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Tensor:
        result = fn(*args, **kwargs)
        return result if out is None else _write_out(result, out, fn.__name__)

    return with_out


def _fftn(input: Tensor, s: Any, dim: Any, norm: str | None, forward: bool, name: str) -> Tensor:
    m = _norm(norm)
    x = _float_input(input, name)
    dims, sizes = _dims(x, s, dim, name)
    if name not in ("fft", "ifft"):  # torch's fftn family makes the input complex first
        return _fft_c2c(_resize(_complex_input(x, name), dims, sizes), dims, m, forward)
    x = _resize(x, dims, sizes)
    if x._data.dtype.kind == "c":
        return _fft_c2c(x, dims, m, forward)
    if forward:
        return _r2c(x, dims, m, False)
    return conj(_r2c(x, dims, _DUAL[m], False))  # the inverse of a real signal, as torch's


def _rfftn(input: Tensor, s: Any, dim: Any, norm: str | None, name: str) -> Tensor:
    m = _norm(norm)
    x = _float_input(input, name)
    if x._data.dtype.kind == "c":
        if name in ("rfft", "ihfft"):
            raise RuntimeError(f"{name} expects a real input tensor, but got {x.dtype._short}")
        raise RuntimeError(  # torch's rfftn (rfft2 calls it)
            f"rfftn expects a real-valued input tensor, but got {x.dtype._short}"
        )
    dims, sizes = _dims(x, s, dim, name)
    return _r2c(_resize(x, dims, sizes), dims, m, True)


def _c2r_input(input: Tensor, s: Any, dim: Any, name: str) -> tuple[Tensor, Any, int]:
    """A complex-to-real transform's input resized to the half spectrum, its dims, and the
    output's last length (torch's checks)."""
    x = _complex_input(input, name)
    dims, sizes = _dims(x, s, dim, name)
    last = sizes[-1] if s is not None and s[-1] != -1 else 2 * (x.shape[dims[-1]] - 1)
    if last < 1:
        raise RuntimeError(f"Invalid number of data points ({last}) specified")
    return _resize(x, dims, (*sizes[:-1], last // 2 + 1)), dims, last


def _irfftn(input: Tensor, s: Any, dim: Any, norm: str | None, name: str) -> Tensor:
    m = _norm(norm)
    x, dims, last = _c2r_input(input, s, dim, name)
    return _fft_c2r(x, dims, m, last)


def _hfftn(input: Tensor, s: Any, dim: Any, norm: str | None, name: str) -> Tensor:
    """torch's fft_hfftn: a forward c2c over all but the last dim, then the conjugate's c2r."""
    m = _norm(norm)
    x, dims, last = _c2r_input(input, s, dim, name)
    if len(dims) > 1:
        x = _fft_c2c(x, dims[:-1], m, True)
    return _fft_c2r(conj(x), dims[-1:], _DUAL[m], last)


def _ihfftn(input: Tensor, s: Any, dim: Any, norm: str | None, name: str) -> Tensor:
    """torch's fft_ihfftn: a onesided r2c over the last dim, then an inverse c2c of its
    (physical) conjugate over the others."""
    m = _norm(norm)
    x = _float_input(input, name)
    if x._data.dtype.kind == "c":
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {x.dtype._short}")
    dims, sizes = _dims(x, s, dim, name)
    x = _resize(x, dims, sizes)
    t = _r2c(x, dims[-1:], _DUAL[m], True)
    if len(dims) == 1:
        return conj(t)
    return _fft_c2c(conj_physical(t), dims[:-1], m, False)


@_with_out
def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.fft`."""
    return _fftn(input, *_one(n, dim), norm, True, "fft")


@_with_out
def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.ifft`."""
    return _fftn(input, *_one(n, dim), norm, False, "ifft")


@_with_out
def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.rfft`."""
    return _rfftn(input, *_one(n, dim), norm, "rfft")


@_with_out
def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.irfft`."""
    return _irfftn(input, *_one(n, dim), norm, "irfft")


@_with_out
def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.hfft`: irfft of the (resized) conjugate, with the dual norm."""
    return _hfftn(input, *_one(n, dim), norm, "hfft")


@_with_out
def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.ihfft`: the conjugate of rfft, with the dual norm."""
    return conj(_rfftn(input, *_one(n, dim), _DUAL[_norm(norm)], "ihfft"))


@_with_out
def fft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.fft2`."""
    return _fftn(input, s, dim, norm, True, "fft2")


@_with_out
def ifft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.ifft2`."""
    return _fftn(input, s, dim, norm, False, "ifft2")


@_with_out
def rfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.rfft2`."""
    return _rfftn(input, s, dim, norm, "rfft2")


@_with_out
def irfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.irfft2`."""
    return _irfftn(input, s, dim, norm, "irfft2")


@_with_out
def hfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.hfft2`."""
    return _hfftn(input, s, dim, norm, "hfft2")


@_with_out
def ihfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.ihfft2`."""
    return _ihfftn(input, s, dim, norm, "ihfft2")


@_with_out
def hfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.hfftn`."""
    return _hfftn(input, s, dim, norm, "hfftn")


@_with_out
def ihfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.ihfftn`."""
    return _ihfftn(input, s, dim, norm, "ihfftn")


@_with_out
def fftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.fftn`."""
    return _fftn(input, s, dim, norm, True, "fftn")


@_with_out
def ifftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.ifftn`."""
    return _fftn(input, s, dim, norm, False, "ifftn")


@_with_out
def rfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.rfftn`."""
    return _rfftn(input, s, dim, norm, "rfftn")


@_with_out
def irfftn(input: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    """Mirrors `torch.fft.irfftn`."""
    return _irfftn(input, s, dim, norm, "irfftn")


# --- frequencies and shifts --------------------------------------------------------------------


def _freq(name: str, n: int, d: float, dtype: Any, requires_grad: bool) -> Tensor:
    """torch's fftfreq/rfftfreq: an arange in the dtype (fftfreq's upper half negative), times
    the scalar 1 / (n * d) cast to the dtype (an inf or nan where n * d is 0)."""
    dt = dtype or D.get_default_dtype()
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    if dt.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dt._short}'")
    size = n if name == "fftfreq" else int(n / 2) + 1  # C++'s truncating division
    if size < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {size}: [{size}]")
    k = np.arange(size, dtype=np.float64)
    if name == "fftfreq":
        k[(n + 1) // 2 :] = np.arange(-(n // 2), 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.float64(1.0) / np.float64(n * d)
        # the scalar is cast to the dtype (half too), the product rounded to it
        values = k.astype(dt._np) * np.asarray(scale).astype(dt._np)
    return _finish(values, requires_grad)


def fftfreq(
    n: int, d: float = 1.0, *, dtype: Any = None, requires_grad: bool = False, **_: Any
) -> Tensor:
    """Mirrors `torch.fft.fftfreq`."""
    return _freq("fftfreq", n, d, dtype, requires_grad)


def rfftfreq(
    n: int, d: float = 1.0, *, dtype: Any = None, requires_grad: bool = False, **_: Any
) -> Tensor:
    """Mirrors `torch.fft.rfftfreq`."""
    return _freq("rfftfreq", n, d, dtype, requires_grad)


def _shift(input: Tensor, dim: Any, inverse: bool) -> Tensor:
    dims = (
        tuple(range(input.ndim))
        if dim is None
        else ((dim,) if isinstance(dim, int) else tuple(dim))
    )
    nd = input.ndim
    if nd == 0 and dims:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    dims = tuple(d if -nd <= d < nd else _bad_dim(d, nd) for d in dims)
    shifts = tuple((input.shape[d] + 1) // 2 if inverse else input.shape[d] // 2 for d in dims)
    return roll(input, shifts, dims)


def fftshift(input: Tensor, dim: Any = None) -> Tensor:
    """Mirrors `torch.fft.fftshift`."""
    return _shift(input, dim, False)


def ifftshift(input: Tensor, dim: Any = None) -> Tensor:
    """Mirrors `torch.fft.ifftshift`."""
    return _shift(input, dim, True)
