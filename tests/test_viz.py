"""shadowgrad.viz.make_dot: the DOT text of backward graphs, compared with expecttest.

The programs are the seed notes' examples (/work/shared/seeds) and a small MLP. Update the
expected text with `EXPECTTEST_ACCEPT=1 python -m pytest tests/test_viz.py`, then read the diff:
compat/test_explain.py checks that torch's graph of the same program draws the same text.
"""

from __future__ import annotations

import shutil
import sys

import expecttest
import pytest

import shadowgrad as torch
from shadowgrad.viz import Dot, make_dot


def _mlp() -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    loss = torch.nn.functional.cross_entropy(model(torch.ones(5, 3)), torch.tensor([0, 1, 1, 0, 1]))
    return loss, dict(model.named_parameters())


class TestMakeDot(expecttest.TestCase):
    def test_seed_square_plus_five(self) -> None:
        x = torch.tensor(3.0, requires_grad=True)
        z = x**2 + 5
        self.assertExpectedInline(
            make_dot(z, params={"x": x}).source,
            """\
digraph {
	graph [size="12,12"]
	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
	o0 [label="() float32" fillcolor=darkolivegreen1]
	n0 -> o0
	n0 [label="AddBackward0"]
	n1 -> n0
	n1 [label="PowBackward0"]
	n2 -> n1
	n2 [label="AccumulateGrad"]
	v2 [label="x\\n() float32" fillcolor=lightblue]
	v2 -> n2
}
""",
        )

    def test_seed_two_leaves_with_saved(self) -> None:
        a = torch.tensor(2.0, requires_grad=True)
        b = torch.tensor(3.0, requires_grad=True)
        c = a * b + a**2
        self.assertExpectedInline(
            make_dot(c, {"a": a, "b": b}, show_saved=True).source,
            """\
digraph {
	graph [size="12,12"]
	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
	o0 [label="() float32" fillcolor=darkolivegreen1]
	n0 -> o0
	n0 [label="AddBackward0\\nalpha: 1"]
	n1 -> n0
	n2 -> n0
	s0 [label="other\\n() float32" fillcolor=orange]
	s0 -> n1 [dir=none]
	s1 [label="self\\n() float32" fillcolor=orange]
	s1 -> n1 [dir=none]
	n1 [label="MulBackward0"]
	n3 -> n1
	n4 -> n1
	n3 [label="AccumulateGrad"]
	v3 [label="a\\n() float32" fillcolor=lightblue]
	v3 -> n3
	n4 [label="AccumulateGrad"]
	v4 [label="b\\n() float32" fillcolor=lightblue]
	v4 -> n4
	s2 [label="self\\n() float32" fillcolor=orange]
	s2 -> n2 [dir=none]
	n2 [label="PowBackward0\\nexponent: 2"]
	n3 -> n2
}
""",
        )

    def test_small_mlp(self) -> None:
        loss, params = _mlp()
        self.assertExpectedInline(
            make_dot(loss, params).source,
            """\
digraph {
	graph [size="12,12"]
	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
	o0 [label="() float32" fillcolor=darkolivegreen1]
	n0 -> o0
	n0 [label="NllLossBackward0"]
	n1 -> n0
	n1 [label="LogSoftmaxBackward0"]
	n2 -> n1
	n2 [label="AddmmBackward0"]
	n3 -> n2
	n4 -> n2
	n5 -> n2
	n3 [label="AccumulateGrad"]
	v3 [label="2.bias\\n(2) float32" fillcolor=lightblue]
	v3 -> n3
	n4 [label="ReluBackward0"]
	n6 -> n4
	n6 [label="AddmmBackward0"]
	n7 -> n6
	n8 -> n6
	n7 [label="AccumulateGrad"]
	v7 [label="0.bias\\n(4) float32" fillcolor=lightblue]
	v7 -> n7
	n8 [label="TBackward0"]
	n9 -> n8
	n9 [label="AccumulateGrad"]
	v9 [label="0.weight\\n(4, 3) float32" fillcolor=lightblue]
	v9 -> n9
	n5 [label="TBackward0"]
	n10 -> n5
	n10 [label="AccumulateGrad"]
	v10 [label="2.weight\\n(2, 4) float32" fillcolor=lightblue]
	v10 -> n10
}
""",
        )

    def test_small_mlp_saved(self) -> None:
        loss, params = _mlp()
        self.assertExpectedInline(
            make_dot(loss, params, show_saved=True).source,
            """\
digraph {
	graph [size="12,12"]
	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
	o0 [label="() float32" fillcolor=darkolivegreen1]
	n0 -> o0
	s0 [label="self\\n(5, 2) float32" fillcolor=orange]
	s0 -> n0 [dir=none]
	s1 [label="target\\n(5) int64" fillcolor=orange]
	s1 -> n0 [dir=none]
	n0 [label="NllLossBackward0\\nignore_index: -100\\nreduction: 1\\nweight: None"]
	n1 -> n0
	s2 [label="result\\n(5, 2) float32" fillcolor=orange]
	s2 -> n1 [dir=none]
	n1 [label="LogSoftmaxBackward0\\ndim: 1"]
	n2 -> n1
	s3 [label="mat1\\n(5, 4) float32" fillcolor=orange]
	s3 -> n2 [dir=none]
	s4 [label="mat2\\n(4, 2) float32" fillcolor=orange]
	s4 -> n2 [dir=none]
	n2 [label="AddmmBackward0\\nalpha: 1\\nbeta: 1\\nmat1_sym_strides: (4, 1)\\nmat2_sym_strides: (1, 4)"]
	n3 -> n2
	n4 -> n2
	n5 -> n2
	n3 [label="AccumulateGrad"]
	v3 [label="2.bias\\n(2) float32" fillcolor=lightblue]
	v3 -> n3
	s5 [label="result\\n(5, 4) float32" fillcolor=orange]
	s5 -> n4 [dir=none]
	n4 [label="ReluBackward0"]
	n6 -> n4
	s6 [label="mat1\\n(5, 3) float32" fillcolor=orange]
	s6 -> n6 [dir=none]
	n6 [label="AddmmBackward0\\nalpha: 1\\nbeta: 1\\nmat2_sym_strides: (1, 3)"]
	n7 -> n6
	n8 -> n6
	n7 [label="AccumulateGrad"]
	v7 [label="0.bias\\n(4) float32" fillcolor=lightblue]
	v7 -> n7
	n8 [label="TBackward0"]
	n9 -> n8
	n9 [label="AccumulateGrad"]
	v9 [label="0.weight\\n(4, 3) float32" fillcolor=lightblue]
	v9 -> n9
	n5 [label="TBackward0"]
	n10 -> n5
	n10 [label="AccumulateGrad"]
	v10 [label="2.weight\\n(2, 4) float32" fillcolor=lightblue]
	v10 -> n10
}
""",
        )

    def test_several_outputs_share_nodes_and_unnamed_leaves(self) -> None:
        x = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
        y = x.exp()
        self.assertExpectedInline(
            make_dot((y.sum(), y.mean(1))).source,
            """\
digraph {
	graph [size="12,12"]
	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
	o0 [label="() float64" fillcolor=darkolivegreen1]
	n0 -> o0
	o1 [label="(2) float64" fillcolor=darkolivegreen1]
	n1 -> o1
	n0 [label="SumBackward0"]
	n2 -> n0
	n2 [label="ExpBackward0"]
	n3 -> n2
	n3 [label="AccumulateGrad"]
	v3 [label="(2, 3) float64" fillcolor=lightblue]
	v3 -> n3
	n1 [label="MeanBackward1"]
	n2 -> n1
}
""",
        )


