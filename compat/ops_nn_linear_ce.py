"""Op database entries for torch.nn.functional.linear_cross_entropy
(shadowgrad/nn/_functional_linear_ce.py): the reference path (linear then cross_entropy) over
class indices and probabilities, bias, class weights, ignore_index, label smoothing, each
reduction, unbatched input and K-dimensional weights; the chunked path (`options`) over the
reductions it takes, with its node and without double backward (torch has none); torch's
shape errors.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg

t = tensor_arg


def _rng() -> np.random.Generator:
    return np.random.default_rng(99)


def _lce(T: Any, *args: Any, chunked: dict[str, Any] | None = None, **kw: Any) -> Any:
    if chunked is not None:
        kw["options"] = T.nn.LinearCrossEntropyOptions(**chunked)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return T.nn.functional.linear_cross_entropy(*args, **kw)


def reference_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    x, w, b = n((5, 4)), n((6, 4)), n(6)
    cls = t(np.array([0, 3, 5, 2, 1]))
    ign = t(np.array([0, -100, 5, 2, 3]))
    cw = t(r.uniform(0.5, 2.0, 6), False)
    probs = r.dirichlet(np.ones(6), 5)
    wk, bk = n((6, 2, 3, 4)), n((6, 2, 3))
    tk = t(r.integers(0, 6, (5, 2, 3)))
    out = [
        Sample((t(x), t(w), cls), {"reduction": red}, name=red) for red in ("mean", "sum", "none")
    ]
    out += [
        Sample((t(x), t(w), cls), {"linear_bias": t(b), "weight": cw}, name="bias, weight"),
        Sample((t(x), t(w), ign), {"weight": cw, "reduction": "sum"}, name="ignore_index"),
        Sample((t(x), t(w), cls), {"ignore_index": 3, "reduction": "none"}, name="ignore 3"),
        Sample((t(x), t(w), cls), {"label_smoothing": 0.2}, name="label smoothing"),
        Sample((t(x), t(w), t(probs, False)), {}, name="probabilities"),
        Sample((t(x[0]), t(w), t(np.array(4))), {}, name="unbatched"),
        Sample((t(x), t(wk), tk), {"linear_bias": t(bk)}, name="K-dimensional"),
        Sample((t(x), t(w), t(probs, False)), {"ignore_index": 1}, name="probs, ignore (error)"),
        Sample((t(x[None]), t(w), cls), {}, name="3-d input (error)"),
        Sample((t(x), t(w[0]), cls), {}, name="1-d weight (error)"),
        Sample((t(x), t(w[:, :3]), cls), {}, name="in_features (error)"),
        Sample((t(x), t(w), cls), {"linear_bias": t(b[:4])}, name="bias shape (error)"),
        Sample((t(x[0]), t(wk), t(np.array([1, 2]))), {}, name="K-dim unbatched (error)"),
    ]  # fmt: skip
    return out


def chunked_samples(dtype: str) -> list[Sample]:
    r = _rng()
    n = r.standard_normal
    x, w, b = n((5, 4)), n((6, 4)), n(6)
    cls = t(np.array([0, 3, 5, 2, 1]))
    ign = t(np.array([0, -100, 5, 2, 3]))
    cw = t(r.uniform(0.5, 2.0, 6), False)
    opts = {"allow_retain_graph": True}
    return [
        Sample((t(x), t(w), cls), {"chunked": opts}, name="mean"),
        Sample((t(x), t(w), cls), {"chunked": opts, "linear_bias": t(b)}, name="bias"),
        Sample((t(x), t(w), ign), {"chunked": {**opts, "acc_policy": "accurate"},
                                   "weight": cw}, name="weight, ignore_index"),
        Sample((t(x), t(w), ign), {"chunked": {**opts, "batch_chunk_size": 2,
                                               "chunking_method": None}, "reduction": "sum"},
               name="sum, chunk size"),
        Sample((t(x), t(w), ign), {"chunked": opts, "reduction": "none", "linear_bias": t(b)},
               name="none"),
        Sample((t(x[0]), t(w), t(np.array(2))), {"chunked": opts}, name="unbatched"),
        Sample((t(x), t(w), cls), {"chunked": opts, "label_smoothing": 0.1},
               name="falls back to the reference"),
        Sample((t(x), t(w), cls), {"chunked": {**opts, "batch_chunk_size": 3,
                                               "chunking_method": "aspect_ratio"}},
               name="chunk size conflict (error)"),
    ]  # fmt: skip


register(
    OpEntry("nn.functional.linear_cross_entropy", _lce, reference_samples),
    # torch's chunked op has no double backward and no forward mode
    OpEntry("nn.functional.linear_cross_entropy chunked", _lce, chunked_samples,
            supports_gradgrad=False, tolerances={"float32": (1e-5, 1e-5)}),
)  # fmt: skip
