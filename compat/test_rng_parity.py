"""Random numbers bit for bit: after the same seed, each random function of shadowgrad returns
torch's values (same dtype, same bits) and leaves the generator where torch leaves it, so mixed
call sequences stay in lockstep. Each program runs once per library after `manual_seed`; the
draws that follow it (`_TAIL`) check the generator state, the cached normal included."""

from __future__ import annotations

import copy
import io
import math
import pickle
import warnings
from contextlib import redirect_stdout

import numpy as np
import pytest
import torch

import shadowgrad
import shadowgrad.distributions
import shadowgrad.testing
import shadowgrad.utils.data

LIBS = (torch, shadowgrad)
SEEDS = (0, 1, 42, 2**32 + 5, -7, 2**63 + 3)
SIZES = (0, 1, 2, 3, 5, 15, 16, 17, 31, 32, 33, 100, 1001)
FLOATS = ("float32", "float64", "float16")


def _arrays(out):
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _arrays(o)]
    if hasattr(out, "detach"):
        return [out.detach().numpy()]
    return [np.asarray(out)]


def _tail(L):
    # a double uniform, a double normal (uses any cached normal) and a float32 pair
    return [L.rand(3, dtype=L.float64), L.randn(3, dtype=L.float64), L.randn(2), L.rand(1)]


def _bits(a):
    return a.dtype.str, a.shape, np.ascontiguousarray(a).view(np.uint8).tobytes()


def _run(prog, seed, L):
    L.manual_seed(seed)
    out = prog(L)
    return _arrays(out) + _arrays(_tail(L))


def assert_same(prog, seeds=SEEDS):
    for seed in seeds:
        got, want = _run(prog, seed, shadowgrad), _run(prog, seed, torch)
        assert len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            assert _bits(g) == _bits(w), (seed, k, g.ravel()[:6], w.ravel()[:6])


