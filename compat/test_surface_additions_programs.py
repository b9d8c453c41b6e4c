"""Programs for torch names added to close gaps in the API surface: `svd_lowrank`,
`pca_lowrank`, `set_anomaly_enabled`, `init_num_threads` and `torch.GradScaler`.

Singular vectors are defined up to a sign (a phase for complex input), and LAPACK builds differ
in the sign they pick, so the programs compare what does not depend on it: singular values,
reconstructions, absolute values of real vectors, and gradients of losses that ignore the sign.
The programs register into test_realistic_programs_3's set and run through its harness.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from . import test_realistic_programs_3 as _h
from .engines import raises
from .test_realistic_programs_2 import _data

pytest.importorskip("torch")

_SET = _h.Subset()
program = _SET.program


def _gauge_free(T: Any, U: Any, S: Any, V: Any) -> Any:
    """What the factors say without their sign: S, U diag(S) V^H, |U| and |V| (real input)."""
    recon = (U * S.unsqueeze(-2).to(U.dtype)) @ V.mH
    if U.is_complex():
        return S, recon
    return S, recon, U.abs(), V.abs()


@program()
def prog_sfa_svd_lowrank_tall_grad(T: Any) -> Any:
    T.manual_seed(0)
    A = T.tensor(_data(8, 5, seed=1).astype(np.float64), requires_grad=True)
    U, S, V = T.svd_lowrank(A, q=3)
    loss = S.sum() + (U * S.unsqueeze(0)) @ V.mT
    loss.sum().backward()
    return _gauge_free(T, U, S, V), A.grad, S.grad_fn, type(T.svd_lowrank(A.detach())).__name__


@program()
def prog_sfa_svd_lowrank_wide_and_batched(T: Any) -> Any:
    T.manual_seed(3)
    A = T.tensor(_data(2, 4, 9, seed=2))  # float32, wide: computed on A^H
    out = [_gauge_free(T, *T.svd_lowrank(A, q=4, niter=1))]
    out.append(_gauge_free(T, *T.svd_lowrank(A, q=None, niter=None)))
    return out, T.svd_lowrank(A, q=2)[0].shape


@program()
def prog_sfa_svd_lowrank_with_mean(T: Any) -> Any:
    T.manual_seed(1)
    A = T.tensor(_data(7, 6, seed=4).astype(np.float64), requires_grad=True)
    M = T.tensor(_data(6, seed=5).astype(np.float64), requires_grad=True)  # broadcast to A
    U, S, V = T.svd_lowrank(A, q=6, M=M)
    S.sum().backward()
    full = T.linalg.svdvals(A.detach() - M.detach())
    return _gauge_free(T, U, S, V), full, A.grad, M.grad


@program()
def prog_sfa_svd_lowrank_complex_and_int(T: Any) -> Any:
    T.manual_seed(2)
    C = T.complex(T.tensor(_data(5, 4, seed=6)), T.tensor(_data(5, 4, seed=7))).double()
    U, S, V = T.svd_lowrank(C, q=4)
    ints = T.randint(0, 5, (5, 4))
    return _gauge_free(T, U, S, V), S.dtype, raises(lambda: T.svd_lowrank(ints, q=2))


@program()
def prog_sfa_pca_lowrank(T: Any) -> Any:
    T.manual_seed(4)
    A = T.tensor(_data(12, 5, seed=8).astype(np.float64), requires_grad=True)
    U, S, V = T.pca_lowrank(A, q=3)
    (S**2).sum().backward()
    T.manual_seed(4)
    U2, S2, V2 = T.pca_lowrank(A.detach(), q=3, center=False, niter=0)
    centered = A.detach() - A.detach().mean(0)
    return (
        _gauge_free(T, U, S, V),
        _gauge_free(T, U2, S2, V2),
        T.linalg.svdvals(centered)[:3],
        A.grad,
        T.pca_lowrank(A.detach())[1].shape,  # q = min(6, m, n)
    )


@program()
def prog_sfa_pca_lowrank_errors(T: Any) -> Any:
    A = T.tensor(_data(4, 3, seed=9))
    return (
        raises(lambda: T.pca_lowrank(A, q=4)),
        raises(lambda: T.pca_lowrank(A, q=-1)),
        raises(lambda: T.pca_lowrank(A, niter=-1)),
        raises(lambda: T.svd_lowrank(A.flatten())),
        T.pca_lowrank(A, q=0)[1].shape,
    )


@program()
def prog_sfa_set_anomaly_enabled(T: Any) -> Any:
    out = []
    try:
        T.set_anomaly_enabled(True, False)
        out.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        T.set_anomaly_enabled(enabled=True)
        out.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        T.set_anomaly_enabled(False)
        out.append((T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()))
        out += [
            raises(lambda: T.set_anomaly_enabled(True, 3)),
            raises(lambda: T.set_anomaly_enabled("yes")),
            raises(lambda: T.set_anomaly_enabled()),
            raises(lambda: T.set_anomaly_enabled(True, False, True)),
            raises(lambda: T.set_anomaly_enabled(True, k=1)),
        ]
    finally:
        T.set_anomaly_enabled(False)
    return out


@program()
def prog_sfa_anomaly_enabled_names_the_forward(T: Any) -> Any:
    x = T.tensor([1.0, -1.0], requires_grad=True)
    try:
        T.set_anomaly_enabled(True)
        y = x.sqrt().sum()  # nan in the forward, nan gradient in the backward
        err = raises(lambda: y.backward())
    finally:
        T.set_anomaly_enabled(False)
    return err, T.is_anomaly_enabled()


@program()
def prog_sfa_init_num_threads_and_grad_scaler(T: Any) -> Any:
    n = T.get_num_threads()
    return (
        T.init_num_threads(),
        T.get_num_threads() == n,
        raises(lambda: T.init_num_threads(2)),
        T.GradScaler is T.amp.GradScaler,
        T.GradScaler("cpu", enabled=False).is_enabled(),
    )


@program()
def prog_sfa_class_module_paths(T: Any) -> Any:
    """Classes name torch's module path (shadowgrad's own name in place of torch's): what
    repr(type(m)), typename and a pickled model's class reference show."""
    nn = T.nn
    classes = [
        nn.BatchNorm1d, nn.BatchNorm2d, nn.SyncBatchNorm, nn.LazyBatchNorm3d,
        nn.InstanceNorm2d, nn.LazyInstanceNorm1d, nn.modules.batchnorm._BatchNorm,
        nn.modules.instancenorm._InstanceNorm, nn.LayerNorm, nn.GroupNorm, nn.Linear,
        T.optim.Adafactor, T.optim.Muon, T.optim.AdamW, T.optim.lr_scheduler.OneCycleLR,
    ]  # fmt: skip
    paths = [c.__module__.replace(T.__name__, "torch", 1) + "." + c.__qualname__ for c in classes]
    return paths, T.typename(nn.BatchNorm2d(2)), T.typename(nn.InstanceNorm3d(2))


