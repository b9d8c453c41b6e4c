"""The backward engine: depth, order, accumulation, freeing, and its errors (sections 1-3)."""

from __future__ import annotations

import gc
import sys
import weakref

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd.graph import SECOND_TIME


def test_million_node_chain_runs_without_recursion() -> None:
    limit = sys.getrecursionlimit()
    x = sg.tensor(1.0, requires_grad=True)
    y = x
    n = 1_000_000
    for _ in range(n):
        y = y + 1.0
    y.backward()
    assert sys.getrecursionlimit() == limit
    assert x.grad.item() == 1.0
    assert y.item() == n + 1


def test_deep_chain_is_freed_by_refcounting_alone() -> None:
    gc.disable()
    try:
        x = sg.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(20_000):
            y = y * 1.0
        ref = weakref.ref(y.grad_fn)
        del y
        assert ref() is None, "the graph holds a reference cycle"
    finally:
        gc.enable()


def test_saved_tensors_are_released_after_backward_while_output_lives() -> None:
    gc.disable()
    try:
        x = sg.randn(1000, requires_grad=True)
        h = x * 2
        z = (h * h).sum()  # MulBackward0 saves h twice
        ref = weakref.ref(h)
        del h
        assert ref() is not None  # kept alive by the graph
        z.backward()
        assert ref() is None, "saved tensor kept after backward without retain_graph"
        assert z.grad_fn is not None  # the output and its node are still alive
    finally:
        gc.enable()


def test_saved_output_does_not_create_a_cycle() -> None:
    gc.disable()
    try:
        x = sg.randn(10, requires_grad=True)
        y = x.exp()  # ExpBackward0 saves its own output
        node_ref = weakref.ref(y.grad_fn)
        data_ref = weakref.ref(y._data)
        del y
        assert node_ref() is None
        assert data_ref() is None
    finally:
        gc.enable()


def test_retain_graph_keeps_saved_values() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    z = (x * x).sum()
    z.backward(retain_graph=True)
    z.backward(retain_graph=True)
    z.backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])
    with pytest.raises(RuntimeError) as e:
        z.backward()
    assert str(e.value) == SECOND_TIME


@pytest.mark.parametrize(
    "build",
    [
        lambda x: (x + 2).sum(),
        lambda x: x.sum(),
        lambda x: (x - 1).mean(),
    ],
)
def test_second_backward_without_saved_tensors_is_allowed(build) -> None:  # type: ignore[no-untyped-def]
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = build(x)
    y.backward()
    first = x.grad.clone()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first.numpy())


@pytest.mark.parametrize(
    "build",
    [
        lambda x: (x * 2).sum(),
        lambda x: (2 * x).sum(),
        lambda x: (x * x).sum(),
        lambda x: x.exp().sum(),
        lambda x: (x / 2).sum(),
        lambda x: (x**2).sum(),
    ],
)
def test_second_backward_through_saved_tensors_raises(build) -> None:  # type: ignore[no-untyped-def]
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = build(x)
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_grad_accumulates_in_place_into_the_same_object() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    g = x.grad
    assert g._version == 0
    (x * 3).sum().backward()
    assert x.grad is g
    assert g._version == 1
    np.testing.assert_allclose(g.numpy(), [6.0, 6.0])


def test_first_grad_is_never_the_callers_gradient() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    g = sg.tensor([1.0, 1.0])
    x.backward(g)
    assert x.grad is not g
    g.mul_(5)
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0])


def test_create_graph_accumulates_out_of_place() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (x**3).sum().backward(create_graph=True)
    g1 = x.grad
    assert g1.requires_grad
    assert type(g1.grad_fn).__name__ == "CopyBackwards"
    (x**3).sum().backward(create_graph=True)
    assert x.grad is not g1
    assert type(x.grad.grad_fn).__name__ == "AddBackward0"
    np.testing.assert_allclose(g1.detach().numpy(), [3.0, 12.0])
    np.testing.assert_allclose(x.grad.detach().numpy(), [6.0, 24.0])


def test_implicit_gradient_needs_one_element() -> None:
    for shape in [(), (1,), (1, 1)]:
        x = sg.ones(shape, requires_grad=True)
        (x * 2).backward()
        assert x.grad.shape == x.shape
    for shape in [(3,), (0,)]:
        x = sg.ones(shape, requires_grad=True)
        with pytest.raises(
            RuntimeError, match=r"^grad can be implicitly created only for scalar outputs$"
        ):
            (x * 2).backward()


