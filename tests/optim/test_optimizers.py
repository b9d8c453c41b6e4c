"""Optimizers and schedulers on tiny problems (no torch)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad import _blas, optim
from shadowgrad.optim import lr_scheduler


def _quadratic_run(make, steps=200):
    # f(w) = 0.5 * |w - c|^2, minimum at c
    c = sg.tensor([1.0, -2.0, 3.0])
    w = sg.nn.Parameter(sg.zeros(3))
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        loss = ((w - c) * (w - c)).sum() * 0.5
        loss.backward()
        opt.step()
    return w.detach().numpy()


@pytest.mark.parametrize(
    "make",
    [
        lambda ps: optim.SGD(ps, lr=0.1),
        lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True),
        lambda ps: optim.Adam(ps, lr=0.1),
        lambda ps: optim.AdamW(ps, lr=0.1, weight_decay=0.0, amsgrad=True),
        lambda ps: optim.RMSprop(ps, lr=0.05, centered=True),
        lambda ps: optim.Adagrad(ps, lr=0.5),
    ],
)
def test_optimizers_converge_on_a_quadratic(make):
    np.testing.assert_allclose(_quadratic_run(make, 400), [1.0, -2.0, 3.0], atol=0.05)


def test_sgd_step_is_the_closed_form_update():
    # one step of plain SGD is w - lr * grad; with momentum the first buffer is the grad itself
    w = sg.nn.Parameter(sg.tensor([1.0, 2.0]))
    opt = optim.SGD([w], lr=0.5, momentum=0.9)
    w.grad = sg.tensor([2.0, -4.0])
    opt.step()
    np.testing.assert_allclose(w.detach().numpy(), [0.0, 4.0])
    opt.step()  # buffer = 0.9 * g + g
    np.testing.assert_allclose(w.detach().numpy(), [0.0 - 0.5 * 3.8, 4.0 + 0.5 * 7.6], rtol=1e-6)


def test_adam_first_step_moves_each_coordinate_by_lr():
    # after bias correction, m/sqrt(v) = sign(g) on the first step
    w = sg.nn.Parameter(sg.tensor([1.0, 1.0, 1.0]))
    opt = optim.Adam([w], lr=0.01)
    w.grad = sg.tensor([3.0, -0.5, 1e-3])
    opt.step()
    np.testing.assert_allclose(w.detach().numpy(), [0.99, 1.01, 0.99], rtol=1e-5)
    assert opt.state[w]["step"].item() == 1.0


def test_param_without_grad_is_skipped_and_maximize_flips_sign():
    a, b = sg.nn.Parameter(sg.ones(1)), sg.nn.Parameter(sg.ones(1))
    opt = optim.SGD([a, b], lr=1.0, maximize=True)
    a.grad = sg.tensor([2.0])
    opt.step()
    assert a.item() == 3.0 and b.item() == 1.0
    assert b not in opt.state


def test_step_bumps_the_parameter_version():
    w = sg.nn.Parameter(sg.ones(2))
    v = w._version
    opt = optim.Adam([w])
    w.grad = sg.ones(2)
    opt.step()
    assert w._version > v


def test_state_dict_uses_indices_and_round_trips():
    ps = [sg.nn.Parameter(sg.ones(2)), sg.nn.Parameter(sg.ones(3))]
    opt = optim.SGD([{"params": ps[:1]}, {"params": ps[1:], "lr": 0.5}], lr=0.1, momentum=0.9)
    for p in ps:
        p.grad = sg.ones_like(p)
    opt.step()
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1]]
    assert set(sd["state"]) == {0, 1} and "momentum_buffer" in sd["state"][0]
    opt2 = optim.SGD([{"params": ps[:1]}, {"params": ps[1:]}], lr=1.0, momentum=0.9)
    opt2.load_state_dict(sd)
    assert opt2.param_groups[1]["lr"] == 0.5 and opt2.param_groups[0]["params"][0] is ps[0]
    with pytest.raises(ValueError, match="different number of parameter groups"):
        opt2.load_state_dict({"state": {}, "param_groups": []})


def test_add_param_group_rejects_overlap_and_non_leaves():
    p = sg.nn.Parameter(sg.ones(1))
    opt = optim.SGD([p], lr=0.1)
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [p]})
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        opt.add_param_group({"params": [p * 2]})


def test_step_hooks_run_around_step():
    p = sg.nn.Parameter(sg.ones(1))
    opt = optim.SGD([p], lr=0.1)
    log = []
    opt.register_step_pre_hook(lambda o, a, k: log.append("pre"))
    opt.register_step_post_hook(lambda o, a, k: log.append("post"))
    p.grad = sg.ones(1)
    opt.step()
    assert log == ["pre", "post"]


def _lrs(make, n=8):
    p = sg.nn.Parameter(sg.ones(1))
    opt = optim.SGD([p], lr=1.0)
    s = make(opt)
    out = [s.get_last_lr()[0]]
    for _ in range(n):
        opt.step()
        s.step()
        out.append(s.get_last_lr()[0])
    return out


def test_scheduler_closed_forms():
    np.testing.assert_allclose(
        _lrs(lambda o: lr_scheduler.StepLR(o, 3, 0.5)), [0.5 ** (e // 3) for e in range(9)]
    )
    np.testing.assert_allclose(
        _lrs(lambda o: lr_scheduler.ExponentialLR(o, 0.9)), [0.9**e for e in range(9)]
    )
    np.testing.assert_allclose(
        _lrs(lambda o: lr_scheduler.CosineAnnealingLR(o, 8)),
        [(1 + math.cos(math.pi * e / 8)) / 2 for e in range(9)],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        _lrs(lambda o: lr_scheduler.MultiStepLR(o, [2, 5], 0.1)),
        [1, 1, 0.1, 0.1, 0.1, 0.01, 0.01, 0.01, 0.01],
    )
    lrs = _lrs(lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=9), n=8)
    peak = lrs.index(max(lrs))
    assert lrs[0] == pytest.approx(1 / 25) and lrs[-1] == pytest.approx(1 / 25 / 1e4)
    assert lrs[: peak + 1] == sorted(lrs[: peak + 1]) and lrs[peak:] == sorted(lrs[peak:])[::-1]


def test_reduce_on_plateau_waits_for_patience():
    p = sg.nn.Parameter(sg.ones(1))
    opt = optim.SGD([p], lr=1.0)
    s = lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
    lrs = []
    for m in [1.0, 1.0, 1.0, 0.5, 0.5, 0.5]:
        s.step(m)
        lrs.append(s.get_last_lr()[0])
    assert lrs == [1.0, 1.0, 0.5, 0.5, 0.5, 0.25]


def test_large_parameter_update_under_no_grad_is_one_fused_rounding() -> None:
    # add_(g, alpha) on a large parameter is one fused multiply-add per element, as torch's CPU
    # kernel computes it (BLAS axpy, or blockwise numpy where no axpy is found): p + alpha * g
    # rounded once, which float64 holds exactly for float32 operands. Blockwise numpy rounds
    # twice, within one ulp of it.
    rng = np.random.default_rng(0)
    n = 3 * (1 << 16) + 123
    p0 = rng.standard_normal(n).astype(np.float32)
    g0 = rng.standard_normal(n).astype(np.float32)
    p = sg.tensor(p0.copy())
    with sg.no_grad():
        p.add_(sg.tensor(g0), alpha=-0.01)
    a = np.asarray(-0.01, np.float32).astype(np.float64)
    fused = (p0.astype(np.float64) + a * g0.astype(np.float64)).astype(np.float32)
    if _blas.axpy(0.0, g0.copy(), g0.copy()):  # numpy's BLAS has axpy here
        np.testing.assert_array_equal(p.numpy(), fused)
    else:
        np.testing.assert_array_max_ulp(p.numpy(), fused, maxulp=1)
    assert p._version == 1
