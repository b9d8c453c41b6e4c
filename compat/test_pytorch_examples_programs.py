# ruff: noqa: UP031, UP032  (the examples' own str.format and % idioms are kept)
"""Realistic programs: the programs of github.com/pytorch/examples in miniature. mnist (and its
hogwild, forward-forward and RNN variants), word_language_model (RNNModel, TransformerModel,
batchify/get_batch/repackage_hidden, clip_grad_norm_, evaluate), dcgan, vae, regression,
siamese_network, time_sequence_prediction (LSTMCell + LBFGS), super_resolution (PixelShuffle),
fast_neural_style (ReflectionPad2d, InstanceNorm2d, gram matrix), gcn, gat, vision_transformer,
language_translation, reinforcement_learning (reinforce, actor_critic) and imagenet's
accuracy()/AverageMeter/StepLR, each rewritten at tiny sizes with the original code's idioms
(its layers, functional calls, optimizers, schedulers, in-place and `.data` updates, no_grad and
detach patterns, torch.save/load through io.BytesIO, format strings of `.item()` values). Each
program is seeded and returns its losses per step, outputs, gradients and state dicts; it
registers into test_realistic_programs_3's set and runs through its harness on torch and on
shadowgrad, which compares everything returned, raised or warned.
"""

from __future__ import annotations

import collections
import io
import math
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _t(T: Any, *shape: int, seed: int = 0, rg: bool = False) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


def _grads(model: Any) -> dict[str, Any]:
    return {n: p.grad for n, p in model.named_parameters()}


def _first_part(err: Any, sep: str) -> Any:
    return (err.type, err.message.split(sep)[0]) if hasattr(err, "message") else err


def _ckpt(T: Any, obj: Any) -> Any:
    buf = io.BytesIO()
    T.save(obj, buf)
    buf.seek(0)
    return T.load(buf)


# --- mnist/main.py -------------------------------------------------------------------------


def _mnist_net(T: Any) -> Any:
    nn, F = T.nn, T.nn.functional

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, 1)
            self.conv2 = nn.Conv2d(4, 8, 3, 1)
            self.dropout1 = nn.Dropout(0.25)
            self.dropout2 = nn.Dropout(0.5)
            self.fc1 = nn.Linear(8 * 2 * 2, 16)
            self.fc2 = nn.Linear(16, 10)

        def forward(self, x: Any) -> Any:
            x = self.conv1(x)
            x = F.relu(x)
            x = self.conv2(x)
            x = F.relu(x)
            x = F.max_pool2d(x, 2)
            x = self.dropout1(x)
            x = T.flatten(x, 1)
            x = self.fc1(x)
            x = F.relu(x)
            x = self.dropout2(x)
            x = self.fc2(x)
            output = F.log_softmax(x, dim=1)
            return output

    return Net()


def _mnist_data(T: Any, n: int, seed: int = 0) -> tuple[Any, Any]:
    x = _t(T, n, 1, 8, 8, seed=seed)
    y = T.tensor(np.random.default_rng(seed).integers(0, 10, n))
    return x, y


