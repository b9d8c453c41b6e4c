"""Realistic programs, eighth set: ordinary training scripts end to end, as users write them.
A CNN with BatchNorm/Dropout switching train/eval, recurrent classifiers over packed sequences,
a tiny causal transformer language model, autoencoders and a VAE, a GAN step, Dataset/DataLoader
regressions with schedulers, gradient accumulation and clipping, frozen layers, forward hooks,
checkpoint save/load and resume, weight tying, custom modules with buffers and parameter
containers, custom autograd Functions, no_grad evaluation loops and early stopping. Each
program returns its per-step losses, final parameters and gradients and state dicts; it
registers into test_realistic_programs_3's set and runs through its harness on torch and on
shadowgrad.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _t(T: Any, *shape: int, seed: int = 0) -> Any:
    return T.tensor(_data(*shape, seed=seed))


def _sd(m: Any) -> dict[str, Any]:
    return {k: v.clone() for k, v in m.state_dict().items()}


# --- CNNs ---------------------------------------------------------------------------------


@program()
def prog_rp8_cnn_bn_dropout_train_eval(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(0)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
            self.bn1 = nn.BatchNorm2d(4)
            self.pool = nn.MaxPool2d(2)
            self.drop = nn.Dropout(0.25)
            self.fc = nn.Linear(4 * 4 * 4, 3)

        def forward(self, x: Any) -> Any:
            x = self.pool(T.relu(self.bn1(self.conv1(x))))
            x = self.drop(T.flatten(x, 1))
            return self.fc(x)

    net = _seeded(T, Net(), 1)
    opt = T.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    x = _t(T, 6, 1, 8, 8, seed=2)
    y = T.tensor([0, 1, 2, 0, 1, 2])
    losses = []
    net.train()
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    net.eval()
    with T.no_grad():
        out = net(x)
        acc = (out.argmax(1) == y).float().mean()
    return losses, out, acc, _sd(net), net.bn1.num_batches_tracked, net.conv1.weight.grad


@program()
def prog_rp8_cnn_batchnorm1d_momentum_none_and_eval(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T,
        nn.Sequential(
            nn.Linear(4, 6, bias=False),
            nn.BatchNorm1d(6, momentum=None),
            nn.ReLU(),
            nn.Linear(6, 1),
        ),
        3,
    )
    opt = T.optim.Adam(model.parameters(), lr=0.01)
    x = _t(T, 8, 4, seed=4)
    y = _t(T, 8, 1, seed=5)
    losses = []
    for _ in range(4):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss)
    model.eval()
    with T.no_grad():
        ev = model(x[:3])
    return losses, ev, _sd(model), opt.state_dict()


@program()
def prog_rp8_cnn_batchnorm_single_sample_error(T: Any) -> Any:
    nn = T.nn
    bn = nn.BatchNorm1d(3)
    x = _t(T, 1, 3)
    err = raises(lambda: bn(x))
    bn.eval()
    ok = bn(x)
    return err, ok, bn.running_mean, bn.num_batches_tracked


@program()
def prog_rp8_cnn_depthwise_groups_and_adaptive_pool(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T,
        nn.Sequential(
            nn.Conv2d(2, 4, 3, padding=1, groups=2),
            nn.GroupNorm(2, 4),
            nn.GELU(),
            nn.Conv2d(4, 4, 1),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(4, 2),
        ),
        6,
    )
    opt = T.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.1)
    x = _t(T, 3, 2, 5, 5, seed=7)
    y = T.tensor([1, 0, 1])
    losses = []
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [p.grad for p in model.parameters()], _sd(model)


@program()
def prog_rp8_cnn_channels_last_input(T: Any) -> Any:
    nn = T.nn
    conv = _seeded(T, nn.Conv2d(3, 2, 3), 8)
    x = _t(T, 2, 3, 5, 5, seed=9).to(memory_format=T.channels_last).requires_grad_()
    y = conv(x)
    y.pow(2).mean().backward()
    return (
        y,
        x.grad,
        conv.weight.grad,
        x.is_contiguous(),
        x.is_contiguous(memory_format=T.channels_last),
    )


# --- recurrent ------------------------------------------------------------------------------


@program()
def prog_rp8_lstm_packed_classifier(T: Any) -> Any:
    nn = T.nn
    rnn = nn.utils.rnn

    class Clf(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(10, 4, padding_idx=0)
            self.lstm = nn.LSTM(4, 5, batch_first=True)
            self.head = nn.Linear(5, 2)

        def forward(self, tokens: Any, lengths: Any) -> Any:
            e = self.emb(tokens)
            packed = rnn.pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
            _, (h, _) = self.lstm(packed)
            return self.head(h[-1])

    m = _seeded(T, Clf(), 10)
    tokens = T.tensor([[1, 2, 3, 0], [4, 5, 0, 0], [6, 7, 8, 9]])
    lengths = T.tensor([3, 2, 4])
    y = T.tensor([0, 1, 1])
    opt = T.optim.RMSprop(m.parameters(), lr=0.01)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(tokens, lengths), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, m.emb.weight.grad, m.lstm.weight_hh_l0.grad, _sd(m)


@program()
def prog_rp8_gru_bidirectional_pad_packed_output(T: Any) -> Any:
    nn = T.nn
    rnn = nn.utils.rnn
    gru = _seeded(T, nn.GRU(3, 4, num_layers=2, bidirectional=True), 11)
    seqs = [_t(T, 4, 3, seed=12), _t(T, 2, 3, seed=13), _t(T, 3, 3, seed=14)]
    padded = rnn.pad_sequence(seqs)
    packed = rnn.pack_padded_sequence(padded, T.tensor([4, 2, 3]), enforce_sorted=False)
    out, h = gru(packed)
    unpacked, lens = rnn.pad_packed_sequence(out, total_length=5)
    loss = unpacked.sum() + h.pow(2).sum()
    loss.backward()
    return (
        unpacked,
        lens,
        h,
        packed.batch_sizes,
        packed.sorted_indices,
        packed.unsorted_indices,
        gru.weight_ih_l1_reverse.grad,
        gru.bias_hh_l0.grad,
    )


@program()
def prog_rp8_pack_sorted_error_and_sequence(T: Any) -> Any:
    rnn = T.nn.utils.rnn
    x = _t(T, 3, 4, 2, seed=15)
    err = raises(lambda: rnn.pack_padded_sequence(x, T.tensor([2, 3, 1]), batch_first=True))
    err0 = raises(
        lambda: rnn.pack_padded_sequence(
            x, T.tensor([3, 0, 1]), batch_first=True, enforce_sorted=False
        )
    )
    p = rnn.pack_sequence([_t(T, 3, 2, seed=1), _t(T, 2, 2, seed=2)])
    return err, err0, p.data, p.batch_sizes, rnn.unpack_sequence(p)


@program()
def prog_rp8_lstm_cell_manual_unroll_tbptt(T: Any) -> Any:
    nn = T.nn
    cell = _seeded(T, nn.LSTMCell(2, 3), 16)
    head = _seeded(T, nn.Linear(3, 1), 17)
    opt = T.optim.SGD([*cell.parameters(), *head.parameters()], lr=0.05)
    xs = _t(T, 6, 4, 2, seed=18)
    ys = _t(T, 6, 4, 1, seed=19)
    h = T.zeros(4, 3)
    c = T.zeros(4, 3)
    losses = []
    for chunk in range(2):
        h, c = h.detach(), c.detach()
        opt.zero_grad()
        loss = 0
        for t in range(3):
            h, c = cell(xs[chunk * 3 + t], (h, c))
            loss = loss + nn.functional.l1_loss(head(h), ys[chunk * 3 + t])
        loss.backward()
        opt.step()
        losses.append(loss)
    return losses, h, c, cell.weight_ih.grad, _sd(cell)


@program()
def prog_rp8_rnn_tanh_relu_batch_first_h0(T: Any) -> Any:
    nn = T.nn
    r1 = _seeded(T, nn.RNN(2, 3, batch_first=True), 20)
    r2 = _seeded(T, nn.RNN(3, 3, nonlinearity="relu", batch_first=True), 21)
    x = _t(T, 2, 4, 2, seed=22).requires_grad_()
    h0 = _t(T, 1, 2, 3, seed=23).requires_grad_()
    o1, hn1 = r1(x, h0)
    o2, hn2 = r2(o1)
    (o2.sum() + hn1.sum()).backward()
    return o2, hn2, x.grad, h0.grad, raises(lambda: r1(x, T.zeros(2, 3)))


# --- transformer ----------------------------------------------------------------------------


@program()
def prog_rp8_tiny_causal_transformer_lm(T: Any) -> Any:
    nn = T.nn

    class LM(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(7, 8)
            self.pos = nn.Parameter(T.zeros(1, 5, 8))
            layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.out = nn.Linear(8, 7)

        def forward(self, idx: Any) -> Any:
            n = idx.shape[1]
            mask = nn.Transformer.generate_square_subsequent_mask(n)
            h = self.emb(idx) + self.pos[:, :n]
            return self.out(self.enc(h, mask=mask, is_causal=True))

    m = _seeded(T, LM(), 24)
    idx = T.tensor([[1, 2, 3, 4, 5], [6, 5, 4, 3, 2]])
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        logits = m(idx[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 7), idx[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    m.eval()
    with T.no_grad():
        nxt = m(idx[:, :3])[:, -1].argmax(-1)
    return losses, nxt, m.pos.grad, nn.Transformer.generate_square_subsequent_mask(3)


@program()
def prog_rp8_mha_key_padding_mask_and_weights(T: Any) -> Any:
    nn = T.nn
    mha = _seeded(T, nn.MultiheadAttention(4, 2, batch_first=True), 25)
    q = _t(T, 2, 3, 4, seed=26).requires_grad_()
    kpm = T.tensor([[False, False, True], [False, False, False]])
    out, w = mha(q, q, q, key_padding_mask=kpm)
    out2, w2 = mha(q, q, q, need_weights=True, average_attn_weights=False)
    (out.sum() + out2.pow(2).sum()).backward()
    return out, w, w2.shape, q.grad, mha.in_proj_weight.grad


@program()
def prog_rp8_sdpa_causal_and_mask(T: Any) -> Any:
    F = T.nn.functional
    q = _t(T, 1, 2, 3, 4, seed=27).requires_grad_()
    k = _t(T, 1, 2, 3, 4, seed=28).requires_grad_()
    v = _t(T, 1, 2, 3, 4, seed=29).requires_grad_()
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    mask = T.tensor([[True, False, True], [True, True, False], [False, True, True]])
    b = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3)
    (a.sum() + b.sum()).backward()
    return a, b, q.grad, k.grad, v.grad


# --- autoencoders / VAE / GAN ---------------------------------------------------------------


@program()
def prog_rp8_autoencoder_tied_decoder(T: Any) -> Any:
    nn = T.nn
    F = nn.functional

    class AE(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.enc = nn.Linear(6, 3)
            self.dec_bias = nn.Parameter(T.zeros(6))

        def forward(self, x: Any) -> Any:
            z = T.sigmoid(self.enc(x))
            return F.linear(z, self.enc.weight.t(), self.dec_bias)

    m = _seeded(T, AE(), 30)
    x = _t(T, 5, 6, seed=31)
    opt = T.optim.Adagrad(m.parameters(), lr=0.1)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = F.mse_loss(m(x), x, reduction="sum")
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, m.enc.weight.grad, m.dec_bias.grad, _sd(m), opt.state_dict()["state"]


@program()
def prog_rp8_vae_reparameterization(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    T.manual_seed(3)

    class VAE(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = nn.Linear(6, 4)
            self.mu = nn.Linear(4, 2)
            self.logvar = nn.Linear(4, 2)
            self.fc2 = nn.Linear(2, 6)

        def forward(self, x: Any) -> Any:
            h = F.relu(self.fc1(x))
            mu, logvar = self.mu(h), self.logvar(h)
            std = T.exp(0.5 * logvar)
            z = mu + T.randn_like(std) * std
            return T.sigmoid(self.fc2(z)), mu, logvar

    m = _seeded(T, VAE(), 32)
    x = T.sigmoid(_t(T, 4, 6, seed=33))
    opt = T.optim.Adam(m.parameters(), lr=1e-2)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        rec, mu, logvar = m(x)
        bce = F.binary_cross_entropy(rec, x, reduction="sum")
        kld = -0.5 * T.sum(1 + logvar - mu.pow(2) - logvar.exp())
        loss = bce + kld
        loss.backward()
        opt.step()
        losses.append((bce.item(), kld.item()))
    return losses, m.logvar.weight.grad, rec.grad_fn, loss.grad_fn


@program()
def prog_rp8_vae_distributions_rsample_kl(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(4)
    mu = _t(T, 3, 2, seed=34).requires_grad_()
    log_std = _t(T, 3, 2, seed=35).mul(0.1).requires_grad_()
    q = D.Normal(mu, log_std.exp())
    p = D.Normal(T.zeros(3, 2), T.ones(3, 2))
    z = q.rsample()
    kl = D.kl_divergence(q, p).sum()
    lp = q.log_prob(z).sum() - p.log_prob(z).sum()
    (kl + lp).backward()
    return z, kl, lp, mu.grad, log_std.grad


@program()
def prog_rp8_gan_step_two_optimizers(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    T.manual_seed(5)
    G = _seeded(
        T, nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.2), nn.Linear(4, 3), nn.Tanh()), 36
    )
    Dn = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1)), 37)
    optG = T.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    optD = T.optim.Adam(Dn.parameters(), lr=2e-3, betas=(0.5, 0.999))
    real = _t(T, 4, 3, seed=38)
    ones, zeros = T.ones(4, 1), T.zeros(4, 1)
    hist = []
    for _ in range(2):
        z = T.randn(4, 2)
        fake = G(z)
        optD.zero_grad()
        d_loss = F.binary_cross_entropy_with_logits(
            Dn(real), ones
        ) + F.binary_cross_entropy_with_logits(Dn(fake.detach()), zeros)
        d_loss.backward()
        optD.step()
        gd_before = G[0].weight.grad
        optG.zero_grad()
        g_loss = F.binary_cross_entropy_with_logits(Dn(fake), ones)
        g_loss.backward()
        optG.step()
        hist.append((d_loss.item(), g_loss.item(), gd_before))
    return hist, _sd(G), _sd(Dn), Dn[0].weight.grad


@program()
def prog_rp8_gan_gradient_penalty_double_backward(T: Any) -> Any:
    nn = T.nn
    Dn = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), 39)
    real = _t(T, 4, 3, seed=40)
    fake = _t(T, 4, 3, seed=41)
    alpha = T.tensor(_data(4, 1, seed=42)).abs().clamp(max=1)
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = Dn(inter)
    (g,) = T.autograd.grad(out, inter, grad_outputs=T.ones_like(out), create_graph=True)
    gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
    loss = out.mean() + 10 * gp
    loss.backward()
    return g, gp, g.grad_fn, Dn[0].weight.grad, Dn[2].bias.grad


# --- data pipelines, schedulers ------------------------------------------------------------


@program()
def prog_rp8_dataset_dataloader_regression_steplr(T: Any) -> Any:
    nn = T.nn
    data = T.utils.data

    class DS(data.Dataset):
        def __init__(self) -> None:
            self.x = _t(T, 10, 3, seed=43)
            self.y = self.x @ T.tensor([[1.0], [-2.0], [0.5]]) + 0.3

        def __len__(self) -> int:
            return len(self.x)

        def __getitem__(self, i: int) -> Any:
            return self.x[i], self.y[i]

    dl = data.DataLoader(DS(), batch_size=4, shuffle=False, drop_last=False)
    model = _seeded(T, nn.Linear(3, 1), 44)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    sched = T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    losses, lrs, shapes = [], [], []
    for _ in range(4):
        for xb, yb in dl:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            losses.append(loss.item())
            shapes.append(tuple(xb.shape))
        sched.step()
        lrs.append(sched.get_last_lr())
    return losses, lrs, shapes, _sd(model), sched.state_dict(), len(dl)


@program()
def prog_rp8_tensordataset_shuffle_generator_onecycle(T: Any) -> Any:
    nn = T.nn
    data = T.utils.data
    x = _t(T, 9, 2, seed=45)
    y = (x.sum(1) > 0).long()
    ds = data.TensorDataset(x, y)
    dl = data.DataLoader(ds, batch_size=3, shuffle=True, generator=T.Generator().manual_seed(0))
    model = _seeded(T, nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2)), 46)
    opt = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
    sched = T.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=6)
    losses, lrs, ys = [], [], []
    for _ in range(2):
        for xb, yb in dl:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
            lrs.append(opt.param_groups[0]["lr"])
            ys.append(yb)
    return losses, lrs, ys, opt.param_groups[0]["momentum"], _sd(model)


@program()
def prog_rp8_random_split_collate_dict_batches(T: Any) -> Any:
    data = T.utils.data

    class DS(data.Dataset):
        def __len__(self) -> int:
            return 5

        def __getitem__(self, i: int) -> Any:
            return {"x": T.full((2,), float(i)), "y": i, "name": f"s{i}"}

    tr, va = data.random_split(DS(), [3, 2], generator=T.Generator().manual_seed(2))
    batches = list(data.DataLoader(tr, batch_size=2))
    return [sorted(tr.indices), sorted(va.indices)], batches, len(va)


@program()
def prog_rp8_reduce_on_plateau_early_stopping(T: Any) -> Any:
    nn = T.nn
    model = _seeded(T, nn.Linear(2, 1), 47)
    opt = T.optim.SGD(model.parameters(), lr=0.5)
    sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
    x = _t(T, 6, 2, seed=48)
    y = _t(T, 6, 1, seed=49)
    xv, yv = _t(T, 3, 2, seed=50), _t(T, 3, 1, seed=51)
    best, bad, hist, best_state = float("inf"), 0, [], None
    for epoch in range(12):
        model.train()
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        model.eval()
        with T.no_grad():
            vl = nn.functional.mse_loss(model(xv), yv).item()
        sched.step(vl)
        hist.append((epoch, vl, opt.param_groups[0]["lr"]))
        if vl < best - 1e-4:
            best, bad, best_state = vl, 0, _sd(model)
        else:
            bad += 1
            if bad >= 3:
                break
    model.load_state_dict(best_state)
    return hist, best, _sd(model), sched.state_dict()["num_bad_epochs"]


@program()
def prog_rp8_cosine_warmup_sequential_lr(T: Any) -> Any:
    model = T.nn.Linear(2, 2)
    opt = T.optim.Adam(model.parameters(), lr=0.1)
    lr = T.optim.lr_scheduler
    warm = lr.LinearLR(opt, start_factor=0.1, total_iters=3)
    cos = lr.CosineAnnealingLR(opt, T_max=4, eta_min=0.01)
    sched = lr.SequentialLR(opt, [warm, cos], milestones=[3])
    lrs = []
    for _ in range(8):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    lam = lr.LambdaLR(T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=1.0), lambda e: 0.9**e)
    for _ in range(3):
        lam.optimizer.step()
        lam.step()
    return lrs, lam.get_last_lr()


# --- gradient accumulation, clipping, freezing -----------------------------------------------


@program()
def prog_rp8_gradient_accumulation_matches_full_batch(T: Any) -> Any:
    nn = T.nn
    m1 = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), 52)
    x = _t(T, 8, 3, seed=53)
    y = _t(T, 8, 1, seed=54)
    opt = T.optim.SGD(m1.parameters(), lr=0.1)
    accum = 4
    losses = []
    opt.zero_grad()
    for i in range(accum):
        xb, yb = x[i * 2 : i * 2 + 2], y[i * 2 : i * 2 + 2]
        loss = nn.functional.mse_loss(m1(xb), yb) / accum
        loss.backward()
        losses.append(loss.item())
    g_acc = [p.grad.clone() for p in m1.parameters()]
    opt.step()
    m2 = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), 52)
    nn.functional.mse_loss(m2(x), y).backward()
    return losses, g_acc, [p.grad for p in m2.parameters()], _sd(m1)


@program()
def prog_rp8_clip_grad_norm_and_value(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2)), 55)
    x = _t(T, 4, 3, seed=56) * 10
    (m(x) ** 2).sum().backward()
    total = nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0)
    after = [p.grad.clone() for p in m.parameters()]
    total_inf = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type="inf")
    nn.utils.clip_grad_value_(m.parameters(), clip_value=0.05)
    gn = nn.utils.get_total_norm([p.grad for p in m.parameters()])
    return total, after, total_inf, [p.grad for p in m.parameters()], gn


@program()
def prog_rp8_clip_grad_norm_nonfinite(T: Any) -> Any:
    nn = T.nn
    p = nn.Parameter(T.ones(3))
    p.grad = T.tensor([1.0, float("inf"), 2.0])
    r1 = nn.utils.clip_grad_norm_([p], 1.0)
    g1 = p.grad.clone()
    p.grad = T.tensor([1.0, float("nan"), 2.0])
    err = raises(lambda: nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True))
    empty = nn.utils.clip_grad_norm_([nn.Parameter(T.ones(2))], 1.0)
    return r1, g1, err, empty


@program()
def prog_rp8_freeze_backbone_finetune_head(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T,
        nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 2)),
        57,
    )
    for p in model[:4].parameters():
        p.requires_grad = False
    trainable = [n for n, p in model.named_parameters() if p.requires_grad]
    opt = T.optim.SGD(
        filter(lambda p: p.requires_grad, model.parameters()), lr=0.1, weight_decay=1e-3
    )
    x = _t(T, 5, 4, seed=58)
    y = T.tensor([0, 1, 1, 0, 1])
    before = _sd(model)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    frozen_same = all(
        T.equal(before[k], v) for k, v in model.state_dict().items() if k.startswith(("0.", "2."))
    )
    return trainable, losses, frozen_same, model[0].weight.grad, model[4].weight.grad, loss.grad_fn


@program()
def prog_rp8_requires_grad_false_all_params_error(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 1), 59)
    m.requires_grad_(False)
    out = m(_t(T, 3, 2, seed=60)).sum()
    err = raises(lambda: out.backward())
    opt_err = raises(lambda: T.optim.SGD([], lr=0.1))
    return out.requires_grad, out.grad_fn, err, opt_err


@program()
def prog_rp8_param_groups_different_lr_and_add_group(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1)), 61)
    opt = T.optim.SGD(
        [{"params": m[0].parameters(), "lr": 0.01}, {"params": m[1].parameters()}],
        lr=0.1,
        momentum=0.5,
    )
    x, y = _t(T, 4, 2, seed=62), _t(T, 4, 1, seed=63)
    for _ in range(2):
        opt.zero_grad()
        nn.functional.smooth_l1_loss(m(x), y).backward()
        opt.step()
    extra = nn.Parameter(T.ones(2))
    opt.add_param_group({"params": [extra], "lr": 0.5})
    dup = raises(lambda: opt.add_param_group({"params": [extra]}))
    return _sd(m), [g["lr"] for g in opt.param_groups], opt.state_dict()["param_groups"], dup


# --- hooks, checkpoints, weight tying ------------------------------------------------------


@program()
def prog_rp8_forward_hooks_feature_extraction(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T, nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 3 * 3, 2)), 64
    )
    feats: dict[str, Any] = {}

    def save(name: str) -> Any:
        def hook(mod: Any, inp: Any, out: Any) -> None:
            feats[name] = out.detach()

        return hook

    h1 = model[1].register_forward_hook(save("relu"))
    h2 = model[3].register_forward_pre_hook(lambda mod, inp: (inp[0] * 2,))
    x = _t(T, 2, 1, 5, 5, seed=65)
    out = model(x)
    h1.remove()
    h2.remove()
    out2 = model(x)
    return feats, out, out2, len(model[1]._forward_hooks)


@program()
def prog_rp8_full_backward_hook_and_grad_capture(T: Any) -> Any:
    nn = T.nn
    model = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Sigmoid(), nn.Linear(4, 2)), 66)
    grads: list[Any] = []
    h = model[1].register_full_backward_hook(
        lambda m, gi, go: grads.append((gi[0].clone(), go[0].clone()))
    )
    x = _t(T, 2, 3, seed=67).requires_grad_()
    model(x).sum().backward()
    h.remove()
    ph = model[0].register_full_backward_pre_hook(lambda m, go: (go[0] * 0,))
    x2 = _t(T, 2, 3, seed=68).requires_grad_()
    model(x2).sum().backward()
    ph.remove()
    return grads, x.grad, x2.grad, model[0].weight.grad


@program()
def prog_rp8_checkpoint_save_load_resume(T: Any) -> Any:
    nn = T.nn

    def make() -> Any:
        m = _seeded(
            T,
            nn.Sequential(
                nn.Linear(3, 4, bias=False), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)
            ),
            69,
        )
        return m, T.optim.Adam(m.parameters(), lr=0.01)

    x, y = _t(T, 6, 3, seed=70), _t(T, 6, 1, seed=71)

    def train(m: Any, opt: Any, n: int) -> list[float]:
        out = []
        for _ in range(n):
            opt.zero_grad()
            loss = nn.functional.mse_loss(m(x), y)
            loss.backward()
            opt.step()
            out.append(loss.item())
        return out

    m1, o1 = make()
    l_a = train(m1, o1, 2)
    buf = io.BytesIO()
    T.save({"epoch": 2, "model": m1.state_dict(), "optim": o1.state_dict(), "loss": l_a[-1]}, buf)
    l_b = train(m1, o1, 2)
    buf.seek(0)
    ck = T.load(buf)
    m2, o2 = make()
    m2.load_state_dict(ck["model"])
    o2.load_state_dict(ck["optim"])
    l_c = train(m2, o2, 2)
    return (
        l_a,
        l_b,
        l_c,
        ck["epoch"],
        _sd(m2),
        o2.state_dict()["state"][0]["step"],
        list(ck["model"].keys()),
    )


@program()
def prog_rp8_load_state_dict_strict_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
    sd = m.state_dict()
    sd2 = dict(sd)
    sd2["extra.weight"] = T.ones(1)
    del sd2["1.bias"]
    err = raises(lambda: m.load_state_dict(sd2))
    res = m.load_state_dict(sd2, strict=False)
    sd3 = dict(sd)
    sd3["0.weight"] = T.ones(4, 2)
    err_shape = raises(lambda: m.load_state_dict(sd3))
    return err, (sorted(res.missing_keys), sorted(res.unexpected_keys)), err_shape


@program()
def prog_rp8_weight_tying_lm(T: Any) -> Any:
    nn = T.nn

    class Tied(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(6, 4)
            self.rnn = nn.GRU(4, 4, batch_first=True)
            self.dec = nn.Linear(4, 6)
            self.dec.weight = self.emb.weight

        def forward(self, x: Any) -> Any:
            h, _ = self.rnn(self.emb(x))
            return self.dec(h)

    m = _seeded(T, Tied(), 72)
    idx = T.tensor([[0, 1, 2, 3], [5, 4, 3, 2]])
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        logits = m(idx[:, :-1])
        loss = nn.functional.cross_entropy(logits.transpose(1, 2), idx[:, 1:])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    names = [n for n, _ in m.named_parameters()]
    return (
        losses,
        names,
        m.dec.weight is m.emb.weight,
        m.emb.weight.grad,
        list(m.state_dict().keys()),
    )


# --- custom modules, custom Functions -------------------------------------------------------


@program()
def prog_rp8_custom_module_buffers_paramlist_dict(T: Any) -> Any:
    nn = T.nn

    class Mix(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ws = nn.ParameterList([nn.Parameter(T.ones(3) * (i + 1)) for i in range(2)])
            self.pd = nn.ParameterDict(
                {"scale": nn.Parameter(T.tensor(0.5)), "shift": nn.Parameter(T.zeros(3))}
            )
            self.register_buffer("count", T.zeros((), dtype=T.long))
            self.register_buffer("tmp", T.ones(3), persistent=False)
            self.blocks = nn.ModuleDict({"a": nn.Linear(3, 3), "b": nn.Identity()})

        def forward(self, x: Any) -> Any:
            self.count += 1
            for w in self.ws:
                x = x * w
            return self.blocks["a"](x) * self.pd["scale"] + self.pd["shift"] + self.tmp

    m = _seeded(T, Mix(), 73)
    x = _t(T, 2, 3, seed=74)
    m(x).sum().backward()
    m(x).sum().backward()
    return (
        [n for n, _ in m.named_parameters()],
        [n for n, _ in m.named_buffers()],
        list(m.state_dict().keys()),
        m.count,
        [p.grad for p in m.parameters()],
        repr(m),
    )


@program()
def prog_rp8_module_to_double_and_half(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)), 75)
    m.double()
    x = _t(T, 3, 2, seed=76).double()
    y = m(x)
    y.sum().backward()
    dt = [p.dtype for p in m.parameters()] + [b.dtype for b in m.buffers()]
    err = raises(lambda: m(_t(T, 3, 2, seed=77)))
    m.half()
    return y, dt, err, [p.dtype for p in m.parameters()], m[1].num_batches_tracked.dtype


@program()
def prog_rp8_custom_function_in_model(T: Any) -> Any:
    nn = T.nn

    class ClampSTE(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, lo: float, hi: float) -> Any:
            ctx.save_for_backward(x)
            ctx.lo, ctx.hi = lo, hi
            return x.clamp(lo, hi)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            mask = (x >= ctx.lo - 1) & (x <= ctx.hi + 1)
            return g * mask, None, None

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.l1 = nn.Linear(3, 4)
            self.l2 = nn.Linear(4, 1)

        def forward(self, x: Any) -> Any:
            return self.l2(ClampSTE.apply(self.l1(x), -0.5, 0.5))

    m = _seeded(T, Net(), 78)
    opt = T.optim.SGD(m.parameters(), lr=0.2)
    x, y = _t(T, 5, 3, seed=79) * 2, _t(T, 5, 1, seed=80)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        out = m(x)
        loss = nn.functional.huber_loss(out, y, delta=0.5)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return (
        losses,
        m.l1.weight.grad,
        type(out.grad_fn).__name__,
        out.grad_fn.next_functions[0][0].name(),
    )


@program()
def prog_rp8_custom_function_setup_context_gradcheck(T: Any) -> Any:
    class Swish(T.autograd.Function):
        @staticmethod
        def forward(x: Any, beta: Any) -> Any:
            return x * T.sigmoid(beta * x)

        @staticmethod
        def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
            x, beta = inputs
            ctx.save_for_backward(x, beta)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            x, beta = ctx.saved_tensors
            s = T.sigmoid(beta * x)
            gx = g * (s + x * beta * s * (1 - s))
            gb = (g * x * x * s * (1 - s)).sum().reshape(beta.shape)
            return gx, gb

    x = T.tensor(_data(4, seed=81), dtype=T.float64, requires_grad=True)
    b = T.tensor([1.3], dtype=T.float64, requires_grad=True)
    ok = T.autograd.gradcheck(Swish.apply, (x, b))
    y = Swish.apply(x, b)
    y.sum().backward()
    return ok, y, x.grad, b.grad


@program()
def prog_rp8_module_apply_init_and_children(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(9)
    m = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(2, 3))

    def init(mod: Any) -> None:
        if isinstance(mod, (nn.Conv2d, nn.Linear)):
            nn.init.xavier_uniform_(mod.weight)
            nn.init.constant_(mod.bias, 0.01)
        elif isinstance(mod, nn.BatchNorm2d):
            nn.init.ones_(mod.weight)
            nn.init.zeros_(mod.bias)

    m.apply(init)
    nparams = sum(p.numel() for p in m.parameters() if p.requires_grad)
    return (
        _sd(m),
        nparams,
        [type(c).__name__ for c in m.children()],
        [n for n, _ in m.named_modules()],
    )


# --- evaluation loops ------------------------------------------------------------------------


@program()
def prog_rp8_eval_loop_accuracy_no_grad(T: Any) -> Any:
    nn = T.nn
    data = T.utils.data
    model = _seeded(
        T, nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 3)), 82
    )
    ds = data.TensorDataset(_t(T, 10, 4, seed=83), T.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 0]))
    model.eval()
    correct, total, loss_sum, confs = 0, 0, 0.0, []
    with T.no_grad():
        for xb, yb in data.DataLoader(ds, batch_size=4):
            out = model(xb)
            loss_sum += nn.functional.cross_entropy(out, yb, reduction="sum").item()
            pred = out.argmax(dim=1)
            correct += (pred == yb).sum().item()
            total += yb.size(0)
            confs.append(T.softmax(out, 1).max(1).values)
            rg = out.requires_grad
    return correct / total, loss_sum / total, T.cat(confs), rg, model.training, model[2].training


@program()
def prog_rp8_inference_mode_eval_and_topk(T: Any) -> Any:
    nn = T.nn
    model = _seeded(T, nn.Linear(4, 5), 84)
    x = _t(T, 3, 4, seed=85)
    with T.inference_mode():
        out = model(x)
        top = out.topk(2, dim=1)
    y = T.tensor([1, 4, 0])
    top2 = (top.indices == y[:, None]).any(1).float().mean()
    err = raises(lambda: out.requires_grad_())
    # (an inference tensor has no version counter: return plain copies)
    return out.clone(), [top.values.clone(), top.indices.clone()], top2, out.is_inference(), err


@program()
def prog_rp8_train_mode_dropout_seeded(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(11)
    m = _seeded(T, nn.Sequential(nn.Linear(3, 6), nn.Dropout(0.4), nn.ReLU(), nn.Linear(6, 1)), 86)
    x = _t(T, 4, 3, seed=87)
    a = m(x)
    b = m(x)
    a.sum().backward()
    m.eval()
    c = m(x)
    return a, b, c, m[0].weight.grad, a.grad_fn


@program()
def prog_rp8_multilabel_bce_pos_weight_and_metrics(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 4), 88)
    x = _t(T, 5, 3, seed=89)
    y = (_t(T, 5, 4, seed=90) > 0).float()
    crit = nn.BCEWithLogitsLoss(pos_weight=T.tensor([1.0, 2.0, 0.5, 3.0]))
    opt = T.optim.Adamax(m.parameters(), lr=0.05)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = crit(m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with T.no_grad():
        pred = (T.sigmoid(m(x)) > 0.5).float()
        tp = (pred * y).sum(0)
        prec = tp / pred.sum(0).clamp(min=1)
    return losses, pred, prec, _sd(m)


@program()
def prog_rp8_nll_logsoftmax_class_weights_ignore_index(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    m = _seeded(T, nn.Linear(3, 4), 91)
    x = _t(T, 6, 3, seed=92)
    y = T.tensor([0, 3, -100, 1, 2, -100])
    w = T.tensor([1.0, 0.5, 2.0, 1.5])
    logp = F.log_softmax(m(x), dim=1)
    loss = F.nll_loss(logp, y, weight=w)
    loss.backward()
    all_ign = F.nll_loss(logp, T.full((6,), -100))
    return (
        loss,
        m.weight.grad,
        all_ign,
        raises(lambda: F.nll_loss(logp, T.tensor([0, 1, 2, 3, 4, 0]))),
    )


# --- more training-script idioms -----------------------------------------------------------


@program()
def prog_rp8_scheduler_step_before_optimizer_warns(T: Any) -> Any:
    m = T.nn.Linear(2, 1)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    sched = T.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    sched.step()
    opt.step()
    sched.step()
    return sched.get_last_lr(), sched.last_epoch, opt.param_groups[0]["initial_lr"]


@program()
def prog_rp8_scheduler_step_with_epoch_deprecated(T: Any) -> Any:
    m = T.nn.Linear(2, 1)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    sched = T.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
    lrs = []
    for e in range(5):
        opt.step()
        sched.step(e)
        lrs.append(opt.param_groups[0]["lr"])
    return lrs


@program()
def prog_rp8_deepcopy_best_model_and_tied_weights(T: Any) -> Any:
    import copy

    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Embedding(5, 3), nn.Linear(3, 5)), 93)
    m[1].weight = m[0].weight
    best = copy.deepcopy(m)
    opt = T.optim.SGD(m.parameters(), lr=0.5)
    idx = T.tensor([0, 1, 2, 3])
    nn.functional.cross_entropy(m(idx), T.tensor([1, 2, 3, 4])).backward()
    opt.step()
    return (
        best[1].weight is best[0].weight,
        T.equal(best[0].weight, m[0].weight),
        len(list(best.parameters())),
        best[0].weight.grad,
        m[0].weight.grad,
    )


@program()
def prog_rp8_gradient_checkpointing_block(T: Any) -> Any:
    nn = T.nn
    from importlib import import_module

    cp = import_module(T.__name__ + ".utils.checkpoint")
    block = _seeded(T, nn.Sequential(nn.Linear(3, 6), nn.GELU(), nn.Linear(6, 3)), 94)
    x = _t(T, 4, 3, seed=95).requires_grad_()
    y = cp.checkpoint(block, x, use_reentrant=False)
    (y**2).sum().backward()
    g_cp = [p.grad.clone() for p in block.parameters()], x.grad.clone()
    block.zero_grad()
    x.grad = None
    (block(x) ** 2).sum().backward()
    seq = cp.checkpoint_sequential(block, 2, x, use_reentrant=False)
    return y, g_cp, [p.grad for p in block.parameters()], x.grad, seq


@program()
def prog_rp8_weight_norm_and_spectral_norm_parametrizations(T: Any) -> Any:
    nn = T.nn
    P = nn.utils.parametrizations
    lin = _seeded(T, nn.Linear(3, 2), 96)
    wn = P.weight_norm(lin)
    x = _t(T, 4, 3, seed=97)
    out = wn(x)
    out.sum().backward()
    keys = list(wn.state_dict().keys())
    g0 = wn.parametrizations.weight.original0.grad
    g1 = wn.parametrizations.weight.original1.grad
    return out, keys, g0, g1, wn.weight, type(wn).__name__


@program()
def prog_rp8_register_parametrization_symmetric(T: Any) -> Any:
    nn = T.nn
    parametrize = nn.utils.parametrize

    class Sym(nn.Module):
        def forward(self, X: Any) -> Any:
            return X.triu() + X.triu(1).transpose(-1, -2)

    lin = _seeded(T, nn.Linear(3, 3), 98)
    parametrize.register_parametrization(lin, "weight", Sym())
    x = _t(T, 2, 3, seed=99)
    opt = T.optim.SGD(lin.parameters(), lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        lin(x).pow(2).sum().backward()
        opt.step()
    w = lin.weight
    with parametrize.cached():
        same = lin.weight is lin.weight
    return (
        w,
        T.allclose(w, w.T),
        same,
        parametrize.is_parametrized(lin),
        list(lin.state_dict().keys()),
    )


@program()
def prog_rp8_functional_call_and_func_grad(T: Any) -> Any:
    nn = T.nn
    from importlib import import_module

    func = import_module(T.__name__ + ".func")
    m = _seeded(T, nn.Linear(3, 1), 100)
    params = {k: v.detach() for k, v in m.named_parameters()}
    x, y = _t(T, 5, 3, seed=101), _t(T, 5, 1, seed=102)

    def loss_fn(p: Any) -> Any:
        return nn.functional.mse_loss(func.functional_call(m, p, (x,)), y)

    g = func.grad(loss_fn)(params)
    m(x).sub(y).pow(2).mean().backward()
    return g, m.weight.grad, m.bias.grad


@program()
def prog_rp8_per_sample_grads_vmap(T: Any) -> Any:
    nn = T.nn
    from importlib import import_module

    func = import_module(T.__name__ + ".func")
    m = _seeded(T, nn.Linear(3, 2), 103)
    params = {k: v.detach() for k, v in m.named_parameters()}
    x, y = _t(T, 4, 3, seed=104), T.tensor([0, 1, 1, 0])

    def loss1(p: Any, xi: Any, yi: Any) -> Any:
        out = func.functional_call(m, p, (xi.unsqueeze(0),))
        return nn.functional.cross_entropy(out, yi.unsqueeze(0))

    ps = func.vmap(func.grad(loss1), in_dims=(None, 0, 0))(params, x, y)
    return ps


@program()
def prog_rp8_parameters_to_vector_roundtrip(T: Any) -> Any:
    nn = T.nn
    U = nn.utils
    m = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1)), 105)
    v = U.parameters_to_vector(m.parameters())
    U.vector_to_parameters(v * 2, m.parameters())
    err = raises(lambda: U.vector_to_parameters([1.0], m.parameters()))
    return v, _sd(m), v.grad_fn, err


@program()
def prog_rp8_lbfgs_closure(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 1), 106)
    x = _t(T, 8, 2, seed=107)
    y = x @ T.tensor([[2.0], [-1.0]]) + 0.5
    opt = T.optim.LBFGS(m.parameters(), lr=1, max_iter=5, history_size=3)
    calls = []

    def closure() -> Any:
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        calls.append(loss.item())
        return loss

    r = [opt.step(closure) for _ in range(2)]
    return r, calls, _sd(m)


@program()
def prog_rp8_adam_amsgrad_maximize_and_sgd_dampening(T: Any) -> Any:
    nn = T.nn
    out = {}
    for name, mk in [
        ("amsgrad", lambda p: T.optim.Adam(p, lr=0.05, amsgrad=True, weight_decay=0.01)),
        ("maximize", lambda p: T.optim.Adam(p, lr=0.05, maximize=True)),
        ("sgd_damp", lambda p: T.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.5)),
        (
            "nadam",
            lambda p: T.optim.NAdam(p, lr=0.05, decoupled_weight_decay=True, weight_decay=0.1),
        ),
        ("radam", lambda p: T.optim.RAdam(p, lr=0.05)),
        ("adadelta", lambda p: T.optim.Adadelta(p, lr=1.0)),
        ("rprop", lambda p: T.optim.Rprop(p, lr=0.05)),
        ("asgd", lambda p: T.optim.ASGD(p, lr=0.05)),
    ]:
        m = _seeded(T, nn.Linear(3, 1), 108)
        opt = mk(m.parameters())
        x, y = _t(T, 6, 3, seed=109), _t(T, 6, 1, seed=110)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = nn.functional.mse_loss(m(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        out[name] = (losses, _sd(m), sorted(opt.state_dict()["state"][0].keys()))
    return out


@program()
def prog_rp8_optimizer_step_hooks_and_zero_grad_keep(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 1), 111)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    log = []
    h1 = opt.register_step_pre_hook(lambda o, a, k: log.append("pre"))
    h2 = opt.register_step_post_hook(lambda o, a, k: log.append("post"))
    m(_t(T, 3, 2, seed=112)).sum().backward()
    opt.step()
    opt.zero_grad(set_to_none=False)
    g = m.weight.grad
    h1.remove()
    h2.remove()
    opt.step()
    opt.zero_grad()
    return log, g, m.weight.grad


@program()
def prog_rp8_duplicate_params_optimizer(T: Any) -> Any:
    p = T.nn.Parameter(T.ones(2))
    w = raises(lambda: T.optim.SGD([p, p], lr=0.1))
    e = raises(lambda: T.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1))
    nonleaf = raises(lambda: T.optim.SGD([p * 2], lr=0.1))
    single = raises(lambda: T.optim.SGD(p, lr=0.1))
    neg = raises(lambda: T.optim.Adam([p], lr=-1))
    return w, e, nonleaf, single, neg


@program()
def prog_rp8_swa_averaged_model_update_bn(T: Any) -> Any:
    nn = T.nn
    swa = T.optim.swa_utils
    m = _seeded(T, nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Linear(3, 1)), 113)
    avg = swa.AveragedModel(m)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    sched = swa.SWALR(opt, swa_lr=0.05, anneal_epochs=2)
    x, y = _t(T, 6, 2, seed=114), _t(T, 6, 1, seed=115)
    lrs = []
    for _ in range(3):
        opt.zero_grad()
        nn.functional.mse_loss(m(x), y).backward()
        opt.step()
        avg.update_parameters(m)
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    loader = [(x[:3],), (x[3:],)]
    swa.update_bn(loader, avg)
    ema = swa.AveragedModel(m, multi_avg_fn=swa.get_ema_multi_avg_fn(0.9))
    ema.update_parameters(m)
    return lrs, _sd(avg), avg.n_averaged, _sd(ema)


@program()
def prog_rp8_manual_ema_lerp_no_grad(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 2), 116)
    ema = _seeded(T, nn.Linear(3, 2), 116)
    ema.requires_grad_(False)
    opt = T.optim.SGD(m.parameters(), lr=0.2)
    x = _t(T, 4, 3, seed=117)
    for _ in range(3):
        opt.zero_grad()
        m(x).pow(2).mean().backward()
        opt.step()
        with T.no_grad():
            for pe, pm in zip(ema.parameters(), m.parameters(), strict=True):
                pe.lerp_(pm, 0.1)
            T._foreach_mul_(list(ema.parameters()), 1.0)
    return _sd(ema), [p._version for p in ema.parameters()], [p.grad for p in ema.parameters()]


@program()
def prog_rp8_conv_transpose_autoencoder(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T,
        nn.Sequential(
            nn.Conv2d(1, 3, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.ConvTranspose2d(3, 1, 3, stride=2, padding=1, output_padding=1),
            nn.Sigmoid(),
        ),
        118,
    )
    x = T.sigmoid(_t(T, 2, 1, 6, 6, seed=119))
    opt = T.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        rec = model(x)
        loss = nn.functional.binary_cross_entropy(rec, x)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, rec.shape, model[2].weight.grad, rec.grad_fn


@program()
def prog_rp8_upsample_decoder_and_pixel_shuffle(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    conv = _seeded(T, nn.Conv2d(2, 8, 3, padding="same"), 120)
    x = _t(T, 1, 2, 3, 3, seed=121).requires_grad_()
    up = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
    ps = nn.PixelShuffle(2)(conv(x))
    near = F.interpolate(x, size=(5, 4), mode="nearest")
    (up.sum() + ps.pow(2).sum() + near.sum()).backward()
    return up, ps, near, x.grad, conv.weight.grad


@program()
def prog_rp8_conv1d_text_classifier_same_padding(T: Any) -> Any:
    nn = T.nn

    class TextCNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(12, 4, padding_idx=0)
            self.convs = nn.ModuleList([nn.Conv1d(4, 3, k, padding="same") for k in (2, 3)])
            self.fc = nn.Linear(6, 2)

        def forward(self, x: Any) -> Any:
            e = self.emb(x).transpose(1, 2)
            hs = [T.relu(c(e)).max(dim=2).values for c in self.convs]
            return self.fc(T.cat(hs, 1))

    m = _seeded(T, TextCNN(), 122)
    x = T.tensor([[1, 5, 7, 0, 0], [3, 4, 11, 2, 9]])
    y = T.tensor([1, 0])
    opt = T.optim.SGD(m.parameters(), lr=0.5)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, m.emb.weight.grad, m.convs[0].weight.grad, _sd(m)


@program()
def prog_rp8_metric_learning_losses(T: Any) -> Any:
    nn = T.nn
    enc = _seeded(T, nn.Linear(4, 3), 123)
    a, p, n = (enc(_t(T, 3, 4, seed=s)) for s in (124, 125, 126))
    l1 = nn.TripletMarginLoss(margin=1.0, p=2)(a, p, n)
    l2 = nn.CosineEmbeddingLoss(margin=0.2)(a, p, T.tensor([1, -1, 1]))
    l3 = nn.MarginRankingLoss(0.1)(a[:, 0], p[:, 0], T.tensor([1.0, -1.0, 1.0]))
    l4 = nn.functional.triplet_margin_with_distance_loss(
        a, p, n, distance_function=nn.PairwiseDistance(), swap=True
    )
    (l1 + l2 + l3 + l4).backward()
    return l1, l2, l3, l4, enc.weight.grad


@program()
def prog_rp8_distillation_kl_temperature(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    teacher = _seeded(T, nn.Linear(3, 4), 127).eval()
    student = _seeded(T, nn.Linear(3, 4), 128)
    x = _t(T, 5, 3, seed=129)
    y = T.tensor([0, 1, 2, 3, 0])
    Tt = 2.0
    with T.no_grad():
        soft = F.softmax(teacher(x) / Tt, dim=-1)
    s = student(x)
    kd = F.kl_div(F.log_softmax(s / Tt, dim=-1), soft, reduction="batchmean") * Tt * Tt
    kd_log = F.kl_div(
        F.log_softmax(s, -1),
        F.log_softmax(teacher(x), -1).detach(),
        reduction="sum",
        log_target=True,
    )
    ce = F.cross_entropy(s, y, label_smoothing=0.05)
    (0.7 * kd + 0.3 * ce + kd_log).backward()
    return kd, kd_log, ce, student.weight.grad, teacher.weight.grad


@program()
def prog_rp8_foreach_ema_timm_style_and_list_errors(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1)), 130)
    ema = _seeded(T, nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1)), 131).requires_grad_(False)
    decay = 0.9
    with T.no_grad():
        ev, mv = list(ema.parameters()), list(m.parameters())
        r1 = T._foreach_lerp_(ev, mv, weight=1.0 - decay)
        same = r1 is ev
        T._foreach_mul_(ev, decay)
        T._foreach_add_(ev, mv, alpha=1.0 - decay)
        T._foreach_add_(ev, [0.5, -0.5, 1.0, 2.0])
        T._foreach_addcmul_(ev, mv, mv, value=0.01)
        T._foreach_sub_(ev, T.tensor(0.1))
        bufs = [b.clone() for b in ev]
        T._foreach_zero_(bufs)
        T._foreach_copy_(bufs, ev)
        T._foreach_clamp_min_(bufs, 0.0)
        T._foreach_sqrt_(bufs)
    return {
        "ema": _sd(ema),
        "same": same,
        "bufs": bufs,
        "versions": [p._version for p in ev],
        "empty": raises(lambda: T._foreach_add_([], 1.0)),
        "scalars": raises(lambda: T._foreach_add_(bufs, [1.0])),
        "lists": raises(lambda: T._foreach_mul_(bufs, [bufs[0]])),
        "shapes": raises(lambda: T._foreach_mul_(bufs[:2], [bufs[1], bufs[0]])),
        "leaf": raises(lambda: T._foreach_mul_(mv, 2.0)),
    }


# --- losses, targets and shapes as users get them wrong or right ---------------------------


@program()
def prog_rp8_regression_target_shape_broadcast_warning(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 1), 132)
    x, y = _t(T, 4, 3, seed=133), _t(T, 4, seed=134)
    loss = nn.functional.mse_loss(m(x), y)
    loss.backward()
    l1 = nn.L1Loss()(m(x), y)
    return loss, l1, m.weight.grad


@program()
def prog_rp8_cross_entropy_target_dtypes(T: Any) -> Any:
    F = T.nn.functional
    logits = _t(T, 3, 4, seed=135).requires_grad_()
    out = {
        "int32": raises(lambda: F.cross_entropy(logits, T.tensor([0, 1, 2], dtype=T.int32))),
        "float_idx": raises(lambda: F.cross_entropy(logits, T.tensor([0.0, 1.0, 2.0]))),
        "oob": raises(lambda: F.cross_entropy(logits, T.tensor([0, 1, 4]))),
        "neg": raises(lambda: F.cross_entropy(logits, T.tensor([0, -1, 2]))),
        "probs_shape": raises(lambda: F.cross_entropy(logits, T.ones(3, 3) / 3)),
        "bce_range": raises(lambda: F.binary_cross_entropy(T.sigmoid(logits), logits)),
        "bce_nan_input": raises(
            lambda: F.binary_cross_entropy(T.tensor([float("nan")]), T.ones(1))
        ),
        "bce_nan_target": raises(
            lambda: F.binary_cross_entropy(T.ones(1) / 2, T.tensor([float("nan")]))
        ),
        "bce_shape": raises(lambda: F.binary_cross_entropy(T.sigmoid(logits), T.ones(3, 1))),
        "nonscalar_backward": raises(
            lambda: F.cross_entropy(logits, T.tensor([0, 1, 2]), reduction="none").backward()
        ),
    }
    loss = F.cross_entropy(logits.unsqueeze(-1).expand(3, 4, 2), T.tensor([[0, 1], [2, 3], [1, 1]]))
    loss.backward()
    return out, loss, logits.grad


@program()
def prog_rp8_gaussian_poisson_nll_heteroscedastic(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 2), 136)
    x, y = _t(T, 5, 2, seed=137), _t(T, 5, 1, seed=138)
    out = m(x)
    mu, var = out[:, :1], nn.functional.softplus(out[:, 1:]) + 1e-3
    g = nn.GaussianNLLLoss(full=True)(mu, y, var)
    p = nn.PoissonNLLLoss(log_input=True, full=True)(mu, y.abs().round())
    (g + p).backward()
    err = raises(lambda: nn.functional.gaussian_nll_loss(mu, y, -var))
    return g, p, m.weight.grad, err


@program()
def prog_rp8_ctc_speech_model(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 5), nn.LogSoftmax(dim=-1)), 139)
    x = _t(T, 6, 2, 3, seed=140)
    logp = m(x)
    targets = T.tensor([[1, 2, 2], [3, 1, 0]])
    il, tl = T.tensor([6, 5]), T.tensor([3, 2])
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    loss = ctc(logp, targets, il, tl)
    loss.backward()
    inf = nn.CTCLoss(reduction="none")(
        logp, T.tensor([[1, 1, 1, 1]]).expand(2, 4), T.tensor([2, 2]), T.tensor([4, 4])
    )
    return loss, m[0].weight.grad, inf


@program()
def prog_rp8_attention_fully_masked_row_nan(T: Any) -> Any:
    q = _t(T, 2, 3, 4, seed=141).requires_grad_()
    scores = q @ q.transpose(-1, -2) / 2.0
    mask = T.tensor([[True, True, False], [True, True, True], [False, True, False]])
    att = scores.masked_fill(mask, float("-inf")).softmax(-1)
    out = att @ q
    out.nan_to_num().sum().backward()
    finite = T.isfinite(att).all(-1)
    return att, finite, q.grad


@program()
def prog_rp8_detect_anomaly_nan_loss(T: Any) -> Any:
    m = _seeded(T, T.nn.Linear(2, 1), 142)
    x = T.tensor([[1.0, -1.0], [0.0, 0.0]])
    out = m(x)
    loss = T.sqrt(out - 10).sum()
    is_nan = T.isnan(loss).item()
    with T.autograd.detect_anomaly():
        l2 = (T.log(out.abs() * 0) * 0).sum()
        err = raises(lambda: l2.backward())
    return is_nan, err


@program()
def prog_rp8_autocast_cpu_float16_step(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)), 143)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    x, y = _t(T, 5, 4, seed=144), T.tensor([0, 1, 1, 0, 1])
    with T.autocast("cpu", dtype=T.float16):
        out = m(x)
        loss = nn.functional.cross_entropy(out, y)
        sm = out.softmax(-1)
    loss.backward()
    opt.step()
    return out.dtype, loss.dtype, sm.dtype, loss, [p.grad.dtype for p in m.parameters()], _sd(m)


@program()
def prog_rp8_grad_scaler_cpu_step(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 1), 145)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    scaler = T.amp.GradScaler("cpu", init_scale=2.0**4, growth_interval=1)
    x, y = _t(T, 4, 3, seed=146), _t(T, 4, 1, seed=147)
    scales = []
    for i in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y) * (float("inf") if i == 1 else 1.0)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        scales.append(scaler.get_scale())
    return scales, _sd(m), scaler.state_dict()


@program()
def prog_rp8_embedding_max_norm_training(T: Any) -> Any:
    nn = T.nn
    emb = _seeded(T, nn.Embedding(5, 3, max_norm=0.5, norm_type=2.0), 148)
    before = emb.weight.detach().clone()
    idx = T.tensor([[0, 2], [2, 4]])
    out = emb(idx)
    out.sum().backward()
    return before, emb.weight, out, emb.weight.grad, emb.weight._version


@program()
def prog_rp8_lstm_proj_size_and_dropout_warning(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(12)
    lstm = _seeded(T, nn.LSTM(3, 4, proj_size=2, batch_first=True), 149)
    x = _t(T, 2, 3, 3, seed=150).requires_grad_()
    out, (h, c) = lstm(x)
    (out.sum() + c.sum()).backward()
    names = [n for n, _ in lstm.named_parameters()]
    drop1 = nn.GRU(2, 2, num_layers=1, dropout=0.5)
    bad = raises(lambda: nn.LSTM(3, 4, proj_size=4))
    return out.shape, h.shape, c.shape, x.grad, names, lstm.weight_hr_l0.grad, drop1.dropout, bad


@program()
def prog_rp8_pad_sequence_left_and_lengths_mask(T: Any) -> Any:
    rnn = T.nn.utils.rnn
    seqs = [T.tensor([1, 2, 3]), T.tensor([4]), T.tensor([5, 6])]
    right = rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
    left = rnn.pad_sequence(seqs, batch_first=True, padding_side="left")
    lengths = T.tensor([len(s) for s in seqs])
    mask = T.arange(right.shape[1])[None, :] < lengths[:, None]
    return right, left, mask, right.masked_fill(~mask, 0).sum(1) / lengths


@program()
def prog_rp8_transformer_encoder_decoder_seq2seq(T: Any) -> Any:
    nn = T.nn
    model = _seeded(
        T,
        nn.Transformer(
            d_model=8,
            nhead=2,
            num_encoder_layers=1,
            num_decoder_layers=1,
            dim_feedforward=12,
            dropout=0.0,
            batch_first=True,
            norm_first=True,
        ),
        151,
    )
    src, tgt = _t(T, 2, 4, 8, seed=152), _t(T, 2, 3, 8, seed=153)
    tgt_mask = model.generate_square_subsequent_mask(3)
    src_kpm = T.tensor([[False, False, False, True], [False, False, False, False]])
    out = model(
        src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=src_kpm, memory_key_padding_mask=src_kpm
    )
    out.pow(2).mean().backward()
    return (
        out,
        model.decoder.layers[0].multihead_attn.in_proj_weight.grad,
        model.encoder.norm.weight.grad,
    )


@program()
def prog_rp8_lm_sampling_multinomial_temperature(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(13)
    emb = _seeded(T, nn.Embedding(6, 4), 154)
    head = _seeded(T, nn.Linear(4, 6), 155)
    tok = T.tensor([2])
    seq = []
    with T.no_grad():
        for _ in range(5):
            logits = head(emb(tok)) / 0.7
            v, _ = T.topk(logits, 3)
            logits[logits < v[:, [-1]]] = -float("inf")
            probs = T.softmax(logits, -1)
            tok = T.multinomial(probs, 1)[0]
            seq.append(tok.item())
    g = nn.functional.gumbel_softmax(_t(T, 2, 4, seed=156), tau=0.5, hard=True)
    return seq, g


@program()
def prog_rp8_sampler_batchsampler_collate(T: Any) -> Any:
    data = T.utils.data
    ds = data.TensorDataset(T.arange(8).float().unsqueeze(1), T.arange(8) % 3)
    w = data.WeightedRandomSampler(
        [0.1, 0.9, 0.5, 0.5, 0.2, 0.2, 0.3, 0.3], 6, generator=T.Generator().manual_seed(4)
    )
    bs = data.BatchSampler(data.SequentialSampler(ds), batch_size=3, drop_last=True)
    out1 = [b for b in data.DataLoader(ds, sampler=w, batch_size=4)]
    out2 = [b for b in data.DataLoader(ds, batch_sampler=bs)]
    out3 = list(data.DataLoader([(1, 2.0, "a"), (3, 4.0, "b")], batch_size=2))
    out4 = list(
        data.DataLoader(ds, batch_size=3, collate_fn=lambda b: T.stack([x for x, _ in b]).sum())
    )
    sub = data.Subset(ds, [7, 0])
    cat = data.ConcatDataset([sub, ds])
    return out1, out2, out3, out4, [sub[0], len(cat), cat[3]], list(w)


@program()
def prog_rp8_iterable_dataset_stream(T: Any) -> Any:
    data = T.utils.data

    class Stream(data.IterableDataset):
        def __iter__(self) -> Any:
            for i in range(7):
                yield T.tensor([float(i), float(i * i)]), i % 2

    batches = list(data.DataLoader(Stream(), batch_size=3))
    err = raises(lambda: data.DataLoader(Stream(), shuffle=True))
    return batches, err


@program()
def prog_rp8_optimizer_load_state_dict_mismatch(T: Any) -> Any:
    nn = T.nn
    m1 = nn.Linear(2, 2)
    opt1 = T.optim.Adam(m1.parameters(), lr=0.1)
    m1(T.ones(1, 2)).sum().backward()
    opt1.step()
    sd = opt1.state_dict()
    m2 = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    opt2 = T.optim.Adam(m2.parameters(), lr=0.1)
    e1 = raises(lambda: opt2.load_state_dict(sd))
    opt3 = T.optim.Adam([{"params": [m2[0].weight]}, {"params": [m2[0].bias]}], lr=0.1)
    e2 = raises(lambda: opt3.load_state_dict(sd))
    opt4 = T.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.5)
    opt4.load_state_dict(sd)
    return e1, e2, opt4.param_groups[0]["lr"], sorted(opt4.state_dict()["param_groups"][0].keys())


@program()
def prog_rp8_state_dict_keep_vars_prefix_and_assign(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)), 157)
    kv = m.state_dict(keep_vars=True)
    plain = m.state_dict(prefix="model.")
    other = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    src = {k: v.clone().double() for k, v in m.state_dict().items()}
    other.load_state_dict(src, assign=True)
    return (
        [type(v).__name__ for v in kv.values()],
        kv["0.weight"].requires_grad,
        list(plain.keys()),
        [p.dtype for p in other.parameters()],
        isinstance(other[0].weight, nn.Parameter),
        other[0].weight.requires_grad,
    )


# --- model construction, devices, loaders ----------------------------------------------------


@program()
def prog_rp8_device_idiom_and_dataloader_options(T: Any) -> Any:
    data = T.utils.data
    device = T.device("cuda" if T.cuda.is_available() else "cpu")
    m = _seeded(T, T.nn.Linear(2, 1), 158).to(device)
    x = _t(T, 3, 2, seed=159).to(device, non_blocking=True)
    ds = data.TensorDataset(x)
    dl = data.DataLoader(ds, batch_size=2, pin_memory=True)
    batches = list(dl)
    return {
        "dev": [str(device), str(m.weight.device), m(x).device.type],
        "batches": batches,
        "persist": raises(lambda: data.DataLoader(ds, persistent_workers=True)),
        "prefetch": raises(lambda: data.DataLoader(ds, prefetch_factor=2)),
        "neg_workers": raises(lambda: data.DataLoader(ds, num_workers=-1)),
        "sampler_shuffle": raises(lambda: data.DataLoader(ds, shuffle=True, sampler=[0, 1])),
        "bs_and_batch_sampler": raises(
            lambda: data.DataLoader(ds, batch_size=2, batch_sampler=[[0]])
        ),
        "len_drop": len(data.DataLoader(ds, batch_size=2, drop_last=True)),
    }


@program()
def prog_rp8_shape_mistakes_in_models(T: Any) -> Any:
    nn = T.nn
    lin = nn.Linear(3, 5)
    conv = nn.Conv2d(3, 4, 3)
    seq = nn.Sequential(nn.Conv2d(1, 2, 3), nn.Flatten(), nn.Linear(10, 2))
    return {
        "linear": raises(lambda: lin(T.ones(4, 2))),
        "conv_ch": raises(lambda: conv(T.ones(1, 2, 5, 5))),
        "conv_small": raises(lambda: conv(T.ones(1, 3, 2, 2))),
        "conv_3d_unbatched": conv(T.ones(3, 4, 4)).shape,
        "flatten_linear": raises(lambda: seq(T.ones(2, 1, 5, 5))),
        "int_input": raises(lambda: lin(T.ones(2, 3, dtype=T.long))),
        "double_input": raises(lambda: lin(T.ones(2, 3, dtype=T.float64))),
        "emb_oob": raises(lambda: nn.Embedding(3, 2)(T.tensor([3]))),
        "emb_float": raises(lambda: nn.Embedding(3, 2)(T.tensor([1.0]))),
        "lstm_2d_unbatched": nn.LSTM(3, 2)(T.ones(4, 3))[0].shape,
        "lstm_bad_feat": raises(lambda: nn.LSTM(3, 2)(T.ones(4, 1, 2))),
    }


@program()
def prog_rp8_module_assignment_errors(T: Any) -> Any:
    nn = T.nn
    m = nn.Linear(2, 2)

    def assign_tensor() -> None:
        m.weight = T.ones(2, 2)

    def assign_module_to_param() -> None:
        m.bias = nn.Linear(1, 1)

    def early_param() -> None:
        class Bad(nn.Module):
            def __init__(self) -> None:
                self.w = nn.Parameter(T.ones(1))

        Bad()

    m2 = nn.Linear(2, 2)
    m2.bias = None
    return {
        "tensor": raises(assign_tensor),
        "module": raises(assign_module_to_param),
        "early": raises(early_param),
        "int_grad": raises(lambda: T.ones(2, dtype=T.long).requires_grad_()),
        "param_int": raises(lambda: nn.Parameter(T.ones(2, dtype=T.long))),
        "bias_none": [n for n, _ in m2.named_parameters()],
        "bias_none_out": m2(T.ones(1, 2)).shape,
        "buffer_name": raises(lambda: m2.register_buffer("weight", T.ones(1))),
        "dot_name": raises(lambda: m2.register_parameter("a.b", None)),
        "missing": raises(lambda: m2.nonexistent),
        "typename": [T.typename(m2), T.typename(nn.Linear), T.typename(T.ones(1)), T.typename(3)],
    }


@program()
def prog_rp8_lazy_linear_head_seeded(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(14)
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(3))
    uninit = type(model[3].weight).__name__
    x = _t(T, 2, 1, 5, 5, seed=160)
    out = model(x)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    out.sum().backward()
    opt.step()
    return uninit, type(model[3]).__name__, model[3].in_features, out, _sd(model)


@program()
def prog_rp8_seeded_init_schemes(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(15)
    w = T.empty(3, 4)
    out = {}
    nn.init.trunc_normal_(w, std=0.02)
    out["trunc"] = w.clone()
    nn.init.orthogonal_(w)
    out["orth"] = w.clone()
    nn.init.kaiming_uniform_(w, a=5**0.5)
    out["kaiming"] = w.clone()
    nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh"))
    out["xavier"] = w.clone()
    nn.init.sparse_(w, 0.5)
    out["sparse"] = w.clone()
    out["eye"] = nn.init.eye_(T.empty(2, 3))
    out["dirac"] = nn.init.dirac_(T.empty(2, 2, 3))
    out["gain_err"] = raises(lambda: nn.init.calculate_gain("foo"))
    out["fan_err"] = raises(lambda: nn.init.xavier_uniform_(T.empty(3)))
    return out


@program()
def prog_rp8_pruning_l1_unstructured(T: Any) -> Any:
    from importlib import import_module

    nn = T.nn
    prune = import_module(T.__name__ + ".nn.utils.prune")
    m = _seeded(T, nn.Linear(4, 3), 161)
    prune.l1_unstructured(m, name="weight", amount=0.5)
    keys = list(m.state_dict().keys())
    x = _t(T, 2, 4, seed=162)
    m(x).sum().backward()
    g = m.weight_orig.grad
    prune.remove(m, "weight")
    return keys, m.weight, g, [n for n, _ in m.named_parameters()], prune.is_pruned(m)


@program()
def prog_rp8_norm_layers_training(T: Any) -> Any:
    nn = T.nn
    layers = nn.ModuleDict(
        {
            "inorm": nn.InstanceNorm1d(3, affine=True, track_running_stats=True),
            "ln_nobias": nn.LayerNorm(4, bias=False),
            "rms": nn.RMSNorm(4, eps=1e-6),
            "gn": nn.GroupNorm(1, 3),
            "lrn": nn.LocalResponseNorm(2),
        }
    )
    _seeded(T, layers, 163)
    x = _t(T, 2, 3, 4, seed=164).requires_grad_()
    outs = {k: mod(x) for k, mod in layers.items()}
    sum(o.pow(2).sum() for o in outs.values()).backward()
    layers.eval()
    ev = layers["inorm"](x)
    return outs, x.grad, _sd(layers), ev


@program()
def prog_rp8_dropout_variants_seeded(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(16)
    x = _t(T, 2, 3, 4, seed=165).requires_grad_()
    outs = [
        nn.Dropout1d(0.5)(x),
        nn.Dropout2d(0.5)(x.unsqueeze(-1)).squeeze(-1),
        nn.AlphaDropout(0.3)(x),
        nn.FeatureAlphaDropout(0.3)(x),
        nn.functional.dropout(x, 0.2, training=False),
    ]
    sum(o.sum() for o in outs).backward()
    return outs, x.grad, raises(lambda: nn.Dropout(1.5)), [o.grad_fn for o in outs]


@program()
def prog_rp8_forward_hook_with_kwargs_and_state_dict_hooks(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 2), 166)
    log = []

    def hook(mod: Any, args: Any, kwargs: Any, out: Any) -> Any:
        log.append((len(args), sorted(kwargs)))
        return out * 2

    m.register_forward_hook(hook, with_kwargs=True)
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {}), with_kwargs=True)
    out = m(T.ones(1, 2))
    m.register_load_state_dict_post_hook(
        lambda mod, keys: log.append(("post", list(keys.missing_keys)))
    )
    m.load_state_dict({"weight": T.zeros(2, 2)}, strict=False)
    return log, out, m.weight


@program()
def prog_rp8_grad_enabled_contexts_eval_fn(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 1), 167)

    @T.no_grad()
    def evaluate(x: Any) -> Any:
        return m(x)

    @T.inference_mode()
    def infer(x: Any) -> Any:
        return m(x).clone().requires_grad

    x = _t(T, 3, 2, seed=168)
    a = evaluate(x)
    with T.no_grad(), T.enable_grad():
        b = m(x)
    with T.set_grad_enabled(False):
        c = m(x)
    T.set_grad_enabled(True)
    return (
        a.requires_grad,
        b.requires_grad,
        b.grad_fn,
        c.requires_grad,
        infer(x),
        T.is_grad_enabled(),
    )


@program()
def prog_rp8_half_precision_model_forward_backward(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 169).half()
    x = _t(T, 5, 3, seed=170).half()
    y = T.tensor([0, 1, 0, 1, 1])
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    loss = nn.functional.cross_entropy(m(x), y)
    loss.backward()
    opt.step()
    return loss, loss.dtype, [p.grad for p in m.parameters()], _sd(m)


@program()
def prog_rp8_prelu_bilinear_siamese(T: Any) -> Any:
    nn = T.nn
    enc = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.PReLU(4)), 171)
    bil = _seeded(T, nn.Bilinear(4, 4, 1), 172)
    a, b = _t(T, 5, 3, seed=173), _t(T, 5, 3, seed=174)
    y = T.tensor([1.0, 0.0, 1.0, 0.0, 1.0])
    opt = T.optim.Adam([*enc.parameters(), *bil.parameters()], lr=0.01)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        s = bil(enc(a), enc(b)).squeeze(1)
        loss = nn.functional.binary_cross_entropy_with_logits(s, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    d = nn.functional.pairwise_distance(enc(a), enc(b))
    cs = nn.functional.cosine_similarity(enc(a), enc(b))
    return losses, enc[1].weight.grad, bil.weight.grad, d, cs


@program()
def prog_rp8_torch_load_weights_only_objects(T: Any) -> Any:
    import argparse

    buf = io.BytesIO()
    T.save({"args": argparse.Namespace(lr=0.1), "w": T.ones(2)}, buf)
    buf.seek(0)
    err = raises(lambda: T.load(buf))
    buf.seek(0)
    full = T.load(buf, weights_only=False)
    buf2 = io.BytesIO()
    T.save({"step": 3, "lr": [0.1, 0.01], "name": "adam", "w": T.ones(2, dtype=T.float16)}, buf2)
    buf2.seek(0)
    ok = T.load(buf2)
    return err.type if hasattr(err, "type") else err, full["args"].lr, ok


# --- task-specific training loops ------------------------------------------------------------


@program()
def prog_rp8_segmentation_unet_skip_ignore_index(T: Any) -> Any:
    nn = T.nn
    F = nn.functional

    class UNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.down = nn.Conv2d(1, 2, 3, padding=1)
            self.pool = nn.MaxPool2d(2, return_indices=True)
            self.mid = nn.Conv2d(2, 2, 3, padding=1)
            self.unpool = nn.MaxUnpool2d(2)
            self.up = nn.ConvTranspose2d(2, 2, 2, stride=2)
            self.out = nn.Conv2d(4, 3, 1)

        def forward(self, x: Any) -> Any:
            d = F.relu(self.down(x))
            p, idx = self.pool(d)
            m = F.relu(self.mid(p))
            u = self.up(m) + self.unpool(m, idx)
            return self.out(T.cat([u, d], dim=1))

    net = _seeded(T, UNet(), 175)
    x = _t(T, 2, 1, 4, 4, seed=176)
    y = T.randint(0, 3, (2, 4, 4), generator=T.Generator().manual_seed(1))
    y[0, 0, :] = 255
    logits = net(x)
    ce = F.cross_entropy(logits, y, ignore_index=255, weight=T.tensor([1.0, 2.0, 0.5]))
    valid = (y != 255).unsqueeze(1)
    onehot = F.one_hot(y.clamp(max=2), 3).permute(0, 3, 1, 2).float()
    probs = logits.softmax(1)
    inter = (probs * onehot * valid).sum((0, 2, 3))
    dice = 1 - (2 * inter + 1) / (
        (probs * valid).sum((0, 2, 3)) + (onehot * valid).sum((0, 2, 3)) + 1
    )
    loss = ce + dice.mean()
    loss.backward()
    return ce, dice, net.down.weight.grad, net.up.weight.grad, logits.argmax(1)


@program()
def prog_rp8_focal_loss_gather(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    m = _seeded(T, nn.Linear(3, 4), 177)
    x, y = _t(T, 6, 3, seed=178), T.tensor([0, 1, 2, 3, 1, 0])
    alpha = T.tensor([0.25, 0.75, 0.5, 0.5])
    logp = F.log_softmax(m(x), -1)
    logpt = logp.gather(1, y.unsqueeze(1)).squeeze(1)
    pt = logpt.exp()
    loss = (-alpha[y] * (1 - pt) ** 2 * logpt).mean()
    loss.backward()
    return loss, m.weight.grad, loss.grad_fn, logpt.grad_fn


@program()
def prog_rp8_simclr_nt_xent(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    enc = _seeded(T, nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)), 179)
    x = _t(T, 4, 4, seed=180)
    noise = _t(T, 4, 4, seed=181) * 0.1
    z = F.normalize(T.cat([enc(x), enc(x + noise)]), dim=1)
    sim = z @ z.T / 0.5
    sim = sim.masked_fill(T.eye(8, dtype=T.bool), float("-inf"))
    targets = T.cat([T.arange(4, 8), T.arange(0, 4)])
    loss = F.cross_entropy(sim, targets)
    loss.backward()
    return loss, enc[0].weight.grad, sim.grad_fn


@program()
def prog_rp8_vq_codebook_straight_through(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    enc = _seeded(T, nn.Linear(3, 2), 182)
    book = _seeded(T, nn.Embedding(4, 2), 183)
    x = _t(T, 5, 3, seed=184)
    z = enc(x)
    d = T.cdist(z, book.weight)
    idx = d.argmin(1)
    q = book(idx)
    commit = F.mse_loss(z, q.detach())
    cb = F.mse_loss(q, z.detach())
    zq = z + (q - z).detach()
    rec = zq.pow(2).sum()
    (rec + cb + 0.25 * commit).backward()
    return idx, d, enc.weight.grad, book.weight.grad, zq.grad_fn


@program()
def prog_rp8_gradient_reversal_domain_adaptation(T: Any) -> Any:
    nn = T.nn

    class GradReverse(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, lam: float) -> Any:
            ctx.lam = lam
            return x.view_as(x)

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g.neg() * ctx.lam, None

    feat = _seeded(T, nn.Linear(3, 4), 185)
    cls = _seeded(T, nn.Linear(4, 2), 186)
    dom = _seeded(T, nn.Linear(4, 2), 187)
    x = _t(T, 6, 3, seed=188)
    y, dy = T.tensor([0, 1, 0, 1, 0, 1]), T.tensor([0, 0, 0, 1, 1, 1])
    f = T.relu(feat(x))
    loss = nn.functional.cross_entropy(cls(f), y) + nn.functional.cross_entropy(
        dom(GradReverse.apply(f, 0.5)), dy
    )
    loss.backward()
    return loss, feat.weight.grad, dom.weight.grad, type(f.grad_fn).__name__


@program()
def prog_rp8_mixup_beta_seeded(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    T.manual_seed(17)
    m = _seeded(T, nn.Linear(3, 3), 189)
    x, y = _t(T, 4, 3, seed=190), T.tensor([0, 1, 2, 1])
    lam = T.distributions.Beta(T.tensor([0.4]), T.tensor([0.4])).sample().item()
    perm = T.randperm(4)
    xm = lam * x + (1 - lam) * x[perm]
    out = m(xm)
    loss = lam * F.cross_entropy(out, y) + (1 - lam) * F.cross_entropy(out, y[perm])
    soft = F.one_hot(y, 3).float() * lam + F.one_hot(y[perm], 3).float() * (1 - lam)
    loss2 = F.cross_entropy(out, soft)
    (loss + loss2).backward()
    return lam, perm, loss, loss2, m.weight.grad


@program()
def prog_rp8_multitask_uncertainty_weighting(T: Any) -> Any:
    nn = T.nn

    class MT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk = nn.Linear(3, 4)
            self.heads = nn.ModuleList([nn.Linear(4, 1), nn.Linear(4, 2)])
            self.log_vars = nn.Parameter(T.zeros(2))

        def forward(self, x: Any) -> Any:
            h = T.tanh(self.trunk(x))
            return [head(h) for head in self.heads]

    m = _seeded(T, MT(), 191)
    x, yr, yc = _t(T, 5, 3, seed=192), _t(T, 5, 1, seed=193), T.tensor([0, 1, 1, 0, 1])
    opt = T.optim.Adam(m.parameters(), lr=0.05)
    hist = []
    for _ in range(3):
        opt.zero_grad()
        r, c = m(x)
        losses = T.stack([nn.functional.mse_loss(r, yr), nn.functional.cross_entropy(c, yc)])
        total = (T.exp(-m.log_vars) * losses + m.log_vars).sum()
        total.backward()
        opt.step()
        hist.append(losses.detach())
    return hist, m.log_vars, m.log_vars.grad, total.grad_fn


@program()
def prog_rp8_seq2seq_gru_teacher_forcing_attention(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    enc = _seeded(T, nn.GRU(3, 4, batch_first=True), 194)
    emb = _seeded(T, nn.Embedding(5, 3), 195)
    dec = _seeded(T, nn.GRUCell(3 + 4, 4), 196)
    out_proj = _seeded(T, nn.Linear(4, 5), 197)
    src = _t(T, 2, 4, 3, seed=198)
    tgt = T.tensor([[1, 2, 3], [4, 3, 2]])
    enc_out, h = enc(src)
    h = h[0]
    inp = T.zeros(2, dtype=T.long)
    loss = 0
    atts = []
    for t in range(3):
        scores = T.bmm(enc_out, h.unsqueeze(2)).squeeze(2)
        a = F.softmax(scores, dim=1)
        ctx = T.bmm(a.unsqueeze(1), enc_out).squeeze(1)
        h = dec(T.cat([emb(inp), ctx], 1), h)
        loss = loss + F.cross_entropy(out_proj(h), tgt[:, t])
        inp = tgt[:, t]
        atts.append(a)
    loss.backward()
    return loss, T.stack(atts), enc.weight_hh_l0.grad, emb.weight.grad, dec.weight_ih.grad


@program()
def prog_rp8_gnn_message_passing_index_add(T: Any) -> Any:
    nn = T.nn
    lin = _seeded(T, nn.Linear(3, 3), 199)
    x = _t(T, 4, 3, seed=200).requires_grad_()
    edges = T.tensor([[0, 1, 2, 3, 0], [1, 2, 3, 0, 2]])
    src, dst = edges
    msg = lin(x)[src]
    agg = T.zeros(4, 3).index_add(0, dst, msg)
    deg = T.zeros(4).scatter_add(0, dst, T.ones(5)).clamp(min=1)
    h = T.relu(agg / deg.unsqueeze(1))
    mx = T.zeros(4, 3).scatter_reduce(
        0, dst.unsqueeze(1).expand(-1, 3), msg, reduce="amax", include_self=False
    )
    (h.sum() + mx.pow(2).sum()).backward()
    return h, mx, deg, x.grad, lin.weight.grad, agg.grad_fn, mx.grad_fn


@program()
def prog_rp8_recsys_embeddingbag_per_sample_weights(T: Any) -> Any:
    nn = T.nn
    users = _seeded(T, nn.Embedding(4, 3), 201)
    items = _seeded(T, nn.EmbeddingBag(6, 3, mode="sum"), 202)
    u = T.tensor([0, 1, 3])
    bag = T.tensor([1, 2, 4, 5, 0])
    offs = T.tensor([0, 2, 3])
    w = T.tensor([0.5, 1.0, 2.0, 0.3, 0.7])
    r = T.tensor([4.0, 2.0, 5.0])
    opt = T.optim.SGD([*users.parameters(), *items.parameters()], lr=0.05, weight_decay=0.01)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        pred = (users(u) * items(bag, offs, per_sample_weights=w)).sum(1)
        loss = nn.functional.mse_loss(pred, r)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    err = raises(lambda: nn.EmbeddingBag(6, 3, mode="mean")(bag, offs, per_sample_weights=w))
    return losses, users.weight.grad, items.weight.grad, err


@program()
def prog_rp8_time_series_causal_dilated_conv_unfold(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    conv = _seeded(T, nn.Conv1d(1, 2, 3, dilation=2), 203)
    series = T.tensor(_data(12, seed=204)).cumsum(0)
    x = series[:-1].view(1, 1, -1)
    y = series[1:]
    h = conv(F.pad(x, (4, 0)))
    pred = h.mean(1).squeeze(0)
    loss = F.mse_loss(pred, y)
    loss.backward()
    windows = series.unfold(0, 4, 2)
    return pred, loss, conv.weight.grad, windows, windows.stride()


@program()
def prog_rp8_pinn_second_derivative_residual(T: Any) -> Any:
    nn = T.nn
    net = _seeded(T, nn.Sequential(nn.Linear(1, 6), nn.Tanh(), nn.Linear(6, 1)), 205)
    x = T.linspace(0, 1, 5).unsqueeze(1).requires_grad_(True)
    u = net(x)
    (du,) = T.autograd.grad(u.sum(), x, create_graph=True)
    (d2u,) = T.autograd.grad(du.sum(), x, create_graph=True)
    residual = d2u + u
    bc = net(T.zeros(1, 1)) - 1
    loss = residual.pow(2).mean() + bc.pow(2).sum()
    loss.backward()
    return du, d2u, loss, net[0].weight.grad, net[2].weight.grad, d2u.grad_fn


@program()
def prog_rp8_maml_inner_loop_functional(T: Any) -> Any:
    nn = T.nn
    F = nn.functional
    w = T.tensor(_data(3, 1, seed=206), requires_grad=True)
    b = T.zeros(1, requires_grad=True)
    xs, ys = _t(T, 4, 3, seed=207), _t(T, 4, 1, seed=208)
    xq, yq = _t(T, 4, 3, seed=209), _t(T, 4, 1, seed=210)
    params = [w, b]
    for _ in range(2):
        loss = F.mse_loss(F.linear(xs, params[0].T, params[1]), ys)
        grads = T.autograd.grad(loss, params, create_graph=True)
        params = [p - 0.1 * g for p, g in zip(params, grads, strict=True)]
    meta = F.mse_loss(F.linear(xq, params[0].T, params[1]), yq)
    meta.backward()
    return meta, w.grad, b.grad, params[0].grad_fn


@program()
def prog_rp8_reinforce_categorical_returns(T: Any) -> Any:
    nn = T.nn
    D = T.distributions
    T.manual_seed(18)
    policy = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)), 211)
    states = _t(T, 5, 3, seed=212)
    dist = D.Categorical(logits=policy(states))
    actions = dist.sample()
    rewards = [1.0, 0.0, -1.0, 0.5, 1.0]
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + 0.99 * R
        returns.insert(0, R)
    ret = T.tensor(returns)
    ret = (ret - ret.mean()) / (ret.std() + 1e-8)
    loss = -(dist.log_prob(actions) * ret).sum() - 0.01 * dist.entropy().mean()
    loss.backward()
    return actions, ret, loss, policy[0].weight.grad


@program()
def prog_rp8_ppo_clipped_objective(T: Any) -> Any:
    nn = T.nn
    D = T.distributions
    actor = _seeded(T, nn.Linear(3, 2), 213)
    s = _t(T, 6, 3, seed=214)
    a = T.tensor([0, 1, 1, 0, 1, 0])
    with T.no_grad():
        old_logp = D.Categorical(logits=actor(s)).log_prob(a) - 0.1
    adv = _t(T, 6, seed=215)
    adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
    opt = T.optim.Adam(actor.parameters(), lr=0.05, eps=1e-5)
    hist = []
    for _ in range(3):
        dist = D.Categorical(logits=actor(s))
        ratio = (dist.log_prob(a) - old_logp).exp()
        loss = -T.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(actor.parameters(), 0.5)
        opt.step()
        hist.append((loss.item(), ratio.detach()))
    return hist, _sd(actor)


@program()
def prog_rp8_dqn_target_network(T: Any) -> Any:
    nn = T.nn
    q = _seeded(T, nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), 216)
    tgt = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    tgt.load_state_dict(q.state_dict())
    tgt.eval()
    opt = T.optim.RMSprop(q.parameters(), lr=0.01, alpha=0.95, centered=True)
    s, s2 = _t(T, 5, 3, seed=217), _t(T, 5, 3, seed=218)
    a = T.tensor([0, 1, 1, 0, 1])
    r = T.tensor([1.0, 0.0, -1.0, 0.5, 0.0])
    done = T.tensor([0, 0, 1, 0, 1], dtype=T.bool)
    losses = []
    for step in range(3):
        qsa = q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with T.no_grad():
            nxt = tgt(s2).max(1)[0]
            y = r + 0.9 * nxt * (~done)
        loss = nn.functional.smooth_l1_loss(qsa, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if step == 1:
            for pt, pq in zip(tgt.parameters(), q.parameters(), strict=True):
                pt.data.copy_(0.5 * pt.data + 0.5 * pq.data)
    return losses, _sd(tgt), opt.state_dict()["state"][0].keys()


@program()
def prog_rp8_pinn_sigmoid_tanh_third_order(T: Any) -> Any:
    x = T.tensor(_data(4, seed=219), requires_grad=True)
    out = {}
    for name, f in (("sigmoid", T.sigmoid), ("tanh", T.tanh)):
        y = f(x * 1.5)
        (d1,) = T.autograd.grad(y.sum(), x, create_graph=True)
        (d2,) = T.autograd.grad(d1.sum(), x, create_graph=True)
        (d3,) = T.autograd.grad(d2.sum(), x, create_graph=True)
        out[name] = (d1, d2, d3, d1.grad_fn, d2.grad_fn, d3.grad_fn)
    return out


@program(
    xfail="silu's third derivative: the order in which the engine sums gradient branches "
    "differs from torch's (AddBackward0 operands swapped: NegBackward0 before MulBackward0)"
)
def prog_rp8_pinn_silu_third_order(T: Any) -> Any:
    x = T.tensor(_data(4, seed=219), requires_grad=True)
    y = T.nn.functional.silu(x * 1.5)
    (d1,) = T.autograd.grad(y.sum(), x, create_graph=True)
    (d2,) = T.autograd.grad(d1.sum(), x, create_graph=True)
    (d3,) = T.autograd.grad(d2.sum(), x, create_graph=True)
    return d1, d2, d3, d1.grad_fn, d2.grad_fn, d3.grad_fn


# --- training-loop mistakes and scheduler corners ---------------------------------------------


@program()
def prog_rp8_inplace_relu_after_sigmoid_error(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 3), 220)
    act = nn.ReLU(inplace=True)
    x = _t(T, 2, 3, seed=221)
    h = T.sigmoid(m(x))
    out = act(h)
    err = raises(lambda: out.sum().backward())
    ok_h = act(m(x))
    ok_h.sum().backward()
    return err, out.grad_fn, h._version, ok_h.grad_fn, m.weight.grad


@program()
def prog_rp8_accumulated_loss_keeps_graph_and_backward_twice(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(2, 1), 222)
    opt = T.optim.SGD(m.parameters(), lr=0.1)
    total = 0
    total_item = 0.0
    for i in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(_t(T, 4, 2, seed=223 + i)), T.zeros(4, 1))
        loss.backward()
        opt.step()
        total += loss
        total_item += loss.item()
    err = raises(lambda: loss.backward())
    item_err = raises(lambda: m(T.ones(2, 2)).item())
    return total, total.grad_fn, total_item, err, item_err


@program()
def prog_rp8_scheduler_get_lr_warning_and_chained(T: Any) -> Any:
    lr = T.optim.lr_scheduler
    opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=1.0, momentum=0.9)
    s1 = lr.ConstantLR(opt, factor=0.5, total_iters=2)
    s2 = lr.ExponentialLR(opt, gamma=0.9)
    chained = lr.ChainedScheduler([s1, s2])
    lrs = []
    for _ in range(4):
        opt.step()
        chained.step()
        lrs.append(opt.param_groups[0]["lr"])
    direct = s2.get_lr()
    opt2 = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)
    poly = lr.PolynomialLR(opt2, total_iters=3, power=2.0)
    plrs = []
    for _ in range(5):
        opt2.step()
        poly.step()
        plrs.append(poly.get_last_lr()[0])
    return lrs, direct, plrs


@program()
def prog_rp8_cyclic_and_warm_restarts(T: Any) -> Any:
    lr = T.optim.lr_scheduler
    opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, momentum=0.9)
    cyc = lr.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
    hist = []
    for _ in range(6):
        opt.step()
        cyc.step()
        hist.append((opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"]))
    opt2 = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)
    wr = lr.CosineAnnealingWarmRestarts(opt2, T_0=2, T_mult=2, eta_min=0.001)
    wl = []
    for e in range(6):
        for b in range(2):
            opt2.step()
            wr.step(e + b / 2)
            wl.append(opt2.param_groups[0]["lr"])
    adagrad = T.optim.Adagrad([T.nn.Parameter(T.ones(1))], lr=0.1)
    err = raises(lambda: lr.CyclicLR(adagrad, 0.01, 0.1))
    return hist, wl, err


@program()
def prog_rp8_data_attribute_training_and_grad_none_clip(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1)), 226)
    x = _t(T, 3, 2, seed=227)
    m[1](x[:, :2]).sum().backward()
    norm = nn.utils.clip_grad_norm_(m.parameters(), 0.1)
    with T.no_grad():
        for p in m.parameters():
            if p.grad is not None:
                p.data -= 0.1 * p.grad.data
    m[0].weight.data.fill_(0.5)
    return (
        norm,
        [p.grad is None for p in m.parameters()],
        _sd(m),
        [p._version for p in m.parameters()],
    )


@program()
def prog_rp8_optimizer_state_roundtrip_through_save(T: Any) -> Any:
    nn = T.nn
    m = _seeded(T, nn.Linear(3, 2), 228)
    opt = T.optim.AdamW(m.parameters(), lr=0.01, amsgrad=True)
    x = _t(T, 4, 3, seed=229)
    for _ in range(2):
        opt.zero_grad()
        m(x).pow(2).sum().backward()
        opt.step()
    buf = io.BytesIO()
    T.save(opt.state_dict(), buf)
    buf.seek(0)
    sd = T.load(buf)
    st = sd["state"][0]
    return (
        sorted(st.keys()),
        st["step"],
        st["step"].dtype,
        st["exp_avg"],
        st["max_exp_avg_sq"],
        sd["param_groups"][0],
    )


@program()
def prog_rp8_model_summary_counts_and_repr(T: Any) -> Any:
    nn = T.nn

    class Block(nn.Module):
        def __init__(self, c: int) -> None:
            super().__init__()
            self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
            self.bn = nn.BatchNorm2d(c)

        def forward(self, x: Any) -> Any:
            return T.relu(self.bn(self.conv(x)) + x)

        def extra_repr(self) -> str:
            return "residual=True"

    net = nn.Sequential(
        nn.Conv2d(1, 4, 3),
        Block(4),
        Block(4),
        nn.AdaptiveMaxPool2d(1),
        nn.Flatten(),
        nn.Linear(4, 2),
    )
    net[2].requires_grad_(False)
    total = sum(p.numel() for p in net.parameters())
    trainable = sum(p.numel() for p in net.parameters() if p.requires_grad)
    sub = net.get_submodule("1.bn")
    err = raises(lambda: net.get_submodule("1.nope"))
    return total, trainable, repr(net), type(sub).__name__, err, repr(net[1:3]), len(net[::2])


@program()
def prog_rp8_r1_penalty_logsigmoid_manual_rmsnorm(T: Any) -> Any:
    nn = T.nn
    F = nn.functional

    class RMS(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.g = nn.Parameter(T.ones(3))

        def forward(self, x: Any) -> Any:
            return x * T.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g

    Dn = _seeded(T, nn.Sequential(nn.Linear(3, 3), RMS(), nn.Sigmoid(), nn.Linear(3, 1)), 230)
    real = _t(T, 4, 3, seed=231).requires_grad_(True)
    logits = Dn(real)
    loss = -F.logsigmoid(logits).mean()
    (g,) = T.autograd.grad(logits.sum(), real, create_graph=True)
    r1 = g.pow(2).sum(1).mean()
    (gl,) = T.autograd.grad(loss, real, create_graph=True)
    total = loss + 5 * r1 + gl.pow(2).sum()
    total.backward()
    return loss, r1, g.grad_fn, gl.grad_fn, Dn[0].weight.grad, Dn[1].g.grad, real.grad


@program()
def prog_rp8_gelu_ffn_input_gradient_penalty(T: Any) -> Any:
    nn = T.nn
    ffn = _seeded(T, nn.Sequential(nn.Linear(3, 5), nn.GELU(), nn.Linear(5, 1)), 232)
    x = _t(T, 4, 3, seed=233).requires_grad_(True)
    out = ffn(x)
    (g,) = T.autograd.grad(out.sum(), x, create_graph=True)
    (h,) = T.autograd.grad(g.pow(2).sum(), x, create_graph=True)
    loss = out.mean() + g.pow(2).sum() + h.sum()
    loss.backward()
    return out, g, h, g.grad_fn, h.grad_fn, ffn[0].weight.grad, x.grad


# --- constructor validation and interop a script meets ---------------------------------------


@program()
def prog_rp8_optimizer_constructor_validation(T: Any) -> Any:
    optim = T.optim

    def ps() -> list[Any]:
        return [T.nn.Parameter(T.ones(2))]

    return {
        "nesterov": raises(lambda: optim.SGD(ps(), lr=0.1, nesterov=True)),
        "nesterov_damp": raises(
            lambda: optim.SGD(ps(), lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)
        ),
        "sgd_default_lr": optim.SGD(ps()).defaults["lr"],
        "betas": raises(lambda: optim.Adam(ps(), betas=(1.0, 0.9))),
        "eps": raises(lambda: optim.Adam(ps(), eps=-1)),
        "wd": raises(lambda: optim.Adam(ps(), weight_decay=-0.1)),
        "adamw_wd": optim.AdamW(ps()).defaults["weight_decay"],
        "alpha": raises(lambda: optim.RMSprop(ps(), alpha=-1)),
        "lbfgs_groups": raises(lambda: optim.LBFGS([{"params": ps()}, {"params": ps()}])),
        "lr_decay": raises(lambda: optim.Adagrad(ps(), lr_decay=-1)),
        "extra_key": optim.SGD([{"params": ps(), "foo": 1}], lr=0.1).param_groups[0]["foo"],
        "dict": raises(lambda: optim.SGD({"a": T.nn.Parameter(T.ones(1))}, lr=0.1)),
        "named": optim.SGD(T.nn.Linear(1, 1).named_parameters(), lr=0.1).state_dict()[
            "param_groups"
        ],
        "repr": repr(optim.Adam(ps(), lr=0.01)),
    }


@program()
def prog_rp8_numpy_interop_in_loops(T: Any) -> Any:
    import numpy as np

    nn = T.nn
    m = _seeded(T, nn.Linear(2, 2), 234)
    xs = np.linspace(-1, 1, 6).reshape(3, 2)
    return {
        "double_input": raises(lambda: m(T.from_numpy(xs))),
        "float_input": m(T.from_numpy(xs).float()),
        "np_scalar_mul": np.float64(2.0) * T.ones(2),
        "np_scalar_rmul": (T.ones(2) * np.float64(2.0)).dtype,
        "np_index": T.arange(5)[np.int64(2)],
        "np_array_index": T.arange(5)[np.array([1, 3])],
        "list_of_tensors": T.tensor([T.tensor(1.0), T.tensor(2.0)]),
        "sum_list": sum([T.ones(2), T.ones(2)]),
        "numpy_grad": raises(lambda: T.ones(1, requires_grad=True).numpy()),
        "int_multi": raises(lambda: int(T.tensor([2, 3]))),
        "bool_ambiguous": raises(lambda: bool(T.tensor([True, False]))),
        "format": f"{T.tensor(0.123456):.3f}",
        "format_multi": raises(lambda: f"{T.tensor([0.12]):.3f}"),
        "round": raises(lambda: round(T.tensor(2.567), 2)),
        "round0": raises(lambda: round(T.tensor(2.567))),
        "acc_int_div": (T.tensor([1, 0, 1]) == T.tensor([1, 1, 1])).sum() / 3,
        "mean_int": raises(lambda: T.tensor([1, 2]).mean()),
        "item_f16": T.tensor(0.1, dtype=T.float16).item(),
    }


@program()
def prog_rp8_rnn_and_attention_argument_errors(T: Any) -> Any:
    nn = T.nn
    rnn = nn.utils.rnn
    mha = nn.MultiheadAttention(4, 2)
    q = T.ones(3, 1, 4)
    return {
        "lstm_h0_3d_unbatched": raises(
            lambda: nn.LSTM(3, 2)(T.ones(4, 3), (T.zeros(1, 1, 2), T.zeros(1, 1, 2)))
        ),
        "gru_h0_batch": raises(lambda: nn.GRU(3, 2)(T.ones(4, 1, 3), T.zeros(1, 2, 2))),
        "pack_too_long": raises(lambda: rnn.pack_padded_sequence(T.ones(3, 2, 1), [4, 1])),
        "pad_total_short": raises(
            lambda: rnn.pad_packed_sequence(
                rnn.pack_padded_sequence(T.ones(3, 2, 1), [3, 1]), total_length=2
            )
        ),
        "int32_lengths": rnn.pack_padded_sequence(
            T.ones(3, 2, 1), T.tensor([3, 1], dtype=T.int32)
        ).batch_sizes,
        "mha_mask_shape": raises(lambda: mha(q, q, q, attn_mask=T.zeros(2, 3))),
        "d_model_heads": raises(lambda: nn.TransformerEncoderLayer(5, 2)),
        "sdpa_mask_and_causal": raises(
            lambda: nn.functional.scaled_dot_product_attention(
                T.ones(1, 2, 3),
                T.ones(1, 2, 3),
                T.ones(1, 2, 3),
                is_causal=True,
                attn_mask=T.ones(2, 2, dtype=T.bool),
            )
        ),
        "bn_wrong_dim": raises(lambda: nn.BatchNorm2d(2)(T.ones(2, 2))),
        "ln_shape": raises(lambda: nn.LayerNorm(3)(T.ones(2, 4))),
        "gn_groups": raises(lambda: nn.GroupNorm(3, 4)),
        "same_stride": raises(lambda: nn.Conv2d(1, 1, 3, stride=2, padding="same")),
        "convT_output_size": raises(
            lambda: nn.ConvTranspose2d(1, 1, 3, stride=2)(T.ones(1, 1, 3, 3), output_size=[10, 10])
        ),
        "interp_mode": raises(
            lambda: nn.functional.interpolate(T.ones(1, 1, 2), scale_factor=2, mode="bilinear")
        ),
        "softmax_nodim": nn.functional.softmax(T.ones(2, 2)),
        "one_hot_small": raises(lambda: nn.functional.one_hot(T.tensor([3]), 2)),
        "one_hot_neg": raises(lambda: nn.functional.one_hot(T.tensor([-1, 1]))),
    }


@program()
def prog_rp8_sac_tanh_squashed_gaussian_policy(T: Any) -> Any:
    nn = T.nn
    D = T.distributions
    T.manual_seed(19)
    body = _seeded(T, nn.Linear(3, 4), 235)
    s = _t(T, 5, 3, seed=236)
    mu, log_std = body(s).chunk(2, dim=-1)
    log_std = log_std.clamp(-5, 2)
    base = D.Normal(mu, log_std.exp())
    pi = D.TransformedDistribution(base, [D.transforms.TanhTransform(cache_size=1)])
    a = pi.rsample()
    logp = pi.log_prob(a).sum(-1)
    q = (a * T.tensor([0.5, -1.0])).sum(-1)
    loss = (0.2 * logp - q).mean()
    loss.backward()
    return a, logp, loss, body.weight.grad, pi.batch_shape, pi.event_shape


@program()
def prog_rp8_distribution_argument_checks_in_models(T: Any) -> Any:
    D = T.distributions
    T.manual_seed(20)
    return {
        "neg_scale": raises(lambda: D.Normal(T.zeros(1), -T.ones(1))),
        "nan_value": raises(lambda: D.Normal(0.0, 1.0).log_prob(T.tensor([float("nan")]))),
        "probs_normalized": D.Categorical(probs=T.tensor([0.5, 0.6])).probs,
        "neg_probs": raises(lambda: D.Categorical(probs=T.tensor([-0.5, 0.6]))),
        "cat_oob": raises(lambda: D.Categorical(logits=T.zeros(3)).log_prob(T.tensor(3))),
        "indep": D.Independent(D.Normal(T.zeros(2, 3), T.ones(2, 3)), 1).log_prob(T.ones(2, 3)),
        "mixture": D.MixtureSameFamily(
            D.Categorical(T.ones(2)), D.Normal(T.zeros(2), T.ones(2))
        ).log_prob(T.tensor([0.5, 1.0])),
        "mixture_rsample": raises(
            lambda: D.MixtureSameFamily(
                D.Categorical(T.ones(2)), D.Normal(T.zeros(2), T.ones(2))
            ).rsample()
        ),
        "mvn_bad_cov": raises(
            lambda: D.MultivariateNormal(
                T.zeros(2), covariance_matrix=T.tensor([[1.0, 2.0], [2.0, 1.0]])
            )
        ),
        "kl_missing": raises(lambda: D.kl_divergence(D.Beta(1.0, 2.0), D.Normal(0.0, 1.0))),
        "st": D.OneHotCategoricalStraightThrough(logits=T.zeros(3)).rsample(),
        "sample_no_grad": D.Normal(T.zeros(2, requires_grad=True), 1.0).sample().requires_grad,
    }


# --- the harness (test_realistic_programs_3's, over this file's programs) ---------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
