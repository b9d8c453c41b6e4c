"""torch's `_foreach_*` functions (torch._foreach_mul, torch._foreach_lerp_, ...): the ones
optimizers and user code such as a weights EMA call on lists of tensors.

On CPU torch runs every one of them on its slow path: the one-tensor op element by element
(same values, dtype promotion, checks and errors), after its list checks. So does shadowgrad.
The in-place forms return `self`, as torch does; the out-of-place forms a tuple.

Autograd through an out-of-place form: torch records ONE node for the whole call (a
`CppFunction` named `ForeachAddBackward0List`, ...), each output its own output number of it,
with the edges of every tensor argument, list by list (`self`'s, then `other`'s, ...). Here that
node wraps the nodes of the per-element ops (see `_ForeachNode`). The in-place forms record the
per-element ops' own nodes, as torch's do.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from . import _grad_mode
from . import _tensor as _tensor_mod
from ._tensor import Tensor
from .autograd import forward_ad as _fwad
from .autograd.anomaly_mode import _STATE as _ANOMALY
from .autograd.graph import SECOND_TIME, Node, SavedTensor, forward_op_name
from .ops.shape import tensor_list

__all__ = [
    "_amp_foreach_non_finite_check_and_unscale_",
    "_amp_update_scale_",
    "_foreach_abs",
    "_foreach_abs_",
    "_foreach_acos",
    "_foreach_acos_",
    "_foreach_add",
    "_foreach_add_",
    "_foreach_addcdiv",
    "_foreach_addcdiv_",
    "_foreach_addcmul",
    "_foreach_addcmul_",
    "_foreach_asin",
    "_foreach_asin_",
    "_foreach_atan",
    "_foreach_atan_",
    "_foreach_ceil",
    "_foreach_ceil_",
    "_foreach_clamp_max",
    "_foreach_clamp_max_",
    "_foreach_clamp_min",
    "_foreach_clamp_min_",
    "_foreach_clone",
    "_foreach_copy_",
    "_foreach_cos",
    "_foreach_cos_",
    "_foreach_cosh",
    "_foreach_cosh_",
    "_foreach_div",
    "_foreach_div_",
    "_foreach_erf",
    "_foreach_erf_",
    "_foreach_erfc",
    "_foreach_erfc_",
    "_foreach_exp",
    "_foreach_exp_",
    "_foreach_expm1",
    "_foreach_expm1_",
    "_foreach_floor",
    "_foreach_floor_",
    "_foreach_frac",
    "_foreach_frac_",
    "_foreach_lerp",
    "_foreach_lerp_",
    "_foreach_lgamma",
    "_foreach_lgamma_",
    "_foreach_log",
    "_foreach_log1p",
    "_foreach_log1p_",
    "_foreach_log2",
    "_foreach_log2_",
    "_foreach_log10",
    "_foreach_log10_",
    "_foreach_log_",
    "_foreach_max",
    "_foreach_maximum",
    "_foreach_maximum_",
    "_foreach_minimum",
    "_foreach_minimum_",
    "_foreach_mm",
    "_foreach_mul",
    "_foreach_mul_",
    "_foreach_neg",
    "_foreach_neg_",
    "_foreach_norm",
    "_foreach_pow",
    "_foreach_pow_",
    "_foreach_powsum",
    "_foreach_reciprocal",
    "_foreach_reciprocal_",
    "_foreach_round",
    "_foreach_round_",
    "_foreach_rsqrt",
    "_foreach_rsqrt_",
    "_foreach_sigmoid",
    "_foreach_sigmoid_",
    "_foreach_sign",
    "_foreach_sign_",
    "_foreach_sin",
    "_foreach_sin_",
    "_foreach_sinh",
    "_foreach_sinh_",
    "_foreach_sqrt",
    "_foreach_sqrt_",
    "_foreach_sub",
    "_foreach_sub_",
    "_foreach_tan",
    "_foreach_tan_",
    "_foreach_tanh",
    "_foreach_tanh_",
    "_foreach_trunc",
    "_foreach_trunc_",
    "_foreach_zero_",
]

_NUMBER = (bool, int, float, complex)
_MISSING: Any = object()


def _torch_args(fn: Any) -> Any:
    """torch's argument-parser error for a missing argument: its invalid-combination listing
    for an op with several overloads, else its `missing 1 required positional arguments:
    "src"` (Python's own wording differs)."""
    fname = fn.__name__

    @functools.wraps(fn)
    def parsed(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            msg = str(e)
            if not msg.startswith(f"{fname}() missing "):
                raise
            if fname.removeprefix("_foreach_").rstrip("_") in _SIGS:
                raise _invalid(fname, args, kwargs) from None
            from ._signatures import _missing

            raise _missing(fname, re.findall(r"'(\w+)'", msg.split(":", 1)[1])) from None

    return parsed


# --- argument checks ------------------------------------------------------------------------


def _type_name(v: Any) -> str:
    return type(v).__name__


def _vmap_check(name: str, *lists: Any) -> None:
    """torch's vmap has no batching rule for the foreach ops (`name`: the op's overload)."""
    sl = _tensor_mod.VMAP_SLICES
    if sl is not None and any(id(t) in sl for ts in lists if isinstance(ts, list) for t in ts):
        raise RuntimeError(
            f"Batching rule not implemented for aten::{name}. We could not generate a fallback."
        )


def _nonempty(ts: list[Tensor]) -> None:
    if not ts:
        raise RuntimeError("Tensor list must have at least one tensor.")


def _same_len(ts: list[Tensor], other: Sequence[Any]) -> None:
    if len(other) != len(ts):
        raise RuntimeError(
            f"Tensor lists must have the same number of tensors, got {len(ts)} and {len(other)}"
        )


def _scalar_list(ts: list[Tensor], scalars: Sequence[Any]) -> list[Any]:
    if len(scalars) != len(ts):
        raise RuntimeError("Tensor list must have same number of elements as scalar list.")
    return list(scalars)


def _is_scalar(v: Any) -> bool:
    return isinstance(v, _NUMBER) or (isinstance(v, Tensor) and v.dim() == 0)


def _as_scalar(v: Any) -> Any:
    """A Scalar argument: torch's parser takes a 0-dim Tensor for one (its value)."""
    return v.item() if isinstance(v, Tensor) else v


def _kind(v: Any) -> str:
    """Which overload a list-or-scalar argument picks: "list" (Tensor[]), "scalars"
    (Scalar[]), "tensor" (Tensor) or "scalar"."""
    if isinstance(v, (list, tuple)):
        if v and isinstance(v[0], Tensor):
            return "list"
        return "scalars"
    if isinstance(v, Tensor):
        return "tensor"
    return "scalar"


def _zero_dim(o: Tensor) -> None:
    if o.dim() != 0:
        raise RuntimeError(
            f"scalar tensor expected to be 0 dim but it has {o.dim()} dimensions and "
            f"{o.numel()} elements."
        )


# --- autograd: one node for the whole call --------------------------------------------------


class _ForeachNode(Node):
    """The node of an out-of-place foreach call: output i's gradient goes through the node the
    i-th per-element op recorded (its formulas, its saved values and their version checks),
    and the gradients it gives land on this node's edges (`_pos[i]`: the edge index of each of
    the inner node's inputs)."""

    __slots__ = ("_inner", "_nout", "_pos", "_released", "_shared_rg")
    _saves = True

    @property
    def num_outputs(self) -> int:  # type: ignore[override]
        return self._nout

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        from .autograd.engine import _validate

        if self._released:
            raise RuntimeError(SECOND_TIME)
        if self._shared_rg:
            # torch's Tensor-overload formulas return no gradient for the shared tensor
            raise RuntimeError("inconsistent range for TensorList output")
        # torch's node unpacks every saved tensor list whole: a modified saved value of any
        # element raises, whichever outputs have a gradient
        for i, inner in enumerate(self._inner):
            if inner is not None:
                self._unpack_all(i, inner)
        out: list[Any] = [None] * self._nin
        for i, g in enumerate(grads):
            inner = self._inner[i]
            if g is None or inner is None:
                continue
            try:
                res = _validate(inner, inner.apply([g]))
            except RuntimeError as e:
                raise self._renamed(e, i, inner) from None
            for k, r in zip(self._pos[i], res, strict=True):
                if k is None or r is None:
                    continue
                out[k] = r if out[k] is None else out[k] + r
        return tuple(out)

    def _unpack_all(self, i: int, inner: Any) -> None:
        saved_map = getattr(inner, "saved_map", None)
        saved = saved_map() if saved_map is not None else None
        if not saved:
            return
        for n, v in saved.items():
            if type(v) is SavedTensor:
                try:
                    inner._unpack(n, v)
                except RuntimeError as e:
                    raise self._renamed(e, i, inner) from None

    def _renamed(self, e: RuntimeError, i: int, inner: Any) -> RuntimeError:
        """A modified saved output's error names this node's op and output number, as
        torch's (`which is output 1 of ForeachSqrt,`)."""
        msg = str(e)
        own = f", which is output 0 of {forward_op_name(inner.name())},"
        if own not in msg:
            return e
        name = self.name()
        return RuntimeError(
            msg.replace(own, f", which is output {i} of {name[: name.rfind('Backward')]},")
        )

    def release(self) -> None:
        if self._saves:
            self._released = True
        for inner in self._inner:
            if inner is not None:
                inner.release()


class _NotImplementedNode(Node):
    """torch's `torch::autograd::NotImplemented`: the node of a foreach overload that has no
    derivative formula; running it raises."""

    __slots__ = ("_nout", "_what")
    _cpp_name = "torch::autograd::NotImplemented"

    @property
    def num_outputs(self) -> int:  # type: ignore[override]
        return self._nout

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        raise RuntimeError(f"derivative for {self._what} is not implemented")


_NotImplementedNode.__name__ = _NotImplementedNode.__qualname__ = "NotImplemented"

_NODE_CLASSES: dict[str, type[_ForeachNode]] = {}


# the foreach nodes torch binds a Python class for (`type(grad_fn).__name__` is their name); the
# others are C++ nodes without one: their type is "CppFunction", name() the node's own name
_PY_NAMED = frozenset(
    (
        "ForeachDivBackward0",
        "ForeachMaximumBackward0",
        "ForeachMaximumBackward1",
        "ForeachMinimumBackward0",
        "ForeachMinimumBackward1",
        "ForeachNormBackward0",
        "ForeachPowBackward0",
        "ForeachPowBackward1",
        "ForeachPowBackward2",
    )
)
# the nodes that save nothing (torch's others save a tensor list, so that a second backward
# through them raises)
_SAVES_NOTHING = frozenset(
    (
        "ForeachNegBackward0",
        "ForeachCloneBackward0",
        "ForeachTruncBackward0",
        "ForeachSignBackward0",
        "ForeachRoundBackward0",
        "ForeachCeilBackward0",
        "ForeachFloorBackward0",
        "ForeachFracBackward0",
        "ForeachLerpBackward0Scalar",
        "ForeachLerpBackward0ScalarList",
    )
)


def _node_class(name: str) -> type[_ForeachNode]:
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = type(
            name if name in _PY_NAMED else "CppFunction",
            (_ForeachNode,),
            {"__slots__": (), "_cpp_name": name, "_saves": name not in _SAVES_NOTHING},
        )
    return cls


def _edge(t: Any) -> Any:
    return t._edge() if isinstance(t, Tensor) and t._rg else None


def _run(
    node_name: str | None,
    columns: Sequence[Sequence[Any]],
    one: Callable[..., Tensor],
    n: int,
    shared: Any = None,
    not_implemented: str | None = None,
) -> tuple[Tensor, ...]:
    """Call `one(*column_elements, shared)` (shared left out when None) for each element, and,
    when autograd records, tie the outputs to one node: `node_name`'s (a `_ForeachNode`) or a
    `_NotImplementedNode` for `not_implemented`."""
    args = [[col[i] for col in columns] for i in range(n)]
    if shared is not None:
        for a in args:
            a.append(shared)
    outs = [one(*a) for a in args]
    if not _grad_mode.mode().grad or not any(
        isinstance(v, Tensor) and v._rg for a in args for v in a
    ):
        return tuple(outs)
    edges = [_edge(t) for col in columns for t in col]
    if isinstance(shared, Tensor):
        edges.append(_edge(shared))
    if not_implemented is not None:
        if isinstance(shared, Tensor) and not shared._rg:
            edges.pop()
        node: Node = _NotImplementedNode(tuple(edges))
        node._nout = n  # type: ignore[attr-defined]
        node._what = "aten::" + not_implemented  # type: ignore[attr-defined]
    else:
        fnode = _node_class(node_name)(tuple(edges))  # type: ignore[arg-type]
        fnode._nout = n
        fnode._released = False
        fnode._shared_rg = isinstance(shared, Tensor) and shared._rg
        inner_nodes: list[Any] = []
        positions: list[tuple[Any, ...]] = []
        k = len(columns) * n
        for i, o in enumerate(outs):
            inner = o._grad_fn
            pos: list[Any] = [j * n + i for j in range(len(columns))]
            if isinstance(shared, Tensor):
                pos.append(k)
            if inner is not None:
                # the per-element op's inputs, in its own order, are the call's tensors (its
                # edges past them, if any, are constants': no gradient)
                nin = len(inner._next)
                pos = (pos + [None] * nin)[:nin]
            inner_nodes.append(inner)
            positions.append(tuple(pos))
        fnode._inner = tuple(inner_nodes)
        fnode._pos = tuple(positions)
        node = fnode
    if _ANOMALY.enabled:
        from .autograd.explain import forward_trace

        node._trace = forward_trace()
    for i, o in enumerate(outs):
        o._grad_fn = node
        o._nr = i
        o._rg = True
    return tuple(outs)


def _inplace_not_implemented(
    what: str, t: Tensor, value: Callable[[Tensor], Tensor], others: list[Tensor]
) -> Tensor:
    """An in-place foreach op without a derivative formula (maximum_ by a number, copy_,
    addcmul_ by a scalars Tensor): torch gives each changed tensor its own NotImplemented node,
    with the edges of the tensor and of all the call's other tensors, when any requires grad.
    `value(t)`: the tensor's new value, out of place."""
    if not _grad_mode.mode().grad or not (t._rg or any(o._rg for o in others)):
        with _grad_mode.no_grad():
            return t.copy_(value(t))

    def fn(snap: Tensor, *others_: Tensor) -> Tensor:
        with _grad_mode.no_grad():
            r = value(snap)
        ins = (snap, *others_)
        node = _NotImplementedNode(tuple(_edge(x) for x in ins))
        node._in_meta = tuple((x._data.shape, x.dtype) if x._rg else None for x in ins)
        node._nout = 1
        node._what = what
        r._grad_fn = node
        r._rg = True
        r._nr = 0
        return r

    from .ops.inplace import apply_inplace

    fn.__name__ = what
    return apply_inplace(fn, t, *others)


def _dual(ts: Sequence[Tensor]) -> bool:
    """Inside a forward-AD level, whether a tensor of `ts` carries a tangent."""
    return _fwad._STATE.active and any(_fwad._get_tangent(t) is not None for t in ts)


# --- the op families --------------------------------------------------------------------------

# name -> (node name suffixes by overload): "scalar", "scalars", "list", "tensor"
_BINARY_NODES: dict[str, dict[str, str]] = {
    "add": {
        "scalar": "ForeachAddBackward1Scalar",
        "scalars": "ForeachAddBackward1ScalarList",
        "list": "ForeachAddBackward0List",
        "tensor": "ForeachAddBackward0Tensor",
    },
    "sub": {
        "scalar": "ForeachSubBackward1Scalar",
        "scalars": "ForeachSubBackward1ScalarList",
        "list": "ForeachSubBackward0List",
    },
    "mul": {
        "scalar": "ForeachMulBackward1Scalar",
        "scalars": "ForeachMulBackward1ScalarList",
        "list": "ForeachMulBackward0List",
        "tensor": "ForeachMulBackward0Tensor",
    },
    "div": {
        "scalar": "ForeachDivBackward1Scalar",
        "scalars": "ForeachDivBackward1ScalarList",
        "list": "ForeachDivBackward0",
        "tensor": "ForeachDivBackward0Tensor",
    },
    "clamp_min": {
        "scalar": "ForeachClampMinBackward0Scalar",
        "scalars": "ForeachClampMinBackward0ScalarList",
        "list": "ForeachClampMinBackward1List",
    },
    "clamp_max": {
        "scalar": "ForeachClampMaxBackward0Scalar",
        "scalars": "ForeachClampMaxBackward0ScalarList",
        "list": "ForeachClampMaxBackward1List",
    },
    "maximum": {
        "scalar": "ForeachMaximumBackward0",
        "scalars": "ForeachMaximumBackward1",
        "list": "ForeachMaximumBackward0List",
    },
    "minimum": {
        "scalar": "ForeachMinimumBackward0",
        "scalars": "ForeachMinimumBackward1",
        "list": "ForeachMinimumBackward0List",
    },
    "pow": {
        "scalar": "ForeachPowBackward0Scalar",
        "scalars": "ForeachPowBackward1",
        "list": "ForeachPowBackward0",
    },
}
# the ops whose Tensor overload a 0-dim Tensor picks ahead of the Scalar one (torch's parser
# tries the overloads in its own order)
_TENSOR_FIRST = frozenset(("mul", "div"))
_ALPHA = frozenset(("add", "sub"))


_SIGS: dict[str, tuple[str, ...]] = {
    "add": (
        "tuple of Tensors self, Number scalar",
        "tuple of Tensors self, tuple of Scalars scalars",
        "tuple of Tensors self, Tensor other, *, Number alpha = 1",
        "tuple of Tensors self, tuple of Tensors other, *, Number alpha = 1",
    ),
    "sub": (
        "tuple of Tensors self, Number scalar",
        "tuple of Tensors self, tuple of Scalars scalars",
        "tuple of Tensors self, tuple of Tensors other, *, Number alpha = 1",
    ),
    "mul": (
        "tuple of Tensors self, tuple of Scalars scalars",
        "tuple of Tensors self, Tensor other",
        "tuple of Tensors self, tuple of Tensors other",
        "tuple of Tensors self, Number scalar",
    ),
    "clamp_min": (
        "tuple of Tensors self, Number scalar",
        "tuple of Tensors self, tuple of Scalars scalars",
        "tuple of Tensors self, tuple of Tensors other",
    ),
    "pow": (
        "Number self, tuple of Tensors exponent",
        "tuple of Tensors self, Number exponent",
        "tuple of Tensors self, tuple of Scalars exponent",
        "tuple of Tensors self, tuple of Tensors exponent",
    ),
    "lerp": (
        "tuple of Tensors self, tuple of Tensors tensors1, Number weight",
        "tuple of Tensors self, tuple of Tensors tensors1, tuple of Scalars weight",
        "tuple of Tensors self, tuple of Tensors tensors1, tuple of Tensors weights",
    ),
    "addcmul": (
        "tuple of Tensors self, tuple of Tensors tensor1, tuple of Tensors tensor2, "
        "tuple of Scalars scalars",
        "tuple of Tensors self, tuple of Tensors tensor1, tuple of Tensors tensor2, Tensor scalars",
        "tuple of Tensors self, tuple of Tensors tensor1, tuple of Tensors tensor2, "
        "Number value = 1",
    ),
}
for _k, _v in (("div", "mul"), ("clamp_max", "clamp_min"), ("maximum", "clamp_min"),
               ("minimum", "clamp_min"), ("addcdiv", "addcmul")):  # fmt: skip
    _SIGS[_k] = _SIGS[_v]
_SIGS["pow_"] = _SIGS["pow"][1:]


def _invalid(fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
    """torch's overload-resolution error for a foreach function (its listing marks every
    argument but a Tensor given for a Tensor parameter)."""
    from ._signatures import _arg_desc, _type_name

    op = fname.removeprefix("_foreach_")
    sigs = _SIGS.get(op) or _SIGS[op.rstrip("_")]
    got = ", ".join(type(a).__name__ if isinstance(a, Tensor) else _type_name(a) for a in args)
    got += "".join(
        f", {k}={type(v).__name__ if isinstance(v, Tensor) else _type_name(v)}"
        for k, v in kwargs.items()
    )
    lines = ""
    for sig in sigs:
        lines += f" * ({sig})\n"
        params = sig.split(", ")
        if len(params) == len(args) and not kwargs:
            marked = ", ".join(
                _arg_desc(a)
                if type(a) is Tensor and p.startswith("Tensor ")
                else f"!{_arg_desc(a)}!"
                for a, p in zip(args, params, strict=True)
            )
            lines += (
                f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            )
    return TypeError(
        f"{fname}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{lines}"
    )


def _check_inplace(ts: list[Tensor]) -> None:
    """torch checks every tensor of an in-place foreach call (a leaf requiring grad, ...)
    before it changes any."""
    if _grad_mode.mode().grad:
        for t in ts:
            t._check_inplace()


def _scalar_inplace(op: str) -> Callable[..., Any] | None:
    """The Scalar overload's one-edge op (AddBackward1, MulBackward1, ...) that torch's slow
    path records for `t.add_(number)`, where Python's `t.add_(number)` records the Tensor
    overload's."""
    from .ops import pointwise as P

    if op == "add":
        return P.add_scalar  # type: ignore[no-any-return]
    if op == "sub":
        return P.sub_scalar  # type: ignore[no-any-return]
    if op == "mul":
        return P._mul_scalar  # type: ignore[no-any-return]
    if op == "div":
        from .ops.nn_ops import _div_scalar

        return _div_scalar
    return None


def _exact_values(sop: Any, op: str) -> Callable[..., Tensor]:
    """The Scalar overload's node (`sop`, whose formulas read no result) with the values of
    the one-tensor op: float16 and bfloat16 compute in float32 and round once, which the
    Scalar ops' own forward (kept in the array's dtype) does not."""

    def fn(snap: Tensor, o: Any) -> Tensor:
        r = sop(snap, o)
        with _grad_mode.no_grad():
            r._data = getattr(snap, op)(o)._data
        return r

    fn.__name__ = sop.__name__
    return fn


def _elem(op: str, inplace: bool) -> Callable[..., Tensor]:
    """The one-tensor op that the foreach op runs element by element."""
    if op in ("maximum", "minimum"):
        clamp = "clamp_min" if op == "maximum" else "clamp_max"
        name = op + "_" if inplace else op

        def mm(t: Tensor, o: Any) -> Tensor:
            if inplace:
                if isinstance(o, Tensor):  # Tensor has no maximum_: torch's C++ maximum_out
                    from . import maximum, minimum
                    from .ops.inplace import apply_inplace

                    return apply_inplace(maximum if op == "maximum" else minimum, t, o)
                # by a number: torch's clamp, with no derivative formula
                return _inplace_not_implemented(
                    f"_foreach_{op}_", t, lambda c: getattr(c, clamp)(o), []
                )
            if isinstance(o, Tensor):
                return getattr(t, name)(o)  # type: ignore[no-any-return]
            # a number: torch's clamp's values and dtype, maximum's gradient (ties halved)
            from . import _creation

            with _grad_mode.no_grad():
                dt = getattr(t, clamp)(o).dtype
            return getattr(t, name)(_creation.tensor(o, dtype=dt))  # type: ignore[no-any-return]

        return mm
    name = op + "_" if inplace else op
    if inplace and op in ("add", "sub", "mul", "div"):

        def scalar_node(t: Tensor, o: Any, **kw: Any) -> Tensor:
            if (
                not kw
                and type(o) in (int, float)
                and t._data.dtype.kind == "f"
                and _grad_mode.mode().grad
                and (t._rg or t._base is not None)
            ):
                from .ops.inplace import apply_inplace

                sop = _scalar_inplace(op)
                if t._data.dtype.itemsize in (4, 8):
                    return apply_inplace(sop, t, o)  # type: ignore[arg-type]
                return apply_inplace(_exact_values(sop, op), t, o)
            return getattr(t, name)(o, **kw)  # type: ignore[no-any-return]

        return scalar_node
    return lambda t, o, **kw: getattr(t, name)(o, **kw)


_OVERLOAD = {"scalar": "Scalar", "scalars": "ScalarList", "list": "List", "tensor": "Tensor"}


def _no_complex_minmax(op: str, ts: list[Tensor]) -> None:
    """torch's maximum/minimum kernels refuse a complex list (their dispatch's error)."""
    for t in ts:
        if t.is_complex():
            name = "ComplexFloat" if t.dtype.itemsize == 8 else "ComplexDouble"
            raise NotImplementedError(f"\"{op}_cpu\" not implemented for '{name}'")


def _in_dtype(o: float, t: Tensor) -> float:
    """A number as torch's in-place `_foreach_mul_` by a Scalar takes it for a float16 or
    bfloat16 tensor: rounded to the tensor's dtype first (Python's `t.mul_(o)` computes with
    the float32 number)."""
    if not t.is_floating_point():
        return o
    from ._creation import tensor

    return float(tensor(o, dtype=t.dtype).item())


def _binary(op: str, inplace: bool) -> Any:
    fname = f"_foreach_{op}{'_' if inplace else ''}"
    nodes = _BINARY_NODES[op]
    method = _elem(op, inplace)

    def fn(self: Sequence[Tensor], other: Any = _MISSING, **kw: Any) -> Any:
        if other is _MISSING and kw:
            # the overloads' own names for the argument: scalar=, scalars=, other= (pow's
            # exponent=)
            for k in ("exponent",) if op == "pow" else ("scalar", "scalars", "other"):
                if k in kw:
                    other = kw.pop(k)
                    break
        if other is _MISSING:
            raise _invalid(fname, (self,), kw)
        if not isinstance(other, (*_NUMBER, Tensor, list, tuple)) or (
            kw and (op not in _ALPHA or set(kw) != {"alpha"})
        ):
            raise _invalid(fname, (self, other), kw)
        ts = tensor_list(self, fname, 0, "self")
        kind = _kind(other)
        if kind == "list" and op in ("maximum", "minimum"):
            _no_complex_minmax(op, ts)
        if kw and kind in ("scalar", "scalars"):
            if kind == "scalar":
                raise _invalid(fname, (self, other), kw)
            kind = "list"
        if kind == "tensor" and (
            "tensor" not in nodes
            or (op not in _TENSOR_FIRST and other.dim() == 0 and not other._rg)
        ):
            if other.dim() != 0 or other._rg:
                raise _invalid(fname, (self, other), kw)
            kind, other = "scalar", other.item()
        if kind == "list":
            other = tensor_list(other, fname, 1, "other")
        _nonempty(ts)
        if kind == "list":
            _same_len(ts, other)
        elif kind == "scalars":
            other = _scalar_list(ts, other)
        elif kind == "tensor":
            _zero_dim(other)
        _vmap_check(f"{fname}.{_OVERLOAD[kind]}", ts, other)
        n = len(ts)
        if inplace:
            _check_inplace(ts)
            for i, t in enumerate(ts):
                o = other[i] if kind in ("list", "scalars") else other
                if op == "mul" and type(o) is float and t.dtype.itemsize == 2:
                    o = _in_dtype(o, t)
                method(t, o, **kw)
            return self
        one = (lambda t, o: method(t, o, **kw)) if kw else method
        if kind == "list":
            return _run(nodes[kind], [ts, other], one, n)
        if kind == "scalars":
            return _run_scalars(nodes[kind], ts, other, one)
        return _run(nodes[kind], [ts], one, n, shared=other)

    fn.__name__ = fn.__qualname__ = fname
    return _torch_args(fn)


def _run_scalars(
    node_name: str, ts: list[Tensor], scalars: list[Any], one: Callable[..., Tensor]
) -> tuple[Tensor, ...]:
    """_run for a Scalar[] argument: element i gets scalars[i]."""
    it = iter(scalars)
    return _run(node_name, [ts], lambda t: one(t, next(it)), len(ts))


def _unary(op: str, inplace: bool) -> Any:
    fname = f"_foreach_{op}{'_' if inplace else ''}"
    node_name = "Foreach" + "".join(p.capitalize() for p in op.split("_")) + "Backward0"
    node_name = node_name.replace("Log1p", "Log1P")
    name = op + "_" if inplace else op

    def fn(self: Sequence[Tensor]) -> Any:
        ts = tensor_list(self, fname, 0, "self")
        _nonempty(ts)
        _vmap_check(fname, ts)
        if inplace:
            _check_inplace(ts)
            for t in ts:
                getattr(t, name)()
            return self
        return _run(node_name, [ts], lambda t: getattr(t, name)(), len(ts))

    fn.__name__ = fn.__qualname__ = fname
    return _torch_args(fn)


_foreach_abs = _unary("abs", False)
_foreach_abs_ = _unary("abs", True)
_foreach_acos = _unary("acos", False)
_foreach_acos_ = _unary("acos", True)
_foreach_asin = _unary("asin", False)
_foreach_asin_ = _unary("asin", True)
_foreach_atan = _unary("atan", False)
_foreach_atan_ = _unary("atan", True)
_foreach_ceil = _unary("ceil", False)
_foreach_ceil_ = _unary("ceil", True)
_foreach_cos = _unary("cos", False)
_foreach_cos_ = _unary("cos", True)
_foreach_cosh = _unary("cosh", False)
_foreach_cosh_ = _unary("cosh", True)
_foreach_erf = _unary("erf", False)
_foreach_erf_ = _unary("erf", True)
_foreach_erfc = _unary("erfc", False)
_foreach_erfc_ = _unary("erfc", True)
_foreach_exp = _unary("exp", False)
_foreach_exp_ = _unary("exp", True)
_foreach_expm1 = _unary("expm1", False)
_foreach_expm1_ = _unary("expm1", True)
_foreach_floor = _unary("floor", False)
_foreach_floor_ = _unary("floor", True)
_foreach_frac = _unary("frac", False)
_foreach_frac_ = _unary("frac", True)
_foreach_lgamma = _unary("lgamma", False)
_foreach_lgamma_ = _unary("lgamma", True)
_foreach_log = _unary("log", False)
_foreach_log_ = _unary("log", True)
_foreach_log10 = _unary("log10", False)
_foreach_log10_ = _unary("log10", True)
_foreach_log1p = _unary("log1p", False)
_foreach_log1p_ = _unary("log1p", True)
_foreach_log2 = _unary("log2", False)
_foreach_log2_ = _unary("log2", True)
_foreach_neg = _unary("neg", False)
_foreach_neg_ = _unary("neg", True)
_foreach_reciprocal = _unary("reciprocal", False)
_foreach_reciprocal_ = _unary("reciprocal", True)
_foreach_round = _unary("round", False)
_foreach_round_ = _unary("round", True)
_foreach_rsqrt = _unary("rsqrt", False)
_foreach_rsqrt_ = _unary("rsqrt", True)
_foreach_sigmoid = _unary("sigmoid", False)
_foreach_sigmoid_ = _unary("sigmoid", True)
_foreach_sign = _unary("sign", False)
_foreach_sign_ = _unary("sign", True)
_foreach_sin = _unary("sin", False)
_foreach_sin_ = _unary("sin", True)
_foreach_sinh = _unary("sinh", False)
_foreach_sinh_ = _unary("sinh", True)
_foreach_sqrt = _unary("sqrt", False)
_foreach_sqrt_ = _unary("sqrt", True)
_foreach_tan = _unary("tan", False)
_foreach_tan_ = _unary("tan", True)
_foreach_tanh = _unary("tanh", False)
_foreach_tanh_ = _unary("tanh", True)
_foreach_trunc = _unary("trunc", False)
_foreach_trunc_ = _unary("trunc", True)
_foreach_zero_ = _unary("zero", True)
_foreach_clone = _unary("clone", False)
_foreach_add = _binary("add", False)
_foreach_add_ = _binary("add", True)
_foreach_sub = _binary("sub", False)
_foreach_sub_ = _binary("sub", True)
_foreach_mul = _binary("mul", False)
_foreach_mul_ = _binary("mul", True)
_foreach_div = _binary("div", False)
_foreach_div_ = _binary("div", True)
_foreach_clamp_min = _binary("clamp_min", False)
_foreach_clamp_min_ = _binary("clamp_min", True)
_foreach_clamp_max = _binary("clamp_max", False)
_foreach_clamp_max_ = _binary("clamp_max", True)
_foreach_maximum = _binary("maximum", False)
_foreach_maximum_ = _binary("maximum", True)
_foreach_minimum = _binary("minimum", False)
_foreach_minimum_ = _binary("minimum", True)
_foreach_pow = _binary("pow", False)
_foreach_pow_ = _binary("pow", True)


def _pow_scalar_base(self: Any, exponent: Sequence[Tensor]) -> tuple[Tensor, ...]:
    """`_foreach_pow(scalar, exponents)`: torch's ScalarAndTensor overload."""
    from . import pow as _pow

    es = tensor_list(exponent, "_foreach_pow", 1, "exponent")
    _nonempty(es)
    _vmap_check("_foreach_pow.ScalarAndTensor", es)
    base = _as_scalar(self)
    return _run("ForeachPowBackward2", [es], lambda e: _pow(base, e), len(es))


_pow_tensors = _foreach_pow


@_torch_args
def _foreach_pow(self: Any, exponent: Any) -> Any:
    if isinstance(self, str) or self is None:
        raise _invalid("_foreach_pow", (self, exponent), {})
    if _is_scalar(self):
        return _pow_scalar_base(self, exponent)
    return _pow_tensors(self, exponent)


@_torch_args
def _foreach_copy_(
    self: Sequence[Tensor], src: Sequence[Tensor], non_blocking: bool = False
) -> Any:
    ts = tensor_list(self, "_foreach_copy_", 0, "self")
    srcs = tensor_list(src, "_foreach_copy_", 1, "src")
    _nonempty(ts)
    _same_len(ts, srcs)
    _vmap_check("_foreach_copy_", ts, srcs)
    _check_inplace(ts)
    if _grad_mode.mode().grad and any(t._rg for t in (*ts, *srcs)):
        for t, s in zip(ts, srcs, strict=True):
            _inplace_not_implemented(
                "_foreach_copy_", t, lambda c, s=s: c.clone().copy_(s, non_blocking), srcs
            )
        return self
    for t, s in zip(ts, srcs, strict=True):
        t.copy_(s, non_blocking)
    return self


# --- lerp, addcmul, addcdiv ---------------------------------------------------------------


@_torch_args
def _foreach_lerp(
    self: Sequence[Tensor], tensors1: Sequence[Tensor], weight: Any = None, **kw: Any
) -> Any:
    return _lerp(self, tensors1, _weight_kw("_foreach_lerp", self, tensors1, weight, kw), False)


@_torch_args
def _foreach_lerp_(
    self: Sequence[Tensor], tensors1: Sequence[Tensor], weight: Any = None, **kw: Any
) -> Any:
    return _lerp(self, tensors1, _weight_kw("_foreach_lerp_", self, tensors1, weight, kw), True)


def _weight_kw(fname: str, self: Any, tensors1: Any, weight: Any, kw: dict[str, Any]) -> Any:
    """lerp's weight: `weight=` (a number or numbers) or `weights=` (tensors) by keyword."""
    if weight is None and "weights" in kw:
        weight = kw.pop("weights")
    if kw or weight is None:
        args = (self, tensors1) if weight is None else (self, tensors1, weight)
        raise _invalid(fname, args, kw)
    return weight


def _lerp(self: Any, tensors1: Any, weight: Any, inplace: bool) -> Any:
    fname = "_foreach_lerp_" if inplace else "_foreach_lerp"
    ts = tensor_list(self, fname, 0, "self")
    ends = tensor_list(tensors1, fname, 1, "tensors1")
    kind = _kind(weight)
    if kind == "tensor" and weight.dim() == 0 and not weight._rg:
        kind, weight = "scalar", weight.item()
    elif kind == "tensor" or not isinstance(weight, (*_NUMBER, list, tuple)):
        raise _invalid(fname, (self, tensors1, weight), {})
    if kind == "list":
        weight = tensor_list(weight, fname, 2, "weights")
    _nonempty(ts)
    _same_len(ts, ends)
    if kind == "list":
        _same_len(ts, weight)
    elif kind == "scalars":
        weight = _scalar_list(ts, weight)
    _vmap_check(f"{fname}.{_OVERLOAD[kind]}", ts, ends, weight)
    n = len(ts)
    name = "lerp_" if inplace else "lerp"

    def w(i: int) -> Any:
        return weight[i] if kind in ("list", "scalars") else weight

    if inplace:
        _check_inplace(ts)
        for i, t in enumerate(ts):
            getattr(t, name)(ends[i], w(i))
        return self
    if kind == "list":
        return _run("ForeachLerpBackward1List", [ts, ends, weight], lambda a, b, c: a.lerp(b, c), n)
    it = iter(range(n))
    node = "ForeachLerpBackward0ScalarList" if kind == "scalars" else "ForeachLerpBackward0Scalar"
    return _run(node, [ts, ends], lambda a, b: a.lerp(b, w(next(it))), n)


def _pointwise(op: str, inplace: bool) -> Any:
    fname = f"_foreach_{op}{'_' if inplace else ''}"
    node_base = "ForeachAddcmulBackward0" if op == "addcmul" else "ForeachAddcdivBackward0"
    name = op + "_" if inplace else op

    def fn(
        self: Sequence[Tensor],
        tensor1: Sequence[Tensor],
        tensor2: Sequence[Tensor],
        value: Any = 1,
        **kw: Any,
    ) -> Any:
        if kw:
            if set(kw) != {"scalars"}:  # the ScalarList and Tensor overloads' name
                raise _invalid(fname, (self, tensor1, tensor2, value), kw)
            value = kw["scalars"]
        ts = tensor_list(self, fname, 0, "self")
        t1 = tensor_list(tensor1, fname, 1, "tensor1")
        t2 = tensor_list(tensor2, fname, 2, "tensor2")
        kind = _kind(value)
        if kind == "list" or not isinstance(value, (*_NUMBER, Tensor, list, tuple)):
            raise _invalid(fname, (self, tensor1, tensor2, value), {})
        _nonempty(ts)
        _same_len(ts, t1)
        _same_len(ts, t2)
        n = len(ts)
        if kind == "tensor":
            if value.dim() != 1:
                raise RuntimeError(
                    f"Expected packed scalar Tensor to be of dimension 1. Got {value.dim()} "
                    "instead."
                )
            if value.numel() != n:
                raise RuntimeError(
                    f"Expected length of scalars to match input of length {n} but got "
                    f"{value.numel()} instead."
                )
            values = value.tolist()
        elif kind == "scalars":
            values = _scalar_list(ts, value)
        else:
            values = [value] * n
        ovl = {"tensor": "Tensor", "scalars": "ScalarList"}.get(kind, "Scalar")
        _vmap_check(f"{fname}.{ovl}", ts, t1, t2)
        if inplace:
            _check_inplace(ts)
            if kind == "tensor" and _grad_mode.mode().grad:
                others = [*t1, *t2, value]
                for i, t in enumerate(ts):
                    _inplace_not_implemented(
                        fname,
                        t,
                        lambda c, i=i: getattr(c, op)(t1[i], t2[i], value=values[i]),
                        others,
                    )
                return self
            for i, t in enumerate(ts):
                getattr(t, name)(t1[i], t2[i], value=values[i])
            return self
        it = iter(values)

        def one(a: Tensor, b: Tensor, c: Tensor, *_: Any) -> Tensor:
            return getattr(a, name)(b, c, value=next(it))

        if kind == "tensor":
            return _run(None, [ts, t1, t2], one, n, shared=value, not_implemented=fname)
        node = node_base + ("ScalarList" if kind == "scalars" else "Scalar")
        return _run(node, [ts, t1, t2], one, n)

    fn.__name__ = fn.__qualname__ = fname
    return _torch_args(fn)


_foreach_addcmul = _pointwise("addcmul", False)
_foreach_addcmul_ = _pointwise("addcmul", True)
_foreach_addcdiv = _pointwise("addcdiv", False)
_foreach_addcdiv_ = _pointwise("addcdiv", True)


# --- reductions and mm --------------------------------------------------------------------


@_torch_args
def _foreach_norm(self: Sequence[Tensor], ord: Any = 2, dtype: Any = None) -> Any:
    from .linalg import vector_norm

    ts = tensor_list(self, "_foreach_norm", 0, "self")
    if not _is_scalar(ord) or isinstance(ord, complex):
        raise TypeError(
            f"_foreach_norm(): argument 'ord' (position 2) must be Number, not {_type_name(ord)}"
        )
    _nonempty(ts)
    _vmap_check("_foreach_norm.Scalar", ts)
    p = _as_scalar(ord)
    if p == float("inf"):
        for t in ts:
            if t.numel() == 0:
                raise RuntimeError(
                    "_foreach_norm cannot compute the infinity norm on an empty tensor because "
                    "the operation does not have an identity"
                )
    if _fwad._STATE.active:
        for t in ts:
            if t.dim() and _fwad._get_tangent(t) is not None:
                # torch's forward formula gives each norm a tangent of the input's rank
                ones = ", ".join(["1"] * t.dim())
                raise RuntimeError(
                    "Trying to set a forward gradient that has a different size than that of the "
                    "original Tensor, this is not supported. Tensor is of size [] while the given "
                    f"forward gradient is of size [{ones}]."
                )
    return _run("ForeachNormBackward0", [ts], lambda t: vector_norm(t, p, dtype=dtype), len(ts))


@_torch_args
def _foreach_max(self: Sequence[Tensor]) -> Any:
    ts = tensor_list(self, "_foreach_max", 0, "self")
    _nonempty(ts)
    _vmap_check("_foreach_max", ts)
    for t in ts:
        if t.numel() == 0:
            raise RuntimeError(
                "_foreach_max cannot compute the maximum of an empty tensor; max over zero "
                "elements is undefined."
            )
    return _run("ForeachMaxBackward1", [ts], lambda t: t.max(), len(ts))


@_torch_args
def _foreach_powsum(self: Sequence[Tensor], ord: Any = 2, dtype: Any = None) -> Any:
    ts = tensor_list(self, "_foreach_powsum", 0, "self")
    _nonempty(ts)
    for t in ts:
        if not (t.is_floating_point() or t.is_complex()):
            # (torch's kernel sums integers as int64, which it has no powsum for)
            raise NotImplementedError("\"powsum_cpu\" not implemented for 'Long'")
    p = _as_scalar(ord)
    _vmap_check("_foreach_powsum.Scalar", ts)
    if _dual(ts):
        raise NotImplementedError(
            "Trying to use forward AD with aten::_foreach_powsum that does not support it."
        )

    def one(t: Tensor) -> Tensor:
        x = t.abs() if dtype is None else t.abs().to(dtype)
        return (x.pow(p)).sum() if p != 0 else (x != 0).sum().to(x.dtype)

    return _run(None, [ts], one, len(ts), not_implemented="_foreach_powsum")


@_torch_args
def _foreach_mm(self: Sequence[Tensor], mat2: Sequence[Tensor]) -> Any:
    ts = tensor_list(self, "_foreach_mm", 0, "self")
    ms = tensor_list(mat2, "_foreach_mm", 1, "mat2")
    _nonempty(ts)
    if len(ms) != len(ts):
        raise RuntimeError("_foreach_mm: self and mat2 must have the same number of tensors")
    _vmap_check("_foreach_mm", ts, ms)
    if _dual(ts) or _dual(ms):
        raise NotImplementedError(
            "Trying to use forward AD with _foreach_mm that does not support it because it has "
            "not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml"
        )
    return _run(None, [ts, ms], lambda a, b: a.mm(b), len(ts), not_implemented="_foreach_mm")


# --- the AMP foreach kernels (GradScaler's) -------------------------------------------------


def _one_element_float(t: Any, name: str) -> None:
    if t.numel() != 1:
        raise RuntimeError(f"{name} must be a 1-element tensor.")
    if t.dtype.itemsize != 4 or not t.is_floating_point():
        raise RuntimeError(f"{name} must be a float tensor.")


def _amp_foreach_non_finite_check_and_unscale_(
    self: Sequence[Tensor], found_inf: Tensor, inv_scale: Tensor
) -> None:
    """Mirrors `torch._amp_foreach_non_finite_check_and_unscale_`: each tensor multiplied in
    place by inv_scale (computed in float32 for float16/bfloat16), found_inf set to 1 when any
    value is not finite. Outside autograd, as torch's kernel: no version bump, no node."""
    import numpy as np

    ts = tensor_list(self, "_amp_foreach_non_finite_check_and_unscale_", 0, "self")
    _one_element_float(found_inf, "found_inf")
    _one_element_float(inv_scale, "inv_scale")
    inv = float(inv_scale._data.reshape(-1)[0])
    for t in ts:
        d = t._data
        if not (t.is_floating_point() or t.is_complex()):
            name = t.dtype._short
            raise NotImplementedError(
                f"\"_amp_foreach_non_finite_check_and_unscale_cpu\" not implemented for '{name}'"
            )
        if d.size and not np.isfinite(d).all():
            found_inf._data.reshape(-1)[0] = 1.0
        if inv == 1.0:
            continue
        with np.errstate(over="ignore", invalid="ignore"):
            _unscale(d, inv)


def _unscale(d: Any, inv: float) -> None:
    import numpy as np

    from . import _dtype as D

    if d.dtype is D.LD:  # float16 and bfloat16: multiplied in float32, rounded once
        d[...] = D.round_bf16(d.astype(np.float32) * np.float32(inv))
    elif d.dtype == np.float16:
        d[...] = (d.astype(np.float32) * np.float32(inv)).astype(np.float16)
    else:
        np.multiply(d, d.dtype.type(inv) if d.dtype.kind == "f" else inv, out=d)


def _amp_update_scale_(
    self: Tensor,
    growth_tracker: Tensor,
    found_inf: Tensor,
    scale_growth_factor: float,
    scale_backoff_factor: float,
    growth_interval: int,
) -> Tensor:
    """Mirrors `torch._amp_update_scale_`: GradScaler's scale update, in place on the scale
    (returned) and the growth tracker."""
    import math

    if growth_tracker.numel() != 1:
        raise RuntimeError("growth_tracker must be a 1-element tensor.")
    if self.numel() != 1:
        raise RuntimeError("current_scale must be a 1-element tensor.")
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    if growth_tracker.dtype.is_floating_point or growth_tracker.dtype.itemsize != 4:
        raise RuntimeError("growth_tracker must be an int tensor.")
    if not self.is_floating_point() or self.dtype.itemsize != 4:
        raise RuntimeError("current_scale must be a float tensor.")
    if not found_inf.is_floating_point() or found_inf.dtype.itemsize != 4:
        raise RuntimeError("found_inf must be a float tensor.")
    import numpy as np

    scale = self._data.reshape(-1)
    tracker = growth_tracker._data.reshape(-1)
    f32 = np.float32
    if float(found_inf._data.reshape(-1)[0]):
        with np.errstate(over="ignore"):
            scale[0] = f32(scale[0] * f32(scale_backoff_factor))
        tracker[0] = 0
    else:
        successful = int(tracker[0]) + 1
        if successful == growth_interval:
            with np.errstate(over="ignore"):
                new_scale = f32(scale[0] * f32(scale_growth_factor))
            if math.isfinite(float(new_scale)):
                scale[0] = new_scale
            tracker[0] = 0
        else:
            tracker[0] = successful
    self._bump()
    return self
