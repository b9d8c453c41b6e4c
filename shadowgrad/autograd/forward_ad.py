"""Forward-mode AD: dual levels, dual tensors and tangent propagation.

Mirrors `torch.autograd.forward_ad`. A tangent lives in a side table of the current level, keyed
by the tensor (see Note [Tangent table]); every registered op calls `propagate` after its forward
while a level is active (one flag check otherwise). An op's JVP rule comes, in order, from
`JVP_RULES` (keyed by REGISTRY name, for ops declared without one), from the `jvp=` rule given
to `defop` (a function, or one of the markers LINEAR, BILINEAR, ELEMENTWISE below), or from the
generic rule: the VJP of the VJP, exact for every op that supports double backward (kept for
user-defined ops and ops declared without a rule).

A rule is a function whose parameters are named like backward formulas: forward parameters,
`result` (the output; a tuple for several outputs) and `<name>_t`, the tangent of input `<name>`
(None when it has none). It returns the output tangent (a tuple for several outputs). Rules run
with forward AD off (a single level exists, so tangents have no tangents of their own) and with
the caller's grad mode, so tangents are differentiable by backward AD, as torch's are.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .. import _grad_mode
from .graph import Node

__all__ = [
    "UnpackedDualTensor",
    "dual_level",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
]

_GM = _grad_mode.STATE

NO_LEVEL = (
    "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
    "enter_dual_level() first."
)
NO_FORMULA = (
    "Trying to use forward AD with {} that does not support it because it has not been "
    "implemented yet.\nPlease file an issue to PyTorch at "
    "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can "
    "prioritize its implementation or submit a PR adding the implementation to derivatives.yaml"
)


# Note [Tangent table]
# Tangents are kept out of Tensor: `tangents` maps id(tensor) to (weakref to it, tangent), and
# an entry goes when its tensor dies or the level exits. Tensors are not hashable by value
# (`==` is elementwise), hence ids rather than a WeakKeyDictionary. A tensor produced by
# autograd is also found through its (grad_fn, output_nr): a saved output unpacked in backward
# is a new Tensor object for the same variable, and must keep its tangent as torch's
# SavedVariable does (so backward formulas reading `result` see a dual).
class _State:
    __slots__ = ("active", "by_node", "enabled", "level", "tangents")

    def __init__(self) -> None:
        self.active = False  # a level exists and forward grad is enabled: ops must propagate
        self.enabled = True
        self.level = -1
        self.tangents: dict[int, tuple[Any, Any]] = {}
        self.by_node: dict[tuple[int, int], tuple[Any, Any]] = {}


_STATE = _State()


def _forget(table: dict[Any, Any], key: Any) -> Callable[[Any], None]:
    def cb(ref: Any) -> None:
        e = table.get(key)
        if e is not None and e[0] is ref:
            del table[key]

    return cb


def _set_tangent(t: Any, tangent: Any) -> None:
    st = _STATE
    k = id(t)
    st.tangents[k] = (weakref.ref(t, _forget(st.tangents, k)), tangent)
    gf = t._grad_fn
    if gf is not None:
        nk = (id(gf), t._nr)
        st.by_node[nk] = (weakref.ref(gf, _forget(st.by_node, nk)), tangent)


def _drop_tangent(t: Any) -> None:
    """Forget t's tangent at every level (torch's detach_ resets the forward grad)."""
    e = _STATE.tangents.get(id(t))
    if e is not None and e[0]() is t:
        del _STATE.tangents[id(t)]


def _get_tangent(t: Any) -> Any:
    st = _STATE
    e = st.tangents.get(id(t))
    if e is not None and e[0]() is t:
        return e[1]
    gf = t._grad_fn
    if gf is not None:
        e = st.by_node.get((id(gf), t._nr))
        if e is not None and e[0]() is gf:
            return e[1]
    return None


# --- levels -------------------------------------------------------------------------------


def enter_dual_level() -> int:
    """Enter a new forward grad level. Mirrors `torch.autograd.forward_ad.enter_dual_level`."""
    st = _STATE
    if st.level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    st.level = 0
    st.tangents = {}
    st.by_node = {}
    st.active = st.enabled
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Exit the level and drop its tangents. Mirrors `torch.autograd.forward_ad.exit_dual_level`."""
    st = _STATE
    if level is None:
        level = st.level
    if level != st.level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. This "
            "is not supported."
        )
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    st.level = -1
    st.active = False
    st.tangents = {}
    st.by_node = {}


