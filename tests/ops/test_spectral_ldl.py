"""stft/istft and the LDL factorization on their own: istft inverts stft, stft is the framed
FFT it is defined as, both differentiate correctly (gradcheck, gradgradcheck, forward mode),
the deprecated norms agree with linalg's, and LDL's factors rebuild the matrix and solve it."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg
from shadowgrad.autograd import gradcheck, gradgradcheck


def leaf(a: np.ndarray) -> sg.Tensor:
    return sg.tensor(np.asarray(a), requires_grad=True)


def hann(n: int) -> np.ndarray:
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("normalized", [False, True])
def test_istft_inverts_stft(center: bool, normalized: bool) -> None:
    x = np.random.default_rng(0).standard_normal((2, 40))
    w = sg.tensor(hann(8) + 0.5)
    kw = {"hop_length": 2, "window": w, "center": center, "normalized": normalized}
    spec = sg.stft(sg.tensor(x), 8, return_complex=True, **kw)
    back = sg.istft(spec, 8, length=40 if center else None, **kw)
    n = back.shape[-1]
    np.testing.assert_allclose(back.numpy(), x[:, :n], atol=1e-12)


def test_stft_is_the_framed_fft() -> None:
    x = np.random.default_rng(1).standard_normal(30)
    w = hann(6)
    spec = sg.stft(
        sg.tensor(x), 8, 3, 6, sg.tensor(w), center=False, onesided=False, return_complex=True
    )
    full = np.zeros(8)
    full[1:7] = w
    frames = np.stack([x[i : i + 8] * full for i in range(0, 30 - 8 + 1, 3)])
    np.testing.assert_allclose(spec.numpy(), np.fft.fft(frames).T, atol=1e-12)


def _check(fn, *arrays: np.ndarray) -> None:
    inputs = tuple(leaf(a) for a in arrays)
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-6, rtol=1e-4)
    assert gradgradcheck(fn, inputs, eps=1e-6, atol=1e-6, rtol=1e-4)
    assert gradcheck(
        fn, inputs, eps=1e-6, atol=1e-6, rtol=1e-4, check_forward_ad=True, check_backward_ad=False
    )


def test_stft_gradients() -> None:
    r = np.random.default_rng(2)
    _check(
        lambda x, w: sg.stft(x, 6, 2, 5, w, return_complex=False, normalized=True),
        r.standard_normal(14),
        r.uniform(0.5, 1, 5),
    )


def test_istft_gradients() -> None:
    r = np.random.default_rng(3)
    spec = sg.stft(sg.tensor(r.standard_normal(16)), 6, 2, return_complex=True).numpy()

    def fn(s_re, w):
        return sg.istft(sg.view_as_complex(s_re), 6, 2, window=w, length=15)

    _check(fn, np.stack([spec.real, spec.imag], -1), r.uniform(0.5, 1, 6))


def test_deprecated_norms_agree_with_linalg() -> None:
    import warnings

    x = sg.tensor(np.random.default_rng(4).standard_normal((2, 3, 4)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(
            sg.nuclear_norm(x, (0, 2)).numpy(),
            sg.linalg.matrix_norm(x, "nuc", (0, 2)).numpy(),
        )
        np.testing.assert_allclose(
            sg.frobenius_norm(x, (1, 2)).numpy(), sg.linalg.vector_norm(x, 2, (1, 2)).numpy()
        )
    np.testing.assert_allclose(
        sg.norm_except_dim(x, 3, 1).numpy(),
        sg.linalg.vector_norm(x, 3, (0, 2), keepdim=True).numpy(),
    )
    _check(lambda v: sg.norm_except_dim(v, 2, 1), x.numpy())


def _rebuild(LD: np.ndarray, piv: np.ndarray, herm: bool) -> np.ndarray:
    """A = P L D L^T P^T from LAPACK's compact lower form (the interchanges applied last to
    first, as sytrf applies them first to last)."""
    n = LD.shape[0]
    L, D = np.eye(n, dtype=LD.dtype), np.zeros_like(LD)
    cj = np.conj if herm else (lambda z: z)
    k, steps = 0, []
    while k < n:
        s = 1 if piv[k] > 0 else 2
        D[k : k + s, k : k + s] = LD[k : k + s, k : k + s]
        if s == 2:
            D[k, k + 1] = cj(LD[k + 1, k])
        L[k + s :, k : k + s] = LD[k + s :, k : k + s]
        steps.append((k, s, abs(int(piv[k])) - 1))
        k += s
    # A = M_1 ... M_m D M_m^T ... M_1^T, with M_j = P_j L_j
    A = D
    for k, s, kp in reversed(steps):
        Lk = np.eye(n, dtype=LD.dtype)
        Lk[k + s :, k : k + s] = L[k + s :, k : k + s]
        P = np.eye(n)
        kk = k + s - 1
        P[[kk, kp]] = P[[kp, kk]]
        M = P @ Lk
        A = M @ A @ cj(M).T
    return A


@pytest.mark.parametrize("kind", ["real", "symmetric", "hermitian"])
def test_ldl_rebuilds_and_solves(kind: str) -> None:
    r = np.random.default_rng(5)
    n = 7
    A = r.standard_normal((n, n))
    if kind != "real":
        A = A + 1j * r.standard_normal((n, n))
    herm = kind == "hermitian"
    A = A + (A.conj().T if herm else A.T)
    A[np.diag_indices(n)] *= 0.05  # 2x2 pivots
    LD, piv = sg.linalg.ldl_factor(sg.tensor(A), hermitian=herm)
    assert (piv.numpy() < 0).any()
    np.testing.assert_allclose(_rebuild(LD.numpy(), piv.numpy(), herm), A, atol=1e-10)
    B = r.standard_normal((n, 3))
    X = sg.linalg.ldl_solve(LD, piv, sg.tensor(B.astype(A.dtype)), hermitian=herm)
    np.testing.assert_allclose(A @ X.numpy(), B, atol=1e-9)
