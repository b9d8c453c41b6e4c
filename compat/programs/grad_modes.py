"""Section 4: grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode, threads."""

from __future__ import annotations

import threading
from typing import Any

from ..engines import observe, raises
from . import program


@program("4.1")
def prog_default_enabled(T: Any) -> Any:
    return {"enabled": T.is_grad_enabled(), "same": T.autograd.no_grad is T.no_grad}


@program("4.2")
def prog_no_grad_results_are_leaves(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        y = x * 2
        inside = T.is_grad_enabled()
    return {"y": observe(T, y), "inside": inside, "after": T.is_grad_enabled()}


@program("4.2")
def prog_no_grad_restores_after_exception(T: Any) -> Any:
    def boom() -> None:
        with T.no_grad():
            raise ValueError("boom")

    return {"err": raises(boom), "after": T.is_grad_enabled()}


@program("4.2")
def prog_no_grad_as_decorator_bare_and_called(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)

    @T.no_grad()
    def f(t: Any) -> Any:
        return t * 2

    @T.no_grad
    def g(t: Any) -> Any:
        return t * 2

    @T.no_grad()
    def gen(t: Any) -> Any:
        yield t * 2
        yield t * 3

    return {"called": observe(T, f(x)), "bare": observe(T, g(x)), "gen": list(gen(x))}


@program("4.3")
def prog_enable_grad_inside_no_grad(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    with T.no_grad(), T.enable_grad():
        y = x * 2
    return observe(T, y)


@program("4.4")
def prog_set_grad_enabled_forms(T: Any) -> Any:
    out: dict[str, Any] = {}
    T.set_grad_enabled(False)
    out["call"] = T.is_grad_enabled()
    T.set_grad_enabled(True)
    with T.no_grad():
        with T.set_grad_enabled(True):
            out["ctx_inside"] = T.is_grad_enabled()
        out["ctx_restored"] = T.is_grad_enabled()
    out["repr"] = repr(T.set_grad_enabled(True))
    out["int"] = raises(lambda: T.set_grad_enabled(1))
    out["none"] = raises(lambda: T.set_grad_enabled())
    return out


@program("4.5")
def prog_inplace_on_leaf_inside_no_grad(T: Any) -> Any:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    with T.no_grad():
        w -= 0.1 * w.grad
    return observe(T, w)


@program("4.6")
def prog_grad_mode_is_thread_local(T: Any) -> Any:
    seen: dict[str, Any] = {}

    def worker() -> None:
        seen["worker_start"] = T.is_grad_enabled()
        T.set_grad_enabled(False)
        seen["worker_off"] = T.is_grad_enabled()

    with T.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        seen["main_inside"] = T.is_grad_enabled()
    seen["main_after"] = T.is_grad_enabled()
    return seen


@program("4.7")
def prog_inference_mode_basics(T: Any) -> Any:
    x = T.tensor([1.0], requires_grad=True)
    with T.inference_mode():
        y = x * 2
        f = T.ones(2, requires_grad=True)
        state = (T.is_grad_enabled(), T.is_inference_mode_enabled())
    with T.inference_mode(False):
        off = T.is_inference_mode_enabled()
    return {
        "y": observe(T, y),
        "y_inference": y.is_inference(),
        "factory": observe(T, f),
        "factory_inference": f.is_inference(),
        "state": state,
        "off": off,
    }


@program("4.8")
def prog_inference_tensor_saved_for_backward(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.inference_mode():
        i = T.ones(2)
        k = T.ones(2, requires_grad=True)
    return {"saved": raises(lambda: x * i), "unsaved": observe(T, k * 2)}


@program("4.9")
def prog_inference_tensor_mutation_outside(T: Any) -> Any:
    with T.inference_mode():
        i = T.ones(2)
    return {
        "inplace": raises(lambda: i.add_(1)),
        "requires_grad": raises(lambda: i.requires_grad_()),
        "version": raises(lambda: i._version),
    }


@program("4.12")
def prog_inference_tensor_clone_and_view(T: Any) -> Any:
    with T.inference_mode():
        i = T.ones(2)
    return {"clone": observe(T, i.clone()), "view_inference": i[0:1].is_inference()}


@program("4.9")
def prog_inference_inplace_error_still_writes(T: Any) -> Any:
    with T.inference_mode():
        i = T.ones(2)
    raises(lambda: i.add_(1))
    return {"i": i.clone()}


@program("4.12")
def prog_inference_mode_inplace_on_normal_tensor(T: Any) -> Any:
    n = T.ones(2)
    w = T.ones(2, requires_grad=True)
    with T.inference_mode():
        n.add_(1)
        w.add_(1)
        v = n[0:1]
    with T.no_grad():
        z = T.ones(1)
    return {
        "n": observe(T, n),
        "w": observe(T, w),
        "view_inference": v.is_inference(),
        "no_grad_inference": z.is_inference(),
    }


@program(
    "4.2",
)
def prog_view_under_no_grad_requires_grad(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        v = x.unsqueeze(0)
        s = x[0]
    return {"v": observe(T, v), "s": observe(T, s)}


@program("4.6")
def prog_modes_and_saved_hooks_per_thread(T: Any) -> Any:
    """A new thread starts with grad mode on, inference mode off and no saved-tensor hooks,
    whatever the spawning thread has; its own settings do not leak back."""
    seen: dict[str, Any] = {}
    packed: list[str] = []

    def worker() -> None:
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        seen["worker"] = (T.is_grad_enabled(), T.is_inference_mode_enabled(), y.requires_grad)
        seen["worker_inference_tensor"] = y.is_inference()
        with T.inference_mode():
            seen["worker_inside"] = (T.is_grad_enabled(), T.is_inference_mode_enabled())
        y.sum().backward()
        seen["worker_grad"] = x.grad.tolist()

    with (
        T.autograd.graph.saved_tensors_hooks(lambda t: packed.append("main") or t, lambda t: t),
        T.inference_mode(),
    ):
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        seen["main"] = (T.is_grad_enabled(), T.is_inference_mode_enabled())
    seen["packed"] = packed
    seen["main_after"] = (T.is_grad_enabled(), T.is_inference_mode_enabled())
    return seen
