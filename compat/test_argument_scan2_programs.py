"""Wrong calls found by a second pass of the argument-parser scan (see
compat/test_argument_scan_programs.py): bool flags given a str, an int or None (argsort's
descending/stable, multinomial's replacement by keyword), round's decimals, torch.nn.functional's
pad/softplus/layer_norm (whose Python code passes its arguments to the native function by
position, or not), next to valid calls whose values, grad_fn and gradients are compared too. The
programs register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _x(T: Any, *shape: int, seed: int = 0, rg: bool = True) -> Any:
    return T.tensor(_data(*shape, seed=seed), requires_grad=rg)


# --- argsort: descending and stable are bools (two overloads: torch's listing) ---------------


@program()
def prog_ar2_argsort_descending_not_bool(T: Any) -> Any:
    x = _x(T, 3, 4)
    i = x.argsort(1, True)
    y = x.gather(1, i) * T.arange(4.0)
    y.sum().backward()
    return (
        raises(lambda: x.argsort(descending="a")),
        raises(lambda: x.argsort(0, "a")),
        raises(lambda: x.argsort(0, 1)),
        raises(lambda: x.argsort(descending=None)),
        raises(lambda: T.argsort(x, descending=1)),
        raises(lambda: T.argsort(x, 0, 1)),
        raises(lambda: T.argsort(x, 0, np.bool_(True))),
        i,
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_ar2_argsort_stable_not_bool(T: Any) -> Any:
    x = T.tensor([[3.0, 1.0, 3.0, 2.0], [1.0, 1.0, 0.0, 1.0]])
    return (
        raises(lambda: x.argsort(stable="a")),
        raises(lambda: x.argsort(stable=1)),
        raises(lambda: x.argsort(stable=True, descending=1)),
        raises(lambda: x.argsort(descending=True, stable=None)),
        raises(lambda: T.argsort(x, stable=1)),
        raises(lambda: T.argsort(x, dim=0, stable="a")),
        raises(lambda: x.argsort(dim="a")),
        x.argsort(stable=True, descending=True),
        T.argsort(x, dim=0, stable=True),
        x.argsort(-1, False),
    )


# --- multinomial: replacement by keyword names no position ------------------------------------


@program()
def prog_ar2_multinomial_replacement_keyword(T: Any) -> Any:
    p = T.tensor([0.2, 0.3, 0.5])
    return (
        raises(lambda: T.multinomial(p, 2, replacement="a")),
        raises(lambda: p.multinomial(2, replacement=1)),
        raises(lambda: p.multinomial(2, replacement=None)),
        raises(lambda: p.multinomial(2, "a")),
        raises(lambda: T.multinomial(p, 2, "a")),
        raises(lambda: T.multinomial(p, num_samples=1.5)),
        raises(lambda: p.multinomial(num_samples="a")),
        raises(lambda: T.multinomial(p, "a")),
        raises(lambda: p.multinomial(2**70)),
        raises(lambda: T.multinomial(p, 2, replacement=np.bool_(True))),
        T.multinomial(p, T.tensor(3)).sort()[0],
        p.multinomial(np.int64(3)).sort()[0],
    )


# --- round: decimals is a keyword-only int --------------------------------------------------


@program()
def prog_ar2_round_decimals_not_int(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = x.round(decimals=1) * x + T.round(x, decimals=np.int64(2))
    y.sum().backward()
    return (
        raises(lambda: x.round(decimals=1.5)),
        raises(lambda: x.round(decimals=None)),
        raises(lambda: x.round(decimals="a")),
        raises(lambda: T.round(x, decimals="a")),
        raises(lambda: T.round(x, decimals=True)),
        raises(lambda: T.round(x, decimals=2**70)),
        raises(lambda: T.round(x, 1)),
        y,
        y.grad_fn,
        x.grad,
    )


# --- nn.functional.pad: pad, mode, value reach the native pad by position -------------------


@program()
def prog_ar2_pad_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 2, 3)
    y = F.pad(x, [np.int64(1), 2], value=np.float32(0.5)) + F.pad(x, T.Size([1, 2]), value=True)
    y.sum().backward()
    return (
        raises(lambda: F.pad(x, "a")),
        raises(lambda: F.pad(x, None)),
        raises(lambda: F.pad(x, (1, 1), mode=1)),
        raises(lambda: F.pad(x, (1, 1), None)),
        raises(lambda: F.pad(x, (1, 1), value="a")),
        raises(lambda: F.pad(x, (1, 1), "constant", [1.0])),
        raises(lambda: F.pad(x, pad=(1.5, 1))),
        raises(lambda: F.pad(x, [1, "a"])),
        raises(lambda: F.pad(x, (True, 1))),
        raises(lambda: F.pad(x, (1, 1), "constant", 1, 2)),
        raises(lambda: F.pad(x, (1, 1), foo=1)),
        F.pad(x, (1, 1), value=T.tensor(2.0)),
        y,
        y.grad_fn,
        x.grad,
    )


# --- nn.functional.layer_norm: eps reaches torch.layer_norm by position ----------------------


@program()
def prog_ar2_layer_norm_eps_not_float(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    w = _x(T, 4, seed=1)
    y = F.layer_norm(x, (4,), w, None, 1) + F.layer_norm(x, [4], eps=np.float64(1e-3))
    y.sum().backward()
    return (
        raises(lambda: F.layer_norm(x, (4,), eps="a")),
        raises(lambda: F.layer_norm(x, (4,), None, None, "a")),
        raises(lambda: F.layer_norm(x, (4,), eps=None)),
        raises(lambda: F.layer_norm(x, (4,), w, eps=[1e-5])),
        y,
        y.grad_fn,
        x.grad,
        w.grad,
    )


# --- nn.functional.softplus: beta and threshold are Numbers ----------------------------------


@program()
def prog_ar2_softplus_beta_threshold(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    y = F.softplus(x, beta=T.tensor(2.0)) + F.softplus(x, np.float32(0.5), threshold=True)
    y.sum().backward()
    return (
        raises(lambda: F.softplus(x, beta="a")),
        raises(lambda: F.softplus(x, threshold="a")),
        raises(lambda: F.softplus(x, "a")),
        raises(lambda: F.softplus(x, 1, [1.0])),
        raises(lambda: F.softplus(x, beta=None)),
        raises(lambda: F.softplus(x, 1, 2, 3)),
        F.softplus(x, 2, 1),
        y,
        y.grad_fn,
        x.grad,
    )


# --- std/var: unbiased and keepdim are bools (three overloads: torch's listing) -------------


@program()
def prog_ar2_std_var_unbiased_not_bool(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = x.std(0, True, True) * x.var(1, unbiased=False, keepdim=True) + T.std(x, [0], False)
    y.sum().backward()
    return (
        raises(lambda: x.std(unbiased="a")),
        raises(lambda: x.std(0, "a")),
        raises(lambda: x.std(unbiased=1)),
        raises(lambda: x.var(0, 1.5)),
        raises(lambda: x.var(0, None)),
        raises(lambda: T.var(x, 0, "a")),
        raises(lambda: T.std(x, unbiased=None)),
        raises(lambda: x.var(0, unbiased=np.bool_(True))),
        raises(lambda: x.std(0, 1)),
        y,
        y.grad_fn,
        x.grad,
    )


@program()
def prog_ar2_std_var_keepdim_not_bool(T: Any) -> Any:
    x = _x(T, 3, 4)
    y = x.var(True) + x.std(1) + T.var(x, correction=0, keepdim=True)
    y.sum().backward()
    return (
        raises(lambda: T.var(x, 0, True, "a")),
        raises(lambda: x.var(0, True, keepdim=1)),
        raises(lambda: x.std(0, keepdim=None)),
        raises(lambda: T.std(x, dim=0, keepdim="a")),
        raises(lambda: x.var(keepdim=1)),
        raises(lambda: x.std(0, 1, 2)),
        raises(lambda: T.var(x, correction=0, keepdim=1)),
        x.var(dim=0, correction=1.5, keepdim=True),
        y,
        y.grad_fn,
        x.grad,
    )


# --- all/any: keepdim is a bool, dim an int or a tuple of ints (three overloads) ------------


@program()
def prog_ar2_all_any_keepdim_not_bool(T: Any) -> Any:
    x = _x(T, 3, 4)
    b = x > 0
    return (
        raises(lambda: b.all(0, keepdim="a")),
        raises(lambda: b.any(0, keepdim=1)),
        raises(lambda: T.all(b, 0, "a")),
        raises(lambda: T.any(b, 0, keepdim=None)),
        raises(lambda: b.all(keepdim=1)),
        raises(lambda: b.any(dim=0, keepdim="a")),
        raises(lambda: b.all(keepdim=np.bool_(True))),
        b.all(0, True),
        b.any((0, 1), True),
        T.all(b, dim=[0], keepdim=True),
        b.any(None),
    )


@program()
def prog_ar2_all_any_dim_types(T: Any) -> Any:
    x = T.tensor([[1, 0, 2], [3, 4, 5]], dtype=T.uint8)
    return (
        raises(lambda: x.all("a")),
        raises(lambda: x.any(1.5)),
        raises(lambda: T.all(x, dim="a")),
        raises(lambda: T.any(x, (0, "a"))),
        raises(lambda: x.all((0, 1.5))),
        raises(lambda: x.any([1.0])),
        x.all(1),
        T.any(x, (0,), keepdim=True),
        x.t().all(0),
    )


# --- the factories' pin_memory=: a `bool?` keyword (None taken; True needs an accelerator) ---


@program()
def prog_ar2_factory_pin_memory_single_overload(T: Any) -> Any:
    x = _x(T, 2, 3)
    made = (
        T.zeros(2, pin_memory=None),
        T.zeros(2, pin_memory=False),
        T.ones((2,), pin_memory=False, dtype=T.float64),
        T.full((2,), 1.5, pin_memory=False),
        T.empty(2, 3, pin_memory=None).shape,
        T.zeros_like(x, pin_memory=False),
        T.ones_like(x, pin_memory=None),
        T.full_like(x, 2, pin_memory=False),
        T.empty_like(x, pin_memory=False).shape,
    )
    return (
        *made,
        raises(lambda: T.zeros(2, pin_memory="a")),
        raises(lambda: T.ones(2, pin_memory=1)),
        raises(lambda: T.full((2,), 1.0, pin_memory="a")),
        raises(lambda: T.empty(2, pin_memory="a")),
        raises(lambda: T.zeros_like(x, pin_memory="a")),
        raises(lambda: T.empty_like(x, pin_memory=1)),
        raises(lambda: T.tensor([1.0], pin_memory="a")),
        raises(lambda: T.zeros(2, pin_memory=True)),
        raises(lambda: T.empty(2, pin_memory=True)),
        raises(lambda: T.tensor([1.0], pin_memory=True)),
        raises(lambda: T.zeros_like(x, pin_memory=True)),
        raises(lambda: T.zeros(2, pin_memory=np.bool_(False))),
    )


@program()
def prog_ar2_factory_pin_memory_overloaded(T: Any) -> Any:
    x = _x(T, 2, 3)
    T.manual_seed(0)
    made = (
        T.rand(2, pin_memory=False),
        T.randn(2, pin_memory=None),
        T.randint(3, (2,), pin_memory=False),
        T.randperm(3, pin_memory=False),
        T.arange(3, pin_memory=False),
        T.eye(2, pin_memory=None),
        T.linspace(0, 1, 3, pin_memory=False),
        T.logspace(0, 1, 3, pin_memory=False),
        T.rand_like(x, pin_memory=False),
        T.randn_like(x, pin_memory=None),
    )
    return (
        *made,
        raises(lambda: T.rand(2, pin_memory="a")),
        raises(lambda: T.rand(2, 3, pin_memory="a")),
        raises(lambda: T.arange(3, pin_memory="a")),
        raises(lambda: T.eye(3, pin_memory="a")),
        raises(lambda: T.linspace(0, 1, 3, pin_memory="a")),
        raises(lambda: T.randint(3, (2,), pin_memory="a")),
        raises(lambda: T.randperm(3, pin_memory="a")),
        raises(lambda: T.randn_like(x, pin_memory="a")),
        raises(lambda: T.rand(2, pin_memory=True)),
        raises(lambda: T.arange(3, pin_memory=True)),
        raises(lambda: T.randperm(3, pin_memory=True)),
        raises(lambda: T.rand_like(x, pin_memory=True)),
    )


# --- the factories of several overloads: dtype=/device=/requires_grad= of the wrong type ----


@program()
def prog_ar2_factory_overloaded_dtype_device(T: Any) -> Any:
    x = _x(T, 2, 3)
    T.manual_seed(0)
    made = (
        T.rand(2, device="cpu", dtype=float),
        T.randn(2, 2, dtype=None, device=None, layout=None),
        T.arange(3, device=T.device("cpu")),
        T.eye(2, 3, dtype=int),
        T.linspace(0, 1, 3, dtype=T.float64, device="cpu"),
        T.randint(0, 3, (2,), dtype=T.int32),
        T.rand_like(x, dtype=T.float64, device="cpu"),
    )
    return (
        *made,
        raises(lambda: T.rand(2, dtype="a")),
        raises(lambda: T.rand(2, device=1.5)),
        raises(lambda: T.randn(2, dtype=3)),
        raises(lambda: T.randn(2, device=[1])),
        raises(lambda: T.rand(2, dtype="a", device=1.5)),
        raises(lambda: T.rand(2, requires_grad="a")),
        raises(lambda: T.arange(3, device=1.5)),
        raises(lambda: T.arange(0, 3, device=1.5)),
        raises(lambda: T.eye(3, dtype="a")),
        raises(lambda: T.eye(3, device=1.5)),
        raises(lambda: T.randint(3, (2,), dtype="a")),
        raises(lambda: T.randint(3, (2,), device=1.5)),
        raises(lambda: T.randperm(3, dtype="a")),
        raises(lambda: T.linspace(0, 1, 3, dtype="a")),
        raises(lambda: T.linspace(0, 1, 3, device=1.5)),
        raises(lambda: T.logspace(0, 1, 3, dtype="a")),
        raises(lambda: T.rand_like(x, dtype="a")),
        raises(lambda: T.randn_like(x, device=1.5)),
    )


# --- embedding: torch.embedding's int and bools; F.embedding passes them by position ---------


@program()
def prog_ar2_embedding_flag_types(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 4, 3)
    i = T.tensor([[0, 2], [3, 2]])
    y = T.embedding(w, i, np.int64(1), True) * 2 + F.embedding(i, w, padding_idx=None)
    y.sum().backward()
    return (
        raises(lambda: T.embedding(w, i, padding_idx=None)),
        raises(lambda: T.embedding(w, i, None)),
        raises(lambda: T.embedding(w, i, True)),
        raises(lambda: T.embedding(w, i, 1, "a")),
        raises(lambda: T.embedding(w, i, scale_grad_by_freq=1)),
        raises(lambda: T.embedding(w, i, sparse=None)),
        raises(lambda: T.embedding(w, i, -1, False, 1.5)),
        raises(lambda: F.embedding(i, w, sparse="a")),
        raises(lambda: F.embedding(i, w, scale_grad_by_freq=1)),
        raises(lambda: F.embedding(i, w, padding_idx=1.5)),
        y,
        y.grad_fn,
        w.grad,
    )


@program()
def prog_ar2_embedding_max_norm_types(T: Any) -> Any:
    F = T.nn.functional
    i = T.tensor([0, 2])

    def w() -> Any:
        return T.tensor(_data(4, 3, seed=2) * 3)

    return (
        raises(lambda: F.embedding(i, w(), max_norm="a")),
        raises(lambda: F.embedding(i, w(), max_norm=1.0, norm_type="a")),
        raises(lambda: F.embedding(i, w(), max_norm=[1.0])),
        F.embedding(i, w(), max_norm=1),
        F.embedding(i, w(), max_norm=1.0, norm_type=1),
        F.embedding(i, w(), max_norm=np.float32(1.0)),
        F.embedding(i, w(), 0, 1.0, 2.0, True, False),
    )


# --- addmm: beta and alpha are Numbers (the function form: two overloads, out_dtype's) -------


@program()
def prog_ar2_addmm_beta_alpha_types(T: Any) -> Any:
    c = _x(T, 2, 2)
    a = _x(T, 2, 3, seed=1)
    b = _x(T, 3, 2, seed=2)
    y = c.addmm(a, b, beta=np.float32(0.5), alpha=2) + T.addmm(c, a, b, beta=T.tensor(2.0))
    y.sum().backward()
    return (
        raises(lambda: c.addmm(a, b, beta="a")),
        raises(lambda: c.addmm(a, b, alpha=[1.0])),
        raises(lambda: T.addmm(c, a, b, beta="a")),
        raises(lambda: T.addmm(c, a, b, alpha=[1.0])),
        raises(lambda: c.addmm([1.0], b)),
        raises(lambda: c.addmm(a, None)),
        raises(lambda: T.addmm([1.0], a, b)),
        raises(lambda: T.addmm(c, "a", b)),
        raises(lambda: T.addmm(c, a, None)),
        raises(lambda: T.addmm(c, a)),
        raises(lambda: T.addmm(c, a, b, foo=1)),
        raises(lambda: c.addmm(a, a)),
        y,
        y.grad_fn,
        a.grad,
        b.grad,
        c.grad,
    )


# --- scatter: four overloads (src/value, with or without reduce) ---------------------------


@program()
def prog_ar2_scatter_argument_types(T: Any) -> Any:
    x = _x(T, 3, 4)
    s = _x(T, 1, 4, seed=1)
    i = T.tensor([[0, 1, 2, 0]])
    big = _x(T, 3, 4, seed=3)  # a src larger than index: its gradient's shape is index's
    big_err = raises(lambda: x.scatter(0, i, big).sum().backward())
    y = x.scatter(0, i, s) + T.scatter(x, 1, i, value=2.5)
    y.sum().backward()
    z = x.detach().scatter(0, i, 1.5, reduce="add")
    return (
        raises(lambda: x.scatter("a", i, 1.0)),
        raises(lambda: x.scatter(0, i, "a")),
        raises(lambda: x.scatter(0, i, [1.0])),
        raises(lambda: x.scatter(1.5, i, s)),
        raises(lambda: x.scatter(True, i, s)),
        raises(lambda: x.scatter(None, i, s)),
        raises(lambda: x.scatter(0, [0, 1], s)),
        raises(lambda: x.scatter(0, None, s)),
        raises(lambda: x.scatter(0, i)),
        raises(lambda: x.scatter(0, i, value="a")),
        raises(lambda: x.scatter(0, i, s, reduce=1)),
        raises(lambda: T.scatter(x, "a", i, 1.0)),
        raises(lambda: T.scatter(x, 0, i, "a")),
        raises(lambda: T.scatter([1.0], 0, i, s)),
        raises(lambda: T.scatter(x, 0, i)),
        raises(lambda: T.scatter(x, True, i, s)),
        raises(lambda: T.scatter(x, 0, i, s, foo=1)),
        raises(lambda: x.scatter(0, T.tensor([[5, 1]]), s)),
        big_err,
        big.grad,
        z,
        y,
        y.grad_fn,
        x.grad,
        s.grad,
    )


# --- one_hot's num_classes and the torch.<loss> functions' reduction are ints ---------------


@program()
def prog_ar2_one_hot_num_classes_not_int(T: Any) -> Any:
    F = T.nn.functional
    i = T.tensor([[0, 2], [1, 0]])
    return (
        raises(lambda: F.one_hot(i, "a")),
        raises(lambda: F.one_hot(i, num_classes=1.5)),
        raises(lambda: F.one_hot(i, True)),
        raises(lambda: F.one_hot(i, None)),
        raises(lambda: F.one_hot(i, 2**70)),
        raises(lambda: F.one_hot(i, num_classes=[3])),
        F.one_hot(i, np.int64(4)),
        F.one_hot(i, T.tensor(3)),
        F.one_hot(i),
        F.one_hot(i.t(), num_classes=3),
    )


@program()
def prog_ar2_loss_reduction_not_int(T: Any) -> Any:
    x = _x(T, 3, 4)
    t = T.tensor((_data(3, 4, seed=1) > 0).astype(np.float32))
    y = T.binary_cross_entropy_with_logits(x, t, None, None, np.int64(1))
    z = T.binary_cross_entropy_with_logits(x, t, reduction=2) + y
    z.backward()
    a = _x(T, 3, 4, seed=2)
    lbl = T.tensor([1.0, -1.0, 1.0])
    return (
        raises(lambda: T.binary_cross_entropy_with_logits(x, t, None, None, "a")),
        raises(lambda: T.binary_cross_entropy_with_logits(x, t, reduction=1.5)),
        raises(lambda: T.binary_cross_entropy_with_logits(x, t, reduction=None)),
        raises(lambda: T.binary_cross_entropy_with_logits(x, t, reduction=True)),
        raises(lambda: T.binary_cross_entropy_with_logits(x, t, reduction=2**70)),
        raises(lambda: T.cosine_embedding_loss(x, a, lbl, 0.0, "a")),
        raises(lambda: T.hinge_embedding_loss(x, t, reduction=1.5)),
        T.binary_cross_entropy_with_logits(x, t),
        T.cosine_embedding_loss(x, a, lbl, reduction=1),
        z,
        z.grad_fn,
        x.grad,
    )


# --- the same ops called correctly: values, grad_fn and gradients on edge inputs -----------


@program()
def prog_ar2_argsort_ties_transposed(T: Any) -> Any:
    x = T.tensor([[3.0, 1.0, 3.0], [2.0, 2.0, 0.0], [1.0, 3.0, 1.0]], requires_grad=True)
    xt = x.t()
    i = xt.argsort(dim=1, descending=True, stable=True)
    y = xt.gather(1, i) * T.tensor([1.0, 2.0, 3.0])
    y.sum().backward()
    e = T.tensor([]).argsort()
    return i, T.argsort(xt, 0, False), y, y.grad_fn, x.grad, e, e.dtype


@program()
def prog_ar2_round_decimals_dtypes(T: Any) -> Any:
    x = T.tensor([[1.2345, -2.5551, 1234.5678], [0.5, -0.5, 2.5]], requires_grad=True)
    y = x.round(decimals=2) + x.round(decimals=-1) * 2 + T.round(x, decimals=0)
    y.sum().backward()
    h = x.detach().half().round(decimals=1)
    d = x.detach().double().round(decimals=3)
    return y, y.grad_fn, x.grad, h, h.dtype, d, raises(lambda: T.tensor([1, 2]).round(decimals=1))


@program()
def prog_ar2_pad_modes_and_value_errors(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 2, 4)
    y = (
        F.pad(x, (1, 2), mode="reflect")
        + F.pad(x, [1, 2], "replicate")
        + F.pad(x, (2, 1), "circular")
    )
    y.sum().backward()
    return (
        y,
        y.grad_fn,
        x.grad,
        F.pad(x.detach(), (-1, 1), value=3),
        F.pad(x.detach(), (1, 1, 1, 1), value=0.0).shape,
        raises(lambda: F.pad(x, (1, 1), mode="reflect", value=2.0)),
        raises(lambda: F.pad(x, (1,), value=2.0)),
        raises(lambda: F.pad(x, (1, 1), mode="bogus")),
    )


@program()
def prog_ar2_softplus_threshold_double_backward(T: Any) -> Any:
    F = T.nn.functional
    x = T.tensor([-30.0, -1.0, 0.0, 0.5, 9.0, 11.0, 30.0], requires_grad=True)
    y = F.softplus(x, beta=2, threshold=10)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    g.sum().backward()
    return y, y.grad_fn, g, g.grad_fn, x.grad, F.softplus(x.detach().half(), 0.5)


@program()
def prog_ar2_layer_norm_noncontiguous(T: Any) -> Any:
    F = T.nn.functional
    base = _x(T, 4, 3)
    x = base.t()  # 3x4, not contiguous
    w = _x(T, 4, seed=1)
    b = _x(T, 4, seed=2)
    y = F.layer_norm(x, (4,), w, b, 1)
    y.sum().backward()
    z = F.layer_norm(x.detach(), [3, 4], eps=0.5)
    return y, y.grad_fn, base.grad, w.grad, b.grad, z, raises(lambda: F.layer_norm(x, (3,)))


@program()
def prog_ar2_std_var_correction_edges(T: Any) -> Any:
    x = _x(T, 2, 3)
    y = x.var(1, correction=0) + x.std(dim=1, correction=2, keepdim=False)
    y.sum().backward()
    one = T.tensor([[1.0, 2.0, 3.0]])
    return (
        y,
        y.grad_fn,
        x.grad,
        one.var(0),
        one.std(0, correction=0),
        T.tensor([]).var(),
        T.var_mean(x.detach(), 1, correction=1, keepdim=True),
        T.std_mean(x.detach(), unbiased=False),
    )


@program()
def prog_ar2_all_any_empty_and_uint8(T: Any) -> Any:
    e = T.zeros(0, 3)
    u = T.tensor([[0, 3], [1, 1]], dtype=T.uint8)
    return (
        e.all(),
        e.any(),
        e.all(0),
        e.any(1),
        e.all(1, keepdim=True).shape,
        u.all(1),
        u.any(0, keepdim=True),
        T.all(u),
        u.t().any(()),
        raises(lambda: u.all(2)),
        raises(lambda: e.any((0, 0))),
    )


@program()
def prog_ar2_multinomial_runtime_errors(T: Any) -> Any:
    p = T.tensor([0.2, 0.3, 0.5])
    return (
        raises(lambda: T.multinomial(p, 4)),
        raises(lambda: T.multinomial(p, 0)),
        raises(lambda: T.multinomial(p.reshape(1, 1, 3), 1)),
        raises(lambda: T.multinomial(T.tensor([1, 2]), 1)),
        raises(lambda: T.multinomial(T.tensor([-0.1, 1.0]), 1)),
        raises(lambda: T.multinomial(T.tensor([0.0, 0.0]), 1)),
        raises(lambda: T.multinomial(p, 2, out=T.zeros(2))),
        T.multinomial(T.tensor([0.0, 1.0, 0.0]), 1),
        T.multinomial(T.zeros(0, 3), 2).shape,
    )


@program()
def prog_ar2_factories_python_dtypes(T: Any) -> Any:
    return (
        T.arange(3, dtype=float),
        T.eye(2, dtype=bool),
        T.linspace(0, 4, 3, dtype=int),
        T.logspace(0, 2, 3, dtype=float),
        T.randint(0, 5, (2,), dtype=float).dtype,
        T.randperm(3, dtype=float).dtype,
        T.rand(2, dtype=float).dtype,
        T.zeros(2, dtype=complex),
        T.full((2,), 1, dtype=bool),
        raises(lambda: T.rand(2, dtype=int)),
        raises(lambda: T.randn(2, dtype=bool)),
    )


@program()
def prog_ar2_embedding_padding_idx_grad(T: Any) -> Any:
    F = T.nn.functional
    w = _x(T, 5, 3)
    i = T.tensor([[0, 2, 4], [4, 1, 2]])
    y = F.embedding(i, w, padding_idx=-1) * 2 + T.embedding(w, i, 2, True)
    y.sum().backward()
    return (
        y,
        y.grad_fn,
        w.grad,
        raises(lambda: F.embedding(i, w, padding_idx=5)),
        raises(lambda: F.embedding(i, w, padding_idx=-6)),
        raises(lambda: F.embedding(i.float(), w)),
    )


@program()
def prog_ar2_scatter_inplace_value_reduce(T: Any) -> Any:
    x = _x(T, 3, 4, rg=False)
    i = T.tensor([[0, 1, 2, 0], [2, 2, 1, 1]])
    a = x.clone().scatter_(0, i, 2.0, reduce="multiply")
    b = x.clone().scatter_(1, i, x, reduce="add")
    c = x.clone().scatter_(0, i, value=-1.0)
    return (
        a,
        b,
        c,
        raises(lambda: x.clone().scatter_(0, i, 2.0, reduce="mean")),
        raises(lambda: x.clone().scatter_(0, i.float(), 2.0)),
        raises(lambda: x.clone().scatter_(5, i, 2.0)),
    )


@program()
def prog_ar2_addmm_integer_and_bool(T: Any) -> Any:
    c = T.tensor([[1, 2], [3, 4]])
    a = T.tensor([[1, 0, 2], [0, 1, 1]])
    b = T.tensor([[1, 1], [2, 0], [0, 3]])
    return (
        c.addmm(a, b, beta=2, alpha=3),
        T.addmm(c, a, b, beta=1.7),
        T.addmm(c.double(), a.double(), b.double(), alpha=0.5),
        raises(lambda: T.addmm(c.bool(), a.bool(), b.bool())),
        raises(lambda: T.addmm(c.float(), a.float(), b.float(), beta=1j)),
        raises(lambda: T.addmm(c, a.float(), b)),
    )


# --- randint: the size is a tuple of ints (the high-only overload names it, by position) ----


@program()
def prog_ar2_randint_size_types(T: Any) -> Any:
    T.manual_seed(0)
    made = (T.randint(3, (2,)), T.randint(0, 3, [2, 2]), T.randint(5, size=(3,)), T.randint(2, ()))
    return (
        *made,
        raises(lambda: T.randint(3, "a")),
        raises(lambda: T.randint(3, 1.5)),
        raises(lambda: T.randint(3, True)),
        raises(lambda: T.randint(3, None)),
        raises(lambda: T.randint(3, [1, "a"])),
        raises(lambda: T.randint(3, [1.5])),
        raises(lambda: T.randint(0, 3, "a")),
        raises(lambda: T.randint(0, 3, 1.5)),
        raises(lambda: T.randint(0, 3, [2, "a"])),
        raises(lambda: T.randint(0, 3, None)),
        raises(lambda: T.randint(3, size="a")),
        raises(lambda: T.randint(2**70, (2,))),
    )


# --- smooth_l1/huber/kl_div: torch's Python hands beta/delta by position, log_target by name -


@program()
def prog_ar2_loss_parameters_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    t = T.tensor(_data(3, 4, seed=1))
    y = F.smooth_l1_loss(x, t, beta=T.tensor(0.5)) + F.huber_loss(x, t, "sum", 2)
    y = y + F.smooth_l1_loss(x, t, beta=np.float32(0.25)) + F.huber_loss(x, t, delta=T.tensor(2.0))
    y.backward()
    lp = T.log_softmax(x.detach(), 1)
    return (
        raises(lambda: F.smooth_l1_loss(x, t, beta="a")),
        raises(lambda: F.smooth_l1_loss(x, t, beta=None)),
        raises(lambda: F.huber_loss(x, t, delta="a")),
        raises(lambda: F.huber_loss(x, t, delta=[1.0])),
        raises(lambda: F.kl_div(lp, lp, log_target="a", reduction="batchmean")),
        raises(lambda: F.kl_div(lp, lp, reduction="sum", log_target=1)),
        raises(lambda: F.kl_div(lp, lp, reduction="sum", log_target=None)),
        F.kl_div(lp, lp.flip(0), reduction="sum", log_target=True),
        y,
        y.grad_fn,
        x.grad,
    )


# --- pooling: avg_pool2d is native (keywords name no position); max_pool2d's Python passes
# its arguments by position -----------------------------------------------------------------


@program()
def prog_ar2_pool2d_argument_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 1, 4, 4)
    y = F.avg_pool2d(x, 2, divisor_override=np.int64(3)) + F.max_pool2d(x, (2, 2), 2, 0, 1, True)
    y = y + F.avg_pool2d(x, [2, 2], stride=None, ceil_mode=True)
    y.sum().backward()
    return (
        raises(lambda: F.avg_pool2d(x, 2, ceil_mode="a")),
        raises(lambda: F.avg_pool2d(x, 2, 2, 0, 1)),
        raises(lambda: F.avg_pool2d(x, 2, count_include_pad=None)),
        raises(lambda: F.avg_pool2d(x, 2, divisor_override=1.5)),
        raises(lambda: F.avg_pool2d(x, "a")),
        raises(lambda: F.avg_pool2d(x, [2, "a"])),
        raises(lambda: F.max_pool2d(x, "a")),
        raises(lambda: F.max_pool2d(x, 2, ceil_mode=1)),
        raises(lambda: F.max_pool2d(x, 2, stride=1.5)),
        raises(lambda: F.max_pool2d(x, [2, "a"])),
        raises(lambda: F.max_pool2d(x, (1, 2), ceil_mode=np.bool_(True))),
        F.max_pool2d(x.detach(), 2, return_indices=True)[1],
        y,
        y.grad_fn,
        x.grad,
    )


# --- addcmul/addcdiv: value is a keyword-only Number (no position in either form) ----------


@program()
def prog_ar2_addcmul_addcdiv_value_types(T: Any) -> Any:
    x = _x(T, 2, 3)
    a = _x(T, 2, 3, seed=1)
    b = T.tensor(_data(2, 3, seed=2) ** 2 + 1)
    y = x.addcmul(a, b, value=T.tensor(2.0)) + T.addcdiv(x, a, b, value=np.float32(0.5))
    y = y + x.addcmul(a, b, value=True)
    y.sum().backward()
    return (
        raises(lambda: x.addcmul(a, b, value="a")),
        raises(lambda: T.addcmul(x, a, b, value="a")),
        raises(lambda: x.addcdiv(a, b, value=[1])),
        raises(lambda: x.addcmul(a, b, value=None)),
        raises(lambda: x.detach().clone().addcmul_(a, b, value=None)),
        raises(lambda: x.detach().clone().addcdiv_(a, b, value="a")),
        y,
        y.grad_fn,
        x.grad,
        a.grad,
    )


# --- torch.norm / Tensor.norm / F.normalize: torch's Python hands dim to linalg_vector_norm --


@program()
def prog_ar2_norm_dim_types(T: Any) -> Any:
    F = T.nn.functional
    x = _x(T, 3, 4)
    y = x.norm(2, (0, 1)) + x.norm("fro", [0, 1], keepdim=True).sum() + F.normalize(x, dim=0)
    y.sum().backward()
    return (
        raises(lambda: x.norm(2.0, 1.5, keepdim=True)),
        raises(lambda: x.norm(2, "a")),
        raises(lambda: x.norm(dim=1.5)),
        raises(lambda: x.norm(2, [0, "a"])),
        raises(lambda: x.norm(2, [1.5])),
        raises(lambda: F.normalize(x, dim=1.5)),
        raises(lambda: F.normalize(x, dim="a")),
        raises(lambda: T.norm(x, "fro", dim="a")),
        raises(lambda: T.norm(x, dim=np.int64(1))),
        y,
        y.grad_fn,
        x.grad,
    )


# --- the same errors through nn modules (their forward calls the functional form) ----------


@program()
def prog_ar2_modules_carry_parser_errors(T: Any) -> Any:
    nn = T.nn
    x = _x(T, 2, 4, 4, rg=False)
    t = T.tensor(_data(2, 4, 4, seed=1))
    i = T.tensor([[0, 2], [1, 1]])
    T.manual_seed(0)
    emb = nn.Embedding(5, 3, scale_grad_by_freq=1)
    return (
        raises(lambda: nn.LayerNorm(4, eps="a")(x)),
        raises(lambda: nn.Softplus(beta="a")(x)),
        raises(lambda: nn.Softplus(threshold=None)(x)),
        raises(lambda: nn.AvgPool2d(2, ceil_mode="a")(x)),
        raises(lambda: nn.MaxPool2d(2, ceil_mode=1)(x)),
        raises(lambda: emb(i)),
        raises(lambda: nn.SmoothL1Loss(beta="a")(x, t)),
        raises(lambda: nn.HuberLoss(delta=None)(x, t)),
        raises(lambda: nn.KLDivLoss(reduction="sum", log_target=1)(x, t)),
        raises(lambda: nn.ZeroPad2d("a")(x)),
        nn.LayerNorm(4, eps=1)(x),
        nn.Softplus(beta=2, threshold=1)(x),
        nn.AvgPool2d(2, divisor_override=3)(x),
    )


# --- div: rounding_mode is a str (three overloads listed) -----------------------------------


@program()
def prog_ar2_div_rounding_mode_not_str(T: Any) -> Any:
    x = _x(T, 2, 3)
    d = T.tensor(_data(2, 3, seed=1) ** 2 + 0.5)
    y = x.div(d) + T.div(x, 2, rounding_mode="floor") * x
    y = y + x.div(d, rounding_mode="trunc")
    y.sum().backward()
    return (
        raises(lambda: x.div(d, rounding_mode=1)),
        raises(lambda: T.div(x, d, rounding_mode=1)),
        raises(lambda: x.div(2, rounding_mode=[1])),
        raises(lambda: T.div(x, 2, rounding_mode=[1])),
        raises(lambda: x.div(d, rounding_mode="bad")),
        y,
        y.grad_fn,
        x.grad,
    )


@program(
    xfail="div with rounding_mode=None given explicitly runs torch's div.Tensor_mode overload "
    "(grad_fn DivBackward2, _saved_rounding_mode None); shadowgrad's default is None too, so it "
    "cannot tell the call from x.div(d) and records DivBackward0"
)
def prog_ar2_div_explicit_none_rounding_mode_grad_fn(T: Any) -> Any:
    x = _x(T, 2, 3)
    d = T.tensor(_data(2, 3, seed=1) ** 2 + 0.5)
    y = x.div(d, rounding_mode=None)
    y.sum().backward()
    return y, y.grad_fn, x.grad


# (keep last) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