def test_gradient_shape_must_match_exactly() -> None:
    x = sg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        (x * 2).backward(sg.ones(2))
    assert str(e.value) == (
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a "
        "shape of torch.Size([3])."
    )


def test_gradient_of_other_dtype_is_cast() -> None:
    x = sg.ones(3, requires_grad=True)
    (x * 2).backward(sg.ones(3, dtype=sg.float64))
    assert x.grad.dtype is sg.float32


def test_gradient_argument_type_errors() -> None:
    x = sg.ones(3, requires_grad=True)
    with pytest.raises(TypeError, match="'float' object is not iterable"):
        (x * 2).backward(2.0)
    with pytest.raises(TypeError, match="gradients can be either Tensors or None, but got float"):
        (x * 2).backward([1.0, 1.0, 1.0])


def test_backward_on_tensor_without_grad_raises() -> None:
    for t in [sg.ones(1), sg.ones(1, dtype=sg.int64)]:
        with pytest.raises(RuntimeError) as e:
            t.backward()
        assert str(e.value) == (
            "element 0 of tensors does not require grad and does not have a grad_fn"
        )


def test_backward_inputs_argument() -> None:
    a = sg.tensor(2.0, requires_grad=True)
    b = sg.tensor(3.0, requires_grad=True)
    c = a * b
    c.backward(inputs=[a])
    assert a.grad.item() == 3.0
    assert b.grad is None
    with pytest.raises(
        RuntimeError, match=r"`inputs` argument to `backward\(\)` cannot be empty\."
    ):
        (a * b).backward(inputs=[])
    with pytest.raises(
        RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"
    ):
        (a * b).backward(inputs=[sg.ones(1)])


def test_backward_inputs_non_leaf_gets_grad() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    (h * h).sum().backward(inputs=[h])
    np.testing.assert_allclose(h.grad.numpy(), [4.0, 8.0])
    assert x.grad is None


def test_tensor_used_twice_sums_contributions() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (x + x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


def test_backward_through_view_of_output() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y[0].backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 0.0])


def test_backward_on_leaf_itself() -> None:
    x = sg.tensor(2.0, requires_grad=True)
    x.backward()
    x.backward()
    assert x.grad.item() == 2.0


def test_broadcast_grads_are_summed_to_input_shapes() -> None:
    a = sg.ones(3, 1, requires_grad=True)
    b = sg.ones(1, 4, requires_grad=True)
    c = sg.ones(4, requires_grad=True)
    s = sg.tensor(2.0, requires_grad=True)
    (a * b + c * s).sum().backward()
    assert a.grad.shape == (3, 1)
    assert b.grad.shape == (1, 4)
    assert c.grad.shape == (4,)
    assert s.grad.shape == ()
    np.testing.assert_allclose(a.grad.numpy(), np.full((3, 1), 4.0))  # summed over b's 4
    np.testing.assert_allclose(c.grad.numpy(), np.full(4, 6.0))  # s=2, summed over 3 rows
    assert s.grad.item() == 12.0  # c summed over all 12 broadcast elements


def test_grad_dtype_follows_the_leaf() -> None:
    a = sg.ones(2, requires_grad=True)
    b = sg.ones(2, dtype=sg.float64, requires_grad=True)
    r = a * b
    assert r.dtype is sg.float64
    r.sum().backward()
    assert a.grad.dtype is sg.float32
    assert b.grad.dtype is sg.float64


def test_execution_order_follows_sequence_numbers() -> None:
    order: list[str] = []
    x = sg.tensor(1.0, requires_grad=True)
    a = x * 2
    b = x * 3
    c = a + b
    a.register_hook(lambda g: order.append("a"))
    b.register_hook(lambda g: order.append("b"))
    c.register_hook(lambda g: order.append("c"))
    c.backward()
    assert order == ["c", "b", "a"]  # b was created after a, so it runs first


def test_hook_sees_summed_grad_once() -> None:
    seen: list[float] = []
    q = sg.tensor(1.0, requires_grad=True)
    a = q * 2
    a.register_hook(lambda g: seen.append(g.item()))
    (a * 3 + a * 4).backward()
    assert seen == [7.0]


