"""The API surface count: every namespace is measured, and a name shadowgrad lacks is listed."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

import shadowgrad

from .report import Item, summarize, write_reports
from .surface import NAMESPACES, surface, surface_markdown, surface_text


def test_every_namespace_is_measured_and_consistent() -> None:
    rows = surface()
    assert [r["namespace"] for r in rows] == ["torch" + (f".{p}" if p else "") for p in NAMESPACES]
    for r in rows:
        assert r["present"] + len(r["missing"]) == r["names"] > 0
    by = {r["namespace"]: r for r in rows}
    assert "add" not in by["torch"]["missing"]
    assert "backward" not in by["torch.Tensor"]["missing"]
    assert "Linear" not in by["torch.nn"]["missing"]
    assert not any(n.startswith("_") for r in rows for n in r["missing"])


def test_a_removed_name_is_reported_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(shadowgrad, "logaddexp")
    monkeypatch.delattr(shadowgrad.nn, "GRU")
    by = {r["namespace"]: r for r in surface()}
    assert "logaddexp" in by["torch"]["missing"]
    assert "GRU" in by["torch.nn"]["missing"]


def test_surface_in_the_reports(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = surface()
    text = surface_text(rows)
    assert "torch.nn.functional" in text and text.strip().splitlines()[-1].startswith("all")
    md = surface_markdown(rows)
    assert "## API surface" in md
    items = [Item("op", "add", "forward", "pass")]
    write_reports(tmp_path, items, summarize(items, {}), rows)
    assert "## API surface" in (tmp_path / "report.md").read_text()
    assert '"surface"' in (tmp_path / "report.json").read_text()
