"""Invertible maps between constrained spaces, with log |det J|. Mirrors
`torch.distributions.transforms`."""

from __future__ import annotations

import functools
import math
import numbers
import operator
import weakref
from typing import Any

import shadowgrad as torch
from shadowgrad.nn.functional import logsigmoid, pad, softplus

from . import constraints
from .utils import (
    _broadcast_shapes,
    _sum_rightmost,
    broadcast_all,
    finfo,
    tril_matrix_to_vec,
    vec_to_tril_matrix,
)

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "CatTransform",
    "ComposeTransform",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "ExpTransform",
    "IndependentTransform",
    "LowerCholeskyTransform",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
    "Transform",
    "identity_transform",
]


class Transform:
    """An invertible (or at least computable) map ``y = t(x)`` with its log |det dy/dx|.

    ``cache_size=1`` remembers the latest ``(x, y)`` pair, so ``t.inv(t(x))`` returns ``x``."""

    bijective = False
    domain: Any
    codomain: Any

    def __init__(self, cache_size: int = 0) -> None:
        self._cache_size = cache_size
        self._inv: Any = None
        if cache_size == 0:
            pass
        elif cache_size == 1:
            self._cached_x_y = None, None
        else:
            raise ValueError("cache_size must be 0 or 1")
        super().__init__()

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_inv"] = None
        return state

    @property
    def event_dim(self) -> int:
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    @property
    def inv(self) -> Transform:
        """The inverse transform, kept through a weak reference as torch does."""
        inv = self._inv() if self._inv is not None else None
        if inv is None:
            inv = _InverseTransform(self)
            self._inv = weakref.ref(inv)
        return inv

    @property
    def sign(self) -> Any:
        """+1 or -1 for a monotone increasing or decreasing map."""
        raise NotImplementedError

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError(f"{type(self)}.with_cache is not implemented")

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = object.__hash__

    def __call__(self, x: Any) -> Any:
        if self._cache_size == 0:
            return self._call(x)
        x_old, y_old = self._cached_x_y
        if x is x_old:
            return y_old
        y = self._call(x)
        self._cached_x_y = x, y
        return y

    def _inv_call(self, y: Any) -> Any:
        if self._cache_size == 0:
            return self._inverse(y)
        x_old, y_old = self._cached_x_y
        if y is y_old:
            return x_old
        x = self._inverse(y)
        self._cached_x_y = x, y
        return x

    def _call(self, x: Any) -> Any:
        raise NotImplementedError

    def _inverse(self, y: Any) -> Any:
        raise NotImplementedError

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.__class__.__name__ + "()"

    def forward_shape(self, shape: Any) -> Any:
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        return shape


class _InverseTransform(Transform):
    """The inverse of a transform; holds a strong reference to it."""

    def __init__(self, transform: Transform) -> None:
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @constraints.dependent_property(is_discrete=False)
    def domain(self) -> Any:
        return self._inv.codomain

    @constraints.dependent_property(is_discrete=False)
    def codomain(self) -> Any:
        return self._inv.domain

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return self._inv.bijective

    @property
    def sign(self) -> Any:
        return self._inv.sign

    @property
    def inv(self) -> Transform:
        return self._inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        return self.inv.with_cache(cache_size).inv

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _InverseTransform):
            return False
        return self._inv == other._inv

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self._inv!r})"

    def __call__(self, x: Any) -> Any:
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape: Any) -> Any:
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape: Any) -> Any:
        return self._inv.forward_shape(shape)


