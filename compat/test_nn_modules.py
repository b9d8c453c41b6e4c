"""nn modules against torch: reprs, registration, state dicts, errors, forward/backward values.

Each program is written once against the torch API and run with both libraries. Weights are
copied from torch through numpy so the numbers can be compared.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import shadowgrad
import shadowgrad.nn

LIBS = [torch, shadowgrad]


def _np(t):
    return t.detach().numpy().copy()


def _copy_weights(src, dst):
    """Copy every parameter and buffer of a torch module into the shadowgrad twin."""
    sd = {k: shadowgrad.tensor(v.detach().numpy().copy()) for k, v in src.state_dict().items()}
    dst.load_state_dict(sd)


# --- reprs --------------------------------------------------------------------------------
REPR_CASES = [
    lambda T: T.nn.Linear(3, 1),
    lambda T: T.nn.ZeroPad2d(2),
    lambda T: T.nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 2.0),
    lambda T: T.nn.ReflectionPad1d((2, 1)),
    lambda T: T.nn.ReplicationPad2d(1),
    lambda T: T.nn.CircularPad2d((1, 2, 0, 1)),
    lambda T: T.nn.Linear(3, 2, bias=False),
    lambda T: T.nn.Bilinear(2, 3, 4),
    lambda T: T.nn.Identity(),
    lambda T: T.nn.Conv1d(2, 4, 3, stride=2, padding=1),
    lambda T: T.nn.Conv2d(1, 2, 3),
    lambda T: T.nn.Conv2d(
        4,
        4,
        (3, 5),
        stride=(2, 1),
        padding=(1, 2),
        dilation=2,
        groups=2,
        bias=False,
        padding_mode="reflect",
    ),
    lambda T: T.nn.Conv2d(2, 2, 3, padding="same"),
    lambda T: T.nn.ConvTranspose2d(3, 2, 3, stride=2, output_padding=1),
    lambda T: T.nn.MaxPool2d(2),
    lambda T: T.nn.MaxPool2d((2, 3), stride=1, padding=1, ceil_mode=True),
    lambda T: T.nn.AvgPool2d(3, stride=2),
    lambda T: T.nn.AvgPool1d(3),
    lambda T: T.nn.AdaptiveAvgPool2d((1, 1)),
    lambda T: T.nn.AdaptiveAvgPool2d(5),
    lambda T: T.nn.BatchNorm1d(5),
    lambda T: T.nn.BatchNorm2d(3, eps=1e-3, momentum=None, affine=False, track_running_stats=False),
    lambda T: T.nn.LayerNorm(4),
    lambda T: T.nn.LayerNorm([2, 3], elementwise_affine=False),
    lambda T: T.nn.GroupNorm(2, 4),
    lambda T: T.nn.Dropout(),
    lambda T: T.nn.Dropout(0.2, inplace=True),
    lambda T: T.nn.Embedding(10, 3),
    lambda T: T.nn.Embedding(
        10, 3, padding_idx=-1, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True
    ),
    lambda T: T.nn.Flatten(),
    lambda T: T.nn.Unflatten(1, (2, 3)),
    lambda T: T.nn.ReLU(),
    lambda T: T.nn.ReLU(inplace=True),
    lambda T: T.nn.LeakyReLU(),
    lambda T: T.nn.LeakyReLU(0.2, inplace=True),
    lambda T: T.nn.ELU(alpha=0.5),
    lambda T: T.nn.GELU(),
    lambda T: T.nn.GELU(approximate="tanh"),
    lambda T: T.nn.SiLU(),
    lambda T: T.nn.Mish(),
    lambda T: T.nn.Tanh(),
    lambda T: T.nn.Sigmoid(),
    lambda T: T.nn.Softplus(beta=2, threshold=10),
    lambda T: T.nn.Softmax(dim=1),
    lambda T: T.nn.LogSoftmax(),
    lambda T: T.nn.Hardtanh(-2, 2),
    lambda T: T.nn.ReLU6(),
    lambda T: T.nn.PReLU(3),
    lambda T: T.nn.Threshold(0.1, 20),
    lambda T: T.nn.Softshrink(),
    lambda T: T.nn.GLU(),
    lambda T: T.nn.MSELoss(),
    lambda T: T.nn.CrossEntropyLoss(label_smoothing=0.1),
    lambda T: T.nn.BCEWithLogitsLoss(),
    lambda T: T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 1)),
    lambda T: T.nn.Sequential(
        T.nn.Conv2d(1, 4, 3), T.nn.Sequential(T.nn.BatchNorm2d(4), T.nn.ReLU()), T.nn.Flatten()
    ),
    lambda T: T.nn.ModuleList([T.nn.Linear(2, 2) for _ in range(3)] + [T.nn.ReLU()]),
    lambda T: T.nn.ModuleList(),
    lambda T: T.nn.ModuleDict({"b": T.nn.Linear(1, 2), "a": T.nn.Tanh()}),
    lambda T: T.nn.ParameterList([T.nn.Parameter(T.ones(2, 3)), T.ones(4)]),
    lambda T: T.nn.ParameterDict({"w": T.nn.Parameter(T.ones(2)), "b": T.zeros(3, 1)}),
]


@pytest.mark.parametrize("make", REPR_CASES)
def test_module_repr_matches_torch(make):
    assert repr(make(shadowgrad)) == repr(make(torch))


def test_nested_custom_module_repr_and_names():
    def build(T):
        class Block(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = T.nn.Linear(2, 2)
                self.register_buffer("scale", T.ones(2))
                self.register_buffer("tmp", T.zeros(1), persistent=False)

            def extra_repr(self):
                return "custom=1\nsecond line"

        class Net(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = Block()
                self.b = T.nn.Sequential(Block(), T.nn.ReLU())
                self.shared = self.a
                self.w = T.nn.Parameter(T.ones(3))

        return Net()

    tm, sm = build(torch), build(shadowgrad)
    assert repr(sm) == repr(tm)
    for fn in (
        lambda m: [n for n, _ in m.named_parameters()],
        lambda m: [n for n, _ in m.named_parameters(remove_duplicate=False)],
        lambda m: [n for n, _ in m.named_parameters(recurse=False)],
        lambda m: [n for n, _ in m.named_buffers()],
        lambda m: [n for n, _ in m.named_modules()],
        lambda m: [n for n, _ in m.named_modules(remove_duplicate=False)],
        lambda m: [n for n, _ in m.named_children()],
        lambda m: [(k, tuple(v.shape)) for k, v in m.state_dict().items()],
        lambda m: dict(m.state_dict()._metadata),
        lambda m: type(m.get_submodule("b.0.lin")).__name__,
    ):
        assert fn(sm) == fn(tm)


# --- registration rules and errors ----------------------------------------------------------
def _error(fn):
    try:
        fn()
    except Exception as e:  # the type and message are what is compared
        return type(e).__name__, str(e)
    return None


ERROR_CASES = [
    lambda T: setattr(T.nn.Linear(1, 1), "weight", T.ones(1, 1)),
    lambda T: setattr(T.nn.Sequential(T.nn.ReLU()), "0", 3),
    lambda T: T.nn.Linear(1, 1).register_parameter("a.b", None),
    lambda T: T.nn.Linear(1, 1).register_parameter("", None),
    lambda T: T.nn.Linear(1, 1).register_parameter("x", T.ones(1)),
    lambda T: T.nn.Linear(1, 1).register_parameter("in_features", None),
    lambda T: T.nn.Linear(1, 1).register_buffer("weight", T.ones(1)),
    lambda T: T.nn.Linear(1, 1).register_buffer("b.c", T.ones(1)),
    lambda T: T.nn.Linear(1, 1).register_buffer("x", 3),
    lambda T: T.nn.Linear(1, 1).add_module("x", 3),
    lambda T: T.nn.Linear(1, 1).add_module("a.b", T.nn.ReLU()),
    lambda T: T.nn.Linear(1, 1).nonexistent,
    lambda T: T.nn.Linear(1, 1).get_submodule("foo"),
    lambda T: T.nn.Sequential(T.nn.Linear(1, 1)).get_submodule("0.weight"),
    lambda T: T.nn.Sequential(T.nn.ReLU())[3],
    lambda T: T.nn.Module()(1),
    lambda T: T.nn.Dropout(1.5),
    lambda T: T.nn.Conv2d(3, 4, 3, groups=2),
    lambda T: T.nn.Conv2d(2, 4, 3, padding="full"),
    lambda T: T.nn.Conv2d(2, 4, 3, stride=2, padding="same"),
    lambda T: T.nn.GroupNorm(3, 4),
    lambda T: T.nn.BatchNorm2d(3)(T.ones(2, 3)),
    lambda T: T.nn.Linear(1, 1).train("yes"),
    lambda T: T.nn.Linear(1, 1).to(T.int64),
    lambda T: T.nn.ParameterList([T.ones(1)])(1),
    lambda T: T.nn.init.calculate_gain("foo"),
    lambda T: T.nn.init.kaiming_uniform_(T.empty(2, 2), mode="fan_avg"),
    lambda T: T.nn.init.xavier_uniform_(T.empty(3)),
    lambda T: T.nn.init.eye_(T.empty(2, 2, 2)),
]


@pytest.mark.parametrize("case", ERROR_CASES)
def test_errors_match_torch(case):
    expected = _error(lambda: case(torch))
    assert expected is not None
    assert _error(lambda: case(shadowgrad)) == expected


def test_assignment_rules_match_torch():
    def prog(T):
        m = T.nn.Linear(2, 2)
        m.weight = T.nn.Parameter(T.ones(2, 2))
        m.bias = None
        m.extra = T.nn.Parameter(T.zeros(1))
        m.buf = T.nn.Buffer(T.ones(3))
        m.register_buffer("nonp", T.ones(1), persistent=False)
        m.nonp = T.zeros(2)
        m.child = T.nn.ReLU()
        m.child = None
        m.plain = T.ones(1)
        del m.extra
        return (
            [n for n, _ in m.named_parameters()],
            [n for n, _ in m.named_buffers()],
            list(m.state_dict()),
            [n for n, _ in m.named_children()],
            type(m.plain).__name__,
            tuple(m.nonp.shape),
        )

    assert prog(shadowgrad) == prog(torch)


# --- load_state_dict -------------------------------------------------------------------------
def _net(T):
    return T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.Linear(4, 2))


LOAD_CASES = [
    lambda T, sd: {k: v for k, v in sd.items() if k != "2.bias"},
    lambda T, sd: {**sd, "3.weight": T.ones(1), "foo": T.ones(1)},
    lambda T, sd: {**{k: v for k, v in sd.items() if not k.startswith("1.")}, "x": T.ones(1)},
    lambda T, sd: {**sd, "0.weight": T.ones(4, 2)},
    lambda T, sd: {**sd, "0.weight": 3.0},
    lambda T, sd: {**sd, "1.num_batches_tracked": T.tensor([5])},
]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("case", LOAD_CASES)
def test_load_state_dict_errors_and_result_match_torch(case, strict):
    def prog(T):
        m = _net(T)
        sd = case(T, {k: T.ones(v.shape, dtype=v.dtype) for k, v in m.state_dict().items()})
        try:
            res = m.load_state_dict(sd, strict=strict)
        except Exception as e:
            return type(e).__name__, str(e)
        return repr(res), res.missing_keys, res.unexpected_keys

    assert prog(shadowgrad) == prog(torch)


def test_load_state_dict_copies_values_in_place():
    t = _net(torch)
    s = _net(shadowgrad)
    w = s[0].weight
    _copy_weights(t, s)
    assert s[0].weight is w
    for (kt, vt), (ks, vs) in zip(t.state_dict().items(), s.state_dict().items(), strict=True):
        assert kt == ks
        np.testing.assert_array_equal(_np(vs), _np(vt))
        assert str(vs.dtype) == str(vt.dtype)


# --- module state -----------------------------------------------------------------------
def test_train_eval_zero_grad_requires_grad_apply_and_dtype_match_torch():
    def prog(T):
        m = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Dropout(), T.nn.BatchNorm1d(2))
        out = []
        m.eval()
        out.append([c.training for c in m.modules()])
        m.train()
        out.append([c.training for c in m.modules()])
        for p in m.parameters():
            p.grad = T.ones_like(p)
        m.zero_grad(set_to_none=False)
        out.append([p.grad.tolist() for p in m.parameters()])
        m.zero_grad()
        out.append([p.grad for p in m.parameters()])
        m.requires_grad_(False)
        out.append([p.requires_grad for p in m.parameters()])
        names = []
        m.apply(lambda mod: names.append(type(mod).__name__))
        out.append(names)
        w = m[0].weight
        m.double()
        out.append([(str(v.dtype), type(v).__name__) for v in m.state_dict().values()])
        out.append(m[0].weight is w)
        m.to(T.float32)
        out.append([str(v.dtype) for v in m.state_dict().values()])
        return out

    assert prog(shadowgrad) == prog(torch)


def test_parameter_semantics_match_torch():
    def prog(T):
        p = T.nn.Parameter(T.tensor([1.0, 1.0]))
        with T.no_grad():
            q = T.nn.Parameter(T.ones(2))
        x = T.tensor([2.0], requires_grad=True)
        r = T.nn.Parameter(x * 3)
        return [
            repr(p),
            repr(T.nn.Parameter()),
            repr(T.nn.Parameter(T.ones(2), requires_grad=False)),
            q.requires_grad,
            r.is_leaf,
            r.grad_fn,
            type(p * 2).__name__,
            isinstance(p, T.Tensor),
            type(p).__name__,
        ]

    assert prog(shadowgrad) == prog(torch)


def test_default_init_distributions_follow_torch_bounds():
    shadowgrad.manual_seed(0)
    for fan_in in (1, 3, 50):
        lin = shadowgrad.nn.Linear(fan_in, 400)
        bound = 1 / np.sqrt(fan_in)
        w, b = _np(lin.weight), _np(lin.bias)
        assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
        assert np.abs(b).max() <= bound
    emb = shadowgrad.nn.Embedding(5, 300, padding_idx=2)
    e = _np(emb.weight)
    assert (e[2] == 0).all() and abs(e[[0, 1, 3, 4]].std() - 1) < 0.1


# --- hooks -----------------------------------------------------------------------------------
def test_forward_hooks_order_and_replacement_match_torch():
    def prog(T):
        log = []
        m = T.nn.Sequential(T.nn.Identity(), T.nn.Identity())

        def pre(mod, args):
            log.append(("pre", type(mod).__name__, len(args)))
            return (args[0] * 2,)

        def fwd(mod, args, out):
            log.append(("fwd", type(mod).__name__))
            return out + 1

        h1 = m[0].register_forward_pre_hook(pre)
        m[1].register_forward_hook(fwd)
        m.register_forward_hook(lambda mod, a, o: log.append(("outer", o.tolist())))
        m[1].register_forward_hook(lambda mod, a, o: log.append(("first",)), prepend=True)
        m[1].register_forward_pre_hook(
            lambda mod, args, kwargs: log.append(("kw", sorted(kwargs))), with_kwargs=True
        )
        y1 = m(T.tensor([1.0]))
        h1.remove()
        y2 = m(T.tensor([1.0]))
        return log, y1.tolist(), y2.tolist()

    assert prog(shadowgrad) == prog(torch)


# --- forward and backward through layers (need nn.functional) --------------------------------
def _run_layer(mod, T, x_np):
    x = T.tensor(x_np, requires_grad=x_np.dtype.kind == "f")
    out = mod(x)
    if isinstance(out, tuple):
        out = out[0]
    out.backward(
        T.ones_like(out)
        * T.tensor(np.linspace(-1, 1, out.numel()).reshape(out.shape), dtype=out.dtype)
    )
    grads = {n: _np(p.grad) for n, p in mod.named_parameters() if p.grad is not None}
    xg = _np(x.grad) if x.requires_grad and x.grad is not None else None
    return _np(out), type(out.grad_fn).__name__, grads, xg


rng = np.random.default_rng(0)
LAYER_CASES = [
    ("linear", lambda T: T.nn.Linear(3, 2), rng.standard_normal((4, 3))),
    ("linear_3d", lambda T: T.nn.Linear(3, 2), rng.standard_normal((2, 4, 3))),
    ("linear_1d", lambda T: T.nn.Linear(3, 2, bias=False), rng.standard_normal(3)),
    ("conv1d", lambda T: T.nn.Conv1d(2, 3, 3, padding=1), rng.standard_normal((2, 2, 7))),
    (
        "conv2d",
        lambda T: T.nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2),
        rng.standard_normal((2, 2, 7, 6)),
    ),
    (
        "conv2d_same",
        lambda T: T.nn.Conv2d(1, 2, (3, 2), padding="same"),
        rng.standard_normal((1, 1, 5, 5)),
    ),
    (
        "conv_transpose2d",
        lambda T: T.nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1),
        rng.standard_normal((1, 2, 4, 3)),
    ),
    (
        "maxpool2d",
        lambda T: T.nn.MaxPool2d(2),
        np.array([[[[1.0, 1.0, 2.0, 0.0], [1.0, 1.0, 3.0, 3.0]]]]),
    ),
    (
        "avgpool2d",
        lambda T: T.nn.AvgPool2d(2, stride=1, padding=1),
        rng.standard_normal((1, 2, 4, 4)),
    ),
    ("adaptive_avg", lambda T: T.nn.AdaptiveAvgPool2d((2, 3)), rng.standard_normal((2, 1, 5, 7))),
    ("batchnorm1d", lambda T: T.nn.BatchNorm1d(3), rng.standard_normal((5, 3))),
    ("batchnorm2d", lambda T: T.nn.BatchNorm2d(2), rng.standard_normal((3, 2, 2, 2))),
    ("layernorm", lambda T: T.nn.LayerNorm([2, 3]), rng.standard_normal((4, 2, 3))),
    ("groupnorm", lambda T: T.nn.GroupNorm(2, 4), rng.standard_normal((2, 4, 3))),
    ("embedding", lambda T: T.nn.Embedding(5, 3, padding_idx=1), np.array([[0, 1, 4], [4, 4, 2]])),
    ("relu", lambda T: T.nn.ReLU(), np.array([-1.0, 0.0, 2.0])),
    ("leaky_relu", lambda T: T.nn.LeakyReLU(0.1), np.array([-1.0, 0.0, 2.0])),
    ("elu", lambda T: T.nn.ELU(), np.array([-1.0, 0.0, 2.0])),
    ("gelu", lambda T: T.nn.GELU(), np.array([-1.0, 0.0, 2.0])),
    ("silu", lambda T: T.nn.SiLU(), np.array([-1.0, 0.0, 2.0])),
    ("mish", lambda T: T.nn.Mish(), np.array([-1.0, 0.0, 2.0])),
    ("tanh", lambda T: T.nn.Tanh(), np.array([-1.0, 0.0, 2.0])),
    ("sigmoid", lambda T: T.nn.Sigmoid(), np.array([-1.0, 0.0, 2.0])),
    ("softplus", lambda T: T.nn.Softplus(), np.array([-1.0, 0.0, 30.0])),
    ("softmax", lambda T: T.nn.Softmax(dim=1), rng.standard_normal((2, 3))),
    ("log_softmax", lambda T: T.nn.LogSoftmax(dim=-1), rng.standard_normal((2, 3))),
    ("hardtanh", lambda T: T.nn.Hardtanh(), np.array([-1.0, 0.0, 1.0, 2.0])),
    ("relu6", lambda T: T.nn.ReLU6(), np.array([-1.0, 0.0, 6.0, 7.0])),
    ("flatten", lambda T: T.nn.Flatten(), rng.standard_normal((2, 3, 2))),
    ("celu", lambda T: T.nn.CELU(1.5), rng.standard_normal((3, 4))),
    ("selu", lambda T: T.nn.SELU(), rng.standard_normal((3, 4))),
    ("hardshrink", lambda T: T.nn.Hardshrink(0.3), rng.standard_normal((3, 4))),
    ("softshrink", lambda T: T.nn.Softshrink(0.3), rng.standard_normal((3, 4))),
    ("hardsigmoid", lambda T: T.nn.Hardsigmoid(), rng.standard_normal((3, 4)) * 4),
    ("hardswish", lambda T: T.nn.Hardswish(), rng.standard_normal((3, 4)) * 4),
    ("logsigmoid", lambda T: T.nn.LogSigmoid(), rng.standard_normal((3, 4))),
    ("softmin", lambda T: T.nn.Softmin(1), rng.standard_normal((3, 4))),
    ("softsign", lambda T: T.nn.Softsign(), rng.standard_normal((3, 4))),
    ("tanhshrink", lambda T: T.nn.Tanhshrink(), rng.standard_normal((3, 4))),
    ("adaptive_avg1d", lambda T: T.nn.AdaptiveAvgPool1d(3), rng.standard_normal((2, 3, 7))),
    ("adaptive_max2d", lambda T: T.nn.AdaptiveMaxPool2d((2, 3)), rng.standard_normal((2, 1, 5, 7))),
    ("maxpool1d", lambda T: T.nn.MaxPool1d(2), rng.standard_normal((2, 3, 7))),
    ("convtranspose1d", lambda T: T.nn.ConvTranspose1d(2, 3, 3), rng.standard_normal((2, 2, 5))),
    ("zeropad2d", lambda T: T.nn.ZeroPad2d((1, 2, 0, 1)), rng.standard_normal((1, 2, 3, 4))),
    ("constantpad1d", lambda T: T.nn.ConstantPad1d(2, 3.5), rng.standard_normal((2, 3, 4))),
    ("reflectionpad2d", lambda T: T.nn.ReflectionPad2d(1), rng.standard_normal((1, 2, 3, 4))),
    ("replicationpad3d", lambda T: T.nn.ReplicationPad3d(1), rng.standard_normal((1, 2, 2, 3, 3))),
    ("circularpad1d", lambda T: T.nn.CircularPad1d((1, 2)), rng.standard_normal((2, 3, 4))),
    ("unflatten", lambda T: T.nn.Unflatten(1, (2, 3)), rng.standard_normal((2, 6))),
    (
        "sequential",
        lambda T: T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 2)),
        rng.standard_normal((5, 3)),
    ),
]
LAYER_CASES = [c if hasattr(c, "marks") else pytest.param(*c, id=c[0]) for c in LAYER_CASES]


@pytest.mark.parametrize(
    ("name", "make", "x"),
    LAYER_CASES,
)
def test_layer_forward_backward_matches_torch(name, make, x):
    if x.dtype.kind == "f":
        x = x.astype(np.float32)
    tm, sm = make(torch), make(shadowgrad)
    _copy_weights(tm, sm)
    t_out, t_fn, t_grads, t_xg = _run_layer(tm, torch, x)
    s_out, s_fn, s_grads, s_xg = _run_layer(sm, shadowgrad, x)
    np.testing.assert_allclose(s_out, t_out, rtol=1e-5, atol=1e-6)
    assert s_fn == t_fn
    assert sorted(s_grads) == sorted(t_grads)
    for k in t_grads:
        np.testing.assert_allclose(s_grads[k], t_grads[k], rtol=1e-4, atol=1e-5)
    if t_xg is not None:
        np.testing.assert_allclose(s_xg, t_xg, rtol=1e-4, atol=1e-5)
    for (kt, vt), (_ks, vs) in zip(tm.state_dict().items(), sm.state_dict().items(), strict=True):
        np.testing.assert_allclose(_np(vs), _np(vt), rtol=1e-5, atol=1e-6, err_msg=kt)


def test_batchnorm_running_stats_and_eval_match_torch():
    x = rng.standard_normal((6, 3, 2, 2)).astype(np.float32)

    def prog(T, src=None):
        bn = T.nn.BatchNorm2d(3, momentum=None)
        outs = []
        for i in range(3):
            outs.append(_np(bn(T.tensor(x * (i + 1)))))
        bn.eval()
        outs.append(_np(bn(T.tensor(x))))
        return outs, {k: _np(v) for k, v in bn.state_dict().items()}

    (to, tsd), (so, ssd) = prog(torch), prog(shadowgrad)
    for a, b in zip(so, to, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    assert list(ssd) == list(tsd)
    for k in tsd:
        np.testing.assert_allclose(ssd[k], tsd[k], rtol=1e-5, atol=1e-6)


LOSS_CASES = [
    ("mse", lambda T: T.nn.MSELoss(), "float"),
    ("mse_sum", lambda T: T.nn.MSELoss(reduction="sum"), "float"),
    ("l1", lambda T: T.nn.L1Loss(), "float"),
    ("smooth_l1", lambda T: T.nn.SmoothL1Loss(beta=0.5), "float"),
    ("huber", lambda T: T.nn.HuberLoss(delta=0.5, reduction="none"), "float"),
    ("cross_entropy", lambda T: T.nn.CrossEntropyLoss(), "class"),
    (
        "cross_entropy_w",
        lambda T: T.nn.CrossEntropyLoss(
            weight=T.tensor([1.0, 2.0, 0.5]), ignore_index=0, label_smoothing=0.1
        ),
        "class",
    ),
    ("nll", lambda T: T.nn.NLLLoss(), "class"),
    ("bce", lambda T: T.nn.BCELoss(), "prob"),
    (
        "bce_logits",
        lambda T: T.nn.BCEWithLogitsLoss(pos_weight=T.tensor([2.0, 1.0, 0.5])),
        "float01",
    ),
    ("kl_div", lambda T: T.nn.KLDivLoss(reduction="batchmean"), "logprob"),
]


@pytest.mark.parametrize(("name", "make", "kind"), LOSS_CASES, ids=[c[0] for c in LOSS_CASES])
def test_losses_match_torch(name, make, kind):
    r = np.random.default_rng(1)
    inp = r.standard_normal((4, 3)).astype(np.float32)
    if kind == "float":
        tgt = r.standard_normal((4, 3)).astype(np.float32)
        tgt[0] = inp[0]  # the kink of l1/huber at zero difference
    elif kind == "class":
        tgt = np.array([0, 2, 1, 2])
    elif kind == "prob":
        inp = 1 / (1 + np.exp(-inp))
        tgt = r.uniform(size=(4, 3)).astype(np.float32)
    elif kind == "float01":
        tgt = r.uniform(size=(4, 3)).astype(np.float32)
    else:
        inp = inp - np.log(np.exp(inp).sum(1, keepdims=True))
        tgt = r.dirichlet(np.ones(3), size=4).astype(np.float32)

    def prog(T):
        x = T.tensor(inp, requires_grad=True)
        loss = make(T)(x, T.tensor(tgt))
        loss.sum().backward()
        return _np(loss), _np(x.grad), type(loss.grad_fn).__name__

    (tl, tg, tf), (sl, sg, sf) = prog(torch), prog(shadowgrad)
    np.testing.assert_allclose(sl, tl, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sg, tg, rtol=1e-4, atol=1e-6)
    assert sf == tf


def test_linear_no_grad_seed_semantics_match_torch():
    def prog(T):
        lin = T.nn.Linear(3, 1)
        inp = T.ones(2, 3, requires_grad=True)
        with T.no_grad():
            out = lin(inp)
        out2 = lin(inp)
        return [
            out.requires_grad,
            out.grad_fn is None,
            out.is_leaf,
            type(out2.grad_fn).__name__,
            lin.weight.requires_grad,
            tuple(lin.weight.shape),
            tuple(lin.bias.shape),
            repr(lin),
        ]

    assert prog(shadowgrad) == prog(torch)


def test_clip_grad_and_vector_conversion_match_torch():
    r = np.random.default_rng(3)
    ws = [r.standard_normal((3, 2)).astype(np.float32), r.standard_normal(4).astype(np.float32)]
    gs = [r.standard_normal((3, 2)).astype(np.float32), r.standard_normal(4).astype(np.float32)]

    def prog(T, how):
        ps = [T.nn.Parameter(T.tensor(w)) for w in ws]
        for p, g in zip(ps, gs, strict=True):
            p.grad = T.tensor(g)
        if how == "value":
            res = T.nn.utils.clip_grad_value_(ps, 0.5)
        elif how == "vec":
            v = T.nn.utils.parameters_to_vector(ps)
            T.nn.utils.vector_to_parameters(v * 2, ps)
            return _np(v), [_np(p) for p in ps]
        else:
            res = T.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=how)
            res = _np(res)
        return res, [_np(p.grad) for p in ps]

    for how in (2.0, 1.0, float("inf"), 3.0, "value", "vec"):
        (tr, tg), (sr, sg) = prog(torch, how), prog(shadowgrad, how)
        if tr is None:
            assert sr is None
        else:
            np.testing.assert_allclose(sr, tr, rtol=1e-6)
        for a, b in zip(sg, tg, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("fn", ["alpha_dropout", "feature_alpha_dropout"])
def test_alpha_dropout_values_graph_and_modes_match_torch(fn):
    # the masks come from different generators: compared are the two values a unit can take,
    # the gradient's values, the graph torch records, and the p=0/p=1/eval cases
    seen = []
    for T in LIBS:
        T.manual_seed(0)
        f = getattr(T.nn.functional, fn)
        x = T.ones(40, 8, 3, requires_grad=True)
        y = f(x, 0.3, True)
        y.sum().backward()
        nodes = [type(n).__name__ for n, _ in y.grad_fn.next_functions if n is not None]
        seen.append(
            (
                np.unique(np.round(_np(y), 5)).tolist(),
                np.unique(np.round(_np(x.grad), 5)).tolist(),
                y.grad_fn.name(),
                nodes,
                f(x, 1.0, True).grad_fn.name(),
                f(x, 0.0, True) is x,
                f(x, 0.3, False) is x,
            )
        )
    assert seen[1] == seen[0]