@program()
def prog_pex_mnist_train_adadelta_steplr(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(1)
    model = _mnist_net(T)
    optimizer = T.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = T.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    log = []
    for epoch in range(1, 3):
        model.train()
        for batch_idx in range(2):
            data, target = _mnist_data(T, 4, seed=epoch * 10 + batch_idx)
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            log.append(
                "Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.4f}".format(
                    epoch, batch_idx * len(data), 8, 100.0 * batch_idx / 2, loss.item()
                )
            )
        scheduler.step()
    return log, scheduler.get_last_lr(), optimizer.param_groups[0]["lr"], model.state_dict()


@program()
def prog_pex_mnist_test_loop(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(2)
    model = _mnist_net(T)
    model.eval()
    test_loss = 0
    correct = 0
    with T.no_grad():
        for i in range(3):
            data, target = _mnist_data(T, 5, seed=i)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= 15
    msg = "\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n".format(
        test_loss, correct, 15, 100.0 * correct / 15
    )
    return msg, test_loss, correct, output.requires_grad, output.grad_fn


@program()
def prog_pex_mnist_save_load_state_dict(T: Any) -> Any:
    T.manual_seed(3)
    model = _mnist_net(T)
    sd = _ckpt(T, model.state_dict())
    T.manual_seed(4)
    model2 = _mnist_net(T)
    res = model2.load_state_dict(sd)
    x, _ = _mnist_data(T, 2)
    model.eval()
    model2.eval()
    return str(res), list(sd.keys()), model(x), model2(x), T.equal(model(x), model2(x))


@program()
def prog_pex_mnist_dropout_train_mode_outputs(T: Any) -> Any:
    T.manual_seed(5)
    model = _mnist_net(T)
    x, y = _mnist_data(T, 3)
    model.train()
    out = model(x)
    loss = T.nn.functional.nll_loss(out, y)
    loss.backward()
    return out, loss, _grads(model), out.grad_fn


# --- mnist_hogwild (single process) -------------------------------------------------------


@program()
def prog_pex_mnist_hogwild_train_epoch_sgd_momentum(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(6)
    model = _mnist_net(T)
    model.share_memory()
    optimizer = T.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
    model.train()
    losses = []
    for i in range(3):
        data, target = _mnist_data(T, 4, seed=100 + i)
        optimizer.zero_grad()
        output = model(data.to("cpu"))
        loss = F.nll_loss(output, target.to("cpu"))
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, optimizer.state_dict(), model.conv1.weight.is_shared()


# --- mnist_forward_forward ----------------------------------------------------------------


def _ff_net(T: Any, dims: list[int]) -> Any:
    nn = T.nn

    class Layer(nn.Linear):
        def __init__(self, in_features: int, out_features: int) -> None:
            super().__init__(in_features, out_features)
            self.relu = T.nn.ReLU()
            self.opt = T.optim.Adam(self.parameters(), lr=0.03)
            self.threshold = 2.0
            self.num_epochs = 3

        def forward(self, x: Any) -> Any:
            x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
            return self.relu(T.mm(x_direction, self.weight.T) + self.bias.unsqueeze(0))

        def train(self, x_pos: Any, x_neg: Any) -> Any:  # type: ignore[override]
            losses = []
            for _ in range(self.num_epochs):
                g_pos = self.forward(x_pos).pow(2).mean(1)
                g_neg = self.forward(x_neg).pow(2).mean(1)
                loss = T.log(
                    1 + T.exp(T.cat([-g_pos + self.threshold, g_neg - self.threshold]))
                ).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                losses.append(loss.item())
            return self.forward(x_pos).detach(), self.forward(x_neg).detach(), losses

    class Net(T.nn.Module):
        def __init__(self, dims: list[int]) -> None:
            super().__init__()
            self.layers = []
            for d in range(len(dims) - 1):
                self.layers += [Layer(dims[d], dims[d + 1])]

        def predict(self, x: Any) -> Any:
            goodness_per_label = []
            for label in range(3):
                h = overlay_y_on_x(x, label)
                goodness = []
                for layer in self.layers:
                    h = layer(h)
                    goodness += [h.pow(2).mean(1)]
                goodness_per_label += [sum(goodness).unsqueeze(1)]
            goodness_per_label = T.cat(goodness_per_label, 1)
            return goodness_per_label.argmax(1)

        def train(self, x_pos: Any, x_neg: Any) -> Any:  # type: ignore[override]
            h_pos, h_neg = x_pos, x_neg
            all_losses = []
            for layer in self.layers:
                h_pos, h_neg, losses = layer.train(h_pos, h_neg)
                all_losses.append(losses)
            return all_losses

    def overlay_y_on_x(x: Any, y: Any) -> Any:
        x_ = x.clone()
        x_[:, :3] *= 0.0
        x_[range(x.shape[0]), y] = x.max()
        return x_

    return Net(dims), overlay_y_on_x


@program()
def prog_pex_forward_forward_train_predict(T: Any) -> Any:
    T.manual_seed(7)
    net, overlay = _ff_net(T, [12, 8, 8])
    x = _t(T, 6, 12, seed=1)
    y = T.tensor([0, 1, 2, 0, 1, 2])
    x_pos = overlay(x, y)
    rnd = T.randperm(x.size(0))
    x_neg = overlay(x, y[rnd])
    losses = net.train(x_pos, x_neg)
    pred = net.predict(x)
    err = 1.0 - pred.eq(y).float().mean().item()
    return x_pos, x_neg, losses, pred, err, [layer.weight for layer in net.layers]


# --- mnist_rnn -----------------------------------------------------------------------------


def _mnist_rnn(T: Any) -> Any:
    nn, F = T.nn, T.nn.functional

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.rnn = nn.LSTM(input_size=8, hidden_size=6, batch_first=True)
            self.batchnorm = nn.BatchNorm1d(6)
            self.dropout1 = nn.Dropout2d(0.25)
            self.dropout2 = nn.Dropout2d(0.5)
            self.fc1 = nn.Linear(6, 5)
            self.fc2 = nn.Linear(5, 10)

        def forward(self, input: Any) -> Any:
            input = input.reshape(-1, 8, 8)
            output, _hidden = self.rnn(input)
            output = output[:, -1, :]
            output = self.batchnorm(output)
            output = self.dropout1(output)
            output = self.fc1(output)
            output = F.relu(output)
            output = self.dropout2(output)
            output = self.fc2(output)
            output = F.log_softmax(output, dim=1)
            return output

    return Net()


@program()
def prog_pex_mnist_rnn_train_and_test(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(8)
    model = _mnist_rnn(T)
    optimizer = T.optim.Adadelta(model.parameters(), lr=0.1)
    scheduler = T.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    losses = []
    for step in range(2):
        model.train()
        data, target = _mnist_data(T, 4, seed=step)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        scheduler.step()
        losses.append(loss.item())
    model.eval()
    with T.no_grad():
        data, target = _mnist_data(T, 3, seed=9)
        output = model(data)
        test_loss = F.nll_loss(output, target, reduction="sum").item()
    bn = model.batchnorm
    return losses, test_loss, output, bn.running_mean, bn.num_batches_tracked


# --- imagenet: accuracy, AverageMeter, StepLR, checkpoint -----------------------------------


def _accuracy(T: Any, output: Any, target: Any, topk: tuple[int, ...] = (1,)) -> Any:
    with T.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


class _AverageMeter:
    def __init__(self, name: str, fmt: str = ":f") -> None:
        self.name = name
        self.fmt = fmt
        self.reset()

    def reset(self) -> None:
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val: Any, n: int = 1) -> None:
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self) -> str:
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)


@program()
def prog_pex_imagenet_accuracy_topk(T: Any) -> Any:
    output = _t(T, 8, 6, seed=3)
    target = T.tensor([0, 1, 2, 3, 4, 5, 0, 1])
    acc1, acc5 = _accuracy(T, output, target, topk=(1, 5))
    top1 = _AverageMeter("Acc@1", ":6.2f")
    top5 = _AverageMeter("Acc@5", ":6.2f")
    top1.update(acc1[0], 8)
    top5.update(acc5[0], 8)
    top1.update(acc1[0] / 2, 4)
    return acc1, acc5, str(top1), str(top5), top1.avg, type(top1.avg).__name__


@program()
def prog_pex_imagenet_train_step_checkpoint(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(9)
    model = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
        nn.Linear(4, 6),
    )
    criterion = nn.CrossEntropyLoss()
    optimizer = T.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
    scheduler = T.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.1)
    losses = _AverageMeter("Loss", ":.4e")
    log = []
    for epoch in range(3):
        images = _t(T, 4, 3, 5, 5, seed=epoch)
        target = T.tensor([epoch % 6, 1, 2, 5])
        output = model(images)
        loss = criterion(output, target)
        acc1, acc5 = _accuracy(T, output, target, topk=(1, 5))
        losses.update(loss.item(), images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        log.append((str(losses), acc1[0].item(), acc5[0].item(), scheduler.get_last_lr()))
    state = {
        "epoch": 3,
        "arch": "tiny",
        "state_dict": model.state_dict(),
        "best_acc1": acc1[0],
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
    }
    checkpoint = _ckpt(T, state)
    T.manual_seed(10)
    model2 = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.BatchNorm2d(4),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
        nn.Linear(4, 6),
    )
    optimizer2 = T.optim.SGD(model2.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
    scheduler2 = T.optim.lr_scheduler.StepLR(optimizer2, step_size=2, gamma=0.1)
    model2.load_state_dict(checkpoint["state_dict"])
    optimizer2.load_state_dict(checkpoint["optimizer"])
    scheduler2.load_state_dict(checkpoint["scheduler"])
    return log, checkpoint, optimizer2.state_dict(), scheduler2.get_last_lr(), model2.state_dict()


@program()
def prog_pex_imagenet_accuracy_ties_and_errors(T: Any) -> Any:
    output = T.zeros(4, 3)
    target = T.tensor([0, 1, 2, 0])
    return (
        _accuracy(T, output, target, topk=(1, 2)),
        raises(lambda: _accuracy(T, output, target, topk=(1, 5))),
        _accuracy(T, output.half(), target, topk=(1,)),
    )


# --- regression ----------------------------------------------------------------------------


@program()
def prog_pex_regression_poly_fit(T: Any) -> Any:
    F = T.nn.functional
    POLY_DEGREE = 4
    T.manual_seed(11)
    W_target = T.randn(POLY_DEGREE, 1) * 5
    b_target = T.randn(1) * 5

    def make_features(x: Any) -> Any:
        x = x.unsqueeze(1)
        return T.cat([x**i for i in range(1, POLY_DEGREE + 1)], 1)

    def f(x: Any) -> Any:
        return x.mm(W_target) + b_target.item()

    def poly_desc(W: Any, b: Any) -> str:
        result = "y = "
        for i, w in enumerate(W):
            result += "{:+.2f} x^{} ".format(w, i + 1)
        result += "{:+.2f}".format(b[0])
        return result

    def get_batch(batch_size: int = 8) -> Any:
        random = T.randn(batch_size)
        x = make_features(random)
        y = f(x)
        return x, y

    fc = T.nn.Linear(W_target.size(0), 1)
    losses = []
    for batch_idx in range(5):  # noqa: B007  (used after the loop, as the example's)
        batch_x, batch_y = get_batch()
        fc.zero_grad()
        output = F.smooth_l1_loss(fc(batch_x), batch_y)
        loss = output.item()
        output.backward()
        for param in fc.parameters():
            param.data.add_(-0.1 * param.grad)
        losses.append(loss)
    return (
        losses,
        "Loss: {:.4f} after {} batches".format(loss, batch_idx),
        "==> Learned function:\t" + poly_desc(fc.weight.view(-1), fc.bias),
        "==> Actual function:\t" + poly_desc(W_target.view(-1), b_target),
        fc.weight._version,
    )


# --- vae -----------------------------------------------------------------------------------


def _vae(T: Any) -> Any:
    nn, F = T.nn, T.nn.functional

    class VAE(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = nn.Linear(16, 10)
            self.fc21 = nn.Linear(10, 3)
            self.fc22 = nn.Linear(10, 3)
            self.fc3 = nn.Linear(3, 10)
            self.fc4 = nn.Linear(10, 16)

        def encode(self, x: Any) -> Any:
            h1 = F.relu(self.fc1(x))
            return self.fc21(h1), self.fc22(h1)

        def reparameterize(self, mu: Any, logvar: Any) -> Any:
            std = T.exp(0.5 * logvar)
            eps = T.randn_like(std)
            return mu + eps * std

        def decode(self, z: Any) -> Any:
            h3 = F.relu(self.fc3(z))
            return T.sigmoid(self.fc4(h3))

        def forward(self, x: Any) -> Any:
            mu, logvar = self.encode(x.view(-1, 16))
            z = self.reparameterize(mu, logvar)
            return self.decode(z), mu, logvar

    return VAE()


def _vae_loss(T: Any, recon_x: Any, x: Any, mu: Any, logvar: Any) -> Any:
    BCE = T.nn.functional.binary_cross_entropy(recon_x, x.view(-1, 16), reduction="sum")
    KLD = -0.5 * T.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


@program()
def prog_pex_vae_train_test_sample(T: Any) -> Any:
    T.manual_seed(12)
    model = _vae(T)
    optimizer = T.optim.Adam(model.parameters(), lr=1e-3)
    data = T.rand(6, 1, 4, 4)
    model.train()
    train_loss = 0
    log = []
    for _batch_idx in range(3):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = _vae_loss(T, recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        log.append("Loss: {:.4f}".format(loss.item() / len(data)))
    model.eval()
    with T.no_grad():
        recon_batch, mu, logvar = model(data)
        test_loss = _vae_loss(T, recon_batch, data, mu, logvar).item()
        n = min(data.size(0), 4)
        comparison = T.cat([data[:n], recon_batch.view(6, 1, 4, 4)[:n]])
        sample = T.randn(5, 3)
        sample = model.decode(sample).cpu()
    return log, train_loss, test_loss, comparison, sample.view(5, 1, 4, 4), _grads(model)


@program()
def prog_pex_vae_bce_input_out_of_range(T: Any) -> Any:
    F = T.nn.functional
    x = T.rand(2, 16)
    bad = T.tensor(_data(2, 16, seed=2))
    return (
        raises(lambda: F.binary_cross_entropy(bad, x, reduction="sum")),
        raises(lambda: F.binary_cross_entropy(T.rand(2, 16), T.rand(2, 8))),
        F.binary_cross_entropy(T.tensor([0.0, 1.0, 0.5]), T.tensor([1.0, 0.0, 0.5])),
    )


# --- dcgan ---------------------------------------------------------------------------------


def _dcgan(T: Any, nz: int = 4, ngf: int = 2, ndf: int = 2, nc: int = 3) -> Any:
    nn = T.nn

    def weights_init(m: Any) -> None:
        classname = m.__class__.__name__
        if classname.find("Conv") != -1:
            T.nn.init.normal_(m.weight, 0.0, 0.02)
        elif classname.find("BatchNorm") != -1:
            T.nn.init.normal_(m.weight, 1.0, 0.02)
            T.nn.init.zeros_(m.bias)

    class Generator(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.main = nn.Sequential(
                nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
                nn.BatchNorm2d(ngf * 4),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf * 2),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),
                nn.Tanh(),
            )

        def forward(self, input: Any) -> Any:
            return self.main(input)

    class Discriminator(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.main = nn.Sequential(
                nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 2),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
                nn.Sigmoid(),
            )

        def forward(self, input: Any) -> Any:
            output = self.main(input)
            return output.view(-1, 1).squeeze(1)

    netG = Generator()
    netG.apply(weights_init)
    netD = Discriminator()
    netD.apply(weights_init)
    return netG, netD


@program()
def prog_pex_dcgan_train_loop(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(13)
    nz = 4
    netG, netD = _dcgan(T, nz=nz)
    criterion = nn.BCELoss()
    fixed_noise = T.randn(4, nz, 1, 1)
    real_label = 1
    fake_label = 0
    optimizerD = T.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
    optimizerG = T.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
    log = []
    for i in range(2):
        real_cpu = T.rand(3, 3, 16, 16) * 2 - 1
        netD.zero_grad()
        batch_size = real_cpu.size(0)
        label = T.full((batch_size,), real_label, dtype=real_cpu.dtype)
        output = netD(real_cpu)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()
        noise = T.randn(batch_size, nz, 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()
        log.append(
            "[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f"
            % (0, 1, i, 2, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2)
        )
    fake = netG(fixed_noise)
    return log, fake.detach(), fake.grad_fn, label, netD.main[3].running_var


@program()
def prog_pex_dcgan_weights_init_and_shapes(T: Any) -> Any:
    T.manual_seed(14)
    netG, netD = _dcgan(T)
    noise = T.randn(2, 4, 1, 1)
    fake = netG(noise)
    out = netD(fake)
    return (
        fake.shape,
        out.shape,
        {k: (v.mean(), v.std()) for k, v in netG.state_dict().items() if v.is_floating_point()},
        str(netD),
        out.grad_fn,
    )


# --- super_resolution ----------------------------------------------------------------------


def _sr_net(T: Any, upscale_factor: int) -> Any:
    nn, init = T.nn, T.nn.init

    class Net(nn.Module):
        def __init__(self, upscale_factor: int) -> None:
            super().__init__()
            self.relu = nn.ReLU()
            self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
            self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
            self.conv3 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
            self.conv4 = nn.Conv2d(4, upscale_factor**2, (3, 3), (1, 1), (1, 1))
            self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
            self._initialize_weights()

        def forward(self, x: Any) -> Any:
            x = self.relu(self.conv1(x))
            x = self.relu(self.conv2(x))
            x = self.relu(self.conv3(x))
            x = self.pixel_shuffle(self.conv4(x))
            return x

        def _initialize_weights(self) -> None:
            init.orthogonal_(self.conv1.weight, init.calculate_gain("relu"))
            init.orthogonal_(self.conv2.weight, init.calculate_gain("relu"))
            init.orthogonal_(self.conv3.weight, init.calculate_gain("relu"))
            init.orthogonal_(self.conv4.weight)

    return Net(upscale_factor)


@program()
def prog_pex_super_resolution_train_psnr(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(15)
    model = _sr_net(T, 2)
    criterion = nn.MSELoss()
    optimizer = T.optim.Adam(model.parameters(), lr=0.01)
    log = []
    for it in range(3):
        input = T.rand(2, 1, 4, 4)
        target = T.rand(2, 1, 8, 8)
        optimizer.zero_grad()
        loss = criterion(model(input), target)
        loss.backward()
        optimizer.step()
        log.append("===> Epoch[{}]({}/{}): Loss: {:.4f}".format(1, it, 3, loss.item()))
    avg_psnr = 0
    with T.no_grad():
        prediction = model(input)
        mse = criterion(prediction, target)
        psnr = 10 * math.log10(1 / mse.item())
        avg_psnr += psnr
    return log, "===> Avg. PSNR: {:.4f} dB".format(avg_psnr), prediction, _grads(model)


@program()
def prog_pex_super_resolution_pixel_shuffle_variants(T: Any) -> Any:
    nn, F = T.nn, T.nn.functional
    x = _t(T, 2, 9, 2, 3, seed=4, rg=True)
    ps = nn.PixelShuffle(3)
    y = ps(x)
    un = nn.PixelUnshuffle(3)(y)
    (y.sin().sum() + un.pow(2).sum()).backward()
    xt = _t(T, 2, 3, 2, 4, seed=5).transpose(1, 3)  # non-contiguous (2, 4, 2, 3)
    return (
        y,
        un,
        y.grad_fn,
        x.grad,
        F.pixel_shuffle(xt, 2),
        F.pixel_shuffle(T.arange(16).view(1, 4, 2, 2), 2),
        F.pixel_shuffle(T.empty(0, 4, 2, 2), 2).shape,
        raises(lambda: F.pixel_shuffle(T.ones(1, 3, 2, 2), 2)),
        raises(lambda: F.pixel_shuffle(T.ones(4, 2), 2)),
        raises(lambda: F.pixel_unshuffle(T.ones(1, 1, 3, 4), 2)),
        raises(lambda: F.pixel_shuffle(T.ones(1, 4, 2, 2), 0)),
        repr(ps),
    )


# --- fast_neural_style ---------------------------------------------------------------------


def _gram_matrix(y: Any) -> Any:
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram


def _normalize_batch(batch: Any) -> Any:
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


def _transformer_net(T: Any, c: int = 4, n_res: int = 1) -> Any:
    nn = T.nn

    class ConvLayer(nn.Module):
        def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int):
            super().__init__()
            reflection_padding = kernel_size // 2
            self.reflection_pad = nn.ReflectionPad2d(reflection_padding)
            self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

        def forward(self, x: Any) -> Any:
            out = self.reflection_pad(x)
            out = self.conv2d(out)
            return out

    class ResidualBlock(nn.Module):
        def __init__(self, channels: int) -> None:
            super().__init__()
            self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
            self.in1 = nn.InstanceNorm2d(channels, affine=True)
            self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
            self.in2 = nn.InstanceNorm2d(channels, affine=True)
            self.relu = nn.ReLU()

        def forward(self, x: Any) -> Any:
            residual = x
            out = self.relu(self.in1(self.conv1(x)))
            out = self.in2(self.conv2(out))
            out = out + residual
            return out

    class UpsampleConvLayer(nn.Module):
        def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
            super().__init__()
            self.upsample = upsample
            reflection_padding = kernel_size // 2
            self.reflection_pad = nn.ReflectionPad2d(reflection_padding)
            self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

        def forward(self, x: Any) -> Any:
            x_in = x
            if self.upsample:
                x_in = T.nn.functional.interpolate(x_in, mode="nearest", scale_factor=self.upsample)
            out = self.reflection_pad(x_in)
            out = self.conv2d(out)
            return out

    class TransformerNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = ConvLayer(3, c, kernel_size=5, stride=1)
            self.in1 = nn.InstanceNorm2d(c, affine=True)
            self.conv2 = ConvLayer(c, 2 * c, kernel_size=3, stride=2)
            self.in2 = nn.InstanceNorm2d(2 * c, affine=True)
            self.res = nn.Sequential(*[ResidualBlock(2 * c) for _ in range(n_res)])
            self.deconv1 = UpsampleConvLayer(2 * c, c, kernel_size=3, stride=1, upsample=2)
            self.in4 = nn.InstanceNorm2d(c, affine=True)
            self.deconv3 = ConvLayer(c, 3, kernel_size=5, stride=1)
            self.relu = nn.ReLU()

        def forward(self, X: Any) -> Any:
            y = self.relu(self.in1(self.conv1(X)))
            y = self.relu(self.in2(self.conv2(y)))
            y = self.res(y)
            y = self.relu(self.in4(self.deconv1(y)))
            y = self.deconv3(y)
            return y

    return TransformerNet()


@program()
def prog_pex_fast_neural_style_train(T: Any) -> Any:
    T.manual_seed(16)
    transformer = _transformer_net(T)
    vgg = T.nn.Sequential(
        T.nn.Conv2d(3, 4, 3, padding=1), T.nn.ReLU(inplace=True), T.nn.Conv2d(4, 4, 3, padding=1)
    )
    for p in vgg.parameters():
        p.requires_grad_(False)
    optimizer = T.optim.Adam(transformer.parameters(), 1e-3)
    mse_loss = T.nn.MSELoss()
    style = T.rand(1, 3, 8, 8) * 255
    style = style.repeat(2, 1, 1, 1)
    features_style = [vgg(_normalize_batch(style))]
    gram_style = [_gram_matrix(y) for y in features_style]
    log = []
    for batch_id in range(2):
        x = T.rand(2, 3, 8, 8) * 255
        n_batch = len(x)
        optimizer.zero_grad()
        y = transformer(x)
        y = _normalize_batch(y)
        x = _normalize_batch(x)
        features_y = [vgg(y)]
        features_x = [vgg(x)]
        content_loss = 1e5 * mse_loss(features_y[0], features_x[0])
        style_loss = 0.0
        for ft_y, gm_s in zip(features_y, gram_style, strict=True):
            gm_y = _gram_matrix(ft_y)
            style_loss += mse_loss(gm_y, gm_s[:n_batch, :, :])
        style_loss *= 1e10
        total_loss = content_loss + style_loss
        total_loss.backward()
        optimizer.step()
        log.append(
            "{}\tcontent: {:.5g}\tstyle: {:.5g}\ttotal: {:.5g}".format(
                batch_id, content_loss.item(), style_loss.item(), total_loss.item()
            )
        )
    return log, gram_style[0], style_loss.grad_fn, transformer.in1.weight.grad


@program()
def prog_pex_fast_neural_style_stylize_and_save(T: Any) -> Any:
    T.manual_seed(17)
    style_model = _transformer_net(T)
    state_dict = _ckpt(T, style_model.state_dict())
    # remove saved deprecated running_* keys in InstanceNorm from the checkpoint
    for k in list(state_dict.keys()):
        if k.endswith(("running_mean", "running_var")):
            del state_dict[k]
    T.manual_seed(18)
    style_model2 = _transformer_net(T)
    res = style_model2.load_state_dict(state_dict)
    content_image = T.rand(3, 6, 6) * 255
    content_image = content_image.unsqueeze(0)
    with T.no_grad():
        output = style_model2(content_image).cpu()
    img = output[0].clone().clamp(0, 255).numpy()
    img = img.transpose(1, 2, 0).astype("uint8")
    return str(res), sorted(state_dict.keys()), output, img


@program()
def prog_pex_instance_norm_and_reflection_pad_edges(T: Any) -> Any:
    nn = T.nn
    x = _t(T, 2, 3, 4, 5, seed=6, rg=True)
    inorm = nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
    y = inorm(x)
    pad = nn.ReflectionPad2d((1, 2, 3, 0))
    z = pad(y)
    z.pow(2).sum().backward()
    inorm.eval()
    return (
        y,
        z,
        z.grad_fn,
        x.grad,
        inorm.running_mean,
        inorm.running_var,
        inorm(x),
        raises(lambda: nn.ReflectionPad2d(4)(T.ones(1, 1, 3, 3))),
        nn.ReflectionPad2d(2)(T.arange(9.0).view(1, 3, 3)),
        raises(lambda: nn.InstanceNorm2d(3)(T.ones(1, 3, 1, 1))),
        nn.InstanceNorm2d(3)(T.ones(3, 2, 2)),
        repr(inorm),
        repr(pad),
    )


# --- word_language_model -------------------------------------------------------------------


def _rnn_model(
    T: Any,
    rnn_type: str,
    ntoken: int = 12,
    ninp: int = 6,
    nhid: int = 6,
    nlayers: int = 2,
    dropout: float = 0.2,
    tie_weights: bool = False,
) -> Any:
    nn, F = T.nn, T.nn.functional

    class RNNModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ntoken = ntoken
            self.drop = nn.Dropout(dropout)
            self.encoder = nn.Embedding(ntoken, ninp)
            if rnn_type in ["LSTM", "GRU"]:
                self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
            else:
                nonlinearity = {"RNN_TANH": "tanh", "RNN_RELU": "relu"}[rnn_type]
                self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
            self.decoder = nn.Linear(nhid, ntoken)
            if tie_weights:
                if nhid != ninp:
                    raise ValueError("When using the tied flag, nhid must be equal to emsize")
                self.decoder.weight = self.encoder.weight
            self.init_weights()
            self.rnn_type = rnn_type
            self.nhid = nhid
            self.nlayers = nlayers

        def init_weights(self) -> None:
            initrange = 0.1
            nn.init.uniform_(self.encoder.weight, -initrange, initrange)
            nn.init.zeros_(self.decoder.bias)
            nn.init.uniform_(self.decoder.weight, -initrange, initrange)

        def forward(self, input: Any, hidden: Any) -> Any:
            emb = self.drop(self.encoder(input))
            output, hidden = self.rnn(emb, hidden)
            output = self.drop(output)
            decoded = self.decoder(output)
            decoded = decoded.view(-1, self.ntoken)
            return F.log_softmax(decoded, dim=1), hidden

        def init_hidden(self, bsz: int) -> Any:
            weight = next(self.parameters())
            if self.rnn_type == "LSTM":
                return (
                    weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid),
                )
            else:
                return weight.new_zeros(self.nlayers, bsz, self.nhid)

    return RNNModel()


def _batchify(data: Any, bsz: int) -> Any:
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data


def _get_batch(source: Any, i: int, bptt: int = 3) -> Any:
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].view(-1)
    return data, target


def _repackage_hidden(T: Any, h: Any) -> Any:
    if isinstance(h, T.Tensor):
        return h.detach()
    else:
        return tuple(_repackage_hidden(T, v) for v in h)


def _corpus(T: Any, n: int = 27, ntoken: int = 12, seed: int = 0) -> Any:
    ids = np.random.default_rng(seed).integers(0, ntoken, n)
    return T.tensor(ids).type(T.int64)


def _wlm_train(T: Any, rnn_type: str, tied: bool = False, clip: float = 0.25) -> Any:
    T.manual_seed(20)
    ntokens = 12
    model = _rnn_model(T, rnn_type, ntoken=ntokens, tie_weights=tied)
    criterion = T.nn.NLLLoss()
    train_data = _batchify(_corpus(T), 4)
    lr = 20.0
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(4)
    log = []
    for batch, i in enumerate(range(0, train_data.size(0) - 1, 3)):
        data, targets = _get_batch(train_data, i)
        model.zero_grad()
        hidden = _repackage_hidden(T, hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        norm = T.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
        log.append(
            "| {:5d}/{:5d} batches | lr {:02.2f} | loss {:5.2f} | ppl {:8.2f}".format(
                batch, len(train_data) // 3, lr, loss.item(), math.exp(loss.item())
            )
        )
        log.append(norm)
    return log, total_loss, hidden, model.state_dict()


@program()
def prog_pex_wlm_train_lstm(T: Any) -> Any:
    return _wlm_train(T, "LSTM")


@program()
def prog_pex_wlm_train_gru_tied(T: Any) -> Any:
    return _wlm_train(T, "GRU", tied=True)


@program()
def prog_pex_wlm_train_rnn_tanh(T: Any) -> Any:
    return _wlm_train(T, "RNN_TANH", clip=0.5)


@program()
def prog_pex_wlm_train_rnn_relu_tied(T: Any) -> Any:
    return _wlm_train(T, "RNN_RELU", tied=True, clip=1e-3)


@program()
def prog_pex_wlm_evaluate_and_generate(T: Any) -> Any:
    T.manual_seed(21)
    ntokens = 12
    model = _rnn_model(T, "LSTM", ntoken=ntokens)
    criterion = T.nn.NLLLoss()
    data_source = _batchify(_corpus(T, 20, seed=3), 2)
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(2)
    with T.no_grad():
        for i in range(0, data_source.size(0) - 1, 3):
            data, targets = _get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = _repackage_hidden(T, hidden)
            total_loss += len(data) * criterion(output, targets).item()
    val_loss = total_loss / (len(data_source) - 1)
    # generate.py
    hidden = model.init_hidden(1)
    input = T.randint(ntokens, (1, 1), dtype=T.long)
    words = []
    with T.no_grad():
        for _ in range(6):
            output, hidden = model(input, hidden)
            word_weights = output.squeeze().div(0.9).exp().cpu()
            word_idx = T.multinomial(word_weights, 1)[0]
            input.fill_(word_idx)
            words.append(word_idx.item())
    return val_loss, "valid ppl {:8.2f}".format(math.exp(val_loss)), words, hidden, data_source


@program()
def prog_pex_wlm_batchify_get_batch_edges(T: Any) -> Any:
    data = T.arange(23)
    b = _batchify(data, 5)
    batches = [_get_batch(b, i, bptt=2) for i in range(0, b.size(0) - 1, 2)]
    return (
        b,
        b.is_contiguous(),
        batches,
        _batchify(T.arange(3), 5),
        raises(lambda: _batchify(T.arange(3), 0)),
        _repackage_hidden(T, (T.ones(2, requires_grad=True) * 2, T.zeros(1))),
    )


@program()
def prog_pex_wlm_tied_weights_errors_and_sharing(T: Any) -> Any:
    T.manual_seed(22)
    model = _rnn_model(T, "GRU", tie_weights=True)
    sd = model.state_dict()
    params = list(model.parameters())
    named = [n for n, _ in model.named_parameters()]
    err = raises(lambda: _rnn_model(T, "LSTM", ninp=4, nhid=6, tie_weights=True))
    return (
        list(sd.keys()),
        len(params),
        named,
        model.decoder.weight is model.encoder.weight,
        err,
        raises(lambda: _rnn_model(T, "RNN_SIGMOID")),
    )


def _transformer_model(
    T: Any,
    ntoken: int = 12,
    ninp: int = 8,
    nhead: int = 2,
    nhid: int = 10,
    nlayers: int = 2,
    dropout: float = 0.2,
) -> Any:
    nn, F = T.nn, T.nn.functional

    class PositionalEncoding(nn.Module):
        def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 50) -> None:
            super().__init__()
            self.dropout = nn.Dropout(p=dropout)
            pe = T.zeros(max_len, d_model)
            position = T.arange(0, max_len, dtype=T.float).unsqueeze(1)
            div_term = T.exp(T.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
            pe[:, 0::2] = T.sin(position * div_term)
            pe[:, 1::2] = T.cos(position * div_term)
            pe = pe.unsqueeze(0).transpose(0, 1)
            self.register_buffer("pe", pe)

        def forward(self, x: Any) -> Any:
            x = x + self.pe[: x.size(0), :]
            return self.dropout(x)

    class TransformerModel(nn.Transformer):
        def __init__(self) -> None:
            super().__init__(
                d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers
            )
            self.model_type = "Transformer"
            self.src_mask = None
            self.pos_encoder = PositionalEncoding(ninp, dropout)
            self.input_emb = nn.Embedding(ntoken, ninp)
            self.ninp = ninp
            self.decoder = nn.Linear(ninp, ntoken)
            self.init_weights()

        def _generate_square_subsequent_mask(self, sz: int) -> Any:
            return T.log(T.tril(T.ones(sz, sz)))

        def init_weights(self) -> None:
            initrange = 0.1
            nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
            nn.init.zeros_(self.decoder.bias)
            nn.init.uniform_(self.decoder.weight, -initrange, initrange)

        def forward(self, src: Any, has_mask: bool = True) -> Any:
            if has_mask:
                device = src.device
                if self.src_mask is None or self.src_mask.size(0) != len(src):
                    mask = self._generate_square_subsequent_mask(len(src)).to(device)
                    self.src_mask = mask
            else:
                self.src_mask = None
            src = self.input_emb(src) * math.sqrt(self.ninp)
            src = self.pos_encoder(src)
            output = self.encoder(src, mask=self.src_mask)
            output = self.decoder(output)
            return F.log_softmax(output, dim=-1)

    return TransformerModel()


@program()
def prog_pex_wlm_transformer_train_eval(T: Any) -> Any:
    T.manual_seed(23)
    ntokens = 12
    model = _transformer_model(T)
    criterion = T.nn.NLLLoss()
    train_data = _batchify(_corpus(T, 26, seed=5), 3)
    lr = 5.0
    model.train()
    log = []
    for i in range(0, train_data.size(0) - 1, 3):
        data, targets = _get_batch(train_data, i)
        model.zero_grad()
        output = model(data)
        output = output.view(-1, ntokens)
        loss = criterion(output, targets)
        loss.backward()
        T.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        log.append(loss.item())
    model.eval()
    with T.no_grad():
        out_mask = model(train_data[:4])
        out_nomask = model(train_data[:4], has_mask=False)
    return log, model.src_mask, out_mask, out_nomask, sorted(model.state_dict().keys())[:8]


@program()
def prog_pex_wlm_transformer_masks(T: Any) -> Any:
    nn = T.nn
    m1 = T.log(T.tril(T.ones(4, 4)))
    m2 = nn.Transformer.generate_square_subsequent_mask(4)
    m3 = T.triu(T.ones(4, 4) * float("-inf"), diagonal=1)
    m4 = T.triu(T.full((3, 3), float("-inf"), dtype=T.float64), diagonal=1)
    return m1, m2, m3, m4, T.equal(m1, m2), T.equal(m2, m3)


# --- time_sequence_prediction --------------------------------------------------------------


def _sequence(T: Any) -> Any:
    nn = T.nn

    class Sequence(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm1 = nn.LSTMCell(1, 5)
            self.lstm2 = nn.LSTMCell(5, 5)
            self.linear = nn.Linear(5, 1)

        def forward(self, input: Any, future: int = 0) -> Any:
            outputs = []
            h_t = T.zeros(input.size(0), 5, dtype=T.double)
            c_t = T.zeros(input.size(0), 5, dtype=T.double)
            h_t2 = T.zeros(input.size(0), 5, dtype=T.double)
            c_t2 = T.zeros(input.size(0), 5, dtype=T.double)
            for input_t in input.split(1, dim=1):
                h_t, c_t = self.lstm1(input_t, (h_t, c_t))
                h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
                output = self.linear(h_t2)
                outputs += [output]
            for _ in range(future):
                h_t, c_t = self.lstm1(output, (h_t, c_t))
                h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
                output = self.linear(h_t2)
                outputs += [output]
            outputs = T.cat(outputs, dim=1)
            return outputs

    return Sequence()


def _sine_data(T: Any) -> Any:
    np.random.seed(2)
    L, N = 12, 4
    x = np.empty((N, L), "int64")
    x[:] = np.array(range(L)) + np.random.randint(-4 * 2, 4 * 2, N).reshape(N, 1)
    data = np.sin(x / 1.0 / 3).astype("float64")
    return T.from_numpy(data)


@program()
def prog_pex_time_sequence_lbfgs(T: Any) -> Any:
    T.manual_seed(24)
    data = _sine_data(T)
    input = data[1:, :-1]
    target = data[1:, 1:]
    test_input = data[:1, :-1]
    test_target = data[:1, 1:]
    seq = _sequence(T)
    seq.double()
    criterion = T.nn.MSELoss()
    optimizer = T.optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
    log = []
    for _i in range(2):

        def closure() -> Any:
            optimizer.zero_grad()
            out = seq(input)
            loss = criterion(out, target)
            log.append("loss: {:.6f}".format(loss.item()))
            loss.backward()
            return loss

        optimizer.step(closure)
        with T.no_grad():
            future = 3
            pred = seq(test_input, future=future)
            loss = criterion(pred[:, :-future], test_target)
            log.append("test loss: {:.6f}".format(loss.item()))
            y = pred.detach().numpy()
    state = optimizer.state_dict()["state"][0]
    return log, y, state["n_iter"], state["func_evals"], state["d"], seq.lstm1.weight_hh


@program()
def prog_pex_time_sequence_adam_float32_mismatch(T: Any) -> Any:
    T.manual_seed(25)
    data = _sine_data(T)
    seq = _sequence(T)  # float32 parameters, float64 hidden state
    err = raises(lambda: seq(data[:2, :4]))
    seq.double()
    opt = T.optim.Adam(seq.parameters(), lr=0.01)
    out = seq(data[:2, :4], future=2)
    loss = T.nn.functional.mse_loss(out[:, :3], data[:2, 1:4])
    loss.backward()
    opt.step()
    return err, out, loss, out.grad_fn, seq.linear.weight.grad, seq.lstm2.bias_ih


# --- siamese_network -----------------------------------------------------------------------


def _siamese(T: Any) -> Any:
    nn = T.nn

    class SiameseNetwork(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1, bias=False),
                nn.BatchNorm2d(4),
                nn.ReLU(inplace=True),
                nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
                nn.AdaptiveAvgPool2d((1, 1)),
            )
            self.fc_in_features = 4
            self.fc = nn.Sequential(
                nn.Linear(self.fc_in_features * 2, 6),
                nn.ReLU(inplace=True),
                nn.Linear(6, 1),
            )
            self.sigmoid = nn.Sigmoid()
            self.fc.apply(self.init_weights)

        def init_weights(self, m: Any) -> None:
            if isinstance(m, nn.Linear):
                T.nn.init.xavier_uniform_(m.weight)
                m.bias.data.fill_(0.01)

        def forward_once(self, x: Any) -> Any:
            output = self.features(x)
            output = output.view(output.size()[0], -1)
            return output

        def forward(self, input1: Any, input2: Any) -> Any:
            output1 = self.forward_once(input1)
            output2 = self.forward_once(input2)
            output = T.cat((output1, output2), 1)
            output = self.fc(output)
            output = self.sigmoid(output)
            return output

    return SiameseNetwork()


@program()
def prog_pex_siamese_train_test(T: Any) -> Any:
    T.manual_seed(30)
    model = _siamese(T)
    optimizer = T.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = T.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    criterion = T.nn.BCELoss()
    log = []
    for _epoch in range(2):
        model.train()
        images_1, images_2 = T.rand(4, 1, 8, 8), T.rand(4, 1, 8, 8)
        targets = T.tensor([1, 0, 1, 0])
        optimizer.zero_grad()
        outputs = model(images_1, images_2).squeeze()
        loss = criterion(outputs, targets.float())
        loss.backward()
        optimizer.step()
        scheduler.step()
        log.append(loss.item())
    model.eval()
    test_loss = 0
    correct = 0
    with T.no_grad():
        outputs = model(images_1, images_2).squeeze()
        test_loss += criterion(outputs, targets.float()).sum().item()
        pred = T.where(outputs > 0.5, 1, 0)
        correct += pred.eq(targets.view_as(pred)).sum().item()
    return log, test_loss, correct, pred, pred.dtype, model.fc[0].bias, outputs


@program()
def prog_pex_siamese_bce_target_dtype_errors(T: Any) -> Any:
    crit = T.nn.BCELoss()
    out = T.rand(4)
    return (
        raises(lambda: crit(out, T.tensor([1, 0, 1, 0]))),
        raises(lambda: crit(out.unsqueeze(1), T.ones(4))),
        raises(lambda: crit(out.double(), T.ones(4))),
        crit(out, T.ones(4).double().float()),
        T.where(out > 0.5, 1, 0).dtype,
        T.where(out > 0.5, 1.0, 0).dtype,
        T.where(out > 0.5, out, 0).dtype,
    )


# --- gcn / gat -----------------------------------------------------------------------------


def _graph(T: Any, n: int = 6) -> Any:
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [1, 4]], dtype=np.int32)
    adj = T.zeros(n, n)
    adj[edges[:, 0], edges[:, 1]] = 1
    adj = T.eye(n) + adj
    return adj


def _gcn(T: Any, input_dim: int, hidden_dim: int, output_dim: int, use_bias: bool) -> Any:
    nn, F = T.nn, T.nn.functional

    class GraphConv(nn.Module):
        def __init__(self, input_dim: int, output_dim: int, use_bias: bool = False) -> None:
            super().__init__()
            self.kernel = nn.Parameter(T.Tensor(input_dim, output_dim))
            nn.init.xavier_normal_(self.kernel)
            self.bias = None
            if use_bias:
                self.bias = nn.Parameter(T.Tensor(output_dim))
                nn.init.zeros_(self.bias)

        def forward(self, input_tensor: Any, adj_mat: Any) -> Any:
            support = T.mm(input_tensor, self.kernel)
            output = T.spmm(adj_mat, support)
            if self.bias is not None:
                output = output + self.bias
            return output

    class GCN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gc1 = GraphConv(input_dim, hidden_dim, use_bias=use_bias)
            self.gc2 = GraphConv(hidden_dim, output_dim, use_bias=use_bias)
            self.dropout = nn.Dropout(0.5)

        def forward(self, input_tensor: Any, adj_mat: Any) -> Any:
            x = self.gc1(input_tensor, adj_mat)
            x = F.relu(x)
            x = self.dropout(x)
            x = self.gc2(x, adj_mat)
            return F.log_softmax(x, dim=1)

    return GCN()


def _graph_test(T: Any, model: Any, criterion: Any, input: Any, target: Any, mask: Any) -> Any:
    model.eval()
    with T.no_grad():
        output = model(*input)
        output, target = output[mask], target[mask]
        loss = criterion(output, target)
        acc = (output.argmax(dim=1) == target).float().sum() / len(target)
    return loss.item(), acc.item()


def _graph_train(T: Any, model: Any, features: Any, adj: Any, epochs: int = 3) -> Any:
    labels = T.tensor([0, 1, 2, 0, 1, 2])
    idx = T.randperm(len(labels))
    idx_val, idx_train = idx[:2], idx[2:]
    optimizer = T.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    criterion = T.nn.NLLLoss()
    log = []
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        output = model(features, adj)
        loss = criterion(output[idx_train], labels[idx_train])
        loss.backward()
        optimizer.step()
        loss_train, acc_train = _graph_test(T, model, criterion, (features, adj), labels, idx_train)
        loss_val, acc_val = _graph_test(T, model, criterion, (features, adj), labels, idx_val)
        log.append(
            f"Epoch: {epoch + 1:04d} loss_train: {loss_train:.4f} acc_train: {acc_train:.4f} "
            f"loss_val: {loss_val:.4f} acc_val: {acc_val:.4f}"
        )
    return log, output, _grads(model)


@program()
def prog_pex_gcn_dense_normalized_adjacency(T: Any) -> Any:
    T.manual_seed(31)
    features = T.rand(6, 5)
    features[2] = 0
    scale_vector = T.sum(features, dim=1)
    scale_vector = 1 / scale_vector
    scale_vector[scale_vector == float("inf")] = 0
    features = T.diag(scale_vector) @ features
    adj_mat = _graph(T)
    degree_mat = T.sum(adj_mat, dim=1)
    degree_mat = T.sqrt(1 / degree_mat)
    degree_mat[degree_mat == float("inf")] = 0
    degree_mat = T.diag(degree_mat)
    adj_mat = degree_mat @ adj_mat @ degree_mat
    model = _gcn(T, 5, 4, 3, use_bias=True)
    return features, adj_mat, _graph_train(T, model, features, adj_mat)


@program()
def prog_pex_gcn_no_bias_spmm(T: Any) -> Any:
    T.manual_seed(32)
    model = _gcn(T, 5, 4, 3, use_bias=False)
    a = _graph(T)
    x = _t(T, 3, 3, seed=1, rg=True)
    y = T.spmm(x, x.t())
    y.sum().backward()
    return (
        _graph_train(T, model, T.rand(6, 5), a, epochs=2),
        model.gc1.bias,
        [n for n, _ in model.named_parameters()],
        y,
        y.grad_fn,
        x.grad,
        raises(lambda: T.spmm(T.ones(2), T.ones(2))),
        raises(lambda: T.spmm(T.ones(2, 2), T.ones(3, 2))),
        T.spmm(input=T.ones(2, 2), mat2=T.ones(2, 1)),
        T.spmm(T.ones(2, 2), T.ones(2, 1), out=T.empty(2, 1)),
        raises(lambda: T.spmm(T.ones(2, 2), other=T.ones(2, 1))),
        raises(lambda: T.spmm(T.ones(2, 2), 2)),
        raises(lambda: T.spmm(T.ones(2, 2), T.ones(2, 1, dtype=T.float64))),
    )


@program()
def prog_pex_gcn_load_cora_sparse(T: Any) -> Any:
    edges = np.array([[0, 1], [1, 2], [2, 0], [3, 1]], dtype=np.int32)
    V, E = 4, edges.shape[0]
    adj_mat = T.sparse_coo_tensor(edges.T, T.ones(E), (V, V), dtype=T.int64)
    adj_mat = T.eye(V) + adj_mat
    degree_mat = T.sum(adj_mat, dim=1)
    degree_mat = T.sqrt(1 / degree_mat)
    degree_mat = T.diag(degree_mat).to_sparse()
    adj_mat = degree_mat @ adj_mat @ degree_mat
    return adj_mat, adj_mat.to_sparse().to_dense()


def _gat(
    T: Any,
    in_features: int,
    n_hidden: int,
    n_heads: int,
    num_classes: int,
    concat: bool = False,
    dropout: float = 0.4,
) -> Any:
    nn, F = T.nn, T.nn.functional

    class GraphAttentionLayer(nn.Module):
        def __init__(
            self,
            in_features: int,
            out_features: int,
            n_heads: int,
            concat: bool = False,
            dropout: float = 0.4,
            leaky_relu_slope: float = 0.2,
        ) -> None:
            super().__init__()
            self.n_heads = n_heads
            self.concat = concat
            self.dropout = dropout
            if concat:
                self.out_features = out_features
                assert out_features % n_heads == 0
                self.n_hidden = out_features // n_heads
            else:
                self.n_hidden = out_features
            self.W = nn.Parameter(T.empty(size=(in_features, self.n_hidden * n_heads)))
            self.a = nn.Parameter(T.empty(size=(n_heads, 2 * self.n_hidden, 1)))
            self.leakyrelu = nn.LeakyReLU(leaky_relu_slope)
            self.softmax = nn.Softmax(dim=1)
            nn.init.xavier_normal_(self.W)
            nn.init.xavier_normal_(self.a)

        def _get_attention_scores(self, h_transformed: Any) -> Any:
            source_scores = T.matmul(h_transformed, self.a[:, : self.n_hidden, :])
            target_scores = T.matmul(h_transformed, self.a[:, self.n_hidden :, :])
            e = source_scores + target_scores.mT
            return self.leakyrelu(e)

        def forward(self, h: Any, adj_mat: Any) -> Any:
            n_nodes = h.shape[0]
            h_transformed = T.mm(h, self.W)
            h_transformed = F.dropout(h_transformed, self.dropout, training=self.training)
            h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(
                1, 0, 2
            )
            e = self._get_attention_scores(h_transformed)
            connectivity_mask = -9e16 * T.ones_like(e)
            e = T.where(adj_mat > 0, e, connectivity_mask)
            attention = F.softmax(e, dim=-1)
            attention = F.dropout(attention, self.dropout, training=self.training)
            h_prime = T.matmul(attention, h_transformed)
            if self.concat:
                h_prime = h_prime.permute(1, 0, 2).contiguous().view(n_nodes, self.out_features)
            else:
                h_prime = h_prime.mean(dim=0)
            return h_prime

    class GAT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gat1 = GraphAttentionLayer(in_features, n_hidden, n_heads, concat, dropout)
            self.gat2 = GraphAttentionLayer(n_hidden, num_classes, 1, False, dropout)

        def forward(self, input_tensor: Any, adj_mat: Any) -> Any:
            x = self.gat1(input_tensor, adj_mat)
            x = F.elu(x)
            x = self.gat2(x, adj_mat)
            return F.log_softmax(x, dim=1)

    return GAT()


@program()
def prog_pex_gat_train_average_heads(T: Any) -> Any:
    T.manual_seed(33)
    model = _gat(T, 5, 4, 2, 3)
    return _graph_train(T, model, T.rand(6, 5), _graph(T))


@program()
def prog_pex_gat_train_concat_heads(T: Any) -> Any:
    T.manual_seed(34)
    model = _gat(T, 5, 4, 2, 3, concat=True, dropout=0.0)
    adj = _graph(T)
    out = _graph_train(T, model, T.rand(6, 5), adj)
    return out, raises(lambda: _gat(T, 5, 3, 2, 3, concat=True))


@program()
def prog_pex_gat_attention_scores_and_masking(T: Any) -> Any:
    T.manual_seed(35)
    model = _gat(T, 4, 4, 2, 2, dropout=0.0)
    layer = model.gat1
    h = _t(T, 5, 4, seed=2, rg=True)
    adj = (T.rand(5, 5) > 0.5).long()
    out = layer(h, adj)
    out.sum().backward()
    hm = T.mm(h, layer.W).view(5, 2, 4).permute(1, 0, 2)
    e = layer._get_attention_scores(hm)
    masked = T.where(adj > 0, e, -9e16 * T.ones_like(e))
    return out, h.grad, layer.a.grad, e.grad_fn, masked.softmax(-1), repr(layer.softmax)


# --- vision_transformer --------------------------------------------------------------------


def _vit(
    T: Any,
    patch_size: int = 2,
    latent_size: int = 8,
    n_channels: int = 3,
    num_heads: int = 2,
    num_encoders: int = 2,
    dropout: float = 0.1,
    num_classes: int = 4,
    batch_size: int = 2,
) -> Any:
    nn = T.nn

    class PatchExtractor(nn.Module):
        def __init__(self, patch_size: int = 16) -> None:
            super().__init__()
            self.patch_size = patch_size

        def forward(self, input_data: Any) -> Any:
            batch_size, _channels, height, width = input_data.size()
            assert height % self.patch_size == 0 and width % self.patch_size == 0
            num_patches_h = height // self.patch_size
            num_patches_w = width // self.patch_size
            num_patches = num_patches_h * num_patches_w
            patches = (
                input_data.unfold(2, self.patch_size, self.patch_size)
                .unfold(3, self.patch_size, self.patch_size)
                .permute(0, 2, 3, 1, 4, 5)
                .contiguous()
                .view(batch_size, num_patches, -1)
            )
            return patches

    class InputEmbedding(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.patch_size = patch_size
            self.device = T.device("cpu")
            self.input_size = patch_size * patch_size * n_channels
            self.LinearProjection = nn.Linear(self.input_size, latent_size)
            self.class_token = nn.Parameter(T.randn(batch_size, 1, latent_size).to(self.device))
            self.pos_embedding = nn.Parameter(T.randn(batch_size, 1, latent_size).to(self.device))

        def forward(self, input_data: Any) -> Any:
            input_data = input_data.to(self.device)
            patchify = PatchExtractor(patch_size=self.patch_size)
            patches = patchify(input_data)
            linear_projection = self.LinearProjection(patches).to(self.device)
            _b, n, _ = linear_projection.shape
            linear_projection = T.cat((self.class_token, linear_projection), dim=1)
            pos_embed = self.pos_embedding[:, : n + 1, :]
            linear_projection += pos_embed
            return linear_projection

    class EncoderBlock(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm = nn.LayerNorm(latent_size)
            self.attention = nn.MultiheadAttention(latent_size, num_heads, dropout=dropout)
            self.enc_MLP = nn.Sequential(
                nn.Linear(latent_size, latent_size * 4),
                nn.GELU(),
                nn.Dropout(dropout),
                nn.Linear(latent_size * 4, latent_size),
                nn.Dropout(dropout),
            )

        def forward(self, emb_patches: Any) -> Any:
            first_norm = self.norm(emb_patches)
            attention_out = self.attention(first_norm, first_norm, first_norm)[0]
            first_added = attention_out + emb_patches
            second_norm = self.norm(first_added)
            mlp_out = self.enc_MLP(second_norm)
            output = mlp_out + first_added
            return output

    class ViT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embedding = InputEmbedding()
            self.encoders = nn.ModuleList([EncoderBlock() for _ in range(num_encoders)])
            self.MLPHead = nn.Sequential(
                nn.LayerNorm(latent_size),
                nn.Linear(latent_size, latent_size),
                nn.Linear(latent_size, num_classes),
            )

        def forward(self, test_input: Any) -> Any:
            enc_output = self.embedding(test_input)
            for enc_layer in self.encoders:
                enc_output = enc_layer(enc_output)
            class_token_embed = enc_output[:, 0]
            return self.MLPHead(class_token_embed)

    return ViT(), PatchExtractor


@program()
def prog_pex_vit_train_eval(T: Any) -> Any:
    T.manual_seed(40)
    model, _ = _vit(T)
    optimizer = T.optim.Adam(model.parameters(), lr=1e-2, weight_decay=3e-2)
    criterion = T.nn.CrossEntropyLoss()
    model.train()
    total_loss = 0.0
    post = []
    for t in range(2):
        images = T.rand(2, 3, 4, 4)
        labels = T.tensor([t, 3])
        optimizer.zero_grad()
        logits = model(images)
        loss = criterion(logits, labels)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        post.append({"Loss": "%6f" % float(total_loss / (t + 1))})
    model.eval()
    with T.no_grad():
        logits = model(images)
        val_loss = criterion(logits, labels).item()
    best_valid_loss = np.inf
    saved = None
    if val_loss < best_valid_loss:
        saved = _ckpt(T, model.state_dict())
    return post, val_loss, logits, sorted(saved.keys()), model.embedding.class_token.grad


@program()
def prog_pex_vit_patch_extractor_unfold(T: Any) -> Any:
    _, PatchExtractor = _vit(T)
    x = _t(T, 2, 3, 4, 6, seed=7, rg=True)
    patches = PatchExtractor(patch_size=2)(x)
    u = x.unfold(2, 2, 2)
    (patches * T.arange(patches.numel()).view_as(patches)).sum().backward()
    return (
        patches,
        u.shape,
        u.stride(),
        u.is_contiguous(),
        u.grad_fn,
        patches.grad_fn,
        x.grad,
        x.unfold(3, 4, 1).shape,
        raises(lambda: x.unfold(2, 5, 1)),
        raises(lambda: x.unfold(2, 2, 0)),
        raises(lambda: PatchExtractor(patch_size=3)(x)),
        T.arange(5.0).unfold(0, 2, 2),
        T.tensor(3.0).unfold(0, 1, 1),
    )


@program()
def prog_pex_vit_batch_size_mismatch_class_token(T: Any) -> Any:
    T.manual_seed(41)
    model, _ = _vit(T, batch_size=2, dropout=0.0)
    model.eval()
    return raises(lambda: model(T.rand(3, 3, 4, 4))), model(T.rand(2, 3, 4, 4)).shape


@program()
def prog_pex_vit_multihead_attention_options(T: Any) -> Any:
    T.manual_seed(42)
    mha = T.nn.MultiheadAttention(8, 2, dropout=0.0)
    q = _t(T, 3, 2, 8, seed=1, rg=True)
    out, w = mha(q, q, q)
    _, w2 = mha(q, q, q, average_attn_weights=False)
    _, w3 = mha(q, q, q, need_weights=False)
    mask = T.triu(T.ones(3, 3, dtype=T.bool), diagonal=1)
    out4, w4 = mha(q, q, q, attn_mask=mask)
    kpm = T.tensor([[False, False, True], [False, True, True]])
    out5, w5 = mha(q, q, q, key_padding_mask=kpm)
    (out.sum() + out4.sum() + out5.sum()).backward()
    return (
        out,
        w,
        w2.shape,
        w3,
        out4,
        w4,
        out5,
        w5,
        out.grad_fn,
        q.grad,
        mha.in_proj_weight.grad,
        raises(lambda: T.nn.MultiheadAttention(7, 2)),
        raises(lambda: mha(q, q[:, :1], q)),
    )


# --- language_translation ------------------------------------------------------------------


def _translator(
    T: Any,
    src_vocab: int = 10,
    tgt_vocab: int = 11,
    emb: int = 8,
    heads: int = 2,
    ff: int = 12,
    dropout: float = 0.1,
) -> Any:
    nn = T.nn

    class PositionalEncoding(nn.Module):
        def __init__(self, emb_size: int, dropout: float, maxlen: int = 50) -> None:
            super().__init__()
            den = T.exp(-T.arange(0, emb_size, 2) * math.log(10000) / emb_size)
            pos = T.arange(0, maxlen).reshape(maxlen, 1)
            pos_embedding = T.zeros((maxlen, emb_size))
            pos_embedding[:, 0::2] = T.sin(pos * den)
            pos_embedding[:, 1::2] = T.cos(pos * den)
            pos_embedding = pos_embedding.unsqueeze(-2)
            self.dropout = nn.Dropout(dropout)
            self.register_buffer("pos_embedding", pos_embedding)

        def forward(self, token_embedding: Any) -> Any:
            return self.dropout(token_embedding + self.pos_embedding[: token_embedding.size(0), :])

    class Translator(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.src_embedding = nn.Embedding(src_vocab, emb)
            self.tgt_embedding = nn.Embedding(tgt_vocab, emb)
            self.pos_enc = PositionalEncoding(emb, dropout)
            self.transformer = nn.Transformer(
                d_model=emb,
                nhead=heads,
                num_encoder_layers=1,
                num_decoder_layers=1,
                dim_feedforward=ff,
                dropout=dropout,
            )
            self.ff = nn.Linear(emb, tgt_vocab)

        def forward(
            self,
            src,
            trg,
            src_mask,
            tgt_mask,
            src_padding_mask,
            tgt_padding_mask,
            memory_key_padding_mask,
        ):
            src_emb = self.pos_enc(self.src_embedding(src))
            tgt_emb = self.pos_enc(self.tgt_embedding(trg))
            outs = self.transformer(
                src_emb,
                tgt_emb,
                src_mask,
                tgt_mask,
                None,
                src_padding_mask,
                tgt_padding_mask,
                memory_key_padding_mask,
            )
            return self.ff(outs)

        def encode(self, src: Any, src_mask: Any) -> Any:
            return self.transformer.encoder(self.pos_enc(self.src_embedding(src)), src_mask)

        def decode(self, tgt: Any, memory: Any, tgt_mask: Any) -> Any:
            return self.transformer.decoder(self.pos_enc(self.tgt_embedding(tgt)), memory, tgt_mask)

    return Translator()


PAD_IDX, BOS_IDX, EOS_IDX = 1, 2, 3


def _square_subsequent_mask(T: Any, sz: int) -> Any:
    mask = (T.triu(T.ones((sz, sz))) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, 0.0)
    return mask


def _create_mask(T: Any, src: Any, tgt: Any) -> Any:
    src_seq_len = src.shape[0]
    tgt_seq_len = tgt.shape[0]
    tgt_mask = _square_subsequent_mask(T, tgt_seq_len)
    src_mask = T.zeros((src_seq_len, src_seq_len)).type(T.bool)
    src_padding_mask = (src == PAD_IDX).transpose(0, 1)
    tgt_padding_mask = (tgt == PAD_IDX).transpose(0, 1)
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask


def _translation_batch(T: Any) -> Any:
    src = T.tensor(
        [[BOS_IDX, BOS_IDX, BOS_IDX], [5, 6, 7], [8, 4, EOS_IDX], [EOS_IDX, EOS_IDX, PAD_IDX]]
    )
    tgt = T.tensor(
        [
            [BOS_IDX, BOS_IDX, BOS_IDX],
            [9, 4, 5],
            [EOS_IDX, 6, EOS_IDX],
            [PAD_IDX, EOS_IDX, PAD_IDX],
            [PAD_IDX, PAD_IDX, PAD_IDX],
        ]
    )
    return src, tgt


@program()
def prog_pex_translation_train_step(T: Any) -> Any:
    T.manual_seed(43)
    model = _translator(T)
    for p in model.parameters():
        if p.dim() > 1:
            T.nn.init.xavier_uniform_(p)
    optim = T.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    loss_fn = T.nn.CrossEntropyLoss(ignore_index=PAD_IDX)
    src, tgt = _translation_batch(T)
    model.train()
    losses = []
    for _ in range(2):
        tgt_input = tgt[:-1, :]
        src_mask, tgt_mask, src_padding_mask, tgt_padding_mask = _create_mask(T, src, tgt_input)
        logits = model(
            src, tgt_input, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, src_padding_mask
        )
        optim.zero_grad()
        tgt_out = tgt[1:, :]
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        loss.backward()
        optim.step()
        losses.append(loss.item())
    return losses, logits, tgt_mask, src_padding_mask, model.ff.weight.grad


@program()
def prog_pex_translation_eval_and_greedy_decode(T: Any) -> Any:
    T.manual_seed(44)
    model = _translator(T, dropout=0.0)
    model.eval()
    loss_fn = T.nn.CrossEntropyLoss(ignore_index=PAD_IDX)
    src, tgt = _translation_batch(T)
    with T.no_grad():
        tgt_input = tgt[:-1, :]
        masks = _create_mask(T, src, tgt_input)
        logits = model(src, tgt_input, *masks, masks[2])
        val_loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt[1:, :].reshape(-1)).item()
        s = src[:, :1]
        num_tokens = s.shape[0]
        src_mask = T.zeros(num_tokens, num_tokens).type(T.bool)
        memory = model.encode(s, src_mask)
        ys = T.ones(1, 1).fill_(BOS_IDX).type(T.long)
        for _ in range(4):
            tgt_mask = _square_subsequent_mask(T, ys.size(0)).type(T.bool)
            out = model.decode(ys, memory, tgt_mask)
            out = out.transpose(0, 1)
            prob = model.ff(out[:, -1])
            _, next_word = T.max(prob, dim=1)
            next_word = next_word.item()
            ys = T.cat([ys, T.ones(1, 1).type_as(s.data).fill_(next_word)], dim=0)
            if next_word == EOS_IDX:
                break
    return val_loss, memory, ys, ys.dtype


@program()
def prog_pex_translation_mask_helpers(T: Any) -> Any:
    src, tgt = _translation_batch(T)
    m = _square_subsequent_mask(T, 4)
    return (
        m,
        m.type(T.bool),
        _create_mask(T, src, tgt[:-1]),
        T.nn.Transformer.generate_square_subsequent_mask(3, dtype=T.float64),
        T.equal(m, T.nn.Transformer.generate_square_subsequent_mask(4)),
    )


@program()
def prog_pex_translation_ignore_index_all_padding(T: Any) -> Any:
    loss_fn = T.nn.CrossEntropyLoss(ignore_index=PAD_IDX)
    logits = _t(T, 4, 5, seed=3, rg=True)
    loss = loss_fn(logits, T.full((4,), PAD_IDX))
    loss.backward()
    loss2 = T.nn.CrossEntropyLoss(ignore_index=PAD_IDX, label_smoothing=0.1)(
        logits, T.tensor([0, PAD_IDX, 2, 4])
    )
    return (
        loss,
        logits.grad,
        loss2,
        loss2.grad_fn,
        raises(lambda: loss_fn(logits, T.tensor([0, 1, 2, 5]))),
    )


# --- reinforcement_learning ----------------------------------------------------------------


def _env_states(n: int, seed: int = 0) -> list[np.ndarray]:
    return list(np.random.default_rng(seed).standard_normal((n, 4)))  # float64, as gym's


def _reinforce_policy(T: Any) -> Any:
    nn, F = T.nn, T.nn.functional

    class Policy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.affine1 = nn.Linear(4, 8)
            self.dropout = nn.Dropout(p=0.6)
            self.affine2 = nn.Linear(8, 2)
            self.saved_log_probs = []
            self.rewards = []

        def forward(self, x: Any) -> Any:
            x = self.affine1(x)
            x = self.dropout(x)
            x = F.relu(x)
            action_scores = self.affine2(x)
            return F.softmax(action_scores, dim=1)

    return Policy()


@program()
def prog_pex_reinforce_episode(T: Any) -> Any:
    Categorical = T.distributions.Categorical
    T.manual_seed(50)
    policy = _reinforce_policy(T)
    optimizer = T.optim.Adam(policy.parameters(), lr=1e-2)
    eps = np.finfo(np.float32).eps.item()
    gamma = 0.99
    log = []
    for i_episode in range(2):
        for t, state in enumerate(_env_states(5, seed=i_episode)):
            state = T.from_numpy(state).float().unsqueeze(0)
            probs = policy(state)
            m = Categorical(probs)
            action = m.sample()
            policy.saved_log_probs.append(m.log_prob(action))
            reward = 1.0 if action.item() == t % 2 else 0.0
            policy.rewards.append(reward)
        R = 0
        policy_loss = []
        returns = collections.deque()
        for r in policy.rewards[::-1]:
            R = r + gamma * R
            returns.appendleft(R)
        returns = T.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + eps)
        for log_prob, R in zip(policy.saved_log_probs, returns, strict=True):
            policy_loss.append(-log_prob * R)
        optimizer.zero_grad()
        policy_loss = T.cat(policy_loss).sum()
        policy_loss.backward()
        optimizer.step()
        log.append((returns, policy_loss.item(), policy_loss.grad_fn, policy.saved_log_probs[0]))
        del policy.rewards[:]
        del policy.saved_log_probs[:]
    return log, _grads(policy)


@program()
def prog_pex_reinforce_returns_normalisation_edges(T: Any) -> Any:
    eps = np.finfo(np.float32).eps.item()
    one = T.tensor(collections.deque([1.0]))
    same = T.tensor([2.0, 2.0, 2.0])
    return (
        one,
        (one - one.mean()) / (one.std() + eps),
        (same - same.mean()) / (same.std() + eps),
        T.tensor(collections.deque([1, 2])).dtype,
        T.tensor(collections.deque([np.float64(0.5), 1])).dtype,
        T.tensor([]).std(),
    )


def _actor_critic(T: Any) -> Any:
    nn, F = T.nn, T.nn.functional

    class Policy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.affine1 = nn.Linear(4, 8)
            self.action_head = nn.Linear(8, 2)
            self.value_head = nn.Linear(8, 1)
            self.saved_actions = []
            self.rewards = []

        def forward(self, x: Any) -> Any:
            x = F.relu(self.affine1(x))
            action_prob = F.softmax(self.action_head(x), dim=-1)
            state_values = self.value_head(x)
            return action_prob, state_values

    return Policy()


@program()
def prog_pex_actor_critic_episode(T: Any) -> Any:
    F = T.nn.functional
    SavedAction = collections.namedtuple("SavedAction", ["log_prob", "value"])
    T.manual_seed(51)
    model = _actor_critic(T)
    optimizer = T.optim.Adam(model.parameters(), lr=3e-2)
    eps = np.finfo(np.float32).eps.item()
    log = []
    for ep in range(2):
        for t, state in enumerate(_env_states(4, seed=10 + ep)):
            state = T.from_numpy(state).float()
            probs, state_value = model(state)
            m = T.distributions.Categorical(probs)
            action = m.sample()
            model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
            model.rewards.append(float(action.item() == t % 2))
        R = 0
        saved_actions = model.saved_actions
        policy_losses = []
        value_losses = []
        returns = []
        for r in model.rewards[::-1]:
            R = r + 0.99 * R
            returns.insert(0, R)
        returns = T.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + eps)
        for (log_prob, value), R in zip(saved_actions, returns, strict=True):
            advantage = R - value.item()
            policy_losses.append(-log_prob * advantage)
            value_losses.append(F.smooth_l1_loss(value, T.tensor([R])))
        optimizer.zero_grad()
        loss = T.stack(policy_losses).sum() + T.stack(value_losses).sum()
        loss.backward()
        optimizer.step()
        log.append((loss, loss.grad_fn, value_losses[0].grad_fn, policy_losses[0].grad_fn))
        del model.rewards[:]
        del model.saved_actions[:]
    return log, model.state_dict(), _grads(model)


@program()
def prog_pex_actor_critic_smooth_l1_shape_warning(T: Any) -> Any:
    F = T.nn.functional
    value = _t(T, 1, seed=4, rg=True)
    R = T.tensor(0.7)
    a = F.smooth_l1_loss(value, T.tensor([R]))
    b = F.smooth_l1_loss(value.view(1, 1), R.view(1))
    c = F.smooth_l1_loss(value, R.view(1), beta=0.0)
    d = F.smooth_l1_loss(value, R.view(1), beta=2.0, reduction="none")
    (a + b + c + d.sum()).backward()
    return a, b, c, d, value.grad, b.grad_fn, raises(lambda: F.smooth_l1_loss(value, R, beta=-1.0))


@program()
def prog_pex_categorical_sample_log_prob_entropy(T: Any) -> Any:
    Categorical = T.distributions.Categorical
    T.manual_seed(52)
    probs = T.softmax(_t(T, 3, 4, seed=5, rg=True), dim=1)
    m = Categorical(probs)
    a = m.sample()
    lp = m.log_prob(a)
    ent = m.entropy()
    (lp.sum() + ent.sum()).backward()
    m2 = Categorical(logits=T.tensor([0.0, float("-inf"), 1.0]))
    return (
        a,
        lp,
        ent,
        lp.grad_fn,
        m.probs,
        m.logits,
        m.batch_shape,
        m.event_shape,
        m.sample((2,)),
        m2.sample((5,)),
        m2.log_prob(T.tensor(1)),
        m2.entropy(),
        raises(lambda: m.log_prob(T.tensor([4, 0, 0]))),
        raises(lambda: Categorical(T.tensor([0.5, -0.1]))),
        Categorical(T.tensor([2.0, 2.0])).probs,
        repr(m),
    )


@program()
def prog_pex_tensor_from_deque_and_other_sequences(T: Any) -> Any:
    import array

    dq = collections.deque
    return (
        T.tensor(dq([1.0, 2])),
        T.tensor([dq([1, 2]), (3, 4)]),
        T.tensor(array.array("d", [1.5, 2.0])),
        T.tensor(array.array("i", [1, 2])),
        T.tensor(dq()),
        T.tensor(dq([True, False])),
        T.tensor(dq([T.tensor(1.5), 2])),
        T.tensor(dq([1, 2]), dtype=T.float64, requires_grad=True),
        raises(lambda: T.tensor(dq(["a"]))),
        raises(lambda: T.tensor([dq([1]), [1, 2]])),
        raises(lambda: T.tensor(dq([1.5]), dtype=T.int64)),
        raises(lambda: T.tensor(dq([1]), requires_grad=True)),
    )


class _SeqLike:  # a class with __len__ and __getitem__: a sequence to torch.tensor
    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> float:
        return [1.5, 2.0][i]


class _NoLen:
    def __getitem__(self, i: int) -> int:
        return [1, 2][i]


class _Keys(collections.abc.Mapping):  # read through iteration, as PySequence_Fast reads it
    def __getitem__(self, k: Any) -> int:
        return 5

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Any:
        return iter([0])


@program()
def prog_pex_tensor_from_sequence_protocol_and_type_names(T: Any) -> Any:
    import array
    import functools

    dq = collections.deque
    return (
        T.tensor(_SeqLike()),
        T.tensor([_SeqLike(), (3, 4)]),
        T.tensor(bytearray(b"ab")),
        T.tensor([bytearray(b"a"), [1]]),
        T.tensor(_Keys()),
        raises(lambda: T.tensor(_NoLen())),
        raises(lambda: T.tensor(collections.OrderedDict(a=1))),
        raises(lambda: T.cat(dq([T.ones(1)]))),
        raises(lambda: T.stack(array.array("f", [1.0]))),
        raises(lambda: T.cat(functools.partial(print))),
        raises(lambda: T.zeros(dq([2, 1]))),
        raises(lambda: T.ones(array.array("i", [2]))),
        raises(lambda: T.empty(_SeqLike())),
        raises(lambda: T.full(dq([2]), 1.0)),
        raises(lambda: T.ones(1).new_full(dq([2]), 1.0)),
    )


@program()
def prog_pex_value_losses_broadcast_graphs(T: Any) -> Any:
    F = T.nn.functional
    value = _t(T, 3, 1, seed=8, rg=True)
    target = T.tensor(_data(3, seed=9))
    out = {}
    for name in ("smooth_l1_loss", "mse_loss", "l1_loss", "huber_loss"):
        loss = getattr(F, name)(value, target)
        g = T.autograd.grad(loss, value)
        same = getattr(F, name)(value, target.view(3, 1))
        wide = getattr(F, name)(value.view(1, 3), target.view(3, 1), reduction="none")
        out[name] = (loss, loss.grad_fn, g, same.grad_fn, wide, wide.grad_fn)
    return out


# --- imagenet: DataParallel on a machine without an accelerator, checkpoints ---------------


def _tiny_resnetish(T: Any) -> Any:
    nn = T.nn
    return nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1, bias=False),
        nn.BatchNorm2d(4),
        nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
        nn.Linear(4, 5),
    )


