"""gradcheck and gradgradcheck: analytical against numerical Jacobians.

Mirrors `torch.autograd.gradcheck`. Slow mode: one backward per output element, and central
differences (step eps) per input element, compared with |a - n| <= atol + rtol * |n|.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _grad_mode

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised when gradcheck fails. Mirrors `torch.autograd.gradcheck.GradcheckError`."""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    from .._tensor import Tensor

    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _outputs(func: Callable[..., Any], inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    from .._tensor import Tensor

    out = func(*inputs)
    outs = _as_tuple(out) if isinstance(out, (Tensor, tuple, list)) else (out,)
    return tuple(o for o in outs if isinstance(o, Tensor))


def _numerical(
    func: Callable[..., Any], inputs: tuple[Any, ...], i: int, eps: float, n_out: list[int]
) -> list[np.ndarray]:
    """Jacobians d out_k / d inputs[i] by central differences: shape (in.numel, out_k.numel)."""
    x = inputs[i]
    data = x._data
    jac = [np.zeros((data.size, n), dtype=np.float64) for n in n_out]
    for j in range(data.size):
        idx = np.unravel_index(j, data.shape) if data.ndim else ()
        orig = data[idx].copy() if data.ndim else data.copy()
        with _grad_mode.no_grad():
            data[idx] = orig + eps
            plus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
            data[idx] = orig - eps
            minus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
            data[idx] = orig
        for k in range(len(n_out)):
            jac[k][j] = (plus[k] - minus[k]) / (2 * eps)
    return jac


def _analytical(
    outputs: tuple[Any, ...], inputs: tuple[Any, ...], diff_idx: list[int]
) -> list[list[np.ndarray]]:
    """jac[k][i]: d outputs[k] / d inputs[i], shape (in.numel, out.numel), by one vjp per column."""
    from .._creation import zeros_like
    from . import grad as autograd_grad

    res = []
    for o in outputs:
        per_in = [np.zeros((inputs[i]._data.size, o._data.size)) for i in diff_idx]
        if not o._rg:
            res.append(per_in)
            continue
        for c in range(o._data.size):
            g = zeros_like(o)
            g._data.reshape(-1)[c] = 1
            grads = autograd_grad(
                o, [inputs[i] for i in diff_idx], g, retain_graph=True, allow_unused=True
            )
            for n, gi in enumerate(grads):
                if gi is not None:
                    per_in[n][:, c] = gi._data.astype(np.float64).reshape(-1)
        res.append(per_in)
    return res


def _fmt(m: np.ndarray) -> str:
    from .._tensor import _make

    return repr(_make(m))


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-06,
    atol: float = 1e-05,
    rtol: float = 0.001,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: Any = None,
) -> bool:
    """Compare analytical and numerical Jacobians. Mirrors `torch.autograd.gradcheck`.

    Differences: always runs the slow (full Jacobian) comparison; on failure the message also
    names the worst output element and how far off it is.
    """
    from .._tensor import Tensor

    inputs = _as_tuple(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x._rg]
    if not diff_idx:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )
    for i in diff_idx:
        if inputs[i].dtype._name not in ("float64", "complex128"):
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )
    outputs = _outputs(func, inputs)
    n_out = [o._data.size for o in outputs]
    analytical = _analytical(outputs, inputs, diff_idx)
    for n, i in enumerate(diff_idx):
        numerical = _numerical(func, inputs, i, eps, n_out)
        for k in range(len(outputs)):
            a = analytical[k][n]
            num = numerical[k]
            if not np.allclose(a, num, rtol=rtol, atol=atol, equal_nan=True):
                diff = np.abs(a - num)
                worst = np.unravel_index(np.nanargmax(diff), diff.shape)
                msg = (
                    f"Jacobian mismatch for output {k} with respect to input {i},\n"
                    f"numerical:{_fmt(num)}\nanalytical:{_fmt(a)}\n\n"
                    f"The worst element: input {i} element {worst[0]}, output {k} element "
                    f"{worst[1]}: numerical {num[worst]:.6g}, analytical {a[worst]:.6g} "
                    f"(off by {diff[worst]:.3g})."
                )
                if raise_exception:
                    raise GradcheckError(msg)
                return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-06,
    atol: float = 1e-05,
    rtol: float = 0.001,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """gradcheck of the first derivatives. Mirrors `torch.autograd.gradgradcheck`."""
    from .._random import randn_like
    from .._tensor import Tensor
    from . import grad as autograd_grad

    inputs = _as_tuple(inputs)
    outputs = _outputs(func, inputs)
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x._rg]
    if grad_outputs is None:
        gouts = tuple(randn_like(o).requires_grad_() for o in outputs if o._rg)
    else:
        gouts = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def first_order(*args: Any) -> tuple[Any, ...]:
        ins, gs = args[:n_in], args[n_in:]
        with _grad_mode.enable_grad():
            outs = [o for o in _outputs(func, ins) if o._rg]
            diff = [ins[i] for i in diff_idx]
            grads = autograd_grad(outs, diff, gs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_order,
        inputs + tuple(gouts),
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
