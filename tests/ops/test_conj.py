"""Conjugation and the parts of a complex number (forward values; complex autograd raises)."""

from __future__ import annotations

import numpy as np
import pytest

import shadowgrad as sg


def test_on_real_tensors_they_are_identities_and_gradients_flow() -> None:
    x = sg.tensor([1.0, -2.0], requires_grad=True)
    for f in (sg.conj, sg.conj_physical, sg.resolve_conj, sg.real):
        assert f(x) is x
    assert x.conj() is x and x.real is x and not x.is_conj()
    (x.conj() * x.real).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, -4.0])
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex"):
        x.imag  # noqa: B018


def test_on_complex_tensors_they_compute_the_values() -> None:
    v = np.array([1 + 2j, -3.5 - 0.5j], dtype=np.complex64)
    z = sg.tensor(v)
    # conj is a lazy view, as torch's: numpy() refuses it until resolved
    np.testing.assert_array_equal(z.conj().resolve_conj().numpy(), np.conjugate(v))
    assert z.conj().is_conj() and not z.conj().resolve_conj().is_conj()
    np.testing.assert_array_equal(sg.conj_physical(z).numpy(), np.conjugate(v))
    assert z.conj().dtype is sg.complex64
    re, im = z.real, z.imag
    np.testing.assert_array_equal(re.numpy(), v.real)
    np.testing.assert_array_equal(im.numpy(), v.imag)
    assert re.dtype is sg.float32 and re._base is z and im._base is z
    # views: writing the real part writes the complex tensor
    re.mul_(2)
    np.testing.assert_array_equal(z.numpy(), np.array([2 + 2j, -7 - 0.5j], dtype=np.complex64))


def test_gradient_through_the_parts_of_a_complex_tensor() -> None:
    # L = 2 Re z + Im z: torch's convention gives dL/dRe + i dL/dIm = 2 + 1j
    z = sg.tensor([1 + 2j], requires_grad=True)
    (z.real * 2 + z.imag).sum().backward()
    np.testing.assert_array_equal(z.grad.numpy(), np.array([2 + 1j]))
