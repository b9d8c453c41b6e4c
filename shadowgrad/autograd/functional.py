"""Higher-level autograd: jacobian, hessian, vjp, jvp, hvp, vhp.

Mirrors `torch.autograd.functional`, including its structure: jvp and hvp use the double
backward trick (the JVP of f at x along v is the VJP of the VJP u -> J^T u, taken along v),
so they work for every op whose backward is differentiable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _grad_mode

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_OUTPUTS = "outputs of the user-provided function"
_NOT_SUPPORTED = (
    'torch.autograd.functional.jacobian: `{}=True` and `strategy="forward-mode"` are not '
    'supported together (yet). Please either set `{}=False` or `strategy="reverse-mode"`.'
)


def _as_tuple(inp: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Any, ...]]:
    from .._tensor import Tensor

    is_tuple = isinstance(inp, tuple)
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but the {where} has type {type(el)}."
            )
    return is_tuple, inp


def _tuple_postprocess(res: Any, to_unpack: Any) -> Any:
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs: tuple[Any, ...], create_graph: bool, need_graph: bool) -> Any:
    """Fresh inputs to differentiate with respect to, so the caller's tensors are untouched."""
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(inp.view_as(inp))
        else:
            if _grad_mode.TRANSFORMS.depth:  # torch's requires_grad_ here refuses, as the user's
                from ..func import REQUIRES_GRAD_IN_TRANSFORM

                raise RuntimeError(REQUIRES_GRAD_IN_TRANSFORM)
            res.append(inp.detach().requires_grad_(need_graph))
    return tuple(res)


def _grad_postprocess(inputs: Any, create_graph: bool) -> Any:
    from .._tensor import Tensor

    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v: tuple[Any, ...], other: tuple[Any, ...], is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other, strict=True)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}."
            )


_REQUIRES_GRAD_MSG = {
    "hessian": (
        "The hessian of the user-provided function with respect to input {i} is independent of "
        "the input. This is not allowed in strict mode. You should ensure that your function is "
        "thrice differentiable and that the hessian depends on the inputs."
    ),
    "jacobian": (
        "While computing the hessian, found that the jacobian of the user-provided function "
        "with respect to input {i} is independent of the input. This is not allowed in strict "
        "mode. You should ensure that your function is twice differentiable and that the "
        "jacobian depends on the inputs (this would be violated by a linear function for "
        "example)."
    ),
    "grad_inputs": (
        "The gradient with respect to input {i} is independent of the inputs of the "
        "user-provided function. This is not allowed in strict mode."
    ),
    "outputs": (
        "Output {i} of the user-provided function does not require gradients. The outputs must "
        "be computed in a differentiable manner from the input when running in strict mode."
    ),
}


def _check_requires_grad(inputs: Any, input_type: str, strict: bool) -> None:
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode."
            )
        if not inp.requires_grad:
            raise RuntimeError(_REQUIRES_GRAD_MSG[input_type].format(i=i))


def _autograd_grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Any, ...]:
    """autograd.grad over the outputs that require grad; all None when none does."""
    from . import grad as autograd_grad

    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grads = [], []
    for out, g in zip(outputs, grad_outputs, strict=True):
        if out is not None and out.requires_grad:
            new_outputs.append(out)
            new_grads.append(g)
    if not new_outputs:
        return (None,) * len(inputs)
    return tuple(
        autograd_grad(
            new_outputs,
            inputs,
            new_grads,
            allow_unused=True,
            create_graph=create_graph,
            retain_graph=retain_graph,
        )
    )


_ZERO_MSG = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
    "grad_outputs when using the double backward trick to compute forward mode gradients. This "
    "is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} "
    "in the grad_jacobian. This is not allowed in strict mode as it prevents from using the "
    "double backward trick to replace forward mode AD.",
}


def _fill_in_zeros(
    grads: Any, refs: Any, strict: bool, create_graph: bool, stage: str
) -> tuple[Any, ...]:
    from .._creation import zeros_like

    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_MSG[stage].format(i=i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode when create_graph=True."
            )
        res.append(g)
    return tuple(res)


