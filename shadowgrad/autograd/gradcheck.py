"""gradcheck and gradgradcheck: analytical against numerical Jacobians.

Mirrors `torch.autograd.gradcheck`, step by step (the same checks in the same order, the same
random vectors from a fresh `Generator()` in fast mode, the same draws from the default
generator for batched checks and gradgradcheck's grad_outputs, the same messages). Slow mode
compares full Jacobians: one backward per output element, and central differences (step eps)
per input element. Fast mode compares, for each (input, output) pair, the scalar v^T J u for
random unit vectors u and v. Both use |a - n| <= atol + rtol * |n|. Complex inputs and outputs
are checked as torch checks them (Note [Complex gradcheck]). The one difference: a Jacobian
mismatch message ends with an extra line naming the worst input/output element and how far off
it is. Sparse and MKLDNN layouts don't exist here, so `masked` changes nothing.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .graph import Node

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised when gradcheck fails. Mirrors `torch.autograd.gradcheck.GradcheckError`."""


def _T() -> Any:
    import shadowgrad

    return shadowgrad


def _is_tensor(x: Any) -> bool:
    from .._tensor import Tensor

    return isinstance(x, Tensor)


def _is_float_or_complex_tensor(obj: Any) -> bool:
    return _is_tensor(obj) and (obj.is_floating_point() or obj.is_complex())


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable_outputs(x: Any) -> tuple[Any, ...]:
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _iter_diff_tensors(inputs: Any) -> list[Any]:
    return [x for x in inputs if _is_tensor(x) and x.requires_grad]


def _allocate_jacobians_with_inputs(inputs: Any, numel_output: int) -> list[Any]:
    return [
        t.new_zeros((t.numel(), numel_output))
        for t in inputs
        if _is_float_or_complex_tensor(t) and t.requires_grad
    ]


def _allocate_jacobians_with_outputs(outputs: Any, numel_input: int, dtype: Any = None) -> list:
    return [
        t.new_zeros((numel_input, t.numel()), dtype=dtype or t.dtype)
        for t in outputs
        if _is_float_or_complex_tensor(t)
    ]


# --- inputs and outputs --------------------------------------------------------------------


def _check_inputs(tupled_inputs: tuple[Any, ...]) -> None:
    any_input_requiring_grad = False
    for idx, inp in enumerate(tupled_inputs):
        if _is_tensor(inp) and inp.requires_grad:
            T = _T()
            if not (inp.dtype == T.float64 or inp.dtype == T.complex128):
                warnings.warn(
                    f"Input #{idx} requires gradient and is not a double precision floating "
                    "point or complex. This check will likely fail if all the inputs are not of "
                    "double precision floating point or complex. ",
                    stacklevel=4,
                )
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.size(), strict=True)):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                    "inputs that are non-overlapping to be able to compute the numerical "
                    "gradients correctly. You should call .contiguous on the input before "
                    "passing it to gradcheck."
                )
            any_input_requiring_grad = True
    if not any_input_requiring_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )


# --- numerical Jacobians -------------------------------------------------------------------


def _check_outputs_same_dtype_and_shape(o1: Any, o2: Any, eps: float, idx: Any = None) -> None:
    on_index = f"on index {idx} " if idx is not None else ""
    if o1.shape != o2.shape:
        raise AssertionError(
            f"Expected `func` to return outputs with the same shape when inputs are perturbed "
            f"{on_index}by {eps}, but got: shapes {o1.shape} and {o2.shape}."
        )
    if o1.dtype != o2.dtype:
        raise AssertionError(
            f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
            f"{on_index}by {eps}, but got: dtypes {o1.dtype} and {o2.dtype}."
        )


def _call(fn: Callable[..., Any], inputs: Any) -> tuple[Any, ...]:
    return tuple(a.clone() for a in _as_tuple(fn(*inputs)))


def _numerical_jvp(
    fn: Callable[..., Any], inputs: Any, data: np.ndarray, where: Any, v: Any, norm_v: float,
    eps: float, idx: Any = None,
) -> tuple[Any, ...]:  # fmt: skip
    """torch's _compute_numerical_gradient: data[where] shifted by -v and +v in place (v a
    number or an array in data's dtype), the central difference of fn's outputs."""
    orig = np.array(data[where], copy=True)
    try:
        data[where] = orig - v
        outa = _call(fn, inputs)
        data[where] = orig + v
        outb = _call(fn, inputs)
    finally:
        data[where] = orig
    out = []
    for a, b in zip(outa, outb, strict=True):
        _check_outputs_same_dtype_and_shape(a, b, eps, idx)
        out.append(((b - a) / (2 * norm_v)).detach().reshape(-1))
    return tuple(out)


