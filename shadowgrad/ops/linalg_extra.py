"""More linear algebra: the solvers, factorizations and products torch.linalg has beyond the
core family in linalg.py (pinv, matrix_exp, lstsq, lu, solve_triangular, multi_dot, ...).
"""

from __future__ import annotations

from typing import Any

METHODS: dict[str, Any] = {}
FUNCTIONS: dict[str, Any] = {}