def assert_close_and_in_step(prog, seeds=SEEDS[:3], rtol=1e-5, atol=1e-6):
    """For programs whose last arithmetic steps (QR, log, softmax) round differently: values
    within tolerance, the generator state afterwards identical."""
    for seed in seeds:
        got, want = _run(prog, seed, shadowgrad), _run(prog, seed, torch)
        for g, w in zip(got[:-4], want[:-4], strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
        for g, w in zip(got[-4:], want[-4:], strict=True):
            assert _bits(g) == _bits(w)


# --- the generator: seeding, state, Generator objects ----------------------------------------


def test_reference_example_linear_on_randn():
    # torch.manual_seed(0); lin = nn.Linear(3, 1); inp = torch.randn(2, 3); lin(inp)
    def prog(L):
        L.manual_seed(0)
        lin = L.nn.Linear(3, 1)
        buf = io.StringIO()
        with redirect_stdout(buf):
            print(lin(L.randn(2, 3)))
        return buf.getvalue()

    assert prog(shadowgrad) == prog(torch)
    assert "[[ 0.2759],\n        [-0.6921]]" in prog(shadowgrad)


@pytest.mark.parametrize("seed", [*SEEDS, 2**64 - 1, -(2**63), 2**32, 2**32 - 1])
def test_seeds_give_torch_words_and_initial_seed(seed):
    assert_same(lambda L: L.empty(700, dtype=L.int64).random_(), seeds=(seed,))
    for L in LIBS:
        L.manual_seed(seed)
    assert shadowgrad.initial_seed() == torch.initial_seed()


def test_seed_errors_and_defaults():
    for bad in (1.5, True, "3", 2**64, -(2**63) - 1):
        got = []
        for L in LIBS:
            with pytest.raises(Exception) as info:
                L.Generator().manual_seed(bad)
            got.append((type(info.value), str(info.value)))
        assert got[0] == got[1], bad
    assert shadowgrad.Generator().initial_seed() == torch.Generator().initial_seed()
    # an unseeded generator draws torch's default stream
    g = [L.Generator() for L in LIBS]
    a = [L.randn(20, generator=gg) for L, gg in zip(LIBS, g, strict=True)]
    assert np.array_equal(a[0].numpy(), a[1].numpy())
    assert shadowgrad.manual_seed(3) is shadowgrad.default_generator
    s = shadowgrad.seed()
    assert shadowgrad.initial_seed() == s and 0 <= s < 2**64


def _state_programs():
    return {
        "fresh": lambda L: None,
        "some words": lambda L: L.rand(5),
        "624 words": lambda L: L.rand(624),
        "625 words": lambda L: L.rand(625),
        "cached normal": lambda L: L.randn(1, dtype=L.float64),
        "used cache": lambda L: L.randn(2, dtype=L.float64),
        "float randn 3": lambda L: L.randn(3),
    }


@pytest.mark.parametrize("name", list(_state_programs()))
def test_state_bytes_are_torchs(name):
    prog = _state_programs()[name]
    for seed in SEEDS:
        states = []
        for L in LIBS:
            L.manual_seed(seed)
            prog(L)
            s = L.get_rng_state()
            states.append((s.dtype is L.uint8, tuple(s.shape), s.numpy().tobytes()))
        assert states[0] == states[1]


@pytest.mark.parametrize("name", list(_state_programs()))
def test_state_round_trips_between_libraries(name):
    prog = _state_programs()[name]
    for src, dst in ((torch, shadowgrad), (shadowgrad, torch)):
        src.manual_seed(11)
        prog(src)
        state = src.get_rng_state().numpy().copy()
        dst.set_rng_state(dst.tensor(state, dtype=dst.uint8))
        assert dst.get_rng_state().numpy().tobytes() == state.tobytes()
        want = [a.numpy() for a in _tail(src)]
        got = [a.numpy() for a in _tail(dst)]
        assert all(_bits(g) == _bits(w) for g, w in zip(got, want, strict=True))
        assert src.initial_seed() == dst.initial_seed() == 11


def test_state_errors_match():
    cases = [
        lambda L: L.set_rng_state(L.zeros(5056)),
        lambda L: L.set_rng_state(L.zeros(5048, dtype=L.uint8)),
        lambda L: L.set_rng_state(L.zeros(5056, dtype=L.uint8)),
        lambda L: L.Generator().set_state([1, 2]),
        lambda L: L.Generator().get_offset(),
    ]
    for case in cases:
        got = []
        for L in LIBS:
            with pytest.raises(Exception) as info:
                case(L)
            got.append((type(info.value), str(info.value)))
        assert got[0] == got[1]


def test_generator_objects_state_clone_pickle_and_fork_rng():
    def prog(L):
        g = L.Generator().manual_seed(5)
        a = L.randn(3, generator=g, dtype=L.float64)
        s = g.get_state()
        b = L.randn(17, generator=g)
        g.set_state(s)
        c = L.randn(17, generator=g)
        h = g.clone_state()
        d = L.rand(4, generator=h)
        e = L.rand(4, generator=pickle.loads(pickle.dumps(g)))
        f = L.rand(4, generator=copy.deepcopy(g))
        with L.random.fork_rng():
            L.randn(5)
        return a, b, c, d, e, f, L.rand(2, generator=g), g.initial_seed(), g.device.type

    assert_same(prog)


# --- factories and in-place fills ------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [*FLOATS, "complex64", "complex128"])
def test_rand_randn_uniform_normal(n, dtype):
    def prog(L):
        d = getattr(L, dtype)
        return (
            L.rand(n, dtype=d),
            L.randn(n, dtype=d),
            L.empty(n, dtype=d).uniform_(-0.3, 2.7),
            L.empty(n, dtype=d).normal_(0.3, 1.7),
            L.randn(1, dtype=L.float64),  # leaves a cached normal for the next float draws
            L.empty(n, dtype=d).normal_(-2.0, 0.25),
        )

    assert_same(prog)


@pytest.mark.parametrize(
    "shape", [(), (3, 7), (2, 3, 4), (4, 4), (1, 16), (16, 1), (2, 0, 3), (5, 33)]
)
def test_shapes_and_like_factories(shape):
    def prog(L):
        x = L.zeros(shape)
        return (
            L.rand(shape),
            L.randn(shape, dtype=L.float64),
            L.rand_like(x),
            L.randn_like(x, dtype=L.float64),
            L.randint_like(x, 3, 9),
            L.randint(-4, 4, shape),
            L.randn(shape, dtype=L.float16),
        )

    assert_same(prog)


def test_layouts_draw_in_memory_order():
    def prog(L):
        cl = L.zeros(2, 3, 4, 5).to(memory_format=L.channels_last)
        t = L.zeros(8, 6)
        return (
            L.randn_like(cl).contiguous(),
            L.rand_like(cl).contiguous(),
            t.t().normal_(),
            L.zeros(8, 6).t().uniform_(),
            L.zeros(8, 6)[:, :4].normal_(1, 2),
            L.zeros(6, 8)[::2].exponential_(),
            L.zeros(5, 4).t().bernoulli_(0.3),
            L.zeros(5, 4, dtype=L.int64).t().random_(0, 10),
            t,
        )

    assert_same(prog)


@pytest.mark.parametrize("n", [2**20 + 3, 65536])
def test_large_draws(n):
    def prog(L):
        return (
            L.randn(n),
            L.empty(n).normal_(0.5, 3.0),
            L.rand(n),
            L.empty(n // 8, dtype=L.float64).normal_(-1.0, 0.1),
            L.randn(n // 8, dtype=L.float16),
        )

    assert_same(prog, seeds=(0, 7))


def test_float32_box_muller_edge_parameters():
    # normal_'s fused scale: zero std, negative zero mean, tiny and huge scales
    def prog(L):
        x = L.empty(4096)
        return (
            x.clone().normal_(0.0, 0.0),
            x.clone().normal_(-0.0, 1.0),
            x.clone().normal_(1e-30, 1e-38),
            x.clone().normal_(3.0, 1e30),
            x.clone().normal_(-7.5, 1.0),
            L.empty(40, dtype=L.float64).normal_(1e300, 1e300),
        )

    assert_same(prog)


@pytest.mark.parametrize("n", SIZES)
def test_other_distributions(n):
    def prog(L):
        out = []
        for d in (L.float32, L.float64, L.float16):
            out += [
                L.empty(n, dtype=d).exponential_(2.5),
                L.empty(n, dtype=d).cauchy_(0.5, 1.7),
                L.empty(n, dtype=d).log_normal_(0.5, 0.7),
                L.empty(n, dtype=d).geometric_(0.3),
                L.empty(n, dtype=d).bernoulli_(0.3),
            ]
        out.append(L.empty(n, dtype=L.int64).geometric_(0.05))
        return out

    assert_same(prog)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_bernoulli_with_tensor_probabilities(dtype):
    def prog(L):
        g = L.Generator().manual_seed(9)
        p = L.rand(7, 5, generator=g).to(getattr(L, dtype))
        p[0, 0], p[1, 1] = 0, 1
        return (
            L.bernoulli(p),
            L.bernoulli(p, 0.25),
            L.empty(7, 5, dtype=L.int64).bernoulli_(p),
            L.empty(3, 7, 5, dtype=L.bool).bernoulli_(p),
            L.empty(5, 7).t().bernoulli_(p),
            p.bernoulli(),
        )

    assert_same(prog)


INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool", *FLOATS)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_random_overloads(dtype):
    def prog(L):
        d = getattr(L, dtype)
        out = [
            L.empty(50, dtype=d).random_(),
            L.empty(50, dtype=d).random_(2),
            L.empty(50, dtype=d).random_(0, 2),
            L.randint(0, 2, (50,), dtype=d),
        ]
        if dtype != "bool":
            out += [L.empty(50, dtype=d).random_(3, 100), L.randint(100, (17,), dtype=d)]
        if dtype not in ("bool", "uint8"):
            out += [L.empty(50, dtype=d).random_(-5, None), L.randint(-7, 7, (9,), dtype=d)]
        return out

    assert_same(prog)


@pytest.mark.parametrize(
    ("low", "high", "dtype"),
    [
        (0, 2**28 - 1, "int64"),
        (0, 2**28, "int64"),
        (-(2**40), 2**40, "int64"),
        (3, 2**32 + 3, "int64"),
        (-(2**31), 2**31 - 1, "int32"),
        (0, 2**28, "float32"),
        (-(2**27), 2**27, "float32"),
        (-(2**60), 2**60, "float32"),
        (3, 2**53 + 7, "float64"),
        (-(2**60), 2**60, "float64"),
        (0, 60000, "float16"),
        (-65504, 65504, "float16"),
    ],
)
def test_randint_wide_ranges(low, high, dtype):
    # ranges of 2**28 and more take two words per value; floating dtypes move their bounds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(lambda L: L.randint(low, high, (40,), dtype=getattr(L, dtype)))


def test_random_full_range_and_errors():
    assert_same(
        lambda L: [
            L.empty(30, dtype=d).random_(-(2**63), None) for d in (L.int64, L.float32, L.float64)
        ]
    )
    cases = [
        lambda L: L.empty(3, dtype=L.int16).random_(-(2**63), None),
        lambda L: L.empty(3, dtype=L.float16).random_(-(2**63), None),
        lambda L: L.empty(3, dtype=L.int8).random_(0, 300),
        lambda L: L.empty(3, dtype=L.uint8).random_(-1, 3),
        lambda L: L.empty(3, dtype=L.complex64).random_(0, 5),
        lambda L: L.randint(5, 5, (3,)),
        lambda L: L.empty(3, dtype=L.float16).random_(0, 2**20),
    ]
    for case in cases:
        got = []
        for L in LIBS:
            with pytest.raises(Exception) as info:
                case(L)
            got.append((type(info.value), str(info.value)))
        assert got[0] == got[1]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 100, 1025, 5000, 100_003])
def test_randperm(n):
    def prog(L):
        return (
            L.randperm(n),
            L.randperm(n, dtype=L.float32),
            L.randperm(min(n, 2049), dtype=L.float16),
            L.randperm(min(n, 128), dtype=L.int8),
        )

    assert_same(prog)


def test_randperm_errors():
    cases = [
        lambda L: L.randperm(300, dtype=L.int8),
        lambda L: L.randperm(70000, dtype=L.int16),
        lambda L: L.randperm(3000, dtype=L.float16),
        lambda L: L.randperm(2**24 + 3, dtype=L.float32),
        lambda L: L.randperm(-1),
        lambda L: L.randperm(3, dtype=L.bool),
    ]
    for case in cases:
        got = []
        for L in LIBS:
            with pytest.raises(Exception) as info:
                case(L)
            got.append((type(info.value), str(info.value)))
        assert got[0] == got[1]


def test_normal_overloads():
    def prog(L):
        m = L.arange(20.0).reshape(4, 5) / 7
        s = L.arange(20.0).reshape(4, 5) / 3
        return (
            L.normal(m, 2.0),
            L.normal(1.5, s),
            L.normal(m, s),
            L.normal(m[:1, :3], s[:1, :3]),
            L.normal(m[0], s),
            L.normal(2.0, 3.0, size=(4, 5)),
            L.normal(2.0, 3.0, (3,), dtype=L.float64),
            L.normal(m.double(), 0.5),
            L.normal(m.half(), s.half()),
        )

    assert_same(prog)


def test_multinomial():
    def prog(L):
        p = L.tensor([[0.1, 0.3, 0.0, 0.6], [1.0, 2.0, 3.0, 4.0]])
        w = L.rand(5, 30, dtype=L.float64)
        return (
            L.multinomial(p, 13, True),
            L.multinomial(p, 3),
            L.multinomial(p, 1),
            L.multinomial(p[0], 1, True),
            L.multinomial(p[1], 4),
            L.multinomial(w, 10, True),
            L.multinomial(w, 30),
            L.multinomial(w.half(), 7, True),
            L.multinomial(w.float(), 12),
        )

    assert_same(prog)


def _random_program(rng):
    """A random sequence of mixed calls (its own numpy rng picks them)."""
    choices = [
        lambda L, n: L.rand(n),
        lambda L, n: L.randn(n),
        lambda L, n: L.randn(n, dtype=L.float64),
        lambda L, n: L.randn(n, dtype=L.float16),
        lambda L, n: L.randint(0, 1000, (n,)),
        lambda L, n: L.randperm(n),
        lambda L, n: L.empty(n).uniform_(-1, 3),
        lambda L, n: L.empty(n, dtype=L.float64).normal_(1, 2),
        lambda L, n: L.empty(n).exponential_(),
        lambda L, n: L.empty(n).bernoulli_(0.4),
        lambda L, n: L.empty(n, dtype=L.float64).log_normal_(),
        lambda L, n: L.empty(n).random_(),
        lambda L, n: L.randint(-(2**33), 2**33, (n,)),
    ]
    steps = [(int(rng.integers(len(choices))), int(rng.choice(SIZES))) for _ in range(12)]
    return lambda L: [choices[c](L, n) for c, n in steps]


@pytest.mark.parametrize("k", range(12))
def test_mixed_call_sequences_stay_in_lockstep(k):
    assert_same(_random_program(np.random.default_rng(k)), seeds=(k, 2**40 + k))


def test_generator_keyword_everywhere():
    def prog(L):
        g = L.Generator().manual_seed(77)
        x = L.zeros(20)
        p = L.full((20,), 0.3)
        return (
            L.rand(5, generator=g),
            L.randn(17, generator=g),
            L.randint(0, 9, (5,), generator=g),
            L.randperm(9, generator=g),
            L.rand_like(x, generator=g),
            x.clone().uniform_(generator=g),
            x.clone().normal_(generator=g),
            x.clone().bernoulli_(0.5, generator=g),
            L.bernoulli(p, generator=g),
            x.clone().exponential_(generator=g),
            x.clone().random_(0, 5, generator=g),
            x.clone().cauchy_(generator=g),
            x.clone().log_normal_(generator=g),
            x.clone().geometric_(0.5, generator=g),
            L.normal(x, 1.0, generator=g),
            L.multinomial(p, 4, generator=g),
            L.poisson(p * 20, generator=g),
            L.rrelu(L.linspace(-1, 1, 20), training=True, generator=g),
        )

    assert_same(prog)


# --- samplers with data-dependent draws -----------------------------------------------------


def test_poisson_and_binomial():
    def prog(L):
        lam = L.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 25.0, 1000.0, 1e5])
        out = [L.poisson(lam), L.poisson(lam.double()), L.poisson(lam.reshape(2, 4).t())]
        for d in (L.float32, L.float64):
            n = L.tensor([0.0, 1.0, 5.0, 20.0, 100.0, 1000.0, 37.0, 12.0], dtype=d)
            p = L.tensor([0.5, 0.2, 0.9, 0.5, 0.03, 0.7, 0.99, 0.0], dtype=d)
            out += [L.binomial(n, p), L.binomial(n * 3, 1 - p)]
        return out

    assert_same(prog)