def _combine_jvps(ds_dx: tuple[Any, ...], ds_dy: tuple[Any, ...] | None, fwd: bool) -> list:
    if ds_dy is None:
        for d in ds_dx:
            if not fwd and d.is_complex():
                raise AssertionError("Expected ds_dx to be real-valued, not complex.")
        return list(ds_dx)
    out = []
    for dx, dy in zip(ds_dx, ds_dy, strict=True):
        if dx.is_complex():
            raise AssertionError("Expected ds_dx to be real-valued, not complex")
        out.append(dx + dy * 1j)  # conjugate Wirtinger derivative
    return out


def _numerical_jacobian_wrt(
    fn: Callable[..., Any], idx: int, inputs: Any, outputs: Any, eps: float, fwd: bool = False
) -> list[Any]:
    x = inputs[idx]
    data = x._data
    numel = x.numel()
    cols = []
    for d_idx, where in enumerate(itertools.product(*[range(m) for m in x.shape])):
        ds_dx = _numerical_jvp(fn, inputs, data, where, eps, eps, eps, where)
        ds_dy = None
        if x.is_complex():
            ds_dy = _numerical_jvp(fn, inputs, data, where, eps * 1j, eps, eps, where)
        cols.append((d_idx, _combine_jvps(ds_dx, ds_dy, fwd)))
    jacs = _allocate_jacobians_with_outputs(outputs, numel, x.dtype if x.is_complex() else None)
    for k, jac in enumerate(jacs):
        for d_idx, col in cols:
            jac[d_idx] = col[k]
    return jacs


def _numerical_jacobian(fn: Callable[..., Any], inputs: Any, outputs: Any, eps: float,
                        fwd: bool = False) -> list[list[Any]]:  # fmt: skip
    """jac[n][k]: d outputs[k] / d (n-th input requiring grad), shape (in.numel, out.numel)."""
    if not fwd and any(o.is_complex() for o in outputs):
        raise ValueError(
            "Expected output to be non-complex. get_numerical_jacobian no longer supports "
            "functions that return complex outputs."
        )
    return [
        _numerical_jacobian_wrt(fn, i, inputs, outputs, eps, fwd)
        for i, a in enumerate(inputs)
        if _is_tensor(a) and a.requires_grad
    ]


def _numerical_jvps_along(
    fn: Callable[..., Any], idx: int, inputs: Any, u: Any, eps: float, fwd: bool = False
) -> list[Any]:
    """The numerical Jacobian of each output times u (fast mode)."""
    x = inputs[idx]
    data = x._data
    if isinstance(u, tuple):
        ur, ui = (p.reshape(x.shape) * eps for p in u)
        ds_dx = _numerical_jvp(fn, inputs, data, ..., ur._data, eps, eps)
        ds_dy = _numerical_jvp(fn, inputs, data, ..., (ui * 1j)._data, eps, eps)
        return _combine_jvps(ds_dx, ds_dy, fwd)
    v = (u.reshape(x.shape) * eps)._data
    if x.is_complex():  # not reached: complex inputs get a pair of vectors
        return _combine_jvps(
            _numerical_jvp(fn, inputs, data, ..., v, eps, eps),
            _numerical_jvp(fn, inputs, data, ..., v * 1j, eps, eps),
            fwd,
        )
    return _combine_jvps(_numerical_jvp(fn, inputs, data, ..., v, eps, eps), None, fwd)


# --- analytical Jacobians ------------------------------------------------------------------


def _stack_and_check(vjps: list[list[Any]], inputs: Any, numel_output: int) -> tuple:
    out = _allocate_jacobians_with_inputs(inputs, numel_output)
    diff = _iter_diff_tensors(inputs)
    sizes_ok = types_ok = True
    for i, col_list in enumerate(vjps):
        inp, jac = diff[i], out[i]
        for j, t in enumerate(col_list):
            if t is not None and t.size() != inp.size():
                sizes_ok = False
            elif t is not None and t.dtype != inp.dtype:
                types_ok = False
            if t is None:
                jac[:, j].zero_()
            else:
                jac[:, j] = t.reshape(-1)
    return out, sizes_ok, types_ok


def _jacobians_equal(j1: list[Any], j2: list[Any], atol: float) -> bool:
    for a, b in zip(j1, j2, strict=False):
        if a.numel() != 0 and (a - b).abs().max() > atol:
            return False
    return True


