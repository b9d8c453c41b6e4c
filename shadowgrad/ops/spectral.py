"""Short-time Fourier transforms: torch.stft and torch.istft.

Mirrors `torch.stft` / `torch.istft`. Both are composites in torch (SpectralOps.cpp), so they
are written here from the same differentiable pieces in the same order, and record the nodes
torch records: stft pads the centred signal (F.pad), takes the frames with `as_strided`,
multiplies them by the window (padded to n_fft with `narrow(...).copy_`, CopySlices), runs
`_fft_r2c`/`_fft_c2c` and transposes and squeezes the result in place; istft views the
spectrum as real, transposes it, runs `_fft_c2r`/`_fft_c2c`, overlap-adds the windowed frames
and the squared window with `unfold_backward`, and divides by the window envelope.
"""

from __future__ import annotations

from typing import Any

from .. import _dtype as D
from .._creation import ones, zeros
from .._tensor import Tensor, warn_once
from ..fft import _fft_c2c, _fft_c2r, _r2c
from .nn_ops import constant_pad_op
from .pointwise import view_as_complex, view_as_real
from .shape import as_strided
from .shape_extra import _unfold_backward

__all__ = ["istft", "stft"]

# torch prints a tensor in these errors by its legacy type name, or by its C++ type name when
# it has none (complex)
_LEGACY = {
    "Float": "torch.FloatTensor",
    "Double": "torch.DoubleTensor",
    "Half": "torch.HalfTensor",
    "Long": "torch.LongTensor",
    "Int": "torch.IntTensor",
    "Short": "torch.ShortTensor",
    "Char": "torch.CharTensor",
    "Byte": "torch.ByteTensor",
    "Bool": "torch.BoolTensor",
}


def _type_str(t: Tensor) -> str:
    short = t.dtype._short
    return _LEGACY.get(short, f"CPU{short}Type")


def _sizes(t: Tensor) -> str:
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _opt(v: Any) -> str:
    if v is None:
        return "None"
    return str(int(v))


def _window_str(window: Tensor | None) -> str:
    return "None" if window is None else f"{_type_str(window)}{{{_sizes(window)}}}"


_NO_WINDOW_STFT = (
    "A window was not provided. A rectangular window will be applied,which is known to cause "
    "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
    "recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
    "window, explicitly set `window=torch.ones(n_fft, device=<device>)`."
)
_NO_WINDOW_ISTFT = (
    "A window was not provided. A rectangular window will be applied.Please provide the same "
    "window used by stft to make the inversion lossless.To suppress this warning and use a "
    "rectangular window, explicitly set `window=torch.ones(n_fft, device=<device>)`."
)
_REAL_DEPRECATED = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
    "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
    "Note: you can still call torch.view_as_real on the complex output to recover the old "
    "return format."
)
_ONESIDED_COMPLEX = "Cannot have onesided output if window or input is complex"


# --- stft --------------------------------------------------------------------------------------


def _center(input: Tensor, n_fft: int, pad_mode: str) -> Tensor:
    """torch.functional.stft's centring: pad n_fft // 2 on both sides through F.pad."""
    from ..nn import functional as F

    if input.dtype == D.bool_ and pad_mode in ("reflect", "replicate"):
        kernel = "reflection_pad1d" if pad_mode == "reflect" else "replication_pad1d"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    nd = input.ndim
    pad = n_fft // 2
    x = F.pad(input.view([1] * (3 - nd) + list(input.shape)), [pad, pad], pad_mode)
    return x.view(x.shape[-nd:] if nd else ())


def _full_window(window: Tensor | None, like: Tensor, n_fft: int, win_length: int) -> Any:
    """The window centred in n_fft zeros, as torch builds it (narrow(...).copy_: CopySlices)."""
    if win_length >= n_fft:
        return window
    left = (n_fft - win_length) // 2
    if window is not None:
        full = zeros(n_fft, dtype=window.dtype)
        full.narrow(0, left, win_length).copy_(window)
    else:
        full = zeros(n_fft, dtype=like.dtype)
        full.narrow(0, left, win_length).fill_(1)
    return full