def test_gamma_family_distributions():
    D = {L: L.distributions for L in LIBS}

    def prog(L):
        d = D[L]
        a = L.tensor([0.1, 0.5, 1.0, 2.5, 40.0])
        return (
            d.Gamma(a, L.tensor(2.0)).sample((3,)),
            d.Gamma(a.double(), 1.0).rsample(),
            d.Chi2(a).sample(),
            d.Beta(a, a.flip(0)).sample((2,)),
            d.Dirichlet(L.tensor([[0.3, 1.0, 4.0], [2.0, 2.0, 2.0]])).sample(),
            d.Poisson(a * 10).sample((2,)),
            d.Binomial(10, L.tensor([0.2, 0.7])).sample((3,)),
            d.NegativeBinomial(5.0, probs=L.tensor([0.3, 0.6])).sample((2,)),
        )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(prog, seeds=SEEDS[:3])


def test_distributions_on_primitives():
    D = {L: L.distributions for L in LIBS}

    def prog(L):
        d = D[L]
        loc, scale = L.tensor([0.0, 1.5, -2.0]), L.tensor([1.0, 0.5, 3.0])
        probs = L.tensor([[0.2, 0.3, 0.5], [0.9, 0.05, 0.05]])
        return (
            d.Normal(loc, scale).sample((4,)),
            d.Normal(loc, scale).rsample((20,)),
            d.Uniform(loc, loc + scale).sample((5,)),
            d.Bernoulli(L.tensor([0.1, 0.5, 0.9])).sample((6,)),
            d.Categorical(probs).sample((7,)),
            d.Exponential(scale).sample((3,)),
            d.Cauchy(loc, scale).sample((3,)),
            d.Multinomial(10, probs).sample(),
            d.OneHotCategorical(probs).sample((2,)),
            d.Geometric(L.tensor([0.2, 0.7])).sample((4,)),
        )

    assert_same(prog)