def _analytical_attributes(
    inputs: Any, output: Any, nondet_tol: float, check_grad_dtypes: bool, v: Any = None
) -> list[Any]:
    """torch's _check_analytical_jacobian_attributes: the Jacobian rows (or v^T J in fast
    mode), computed twice for the reentrancy check, with the dtype and size checks."""
    T = _T()
    diff = _iter_diff_tensors(inputs)

    def vjp_fn(g: Any) -> Any:
        return T.autograd.grad(output, diff, g, retain_graph=True, allow_unused=True)

    def rows(sample: Any) -> list[list[Any]]:
        if v is not None:
            gi = vjp_fn(v.reshape(sample.shape))
            return [[g.clone() if g is not None else None] for g in gi]
        base = T.zeros(sample.shape, dtype=sample.dtype)  # torch's legacy_contiguous_format
        flat = base.view(-1)
        out: list[list[Any]] = [[] for _ in diff]
        for j in range(flat.numel()):
            flat.zero_()
            flat[j] = 1.0
            for i, d in enumerate(vjp_fn(base)):
                out[i].append(d.clone() if d is not None else None)
        return out

    numel = output.numel() if v is None else 1
    j1, sizes_ok, types_ok = _stack_and_check(rows(output.clone()), inputs, numel)
    j2, _, _ = _stack_and_check(rows(output.clone()), inputs, numel)
    reentrant = _jacobians_equal(j1, j2, nondet_tol)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output "
            "multiple times gives different values, although analytical gradient matches "
            f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
            + FAILED_NONDET_MSG
        )
    return j1


def _analytical_jacobian_forward_ad(
    fn: Callable[..., Any], inputs: Any, outputs: Any, *, check_grad_dtypes: bool = False,
    all_u: Any = None,
) -> list[list[Any]]:  # fmt: skip
    T = _T()
    fwAD = T.autograd.forward_ad
    tensor_inputs = _iter_diff_tensors(inputs)
    if any(i.is_complex() for i in tensor_inputs):
        raise ValueError(
            "Expected inputs to be non-complex for _get_analytical_jacobian_forward_ad."
        )
    if all_u:
        jacobians = [_allocate_jacobians_with_outputs(outputs, 1) for _ in tensor_inputs]
    else:
        jacobians = [_allocate_jacobians_with_outputs(outputs, i.numel()) for i in tensor_inputs]

    def tangents(index: int) -> list[tuple[Any, Any]]:
        raw = _as_tuple(fn(*dual_inputs))
        res = []
        for d_o in (o for o in raw if _is_float_or_complex_tensor(o)):
            val, tan = fwAD.unpack_dual(d_o)
            if check_grad_dtypes and tan is not None and val.is_complex() != tan.is_complex():
                raise GradcheckError("Forward AD gradient has dtype mismatch.")
            res.append(tan)
        return res

    with fwAD.dual_level():
        fw_grads, dual_inputs = [], []
        for inp in inputs:
            if _is_tensor(inp) and inp.requires_grad:
                inp = fwAD.make_dual(inp.detach(), T.zeros_like(inp))
                fw_grads.append(fwAD.unpack_dual(inp)[1])
            dual_inputs.append(inp)
        if all_u:
            for i, (fw_grad, u) in enumerate(zip(fw_grads, all_u, strict=False)):
                fw_grad.copy_(u.view_as(fw_grad))
                for k, res in enumerate(tangents(i)):
                    jacobians[i][k] = jacobians[i][k].squeeze(0)
                    if res is None:
                        jacobians[i][k].zero_()
                    else:
                        jacobians[i][k].copy_(res.reshape(-1))
                fw_grad.zero_()
        else:
            for i, fw_grad in enumerate(fw_grads):
                for lin, where in enumerate(itertools.product(*[range(m) for m in fw_grad.size()])):
                    fw_grad[where] = 1.0
                    for k, res in enumerate(tangents(i)):
                        if res is None:
                            jacobians[i][k][lin].zero_()
                        else:
                            jacobians[i][k][lin].copy_(res.reshape(-1))
                    fw_grad[where] = 0.0
    return jacobians


# --- messages ------------------------------------------------------------------------------

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

FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()

FAILED_BATCHED_GRAD_MSG = """
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this.
""".strip()

FAILED_BATCHED_GRAD_MSG_FWD_AD = """
gradcheck failed while testing batched gradient computation with forward-mode AD.
This test is enabled automatically when both `check_batched_grad=True`
and `check_forward_ad=True`, but can be disabled in the following ways
dependong on how the test was invoked (via a test that calls gradcheck
directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_forward_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_forward_grad=False`
"""


def _worst(num: Any, a: Any, i: int, k: int) -> str:
    """shadowgrad's extra line: the element of the two Jacobians furthest apart."""
    n, an = num.detach().numpy(), a.detach().numpy()
    if n.size == 0:
        return ""
    diff = np.abs(an - n)
    diff = np.where(np.isnan(diff), np.inf, diff)
    w = np.unravel_index(np.argmax(diff), diff.shape)
    return (
        f"\nThe worst element: input {i} element {w[0]}, output {k} element {w[1]}: numerical "
        f"{n[w]:.6g}, analytical {an[w]:.6g} (off by {diff[w]:.3g})."
    )


