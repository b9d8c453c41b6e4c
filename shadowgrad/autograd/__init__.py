"""Automatic differentiation: backward, grad, grad modes, anomaly mode.

Mirrors `torch.autograd`.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _grad_mode
from .._grad_mode import (
    enable_grad,
    enforce_grad_layout_policy,
    inference_mode,
    no_grad,
    set_grad_enabled,
)
from . import anomaly_mode, forward_ad, function, functional, graph, profiler
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import run_backward
from .function import Function, once_differentiable
from .gradcheck import gradcheck, gradgradcheck
from .graph import SavedTensor

__all__ = [
    "Function",
    "SavedTensor",
    "Variable",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "enforce_grad_layout_policy",
    "grad",
    "graph",
    "inference_mode",
    "is_multithreading_enabled",
    "is_tensor_like",
    "is_view_replay_enabled",
    "no_grad",
    "set_detect_anomaly",
    "set_grad_enabled",
    "set_multithreading_enabled",
]

grad_mode = _grad_mode

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak."
)


# Set by _tensor.py once Tensor exists (it imports this package first): backward's fixed cost
# must not pay for function-level imports.
_Tensor: Any = None
_make: Any = None
_warn_once: Any = None


def _tensor_list(x: Any) -> list[Any]:
    # a single GradientEdge is one input, as torch's (it is a tuple: not a list of two)
    if isinstance(x, (_Tensor, graph.GradientEdge)):
        return [x]
    return list(x)


def _make_grads(outputs: list[Any], grads: list[Any], edges: bool = False) -> list[Any]:
    """Check or create the output gradients (torch's _make_grads); `edges`: some outputs are
    GradientEdges."""
    out = []
    for o, g in zip(outputs, grads, strict=True):
        if edges and type(o) is graph.GradientEdge:
            out.append(_edge_grad(o, g, outputs, grads))
            continue
        if g is None:
            if o._rg:
                if o._data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not o.dtype.is_floating_point:
                    raise RuntimeError(
                        "grad can be implicitly created only for real scalar outputs but got "
                        f"{o.dtype!r}"
                    )
                d = o._data
                out.append(_make(np.ones_like(d)))  # torch's ones_like(output)
            else:
                out.append(None)
            continue
        if not isinstance(g, _Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        if g.shape != o.shape:
            gi, oi = _positions(grads, g, outputs, o)
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{gi}] has a shape of {g.shape} and output[{oi}] "
                f"has a shape of {o.shape}."
            )
        if g.dtype.is_complex != o.dtype.is_complex:
            gi, oi = _positions(grads, g, outputs, o)
            raise RuntimeError(
                "For complex Tensors, both grad_output and output are required to have the same "
                f"dtype. Mismatch in dtype: grad_output[{gi}] has a dtype of {g.dtype!r} and "
                f"output[{oi}] has a dtype of {o.dtype!r}."
            )
        if g.dtype is not o.dtype:
            g = g.to(o.dtype)
        out.append(g)
    return out


def _edge_grad(o: Any, g: Any, outputs: list[Any], grads: list[Any]) -> Any:
    """_make_grads for a GradientEdge output: its shape and dtype are the node's input
    metadata (the tensor's the edge was taken from)."""
    shape, dtype = graph.edge_meta(o)
    if g is None:
        if math.prod(shape) != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        if not dtype.is_floating_point:
            raise RuntimeError(
                f"grad can be implicitly created only for real scalar outputs but got {dtype!r}"
            )
        from .._creation import ones

        return ones(shape, dtype=dtype)
    if g.shape != shape:
        gi, oi = _positions(grads, g, outputs, o)
        raise RuntimeError(
            f"Mismatch in shape: grad_output[{gi}] has a shape of {g.shape} and output[{oi}] "
            f"has a shape of {shape}."
        )
    if g.dtype.is_complex != dtype.is_complex:
        gi, oi = _positions(grads, g, outputs, o)
        raise RuntimeError(
            "For complex Tensors, both grad_output and output are required to have the same "
            f"dtype. Mismatch in dtype: grad_output[{gi}] has a dtype of {g.dtype!r} and "
            f"output[{oi}] has a dtype of {dtype!r}."
        )
    return g.to(dtype) if g.dtype is not dtype else g


class _EdgeTarget:
    """A GradientEdge given to backward(inputs=...): the engine runs the graph up to its node
    (through it, for a leaf's AccumulateGrad) and retains nothing, as torch's."""

    __slots__ = ("edge",)

    def __init__(self, edge: Any) -> None:
        self.edge = edge

    def _edge(self) -> tuple[Any, int]:
        return self.edge[0], self.edge[1]


def _out_shape(o: Any) -> Any:
    return graph.edge_meta(o)[0] if type(o) is graph.GradientEdge else o.shape


def _positions(grads: list[Any], g: Any, outputs: list[Any], o: Any) -> tuple[int, int]:
    """The indices torch's _make_grads messages give: `grads.index(grad)` and
    `outputs.index(out)`, Python's list.index, which compares the tensors before the one found
    with == (a shape that doesn't broadcast, or a multi-element result, raises there)."""
    return list(grads).index(g), list(outputs).index(o)


def _check_batched_grads(outs: list[Any], gouts: list[Any]) -> list[int]:
    """is_grads_batched: torch's _make_grads checks (grad[0], then its shape against the
    output's, one output after the other), then its vmap's checks of the batched gradients;
    all before the engine looks at the graph. Fills in the unbatched ones_like of a scalar
    output given no gradient; returns their indices."""
    made = []
    for i, (o, g) in enumerate(zip(outs, gouts, strict=True)):
        if type(o) is graph.GradientEdge:
            if g is None:
                gouts[i] = _edge_grad(o, g, outs, gouts)
                made.append(i)
                continue
            o_shape = graph.edge_meta(o)[0]
        else:
            if g is None:
                if not o._rg:  # stays None, which vmap refuses below
                    continue
                if o.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                gouts[i] = _make(np.ones_like(o._data))
                made.append(i)
                continue
            o_shape = o.shape
        if g.ndim == 0:
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
            )
        if g.shape[0] == 0:
            raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        if tuple(g.shape[1:]) != tuple(o_shape):
            gi, oi = _positions(gouts, g, outs, o)
            # torch reports grad_output[i][0].shape[1:] here (its _calculate_shape drops the
            # batch dimension of an already unbatched gradient): mirrored
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions "
                "are expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{gi}] has a shape of {g.shape[2:]} and output[{oi}] "
                f"has a shape of {o_shape}. If you only want some tensors in `grad_output` to "
                "be considered batched, consider using vmap."
            )
    for g in gouts:  # vmap(vjp, in_dims=0): an unbatched 0-dim ones_like can't be mapped
        if g is None:
            raise ValueError(
                "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but the input is "
                "of type <class 'NoneType'>. We cannot vmap over non-Tensor arguments, please "
                "use None as the respective in_dim"
            )
        if g.ndim == 0:
            raise ValueError(
                "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that "
                "input is a Tensor of dimensionality 0 so expected in_dim to satisfy "
                "0 <= in_dim < 0."
            )
    sizes = [g.shape[0] for g in gouts]
    if any(n != sizes[0] for n in sizes):
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
            f"{sizes} for the mapped dimension"
        )
    return made