class ComposeTransform(Transform):
    """Applies ``parts`` in order; an empty list is the identity."""

    def __init__(self, parts: list, cache_size: int = 0) -> None:
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ComposeTransform):
            return False
        return self.parts == other.parts

    __hash__ = object.__hash__

    def _widest(self, parts: list, first: str, last: str) -> Any:
        # the event dim that the whole chain consumes, seen from one end
        if not parts:
            return constraints.real
        end = getattr(parts[0], first)
        event_dim = getattr(parts[-1], last).event_dim
        for part in reversed(parts):
            event_dim += getattr(part, first).event_dim - getattr(part, last).event_dim
            event_dim = max(event_dim, getattr(part, first).event_dim)
        if event_dim > end.event_dim:
            end = constraints.independent(end, event_dim - end.event_dim)
        return end

    @constraints.dependent_property(is_discrete=False)
    def domain(self) -> Any:
        return self._widest(self.parts, "domain", "codomain")

    @constraints.dependent_property(is_discrete=False)
    def codomain(self) -> Any:
        return self._widest(self.parts[::-1], "codomain", "domain")

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(p.bijective for p in self.parts)

    @property
    def sign(self) -> Any:
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def inv(self) -> Transform:
        inv = self._inv() if self._inv is not None else None
        if inv is None:
            inv = ComposeTransform([p.inv for p in reversed(self.parts)])
            self._inv = weakref.ref(inv)
            inv._inv = weakref.ref(self)
        return inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __call__(self, x: Any) -> Any:
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        if not self.parts:
            return torch.zeros_like(x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        terms = []
        event_dim = self.domain.event_dim
        for part, a, b in zip(self.parts, xs[:-1], xs[1:], strict=True):
            ladj = part.log_abs_det_jacobian(a, b)
            terms.append(_sum_rightmost(ladj, event_dim - part.domain.event_dim))
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return functools.reduce(operator.add, terms)

    def forward_shape(self, shape: Any) -> Any:
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        body = ",\n    ".join(repr(p) for p in self.parts)
        return self.__class__.__name__ + "(\n    " + body + "\n)"


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """Treats the ``reinterpreted_batch_ndims`` rightmost batch dims of ``base_transform`` as
    event dims: log |det J| is summed over them."""

    def __init__(
        self, base_transform: Transform, reinterpreted_batch_ndims: int, cache_size: int = 0
    ) -> None:
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size
        )

    @constraints.dependent_property(is_discrete=False)
    def domain(self) -> Any:
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self) -> Any:
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return self.base_transform.bijective

    @property
    def sign(self) -> Any:
        return self.base_transform.sign

    def _call(self, x: Any) -> Any:
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y: Any) -> Any:
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        result = self.base_transform.log_abs_det_jacobian(x, y)
        return _sum_rightmost(result, self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"
        )

    def forward_shape(self, shape: Any) -> Any:
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape: Any) -> Any:
        return self.base_transform.inverse_shape(shape)


class ReshapeTransform(Transform):
    """Reshapes the rightmost ``in_shape`` dims to ``out_shape`` (same number of elements)."""

    bijective = True

    def __init__(self, in_shape: Any, out_shape: Any, cache_size: int = 0) -> None:
        self.in_shape = torch.Size(in_shape)
        self.out_shape = torch.Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    @constraints.dependent_property
    def domain(self) -> Any:
        return constraints.independent(constraints.real, len(self.in_shape))

    @constraints.dependent_property
    def codomain(self) -> Any:
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x: Any) -> Any:
        batch_shape = x.shape[: x.dim() - len(self.in_shape)]
        return x.reshape(batch_shape + self.out_shape)

    def _inverse(self, y: Any) -> Any:
        batch_shape = y.shape[: y.dim() - len(self.out_shape)]
        return y.reshape(batch_shape + self.in_shape)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        batch_shape = x.shape[: x.dim() - len(self.in_shape)]
        return x.new_zeros(batch_shape)

    @staticmethod
    def _swap(shape: Any, frm: Any, to: Any) -> Any:
        if len(shape) < len(frm):
            raise ValueError("Too few dimensions on input")
        cut = len(shape) - len(frm)
        if shape[cut:] != frm:
            raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {frm}")
        return shape[:cut] + to

    def forward_shape(self, shape: Any) -> Any:
        return self._swap(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape: Any) -> Any:
        return self._swap(shape, self.out_shape, self.in_shape)


class ExpTransform(Transform):
    """y = exp(x)."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.exp()

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return x


class PowerTransform(Transform):
    """y = x ** exponent on the positive reals."""

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    @functools.cached_property
    def sign(self) -> Any:
        return self.exponent.sign()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PowerTransform):
            return False
        return bool(self.exponent.eq(other.exponent).all().item())

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.pow(self.exponent)

    def _inverse(self, y: Any) -> Any:
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape: Any) -> Any:
        return _broadcast_shapes(shape, getattr(self.exponent, "shape", ()))

    inverse_shape = forward_shape


def _clipped_sigmoid(x: Any) -> Any:
    fi = finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=float(fi.tiny), max=1.0 - float(fi.eps))


class SigmoidTransform(Transform):
    """y = sigmoid(x), kept strictly inside (0, 1)."""

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SigmoidTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return _clipped_sigmoid(x)

    def _inverse(self, y: Any) -> Any:
        fi = finfo(y.dtype)
        y = y.clamp(min=float(fi.tiny), max=1.0 - float(fi.eps))
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return -softplus(-x) - softplus(x)


class SoftplusTransform(Transform):
    """y = log(1 + exp(x))."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftplusTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return softplus(x)

    def _inverse(self, y: Any) -> Any:
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return -softplus(-x)


class TanhTransform(Transform):
    """y = tanh(x), with a log |det J| that stays finite for large |x|."""

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TanhTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.tanh()

    def _inverse(self, y: Any) -> Any:
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        # log(1 - tanh(x)^2) = 2 (log 2 - x - softplus(-2x))
        return 2.0 * (math.log(2.0) - x - softplus(-2.0 * x))