def test_distributions_with_float_arithmetic_after_the_draws():
    D = {L: L.distributions for L in LIBS}

    def prog(L):
        d = D[L]
        loc, scale = L.tensor([0.0, 1.5, -2.0]), L.tensor([1.0, 0.5, 3.0])
        cov = L.tensor([[2.0, 0.3], [0.3, 1.0]])
        return (
            d.LogNormal(loc, scale).sample((3,)),
            d.Laplace(loc, scale).sample((3,)),
            d.Gumbel(loc, scale).sample((3,)),
            d.StudentT(L.tensor([3.0, 10.0])).sample((3,)),
            d.MultivariateNormal(L.zeros(2), cov).sample((4,)),
            d.RelaxedBernoulli(L.tensor(0.5), probs=L.tensor([0.3, 0.6])).sample(),
        )

    assert_close_and_in_step(prog)


# --- nn: module initialization, init functions, dropout --------------------------------------


def _modules(L):
    nn = L.nn
    return {
        "Linear": lambda: nn.Linear(5, 3),
        "Linear(3, 1)": lambda: nn.Linear(3, 1),
        "Bilinear": lambda: nn.Bilinear(3, 4, 2),
        "Conv1d": lambda: nn.Conv1d(2, 3, 3),
        "Conv2d": lambda: nn.Conv2d(2, 4, 3, groups=2),
        "Conv3d": lambda: nn.Conv3d(2, 3, 2, bias=False),
        "ConvTranspose2d": lambda: nn.ConvTranspose2d(2, 3, 3),
        "RNN": lambda: nn.RNN(3, 4, 2, bidirectional=True),
        "LSTM": lambda: nn.LSTM(3, 4, 2, proj_size=2),
        "GRU": lambda: nn.GRU(3, 4),
        "LSTMCell": lambda: nn.LSTMCell(3, 4),
        "Embedding": lambda: nn.Embedding(10, 3, padding_idx=2),
        "EmbeddingBag": lambda: nn.EmbeddingBag(10, 3),
        "MultiheadAttention": lambda: nn.MultiheadAttention(8, 2, kdim=5, vdim=6, add_bias_kv=True),
        "Transformer": lambda: nn.Transformer(8, 2, 1, 1, 16),
        "TransformerEncoder": lambda: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(8, 2, 16), 2, enable_nested_tensor=False
        ),
        "Sequential": lambda: nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)),
    }


