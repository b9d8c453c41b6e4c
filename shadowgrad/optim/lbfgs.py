"""L-BFGS. Mirrors `torch.optim.LBFGS`, with its optional strong-Wolfe line search.

The algorithm runs on flat shadowgrad tensors exactly as torch's does on its tensors, so the
scalars it keeps (`ys`, `ro`, `H_diag`, the step `t` after the first iteration, ...) are 0-dim
tensors, as in torch's state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._creation import zeros
from .._grad_mode import no_grad
from .._tensor import Tensor
from ..ops.pointwise import view_as_real
from ..ops.shape import cat
from ._single_tensor import check_lr
from .optimizer import Optimizer

__all__ = ["LBFGS"]

_HISTORY = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss")


def _num(x: Any) -> Any:
    return float(x) if isinstance(x, Tensor) else x


def _loss_value(loss: Any) -> float:
    # detached first: torch reads the loss under no_grad, where it gives no requires_grad warning
    return float(loss.detach() if isinstance(loss, Tensor) else loss)


def _cubic_interpolate(
    x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any, bounds: Any = None
) -> Any:
    """Minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clipped to `bounds`
    (by default the interval between the points); its midpoint when the cubic has none."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if not d2_square >= 0:
        return (lo + hi) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(min_pos, lo), hi)


class _Bracket:
    """The line search's interval: step, loss, gradient and directional derivative at each
    end."""

    def __init__(self, t: list[Any], f: list[Any], g: list[Any], gtd: list[Any]) -> None:
        self.t, self.f, self.g, self.gtd = t, f, g, gtd

    def set(self, i: int, t: Any, f: Any, g: Any, gtd: Any) -> None:
        self.t[i], self.f[i], self.g[i], self.gtd[i] = t, f, g, gtd

    def copy_end(self, dst: int, src: int) -> None:
        self.set(dst, self.t[src], self.f[src], self.g[src], self.gtd[src])

    def ends(self) -> tuple[int, int]:
        """(low, high): the end with the lower loss first."""
        return (0, 1) if self.f[0] <= self.f[-1] else (1, 0)


