"""Mirrors `torch.version`: shadowgrad's version, and no accelerator toolkit (the CPU build's
answers: `cuda` and `hip` are None)."""

from __future__ import annotations

from .torch_version import TorchVersion

shadowgrad_version = "0.1.0"  # the package's own version (pyproject.toml)
# torch's `version.__version__` and `torch.__version__`: the API version mirrored, with
# shadowgrad's own as the local label
__version__ = TorchVersion("2.13.0+shadowgrad." + shadowgrad_version)
cuda: str | None = None
hip: str | None = None
rocm: str | None = None
xpu: str | None = None
debug = False
git_version = "unknown"
