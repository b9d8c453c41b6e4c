"""The nn.Module API, from torch's own tests (test/nn/test_module_hooks.py,
test/nn/test_load_state_dict.py, test/test_stateless.py, test/nn/test_parametrization.py,
test/nn/test_pruning.py and the Module parts of test/test_nn.py): registration of parameters,
buffers and submodules and their errors, `__setattr__`/`__delattr__` rules, the named_*
iterators with prefixes and duplicates, modes and conversions, state_dict and load_state_dict
(strict, assign, their error messages and hooks), forward, backward and global hooks, the
containers, functional_call, parametrizations and pruning. The programs register into
test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch and
on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import warnings
from collections import OrderedDict
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _lin(T: Any, i: int = 3, o: int = 2, seed: int = 0, **kw: Any) -> Any:
    return _seeded(T, T.nn.Linear(i, o, **kw), seed)


def _net(T: Any) -> Any:
    """A small nested module: a Linear, a Sequential holding a Linear and a BatchNorm1d, and a
    non-persistent buffer."""

    class Net(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = _lin(T, 3, 4, 0)
            self.seq = T.nn.Sequential(_lin(T, 4, 2, 1), T.nn.BatchNorm1d(2))
            self.register_buffer("steps", T.zeros(()), persistent=False)

        def forward(self, x: Any) -> Any:
            return self.seq(self.fc(x).relu())

    return Net()


def _prune(T: Any) -> Any:
    return importlib.import_module(T.__name__ + ".nn.utils.prune")


def _names(it: Any) -> list[str]:
    return [n for n, _ in it]


def _caught(fn: Any) -> Any:
    """fn()'s result (or error) and the messages of the warnings it issued."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = raises(fn)
    return out, [(i.category.__name__, str(i.message)) for i in w]


# --- registration: register_buffer / register_parameter / add_module ---------------------------


@program()
def prog_mapi_register_buffer_errors(T: Any) -> Any:
    m = T.nn.Module()
    m.attr = 1
    return [
        raises(lambda: m.register_buffer(1, T.ones(1))),
        raises(lambda: m.register_buffer("a.b", T.ones(1))),
        raises(lambda: m.register_buffer("", T.ones(1))),
        raises(lambda: m.register_buffer("attr", T.ones(1))),
        raises(lambda: m.register_buffer("b", 3)),
        raises(lambda: m.register_buffer("b", [1.0])),
        raises(lambda: m.register_buffer("training", T.ones(1))),
        raises(lambda: m.register_buffer("forward", T.ones(1))),
    ]


@program()
def prog_mapi_register_parameter_errors(T: Any) -> Any:
    m = T.nn.Module()
    m.attr = 1
    w = T.nn.Parameter(T.ones(2))
    return [
        raises(lambda: m.register_parameter(1, w)),
        raises(lambda: m.register_parameter("a.b", w)),
        raises(lambda: m.register_parameter("", w)),
        raises(lambda: m.register_parameter("attr", w)),
        raises(lambda: m.register_parameter("p", T.ones(2))),
        raises(lambda: m.register_parameter("p", T.nn.Parameter(T.ones(2)) * 2)),
        raises(lambda: m.register_parameter("p", 1.0)),
        raises(lambda: m.register_parameter("training", w)),
    ]


@program()
def prog_mapi_register_before_init(T: Any) -> Any:
    class Early(T.nn.Module):
        def __init__(self, what: str) -> None:
            if what == "buffer":
                self.register_buffer("b", T.ones(1))
            elif what == "parameter":
                self.register_parameter("p", T.nn.Parameter(T.ones(1)))
            elif what == "assign_param":
                self.p = T.nn.Parameter(T.ones(1))
            elif what == "assign_module":
                self.m = T.nn.ReLU()
            elif what == "assign_buffer":
                self.b = T.nn.Buffer(T.ones(1))
            super().__init__()

    return [
        raises(lambda w=w: Early(w))
        for w in ("buffer", "parameter", "assign_param", "assign_module", "assign_buffer")
    ]


@program()
def prog_mapi_add_module_errors(T: Any) -> Any:
    m = T.nn.Module()
    m.attr = 1
    return [
        raises(lambda: m.add_module("x", 3)),
        raises(lambda: m.add_module("x", T.ones(1))),
        raises(lambda: m.add_module(1, T.nn.ReLU())),
        raises(lambda: m.add_module("a.b", T.nn.ReLU())),
        raises(lambda: m.add_module("", T.nn.ReLU())),
        raises(lambda: m.add_module("attr", T.nn.ReLU())),
        raises(lambda: m.register_module("a.b", T.nn.ReLU())),
        raises(lambda: m.add_module("none", None)),
        list(m._modules),
    ]


@program()
def prog_mapi_register_replaces_same_kind(T: Any) -> Any:
    m = T.nn.Module()
    m.register_buffer("b", T.ones(1))
    m.register_buffer("b", T.zeros(2))
    m.register_parameter("p", T.nn.Parameter(T.ones(1)))
    m.register_parameter("p", None)
    m.add_module("c", T.nn.ReLU())
    m.add_module("c", T.nn.Tanh())
    return (
        m.b,
        m.p,
        repr(m.c),
        list(m.state_dict()),
        _names(m.named_parameters()),
        raises(lambda: m.register_buffer("p", T.ones(1))),
        raises(lambda: m.register_parameter("b", T.nn.Parameter(T.ones(1)))),
        raises(lambda: m.add_module("b", T.nn.ReLU())),
    )


@program()
def prog_mapi_register_buffer_persistent_switch(T: Any) -> Any:
    m = T.nn.Module()
    m.register_buffer("a", T.ones(1), persistent=False)
    k1 = list(m.state_dict())
    m.register_buffer("a", T.ones(1), persistent=True)
    k2 = list(m.state_dict())
    m.register_buffer("a", T.ones(1), persistent=False)
    m.a = T.zeros(1)  # plain assignment keeps it non-persistent
    k3 = list(m.state_dict())
    m.a = T.nn.Buffer(T.ones(3))  # a Buffer brings its own flag (persistent)
    k4 = list(m.state_dict())
    m.c = T.nn.Buffer(T.ones(1), persistent=False)
    # register_buffer goes by its own argument, not by a Buffer's flag
    m.register_buffer("d", T.nn.Buffer(T.ones(1), persistent=False))
    m.register_buffer("e", T.nn.Buffer(T.ones(1)), persistent=False)
    return (
        k1,
        k2,
        k3,
        k4,
        list(m.state_dict()),
        _names(m.named_buffers()),
        type(m.a).__name__,
        sorted(m._non_persistent_buffers_set),
        type(m.d).__name__,
    )


# --- __setattr__ / __delattr__ / __getattr__ ---------------------------------------------------


@program()
def prog_mapi_setattr_type_errors(T: Any) -> Any:
    m = _lin(T)
    m.register_buffer("b", T.ones(2))
    outer = T.nn.Sequential(m)
    return [
        raises(lambda: setattr(m, "weight", T.ones(2, 3))),
        raises(lambda: setattr(m, "weight", 1.0)),
        raises(lambda: setattr(m, "b", 1.0)),
        raises(lambda: setattr(m, "b", [1.0])),
        raises(lambda: setattr(outer, "0", T.ones(1))),
        raises(lambda: setattr(outer, "0", "relu")),
    ]


@program()
def prog_mapi_setattr_moves_between_kinds(T: Any) -> Any:
    m = T.nn.Module()
    m.x = T.nn.Parameter(T.ones(1))
    s1 = (_names(m.named_parameters()), _names(m.named_buffers()), list(m._modules))
    m.x = None  # a parameter set to None stays a parameter slot
    s2 = (list(m._parameters.items()), list(m.state_dict()))
    m.y = T.nn.ReLU()
    m.y = T.nn.Parameter(T.zeros(2))  # a Parameter replaces the module
    s3 = (list(m._modules), _names(m.named_parameters()))
    m.z = T.ones(1)  # a plain tensor attribute: no kind
    m.z = T.nn.Parameter(T.ones(2))
    s3b = raises(lambda: setattr(m, "y", T.ones(1)))
    m.w = 5
    m.w = T.nn.ReLU()
    s4 = (_names(m.named_parameters()), list(m._modules), "w" in m.__dict__, "z" in m.__dict__)
    m.v = T.nn.Buffer(T.ones(1))
    return s1, s2, s3, s3b, s4, _names(m.named_buffers()), _names(m.named_parameters())


@program()
def prog_mapi_delattr_and_getattr_errors(T: Any) -> Any:
    m = _lin(T)
    m.register_buffer("b", T.ones(1))
    m.sub = T.nn.ReLU()
    del m.weight
    del m.b
    del m.sub
    return (
        raises(lambda: m.weight),
        raises(lambda: m.b),
        raises(lambda: m.sub),
        raises(lambda: m.nothing),
        raises(lambda: delattr(m, "nothing")),
        _names(m.named_parameters()),
        list(m.state_dict()),
        raises(lambda: m(T.ones(1, 3))),
    )


@program()
def prog_mapi_dir_lists_members(T: Any) -> Any:
    m = _net(T)
    d = dir(m)
    seq = dir(m.seq)
    return (
        [k for k in ("fc", "seq", "steps", "forward", "training", "_parameters") if k in d],
        [k for k in ("0", "1") if k in seq],
        "weight" in dir(m.fc),
        "bias" in dir(m.fc),
    )


@program()
def prog_mapi_property_raising_attribute_error(T: Any) -> Any:
    class M(T.nn.Module):
        @property
        def broken(self) -> Any:
            return self.missing_thing

    m = M()
    return raises(lambda: m.broken), raises(lambda: m.other)


# --- named_* iterators -------------------------------------------------------------------------


@program()
def prog_mapi_named_parameters_prefix_recurse(T: Any) -> Any:
    m = _net(T)
    return (
        _names(m.named_parameters()),
        _names(m.named_parameters(prefix="model")),
        _names(m.named_parameters(recurse=False)),
        _names(m.seq.named_parameters(prefix="a.b")),
        _names(m.named_buffers()),
        _names(m.named_buffers(prefix="p", recurse=False)),
        _names(m.named_modules()),
        _names(m.named_modules(prefix="root")),
        _names(m.named_children()),
        len(list(m.parameters(recurse=False))),
        len(list(m.buffers())),
    )


@program()
def prog_mapi_named_members_duplicates(T: Any) -> Any:
    shared = _lin(T, 2, 2)
    m = T.nn.Sequential(shared, T.nn.ReLU(), shared)
    m.tied = T.nn.Linear(2, 2)
    m.tied.weight = shared.weight
    m.register_buffer("b1", T.ones(1))
    m.b2 = m.b1
    return (
        _names(m.named_parameters()),
        _names(m.named_parameters(remove_duplicate=False)),
        _names(m.named_modules()),
        _names(m.named_modules(remove_duplicate=False)),
        _names(m.named_buffers()),
        _names(m.named_buffers(remove_duplicate=False)),
        _names(m.named_children()),
        len(list(m.parameters())),
        len(list(m.modules())),
        list(m.state_dict()),
    )


@program()
def prog_mapi_named_modules_memo_and_none(T: Any) -> Any:
    m = T.nn.Sequential(T.nn.Linear(1, 1), T.nn.ReLU())
    m.add_module("gone", None)
    m.register_parameter("nop", None)
    m.register_buffer("nob", None)
    memo = {m[0]}
    return (
        _names(m.named_modules(memo=memo)),
        _names(m.named_modules()),
        _names(m.named_children()),
        _names(m.named_parameters()),
        _names(m.named_buffers()),
        list(m.state_dict()),
        repr(m),
    )


# --- modes, conversions, zero_grad, apply ------------------------------------------------------


@program()
def prog_mapi_train_eval_flags(T: Any) -> Any:
    m = _net(T)
    r = m.eval()
    flags1 = [mod.training for mod in m.modules()]
    m.seq.train()
    flags2 = [mod.training for mod in m.modules()]
    return (
        r is m,
        flags1,
        flags2,
        raises(lambda: m.train("yes")),
        raises(lambda: m.train(1)),
        raises(lambda: m.train(None)),
        m.train(False) is m,
        m.training,
    )


@program()
def prog_mapi_requires_grad_and_zero_grad(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 2, 3)
    m(x).sum().backward()
    g = m.weight.grad
    m.zero_grad(set_to_none=False)
    after = (m.weight.grad, m.weight.grad is g, m.bias.grad)
    m(x).sum().backward()
    m.zero_grad()
    after2 = (m.weight.grad, m.bias.grad)
    r = m.requires_grad_(False)
    rg = [p.requires_grad for p in m.parameters()]
    out = m(x)
    m.requires_grad_()
    return r is m, after, after2, rg, out.requires_grad, [p.requires_grad for p in m.parameters()]


@program()
def prog_mapi_zero_grad_grad_with_graph(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 2, 3)
    m(x).pow(2).sum().backward(create_graph=True)
    had = (m.weight.grad.requires_grad, m.weight.grad.grad_fn)
    m.zero_grad(set_to_none=False)
    return had, m.weight.grad, m.weight.grad.requires_grad, m.weight.grad.grad_fn


@program()
def prog_mapi_apply_order_and_return(T: Any) -> Any:
    m = _net(T)
    seen: list[str] = []
    r = m.apply(lambda mod: seen.append(type(mod).__name__))

    def init(mod: Any) -> None:
        if isinstance(mod, T.nn.Linear):
            T.nn.init.constant_(mod.weight, 0.5)
            T.nn.init.zeros_(mod.bias)

    m.apply(init)
    return r is m, seen, m.fc.weight, m.seq[0].bias


