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


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
