# ruff: noqa: RUF005, RUF007, SIM108  (the educational codes' own idioms are kept)
"""Realistic programs: the famous educational PyTorch code people learn autograd from, run in
miniature (small sizes, few steps, seeded data). Karpathy's micrograd tests (which compare
against torch), the "makemore" series of Neural Networks: Zero to Hero (bigram counts, the MLP
with embedding tables, manual BatchNorm, "Become a backprop ninja" with its manual backward of
every intermediate and its cmp() against `.grad`, the WaveNet, "Let's build GPT"), nanoGPT
(model.py, train.py, sample.py), build-nanogpt and minGPT, d2l.ai's from-scratch chapters (linear
and softmax regression, MLP, dropout, weight decay, convolutions, batch norm, RNN/GRU/LSTM,
attention, seq2seq, GAN, word2vec, optimizers) and its autograd chapter, and the 60 Minute Blitz.
Each program returns the values, losses over a few steps, gradients, grad_fn names and
comparisons it gets, and the errors and warnings of what learners mistype. The programs register
into test_realistic_programs_3's set and run through its harness: each `prog(T)` runs on torch
and on shadowgrad, and everything it returns, raises or warns is compared.
"""

from __future__ import annotations

import inspect
import io
import math
import random
from contextlib import nullcontext
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program

_WORDS = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn"]


def _stoi() -> dict[str, int]:
    chars = "abcdefghijklmnopqrstuvwxyz"  # names.txt uses all 26
    stoi = {s: i + 1 for i, s in enumerate(chars)}
    stoi["."] = 0
    return stoi


def _dataset(T: Any, block_size: int = 3) -> tuple[Any, Any]:
    """makemore's build_dataset: every context of block_size characters and the next one."""
    stoi = _stoi()
    X, Y = [], []
    for w in _WORDS:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return T.tensor(X), T.tensor(Y)


# --- micrograd: test_engine.py compares its Value against torch ------------------------------


@program()
def prog_edu_micrograd_sanity_check(T: Any) -> Any:
    x = T.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    return y.data.item(), x.grad.item(), y.grad_fn, z.grad_fn, q.grad_fn, x.dtype, x.is_leaf


@program()
def prog_edu_micrograd_more_ops(T: Any) -> Any:
    a = T.Tensor([-4.0]).double()
    b = T.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    tol = 1e-6
    return (
        g.data.item(),
        a.grad.item(),
        b.grad.item(),
        abs(g.data.item() - 24.70408163265306) < tol,
        g.grad_fn,
        f.grad_fn,
        e.grad_fn,
    )


@program()
def prog_edu_micrograd_neuron_tanh(T: Any) -> Any:
    # the video's single neuron, first by hand then with torch
    x1 = T.Tensor([2.0]).double()
    x1.requires_grad = True
    x2 = T.Tensor([0.0]).double()
    x2.requires_grad = True
    w1 = T.Tensor([-3.0]).double()
    w1.requires_grad = True
    w2 = T.Tensor([1.0]).double()
    w2.requires_grad = True
    b = T.Tensor([6.8813735870195432]).double()
    b.requires_grad = True
    n = x1 * w1 + x2 * w2 + b
    o = T.tanh(n)
    o.backward()
    # the exp form of tanh gives the same gradient
    e = (2 * n.detach().requires_grad_()).exp()
    o2 = (e - 1) / (e + 1)
    o2.backward()
    return (
        o.data.item(),
        x2.grad.item(),
        w2.grad.item(),
        x1.grad.item(),
        w1.grad.item(),
        o.grad_fn,
        o2.item(),
        o2.grad_fn,
        type(o.item()).__name__,
    )


@program()
def prog_edu_micrograd_mlp_training(T: Any) -> Any:
    # micrograd's MLP(3, [4, 4, 1]) on its 4-example dataset with a squared error loss, written
    # as tensors; grads zeroed by hand; the sign of each prediction at the end
    xs = T.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
    ys = T.tensor([1.0, -1.0, -1.0, 1.0])
    rng = np.random.default_rng(0)
    sizes = [3, 4, 4, 1]
    params = []
    for i in range(3):
        W = T.tensor(rng.uniform(-1, 1, (sizes[i], sizes[i + 1])).astype(np.float32))
        b = T.tensor(rng.uniform(-1, 1, (sizes[i + 1],)).astype(np.float32))
        params += [W.requires_grad_(), b.requires_grad_()]
    losses = []
    for _k in range(5):
        h = xs
        for i in range(3):
            h = h @ params[2 * i] + params[2 * i + 1]
            h = h.tanh() if i < 2 else h
        ypred = h.squeeze(-1)
        loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred, strict=True))
        for p in params:
            p.grad = None
        loss.backward()
        for p in params:
            p.data += -0.1 * p.grad
        losses.append(loss.item())
    return losses, loss.grad_fn, ypred, [p.grad for p in params], sum(p.numel() for p in params)


# --- makemore part 1: bigrams ------------------------------------------------------------------


@program()
def prog_edu_bigram_counts_and_sampling(T: Any) -> Any:
    stoi = _stoi()
    itos = {i: s for s, i in stoi.items()}
    N = T.zeros((27, 27), dtype=T.int32)
    for w in _WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:], strict=False):
            ix1 = stoi[ch1]
            ix2 = stoi[ch2]
            N[ix1, ix2] += 1
    p = N[0].float()
    p = p / p.sum()
    g = T.Generator().manual_seed(2147483647)
    ix = T.multinomial(p, num_samples=1, replacement=True, generator=g).item()
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    g = T.Generator().manual_seed(2147483647)
    out = []
    for _i in range(5):
        name = []
        ix = 0
        while True:
            p = P[ix]
            ix = T.multinomial(p, num_samples=1, replacement=True, generator=g).item()
            name.append(itos[ix])
            if ix == 0 or len(name) > 12:
                break
        out.append("".join(name))
    return N, N.dtype, N[0, 5], N.sum(), P[0], P.sum(1), P.dtype, ix, out


@program()
def prog_edu_bigram_negative_log_likelihood(T: Any) -> Any:
    stoi = _stoi()
    N = T.zeros((27, 27), dtype=T.int32)
    for w in _WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:], strict=False):
            N[stoi[ch1], stoi[ch2]] += 1
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    log_likelihood = 0.0
    n = 0
    for w in _WORDS[:3]:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:], strict=False):
            prob = P[stoi[ch1], stoi[ch2]]
            logprob = T.log(prob)
            log_likelihood += logprob
            n += 1
    nll = -log_likelihood
    # the broadcasting bug the video warns about: sum(1) without keepdim divides columns
    Pbad = (N + 1).float()
    Pbad = Pbad / Pbad.sum(1)
    return log_likelihood, nll, nll / n, type(log_likelihood).__name__, Pbad[0, :3], Pbad.sum(1)[:3]


@program()
def prog_edu_bigram_neural_net(T: Any) -> Any:
    stoi = _stoi()
    xs, ys = [], []
    for w in _WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:], strict=False):
            xs.append(stoi[ch1])
            ys.append(stoi[ch2])
    xs = T.tensor(xs)
    ys = T.tensor(ys)
    num = xs.nelement()
    F = T.nn.functional
    g = T.Generator().manual_seed(2147483647)
    W = T.randn((27, 27), generator=g, requires_grad=True)
    xenc = F.one_hot(xs, num_classes=27).float()
    losses = []
    for _k in range(4):
        logits = xenc @ W  # log-counts
        counts = logits.exp()  # equivalent N
        probs = counts / counts.sum(1, keepdims=True)
        loss = -probs[T.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
        W.grad = None
        loss.backward()
        W.data += -50 * W.grad
        losses.append(loss.item())
    ce = F.cross_entropy(xenc @ W, ys)
    return (
        F.one_hot(xs, num_classes=27).dtype,
        xenc.shape,
        losses,
        loss.grad_fn,
        probs.grad_fn,
        counts.grad_fn,
        W.grad[:3, :5],
        ce,
        ce.grad_fn,
        raises(lambda: F.one_hot(xs.float(), num_classes=27)),
        raises(lambda: F.one_hot(xs, num_classes=3)),
    )


# --- makemore part 2: the MLP with an embedding table --------------------------------------


@program()
def prog_edu_mlp_embedding_lookup_forms(T: Any) -> Any:
    X, _Y = _dataset(T)
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, 2), generator=g)
    emb = C[X]
    F = T.nn.functional
    # the video's three ways to get the row of 5, then the concat forms
    row = (
        C[5],
        F.one_hot(T.tensor(5), num_classes=27).float() @ C,
        C[[5, 6, 7]],
        C[T.tensor([5, 6, 7, 7])],
    )
    W1 = T.randn((6, 100), generator=g)
    b1 = T.randn(100, generator=g)
    cat3 = T.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1)
    catu = T.cat(T.unbind(emb, 1), 1)
    a = T.arange(18)
    h = T.tanh(emb.view(-1, 6) @ W1 + b1)
    return (
        X.shape,
        X.dtype,
        emb.shape,
        row,
        C[X][13, 2],
        C[X[13, 2]],
        T.equal(cat3, catu),
        T.equal(catu, emb.view(emb.shape[0], 6)),
        a.view(9, 2).shape,
        a.view(3, 3, 2).is_contiguous(),
        a.storage().size() if hasattr(a, "storage") else None,
        h.shape,
        h[0, :5],
        emb.view(32 if emb.shape[0] == 32 else emb.shape[0], 6).shape,
        raises(lambda: emb.view(-1, 5)),
        raises(lambda: C[T.tensor([27])]),
        raises(lambda: C[X.float()]),
    )


@program()
def prog_edu_mlp_training_minibatch(T: Any) -> Any:
    X, Y = _dataset(T)
    F = T.nn.functional
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, 10), generator=g)
    W1 = T.randn((30, 200), generator=g)
    b1 = T.randn(200, generator=g)
    W2 = T.randn((200, 27), generator=g)
    b2 = T.randn(27, generator=g)
    parameters = [C, W1, b1, W2, b2]
    nparams = sum(p.nelement() for p in parameters)
    for p in parameters:
        p.requires_grad = True
    lre = T.linspace(-3, 0, 1000)
    lrs = 10**lre
    lri, lossi = [], []
    for i in range(6):
        ix = T.randint(0, X.shape[0], (8,), generator=g)
        emb = C[X[ix]]
        h = T.tanh(emb.view(-1, 30) @ W1 + b1)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Y[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = lrs[i * 100]
        for p in parameters:
            p.data += -lr * p.grad
        lri.append(lre[i * 100])
        lossi.append(loss.log10().item())
    # the manual loss equals cross_entropy
    counts = logits.exp()
    prob = counts / counts.sum(1, keepdims=True)
    manual = -prob[T.arange(8), Y[ix]].log().mean()
    return nparams, lossi, lri, lrs.dtype, loss, manual, loss.grad_fn, C.grad[:4], b1.grad[:5], ix


@program()
def prog_edu_mlp_splits_and_eval(T: Any) -> Any:
    random.seed(42)
    words = list(_WORDS)
    random.shuffle(words)
    n1 = int(0.8 * len(words))
    n2 = int(0.9 * len(words))
    X, Y = _dataset(T)
    Xtr, Xdev, Xte = X[: n1 * 4], X[n1 * 4 : n2 * 4], X[n2 * 4 :]
    Ytr = Y[: n1 * 4]
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, 2), generator=g, requires_grad=True)
    W1 = T.randn((6, 20), generator=g, requires_grad=True)
    W2 = T.randn((20, 27), generator=g, requires_grad=True)
    F = T.nn.functional
    for _ in range(3):
        loss = F.cross_entropy(T.tanh(C[Xtr].view(-1, 6) @ W1) @ W2, Ytr)
        for p in (C, W1, W2):
            p.grad = None
        loss.backward()
        for p in (C, W1, W2):
            p.data += -0.1 * p.grad
    with T.no_grad():
        dev = F.cross_entropy(T.tanh(C[Xdev].view(-1, 6) @ W1) @ W2, Y[n1 * 4 : n2 * 4])
    # sampling from the model
    g = T.Generator().manual_seed(2147483647 + 10)
    outs = []
    for _ in range(3):
        out, context = [], [0] * 3
        while len(out) < 10:
            emb = C[T.tensor([context])]
            h = T.tanh(emb.view(1, -1) @ W1)
            probs = F.softmax(h @ W2, dim=1)
            ix = T.multinomial(probs, num_samples=1, generator=g).item()
            context = context[1:] + [ix]
            out.append(ix)
            if ix == 0:
                break
        outs.append(out)
    return (
        words,
        Xtr.shape,
        Xdev.shape,
        Xte.shape,
        loss.item(),
        dev,
        dev.requires_grad,
        dev.grad_fn,
        outs,
    )


# --- makemore part 3: activations, gradients, BatchNorm ------------------------------------


def _mlp_params(T: Any, n_embd: int = 4, n_hidden: int = 16, block_size: int = 3) -> Any:
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, n_embd), generator=g)
    W1 = (
        T.randn((n_embd * block_size, n_hidden), generator=g)
        * (5 / 3)
        / ((n_embd * block_size) ** 0.5)
    )
    b1 = T.randn(n_hidden, generator=g) * 0.01
    W2 = T.randn((n_hidden, 27), generator=g) * 0.01
    b2 = T.randn(27, generator=g) * 0
    bngain = T.ones((1, n_hidden))
    bnbias = T.zeros((1, n_hidden))
    return g, [C, W1, b1, W2, b2, bngain, bnbias]


@program()
def prog_edu_batchnorm_by_hand_training(T: Any) -> Any:
    X, Y = _dataset(T)
    F = T.nn.functional
    g, parameters = _mlp_params(T)
    C, W1, b1, W2, b2, bngain, bnbias = parameters
    bnmean_running = T.zeros((1, 16))
    bnstd_running = T.ones((1, 16))
    for p in parameters:
        p.requires_grad = True
    lossi, ud = [], []
    for i in range(5):
        ix = T.randint(0, X.shape[0], (12,), generator=g)
        Xb, Yb = X[ix], Y[ix]
        emb = C[Xb]
        embcat = emb.view(emb.shape[0], -1)
        hpreact = embcat @ W1 + b1
        bnmeani = hpreact.mean(0, keepdim=True)
        bnstdi = hpreact.std(0, keepdim=True)
        hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
        with T.no_grad():
            bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
            bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
        h = T.tanh(hpreact)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Yb)
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 3 else 0.01
        for p in parameters:
            p.data += -lr * p.grad
        lossi.append(loss.log10().item())
        with T.no_grad():
            ud.append([((lr * p.grad).std() / p.data.std()).log10().item() for p in parameters[:2]])
    # saturation statistics of the tanh layer from the video
    sat = (h.abs() > 0.99).float().mean()
    dead = (h.abs() > 0.99).all(0)
    return (
        lossi,
        ud,
        bnmean_running,
        bnstd_running,
        bnmean_running.requires_grad,
        sat,
        dead,
        dead.dtype,
        bngain.grad,
        bnbias.grad,
        hpreact.grad_fn,
    )


@program()
def prog_edu_batchnorm_calibrate_after_training(T: Any) -> Any:
    X, Y = _dataset(T)
    F = T.nn.functional
    _, (C, W1, b1, W2, b2, bngain, bnbias) = _mlp_params(T)

    @T.no_grad()
    def split_loss(x, y, bnmean, bnstd):
        emb = C[x]
        hpreact = emb.view(emb.shape[0], -1) @ W1 + b1
        hpreact = bngain * (hpreact - bnmean) / bnstd + bnbias
        return F.cross_entropy(T.tanh(hpreact) @ W2 + b2, y)

    with T.no_grad():
        emb = C[X]
        hpreact = emb.view(emb.shape[0], -1) @ W1 + b1
        bnmean = hpreact.mean(0, keepdim=True)
        bnstd = hpreact.std(0, keepdim=True)
        bnvar_biased = hpreact.var(0, keepdim=True, unbiased=False)
    single = split_loss(X[:1], Y[:1], bnmean, bnstd)
    return (
        bnmean,
        bnstd,
        bnvar_biased,
        split_loss(X, Y, bnmean, bnstd),
        single,
        single.requires_grad,
        split_loss.__name__,
        # one example's batch statistics: std of one value is nan (with a warning)
        raises(lambda: hpreact[:1].std(0, keepdim=True)),
    )


@program()
def prog_edu_kaiming_init_statistics(T: Any) -> Any:
    T.manual_seed(42)
    x = T.randn(100, 10)
    w = T.randn(10, 20) / 10**0.5
    y = x @ w
    g = T.Generator().manual_seed(2147483647)
    nn = T.nn
    lin = nn.Linear(10, 20, bias=False)
    nn.init.kaiming_normal_(lin.weight, mode="fan_in", nonlinearity="tanh", generator=g)
    gains = [nn.init.calculate_gain(n) for n in ("tanh", "relu", "linear", "sigmoid", "conv2d")]
    return (
        x.mean(),
        x.std(),
        y.mean(),
        y.std(),
        lin.weight.std(),
        gains,
        nn.init.calculate_gain("leaky_relu", 0.2),
        raises(lambda: nn.init.calculate_gain("gelu")),
        raises(lambda: nn.init.calculate_gain("leaky_relu", "a")),
        raises(lambda: nn.init.kaiming_normal_(lin.weight, mode="fan_x")),
    )


