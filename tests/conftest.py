"""Shared fixtures for shadowgrad's own tests (never imports torch)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import shadowgrad

settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=True)
def _seed_and_check_modes() -> Iterator[None]:
    """Seed the generators, and fail a test that leaves grad mode or the default dtype changed."""
    np.random.seed(0)
    shadowgrad.manual_seed(0)
    yield
    assert shadowgrad.is_grad_enabled(), "test left grad mode disabled"
    assert not shadowgrad.is_inference_mode_enabled(), "test left inference mode on"
    assert shadowgrad.get_default_dtype() is shadowgrad.float32, "test left the default dtype"
