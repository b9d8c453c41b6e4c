"""torch-level names for functions that live in nn.functional (torch.softmax, Tensor.softmax...).

Mirrors the functions torch exposes both as `torch.xxx` and `torch.nn.functional.xxx`, with
torch's top-level signatures (which differ from F's in places: `torch.softmax(input, dim,
dtype=None)`, `torch.dropout(input, p, train)`, `torch.embedding(weight, indices, ...)`).
"""

from __future__ import annotations

from typing import Any

from ._tensor import Tensor
from .nn import functional as F

NO_DIM: Any = object()  # torch's parser requires the dim (F.softmax's implicit one is Python's)


def need_dim(name: str, dim: Any) -> None:
    if dim is NO_DIM:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')


def softmax(input: Tensor, dim: int = NO_DIM, dtype: Any = None) -> Tensor:
    """Mirrors `torch.softmax`."""
    need_dim("softmax", dim)
    if type(dim) is not int or dtype is not None:  # (its wrapper words the function's error)
        _parser_check("softmax", dim, dtype)
    return F.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int = NO_DIM, dtype: Any = None) -> Tensor:
    """Mirrors `torch.log_softmax`."""
    need_dim("log_softmax", dim)
    if type(dim) is not int or dtype is not None:
        _parser_check("log_softmax", dim, dtype)
    return F.log_softmax(input, dim, dtype=dtype)


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Mirrors `torch.dropout` (a bad p is torch's RuntimeError here, F.dropout's ValueError)."""
    from .ops.aliases import _check_p

    _check_p(p)
    if train is not True and train is not False:
        from ._signatures import reraise

        reraise("dropout", (input, p, train), {}, False)
    return F.dropout(input, p, train)


def embedding(
    weight: Tensor,
    indices: Tensor,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Mirrors `torch.embedding` (weight first, unlike F.embedding)."""
    if (
        padding_idx.__class__ is not int
        or scale_grad_by_freq.__class__ is not bool
        or sparse.__class__ is not bool
    ):  # torch's parser: an int and two bools (F.embedding's None is its Python's)
        from ._signatures import reraise_as_called

        reraise_as_called(
            "embedding",
            ("weight", "indices", "padding_idx", "scale_grad_by_freq", "sparse"),
            (weight, indices, padding_idx, scale_grad_by_freq, sparse),
            False,
        )
    return F.embedding(
        indices,
        weight,
        padding_idx=None if padding_idx == -1 else padding_idx,
        scale_grad_by_freq=scale_grad_by_freq,
    )


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
    cudnn_enable: bool = True,
) -> Tensor:
    """Mirrors `torch.layer_norm`."""
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
    cudnn_enabled: bool = True,
) -> Tensor:
    """Mirrors `torch.group_norm`."""
    return F.group_norm(input, num_groups, weight, bias, eps)


FUNCTIONS: dict[str, Any] = {
    "softmax": softmax,
    "log_softmax": log_softmax,
    "dropout": dropout,
    "embedding": embedding,
    "layer_norm": layer_norm,
    "group_norm": group_norm,
    "conv1d": F.conv1d,
    "conv2d": F.conv2d,
    "conv_transpose1d": F.conv_transpose1d,
    "conv_transpose2d": F.conv_transpose2d,
    "max_pool1d": F.max_pool1d,
    "max_pool2d": F.max_pool2d,
    "avg_pool1d": F.avg_pool1d,
    "adaptive_avg_pool1d": F.adaptive_avg_pool1d,
    "cosine_similarity": F.cosine_similarity,
    "pairwise_distance": F.pairwise_distance,
    "selu": F.selu,
    "celu": F.celu,
    "prelu": F.prelu,
    "threshold": F.threshold,
    "hardshrink": F.hardshrink,
}


def _softmax_method(self: Tensor, dim: int = NO_DIM, dtype: Any = None) -> Tensor:
    need_dim("softmax", dim)
    if type(dim) is not int or dtype is not None:  # (a None dim: torch's parser refuses it)
        _parser_check("softmax", dim, dtype)
    return F.softmax(self, dim, dtype=dtype)


def _log_softmax_method(self: Tensor, dim: int = NO_DIM, dtype: Any = None) -> Tensor:
    need_dim("log_softmax", dim)
    if type(dim) is not int or dtype is not None:
        _parser_check("log_softmax", dim, dtype)
    return F.log_softmax(self, dim, dtype=dtype)


def _parser_check(name: str, dim: Any, dtype: Any) -> None:
    """The method's arguments as torch's parser reads them (positions as the call gave
    them), before F's function words its own."""
    from ._signatures import reraise

    reraise(name, (dim,) if dtype is None else (dim, dtype), {})


# (Python's own errors name them as torch's do: `softmax() got an unexpected keyword ...`)
_softmax_method.__name__ = _softmax_method.__qualname__ = "softmax"
_log_softmax_method.__name__ = _log_softmax_method.__qualname__ = "log_softmax"


METHODS: dict[str, Any] = {
    "softmax": _softmax_method,
    "log_softmax": _log_softmax_method,
    "prelu": F.prelu,
    "hardshrink": F.hardshrink,
}


def install(namespace: dict[str, Any]) -> None:
    for name, fn in FUNCTIONS.items():
        if fn is not None:
            namespace[name] = fn
    for name, fn in METHODS.items():
        setattr(Tensor, name, fn)
