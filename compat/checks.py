"""The checks run for each op database entry, against torch.

For each sample: forward values and dtype, `grad_fn` name, backward (a vector-Jacobian product
with a fixed random cotangent), double backward (create_graph), and errors (same exception type
when torch raises). `run_entry` returns one CheckResult per (sample, dtype, check).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .graphs import side_by_side
from .opdb import OpEntry, Sample, TensorArg

# checks whose failure report shows both backward graphs side by side
_GRAPH_CHECKS = ("grad_fn", "backward", "gradgrad", "gradcheck")

DEFAULT_TOL = {"float32": (1.3e-5, 1e-5), "float64": (1e-7, 1e-7), "float16": (1e-3, 1e-3)}


@dataclass
class CheckResult:
    op: str
    check: str  # "forward", "grad_fn", "backward", "gradgrad", "error"
    sample: str
    dtype: str
    ok: bool
    message: str = ""
    xfail: str | None = None


def _layout(T: Any, arr: np.ndarray, layout: str) -> Any:
    t = T.tensor(arr)
    if layout == "transposed" and arr.ndim >= 2:
        t = T.tensor(np.ascontiguousarray(np.swapaxes(arr, -1, -2))).transpose(-1, -2)
    elif layout == "sliced" and arr.ndim >= 1:
        big = np.repeat(arr, 2, axis=-1)
        t = T.tensor(big)[..., ::2]
    return t


def materialize(T: Any, value: Any, dtype: str) -> tuple[Any, list[Any]]:
    """Turn a sample value into library objects; returns it and the leaves that require grad."""
    leaves: list[Any] = []

    def conv(v: Any) -> Any:
        if isinstance(v, TensorArg):
            arr = v.value
            if arr.dtype.kind == "f":
                with np.errstate(over="ignore"):  # a sample beyond float16's range is inf
                    arr = arr.astype(dtype)
            t = _layout(T, arr, v.layout)
            rg = v.requires_grad and arr.dtype.kind in "fc"
            if rg:
                t = t.detach().requires_grad_(True) if v.layout == "contiguous" else t
                if v.layout != "contiguous":
                    # make a non-contiguous leaf: a leaf that requires grad and is a strided view
                    base = t.detach()
                    base.requires_grad_(True)
                    t = base
                leaves.append(t)
            return t
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, tuple):
            return tuple(conv(x) for x in v)
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        return v

    return conv(value), leaves


def to_numpy(x: Any) -> Any:
    if hasattr(x, "detach") and hasattr(x, "numpy"):
        # force=True: torch's backward may return a ZeroTensor, which numpy() alone rejects
        return np.array(x.detach().numpy(force=True), copy=True)
    if isinstance(x, (tuple, list)):
        return [to_numpy(v) for v in x]
    return x


def _tensors(out: Any) -> list[Any]:
    if hasattr(out, "requires_grad"):
        return [out]
    if isinstance(out, (tuple, list)):
        r = []
        for o in out:
            r.extend(_tensors(o))
        return r
    return []


def _close(a: Any, b: Any, rtol: float, atol: float) -> tuple[bool, str]:
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape:
        return False, f"shape {a.shape} != torch {b.shape}"
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        ok = np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
        if not ok:
            with np.errstate(invalid="ignore"):  # inf - inf
                d = np.abs(a.astype(np.complex128) - b.astype(np.complex128))
            d = np.where(np.isnan(d), np.inf, d)
            # the element furthest outside the tolerance (not the largest difference: a large
            # value may be within rtol while a near-zero one is not)
            with np.errstate(invalid="ignore", over="ignore"):
                allowed = atol + rtol * np.abs(b.astype(np.complex128))
                excess = d - allowed
            excess = np.where(np.isnan(excess), np.inf, excess)
            i = np.unravel_index(np.argmax(excess), d.shape) if d.ndim else ()
            return False, (
                f"abs diff {d[i]:.3g} (allowed {allowed[i]:.3g}) at {i}: "
                f"shadowgrad {a[i]!r} vs torch {b[i]!r}"
            )
        return True, ""
    return bool(np.array_equal(a, b)), "values differ"


class _Run:
    def __init__(self, T: Any, entry: OpEntry, sample: Sample, dtype: str) -> None:
        self.T = T
        (self.args, self.kwargs), self.leaves = materialize(T, (sample.args, sample.kwargs), dtype)
        self.error: BaseException | None = None
        self.out: Any = None
        try:
            self.out = entry.op(T, *self.args, **self.kwargs)
        except Exception as e:
            self.error = e


def _cotangents(outs: list[Any], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.standard_normal(np.asarray(o.shape, dtype=int)).reshape(tuple(o.shape)) for o in outs
    ]


def _vjp(
    run: _Run, cots: list[np.ndarray], create_graph: bool, retain_graph: bool | None = None
) -> tuple[Any, list[Any]]:
    T = run.T
    outs = [o for o in _tensors(run.out) if o.requires_grad]
    if not outs or not run.leaves:
        return None, []
    gs = [T.tensor(c.astype(np.float64)).to(o.dtype) for c, o in zip(cots, outs, strict=False)]
    grads = T.autograd.grad(
        outs,
        run.leaves,
        gs,
        allow_unused=True,
        create_graph=create_graph,
        retain_graph=retain_graph,
    )
    return grads, outs


def _compare_grads(sg: Any, tg: Any, rtol: float, atol: float) -> tuple[bool, str]:
    for i, (a, b) in enumerate(zip(sg or [], tg or [], strict=True)):
        if (a is None) != (b is None):
            return False, f"grad {i}: shadowgrad {a is None and 'None'} vs torch"
        if a is not None:
            ok, msg = _close(to_numpy(a), to_numpy(b), rtol, atol)
            if not ok:
                return False, f"grad of input {i}: {msg}"
    return True, ""


def run_entry(entry: OpEntry, torch: Any, shadowgrad: Any) -> list[CheckResult]:
    results: list[CheckResult] = []
    for dtype in entry.dtypes:
        rtol, atol = entry.tolerances.get(dtype, DEFAULT_TOL.get(dtype, (1e-5, 1e-5)))
        for k, sample in enumerate(entry.samples(dtype)):
            sname = sample.name or f"sample{k}"

            graphs: list[Any] = []

            def add(
                check: str,
                ok: bool,
                msg: str = "",
                sname: str = sname,
                dtype: str = dtype,
                graphs: list[Any] = graphs,
            ) -> None:
                if not ok and check in _GRAPH_CHECKS and graphs:
                    msg = f"{msg}\n{side_by_side(*graphs)}"
                results.append(
                    CheckResult(entry.name, check, sname, dtype, ok, msg, entry.xfails.get(check))
                )

            tr = _Run(torch, entry, sample, dtype)
            sr = _Run(shadowgrad, entry, sample, dtype)
            if tr.error is not None or sr.error is not None:
                te, se = type(tr.error).__name__, type(sr.error).__name__
                add(
                    "error", te == se, f"torch raised {te}: {tr.error}; shadowgrad {se}: {sr.error}"
                )
                continue
            t_outs, s_outs = _tensors(tr.out), _tensors(sr.out)
            graphs[:] = [t_outs, s_outs]
            if len(t_outs) != len(s_outs):
                add("forward", False, f"{len(s_outs)} tensor outputs, torch has {len(t_outs)}")
                continue
            ok, msg = True, ""
            for to, so in zip(t_outs, s_outs, strict=True):
                if str(to.dtype) != str(so.dtype):
                    ok, msg = False, f"dtype {so.dtype} != torch {to.dtype}"
                    break
                ok, msg = _close(to_numpy(so), to_numpy(to), rtol, atol)
                if not ok:
                    break
            add("forward", ok, msg)
            if entry.status_parity:
                add("status_parity", *_status_parity(entry, sample, dtype, shadowgrad, s_outs))
            names_t = [type(o.grad_fn).__name__ if o.grad_fn is not None else None for o in t_outs]
            names_s = [type(o.grad_fn).__name__ if o.grad_fn is not None else None for o in s_outs]
            add("grad_fn", names_t == names_s, f"shadowgrad {names_s} vs torch {names_t}")
            if not entry.supports_grad or not tr.leaves:
                continue
            t_req = [o for o in t_outs if o.requires_grad]
            cots = _cotangents(t_req, 1234 + k)
            try:
                tg1 = None
                if entry.supports_gradgrad:
                    # torch's own first order as well: some formulas take another path without
                    # create_graph (det at an exactly singular matrix: lu_solve, not the SVD)
                    tg1, _ = _vjp(tr, cots, create_graph=False, retain_graph=True)
                tg, _ = _vjp(tr, cots, create_graph=entry.supports_gradgrad)
            except Exception as e:  # torch cannot differentiate this sample
                add("backward", True, f"torch backward raised {type(e).__name__}")
                continue
            try:
                if entry.supports_gradgrad:
                    # first order alone runs the formulas on arrays (the engine's raw mode):
                    # that form is compared too, before the create_graph one (Tensor formulas)
                    sg1, _ = _vjp(sr, cots, create_graph=False, retain_graph=True)
                sg, _ = _vjp(sr, cots, create_graph=entry.supports_gradgrad)
            except Exception as e:
                add("backward", False, f"shadowgrad backward raised {type(e).__name__}: {e}")
                continue
            ok, msg = _compare_grads(sg, tg, rtol, atol)
            if ok and entry.supports_gradgrad:
                ok, msg = _compare_grads(sg1, tg1, rtol, atol)
                msg = msg and f"first order (array formulas): {msg}"
            add("backward", ok, msg)
            if ok and dtype == "float64" and entry.status_parity:
                verdict = _gradcheck(entry, sample, dtype, torch, shadowgrad)
                if verdict is not None:
                    add("gradcheck", *verdict)
                verdict = _jvp_check(entry, sample, dtype, torch, shadowgrad, rtol, atol)
                if verdict is not None:
                    results.append(
                        CheckResult(
                            entry.name,
                            "jvp",
                            sname,
                            dtype,
                            *verdict,
                            entry.xfails.get("jvp") or JVP_XFAILS.get(entry.name),
                        )
                    )
            if not entry.supports_gradgrad or not ok:
                continue
            results.append(_gradgrad(entry, sname, dtype, tr, sr, tg, sg, rtol, atol))
    return results


def _status_parity(
    entry: OpEntry, sample: Sample, dtype: str, shadowgrad: Any, s_outs: list[Any]
) -> tuple[bool, str]:
    """An op that works with grad on works with grad off, with the same values (NablaFuzz's
    status oracle); run on fresh inputs since the op may be in place."""
    (args, kwargs), _ = materialize(shadowgrad, (sample.args, sample.kwargs), dtype)
    try:
        with shadowgrad.no_grad():
            out = entry.op(shadowgrad, *args, **kwargs)
    except Exception as e:
        return False, f"raised {type(e).__name__} with grad off (works with grad on): {e}"
    outs = _tensors(out)
    if len(outs) != len(s_outs):
        return False, f"{len(outs)} outputs with grad off, {len(s_outs)} with grad on"
    for a, b in zip(outs, s_outs, strict=True):
        if a.requires_grad and a.grad_fn is not None:
            return False, "an output recorded a graph under no_grad"
        ok, msg = _close(to_numpy(a), to_numpy(b), 0, 0)
        if not ok:
            return False, f"values differ with grad off: {msg}"
    return True, ""


GRADCHECK_MAX_NUMEL = 24  # numerical Jacobians cost two forwards per input element


def _gradcheck(
    entry: OpEntry, sample: Sample, dtype: str, torch: Any, shadowgrad: Any
) -> tuple[bool, str] | None:
    """float64 gradcheck of shadowgrad's op, where torch's own gradcheck passes on the sample
    (so kinks, ties and non-differentiable points are left to the VJP comparison)."""

    def check(T: Any) -> tuple[bool, str]:
        (args, kwargs), leaves = materialize(T, (sample.args, sample.kwargs), dtype)
        if not leaves or any(x.numel() > GRADCHECK_MAX_NUMEL for x in leaves):
            raise _Skip
        leaves = [x for x in leaves if x.is_leaf]
        if not leaves:
            raise _Skip

        def f(*_: Any) -> Any:
            out = entry.op(T, *args, **kwargs)
            # floating outputs (gradcheck also evaluates f under no_grad, where none requires grad)
            outs = [o for o in _tensors(out) if o.dtype.is_floating_point]
            if not outs:
                raise _Skip
            return tuple(outs)

        try:
            T.autograd.gradcheck(f, tuple(leaves), raise_exception=True, check_undefined_grad=False)
        except _Skip:
            raise
        except Exception as e:
            return False, str(e).split("\n", 1)[0]
        return True, ""

    try:
        t_ok, _ = check(torch)
    except _Skip:
        return None
    except Exception:
        return None
    if not t_ok:
        return None  # not differentiable at this sample: torch's own check fails too
    try:
        return check(shadowgrad)
    except _Skip:
        return None
    except Exception as e:
        return False, f"gradcheck raised {type(e).__name__}: {e}"


# Known forward-mode differences, each with its reason; strict: test_opdb fails once one of
# these entries no longer differs. None are left: every op's forward mode matches torch's.
JVP_XFAILS: dict[str, str] = {}


def _call_with(
    entry: OpEntry, T: Any, args: Any, kwargs: dict[str, Any], swap: dict[int, Any]
) -> Any:
    """Run the op with the leaves replaced (by id) by other tensors, nested lists included."""

    def sub(v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            return type(v)(sub(a) for a in v)
        return swap.get(id(v), v)

    return entry.op(T, *sub(args), **{k: sub(v) for k, v in kwargs.items()})


def _jvp(T: Any, entry: OpEntry, sample: Sample, dtype: str) -> list[Any] | None:
    """Output tangents of the op under forward AD, each leaf given a fixed random tangent."""
    fw = T.autograd.forward_ad
    (args, kwargs), leaves = materialize(T, (sample.args, sample.kwargs), dtype)
    if not leaves:
        return None
    rng = np.random.default_rng(7)
    with fw.dual_level():
        duals = {}
        for x in leaves:
            tangent = T.tensor(rng.standard_normal(tuple(x.shape)), dtype=x.dtype)
            duals[id(x)] = fw.make_dual(x.detach(), tangent)

        out = _call_with(entry, T, args, kwargs, duals)
        tangents = [fw.unpack_dual(o).tangent for o in _tensors(out)]
        return [None if t is None else to_numpy(t) for t in tangents]


def _jvp_by_reverse_mode(T: Any, entry: OpEntry, sample: Sample, dtype: str) -> Any:
    """J·v from reverse mode (the double-backward trick), with _jvp's tangents."""
    (args, kwargs), leaves = materialize(T, (sample.args, sample.kwargs), dtype)
    if not leaves:
        return None
    rng = np.random.default_rng(7)
    vs = tuple(T.tensor(rng.standard_normal(tuple(x.shape)), dtype=x.dtype) for x in leaves)
    ids = [id(x) for x in leaves]

    def f(*xs: Any) -> Any:
        out = _call_with(entry, T, args, kwargs, dict(zip(ids, xs, strict=True)))
        return tuple(o for o in _tensors(out) if o.dtype.is_floating_point)

    _, tangents = T.autograd.functional.jvp(f, tuple(leaves), vs)
    return [to_numpy(t) for t in tangents]