@program()
def prog_mapi_double_half_keep_int_buffers(T: Any) -> Any:
    m = T.nn.BatchNorm1d(2)
    m.register_buffer("mask", T.tensor([True, False]))
    w = m.weight
    m.double()
    a = {n: t.dtype for n, t in m.state_dict().items()}
    m.half()
    b = {n: t.dtype for n, t in m.state_dict().items()}
    m.float()
    return a, b, m.weight is w, m.weight.dtype, m.num_batches_tracked.dtype, m.mask.dtype


@program()
def prog_mapi_to_dtype_errors_and_grads(T: Any) -> Any:
    m = _lin(T)
    m(_x(T, 1, 3)).sum().backward()
    w = m.weight
    m.to(T.float64)
    conv = (m.weight is w, m.weight.dtype, m.weight.grad.dtype, m.weight.requires_grad)
    return (
        conv,
        raises(lambda: m.to(T.int32)),
        raises(lambda: m.to(T.bool)),
        raises(lambda: m.to("cpu", T.long)),
        raises(lambda: m.to(dtype=T.float32, copy=True)),
        raises(lambda: type(m.to(1.5)).__name__),
        m.to("cpu") is m,
        m.to(T.ones(1, dtype=T.float32)).weight.dtype,
    )


@program()
def prog_mapi_to_complex_warns(T: Any) -> Any:
    m = _lin(T)
    r, w = _caught(lambda: m.to(T.complex64))
    return w, m.weight.dtype, m.bias.dtype, r is m


@program()
def prog_mapi_type_and_float_conversions(T: Any) -> Any:
    m = _lin(T)
    m.register_buffer("idx", T.tensor([1, 2]))
    m.type(T.float64)
    a = (m.weight.dtype, m.idx.dtype)
    m.float()
    b = (m.weight.dtype, m.idx.dtype)
    m.bfloat16()
    c = (m.weight.dtype, m.idx.dtype)
    return a, b, c


# --- get_submodule / get_parameter / get_buffer / set_submodule --------------------------------


@program()
def prog_mapi_get_submodule_parameter_buffer(T: Any) -> Any:
    m = _net(T)
    m.plain = 3
    return [
        type(m.get_submodule("seq.0")).__name__,
        m.get_submodule("") is m,
        m.get_parameter("seq.0.weight").shape,
        m.get_buffer("seq.1.running_mean"),
        m.get_buffer("steps"),
        raises(lambda: m.get_submodule("seq.5")),
        raises(lambda: m.get_submodule("fc.weight")),
        raises(lambda: m.get_submodule("nope.x")),
        raises(lambda: m.get_submodule("plain")),
        raises(lambda: m.get_parameter("seq.1.running_mean")),
        raises(lambda: m.get_parameter("fc.nothing")),
        raises(lambda: m.get_parameter("fc")),
        raises(lambda: m.get_buffer("fc.weight")),
        raises(lambda: m.get_buffer("seq.1.nothing")),
        raises(lambda: m.get_parameter("missing.weight")),
    ]


@program()
def prog_mapi_set_submodule(T: Any) -> Any:
    m = _net(T)
    m.set_submodule("seq.1", T.nn.Identity())
    m.set_submodule("extra", T.nn.ReLU())
    m.set_submodule("seq.2", T.nn.Tanh())
    return [
        repr(m),
        raises(lambda: m.set_submodule("", T.nn.ReLU())),
        raises(lambda: m.set_submodule("seq.0", 3)),
        raises(lambda: m.set_submodule("fc.weight", T.nn.ReLU())),
        raises(lambda: m.set_submodule("nope.x", T.nn.ReLU())),
        raises(lambda: m.set_submodule("seq.9", T.nn.ReLU(), strict=True)),
        raises(lambda: m.set_submodule("fc.new", T.nn.ReLU(), strict=True)),
    ]


# --- repr ---------------------------------------------------------------------------------------


