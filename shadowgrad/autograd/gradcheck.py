"""gradcheck and gradgradcheck: analytical against numerical Jacobians.

Mirrors `torch.autograd.gradcheck`. Slow mode compares full Jacobians: one backward per output
element, and central differences (step eps) per input element. Fast mode compares, for each
(input, output) pair, the scalar v^T J u for random unit vectors u and v. Both use
|a - n| <= atol + rtol * |n|. On failure the message has torch's layout plus one extra line
naming the worst input/output element and how far off it is. Complex inputs and outputs are
checked as torch checks them (Note [Complex gradcheck]); in fast mode the numerical and
analytical quantities of a failure are the real directional derivatives, not torch's complex
ones.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _grad_mode
from .graph import Node

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]

FAST_MODE_NOTE = (
    "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
    "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
    "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
)
UNDEFINED_RAISED = (
    'Expected backward function to handle undefined output grads. Please look at "Notes about '
    'undefined output gradients" in "tools/autograd/derivatives.yaml"'
)
UNDEFINED_NONZERO = (
    "Expected all input grads to be undefined or zero when all output grads are undefined or "
    'zero. Please look at "Notes about undefined output gradients" in '
    '"tools/autograd/derivatives.yaml"'
)


class GradcheckError(RuntimeError):
    """Raised when gradcheck fails. Mirrors `torch.autograd.gradcheck.GradcheckError`."""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    from .._tensor import Tensor

    if isinstance(x, Tensor):
        return (x,)
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _outputs(func: Callable[..., Any], inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    from .._tensor import Tensor

    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor))


def _select_outputs(func: Callable[..., Any], keep: list[int]) -> Callable[..., Any]:
    def selected(*args: Any) -> tuple[Any, ...]:
        outs = _outputs(func, args)
        return tuple(outs[k] for k in keep)

    return selected


def _flat(o: Any) -> np.ndarray:
    # a copy: an output may be a view of an input that is perturbed and restored in place
    return np.array(o._data, dtype=_wide(o._data)).reshape(-1)


def _wide(a: np.ndarray) -> Any:
    """float64, or complex128 for a complex array: the dtype Jacobians are computed in."""
    return np.complex128 if a.dtype.kind == "c" else np.float64


# Note [Complex gradcheck]
# As torch's: complex outputs are checked as their real parts, then as their imaginary parts
# (each a real function), and the gradient of a real output with respect to a complex input
# z = x + iy is torch's conjugate Wirtinger convention dL/dx + i dL/dy (Note [Complex gradients]
# in ops/registry.py). Numerically that is the central difference along x plus i times the
# one along y; a direction u in fast mode is complex, and the analytical directional derivative
# is Re(<g, u>).


def _output_part(func: Callable[..., Any], part: str) -> Callable[..., Any]:
    """func with each complex output replaced by its real or imaginary part (torch's
    _real_and_imag_output)."""

    def wrapped(*args: Any) -> tuple[Any, ...]:
        outs = _outputs(func, args)
        return tuple(getattr(o, part) if o._data.dtype.kind == "c" else o for o in outs)

    return wrapped


def _perturbed(
    func: Callable[..., Any], inputs: tuple[Any, ...], i: int, delta: np.ndarray
) -> list[np.ndarray]:
    """Outputs (flattened, float64) with inputs[i] shifted by delta, evaluated under no_grad."""
    data = inputs[i]._data
    orig = data.copy()
    try:
        with _grad_mode.no_grad():
            data += delta.astype(data.dtype).reshape(data.shape)
            return [_flat(o) for o in _outputs(func, inputs)]
    finally:
        data[...] = orig


def _numerical(
    func: Callable[..., Any], inputs: tuple[Any, ...], i: int, eps: float, n_out: list[int]
) -> list[np.ndarray]:
    """Jacobians d out_k / d inputs[i] by central differences: shape (in.numel, out_k.numel)."""
    data = inputs[i]._data
    size = data.size
    steps = (eps, 1j * eps) if data.dtype.kind == "c" else (eps,)  # Note [Complex gradcheck]
    jac = [np.zeros((size, n), dtype=_wide(data)) for n in n_out]
    for j in range(size):
        for step in steps:
            e = np.zeros(size, dtype=_wide(data))
            e[j] = step
            plus = _perturbed(func, inputs, i, e)
            minus = _perturbed(func, inputs, i, -e)
            for k in range(len(n_out)):
                jac[k][j] += (plus[k] - minus[k]) / (2 * eps) * (step / eps)
    return jac


def _vjp(o: Any, inputs: list[Any], cot: np.ndarray) -> list[np.ndarray | None]:
    from .._tensor import _make
    from . import grad as autograd_grad

    g = _make(cot.reshape(o._data.shape).astype(o._data.dtype))
    grads = autograd_grad(o, inputs, g, retain_graph=True, allow_unused=True)
    return [None if gi is None else _flat(gi) for gi in grads]


def _analytical(outputs: tuple[Any, ...], diff: list[Any]) -> list[list[np.ndarray]]:
    """jac[k][n]: d outputs[k] / d diff[n], shape (in.numel, out.numel), one vjp per column."""
    return [_analytical_one(o, diff) for o in outputs]


def _analytical_one(o: Any, diff: list[Any]) -> list[np.ndarray]:
    """d o / d diff[n] for each n, shape (in.numel, out.numel), one vjp per column."""
    per_in = [np.zeros((x._data.size, o._data.size), dtype=_wide(x._data)) for x in diff]
    if o._rg:
        for c in range(o._data.size):
            e = np.zeros(o._data.size)
            e[c] = 1.0
            for n, gi in enumerate(_vjp(o, diff, e)):
                if gi is not None:
                    per_in[n][:, c] = gi
    return per_in


FAILED_NONDET_MSG = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _nondet_message(nondet_tol: float) -> str:
    return (
        "Backward is not reentrant, i.e., running backward with same input and grad_output "
        "multiple times gives different values, although analytical gradient matches numerical "
        f"gradient.The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG
    )


def _reentrant(j1: list[Any], j2: list[Any], nondet_tol: float) -> bool:
    """torch's _check_jacobians_equal: the two backward passes agree within nondet_tol."""
    for a, b in zip(j1, j2, strict=True):
        if a is None or b is None:
            if (a is None) != (b is None):
                return False
            continue
        a, b = np.asarray(a), np.asarray(b)
        if a.size and np.abs(a - b).max() > nondet_tol:
            return False
    return True