@program()
def prog_edu_layer_classes_and_diagnostics(T: Any) -> Any:
    # part 3's own Linear / BatchNorm1d / Tanh classes, retain_grad on every layer's output,
    # then the activation and gradient statistics the video plots (histograms)
    g = T.Generator().manual_seed(2147483647)

    class Linear:
        def __init__(self, fan_in, fan_out, bias=True):
            self.weight = T.randn((fan_in, fan_out), generator=g) / fan_in**0.5
            self.bias = T.zeros(fan_out) if bias else None

        def __call__(self, x):
            self.out = x @ self.weight
            if self.bias is not None:
                self.out += self.bias
            return self.out

        def parameters(self):
            return [self.weight] + ([] if self.bias is None else [self.bias])

    class BatchNorm1d:
        def __init__(self, dim, eps=1e-5, momentum=0.1):
            self.eps, self.momentum, self.training = eps, momentum, True
            self.gamma, self.beta = T.ones(dim), T.zeros(dim)
            self.running_mean, self.running_var = T.zeros(dim), T.ones(dim)

        def __call__(self, x):
            if self.training:
                xmean = x.mean(0, keepdim=True)
                xvar = x.var(0, keepdim=True)
            else:
                xmean, xvar = self.running_mean, self.running_var
            xhat = (x - xmean) / T.sqrt(xvar + self.eps)
            self.out = self.gamma * xhat + self.beta
            if self.training:
                with T.no_grad():
                    self.running_mean = (
                        1 - self.momentum
                    ) * self.running_mean + self.momentum * xmean
                    self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
            return self.out

        def parameters(self):
            return [self.gamma, self.beta]

    class Tanh:
        def __call__(self, x):
            self.out = T.tanh(x)
            return self.out

        def parameters(self):
            return []

    n_embd, n_hidden = 4, 12
    C = T.randn((27, n_embd), generator=g)
    layers = [Linear(n_embd * 3, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh()]
    layers += [Linear(n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh()]
    layers += [Linear(n_hidden, 27, bias=False), BatchNorm1d(27)]
    with T.no_grad():
        layers[-1].gamma *= 0.1
        for layer in layers[:-1]:
            if isinstance(layer, Linear):
                layer.weight *= 5 / 3
    parameters = [C] + [p for layer in layers for p in layer.parameters()]
    for p in parameters:
        p.requires_grad = True
    X, Y = _dataset(T)
    ix = T.randint(0, X.shape[0], (10,), generator=g)
    x = C[X[ix]].view(10, -1)
    for layer in layers:
        x = layer(x)
    loss = T.nn.functional.cross_entropy(x, Y[ix])
    for layer in layers:
        layer.out.retain_grad()
    for p in parameters:
        p.grad = None
    loss.backward()
    stats = []
    for layer in layers:
        if isinstance(layer, Tanh):
            t = layer.out
            hy, hx = T.histogram(t, density=True)
            stats.append((t.mean(), t.std(), (t.abs() > 0.97).float().mean() * 100, hy, hx))
            g_ = layer.out.grad
            stats.append((g_.mean(), g_.std(), T.histogram(g_, bins=5)))
    grad_stats = [
        (p.grad.mean(), p.grad.std(), p.grad.std() / p.std()) for p in parameters if p.ndim == 2
    ]
    return (
        loss,
        stats,
        grad_stats,
        layers[1].running_mean,
        layers[1].running_var,
        layers[0].out.grad_fn,
        layers[1].out.grad_fn,
        layers[2].out.is_leaf,
        layers[0].out._version,
    )


# --- makemore part 4: become a backprop ninja ----------------------------------------------


def _cmp(T: Any, s: str, dt: Any, t: Any) -> Any:
    ex = T.all(dt == t.grad).item()
    app = T.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    return s, ex, app, maxdiff < 1e-8


def _ninja_forward(T: Any, n: int = 8, dtype: Any = None) -> Any:
    X, Y = _dataset(T)
    T.manual_seed(42)  # bngain and bnbias draw from the global generator
    n_embd, n_hidden, block_size, vocab_size = 4, 16, 3, 27
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((vocab_size, n_embd), generator=g)
    W1 = (
        T.randn((n_embd * block_size, n_hidden), generator=g)
        * (5 / 3)
        / ((n_embd * block_size) ** 0.5)
    )
    b1 = T.randn(n_hidden, generator=g) * 0.1
    W2 = T.randn((n_hidden, vocab_size), generator=g) * 0.1
    b2 = T.randn(vocab_size, generator=g) * 0.1
    bngain = T.randn((1, n_hidden)) * 0.1 + 1.0
    bnbias = T.randn((1, n_hidden)) * 0.1
    parameters = [C, W1, b1, W2, b2, bngain, bnbias]
    if dtype is not None:
        parameters = [p.to(dtype) for p in parameters]
        C, W1, b1, W2, b2, bngain, bnbias = parameters
    for p in parameters:
        p.requires_grad = True
    ix = T.randint(0, X.shape[0], (n,), generator=g)
    Xb, Yb = X[ix], Y[ix]
    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hprebn = embcat @ W1 + b1
    bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
    bndiff = hprebn - bnmeani
    bndiff2 = bndiff**2
    bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)  # Bessel's correction
    bnvar_inv = (bnvar + 1e-5) ** -0.5
    bnraw = bndiff * bnvar_inv
    hpreact = bngain * bnraw + bnbias
    h = T.tanh(hpreact)
    logits = h @ W2 + b2
    logit_maxes = logits.max(1, keepdim=True).values
    norm_logits = logits - logit_maxes
    counts = norm_logits.exp()
    counts_sum = counts.sum(1, keepdims=True)
    counts_sum_inv = counts_sum**-1
    probs = counts * counts_sum_inv
    logprobs = probs.log()
    loss = -logprobs[range(n), Yb].mean()
    inter = [
        logprobs,
        probs,
        counts,
        counts_sum,
        counts_sum_inv,
        norm_logits,
        logit_maxes,
        logits,
        h,
    ]
    inter += [hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, embcat, emb]
    for p in parameters:
        p.grad = None
    for t in inter:
        t.retain_grad()
    loss.backward()
    return locals()


@program()
def prog_edu_ninja_exercise1_manual_backward(T: Any) -> Any:
    v = _ninja_forward(T)
    n = v["n"]
    logprobs, probs, counts, counts_sum = v["logprobs"], v["probs"], v["counts"], v["counts_sum"]
    counts_sum_inv, norm_logits, logits, h = (
        v["counts_sum_inv"],
        v["norm_logits"],
        v["logits"],
        v["h"],
    )
    hpreact, bnraw, bnvar_inv, bnvar = v["hpreact"], v["bnraw"], v["bnvar_inv"], v["bnvar"]
    bndiff, bndiff2, hprebn, embcat, emb = (
        v["bndiff"],
        v["bndiff2"],
        v["hprebn"],
        v["embcat"],
        v["emb"],
    )
    C, W1, b1, W2, b2, bngain, bnbias = v["parameters"]
    Xb, Yb = v["Xb"], v["Yb"]
    F = T.nn.functional
    dlogprobs = T.zeros_like(logprobs)
    dlogprobs[range(n), Yb] = -1.0 / n
    dprobs = (1.0 / probs) * dlogprobs
    dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
    dcounts = counts_sum_inv * dprobs
    dcounts_sum = (-(counts_sum**-2)) * dcounts_sum_inv
    dcounts += T.ones_like(counts) * dcounts_sum
    dnorm_logits = counts * dcounts
    dlogits = dnorm_logits.clone()
    dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
    dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
    dh = dlogits @ W2.T
    dW2 = h.T @ dlogits
    db2 = dlogits.sum(0)
    dhpreact = (1.0 - h**2) * dh
    dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
    dbnraw = bngain * dhpreact
    dbnbias = dhpreact.sum(0, keepdim=True)
    dbndiff = bnvar_inv * dbnraw
    dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
    dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
    dbndiff2 = (1.0 / (n - 1)) * T.ones_like(bndiff2) * dbnvar
    dbndiff += (2 * bndiff) * dbndiff2
    dhprebn = dbndiff.clone()
    dbnmeani = (-dbndiff).sum(0)
    dhprebn += 1.0 / n * (T.ones_like(hprebn) * dbnmeani)
    dembcat = dhprebn @ W1.T
    dW1 = embcat.T @ dhprebn
    db1 = dhprebn.sum(0)
    demb = dembcat.view(emb.shape)
    dC = T.zeros_like(C)
    for k in range(Xb.shape[0]):
        for j in range(Xb.shape[1]):
            ix = Xb[k, j]
            dC[ix] += demb[k, j]
    dC2 = T.zeros_like(C).index_add(0, Xb.view(-1), demb.view(-1, demb.shape[-1]))
    pairs = [
        ("logprobs", dlogprobs, logprobs),
        ("probs", dprobs, probs),
        ("counts_sum_inv", dcounts_sum_inv, counts_sum_inv),
        ("counts_sum", dcounts_sum, counts_sum),
        ("counts", dcounts, counts),
        ("norm_logits", dnorm_logits, norm_logits),
        ("logit_maxes", dlogit_maxes, v["logit_maxes"]),
        ("logits", dlogits, logits),
        ("h", dh, h),
        ("W2", dW2, W2),
        ("b2", db2, b2),
        ("hpreact", dhpreact, hpreact),
        ("bngain", dbngain, bngain),
        ("bnbias", dbnbias, bnbias),
        ("bnraw", dbnraw, bnraw),
        ("bnvar_inv", dbnvar_inv, bnvar_inv),
        ("bnvar", dbnvar, bnvar),
        ("bndiff2", dbndiff2, bndiff2),
        ("bndiff", dbndiff, bndiff),
        ("hprebn", dhprebn, hprebn),
        ("embcat", dembcat, embcat),
        ("W1", dW1, W1),
        ("b1", db1, b1),
        ("emb", demb, emb),
        ("C", dC, C),
        ("C2", dC2, C),
    ]
    # cmp()'s exact branch where the manual step is the same arithmetic as autograd's (up to
    # b2: the notebook shows True there, and False from hpreact on, where tanh's backward and
    # the batchnorm steps compute in another order); allclose and the max difference for all
    # (the last-bits noise of gradients that cancel to ~0, b1's: a tolerance of its own there)
    cmps = [
        _cmp(T, s, d, t)[:3] if i < 11 else (s, T.allclose(d, t.grad, rtol=1e-4, atol=1e-7))
        for i, (s, d, t) in enumerate(pairs)
    ]
    return cmps, v["loss"], dlogit_maxes.abs().max() < 1e-6, dC, dlogits, dhprebn, dbnvar


@program()
def prog_edu_ninja_exercise2_fused_cross_entropy(T: Any) -> Any:
    v = _ninja_forward(T)
    n, logits, Yb = v["n"], v["logits"], v["Yb"]
    F = T.nn.functional
    loss_fast = F.cross_entropy(logits, Yb)
    dlogits = F.softmax(logits, 1)
    dlogits[range(n), Yb] -= 1
    dlogits /= n
    out = (loss_fast.item() - v["loss"].item(), _cmp(T, "logits", dlogits, logits)[::2])
    # the video's check: the gradient rows sum to zero
    return out, dlogits.sum(1).abs().max() < 1e-7, loss_fast.grad_fn, dlogits[0]


@program()
def prog_edu_ninja_exercise3_fused_batchnorm(T: Any) -> Any:
    v = _ninja_forward(T)
    n, hprebn, bngain, bnbias = v["n"], v["hprebn"], v["parameters"][5], v["parameters"][6]
    hpreact_fast = (
        bngain
        * (hprebn - hprebn.mean(0, keepdim=True))
        / T.sqrt(hprebn.var(0, keepdim=True, unbiased=True) + 1e-5)
        + bnbias
    )
    diff = (hpreact_fast - v["hpreact"]).abs().max()
    dhpreact = v["hpreact"].grad
    bnvar_inv, bnraw = v["bnvar_inv"], v["bnraw"]
    dhprebn = (
        bngain
        * bnvar_inv
        / n
        * (n * dhpreact - dhpreact.sum(0) - n / (n - 1) * bnraw * (dhpreact * bnraw).sum(0))
    )
    return diff < 1e-6, _cmp(T, "hprebn", dhprebn, hprebn)[::2], dhprebn.shape, hpreact_fast.grad_fn


@program()
def prog_edu_ninja_exercise4_training_with_manual_grads(T: Any) -> Any:
    # the training loop with every gradient by hand under torch.no_grad(), p.grad set to the
    # manual grads for the optimizer step; float64 so the check against autograd is tight
    X, Y = _dataset(T)
    F = T.nn.functional
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, 4), generator=g, dtype=T.float64)
    W1 = T.randn((12, 16), generator=g, dtype=T.float64) * (5 / 3) / (12**0.5)
    W2 = T.randn((16, 27), generator=g, dtype=T.float64) * 0.1
    b2 = T.randn(27, generator=g, dtype=T.float64) * 0.1
    bngain = T.ones((1, 16), dtype=T.float64)
    bnbias = T.zeros((1, 16), dtype=T.float64)
    parameters = [C, W1, W2, b2, bngain, bnbias]
    for p in parameters:
        p.requires_grad = True
    n = 6
    lossi, checks = [], []
    for _i in range(3):
        ix = T.randint(0, X.shape[0], (n,), generator=g)
        Xb, Yb = X[ix], Y[ix]
        emb = C[Xb]
        embcat = emb.view(emb.shape[0], -1)
        hprebn = embcat @ W1
        bnmean = hprebn.mean(0, keepdim=True)
        bnvar = hprebn.var(0, keepdim=True, unbiased=True)
        bnvar_inv = (bnvar + 1e-5) ** -0.5
        bnraw = (hprebn - bnmean) * bnvar_inv
        hpreact = bngain * bnraw + bnbias
        h = T.tanh(hpreact)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Yb)
        for p in parameters:
            p.grad = None
        loss.backward()
        auto = [p.grad.clone() for p in parameters]
        with T.no_grad():
            dlogits = F.softmax(logits, 1)
            dlogits[range(n), Yb] -= 1
            dlogits /= n
            dh = dlogits @ W2.T
            dW2 = h.T @ dlogits
            db2 = dlogits.sum(0)
            dhpreact = (1.0 - h**2) * dh
            dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
            dbnbias = dhpreact.sum(0, keepdim=True)
            dhprebn = (
                bngain
                * bnvar_inv
                / n
                * (n * dhpreact - dhpreact.sum(0) - n / (n - 1) * bnraw * (dhpreact * bnraw).sum(0))
            )
            dembcat = dhprebn @ W1.T
            dW1 = embcat.T @ dhprebn
            demb = dembcat.view(emb.shape)
            dC = T.zeros_like(C)
            for k in range(Xb.shape[0]):
                for j in range(Xb.shape[1]):
                    dC[Xb[k, j]] += demb[k, j]
            grads = [dC, dW1, dW2, db2, dbngain, dbnbias]
            for p, grad in zip(parameters, grads, strict=True):
                p.data += -0.1 * grad
        checks.append([T.allclose(a, b) for a, b in zip(auto, grads, strict=True)])
        lossi.append(loss.log10().item())
    return lossi, checks, C.dtype, bnbias


@program()
def prog_edu_ninja_cmp_exact_equalities(T: Any) -> Any:
    # cmp()'s exact branch on the steps where the manual and autograd computations are the
    # same arithmetic (one multiply, one index): torch's own notebook shows True there
    v = _ninja_forward(T)
    n, logprobs, probs, Yb = v["n"], v["logprobs"], v["probs"], v["Yb"]
    dlogprobs = T.zeros_like(logprobs)
    dlogprobs[range(n), Yb] = -1.0 / n
    dprobs = (1.0 / probs) * dlogprobs
    C, Xb, emb = v["parameters"][0], v["Xb"], v["emb"]
    demb = emb.grad
    dC = T.zeros_like(C)
    for k in range(Xb.shape[0]):
        for j in range(Xb.shape[1]):
            dC[Xb[k, j]] += demb[k, j]
    return (
        _cmp(T, "logprobs", dlogprobs, logprobs),
        _cmp(T, "probs", dprobs, probs),
        dlogprobs.nonzero().shape,
        dprobs[range(n), Yb],
        T.all(dC.sum(0) == C.grad.sum(0)).item() in (True, False),
        (dC - C.grad).abs().max() < 1e-7,
    )


@program()
def prog_edu_ninja_float64_and_half_forward(T: Any) -> Any:
    v = _ninja_forward(T, dtype=T.float64)
    w = _ninja_forward(T, n=5)
    return (
        v["loss"],
        v["loss"].dtype,
        v["C"].grad[:3],
        w["loss"],
        w["bnvar"].grad,
        w["logit_maxes"].grad,
    )


# --- d2l.ai: preliminaries ------------------------------------------------------------------


