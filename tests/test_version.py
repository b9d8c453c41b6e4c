"""shadowgrad.__version__ / TorchVersion against torch's TorchVersion on the same strings."""

from __future__ import annotations

import pytest

import shadowgrad
from shadowgrad.torch_version import TorchVersion

torch_version = pytest.importorskip("torch.torch_version")

_MINE = ["2.13.0+shadowgrad.0.1.0", "2.13.0+cpu", "2.13.0", "1.9.1", "2.0.0rc1", "2.1.0.dev1"]
_OTHERS = ["2", "2.0", "2.13", "2.13.0", "2.13.0+cpu", "2.13.1", "2.14", "1.13.1", "3.0a1",
           "2.13.0rc1", "2.13.0.dev20250101", "2.13.0.post1", (2,), (2, 13), (2, 13, 0),
           (2, 14), (1, 9)]  # fmt: skip


@pytest.mark.parametrize("mine", _MINE)
@pytest.mark.parametrize("other", _OTHERS)
def test_comparisons_match_torch(mine: str, other: object) -> None:
    a, b = TorchVersion(mine), torch_version.TorchVersion(mine)
    for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__"):
        assert getattr(a, op)(other) == getattr(b, op)(other), (mine, op, other)


def test_dunder_version_reads_the_mirrored_torch_api() -> None:
    v = shadowgrad.__version__
    assert isinstance(v, str) and isinstance(v, TorchVersion)
    assert v.split("+")[0] == "2.13.0"
    assert v >= "2.0" and v >= (2, 13) and v < (2, 14)
    assert shadowgrad.version.__version__ is v
    assert shadowgrad.version.shadowgrad_version in v
    with pytest.raises(TypeError, match="not supported between instances of 'TorchVersion'"):
        v < 3  # noqa: B015
