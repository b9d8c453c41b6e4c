"""Statistics and signal helpers of the torch namespace: quantiles, covariance, numerical
gradients, window functions, ...

Quantile, cov, corrcoef and gradient are composites in torch (their graphs are sort/gather/lerp,
mm/div and slice/cat nodes); they are built here from the same ops so that the recorded graph
and its `grad_fn` names match.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _dtype as D
from .. import _rng_kernels as _rk
from .. import _rng_samplers
from .._creation import _finish, linspace_in
from .._tensor import Tensor, _make
from ..autograd.forward_ad import ELEMENTWISE
from ._util import autograd_checks_first, shape_str, wrap_dim
from .inplace import apply_inplace
from .linalg import mm
from .pointwise import _float_arg, _gen, _not_for, _num, _zero_grad, check_generator
from .registry import defop
from .rounding import _not_implemented
from .shape import cat
from .sorting import _structseq, return_types

# --- quantile ---------------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(
    input: Tensor, q: Any, dim: int | None, keepdim: bool, interpolation: str, ignore_nan: bool
) -> Tensor:
    name = "nanquantile" if ignore_nan else "quantile"
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
            f"but got {interpolation}"
        )
    x = input._data
    q_scalar = not isinstance(q, Tensor)
    if q_scalar and not 0 <= q <= 1:
        raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
    if x.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if not q_scalar and q.dim() > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if x.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    qa = np.asarray(q, dtype=x.dtype) if q_scalar else q._data
    if qa.dtype != x.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if not q_scalar and not bool(np.all((qa >= 0) & (qa <= 1))):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    nd = x.ndim
    wdim = None if dim is None else wrap_dim(dim, nd)
    # output shape: q's size, then the reduced shape
    if wdim is not None and nd > 0:
        out_shape = list(x.shape)
        if keepdim:
            out_shape[wdim] = 1
        else:
            del out_shape[wdim]
    else:
        out_shape = [1] * nd if keepdim else []
    out_shape.insert(0, qa.size)
    if wdim is None:
        srt = input.flatten().sort()[0]
    elif wdim == nd - 1:
        srt = input.sort()[0]
    else:
        srt = input.unsqueeze(-1).transpose(wdim, -1).sort()[0]
    n = srt.shape[-1]
    srt = srt.view(*out_shape[1:], n)
    s = srt._data
    qv = qa.reshape(-1)
    if ignore_nan:
        ranks = qv * (np.sum(~np.isnan(s), -1, keepdims=True) - 1).astype(x.dtype)
        ranks = np.where(ranks < 0, 0, ranks).astype(x.dtype)
    else:
        ranks = qv * x.dtype.type(n - 1)
        has_nan = np.isnan(s).any(-1, keepdims=True)
        ranks = np.where(has_nan, x.dtype.type(n - 1), ranks).astype(x.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)  # half to even, as torch's round
    below = ranks.astype(np.int64)
    values = srt.gather(-1, _make(below))
    if interpolation in ("linear", "midpoint"):
        w = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = srt.gather(-1, _make(np.ceil(ranks).astype(np.int64)))
        values = values.lerp(above, _make(w.astype(x.dtype)))
    if q_scalar or qa.ndim == 0:
        return values.squeeze_(-1)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def _q_error(name: str, method: bool, q: Any) -> TypeError:
    """torch's parser error for a q that is neither a Tensor nor a number (a list)."""
    tail = 'int dim = None, bool keepdim = False, *, str interpolation = "linear"'
    if method:
        got, head = type(q).__name__, ""
    else:
        got, head, tail = (
            f"Tensor, {type(q).__name__}",
            "Tensor input, ",
            tail + ", Tensor out = None",
        )
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n * ({head}Tensor q, {tail})\n * ({head}float q, {tail})\n"
    )