def test_autograd_grad_basic_and_options() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = sg.tensor([3.0, 4.0], requires_grad=True)
    (gx,) = sg.autograd.grad((x * x).sum(), x)
    np.testing.assert_allclose(gx.numpy(), [2.0, 4.0])
    assert x.grad is None
    with pytest.raises(RuntimeError) as e:
        sg.autograd.grad((x * 2).sum(), [x, y])
    assert str(e.value) == (
        "The differentiated Tensor at index 1 appears to not have been used in the graph. Set "
        "allow_unused=True if this is the desired behavior."
    )
    gx, gy = sg.autograd.grad((x * 2).sum(), [x, y], allow_unused=True)
    assert gy is None
    gx, gy = sg.autograd.grad((x * 2).sum(), [x, y], materialize_grads=True)
    np.testing.assert_allclose(gy.numpy(), [0.0, 0.0])
    with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed"):
        sg.autograd.grad((x * 2).sum(), [x], materialize_grads=True, allow_unused=False)
    with pytest.raises(
        RuntimeError, match="One of the differentiated Tensors does not require grad"
    ):
        sg.autograd.grad((x * 2).sum(), [sg.ones(2)])
    with pytest.raises(RuntimeError, match="cannot be empty"):
        sg.autograd.grad((x * 2).sum(), [])
    with pytest.raises(RuntimeError, match="got 2 tensors and 1 gradients"):
        sg.autograd.grad([(x * 2).sum(), (x * 3).sum()], x, [None])


def test_autograd_grad_multiple_outputs_and_dict_inputs() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = sg.autograd.grad([(x * 2).sum(), (x * 3).sum()], x)
    np.testing.assert_allclose(g.numpy(), [5.0, 5.0])
    a = sg.tensor(2.0, requires_grad=True)
    b = sg.tensor(3.0, requires_grad=True)
    d = sg.autograd.grad(a * b, {"a": a, "b": b})
    assert set(d) == {"a", "b"}
    assert d["a"].item() == 3.0 and d["b"].item() == 2.0


def test_autograd_grad_wrt_non_leaf_and_itself() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    (g,) = sg.autograd.grad((h * h).sum(), h)
    np.testing.assert_allclose(g.numpy(), [4.0, 8.0])
    (g,) = sg.autograd.grad(x, x, sg.ones(2))
    np.testing.assert_allclose(g.numpy(), [1.0, 1.0])
    g1, g2 = sg.autograd.grad((x * 3).sum(), [x, x])
    np.testing.assert_allclose(g1.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(g2.numpy(), [3.0, 3.0])


def test_higher_order_gradients() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (g1,) = sg.autograd.grad((x**3).sum(), x, create_graph=True)
    assert type(g1.grad_fn).__name__ == "MulBackward0"
    (g2,) = sg.autograd.grad(g1.sum(), x, create_graph=True)
    (g3,) = sg.autograd.grad(g2.sum(), x)
    np.testing.assert_allclose(g1.detach().numpy(), [3.0, 12.0])
    np.testing.assert_allclose(g2.detach().numpy(), [6.0, 12.0])
    np.testing.assert_allclose(g3.numpy(), [6.0, 6.0])


def test_grad_independent_of_input_under_create_graph_does_not_require_grad() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = sg.autograd.grad((x * 2).sum(), x, create_graph=True)
    assert not g.requires_grad


def test_grad_mode_inside_backward_equals_create_graph() -> None:
    modes: list[bool] = []
    x = sg.tensor(1.0, requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: modes.append(sg.is_grad_enabled()))
    y.backward(retain_graph=True)
    y.backward(create_graph=True)
    assert modes == [False, True]
    x.grad = None


def test_next_functions_and_accumulate_grad() -> None:
    x = sg.tensor([1.0], requires_grad=True)
    y = x + 1
    nf = y.grad_fn.next_functions
    assert type(nf[0][0]).__name__ == "AccumulateGrad"
    assert nf[0][0].variable is x
    assert nf[1] == (None, 0)
    assert nf[0][0].name() == "torch::autograd::AccumulateGrad"
    z = x * 2
    assert z.grad_fn.next_functions[0][0] is nf[0][0]  # cached per leaf
    assert y.grad_fn is y.grad_fn
    assert isinstance(y.grad_fn, sg.autograd.graph.Node)


def test_node_call_runs_its_formula() -> None:
    a = sg.tensor([1.0, 2.0], requires_grad=True)
    b = sg.tensor([3.0, 4.0], requires_grad=True)
    y = a * b
    ga, gb = y.grad_fn(sg.ones(2))
    np.testing.assert_allclose(ga.detach().numpy(), [3.0, 4.0])
    np.testing.assert_allclose(gb.detach().numpy(), [1.0, 2.0])


def test_saved_attributes_and_freed_access() -> None:
    a = sg.tensor([1.0, 2.0], requires_grad=True)
    b = sg.tensor([3.0, 4.0], requires_grad=True)
    y = a * b
    assert y.grad_fn._saved_self is a
    assert y.grad_fn._saved_other is b
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn._saved_self  # noqa: B018


def test_a_saved_python_number_reads_as_a_tensor_and_is_freed_like_one() -> None:
    x = sg.tensor([1.0, 2.0], dtype=sg.float32, requires_grad=True)
    y = x * 2.5
    other = y.grad_fn._saved_other
    assert isinstance(other, sg.Tensor) and other.dim() == 0
    # torch's wrapped number: a 0-d tensor of the Python number's dtype
    assert other.dtype is sg.float64 and other.item() == 2.5
    # the node holds nothing the cyclic collector must traverse for it (deep graphs)
    assert not gc.is_tracked(y.grad_fn._saved)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.5, 2.5])
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn._saved_other  # noqa: B018
    # a create_graph backward reads it as a tensor too: d2/dx2 of 3 x^2 is 6
    w = sg.tensor([1.0, -2.0], dtype=sg.float64, requires_grad=True)
    (g,) = sg.autograd.grad(((w * 3.0) * w).sum(), w, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [6.0, -12.0])
    g.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [6.0, 6.0])