def stft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    return_complex: bool | None = None,
    align_to_window: bool | None = None,
) -> Tensor:
    """Mirrors `torch.stft`."""
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:
        input = _center(input, n_fft, pad_mode)
    if window is None:
        warn_once("stft.window", _NO_WINDOW_STFT)
    hop = n_fft >> 2 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)

    def fail(message: str) -> RuntimeError:
        return RuntimeError(
            f"stft({_type_str(input)}{_sizes(input)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_str(window)}, normalized={int(normalized)}, "
            f"onesided={_opt(onesided)}, return_complex={_opt(return_complex)}, "
            f"align_to_window={_opt(align_to_window)}) : {message}"
        )

    is_complex = input.is_complex() or (window is not None and window.is_complex())
    as_complex = is_complex if return_complex is None else bool(return_complex)
    if not as_complex:
        if return_complex is None:
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will "
                "further require that return_complex=True in a future PyTorch release."
            )
        warn_once("stft.return_complex", _REAL_DEPRECATED)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise fail("expected a tensor of floating point or complex values")
    if input.ndim not in (1, 2):
        raise fail("expected a 1D or 2D tensor")
    x = input.unsqueeze(0) if input.ndim == 1 else input
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        raise fail(f"expected 0 < n_fft < {length}, but got n_fft={win}")
    if hop <= 0:
        raise fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        raise fail(
            f"expected a 1D window tensor of size equal to win_length={win}, but got window "
            f"with size {_sizes(window)}"
        )
    full_window = _full_window(window, input, n_fft, win)
    if not center and align_to_window:
        # frames start where the window does: n_frames counts windows, and the signal gets the
        # window's left padding on both sides (torch's; an odd n_fft - win_length can then read
        # past the end, and as_strided raises torch's storage error)
        n_frames = 1 + (length - win) // hop
        left = (n_fft - win) // 2
        x = constant_pad_op(x, (left, left), 0)
    else:
        n_frames = 1 + (length - n_fft) // hop
    s0, s1 = x.stride()
    frames = as_strided(x, (x.shape[0], n_frames, n_fft), (s0, hop * s1, s1))
    if full_window is not None:
        frames = frames.mul(full_window)
    complex_fft = frames.is_complex()
    sided = (not complex_fft) if onesided is None else bool(onesided)
    norm = "ortho" if normalized else "backward"
    last = (frames.ndim - 1,)
    if complex_fft:
        if sided:
            raise RuntimeError(_ONESIDED_COMPLEX)
        out = _fft_c2c(frames, last, norm, True)
    else:
        out = _r2c(frames, last, norm, sided)
    out.transpose_(1, 2)
    if input.ndim == 1:
        out.squeeze_(0)
    return out if as_complex else view_as_real(out)


# --- istft -------------------------------------------------------------------------------------


def _istft_window(window: Tensor | None, like: Tensor, n_fft: int, win: int) -> Tensor:
    full = ones(win, dtype=like.dtype) if window is None else window
    if win != n_fft:
        left = (n_fft - win) // 2
        full = constant_pad_op(full, (left, n_fft - win - left), 0)
    return full


def _as_complex(x: Tensor) -> Tensor:
    """torch's as_complex: view the (..., 2) pairs as complex, copying first if the strides do
    not allow a view."""
    st = x.stride()
    if st[-1] != 1 or any(s % 2 for s in st[:-1]):
        x = x.contiguous()
    return view_as_complex(x)


