"""The seed programs in /work/shared/seeds print the same under torch and under shadowgrad.

Each seed is a note with code snippets; every snippet (from an `import torch` line, or a first
`x = torch....` line, to the last line that still parses as Python) runs once per library, with
`import torch` textually replaced by `import shadowgrad as torch`. Printed output must match
exactly, except in snippets that draw random numbers (the generators differ by design), where
numbers are compared as placeholders so the structure (shapes, grad suffixes, line layout)
must still match.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import warnings
from pathlib import Path

import pytest

SEED_DIR = Path("/work/shared/seeds")
SEEDS = sorted(SEED_DIR.glob("*.txt")) if SEED_DIR.is_dir() else []
RANDOM_CALLS = re.compile(r"\b(rand|randn|randint|randperm|nn\.\w+\()")
# A snippet starts at `import torch` or at a first line that uses torch (the note then assumes the
# import from an earlier snippet).
SNIPPET_START = re.compile(r"^(import torch|\w+ = torch\.)")
NUMBER = re.compile(r"\s*-?\d+\.\d*(?:e[+-]\d+)?")


def _parses(src: str) -> bool:
    try:
        ast.parse(src)
    except SyntaxError:
        return False
    return True


def snippets(text: str) -> list[str]:
    """The runnable code snippets of a seed note."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if not SNIPPET_START.match(lines[i]):
            i += 1
            continue
        block = [lines[i]]
        j = i + 1
        while j < len(lines):
            cand = [*block, lines[j]]
            if re.fullmatch(r"[A-Z][\w ]*", lines[j].strip()):
                break  # a prose heading that happens to parse as a name
            if lines[j].strip() and not _parses("\n".join(cand)):
                # an indented body may need the following lines before it parses
                if lines[j][:1].isspace() or lines[j].rstrip().endswith(":"):
                    block = cand
                    j += 1
                    continue
                break
            block = cand
            j += 1
        while block and not block[-1].strip():
            block.pop()
        src = "\n".join(block)
        if _parses(src) and "torch" in src:
            out.append(src if src.startswith("import torch") else "import torch\n\n" + src)
        i = j
    return out


def _to_shadowgrad(src: str) -> str:
    src = re.sub(r"^import torch\.nn as nn$", "import shadowgrad.nn as nn", src, flags=re.M)
    src = re.sub(r"^import torch$", "import shadowgrad as torch", src, flags=re.M)
    return src.replace("torch.nn", "shadowgrad.nn")


def run(src: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(src, "<seed>", "exec"), {"__name__": "__seed__"})
        except Exception as e:  # the error is part of the output to compare
            print(f"!! {type(e).__name__}: {e}")
    return buf.getvalue()


CASES = [
    pytest.param(path, k, src, id=f"{path.stem}-{k}")
    for path in SEEDS
    for k, src in enumerate(snippets(path.read_text()))
]


@pytest.mark.parametrize(("path", "k", "src"), CASES)
def test_seed_snippet_prints_like_torch(path, k, src):
    expected = run(src)
    got = run(_to_shadowgrad(src))
    if RANDOM_CALLS.search(src):
        expected, got = NUMBER.sub(" N", expected), NUMBER.sub(" N", got)
    assert got == expected


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_every_seed_is_read(path):
    # A note without code snippets (prose only) has nothing to run; it must still be readable.
    text = path.read_text()
    assert text.strip()
    for src in snippets(text):
        assert "import torch" in src


def test_snippet_extraction_stops_at_prose():
    text = "intro\nimport torch\n\nx = torch.ones(1)\nprint(x)\n\nSome prose here\nmore"
    assert snippets(text) == ["import torch\n\nx = torch.ones(1)\nprint(x)"]
