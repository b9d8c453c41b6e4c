"""Programs loading files written by torch.save: the same bytes (written by torch) are read
back by torch.load and by shadowgrad.load (shadowgrad/_torch_format.py), and what each engine
gets is compared: state dicts, optimizer states, shared storages, every dtype, Parameters,
sizes, dtypes and devices, weights_only's refusals and a whole module with weights_only=False.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises

torch = pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


class Config:
    """A plain object a checkpoint may hold (importable, so pickle can name it)."""

    def __init__(self, lr: float) -> None:
        self.lr = lr


def _written(obj: Any) -> io.BytesIO:
    b = io.BytesIO()
    torch.save(obj, b)
    b.seek(0)
    return b


def _model_bytes() -> io.BytesIO:
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2))
    m(torch.randn(5, 3)).sum().backward()
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    opt.step()
    return _written({"model": m.state_dict(), "optim": opt.state_dict(), "epoch": 3})


@program()
def prog_tc_state_dict_into_model(T: Any) -> Any:
    ck = T.load(_model_bytes())
    m = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.Linear(4, 2))
    res = m.load_state_dict(ck["model"])
    m.eval()
    x = T.linspace(-1, 1, 6).reshape(2, 3)
    sd = ck["model"]
    return (
        str(res),
        type(sd).__name__,
        list(sd.keys()),
        sd._metadata,
        m(x),
        ck["epoch"],
        sd["1.num_batches_tracked"],
    )


@program()
def prog_tc_optimizer_state_into_optimizer(T: Any) -> Any:
    ck = T.load(_model_bytes())
    m = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.Linear(4, 2))
    m.load_state_dict(ck["model"])
    opt = T.optim.Adam(m.parameters(), lr=0.01)
    opt.load_state_dict(ck["optim"])
    st = opt.state_dict()
    # (eval: in training mode the bias before batch norm gets a gradient of pure cancellation
    # noise, which Adam would amplify)
    m.eval()
    m(T.linspace(-1, 1, 15).reshape(5, 3)).pow(2).sum().backward()
    opt.step()
    return st["param_groups"], st["state"][0], [p.detach() for p in m.parameters()]


@program()
def prog_tc_dtypes_and_values(T: Any) -> Any:
    obj = {
        "f16": torch.tensor([1.5, -2.25], dtype=torch.float16),
        "bf16": torch.tensor([1.0, 3.140625, -0.5], dtype=torch.bfloat16),
        "f64": torch.tensor([1e-300, 2.0], dtype=torch.float64),
        "i8": torch.tensor([-128, 127], dtype=torch.int8),
        "u8": torch.tensor([255], dtype=torch.uint8),
        "i16": torch.tensor([-3], dtype=torch.int16),
        "i32": torch.tensor([7], dtype=torch.int32),
        "u16": torch.tensor([65535], dtype=torch.uint16),
        "u32": torch.tensor([2**32 - 1], dtype=torch.uint32),
        "u64": torch.tensor([5], dtype=torch.uint64),
        "c64": torch.tensor([1 + 2j]),
        "c128": torch.tensor([1 - 2j], dtype=torch.complex128),
        "bool": torch.tensor([True, False]),
        "scalar": torch.tensor(3.5),
        "empty": torch.zeros(0, 3),
    }
    got = T.load(_written(obj))
    return {k: (v.dtype, v.shape, v.tolist()) for k, v in got.items()}


@program()
def prog_tc_shared_storages_and_layouts(T: Any) -> Any:
    base = torch.arange(12.0)
    obj = {
        "base": base,
        "view": base[2:8].view(2, 3),
        "t": base.view(3, 4).t(),
        "step": base[::3],
        "other": torch.ones(2),
    }
    got = T.load(_written(obj))
    got["base"][3] = 100.0
    return (
        got["view"],
        got["t"].stride(),
        got["t"].is_contiguous(),
        got["step"].stride(),
        got["view"].data_ptr() - got["base"].data_ptr(),
        got["other"].data_ptr() == got["base"].data_ptr(),
        [v._version for v in got.values()],
    )


@program()
def prog_tc_parameters_sizes_dtypes_devices(T: Any) -> Any:
    p = torch.nn.Parameter(torch.ones(2))
    frozen = torch.nn.Parameter(torch.zeros(1), requires_grad=False)
    obj = [
        p,
        frozen,
        torch.ones(2, requires_grad=True),
        torch.Size([2, 3]),
        torch.float16,
        torch.int64,
        torch.device("cpu"),
        (1, 2.5, "s", None, True),
        {3, 4},
        b"bytes",
    ]
    got = T.load(_written(obj))
    return (
        [type(x).__name__ for x in got],
        got[0].requires_grad,
        got[1].requires_grad,
        got[2].requires_grad,
        got[2].is_leaf,
        got[3:],
    )


@program()
def prog_tc_weights_only_refusals(T: Any) -> Any:
    b = _written({"cfg": Config(0.1), "w": torch.ones(1)})
    refused = raises(lambda: T.load(b))
    b.seek(0)
    ok = T.load(b, weights_only=False)
    b.seek(0)
    with T.serialization.safe_globals([Config]):
        allowed = T.load(b)
    return refused, type(ok["cfg"]).__name__, ok["cfg"].lr, allowed["cfg"].lr, ok["w"]


@program()
def prog_tc_whole_module_weights_only_false(T: Any) -> Any:
    torch.manual_seed(1)
    m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    b = _written(m)
    refused = raises(lambda: T.load(b))
    b.seek(0)
    got = T.load(b, weights_only=False)
    x = T.tensor([[0.5, -1.0], [2.0, 0.25]])
    y = got(x)
    y.sum().backward()
    return refused, repr(got), y, got[0].weight.grad, type(got[0].weight).__name__


@program()
def prog_tc_cuda_location_and_file_path(T: Any) -> Any:
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "ck.pt")
        torch.save({"a": torch.arange(3)}, path)
        from_path = T.load(path)
        mapped = T.load(path, map_location="cpu")
        to_cuda = raises(lambda: T.load(path, map_location="cuda"))
    return from_path, mapped, to_cuda


def _read_by_torch(T: Any, obj: Any) -> Any:
    """obj saved by the engine under test, read back by real torch (weights_only)."""
    b = io.BytesIO()
    T.save(obj, b)
    b.seek(0)
    return torch.load(b)


def _described(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return (type(v).__name__, str(v.dtype), v.shape, v.stride(), v.requires_grad, v.tolist())
    if isinstance(v, dict):
        return type(v).__name__, {k: _described(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v).__name__, [_described(x) for x in v]
    return repr(v)


@program()
def prog_tc_saved_files_torch_reads(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.BatchNorm1d(2))
    base = T.arange(12.0)
    obj = {
        "model": m.state_dict(),
        "param": T.nn.Parameter(T.ones(2)),
        "frozen": T.nn.Parameter(T.zeros(1), requires_grad=False),
        "view": base[2:8].view(2, 3),
        "base": base,
        "t": base.view(3, 4).t(),
        "bf16": T.tensor([1.0, 3.140625], dtype=T.bfloat16),
        "ints": [T.tensor([-1], dtype=T.int8), T.tensor([7], dtype=T.int32)],
        "u16": T.tensor([65535], dtype=T.uint16),
        "c": T.tensor([1 + 2j]),
        "scalar": T.tensor(2.5),
        "empty": T.zeros(0, 3),
        "misc": (T.Size([2, 3]), T.float16, T.device("cpu"), None, "s", 3, b"b", {1}),
        "again": base,
    }
    got = _read_by_torch(T, obj)
    return (
        _described(got),
        got["model"]._metadata,
        got["view"].data_ptr() - got["base"].data_ptr(),
        got["again"] is got["base"],
    )


@program()
def prog_tc_saved_optimizer_state_torch_reads(T: Any) -> Any:
    T.manual_seed(0)
    m = T.nn.Linear(3, 2)
    opt = T.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    (m(T.ones(4, 3)) ** 2).sum().backward()
    opt.step()
    got = _read_by_torch(T, {"optim": opt.state_dict(), "model": m.state_dict()})
    tm = torch.nn.Linear(3, 2)
    tm.load_state_dict(got["model"])
    topt = torch.optim.SGD(tm.parameters(), lr=0.1, momentum=0.9)
    topt.load_state_dict(got["optim"])
    return _described(got["optim"]), tm.weight.tolist()


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