def istft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool | None = None,
    length: int | None = None,
    return_complex: bool = False,
) -> Tensor:
    """Mirrors `torch.istft`."""
    if window is None:
        warn_once("istft.window", _NO_WINDOW_ISTFT)
    hop = n_fft >> 2 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)

    def repr_() -> str:
        return (
            f"istft({_type_str(input)}{_sizes(input)}, n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={_window_str(window)}, center={int(center)}, "
            f"normalized={int(normalized)}, onesided={_opt(onesided)}, length={_opt(length)}, "
            f"return_complex={int(return_complex)}) "
        )

    def fail(message: str) -> RuntimeError:
        return RuntimeError(f"{repr_()}: {message}")

    if not input.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with "
            "return_complex=True."
        )
    x = view_as_real(input.resolve_conj())
    nd = x.ndim
    n_frames = x.size(-2)
    fft_size = x.size(-3)
    expected_len = n_fft + hop * (n_frames - 1)
    if x.numel() == 0:
        raise fail("input tensor cannot be empty.")
    if nd not in (3, 4):
        raise fail(f"expected a tensor with 3 or 4 dimensions, but got {nd}")
    sided = (fft_size != n_fft) if onesided is None else bool(onesided)
    if sided and n_fft // 2 + 1 != fft_size:
        raise fail(
            "expected the frequency dimension (3rd to the last) of the input tensor to match "
            f"n_fft / 2 + 1 when onesided=True, but got {fft_size}"
        )
    if not sided and n_fft != fft_size:
        raise fail(
            "expected the frequency dimension (3rd to the last) of the input tensor to match "
            f"n_fft when onesided=False, but got {fft_size}"
        )
    if not 0 < hop <= win:
        raise fail("expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise fail("expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        raise fail("Invalid window shape. window has to be 1D and length of `win_length`")
    full_window = _istft_window(window, x, n_fft, win)
    if nd == 3:
        x = x.unsqueeze(0)
    spec = _as_complex(x.transpose(1, 2))  # (channel, n_frames, fft_size)
    norm = "ortho" if normalized else "backward"
    last = (spec.ndim - 1,)
    if return_complex:
        if sided:
            raise RuntimeError(_ONESIDED_COMPLEX)
        frames = _fft_c2c(spec, last, norm, False)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not sided:
            spec = spec[..., : n_fft // 2 + 1]
        frames = _fft_c2r(spec, last, norm, n_fft)
    y = _unfold_backward(
        frames * full_window.view(1, 1, n_fft), (frames.shape[0], expected_len), 1, n_fft, hop
    )
    envelope = _unfold_backward(
        full_window.pow(2).expand(1, n_frames, n_fft), (1, expected_len), 1, n_fft, hop
    )
    # trim the centring's padding: the left one exactly, the right one by `length` if given
    start = n_fft // 2 if center else 0
    end = expected_len if not center else -(n_fft // 2)
    if length is not None:
        end = start + int(length)
    y = y[:, start:end]
    envelope = envelope[:, start:end]
    too_small = envelope.abs().min().lt(1e-11)
    if bool(too_small):
        raise RuntimeError(f"{repr_()}window overlap add min: 1\n[ CPUBoolType{{}} ]")
    y = y / envelope
    if nd == 3:
        y = y.squeeze(0)
    if end > expected_len:
        warn_once(
            "istft.length",
            "The length of signal is shorter than the length parameter. Result is being padded "
            "with zeros in the tail. Please check your center and hop_length settings.",
        )
        y = constant_pad_op(y, (0, end - expected_len), 0)
    return y


def _stft_method(
    self: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    return_complex: bool | None = None,
    align_to_window: bool | None = None,
) -> Tensor:
    return stft(
        self,
        n_fft,
        hop_length,
        win_length,
        window,
        center,
        pad_mode,
        normalized,
        onesided,
        return_complex,
        align_to_window,
    )


_stft_method.__name__ = _stft_method.__qualname__ = "stft"

METHODS: dict[str, Any] = {"stft": _stft_method, "istft": istft}
FUNCTIONS: dict[str, Any] = {"stft": stft, "istft": istft}
