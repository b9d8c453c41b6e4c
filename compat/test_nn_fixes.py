"""Differential tests of nn fixes: recorded nodes of composites and in-place activations,
instance_norm's and the transposed convolutions' checks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad

from .graphs import _walk

LIBS = [torch, shadowgrad]
_R = np.random.default_rng(11)
A, B = _R.standard_normal((3, 4)), _R.standard_normal((3, 4))


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e), str(e)
    return None


def _both(prog):
    return prog(torch), prog(shadowgrad)


def test_pairwise_distance_records_add_scalar():
    def prog(T):
        x = T.tensor(A, requires_grad=True)
        d = T.nn.functional.pairwise_distance(x, T.tensor(B), eps=1e-3)
        d.sum().backward()
        return d.grad_fn, d.detach().numpy(), x.grad.numpy()

    t, s = _both(prog)
    rows = _walk(t[0], s[0])
    assert not [r for r in rows if r[3]], rows
    for a, b in zip(s[1:], t[1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
@pytest.mark.parametrize("other", [0.0, "tensor"])
def test_inplace_comparison_node_names(name, other):
    def prog(T):
        x = T.tensor(A, requires_grad=True) * 1
        o = T.tensor(B) if other == "tensor" else other
        getattr(x, name)(o)
        return x.grad_fn.name()

    t, s = _both(prog)
    assert s == t


# --- in-place activations -------------------------------------------------------------------

_X = np.array([-1.5, -0.5, 0.0, 0.1, 0.3, 2.0])
ACTS = [
    ("elu", (0.5,)),
    ("selu", ()),
    ("celu", (2.0,)),
    ("leaky_relu", (0.2,)),
    ("threshold", (0.1, 2.0)),
    ("threshold", (0.3, -1.0)),
    ("hardtanh", (-0.5, 0.5)),
    ("relu", ()),
    ("relu6", ()),
]


def _act_prog(T, name, args, fn_name):
    leaf = T.tensor(_X, requires_grad=True)
    x = leaf * 1
    if fn_name.endswith("_"):
        out = getattr(T.nn.functional, fn_name)(x, *args)
    else:
        out = getattr(T.nn.functional, fn_name)(x, *args, inplace=True)
    (g,) = T.autograd.grad(out, leaf, T.arange(6.0, dtype=T.float64) - 2, create_graph=True)
    (gg,) = T.autograd.grad((g * g).sum(), leaf, allow_unused=True, materialize_grads=True)
    values = (out.detach().numpy(), g.detach().numpy(), gg.numpy())
    return (out is x, out.grad_fn.name(), x._version, g.requires_grad), values


@pytest.mark.parametrize("fn_suffix", ["", "_"])
@pytest.mark.parametrize(("name", "args"), ACTS, ids=[f"{a[0]}{a[1]}" for a in ACTS])
def test_inplace_activation_matches_torch(name, args, fn_suffix):
    if fn_suffix and name == "relu6":
        pytest.skip("torch has no F.relu6_")
    fn_name = name + fn_suffix
    t, s = _act_prog(torch, name, args, fn_name), _act_prog(shadowgrad, name, args, fn_name)
    assert s[0] == t[0]
    for a, b in zip(s[1], t[1], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(
    ("name", "args"), [("elu", (-0.5,)), ("celu", (-1.0,)), ("leaky_relu", (-0.2,))]
)
def test_inplace_negative_slope_backward_raises_like_torch(name, args):
    def prog(T):
        x = T.tensor(_X, requires_grad=True) * 1
        out = getattr(T.nn.functional, name)(x, *args, inplace=True)
        return _error(lambda: out.sum().backward())

    t, s = _both(prog)
    assert t is not None
    assert s == t


# --- instance_norm and convolution checks ---------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 3, 1), (2, 3), (2, 3, 1, 1), (2, 3, 2), (2, 3, 0)])
@pytest.mark.parametrize("use_input_stats", [True, False])
def test_instance_norm_spatial_check_matches_torch(shape, use_input_stats):
    def prog(T):
        x = T.tensor(np.ones(shape))
        rm, rv = T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64)
        fn = T.nn.functional.instance_norm
        try:
            out = fn(x, rm, rv, use_input_stats=use_input_stats)
        except Exception as e:
            return type(e), str(e)
        return out.shape

    t, s = _both(prog)
    assert s == t


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("kind", ["conv", "conv_transpose"])
def test_conv_input_dims_error_names_the_function(n, kind):
    def prog(T):
        fn = getattr(T.nn.functional, f"{kind}{n}d")
        return _error(lambda: fn(T.ones(2, 2, 2, 2, 2, 2), T.ones(2, 2, *(2,) * n)))

    t, s = _both(prog)
    assert t is not None
    assert s == t


@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_transpose_scalar_output_padding_matches_torch(n):
    x = _R.standard_normal((1, 2, *(3,) * n))
    w = _R.standard_normal((2, 3, *(2,) * n))

    def prog(T):
        xt = T.tensor(x, requires_grad=True)
        fn = getattr(T.nn.functional, f"conv_transpose{n}d")
        out = fn(xt, T.tensor(w), stride=2, output_padding=1)
        out.sum().backward()
        return tuple(out.shape), out.detach().numpy(), xt.grad.numpy()

    t, s = _both(prog)
    assert s[0] == t[0]
    for a, b in zip(s[1:], t[1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("shape", [(1, 3), (1, 0), (1, 3, 1), (0, 3), (2, 3, 0), (2, 0, 2)])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_small_and_empty_inputs_match_torch(shape, training, affine):
    def prog(T):
        x = T.ones(*shape, dtype=T.float64, requires_grad=True)
        c = shape[1]
        w = T.ones(c, dtype=T.float64, requires_grad=True) if affine else None
        b = T.zeros(c, dtype=T.float64, requires_grad=True) if affine else None
        rm, rv = T.zeros(c, dtype=T.float64), T.ones(c, dtype=T.float64)
        try:
            out = T.nn.functional.batch_norm(x, rm, rv, w, b, training)
        except Exception as e:
            return type(e), str(e)
        return out.grad_fn, out.shape, rm.numpy().tolist(), rv.numpy().tolist()

    t, s = _both(prog)
    if isinstance(t[0], type):
        assert s[0] == t[0]
        # weight[0] of no channels: shadowgrad's indexing words its IndexError differently
        assert s == t or (affine and shape[1] == 0)
        return
    assert s[1:] == t[1:]
    rows = _walk(t[0], s[0])
    assert not [r for r in rows if r[3]], rows


# --- rrelu ----------------------------------------------------------------------------------


@pytest.mark.parametrize("inplace", [False, True])
@pytest.mark.parametrize("bounds", [(0.125, 1 / 3), (0.2, 0.2)])
def test_rrelu_eval_matches_torch(inplace, bounds):
    def prog(T):
        leaf = T.tensor(_X, requires_grad=True)
        out = T.nn.functional.rrelu(leaf * 1, *bounds, False, inplace)
        (g,) = T.autograd.grad(out, leaf, T.arange(6.0, dtype=T.float64) - 2, create_graph=True)
        return out.grad_fn.name(), out.detach().numpy(), g.detach().numpy(), g.requires_grad

    t, s = _both(prog)
    assert s[0] == t[0] and s[3] == t[3]
    for a, b in zip(s[1:3], t[1:3], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("inplace", [False, True])
def test_rrelu_training_draws_slopes_within_bounds_like_torch(inplace):
    def prog(T):
        leaf = T.tensor(np.concatenate([_X, -np.ones(200)]), requires_grad=True)
        out = T.nn.functional.rrelu(leaf * 1, 0.1, 0.3, True, inplace)
        (g,) = T.autograd.grad(out.sum(), leaf, create_graph=True)
        gg = g.grad_fn.name()
        x, y, g = leaf.detach().numpy(), out.detach().numpy(), g.detach().numpy()
        neg = x < 0
        slopes = y[neg] / x[neg]
        ok = bool(np.all((slopes >= 0.1) & (slopes <= 0.3)) and np.allclose(g[neg], slopes))
        return out.grad_fn.name(), gg, ok, y[x > 0].tolist(), g[x > 0].tolist(), len(set(slopes))

    t, s = _both(prog)
    assert s[:5] == t[:5]
    assert s[2] and s[5] > 100


def test_rrelu_module_and_errors_match_torch():
    def prog(T):
        m = T.nn.RReLU(0.1, 0.3, inplace=True)
        x = T.tensor(_X)
        m.eval()
        y = m(x * 1)
        errs = [
            _error(lambda: T.nn.functional.rrelu(T.tensor([1, 2]), training=True)),
            _error(lambda: T.nn.functional.rrelu(x, 0.5, 0.1, training=True)),
        ]
        return repr(m), repr(T.nn.RReLU()), y.numpy().tolist(), errs

    t, s = _both(prog)
    assert s == t


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
def test_cross_entropy_label_smoothing_records_torchs_graph(
    reduction: str, weighted: bool, ignore_index: int
) -> None:
    # torch: (1 - eps) * nll + smooth * (eps / C), mul.Scalar nodes, the smoothing term's
    # ignored targets zeroed with an in-place masked_fill_
    x0 = _R.standard_normal((4, 3)).astype(np.float32)
    w0 = np.array([0.5, 2.0, 1.0], np.float32)

    def prog(T):
        x = T.tensor(x0, requires_grad=True)
        w = T.tensor(w0) if weighted else None
        loss = T.nn.functional.cross_entropy(
            x,
            T.tensor([0, 1, 2, 1]),
            weight=w,
            reduction=reduction,
            ignore_index=ignore_index,
            label_smoothing=0.2,
        )
        loss.sum().backward()
        return loss, x.grad

    t, s = _both(prog)
    rows = _walk(t[0].grad_fn, s[0].grad_fn)
    assert not any(r[3] for r in rows), rows
    np.testing.assert_allclose(s[0].detach().numpy(), t[0].detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(s[1].numpy(), t[1].numpy(), rtol=1e-5, atol=1e-7)