def _fmt(m: Any, dtype: Any) -> str:
    """A Jacobian printed as torch prints it, in the dtype torch allocates it in (`_dtypes`)."""
    from .._tensor import _make

    return repr(_make(np.asarray(m).astype(dtype)))


def _dtypes(inp: Any, out: Any) -> tuple[Any, Any]:
    """The numpy dtypes of torch's numerical and analytical Jacobians of `out` with respect to
    `inp`: the numerical one is allocated like the output (like the input when that is complex),
    the analytical one like the input. Computed in float64 here, printed in those."""
    i, o = inp._data.dtype, out._data.dtype
    return (i if i.kind == "c" else o), i


def _worst(num: np.ndarray, a: np.ndarray, i: int, k: int) -> str:
    diff = np.abs(a - num)
    diff = np.where(np.isnan(diff), np.inf, diff)
    w = np.unravel_index(np.argmax(diff), diff.shape)
    return (
        f"The worst element: input {i} element {w[0]}, output {k} element {w[1]}: numerical "
        f"{num[w]:.6g}, analytical {a[w]:.6g} (off by {diff[w]:.3g})."
    )


def _close(a: Any, n: Any, rtol: float, atol: float) -> bool:
    return bool(np.allclose(a, n, rtol=rtol, atol=atol, equal_nan=True))


