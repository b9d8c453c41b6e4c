"""repr of a sparse COO tensor, as torch's _tensor_str prints it."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as D
from .._tensor_str import _PRINT_OPTS, _body_str, _canonical_dtype_name, _prepare, _value_kind


def _body(arr: np.ndarray, dt: Any, indent: int) -> str:
    if arr.size == 0:
        return "[]"
    name = _canonical_dtype_name(dt._name)
    kind = _value_kind(name, arr)
    return _body_str(_prepare(arr, kind), kind, indent, _PRINT_OPTS)


def sparse_repr(t: Any) -> str:
    a = t._data
    if a._csr:
        return _csr_repr(t)
    indent = len("tensor(")
    dt = t.dtype
    default = D.get_default_dtype()
    implicit = (default, D.complex128 if default is D.float64 else D.complex64, D.int64, D.bool_)
    suffixes = ["size=" + str(tuple(int(s) for s in a.shape)), f"nnz={a._i.shape[1]}"]
    if dt not in implicit:
        suffixes.append(f"dtype={dt}")
    ip = "indices=tensor("
    istr = _body(a._i, D.int64, indent + len(ip))
    if a._i.size == 0:
        istr += ", size=" + str(tuple(a._i.shape))
    vp = "values=tensor("
    vstr = _body(a._v, dt, indent + len(vp))
    if a._v.size == 0:
        vstr += ", size=" + str(tuple(a._v.shape))
    text = ip + istr + "),\n" + " " * indent + vp + vstr + ")"
    suffixes.append("layout=torch.sparse_coo")
    gf = t.grad_fn
    if gf is not None:
        suffixes.append(f"grad_fn=<{type(gf).__name__}>")
    elif t._rg:
        suffixes.append("requires_grad=True")
    pieces = ["tensor(" + text]
    last = len(pieces[0]) - pieces[0].rfind("\n") + 1
    force = True
    width = _PRINT_OPTS["linewidth"]
    for s in suffixes:
        if force or last + len(s) + 2 > width:
            pieces.append(",\n" + " " * indent + s)
            last = indent + len(s)
            force = False
        else:
            pieces.append(", " + s)
            last += len(s) + 2
    pieces.append(")")
    return "".join(pieces)


def _csr_repr(t: Any) -> str:
    """torch's repr of a sparse CSR tensor: crow/col indices and values, the suffixes after
    the values (wrapped at the line width, no forced new line)."""
    a = t._data
    indent = len("tensor(")
    dt = t.dtype
    default = D.get_default_dtype()
    implicit = (default, D.complex128 if default is D.float64 else D.complex64, D.int64, D.bool_)
    suffixes = ["size=" + str(tuple(int(s) for s in a.shape)), f"nnz={a._i.shape[1]}"]
    if dt not in implicit:
        suffixes.append(f"dtype={dt}")
    parts = []
    for prefix, arr, adt in (
        ("crow_indices=tensor(", t.crow_indices()._data, D.int64),
        ("col_indices=tensor(", a._i[1], D.int64),
        ("values=tensor(", a._v, dt),
    ):
        body = _body(arr, adt, indent + len(prefix))
        if arr.size == 0:
            body += ", size=" + str(tuple(arr.shape))
        parts.append(prefix + body + ")")
    text = (",\n" + " " * indent).join(parts)
    suffixes.append("layout=torch.sparse_csr")
    gf = t.grad_fn
    if gf is not None:
        suffixes.append(f"grad_fn=<{type(gf).__name__}>")
    elif t._rg:
        suffixes.append("requires_grad=True")
    pieces = ["tensor(" + text]
    last = len(pieces[0]) - pieces[0].rfind("\n") + 1
    width = _PRINT_OPTS["linewidth"]
    for s in suffixes:
        if last + len(s) + 2 > width:
            pieces.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            pieces.append(", " + s)
            last += len(s) + 2
    pieces.append(")")
    return "".join(pieces)
