"""Tensor basics: leaf rules, requires_grad, .grad, .data, detach, conversions (section 1, 13)."""

from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad._tensor import NONLEAF_GRAD_WARNING


def test_leaf_and_op_result_state() -> None:
    x = sg.tensor(3.0, requires_grad=True)
    assert x.is_leaf and x.requires_grad and x.grad_fn is None and x.grad is None
    p = sg.tensor([1.0, 2.0])
    assert p.is_leaf and not p.requires_grad
    y = x * 2
    assert not y.is_leaf and y.requires_grad and type(y.grad_fn).__name__ == "MulBackward0"
    z = p + x
    assert z.requires_grad and not z.is_leaf


def test_non_differentiable_results_never_require_grad() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    for r in [x > 1, x.long(), x.to(sg.int32), x == 2]:
        assert not r.requires_grad and r.grad_fn is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: sg.tensor([1, 2], requires_grad=True),
        lambda: sg.ones(2, dtype=sg.long, requires_grad=True),
        lambda: sg.arange(3, requires_grad=True),
        lambda: sg.tensor([True], requires_grad=True),
    ],
)
def test_integer_tensors_cannot_require_grad(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuntimeError) as e:
        make()
    assert str(e.value) == "Only Tensors of floating point and complex dtype can require gradients"


def test_requires_grad_setters_and_their_messages() -> None:
    i = sg.tensor([1, 2])
    with pytest.raises(RuntimeError) as e:
        i.requires_grad_()
    assert str(e.value) == "only Tensors of floating point dtype can require gradients"
    assert i.requires_grad_(False) is i
    with pytest.raises(RuntimeError) as e:
        i.requires_grad = True
    assert str(e.value) == "only Tensors of floating point and complex dtype can require gradients"
    x = sg.ones(2, requires_grad=True)
    y = x * 2
    assert y.requires_grad_() is y
    with pytest.raises(RuntimeError) as e:
        y.requires_grad_(False)
    assert str(e.value).startswith("you can only change requires_grad flags of leaf variables. If")
    with pytest.raises(RuntimeError) as e:
        y.requires_grad = True
    assert str(e.value) == "you can only change requires_grad flags of leaf variables."
    d = y.detach()
    assert d.requires_grad_() is d and d.is_leaf


def test_grad_of_non_leaf_warns_on_every_access() -> None:
    x = sg.tensor(3.0, requires_grad=True)
    y = x**2
    y.backward()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert y.grad is None
        assert y.grad is None
        assert x.grad is not None
    assert [str(m.message) for m in w] == [NONLEAF_GRAD_WARNING] * 2


def test_retain_grad() -> None:
    x = sg.tensor(3.0, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    (y * y).backward()
    assert y.retains_grad and y.grad.item() == 12.0 and x.grad.item() == 24.0
    assert x.retain_grad() is None and not x.retains_grad
    with pytest.raises(
        RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"
    ):
        sg.ones(1).retain_grad()


def test_retained_grad_runs_after_hooks_and_accumulates_out_of_place() -> None:
    x = sg.ones(2, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.register_hook(lambda g: g * 5)
    y.sum().backward(retain_graph=True)
    np.testing.assert_allclose(y.grad.numpy(), [5.0, 5.0])
    first = y.grad
    y.sum().backward()
    assert y.grad is not first
    np.testing.assert_allclose(y.grad.numpy(), [10.0, 10.0])


def test_detach_shares_storage_and_version() -> None:
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None and not d._is_view()
    d.add_(1)
    np.testing.assert_allclose(x.detach().numpy(), [2.0, 3.0])
    assert x._version == 1 and d._version == 1


def test_data_has_its_own_version_counter() -> None:
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    z = y * y
    y.data.zero_()
    assert y._version == 0
    z.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0, 0.0])


def test_assigning_data_and_grad() -> None:
    x = sg.ones(3, requires_grad=True)
    x.data = sg.zeros(5)
    assert x.shape == (5,) and x.requires_grad
    with pytest.raises(RuntimeError, match="must be floating point or complex dtype"):
        x.data = sg.zeros(5, dtype=sg.int64)
    x.grad = sg.ones(5)
    with pytest.raises(RuntimeError) as e:
        x.grad = sg.ones(4)
    assert str(e.value).startswith("attempting to assign a gradient of size '[4]' to a tensor")
    with pytest.raises(RuntimeError, match="attempting to assign a gradient with dtype 'double'"):
        x.grad = sg.ones(5, dtype=sg.float64)
    with pytest.raises(TypeError, match="but got grad of type int"):
        x.grad = 3  # type: ignore[assignment]
    x.grad = None


def test_detach_in_place() -> None:
    x = sg.ones(2, requires_grad=True)
    y = x * 2
    y.detach_()
    assert y.is_leaf and not y.requires_grad and y.grad_fn is None
    v = (x * 2)[0:1]
    with pytest.raises(RuntimeError, match="Can't detach views in-place"):
        v.detach_()


def test_clone_and_copy_idiom() -> None:
    x = sg.ones(2, requires_grad=True)
    c = x.clone()
    assert type(c.grad_fn).__name__ == "CloneBackward0"
    y = x.clone().detach().requires_grad_()
    assert y.is_leaf and y.requires_grad


def test_tensor_from_tensor_warns_and_copies() -> None:
    x = sg.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        t = sg.tensor(x)
    assert not t.requires_grad and t.is_leaf


def test_as_tensor_of_tensor_returns_it() -> None:
    x = sg.ones(2, requires_grad=True)
    assert sg.as_tensor(x) is x