def _preprocess_v(v: Any, fn: str, create_graph: bool) -> tuple[Any, ...]:
    _, vt = _as_tuple(v, "v", fn)
    return _grad_preprocess(vt, create_graph=create_graph, need_graph=False)  # type: ignore[no-any-return]


def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """(func(inputs), v^T J). Mirrors `torch.autograd.functional.vjp`."""
    with _grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if v is not None:
            v = _preprocess_v(v, "vjp", create_graph)
            _validate_v(v, outputs, is_outputs_tuple)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
    with _grad_mode.set_grad_enabled(create_graph or _grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(res, is_inputs_tuple)


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """(func(inputs), J v), by the double backward trick.

    Mirrors `torch.autograd.functional.jvp`.
    """
    from .._creation import zeros_like

    with _grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            v = _preprocess_v(v, "jvp", create_graph)
            _validate_v(v, inputs, is_inputs_tuple)
        elif len(inputs) != 1 or inputs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the input to the user-provided function is a "
                "single Tensor with a single element."
            )
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        # The backward is linear in grad_outputs, so their value doesn't matter (zeros are safe).
        grad_outputs = tuple(zeros_like(out).requires_grad_(True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with _grad_mode.set_grad_enabled(create_graph or _grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(res, is_outputs_tuple)


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of func at inputs. Mirrors `torch.autograd.functional.jacobian`.

    Differences: `vectorize=True` computes the same values one vector-Jacobian product at a
    time, and forward-mode (which requires it) one Jacobian-vector product at a time.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(_NOT_SUPPORTED.format("create_graph", "create_graph"))
        if strict:
            raise RuntimeError(_NOT_SUPPORTED.format("strict", "strict"))
        if not vectorize:
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`."
            )
        return _jacfwd(func, inputs)
    with _grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or `vectorize=False`."
            )
        jac = tuple(
            _jacobian_rows(i, out, inputs, create_graph, strict, vectorize)
            for i, out in enumerate(outputs)
        )
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _jacfwd(func: Callable[..., Any], inputs: Any) -> Any:
    """Forward-mode Jacobian, as torch's `_jacfwd`: one jvp per standard basis vector (torch
    vmaps them), the tangents stacked, split per input, moved to the end and reshaped. Like
    torch's, it neither detaches the inputs nor the result: the Jacobian carries a graph when
    the inputs require grad (`ReshapeAliasBackward0`)."""
    from .._creation import zeros_like
    from ..ops import stack_tensors
    from . import forward_ad as fwAD

    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    numels = tuple(inp.numel() for inp in inputs)
    total = sum(numels)
    if total == 0:  # no basis vector: torch's vmap over an empty batch, zero-size Jacobians
        from .._creation import zeros

        is_outputs_tuple, outs = _as_tuple(func(*inputs), "outputs", "None")
        res0 = [[zeros((*o.shape, *i.shape), dtype=o.dtype) for i in inputs] for o in outs]
        return _tuple_postprocess(res0, (is_outputs_tuple, is_inputs_tuple))
    cols: list[list[Any]] = []
    is_outputs_tuple, primals = False, ()
    for k in range(total):
        tangents = []
        off = 0
        for inp, n in zip(inputs, numels, strict=True):
            t = _basis(inp, n, k - off)
            tangents.append(t)
            off += n
        with fwAD.dual_level():
            duals = tuple(fwAD.make_dual(i, t) for i, t in zip(inputs, tangents, strict=True))
            is_outputs_tuple, outs = _as_tuple(func(*duals), "outputs", "None")
            col, prim = [], []
            for o in outs:
                p, t = fwAD.unpack_dual(o)
                prim.append(p)
                col.append(t if t is not None else zeros_like(p))
        cols.append(col)
        primals = tuple(prim)
    # lists, as torch's: a tuple-input Jacobian comes back as a list (of lists for tuple outputs)
    res = []
    for i, out in enumerate(primals):
        jac = stack_tensors([c[i] for c in cols])
        row = []
        for part, inp in zip(jac.split(list(numels), dim=0), inputs, strict=True):
            part = part.permute(*range(1, part.ndim), 0)
            row.append(part.reshape((*out.shape, *inp.shape)))
        res.append(row)
    return _tuple_postprocess(res, (is_outputs_tuple, is_inputs_tuple))


def _basis(inp: Any, n: int, k: int) -> Any:
    """Column k of the identity's rows for an input of n elements (zeros when k is outside)."""
    from .._creation import zeros

    t = zeros(n, dtype=inp.dtype)
    if 0 <= k < n:
        with _grad_mode.no_grad():
            t[k] = 1
    return t.view(inp.shape)


def _jacobian_rows(
    i: int, out: Any, inputs: tuple[Any, ...], create_graph: bool, strict: bool, vectorize: bool
) -> tuple[Any, ...]:
    from .._creation import zeros, zeros_like
    from ..ops import stack_tensors

    if out.nelement() == 0:  # torch stacks the rows of no output element (vmaps over none)
        if vectorize:
            raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        raise RuntimeError("stack expects a non-empty TensorList")
    rows: list[list[Any]] = [[] for _ in inputs]
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, (g, inp) in enumerate(zip(vj, inputs, strict=True)):
            if g is not None:
                if strict and create_graph and not g.requires_grad:
                    raise RuntimeError(
                        f"The jacobian of the user-provided function is independent of input "
                        f"{i}. This is not allowed in strict mode when create_graph=True."
                    )
                rows[k].append(g)
            else:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input {k}. "
                        "This is not allowed in strict mode."
                    )
                rows[k].append(zeros_like(inp))
    res = []
    for k, r in enumerate(rows):
        shape = tuple(out.size()) + tuple(inputs[k].size())
        res.append(stack_tensors(r).reshape(shape) if r else zeros(shape, dtype=inputs[k].dtype))
    return tuple(res)


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar func. Mirrors `torch.autograd.functional.hessian`."""
    from .._tensor import Tensor

    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp: Any) -> Any:
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, _OUTPUTS, "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single "
                "element"
            )
        return out.squeeze()

    def jac_func(*inp: Any) -> Any:
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(single_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(
        jac_func,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_check(outputs: tuple[Any, ...], is_tuple: bool, fn: str) -> None:
    from .._tensor import Tensor

    if is_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn} should contain a single element"
        )


def _hv_setup(func: Any, inputs: Any, v: Any, create_graph: bool, strict: bool, fn: str) -> Any:
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    if v is not None:
        v = _preprocess_v(v, fn, create_graph)
        _validate_v(v, inputs, is_inputs_tuple)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError(
            "The vector v can only be None if the input to the user-provided function is a "
            "single Tensor with a single element."
        )
    is_outputs_tuple, outputs = _as_tuple(func(*inputs), _OUTPUTS, fn)
    _check_requires_grad(outputs, "outputs", strict=strict)
    _scalar_check(outputs, is_outputs_tuple, fn)
    jac = _autograd_grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict=strict)
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """(func(inputs), v^T H). Mirrors `torch.autograd.functional.vhp`."""
    with _grad_mode.enable_grad():
        is_in_t, inputs, v, is_out_t, outputs, jac = _hv_setup(
            func, inputs, v, create_graph, strict, "vhp"
        )
    with _grad_mode.set_grad_enabled(create_graph or _grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outputs, is_out_t), _tuple_postprocess(res, is_in_t)


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """(func(inputs), H v), by the double backward trick.

    Mirrors `torch.autograd.functional.hvp`.
    """
    from .._creation import zeros_like

    with _grad_mode.enable_grad():
        is_in_t, inputs, v, is_out_t, outputs, jac = _hv_setup(
            func, inputs, v, create_graph, strict, "hvp"
        )
        grad_jac = tuple(zeros_like(inp).requires_grad_(True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    with _grad_mode.set_grad_enabled(create_graph or _grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outputs, is_out_t), _tuple_postprocess(res, is_in_t)
