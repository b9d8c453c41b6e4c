"""Section 13: repr, item, tolist, numpy, bool/len/format, deepcopy, misc tensor API."""

from __future__ import annotations

import copy
from typing import Any

from ..engines import raises
from . import program


@program("13.1")
def prog_repr_suffixes(T: Any) -> Any:
    x = T.tensor(3.0, requires_grad=True)
    v = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    d = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    return [
        repr(x),
        repr(x + 7),
        repr(v * 2),
        repr((v * 2).detach()),
        repr(d * 2),
        repr(T.tensor([1.0, 2.0], dtype=T.float16, requires_grad=True)),
        repr(T.tensor([1, 2], dtype=T.int32)),
        repr(v[0]),
        str(x) == repr(x),
    ]


@program("13.2")
def prog_repr_number_format(T: Any) -> Any:
    vals = [[1.0, 2.0, 100.0], [0.1, 0.2], [-1.0, 2.5], [1.5, 100.25, 0.001], [1e-5], [1e9]]
    out = [repr(T.tensor(v)) for v in vals]
    out.append(repr(T.tensor([float("nan"), float("inf"), -float("inf"), 1.0])))
    out.append(repr(T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)))
    out.append(repr(T.tensor([True, False])))
    out.append(repr(T.tensor([])))
    return out


@program("13.3")
def prog_item(T: Any) -> Any:
    x = T.tensor([[2.5]], requires_grad=True)
    return {
        "float": x.item(),
        "type": type(x.item()).__name__,
        "int": T.tensor(3).item(),
        "bool": T.tensor(True).item(),
        "multi": raises(lambda: T.ones(2).item()),
    }


@program("13.4")
def prog_tolist(T: Any) -> Any:
    x = T.tensor([[1.0, 2.0]], requires_grad=True)
    return {"2d": x.tolist(), "0d": T.tensor(2.0).tolist(), "ints": T.tensor([1, 2]).tolist()}


@program("13.5")
def prog_numpy_of_grad_requiring_tensor(T: Any) -> Any:
    import numpy as np

    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = x.detach().numpy()
    a[0] = 5.0
    return {
        "numpy": raises(lambda: x.numpy()),
        "nonleaf": raises(lambda: (x * 2).numpy()),
        "asarray": raises(lambda: np.asarray(x)),
        "force": x.numpy(force=True),
        "shares": x.detach().numpy(),
    }


@program("13.6", warnings=False)  # torch warns once per process
def prog_scalar_conversions(T: Any) -> Any:
    x = T.tensor(2.5, requires_grad=True)
    return {"float": float(x), "int": int(x), "bool": bool(x)}


@program("13.7")
def prog_bool_len_iter_format_errors(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    z = T.tensor(3.0)
    return {
        "bool": raises(lambda: bool(T.ones(2))),
        "len0d": raises(lambda: len(z)),
        "iter0d": raises(lambda: iter(z)),
        "iter": list(x),
        "len": len(x),
        "format": f"{z:.2f}",
        "format_multi": raises(lambda: f"{x:.2f}"),
    }


@program("13.11")
def prog_deepcopy(T: Any) -> Any:
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    c = copy.deepcopy(x)
    return {
        "copy": c,
        "grad": c.grad,
        "distinct": c is not x,
        "nonleaf": raises(lambda: copy.deepcopy(x * 2)),
    }


@program("13.12")
def prog_misc_tensor_api(T: Any) -> Any:
    x = T.tensor(1.0, requires_grad=True)
    m = T.ones(2, 3)
    return {
        "type": x.type(),
        "shape": x.shape == x.size(),
        "size": str(m.size()),
        "dim": (m.dim(), m.ndim, m.numel()),
        "device": str(x.device),
        "eq": x == 1.0,
        "inplace_returns_self": m.add_(1) is m,
        "new_tensor": m.new_tensor([1.0]),
    }


@program("1.1")
def prog_in_place_scans_triangles_and_method_aliases(T: Any) -> Any:
    # Tensor methods torch has that shadowgrad lacked: tril_, triu_, cumsum_, cumprod_ (their
    # op's node becomes grad_fn), swapaxes_, swapdims_, where, and the comparison aliases
    out: dict[str, Any] = {}
    x = T.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [7.0, 8.0, 9.0]], requires_grad=True)
    for name, args in (("tril_", ()), ("triu_", (1,)), ("cumsum_", (0,)), ("cumprod_", (1,))):
        y = x * 1
        r = getattr(y, name)(*args)
        (r * r).sum().backward()
        out[name] = (r, r is y, y._version, x.grad.clone())
        x.grad = None
    a = T.ones(2, 3)
    out["swapaxes_"] = (a.swapaxes_(0, 1) is a, tuple(a.shape), a.swapdims_(0, 1).shape)
    t = T.tensor([1.0, 2.0, 3.0])
    out["where"] = t.where(t > 1.5, 0.5)
    for n in ("greater", "less", "greater_equal", "less_equal", "not_equal"):
        out[n] = getattr(t, n)(2.0)
    for n in ("greater_equal", "less_equal", "not_equal"):
        out["torch." + n] = getattr(T, n)(t, 2.0)
    return out