@program()
def prog_edu_d2l_ndarray_chapter(T: Any) -> Any:
    x = T.arange(12, dtype=T.float32)
    X = x.reshape(3, 4)
    Y = T.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
    out = [x, x.numel(), x.shape, X, X.reshape(-1, 4).shape, T.zeros((2, 3, 4)).shape]
    out += [T.exp(x), T.cat((X, Y), dim=0), T.cat((X, Y), dim=1), X == Y, X.sum()]
    a = T.arange(3).reshape((3, 1))
    b = T.arange(2).reshape((1, 2))
    out += [a + b, X[-1], X[1:3]]
    X[1, 2] = 17
    X[:2, :] = 12
    Z = T.zeros_like(Y)
    before = Z.data_ptr()
    Z[:] = X + Y
    out += [X, Z, Z.data_ptr() == before]
    before = X.data_ptr()
    X += Y
    out += [X.data_ptr() == before]
    A = X.numpy()
    B = T.from_numpy(A)
    a = T.tensor([3.5])
    out += [type(A).__name__, type(B).__name__, a, a.item(), float(a), int(a)]
    xs = T.tensor([1.0, 2, 4, 8])
    ys = T.tensor([2, 2, 2, 2])
    out += [xs + ys, xs - ys, xs * ys, xs / ys, xs**ys, (xs**ys).dtype, xs // ys, ys / ys]
    out += [
        raises(lambda: a.item() + T.ones(2).item()),
        raises(lambda: T.cat((X, T.ones(2, 3)), dim=0)),
    ]
    return out


@program()
def prog_edu_d2l_linear_algebra_chapter(T: Any) -> Any:
    A = T.arange(20, dtype=T.float32).reshape(5, 4)
    B = A.clone()
    x = T.arange(4, dtype=T.float32)
    y = T.ones(4, dtype=T.float32)
    u = T.tensor([3.0, -4.0])
    Sym = T.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
    out = [A.T, Sym == Sym.T, A * B, 2 + A, (2 * A).shape]
    out += [A.sum(axis=0), A.sum(axis=1), A.sum(axis=[0, 1]), A.sum(axis=(0, 1)), A.mean()]
    out += [A.mean(axis=0), A.sum(axis=0) / A.shape[0], A.sum() / A.numel()]
    sum_A = A.sum(axis=1, keepdims=True)
    out += [sum_A, A / sum_A, A.cumsum(axis=0), T.dot(x, y), T.sum(x * y), T.mv(A, x)]
    out += [T.mm(A, T.ones(4, 3)), T.norm(u), T.abs(u).sum(), T.norm(T.ones((4, 9)))]
    out += [
        T.linalg.norm(A),
        T.linalg.vector_norm(u, ord=1),
        len(A),
        T.ones(2, 3, 4).sum(axis=1).shape,
    ]
    out += [
        raises(lambda: A / A.sum(axis=1)),
        raises(lambda: T.dot(x, A)),
        raises(lambda: T.mv(A, T.ones(5))),
    ]
    out += [raises(lambda: T.mm(A, A)), raises(lambda: A.mean(axis=0, dtype=T.int64))]
    out += [raises(lambda: T.arange(4).mean()), raises(lambda: T.norm(T.arange(4)))]
    out += [raises(lambda: T.dot(x, T.arange(4)))]
    return out


@program()
def prog_edu_d2l_autograd_chapter(T: Any) -> Any:
    x = T.arange(4.0)
    x.requires_grad_(True)
    first = x.grad
    y = 2 * T.dot(x, x)
    y.backward()
    out = [first, y, y.grad_fn, x.grad, x.grad == 4 * x]
    x.grad.zero_()
    y = x.sum()
    y.backward()
    out += [x.grad]
    x.grad.zero_()
    y = x * x
    err = raises(lambda: y.backward())
    y.backward(gradient=T.ones(len(y)))
    out += [err, x.grad]
    x.grad.zero_()
    y = x * x
    u = y.detach()
    z = u * x
    z.sum().backward()
    out += [x.grad == u, u.requires_grad, z.grad_fn]
    x.grad.zero_()
    y.sum().backward()
    out += [x.grad == 2 * x]
    # calling backward twice through the same graph
    y = x * x
    y.sum().backward()
    out += [raises(lambda: y.sum().backward())]
    # zero_ on a leaf without grad
    w = T.ones(2, requires_grad=True)
    out += [raises(lambda: w.grad.zero_())]
    return out


@program()
def prog_edu_d2l_autograd_control_flow(T: Any) -> Any:
    def f(a):
        b = a * 2
        while b.norm() < 1000:
            b = b * 2
        if b.sum() > 0:
            c = b
        else:
            c = 100 * b
        return c

    T.manual_seed(0)
    a = T.randn(size=(), requires_grad=True)
    d = f(a)
    d.backward()
    b = T.randn(size=(3,), requires_grad=True)
    e = f(b)
    e.backward(gradient=T.ones(3))
    neg = T.tensor(-0.3, requires_grad=True)
    fneg = f(neg)
    fneg.backward()
    return a, d, a.grad, a.grad == d / a, d.grad_fn, e, b.grad, neg.grad, fneg.grad_fn, a.shape


# --- d2l.ai: linear regression and softmax regression from scratch -------------------------


def _synthetic_data(T: Any, w: Any, b: float, num_examples: int) -> Any:
    X = T.normal(0, 1, (num_examples, len(w)))
    y = T.matmul(X, w) + b
    y += T.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


@program()
def prog_edu_d2l_linear_regression_scratch(T: Any) -> Any:
    T.manual_seed(0)
    random.seed(0)
    true_w = T.tensor([2, -3.4])
    true_b = 4.2
    features, labels = _synthetic_data(T, true_w, true_b, 40)

    def data_iter(batch_size, features, labels):
        num_examples = len(features)
        indices = list(range(num_examples))
        random.shuffle(indices)
        for i in range(0, num_examples, batch_size):
            batch_indices = T.tensor(indices[i : min(i + batch_size, num_examples)])
            yield features[batch_indices], labels[batch_indices]

    w = T.normal(0, 0.01, size=(2, 1), requires_grad=True)
    b = T.zeros(1, requires_grad=True)

    def linreg(X, w, b):
        return T.matmul(X, w) + b

    def squared_loss(y_hat, y):
        return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

    def sgd(params, lr, batch_size):
        with T.no_grad():
            for param in params:
                param -= lr * param.grad / batch_size
                param.grad.zero_()

    lr, num_epochs, net, loss = 0.03, 3, linreg, squared_loss
    epochs = []
    for _epoch in range(num_epochs):
        for X, y in data_iter(10, features, labels):
            lo = loss(net(X, w, b), y)
            lo.sum().backward()
            sgd([w, b], lr, 10)
        with T.no_grad():
            train_l = loss(net(features, w, b), labels)
            epochs.append(float(train_l.mean()))
    return (
        features[0],
        labels[0],
        epochs,
        true_w - w.reshape(true_w.shape),
        true_b - b,
        w.grad,
        w.is_leaf,
        lo.grad_fn,
        raises(lambda: T.normal(0, 1, (2,), requires_grad=True).sum().backward()),
        raises(lambda: T.normal(T.zeros(2), -1.0)),
    )


@program()
def prog_edu_d2l_linear_regression_concise(T: Any) -> Any:
    T.manual_seed(0)
    nn = T.nn
    data = T.utils.data
    features, labels = _synthetic_data(T, T.tensor([2, -3.4]), 4.2, 30)
    dataset = data.TensorDataset(features, labels)
    loader = data.DataLoader(dataset, 10, shuffle=True)
    net = nn.Sequential(nn.Linear(2, 1))
    net[0].weight.data.normal_(0, 0.01)
    net[0].bias.data.fill_(0)
    loss = nn.MSELoss()
    trainer = T.optim.SGD(net.parameters(), lr=0.03)
    ls = []
    for _epoch in range(3):
        for X, y in loader:
            lo = loss(net(X), y)
            trainer.zero_grad()
            lo.backward()
            trainer.step()
        ls.append(loss(net(features), labels).item())
    w = net[0].weight.data
    lnone = nn.MSELoss(reduction="none")(net(features[:3]), labels[:3])
    huber = nn.HuberLoss()(net(features[:3]), labels[:3])
    return (
        ls,
        w,
        net[0].bias.data,
        len(dataset),
        len(loader),
        lnone,
        lnone.grad_fn,
        huber,
        net[0].weight.grad,
        raises(lambda: loss(net(features[:3]), labels[:3].squeeze())),
    )


@program()
def prog_edu_d2l_softmax_regression_scratch(T: Any) -> Any:
    T.manual_seed(0)
    X = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    sums = (X.sum(0, keepdim=True), X.sum(1, keepdim=True))

    def softmax(X):
        X_exp = T.exp(X)
        partition = X_exp.sum(1, keepdim=True)
        return X_exp / partition

    X = T.normal(0, 1, (2, 5))
    X_prob = softmax(X)
    y = T.tensor([0, 2])
    y_hat = T.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])

    def cross_entropy(y_hat, y):
        return -T.log(y_hat[range(len(y_hat)), y])

    def accuracy(y_hat, y):
        if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
            y_hat = y_hat.argmax(axis=1)
        cmp = y_hat.type(y.dtype) == y
        return float(cmp.type(y.dtype).sum())

    num_inputs, num_outputs = 8, 3
    W = T.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
    b = T.zeros(num_outputs, requires_grad=True)
    Xs = T.randn(6, 2, 4)
    ys = T.tensor([0, 1, 2, 1, 0, 2])

    def net(X):
        return softmax(T.matmul(X.reshape((-1, W.shape[0])), W) + b)

    accs, ls = [], []
    for _ in range(3):
        lo = cross_entropy(net(Xs), ys)
        lo.mean().backward()
        with T.no_grad():
            for p in (W, b):
                p -= 0.5 * p.grad
                p.grad.zero_()
        ls.append(lo.mean().item())
        accs.append(accuracy(net(Xs), ys) / len(ys))
    return (
        sums,
        X_prob,
        X_prob.sum(1),
        y_hat[[0, 1], y],
        cross_entropy(y_hat, y),
        accuracy(y_hat, y) / len(y),
        y_hat.type(),
        y_hat.type(T.int64),
        y_hat.argmax(axis=1),
        ls,
        accs,
        lo.grad_fn,
        softmax(T.tensor([[100.0, 0.0]])),
        softmax(T.tensor([[1000.0, 0.0]])),
        raises(lambda: y_hat.type("torch.FloatTensorX")),
    )


# --- nanoGPT: model.py in miniature --------------------------------------------------------


def _gpt(T: Any, flash: bool = True, bias: bool = True, n_layer: int = 2, dropout: float = 0.0):
    nn = T.nn
    F = T.nn.functional

    class LayerNorm(nn.Module):
        """LayerNorm but with an optional bias. PyTorch doesn't support simply bias=False"""

        def __init__(self, ndim, bias):
            super().__init__()
            self.weight = nn.Parameter(T.ones(ndim))
            self.bias = nn.Parameter(T.zeros(ndim)) if bias else None

        def forward(self, input):
            return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)

    class CausalSelfAttention(nn.Module):
        def __init__(self, config):
            super().__init__()
            assert config["n_embd"] % config["n_head"] == 0
            self.c_attn = nn.Linear(config["n_embd"], 3 * config["n_embd"], bias=bias)
            self.c_proj = nn.Linear(config["n_embd"], config["n_embd"], bias=bias)
            self.attn_dropout = nn.Dropout(dropout)
            self.resid_dropout = nn.Dropout(dropout)
            self.n_head = config["n_head"]
            self.n_embd = config["n_embd"]
            self.dropout = dropout
            self.flash = flash and hasattr(T.nn.functional, "scaled_dot_product_attention")
            if not self.flash:
                bs = config["block_size"]
                self.register_buffer("bias", T.tril(T.ones(bs, bs)).view(1, 1, bs, bs))

        def forward(self, x):
            B, Tt, C = x.size()
            q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
            k = k.view(B, Tt, self.n_head, C // self.n_head).transpose(1, 2)
            q = q.view(B, Tt, self.n_head, C // self.n_head).transpose(1, 2)
            v = v.view(B, Tt, self.n_head, C // self.n_head).transpose(1, 2)
            if self.flash:
                y = T.nn.functional.scaled_dot_product_attention(
                    q,
                    k,
                    v,
                    attn_mask=None,
                    dropout_p=self.dropout if self.training else 0,
                    is_causal=True,
                )
            else:
                att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
                att = att.masked_fill(self.bias[:, :, :Tt, :Tt] == 0, float("-inf"))
                att = F.softmax(att, dim=-1)
                att = self.attn_dropout(att)
                y = att @ v
            y = y.transpose(1, 2).contiguous().view(B, Tt, C)
            return self.resid_dropout(self.c_proj(y))

    class MLP(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.c_fc = nn.Linear(config["n_embd"], 4 * config["n_embd"], bias=bias)
            self.gelu = nn.GELU()
            self.c_proj = nn.Linear(4 * config["n_embd"], config["n_embd"], bias=bias)
            self.dropout = nn.Dropout(dropout)

        def forward(self, x):
            return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))

    class Block(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.ln_1 = LayerNorm(config["n_embd"], bias=bias)
            self.attn = CausalSelfAttention(config)
            self.ln_2 = LayerNorm(config["n_embd"], bias=bias)
            self.mlp = MLP(config)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class GPT(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.config = config
            self.transformer = nn.ModuleDict(
                dict(
                    wte=nn.Embedding(config["vocab_size"], config["n_embd"]),
                    wpe=nn.Embedding(config["block_size"], config["n_embd"]),
                    drop=nn.Dropout(dropout),
                    h=nn.ModuleList([Block(config) for _ in range(config["n_layer"])]),
                    ln_f=LayerNorm(config["n_embd"], bias=bias),
                )
            )
            self.lm_head = nn.Linear(config["n_embd"], config["vocab_size"], bias=False)
            self.transformer.wte.weight = self.lm_head.weight  # weight tying
            self.apply(self._init_weights)
            for pn, p in self.named_parameters():
                if pn.endswith("c_proj.weight"):
                    T.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config["n_layer"]))

        def get_num_params(self, non_embedding=True):
            n_params = sum(p.numel() for p in self.parameters())
            if non_embedding:
                n_params -= self.transformer.wpe.weight.numel()
            return n_params

        def _init_weights(self, module):
            if isinstance(module, nn.Linear):
                T.nn.init.normal_(module.weight, mean=0.0, std=0.02)
                if module.bias is not None:
                    T.nn.init.zeros_(module.bias)
            elif isinstance(module, nn.Embedding):
                T.nn.init.normal_(module.weight, mean=0.0, std=0.02)

        def forward(self, idx, targets=None):
            _b, t = idx.size()
            assert t <= self.config["block_size"], f"Cannot forward sequence of length {t}"
            pos = T.arange(0, t, dtype=T.long, device=idx.device)
            tok_emb = self.transformer.wte(idx)
            pos_emb = self.transformer.wpe(pos)
            x = self.transformer.drop(tok_emb + pos_emb)
            for block in self.transformer.h:
                x = block(x)
            x = self.transformer.ln_f(x)
            if targets is not None:
                logits = self.lm_head(x)
                loss = F.cross_entropy(
                    logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1
                )
            else:
                logits = self.lm_head(x[:, [-1], :])
                loss = None
            return logits, loss

        def crop_block_size(self, block_size):
            self.config["block_size"] = block_size
            self.transformer.wpe.weight = nn.Parameter(self.transformer.wpe.weight[:block_size])
            for block in self.transformer.h:
                if hasattr(block.attn, "bias"):
                    block.attn.bias = block.attn.bias[:, :, :block_size, :block_size]

        def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
            param_dict = {pn: p for pn, p in self.named_parameters()}
            param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
            decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
            nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
            optim_groups = [
                {"params": decay_params, "weight_decay": weight_decay},
                {"params": nodecay_params, "weight_decay": 0.0},
            ]
            num_decay_params = sum(p.numel() for p in decay_params)
            num_nodecay_params = sum(p.numel() for p in nodecay_params)
            fused_available = "fused" in inspect.signature(T.optim.AdamW).parameters
            use_fused = fused_available and device_type == "cuda"
            extra_args = dict(fused=True) if use_fused else dict()
            optimizer = T.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, **extra_args)
            self.counts = (
                len(decay_params),
                num_decay_params,
                len(nodecay_params),
                num_nodecay_params,
            )
            self.fused_available = fused_available
            return optimizer

        @T.no_grad()
        def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
            for _ in range(max_new_tokens):
                bs = self.config["block_size"]
                idx_cond = idx if idx.size(1) <= bs else idx[:, -bs:]
                logits, _ = self(idx_cond)
                logits = logits[:, -1, :] / temperature
                if top_k is not None:
                    v, _ = T.topk(logits, min(top_k, logits.size(-1)))
                    logits[logits < v[:, [-1]]] = -float("Inf")
                probs = F.softmax(logits, dim=-1)
                idx_next = T.multinomial(probs, num_samples=1)
                idx = T.cat((idx, idx_next), dim=1)
            return idx

    config = dict(block_size=8, vocab_size=11, n_layer=n_layer, n_head=2, n_embd=8)
    T.manual_seed(1337)
    return GPT(config)


@program()
def prog_edu_nanogpt_forward_and_init(T: Any) -> Any:
    model = _gpt(T)
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 8))
    targets = T.randint(0, 11, (2, 8))
    targets[0, :2] = -1
    logits, loss = model(idx, targets)
    loss.backward()
    logits1, none = model(idx)
    names = [n for n, _ in model.named_parameters()]
    stds = {n: p.std() for n, p in model.named_parameters() if p.dim() >= 2}
    return (
        names,
        model.get_num_params(),
        model.get_num_params(non_embedding=False),
        model.transformer.wte.weight is model.lm_head.weight,
        stds,
        logits.shape,
        loss,
        loss.grad_fn,
        logits1.shape,
        none,
        model.lm_head.weight.grad[:2],
        model.transformer.wpe.weight.grad[-1],
        len(list(model.buffers())),
        raises(lambda: model(T.zeros(1, 9, dtype=T.long))),
    )


@program()
def prog_edu_nanogpt_flash_matches_manual_attention(T: Any) -> Any:
    a = _gpt(T, flash=True)
    b = _gpt(T, flash=False)
    b.load_state_dict(a.state_dict(), strict=False)
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 6))
    tg = T.randint(0, 11, (2, 6))
    la, lossa = a(idx, tg)
    lb, lossb = b(idx, tg)
    lossa.backward()
    lossb.backward()
    ga = a.transformer.h[0].attn.c_attn.weight.grad
    gb = b.transformer.h[0].attn.c_attn.weight.grad
    sd = b.state_dict()
    return (
        (la - lb).abs().max() < 1e-5,
        lossa,
        lossb,
        T.allclose(ga, gb, atol=1e-6),
        gb[:3, :4],
        [k for k in sd if k.endswith("attn.bias")],
        sd["transformer.h.0.attn.bias"].shape,
        raises(lambda: a.load_state_dict(b.state_dict())),
    )


@program()
def prog_edu_nanogpt_no_bias_layernorm(T: Any) -> Any:
    model = _gpt(T, bias=False, n_layer=1)
    T.manual_seed(0)
    idx = T.randint(0, 11, (1, 5))
    _logits, loss = model(idx, idx)
    loss.backward()
    ln = T.nn.LayerNorm(8, bias=False)
    x = T.randn(2, 3, 8, requires_grad=True)
    y = ln(x)
    y.sum().backward()
    return (
        loss,
        [n for n, _ in model.named_parameters()],
        model.transformer.ln_f.bias,
        model.transformer.ln_f.weight.grad,
        ln.bias,
        ln.weight.grad,
        y.grad_fn,
        x.grad[0, 0],
        [n for n, _ in ln.named_parameters()],
        repr(ln),
    )


@program()
def prog_edu_nanogpt_configure_optimizers(T: Any) -> Any:
    model = _gpt(T)
    opt = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cpu")
    pg = [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]
    sig = inspect.signature(T.optim.AdamW)
    lr = sig.parameters["lr"]
    return model.counts, model.fused_available, pg, list(sig.parameters), lr.default, str(lr.kind)


@program()
def prog_edu_nanogpt_generate_top_k(T: Any) -> Any:
    model = _gpt(T)
    model.eval()
    T.manual_seed(42)
    start = T.zeros((1, 1), dtype=T.long)
    y = model.generate(start, 10, temperature=0.8, top_k=3)
    y2 = model.generate(T.tensor([[1, 2], [3, 4]]), 4, top_k=200)
    logits = T.tensor([[1.0, 3.0, 2.0, 0.5], [0.0, 0.0, 0.0, 1.0]])
    v, ix = T.topk(logits, 2)
    logits[logits < v[:, [-1]]] = -float("Inf")
    probs = T.nn.functional.softmax(logits, dim=-1)
    return y, y2, y.dtype, v, ix, logits, probs, model.training, raises(lambda: T.topk(logits, 5))


@program()
def prog_edu_nanogpt_crop_block_size(T: Any) -> Any:
    model = _gpt(T, flash=False)
    model.crop_block_size(4)
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 4))
    _logits, loss = model(idx, idx)
    loss.backward()
    wpe = model.transformer.wpe.weight
    return (
        wpe.shape,
        wpe.is_leaf,
        wpe.grad.shape,
        loss,
        model.transformer.h[0].attn.bias.shape,
        raises(lambda: model(T.zeros(1, 5, dtype=T.long))),
    )


def _get_batch(T: Any, data: Any, block_size: int, batch_size: int) -> Any:
    ix = T.randint(len(data) - block_size, (batch_size,))
    x = T.stack([T.from_numpy((data[i : i + block_size]).astype(np.int64)) for i in ix])
    y = T.stack([T.from_numpy((data[i + 1 : i + 1 + block_size]).astype(np.int64)) for i in ix])
    return x, y


@program()
def prog_edu_nanogpt_train_loop(T: Any) -> Any:
    data = np.random.default_rng(0).integers(0, 11, 200).astype(np.uint16)
    model = _gpt(T)
    T.manual_seed(1337)
    device_type = "cpu"
    ptdtype = {"float32": T.float32, "bfloat16": T.bfloat16, "float16": T.float16}["float32"]
    ctx = (
        nullcontext()
        if device_type == "cpu"
        else T.amp.autocast(device_type=device_type, dtype=ptdtype)
    )
    scaler = T.amp.GradScaler("cpu", enabled=False)
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), device_type)
    learning_rate, warmup_iters, lr_decay_iters, min_lr = 1e-3, 2, 6, 1e-4

    def get_lr(it):
        if it < warmup_iters:
            return learning_rate * (it + 1) / (warmup_iters + 1)
        if it > lr_decay_iters:
            return min_lr
        decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
        assert 0 <= decay_ratio <= 1
        coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
        return min_lr + coeff * (learning_rate - min_lr)

    @T.no_grad()
    def estimate_loss():
        out = {}
        model.eval()
        losses = T.zeros(2)
        for k in range(2):
            X, Y = _get_batch(T, data, 8, 2)
            with ctx:
                _logits, loss = model(X, Y)
            losses[k] = loss.item()
        out["train"] = losses.mean()
        model.train()
        return out

    grad_accum = 2
    X, Y = _get_batch(T, data, 8, 3)
    hist = []
    for it in range(8):
        lr = get_lr(it)
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr
        for _micro in range(grad_accum):
            with ctx:
                _logits, loss = model(X, Y)
                loss = loss / grad_accum
            X, Y = _get_batch(T, data, 8, 3)
            scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        norm = T.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        hist.append((lr, loss.item() * grad_accum, norm))
    est = estimate_loss()
    p0 = next(model.parameters())
    return (
        hist,
        est,
        X.dtype,
        X.shape,
        p0.grad,
        scaler.is_enabled(),
        scaler.get_scale(),
        scaler.scale(T.tensor(2.0)),
        optimizer.state_dict()["state"][0]["step"],
        sorted(optimizer.state_dict()["state"][0]),
    )


