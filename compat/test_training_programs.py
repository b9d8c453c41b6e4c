"""Whole training programs, written once against the torch API, run in torch and shadowgrad
from the same numpy weights and data: the losses, gradients and parameters must agree step by
step. Each program combines features that unit tests check one at a time (schedulers with
optimizers, gradient clipping, GradScaler, checkpointing, packed sequences, state-dict round
trips), the way ordinary training scripts combine them.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import shadowgrad

LIBS = (torch, shadowgrad)


def _load(T: Any, module: Any, seed: int) -> None:
    """Deterministic weights from numpy, the same for both libraries."""
    rng = np.random.default_rng(seed)
    with T.no_grad():
        for _, p in sorted(module.named_parameters()):
            p.copy_(T.tensor(rng.uniform(-0.3, 0.3, tuple(p.shape)).astype(np.float32)))


def _cnn_schedulers(T: Any) -> list[Any]:
    """Conv + BatchNorm + pooling classifier; AdamW, warm-up then cosine restarts, clipping.

    The first conv has no bias, as usual before a BatchNorm: that bias's gradient is rounding
    noise (the norm removes it), which Adam's normalization turns into full steps of either
    sign, so no two float32 engines would agree on it."""
    nn, F = T.nn, T.nn.functional
    model = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(4, 6, 3), nn.GELU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3),
    )  # fmt: skip
    _load(T, model, 0)
    opt = T.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.05)
    sched = T.optim.lr_scheduler.SequentialLR(
        opt,
        [
            T.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, total_iters=3),
            T.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=4, T_mult=2),
        ],
        milestones=[3],
    )
    rng = np.random.default_rng(1)
    x = T.tensor(rng.standard_normal((8, 1, 10, 10)).astype(np.float32))
    y = T.tensor(rng.integers(0, 3, 8))
    out = []
    for _ in range(10):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        sched.step()
        out.append((loss.item(), float(norm), sched.get_last_lr()[0]))
    model.eval()
    out.append(model(x).detach().numpy())
    return out


def _lstm_packed(T: Any) -> list[Any]:
    """Embedding + packed bidirectional LSTM + linear head; RMSprop; state-dict round trip."""
    nn = T.nn
    rnn_utils = T.nn.utils.rnn

    class Tagger(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(12, 5, padding_idx=0)
            self.lstm = nn.LSTM(5, 4, batch_first=True, bidirectional=True)
            self.head = nn.Linear(8, 3)

        def forward(self, tokens: Any, lengths: Any) -> Any:
            packed = rnn_utils.pack_padded_sequence(
                self.emb(tokens), lengths, batch_first=True, enforce_sorted=False
            )
            out, _ = self.lstm(packed)
            padded, _ = rnn_utils.pad_packed_sequence(out, batch_first=True)
            return self.head(padded)

    model = Tagger()
    _load(T, model, 2)
    opt = T.optim.RMSprop(model.parameters(), lr=5e-3, momentum=0.9)
    tokens = T.tensor([[3, 5, 7, 2], [4, 1, 0, 0], [9, 8, 6, 0]])
    lengths = [4, 2, 3]
    tags = T.tensor([[0, 1, 2, 1], [2, 0, -100, -100], [1, 1, 0, -100]])
    out = []
    for _ in range(6):
        opt.zero_grad()
        logits = model(tokens, lengths)
        loss = T.nn.functional.cross_entropy(logits.reshape(-1, 3), tags.reshape(-1))
        loss.backward()
        opt.step()
        out.append(loss.item())
    buf = io.BytesIO()
    T.save(model.state_dict(), buf)
    buf.seek(0)
    clone = Tagger()
    clone.load_state_dict(T.load(buf))
    out.append(clone(tokens, lengths).detach().numpy())
    return out


def _scaler_checkpoint(T: Any) -> list[Any]:
    """MLP with an activation-checkpointed block, GradScaler on the cpu, SGD with nesterov,
    OneCycleLR."""
    nn = T.nn
    block = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 6), nn.SiLU())
    head = nn.Linear(6, 1)
    _load(T, block, 4)
    _load(T, head, 5)
    params = [*block.parameters(), *head.parameters()]
    opt = T.optim.SGD(params, lr=0.05, momentum=0.9, nesterov=True)
    sched = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=8)
    scaler = T.amp.GradScaler("cpu", init_scale=256.0, growth_interval=3)
    rng = np.random.default_rng(6)
    x = T.tensor(rng.standard_normal((5, 6)).astype(np.float32))
    y = T.tensor(rng.standard_normal((5, 1)).astype(np.float32))
    out = []
    for _ in range(8):
        opt.zero_grad()
        h = T.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
        loss = T.nn.functional.mse_loss(head(h), y)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        out.append([p.grad.numpy().copy() for p in params])
        scaler.step(opt)
        scaler.update()
        sched.step()
        out.append((loss.item(), scaler.get_scale(), sched.get_last_lr()[0]))
    return out


def _transformer(T: Any) -> list[Any]:
    """A small decoder-only language model: embedding, causal TransformerEncoder (eval mode
    forward, dropout 0 in training), weight tying, Adam with a StepLR."""
    nn = T.nn

    class LM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(10, 8)
            layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.out = nn.Linear(8, 10, bias=False)
            self.out.weight = self.emb.weight

        def forward(self, tokens: Any) -> Any:
            n = tokens.shape[1]
            mask = nn.Transformer.generate_square_subsequent_mask(n)
            return self.out(self.enc(self.emb(tokens), mask=mask, is_causal=True))

    model = LM()
    _load(T, model, 7)
    opt = T.optim.Adam(model.parameters(), lr=3e-3)
    sched = T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    tokens = T.tensor([[1, 4, 2, 7, 3], [5, 5, 9, 0, 2]])
    out = []
    for _ in range(5):
        opt.zero_grad()
        logits = model(tokens[:, :-1])
        loss = T.nn.functional.cross_entropy(logits.reshape(-1, 10), tokens[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        sched.step()
        out.append(loss.item())
    return out


PROGRAMS: dict[str, Callable[[Any], list[Any]]] = {
    "cnn_schedulers": _cnn_schedulers,
    "lstm_packed": _lstm_packed,
    "scaler_checkpoint": _scaler_checkpoint,
    "transformer": _transformer,
}


def _close(a: Any, b: Any, path: str) -> None:
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{path}[{k}]")
    else:
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=2e-4, atol=2e-5, err_msg=path)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_training_program_matches_torch(name: str) -> None:
    torch.manual_seed(0)
    a, b = (PROGRAMS[name](T) for T in LIBS)
    _close(a, b, name)