def _q_checked(name: str, fn: Any) -> Any:
    """The Tensor method of quantile/nanquantile: torch's parser error in the method's form."""

    def method(self: Tensor, q: Any, *args: Any, **kwargs: Any) -> Tensor:
        if not isinstance(q, (Tensor, float, int)):
            raise _q_error(name, True, q)
        return fn(self, q, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    method.__wrapped__ = fn  # type: ignore[attr-defined] # its parameters (_numpy_compat)
    return method


def quantile(
    input: Tensor,
    q: Any,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.quantile`."""
    if not isinstance(q, (Tensor, float, int)):
        raise _q_error("quantile", False, q)
    return _quantile(input, q, dim, keepdim, interpolation, False)


def nanquantile(
    input: Tensor,
    q: Any,
    dim: int | None = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
    out: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.nanquantile`: NaNs are ignored, as if they were not there."""
    if not isinstance(q, (Tensor, float, int)):
        raise _q_error("nanquantile", False, q)
    return _quantile(input, q, dim, keepdim, interpolation, True)


# --- covariance -------------------------------------------------------------------------------

_DTYPE_NAMES = {
    np.float16: "Half",
    np.float32: "Float",
    np.float64: "Double",
    np.int64: "Long",
    np.int32: "Int",
    np.int16: "Short",
    np.int8: "Char",
    np.uint8: "Byte",
    np.bool_: "Bool",
    np.complex64: "ComplexFloat",
    np.complex128: "ComplexDouble",
}


def _check_weights(w: Tensor, kind: str, n: int) -> None:
    a = w._data
    if a.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {kind} to have one or fewer dimensions but got {kind} with "
            f"{a.ndim} dimensions"
        )
    ok = a.dtype.kind in "iu" if kind == "fweights" else a.dtype.kind == "f"
    if not ok:
        want = "integral" if kind == "fweights" else "floating point"
        raise RuntimeError(
            f"cov(): expected {kind} to have {want} dtype but got {kind} with "
            f"{_DTYPE_NAMES[a.dtype.type]} dtype"
        )
    if a.size != n:
        raise RuntimeError(
            f"cov(): expected {kind} to have the same numel as there are observations in the "
            f"input but got {a.size} != {n}"
        )
    if n and not a.min() >= 0:
        raise RuntimeError(f"cov(): {kind} cannot be negative")


def cov(
    input: Tensor,
    *,
    correction: int = 1,
    fweights: Tensor | None = None,
    aweights: Tensor | None = None,
) -> Tensor:
    """Mirrors `torch.cov`: rows are variables, columns observations."""
    if input.dim() > 2:
        raise RuntimeError(
            "cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input.dim()} dimensions"
        )
    if input.dtype is D.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n)
        w = aweights if w is None else w * aweights
    if w is None:
        w_sum = _make(np.array(n, np.int64))
    else:
        w_sum = w.sum()
        if not bool(w_sum._data != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x if w is None else x * w).sum(1) / w_sum
    if w is not None and correction != 0 and aweights is not None:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if bool(norm._data <= 0):
        warnings.warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations.",
            UserWarning,
            stacklevel=2,
        )
        norm = _make(np.zeros((), norm._data.dtype))
    x = x - avg.unsqueeze(1)
    c = mm(x, (x if w is None else x * w).t().conj())  # torch conjugates (a no-op for reals)
    return (c / norm).squeeze()


def corrcoef(input: Tensor) -> Tensor:
    """Mirrors `torch.corrcoef`: Pearson coefficients, clipped to [-1, 1]."""
    if input.dim() > 2:
        raise RuntimeError(
            "corrcoef(): expected input to have two or fewer dimensions but got an input with "
            f"{input.dim()} dimensions"
        )
    c = cov(input)
    if c.dim() == 0:
        return c / c  # nan for a zero, nan or inf variance, else 1
    std = c.diagonal().sqrt()
    c = c / std.view(-1, 1)
    c = c / std.view(1, -1)
    if c.dtype.is_complex:  # torch clips the real and imaginary parts apart
        from .pointwise import complex_ as _complex

        return _complex(c.real.clip(-1, 1), c.imag.clip(-1, 1))
    return c.clip(-1, 1)


# --- window functions -------------------------------------------------------------------------


def _window(
    name: str,
    n: int,
    periodic: bool,
    dtype: D.dtype | None,
    requires_grad: bool,
    fill: Any,
) -> Tensor:
    d = dtype or D.get_default_dtype()
    if not (d.is_floating_point or d.is_complex):
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype="
            f"{D.CPP_NAMES[d]}, device=cpu, layout=Strided (default), requires_grad=false "
            "(default), pinned_memory=false, memory_format=(nullopt))"
        )
    if n < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={n}")
    if n <= 1:
        return _finish(np.ones(n, d._np), requires_grad)
    m = n + 1 if periodic else n
    w = np.asarray(fill(np.arange(m, dtype=d._np), m), dtype=d._np)
    return _finish(np.ascontiguousarray(w[:n]), requires_grad)


def _cosine(alpha: float, beta: float) -> Any:
    return lambda k, m: alpha - beta * np.cos(k * (2 * math.pi / (m - 1)))


def hamming_window(
    window_length: int,
    periodic: bool = True,
    alpha: float = 0.54,
    beta: float = 0.46,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.hamming_window`."""
    return _window(
        "hamming_window", window_length, periodic, dtype, requires_grad, _cosine(alpha, beta)
    )


def hann_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.hann_window`."""
    return _window("hann_window", window_length, periodic, dtype, requires_grad, _cosine(0.5, 0.5))


def _blackman(k: np.ndarray, m: int) -> np.ndarray:
    t = k * (math.pi / (m - 1))
    return np.cos(t * 4) * 0.08 - np.cos(t * 2) * 0.5 + 0.42


def blackman_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.blackman_window`."""
    return _window("blackman_window", window_length, periodic, dtype, requires_grad, _blackman)


def _bartlett(k: np.ndarray, m: int) -> np.ndarray:
    t = k * (2.0 / (m - 1))
    half = ((m - 1) >> 1) + 1
    t[half:] = 2 - t[half:]
    return t


def bartlett_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.bartlett_window`."""
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, _bartlett)


def kaiser_window(
    window_length: int,
    periodic: bool = True,
    beta: float = 12.0,
    *,
    dtype: D.dtype | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool = False,
    requires_grad: bool = False,
) -> Tensor:
    """Mirrors `torch.kaiser_window`."""

    def fill(k: np.ndarray, m: int) -> np.ndarray:
        a = (m - 1) / 2.0
        r = (k.astype(np.float64) - a) / a
        return np.i0(beta * np.sqrt(np.maximum(1 - r * r, 0))) / np.i0(beta)

    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, fill)


