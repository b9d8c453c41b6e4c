"""torch.library.opcheck without a compiler: test_schema (the op mutates only what its schema
marks mutable), test_autograd_registration (an input requiring grad has an autograd kernel),
test_faketensor and test_aot_dispatch_* (the fake impl exists and gives the real outputs'
shapes and dtypes)."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import dispatch
from .custom_ops import CustomOpDef

ALL_TEST_UTILS = (
    "test_schema",
    "test_autograd_registration",
    "test_faketensor",
    "test_aot_dispatch_static",
    "test_aot_dispatch_dynamic",
)


class OpCheckError(Exception):
    pass


class UnsupportedOperatorException(RuntimeError):
    """torch._subclasses.fake_tensor's: an op without a fake (meta) implementation."""


class MetadataMismatchError(RuntimeError):
    """torch._subclasses.fake_utils': the fake impl's outputs are not the op's."""


class FakeImplCtx:
    """What torch.library.get_ctx() returns inside a fake impl. shadowgrad runs fake impls on
    real tensors: a data-dependent size (new_dynamic_size) is a placeholder, and the outputs'
    sizes are then not compared."""

    def __init__(self) -> None:
        self.dynamic = False

    def new_dynamic_size(self, *, min: int = 0, max: int | None = None) -> int:
        self.dynamic = True
        return min

    create_unbacked_symint = new_dynamic_size


CURRENT: list[FakeImplCtx] = []


def _entry(op: Any) -> tuple[dispatch.OpEntry, Any]:
    if isinstance(op, CustomOpDef):
        return op._entry, op
    if isinstance(op, dispatch.OpOverload):
        return op._entry, op
    if isinstance(op, dispatch.OpOverloadPacket):
        return getattr(op, op.overloads()[0])._entry, op
    raise ValueError(
        f"opcheck(op, ...): op must be instance of torch._ops.OpOverload, e.g. "
        f"torch.ops.aten.sin.default, got {type(op)}"
    )


def _snapshot(args: Any) -> list[Any]:
    snap = []
    for a in args:
        if isinstance(a, Tensor):
            snap.append(a.detach().clone())
        else:
            snap.append(None)
    return snap


def _flat(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat(o)]
    return [out]


def _test_schema(e: dispatch.OpEntry, op: Any, args: tuple, kwargs: dict) -> None:
    import shadowgrad

    before = _snapshot(args)
    with shadowgrad.no_grad():
        op(*args, **kwargs)
    for a, b, arg in zip(args, before, e.schema.arguments, strict=False):
        if b is None:
            continue
        mutable = arg.alias_info is not None and arg.alias_info.is_write
        changed = not bool(shadowgrad.equal(a.detach(), b)) if a.shape == b.shape else True
        if changed and not mutable:
            raise RuntimeError(f"Argument {arg.name} is not defined as mutable but was mutated")


def _test_autograd(e: dispatch.OpEntry, op: Any, args: tuple, kwargs: dict) -> None:
    if not dispatch.any_requires_grad(*args, **kwargs):
        return
    if e.kernel(*dispatch.AUTOGRAD_KEYS) or e.kernel(dispatch.CIA):
        return
    if e.kernel(*dispatch.BACKEND_KEYS):
        raise AssertionError(
            f"{e.full_name}: at least one output of this operator has requires_grad=True but "
            "the operator does not have an autograd kernel defined at an autograd key (e.g. "
            "DispatchKey::Autograd). This could mean that you have incorrectly registered an "
            "autograd kernel to a non-Autograd DispatchKey, which may lead to silently "
            "incorrect results. If your operator consists of regular PyTorch operations, "
            "consider not using an operator at all or registering your operator as "
            "CompositeImplicitAutograd. If you have an autograd.Function registered to a "
            "backend (CPU/CUDA/XPU) key, the correct location for it is the Autograd key."
        )


def _test_fake(e: dispatch.OpEntry, op: Any, args: tuple, kwargs: dict, compare: bool) -> None:
    import shadowgrad

    opdef = e.custom
    fake = opdef._abstract_fn if opdef is not None else e.fake
    if fake is None:
        if not e.schema.returns or (opdef is not None and (opdef._is_inplace or opdef._is_out)):
            return  # torch generates the fake kernel
        if opdef is not None:
            raise RuntimeError(
                f"There was no fake impl registered for {opdef}. This is necessary for "
                "torch.compile/export/fx tracing to work. Please use "
                f"`{opdef._init_fn.__name__}.register_fake` to add an fake impl."
            )
        raise UnsupportedOperatorException(f"{e.ns}.{e.name}.{e.overload or 'default'}")
    with shadowgrad.no_grad():
        real = _flat(op(*[a.detach() if isinstance(a, Tensor) else a for a in args], **kwargs))
        pos, kw = dispatch.bind(e, args, kwargs)
        ctx = FakeImplCtx()
        CURRENT.append(ctx)
        try:
            faked = _flat(fake(*pos, **kw))
        finally:
            CURRENT.pop()
    if not compare:
        return
    name = f"{e.ns}.{e.name}.{e.overload or 'default'}"
    head = (
        f"When comparing the output of {name} on FakeTensor and concrete Tensors, found "
        "mismatched tensor metadata: "
    )
    for r, f in zip(real, faked, strict=False):
        if not (isinstance(r, Tensor) and isinstance(f, Tensor)):
            continue
        same = r.dim() == f.dim() if ctx.dynamic else r.shape == f.shape
        if not same:
            raise MetadataMismatchError(f"{head}Shapes {r.shape} and {f.shape} are not equal!")
        if r.dtype != f.dtype:
            raise MetadataMismatchError(f"{head}Dtypes {r.dtype} and {f.dtype} are not equal!")


def run_opcheck(
    op: Any,
    args: tuple,
    kwargs: dict,
    test_utils: Any,
    raise_exception: bool,
    rtol: Any,
    atol: Any,
) -> dict[str, Any]:
    if (rtol is None) != (atol is None):
        raise ValueError("opcheck(op, ...): if you specify one of rtol/atol, you must specify both")
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    if not set(test_utils).issubset(ALL_TEST_UTILS):
        raise ValueError(
            f"opcheck(op, ..., test_utils={test_utils}), expected test_utils to be subset of "
            f"{ALL_TEST_UTILS} but it was not"
        )
    e, callable_op = _entry(op)
    tests = {
        "test_schema": lambda: _test_schema(e, callable_op, args, kwargs),
        "test_autograd_registration": lambda: _test_autograd(e, callable_op, args, kwargs),
        "test_faketensor": lambda: _test_fake(e, callable_op, args, kwargs, True),
        "test_aot_dispatch_static": lambda: _test_fake(e, callable_op, args, kwargs, False),
        "test_aot_dispatch_dynamic": lambda: _test_fake(e, callable_op, args, kwargs, False),
    }
    results: dict[str, Any] = {}
    for name in test_utils:
        try:
            tests[name]()
        except Exception as ex:
            if raise_exception:
                raise OpCheckError(
                    f"opcheck(op, ...): {name} failed with {ex} (scroll up for stack trace)"
                ) from ex
            results[name] = ex
            continue
        results[name] = "SUCCESS"
    return results