def _strong_wolfe(
    obj_func: Callable[..., Any],
    x: Any,
    t: Any,
    d: Tensor,
    f: float,
    g: Tensor,
    gtd: Tensor,
    c1: float = 1e-4,
    c2: float = 0.9,
    tolerance_change: float = 1e-9,
    max_ls: int = 25,
) -> tuple[Any, Tensor, Any, int]:
    """Line search satisfying the strong Wolfe conditions (Nocedal & Wright, Alg. 3.5/3.6).
    Returns the loss, gradient and step it settled on, and the function evaluations used."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    bracket: _Bracket | None = None
    # phase 1: expand the step until an interval is known to contain an acceptable one
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = _Bracket(
                [t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            )
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = _Bracket([t], [f_new], [g_new], [None])
            done = True
            break
        if gtd_new >= 0:
            bracket = _Bracket(
                [t_prev, t], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            )
            break
        t_next = _cubic_interpolate(
            t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(t + 0.01 * (t - t_prev), t * 10)
        )
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new.clone(), gtd_new
        t = t_next
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = _Bracket([0, t], [f, f_new], [g, g_new], [None, None])
    assert bracket is not None
    # phase 2: zoom into the interval by cubic interpolation
    insuf_progress = False
    low, high = bracket.ends()
    while not done and ls_iter < max_ls:
        if abs(bracket.t[1] - bracket.t[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(
            bracket.t[0], bracket.f[0], bracket.gtd[0], bracket.t[1], bracket.f[1], bracket.gtd[1]
        )
        # keep away from the ends unless the previous try already made too little progress
        t_hi, t_lo = max(bracket.t), min(bracket.t)
        eps = 0.1 * (t_hi - t_lo)
        if min(t_hi - t, t - t_lo) < eps:
            if insuf_progress or t >= t_hi or t <= t_lo:
                t = t_hi - eps if abs(t - t_hi) < abs(t - t_lo) else t_lo + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket.f[low]:
            bracket.set(high, t, f_new, g_new.clone(), gtd_new)
            low, high = (0, 1) if bracket.f[0] <= bracket.f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket.t[high] - bracket.t[low]) >= 0:
                bracket.copy_end(high, low)
            bracket.set(low, t, f_new, g_new.clone(), gtd_new)
    return bracket.f[low], bracket.g[low], bracket.t[low], evals


class LBFGS(Optimizer):
    """Mirrors `torch.optim.LBFGS`."""

    def __init__(
        self,
        params: Any,
        lr: float = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ) -> None:
        check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {
            "lr": lr,
            "max_iter": max_iter,
            "max_eval": max_eval,
            "tolerance_grad": tolerance_grad,
            "tolerance_change": tolerance_change,
            "history_size": history_size,
            "line_search_fn": line_search_fn,
        }
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]
        self._numel_cache: int | None = None

    def _numel(self) -> int:
        if self._numel_cache is None:
            self._numel_cache = sum(
                2 * p.numel() if p.is_complex() else p.numel() for p in self._params
            )
        return self._numel_cache

    def _gather_flat_grad(self) -> Tensor:
        views = []
        for p in self._params:
            g = p.grad
            if g is None:
                v = zeros(p.numel(), dtype=p.dtype)
            elif g.is_sparse:  # torch densifies a sparse gradient (nn.Embedding(sparse=True))
                v = g.to_dense().reshape(-1)
            else:
                v = g.reshape(-1)
            if v.is_complex():  # torch: a complex parameter's parts are two real numbers
                v = view_as_real(v).view(-1)
            views.append(v)
        return cat(views, 0)

    def _add_grad(self, step_size: Any, update: Tensor) -> None:
        offset = 0
        for p in self._params:
            if p.is_complex():
                p = view_as_real(p)
            n = p.numel()
            p.add_(update[offset : offset + n].view_as(p), alpha=_num(step_size))
            offset += n

    def _directional_evaluate(
        self, closure: Callable[[], Any], x: list[Tensor], t: Any, d: Tensor
    ) -> tuple[float, Tensor]:
        """Loss and flat gradient at x + t * d; the parameters are put back to x."""
        self._add_grad(t, d)
        loss = _loss_value(closure())
        flat_grad = self._gather_flat_grad()
        for p, saved in zip(self._params, x, strict=True):
            p.copy_(saved)
        return loss, flat_grad

    def _direction(
        self, hist: dict[str, Any], state: dict[str, Any], flat_grad: Tensor, history_size: int
    ) -> Tensor:
        """The two-loop recursion: -H g, with H the L-BFGS inverse-Hessian estimate."""
        old_dirs, old_stps, ro = hist["old_dirs"], hist["old_stps"], hist["ro"]
        if "al" not in state:
            state["al"] = [None] * history_size
        al = state["al"]
        q = flat_grad.neg()
        for i in range(len(old_dirs) - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=_num(-al[i]))
        r = q * hist["H_diag"]
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=_num(al[i] - be_i))
        return r

    @staticmethod
    def _remember(hist: dict[str, Any], flat_grad: Tensor, history_size: int) -> None:
        """Add the last step's curvature pair, if it is usable, to the bounded history."""
        y = flat_grad.sub(hist["prev_flat_grad"])
        s = hist["d"].mul(hist["t"])
        ys = y.dot(s)
        if ys > 1e-10:
            if len(hist["old_dirs"]) == history_size:
                for key in ("old_dirs", "old_stps", "ro"):
                    hist[key].pop(0)
            hist["old_dirs"].append(y)
            hist["old_stps"].append(s)
            hist["ro"].append(1.0 / ys)
            hist["H_diag"] = ys / y.dot(y)

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Mirrors `torch.optim.LBFGS.step`: up to max_iter iterations, one closure call per
        function evaluation."""
        with no_grad():
            return self._step(lambda: self._run_closure(closure))

    def _step(self, closure: Callable[[], Any]) -> Any:
        group = self.param_groups[0]
        lr = _num(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        history_size = group["history_size"]
        line_search_fn = group["line_search_fn"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = closure()
        loss = _loss_value(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss

        # the history lives in `hist` during the call and is stored back into `state` at its end
        hist = {key: state.get(key) for key in _HISTORY}
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                hist["d"] = flat_grad.neg()
                hist["old_dirs"], hist["old_stps"], hist["ro"] = [], [], []
                hist["H_diag"] = 1
            else:
                self._remember(hist, flat_grad, history_size)
                hist["d"] = self._direction(hist, state, flat_grad, history_size)
            d = hist["d"]
            if hist["prev_flat_grad"] is None:
                hist["prev_flat_grad"] = flat_grad.clone()
            else:
                hist["prev_flat_grad"].copy_(flat_grad)
            prev_loss = hist["prev_loss"] = loss
            # the first step is scaled down by the gradient's size; later ones take lr
            if state["n_iter"] == 1:
                hist["t"] = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                hist["t"] = lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break
            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = [p.clone() for p in self._params]

                def obj_func(x: Any, t: Any, d: Tensor) -> tuple[float, Tensor]:
                    return self._directional_evaluate(closure, x, t, d)

                loss, flat_grad, hist["t"], ls_func_evals = _strong_wolfe(
                    obj_func,
                    x_init,
                    hist["t"],
                    d,
                    loss,
                    flat_grad,
                    gtd,
                    max_ls=max_eval - current_evals,
                )
                self._add_grad(hist["t"], d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(hist["t"], d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = _loss_value(closure())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if (
                n_iter == max_iter
                or current_evals >= max_eval
                or opt_cond
                or d.mul(hist["t"]).abs().max() <= tolerance_change
                or abs(loss - prev_loss) < tolerance_change
            ):
                break
        state.update(hist)
        return orig_loss