@program()
def prog_pex_imagenet_dataparallel_checkpoint_prefix(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(60)
    model = nn.DataParallel(_tiny_resnetish(T))
    criterion = nn.CrossEntropyLoss()
    optimizer = T.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
    images = _t(T, 3, 3, 4, 4, seed=2)
    target = T.tensor([0, 4, 2])
    output = model(images)
    loss = criterion(output, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state = _ckpt(T, {"epoch": 1, "state_dict": model.state_dict(), "best_acc1": 0.0})
    plain = _tiny_resnetish(T)
    err = raises(lambda: plain.load_state_dict(state["state_dict"]))
    sd = state["state_dict"]
    T.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module.")
    res = plain.load_state_dict(sd)
    plain.eval()
    model.eval()
    return (
        list(state["state_dict"].keys()),
        err,
        str(res),
        repr(model),
        model.device_ids,
        type(model).__name__,
        isinstance(model, nn.parallel.DataParallel),
        model.module is model._modules["module"],
        T.equal(plain(images), model(images)),
        output.grad_fn,
        loss,
    )


@program()
def prog_pex_imagenet_dataparallel_module_api(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(61)
    inner = nn.Linear(3, 2)
    dp = nn.DataParallel(inner, device_ids=None, output_device=None, dim=0)
    out = dp(T.ones(4, 3))
    kw = nn.DataParallel(nn.Bilinear(2, 2, 1))(input1=T.ones(1, 2), input2=T.ones(1, 2))
    dp.train(False)
    return (
        out,
        kw.shape,
        inner.training,
        [n for n, _ in dp.named_parameters()],
        [n for n, _ in dp.named_modules()],
        raises(lambda: nn.parallel.data_parallel(inner, T.ones(1, 3))),
        dp.state_dict(keep_vars=True)["module.weight"] is inner.weight,
    )


@program()
def prog_pex_imagenet_adjust_learning_rate_and_meters(T: Any) -> Any:
    T.manual_seed(62)
    model = _tiny_resnetish(T)
    optimizer = T.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
    lrs = []
    for epoch in (0, 29, 30, 61):
        lr = 0.1 * (0.1 ** (epoch // 30))
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr
        lrs.append(optimizer.param_groups[0]["lr"])
    batch_time = _AverageMeter("Time", ":6.3f")
    losses = _AverageMeter("Loss", ":.4e")
    for i in range(3):
        out = model(_t(T, 2, 3, 4, 4, seed=i))
        loss = T.nn.functional.cross_entropy(out, T.tensor([i, 4]))
        losses.update(loss.item(), 2)
        batch_time.update(0.5 * i)
    entries = ["Epoch: [{}]".format(0)] + [str(m) for m in (batch_time, losses)]
    return lrs, "\t".join(entries), losses.avg, optimizer.state_dict()["param_groups"]


# --- saving whole models and numpy data, scheduler misuse, recurrent warnings ---------------


@program()
def prog_pex_save_whole_model_and_numpy_data(T: Any) -> Any:
    T.manual_seed(63)
    model = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.Tanh())
    buf = io.BytesIO()
    T.save(model, buf)
    buf.seek(0)
    err = raises(lambda: T.load(buf))
    buf.seek(0)
    loaded = T.load(buf, weights_only=False)
    # time_sequence_prediction saves its numpy training data with torch.save
    arr = np.sin(np.arange(6).reshape(2, 3) / 3.0).astype("float64")
    buf2 = io.BytesIO()
    T.save(arr, buf2)
    buf2.seek(0)
    np_err = raises(lambda: T.load(buf2))
    buf2.seek(0)
    data = T.load(buf2, weights_only=False)
    return (
        err,
        np_err,
        str(loaded),
        loaded(T.ones(1, 2)),
        type(data).__name__,
        data,
        T.from_numpy(data[1:, :-1]),
    )


@program()
def prog_pex_scheduler_step_before_optimizer_step(T: Any) -> Any:
    T.manual_seed(64)
    model = T.nn.Linear(2, 1)
    optimizer = T.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = T.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    lrs = []
    for _ in range(2):
        scheduler.step()  # the order the mnist example warns against
        loss = model(T.ones(3, 2)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lrs.append(scheduler.get_last_lr())
    return lrs, scheduler.get_lr(), scheduler.state_dict(), model.weight


@program()
def prog_pex_recurrent_dropout_and_hidden_errors(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(65)
    lstm = nn.LSTM(3, 4, 1, dropout=0.5)
    x = _t(T, 2, 1, 3, seed=3)
    return (
        str(lstm),
        lstm(x)[0].shape,
        raises(lambda: nn.GRU(3, 4, 2, dropout=1.5)),
        raises(lambda: lstm(x, T.zeros(1, 1, 4))),
        raises(lambda: nn.GRU(3, 4)(x, (T.zeros(1, 1, 4), T.zeros(1, 1, 4)))),
        raises(lambda: lstm(x, (T.zeros(1, 2, 4), T.zeros(1, 2, 4)))),
        raises(lambda: nn.RNN(3, 4, nonlinearity="sigmoid")),
        raises(lambda: nn.Embedding(12, 3)(T.tensor([[12]]))),
        lstm.flatten_parameters(),
    )


@program()
def prog_pex_vit_hub_tqdm_progress(T: Any) -> Any:
    tqdm = T.hub.tqdm
    T.manual_seed(66)
    loader = T.utils.data.DataLoader(
        T.utils.data.TensorDataset(T.rand(4, 3, 4, 4), T.tensor([0, 1, 2, 3])), batch_size=2
    )
    total_loss = 0.0
    post = []

    def train_fn() -> Any:
        tk = tqdm(loader, desc="EPOCH" + "[TRAIN]" + str(1) + "/" + str(1))
        for t, data in enumerate(tk):
            images, labels = data
            post.append((images.shape, labels))
            tk.set_postfix({"Loss": "%6f" % float(total_loss / (t + 1))})

    bar = tqdm(total=10, disable=True)
    bar.update(3)
    with tqdm(total=None, disable=True) as b2:
        b2.update(5)
    return raises(train_fn), post, bar.n, bar.total, b2.n, type(bar).__name__


@program()
def prog_pex_hub_dirs_and_local_hubconf(T: Any) -> Any:
    import os
    import pathlib
    import tempfile

    old = T.hub.get_dir()
    T.hub.set_dir("~/somewhere/hub")
    d = T.hub.get_dir().startswith(os.path.expanduser("~")), T.hub.get_dir().endswith("hub")
    T.hub.set_dir(old)
    with tempfile.TemporaryDirectory() as repo:
        with open(os.path.join(repo, "hubconf.py"), "w") as f:
            f.write(
                "dependencies = ['numpy']\n"
                "def tiny(n=2):\n    'A tiny entrypoint.'\n    return n * 3\n"
                "_hidden = 1\nvalue = 4\n"
            )
        src = os.path.join(repo, "w.pth")
        T.save({"w": T.arange(3.0)}, src)
        cache = os.path.join(repo, "checkpoints")
        url = pathlib.Path(src).as_uri()
        sd = T.hub.load_state_dict_from_url(url, model_dir=cache, progress=False)
        sd2 = T.hub.load_state_dict_from_url(url, model_dir=cache, progress=False)
        out = (
            T.hub.load(repo, "tiny", 5, source="local"),
            T.hub.load(repo, "tiny", n=1, source="LOCAL"),
            raises(lambda: T.hub.load(repo, "tiny", source="gitlab")),
            raises(lambda: T.hub.load(repo, 3, source="local")),
            raises(lambda: T.hub.load(repo, "value", source="local")),
            raises(lambda: T.hub.load(repo, "_nothing", source="local")),
            _first_part(  # the digest of the file's bytes: torch.save's zip records differ
                raises(
                    lambda: T.hub.load_state_dict_from_url(
                        url,
                        model_dir=cache,
                        progress=False,
                        check_hash=True,
                        file_name="w-0bad.pth",
                    )
                ),
                ", got",
            ),
            sorted(os.listdir(cache)),
            sd,
            sd2,
        )
    return d, out


# --- more variants: data loading, corpus building, feature slices, evaluation modes ----------


@program()
def prog_pex_mnist_dataloader_epochs(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(70)
    x = _t(T, 10, 1, 8, 8, seed=4)
    y = T.tensor(np.random.default_rng(4).integers(0, 10, 10))
    dataset1 = T.utils.data.TensorDataset(x[:6], y[:6])
    dataset2 = T.utils.data.TensorDataset(x[6:], y[6:])
    train_kwargs = {"batch_size": 4, "shuffle": True}
    test_kwargs = {"batch_size": 3}
    train_loader = T.utils.data.DataLoader(dataset1, **train_kwargs)
    test_loader = T.utils.data.DataLoader(dataset2, **test_kwargs)
    model = _mnist_net(T)
    optimizer = T.optim.Adadelta(model.parameters(), lr=1.0)
    log = []
    for epoch in range(1, 3):
        model.train()
        for batch_idx, (data, target) in enumerate(train_loader):
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            log.append(
                "Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.4f}".format(
                    epoch,
                    batch_idx * len(data),
                    len(train_loader.dataset),
                    100.0 * batch_idx / len(train_loader),
                    loss.item(),
                )
            )
        model.eval()
        test_loss = 0
        correct = 0
        with T.no_grad():
            for data, target in test_loader:
                output = model(data)
                test_loss += F.nll_loss(output, target, reduction="sum").item()
                pred = output.argmax(dim=1, keepdim=True)
                correct += pred.eq(target.view_as(pred)).sum().item()
        test_loss /= len(test_loader.dataset)
        log.append((round(test_loss, 4), correct, len(test_loader)))
    return log


@program()
def prog_pex_wlm_corpus_dictionary(T: Any) -> Any:
    lines = ["the cat sat", "", "on the mat", "the end"]

    class Dictionary:
        def __init__(self) -> None:
            self.word2idx: dict[str, int] = {}
            self.idx2word: list[str] = []

        def add_word(self, word: str) -> int:
            if word not in self.word2idx:
                self.idx2word.append(word)
                self.word2idx[word] = len(self.idx2word) - 1
            return self.word2idx[word]

        def __len__(self) -> int:
            return len(self.idx2word)

    dictionary = Dictionary()
    for line in lines:
        for word in [*line.split(), "<eos>"]:
            dictionary.add_word(word)
    idss = []
    for line in lines:
        words = [*line.split(), "<eos>"]
        ids = []
        for word in words:
            ids.append(dictionary.word2idx[word])
        idss.append(T.tensor(ids).type(T.int64))
    ids = T.cat(idss)
    data = _batchify(ids, 3)
    return len(dictionary), ids, [i.dtype for i in idss], data, _get_batch(data, 0, bptt=2)


@program()
def prog_pex_dcgan_label_dtype_mistakes(T: Any) -> Any:
    crit = T.nn.BCELoss()
    output = T.rand(3)
    label_int = T.full((3,), 1)
    label = T.full((3,), 1, dtype=output.dtype)
    label2 = T.full((3,), 1.0)
    return (
        label_int.dtype,
        raises(lambda: crit(output, label_int)),
        crit(output, label),
        label2.dtype,
        label.fill_(0),
        raises(lambda: label.fill_(T.ones(2))),
        label.fill_(T.tensor(0.5)),
        T.full((2,), True).dtype,
        T.full((2,), 1, dtype=T.float16).fill_(0.1),
    )


@program()
def prog_pex_fast_neural_style_vgg_slices(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(71)
    vgg_pretrained_features = nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.ReLU(inplace=True),
        nn.Conv2d(4, 4, 3, padding=1),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2, 2),
        nn.Conv2d(4, 6, 3, padding=1),
        nn.ReLU(inplace=True),
    )
    VggOutputs = collections.namedtuple("VggOutputs", ["relu1_2", "relu2_2"])

    class Vgg(nn.Module):
        def __init__(self, requires_grad: bool = False) -> None:
            super().__init__()
            self.slice1 = nn.Sequential()
            self.slice2 = nn.Sequential()
            for x in range(4):
                self.slice1.add_module(str(x), vgg_pretrained_features[x])
            for x in range(4, 7):
                self.slice2.add_module(str(x), vgg_pretrained_features[x])
            if not requires_grad:
                for param in self.parameters():
                    param.requires_grad = False

        def forward(self, X: Any) -> Any:
            h = self.slice1(X)
            h_relu1_2 = h
            h = self.slice2(h)
            h_relu2_2 = h
            return VggOutputs(h_relu1_2, h_relu2_2)

    vgg = Vgg()
    x = _t(T, 2, 3, 4, 4, seed=5, rg=True)
    feats = vgg(_normalize_batch(x * 255))
    grams = [_gram_matrix(f) for f in feats]
    loss = sum(g.pow(2).mean() for g in grams)
    loss.backward()
    return (
        feats.relu1_2,
        feats.relu2_2.shape,
        grams,
        loss.grad_fn,
        x.grad,
        [n for n, p in vgg.named_parameters() if p.requires_grad],
        list(vgg.slice2.state_dict().keys()),
        str(vgg.slice2),
        raises(lambda: vgg.slice1.add_module("a.b", nn.ReLU())),
        raises(lambda: vgg.slice1.add_module("", nn.ReLU())),
        raises(lambda: vgg.slice1.add_module("x", 3)),
    )


@program()
def prog_pex_super_resolve_numpy_postprocess(T: Any) -> Any:
    T.manual_seed(72)
    model = _sr_net(T, 3)
    input = T.rand(1, 1, 3, 4)
    out = model(input)
    out_img_y = out[0].detach().numpy()
    out_img_y *= 255.0  # writes through into out's memory, as torch's numpy() shares it
    out_img_y = out_img_y.clip(0, 255)
    img = np.uint8(out_img_y[0])
    return out.detach() / 255.0, img, img.shape, out.grad_fn, raises(lambda: out.numpy())


@program()
def prog_pex_siamese_backbone_children_slice(T: Any) -> Any:
    nn = T.nn
    T.manual_seed(73)
    resnet = nn.Sequential(
        collections.OrderedDict(
            [
                ("conv1", nn.Conv2d(3, 4, 3, bias=False)),
                ("bn1", nn.BatchNorm2d(4)),
                ("relu", nn.ReLU(inplace=True)),
                ("avgpool", nn.AdaptiveAvgPool2d((1, 1))),
                ("fc", nn.Linear(4, 10)),
            ]
        )
    )
    resnet.conv1 = nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1, bias=False)
    fc_in_features = resnet.fc.in_features
    backbone = nn.Sequential(*(list(resnet.children())[:-1]))
    x1, x2 = T.rand(2, 1, 6, 6), T.rand(2, 1, 6, 6)
    o1 = backbone(x1).view(2, -1)
    o2 = backbone(x2).view(2, -1)
    head = nn.Linear(fc_in_features * 2, 1)
    out = T.sigmoid(head(T.cat((o1, o2), 1)))
    out.sum().backward()
    return (
        fc_in_features,
        str(backbone),
        list(backbone.state_dict().keys()),
        out,
        backbone[0].weight.grad,
        backbone[1].num_batches_tracked,
    )


@program()
def prog_pex_reinforce_running_reward_log(T: Any) -> Any:
    T.manual_seed(74)
    policy = _reinforce_policy(T)
    policy.eval()
    running_reward = 10
    log = []
    for i_episode in range(1, 4):
        ep_reward = 0
        for t, state in enumerate(_env_states(3, seed=20 + i_episode)):
            probs = policy(T.from_numpy(state).float().unsqueeze(0))
            m = T.distributions.Categorical(logits=probs.log())
            action = m.sample()
            ep_reward += float(action.item() == t % 2)
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        log.append(
            "Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}".format(
                i_episode, ep_reward, running_reward
            )
        )
    return log, probs, m.probs, m.logits


@program()
def prog_pex_imagenet_progress_meter_summary(T: Any) -> Any:
    import enum

    class Summary(enum.Enum):
        NONE = 0
        AVERAGE = 1
        SUM = 2
        COUNT = 3

    class Meter(_AverageMeter):
        def __init__(self, name: str, fmt: str = ":f", summary_type: Any = Summary.AVERAGE):
            self.summary_type = summary_type
            super().__init__(name, fmt)

        def summary(self) -> str:
            if self.summary_type is Summary.NONE:
                fmtstr = ""
            elif self.summary_type is Summary.AVERAGE:
                fmtstr = "{name} {avg:.3f}"
            elif self.summary_type is Summary.SUM:
                fmtstr = "{name} {sum:.3f}"
            else:
                fmtstr = "{name} {count:.3f}"
            return fmtstr.format(**self.__dict__)

    def batch_fmtstr(num_batches: int) -> str:
        num_digits = len(str(num_batches // 1))
        fmt = "{:" + str(num_digits) + "d}"
        return "[" + fmt + "/" + fmt.format(num_batches) + "]"

    top1 = Meter("Acc@1", ":6.2f", Summary.AVERAGE)
    losses = Meter("Loss", ":.4e", Summary.NONE)
    top5 = Meter("Acc@5", ":6.2f", Summary.SUM)
    output = _t(T, 6, 7, seed=9)
    target = T.tensor([0, 1, 2, 3, 4, 6])
    for i in range(2):
        acc1, acc5 = _accuracy(T, output + i, target, topk=(1, 5))
        loss = T.nn.functional.cross_entropy(output, target)
        top1.update(acc1[0], 6)
        top5.update(acc5[0], 6)
        losses.update(loss.item(), 6)
    entries = [batch_fmtstr(12).format(1)] + [str(m) for m in (top1, losses, top5)]
    return "\t".join(entries), " ".join(m.summary() for m in (top1, losses, top5)), top1.sum


@program()
def prog_pex_vae_eval_mode_and_mean_reduction(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(75)
    model = _vae(T)
    model.eval()
    data = T.rand(3, 1, 4, 4)
    recon, mu, logvar = model(data)
    bce_mean = F.binary_cross_entropy(recon, data.view(-1, 16))
    kld = -0.5 * T.mean(T.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1), dim=0)
    loss = bce_mean + kld
    loss.backward()
    with T.no_grad():
        z = T.randn(2, 3)
        sample = model.decode(z)
    return recon, loss, loss.grad_fn, model.fc21.weight.grad, sample, sample.requires_grad


@program()
def prog_pex_time_sequence_lbfgs_strong_wolfe(T: Any) -> Any:
    T.manual_seed(76)
    data = _sine_data(T)
    seq = _sequence(T).double()
    criterion = T.nn.MSELoss()
    optimizer = T.optim.LBFGS(
        seq.parameters(), lr=0.8, max_iter=3, history_size=2, line_search_fn="strong_wolfe"
    )
    losses = []

    def closure() -> Any:
        optimizer.zero_grad()
        loss = criterion(seq(data[:2, :-1]), data[:2, 1:])
        loss.backward()
        losses.append(loss.item())
        return loss

    ret = optimizer.step(closure)
    state = optimizer.state_dict()["state"][0]
    return (
        losses,
        ret,
        state["func_evals"],
        state["n_iter"],
        len(state["old_dirs"]),
        raises(lambda: T.optim.LBFGS(seq.parameters(), line_search_fn="armijo")),
    )


# --- differentiable_physics (mass_spring) ---------------------------------------------------


def _mass_spring(
    T: Any,
    num_particles: int,
    springs: Any,
    mass: float = 1.0,
    dt: float = 0.01,
    gravity: float = 9.81,
) -> Any:
    nn = T.nn

    class MassSpringSystem(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.mass = mass
            self.springs = springs
            self.dt = dt
            self.gravity = gravity
            self.initial_position_0 = T.tensor([0.0, 0.0], device="cpu")
            self.initial_positions_rest = nn.Parameter(T.randn(num_particles - 1, 2))
            self.velocities = T.zeros(num_particles, 2)

        def forward(self, steps: int) -> Any:
            positions = T.cat(
                [self.initial_position_0.unsqueeze(0), self.initial_positions_rest], dim=0
            )
            velocities = self.velocities
            for _ in range(steps):
                forces = T.zeros_like(positions)
                for i, j, rest_length, stiffness in self.springs:
                    xi, xj = positions[i], positions[j]
                    dir_vec = xj - xi
                    dist = dir_vec.norm()
                    force = stiffness * (dist - rest_length) * dir_vec / (dist + 1e-6)
                    forces[i] += force
                    forces[j] -= force
                forces[:, 1] -= self.gravity * self.mass
                acceleration = forces / self.mass
                velocities = velocities + acceleration * self.dt
                positions = positions + velocities * self.dt
                positions[0] = self.initial_position_0
                velocities[0] = T.tensor([0.0, 0.0], device=positions.device)
            return positions

    return MassSpringSystem()


@program()
def prog_pex_mass_spring_train(T: Any) -> Any:
    T.manual_seed(80)
    system = _mass_spring(T, 2, [(0, 1, 1.0, 10.0)])
    optimizer = T.optim.Adam(system.parameters(), lr=0.01)
    target_positions = T.tensor([[0.0, 0.0], [1.0, 0.0]])
    log = []
    for epoch in range(4):
        optimizer.zero_grad()
        final_positions = system(5)
        loss = (final_positions - target_positions).pow(2).mean()
        loss.backward()
        optimizer.step()
        log.append(f"Epoch {epoch + 1}/4, Loss: {loss.item():.6f}")
    initial_positions = T.cat(
        [system.initial_position_0.unsqueeze(0), system.initial_positions_rest.detach()], dim=0
    ).numpy()
    return (
        log,
        initial_positions,
        final_positions.detach().numpy(),
        final_positions.grad_fn,
        system.initial_positions_rest.grad,
        list(system.state_dict().keys()),
        system.velocities,
    )


@program()
def prog_pex_mass_spring_three_particles_eval(T: Any) -> Any:
    T.manual_seed(81)
    springs = [(0, 1, 1.0, 10.0), (1, 2, 0.5, 4.0), (0, 2, 1.5, 2.0)]
    system = _mass_spring(T, 3, springs, mass=2.0, dt=0.05, gravity=1.0)
    with T.no_grad():
        final_eval = system(4)
    final = system(3)
    g = T.autograd.grad(final[1:].sum(), system.initial_positions_rest, create_graph=True)[0]
    gg = T.autograd.grad(g.pow(2).sum(), system.initial_positions_rest)[0]
    return final_eval, final_eval.requires_grad, final, g, gg, g.grad_fn


# --- more variants: generation, collate functions, checkpoints that do not fit ---------------


@program()
def prog_pex_wlm_transformer_generate(T: Any) -> Any:
    T.manual_seed(82)
    ntokens = 12
    model = _transformer_model(T, dropout=0.0)
    model.eval()
    input = T.randint(ntokens, (1, 1), dtype=T.long)
    words = []
    with T.no_grad():
        for _ in range(4):
            output = model(input, False)
            word_weights = output[-1].squeeze().div(1.0).exp().cpu()
            word_idx = T.multinomial(word_weights, 1)[0]
            word_tensor = T.Tensor([[word_idx]]).long()
            input = T.cat([input, word_tensor], 0)
            words.append(word_idx.item())
    return words, input, word_tensor.dtype, output.shape


@program()
def prog_pex_translation_collate_pad_sequence(T: Any) -> Any:
    pad_sequence = T.nn.utils.rnn.pad_sequence
    pairs = [([5, 6, 7], [8, 9]), ([4], [6, 7, 8, 9]), ([9, 9], [4])]

    def tensor_transform(token_ids: list[int]) -> Any:
        return T.cat((T.tensor([BOS_IDX]), T.tensor(token_ids), T.tensor([EOS_IDX])))

    def collate_fn(batch: Any) -> Any:
        src_batch, tgt_batch = [], []
        for src_sample, tgt_sample in batch:
            src_batch.append(tensor_transform(src_sample))
            tgt_batch.append(tensor_transform(tgt_sample))
        src_batch = pad_sequence(src_batch, padding_value=PAD_IDX)
        tgt_batch = pad_sequence(tgt_batch, padding_value=PAD_IDX)
        return src_batch, tgt_batch

    loader = T.utils.data.DataLoader(pairs, batch_size=2, collate_fn=collate_fn)
    batches = list(loader)
    src, tgt = batches[0]
    masks = _create_mask(T, src, tgt[:-1, :])
    return (
        batches,
        masks,
        pad_sequence([T.ones(2), T.ones(3)], batch_first=True, padding_value=-1.0),
        pad_sequence([T.ones(2, 2), T.ones(1, 2)], padding_side="left"),
        raises(lambda: pad_sequence([T.ones(2, 2), T.ones(1, 3)])),
        raises(lambda: pad_sequence([])),
        tensor_transform([]),
    )


@program()
def prog_pex_dcgan_load_mismatched_checkpoint(T: Any) -> Any:
    T.manual_seed(83)
    netG, netD = _dcgan(T)
    sdG = _ckpt(T, netG.state_dict())
    res = raises(lambda: netD.load_state_dict(sdG))
    res_loose = raises(lambda: netD.load_state_dict(sdG, strict=False))
    T.manual_seed(84)
    netG2, _ = _dcgan(T, ngf=3)
    res_size = raises(lambda: netG2.load_state_dict(sdG))
    sd_extra = dict(sdG)
    sd_extra["main.9.weight"] = T.ones(1)
    return res, res_loose, res_size, str(netG.load_state_dict(sd_extra, strict=False))


@program()
def prog_pex_actor_critic_one_step_episode(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(85)
    model = _actor_critic(T)
    optimizer = T.optim.Adam(model.parameters(), lr=3e-2)
    eps = np.finfo(np.float32).eps.item()
    state = T.from_numpy(_env_states(1, seed=3)[0]).float()
    probs, value = model(state)
    m = T.distributions.Categorical(probs)
    action = m.sample()
    returns = T.tensor([1.0])
    returns = (returns - returns.mean()) / (returns.std() + eps)
    R = returns[0]
    loss = -m.log_prob(action) * (R - value.item()) + F.smooth_l1_loss(value, T.tensor([R]))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return returns, loss, model.affine1.weight.grad, model.value_head.bias


@program()
def prog_pex_siamese_dataset_loader(T: Any) -> Any:
    class APP_MATCHER(T.utils.data.Dataset):
        def __init__(self, n: int) -> None:
            super().__init__()
            self.data = T.rand(n, 1, 6, 6)
            self.targets = T.tensor([i % 3 for i in range(n)])
            self.group_examples = {
                i: np.where(self.targets.numpy() == i)[0].tolist() for i in range(3)
            }

        def __len__(self) -> int:
            return self.data.shape[0]

        def __getitem__(self, index: int) -> Any:
            selected_class = index % 3
            index_1 = self.group_examples[selected_class][0]
            image_1 = self.data[index_1].clone().float()
            if index % 2 == 0:
                index_2 = self.group_examples[selected_class][-1]
                image_2 = self.data[index_2].clone().float()
                target = T.tensor(1, dtype=T.float)
            else:
                other = (selected_class + 1) % 3
                image_2 = self.data[self.group_examples[other][0]].clone().float()
                target = T.tensor(0, dtype=T.float)
            return image_1, image_2, target

    T.manual_seed(86)
    ds = APP_MATCHER(6)
    loader = T.utils.data.DataLoader(ds, batch_size=4, shuffle=True)
    model = _siamese(T)
    criterion = T.nn.BCELoss()
    out = []
    for images_1, images_2, targets in loader:
        outputs = model(images_1, images_2).squeeze()
        out.append((targets, criterion(outputs, targets)))
    return out, len(loader), ds.group_examples


@program()
def prog_pex_forward_forward_single_row_and_threshold(T: Any) -> Any:
    T.manual_seed(87)
    net, overlay = _ff_net(T, [6, 5])
    layer = net.layers[0]
    layer.threshold = 0.5
    layer.num_epochs = 2
    x = _t(T, 1, 6, seed=2)
    xp = overlay(x, T.tensor([2]))
    xn = overlay(x, T.tensor([0]))
    hp, hn, losses = layer.train(xp, xn)
    return xp, xn, hp, hn, losses, hp.requires_grad, layer.opt.state_dict()["state"][0]["step"]


@program()
def prog_pex_super_resolution_init_gains(T: Any) -> Any:
    init = T.nn.init
    T.manual_seed(88)
    w = T.empty(6, 2, 3, 3)
    init.orthogonal_(w, init.calculate_gain("relu"))
    flat = w.view(6, -1)
    tall = init.orthogonal_(T.empty(9, 4))
    return (
        flat @ flat.t(),
        tall.t() @ tall,
        [init.calculate_gain(n) for n in ("relu", "tanh", "sigmoid", "conv2d", "selu")],
        init.calculate_gain("leaky_relu", 0.2),
        raises(lambda: init.calculate_gain("gelu")),
        raises(lambda: init.orthogonal_(T.empty(3))),
        init.orthogonal_(T.empty(0, 3)),
    )


@program()
def prog_pex_mnist_strict_false_and_weights_only(T: Any) -> Any:
    T.manual_seed(89)
    model = _mnist_net(T)
    buf = io.BytesIO()
    T.save(model.state_dict(), buf)
    buf.seek(0)
    sd = T.load(buf, weights_only=True)
    sd["extra.weight"] = T.zeros(1)
    del sd["fc2.bias"]
    model2 = _mnist_net(T)
    res = model2.load_state_dict(sd, strict=False)
    return (
        res.missing_keys,
        res.unexpected_keys,
        str(res),
        raises(lambda: model2.load_state_dict(sd)),
        T.equal(model2.fc1.weight, model.fc1.weight),
    )


@program()
def prog_pex_model_zoo_load_url(T: Any) -> Any:
    import importlib
    import os
    import pathlib
    import tempfile

    model_zoo = importlib.import_module(T.__name__ + ".utils.model_zoo")
    T.manual_seed(90)
    model = _tiny_resnetish(T)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "tiny-0123abcd.pth")
        T.save(model.state_dict(), src)
        sd = model_zoo.load_url(pathlib.Path(src).as_uri(), model_dir=os.path.join(d, "c"))
        model2 = _tiny_resnetish(T)
        res = model2.load_state_dict(sd)
        names = sorted(os.listdir(os.path.join(d, "c")))
    return (
        str(res),
        names,
        list(sd.keys()),
        model_zoo.tqdm is T.hub.tqdm,
        model_zoo.load_url is T.hub.load_state_dict_from_url,
    )


@program(
    xfail="shadowgrad has no torch.multiprocessing: mnist_hogwild's workers update parameters "
    "that share_memory() put in shared memory, where shadowgrad's share_memory_ only marks the "
    "storage (one process)"
)
def prog_pex_mnist_hogwild_multiprocessing_setup(T: Any) -> Any:
    mp = T.multiprocessing
    T.manual_seed(91)
    model = _mnist_net(T)
    model.share_memory()
    ctx = mp.get_context("spawn")
    return (
        sorted(mp.get_all_sharing_strategies()),
        mp.get_sharing_strategy(),
        type(ctx.Process).__name__,
        all(p.is_shared() for p in model.parameters()),
        callable(mp.spawn),
    )


def _picklable_lm(T: Any) -> Any:
    """A word-LM class findable by pickle (module-level, one per library), as main.py's
    `torch.save(model, f)` needs."""
    name = "_TinyLM_" + T.__name__
    if name not in globals():

        class TinyLM(T.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.encoder = T.nn.Embedding(6, 3)
                self.rnn = T.nn.GRU(3, 3)
                self.decoder = T.nn.Linear(3, 6)

            def forward(self, x: Any) -> Any:
                out, h = self.rnn(self.encoder(x))
                return T.nn.functional.log_softmax(self.decoder(out), -1), h

        TinyLM.__name__ = TinyLM.__qualname__ = name
        globals()[name] = TinyLM
    return globals()[name]


@program()
def prog_pex_wlm_save_whole_model_and_reload(T: Any) -> Any:
    T.manual_seed(92)
    model = _picklable_lm(T)()
    buf = io.BytesIO()
    with io.BytesIO() as f:
        T.save(model, f)
        data = f.getvalue()
    buf = io.BytesIO(data)
    err = raises(lambda: T.load(buf))
    buf.seek(0)
    model2 = T.load(buf, weights_only=False)
    model2.rnn.flatten_parameters()
    x = T.tensor([[1], [4]])
    with T.no_grad():
        a = model(x)[0]
        b = model2(x)[0]
    return (
        _first_part(err, "WeightsUnpickler error")[0],
        type(model2).__name__.startswith("_TinyLM_"),
        T.equal(a, b),
        b,
        model2.training,
    )


@program()
def prog_pex_mnist_inference_mode_eval(T: Any) -> Any:
    F = T.nn.functional
    T.manual_seed(93)
    model = _mnist_net(T)
    model.eval()
    data, target = _mnist_data(T, 4, seed=12)
    with T.inference_mode():
        output = model(data)
        loss = F.nll_loss(output, target, reduction="sum")
        pred = output.argmax(dim=1, keepdim=True)
    return (  # inference tensors keep no version counter: their values as Python data
        loss.item(),
        pred.tolist(),
        output.is_inference(),
        output.requires_grad,
        raises(lambda: output.requires_grad_()),
        raises(
            lambda: model(output.view(4, 1, 1, 10)[..., :8].reshape(4, 1, 8, 1).expand(4, 1, 8, 8))
        ),
        raises(lambda: F.nll_loss(output.clone(), target).backward()),
    )


@program()
def prog_pex_inference_tensor_error_order(T: Any) -> Any:
    with T.inference_mode():
        x = T.ones(1, 1, 4, 4)
    conv = T.nn.Conv2d(1, 1, 3)
    F = T.nn.functional
    w = T.ones(3, requires_grad=True)
    W = conv.weight
    return (  # torch's autograd saves the inputs before the kernels' shape checks
        raises(lambda: conv(x)),
        raises(lambda: conv(x.view(1, 1, 2, 8))),
        raises(lambda: F.conv2d(x, W, padding=-1)),
        raises(lambda: F.conv2d(x, W, stride=0)),
        raises(lambda: F.conv1d(x.view(1, 1, 16), W[0])),
        raises(lambda: F.conv2d(x.view(4, 4), W)),
        raises(lambda: F.conv2d(x.double(), W)),
        raises(lambda: x.view(16) @ w),
        raises(lambda: T.dot(x.view(16), w[:2])),
        raises(lambda: T.dot(x.view(4, 4), w)),
        raises(lambda: T.dot(x.view(16).double(), w)),
        raises(lambda: T.mm(x.view(16), w.view(3, 1))),
        raises(lambda: T.mm(w.view(3, 1), x.view(16))),
        raises(lambda: T.dot(x.view(16), w.detach()[:2])),
        raises(lambda: T.mm(x.view(16), w.detach().view(3, 1))),
        raises(lambda: T.mv(T.ones(4, 4, requires_grad=True), x.view(16)[:3])),
        raises(lambda: T.mv(T.ones(4, 4, requires_grad=True), x.view(4, 4))),
        raises(lambda: x.view(2, 2, 4)[:, :, :3] @ T.ones(2, 4, 5, requires_grad=True)),
        raises(lambda: x.view(16)[:3] @ T.ones(2, 4, 5, requires_grad=True)),
    )


@program()
def prog_pex_dcgan_fixed_noise_eval(T: Any) -> Any:
    T.manual_seed(94)
    netG, netD = _dcgan(T)
    fixed_noise = T.randn(2, 4, 1, 1)
    netG.train()
    _ = netG(T.randn(3, 4, 1, 1))  # running stats move in training mode
    netG.eval()
    with T.no_grad():
        fake = netG(fixed_noise).detach().cpu()
    D_out = netD(fake)
    bn = netG.main[1]
    return fake, D_out, bn.running_mean, bn.running_var, bn.num_batches_tracked, fake.requires_grad


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