def _notallclose_msg(
    analytical: Any, numerical: Any, output_idx: int, input_idx: int, complex_indices: Any,
    test_imag: bool = False, is_forward_ad: bool = False,
) -> str:  # fmt: skip
    out_is_complex = (not is_forward_ad) and complex_indices and output_idx in complex_indices
    inp_is_complex = is_forward_ad and complex_indices and input_idx in complex_indices
    part = "imaginary" if test_imag else "real"
    element = "inputs" if is_forward_ad else "outputs"
    prefix = (
        ""
        if not (out_is_complex or inp_is_complex)
        else f"While considering the {part} part of complex {element} only, "
    )
    mode = "computed with forward mode " if is_forward_ad else ""
    return (
        prefix + f"Jacobian {mode}mismatch for output {output_idx:d} with respect to input "
        f"{input_idx:d},\nnumerical:{numerical}\nanalytical:{analytical}\n"
    )


def _allclose(a: Any, b: Any, rtol: float, atol: float) -> bool:
    T = _T()
    t = T.promote_types(a.dtype, b.dtype)
    return bool(T.allclose(a.to(dtype=t), b.to(dtype=t), rtol, atol))


# --- slow and fast mode ----------------------------------------------------------------------


def _check_no_differentiable_outputs(func: Any, inputs: Any, func_out: Any, eps: float,
                                     fwd: bool) -> bool:  # fmt: skip
    for per_input in _numerical_jacobian(func, inputs, func_out, eps, fwd):
        for jac in per_input:
            if _T().ne(jac, 0).sum() > 0:
                raise GradcheckError("Numerical gradient for function expected to be zero")
    return True


def _slow_gradcheck(
    func: Any, func_out: Any, inputs: Any, outputs: Any, eps: float, rtol: float, atol: float,
    check_grad_dtypes: bool, nondet_tol: float, *, use_forward_ad: bool = False,
    complex_indices: Any = None, test_imag: bool = False,
) -> bool:  # fmt: skip
    func_out = _as_tuple(func_out)
    if not outputs:
        return _check_no_differentiable_outputs(func, inputs, func_out, eps, use_forward_ad)
    # numerical[k][n]: output k, input n (over every output, then the differentiable ones)
    numerical = list(
        zip(*_numerical_jacobian(func, inputs, func_out, eps, use_forward_ad), strict=False)
    )
    numerical = [nj for o, nj in zip(func_out, numerical, strict=False) if o.requires_grad]
    if use_forward_ad:
        analytical_fwd = _analytical_jacobian_forward_ad(
            func, inputs, func_out, check_grad_dtypes=check_grad_dtypes
        )
        for i, n_per_out in enumerate(numerical):
            for j, n in enumerate(n_per_out):
                a = analytical_fwd[j][i]
                if not _allclose(a, n, rtol, atol):
                    raise GradcheckError(
                        _notallclose_msg(a, n, i, j, complex_indices, test_imag, True)
                        + _worst(n, a, j, i)
                    )
    else:
        for i, o in enumerate(outputs):
            analytical = _analytical_attributes(inputs, o, nondet_tol, check_grad_dtypes)
            for j, (a, n) in enumerate(zip(analytical, numerical[i], strict=False)):
                if not _allclose(a, n, rtol, atol):
                    raise GradcheckError(
                        _notallclose_msg(a, n, i, j, complex_indices, test_imag)
                        + _worst(n, a, j, i)
                    )
    return True


def _vec_from_tensor(x: Any, generator: Any, downcast_complex: bool = False) -> Any:
    T = _T()
    dtype = x.dtype.to_real() if downcast_complex else x.dtype
    vec = T.rand(x.numel(), generator=generator).to(dtype=dtype)
    vec /= vec.norm()
    return vec


def _make_vectors(inp_tensors: list[Any], outputs: Any, *, use_forward_ad: bool) -> tuple:
    g_cpu = _T().Generator()  # its own generator: the user's RNG state is left alone
    all_u: list[Any] = []
    for inp in inp_tensors:
        ur = _vec_from_tensor(inp, g_cpu, True)
        if inp.is_complex():
            all_u.append((ur, _vec_from_tensor(inp, g_cpu, True)))
        else:
            all_u.append(ur)
    all_v = None if use_forward_ad else [_vec_from_tensor(o, g_cpu) for o in outputs]
    return all_v, all_u


def _adjusted_atol(atol: float, u: Any, v: Any) -> float:
    sum_v = 1.0 if v is None else v.sum()
    if isinstance(u, tuple):
        return atol * (float(u[0].sum()) + float(u[1].sum())) * float(sum_v)
    return atol * float(u.sum()) * float(sum_v)


