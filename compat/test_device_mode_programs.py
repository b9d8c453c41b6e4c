"""Realistic programs: devices. `torch.device` objects (constructor forms and errors, equality,
hashing), `with torch.device(...)` and `torch.set_default_device`, meta tensors (factories,
`nn` modules built on the meta device, `to_empty`, `load_state_dict(assign=True)`, shapes
through ops, autograd, repr, the errors of reading their data and of mixing devices), the
device-selection idioms of CPU-only code (`torch.cuda.is_available()`, `torch.backends.mps`,
`torch.accelerator`, `torch.get_device_module`, `torch.cpu`) and `torch.overrides`'
`TorchFunctionMode`. The programs register into test_realistic_programs_3's set and run through
its harness: each `prog(T)` runs on torch and on shadowgrad, and everything it returns, raises
or warns is compared.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data, _seeded

pytest.importorskip("torch")

_SET = _h.Subset()  # this file's programs: registered into set 3, run by its harness
program = _SET.program


def _m(t: Any) -> Any:
    """What can be seen of a tensor that may be on the meta device (no values)."""
    gf = t.grad_fn
    return (
        str(t.device),
        tuple(t.shape),
        str(t.dtype),
        t.is_meta,
        t.requires_grad,
        None if gf is None else type(gf).__name__,
        t.stride(),
        repr(t) if t.is_meta else None,
    )


@contextlib.contextmanager
def _default_device(T: Any, dev: Any) -> Any:
    T.set_default_device(dev)
    try:
        yield
    finally:
        T.set_default_device(None)


# --- torch.device objects ----------------------------------------------------------------------


@program()
def prog_dev_device_constructor_forms(T: Any) -> Any:
    d = T.device
    return (
        repr(d("cpu")),
        repr(d("cpu", 0)),
        repr(d("cpu:0")),
        repr(d("cuda:1")),
        repr(d("cuda", 2)),
        repr(d("meta")),
        repr(d("mps")),
        repr(d(type="cpu")),
        repr(d(type="cuda", index=3)),
        repr(d(d("cuda", 1))),
        str(d("cuda:1")),
        str(d("cpu")),
        d("cuda:1").type,
        d("cuda:1").index,
        d("cpu").index,
    )


@program()
def prog_dev_device_constructor_errors(T: Any) -> Any:
    d = T.device
    return (
        raises(lambda: d("foo")),
        raises(lambda: d("cuda:01")),
        raises(lambda: d(" cpu")),
        raises(lambda: d("cpu:")),
        raises(lambda: d("")),
        raises(lambda: d("cuda", -1)),
        raises(lambda: d("cuda:0", 1)),
        raises(lambda: d("cpu", "0")),
        raises(lambda: d("cpu", 1.0)),
        raises(lambda: d()),
        raises(lambda: d(None)),
        raises(lambda: d(0)),
        raises(lambda: d("CPU")),
    )


@program()
def prog_dev_device_equality_and_hash(T: Any) -> Any:
    d = T.device
    table = {d("cpu"): "a", d("meta"): "b", d("cuda", 0): "c"}
    return (
        d("cpu") == d("cpu"),
        d("cpu") == d("cpu", 0),
        d("cpu:0") == d("cpu", 0),
        d("cpu") == "cpu",
        d("cpu") != d("meta"),
        hash(d("cpu")) == hash(d("cpu")),
        table[d("meta")],
        table[d("cuda:0")],
        len({d("cpu"), d("cpu"), d("cpu", 0)}),
        T.zeros(2).device == d("cpu"),
        T.zeros(2).device.type,
        T.zeros(2).get_device(),
    )


@program()
def prog_dev_device_is_immutable_and_unordered(T: Any) -> Any:
    d = T.device("cuda", 1)

    def set_type() -> None:
        d.type = "cpu"

    def set_index() -> None:
        d.index = 3

    return (
        raises(set_type),
        raises(set_index),
        raises(lambda: T.device("cpu") < T.device("cpu")),
        raises(lambda: T.device("cpu") >= T.device("meta")),
        raises(lambda: T.device(type="cuda", index="1")),
        raises(lambda: T.device("cuda", index=1.5)),
        repr(T.device(type="cuda", index=2)),
        repr(T.device("cpu", index=None)),
        repr(d),
        sorted([T.device("meta"), T.device("cpu")], key=str),
        T.device("cpu") == None,  # noqa: E711
        bool(T.device("cpu")),
    )


# --- the default device -----------------------------------------------------------------------


@program()
def prog_dev_with_device_cpu_context(T: Any) -> Any:
    with T.device("cpu") as dv:
        a = T.zeros(2, 3)
        b = T.tensor([1.0, 2.0])
        inside = T.get_default_device()
    return repr(dv), a, b, a.device, repr(inside), repr(T.get_default_device())


@program()
def prog_dev_with_device_meta_factories(T: Any) -> Any:
    with T.device("meta"):
        made = [
            T.zeros(2, 3),
            T.ones(4),
            T.empty(1, 2),
            T.full((2,), 3.0),
            T.arange(5),
            T.tensor([1.0, 2.0]),
            T.randn(3, 2),
            T.rand(2),
            T.randint(0, 5, (3,)),
            T.eye(2),
            T.linspace(0, 1, 5),
            T.zeros(2, device="cpu"),
        ]
        inside = repr(T.get_default_device())
    after = T.zeros(2)
    return [_m(t) for t in made], inside, after, repr(T.get_default_device())


@program()
def prog_dev_with_device_nested_and_like(T: Any) -> Any:
    cpu = T.ones(2, 3)
    with T.device("meta"):
        with T.device("cpu"):
            c = T.zeros(2)
            inner = repr(T.get_default_device())
        m = T.zeros(2)
        z = T.zeros_like(cpu)  # *_like follow their tensor, not the default device
        n = cpu.new_zeros(3)
        e = T.empty_like(m)
        mid = repr(T.get_default_device())
    return c, inner, _m(m), z, n, _m(e), mid


@program()
def prog_dev_set_default_device(T: Any) -> Any:
    out = [repr(T.get_default_device())]
    with _default_device(T, "meta"):
        out.append(repr(T.get_default_device()))
        out.append(_m(T.zeros(3)))
        with T.device("cpu"):
            out.append(T.zeros(1))
        out.append(repr(T.get_default_device()))
    out.append(repr(T.get_default_device()))
    with _default_device(T, T.device("cpu")):
        out.append(T.ones(2))
        out.append(repr(T.get_default_device()))
    out.append(raises(lambda: T.set_default_device("foo")))
    out.append(raises(lambda: T.set_default_device(3)))
    out.append(repr(T.get_default_device()))
    return out


@program()
def prog_dev_default_device_cuda_without_cuda(T: Any) -> Any:
    with _default_device(T, "cuda"):
        a = raises(lambda: T.zeros(2))
        b = raises(lambda: T.get_default_device())
        c = T.zeros(2, device="cpu")
    with T.device("cuda"):
        d = raises(lambda: T.ones(1))
        e = T.ones(1, device="cpu")
    return a, b, c, d, e


@program()
def prog_dev_default_device_meta_module(T: Any) -> Any:
    with T.device("meta"):
        net = T.nn.Sequential(T.nn.Linear(4, 8), T.nn.ReLU(), T.nn.Linear(8, 2))
    return [(n, _m(p)) for n, p in net.named_parameters()], repr(T.get_default_device())


# --- meta tensors ------------------------------------------------------------------------------


@program()
def prog_dev_meta_factory_repr(T: Any) -> Any:
    ts = [
        T.zeros(2, device="meta"),
        T.empty(2, 3, device="meta"),
        T.zeros((), device="meta"),
        T.zeros(0, 3, device="meta"),
        T.ones(2, device="meta", dtype=T.float16),
        T.ones(2, device="meta", dtype=T.float64),
        T.arange(5, device="meta"),
        T.zeros(2, device="meta", dtype=T.bool),
        T.ones(2, 3, device="meta", requires_grad=True),
        T.tensor([1.0, 2.0], device="meta"),
        T.empty(2, device=T.device("meta")),
        T.full((2, 2), 7, device="meta"),
    ]
    return [(repr(t), str(t), _m(t)) for t in ts]


@program()
def prog_dev_meta_properties(T: Any) -> Any:
    m = T.zeros(2, 3, device="meta")
    return (
        m.is_meta,
        m.is_cpu,
        m.is_cuda,
        repr(m.device),
        m.get_device(),
        m.dim(),
        m.numel(),
        m.element_size(),
        m.nbytes,
        m.stride(),
        m.is_contiguous(),
        m.t().is_contiguous(),
        m.t().stride(),
        m.t().contiguous().stride(),
        m.dtype,
        m.shape,
        T.zeros(2).is_meta,
        T.zeros(2).is_cpu,
    )


@program()
def prog_dev_meta_no_data_errors(T: Any) -> Any:
    m = T.zeros(2, device="meta")
    one = T.zeros(1, device="meta")
    return (
        raises(lambda: m.item()),
        raises(lambda: one.item()),
        raises(lambda: m.tolist()),
        raises(lambda: one.tolist()),
        raises(lambda: m.numpy()),
        raises(lambda: np.asarray(m)),
        raises(lambda: m.cpu()),
        raises(lambda: m.to("cpu")),
        raises(lambda: m.to(T.device("cpu"))),
        raises(lambda: m.to("cpu", T.float64)),
        raises(lambda: bool(one)),
        raises(lambda: float(one)),
        raises(lambda: int(one)),
        raises(lambda: m.sum().item()),
    )


@program()
def prog_dev_meta_to_and_from(T: Any) -> Any:
    x = T.tensor(_data(2, 3))
    m = x.to("meta")
    m2 = x.to(device="meta", dtype=T.float64)
    m3 = x.to(T.device("meta"))
    same = m.to("meta") is m
    md = m.to(T.float64)
    return _m(m), _m(m2), _m(m3), same, _m(md), x, _m(m.to("meta", T.int32))


@program()
def prog_dev_meta_shapes_through_ops(T: Any) -> Any:
    F = T.nn.functional
    x = T.zeros(2, 3, device="meta")
    w = T.zeros(4, 3, device="meta")
    b = T.zeros(4, device="meta")
    img = T.zeros(1, 3, 8, 8, device="meta")
    k = T.zeros(5, 3, 3, 3, device="meta")
    outs = {
        "linear": F.linear(x, w, b),
        "matmul": x @ w.t(),
        "mm": T.mm(x, w.t()),
        "bmm": T.bmm(x[None], w.t()[None]),
        "conv2d": F.conv2d(img, k, padding=1),
        "cat": T.cat([x, x], 1),
        "stack": T.stack([x, x]),
        "view": x.view(3, 2),
        "reshape": x.reshape(-1),
        "permute": img.permute(0, 2, 3, 1),
        "expand": b.expand(2, 4),
        "sum": x.sum(),
        "sum0": x.sum(0),
        "mean1k": x.mean(1, keepdim=True),
        "max1": x.max(1).values,
        "argmax": x.argmax(1),
        "softmax": x.softmax(-1),
        "relu": F.relu(x),
        "eq": x == x,
        "index": x[0],
        "slice": x[:, 1:],
        "flatten": img.flatten(1),
        "double": x.double(),
        "long": x.long(),
        "where": T.where(x > 0, x, 0.0),
        "scalar_cpu": x * T.tensor(2.0),
    }
    return {k: _m(v) for k, v in outs.items()}


@program()
def prog_dev_meta_mixed_device_errors(T: Any) -> Any:
    m = T.zeros(2, 3, device="meta")
    c = T.ones(2, 3)
    ms = T.tensor(1.0, device="meta")
    return (
        raises(lambda: m + c),
        raises(lambda: c + m),
        raises(lambda: c * ms),
        raises(lambda: ms + c),
        raises(lambda: T.cat([m, c])),
        raises(lambda: T.cat([c, m])),
        raises(lambda: T.where(m > 0, c, m)),
        _m(m + T.tensor(1.0)),
        _m(m * 2),
    )


@program()
def prog_dev_meta_linear_on_cpu_input(T: Any) -> Any:
    lin = T.nn.Linear(3, 4, device="meta")
    x = T.tensor(_data(2, 3))
    return raises(lambda: lin(x)), _m(lin(x.to("meta")))


@program()
def prog_dev_meta_autograd(T: Any) -> Any:
    w = T.ones(3, 4, device="meta", requires_grad=True)
    x = T.zeros(2, 3, device="meta")
    y = (x @ w).relu().sum()
    y.backward()
    return _m(y), _m(w.grad), w.grad.is_meta, _m(w), w.is_leaf


@program()
def prog_dev_meta_data_dependent_ops(T: Any) -> Any:
    m = T.zeros(2, 3, device="meta")
    return (
        raises(lambda: m.nonzero()),
        raises(lambda: m[m > 0]),
        raises(lambda: T.equal(m, m)),
        raises(lambda: (m.sum() > 0).item()),
    )


@program()
def prog_dev_meta_inplace_and_clone(T: Any) -> Any:
    m = T.zeros(2, 3, device="meta")
    a = m.clone().fill_(1.0)
    b = m.clone().zero_()
    c = m.clone().add_(1)
    d = m.clone().mul_(T.tensor(2.0))
    e = m.detach()
    return _m(a), _m(b), _m(c), _m(d), _m(e), _m(m.data), _m(m.new_empty(4)), _m(m.new_ones(2))


# --- the meta-device idioms: build, then materialize -------------------------------------------


class _NetFactory:
    @staticmethod
    def make(T: Any) -> Any:
        class Net(T.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.fc1 = T.nn.Linear(4, 6)
                self.fc2 = T.nn.Linear(6, 2)
                self.register_buffer("scale", T.ones(2))

            def forward(self, x: Any) -> Any:
                return self.fc2(self.fc1(x).relu()) * self.scale

        return Net


@program()
def prog_dev_meta_module_to_empty_then_reset(T: Any) -> Any:
    Net = _NetFactory.make(T)
    with T.device("meta"):
        net = Net()
    before = [(n, _m(p)) for n, p in net.named_parameters()]
    bufs = [(n, _m(b)) for n, b in net.named_buffers()]
    out = net.to_empty(device="cpu")
    same = out is net
    for mod in (net.fc1, net.fc2):
        mod.reset_parameters()
    _seeded(T, net, 3)
    net.scale.fill_(1.0)
    x = T.tensor(_data(5, 4))
    y = net(x)
    return before, bufs, same, [(n, p.device, p.shape) for n, p in net.named_parameters()], y


@program()
def prog_dev_meta_load_state_dict_assign(T: Any) -> Any:
    src = _seeded(T, T.nn.Linear(3, 2), 1)
    sd = src.state_dict()
    with T.device("meta"):
        dst = T.nn.Linear(3, 2)
    res = dst.load_state_dict(sd, assign=True)
    x = T.tensor(_data(4, 3))
    y = dst(x)
    y.sum().backward()
    return (
        repr(res),
        dst.weight.is_meta,
        type(dst.weight).__name__,
        dst.weight.requires_grad,
        dst.weight is sd["weight"],
        y,
        dst.weight.grad,
    )


@program()
def prog_dev_meta_load_state_dict_without_assign_warns(T: Any) -> Any:
    src = _seeded(T, T.nn.Linear(3, 2), 2)
    dst = T.nn.Linear(3, 2, device="meta")
    res = dst.load_state_dict(src.state_dict())
    return repr(res), _m(dst.weight), _m(dst.bias)


@program()
def prog_dev_meta_module_to_and_cpu_errors(T: Any) -> Any:
    lin = T.nn.Linear(3, 4, device="meta")
    a = raises(lambda: lin.cpu())
    b = raises(lambda: lin.to("cpu"))
    c = raises(lambda: lin.to(T.device("cpu"), T.float64))
    cpu_lin = _seeded(T, T.nn.Linear(2, 2), 0)
    moved = cpu_lin.to("meta")
    return a, b, c, moved is cpu_lin, _m(cpu_lin.weight), type(cpu_lin.weight).__name__


@program()
def prog_dev_meta_module_to_meta_with_dtype(T: Any) -> Any:
    net = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.BatchNorm1d(3))
    net.to("meta", T.float64)
    return [(n, _m(t)) for n, t in (*net.named_parameters(), *net.named_buffers())]


@program()
def prog_dev_meta_parameter_repr(T: Any) -> Any:
    p = T.nn.Parameter(T.zeros(2, 3, device="meta"))
    lin = T.nn.Linear(2, 2, device="meta")
    return repr(p), str(lin.weight), repr(lin), _m(p)


@program()
def prog_dev_meta_init_functions(T: Any) -> Any:
    w = T.empty(4, 3, device="meta")
    T.nn.init.kaiming_uniform_(w)
    T.nn.init.zeros_(w)
    T.nn.init.normal_(w)
    T.nn.init.xavier_uniform_(w)
    T.nn.init.constant_(w, 0.5)
    return _m(w)


@program()
def prog_dev_meta_count_parameters_without_memory(T: Any) -> Any:
    with T.device("meta"):
        net = T.nn.Sequential(
            T.nn.Embedding(1000, 64),
            T.nn.Linear(64, 256),
            T.nn.GELU(),
            T.nn.Linear(256, 64),
            T.nn.LayerNorm(64),
        )
    n = sum(p.numel() for p in net.parameters())
    size = sum(p.numel() * p.element_size() for p in net.parameters())
    return n, size, all(p.is_meta for p in net.parameters()), repr(net)


# --- device selection on a CPU-only machine ----------------------------------------------------


@program()
def prog_dev_device_selection_idiom(T: Any) -> Any:
    device = "cuda" if T.cuda.is_available() else "mps" if T.backends.mps.is_available() else "cpu"
    model = _seeded(T, T.nn.Linear(3, 2), 4).to(device)
    x = T.tensor(_data(2, 3)).to(device)
    y = model(x)
    return device, y, y.device, next(model.parameters()).device


@program()
def prog_dev_accelerator_and_device_modules(T: Any) -> Any:
    acc = T.accelerator.current_accelerator()
    dev = acc.type if T.accelerator.is_available() else "cpu"
    return (
        acc,
        dev,
        T.accelerator.device_count(),
        T.cuda.is_available(),
        T.cuda.device_count(),
        T.xpu.is_available(),
        T.mps.is_available(),
        T.backends.mps.is_available(),
        T.backends.mps.is_built(),
        T.get_device_module().__name__.split(".")[-1],
        T.get_device_module("cpu").__name__.split(".")[-1],
        T.get_device_module("cpu:0").__name__.split(".")[-1],
        T.get_device_module(T.device("cuda")).__name__.split(".")[-1],
        raises(lambda: T.get_device_module("meta")),
        raises(lambda: T.get_device_module(0)),
        raises(lambda: T.get_device_module("foo")),
    )


@program()
def prog_dev_torch_cpu_module(T: Any) -> Any:
    s = T.cpu.current_stream()
    with T.cpu.stream(s):
        pass
    return (
        T.cpu.is_available(),
        T.cpu.device_count(),
        T.cpu.current_device(),
        T.cpu.synchronize(),
        T.cpu.synchronize("cpu"),
        T.cpu.is_initialized(),
        T.cpu.set_device("cpu"),
        type(s).__name__,
        s is T.cpu.current_stream(),
        type(T.cpu.Stream()).__name__,
    )


@program()
def prog_dev_cpu_amp_autocast_deprecated(T: Any) -> Any:
    lin = _seeded(T, T.nn.Linear(3, 2), 5)
    x = T.tensor(_data(2, 3))
    with T.cpu.amp.autocast():
        y = lin(x)
        on = T.is_autocast_enabled("cpu")
    with T.cpu.amp.autocast(dtype=T.float16):
        z = lin(x)
    with T.cpu.amp.autocast(enabled=False):
        w = lin(x)
    return y.dtype, on, z.dtype, w.dtype, y.float()


@program()
def prog_dev_no_accelerator_errors(T: Any) -> Any:
    return (
        raises(lambda: T.zeros(2, device="cuda")),
        raises(lambda: T.zeros(2, device="cuda:0")),
        raises(lambda: T.zeros(2, device="xpu")),
        raises(lambda: T.zeros(2).to("cuda")),
        raises(lambda: T.zeros(2).cuda()),
        raises(lambda: T.mps.synchronize()),
        raises(lambda: T.xpu.synchronize()),
        raises(lambda: T.xpu.current_device()),
        raises(lambda: T.cuda.current_device()),
    )


@program()
def prog_dev_meta_autograd_reductions(T: Any) -> Any:
    w = T.ones(3, 2, device="meta", requires_grad=True)
    (w * 2).sum().backward()
    g1 = _m(w.grad)
    w.grad = None
    (w.exp() / 3).mean().backward()
    g2 = _m(w.grad)
    (g3,) = T.autograd.grad((w**2).sum(), w)
    loss = T.nn.functional.mse_loss(w, T.zeros(3, 2, device="meta"))
    (g4,) = T.autograd.grad(loss, w)
    return g1, g2, _m(g3), _m(loss), _m(g4), _m(w.norm()), _m(w.pow(3))


# --- TorchFunctionMode -------------------------------------------------------------------------


def _log_mode(T: Any) -> Any:
    class Log(T.overrides.TorchFunctionMode):
        def __init__(self, tag: str = "log") -> None:
            super().__init__()
            self.tag = tag
            self.log: list[Any] = []

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.log.append((self.tag, func.__name__, len(args), sorted((kwargs or {}).items())))
            return func(*args, **(kwargs or {}))

    return Log


@program()
def prog_dev_mode_logs_functions_methods_and_properties(T: Any) -> Any:
    Log = _log_mode(T)
    F = T.nn.functional
    x = T.tensor(_data(2, 3), requires_grad=True)
    w = T.tensor(_data(4, 3, seed=1))
    with Log() as mode:
        a = x + 1
        b = x.sum()
        c = T.add(x, x, alpha=2)
        d = x.shape
        e = x[0]
        f = x.T
        g = F.relu(x)
        h = F.linear(x, w)
        i = x.size(0)
        j = 2 * x
        k = x.exp().mean()
        m = T.cat([x, x])
        n = x.dtype
        o = T.zeros(2)
        p = len(x)
    return mode.log, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p


@program()
def prog_dev_mode_changes_results(T: Any) -> Any:
    class AddIsSub(T.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            if func is T.add or func is T.Tensor.add:
                return T.sub(*args, **(kwargs or {}))
            return func(*args, **(kwargs or {}))

    x = T.tensor(_data(3))
    y = T.tensor(_data(3, seed=1))
    with AddIsSub():
        r = (x + y, T.add(x, y), x.add(y), x * y)
    return r, x + y


@program()
def prog_dev_mode_nested_order_and_stack(T: Any) -> Any:
    Log = _log_mode(T)
    ov = T.overrides
    x = T.tensor(_data(2))
    log: list[Any] = []
    before = (ov._get_current_function_mode(), T._C._is_torch_function_mode_enabled())
    with Log("outer") as outer:
        with Log("inner") as inner:
            y = x.mul(2)
            top = ov._get_current_function_mode() is inner
            depth = len(ov._get_current_function_mode_stack())
            on = T._C._is_torch_function_mode_enabled()
        z = x.neg()
        log = outer.log + inner.log
    after = (ov._get_current_function_mode(), T._C._is_torch_function_mode_enabled())
    return log, y, z, top, depth, on, before, after, x.mul(3)


@program()
def prog_dev_mode_not_implemented_errors(T: Any) -> Any:
    class Refuse(T.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return NotImplemented

    x = T.ones(2)
    with Refuse():
        out = (
            raises(lambda: T.add(x, 1)),
            raises(lambda: x.sum()),
            raises(lambda: x + 1),
            raises(lambda: T.nn.functional.relu(x)),
        )
    return out, x + 1


@program()
def prog_dev_mode_base_class_and_push(T: Any) -> Any:
    TFM = T.overrides.TorchFunctionMode
    x = T.ones(2)
    with TFM():
        err = raises(lambda: x + 1)
    Log = _log_mode(T)
    m = Log.push()
    return err, type(m).__name__, raises(lambda: T.overrides._pop_mode())


@program()
def prog_dev_mode_disabled_torch_function(T: Any) -> Any:
    Log = _log_mode(T)
    x = T.tensor(_data(3))
    with Log() as mode:
        with T._C.DisableTorchFunction():
            a = x.sum()
            b = T.add(x, x)
        with T._C.DisableTorchFunctionSubclass():
            c = x.mean()
    return mode.log, a, b, c


@program()
def prog_dev_mode_sees_backward_once(T: Any) -> Any:
    Log = _log_mode(T)
    lin = _seeded(T, T.nn.Linear(3, 2), 6)
    x = T.tensor(_data(4, 3))
    with Log() as mode:
        loss = lin(x).relu().pow(2).mean()
        loss.backward()
    names = [e[1] for e in mode.log]
    return names, loss, lin.weight.grad, lin.bias.grad


@program()
def prog_dev_mode_with_tensor_subclass(T: Any) -> Any:
    class Sub(T.Tensor):
        @classmethod
        def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            return super().__torch_function__(func, types, args, kwargs)

    class LogTypes(T.overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.log: list[Any] = []

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.log.append((func.__name__, [t.__name__ for t in types]))
            return func(*args, **(kwargs or {}))

    s = T.tensor(_data(2)).as_subclass(Sub)
    x = T.tensor(_data(2, seed=1))
    with LogTypes() as mode:
        u = s + 1
        v = T.add(s, x)
        w = s.sum()
    return mode.log, type(u).__name__, type(v).__name__, type(w).__name__, u, v, w


@program()
def prog_dev_mode_device_redirect(T: Any) -> Any:
    class ToMeta(T.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            kwargs = dict(kwargs or {})
            if func in (T.zeros, T.ones, T.empty, T.randn) and kwargs.get("device") is None:
                kwargs["device"] = "meta"
            return func(*args, **kwargs)

    with ToMeta():
        a = T.zeros(2, 3)
        b = T.randn(4)
        c = T.ones(2, device="cpu")
    return _m(a), _m(b), c


@program()
def prog_dev_mode_counts_ops_in_training_step(T: Any) -> Any:
    class Count(T.overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.counts: dict[str, int] = {}

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            name = func.__name__
            if name in ("linear", "relu", "mse_loss", "backward"):
                self.counts[name] = self.counts.get(name, 0) + 1
            return func(*args, **(kwargs or {}))

    net = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 1)), 7)
    x = T.tensor(_data(5, 3))
    y = T.tensor(_data(5, 1, seed=2))
    with Count() as c:
        loss = T.nn.functional.mse_loss(net(x), y)
        loss.backward()
    return sorted(c.counts.items()), loss, net[0].weight.grad


@program()
def prog_dev_mode_restores_plain_dispatch(T: Any) -> Any:
    Log = _log_mode(T)
    x = T.tensor(_data(3))
    add, sub = T.add, T.Tensor.sub
    with Log():
        pass
    return T.add is add, T.Tensor.sub is sub, x.add(1), T._C._is_torch_function_mode_enabled()


@program()
def prog_dev_device_pickle_and_copy(T: Any) -> Any:
    import copy
    import pickle

    ds = [T.device("cpu"), T.device("cuda", 1), T.device("meta"), T.device("cpu:0")]
    back = [pickle.loads(pickle.dumps(d)) for d in ds]
    return (
        [repr(b) for b in back],
        [b == d for b, d in zip(back, ds, strict=True)],
        [repr(copy.deepcopy(d)) for d in ds],
        [d.__reduce__()[1] for d in ds],
        f"{T.device('cuda:0')}",
        f"{T.device('cpu')!r}",
    )


@program()
def prog_dev_meta_type_pointer_and_pin(T: Any) -> Any:
    m = T.zeros(4, 3, device="meta")
    return (
        m.type(),
        m.double().type(),
        m.long().type(),
        m.half().type(),
        m.data_ptr(),
        m[1:].data_ptr(),
        m.storage_offset(),
        m[1:].storage_offset(),
        m.t()[1].storage_offset(),
        m.is_pinned(),
        raises(lambda: m.pin_memory()),
        raises(lambda: m.long().pin_memory()),
        T.zeros(2).type(),
    )


@program()
def prog_dev_meta_deepcopy_and_state_dict(T: Any) -> Any:
    import copy

    lin = T.nn.Linear(3, 2, device="meta")
    m = T.zeros(2, 3, device="meta", requires_grad=True)
    mc = copy.deepcopy(m)
    lc = copy.deepcopy(lin)
    sd = lin.state_dict()
    return (
        _m(mc),
        mc is m,
        _m(lc.weight),
        type(lc.weight).__name__,
        sorted(sd),
        [_m(v) for v in sd.values()],
    )


@program()
def prog_dev_meta_modules_of_every_kind(T: Any) -> Any:
    mods = {
        "embedding": T.nn.Embedding(10, 4, device="meta"),
        "conv2d": T.nn.Conv2d(3, 5, 3, device="meta"),
        "layernorm": T.nn.LayerNorm(6, device="meta"),
        "batchnorm": T.nn.BatchNorm1d(4, device="meta"),
        "lstm_free": T.nn.Bilinear(2, 3, 4, device="meta"),
        "mha_free": T.nn.GroupNorm(2, 4, device="meta"),
    }
    return {
        k: [(n, _m(t)) for n, t in (*m.named_parameters(), *m.named_buffers())]
        for k, m in mods.items()
    }


@program()
def prog_dev_meta_factories_like_and_new(T: Any) -> Any:
    x = T.ones(2, 3)
    m = T.zeros(2, 3, device="meta")
    return (
        _m(T.empty_like(x, device="meta")),
        _m(T.full_like(x, 2.0, device="meta")),
        _m(T.zeros_like(m)),
        _m(T.ones_like(m, dtype=T.float64)),
        _m(T.randn_like(m)),
        _m(T.rand_like(x, device="meta")),
        _m(T.randint_like(m, 5)),
        _m(x.new_zeros(2, device="meta")),
        _m(m.new_tensor([1.0, 2.0])),
        _m(m.new_full((2,), 3.0)),
        T.empty_like(m, device="cpu").shape,
        T.zeros_like(m, device="cpu"),
        _m(T.as_tensor([1, 2], device="meta")),
        _m(T.tensor(3.0, device="meta")),
        _m(T.zeros(2, device="meta").to(T.float16)),
    )


@program()
def prog_dev_meta_dropout_and_random(T: Any) -> Any:
    F = T.nn.functional
    m = T.zeros(2, 3, device="meta")
    T.manual_seed(0)
    outs = [
        F.dropout(m, 0.5),
        F.dropout(m, 0.5, training=False),
        F.dropout2d(T.zeros(2, 3, 4, 4, device="meta"), 0.5),
        m.clone().uniform_(),
        m.clone().normal_(),
        T.bernoulli(T.full((3,), 0.5, device="meta")),
    ]
    after = T.rand(2)  # meta sampling draws nothing: the cpu generator is where it was
    T.manual_seed(0)
    fresh = T.rand(2)
    return [_m(o) for o in outs], after, fresh


@program()
def prog_dev_legacy_constructors_ignore_default_device(T: Any) -> Any:
    x = T.ones(2)
    with T.device("meta"):
        out = (
            T.Tensor(2, 3).device,
            T.FloatTensor(2).device,
            T.empty_like(x).device,
            x.new_empty(2).device,
            T.nn.Parameter(T.empty(2)).device,
            T.tensor(1).device,
            T.from_numpy(np.ones(2)).device,
        )
    return out


@program()
def prog_dev_accelerator_functions_without_one(T: Any) -> Any:
    A = T.accelerator
    with A.device_index(None):
        pass

    def enter_index() -> None:
        with A.device_index(0):
            pass

    return (
        A.is_available(),
        A.device_count(),
        A.current_accelerator(),
        A.current_accelerator(check_available=True),
        raises(lambda: A.current_device_index()),
        raises(lambda: A.set_device_index(0)),
        raises(lambda: A.synchronize()),
        raises(lambda: A.current_stream()),
        raises(lambda: A.empty_cache()),
        raises(lambda: A.memory_allocated()),
        raises(lambda: A.current_device_idx()),
        raises(enter_index),
    )


@program()
def prog_dev_cuda_queries_without_cuda(T: Any) -> Any:
    C = T.cuda
    return (
        C.is_available(),
        C.device_count(),
        C.is_initialized(),
        C.memory_allocated(),
        C.manual_seed(0),
        C.manual_seed_all(0),
        raises(lambda: C.current_device()),
        raises(lambda: C.get_device_name()),
        raises(lambda: C.synchronize()),
        T.backends.cudnn.is_available(),
        T.backends.cuda.is_built(),
    )


@program()
def prog_dev_overrides_resolve_name(T: Any) -> Any:
    ov = T.overrides
    F = T.nn.functional
    return (
        ov.resolve_name(T.add),
        ov.resolve_name(T.Tensor.add),
        ov.resolve_name(T.Tensor.__add__),
        ov.resolve_name(F.relu),
        ov.resolve_name(T.Tensor.shape.__get__),
        ov.resolve_name(T.linalg.norm),
        ov.resolve_name(lambda v: v),
        ov.is_tensor_method_or_property(T.Tensor.add),
        ov.is_tensor_method_or_property(T.Tensor.shape.__get__),
        ov.is_tensor_method_or_property(T.add),
    )


@program()
def prog_dev_mode_resolve_name_inside(T: Any) -> Any:
    ov = T.overrides

    class Names(ov.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.names: list[Any] = []

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            self.names.append((ov.resolve_name(func), ov.is_tensor_method_or_property(func)))
            return func(*args, **(kwargs or {}))

    x = T.tensor(_data(2, 2))
    with Names() as mode:
        a = x @ x
        b = T.nn.functional.softmax(x, dim=-1)
        c = x.ndim
        d = T.matmul(x, x)
    return mode.names, a, b, c, d


@program()
def prog_dev_mode_sees_repr_grad_and_parameters(T: Any) -> Any:
    Log = _log_mode(T)
    x = T.tensor(_data(2, 2), requires_grad=True)
    with Log() as mode:
        text = repr(x.detach())
        s = str(x.detach())
        (g,) = T.autograd.grad((x**2).sum(), x)
        p = T.nn.Parameter(T.ones(2))
        q = p * 2
        items = list(x.detach())
    return mode.log, text, s, g, q, items


@program()
def prog_dev_mode_warning_points_at_user_line(T: Any) -> Any:
    import warnings

    Log = _log_mode(T)
    x = T.tensor(_data(3), requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with Log():
            v = float(x.sum())
    return (
        round(v, 4),
        [(str(i.message).split("(")[0], i.category.__name__) for i in w],
        [i.filename.endswith("test_device_mode_programs.py") for i in w],
    )


@program()
def prog_dev_mode_passthrough_training_matches(T: Any) -> Any:
    class Passthrough(T.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return func(*args, **(kwargs or {}))

    def train(use_mode: bool) -> Any:
        net = _seeded(T, T.nn.Sequential(T.nn.Linear(3, 5), T.nn.Tanh(), T.nn.Linear(5, 2)), 8)
        opt = T.optim.Adam(net.parameters(), lr=0.05)
        x = T.tensor(_data(6, 3))
        y = T.tensor([0, 1, 1, 0, 1, 0])
        ctx = Passthrough() if use_mode else contextlib.nullcontext()
        losses = []
        with ctx:
            for _ in range(3):
                opt.zero_grad()
                loss = T.nn.functional.cross_entropy(net(x), y)
                loss.backward()
                opt.step()
                losses.append(loss.detach())
        return losses, [p.detach() for p in net.parameters()]

    a = train(True)
    b = train(False)
    return a, b


@program()
def prog_dev_mode_handler_recursion_goes_to_next_mode(T: Any) -> Any:
    Log = _log_mode(T)

    class Doubler(T.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            out = func(*args, **(kwargs or {}))
            if func is T.Tensor.sum:
                return out * 2  # seen by the outer mode, not by this one again
            return out

    x = T.tensor(_data(3))
    with Log("outer") as outer, Doubler():
        s = x.sum()
        n = x.neg()
    return outer.log, s, n


@program()
def prog_dev_meta_optimizer_steps(T: Any) -> Any:
    out = []
    for make in (
        lambda ps: T.optim.SGD(ps, lr=0.1, momentum=0.9),
        lambda ps: T.optim.Adam(ps, lr=0.1),
        lambda ps: T.optim.AdamW(ps, lr=0.1, weight_decay=0.1),
        lambda ps: T.optim.RMSprop(ps, lr=0.1),
    ):
        p = T.nn.Parameter(T.zeros(3, device="meta"))
        p.grad = T.ones(3, device="meta")
        opt = make([p])
        opt.step()
        state = opt.state[p]
        out.append(
            (_m(p), sorted((k, _m(v) if hasattr(v, "is_meta") else v) for k, v in state.items()))
        )
    return out


@program()
def prog_dev_meta_layers_forward(T: Any) -> Any:
    F = T.nn.functional
    m = T.zeros(4, 3, device="meta")
    bn = T.nn.BatchNorm1d(3, device="meta")
    y = bn(m)
    outs = {
        "bn": y,
        "bn_running_mean": bn.running_mean,
        "embedding": F.embedding(
            T.zeros(5, dtype=T.long, device="meta"), T.zeros(10, 3, device="meta")
        ),
        "layer_norm": F.layer_norm(m, (3,)),
        "gelu": F.gelu(m),
        "silu": F.silu(m),
        "log_softmax": F.log_softmax(m, 1),
        "bce_logits": F.binary_cross_entropy_with_logits(m, m),
        "l1": F.l1_loss(m, m),
        "mse": F.mse_loss(m, m),
        "maxpool": F.max_pool2d(T.zeros(1, 1, 4, 4, device="meta"), 2),
        "adaptive": F.adaptive_avg_pool2d(T.zeros(1, 1, 4, 4, device="meta"), 1),
        "pad": F.pad(m, (1, 1)),
        "softplus": F.softplus(m),
        "einsum": T.einsum("ij,jk->ik", m, m.t()),
        "norm1": m.norm(dim=1),
        "var": m.var(0),
        "prod": m.prod(),
        "amax": m.amax(0),
        "topk_values": m.topk(2).values,
        "topk_indices": m.topk(2, dim=0).indices,
        "sort": m.sort(1).indices,
        "index_cpu": m[T.tensor([0, 1])],
        "masked_fill": m.masked_fill(m > 0, 1.0),
        "where_scalar": T.where(m > 0, m, T.tensor(0.0)),
        "meshgrid": T.meshgrid(T.zeros(2, device="meta"), T.zeros(3, device="meta"), indexing="ij")[
            1
        ],
        "chunk": m.chunk(2)[1],
        "split": m.split([1, 3])[1],
        "unbind": m.unbind(1)[0],
        "arange_float": T.arange(0, 1, 0.25, device="meta"),
    }
    return {k: _m(v) for k, v in outs.items()}


@program()
def prog_dev_meta_attention_and_transformer(T: Any) -> Any:
    mha = T.nn.MultiheadAttention(4, 2, device="meta")
    q = T.zeros(3, 1, 4, device="meta")
    out, w = mha(q, q, q)
    layer = T.nn.TransformerEncoderLayer(4, 2, 8, device="meta", dropout=0.0)
    return _m(out), _m(w), _m(layer(q)), [(n, _m(p)) for n, p in layer.named_parameters()][:4]


@program()
def prog_dev_meta_truthiness_and_scalars(T: Any) -> Any:
    m = T.zeros(4, 3, device="meta")
    return (
        raises(lambda: bool(m.any())),
        raises(lambda: bool(m)),
        raises(lambda: m.sum() > 0 and 1),
        raises(lambda: m.max().item()),
        raises(lambda: m[0, 0].tolist()),
        raises(lambda: f"{m.sum():.2f}"),
        raises(lambda: T.allclose(m, m)),
        _m(m.any()),
        _m(m == m),
        len(m),
        m.size(1),
        m.shape[0],
    )


@program()
def prog_dev_meta_empty_strided_and_views(T: Any) -> Any:
    e = T.empty_strided((2, 3), (1, 2), device="meta")
    m = T.zeros(4, 3, device="meta")
    return (
        _m(e),
        e.is_contiguous(),
        _m(m[::2]),
        _m(m.t()),
        _m(m.unsqueeze(0).expand(2, 4, 3)),
        _m(m.view(2, 6)),
        _m(m.t().contiguous()),
        _m(m.narrow(1, 1, 2)),
        _m(m.as_strided((2, 2), (1, 3))),
        raises(lambda: m.t().view(12)),
        raises(lambda: m.view(5)),
    )


@program()
def prog_dev_set_default_device_meta_then_build_and_materialize(T: Any) -> Any:
    with _default_device(T, "meta"):
        net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 2))
        inside = [_m(p) for p in net.parameters()]
        x_meta = T.zeros(5, 3)
        y_meta = net(x_meta)
    net.to_empty(device="cpu")
    _seeded(T, net, 9)
    y = net(T.tensor(_data(5, 3)))
    return inside, _m(x_meta), _m(y_meta), y, [p.device for p in net.parameters()]


@program()
def prog_dev_meta_reset_parameters_rng_matches(T: Any) -> Any:
    T.manual_seed(123)
    with T.device("meta"):
        lin = T.nn.Linear(4, 3)
        T.nn.init.normal_(lin.weight)
    lin.to_empty(device="cpu")
    lin.reset_parameters()  # draws from where the seed left the generator
    ref = T.nn.Linear(4, 3)  # the next draws
    return lin.weight, lin.bias, ref.weight


@program()
def prog_dev_module_to_device_forms(T: Any) -> Any:
    net = _seeded(T, T.nn.Linear(2, 2), 10)
    a = net.to("cpu") is net
    b = net.to(T.device("cpu")) is net
    c = net.to(device="cpu", dtype=T.float64) is net
    d = net.cpu() is net
    e = raises(lambda: net.to("cuda"))
    f = raises(lambda: net.cuda())
    g = net.to("meta", non_blocking=True)
    return a, b, c, d, e, f, g is net, _m(net.weight), T.nn.ReLU().cuda() is not None


@program()
def prog_dev_tensor_to_device_forms(T: Any) -> Any:
    x = T.tensor(_data(3), requires_grad=True)
    m = T.zeros(2, device="meta")
    y = x.to("cpu:0")
    z = x.to(T.device("cpu", 0), T.float32)
    return (
        x.to("cpu") is x,
        x.to(T.device("cpu")) is x,
        x.to(x) is x,
        y is x,
        y.grad_fn,
        y,
        z is x,
        z.grad_fn,
        x.to(device=None, dtype=T.float64).dtype,
        _m(x.to(m)),
        raises(lambda: x.to(-1)),
        raises(lambda: x.to(0)),
        raises(lambda: x.to("cuda:0")),
        m.to(T.float32) is m,
        m.float() is m,
        _m(m.to(copy=True)),
    )


@program()
def prog_dev_factory_device_argument_forms(T: Any) -> Any:
    return (
        T.zeros(2, device=T.device("cpu", 0)).device,
        T.zeros(2, device="cpu:0").device,
        T.zeros(2, device=None).device,
        raises(lambda: T.zeros(2, device=-1)),
        raises(lambda: T.zeros(2, device=0)),
        raises(lambda: T.zeros(2, device="cuda:1")),
        raises(lambda: _m(T.zeros(2, device="meta:0"))),
        raises(lambda: T.zeros(2, device="gpu")),
        raises(lambda: T.device(-1)),
        raises(lambda: T.device("cpu", -1)),
        repr(T.device("meta", 0)),
        _m(T.empty(2, device="meta", requires_grad=True)),
    )


@program()
def prog_dev_mode_custom_function_and_hooks(T: Any) -> Any:
    Log = _log_mode(T)

    class Sq(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (a,) = ctx.saved_tensors
            return 2 * a * g

    y = T.tensor(_data(3), requires_grad=True)
    with Log() as m1:
        z = Sq.apply(y)
        z.sum().backward()
    h = T.tensor(_data(3, seed=1), requires_grad=True)
    h.register_hook(lambda g: g * 3)
    with Log() as m2:
        (h * 2).sum().backward()
    return [e[1] for e in m1.log], y.grad, [e[1] for e in m2.log], h.grad


@program()
def prog_dev_meta_under_no_grad_and_inference(T: Any) -> Any:
    w = T.ones(2, device="meta", requires_grad=True)
    with T.no_grad():
        a = w * 2
    with T.inference_mode():
        b = T.ones(2, device="meta") * 2
        inf = b.is_inference()
    c = w.detach().requires_grad_()
    return _m(a), _m(b), inf, _m(c), c.is_leaf


@program()
def prog_dev_meta_scans_transposed_conv_one_hot(T: Any) -> Any:
    F = T.nn.functional
    m = T.zeros(2, 3, device="meta")
    x4 = T.zeros(1, 2, 4, 4, device="meta")
    t = T.zeros(2, dtype=T.long, device="meta")
    outs = {
        "conv_t": F.conv_transpose2d(x4, T.zeros(2, 3, 3, 3, device="meta"), stride=2),
        "conv_t1d": F.conv_transpose1d(
            T.zeros(1, 2, 5, device="meta"), T.zeros(2, 1, 3, device="meta")
        ),
        "one_hot": F.one_hot(t, 4),
        "cumsum": m.cumsum(1),
        "cumprod": m.cumprod(0),
        "cumsum_t": m.t().cumsum(0),
        "avgpool": F.avg_pool2d(x4, 2),
        "avgpool_ceil": F.avg_pool2d(x4, 3, stride=2, ceil_mode=True),
        "interp": F.interpolate(x4, scale_factor=2),
        "interp_bilinear": F.interpolate(x4, size=(5, 7), mode="bilinear"),
        "conv2d": F.conv2d(x4, T.zeros(3, 2, 3, 3, device="meta"), padding=1),
    }
    return {k: _m(v) for k, v in outs.items()}


@program(
    xfail="ops whose forward fills a fresh numpy array (nll_loss/cross_entropy's gather, "
    "LSTM's gates) return a cpu tensor for meta inputs; they need a per-op meta result (on "
    "cross_entropy's hot path, so not added there)"
)
def prog_dev_meta_losses_and_layers_stay_meta(T: Any) -> Any:
    F = T.nn.functional
    m = T.zeros(2, 3, device="meta")
    t = T.zeros(2, dtype=T.long, device="meta")
    outs = {
        "nll": F.nll_loss(F.log_softmax(m, 1), t),
        "ce": F.cross_entropy(m, t),
        "lstm": T.nn.LSTM(3, 4, device="meta")(T.zeros(2, 1, 3, device="meta"))[0],
    }
    return {k: _m(v) for k, v in outs.items()}


@program(
    xfail="a meta tensor's gradient reaching a cpu leaf (x.to('meta') then backward) is kept "
    "as a meta .grad; torch's ToCopyBackward0 copies it back to the cpu and raises"
)
def prog_dev_meta_gradient_into_cpu_leaf(T: Any) -> Any:
    x = T.ones(3, requires_grad=True)
    return raises(lambda: x.to("meta").sum().backward())


@program(
    xfail="`with torch.device(...)` is not a TorchFunctionMode here: "
    "_get_current_function_mode() is None inside it (torch: a DeviceContext) and a mode "
    "around it does not see torch.device's calls"
)
def prog_dev_device_context_is_a_mode(T: Any) -> Any:
    ov = T.overrides
    with T.device("meta"):
        inside = type(ov._get_current_function_mode()).__name__
        depth = len(ov._get_current_function_mode_stack())
    return inside, depth


@program()
def prog_dev_mode_sees_setitem_inplace_and_property_sets(T: Any) -> Any:
    Log = _log_mode(T)
    x = T.zeros(3)
    with Log() as mode:
        x[0] = 1
        x += 1
        x.add_(1)
        x.requires_grad = True
        y = x.data
        x.data = T.ones(3)
        g = x.grad
        x.grad = None
        leaf = x.is_leaf
    return mode.log, x, y, g, leaf


@program()
def prog_dev_mode_handler_error_unwinds_stack(T: Any) -> Any:
    class Boom(T.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            raise ValueError("boom " + func.__name__)

    x = T.ones(3)

    def run() -> Any:
        with Boom():
            return x + 1

    err = raises(run)
    return (
        err,
        T.overrides._get_current_function_mode(),
        T._C._is_torch_function_mode_enabled(),
        x + 1,
        (x * 2).shape,
    )


@program()
def prog_dev_mode_traces_shapes_on_meta(T: Any) -> Any:
    class Shapes(T.overrides.TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.trace: list[Any] = []

        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            out = func(*args, **(kwargs or {}))
            shape = tuple(out.shape) if hasattr(out, "shape") and hasattr(out, "is_meta") else None
            self.trace.append((func.__name__, sorted((kwargs or {}).keys()), shape))
            return out

    with Shapes() as mode:
        m = T.zeros(2, 3, device="meta")
        w = T.zeros(4, 3, device="meta")
        out = T.nn.functional.linear(m, w).relu().sum(-1)
    return mode.trace, _m(out)


@program()
def prog_dev_meta_module_conversions(T: Any) -> Any:
    lin = T.nn.Linear(2, 2, device=T.device("meta"), dtype=T.float64)
    net = T.nn.Sequential(T.nn.Linear(2, 3), T.nn.Linear(3, 1)).to("meta")
    seen: list[str] = []
    net.apply(lambda mod: seen.append(type(mod).__name__))
    net.half()
    net.requires_grad_(False)
    return _m(lin.weight), seen, [_m(p) for p in net.parameters()]


@program()
def prog_dev_meta_load_state_dict_assign_errors(T: Any) -> Any:
    src = _seeded(T, T.nn.Linear(3, 2), 11).state_dict()
    dst = T.nn.Linear(3, 2, device="meta")
    a = raises(lambda: dst.load_state_dict({"weight": src["weight"]}, assign=True))
    b = raises(
        lambda: dst.load_state_dict({"weight": T.zeros(5, 5), "bias": src["bias"]}, assign=True)
    )
    fresh = T.nn.Linear(3, 2, device="meta")
    c = repr(fresh.load_state_dict(src, strict=False, assign=True))
    return a, b, c, fresh.weight, fresh.bias, fresh.weight.requires_grad


@program()
def prog_dev_meta_save_and_load(T: Any) -> Any:
    import io

    lin = T.nn.Linear(3, 2, device="meta")
    m = T.zeros(2, 3, device="meta", requires_grad=True)
    buf = io.BytesIO()
    T.save({"m": m, "c": T.ones(2), "sd": lin.state_dict()}, buf)
    buf.seek(0)
    d = T.load(buf)
    fresh = T.nn.Linear(3, 2, device="meta")
    res = fresh.load_state_dict(d["sd"], assign=True)
    return _m(d["m"]), d["c"], [(k, _m(v)) for k, v in d["sd"].items()], repr(res), _m(fresh.weight)


@program()
def prog_dev_mode_protocol_details(T: Any) -> Any:
    ov = T.overrides
    TFM = ov.TorchFunctionMode
    x = T.tensor(5.0)

    class ClassMethodMode(TFM):
        @classmethod
        def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            return func(*args, **(kwargs or {}))

    def with_classmethod() -> Any:
        with ClassMethodMode():
            return x + x

    class Sub(T.Tensor):
        @classmethod
        def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            return -1

    class Refuse(TFM):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return NotImplemented

    class Const(TFM):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return "const"

    s = T.ones(2).as_subclass(Sub)

    def refuse_then_subclass() -> Any:
        with Refuse():
            return T.add(s, 1), s.sum()

    def flags() -> Any:
        with Const():
            a = (T._C._is_torch_function_all_disabled(), T._C._is_torch_function_enabled())
            with T._C.DisableTorchFunction():
                b = (
                    T._C._is_torch_function_all_disabled(),
                    T._C._is_torch_function_enabled(),
                    T.add(x, 1),
                )
            with T._C.DisableTorchFunctionSubclass():
                c = (
                    T._C._is_torch_function_all_disabled(),
                    T._C._is_torch_function_enabled(),
                    T.add(x, 1),
                )
            return a, b, c

    def handled() -> Any:
        def f(a: Any) -> Any:
            if ov.has_torch_function((a,)):
                return ov.handle_torch_function(f, (a,), a)
            return "plain"

        with Const():
            inside = (f(x), ov.has_torch_function((x,)), ov.has_torch_function_unary(x))
        return inside, f(x), ov.has_torch_function((x,))

    def stack() -> Any:
        with Const(), Refuse():
            return [type(m).__name__ for m in ov._get_current_function_mode_stack()]

    class TensorLike:
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            return "tensor-like"

    def tensor_like() -> Any:
        with Const():
            return T.add(TensorLike(), 1), ov.is_tensor_like(TensorLike())

    return (
        raises(with_classmethod),
        raises(refuse_then_subclass),
        raises(flags),
        raises(handled),
        stack(),
        tensor_like(),
    )


@program()
def prog_dev_meta_every_init_draws_nothing(T: Any) -> Any:
    init = T.nn.init
    out = []
    for name, args in (
        ("uniform_", ()),
        ("normal_", ()),
        ("trunc_normal_", ()),
        ("constant_", (0.5,)),
        ("ones_", ()),
        ("zeros_", ()),
        ("eye_", ()),
        ("xavier_uniform_", ()),
        ("xavier_normal_", ()),
        ("kaiming_uniform_", ()),
        ("kaiming_normal_", ()),
        ("orthogonal_", ()),
        ("sparse_", (0.5,)),
    ):
        T.manual_seed(0)
        w = T.empty(4, 3, device="meta")
        r = getattr(init, name)(w, *args)
        out.append((name, _m(r), r is w, T.rand(1)))
    T.manual_seed(0)
    d = init.dirac_(T.empty(2, 2, 3, device="meta"))
    return out, _m(d), T.rand(1)


@program()
def prog_dev_mode_operators_and_python_protocols(T: Any) -> Any:
    import copy

    Log = _log_mode(T)
    a = T.tensor(_data(2, 2))
    b = a > 0
    i = T.tensor([[1, 2], [0, 1]])
    ops = {
        "matmul": lambda: a @ a,
        "pow": lambda: a**2,
        "rpow": lambda: 2**a,
        "neg": lambda: -a,
        "floordiv": lambda: a // 2,
        "rfloordiv": lambda: 2 // a,
        "mod": lambda: a % 2,
        "abs": lambda: abs(a),
        "eq": lambda: a == a,
        "and": lambda: b & b,
        "invert": lambda: ~b,
        "rsub": lambda: 2 - a,
        "rdiv": lambda: 2 / a,
        "mT": lambda: a.mT,
        "lshift": lambda: i << 1,
        "iadd": lambda: a.clone().__iadd__(1),
        "radd": lambda: 1 + a,
        "len": lambda: len(a),
        "contains": lambda: 1.0 in a,
        "format": lambda: format(a.sum(), ".1f"),
        "int": lambda: int(a.sum()),
        "index": lambda: [0, 1, 2][i[0, 0]],
        "bool": lambda: bool(a.sum()),
        "iter": lambda: list(a),
        "reversed": lambda: reversed(a),
        "deepcopy": lambda: copy.deepcopy(a),
        "array": lambda: np.asarray(a),
    }
    out = {}
    for k, f in ops.items():
        with Log() as mode:
            v = raises(f)
        out[k] = ([e[1] for e in mode.log], v)
    return out


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