def test_backward_through_an_op_without_complex_formulas_raises_instead_of_a_wrong_gradient() -> (
    None
):
    # an op whose formulas are written for real tensors only (no `complex=` in its defop, Note
    # [Complex gradients]) raises in backward through a complex input or output; forward values
    # and grad_fn names are unaffected
    x = sg.tensor([1 + 2j, -0.5 + 0.3j], requires_grad=True)
    w = sg.ones(1, 1, 1, dtype=sg.complex64)
    y = sg.nn.functional.conv1d(x.reshape(1, 1, 2), w)  # (renorm has complex formulas now)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"
    np.testing.assert_allclose(y.detach().numpy(), [[[1 + 2j, -0.5 + 0.3j]]])
    with pytest.raises(RuntimeError, match="ConvolutionBackward0 has a complex input or output"):
        y.abs().sum().backward()
    assert x.grad is None
    # the ops that declare complex formulas differentiate (compared with torch in
    # compat/test_complex.py): |x * x| = x conj(x), whose gradient in torch's conjugate
    # Wirtinger convention is 2 x
    (x * x).abs().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.array([1 + 2j, -0.5 + 0.3j]))
    # real tensors are not affected
    r = sg.tensor([1.0, 2.0], requires_grad=True)
    (r * r).sum().backward()
    np.testing.assert_array_equal(r.grad.numpy(), [2.0, 4.0])


def test_node_hooks_order_and_replacement() -> None:
    events: list[str] = []
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    gf = y.grad_fn
    gf.register_prehook(lambda go: events.append("pre"))

    def post(gi: tuple, go: tuple) -> tuple:
        events.append("post")
        return (gi[0] * 10, None)

    gf.register_hook(post)
    y.sum().backward()
    assert events == ["pre", "post"]
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 20.0])


def test_node_hook_wrong_length_raises() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gi, go: (gi[0],))
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == (
        "hook '<lambda>' has returned an incorrect number of values (got 1, but expected 2)"
    )


def test_leaf_grads_never_alias_each_other_or_the_callers_arrays() -> None:
    # the engine keeps a fresh gradient without copying it (torch's use_count test); shared
    # ones must be copied
    a = sg.ones(3, requires_grad=True)
    b = sg.ones(3, requires_grad=True)
    (a + b).sum().backward()  # AddBackward0 hands the same gradient to both leaves
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    g = sg.ones(3)
    y = sg.ones(3, requires_grad=True)
    y.backward(g)
    assert not np.shares_memory(y.grad.numpy(), g.numpy())
    x = sg.ones(3, requires_grad=True)
    h = x + 0
    h.retain_grad()
    h.sum().backward()
    assert not np.shares_memory(x.grad.numpy(), h.grad.numpy())
    v = sg.tensor(-2.0, requires_grad=True)
    v.sum().backward()
    assert v.grad.shape == ()


