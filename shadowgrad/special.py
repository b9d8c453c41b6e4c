"""Mirrors `torch.special`: the special functions under their scipy-style names. Each is the
base op torch's alias calls, so grad_fn names match (`expit` records SigmoidBackward0)."""

from __future__ import annotations

import math
from typing import Any

from . import _dtype as _D
from ._tensor import Tensor
from .ops import pointwise as _P
from .ops import rounding as _R
from .ops import special as _S
from .ops import special_bessel as _SB
from .ops import special_poly as _SP

__all__ = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
    "zeta",
]

_F = _P.FUNCTIONS
erf = _F["erf"]
erfc = _F["erfc"]
erfinv = _F["erfinv"]
exp2 = _F["exp2"]
expm1 = _F["expm1"]
log1p = _F["log1p"]
logit = _F["logit"]
xlogy = _F["xlogy"]
gammaln = _S.FUNCTIONS["lgamma"]
digamma = _S.FUNCTIONS["digamma"]
psi = _S.FUNCTIONS["digamma"]
polygamma = _S.FUNCTIONS["polygamma"]
multigammaln = _S.FUNCTIONS["mvlgamma"]
i0 = _SB.FUNCTIONS["i0"]
sinc = _SB.FUNCTIONS["sinc"]
xlog1py = _S.xlog1py
zeta = _S.zeta
gammainc = _S.gammainc
gammaincc = _S.gammaincc
erfcx = _P._unary_out(_S.erfcx, "special_erfcx")
log_ndtr = _P._unary_out(_S.log_ndtr, "special_log_ndtr")
ndtri = _P._unary_out(_S.ndtri, "special_ndtri")
i0e = _P._unary_out(_SB.i0e, "special_i0e")
i1 = _P._unary_out(_SB.i1, "special_i1")
i1e = _P._unary_out(_SB.i1e, "special_i1e")
airy_ai = _SB.BESSEL["airy_ai"]
bessel_j0 = _SB.BESSEL["bessel_j0"]
bessel_j1 = _SB.BESSEL["bessel_j1"]
bessel_y0 = _SB.BESSEL["bessel_y0"]
bessel_y1 = _SB.BESSEL["bessel_y1"]
modified_bessel_i0 = _SB.BESSEL["modified_bessel_i0"]
modified_bessel_i1 = _SB.BESSEL["modified_bessel_i1"]
modified_bessel_k0 = _SB.BESSEL["modified_bessel_k0"]
modified_bessel_k1 = _SB.BESSEL["modified_bessel_k1"]
scaled_modified_bessel_k0 = _SB.BESSEL["scaled_modified_bessel_k0"]
scaled_modified_bessel_k1 = _SB.BESSEL["scaled_modified_bessel_k1"]
spherical_bessel_j0 = _SB.BESSEL["spherical_bessel_j0"]
chebyshev_polynomial_t = _SP.POLYNOMIALS["chebyshev_polynomial_t"]
chebyshev_polynomial_u = _SP.POLYNOMIALS["chebyshev_polynomial_u"]
chebyshev_polynomial_v = _SP.POLYNOMIALS["chebyshev_polynomial_v"]
chebyshev_polynomial_w = _SP.POLYNOMIALS["chebyshev_polynomial_w"]
shifted_chebyshev_polynomial_t = _SP.POLYNOMIALS["shifted_chebyshev_polynomial_t"]
shifted_chebyshev_polynomial_u = _SP.POLYNOMIALS["shifted_chebyshev_polynomial_u"]
shifted_chebyshev_polynomial_v = _SP.POLYNOMIALS["shifted_chebyshev_polynomial_v"]
shifted_chebyshev_polynomial_w = _SP.POLYNOMIALS["shifted_chebyshev_polynomial_w"]
hermite_polynomial_h = _SP.POLYNOMIALS["hermite_polynomial_h"]
hermite_polynomial_he = _SP.POLYNOMIALS["hermite_polynomial_he"]
laguerre_polynomial_l = _SP.POLYNOMIALS["laguerre_polynomial_l"]
legendre_polynomial_p = _SP.POLYNOMIALS["legendre_polynomial_p"]


def expit(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.special.expit` (the logistic sigmoid, recorded as SigmoidBackward0)."""
    return _P._out(_P.sigmoid(input), out, "special_expit")


def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.special.round` (torch.round with decimals: RoundBackward1)."""
    return _R.FUNCTIONS["round"](input, decimals=decimals, out=out)


def ndtr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.special.ndtr`, the standard normal CDF, built as torch builds it:
    (1 + erf(x / sqrt(2))) * 0.5."""
    x = input if input.dtype._cat >= 2 else input.to(_D.get_default_dtype())
    y = _P._mul_scalar(_P.add_scalar(erf(_P._mul_scalar(x, math.sqrt(0.5))), 1), 0.5)
    return _P._out(y, out, "special_ndtr")


def entr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.special.entr`: -x log x, 0 at 0, -inf below 0."""
    return _P._out(_S.entr(input), out, "special_entr")


_NO_DIM: Any = object()


def _need_dim(name: str, dim: Any) -> None:
    """torch's parser's error for a dim left out (Python's own words differ)."""
    if dim is _NO_DIM:
        raise TypeError(f'special_{name}() missing 1 required positional arguments: "dim"')


def logsumexp(
    input: Tensor, dim: Any = _NO_DIM, keepdim: bool = False, *, out: Any = None
) -> Tensor:
    """Mirrors `torch.special.logsumexp`."""
    from . import logsumexp as lse

    _need_dim("logsumexp", dim)

    r = lse(input, dim, keepdim)
    return r if out is None else _P._out(r, out, "special_logsumexp")


def softmax(input: Tensor, dim: int = _NO_DIM, *, dtype: Any = None) -> Tensor:
    """Mirrors `torch.special.softmax`."""
    from . import softmax as sm

    _need_dim("softmax", dim)

    return sm(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int = _NO_DIM, *, dtype: Any = None) -> Tensor:
    """Mirrors `torch.special.log_softmax`."""
    from . import log_softmax as lsm

    _need_dim("log_softmax", dim)

    return lsm(input, dim, dtype=dtype)