def _check_grad_types(outputs: list[Any], grads: list[Any]) -> bool:
    """torch's _make_grads checks each (output, gradient) pair in turn: the output first.
    Whether an output is a GradientEdge."""
    edges = False
    for o, g in zip(outputs, grads, strict=False):
        if not isinstance(o, _Tensor):
            if not isinstance(o, graph.GradientEdge):
                raise AssertionError("Expected output to be a torch.Tensor")
            edges = True
        if g is not None and not isinstance(g, _Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return edges


def _not_input(t: Any) -> str:
    return f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}"


def _roots(outputs: list[Any], edges: bool = False) -> list[Any]:
    roots = []
    for i, o in enumerate(outputs):
        if edges and type(o) is graph.GradientEdge:
            roots.append((o[0], o[1]))
            continue
        e = o._edge() if o._rg else None
        if e is None or type(e[0]) is graph.NoGradViewEdge:  # (a no-grad view has no edge)
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        roots.append(e)
    return roots


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Any = None,
) -> None:
    """Accumulate gradients into the leaves' .grad. Mirrors `torch.autograd.backward`."""
    if _grad_mode.TRANSFORMS.depth:
        raise RuntimeError(_grad_mode.BACKWARD_INSIDE)

    if grad_variables is not None:
        warnings.warn(
            "`grad_variables` is deprecated. Use `grad_tensors` instead.",
            FutureWarning,
            stacklevel=2,
        )
        if grad_tensors is not None:
            raise RuntimeError(
                "`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                "`backward()`. Please only use `grad_tensors`."
            )
        grad_tensors = grad_variables
    outputs = _tensor_list(tensors)
    if grad_tensors is None:
        grads: list[Any] = [None] * len(outputs)
    elif isinstance(grad_tensors, _Tensor):
        grads = [grad_tensors]
    else:
        grads = list(grad_tensors)  # a float raises TypeError: 'float' object is not iterable
    # torch's _make_grads zips outputs with gradients: extra gradients are ignored unchecked,
    # too few reach the engine, which raises "got N tensors and M gradients"
    grads = grads[: len(outputs)]
    edges = _check_grad_types(outputs, grads)
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    if inputs is not None:
        inputs_l = _tensor_list(inputs)
        if len(inputs_l) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    else:
        inputs_l = None
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        _warn_once("create_graph", CREATE_GRAPH_WARNING)
    grads = _make_grads(outputs, grads, edges)
    roots = _roots(outputs, edges)
    # torch's engine checks the outputs before it looks at the inputs
    for k, t in enumerate(inputs_l or ()):
        if not isinstance(t, _Tensor):
            if isinstance(t, graph.GradientEdge):
                inputs_l[k] = _EdgeTarget(t)
                continue
            raise RuntimeError(_not_input(t))
        t.retain_grad()  # raises for a tensor that doesn't require grad, as torch does
    run_backward(roots, grads, retain_graph, create_graph, accumulate_into=inputs_l)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> Any:
    """Return the gradients of outputs w.r.t. inputs. Mirrors `torch.autograd.grad`."""
    from .._creation import zeros_like

    Tensor = _Tensor

    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
            "allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To "
            "accumulate gradient for other parts of the graph, please use "
            "torch.autograd.backward.",
            FutureWarning,
            stacklevel=2,
        )
    dict_keys = None
    if isinstance(inputs, dict):
        dict_keys = list(inputs.keys())
        inputs = list(inputs.values())
    outs = _tensor_list(outputs)
    ins = _tensor_list(inputs)
    if len(ins) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if grad_outputs is None:
        gouts: list[Any] = [None] * len(outs)
    elif isinstance(grad_outputs, Tensor):
        gouts = [grad_outputs]
    else:
        gouts = list(grad_outputs)
    gouts = gouts[: len(outs)]  # as backward: torch's _make_grads ignores extra gradients
    edges_out = _check_grad_types(outs, gouts)
    if len(gouts) != len(outs):
        raise RuntimeError(f"got {len(outs)} tensors and {len(gouts)} gradients")
    if not is_grads_batched:
        # torch makes them first, before any graph check
        gouts = _make_grads(outs, gouts, edges_out)
    else:
        gouts = list(gouts)
        made = _check_batched_grads(outs, gouts)
    for i, o in enumerate(outs):  # torch checks the outputs before the inputs
        if edges_out and type(o) is graph.GradientEdge:
            continue
        if not o._rg:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    edges = []
    for t in ins:
        if isinstance(t, tuple) and len(t) == 2 and not isinstance(t, Tensor):
            edges.append(tuple(t))
            continue
        if not isinstance(t, Tensor):
            raise RuntimeError(_not_input(t))
        if not t._rg:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        edges.append(t._edge())
    if is_grads_batched:
        for i in made:
            # the engine is given one slice of the unbatched ones_like: one dim short of the
            # output's shape, which it can't be summed to
            shape = _out_shape(outs[i])
            raise RuntimeError(
                f"invalid gradient at index {i} - got [{', '.join(map(str, shape[1:]))}] but "
                f"expected shape compatible with [{', '.join(map(str, shape))}]"
            )
        res = _batched_grad(outs, ins, gouts, retain_graph, create_graph, allow_unused)
        if materialize_grads:  # torch materializes after the batched backward: unbatched zeros
            res = tuple(
                zeros_like(t, requires_grad=create_graph) if g is None else g
                for g, t in zip(res, ins, strict=True)
            )
        return res
    if retain_graph is None:
        retain_graph = create_graph
    roots = _roots(outs, edges_out)
    # no outputs: nothing reaches any input (torch then gives None for each, with allow_unused)
    res = run_backward(roots, gouts, retain_graph, create_graph, capture=edges) if roots else None
    if res is None:
        res = [None] * len(ins)
    result = []
    for i, (g, t) in enumerate(zip(res, ins, strict=True)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior."
                )
            if materialize_grads:
                if not isinstance(t, Tensor):
                    raise RuntimeError(
                        "materialize_grads cannot be used when the given input is a GradientEdge"
                    )
                g = zeros_like(t, requires_grad=create_graph)  # (torch's, a leaf)
        elif not create_graph:
            g = g.detach() if g._rg else g
        result.append(g)
    if dict_keys is not None:
        return dict(zip(dict_keys, result, strict=True))
    return tuple(result)


