"""compat/ runs only where torch (the reference) is installed."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
