"""The examples run and agree with torch (reduced mode)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_digits_quick_follows_torch(tmp_path):
    png = tmp_path / "digits_loss.png"
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / "digits.py"), "--quick", "--plot", str(png)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all 2 runs follow torch" in proc.stdout
    assert png.stat().st_size > 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_digits_fails_loudly_when_shadowgrad_diverges(tmp_path, monkeypatch):
    # the comparison must be able to fail: perturb shadowgrad's SGD learning rate only
    sys.path.insert(0, str(EXAMPLES))
    try:
        import digits
    finally:
        sys.path.remove(str(EXAMPLES))
    original = digits.OPTIMIZERS["SGD"]

    def skewed(T, params):
        opt = original(T, params)
        if T.__name__ == "shadowgrad":
            opt.param_groups[0]["lr"] *= 1.01
        return opt

    monkeypatch.setitem(digits.OPTIMIZERS, "SGD", skewed)
    assert digits.main(["--quick", "--plot", str(tmp_path / "x.png")]) == 1
