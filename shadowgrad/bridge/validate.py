"""validate_function: check a custom torch.autograd.Function's backward against references.

References, in order of trust: complex step (exact, where the forward is analytic), shadowgrad
differentiating the forward body (exact, where the body is not opaque) and float64 central
differences (always). The user's backward is called raw (`grad_fn.apply`), so the returned
shapes, dtypes and Nones are seen as written, before torch's silent fix-ups.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._body import Opaque, run_body

__all__ = ["Finding", "ValidationReport", "validate_function"]

WRONG_FORMULA = "wrong formula"
KINK = "kink"
UNSTABLE = "numerically unstable"
MASKED_NAN = "masked NaN"
CONTRACT = "contract"  # shapes, dtypes, None vs zeros, mark_dirty, non-differentiable outputs


@dataclass
class Finding:
    """One problem with a custom backward."""

    input_index: int
    message: str
    verdict: str = WRONG_FORMULA
    output_elements: list[tuple[int, ...]] = field(default_factory=list)
    max_abs_err: float = 0.0
    max_rel_err: float = 0.0

    def __str__(self) -> str:
        s = f"input {self.input_index} [{self.verdict}]: {self.message}"
        if self.output_elements:
            shown = ", ".join(map(str, self.output_elements[:8]))
            more = len(self.output_elements) - 8
            s += f"\n    output elements affected: {shown}" + (
                f" (+{more} more)" if more > 0 else ""
            )
        return s


@dataclass
class ValidationReport:
    """What validate_function found. `ok` is True when there are no findings."""

    function: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def __str__(self) -> str:
        head = f"validate_function({self.function}): "
        head += "ok" if self.ok else f"{len(self.findings)} finding(s)"
        lines = [head, f"  references: {', '.join(self.references) or 'none'}"]
        lines += [f"  {f}" for f in self.findings]
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def _sum_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    lead = g.ndim - len(shape)
    if lead:
        g = g.sum(axis=tuple(range(lead)))
    axes = tuple(d for d, s in enumerate(shape) if s == 1 and g.shape[d] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g


def _expandable(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    lead = len(to) - len(shape)
    return lead >= 0 and all(s == 1 or s == n for s, n in zip(shape, to[lead:], strict=True))


class _Problem:
    """The function, its float64 inputs and forward evaluation."""

    def __init__(self, fn_cls: Any, inputs: tuple[Any, ...]) -> None:
        import torch

        self.torch = torch
        self.fn = fn_cls
        self.args = list(inputs)
        self.tpos = [i for i, a in enumerate(inputs) if isinstance(a, torch.Tensor)]
        fl = [i for i in self.tpos if inputs[i].dtype.is_floating_point or inputs[i].is_complex()]
        req = [i for i in fl if inputs[i].requires_grad]
        self.diff = req or fl
        self.x = {}
        for i in self.tpos:
            t = inputs[i].detach()
            if i in fl:
                t = t.to(torch.complex128 if t.is_complex() else torch.float64)
            self.x[i] = t.clone()

    def call(self, values: dict[int, Any] | None = None, grad: bool = False) -> tuple[Any, ...]:
        torch = self.torch
        args = list(self.args)
        for i in self.tpos:
            v = values[i] if values and i in values else self.x[i]
            v = v.clone()
            if grad and i in self.diff:
                v.requires_grad_(True)
            args[i] = v
        self.last_args = args
        with torch.set_grad_enabled(grad):
            out = self.fn.apply(*args)
        return out if isinstance(out, tuple) else (out,)

    def flat(self, outs: tuple[Any, ...]) -> np.ndarray:
        parts = [
            o.detach().numpy().reshape(-1)
            for o in outs
            if isinstance(o, self.torch.Tensor) and o.dtype.is_floating_point
        ]
        return np.concatenate(parts) if parts else np.zeros(0)


def validate_function(
    fn_cls: Any,
    *inputs: Any,
    rtol: float = 1e-5,
    atol: float = 1e-8,
    eps: float = 1e-6,
    seed: int = 0,
    double_backward: bool = True,
    max_elements: int = 4096,
) -> ValidationReport:
    """Check `fn_cls.backward` for the given torch inputs; return a ValidationReport.

    Inputs that require grad are the ones checked (all floating inputs when none does). The
    check runs in float64 on copies: the inputs are never modified.
    """
    torch = __import__("torch")
    fn_cls = _as_function(fn_cls)
    rep = ValidationReport(fn_cls.__name__)
    P = _Problem(fn_cls, inputs)
    rng = np.random.default_rng(seed)

    # The forward in float64, and the raw backward for one random cotangent.
    outs = P.call(grad=True)
    out_t = [o for o in outs if isinstance(o, torch.Tensor)]
    node = next((o.grad_fn for o in out_t if o.grad_fn is not None), None)
    if node is None:
        rep.notes.append("no output requires grad: nothing to check")
        return rep
    _check_dirty(P, rep)
    cot = [torch.from_numpy(rng.standard_normal(tuple(o.shape))) for o in out_t]
    cot = [
        c.to(o.dtype) if o.dtype.is_floating_point else torch.zeros_like(o, dtype=torch.float64)
        for c, o in zip(cot, out_t, strict=True)
    ]
    raw = node.apply(*cot)
    raw = raw if isinstance(raw, tuple) else (raw,)
    user = _check_contract(P, raw, rep)

    # References.
    diff_outs = [k for k, o in enumerate(out_t) if o.dtype.is_floating_point]
    v = np.concatenate([cot[k].numpy().reshape(-1) for k in diff_outs]) if diff_outs else None
    fd = _finite_differences(P, eps, max_elements)
    rep.references.append("central differences")
    sg_ref = _shadowgrad_reference(P, out_t, cot, rep)
    cs = _complex_step(P, fd, max_elements)
    if cs is not None:
        rep.references.insert(0, "complex step")
    _check_nondiff_outputs(P, node, fd, rep)

    any_kink = False
    for i in P.diff:
        u = user.get(i)
        if u is None:
            continue
        J = fd[i]
        shape = P.x[i].shape
        fdv = (J["c"] @ v).reshape(shape)
        left, right = (J["l"] @ v).reshape(shape), (J["r"] @ v).reshape(shape)
        kink = ~_close(left, right, 1e-3, 1e-4)
        any_kink |= bool(kink.any())
        ref, exact = fdv, False
        if cs is not None:
            ref, exact = (cs[i] @ v).reshape(shape), True
        elif sg_ref is not None and sg_ref.get(i) is not None:
            s = sg_ref[i]
            if (_close(s, fdv, 1e-4, 1e-6) | kink).all():
                ref, exact = s, True
            else:
                rep.notes.append(
                    f"shadowgrad's derivative of the forward disagrees with finite differences "
                    f"for input {i}; using finite differences"
                )
        r, a = (rtol, atol) if exact else (max(rtol, 1e-4), max(atol, 1e-6))
        bad = ~_close(u, ref, r, a)
        # At a kink any value between the one-sided derivatives is a valid subgradient.
        sub = kink & bad & _within(u, left, right)
        if sub.any():
            rep.notes.append(
                f"input {i}: {int(sub.sum())} element(s) at a kink, where the backward picks a "
                "subgradient different from the reference's"
            )
        bad &= ~sub
        if bad.any():
            rep.findings.append(_diagnose(P, i, u, ref, bad, J, v, node, out_t))

    if double_backward and rep.ok:
        _check_double_backward(P, rep, any_kink)
    return rep


def _as_function(fn: Any) -> Any:
    """A torch.library custom op (its CustomOpDef, or `torch.ops.<ns>.<op>[.<overload>]`) as
    the Function-like class the checks take: `apply` calls the op (its registered autograd
    formula is the backward checked), `forward` is its kernel, run on shadowgrad tensors for
    the exact reference (as a setup_context-style forward)."""
    if isinstance(fn, type):
        return fn
    opdef = fn if hasattr(fn, "_init_fn") and hasattr(fn, "_opoverload") else None
    if opdef is None and (hasattr(fn, "_qualified_op_name") or hasattr(fn, "_schema")):
        try:
            from torch._library.custom_ops import _maybe_get_opdef

            overload = getattr(fn, "default", fn)
            opdef = _maybe_get_opdef(overload)
        except Exception:
            opdef = None
    if opdef is None:
        return fn

    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        pass

    return type(
        opdef._qualname,
        (),
        {
            "apply": staticmethod(opdef),
            "forward": staticmethod(opdef._init_fn),
            "setup_context": staticmethod(setup_context),
        },
    )


def _close(a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    scale = float(np.nanmax(np.abs(b))) if b.size and np.isfinite(b).any() else 0.0
    with np.errstate(invalid="ignore"):
        return (np.abs(a - b) <= atol + rtol * max(scale, 1.0)) | (np.isnan(a) & np.isnan(b))


def _check_dirty(P: _Problem, rep: ValidationReport) -> None:
    """Inputs changed in place must be marked with ctx.mark_dirty."""
    torch = P.torch
    args = list(P.args)
    for i in P.tpos:
        args[i] = P.x[i].clone()
    before = {i: args[i].clone() for i in P.tpos}
    with torch.no_grad():
        P.fn.apply(*args)
    for i in P.tpos:
        if not torch.equal(before[i], args[i]):
            # With requires_grad, torch raises unless marked; without, check marking by hand.
            ok = True
            with torch.enable_grad():
                a2 = list(args)
                for j in P.tpos:
                    a2[j] = P.x[j].clone()
                    if j in P.diff:
                        a2[j] = a2[j].requires_grad_(True).clone()
                try:
                    out = P.fn.apply(*a2)
                    out = out if isinstance(out, tuple) else (out,)
                    gf = next((o.grad_fn for o in out if getattr(o, "grad_fn", None)), None)
                    dirty = getattr(gf, "dirty_tensors", None) or ()
                    ok = any(d is a2[i] for d in dirty)
                except RuntimeError:
                    ok = True
            if not ok:
                rep.findings.append(
                    Finding(
                        i,
                        "the forward modifies this input in place without calling ctx.mark_dirty",
                        CONTRACT,
                    )
                )


def _check_contract(P: _Problem, raw: tuple[Any, ...], rep: ValidationReport) -> dict[int, Any]:
    """Number, shapes, dtypes and Nones of the raw backward outputs; returns them as arrays."""
    torch = P.torch
    n = len(P.args)
    if len(raw) != n and not (len(raw) > n and all(g is None for g in raw[n:])):
        rep.findings.append(
            Finding(-1, f"backward returned {len(raw)} gradients for {n} inputs", CONTRACT)
        )
        return {}
    user: dict[int, Any] = {}
    for i in P.diff:
        g = raw[i]
        shape = tuple(P.x[i].shape)
        if g is None:
            user[i] = np.zeros(shape)
            rep.notes.append(f"backward returns None for input {i} (read as zeros)")
            continue
        if not isinstance(g, torch.Tensor):
            rep.findings.append(Finding(i, f"backward returned a {type(g).__name__}", CONTRACT))
            continue
        gs = tuple(g.shape)
        if gs != shape:
            if _expandable(shape, gs):
                rep.findings.append(
                    Finding(
                        i,
                        f"the returned gradient has shape {list(gs)} but the input has "
                        f"shape {list(shape)}: missing broadcast reduction (sum the "
                        f"broadcast dimensions; torch sums them silently, which hides it)",
                        CONTRACT,
                    )
                )
            else:
                rep.findings.append(
                    Finding(
                        i,
                        f"the returned gradient has shape {list(gs)}, not compatible "
                        f"with the input's shape {list(shape)}",
                        CONTRACT,
                    )
                )
                continue
        if g.dtype != P.x[i].dtype:
            rep.findings.append(
                Finding(
                    i,
                    f"the returned gradient has dtype {g.dtype} but the input has {P.x[i].dtype}",
                    CONTRACT,
                )
            )
        user[i] = _sum_to(g.detach().numpy(), shape)
    for i in P.tpos:
        if i not in P.diff and i < len(raw) and raw[i] is not None:
            rep.notes.append(
                f"backward computes a gradient for input {i}, which needs none "
                "(check ctx.needs_input_grad)"
            )
    return user


def _finite_differences(P: _Problem, eps: float, max_elements: int) -> dict[int, Any]:
    """Per input: central-difference Jacobian columns and one-sided ones (for kinks)."""
    f0 = P.flat(P.call())
    res = {}
    for i in P.diff:
        x = P.x[i]
        n = x.numel()
        cols, left, right = (np.zeros((n, f0.size)) for _ in range(3))
        for e in range(min(n, max_elements)):
            xp = x.clone().reshape(-1)
            xm = x.clone().reshape(-1)
            xp[e] += eps
            xm[e] -= eps
            fp = P.flat(P.call({i: xp.reshape(x.shape)}))
            fm = P.flat(P.call({i: xm.reshape(x.shape)}))
            cols[e] = (fp - fm) / (2 * eps)
            right[e] = (fp - f0) / eps
            left[e] = (f0 - fm) / eps
        res[i] = {"c": cols, "l": left, "r": right}
    return res


def _shadowgrad_reference(
    P: _Problem, out_t: list[Any], cot: list[Any], rep: ValidationReport
) -> dict[int, Any] | None:
    """The VJP of shadowgrad differentiating the forward body; None when the body is opaque."""
    import shadowgrad

    from .interop import from_torch

    args = list(P.args)
    leaves = {}
    for i in P.tpos:
        t = shadowgrad.tensor(P.x[i].numpy().copy())
        if i in P.diff:
            t.requires_grad_(True)
            leaves[i] = t
        args[i] = t
    needs = tuple(i in P.diff for i in range(len(args)))
    try:
        outs = run_body(P.fn, tuple(args), needs)
        pairs = []
        for o, t, c in zip(outs, out_t, cot, strict=False):
            if not isinstance(o, shadowgrad.Tensor) or tuple(o.shape) != tuple(t.shape):
                raise Opaque("its outputs do not match torch's")
            if not np.allclose(o.detach().numpy(), t.detach().numpy(), 1e-7, 1e-9, True):
                raise Opaque("its values differ from torch's")
            if o.requires_grad:
                pairs.append((o, from_torch(c)))
        if not pairs:
            raise Opaque("its outputs do not depend on the inputs")
        grads = shadowgrad.autograd.grad(
            [p[0] for p in pairs],
            list(leaves.values()),
            [p[1] for p in pairs],
            retain_graph=True,
            allow_unused=True,
        )
    except Opaque as e:
        rep.notes.append(f"forward body is opaque to shadowgrad ({e}); checked numerically")
        return None
    except Exception as e:
        rep.notes.append(f"shadowgrad could not differentiate the forward body ({e})")
        return None
    rep.references.insert(0, "shadowgrad")
    return {
        i: (None if g is None else g.numpy().copy()) for i, g in zip(leaves, grads, strict=True)
    }


def _complex_step(P: _Problem, fd: dict[int, Any], max_elements: int) -> dict[int, Any] | None:
    """Complex-step Jacobian columns, when the forward is analytic (agrees with fd)."""
    torch = P.torch
    h = 1e-30
    if any(P.x[i].is_complex() for i in P.diff):
        return None
    out = {}
    try:
        with np.errstate(all="ignore"):
            for i in P.diff:
                x = P.x[i]
                n = min(x.numel(), max_elements)
                cols = np.zeros_like(fd[i]["c"])
                for e in range(n):
                    xc = x.to(torch.complex128).clone().reshape(-1)
                    xc[e] += 1j * h
                    vals = {j: P.x[j].to(torch.complex128) for j in P.diff}
                    vals[i] = xc.reshape(x.shape)
                    outs = P.call(vals)
                    parts = [
                        o.detach().numpy().reshape(-1)
                        for o in outs
                        if isinstance(o, torch.Tensor) and o.is_complex()
                    ]
                    if not parts:
                        return None
                    cols[e] = np.concatenate(parts).imag / h
                if not _close(cols, fd[i]["c"], 1e-4, 1e-6).all():
                    return None
                out[i] = cols
    except Exception:
        return None
    return out


def _check_nondiff_outputs(
    P: _Problem, node: Any, fd: dict[int, Any], rep: ValidationReport
) -> None:
    """An output marked non-differentiable must not depend on the inputs."""
    nd = getattr(node, "non_differentiable", None) or ()
    if not nd:
        return
    outs = P.call(grad=True)
    torch = P.torch
    offset = 0
    for k, o in enumerate(outs):
        if not (isinstance(o, torch.Tensor) and o.dtype.is_floating_point):
            continue
        m = o.numel()
        marked = any(o is t for t in nd) or (not o.requires_grad and o.grad_fn is None)
        if marked:
            for i in P.diff:
                if np.abs(fd[i]["c"][:, offset : offset + m]).max(initial=0.0) > 1e-6:
                    rep.findings.append(
                        Finding(
                            i,
                            f"output {k} is marked non-differentiable but depends on this input",
                            CONTRACT,
                        )
                    )
        offset += m


def _diagnose(P, i, u, ref, bad, J, v, node, out_t) -> Finding:  # type: ignore[no-untyped-def]
    """Name the verdict and the affected output elements for a mismatching input."""
    with np.errstate(invalid="ignore"):
        err = np.abs(u - ref)
        finite = np.isfinite(err)
        max_abs = float(err[finite].max()) if finite.any() else float("inf")
        rel = err / np.maximum(np.abs(ref), 1e-12)
        max_rel = float(rel[finite].max()) if finite.any() else float("inf")
    flat_bad = np.flatnonzero(bad.reshape(-1))
    left, right = J["l"] @ v, J["r"] @ v
    if np.isnan(u.reshape(-1)[flat_bad]).any() and np.isfinite(ref).all():
        verdict = MASKED_NAN
        msg = (
            "the backward gives NaN where the gradient is finite: an unused branch "
            "(torch.where or masking) multiplies inf or NaN by zero"
        )
    elif not np.allclose(left[flat_bad], right[flat_bad], 1e-3, 1e-4):
        verdict = KINK
        msg = (
            "the input sits at a kink (left and right derivatives differ) and the backward "
            "returns a value outside them"
        )
    elif not np.isfinite(u).all() or not np.isfinite(ref).all():
        verdict = UNSTABLE
        msg = "the backward or the reference overflows to inf"
    else:
        verdict = WRONG_FORMULA
        msg = (
            f"the backward's gradient differs from the reference: max abs error "
            f"{max_abs:.3g}, max rel error {max_rel:.3g}"
        )
    elems = [tuple(map(int, np.unravel_index(e, u.shape))) for e in flat_bad[:8]]
    msg += f" (at input elements {', '.join(map(str, elems))}"
    msg += f" and {flat_bad.size - 8} more)" if flat_bad.size > 8 else ")"
    f = Finding(i, msg, verdict, _affected_outputs(P, i, J, node, out_t), max_abs, max_rel)
    return f


def _within(u: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    with np.errstate(invalid="ignore"):
        return (u >= lo - 1e-6 * (1 + np.abs(lo))) & (u <= hi + 1e-6 * (1 + np.abs(hi)))


def _affected_outputs(
    P: _Problem, i: int, J: dict[str, Any], node: Any, out_t: list[Any]
) -> list[tuple[int, ...]]:
    """Output elements whose row of the user's Jacobian differs from the reference row."""
    torch = P.torch
    fouts = [(k, o) for k, o in enumerate(out_t) if o.dtype.is_floating_point]
    total = sum(o.numel() for _, o in fouts)
    if total > 512:
        return []
    affected = []
    row = 0
    shape = tuple(P.x[i].shape)
    for k, o in fouts:
        for e in range(o.numel()):
            cot = [
                torch.zeros_like(t, dtype=torch.float64)
                if t.dtype.is_floating_point
                else torch.zeros_like(t)
                for t in out_t
            ]
            cot[k].view(-1)[e] = 1.0
            try:
                g = node.apply(*cot)
                g = g if isinstance(g, tuple) else (g,)
                gi = g[i]
                u = np.zeros(shape) if gi is None else _sum_to(gi.detach().numpy(), shape)
            except Exception:
                return []
            ref = J["c"][:, row].reshape(shape)
            if not _close(u, ref, 1e-4, 1e-6).all():
                idx = np.unravel_index(e, tuple(o.shape))
                affected.append((k, *map(int, idx)) if len(fouts) > 1 else tuple(map(int, idx)))
            row += 1
    return affected


def _check_double_backward(P: _Problem, rep: ValidationReport, kinks: bool) -> None:
    torch = P.torch
    args = list(P.args)
    for i in P.tpos:
        args[i] = P.x[i].clone().requires_grad_(i in P.diff)
    if sum(args[i].numel() for i in P.diff) > 256:
        return
    try:
        torch.autograd.gradgradcheck(P.fn.apply, tuple(args), raise_exception=True)
    except RuntimeError as e:
        text = str(e)
        if (
            "once_differentiable" in text
            or "does not require grad" in text
            or ("trying to differentiate twice" in text)
        ):
            rep.notes.append("double backward is not supported (once_differentiable)")
            return
        first = text.splitlines()[0].rstrip(",")
        if kinks:
            rep.notes.append(f"double backward not checked at a kink ({first})")
            return
        verdict = MASKED_NAN if "nan" in text.lower() else WRONG_FORMULA
        rep.findings.append(
            Finding(
                -1,
                "double backward (the backward differentiated again) disagrees with finite "
                "differences of the backward: " + first,
                verdict,
            )
        )
    except Exception as e:
        rep.notes.append(f"double backward could not be checked ({type(e).__name__}: {e})")