@pytest.mark.parametrize("name", list(_modules(torch)))
def test_module_initialization(name):
    def prog(L):
        m = _modules(L)[name]()
        return [v for _, v in m.state_dict().items()]

    assert_same(prog, seeds=(0, 1))


def test_lazy_modules_initialize_on_first_call():
    def prog(L):
        lin, conv = L.nn.LazyLinear(3), L.nn.LazyConv2d(4, 3)
        lin(L.randn(2, 5))
        conv(L.randn(1, 2, 5, 5))
        return lin.weight, lin.bias, conv.weight, conv.bias

    assert_same(prog, seeds=(0, 3))


def test_init_functions():
    def prog(L):
        init = L.nn.init
        w = L.empty(6, 10)
        c = L.empty(4, 3, 3, 3)
        out = [
            init.uniform_(w.clone(), -0.5, 2.0),
            init.normal_(w.clone(), 0.2, 3.0),
            init.kaiming_uniform_(w.clone(), a=math.sqrt(5)),
            init.kaiming_normal_(c.clone(), mode="fan_out", nonlinearity="relu"),
            init.xavier_uniform_(c.clone(), gain=2.0),
            init.xavier_normal_(w.clone()),
            init.trunc_normal_(w.clone(), std=0.02),
            init.trunc_normal_(w.clone(), 1.0, 2.0, -0.5, 0.5),
            init.sparse_(w.clone(), 0.3),
            init.normal_(L.empty(40, dtype=L.float64), generator=L.Generator().manual_seed(4)),
        ]
        return out

    assert_same(prog)


