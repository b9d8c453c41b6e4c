"""torch's top-level spellings of ops shadowgrad already has: the in-place functions
(`torch.relu_`, `torch.sigmoid_`, ...), the functional layers torch also exports at top level
(`torch.batch_norm`, `torch.layer_norm`, ...), and other aliases.

The nn functionals are imported when called: this family loads before `shadowgrad.nn`.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make
from . import pointwise as P
from . import shape as S
from . import shape_extra as SX
from ._util import shape_str, wrap_dim
from .inplace import _fill as _inplace_fill
from .inplace import _fill_tensor as _inplace_fill_tensor
from .pointwise import _invalid_combination, _out
from .registry import defop
from .rounding import _not_implemented

_MISSING = object()


def _functional() -> Any:
    from ..nn import functional

    return functional


def _need_input(fn: str, input: Any, name: str = "input") -> None:
    if input is _MISSING:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "{name}"')
    if not isinstance(input, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position 1) must be Tensor, not {type(input).__name__}"
        )


# --- torch.<op>_(input, ...): the Tensor method on its first argument -----------------------

# torch's top-level names that are `input.<name>(...)`: the same node, version bump and errors
_METHOD_FUNCTIONS = (
    "abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
    "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_",
    "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "detach", "detach_", "erf_", "erfc_",
    "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_", "i0_", "ldexp_", "log10_",
    "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_",
    "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_",
    "square_", "tan_", "tanh_", "trunc_", "xlogy_", "zero_", "is_neg", "resolve_neg",
)  # fmt: skip


# the names torch overloads on a Tensor or a Number argument: its error lists the signatures
_OVERLOADS = {
    "clamp_": ("min = None", "max = None"),
    "clip_": ("min = None", "max = None"),
    "clamp_min_": ("min",),
    "clamp_max_": ("max",),
    "fill_": ("value",),
    "xlogy_": ("other",),
}


def _method_function(name: str) -> Callable[..., Any]:
    params = _OVERLOADS.get(name)

    def fn(input: Any = _MISSING, *args: Any, **kwargs: Any) -> Any:
        if params and not kwargs and not isinstance(input, Tensor):
            given = () if input is _MISSING else (input, *args)
            sigs = tuple(
                ", ".join(["Tensor input", *(f"{kind} {p}" for p in params)])
                for kind in ("Tensor", "Number")
            )
            raise _invalid_combination(name, given, sigs)
        _need_input(name, input)
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`: `input.{name}(...)`."
    return fn


# --- dropout family (torch.dropout(input, p, train) and its variants) -----------------------


def _feature_noise(input: Tensor) -> tuple[int, ...]:
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape)
    return shape[:2] + (1,) * (len(shape) - 2)


def _dropout_function(name: str, alpha: bool, feature: bool, inplace: bool) -> Callable[..., Any]:
    def fn(input: Any, p: float, train: bool) -> Tensor:
        _need_input(name, input)
        F = _functional()
        _check_p(p)
        if not train:
            return input
        noise = _feature_noise(input) if feature else tuple(input.shape)
        impl = F._alpha_dropout if alpha else F._dropout
        return impl(input, p, train, inplace, noise)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `torch.{name}(input, p, train)`."
    return fn


_DROPOUTS = {
    f"{'feature_' if feature else ''}{'alpha_' if alpha else ''}dropout{'_' if inp else ''}": (
        alpha,
        feature,
        inp,
    )
    for alpha in (False, True)
    for feature in (False, True)
    for inp in (False, True)
}
del _DROPOUTS["dropout"]  # torch.dropout is exported with the other nn functionals


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")


# --- activations ----------------------------------------------------------------------------


def selu_(input: Tensor) -> Tensor:
    """Mirrors `torch.selu_`."""
    return _functional().selu_(input)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """Mirrors `torch.celu_`."""
    return _functional().celu_(input, alpha)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """Mirrors `torch.threshold_`."""
    return _functional().threshold_(input, threshold, value)


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator: Any = None,
) -> Tensor:
    """Mirrors `torch.rrelu`."""
    return _functional().rrelu(input, lower, upper, training, generator=generator)


def rrelu_(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator: Any = None,
) -> Tensor:
    """Mirrors `torch.rrelu_`."""
    return _functional().rrelu(input, lower, upper, training, True, generator)


# --- normalization, linear, padding ---------------------------------------------------------


def batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """Mirrors `torch.batch_norm` (weight and bias before the running statistics)."""
    F = _functional()
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """Mirrors `torch.instance_norm`."""
    F = _functional()
    return F.instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """Mirrors `torch.bilinear`."""
    return _functional().bilinear(input1, input2, weight, bias)


def constant_pad_nd(input: Tensor, pad: Any, value: float = 0) -> Tensor:
    """Mirrors `torch.constant_pad_nd`."""
    return _functional().pad(input, pad, "constant", value)


# --- losses: torch's top-level spellings take the reduction as an int ---------------------


def _reduction(reduction: int) -> str:
    # torch's Python bindings of these default to an unreduced loss (reduction=0 here), though
    # the schemas say Mean; as torch's apply_loss_reduction: 1 Mean, 2 Sum, anything else none
    if reduction.__class__ is not int or not -(2**63) <= reduction < 2**63:
        from .._signatures import _is_index

        if not _is_index(reduction):  # (torch.<loss>'s wrapper words its parser's error)
            raise TypeError(f"argument 'reduction' must be int, not {type(reduction).__name__}")
        reduction = int(reduction)
        if not -(2**63) <= reduction < 2**63:
            raise ValueError("Overflow when unpacking long long")
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    pos_weight: Tensor | None = None,
    reduction: int = 0,
) -> Tensor:
    """Mirrors `torch.binary_cross_entropy_with_logits` (reduction 0 none, 1 mean, 2 sum;
    unreduced by default, as torch's binding)."""
    return _functional().binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction(reduction), pos_weight=pos_weight
    )


def cosine_embedding_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, reduction: int = 0
) -> Tensor:
    """Mirrors `torch.cosine_embedding_loss`."""
    return _functional().cosine_embedding_loss(
        input1, input2, target, margin, reduction=_reduction(reduction)
    )


def margin_ranking_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0, reduction: int = 0
) -> Tensor:
    """Mirrors `torch.margin_ranking_loss`."""
    return _functional().margin_ranking_loss(
        input1, input2, target, margin, reduction=_reduction(reduction)
    )


def hinge_embedding_loss(
    input: Tensor, target: Tensor, margin: float = 1.0, reduction: int = 0
) -> Tensor:
    """Mirrors `torch.hinge_embedding_loss`."""
    return _functional().hinge_embedding_loss(
        input, target, margin, reduction=_reduction(reduction)
    )