def _slow(
    func: Callable[..., Any],
    inputs: tuple[Any, ...],
    outputs: tuple[Any, ...],
    diff_idx: list[int],
    eps: float,
    rtol: float,
    atol: float,
    nondet_tol: float = 0.0,
) -> str | None:
    # as torch's _slow_gradcheck: the numerical Jacobians first, then for each output its
    # analytical Jacobian twice (the reentrancy check) and the comparison with each input's
    n_out = [o._data.size for o in outputs]
    numerical = [_numerical(func, inputs, i, eps, n_out) for i in diff_idx]
    diff = [inputs[i] for i in diff_idx]
    for k, o in enumerate(outputs):
        analytical = _analytical_one(o, diff)
        if not _reentrant(analytical, _analytical_one(o, diff), nondet_tol):
            return _nondet_message(nondet_tol)
        for n, i in enumerate(diff_idx):
            a, num = analytical[n], numerical[n][k]
            if not _close(a, num, rtol, atol):
                nd, ad = _dtypes(inputs[i], outputs[k])
                return (
                    f"Jacobian mismatch for output {k} with respect to input {n},\n"
                    f"numerical:{_fmt(num, nd)}\nanalytical:{_fmt(a, ad)}\n\n"
                    f"{_worst(num, a, n, k)}"
                )
    return None


def _forward(
    func: Callable[..., Any],
    inputs: tuple[Any, ...],
    outputs: tuple[Any, ...],
    diff_idx: list[int],
    eps: float,
    rtol: float,
    atol: float,
) -> str | None:
    """torch's forward-AD check (check_forward_ad): Jacobians from jvps of basis tangents, one
    per input element, against the numerical ones. A custom Function without jvp raises
    torch's NotImplementedError here."""
    from .._creation import zeros_like
    from . import forward_ad as fwAD

    n_out = [o._data.size for o in outputs]
    numerical = [_numerical(func, inputs, i, eps, n_out) for i in diff_idx]
    analytical = []
    for i in diff_idx:
        x = inputs[i]
        per_out = [np.zeros((x._data.size, n), dtype=_wide(x._data)) for n in n_out]
        for j in range(x._data.size):
            t = zeros_like(x.detach())
            t._data.reshape(-1)[j] = 1
            with fwAD.dual_level():
                args = list(inputs)
                args[i] = fwAD.make_dual(x.detach(), t)
                for k, o in enumerate(_outputs(func, tuple(args))):
                    tan = fwAD.unpack_dual(o).tangent
                    if tan is not None:
                        per_out[k][j, :] = _flat(tan)
        analytical.append(per_out)
    for k in range(len(outputs)):
        for n, i in enumerate(diff_idx):
            a, num = analytical[n][k], numerical[n][k]
            if not _close(a, num, rtol, atol):
                nd, ad = _dtypes(inputs[i], outputs[k])
                return (
                    f"Jacobian computed with forward mode mismatch for output {k} with respect "
                    f"to input {n},\nnumerical:{_fmt(num, nd)}\nanalytical:{_fmt(a, ad)}\n\n"
                    f"{_worst(num, a, n, k)}"
                )
    return None


