"""Layers of torch.nn.functional beyond the core: normalization, resampling, and pixel and
channel shuffles.

Part of `shadowgrad.nn.functional` (re-exported there); mirrors `torch.nn.functional`.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from .. import _creation as C
from .. import _dtype as D
from .._grad_mode import no_grad
from .._tensor import Tensor
from ..ops import resample as R
from . import functional as F

__all__: list[str] = [
    "affine_grid",
    "channel_shuffle",
    "conv_tbc",
    "embedding_bag",
    "grid_sample",
    "gumbel_softmax",
    "interpolate",
    "local_response_norm",
    "multi_head_attention_forward",
    "native_channel_shuffle",
    "pixel_shuffle",
    "pixel_unshuffle",
    "rms_norm",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
]

# torch.nn.functional re-exports these torch ops as they are
pixel_shuffle = R.pixel_shuffle
pixel_unshuffle = R.pixel_unshuffle
channel_shuffle = R.channel_shuffle
native_channel_shuffle = R.native_channel_shuffle
conv_tbc = R.conv_tbc


def multi_head_attention_forward(*args: Any, **kwargs: Any) -> Any:
    """Mirrors `torch.nn.functional.multi_head_attention_forward`: MultiheadAttention's own
    functional form (shadowgrad/nn/modules/attention.py), imported when first called because
    the layers import this module."""
    from .modules.attention import multi_head_attention_forward as mha

    return mha(*args, **kwargs)


def rms_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.rms_norm`."""
    if not isinstance(input, Tensor):
        raise F._not_tensor("rms_norm", "input", 1, input)
    F._check_int_list("rms_norm", "normalized_shape", 2, normalized_shape)
    if weight is not None and not isinstance(weight, Tensor):
        raise F._not_tensor("rms_norm", "weight", 3, weight)
    return R.rms_norm(input, normalized_shape, weight, eps)