def test_views_of_grad_requiring_leaf_are_not_leaves() -> None:
    x = sg.ones(3, requires_grad=True)
    assert not x[0:2].is_leaf
    assert not x.view(3).is_leaf
    assert x.detach()[0:2].is_leaf


def test_item_tolist_numpy() -> None:
    x = sg.tensor([[2.5]], requires_grad=True)
    assert x.item() == 2.5 and isinstance(x.item(), float)
    assert sg.tensor([1, 2]).tolist() == [1, 2]
    assert sg.tensor(3).tolist() == 3
    with pytest.raises(
        RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"
    ):
        sg.ones(2).item()
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        x.numpy()
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        np.asarray(x)
    assert x.numpy(force=True).shape == (1, 1)
    d = x.detach().numpy()
    d[0, 0] = 7.0
    assert x.item() == 7.0


def test_python_conversions_and_errors() -> None:
    with pytest.raises(
        RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"
    ):
        bool(sg.ones(2))
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(sg.tensor(1.0))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(sg.tensor(1.0))
    assert f"{sg.tensor(3.0):.2f}" == "3.00"
    with pytest.raises(TypeError, match=r"unsupported format string passed to Tensor\.__format__"):
        format(sg.ones(2), ".2f")
    x = sg.ones(2, requires_grad=True)
    parts = list(x * 1)
    assert type(parts[0].grad_fn).__name__ == "UnbindBackward0"


def test_repr_of_leaves_and_results() -> None:
    x = sg.tensor(3.0, requires_grad=True)
    assert repr(x) == "tensor(3., requires_grad=True)"
    y = x * 2 + 4
    assert repr(y) == "tensor(10., grad_fn=<AddBackward0>)"
    d = sg.tensor([2.0, 4.0], dtype=sg.float64, requires_grad=True) * 1
    assert repr(d) == "tensor([2., 4.], dtype=torch.float64, grad_fn=<MulBackward0>)"
    assert str(sg.Size([2, 3])) == "torch.Size([2, 3])"


def test_misc_tensor_api() -> None:
    x = sg.ones(2, 3)
    assert x.type() == "torch.FloatTensor"
    assert sg.tensor(1.0).shape == sg.Size([])
    assert x.dim() == x.ndim == 2 and x.numel() == 6
    assert repr(x.device) == "device(type='cpu')"
    r = x == 1.0
    assert r.dtype is sg.bool and not r.requires_grad
    assert x.add_(1) is x
    assert not x.new_tensor([1.0]).requires_grad
    assert x.contiguous() is x
    assert x.float() is x


def test_deepcopy_and_pickle() -> None:
    x = sg.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    c = copy.deepcopy(x)
    assert c.requires_grad and c.grad is not None and c.grad is not x.grad
    with pytest.raises(RuntimeError, match="Only Tensors created explicitly by the user"):
        copy.deepcopy(x * 2)
    p = pickle.loads(pickle.dumps(x))
    assert p.requires_grad
    np.testing.assert_allclose(p.detach().numpy(), x.detach().numpy())


def test_in_place_on_leaf_that_requires_grad_raises() -> None:
    x = sg.ones(3, requires_grad=True)
    for f in [lambda: x.add_(1), lambda: x.zero_(), lambda: x.copy_(sg.ones(3))]:
        with pytest.raises(RuntimeError) as e:
            f()
        assert str(e.value) == (
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x += 1


def test_in_place_on_non_leaf_rebases_the_graph() -> None:
    x = sg.ones(3, requires_grad=True)
    y = x * 2
    y.add_(1)
    assert y.grad_fn.name() == "AddBackward0" and y._version == 1
    nf = y.grad_fn.next_functions
    assert type(nf[0][0]).__name__ == "MulBackward0" and nf[1] == (None, 0)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])


def test_plain_tensor_modified_with_grad_requiring_value() -> None:
    x = sg.ones(3, requires_grad=True)
    a = sg.zeros(3)
    a.add_(x)
    assert a.requires_grad and not a.is_leaf and a.grad_fn.name() == "AddBackward0"


def test_saved_tensor_modified_in_place_raises_at_backward() -> None:
    x = sg.ones(3, requires_grad=True)
    y = x.sigmoid()  # SigmoidBackward0 saves its output y
    y.mul_(2)
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    msg = str(e.value)
    assert msg.startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
        "expected version 0 instead. Hint: enable anomaly detection"
    )


def test_int_in_place_cannot_promote() -> None:
    i = sg.tensor([1, 2])
    with pytest.raises(RuntimeError) as e:
        i.add_(1.5)
    assert str(e.value) == "result type Float can't be cast to the desired output type Long"
    f = sg.ones(2)
    f.add_(sg.ones(2, dtype=sg.float64))
    assert f.dtype is sg.float32


def test_tensor_and_node_attribute_writes_stay_on_cpythons_fast_path() -> None:
    # A Python-level __setattr__ or __delattr__ on Tensor (or a node class) makes CPython route
    # every attribute write through a slot wrapper: each op creates a tensor and a node and sets
    # several attributes on both, so such a method once cost ~1.7 us per op (W1 0.62 -> 0.74).
    # Guard deletion of particular attributes with property deleters instead.
    from shadowgrad.autograd.graph import AccumulateGrad, Node
    from shadowgrad.ops.registry import REGISTRY

    x = sg.ones(2, requires_grad=True)
    classes = [sg.Tensor, sg.nn.Parameter, Node, AccumulateGrad, type((x * 2).grad_fn)]
    classes += [REGISTRY["mul.Tensor"].node_cls, REGISTRY["add.Tensor"].node_cls]
    for cls in classes:
        assert cls.__setattr__ is object.__setattr__, cls
        assert cls.__delattr__ is object.__delattr__, cls
