"""parameters_to_vector, vector_to_parameters. Mirrors `torch.nn.utils.convert_parameters`."""

from __future__ import annotations

from collections.abc import Iterable

from ..._tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """Flatten and concatenate parameters. Mirrors `torch.nn.utils.parameters_to_vector`."""
    import shadowgrad as torch

    return torch.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy slices of vec into the parameters' data. Mirrors
    `torch.nn.utils.vector_to_parameters`."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer : pointer + num_param].view_as(param).data
        pointer += num_param
