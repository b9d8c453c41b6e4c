"""Bad inputs to nn.functional and the matching nn modules: torch's exception type and wording.

Each case is one call written once against the torch API and run on torch and shadowgrad; the
exception (type and normalized message) must match, or, where torch accepts the input, the
result's shape and dtype. A known difference is listed in XFAIL with the file its fix belongs in.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("torch")

import torch

import shadowgrad

from .engines import raises
from .program_set import case_params


def _o(T: Any, *shape: int, dt: str = "float32") -> Any:
    return T.ones(*shape, dtype=getattr(T, dt))


def _i(T: Any, *vals: Any) -> Any:
    return T.tensor(list(vals))


Case = Callable[[Any], Any]

# --- convolution ----------------------------------------------------------------------------

CONV: dict[str, Case] = {
    "conv1d_ndim": lambda T: T.nn.functional.conv1d(_o(T, 2), _o(T, 1, 1, 1)),
    "conv1d_4d_input": lambda T: T.nn.functional.conv1d(_o(T, 1, 1, 3, 3), _o(T, 1, 1, 1)),
    "conv2d_ndim": lambda T: T.nn.functional.conv2d(_o(T, 1, 5), _o(T, 1, 1, 1, 1)),
    "conv3d_ndim": lambda T: T.nn.functional.conv3d(_o(T, 1, 5, 5), _o(T, 1, 1, 1, 1, 1)),
    "conv2d_weight_ndim": lambda T: T.nn.functional.conv2d(_o(T, 1, 2, 5, 5), _o(T, 2, 2, 2)),
    "conv2d_channels": lambda T: T.nn.functional.conv2d(_o(T, 1, 3, 5, 5), _o(T, 2, 2, 2, 2)),
    "conv2d_unbatched_channels": lambda T: T.nn.functional.conv2d(
        _o(T, 3, 5, 5), _o(T, 2, 2, 2, 2)
    ),
    "conv2d_groups_channels": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 4, 5, 5), _o(T, 2, 1, 2, 2), groups=2
    ),
    "conv2d_groups_out": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 3, 1, 2, 2), groups=2
    ),
    "conv2d_groups0": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), groups=0
    ),
    "conv2d_stride0": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), stride=0
    ),
    "conv2d_stride_neg": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), stride=-1
    ),
    "conv2d_padding_neg": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), padding=-1
    ),
    "conv2d_dilation0": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), dilation=0
    ),
    "conv2d_stride_len": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), stride=(1, 1, 1)
    ),
    "conv2d_padding_bad_str": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), padding="full"
    ),
    "conv2d_same_strided": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), padding="same", stride=2
    ),
    "conv2d_kernel_too_big": lambda T: T.nn.functional.conv2d(_o(T, 1, 1, 3, 3), _o(T, 1, 1, 5, 5)),
    "conv2d_kernel_fits_padded": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 1, 3, 3), _o(T, 1, 1, 5, 5), padding=1
    ),
    "conv1d_kernel_too_big": lambda T: T.nn.functional.conv1d(_o(T, 1, 1, 2), _o(T, 1, 1, 4)),
    "conv3d_kernel_too_big": lambda T: T.nn.functional.conv3d(
        _o(T, 1, 1, 2, 2, 2), _o(T, 1, 1, 3, 3, 3)
    ),
    "conv2d_dilated_too_big": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 1, 4, 4), _o(T, 1, 1, 2, 2), dilation=4
    ),
    "conv2d_bias_size": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), _o(T, 3)
    ),
    "conv1d_weight_f64": lambda T: T.nn.functional.conv1d(
        _o(T, 1, 3, 5), _o(T, 2, 3, 2, dt="float64")
    ),
    "conv2d_input_f64": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5, dt="float64"), _o(T, 2, 2, 2, 2)
    ),
    "conv3d_weight_f64": lambda T: T.nn.functional.conv3d(
        _o(T, 1, 2, 3, 3, 3), _o(T, 2, 2, 2, 2, 2, dt="float64")
    ),
    "conv2d_bias_f64": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 2, 2, 2), _o(T, 2, dt="float64")
    ),
    "conv1d_bias_f64_weight_f64": lambda T: T.nn.functional.conv1d(
        _o(T, 1, 2, 5), _o(T, 2, 2, 2, dt="float64"), _o(T, 2, dt="float64")
    ),
    "conv2d_bias_dtype_before_shape": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 3, 5, 5), _o(T, 2, 2, 2, 2), _o(T, 2, dt="float64")
    ),
    "conv2d_weight_dtype_after_shape": lambda T: T.nn.functional.conv2d(
        _o(T, 1, 3, 5, 5), _o(T, 2, 2, 2, 2, dt="float64")
    ),
    "conv1d_int_input": lambda T: T.nn.Conv1d(1, 1, 1)(_o(T, 1, 1, 3, dt="int64")),
    "conv1d_int_input_no_bias": lambda T: T.nn.functional.conv1d(
        _o(T, 1, 1, 3, dt="int64"), _o(T, 1, 1, 1)
    ),
    "conv1d_int_weight": lambda T: T.nn.functional.conv1d(
        _o(T, 1, 1, 3), _o(T, 1, 1, 1, dt="int64")
    ),
    "conv2d_module_small": lambda T: T.nn.Conv2d(1, 1, 5)(_o(T, 1, 1, 3, 3)),
    "conv2d_module_channels": lambda T: T.nn.Conv2d(3, 4, 3)(_o(T, 1, 2, 5, 5)),
    "conv2d_module_groups": lambda T: T.nn.Conv2d(3, 4, 3, groups=2),
    "conv2d_module_out_groups": lambda T: T.nn.Conv2d(4, 3, 3, groups=2),
    "conv2d_module_groups0": lambda T: T.nn.Conv2d(4, 4, 3, groups=0),
    "conv2d_module_same_stride": lambda T: T.nn.Conv2d(2, 2, 3, stride=2, padding="same"),
    "conv2d_module_bad_padding_str": lambda T: T.nn.Conv2d(2, 2, 3, padding="full"),
    # (a bad padding_mode is left out: torch prints a set literal, whose order varies by process)
    "conv2d_module_f64_input": lambda T: T.nn.Conv2d(2, 2, 3)(_o(T, 1, 2, 5, 5, dt="float64")),
    "conv_transpose2d_channels": lambda T: T.nn.functional.conv_transpose2d(
        _o(T, 1, 2, 5, 5), _o(T, 3, 1, 2, 2)
    ),
    "conv_transpose1d_ndim": lambda T: T.nn.functional.conv_transpose1d(_o(T, 5), _o(T, 1, 1, 2)),
    "conv_transpose2d_output_padding": lambda T: T.nn.functional.conv_transpose2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 1, 2, 2), output_padding=2
    ),
    "conv_transpose2d_weight_f64": lambda T: T.nn.functional.conv_transpose2d(
        _o(T, 1, 2, 5, 5), _o(T, 2, 1, 2, 2, dt="float64")
    ),
    "conv_transpose1d_weight_f64": lambda T: T.nn.functional.conv_transpose1d(
        _o(T, 1, 2, 5), _o(T, 2, 1, 2, dt="float64")
    ),
    "conv_transpose1d_bias_f64": lambda T: T.nn.functional.conv_transpose1d(
        _o(T, 1, 2, 5), _o(T, 2, 1, 2), _o(T, 1, dt="float64")
    ),
    "conv_transpose3d_bias_f64": lambda T: T.nn.functional.conv_transpose3d(
        _o(T, 1, 2, 3, 3, 3), _o(T, 2, 1, 2, 2, 2), _o(T, 1, dt="float64")
    ),
    "conv_transpose3d_weight_f64": lambda T: T.nn.functional.conv_transpose3d(
        _o(T, 1, 2, 3, 3, 3), _o(T, 2, 1, 2, 2, 2, dt="float64")
    ),
    "conv_transpose2d_int_input": lambda T: T.nn.functional.conv_transpose2d(
        _o(T, 1, 2, 3, 3, dt="int64"), _o(T, 2, 1, 2, 2)
    ),
    "conv_transpose2d_stride0": lambda T: T.nn.functional.conv_transpose2d(
        _o(T, 1, 2, 3, 3), _o(T, 2, 1, 2, 2), stride=0
    ),
    "conv_transpose2d_module_groups": lambda T: T.nn.ConvTranspose2d(3, 4, 3, groups=2),
    "conv_transpose2d_module_padding_mode": lambda T: T.nn.ConvTranspose2d(
        2, 2, 3, padding_mode="reflect"
    ),
}

# --- pooling --------------------------------------------------------------------------------

POOL: dict[str, Case] = {
    "max_pool2d_too_small": lambda T: T.nn.MaxPool2d(3)(_o(T, 1, 1, 2, 2)),
    "max_pool1d_too_small": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 2), 3),
    "max_pool3d_too_small": lambda T: T.nn.functional.max_pool3d(_o(T, 1, 1, 2, 2, 2), 3),
    "max_pool2d_stride0": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), 2, stride=0),
    "max_pool2d_pad_big": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), 2, padding=2),
    "max_pool2d_ndim": lambda T: T.nn.functional.max_pool2d(_o(T, 4, 4), 2),
    "max_pool2d_5d": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 1, 4, 4), 2),
    "max_pool1d_ndim": lambda T: T.nn.functional.max_pool1d(_o(T, 4), 2),
    "max_pool3d_ndim": lambda T: T.nn.functional.max_pool3d(_o(T, 4, 4), 2),
    "max_pool2d_kernel0": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), 0),
    "max_pool2d_dilation0": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), 2, dilation=0),
    "max_pool2d_int": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4, dt="int64"), 2),
    "max_pool2d_kernel_len": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), (2, 2, 2)),
    "max_pool2d_indices_too_small": lambda T: T.nn.functional.max_pool2d(
        _o(T, 1, 1, 2, 2), 3, return_indices=True
    ),
    "avg_pool2d_too_small": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 2, 2), 3),
    "avg_pool1d_too_small": lambda T: T.nn.functional.avg_pool1d(_o(T, 1, 1, 2), 3),
    "avg_pool3d_too_small": lambda T: T.nn.functional.avg_pool3d(_o(T, 1, 1, 2, 2, 2), 3),
    "avg_pool2d_stride0": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4), 2, stride=0),
    "avg_pool2d_pad_big": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4), 2, padding=2),
    "avg_pool2d_ndim": lambda T: T.nn.functional.avg_pool2d(_o(T, 4, 4), 2),
    "avg_pool1d_ndim": lambda T: T.nn.functional.avg_pool1d(_o(T, 4), 2),
    "avg_pool2d_int": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4, dt="int64"), 2),
    "avg_pool2d_divisor0": lambda T: T.nn.functional.avg_pool2d(
        _o(T, 1, 1, 4, 4), 2, divisor_override=0
    ),
    "avg_pool2d_kernel0": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4), 0),
    "adaptive_avg_pool2d_ndim": lambda T: T.nn.functional.adaptive_avg_pool2d(_o(T, 4), 2),
    "adaptive_avg_pool2d_len": lambda T: T.nn.functional.adaptive_avg_pool2d(
        _o(T, 1, 1, 4, 4), (2, 2, 2)
    ),
    "adaptive_avg_pool1d_ndim": lambda T: T.nn.functional.adaptive_avg_pool1d(_o(T, 4), 2),
    "adaptive_avg_pool2d_neg": lambda T: T.nn.functional.adaptive_avg_pool2d(_o(T, 1, 1, 4, 4), -1),
    "adaptive_max_pool2d_ndim": lambda T: T.nn.functional.adaptive_max_pool2d(_o(T, 4), 2),
    "adaptive_max_pool1d_ndim": lambda T: T.nn.functional.adaptive_max_pool1d(_o(T, 4), 2),
    "adaptive_max_pool2d_empty_dim": lambda T: T.nn.functional.adaptive_max_pool2d(
        _o(T, 1, 0, 4), 2
    ),
    "adaptive_avg_pool3d_ndim": lambda T: T.nn.functional.adaptive_avg_pool3d(_o(T, 4, 4), 2),
    "lp_pool2d_too_small": lambda T: T.nn.functional.lp_pool2d(_o(T, 1, 1, 2, 2), 2, 3),
    "lp_pool1d_ndim": lambda T: T.nn.functional.lp_pool1d(_o(T, 4), 2, 2),
    "fractional_max_pool2d_no_size": lambda T: T.nn.functional.fractional_max_pool2d(
        _o(T, 1, 1, 4, 4), 2
    ),
    "fractional_max_pool2d_ratio": lambda T: T.nn.functional.fractional_max_pool2d(
        _o(T, 1, 1, 4, 4), 2, output_ratio=1.5
    ),
    "fractional_max_pool2d_too_big": lambda T: T.nn.functional.fractional_max_pool2d(
        _o(T, 1, 1, 4, 4), 2, output_size=4
    ),
    "fractional_max_pool2d_module": lambda T: T.nn.FractionalMaxPool2d(2),
    "max_unpool2d_size": lambda T: T.nn.functional.max_unpool2d(
        _o(T, 1, 1, 2, 2), T.zeros(1, 1, 2, 2, dtype=T.int64), 2, output_size=(9, 9)
    ),
    "max_unpool2d_float_indices": lambda T: T.nn.functional.max_unpool2d(
        _o(T, 1, 1, 2, 2), _o(T, 1, 1, 2, 2), 2
    ),
}

# --- normalization --------------------------------------------------------------------------

NORM: dict[str, Case] = {
    "batch_norm_one_value": lambda T: T.nn.BatchNorm1d(6)(_o(T, 1, 6)),
    "batch_norm_one_value_3d": lambda T: T.nn.BatchNorm1d(6)(_o(T, 1, 6, 1)),
    "batch_norm_one_value_eval": lambda T: T.nn.BatchNorm1d(6).eval()(_o(T, 1, 6)),
    "batch_norm_train_channels": lambda T: T.nn.BatchNorm1d(6)(_o(T, 2, 5, 3)),
    "batch_norm_eval_channels": lambda T: T.nn.BatchNorm1d(6).eval()(_o(T, 2, 5)),
    "batch_norm_weight_len": lambda T: T.nn.functional.batch_norm(
        _o(T, 2, 3), None, None, _o(T, 4), training=True
    ),
    "batch_norm_bias_len": lambda T: T.nn.functional.batch_norm(
        _o(T, 2, 3), None, None, None, _o(T, 4), training=True
    ),
    "batch_norm_var_len": lambda T: T.nn.functional.batch_norm(
        _o(T, 2, 3), T.zeros(3), _o(T, 4), training=True
    ),
    "batch_norm_eval_no_stats": lambda T: T.nn.functional.batch_norm(_o(T, 2, 3), None, None),
    "batch_norm1d_ndim": lambda T: T.nn.BatchNorm1d(3)(_o(T, 1, 3, 2, 2)),
    "batch_norm2d_ndim": lambda T: T.nn.BatchNorm2d(3)(_o(T, 2, 3)),
    "batch_norm3d_ndim": lambda T: T.nn.BatchNorm3d(3)(_o(T, 2, 3, 2, 2)),
    "batch_norm_int": lambda T: T.nn.functional.batch_norm(
        _o(T, 2, 3, dt="int64"), None, None, training=True
    ),
    "instance_norm_one_spatial": lambda T: T.nn.functional.instance_norm(_o(T, 2, 3, 1)),
    "instance_norm1d_ndim": lambda T: T.nn.InstanceNorm1d(3)(_o(T, 3)),
    "instance_norm2d_ndim": lambda T: T.nn.InstanceNorm2d(3)(_o(T, 2, 3, 4)),
    "instance_norm_weight_len": lambda T: T.nn.functional.instance_norm(
        _o(T, 2, 3, 4), weight=_o(T, 4)
    ),
    "instance_norm_running_len": lambda T: T.nn.functional.instance_norm(
        _o(T, 2, 3, 4), T.zeros(4), _o(T, 4)
    ),
    "layer_norm_shape": lambda T: T.nn.LayerNorm(4)(_o(T, 2, 3)),
    "layer_norm_shape_2d": lambda T: T.nn.functional.layer_norm(_o(T, 2, 3, 4), (2, 4)),
    "layer_norm_too_long": lambda T: T.nn.functional.layer_norm(_o(T, 3), (1, 3)),
    "layer_norm_weight_shape": lambda T: T.nn.functional.layer_norm(_o(T, 2, 3), (3,), _o(T, 4)),
    "layer_norm_bias_shape": lambda T: T.nn.functional.layer_norm(
        _o(T, 2, 3), (3,), None, _o(T, 2)
    ),
    "layer_norm_int": lambda T: T.nn.functional.layer_norm(_o(T, 2, 3, dt="int64"), (3,)),
    "group_norm_divide": lambda T: T.nn.functional.group_norm(_o(T, 2, 6, 3), 4),
    "group_norm_module_divide": lambda T: T.nn.GroupNorm(4, 6),
    "group_norm_channels": lambda T: T.nn.GroupNorm(2, 6)(_o(T, 2, 4, 3)),
    "group_norm_ndim": lambda T: T.nn.functional.group_norm(_o(T, 6), 2),
    "group_norm_weight_len": lambda T: T.nn.functional.group_norm(_o(T, 2, 6, 3), 2, _o(T, 4)),
    "group_norm_zero_groups": lambda T: T.nn.functional.group_norm(_o(T, 2, 6, 3), 0),
    "local_response_norm_ndim": lambda T: T.nn.functional.local_response_norm(_o(T, 2), 2),
    "local_response_norm_empty": lambda T: T.nn.functional.local_response_norm(_o(T, 0, 3, 4), 2),
    "rms_norm_shape": lambda T: T.nn.functional.rms_norm(_o(T, 2, 3), (4,)),
}

# --- losses ---------------------------------------------------------------------------------


def _L(T: Any) -> Any:
    return T.nn.functional


LOSS: dict[str, Case] = {
    "mse_bad_reduction": lambda T: _L(T).mse_loss(_o(T, 3), _o(T, 3), reduction="avg"),
    "l1_bad_reduction": lambda T: _L(T).l1_loss(_o(T, 3), _o(T, 3), reduction="avg"),
    "mse_shape": lambda T: _L(T).mse_loss(_o(T, 3), _o(T, 4)),
    "mse_broadcast_warns": lambda T: _L(T).mse_loss(_o(T, 3), _o(T, 2, 3)).shape,
    "l1_shape": lambda T: _L(T).l1_loss(_o(T, 2, 3), _o(T, 3, 2)),
    "smooth_l1_shape": lambda T: _L(T).smooth_l1_loss(_o(T, 3), _o(T, 4)),
    "smooth_l1_neg_beta": lambda T: _L(T).smooth_l1_loss(_o(T, 3), _o(T, 3), beta=-1.0),
    "huber_shape": lambda T: _L(T).huber_loss(_o(T, 3), _o(T, 4)),
    "huber_neg_delta": lambda T: _L(T).huber_loss(_o(T, 3), _o(T, 3), delta=-1.0),
    "mse_int": lambda T: _L(T).mse_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")),
    "mse_mixed_dtype": lambda T: _L(T).mse_loss(_o(T, 3), _o(T, 3, dt="float64")).dtype,
    "bce_shape": lambda T: _L(T).binary_cross_entropy(_o(T, 3) * 0.5, _o(T, 4)),
    "bce_range": lambda T: _L(T).binary_cross_entropy(_o(T, 3) * 2, _o(T, 3)),
    "bce_weight_shape": lambda T: _L(T).binary_cross_entropy(
        _o(T, 3) * 0.5, _o(T, 3), weight=_o(T, 2)
    ),
    "bce_bad_reduction": lambda T: _L(T).binary_cross_entropy(
        _o(T, 3) * 0.5, _o(T, 3), reduction="avg"
    ),
    "bce_logits_shape": lambda T: _L(T).binary_cross_entropy_with_logits(_o(T, 3), _o(T, 4)),
    "bce_logits_pos_weight": lambda T: _L(T).binary_cross_entropy_with_logits(
        _o(T, 2, 3), _o(T, 2, 3), pos_weight=_o(T, 4)
    ),
    "bce_logits_int_target": lambda T: _L(T).binary_cross_entropy_with_logits(
        _o(T, 3), _o(T, 3, dt="int64")
    ),
    "nll_target_range": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, 3)),
    "nll_target_negative": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, -2)),
    "nll_ignore_index_ok": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, -100)).shape,
    "nll_ignore_custom": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, 5), ignore_index=5).shape,
    "nll_float_target": lambda T: _L(T).nll_loss(_o(T, 2, 3), _o(T, 2)),
    "nll_target_batch": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, 1, 2)),
    "nll_weight_len": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, 1), weight=_o(T, 4)),
    "nll_input_1d_target_2d": lambda T: _L(T).nll_loss(_o(T, 3), _i(T, [0])),
    "nll_input_4d_target_shape": lambda T: _L(T).nll_loss(
        _o(T, 2, 3, 4, 4), T.zeros(2, 4, 5, dtype=T.int64)
    ),
    "nll_bad_reduction": lambda T: _L(T).nll_loss(_o(T, 2, 3), _i(T, 0, 1), reduction="avg"),
    "nll_input_0d": lambda T: _L(T).nll_loss(T.tensor(1.0), T.tensor(0)),
    "ce_float_index_target": lambda T: _L(T).cross_entropy(
        _o(T, 4, 3), T.tensor([0.0, 2.0, 1.0, 1.0])
    ),
    "ce_prob_target_shape": lambda T: _L(T).cross_entropy(_o(T, 4, 3), _o(T, 4, 2)),
    "ce_prob_target_int_dtype": lambda T: _L(T).cross_entropy(_o(T, 4, 3), _o(T, 4, 3, dt="int64")),
    "ce_index_range": lambda T: _L(T).cross_entropy(_o(T, 2, 3), _i(T, 0, 3)),
    "ce_weight_len": lambda T: _L(T).cross_entropy(_o(T, 2, 3), _i(T, 0, 1), weight=_o(T, 2)),
    "ce_label_smoothing_neg": lambda T: _L(T).cross_entropy(
        _o(T, 2, 3), _i(T, 0, 1), label_smoothing=-0.1
    ),
    "ce_label_smoothing_big": lambda T: _L(T).cross_entropy(
        _o(T, 2, 3), _i(T, 0, 1), label_smoothing=1.5
    ),
    "ce_prob_ignore_index": lambda T: (
        _L(T).cross_entropy(_o(T, 2, 3), _o(T, 2, 3) / 3, ignore_index=1).shape
    ),
    "ce_target_batch": lambda T: _L(T).cross_entropy(_o(T, 2, 3), _i(T, 0, 1, 1)),
    "ce_int32_target": lambda T: _L(T).cross_entropy(_o(T, 2, 3), T.tensor([0, 1], dtype=T.int32)),
    "ce_bad_reduction": lambda T: _L(T).cross_entropy(_o(T, 2, 3), _i(T, 0, 1), reduction="x"),
    "ce_0d_input": lambda T: _L(T).cross_entropy(T.tensor(1.0), T.tensor(0)),
    "kl_div_bad_reduction": lambda T: _L(T).kl_div(_o(T, 3), _o(T, 3), reduction="avg"),
    "kl_div_shape": lambda T: _L(T).kl_div(_o(T, 3), _o(T, 4)),
    "poisson_nll_shape": lambda T: _L(T).poisson_nll_loss(_o(T, 3), _o(T, 4)),
    "poisson_nll_bad_reduction": lambda T: _L(T).poisson_nll_loss(
        _o(T, 3), _o(T, 3), reduction="avg"
    ),
    "gaussian_nll_var_shape": lambda T: _L(T).gaussian_nll_loss(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 2)
    ),
    "gaussian_nll_neg_var": lambda T: _L(T).gaussian_nll_loss(_o(T, 3), _o(T, 3), -_o(T, 3)),
    "gaussian_nll_bad_reduction": lambda T: _L(T).gaussian_nll_loss(
        _o(T, 3), _o(T, 3), _o(T, 3), reduction="avg"
    ),
    "margin_ranking_shape": lambda T: _L(T).margin_ranking_loss(_o(T, 3), _o(T, 3), _o(T, 4)),
    "hinge_embedding_shape": lambda T: _L(T).hinge_embedding_loss(_o(T, 3), _o(T, 4)),
    "soft_margin_shape": lambda T: _L(T).soft_margin_loss(_o(T, 3), _o(T, 4)),
    "multilabel_soft_margin_shape": lambda T: _L(T).multilabel_soft_margin_loss(
        _o(T, 2, 3), _o(T, 2, 4)
    ),
    "multilabel_margin_dtype": lambda T: _L(T).multilabel_margin_loss(_o(T, 2, 3), _o(T, 2, 3)),
    "multilabel_margin_shape": lambda T: _L(T).multilabel_margin_loss(
        _o(T, 2, 3), T.zeros(2, 4, dtype=T.int64)
    ),
    "multi_margin_p": lambda T: _L(T).multi_margin_loss(_o(T, 2, 3), _i(T, 0, 1), p=3),
    "multi_margin_range": lambda T: _L(T).multi_margin_loss(_o(T, 2, 3), _i(T, 0, 3)),
    "multi_margin_target_shape": lambda T: _L(T).multi_margin_loss(_o(T, 2, 3), _i(T, 0, 1, 2)),
    "multi_margin_weight": lambda T: _L(T).multi_margin_loss(
        _o(T, 2, 3), _i(T, 0, 1), weight=_o(T, 2)
    ),
    "cosine_embedding_shape": lambda T: _L(T).cosine_embedding_loss(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 3)
    ),
    "cosine_embedding_dims": lambda T: _L(T).cosine_embedding_loss(
        _o(T, 2, 3), _o(T, 2, 4), _o(T, 2)
    ),
    "triplet_dims": lambda T: _L(T).triplet_margin_loss(_o(T, 2, 3), _o(T, 2, 3), _o(T, 3)),
    "triplet_shape": lambda T: _L(T).triplet_margin_loss(_o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 4)),
    "triplet_margin_zero": lambda T: _L(T).triplet_margin_with_distance_loss(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 3), margin=0.0
    ),
    "ctc_input_lengths": lambda T: _L(T).ctc_loss(
        _o(T, 5, 2, 4).log_softmax(2), T.ones(2, 3, dtype=T.int64), _i(T, 5, 6), _i(T, 3, 3)
    ),
    "ctc_target_lengths": lambda T: _L(T).ctc_loss(
        _o(T, 5, 2, 4).log_softmax(2), T.ones(2, 3, dtype=T.int64), _i(T, 5, 5), _i(T, 3, 4)
    ),
    "ctc_lengths_count": lambda T: _L(T).ctc_loss(
        _o(T, 5, 2, 4).log_softmax(2), T.ones(2, 3, dtype=T.int64), _i(T, 5), _i(T, 3, 3)
    ),
    "ctc_bad_reduction": lambda T: _L(T).ctc_loss(
        _o(T, 5, 2, 4).log_softmax(2),
        T.ones(2, 3, dtype=T.int64),
        _i(T, 5, 5),
        _i(T, 3, 3),
        reduction="avg",
    ),
    "mse_int_float": lambda T: _L(T).mse_loss(_o(T, 3), _o(T, 3, dt="int64")).dtype,
    "l1_int": lambda T: _L(T).l1_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")),
    "smooth_l1_int": lambda T: _L(T).smooth_l1_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")),
    "huber_int": lambda T: _L(T).huber_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")),
    "bce_int": lambda T: _L(T).binary_cross_entropy(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")),
    "bce_target_f64": lambda T: _L(T).binary_cross_entropy(_o(T, 3) / 2, _o(T, 3, dt="float64")),
    "bce_target_int": lambda T: _L(T).binary_cross_entropy(_o(T, 3) / 2, _o(T, 3, dt="int64")),
    "bce_logits_int": lambda T: _L(T).binary_cross_entropy_with_logits(
        _o(T, 3, dt="int64"), _o(T, 3, dt="int64")
    ),
    "bce_logits_f64_target": lambda T: (
        _L(T).binary_cross_entropy_with_logits(_o(T, 3), _o(T, 3, dt="float64")).dtype
    ),
    "kl_div_int": lambda T: _L(T).kl_div(
        _o(T, 3, dt="int64"), _o(T, 3, dt="int64"), reduction="sum"
    ),
    "soft_margin_int": lambda T: _L(T).soft_margin_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")),
    "module_mse_bad_reduction": lambda T: T.nn.MSELoss(reduction="avg")(_o(T, 3), _o(T, 3)),
    "module_nll_range": lambda T: T.nn.NLLLoss()(_o(T, 2, 3), _i(T, 0, 3)),
    "module_ce_weight": lambda T: T.nn.CrossEntropyLoss(weight=_o(T, 2))(_o(T, 2, 3), _i(T, 0, 1)),
    "module_bce_range": lambda T: T.nn.BCELoss()(_o(T, 3) * 2, _o(T, 3)),
    "module_huber_shape": lambda T: T.nn.HuberLoss()(_o(T, 3), _o(T, 4)),
}

# --- embedding, one_hot, pad ----------------------------------------------------------------

EMB: dict[str, Case] = {
    "embedding_float_index": lambda T: T.nn.Embedding(4, 2)(T.tensor([1.0])),
    "embedding_oob": lambda T: T.nn.Embedding(4, 2)(_i(T, 4)),
    "embedding_negative": lambda T: T.nn.Embedding(4, 2)(_i(T, -1)),
    "embedding_1d_weight": lambda T: T.nn.functional.embedding(_i(T, 0), _o(T, 3)),
    "embedding_3d_weight": lambda T: T.nn.functional.embedding(_i(T, 0), _o(T, 3, 2, 2)),
    "embedding_padding_idx_big": lambda T: T.nn.Embedding(4, 2, padding_idx=4),
    "embedding_padding_idx_neg": lambda T: T.nn.Embedding(4, 2, padding_idx=-5),
    "embedding_f_padding_idx_big": lambda T: T.nn.functional.embedding(
        _i(T, 0), _o(T, 4, 2), padding_idx=4
    ),
    "embedding_max_norm_oob": lambda T: T.nn.Embedding(4, 2, max_norm=1.0)(_i(T, 5)),
    "embedding_int32_index": lambda T: T.nn.Embedding(4, 2)(T.tensor([1], dtype=T.int32)).shape,
    "embedding_bool_index": lambda T: T.nn.Embedding(4, 2)(T.tensor([True])),
    "embedding_pretrained_1d": lambda T: T.nn.Embedding.from_pretrained(_o(T, 3)),
    "embedding_bag_offsets": lambda T: T.nn.EmbeddingBag(4, 2)(_i(T, 0, 1), _i(T, 0, 3)),
    "embedding_bag_2d_offsets": lambda T: T.nn.EmbeddingBag(4, 2)(
        T.zeros(2, 2, dtype=T.int64), _i(T, 0)
    ),
    "embedding_bag_first_offset": lambda T: T.nn.functional.embedding_bag(
        _i(T, 0, 1), _o(T, 4, 2), _i(T, 1, 2)
    ),
    "embedding_bag_index_oob": lambda T: T.nn.functional.embedding_bag(
        _i(T, 0, 5), _o(T, 4, 2), _i(T, 0)
    ),
    "embedding_bag_float_index": lambda T: T.nn.functional.embedding_bag(
        T.tensor([0.0, 1.0]), _o(T, 4, 2), _i(T, 0)
    ),
    "embedding_bag_float_offsets": lambda T: T.nn.functional.embedding_bag(
        _i(T, 0, 1), _o(T, 4, 2), T.tensor([0.0])
    ),
    "embedding_bag_psw_mode": lambda T: T.nn.functional.embedding_bag(
        _i(T, 0, 1), _o(T, 4, 2), _i(T, 0), mode="mean", per_sample_weights=_o(T, 2)
    ),
    "embedding_bag_psw_shape": lambda T: T.nn.functional.embedding_bag(
        _i(T, 0, 1), _o(T, 4, 2), _i(T, 0), mode="sum", per_sample_weights=_o(T, 3)
    ),
    "embedding_bag_1d_weight": lambda T: T.nn.functional.embedding_bag(
        _i(T, 0, 1), _o(T, 4), _i(T, 0)
    ),
    "embedding_bag_bad_mode": lambda T: T.nn.EmbeddingBag(4, 2, mode="median"),
    "one_hot_negative": lambda T: T.nn.functional.one_hot(_i(T, -1, 0)),
    "one_hot_small": lambda T: T.nn.functional.one_hot(_i(T, 3), num_classes=2),
    "one_hot_float": lambda T: T.nn.functional.one_hot(T.tensor([1.0])),
    "one_hot_empty": lambda T: T.nn.functional.one_hot(T.zeros(0, dtype=T.int64)),
    "one_hot_int32": lambda T: T.nn.functional.one_hot(T.tensor([1], dtype=T.int32)),
    "pad_odd_length": lambda T: T.nn.functional.pad(_o(T, 1, 2, 3), (1, 2, 3)),
    "pad_too_long": lambda T: T.nn.functional.pad(_o(T, 3), (1, 1, 1, 1)),
    "pad_reflect_big": lambda T: T.nn.functional.pad(_o(T, 1, 1, 2), (2, 2), mode="reflect"),
    "pad_reflect_2d_big": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 3, 3), (1, 1, 3, 0), mode="reflect"
    ),
    "pad_replicate_empty": lambda T: T.nn.functional.pad(_o(T, 1, 1, 0), (1, 1), mode="replicate"),
    "pad_unknown_mode": lambda T: T.nn.functional.pad(_o(T, 1, 1, 2), (1, 1), mode="wrap"),
    "pad_reflect_wrong_len": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 4), (1, 1, 1, 1), mode="reflect"
    ),
    "pad_reflect_1d": lambda T: T.nn.functional.pad(_o(T, 4), (1, 1), mode="reflect"),
    "pad_circular_big": lambda T: T.nn.functional.pad(_o(T, 1, 1, 2), (3, 0), mode="circular"),
    "pad_value_non_constant": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 4), (1, 1), mode="reflect", value=1.0
    ),
    "pad_negative_too_much": lambda T: T.nn.functional.pad(_o(T, 1, 3), (-2, -2)),
    "pad_module_reflect_big": lambda T: T.nn.ReflectionPad1d(3)(_o(T, 1, 1, 2)),
    "pad_module_replicate_ndim": lambda T: T.nn.ReplicationPad2d(1)(_o(T, 4)),
}

# --- interpolate, softmax, dropout, linear --------------------------------------------------

MISC: dict[str, Case] = {
    "interp_size_and_scale": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), size=8, scale_factor=2.0
    ),
    "interp_neither": lambda T: T.nn.functional.interpolate(_o(T, 1, 1, 4)),
    "interp_size_len": lambda T: T.nn.functional.interpolate(_o(T, 1, 1, 2), size=(3, 3)),
    "interp_scale_len": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4, 4), scale_factor=(2.0, 2.0, 2.0)
    ),
    "interp_linear_4d": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4, 4), scale_factor=2.0, mode="linear"
    ),
    "interp_bilinear_3d": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), scale_factor=2.0, mode="bilinear"
    ),
    "interp_trilinear_4d": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4, 4), scale_factor=2.0, mode="trilinear"
    ),
    "interp_bicubic_3d": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), scale_factor=2.0, mode="bicubic"
    ),
    "interp_bad_mode": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), scale_factor=2.0, mode="cubic"
    ),
    "interp_nearest_align": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), scale_factor=2.0, mode="nearest", align_corners=True
    ),
    "interp_2d_input": lambda T: T.nn.functional.interpolate(_o(T, 1, 4), scale_factor=2.0),
    "interp_6d_input": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 1, 1, 1, 2), scale_factor=2.0
    ),
    "interp_size_zero": lambda T: T.nn.functional.interpolate(_o(T, 1, 1, 4), size=0),
    "interp_antialias_nearest": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4, 4), scale_factor=0.5, mode="nearest", antialias=True
    ),
    "upsample_module_both": lambda T: T.nn.Upsample(size=4, scale_factor=2.0)(_o(T, 1, 1, 2)),
    "upsample_module_linear_4d": lambda T: T.nn.Upsample(scale_factor=2.0, mode="linear")(
        _o(T, 1, 1, 2, 2)
    ),
    "softmax_int": lambda T: T.tensor([1, 2]).softmax(0),
    "softmax_f_int": lambda T: T.nn.functional.softmax(_i(T, 1, 2), dim=0),
    "log_softmax_int": lambda T: T.nn.functional.log_softmax(_i(T, 1, 2), dim=0),
    "softmin_int": lambda T: T.nn.functional.softmin(_i(T, 1, 2), dim=0),
    "softmax_int_with_dtype": lambda T: (
        T.nn.functional.softmax(_i(T, 1, 2), dim=0, dtype=T.float32).dtype
    ),
    "softmax_bad_dim": lambda T: T.nn.functional.softmax(_o(T, 2, 3), dim=2),
    "log_softmax_bad_dim": lambda T: T.nn.functional.log_softmax(_o(T, 2, 3), dim=-3),
    "softmax_module_int": lambda T: T.nn.Softmax(dim=0)(_i(T, 1, 2)),
    "log_softmax_module_int": lambda T: T.nn.LogSoftmax(dim=0)(_i(T, 1, 2)),
    "softmax_bool": lambda T: T.nn.functional.softmax(T.tensor([True, False]), dim=0),
    "gumbel_softmax_int": lambda T: T.nn.functional.gumbel_softmax(_i(T, 1, 2)),
    "dropout_p_big": lambda T: T.nn.functional.dropout(_o(T, 3), p=1.5),
    "dropout_p_neg": lambda T: T.nn.functional.dropout(_o(T, 3), p=-0.1),
    "dropout_module_p": lambda T: T.nn.Dropout(p=2.0),
    "dropout2d_p": lambda T: T.nn.functional.dropout2d(_o(T, 1, 2, 3, 3), p=1.5),
    "dropout1d_ndim": lambda T: T.nn.functional.dropout1d(_o(T, 1, 2, 3, 3)),
    "dropout3d_p": lambda T: T.nn.functional.dropout3d(_o(T, 1, 2, 3, 3, 3), p=-1.0),
    "alpha_dropout_p": lambda T: T.nn.functional.alpha_dropout(_o(T, 3), p=1.5),
    "feature_alpha_dropout_p": lambda T: T.nn.functional.feature_alpha_dropout(
        _o(T, 1, 2, 3), p=1.5
    ),
    "dropout_int_training": lambda T: T.nn.functional.dropout(_i(T, 1, 2), p=0.5),
    "linear_shape": lambda T: T.nn.functional.linear(_o(T, 2, 3), _o(T, 4, 5)),
    "linear_module_shape": lambda T: T.nn.Linear(3, 4)(_o(T, 2, 5)),
    "linear_1d_weight": lambda T: T.nn.functional.linear(_o(T, 2, 3), _o(T, 3)).shape,
    "linear_bias_shape": lambda T: T.nn.functional.linear(_o(T, 2, 3), _o(T, 4, 3), _o(T, 5)),
    "linear_0d_input": lambda T: T.nn.functional.linear(T.tensor(1.0), _o(T, 4, 3)),
    "linear_int_input": lambda T: T.nn.Linear(3, 4)(_o(T, 2, 3, dt="int64")),
    "linear_f64_input": lambda T: T.nn.Linear(3, 4)(_o(T, 2, 3, dt="float64")),
    "bilinear_shape": lambda T: T.nn.functional.bilinear(_o(T, 2, 3), _o(T, 2, 4), _o(T, 5, 3, 3)),
    "bilinear_batch": lambda T: T.nn.functional.bilinear(_o(T, 2, 3), _o(T, 3, 4), _o(T, 5, 3, 4)),
    "bilinear_module": lambda T: T.nn.Bilinear(3, 4, 5)(_o(T, 2, 3), _o(T, 2, 3)),
    "bilinear_bias": lambda T: T.nn.functional.bilinear(
        _o(T, 2, 3), _o(T, 2, 4), _o(T, 5, 3, 4), _o(T, 4)
    ),
    "unfold_ndim": lambda T: T.nn.functional.unfold(_o(T, 3, 3), 2),
    "unfold_kernel_big": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3), 4),
    "unfold_stride0": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3), 2, stride=0),
    "unfold_dilation0": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3), 2, dilation=0),
    "unfold_padding_neg": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3), 2, padding=-1),
    "unfold_3d_ok": lambda T: T.nn.functional.unfold(_o(T, 1, 3, 3), 2).shape,
    "fold_blocks": lambda T: T.nn.functional.fold(_o(T, 1, 4, 5), (3, 3), 2),
    "fold_ndim": lambda T: T.nn.functional.fold(_o(T, 1, 1, 4, 5), (3, 3), 2),
    "fold_channels": lambda T: T.nn.functional.fold(_o(T, 1, 3, 4), (3, 3), 2),
    "fold_2d_ok": lambda T: T.nn.functional.fold(_o(T, 4, 4), (3, 3), 2).shape,
    "fold_stride0": lambda T: T.nn.functional.fold(_o(T, 1, 4, 4), (3, 3), 2, stride=0),
    "pixel_shuffle_divisible": lambda T: T.nn.functional.pixel_shuffle(_o(T, 1, 3, 2, 2), 2),
    "pixel_shuffle_ndim": lambda T: T.nn.functional.pixel_shuffle(_o(T, 4, 2), 2),
    "pixel_unshuffle_divisible": lambda T: T.nn.functional.pixel_unshuffle(_o(T, 1, 1, 3, 3), 2),
    "pixel_shuffle_module": lambda T: T.nn.PixelShuffle(3)(_o(T, 1, 4, 2, 2)),
    "channel_shuffle_divisible": lambda T: T.nn.functional.channel_shuffle(_o(T, 1, 3, 2, 2), 2),
    "grid_sample_ndim": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 4, 4), _o(T, 1, 2, 2), align_corners=False
    ),
    "grid_sample_last_dim": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 4, 4), _o(T, 1, 2, 2, 3), align_corners=False
    ),
    "grid_sample_batch": lambda T: T.nn.functional.grid_sample(
        _o(T, 2, 1, 4, 4), _o(T, 1, 2, 2, 2), align_corners=False
    ),
    "grid_sample_mode": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 4, 4), _o(T, 1, 2, 2, 2), mode="cubic", align_corners=False
    ),
    "grid_sample_padding_mode": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 4, 4), _o(T, 1, 2, 2, 2), padding_mode="wrap", align_corners=False
    ),
    "grid_sample_dtype": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 4, 4), _o(T, 1, 2, 2, 2, dt="float64"), align_corners=False
    ),
    "affine_grid_theta_shape": lambda T: T.nn.functional.affine_grid(
        _o(T, 1, 3, 3), [1, 1, 4, 4], align_corners=False
    ),
    "affine_grid_size_len": lambda T: T.nn.functional.affine_grid(
        _o(T, 1, 2, 3), [1, 1, 4], align_corners=False
    ),
    "affine_grid_batch": lambda T: T.nn.functional.affine_grid(
        _o(T, 2, 2, 3), [1, 1, 4, 4], align_corners=False
    ),
    "affine_grid_int": lambda T: T.nn.functional.affine_grid(
        _o(T, 1, 2, 3, dt="int64"), [1, 1, 4, 4], align_corners=False
    ),
    "cosine_similarity_shape": lambda T: T.nn.functional.cosine_similarity(
        _o(T, 2, 3), _o(T, 2, 4)
    ),
    "cosine_similarity_dim": lambda T: T.nn.functional.cosine_similarity(
        _o(T, 2, 3), _o(T, 2, 3), dim=2
    ),
    "cosine_similarity_int": lambda T: T.nn.functional.cosine_similarity(
        _o(T, 2, 3, dt="int64"), _o(T, 2, 3, dt="int64")
    ),
    "pairwise_distance_shape": lambda T: T.nn.functional.pairwise_distance(
        _o(T, 2, 3), _o(T, 2, 4)
    ),
    "normalize_dim": lambda T: T.nn.functional.normalize(_o(T, 2, 3), dim=2),
    "normalize_int": lambda T: T.nn.functional.normalize(_o(T, 2, 3, dt="int64")),
    "pdist_ndim": lambda T: T.nn.functional.pdist(_o(T, 3)),
    "pdist_neg_p": lambda T: T.nn.functional.pdist(_o(T, 3, 2), p=-1),
    "pdist_int": lambda T: T.nn.functional.pdist(_o(T, 3, 2, dt="int64")),
    "glu_odd": lambda T: T.nn.functional.glu(_o(T, 2, 3)),
    "glu_0d": lambda T: T.nn.functional.glu(T.tensor(1.0)),
    "prelu_weight_len": lambda T: T.nn.functional.prelu(_o(T, 2, 3), _o(T, 2)),
    "prelu_module": lambda T: T.nn.PReLU(3)(_o(T, 2, 4)),
    "hardshrink_int": lambda T: T.nn.functional.hardshrink(_i(T, 1, 2)),
    "gelu_approximate": lambda T: T.nn.functional.gelu(_o(T, 2), approximate="fast"),
    "gelu_int": lambda T: T.nn.functional.gelu(_i(T, 1, 2)),
    "elu_int": lambda T: T.nn.functional.elu(_i(T, 1, 2)),
    "silu_int": lambda T: T.nn.functional.silu(_i(T, 1, 2)),
    "sdpa_shape": lambda T: T.nn.functional.scaled_dot_product_attention(
        _o(T, 1, 2, 4), _o(T, 1, 3, 5), _o(T, 1, 3, 4)
    ),
    "mha_embed_dim": lambda T: T.nn.MultiheadAttention(5, 2),
    "mha_input_dim": lambda T: T.nn.MultiheadAttention(4, 2)(
        _o(T, 3, 1, 5), _o(T, 3, 1, 5), _o(T, 3, 1, 5)
    ),
    "flatten_module_dims": lambda T: T.nn.Flatten(2, 0)(_o(T, 2, 3, 4)),
    "unflatten_module": lambda T: T.nn.Unflatten(1, (2, 2))(_o(T, 2, 3)),
}

MORE: dict[str, Case] = {
    # 3-d pools
    "max_pool3d_stride0": lambda T: T.nn.functional.max_pool3d(_o(T, 1, 1, 4, 4, 4), 2, stride=0),
    "max_pool3d_pad_big": lambda T: T.nn.functional.max_pool3d(_o(T, 1, 1, 4, 4, 4), 2, padding=2),
    "max_pool3d_pad_neg": lambda T: T.nn.functional.max_pool3d(_o(T, 1, 1, 4, 4, 4), 2, padding=-1),
    "max_pool3d_dilation0": lambda T: T.nn.functional.max_pool3d(
        _o(T, 1, 1, 4, 4, 4), 2, dilation=0
    ),
    "max_pool3d_kernel_len": lambda T: T.nn.functional.max_pool3d(_o(T, 1, 1, 4, 4, 4), (2, 2)),
    "max_pool3d_empty": lambda T: T.nn.functional.max_pool3d(_o(T, 1, 0, 4, 4, 4), 2),
    "max_pool3d_int": lambda T: (
        T.nn.functional.max_pool3d(_o(T, 1, 1, 4, 4, 4, dt="int64"), 2).dtype
    ),
    "max_pool3d_indices": lambda T: T.nn.functional.max_pool3d(
        _o(T, 1, 1, 2, 2, 2), 3, return_indices=True
    ),
    "avg_pool3d_stride0": lambda T: T.nn.functional.avg_pool3d(_o(T, 1, 1, 4, 4, 4), 2, stride=0),
    "avg_pool3d_pad_big": lambda T: T.nn.functional.avg_pool3d(_o(T, 1, 1, 4, 4, 4), 2, padding=2),
    "avg_pool3d_ndim": lambda T: T.nn.functional.avg_pool3d(_o(T, 4, 4), 2),
    "avg_pool3d_divisor0": lambda T: T.nn.functional.avg_pool3d(
        _o(T, 1, 1, 4, 4, 4), 2, divisor_override=0
    ),
    "avg_pool3d_int": lambda T: T.nn.functional.avg_pool3d(_o(T, 1, 1, 4, 4, 4, dt="int64"), 2),
    "avg_pool1d_stride0": lambda T: T.nn.functional.avg_pool1d(_o(T, 1, 1, 4), 2, stride=0),
    "avg_pool1d_pad_big": lambda T: T.nn.functional.avg_pool1d(_o(T, 1, 1, 4), 2, padding=2),
    "avg_pool1d_kernel_len": lambda T: T.nn.functional.avg_pool1d(_o(T, 1, 1, 4), (2, 2)),
    "max_pool1d_kernel0": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 4), 0),
    "max_pool1d_stride0": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 4), 2, stride=0),
    "max_pool1d_pad_neg": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 4), 2, padding=-1),
    "max_pool1d_pad_big": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 4), 2, padding=2),
    "max_pool1d_dilation0": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 4), 2, dilation=0),
    "max_pool1d_empty": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 0, 4), 2),
    "max_pool1d_kernel_len": lambda T: T.nn.functional.max_pool1d(_o(T, 1, 1, 4), (2, 2)),
    "max_pool1d_indices_ndim": lambda T: T.nn.functional.max_pool1d(
        _o(T, 4), 2, return_indices=True
    ),
    "max_pool1d_indices_stride0": lambda T: T.nn.functional.max_pool1d(
        _o(T, 1, 1, 4), 2, stride=0, return_indices=True
    ),
    "max_pool2d_pad_neg": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), 2, padding=-1),
    "max_pool2d_stride_neg": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), 2, stride=-1),
    "max_pool2d_kernel_neg": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4), -1),
    "max_pool2d_empty_channels": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 0, 4, 4), 2),
    "max_pool2d_stride_len": lambda T: T.nn.functional.max_pool2d(
        _o(T, 1, 1, 4, 4), 2, stride=(1, 1, 1)
    ),
    "max_pool2d_dilation_len": lambda T: T.nn.functional.max_pool2d(
        _o(T, 1, 1, 4, 4), 2, dilation=(1, 1, 1)
    ),
    "max_pool2d_bool": lambda T: T.nn.functional.max_pool2d(_o(T, 1, 1, 4, 4, dt="bool"), 2),
    "max_pool2d_ceil_ok": lambda T: (
        T.nn.functional.max_pool2d(_o(T, 1, 1, 5, 5), 2, ceil_mode=True).shape
    ),
    "max_pool2d_module_small": lambda T: T.nn.MaxPool2d(3, padding=1)(_o(T, 1, 1, 1, 1)),
    "avg_pool2d_pad_neg": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4), 2, padding=-1),
    "avg_pool2d_stride_neg": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4), 2, stride=-1),
    "avg_pool2d_5d": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 1, 4, 4), 2),
    "avg_pool2d_kernel_len": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 1, 4, 4), (2, 2, 2)),
    "avg_pool2d_module_small": lambda T: T.nn.AvgPool2d(3)(_o(T, 1, 1, 2, 2)),
    "lp_pool2d_stride0": lambda T: T.nn.functional.lp_pool2d(_o(T, 1, 1, 4, 4), 2, 2, stride=0),
    "lp_pool3d_too_small": lambda T: T.nn.functional.lp_pool3d(_o(T, 1, 1, 2, 2, 2), 2, 3),
    "adaptive_max_pool1d_len": lambda T: T.nn.functional.adaptive_max_pool1d(
        _o(T, 1, 1, 4), (2, 2)
    ),
    "adaptive_avg_pool1d_len": lambda T: T.nn.functional.adaptive_avg_pool1d(
        _o(T, 1, 1, 4), (2, 2)
    ),
    "adaptive_max_pool3d_ndim": lambda T: T.nn.functional.adaptive_max_pool3d(_o(T, 4, 4), 2),
    "adaptive_avg_pool3d_neg": lambda T: T.nn.functional.adaptive_avg_pool3d(
        _o(T, 1, 1, 4, 4, 4), -1
    ),
    "adaptive_avg_pool2d_empty": lambda T: T.nn.functional.adaptive_avg_pool2d(_o(T, 1, 0, 4), 2),
    "adaptive_avg_pool2d_int": lambda T: T.nn.functional.adaptive_avg_pool2d(
        _o(T, 1, 4, 4, dt="int64"), 2
    ),
    "adaptive_max_pool2d_int": lambda T: T.nn.functional.adaptive_max_pool2d(
        _o(T, 1, 4, 4, dt="int64"), 2
    ),
    "fractional_max_pool3d_no_size": lambda T: T.nn.functional.fractional_max_pool3d(
        _o(T, 1, 1, 4, 4, 4), 2
    ),
    "fractional_max_pool2d_ndim": lambda T: T.nn.functional.fractional_max_pool2d(
        _o(T, 4, 4), 2, output_size=2
    ),
    "max_unpool1d_ndim": lambda T: T.nn.functional.max_unpool1d(
        _o(T, 4), T.zeros(4, dtype=T.int64), 2
    ),
    "max_unpool2d_index_oob": lambda T: T.nn.functional.max_unpool2d(
        _o(T, 1, 1, 2, 2), T.full((1, 1, 2, 2), 99, dtype=T.int64), 2
    ),
    "avg_pool3d_int_values": lambda T: T.nn.functional.avg_pool3d(
        T.arange(128).reshape(1, 2, 4, 4, 4) * 7 % 11 - 5, 2, padding=1
    ).tolist(),
    "avg_pool2d_int_values": lambda T: T.nn.functional.avg_pool2d(
        T.arange(32).reshape(2, 4, 4) * 7 % 11 - 5, 2, padding=1, count_include_pad=False
    ).tolist(),
    "avg_pool2d_int32": lambda T: T.nn.functional.avg_pool2d(_o(T, 1, 4, 4, dt="int32"), 2),
    "avg_pool3d_uint8": lambda T: T.nn.functional.avg_pool3d(_o(T, 1, 4, 4, 4, dt="uint8"), 2),
    "avg_pool1d_stride_len": lambda T: T.nn.functional.avg_pool1d(_o(T, 1, 1, 4), 2, stride=(1, 1)),
    "avg_pool1d_len_before_ndim": lambda T: T.nn.functional.avg_pool1d(_o(T, 4), (2, 2)),
    "adaptive_max_pool1d_len_before_ndim": lambda T: T.nn.functional.adaptive_max_pool1d(
        _o(T, 4), (2, 2)
    ),
    "adaptive_avg_pool2d_int_1x1": lambda T: T.nn.functional.adaptive_avg_pool2d(
        _o(T, 1, 4, 4, dt="int64"), 1
    ),
    # norms
    "layer_norm_bias_f64": lambda T: T.nn.functional.layer_norm(
        _o(T, 2, 3), (3,), _o(T, 3), _o(T, 3, dt="float64")
    ),
    "layer_norm_bias_only_f64": lambda T: T.nn.functional.layer_norm(
        _o(T, 2, 3), (3,), None, _o(T, 3, dt="float64")
    ),
    "group_norm_bias_f64": lambda T: T.nn.functional.group_norm(
        _o(T, 2, 6, 3), 2, _o(T, 6), _o(T, 6, dt="float64")
    ),
    "batch_norm_mixed_weight": lambda T: T.nn.functional.batch_norm(
        _o(T, 2, 3), T.zeros(3), _o(T, 3), _o(T, 3, dt="float64")
    ),
    "batch_norm_mixed_running": lambda T: T.nn.functional.batch_norm(
        _o(T, 2, 3), T.zeros(3, dtype=T.float64), _o(T, 3)
    ),
    "batch_norm_f64_input_f32_params": lambda T: T.nn.BatchNorm1d(3).eval()(
        _o(T, 2, 3, dt="float64")
    ),
    "batch_norm_empty_ok": lambda T: (
        T.nn.functional.batch_norm(_o(T, 0, 3), T.zeros(4), _o(T, 4)).shape
    ),
    "batch_norm_module_int": lambda T: T.nn.BatchNorm1d(3)(_o(T, 2, 3, dt="int64")),
    "batch_norm2d_one_value": lambda T: T.nn.BatchNorm2d(3)(_o(T, 1, 3, 1, 1)),
    "instance_norm_int": lambda T: T.nn.functional.instance_norm(_o(T, 2, 3, 4, dt="int64")),
    "instance_norm_module_channels": lambda T: T.nn.InstanceNorm1d(3, affine=True)(_o(T, 2, 4, 5)),
    "layer_norm_empty_shape": lambda T: T.nn.functional.layer_norm(_o(T, 2, 3), ()),
    "layer_norm_mixed": lambda T: T.nn.functional.layer_norm(
        _o(T, 2, 3), (3,), _o(T, 3, dt="float64")
    ),
    "layer_norm_int_weight": lambda T: T.nn.functional.layer_norm(
        _o(T, 2, 3, dt="int64"), (3,), _o(T, 3)
    ),
    "layer_norm_module_f64": lambda T: T.nn.LayerNorm(3)(_o(T, 2, 3, dt="float64")),
    "group_norm_one_value": lambda T: T.nn.functional.group_norm(_o(T, 1, 2), 2),
    "group_norm_int": lambda T: T.nn.functional.group_norm(_o(T, 2, 6, 3, dt="int64"), 2),
    "group_norm_mixed": lambda T: T.nn.functional.group_norm(
        _o(T, 2, 6, 3), 2, _o(T, 6, dt="float64")
    ),
    "group_norm_2d_weight": lambda T: T.nn.functional.group_norm(_o(T, 2, 6, 3), 2, _o(T, 6, 1)),
    "rms_norm_int": lambda T: T.nn.functional.rms_norm(_o(T, 2, 3, dt="int64"), (3,)),
    "rms_norm_input_shape": lambda T: T.nn.functional.rms_norm(_o(T, 2, 3), (4,), None),
    "local_response_norm_int": lambda T: T.nn.functional.local_response_norm(
        _o(T, 2, 3, 4, dt="int64"), 2
    ),
    # losses
    "nll_uint8_target": lambda T: (
        T.nn.functional.nll_loss(_o(T, 2, 3), T.tensor([0, 1], dtype=T.uint8)).dtype
    ),
    "nll_int_input": lambda T: T.nn.functional.nll_loss(_o(T, 2, 3, dt="int64"), _i(T, 0, 1)),
    "nll_weight_f64": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3), _i(T, 0, 1), weight=_o(T, 3, dt="float64")
    ),
    "nll_weight_2d": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3), _i(T, 0, 1), weight=_o(T, 3, 1)
    ),
    "nll_2d_target_2d": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3), T.zeros(2, 2, dtype=T.int64)
    ),
    "nll_1d_input_target_2": lambda T: T.nn.functional.nll_loss(_o(T, 3), _i(T, 0, 1)),
    "nll_1d_input_target_1": lambda T: T.nn.functional.nll_loss(_o(T, 3), _i(T, 1)).shape,
    "nll_3d_target_shape": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3, 4), T.zeros(2, 5, dtype=T.int64)
    ),
    "nll_4d_target_ndim": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3, 4, 4), T.zeros(2, 4, dtype=T.int64)
    ),
    "nll_4d_int_input": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3, 4, 4, dt="int64"), T.zeros(2, 4, 4, dtype=T.int64)
    ),
    "nll_5d_target_shape": lambda T: T.nn.functional.nll_loss(
        _o(T, 2, 3, 4, 4, 4), T.zeros(2, 4, 4, 5, dtype=T.int64)
    ),
    "nll_4d_float_target": lambda T: T.nn.functional.nll_loss(_o(T, 2, 3, 4, 4), _o(T, 2, 4, 4)),
    "nll_batch_float_target": lambda T: T.nn.functional.nll_loss(_o(T, 2, 3), _o(T, 3)),
    "ce_3d_float_index": lambda T: T.nn.functional.cross_entropy(_o(T, 2, 3, 4), _o(T, 2, 4)),
    "ce_bool_target": lambda T: T.nn.functional.cross_entropy(_o(T, 2, 3), _o(T, 2, dt="bool")),
    "ce_int_input": lambda T: T.nn.functional.cross_entropy(_o(T, 2, 3, dt="int64"), _i(T, 0, 1)),
    "ce_prob_smoothing_big": lambda T: T.nn.functional.cross_entropy(
        _o(T, 2, 3), _o(T, 2, 3), label_smoothing=2.0
    ),
    "ce_index_smoothing_big": lambda T: T.nn.functional.cross_entropy(
        _o(T, 2, 3), _i(T, 0, 1), label_smoothing=2.0
    ),
    "ce_prob_ignore_neg_ok": lambda T: (
        T.nn.functional.cross_entropy(_o(T, 2, 3), _o(T, 2, 3) / 3).shape
    ),
    "ce_4d_target_shape": lambda T: T.nn.functional.cross_entropy(
        _o(T, 2, 3, 4, 4), T.zeros(2, 4, 5, dtype=T.int64)
    ),
    "ce_module_smoothing": lambda T: T.nn.CrossEntropyLoss(label_smoothing=1.5)(
        _o(T, 2, 3), _i(T, 0, 1)
    ),
    "l1_int_sum": lambda T: (
        T.nn.functional.l1_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64"), reduction="sum").dtype
    ),
    "mse_f64_target": lambda T: T.nn.functional.mse_loss(_o(T, 3), _o(T, 3, dt="float64")).dtype,
    "bce_weight_broadcast_ok": lambda T: (
        T.nn.functional.binary_cross_entropy(_o(T, 2, 3) / 2, _o(T, 2, 3), weight=_o(T, 3)).shape
    ),
    "bce_weight_2d_mismatch": lambda T: T.nn.functional.binary_cross_entropy(
        _o(T, 2, 3) / 2, _o(T, 2, 3), weight=_o(T, 3, 3)
    ),
    "bce_logits_weight_shape": lambda T: T.nn.functional.binary_cross_entropy_with_logits(
        _o(T, 2, 3), _o(T, 2, 3), weight=_o(T, 4)
    ),
    "bce_logits_bool_target": lambda T: T.nn.functional.binary_cross_entropy_with_logits(
        _o(T, 3), _o(T, 3, dt="bool")
    ),
    "kl_div_float_int_target": lambda T: T.nn.functional.kl_div(
        _o(T, 3), _o(T, 3, dt="int64"), reduction="sum"
    ),
    "kl_div_batchmean_ok": lambda T: (
        T.nn.functional.kl_div(_o(T, 2, 3), _o(T, 2, 3), reduction="batchmean").shape
    ),
    "poisson_nll_int": lambda T: (
        T.nn.functional.poisson_nll_loss(_o(T, 3, dt="int64"), _o(T, 3, dt="int64")).dtype
    ),
    "hinge_int": lambda T: T.nn.functional.hinge_embedding_loss(
        _o(T, 3, dt="int64"), _o(T, 3, dt="int64")
    ),
    "margin_ranking_int": lambda T: (
        T.nn.functional.margin_ranking_loss(
            _o(T, 3, dt="int64"), _o(T, 3, dt="int64"), _o(T, 3, dt="int64")
        ).dtype
    ),
    "multi_margin_float_target": lambda T: T.nn.functional.multi_margin_loss(_o(T, 2, 3), _o(T, 2)),
    "multi_margin_3d": lambda T: T.nn.functional.multi_margin_loss(_o(T, 2, 3, 4), _i(T, 0, 1)),
    "multilabel_margin_3d": lambda T: T.nn.functional.multilabel_margin_loss(
        _o(T, 2, 3, 4), T.zeros(2, 3, 4, dtype=T.int64)
    ),
    "triplet_distance_fn_bad": lambda T: T.nn.functional.triplet_margin_with_distance_loss(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 4)
    ),
    "cosine_embedding_target_2d": lambda T: T.nn.functional.cosine_embedding_loss(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 1)
    ),
    "gaussian_nll_var_broadcast_ok": lambda T: (
        T.nn.functional.gaussian_nll_loss(_o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 1)).shape
    ),
    "gaussian_nll_var_bad": lambda T: T.nn.functional.gaussian_nll_loss(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 3, 1)
    ),
    "ctc_int_log_probs": lambda T: T.nn.functional.ctc_loss(
        _o(T, 5, 2, 4, dt="int64"), T.ones(2, 3, dtype=T.int64), _i(T, 5, 5), _i(T, 3, 3)
    ),
    "ctc_float_targets": lambda T: T.nn.functional.ctc_loss(
        _o(T, 5, 2, 4).log_softmax(2), _o(T, 2, 3), _i(T, 5, 5), _i(T, 3, 3)
    ),
    "ctc_blank_range": lambda T: T.nn.functional.ctc_loss(
        _o(T, 5, 2, 4).log_softmax(2),
        T.ones(2, 3, dtype=T.int64),
        _i(T, 5, 5),
        _i(T, 3, 3),
        blank=4,
    ),
    "ctc_2d_log_probs_batched_targets": lambda T: T.nn.functional.ctc_loss(
        _o(T, 5, 4).log_softmax(1), T.ones(2, 3, dtype=T.int64), _i(T, 5), _i(T, 3)
    ),
    "module_kl_bad_reduction": lambda T: T.nn.KLDivLoss(reduction="avg")(_o(T, 3), _o(T, 3)),
    "module_bce_logits_pos_weight": lambda T: T.nn.BCEWithLogitsLoss(pos_weight=_o(T, 4))(
        _o(T, 2, 3), _o(T, 2, 3)
    ),
    "module_nll_weight": lambda T: T.nn.NLLLoss(weight=_o(T, 2))(_o(T, 2, 3), _i(T, 0, 1)),
    # embedding, one_hot, pad, misc
    "embedding_uint8_index": lambda T: T.nn.Embedding(4, 2)(T.tensor([1], dtype=T.uint8)),
    "embedding_complex_index": lambda T: T.nn.functional.embedding(T.tensor([1j]), _o(T, 4, 2)),
    "embedding_max_norm_negative_idx": lambda T: T.nn.functional.embedding(
        _i(T, -5), _o(T, 4, 2), max_norm=1.0
    ),
    "embedding_max_norm_ok": lambda T: (
        T.nn.functional.embedding(_i(T, 0, 3), _o(T, 4, 2), max_norm=1.0).shape
    ),
    "embedding_padding_idx_neg_ok": lambda T: (
        T.nn.functional.embedding(_i(T, 0), _o(T, 4, 2), padding_idx=-1).shape
    ),
    "pad_reflect_3d_big": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 3, 3, 3), (0, 0, 0, 0, 3, 0), mode="reflect"
    ),
    "pad_reflect_both_dims": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 3, 3), (3, 3, 3, 3), mode="reflect"
    ),
    "pad_reflect_empty": lambda T: T.nn.functional.pad(_o(T, 1, 1, 0), (1, 1), mode="reflect"),
    "pad_replicate_2d_empty": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 0, 2), (1, 1, 1, 1), mode="replicate"
    ),
    "pad_replicate_len8": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 4, 4, 4), (1,) * 8, mode="replicate"
    ),
    "pad_circular_1d": lambda T: T.nn.functional.pad(_o(T, 4), (1, 1), mode="circular"),
    "pad_reflect_6d": lambda T: T.nn.functional.pad(
        _o(T, 1, 1, 1, 1, 1, 4), (1, 1), mode="reflect"
    ),
    "pad_negative_to_zero_ok": lambda T: T.nn.functional.pad(_o(T, 1, 3), (-3, 0)).shape,
    "pad_negative_rows": lambda T: T.nn.functional.pad(_o(T, 1, 3), (0, 0, -2, 0)),
    "pad_reflect_negative_ok": lambda T: (
        T.nn.functional.pad(_o(T, 1, 1, 3), (-1, -1), mode="reflect").shape
    ),
    "dropout_bool": lambda T: T.nn.functional.dropout(_o(T, 3, dt="bool"), 0.5),
    "dropout_int_p1": lambda T: T.nn.functional.dropout(_o(T, 3, dt="int64"), 1.0).dtype,
    "dropout_int_eval": lambda T: (
        T.nn.functional.dropout(_o(T, 3, dt="int64"), 0.5, training=False).dtype
    ),
    "dropout2d_int": lambda T: T.nn.functional.dropout2d(_o(T, 1, 2, 3, 3, dt="int64"), 0.5),
    "softmax_dim0_int": lambda T: T.nn.functional.softmax(_o(T, 2, 3, dt="int64"), dim=0),
    "log_softmax_dim0_int": lambda T: T.nn.functional.log_softmax(_o(T, 2, 3, dt="int64"), dim=0),
    "softmax_complex": lambda T: T.nn.functional.softmax(T.tensor([1j, 2j]), dim=0),
    "softmax_dtype_long": lambda T: T.nn.functional.softmax(_o(T, 3), dim=0, dtype=T.int64),
    "softmax_0d_int": lambda T: T.nn.functional.softmax(T.tensor(1), dim=0),
    "cosine_similarity_f64": lambda T: (
        T.nn.functional.cosine_similarity(_o(T, 2, 3), _o(T, 2, 3, dt="float64")).dtype
    ),
    "cosine_similarity_int_shape": lambda T: T.nn.functional.cosine_similarity(
        _o(T, 2, 3, dt="int64"), _o(T, 2, 4, dt="int64")
    ),
    "cosine_similarity_broadcast_ok": lambda T: (
        T.nn.functional.cosine_similarity(_o(T, 2, 3), _o(T, 1, 3)).shape
    ),
    "pairwise_distance_int": lambda T: (
        T.nn.functional.pairwise_distance(_o(T, 2, 3, dt="int64"), _o(T, 2, 3, dt="int64")).dtype
    ),
    "normalize_p0": lambda T: T.nn.functional.normalize(_o(T, 2, 3), p=0).shape,
    "linear_0d_weight": lambda T: T.nn.functional.linear(_o(T, 2, 3), T.tensor(1.0)),
    "linear_int_weight": lambda T: T.nn.functional.linear(_o(T, 2, 3), _o(T, 4, 3, dt="int64")),
    "linear_f64_bias": lambda T: T.nn.functional.linear(
        _o(T, 2, 3), _o(T, 4, 3), _o(T, 4, dt="float64")
    ),
    "linear_3d_shape": lambda T: T.nn.functional.linear(_o(T, 5, 2, 3), _o(T, 4, 5)),
    "unfold_int": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3, dt="int64"), 2),
    "unfold_1d": lambda T: T.nn.functional.unfold(_o(T, 3), 2),
    "unfold_5d": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 1, 3, 3), 2),
    "unfold_kernel0": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3), 0),
    "unfold_kernel_len": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 3), (2, 2, 2)),
    "unfold_rect_big": lambda T: T.nn.functional.unfold(_o(T, 1, 1, 3, 5), 4),
    "unfold_module": lambda T: T.nn.Unfold(4)(_o(T, 1, 1, 3, 3)),
    "fold_kernel0": lambda T: T.nn.functional.fold(_o(T, 1, 4, 4), (3, 3), 0),
    "fold_1d": lambda T: T.nn.functional.fold(_o(T, 4), (3, 3), 2),
    "fold_pad_neg": lambda T: T.nn.functional.fold(_o(T, 1, 4, 4), (3, 3), 2, padding=-1),
    "fold_dilation0": lambda T: T.nn.functional.fold(_o(T, 1, 4, 4), (3, 3), 2, dilation=0),
    "fold_int": lambda T: T.nn.functional.fold(_o(T, 1, 4, 4, dt="int64"), (3, 3), 2),
    "fold_output_len": lambda T: T.nn.functional.fold(_o(T, 1, 4, 4), (3, 3, 3), 2),
    "fold_module": lambda T: T.nn.Fold((3, 3), 2)(_o(T, 1, 4, 5)),
    "pixel_unshuffle_ndim": lambda T: T.nn.functional.pixel_unshuffle(_o(T, 4, 4), 2),
    "pixel_shuffle_factor0": lambda T: T.nn.functional.pixel_shuffle(_o(T, 1, 4, 2, 2), 0),
    "channel_shuffle_groups0": lambda T: T.nn.functional.channel_shuffle(_o(T, 1, 4, 2, 2), 0),
    "grid_sample_5d_bicubic": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 2, 2, 2), _o(T, 1, 2, 2, 2, 3), mode="bicubic", align_corners=False
    ),
    "grid_sample_int": lambda T: T.nn.functional.grid_sample(
        _o(T, 1, 1, 4, 4, dt="int64"), _o(T, 1, 2, 2, 2, dt="int64"), align_corners=False
    ),
    "affine_grid_3d_batch": lambda T: T.nn.functional.affine_grid(
        _o(T, 2, 3, 4), [1, 1, 4, 4, 4], align_corners=False
    ),
    "affine_grid_size_zero": lambda T: T.nn.functional.affine_grid(
        _o(T, 1, 2, 3), [1, 1, 0, 4], align_corners=False
    ),
    "interp_scale_neg": lambda T: T.nn.functional.interpolate(_o(T, 1, 1, 4), scale_factor=-1.0),
    "interp_int_linear": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4, dt="int64"), scale_factor=2.0, mode="linear"
    ),
    "interp_int_nearest": lambda T: (
        T.nn.functional.interpolate(_o(T, 1, 1, 4, dt="int64"), scale_factor=2.0).dtype
    ),
    "interp_area_align": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), size=2, mode="area", align_corners=True
    ),
    "interp_antialias_linear": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), size=2, mode="linear", antialias=True
    ),
    "interp_recompute_no_scale": lambda T: T.nn.functional.interpolate(
        _o(T, 1, 1, 4), size=2, recompute_scale_factor=True
    ),
    "upsample_nearest_align": lambda T: T.nn.Upsample(scale_factor=2.0, align_corners=True)(
        _o(T, 1, 1, 2)
    ),
    "prelu_scalar_weight_ok": lambda T: T.nn.functional.prelu(_o(T, 2, 3), _o(T, 1)).shape,
    "prelu_0d_input": lambda T: T.nn.functional.prelu(T.tensor(1.0), _o(T, 2)),
    "glu_dim": lambda T: T.nn.functional.glu(_o(T, 2, 4), dim=2),
    "hardtanh_bounds": lambda T: T.nn.functional.hardtanh(_o(T, 3), 1.0, -1.0),
    "threshold_int": lambda T: T.nn.functional.threshold(_o(T, 3, dt="int64"), 0.5, 2).dtype,
    "softplus_int": lambda T: T.nn.functional.softplus(_o(T, 3, dt="int64")),
    "logsigmoid_int": lambda T: T.nn.functional.logsigmoid(_o(T, 3, dt="int64")),
    "mish_int": lambda T: T.nn.functional.mish(_o(T, 3, dt="int64")),
    "hardswish_int": lambda T: T.nn.functional.hardswish(_o(T, 3, dt="int64")),
    "leaky_relu_int": lambda T: T.nn.functional.leaky_relu(_o(T, 3, dt="int64")),
    "relu6_int": lambda T: T.nn.functional.relu6(_o(T, 3, dt="int64")).dtype,
    "celu_zero_alpha": lambda T: T.nn.functional.celu(_o(T, 3), alpha=0.0),
    "rrelu_int": lambda T: T.nn.functional.rrelu(_o(T, 3, dt="int64")),
    # module constructors
    "linear_negative_features": lambda T: T.nn.Linear(-1, 2),
    "embedding_negative_num": lambda T: T.nn.Embedding(-1, 2),
    "conv_zero_in_channels": lambda T: T.nn.Conv2d(0, 2, 3),
    "conv_negative_kernel": lambda T: T.nn.Conv2d(2, 2, -1)(_o(T, 1, 2, 4, 4)),
    "batch_norm_zero_features": lambda T: T.nn.BatchNorm1d(0)(_o(T, 2, 0)).shape,
    "dropout_module_neg": lambda T: T.nn.Dropout2d(p=-0.5),
    "upsample_module_neither": lambda T: T.nn.Upsample()(_o(T, 1, 1, 2)),
    "layer_norm_module_shape_2d": lambda T: T.nn.LayerNorm((2, 3))(_o(T, 3, 2)),
    "group_norm_module_channels_ok": lambda T: T.nn.GroupNorm(3, 6)(_o(T, 2, 6)).shape,
    "rnn_input_size": lambda T: T.nn.RNN(3, 4)(_o(T, 2, 1, 5)),
    "gru_hidden_shape": lambda T: T.nn.GRU(3, 4)(_o(T, 2, 1, 3), T.zeros(1, 2, 4)),
    "transformer_d_model": lambda T: T.nn.TransformerEncoderLayer(5, 2),
    "mha_kdim_mismatch": lambda T: T.nn.MultiheadAttention(4, 2)(
        _o(T, 3, 1, 4), _o(T, 2, 1, 4), _o(T, 3, 1, 4)
    ),
    "mha_batch_first_3d_mask": lambda T: T.nn.MultiheadAttention(4, 2)(
        _o(T, 3, 1, 4), _o(T, 3, 1, 4), _o(T, 3, 1, 4), attn_mask=T.zeros(2, 2, 2)
    ),
    "batch_norm_half_float_params": lambda T: (
        T.nn.functional.batch_norm(
            _o(T, 2, 3, dt="float16"), T.zeros(3), _o(T, 3), _o(T, 3), T.zeros(3), training=True
        ).dtype
    ),
    "layer_norm_half_float_params": lambda T: (
        T.nn.functional.layer_norm(_o(T, 2, 3, dt="float16"), (3,), _o(T, 3), T.zeros(3)).dtype
    ),
    "unfold_unbatched_grad_fn": lambda T: T.nn.functional.unfold(
        T.ones(1, 3, 3, requires_grad=True), 2
    ).grad_fn.name(),
    "fold_unbatched_grad_fn": lambda T: T.nn.functional.fold(
        T.ones(4, 4, requires_grad=True), (3, 3), 2
    ).grad_fn.name(),
    "sdpa_int": lambda T: T.nn.functional.scaled_dot_product_attention(
        _o(T, 1, 2, 4, dt="int64"), _o(T, 1, 2, 4, dt="int64"), _o(T, 1, 2, 4, dt="int64")
    ),
    "sdpa_mixed": lambda T: T.nn.functional.scaled_dot_product_attention(
        _o(T, 1, 2, 4), _o(T, 1, 2, 4, dt="float64"), _o(T, 1, 2, 4)
    ),
    "sdpa_mask_shape": lambda T: T.nn.functional.scaled_dot_product_attention(
        _o(T, 1, 2, 4), _o(T, 1, 3, 4), _o(T, 1, 3, 4), attn_mask=T.zeros(2, 2)
    ),
}


def _loss_args(T: Any, name: str, n: int) -> list[Any]:
    """Arguments of a well-formed call of loss `name` over n elements per row."""
    x, y = _o(T, 2, n) / 2, _o(T, 2, n) / 2
    idx = T.zeros(2, dtype=T.int64)
    return {
        "cross_entropy": [x, idx],
        "nll_loss": [x, idx],
        "multi_margin_loss": [x, idx],
        "multilabel_margin_loss": [x, T.zeros(2, n, dtype=T.int64)],
        "margin_ranking_loss": [x, y, y],
        "cosine_embedding_loss": [x, y, _o(T, 2)],
        "triplet_margin_loss": [x, y, y],
        "triplet_margin_with_distance_loss": [x, y, y],
        "gaussian_nll_loss": [x, y, y],
    }.get(name, [x, y])


_LOSSES = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cosine_embedding_loss",
    "cross_entropy",
    "gaussian_nll_loss",
    "hinge_embedding_loss",
    "huber_loss",
    "kl_div",
    "l1_loss",
    "margin_ranking_loss",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "nll_loss",
    "poisson_nll_loss",
    "smooth_l1_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]


def _loss_case(name: str, kind: str) -> Case:
    def case(T: Any) -> Any:
        fn = getattr(T.nn.functional, name)
        if kind == "reduction":
            return fn(*_loss_args(T, name, 3), reduction="avg")
        if kind == "none":
            return fn(*_loss_args(T, name, 3), reduction="none").shape
        args = _loss_args(T, name, 3)  # the second operand one column short
        args[1] = _loss_args(T, name, 2)[1]
        return fn(*args)

    return case


MODULES: dict[str, Case] = {
    "m_conv1d_channels": lambda T: T.nn.Conv1d(3, 2, 2)(_o(T, 1, 2, 5)),
    "m_conv1d_small": lambda T: T.nn.Conv1d(1, 1, 4)(_o(T, 1, 1, 2)),
    "m_conv1d_ndim": lambda T: T.nn.Conv1d(1, 1, 2)(_o(T, 1, 1, 2, 2)),
    "m_conv3d_channels": lambda T: T.nn.Conv3d(3, 2, 2)(_o(T, 1, 2, 3, 3, 3)),
    "m_conv3d_ndim": lambda T: T.nn.Conv3d(1, 1, 2)(_o(T, 1, 3, 3)),
    "m_conv2d_reflect_small": lambda T: T.nn.Conv2d(1, 1, 3, padding=2, padding_mode="reflect")(
        _o(T, 1, 1, 2, 2)
    ),
    "m_conv2d_circular_small": lambda T: T.nn.Conv2d(1, 1, 3, padding=3, padding_mode="circular")(
        _o(T, 1, 1, 2, 2)
    ),
    "m_conv_transpose1d_channels": lambda T: T.nn.ConvTranspose1d(3, 2, 2)(_o(T, 1, 2, 5)),
    "m_conv_transpose3d_channels": lambda T: T.nn.ConvTranspose3d(3, 2, 2)(_o(T, 1, 2, 3, 3, 3)),
    "m_conv_transpose2d_output_size": lambda T: T.nn.ConvTranspose2d(1, 1, 3, stride=2)(
        _o(T, 1, 1, 3, 3), output_size=(10, 10)
    ),
    "m_conv_transpose2d_output_size_len": lambda T: T.nn.ConvTranspose2d(1, 1, 3, stride=2)(
        _o(T, 1, 1, 3, 3), output_size=(7, 7, 7)
    ),
    "m_conv_transpose2d_f64": lambda T: T.nn.ConvTranspose2d(1, 1, 3)(
        _o(T, 1, 1, 3, 3, dt="float64")
    ),
    "m_maxpool1d_small": lambda T: T.nn.MaxPool1d(3)(_o(T, 1, 1, 2)),
    "m_maxpool3d_small": lambda T: T.nn.MaxPool3d(3)(_o(T, 1, 1, 2, 2, 2)),
    "m_maxpool2d_pad": lambda T: T.nn.MaxPool2d(2, padding=2)(_o(T, 1, 1, 4, 4)),
    "m_maxpool2d_indices_small": lambda T: T.nn.MaxPool2d(3, return_indices=True)(
        _o(T, 1, 1, 2, 2)
    ),
    "m_avgpool1d_small": lambda T: T.nn.AvgPool1d(3)(_o(T, 1, 1, 2)),
    "m_avgpool3d_small": lambda T: T.nn.AvgPool3d(3)(_o(T, 1, 1, 2, 2, 2)),
    "m_adaptive_avg2d_ndim": lambda T: T.nn.AdaptiveAvgPool2d(2)(_o(T, 4)),
    "m_adaptive_max2d_ndim": lambda T: T.nn.AdaptiveMaxPool2d(2)(_o(T, 4)),
    "m_adaptive_avg1d_ndim": lambda T: T.nn.AdaptiveAvgPool1d(2)(_o(T, 4)),
    "m_lppool2d_small": lambda T: T.nn.LPPool2d(2, 3)(_o(T, 1, 1, 2, 2)),
    "m_lppool1d_ndim": lambda T: T.nn.LPPool1d(2, 3)(_o(T, 4)),
    "m_maxunpool2d_size": lambda T: T.nn.MaxUnpool2d(2)(
        _o(T, 1, 1, 2, 2), T.zeros(1, 1, 2, 2, dtype=T.int64), output_size=(9, 9)
    ),
    "m_batchnorm2d_channels": lambda T: T.nn.BatchNorm2d(3)(_o(T, 2, 4, 2, 2)),
    "m_batchnorm3d_channels_eval": lambda T: T.nn.BatchNorm3d(3).eval()(_o(T, 2, 4, 2, 2, 2)),
    "m_batchnorm1d_no_stats_eval": lambda T: (
        T.nn.BatchNorm1d(3, track_running_stats=False).eval()(_o(T, 1, 3)).shape
    ),
    "m_batchnorm1d_f64": lambda T: T.nn.BatchNorm1d(3)(_o(T, 2, 3, dt="float64")),
    "m_instancenorm3d_ndim": lambda T: T.nn.InstanceNorm3d(3)(_o(T, 3, 2, 2)),
    "m_instancenorm1d_one": lambda T: T.nn.InstanceNorm1d(3)(_o(T, 2, 3, 1)),
    "m_instancenorm2d_running_channels": lambda T: T.nn.InstanceNorm2d(3, track_running_stats=True)(
        _o(T, 2, 4, 2, 2)
    ),
    "m_layernorm_int": lambda T: T.nn.LayerNorm(3)(_o(T, 2, 3, dt="int64")),
    "m_groupnorm_channels": lambda T: T.nn.GroupNorm(2, 4)(_o(T, 2, 6, 3)),
    "m_groupnorm_f64": lambda T: T.nn.GroupNorm(2, 4)(_o(T, 2, 4, 3, dt="float64")),
    "m_localresponse_ndim": lambda T: T.nn.LocalResponseNorm(2)(_o(T, 3)),
    "m_rmsnorm_shape": lambda T: T.nn.RMSNorm(4)(_o(T, 2, 3)),
    "m_embedding_float": lambda T: T.nn.Embedding(4, 2)(_o(T, 2)),
    "m_embedding_oob_padding": lambda T: T.nn.Embedding(4, 2, padding_idx=0)(_i(T, 7)),
    "m_embeddingbag_3d": lambda T: T.nn.EmbeddingBag(4, 2)(T.zeros(1, 1, 1, dtype=T.int64)),
    "m_embeddingbag_2d_offsets": lambda T: T.nn.EmbeddingBag(4, 2)(
        T.zeros(2, 2, dtype=T.int64), _i(T, 0, 1)
    ),
    "m_embeddingbag_no_offsets": lambda T: T.nn.EmbeddingBag(4, 2)(_i(T, 0, 1)),
    "m_zeropad_len": lambda T: T.nn.ZeroPad2d((1, 1, 1))(_o(T, 1, 2, 2)),
    "m_constantpad1d_ok": lambda T: T.nn.ConstantPad1d(2, 3.5)(_o(T, 1, 2)).shape,
    "m_reflectionpad2d_big": lambda T: T.nn.ReflectionPad2d(2)(_o(T, 1, 1, 2, 2)),
    "m_reflectionpad3d_big": lambda T: T.nn.ReflectionPad3d(2)(_o(T, 1, 1, 2, 2, 2)),
    "m_replicationpad1d_ndim": lambda T: T.nn.ReplicationPad1d(2)(_o(T, 1, 1, 1, 2)),
    "m_replicationpad3d_ndim": lambda T: T.nn.ReplicationPad3d(1)(_o(T, 2, 2)),
    "m_circularpad2d_big": lambda T: T.nn.CircularPad2d(3)(_o(T, 1, 1, 2, 2)),
    "m_upsample_bilinear_3d": lambda T: T.nn.UpsamplingBilinear2d(scale_factor=2)(_o(T, 1, 1, 2)),
    "m_upsample_nearest_5d": lambda T: T.nn.UpsamplingNearest2d(scale_factor=2)(
        _o(T, 1, 1, 2, 2, 2)
    ),
    "m_softmax2d_ndim": lambda T: T.nn.Softmax2d()(_o(T, 2, 3)),
    "m_logsoftmax_dim": lambda T: T.nn.LogSoftmax(dim=3)(_o(T, 2, 3)),
    "m_softmin_int": lambda T: T.nn.Softmin(dim=0)(_i(T, 1, 2)),
    "m_dropout1d_ndim": lambda T: T.nn.Dropout1d()(_o(T, 1, 2, 3, 4)),
    "m_dropout2d_ndim_ok": lambda T: T.nn.Dropout2d().eval()(_o(T, 3)).shape,
    "m_dropout3d_p": lambda T: T.nn.Dropout3d(p=1.5),
    "m_alphadropout_p": lambda T: T.nn.AlphaDropout(p=-0.1),
    "m_linear_f64": lambda T: T.nn.Linear(3, 2)(_o(T, 2, 3, dt="float64")),
    "m_linear_0d": lambda T: T.nn.Linear(3, 2)(T.tensor(1.0)),
    "m_bilinear_shape": lambda T: T.nn.Bilinear(3, 4, 5)(_o(T, 2, 4), _o(T, 2, 3)),
    "m_bilinear_batch": lambda T: T.nn.Bilinear(3, 4, 5)(_o(T, 2, 3), _o(T, 3, 4)),
    "m_unfold_ndim": lambda T: T.nn.Unfold(2)(_o(T, 3)),
    "m_fold_blocks": lambda T: T.nn.Fold((3, 3), 2)(_o(T, 1, 4, 3)),
    "m_pixelshuffle_ndim": lambda T: T.nn.PixelShuffle(2)(_o(T, 4, 2)),
    "m_pixelunshuffle_div": lambda T: T.nn.PixelUnshuffle(2)(_o(T, 1, 1, 3, 4)),
    "m_channelshuffle_div": lambda T: T.nn.ChannelShuffle(2)(_o(T, 1, 3, 2, 2)),
    "m_cosine_similarity_shape": lambda T: T.nn.CosineSimilarity()(_o(T, 2, 3), _o(T, 2, 4)),
    "m_pairwise_distance_shape": lambda T: T.nn.PairwiseDistance()(_o(T, 2, 3), _o(T, 2, 4)),
    "m_flatten_dim": lambda T: T.nn.Flatten(3)(_o(T, 2, 3)),
    "m_unflatten_sizes": lambda T: T.nn.Unflatten(1, (2, 4))(_o(T, 2, 6)),
    "m_prelu_channels": lambda T: T.nn.PReLU(4)(_o(T, 2, 3)),
    "m_glu_odd": lambda T: T.nn.GLU()(_o(T, 2, 3)),
    "m_hardtanh_bounds": lambda T: T.nn.Hardtanh(1.0, -1.0),
    "m_threshold_int": lambda T: T.nn.Threshold(0.5, 2)(_i(T, 1, 2)).dtype,
    "m_mse_shape": lambda T: T.nn.MSELoss()(_o(T, 2, 3), _o(T, 3, 2)),
    "m_l1_int": lambda T: T.nn.L1Loss()(_i(T, 1, 2), _i(T, 1, 2)),
    "m_bce_shape": lambda T: T.nn.BCELoss()(_o(T, 3) / 2, _o(T, 2)),
    "m_bce_weight": lambda T: T.nn.BCELoss(weight=_o(T, 2))(_o(T, 3) / 2, _o(T, 3)),
    "m_bcelogits_shape": lambda T: T.nn.BCEWithLogitsLoss()(_o(T, 3), _o(T, 2)),
    "m_ce_float_index": lambda T: T.nn.CrossEntropyLoss()(_o(T, 4, 3), _o(T, 4)),
    "m_ce_ignore_prob": lambda T: T.nn.CrossEntropyLoss(ignore_index=0)(_o(T, 2, 3), _o(T, 2, 3)),
    "m_nll_range": lambda T: T.nn.NLLLoss()(_o(T, 2, 3), _i(T, 0, 5)),
    "m_nll_ignore": lambda T: T.nn.NLLLoss(ignore_index=5)(_o(T, 2, 3), _i(T, 0, 5)).shape,
    "m_kldiv_int": lambda T: T.nn.KLDivLoss(reduction="sum")(_i(T, 1, 2), _i(T, 1, 2)),
    "m_huber_delta": lambda T: T.nn.HuberLoss(delta=0.0)(_o(T, 3), _o(T, 3)),
    "m_smoothl1_beta": lambda T: T.nn.SmoothL1Loss(beta=-1.0)(_o(T, 3), _o(T, 3)),
    "m_poisson_shape": lambda T: T.nn.PoissonNLLLoss()(_o(T, 3), _o(T, 2)),
    "m_gaussian_var": lambda T: T.nn.GaussianNLLLoss()(_o(T, 3), _o(T, 3), -_o(T, 3)),
    "m_margin_ranking_dims": lambda T: T.nn.MarginRankingLoss()(_o(T, 3), _o(T, 3), _o(T, 1, 3)),
    "m_hinge_shape": lambda T: T.nn.HingeEmbeddingLoss()(_o(T, 3), _o(T, 2)),
    "m_multilabel_margin_dtype": lambda T: T.nn.MultiLabelMarginLoss()(_o(T, 2, 3), _o(T, 2, 3)),
    "m_multi_margin_p": lambda T: T.nn.MultiMarginLoss(p=3),
    "m_soft_margin_shape": lambda T: T.nn.SoftMarginLoss()(_o(T, 3), _o(T, 2)),
    "m_cosine_embedding_dims": lambda T: T.nn.CosineEmbeddingLoss()(
        _o(T, 2, 3), _o(T, 2, 3), _o(T, 2, 2)
    ),
    "m_triplet_dims": lambda T: T.nn.TripletMarginLoss()(_o(T, 2, 3), _o(T, 3), _o(T, 2, 3)),
    "m_ctc_lengths": lambda T: T.nn.CTCLoss()(
        _o(T, 5, 2, 4).log_softmax(2), T.ones(2, 3, dtype=T.int64), _i(T, 6, 5), _i(T, 3, 3)
    ),
}

EVERY_LOSS: dict[str, Case] = {
    f"{name}_{kind}": _loss_case(name, kind)
    for name in _LOSSES
    for kind in ("reduction", "none", "shape")
}

CASES: dict[str, Case] = {
    **CONV,
    **POOL,
    **NORM,
    **LOSS,
    **EMB,
    **MISC,
    **MORE,
    **EVERY_LOSS,
    **MODULES,
}

# name -> why shadowgrad differs and the file the fix belongs in (strict xfails)
XFAIL: dict[str, str] = {}


def _outcome(T: Any, name: str) -> str:
    r = raises(lambda: CASES[name](T))
    if isinstance(r, (torch.Tensor, shadowgrad.Tensor)):
        return (
            f"ok {tuple(r.shape)} {str(r.dtype).removeprefix('torch.').removeprefix('shadowgrad.')}"
        )
    if isinstance(r, (torch.nn.Module, shadowgrad.nn.Module)):
        return f"module {type(r).__name__}"
    if isinstance(r, (torch.dtype,)) or type(r).__name__ == "dtype":
        return f"dtype {str(r).split('.')[-1]}"
    if isinstance(r, tuple) and not hasattr(r, "_fields"):
        return f"tuple {tuple(r)}"
    return str(r)


@pytest.mark.parametrize("name", case_params(CASES, XFAIL))
def test_bad_input_matches_torch(name: str) -> None:
    t, s = _outcome(torch, name), _outcome(shadowgrad, name)
    assert s == t, f"{name}: torch {t!r}, shadowgrad {s!r}"


def test_xfails_name_cases() -> None:
    assert set(XFAIL) <= set(CASES)


# --- conv dtypes: every combination of input, weight and bias dtype --------------------------

_DTS = {"h": "float16", "f": "float32", "d": "float64", "l": "int64"}


def _conv_outcome(T: Any, name: str, combo: str) -> str:
    n = int(name[-2])
    x = _o(T, 1, 2, *(4,) * n, dt=_DTS[combo[0]])
    w = _o(T, 2, 2, *(2,) * n, dt=_DTS[combo[1]])
    args = [x, w] if combo[2] == "-" else [x, w, _o(T, 2, dt=_DTS[combo[2]])]
    r = raises(lambda: getattr(T.nn.functional, name)(*args))
    return (
        str(r)
        if not hasattr(r, "shape")
        else f"ok {tuple(r.shape)} {r.dtype}".replace("shadowgrad.", "torch.")
    )


@pytest.mark.parametrize(
    "name",
    ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"],
)
def test_conv_dtype_combinations_match_torch(name: str) -> None:
    for combo in itertools.product("hfdl", "fdl", "hfdl-"):
        c = "".join(combo)
        t, s = _conv_outcome(torch, name, c), _conv_outcome(shadowgrad, name, c)
        assert s == t, f"{name} with dtypes {c}: torch {t!r}, shadowgrad {s!r}"