def _jvp_check(
    entry: OpEntry,
    sample: Sample,
    dtype: str,
    torch: Any,
    shadowgrad: Any,
    rtol: float,
    atol: float,
) -> tuple[bool, str] | None:
    """Forward mode against torch's forward mode (skipped where torch has no forward AD)."""
    try:
        expected = _jvp(torch, entry, sample, dtype)
        reverse = _jvp_by_reverse_mode(torch, entry, sample, dtype)
    except Exception:
        return None
    if expected is None or reverse is None:
        return None
    if len(reverse) != len(expected) or any(
        not _same_tangent(a, b) for a, b in zip(reverse, expected, strict=False)
    ):
        return None  # torch's own forward and reverse modes disagree here (a kink or a clamp)
    try:
        got = _jvp(shadowgrad, entry, sample, dtype)
    except Exception as e:
        return False, f"forward AD raised {type(e).__name__}: {e}"
    assert got is not None
    if len(got) != len(expected):
        return False, f"{len(got)} output tangents, torch has {len(expected)}"
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        if (a is None) != (b is None):
            return False, f"tangent {i}: {'none' if a is None else 'present'} vs torch"
        if a is not None:
            ok, msg = _close(a, b, rtol * 10, atol * 10)
            if not ok:
                return False, f"tangent of output {i}: {msg}"
    return True, ""


