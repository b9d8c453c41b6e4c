"""Mirrors `torch.torch_version`: `TorchVersion`, the str that `torch.__version__` is, compared
as a version with strings and tuples (`torch.__version__ >= "2.0"`, `>= (2, 1)`).

`shadowgrad.__version__` reads the torch API version shadowgrad mirrors, 2.13.0, with
shadowgrad's own version as the local label ("2.13.0+shadowgrad.0.1.0"), so that code which
gates features on torch's version takes the 2.13 path, as it would under torch 2.13.
`shadowgrad.version.shadowgrad_version` is the package's own version.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["TorchVersion"]

_VERSION = re.compile(
    r"^\s*v?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>a|b|rc|alpha|beta|c)[-_.]?(?P<pre_n>\d*))?"
    r"(?:[-_.]?(?:post|rev|r)[-_.]?(?P<post>\d*))?"
    r"(?:[-_.]?dev[-_.]?(?P<dev>\d*))?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$",
    re.IGNORECASE,
)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


def _key(v: str) -> tuple[Any, ...]:
    """A sort key as PEP 440 orders versions: release (trailing zeros dropped), dev before pre
    before final before post, and a local label after none."""
    m = _VERSION.match(v)
    if m is None:
        raise ValueError(f"Invalid version: '{v}'")
    release = [int(x) for x in m["release"].split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    inf = float("inf")
    if m["pre"]:
        pre: tuple[float, float] = (_PRE[m["pre"].lower()], int(m["pre_n"] or 0))
    elif m["dev"] is not None and m["post"] is None:
        pre = (-inf, -inf)
    else:
        pre = (inf, inf)
    post = int(m["post"] or 0) if m["post"] is not None else -inf
    dev = int(m["dev"] or 0) if m["dev"] is not None else inf
    local = tuple(
        (int(p), "") if p.isdigit() else (-1, p.lower())
        for p in re.split(r"[-_.]", m["local"] or "")
        if p
    )
    return tuple(release), pre, post, dev, local


def _other_key(other: Any) -> tuple[Any, ...]:
    if isinstance(other, tuple):
        return _key(".".join(str(x) for x in other))
    if isinstance(other, str):
        return _key(other)
    raise TypeError


class TorchVersion(str):
    """A version string that compares as a version (torch.torch_version.TorchVersion)."""

    def _cmp(self, other: Any, op: str) -> bool:
        try:
            theirs = _other_key(other)
        except TypeError:
            raise TypeError(
                f"'{op}' not supported between instances of 'TorchVersion' and "
                f"'{type(other).__name__}'"
            ) from None
        mine = _key(str(self))
        return {
            "<": mine < theirs,
            "<=": mine <= theirs,
            ">": mine > theirs,
            ">=": mine >= theirs,
        }[op]

    def __lt__(self, other: Any) -> bool:
        return self._cmp(other, "<")

    def __le__(self, other: Any) -> bool:
        return self._cmp(other, "<=")

    def __gt__(self, other: Any) -> bool:
        return self._cmp(other, ">")

    def __ge__(self, other: Any) -> bool:
        return self._cmp(other, ">=")

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (str, tuple)):
            try:
                return _key(str(self)) == _other_key(other)
            except ValueError:
                return str.__eq__(self, other)
        return NotImplemented

    def __ne__(self, other: Any) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = str.__hash__