def kl_div(input: Tensor, target: Tensor, reduction: int = 0, *, log_target: bool = False):
    """Mirrors `torch.kl_div` (reduction 1 is the elementwise mean, not batchmean)."""
    return _functional().kl_div(
        input, target, reduction=_reduction(reduction), log_target=log_target
    )


def poisson_nll_loss(
    input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float, reduction: int
) -> Tensor:
    """Mirrors `torch.poisson_nll_loss` (every argument required)."""
    return _functional().poisson_nll_loss(
        input, target, log_input, full, eps=eps, reduction=_reduction(reduction)
    )


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2.0,
    eps: float = 1e-06,
    swap: bool = False,
    reduction: int = 0,
) -> Tensor:
    """Mirrors `torch.triplet_margin_loss`."""
    return _functional().triplet_margin_loss(
        anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction)
    )


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """Mirrors `torch.pdist`."""
    return _functional().pdist(input, p)


# --- pooling: torch's spellings take stride=[] for "the kernel size" ---------------------


def _stride(stride: Any) -> Any:
    return None if isinstance(stride, (list, tuple)) and len(stride) == 0 else stride


def max_pool3d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> Tensor:
    """Mirrors `torch.max_pool3d`."""
    F = _functional()
    return F.max_pool3d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d_with_indices(
    input: Tensor,
    kernel_size: Any,
    stride: Any = (),
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.max_pool1d_with_indices`: (values, indices)."""
    F = _functional()
    return F.max_pool1d_with_indices(
        input, kernel_size, _stride(stride), padding, dilation, ceil_mode
    )


def adaptive_max_pool1d(input: Tensor, output_size: Any) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.adaptive_max_pool1d`: always (values, indices)."""
    return _functional().adaptive_max_pool1d_with_indices(input, output_size)


# --- other ----------------------------------------------------------------------------------


def chain_matmul(*matrices: Tensor, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.chain_matmul` (deprecated: warns once, as torch's TORCH_WARN_ONCE)."""
    try:
        global _CHAIN_WARNED
        if not _CHAIN_WARNED:
            _CHAIN_WARNED = True
            warnings.warn(
                "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
                "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
                "rather than multiple parameters.",
                UserWarning,
                stacklevel=2,
            )
        if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
            matrices = tuple(matrices[0])
        if not matrices:
            raise RuntimeError("chain_matmul(): Expected one or more matrices")
        for m in matrices:
            if m.ndim != 2:
                raise RuntimeError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
        if len(matrices) == 1:
            r = matrices[0].clone()
        else:
            from ..linalg import multi_dot

            r = multi_dot(list(matrices))
        return _out(r, out, "chain_matmul")
    except Exception:  # torch's parser refuses the arguments first
        from .._signatures import reraise_tensor_list

        reraise_tensor_list(matrices)
        raise


_CHAIN_WARNED = False


def _copy_op(view: Any, name: str, grad_fn: str, forward: Any = None, copy: bool = True) -> Any:
    """`view`'s op recording its formulas under another node name, with outputs that are not
    views: copied to new contiguous arrays (torch's generated `<op>_copy` kernels) or, for
    `unsafe_<op>`, sharing memory with input without being tracked as its views."""
    op = view.op
    fwd = forward or op.forward

    def copy_forward(*args: Any) -> Any:
        r = fwd(*args)
        if not copy:
            return r
        if isinstance(r, tuple):
            return tuple(np.array(a, order="C") for a in r)
        return np.array(r, order="C")

    functools.update_wrapper(copy_forward, fwd)  # the forward's parameter names
    copy_forward.__module__ = __name__  # the op belongs to this family
    formulas = {p: f for (p, _), (f, _) in zip(op.formulas_by_input, op.formulas, strict=True)}
    raw = None
    if op.raw_formulas is not None:
        raw = {p: f for (p, _), (f, _) in zip(op.formulas_by_input, op.raw_formulas, strict=True)}
    nondiff = tuple(op.params[i] for i in op.tensor_idx if op.params[i] not in formulas)
    return defop(
        name,
        grad_fn,
        copy_forward,
        nondiff=nondiff,
        dtype=op.dtype,
        n_outputs=op.n_outputs,
        diff_outputs=op.diff_outputs,
        jvp=op.jvp,
        raw=raw,
        # the view's complex gradients hold for its copy (t_copy of a complex tensor)
        complex=getattr(op, "complex_formulas", None) is op.formulas,
        **formulas,
    )


# --- torch.fill: the out-of-place fill_ -----------------------------------------------------

# torch's out-of-place fill records the formulas of fill_ under its own node names
_fill = _copy_op(_inplace_fill, "fill.Scalar_functional", "FillBackward0", copy=False)
_fill_tensor = _copy_op(_inplace_fill_tensor, "fill.Tensor_functional", "FillBackward1", copy=False)


def fill(input: Any = _MISSING, value: Any = _MISSING) -> Tensor:
    """Mirrors `torch.fill`: a new tensor like input, every element value (FillBackward0/1)."""
    if not isinstance(input, Tensor) or not isinstance(value, (Tensor, bool, int, float, complex)):
        given = tuple(a for a in (input, value) if a is not _MISSING)
        sigs = ("Tensor input, Tensor value", "Tensor input, Number value")
        err = _invalid_combination("fill", given, sigs)
        if len(given) == 2 and isinstance(input, Tensor):
            # torch marks the mismatching argument under each signature
            why = (
                "      didn't match because some of the arguments have invalid types: "
                f"(Tensor, !{type(value).__name__}!)\n"
            )
            err = TypeError(str(err).replace(")\n", ")\n" + why))
        raise err
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        return _fill_tensor(input, value)
    D.check_scalar_fits(value, input.dtype)
    return _fill(input, value)


# --- resize_, resize_as_: new shapes on a tensor's storage (no autograd) -------------------


def _resize_sizes(sizes: tuple[Any, ...], fn: str = "resize_") -> tuple[int, ...]:
    if not all(type(s) is int for s in sizes):
        from .._creation import check_int_list

        check_int_list(fn, "size", sizes, 1)  # torch's argument-parsing TypeErrors
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    out = tuple(int(s) for s in sizes)
    if any(s < 0 for s in out):
        raise RuntimeError("numel: integer multiplication overflow")
    return out


def resize_(self: Tensor, *sizes: Any, memory_format: Any = None) -> Tensor:
    """Mirrors `Tensor.resize_`: contiguous sizes over self's storage from its offset, which
    grows (zero-filled) when too small.

    Differences: growing allocates a new array, so other views of the old storage no longer
    share memory with self (torch reallocates the shared storage itself)."""
    if not sizes:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    if self._rg:
        from .._grad_mode import is_inference_mode_enabled

        # torch's autograd kernel checks it, which inference mode skips
        if not is_inference_mode_enabled():
            raise RuntimeError("cannot resize variables that require grad")
    shape = _resize_sizes(sizes)
    if memory_format is not None:
        from .._formats import _order

        if _order(memory_format, len(shape)) is not None:  # (torch's rank error otherwise)
            return _resize_to_format(self, shape, memory_format)
    if shape == self._data.shape:
        return self
    n = math.prod(shape)
    if self._base is not None:
        root = S._storage(self)
    else:  # the whole memory, as torch's storage keeps its size when a resize_ shrinks
        from .._tensor import _storage_root

        root = _storage_root(self._data)
    start = S.offset_of(self._data, root) if root.size else 0
    if root.flags.c_contiguous and start + n <= root.size:
        flat = root.reshape(-1)[start : start + n]
    else:
        flat = np.zeros(n, self._data.dtype)
        old = root.reshape(-1)[start:] if root.flags.c_contiguous else self._data.reshape(-1)
        flat[: min(n, old.size)] = old[:n]
    self._data = flat.reshape(shape)
    if self._inf:
        self._check_inplace()  # outside inference mode torch resizes, then raises
    else:
        self._bump()  # a new shape: torch counts a version
    return self


def _resize_to_format(self: Tensor, shape: tuple[int, ...], fmt: Any) -> Tensor:
    """resize_ to shape, then restrided to fmt (channels_last(_3d)) over the same elements."""
    from .._formats import _order
    from .._tensor import _storage_root

    n = math.prod(shape)
    root = _storage_root(self._data)  # the memory, in its own order (not self's logical one)
    start = S.offset_of(self._data, root) if root.size else 0
    if root.flags.c_contiguous and start + n <= root.size:
        flat = root.reshape(-1)[start : start + n]
    else:
        resize_(self, n)
        flat = self._data
    strides = [0] * len(shape)
    n = 1
    for d in reversed(_order(fmt, len(shape)) or ()):
        strides[d] = n * flat.itemsize
        n *= shape[d]
    self._data = np.ndarray(shape, flat.dtype, buffer=flat, strides=tuple(strides))
    return self


def resize_as_(self: Tensor, the_template: Any, *, memory_format: Any = None) -> Tensor:
    """Mirrors `Tensor.resize_as_`: resize_ to the template's shape (self keeps its dtype)."""
    if not isinstance(the_template, Tensor):
        raise TypeError(
            "resize_as_(): argument 'the_template' (position 1) must be Tensor, not "
            f"{type(the_template).__name__}"
        )
    return resize_(self, tuple(the_template._data.shape), memory_format=memory_format)


@functools.cache
def _resize_function() -> Any:
    from ..autograd import Function

    class Resize(Function):
        """torch's autograd Resize: a contiguous copy in the new shape (node ResizeBackward)."""

        @staticmethod
        def forward(ctx: Any, tensor: Tensor, sizes: tuple[int, ...]) -> Tensor:
            ctx.input_sizes = tuple(tensor.shape)
            return S.reshape(S.clone(tensor), sizes)

        @staticmethod
        def backward(ctx: Any, grad_output: Tensor) -> tuple[Tensor, None]:
            return S.reshape(grad_output, ctx.input_sizes), None

    return Resize


def resize(self: Tensor, *sizes: Any) -> Tensor:
    """Mirrors the deprecated `Tensor.resize`: torch's autograd Resize, same element count."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    shape = _resize_sizes(sizes, "resize")
    if math.prod(shape) != self._data.size:
        raise RuntimeError(
            f"requested resize to {'x'.join(map(str, shape))} ({math.prod(shape)} elements in "
            f"total), but the given tensor has a size of {'x'.join(map(str, self._data.shape))} "
            f"({self._data.size} elements). autograd's resize can only change the shape of a "
            "given tensor, while preserving the number of elements. "
        )
    return _resize_function().apply(self, shape)  # type: ignore[no-any-return]


def resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    """Mirrors the deprecated `Tensor.resize_as`."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return resize(self, tuple(tensor._data.shape))


# --- apply_, map_, map2_: a Python callable on every element --------------------------------


def _map_inplace(name: str, self: Tensor, fn: Any, *others: Any) -> Tensor:
    for k, o in enumerate(others):
        if not isinstance(o, Tensor):
            arg = ("other", "x", "y")[k + (len(others) == 2)]
            raise TypeError(
                f"{name}(): argument '{arg}' (position {k + 1}) must be Tensor, not "
                f"{type(o).__name__}"
            )
    if self._rg or any(o._rg for o in others):
        raise RuntimeError(
            f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() "
            "instead."
        )
    for k, o in enumerate(others):
        if o.dtype != self.dtype:
            arg = ("other", "x", "y")[k + (len(others) == 2)]
            what = "argument " if name == "map2_" else ""
            raise TypeError(f"{name}: expected {self.type()} for {what}'{arg}' (got {o.type()})")
    arrays = [S.expand(o, tuple(self._data.shape))._data for o in others]
    cast = bool if self._data.dtype == np.bool_ else (
        complex if self._data.dtype.kind == "c" else
        int if self._data.dtype.kind in "iu" else float
    )  # fmt: skip
    out = self._data
    with np.errstate(over="ignore"):  # a float beyond the dtype is inf, as torch's cast
        for idx in np.ndindex(out.shape):
            args = [out[idx].item(), *(a[idx].item() for a in arrays)]
            out[idx] = _to_number(fn(*args), cast, out.dtype)
    self._bump()
    return self


def _to_number(v: Any, cast: Any, dt: np.dtype) -> Any:
    if isinstance(v, Tensor):
        if v._data.size == 1:
            v = v._data.item()  # a one-element tensor: its value, as torch's unpacking
        elif cast is int:
            raise TypeError("only integer tensors of a single element can be converted to an index")
    if cast is not complex and not isinstance(v, (bool, int, float, np.number)):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    r = cast(v)
    if cast is int and dt.kind in "iu":
        info = np.iinfo(dt)
        if info.min == 0 and -info.max <= r < 0:
            r += info.max + 1  # a negative value into an unsigned type wraps
        elif not info.min <= r <= info.max:
            if dt == np.int64:  # beyond a C long long: the unpacking itself fails
                raise ValueError("Overflow when unpacking long long")
            raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow")
    return r


def apply_(self: Tensor, callable: Any) -> Tensor:
    """Mirrors `Tensor.apply_`: self[i] = callable(self[i]), element by element."""
    if self._rg:
        raise RuntimeError(
            "Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead."
        )
    return _map_inplace("apply_", self, callable)


def map_(self: Tensor, tensor: Any, callable: Any) -> Tensor:
    """Mirrors `Tensor.map_`: self[i] = callable(self[i], tensor[i]) (tensor broadcast)."""
    return _map_inplace("map_", self, callable, tensor)


def map2_(self: Tensor, x: Any, y: Any, callable: Any) -> Tensor:
    """Mirrors `Tensor.map2_`: self[i] = callable(self[i], x[i], y[i])."""
    return _map_inplace("map2_", self, callable, x, y)


# --- the non-view versions of the view ops (torch.view_copy, ...) and the unsafe splits ---


def _copy_of(view: Any, forward: Any = None) -> Any:
    base, dot, overload = view.op.name.partition(".")
    return _copy_op(view, f"{base}_copy{dot}{overload}", view.op.grad_fn + "_copy", forward)


_view_copy = _copy_of(S._view, lambda self, size, self_sym_sizes: self.reshape(size))
_expand_copy = _copy_of(S._expand)
_permute_copy = _copy_of(S._permute)
_t_copy = _copy_of(S._t)
_unsqueeze_copy = _copy_of(S._unsqueeze)
_squeeze_all_copy = _copy_of(S._squeeze_all)
_squeeze_dim_copy = _copy_of(S._squeeze_dim)
_squeeze_dims_copy = _copy_of(S._squeeze_dims)
_transpose_copy = _copy_of(S._transpose)
_select_copy = _copy_of(S._select)
_slice_copy = _copy_of(S._slice)
_alias_copy = _copy_of(S._alias)
_split_copy = _copy_of(S._split)
_split_with_sizes_copy = _copy_of(S._split_with_sizes)
_unbind_copy = _copy_of(S._unbind)
_unfold_copy = _copy_of(SX._unfold)
_as_strided_copy = _copy_of(S._as_strided)
_view_as_real_copy = _copy_of(P._view_as_real)
_view_as_complex_copy = _copy_of(P._view_as_complex)
_unsafe_split = _copy_op(S._split, "unsafe_split.Tensor", "UnsafeSplitBackward0", copy=False)
_unsafe_split_with_sizes = _copy_op(
    S._split_with_sizes, "unsafe_split_with_sizes", "UnsafeSplitWithSizesBackward0", copy=False
)


def _size_list(size: Any) -> tuple[Any, ...]:
    return tuple(size) if isinstance(size, (tuple, list)) else (size,)


def _split_sizes(parts: tuple[Tensor, ...], d: int) -> tuple[int, ...]:
    return tuple(p._data.shape[d] for p in parts)


# each resolver checks the arguments as the view function does (running it on a detached alias,
# for its errors) and returns the copy op with its arguments after input
def _view_dtype_copy(input: Tensor, dtype: Any) -> Tensor:
    # view(dtype) is no differentiable view: its copy records nothing either
    return _make(np.array(S.view(input.detach(), dtype)._data, order="C"))


def _r_view(x: Tensor, size: Any) -> Any:
    if isinstance(size, D.dtype):
        S.view(x.detach(), size)  # torch's checks of viewing as another dtype
        return _view_dtype_copy, (size,)
    if not isinstance(size, (tuple, list)):
        sigs = ("Tensor input, torch.dtype dtype, *, Tensor out = None",
                "Tensor input, tuple of ints size, *, Tensor out = None")  # fmt: skip
        raise _invalid_combination("view_copy", (x, size), sigs)
    shape = S._infer_size(tuple(size), x._data.size)
    return _view_copy, (shape, tuple(x._data.shape))


def _r_expand(x: Tensor, size: Any, *, implicit: bool = False) -> Any:
    shape = tuple(S.expand(x.detach(), _size_list(size))._data.shape)
    return _expand_copy, (shape, tuple(x._data.shape))


def _r_permute(x: Tensor, dims: Any) -> Any:
    S.permute(x.detach(), _size_list(dims))
    return _permute_copy, (tuple(wrap_dim(d, x.ndim) for d in _size_list(dims)),)


def _r_t(x: Tensor) -> Any:
    S.t(x.detach())
    return _t_copy, ()


def _r_unsqueeze(x: Tensor, dim: int) -> Any:
    return _unsqueeze_copy, (wrap_dim(dim, x.ndim + 1),)


def _r_squeeze(x: Tensor, dim: Any = None) -> Any:
    shape = tuple(x._data.shape)
    if dim is None:
        return _squeeze_all_copy, (shape,)
    if isinstance(dim, (tuple, list)):
        return _squeeze_dims_copy, (tuple(wrap_dim(d, x.ndim) for d in dim), shape)
    if x.ndim == 0:
        wrap_dim(dim, 0)
    return _squeeze_dim_copy, (wrap_dim(dim, x.ndim), shape)


def _r_transpose(x: Tensor, dim0: int, dim1: int) -> Any:
    return _transpose_copy, (wrap_dim(dim0, x.ndim), wrap_dim(dim1, x.ndim))


def _r_diagonal(x: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    d1, d2 = S._diag_dims(x.ndim, dim1, dim2)
    return S._diagonal_copy, (int(offset), d1, d2, tuple(x._data.shape))


def _r_select(x: Tensor, dim: int, index: int) -> Any:
    if x.ndim == 0:
        S.select(x, dim, index)  # torch's 0-d error
    d = wrap_dim(dim, x.ndim)
    n = x._data.shape[d]
    if not -n <= index < n:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"{shape_str(x._data.shape)} at dimension {d}"
        )
    return _select_copy, (d, int(index) % n, tuple(x._data.shape))


def _r_slice(
    x: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> Any:
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = wrap_dim(dim, x.ndim)
    a, b, s = slice(start, end, step).indices(x._data.shape[d])
    return _slice_copy, (d, a, max(a, b), s, tuple(x._data.shape))


def _r_alias(x: Tensor) -> Any:
    return _alias_copy, ()


def _r_split(x: Tensor, split_size: int, dim: int = 0, *, _op: Any = _split_copy) -> Any:
    d = wrap_dim(dim, x.ndim) if x.ndim else 0
    parts = S.split(x.detach(), int(split_size), dim)
    return _op, (int(split_size), _split_sizes(parts, d), d)


def _r_split_with_sizes(x: Tensor, split_sizes: Any, dim: int = 0, *, _op: Any = None) -> Any:
    parts = SX.split_with_sizes(x.detach(), split_sizes, dim)
    d = wrap_dim(dim, x.ndim)
    return _op or _split_with_sizes_copy, (_split_sizes(parts, d), d)


def _r_unbind(x: Tensor, dim: int = 0) -> Any:
    S.unbind(x.detach(), dim)
    return _unbind_copy, (wrap_dim(dim, x.ndim),)


def _r_unfold(x: Tensor, dimension: int, size: int, step: int) -> Any:
    SX.unfold(x.detach(), dimension, size, step)
    d = wrap_dim(dimension, x.ndim)
    return _unfold_copy, (d, int(size), int(step), tuple(x._data.shape))


def _r_as_strided(x: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Any:
    from .._grad_mode import no_grad

    with no_grad():  # torch's checks; the view's geometry gives the copy's arguments
        v = S.as_strided(x, size, stride, storage_offset)
    root = S._storage(x)
    idx = S.flat_map(S.positions(v._data, root), root, None if x._data is root else x._data)
    geometry = (tuple(v._data.shape), tuple(int(s) for s in stride), S.offset_of(v._data, root))
    return _as_strided_copy, (root, *geometry, idx, tuple(x._data.shape))


def _r_view_as_real(x: Tensor) -> Any:
    P.view_as_real(x.detach())  # the view function's checks
    return _view_as_real_copy, ()


def _r_view_as_complex(x: Tensor) -> Any:
    from .._grad_mode import is_grad_enabled

    P.view_as_complex(x.detach())
    if x._rg and is_grad_enabled():  # its complex output has no autograd formula in torch
        raise RuntimeError(
            "view_as_complex_copy does not support automatic differentiation for outputs with "
            "complex dtype."
        )
    return _view_as_complex_copy, ()


def _r_unsafe_split(x: Tensor, split_size: int, dim: int = 0) -> Any:
    return _r_split(x, split_size, dim, _op=_unsafe_split)


def _r_unsafe_split_with_sizes(x: Tensor, split_sizes: Any, dim: int = 0) -> Any:
    return _r_split_with_sizes(x, split_sizes, dim, _op=_unsafe_split_with_sizes)


def _r_unsafe_chunk(x: Tensor, chunks: int, dim: int = 0) -> Any:
    parts = S.chunk(x.detach(), chunks, dim)
    d = wrap_dim(dim, x.ndim)
    return _unsafe_split, (-(-x._data.shape[d] // chunks), _split_sizes(parts, d), d)


# the copies whose complex output torch's autograd refuses (no complex formula declared)
_NO_COMPLEX_AUTOGRAD = frozenset(("select_copy", "slice_copy"))


# the copies returning a list: their out= kernel's name in its length error; split_copy's copies
# into each out (copy_'s broadcast and cast), the others resize it and take its dtype only
_LIST_OUT = {
    "split_copy": "split_copy_Tensor_out()",
    "unbind_copy": "unbind_copy_int_out",
    "split_with_sizes_copy": "split_with_sizes_copy_out",
}
_NO_OUT = frozenset(("unsafe_split", "unsafe_chunk", "unsafe_split_with_sizes"))


def _list_out(name: str, results: Any, out: Any) -> None:
    if not isinstance(out, (tuple, list)) or not all(isinstance(o, Tensor) for o in out):
        raise TypeError(
            f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}"
        )
    if len(out) != len(results):
        raise RuntimeError(
            f"{_LIST_OUT[name]} expected an out= argument of size {len(results)}, got size "
            f"{len(out)}"
        )
    for r, o in zip(results, out, strict=True):
        if name == "split_copy":
            o.copy_(r.detach())
            continue
        if o.dtype is not r.dtype:
            raise RuntimeError(
                f"Expected out tensor to have dtype {D.CPP_NAMES[r.dtype]}, but got "
                f"{D.CPP_NAMES[o.dtype]} instead"
            )
        S.resize_out(r.detach(), o)


def _copy_function(name: str, resolve: Any) -> Callable[..., Any]:
    def fn(input: Any = _MISSING, *args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is not None and name in _NO_OUT:
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        _need_input(name, input)
        op, op_args = resolve(input, *args, **kwargs)
        if name in _NO_COMPLEX_AUTOGRAD and input._rg and input._data.dtype.kind == "c":
            SX._no_complex_autograd(name, input)
        if out is not None and name in _LIST_OUT:
            return _list_out(name, op(input, *op_args), out)
        return _out(op(input, *op_args), out, name)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `torch.{name}`: the view op's result copied, torch's node name."
    return fn


def detach_copy(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Mirrors `torch.detach_copy`: a copy recorded (as torch does) by a NotImplemented node."""
    _need_input("detach_copy", input)
    r = _not_implemented(_make(np.array(input._data, order="C")), (input,), "detach_copy")
    return _out(r, out, "detach_copy")


_COPIES = {
    "view_copy": _r_view,
    "expand_copy": _r_expand,
    "permute_copy": _r_permute,
    "t_copy": _r_t,
    "unsqueeze_copy": _r_unsqueeze,
    "squeeze_copy": _r_squeeze,
    "transpose_copy": _r_transpose,
    "diagonal_copy": _r_diagonal,
    "select_copy": _r_select,
    "slice_copy": _r_slice,
    "alias_copy": _r_alias,
    "split_copy": _r_split,
    "split_with_sizes_copy": _r_split_with_sizes,
    "unbind_copy": _r_unbind,
    "unfold_copy": _r_unfold,
    "as_strided_copy": _r_as_strided,
    "view_as_real_copy": _r_view_as_real,
    "view_as_complex_copy": _r_view_as_complex,
    "unsafe_split": _r_unsafe_split,
    "unsafe_split_with_sizes": _r_unsafe_split_with_sizes,
    "unsafe_chunk": _r_unsafe_chunk,
}
_COPY_FUNCTIONS = {n: _copy_function(n, r) for n, r in _COPIES.items()}


# --- torch.native_*: the normalizations and dropout with their saved statistics ------------


def _stat(a: np.ndarray, dtype: Any) -> Tensor:
    return _make(np.asarray(a, dtype=dtype))


def _mean_rstd(x: np.ndarray, axes: tuple[int, ...], eps: float) -> tuple[np.ndarray, ...]:
    acc = x.astype(np.float64)
    mean = acc.mean(axis=axes, keepdims=True)
    return mean, 1.0 / np.sqrt(acc.var(axis=axes, keepdims=True) + eps)


def native_layer_norm(
    input: Tensor, normalized_shape: Any, weight: Any, bias: Any, eps: float
) -> tuple[Tensor, Tensor, Tensor]:
    """Mirrors `torch.native_layer_norm`: (output, mean, rstd), the statistics kept with size 1
    in the normalized dimensions and without gradient."""
    out = _functional().layer_norm(input, normalized_shape, weight, bias, eps)
    n = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    axes = tuple(range(input.ndim - n, input.ndim))
    mean, rstd = _mean_rstd(input._data, axes, eps)
    return out, _stat(mean, input._data.dtype), _stat(rstd, input._data.dtype)


def native_batch_norm(
    input: Tensor,
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[Tensor, Tensor, Tensor]:
    """Mirrors `torch.native_batch_norm`: (output, save_mean, save_invstd); the batch's
    statistics per channel when training (running ones updated), empty ones in evaluation."""
    F = _functional()
    out = F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    dt = input._data.dtype
    if not training:
        return out, _stat(np.empty(0), dt), _stat(np.empty(0), dt)
    mean, rstd = _mean_rstd(input._data, (0, *range(2, input.ndim)), eps)
    return out, _stat(mean.ravel(), dt), _stat(rstd.ravel(), dt)


def native_group_norm(
    input: Tensor, weight: Any, bias: Any, N: int, C: int, HxW: int, group: int, eps: float
) -> tuple[Tensor, Tensor, Tensor]:
    """Mirrors `torch.native_group_norm`: (output, mean, rstd), the statistics of shape
    (N, group)."""
    out = _functional().group_norm(input, group, weight, bias, eps)
    mean, rstd = _mean_rstd(input._data.reshape(N, group, -1), (2,), eps)
    dt = input._data.dtype
    return out, _stat(mean.reshape(N, group), dt), _stat(rstd.reshape(N, group), dt)


# torch's backward scales by 1 when train is None, though its forward scales (derivatives.yaml)
_native_dropout = defop(
    "native_dropout",
    "NativeDropoutBackward0",
    lambda input, mask, scale, grad_scale: np.multiply(input * mask, scale, dtype=input.dtype),
    dtype="keep",
    nondiff=("mask",),
    jvp=lambda input_t, mask, grad_scale: input_t * mask * grad_scale,
    input=lambda grad, mask, grad_scale: grad * mask * grad_scale,
)


def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.native_dropout`: (output, keep mask); train=None drops as in training but
    (as torch's) backpropagates the mask unscaled."""
    from .. import _grad_mode, _random
    from .. import _rng_kernels as RK

    if input._data.size == 0:
        # torch's kernel returns the input itself and an uninitialized input-typed "mask"
        mask = _make(_random._like(input, None, None))
        if input._rg and _grad_mode.is_grad_enabled():
            return _native_dropout(input, mask.bool(), 1.0, 1.0), mask
        return input, mask
    if input._data.dtype.kind in "biu":
        # torch's: a train=False call returns the input's copy and an all-True mask; training
        # multiplies by the float scale into the input's dtype
        if train is None or train:
            raise RuntimeError(
                f"result type Float can't be cast to the desired output type {input.dtype._short}"
            )
        mask = _random._like(input, D.bool_, None)
        mask[...] = True  # torch's ones_like(input): laid out as the input
        return input.clone(), _make(mask)
    # torch: a bool empty_like(input) (its layout) filled by bernoulli_(1 - p), or ones_like
    mask = _random._like(input, D.bool_, None)
    if train is None or train:
        keep = 1.0 - p
        mask[...] = RK.place(RK.bernoulli_scalar(_random._gen(None), mask.size, keep), mask)
        scale = 0.0 if keep == 0 else 1.0 / keep
    else:
        mask[...] = True
        scale = 1.0
    mask_t = _make(mask)
    return _native_dropout(input, mask_t, scale, 1.0 if train is None else scale), _make(mask)


# --- recurrent cells and layers (torch.rnn_tanh_cell, ..., torch.lstm) ---------------------
# torch's CPU cells: the hidden projection plus the input projection, chunked with
# unsafe_chunk and activated in place, so the recorded nodes are torch's


def _cell_checks(input: Tensor, hx: list[Tensor], w_ih: Tensor, w_hh: Tensor, gates: int) -> None:
    hidden = w_hh.size(1)
    for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if w.size(0) != gates * hidden:
            raise RuntimeError(
                f"{name} first dim must be {gates} * hidden_size = {gates * hidden}, "
                f"but got {w.size(0)}"
            )
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(
            f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}"
        )
    for k, h in enumerate(hx):
        if input.size(0) != h.size(0):
            raise RuntimeError(
                f"Input batch size {input.size(0)} doesn't match hidden{k} batch size {h.size(0)}"
            )
        if h.size(1) != hidden:
            raise RuntimeError(
                f"hidden{k} has inconsistent hidden_size: got {h.size(1)}, expected {hidden}"
            )


def _gates(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Any, b_hh: Any) -> Tensor:
    F = _functional()
    return F.linear(hx, w_hh, b_hh).add_(F.linear(input, w_ih, b_ih))


def rnn_tanh_cell(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Any = None, b_hh: Any = None
) -> Tensor:
    """Mirrors `torch.rnn_tanh_cell`: tanh(hx W_hh^T + b_hh + input W_ih^T + b_ih)."""
    _cell_checks(input, [hx], w_ih, w_hh, 1)
    gates = _gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    # integer gates: torch's tanh makes a float tensor (in place it could not)
    return gates.tanh_() if gates.dtype.is_floating_point else gates.tanh()


def rnn_relu_cell(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Any = None, b_hh: Any = None
) -> Tensor:
    """Mirrors `torch.rnn_relu_cell`: relu(hx W_hh^T + b_hh + input W_ih^T + b_ih)."""
    _cell_checks(input, [hx], w_ih, w_hh, 1)
    return _gates(input, hx, w_ih, w_hh, b_ih, b_hh).relu_()


def gru_cell(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Any = None, b_hh: Any = None
) -> Tensor:
    """Mirrors `torch.gru_cell` (the reset gate scales the hidden projection of the new gate)."""
    _cell_checks(input, [hx], w_ih, w_hh, 3)
    F = _functional()
    i_r, i_z, i_n = F.linear(input, w_ih, b_ih).unsafe_chunk(3, 1)
    h_r, h_z, h_n = F.linear(hx, w_hh, b_hh).unsafe_chunk(3, 1)
    reset = h_r.add_(i_r).sigmoid_()
    update = h_z.add_(i_z).sigmoid_()
    new = i_n.add(h_n.mul_(reset)).tanh_()
    return (hx - new).mul_(update).add_(new)


def lstm_cell(
    input: Tensor,
    hx: Any,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Any = None,
    b_hh: Any = None,
) -> tuple[Tensor, Tensor]:
    """Mirrors `torch.lstm_cell`: hx is (h, c); returns (h', c')."""
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    h, c = hx
    _cell_checks(input, [h, c], w_ih, w_hh, 4)
    i, f, g, o = _gates(input, h, w_ih, w_hh, b_ih, b_hh).unsafe_chunk(4, 1)
    i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()
    cy = (f * c).add_(i * g)
    return o * cy.tanh(), cy


class _Recurrence:
    """What `nn.RNNBase._run` reads, from the arguments of `torch.rnn_tanh` and the others:
    the functional forms run the modules' recurrence (padded or packed) on the given weights."""

    def __init__(
        self, mode: str, params: Any, has_biases: bool, args: tuple[Any, ...], proj: int = 0
    ) -> None:
        num_layers, dropout, train, bidirectional, batch_first = args
        self.mode, self.bias, self.num_layers = mode, bool(has_biases), int(num_layers)
        self.dropout, self.training = float(dropout), bool(train)
        self.bidirectional, self.batch_first = bool(bidirectional), bool(batch_first)
        self.proj_size = proj
        self._flat_weights = list(params)
        per = (4 if has_biases else 2) + (1 if proj else 0)
        if len(params) % per:
            raise RuntimeError("got an incorrect number of RNN parameters")
        self._all_weights = [self._flat_weights[k : k + per] for k in range(0, len(params), per)]

    def _direction(self, *args: Any) -> Any:
        from ..nn.modules.rnn import RNNBase

        return RNNBase._direction(self, *args)  # type: ignore[arg-type]

    def run(self, input: Tensor, hiddens: list[Any], batch_sizes: Any) -> tuple[Tensor, Any]:
        from ..nn.modules.rnn import RNNBase

        dirs = 2 if self.bidirectional else 1
        if dirs == 2 and (len(self._all_weights) % 2 or len(hiddens) % 2):
            raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
        if len(hiddens) != self.num_layers * dirs:
            raise RuntimeError("Expected more hidden states in stacked_rnn")
        if len(self._all_weights) != self.num_layers * dirs:
            raise RuntimeError("Expected more weights in stacked_rnn")
        sizes = None if batch_sizes is None else [int(b) for b in batch_sizes.tolist()]
        if not self.batch_first:
            return RNNBase._run(self, input, hiddens, sizes)  # type: ignore[arg-type]
        self.batch_first = False  # torch turns the output back with transpose_ (LSTM: transpose)
        output, finals = RNNBase._run(self, input.transpose(0, 1), hiddens, sizes)  # type: ignore[arg-type]
        if self.mode == "LSTM":
            return output.transpose(0, 1), finals
        return output.transpose_(0, 1), finals


def _rnn_function(mode: str) -> Callable[..., Any]:
    name = mode.lower()

    def fn(input: Tensor, hx: Any, params: Any, has_biases: Any, *args: Any) -> Any:
        if isinstance(hx, Tensor) and isinstance(params, Tensor):  # (data, batch_sizes, hx, ...)
            data, batch_sizes, hx, params, has_biases = input, hx, params, has_biases, args[0]
            args = (*args[1:], False)
        else:
            data, batch_sizes = input, None
        rnn = _Recurrence(mode, params, has_biases, args)
        output, finals = rnn.run(data, list(hx.unbind(0)), batch_sizes)
        return output, S.stack(finals, 0)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (
        f"Mirrors `torch.{name}(input, hx, params, has_biases, num_layers, dropout, train, "
        "bidirectional, batch_first)` and its packed form `(data, batch_sizes, hx, params, "
        "...)`: returns (output, h_n)."
    )
    return fn


def lstm(input: Tensor, hx: Any, params: Any, has_biases: Any, *args: Any) -> Any:
    """Mirrors `torch.lstm(input, hx, params, has_biases, num_layers, dropout, train,
    bidirectional, batch_first)` and its packed form: returns (output, h_n, c_n)."""
    if isinstance(hx, Tensor):  # (data, batch_sizes, hx, params, has_biases, ...)
        data, batch_sizes, hx, params, has_biases = input, hx, params, has_biases, args[0]
        args = (*args[1:], False)
    else:
        data, batch_sizes = input, None
    if len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    # (a float32 LSTM with projections warns once per process, in use_mkldnn_lstm, as torch)
    proj = hx[0].size(2) if hx[0].size(2) != hx[1].size(2) else 0
    from .nn_fused import mkldnn_lstm, use_mkldnn_lstm

    rnn = _Recurrence("LSTM", params, has_biases, args, proj)
    dirs = 2 if rnn.bidirectional else 1
    counts = len(rnn._all_weights) == len(hx[0]) == rnn.num_layers * dirs
    if batch_sizes is None and counts and use_mkldnn_lstm(data, proj, False):
        return mkldnn_lstm(
            data, hx[0], hx[1], rnn._flat_weights, rnn.bias, rnn.num_layers, rnn.dropout,
            rnn.training, rnn.bidirectional, rnn.batch_first,
        )  # fmt: skip
    states = list(zip(hx[0].unbind(0), hx[1].unbind(0), strict=True))
    output, finals = rnn.run(data, states, batch_sizes)
    return output, S.stack([f[0] for f in finals], 0), S.stack([f[1] for f in finals], 0)


# --- simple Tensor methods -----------------------------------------------------------------


_NEW_SIGS = (
    "*, torch.device device = None",
    "torch.Storage storage",
    "Tensor other",
    "tuple of ints size, *, torch.device device = None",
    "object data, *, torch.device device = None",
)


def _options(dt: D.dtype) -> str:
    return (
        f"TensorOptions(dtype={D.CPP_NAMES.get(dt, dt)}, device=cpu, layout=Strided, "
        "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))"
    )


def new(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Mirrors the legacy `Tensor.new`: new(), new(*sizes), new(size: torch.Size), new(data)
    (a sequence, in self's dtype) or new(other) (other's alias; other must have self's dtype)."""
    from .._creation import _factory, tensor
    from .._size import Size
    from .._tensor import device

    bad = [k for k in kwargs if k not in ("device", "size")]
    if bad:
        given = [type(a).__name__ for a in args]
        given += [
            f"{k}={'torch.dtype' if isinstance(v, D.dtype) else type(v).__name__}"
            for k, v in kwargs.items()
        ]
        why = f"      didn't match because some of the keywords were incorrect: {', '.join(bad)}\n"
        lines = "".join(
            f" * ({sig})\n" + (why if k == 0 else "") for k, sig in enumerate(_NEW_SIGS)
        )
        raise TypeError(
            f"new() received an invalid combination of arguments - got ({', '.join(given)}), "
            f"but expected one of:\n{lines}"
        )
    dev = kwargs.get("device")
    if dev is not None and device(dev).type != "cpu":
        raise RuntimeError(
            f"legacy constructor expects device type: cpu but device type: {device(dev).type} "
            "was passed"
        )
    if "size" in kwargs:
        args = (*args, Size(kwargs["size"]))
    if not args:
        return _factory(0, (0,), self.dtype, False)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if first.dtype is not self.dtype:
            raise TypeError(f"expected {_options(self.dtype)} (got {_options(first.dtype)})")
        return S._alias(first)
    if len(args) == 1 and isinstance(first, Size):
        return _factory(0, tuple(first), self.dtype, False)
    if len(args) == 1 and isinstance(first, (list, tuple, np.ndarray)):
        return tensor(first, dtype=self.dtype)
    for k, a in enumerate(args):
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            if len(args) == 1 and isinstance(a, (float, complex, bool)):
                raise TypeError(f"new(): data must be a sequence (got {type(a).__name__})")
            if len(args) == 1:
                raise TypeError(f"new(): invalid data type '{type(a).__name__}'")
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {k + 1} with error "
                f'"type must be tuple of ints,but got {type(a).__name__}"'
            )
    return _factory(0, tuple(int(a) for a in args), self.dtype, False)


# Tensor.cfloat and Tensor.cdouble: self in complex64/complex128 (ToCopyBackward0; self when
# already), as Tensor.float and its siblings
cfloat = S._cast_method(D.complex64, "cfloat")
cdouble = S._cast_method(D.complex128, "cdouble")


def _channels_last(sizes: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """torch's channels-last contiguity of a 4-d layout (dims C, W, H, N innermost first)."""
    if len(sizes) != 4:
        return False
    expected = 1
    for d in (1, 3, 2, 0):
        if sizes[d] != 1:
            if strides[d] != expected:
                return False
            expected *= sizes[d]
    return True


def _dim_compare(sizes: tuple[int, ...], strides: tuple[int, ...], a: int, b: int) -> int:
    """torch's elementwise-output comparison of dims a and b: 1 swap, -1 keep, 0 ambiguous."""

    def ge(u: int, v: int) -> bool:
        return v == 0 or (u != 0 and (u >= v or u % v == 0))

    sa, sb = strides[a], strides[b]
    if sa == 0 or sb == 0:
        return 0
    if sa == sb:
        return 0 if ge(sizes[b], sizes[a]) else 1
    if ge(sb, sa):
        return -1
    return 1 if ge(sa, sb) else 0


def dim_order(self: Tensor, *, ambiguity_check: Any = False) -> tuple[int, ...]:
    """Mirrors `Tensor.dim_order`: the dims from outermost to innermost in memory (torch's
    elementwise-output permutation). A list of memory formats for ambiguity_check accepts a
    tensor with several dim orders when exactly one of the formats fits it."""
    from .._formats import memory_format

    formats: list[Any] = []
    if not isinstance(ambiguity_check, bool):
        if not isinstance(ambiguity_check, list) or not all(
            isinstance(f, memory_format) for f in ambiguity_check
        ):
            raise TypeError(
                "The ambiguity_check argument must be a bool or a list of memory formats."
            )
        formats = ambiguity_check
    sizes, strides = tuple(self.shape), self.stride()
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    multiple = any(u == v for u, v in itertools.pairwise(strides)) or 1 in sizes
    if check and multiple and sum(bool(self.is_contiguous(memory_format=f)) for f in formats) != 1:
        raise RuntimeError(
            "The tensor does not have unique dim order, or cannot map to exact one of the given "
            "memory formats."
        )
    n = len(sizes)
    if n <= 1:
        return tuple(range(n))
    contiguous, last = self.is_contiguous(), _channels_last(sizes, strides)
    if contiguous and not last:
        return tuple(range(n))
    if last and not contiguous:
        return (0, *range(2, n), 1)
    perm = list(reversed(range(n)))  # sorted innermost first, reversed at the end
    for i in range(1, n):
        j = i
        for k in reversed(range(i)):
            c = _dim_compare(sizes, strides, perm[k], perm[j])
            if c > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif c < 0:
                break
    if ambiguity_check and any(
        _dim_compare(sizes, strides, perm[i], perm[i + 1]) != -1 for i in range(n - 1)
    ):
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(reversed(perm))


def _storage_root(a: np.ndarray) -> np.ndarray:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def is_set_to(self: Tensor, tensor: Any) -> bool:
    """Mirrors `Tensor.is_set_to`: the same storage, offset, sizes and strides."""
    if not isinstance(tensor, Tensor):
        raise TypeError(
            "is_set_to(): argument 'tensor' (position 1) must be Tensor, not "
            f"{type(tensor).__name__}"
        )
    a, b = self._data, tensor._data
    return (
        _storage_root(a) is _storage_root(b)
        and self.data_ptr() == tensor.data_ptr()
        and a.shape == b.shape
        and self.stride() == tensor.stride()
    )


def is_neg(self: Tensor) -> bool:
    """Mirrors `Tensor.is_neg` (a negative view: ops/views.py)."""
    from .views import is_neg as _is_neg

    return _is_neg(self)


def resolve_neg(self: Tensor) -> Tensor:
    """Mirrors `Tensor.resolve_neg`: a materialized copy of a negative view, else self."""
    return self.clone() if is_neg(self) else self


METHODS: dict[str, Any] = {
    "resize_": resize_,
    "resize_as_": resize_as_,
    "resize": resize,
    "resize_as": resize_as,
    "apply_": apply_,
    "map_": map_,
    "map2_": map2_,
    "unsafe_chunk": _COPY_FUNCTIONS["unsafe_chunk"],
    "unsafe_split": _COPY_FUNCTIONS["unsafe_split"],
    "unsafe_split_with_sizes": _COPY_FUNCTIONS["unsafe_split_with_sizes"],
    "is_neg": is_neg,
    "new": new,
    "cfloat": cfloat,
    "cdouble": cdouble,
    "dim_order": dim_order,
    "is_set_to": is_set_to,
    "resolve_neg": resolve_neg,
    "is_cpu": property(
        lambda self: type(self._data) is np.ndarray or not self.is_meta,
        doc="Mirrors `Tensor.is_cpu`: True but on the meta device.",
    ),
}
FUNCTIONS: dict[str, Any] = {
    **{n: _method_function(n) for n in _METHOD_FUNCTIONS},
    **{n: _dropout_function(n, *spec) for n, spec in _DROPOUTS.items()},
    "selu_": selu_,
    "celu_": celu_,
    "threshold_": threshold_,
    "rrelu": rrelu,
    "rrelu_": rrelu_,
    "batch_norm": batch_norm,
    "instance_norm": instance_norm,
    "bilinear": bilinear,
    "constant_pad_nd": constant_pad_nd,
    "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
    "cosine_embedding_loss": cosine_embedding_loss,
    "margin_ranking_loss": margin_ranking_loss,
    "hinge_embedding_loss": hinge_embedding_loss,
    "kl_div": kl_div,
    "poisson_nll_loss": poisson_nll_loss,
    "triplet_margin_loss": triplet_margin_loss,
    "pdist": pdist,
    "max_pool3d": max_pool3d,
    "max_pool1d_with_indices": max_pool1d_with_indices,
    "adaptive_max_pool1d": adaptive_max_pool1d,
    "chain_matmul": chain_matmul,
    "fill": fill,
    "resize_as_": resize_as_,
    "detach_copy": detach_copy,
    **_COPY_FUNCTIONS,
    "native_layer_norm": native_layer_norm,
    "native_batch_norm": native_batch_norm,
    "native_group_norm": native_group_norm,
    "native_dropout": native_dropout,
    "rnn_tanh_cell": rnn_tanh_cell,
    "rnn_relu_cell": rnn_relu_cell,
    "gru_cell": gru_cell,
    "lstm_cell": lstm_cell,
    "rnn_tanh": _rnn_function("RNN_TANH"),
    "rnn_relu": _rnn_function("RNN_RELU"),
    "gru": _rnn_function("GRU"),
    "lstm": lstm,
}