def local_response_norm(
    input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Tensor:
    """Mirrors `torch.nn.functional.local_response_norm`, composed as torch composes it: the
    squares averaged over `size` neighbouring channels by a zero-padded average pool."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(
            f"Expected 3D or higher dimensionality                          input (got {dim} "
            "dimensions)"
        )
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = F.pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = F.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        pool3d = getattr(F, "avg_pool3d", None)
        if pool3d is not None:  # torch's own composition
            div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
            div = F.pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
            div = pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        else:  # the same windows, pooled in 2-d over the flattened spatial dims
            div = div.reshape(sizes[0], 1, sizes[1], -1)
            div = F.pad(div, (0, 0, size // 2, (size - 1) // 2))
            div = F.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# --- interpolate --------------------------------------------------------------------------

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
# (mode, spatial dims) -> torch's kernel family in ops.resample
_KERNEL_OF = {
    **{("nearest", n): "nearest" for n in (1, 2, 3)},
    **{("nearest-exact", n): "nearest-exact" for n in (1, 2, 3)},
    ("linear", 1): "linear",
    ("bilinear", 2): "linear",
    ("trilinear", 3): "linear",
    ("bicubic", 2): "cubic",
}
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _is_integer(v: Any) -> bool:
    if isinstance(v, Tensor):
        return not v.dtype.is_floating_point and not v.dtype.is_complex and v.ndim == 0
    return isinstance(v, numbers.Integral)


def interpolate(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Mirrors `torch.nn.functional.interpolate` (modes nearest, nearest-exact, linear,
    bilinear, bicubic, trilinear and area, antialiased bilinear and bicubic; area is an adaptive
    average pool, as in torch)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    spatial = list(input.shape[2:])
    scales: Any = None
    tensor_scales: Any = None
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {spatial} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                    "size in (o1, o2, ...,oK) format."
                )
            if not all(_is_integer(v) for v in size):
                raise TypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    f"Tuple[int, int, int], but got size with types {[type(v) for v in size]}"
                )
            output_size: Any = [int(v) for v in size]
        elif not _is_integer(size):  # torch passes [size] * dim on, for the kernel to refuse
            output_size = [size] * dim
        else:
            output_size = [int(size)] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, "
                    f"but got input with spatial dimensions of {spatial} and scale_factor of "
                    f"shape {scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                    "format and scale_factor in (s1, s2, ...,sK) format."
                )
            if any(isinstance(v, Tensor) for v in scale_factor):
                tensor_scales = scale_factor
            scales = [float(s) for s in scale_factor]
        else:
            if isinstance(scale_factor, Tensor):
                tensor_scales = [scale_factor] * dim
            scales = [float(scale_factor)] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(n * s) for n, s in zip(spatial, scales, strict=True)]
        scales = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires "
            "a 4-D tensor as input"
        )
    if output_size is not None and not all(type(v) is int for v in output_size):
        _non_int_size(mode, dim, antialias, output_size)
    if tensor_scales is not None and not recompute_scale_factor and mode != "area":
        _non_int_size(mode, dim, antialias, None, tensor_scales)
    if mode == "area" and 1 <= dim <= 3:
        pool = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d}.get(dim)
        if pool is None:
            pool = F.adaptive_avg_pool3d  # type: ignore[attr-defined]
        return pool(input, output_size)
    kernel = _KERNEL_OF.get((mode, dim))
    if antialias and kernel is not None:
        kernel = "aa-" + kernel
    if kernel is not None:
        if output_size is None:  # torch's compute_output_size: floor(size * scale)
            output_size = [int(n * s) for n, s in zip(spatial, scales, strict=True)]
        per_dim = scales if scales is not None else [None] * dim
        out = R.upsample(input, kernel, tuple(output_size), per_dim, bool(align_corners))
        return F._kernel_layout(out, input)
    if mode in _NEEDS and 3 <= input.dim() <= 5:
        raise NotImplementedError(
            f"Got {input.dim()}D input, but {mode} mode needs {_NEEDS[mode]}D input"
        )
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the "
        f"modes: {_MODES} (got {mode})"
    )


def _non_int_size(
    mode: str, dim: int, antialias: bool, size: list[Any] | None, scales: Any = None
) -> None:
    """torch's argument-parser error for a non-integer size (a number size is passed on as
    [size] * dim) or a scale factor holding tensors (`scales`, as passed on) reaching the
    kernel."""
    name = {
        "nearest": f"upsample_nearest{dim}d",
        "nearest-exact": f"_upsample_nearest_exact{dim}d",
        "linear": "upsample_linear1d",
        "bilinear": "upsample_bilinear2d",
        "bicubic": "upsample_bicubic2d",
        "trilinear": "upsample_trilinear3d",
    }.get(mode)
    if mode == "area" and 1 <= dim <= 3 and size is not None:
        bad = next(i for i, v in enumerate(size) if not _is_integer(v))
        raise TypeError(
            f"adaptive_avg_pool{dim}d(): argument 'output_size' (position 2) must be tuple of "
            f"ints, but found element of type {type(size[bad]).__name__} at pos {bad}"
        )
    if name is None or _KERNEL_OF.get((mode, dim)) is None:
        return  # the unsupported-mode errors come first
    if antialias:
        name = f"_{name}_aa"
    align = mode not in ("nearest", "nearest-exact")
    scale_args = ", ".join(
        f"float scales{'_' + d if dim > 1 else ''} = None" for d in "dhw"[3 - dim :]
    )
    a = ", bool align_corners" if align else ""
    b = "bool, " if align else ""
    if size is not None:
        got = f"list, {b}NoneType"
        marked = f"!list of [{', '.join(type(v).__name__ for v in size)}]!, {b}!NoneType!"
    else:
        kind = type(scales).__name__
        names = ", ".join(type(v).__name__ for v in scales)
        seq = f"[{names}]" if kind == "list" else f"({names})"
        got = f"NoneType, {b}{kind}"
        marked = f"!NoneType!, {b}!{kind} of {seq}!"
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got (Tensor, {got}), but "
        "expected one of:\n"
        f" * (Tensor input, tuple of ints output_size{a}, tuple of floats scale_factors)\n"
        f"      didn't match because some of the arguments have invalid types: (Tensor, {marked})\n"
        f" * (Tensor input, tuple of ints output_size{a}, {scale_args}, *, Tensor out = None)\n"
    )


def upsample(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.upsample` (deprecated: warns, then interpolates)."""
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Mirrors `torch.nn.functional.upsample_nearest` (deprecated: warns, then interpolates)."""
    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Mirrors `torch.nn.functional.upsample_bilinear` (deprecated: warns, then interpolates
    with align_corners=True)."""
    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# --- spatial transformers -----------------------------------------------------------------