def test_trunc_normal_narrow_interval_draws_in_step():
    # acceptance below 0.3: uniform candidates accepted against the density (a float32 log)
    def prog(L):
        return L.nn.init.trunc_normal_(L.empty(300), 0.0, 1.0, 1.5, 2.5)

    assert_same(prog, seeds=SEEDS[:4])


def test_orthogonal_init():
    def prog(L):
        return L.nn.init.orthogonal_(L.empty(4, 7)), L.nn.init.orthogonal_(L.empty(6, 3), 2.0)

    assert_close_and_in_step(prog)


@pytest.mark.parametrize("dtype", FLOATS)
def test_dropout_family(dtype):
    def prog(L):
        F = L.nn.functional
        x = L.arange(1.0, 121.0).reshape(2, 3, 4, 5).to(getattr(L, dtype))
        return (
            F.dropout(x, 0.3),
            F.dropout(x, 0.5, training=False),
            F.dropout(x.clone(), 0.2, inplace=True),
            F.dropout(x, 1.0),
            F.alpha_dropout(x, 0.3, training=True),
            F.feature_alpha_dropout(x, 0.4, training=True),
            F.dropout1d(x[0], 0.5),
            F.dropout1d(x[:, :, 0], 0.5),
            F.dropout2d(x, 0.5),
            F.dropout2d(x[0], 0.5),
            F.dropout3d(x.unsqueeze(0), 0.5),
            L.dropout(x, 0.25, True),
            L.feature_dropout(x, 0.25, True),
            L.native_dropout(x, 0.4, True),
            L.nn.Dropout(0.1)(x),
            L.nn.AlphaDropout(0.2)(x),
        )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(prog)