@program()
def prog_sfa_margin_losses_keep_their_margin(T: Any) -> Any:
    """The margin losses' defaults are torch's numbers, and a margin given is kept as given
    (None too: torch stores it, and the loss then fails in forward)."""
    import inspect

    nn = T.nn
    x1, x2, y = T.tensor([0.2, -0.5, 1.0]), T.tensor([0.1, 0.4, -1.0]), T.tensor([1.0, -1.0, 1.0])
    losses = [nn.MarginRankingLoss(), nn.HingeEmbeddingLoss(), nn.CosineEmbeddingLoss()]
    defaults = [inspect.signature(type(m)).parameters["margin"].default for m in losses]
    return (
        defaults,
        [m.margin for m in losses],
        nn.HingeEmbeddingLoss(None).margin,
        nn.MarginRankingLoss(0.3)(x1, x2, y),
        nn.HingeEmbeddingLoss(reduction="sum")(x1, y),
        nn.CosineEmbeddingLoss(margin=0.1)(x1.view(1, 3), x2.view(1, 3), y[:1]),
        raises(lambda: nn.MarginRankingLoss(None)(x1, x2, y)),
    )


@program()
def prog_sfa_tensor_type_of_a_tensor(T: Any) -> Any:
    """Tensor.type takes a dtype, a type name or a legacy type class, not a tensor."""
    x = T.ones(2)
    return (
        x.type(T.DoubleTensor),
        x.type("torch.IntTensor"),
        x.type(T.float16),
        raises(lambda: x.type(T.ones(1, dtype=T.float64))),
        raises(lambda: x.type(3)),
    )


@pytest.mark.parametrize("name", _SET.params())
def test_program_matches_torch(name: str) -> None:
    _h.test_program_matches_torch(name)