@program()
def prog_mapi_repr_nesting_and_extra_repr(T: Any) -> Any:
    class Multi(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Sequential(T.nn.ReLU()))

        def extra_repr(self) -> str:
            return "first=1\nsecond=2"

    class One(T.nn.Module):
        def extra_repr(self) -> str:
            return "only=1"

    class Empty(T.nn.Module):
        pass

    class Blank(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = Multi()

        def extra_repr(self) -> str:
            return "line\n\nafter blank"

    return repr(Multi()), repr(One()), repr(Empty()), repr(Blank()), str(T.nn.ModuleDict())


@program()
def prog_mapi_repr_module_list_runs(T: Any) -> Any:
    a = T.nn.ModuleList([T.nn.Linear(2, 2) for _ in range(3)] + [T.nn.ReLU(), T.nn.ReLU()])
    a.append(T.nn.Linear(2, 2))
    b = T.nn.ModuleList()
    c = T.nn.ModuleList([T.nn.Sequential(T.nn.Linear(1, 1), T.nn.ReLU())] * 2)
    d = T.nn.Sequential(T.nn.ModuleList([T.nn.ReLU(), T.nn.ReLU()]))
    return repr(a), repr(b), repr(c), repr(d)


@program()
def prog_mapi_repr_parameter_containers(T: Any) -> Any:
    pl = T.nn.ParameterList([T.nn.Parameter(T.ones(2, 3)), T.zeros(4, dtype=T.float64)])
    pl.append("text")
    pd = T.nn.ParameterDict({"b": T.nn.Parameter(T.ones(1)), "a": T.zeros(2, 2)})
    pd["s"] = 3
    outer = T.nn.Module()
    outer.pl = pl
    outer.pd = pd
    return repr(pl), repr(pd), repr(outer), repr(T.nn.ParameterList())


# --- state_dict ---------------------------------------------------------------------------------


@program()
def prog_mapi_state_dict_keys_prefix_keep_vars(T: Any) -> Any:
    m = _net(T)
    sd = m.state_dict()
    kv = m.state_dict(keep_vars=True)
    pre = m.state_dict(prefix="model.")
    return (
        list(sd),
        type(sd).__name__,
        [(k, v.requires_grad, v.grad_fn) for k, v in sd.items()],
        [(k, v.requires_grad, type(v).__name__) for k, v in kv.items()],
        kv["fc.weight"] is m.fc.weight,
        sd["fc.weight"] is m.fc.weight,
        list(pre),
        list(sd._metadata.items()),
        list(pre._metadata),
    )


@program()
def prog_mapi_state_dict_positional_args_warn(T: Any) -> Any:
    m = _lin(T)
    dest: Any = OrderedDict()
    r, w = _caught(lambda: m.state_dict(dest, "p."))
    r2, w2 = _caught(lambda: m.state_dict(None, "", True))
    return list(r), r is dest, w, [(k, type(v).__name__) for k, v in r2.items()], w2


@program()
def prog_mapi_state_dict_shares_storage(T: Any) -> Any:
    m = _lin(T)
    sd = m.state_dict()
    with T.no_grad():
        m.weight.add_(1.0)
    sd["bias"].zero_()
    return sd["weight"], m.bias, sd["weight"]._version, m.weight._version


@program()
def prog_mapi_state_dict_destination_plain_dict(T: Any) -> Any:
    m = _net(T)
    d: dict[str, Any] = {}
    r = m.state_dict(destination=d, prefix="x.")
    return r is d, list(d), hasattr(d, "_metadata")


# --- load_state_dict ----------------------------------------------------------------------------


@program()
def prog_mapi_load_state_dict_strict_error_message(T: Any) -> Any:
    m = _net(T)
    sd = m.state_dict()
    sd["fc.extra"] = T.ones(1)
    sd["nonexistent.weight"] = T.ones(1)
    del sd["seq.0.bias"]
    del sd["seq.1.running_var"]
    sd["fc.weight"] = T.ones(5, 3)
    r1 = raises(lambda: m.load_state_dict(sd))
    r2 = raises(lambda: m.load_state_dict(sd, strict=False))
    return r1, r2, m.fc.weight


@program()
def prog_mapi_load_state_dict_non_strict_result(T: Any) -> Any:
    m = _net(T)
    sd = m.state_dict()
    sd["unexpected"] = T.ones(1)
    sd["seq.9.w"] = T.ones(1)
    del sd["fc.bias"]
    res = m.load_state_dict(sd, strict=False)
    ok = m.load_state_dict(m.state_dict())
    return (
        res.missing_keys,
        res.unexpected_keys,
        repr(res),
        str(ok),
        repr(ok),
        type(res).__name__,
        tuple(res) == (res.missing_keys, res.unexpected_keys),
        ok.missing_keys,
    )


@program()
def prog_mapi_load_state_dict_bad_values(T: Any) -> Any:
    m = _lin(T)
    return [
        raises(lambda: m.load_state_dict([("weight", T.ones(2, 3))])),
        raises(lambda: m.load_state_dict(None)),
        raises(lambda: m.load_state_dict({"weight": [[1.0] * 3] * 2, "bias": T.ones(2)})),
        raises(lambda: m.load_state_dict({"weight": 3.0, "bias": T.ones(2)})),
        raises(lambda: m.load_state_dict({"weight": T.ones(3, 2), "bias": T.ones(1)})),
    ]


@program()
def prog_mapi_load_state_dict_scalar_from_one_element(T: Any) -> Any:
    m = T.nn.Module()
    m.s = T.nn.Parameter(T.tensor(2.0))
    m.register_buffer("b", T.tensor(1.0))
    m.load_state_dict({"s": T.tensor([5.0]), "b": T.tensor([7.0])})
    r = raises(lambda: m.load_state_dict({"s": T.tensor([5.0, 6.0]), "b": T.tensor(1.0)}))
    r2 = raises(lambda: m.load_state_dict({"s": T.ones(1, 1), "b": T.tensor(1.0)}))
    return m.s, m.b, r, r2


@program()
def prog_mapi_load_state_dict_dtype_cast_and_version(T: Any) -> Any:
    m = _lin(T)
    v = m.weight._version
    m.load_state_dict({"weight": T.ones(2, 3, dtype=T.float64), "bias": T.tensor([1, 2])})
    return m.weight, m.bias, m.weight._version - v, m.weight.requires_grad, m.weight.is_leaf


@program()
def prog_mapi_load_state_dict_assign(T: Any) -> Any:
    m = _lin(T)
    m.register_buffer("buf", T.zeros(2))
    m.bias.requires_grad_(False)
    w0 = m.weight
    new_w = T.ones(2, 3, dtype=T.float64)
    new_b = T.nn.Parameter(T.full((2,), 3.0))
    sd = {"weight": new_w, "bias": new_b, "buf": T.arange(2.0)}
    res = m.load_state_dict(sd, assign=True)
    return (
        str(res),
        m.weight is w0,
        type(m.weight).__name__,
        m.weight.dtype,
        m.weight.requires_grad,
        m.bias is new_b,
        m.bias.requires_grad,
        m.buf is sd["buf"],
        m.weight,
        raises(lambda: m.load_state_dict({"weight": T.ones(3, 3)}, strict=False, assign=True)),
    )


@program()
def prog_mapi_load_state_dict_non_persistent_unexpected(T: Any) -> Any:
    m = _net(T)
    sd = m.state_dict()
    sd["steps"] = T.ones(())
    r = raises(lambda: m.load_state_dict(sd))
    res = m.load_state_dict(sd, strict=False)
    return r, res.unexpected_keys, m.steps


@program()
def prog_mapi_load_state_dict_keeps_metadata_version(T: Any) -> Any:
    seen: list[Any] = []

    class V(T.nn.Module):
        _version = 3

        def __init__(self) -> None:
            super().__init__()
            self.w = T.nn.Parameter(T.ones(1))

        def _load_from_state_dict(self, sd: Any, prefix: str, meta: Any, *args: Any) -> None:
            seen.append((prefix, dict(meta)))
            super()._load_from_state_dict(sd, prefix, meta, *args)

    m = T.nn.Sequential(V(), V())
    sd = m.state_dict()
    meta = list(sd._metadata.items())
    m.load_state_dict(sd)
    plain = dict(sd)
    m.load_state_dict(plain)
    return meta, seen


@program()
def prog_mapi_extra_state_round_trip(T: Any) -> Any:
    class E(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = T.nn.Parameter(T.ones(1))
            self.extra = {"step": 1}

        def get_extra_state(self) -> Any:
            return self.extra

        def set_extra_state(self, state: Any) -> None:
            self.extra = dict(state, loaded=True)

    m = T.nn.Sequential(E())
    sd = m.state_dict()
    keys = list(sd)
    sd["0._extra_state"] = {"step": 9}
    m.load_state_dict(sd)
    missing = raises(lambda: m.load_state_dict({"0.w": T.ones(1)}))
    plain = T.nn.Sequential(T.nn.Linear(1, 1))
    psd = plain.state_dict()
    psd["0._extra_state"] = 1
    unexpected = raises(lambda: plain.load_state_dict(psd))
    return keys, m[0].extra, missing, unexpected


# --- state_dict hooks ---------------------------------------------------------------------------


@program()
def prog_mapi_state_dict_pre_and_post_hooks(T: Any) -> Any:
    calls: list[Any] = []
    m = _net(T)

    def pre(mod: Any, prefix: str, keep_vars: bool) -> None:
        calls.append(("pre", type(mod).__name__, prefix, keep_vars))

    def post(mod: Any, sd: Any, prefix: str, meta: Any) -> None:
        calls.append(("post", type(mod).__name__, prefix, sorted(sd)[:2], dict(meta)))
        sd[prefix + "added"] = T.zeros(1)

    h1 = m.seq.register_state_dict_pre_hook(pre)
    h2 = m.seq.register_state_dict_post_hook(post)
    keys = list(m.state_dict(keep_vars=True))
    h1.remove()
    h2.remove()
    keys2 = list(m.state_dict())
    return calls, keys, keys2


@program()
def prog_mapi_state_dict_post_hook_return_value(T: Any) -> Any:
    m = _lin(T)

    def bad(mod: Any, sd: Any, prefix: str, meta: Any) -> Any:
        return {"x": T.ones(1)}

    m.register_state_dict_post_hook(bad)
    r = raises(lambda: m.state_dict())
    m2 = _lin(T)

    def private(mod: Any, sd: Any, prefix: str, meta: Any) -> Any:
        return OrderedDict(replaced=T.ones(1))

    m2._register_state_dict_hook(private)
    return r, list(m2.state_dict()), raises(lambda: m2._register_state_dict_hook(bad))


@program()
def prog_mapi_load_state_dict_pre_hook_rewrites_keys(T: Any) -> Any:
    m = _net(T)
    calls: list[Any] = []

    def pre(
        mod: Any,
        sd: Any,
        prefix: str,
        meta: Any,
        strict: bool,
        missing: Any,
        unexpected: Any,
        errors: Any,
    ) -> None:
        calls.append((type(mod).__name__, prefix, strict, sorted(sd)))
        for k in list(sd):
            if k.startswith(prefix + "old_"):
                sd[prefix + k[len(prefix) + 4 :]] = sd.pop(k)

    m.fc.register_load_state_dict_pre_hook(pre)
    sd = m.state_dict()
    sd["fc.old_weight"] = sd.pop("fc.weight") * 0 + 2
    res = m.load_state_dict(sd)
    return calls, str(res), m.fc.weight


@program()
def prog_mapi_load_state_dict_post_hook_clears_keys(T: Any) -> Any:
    m = _net(T)
    seen: list[Any] = []

    def post(mod: Any, incompatible: Any) -> None:
        seen.append(
            (
                type(mod).__name__,
                list(incompatible.missing_keys),
                list(incompatible.unexpected_keys),
            )
        )
        incompatible.missing_keys.clear()
        incompatible.unexpected_keys.clear()

    m.register_load_state_dict_post_hook(post)
    sd = m.state_dict()
    del sd["fc.bias"]
    sd["junk"] = T.ones(1)
    res = m.load_state_dict(sd)

    def returns(mod: Any, incompatible: Any) -> Any:
        return incompatible

    m2 = _lin(T)
    m2.register_load_state_dict_post_hook(returns)
    return seen, str(res), raises(lambda: m2.load_state_dict(m2.state_dict()))


@program()
def prog_mapi_load_state_dict_pre_hook_error_msgs(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T))

    def pre(
        mod: Any,
        sd: Any,
        prefix: str,
        meta: Any,
        strict: bool,
        missing: Any,
        unexpected: Any,
        errors: Any,
    ) -> None:
        errors.append("custom problem in " + prefix)

    m[0].register_load_state_dict_pre_hook(pre)
    return raises(lambda: m.load_state_dict(m.state_dict())), raises(
        lambda: m.load_state_dict(m.state_dict(), strict=False)
    )


# --- forward pre-hooks and forward hooks --------------------------------------------------------


@program()
def prog_mapi_forward_pre_hook_return_forms(T: Any) -> Any:
    m = T.nn.Identity()
    seen: list[Any] = []

    def single(mod: Any, args: Any) -> Any:
        seen.append(("single", len(args)))
        return args[0] * 2  # not a tuple: wrapped into one

    def tup(mod: Any, args: Any) -> Any:
        seen.append(("tuple", len(args)))
        return (args[0] + 1,)

    h1 = m.register_forward_pre_hook(single)
    h2 = m.register_forward_pre_hook(tup)
    out = m(T.ones(2))
    h1.remove()
    h2.remove()
    h1.remove()
    return out, seen, m(T.ones(2)), len(m._forward_pre_hooks)


@program()
def prog_mapi_forward_hooks_with_kwargs(T: Any) -> Any:
    class K(T.nn.Module):
        def forward(self, x: Any, scale: float = 1.0) -> Any:
            return x * scale

    m = K()
    seen: list[Any] = []

    def pre(mod: Any, args: Any, kwargs: Any) -> Any:
        seen.append(("pre", len(args), sorted(kwargs)))
        return args, {"scale": kwargs.get("scale", 1.0) * 10}

    def hook(mod: Any, args: Any, kwargs: Any, out: Any) -> Any:
        seen.append(("hook", sorted(kwargs)))
        return out + kwargs["scale"]

    m.register_forward_pre_hook(pre, with_kwargs=True)
    m.register_forward_hook(hook, with_kwargs=True)
    out = m(T.ones(2), scale=2.0)

    def bad(mod: Any, args: Any, kwargs: Any) -> Any:
        return args

    m2 = K()
    m2.register_forward_pre_hook(bad, with_kwargs=True)
    return out, seen, raises(lambda: m2(T.ones(1)))


@program()
def prog_mapi_forward_hooks_prepend_order(T: Any) -> Any:
    m = T.nn.Identity()
    order: list[str] = []

    def mk(tag: str, kind: str) -> Any:
        if kind == "pre":
            return lambda mod, args: order.append(tag)
        return lambda mod, args, out: order.append(tag)

    m.register_forward_pre_hook(mk("pre1", "pre"))
    m.register_forward_pre_hook(mk("pre0", "pre"), prepend=True)
    m.register_forward_pre_hook(mk("pre2", "pre"))
    m.register_forward_hook(mk("f1", "f"))
    h = m.register_forward_hook(mk("f0", "f"), prepend=True)
    m.register_forward_hook(mk("f2", "f"))
    m(T.ones(1))
    h.remove()
    m(T.ones(1))
    return order


@program()
def prog_mapi_forward_hook_always_call(T: Any) -> Any:
    class Boom(T.nn.Module):
        def forward(self, x: Any) -> Any:
            raise ValueError("forward failed")

    m = Boom()
    seen: list[Any] = []
    m.register_forward_hook(lambda mod, a, out: seen.append(("always", out)), always_call=True)
    m.register_forward_hook(lambda mod, a, out: seen.append(("normal", out)))

    def raising(mod: Any, a: Any, out: Any) -> None:
        raise KeyError("hook failed too")

    m.register_forward_hook(raising, always_call=True)
    r, w = _caught(lambda: m(T.ones(1)))
    return r, seen, w


@program()
def prog_mapi_forward_hook_replaces_output(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 2, 3, rg=True)
    h = m.register_forward_hook(lambda mod, a, out: out * 0 + a[0].sum())
    y = m(x)
    y.sum().backward()
    h.remove()
    return y, y.grad_fn, x.grad, m.weight.grad


@program()
def prog_mapi_hooks_not_run_by_forward_direct(T: Any) -> Any:
    m = T.nn.Identity()
    seen: list[str] = []
    m.register_forward_pre_hook(lambda mod, a: seen.append("pre"))
    m.register_forward_hook(lambda mod, a, o: seen.append("post"))
    m.forward(T.ones(1))
    m(T.ones(1))
    return seen


@program()
def prog_mapi_hook_handle_context_and_state(T: Any) -> Any:
    m = T.nn.Identity()
    seen: list[str] = []
    with m.register_forward_hook(lambda mod, a, o: seen.append("in")):
        m(T.ones(1))
    m(T.ones(1))
    h = m.register_forward_pre_hook(lambda mod, a: seen.append("pre"))
    n1 = len(m._forward_pre_hooks)
    h.remove()
    return seen, n1, len(m._forward_pre_hooks), len(m._forward_hooks)


# --- global module hooks ------------------------------------------------------------------------


@program()
def prog_mapi_global_forward_hooks(T: Any) -> Any:
    nn = T.nn
    seen: list[Any] = []
    m = nn.Sequential(nn.ReLU(), nn.Tanh())
    m.register_forward_pre_hook(lambda mod, a: seen.append(("local_pre", type(mod).__name__)))
    h1 = nn.modules.module.register_module_forward_pre_hook(
        lambda mod, a: seen.append(("pre", type(mod).__name__))
    )
    h2 = nn.modules.module.register_module_forward_hook(
        lambda mod, a, o: seen.append(("fwd", type(mod).__name__))
    )
    h3 = nn.modules.module.register_module_forward_hook(
        lambda mod, a, k, o: seen.append(("kw", type(mod).__name__, sorted(k))), with_kwargs=True
    )
    try:
        m(T.ones(1))
    finally:
        h1.remove()
        h2.remove()
        h3.remove()
    m(T.ones(1))
    return seen


@program()
def prog_mapi_global_forward_hook_replaces_output(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Identity(), nn.Identity())
    h = nn.modules.module.register_module_forward_hook(lambda mod, a, o: o + 1)
    try:
        out = m(T.zeros(1))
    finally:
        h.remove()
    return out


@program()
def prog_mapi_global_registration_hooks(T: Any) -> Any:
    nn = T.nn
    seen: list[Any] = []
    hs = [
        nn.modules.module.register_module_buffer_registration_hook(
            lambda mod, name, b: seen.append(("buf", name)) or (b * 2 if b is not None else b)
        ),
        nn.modules.module.register_module_parameter_registration_hook(
            lambda mod, name, p: seen.append(("param", name))
        ),
        nn.modules.module.register_module_module_registration_hook(
            lambda mod, name, sub: seen.append(("module", name, type(sub).__name__))
        ),
    ]
    try:
        m = nn.Module()
        m.register_buffer("b", T.ones(1))
        m.c = nn.Buffer(T.ones(2))
        m.p = nn.Parameter(T.ones(1))
        m.lin = nn.Linear(1, 1)
        m.add_module("r", nn.ReLU())
        m.register_buffer("n", None)
    finally:
        for h in hs:
            h.remove()
    return seen, m.b, m.c


# --- backward hooks -----------------------------------------------------------------------------


@program()
def prog_mapi_full_backward_hook_grads(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 2, 3, rg=True)
    seen: list[Any] = []

    def hook(mod: Any, gin: Any, gout: Any) -> None:
        seen.append((type(mod).__name__, [g for g in gin], [g for g in gout]))

    m.register_full_backward_hook(hook)
    y = m(x)
    y.sum().backward()
    return y.grad_fn, seen, x.grad, m.weight.grad


@program()
def prog_mapi_full_backward_hook_replaces_grad_input(T: Any) -> Any:
    m = T.nn.Tanh()
    x = _x(T, 4, rg=True)
    m.register_full_backward_hook(lambda mod, gin, gout: (gin[0] * 10,))
    m(x).sum().backward()
    g1 = x.grad
    m2 = T.nn.Tanh()
    m2.register_full_backward_hook(lambda mod, gin, gout: (gin[0], gin[0]))
    x2 = _x(T, 4, rg=True)
    return g1, raises(lambda: m2(x2).sum().backward())


@program()
def prog_mapi_full_backward_pre_hook_replaces_grad_output(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 2, 3, rg=True)
    order: list[str] = []

    def pre(mod: Any, gout: Any) -> Any:
        order.append("pre")
        return (gout[0] * 2,)

    def hook(mod: Any, gin: Any, gout: Any) -> None:
        order.append("hook")
        order.append(str(float(gout[0].sum())))

    m.register_full_backward_pre_hook(pre)
    m.register_full_backward_hook(hook)
    m(x).sum().backward()
    return order, x.grad, m.weight.grad


@program()
def prog_mapi_full_backward_hook_input_without_grad(T: Any) -> Any:
    m = _lin(T)
    seen: list[Any] = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append((gin, gout[0].shape)))
    x = _x(T, 2, 3)
    r, w = _caught(lambda: m(x).sum().backward())
    return r, seen, w, m.weight.grad


@program()
def prog_mapi_full_backward_hook_multiple_inputs_outputs(T: Any) -> Any:
    class Two(T.nn.Module):
        def forward(self, a: Any, b: Any) -> Any:
            return a * b, a + b

    m = Two()
    seen: list[Any] = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append((list(gin), list(gout))))
    a = _x(T, 3, rg=True)
    b = _x(T, 3, seed=1)
    p, q = m(a, b)
    (p.sum() * 2).backward()
    return p.grad_fn, q.grad_fn, seen, a.grad


@program()
def prog_mapi_full_backward_hook_inplace_on_output(T: Any) -> Any:
    m = T.nn.Identity()
    m.register_full_backward_hook(lambda mod, gin, gout: None)
    x = _x(T, 3, rg=True)
    y = m(x)
    r = raises(lambda: y.mul_(2))
    return y.grad_fn, r


@program()
def prog_mapi_backward_hook_mixing_errors(T: Any) -> Any:
    m = T.nn.ReLU()
    m.register_full_backward_hook(lambda *a: None)
    r1 = raises(lambda: m.register_backward_hook(lambda *a: None))
    m2 = T.nn.ReLU()
    m2.register_backward_hook(lambda *a: None)
    r2 = raises(lambda: m2.register_full_backward_hook(lambda *a: None))
    return r1, r2