def _run_slow_mode_and_get_error(
    func: Any, inputs: Any, outputs: Any, input_idx: int, output_idx: int, rtol: float,
    atol: float, eps: float, is_forward_ad: bool,
) -> str:  # fmt: skip
    slow_numerical = _numerical_jacobian(func, inputs, outputs, eps, is_forward_ad)[input_idx][
        output_idx
    ]
    if is_forward_ad:

        def new_fn(inp: Any) -> Any:
            new_inputs = list(inputs)
            new_inputs[input_idx] = inp
            return _as_tuple(func(*new_inputs))[output_idx]

        slow_analytical = _analytical_jacobian_forward_ad(
            new_fn, (inputs[input_idx],), (outputs[output_idx],)
        )[0][0]
    else:
        slow_analytical = _analytical_attributes(inputs, outputs[output_idx], float("inf"), False)[
            input_idx
        ]
    slow_max_diff = (slow_numerical - slow_analytical).abs().max()
    slow_allclose = _T().allclose(slow_analytical, slow_numerical, rtol, atol)
    msg = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background "
        "\nabout fast mode. Below, we recompute numerical and analytical jacobians in slow "
        "mode:\n\n"
        f"Numerical:\n {slow_numerical}\n"
        f"Analytical:\n{slow_analytical}\n\n"
        f"The max per-element difference (slow mode) is: {slow_max_diff}.\n"
    )
    if slow_allclose:
        msg += FAST_FAIL_SLOW_OK_MSG + "\n"
    return msg + _worst(slow_numerical, slow_analytical, input_idx, output_idx)


def _fast_gradcheck(
    func: Any, func_out: Any, inputs: Any, outputs: Any, eps: float, rtol: float, atol: float,
    check_grad_dtypes: bool, nondet_tol: float, *, use_forward_ad: bool = False,
    complex_indices: Any = None, test_imag: bool = False,
) -> bool:  # fmt: skip
    inp_idx = [i for i, t in enumerate(inputs) if _is_tensor(t) and t.requires_grad]
    inp_tensors = [inputs[i] for i in inp_idx]
    all_v, all_u = _make_vectors(inp_tensors, outputs, use_forward_ad=use_forward_ad)
    func_out_t = _as_tuple(func_out)
    numerical_vJu = []
    for i, u in zip(inp_idx, all_u, strict=True):
        all_Ju = _numerical_jvps_along(func, i, inputs, u, eps, use_forward_ad)
        if len(all_Ju) != len(func_out_t):
            raise AssertionError(
                f"Expected all_Ju and func_out to have the same length, but got {len(all_Ju)} "
                f"and {len(func_out_t)}"
            )
        filtered = [
            Ju for Ju, o in zip(all_Ju, func_out_t, strict=True) if _is_float_or_complex_tensor(o)
        ]
        if all_v is not None:
            numerical_vJu.append([(v * Ju).sum() for v, Ju in zip(all_v, filtered, strict=False)])
        else:
            numerical_vJu.append(filtered)
    if use_forward_ad:
        analytical = _analytical_jacobian_forward_ad(
            func, inputs, func_out_t, all_u=all_u, check_grad_dtypes=check_grad_dtypes
        )
    else:
        if not outputs:
            for i, u in zip(inp_idx, all_u, strict=True):
                for jvp in _numerical_jvps_along(func, i, inputs, u, eps):
                    if jvp.numel() == 0:
                        continue
                    if (jvp - _T().zeros_like(jvp)).abs().max() > nondet_tol:
                        raise GradcheckError("Numerical gradient for function expected to be zero")
        analytical = []
        for output, v in zip(outputs, all_v, strict=False):
            all_vJ = _analytical_attributes(inputs, output, nondet_tol, check_grad_dtypes, v)
            scalars = []
            for vJ, u in zip(all_vJ, all_u, strict=False):
                vJ = vJ.T.squeeze(0)
                if vJ.is_complex():  # C -> R
                    tv = _T().view_as_real(vJ.resolve_conj())
                    scalars.append(tv.select(-1, 0).dot(u[0]) + 1j * tv.select(-1, 1).dot(u[1]))
                else:
                    scalars.append(vJ.dot(u))
            analytical.append(scalars)
    for i, per_input in enumerate(numerical_vJu):
        for j, n in enumerate(per_input):
            a = analytical[i][j] if use_forward_ad else analytical[j][i]
            updated_atol = _adjusted_atol(atol, all_u[i], all_v[j] if all_v else None)
            if not _allclose(a, n, rtol, updated_atol):
                jacobians_str = _run_slow_mode_and_get_error(
                    func, inputs, outputs, i, j, rtol, atol, eps, use_forward_ad
                )
                raise GradcheckError(
                    _notallclose_msg(a, n, j, i, complex_indices, test_imag, use_forward_ad)
                    + jacobians_str
                )
    return True


# --- complex inputs and outputs ----------------------------------------------------------------


def _real_and_imag_output(fn: Callable[..., Any]) -> tuple[Any, Any]:
    def apply(f: Any) -> Any:
        def wrapped(*inputs: Any) -> tuple[Any, ...]:
            return tuple(f(o) if o.is_complex() else o for o in _as_tuple(fn(*inputs)))

        return wrapped

    T = _T()
    return apply(T.real), apply(T.imag)


