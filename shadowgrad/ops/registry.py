"""The op registry: each op declared once with its numpy forward and its backward formulas.

`defop` builds, from one declaration, the op's backward Node class (named as torch names it) and
a fast callable that runs the forward, promotes dtypes as torch does and records the node.

Formula arguments are named after what they need: `grad` (the incoming gradient; `grads` for
several outputs), the forward's parameters (`self`, `other`, `dim`, ...) and `result` (the forward
output). From those names the registry saves, for each call, exactly the values that the
formulas of the inputs requiring grad will read: this is how torch decides what to save, so the
version-counter errors (and the "backward a second time" errors) fire where torch's do.
See docs/design.md.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings as _warnings
from collections.abc import Callable
from typing import Any
from weakref import ref as _wref

import numpy as np

from .. import _dtype as D
from .. import _grad_mode
from .._tensor import Tensor, _make
from ..autograd import forward_ad as _fwad
from ..autograd.anomaly_mode import _STATE as _ANOMALY
from ..autograd.engine import fix_raw_grad as _fix_raw
from ..autograd.explain import forward_trace
from ..autograd.graph import (
    SECOND_TIME,
    UNPACKED,
    Node,
    SavedTensor,
    VersionCounter,
    _seq,
    track_view,
)
from ..autograd.graph import save_input as _save_input
from ..autograd.graph import save_output as _save_output
from ..autograd.saved_hooks import stack as _saved_hooks_stack
from ..overrides import _STATE as _TF

_mode = _grad_mode.mode  # Note [Grad mode in a context variable]
# Forward AD: `_FW.active` is True only inside a dual level; then each op's outputs get their
# tangents from `forward_ad.propagate` (see that module). Otherwise it costs one attribute check.
_FW = _fwad._STATE
_FROM_NP = D._FROM_NP
_LD = D.LD  # a bfloat16 tensor's array dtype (Note [bfloat16 storage])

REGISTRY: dict[str, OpDef] = {}
NODE_NAMES: dict[str, str] = {}

INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)


class OpNode(Node):
    """The backward node of a registered op."""

    __slots__ = ("_saved",)
    _op: OpDef
    # Note [Single saved value]: set on record1's node class of an op whose first input's
    # formula reads one saved value (mul by a number, exp, tanh): `_saved` is that value itself,
    # not a dict of it, one object fewer per node for the allocator and the cyclic collector.
    _single: str | None = None

    def __init__(self, next_edges: tuple[Any, ...]) -> None:
        self._next = next_edges
        self._seq = next(_seq)
        self._x = None
        self._in_meta = None
        self._saved: dict[str, Any] | None = None

    def saved_map(self) -> dict[str, Any] | None:
        """The saved values by name (see Note [Single saved value])."""
        single = self._single
        return self._saved if single is None else {single: self._saved}

    def apply(self, grads: list[Any], complex: bool = False) -> tuple[Any, ...]:
        op = self._op
        saved = self.saved_map()
        # several outputs: unused ones get zeros (torch's materialized undefined grads)
        g = grads[0] if op.n_outputs == 1 else _materialize(grads, saved["_out_meta"])  # type: ignore[index]
        if saved and "_unread" in saved:
            if "_hooked" in saved and UNPACKED.memo is None:
                return _unpack_once(self, saved, lambda: self.apply(grads, complex))
            for n in saved["_unread"]:
                v = self._unpack(n, saved[n])  # torch unpacks (checks) every saved variable
                if n[:8] == "_packed_":
                    _unpacked_index(saved, n, v._data)
        formulas = op.complex_formulas if complex else op.formulas  # Note [Complex gradients]
        edges = self._next
        out: list[Any] = [None] * len(edges)
        for k in op.formula_order:  # torch's order (see OpDef.formula_order)
            if edges[k] is None:
                continue
            fn, names = formulas[k]
            args = []
            for n in names:
                if n == "grad" or n == "grads":
                    args.append(g)
                else:
                    args.append(self._unpack(n, saved[n]))  # type: ignore[index]
            out[k] = fn(*args)
        return tuple(out)

    def _unpack(self, name: str, v: Any) -> Any:
        """A saved value as a Tensor formula reads it (see Note [Saved numbers])."""
        tv = type(v)
        if tv is SavedTensor:
            return v.unpack(self)
        if tv is _ndarray and name in self._op.tensor_names:
            return _make(v)
        if v is _RELEASED:
            raise RuntimeError(SECOND_TIME)
        return v

    def apply_raw(self, grads: list[Any]) -> list[Any]:
        """apply on bare arrays, with the op's raw formulas (see Note [Raw backward]).

        Each gradient comes back validated: summed to its input's shape, in its input's dtype.
        """
        op = self._op
        saved = self._saved
        meta = self._in_meta
        g = grads[0]
        # promoting ops computed in one dtype, the gradient's: saved inputs are cast to it,
        # as the Tensor formula's own promotion would
        cdt = g.dtype if op.raw_cast else None
        if saved and "_unread" in saved:
            if "_hooked" in saved and UNPACKED.memo is None:
                return _unpack_once(self, saved, lambda: self.apply_raw(grads))
            for n in saved["_unread"]:
                v = saved[n].unpack_raw(self)  # torch unpacks (checks) every saved variable
                if n[:8] == "_packed_":
                    _unpacked_index(saved, n, v)
        out = []
        k = -1
        for e, (fn, names) in zip(self._next, op.raw_formulas):  # noqa: B905 (same length)
            k += 1
            if e is None:
                out.append(None)
                continue
            r = fn(g) if names is _GRAD_ONLY else fn(*_raw_args(self, names, saved, g, cdt))
            m = meta[k]  # type: ignore[index]
            if type(r) is not _ndarray or r.shape != m[0] or r.dtype != m[1]._np:
                r = _fix_raw(self, k, r, m[0], m[1])
            out.append(r)
        return out

    def release(self) -> None:
        saved = self._saved
        if saved:
            for n, v in saved.items():
                tv = type(v)
                if tv is SavedTensor:
                    v.release()
                elif tv is _ndarray or (tv is tuple and any(type(e) is _ndarray for e in v)):
                    # a number, or an index or mask (torch saves those as tensors too)
                    saved[n] = _RELEASED

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_saved_"):
            key = name[7:]
            renamed = _SAVED_RENAMED.get(type(self).__name__)
            if renamed is not None:
                if key in renamed.values():
                    raise AttributeError(
                        f"'{type(self).__name__}' object has no attribute '{name}'"
                    )
                key = renamed.get(key, key)
            lazy = _SAVED_LAZY.get(type(self).__name__)
            if lazy is not None and key in lazy:
                return lazy[key](self)
            saved = self.saved_map() or {}
            shown = saved.get("_shown")
            if shown is not None and key in shown:  # see show_saved
                v = shown[key]
                return _as_uint64(v) if key in _INT64_SAVED and type(v) in (int, tuple) else v
            if key in _SAVED_HIDDEN.get(type(self).__name__, ()):
                pass  # held for shadowgrad's formulas: torch's node has no such name
            elif key in saved:
                v = saved[key]
                if type(v) is _ndarray and key in self._op.tensor_names:
                    if key in _SCALAR_SAVED.get(self.name(), ()):
                        return _wrapped_number(v).item()  # torch's Scalar: the number itself
                    return _make(_wrapped_number(v))  # Note [Saved numbers]
                if type(v) is _ndarray:  # an index or mask: torch saved the tensor
                    return _make(v.copy())
                if type(v) is tuple and any(type(e) is _ndarray for e in v):
                    # advanced indexing's indices: a full slice between them is torch's None
                    return tuple(
                        _make(e.copy()) if type(e) is _ndarray else None if e == _ALL else e
                        for e in v
                    )
                v = self._unpack(key, v)
                if key in _INT64_SAVED and (type(v) is int or type(v) is tuple):
                    return _as_uint64(v)
                return v
            if key in self._op.tensor_names:
                return None  # torch's undefined saved variable: not saved for this call
            if key.endswith("_sym_strides") and key in self._op.saved_names:
                return ()  # torch saves an input's strides only for the formulas that run
        if name.startswith("_raw_saved_"):
            saved = self.saved_map() or {}
            key = name[11:]
            renamed = _SAVED_RENAMED.get(type(self).__name__)
            if renamed is not None:
                key = "" if key in renamed.values() else renamed.get(key, key)
            v = saved.get(key)
            if type(v) is SavedTensor and key not in _SAVED_HIDDEN.get(type(self).__name__, ()):
                return v
            if "_raw_saved_" + name[11:] in self.__dir__():
                if type(v) is tuple:  # advanced indexing's indices: torch's list of them
                    return tuple(_unsaved(e) for e in v)
                return _unsaved(v)  # torch's SavedTensor of a number, index or mask, or none
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        # torch's nodes list a property per saved variable: `_saved_<name>`, and for a tensor
        # also `_raw_saved_<name>` (its SavedTensor)
        names = set(super().__dir__())
        saved = self.saved_map() or {}
        tensors = self._op.tensor_names
        scalars = _SCALAR_SAVED.get(self.name(), ())
        for k in self._op.saved_names.union(saved):
            if k[0] == "_" or k in _UNLISTED:
                continue
            names.add("_saved_" + k)
            v = saved.get(k)
            if type(v) is SavedTensor or (
                k in tensors and (v is None or type(v) is _ndarray) and k not in scalars
            ):
                names.add("_raw_saved_" + k)
        node = type(self).__name__
        for k, v in saved.items():
            if k not in tensors and (
                type(v) is _ndarray or (type(v) is tuple and any(type(e) is _ndarray for e in v))
            ):
                names.add("_raw_saved_" + k)  # an index or mask: torch saved it as a tensor
        for k in _SAVED_HIDDEN.get(node, ()):
            names.discard("_saved_" + k)
            names.discard("_raw_saved_" + k)
        for k in _SAVED_LAZY.get(node, ()):
            names.add("_saved_" + k)
            if k in _SAVED_LAZY_TENSORS:
                names.add("_raw_saved_" + k)
        for k in saved.get("_shown", ()):
            names.add("_saved_" + k)
        renamed = _SAVED_RENAMED.get(node)
        if renamed is not None:
            for theirs, ours in renamed.items():
                for pre in ("_saved_", "_raw_saved_"):
                    if pre + ours in names:
                        names.discard(pre + ours)
                        if theirs:
                            names.add(pre + theirs)
        return sorted(names)

    @property
    def num_outputs(self) -> int:
        n = self._op.n_outputs
        if n:
            return n
        return len(self._saved["_out_meta"])  # type: ignore[index]


# the saved int64_t, SymInt and int[] arguments: torch's getter converts them with
# PyLong_FromUnsignedLongLong, so a negative one reads back as 2**64 + value (a Scalar keeps its
# sign: add's alpha, clamp's min)
_INT64_SAVED = frozenset(
    ("dim", "dims", "dim0", "dim1", "dim2", "diagonal", "offset", "index", "start", "end")
).union(("shifts", "dimension", "split_size", "split_sizes", "source", "destination")) | {
    "ignore_index",
    "padding_idx",
    "pad",
    "k",
}


# saved values torch's node shows under its own names where this op's parameters are named
# otherwise (torch's name: this op's), or does not show (torch's name ""): read from what the
# node holds
_SAVED_RENAMED = {
    "AddmvBackward0": {"mat": "mat1", "vec": "mat2"},
    "BaddbmmBackward0": {"batch1": "mat1", "batch2": "mat2"},
    "UnfoldBackward0": {"dimension": "dim"},
    "MeanBackward1": {"": "count"},
    "SortBackward0": {"": "keepdim"},
    "TopkBackward0": {"": "keepdim"},
    "StdMeanBackward0": {"result0": "result"},  # std_mean's first output, std
    "NansumBackward0": {"": "self_sym_sizes"},
}


def _input_sizes(i: int, name: str) -> Callable[[Any], tuple[int, ...]]:
    """Input i's sizes as the node knows them: from its input metadata, else from the saved
    input `name` (torch's node saves them for every call, as `<input>_sym_sizes`)."""

    def read(node: Any) -> tuple[int, ...]:
        meta = node._in_meta
        if meta is not None and meta[i] is not None:
            return tuple(meta[i][0])
        v = (node.saved_map() or {}).get(name)
        if v is not None and v is not _RELEASED:
            return tuple(node._unpack(name, v)._data.shape)
        return ()

    return read


def _sym_numel(node: Any) -> int:
    return math.prod((node.saved_map() or {})["self_sym_sizes"])


# the values torch's node saves that this op's node does not hold but can tell (read lazily)
_SAVED_LAZY: dict[str, dict[str, Callable[[Any], Any]]] = {
    "MmBackward0": {
        "self_sym_sizes": _input_sizes(0, "self"),
        "mat2_sym_sizes": _input_sizes(1, "mat2"),
    },
    "AddmmBackward0": {
        "mat1_sym_sizes": _input_sizes(1, "mat1"),
        "mat2_sym_sizes": _input_sizes(2, "mat2"),
    },
    "SplitBackward0": {"self_sym_sizes": _input_sizes(0, "self")},
    "SplitWithSizesBackward0": {"self_sym_sizes": _input_sizes(0, "self")},
    "UnsafeSplitBackward0": {"self_sym_sizes": _input_sizes(0, "self")},
    "UnsafeSplitWithSizesBackward0": {"self_sym_sizes": _input_sizes(0, "self")},
    "MeanBackward1": {"self_sym_numel": _sym_numel},
}


# the names a node holds for shadowgrad's formulas that torch's node does not show (it shows
# what it saved under its own names instead, read through _SAVED_LAZY): node name -> names
_SAVED_HIDDEN: dict[str, frozenset[str]] = {}
# the _SAVED_LAZY names that read a tensor: listed with a `_raw_saved_` SavedTensor too
_SAVED_LAZY_TENSORS = frozenset(
    ("result1", "result2", "result3", "total_weight", "running_mean", "running_var", "bias")
).union(("buffer", "is_target", "LU", "pivots", "sign"))


_ALL = slice(None)


def show_saved(t: Any, **values: Any) -> None:
    """Give the node of t (an op's result) the ints, sizes and flags torch's node saves that
    this op's node does not hold (a pooling's kernel_size and stride as given, an upsampling's
    output_size and scales), shown as `_saved_<name>`. Called by the functions whose ops hold
    their own plan instead; one dict entry, after the op ran."""
    gf = t._grad_fn
    if not isinstance(gf, OpNode):
        return
    if type(gf._saved) is dict:
        gf._saved["_shown"] = values
    elif gf._saved is None and gf._single is None:  # a node that saved nothing
        gf._saved = {"_shown": values}


def _alpha(node: Any) -> Any:
    """add's/sub's alpha: saved where the other operand's formula reads it, else shown by
    add()/sub() when given (see show_saved), else torch's default 1."""
    saved = node.saved_map() or {}
    if "alpha" in saved:
        return saved["alpha"]
    return saved.get("_shown", {}).get("alpha", 1)


for _node in ("AddBackward0", "SubBackward0", "RsubBackward0", "RsubBackward1"):
    _SAVED_LAZY[_node] = {"alpha": _alpha}


def saved_array(node: Any, name: str) -> np.ndarray | None:
    """The array a node holds under `name` (None if it holds none), for a _SAVED_LAZY reader:
    after backward freed it, torch's "backward a second time" error."""
    v = (node.saved_map() or {}).get(name)
    if v is _RELEASED:
        raise RuntimeError(SECOND_TIME)
    if type(v) is SavedTensor:
        return node._unpack(name, v)._data
    return v


def _unsaved(v: Any) -> SavedTensor:
    """The SavedTensor torch's `_raw_saved_<name>` gives for a tensor argument this node holds
    as a number (Note [Saved numbers]) or did not save (an undefined one): it holds no tensor."""
    s = object.__new__(SavedTensor)
    s._vc = VersionCounter()
    s._saved_version = 0
    s._is_output = True
    s._hooks = None
    s._tensor = None
    s._data = v if type(v) is _ndarray else None
    s._nr = 0
    s._rg = False
    return s


def _as_uint64(v: Any) -> Any:
    """A saved int (or tuple of ints) as torch's `_saved_<name>` shows it (_INT64_SAVED)."""
    if type(v) is int:
        return v + (1 << 64) if v < 0 else v
    return tuple(e + (1 << 64) if type(e) is int and e < 0 else e for e in v)


# saved names of shadowgrad's own that torch's node does not list (OpNode.__dir__)
_UNLISTED: frozenset[str] = frozenset()
# nodes whose op takes a number where this op takes a number or a tensor: torch saves a Scalar,
# which has no `_raw_saved_` SavedTensor
_SCALAR_SAVED = {
    "ClampBackward1": ("min", "max"),
    "ClampMinBackward0": ("min",),
    "ClampMaxBackward0": ("max",),
    "PowBackward2": ("self",),  # pow.Scalar: a number's power
    "XlogyBackward1": ("self",),  # xlogy.Scalar_Self
    "XlogyBackward2": ("other",),  # xlogy.Scalar_Other
}

# the parameter names of a formula that reads only the gradient (compared by identity)
_GRAD_ONLY = ("grad",)

# Note [Saved numbers]
# A Python number given for a tensor parameter is saved as the 0-d array the op computed with,
# not as a SavedTensor: nothing else can hold or modify it, so it needs no version check, and a
# node whose saved values are all numbers and arrays holds no object the cyclic collector
# tracks (its dict stays untracked), which matters in graphs of millions of nodes. A Tensor
# formula gets it as a 0-d Tensor; after backward it is replaced by _RELEASED, so reading it
# raises torch's "backward a second time" error, as for any saved tensor. Pack hooks never see
# it: torch does not pack a wrapped number either.
_RELEASED = object()


class Materialized(list):  # type: ignore[type-arg]
    """A node's output gradients with zeros in place of the undefined ones, which `undefined`
    names: a formula that skips an undefined gradient's term as torch's does (std_mean's
    backward: `if (gmean.defined())`) reads it."""

    __slots__ = ("undefined",)


def _materialize(grads: list[Any], out_meta: Any) -> list[Any]:
    out = Materialized(grads)
    out.undefined = tuple(i for i, g in enumerate(grads) if g is None)
    for i in out.undefined:
        shape, dt = out_meta[i]
        out[i] = _make(np.zeros(shape, dt))
    return out


def _strides_of(name: str) -> str | None:
    """`mat2_sym_strides` -> `mat2`: a formula reading an input's strides at forward time."""
    return name[:-12] if name.endswith("_sym_strides") else None


def _is_result(name: str) -> bool:
    """`result` is the forward's output; `result1`, `result2`, ... its further outputs."""
    return name == "result" or (name.startswith("result") and name[6:].isdigit())


class OpDef:
    """Everything about one op: forward, formulas, dtype rule, node class."""

    def __init__(
        self,
        name: str,
        grad_fn: str,
        forward: Callable[..., Any],
        formulas: dict[str, Callable[..., Any]],
        nondiff: tuple[str, ...],
        dtype: str,
        view: bool,
        n_outputs: int,
        diff_outputs: tuple[int, ...] | None,
        multi_view: str | None,
        raw: Any = None,
        complex: bool | dict[str, Callable[..., Any]] = False,
    ) -> None:
        self.name = name
        self.grad_fn = grad_fn
        self.forward = forward
        params = list(inspect.signature(forward).parameters)
        self.params = params
        unknown = set(formulas) - set(params)
        if unknown:
            raise TypeError(f"{name}: formulas for unknown inputs {sorted(unknown)}")
        bad = set(nondiff) - set(params)
        if bad:
            raise TypeError(f"{name}: nondiff names unknown inputs {sorted(bad)}")
        self.diff_idx = tuple(i for i, p in enumerate(params) if p in formulas)
        self.tensor_idx = tuple(i for i, p in enumerate(params) if p in formulas or p in nondiff)
        self.tensor_names = frozenset(params[i] for i in self.tensor_idx)
        self.promote_idx = self.tensor_idx  # the inputs a promoting dtype rule casts
        self.formulas = []
        self.formulas_by_input: list[tuple[str, tuple[str, ...]]] = []
        for p in params:
            if p not in formulas:
                continue
            fn = formulas[p]
            names = tuple(inspect.signature(fn).parameters)
            grad_name = "grad" if n_outputs == 1 else "grads"
            for n in names:
                if (
                    n not in params
                    and n != grad_name
                    and not _is_result(n)
                    and _strides_of(n) not in params
                ):
                    raise TypeError(
                        f"{name}: the formula for '{p}' reads '{n}', which is neither a forward "
                        f"parameter, '{grad_name}', 'result' ('result1', ... for more outputs) "
                        "nor '<parameter>_sym_strides'"
                    )
            self.formulas.append((fn, names))
            self.formulas_by_input.append((p, names))
        # the order torch's generated node computes the gradients in: by its derivatives.yaml
        # keys, sorted (mul: other, then self; mm: mat2, then self; lerp: end, self, weight).
        # Under create_graph the nodes each formula records are numbered in that order, which
        # decides the order the engine runs them (and sums gradients) at the next order.
        self.formula_order = tuple(
            sorted(range(len(self.formulas)), key=lambda k: self.formulas_by_input[k][0])
        )
        # saved values in the order torch's generated node unpacks (checks) them: by name (see
        # graph._first_modified)
        self.saved_order = tuple(
            sorted({n for _, names in self.formulas for n in names if n not in ("grad", "grads")})
        )
        self.saved_names = frozenset(self.saved_order)
        self.dtype = dtype
        self.view = view
        self.n_outputs = n_outputs
        self.diff_outputs = diff_outputs
        self.multi_view = multi_view
        self.jvp: Callable[..., Any] | None = None
        self.scalar_array = False
        self.run: Callable[..., Any] | None = None
        self._save_cache: dict[int, tuple[str, ...]] = {}
        # per mask: outputs saved only for torch's version check (see to_save)
        self._unread_cache: dict[int, tuple[str, ...]] = {}
        # (bit, arg index) for each differentiable input: the bit is set in a call's mask when
        # that input requires grad
        self.diff_bits = tuple((1 << k, i) for k, i in enumerate(self.diff_idx))
        self.raw_formulas = self._raw_formulas(raw, formulas)
        # saved inputs of a promoting op are cast to the gradient's dtype in raw backward
        self.raw_cast = dtype != "keep"
        if grad_fn in NODE_NAMES and NODE_NAMES[grad_fn] != name:
            raise TypeError(f"{name}: grad_fn {grad_fn} already used by {NODE_NAMES[grad_fn]}")
        NODE_NAMES[grad_fn] = name
        self.node_cls: type[OpNode] = type(
            grad_fn,
            (OpNode,),
            {
                "__slots__": (),
                "_op": self,
                "__module__": "builtins",
                "_raw_ok": self.raw_formulas is not None,
                **({"num_outputs": 1} if n_outputs == 1 else {}),
            },
        )
        # record1's nodes (only the first input requires grad): apply_raw specialized to it
        self.node_cls1 = self.node_cls
        if self.raw_formulas is not None and self.diff_idx and self.diff_idx[0] == 0:
            self.node_cls1 = type(
                grad_fn,
                (self.node_cls,),
                {
                    "__slots__": (),
                    "__module__": "builtins",
                    "apply_raw": _apply_raw1(self),
                    "release": _release1(self),
                    "_single": _single_saved(self),
                },
            )
        self.complex_node_cls: type[OpNode] = type(
            grad_fn,
            (self.node_cls,),
            {
                "__slots__": (),
                "__module__": "builtins",
                "_raw_ok": False,
                **self._complex_formulas(complex, formulas),
            },
        )

    def _complex_formulas(
        self, complex: bool | dict[str, Callable[..., Any]], formulas: dict[str, Any]
    ) -> dict[str, Any]:
        """The complex node's class attributes (see Note [Complex gradients]): its formulas, or
        an apply that raises when the op declares none."""
        # (complex: the flag OpNode.apply passes on when it re-enters, saved-tensor hooks'
        # unpack-once path)
        if complex is False:
            return {"apply": lambda node, grads, complex=False: _complex_apply(node, grads)}
        apply = {"apply": lambda node, grads, complex=True: OpNode.apply(node, grads, True)}
        if complex is True:
            self.complex_formulas = self.formulas
            return apply
        out = []
        for (p, _), (fn, names) in zip(self.formulas_by_input, self.formulas, strict=True):
            cfn = complex.get(p)
            if cfn is None:
                out.append((fn, names))
                continue
            cnames = tuple(inspect.signature(cfn).parameters)
            if not set(cnames) <= set(names):
                # the save plan comes from the real formulas: a complex one reads what they read
                raise TypeError(
                    f"{self.name}: the complex formula for '{p}' reads {cnames}, not a "
                    f"subset of what the real formula reads ({names})"
                )
            out.append((cfn, cnames))
        unknown = set(complex) - {p for p, _ in self.formulas_by_input}
        if unknown:
            raise TypeError(f"{self.name}: complex formulas for unknown inputs {sorted(unknown)}")
        self.complex_formulas = out
        return apply

    def _raw_formulas(
        self, raw: Any, formulas: dict[str, Callable[..., Any]]
    ) -> tuple[tuple[Callable[..., Any], tuple[str, ...]], ...] | None:
        """The formulas on bare arrays: all of them, or None (the engine then uses Tensors)."""
        if raw is None or raw is False or self.n_outputs != 1:
            return None
        out = []
        for p in self.params:
            if p not in formulas:
                continue
            fn = formulas[p] if raw is True else raw.get(p)
            if fn is None:
                return None
            names = tuple(inspect.signature(fn).parameters)
            tensor_names = dict(self.formulas_by_input)[p]
            for n in names:
                if n != "grad" and n not in tensor_names:
                    # the save plan comes from the Tensor formulas: both forms read the same
                    raise TypeError(
                        f"{self.name}: the raw formula for '{p}' reads '{n}', which the Tensor "
                        "formula does not"
                    )
            out.append((fn, _GRAD_ONLY if names == _GRAD_ONLY else names))
        return tuple(out)

    def to_save(self, mask: int) -> tuple[tuple[str, int, int], ...]:
        """The save plan for a call: (name, kind, arg index), kind 0 tensor, 1 attr, 2 result,
        3 an input's strides (torch's `self.sym_strides()`: in elements)."""
        r = self._save_cache.get(mask)
        if r is None:
            names: list[str] = []
            for k, (_, fnames) in enumerate(self.formulas):
                if mask & (1 << k):
                    names.extend(n for n in fnames if n not in ("grad", "grads") and n not in names)
            # torch guards saved inputs by which gradients are needed, but saves an output any
            # formula reads, and checks its version when the node runs (pow's exponent formula
            # reads result: modifying it in place is an error even when only self needs grad)
            unread = []
            for k, (_, fnames) in enumerate(self.formulas):
                if not mask & (1 << k):
                    unread.extend(
                        n for n in fnames if _is_result(n) and n not in names and n not in unread
                    )
            names.extend(unread)
            self._unread_cache[mask] = tuple(unread)
            plan = []
            for n in names:
                if _is_result(n):
                    plan.append((n, 2, int(n[6:] or 0)))
                elif n not in self.params:  # <input>_sym_strides: strides in elements
                    plan.append((n, 3, self.params.index(_strides_of(n))))
                else:
                    i = self.params.index(n)
                    plan.append((n, 0 if i in self.tensor_idx else 1, i))
            r = self._save_cache[mask] = tuple(plan)
        return r

    def __repr__(self) -> str:
        return f"<op {self.name} -> {self.grad_fn}>"


def defop(
    name: str,
    grad_fn: str,
    forward: Callable[..., Any],
    *,
    nondiff: tuple[str, ...] = (),
    dtype: str = "promote",
    view: bool = False,
    n_outputs: int = 1,
    diff_outputs: tuple[int, ...] | None = None,
    multi_view: str | None = None,
    jvp: Callable[..., Any] | None = None,
    broadcast_order: tuple[int, ...] | None = None,
    raw: bool | dict[str, Callable[..., Any]] | None = None,
    scalar_array: bool = False,
    ufunc: Any = None,
    complex: bool | dict[str, Callable[..., Any]] = False,
    contiguous: bool = False,
    unpromoted: tuple[str, ...] = (),
    **formulas: Callable[..., Any],
) -> Callable[..., Any]:
    """Declare an op; returns the callable that runs it (positional args in forward order).

    Args:
        dtype: how tensor inputs are promoted before the forward runs: "promote" (torch's
            result_type), "float" (result_type, integers go to the default float dtype), or
            "keep" (no casting; the forward sees each input's own dtype).
        view: the output is a view of the first input (shares its storage and version counter).
        n_outputs: how many outputs the forward returns; 0 for a variable count (unbind).
        diff_outputs: for multi-output ops, which outputs are differentiable (default: all).
        jvp: the forward-AD rule, named like the formulas: forward parameters, `result` and
            `<name>_t` (the tangent of input `<name>`, None when it has none); it returns the
            output tangent. Without one (and without an entry in `forward_ad.JVP_RULES`), forward
            AD uses the VJP of the VJP.
        raw: the formulas on bare numpy arrays, for backward without create_graph (see Note
            [Raw backward] in autograd/engine.py): True when the formulas themselves work on
            arrays (arithmetic operators only), or a dict of numpy formulas per input, named
            like the formulas. Saved inputs arrive cast to the gradient's dtype (unless
            dtype="keep"), Python numbers as 0-d arrays of that dtype. Without it (or when one
            input lacks a raw formula) the engine wraps the arrays and runs the formulas.
        scalar_array: a float tensor's Python-number operand reaches the forward as a 0-d array
            of the tensor's dtype (Note [Number operands]); for ufunc forwards only.
        ufunc: a binary op whose forward, without its trailing arguments or with `alpha` 1, is
            this numpy ufunc: the fast path calls it directly (Note [Direct ufuncs]).
        complex: whether backward may run through complex inputs or outputs (Note [Complex
            gradients]): True when the formulas hold for complex tensors as written, or a dict
            of complex formulas for some inputs (each reading only what its real formula reads).
            False (the default): such a backward raises.
        contiguous: torch allocates the result contiguous whatever the layout of the first input
            (reductions over a dim, softmax, cumulative ops, ...), where numpy's result would
            follow the input's layout (Note [Result layout]).
        unpromoted: tensor inputs that take no part in the "promote"/"float" rule and reach
            the forward in their own dtype (where's bool condition).
    """
    if contiguous:
        forward = _contiguous_result(forward)
    elif name in _ITERATOR_LAYOUT:
        params = list(inspect.signature(forward).parameters)
        tensors = tuple(i for i, p in enumerate(params) if p in formulas or p in nondiff)
        forward = _iterator_layout(forward, tensors)
    elif name in _PRESERVE_LAYOUT or name in _PRESERVE_STRIDES:
        forward = _preserve_layout(forward, name in _PRESERVE_STRIDES)
    elif name in _COLUMN_MAJOR:
        forward = _column_major_result(forward, name, _COLUMN_MAJOR[name])
    op = OpDef(
        name,
        grad_fn,
        forward,
        formulas,
        nondiff,
        dtype,
        view,
        n_outputs,
        diff_outputs,
        multi_view,
        raw,
        complex,
    )
    REGISTRY[name] = op
    op.jvp = jvp
    op.scalar_array = scalar_array
    op.ufunc = ufunc
    # torch names the operands of a broadcast error in its own order (masked_fill: mask first)
    op.broadcast_order = broadcast_order or op.tensor_idx
    if unpromoted:
        bad = set(unpromoted) - op.tensor_names
        if bad:
            raise TypeError(f"{name}: unpromoted names unknown tensor inputs {sorted(bad)}")
        op.promote_idx = tuple(i for i in op.tensor_idx if op.params[i] not in unpromoted)
    run = _make_runner(op)
    op.run = run
    run.op = op  # type: ignore[attr-defined]
    run.__name__ = name.split(".")[0]
    run.__qualname__ = run.__name__
    return run


# Note [Result layout]
# numpy lays out a reduction's or a ufunc's result in its input's memory order ("K"), as torch's
# TensorIterator does for elementwise ops. Ops that torch computes into a fresh contiguous tensor
# (reductions over a dim, softmax, cumulative ops, gather, topk...) declare `contiguous=True`:
# their forward's result is copied to C order when the first input is not C-contiguous (the
# copy also gives size-1 dims torch's strides). A C-contiguous input costs one flag read.
# Elementwise ops whose numpy result can be laid out otherwise than TensorIterator's (kernels on
# raveled copies, mixed-layout operands) are listed in _ITERATOR_LAYOUT; ops computed on a
# preserve_format clone of their first input in _PRESERVE_LAYOUT / _PRESERVE_STRIDES; LAPACK's
# column-major results in _COLUMN_MAJOR. docs/semantics.md ("Memory layout of results").


def _contiguous_result(forward: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(forward)
    def run(a: Any, *rest: Any) -> Any:
        out = forward(a, *rest)
        if type(a) is not np.ndarray or a.flags.c_contiguous:
            if type(out) is np.ndarray and not out.flags.c_contiguous:
                return np.ascontiguousarray(out)  # laid out by another operand (a mask)
            return out
        if type(out) is tuple:
            return tuple(np.array(o, order="C") if type(o) is np.ndarray else o for o in out)
        return np.array(out, order="C") if type(out) is np.ndarray else out

    return run


# Ops torch computes with TensorIterator where numpy's result can be laid out otherwise: those
# whose numpy forward does not lay its result out in its input's memory order (series and
# blocked kernels on a raveled copy, sort), and elementwise ops over several tensors, whose
# output TensorIterator lays out by the first operand whose strides decide (numpy gives up on
# mixed layouts and uses row-major order). Their forwards restride a result that differs
# (_formats.iterator_result); row-major operands cost one flag read each.
_ITERATOR_LAYOUT = frozenset(
    (
        "add.Tensor", "sub.Tensor", "rsub.Tensor", "mul.Tensor", "div.Tensor", "div.Tensor_mode",
        "floor_divide", "pow.Tensor_Tensor", "maximum", "minimum", "fmax", "fmin", "atan2",
        "hypot", "copysign.Tensor", "fmod.Tensor", "remainder.Tensor", "xlogy.Tensor",
        "logaddexp", "logaddexp2", "nextafter", "heaviside", "ldexp.Tensor", "igamma",
        "igammac", "special_zeta", "special_xlog1py", "bitwise_and", "bitwise_or",
        "bitwise_xor", "eq.Tensor", "ne.Tensor", "lt.Tensor", "le.Tensor", "gt.Tensor",
        "ge.Tensor", "addcmul", "addcdiv", "lerp.Scalar", "lerp.Tensor", "where.self",
        "xlogy.Scalar_Self", "xlogy.Scalar_Other", "special_zeta.self_scalar",
        "special_zeta.other_scalar", "special_xlog1py.self_scalar",
        "special_xlog1py.other_scalar",
        "clamp.Tensor", "clamp_min.Tensor", "clamp_max.Tensor",
        "erf", "erfc", "erfinv", "digamma", "lgamma", "polygamma", "gelu", "i0",
        "sinc", "logit", "nan_to_num", "frexp.Tensor", "sort", "sort.stable", "special_entr",
        "special_erfcx", "special_i0e", "special_i1", "special_i1e", "special_log_ndtr",
        "special_ndtri", "special_airy_ai", "special_bessel_j0", "special_bessel_j1",
        "special_bessel_y0", "special_bessel_y1", "special_modified_bessel_i0",
        "special_modified_bessel_i1", "special_modified_bessel_k0",
        "special_modified_bessel_k1", "special_scaled_modified_bessel_k0",
        "special_scaled_modified_bessel_k1", "special_spherical_bessel_j0", "complex", "polar",
    )
)  # fmt: skip


def _iterator_layout(forward: Callable[..., Any], tensors: tuple[int, ...]) -> Callable[..., Any]:
    """forward, its result laid out as TensorIterator lays it out over the tensor operands at
    these positions (Note [Result layout])."""
    from .._formats import iterator_result

    @functools.wraps(forward)
    def run(*args: Any) -> Any:
        try:
            out = forward(*args)
        except (NotImplementedError, RuntimeError):
            # the kernel's dtype dispatch (and its checks) come after TensorIterator's shapes
            shape: tuple[int, ...] = ()
            for i in tensors:
                if i < len(args) and type(args[i]) is np.ndarray:
                    shape = infer_size(shape, args[i].shape)
            raise
        n = len(args)
        for i in tensors:
            a = args[i] if i < n else None
            if type(a) is np.ndarray and a.ndim > 1 and not a.flags.c_contiguous:
                break
        else:
            return out
        ops = [args[i] for i in tensors if i < n]
        if type(out) is tuple:
            return tuple(iterator_result(o, ops) if type(o) is np.ndarray else o for o in out)
        return iterator_result(out, ops) if type(out) is np.ndarray else out

    return run


# Ops whose torch result is their first input cloned with memory_format=torch.preserve_format
# and then written into (the out-of-place scatters and index writes): the first input's
# strides when it is dense, else its suggested memory format.
_PRESERVE_LAYOUT = frozenset(
    (
        "index_fill.int_Scalar", "index_fill.int_Tensor", "index_put", "_index_put_impl", "put",
        "addr",
    )
)  # fmt: skip


# The out-of-place scatters clone their first input with clone_preserve_strides: its strides
# and storage offset exactly, a sliced input's too.
_PRESERVE_STRIDES = frozenset(
    ("as_strided_scatter", "diagonal_scatter", "select_scatter", "slice_scatter")
)


def _preserve_layout(forward: Callable[..., Any], exact: bool) -> Callable[..., Any]:
    from .._formats import preserve_result, preserve_strides_result

    restride = preserve_strides_result if exact else preserve_result

    @functools.wraps(forward)
    def run(a: Any, *rest: Any) -> Any:
        out = forward(a, *rest)
        if type(a) is not np.ndarray or a.ndim < 2 or a.flags.c_contiguous:
            return out
        return restride(out, a) if type(out) is np.ndarray else out

    return run


# LAPACK-backed ops: torch returns these outputs (by position) in batched column-major order
# (each matrix's transpose contiguous), as LAPACK writes them, whatever the input's layout.
_COLUMN_MAJOR: dict[str, tuple[int, ...]] = {
    "linalg_inv_ex": (0,),
    "linalg_cholesky_ex": (0,),
    "cholesky": (0,),
    "linalg_qr": (0, 1),
    "linalg_svd": (0, 2),
    "linalg_eigh": (1,),
    "linalg_solve_ex": (0,),
    "linalg_lstsq": (0,),
    "linalg_lu_factor_ex": (0,),
    "linalg_lu_solve": (0,),
    "linalg_solve_triangular": (0,),
    "triangular_solve": (0, 1),
}


# ops whose forward's argument at this position is `left`: left=False solves X A = B through
# the transposed problem, and torch's result is then row-major
_COLUMN_MAJOR_LEFT = {"linalg_solve_ex": 2, "linalg_lu_solve": 3}


def column_major(o: Any, rows: int = 0) -> Any:
    """o in batched column-major order, as LAPACK leaves torch's results (the _COLUMN_MAJOR
    ops' outputs, and the forwards that call it: geqrf, ormqr, cholesky_solve, ldl, eig...);
    with rows > o's, as a view of the first rows of a column-major buffer that has `rows`
    (LAPACK's leading dimension, as lstsq's solution)."""
    if type(o) is not np.ndarray or o.ndim < 2:
        return o
    n = o.shape[-2]
    if rows > n:
        buf = np.empty((*o.shape[:-2], o.shape[-1], rows), o.dtype)
        view = buf[..., :n].swapaxes(-1, -2)
        view[...] = o
        return view
    if o.ndim == 2 and o.flags.f_contiguous and 1 not in o.shape:
        return o
    buf = np.empty((*o.shape[:-2], o.shape[-1], n), o.dtype)  # fresh: size-1 dims too
    buf[...] = o.swapaxes(-1, -2)
    return buf.swapaxes(-1, -2)


def _column_major_result(
    forward: Callable[..., Any], name: str, outputs: tuple[int, ...]
) -> Callable[..., Any]:
    left = _COLUMN_MAJOR_LEFT.get(name)
    lstsq = name == "linalg_lstsq"

    @functools.wraps(forward)
    def run(*args: Any) -> Any:
        out = forward(*args)
        if left is not None and not args[left]:
            if type(out) is tuple:
                return (np.ascontiguousarray(out[0]), *out[1:])
            return np.ascontiguousarray(out)
        if type(out) is not tuple:
            return column_major(out)
        if lstsq:  # the solution: the first n rows of B's (max(m, n), k) workspace
            a = args[0]
            return (column_major(out[0], max(a.shape[-2:])), *out[1:])
        return tuple(column_major(o) if i in outputs else o for i, o in enumerate(out))

    return run


def result_type_of(values: Any) -> D.dtype:
    """torch.result_type over tensors and Python scalars (dimensioned > 0-d > scalar)."""
    dim = zero = wrapped = None
    pt = D.promote_types
    for v in values:
        if isinstance(v, Tensor):
            d = _FROM_NP[v._data.dtype]
            if v._data.ndim:
                dim = d if dim is None else pt(dim, d)
            else:
                zero = d if zero is None else pt(zero, d)
        elif v is not None:
            d = D.scalar_dtype(v)
            wrapped = d if wrapped is None else pt(wrapped, d)
    r = D.combine_categories(dim, D.combine_categories(zero, wrapped))
    assert r is not None
    return r


def _argument_type_error(op: OpDef, args: tuple[Any, ...], none: bool = False) -> TypeError | None:
    """torch's argument parser's error for an operand that is neither a Tensor nor a number
    (`add(): argument 'other' (position 2) must be Tensor, not str`; the position as the
    user's call gave it: the method form's counts without self, a keyword names none), or None
    when every operand has a valid type. `none`: None is refused too (the kernel failed on
    it)."""
    from .._signatures import _type_name as type_name
    from .._signatures import call_site

    fn = op.name.split(".")[0]
    for i in op.tensor_idx:
        a = args[i]
        if (a is not None or none) and not isinstance(
            a, (Tensor, bool, int, float, complex, np.generic)
        ):
            if fn in _TENSOR_OR_NUMBER and i == 1:  # two overloads: torch lists both
                got = ", ".join("Tensor" if isinstance(x, Tensor) else type_name(x) for x in args)
                return TypeError(
                    f"{fn}() received an invalid combination of arguments - got ({got}), but "
                    "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
                    " * (Tensor input, Number other, *, Tensor out = None)\n"
                )
            name = "input" if op.params[i] == "self" else op.params[i]
            site = call_site()
            pos, counted = f" (position {i + 1})", False
            if site is not None:
                if name in site[1]:
                    pos, counted = "", True
                elif i and site[0] - len(site[1]) <= i:  # x.add(v): self not counted
                    pos, counted = f" (position {i})", True
            err = TypeError(f"{fn}(): argument '{name}'{pos} must be Tensor, not {type_name(a)}")
            err._sg_as_called = counted  # type: ignore[attr-defined] # (make_inplace's)
            return err
    return None


# ops whose `other` torch's parser matches against a Tensor and a Number overload
_TENSOR_OR_NUMBER = frozenset(("eq", "ne", "lt", "le", "gt", "ge"))


def _run(op: OpDef, args: tuple[Any, ...]) -> Any:
    wf = _warnings.filters
    if not wf or wf[0] is not _FP_FILTER:
        _front_filter()  # Note [Floating-point warning filter]: a number cast to float16 too
    try:  # the operands as arrays of the op's computation dtype
        arrays = list(args)
        tidx = op.tensor_idx
        rule = op.dtype
        if rule == "keep":
            for i in tidx:
                a = args[i]
                if isinstance(a, Tensor):
                    arrays[i] = a._data
                elif a is not None:
                    arrays[i] = _scalar_array(a, D.scalar_dtype(a))
        else:
            if op.promote_idx is not tidx:  # some inputs keep their dtype (where's condition)
                for i in tidx:
                    a = args[i]
                    if isinstance(a, Tensor):
                        arrays[i] = a._data
                tidx = op.promote_idx
            # Fast path: every tensor input is a Tensor of one dtype.
            first = args[tidx[0]]
            dt = None
            if isinstance(first, Tensor):
                npd = first._data.dtype
                for i in tidx:
                    a = args[i]
                    if not isinstance(a, Tensor) or a._data.dtype != npd:
                        break
                else:
                    dt = _FROM_NP[npd]
            if dt is None:
                dt = result_type_of([args[i] for i in tidx])
            if rule == "float" and dt._cat < 2:
                dt = D.get_default_dtype()
            npd = dt._np
            for i in tidx:
                a = args[i]
                if isinstance(a, Tensor):
                    arr = a._data
                    arrays[i] = arr if arr.dtype == npd else _cast(arr, npd)
                elif a is not None:
                    arrays[i] = _scalar_array(a, dt)
            if npd is _LD and op.name in _BF16_IN_FLOAT:
                return _run_in_float(op, args, arrays, _LD)
    except TypeError:
        err = _argument_type_error(op, args)
        if err is None:
            raise
        from .. import overrides

        if overrides.has_torch_function(args):  # a Tensor-like operand: its __torch_function__
            return overrides.dispatch_tensor_like(op.name.split(".")[0], args)
        raise err from None
    if op.name in _OPMATH_NUMBER and _opmath_number(arrays, args):
        return _run_in_float(op, args, arrays, arrays[0].dtype)
    try:
        out = op.forward(*arrays)
    except ValueError as e:
        check_inference_saved(op, args)
        raise _broadcast_error(e, [arrays[i] for i in op.broadcast_order]) from None
    except TypeError:  # a None operand reaches the kernel: torch's parser refuses it first
        err = _argument_type_error(op, args, True)
        if err is None:
            raise
        raise err from None
    except RuntimeWarning:
        out = quiet(op.forward, *arrays)  # see Note [Floating-point warnings]
    except (RuntimeError, IndexError):
        check_inference_saved(op, args)
        raise

    record = False
    if _mode().grad:
        for i in op.diff_idx:
            a = args[i]
            if isinstance(a, Tensor) and a._rg:
                record = True
                break
    if op.n_outputs == 1:
        if type(out) is not np.ndarray:
            out = _device_result(out, args, op)  # a numpy scalar, or a meta tensor's array
        if out.dtype is _LD and not op.view:
            out = D.round_bf16(out)  # Note [bfloat16 storage]
        result = _make(out)
        if op.view:
            _as_view(result, args[0])
        if record and out.dtype.kind in "fc":
            _record(op, args, arrays, (result,))
            if out.dtype is _LD:
                _bf16_node(result)
        if _FW.active:
            _fwad.propagate(op, args, result)
        return result
    results = tuple(
        _make(_rounded(o) if not op.view else o if isinstance(o, np.ndarray) else np.asarray(o))
        for o in out
    )
    if op.view:
        for r in results:
            _as_view(r, args[0])
            if op.multi_view:
                x = r._extra()
                x.multi_view = op.multi_view
                if x.nograd_view is True and _mode().grad:
                    # torch's propagate_creation_meta: a multi-output view made in grad mode
                    # of a no-grad view is a multi-output view (an inference one stays so)
                    x.nograd_view = None
    if record:
        _record(op, args, arrays, results)
        for r in results:
            if r._data.dtype is _LD:
                _bf16_node(r)
                break
    if _FW.active:
        _fwad.propagate(op, args, results)
    return results


_BF16_NODES: dict[type, type] = {}


def _bf16_node(t: Tensor) -> None:
    """Give t's node (a bfloat16 op's) a class whose raw backward rounds its longdouble
    gradients to bfloat16, as torch's backward kernels round theirs (Note [bfloat16 storage]).
    The class has the node's name; the float32 path never gets here."""
    node = t._grad_fn
    if node is None:
        return
    cls = type(node)
    sub = _BF16_NODES.get(cls)
    if sub is None:
        if "apply_raw" not in dir(cls) or cls in _BF16_NODES.values():
            return
        base = cls.apply_raw

        def apply_raw(self: Any, grads: list[Any]) -> list[Any]:
            return [
                D.round_bf16(r) if type(r) is np.ndarray and r.dtype is _LD else r
                for r in base(self, grads)
            ]

        sub = _BF16_NODES[cls] = type(
            cls.__name__,
            (cls,),
            {"__slots__": (), "__module__": cls.__module__, "apply_raw": apply_raw},
        )
        sub.__qualname__ = cls.__qualname__
    node.__class__ = sub


def _cast(arr: np.ndarray, npd: np.dtype) -> np.ndarray:
    """arr as npd (an operand promoted to the computation dtype): rounded into bfloat16."""
    if npd is _LD:
        return D.round_bf16(arr)
    return arr.astype(npd)


def _rounded(o: Any) -> np.ndarray:
    """One output of a multi-output op as an array, a longdouble one rounded to bfloat16."""
    o = o if type(o) is np.ndarray else _device_result(o, ())
    return D.round_bf16(o) if o.dtype is _LD else o


# bfloat16 products torch computes in float (its CPU kernels accumulate in float and round the
# result once); numpy's longdouble matmul has no BLAS
_BF16_IN_FLOAT = frozenset(
    ("mm", "bmm", "mv", "dot", "addmm", "addmv", "baddbmm", "addbmm", "convolution", "vdot")
)


# Note [Floating-point warnings]
# torch computes inf and nan silently; numpy warns (RuntimeWarning: divide by zero, overflow,
# invalid value). shadowgrad's package filter (shadowgrad/__init__.py) ignores the warnings its
# own modules trigger, and backward runs under np.errstate. A program that turns warnings into
# errors after import (pytest's `filterwarnings = error`, `warnings.simplefilter("error")`)
# puts its filter first; then numpy raises the warning from inside the op, and the op computes
# again under np.errstate instead of failing where torch does not. The `try` costs nothing when
# nothing is raised; np.errstate around every op would cost about 1.5 us (D.quiet computes
# under it).
quiet = D.quiet
_FP_FILTER = D.FP_FILTER
_front_filter = D.front_filter


def check_inference_saved(op: Any, args: tuple[Any, ...]) -> None:
    """Raise torch's error for an inference tensor saved for backward, when this call records
    and saves one. torch's autograd kernels save their inputs before the forward runs, so this
    error comes before the forward's own (a shape mismatch); shadowgrad saves after the forward
    and calls this where the forward (or an op's own check before it) fails."""
    if not _mode().grad:
        return
    op = getattr(op, "op", op)  # an OpDef, or the op's runner (defop's result)
    mask = 0
    for bit, i in op.diff_bits:
        a = args[i] if i < len(args) else None
        if isinstance(a, Tensor) and a._rg:
            mask |= bit
    if not mask:
        return
    for _, kind, i in op.to_save(mask):
        a = args[i] if i < len(args) else None
        if kind == 0 and isinstance(a, Tensor) and a._inf:
            raise RuntimeError(INFERENCE_SAVED)
    if _saved_hooks_stack():  # the inputs were saved, so packed, before the kernel failed
        for _, kind, i in sorted(op.to_save(mask), key=_hooked_order(op)):
            a = args[i] if i < len(args) else None
            if kind == 0 and isinstance(a, Tensor):
                SavedTensor(a)


def _scalar_array(v: Any, dt: D.dtype) -> np.ndarray:
    D.check_int_scalar(v)
    if isinstance(v, (bool, int, float, complex, np.generic)):
        if dt is D.float16 and type(v) is float:  # through float, as c10 converts it
            v = np.float32(v)
        elif dt is D.bfloat16 and not isinstance(v, (complex, np.complexfloating)):
            return D.round_bf16(v)  # (mul and div keep a float: Note [Numbers in float])
        try:
            return np.asarray(v, dtype=dt._np)
        except OverflowError:
            # torch wraps an out-of-range Python int into the tensor's integer type
            return D.wrapped_int(v, dt._np)
    raise TypeError(f"expected a Tensor or a number, got {type(v).__name__}")


def _as_view(result: Tensor, src: Tensor) -> None:
    if src._inf:
        # a view of an inference tensor is an inference tensor that torch does not track as a
        # view (no _base, _is_view() False; inference tensors have no version counter)
        result._inf = True
        return
    vc = src._vc
    if vc is None:
        vc = src._vc = VersionCounter()
    result._vc = vc
    result._vv = vc.v
    result._base = src._base if src._base is not None else src
    result._inf = src._inf
    if src._rg:
        m = _mode()
        if not m.grad:
            # a view made under no_grad of a grad-requiring tensor still requires grad (as
            # a leaf), and torch forbids modifying it in place once grad mode is back on
            # (its creation meta, which the errors name, is INFERENCE_MODE inside
            # inference_mode)
            result._rg = True
            result._extra().nograd_view = "inference" if m.inference else True
            return
    else:
        # it starts to require grad when its base does (an in-place op recorded on the base):
        # graph.track_view, its common case inline
        vs = vc.views
        if vs is None:
            vc.views = [_wref(result)]
        elif len(vs) < 63:
            vs.append(_wref(result))
        else:
            track_view(vc, result)
        m = _mode()
        if not m.grad:
            # made under no_grad: torch's creation meta NO_GRAD_MODE all the same, so an
            # in-place op on it that autograd would record raises
            x = result._extra()
            x.nograd_view = "inference" if m.inference else True
            x.nograd_plain = True
            return
    if src._x is not None and src._x.nograd_view:
        # a view of such a view inherits its creation meta (torch's propagate_creation_meta)
        x = result._extra()
        x.nograd_view = src._x.nograd_view
        x.nograd_plain = src._x.nograd_plain


def _record(
    op: OpDef,
    args: tuple[Any, ...],
    arrays: Any,
    results: tuple[Tensor, ...],
    cdt: Any = None,
) -> None:
    """Create the op's node; save what the formulas of the inputs that require grad read.

    The hot path of every recorded op: the node is built without __init__, and the save plan
    comes from a per-mask cache.
    """
    edges = []
    meta = []
    mask = 0
    for bit, i in op.diff_bits:
        a = args[i]
        if isinstance(a, Tensor) and a._rg:
            if a._base is not None:
                _refresh_view(a)
            gf = a._grad_fn
            edges.append((gf, a._nr) if gf is not None else a._edge())
            d = a._data
            meta.append((d.shape, d.dtype))
            mask |= bit
        else:
            edges.append(None)
            meta.append(None)
    key = tuple(meta)
    m = _META.get(key)
    if m is None:
        m = _interned_meta(key)
    single = op.n_outputs == 1
    if m[1] or (single and results[0]._data.dtype.kind == "c"):
        node = _new(op.complex_node_cls)  # see Note [Complex gradients]
    else:
        node = _new(op.node_cls)
    node._next = tuple(edges)
    node._seq = next(_seq)
    node._x = None
    node._in_meta = m[0]
    # the outputs first: an output saved for backward is saved with its grad_fn
    if single:
        r = results[0]
        if r._data.dtype.kind in "fc":
            r._rg = True
            r._grad_fn = node
    else:
        diff = op.diff_outputs
        for k, r in enumerate(results):
            if (diff is None or k in diff) and r._data.dtype.kind in "fc":
                r._rg = True
                r._grad_fn = node
                r._nr = k
    plan = op._save_cache.get(mask)
    if plan is None:
        plan = op.to_save(mask)
    saved = _save(op, plan, mask, args, arrays, results, cdt) if plan else None
    if op.n_outputs != 1:
        if saved is None:
            saved = {}
        saved["_out_meta"] = tuple((r._data.shape, r._data.dtype) for r in results)
    node._saved = saved
    if _ANOMALY.enabled:
        node._trace = forward_trace()


_new = object.__new__


def _own_index(a: np.ndarray) -> np.ndarray:
    """A saved integer or boolean array the caller could still modify, copied (see _save)."""
    if a.dtype.kind in "biu" and (a.flags.writeable or a.base is not None):
        return a.copy()  # writable, or a (read-only, expanded) view of something that may be
    return a


def _save(
    op: OpDef,
    plan: Any,
    mask: int,
    args: tuple[Any, ...],
    arrays: Any,
    results: tuple[Tensor, ...],
    cdt: Any,
) -> dict[str, Any]:
    """The values a call's save plan names (see OpDef.to_save)."""
    saved: dict[str, Any] = {}
    hooks = _saved_hooks_stack()
    if hooks:  # torch's generated nodes save (and pack) their values in the order of the names
        plan = sorted(plan, key=_hooked_order(op))
        packed: list[Any] = []
    for n, kind, i in plan:
        if kind == 0:
            a = args[i]
            if isinstance(a, Tensor):
                if a._inf:
                    raise RuntimeError(INFERENCE_SAVED)
                saved[n] = SavedTensor(a) if hooks else _save_input(a)
            elif a is None:
                saved[n] = None
            else:  # a Python number: see Note [Saved numbers]
                saved[n] = _saved_number(a, arrays[i] if arrays is not None else None, cdt)
        elif kind == 1:
            # an index or mask the caller passed as its tensor's array (or a tuple of them, for
            # advanced indexing): the user may modify that tensor in place before backward;
            # torch's version check then raises, and without one the gradient would silently
            # follow the new indices. A copy keeps the gradient that of the forward that ran.
            a = args[i]
            if type(a) is _ndarray:
                a = _own_index(a)
                if hooks and a.dtype.kind in "biu" and not op.name.startswith(_OWN_INDICES):
                    packed += _pack_indices(saved, n, (a,), False)  # packed in torch's order
            elif type(a) is tuple and any(type(e) is _ndarray for e in a):
                a = tuple(_own_index(e) if type(e) is _ndarray else e for e in a)
                if hooks and not op.name.startswith(_OWN_INDICES):
                    packed += _pack_indices(saved, n, [e for e in a if type(e) is _ndarray], True)
            saved[n] = a
        elif kind == 2:
            saved[n] = (
                SavedTensor(results[i], is_output=True) if hooks else _save_output(results[i])
            )
        else:
            a = args[i]
            d = a._data if isinstance(a, Tensor) else None
            saved[n] = None if d is None else tuple(s // d.itemsize for s in d.strides)
    unread = op._unread_cache.get(mask)
    if hooks:
        extra = HOOKED_EXTRA.get(op.name)
        if extra is not None:
            packed += _pack_indices(saved, "extra", extra(args, saved), True)
        if packed:
            unread = (*(unread or ()), *packed)
        # see _unpack_once: backward unpacks each packed value once, in the order packed
        saved["_hooked"] = True
        saved["_unread"] = unread or ()
    elif unread:
        saved["_unread"] = unread
    return saved


def _unpack_once(node: OpNode, saved: dict[str, Any], run: Callable[[], Any]) -> Any:
    """A node whose values were packed by saved-tensor hooks: as torch's generated node, its
    backward unpacks each one once (running the unpack hook), in the order they were packed,
    whichever gradients it computes and however many formulas read them; run() then computes
    them from those unpacked tensors."""
    memo = {}
    for n, v in list(saved.items()):
        if type(v) is SavedTensor and v._hooks is not None:
            t = v.unpack(node)
            memo[id(v)] = t
            if n[:8] == "_packed_":
                _unpacked_index(saved, n, t._data)
    UNPACKED.memo = memo
    try:
        return run()
    finally:
        UNPACKED.memo = None


def _hooked_order(op: OpDef) -> Callable[[Any], Any]:
    """The order torch's generated node saves (and packs) its values in: the inputs by name,
    then the outputs (`result`, `result1`, ...; an `indices` output beside a saved `self`:
    max_pool2d_with_indices', cummax's)."""
    later = "self" in op.saved_names

    def key(entry: Any) -> Any:
        n, kind, _ = entry
        return (kind == 2 or (later and n == "indices"), n)

    return key


def _pack_indices(saved: dict[str, Any], n: str, arrays: Any, several: bool) -> list[str]:
    """Under saved-tensor hooks, the index and mask arrays a node saves (torch saves them as
    tensors: max's and sort's indices, gather's index) are packed too, as int64/bool tensors,
    under `_packed_<name>[_k]`: the formulas keep reading the array, and backward unpacks the
    packed ones (running the unpack hook) with the node's other saved values. Only here, when
    hooks are active: the common path saves the bare array."""
    names = []
    for k, a in enumerate(arrays):
        key = f"_packed_{n}_{k}" if several else f"_packed_{n}"
        saved[key] = SavedTensor(a if isinstance(a, Tensor) else _make(a))
        names.append(key)
    return names


def _unpacked_index(saved: dict[str, Any], key: str, arr: Any) -> None:
    """An index array packed under saved-tensor hooks, unpacked: what the unpack hook gave
    replaces the array the formulas read, as torch's formulas read the unpacked tensor (the
    extras, which no formula reads, are only unpacked)."""
    name = key[8:]
    if name.startswith("extra"):
        return
    if type(saved.get(name)) is _ndarray:
        saved[name] = arr
        return
    name, _, k = name.rpartition("_")  # one array of a tuple of them (advanced indexing)
    old = saved[name]
    pos = [j for j, e in enumerate(old) if type(e) is _ndarray][int(k)]
    saved[name] = (*old[:pos], arr, *old[pos + 1 :])


# ops whose saved index arrays are shadowgrad's own (torch's kernel saves no such tensor)
_OWN_INDICES = ("reflection_pad", "replication_pad")


# Saved values torch's node packs that shadowgrad's formulas do not read (gather's self; the
# statistics outputs of the norms, which shadowgrad recomputes): op name -> (args, saved) ->
# the tensors or arrays to pack after the others, only while saved-tensor hooks are active.
HOOKED_EXTRA: dict[str, Callable[[tuple[Any, ...], dict[str, Any]], list[Any]]] = {}


# Note [Saved numbers], continued: the 0-d arrays of the Python numbers an op saves are shared,
# read-only, between calls with the same number and dtype (a training loop's constants: 1e-4,
# 0.5, ...), which saves an allocation per recorded op. They are keyed by the number's type and
# value: 1 and 1.0 compute alike but are saved as torch's int64 and float64 wrapped numbers.
# A float zero is not shared (0.0 == -0.0 as a key, and the sign matters), nor is NaN (never
# equal to itself, so never found).
_NUMBERS: dict[Any, dict[Any, np.ndarray]] = {}


def _wrapped_number(arr: np.ndarray) -> np.ndarray:
    """A saved number as `_saved_<name>` shows it: torch's wrapped number, a 0-d tensor of the
    Python number's own dtype (int64, float64, complex128, bool), the user's own copy."""
    v: Any = None
    for (_, n), a in _NUMBERS.get(arr.dtype, {}).items():  # a shared array: its number
        if a is arr:
            v = n
            break
    if type(v) not in _WRAPPED_DTYPES:  # not shared (or a numpy scalar): its value
        v = arr.item() if v is None else v.item()
    return np.array(v, _WRAPPED_DTYPES[type(v)])


_WRAPPED_DTYPES = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}


def _number_array(v: Any, dt: Any) -> np.ndarray:
    cache = _NUMBERS.get(dt)
    if cache is None:
        cache = _NUMBERS[dt] = {}
    key = (type(v), v)
    arr = cache.get(key)
    if arr is None:
        # c10 converts a Python float to float16 through float (two roundings)
        arr = _asarray(v if dt is not _F16 or type(v) is not float else _f32(v), dt)
        if v == v and (v or type(v) in (bool, int)):  # not a float zero, not NaN
            if len(cache) > 1024:
                cache.clear()
            arr.flags.writeable = False
            cache[key] = arr
    return arr


def _saved_number(v: Any, arr: np.ndarray | None, cdt: Any) -> np.ndarray:
    """The array a number operand is saved as: the shared one of its type and value, so that
    `_saved_<name>` reads back its Python type (`x * True` saves True, `clamp(min=1)` the int 1),
    else the array the op computed with (an int wrapped into a narrower type)."""
    if arr is None:
        return _number_array(v, cdt)
    if type(v) in _WRAPPED_DTYPES and arr.flags.writeable:
        try:
            return _number_array(v, arr.dtype)
        except OverflowError:
            pass
    return arr


def _single_saved(op: OpDef) -> str | None:
    """The name of the one value record1's nodes save, when they save one input or output and
    nothing else (see Note [Single saved value])."""
    plan = op.to_save(1)
    if len(plan) == 1 and plan[0][1] in (0, 2) and not op._unread_cache.get(1):
        return plan[0][0]
    return None


# Note [Direct raw formulas]
# The commonest raw formulas are `grad` itself (add, sub) and `grad * other` (mul by a number):
# a lambda's frame costs about 1.5K instructions of a chain node's 14K. record1's nodes recognize
# them by their bytecode (compared with the same lambdas compiled here, so by the running
# interpreter's own compiler) and pass the gradient on, or call the ufunc, directly.
_IDENTITY_CODE = (lambda grad: grad).__code__.co_code
_BINARY_CODES = {
    (lambda grad, x: grad * x).__code__.co_code: np.multiply,
    (lambda grad, x: grad / x).__code__.co_code: np.true_divide,
}


def _direct_formula(fn: Callable[..., Any]) -> Any:
    """What a raw formula is, when it is one of Note [Direct raw formulas]: "identity", a
    ufunc of (grad, value), or None."""
    code = getattr(fn, "__code__", None)
    if code is None or getattr(fn, "__defaults__", None) or getattr(fn, "__closure__", None):
        return None
    if code.co_argcount == 1 and code.co_code == _IDENTITY_CODE:
        return "identity"
    if code.co_argcount == 2:
        return _BINARY_CODES.get(code.co_code)
    return None


def _apply_raw1(op: OpDef) -> Callable[..., list[Any]]:
    """OpNode.apply_raw for a node whose only input requiring grad is the first (record1's):
    one formula, its argument names resolved once."""
    fn, names = op.raw_formulas[0]  # type: ignore[index]
    direct = _direct_formula(fn)  # Note [Direct raw formulas]
    identity = direct == "identity"
    if direct is not None and not identity:
        fn = direct
    tail = [None] * (len(op.diff_idx) - 1)
    op.to_save(1)
    unread = op._unread_cache.get(1)
    cast = op.raw_cast
    fix = _fix_raw
    single = None
    if len(names) == 2 and names[0] == "grad":
        single = names[1]
    bare = _single_saved(op)  # Note [Single saved value]

    def apply_raw(self: OpNode, grads: list[Any]) -> list[Any]:
        g = grads[0]
        if names is _GRAD_ONLY:
            r = g if identity else fn(g)
        else:
            saved = self._saved
            if bare is not None and single is None:
                saved = {bare: saved}
            if unread:
                for n in unread:
                    saved[n].unpack_raw(self)  # type: ignore[index]
            if single is not None:
                v = saved if bare is not None else saved[single]  # type: ignore[index]
                tv = type(v)
                if tv is SavedTensor:
                    v = v.unpack_raw(self)
                    if cast and v.dtype != g.dtype:
                        v = v.astype(g.dtype)
                elif v is _RELEASED:
                    raise RuntimeError(SECOND_TIME)
                r = fn(g, v)
            else:
                r = fn(*_raw_args(self, names, saved, g, g.dtype if cast else None))
        m = self._in_meta[0]
        if type(r) is not _ndarray:
            r = r if isinstance(r, _ndarray) else _asarray(r)  # numpy's scalar of a 0-d op
        if r.shape != m[0] or r.dtype != m[1]._np:
            r = fix(self, 0, r, m[0], m[1])
        return [r, *tail]

    return apply_raw


def _release1(op: OpDef) -> Callable[..., None]:
    """OpNode.release for record1's nodes: only the saved values of the first input's plan."""
    names = tuple(n for n, kind, _ in op.to_save(1) if kind in (0, 2))
    if _single_saved(op) is not None:

        def release_single(self: OpNode) -> None:
            v = self._saved
            tv = type(v)
            if tv is SavedTensor:
                v.release()
            elif tv is _ndarray:
                self._saved = _RELEASED

        return release_single

    def release(self: OpNode) -> None:
        saved = self._saved
        if saved is not None:
            for n in names:
                v = saved[n]
                tv = type(v)
                if tv is SavedTensor:
                    v.release()
                elif tv is _ndarray:
                    saved[n] = _RELEASED

    return release


def _raw_args(node: OpNode, names: tuple[str, ...], saved: Any, g: Any, cdt: Any) -> list[Any]:
    """A raw formula's arguments: the gradient and the saved values as arrays."""
    args = []
    for n in names:
        if n == "grad":
            args.append(g)
            continue
        v = saved[n]
        tv = type(v)
        if tv is SavedTensor:
            v = v.unpack_raw(node)
            if cdt is not None and v.dtype != cdt:
                v = v.astype(cdt)
        elif v is _RELEASED:
            raise RuntimeError(SECOND_TIME)
        args.append(v)
    return args


def _make_record1(op: OpDef) -> Callable[..., None]:
    """_record specialized to a single-output op whose only input requiring grad is the first
    (unary ops, and binary ops with a number or a tensor not requiring grad): the edges,
    metadata and save plan of that case are worked out once."""
    tail = (None,) * (len(op.diff_idx) - 1)
    n_edges = len(op.diff_idx)
    metas: dict[Any, Any] = {}
    last: list[Any] = [None]
    node_cls = op.node_cls1
    seq = _seq

    def record1(a: Tensor, args: tuple[Any, ...], t: Tensor, cdt: Any) -> None:
        if a._base is not None:
            _refresh_view(a)
        gf = a._grad_fn
        d = a._data
        shape = d.shape
        dt = d.dtype
        hit = last[0]  # the last (shape, dtype, meta): one read, never half of an update
        if hit is not None and hit[1] is dt and hit[0] == shape:
            m = hit[2]
        else:
            key = (shape, dt)
            m = metas.get(key)
            if m is None:
                if len(metas) > 1024:
                    metas.clear()
                m = metas[key] = _interned_meta((key, *tail))
            last[0] = (shape, dt, m)
        # a complex input or output: see Note [Complex gradients]
        node = _new(op.complex_node_cls if m[1] or t._data.dtype.kind == "c" else node_cls)
        if gf is not None:
            node._e0 = gf
            node._r0 = a._nr
        else:
            node._e0, node._r0 = a._edge()
        node._erest = ()  # see Note [Edge slots]
        node._nin = n_edges
        node._seq = next(seq)
        node._x = None
        node._in_meta = m[0]
        t._rg = True
        t._grad_fn = node
        if save1 is None:
            node._saved = None
        elif hooks():
            saved = _save(op, plan, 1, args, None, (t,), cdt)
            if saved.get("_unread", unread1) is not unread1 and type(node) is node_cls:
                # index arrays packed (see _pack_indices): the general node class unpacks them
                node.__class__ = op.node_cls
                node._saved = saved
            else:
                node._saved = saved[bare] if node._single is not None else saved
        elif one is None or node._single is not None:  # see Note [Single saved value]
            node._saved = save1(args, t, cdt)
        else:  # a complex node, or an op without raw formulas
            node._saved = {one: save1(args, t, cdt)}
        if _ANOMALY.enabled:
            node._trace = forward_trace()

    plan = op.to_save(1)
    save1, one = _saver1(op, plan)
    bare = node_cls._single
    hooks = _saved_hooks_stack
    unread1 = op._unread_cache.get(1)
    return record1


def _saver1(op: OpDef, plan: Any) -> tuple[Callable[..., Any] | None, str | None]:
    """The save step of record1 without saved-tensor hooks, specialized to the plan's shape: the
    result alone (exp, tanh, relu), one input (mul by a number), or the general loop. Returns
    it, and the saved value's name when it returns that one value rather than a dict."""
    if not plan:
        return None, None
    if len(plan) == 1 and not op._unread_cache.get(1):
        n, kind, i = plan[0]
        if kind == 2 and i == 0:
            return (lambda args, t, cdt: _save_output(t)), n
        if kind == 0:
            # the last number saved, its dtype and its array: a loop's constant is one object
            # (the same object is the same value, signed zero and NaN included)
            last: list[Any] = [None]

            def save_one(args: tuple[Any, ...], t: Tensor, cdt: Any) -> Any:
                a = args[i]
                if isinstance(a, Tensor):
                    if a._inf:
                        raise RuntimeError(INFERENCE_SAVED)
                    return _save_input(a)
                if a is None:
                    return None
                hit = last[0]  # one read: another thread may replace it, never half of it
                if hit is not None and hit[0] is a and hit[1] is cdt:
                    return hit[2]
                arr = _number_array(a, cdt)
                if not arr.flags.writeable:  # a shared array (see _number_array)
                    last[0] = (a, cdt, arr)
                return arr

            return save_one, n
    return (lambda args, t, cdt: _save(op, plan, 1, args, None, (t,), cdt)), None


# Note [Interned metadata]
# Nodes of one op on inputs of one shape and dtype share one `_in_meta` tuple: in a deep graph
# every object a node owns is one more for Python's cyclic collector to traverse (it dominated
# the 1e6-node benchmark), and metadata repeats from node to node.
_META: dict[Any, Any] = {}


def _interned_meta(key: tuple[Any, ...]) -> tuple[tuple[Any, ...], bool]:
    """The shared `_in_meta` for ((shape, numpy dtype) or None, ...), made on first use, and
    whether an input is complex."""
    if len(_META) > 4096:
        _META.clear()
    meta = tuple(None if e is None else (e[0], _FROM_NP[e[1]]) for e in key)
    m = _META[key] = (meta, any(e is not None and e[1].kind == "c" for e in key))
    return m


# Note [Complex gradients]
# torch differentiates complex functions with the conjugate Wirtinger convention: for a real
# loss L of z = x + iy the gradient is dL/dx + i dL/dy, so a holomorphic f's formula is
# grad * conj(f'(z)) (mul's is grad * other.conj()), and non-holomorphic ones have their own
# (abs's is grad * sgn(self)). A node with a complex input or output gets a twin class of the
# op's node (same name, so grad_fn names still match torch), chosen from the dtypes when the
# node is recorded; real nodes never pay for it. An op declared with `complex=` runs its complex
# formulas there, on Tensors (no raw backward); the twin of any other op raises on backward, as
# its real formulas would give wrong complex gradients. A complex gradient reaching a real input
# keeps its real part (torch's handle_r_to_c; the engine's _validate).
COMPLEX_UNSUPPORTED = (
    "shadowgrad does not compute gradients through complex tensors yet: {} has a complex "
    "input or output, and its backward formula is written for real tensors (torch's "
    "conjugate Wirtinger convention is not implemented)"
)


def _complex_apply(self: Node, grads: list[Any]) -> tuple[Any, ...]:
    raise RuntimeError(COMPLEX_UNSUPPORTED.format(self.name()))


class ListOpNode(Node):
    """The backward node of an op over a list of tensors (cat, stack): one edge per tensor."""

    __slots__ = ("_saved",)
    _op: ListOpDef

    def apply(self, grads: list[Any]) -> tuple[Any, ...]:
        saved = self._saved or {}
        env = {k: (v.unpack(self) if type(v) is SavedTensor else v) for k, v in saved.items()}
        env["grad"] = grads[0]
        fn, names = self._op.formula
        outs = fn(*[env[n] for n in names])
        return tuple(g if e is not None else None for g, e in zip(outs, self._next, strict=True))

    def release(self) -> None:
        for v in (self._saved or {}).values():
            if type(v) is SavedTensor:
                v.release()

    def __getattr__(self, name: str) -> Any:
        # torch's node lists its saved arguments (cat's and stack's `_saved_dim`), readable
        # after backward too: they are not tensors
        if name.startswith("_saved_") and name[7:] in self._op.listed:
            v = (self._saved or {})[name[7:]]
            return _as_uint64(v) if type(v) is int or type(v) is tuple else v
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *("_saved_" + n for n in self._op.listed)})