# --- gradient ---------------------------------------------------------------------------------


def _sl(x: Tensor, dim: int, start: int | None, stop: int | None = None) -> Tensor:
    return x[(slice(None),) * dim + (slice(start, stop),)]


def _grad_uniform(x: Tensor, h: Any, d: int, edge: int) -> Tensor:
    center = (_sl(x, d, 2) - _sl(x, d, 0, -2)) / h
    if edge == 1:
        pre = (_sl(x, d, 1, 2) - _sl(x, d, 0, 1)) / h
        app = (_sl(x, d, -1) - _sl(x, d, -2, -1)) / h
    else:
        pre = (_sl(x, d, 0, 1) * -1.5 + _sl(x, d, 1, 2) * 2 - _sl(x, d, 2, 3) * 0.5) / h
        app = (_sl(x, d, -3, -2) * 0.5 + _sl(x, d, -2, -1) * -2 + _sl(x, d, -1) * 1.5) / h
    return cat([pre, center / 2, app], d)


def _grad_coords(x: Tensor, coords: Tensor, d: int, edge: int) -> Tensor:
    shape = [1] * x.dim()
    shape[d] = -1
    dx = coords.diff(1, 0)
    dx1, dx2 = dx[:-1], dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _sl(x, d, 0, -2) + b * _sl(x, d, 1, -1) + c * _sl(x, d, 2)
    if edge == 1:
        pre = (_sl(x, d, 1, 2) - _sl(x, d, 0, 1)) / dx[0]
        app = (_sl(x, d, -1) - _sl(x, d, -2, -1)) / dx[-1]
    else:
        h0, h1 = dx[0], dx[1]
        a = -(2.0 * h0 + h1) / (h0 * (h0 + h1))
        b = (h0 + h1) / (h0 * h1)
        c = (-h0) / (h1 * (h0 + h1))
        pre = a * _sl(x, d, 0, 1) + b * _sl(x, d, 1, 2) + c * _sl(x, d, 2, 3)
        h0, h1 = dx[-1], dx[-2]
        a = h0 / (h1 * (h0 + h1))
        b = -(h0 + h1) / (h0 * h1)
        c = (2 * h0 + h1) / (h0 * (h0 + h1))
        app = a * _sl(x, d, -3, -2) + b * _sl(x, d, -2, -1) + c * _sl(x, d, -1)
    return cat([pre, center, app], d)