@program()
def prog_mapi_legacy_backward_hook_warnings(T: Any) -> Any:
    class Dict(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return {"a": x * 2}

    class Multi(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return (x * 2).sin()

    seen: list[Any] = []
    out = []
    for mod in (Dict(), Multi(), T.nn.Tanh()):
        mod.register_backward_hook(lambda m, gi, go: seen.append((len(gi), len(go))))
        x = _x(T, 3, rg=True)
        out.append(_caught(lambda mod=mod, x=x: mod(x)))
    return [w for _, w in out], seen


@program()
def prog_mapi_backward_hook_module_output_not_tensor(T: Any) -> Any:
    class L(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return [x * 2]

    m = L()
    m.register_full_backward_hook(lambda *a: None)
    x = _x(T, 2, rg=True)
    r, w = _caught(lambda: m(x))
    return w, r[0].grad_fn


@program()
def prog_mapi_global_full_backward_hook(T: Any) -> Any:
    nn = T.nn
    seen: list[Any] = []
    m = nn.Sequential(_lin(T, 3, 2), nn.Tanh())
    h = nn.modules.module.register_module_full_backward_hook(
        lambda mod, gin, gout: seen.append((type(mod).__name__, len(gin), gout[0].shape))
    )
    h2 = nn.modules.module.register_module_full_backward_pre_hook(
        lambda mod, gout: seen.append(("pre", type(mod).__name__))
    )
    try:
        x = _x(T, 2, 3, rg=True)
        m(x).sum().backward()
    finally:
        h.remove()
        h2.remove()
    return seen, x.grad


@program()
def prog_mapi_full_backward_hook_double_backward(T: Any) -> Any:
    m = T.nn.Tanh()
    seen: list[int] = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(len(gin)))
    x = _x(T, 3, rg=True)
    y = m(x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    g.sum().backward()
    return g, g.grad_fn, x.grad, seen


# --- containers ---------------------------------------------------------------------------------


@program()
def prog_mapi_sequential_indexing(T: Any) -> Any:
    nn = T.nn
    s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity())
    return [
        type(s[-1]).__name__,
        type(s[0]).__name__,
        raises(lambda: s[4]),
        raises(lambda: s[-5]),
        raises(lambda: s[1.0]),
        raises(lambda: s["0"]),
        repr(s[1:3]),
        repr(s[::-1]),
        type(s[1:]).__name__,
        list(s[2:]._modules),
        len(s[10:]),
    ]


@program()
def prog_mapi_sequential_ordered_dict_and_keys(T: Any) -> Any:
    nn = T.nn
    s = nn.Sequential(OrderedDict([("conv", nn.ReLU()), ("act", nn.Tanh()), ("out", nn.ReLU())]))
    sl = s[1:]
    s[0] = nn.Sigmoid()
    del s[1]
    return list(s._modules), repr(s), list(sl._modules), raises(lambda: nn.Sequential(3))


@program()
def prog_mapi_sequential_mutation(T: Any) -> Any:
    nn = T.nn
    s = nn.Sequential(nn.ReLU(), nn.Tanh())
    s.append(nn.Sigmoid())
    s.insert(0, nn.Identity())
    s.insert(-1, nn.ELU())
    s.extend([nn.GELU(), nn.SiLU()])
    popped = s.pop(1)
    a = repr(s)
    del s[::2]
    return [
        a,
        type(popped).__name__,
        repr(s),
        raises(lambda: s.insert(10, nn.ReLU())),
        raises(lambda: s.insert(-10, nn.ReLU())),
        raises(lambda: s.insert(0, 3)),
        raises(lambda: s.append(3)),
        raises(lambda: s.pop(10)),
        type(s.append(nn.ReLU())).__name__,
    ]


@program()
def prog_mapi_sequential_operators(T: Any) -> Any:
    nn = T.nn
    a = nn.Sequential(nn.ReLU(), nn.Tanh())
    b = nn.Sequential(nn.Sigmoid())
    c = a + b
    d = a * 2
    e = 2 * b
    f = nn.Sequential(nn.ReLU())
    f += b
    g = nn.Sequential(nn.ReLU(), nn.Tanh())
    g *= 3
    h = nn.Sequential(nn.ReLU())
    h2 = h
    h *= 2
    return [
        h is h2,
        raises(lambda: g.__imul__(0)),
        raises(lambda: g.__imul__(2.0)),
        repr(c),
        repr(d),
        repr(e),
        repr(f),
        repr(g),
        d[0] is d[2],
        raises(lambda: a + [nn.ReLU()]),  # noqa: RUF005 - the error is the point
        raises(lambda: a * 0),
        raises(lambda: a * 1.5),
        raises(lambda: a.__iadd__(3)),
    ]


@program()
def prog_mapi_sequential_forward_and_empty(T: Any) -> Any:
    s = T.nn.Sequential()
    x = _x(T, 2, 3, rg=True)
    y = s(x)
    s2 = T.nn.Sequential(_lin(T), T.nn.ReLU())
    out = s2(x)
    return y is x, repr(s), len(s), out, out.grad_fn, raises(lambda: s2(x, x))


@program()
def prog_mapi_module_list_ops(T: Any) -> Any:
    nn = T.nn
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
    ml.append(nn.Sigmoid())
    ml.extend([nn.Identity()])
    ml += [nn.ELU()]
    ml.insert(1, nn.GELU())
    neg = raises(lambda: ml.insert(-1, nn.SiLU()))  # torch: KeyError, after shifting
    both = ml + nn.ModuleList([nn.ReLU()])
    popped = ml.pop(0)
    return [
        neg,
        [type(m).__name__ for m in ml],
        list(ml._modules),
        type(popped).__name__,
        type(both).__name__,
        len(both),
        [type(m).__name__ for m in ml[1:3]],
        type(ml[1:3]).__name__,
        type(ml[-1]).__name__,
        raises(lambda: ml[10]),
        raises(lambda: ml[-10]),
        raises(lambda: ml.extend(3)),
        raises(lambda: ml.append(3)),
        raises(lambda: ml.__setitem__(0, 3)),
        raises(lambda: ml(T.ones(1))),
    ]


@program()
def prog_mapi_module_list_delete_renumbers(T: Any) -> Any:
    nn = T.nn
    ml = nn.ModuleList([nn.Linear(1, i + 1) for i in range(5)])
    del ml[1]
    k1 = list(ml._modules)
    del ml[-1]
    del ml[::2]
    shapes = [m.out_features for m in ml]
    sd = list(ml.state_dict())
    ml2 = nn.ModuleList([nn.ReLU()])
    ml2[0] = nn.Tanh()
    ml2[-1] = nn.Sigmoid()
    return k1, shapes, sd, list(ml._modules), repr(ml2), raises(lambda: ml2.__delitem__(3))


@program()
def prog_mapi_module_dict_ops(T: Any) -> Any:
    nn = T.nn
    md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
    md.update([("c", nn.Sigmoid())])
    md.update(OrderedDict(d=nn.Identity()))
    md.update(nn.ModuleDict({"e": nn.ELU()}))
    md["f"] = nn.GELU()
    popped = md.pop("a")
    del md["b"]
    return [
        list(md.keys()),
        list(md),
        type(popped).__name__,
        "c" in md,
        len(md),
        [type(v).__name__ for v in md.values()],
        [k for k, _ in md.items()],
        raises(lambda: md["zz"]),
        raises(lambda: md.pop("zz")),
        raises(lambda: md.__delitem__("zz")),
        raises(lambda: md.__setitem__("a.b", nn.ReLU())),
        raises(lambda: md.__setitem__("x", 3)),
        raises(lambda: md.update(3)),
        raises(lambda: md.update([("a", nn.ReLU(), 1)])),
        raises(lambda: md.update([3])),
        raises(lambda: md(T.ones(1))),
        repr(md),
    ]


@program()
def prog_mapi_module_dict_clear_and_attr_names(T: Any) -> Any:
    nn = T.nn
    md = nn.ModuleDict()
    r0 = raises(lambda: md.__setitem__("training", nn.ReLU()))
    r1 = raises(lambda: md.__setitem__("forward", nn.ReLU()))
    md["x"] = nn.ReLU()
    md.clear()
    return r0, r1, list(md), len(md), raises(lambda: md.__setitem__(1, nn.ReLU()))


@program()
def prog_mapi_parameter_list_ops(T: Any) -> Any:
    nn = T.nn
    pl = nn.ParameterList([T.ones(2), nn.Parameter(T.zeros(3))])
    pl.append(T.full((1,), 2.0))
    pl.extend([T.ones(1, 1)])
    pl += [nn.Parameter(T.ones(4))]
    pl[0] = T.arange(2.0)
    return [
        [type(p).__name__ for p in pl],
        [p.requires_grad for p in pl],
        len(pl),
        _names(pl.named_parameters()),
        pl[0],
        [p.shape for p in pl[1:3]],
        type(pl[1:3]).__name__,
        raises(lambda: pl[10]),
        raises(lambda: pl.extend(T.ones(2))),
        raises(lambda: pl.extend(3)),
        raises(lambda: pl(T.ones(1))),
        raises(lambda: pl.append(T.tensor([1, 2]))),
        list(pl.state_dict()),
    ]


@program()
def prog_mapi_parameter_list_non_tensors(T: Any) -> Any:
    nn = T.nn
    pl = nn.ParameterList()
    pl.append(3)
    pl.append("s")
    pl.append(T.ones(1))
    pl.append(None)
    return [list(pl)[:2], len(pl), _names(pl.named_parameters()), repr(pl), pl[3]]


@program()
def prog_mapi_parameter_dict_ops(T: Any) -> Any:
    nn = T.nn
    pd = nn.ParameterDict({"b": T.ones(1), "a": nn.Parameter(T.zeros(2))})
    pd.update([("c", T.ones(3))])
    pd["d"] = T.ones(4)
    pd2 = nn.ParameterDict(OrderedDict(z=T.ones(1), y=T.ones(2)))
    merged = pd | pd2
    k, v = pd.popitem()
    return [
        list(pd),
        list(merged),
        list(reversed(merged)),
        (k, v.shape),
        pd.get("a").shape,
        pd.get("zz", 7),
        "a" in pd,
        len(pd),
        type(pd["b"]).__name__,
        _names(pd.named_parameters()),
        list(pd.copy()),
        list(pd.fromkeys(["p", "q"], T.ones(1))),
        pd.setdefault("n", T.ones(5)).shape,
        list(pd.keys()),
        raises(lambda: pd[1]),
        raises(lambda: pd["zz"]),
        raises(lambda: pd.update(3)),
        raises(lambda: pd.update([("a", 1, 2)])),
        raises(lambda: pd.update([3])),
        raises(lambda: pd(T.ones(1))),
        raises(lambda: pd.pop("zz")),
    ]


@program()
def prog_mapi_parameter_dict_sorted_update_and_ior(T: Any) -> Any:
    nn = T.nn
    pd = nn.ParameterDict()
    pd.update({"z": T.ones(1), "a": T.ones(1), "m": T.ones(1)})
    pd |= nn.ParameterDict({"b": T.ones(1)})
    pd["x"] = "string"
    pd["y"] = None
    pd.clear()
    pd2 = nn.ParameterDict({"q": T.ones(1)})
    pd2["q"] = T.zeros(2)
    del pd2["q"]
    return list(pd), list(pd2), raises(lambda: pd2.__delitem__("q"))


# --- functional_call (torch.func / nn.utils.stateless) ------------------------------------------


@program()
def prog_mapi_functional_call_basic_grads(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 2, 3)
    w = _x(T, 2, 3, seed=5, rg=True)
    b = _x(T, 2, seed=6, rg=True)
    y = T.func.functional_call(m, {"weight": w, "bias": b}, (x,))
    y.sum().backward()
    partial = T.func.functional_call(m, {"bias": b * 0}, x)
    return y, y.grad_fn, w.grad, b.grad, m.weight.grad, m.weight, partial


@program()
def prog_mapi_functional_call_kwargs_and_dicts(T: Any) -> Any:
    class K(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = T.nn.Parameter(T.ones(2))
            self.register_buffer("s", T.tensor(2.0))

        def forward(self, x: Any, *, shift: float = 0.0) -> Any:
            return x * self.w * self.s + shift

    m = K()
    x = T.ones(2)
    a = T.func.functional_call(
        m, ({"w": T.full((2,), 3.0)}, {"s": T.tensor(5.0)}), (x,), {"shift": 1.0}
    )
    return [
        a,
        raises(lambda: T.func.functional_call(m, ({"w": T.ones(2)}, {"w": T.ones(2)}), (x,))),
        raises(lambda: T.func.functional_call(m, [{"w": T.ones(2)}, 3], (x,))),
        raises(lambda: T.func.functional_call(m, 3, (x,))),
        raises(lambda: T.func.functional_call(m, T.ones(1), (x,))),
        raises(lambda: m.set_submodule("w2", T.ones(1))),
        T.func.functional_call(m, [], (x,)),
        m.w,
    ]


@program()
def prog_mapi_functional_call_strict(T: Any) -> Any:
    m = _net(T)
    x = _x(T, 4, 3)
    full = {k: v for k, v in m.named_parameters()}
    full.update(dict(m.named_buffers()))
    ok = T.func.functional_call(m, full, (x,), strict=True)
    partial = {"fc.weight": m.fc.weight}
    extra = dict(full, bogus=T.ones(1))
    return [
        ok.shape,
        raises(lambda: T.func.functional_call(m, partial, (x,), strict=True)),
        raises(lambda: T.func.functional_call(m, extra, (x,), strict=True)),
        raises(lambda: T.func.functional_call(m, {"bogus": T.ones(1)}, (x,), strict=True)),
    ]


@program()
def prog_mapi_functional_call_tied_weights(T: Any) -> Any:
    class Tied(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = T.nn.Linear(2, 2, bias=False)
            self.b = T.nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight

        def forward(self, x: Any) -> Any:
            return self.b(self.a(x))

    m = Tied()
    x = T.ones(1, 2)
    w = T.full((2, 2), 0.5)
    tied = T.func.functional_call(m, {"a.weight": w}, (x,))
    untied = T.func.functional_call(m, {"a.weight": w}, (x,), tie_weights=False)
    return [
        tied,
        untied.shape,
        raises(lambda: T.func.functional_call(m, {"a.weight": w, "b.weight": w * 2}, (x,))),
        T.func.functional_call(m, {"a.weight": w, "b.weight": w}, (x,)),
    ]


@program()
def prog_mapi_functional_call_restores_on_error(T: Any) -> Any:
    class Boom(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = T.nn.Parameter(T.ones(1))

        def forward(self, x: Any) -> Any:
            raise RuntimeError("boom " + str(float(self.w)))

    m = Boom()
    w0 = m.w
    r = raises(lambda: T.func.functional_call(m, {"w": T.full((1,), 7.0)}, (T.ones(1),)))
    return r, m.w is w0, type(m.w).__name__, m.w


@program()
def prog_mapi_functional_call_batchnorm_buffers(T: Any) -> Any:
    m = T.nn.BatchNorm1d(2)
    x = _x(T, 4, 2)
    rm = T.zeros(2)
    rv = T.ones(2)
    nb = T.tensor(0)
    bufs = {"running_mean": rm, "running_var": rv, "num_batches_tracked": nb}
    y = T.func.functional_call(m, bufs, (x,))
    return y, rm, rv, nb, m.running_mean, m.num_batches_tracked, bufs["running_mean"] is rm


@program()
def prog_mapi_stateless_functional_call_deprecated(T: Any) -> Any:
    m = _lin(T)
    x = _x(T, 1, 3)
    r, w = _caught(lambda: T.nn.utils.stateless.functional_call(m, {"bias": T.zeros(2)}, (x,)))
    return r, w


@program()
def prog_mapi_functional_call_non_tensor_attribute(T: Any) -> Any:
    class A(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = T.nn.Parameter(T.ones(2))
            self.plain = T.ones(2)

        def forward(self, x: Any) -> Any:
            return x * self.w + self.plain

    m = A()
    out = T.func.functional_call(m, {"plain": T.full((2,), 10.0)}, (T.ones(2),))
    return out, m.plain, "plain" in m.__dict__


# --- parametrizations ---------------------------------------------------------------------------


def _skew(T: Any) -> Any:
    class Skew(T.nn.Module):
        def forward(self, X: Any) -> Any:
            A = X.triu(1)
            return A - A.T

    return Skew()


def _double(T: Any) -> Any:
    class Double(T.nn.Module):
        def forward(self, X: Any) -> Any:
            return 2.0 * X

        def right_inverse(self, X: Any) -> Any:
            return X / 2.0

    return Double()


@program()
def prog_mapi_parametrize_register_names_and_grads(T: Any) -> Any:
    P = T.nn.utils.parametrize
    m = _lin(T, 3, 3)
    w0 = m.weight
    P.register_parametrization(m, "weight", _skew(T))
    x = _x(T, 2, 3)
    m(x).sum().backward()
    orig = m.parametrizations.weight.original
    return [
        type(m).__name__,
        P.type_before_parametrizations(m).__name__,
        P.is_parametrized(m),
        P.is_parametrized(m, "weight"),
        P.is_parametrized(m, "bias"),
        orig is w0,
        _names(m.named_parameters()),
        list(m.state_dict()),
        m.weight,
        m.weight.grad_fn,
        orig.grad,
        repr(m),
    ]


@program()
def prog_mapi_parametrize_right_inverse_assignment(T: Any) -> Any:
    P = T.nn.utils.parametrize
    m = _lin(T, 3, 2)
    P.register_parametrization(m, "weight", _double(T))
    orig = m.parametrizations.weight.original
    before = orig.clone()
    with T.no_grad():
        m.weight = T.ones(2, 3)
    no_inv = _lin(T, 3, 3)
    P.register_parametrization(no_inv, "weight", _skew(T))
    return [
        before,
        orig,
        m.weight,
        m.parametrizations.weight.original is orig,
        raises(lambda: setattr(no_inv, "weight", T.ones(3, 3))),
    ]


@program()
def prog_mapi_parametrize_errors(T: Any) -> Any:
    P = T.nn.utils.parametrize
    nn = T.nn

    class Shape(nn.Module):
        def forward(self, X: Any) -> Any:
            return X[:1]

    class DType(nn.Module):
        def forward(self, X: Any) -> Any:
            return X.double()

    class NotTensor(nn.Module):
        def forward(self, X: Any) -> Any:
            return 3

    return [
        raises(lambda: P.register_parametrization(nn.Linear(2, 2), "nope", _skew(T))),
        raises(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", Shape())),
        raises(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", DType())),
        raises(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", NotTensor())),
        raises(lambda: P.remove_parametrizations(nn.Linear(2, 2), "weight")),
        type(P.register_parametrization(nn.Linear(2, 2), "weight", Shape(), unsafe=True)).__name__,
    ]


@program()
def prog_mapi_parametrize_remove(T: Any) -> Any:
    P = T.nn.utils.parametrize
    m = _lin(T, 3, 2)
    P.register_parametrization(m, "weight", _double(T))
    orig = m.parametrizations.weight.original
    kept = P.remove_parametrizations(m, "weight")
    a = (type(m).__name__, m.weight is orig, m.weight, hasattr(m, "parametrizations"))
    m2 = _lin(T, 3, 2)
    P.register_parametrization(m2, "weight", _double(T))
    P.remove_parametrizations(m2, "weight", leave_parametrized=False)
    return a, kept is m, m2.weight, type(m2).__name__, _names(m2.named_parameters())


@program()
def prog_mapi_parametrize_chain_and_cached(T: Any) -> Any:
    P = T.nn.utils.parametrize
    nn = T.nn
    calls: list[int] = []

    class Count(nn.Module):
        def forward(self, X: Any) -> Any:
            calls.append(1)
            return X + 1

    m = _lin(T, 2, 2)
    P.register_parametrization(m, "weight", _double(T))
    P.register_parametrization(m, "weight", Count())
    n0 = len(calls)
    a = m.weight
    with P.cached():
        b = m.weight
        c = m.weight
        same = b is c
    n1 = len(calls)
    return a, same, n1 - n0, len(m.parametrizations.weight), repr(m.parametrizations)


@program()
def prog_mapi_parametrize_buffer(T: Any) -> Any:
    P = T.nn.utils.parametrize
    m = T.nn.Module()
    m.register_buffer("b", T.ones(3))
    P.register_parametrization(m, "b", _double(T))
    out = (list(m.state_dict()), _names(m.named_buffers()), _names(m.named_parameters()), m.b)
    P.remove_parametrizations(m, "b")
    return out, _names(m.named_buffers()), m.b


@program()
def prog_mapi_parametrize_multiple_originals(T: Any) -> Any:
    P = T.nn.utils.parametrize
    nn = T.nn

    class Split(nn.Module):
        def forward(self, A: Any, B: Any) -> Any:
            return A + B

        def right_inverse(self, X: Any) -> Any:
            return X * 0.25, X * 0.75

    m = _lin(T, 3, 2)
    P.register_parametrization(m, "weight", Split())
    names = _names(m.named_parameters())
    w = m.weight
    with T.no_grad():
        m.weight = T.ones(2, 3)
    r = raises(lambda: P.remove_parametrizations(m, "weight", leave_parametrized=False))
    P.remove_parametrizations(m, "weight")
    return (
        names,
        w,
        m.parametrizations.weight.original0 if False else None,
        r,
        m.weight,
        (type(m.weight).__name__),
    )


@program()
def prog_mapi_parametrize_state_dict_round_trip(T: Any) -> Any:
    P = T.nn.utils.parametrize
    a = _lin(T, 3, 2, seed=1)
    b = _lin(T, 3, 2, seed=2)
    P.register_parametrization(a, "weight", _double(T))
    P.register_parametrization(b, "weight", _double(T))
    b.load_state_dict(a.state_dict())
    plain = _lin(T, 3, 2, seed=3)
    r = raises(lambda: plain.load_state_dict(a.state_dict()))
    return b.weight, r


@program()
def prog_mapi_parametrize_deepcopy_and_pickle(T: Any) -> Any:
    import copy
    import pickle

    P = T.nn.utils.parametrize
    m = _lin(T, 3, 2)
    P.register_parametrization(m, "weight", _double(T))
    c = copy.deepcopy(m)
    with T.no_grad():
        c.parametrizations.weight.original.zero_()
    return type(c).__name__, m.weight, c.weight, raises(lambda: pickle.dumps(m))


@program()
def prog_mapi_parametrizations_orthogonal_weight_norm(T: Any) -> Any:
    nn = T.nn
    m = _lin(T, 3, 3)
    nn.utils.parametrizations.weight_norm(m)
    names = _names(m.named_parameters())
    w = m.weight
    o = _lin(T, 3, 3, seed=4)
    nn.utils.parametrizations.orthogonal(o)
    q = o.weight
    return names, w, w.grad_fn, repr(m), (q @ q.T), list(o.state_dict())


# --- pruning ------------------------------------------------------------------------------------


@program()
def prog_mapi_prune_l1_unstructured(T: Any) -> Any:
    prune = _prune(T)
    m = _lin(T, 4, 3)
    w0 = m.weight.clone()
    r = prune.l1_unstructured(m, "weight", amount=0.5)
    x = _x(T, 2, 4)
    m(x).sum().backward()
    return [
        r is m,
        _names(m.named_parameters()),
        _names(m.named_buffers()),
        list(m.state_dict()),
        m.weight_mask,
        m.weight,
        m.weight.grad_fn,
        m.weight_orig.grad,
        prune.is_pruned(m),
        (m.weight == w0 * m.weight_mask).all(),
        [type(h).__name__ for h in m._forward_pre_hooks.values()],
    ]


@program()
def prog_mapi_prune_amount_errors(T: Any) -> Any:
    prune = _prune(T)
    nn = T.nn
    return [
        raises(lambda: prune.l1_unstructured(nn.Linear(2, 3), "weight", amount=1.5)),
        raises(lambda: prune.l1_unstructured(nn.Linear(2, 3), "weight", amount=-1)),
        raises(lambda: prune.l1_unstructured(nn.Linear(2, 3), "weight", amount=100)),
        raises(lambda: prune.l1_unstructured(nn.Linear(2, 3), "weight", amount="a")),
        raises(lambda: prune.l1_unstructured(nn.Linear(2, 3), "nope", amount=0.5)),
        raises(lambda: prune.ln_structured(nn.Linear(2, 3), "weight", amount=1, n=2, dim=5)),
        raises(lambda: prune.ln_structured(nn.Linear(2, 3), "bias", amount=1, n=2, dim=0)),
        raises(lambda: prune.remove(nn.Linear(2, 3), "weight")),
        raises(lambda: prune.global_unstructured(3, prune.L1Unstructured, amount=1)),
        raises(
            lambda: prune.random_unstructured(nn.Linear(2, 3), "weight", amount=6).weight_mask.sum()
        ),
    ]


@program()
def prog_mapi_prune_twice_container_and_remove(T: Any) -> Any:
    prune = _prune(T)
    m = _lin(T, 5, 4)
    prune.l1_unstructured(m, "weight", amount=4)
    prune.ln_structured(m, "weight", amount=1, n=2, dim=0)
    hooks = [type(h).__name__ for h in m._forward_pre_hooks.values()]
    cont = next(iter(m._forward_pre_hooks.values()))
    methods = [type(p).__name__ for p in cont._pruning_methods]
    mask = m.weight_mask.clone()
    prune.remove(m, "weight")
    return (
        hooks,
        methods,
        mask,
        _names(m.named_parameters()),
        _names(m.named_buffers()),
        m.weight,
        len(m._forward_pre_hooks),
        prune.is_pruned(m),
    )


@program()
def prog_mapi_prune_custom_mask_and_importance(T: Any) -> Any:
    prune = _prune(T)
    m = _lin(T, 3, 2)
    mask = T.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    prune.custom_from_mask(m, "weight", mask)
    w1 = m.weight
    m2 = _lin(T, 3, 2)
    scores = T.arange(6.0).reshape(2, 3)
    prune.l1_unstructured(m2, "weight", amount=2, importance_scores=scores)
    r = raises(lambda: prune.l1_unstructured(_lin(T), "weight", 1, importance_scores=T.ones(3)))
    return w1, m2.weight_mask, r, raises(lambda: prune.custom_from_mask(_lin(T), "bias", 3))


@program()
def prog_mapi_prune_global_unstructured(T: Any) -> Any:
    prune = _prune(T)
    a = _lin(T, 3, 2, seed=1)
    b = _lin(T, 2, 2, seed=2)
    prune.global_unstructured(
        [(a, "weight"), (b, "weight"), (b, "bias")],
        pruning_method=prune.L1Unstructured,
        amount=5,
    )
    r = raises(
        lambda: prune.global_unstructured(
            [(a, "bias")], pruning_method=prune.LnStructured, amount=1
        )
    )
    return a.weight_mask, b.weight_mask, b.bias_mask, r


@program()
def prog_mapi_prune_identity_and_state_dict_load(T: Any) -> Any:
    prune = _prune(T)
    m = _lin(T, 3, 2)
    prune.identity(m, "bias")
    src = _lin(T, 3, 2, seed=9)
    prune.l1_unstructured(src, "weight", amount=3)
    dst = _lin(T, 3, 2)
    prune.identity(dst, "weight")
    dst.load_state_dict(src.state_dict())
    return m.bias_mask, list(m.state_dict()), dst.weight, dst.weight_mask


# --- torch.__future__: conversions that overwrite or swap parameters ----------------------------


@program()
def prog_mapi_future_flags_default(T: Any) -> Any:
    f = T.__future__
    return (
        f.get_overwrite_module_params_on_conversion(),
        f.get_swap_module_params_on_conversion(),
    )


@program()
def prog_mapi_future_overwrite_params_on_conversion(T: Any) -> Any:
    T.__future__.set_overwrite_module_params_on_conversion(True)
    try:
        m = _lin(T)
        m(_x(T, 1, 3)).sum().backward()
        w, g = m.weight, m.weight.grad
        m.double()
    finally:
        T.__future__.set_overwrite_module_params_on_conversion(False)
    return [
        m.weight is w,
        m.weight.grad is g,
        m.weight.dtype,
        m.weight.grad.dtype,
        w.dtype,
        g.dtype,
        type(m.weight).__name__,
        m.weight.requires_grad,
        m.weight.is_leaf,
        m.weight,
    ]


@program()
def prog_mapi_future_swap_params_on_conversion(T: Any) -> Any:
    T.__future__.set_swap_module_params_on_conversion(True)
    try:
        m = _lin(T)
        m(_x(T, 1, 3)).sum().backward()
        w, g = m.weight, m.weight.grad
        m.double()
        y = m(_x(T, 1, 3).double())
        stale = m.float()(_x(T, 1, 3))
        m.double()
        r = raises(lambda: stale.sum().backward())
    finally:
        T.__future__.set_swap_module_params_on_conversion(False)
    return [
        m.weight is w,
        m.weight.grad is g,
        w.dtype,
        g.dtype,
        type(w).__name__,
        w.requires_grad,
        w.is_leaf,
        y,
        y.grad_fn,
        r,
    ]


@program()
def prog_mapi_future_swap_load_state_dict(T: Any) -> Any:
    T.__future__.set_swap_module_params_on_conversion(True)
    try:
        m = _lin(T)
        m.register_buffer("b", T.zeros(2))
        w, b = m.weight, m.b
        sd = {"weight": T.ones(2, 3), "bias": T.ones(2), "b": T.full((2,), 3.0)}
        res = m.load_state_dict(sd)
        a = [str(res), m.weight is w, w, m.b is b, b, type(w).__name__, w.requires_grad]
        m2 = _lin(T)
        w2 = m2.weight
        m2.load_state_dict(
            {"weight": T.ones(2, 3, dtype=T.float64), "bias": T.ones(2)}, assign=True
        )
        c = [m2.weight is w2, w2.dtype, w2.requires_grad, type(w2).__name__]
        bad = raises(lambda: m2.load_state_dict({"weight": T.ones(2, 3), "bias": 3}))
    finally:
        T.__future__.set_swap_module_params_on_conversion(False)
    return a, c, bad


@program()
def prog_mapi_future_swap_custom_module_load(T: Any) -> Any:
    class Same(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = T.nn.Parameter(T.ones(2))

    class P(T.nn.Parameter):
        def module_load(self, other: Any, assign: bool = False) -> Any:
            return other

    m = Same()
    m.w = P(T.ones(2))
    T.__future__.set_swap_module_params_on_conversion(True)
    try:
        r = raises(lambda: m.load_state_dict({"w": T.zeros(2)}))
    finally:
        T.__future__.set_swap_module_params_on_conversion(False)
    return r


@program()
def prog_mapi_swap_tensors(T: Any) -> Any:
    import weakref

    a = T.ones(2)
    b = T.nn.Parameter(T.zeros(3))
    a.tag = "a"
    a.add_(1)
    T.utils.swap_tensors(a, b)
    out = [
        a,
        b,
        type(a).__name__,
        type(b).__name__,
        getattr(b, "tag", None),
        a.requires_grad,
        a._version,
        b._version,
    ]
    c, d = T.ones(1), T.zeros(1)
    ref = weakref.ref(c)
    errs = [raises(lambda: T.utils.swap_tensors(c, d)), raises(lambda: T.utils.swap_tensors(d, c))]
    del ref
    return out, errs


@program()
def prog_mapi_setstate_fills_missing_attributes(T: Any) -> Any:
    m = _lin(T)
    d = dict(m.__dict__)
    for k in (
        "_forward_hooks_always_called",
        "_state_dict_pre_hooks",
        "_backward_pre_hooks",
        "_is_full_backward_hook",
        "_non_persistent_buffers_set",
    ):
        del d[k]
    m2 = T.nn.Linear.__new__(T.nn.Linear)
    m2.__setstate__(d)
    return [
        hasattr(m2, "_forward_hooks_always_called"),
        len(m2._state_dict_pre_hooks),
        m2._is_full_backward_hook,
        list(m2.state_dict()),
        m2(T.ones(1, 3)),
    ]


@program()
def prog_mapi_call_super_init(T: Any) -> Any:
    class Mixin:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.mixin_args = (args, sorted(kwargs))
            super().__init__()

    class WithMixin(T.nn.Module, Mixin):
        call_super_init = True

        def __init__(self) -> None:
            super().__init__(1, k=2)

    class Plain(T.nn.Module):
        call_super_init = True

        def __init__(self, *a: Any) -> None:
            super().__init__(*a)

    class NoFlag(T.nn.Module):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, **k)

    return [
        WithMixin().mixin_args,
        Plain().training,
        raises(lambda: Plain(1)),
        raises(lambda: NoFlag(1)),
        raises(lambda: NoFlag(x=1)),
        raises(lambda: NoFlag(1, x=1)),
    ]


@program()
def prog_mapi_stateless_reparametrize_module(T: Any) -> Any:
    S = importlib.import_module(T.__name__ + ".nn.utils.stateless")
    m = _lin(T)
    w0 = m.weight
    new = {"weight": T.ones(2, 3), "bias": T.zeros(2)}
    with S._reparametrize_module(m, new):
        inside = (m(T.ones(1, 3)), m.weight is new["weight"], _names(m.named_parameters()))
    bn = T.nn.BatchNorm1d(2)
    rm = T.zeros(2)
    d = {"running_mean": rm}
    with S._reparametrize_module(bn, d):
        bn(_x(T, 4, 2))

    def strict() -> None:
        with S._reparametrize_module(m, {"weight": T.ones(2, 3)}, strict=True):
            pass

    def failing() -> None:
        with S._reparametrize_module(m, {"weight": T.ones(2, 3)}):
            raise ValueError("inside")

    return [
        inside,
        m.weight is w0,
        rm,
        bn.running_mean,
        d["running_mean"] is rm,
        raises(strict),
        raises(failing),
        m.weight is w0,
        S._functional_call(m, {"weight": T.ones(2, 3), "bias": T.zeros(2)}, T.ones(1, 3)),
    ]


# --- more from test_nn.py and test_module_hooks.py ----------------------------------------------


@program()
def prog_mapi_apply_inplace_bumps_versions(T: Any) -> Any:
    m = _lin(T)
    pvm = m.weight.mul(m.weight)
    v = m.weight._version
    m._apply(lambda t: t.add_(1.0))
    a = (m.weight._version - v, raises(lambda: pvm.backward(T.ones(2, 3))))
    m2 = _lin(T)
    m2.weight.grad = T.ones(2, 3).requires_grad_()
    pgm = m2.weight.grad.mul(m2.weight.grad)
    vg = m2.weight.grad._version
    m2._apply(lambda t: t.add_(1.0))
    b = (m2.weight.grad._version - vg, raises(lambda: pgm.backward(T.ones(2, 3))))
    return a, b, m2.weight.grad.requires_grad, m.weight


@program()
def prog_mapi_conversion_leaves_views_behind(T: Any) -> Any:
    m = _lin(T)
    mw = m.weight[:]
    m.double()
    with T.no_grad():
        mw[0][0] = 5
    T.__future__.set_overwrite_module_params_on_conversion(True)
    try:
        m2 = _lin(T)
        mw2 = m2.weight[:]
        m2.double()
        with T.no_grad():
            mw2[0][0] = 5
        m3 = _lin(T)
        m3.weight.grad = T.ones(2, 3).requires_grad_()
        g = m3.weight.grad
        v = g._version
        m3._apply(lambda t: t * 2)
        c = (g._version - v, m3.weight.grad is g, m3.weight.grad.requires_grad, m3.weight.grad)
    finally:
        T.__future__.set_overwrite_module_params_on_conversion(False)
    return [
        mw[0][0].dtype,
        mw._base is m.weight,
        mw._base[0][0].dtype,
        m.weight[0][0],
        mw2[0][0] == mw2._base[0][0],
        mw2._base is m2.weight,
        m2.weight[0][0],
        c,
    ]


@program()
def prog_mapi_forward_argument_errors(T: Any) -> Any:
    lin = _lin(T)
    conv = _seeded(T, T.nn.Conv1d(1, 1, 2), 3)
    x = _x(T, 1, 3)
    return [
        lin(input=x),
        raises(lambda: lin(x, x)),
        raises(lambda: lin()),
        raises(lambda: lin(inp=x)),
        conv(input=_x(T, 1, 1, 3)),
        raises(lambda: conv(_x(T, 1, 1, 3), x)),
        raises(lambda: T.nn.ReLU()(x, True)),
        raises(lambda: T.nn.Sequential()(x, x)),
    ]


@program()
def prog_mapi_full_backward_hook_inplace_module_inside(T: Any) -> Any:
    class Net(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.act = T.nn.ReLU(inplace=True)

        def forward(self, x: Any) -> Any:
            return self.act(x)

    net = Net()
    net.act.register_full_backward_hook(lambda *a: None)
    x = _x(T, 3, rg=True) * 1
    r1 = raises(lambda: net(x))
    net2 = Net()
    net2.register_full_backward_hook(lambda *a: None)
    x2 = _x(T, 3, rg=True) * 1
    r2 = raises(lambda: net2(x2))
    return r1, r2


@program()
def prog_mapi_pre_hook_error_runs_always_call_hooks(T: Any) -> Any:
    m = _lin(T)

    def pre(mod: Any, a: Any) -> None:
        raise ValueError("pre failed")

    seen: list[Any] = []
    m.register_forward_pre_hook(pre)
    m.register_forward_hook(lambda mod, a, o: seen.append(("always", len(a), o)), always_call=True)
    m.register_forward_hook(
        lambda mod, a, k, o: seen.append(("kw", sorted(k), o)), always_call=True, with_kwargs=True
    )
    m.register_forward_hook(lambda mod, a, o: seen.append("normal"))
    return raises(lambda: m(T.ones(1, 3))), seen


@program()
def prog_mapi_global_always_call_hook_on_error(T: Any) -> Any:
    class Boom(T.nn.Module):
        def forward(self, x: Any) -> Any:
            raise KeyError("boom")

    seen: list[Any] = []

    def bad(mod: Any, a: Any, o: Any) -> None:
        raise ValueError("global hook failed")

    h1 = T.nn.modules.module.register_module_forward_hook(
        lambda mod, a, o: seen.append((type(mod).__name__, o)), always_call=True
    )
    h2 = T.nn.modules.module.register_module_forward_hook(bad, always_call=True)
    try:
        r, w = _caught(lambda: Boom()(T.ones(1)))
    finally:
        h1.remove()
        h2.remove()
    return r, w, seen


@program()
def prog_mapi_hooks_with_keyword_only_call(T: Any) -> Any:
    class K(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return x + 1

    m = K()
    seen: list[Any] = []

    def pre(mod: Any, a: Any) -> Any:
        seen.append(("pre", a))
        return None

    m.register_forward_pre_hook(pre)
    m.register_forward_hook(lambda mod, a, o: seen.append(("post", a, o)))
    m.register_forward_pre_hook(
        lambda mod, a, k: seen.append(("kw", a, sorted(k))), with_kwargs=True
    )
    return m(x=T.zeros(1)), seen


@program()
def prog_mapi_load_state_dict_none_slots(T: Any) -> Any:
    m = _lin(T)
    m.register_parameter("gone", None)
    m.register_buffer("nob", None)
    sd = m.state_dict()
    sd["gone"] = T.ones(1)
    sd["nob"] = T.ones(1)
    return (
        list(m.state_dict()),
        raises(lambda: m.load_state_dict(sd)),
        str(m.load_state_dict(sd, strict=False)),
    )


@program()
def prog_mapi_buffer_holding_a_parameter(T: Any) -> Any:
    m = _lin(T)
    m.register_buffer("b", T.nn.Parameter(T.ones(1)))
    a = (list(m._buffers), type(m.b).__name__, _names(m.named_parameters()), list(m.state_dict()))
    m.register_buffer("c", T.ones(1))
    m.c = T.nn.Parameter(T.zeros(1))
    return a, list(m._buffers), _names(m.named_parameters()), list(m.state_dict())


@program()
def prog_mapi_deepcopy_and_pickle_modules(T: Any) -> Any:
    import copy
    import pickle

    m = T.nn.Sequential(_lin(T), T.nn.ReLU())
    m.register_buffer("np", T.ones(1), persistent=False)
    seen: list[int] = []
    m.register_forward_hook(lambda *a: seen.append(1))
    c = copy.deepcopy(m)
    c(T.ones(1, 3))
    m2 = T.nn.Sequential(_lin(T), T.nn.ReLU())
    m2.register_buffer("np", T.ones(1), persistent=False)
    p = pickle.loads(pickle.dumps(m2))
    sh = copy.copy(m2)
    return [
        len(seen),
        c[0].weight is m[0].weight,
        c[0].weight,
        type(c[0].weight).__name__,
        c[0].weight.requires_grad,
        repr(p),
        list(p.state_dict()),
        _names(p.named_buffers()),
        sh[0] is m2[0],
        sh._modules is m2._modules,
        raises(lambda: pickle.dumps(m)),
    ]


@program()
def prog_mapi_parameter_list_duplicates(T: Any) -> Any:
    pl = T.nn.ParameterList()
    p = T.nn.Parameter(T.ones(1))
    pl.append(p)
    pl.append(p)
    pl.append(T.nn.Parameter(T.ones(2), requires_grad=False))
    return [
        len(pl),
        len(list(pl.parameters())),
        _names(pl.named_parameters()),
        _names(pl.named_parameters(remove_duplicate=False)),
        [q.requires_grad for q in pl],
        list(pl.state_dict()),
    ]


@program()
def prog_mapi_module_list_insert_past_end_and_pop_slice(T: Any) -> Any:
    nn = T.nn
    ml = nn.ModuleList([nn.ReLU()])
    ml.insert(5, nn.Tanh())
    a = (list(ml._modules), repr(ml))
    ml2 = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    popped = ml2.pop(slice(0, 2))
    s = nn.Sequential(nn.ReLU(), nn.Tanh())
    sp = raises(lambda: repr(s.pop(slice(0, 1))))
    return a, type(popped).__name__, repr(popped), repr(ml2), sp, repr(s)


@program()
def prog_mapi_module_dict_update_partial_failure(T: Any) -> Any:
    nn = T.nn
    md = nn.ModuleDict({"a": nn.ReLU()})
    r1 = raises(lambda: md.update({"b": nn.Tanh(), "c": 3}))
    k1 = list(md)
    r2 = raises(lambda: md.update([["d", nn.ReLU()], ["e"]]))
    return r1, k1, r2, list(md), raises(lambda: md.update(["ab"])), raises(lambda: md.update("ab"))


@program()
def prog_mapi_global_hook_dicts_by_torch_names(T: Any) -> Any:
    M = T.nn.modules.module
    before = [
        len(M._global_forward_hooks),
        len(M._global_backward_hooks),
        len(M._global_forward_pre_hooks),
        len(M._global_buffer_registration_hooks),
    ]
    hs = [
        M.register_module_forward_hook(lambda *a: None),
        M.register_module_forward_pre_hook(lambda *a: None),
        M.register_module_full_backward_hook(lambda *a: None),
        M.register_module_full_backward_pre_hook(lambda *a: None),
        M.register_module_forward_hook(lambda *a: None, always_call=True, with_kwargs=True),
        M.register_module_buffer_registration_hook(lambda *a: None),
        M.register_module_module_registration_hook(lambda *a: None),
        M.register_module_parameter_registration_hook(lambda *a: None),
    ]
    seen: list[int] = []
    try:
        during = [
            len(M._global_forward_hooks),
            len(M._global_forward_pre_hooks),
            len(M._global_backward_hooks),
            len(M._global_backward_pre_hooks),
            len(M._global_forward_hooks_always_called),
            len(M._global_forward_hooks_with_kwargs),
            len(M._global_buffer_registration_hooks),
            len(M._global_module_registration_hooks),
            len(M._global_parameter_registration_hooks),
            M._global_is_full_backward_hook,
        ]
        extra = M.register_module_forward_hook(lambda *a: seen.append(1))
        M._global_forward_hooks.clear()
        T.nn.ReLU()(T.ones(1))
        extra.remove()
    finally:
        for h in hs:
            h.remove()
    after = [len(M._global_forward_hooks_always_called), len(M._global_forward_hooks_with_kwargs)]
    M._global_forward_hooks_with_kwargs.clear()  # torch's remove() leaves this mark behind
    return before, during, seen, after


@program()
def prog_mapi_hook_handles_clear_their_marks(T: Any) -> Any:
    m = _lin(T)
    h = m.register_forward_hook(lambda *a: None, with_kwargs=True, always_call=True)
    hp = m.register_forward_pre_hook(lambda *a: None, with_kwargs=True)
    a = [
        len(m._forward_hooks_with_kwargs),
        len(m._forward_hooks_always_called),
        h.id in m._forward_hooks_with_kwargs,
        h.id in m._forward_hooks_always_called,
        len(m._forward_pre_hooks_with_kwargs),
        len(h.extra_dict_ref),
        len(hp.extra_dict_ref),
        h.hooks_dict_ref() is m._forward_hooks,
        type(h).__name__,
    ]
    h.remove()
    hp.remove()
    return a, [
        len(m._forward_hooks),
        len(m._forward_hooks_with_kwargs),
        len(m._forward_hooks_always_called),
        len(m._forward_pre_hooks_with_kwargs),
        type(T.ones(1, requires_grad=True).register_hook(lambda g: g)).__name__,
    ]


@program()
def prog_mapi_replaced_hook_dict(T: Any) -> Any:
    m = _lin(T)
    m._forward_hooks = OrderedDict()
    seen: list[int] = []
    h = m.register_forward_hook(lambda *a: seen.append(1))
    m(T.ones(1, 3))
    h.remove()
    m(T.ones(1, 3))
    m2 = _lin(T)
    m2._forward_hooks = {}
    return seen, len(m._forward_hooks), raises(lambda: m2.register_forward_hook(lambda *a: None))


@program()
def prog_mapi_backward_hooks_invalid_outputs(T: Any) -> Any:
    m = T.nn.Sigmoid()
    x = _x(T, 3, 3, rg=True)
    out = []
    for hook in (lambda s, gi, go: gi[:-1], lambda s, gi, go: (*gi, T.ones(2, 2))):
        with m.register_backward_hook(hook):
            out.append(raises(lambda: m(x).sum().backward()))
    m2 = T.nn.Sigmoid()
    for pre in (lambda s, go: (), lambda s, go: (*go, T.ones(2, 2))):
        with m2.register_full_backward_pre_hook(pre):
            out.append(raises(lambda: m2(x).sum().backward()))
    return out


@program()
def prog_mapi_hooks_removed_while_running(T: Any) -> Any:
    m = T.nn.Sigmoid()
    seen: list[Any] = []
    handles: dict[str, Any] = {}

    def pre1(mod: Any, inp: Any) -> Any:
        seen.append("pre1")
        handles["pre2"].remove()
        return inp

    def pre2(mod: Any, inp: Any) -> Any:
        seen.append("pre2")
        return inp

    def post1(mod: Any, inp: Any, o: Any) -> None:
        seen.append("post1")
        handles["post1"].remove()

    handles["pre1"] = m.register_forward_pre_hook(pre1)
    handles["pre2"] = m.register_forward_pre_hook(pre2)
    handles["post1"] = m.register_forward_hook(post1)
    n = len(handles["pre1"].hooks_dict_ref())
    o1 = m(T.zeros(2))
    o2 = m(T.zeros(2))
    lin = _lin(T)
    bseen: list[int] = []

    def b1(mod: Any, gi: Any, go: Any) -> None:
        bseen.append(1)
        hb2.remove()

    lin.register_full_backward_hook(b1)
    hb2 = lin.register_full_backward_hook(lambda *a: bseen.append(2))
    x = _x(T, 1, 3, rg=True)
    lin(x).sum().backward()
    lin(x).sum().backward()
    return n, o1, o2, seen, bseen, len(m._forward_pre_hooks), len(m._forward_hooks)


@program()
def prog_mapi_forward_hook_assigns_buffer(T: Any) -> Any:
    class WithBuf(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("b", T.zeros(1))

        def forward(self, x: Any) -> Any:
            return x + self.b

    m = WithBuf()

    def hook(mod: Any, args: Any, out: Any) -> None:
        mod.b = out.detach().sum(0)

    m.register_forward_hook(hook)
    x = _x(T, 3, 1, rg=True)
    y = m(x)
    y.sum().backward()
    y2 = m(x)
    return m.b, x.grad, _names(m.named_buffers()), y2, list(m.state_dict())


@program()
def prog_mapi_pre_hook_modifies_args_in_place(T: Any) -> Any:
    class Mul(T.nn.Module):
        def forward(self, inp: Any, foo: Any) -> Any:
            return inp * foo

    m = Mul()

    def pre(mod: Any, args: Any) -> Any:
        args[0].add_(1)
        return args

    m.register_forward_pre_hook(pre)
    leaf = _x(T, 2, rg=True)
    x = leaf * 1
    y = m(x, T.full((2,), 3.0))
    y.sum().backward()
    return y, y.grad_fn, x, x._version, leaf.grad, raises(lambda: m(leaf, T.ones(2)))


@program()
def prog_mapi_full_backward_hook_which_inputs_get_grads(T: Any) -> Any:
    class M(T.nn.Module):
        def forward(self, x: Any, y: Any) -> Any:
            return x * y

    m = M()
    seen: list[Any] = []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append([g for g in gi]))
    a = _x(T, 2, rg=True)
    b = _x(T, 2, seed=1)
    m(a, b).sum().backward()
    m(b, a).sum().backward()

    class Detach(T.nn.Module):
        def forward(self, x: Any) -> Any:
            return x.detach()

    d = Detach()
    d.register_full_backward_hook(lambda *args: seen.append("detach"))
    y = d(a)
    return seen, a.grad, y.requires_grad, y.grad_fn


@program()
def prog_mapi_functional_call_parametrized_names(T: Any) -> Any:
    P = T.nn.utils.parametrize
    m = _lin(T, 2, 2)
    P.register_parametrization(m, "weight", _double(T))
    orig = m.parametrizations.weight.original.clone()
    W = T.full((2, 2), 3.0, requires_grad=True)
    y = T.func.functional_call(m, {"weight": W}, (T.ones(1, 2),))
    y.sum().backward()
    y2 = T.func.functional_call(
        m, {"parametrizations.weight.original": T.full((2, 2), 3.0)}, (T.ones(1, 2),)
    )
    m2 = _lin(T, 2, 2)
    P.register_parametrization(m2, "weight", _skew(T))
    r = raises(lambda: T.func.functional_call(m2, {"weight": T.ones(2, 2)}, (T.ones(1, 2),)))
    return y, y.grad_fn, W.grad, m.parametrizations.weight.original - orig, y2, r


@program()
def prog_mapi_parametrize_nested_and_sequence_buffers(T: Any) -> Any:
    P = T.nn.utils.parametrize
    nn = T.nn
    m = _lin(T, 3, 3)
    P.register_parametrization(m, "weight", _skew(T))
    P.register_parametrization(m.parametrizations.weight, "original", _double(T))
    a = (_names(m.named_parameters()), type(m.parametrizations.weight).__name__, repr(m), m.weight)
    P.remove_parametrizations(m.parametrizations.weight, "original")
    b = (_names(m.named_parameters()), type(m.parametrizations.weight).__name__)

    class Split(nn.Module):
        def forward(self, A: Any, B: Any) -> Any:
            return A + B

        def right_inverse(self, X: Any) -> Any:
            return X * 0.5, X * 0.5

    buf = nn.Module()
    buf.register_buffer("b", T.arange(2.0))
    P.register_parametrization(buf, "b", Split())
    c = (_names(buf.named_buffers()), _names(buf.named_parameters()), buf.b)
    P.remove_parametrizations(buf, "b")
    frozen = _lin(T, 2, 2)
    frozen.weight.requires_grad_(False)
    P.register_parametrization(frozen, "weight", Split())
    d = [(n, p.requires_grad) for n, p in frozen.named_parameters()]
    P.remove_parametrizations(frozen, "weight")
    return (
        a,
        b,
        c,
        type(buf.b).__name__,
        _names(buf.named_buffers()),
        d,
        (type(frozen.weight).__name__, frozen.weight.requires_grad),
    )


# --- user mistakes around modules ---------------------------------------------------------------


@program()
def prog_mapi_forgot_super_init(T: Any) -> Any:
    class NoInit(T.nn.Module):
        def __init__(self) -> None:
            pass

        def forward(self, x: Any) -> Any:
            return x

    m = NoInit()
    return [
        raises(lambda: m(T.ones(1))),
        raises(lambda: repr(m)),
        raises(lambda: list(m.parameters())),
        raises(lambda: m.state_dict()),
        raises(lambda: m.train()),
        raises(lambda: m.foo),
        raises(lambda: m.to(T.float64)),
        raises(lambda: m.register_forward_hook(lambda *a: None)),
        raises(lambda: m.load_state_dict({})),
        raises(lambda: m.register_buffer("b", T.ones(1))),
        raises(lambda: m.training),
    ]


@program()
def prog_mapi_modules_given_numpy_or_classes(T: Any) -> Any:
    import numpy as np

    x = np.ones((1, 3), dtype=np.float32)
    return [
        raises(lambda: T.nn.Linear(3, 2)(x)),
        raises(lambda: T.nn.ReLU()(x)),
        raises(lambda: T.nn.Softmax(dim=1)(x)),
        raises(lambda: T.nn.LogSoftmax(dim=1)(x)),
        raises(lambda: T.nn.functional.softmax(x, 1)),
        raises(lambda: T.nn.functional.softmin(x, 1)),
        raises(lambda: T.nn.BatchNorm1d(3)(x)),
        raises(lambda: T.nn.Linear(3, 2)([1.0, 2.0, 3.0])),
        raises(lambda: T.nn.Sequential(T.nn.ReLU)),
        raises(lambda: T.nn.ModuleList([T.nn.ReLU])),
        raises(lambda: T.nn.ModuleDict({"a": T.nn.ReLU})),
        raises(lambda: T.nn.Linear(3)),
    ]


# --- from test_load_state_dict.py ---------------------------------------------------------------


@program()
def prog_mapi_load_state_dict_invalid_values_and_types(T: Any) -> Any:
    import numpy as np

    m = T.nn.Linear(2, 2, bias=False)
    return [
        raises(lambda: m.load_state_dict({"weight": np.ones((2, 2))})),
        raises(lambda: m.load_state_dict({"weight": ((1.0, 1.0), (2.0, 2.0))})),
        raises(lambda: m.load_state_dict("")),
        raises(lambda: m.load_state_dict(2)),
        raises(lambda: T.nn.Module().load_state_dict(T.ones(1))),
    ]


@program()
def prog_mapi_consume_prefix_and_shared_modules(T: Any) -> Any:
    nn = T.nn
    lin = _lin(T, 2, 2)
    block = nn.Module()
    block.conv = _seeded(T, nn.Conv1d(1, 1, 2), 4)
    net = nn.Module()
    net.linear1 = lin
    net.linear2 = lin
    net.bn = nn.BatchNorm1d(2)
    net.block = block
    net.add_module("empty", None)
    sd = net.state_dict()
    keys = list(sd)
    ddp = OrderedDict(("module." + k, v) for k, v in sd.items())
    ddp._metadata = OrderedDict(
        ("module." + k if k else "module", v) for k, v in sd._metadata.items()
    )
    ddp["module.linear1.weight"] = T.ones(2, 2)
    nn.modules.utils.consume_prefix_in_state_dict_if_present(ddp, "module.")
    res = net.load_state_dict(ddp)
    return keys, list(ddp), list(ddp._metadata), str(res), net.linear2.weight


@program()
def prog_mapi_load_state_dict_custom_save_and_load(T: Any) -> Any:
    nn = T.nn

    class CustomState(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.param = nn.Parameter(T.ones(1))
            self.sub = _lin(T, 2, 2)

        def _save_to_state_dict(self, destination: Any, prefix: str, keep_vars: bool) -> None:
            destination[prefix + "serialized"] = self.param.data + 1

        def _load_from_state_dict(self, state_dict: Any, prefix: str, *args: Any) -> None:
            self.param.data.copy_(state_dict[prefix + "serialized"] - 1)

    m = nn.Sequential(CustomState())
    with T.no_grad():
        m[0].param[0] = 10
        m[0].sub.weight[0, 0] = 555
    sd = m.state_dict()
    mm = nn.Sequential(CustomState())
    res = mm.load_state_dict(sd)
    return list(sd), sd["0.serialized"], str(res), mm[0].param, mm[0].sub.weight


@program()
def prog_mapi_save_load_module_missing_attribute(T: Any) -> Any:
    import io

    m = T.nn.Sequential(_lin(T, 2, 2), T.nn.BatchNorm1d(2))
    delattr(m[0], "_state_dict_pre_hooks")
    buf = io.BytesIO()
    T.save(m, buf)
    buf.seek(0)
    m2 = T.load(buf, weights_only=False)
    called: list[int] = []
    m2[0].register_state_dict_pre_hook(lambda *a, **k: called.append(1))
    keys = list(m2.state_dict())
    buf.seek(0)
    return repr(m2), keys, called, m2[0].weight, raises(lambda: T.load(buf))


@program()
def prog_mapi_functional_call_bad_names(T: Any) -> Any:
    m = T.nn.Sequential(_lin(T, 2, 2))
    x = T.ones(1, 2)
    fc = T.func.functional_call
    w = T.ones(2, 2)
    out = [
        raises(lambda: fc(m, {"": w}, (x,))),
        raises(lambda: fc(m, {"0.": w}, (x,))),
        raises(lambda: fc(m, {"0..weight": w}, (x,))),
        raises(lambda: fc(m, {".weight": w}, (x,))),
        raises(lambda: fc(m, {"0.weight": w, "": None}, (x,))),
        raises(lambda: fc(m, {"1.weight": w}, (x,))),
        raises(lambda: fc(m, {"0.weight.x": w}, (x,))),
        raises(lambda: fc(m, {"0.in_features": w}, (x,))),
    ]
    return out, m[0].weight, _names(m.named_parameters())


# --- random operation sequences (seeded: the same operations on both libraries) -----------------


def _attempt(log: list[Any], fn: Any, state: Any) -> None:
    try:
        r = fn()
        log.append(("ok", type(r).__name__, state()))
    except Exception as e:
        log.append((type(e).__name__, str(e)))


@program()
def prog_mapi_random_attribute_operations(T: Any) -> Any:
    import random

    rng = random.Random(11)
    nn = T.nn
    values = [
        lambda: nn.Parameter(T.ones(1)),
        lambda: T.ones(1),
        lambda: nn.ReLU(),
        lambda: None,
        lambda: 3,
        lambda: nn.Buffer(T.ones(2)),
        lambda: nn.Buffer(T.ones(2), persistent=False),
        lambda: nn.Parameter(T.ones(1), requires_grad=False),
    ]
    names = ["a", "b", "weight", "training", "forward", "_x"]
    logs = []
    for t in range(24):
        m = [nn.Linear(1, 1), nn.Module(), nn.Sequential(nn.ReLU()), nn.BatchNorm1d(1)][t % 4]
        log: list[Any] = []

        def state(m: Any = m) -> Any:
            return (
                _names(m.named_parameters()),
                _names(m.named_buffers()),
                list(m._modules),
                list(m.state_dict()),
                sorted(m._non_persistent_buffers_set),
            )

        for _ in range(rng.randint(3, 7)):
            op = rng.randrange(9)
            n = rng.choice(names)
            v = rng.choice(values)
            fns = [
                lambda m=m, n=n, v=v: setattr(m, n, v()),
                lambda m=m, n=n, v=v: m.register_buffer(n, v()),
                lambda m=m, n=n, v=v: m.register_buffer(n, v(), persistent=False),
                lambda m=m, n=n, v=v: m.register_parameter(n, v()),
                lambda m=m, n=n, v=v: m.add_module(n, v()),
                lambda m=m, n=n: delattr(m, n),
                lambda m=m, n=n: m.get_parameter(n),
                lambda m=m, n=n: m.get_buffer(n),
                lambda m=m, n=n: m.get_submodule(n),
            ]
            _attempt(log, fns[op], state)
        logs.append(log)
    return logs


@program()
def prog_mapi_random_container_operations(T: Any) -> Any:
    import random

    rng = random.Random(7)
    nn = T.nn
    logs = []
    for t in range(24):
        box: dict[str, Any] = {}
        if t % 2:
            box["s"] = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Identity())
        else:
            box["s"] = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Identity()])
        log: list[Any] = []

        def state(box: Any = box) -> Any:
            s = box["s"]
            return repr(s), list(s._modules), len(s)

        for _ in range(rng.randint(3, 7)):
            i = rng.randint(-5, 5)
            a = rng.choice([None, -1, 0, 1, 2, 5])
            b = rng.choice([None, -1, 1, 3, 9])
            op = rng.randrange(9)

            def run(op: int = op, i: int = i, a: Any = a, b: Any = b, box: Any = box) -> Any:
                s = box["s"]
                if op == 0:
                    return s.append(nn.ReLU())
                if op == 1:
                    return s.insert(i, nn.Tanh())
                if op == 2:
                    del s[i]
                    return None
                if op == 3:
                    return type(s.pop(i)).__name__
                if op == 4:
                    s[i] = nn.Sigmoid()
                    return None
                if op == 5:
                    del s[a:b]
                    return None
                if op == 6:
                    return s.extend([nn.ELU()])
                if op == 7:
                    box["s"] = s[a:b]
                    return None
                box["s"] = s + type(s)([nn.SiLU()])
                return None

            _attempt(log, run, state)
        logs.append(log)
    return logs


@program()
def prog_mapi_random_state_dict_mutations(T: Any) -> Any:
    import random

    rng = random.Random(3)
    nn = T.nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(2, 2)
            self.bn = nn.BatchNorm1d(2)
            self.s = nn.Parameter(T.tensor(1.0))
            self.register_buffer("np", T.ones(1), persistent=False)
            self.seq = nn.Sequential(nn.Linear(2, 1))

    keys = [
        "fc.weight",
        "fc.bias",
        "bn.running_mean",
        "bn.num_batches_tracked",
        "s",
        "seq.0.weight",
        "bn.weight",
    ]
    muts = [
        lambda sd, k: sd.pop(k),
        lambda sd, k: sd.__setitem__(k, T.ones(7)),
        lambda sd, k: sd.__setitem__(k, sd[k].double() * 0 + 2),
        lambda sd, k: sd.__setitem__(k, 3),
        lambda sd, k: sd.__setitem__(k, sd[k].reshape(-1)),
        lambda sd, k: sd.__setitem__("extra." + k, T.ones(1)),
        lambda sd, k: sd.__setitem__(k + "x", T.ones(1)),
        lambda sd, k: sd.__setitem__(k, nn.Parameter(sd[k].clone() * 0 + 5)),
        lambda sd, k: sd.__setitem__(k, sd[k][None]),
        lambda sd, k: sd.__setitem__(k, T.zeros(()) + 4),
    ]
    out = []
    for _ in range(30):
        net = Net()
        with T.no_grad():
            for i, p in enumerate(net.parameters()):
                p.fill_(i * 0.5)
        sd = net.state_dict()
        for _ in range(rng.randint(1, 4)):
            k = rng.choice(keys)
            f = rng.choice(muts)
            with contextlib.suppress(KeyError, AttributeError, TypeError, RuntimeError):
                f(sd, k)
        strict, assign = rng.choice([True, False]), rng.choice([True, False])
        res = raises(lambda net=net, sd=sd, s=strict, a=assign: str(net.load_state_dict(sd, s, a)))
        out.append(
            (
                res,
                [
                    (n, p.dtype, tuple(p.shape), p.requires_grad, type(p).__name__, p)
                    for n, p in net.named_parameters()
                ],
                list(net.named_buffers()),
            )
        )
    return out


@program()
def prog_mapi_to_argument_errors_and_devices(T: Any) -> Any:
    relu = T.nn.ReLU()
    m = _lin(T)
    x = T.ones(1)
    f = T.float64

    def kind(fn: Any) -> Any:
        r = raises(fn)
        return r if not hasattr(r, "training") else type(r).__name__

    return [
        # no tensors to move: torch accepts a device without a backend
        kind(lambda: relu.to("cuda")),
        kind(lambda: relu.to("xla")),
        kind(lambda: relu.to(1)),
        kind(lambda: relu.to("foo")),
        kind(lambda: relu.to("cuda", copy=True)),
        kind(lambda: m.to("cuda")),
        kind(lambda: m.to("xla")),
        kind(lambda: m.to(0)),
        kind(lambda: m.to("cpu:1")),
        kind(lambda: m.to("cuda:0", T.float64)),
        kind(lambda: m.to(T.device("cuda"), T.int8)),
        kind(lambda: m.to("float64", copy=True)),
        # five arguments: only the first signature takes that many, and torch names its error
        kind(lambda: m.to(1.5, None, f, non_blocking=True, device=None)),
        kind(lambda: m.to(f, "meta", f, other=x, memory_format=T.channels_last)),
        kind(lambda: m.to("cpu", f, True, 1.5, memory_format=T.preserve_format)),
        kind(lambda: m.to("cpu", f, True, False, foo=1)),
        kind(lambda: m.to("cpu", f, True, dtype=f, copy=False)),
        raises(lambda: x.to(1.5, f, True, True, memory_format=T.preserve_format)),
        raises(lambda: x.to("cpu", f, "yes", False, memory_format=None)),
        raises(lambda: x.to("cpu", f, True, True, memory_format=T.preserve_format).dtype),
    ]


@program()
def prog_mapi_accelerator_moves_on_a_cpu_build(T: Any) -> Any:
    m = _lin(T)
    x = T.ones(1)
    out = []
    for kind in ("cuda", "xpu", "ipu", "mtia"):
        for dev in (None, "cpu", kind, "a", 0, 1.5, T.float64, True, T.device("cpu"), "meta"):
            out.append((kind, raises(lambda k=kind, d=dev: getattr(m, k)(d))))
            out.append(raises(lambda k=kind, d=dev: getattr(x, k)(d)))
        out.append(type(getattr(T.nn.ReLU(), kind)("a")).__name__)
    out += [
        raises(lambda: x.cuda("cpu", 1)),
        raises(lambda: x.cuda("cpu", True, True)),
        raises(lambda: x.cuda(device=1.5)),
        raises(lambda: x.cuda(non_blocking=1)),
        raises(lambda: x.cuda(foo=1)),
        raises(lambda: x.cuda("cpu", device="cpu")),
        raises(lambda: x.xpu(memory_format=3)),
        raises(lambda: m.type(None)),
        raises(lambda: m.type(3)),
        raises(lambda: m.type("foo")),
    ]
    return out


@program()
def prog_mapi_handles_deepcopied_and_pickled(T: Any) -> Any:
    import copy
    import pickle

    class Holder(T.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = _lin(T, 1, 1)
            self.h = self.register_forward_hook(lambda *a: None)
            self.h2 = self.register_forward_hook(
                lambda *a: None, with_kwargs=True, always_call=True
            )

    m = Holder()
    c = copy.deepcopy(m)
    c.h.remove()
    c.h2.remove()
    after = [
        len(m._forward_hooks),
        len(c._forward_hooks),
        c.h.id == m.h.id,
        len(m._forward_hooks_with_kwargs),
        len(c._forward_hooks_with_kwargs),
        len(c._forward_hooks_always_called),
        len(m._forward_hooks_always_called),
    ]
    lin = _lin(T, 1, 1)
    h = lin.register_forward_pre_hook(print)
    h2 = pickle.loads(pickle.dumps(h))
    h2.remove()
    x = T.ones(1, requires_grad=True)
    th = x.register_hook(print)
    tc = copy.deepcopy(th)
    tc.remove()

    def plain(g: Any) -> Any:
        return g

    x.register_hook(plain)
    x.register_hook(T.utils.hooks.unserializable_hook(lambda g: g))
    r, w = _caught(lambda: T.utils.hooks.warn_if_has_hooks(x))
    w = [(c, re.sub(" at 0x[0-9a-f]+", "", msg)) for c, msg in w]
    info = [h2.id == h.id, h2.hooks_dict_ref() is None, len(h2.extra_dict_ref)]
    return after, info, len(lin._forward_pre_hooks), r, w


@program()
def prog_mapi_lazy_module_hooks_and_loading(T: Any) -> Any:
    import copy

    m = T.nn.LazyLinear(3)
    before = (
        len(m._forward_pre_hooks),
        len(m._forward_pre_hooks_with_kwargs),
        len(m._load_state_dict_pre_hooks),
        m.has_uninitialized_params(),
    )
    seen: list[Any] = []
    m.register_forward_pre_hook(
        lambda mod, a: seen.append((type(mod).__name__, type(mod.weight).__name__))
    )
    c = copy.deepcopy(m)
    m(T.ones(2, 4))
    after = (
        len(m._forward_pre_hooks),
        len(m._forward_pre_hooks_with_kwargs),
        len(m._load_state_dict_pre_hooks),
        type(m).__name__,
        hasattr(m, "_initialize_hook"),
    )
    src = _lin(T, 4, 3)
    r = c.load_state_dict(src.state_dict())
    return before, after, seen, str(r), type(c).__name__, c.weight, len(c._forward_pre_hooks)


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
