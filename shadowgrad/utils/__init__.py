"""Utilities. Mirrors `torch.utils`."""

from __future__ import annotations

import copyreg
import weakref

from . import _foreach_utils, _pytree, checkpoint, data, dlpack, hooks

_POISONED = (
    "Trying to execute AccumulateGrad node that was poisoned by swap_tensors this can happen when "
    "you try to run backward on a tensor that was swapped. For a module m with "
    "`torch.__future__.set_swap_module_params_on_conversion(True)` you should not change the "
    "device or dtype of the module (e.g. `m.cpu()` or `m.half()`) between running forward and "
    "backward. To resolve this, please only change the device/dtype before running forward (or "
    "after both forward and backward)."
)


def _poison_pre_hook(grad_outputs: object) -> None:
    raise RuntimeError(_POISONED)


def _engine_weakrefs(t: object, kind: str) -> list[object]:
    """shadowgrad's own weak references to a tensor, which torch keeps in C++: the version
    counter's list of views (kind "views") or the node's retained gradients ("retains")."""
    if kind == "views":
        vc = getattr(t, "_vc", None)
        return list(vc.views) if vc is not None and vc.views else []
    node = getattr(t, "_grad_fn", None)
    retains = getattr(node, "_retains", None) if node is not None else None
    return [r for r in retains.values() if r() is t] if retains else []


def _user_weakrefs(t: object) -> list[object]:
    mine = {id(r) for kind in ("views", "retains") for r in _engine_weakrefs(t, kind)}
    return [r for r in weakref.getweakrefs(t) if id(r) not in mine]


def swap_tensors(t1: object, t2: object) -> None:
    """Swap the contents of two tensor objects, each keeping its identity. Mirrors
    `torch.utils.swap_tensors`: class, `__dict__` and everything else (a shadowgrad tensor's
    state lives in its slots, where torch swaps the at::Tensor). A live AccumulateGrad node of
    either (a graph built before the swap) is poisoned, as torch's is."""
    if _user_weakrefs(t1):
        raise RuntimeError("Cannot swap t1 because it has weakref associated with it")
    if _user_weakrefs(t2):
        raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
    for name, t in (("t1", t1), ("t2", t2)):
        if _engine_weakrefs(t, "retains"):  # torch's retains_grad hook holds a weak TensorImpl
            raise RuntimeError(f"Expected no weakrefs to {name}'s Tensor object but got  1")
    t1_slots = set(copyreg._slotnames(t1.__class__))  # type: ignore[attr-defined]
    t2_slots = set(copyreg._slotnames(t2.__class__))  # type: ignore[attr-defined]
    if t1_slots != t2_slots:
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")
    for t in (t1, t2):
        acc_ref = getattr(t, "_acc", None)
        acc = acc_ref() if acc_ref is not None else None
        if acc is not None:
            acc.register_prehook(_poison_pre_hook)

    def swap_attr(name: str) -> None:
        tmp = getattr(t1, name)
        setattr(t1, name, getattr(t2, name))
        setattr(t2, name, tmp)

    swap_attr("__class__")
    swap_attr("__dict__")
    for slot in t1_slots:
        if hasattr(t1, slot) and hasattr(t2, slot):
            swap_attr(slot)
        elif hasattr(t1, slot):
            setattr(t2, slot, getattr(t1, slot))
            delattr(t1, slot)
        elif hasattr(t2, slot):
            setattr(t1, slot, getattr(t2, slot))
            delattr(t2, slot)
