"""Command line: `python -m shadowgrad.bridge validate module:FunctionName --shapes 3,4 5`.

Validates a custom torch.autograd.Function on random float64 inputs of the given shapes (one
shape per tensor input: comma-separated sizes, `scalar` for a 0-d tensor). Exits with status 1
when there are findings.
"""

from __future__ import annotations

import argparse
import importlib
import sys


def _shape(text: str) -> tuple[int, ...]:
    if text in ("scalar", "()", ""):
        return ()
    try:
        return tuple(int(s) for s in text.split(",") if s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid shape {text!r}: use sizes like 3,4") from None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m shadowgrad.bridge")
    sub = p.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check a custom Function's backward")
    v.add_argument("target", help="module:FunctionName")
    v.add_argument("--shapes", nargs="+", type=_shape, required=True, metavar="SHAPE")
    v.add_argument("--seed", type=int, default=0)
    v.add_argument("--positive", action="store_true", help="draw inputs in (0.5, 2)")
    v.add_argument("--no-double-backward", action="store_true")
    a = p.parse_args(argv)

    import torch

    from .validate import validate_function

    mod_name, _, attr = a.target.partition(":")
    if not attr:
        p.error("target must be module:FunctionName")
    sys.path.insert(0, "")
    fn_cls = importlib.import_module(mod_name)
    for part in attr.split("."):
        fn_cls = getattr(fn_cls, part)
    g = torch.Generator().manual_seed(a.seed)
    inputs = []
    for s in a.shapes:
        if a.positive:
            x = torch.rand(s, generator=g, dtype=torch.float64) * 1.5 + 0.5
        else:
            x = torch.randn(s, generator=g, dtype=torch.float64)
        inputs.append(x.requires_grad_(True))
    report = validate_function(fn_cls, *inputs, double_backward=not a.no_double_backward)
    print(report)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