def _real_and_imag_input(fn: Callable[..., Any], complex_idx: list[int], tupled: Any) -> tuple:
    def apply(f: Any) -> Any:
        def wrapped(*inputs: Any) -> tuple[Any, ...]:
            new = list(inputs)
            for k in complex_idx:
                new[k] = f(new[k], tupled[k])
            return _as_tuple(fn(*new))

        return wrapped

    return apply(lambda inp, orig: inp + orig.imag * 1j), apply(
        lambda inp, orig: orig.real + inp * 1j
    )


def _gradcheck_real_imag(
    gradcheck_fn: Any, func: Any, func_out: Any, tupled_inputs: Any, outputs: Any, eps: float,
    rtol: float, atol: float, check_grad_dtypes: bool, check_forward_ad: bool,
    check_backward_ad: bool, nondet_tol: float, check_undefined_grad: bool,
) -> None:  # fmt: skip
    complex_out_indices = [i for i, o in enumerate(outputs) if o.is_complex()]
    has_any_complex_output = any(o.is_complex() for o in _as_tuple(func_out))
    if check_backward_ad:
        if has_any_complex_output:
            real_fn, imag_fn = _real_and_imag_output(func)
            imag_out = imag_fn(*tupled_inputs)
            gradcheck_fn(
                imag_fn, imag_out, tupled_inputs, _differentiable_outputs(imag_out), eps, rtol,
                atol, check_grad_dtypes, nondet_tol, complex_indices=complex_out_indices,
                test_imag=True,
            )  # fmt: skip
            real_out = real_fn(*tupled_inputs)
            gradcheck_fn(
                real_fn, real_out, tupled_inputs, _differentiable_outputs(real_out), eps, rtol,
                atol, check_grad_dtypes, nondet_tol, complex_indices=complex_out_indices,
            )  # fmt: skip
        else:
            gradcheck_fn(
                func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                nondet_tol,
            )  # fmt: skip
    if check_forward_ad:
        complex_inp = [
            i for i, inp in enumerate(tupled_inputs) if _is_tensor(inp) and inp.is_complex()
        ]
        if complex_inp:
            real_fn, imag_fn = _real_and_imag_input(func, complex_inp, tupled_inputs)
            imag_inputs = [
                inp.imag if _is_tensor(inp) and inp.is_complex() else inp for inp in tupled_inputs
            ]
            imag_out = imag_fn(*imag_inputs)
            gradcheck_fn(
                imag_fn, imag_out, imag_inputs, _differentiable_outputs(imag_out), eps, rtol,
                atol, check_grad_dtypes, nondet_tol, complex_indices=complex_inp,
                test_imag=True, use_forward_ad=True,
            )  # fmt: skip
            real_inputs = [
                inp.real if _is_tensor(inp) and inp.is_complex() else inp for inp in tupled_inputs
            ]
            real_out = real_fn(*real_inputs)
            gradcheck_fn(
                real_fn, real_out, real_inputs, _differentiable_outputs(real_out), eps, rtol,
                atol, check_grad_dtypes, nondet_tol, complex_indices=complex_inp,
                use_forward_ad=True,
            )  # fmt: skip
            if check_undefined_grad:
                _test_undefined_forward_mode(imag_fn, imag_out, imag_inputs)
                _test_undefined_forward_mode(real_fn, real_out, real_inputs)
        else:
            gradcheck_fn(
                func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                nondet_tol, use_forward_ad=True,
            )  # fmt: skip
            if check_undefined_grad:
                _test_undefined_forward_mode(func, outputs, tupled_inputs)


# --- the other checks --------------------------------------------------------------------------


def _failed_batched_msg(output_idx: int, input_idx: int, res: Any, exp: Any, fwd: bool) -> str:
    return f"""
For output {output_idx} and input {input_idx}:

{FAILED_BATCHED_GRAD_MSG_FWD_AD if fwd else FAILED_BATCHED_GRAD_MSG}

Got:
{res}

Expected:
{exp}
""".strip()


def _test_batched_grad_forward_ad(func: Any, inputs: tuple[Any, ...]) -> bool:
    T = _T()
    fwAD = T.autograd.forward_ad
    for input_idx, current_input in enumerate(inputs):
        if not (_is_tensor(current_input) and current_input.requires_grad):
            continue

        def jvp(
            tangent: Any, input_idx: int = input_idx, current_input: Any = current_input
        ) -> Any:
            with fwAD.dual_level():
                dual = fwAD.make_dual(current_input.detach(), tangent)
                args = tuple(
                    dual if idx == input_idx else (inp.detach() if _is_tensor(inp) else inp)
                    for idx, inp in enumerate(inputs)
                )
                ret = []
                for d_o in _as_tuple(func(*args)):
                    if d_o is None:
                        continue
                    primal, tan = fwAD.unpack_dual(d_o)
                    if tan is not None:
                        ret.append(tan)
                    else:
                        ret.append(T.zeros([], dtype=primal.dtype).expand(primal.shape))
                return tuple(ret)

        if not _is_float_or_complex_tensor(current_input):
            continue
        tangents = [T.randn_like(current_input) for _ in range(2)]
        _compare_batched(
            jvp, tangents, FAILED_BATCHED_GRAD_MSG_FWD_AD, lambda i: (i, i), is_forward_ad=True
        )
    return True