def test_a_chain_node_is_the_only_object_the_collector_tracks_for_it() -> None:
    # Note [Edge slots]: a node whose only input requiring grad is the first keeps its edge in
    # slots, so the collector tracks one object per node, not the node plus two edge tuples
    # (ops that save a tensor add the SavedTensor, its dict and a version counter)
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1.0
    gc.collect()
    before = {id(o) for o in gc.get_objects()}
    for _ in range(200):
        y = (y * 1.5 + 0.5).neg()
    new = [o for o in gc.get_objects() if id(o) not in before]
    nodes = [o for o in new if isinstance(o, sg.autograd.graph.Node)]
    assert len(nodes) == 600
    assert len(new) <= len(nodes) + 30, sorted({type(o).__name__ for o in new})


@pytest.mark.parametrize(
    "pattern",
    ["", "e", "-", "e-", "-e", "ee", "e--", "-e-", "--e", "e-e", "-ee-"],
)
def test_edge_slots_give_back_the_edges_they_were_given(pattern: str) -> None:
    # every arrangement of present (e) and missing (-) edges round-trips through the slots
    leaf = sg.tensor([1.0], requires_grad=True)
    other = (leaf * 2.0).grad_fn
    acc = leaf._edge()[0]
    pool = [(acc, 0), (other, 0), (acc, 0), (other, 0)]
    edges = tuple(pool[i] if c == "e" else None for i, c in enumerate(pattern))
    node = sg.autograd.graph.Node(edges)
    assert node._next == edges
    assert node.next_functions == tuple((None, 0) if e is None else e for e in edges)


def test_saved_numbers_are_shared_read_only_and_keep_their_sign() -> None:
    # Note [Saved numbers]: one read-only 0-d array per number and dtype; the saved value a user
    # reads is their own copy, and zeros (whose sign a key would lose) are never shared
    x = sg.tensor([1.0, -2.0], requires_grad=True)
    y1 = x * 2.5
    y2 = x * 2.5
    a1 = y1.grad_fn.saved_map()["other"]
    assert a1 is y2.grad_fn.saved_map()["other"] and not a1.flags.writeable
    mine = y1.grad_fn._saved_other
    mine.mul_(4.0)  # the user's copy: the shared value is untouched
    assert y2.grad_fn.saved_map()["other"] == 2.5
    (y1 + y2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [5.0, 5.0])
    z = sg.tensor([1.0, 2.0], requires_grad=True)
    (z * -0.0).sum().backward()
    assert np.signbit(z.grad.numpy()).all()
    w = sg.tensor([1.0, 2.0], requires_grad=True)
    (w * 0.0).sum().backward()
    assert not np.signbit(w.grad.numpy()).any()


@pytest.mark.parametrize("case", ["index_select", "gather", "getitem", "mask", "scatter"])
def test_an_index_modified_in_place_after_forward_does_not_change_the_gradient(case: str) -> None:
    # torch's node saves the index tensor and its version check raises at backward; shadowgrad
    # raises the same error (its formulas read their own copy of the index, so a gradient never
    # silently follows the modified index)
    def run(modify: bool) -> np.ndarray:
        x = sg.ones(2, 5, requires_grad=True)
        i = sg.tensor([0, 2])
        m = sg.tensor([True, False, True, False, True])
        if case == "index_select":
            y = x.index_select(1, i)
        elif case == "gather":
            y = x.gather(1, i.expand(2, 2))
        elif case == "getitem":
            y = x[:, i] * sg.tensor([1.0, 2.0])
        elif case == "mask":
            y = x[:, m]
        else:
            y = x.scatter(1, i.expand(2, 2), sg.zeros(2, 2))
        if modify:
            i.add_(1)
            m.logical_not_()
        y.sum().backward()
        return x.grad.numpy()

    run(False)
    with pytest.raises(RuntimeError, match=r"operation: \[(torch\.LongTensor|CPUBoolType) "):
        run(True)
