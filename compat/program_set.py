"""A registry of differential programs with strict expected failures, shared by the test files
that keep their programs beside their test (test_extension, test_forward_ad, test_func)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


class ProgramSet:
    """Programs `prog(T)` by name, and the reason each known difference is expected."""

    def __init__(self) -> None:
        self.programs: dict[str, Callable[[Any], Any]] = {}
        self.xfail: dict[str, str] = {}

    def program(self, fn: Callable[[Any], Any] | None = None, *, xfail: str | None = None) -> Any:
        """Register a program (usable bare or with `xfail=`)."""

        def deco(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
            self.programs[f.__name__] = f
            if xfail:
                self.xfail[f.__name__] = xfail
            return f

        return deco(fn) if fn is not None else deco

    def check(
        self,
        name: str,
        observe: Callable[[Any], Any],
        assert_same: Callable[[Any, Any], None],
        torch: Any,
        shadowgrad: Any,
    ) -> None:
        """Run a program on both engines; a strict xfail fails loudly once it passes."""
        prog = self.programs[name]
        expected = observe(prog(torch))
        if name in self.xfail:
            try:
                assert_same(observe(prog(shadowgrad)), expected)
            except Exception:
                pytest.xfail(self.xfail[name])
            pytest.fail(f"{name} is marked xfail ({self.xfail[name]}) but now matches torch")
        assert_same(observe(prog(shadowgrad)), expected)


def case_params(cases: Any, xfail: dict[str, str]) -> list[Any]:
    """pytest params for named cases, each known difference (name -> why) a strict xfail."""
    out = []
    for name in cases:
        marks = [pytest.mark.xfail(reason=xfail[name], strict=True)] if name in xfail else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out
