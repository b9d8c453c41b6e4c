"""Differential programs for `torch.func.functional_call` on parametrized modules, tied weights,
strict key checks and tuples of dicts, run on torch and shadowgrad."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from .program_set import ProgramSet
from .test_extension import assert_same, func, observe, raises

torch = pytest.importorskip("torch")
import shadowgrad  # noqa: E402

_SET = ProgramSet()
PROGRAMS = _SET.programs
program = _SET.program


def _parametrized_linear(T: Any) -> Any:
    P = importlib.import_module(T.__name__ + ".nn.utils.parametrize")

    class Symmetric(T.nn.Module):
        def forward(self, X: Any) -> Any:
            return X.triu() + X.triu(1).transpose(0, 1)

        def right_inverse(self, A: Any) -> Any:
            return A.triu()

    m = T.nn.Linear(3, 3)
    with T.no_grad():
        m.weight.copy_(T.tensor(np.arange(9.0).reshape(3, 3) / 10))
        m.bias.fill_(0.25)
    P.register_parametrization(m, "weight", Symmetric())
    return m


_W = np.arange(9.0, 18.0).reshape(3, 3)


@program
def parametrized_weight(T: Any) -> Any:
    F = func(T)
    m = _parametrized_linear(T)
    x = T.tensor([[1.0, -2.0, 0.5]])
    original = m.parametrizations.weight.original.detach().clone()
    w = T.tensor(_W, dtype=T.float32, requires_grad=True)
    given = {"weight": w}
    out = F.functional_call(m, given, (x,))
    out.sum().backward()
    wo = T.tensor(_W, dtype=T.float32, requires_grad=True)
    out_o = F.functional_call(m, {"parametrizations.weight.original": wo}, x)
    out_o.sum().backward()
    return {
        "out": out,
        "w.grad": w.grad,
        "dict_value_kept": given["weight"] is w,
        "original_unchanged": T.equal(m.parametrizations.weight.original, original),
        "out_original": out_o,
        "wo.grad": wo.grad,
        "after": m(x),
        "names": sorted(n for n, _ in m.named_parameters()),
    }


@program
def parametrized_strict(T: Any) -> Any:
    F = func(T)
    m = _parametrized_linear(T)
    x = T.ones(1, 3)
    w = T.tensor(_W, dtype=T.float32)
    b = T.zeros(3)
    return {
        name: raises(lambda d=d: F.functional_call(m, d, (x,), strict=True))
        for name, d in {
            "weight": {"weight": w, "bias": b},
            "original": {"parametrizations.weight.original": w, "bias": b},
            "missing": {"bias": b},
            "unexpected": {"weight": w, "bias": b, "zzz": b},
        }.items()
    }


class _Tied:
    @staticmethod
    def make(T: Any) -> Any:
        class Tied(T.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.a = T.nn.Linear(2, 2, bias=False)
                self.b = T.nn.Linear(2, 2, bias=False)
                with T.no_grad():
                    self.a.weight.copy_(T.tensor([[1.0, 0.5], [-0.5, 2.0]]))
                self.b.weight = self.a.weight

            def forward(self, x: Any) -> Any:
                return self.b(self.a(x))

        return Tied()


@program
def tied_weights(T: Any) -> Any:
    F = func(T)
    t = _Tied.make(T)
    x = T.tensor([[1.0, -1.0]])
    two, three = T.eye(2) * 2, T.eye(2) * 3
    return {
        "names": sorted(n for n, _ in t.named_parameters()),
        "tie": F.functional_call(t, {"a.weight": two}, (x,)),
        "no_tie": F.functional_call(t, {"a.weight": two}, (x,), tie_weights=False),
        "conflict": raises(lambda: F.functional_call(t, {"a.weight": two, "b.weight": three}, x)),
        "same_value": F.functional_call(t, {"a.weight": two, "b.weight": two}, x),
        "equal_values": raises(
            lambda: F.functional_call(t, {"a.weight": two, "b.weight": two.clone()}, x)
        ),
        "untied_both": F.functional_call(
            t, {"a.weight": two, "b.weight": three}, (x,), tie_weights=False
        ),
        "strict_one": raises(lambda: F.functional_call(t, {"a.weight": two}, (x,), strict=True)),
        "strict_untied": raises(
            lambda: F.functional_call(t, {"a.weight": two}, (x,), strict=True, tie_weights=False)
        ),
        "after": t(x),
    }


@program
def dict_arguments(T: Any) -> Any:
    F = func(T)
    m = T.nn.Linear(2, 2)
    with T.no_grad():
        m.weight.copy_(T.tensor([[1.0, 2.0], [3.0, 4.0]]))
        m.bias.fill_(0.5)
    x = T.tensor([[1.0, -1.0]])
    w, b = T.eye(2), T.ones(2)
    bn = T.nn.BatchNorm1d(2)
    mean = T.ones(2)
    given = {"running_mean": mean}
    bn_out = F.functional_call(bn, given, T.tensor([[1.0, 2.0], [3.0, 5.0]]))
    return {
        "tuple": F.functional_call(m, ({"weight": w}, {"bias": b}), (x,)),
        "list": F.functional_call(m, [{"weight": w}, {}], x),
        "repeated": raises(lambda: F.functional_call(m, ({"weight": w}, {"weight": w}), x)),
        "not_dicts": raises(lambda: F.functional_call(m, ({"weight": w}, 3), x)),
        "bad_type": raises(lambda: F.functional_call(m, 3, x)),
        "kwargs": F.functional_call(m, {}, args=(), kwargs={"input": x}),
        "missing_module": raises(lambda: F.functional_call(m, {"foo.bar": w}, x)),
        "not_a_tensor": raises(lambda: F.functional_call(m, {"weight": 3}, x)),
        "new_attr": F.functional_call(m, {"extra": w}, x),
        "has_extra": hasattr(m, "extra"),
        "bn": bn_out,
        "bn_running_mean_in_dict": mean,
        "bn_module_running_mean": bn.running_mean,
        "dict_value_kept": given["running_mean"] is mean,
        "after": m(x),
    }


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_torch(name: str) -> None:
    _SET.check(name, observe, assert_same, torch, shadowgrad)


# --- stack_module_state, replace_all_batch_norm_modules_, functionalize ----------------------


def _stack_state(T: Any) -> Any:
    nn = T.nn
    rng = np.random.default_rng(3)
    ms = [nn.Linear(2, 3) for _ in range(3)]
    with T.no_grad():
        for m in ms:
            m.weight.copy_(T.tensor(rng.standard_normal((3, 2))))
            m.bias.copy_(T.tensor(rng.standard_normal(3)))
    p, b = T.func.stack_module_state(ms)
    bn = [nn.BatchNorm1d(3) for _ in range(2)]
    pb, bb = T.func.stack_module_state(bn)

    def err(models: Any) -> str:
        try:
            T.func.stack_module_state(models)
        except RuntimeError as e:
            return str(e)
        return "no error"

    return {
        "params": {k: (v.detach().numpy(), v.requires_grad, v.is_leaf) for k, v in p.items()},
        "buffers": b,
        "bn": (sorted(pb), {k: (tuple(v.shape), v.requires_grad) for k, v in bb.items()}),
        "errors": [err([]), err([nn.Linear(2, 3), nn.ReLU()])],
    }


def _replace_bn(T: Any) -> Any:
    s = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.BatchNorm1d(2))
    r = T.func.replace_all_batch_norm_modules_(s)
    bn = s[1]
    return (r is s, bn.running_mean, bn.running_var, bn.num_batches_tracked,
            bn.track_running_stats, sorted(s.state_dict()))  # fmt: skip


def _functionalize(T: Any) -> Any:
    f = T.func.functionalize(lambda x: x.add_(1) * 2)
    x = T.tensor([1.0, 2.0])
    return f(x).numpy(), x.numpy()


@pytest.mark.parametrize("prog", [_stack_state, _replace_bn, _functionalize])
def test_module_state_helpers_match_torch(prog: Any) -> None:
    a, b = prog(torch), prog(shadowgrad)
    np.testing.assert_equal(_plain(a), _plain(b))


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    return x
