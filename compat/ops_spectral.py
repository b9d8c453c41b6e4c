"""Op database entries for torch.stft and torch.istft (shadowgrad/ops/spectral.py).

Signals and windows cover every argument: centring with each pad mode, hop and window lengths,
a window shorter than n_fft, normalization, one- and two-sided spectra, real and complex
signals and windows, batches, align_to_window, istft's length (cut and zero-padded) and
return_complex, and bad input for torch's errors. A complex output is compared as it is; its
cotangent is real, which still checks the real-part path of each gradient.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .opdb import OpEntry, Sample, register, tensor_arg


def _rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def _cx(dtype: str) -> Any:
    return np.complex64 if dtype == "float32" else np.complex128


def _quiet(fn: Any) -> Any:
    """The op without torch's once-per-process window and deprecation warnings."""

    def op(T: Any, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(T, *args, **kwargs)

    return op


def _hann(n: int) -> np.ndarray:
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)


def stft_samples(dtype: str) -> list[Sample]:
    r = _rng()
    x = r.standard_normal(20)
    xb = r.standard_normal((2, 16))
    xc = (r.standard_normal(20) + 1j * r.standard_normal(20)).astype(_cx(dtype))
    w8, w6 = tensor_arg(_hann(8) + 0.1), tensor_arg(_hann(6) + 0.1)
    t = tensor_arg
    rc = {"return_complex": True}
    return [
        Sample((t(x), 8), rc, name="defaults"),
        Sample((t(x), 8), {**rc, "window": w8}, name="window"),
        Sample((t(x), 8), {**rc, "hop_length": 3, "win_length": 6, "window": w6},
               name="short window"),
        Sample((t(x), 8), {**rc, "hop_length": 3, "win_length": 5}, name="short, no window"),
        Sample((t(x), 8), {**rc, "window": w8, "center": False, "normalized": True,
                           "onesided": False}, name="uncentred, normalized, two-sided"),
        Sample((t(x), 7), {**rc, "hop_length": 2, "pad_mode": "replicate"}, name="odd n_fft"),
        Sample((t(x), 8), {"window": w8, "return_complex": False}, name="real output"),
        Sample((t(xb), 8), {**rc, "window": w8, "pad_mode": "constant"}, name="batched"),
        Sample((t(xb), 6), {**rc, "hop_length": 4}, name="batched, hop 4"),
        Sample((t(xc), 8), {"window": w8}, name="complex signal"),
        Sample((t(x), 8), {"window": t((_hann(8) + 1j * _hann(8)[::-1]).astype(_cx(dtype)))},
               name="complex window"),
        Sample((t(x), 8, 2, 4), {**rc, "window": t(np.ones(4)), "center": False,
                                 "align_to_window": True}, name="align_to_window"),
        Sample((t(x), 8), {"hop_length": 3}, name="no return_complex (error)"),
        Sample((t(xc), 8), {"onesided": True}, name="onesided complex (error)"),
        Sample((t(x), 8), {**rc, "hop_length": 0}, name="hop 0 (error)"),
        Sample((t(x), 8), {**rc, "win_length": 9}, name="win_length > n_fft (error)"),
        Sample((t(x), 30), {**rc, "center": False}, name="n_fft > length (error)"),
        Sample((t(x), 8), {**rc, "window": t(np.ones(7))}, name="window size (error)"),
        Sample((t(x.reshape(2, 2, 5)), 4), rc, name="3-d (error)"),
        Sample((t(x), 8), {**rc, "pad_mode": "foo"}, name="pad mode (error)"),
        Sample((t(x), 8), {**rc, "align_to_window": True}, name="align with center (error)"),
        Sample((t(x), 8, 3, 5), {**rc, "center": False, "align_to_window": True},
               name="align past the end (error)"),
    ]  # fmt: skip


def _spectrum(x: np.ndarray, n_fft: int, hop: int, window: np.ndarray, onesided: bool) -> Any:
    """A spectrum computed in numpy as stft computes it (centred, reflect padding)."""
    pad = n_fft // 2
    xp = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(pad, pad)], mode="reflect")
    n_frames = 1 + (xp.shape[-1] - n_fft) // hop
    frames = np.stack([xp[..., i * hop : i * hop + n_fft] * window for i in range(n_frames)], -2)
    spec = np.fft.rfft(frames) if onesided else np.fft.fft(frames)
    return np.swapaxes(spec, -1, -2)


def istft_samples(dtype: str) -> list[Sample]:
    r = _rng()
    cx = _cx(dtype)
    x = r.standard_normal(24)
    w = _hann(8) + 0.1
    s1 = _spectrum(x, 8, 2, w, True).astype(cx)
    s2 = _spectrum(x, 8, 2, w, False).astype(cx)
    sb = _spectrum(r.standard_normal((2, 24)), 8, 2, w, True).astype(cx)
    t = tensor_arg
    tw = t(w)
    return [
        Sample((t(s1), 8), {"window": tw}, name="window"),
        Sample((t(s1), 8), {}, name="no window"),
        Sample((t(s1), 8), {"window": tw, "length": 20}, name="length cuts"),
        Sample((t(s1), 8), {"window": tw, "length": 30}, name="length pads"),
        Sample((t(s2), 8), {"window": tw, "onesided": False}, name="two-sided"),
        Sample((t(s2), 8), {"window": tw, "onesided": False, "return_complex": True,
                            "normalized": True}, name="complex output"),
        Sample((t(sb), 8), {"window": tw}, name="batched"),
        Sample((t(s1), 8), {"hop_length": 2, "win_length": 6, "window": t(_hann(6) + 0.2)},
               name="short window"),
        Sample((t(s1), 8), {"window": t(w.astype(cx))}, name="complex window (error)"),
        Sample((t(s1.real.copy()), 8), {}, name="real input (error)"),
        Sample((t(s1), 8), {"hop_length": 0}, name="hop 0 (error)"),
        Sample((t(s1), 10), {}, name="frequency size (error)"),
        Sample((t(s1[:0]), 8), {}, name="empty (error)"),
        Sample((t(s2), 8), {"window": tw, "onesided": False, "center": False,
                            "return_complex": True}, name="zero envelope (error)"),
    ]  # fmt: skip


_TOL = {"float32": (1e-4, 1e-5), "float64": (1e-7, 1e-9)}
_REASON = "FFTs: numpy's pocketfft and torch's MKL/pocketfft round differently in float32"

register(
    OpEntry(
        "stft",
        _quiet(lambda T, x, *a, **k: T.stft(x, *a, **k)),
        stft_samples,
        tolerances=_TOL,
        tolerance_reason=_REASON,
        covers=("stft",),
    ),
    OpEntry(
        "Tensor.stft",
        _quiet(lambda T, x, *a, **k: x.stft(*a, **k)),
        lambda dtype: stft_samples(dtype)[:3],
        tolerances=_TOL,
        tolerance_reason=_REASON,
    ),
    OpEntry(
        "istft",
        _quiet(lambda T, s, *a, **k: T.istft(s, *a, **k)),
        istft_samples,
        tolerances=_TOL,
        tolerance_reason=_REASON,
        covers=("istft",),
    ),
    OpEntry(
        "Tensor.istft",
        _quiet(lambda T, s, *a, **k: s.istft(*a, **k)),
        lambda dtype: istft_samples(dtype)[:3],
        tolerances=_TOL,
        tolerance_reason=_REASON,
    ),
)