def gradient(
    input: Tensor, *, spacing: Any = 1, dim: Any = None, edge_order: int = 1
) -> tuple[Tensor, ...]:
    """Mirrors `torch.gradient`: central differences inside, one-sided ones at the edges."""
    nd = input.dim()
    dims = None if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if isinstance(spacing, (list, tuple)):
        spacing = list(spacing)
        given: int | None = len(spacing)
    else:
        given = None
        spacing = [spacing] * (nd if dims is None else len(dims))
    if input.dtype is D.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if given is not None and dims is None and given != nd:
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {nd}', since dim argument was not given, but got a list of "
            f"length {given}"
        )
    if given is not None and dims is not None and given != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
            f"arguments to have the same length, but got a spacing argument of length {given} "
            f"and a dim argument of length {len(dims)}."
        )
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = [wrap_dim(d, nd) for d in (range(nd) if dims is None else dims)]
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {dims[-1]} appears multiple times in the list of dims")
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1"
            )
    out = []
    for d, h in zip(dims, spacing, strict=True):
        if isinstance(h, Tensor):
            if h.dim() != 1:
                raise RuntimeError(
                    "torch.gradient expected each element of spacing to have one dimension, "
                    f"but got an element with {h.dim()} dimensions!"
                )
            out.append(_grad_coords(input, h, d, edge_order))
        else:
            out.append(_grad_uniform(input, h, d, edge_order))
    return tuple(out)


# --- angle ----------------------------------------------------------------------


def _np_angle(self: np.ndarray) -> np.ndarray:
    if self.dtype.kind == "c":
        return np.angle(self)
    x = self if self.dtype.kind == "f" else self.astype(D.get_default_dtype()._np)
    # pi for negatives, 0 otherwise (also for -0.0), nan stays nan
    return np.where(x < 0, x.dtype.type(math.pi), np.where(np.isnan(x), x, 0)).astype(x.dtype)


angle = defop(
    "angle",
    "AngleBackward0",
    _np_angle,
    dtype="keep",
    self=lambda grad, self: grad * 0,  # piecewise constant for real inputs
    jvp=ELEMENTWISE,
    # torch's angle_backward for complex z: grad * z / |z|^2 * i, and 0 at z = 0
    complex={"self": lambda grad, self: _angle_complex_grad(grad, self)},
)


def _angle_complex_grad(grad: Tensor, self: Tensor) -> Tensor:
    from .pointwise import where

    g = grad * self / self.abs().pow(2) * 1j
    return where(self == 0, _make(np.zeros((), g._data.dtype)), g)


# --- random sampling ------------------------------------------------------------------------


def _np_poisson(self: np.ndarray, generator: Any) -> np.ndarray:
    _not_for("poisson_cpu", self, "biu")
    if not bool(np.all(self >= 0)):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _rng_samplers.poisson(_gen(generator), self)


_poisson = defop(
    "poisson",
    "PoissonBackward0",
    _np_poisson,
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)


def poisson(input: Tensor, generator: Any = None) -> Tensor:
    """Mirrors `torch.poisson` (torch's transformed-rejection sampler); the gradient is zero."""
    return _poisson(input, generator)


def binomial(count: Tensor, prob: Tensor, generator: Any = None) -> Tensor:
    """Mirrors `torch.binomial` (torch's inversion and BTRS samplers); backward raises, as
    torch has no derivative for it."""
    c, p = count._data, prob._data
    if c.dtype.kind != "f":
        raise ValueError(
            f"binomial only supports floating-point dtypes for count, got: {count.dtype._short}"
        )
    if p.dtype != c.dtype:
        raise RuntimeError(f"Found dtype {prob.dtype._short} but expected {count.dtype._short}")
    draws = _rng_samplers.binomial(_gen(generator), c, p)
    return _not_implemented(_make(draws), (count, prob), "binomial")


def _continuous(name: str, a: np.ndarray) -> None:
    if a.dtype.kind not in "fc":
        raise RuntimeError(
            f"{name} distribution is a continuous probability distribution. dtype must be a "
            f"floating point but you specified {D.CPP_NAMES[D._FROM_NP[a.dtype]]}"
        )


def _np_cauchy(self: np.ndarray, median: float, sigma: float, generator: Any) -> np.ndarray:
    _continuous("Cauchy", self)
    drawn = _rk.cauchy(_gen(generator), self.size, median, sigma)
    return _rk.place(_rk.cast(drawn, self.dtype), self)


