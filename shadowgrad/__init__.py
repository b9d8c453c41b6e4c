"""shadowgrad: a reverse-mode autograd engine on numpy that mirrors PyTorch's public API.

`import shadowgrad as torch` runs ordinary PyTorch autograd and training code.
"""

from __future__ import annotations

import warnings as _warnings
from typing import Any

from . import (
    _dtype,
    autograd,
)
from ._creation import (
    arange,
    as_tensor,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from ._creation import public_from_numpy as from_numpy  # (warns of a read-only array)
from ._dtype import (
    bool_ as bool,
)
from ._dtype import (
    complex64,
    complex128,
    dtype,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    set_default_dtype,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from ._size import Size
from ._storage import TypedStorage, UntypedStorage, is_storage
from ._tensor import Tensor, device
from ._tensor_str import get_printoptions, set_printoptions
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .ops import install_methods as _install_methods

# the torch API version shadowgrad mirrors, so that code gating features on torch's version
# takes 2.13's path; shadowgrad's own version is the local label (shadowgrad/torch_version.py)
from .version import __version__

Tensor.__module__ = "shadowgrad"  # as torch.Tensor: type(t) is <class 'shadowgrad.Tensor'>

# torch computes inf and nan silently; numpy warns ("overflow encountered in exp"). Silence the
# floating-point RuntimeWarnings that numpy raises from shadowgrad's own code, and only those
# (Note [Floating-point warning filter] in _dtype.py).
_dtype.front_filter()

float = float32
double = float64
half = float16
if _dtype.HAS_BF16:  # Note [bfloat16 storage]: not where numpy's longdouble is float64
    bfloat16 = _dtype.bfloat16
cfloat = complex64
cdouble = complex128
long = int64
int = int32
short = int16

_FUNCTIONS = _install_methods()
globals().update(_FUNCTIONS)

from . import (  # noqa: E402 - these use the namespace built above
    __future__,
    _nn_exports,
    accelerator,
    amp,
    backends,
    cpu,
    cuda,
    distributed,
    distributions,
    fft,
    func,
    hub,
    jit,
    library,
    linalg,
    mps,
    nn,
    optim,
    profiler,
    random,
    sparse,
    special,
    testing,
    types,
    utils,
    version,
    xpu,
)
from ._device import get_device_module  # noqa: E402

globals().update(sparse._install())
from ._foreach import *  # noqa: E402, F403 - _foreach_mul_, _foreach_lerp_, ...
from ._formats import *  # noqa: E402, F403 - strided, channels_last, pi, inf, ...
from ._legacy import *  # noqa: E402, F403 - FloatTensor, LongTensor, ...
from ._library.tags import Tag  # noqa: E402
from ._lowrank import pca_lowrank, svd_lowrank  # noqa: E402
from ._runtime import *  # noqa: E402, F403 - finfo, iinfo, thread counts, compile, ...
from .amp import (  # noqa: E402
    GradScaler,
    autocast,
    clear_autocast_cache,
    get_autocast_dtype,
    is_autocast_cache_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)

_nn_exports.install(globals())

from . import overrides  # noqa: E402
from .nn.modules.module import typename  # noqa: E402
from .overrides import _C  # noqa: E402
from .serialization import load, save  # noqa: E402


def is_tensor(obj: Any) -> builtins_bool:  # type: ignore[valid-type]
    """Mirrors `torch.is_tensor`."""
    return isinstance(obj, Tensor)


def set_anomaly_enabled(*args: Any, **kwargs: Any) -> None:
    """Mirrors `torch.set_anomaly_enabled(enabled, check_nan=True)`: anomaly mode on or off."""
    from .autograd.anomaly_mode import _set

    if len(args) > 2:
        raise TypeError(
            f"set_anomaly_enabled() takes from 1 to 2 positional arguments but {len(args)} were "
            "given"
        )
    values = dict(zip(("enabled", "check_nan"), args, strict=False))
    for i, (k, v) in enumerate(values.items()):  # torch's parser reports these first
        if not isinstance(v, _builtins.bool):
            raise TypeError(
                f"set_anomaly_enabled(): argument '{k}' (position {i + 1}) must be bool, not "
                f"{type(v).__name__}"
            )
    for k, v in kwargs.items():
        if k not in ("enabled", "check_nan"):
            raise TypeError(f"set_anomaly_enabled() got an unexpected keyword argument '{k}'")
        if k in values:
            raise TypeError(f"set_anomaly_enabled() got multiple values for argument '{k}'")
        values[k] = v
    if "enabled" not in values:
        raise TypeError('set_anomaly_enabled() missing 1 required positional arguments: "enabled"')
    _set(values["enabled"], values.get("check_nan", True))


def is_floating_point(input: Tensor) -> builtins_bool:  # type: ignore[valid-type]
    """Mirrors `torch.is_floating_point`."""
    return input.dtype.is_floating_point


def numel(input: Tensor) -> builtins_int:  # type: ignore[valid-type]
    """Mirrors `torch.numel`."""
    return input.numel()


def result_type(tensor1: Any, tensor2: Any) -> dtype:
    """Mirrors `torch.result_type`."""
    from .ops.registry import result_type_of

    for v in (tensor1, tensor2):
        if not isinstance(v, (Tensor, _builtins.int, _builtins.float, _builtins.complex)):
            import numpy as np

            if not isinstance(v, (np.number, np.bool_)):
                from ._signatures import invalid_combination

                sigs = (
                    ("Tensor tensor, Tensor other", (0, 1)),
                    ("Number scalar, Tensor tensor", (1,)),
                    ("Tensor tensor, Number other", (0,)),
                    ("Number scalar1, Number scalar2", ()),
                )
                raise invalid_combination("result_type", sigs, 2, tensor1, tensor2)
    return result_type_of([tensor1, tensor2])


class OutOfMemoryError(RuntimeError):
    """Mirrors `torch.OutOfMemoryError` (an accelerator's; code catches it)."""


class AcceleratorError(RuntimeError):
    """Mirrors `torch.AcceleratorError`."""


class FatalError(Exception):
    """Mirrors `torch.FatalError`."""


JITException = jit.Error
DisableTorchFunction = _C.DisableTorchFunction
DisableTorchFunctionSubclass = _C.DisableTorchFunctionSubclass


def as_strided_(input: Tensor, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:
    """Mirrors `torch.as_strided_`: `input.as_strided_(...)`."""
    return input.as_strided_(size, stride, storage_offset)


import builtins as _builtins  # noqa: E402

from .utils.dlpack import to_dlpack  # noqa: E402

builtins_bool = _builtins.bool
builtins_int = _builtins.int

# the public functions whose first argument torch requires to be a Tensor refuse anything else
# with torch's TypeError (shadowgrad's own code calls the ops directly and is not affected)
from . import _signatures  # noqa: E402

_signatures.install(globals(), "", nn.functional)
_signatures.install(special.__dict__, "special.")
_signatures.install(linalg.__dict__, "linalg.")

# numpy's keyword names (axis=, keepdims=, x=, x2=) where torch's argument parser takes them
from . import _numpy_compat  # noqa: E402

_numpy_compat.install_methods(Tensor)
_numpy_compat.install_functions(
    globals(),
    "",
    None,
    {k: v[0] for k, v in _signatures.OTHER.items() if "." not in k},
    nn.functional,
)
_numpy_compat.install_functions(special.__dict__, "special_")
_numpy_compat.install_functions(linalg.__dict__, "linalg_")
_numpy_compat.install_functions(fft.__dict__, "fft_")
_numpy_compat.install_functions(nn.functional.__dict__, "", _numpy_compat._NATIVE_NN_FUNCTIONAL)
