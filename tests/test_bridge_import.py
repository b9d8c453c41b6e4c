"""shadowgrad imports and works without torch; only the bridge's functions need it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent(
    """
    import importlib.abc
    import sys

    class BlockTorch(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                raise ModuleNotFoundError(f"No module named {name!r}")
            return None

    sys.meta_path.insert(0, BlockTorch())
    for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
        del sys.modules[k]

    import shadowgrad
    import shadowgrad.bridge
    from shadowgrad.bridge import from_torch, shadow, validate_function

    x = shadowgrad.tensor([1.0, 2.0], requires_grad=True)
    (x.exp() * x).sum().backward()
    assert x.grad is not None
    assert hasattr(shadowgrad.Tensor, "__torch_function__")
    assert x.detach().__dlpack_device__() == (1, 0)
    try:
        from_torch(x)
    except ModuleNotFoundError as e:
        assert "torch" in str(e)
    else:
        raise AssertionError("from_torch ran without torch")
    assert not any(k == "torch" or k.startswith("torch.") for k in sys.modules)
    print("OK")
    """
)


def test_shadowgrad_and_bridge_import_without_torch() -> None:
    r = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "OK"


def test_dlpack_exports_to_numpy_without_copy() -> None:
    import numpy as np

    import shadowgrad

    x = shadowgrad.arange(6.0).reshape(2, 3)
    a = np.from_dlpack(x)
    assert a.shape == (2, 3)
    assert np.shares_memory(a, x.numpy())


def test_dlpack_refuses_tensors_that_require_grad() -> None:
    import pytest

    import shadowgrad

    x = shadowgrad.ones(2, requires_grad=True)
    with pytest.raises(BufferError, match="Can't export tensors that require gradient"):
        x.__dlpack__()
