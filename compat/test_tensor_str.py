"""Compare shadowgrad._tensor_str.format_tensor with torch's own ``repr(tensor)``."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shadowgrad import _tensor_str as ts  # noqa: E402

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _to_numpy(t: torch.Tensor) -> np.ndarray:
    t = t.detach()
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    return t.numpy()


def ours(t: torch.Tensor, extras=(), prefix: str = "tensor(") -> str:
    return ts.format_tensor(
        _to_numpy(t), _name(t.dtype), _name(torch.get_default_dtype()), extras, prefix
    )


def check(t: torch.Tensor, extras=()) -> None:
    expected = repr(t)
    got = ours(t, extras)
    assert got == expected, f"\nexpected:\n{expected}\ngot:\n{got}"


def _reset_printoptions() -> None:
    torch.set_printoptions(profile="default")
    ts.set_printoptions(profile="default")


@pytest.fixture(autouse=True)
def _default_printoptions():
    _reset_printoptions()
    yield
    _reset_printoptions()


nan, inf = math.nan, math.inf
f64, f16, i32 = torch.float64, torch.float16, torch.int32


def _seeded(fn: Callable[[np.random.Generator], np.ndarray]) -> Callable[[], torch.Tensor]:
    return lambda: torch.tensor(fn(np.random.default_rng(0)))


# ---------------------------------------------------------------------------
# parametrised cases (default dtype float32)
# ---------------------------------------------------------------------------

CASES: dict[str, Callable[[], torch.Tensor]] = {
    # 0-d
    "scalar_int_float": lambda: torch.tensor(6.0),
    "scalar_frac": lambda: torch.tensor(3.14159),
    "scalar_neg_zero": lambda: torch.tensor(-0.0),
    "scalar_zero": lambda: torch.tensor(0.0),
    "scalar_nan": lambda: torch.tensor(nan),
    "scalar_inf": lambda: torch.tensor(-inf),
    "scalar_big": lambda: torch.tensor(1e9),
    "scalar_tiny": lambda: torch.tensor(1e-5),
    "scalar_int64": lambda: torch.tensor(-42),
    "scalar_int32": lambda: torch.tensor(7, dtype=i32),
    "scalar_bool": lambda: torch.tensor(True),
    "scalar_f64": lambda: torch.tensor(2.5, dtype=f64),
    "scalar_f16": lambda: torch.tensor(0.1, dtype=f16),
    "scalar_complex": lambda: torch.tensor(1 + 2j),
    "scalar_complex_neg": lambda: torch.tensor(-1.5 - 0.25j),
    "scalar_complex128": lambda: torch.tensor(3 - 4j, dtype=torch.complex128),
    "scalar_uint8": lambda: torch.tensor(200, dtype=torch.uint8),
    # 1-D floats
    "vec_ints": lambda: torch.tensor([1.0, 2.0, 3.0]),
    "vec_ints_padded": lambda: torch.tensor([1.0, -20.0, 300.0]),
    "vec_frac": lambda: torch.tensor([0.1, 0.25, -3.5]),
    "vec_999_5": lambda: torch.tensor([999.5, 1.0]),
    "vec_999_99999": lambda: torch.tensor([999.99999, 0.5]),
    "vec_ratio_sci": lambda: torch.tensor([1.0, 1001.0]),
    "vec_ratio_boundary": lambda: torch.tensor([1.0, 1000.0]),
    "vec_tiny": lambda: torch.tensor([1e-5, 0.5]),
    "vec_tiny_only": lambda: torch.tensor([1e-5]),
    "vec_big": lambda: torch.tensor([1e9, 2.0]),
    "vec_big_ints": lambda: torch.tensor([1e8, 2e8]),
    "vec_1e8": lambda: torch.tensor([1e8, 5e7]),
    "vec_mixed_sci": lambda: torch.tensor([1e-10, 1.0, 1e10, -3.3e5]),
    "vec_nan_inf": lambda: torch.tensor([nan, inf, -inf, 1.0]),
    "vec_nan_inf_frac": lambda: torch.tensor([nan, inf, -inf, 1.5]),
    "vec_nan_inf_sci": lambda: torch.tensor([nan, inf, -inf, 1e-7]),
    "vec_only_nonfinite": lambda: torch.tensor([nan, -inf]),
    "vec_neg_zero": lambda: torch.tensor([-0.0, 0.0, 1.0]),
    "vec_neg_zero_frac": lambda: torch.tensor([-0.0, 0.5]),
    "vec_all_zero": lambda: torch.zeros(4),
    "vec_rounding": lambda: torch.tensor([0.00005, 0.99995, 9.99995]),
    "vec_f64": lambda: torch.tensor([1.0, 2.0], dtype=f64),
    "vec_f64_frac": lambda: torch.tensor([1.123456789, 2.0], dtype=f64),
    "vec_f64_sci": lambda: torch.tensor([1e-300, 1e300], dtype=f64),
    "vec_f64_subnormal": lambda: torch.tensor([5e-324, 1.0], dtype=f64),
    "vec_f16": lambda: torch.tensor([0.1, 65504.0, -2.0], dtype=f16),
    "vec_f16_int": lambda: torch.tensor([1.0, 2.0], dtype=f16),
    "vec_bf16": lambda: torch.tensor([0.1, 3.0], dtype=torch.bfloat16),
    # 1-D ints / bools / complex
    "vec_int64": lambda: torch.tensor([1, -20, 300]),
    "vec_int32": lambda: torch.tensor([1, -20, 300], dtype=i32),
    "vec_int16": lambda: torch.tensor([-5, 5], dtype=torch.int16),
    "vec_int8": lambda: torch.tensor([-128, 127], dtype=torch.int8),
    "vec_uint8": lambda: torch.tensor([0, 255], dtype=torch.uint8),
    "vec_int64_huge": lambda: torch.tensor([2**62, -(2**63)]),
    "vec_bool": lambda: torch.tensor([True, False, True]),
    "vec_bool_all_true": lambda: torch.tensor([True, True]),
    "vec_complex": lambda: torch.tensor([1 + 2j, -3.5 - 0.5j, 0j]),
    "vec_complex_ints": lambda: torch.tensor([1 + 2j, 3 + 4j]),
    "vec_complex_sci": lambda: torch.tensor([1e-6 + 1e6j, 2 + 0j]),
    "vec_complex_nan": lambda: torch.tensor([complex(nan, inf), complex(1, -0.0)]),
    "vec_complex128": lambda: torch.tensor([1 + 2j], dtype=torch.complex128),
    # 2-D and higher
    "mat_ints": lambda: torch.arange(6.0).reshape(2, 3),
    "mat_frac": lambda: torch.arange(12.0).reshape(3, 4) / 7,
    "mat_neg": lambda: -torch.arange(12.0).reshape(4, 3) * 1.5,
    "mat_int64": lambda: torch.arange(-6, 6).reshape(3, 4),
    "mat_bool": lambda: torch.arange(6).reshape(2, 3) % 2 == 0,
    "mat_sci": lambda: torch.tensor([[1e-8, 1.0], [1e5, -2.5]]),
    "mat_complex": lambda: torch.tensor([[1 + 1j, 2 - 2j], [0.5j, -1]]),
    "mat_single_row": lambda: torch.tensor([[1.5, 2.5]]),
    "mat_single_col": lambda: torch.tensor([[1.5], [2.5]]),
    "t3": lambda: torch.arange(24.0).reshape(2, 3, 4),
    "t3_frac": lambda: torch.arange(24.0).reshape(2, 3, 4) / 3,
    "t3_int32": lambda: torch.arange(24, dtype=i32).reshape(2, 3, 4),
    "t4": lambda: torch.arange(48.0).reshape(2, 2, 3, 4) - 20,
    "t5": lambda: torch.arange(32).reshape(2, 2, 2, 2, 2),
    "t3_f64": lambda: torch.arange(8, dtype=f64).reshape(2, 2, 2) * 0.3,
    "t3_unit_dims": lambda: torch.ones(1, 1, 1),
    # empty tensors
    "empty_1d": lambda: torch.zeros(0),
    "empty_int64": lambda: torch.zeros(0, dtype=torch.int64),
    "empty_bool": lambda: torch.zeros(0, dtype=torch.bool),
    "empty_f64": lambda: torch.zeros(0, dtype=f64),
    "empty_complex": lambda: torch.zeros(0, dtype=torch.complex64),
    "empty_0x3": lambda: torch.zeros(0, 3),
    "empty_3x0": lambda: torch.zeros(3, 0),
    "empty_2x0x3_int": lambda: torch.zeros(2, 0, 3, dtype=i32),
    "empty_0x0_f16": lambda: torch.zeros(0, 0, dtype=f16),
    # summarisation
    "big_1d": lambda: torch.arange(2000.0),
    "big_1d_int": lambda: torch.arange(5000),
    "big_1d_frac": lambda: torch.arange(1001.0) / 3,
    "threshold_exact": lambda: torch.arange(1000.0),
    "big_2d": lambda: torch.arange(40000.0).reshape(200, 200),
    "big_2d_narrow": lambda: torch.arange(3000).reshape(1000, 3),
    "big_2d_wide": lambda: torch.arange(3000).reshape(3, 1000),
    "big_3d": lambda: torch.arange(8000.0).reshape(20, 20, 20) / 7,
    "big_complex": lambda: torch.arange(2000.0).reshape(2, 1000) * (1 + 1j),
    "big_hidden_outlier": lambda: torch.cat(
        [torch.ones(10), torch.full((1000,), 1e9), torch.ones(10)]
    ),
    "big_bool": lambda: torch.arange(1200).reshape(30, 40) % 3 == 0,
    # wrapping
    "long_row": lambda: torch.arange(30.0) * 1.5,
    "long_row_int": lambda: torch.arange(100),
    "long_row_sci": lambda: torch.logspace(-10, 10, 25),
    "long_row_complex": lambda: torch.arange(20.0) * (1 - 0.5j),
    "long_2d_rows": lambda: torch.arange(60.0).reshape(3, 20) * 1.25,
    "long_3d_rows": lambda: torch.arange(80).reshape(2, 2, 20),
    # random data
    "randn_2d": _seeded(lambda r: r.standard_normal((5, 7)).astype(np.float32)),
    "randn_3d_f64": _seeded(lambda r: r.standard_normal((2, 3, 5))),
    "rand_tiny": _seeded(lambda r: r.random((4, 4)).astype(np.float32) * 1e-3),
    "rand_lognormal": _seeded(lambda r: np.exp(r.normal(0, 6, 30)).astype(np.float32)),
    "randint": _seeded(lambda r: r.integers(-(10**6), 10**6, (4, 6))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_repr_matches_torch(name):
    check(CASES[name]())


DEFAULT_F64_CASES: dict[str, Callable[[], torch.Tensor]] = {
    "scalar": lambda: torch.tensor(1.5),
    "vec": lambda: torch.tensor([1.0, 2.5, -3.0]),
    "vec_f32": lambda: torch.tensor([1.0, 2.5], dtype=torch.float32),
    "vec_f16": lambda: torch.tensor([1.0, 2.5], dtype=f16),
    "vec_complex_default": lambda: torch.tensor([1 + 2j]),
    "vec_complex64": lambda: torch.tensor([1 + 2j], dtype=torch.complex64),
    "vec_int": lambda: torch.tensor([1, 2]),
    "empty": lambda: torch.zeros(0),
    "empty_f32": lambda: torch.zeros(0, dtype=torch.float32),
    "empty_2d_int": lambda: torch.zeros(2, 0, dtype=torch.int64),
    "mat_sci": lambda: torch.tensor([[1e-12, 1.0], [3.0, 4.0]]),
    "big": lambda: torch.arange(1500.0) / 9,
}


@pytest.mark.parametrize("name", list(DEFAULT_F64_CASES))
def test_repr_matches_torch_default_float64(name):
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        check(DEFAULT_F64_CASES[name]())
    finally:
        torch.set_default_dtype(old)


# ---------------------------------------------------------------------------
# extras (requires_grad / grad_fn)
# ---------------------------------------------------------------------------

GRAD_CASES: dict[str, Callable[[], torch.Tensor]] = {
    "scalar": lambda: torch.tensor(2.0),
    "vec": lambda: torch.tensor([1.5, 2.0]),
    "vec_ints": lambda: torch.tensor([1.0, 2.0]),
    "vec_f64": lambda: torch.tensor([2.0, 4.0], dtype=f64),
    "vec_f16": lambda: torch.tensor([2.0, 4.5], dtype=f16),
    "mat": lambda: torch.arange(12.0).reshape(3, 4) / 3,
    "complex": lambda: torch.tensor([1 + 1j, 2 - 1j]),
    "empty": lambda: torch.zeros(0),
    "empty_2d_f64": lambda: torch.zeros(0, 3, dtype=f64),
    "long_last_line": lambda: torch.arange(9.0) * 1.111,
    "nearly_full_line": lambda: torch.arange(8.0) + 0.5,
    "wrap": lambda: torch.arange(40.0) / 3,
    "big": lambda: torch.arange(3000.0).reshape(100, 30),
}


@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_requires_grad_extra(name):
    t = GRAD_CASES[name]().requires_grad_()
    check(t, ["requires_grad=True"])


@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_grad_fn_extra(name):
    t = GRAD_CASES[name]().requires_grad_() * 1
    assert type(t.grad_fn).__name__ == "MulBackward0"
    check(t, ["grad_fn=<MulBackward0>"])


def test_several_extras_and_prefix_indent():
    t = torch.arange(6.0).reshape(2, 3) / 7
    got = ts.format_tensor(t.numpy(), "float32", extras=["a=1", "b=2"], prefix="xyz(")
    assert got == "xyz([[0.0000, 0.1429, 0.2857],\n     [0.4286, 0.5714, 0.7143]], a=1, b=2)"


def test_dtype_aliases_and_torch_prefix():
    t = torch.tensor([1.5, 2.0], dtype=f64)
    for alias in ("double", "torch.float64", "float64"):
        assert ts.format_tensor(t.numpy(), alias) == repr(t)


# ---------------------------------------------------------------------------
# print options
# ---------------------------------------------------------------------------


def test_default_printoptions():
    assert ts.get_printoptions() == torch._tensor_str.get_printoptions()
    assert ts.get_printoptions() == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }


PRINTOPTION_SETS = [
    {"precision": 2},
    {"precision": 0},
    {"precision": 8},
    {"threshold": 5},
    {"threshold": 5, "edgeitems": 1},
    {"threshold": 5, "edgeitems": 0},
    {"edgeitems": 0},
    {"linewidth": 30},
    {"linewidth": 5},
    {"linewidth": 200},
    {"sci_mode": True},
    {"sci_mode": False},
    {"sci_mode": True, "precision": 1},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "short", "precision": 6},
    {"profile": "default"},
    {"profile": "nonexistent", "precision": 3},
]

PRINTOPTION_TENSORS: dict[str, Callable[[], torch.Tensor]] = {
    "scalar": lambda: torch.tensor(3.14159),
    "scalar_zero": lambda: torch.tensor(0.0),
    "vec": lambda: torch.tensor([1.23456789, -2.5, 1000.0]),
    "vec_ints": lambda: torch.tensor([1.0, 2.0, 30.0]),
    "vec_sci": lambda: torch.tensor([1e-6, 1.0, 1e6]),
    "zeros": lambda: torch.zeros(3),
    "nonfinite": lambda: torch.tensor([nan, 1.0, -inf]),
    "int": lambda: torch.arange(20),
    "bool": lambda: torch.arange(10) % 2 == 0,
    "mat": lambda: torch.arange(30.0).reshape(5, 6) / 3,
    "t3": lambda: torch.arange(60).reshape(3, 4, 5),
    "complex": lambda: torch.arange(8.0) * (0.5 + 1.5j),
    "big": lambda: torch.arange(3000.0).reshape(30, 100) / 7,
    "empty": lambda: torch.zeros(0, 2),
    "f64": lambda: torch.arange(12, dtype=f64).reshape(3, 4) * 0.1,
}


@pytest.mark.parametrize("opts", PRINTOPTION_SETS, ids=lambda o: repr(o))
@pytest.mark.parametrize("tname", list(PRINTOPTION_TENSORS))
def test_printoptions_match_torch(opts, tname):
    t = PRINTOPTION_TENSORS[tname]()
    torch.set_printoptions(**opts)
    ts.set_printoptions(**opts)
    assert ts.get_printoptions() == torch._tensor_str.get_printoptions()
    check(t)
    if t.is_floating_point() or t.is_complex():
        check(t.requires_grad_(), ["requires_grad=True"])


def test_set_printoptions_resets_sci_mode_like_torch():
    for mod in (torch, ts):
        mod.set_printoptions(sci_mode=True)
        mod.set_printoptions(precision=3)
    assert ts.get_printoptions() == torch._tensor_str.get_printoptions()
    assert ts.get_printoptions()["sci_mode"] is None


def test_printoptions_context_manager():
    with ts.printoptions(precision=1, threshold=3):
        assert ts.get_printoptions()["precision"] == 1
        assert ts.format_tensor(np.arange(10.0, dtype=np.float32), "float32") == (
            "tensor([0., 1., 2.,  ..., 7., 8., 9.])"
        )
    assert ts.get_printoptions()["precision"] == 4


def test_module_does_not_import_torch():
    code = (
        "import sys; sys.modules['torch'] = None; "
        f"sys.path.insert(0, {str(ROOT)!r}); "
        "import numpy as np; from shadowgrad import _tensor_str as ts; "
        "print(ts.format_tensor(np.array([1.0, 2.5], dtype=np.float32), 'float32'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "tensor([1.0000, 2.5000])"


# ---------------------------------------------------------------------------
# property-based comparison
# ---------------------------------------------------------------------------

_HYP_DTYPES = [
    np.float32,
    np.float64,
    np.float16,
    np.int64,
    np.int32,
    np.int16,
    np.int8,
    np.uint8,
    np.bool_,
    np.complex64,
    np.complex128,
]

_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=7)


def _dist_values(rng: np.random.Generator, dist: str, shape: tuple[int, ...]) -> np.ndarray:
    if dist == "normal":
        return rng.standard_normal(shape)
    if dist == "integers":
        return rng.integers(-1000, 1000, shape).astype(np.float64)
    if dist == "tiny":
        return rng.standard_normal(shape) * 1e-6
    if dist == "huge":
        return rng.standard_normal(shape) * 1e10
    if dist == "lognormal":
        return np.exp(rng.normal(0.0, 8.0, shape)) * rng.choice([-1.0, 1.0], shape)
    if dist == "halves":
        return rng.integers(-40, 40, shape) / 2.0
    if dist == "round4":
        return np.round(rng.standard_normal(shape) * 100, 4) + 0.00005
    raise AssertionError(dist)


@st.composite
def _distribution_arrays(draw):
    shape = draw(_shapes)
    dtype = draw(st.sampled_from(_HYP_DTYPES))
    dist = draw(
        st.sampled_from(["normal", "integers", "tiny", "huge", "lognormal", "halves", "round4"])
    )
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    values = _dist_values(rng, dist, shape)
    if dtype in (np.complex64, np.complex128):
        values = values + 1j * _dist_values(rng, dist, shape)
    is_inexact = np.issubdtype(dtype, np.inexact)
    if is_inexact and draw(st.booleans()) and values.size:
        flat = values.reshape(-1)
        for special in draw(st.lists(st.sampled_from([nan, inf, -inf, -0.0, 0.0]))):
            flat[rng.integers(0, flat.size)] = special
    if dtype is np.bool_:
        return values > 0
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        values = np.nan_to_num(values, nan=0.0, posinf=info.max, neginf=info.min)
        return np.clip(np.round(values), info.min, info.max).astype(dtype)
    with np.errstate(over="ignore"):
        return values.astype(dtype)


_SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SLOW
@given(_distribution_arrays())
def test_hypothesis_distributions(arr):
    check(torch.tensor(arr))


@_SLOW
@given(
    st.sampled_from(_HYP_DTYPES).flatmap(
        lambda dt: hnp.arrays(dt, _shapes, elements=hnp.from_dtype(np.dtype(dt)))
    )
)
def test_hypothesis_arbitrary_values(arr):
    check(torch.tensor(arr))


@settings(max_examples=150, deadline=None)
@given(
    arr=_distribution_arrays(),
    precision=st.integers(0, 8),
    threshold=st.sampled_from([0, 3, 10, 50, 1000]),
    edgeitems=st.integers(0, 4),
    linewidth=st.integers(10, 120),
    sci_mode=st.sampled_from([None, True, False]),
    default=st.sampled_from([torch.float32, torch.float64]),
    grad=st.booleans(),
)
def test_hypothesis_printoptions(
    arr, precision, threshold, edgeitems, linewidth, sci_mode, default, grad
):
    opts = dict(
        precision=precision,
        threshold=threshold,
        edgeitems=edgeitems,
        linewidth=linewidth,
        sci_mode=sci_mode,
    )
    old = torch.get_default_dtype()
    try:
        torch.set_default_dtype(default)
        torch.set_printoptions(**opts)
        ts.set_printoptions(**opts)
        t = torch.tensor(arr)
        if grad and (t.is_floating_point() or t.is_complex()):
            check(t.requires_grad_(), ["requires_grad=True"])
        else:
            check(t)
    finally:
        torch.set_default_dtype(old)
        _reset_printoptions()
