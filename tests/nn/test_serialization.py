"""save/load round trips (no torch); loading never unpickles."""

from __future__ import annotations

import io
import pickle
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import shadowgrad as sg
import shadowgrad.nn as nn
from shadowgrad.serialization import load, save


def _round_trip(obj):
    buf = io.BytesIO()
    save(obj, buf)
    buf.seek(0)
    return load(buf, weights_only=True)


def test_nested_containers_and_plain_values_round_trip():
    t = sg.arange(6.0).reshape(2, 3)
    obj = {
        "t": t,
        "again": t,
        "list": [1, 2.5, None, True, "s", (sg.tensor([1, 2]), 3)],
        3: {"x": sg.tensor(1.0, dtype=sg.float64)},
        "size": sg.Size([2, 3]),
        "dtype": sg.float16,
    }
    out = _round_trip(obj)
    assert out["t"] is out["again"]
    np.testing.assert_array_equal(out["t"].numpy(), t.numpy())
    assert out["list"][:5] == [1, 2.5, None, True, "s"]
    assert isinstance(out["list"][5], tuple) and out["list"][5][0].tolist() == [1, 2]
    assert out[3]["x"].dtype is sg.float64
    assert out["size"] == sg.Size([2, 3]) and out["dtype"] is sg.float16


def test_numpy_arrays_need_allowed_globals_under_weights_only():
    """As torch's weights_only unpickler: a numpy array or scalar loads once numpy's globals (and
    the dtype's class) are allowed, or with weights_only=False."""
    obj = {"arr": np.arange(3), "s": np.float32(1.5)}
    with pytest.raises(pickle.UnpicklingError, match=r"numpy\._core\.multiarray\._reconstruct"):
        _round_trip(obj)
    allowed = [np._core.multiarray._reconstruct, np.ndarray, np.dtype, type(np.arange(3).dtype)]
    allowed += [np._core.multiarray.scalar, np.dtypes.Float32DType]
    with sg.serialization.safe_globals(allowed):
        out = _round_trip(obj)
    np.testing.assert_array_equal(out["arr"], np.arange(3))
    assert out["s"] == np.float32(1.5)
    buf = io.BytesIO()
    save(obj, buf)
    buf.seek(0)
    assert load(buf, weights_only=False)["s"] == np.float32(1.5)


def test_parameters_and_requires_grad_survive(tmp_path):
    p = nn.Parameter(sg.ones(2))
    q = sg.zeros(2, requires_grad=True)
    save([p, q], tmp_path / "f.pt")
    p2, q2 = load(tmp_path / "f.pt")
    assert isinstance(p2, nn.Parameter) and p2.requires_grad
    assert type(q2) is sg.Tensor and q2.requires_grad


def test_model_and_optimizer_state_dicts_round_trip():
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    opt = sg.optim.Adam(m.parameters())
    m(sg.randn(4, 2)).sum().backward()
    opt.step()
    ckpt = _round_trip({"model": m.state_dict(), "opt": opt.state_dict()})
    assert isinstance(ckpt["model"], OrderedDict)
    assert ckpt["model"]._metadata == m.state_dict()._metadata
    m2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    m2.load_state_dict(ckpt["model"])
    assert ckpt["model"]["1.num_batches_tracked"].dtype is sg.int64
    opt2 = sg.optim.Adam(m2.parameters())
    opt2.load_state_dict(ckpt["opt"])
    assert sorted(opt2.state_dict()["state"]) == [0, 1, 2, 3]
    np.testing.assert_array_equal(
        opt2.state[m2[0].weight]["exp_avg"].numpy(), opt.state[m[0].weight]["exp_avg"].numpy()
    )


def test_whole_modules_load_only_without_weights_only():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    opt = sg.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    buf = io.BytesIO()
    save({"model": model, "opt": opt}, buf)
    buf.seek(0)
    # torch's weights_only default refuses the classes, naming them by torch's module paths
    with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL torch\.nn\.modules\.container"):
        load(buf)
    buf.seek(0)
    back = load(buf, weights_only=False)
    x = sg.ones(4, 2)
    assert back["model"](x).tolist() == model(x).tolist()
    assert back["model"][0].weight.requires_grad and back["model"][0].weight.is_leaf
    assert back["opt"].param_groups[0]["momentum"] == 0.9


def test_foreign_files_rejected():
    with pytest.raises(RuntimeError, match=r"not a file written by shadowgrad\.save"):
        load(io.BytesIO(b"\x80\x04not a zip"))
    # tensors and plain containers are written in torch's zip format (torch reads them);
    # anything else (here a numpy array) in shadowgrad's manifest format
    buf = io.BytesIO()
    save({"a": sg.ones(1)}, buf)
    names = zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()
    assert "archive/data.pkl" in names and "archive/data/0" in names
    buf = io.BytesIO()
    save({"a": np.ones(1)}, buf)
    names = zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()
    assert "manifest.json" in names and all(n.endswith((".json", ".npy")) for n in names)