@program()
def prog_edu_nanogpt_checkpoint_save_resume(T: Any) -> Any:
    model = _gpt(T, n_layer=1)
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 8))
    for _ in range(2):
        _logits, loss = model(idx, idx)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "model_args": dict(model.config),
        "iter_num": 2,
        "best_val_loss": loss.detach(),
        "config": {"lr": 1e-3},
    }
    buf = io.BytesIO()
    T.save(checkpoint, buf)
    buf.seek(0)
    ck = T.load(buf, map_location="cpu")
    model2 = _gpt(T, n_layer=1)
    state_dict = ck["model"]
    unwanted_prefix = "_orig_mod."
    for k in list(state_dict.keys()):
        if k.startswith(unwanted_prefix):
            state_dict[k[len(unwanted_prefix) :]] = state_dict.pop(k)
    res = model2.load_state_dict(state_dict)
    opt2 = model2.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    opt2.load_state_dict(ck["optimizer"])
    for m, o in ((model, optimizer), (model2, opt2)):
        _logits, loss = m(idx, idx)
        loss.backward()
        o.step()
    buf.seek(0)
    return (
        res,
        ck["iter_num"],
        ck["best_val_loss"],
        ck["model_args"],
        sorted(ck["optimizer"]["state"][0]),
        ck["optimizer"]["param_groups"][1]["weight_decay"],
        model2.lm_head.weight is model2.transformer.wte.weight,
        [(a - b).abs().max() for a, b in zip(model.parameters(), model2.parameters(), strict=True)],
        raises(lambda: T.load(buf, weights_only=True)["iter_num"]),
    )


@program()
def prog_edu_nanogpt_autocast_bfloat16_cpu(T: Any) -> Any:
    model = _gpt(T, n_layer=1)
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 8))
    ctx = T.amp.autocast(device_type="cpu", dtype=T.bfloat16)
    with ctx:
        logits, loss = model(idx, idx)
        h = model.lm_head(T.randn(2, 8))
    loss.backward()
    return (
        logits.dtype,
        loss.dtype,
        h.dtype,
        model.lm_head.weight.grad.dtype,
        loss.float(),
        T.is_autocast_enabled("cpu"),
        T.get_autocast_dtype("cpu"),
        type(nullcontext()).__name__,
    )


@program()
def prog_edu_nanogpt_cuda_flags_on_cpu(T: Any) -> Any:
    # train.py's setup lines run on a CPU-only machine
    T.backends.cuda.matmul.allow_tf32 = True
    T.backends.cudnn.allow_tf32 = True
    dtype = "bfloat16" if T.cuda.is_available() and T.cuda.is_bf16_supported() else "float32"
    with T.warnings.catch_warnings(record=True) if hasattr(T, "warnings") else nullcontext():
        pass
    old = T.cuda.amp.GradScaler if hasattr(T.cuda.amp, "GradScaler") else None
    scaler = T.amp.GradScaler(enabled=(dtype == "float16"))
    flags = (T.backends.cuda.matmul.allow_tf32, T.backends.cudnn.allow_tf32)
    T.backends.cuda.matmul.allow_tf32 = False
    T.backends.cudnn.allow_tf32 = True
    return dtype, T.cuda.is_available(), old is not None, scaler.is_enabled(), flags


@program()
def prog_edu_nanogpt_old_cuda_grad_scaler_warns(T: Any) -> Any:
    scaler = T.cuda.amp.GradScaler(enabled=False)
    x = T.ones(2, requires_grad=True)
    loss = (x * 3).sum()
    scaler.scale(loss).backward()
    return scaler.is_enabled(), x.grad, scaler.state_dict()


# --- makemore part 5: the WaveNet ----------------------------------------------------------


