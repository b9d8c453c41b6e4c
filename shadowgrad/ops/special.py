"""Special functions and number-theoretic ops: lgamma, digamma, polygamma, i0, sinc, gcd, lcm,
ldexp, frexp, float_power, ...
"""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