def test_each_node_is_drawn_once_and_every_edge_is_drawn() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x  # two edges from one AccumulateGrad into MulBackward0
    z = y + y
    src = make_dot(z).source
    assert src.count('[label="AccumulateGrad"]') == 1
    assert src.count('[label="MulBackward0"]') == 1
    assert src.count("n2 -> n1\n") == 2  # x's node feeds both inputs of the mul
    assert src.count("n1 -> n0\n") == 2  # y feeds both inputs of the add


def test_leaf_and_no_grad_outputs_have_no_nodes() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    src = make_dot([x, torch.zeros(3)]).source
    assert "->" not in src
    assert src.count("fillcolor=darkolivegreen1") == 2


def test_multi_output_edge_is_labelled_with_its_output_number() -> None:
    x = torch.arange(6.0, requires_grad=True)
    a, b = x.split(3)
    src = make_dot(b).source
    assert "SplitBackward0" in src
    assert "n0 -> o0\n" in src and '[label="1"]' not in src.split("n0 -> o0")[0]
    src2 = make_dot(a * b).source
    assert '-> n0 [label="1"]' in src2


def test_saved_values_freed_after_backward_are_marked() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    assert 'label="result\\n(freed)"' in make_dot(y, show_saved=True).source


def test_quotes_and_backslashes_in_names_are_escaped() -> None:
    x = torch.tensor(1.0, requires_grad=True)
    src = make_dot(x * 2, params={'w"\\': x}).source
    assert 'label="w\\"\\\\\\n() float32"' in src


def test_deep_chain_does_not_recurse() -> None:
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(3 * sys.getrecursionlimit()):
        y = y * 1.0
    assert make_dot(y).source.count("MulBackward0") == 3 * sys.getrecursionlimit()


def test_render_without_graphviz_raises_and_repr_svg_falls_back(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)  # `import graphviz` fails
    monkeypatch.setattr(shutil, "which", lambda name: None)
    dot = make_dot(torch.tensor(1.0, requires_grad=True).exp())
    with pytest.raises(RuntimeError, match="needs the graphviz program 'dot'"):
        dot.render(str(tmp_path / "g"))
    assert dot._repr_svg_() is None
    assert str(dot) == dot.source


@pytest.mark.skipif(shutil.which("dot") is None, reason="the graphviz program is not installed")
def test_render_writes_source_and_picture(tmp_path) -> None:
    dot = make_dot(torch.tensor(1.0, requires_grad=True).exp(), show_saved=True)
    path = dot.render(str(tmp_path / "g"), format="svg")
    assert path == str(tmp_path / "g.svg")
    assert (tmp_path / "g").read_text() == dot.source
    svg = (tmp_path / "g.svg").read_text()
    assert "<svg" in svg and "ExpBackward0" in svg
    assert dot._repr_svg_().startswith("<?xml")  # type: ignore[union-attr]
    with pytest.raises(RuntimeError, match="dot failed"):
        Dot("digraph {").pipe("svg")