class ListOpDef:
    """An op whose first argument is a sequence of tensors; its formula returns one grad each."""

    def __init__(
        self,
        name: str,
        grad_fn: str,
        forward: Callable[..., Any],
        formula: Any,
        complex: bool = False,
        listed: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.listed = listed  # the saved arguments torch's node shows as `_saved_<name>`
        self.grad_fn = grad_fn
        self.forward = forward
        self.params = list(inspect.signature(forward).parameters)
        self.formula = (formula, tuple(inspect.signature(formula).parameters))
        NODE_NAMES[grad_fn] = name
        self.node_cls = type(
            grad_fn, (ListOpNode,), {"__slots__": (), "_op": self, "__module__": "builtins"}
        )
        self.complex_node_cls = self.node_cls
        if not complex:  # see Note [Complex gradients]
            self.complex_node_cls = type(
                grad_fn,
                (self.node_cls,),
                {
                    "__slots__": (),
                    "__module__": "builtins",
                    "apply": lambda node, grads: _complex_apply(node, grads),
                },
            )


def deflistop(
    name: str,
    grad_fn: str,
    forward: Callable[..., Any],
    tensors: Callable[..., Any],
    complex: bool = False,
    listed: tuple[str, ...] = (),
) -> Callable[..., Any]:
    """Declare an op over a list of tensors (first forward parameter `tensors`).

    The inputs are promoted to one dtype (torch's result_type) before the forward runs. The
    formula `tensors(grad, ...)` returns a sequence with one gradient per tensor; `listed`
    names the formula arguments torch's node shows as `_saved_<name>`.
    """
    op = ListOpDef(name, grad_fn, forward, tensors, complex, listed)

    def run(ts: Any, *attrs: Any) -> Tensor:
        ts = list(ts)
        dt = result_type_of(ts)
        arrays = [t._data if t._data.dtype == dt._np else t._data.astype(dt._np) for t in ts]
        r = op.forward(arrays, *attrs)
        out = _make(r if type(r) is _ndarray else _device_result(r, (ts,)))
        if _mode().grad and any(t._rg for t in ts) and out._data.dtype.kind in "fc":
            cls = op.complex_node_cls if out._data.dtype.kind == "c" else op.node_cls
            node = cls(tuple(t._edge() if t._rg else None for t in ts))
            node._in_meta = tuple(
                (t._data.shape, _FROM_NP[t._data.dtype]) if t._rg else None for t in ts
            )
            saved: dict[str, Any] = {}
            for n in op.formula[1]:
                if n == "tensors":
                    raise TypeError(f"{name}: a list-op formula cannot read the tensors")
                if n != "grad":
                    saved[n] = attrs[op.params.index(n) - 1]
            node._saved = saved
            out._rg = True
            out._grad_fn = node
            if _ANOMALY.enabled:
                node._trace = forward_trace()
        if _FW.active:
            _fwad.propagate_list(run, ts, attrs, out)
        return out

    run.op = op  # type: ignore[attr-defined]
    return run


_ndarray = np.ndarray
_asarray = np.asarray


# Note [0-d results]: a ufunc on 0-d operands returns a numpy scalar, which every op then
# converts back to an array (~140 ns); numpy 2.3+ returns the 0-d array itself for out=...
# (Ellipsis). Older numpy: out=None, and the runner's conversion stays.
try:
    np.add(np.zeros(()), 0.0, out=...)
    ARRAY_OUT: Any = ...
except TypeError:
    ARRAY_OUT = None

# Note [Direct ufuncs]
# add, sub, mul and div forward to one numpy ufunc. Their fast path (run2) calls it directly
# instead of through the op's forward function: a Python frame and a star-call fewer, about 2K
# instructions of a scalar op's 22K. The forward function stays the definition, and runs for
# the other cases (add's alpha, the slow path, the warning-quiet retry).

# Note [Number operands]
# numpy spends about 0.4 us turning a Python number into an operand of an array's dtype (NEP 50's
# weak-scalar rule): more than an 8-element multiply itself. For the arithmetic ops
# (`defop(scalar_array=True)`), a float tensor's Python-number operand is passed as a 0-d array
# of the tensor's dtype instead, the shared array of Note [Saved numbers] (the one backward
# saves): the weak-scalar rule converts the number to that dtype first, so the values are the
# same, bit for bit. Integers beyond 2**53 keep numpy's own conversion, and so does add's
# `other` with an alpha other than 1 (`self + alpha * other` multiplies the Python numbers).
_EXACT = 1 << 53

# Note [Numbers in float]
# torch's mul and true-division kernels read a float16 tensor's number operand (a Python number
# or a 0-d tensor, the second operand) in float and round the float result once: `x * 0.3`
# multiplies by 0.3f, where add and remainder convert the number to float16 first (0.30004883).
# The fast path leaves these calls to _run, which computes them so.
_OPMATH_NUMBER = frozenset(("mul.Tensor", "div.Tensor"))
_F16 = np.dtype(np.float16)
_f32 = np.float32


def _opmath_number(arrays: list[Any], args: tuple[Any, ...]) -> bool:
    """Whether a mul/div call is a float16 tensor with a number operand (Note [Numbers in
    float]); the operand is then in arrays[1] as a float32 0-d array."""
    a0 = arrays[0]
    b = args[1]
    d0 = getattr(a0, "dtype", None)
    if (d0 is not _F16 and d0 is not _LD) or (isinstance(b, Tensor) and b._data.ndim):
        return False
    v = b._data if isinstance(b, Tensor) else b
    if getattr(v, "dtype", None) is not None and v.dtype.kind == "c":
        return False
    arrays[1] = np.asarray(v, np.float32)
    return True


def _run_in_float(op: OpDef, args: tuple[Any, ...], arrays: list[Any], low: np.dtype) -> Any:
    """_run's end for an op torch computes in float on reduced-precision operands: a number
    operand of float16/bfloat16 mul and div (Note [Numbers in float]), and bfloat16's products
    (_BF16_IN_FLOAT: numpy's longdouble matmul has no BLAS). The operands of dtype `low` are
    computed on as float32, the result rounded to `low` once; autograd records the original
    operands."""
    f32 = [a.astype(np.float32) if type(a) is np.ndarray and a.dtype is low else a for a in arrays]
    with np.errstate(all="ignore"):
        out = np.asanyarray(op.forward(*f32))  # (a sparse tensor's array stays one)
    result = _make(D.round_bf16(out) if low is _LD else out.astype(_F16))
    if _mode().grad and any(isinstance(args[i], Tensor) and args[i]._rg for i in op.diff_idx):
        _record(op, args, arrays, (result,))
        if low is _LD:
            _bf16_node(result)
    if _FW.active:
        _fwad.propagate(op, args, result)
    return result


def _make_runner(op: OpDef) -> Callable[..., Any]:
    """The op's callable: a fast path for the common cases, `_run` for everything else.

    The fast paths cover unary ops on one tensor, and binary ops on two tensors of one dtype or
    a tensor and a Python scalar that cannot change its dtype (torch and numpy agree there).
    """
    fwd = op.forward
    tidx = op.tensor_idx
    single = op.n_outputs == 1
    rule = op.dtype
    is_float = rule == "float"
    view = op.view
    get_mode = _mode
    fw = _FW
    make = _make
    record = _record
    opmath = op.name in _OPMATH_NUMBER
    ld = _LD

    def slow(*args: Any) -> Any:
        return _run(op, args)

    if not single or tidx not in ((0,), (0, 1)):
        return slow
    record1 = _make_record1(op)

    if tidx == (0,):
        d0 = 0 in op.diff_idx

        def run1(*args: Any) -> Any:
            a = args[0]
            if not isinstance(a, Tensor):
                return _run(op, args)
            arr = a._data
            adt = arr.dtype
            if adt is ld or (is_float and adt.kind not in "fc"):
                return _run(op, args)  # (bfloat16: rounded there, Note [bfloat16 storage])
            wf = _warnings.filters
            if not wf or wf[0] is not _FP_FILTER:
                _front_filter()  # Note [Floating-point warning filter]
            try:
                out = fwd(arr, *args[1:])
            except RuntimeWarning:
                out = quiet(fwd, arr, *args[1:])  # see Note [Floating-point warnings]
            if type(out) is not _ndarray:
                out = _device_result(out, args, op) if isinstance(out, _ndarray) else _asarray(out)
            t = make(out)
            if view:
                _as_view(t, a)
            if d0 and a._rg and get_mode().grad and out.dtype.kind in "fc":
                record1(a, args, t, None)
            if fw.active:
                _fwad.propagate(op, args, t)
            return t

        return run1

    if rule == "keep":
        return slow
    d0 = 0 in op.diff_idx
    d1 = 1 in op.diff_idx
    scalar_array = op.scalar_array
    ufunc = op.ufunc
    has_ufunc = ufunc is not None
    iterator = op.name in _ITERATOR_LAYOUT
    last_number: list[Any] = [None]

    def run2(*args: Any) -> Any:
        a = args[0]
        b = args[1]
        if not isinstance(a, Tensor):
            return _run(op, args)
        A = a._data
        adt = A.dtype
        if adt is ld:
            return _run(op, args)  # bfloat16: rounded there (Note [bfloat16 storage])
        if isinstance(b, Tensor):
            if type(b) is not Tensor and b._sg_proto and not _TF.level:
                return _subclass_operand(op, args)  # plain.add(subclass): its __torch_function__
            B = b._data
            if B.dtype != adt or (is_float and adt.kind not in "fc"):
                return _run(op, args)
            if (
                iterator
                and (A.ndim > 1 or B.ndim > 1)
                and not (A.flags.c_contiguous and B.flags.c_contiguous)
            ):
                return _run(op, args)  # mixed layouts: TensorIterator's (Note [Result layout])
            b_rg = b._rg
            rg = (d0 and a._rg) or (d1 and b_rg)
        elif (
            (hit := last_number[0]) is not None
            and hit[0] is b
            and hit[1] is adt
            and (len(args) == 2 or args[2] == 1)
        ):
            # the number of the last call, on a tensor of its float dtype: its shared array
            # (see Note [Number operands]; only float dtypes are remembered)
            B = hit[2]
            b_rg = False
            rg = d0 and a._rg
        else:
            tb = type(b)
            k = adt.kind
            if tb is float:
                if k not in "fc":
                    return _run(op, args)
            elif tb is int:
                if k in "bu" or (is_float and k not in "fc") or not -_EXACT <= b <= _EXACT:
                    return _run(op, args)
            else:
                return _run(op, args)
            if opmath and adt is _F16:
                return _run(op, args)  # Note [Numbers in float]
            B = b
            if (
                scalar_array
                and k == "f"
                and (tb is float or -_EXACT <= b <= _EXACT)
                and (len(args) == 2 or args[2] == 1)  # add's alpha: see Note [Number operands]
            ):
                # Note [Number operands]
                dt = adt
                B = _number_array(b, dt)
                if not B.flags.writeable:
                    last_number[0] = (b, dt, B)
            b_rg = False
            rg = d0 and a._rg
        wf = _warnings.filters
        if not wf or wf[0] is not _FP_FILTER:
            _front_filter()  # Note [Floating-point warning filter]
        try:
            if has_ufunc and (len(args) == 2 or args[2] == 1):
                out = ufunc(A, B, out=ARRAY_OUT)  # Note [Direct ufuncs]
            else:
                out = fwd(A, B, *args[2:])
        except ValueError as e:
            check_inference_saved(op, args)
            ab = (A, B)
            raise _broadcast_error(e, [ab[i] for i in op.broadcast_order]) from None
        except RuntimeWarning:
            out = quiet(fwd, A, B, *args[2:])  # see Note [Floating-point warnings]
        except OverflowError:
            # a Python int outside the tensor's integer type: torch wraps it (see _scalar_array)
            return _run(op, args)
        if type(out) is not _ndarray:
            out = _device_result(out, args, op) if isinstance(out, _ndarray) else _asarray(out)
        # _make, inlined: the hottest line of every binary op
        t = _new(Tensor)
        t._data = out
        t._rg = False
        t._grad_fn = None
        t._grad = None
        t._vc = None
        t._nr = 0
        t._base = None
        t._acc = None
        t._x = None
        m = get_mode()  # Note [Grad mode in a context variable]
        t._inf = m.inference
        if view:
            _as_view(t, a)
        if rg and m.grad and out.dtype.kind in "fc":
            if d0 and a._rg and not (b_rg and d1):
                record1(a, args, t, adt)
            else:
                record(op, args, None, (t,), adt)
        if fw.active:
            _fwad.propagate(op, args, t)
        return t

    return run2


def _subclass_operand(op: OpDef, args: tuple[Any, ...]) -> Any:
    from .. import overrides

    return overrides.dispatch_op(op.name.split(".")[0], args)


def _refresh_view(t: Tensor) -> None:
    global _refresh_view
    from .views import refresh_view

    _refresh_view = refresh_view  # bind once: later calls go straight to views.refresh_view
    refresh_view(t)


def _broadcast_error(e: ValueError, arrays: list[Any]) -> Exception:
    """torch's message for operands that do not broadcast (numpy's ValueError otherwise)."""
    if "could not be broadcast" not in str(e) and "objects cannot be broadcast" not in str(e):
        return e
    shape: tuple[int, ...] = ()
    try:
        for a in arrays:
            if isinstance(a, np.ndarray):
                shape = infer_size(shape, a.shape)
    except RuntimeError as err:
        return err
    return e


def infer_size(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast shape of a and b, with torch's error (the last mismatching dim first)."""
    n = max(len(a), len(b))
    out = [1] * n
    for i in range(n - 1, -1, -1):
        ia, ib = len(a) - n + i, len(b) - n + i
        sa = a[ia] if ia >= 0 else 1
        sb = b[ib] if ib >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(
                f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                f"non-singleton dimension {i}"
            )
        out[i] = sa if sb == 1 else sb
    return tuple(out)


def _device_result(out: Any, args: tuple[Any, ...], op: Any = None) -> np.ndarray:
    """An op's result that is not a plain ndarray: a numpy scalar, or a meta tensor's array
    (_device.py: its operands' devices checked where torch checks them)."""
    from .._device import result

    return result(out, args, op)  # type: ignore[no-any-return]