def _batched_grad(
    outs: list[Any],
    ins: list[Any],
    gouts: list[Any],
    retain_graph: Any,
    create_graph: bool,
    allow_unused: bool,
) -> tuple[Any, ...]:
    """is_grads_batched: one backward per leading index of the grad_outputs, stacked."""
    from ..ops import stack_tensors

    n = gouts[0].shape[0]
    per: list[list[Any]] = [[] for _ in ins]
    for k in range(n):
        gs = grad(
            outs,
            ins,
            [g[k] for g in gouts],
            retain_graph=True if k < n - 1 else retain_graph,
            create_graph=create_graph,
            allow_unused=allow_unused,
        )
        for j, g in enumerate(gs):
            per[j].append(g)
    return tuple(None if any(g is None for g in p) else stack_tensors(p) for p in per)


VOLATILE_REMOVED = (
    "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."
)


class _VariableMeta(type):
    def __instancecheck__(cls, other: Any) -> bool:
        from .._tensor import Tensor

        return isinstance(other, Tensor)


class _ExecutionEngine:
    """`Variable._execution_engine`: the engine's Python handle (its queue_callback)."""

    @staticmethod
    def queue_callback(callback: Any) -> None:
        from .engine import queue_callback

        queue_callback(callback)


class Variable(metaclass=_VariableMeta):
    """Legacy API. Mirrors `torch.autograd.Variable`: calling it gives a plain Tensor, a
    detached alias of `data` (never `data` itself, whose requires_grad it leaves alone), and
    every Tensor is an instance of it."""

    _execution_engine = _ExecutionEngine()

    def __new__(  # type: ignore[misc]
        cls,
        data: Any = None,
        requires_grad: bool = False,
        volatile: bool = False,
        _grad_fn: Any = None,
        name: str | None = None,
    ) -> Any:
        from .._creation import FLOAT_ONLY, empty
        from .._tensor import Tensor

        if volatile:
            warnings.warn(VOLATILE_REMOVED, UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if _grad_fn is not None and not isinstance(_grad_fn, graph.Node):
            raise TypeError(
                f"_grad_fn has to be a Function object or None, but got {type(_grad_fn).__name__}"
            )
        if data is None:
            var = empty(0)
        elif isinstance(data, Tensor):
            var = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if _grad_fn is not None:
            raise RuntimeError(
                "_grad_fn argument to legacy Variable constructor is no longer supported.  "
                "Instead, please invoke your _grad_fn to produce a variable with it as the "
                "_grad_fn."
            )
        if requires_grad:
            if not (var.dtype.is_floating_point or var.dtype.is_complex):
                raise RuntimeError(FLOAT_ONLY)
            var.requires_grad_(True)
        return var


class _EngineFlags:
    multithreading = True


def is_multithreading_enabled() -> bool:
    """Mirrors `torch.autograd.is_multithreading_enabled` (shadowgrad's engine runs on the
    calling thread whatever it says; the flag reads back what was set)."""
    return _EngineFlags.multithreading


class set_multithreading_enabled:
    """Mirrors `torch.autograd.set_multithreading_enabled`: a context manager (and a call
    that sets the flag at once)."""

    def __init__(self, mode: bool) -> None:
        self.prev = _EngineFlags.multithreading
        self.mode = mode
        _EngineFlags.multithreading = mode

    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        _EngineFlags.multithreading = self.prev


def is_view_replay_enabled() -> bool:
    """Mirrors `torch.autograd.is_view_replay_enabled`: the flag _force_original_view_tracking
    sets (shadowgrad regenerates a modified view's grad_fn with as_strided either way)."""
    return _grad_mode._VIEW_REPLAY[0]


def is_tensor_like(inp: Any) -> bool:
    """Mirrors `torch.autograd.is_tensor_like`: a Tensor, or a type with __torch_function__."""
    return type(inp) is _Tensor or hasattr(inp, "__torch_function__")


def variable(*args: Any, **kwargs: Any) -> Any:
    """Mirrors `torch.autograd.variable`: removed, it raises torch's message."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead")


def kineto_available() -> bool:
    """Mirrors `torch.autograd.kineto_available` (shadowgrad's profiler stands in for it)."""
    return True


def __getattr__(name: str) -> Any:
    # torch.autograd re-exports these from torch.overrides (imported lazily: overrides
    # imports the autograd package)
    if name in ("has_torch_function", "handle_torch_function"):
        from .. import overrides

        return getattr(overrides, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
