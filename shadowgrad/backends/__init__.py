"""Mirrors `torch.backends` as torch's CPU build reports it.

The flags (`cudnn.benchmark`, `cudnn.deterministic`, `cuda.matmul.allow_tf32`, ...) can be
read and set as in torch; shadowgrad computes the same way whatever they say.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _true(*args: Any, **kwargs: Any) -> bool:
    return True


cudnn = SimpleNamespace(
    enabled=True,
    benchmark=False,
    benchmark_limit=10,
    deterministic=False,
    allow_tf32=True,
    is_available=_false,
    is_acceptable=_false,
    version=lambda: None,
)
cuda = SimpleNamespace(
    matmul=SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                           allow_bf16_reduced_precision_reduction=True),
    is_built=_false,
    flash_sdp_enabled=_true,
    mem_efficient_sdp_enabled=_true,
    math_sdp_enabled=_true,
)  # fmt: skip
mps = SimpleNamespace(is_available=_false, is_built=_false)
mkldnn = SimpleNamespace(is_available=_true, enabled=True)
mkl = SimpleNamespace(is_available=_true)
openmp = SimpleNamespace(is_available=_true)

__all__ = ["cuda", "cudnn", "mkl", "mkldnn", "mps", "openmp"]