class AbsTransform(Transform):
    """y = |x| (not injective)."""

    domain = constraints.real
    codomain = constraints.positive

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbsTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.abs()

    def _inverse(self, y: Any) -> Any:
        return y


class AffineTransform(Transform):
    """y = loc + scale * x, over ``event_dim`` rightmost dims."""

    bijective = True

    def __init__(self, loc: Any, scale: Any, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self) -> Any:
        if self.event_dim == 0:
            return constraints.real
        return constraints.independent(constraints.real, self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self) -> Any:
        return self.domain

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffineTransform):
            return False
        for a, b in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(a, numbers.Number) and isinstance(b, numbers.Number):
                if a != b:
                    return False
            elif not bool((a == b).all().item()):
                return False
        return True

    __hash__ = object.__hash__

    @property
    def sign(self) -> Any:
        if isinstance(self.scale, numbers.Real):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x: Any) -> Any:
        return self.loc + self.scale * x

    def _inverse(self, y: Any) -> Any:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        shape = x.shape
        if isinstance(self.scale, numbers.Real):
            result = torch.full_like(x, math.log(abs(self.scale)))
        else:
            result = torch.abs(self.scale).log()
        if self.event_dim:
            result = result.view((*result.size()[: -self.event_dim], -1)).sum(-1)
            shape = shape[: -self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape: Any) -> Any:
        return _broadcast_shapes(
            shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ())
        )

    inverse_shape = forward_shape


def _need_dims(shape: Any) -> None:
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")


class SoftmaxTransform(Transform):
    """Unconstrained vectors to the simplex by softmax (not injective)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftmaxTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def forward_shape(self, shape: Any) -> Any:
        _need_dims(shape)
        return shape

    inverse_shape = forward_shape


def _stick_offset(x: Any, n: int) -> Any:
    # n, n-1, ..., 1 over the last dim of x: centres each break at an even split
    return n - x.new_ones(x.shape[-1]).cumsum(-1)


class StickBreakingTransform(Transform):
    """Vectors of K - 1 reals to the K-simplex by stick breaking (bijective)."""

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StickBreakingTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        offset = _stick_offset(x, x.shape[-1] + 1)
        z = _clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        return pad(z, [0, 1], value=1) * pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_crop = y[..., :-1]
        offset = _stick_offset(y_crop, y.shape[-1])
        sf = 1 - y_crop.cumsum(-1)
        sf = torch.clamp(sf, min=float(finfo(y.dtype).tiny))
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        offset = _stick_offset(x, x.shape[-1] + 1)
        x = x - offset.log()
        return (-x + logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape: Any) -> Any:
        _need_dims(shape)
        return shape[:-1] + (shape[-1] + 1,)  # noqa: RUF005 (keeps torch.Size)

    def inverse_shape(self, shape: Any) -> Any:
        _need_dims(shape)
        return shape[:-1] + (shape[-1] - 1,)  # noqa: RUF005 (keeps torch.Size)


class LowerCholeskyTransform(Transform):
    """Square matrices to lower-triangular ones with a positive diagonal (exp of the diagonal)."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LowerCholeskyTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y: Any) -> Any:
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class CorrCholeskyTransform(Transform):
    """Vectors of ``D (D - 1) / 2`` reals to Cholesky factors of ``D x D`` correlation
    matrices: the strict lower triangle filled row by row with ``tanh(x)``, each row then
    put on the unit sphere by a signed stick breaking."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x: Any) -> Any:
        x = torch.tanh(x)
        eps = float(finfo(x.dtype).eps)
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        # y = sign(r) sqrt(z * prod(1 - z)) = r * sqrt(prod(1 - z)) with z = r ** 2
        z = r**2
        z1m_cumprod_sqrt = (1 - z).sqrt().cumprod(-1)
        r = r + torch.eye(r.shape[-1], dtype=r.dtype)
        return r * pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_cumsum = 1 - torch.cumsum(y * y, dim=-1)
        y_cumsum_shifted = pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # atanh

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        # of x against the flattened strict lower triangle of y
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        y1m_cumsum_tril = tril_matrix_to_vec(y1m_cumsum, diag=-2)
        stick_breaking_logdet = 0.5 * y1m_cumsum_tril.log().sum(-1)
        tanh_logdet = -2 * (x + softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape: Any) -> Any:
        _need_dims(shape)
        N = shape[-1]
        D = round((0.25 + 2 * N) ** 0.5 + 0.5)
        if D * (D - 1) // 2 != N:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (D, D)  # noqa: RUF005 (keeps torch.Size)

    def inverse_shape(self, shape: Any) -> Any:
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        D = shape[-1]
        return shape[:-2] + (D * (D - 1) // 2,)  # noqa: RUF005 (keeps torch.Size)


class PositiveDefiniteTransform(Transform):
    """Square matrices to positive definite ones: L L^T of their `LowerCholeskyTransform`."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PositiveDefiniteTransform)

    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        x = LowerCholeskyTransform()(x)
        return x @ x.mT

    def _inverse(self, y: Any) -> Any:
        y = torch.linalg.cholesky(y)
        return LowerCholeskyTransform().inv(y)


