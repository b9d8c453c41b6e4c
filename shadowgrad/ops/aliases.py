"""torch's top-level spellings of ops shadowgrad already has: the in-place functions
(`torch.relu_`, `torch.sigmoid_`, ...), the functional layers torch also exports at top level
(`torch.batch_norm`, `torch.layer_norm`, ...), and other aliases.

The nn functionals are imported when called: this family loads before `shadowgrad.nn`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from .._tensor import Tensor
from .pointwise import _invalid_combination, _out

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
    fn.__doc__ = f"Mirrors `torch.{name}(input, p, train)` (the mask from shadowgrad's generator)."
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
    """Mirrors `torch.rrelu` (the slopes from shadowgrad's generator)."""
    return _functional().rrelu(input, lower, upper, training)


def rrelu_(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator: Any = None,
) -> Tensor:
    """Mirrors `torch.rrelu_`."""
    return _functional().rrelu(input, lower, upper, training, True)


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


_CHAIN_WARNED = False


# --- simple Tensor methods -----------------------------------------------------------------


def is_neg(self: Tensor) -> bool:
    """Mirrors `Tensor.is_neg`: shadowgrad has no lazy negation bit, so always False."""
    return False


def resolve_neg(self: Tensor) -> Tensor:
    """Mirrors `Tensor.resolve_neg`: self, as torch's for a tensor without the negative bit."""
    return self


METHODS: dict[str, Any] = {
    "is_neg": is_neg,
    "resolve_neg": resolve_neg,
    "is_cpu": property(lambda self: True, doc="Mirrors `Tensor.is_cpu`: always True."),
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
}
