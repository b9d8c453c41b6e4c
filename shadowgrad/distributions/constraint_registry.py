"""Transforms from unconstrained space onto each constraint. Mirrors
`torch.distributions.constraint_registry`: ``biject_to`` gives bijections, ``transform_to``
any map onto the constrained set."""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

from . import constraints, transforms

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """Maps constraint types to factories ``constraint -> Transform``."""

    def __init__(self) -> None:
        self._registry: dict = {}
        super().__init__()

    def register(self, constraint: Any, factory: Callable | None = None) -> Any:
        """Register ``factory`` for a constraint subclass or instance (also as a decorator)."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(
                "Expected constraint to be either a Constraint subclass or instance, "
                f"but got {constraint}"
            )
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint: Any) -> Any:
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints"
            ) from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _both(constraint: Any) -> Callable:
    def decorator(factory: Callable) -> Callable:
        biject_to.register(constraint, factory)
        transform_to.register(constraint, factory)
        return factory

    return decorator


@_both(constraints.real)
def _to_real(constraint: Any) -> Any:
    return transforms.identity_transform


@biject_to.register(constraints.independent)
def _biject_to_independent(constraint: Any) -> Any:
    base = biject_to(constraint.base_constraint)
    return transforms.IndependentTransform(base, constraint.reinterpreted_batch_ndims)


@transform_to.register(constraints.independent)
def _transform_to_independent(constraint: Any) -> Any:
    base = transform_to(constraint.base_constraint)
    return transforms.IndependentTransform(base, constraint.reinterpreted_batch_ndims)


@_both(constraints.greater_than)
@_both(constraints.greater_than_eq)
def _to_greater_than(constraint: Any) -> Any:
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.lower_bound, 1)]
    )


@_both(constraints.less_than)
def _to_less_than(constraint: Any) -> Any:
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.upper_bound, -1)]
    )


@_both(constraints.interval)
@_both(constraints.half_open_interval)
def _to_interval(constraint: Any) -> Any:
    lo, hi = constraint.lower_bound, constraint.upper_bound
    unit = isinstance(lo, numbers.Number) and isinstance(hi, numbers.Number) and lo == 0
    if unit and hi == 1:
        return transforms.SigmoidTransform()
    return transforms.ComposeTransform(
        [transforms.SigmoidTransform(), transforms.AffineTransform(lo, hi - lo)]
    )


@biject_to.register(constraints.simplex)
def _biject_to_simplex(constraint: Any) -> Any:
    return transforms.StickBreakingTransform()


@transform_to.register(constraints.simplex)
def _transform_to_simplex(constraint: Any) -> Any:
    return transforms.SoftmaxTransform()


@transform_to.register(constraints.lower_cholesky)
def _transform_to_lower_cholesky(constraint: Any) -> Any:
    return transforms.LowerCholeskyTransform()


@biject_to.register(constraints.corr_cholesky)
@transform_to.register(constraints.corr_cholesky)
def _transform_to_corr_cholesky(constraint: Any) -> Any:
    return transforms.CorrCholeskyTransform()


@transform_to.register(constraints.positive_definite)
@transform_to.register(constraints.positive_semidefinite)
def _transform_to_positive_definite(constraint: Any) -> Any:
    return transforms.PositiveDefiniteTransform()


@biject_to.register(constraints.cat)
def _biject_to_cat(constraint: Any) -> Any:
    parts = [biject_to(c) for c in constraint.cseq]
    return transforms.CatTransform(parts, constraint.dim, constraint.lengths)


@transform_to.register(constraints.cat)
def _transform_to_cat(constraint: Any) -> Any:
    parts = [transform_to(c) for c in constraint.cseq]
    return transforms.CatTransform(parts, constraint.dim, constraint.lengths)


@biject_to.register(constraints.stack)
def _biject_to_stack(constraint: Any) -> Any:
    return transforms.StackTransform([biject_to(c) for c in constraint.cseq], constraint.dim)


@transform_to.register(constraints.stack)
def _transform_to_stack(constraint: Any) -> Any:
    return transforms.StackTransform([transform_to(c) for c in constraint.cseq], constraint.dim)