def _wavenet_layers(T: Any) -> Any:
    class Linear:
        def __init__(self, fan_in, fan_out, bias=True):
            self.weight = T.randn((fan_in, fan_out)) / fan_in**0.5  # kaiming init
            self.bias = T.zeros(fan_out) if bias else None

        def __call__(self, x):
            self.out = x @ self.weight
            if self.bias is not None:
                self.out += self.bias
            return self.out

        def parameters(self):
            return [self.weight] + ([] if self.bias is None else [self.bias])

    class BatchNorm1d:
        def __init__(self, dim, eps=1e-5, momentum=0.1):
            self.eps, self.momentum, self.training = eps, momentum, True
            self.gamma, self.beta = T.ones(dim), T.zeros(dim)
            self.running_mean, self.running_var = T.zeros(dim), T.ones(dim)

        def __call__(self, x):
            if self.training:
                if x.ndim == 2:
                    dim = 0
                elif x.ndim == 3:
                    dim = (0, 1)
                xmean = x.mean(dim, keepdim=True)
                xvar = x.var(dim, keepdim=True)
            else:
                xmean, xvar = self.running_mean, self.running_var
            xhat = (x - xmean) / T.sqrt(xvar + self.eps)
            self.out = self.gamma * xhat + self.beta
            if self.training:
                with T.no_grad():
                    m = self.momentum
                    self.running_mean = (1 - m) * self.running_mean + m * xmean
                    self.running_var = (1 - m) * self.running_var + m * xvar
            return self.out

        def parameters(self):
            return [self.gamma, self.beta]

    class Tanh:
        def __call__(self, x):
            self.out = T.tanh(x)
            return self.out

        def parameters(self):
            return []

    class Embedding:
        def __init__(self, num_embeddings, embedding_dim):
            self.weight = T.randn((num_embeddings, embedding_dim))

        def __call__(self, IX):
            self.out = self.weight[IX]
            return self.out

        def parameters(self):
            return [self.weight]

    class FlattenConsecutive:
        def __init__(self, n):
            self.n = n

        def __call__(self, x):
            B, Tt, C = x.shape
            x = x.view(B, Tt // self.n, C * self.n)
            if x.shape[1] == 1:
                x = x.squeeze(1)
            self.out = x
            return self.out

        def parameters(self):
            return []

    class Sequential:
        def __init__(self, layers):
            self.layers = layers

        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            self.out = x
            return self.out

        def parameters(self):
            return [p for layer in self.layers for p in layer.parameters()]

    return Linear, BatchNorm1d, Tanh, Embedding, FlattenConsecutive, Sequential


@program()
def prog_edu_wavenet_hierarchical_training(T: Any) -> Any:
    Linear, BatchNorm1d, Tanh, Embedding, FlattenConsecutive, Sequential = _wavenet_layers(T)
    T.manual_seed(42)
    X, Y = _dataset(T, block_size=8)
    n_embd, n_hidden = 4, 12
    nh = n_hidden
    model = Sequential(
        [
            Embedding(27, n_embd),
            FlattenConsecutive(2), Linear(n_embd * 2, nh, bias=False), BatchNorm1d(nh), Tanh(),
            FlattenConsecutive(2), Linear(nh * 2, nh, bias=False), BatchNorm1d(nh), Tanh(),
            FlattenConsecutive(2), Linear(nh * 2, nh, bias=False), BatchNorm1d(nh), Tanh(),
            Linear(nh, 27),
        ]
    )  # fmt: skip
    with T.no_grad():
        model.layers[-1].weight *= 0.1
    parameters = model.parameters()
    for p in parameters:
        p.requires_grad = True
    lossi = []
    for _i in range(4):
        ix = T.randint(0, X.shape[0], (6,))
        Xb, Yb = X[ix], Y[ix]
        logits = model(Xb)
        loss = T.nn.functional.cross_entropy(logits, Yb)
        for layer in model.layers:
            layer.out.retain_grad()
        for p in parameters:
            p.grad = None
        loss.backward()
        for p in parameters:
            p.data += -0.1 * p.grad
        lossi.append(loss.item())
    shapes = [(type(layer).__name__, tuple(layer.out.shape)) for layer in model.layers]
    flat_grad = model.layers[1].out.grad
    for layer in model.layers:
        layer.training = False
    with T.no_grad():
        ev = T.nn.functional.cross_entropy(model(X), Y)
    lossi_t = T.tensor(lossi + lossi)
    return (
        shapes,
        lossi,
        ev,
        lossi_t.view(-1, 2).mean(1),
        model.layers[3].running_mean.shape,
        model.layers[3].running_var[0, 0],
        flat_grad.shape,
        flat_grad[0, 0],
        model.layers[0].out.grad_fn,
        sum(p.nelement() for p in parameters),
        raises(lambda: model.layers[1](T.randn(2, 3, 4))),
    )


@program()
def prog_edu_wavenet_batchnorm_dims_bug(T: Any) -> Any:
    # the bug the video finds: BatchNorm1d over dim 0 only for a 3-d input keeps a running
    # mean of shape (1, 4, 68); with dims (0, 1) it is (1, 1, 68)
    T.manual_seed(0)
    e = T.randn(32, 4, 68)
    emean0 = e.mean(0, keepdim=True)
    evar0 = e.var(0, keepdim=True)
    emean01 = e.mean((0, 1), keepdim=True)
    evar01 = e.var((0, 1), keepdim=True)
    ehat = (e - emean01) / T.sqrt(evar01 + 1e-5)
    x = T.randn(4, 8, 10)
    w = T.randn(20, 200)
    return (
        emean0.shape,
        evar0.shape,
        emean01.shape,
        evar01.shape,
        ehat.shape,
        ehat.mean(),
        (T.randn(4, 5, 80) @ T.randn(80, 200) + T.randn(200)).shape,
        T.cat([x[:, ::2, :], x[:, 1::2, :]], dim=2).shape,
        (x.view(4, 4, 20) == T.cat([x[:, ::2, :], x[:, 1::2, :]], dim=2)).all(),
        (x.view(4, 4, 20) @ w).shape,
        T.squeeze(T.ones(4, 1, 3), dim=1).shape,
        T.squeeze(T.ones(4, 2, 3), dim=1).shape,
        T.ones(4, 1, 1).squeeze((1, 2)).shape,
        raises(lambda: x.transpose(0, 1).view(8, 40)),
        raises(lambda: x.view(4, 3, -1)),
        raises(lambda: T.squeeze(x, dim=3)),
    )


@program()
def prog_edu_wavenet_with_torch_nn(T: Any) -> Any:
    # the same architecture written with torch.nn: Embedding, Flatten/Unflatten, BatchNorm1d
    # takes (N, C, L), so the video's layout needs a transpose
    nn = T.nn
    T.manual_seed(0)

    class FlattenConsecutive(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def forward(self, x):
            B, Tt, C = x.shape
            x = x.reshape(B, Tt // self.n, C * self.n)  # view fails after BN's transposes
            return x.squeeze(1) if x.shape[1] == 1 else x

    class BN(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.bn = nn.BatchNorm1d(c)

        def forward(self, x):
            return self.bn(x.transpose(1, 2)).transpose(1, 2) if x.ndim == 3 else self.bn(x)

    model = nn.Sequential(
        nn.Embedding(27, 4),
        FlattenConsecutive(2), nn.Linear(8, 10, bias=False), BN(10), nn.Tanh(),
        FlattenConsecutive(2), nn.Linear(20, 10, bias=False), BN(10), nn.Tanh(),
        nn.Linear(10, 27),
    )  # fmt: skip
    X, Y = _dataset(T, block_size=4)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    ls = []
    for _ in range(3):
        loss = nn.functional.cross_entropy(model(X[:10]), Y[:10])
        opt.zero_grad()
        loss.backward()
        opt.step()
        ls.append(loss.item())
    model.eval()
    with T.no_grad():
        ev = model(X[:3])
    bn = model[3].bn
    return (
        ls,
        ev,
        bn.running_mean,
        bn.running_var,
        bn.num_batches_tracked,
        model[0].weight.grad.shape,
        raises(lambda: model[3](model[2](model[1](model[0](X[:4])))).view(4, 1, 20)),
        raises(lambda: model.train()(X[:1])),
        raises(lambda: nn.BatchNorm1d(10)(T.randn(2, 3, 10))),
    )


@program()
def prog_edu_histogram_of_activations(T: Any) -> Any:
    # the video's plt.hist(h.view(-1).tolist(), 50) and the torch.histogram / histc forms
    T.manual_seed(0)
    h = T.tanh(T.randn(32, 20) * 3)
    hist, edges = T.histogram(h.view(-1), bins=10)
    histd, _ = T.histogram(h.view(-1), bins=10, density=True)
    hc = T.histc(h, bins=10, min=-1, max=1)
    hw, ew = T.histogram(h.view(-1), bins=T.tensor([-1.0, -0.5, 0.0, 0.5, 1.0]))
    return (
        hist,
        edges,
        histd,
        hc,
        hw,
        ew,
        len(h.view(-1).tolist()),
        T.histogram(h.double(), bins=4, range=(-2.0, 2.0)),
        T.histogram(h.view(-1), 3, weight=T.ones(640)),
        raises(lambda: T.histogram(h.long(), bins=4)),
        raises(lambda: T.histc(h.long(), bins=4)),
        raises(lambda: T.histogram(h, bins=0)),
        raises(lambda: T.histogram(h, bins=4, range=(1.0, -1.0))),
    )


# --- d2l.ai: MLP, dropout, weight decay, builders' guide -----------------------------------


@program()
def prog_edu_d2l_mlp_and_dropout_scratch(T: Any) -> Any:
    T.manual_seed(0)

    def relu(X):
        a = T.zeros_like(X)
        return T.max(X, a)

    def dropout_layer(X, dropout):
        assert 0 <= dropout <= 1
        if dropout == 1:
            return T.zeros_like(X)
        mask = (T.rand(X.shape) > dropout).float()
        return mask * X / (1.0 - dropout)

    X = T.arange(16, dtype=T.float32).reshape((2, 8))
    outs = [dropout_layer(X, 0.0), dropout_layer(X, 0.5), dropout_layer(X, 1.0)]
    W1 = T.nn.Parameter(T.randn(8, 6) * 0.01)
    b1 = T.nn.Parameter(T.zeros(6))
    W2 = T.nn.Parameter(T.randn(6, 3) * 0.01)
    b2 = T.nn.Parameter(T.zeros(3))
    params = [W1, b1, W2, b2]
    loss = T.nn.CrossEntropyLoss(reduction="none")
    updater = T.optim.SGD(params, lr=0.1)
    y = T.tensor([0, 2])
    ls = []
    for _ in range(3):
        H = relu(X.reshape((-1, 8)) @ W1 + b1)
        H = dropout_layer(H, 0.5)
        y_hat = H @ W2 + b2
        lo = loss(y_hat, y)
        updater.zero_grad()
        lo.mean().backward()
        updater.step()
        ls.append(lo)
    return (
        outs,
        ls,
        lo.grad_fn,
        H.grad_fn,
        relu(T.tensor([-1.0, 0.0, 2.0])),
        W1.grad,
        type(W1).__name__,
        repr(b2)[:40],
        raises(lambda: T.max(X, T.zeros(3))),
        raises(lambda: T.max(X, 0.0)),
    )


@program()
def prog_edu_d2l_weight_decay(T: Any) -> Any:
    T.manual_seed(0)
    n_train, num_inputs, batch_size = 10, 20, 5
    true_w, true_b = T.ones((num_inputs, 1)) * 0.01, 0.05
    X = T.normal(0, 1, (n_train, num_inputs))
    y = T.matmul(X, true_w) + true_b + T.normal(0, 0.01, (n_train, 1))

    def l2_penalty(w):
        return T.sum(w.pow(2)) / 2

    results = []
    for lambd in (0, 3):
        w = T.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
        b = T.zeros(1, requires_grad=True)
        for _epoch in range(3):
            for i in range(0, n_train, batch_size):
                Xb, yb = X[i : i + batch_size], y[i : i + batch_size]
                lo = (Xb @ w + b - yb) ** 2 / 2 + lambd * l2_penalty(w)
                lo.sum().backward()
                with T.no_grad():
                    for p in (w, b):
                        p -= 0.003 * p.grad / batch_size
                        p.grad.zero_()
        results.append((T.norm(w).item(), lo.grad_fn))
    # the concise version: weight decay on the weight group only
    net = T.nn.Sequential(T.nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    trainer = T.optim.SGD(
        [{"params": net[0].weight, "weight_decay": 3}, {"params": net[0].bias}], lr=0.003
    )
    for _ in range(3):
        trainer.zero_grad()
        lo = T.nn.MSELoss()(net(X), y)
        lo.backward()
        trainer.step()
    return (
        results,
        net[0].weight.norm(),
        net[0].bias,
        trainer.param_groups[1]["weight_decay"],
        raises(lambda: T.optim.SGD([{"params": net[0].weight}, {"params": net[0].weight}], lr=1)),
        raises(lambda: T.optim.SGD(net.parameters(), lr=-1)),
        raises(lambda: T.optim.SGD(net.parameters(), lr=0.1, weight_decay=-1)),
    )


@program()
def prog_edu_d2l_parameter_management(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
    X = T.rand(size=(2, 4))
    lazy = (net[0].weight, type(net[0]).__name__)
    net(X)
    out = [lazy[1], type(net[0]).__name__, net[2].state_dict()]
    out += [type(net[2].bias).__name__, net[2].bias, net[2].bias.data, net[2].weight.grad is None]
    out += [[(name, param.shape) for name, param in net.named_parameters()]]

    def init_normal(module):
        if type(module) is nn.Linear:
            nn.init.normal_(module.weight, mean=0, std=0.01)
            nn.init.zeros_(module.bias)

    def init_constant(module):
        if type(module) is nn.Linear:
            nn.init.constant_(module.weight, 1)
            nn.init.zeros_(module.bias)

    def init_xavier(module):
        if type(module) is nn.Linear:
            nn.init.xavier_uniform_(module.weight)

    def init_42(module):
        if type(module) is nn.Linear:
            nn.init.constant_(module.weight, 42)

    def my_init(module):
        if type(module) is nn.Linear:
            nn.init.uniform_(module.weight, -10, 10)
            module.weight.data *= module.weight.data.abs() >= 5

    net.apply(init_normal)
    out += [net[0].weight.data[0], net[0].bias.data[0]]
    net.apply(init_constant)
    out += [net[0].weight.data[0]]
    net[0].apply(init_xavier)
    net[2].apply(init_42)
    out += [net[0].weight.data[0], net[2].weight.data]
    net.apply(my_init)
    out += [net[0].weight[:2]]
    net[0].weight.data[:] += 1
    net[0].weight.data[0, 0] = 42
    out += [net[0].weight.data[0], net[0].weight._version]
    # shared parameters
    shared = nn.LazyLinear(8)
    net = nn.Sequential(
        nn.LazyLinear(8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.LazyLinear(1)
    )
    net(X).sum().backward()
    out += [net[2].weight.data[0] == net[4].weight.data[0]]
    net[2].weight.data[0, 0] = 100
    out += [net[2].weight.data[0] == net[4].weight.data[0], len(list(net.parameters()))]
    out += [net[2].weight.grad[0, :3], len(net.state_dict())]
    out += [raises(lambda: nn.LazyLinear(3)(T.ones(2, 3)).weight.grad_fn)]
    out += [raises(lambda: nn.init.xavier_uniform_(T.ones(3)))]
    return out


@program(warnings=False)
def prog_edu_d2l_lazy_uninitialized_errors(T: Any) -> Any:
    nn = T.nn
    net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
    return (
        raises(lambda: net[0].weight.shape),
        raises(lambda: sum(p.numel() for p in net.parameters())),
        raises(lambda: nn.init.normal_(net[0].weight)),
        type(net[0].weight).__name__,
        net[0].in_features,
        raises(lambda: net(T.ones(2))),
    )


@program()
def prog_edu_d2l_custom_layers(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional

    class CenteredLayer(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, X):
            return X - X.mean()

    class MyLinear(nn.Module):
        def __init__(self, in_units, units):
            super().__init__()
            self.weight = nn.Parameter(T.randn(in_units, units))
            self.bias = nn.Parameter(T.randn(units))

        def forward(self, X):
            linear = T.matmul(X, self.weight.data) + self.bias.data
            return F.relu(linear)

    class FixedHiddenMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.rand_weight = T.rand((20, 20))
            self.linear = nn.LazyLinear(20)

        def forward(self, X):
            X = self.linear(X)
            X = F.relu(X @ self.rand_weight + 1)
            X = self.linear(X)
            while X.abs().sum() > 1:
                X /= 2
            return X.sum()

    class MySequential(nn.Module):
        def __init__(self, *args):
            super().__init__()
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

        def forward(self, X):
            for module in self.children():
                X = module(X)
            return X

    T.manual_seed(0)
    layer = CenteredLayer()
    c = layer(T.tensor([1.0, 2, 3, 4, 5]))
    net = nn.Sequential(nn.LazyLinear(128), CenteredLayer())
    Y = net(T.rand(4, 8))
    linear = MyLinear(5, 3)
    z = linear(T.rand(2, 5))
    fixed = FixedHiddenMLP()
    X = T.rand(2, 20, requires_grad=True)
    f = fixed(X)
    f.backward()
    seq = MySequential(nn.LazyLinear(16), nn.ReLU(), nn.LazyLinear(3))
    s = seq(T.rand(2, 5))
    return (
        c,
        Y.mean().abs() < 1e-6,
        linear.weight.shape,
        z,
        z.grad_fn,
        f,
        f.grad_fn,
        X.grad[0, :4],
        s.shape,
        [n for n, _ in seq.named_children()],
        repr(seq),
        raises(lambda: seq.add_module("a.b", nn.ReLU())),
        raises(lambda: seq.add_module("", nn.ReLU())),
        raises(lambda: seq.add_module("x", 3)),
    )


@program()
def prog_edu_d2l_file_io(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    x = T.arange(4)
    buf = io.BytesIO()
    T.save(x, buf)
    buf.seek(0)
    x2 = T.load(buf)
    y = T.zeros(4)
    buf = io.BytesIO()
    T.save([x, y], buf)
    buf.seek(0)
    x3, y2 = T.load(buf)
    mydict = {"x": x, "y": y}
    buf = io.BytesIO()
    T.save(mydict, buf)
    buf.seek(0)
    mydict2 = T.load(buf)

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.LazyLinear(16)
            self.output = nn.LazyLinear(3)

        def forward(self, x):
            return self.output(T.nn.functional.relu(self.hidden(x)))

    net = MLP()
    X = T.randn(size=(2, 5))
    Y = net(X)
    buf = io.BytesIO()
    T.save(net.state_dict(), buf)
    buf.seek(0)
    clone = MLP()
    res = clone.load_state_dict(T.load(buf))
    ev = clone.eval()
    Y_clone = clone(X)
    return (
        x2,
        x2.dtype,
        (x3, y2),
        mydict2,
        res,
        repr(ev),
        Y_clone == Y,
        Y_clone.grad_fn,
        raises(lambda: MLP().load_state_dict({"hidden.weight": T.ones(16, 5)})),
    )


@program()
def prog_edu_d2l_devices_on_cpu(T: Any) -> Any:
    def cpu():
        return T.device("cpu")

    def gpu(i=0):
        return T.device(f"cuda:{i}")

    def num_gpus():
        return T.cuda.device_count()

    def try_gpu(i=0):
        if num_gpus() >= i + 1:
            return gpu(i)
        return cpu()

    x = T.tensor([1, 2, 3])
    X = T.ones(2, 3, device=try_gpu())
    net = T.nn.Sequential(T.nn.LazyLinear(1))
    net = net.to(device=try_gpu())
    return (
        cpu(),
        gpu(),
        gpu(1),
        num_gpus(),
        try_gpu(),
        try_gpu(10),
        x.device,
        X,
        str(X.device),
        repr(gpu(1)),
        net(X).device,
        T.device("cpu") == T.device("cpu", 0) if False else T.device("cpu") == T.device("cpu"),
        raises(lambda: T.device("gpu")),
        raises(lambda: T.device("cuda:x")),
    )


@program()
def prog_edu_init_functions_seen_by_torch_function(T: Any) -> Any:
    # a logging Tensor subclass (the "Extending torch" pattern) sees nn.init's Python-level
    # functions that dispatch (uniform_, normal_, constant_, kaiming_uniform_) as themselves
    seen = []

    class Logged(T.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(getattr(func, "__name__", "?"))
            return super().__torch_function__(func, types, args, kwargs or {})

    nn = T.nn
    w = T.empty(3, 4).as_subclass(Logged)
    g = T.Generator().manual_seed(0)
    r = [nn.init.uniform_(w, -1, 1, generator=g), nn.init.normal_(w, 0, 0.02, generator=g)]
    r += [nn.init.constant_(w, 0.5), nn.init.kaiming_uniform_(w, a=math.sqrt(5), generator=g)]
    r += [nn.init.zeros_(w), nn.init.xavier_normal_(w, generator=g)]
    return [type(x).__name__ for x in r], seen, w.as_subclass(T.Tensor)


# --- d2l.ai: recurrent networks from scratch ------------------------------------------------


def _rnn_params(T: Any, vocab_size: int, num_hiddens: int, gates: int) -> list[Any]:
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return T.randn(size=shape) * 0.01

    def three():
        return (
            normal((num_inputs, num_hiddens)),
            normal((num_hiddens, num_hiddens)),
            T.zeros(num_hiddens),
        )

    params = []
    for _ in range(gates):
        params.extend(three())
    params += [normal((num_hiddens, num_outputs)), T.zeros(num_outputs)]
    for param in params:
        param.requires_grad_(True)
    return params


def _grad_clipping(T: Any, params: list[Any], theta: float) -> Any:
    norm = T.sqrt(sum(T.sum(p.grad**2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


@program()
def prog_edu_d2l_rnn_scratch_with_clipping(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(0)
    vocab_size, num_hiddens, batch_size, num_steps = 7, 8, 2, 5
    W_xh, W_hh, b_h, W_hq, b_q = _rnn_params(T, vocab_size, num_hiddens, 1)
    params = [W_xh, W_hh, b_h, W_hq, b_q]

    def init_rnn_state(batch_size, num_hiddens):
        return (T.zeros((batch_size, num_hiddens)),)

    def rnn(inputs, state):
        (H,) = state
        outputs = []
        for X in inputs:
            H = T.tanh(T.mm(X, W_xh) + T.mm(H, W_hh) + b_h)
            Y = T.mm(H, W_hq) + b_q
            outputs.append(Y)
        return T.cat(outputs, dim=0), (H,)

    X = T.randint(0, vocab_size, (batch_size, num_steps))
    Yt = T.randint(0, vocab_size, (batch_size, num_steps))
    onehot = F.one_hot(X.T, vocab_size).type(T.float32)
    state = init_rnn_state(batch_size, num_hiddens)
    losses, norms = [], []
    for _ in range(3):
        for s in state:
            s.detach_()
        y_hat, state = rnn(onehot, state)
        y = Yt.T.reshape(-1)
        lo = T.nn.CrossEntropyLoss()(y_hat, y.long()).mean()
        for p in params:
            p.grad = None
        lo.backward()
        norms.append(_grad_clipping(T, params, 0.01))
        with T.no_grad():
            for p in params:
                p -= 1.0 * p.grad
        losses.append(math.exp(lo.item()))
    return (
        onehot.shape,
        F.one_hot(T.tensor([0, 2]), vocab_size),
        y_hat.shape,
        state[0].shape,
        state[0].grad_fn,
        losses,
        norms,
        W_hq.grad,
        W_xh.grad._version > 0,
        raises(lambda: F.one_hot(T.tensor([0, 7]), vocab_size)),
        raises(lambda: F.one_hot(T.tensor([-1, 2]))),
    )


@program()
def prog_edu_d2l_gru_lstm_scratch(T: Any) -> Any:
    T.manual_seed(1)
    vocab, nh = 5, 6
    gp = _rnn_params(T, vocab, nh, 3)
    lp = _rnn_params(T, vocab, nh, 4)

    def gru(inputs, state, params):
        W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h, W_hq, b_q = params
        (H,) = state
        outputs = []
        for X in inputs:
            Z = T.sigmoid((X @ W_xz) + (H @ W_hz) + b_z)
            R = T.sigmoid((X @ W_xr) + (H @ W_hr) + b_r)
            H_tilda = T.tanh((X @ W_xh) + ((R * H) @ W_hh) + b_h)
            H = Z * H + (1 - Z) * H_tilda
            outputs.append(H @ W_hq + b_q)
        return T.cat(outputs, dim=0), (H,)

    def lstm(inputs, state, params):
        W_xi, W_hi, b_i, W_xf, W_hf, b_f, W_xo, W_ho, b_o, W_xc, W_hc, b_c, W_hq, b_q = params
        (H, C) = state
        outputs = []
        for X in inputs:
            I = T.sigmoid((X @ W_xi) + (H @ W_hi) + b_i)  # noqa: E741
            Fg = T.sigmoid((X @ W_xf) + (H @ W_hf) + b_f)
            O = T.sigmoid((X @ W_xo) + (H @ W_ho) + b_o)  # noqa: E741
            C_tilda = T.tanh((X @ W_xc) + (H @ W_hc) + b_c)
            C = Fg * C + I * C_tilda
            H = O * T.tanh(C)
            outputs.append((H @ W_hq) + b_q)
        return T.cat(outputs, dim=0), (H, C)

    X = T.nn.functional.one_hot(T.randint(0, vocab, (4, 3)), vocab).float()
    y = T.randint(0, vocab, (12,))
    out_g, (Hg,) = gru(X, (T.zeros(3, nh),), gp)
    out_l, (Hl, Cl) = lstm(X, (T.zeros(3, nh), T.zeros(3, nh)), lp)
    loss = T.nn.functional.cross_entropy(out_g, y) + T.nn.functional.cross_entropy(out_l, y)
    loss.backward()
    ng = _grad_clipping(T, gp, 0.05)
    nl = _grad_clipping(T, lp, 10.0)
    return (
        out_g.shape,
        Hg.grad_fn,
        Cl.grad_fn,
        Hl.grad_fn,
        loss,
        [p.grad.norm() for p in gp],
        [p.grad.norm() for p in lp],
        ng,
        nl,
        T.nn.utils.clip_grad_norm_(gp, 0.01),
        T.nn.utils.clip_grad_norm_(lp, 1.0, norm_type="inf"),
    )


@program()
def prog_edu_d2l_rnn_concise(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    vocab, nh = 6, 8
    rnn_layer = nn.RNN(vocab, nh)
    state = T.zeros((1, 2, nh))
    X = T.rand(size=(5, 2, vocab))
    Y, state_new = rnn_layer(X, state)
    gru = nn.GRU(vocab, nh)
    lstm = nn.LSTM(vocab, nh, num_layers=2)
    Yg, _hg = gru(X)
    Yl, (hl, cl) = lstm(X)
    dense = nn.Linear(nh, vocab)
    out = dense(Y.reshape((-1, Y.shape[-1])))
    loss = out.sum() + Yg.sum() + Yl.sum()
    loss.backward()
    return (
        Y.shape,
        state_new.shape,
        Y.grad_fn,
        Yg.grad_fn,
        Yl.grad_fn,
        hl.shape,
        cl.shape,
        out.shape,
        rnn_layer.weight_hh_l0.grad.norm(),
        gru.weight_ih_l0.grad.norm(),
        lstm.weight_hh_l1.grad.norm(),
        [n for n, _ in lstm.named_parameters()],
        raises(lambda: rnn_layer(X, T.zeros(1, 3, nh))),
        raises(lambda: rnn_layer(T.rand(5, 2, vocab + 1))),
        raises(lambda: lstm(X, T.zeros(2, 2, nh))),
    )


# --- d2l.ai: attention ----------------------------------------------------------------------


def _sequence_mask(T: Any, X: Any, valid_len: Any, value: float = 0) -> Any:
    maxlen = X.size(1)
    mask = T.arange((maxlen), dtype=T.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def _masked_softmax(T: Any, X: Any, valid_lens: Any) -> Any:
    if valid_lens is None:
        return T.nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = T.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(T, X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return T.nn.functional.softmax(X.reshape(shape), dim=-1)


@program()
def prog_edu_d2l_masked_softmax_and_attention(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    a = _masked_softmax(T, T.rand(2, 2, 4), T.tensor([2, 3]))
    b = _masked_softmax(T, T.rand(2, 2, 4), T.tensor([[1, 3], [2, 4]]))

    class AdditiveAttention(nn.Module):
        def __init__(self, num_hiddens, dropout):
            super().__init__()
            self.W_k = nn.LazyLinear(num_hiddens, bias=False)
            self.W_q = nn.LazyLinear(num_hiddens, bias=False)
            self.w_v = nn.LazyLinear(1, bias=False)
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens):
            queries, keys = self.W_q(queries), self.W_k(keys)
            features = queries.unsqueeze(2) + keys.unsqueeze(1)
            features = T.tanh(features)
            scores = self.w_v(features).squeeze(-1)
            self.attention_weights = _masked_softmax(T, scores, valid_lens)
            return T.bmm(self.dropout(self.attention_weights), values)

    class DotProductAttention(nn.Module):
        def __init__(self, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens=None):
            d = queries.shape[-1]
            scores = T.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
            self.attention_weights = _masked_softmax(T, scores, valid_lens)
            return T.bmm(self.dropout(self.attention_weights), values)

    queries = T.normal(0, 1, (2, 1, 20))
    keys = T.normal(0, 1, (2, 10, 2))
    values = T.arange(40, dtype=T.float32).reshape(1, 10, 4).repeat(2, 1, 1)
    values.requires_grad_()
    valid_lens = T.tensor([2, 6])
    add = AdditiveAttention(8, 0.1)
    add.eval()
    o1 = add(queries, keys, values, valid_lens)
    q2 = T.normal(0, 1, (2, 1, 2), requires_grad=True)
    dot = DotProductAttention(0.5)
    dot.eval()
    o2 = dot(q2, keys, values, valid_lens)
    (o1.sum() + o2.sum()).backward()
    return (
        a,
        b,
        o1,
        o1.grad_fn,
        add.attention_weights.grad_fn,
        o2,
        values.grad[0],
        q2.grad,
        T.repeat_interleave(T.tensor([2, 3]), 2),
        T.repeat_interleave(T.tensor([1, 2]), T.tensor([2, 0])),
        raises(lambda: T.bmm(queries, keys)),
        raises(lambda: T.repeat_interleave(T.tensor([1, 2]), T.tensor([2, -1]))),
    )


@program()
def prog_edu_d2l_positional_encoding_and_multihead(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    num_hiddens, max_len = 8, 12
    P = T.zeros((1, max_len, num_hiddens))
    X = T.arange(max_len, dtype=T.float32).reshape(-1, 1) / T.pow(
        10000, T.arange(0, num_hiddens, 2, dtype=T.float32) / num_hiddens
    )
    P[:, :, 0::2] = T.sin(X)
    P[:, :, 1::2] = T.cos(X)

    def transpose_qkv(X, num_heads):
        X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
        X = X.permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])

    def transpose_output(X, num_heads):
        X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
        X = X.permute(0, 2, 1, 3)
        return X.reshape(X.shape[0], X.shape[1], -1)

    x = T.randn(2, 5, num_hiddens, requires_grad=True)
    h = transpose_qkv(x + P[:, :5, :], 2)
    scores = T.bmm(h, h.transpose(1, 2)) / math.sqrt(h.shape[-1])
    out = transpose_output(T.bmm(T.softmax(scores, dim=-1), h), 2)
    out.sum().backward()
    mha = nn.MultiheadAttention(num_hiddens, 2, batch_first=True)
    y, w = mha(x, x, x, need_weights=True)
    _y2, w2 = mha(x, x, x, need_weights=True, average_attn_weights=False)
    return (
        P[0, :3],
        T.pow(10000, T.arange(0, 4, 2) / 4),
        T.pow(10000, T.arange(0, 4, 2)).dtype,
        h.shape,
        out.grad_fn,
        x.grad[0, 0],
        y.shape,
        w.shape,
        w2.shape,
        y.grad_fn,
        raises(lambda: transpose_qkv(T.ones(2, 5, 7), 2)),
        raises(lambda: nn.MultiheadAttention(7, 2)),
    )


# --- what the notebooks print ---------------------------------------------------------------


@program()
def prog_edu_notebook_printouts(T: Any) -> Any:
    stoi = _stoi()
    N = T.zeros((27, 27), dtype=T.int32)
    for w in _WORDS:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:], strict=False):
            N[stoi[ch1], stoi[ch2]] += 1
    g = T.Generator().manual_seed(2147483647)
    W = T.randn((27, 27), generator=g, requires_grad=True)
    logits = T.nn.functional.one_hot(T.tensor([0, 5, 13]), 27).float() @ W
    loss = -logits.log_softmax(1)[T.arange(3), T.tensor([5, 13, 0])].mean()
    loss.backward()
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    X, _ = _dataset(T)
    out = [repr(N), str(N[0]), repr(P[0]), repr(loss), str(loss), repr(W.grad[0, :6])]
    out += [repr(logits[0, :4]), repr(X.shape), str(X[:3]), repr(T.tensor(3.0, requires_grad=True))]
    out += [repr(loss.grad_fn.next_functions)[:0], repr(T.tensor([1e-8, 1.0, 1e8]))]
    out += [repr(T.tensor([0.1, 0.25], dtype=T.float64)), repr(T.tensor([1.5], dtype=T.float16))]
    out += [repr(T.ones(2, 2, dtype=T.bool)), repr(T.tensor([], dtype=T.long)), repr(T.zeros(2, 0))]
    out += [f"{loss.item():.4f}", f"{loss:.4f}" if True else "", repr(T.tensor(float("nan")))]
    out += [repr(T.arange(1000)), repr(T.randn(3, 4, generator=g) * 100)]
    out += [repr(T.tensor([-0.0, float("inf"), -float("inf")]))]
    return out


@program()
def prog_edu_notebook_printouts_with_printoptions(T: Any) -> Any:
    g = T.Generator().manual_seed(0)
    x = T.randn(4, 6, generator=g) * 10
    out = []
    try:
        T.set_printoptions(precision=2)
        out.append(repr(x))
        T.set_printoptions(sci_mode=True)
        out.append(repr(x[0]))
        T.set_printoptions(threshold=5, edgeitems=1)
        out.append(repr(x))
        T.set_printoptions(linewidth=40)
        out.append(repr(T.arange(30.0)))
        T.set_printoptions(profile="full")
        out.append(repr(T.arange(2000)[:3]))
    finally:
        T.set_printoptions(profile="default")
        T.set_printoptions(sci_mode=None)
    out.append(repr(x[:2]))
    return out


@program()
def prog_edu_notebook_module_and_optimizer_printouts(T: Any) -> Any:
    nn = T.nn
    model = _gpt(T, n_layer=1)
    opt = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cpu")
    sgd = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    net = nn.Sequential(
        nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.5), nn.Linear(256, 10)
    )
    return (
        repr(model),
        repr(opt),
        repr(sgd),
        repr(net),
        str(net[1].weight.shape),
        repr(nn.BatchNorm1d(4)),
        repr(nn.LayerNorm(4, bias=False)),
        repr(nn.GELU(approximate="tanh")),
        repr(nn.Embedding(27, 10)),
        repr(nn.LSTM(3, 4, num_layers=2, batch_first=True)),
        repr(nn.Conv2d(1, 6, kernel_size=5, padding=2)),
        repr(nn.AvgPool2d(kernel_size=2, stride=2)),
        repr(nn.MaxPool2d(3, 2, padding=1)),
        repr(nn.LazyLinear(3)),
        repr(nn.MSELoss(reduction="none")),
        repr(nn.CrossEntropyLoss(ignore_index=-1)),
    )


@program()
def prog_edu_sampling_argument_mistakes(T: Any) -> Any:
    # what learners type while following the videos: a float count or bound (from `/`), an
    # int size, normal's size with tensors, a Float `out`; and the notebook's echo of a
    # Generator
    X, _ = _dataset(T)
    g = T.Generator().manual_seed(2147483647)
    p = T.tensor([0.6, 0.3, 0.1])
    echo = repr(g).split(" at ")[0]
    return (
        echo,
        raises(lambda: T.multinomial(p, X.shape[0] / 16)),
        raises(lambda: T.multinomial(p, 2, 1)),
        raises(lambda: T.multinomial(p, True)),
        raises(lambda: T.multinomial(p, 1, out=T.empty(1))),
        raises(lambda: p.multinomial(X.shape[0] / 16)),
        raises(lambda: p.multinomial(2, 1)),
        raises(lambda: p.multinomial(1, out=T.empty(1, dtype=T.long))),
        p.multinomial(2, True, generator=g),
        raises(lambda: T.multinomial(p, 1, out=T.empty(1, dtype=T.int32))),
        T.multinomial(p, 2, generator=g, out=T.empty(2, dtype=T.long)),
        T.multinomial(p, T.tensor(2), generator=g),
        T.multinomial(p, np.int64(2), generator=g),
        raises(lambda: T.randint(0, X.shape[0] / 2, (4,), generator=g)),
        raises(lambda: T.randint(0.0, 10, (4,))),
        raises(lambda: T.randint(X.shape[0] / 2, (4,))),
        raises(lambda: T.randint(0, 10.0, (4,), dtype=T.int32)),
        T.randint(0, T.tensor(10), (4,), generator=g),
        T.randint(np.int64(10), (4,), generator=g),
        raises(lambda: T.normal(0, 1)),
        raises(lambda: T.normal(0, 1, 3)),
        raises(lambda: T.normal(T.zeros(2), T.ones(2), (2,))),
        raises(lambda: T.normal(T.zeros(2), 1.0, (2,))),
        T.normal(0, 1, (), generator=g),
        T.normal(0.5, 2.0, [2, 2], generator=g),
        T.normal(0, 1, T.Size([3]), generator=g),
    )


@program()
def prog_edu_nanogpt_attention_dropout_settings(T: Any) -> Any:
    # CausalSelfAttention's flash call with the config's dropout: nanoGPT passes
    # `self.dropout if self.training else 0`; mistakes pass a percentage or a negative value
    F = T.nn.functional
    T.manual_seed(0)
    q = T.randn(1, 2, 4, 8, requires_grad=True)
    k = T.randn(1, 2, 4, 8)
    v = T.randn(1, 2, 4, 8)
    y_eval = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0, is_causal=True)
    y_train = F.scaled_dot_product_attention(q, k, v, dropout_p=0.2, is_causal=True)
    y_all = F.scaled_dot_product_attention(q, k, v, dropout_p=1.0)
    (y_eval.sum() + y_train.sum()).backward()
    return (
        y_eval.grad_fn,
        y_train.grad_fn,
        y_train.shape,
        y_all,
        q.grad.shape,
        raises(lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=20, is_causal=True)),
        raises(lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=1.5)),
        raises(lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=-0.1, is_causal=True)),
        raises(lambda: F.scaled_dot_product_attention(q[0], k[0], v[0], dropout_p=1.5)),
        F.scaled_dot_product_attention(q[0], k[0], v[0], dropout_p=-0.1),
        raises(lambda: F.dropout(q, 1.5)),
        raises(lambda: T.nn.Dropout(-0.1)),
    )


@program()
def prog_edu_nanogpt_attention_backend_choice(T: Any) -> Any:
    # comparing nanoGPT's flash path with the math path the way people do: the backend
    # context managers and flags (on CPU: flash where it applies, else math)
    import importlib

    attention = importlib.import_module(T.__name__ + ".nn.attention")
    SDPBackend, sdpa_kernel = attention.SDPBackend, attention.sdpa_kernel
    F = T.nn.functional
    cuda = T.backends.cuda
    T.manual_seed(0)
    q = T.randn(1, 2, 5, 4, requires_grad=True)
    k = T.randn(1, 2, 5, 4, requires_grad=True)
    v = T.randn(1, 2, 5, 4, requires_grad=True)
    out = {}
    y_flash = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    with sdpa_kernel(SDPBackend.MATH):
        y_math = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        out["flags_in_math"] = (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled())
        out["flags_in_math"] += (cuda.mem_efficient_sdp_enabled(), cuda.cudnn_sdp_enabled())
    out["flags_after"] = (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled())
    (y_flash.sum() + 2 * y_math.sum()).backward()
    out["grad_fns"] = (y_flash.grad_fn, y_math.grad_fn)
    out["close"] = (y_flash - y_math).abs().max() < 1e-5
    out["grads"] = (q.grad[0, 0, :2], k.grad[0, 1, -1], v.grad.sum())
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
        out["flash_only"] = F.scaled_dot_product_attention(q, k, v).grad_fn
        out["flash_3d"] = raises(lambda: F.scaled_dot_product_attention(q[0], k[0], v[0]))
        out["flash_dropout"] = raises(lambda: F.scaled_dot_product_attention(q, k, v, 0.1))
        out["flash_heads"] = raises(lambda: F.scaled_dot_product_attention(q, k[:, :1], v[:, :1]))
    with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
        out["efficient_on_cpu"] = raises(lambda: F.scaled_dot_product_attention(q, k, v))
    out["bad_backend"] = raises(lambda: sdpa_kernel("math").__enter__())
    out["enum"] = (repr(SDPBackend.MATH), str(SDPBackend.FLASH_ATTENTION), int(SDPBackend.ERROR))
    out["enum2"] = (list(SDPBackend.__members__), SDPBackend(2), SDPBackend.MATH == 0)
    try:
        cuda.enable_flash_sdp(False)
        out["no_flash"] = F.scaled_dot_product_attention(q, k, v, is_causal=True).grad_fn
        cuda.enable_math_sdp(False)
        out["none"] = raises(lambda: F.scaled_dot_product_attention(q, k, v))
        out["bad_flag"] = raises(lambda: cuda.enable_math_sdp(1))
    finally:
        cuda.enable_flash_sdp(True)
        cuda.enable_math_sdp(True)
    with cuda.sdp_kernel(enable_flash=False):
        out["old_ctx"] = F.scaled_dot_product_attention(q, k, v).grad_fn
    return out


# --- "Let's build GPT": the bigram language model and the self-attention trick ----------------


@program()
def prog_edu_gpt_video_averaging_tricks(T: Any) -> Any:
    T.manual_seed(1337)
    B, Tt, C = 4, 8, 2
    x = T.randn(B, Tt, C)
    xbow = T.zeros((B, Tt, C))
    for b in range(B):
        for t in range(Tt):
            xprev = x[b, : t + 1]
            xbow[b, t] = T.mean(xprev, 0)
    wei = T.tril(T.ones(Tt, Tt))
    wei = wei / wei.sum(1, keepdim=True)
    xbow2 = wei @ x
    tril = T.tril(T.ones(Tt, Tt))
    wei3 = T.zeros((Tt, Tt))
    wei3 = wei3.masked_fill(tril == 0, float("-inf"))
    wei3 = T.nn.functional.softmax(wei3, dim=-1)
    xbow3 = wei3 @ x
    a = T.tril(T.ones(3, 3))
    a = a / T.sum(a, 1, keepdim=True)
    b_ = T.randint(0, 10, (3, 2)).float()
    # (the video's T.allclose(xbow, xbow2) hangs on the last bits of near-zero sums: the
    # summation orders differ, so the check here has a tolerance of its own)
    return (
        (xbow - xbow2).abs().max() < 1e-6,
        (xbow - xbow3).abs().max() < 1e-6,
        T.allclose(xbow, xbow2, atol=1e-6),
        xbow[0],
        wei3,
        a,
        b_,
        a @ b_,
        xbow2.grad_fn,
        T.softmax(T.tensor([0.1, -0.2, 0.3, -0.2, 0.5]), dim=-1),
        T.softmax(T.tensor([0.1, -0.2, 0.3, -0.2, 0.5]) * 8, dim=-1),
    )


@program()
def prog_edu_gpt_video_single_head(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(1337)
    B, Tt, C = 2, 6, 8
    x = T.randn(B, Tt, C)
    head_size = 4
    key = nn.Linear(C, head_size, bias=False)
    query = nn.Linear(C, head_size, bias=False)
    value = nn.Linear(C, head_size, bias=False)
    k = key(x)
    q = query(x)
    wei = q @ k.transpose(-2, -1) * head_size**-0.5
    tril = T.tril(T.ones(Tt, Tt))
    wei = wei.masked_fill(tril == 0, float("-inf"))
    wei = F.softmax(wei, dim=-1)
    v = value(x)
    out = wei @ v
    out.sum().backward()
    kk = T.randn(B, Tt, head_size)
    qq = T.randn(B, Tt, head_size)
    scaled = qq @ kk.transpose(-2, -1) * head_size**-0.5
    return (
        out.shape,
        wei[0],
        wei.grad_fn,
        out.grad_fn,
        key.weight.grad,
        query.weight.grad.abs().sum(),
        (kk.var(), qq.var(), scaled.var()),
        raises(lambda: (q @ k.transpose(-2, -1)).masked_fill(tril[:3] == 0, float("-inf"))),
        raises(lambda: q @ k),
    )


@program()
def prog_edu_gpt_video_bigram_language_model(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(1337)
    text = "first citizen: before we proceed any further, hear me speak. all: speak, speak."
    text += " first citizen: you are all resolved rather to die than to famish? all: resolved."
    chars = sorted(list(set(text)))
    vocab_size = len(chars)
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = dict(enumerate(chars))

    def encode(s):
        return [stoi[c] for c in s]

    def decode(lst):
        return "".join([itos[i] for i in lst])

    data = T.tensor(encode(text), dtype=T.long)
    n = int(0.9 * len(data))
    train_data, val_data = data[:n], data[n:]
    block_size, batch_size = 8, 4

    def get_batch(split):
        d = train_data if split == "train" else val_data
        ix = T.randint(len(d) - block_size, (batch_size,))
        x = T.stack([d[i : i + block_size] for i in ix])
        y = T.stack([d[i + 1 : i + block_size + 1] for i in ix])
        return x, y

    class BigramLanguageModel(nn.Module):
        def __init__(self, vocab_size):
            super().__init__()
            self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

        def forward(self, idx, targets=None):
            logits = self.token_embedding_table(idx)
            if targets is None:
                loss = None
            else:
                B, Tt, C = logits.shape
                logits = logits.view(B * Tt, C)
                targets = targets.view(B * Tt)
                loss = F.cross_entropy(logits, targets)
            return logits, loss

        def generate(self, idx, max_new_tokens):
            for _ in range(max_new_tokens):
                logits, _loss = self(idx)
                logits = logits[:, -1, :]
                probs = F.softmax(logits, dim=-1)
                idx_next = T.multinomial(probs, num_samples=1)
                idx = T.cat((idx, idx_next), dim=1)
            return idx

    m = BigramLanguageModel(vocab_size)
    xb, yb = get_batch("train")
    logits, loss = m(xb, yb)
    sample = decode(m.generate(idx=T.zeros((1, 1), dtype=T.long), max_new_tokens=20)[0].tolist())
    optimizer = T.optim.AdamW(m.parameters(), lr=1e-3)
    losses = []
    for _steps in range(5):
        xb, yb = get_batch("train")
        logits, loss = m(xb, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

    @T.no_grad()
    def estimate_loss():
        out = {}
        m.eval()
        for split in ["train", "val"]:
            losses = T.zeros(3)
            for k in range(3):
                X, Y = get_batch(split)
                _logits, lo = m(X, Y)
                losses[k] = lo.item()
            out[split] = losses.mean()
        m.train()
        return out

    return (
        vocab_size,
        data[:10],
        data.dtype,
        logits.shape,
        loss.grad_fn,
        -math.log(1 / vocab_size),
        sample,
        losses,
        estimate_loss(),
        m.token_embedding_table.weight.grad,
        raises(lambda: m(xb, yb[:, :-1])),
    )


# --- d2l.ai: convolutions from scratch -----------------------------------------------------


def _corr2d(T: Any, X: Any, K: Any) -> Any:
    h, w = K.shape
    Y = T.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i : i + h, j : j + w] * K).sum()
    return Y


@program()
def prog_edu_d2l_conv_scratch_and_learning_a_kernel(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    X = T.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    K = T.tensor([[0.0, 1.0], [2.0, 3.0]])
    c = _corr2d(T, X, K)
    Xe = T.ones((6, 8))
    Xe[:, 2:6] = 0
    Ke = T.tensor([[1.0, -1.0]])
    Y = _corr2d(T, Xe, Ke)
    conv2d = nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)
    Xr = Xe.reshape((1, 1, 6, 8))
    Yr = Y.reshape((1, 1, 6, 7))
    lr = 3e-2
    ls = []
    for _i in range(6):
        Y_hat = conv2d(Xr)
        lo = (Y_hat - Yr) ** 2
        conv2d.zero_grad()
        lo.sum().backward()
        conv2d.weight.data[:] -= lr * conv2d.weight.grad
        ls.append(lo.sum().item())
    Kk = T.ones(2, 2, requires_grad=True)
    cg = _corr2d(T, X, Kk)
    cg.sum().backward()
    return (
        c,
        Y,
        _corr2d(T, Xe.t(), Ke),
        ls,
        conv2d.weight.data.reshape((1, 2)),
        cg.grad_fn,
        Kk.grad,
        lo.grad_fn,
    )


@program()
def prog_edu_d2l_multi_channel_and_pooling(T: Any) -> Any:
    def corr2d_multi_in(X, K):
        return sum(_corr2d(T, x, k) for x, k in zip(X, K, strict=True))

    def corr2d_multi_in_out(X, K):
        return T.stack([corr2d_multi_in(X, k) for k in K], 0)

    def corr2d_multi_in_out_1x1(X, K):
        c_i, h, w = X.shape
        c_o = K.shape[0]
        X = X.reshape((c_i, h * w))
        K = K.reshape((c_o, c_i))
        Y = T.matmul(K, X)
        return Y.reshape((c_o, h, w))

    def pool2d(X, pool_size, mode="max"):
        p_h, p_w = pool_size
        Y = T.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
        for i in range(Y.shape[0]):
            for j in range(Y.shape[1]):
                if mode == "max":
                    Y[i, j] = X[i : i + p_h, j : j + p_w].max()
                elif mode == "avg":
                    Y[i, j] = X[i : i + p_h, j : j + p_w].mean()
        return Y

    X = T.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                  [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])  # fmt: skip
    K = T.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
    K3 = T.stack((K, K + 1, K + 2), 0)
    T.manual_seed(0)
    Xn = T.normal(0, 1, (3, 3, 3))
    Kn = T.normal(0, 1, (2, 3, 1, 1))
    Y1 = corr2d_multi_in_out_1x1(Xn, Kn)
    Y2 = corr2d_multi_in_out(Xn, Kn)
    Xp = T.arange(16, dtype=T.float32).reshape((1, 1, 4, 4))
    Xp2 = T.cat((Xp, Xp + 1), 1)
    F = T.nn.functional
    return (
        corr2d_multi_in(X, K),
        K3.shape,
        corr2d_multi_in_out(X, K3),
        float(T.abs(Y1 - Y2).sum()) < 1e-6,
        pool2d(X[0], (2, 2)),
        pool2d(X[0], (2, 2), "avg"),
        T.nn.MaxPool2d(3)(Xp),
        T.nn.MaxPool2d(3, padding=1, stride=2)(Xp),
        T.nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(Xp),
        T.nn.MaxPool2d(3, padding=1, stride=2)(Xp2),
        F.conv2d(X.unsqueeze(0), K3),
        raises(lambda: corr2d_multi_in(X, K3)),
        raises(lambda: T.nn.MaxPool2d(3, padding=2)(Xp)),
    )


@program()
def prog_edu_d2l_batch_norm_scratch_4d(T: Any) -> Any:
    nn = T.nn

    def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
        if not T.is_grad_enabled():
            X_hat = (X - moving_mean) / T.sqrt(moving_var + eps)
        else:
            assert len(X.shape) in (2, 4)
            if len(X.shape) == 2:
                mean = X.mean(dim=0)
                var = ((X - mean) ** 2).mean(dim=0)
            else:
                mean = X.mean(dim=(0, 2, 3), keepdim=True)
                var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
            X_hat = (X - mean) / T.sqrt(var + eps)
            moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
            moving_var = (1.0 - momentum) * moving_var + momentum * var
        Y = gamma * X_hat + beta
        return Y, moving_mean.data, moving_var.data

    class BatchNorm(nn.Module):
        def __init__(self, num_features, num_dims):
            super().__init__()
            shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
            self.gamma = nn.Parameter(T.ones(shape))
            self.beta = nn.Parameter(T.zeros(shape))
            self.moving_mean = T.zeros(shape)
            self.moving_var = T.ones(shape)

        def forward(self, X):
            if self.moving_mean.device != X.device:
                self.moving_mean = self.moving_mean.to(X.device)
                self.moving_var = self.moving_var.to(X.device)
            Y, self.moving_mean, self.moving_var = batch_norm(
                X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1
            )
            return Y

    T.manual_seed(0)
    X = T.randn(4, 3, 5, 5)
    bn = BatchNorm(3, 4)
    ref = nn.BatchNorm2d(3)
    y = bn(X)
    yr = ref(X)
    (y.sum() + (y**2).mean()).backward()
    with T.no_grad():
        ye = bn(X[:1])
    ref.eval()
    return (
        (y - yr).abs().max() < 1e-5,
        bn.moving_mean.flatten(),
        ref.running_mean,
        bn.moving_var.flatten(),
        ref.running_var,
        bn.gamma.grad.flatten(),
        bn.beta.grad.flatten(),
        ye[0, 0, 0],
        ref(X[:1])[0, 0, 0],
        y.grad_fn,
        [n for n, _ in bn.named_parameters()],
        list(bn.state_dict()),
        raises(lambda: bn(T.randn(2, 3, 5))),
    )


@program()
def prog_edu_d2l_lenet_and_residual(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(0)
    net = nn.Sequential(
        nn.LazyConv2d(6, kernel_size=5, padding=2), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.LazyConv2d(16, kernel_size=5), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(),
        nn.LazyLinear(12), nn.Sigmoid(),
        nn.LazyLinear(10),
    )  # fmt: skip
    X = T.rand(size=(2, 1, 28, 28), dtype=T.float32)
    shapes = []
    h = X
    for layer in net:
        h = layer(h)
        shapes.append((layer.__class__.__name__, tuple(h.shape)))

    def init_cnn(module):
        if type(module) is nn.Linear or type(module) is nn.Conv2d:
            nn.init.xavier_uniform_(module.weight)

    net.apply(init_cnn)
    y = T.tensor([3, 7])
    loss = F.cross_entropy(net(X), y)
    loss.backward()

    class Residual(nn.Module):
        def __init__(self, num_channels, use_1x1conv=False, strides=1):
            super().__init__()
            self.conv1 = nn.LazyConv2d(num_channels, kernel_size=3, padding=1, stride=strides)
            self.conv2 = nn.LazyConv2d(num_channels, kernel_size=3, padding=1)
            if use_1x1conv:
                self.conv3 = nn.LazyConv2d(num_channels, kernel_size=1, stride=strides)
            else:
                self.conv3 = None
            self.bn1 = nn.LazyBatchNorm2d()
            self.bn2 = nn.LazyBatchNorm2d()

        def forward(self, X):
            Y = F.relu(self.bn1(self.conv1(X)))
            Y = self.bn2(self.conv2(Y))
            if self.conv3:
                X = self.conv3(X)
            Y += X
            return F.relu(Y)

    blk = Residual(3)
    Xr = T.randn(4, 3, 6, 6)
    blk2 = Residual(6, use_1x1conv=True, strides=2)
    r2 = blk2(Xr)
    r2.mean().backward()
    return (
        shapes,
        loss,
        net[0].weight.grad.abs().sum(),
        net[-1].bias.grad,
        blk(Xr).shape,
        r2.shape,
        r2.grad_fn,
        blk2.conv3.weight.grad.shape,
        blk2.bn1.num_batches_tracked,
        raises(lambda: net(T.rand(2, 1, 32, 32))),
    )


# --- d2l.ai: sequence to sequence, transformer pieces, GAN, word2vec ------------------------


@program()
def prog_edu_d2l_seq2seq_masked_loss(T: Any) -> Any:
    nn = T.nn

    class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
        def forward(self, pred, label, valid_len):
            weights = T.ones_like(label)
            weights = _sequence_mask(T, weights, valid_len)
            self.reduction = "none"
            unweighted_loss = super().forward(pred.permute(0, 2, 1), label)
            return (unweighted_loss * weights).mean(dim=1)

    class Seq2SeqEncoder(nn.Module):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)

        def forward(self, X):
            X = self.embedding(X)
            X = X.permute(1, 0, 2)
            output, state = self.rnn(X)
            return output, state

    T.manual_seed(0)
    loss = MaskedSoftmaxCELoss()
    l1 = loss(T.ones(3, 4, 10), T.ones((3, 4), dtype=T.long), T.tensor([4, 2, 0]))
    enc = Seq2SeqEncoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
    enc.eval()
    X = T.zeros((4, 7), dtype=T.long)
    output, state = enc(X)
    dec_in = state[-1].repeat(X.shape[1], 1, 1)
    pred = T.randn(4, 7, 10, requires_grad=True)
    label = T.randint(0, 10, (4, 7))
    lo = loss(pred, label, T.tensor([7, 3, 1, 0]))
    lo.sum().backward()
    return (
        l1,
        output.shape,
        state.shape,
        dec_in.shape,
        lo,
        lo.grad_fn,
        pred.grad[3].abs().sum(),
        pred.grad[0, 0],
        raises(lambda: repr(nn.GRU(8, 16, 1, dropout=0.5))),
        raises(lambda: enc(T.zeros((4, 7)))),
    )


@program()
def prog_edu_d2l_transformer_addnorm_ffn(T: Any) -> Any:
    nn = T.nn

    class PositionWiseFFN(nn.Module):
        def __init__(self, ffn_num_hiddens, ffn_num_outputs):
            super().__init__()
            self.dense1 = nn.LazyLinear(ffn_num_hiddens)
            self.relu = nn.ReLU()
            self.dense2 = nn.LazyLinear(ffn_num_outputs)

        def forward(self, X):
            return self.dense2(self.relu(self.dense1(X)))

    class AddNorm(nn.Module):
        def __init__(self, norm_shape, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)
            self.ln = nn.LayerNorm(norm_shape)

        def forward(self, X, Y):
            return self.ln(self.dropout(Y) + X)

    T.manual_seed(0)
    ffn = PositionWiseFFN(4, 8)
    ffn.eval()
    f = ffn(T.ones((2, 3, 4)))[0]
    ln = nn.LayerNorm(2)
    bn = nn.LazyBatchNorm1d()
    X = T.tensor([[1, 2], [2, 3]], dtype=T.float32)
    lnX, bnX = ln(X), bn(X)
    add_norm = AddNorm(4, 0.5)
    add_norm.eval()
    a = T.ones((2, 3, 4), requires_grad=True)
    b = T.randn((2, 3, 4), requires_grad=True)
    y = add_norm(a, b)
    (y * T.arange(4.0)).sum().backward()
    return (
        f,
        lnX,
        bnX,
        lnX.grad_fn,
        bnX.grad_fn,
        y.shape,
        y.grad_fn,
        a.grad[0, 0],
        b.grad[1, 2],
        add_norm.ln.weight.grad,
        raises(lambda: AddNorm([3, 4], 0.1)(a, b[:, :2])),
        raises(lambda: ln(T.ones(2, 3))),
    )


@program()
def prog_edu_d2l_gan_training_step(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)
    X = T.normal(0.0, 1, (32, 2))
    A = T.tensor([[1, 2], [-0.1, 0.5]])
    b = T.tensor([1, 2])
    data = T.matmul(X, A) + b
    net_G = nn.Sequential(nn.Linear(2, 2))
    net_D = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 3), nn.Tanh(), nn.Linear(3, 1))
    loss = nn.BCEWithLogitsLoss(reduction="sum")
    for w in net_D.parameters():
        nn.init.normal_(w, 0, 0.02)
    for w in net_G.parameters():
        nn.init.normal_(w, 0, 0.02)
    trainer_D = T.optim.Adam(net_D.parameters(), lr=0.05)
    trainer_G = T.optim.Adam(net_G.parameters(), lr=0.005)

    def update_D(X, Z):
        batch_size = X.shape[0]
        ones = T.ones((batch_size,), device=X.device)
        zeros = T.zeros((batch_size,), device=X.device)
        trainer_D.zero_grad()
        real_Y = net_D(X)
        fake_X = net_G(Z)
        fake_Y = net_D(fake_X.detach())
        loss_D = (
            loss(real_Y, ones.reshape(real_Y.shape)) + loss(fake_Y, zeros.reshape(fake_Y.shape))
        ) / 2
        loss_D.backward()
        trainer_D.step()
        return loss_D

    def update_G(Z):
        batch_size = Z.shape[0]
        ones = T.ones((batch_size,), device=Z.device)
        trainer_G.zero_grad()
        fake_X = net_G(Z)
        fake_Y = net_D(fake_X)
        loss_G = loss(fake_Y, ones.reshape(fake_Y.shape))
        loss_G.backward()
        trainer_G.step()
        return loss_G

    hist = []
    for i in range(0, 32, 8):
        Xb = data[i : i + 8]
        Z = T.normal(0, 1, size=(8, 2))
        hist.append((update_D(Xb, Z).item(), update_G(Z).item()))
    return (
        data.dtype,
        hist,
        net_G[0].weight,
        net_D[-1].bias.grad,
        raises(lambda: loss(net_D(data[:2]), T.ones(2))),
        raises(lambda: loss(net_D(data[:2]), T.ones(2, 1, dtype=T.long))),
    )


@program()
def prog_edu_d2l_word2vec_skip_gram(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(0)
    embed = nn.Embedding(num_embeddings=20, embedding_dim=4)

    def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
        v = embed_v(center)
        u = embed_u(contexts_and_negatives)
        return T.bmm(v, u.permute(0, 2, 1))

    class SigmoidBCELoss(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, inputs, target, mask=None):
            out = F.binary_cross_entropy_with_logits(inputs, target, weight=mask, reduction="none")
            return out.mean(dim=1)

    loss = SigmoidBCELoss()
    pred = T.tensor([[1.1, -2.2, 3.3, -4.4]] * 2)
    label = T.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
    mask = T.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
    l0 = loss(pred, label, mask) * mask.shape[1] / mask.sum(axis=1)
    embed_u = nn.Embedding(20, 4)
    center = T.ones((2, 1), dtype=T.long)
    ctx = T.ones((2, 4), dtype=T.long)
    out = skip_gram(center, ctx, embed, embed_u)
    lo = (
        loss(out.reshape(label.shape).float(), label, mask) / mask.sum(axis=1) * mask.shape[1]
    ).sum()
    lo.backward()
    W = embed.weight.data
    x = W[3]
    cos = T.mv(W, x) / T.sqrt(T.sum(W * W, dim=1) * T.sum(x * x) + 1e-9)
    topk = T.topk(cos, k=4)[1].cpu().numpy().astype("int32")
    return (
        embed.weight.shape,
        embed(T.tensor([[1, 2, 3], [4, 5, 6]])).shape,
        l0,
        out.shape,
        lo,
        embed.weight.grad[1],
        embed.weight.grad[0],
        embed_u.weight.grad[1],
        cos[:4],
        topk,
        raises(lambda: F.binary_cross_entropy_with_logits(pred, label, weight=T.ones(3))),
    )


# --- minGPT: configure_optimizers by module type, NewGELU ------------------------------------


@program()
def prog_edu_mingpt_decay_sets_and_new_gelu(T: Any) -> Any:
    nn = T.nn

    class NewGELU(nn.Module):
        def forward(self, x):
            return (
                0.5 * x * (1.0 + T.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * T.pow(x, 3.0))))
            )

    T.manual_seed(0)
    model = nn.Sequential(
        nn.Embedding(10, 8), nn.LayerNorm(8), nn.Linear(8, 16), NewGELU(), nn.Linear(16, 10)
    )
    decay, no_decay = set(), set()
    whitelist_weight_modules = (nn.Linear,)
    blacklist_weight_modules = (nn.LayerNorm, nn.Embedding)
    for mn, m in model.named_modules():
        for pn, _p in m.named_parameters():
            fpn = f"{mn}.{pn}" if mn else pn
            if pn.endswith("bias"):
                no_decay.add(fpn)
            elif pn.endswith("weight") and isinstance(m, whitelist_weight_modules):
                decay.add(fpn)
            elif pn.endswith("weight") and isinstance(m, blacklist_weight_modules):
                no_decay.add(fpn)
    param_dict = dict(model.named_parameters())
    inter_params = decay & no_decay
    union_params = decay | no_decay
    optim_groups = [
        {"params": [param_dict[pn] for pn in sorted(decay)], "weight_decay": 0.1},
        {"params": [param_dict[pn] for pn in sorted(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = T.optim.AdamW(optim_groups, lr=3e-4, betas=(0.9, 0.95))
    x = T.linspace(-3, 3, 7, requires_grad=True)
    g1 = NewGELU()(x)
    g2 = nn.functional.gelu(x, approximate="tanh")
    (g1.sum() + g2.sum()).backward()
    idx = T.tensor([[1, 2, 3]])
    logits = model(idx)
    loss = nn.functional.cross_entropy(
        logits.view(-1, logits.size(-1)), idx.view(-1), ignore_index=-1
    )
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return (
        sorted(decay),
        sorted(no_decay),
        len(inter_params),
        len(param_dict.keys() - union_params),
        (g1 - g2).abs().max() < 1e-6,
        g1.grad_fn,
        g2.grad_fn,
        x.grad,
        loss,
        model[2].weight[0, :4],
        [n for n, _ in model.named_modules()],
    )


# --- d2l.ai: optimization algorithms from scratch -------------------------------------------


@program()
def prog_edu_d2l_optimizers_from_scratch_vs_torch_optim(T: Any) -> Any:
    eps = 1e-6

    def init_states(kind, shapes):
        if kind in ("momentum", "adagrad", "rmsprop"):
            return [T.zeros(s) for s in shapes]
        return [(T.zeros(s), T.zeros(s)) for s in shapes]

    def step(kind, params, states, hp):
        for p, st in zip(params, states, strict=True):
            with T.no_grad():
                if kind == "momentum":
                    st[:] = hp["momentum"] * st + p.grad
                    p[:] -= hp["lr"] * st
                elif kind == "adagrad":
                    st[:] += T.square(p.grad)
                    p[:] -= hp["lr"] * p.grad / T.sqrt(st + eps)
                elif kind == "rmsprop":
                    st[:] = hp["gamma"] * st + (1 - hp["gamma"]) * T.square(p.grad)
                    p[:] -= hp["lr"] * p.grad / T.sqrt(st + eps)
                elif kind == "adadelta":
                    s, delta = st
                    s[:] = hp["rho"] * s + (1 - hp["rho"]) * T.square(p.grad)
                    g = (T.sqrt(delta + eps) / T.sqrt(s + eps)) * p.grad
                    p[:] -= g
                    delta[:] = hp["rho"] * delta + (1 - hp["rho"]) * g * g
                else:  # adam
                    beta1, beta2 = 0.9, 0.999
                    v, s = st
                    v[:] = beta1 * v + (1 - beta1) * p.grad
                    s[:] = beta2 * s + (1 - beta2) * T.square(p.grad)
                    v_bias_corr = v / (1 - beta1 ** hp["t"])
                    s_bias_corr = s / (1 - beta2 ** hp["t"])
                    p[:] -= hp["lr"] * v_bias_corr / (T.sqrt(s_bias_corr) + eps)
            p.grad.data.zero_()
        hp["t"] = hp.get("t", 1) + 1

    X = T.tensor(_data(16, 3, seed=3))
    y = X @ T.tensor([1.0, -2.0, 0.5]) + 0.3
    hps = {
        "momentum": ({"lr": 0.05, "momentum": 0.9}, "SGD", {"lr": 0.05, "momentum": 0.9}),
        "adagrad": ({"lr": 0.1}, "Adagrad", {"lr": 0.1, "eps": 1e-6}),
        "rmsprop": ({"lr": 0.01, "gamma": 0.9}, "RMSprop", {"lr": 0.01, "alpha": 0.9, "eps": 1e-6}),
        "adadelta": ({"rho": 0.9}, "Adadelta", {"lr": 1.0, "rho": 0.9, "eps": 1e-6}),
        "adam": ({"lr": 0.01, "t": 1}, "Adam", {"lr": 0.01, "eps": 1e-6}),
    }
    out = {}
    for kind, (hp, opt_name, opt_kw) in hps.items():
        w1 = T.zeros(3, requires_grad=True)
        b1 = T.zeros(1, requires_grad=True)
        w2 = T.zeros(3, requires_grad=True)
        b2 = T.zeros(1, requires_grad=True)
        states = init_states(kind, [(3,), (1,)])
        opt = getattr(T.optim, opt_name)([w2, b2], **opt_kw)
        losses = []
        for _ in range(4):
            l1 = ((X @ w1 + b1 - y) ** 2).mean()
            l1.backward()
            step(kind, [w1, b1], states, hp)
            l2 = ((X @ w2 + b2 - y) ** 2).mean()
            opt.zero_grad()
            l2.backward()
            opt.step()
            losses.append((l1.item(), l2.item()))
        out[kind] = (losses, w1, (w1 - w2).abs().max() < 1e-5, b1.grad, w2.grad)
    return out


@program()
def prog_edu_d2l_gradient_descent_and_newton(T: Any) -> Any:
    c = T.tensor(0.15 * np.pi)

    def f(x):
        return x * T.cos(c * x)

    def f_grad(x):
        return T.cos(c * x) - c * x * T.sin(c * x)

    def f_hess(x):
        return -2 * c * T.sin(c * x) - x * c**2 * T.cos(c * x)

    def newton(eta=1):
        x = T.tensor(10.0)
        results = [float(x)]
        for _i in range(6):
            x -= eta * f_grad(x) / f_hess(x)
            results.append(float(x))
        return results

    def gd(eta, f_grad):
        x = 10.0
        results = [x]
        for _i in range(6):
            x -= eta * f_grad(x)
            results.append(float(x))
        return results

    # autograd's first and second derivatives against the closed forms
    x = T.tensor(2.0, requires_grad=True)
    (g,) = T.autograd.grad(f(x), x, create_graph=True)
    (h,) = T.autograd.grad(g, x)
    T.manual_seed(0)

    def sgd_noise(x1, x2, s1, s2, f_grad):
        g1, g2 = f_grad(x1, x2)
        g1 += T.normal(0.0, 1, (1,)).item()
        g2 += T.normal(0.0, 1, (1,)).item()
        eta_t = 0.1
        return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)

    x1, x2, s1, s2 = -5.0, -2.0, 0, 0
    trace = []
    for _ in range(5):
        x1, x2, s1, s2 = sgd_noise(x1, x2, s1, s2, lambda a, b: (2 * a, 4 * b))
        trace.append((x1, x2))
    cosh_x = T.tensor(10.0, requires_grad=True)
    T.cosh(cosh_x).backward()
    return (
        newton(),
        newton(0.5),
        gd(0.2, lambda x: 2 * x),
        gd(1.1, lambda x: 2 * x),
        g,
        f_grad(x.detach()),
        h,
        f_hess(x.detach()),
        g.grad_fn,
        trace,
        cosh_x.grad,
    )


# --- walking the graph as micrograd's draw_dot does --------------------------------------------


def _walk(root: Any) -> list[Any]:
    """micrograd's trace(): every node once (depth first), with its edges by name."""
    nodes, edges, seen = [], [], set()

    def build(fn):
        if fn is None or id(fn) in seen:
            return
        seen.add(id(fn))
        nodes.append(fn.name())
        for child, idx in fn.next_functions:
            if child is not None:
                edges.append((child.name(), idx, fn.name()))
                build(child)

    build(root.grad_fn)
    return [nodes, edges]


@program()
def prog_edu_draw_dot_over_torch_graphs(T: Any) -> Any:
    F = T.nn.functional
    x1 = T.tensor(2.0, dtype=T.float64, requires_grad=True)
    w1 = T.tensor(-3.0, dtype=T.float64, requires_grad=True)
    b = T.tensor(6.8813735870195432, dtype=T.float64, requires_grad=True)
    n = x1 * w1 + b
    e = (2 * n).exp()
    o = (e - 1) / (e + 1)
    X, Y = _dataset(T)
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, 2), generator=g, requires_grad=True)
    W1 = T.randn((6, 10), generator=g, requires_grad=True)
    b1 = T.randn(10, generator=g, requires_grad=True)
    W2 = T.randn((10, 27), generator=g, requires_grad=True)
    emb = C[X[:5]]
    h = T.tanh(emb.view(-1, 6) @ W1 + b1)
    loss = F.cross_entropy(h @ W2, Y[:5])
    leaf = o.grad_fn.next_functions[0][0]
    while leaf.next_functions:
        leaf = leaf.next_functions[0][0]
    return (
        _walk(o),
        _walk(loss),
        type(leaf).__name__,
        leaf.variable is x1 or leaf.variable is w1 or leaf.variable is b,
        loss.grad_fn.next_functions[0][0].name(),
        h.grad_fn.next_functions,
    )


@program()
def prog_edu_old_tutorial_spellings(T: Any) -> Any:
    # older copies of the tutorials: reduction='elementwise_mean' (deprecated, still mean),
    # approximate=True for GELU, positional approximate, size_average
    F = T.nn.functional
    x = T.tensor(_data(4, 3, seed=5), requires_grad=True)
    y = T.tensor([0, 2, 1, 2])
    t = T.tensor(_data(4, 3, seed=6))
    outs = [
        F.cross_entropy(x, y, reduction="elementwise_mean"),
        F.nll_loss(F.log_softmax(x, 1), y, reduction="elementwise_mean"),
        F.mse_loss(x, t, reduction="elementwise_mean"),
        F.l1_loss(x, t, reduction="elementwise_mean"),
        F.binary_cross_entropy_with_logits(x, t.sigmoid(), reduction="elementwise_mean"),
        F.smooth_l1_loss(x, t, reduction="elementwise_mean"),
        F.kl_div(F.log_softmax(x, 1), F.softmax(t, 1), reduction="elementwise_mean"),
        T.nn.CrossEntropyLoss(reduction="elementwise_mean")(x, y),
        T.nn.MSELoss(size_average=False)(x, t),
    ]
    sum(outs).backward()
    return (
        outs,
        [o.grad_fn for o in outs],
        x.grad,
        raises(lambda: F.poisson_nll_loss(x, t.abs(), reduction="elementwise_mean")),
        raises(lambda: F.mse_loss(x, t, reduction="average")),
        raises(lambda: F.gelu(x, approximate=True)),
        raises(lambda: F.gelu(x, "tanh")),
        raises(lambda: T.nn.GELU(approximate=None)(x)),
        raises(lambda: F.gelu(x, approximate="exact")),
        F.gelu(x, approximate="tanh")[0],
    )


@program()
def prog_edu_overfit_one_batch_loss_reaches_zero(T: Any) -> Any:
    # makemore's "overfit a single batch" sanity check, pushed until the logits saturate: the
    # printed loss is 0., as torch prints it
    F = T.nn.functional
    X, Y = _dataset(T)
    Xb, Yb = X[:4], Y[:4]
    g = T.Generator().manual_seed(2147483647)
    C = T.randn((27, 4), generator=g, requires_grad=True)
    W = T.randn((12, 27), generator=g, requires_grad=True)
    losses = []
    for _ in range(3):
        logits = C[Xb].view(4, -1) @ W * 50
        loss = F.cross_entropy(logits, Yb)
        C.grad = W.grad = None
        loss.backward()
        with T.no_grad():
            C -= 1.0 * C.grad
            W -= 1.0 * W.grad
        losses.append(loss.item())
    big = T.zeros(4, 27)
    big[range(4), Yb] = 1000.0
    perfect = F.cross_entropy(big, Yb)
    perfect_sum = F.cross_entropy(big, Yb, reduction="sum")
    nll0 = F.nll_loss(T.zeros(4, 27), Yb)
    return (
        losses,
        perfect,
        repr(perfect),
        str(perfect_sum),
        perfect.item(),
        nll0,
        repr(F.nll_loss(T.zeros(4, 27), Yb, reduction="none")),
        F.nll_loss(T.zeros(4, 27), Yb, weight=T.ones(27), reduction="sum"),
        F.cross_entropy(big.view(4, 27, 1), Yb.view(4, 1)),
    )


@program()
def prog_edu_micrograd_bugs_the_video_fixes(T: Any) -> Any:
    # the accumulation bug (a node used twice), forgetting to zero grads between steps, and
    # backward twice through a freed graph; each as torch shows it
    a = T.tensor(3.0, dtype=T.float64, requires_grad=True)
    b = a + a
    b.backward()
    a2 = T.tensor(-2.0, dtype=T.float64, requires_grad=True)
    b2 = T.tensor(3.0, dtype=T.float64, requires_grad=True)
    d = a2 * b2
    e = a2 + b2
    f = d * e
    f.backward(retain_graph=True)
    first = (a2.grad.item(), b2.grad.item())
    f.backward()  # accumulates: the video's forgotten zero_grad
    second = (a2.grad.item(), b2.grad.item())
    err = raises(lambda: f.backward())
    # division written as micrograd does it, a * b**-1, against true division
    x = T.tensor(4.0, requires_grad=True)
    y = T.tensor(-0.5, requires_grad=True)
    q1 = x * y**-1
    q2 = x / y
    q1.backward()
    gx1, gy1 = x.grad.clone(), y.grad.clone()
    x.grad = y.grad = None
    q2.backward()
    # radd / rmul / rsub / rtruediv with Python numbers
    z = T.tensor(2.0, requires_grad=True)
    r = 1 + z, 2 * z, 3 - z, 4 / z, z**2, 2**z, -z
    sum(r).backward()
    return (
        a.grad,
        b.grad_fn,
        first,
        second,
        err,
        (q1.item(), q2.item()),
        (gx1, gy1),
        (x.grad, y.grad),
        (q1.grad_fn, q2.grad_fn),
        [t.grad_fn for t in r],
        z.grad,
    )


@program()
def prog_edu_karpathy_layers_in_place_updates(T: Any) -> Any:
    # part 3's `self.out += self.bias` on a matmul output, `layers[-1].weight *= 0.1` and the
    # gamma scaling under no_grad, then a step: versions, grad_fns and grads
    T.manual_seed(0)
    W = T.randn(4, 3) / 4**0.5
    b = T.zeros(3)
    gamma = T.ones(3)
    with T.no_grad():
        W *= 5 / 3
        gamma *= 0.1
    versions = (W._version, gamma._version)
    for p in (W, b, gamma):
        p.requires_grad = True
    x = T.randn(5, 4)
    out = x @ W
    v0 = out._version
    out += b
    h = T.tanh(out) * gamma
    h.retain_grad()
    out.retain_grad()
    loss = h.pow(2).mean()
    loss.backward()
    with T.no_grad():
        for p in (W, b, gamma):
            p += -0.1 * p.grad
    leaf_err = raises(lambda: W.mul_(2))
    view_err = raises(lambda: W[0].add_(1))
    return (
        versions,
        v0,
        out._version,
        out.grad_fn,
        h.grad_fn,
        out.grad,
        h.grad,
        W.grad,
        b.grad,
        gamma.grad,
        (W._version, b._version, gamma._version),
        leaf_err,
        view_err,
        W.is_leaf,
    )


@program()
def prog_edu_shape_keywords_learners_write(T: Any) -> Any:
    # reshaping with keywords, as people coming from numpy (d2l's readers) write it: torch's
    # parser takes reshape(shape=), view(size=)/view(dtype=), permute(dims=), expand(size=),
    # repeat(repeats=); a numpy-style name is its error
    X = T.arange(12, dtype=T.float32, requires_grad=True)
    Y = X.reshape(shape=(3, 4))
    Z = Y.permute(dims=(1, 0))
    V = Z.contiguous().view(size=(2, 6))
    E = V[:1].expand(size=(3, 6))
    R = E.repeat(repeats=(1, 2))
    R.sum().backward()
    return (
        Y.shape,
        Z.shape,
        V.shape,
        R.shape,
        [t.grad_fn for t in (Y, Z, V, E, R)],
        X.grad,
        T.reshape(X, shape=(4, 3)).shape,
        T.permute(Y, dims=(1, 0)).shape,
        X.detach().view(dtype=T.int32)[:3],
        raises(lambda: Y.reshape(shape=12)),
        raises(lambda: Y.reshape((12,), shape=(12,))),
        raises(lambda: Y.reshape(newshape=(12,))),
        raises(lambda: Y.permute(dims=1)),
        raises(lambda: Y.permute(axes=(1, 0))),
        raises(lambda: Y.view(size=12)),
        raises(lambda: Y.view(2, size=(6,))),
        raises(lambda: Y.view(shape=(12,))),
        raises(lambda: Y.view(size=(12,), dtype=T.int32)),
    )


@program()
def prog_edu_keyword_calls_from_the_docs(T: Any) -> Any:
    # calls spelled with the parameter names torch's docs show: arange(end=), Tensor.split's
    # split_size (torch.split's split_size_or_sections), new_zeros(size=), one_hot(input=)
    F = T.nn.functional
    x = T.arange(end=6, dtype=T.float32).requires_grad_()
    a, b = x.split(split_size=3)
    c, d = T.split(x, split_size_or_sections=[2, 4])
    z = x.new_zeros(size=(2, 3))
    o = x.new_ones(size=[3])
    e = x.new_empty(size=(0,))
    (a * 2 + b).sum().backward()
    return (
        x,
        T.arange(end=3),
        T.arange(end=2.5),
        (a, b, c, d),
        (a.grad_fn, c.grad_fn),
        x.grad,
        z,
        o,
        e.shape,
        F.one_hot(input=T.tensor([0, 2]), num_classes=3),
        raises(lambda: T.arange()),
        raises(lambda: T.arange(step=2)),
        raises(lambda: T.arange(end=6, step=2)),
        raises(lambda: T.split(x, split_size=3)),
        raises(lambda: x.split(split_size_or_sections=3)),
        raises(lambda: x.new_zeros((2,), size=(2,))),
        raises(lambda: x.new_zeros(size=2)),
    )


@program()
def prog_edu_nanogpt_autocast_float16_cpu_step(T: Any) -> Any:
    # train.py with dtype='float16' on a CPU: autocast to float16, a GradScaler that is
    # disabled there (it warns that CUDA is unavailable only when enabled on a CUDA device)
    model = _gpt(T, n_layer=1)
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 8))
    scaler = T.amp.GradScaler("cpu", enabled=False)
    losses = []
    for _ in range(2):
        with T.autocast(device_type="cpu", dtype=T.float16):
            logits, loss = model(idx, idx)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        norm = T.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        losses.append((loss.float().item(), norm))
    return (
        logits.dtype,
        loss.dtype,
        losses,
        model.lm_head.weight.dtype,
        model.transformer.h[0].attn.c_attn.weight[0, :4],
    )


# --- the 60 Minute Blitz: LeNet, backward with a gradient, the grad_fn chain --------------------


@program()
def prog_edu_blitz_lenet_and_grad_fn_chain(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(0)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, input):
            c1 = F.relu(self.conv1(input))
            s2 = F.max_pool2d(c1, (2, 2))
            c3 = F.relu(self.conv2(s2))
            s4 = F.max_pool2d(c3, 2)
            s4 = T.flatten(s4, 1)
            f5 = F.relu(self.fc1(s4))
            f6 = F.relu(self.fc2(f5))
            return self.fc3(f6)

    net = Net()
    params = list(net.parameters())
    input = T.randn(1, 1, 32, 32)
    out = net(input)
    net.zero_grad()
    out.backward(T.randn(1, 10))
    g_first = net.conv1.bias.grad.clone()
    output = net(input)
    target = T.randn(10).view(1, -1)
    criterion = nn.MSELoss()
    loss = criterion(output, target)
    net.zero_grad()
    before = net.conv1.bias.grad
    loss.backward()
    optimizer = T.optim.SGD(net.parameters(), lr=0.01)
    optimizer.zero_grad()
    loss2 = criterion(net(input), target)
    loss2.backward()
    optimizer.step()
    return (
        len(params),
        params[0].size(),
        out,
        g_first,
        loss,
        loss.grad_fn.name(),
        loss.grad_fn.next_functions[0][0].name(),
        loss.grad_fn.next_functions[0][0].next_functions[0][0].name(),
        _walk(loss),
        before,
        net.conv1.bias.grad,
        loss2,
        net.fc3.bias,
        raises(lambda: net(T.randn(1, 32, 32))),
        raises(lambda: net(T.randn(1, 1, 28, 28))),
    )


@program()
def prog_edu_nanogpt_compile_and_orig_mod_prefix(T: Any) -> Any:
    # train.py: `model = torch.compile(model)`, checkpoints from the compiled model (its keys
    # carry `_orig_mod.`), sample.py's loading that strips the prefix
    unoptimized_model = _gpt(T, n_layer=1)
    model = T.compile(unoptimized_model, backend="eager")
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    T.manual_seed(0)
    idx = T.randint(0, 11, (2, 8))
    _logits, loss = model(idx, idx)
    loss.backward()
    optimizer.step()
    state_dict = model.state_dict()
    keys = list(state_dict)
    fresh = _gpt(T, n_layer=1)
    strict_err = raises(lambda: fresh.load_state_dict(state_dict))
    unwanted_prefix = "_orig_mod."
    for k, _v in list(state_dict.items()):
        if k.startswith(unwanted_prefix):
            state_dict[k[len(unwanted_prefix) :]] = state_dict.pop(k)
    res = fresh.load_state_dict(state_dict)
    model.eval()
    return (
        type(model).__name__,
        model._orig_mod is unoptimized_model,
        keys[:3],
        len(keys),
        [n for n, _ in model.named_parameters()][:2],
        model.get_num_params(),
        model.training,
        unoptimized_model.training,
        loss,
        loss.grad_fn,
        type(strict_err).__name__,
        res,
        (fresh.lm_head.weight - unoptimized_model.lm_head.weight).abs().max(),
        repr(model).splitlines()[:2],
    )


# --- build-nanogpt (GPT-2 reproduction) in miniature ----------------------------------------


@program()
def prog_edu_build_nanogpt_init_accum_and_hellaswag(T: Any) -> Any:
    nn = T.nn
    F = T.nn.functional
    T.manual_seed(1337)
    T.set_float32_matmul_precision("high")
    n_layer, n_embd, vocab = 2, 8, 13

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_fc = nn.Linear(n_embd, 4 * n_embd)
            self.gelu = nn.GELU(approximate="tanh")
            self.c_proj = nn.Linear(4 * n_embd, n_embd)
            self.c_proj.NANOGPT_SCALE_INIT = 1

        def forward(self, x):
            return self.c_proj(self.gelu(self.c_fc(x)))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(vocab, n_embd)
            self.h = nn.ModuleList([MLP() for _ in range(n_layer)])
            self.ln_f = nn.LayerNorm(n_embd)
            self.lm_head = nn.Linear(n_embd, vocab, bias=False)
            self.wte.weight = self.lm_head.weight
            self.apply(self._init_weights)

        def _init_weights(self, module):
            if isinstance(module, nn.Linear):
                std = 0.02
                if hasattr(module, "NANOGPT_SCALE_INIT"):
                    std *= (2 * n_layer) ** -0.5
                T.nn.init.normal_(module.weight, mean=0.0, std=std)
                if module.bias is not None:
                    T.nn.init.zeros_(module.bias)
            elif isinstance(module, nn.Embedding):
                T.nn.init.normal_(module.weight, mean=0.0, std=0.02)

        def forward(self, idx, targets=None):
            x = self.wte(idx)
            for block in self.h:
                x = x + block(x)
            logits = self.lm_head(self.ln_f(x))
            loss = None
            if targets is not None:
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
            return logits, loss

    model = GPT()
    fused_available = "fused" in inspect.signature(T.optim.AdamW).parameters
    optimizer = T.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), eps=1e-8, fused=False)
    grad_accum_steps = 2
    data = T.randint(0, vocab, (64,))
    loss_accum = 0.0
    for micro_step in range(grad_accum_steps):
        x = data[micro_step * 8 : micro_step * 8 + 8].view(2, 4)
        y = data[micro_step * 8 + 1 : micro_step * 8 + 9].view(2, 4)
        with T.autocast(device_type="cpu", dtype=T.bfloat16):
            _logits, loss = model(x, y)
        loss = loss / grad_accum_steps
        loss_accum += loss.detach()
        loss.backward()
    norm = T.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    # HellaSwag scoring: the completion with the lowest average loss
    tokens = T.randint(0, vocab, (4, 6))
    mask = T.zeros((4, 6), dtype=T.long)
    mask[:, 3:] = 1
    mask[2, 5] = 0
    with T.no_grad():
        logits, _ = model(tokens)
    shift_logits = (logits[..., :-1, :]).contiguous()
    shift_tokens = (tokens[..., 1:]).contiguous()
    flat_shift_logits = shift_logits.view(-1, shift_logits.size(-1))
    flat_shift_tokens = shift_tokens.view(-1)
    shift_losses = F.cross_entropy(flat_shift_logits, flat_shift_tokens, reduction="none")
    shift_losses = shift_losses.view(tokens.size(0), -1)
    shift_mask = (mask[..., 1:]).contiguous()
    masked_shift_losses = shift_losses * shift_mask
    sum_loss = masked_shift_losses.sum(dim=1)
    avg_loss = sum_loss / shift_mask.sum(dim=1)
    # sampling with top-k 5 and a generator
    sample_rng = T.Generator(device="cpu")
    sample_rng.manual_seed(42)
    probs = F.softmax(logits[:, -1, :], dim=-1)
    topk_probs, topk_indices = T.topk(probs, 5, dim=-1)
    ix = T.multinomial(topk_probs, 1, generator=sample_rng)
    xcol = T.gather(topk_indices, -1, ix)
    precision = T.get_float32_matmul_precision()
    T.set_float32_matmul_precision("highest")  # the process-wide default, for what runs next
    return (
        precision,
        fused_available,
        model.h[0].c_proj.weight.std() < model.h[0].c_fc.weight.std(),
        loss_accum,
        type(loss_accum).__name__,
        loss_accum.dtype,
        norm,
        model.lm_head.weight[0, :4],
        masked_shift_losses.dtype,
        sum_loss,
        avg_loss,
        (sum_loss.argmin().item(), avg_loss.argmin().item()),
        topk_probs,
        xcol,
    )


@program()
def prog_edu_signed_zero_in_running_sums(T: Any) -> Any:
    # a running average (the GPT video's xbow by cumsum) over values that are -0. (a masked,
    # negated zero): torch's scans and loss sums start at +0, so the notebook prints 0.
    x = -T.zeros(2, 4)
    x[1, 2] = 3.0
    c = x.cumsum(1)
    avg = c / T.arange(1, 5)
    w = T.tensor([[-0.0, -0.0, 1.0]], requires_grad=True)
    cw = w.cumsum(-1)
    cw.sum().backward()
    return (
        repr(c),
        repr(avg),
        repr(x.cumsum(0)),
        repr(x.half().cumsum(1)),
        repr(x.cumsum(1, dtype=T.float64)),
        repr(cw),
        w.grad,
        repr(T.nn.functional.nll_loss(x, T.tensor([0, 1]))),
    )


@program()
def prog_edu_d2l_numerical_stability(T: Any) -> Any:
    # vanishing gradients of the sigmoid, exploding products of random matrices, and a
    # symmetric init that never breaks its symmetry
    x = T.arange(-8.0, 8.0, 0.1, requires_grad=True)
    y = T.sigmoid(x)
    y.backward(T.ones_like(x))
    T.manual_seed(0)
    M = T.normal(0, 1, size=(4, 4))
    first = M.clone()
    for _i in range(30):
        M = M @ T.normal(0, 1, size=(4, 4))
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 1))
    for p in net.parameters():
        T.nn.init.constant_(p, 0.5)
    net(T.randn(5, 3)).sum().backward()
    w_grad = net[0].weight.grad
    return (
        x.shape,
        x.grad[::20],
        x.grad.max(),
        x.grad.argmax(),
        y.grad_fn,
        first,
        M.abs().max() > 1e10,
        (M / M.abs().max()).abs().max(),
        w_grad,
        (w_grad == w_grad[0]).all(),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