def _np_log_normal(self: np.ndarray, mean: float, std: float, generator: Any) -> np.ndarray:
    _not_for("log_normal_cpu", self, "biu")
    drawn = _rk.log_normal(_gen(generator), self.size, mean, std)
    return _rk.place(_rk.cast(drawn, self.dtype), self)


def _np_geometric(self: np.ndarray, p: float, generator: Any) -> np.ndarray:
    _not_for("geometric_cpu", self, "b")
    with np.errstate(invalid="ignore"):
        drawn = _rk.cast(_rk.geometric(_gen(generator), self.size, p), self.dtype)
    return _rk.place(drawn, self)


_cauchy = defop(
    "cauchy", "CauchyBackward0", _np_cauchy, dtype="keep", self=_zero_grad, jvp=ELEMENTWISE
)
_log_normal = defop(
    "log_normal",
    "LogNormalBackward0",
    _np_log_normal,
    dtype="keep",
    self=_zero_grad,
    jvp=ELEMENTWISE,
)
_geometric = defop(
    "geometric", "GeometricBackward0", _np_geometric, dtype="keep", self=_zero_grad, jvp=ELEMENTWISE
)


@autograd_checks_first
def cauchy_(self: Tensor, median: float = 0, sigma: float = 1, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.cauchy_`."""
    if generator is not None:
        check_generator("cauchy_", generator)
    if type(median) is not float or type(sigma) is not float:
        median = _float_arg("cauchy_", "median", 1, median)
        sigma = _float_arg("cauchy_", "sigma", 2, sigma)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_num(sigma)}")
    return apply_inplace(_cauchy, self, median, sigma, generator)


@autograd_checks_first
def log_normal_(self: Tensor, mean: float = 1, std: float = 2, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.log_normal_`."""
    if generator is not None:
        check_generator("log_normal_", generator)
    if type(mean) is not float or type(std) is not float:
        mean = _float_arg("log_normal_", "mean", 1, mean)
        std = _float_arg("log_normal_", "std", 2, std)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_num(std)}")
    return apply_inplace(_log_normal, self, mean, std, generator)


@autograd_checks_first
def geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    """Mirrors `torch.Tensor.geometric_`: trials until the first success, from 1."""
    if generator is not None:
        check_generator("geometric_", generator)
    if type(p) is not float:
        p = _float_arg("geometric_", "p", 1, p)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_num(p)}")
    return apply_inplace(_geometric, self, p, generator)


# --- predicates -------------------------------------------------------------------------------


def _predicate(name: str) -> Any:
    def fn(input: Tensor, *args: Any) -> Any:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        return getattr(input, name)(*args)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`."
    return fn


def can_cast(from_: D.dtype, to: D.dtype) -> bool:
    """Mirrors `torch.can_cast`: no cast to a lower category (complex > float > int > bool)."""
    for pos, (arg, val) in enumerate((("from_", from_), ("to", to)), 1):
        if not isinstance(val, D.dtype):
            raise TypeError(
                f"can_cast(): argument '{arg}' (position {pos}) must be torch.dtype, not "
                f"{type(val).__name__}"
            )

    def rank(d: D.dtype) -> int:
        return 3 if d.is_complex else 2 if d.is_floating_point else 0 if d is D.bool_ else 1

    return rank(from_) <= rank(to)


# --- histogram, histogramdd -------------------------------------------------------------------

_HDD = "torch.histogramdd"


def _hist_input(input: Tensor) -> np.ndarray:
    x = input._data
    if x.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{input.dtype._short}'")
    return x


def _hist_weight(x2: np.ndarray, input: Tensor, weight: Tensor | None) -> np.ndarray | None:
    if weight is None:
        return None
    w = weight._data
    if w.dtype != x2.dtype:
        raise RuntimeError(
            f"{_HDD}: if weight tensor is provided, input tensor and weight tensor should have "
            f"the same dtype, but got input({input.dtype._short.lower()}), and "
            f"weight({weight.dtype._short.lower()})"
        )
    if w.shape != x2.shape[:-1]:
        raise RuntimeError(
            f"{_HDD}: if weight tensor is provided it should have the same shape as the input "
            f"tensor excluding its innermost dimension, but got input with shape "
            f"{shape_str(x2.shape)} and weight with shape {shape_str(w.shape)}"
        )
    return w


def _edges_from_counts(x2: np.ndarray, bins: Any, rng: Any) -> list[np.ndarray]:
    """Equal-width edges per dimension over range (the data's when None); an empty range is
    widened by 0.5 on each side, as torch's select_outer_bin_edges does."""
    n = x2.shape[-1]
    if len(bins) != n:
        raise RuntimeError(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input."
        )
    for d, b in enumerate(bins):
        if b <= 0:
            raise RuntimeError(
                f"torch.histogram(): bins must be > 0, but got {b} for dimension {d}"
            )
    if rng is not None:
        if len(rng) != 2 * n:
            raise RuntimeError(
                f"{_HDD}: for a {n}-dimensional histogram range should have {2 * n} elements, "
                f"but got {len(rng)}"
            )
        lo = [float(v) for v in rng[0::2]]
        hi = [float(v) for v in rng[1::2]]
    elif x2.shape[0] > 0:
        lo = [float(v) for v in x2.min(0)]
        hi = [float(v) for v in x2.max(0)]
    else:
        lo, hi = [0.0] * n, [1.0] * n
    edges = []
    for d in range(n):
        if not (math.isfinite(lo[d]) and math.isfinite(hi[d])):
            raise RuntimeError(
                f"{_HDD}: dimension {d}'s range [{_g(lo[d])}, {_g(hi[d])}] is not finite"
            )
        if lo[d] > hi[d]:
            raise RuntimeError(
                f"{_HDD}: min should not exceed max, but got min {_g(lo[d])} max {_g(hi[d])} "
                f"for dimension {d}"
            )
        a, b = (lo[d] - 0.5, hi[d] + 0.5) if lo[d] == hi[d] else (lo[d], hi[d])
        edges.append(linspace_in(x2.dtype.type, a, b, int(bins[d]) + 1))
    return edges


def _g(v: float) -> str:
    return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else f"{v:g}"


def _check_bin_tensors(x2: np.ndarray, input: Tensor, bins: Any) -> list[np.ndarray]:
    n = x2.shape[-1]
    if len(bins) != n:
        raise RuntimeError(
            f"{_HDD}: expected {n} sequences of bin edges for a {n}-dimensional histogram but "
            f"got {len(bins)}"
        )
    for d, b in enumerate(bins):
        if b._data.dtype != x2.dtype:
            raise RuntimeError(
                f"{_HDD}: input tensor and bins tensors should have the same dtype, but got "
                f"input with dtype {input.dtype._short.lower()} and bins for dimension {d} with "
                f"dtype {b.dtype._short.lower()}"
            )
        if b.ndim != 1:
            raise RuntimeError(
                f"{_HDD}: bins tensor should have one dimension, but got {b.ndim} dimensions in "
                f"the bins tensor for dimension {d}"
            )
        if b._data.size < 1:
            raise RuntimeError(
                f"{_HDD}: bins tensor should have at least 1 element, but got "
                f"{b._data.size} elements for dimension {d}"
            )
        if b._data.size == 1:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got 0 for dimension {d}")
    return [b._data for b in bins]


def _hist_counts(
    x2: np.ndarray, edges: list[np.ndarray], w: np.ndarray | None, density: bool
) -> np.ndarray:
    """Each row's bin (right-open bins, the last closed; rows outside an edge range dropped),
    accumulated in the input's dtype; density divides by the total and each bin's width."""
    keep = np.ones(x2.shape[0], bool)
    idx = []
    for d, e in enumerate(edges):
        v = x2[:, d]
        with np.errstate(invalid="ignore"):
            keep &= (v >= e[0]) & (v <= e[-1])
        pos = np.searchsorted(e, v, side="right") - 1
        idx.append(np.clip(pos, 0, max(e.size - 2, 0)))
    shape = tuple(max(e.size - 1, 0) for e in edges)
    hist = np.zeros(shape, x2.dtype)
    vals = np.ones(x2.shape[0], x2.dtype) if w is None else w.reshape(-1)
    np.add.at(hist, tuple(i[keep] for i in idx), vals[keep])
    if density:
        with np.errstate(all="ignore"):
            hist = hist / hist.sum(dtype=hist.dtype)
            for d, e in enumerate(edges):
                view = [1] * len(edges)
                view[d] = -1
                hist = hist / np.diff(e).reshape(view)
    return hist.astype(x2.dtype, copy=False)


def histogram(
    input: Tensor,
    bins: Any = 100,
    *,
    range: Any = None,
    weight: Tensor | None = None,
    density: bool = False,
    out: Any = None,
) -> Any:
    """Mirrors `torch.histogram`: bins an int (equal widths over range or the data's range) or
    a 1-D tensor of edges; the named tuple (hist, bin_edges), never differentiable."""
    tensor_bins = isinstance(bins, Tensor)
    if tensor_bins and range is not None:
        raise TypeError(
            "histogram() received an invalid combination of arguments - got (Tensor, Tensor, "
            "range=tuple), but expected one of:\n"
            " * (Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, "
            "tuple of Tensors out = None)\n"
            " * (Tensor input, int bins = 100, *, tuple of floats range = None, Tensor weight = "
            "None, bool density = False, tuple of Tensors out = None)\n"
        )
    x = _hist_input(input)
    x2 = x.reshape(-1, 1)
    if weight is not None:
        weight = weight.reshape(-1)
    w = _hist_weight(x2, input, weight)
    if tensor_bins:
        edges = _check_bin_tensors(x2, input, [bins])
    else:
        edges = _edges_from_counts(x2, [int(bins)], range)
    hist = _hist_counts(x2, edges, w, density)
    ins = (input, bins, weight)
    h = _not_implemented(_make(hist), ins, "histogram")
    e = _not_implemented(_make(np.array(edges[0])), ins, "histogram")
    if out is not None:
        raise RuntimeError("histogram(): out= is not supported")
    return return_types.histogram((h, e))


def histogramdd(
    input: Tensor,
    bins: Any,
    *,
    range: Any = None,
    weight: Tensor | None = None,
    density: bool = False,
) -> Any:
    """Mirrors `torch.histogramdd`: the innermost dimension holds each point's coordinates;
    bins an int, a list of ints or a list of 1-D edge tensors (returned as given)."""
    x = _hist_input(input)
    if x.ndim < 2:
        raise RuntimeError(f"{_HDD}: input tensor should have at least 2 dimensions")
    if isinstance(bins, int):
        bins = [bins] * x.shape[-1]
    x2 = x.reshape(-1, x.shape[-1])
    counts = bool(bins) and isinstance(bins[0], int)
    ins: tuple[Any, ...] = (input, weight)
    if counts:
        w = _hist_weight(x2, input, None if weight is None else weight.reshape(-1))
        edges = _edges_from_counts(x2, list(bins), range)
        bin_edges: Any = tuple(
            _not_implemented(_make(np.array(e)), ins, "_histogramdd_bin_edges") for e in edges
        )
        aten = "_histogramdd_from_bin_cts"
    else:
        edges = _check_bin_tensors(x2, input, bins)
        w = _hist_weight(x2, input, None if weight is None else weight.reshape(-1))
        bin_edges, aten = tuple(bins), "_histogramdd_from_bin_tensors"
        ins = (input, *bins, weight)
    hist = _hist_counts(x2, edges, w, density)
    return return_types.histogramdd((_not_implemented(_make(hist), ins, aten), bin_edges))


return_types.histogram = _structseq("histogram", ("hist", "bin_edges"))  # type: ignore[attr-defined]
return_types.histogramdd = _structseq("histogramdd", ("hist", "bin_edges"))  # type: ignore[attr-defined]
return_types.__all__ += ["histogram", "histogramdd"]  # type: ignore[attr-defined]


METHODS: dict[str, Any] = {
    "quantile": _q_checked("quantile", quantile),
    "nanquantile": _q_checked("nanquantile", nanquantile),
    "cov": cov,
    "corrcoef": corrcoef,
    "angle": angle,
    "histogram": histogram,
}
FUNCTIONS: dict[str, Any] = {
    **METHODS,
    "quantile": quantile,
    "nanquantile": nanquantile,
    "hann_window": hann_window,
    "hamming_window": hamming_window,
    "blackman_window": blackman_window,
    "bartlett_window": bartlett_window,
    "kaiser_window": kaiser_window,
    "gradient": gradient,
    "histogramdd": histogramdd,
    "can_cast": can_cast,
    "poisson": poisson,
    "binomial": binomial,
    **{
        n: _predicate(n)
        for n in (
            "is_complex",
            "is_conj",
            "is_inference",
            "is_nonzero",
            "is_same_size",
            "is_signed",
        )
    },
}
METHODS.update({"cauchy_": cauchy_, "log_normal_": log_normal_, "geometric_": geometric_})
