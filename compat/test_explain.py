"""Graph pictures and explained errors against torch.

- make_dot walks torch's graph (`grad_fn.next_functions`) as well as ours: the DOT text of a
  program must be the same under both (node names, edges, leaves, shapes, dtypes).
- The explained errors keep torch's message: shadowgrad's message starts with torch's whole
  message (so its first sentence, which code matches on, is unchanged).
- explain_nan names the node that torch's anomaly mode stops at.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import shadowgrad
from shadowgrad.autograd.explain import explain_nan
from shadowgrad.viz import make_dot

torch = pytest.importorskip("torch")


def _seed_square(T: Any) -> Any:
    x = T.tensor(3.0, requires_grad=True)
    return x**2 + 5, {"x": x}


def _seed_two_leaves(T: Any) -> Any:
    a = T.tensor(2.0, requires_grad=True)
    b = T.tensor(3.0, requires_grad=True)
    return a * b + a**2, {"a": a, "b": b}


def _mlp(T: Any) -> Any:
    T.manual_seed(0)
    model = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 2))
    loss = T.nn.functional.cross_entropy(model(T.ones(5, 3)), T.tensor([0, 1, 1, 0, 1]))
    return loss, dict(model.named_parameters())


def _where_trap(T: Any) -> Any:
    x = T.tensor([0.0, 1.0], dtype=T.float64, requires_grad=True)
    return T.where(x > 0, x.sqrt(), 0).sum(), {"x": x}


def _split_and_views(T: Any) -> Any:
    x = T.arange(6.0, requires_grad=True)
    a, b = x.view(2, 3).unbind(0)
    return [(a * b).sum(), b.exp()], None


def _inplace_chain(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    y = w * 2
    y.add_(1)
    y.relu_()
    return y.mean(), {"w": w}


PROGRAMS = [_seed_square, _seed_two_leaves, _mlp, _where_trap, _split_and_views, _inplace_chain]


@pytest.mark.parametrize("prog", PROGRAMS, ids=lambda p: p.__name__.strip("_"))
def test_graph_picture_matches_torch(prog: Any) -> None:
    expected = make_dot(*prog(torch)).source
    assert make_dot(*prog(shadowgrad)).source == expected


@pytest.mark.parametrize("prog", [_seed_two_leaves, _where_trap], ids=["two_leaves", "where"])
def test_saved_tensors_match_torch_for_simple_ops(prog: Any) -> None:
    # for these ops torch saves exactly what we save; larger ops (addmm, nll_loss) save
    # internal sizes and strides that shadowgrad has no use for
    assert make_dot(*prog(shadowgrad), show_saved=True).source == (
        make_dot(*prog(torch), show_saved=True).source
    )


def _inplace_relu_after_sigmoid(T: Any) -> None:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.relu_()
    y.sum().backward()


def _add_after_saved(T: Any) -> None:
    w = T.tensor([1.0, 2.0], requires_grad=True)
    x = T.ones(2)
    y = w * x
    x += 1
    y.sum().backward()


def _add_on_saved_nonleaf(T: Any) -> None:
    a = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    b = a * 1
    y = b * b
    b.add_(1)
    y.sum().backward()


def _where_nan_under_anomaly(T: Any) -> None:
    x = T.tensor([0.0, 1.0], requires_grad=True)
    with T.autograd.set_detect_anomaly(True):
        y = T.where(x > 0, x.sqrt(), 0)
        y.sum().backward()


def _message(prog: Any, T: Any) -> str:
    with pytest.raises(RuntimeError) as e, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prog(T)
    return str(e.value)


ERRORS = [_inplace_relu_after_sigmoid, _add_after_saved, _add_on_saved_nonleaf]


@pytest.mark.parametrize("prog", [*ERRORS, _where_nan_under_anomaly], ids=lambda p: p.__name__)
def test_explained_error_keeps_torchs_message(prog: Any) -> None:
    expected = _message(prog, torch)
    got = _message(prog, shadowgrad)
    assert got.startswith(expected)
    # and whatever is added comes on lines of its own, after torch's text
    assert got == expected or got[len(expected)] == "\n"


def test_explain_nan_names_the_node_torchs_anomaly_mode_names() -> None:
    expected = _message(_where_nan_under_anomaly, torch)
    x = shadowgrad.tensor([0.0, 1.0], requires_grad=True)
    report = explain_nan(shadowgrad.where(x > 0, x.sqrt(), 0).sum())
    assert str(report).splitlines()[0] == expected