def _fast(
    func: Callable[..., Any],
    inputs: tuple[Any, ...],
    outputs: tuple[Any, ...],
    diff_idx: list[int],
    eps: float,
    rtol: float,
    atol: float,
    nondet_tol: float = 0.0,
) -> str | None:
    rng = np.random.default_rng(0)
    us = []
    for i in diff_idx:
        d = inputs[i]._data
        u = rng.standard_normal(d.size)
        if d.dtype.kind == "c":  # Note [Complex gradcheck]
            u = u + 1j * rng.standard_normal(d.size)
        us.append(u / max(np.linalg.norm(u), 1e-300))
    vs = [rng.standard_normal(o._data.size) for o in outputs]
    diff = [inputs[i] for i in diff_idx]
    # vJ for each output: one backward per output
    vJ = []
    for o, v in zip(outputs, vs, strict=True):
        if not o._rg:
            vJ.append([None] * len(diff))
            continue
        first = _vjp(o, diff, v)
        if not _reentrant(first, _vjp(o, diff, v), nondet_tol):  # torch's reentrancy check
            return _nondet_message(nondet_tol)
        vJ.append(first)
    for n, i in enumerate(diff_idx):
        u = us[n]
        plus = _perturbed(func, inputs, i, eps * u)
        minus = _perturbed(func, inputs, i, -eps * u)
        for k, v in enumerate(vs):
            num = float(v @ ((plus[k] - minus[k]) / (2 * eps)))
            g = vJ[k][n]
            a = 0.0 if g is None else float(np.real(np.vdot(g, u)))
            if abs(a - num) > atol + rtol * abs(num) or np.isnan(a) != np.isnan(num):
                return _fast_message(func, inputs, outputs, diff_idx, n, k, num, a, eps)
    return None


def _fast_message(
    func: Callable[..., Any],
    inputs: tuple[Any, ...],
    outputs: tuple[Any, ...],
    diff_idx: list[int],
    n: int,
    k: int,
    num: float,
    a: float,
    eps: float,
) -> str:
    i = diff_idx[n]
    slow_num = _numerical(func, inputs, i, eps, [o._data.size for o in outputs])[k]
    slow_a = _analytical((outputs[k],), [inputs[i]])[0][0]
    max_diff = np.abs(slow_num - slow_a).max() if slow_num.size else 0.0
    nd, ad = _dtypes(inputs[i], outputs[k])
    return (
        f"Jacobian mismatch for output {k} with respect to input {n},\n"
        f"numerical:{num!r}\nanalytical:{a!r}\n"
        + FAST_MODE_NOTE
        + f"Numerical:\n {_fmt(slow_num, nd)}\nAnalytical:\n{_fmt(slow_a, ad)}\n\n"
        f"The max per-element difference (slow mode) is: {float(max_diff)!r}.\n"
        + (_worst(slow_num, slow_a, n, k) if slow_num.size else "")
    )


class _UndefinedGrad(Node):
    """Passes an undefined (None) gradient on, as torch's UndefinedGrad node does."""

    __slots__ = ()

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        return (None,)


def _undefined(o: Any) -> Any:
    from .._tensor import _make

    node = _UndefinedGrad((o._edge(),))
    return _make(o._data, True, node, 0)