_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def grid_sample(
    input: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.grid_sample` (GridSampler2DBackward0 and
    GridSampler3DBackward0; GridSampler2DBackwardBackward0 differentiates again, its graph
    composed otherwise than torch's)."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not (isinstance(input, Tensor) and isinstance(grid, Tensor)):
        F._check_tensors("grid_sampler", ("input", "grid"), input, grid)
    mode_enum = ("bilinear", "nearest", "bicubic").index(mode)
    pad_enum = ("zeros", "border", "reflection").index(padding_mode)
    return R.grid_sampler(input, grid, mode_enum, pad_enum, align_corners)


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """Mirrors `torch.nn.functional.affine_grid` (AffineGridGeneratorBackward0)."""
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    shape = tuple(theta.shape)
    if len(size) in (4, 5):
        d = len(size) - 2
        if theta.dim() != 3 or shape[-2] != d or shape[-1] != d + 1:
            raise ValueError(
                f"Expected a batch of {d}D affine matrices of shape Nx{d}x{d + 1} for size "
                f"{size}. Got {theta.shape}."
            )
        spatial = size[-d:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    if align_corners and min(spatial) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if shape[0] != size[0]:  # torch's baddbmm of the base grid and theta
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{size[0]}, "
            f"{d + 1}] but got: [{shape[0]}, {d + 1}]."
        )
    return R.affine_grid_generator(theta, size, align_corners)


# --- embedding_bag ------------------------------------------------------------------------


def _type_str(v: Any) -> str:
    return "<class 'torch.Tensor'>" if isinstance(v, Tensor) else str(type(v))


def _check_bag_indices(
    input: Tensor,
    offsets: Tensor,
    weight: Tensor,
    include_last_offset: bool,
    per_sample_weights: Tensor | None = None,
) -> None:
    """torch's _embedding_bag checks of the indices and offsets, in its order."""
    for t in (input, offsets):
        if t.dtype is not D.int64 and t.dtype is not D.int32:
            raise RuntimeError(
                "Expected tensor for argument #1 'indices' to have one of the following scalar "
                f"types: Long, Int; but got {F._type_name(t.dtype)} instead (while checking "
                "arguments for embedding_bag)"
            )
    if not weight.dtype.is_floating_point:
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have one of the following scalar types: "
            f"Half, BFloat16, Float, Double; but got {F._type_name(weight.dtype)} instead (while "
            "checking arguments for embedding_bag)"
        )
    if per_sample_weights is not None and per_sample_weights.dtype is not weight.dtype:
        raise RuntimeError(
            "Expected tensor for argument #1 'weight' to have the same type as tensor for "
            f"argument #1 'per_sample_weights'; but type {F._type_name(weight.dtype)} does not "
            f"equal {F._type_name(per_sample_weights.dtype)} (while checking arguments for "
            "embedding_bag)"
        )
    off = offsets._data
    n = input.numel()
    if off.size:
        if off[0] != 0:
            raise RuntimeError(
                "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                f"from position 0. However, got {off[0]}\n[ {offsets.dtype._legacy}{{}} ]"
            )
        if off[-1] > n:
            raise RuntimeError(
                f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                f"{off[-1]}"
            )
    idx = input._data.reshape(-1)
    bad = np.flatnonzero((idx < 0) | (idx >= weight.shape[0]))
    if bad.size:
        i = int(bad[0])
        raise RuntimeError(
            f"Index {i} of input takes value {idx[i]} which is not in the valid range "
            f"[0, {weight.shape[0]})"
        )


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """Mirrors `torch.nn.functional.embedding_bag` (EmbeddingBagBackward0). Differences:
    sparse gradients are dense."""
    if str(weight.dtype) == "torch.int64" and input.is_floating_point():
        warnings.warn(
            "Argument order of nn.functional.embedding_bag was changed. Usage "
            "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
            "`embedding_bag(input, weight, ...)`.",
            stacklevel=2,
        )
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
            f"then it must have the same shape as the input ({input.shape})"
        )
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"{_type_str(offsets)}"
            )
        offsets = C.arange(0, input.numel(), input.size(1), dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    modes = ("sum", "mean", "max")
    if mode not in modes:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:  # torch renormalizes the looked-up rows in place, untracked
        with no_grad():
            F.embedding(input, weight, max_norm=max_norm, norm_type=norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        )
    if padding_idx is not None and not -weight.shape[0] <= padding_idx < weight.shape[0]:
        n = weight.shape[0]
        raise RuntimeError(
            f"padding_idx must be within the number of embeddings, -{n} through {n - 1}, but got "
            f"{padding_idx}"
        )
    _check_bag_indices(input, offsets, weight, include_last_offset, per_sample_weights)
    off = offsets._data
    if off.size > 1 and (np.diff(off) < 0).any():
        if mode != "max":  # torch's sum/mean kernel asserts its bags' ranges
            raise RuntimeError(
                "Expected i < index_size to be true, but got false.  (Could this error message "
                "be improved?  If so, please report an enhancement request to PyTorch.)"
            )
        if not include_last_offset:
            # torch's max kernel bags index j with the offsets at or before it (make_offset2bag:
            # a cumulative count), still contiguous runs: the offsets those runs start at
            n = input.numel()
            counts = np.zeros(n + 1, np.int64)
            np.add.at(counts, off, 1)
            counts[0] -= 1
            bag = np.cumsum(counts)[:n]
            starts = np.searchsorted(bag, np.arange(off.size), side="left")
            offsets = C.tensor(starts.astype(off.dtype))
    if sparse and mode != "max" and weight.requires_grad:
        from ..sparse._coo import sparse_embedding_bag

        return sparse_embedding_bag(
            weight, input, offsets, scale_grad_by_freq, modes.index(mode),
            per_sample_weights, include_last_offset, padding_idx,
        )  # fmt: skip
    return R.embedding_bag(
        weight,
        input,
        offsets,
        scale_grad_by_freq,
        modes.index(mode),
        sparse,
        per_sample_weights,
        include_last_offset,
        padding_idx,
    )[0]


# --- gumbel_softmax -----------------------------------------------------------------------


def gumbel_softmax(
    logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """Mirrors `torch.nn.functional.gumbel_softmax`, composed as torch composes it (Gumbel
    noise from exponential_; hard: a one-hot of the argmax, straight-through the soft
    sample's gradient)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    if not isinstance(logits, Tensor):
        raise F._not_tensor("empty_like", "input", 1, logits)
    gumbels = -C.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = C.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
