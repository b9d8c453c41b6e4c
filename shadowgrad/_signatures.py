"""The functions of the torch namespace whose first parameter must be a Tensor, and the
names torch's argument parser gives them in its error (`exp(): argument 'input' (position 1)
must be Tensor, not float`).

shadowgrad's ops accept a Python number anywhere (its own code relies on that); the public
functions listed here refuse one as torch does. The lists were read from torch 2.13 by calling
each function with a float; compat/test_tensor_fixes.py checks them against torch again.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ._dtype import dtype as _dtype_class
from ._numpy_compat import _ALIASES as _NUMPY_ALIASES
from ._numpy_compat import skipped_by_warnings

# torch.<name>: reported as <name>(), first parameter 'input'
PLAIN = frozenset(
    """
    abs abs_ absolute acos acos_ acosh acosh_ adaptive_avg_pool1d adaptive_max_pool1d adjoint
    alias_copy allclose alpha_dropout alpha_dropout_ amax amin aminmax angle arccos arccos_
    arccosh arccosh_ arcsin arcsin_ arcsinh arcsinh_ arctan arctan2 arctan_ arctanh arctanh_
    argmax argmin argsort argwhere as_strided as_strided_copy as_strided_scatter asin asin_
    asinh asinh_ atan atan2 atan_ atanh atanh_ avg_pool1d batch_norm bernoulli
    binary_cross_entropy_with_logits bincount bitwise_not broadcast_to ceil ceil_ celu celu_
    channel_shuffle cholesky cholesky_inverse cholesky_solve chunk clone combinations conj
    conj_physical constant_pad_nd conv_tbc conv_transpose1d conv_transpose2d conv_transpose3d
    corrcoef cos cos_ cosh cosh_ count_nonzero cov cross cummax cummin cumprod cumsum deg2rad
    deg2rad_ det detach detach_ detach_copy diag diag_embed diagflat diagonal diagonal_copy
    diagonal_scatter diff digamma dist dot dropout dropout_ embedding_renorm_ empty_like equal
    erf erf_ erfc erfc_ erfinv exp exp2 exp2_ exp_ expand_copy expm1 expm1_
    feature_alpha_dropout feature_alpha_dropout_ feature_dropout feature_dropout_ fix fix_
    flatten flip fliplr flipud floor floor_ fmax fmin frac frac_ frexp full_like gather gcd gcd_
    geqrf ger gradient grid_sampler group_norm gru_cell hardshrink heaviside
    hinge_embedding_loss histc histogram hypot i0 i0_ igamma igammac imag index_add index_copy
    index_put index_put_ index_reduce index_select inner instance_norm inverse is_complex
    is_conj is_floating_point is_inference is_neg is_nonzero is_same_size is_signed isclose
    isfinite isinf isnan isneginf isposinf isreal kl_div kron kthvalue layer_norm lcm lcm_ ldexp
    ldexp_ lgamma log log10 log10_ log1p log1p_ log2 log2_ log_ log_softmax logaddexp logaddexp2
    logcumsumexp logdet logical_and logical_not logical_or logical_xor logit logit_ logsumexp
    lstm_cell lu_solve masked_scatter masked_select matmul matrix_exp matrix_power max
    max_pool1d max_pool1d_with_indices max_pool2d max_pool3d maximum mean median min minimum
    mode msort multinomial mv mvlgamma nan_to_num nan_to_num_ nanmean nanmedian nansum
    narrow_copy native_batch_norm native_channel_shuffle native_dropout native_group_norm
    native_layer_norm neg neg_ negative negative_ nextafter nonzero nonzero_static numel
    ones_like orgqr ormqr outer pdist permute permute_copy pinverse pixel_shuffle
    pixel_unshuffle poisson poisson_nll_loss positive prelu prod put rad2deg rad2deg_ rand_like
    randn_like ravel real reciprocal reciprocal_ relu relu_ renorm reshape resize_as_
    resolve_conj resolve_neg rms_norm rnn_relu_cell rnn_tanh_cell roll rot90 round round_ rrelu
    rrelu_ rsqrt rsqrt_ scatter_add scatter_reduce select select_copy select_scatter selu selu_
    sgn sigmoid sigmoid_ sign signbit sin sin_ sinc sinc_ sinh sinh_ slice_copy slice_scatter
    slogdet softmax sort split_copy split_with_sizes split_with_sizes_copy sqrt sqrt_ square
    square_ squeeze squeeze_copy sum svd swapaxes swapdims t t_copy take take_along_dim tan tan_
    tanh tanh_ threshold threshold_ tile topk trace transpose transpose_copy triangular_solve
    tril triu trunc trunc_ unbind unbind_copy unflatten unfold_copy unique_consecutive
    unsafe_chunk unsafe_split unsafe_split_with_sizes unsqueeze unsqueeze_copy vdot
    view_as_complex view_as_real zero_ zeros_like
    convolution frobenius_norm get_device grid_sampler_2d grid_sampler_3d is_distributed istft
    native_norm nuclear_norm
    """.split()  # noqa: SIM905 - a word list reads better than 300 quoted names
)

# torch.special.<name>: reported as special_<name>(), first parameter 'input'
SPECIAL = frozenset(
    """
    bessel_j0 bessel_j1 bessel_y0 bessel_y1 digamma entr erf erfc erfcx erfinv exp2 expit expm1
    gammainc gammaincc gammaln i0 i0e i1 i1e log1p log_ndtr log_softmax logit logsumexp
    modified_bessel_i0 modified_bessel_i1 modified_bessel_k0 modified_bessel_k1 multigammaln
    ndtr ndtri psi round sinc softmax
    """.split()  # noqa: SIM905 - a word list reads better than 300 quoted names
)

# the others: "<namespace.>name" -> (reported name, first parameter)
OTHER: dict[str, tuple[str, str]] = {
    "affine_grid_generator": ("affine_grid_generator", "theta"),
    "bilinear": ("bilinear", "input1"),
    "binomial": ("binomial", "count"),
    "complex": ("complex", "real"),
    "cosine_embedding_loss": ("cosine_embedding_loss", "input1"),
    "cosine_similarity": ("cosine_similarity", "x1"),
    "cumulative_trapezoid": ("cumulative_trapezoid", "y"),
    "embedding": ("embedding", "weight"),
    "linalg.cholesky": ("linalg_cholesky", "input"),
    "linalg.cholesky_ex": ("linalg_cholesky_ex", "input"),
    "linalg.cond": ("linalg_cond", "input"),
    "linalg.cross": ("linalg_cross", "input"),
    "linalg.det": ("linalg_det", "A"),
    "linalg.diagonal": ("linalg_diagonal", "A"),
    "linalg.eig": ("linalg_eig", "input"),
    "linalg.eigh": ("linalg_eigh", "input"),
    "linalg.eigvals": ("linalg_eigvals", "input"),
    "linalg.eigvalsh": ("linalg_eigvalsh", "input"),
    "linalg.householder_product": ("linalg_householder_product", "input"),
    "linalg.inv": ("linalg_inv", "A"),
    "linalg.inv_ex": ("linalg_inv_ex", "A"),
    "linalg.ldl_factor": ("linalg_ldl_factor", "input"),
    "linalg.ldl_factor_ex": ("linalg_ldl_factor_ex", "input"),
    "linalg.ldl_solve": ("linalg_ldl_solve", "LD"),
    "linalg.lstsq": ("linalg_lstsq", "input"),
    "linalg.lu": ("linalg_lu", "A"),
    "linalg.lu_factor": ("linalg_lu_factor", "A"),
    "linalg.lu_factor_ex": ("linalg_lu_factor_ex", "A"),
    "linalg.lu_solve": ("linalg_lu_solve", "LU"),
    "linalg.matmul": ("linalg_matmul", "input"),
    "linalg.matrix_exp": ("linalg_matrix_exp", "input"),
    "linalg.matrix_norm": ("linalg_matrix_norm", "input"),
    "linalg.matrix_power": ("linalg_matrix_power", "input"),
    "linalg.norm": ("linalg_norm", "input"),
    "linalg.qr": ("linalg_qr", "A"),
    "linalg.slogdet": ("linalg_slogdet", "A"),
    "linalg.solve": ("linalg_solve", "A"),
    "linalg.solve_ex": ("linalg_solve_ex", "A"),
    "linalg.solve_triangular": ("linalg_solve_triangular", "input"),
    "linalg.svd": ("linalg_svd", "A"),
    "linalg.svdvals": ("linalg_svdvals", "A"),
    "linalg.tensorinv": ("linalg_tensorinv", "input"),
    "linalg.tensorsolve": ("linalg_tensorsolve", "input"),
    "linalg.vander": ("linalg_vander", "x"),
    "linalg.vecdot": ("linalg_vecdot", "x"),
    "linalg.vector_norm": ("linalg_vector_norm", "input"),
    "lu": ("_lu_with_info", "input"),
    "lu_unpack": ("lu_unpack", "LU_data"),
    "margin_ranking_loss": ("margin_ranking_loss", "input1"),
    "norm_except_dim": ("norm_except_dim", "v"),
    "pairwise_distance": ("pairwise_distance", "x1"),
    "polar": ("polar", "abs"),
    "repeat_interleave": ("repeat_interleave", "repeats"),
    "segment_reduce": ("segment_reduce", "data"),
    "special.airy_ai": ("special_airy_ai", "x"),
    "special.scaled_modified_bessel_k0": ("special_scaled_modified_bessel_k0", "x"),
    "special.scaled_modified_bessel_k1": ("special_scaled_modified_bessel_k1", "x"),
    "special.spherical_bessel_j0": ("special_spherical_bessel_j0", "x"),
    "trapezoid": ("trapezoid", "y"),
    "trapz": ("trapz", "y"),
    "triplet_margin_loss": ("triplet_margin_loss", "anchor"),
    "unique": ("_unique2", "input"),
    "vander": ("vander", "x"),
    "where": ("where", "condition"),
}


def _type_name(x: Any) -> str:
    t = type(x)
    if t is _dtype_class:
        return "torch.dtype"
    if t.__flags__ & _HEAPTYPE:  # a class defined in Python: its tp_name is its bare name
        return t.__name__
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE


def tensor_first(fn: Any, reported: str, param: str) -> Any:
    """fn, refusing a first positional argument that is not a Tensor with torch's TypeError."""
    from ._tensor import Tensor

    # numpy's keyword names (axis=, x=, ...): _numpy_compat sets the translation here, where
    # torch takes them, so that these functions need no second wrapper
    hook: list[Any] = [None]

    @functools.wraps(fn)
    @skipped_by_warnings  # an op's warning names the caller's line
    def checked(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            if hook[0] is not None and not _NUMPY_ALIASES.isdisjoint(kwargs):
                kwargs = hook[0](args, kwargs)
            if not args and param in kwargs:  # torch.exp(input=x): the first parameter by name
                args = (kwargs.pop(param),)
        if args and not isinstance(args[0], Tensor):
            raise TypeError(
                f"{reported}(): argument '{param}' (position 1) must be Tensor, not "
                f"{_type_name(args[0])}"
            )
        try:
            return fn(*args, **kwargs)
        except Exception:  # torch's parser refuses before the op runs: its error, if it has one
            if reported in PARSER:
                reraise(reported, args[1:], kwargs, False, args[:1])
            raise

    checked._first_param = param  # type: ignore[attr-defined] # for _numpy_compat
    checked._alias_hook = hook  # type: ignore[attr-defined]
    return checked


def install(namespace: dict[str, Any], prefix: str = "", *aliases: Any) -> None:
    """Wrap the listed functions of one namespace (torch: prefix "", torch.special: "special.",
    torch.linalg: "linalg.") in place; a module in `aliases` (torch.nn.functional) that holds
    the same function object under the same name gets the wrapped one too, so the two stay
    one object as in torch."""
    for key, (reported, param) in _entries(prefix):
        name = key[len(prefix) :]
        fn = namespace.get(name)
        if callable(fn) and not isinstance(fn, type):
            wrapped = namespace[name] = tensor_first(fn, reported, param)
            if "inplace" in getattr(getattr(fn, "__code__", None), "co_varnames", ()):
                # torch.nn.functional's own (selu(input, inplace)): Python in torch, naming
                # the in-place function (selu_) in its error; it makes that check itself
                continue
            for mod in aliases:
                if getattr(mod, name, None) is fn:
                    setattr(mod, name, wrapped)


def _entries(prefix: str) -> list[tuple[str, tuple[str, str]]]:
    out = [(k, v) for k, v in OTHER.items() if k.startswith(prefix) and "." not in k[len(prefix) :]]
    if prefix == "":
        out += [(n, (n, "input")) for n in PLAIN]
    elif prefix == "special.":
        out += [(prefix + n, ("special_" + n, "input")) for n in SPECIAL]
    return out


def not_tensor(reported: str, param: str, pos: int, value: Any) -> TypeError:
    """torch's argument-parser error for a non-Tensor where a natively bound function takes a
    Tensor (the caller tests `isinstance` first, so the common path pays nothing more)."""
    return TypeError(
        f"{reported}(): argument '{param}' (position {pos}) must be Tensor, not {_type_name(value)}"
    )


def check_int_list(reported: str, param: str, pos: int, value: Any) -> None:
    """torch's argument parser on a `SymInt[]` parameter such as layer_norm's normalized_shape:
    a list or tuple of ints (numpy integers and one-element integer Tensors count; a bare int,
    a bool or a float does not)."""
    from ._tensor import Tensor

    if not isinstance(value, (list, tuple)):
        raise TypeError(
            f"{reported}(): argument '{param}' (position {pos}) must be tuple of ints, not "
            f"{type(value).__name__ if isinstance(value, Tensor) else _type_name(value)}"
        )
    for i, e in enumerate(value):
        if isinstance(e, bool) or not (
            isinstance(e, (int, np.integer))
            or (isinstance(e, Tensor) and e.numel() == 1 and not e.dtype.is_floating_point)
        ):
            raise TypeError(
                f"{reported}(): argument '{param}' (position {pos}) must be tuple of ints, but "
                f"found element of type {type(e).__name__} at pos {i}"
            )


def check_tensors(reported: str, names: tuple[str, ...], *values: Any) -> None:
    """not_tensor for the first of `values` that is neither a Tensor nor None (None allowed
    only for the optional parameters, those after the first two)."""
    from ._tensor import Tensor

    for i, (name, v) in enumerate(zip(names, values, strict=False)):
        if not isinstance(v, Tensor) and (v is not None or i < 2):
            raise not_tensor(reported, name, i + 1, v)


def _arg_desc(a: Any) -> str:
    """How torch's argument parser describes a value in its invalid-types line."""
    from ._tensor import Tensor

    if isinstance(a, Tensor):
        return type(a).__name__
    if isinstance(a, list):
        return f"list of [{', '.join(_type_name(v) for v in a)}]"
    if isinstance(a, tuple):
        names = [_type_name(v) for v in a]
        return f"tuple of ({', '.join(names)}{',' if len(names) == 1 else ''})"
    return _type_name(a)


def invalid_combination(
    reported: str, signatures: tuple[tuple[str, tuple[int, ...]], ...], nparams: int, *args: Any
) -> TypeError:
    """torch's overload-resolution error: `conv2d() received an invalid combination of
    arguments - got (list, Tensor), but expected one of: ...`. Each signature comes with the
    positions of its Tensor parameters; given every parameter positionally, each overload also
    lists the values, all marked but a plain Tensor at one of those positions (torch's listing
    marks the others, valid or not)."""
    from ._tensor import Tensor

    got = ", ".join(type(a).__name__ if isinstance(a, Tensor) else _type_name(a) for a in args)
    lines = ""
    for sig, tensors in signatures:
        lines += f" * ({sig})\n"
        if len(args) == nparams:
            marked = ", ".join(
                _arg_desc(a) if i in tensors and type(a) is Tensor else f"!{_arg_desc(a)}!"
                for i, a in enumerate(args)
            )
            lines += (
                f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            )
    return TypeError(
        f"{reported}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{lines}"
    )


def no_attribute(value: Any, name: str) -> AttributeError:
    """The AttributeError of torch's Python code calling `value.<name>()` on a non-Tensor."""
    try:
        attr = getattr(value, name)
    except AttributeError as e:  # Python's own message ('numpy.ndarray' object has no ...)
        return e
    if callable(attr):
        try:
            attr()
        except Exception as e:  # the error torch's call would raise
            return e  # type: ignore[return-value]
    return TypeError(f"'{type(attr).__name__}' object is not callable")  # type: ignore[return-value]


# --- torch's argument parser, for the error paths ----------------------------------------------
# Each entry: the name torch's error reports and the function form's overloads, in the parser's
# own notation (schema types: Tensor, Tensor?, int, int?, float, bool, Scalar, int[], int[1],
# ScalarType?, str). The method form is the same signature without its first parameter, its
# positions counted without self. Read from torch 2.13 by calling each with wrong arguments.
PARSER: dict[str, tuple[str, tuple[str, ...]]] = {}


def _declare(table: str) -> None:
    for line in table.strip().replace("\n        ", " ").splitlines():  # continued lines
        key, _, rest = line.partition(":")
        reported, _, sigs = rest.strip().partition(" ")
        PARSER[key.strip()] = (reported, tuple(s.strip() for s in sigs.split("|")))


_declare(
    """
    mm: mm Tensor input, Tensor mat2, *, Tensor? out=None
        | F Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor? out=None
    bmm: bmm Tensor input, Tensor mat2, *, Tensor? out=None
        | F Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor? out=None
    mv: mv Tensor input, Tensor vec
    dot: dot Tensor input, Tensor tensor
    vdot: vdot Tensor input, Tensor other
    inner: inner Tensor input, Tensor other
    outer: outer Tensor input, Tensor vec2
    ger: ger Tensor input, Tensor vec2
    kron: kron Tensor input, Tensor other
    cross: cross Tensor input, Tensor other, int? dim=None
    allclose: allclose Tensor input, Tensor other, float rtol=1e-05, float atol=1e-08,
        bool equal_nan=False
    masked_select: masked_select Tensor input, Tensor mask
    expand_as: expand_as Tensor input, Tensor other
    view_as: view_as Tensor input, Tensor other
    reshape_as: reshape_as Tensor input, Tensor other
    take_along_dim: take_along_dim Tensor input, Tensor indices, int? dim=None
    cholesky_solve: cholesky_solve Tensor input, Tensor input2, bool upper=False
    triangular_solve: triangular_solve Tensor input, Tensor A, bool upper=True,
        bool transpose=False, bool unitriangular=False
    diagonal_scatter: diagonal_scatter Tensor input, Tensor src, int offset=0, int dim1=0,
        int dim2=1
    slice_scatter: slice_scatter Tensor input, Tensor src, int dim=0, int? start=None,
        int? end=None, int step=1
    prelu: prelu Tensor input, Tensor weight
    tril: tril Tensor input, int diagonal=0
    triu: triu Tensor input, int diagonal=0
    diag: diag Tensor input, int diagonal=0
    diag_embed: diag_embed Tensor input, int offset=0, int dim1=-2, int dim2=-1
    diagflat: diagflat Tensor input, int offset=0
    diagonal: diagonal Tensor input, int offset=0, int dim1=0, int dim2=1
    cholesky: cholesky Tensor input, bool upper=False
    cholesky_inverse: cholesky_inverse Tensor input, bool upper=False
    matrix_power: matrix_power Tensor input, int n
    pinverse: pinverse Tensor input, float rcond=1e-15
    svd: svd Tensor input, bool some=True, bool compute_uv=True
    orgqr: orgqr Tensor input, Tensor input2
    broadcast_to: broadcast_to Tensor input, int[] size
    expand: expand Tensor input, int[] size, *, bool implicit=False
    reshape: reshape Tensor input, int[] shape
    permute: permute Tensor input, int[] dims
    repeat: repeat Tensor input, int[] repeats
    sum_to_size: sum_to_size Tensor input, int[] size
    flip: flip Tensor input, int[] dims
    roll: roll Tensor input, int[1] shifts, int[1] dims=None
    new_empty: new_empty Tensor input, int[] size, *, ScalarType? dtype=None,
        Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False
    new_ones: new_ones Tensor input, int[] size, *, ScalarType? dtype=None,
        Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False
    new_zeros: new_zeros Tensor input, int[] size, *, ScalarType? dtype=None,
        Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False
    split: split Tensor input, int split_size, int dim=0 | Tensor input, int[] split_size, int dim=0
    split_with_sizes: split_with_sizes Tensor input, int[] split_sizes, int dim=0
    unsafe_split_with_sizes: unsafe_split_with_sizes Tensor input, int[] split_sizes, int dim=0
    unsafe_split: unsafe_split Tensor input, int split_size, int dim=0
    softmax: softmax Tensor input, int dim, ScalarType? dtype=None
    log_softmax: log_softmax Tensor input, int dim, ScalarType? dtype=None
    logsumexp: logsumexp Tensor input, int[1] dim, bool keepdim=False
    transpose: transpose Tensor input, int dim0, int dim1
    unsqueeze: unsqueeze Tensor input, int dim
    flatten: flatten Tensor input, int start_dim=0, int end_dim=-1
    cumsum: cumsum Tensor input, int dim, *, ScalarType? dtype=None
    cumprod: cumprod Tensor input, int dim, *, ScalarType? dtype=None
    chunk: chunk Tensor input, int chunks, int dim=0
    topk: topk Tensor input, int k, int dim=-1, bool largest=True, bool sorted=True
    argmax: argmax Tensor input, int? dim=None, bool keepdim=False
    argmin: argmin Tensor input, int? dim=None, bool keepdim=False
    index_select: index_select Tensor input, int dim, Tensor index
    gather: gather Tensor input, int dim, Tensor index, *, bool sparse_grad=False
    """
)


class _Param:
    __slots__ = ("kind", "kwonly", "name", "none", "optional", "size", "text")

    def __init__(self, spec: str, kwonly: bool) -> None:
        decl, eq, default = spec.partition("=")
        kind, name = decl.split()
        self.none = kind.endswith("?") or default.strip() == "None"
        self.kind = kind.rstrip("?")
        self.size = self.kind == "int[1]"
        if self.size:
            self.kind = "int[]"
        self.name, self.optional, self.kwonly = name, bool(eq), kwonly
        shown = _SHOWN.get(self.kind, self.kind)
        self.text = f"{shown} {name}" + (f" = {default.strip()}" if eq else "")


_SHOWN = {"int[]": "tuple of ints", "ScalarType": "torch.dtype", "Scalar": "Number"}


@functools.cache
def _params(sig: str, method: bool) -> tuple[_Param, ...]:
    out, kwonly = [], False
    for spec in sig.split(","):
        spec = spec.strip()
        if spec == "*":
            kwonly = True
        else:
            out.append(_Param(spec, kwonly))
    return tuple(p for p in out[1:] if p.name != "out") if method else tuple(out)


def _is_index(v: Any) -> bool:
    from ._tensor import Tensor

    if isinstance(v, Tensor):
        return v.dim() == 0 and not v.dtype.is_floating_point and not v.dtype.is_complex
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _check(p: _Param, v: Any) -> tuple[bool, int]:
    """(matches, the position of a bad list element or -1) for torch's parameter check."""
    from ._dtype import dtype as dtype_class
    from ._tensor import Tensor

    if v is None:
        return p.none, -1
    k = p.kind
    if k == "Tensor":
        return isinstance(v, Tensor), -1
    if k == "int":
        return _is_index(v), -1
    if k == "bool":
        return isinstance(v, (bool, np.bool_)), -1
    if k in ("float", "Scalar"):
        if isinstance(v, Tensor):
            return v.dim() == 0 and not v.requires_grad, -1
        ok = (float, int, np.integer, np.floating) + ((complex,) if k == "Scalar" else ())
        return isinstance(v, ok), -1
    if k == "int[]":
        if p.size and _is_index(v):
            return True, -1
        if isinstance(v, (list, tuple)):
            return (True, -1) if not v or _is_index(v[0]) else (False, 0)
        return False, -1
    if k == "ScalarType":
        return isinstance(v, dtype_class) or v in (float, int, bool, complex), -1
    if k == "str":
        return isinstance(v, str), -1
    return True, -1  # Layout, Device, ...: not checked here


def _missing(reported: str, names: list[str]) -> TypeError:
    # torch's wording: "arguments" for one, "argument" for several
    return TypeError(
        f"{reported}() missing {len(names)} required positional argument"
        f"{'s' if len(names) == 1 else ''}: {', '.join(chr(34) + n + chr(34) for n in names)}"
    )


def _signature_error(
    reported: str, params: tuple[_Param, ...], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> TypeError | None:
    """FunctionSignature::parse with raise_exception: the first error torch's parser reports
    for one signature, or None when the arguments fit it."""
    npos = sum(not p.kwonly for p in params)
    nargs = len(args)
    varargs = npos == 1 and params[0].kind == "int[]" and nargs >= 1 and _is_index(args[0])
    if nargs > npos and not varargs:
        lo = min(sum(not p.optional for p in params), npos)
        s = "" if npos == 1 and lo == npos else "s"
        were = "was" if nargs == 1 else "were"
        span = f"{npos}" if lo == npos else f"from {lo} to {npos}"
        return TypeError(
            f"{reported}() takes {span} positional argument{s} but {nargs} {were} given"
        )
    used = set()
    for i, p in enumerate(params):
        if varargs and i == 0:
            v, kw = tuple(args), False
        elif i < nargs and not p.kwonly:
            v, kw = args[i], False
        elif p.name in kwargs:
            v, kw = kwargs[p.name], True
            used.add(p.name)
        else:
            if not p.optional:
                return _missing(
                    reported,
                    [q.name for q in params[i:] if not q.optional and q.name not in kwargs],
                )
            continue
        ok, bad = _check(p, v)
        pos = "" if kw else f" (position {i + 1})"
        if not ok:
            shown = _SHOWN.get(p.kind, p.kind)
            if bad >= 0:
                return TypeError(
                    f"{reported}(): argument '{p.name}'{pos} must be {shown}, but found element "
                    f"of type {type(v[bad]).__name__} at pos {bad}"
                )
            return TypeError(
                f"{reported}(): argument '{p.name}'{pos} must be {shown}, not {_type_name(v)}"
            )
        if p.kind == "int[]" and isinstance(v, (list, tuple)):
            for j, e in enumerate(v):
                if not _is_index(e):
                    return TypeError(
                        f"{reported}(): argument '{p.name}' failed to unpack the object at pos "
                        f'{j + 1} with error "type must be tuple of ints,but got '
                        f'{type(e).__name__}"'
                    )
    names = {p.name for p in params[: min(nargs, npos)]}
    for k in kwargs:
        if k not in used:
            if k in names:
                return TypeError(f"{reported}() got multiple values for argument '{k}'")
            return TypeError(f"{reported}() got an unexpected keyword argument '{k}'")
    return None


def parser_error(
    key: str, args: tuple[Any, ...], kwargs: dict[str, Any], method: bool
) -> TypeError | None:
    """torch's argument-parser error for calling `key` (a PARSER entry) with these arguments
    (the method form: `args` without self), or None when torch's parser accepts them. For the
    error paths only: the op calls it once its own work has failed."""
    entry = PARSER.get(key)
    if entry is None:
        return None
    reported, sigs = entry
    # "F ...": an overload of the function form only
    overloads = [_params(s[2:] if s[:2] == "F " else s, method) for s in sigs]
    if method:
        overloads = [ps for ps, s in zip(overloads, sigs, strict=True) if s[:2] != "F "]
    errors = [_signature_error(reported, ps, args, kwargs) for ps in overloads]
    if any(e is None for e in errors):
        return None
    if len(overloads) == 1:
        return errors[0]
    n = len(args) + len(kwargs)
    plausible = [
        e
        for e, ps in zip(errors, overloads, strict=True)
        if sum(not p.optional for p in ps) <= n <= len(ps)
    ]
    if len(plausible) == 1:
        return plausible[0]
    got = ", ".join(_arg_desc(a) for a in args)
    if kwargs:
        got += ", ".join(f"{k}={_arg_desc(v)}" for k, v in kwargs.items()) + ", "
    listing = ""
    shown = sigs if not method else [s for s in sigs if s[:2] != "F "]
    for ps, sig in zip(overloads, shown, strict=True):
        listing += f" * ({_listed(ps)})\n"
        if not kwargs and sig[:2] != "F " and len(args) == sum(not p.kwonly for p in ps):
            marked = ", ".join(
                _arg_desc(a) if _check(p, a)[0] else f"!{_arg_desc(a)}!"
                for p, a in zip(ps, args, strict=True)
            )
            listing += (
                f"      didn't match because some of the arguments have invalid types: ({marked})\n"
            )
    return TypeError(
        f"{reported}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n{listing}"
    )


def _listed(params: tuple[_Param, ...]) -> str:
    texts = [p.text for p in params if not p.kwonly]
    kw = [p.text for p in params if p.kwonly]
    return ", ".join([*texts, "*", *kw] if kw else texts)


def reraise(
    key: str, args: tuple[Any, ...], kwargs: dict[str, Any], method: bool = True, first: Any = ()
) -> None:
    """Inside an `except` of an op's failed call: raise torch's argument-parser error in place
    of the op's own when torch's parser refuses the arguments (else return, to re-raise).
    `first`: the function form's first argument(s), ahead of `args`."""
    err = parser_error(key, tuple(first) + tuple(args), kwargs, method)
    if err is not None:
        raise err from None
