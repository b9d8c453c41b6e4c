"""nn.Module, Parameter, containers and layers, checked without torch."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import shadowgrad as sg
import shadowgrad.nn as nn
from shadowgrad.autograd import gradcheck


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
        self.scale = nn.Parameter(sg.ones(2))
        self.register_buffer("count", sg.zeros(1))
        self.register_buffer("cache", sg.zeros(1), persistent=False)

    def forward(self, x):
        return self.body(x) * self.scale


def test_parameters_are_registered_in_definition_order():
    m = Net()
    assert [n for n, _ in m.named_parameters()] == [
        "scale",
        "body.0.weight",
        "body.0.bias",
        "body.2.weight",
        "body.2.bias",
    ]
    assert [n for n, _ in m.named_buffers()] == ["count", "cache"]
    assert list(m.state_dict()) == [
        "scale",
        "count",
        "body.0.weight",
        "body.0.bias",
        "body.2.weight",
        "body.2.bias",
    ]


def test_shared_submodule_is_listed_once_unless_duplicates_requested():
    m = nn.Module()
    lin = nn.Linear(2, 2)
    m.a = lin
    m.b = lin
    assert [n for n, _ in m.named_parameters()] == ["a.weight", "a.bias"]
    assert len(list(m.named_parameters(remove_duplicate=False))) == 4
    assert [n for n, _ in m.named_modules()] == ["", "a"]


def test_assigning_a_plain_tensor_to_a_parameter_name_raises():
    m = nn.Linear(2, 2)
    with pytest.raises(
        TypeError, match=r"cannot assign 'torch\.FloatTensor' as parameter 'weight'"
    ):
        m.weight = sg.ones(2, 2)
    m.weight = nn.Parameter(sg.zeros(2, 2))
    assert isinstance(m.weight, nn.Parameter) and m.weight.sum().item() == 0


def test_parameter_is_a_leaf_that_requires_grad_even_under_no_grad():
    with sg.no_grad():
        p = nn.Parameter(sg.ones(2))
    assert p.requires_grad and p.is_leaf
    assert type(p * 2) is sg.Tensor
    x = sg.ones(2, requires_grad=True) * 2
    q = nn.Parameter(x)
    assert q.grad_fn is None and q.is_leaf
    assert repr(nn.Parameter(sg.tensor([1.0, 1.0]))) == (
        "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    )


def test_state_dict_round_trip_restores_values_in_place():
    a, b = Net(), Net()
    w = b.body[0].weight
    res = b.load_state_dict(a.state_dict())
    assert repr(res) == "<All keys matched successfully>"
    assert b.body[0].weight is w
    for (ka, va), (kb, vb) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        assert ka == kb
        np.testing.assert_array_equal(va.numpy(), vb.numpy())


def test_load_state_dict_reports_missing_unexpected_and_size_mismatch():
    m = Net()
    sd = m.state_dict()
    del sd["scale"]
    sd["body.5.weight"] = sg.ones(1)
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict(sd)
    assert str(e.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "scale". '
        '\n\tUnexpected key(s) in state_dict: "body.5.weight". '
    )
    res = m.load_state_dict(sd, strict=False)
    assert res.missing_keys == ["scale"] and res.unexpected_keys == ["body.5.weight"]
    sd = m.state_dict()
    sd["body.0.bias"] = sg.ones(5)
    with pytest.raises(RuntimeError, match=r"size mismatch for body\.0\.bias"):
        m.load_state_dict(sd, strict=False)


def test_train_eval_propagate_and_zero_grad_sets_none():
    m = Net()
    m.eval()
    assert not any(mod.training for mod in m.modules())
    m.train()
    assert all(mod.training for mod in m.modules())
    m(sg.ones(1, 3)).sum().backward()
    assert all(p.grad is not None for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())


def test_to_double_keeps_parameter_identity():
    m = Net()
    w = m.body[0].weight
    m.double()
    assert m.body[0].weight is w and w.dtype is sg.float64
    assert m.count.dtype is sg.float64


def test_deepcopy_gives_independent_parameters():
    m = Net()
    m2 = copy.deepcopy(m)
    with sg.no_grad():
        m2.body[0].weight.fill_(0.0)
    assert m.body[0].weight.abs().sum().item() > 0


def test_sequential_indexing_slicing_len_append():
    s = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Tanh())
    assert len(s) == 3 and isinstance(s[-1], nn.Tanh)
    assert isinstance(s[1:], nn.Sequential) and len(s[1:]) == 2
    s.append(nn.Identity())
    assert list(s._modules) == ["0", "1", "2", "3"]
    del s[0]
    assert list(s._modules) == ["0", "1", "2"] and isinstance(s[0], nn.ReLU)


def test_forward_hooks_can_replace_inputs_and_outputs():
    lin = nn.Identity()
    h = lin.register_forward_pre_hook(lambda m, args: (args[0] + 1,))
    lin.register_forward_hook(lambda m, args, out: out * 10)
    assert lin(sg.tensor([1.0])).tolist() == [20.0]
    h.remove()
    assert lin(sg.tensor([1.0])).tolist() == [10.0]


def test_linear_gradcheck_in_float64():
    lin = nn.Linear(3, 2).double()
    x = sg.randn(4, 3, dtype=sg.float64, requires_grad=True)
    assert gradcheck(lambda x, w, b: nn.functional.linear(x, w, b), (x, lin.weight, lin.bias))


@given(
    batch=st.integers(0, 4),
    shape=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    start=st.integers(0, 1),
)
def test_flatten_matches_reshape(batch, shape, start):
    x = sg.randn(batch, *shape)
    out = nn.Flatten(start)(x)
    expected = (int(np.prod([batch, *shape])),) if start == 0 else (batch, int(np.prod(shape)))
    assert tuple(out.shape) == expected


def test_batchnorm_tracks_running_stats_and_uses_them_in_eval():
    bn = nn.BatchNorm1d(2, momentum=0.5)
    x = sg.tensor([[1.0, 2.0], [3.0, 6.0]])
    bn(x)
    assert bn.num_batches_tracked.item() == 1
    # momentum 0.5: running = 0.5 * 0 + 0.5 * batch mean; unbiased variance for the update
    np.testing.assert_allclose(bn.running_mean.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(bn.running_var.numpy(), [0.5 + 0.5 * 2.0, 0.5 + 0.5 * 8.0])
    bn.eval()
    out = bn(x)
    expected = (x.numpy() - bn.running_mean.numpy()) / np.sqrt(bn.running_var.numpy() + 1e-5)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-5)


def test_embedding_padding_row_is_zero_and_gets_no_grad():
    emb = nn.Embedding(4, 3, padding_idx=0)
    assert emb.weight[0].abs().sum().item() == 0
    emb(sg.tensor([0, 2, 0])).sum().backward()
    g = emb.weight.grad.numpy()
    assert (g[0] == 0).all() and (g[2] == 1).all()
