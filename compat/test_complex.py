"""Differential tests of complex autograd (torch's conjugate Wirtinger convention, Note [Complex
gradients] in shadowgrad/ops/registry.py) and of gradcheck on complex inputs: the same program
runs with torch and shadowgrad from the same numpy inputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import shadowgrad  # noqa: E402

LIBS = (torch, shadowgrad)
_RNG = np.random.default_rng(7)


def _c(*shape: int) -> np.ndarray:
    return _RNG.standard_normal(shape) + 1j * _RNG.standard_normal(shape)


def _r(*shape: int) -> np.ndarray:
    return _RNG.standard_normal(shape)


# name: (loss(T, *inputs), numpy inputs); complex inputs are cast to the tested complex dtype,
# real ones to its real dtype
CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray]]] = {
    "add": (lambda T, a, b: (a + b * 2).abs().sum(), [_c(3), _c(3)]),
    "add_alpha": (lambda T, a, b: T.add(a, b, alpha=2).imag.sum(), [_c(3), _r(3)]),
    "sub": (lambda T, a, b: (a - b).abs().sum(), [_c(3), _r(3)]),
    "rsub": (lambda T, a: (2 - a).abs().sum(), [_c(3)]),
    "mul": (lambda T, a, b: (a * b).abs().sum(), [_c(3), _c(3)]),
    "mul_real": (lambda T, a, b: (a * b).real.sum(), [_c(3), _r(3)]),
    "mul_number": (lambda T, a: (a * (2 - 1j)).imag.sum(), [_c(3)]),
    "div": (lambda T, a, b: (a / b).imag.sum(), [_c(3), _c(3)]),
    "div_real": (lambda T, a, b: (b / a).abs().sum(), [_c(3), _r(3)]),
    "neg": (lambda T, a: T.view_as_real(-a).sum(), [_c(3)]),
    "conj": (lambda T, a: (a.conj() * a * 2j).real.sum(), [_c(3)]),
    "conj_physical": (lambda T, a: (a.conj_physical() * 1j * a.exp()).imag.sum(), [_c(3)]),
    "real_imag": (lambda T, a: (a.real * 3 + a.imag**2).sum(), [_c(3)]),
    "abs": (lambda T, a: a.abs().sum(), [_c(4)]),
    "abs_at_zero": (lambda T, a: (a * 0).abs().sum() + a.abs().sum(), [_c(2)]),
    "sgn": (
        lambda T, a: (
            (a.sgn() * (2 - 1j)).real.sum() + T.sgn(a * 0).imag.sum() + a.sgn().abs().sum()
        ),
        [_c(4)],
    ),
    "exp": (lambda T, a: a.exp().abs().sum(), [_c(3)]),
    "log": (lambda T, a: a.log().imag.sum(), [_c(3)]),
    "sqrt": (lambda T, a: a.sqrt().real.sum(), [_c(3)]),
    "pow": (lambda T, a: (a**3).real.sum() + (a**0.5).imag.sum() + (a**-2).abs().sum(), [_c(3)]),
    "reciprocal": (lambda T, a: a.reciprocal().real.sum(), [_c(3)]),
    "sin_cos": (lambda T, a: (a.sin() + a.cos()).imag.sum(), [_c(3)]),
    "tanh_sigmoid": (lambda T, a: (a.tanh() + a.sigmoid()).abs().sum(), [_c(3)]),
    "sum_mean": (
        lambda T, a: a.sum(1).abs().sum() + a.mean(0).abs().sum() + a.mean().real,
        [_c(3, 2)],
    ),
    "mm": (lambda T, a, b: (a @ b).abs().sum(), [_c(3, 2), _c(2, 4)]),
    "bmm": (lambda T, a, b: T.bmm(a, b).abs().sum(), [_c(2, 3, 2), _c(2, 2, 4)]),
    "matmul": (
        lambda T, a, b: T.matmul(a, b).abs().sum() + T.matmul(a[0], b[0, :, 0]).abs().sum(),
        [_c(2, 3, 2), _c(2, 2, 4)],
    ),
    "dot": (lambda T, a, b: T.dot(a, b).abs(), [_c(3), _c(3)]),
    "addmm": (
        lambda T, a, b, c: T.addmm(c, a, b, alpha=2, beta=0.5).abs().sum(),
        [_c(3, 2), _c(2, 4), _c(3, 4)],
    ),
    "views": (
        lambda T, a: (
            (a.view(6).reshape(2, 3).t().permute(1, 0).transpose(0, 1).expand(2, 3, 2)[1, :, 1:])
            .abs()
            .sum()
        ),
        [_c(2, 3)],
    ),
    "cat_stack": (
        lambda T, a, b: (T.cat([a, b]) * T.stack([a, b]).sum(0).repeat(2)).abs().sum(),
        [_c(3), _c(3)],
    ),
    "view_as_real": (lambda T, a: (T.view_as_real(a) ** 2 * T.arange(2.0)).sum(), [_c(3)]),
    "view_as_complex": (lambda T, a: (T.view_as_complex(a) ** 2).abs().sum(), [_r(3, 2)]),
    "complex": (lambda T, a, b: (T.complex(a, b) ** 2).real.sum(), [_r(3), _r(3)]),
    "polar": (lambda T, a, b: (T.polar(a, b) * (1 + 2j)).real.sum(), [_r(3), _r(3)]),
    "where": (lambda T, a: T.where(a.real > 0, a, a * 2).abs().sum(), [_c(4)]),
    "prod": (
        lambda T, a: a[0].prod().abs() + a.prod(1).abs().sum() + a.prod(0, keepdim=True).imag.sum(),
        [np.array([[1 + 2j, -0.5 + 0.3j, 2 - 1j], [0.3 - 2j, 0j, 1 + 1j]])],
    ),
    "vector_norm": (
        lambda T, a: (
            sum(
                T.linalg.vector_norm(a, ord=o, dim=1).sum()
                for o in (1, 2, 3, 0.5, 1.5, float("inf"), -float("inf"))
            )
            + a.norm()
        ),
        [_c(2, 3)],
    ),
    "to_complex": (lambda T, a: (a.to(T.complex128) * 1j).exp().real.sum(), [_r(3)]),
}


def _inputs(T: Any, arrays: list[np.ndarray], cdt: str) -> list[Any]:
    rdt = "float64" if cdt == "complex128" else "float32"
    out = []
    for x in arrays:
        dt = getattr(T, cdt if np.iscomplexobj(x) else rdt)
        out.append(T.tensor(x, dtype=dt, requires_grad=True))
    return out


@pytest.mark.parametrize("cdt", ["complex64", "complex128"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_gradients_match_torch(name: str, cdt: str) -> None:
    fn, arrays = CASES[name]
    res = []
    for T in LIBS:
        ts = _inputs(T, arrays, cdt)
        y = fn(T, *ts)
        y.backward()
        res.append((y, [t.grad for t in ts]))
    (ty, tg), (sy, sg) = res
    tol = 1e-4 if cdt == "complex64" else 1e-10
    np.testing.assert_allclose(sy.detach().numpy(), ty.detach().numpy(), rtol=tol, atol=tol)
    for a, b in zip(tg, sg, strict=True):
        assert str(a.dtype).split(".")[-1] == b.dtype._name
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=tol, atol=tol)


GRAD_FN_PROGRAMS: dict[str, Callable[..., Any]] = {
    "conj": lambda T, z, x: z.conj(),
    "conj_physical": lambda T, z, x: z.conj_physical(),
    "real": lambda T, z, x: z.real,
    "imag": lambda T, z, x: z.imag,
    "abs": lambda T, z, x: z.abs(),
    "view_as_real": lambda T, z, x: T.view_as_real(z),
    "view_as_complex": lambda T, z, x: T.view_as_complex(T.view_as_real(z)),
    "complex": lambda T, z, x: T.complex(x, x * 2),
    "polar": lambda T, z, x: T.polar(x, x),
    "mul_mixed": lambda T, z, x: x * z,
    "pow": lambda T, z, x: z**2,
}


@pytest.mark.parametrize("name", sorted(GRAD_FN_PROGRAMS))
def test_complex_grad_fn_names_match_torch(name: str) -> None:
    names = []
    for T in LIBS:
        z = T.tensor([3 + 4j, 1 - 2j], requires_grad=True)
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = GRAD_FN_PROGRAMS[name](T, z, x)
        names.append((y.grad_fn.name(), str(y.dtype)))
    assert names[0] == names[1]


def test_abs_gradient_is_sgn():
    # torch-semantics 14.17: abs(3+4j) has gradient 0.6+0.8j
    z = shadowgrad.tensor(3 + 4j, requires_grad=True)
    z.abs().backward()
    assert complex(z.grad.item()) == pytest.approx(0.6 + 0.8j)


def test_view_as_real_is_a_view_and_errors_match_torch():
    for T in LIBS:
        z = T.tensor([1 + 2j, 3 - 4j])
        v = T.view_as_real(z)
        v[0, 1] = 9.0
        assert complex(z[0].item()) == 1 + 9j
    msgs = []
    for T in LIBS:
        got = []
        for bad in (
            lambda L: L.view_as_complex(L.zeros(3, 2, dtype=L.long)),
            lambda L: L.view_as_complex(L.zeros(3, 3)),
            lambda L: L.view_as_complex(L.zeros(2, 3).t()),
            lambda L: L.complex(L.zeros(2), L.zeros(2, dtype=L.float64)),
            lambda L: L.complex(L.zeros(2, dtype=L.long), L.zeros(2, dtype=L.long)),
        ):
            with pytest.raises(RuntimeError) as e:
                bad(T)
            got.append(str(e.value))
        msgs.append(got)
    assert msgs[0] == msgs[1]


def test_complex_double_backward_matches_torch():
    z0, x0 = _c(3), _r(3)
    res = []
    for T in LIBS:
        z = T.tensor(z0, requires_grad=True)
        x = T.tensor(x0, requires_grad=True)
        y = ((z * x).exp() * z.conj()).abs().sum()
        (gz,) = T.autograd.grad(y, z, create_graph=True)
        (gz.abs() ** 2).sum().backward()
        res.append((gz.detach().numpy(), z.grad.numpy(), x.grad.numpy()))
    for a, b in zip(*res, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-9, atol=1e-12)


# --- gradcheck on complex inputs and outputs ---------------------------------------------------

GRADCHECK_FNS: dict[str, Callable[..., Any]] = {
    "mixed": lambda a, b: (a * b.exp()).sin() / (a + 3),
    "real_out": lambda a, b: a.abs() * a.real + b,
    "holomorphic": lambda a, b: (a * a).tanh() + a.log() * b,
    "matmul": lambda a, b: a.reshape(3, 1) @ (a.reshape(1, 3) * b),
    "polar": lambda a, b: shadowgrad.polar(b, b * 2) * a,
    "prod_norm": lambda a, b: a.prod() * shadowgrad.linalg.vector_norm(a * b, ord=3),
    "sgn": lambda a, b: (a * b).sgn() * a,
}


@pytest.mark.parametrize("fast_mode", [False, True])
@pytest.mark.parametrize("name", sorted(GRADCHECK_FNS))
def test_gradcheck_complex(name: str, fast_mode: bool) -> None:
    a = shadowgrad.tensor(_c(3), requires_grad=True)
    b = shadowgrad.tensor(_r(3) + 2.0, requires_grad=True)
    fn = GRADCHECK_FNS[name]
    assert shadowgrad.autograd.gradcheck(fn, (a, b), fast_mode=fast_mode)
    assert shadowgrad.autograd.gradgradcheck(fn, (a, b), fast_mode=fast_mode)


def _wrong_conj(T: Any) -> Any:
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2 * a  # missing the conjugate: wrong under torch's convention

    return Square.apply


def test_gradcheck_complex_failure_matches_torch():
    z0 = _c(3)
    msgs = []
    for T in LIBS:
        z = T.tensor(z0, requires_grad=True)
        with pytest.raises(RuntimeError) as e:
            T.autograd.gradcheck(_wrong_conj(T), (z,))
        msgs.append(str(e.value))
        assert T.autograd.gradcheck(lambda a: a * a, (z,))
    # torch checks the imaginary parts first, and the numerical Jacobians agree
    for m in msgs:
        assert m.startswith(
            "While considering the imaginary part of complex outputs only, Jacobian mismatch for "
            "output 0 with respect to input 0,\nnumerical:tensor("
        )
    assert msgs[0].split("analytical")[0] == msgs[1].split("analytical")[0]


def test_sign_of_a_complex_tensor_raises_and_sgn_is_z_over_abs_as_torch() -> None:
    z = np.array([3 + 4j, -2j, 0j, 1 - 1j])
    outs = []
    for T in LIBS:
        t = T.tensor(z, dtype=T.complex64)
        with pytest.raises(NotImplementedError) as e:
            t.sign()
        outs.append((str(e.value), t.sgn().numpy(), T.sgn(t.to(T.complex128)).numpy()))
    assert outs[0][0] == outs[1][0]
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-6)
    np.testing.assert_allclose(outs[1][2], outs[0][2], rtol=1e-15)


def test_backward_through_ops_without_complex_formulas_still_raises():
    z = shadowgrad.tensor([1 + 2j], requires_grad=True)
    w = shadowgrad.ones(1, 1, 1, dtype=shadowgrad.complex64)
    y = shadowgrad.nn.functional.conv1d(z.reshape(1, 1, 1), w).abs().sum()  # no complex formula
    with pytest.raises(RuntimeError, match="does not compute gradients through complex tensors"):
        y.backward()


# --- torch.fft -----------------------------------------------------------------------------------

_XR = _r(4, 6)
_XC = _c(4, 6)
_W = _c(8, 12)


def _fft_loss(T: Any, y: Any) -> Any:
    w = T.tensor(_W[tuple(slice(0, s) for s in y.shape)])
    if y.is_complex():
        return (y * w).real.sum() + y.abs().sum()
    return (y * w.real).sum()


def _fft_cases() -> list[tuple[str, str, dict[str, Any]]]:
    cases = []
    for n, dim in ((None, -1), (4, 0), (9, -1)):
        for norm in (None, "forward", "ortho"):
            for f in ("fft", "ifft", "rfft", "ihfft"):
                cases.append((f, "real", {"n": n, "dim": dim, "norm": norm}))
            for f in ("fft", "ifft", "hfft", "irfft"):
                cases.append((f, "complex", {"n": n, "dim": dim, "norm": norm}))
    for norm in (None, "forward", "ortho"):
        for s in (None, (3, 8)):
            for f in ("fft2", "ifft2", "rfft2", "fftn", "ifftn", "rfftn"):
                cases.append((f, "real", {"s": s, "norm": norm}))
        for s in (None, (3, 8), (5, 5)):
            for f in ("fft2", "ifft2", "irfft2", "fftn", "ifftn", "irfftn"):
                cases.append((f, "complex", {"s": s, "norm": norm}))
    cases.append(("fftn", "complex", {"dim": (0,)}))
    cases.append(("irfftn", "complex", {"dim": (1, 0), "s": (7, -1)}))
    cases.append(("rfftn", "real", {"dim": (1, 0), "s": (3, -1)}))
    return cases


@pytest.mark.parametrize(("name", "kind", "kwargs"), _fft_cases())
def test_fft_matches_torch(name: str, kind: str, kwargs: dict[str, Any]) -> None:
    out = []
    for T in LIBS:
        x = T.tensor(_XR if kind == "real" else _XC, requires_grad=True)
        y = getattr(T.fft, name)(x, **kwargs)
        _fft_loss(T, y).backward()
        out.append(
            (
                y.detach().resolve_conj().numpy(),
                x.grad.resolve_conj().numpy(),
                y.grad_fn.name(),
                str(y.dtype).split(".")[-1],
            )
        )
    (ty, tg, tname, tdt), (sy, sg, sname, sdt) = out
    assert (sname, sdt) == (tname, tdt)
    assert sy.shape == ty.shape
    np.testing.assert_allclose(sy, ty, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(sg, tg, rtol=1e-10, atol=1e-10)


def test_fft_float32_keeps_single_precision():
    for T in LIBS:
        x = T.tensor(_XR, dtype=T.float32)
        assert T.fft.rfft(x).dtype == T.complex64
        assert T.fft.irfft(T.fft.rfft(x)).dtype == T.float32
        assert T.fft.fft(T.tensor([1, 2, 3])).dtype == T.complex64


@pytest.mark.parametrize(
    "name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "rfftn", "irfftn"]
)
def test_fft_gradcheck(name: str) -> None:
    real_in = name in ("rfft", "ihfft", "rfftn")
    x = shadowgrad.tensor(_XR[:3, :5] if real_in else _XC[:3, :5], requires_grad=True)
    fn = getattr(shadowgrad.fft, name)
    assert shadowgrad.autograd.gradcheck(lambda t: fn(t, norm="ortho"), (x,))
    assert shadowgrad.autograd.gradgradcheck(fn, (x,))


def test_fft_helpers_match_torch():
    res = []
    for T in LIBS:
        x = T.tensor(_XR[:3, :5], requires_grad=True)
        y = T.fft.fftshift(x) * 2 + T.fft.ifftshift(x, dim=1) + T.fft.fftshift(x, dim=(0,))
        y.sum().backward()
        res.append(
            [
                y.detach().numpy(),
                x.grad.numpy(),
                T.fft.fftfreq(5).numpy(),
                T.fft.fftfreq(6, d=0.5, dtype=T.float64).numpy(),
                T.fft.rfftfreq(7, 2.0).numpy(),
                y.grad_fn.next_functions[0][0].next_functions[0][0].name(),
            ]
        )
    for a, b in zip(*res, strict=True):
        if isinstance(a, str):
            assert a == b
        else:
            assert a.dtype == b.dtype
            np.testing.assert_allclose(b, a, rtol=1e-7)


FFT_ERRORS: list[Callable[..., Any]] = [
    lambda T: T.fft.rfft(T.zeros(3, dtype=T.complex64)),
    lambda T: T.fft.fft(T.zeros(3), norm="xyz"),
    lambda T: T.fft.fft(T.zeros(3), dim=2),
    lambda T: T.fft.fft(T.zeros(3), n=0),
    lambda T: T.fft.irfft(T.zeros(1, dtype=T.complex64)),
    lambda T: T.fft.fftn(T.zeros(2, 3), s=(2,), dim=(0, 1)),
    lambda T: T.fft.fftn(T.zeros(2, 3), dim=(0, 0)),
]


@pytest.mark.parametrize("k", range(len(FFT_ERRORS)))
def test_fft_errors_match_torch(k: int) -> None:
    got = []
    for T in LIBS:
        with pytest.raises(Exception) as e:
            FFT_ERRORS[k](T)
        got.append((type(e.value).__name__, str(e.value)))
    assert got[0] == got[1]


@pytest.mark.parametrize("sizes", [(2, 2, 3), (-1, 2, 5), (4, 3, 1), (2, -1, -1)])
def test_expand_checks_sizes_from_the_last_dimension_as_torch(sizes: tuple[int, ...]) -> None:
    # found while writing the view cases above: torch names the innermost mismatch
    got = []
    for T in LIBS:
        try:
            got.append(tuple(T.zeros(3, 2).expand(*sizes).shape))
        except RuntimeError as e:
            got.append(str(e))
    assert got[0] == got[1]


# --- forward mode on complex inputs ------------------------------------------------------------

_FW_COMPLEX = {
    "exp": lambda T, x: x.exp(),
    "abs": lambda T, x: x.abs(),
    "angle": lambda T, x: x.angle(),
    "sigmoid": lambda T, x: x.sigmoid(),
    "reciprocal": lambda T, x: x.reciprocal(),
    "sqrt": lambda T, x: x.sqrt(),
    "real": lambda T, x: x.real * 1,
    "view_as_real": lambda T, x: T.view_as_real(x) * 1,
    "polar": lambda T, x: T.polar(x.abs(), x.angle()),
    "sgn": lambda T, x: x.sgn(),
    "vector_norm": lambda T, x: T.stack(
        [
            T.linalg.vector_norm(x, ord=o)
            for o in (2, 1, 3, 1.5, 0.5, 0, float("inf"), -float("inf"))
        ]
    ),
}


@pytest.mark.parametrize("name", sorted(_FW_COMPLEX))
def test_forward_mode_tangents_on_complex_inputs_match_torch(name: str) -> None:
    z = np.array([1 + 2j, -0.5 + 0.3j, 3 - 1j])
    v = np.array([0.3 - 1j, 2 + 0.5j, -1 + 1j])
    outs = []
    for T in (torch, shadowgrad):
        fw = T.autograd.forward_ad
        with fw.dual_level():
            y = _FW_COMPLEX[name](T, fw.make_dual(T.tensor(z), T.tensor(v)))
            outs.append(fw.unpack_dual(y).tangent.numpy())
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-12, atol=1e-12)