def _same_tangent(reverse: Any, forward: Any) -> bool:
    """torch's reverse-mode J·v against its forward tangent: an output forward mode gives no
    tangent (batch_norm's running stats) has a zero J·v."""
    if forward is None:
        return reverse is None or not np.any(np.asarray(reverse))
    return reverse is not None and _close(reverse, forward, 1e-6, 1e-6)[0]


class _Skip(Exception):
    """The sample is not suitable for a numerical check."""


def _gradgrad(
    entry: OpEntry,
    sname: str,
    dtype: str,
    tr: _Run,
    sr: _Run,
    tg: Any,
    sg: Any,
    rtol: float,
    atol: float,
) -> CheckResult:
    def second(run: _Run, grads: Any) -> list[Any] | None:
        T = run.T
        pairs = [(g, i) for i, g in enumerate(grads) if g is not None and g.requires_grad]
        if not pairs:
            return None
        rng = np.random.default_rng(99)
        cots = [T.tensor(rng.standard_normal(tuple(g.shape))).to(g.dtype) for g, _ in pairs]
        return list(T.autograd.grad([g for g, _ in pairs], run.leaves, cots, allow_unused=True))

    try:
        t2 = second(tr, tg)
    except Exception as e:
        return CheckResult(entry.name, "gradgrad", sname, dtype, True, f"torch raised {e}")
    try:
        s2 = second(sr, sg)
    except Exception as e:
        return CheckResult(
            entry.name,
            "gradgrad",
            sname,
            dtype,
            False,
            f"shadowgrad raised {type(e).__name__}: {e}",
            entry.xfails.get("gradgrad"),
        )
    if (t2 is None) != (s2 is None):
        return CheckResult(
            entry.name,
            "gradgrad",
            sname,
            dtype,
            False,
            f"second-order graph: shadowgrad {'none' if s2 is None else 'present'}, torch "
            f"{'none' if t2 is None else 'present'}",
            entry.xfails.get("gradgrad"),
        )
    ok, msg = True, ""
    for i, (a, b) in enumerate(zip(s2 or [], t2 or [], strict=True)):
        if (a is None) != (b is None):
            # torch may report None where shadowgrad reports zeros (or vice versa): compare values
            a_v = np.zeros(1) if a is None else to_numpy(a)
            b_v = np.zeros(1) if b is None else to_numpy(b)
            if not (np.all(a_v == 0) and np.all(b_v == 0)):
                ok, msg = False, f"second grad {i}: None mismatch"
                break
            continue
        if a is not None:
            ok, msg = _close(to_numpy(a), to_numpy(b), rtol * 10, atol * 10)
            if not ok:
                msg = f"second grad of input {i}: {msg}"
                break
    return CheckResult(entry.name, "gradgrad", sname, dtype, ok, msg, entry.xfails.get("gradgrad"))