def test_dropout_channels_last_and_grad():
    def prog(L):
        x = L.randn(2, 3, 4, 4).to(memory_format=L.channels_last).requires_grad_()
        y = L.nn.functional.dropout(x, 0.5)
        y.sum().backward()
        return y, x.grad

    assert_same(prog)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rrelu_training(dtype):
    def prog(L):
        x = L.linspace(-3, 3, 41, dtype=getattr(L, dtype))
        return (
            L.nn.functional.rrelu(x, 0.1, 0.3, training=True),
            L.nn.RReLU()(x.reshape(1, 41)),
            L.rrelu_(x.clone(), training=True),
        )

    assert_same(prog)


def test_gumbel_softmax_draws_in_step():
    def prog(L):
        logits = L.tensor([[0.1, 2.0, -1.0, 0.5]] * 3)
        return L.nn.functional.gumbel_softmax(logits, tau=0.5), L.nn.functional.gumbel_softmax(
            logits, hard=True
        )

    assert_close_and_in_step(prog)


def test_training_step_with_dropout_matches():
    def prog(L):
        nn = L.nn
        model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 2))
        opt = L.optim.SGD(model.parameters(), lr=0.1)
        x, y = L.randn(8, 6), L.randint(0, 2, (8,))
        for _ in range(3):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
        return [p for p in model.parameters()]

    assert_close_and_in_step(prog)


# --- data loading, testing helpers -------------------------------------------------------------


def test_data_shuffling_and_splits():
    def prog(L):
        data = L.utils.data
        ds = data.TensorDataset(L.arange(50))
        loader = data.DataLoader(ds, batch_size=7, shuffle=True)
        order = [b[0] for b in loader] + [b[0] for b in loader]
        a, b = data.random_split(ds, [0.6, 0.4])
        sampler = data.RandomSampler(ds, replacement=True, num_samples=70)
        weighted = data.WeightedRandomSampler([0.1, 2.0, 1.0, 0.5], 12)
        subset = data.SubsetRandomSampler([4, 8, 15, 16, 23, 42])
        return (
            order,
            list(a.indices),
            list(b.indices),
            list(sampler),
            list(weighted),
            list(subset),
        )

    assert_same(prog)


def test_make_tensor():
    def prog(L):
        mk = L.testing.make_tensor
        return (
            mk(3, 4, dtype=L.float32, device="cpu"),
            mk((5,), dtype=L.int64, device="cpu", low=-3, high=40),
            mk(6, dtype=L.bool, device="cpu"),
            mk(2, 3, dtype=L.complex64, device="cpu"),
            mk(4, 4, dtype=L.float64, device="cpu", noncontiguous=True, exclude_zero=True),
            mk(7, dtype=L.uint8, device="cpu", exclude_zero=True),
            mk(3, dtype=L.float32, device="cpu", low=-3e38, high=3e38),
        )

    assert_same(prog)