class dual_level(_grad_mode._DecoratorContextManager):
    """Context manager (and decorator) for a forward AD level. Mirrors `forward_ad.dual_level`."""

    def __enter__(self) -> int:  # type: ignore[override]
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()


class _set_fwd_grad_enabled(_grad_mode._DecoratorContextManager):
    """Turn tangent propagation off (or back on) without leaving the level."""

    def __init__(self, mode: bool) -> None:
        self.prev = _STATE.enabled
        _set_enabled(mode)

    def clone(self) -> _set_fwd_grad_enabled:
        return self.__class__(_STATE.enabled)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _set_enabled(self.prev)


def _set_enabled(mode: bool) -> None:
    _STATE.enabled = mode
    _STATE.active = mode and _STATE.level >= 0


def _is_fwd_grad_enabled() -> bool:
    return _STATE.enabled


# --- dual tensors -------------------------------------------------------------------------


class UnpackedDualTensor(NamedTuple):
    """The (primal, tangent) pair returned by `unpack_dual`. Mirrors torch's namedtuple."""

    primal: Any
    tangent: Any


class Identity(Node):
    """The node of an unpacked primal (torch's `torch::autograd::Identity`)."""

    __slots__ = ()
    _cpp_name = "torch::autograd::Identity"

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        return (grads[0],)


# torch exposes its C++-only nodes to Python as the class CppFunction (name() tells them apart)
Identity.__module__ = "builtins"
Identity.__name__ = Identity.__qualname__ = "CppFunction"


def make_dual(tensor: Any, tangent: Any, *, level: int | None = None) -> Any:
    """A view of `tensor` carrying `tangent` (kept as is). Mirrors `forward_ad.make_dual`."""
    st = _STATE
    if level is None:
        level = st.level
    if level < 0:
        raise RuntimeError(NO_LEVEL)
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(
            f"Expected primal to be floating point or complex, but got: {tensor.dtype}"
        )
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(
            f"Expected tangent to be floating point or complex, but got: {tangent.dtype}"
        )
    if level != st.level:
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent._data.shape != tensor._data.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor._data.shape)} while the given forward gradient is of size "
            f"{list(tangent._data.shape)}."
        )
    if _get_tangent(tensor) is not None:
        raise RuntimeError(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at the "
            f"same level {level} is not supported."
        )
    with _set_fwd_grad_enabled(False):
        dual = tensor.view(tensor.shape)  # ViewBackward0 when tensor requires grad, as torch
    td = tangent._data
    if td.strides != tensor._data.strides and td.size > 1:
        tangent = _same_layout(tangent, tensor)
    _set_tangent(dual, tangent)
    return dual


def _same_layout(tangent: Any, primal: Any) -> Any:
    """torch's set_fw_grad: a tangent laid out unlike its primal (transposed, expanded) is
    copied into a new tensor with the primal's strides; one laid out alike is kept as is."""
    from .._tensor import _make

    out = np.empty_like(primal._data, dtype=tangent._data.dtype)  # the primal's layout
    out[...] = tangent._data
    return _make(out)


def unpack_dual(tensor: Any, *, level: int | None = None) -> UnpackedDualTensor:
    """(primal view, tangent or None). Mirrors `torch.autograd.forward_ad.unpack_dual`."""
    from .._tensor import _make
    from .function import _view_of

    st = _STATE
    if level is None:
        level = st.level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    # with forward grad disabled (a custom Function's forward) no tangent is visible, as torch's
    tangent = _get_tangent(tensor) if st.enabled else None
    if level != st.level:
        if tangent is not None:
            raise RuntimeError("Invalid level given to _fw_primal")
        return UnpackedDualTensor(_view_of(tensor), None)
    if tensor._rg and _GM.grad:
        node = Identity((tensor._edge(),))
        node._in_meta = ((tensor._data.shape, tensor.dtype),)
        primal = _make(tensor._data, True, node, 0, tensor._vc)
        primal._base = tensor._base if tensor._base is not None else tensor
    else:
        primal = _view_of(tensor)
    return UnpackedDualTensor(primal, tangent)


# --- propagation --------------------------------------------------------------------------

