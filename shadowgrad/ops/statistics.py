"""Statistics and signal helpers of the torch namespace: quantiles, covariance, numerical
gradients, window functions, ...
"""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