def _compare_batched(
    fn: Any, vs: list[Any], failed: str, indices: Any, is_forward_ad: bool
) -> None:
    """torch's batched-gradient check: `vmap(fn)` over the stacked `vs` must equal `fn` on each
    one (`indices(i)`: the output and input indices a mismatch of result i names)."""
    T = _T()
    expected = [T.stack(shards) for shards in zip(*[fn(v) for v in vs], strict=True)]
    with warnings.catch_warnings():
        if not is_forward_ad:  # torch silences its vmap fallback's warnings for the vjp only
            warnings.filterwarnings("ignore", message="There is a performance drop")
            warnings.filterwarnings("ignore", message="Please use `torch.vmap`")
        try:
            result = T.vmap(fn)(T.stack(vs))
        except RuntimeError as ex:
            raise GradcheckError(
                f"While computing batched gradients, got: {ex}\n\n{failed}"
            ) from ex
    for i, (res, exp) in enumerate(zip(result, expected, strict=False)):
        if not T.allclose(res, exp):
            raise GradcheckError(_failed_batched_msg(*indices(i), res, exp, is_forward_ad))


def _test_batched_grad(inputs: Any, output: Any, output_idx: int) -> bool:
    T = _T()
    diff = _iter_diff_tensors(inputs)

    def vjp(v: Any) -> tuple[Any, ...]:
        res = T.autograd.grad(output, diff, v, retain_graph=True, allow_unused=True)
        return tuple(
            g if g is not None else T.zeros([], dtype=inp.dtype).expand(inp.shape)
            for g, inp in zip(res, diff, strict=True)
        )

    grad_outputs = [T.randn_like(output) for _ in range(2)]
    _compare_batched(
        vjp, grad_outputs, FAILED_BATCHED_GRAD_MSG, lambda i: (output_idx, i), is_forward_ad=False
    )
    return True


def _test_backward_mul_by_grad_output(outputs: Any, inputs: Any, masked: Any) -> bool:
    T = _T()
    diff = _iter_diff_tensors(inputs)
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")
    grads = T.autograd.grad(outputs, diff, [T.zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff, strict=True):
        if gi is None:
            continue
        if masked:
            if not T.allclose(gi, T.zeros_like(gi)):
                raise GradcheckError("backward not multiplied by grad_output")
        elif not gi.eq(0).all():
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.device != di.device:
            raise GradcheckError("grad is incorrect device")
        if gi.size() != di.size():
            raise GradcheckError("grad is incorrect size")
    return True


def _test_undefined_forward_mode(func: Any, outputs: Any, inputs: Any) -> bool:
    T = _T()
    fwAD = T.autograd.forward_ad
    inp_tensors = _iter_diff_tensors(inputs)
    _, all_u = _make_vectors(inp_tensors, outputs, use_forward_ad=True)
    with fwAD.dual_level():
        fw_grads, dual_inputs, tensor_indices = [], [], set()
        for i, inp in enumerate(inputs):
            if _is_tensor(inp) and inp.requires_grad:
                inp = fwAD.make_dual(inp.detach(), T.zeros_like(inp))
                fw_grads.append(fwAD.unpack_dual(inp)[1])
                tensor_indices.add(i)
            dual_inputs.append(inp)
        for fw_grad, u in zip(fw_grads, all_u, strict=False):
            fw_grad.copy_(u.view_as(fw_grad))
        for idx, inp in enumerate(inputs):
            if idx not in tensor_indices:
                continue
            dual_inp_obj = dual_inputs[idx]
            dual_inputs[idx] = fwAD.make_dual(inp.detach(), T.zeros_like(inp))
            outs1 = [o for o in _as_tuple(func(*dual_inputs)) if _is_float_or_complex_tensor(o)]
            dual_inputs[idx] = inp.detach()
            outs2 = [o for o in _as_tuple(func(*dual_inputs)) if _is_float_or_complex_tensor(o)]
            dual_inputs[idx] = dual_inp_obj
            for index_o, (d_o1, d_o2) in enumerate(zip(outs1, outs2, strict=False)):
                res1 = fwAD.unpack_dual(d_o1)[1]
                res2 = fwAD.unpack_dual(d_o2)[1]
                if not (res1 is None or res2 is None) and not T.allclose(res1, res2):
                    raise GradcheckError(
                        "Mismatch in tangent values for output with index: ", index_o,
                        " when input: ", inp, " has an undefined tangent value. ", " Got: ",
                        res1, " but expected: ", res2,
                    )  # fmt: skip
    return True


class _UndefinedGrad(Node):
    """Passes an undefined (None) gradient on, as torch's UndefinedGrad node does."""

    __slots__ = ()

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        return (None,)


def _undefined(o: Any) -> Any:
    from .._tensor import _make

    return _make(o._data, True, _UndefinedGrad((o._edge(),)), 0)


def _test_undefined_backward_mode(func: Any, outputs: Any, inputs: Any) -> bool:
    T = _T()
    diff = _iter_diff_tensors(inputs)
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")

    def warn_bc_breaking() -> None:
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking feature is "
            "enabled by default, but it may break existing callers of this function. If this "
            'is true for you, you can call this function with "check_undefined_grad=False" to '
            "disable the feature",
            stacklevel=2,
        )

    def check(outs: list[Any]) -> bool:
        try:
            grads = T.autograd.grad(outs, diff, [T.zeros_like(o) for o in outs], allow_unused=True)
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError(
                'Expected backward function to handle undefined output grads. Please look at "'
                'Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
            ) from e
        for gi in grads:
            if gi is not None and not gi.eq(0).all():
                warn_bc_breaking()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are "
                    'undefined or zero. Please look at "Notes about undefined output gradients" '
                    'in "tools/autograd/derivatives.yaml"'
                )
        return True

    cases = [[_undefined(o) for o in _differentiable_outputs(func(*inputs)) if _is_tensor(o)]]
    if len(cases[0]) > 1:
        for undef_idx in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            cases.append([_undefined(o) if i == undef_idx else o for i, o in enumerate(outs)])
    return all(check(c) for c in cases)