def _check_undefined_grad(
    func: Callable[..., Any], inputs: tuple[Any, ...], diff: list[Any]
) -> str | None:
    """Backward must cope with undefined output grads (one at a time, then all)."""
    from .._creation import zeros_like
    from . import grad as autograd_grad

    def check(outs: list[Any]) -> str | None:
        try:
            grads = autograd_grad(outs, diff, [zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError:
            return UNDEFINED_RAISED
        for g in grads:
            if g is not None and not (g._data == 0).all():
                return UNDEFINED_NONZERO
        return None

    outs = [o for o in _outputs(func, inputs) if o._rg]
    if not outs:
        return None
    cases = [[_undefined(o) for o in outs]]
    if len(outs) > 1:
        for j in range(len(outs)):
            fresh = [o for o in _outputs(func, inputs) if o._rg]
            cases.append([_undefined(o) if m == j else o for m, o in enumerate(fresh)])
    for case in cases:
        msg = check(case)
        if msg is not None:
            return msg
    return None


def _fail(msg: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(msg)
    return False


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

    Differences: the failure message ends with a line naming the worst element; the batched
    and masked checks are accepted but not run, and the forward-AD check runs in slow mode
    (Jacobians from basis tangents) whatever fast_mode says, and not for complex inputs.
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
    if not check_backward_ad:
        return True
    outputs = _outputs(func, inputs)
    keep = [k for k, o in enumerate(outputs) if o._rg]
    if len(keep) != len(outputs):
        # like torch, only differentiable outputs are checked (a training-mode batch_norm's
        # updated running stats, say, are outputs that depend on the input without a grad)
        func = _select_outputs(func, keep)
        outputs = tuple(outputs[k] for k in keep)
    check = _fast if fast_mode else _slow
    if any(o._data.dtype.kind == "c" for o in outputs):  # Note [Complex gradcheck]
        for part, label in (("imag", "imaginary"), ("real", "real")):  # torch's order
            f = _output_part(func, part)
            msg = check(f, inputs, _outputs(f, inputs), diff_idx, eps, rtol, atol, nondet_tol)
            if msg is not None:
                if not msg.startswith("Backward is not reentrant"):
                    msg = f"While considering the {label} part of complex outputs only, {msg}"
                return _fail(msg, raise_exception)
    else:
        msg = check(func, inputs, outputs, diff_idx, eps, rtol, atol, nondet_tol)
        if msg is not None:
            return _fail(msg, raise_exception)
    if check_forward_ad and not any(inputs[i]._data.dtype.kind == "c" for i in diff_idx):
        msg = _forward(func, inputs, outputs, diff_idx, eps, rtol, atol)
        if msg is not None:
            return _fail(msg, raise_exception)
    if check_grad_dtypes:
        msg = _check_dtypes(outputs, [inputs[i] for i in diff_idx])
        if msg is not None:
            return _fail(msg, raise_exception)
    if check_undefined_grad:
        msg = _check_undefined_grad(func, inputs, [inputs[i] for i in diff_idx])
        if msg is not None:
            return _fail(msg, raise_exception)
    return True


def _check_dtypes(outputs: tuple[Any, ...], diff: list[Any]) -> str | None:
    from .._creation import ones_like
    from . import grad as autograd_grad

    for o in outputs:
        if not o._rg:
            continue
        grads = autograd_grad(o, diff, ones_like(o), retain_graph=True, allow_unused=True)
        for g, x in zip(grads, diff, strict=True):
            if g is not None and g.dtype is not x.dtype:
                return "Gradient has dtype mismatch"
    return None


def _random_grad_output(o: Any, non_contig: bool) -> Any:
    """torch's make_tensor(low=-1, high=1, requires_grad=True): drawn from the default
    generator, so the values and the generator's state afterwards are torch's."""
    from .. import _dtype
    from ..testing import make_tensor

    dtype = o.dtype if (o.dtype.is_floating_point or o.dtype.is_complex) else _dtype.float64
    # a 0-d output's values are drawn as one element's (the same draws: make_tensor fails on
    # a 0-d complex shape)
    shape = tuple(o.shape) or (1,)
    t = make_tensor(shape, dtype=dtype, device=o.device, low=-1, high=1, noncontiguous=non_contig)
    return t.reshape(tuple(o.shape)).detach().requires_grad_(True)


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
    from .._tensor import Tensor
    from . import grad as autograd_grad

    inputs = _as_tuple(inputs)
    if not check_rev_over_rev:
        return True
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x._rg]
    if grad_outputs is None:
        outputs = _outputs(func, inputs)
        gouts = tuple(
            _random_grad_output(o, gen_non_contig_grad_outputs)
            for o in outputs
            if o._rg and (o.dtype.is_floating_point or o.dtype.is_complex)
        )
    else:
        gouts = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def new_func(*args: Any) -> tuple[Any, ...]:
        ins, gs = args[:n_in], args[n_in:]
        with _grad_mode.enable_grad():
            outs = [o for o in _outputs(func, ins) if o._rg]
            diff = [ins[i] for i in diff_idx]
            grads = autograd_grad(outs, diff, list(gs), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        new_func,
        inputs + tuple(gouts),
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        fast_mode=fast_mode,
        masked=masked,
    )