# Markers for the rule kinds that reuse what the op already declares, each usable as `jvp=`:
# LINEAR (torch's auto_linear): the op is linear in its differentiable inputs jointly (views,
# reductions, copies, pads), so the tangent is the op applied to the tangents (zeros for an
# input without one). BILINEAR: linear in each of its first two inputs (products).
# ELEMENTWISE (torch's auto_element_wise): an element-wise op, whose tangent is its backward
# formula with the tangent as the incoming gradient, summed over the inputs that have tangents.
LINEAR = "linear"
BILINEAR = "bilinear"
ELEMENTWISE = "elementwise"
# LOSS (torch's apply_loss_reduction of the element-wise formulas): a loss with a `reduction`
# parameter (0 none, 1 mean, 2 sum); ELEMENTWISE with reduction none, then reduced.
LOSS = "loss"


def _plus(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return a + b


# Note [Zero tangents]
# torch's generated forward formulas replace an input's undefined tangent by an efficient zero
# tensor whenever another input has one, and evaluate every term: `mul` is `other_t * self_p +
# self_t * other_p`, `mm` is `self_t.mm(mat2_p) + self_p.mm(mat2_t)`. A zero term is all zeros
# (a zero tensor times inf is 0), but when its primal factor requires grad it is recorded, so
# the tangent requires grad (`make_dual(w, t) * 2`, a Linear layer with dual parameters): the
# tangent is differentiable with respect to every primal the formula reads. And the sum is
# recorded as an AddBackward0 whenever either term requires grad. `add_terms` does that sum;
# a zero term that nothing would record changes no value and is left out.
class ZeroTerm(NamedTuple):
    """A formula term whose tangent is missing: fn(zeros like `like`), with `primal` the factor
    (or a tuple of the values the formula reads) that makes it recorded when it requires grad."""

    fn: Callable[[Any], Any]
    like: Any
    primal: Any


def _zero_value(z: ZeroTerm) -> Any:
    """The term recorded against its primal (values all zero), or None when not recorded."""
    import numpy as np

    from .._tensor import Tensor, _make

    primals = z.primal if type(z.primal) is tuple else (z.primal,)
    tensors = [p for p in primals if isinstance(p, Tensor)]
    if not (_GM.grad and any(p.requires_grad for p in tensors)):
        return None
    like = z.like
    if isinstance(like, Tensor):
        zeros = _make(np.zeros(like._data.shape, like._data.dtype))
    else:  # a Python number: torch's wrapped-number tensor, 0-d of the primal's dtype
        zeros = _make(np.zeros((), tensors[0]._data.dtype))
    term = z.fn(zeros)
    d = term._data
    if d.flags.writeable:
        d[...] = 0  # zero even where the primal is inf or nan, as torch's zero tensor is
    else:
        term._data = np.zeros_like(d)
    return term


def add_terms(a: Any, b: Any, sub: bool = False) -> Any:
    """torch's `a + b` (`a - b` with `sub`) over two formula terms, either of them a ZeroTerm
    (Note [Zero tangents])."""
    import numpy as np

    from .._tensor import _make

    za, zb = type(a) is ZeroTerm, type(b) is ZeroTerm
    if za and zb:
        return add_terms(_zero_value(a), _zero_value(b), sub)
    if not (za or zb):
        if not sub or b is None:
            return _plus(a, b)
        return -b if a is None else a - b
    real = b if za else a
    zero = _zero_value(a if za else b)
    if real is None:
        return zero
    negate = sub and za  # zero - real
    if zero is None:
        if not (real.requires_grad and _GM.grad):
            return -real if negate else real
        zero = _make(np.zeros((), real._data.dtype))
    first, second = (zero, real) if za else (real, zero)
    out = first - second if sub else first + second
    if out._data.shape == real._data.shape and out._data.flags.writeable:
        # a zero tensor adds nothing, not even to the sign of -0.0, as torch's does
        out._data[...] = -real._data if negate else real._data
    return out


# Ops torch has no forward-AD formula for (derivatives.yaml gives them no `result:`), by registry
# name: a dual input raises torch's NotImplementedError naming its ATen op, whatever rule the op
# declares (shadowgrad's would compute a tangent torch refuses to).
NO_FORWARD_AD = {
    "_cdist_forward": "_cdist_forward",
    "_pdist_forward": "_pdist_forward",
    "_embedding_bag": "_embedding_bag",
    "_pack_padded_sequence": "_pack_padded_sequence",
    "grid_sampler_2d": "grid_sampler_2d",
    "grid_sampler_3d": "grid_sampler_3d",
    "multi_margin_loss": "multi_margin_loss",
    "multilabel_margin_loss": "multilabel_margin_loss_forward",
    "segment_reduce": "segment_reduce",
    "cholesky": "cholesky",
    "igamma": "igamma",
    "igammac": "igammac",
    "special_zeta": "special_zeta",
    "special_zeta.self_scalar": "special_zeta",
    "special_zeta.other_scalar": "special_zeta",
}


# Rules of ops declared without `jvp=` (other families); an entry here wins over `jvp=`.
# Rules by REGISTRY name for ops whose defop has no `jvp=` (an op declared elsewhere, without
# touching its declaration); a declared `jvp=` wins. Every built-in op declares its rule beside its
# backward formulas, so this is empty.
JVP_RULES: dict[str, Any] = {}
_PLANS: dict[Any, tuple[tuple[int, int], ...]] = {}


def _plan(op: Any, rule: Callable[..., Any]) -> tuple[tuple[int, int], ...]:
    """How to fill each rule parameter: (0, i) arg i, (1, i) tangent of arg i, (2, 0) result."""
    key = (op.name, rule)
    p = _PLANS.get(key)
    if p is None:
        spec = []
        for n in inspect.signature(rule).parameters:
            if n == "result":
                spec.append((2, 0))
            elif n.endswith("_t") and n[:-2] in op.params:
                spec.append((1, op.params.index(n[:-2])))
            elif n in op.params:
                spec.append((0, op.params.index(n)))
            else:
                raise TypeError(f"{op.name}: the jvp rule reads '{n}', which is not known")
        p = _PLANS[key] = tuple(spec)
    return p


def propagate(op: Any, args: tuple[Any, ...], out: Any) -> None:
    """Give the op's outputs their tangents, if any input has one (called by the registry)."""
    from .._tensor import Tensor

    tangents: dict[int, Any] = {}
    for i in op.diff_idx:
        a = args[i]
        if isinstance(a, Tensor):
            tg = _get_tangent(a)
            if tg is not None:
                tangents[i] = tg
    if not tangents:
        return
    single = type(out) is not tuple
    outs = (out,) if single else out
    diff = op.diff_outputs
    targets = [
        k for k, r in enumerate(outs) if (diff is None or k in diff) and r._data.dtype.kind in "fc"
    ]
    if not targets:
        return
    if op.name in NO_FORWARD_AD:
        raise NotImplementedError(NO_FORMULA.format(NO_FORWARD_AD[op.name]))
    rule = getattr(op, "jvp", None) or JVP_RULES.get(op.name)
    st = _STATE
    st.active = False
    try:
        if rule is LINEAR:
            if op.diff_idx == (0,):
                res = op.run(tangents[0], *args[1:])
            else:
                res = op.run(*_linear_args(op, args, tangents))
        elif rule is ELEMENTWISE:
            res = _elementwise(op, args, out, tangents)
        elif rule is LOSS:
            k = op.params.index("reduction")
            red = args[k]
            res = _elementwise(op, (*args[:k], 0, *args[k + 1 :]), out, tangents)
            if red == 1:
                res = res.mean()
            elif red == 2:
                res = res.sum()
        elif rule is BILINEAR:
            # torch's self_t.op(other_p) + self_p.op(other_t), zero terms included (Note [Zero
            # tangents])
            a, b = args[0], args[1]
            res = add_terms(
                op.run(tangents[0], b) if 0 in tangents else ZeroTerm(lambda z: op.run(z, b), a, b),
                op.run(a, tangents[1]) if 1 in tangents else ZeroTerm(lambda z: op.run(a, z), b, a),
            )
        elif rule is not None:
            vals = []
            for kind, i in _plan(op, rule):
                if kind == 0:
                    vals.append(args[i])
                elif kind == 1:
                    vals.append(tangents.get(i))
                else:
                    vals.append(out)
            res = rule(*vals)
        else:
            res = None
            ress = _generic_jvp(op, args, outs, targets, tangents)
    finally:
        st.active = st.enabled and st.level >= 0
    if rule is not None:
        ress = (res,) if single else res
    for k in targets:
        tg = ress[k]
        r = outs[k]
        if tg is None:
            continue
        if tg._data.shape != r._data.shape:
            # a broadcast input's tangent covers the output as the input does
            tg = tg.expand(r.shape).contiguous()
        elif any(tg is t for t in tangents.values()):
            # a formula that passes a tangent through (add of a number, ...): torch's output
            # gets a tangent of its own, not the input's (an in-place change of one would
            # change the other)
            tg = tg.clone()
        _set_tangent(r, tg)


def _linear_args(op: Any, args: tuple[Any, ...], tangents: dict[int, Any]) -> list[Any]:
    """The op's arguments with each differentiable input replaced by its tangent (zero if none)."""
    from .._creation import zeros_like
    from .._tensor import Tensor

    new = list(args)
    for i in op.diff_idx:
        if i in tangents:
            new[i] = tangents[i]
        else:
            a = args[i]
            if isinstance(a, Tensor):
                new[i] = zeros_like(a)
            elif a is not None:
                new[i] = type(a)(0)
    return new


def _elementwise(op: Any, args: tuple[Any, ...], out: Any, tangents: dict[int, Any]) -> Any:
    """torch's auto_element_wise: each input's backward formula applied to its tangent, summed.

    A formula reads its inputs as backward does: a Python number given for a tensor parameter
    arrives as a 0-d tensor (of the computation's dtype).
    """
    import numpy as np

    from .._tensor import Tensor, _make

    # complex inputs or outputs: torch's rule is conj(formula(grad=conj(tangent))) with the
    # op's complex (conjugate Wirtinger) formulas, the real part kept for a real output
    # (handle_r_to_c); for real ones that is the real formula applied to the tangent
    cplx = out._data.dtype.kind == "c" or any(
        isinstance(tg, Tensor) and tg._data.dtype.kind == "c" for tg in tangents.values()
    )
    formulas = op.formulas
    if cplx and getattr(op, "complex_formulas", None) is not None:
        formulas = op.complex_formulas
    else:
        cplx = False
    res = None
    for i, (fn, names) in zip(op.diff_idx, formulas, strict=True):
        vals: list[Any] = []
        for n in names:
            if n == "grad":
                vals.append(None)
            elif n == "result":
                vals.append(out)
            else:
                k = op.params.index(n)
                a = args[k]
                if a is not None and k in op.tensor_idx and not isinstance(a, Tensor):
                    a = _make(np.asarray(a, out._data.dtype))
                vals.append(a)
        term = _elementwise_term(fn, names, vals, cplx, out)
        tg = tangents.get(i)
        if tg is None:
            # a zero tangent: recorded when a value the formula reads requires grad (Note
            # [Zero tangents]); `like` is the input (args[i] may be a Python number)
            res = add_terms(res, ZeroTerm(term, args[i], tuple(vals)))
        else:
            res = add_terms(res, term(tg))
    return res


def _conj(t: Any) -> Any:
    """A materialized conjugate (torch's tangent is no conj view)."""
    from ..ops.pointwise import _conj as conj_op

    return conj_op(t) if t._data.dtype.kind == "c" else t


def _elementwise_term(
    fn: Callable[..., Any], names: Any, vals: list[Any], cplx: bool, out: Any
) -> Callable[[Any], Any]:
    """The formula applied to a tangent (given as its `grad`), conjugated for complex ops."""

    def term(tg: Any) -> Any:
        if cplx:
            tg = _conj(tg)
        t = fn(*[tg if n == "grad" else v for n, v in zip(names, vals, strict=True)])
        if cplx:
            t = _conj(t)
            if out._data.dtype.kind != "c" and t._data.dtype.kind == "c":
                t = t.real
        return t

    return term


def propagate_list(run: Any, ts: list[Any], attrs: tuple[Any, ...], out: Any) -> None:
    """Tangents through cat/stack, which are linear in their tensors."""
    tangents = [_get_tangent(t) for t in ts]
    if all(tg is None for tg in tangents) or out._data.dtype.kind not in "fc":
        return
    from .._creation import zeros_like

    st = _STATE
    st.active = False
    try:
        tg = run(
            [zeros_like(t) if g is None else g for t, g in zip(ts, tangents, strict=True)], *attrs
        )
    finally:
        st.active = st.enabled and st.level >= 0
    _set_tangent(out, tg)


def _generic_jvp(
    op: Any,
    args: tuple[Any, ...],
    outs: tuple[Any, ...],
    targets: list[int],
    tangents: dict[int, Any],
) -> Any:
    """J·t as the VJP of the VJP: g(u) = J^T u is linear in u, and d<g(u), t>/du = J t."""
    from .._creation import zeros_like
    from .._tensor import Tensor
    from . import grad as autograd_grad

    keep = _GM.grad and (
        any(isinstance(a, Tensor) and a._rg for a in args) or any(t._rg for t in tangents.values())
    )
    prev = _GM.grad
    _GM.grad = True
    try:
        new_args = list(args)
        xs = []
        for i in tangents:
            a = args[i]
            x = a.view_as(a) if keep and a._rg else a.detach().requires_grad_(True)
            new_args[i] = x
            xs.append(x)
        ys = op.run(*new_args)
        if type(ys) is not tuple:
            ys = (ys,)
        ys = [ys[k] for k in targets]
        if not any(y._rg for y in ys):
            raise NotImplementedError(NO_FORMULA.format(op.name.split(".")[0]))
        us = [zeros_like(y).requires_grad_(True) for y in ys]
        gs = autograd_grad(ys, xs, us, create_graph=True, allow_unused=True)
        pairs = [
            (g, tg.to(g.dtype) if tg.dtype != g.dtype else tg)
            for g, tg in zip(gs, tangents.values(), strict=True)
            if g is not None and g._rg
        ]
        if pairs:
            jv = autograd_grad(
                [g for g, _ in pairs],
                us,
                [tg for _, tg in pairs],
                create_graph=keep,
                allow_unused=True,
            )
        else:
            jv = [None] * len(us)
    finally:
        _GM.grad = prev
    res: list[Any] = [None] * len(outs)
    for k, u, t in zip(targets, us, jv, strict=True):
        res[k] = zeros_like(u.detach()) if t is None else t
    return res


# --- custom Functions ---------------------------------------------------------------------


def function_jvp(cls: Any, ctx: Any, args: tuple[Any, ...], outs: tuple[Any, ...]) -> None:
    """Run a custom Function's `jvp` staticmethod when an input is dual (see function.py)."""
    from .._tensor import Tensor
    from .function import Function

    tangents = [_get_tangent(a) if isinstance(a, Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    given = tangents
    if cls.jvp is Function.jvp:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )
    from .._creation import zeros_like
    from .graph import SavedTensor

    if getattr(ctx, "_materialize", True):
        # as torch: a floating input without a tangent reaches jvp as a zero tangent
        tangents = [
            zeros_like(a.detach())
            if t is None and isinstance(a, Tensor) and a._data.dtype.kind in "fc"
            else t
            for a, t in zip(args, tangents, strict=True)
        ]
    st = _STATE
    st.active = False
    saved = ctx._saved  # inside jvp, ctx.saved_tensors are the save_for_forward tensors
    fw_saved = getattr(ctx, "_to_save_fw", ())
    ctx._saved = [None if t is None else SavedTensor(t) for t in fw_saved]
    try:
        res = cls.jvp(ctx, *tangents)
    finally:
        ctx._saved = saved
        st.active = st.enabled and st.level >= 0
    if not isinstance(res, tuple):
        res = (res,)
    if len(res) != len(outs):
        raise RuntimeError(
            "Function's jvp returned an invalid number of forward gradients (expected "
            f"{len(outs)} but got {len(res)})"
        )
    dirty = {id(t) for t in getattr(ctx, "_dirty", ())}
    for o, tg in zip(outs, res, strict=True):
        if isinstance(o, Tensor) and id(o) in dirty:
            # an input modified in place keeps its tangent object: jvp must update it in place
            k = next((i for i, a in enumerate(args) if a is o), None)
            if k is not None and given[k] is not None and tg is not given[k]:
                raise RuntimeError(
                    "An inplace custom Function is not modifying the forward mode gradients "
                    "inplace. If the forward is modifying an input inplace, then the jvp "
                    "function must modify the corresponding gradient inplace."
                )
    for o, tg in zip(outs, res, strict=True):
        if isinstance(o, Tensor) and tg is not None and o._data.dtype.kind in "fc":
            if tg._data.shape != o._data.shape:  # torch's set_fw_grad check
                raise RuntimeError(
                    "Trying to set a forward gradient that has a different size than that of "
                    "the original Tensor, this is not supported. Tensor is of size "
                    f"{list(o._data.shape)} while the given forward gradient is of size "
                    f"{list(tg._data.shape)}."
                )
            _set_tangent(o, tg)