# --- the entry points ------------------------------------------------------------------------


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
    masked: bool | None = None,
) -> bool:
    """Compare analytical and numerical Jacobians. Mirrors `torch.autograd.gradcheck`."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True"
        )
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True"
        )
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True"
        )
    args = dict(
        eps=eps, atol=atol, rtol=rtol, nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        check_batched_forward_grad=check_batched_forward_grad,
        check_forward_ad=check_forward_ad, check_backward_ad=check_backward_ad,
        fast_mode=fast_mode, masked=masked,
    )  # fmt: skip
    if not raise_exception:
        try:
            return _gradcheck_helper(func, inputs, **args)
        except GradcheckError:
            return False
    return _gradcheck_helper(func, inputs, **args)


def _gradcheck_helper(
    func: Any, inputs: Any, eps: float, atol: float, rtol: float, nondet_tol: float,
    check_undefined_grad: bool, check_grad_dtypes: bool, check_batched_grad: bool,
    check_batched_forward_grad: bool, check_forward_ad: bool, check_backward_ad: bool,
    fast_mode: bool, masked: Any,
) -> bool:  # fmt: skip
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)
    func_out = func(*tupled_inputs)
    outputs = _differentiable_outputs(func_out)
    gradcheck_fn = _fast_gradcheck if fast_mode else _slow_gradcheck
    _gradcheck_real_imag(
        gradcheck_fn, func, func_out, tupled_inputs, outputs, eps, rtol, atol,
        check_grad_dtypes, check_forward_ad=check_forward_ad,
        check_backward_ad=check_backward_ad, nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
    )  # fmt: skip
    if check_batched_forward_grad:
        _test_batched_grad_forward_ad(func, tupled_inputs)
    if not check_backward_ad:
        return True
    for i, o in enumerate(outputs):
        if check_batched_grad:
            _test_batched_grad(tupled_inputs, o, i)
    _test_backward_mul_by_grad_output(outputs, tupled_inputs, masked)
    if check_undefined_grad and check_backward_ad:
        _test_undefined_backward_mode(func, outputs, tupled_inputs)
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
    T = _T()
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True"
        )
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True"
        )
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True"
        )
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(
            T.testing.make_tensor(
                x.shape,
                dtype=x.dtype if x.is_floating_point() or x.is_complex() else T.double,
                device=x.device,
                low=-1,
                high=1,
                requires_grad=True,
                noncontiguous=gen_non_contig_grad_outputs,
            )
            for x in outputs
        )
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_idx = {i for i, x in enumerate(tupled_inputs) if _is_tensor(x) and x.requires_grad}
    diff_grad_output_idx = {i for i, x in enumerate(tupled_grad_outputs) if x.requires_grad}

    def new_func(*args: Any) -> tuple[Any, ...]:
        input_args = tuple(
            x.requires_grad_() if i in diff_input_idx else x
            for i, x in enumerate(args[:-num_outputs])
        )
        outputs = _differentiable_outputs(func(*input_args))
        gouts = tuple(
            x.requires_grad_() if i in diff_grad_output_idx else x
            for i, x in enumerate(args[-num_outputs:])
        )
        diff_input_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_idx)
        grad_inputs = T.autograd.grad(
            outputs, diff_input_args, gouts, create_graph=True, allow_unused=True
        )
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(
        new_func,
        tupled_inputs + tupled_grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        fast_mode=fast_mode,
        check_forward_ad=check_fwd_over_rev,
        check_backward_ad=check_rev_over_rev,
        masked=masked,
    )
