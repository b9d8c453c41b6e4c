"""`python -m compat`: the whole conformance suite, in parallel on all cores.

Runs the op database checks, the semantics programs, the whole-program suites of the pytest
files (compat/suites.py) and a random-program campaign, shows a
progress bar, prints a summary table and the mismatches (what differs, and the program), and
exits non-zero on any unexpected mismatch (a failure, or a known difference that went away).

    python -m compat                       # torch vs shadowgrad, everything
    python -m compat -k inplace --report out --json summary.json
    python -m compat --engine torch --engine torch-float64   # precision oracle
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import multiprocessing as mp
import os
import pkgutil
import sys
import time
import warnings
from typing import Any

from .report import BAD, Item, failures_text, summarize, summary_text, write_reports


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m compat", description=__doc__.split("\n\n")[0])
    p.add_argument("--report", metavar="DIR", help="write report.json, report.md, report.html")
    p.add_argument("--json", metavar="FILE", help="write the summary alone as JSON")
    p.add_argument("-k", metavar="PATTERN", help="only ops/programs whose name contains this")
    p.add_argument("--engine", action="append", help="two engines to compare (default: "
                   "torch, shadowgrad); see compat/engines.py")  # fmt: skip
    p.add_argument("--fuzz", type=int, default=None, metavar="N",
                   help="random programs (default: $COMPAT_FUZZ_EXAMPLES or 1000)")  # fmt: skip
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--no-progress", action="store_true")
    return p.parse_args(argv)


# --- worker side ----------------------------------------------------------------------------

_ENGINES: tuple[str, str] = ("torch", "shadowgrad")
_FOUND: Any = None  # set once a fuzz chunk found a mismatch: the others stop (shrinking is slow)


def _init(engines: tuple[str, str], found: Any) -> None:
    global _ENGINES, _FOUND
    _ENGINES = engines
    _FOUND = found
    import torch

    torch.set_num_threads(1)  # one process per core already


def _load_ops() -> dict[str, Any]:
    import compat

    from .opdb import ENTRIES

    for m in pkgutil.iter_modules(compat.__path__):
        if m.name.startswith("ops_"):
            try:
                importlib.import_module(f"compat.{m.name}")
            except Exception as e:  # a broken family file is reported, not fatal
                print(f"compat/{m.name}.py does not import: {e}", file=sys.stderr)
    return ENTRIES


def _run_task(task: tuple[str, str, int]) -> list[Item]:
    kind, name, n = task
    try:
        if kind == "op":
            return _op_items(name)
        if kind == "program":
            return [_program_item(name)]
        if kind == "suite":
            from .suites import suite_item

            return [suite_item(name, _ENGINES)]
        return [_fuzz_item(name, n)]
    except Exception as e:  # the harness itself failed on this task: report, never hide it
        import traceback

        return [Item(kind, name, "harness", "fail", "", traceback.format_exc() or str(e))]


def _op_items(name: str) -> list[Item]:
    from .checks import run_entry
    from .engines import get_engine

    entry = _load_ops()[name]
    a, b = (get_engine(e).module() for e in _ENGINES)
    with warnings.catch_warnings():
        # the ops' own warnings (deprecations, broadcasting notices) are not what the op checks
        # compare; programs compare warnings under their own recording filter
        warnings.simplefilter("ignore")
        results = run_entry(entry, a, b)
    items = []
    for r in results:
        status = "pass" if r.ok else "xfail" if r.xfail is not None else "fail"
        msg = r.message if status != "xfail" else f"{r.xfail}\n{r.message}"
        items.append(Item("op", name, r.check, status, f"{r.dtype}, {r.sample}", msg))
    for check, reason in entry.xfails.items():
        mine = [r for r in results if r.check == check]
        if mine and all(r.ok for r in mine):
            items.append(
                Item("op", name, check, "xpass", "", f"marked xfail ({reason}) but passes")
            )
    return items


def _program_item(name: str) -> Item:
    from .compare import compare
    from .engines import get_engine, run
    from .programs import AREAS, load_all
    from .report import render_mismatch

    p = load_all()[name]
    ea, eb = (get_engine(e) for e in _ENGINES)
    a, b = run(ea, p.fn), run(eb, p.fn)
    loose = ea.precise != eb.precise
    diffs = compare(a, b, tol=p.tol, loose_dtypes=loose, compare_warnings=p.warnings and not loose)
    area = f"{AREAS[p.area]}"
    missing = [d for d in diffs if d.what == "missing API"]
    if missing and len(missing) == len(diffs):
        return Item("program", name, area, "missing", p.ref, "; ".join(d.detail for d in missing))
    if p.xfail:
        return Item("program", name, area, "xfail" if diffs else "xpass", p.ref, p.xfail)
    if diffs:
        msg = render_mismatch(name, p.source, diffs, a, b, ea.name, eb.name)
        return Item("program", name, area, "fail", p.ref, msg)
    return Item("program", name, area, "pass", p.ref)


def _fuzz_item(name: str, n: int) -> Item:
    from . import fuzz

    fuzz.ENGINE_PAIR = _ENGINES
    if _FOUND is not None and _FOUND.is_set():
        return Item("fuzz", name, "random programs", "skipped", f"{n} programs",
                    "not run: another chunk already found a mismatch")  # fmt: skip
    found = fuzz.campaign(n, derandomize=False)
    if found is None:
        return Item("fuzz", name, "random programs", "pass", f"{n} programs")
    if _FOUND is not None:
        _FOUND.set()
    return Item("fuzz", name, "random programs", "fail", f"{n} programs", str(found))


# --- driver ---------------------------------------------------------------------------------


def _tasks(args: argparse.Namespace) -> list[tuple[str, str, int]]:
    from .programs import load_all

    k = args.k or ""

    def keep(n: str) -> bool:
        return not k or k in n or fnmatch.fnmatch(n, k)

    from .suites import load_suites

    tasks = [("program", n, 0) for n in sorted(load_all()) if keep(n)]
    suites = load_suites()  # -k also picks a whole suite by its name
    tasks += [("suite", n, 0) for n in sorted(suites) if keep(n) or keep(suites[n][0])]
    tasks += [("op", n, 0) for n in sorted(_load_ops()) if keep(n)]
    n_fuzz = (
        args.fuzz if args.fuzz is not None else int(os.environ.get("COMPAT_FUZZ_EXAMPLES", "1000"))
    )
    if n_fuzz and not k and "torch" in args.engine:
        chunk = 25  # small chunks spread over the cores; each shrinks its own first failure
        for i in range(0, n_fuzz, chunk):
            tasks.append(("fuzz", f"chunk{i // chunk}", min(chunk, n_fuzz - i)))
    # the slowest first, so the cores finish together
    order = {"fuzz": 0, "op": 1, "suite": 2, "program": 3}
    return sorted(tasks, key=lambda t: order[t[0]])


def _bar(done: int, total: int, failed: int, start: float) -> str:
    w = 30
    fill = int(w * done / max(total, 1))
    return (
        f"\r[{'#' * fill}{'.' * (w - fill)}] {done}/{total} tasks, {failed} failing, "
        f"{time.monotonic() - start:.0f}s"
    )


def _run_all(
    tasks: list[tuple[str, str, int]],
    engines: tuple[str, str],
    jobs: int,
    ctx: Any,
    found: Any,
    progress: Any,
) -> None:
    """Run the tasks in worker processes, handing each result to `progress`.

    A worker that dies (a crash in native code: torch is not fork-safe in every state) breaks
    its pool; the run then goes on in a fresh pool with the tasks not yet done, and a task
    whose workers died three times is reported as a harness failure. The run never hangs
    waiting for a dead worker, as multiprocessing.Pool would."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    deaths: dict[tuple[str, str, int], int] = {}
    pending = list(tasks)
    while pending:
        with ProcessPoolExecutor(jobs, ctx, initializer=_init, initargs=(engines, found)) as ex:
            futures = {ex.submit(_run_task, t): t for t in pending}
            pending = []
            for fut in as_completed(futures):
                task = futures[fut]
                try:
                    res = fut.result()
                except BrokenProcessPool:
                    deaths[task] = deaths.get(task, 0) + 1
                    if deaths[task] < 3:
                        pending.append(task)
                        continue
                    res = [Item(task[0], task[1], "harness", "fail", "", "its worker process died")]
                progress(res)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    args.engine = args.engine or ["torch", "shadowgrad"]
    if len(args.engine) != 2:
        print("give exactly two --engine options", file=sys.stderr)
        return 2
    from .engines import get_engine

    for e in args.engine:
        get_engine(e)
    import torch

    import shadowgrad

    start = time.monotonic()
    tasks = _tasks(args)
    items: list[Item] = []
    show = not args.no_progress and sys.stderr.isatty()
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    found = ctx.Event()
    done = 0

    def progress(res: list[Item]) -> None:
        nonlocal done
        items.extend(res)
        done += 1
        if show or done == len(tasks):
            failed = sum(i.status in BAD for i in items)
            print(_bar(done, len(tasks), failed, start), end="", file=sys.stderr, flush=True)

    _run_all(tasks, tuple(args.engine), max(1, args.jobs), ctx, found, progress)
    print(file=sys.stderr)
    items.sort(key=lambda i: (i.kind, i.name, i.group, i.detail))
    meta = {
        "engines": list(args.engine),
        "torch_version": torch.__version__,
        "shadowgrad_version": shadowgrad.version.shadowgrad_version,
        "fuzz_programs": sum(
            int(i.detail.split()[0]) for i in items if i.kind == "fuzz" and i.status != "skipped"
        ),
        "duration_s": round(time.monotonic() - start, 1),
    }
    from .surface import surface, surface_text

    api = surface()
    meta["surface"] = {r["namespace"]: [r["present"], r["names"]] for r in api}
    summary = summarize(items, meta)
    print(failures_text(items))
    print(summary_text(items, summary))
    print(surface_text(api))
    if args.report:
        write_reports(args.report, items, summary, api)
        print(f"report written to {args.report}/report.{{json,md,html}}")
    if args.json:
        import json

        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