class CumulativeDistributionTransform(Transform):
    """y = distribution.cdf(x), onto the unit interval."""

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self) -> Any:  # type: ignore[override]
        return self.distribution.support

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.distribution, cache_size=cache_size)

    def _call(self, x: Any) -> Any:
        return self.distribution.cdf(x)

    def _inverse(self, y: Any) -> Any:
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        return self.distribution.log_prob(x)


class _PiecewiseTransform(Transform):
    """Shared body of Cat/StackTransform: ``tseq[i]`` acts on piece ``i`` along ``dim``."""

    def __init__(self, tseq: Any, dim: int, cache_size: int) -> None:
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(t.bijective for t in self.transforms)

    def _check(self, t: Any, name: str, kind: str, size: int, what: str) -> None:
        if not -t.dim() <= self.dim < t.dim():
            raise AssertionError(
                f"dim {self.dim} out of range for {kind} with {t.dim()} dimensions"
            )
        if t.size(self.dim) != size:
            raise AssertionError(f"{name}.size({self.dim}) = {t.size(self.dim)} must equal {what}")


class CatTransform(_PiecewiseTransform):
    """Applies ``tseq[i]`` to the slice of length ``lengths[i]`` along ``dim``."""

    def __init__(self, tseq: Any, dim: int = 0, lengths: Any = None, cache_size: int = 0) -> None:
        super().__init__(tseq, dim, cache_size)
        if lengths is None:
            lengths = [1] * len(self.transforms)
        self.lengths = list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})"
            )
        self.dim = dim

    @functools.cached_property
    def event_dim(self) -> int:  # type: ignore[override]
        return max(t.event_dim for t in self.transforms)

    @functools.cached_property
    def length(self) -> int:
        return sum(self.lengths)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _pieces(self, x: Any, forward: bool) -> list:
        self._check(x, "x" if forward else "y", "tensor", self.length, f"length {self.length}")
        out, start = [], 0
        for trans, length in zip(self.transforms, self.lengths, strict=True):
            piece = x.narrow(self.dim, start, length)
            out.append(trans(piece) if forward else trans.inv(piece))
            start += length
        return out

    def _call(self, x: Any) -> Any:
        return torch.cat(self._pieces(x, True), dim=self.dim)

    def _inverse(self, y: Any) -> Any:
        return torch.cat(self._pieces(y, False), dim=self.dim)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        for name, t in (("x", x), ("y", y)):
            self._check(t, name, name, self.length, f"length {self.length}")
        logdetjacs, start = [], 0
        for trans, length in zip(self.transforms, self.lengths, strict=True):
            xs, ys = x.narrow(self.dim, start, length), y.narrow(self.dim, start, length)
            ladj = trans.log_abs_det_jacobian(xs, ys)
            if trans.event_dim < self.event_dim:
                ladj = _sum_rightmost(ladj, self.event_dim - trans.event_dim)
            logdetjacs.append(ladj)
            start += length
        dim = self.dim
        if dim >= 0:
            dim = dim - x.dim()
        dim = dim + self.event_dim
        if dim < 0:
            return torch.cat(logdetjacs, dim=dim)
        return sum(logdetjacs)

    @constraints.dependent_property
    def domain(self) -> Any:
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self) -> Any:
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(_PiecewiseTransform):
    """Applies ``tseq[i]`` to the ``i``-th slice along ``dim`` and stacks the results."""

    def __init__(self, tseq: Any, dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(tseq, dim, cache_size)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z: Any) -> list:
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _apply(self, x: Any, forward: bool) -> Any:
        n = len(self.transforms)
        self._check(x, "x" if forward else "y", "tensor", n, f"len(transforms) {n}")
        out = [
            t(xi) if forward else t.inv(xi)
            for xi, t in zip(self._slice(x), self.transforms, strict=True)
        ]
        return torch.stack(out, dim=self.dim)

    def _call(self, x: Any) -> Any:
        return self._apply(x, True)

    def _inverse(self, y: Any) -> Any:
        return self._apply(y, False)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        n = len(self.transforms)
        for name, t in (("x", x), ("y", y)):
            self._check(t, name, name, n, f"len(transforms) {n}")
        parts = [
            t.log_abs_det_jacobian(xi, yi)
            for xi, yi, t in zip(self._slice(x), self._slice(y), self.transforms, strict=True)
        ]
        return torch.stack(parts, dim=self.dim)

    @constraints.dependent_property
    def domain(self) -> Any:
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self) -> Any:
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
